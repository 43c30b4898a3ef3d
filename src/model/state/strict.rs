//! JSON read strictly: an object that names one key twice is refused. `serde_json` keeps
//! the last copy and drops the others without a word, so a state (or a save's input)
//! with `"x": 1, "x": 2` would lose the first value on its next rewrite; refused, the
//! error names the key's field path (`active_tasks[0].x`) with `serde_json`'s line and
//! column, and the file is left as it is.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// `serde_json`'s private key a number arrives under with `arbitrary_precision`.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Parse `bytes` as one JSON value, refusing a key repeated in one object.
pub fn from_slice(bytes: &[u8]) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = Strict { at: &At::Root }.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// The first key `bytes` (JSON) names twice in one object, by its field path
/// (`hooks.SessionStart[0].matcher`), with the line it is named again on; `None` when
/// no key is repeated or `bytes` is not JSON (its parse says that).
#[cfg(test)]
pub fn first_duplicate(bytes: &[u8]) -> Option<(String, usize)> {
    duplicate_named(&from_slice(bytes).err()?)
}

/// The key (field path) and line a [`from_slice`] error names as given twice; `None`
/// for any other error.
pub fn duplicate_named(e: &serde_json::Error) -> Option<(String, usize)> {
    let m = e.to_string();
    let m = m.rfind(" at line ").map_or(m.as_str(), |i| &m[..i]);
    let key = m.strip_prefix("duplicate key `")?.strip_suffix('`')?;
    Some((key.to_owned(), e.line()))
}

/// Where a value is, formatted only when an error names it.
enum At<'a> {
    Root,
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Root => Ok(()),
            At::Key(At::Root, key) => write!(f, "{key}"),
            At::Key(parent, key) => write!(f, "{parent}.{key}"),
            At::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

struct Strict<'a> {
    at: &'a At<'a>,
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        loop {
            let at = At::Index(self.at, out.len());
            match seq.next_element_seed(Strict { at: &at })? {
                Some(v) => out.push(v),
                None => return Ok(Value::Array(out)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == NUMBER_TOKEN && out.is_empty() {
                let text: String = map.next_value()?;
                return text
                    .parse::<Number>()
                    .map(Value::Number)
                    .map_err(de::Error::custom);
            }
            let at = At::Key(self.at, &key);
            if out.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate key `{at}`")));
            }
            let value = map.next_value_seed(Strict { at: &at })?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

/// Whether `bytes` name one key twice in some object (`false` when they stop being
/// well-formed JSON before: the reading that follows says what is wrong). Builds nothing: the
/// typed reading, which skips unknown keys unbuilt, asks this first, so a state every
/// writer refuses is refused by the readers too.
pub fn repeats_a_key(bytes: &[u8]) -> bool {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    matches!(
        de::Deserializer::deserialize_any(&mut de, Scan),
        Err(e) if e.to_string().starts_with(REPEATED)
    )
}

const REPEATED: &str = "repeated key";

/// [`repeats_a_key`]'s visitor: every scalar skipped, every key of an object hashed.
struct Scan;

impl<'de> DeserializeSeed<'de> for Scan {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scan {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Scan)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // The first keys on the stack (an object of the state rarely has more), the
        // rest in a set: no allocation for the usual object.
        let mut first = [0u64; 24];
        let mut count = 0;
        let mut rest = std::collections::HashSet::new();
        while let Some(key) = map.next_key_seed(KeyHash)? {
            let repeated = if count < first.len() {
                let seen = first[..count].contains(&key);
                first[count] = key;
                seen
            } else {
                first.contains(&key) || !rest.insert(key)
            };
            if repeated {
                return Err(de::Error::custom(REPEATED));
            }
            count += 1;
            map.next_value_seed(Scan)?;
        }
        Ok(())
    }
}

/// A key, hashed without being copied. Two keys with one hash are taken for a repeat:
/// the document reading that follows then decides on the keys themselves.
struct KeyHash;

impl<'de> DeserializeSeed<'de> for KeyHash {
    type Value = u64;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeyHash {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, key: &str) -> Result<u64, E> {
        // FNV-1a: short keys, no seed needed (a collision only costs the full reading).
        Ok(key.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        }))
    }
}
