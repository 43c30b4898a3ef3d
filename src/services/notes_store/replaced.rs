//! Which older record a record of `log` is told against (SPEC section 8): the record
//! it replaced, not the one before it in time, which across a divergence is the other
//! side's (two clones writing one session offline, their notes merged: the time order
//! told one side removed what it never had).
//!
//! The older records of its session that hold a state are walked in `log`'s order
//! (newest first), the same walk for the store read whole, the index's kept records
//! and the stream, so the three tell the same:
//! - a record written before `seq` existed: the first of them (the time order);
//! - a record with a `seq` and no `parent` began its session: it replaced nothing;
//! - else records of its own `seq` or a higher one are passed over (sides, or writes
//!   misplaced in time), and the first whose state's hash is its `parent` is it;
//! - else, at the highest `seq` below its own (a record without one counts as 0): the
//!   newest of them when they all hold one state; several states there (sides) and
//!   none its parent: no change is told; none at all: it replaced nothing when it has
//!   no parent, else its replaced state has no record here and no change is told.
//!   Seq 1 (or none) is told at once: a session is begun once, and nothing lies
//!   below it (so the stream does not hold a record, and all behind it, until the
//!   store ends for a write whose parent has no record, as after a `continue`).

use std::cmp::Ordering;

use super::index_kept::{Kept, KeptRecord, Rank, newer_first, same_session};
use crate::git::CommitId;
use crate::model::changes::{Change, Summary, between};

/// What a record is told against in `log`.
#[derive(Debug, Clone, PartialEq)]
pub enum Before<T = Summary> {
    /// Nothing: every task is new.
    New,
    /// The state it replaced.
    Was(T),
    /// Which state it replaced is not known from the store: no change is told (rather
    /// than one against another side's record).
    Untold,
}

impl Before {
    /// What changed from it to `after`.
    pub fn changes(&self, after: &Summary) -> Vec<Change> {
        match self {
            Before::New => between(None, after),
            Before::Was(b) => between(Some(b), after),
            Before::Untold => Vec::new(),
        }
    }
}

impl<T> Before<T> {
    pub(super) fn map<U>(self, f: impl FnOnce(T) -> U) -> Before<U> {
        match self {
            Before::New => Before::New,
            Before::Was(t) => Before::Was(f(t)),
            Before::Untold => Before::Untold,
        }
    }
}

/// The walk for one record over the older records of its session with a state.
#[derive(Debug)]
pub(super) struct Walk<T> {
    seq: Option<u64>,
    parent: Option<String>,
    /// The first record below its `seq`: that seq, its hash and what it holds.
    first: Option<(u64, Option<String>, T)>,
    /// Records of the first's seq hold more than one state.
    mixed: bool,
}

impl<T> Walk<T> {
    pub(super) fn of(seq: Option<u64>, parent: Option<&str>) -> Self {
        Walk {
            seq,
            parent: parent.map(str::to_owned),
            first: None,
            mixed: false,
        }
    }

    /// What it tells before any older record: a new session replaced nothing.
    pub(super) fn at_once(&self) -> Option<Before<T>> {
        (self.seq.is_some() && self.parent.is_none()).then_some(Before::New)
    }

    /// The next older record of the session that holds a state (its `seq` and state's
    /// hash; `payload` what it holds): `Some` once that tells.
    pub(super) fn step(
        &mut self,
        seq: Option<u64>,
        hash: Option<&str>,
        payload: impl FnOnce() -> T,
    ) -> Option<Before<T>> {
        let Some(own) = self.seq else {
            return Some(Before::Was(payload()));
        };
        if let Some(b) = self.at_once() {
            return Some(b);
        }
        let t = seq.unwrap_or(0);
        if t >= own {
            return None;
        }
        if hash.is_some() && hash == self.parent.as_deref() {
            return Some(Before::Was(payload()));
        }
        match &self.first {
            None if t <= 1 => Some(Before::Was(payload())),
            None => {
                self.first = Some((t, hash.map(str::to_owned), payload()));
                None
            }
            Some((ft, fh, _)) if t == *ft => {
                self.mixed |= fh.is_none() || hash != fh.as_deref();
                None
            }
            Some(_) => Some(self.decide()),
        }
    }

    /// What it tells once no older record is left, or a lower seq than the first's
    /// was reached.
    pub(super) fn decide(&mut self) -> Before<T> {
        match self.first.take() {
            Some((_, _, t)) if !self.mixed => Before::Was(t),
            None if self.parent.is_none() => Before::New,
            Some(_) | None => Before::Untold,
        }
    }
}

/// What the kept records of the groups `r` may be in say of the state it replaced
/// (`replaced.rs`, walked over them newest first): `None` when they cannot tell (the
/// walk needs a record older than a group kept); else that, and the records passed
/// over on the way, (note, line, why).
#[allow(clippy::type_complexity)]
pub(super) fn kept_before<'k>(
    r: &Rank<'_>,
    id: Option<&str>,
    mut walk: Walk<&'k KeptRecord>,
    groups: &[(&str, &'k Kept)],
) -> Option<(Before<&'k KeptRecord>, Vec<(CommitId, usize, String)>)> {
    let mut older: Vec<&'k KeptRecord> = (groups.iter())
        .flat_map(|(g, kept)| {
            let gid = g.strip_prefix("i:");
            (kept.records.iter())
                .filter(move |k| same_session((gid, &k.key), (id, r.key)))
                .filter(|k| newer_first(r, &k.rank()) == Ordering::Less)
        })
        .collect();
    older.sort_by(|a, b| newer_first(&a.rank(), &b.rank()));
    older.dedup_by(|a, b| (a.note, a.line) == (b.note, b.line));
    // A group not kept whole may hold records older than its oldest kept one.
    let sure_to = |k: Option<&KeptRecord>| {
        groups.iter().all(|(_, kept)| {
            kept.all
                || (k.zip(kept.records.last())).is_some_and(|(k, last)| {
                    newer_first(&k.rank(), &last.rank()) != Ordering::Greater
                })
        })
    };
    let mut passed = Vec::new();
    for k in &older {
        let told = match &k.read {
            Err(why) => {
                passed.push((k.note, k.line, why.clone()));
                continue;
            }
            Ok(_) => walk.step(k.seq, k.hash.as_deref(), || *k),
        };
        if let Some(b) = told {
            return sure_to(Some(k)).then_some((b, passed));
        }
    }
    sure_to(None).then(|| (walk.decide(), passed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(seq: Option<u64>, parent: Option<&str>, older: &[(Option<u64>, &str)]) -> Before<u64> {
        let mut w = Walk::of(seq, parent);
        for (i, (s, h)) in older.iter().enumerate() {
            if let Some(b) = w.step(*s, Some(h), || i as u64) {
                return b;
            }
        }
        w.decide()
    }

    #[test]
    fn a_record_is_told_against_the_state_it_replaced_never_a_side() {
        // b's write (seq 3, parent h2b) after a's side (seq 3): a's passed over.
        let older = [
            (Some(3), "h3a"),
            (Some(2), "h2b"),
            (Some(2), "h2a"),
            (Some(1), "h1"),
        ];
        assert_eq!(walk(Some(3), Some("h2b"), &older), Before::Was(1));
        // Its parent has no record; one state at seq 2... here two: not told.
        assert_eq!(walk(Some(3), Some("hx"), &older), Before::Untold);
        // One state below it, its parent unrecorded (changed by hand): that one.
        assert_eq!(walk(Some(2), Some("hx"), &older[3..]), Before::Was(0));
        // A new session; nothing below and a replaced state not in the store.
        assert_eq!(walk(Some(3), None, &older), Before::New);
        assert_eq!(walk(Some(1), Some("h0"), &older), Before::Untold);
        // Seq 1 below, its parent unrecorded: told at once by the first.
        let ones = [(Some(1), "h1a"), (Some(1), "h1b")];
        assert_eq!(walk(Some(2), Some("hx"), &ones), Before::Was(0));
        // Written before seq existed: the next older one.
        assert_eq!(walk(None, None, &older), Before::Was(0));
    }
}
