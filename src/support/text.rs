//! Making text from handover files safe to print on a terminal.

use std::fmt::Write as _;

/// Escape control characters (C0, DEL, C1) and bidirectional formatting characters,
/// so a handover file cannot move the cursor, change colours or reorder what is shown.
/// Tabs become a space; everything else printable is kept as written.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' => out.push(' '),
            c if c.is_control() || is_bidi_control(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
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
}
