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

use oddsmith_rules::RULESET_IDS;
use serde::{Deserialize, Serialize};

use crate::locate::{Doc, Seg};
use crate::{Num, ScenarioError, Target};

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

/// One ruleset's part of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Ruleset id.
    pub id: String,
    /// The part as a stand-alone scenario text (load it with [`crate::load`]; map its errors
    /// with [`Comparison::relocate`]).
    pub text: String,
    /// The skill step to measure, if any.
    pub skill_step: Option<SkillStep>,
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
    rulesets: toml::Table,
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
    if f.rulesets.len() < 2 {
        return Err(doc.error(
            &[key("rulesets")],
            "a comparison needs at least two [rulesets.<id>] parts",
        ));
    }
    let mut parts = f
        .rulesets
        .iter()
        .map(|(id, v)| part(&doc, &f, id, v))
        .collect::<Result<Vec<_>, _>>()?;
    // TOML tables are sorted by key; keep the parts in the order the file writes them.
    parts.sort_by_key(|p| {
        text.find(&format!("rulesets.{}", p.id))
            .unwrap_or(usize::MAX)
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

/// Part `id` of a comparison (`[rulesets.<id>]`, the table `v`) as a stand-alone scenario
/// text: the comparison's name, ruleset and description written in, its skill step taken out.
fn part(doc: &Doc<'_>, f: &FileSpec, id: &str, v: &toml::Value) -> Result<Part, ScenarioError> {
    let at = vec![key("rulesets"), key(id)];
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
        toml::Value::String(format!("{}/{id}", f.name)),
    );
    t.insert("ruleset".into(), toml::Value::String(id.to_string()));
    if let Some(d) = &f.description {
        t.insert("description".into(), toml::Value::String(d.clone()));
    }
    let text =
        toml::to_string(&t).map_err(|e| doc.error(&at, format!("cannot rewrite the part: {e}")))?;
    Ok(Part {
        id: id.to_string(),
        text,
        skill_step,
    })
}

impl Comparison {
    /// Places an error found in part `id`'s text at the same field of the comparison file.
    pub fn relocate(file: &str, text: &str, id: &str, e: ScenarioError) -> ScenarioError {
        let Ok(doc) = Doc::parse(file, text) else {
            return e;
        };
        let mut path = vec![key("rulesets"), key(id)];
        path.extend(parse_path(&e.field));
        let mut out = doc.error(&path, e.message);
        out.message = format!("({id}) {}", out.message);
        out
    }
}

/// Parses a rendered field path (`fighters.knight.skill`, `matchup[0].a`, `"two words".x`).
fn parse_path(s: &str) -> Vec<Seg> {
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
    crate::Origin(vec![key("skill_step")])
}
