//! `doctor` and the `OpenCode` plugin (`plugins/opencode/git-handover.js`) in each of the
//! directories `OpenCode` 1.18.33 loads plugins from: the user's
//! (`$XDG_CONFIG_HOME/opencode/plugin(s)/`, `$OPENCODE_CONFIG_DIR/plugin(s)/`) briefs only
//! an opted-in repository; the project's `.opencode/plugin(s)/` is its opt-in.

use std::path::Path;

use super::run_as_printed;
use crate::common::TestEnv;
use serde_json::Value;

fn opencode_check(doc: &Value) -> Value {
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["values"]["agent"] == "OpenCode" && (c["id"] == "hook" || c["id"] == "opt_in"))
        .cloned()
        .unwrap_or_else(|| panic!("no OpenCode check in {doc:#}"))
}

fn plant(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let plugin = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins/opencode/git-handover.js");
    std::fs::copy(plugin, dir.join("git-handover.js")).unwrap();
}

#[test]
fn the_opencode_plugin_is_found_where_opencode_loads_it_and_its_opt_in_fixed() {
    let env = TestEnv::new();
    let repo = env.repo();
    let home = env.root().join("home");
    let config_dir = env.root().join("opencode-config");
    let doctor = |args: &[&str]| -> Value {
        let mut all = vec!["--json", "doctor"];
        all.extend_from_slice(args);
        let run = env.handover_with(&repo, &all, |c| {
            c.env("OPENCODE_CONFIG_DIR", &config_dir);
        });
        serde_json::from_str(&run.stdout).unwrap()
    };
    let c = opencode_check(&doctor(&[]));
    assert_eq!(
        (c["id"].as_str(), c["outcome"].as_str()),
        (Some("hook"), Some("note")),
        "{c:#}"
    );
    // The user's plugin, in both of `OpenCode`'s spellings and its config directory.
    for dir in [
        home.join(".config/opencode/plugin"),
        home.join(".config/opencode/plugins"),
        config_dir.join("plugins"),
    ] {
        plant(&dir);
        let c = opencode_check(&doctor(&[]));
        assert_eq!(c["id"], "opt_in", "{c:#}");
        let shown = dir
            .to_str()
            .unwrap()
            .replace(env.root().to_str().unwrap(), "[ROOT]");
        assert!(
            c["values"]["files"].as_str().unwrap().contains(&shown),
            "{c:#}"
        );
        std::fs::remove_file(dir.join("git-handover.js")).unwrap();
    }
    plant(&home.join(".config/opencode/plugin"));
    let c = opencode_check(&doctor(&[]));
    assert_eq!(
        (c["outcome"].as_str(), c["fixable"].as_bool()),
        (Some("problem"), Some(true)),
        "{c:#}"
    );
    run_as_printed(&env, &repo, c["fix"].as_str().unwrap());
    let c = opencode_check(&doctor(&[]));
    assert_eq!(
        (c["id"].as_str(), c["outcome"].as_str()),
        (Some("hook"), Some("ok")),
        "{c:#}"
    );
    // Committed into the project instead: the project's own opt-in.
    env.git(&repo, &["config", "--unset", "handover.hook"]);
    plant(&repo.join(".opencode/plugins"));
    let c = opencode_check(&doctor(&[]));
    assert_eq!(
        (c["id"].as_str(), c["outcome"].as_str()),
        (Some("hook"), Some("ok")),
        "{c:#}"
    );
}
