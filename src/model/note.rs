//! `CONTINUE_HERE.md`: the five-section Markdown note of SPEC section 3.
//!
//! Parsing never fails: a file with missing sections or header is a partial signal,
//! so the parser reports what is there and names what is missing.

use jiff::Timestamp;

/// The five sections, in the order the format lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    Objective,
    Completed,
    InProgress,
    NextSteps,
    Context,
}

impl Known {
    pub const ALL: [Known; 5] = [
        Known::Objective,
        Known::Completed,
        Known::InProgress,
        Known::NextSteps,
        Known::Context,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Known::Objective => "Objective",
            Known::Completed => "Completed",
            Known::InProgress => "In Progress",
            Known::NextSteps => "Next Steps",
            Known::Context => "Context",
        }
    }

    fn from_title(title: &str) -> Option<Known> {
        let t = title.trim().to_lowercase();
        Known::ALL
            .into_iter()
            .find(|k| k.title().to_lowercase() == t)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading as written.
    pub title: String,
    pub known: Option<Known>,
    /// The body lines, without trailing blank lines.
    pub lines: Vec<String>,
}

impl Section {
    /// The list items of the section (`- …`, `* …`, `1. …`), with the marker removed.
    pub fn items(&self) -> Vec<String> {
        self.lines.iter().filter_map(|l| list_item(l)).collect()
    }

    /// The body as one text, trimmed.
    pub fn text(&self) -> String {
        self.lines.join("\n").trim().to_owned()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Note {
    /// `Last updated:` as written, and as an instant when it parses.
    pub updated_raw: Option<String>,
    pub updated_at: Option<Timestamp>,
    pub branch: Option<String>,
    pub sections: Vec<Section>,
}

impl Note {
    pub fn parse(text: &str) -> Note {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut note = Note::default();
        let mut current: Option<Section> = None;
        for line in text.lines() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if let Some(title) = line.strip_prefix("## ") {
                if let Some(done) = current.take() {
                    note.sections.push(done);
                }
                current = Some(Section {
                    title: title.trim().to_owned(),
                    known: Known::from_title(title),
                    lines: Vec::new(),
                });
                continue;
            }
            match current.as_mut() {
                Some(section) => section.lines.push(line.to_owned()),
                None => note.read_header_line(line),
            }
        }
        if let Some(done) = current.take() {
            note.sections.push(done);
        }
        for section in &mut note.sections {
            while section.lines.last().is_some_and(|l| l.trim().is_empty()) {
                section.lines.pop();
            }
        }
        note
    }

    fn read_header_line(&mut self, line: &str) {
        let Some(rest) = line.trim_start().strip_prefix('>') else {
            return;
        };
        for part in rest.split('|') {
            let Some((key, value)) = part.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match key.trim().to_lowercase().as_str() {
                "last updated" if !value.is_empty() => {
                    self.updated_raw = Some(value.to_owned());
                    self.updated_at = crate::model::state::parse_stamp(value).map(|(t, _)| t);
                }
                "branch" if !value.is_empty() => self.branch = Some(value.to_owned()),
                _ => {}
            }
        }
    }

    pub fn section(&self, known: Known) -> Option<&Section> {
        self.sections.iter().find(|s| s.known == Some(known))
    }

    /// The sections of the format that the note lacks.
    pub fn missing_sections(&self) -> Vec<Known> {
        Known::ALL
            .into_iter()
            .filter(|k| self.section(*k).is_none())
            .collect()
    }

    #[cfg(test)]
    /// Sections other than the five, kept as written.
    pub fn extra_sections(&self) -> impl Iterator<Item = &Section> {
        self.sections.iter().filter(|s| s.known.is_none())
    }

    /// Items tagged `[USER]` anywhere in the note: decisions only the user can make.
    /// The tag (and bold markers around it) is removed from the text.
    pub fn user_items(&self) -> Vec<String> {
        self.sections
            .iter()
            .flat_map(Section::items)
            .filter_map(|item| {
                let cleaned = item.replace("**[USER]**", "").replace("[USER]", "");
                (cleaned.len() != item.len()).then(|| cleaned.trim().to_owned())
            })
            .collect()
    }

    /// Open `- [ ]` items of In Progress (or all its items when none are checkboxes).
    pub fn in_progress_items(&self) -> Vec<String> {
        self.section(Known::InProgress)
            .map(Section::items)
            .unwrap_or_default()
    }

    /// Next steps, without `[USER]` items (those are surfaced apart).
    pub fn next_steps(&self) -> Vec<String> {
        self.section(Known::NextSteps)
            .map(Section::items)
            .unwrap_or_default()
            .into_iter()
            .filter(|i| !i.contains("[USER]"))
            .collect()
    }
}

/// The text of a list item without its marker and checkbox, or `None`.
fn list_item(line: &str) -> Option<String> {
    let t = line.trim_start();
    let rest = if let Some(r) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
        r
    } else {
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        t[digits..]
            .strip_prefix(". ")
            .or_else(|| t[digits..].strip_prefix(") "))?
    };
    let rest = ["[ ] ", "[x] ", "[X] "]
        .iter()
        .find_map(|b| rest.strip_prefix(b))
        .unwrap_or(rest);
    let rest = rest.trim();
    (!rest.is_empty()).then(|| rest.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: &str = "# Continue Here\n\n> Last updated: 2026-11-30T01:15:00Z | Branch: feature/x\n\n## Objective\nShip the parser.\n\n## Completed\n- [x] header\n- [x] sections\n## In Progress\n- [ ] CRLF support\n## Next Steps\n1. Write tests\n2. **[USER]** decide the licence\n## Context\nTried regex first; too slow.\n";

    #[test]
    fn full_note() {
        let n = Note::parse(FULL);
        assert_eq!(n.updated_raw.as_deref(), Some("2026-11-30T01:15:00Z"));
        assert_eq!(n.updated_at.unwrap().to_string(), "2026-11-30T01:15:00Z");
        assert_eq!(n.branch.as_deref(), Some("feature/x"));
        assert!(n.missing_sections().is_empty());
        assert_eq!(
            n.section(Known::Objective).unwrap().text(),
            "Ship the parser."
        );
        assert_eq!(
            n.section(Known::Completed).unwrap().items(),
            ["header", "sections"]
        );
        assert_eq!(n.in_progress_items(), ["CRLF support"]);
        assert_eq!(n.next_steps(), ["Write tests"]);
        assert_eq!(n.user_items(), ["decide the licence"]);
    }

    #[test]
    fn crlf_bom_any_order_case_insensitive_and_extra_sections() {
        let text = "\u{feff}# Continue Here\r\n> last UPDATED: 2026-11-30T01:15:00+09:00|branch: main\r\n## context\r\nc\r\n## NEXT STEPS\r\n- [USER] pick one\r\n## Notes from QA\r\nkeep me\r\n## objective\r\no\r\n## completed\r\n## in progress\r\n";
        let n = Note::parse(text);
        assert_eq!(n.branch.as_deref(), Some("main"));
        assert_eq!(n.updated_at.unwrap().to_string(), "2026-11-29T16:15:00Z");
        assert!(n.missing_sections().is_empty());
        assert_eq!(n.section(Known::Context).unwrap().lines, ["c"]);
        let extra: Vec<_> = n.extra_sections().collect();
        assert_eq!(extra.len(), 1);
        assert_eq!(extra[0].title, "Notes from QA");
        assert_eq!(extra[0].lines, ["keep me"]);
        assert_eq!(n.user_items(), ["pick one"]);
        assert!(
            n.sections
                .iter()
                .all(|s| s.lines.iter().all(|l| !l.contains('\r')))
        );
    }

    #[test]
    fn partial_notes_say_what_is_missing() {
        let n = Note::parse("## Objective\nonly this\n");
        assert_eq!(n.updated_raw, None);
        assert_eq!(n.branch, None);
        assert_eq!(
            n.missing_sections(),
            [
                Known::Completed,
                Known::InProgress,
                Known::NextSteps,
                Known::Context
            ]
        );
        let empty = Note::parse("");
        assert_eq!(empty.missing_sections().len(), 5);
    }

    #[test]
    fn unparsable_timestamp_is_kept_as_text() {
        let n = Note::parse("> Last updated: sometime | Branch: b\n");
        assert_eq!(n.updated_raw.as_deref(), Some("sometime"));
        assert_eq!(n.updated_at, None);
    }
}
