//! What the notes index keeps of each group's newest records that hold a state (issue
//! 36): their place in `log`'s order and the [`Summary`] a change is worked out from,
//! so that `log -n N` answers "what changed since the previous record of its session"
//! without reading the notes of that previous record (at 100,000 records, 21 notes
//! read, each 0.2-1.2 ms of delta chains, for 20 records shown).
//!
//! A group keeps, newest first in `log`'s order ([`newer_first`]), its session records
//! down to the [`K`]th that reads whole, those whose head reads but whose whole does not
//! kept between with why (they hold no state for `log`, as when it reads them), and
//! whether that is all of them. The build and the update keep it (`index_build.rs`,
//! `index_scan.rs`, `index_update.rs`); it lives in the members' parts
//! (`index_members.rs`), which `log -n` loads for the groups it looks in anyway.

use std::cmp::Ordering;

use crate::git::CommitId;
use crate::model::changes::Summary;

/// How many records that read whole a group keeps: a shown record that is its
/// session's newest needs the second; two of one session shown, the third.
pub(super) const K: usize = 3;
/// Records passed over (head read, whole not) kept at most; past them, not all kept.
const MAX_FAILED: usize = 8;
/// The largest summary kept (bytes encoded); a larger one ends what is kept.
const MAX_SUMMARY: usize = 64 << 10;

/// What orders a record among the others, read from its head.
pub(super) struct Rank<'a> {
    pub saved_at: jiff::Timestamp,
    pub key: &'a str,
    pub seq: Option<u64>,
    pub note: CommitId,
    pub line: usize,
}

/// Newest first; the same instant in key order, then (one session) the higher write
/// count first, then the line appended last first.
pub(super) fn newer_first(a: &Rank<'_>, b: &Rank<'_>) -> Ordering {
    b.saved_at
        .cmp(&a.saved_at)
        .then_with(|| a.key.cmp(b.key))
        .then_with(|| b.seq.cmp(&a.seq))
        .then_with(|| (b.note, b.line).cmp(&(a.note, a.line)))
}

/// Two records of one session: the same `session_id` when both have one, else the
/// same key.
pub(super) fn same_session(a: (Option<&str>, &str), b: (Option<&str>, &str)) -> bool {
    match (a.0, b.0) {
        (Some(x), Some(y)) => x == y,
        _ => a.1 == b.1,
    }
}

/// One kept record: where it is in `log`'s order, and what it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptRecord {
    pub saved_at: jiff::Timestamp,
    pub key: String,
    pub seq: Option<u64>,
    pub note: CommitId,
    pub line: usize,
    /// Its state's own `session_hash`, as its head reads it.
    pub hash: Option<String>,
    /// `Err(why)`: its head reads, the record does not (it holds no state for `log`).
    pub read: Result<Summary, String>,
}

impl KeptRecord {
    pub(super) fn rank(&self) -> Rank<'_> {
        Rank {
            saved_at: self.saved_at,
            key: &self.key,
            seq: self.seq,
            note: self.note,
            line: self.line,
        }
    }
}

/// A group's kept records, newest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Kept {
    pub records: Vec<KeptRecord>,
    /// These are all the group's session records (none older left out). The default,
    /// `false` with none kept, makes `log` read the notes.
    pub all: bool,
}

/// What a line's whole parse says for [`Kept`].
pub(super) fn summary_of(line: &[u8]) -> Result<Summary, String> {
    let record = crate::model::record::parse_record(line)?;
    Ok(Summary::of(&record.state_doc()))
}

/// A group's kept records from its session records' places (`cands`: rank, then the
/// record's kind is a session's), each read by `read(i)` in order, newest first, until
/// [`K`] read whole; `read` giving `None` (its line is not there) ends what is kept.
pub(super) fn choose(
    mut cands: Vec<KeptRecord>,
    read: &mut dyn FnMut(usize) -> Option<Result<Summary, String>>,
) -> Kept {
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by(|a, b| newer_first(&cands[*a].rank(), &cands[*b].rank()));
    let mut kept = Kept::default();
    let (mut whole, mut failed) = (0, 0);
    for i in &order {
        if whole == K || failed > MAX_FAILED {
            return kept;
        }
        let Some(read) = read(*i).filter(fits_read) else {
            return kept;
        };
        if read.is_ok() {
            whole += 1;
        } else {
            failed += 1;
        }
        let mut r = std::mem::replace(&mut cands[*i], placeholder());
        r.read = read;
        kept.records.push(r);
    }
    kept.all = true;
    kept
}

fn placeholder() -> KeptRecord {
    KeptRecord {
        saved_at: jiff::Timestamp::UNIX_EPOCH,
        key: String::new(),
        seq: None,
        note: CommitId::from_bytes(&[0; 20]).expect("20 bytes"),
        line: 0,
        hash: None,
        read: Err(String::new()),
    }
}

fn fits(s: &Summary) -> bool {
    let mut out = Vec::new();
    put_summary(&mut out, s);
    out.len() <= MAX_SUMMARY
}

/// Whether what a line's whole read said can be kept: a summary that fits, or why it
/// does not read within the same bound (a why may carry a field's name of any length).
fn fits_read(r: &Result<Summary, String>) -> bool {
    match r {
        Ok(s) => fits(s),
        Err(why) => why.len() <= MAX_SUMMARY,
    }
}

/// `r` (read whole) written on top of the group: kept in its place when it is newer
/// than the last kept (or all are kept), what then falls past the [`K`]th dropped.
pub(super) fn on_top(kept: &mut Kept, r: KeptRecord) {
    let at = kept
        .records
        .iter()
        .position(|k| newer_first(&r.rank(), &k.rank()) == Ordering::Less)
        .unwrap_or(kept.records.len());
    if at == kept.records.len() && !kept.all {
        return;
    }
    if !fits_read(&r.read) {
        kept.records.truncate(at);
        kept.all = false;
        return;
    }
    kept.records.insert(at, r);
    let mut whole = 0;
    if let Some(end) = kept.records.iter().position(|k| {
        whole += usize::from(k.read.is_ok());
        whole > K
    }) {
        kept.records.truncate(end);
        kept.all = false;
    }
}

/// Groups whose newest records' times the first pass follows (about 10 MiB at most):
/// a group past them keeps nothing for `log` (which then reads its notes).
const TRACKED: usize = 1 << 16;

/// The build's first pass (`index_build.rs`): of each group, the times of the newest
/// records read whole so far (at most [`K`]). A record older than all of them cannot be
/// among the group's kept ones, so it is not parsed whole. What is kept is chosen in
/// the second pass; a record it would need and that was not read ends what is kept.
#[derive(Default)]
pub(super) struct Tops(std::collections::HashMap<String, Vec<jiff::Timestamp>>);

impl Tops {
    pub(super) fn wants(&self, g: &str, at: jiff::Timestamp) -> bool {
        match self.0.get(g) {
            Some(t) => t.len() < K || t.last().is_some_and(|last| at >= *last),
            None => self.0.len() < TRACKED,
        }
    }

    pub(super) fn whole(&mut self, g: &str, at: jiff::Timestamp) {
        if let Some(t) = self.0.get_mut(g) {
            let i = t.partition_point(|x| *x >= at);
            t.insert(i, at);
            t.truncate(K);
        } else if self.0.len() < TRACKED {
            self.0.insert(g.to_owned(), vec![at]);
        }
    }
}

pub(super) fn put_str(out: &mut Vec<u8>, s: &str) {
    let len = u32::try_from(s.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&s.as_bytes()[..len as usize]);
}

fn put_summary(out: &mut Vec<u8>, s: &Summary) {
    put_str(out, &s.status);
    let n = u32::try_from(s.tasks.len()).unwrap_or(0);
    out.extend_from_slice(&n.to_le_bytes());
    for (id, status) in s.tasks.iter().take(n as usize) {
        put_str(out, id);
        put_str(out, status);
    }
}

/// What a record's whole read said (its summary, or why it does not read), as a
/// members' part and the build's scratch files hold it.
pub(super) fn put_read(out: &mut Vec<u8>, read: &Result<Summary, String>) {
    match read {
        Ok(s) => {
            out.push(0);
            put_summary(out, s);
        }
        Err(why) => {
            out.push(1);
            put_str(out, why);
        }
    }
}

/// [`put_read`] read back; `None` when the bytes do not hold it.
pub(super) fn take_read(c: &mut Cursor<'_>) -> Option<Result<Summary, String>> {
    Some(match c.take(1)? {
        [0] => {
            let status = c.str()?;
            let count = c.u32()?;
            let mut tasks = Vec::with_capacity(count.min(1 << 10));
            for _ in 0..count {
                tasks.push((c.str()?, c.str()?));
            }
            Ok(Summary { status, tasks })
        }
        [1] => Err(c.str()?),
        _ => return None,
    })
}

/// `kept` as a members' part holds it.
pub(super) fn encode(out: &mut Vec<u8>, kept: &Kept) {
    out.push(u8::from(kept.all));
    let n = u32::try_from(kept.records.len()).unwrap_or(0);
    out.extend_from_slice(&n.to_le_bytes());
    for k in kept.records.iter().take(n as usize) {
        out.extend_from_slice(&k.saved_at.as_nanosecond().to_le_bytes());
        put_str(out, &k.key);
        out.push(u8::from(k.seq.is_some()));
        out.extend_from_slice(&k.seq.unwrap_or(0).to_le_bytes());
        out.extend_from_slice(k.note.as_bytes());
        out.extend_from_slice(&u32::try_from(k.line).unwrap_or(u32::MAX).to_le_bytes());
        out.push(u8::from(k.hash.is_some()));
        put_str(out, k.hash.as_deref().unwrap_or_default());
        put_read(out, &k.read);
    }
}

/// Reads a part's bytes.
pub(super) struct Cursor<'a>(pub &'a [u8]);

impl<'a> Cursor<'a> {
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (a, b) = (self.0.get(..n)?, self.0.get(n..)?);
        self.0 = b;
        Some(a)
    }
    pub fn u32(&mut self) -> Option<usize> {
        usize::try_from(u32::from_le_bytes(self.take(4)?.try_into().ok()?)).ok()
    }
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    pub fn str(&mut self) -> Option<String> {
        let len = self.u32()?;
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
}

/// [`encode`] read back; `None` when the bytes do not hold it.
pub(super) fn decode(c: &mut Cursor<'_>) -> Option<Kept> {
    let all = match c.take(1)? {
        [0] => false,
        [1] => true,
        _ => return None,
    };
    let n = c.u32()?;
    let mut records = Vec::with_capacity(n.min(64));
    for _ in 0..n {
        let ns = i128::from_le_bytes(c.take(16)?.try_into().ok()?);
        let saved_at = jiff::Timestamp::from_nanosecond(ns).ok()?;
        let key = c.str()?;
        let has_seq = c.take(1)? == [1];
        let seq = c.u64()?;
        let note = CommitId::from_bytes(c.take(20)?)?;
        let line = c.u32()?;
        let has_hash = c.take(1)? == [1];
        let hash = c.str()?;
        let read = take_read(c)?;
        records.push(KeptRecord {
            saved_at,
            key,
            seq: has_seq.then_some(seq),
            note,
            line,
            hash: has_hash.then_some(hash),
            read,
        });
    }
    Some(Kept { records, all })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::notes_store::replaced::{Before, Walk, kept_before as before};

    fn rec(at: &str, seq: u64, read: Result<Summary, String>) -> KeptRecord {
        KeptRecord {
            saved_at: at.parse().unwrap(),
            key: "main/s".into(),
            seq: Some(seq),
            note: CommitId::from_bytes(&[u8::try_from(seq).unwrap(); 20]).unwrap(),
            line: 1,
            hash: Some(format!("h{seq}")),
            read,
        }
    }

    #[allow(clippy::unnecessary_wraps)]
    fn ok(status: &str) -> Result<Summary, String> {
        Ok(Summary {
            status: status.into(),
            tasks: vec![("T1".into(), "done".into())],
        })
    }

    #[test]
    fn a_record_is_read_whole_only_while_it_may_be_among_its_groups_newest() {
        let t = |h: u32| jiff::Timestamp::from_second(i64::from(h) * 3600).unwrap();
        let mut tops = Tops::default();
        for h in [10, 12, 11] {
            assert!(tops.wants("i:a", t(h)));
            tops.whole("i:a", t(h));
        }
        assert!(!tops.wants("i:a", t(9)));
        assert!(tops.wants("i:a", t(10)), "a tie may be among them");
        tops.whole("i:a", t(13));
        assert!(!tops.wants("i:a", t(10)));
        assert!(tops.wants("i:b", t(1)), "a group not seen yet");
        // Past the groups followed, a new one is not read (log reads its notes).
        for i in 0..TRACKED {
            tops.whole(&format!("i:{i}"), t(1));
        }
        assert!(!tops.wants("i:new", t(20)));
        assert!(tops.wants("i:a", t(20)));
    }

    #[test]
    fn kept_records_read_back_as_written() {
        let kept = Kept {
            records: vec![
                rec("2026-11-30T10:00:00.5Z", 2, ok("READY")),
                rec("2026-11-30T09:00:00Z", 1, Err("field `seq` is over".into())),
            ],
            all: true,
        };
        let mut bytes = Vec::new();
        encode(&mut bytes, &kept);
        encode(&mut bytes, &Kept::default());
        let mut c = Cursor(&bytes);
        assert_eq!(decode(&mut c), Some(kept));
        assert_eq!(decode(&mut c), Some(Kept::default()));
        assert!(c.0.is_empty());
        assert_eq!(decode(&mut Cursor(&bytes[..bytes.len() / 2])), None);
    }

    #[test]
    fn choose_keeps_k_that_read_and_those_passed_over_between() {
        let cands: Vec<KeptRecord> = (1..=6)
            .map(|s| rec(&format!("2026-11-30T1{s}:00:00Z"), s, Err(String::new())))
            .collect();
        // Seq 5 does not read whole.
        let kept = choose(cands.clone(), &mut |i| {
            Some(if i == 4 {
                Err("bad".into())
            } else {
                ok("READY")
            })
        });
        let seqs: Vec<_> = kept.records.iter().map(|k| k.seq.unwrap()).collect();
        assert_eq!(seqs, [6, 5, 4, 3]);
        assert!(!kept.all);
        let few = choose(cands[..2].to_vec(), &mut |_| Some(ok("READY")));
        assert!(few.all && few.records.len() == 2);
        // A line not there ends what is kept.
        let cut = choose(cands, &mut |i| (i != 5).then(|| ok("READY")));
        assert!(!cut.all && cut.records.is_empty());
    }

    fn seq_of(b: &Before<&KeptRecord>) -> Option<u64> {
        match b {
            Before::Was(k) => k.seq,
            _ => None,
        }
    }

    #[test]
    fn on_top_keeps_k_newest_and_before_answers_only_when_sure() {
        let mut kept = Kept {
            records: vec![rec("2026-11-30T10:00:00Z", 1, ok("A"))],
            all: true,
        };
        for s in 2..=4 {
            on_top(
                &mut kept,
                rec(&format!("2026-11-30T1{s}:00:00Z"), s, ok("B")),
            );
        }
        let seqs: Vec<_> = kept.records.iter().map(|k| k.seq.unwrap()).collect();
        assert_eq!((seqs, kept.all), (vec![4, 3, 2], false));
        let newest = rec("2026-11-30T14:00:00Z", 4, ok("B"));
        let groups = [("i:s", &kept)];
        let (b, passed) = before(
            &newest.rank(),
            Some("s"),
            Walk::of(Some(4), Some("h3")),
            &groups,
        )
        .unwrap();
        assert_eq!((seq_of(&b), passed.len()), (Some(3), 0));
        // The oldest kept: its previous one is not kept.
        let oldest = rec("2026-11-30T12:00:00Z", 2, ok("B"));
        assert!(
            before(
                &oldest.rank(),
                Some("s"),
                Walk::of(Some(2), Some("h1")),
                &groups
            )
            .is_none()
        );
        // Another session's records under the key do not count for an id'd record.
        let other = rec("2026-11-30T14:30:00Z", 9, ok("B"));
        let (b, _) = before(
            &other.rank(),
            Some("t"),
            Walk::of(None, None),
            &[("k:main/s", &kept)],
        )
        .unwrap();
        assert_eq!(seq_of(&b), Some(4));
        // Two sides of seq 4 (h3's successors): the newer side is told against h3,
        // not against the other side.
        let side = rec("2026-11-30T14:10:00Z", 4, ok("B"));
        let (b, _) = before(
            &side.rank(),
            Some("s"),
            Walk::of(Some(4), Some("h3")),
            &groups,
        )
        .unwrap();
        assert_eq!(seq_of(&b), Some(3));
        // Its parent has no record: the one state at the seq below it, told once a
        // lower seq is reached among those kept.
        let (b, _) = before(
            &side.rank(),
            Some("s"),
            Walk::of(Some(4), Some("hx")),
            &groups,
        )
        .unwrap();
        assert_eq!(seq_of(&b), Some(3));
        // Not so when the walk would need a record older than those kept.
        let late = rec("2026-11-30T13:30:00Z", 3, ok("B"));
        let walk = Walk::of(Some(3), Some("hx"));
        assert!(before(&late.rank(), Some("s"), walk, &groups).is_none());
    }
}
