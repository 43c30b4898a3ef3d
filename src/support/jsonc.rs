//! JSON with comments, as Gemini CLI reads its `settings.json`: the comments blanked the
//! way the `strip-json-comments` package does, then plain JSON (`JSON.parse`, so no
//! trailing commas). `@google/gemini-cli` 0.61.0, `bundle/chunk-2YTYPKEZ.js`,
//! `_doLoadSettings`: `JSON.parse(stripJsonComments(content))`; the stripper is
//! `node_modules/strip-json-comments/index.js` in `bundle/chunk-5FZXKDXH.js`.
//!
//! [`edit`] rewrites such a text into one that reads as a given value, touching only
//! the members and items that differ: every comment, blank line and indentation
//! elsewhere stays as the user wrote it. The result is read back and compared with the
//! value wanted; a text it cannot edit faithfully is `None`, never a guess.

use serde_json::Value;

/// `text` with every comment blanked: each byte of a comment that is not whitespace
/// becomes a space, so offsets are those of `text` (as `strip-json-comments` keeps
/// them). A `"` starts or ends a string outside comments unless an odd number of
/// backslashes precedes it; comments inside strings are text.
pub fn blank_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let (mut i, mut in_string) = (0, false);
    while i < b.len() {
        if in_string {
            match b[i] {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        let end = match (b[i], b.get(i + 1)) {
            (b'"', _) => {
                in_string = true;
                i += 1;
                continue;
            }
            (b'/', Some(b'/')) => b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |n| i + n),
            (b'/', Some(b'*')) => b[i + 2..]
                .windows(2)
                .position(|w| w == b"*/")
                .map_or(b.len(), |n| i + 2 + n + 2),
            _ => {
                i += 1;
                continue;
            }
        };
        for c in &mut out[i..end] {
            if !c.is_ascii_whitespace() {
                *c = b' ';
            }
        }
        i = end;
    }
    // Only ASCII bytes were replaced, each by a space, and only whole comments (which
    // start and end at ASCII characters): still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// A value of the blanked text and where it is: `start..end` in bytes.
#[derive(Debug)]
struct Node {
    start: usize,
    end: usize,
    /// An object's members (key, where the key starts, the value) or an array's items
    /// (no key); empty for a scalar.
    children: Vec<(Option<String>, usize, Node)>,
    container: bool,
}

/// Parse the blanked text (known to be valid JSON) into its spans.
fn parse(plain: &[u8], mut i: usize) -> Option<(Node, usize)> {
    i = skip_ws(plain, i);
    let start = i;
    match *plain.get(i)? {
        open @ (b'{' | b'[') => {
            let close = if open == b'{' { b'}' } else { b']' };
            let mut children = Vec::new();
            i = skip_ws(plain, i + 1);
            while *plain.get(i)? != close {
                let key_start = i;
                let key = if open == b'{' {
                    let end = string_end(plain, i)?;
                    let key: String = serde_json::from_slice(&plain[i..end]).ok()?;
                    i = skip_ws(plain, end);
                    (*plain.get(i)? == b':').then_some(())?;
                    i += 1;
                    Some(key)
                } else {
                    None
                };
                let (value, after) = parse(plain, i)?;
                children.push((key, key_start, value));
                i = skip_ws(plain, after);
                if *plain.get(i)? == b',' {
                    i = skip_ws(plain, i + 1);
                }
            }
            let node = Node {
                start,
                end: i + 1,
                children,
                container: true,
            };
            Some((node, i + 1))
        }
        b'"' => {
            let end = string_end(plain, i)?;
            Some((scalar(start, end), end))
        }
        _ => {
            let n = plain[i..]
                .iter()
                .position(|c| c.is_ascii_whitespace() || matches!(c, b',' | b']' | b'}'))
                .unwrap_or(plain.len() - i);
            Some((scalar(start, i + n), i + n))
        }
    }
}

fn scalar(start: usize, end: usize) -> Node {
    Node {
        start,
        end,
        children: Vec::new(),
        container: false,
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// The end (after the closing quote) of the string starting at `i`.
fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    loop {
        match *b.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// The replacements to make, as (start, end, text) of the original.
struct Edits<'a> {
    text: &'a str,
    plain: &'a str,
    unit: String,
    list: Vec<(usize, usize, String)>,
}

/// `text` (JSON with comments) rewritten to read as `wanted`, keeping everything that
/// does not differ; `None` when the text is not JSON with comments or the edit would not
/// read back as `wanted`.
pub fn edit(text: &str, wanted: &Value) -> Option<String> {
    let plain = blank_comments(text);
    let old: Value = serde_json::from_str(&plain).ok()?;
    let (root, _) = parse(plain.as_bytes(), 0)?;
    let mut edits = Edits {
        text,
        plain: &plain,
        unit: indent_unit(text),
        list: Vec::new(),
    };
    edits.value(&root, &old, wanted);
    let mut list = edits.list;
    list.sort_by_key(|e| std::cmp::Reverse((e.0, e.1)));
    let mut out = text.to_owned();
    let mut floor = usize::MAX;
    for (start, end, with) in list {
        // Overlapping edits would be a mistake of this module: refuse rather than guess.
        if end > floor || start > end {
            return None;
        }
        out.replace_range(start..end, &with);
        floor = start;
    }
    let back: Value = serde_json::from_str(&blank_comments(&out)).ok()?;
    (back == *wanted).then_some(out)
}

/// The indentation one level adds in `text`: that of its first indented line, else two
/// spaces.
fn indent_unit(text: &str) -> String {
    text.lines()
        .map(|l| &l[..l.len() - l.trim_start_matches([' ', '\t']).len()])
        .find(|i| !i.is_empty())
        .unwrap_or("  ")
        .to_owned()
}

impl Edits<'_> {
    fn value(&mut self, node: &Node, old: &Value, new: &Value) {
        if old == new {
            return;
        }
        match (old, new) {
            (Value::Object(o), Value::Object(n)) if node.container => {
                let mut gone = vec![false; node.children.len()];
                for (k, (key, _, child)) in node.children.iter().enumerate() {
                    let key = key.as_deref().unwrap_or_default();
                    match (o.get(key), n.get(key)) {
                        (Some(ov), Some(nv)) => self.value(child, ov, nv),
                        (Some(_), None) => gone[k] = true,
                        _ => {}
                    }
                }
                self.remove(node, &gone);
                for (key, nv) in n.iter().filter(|(k, _)| !o.contains_key(*k)) {
                    self.append(node, Some(key), nv);
                }
            }
            (Value::Array(o), Value::Array(n)) if node.container => self.items(node, o, n),
            _ => {
                let indent = self.indent_at(node.start);
                let with = self.pretty(new, &indent);
                self.list.push((node.start, node.end, with));
            }
        }
    }

    /// An array's items from `o` to `n`: items kept in order, items changed edited in
    /// place, items gone removed, new ones appended.
    fn items(&mut self, node: &Node, o: &[Value], n: &[Value]) {
        let (mut i, mut j) = (0, 0);
        let mut gone = vec![false; node.children.len()];
        while i < o.len() {
            let child = &node.children[i].2;
            if n.get(j) == Some(&o[i]) {
                j += 1;
            } else if j < n.len() && !n[j..].contains(&o[i]) && !o[i..].contains(&n[j]) {
                self.value(child, &o[i], &n[j]);
                j += 1;
            } else {
                gone[i] = true;
            }
            i += 1;
        }
        self.remove(node, &gone);
        for v in &n[j..] {
            self.append(node, None, v);
        }
    }

    /// Remove the children of `parent` (items, or members from their keys) that `gone`
    /// marks, each with its comma and, when it had lines of its own, those lines. When
    /// the last ones go, the comma of the one kept before them goes (what stands between,
    /// a comment, stays).
    fn remove(&mut self, parent: &Node, gone: &[bool]) {
        let b = self.text.as_bytes();
        let len = parent.children.len();
        // The first of the removed children that no kept child follows.
        let tail = gone.iter().rposition(|g| !g).map_or(0, |k| k + 1);
        for k in (0..len).filter(|k| gone[*k]) {
            let child = &parent.children[k].2;
            let start = parent.children[k].1;
            let mut from = start;
            while from > 0 && matches!(b[from - 1], b' ' | b'\t') {
                from -= 1;
            }
            let own_line = from == 0 || b[from - 1] == b'\n';
            if own_line && from > 0 {
                from -= 1;
            } else {
                from = start;
            }
            let mut to = child.end;
            if k + 1 != len {
                to = skip_ws(self.plain.as_bytes(), to) + 1; // its comma
            }
            if own_line {
                to = self.line_end_if_blank(to);
            }
            if k == tail && k > 0 {
                let prev = &parent.children[k - 1].2;
                let comma = skip_ws(self.plain.as_bytes(), prev.end);
                self.list.push((comma, comma + 1, String::new()));
            }
            self.list.push((from, to, String::new()));
        }
    }

    /// Append `value` (as the member `key`, in an object) to `parent`.
    fn append(&mut self, parent: &Node, key: Option<&str>, value: &Value) {
        let item = |pretty: &dyn Fn(&Value) -> String| match key {
            Some(k) => format!("{}: {}", Value::String(k.to_owned()), pretty(value)),
            None => pretty(value),
        };
        let multiline = self.text[parent.start..parent.end].contains('\n');
        let Some((_, _, last)) = parent.children.last() else {
            let outer = self.indent_at(parent.start);
            let inner = format!("{outer}{}", self.unit);
            let text = item(&|v| self.pretty(v, &inner));
            self.list.push((
                parent.start + 1,
                parent.start + 1,
                format!("\n{inner}{text}\n{outer}"),
            ));
            return;
        };
        if !multiline {
            let text = item(&|v| v.to_string());
            self.list.push((last.end, last.end, format!(", {text}")));
            return;
        }
        let first = parent.children[parent.children.len() - 1].1;
        let indent = self.indent_at(first);
        let text = item(&|v| self.pretty(v, &indent));
        let eol = self.line_end_if_blank(last.end);
        if eol == last.end {
            self.list
                .push((last.end, last.end, format!(",\n{indent}{text}")));
        } else {
            // A comment after the last item stays with it, after its new comma.
            self.list.push((last.end, last.end, ",".to_owned()));
            self.list.push((eol, eol, format!("\n{indent}{text}")));
        }
    }

    /// The end of the line from `at` (before its newline) when nothing but whitespace
    /// and comments follow on it; else `at`.
    fn line_end_if_blank(&self, at: usize) -> usize {
        let rest = &self.plain.as_bytes()[at..];
        let n = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
        if rest[..n].iter().all(u8::is_ascii_whitespace) {
            at + n
        } else {
            at
        }
    }

    /// The indentation of the line `at` is on.
    fn indent_at(&self, at: usize) -> String {
        let line = self.text[..at].rfind('\n').map_or(0, |n| n + 1);
        let rest = &self.text[line..];
        rest[..rest.len() - rest.trim_start_matches([' ', '\t']).len()].to_owned()
    }

    /// `v` pretty-printed with this file's indentation unit, its lines after the first
    /// indented by `base`.
    fn pretty(&self, v: &Value, base: &str) -> String {
        use serde::Serialize as _;
        let mut out = Vec::new();
        let fmt = serde_json::ser::PrettyFormatter::with_indent(self.unit.as_bytes());
        let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
        if v.serialize(&mut ser).is_err() {
            return v.to_string();
        }
        String::from_utf8_lossy(&out).replace('\n', &format!("\n{base}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn comments_are_blanked_as_strip_json_comments_does() {
        let text = "{\"a\": \"x // not a comment /* nor this */\", // one\n\"b\": /* two\n */ 1}";
        let plain = blank_comments(text);
        assert_eq!(plain.len(), text.len());
        let v: Value = serde_json::from_str(&plain).unwrap();
        assert_eq!(v, json!({"a": "x // not a comment /* nor this */", "b": 1}));
        // An escaped quote does not end a string; an escaped backslash does not escape.
        let text = r#"{"a": "q\" // in", "b": "\\", // out
"c": 2}"#;
        let v: Value = serde_json::from_str(&blank_comments(text)).unwrap();
        assert_eq!(v, json!({"a": "q\" // in", "b": "\\", "c": 2}));
        // Non-ASCII in a comment keeps the offsets.
        let text = "{ /* 日本語 */ \"a\": 1 }";
        assert_eq!(blank_comments(text).len(), text.len());
        // An unterminated block comment runs to the end.
        assert_eq!(blank_comments("1 /* open"), "1        ");
    }

    #[test]
    fn an_edit_keeps_comments_and_layout_elsewhere() {
        let text = "{\n    // my theme\n    \"ui\": {\"theme\": \"dark\"}, /* keep */\n    \"hooks\": {\n        \"SessionStart\": [\n            {\"hooks\": [{\"command\": \"mine\"}]} // mine\n        ]\n    }\n}\n";
        let mut v: Value = serde_json::from_str(&blank_comments(text)).unwrap();
        v["hooks"]["SessionStart"]
            .as_array_mut()
            .unwrap()
            .push(json!({"hooks": [{"command": "ours"}]}));
        let out = edit(text, &v).unwrap();
        assert!(
            out.starts_with("{\n    // my theme\n    \"ui\": {\"theme\": \"dark\"}, /* keep */\n")
        );
        assert!(out.contains("{\"hooks\": [{\"command\": \"mine\"}]}, // mine\n            {\n                \"hooks\": ["), "{out}");
        // And back: the item removed, the comment of the one before kept.
        v["hooks"]["SessionStart"].as_array_mut().unwrap().pop();
        let back = edit(&out, &v).unwrap();
        assert_eq!(back, text);
    }

    #[test]
    fn members_are_added_to_empty_and_one_line_objects() {
        let v = json!({"a": 1, "hooks": {"SessionStart": [{"x": 1}]}});
        let out = edit("{\"a\": 1} // c\n", &v).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&blank_comments(&out)).unwrap(),
            v
        );
        assert!(out.ends_with("// c\n"));
        let out = edit("// top\n{}\n", &json!({"k": []})).unwrap();
        assert_eq!(out, "// top\n{\n  \"k\": []\n}\n");
        // Removing the only member.
        let out = edit("{\n  // c\n  \"k\": [] // gone\n}\n", &json!({})).unwrap();
        assert_eq!(out, "{\n  // c\n}\n");
    }

    /// Several members or items going at once (`hook uninstall` takes out four events):
    /// the last ones, the middle ones, all of them, each read back as wanted.
    #[test]
    fn several_removals_at_once() {
        let text =
            "{\n  // c\n  \"a\": 1, // a\n  \"b\": 2,\n  \"c\": 3,\n  \"d\": [1, 2, 3, 4]\n}\n";
        for wanted in [
            json!({"a": 1, "b": 2}),
            json!({"a": 1, "d": [1, 2, 3, 4]}),
            json!({"b": 2}),
            json!({}),
            json!({"a": 1, "b": 2, "c": 3, "d": [1]}),
            json!({"a": 1, "b": 2, "c": 3, "d": [2, 3]}),
            json!({"d": []}),
        ] {
            let out = edit(text, &wanted).unwrap_or_else(|| panic!("{wanted}"));
            assert!(out.starts_with("{\n  // c\n"), "{out}");
        }
        assert_eq!(
            edit(text, &json!({"a": 1, "b": 2})).unwrap(),
            "{\n  // c\n  \"a\": 1, // a\n  \"b\": 2\n}\n"
        );
    }

    #[test]
    fn what_gemini_cli_would_not_read_is_not_edited() {
        // JSON.parse takes no trailing comma, and neither does this.
        assert_eq!(edit("{\"a\": 1,}", &json!({"a": 2})), None);
        assert_eq!(edit("{\"a\": 1 // c", &json!({"a": 1})), None);
        assert_eq!(
            edit("{\"a\": /* c */ 1}", &json!({"a": 2})).unwrap(),
            "{\"a\": /* c */ 2}"
        );
    }
}
