//! Just enough of TOML to read Codex's `config.toml`: its sections and their lines.

/// The `[section]`s of a TOML text, each with the lines up to the next.
pub(super) fn sections(text: &str) -> impl Iterator<Item = (&str, String)> {
    let mut out = Vec::new();
    let mut current: Option<(&str, String)> = None;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            out.extend(current.take());
            current = Some((t, String::new()));
        } else if let Some((_, body)) = &mut current {
            body.push_str(t);
            body.push('\n');
        }
    }
    out.extend(current);
    out.into_iter()
}
