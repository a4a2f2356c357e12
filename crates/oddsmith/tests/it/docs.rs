//! The project's documents hold together: every relative link in `ARCHITECTURE.md`,
//! `README.md`, `benches/README.md` and `docs/**/*.md` points at a file that exists and, with
//! a `#fragment`, at a heading that exists there (GitHub's anchor slugs); and every codemap
//! entry of `ARCHITECTURE.md` stays at most [`MAX_CODEMAP_WORDS`] words.
//!
//! A hand parser, deliberately small: ATX headings (`#` … `######`) outside fenced code,
//! inline links and images `[text](target)` and reference definitions `[label]: target`
//! outside code spans and fences. Links with a scheme (`https:`, `mailto:`) are not followed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::root;

/// A codemap entry (a `###` entry or a table row under `## Codemap`) may not run longer.
const MAX_CODEMAP_WORDS: usize = 80;

/// The documents whose links are checked, relative to the repository root.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut v = vec![
        root.join("ARCHITECTURE.md"),
        root.join("README.md"),
        root.join("benches/README.md"),
    ];
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    walk(&root.join("docs"), &mut v);
    v.sort();
    v
}

/// The document's lines outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let run = |c: char| t.chars().take_while(|&x| x == c).count();
        let (ch, n) = if run('`') >= 3 {
            ('`', run('`'))
        } else if run('~') >= 3 {
            ('~', run('~'))
        } else {
            (' ', 0)
        };
        match fence {
            Some((c, len)) => {
                if n >= len && ch == c && t[n..].trim().is_empty() {
                    fence = None;
                }
            }
            None if n > 0 && indent < 4 => fence = Some((ch, n)),
            None => out.push((i + 1, line)),
        }
    }
    out
}

/// The line with its code spans blanked out (so `` `[a](b)` `` is not a link).
fn without_code_spans(line: &str) -> String {
    let b: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == '`' {
            let n = b[i..].iter().take_while(|&&c| c == '`').count();
            // Find the closing run of exactly n backticks.
            let mut j = i + n;
            let mut close = None;
            while j < b.len() {
                if b[j] == '`' {
                    let m = b[j..].iter().take_while(|&&c| c == '`').count();
                    if m == n {
                        close = Some(j);
                        break;
                    }
                    j += m;
                } else {
                    j += 1;
                }
            }
            match close {
                Some(j) => {
                    out.extend(std::iter::repeat_n(' ', j + n - i));
                    i = j + n;
                }
                None => {
                    out.extend(&b[i..i + n]);
                    i += n;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// Link targets on one line: `](target)` and `[label]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut out = Vec::new();
    let t = line.trim_start();
    if t.starts_with('[')
        && let Some(close) = t.find("]:")
        && !t[..close].contains("](")
    {
        if let Some(target) = t[close + 2..].split_whitespace().next() {
            out.push(target.trim_matches(['<', '>']).to_string());
        }
        return out;
    }
    let mut rest = line.as_str();
    while let Some(k) = rest.find("](") {
        let after = &rest[k + 2..];
        // The destination ends at the parenthesis that balances the opening one.
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = i;
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let dest = after[..end].trim();
        let dest = match dest.strip_prefix('<') {
            Some(d) => d.split('>').next().unwrap_or(""),
            None => dest.split_whitespace().next().unwrap_or(""),
        };
        out.push(dest.to_string());
        rest = &after[end.min(after.len())..];
    }
    out
}

/// The heading's text as GitHub renders it: link texts kept, link targets, emphasis marks,
/// backticks and inline HTML tags dropped.
fn heading_text(raw: &str) -> String {
    let mut s = String::new();
    let mut rest = raw;
    // `[text](target)` → text.
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](") {
            Some(mid) => {
                let mid = open + mid;
                let close = rest[mid..].find(')').map_or(rest.len(), |c| mid + c + 1);
                s.push_str(&rest[..open]);
                s.push_str(&rest[open + 1..mid]);
                rest = &rest[close..];
            }
            None => break,
        }
    }
    s.push_str(rest);
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if in_tag => {}
            '`' | '*' => {}
            _ => out.push(c),
        }
    }
    out
}

/// GitHub's anchor slug: lower case; letters, digits, `-` and `_` kept, spaces become `-`,
/// everything else dropped.
fn slug(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor a document offers: its headings' slugs (repeats numbered `-1`, `-2`, … as
/// GitHub does) and explicit `id="…"` / `name="…"` attributes.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let t = line.trim_start();
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes)
            && line.len() - t.len() < 4
            && t[hashes..].starts_with([' ', '\t'])
        {
            let body = t[hashes..].trim().trim_end_matches('#').trim_end();
            let base = slug(&heading_text(body));
            let n = seen.entry(base.clone()).or_insert(0);
            out.insert(if *n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            });
            *n += 1;
        }
        for attr in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(k) = rest.find(attr) {
                let v = &rest[k + attr.len()..];
                if let Some(e) = v.find('"') {
                    out.insert(v[..e].to_string());
                }
                rest = v;
            }
        }
    }
    out
}

/// The broken links of one document, as `file:line: target (why)`.
fn broken_links(root: &Path, doc: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(doc).unwrap();
    let shown = doc.strip_prefix(root).unwrap_or(doc).display().to_string();
    let mut bad = Vec::new();
    for (n, line) in prose_lines(&text) {
        for target in link_targets(line) {
            let scheme = target
                .split_once(':')
                .is_some_and(|(s, _)| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic()));
            if target.is_empty() || scheme {
                continue;
            }
            let (path, frag) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                doc.to_path_buf()
            } else if let Some(abs) = path.strip_prefix('/') {
                root.join(abs)
            } else {
                doc.parent().unwrap().join(path)
            };
            if !file.exists() {
                bad.push(format!("{shown}:{n}: {target} (no such file)"));
                continue;
            }
            if let Some(frag) = frag
                && file.extension().is_some_and(|x| x == "md")
                && !frag.is_empty()
            {
                let there = std::fs::read_to_string(&file).unwrap();
                if !anchors(&there).contains(&frag.to_lowercase()) {
                    bad.push(format!("{shown}:{n}: {target} (no heading #{frag})"));
                }
            }
        }
    }
    bad
}

/// Words in a stretch of Markdown: whitespace-separated tokens holding a letter or digit.
fn words(s: &str) -> usize {
    s.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

/// Each codemap entry of an ARCHITECTURE.md text with its word count: the text under each
/// `###` heading of `## Codemap`, or each table row there (the header row and the rule
/// excepted).
fn codemap_entries(text: &str) -> Vec<(String, usize)> {
    let mut entries: Vec<(String, String)> = Vec::new();
    let mut inside = false;
    let mut header_seen = false;
    for (_, line) in prose_lines(text) {
        let t = line.trim();
        if let Some(h) = t.strip_prefix("## ") {
            inside = h.trim() == "Codemap";
            continue;
        }
        if t.starts_with("# ") {
            inside = false;
        }
        if !inside {
            continue;
        }
        if let Some(h) = t.strip_prefix("### ") {
            entries.push((h.to_string(), String::new()));
        } else if t.starts_with('|') {
            let is_rule = t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '));
            if is_rule {
                continue;
            }
            if !header_seen {
                header_seen = true;
                continue;
            }
            let name = t.split('|').nth(1).unwrap_or("").trim().to_string();
            entries.push((name, t.to_string()));
        } else if let Some((_, body)) = entries.last_mut() {
            body.push(' ');
            body.push_str(t);
        }
    }
    entries.into_iter().map(|(n, b)| (n, words(&b))).collect()
}

#[test]
fn links_in_the_documents_point_at_files_and_headings_that_exist() {
    let root = root().canonicalize().unwrap();
    let docs = documents(&root);
    assert!(docs.len() >= 8, "{docs:?}");
    let bad: Vec<String> = docs.iter().flat_map(|d| broken_links(&root, d)).collect();
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

#[test]
fn architecture_codemap_entries_are_short() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let entries = codemap_entries(&text);
    assert!(entries.len() >= 10, "no codemap found: {entries:?}");
    let long: Vec<String> = entries
        .iter()
        .filter(|(_, w)| *w > MAX_CODEMAP_WORDS)
        .map(|(n, w)| format!("{n}: {w} words"))
        .collect();
    assert!(
        long.is_empty(),
        "codemap entries over {MAX_CODEMAP_WORDS} words:\n{}",
        long.join("\n")
    );
}

/// The checker itself bites: a planted broken file link, a missing heading, a link hidden in
/// code (not a link), GitHub's slugs for punctuation, code and repeats, and a long entry.
#[test]
fn the_document_checks_catch_planted_faults() {
    let dir = std::env::temp_dir().join(format!("oddsmith-docs-check-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("sub/other.md"),
        "# Other\n\n## The `step` contract: one rule!\n\n## Twice\n\n## Twice\n\n```\n# not a heading\n```\n",
    )
    .unwrap();
    let doc = dir.join("a.md");
    std::fs::write(
        &doc,
        "# A\n\
         [ok](sub/other.md#the-step-contract-one-rule) [ok](sub/other.md#twice-1) [ok](#a)\n\
         [web](https://example.com/x.md) `[code](missing.md)`\n\
         ```\n[fenced](missing.md)\n```\n\
         [gone](sub/missing.md) [heading](sub/other.md#twice-2) [self](#nowhere)\n\
         [ref]: sub/nothing-here.md\n\
         [not](sub/other.md#not-a-heading)\n",
    )
    .unwrap();
    let bad = broken_links(&dir, &doc);
    assert_eq!(
        bad,
        [
            "a.md:7: sub/missing.md (no such file)",
            "a.md:7: sub/other.md#twice-2 (no heading #twice-2)",
            "a.md:7: #nowhere (no heading #nowhere)",
            "a.md:8: sub/nothing-here.md (no such file)",
            "a.md:9: sub/other.md#not-a-heading (no heading #not-a-heading)",
        ],
        "{bad:#?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    let long = "word ".repeat(MAX_CODEMAP_WORDS + 1);
    let text = format!(
        "# Architecture\n\n## Codemap\n\n### `a`\n\nShort — it is.\n\n### `b`\n\n{long}\n\n## Invariants\n\n{long}\n"
    );
    assert_eq!(
        codemap_entries(&text),
        [
            ("`a`".to_string(), 3),
            ("`b`".to_string(), MAX_CODEMAP_WORDS + 1)
        ]
    );
    let table = format!("## Codemap\n\n| path | what |\n|---|---|\n| `x` | {long} |\n");
    assert_eq!(
        codemap_entries(&table),
        [("`x`".to_string(), MAX_CODEMAP_WORDS + 2)]
    );
}

/// The sections of a ruleset doc that list its readings and differences from the seed.
fn readings_sections(text: &str) -> String {
    let mut out = String::new();
    for title in ["## How each ambiguous rule is read", "## Known differences"] {
        if let Some(a) = text.find(title) {
            let rest = &text[a + title.len()..];
            let end = rest.find("\n## ").unwrap_or(rest.len());
            out += &rest[..end];
        }
    }
    out
}

/// Issue 36: every reading and invented number a ruleset declares (`oddsmith rulesets ID`
/// marks them) is named in its doc's "How each ambiguous rule is read" or "Known differences"
/// section, and every built-in item with a placeholder statistic is named in the doc.
#[test]
fn ruleset_docs_name_every_declared_reading() {
    struct V;
    impl oddsmith_rules::RulesetVisitor for V {
        type Output = oddsmith_rules::RulesetInfo;
        fn visit<R: oddsmith_rules::Ruleset>(self) -> oddsmith_rules::RulesetInfo {
            R::info()
        }
    }
    let root = root();
    let mut missing = Vec::new();
    for id in oddsmith_rules::RULESET_IDS {
        let info = oddsmith_rules::visit(id, V).expect("registered");
        let doc = std::fs::read_to_string(root.join(format!("docs/rulesets/{id}.md"))).unwrap();
        let sections = readings_sections(&doc);
        for m in &info.marks {
            let name = match (m.option(), m.fighter_field()) {
                (Some(p), _) => p.split('.').next().unwrap_or(p),
                (_, Some(f)) => f,
                _ => {
                    let item = m.key.rsplit_once('.').map_or(m.key.as_str(), |(i, _)| i);
                    if !doc.to_lowercase().contains(item) {
                        missing.push(format!("{id}: placeholder item {item:?}"));
                    }
                    continue;
                }
            };
            if !sections.contains(name) {
                missing.push(format!("{id}: {}", m.key));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "marked but not in the docs: {missing:#?}"
    );
}
