//! The typed reading of a state, for readers that never write it back (status,
//! continue, the hook): only the fields the view is made of are built, everything else
//! is skipped unbuilt, and no order-keeping map is made for the document or its tasks
//! (issue 16: parsing 500 states whole was a sixth of `status`). The view is validated
//! by the same code as the document's; anything this reading does not take as it is
//! (the document is not an object, a task is not one) goes to the document reading,
//! which says exactly what is wrong.

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

/// The top-level fields a view reads.
#[derive(Deserialize)]
pub(super) struct RawState {
    #[serde(default)]
    version: Option<Value>,
    #[serde(default)]
    status: Option<Value>,
    #[serde(default)]
    generated_at: Option<Value>,
    #[serde(default)]
    session_id: Option<Value>,
    #[serde(default)]
    workspace: Option<Value>,
    #[serde(default)]
    pub(super) active_tasks: Option<Vec<RawTask>>,
    #[serde(default)]
    recent_decisions: Option<Value>,
    #[serde(default)]
    known_issues: Option<Value>,
    #[serde(default)]
    phase_observations: Option<Value>,
    #[serde(default)]
    session_notes: Option<Value>,
    #[serde(default)]
    agent_session: Option<Value>,
    #[serde(default)]
    session_hash: Option<Value>,
}

impl RawState {
    /// A top-level field as the document would give it (`None` for null too, which
    /// every reader of these fields takes as missing).
    pub(super) fn field(&self, key: &str) -> Option<&Value> {
        match key {
            "version" => self.version.as_ref(),
            "status" => self.status.as_ref(),
            "generated_at" => self.generated_at.as_ref(),
            "session_id" => self.session_id.as_ref(),
            "workspace" => self.workspace.as_ref(),
            "recent_decisions" => self.recent_decisions.as_ref(),
            "known_issues" => self.known_issues.as_ref(),
            "phase_observations" => self.phase_observations.as_ref(),
            "session_notes" => self.session_notes.as_ref(),
            "agent_session" => self.agent_session.as_ref(),
            "session_hash" => self.session_hash.as_ref(),
            _ => None,
        }
    }
}

use super::known::TASK_KEYS;

/// A task's fields the view reads. Read from a JSON object only (a derived struct
/// would also take an array, field by field); a state with a key given twice never
/// gets here ([`read`] sends it to the document reading, which refuses it).
pub(super) struct RawTask([Option<Value>; TASK_KEYS.len()]);

impl RawTask {
    fn slot(key: &str) -> Option<usize> {
        TASK_KEYS.iter().position(|k| *k == key)
    }

    pub(super) fn field(&self, key: &str) -> Option<&Value> {
        Self::slot(key).and_then(|i| self.0[i].as_ref())
    }

    /// A field given up to the validator, which moves its strings into the view
    /// rather than copying them.
    pub(super) fn take(&mut self, key: &str) -> Option<Value> {
        Self::slot(key).and_then(|i| self.0[i].take())
    }
}

/// A key of a task object: its place in [`TASK_KEYS`], or `None` for any other key,
/// matched without copying the key.
struct TaskKey;

impl<'de> DeserializeSeed<'de> for TaskKey {
    type Value = Option<usize>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Option<usize>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
                Ok(TASK_KEYS.iter().position(|k| *k == key))
            }
        }
        d.deserialize_identifier(KeyVisitor)
    }
}

impl<'de> Deserialize<'de> for RawTask {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct TaskVisitor;
        impl<'de> Visitor<'de> for TaskVisitor {
            type Value = RawTask;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a task object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawTask, A::Error> {
                let mut task = RawTask(Default::default());
                while let Some(key) = map.next_key_seed(TaskKey)? {
                    match key {
                        Some(i) => task.0[i] = map.next_value()?,
                        None => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(task)
            }
        }
        d.deserialize_map(TaskVisitor)
    }
}

/// The typed reading of `bytes`, when it applies: `None` sends the caller to the
/// document reading (the root is not an object, `active_tasks` is missing or null, a
/// task is not an object, the JSON is not well-formed).
pub(super) fn read(bytes: &[u8]) -> Option<RawState> {
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return None;
    }
    // A key given twice would be read here (its last copy, or skipped unbuilt) where
    // every writer refuses it: the document reading names it instead.
    if super::strict::repeats_a_key(bytes) {
        return None;
    }
    let raw: RawState = serde_json::from_slice(bytes).ok()?;
    raw.active_tasks.as_ref()?;
    Some(raw)
}
