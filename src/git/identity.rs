//! Who writes the notes commits and the reflog entries, and when: git's identity, found
//! as gix finds it, with the time worked out here. gix's own `committer()` works out the
//! time of both persons on first use with `Time::now_local_or_utc`, whose time zone is
//! looked up in a zone database that jiff builds by walking every directory under
//! `/usr/share/zoneinfo` (about a hundred), once per run; a claim paid it on every write.
//! Here the time is `GIT_COMMITTER_DATE` / `GIT_AUTHOR_DATE` when set (gix maps them to
//! `gitoxide.commit.*Date`, git's formats), else now with the local offset of
//! `support/clock.rs` (`/etc/localtime`'s target read without the walk): the seconds
//! and offset git writes for now and for a dated value with its offset. Two cases read
//! as gix reads them, not as git does (gix's own `committer()` does the same): a date
//! without an offset is taken as UTC (git: the local zone), and one gix cannot read is
//! now (git stops with "invalid date format").

use gix::bstr::{BString, ByteSlice};

use super::Repo;

/// One signature, owned: name, email and the time as a commit header writes it.
pub(super) struct Person {
    name: BString,
    email: BString,
    time: String,
}

impl Person {
    pub(super) fn as_ref(&self) -> gix::actor::SignatureRef<'_> {
        gix::actor::SignatureRef {
            name: self.name.as_bstr(),
            email: self.email.as_bstr(),
            time: self.time.as_str(),
        }
    }
}

/// Which of git's two persons.
#[derive(Clone, Copy)]
enum Role {
    Committer,
    Author,
}

impl Repo {
    /// The committer git would write (`None`: no name or email is configured), as
    /// `Repository::committer` resolves it, name and email each on its own:
    /// `GIT_COMMITTER_*` or `committer.*`, then `user.*`, then `EMAIL` (the email), then
    /// gitoxide's fallbacks.
    pub(super) fn committer(&self) -> Option<Person> {
        self.person(Role::Committer)
    }

    /// The author, as [`Repo::committer`] (`GIT_AUTHOR_*`, `author.*`).
    pub(super) fn author(&self) -> Option<Person> {
        self.person(Role::Author)
    }

    /// Point `name` at `id` under `constraint`, with a reflog entry by the committer
    /// (gix's `Repository::reference`, the committer this module's).
    pub(super) fn set_ref(
        &self,
        name: &str,
        id: gix::ObjectId,
        constraint: gix::refs::transaction::PreviousValue,
        message: impl Into<BString>,
    ) -> std::result::Result<(), String> {
        let name: gix::refs::FullName = name.try_into().map_err(|e| format!("{e}"))?;
        let edit = gix::refs::transaction::RefEdit::update(name, id, constraint, message.into());
        self.edit_ref(edit).map(|_| ()).map_err(|e| e.to_string())
    }

    /// One reference edit, its reflog entry (if any) by the committer of this module.
    pub(super) fn edit_ref(
        &self,
        edit: gix::refs::transaction::RefEdit,
    ) -> std::result::Result<Vec<gix::refs::transaction::RefEdit>, gix::Error> {
        let committer = self.committer();
        self.repo
            .edit_references_as(Some(edit), committer.as_ref().map(Person::as_ref))
    }

    fn person(&self, role: Role) -> Option<Person> {
        let config = self.repo.config_snapshot();
        let get = |key: &str| config.string(key);
        let (own, fallback, date) = match role {
            Role::Committer => (
                "committer",
                "gitoxide.committer",
                "gitoxide.commit.committerDate",
            ),
            Role::Author => ("author", "gitoxide.author", "gitoxide.commit.authorDate"),
        };
        let name = (get(&format!("{own}.name")))
            .or_else(|| get("user.name"))
            .or_else(|| get(&format!("{fallback}.nameFallback")))?;
        let email = (get(&format!("{own}.email")))
            .or_else(|| get("user.email"))
            .or_else(|| get("gitoxide.user.emailFallback"))
            .or_else(|| get(&format!("{fallback}.emailFallback")))?;
        let time = get(date)
            .and_then(|d| parse_date(d.to_str().ok()?))
            .unwrap_or_else(now);
        Some(Person {
            name,
            email,
            time: time.to_string(),
        })
    }
}

/// A date as `GIT_COMMITTER_DATE` may give it (git's formats). Only a relative one
/// ("2 days ago") needs the local time zone gix finds its own way.
fn parse_date(date: &str) -> Option<gix::date::Time> {
    gix::date::parse(date, None)
        .ok()
        .or_else(|| gix::date::parse(date, Some(gix::date::Zoned::now())).ok())
}

/// Now, in whole seconds, with the local time zone's offset at that instant.
pub(super) fn now() -> gix::date::Time {
    let at = jiff::Timestamp::now();
    let offset = crate::support::clock::local_zone().to_offset(at).seconds();
    gix::date::Time::new(at.as_second(), offset)
}

#[cfg(test)]
mod tests {
    /// Now is the local offset's now (UTC where no zone is set), as a header says it.
    #[test]
    fn now_is_seconds_and_the_local_offset() {
        let t = super::now();
        let want = crate::support::clock::local_zone()
            .to_offset(jiff::Timestamp::from_second(t.seconds).unwrap())
            .seconds();
        assert_eq!(t.offset, want);
        assert!((jiff::Timestamp::now().as_second() - t.seconds).abs() < 5);
    }

    /// git's own formats, as `GIT_COMMITTER_DATE` gives them.
    #[test]
    fn dates_in_git_formats_are_read() {
        let raw = super::parse_date("1700000000 -0500").unwrap();
        assert_eq!((raw.seconds, raw.offset), (1_700_000_000, -5 * 3600));
        let iso = super::parse_date("2026-12-06T08:00:00+09:00").unwrap();
        assert_eq!((iso.seconds, iso.offset), (1_796_511_600, 9 * 3600));
        assert!(super::parse_date("not a date").is_none());
    }
}
