//! Turning byte spans and field paths into file:line:column.

use serde::de::DeserializeOwned;
use serde_path_to_error::Segment;
use toml::de::{DeTable, DeValue};

use crate::ScenarioError;

/// One step of a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// A table key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// A parsed document with its spans, for deserializing and for locating fields.
pub struct Doc<'a> {
    file: &'a str,
    text: &'a str,
    root: toml::Spanned<DeValue<'a>>,
}

impl<'a> Doc<'a> {
    /// Parses TOML text; syntax errors are located.
    pub fn parse(file: &'a str, text: &'a str) -> Result<Doc<'a>, ScenarioError> {
        let root = DeTable::parse(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            let (at, message) = syntax_message(text, span, &first_line(e.message()));
            let (line, column) = line_col(text, at);
            ScenarioError {
                file: file.into(),
                line,
                column,
                field: String::new(),
                message,
                also: Vec::new(),
            }
        })?;
        let span = root.span();
        let root = toml::Spanned::new(span, DeValue::Table(root.into_inner()));
        Ok(Doc { file, text, root })
    }

    /// Deserializes the whole document; errors carry the field path and position.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, ScenarioError> {
        self.deserialize_from(&self.root).map_err(|(_, e)| e)
    }

    /// Deserializes the whole document, gathering up to `limit` errors instead of stopping at
    /// the first: after each error the offending field is taken out of a copy of the document
    /// (the whole list, for an item of a list, so the other items keep their index) and the
    /// rest is read again. A "missing field" caused only by such a removal is not an error of
    /// the file: the table holding it is taken out instead. Errors come back in file order.
    pub fn deserialize_all<T: DeserializeOwned>(
        &self,
        limit: usize,
    ) -> Result<T, Vec<ScenarioError>> {
        let mut root = self.root.clone();
        let mut errors: Vec<ScenarioError> = Vec::new();
        let mut removed: Vec<Vec<Seg>> = Vec::new();
        // Each round takes one node out, so the loop ends; the bound is a guard.
        for _ in 0..limit.max(1) * 8 {
            let (path, e) = match self.deserialize_from::<T>(&root) {
                Ok(t) if errors.is_empty() => return Ok(t),
                Ok(_) => break,
                Err(x) => x,
            };
            let spurious = e
                .message
                .strip_prefix("missing field `")
                .and_then(|r| r.split('`').next())
                .is_some_and(|k| {
                    let mut p = path.clone();
                    p.push(Seg::Key(k.to_string()));
                    removed
                        .iter()
                        .any(|r| r.starts_with(&p) || p.starts_with(r))
                });
            let mut target = path.clone();
            if spurious {
                // Take out the table that misses the field.
            } else {
                errors.push(e);
                if errors.len() >= limit {
                    break;
                }
            }
            target.truncate(depth_in(&root, &target));
            while matches!(target.last(), Some(Seg::Index(_))) {
                target.pop();
            }
            if target.is_empty() || !remove(&mut root, &target) {
                break;
            }
            removed.push(target);
        }
        if errors.is_empty() {
            // Unreachable in practice: a document that fails always yields its first error.
            return self.deserialize::<T>().map_err(|e| vec![e]);
        }
        // A misspelt key (`skil`, "did you mean `skill`?") also leaves `skill` missing: one
        // mistake, said once.
        let said: Vec<(String, String)> = errors
            .iter()
            .filter_map(|e| {
                let k = e
                    .message
                    .split("did you mean `")
                    .nth(1)?
                    .split('`')
                    .next()?;
                let table = e.field.rsplit_once('.').map_or("", |(t, _)| t);
                Some((table.to_string(), k.to_string()))
            })
            .collect();
        errors.retain(|e| {
            let missing = e
                .message
                .strip_prefix("missing field `")
                .and_then(|r| r.split('`').next());
            !missing.is_some_and(|k| said.iter().any(|(t, s)| *t == e.field && s == k))
        });
        errors.sort_by_key(|e| (e.line, e.column));
        errors.dedup();
        Err(errors)
    }

    fn deserialize_from<T: DeserializeOwned>(
        &self,
        root: &toml::Spanned<DeValue<'a>>,
    ) -> Result<T, (Vec<Seg>, ScenarioError)> {
        let table = match root.get_ref() {
            DeValue::Table(t) => t.clone(),
            _ => unreachable!("a document is a table"),
        };
        let de = toml::de::Deserializer::from(toml::Spanned::new(root.span(), table));
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path: Vec<Seg> = e
                .path()
                .iter()
                .filter_map(|s| match s {
                    Segment::Map { key } => Some(Seg::Key(key.clone())),
                    Segment::Seq { index } => Some(Seg::Index(*index)),
                    Segment::Enum { variant } => Some(Seg::Key(variant.clone())),
                    Segment::Unknown => None,
                })
                .collect();
            let inner = e.into_inner();
            let mut message = first_line(inner.message());
            if message == "wanted string or table"
                && let Some(m) = self.names_instead::<T>(root, &path, inner.span())
            {
                message = m;
            }
            let err = match inner.span() {
                Some(s) => self.error_at(s.start, &path, message),
                None => self.error(&path, message),
            };
            (path, err)
        })
    }

    /// For a value that must be a name (a text option) but is not text: the names it may take,
    /// found by reading the document again with text in its place, and what was written.
    fn names_instead<T: DeserializeOwned>(
        &self,
        root: &toml::Spanned<DeValue<'a>>,
        path: &[Seg],
        span: Option<std::ops::Range<usize>>,
    ) -> Option<String> {
        let mut copy = root.clone();
        let node = node_mut(&mut copy, path)?;
        *node.get_mut() = DeValue::String(std::borrow::Cow::Borrowed("\u{1}"));
        let (p2, e2) = self.deserialize_from::<T>(&copy).err()?;
        if p2 != path {
            return None;
        }
        let list = e2.message.split("expected one of: ").nth(1)?;
        let written = span
            .and_then(|s| self.text.get(s))
            .map(|t| t.trim().to_string())
            .unwrap_or_default();
        Some(format!(
            "expected one of: {list} (a name in quotes), got {written}"
        ))
    }

    /// How many leading steps of `path` are written in the document (`path.len()`: all of
    /// it).
    pub fn depth(&self, path: &[Seg]) -> usize {
        let mut node = &self.root;
        for (depth, seg) in path.iter().enumerate() {
            let next = match seg {
                Seg::Key(k) => node.get_ref().get(k.as_str()),
                Seg::Index(i) => node.get_ref().get(*i),
            };
            match next {
                Some(n) => node = n,
                None => return depth,
            }
        }
        path.len()
    }

    /// Whether the field `path` is written in the document.
    pub fn has(&self, path: &[Seg]) -> bool {
        self.depth(path) == path.len()
    }

    /// An error at the field `path` (or its nearest present ancestor).
    pub fn error(&self, path: &[Seg], message: impl Into<String>) -> ScenarioError {
        let mut node = &self.root;
        for seg in path {
            let next = match seg {
                Seg::Key(k) => node.get_ref().get(k.as_str()),
                Seg::Index(i) => node.get_ref().get(*i),
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        self.error_at(node.span().start, path, message.into())
    }

    /// The node at `path`, if the file gives it.
    fn node(&self, path: &[Seg]) -> Option<&toml::Spanned<DeValue<'a>>> {
        let mut node = &self.root;
        for seg in path {
            node = match seg {
                Seg::Key(k) => node.get_ref().get(k.as_str()),
                Seg::Index(i) => node.get_ref().get(*i),
            }?;
        }
        Some(node)
    }

    /// Whether the file itself gives the field `path` (not a default).
    pub fn given(&self, path: &[Seg]) -> bool {
        self.node(path).is_some()
    }

    /// The text at `path`, if the file gives text there.
    pub fn text_at(&self, path: &[Seg]) -> Option<String> {
        match self.node(path)?.get_ref() {
            DeValue::String(s) => Some(s.to_string()),
            _ => None,
        }
    }

    fn error_at(&self, offset: usize, path: &[Seg], message: String) -> ScenarioError {
        let (line, column) = line_col(self.text, offset);
        ScenarioError {
            file: self.file.into(),
            line,
            column,
            field: render(path),
            message: crate::messages::humanize(&message),
            also: Vec::new(),
        }
    }
}

/// How many leading steps of `path` exist under `root`.
fn depth_in(root: &toml::Spanned<DeValue<'_>>, path: &[Seg]) -> usize {
    let mut node = root;
    for (depth, seg) in path.iter().enumerate() {
        let next = match seg {
            Seg::Key(k) => node.get_ref().get(k.as_str()),
            Seg::Index(i) => node.get_ref().get(*i),
        };
        match next {
            Some(n) => node = n,
            None => return depth,
        }
    }
    path.len()
}

/// The node at `path` under `root`, to change it.
fn node_mut<'n, 'i>(
    root: &'n mut toml::Spanned<DeValue<'i>>,
    path: &[Seg],
) -> Option<&'n mut toml::Spanned<DeValue<'i>>> {
    let mut node = root;
    for seg in path {
        node = match (seg, node.get_mut()) {
            (Seg::Key(k), DeValue::Table(t)) => t.get_mut(k.as_str())?,
            (Seg::Index(i), DeValue::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(node)
}

/// Takes the key at the end of `path` (a [`Seg::Key`]) out of its table; false if it is not
/// there.
fn remove(root: &mut toml::Spanned<DeValue<'_>>, path: &[Seg]) -> bool {
    let Some((Seg::Key(last), parent)) = path.split_last() else {
        return false;
    };
    let mut node = root.get_mut();
    for seg in parent {
        let next = match (seg, node) {
            (Seg::Key(k), DeValue::Table(t)) => t.get_mut(k.as_str()),
            (Seg::Index(i), DeValue::Array(a)) => a.get_mut(*i),
            _ => None,
        };
        match next {
            Some(n) => node = n.get_mut(),
            None => return false,
        }
    }
    match node {
        DeValue::Table(t) => t.remove(last.as_str()).is_some(),
        _ => false,
    }
}

/// A TOML syntax error in plain words, and the offset to report it at: the duplicated key
/// named, a missing comma in a list said as such.
fn syntax_message(text: &str, span: std::ops::Range<usize>, message: &str) -> (usize, String) {
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    let spanned = text.get(start..end).unwrap_or("").trim();
    if message.starts_with("duplicate key") {
        let name = spanned.trim_matches(['[', ']', ' ']);
        return (
            start,
            format!("duplicate key `{name}`: it is already set above in the same table; keep one"),
        );
    }
    if message.starts_with("string values must be quoted") {
        let word: String = text[start..]
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ']' | '}' | '#'))
            .collect();
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let in_list = text[line_start..start].contains('[');
        if !word.is_empty() && !in_list {
            return (start, format!("text must be in quotes: write \"{word}\""));
        }
    }
    // Inside an unclosed `[` on this line, two values with only a space between them.
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..start];
    let open = before.matches('[').count() > before.matches(']').count()
        && before.trim_start().contains('=');
    if open {
        let prev = before.trim_end();
        let gap = before.len() - prev.len();
        if gap > 0
            && !prev.ends_with([',', '['])
            && text[start..]
                .chars()
                .next()
                .is_some_and(|c| c != ']' && c != ',')
        {
            let item = prev.rsplit([',', '[', ' ']).next().unwrap_or("");
            return (
                line_start + prev.len(),
                format!(
                    "missing `,` after `{item}`: list items are separated by commas, e.g. [3, 4]"
                ),
            );
        }
        if let Some(i) = spanned.find(char::is_whitespace) {
            let (a, b) = spanned.split_at(i);
            let b = b.trim_start();
            if !a.ends_with(',') && !b.is_empty() && !b.starts_with([',', ']']) {
                return (
                    start + i,
                    format!(
                        "missing `,` between `{a}` and `{}`: list items are separated by commas, and text is quoted, e.g. [3, 4] or [\"a\", \"b\"]",
                        b.split_whitespace().next().unwrap_or(b)
                    ),
                );
            }
        }
    }
    (start, plain_syntax(message))
}

/// The TOML parser's own wording ("unexpected key or value, expected newline, `#`") in plain
/// words, with what to write.
fn plain_syntax(message: &str) -> String {
    let known = [
        (
            "unexpected key or value, expected newline",
            "unexpected text after the value: put each `key = value` on its own line (a comment starts with `#`)",
        ),
        (
            "key with no value",
            "a key without a value: write `key = value`",
        ),
        (
            "invalid basic string",
            "text not closed: end it with `\"` on the same line",
        ),
        ("unclosed table", "table header not closed: end it with `]`"),
        (
            "unclosed array",
            "list not closed: end it with `]` (items separated by commas)",
        ),
        (
            "unclosed inline table",
            "inline table not closed: end it with `}` on the same line",
        ),
        ("extra `=`", "one `=` too many: write `key = value`"),
    ];
    if let Some((_, m)) = known.iter().find(|(k, _)| message.starts_with(k)) {
        return (*m).to_string();
    }
    // Anything else: the parser's "…, expected `x`" as "…; expected `x`", newline in words.
    message
        .replacen(", expected ", "; expected ", 1)
        .replace("expected newline", "expected the end of the line")
}

fn first_line(m: &str) -> String {
    m.lines().next().unwrap_or("").trim().to_string()
}

/// Renders a path as `fighters.knight.skill` / `matchup[0].a`.
pub fn render(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                if k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    s.push_str(k);
                } else {
                    s.push_str(&format!("{k:?}"));
                }
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// 1-based line and character column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}
