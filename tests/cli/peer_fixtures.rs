//! The original bash library's own test states and the `handover.md` its generator
//! writes for each (`../shared/peer-fixtures/expected/`): the Japanese rendering must
//! match byte for byte (SPEC section 2).

use std::path::{Path, PathBuf};

fn fixtures() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peer-fixtures");
    dir.is_dir().then_some(dir)
}

#[test]
fn every_peer_fixture_renders_as_the_original_generator_does() {
    let Some(dir) = fixtures() else {
        crate::common::unavailable("../shared/peer-fixtures is not beside the project");
        return;
    };
    let mut compared = 0;
    for entry in std::fs::read_dir(dir.join("expected")).unwrap() {
        let expected_path = entry.unwrap().path();
        let name = expected_path.file_name().unwrap().to_str().unwrap();
        let Some(stem) = name.strip_suffix(".ja.md") else {
            continue;
        };
        let state_path = dir.join(format!("{stem}.json"));
        let bytes = std::fs::read(&state_path).unwrap();
        let state = git_handover::api::State::parse(&bytes, &state_path)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        let ours = git_handover::api::render_markdown(&state, git_handover::api::Lang::Ja);
        let theirs = std::fs::read_to_string(&expected_path).unwrap();
        assert_eq!(ours, theirs, "{stem}");
        compared += 1;
    }
    assert!(compared >= 7, "compared {compared} fixtures");
}
