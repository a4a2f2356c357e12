//! Comparison files: several rulesets side by side, each written in its own terms.
//!
//! ```toml
//! name = "rulesets-compared"
//! trials = 40_000
//! [compare]
//! alpha = 0.05                 # significance level of every test
//! practical_threshold = 0.05   # smallest difference worth a verdict (probability scale)
//! [rulesets.draft]             # a whole scenario in draft terms (fighters, options, matchups,
//! options = { … }              # [[check]]s), without `name`/`ruleset`
//! skill_step = { matchup = "veteran vs novice", fighter = "veteran", field = "skill", by = 1 }
//! [rulesets.draft.fighters.veteran]
//! …
//! ```
//!
//! Matchups with the same name in two rulesets are the same *archetype*; `[[check]]`s with the
//! same name are compared cell by cell. Each part is loaded with its ruleset's own types, and
//! its errors are placed in the comparison file under `rulesets.<id>`.
//!
//! **Variants of one ruleset** ("the book rules against my house rule") are parts too:
//!
//! ```toml
//! [variants.book]              # a whole scenario in draft terms, like [rulesets.draft]
//! ruleset = "draft"
//! [variants.book.fighters.knight]
//! …
//! [variants.house]
//! ruleset = "draft"
//! from = "book"                # everything of `book`, with these tables merged over it:
//! options = { wound_overflow = "reset" }
//! ```
//!
//! `from` copies the named variant and merges the new variant's tables over it key by key
//! (`options`, `fighters.<name>` and their nested tables; arrays such as `[[matchup]]` are
//! replaced whole). Two variants of the same ruleset are compared on common random numbers
//! (paired), the fighters being the same; parts of different rulesets on independent samples.

use oddsmith_rules::RULESET_IDS;
use serde::{Deserialize, Serialize};

use crate::locate::{Doc, Seg};
use crate::{Num, ScenarioError, Target, Warning};

/// Default significance level.
pub const DEFAULT_ALPHA: f64 = 0.05;
/// Default practical threshold (probability scale).
pub const DEFAULT_THRESHOLD: f64 = 0.05;

/// "Raise `fighter.field` by `by` in `matchup`": the effect of one skill step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SkillStep {
    /// Matchup name in this ruleset's part.
    pub matchup: String,
    /// What is raised.
    pub target: Target,
    /// By how much.
    pub by: Num,
}

/// One part of a comparison: a ruleset (`[rulesets.<id>]`) or a named variant of one
/// (`[variants.<name>]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Ruleset id.
    pub id: String,
    /// The part's name: the ruleset id for `[rulesets.<id>]`, the variant's name for
    /// `[variants.<name>]`; unique in the file.
    pub name: String,
    /// Whether the part is a `[variants.<name>]` table.
    pub variant: bool,
    /// The part as a stand-alone scenario text (load it with [`crate::load`]; map its errors
    /// with [`Comparison::relocate`]).
    pub text: String,
    /// The skill step to measure, if any.
    pub skill_step: Option<SkillStep>,
    /// For a variant: the variants it builds on through `from`, nearest first (`house` from
    /// `book`: `["book"]`), so an error in a value it inherited is placed where that value is
    /// written.
    pub from: Vec<String>,
}

/// A loaded comparison file.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Name (report folder).
    pub name: String,
    /// What the comparison asks.
    pub description: Option<String>,
    /// Significance level.
    pub alpha: f64,
    /// Smallest difference worth a verdict.
    pub practical_threshold: f64,
    /// Seed, if given.
    pub seed: Option<u64>,
    /// Trials, if given.
    pub trials: Option<u64>,
    /// The parts, in file order.
    pub parts: Vec<Part>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CompareSection {
    #[serde(default)]
    alpha: Option<f64>,
    #[serde(default)]
    practical_threshold: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepSpec {
    matchup: String,
    fighter: String,
    field: String,
    #[serde(default)]
    by: Option<Num>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    name: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    trials: Option<u64>,
    #[serde(default)]
    seed: Option<u64>,
    compare: CompareSection,
    #[serde(default)]
    rulesets: toml::Table,
    #[serde(default)]
    variants: toml::Table,
}

/// The shape of a comparison file for `oddsmith schema` (each part a table of its own).
pub fn file_shape() -> oddsmith_rules::schema::Shape {
    oddsmith_rules::schema::trace::<FileSpec>()
}

#[derive(Deserialize)]
struct Probe {
    compare: Option<toml::Value>,
}

/// Whether the text is a comparison file (it has a `[compare]` table).
pub fn is_comparison(text: &str) -> bool {
    toml::from_str::<Probe>(text).is_ok_and(|p| p.compare.is_some())
}

fn key(k: &str) -> Seg {
    Seg::Key(k.to_string())
}

/// Reads a comparison file.
pub fn load_comparison(file: &str, text: &str) -> Result<Comparison, ScenarioError> {
    let doc = Doc::parse(file, text)?;
    let f: FileSpec = doc.deserialize()?;
    if f.name.trim().is_empty() {
        return Err(doc.error(&[key("name")], "must not be empty"));
    }
    let alpha = f.compare.alpha.unwrap_or(DEFAULT_ALPHA);
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(doc.error(
            &[key("compare"), key("alpha")],
            "expected a level between 0 and 1",
        ));
    }
    let practical_threshold = f.compare.practical_threshold.unwrap_or(DEFAULT_THRESHOLD);
    if !(0.0..1.0).contains(&practical_threshold) {
        return Err(doc.error(
            &[key("compare"), key("practical_threshold")],
            "expected a difference between 0 and 1",
        ));
    }
    if f.trials == Some(0) {
        return Err(doc.error(&[key("trials")], "expected at least 1 trial"));
    }
    if f.rulesets.len() + f.variants.len() < 2 {
        let at = if f.variants.is_empty() {
            "rulesets"
        } else {
            "variants"
        };
        return Err(doc.error(
            &[key(at)],
            "a comparison needs at least two parts: [rulesets.<id>] or [variants.<name>] tables",
        ));
    }
    let mut parts = f
        .rulesets
        .iter()
        .map(|(id, v)| part(&doc, &f, id, id, v, false))
        .collect::<Result<Vec<_>, _>>()?;
    for (name, v) in &f.variants {
        let at = vec![key("variants"), key(name)];
        if f.rulesets.contains_key(name) {
            return Err(doc.error(&at, "a [rulesets.<id>] part has this name already"));
        }
        let (id, table, from) = resolve_variant(&doc, &f.variants, name, v)?;
        let mut p = part(&doc, &f, &id, name, &toml::Value::Table(table), true)?;
        p.from = from;
        parts.push(p);
    }
    // TOML tables are sorted by key; keep the parts in the order the file writes them (where
    // each part's table is, not where its name first appears: a comment may name it).
    parts.sort_by_key(|p| {
        let section = if p.variant { "variants" } else { "rulesets" };
        let at = doc.error(&[key(section), key(&p.name)], "");
        (at.line, at.column)
    });
    Ok(Comparison {
        name: f.name,
        description: f.description,
        alpha,
        practical_threshold,
        seed: f.seed,
        trials: f.trials,
        parts,
    })
}

/// Variant `name` (the table `v` of `[variants]`): its ruleset id and its table, with the
/// variant it names in `from` (and that one's `from`, …) merged under it; `ruleset` and
/// `from` taken out; and the variants it builds on, nearest first.
fn resolve_variant(
    doc: &Doc<'_>,
    variants: &toml::Table,
    name: &str,
    v: &toml::Value,
) -> Result<(String, toml::Table, Vec<String>), ScenarioError> {
    let mut chain = vec![name.to_string()];
    let mut layers: Vec<toml::Table> = Vec::new();
    let mut cur = v;
    let mut ruleset: Option<String> = None;
    loop {
        let here = chain.last().expect("not empty").clone();
        let at = |k: &str| vec![key("variants"), key(&here), key(k)];
        let toml::Value::Table(t) = cur else {
            return Err(doc.error(&[key("variants"), key(&here)], "expected a table"));
        };
        let mut t = t.clone();
        match t.remove("ruleset") {
            Some(toml::Value::String(id)) => {
                if let Some(r) = &ruleset
                    && r != &id
                {
                    return Err(doc.error(
                        &at("ruleset"),
                        format!(
                            "variant {name:?} is {r:?} but builds on {here:?}, a {id:?} variant"
                        ),
                    ));
                }
                ruleset.get_or_insert(id);
            }
            Some(_) => return Err(doc.error(&at("ruleset"), "expected a ruleset id (text)")),
            None => {
                return Err(doc.error(
                    &[key("variants"), key(&here)],
                    format!(
                        "say which ruleset: ruleset = \"ID\" (one of: {})",
                        RULESET_IDS.join(", ")
                    ),
                ));
            }
        }
        let from = t.remove("from");
        layers.push(t);
        match from {
            None => break,
            Some(toml::Value::String(base)) => {
                let Some(next) = variants.get(&base) else {
                    let names: Vec<&str> = variants.keys().map(String::as_str).collect();
                    return Err(doc.error(
                        &at("from"),
                        crate::messages::unknown_name("variant", &base, names.iter().copied()),
                    ));
                };
                if chain.contains(&base) {
                    return Err(doc.error(
                        &at("from"),
                        format!(
                            "variants build on each other in a circle: {} → {base}",
                            chain.join(" → ")
                        ),
                    ));
                }
                chain.push(base);
                cur = next;
            }
            Some(_) => return Err(doc.error(&at("from"), "expected a variant's name (text)")),
        }
    }
    let mut table = toml::Table::new();
    for layer in layers.into_iter().rev() {
        merge(&mut table, layer);
    }
    chain.remove(0);
    Ok((
        ruleset.expect("every layer names its ruleset"),
        table,
        chain,
    ))
}

/// Merges `over` into `base`: tables key by key (recursively), anything else replaced.
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

/// The keys a part's table may hold once `ruleset`, `from` (variants) are taken out: a
/// scenario's keys (the study sections among them, refused with their own message when the
/// part is loaded) and the part's `skill_step`.
const PART_KEYS: &[&str] = &[
    "description",
    "options",
    "fighters",
    "matchup",
    "sweep",
    "balance",
    "tournament",
    "check",
    "assert",
    "skill_step",
    "name",
    "ruleset",
    "trials",
    "seed",
    "precision",
];

/// Part `name` of a comparison (`[rulesets.<id>]` or `[variants.<name>]`, the table `v`, of
/// ruleset `id`) as a stand-alone scenario text: the comparison's name, ruleset and
/// description written in, its skill step taken out.
fn part(
    doc: &Doc<'_>,
    f: &FileSpec,
    id: &str,
    name: &str,
    v: &toml::Value,
    variant: bool,
) -> Result<Part, ScenarioError> {
    let at = vec![
        key(if variant { "variants" } else { "rulesets" }),
        key(name),
    ];
    if !RULESET_IDS.contains(&id) {
        return Err(doc.error(
            &at,
            format!(
                "unknown ruleset {id:?}; expected one of: {}",
                RULESET_IDS.join(", ")
            ),
        ));
    }
    let toml::Value::Table(t) = v else {
        return Err(doc.error(&at, "expected a table"));
    };
    let mut t = t.clone();
    for k in ["name", "ruleset", "trials", "seed", "precision"] {
        if t.contains_key(k) {
            let mut p = at.clone();
            p.push(key(k));
            return Err(doc.error(&p, "set this at the top of the comparison file"));
        }
    }
    // A key a part cannot hold, said at the key with the keys it can (`form` for `from`): not
    // left to the part's own loader, which knows neither `from` nor `skill_step`.
    if let Some(k) = t.keys().find(|k| !PART_KEYS.contains(&k.as_str())) {
        let mut known = vec!["options", "fighters", "matchup", "check", "skill_step"];
        if variant {
            known.extend(["ruleset", "from"]);
        }
        let mut p = at.clone();
        p.push(key(k));
        let m = match crate::messages::suggest(k, known.iter().copied()) {
            Some(s) => format!("unknown field `{k}`; did you mean `{s}`?"),
            None => format!("unknown field `{k}`; expected one of: {}", known.join(", ")),
        };
        return Err(doc.error(&p, m));
    }
    let skill_step = match t.remove("skill_step") {
        None => None,
        Some(v) => {
            let mut p = at.clone();
            p.push(key("skill_step"));
            let s: StepSpec = v
                .try_into()
                .map_err(|e: toml::de::Error| doc.error(&p, e.message().to_string()))?;
            Some(SkillStep {
                matchup: s.matchup,
                target: Target::Fighter {
                    fighter: s.fighter,
                    field: s.field,
                },
                by: s.by.unwrap_or(Num::Int(1)),
            })
        }
    };
    t.insert(
        "name".into(),
        toml::Value::String(format!("{}/{name}", f.name)),
    );
    t.insert("ruleset".into(), toml::Value::String(id.to_string()));
    if let Some(d) = &f.description {
        t.insert("description".into(), toml::Value::String(d.clone()));
    }
    let text =
        toml::to_string(&t).map_err(|e| doc.error(&at, format!("cannot rewrite the part: {e}")))?;
    Ok(Part {
        id: id.to_string(),
        name: name.to_string(),
        variant,
        text,
        skill_step,
        from: Vec::new(),
    })
}

impl Part {
    /// The part's table as the file names it: `rulesets.<id>` or `variants.<name>`.
    pub fn section(&self) -> String {
        if self.variant {
            format!("variants.{}", self.name)
        } else {
            format!("rulesets.{}", self.id)
        }
    }
}

impl Comparison {
    /// Places an error found in `part`'s text at the same field of the comparison file. A
    /// variant's field it does not write itself but inherits through `from` is placed where
    /// the variant it comes from writes it (or, where none writes all of it, the one that
    /// writes most of its path, e.g. the `[[matchup]]` of a refused pairing), and the message
    /// names both (`(house, from book)`).
    pub fn relocate(file: &str, text: &str, part: &Part, mut e: ScenarioError) -> ScenarioError {
        let also = std::mem::take(&mut e.also);
        let first = Self::relocate_one(file, text, part, e);
        let mut all = vec![first];
        all.extend(
            also.into_iter()
                .map(|x| Self::relocate_one(file, text, part, x)),
        );
        ScenarioError::many(all).expect("one error at least")
    }

    fn relocate_one(file: &str, text: &str, part: &Part, e: ScenarioError) -> ScenarioError {
        let Ok(doc) = Doc::parse(file, text) else {
            return e;
        };
        let section = if part.variant { "variants" } else { "rulesets" };
        let field = parse_path(&e.field);
        let at = |name: &str| {
            let mut path = vec![key(section), key(name)];
            path.extend(field.iter().cloned());
            path
        };
        let own = at(&part.name);
        // The nearest variant built on that writes more of the path than the part itself.
        let mut inherited = None;
        if !field.is_empty() {
            let mut deepest = doc.depth(&own);
            for b in &part.from {
                let d = doc.depth(&at(b));
                if d > deepest {
                    (inherited, deepest) = (Some(b), d);
                }
            }
        }
        match inherited {
            Some(b) => {
                let mut out = doc.error(&at(b), e.message);
                out.message = format!("({}, from {b}) {}", part.name, out.message);
                out
            }
            None => {
                let mut out = doc.error(&own, e.message);
                out.message = format!("({}) {}", part.name, out.message);
                out
            }
        }
    }
}

impl Comparison {
    /// Places a warning found in `part`'s text at the same field of the comparison file,
    /// marked `(part) …`. A `[variants.*]` part that inherits the field from the variant it
    /// builds on (`from`) gets the warning where the field is written.
    pub fn relocate_warning(file: &str, text: &str, part: &Part, w: Warning) -> Warning {
        let Ok(doc) = Doc::parse(file, text) else {
            return w;
        };
        let inner = parse_path(&w.field);
        let section = if part.variant { "variants" } else { "rulesets" };
        let at = |name: &str| {
            let mut path = vec![key(section), key(name)];
            path.extend(inner.iter().cloned());
            path
        };
        let mut name = part.name.clone();
        let mut seen = vec![name.clone()];
        while part.variant && !doc.given(&at(&name)) {
            match doc.text_at(&[key("variants"), key(&name), key("from")]) {
                Some(base) if !seen.contains(&base) => {
                    seen.push(base.clone());
                    name = base;
                }
                _ => {
                    name = part.name.clone();
                    break;
                }
            }
        }
        let mut out: Warning = doc.error(&at(&name), w.message).into();
        out.message = format!("({}) {}", part.name, out.message);
        out
    }
}

/// Parses a rendered field path (`fighters.knight.skill`, `matchup[0].a`, `"two words".x`).
pub(crate) fn parse_path(s: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    let mut cur = String::new();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let mut q = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some(n) = chars.next() {
                                q.push(n);
                            }
                        }
                        '"' => break,
                        c => q.push(c),
                    }
                }
                cur.push_str(&q);
            }
            '.' => {
                if !cur.is_empty() {
                    out.push(Seg::Key(std::mem::take(&mut cur)));
                }
            }
            '[' => {
                if !cur.is_empty() {
                    out.push(Seg::Key(std::mem::take(&mut cur)));
                }
                let n: String = chars.by_ref().take_while(|&c| c != ']').collect();
                if let Ok(i) = n.parse() {
                    out.push(Seg::Index(i));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(Seg::Key(cur));
    }
    out
}

/// The skill step's origin in a part (for [`crate::variant`] errors).
pub fn skill_step_origin() -> crate::Origin {
    crate::Origin(vec![key("skill_step")], None, Vec::new())
}
