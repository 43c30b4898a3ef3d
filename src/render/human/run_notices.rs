//! The run's notices ([`RunNotices`]) as warning lines, one each.

use crate::facts::run_notices::RunNotices;
use crate::render::human::Painter;
use crate::support::error::LockOwner;

/// A line per stale lock taken over (with its owner), then one for an index unkept.
pub fn warnings(painter: &Painter, notices: RunNotices) -> Vec<String> {
    let locks = notices.stale_locks.into_iter().map(|(lock, owner)| {
        let owner = LockOwner::describe(owner.as_ref(), painter.lang());
        painter.f(
            crate::k!("main.stale_lock"),
            &[("lock", &lock.display()), ("owner", &owner)],
        )
    });
    let unkept = (notices.index_unkept.into_iter())
        .map(|dir| painter.f(crate::k!("main.index_unkept"), &[("dir", &dir.display())]));
    locks.chain(unkept).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::i18n::Lang;

    #[test]
    fn each_notice_is_one_line_in_order() {
        let painter = Painter::new(false, Lang::En);
        let notices = RunNotices {
            stale_locks: vec![("/r/.git/a.lock".into(), None)],
            index_unkept: Some("/r/.git/git-handover/notes-index".into()),
        };
        let lines = warnings(&painter, notices);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with("removed the stale lock /r/.git/a.lock"),
            "{lines:?}"
        );
        assert!(
            lines[1].contains("/r/.git/git-handover/notes-index"),
            "{lines:?}"
        );
    }
}
