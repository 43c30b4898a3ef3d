//! Duplicate keys in an agent's settings file. A JSON parser keeps one value of a key
//! given twice (`serde_json` the last, some agents the first), and a file rewritten
//! from what was parsed would silently lose the other: such a file is not edited.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};

/// A key that appears twice in one object of `bytes` (valid JSON), by its path
/// (`hooks.SessionStart[0].matcher`), with the line it appears again on.
pub(super) fn first_duplicate(bytes: &[u8]) -> Option<(String, usize)> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    match (Walk { path: "" }).deserialize(&mut de) {
        Ok(()) => None,
        Err(e) => {
            let m = e.to_string();
            let path = m.rfind(" at line ").map_or(m.as_str(), |i| &m[..i]);
            Some((path.to_owned(), e.line()))
        }
    }
}

/// Walks one value at `path`, failing with the path of the first key seen twice.
struct Walk<'p> {
    path: &'p str,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = if self.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", self.path)
            };
            if !seen.insert(key) {
                return Err(A::Error::custom(path));
            }
            map.next_value_seed(Walk { path: &path })?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        loop {
            let path = format!("{}[{i}]", self.path);
            if seq.next_element_seed(Walk { path: &path })?.is_none() {
                return Ok(());
            }
            i += 1;
        }
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
}

#[cfg(test)]
mod tests {
    use super::first_duplicate;

    #[test]
    fn a_key_given_twice_is_named_by_its_path() {
        assert_eq!(
            first_duplicate(br#"{"a": 1, "b": {"c": [1, {"d": 2}]}}"#),
            None
        );
        assert_eq!(
            first_duplicate(b"{\"a\": 1,\n \"a\": 2}"),
            Some(("a".to_owned(), 2))
        );
        assert_eq!(
            first_duplicate(br#"{"hooks": {"S": [{"m": 1, "m": 2}]}}"#).map(|d| d.0),
            Some("hooks.S[0].m".to_owned())
        );
        // The same key in two objects is no duplicate.
        assert_eq!(first_duplicate(br#"[{"a": 1}, {"a": 2}]"#), None);
    }
}
