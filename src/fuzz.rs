//! Entry points the fuzz targets (`fuzz/`) and the corpus replay test share: each takes
//! arbitrary bytes, runs one reader of untrusted input, and checks what must hold for
//! any input (panicking when it does not). A reader may refuse the input; it must never
//! panic, and what it accepts must survive the tool's own write and read again.

use std::path::Path;

use crate::support::i18n::Lang;

/// The typed reading of readers ([`View::parse`](crate::model::state::View::parse))
/// and the document reading give the same view, or the same error, for any input.
pub fn same_view(data: &[u8]) {
    let file = Path::new("fuzz.json");
    let typed = crate::model::state::View::parse(data, file);
    let document =
        crate::model::state::State::parse(data, file).map(crate::model::state::State::into_view);
    match (typed, document) {
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "the same view"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "the same error"),
        (a, b) => panic!("the readings disagree: typed {a:?}, document {b:?}"),
    }
}

/// `project-state.json`: parse; whatever parses is written as the tool writes it, parses
/// again to the same document (unknown fields included), and renders `handover.md` the
/// same way twice in both languages.
pub fn state_reader(data: &[u8]) {
    same_view(data);
    let Ok(state) = crate::model::state::State::parse(data, Path::new("fuzz.json")) else {
        return;
    };
    let bytes = state.to_json_bytes();
    let again = crate::model::state::State::parse(&bytes, Path::new("fuzz.json"))
        .expect("a state the tool wrote reads back");
    assert_eq!(
        again.document(),
        state.document(),
        "write then read is the identity"
    );
    for lang in [Lang::En, Lang::Ja] {
        let md = crate::model::markdown::render(&state, lang);
        assert_eq!(
            md,
            crate::model::markdown::render(&again, lang),
            "rendering is deterministic"
        );
    }
    let mut doc = state.document().clone();
    crate::model::session::seal(&mut doc);
    let hash = crate::model::session::session_hash(&doc);
    crate::model::session::seal(&mut doc);
    assert_eq!(
        crate::model::session::session_hash(&doc),
        hash,
        "seal is idempotent"
    );
    let _ = state.into_view();
}

/// `CONTINUE_HERE.md`: parse any text and ask it everything the briefing asks.
pub fn continue_here(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let note = crate::model::note::Note::parse(&text);
    let _ = note.missing_sections();
    let _ = note.user_items();
    let _ = note.in_progress_items();
    let _ = note.next_steps();
    for s in &note.sections {
        let _ = s.items();
        let _ = s.text();
    }
    assert_eq!(
        crate::model::note::Note::parse(&text),
        note,
        "parsing is deterministic"
    );
}

/// A note of the notes store: every record read writes out as a line that reads back as
/// the same record; joining notes is commutative and idempotent, as git's
/// `cat_sort_uniq` is.
pub fn notes_record(data: &[u8]) {
    for parsed in crate::model::record::parse_note(data) {
        if let Ok(record) = parsed.record {
            let line = record.to_line();
            assert!(!line.contains('\n'), "a record is one line");
            assert_eq!(
                crate::model::record::parse_record(line.as_bytes()).as_ref(),
                Ok(&record),
                "a record reads back"
            );
        }
    }
    let (a, b) = data.split_at(data.len() / 2);
    let ab = crate::model::record::cat_sort_uniq(a, b);
    assert_eq!(ab, crate::model::record::cat_sort_uniq(b, a), "commutative");
    assert_eq!(
        crate::model::record::cat_sort_uniq(&ab, &ab),
        ab,
        "idempotent"
    );
    assert_eq!(
        crate::model::record::cat_sort_uniq(&ab, a),
        ab,
        "absorbs a part"
    );
}

/// Configuration: durations, `git -c` parameters and every setting from `key=value`
/// lines. A bad value is an error, never a panic; a duration that parses prints in a
/// form that parses to the same length.
pub fn config(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(d) = crate::support::config::parse_duration(&text) {
        let shown = crate::support::i18n::human_duration(d);
        let _ = crate::support::i18n::duration(Lang::Ja, d);
        if d.as_secs() < 100 * 365 * 86_400 {
            // What the tool prints (minutes dropped under days, seconds under minutes)
            // is itself a duration it reads.
            assert!(
                crate::support::config::parse_duration(&shown).is_ok(),
                "{shown:?} does not parse"
            );
        }
    }
    let _ = crate::support::config::parse_config_parameters(&text);
    let pairs: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.to_owned()))
        .collect();
    let _ = crate::support::config::Settings::from_lookup(|key| {
        let key = key.to_ascii_lowercase();
        pairs
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    });
}
