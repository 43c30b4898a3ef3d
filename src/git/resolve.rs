//! What a recorded sha names: looked up in the commit-graph, the packs read git's way,
//! or gix's object store.

use gix::ObjectId;

use super::Repo;
use super::walk::IdMap;

impl Repo {
    /// What a recorded sha names. A commit in the commit-graph is answered from the
    /// graph alone: reading object headers from the pack for thousands of shas touches
    /// (and, with the kernel's fault-around, maps in) most of a large pack. With
    /// `refresh`, a sha not found makes the object store look at the disk again.
    /// `full` is `sha` decoded, when it is a full id.
    pub(super) fn resolve(
        &self,
        sha: &str,
        full: Option<ObjectId>,
        graph: Option<&gix::commitgraph::Graph>,
        known: &IdMap<u32>,
        refresh: bool,
    ) -> Resolved {
        let sha = sha.trim();
        if sha.len() < 4 || sha.len() > 40 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Resolved::Missing;
        }
        let found = match graph {
            // A full id was looked up with the others: not among them, not in the graph.
            Some(_) if sha.len() == 40 => full
                .filter(|id| known.contains_key(id))
                .map(Resolved::Commit),
            Some(g) => in_graph(g, sha),
            None => None,
        };
        if let Some(found) = found {
            return found;
        }
        let id = if let Some(id) = full {
            // A commit, by the pack's entry headers read git's way: through gix,
            // thousands of shas map in most of a large pack and its index. Anything
            // else (a negative verdict, and rare) is left to gix to say.
            if self.packs().kind(&id) == Some(gix::object::Kind::Commit) {
                return Resolved::Commit(id);
            }
            let present = if refresh {
                self.repo.has_object(id)
            } else {
                self.repo.objects.exists_without_refresh(&id)
            };
            if !present {
                return Resolved::Missing;
            }
            id
        } else {
            let Ok(prefix) = gix::hash::Prefix::from_hex(sha) else {
                return Resolved::Missing;
            };
            // A prefix lookup looks at the disk again unless its handle never does.
            let objects = if refresh {
                &self.repo.objects
            } else {
                &self.no_refresh().objects
            };
            match objects.lookup_prefix(prefix, None) {
                Ok(Some(Ok(id))) => id,
                Ok(Some(Err(()))) => return Resolved::Ambiguous,
                Ok(None) | Err(_) => return Resolved::Missing,
            }
        };
        match self.repo.find_header(id) {
            Ok(h) if h.kind() == gix::object::Kind::Commit => Resolved::Commit(id),
            Ok(_) => Resolved::NotACommit(id),
            Err(_) => Resolved::Missing,
        }
    }
}

/// Look an abbreviated sha up among the commit-graph's sorted ids (full ids are looked
/// up all at once, [`super::compact::positions`]): `None` when no commit in the graph
/// has it (the object database must be asked), `Ambiguous` when several commits share
/// the prefix.
pub(super) fn in_graph(graph: &gix::commitgraph::Graph, sha: &str) -> Option<Resolved> {
    use std::cmp::Ordering;
    let at = |pos: u32| graph.id_at(gix::commitgraph::Position(pos));
    let n = graph.num_commits();
    let matches_at =
        |pos: u32, cmp: &dyn Fn(&gix::oid) -> Ordering| pos < n && cmp(at(pos)) == Ordering::Equal;
    let prefix = gix::hash::Prefix::from_hex(sha).ok()?;
    // `cmp_oid` orders the prefix against an id: Greater while the id is below it.
    let cmp = |id: &gix::oid| prefix.cmp_oid(id);
    let (mut lo, mut hi) = (0u32, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if cmp(at(mid)) == Ordering::Greater {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if !matches_at(lo, &cmp) {
        return None;
    }
    if matches_at(lo + 1, &cmp) {
        return Some(Resolved::Ambiguous);
    }
    Some(Resolved::Commit(at(lo).to_owned()))
}

pub(super) enum Resolved {
    Commit(ObjectId),
    NotACommit(ObjectId),
    Missing,
    Ambiguous,
}
