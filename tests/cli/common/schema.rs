//! The suite's JSON Schema validator (`schemas.rs` says why it is its own): the subset
//! the published files use (`type`, `properties`, `required`, `items`, `enum`, `const`,
//! `anyOf`, `$ref` into `$defs`, `minimum`/`maximum`, a `^[0-9a-f]{N}$` pattern),
//! stricter than the schemas on one point: an object with `properties` holds no other
//! key unless it says `additionalProperties: true`.

use serde_json::Value;

use super::TestEnv;

/// The published schema `name`, as `schema NAME` prints it.
pub fn schema(env: &TestEnv, name: &str) -> Value {
    let run = env.handover(env.root(), &["schema", name]);
    run.assert_ok();
    serde_json::from_str(&run.stdout).unwrap()
}

/// Where `doc` breaks `schema` (at `path`), every place; empty when it validates.
pub fn violations(root: &Value, schema: &Value, doc: &Value, path: &str, out: &mut Vec<String>) {
    let Some(s) = schema.as_object() else {
        return;
    };
    if let Some(Value::String(r)) = s.get("$ref") {
        let name = r.strip_prefix("#/$defs/").expect("only local $defs refs");
        let target = &root["$defs"][name];
        assert!(!target.is_null(), "{path}: no $defs/{name}");
        return violations(root, target, doc, path, out);
    }
    if let Some(Value::Array(any)) = s.get("anyOf") {
        let fits = any.iter().any(|alt| {
            let mut v = Vec::new();
            violations(root, alt, doc, path, &mut v);
            v.is_empty()
        });
        if !fits {
            out.push(format!("{path}: fits no alternative of anyOf: {doc}"));
        }
        return;
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().map(|t| t.as_str().unwrap()).collect(),
            _ => panic!("{path}: type"),
        };
        let is = |t: &str| match t {
            "null" => doc.is_null(),
            "boolean" => doc.is_boolean(),
            "integer" => doc.is_i64() || doc.is_u64(),
            "number" => doc.is_number(),
            "string" => doc.is_string(),
            "array" => doc.is_array(),
            "object" => doc.is_object(),
            other => panic!("{path}: unknown type {other}"),
        };
        if !types.iter().any(|t| is(t)) {
            out.push(format!("{path}: {doc} is not {types:?}"));
            return;
        }
    }
    if let Some(c) = s.get("const")
        && c != doc
    {
        out.push(format!("{path}: {doc} is not {c}"));
    }
    if let Some(Value::Array(e)) = s.get("enum")
        && !e.contains(doc)
    {
        out.push(format!("{path}: {doc} is not one of {e:?}"));
    }
    if let (Some(min), Some(n)) = (s.get("minimum").and_then(Value::as_f64), doc.as_f64())
        && n < min
    {
        out.push(format!("{path}: {n} < {min}"));
    }
    if let (Some(max), Some(n)) = (s.get("maximum").and_then(Value::as_f64), doc.as_f64())
        && n > max
    {
        out.push(format!("{path}: {n} > {max}"));
    }
    if let (Some(Value::String(p)), Some(text)) = (s.get("pattern"), doc.as_str()) {
        let len: usize = p
            .strip_prefix("^[0-9a-f]{")
            .and_then(|r| r.strip_suffix("}$"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{path}: unsupported pattern {p}"));
        if text.len() != len
            || !text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            out.push(format!("{path}: {text:?} does not match {p}"));
        }
    }
    if let (Some(items), Value::Array(a)) = (s.get("items"), doc) {
        for (i, item) in a.iter().enumerate() {
            violations(root, items, item, &format!("{path}[{i}]"), out);
        }
    }
    if let Value::Object(m) = doc {
        for r in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let r = r.as_str().unwrap();
            if !m.contains_key(r) {
                out.push(format!("{path}: {r} is missing"));
            }
        }
        if let Some(Value::Object(props)) = s.get("properties") {
            let open = s.get("additionalProperties") == Some(&Value::Bool(true));
            for (k, v) in m {
                match props.get(k) {
                    Some(p) => violations(root, p, v, &format!("{path}.{k}"), out),
                    None if open => {}
                    None => out.push(format!("{path}: {k} is not in the schema")),
                }
            }
        }
    }
}

/// `doc` fits the published schema `name`.
#[track_caller]
pub fn fits(env: &TestEnv, name: &str, doc: &Value) {
    let schema = schema(env, name);
    let mut out = Vec::new();
    violations(&schema, &schema, doc, "$", &mut out);
    assert!(out.is_empty(), "{name}: {out:#?}\n{doc:#}");
}
