//! `session_hash` (SPEC section 2): SHA-256 of a state's canonical text (keys sorted,
//! compact JSON, `session_hash` itself left out, and so are the claims' `confirmed`:
//! this clone's own knowledge, in no record), streamed into the hash.

use std::fmt::Write as _;

use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

/// SHA-256 (hex) of the document without `session_hash`, keys sorted, compact JSON.
/// The canonical text is streamed into the hash: neither the document nor the text is
/// copied (a large state costs no more memory to hash).
pub fn session_hash(doc: &Map<String, Value>) -> String {
    if let Some(doc) = crate::model::claim::without_confirmed(doc) {
        return session_hash(&doc);
    }
    let mut hasher = Sha256::new();
    write_object(doc, Some("session_hash"), &mut hasher);
    hasher
        .finalize()
        .iter()
        .fold(String::with_capacity(64), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
}

/// An object's canonical text, its keys sorted, `skip` left out.
fn write_object(map: &Map<String, Value>, skip: Option<&str>, out: &mut Sha256) {
    let mut keys: Vec<&String> = map.keys().filter(|k| Some(k.as_str()) != skip).collect();
    keys.sort();
    out.update(b"{");
    for (i, k) in keys.into_iter().enumerate() {
        if i > 0 {
            out.update(b",");
        }
        write_scalar(k.as_str(), out);
        out.update(b":");
        write_canonical(&map[k], out);
    }
    out.update(b"}");
}

fn write_canonical(v: &Value, out: &mut Sha256) {
    match v {
        Value::Object(map) => write_object(map, None, out),
        Value::Array(items) => {
            out.update(b"[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.update(b",");
                }
                write_canonical(item, out);
            }
            out.update(b"]");
        }
        other => write_scalar(other, out),
    }
}

/// A scalar as compact JSON, written straight into the hash.
fn write_scalar<T: serde::Serialize + ?Sized>(v: &T, out: &mut Sha256) {
    struct Sink<'a>(&'a mut Sha256);
    impl std::io::Write for Sink<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.update(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    serde_json::to_writer(Sink(out), v).expect("a scalar serialises");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_canonical_text_is_hashed() {
        let Value::Object(b) = json!({"a": [{"x": 1, "y": 2}], "b": 1}) else {
            unreachable!()
        };
        // sha256sum of `{"a":[{"x":1,"y":2}],"b":1}`
        let expected = Sha256::digest(br#"{"a":[{"x":1,"y":2}],"b":1}"#)
            .iter()
            .fold(String::new(), |mut hex, b| {
                let _ = write!(hex, "{b:02x}");
                hex
            });
        assert_eq!(session_hash(&b), expected);
    }
}
