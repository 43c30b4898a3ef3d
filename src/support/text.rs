//! Making text from handover files safe to print on a terminal.

use std::fmt::Write as _;

/// Escape control characters (C0, DEL, C1), bidirectional formatting characters and
/// invisible ones (line and paragraph separators, zero-width space, word joiner, the
/// Unicode tag block, fillers), so a handover file cannot move the cursor, change
/// colours, reorder what is shown or hide text from the person reading it while an
/// agent reads it. Tabs become a space; everything else printable is kept as written
/// (joiners stay: emoji and several scripts need them).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' => out.push(' '),
            c if c.is_control() || is_bidi_control(c) || is_invisible(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// `s` as one word for `sh`, to be pasted into a printed command: as it is when it
/// holds only characters the shell takes literally, else in single quotes (a quote in
/// it closed, escaped and reopened), then escaped for the terminal.
pub fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./-:@+=,%".contains(c));
    if plain {
        return s.to_owned();
    }
    escape(&format!("'{}'", s.replace('\'', "'\\''")))
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{115f}'
            | '\u{1160}'
            | '\u{180e}'
            | '\u{200b}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{2060}'..='\u{2064}'
            | '\u{3164}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

/// The first line of a text, cut to at most `max` characters of the original (with
/// `…`), then escaped. Cutting first keeps an escape such as `\u{2066}` whole.
pub fn one_line(s: &str, max: usize) -> String {
    let first = s.lines().next().unwrap_or("").trim();
    if first.chars().count() > max {
        let mut cut: String = first.chars().take(max.saturating_sub(1)).collect();
        cut = escape(&cut);
        cut.push('…');
        cut
    } else {
        escape(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_invisible_characters() {
        assert_eq!(
            escape("a\u{200b}b\u{2028}c\u{e0041}\u{e007f}d\u{feff}"),
            "a\\u{200b}b\\u{2028}c\\u{e0041}\\u{e007f}d\\u{feff}"
        );
        // Joiners in emoji and scripts are text, not tricks.
        assert_eq!(escape("👨\u{200d}👩"), "👨\u{200d}👩");
    }

    #[test]
    fn escapes_terminal_controls_and_bidi() {
        assert_eq!(escape("a\u{1b}[31mred"), "a\\u{1b}[31mred");
        assert_eq!(escape("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(escape("tab\there"), "tab here");
        assert_eq!(escape("日本語 ok"), "日本語 ok");
        assert_eq!(escape("bell\u{7}\u{9b}"), "bell\\u{7}\\u{9b}");
    }

    #[test]
    fn one_line_cuts() {
        assert_eq!(one_line("first\nsecond", 10), "first");
        assert_eq!(one_line("abcdefghijkl", 5), "abcd…");
        assert_eq!(one_line("ab\u{2066}cdef", 4), "ab\\u{2066}…");
    }

    #[test]
    fn shell_words_quote_what_the_shell_would_act_on() {
        assert_eq!(
            shell_word("feature/a/20261201-235848"),
            "feature/a/20261201-235848"
        );
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word("$(x)"), "'$(x)'");
        assert_eq!(shell_word(""), "''");
    }
}
