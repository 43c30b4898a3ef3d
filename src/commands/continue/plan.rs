//! What `continue` will do with the chosen handover, decided as plain data before
//! anything is done: the steps are then carried out through the services, in order.

use super::Mode;
use crate::services::assess::Kind;

/// A side effect of `continue`, each reported in a line when it changes something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Move a legacy v2 state into a session directory (SPEC section 7).
    Migrate,
    /// Write a session found only in the notes store into this worktree.
    Restore,
    /// Regenerate the session's `handover.md`.
    Render,
    /// Remove this worktree's finished sessions older than `handover.cleanAfter`.
    Clean,
    /// Copy the continue-here note away and remove it.
    Consume,
    /// Make a copy of another worktree's session this worktree's own.
    Adopt,
}

/// What the plan depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    pub kind: Kind,
    /// Found only in the notes store.
    pub from_store: bool,
    /// `ALL_COMPLETE`: nothing to brief, nothing to do.
    pub finished: bool,
    pub mode: Mode,
    /// `--keep`: the note stays.
    pub keep: bool,
    /// `handover.autoClean`.
    pub auto_clean: bool,
    /// Run inside a worktree (cleaning and restoring need one).
    pub in_worktree: bool,
    /// The session is a copy of another worktree's.
    pub copy: bool,
    /// `--adopt`.
    pub adopt: bool,
}

/// The steps, in the order they are carried out: the handover is made a session of
/// this worktree first (migrate, restore), then the briefing is read, then the rest.
pub fn plan(f: Facts) -> Vec<Step> {
    if f.mode == Mode::ReadOnly || f.finished {
        return Vec::new();
    }
    let mut steps = Vec::new();
    match f.kind {
        Kind::Legacy => steps.extend([Step::Migrate, Step::Render]),
        Kind::Session if f.from_store => steps.extend([Step::Restore, Step::Render]),
        // Nothing is written into another worktree's session, unless it is adopted.
        Kind::Session if f.copy && f.adopt && f.in_worktree => {
            steps.extend([Step::Adopt, Step::Render]);
        }
        Kind::Session if f.copy => {}
        Kind::Session => steps.push(Step::Render),
        Kind::ContinueHere => {}
    }
    if f.auto_clean && f.in_worktree {
        steps.push(Step::Clean);
    }
    if f.kind == Kind::ContinueHere && !f.keep {
        steps.push(Step::Consume);
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(kind: Kind) -> Facts {
        Facts {
            kind,
            from_store: false,
            finished: false,
            mode: Mode::Resume,
            keep: false,
            auto_clean: true,
            in_worktree: true,
            copy: false,
            adopt: false,
        }
    }

    #[test]
    fn a_copy_is_only_written_when_adopted() {
        use Step::*;
        let copy = Facts {
            copy: true,
            ..facts(Kind::Session)
        };
        assert_eq!(plan(copy), [Clean]);
        assert_eq!(
            plan(Facts {
                adopt: true,
                ..copy
            }),
            [Adopt, Render, Clean]
        );
    }

    #[test]
    fn each_kind_of_handover_gets_its_steps_in_order() {
        use Step::*;
        assert_eq!(plan(facts(Kind::Session)), [Render, Clean]);
        assert_eq!(plan(facts(Kind::Legacy)), [Migrate, Render, Clean]);
        assert_eq!(
            plan(Facts {
                from_store: true,
                ..facts(Kind::Session)
            }),
            [Restore, Render, Clean]
        );
        assert_eq!(plan(facts(Kind::ContinueHere)), [Clean, Consume]);
    }

    #[test]
    fn flags_and_places_take_steps_away() {
        use Step::*;
        let note = facts(Kind::ContinueHere);
        assert_eq!(plan(Facts { keep: true, ..note }), [Clean]);
        assert_eq!(
            plan(Facts {
                auto_clean: false,
                ..note
            }),
            [Consume]
        );
        assert_eq!(
            plan(Facts {
                in_worktree: false,
                ..note
            }),
            [Consume]
        );
        assert_eq!(
            plan(Facts {
                in_worktree: false,
                ..facts(Kind::Session)
            }),
            [Render]
        );
    }

    #[test]
    fn read_only_and_finished_do_nothing() {
        for kind in [Kind::Session, Kind::Legacy, Kind::ContinueHere] {
            let read_only = Facts {
                mode: Mode::ReadOnly,
                ..facts(kind)
            };
            assert!(plan(read_only).is_empty(), "{kind:?}");
            let finished = Facts {
                finished: true,
                ..facts(kind)
            };
            assert!(plan(finished).is_empty(), "{kind:?}");
        }
    }
}
