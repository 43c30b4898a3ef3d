//! The schemas' shared parts are copies, and the copies must agree.
//!
//! Each file under `docs/schema/` is printed alone by `schema NAME` and must stand alone
//! (a user saves one and hands it to a validator), so a part two documents share is
//! copied into each rather than reached by a `$ref` into another file: the suite's
//! validator (`schemas.rs`) and the published files know only local `#/$defs/…` refs.
//! What keeps the copies one definition is this test: every `$defs` entry of the same
//! name is the same in every file, and every object a schema embeds from another
//! document (log's `error`, the held error's `lost_claim`) is that document's part.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

fn schemas() -> BTreeMap<String, Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schema");
    std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            (name, serde_json::from_str(&text).unwrap())
        })
        .collect()
}

/// `part` without its own `description`: a copy may say where it sits, never what it holds.
fn body(part: &Value) -> Value {
    let mut part = part.clone();
    if let Some(m) = part.as_object_mut() {
        m.remove("description");
    }
    part
}

/// Two `$defs` of one name that mean different things, so may differ: state.json's
/// `task` is the input document's task as an agent writes it (ids may be integers, any
/// field may be null, extra keys kept); the others are the `task` of the JSON outputs.
const NOT_COPIES: &[(&str, &str)] = &[("state", "task")];

#[test]
fn every_shared_definition_is_the_same_in_every_schema() {
    let all = schemas();
    let mut by_name: BTreeMap<&str, Vec<(&str, &Value)>> = BTreeMap::new();
    for (file, schema) in &all {
        for (def, part) in schema["$defs"].as_object().into_iter().flatten() {
            if !NOT_COPIES.contains(&(file.as_str(), def.as_str())) {
                by_name.entry(def).or_default().push((file, part));
            }
        }
    }
    let mut drift = Vec::new();
    for (def, copies) in &by_name {
        let (first, model) = copies[0];
        for (file, part) in &copies[1..] {
            if part != &model {
                drift.push(format!(
                    "$defs/{def}: {file}.json differs from {first}.json"
                ));
            }
        }
    }
    assert!(drift.is_empty(), "{drift:#?}");
    // The shared definitions this guards are there to be guarded.
    for def in [
        "claim",
        "task",
        "side",
        "commit_line",
        "handover",
        "task_claim",
    ] {
        assert!(by_name[def].len() > 1, "$defs/{def} is no longer shared");
    }
}

#[test]
fn an_embedded_document_part_is_that_documents_own() {
    let all = schemas();
    let error = &all["error"]["properties"]["error"];
    // (schema, where it embeds, the document's part it embeds)
    let embedded = [
        ("log", &all["log"]["properties"]["error"], error),
        (
            "error",
            &error["properties"]["lost_claim"],
            &all["tasks"]["$defs"]["task"]["properties"]["lost_claim"],
        ),
    ];
    for (file, copy, model) in embedded {
        assert!(
            !copy.is_null() && !model.is_null(),
            "{file}: a part went away"
        );
        assert_eq!(
            body(copy),
            body(model),
            "{file}.json's copy drifted from its document's part"
        );
    }
}
