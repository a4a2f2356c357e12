//! The malformed-input corpus: every file in `tests/corpus/` is wrong in one way, and its first
//! line declares the error it must produce:
//!
//! ```toml
//! # expect: 14:10 fighters.brute.weapon | did you mean "mace"
//! ```
//!
//! (line:column of the offending key or value, the field path — `-` for the whole file — and
//! words the message must hold, separated by `|`). `validate` and `run --out DIR` (table and
//! `--json`) must both exit 2 with exactly that place, field and words, print nothing on
//! stdout when running, and write nothing.
//!
//! A file that is accepted with a warning (a setting with no effect, say) declares it instead:
//!
//! ```toml
//! # expect-warning: 12:1 fighters.a.tactics.hold | only with tactics.wrestle = true
//! ```
//!
//! `validate` must then succeed and print that warning on stderr (`warning: FILE:L:C: FIELD:
//! …`), and `run --json` must succeed, print it on stderr before the results and carry it in
//! the JSON's `warnings` (its `line`, `column`, `field`, and the words in its `message`).

use std::path::PathBuf;

use super::{cli, root, temp_dir};

/// One corpus file and what it must produce.
struct Case {
    path: PathBuf,
    /// `LINE:COL`.
    place: String,
    /// The field path, empty for the whole file.
    field: String,
    words: Vec<String>,
    /// A warning (the file is accepted), not an error.
    warning: bool,
}

fn cases() -> Vec<Case> {
    let dir = root().join("crates/oddsmith/tests/corpus");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let head = text.lines().next().unwrap_or("");
            let (spec, warning) = match head.strip_prefix("# expect-warning: ") {
                Some(spec) => (spec, true),
                None => (
                    head.strip_prefix("# expect: ")
                        .unwrap_or_else(|| panic!("{}: no `# expect:` first line", path.display())),
                    false,
                ),
            };
            let mut parts = spec.split('|').map(str::trim);
            // `LINE:COL FIELD` (a field may hold a quoted key with spaces).
            let (place, field) = parts.next().unwrap().split_once(' ').unwrap_or(("", "-"));
            let place = place.to_string();
            let field = match field.trim() {
                "-" => String::new(),
                f => f.to_string(),
            };
            let words: Vec<String> = parts.map(String::from).collect();
            assert!(!words.is_empty(), "{}: no expected words", path.display());
            Case {
                path,
                place,
                field,
                words,
                warning,
            }
        })
        .collect()
}

/// The error line must name the place and field right after the file, and hold every word.
fn check_message(c: &Case, what: &str, text: &str) {
    let path = c.path.to_str().unwrap();
    let head = if c.field.is_empty() {
        format!("{path}:{}: ", c.place)
    } else {
        format!("{path}:{}: {}: ", c.place, c.field)
    };
    assert!(
        text.contains(&head),
        "{what} of {}: expected `{head}…` in:\n{text}",
        c.path.display()
    );
    for w in &c.words {
        assert!(
            text.contains(w.as_str()),
            "{what} of {}: expected the words {w:?} in:\n{text}",
            c.path.display()
        );
    }
}

#[test]
fn every_corpus_file_is_refused_at_its_key_before_any_work() {
    let cases: Vec<Case> = cases().into_iter().filter(|c| !c.warning).collect();
    assert!(cases.len() >= 60, "the corpus has {} files", cases.len());
    for c in &cases {
        let path = c.path.to_str().unwrap();
        let (code, out, _) = cli(&["validate", path]);
        assert_eq!(code, 2, "validate {path}:\n{out}");
        check_message(c, "validate", &out);
        for json in [false, true] {
            let dir = temp_dir(&format!(
                "corpus-{}-{json}",
                c.path.file_stem().unwrap().to_str().unwrap()
            ));
            let report = dir.join("report");
            let report_s = report.to_str().unwrap();
            let mut args = vec!["run", path, "--trials", "100", "--out", report_s];
            if json {
                args.push("--json");
            }
            let (code, out, err) = cli(&args);
            assert_eq!(code, 2, "run {path}:\n{out}\n{err}");
            assert!(out.is_empty(), "run {path} printed:\n{out}");
            check_message(c, "run", &err);
            let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
            assert!(left.is_empty(), "run {path} wrote {left:?}");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}

#[test]
fn every_warning_case_runs_and_carries_its_warning_in_the_json() {
    let cases: Vec<Case> = cases().into_iter().filter(|c| c.warning).collect();
    assert!(cases.len() >= 15, "{} warning cases", cases.len());
    for c in &cases {
        let path = c.path.to_str().unwrap();
        let (code, out, err) = cli(&["validate", path]);
        assert_eq!(code, 0, "validate {path}:\n{out}\n{err}");
        assert!(out.starts_with(&format!("ok  {path}")), "{out}");
        let warned = |text: &str, what: &str| {
            let line = text
                .lines()
                .find(|l| l.starts_with(&format!("warning: {path}:{}: ", c.place)))
                .unwrap_or_else(|| {
                    panic!("{what} of {path}: no warning at {} in:\n{text}", c.place)
                });
            assert!(
                line.starts_with(&format!("warning: {path}:{}: {}: ", c.place, c.field)),
                "{what} of {path}: expected the field {} in {line}",
                c.field
            );
            for w in &c.words {
                assert!(
                    line.contains(w.as_str()),
                    "{what} of {path}: expected {w:?} in {line}"
                );
            }
        };
        warned(&err, "validate");
        let dir = temp_dir(&format!(
            "corpus-warn-{}",
            c.path.file_stem().unwrap().to_str().unwrap()
        ));
        let report = dir.join("report");
        let args = [
            "run",
            path,
            "--trials",
            "200",
            "--json",
            "--out",
            report.to_str().unwrap(),
        ];
        let (code, out, err) = cli(&args);
        assert_eq!(code, 0, "run {path}:\n{err}");
        warned(&err, "run");
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        let (line, column) = c.place.split_once(':').unwrap();
        let (line, column): (u64, u64) = (line.parse().unwrap(), column.parse().unwrap());
        let found =
            doc["warnings"].as_array().into_iter().flatten().find(|w| {
                w["line"] == line && w["column"] == column && w["field"] == c.field.as_str()
            });
        let w = found.unwrap_or_else(|| {
            panic!(
                "run --json of {path}: no warning at {} {} in {}",
                c.place, c.field, doc["warnings"]
            )
        });
        for word in &c.words {
            assert!(
                w["message"].as_str().unwrap().contains(word.as_str()),
                "{path}: {word:?} not in {w}"
            );
        }
        assert!(
            w["text"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{path}:{}: ", c.place))
        );
        // The report shows it too.
        let page = std::fs::read_to_string(report.join("report.md")).unwrap();
        assert!(
            page.contains("about the scenario file"),
            "{path}: report without the warning"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn unreadable_files_are_refused_in_plain_words() {
    let dir = temp_dir("corpus-unreadable");
    let good = std::fs::read_to_string(root().join("scenarios/draft/skill-gap.toml")).unwrap();
    // UTF-16 with a byte-order mark, as some editors save.
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(good.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let p16 = dir.join("utf16.toml");
    std::fs::write(&p16, utf16).unwrap();
    // A stray Latin-1 byte on line 2.
    let mut latin1 = b"name = \"x\"\n# caf".to_vec();
    latin1.extend([0xE9, b'\n']);
    let p1 = dir.join("latin1.toml");
    std::fs::write(&p1, latin1).unwrap();
    // Far over the size limit.
    let big = dir.join("big.toml");
    std::fs::write(&big, format!("{good}\n# {}\n", "x".repeat(2 << 20))).unwrap();
    let report = dir.join("report");
    for (p, words) in [
        (&p16, "the file is UTF-16 text; save it as UTF-8"),
        (&p1, ":2:6: the file is not UTF-8 text"),
        (&big, "scenario files are limited to 1048576 bytes"),
    ] {
        let path = p.to_str().unwrap();
        let (code, out, _) = cli(&["validate", path]);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains(words), "{out}");
        let (code, out, err) = cli(&["run", path, "--out", report.to_str().unwrap()]);
        assert_eq!((code, out.as_str()), (2, ""), "{err}");
        assert!(err.contains(words), "{err}");
        assert!(!report.exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
