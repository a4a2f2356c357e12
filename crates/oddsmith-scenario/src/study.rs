//! Study sections of a scenario file: `[[sweep]]`, `[balance]`, `[tournament]`, `[[check]]`,
//! `[[assert]]`, and variants of a scenario with some fields changed (for sweeps and the
//! balance solver).
//!
//! A variant is built by changing the parsed TOML document and loading it again with the
//! ruleset's own types, so a swept value is validated exactly like a value written in the
//! file; an invalid value is reported at the study section that asked for it.

// `!(x > 0.0)` and friends are deliberate: they also reject NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use std::collections::BTreeMap;
use std::fmt;

use oddsmith_rules::{CheckParams, Ruleset};
use serde::{Deserialize, Serialize};

use crate::locate::{Doc, Seg};
use crate::{Scenario, ScenarioError, load};

/// A number as written in a scenario: integers stay integers, so an integer field gets one.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Num {
    /// An integer.
    Int(i64),
    /// A real number.
    Real(f64),
}

impl Num {
    /// The value as a real number.
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Real(r) => r,
        }
    }
    fn to_toml(self) -> toml::Value {
        match self {
            Num::Int(i) => toml::Value::Integer(i),
            Num::Real(r) => toml::Value::Float(r),
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Real(r) => write!(f, "{r}"),
        }
    }
}

/// A swept value as written in a scenario: a number (integers stay integers), `true`/`false`
/// or text (an option's variant such as `"reset"`, a weapon's name). It is written into the
/// scenario as it stands, so the ruleset's own types judge it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// A number.
    Num(Num),
    /// `true` or `false`.
    Bool(bool),
    /// Text.
    Text(String),
}

impl Value {
    /// The value as a real number, if it is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Num(n) => Some(n.as_f64()),
            Value::Bool(_) | Value::Text(_) => None,
        }
    }
    fn to_toml(&self) -> toml::Value {
        match self {
            Value::Num(n) => n.to_toml(),
            Value::Bool(b) => toml::Value::Boolean(*b),
            Value::Text(t) => toml::Value::String(t.clone()),
        }
    }
    /// The value as a label: a number or `true`/`false` as written, text without quotes.
    pub fn label(&self) -> String {
        match self {
            Value::Num(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Text(t) => t.clone(),
        }
    }
}

impl From<Num> for Value {
    fn from(n: Num) -> Self {
        Value::Num(n)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Num(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Text(t) => write!(f, "{t:?}"),
        }
    }
}

/// What a study changes: a fighter's field, a ruleset option, or a member of a side of the
/// study's matchup (its `count` or `target`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Target {
    /// `fighter.field` (the field may be dotted, e.g. `weapon.damage` of an inline weapon).
    Fighter {
        /// Fighter name.
        fighter: String,
        /// Field path inside the fighter.
        field: String,
    },
    /// `[options]` key (may be dotted).
    Option {
        /// Option path.
        option: String,
    },
    /// A member of a side of a `[[matchup]]` (`member = "goblin"`, `field = "count"`): one of
    /// [`MEMBER_FIELDS`]. A side written as a fighter's name becomes a list of one member.
    Member {
        /// Index of the matchup in [`Scenario::matchups`].
        matchup: usize,
        /// `"a"` or `"b"`.
        side: String,
        /// The member's place in the side's list.
        index: usize,
        /// The member's fighter.
        fighter: String,
        /// `count` or `target`.
        field: String,
    },
}

/// The keys of a side's member a study may change with `member = "…"` (any other `field` of a
/// member is its fighter's, changed as `fighter = "…"` would).
pub const MEMBER_FIELDS: &[&str] = &["count", "target"];

impl Target {
    /// Where the target lies in the file (`fighters.knight.skill`, `matchup[0].b[0].count`).
    fn path(&self) -> Vec<Seg> {
        let (mut p, rest) = match self {
            Target::Fighter { fighter, field } => (vec![key("fighters"), key(fighter)], field),
            Target::Option { option } => (vec![key("options")], option),
            Target::Member {
                matchup,
                side,
                index,
                field,
                ..
            } => (
                vec![
                    key("matchup"),
                    Seg::Index(*matchup),
                    key(side),
                    Seg::Index(*index),
                ],
                field,
            ),
        };
        p.extend(rest.split('.').map(key));
        p
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Fighter { fighter, field } => write!(f, "{fighter}.{field}"),
            Target::Option { option } => write!(f, "options.{option}"),
            Target::Member {
                side,
                fighter,
                field,
                ..
            } => write!(f, "{side}.{fighter}.{field}"),
        }
    }
}

/// One axis of a sweep: a target and its values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Axis {
    /// What is changed.
    pub target: Target,
    /// The values, in order.
    pub values: Vec<Value>,
    /// Where each value was written (`values[k]`, or `from`/`to`/`step` of a range), for
    /// errors about it.
    #[serde(skip)]
    pub origins: Vec<Origin>,
}

impl Axis {
    /// Whether every value is a number (a numeric axis; else the values are categories).
    pub fn is_numeric(&self) -> bool {
        self.values.iter().all(|v| v.as_f64().is_some())
    }
}

/// A `[[sweep]]`: one or two axes over one matchup.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sweep {
    /// Display name.
    pub name: String,
    /// Index of the matchup in [`Scenario::matchups`].
    pub matchup: usize,
    /// The first axis (x).
    pub x: Axis,
    /// The second axis (y), for a 2-D sweep.
    pub y: Option<Axis>,
}

/// What a `[balance]` solves for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum BalanceSubject {
    /// P(A wins) of a matchup (index), by changing a field or option.
    Duel {
        /// Matchup index.
        matchup: usize,
        /// What is changed.
        target: Target,
    },
    /// P(success) of a `[[check]]` (index), by changing one of its parameters.
    Check {
        /// Index in [`Study::checks`].
        check: usize,
        /// The parameter changed.
        param: String,
    },
}

/// A `[balance]`: find the value within a range that brings a probability to a target.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Balance {
    /// What is solved for.
    pub subject: BalanceSubject,
    /// Range searched, inclusive.
    pub range: (f64, f64),
    /// Integer values only.
    pub integer: bool,
    /// The probability sought.
    pub target: f64,
    /// For real values: stop when the bracket is this narrow.
    pub tolerance: f64,
}

/// A `[tournament]`: every listed fighter against every other, both ways.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tournament {
    /// Display name.
    pub name: String,
    /// The entries' names (at least two): a fighter's name, or a party's label
    /// ("fighter×4").
    pub fighters: Vec<String>,
    /// The entries as written, in the order of `fighters`: a fighter of the library, or a
    /// party (a side's list of members).
    #[serde(skip)]
    pub sides: Vec<crate::side::SideSpec>,
    /// Costs given in the file (by entry name), overriding the ruleset's own cost rules.
    pub costs: BTreeMap<String, f64>,
    /// How far (in probability) a kit's win rate may lie from the fair line and still be
    /// "fair" ([`DEFAULT_FAIR_TOLERANCE`] unless the file says).
    pub fair_tolerance: f64,
    /// The unit of `costs` as the file names it (`cost_unit = "gold"`); `None`: the rules'
    /// unit, else "points".
    pub cost_unit: Option<String>,
}

/// Default `[tournament] fair_tolerance`: 3 percentage points of win rate.
pub const DEFAULT_FAIR_TOLERANCE: f64 = 0.03;

/// One axis of a check grid.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckAxis {
    /// Parameter name.
    pub param: String,
    /// Values as written.
    pub values: Vec<String>,
}

/// A `[[check]]`: one check, or a grid of checks over one or two parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckStudy {
    /// Name (used by `[balance] check` and `[[assert]] check`).
    pub name: String,
    /// Fixed parameters.
    pub params: BTreeMap<String, String>,
    /// Row parameter and values, if a grid.
    pub rows: Option<CheckAxis>,
    /// Column parameter and values, if a grid.
    pub cols: Option<CheckAxis>,
}

impl CheckStudy {
    /// Every cell's (row value, column value), row-major; `None` where there is no axis.
    pub fn cells(&self) -> Vec<(Option<&str>, Option<&str>)> {
        fn axis(a: &Option<CheckAxis>) -> Vec<Option<&str>> {
            match a {
                None => vec![None],
                Some(a) => a.values.iter().map(|v| Some(v.as_str())).collect(),
            }
        }
        let cols = axis(&self.cols);
        axis(&self.rows)
            .into_iter()
            .flat_map(|r| cols.iter().map(move |c| (r, *c)))
            .collect()
    }
    /// Parameters of one cell (`row`/`col` values override the fixed ones).
    pub fn cell_params(&self, row: Option<&str>, col: Option<&str>) -> CheckParams {
        let mut words: BTreeMap<String, String> = self.params.clone();
        if let (Some(a), Some(v)) = (&self.rows, row) {
            words.insert(a.param.clone(), v.to_string());
        }
        if let (Some(a), Some(v)) = (&self.cols, col) {
            words.insert(a.param.clone(), v.to_string());
        }
        let pairs: Vec<String> = words.iter().map(|(k, v)| format!("{k}={v}")).collect();
        CheckParams::parse(pairs.iter().map(String::as_str)).expect("keys are unique")
    }
}

/// A quantity an `[[assert]]` bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// P(A wins) of a matchup.
    PAWin,
    /// P(B wins) of a matchup.
    PBWin,
    /// P(draw) of a matchup.
    PDraw,
    /// Mean rounds of a matchup.
    RoundsMean,
    /// P(success) of a single `[[check]]`.
    PSuccess,
}

impl Metric {
    /// The key used in scenario files and JSON.
    pub fn key(self) -> &'static str {
        match self {
            Metric::PAWin => "p_a_win",
            Metric::PBWin => "p_b_win",
            Metric::PDraw => "p_draw",
            Metric::RoundsMean => "rounds_mean",
            Metric::PSuccess => "p_success",
        }
    }
}

/// An `[[assert]]`: a metric of a matchup or check must lie in a range.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Assertion {
    /// Display text (`knight vs brute: p_a_win in [0.45, 0.55]`).
    pub name: String,
    /// Matchup index, for duel metrics.
    pub matchup: Option<usize>,
    /// Check index, for `p_success`.
    pub check: Option<usize>,
    /// The metric.
    pub metric: Metric,
    /// Inclusive bounds.
    pub range: (f64, f64),
}

/// Every study section of a scenario.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Study {
    /// `[[sweep]]` sections.
    pub sweeps: Vec<Sweep>,
    /// `[balance]`, if any.
    pub balance: Option<Balance>,
    /// `[tournament]`, if any.
    pub tournament: Option<Tournament>,
    /// `[[check]]` sections.
    pub checks: Vec<CheckStudy>,
    /// `[[assert]]` sections.
    pub asserts: Vec<Assertion>,
}

impl Study {
    /// Every study section in run and report order: sweeps, balance, tournament, checks,
    /// assertions (assertions last: they judge the checks' results). This is the one list of
    /// study kinds; a new kind is a new field here and a new [`Section`] variant, and every
    /// `match` on a section then asks for it.
    pub fn sections(&self) -> impl Iterator<Item = Section<'_>> {
        let Study {
            sweeps,
            balance,
            tournament,
            checks,
            asserts,
        } = self;
        let sweeps = sweeps.iter().enumerate().map(|(i, s)| Section::Sweep(i, s));
        let checks = checks.iter().enumerate().map(|(i, c)| Section::Check(i, c));
        let asserts = asserts.iter().map(Section::Assert);
        sweeps
            .chain(balance.iter().map(Section::Balance))
            .chain(tournament.iter().map(Section::Tournament))
            .chain(checks)
            .chain(asserts)
    }

    /// Whether the file has any study section.
    pub fn is_empty(&self) -> bool {
        self.sections().next().is_none()
    }

    /// How many sections of each kind the file has, in [`Study::sections`] order, kinds with
    /// none left out.
    pub fn counts(&self) -> Vec<(SectionKind, usize)> {
        let mut out: Vec<(SectionKind, usize)> = Vec::new();
        for s in self.sections() {
            match out.last_mut() {
                Some((k, n)) if *k == s.kind() => *n += 1,
                _ => out.push((s.kind(), 1)),
            }
        }
        out
    }
}

/// One study section of a scenario, with its index among the sections of its kind where a
/// file may hold several.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Section<'a> {
    /// `[[sweep]]` number `.0`.
    Sweep(usize, &'a Sweep),
    /// `[balance]`.
    Balance(&'a Balance),
    /// `[tournament]`.
    Tournament(&'a Tournament),
    /// `[[check]]` number `.0`.
    Check(usize, &'a CheckStudy),
    /// An `[[assert]]`.
    Assert(&'a Assertion),
}

impl Section<'_> {
    /// The section's kind.
    pub fn kind(&self) -> SectionKind {
        match self {
            Section::Sweep(..) => SectionKind::Sweep,
            Section::Balance(_) => SectionKind::Balance,
            Section::Tournament(_) => SectionKind::Tournament,
            Section::Check(..) => SectionKind::Check,
            Section::Assert(_) => SectionKind::Assert,
        }
    }
}

/// The kinds of study section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SectionKind {
    /// `[[sweep]]`.
    Sweep,
    /// `[balance]`.
    Balance,
    /// `[tournament]`.
    Tournament,
    /// `[[check]]`.
    Check,
    /// `[[assert]]`.
    Assert,
}

impl SectionKind {
    /// The section's key in a scenario file (`sweep` for `[[sweep]]`).
    pub fn file_key(self) -> &'static str {
        match self {
            SectionKind::Sweep => "sweep",
            SectionKind::Balance => "balance",
            SectionKind::Tournament => "tournament",
            SectionKind::Check => "check",
            SectionKind::Assert => "assert",
        }
    }

    /// How a count of sections of this kind is named (`3 sweeps`, `1 balance`).
    pub fn counted(self) -> &'static str {
        match self {
            SectionKind::Sweep => "sweeps",
            SectionKind::Balance => "balance",
            SectionKind::Tournament => "tournament",
            SectionKind::Check => "checks",
            SectionKind::Assert => "assertions",
        }
    }

    /// Whether a part of a ruleset comparison may hold this section (a part is fighters,
    /// options, matchups and checks; the rest belongs in a scenario file).
    pub fn allowed_in_comparison_part(self) -> bool {
        match self {
            SectionKind::Check => true,
            SectionKind::Sweep
            | SectionKind::Balance
            | SectionKind::Tournament
            | SectionKind::Assert => false,
        }
    }
}

// ---- file syntax -------------------------------------------------------------------------

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AxisSpec {
    #[serde(default)]
    fighter: Option<String>,
    #[serde(default)]
    member: Option<String>,
    #[serde(default)]
    field: Option<String>,
    #[serde(default)]
    option: Option<String>,
    #[serde(default)]
    values: Option<Vec<Value>>,
    #[serde(default)]
    from: Option<Num>,
    #[serde(default)]
    to: Option<Num>,
    #[serde(default)]
    step: Option<Num>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SweepSpec {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    matchup: Option<String>,
    #[serde(default)]
    fighter: Option<String>,
    #[serde(default)]
    member: Option<String>,
    #[serde(default)]
    field: Option<String>,
    #[serde(default)]
    option: Option<String>,
    #[serde(default)]
    values: Option<Vec<Value>>,
    #[serde(default)]
    from: Option<Num>,
    #[serde(default)]
    to: Option<Num>,
    #[serde(default)]
    step: Option<Num>,
    #[serde(default)]
    y: Option<AxisSpec>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BalanceSpec {
    #[serde(default)]
    matchup: Option<String>,
    #[serde(default)]
    check: Option<String>,
    #[serde(default)]
    param: Option<String>,
    #[serde(default)]
    fighter: Option<String>,
    #[serde(default)]
    member: Option<String>,
    #[serde(default)]
    field: Option<String>,
    #[serde(default)]
    option: Option<String>,
    range: [Num; 2],
    #[serde(default)]
    integer: Option<bool>,
    #[serde(default)]
    target: Option<f64>,
    #[serde(default)]
    tolerance: Option<f64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TournamentSpec {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    fighters: Option<Vec<crate::side::SideSpec>>,
    #[serde(default)]
    costs: BTreeMap<String, f64>,
    #[serde(default)]
    fair_tolerance: Option<f64>,
    #[serde(default)]
    cost_unit: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum Scalar {
    Int(i64),
    Real(f64),
    Bool(bool),
    Text(String),
}

impl Scalar {
    fn text(&self) -> String {
        match self {
            Scalar::Int(i) => i.to_string(),
            Scalar::Real(r) => r.to_string(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::Text(t) => t.clone(),
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckAxisSpec {
    param: String,
    values: Vec<Scalar>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckSpec {
    name: String,
    #[serde(default)]
    params: BTreeMap<String, Scalar>,
    #[serde(default)]
    rows: Option<CheckAxisSpec>,
    #[serde(default)]
    cols: Option<CheckAxisSpec>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AssertSpec {
    #[serde(default)]
    matchup: Option<String>,
    #[serde(default)]
    check: Option<String>,
    #[serde(default)]
    p_a_win: Option<[f64; 2]>,
    #[serde(default)]
    p_b_win: Option<[f64; 2]>,
    #[serde(default)]
    p_draw: Option<[f64; 2]>,
    #[serde(default)]
    rounds_mean: Option<[f64; 2]>,
    #[serde(default)]
    p_success: Option<[f64; 2]>,
}

/// The study sections as read from the file, before cross-checking.
#[derive(Clone, Debug, Default)]
pub(crate) struct StudySpecs {
    pub sweeps: Vec<SweepSpec>,
    pub balance: Option<BalanceSpec>,
    pub tournament: Option<TournamentSpec>,
    pub checks: Vec<CheckSpec>,
    pub asserts: Vec<AssertSpec>,
}

impl StudySpecs {
    /// Whether the file's fighters need a matchup: a tournament or a file of checks needs
    /// none, the other sections study a matchup.
    pub(crate) fn needs_matchup(&self) -> bool {
        let StudySpecs {
            sweeps: _,
            balance: _,
            tournament,
            checks,
            asserts: _,
        } = self;
        tournament.is_none() && checks.is_empty()
    }
}

fn key(k: &str) -> Seg {
    Seg::Key(k.to_string())
}

/// Most points a sweep axis may have (a typo like `step = 0.0001` should not start a week-long run).
pub const MAX_AXIS_POINTS: usize = 201;

/// `fighter`, `field`, `option` and `member` of a study section as written: what it changes.
#[derive(Clone, Copy)]
struct Named<'a> {
    fighter: &'a Option<String>,
    field: &'a Option<String>,
    option: &'a Option<String>,
    member: &'a Option<String>,
}

/// What a study section's target may name: the library's fighters, and the members of the
/// sides of its matchup (`matchup`, an index of [`Scenario::matchups`], absent when the
/// scenario has none).
#[derive(Clone, Copy)]
struct Scope<'a> {
    fighters: &'a [String],
    matchup: Option<(usize, &'a [crate::side::SideSpec; 2])>,
    /// Whether that matchup is written in the file (`[[matchup]]`), not made by the loader.
    written: bool,
}
/// `values`, `from`, `to`, `step` of an axis as written.
type AxisValues<'a> = (
    &'a Option<Vec<Value>>,
    Option<Num>,
    Option<Num>,
    Option<Num>,
);

fn axis(
    doc: &Doc<'_>,
    at: &[Seg],
    scope: Scope<'_>,
    named: Named<'_>,
    values: AxisValues<'_>,
) -> Result<Axis, ScenarioError> {
    let here = |k: &str| {
        let mut p = at.to_vec();
        p.push(key(k));
        p
    };
    let target = target(doc, at, scope, named)?;
    let (values, origins): (Vec<Value>, Vec<Origin>) = match values {
        (Some(v), None, None, None) => {
            if v.is_empty() {
                return Err(doc.error(&here("values"), "expected at least one value"));
            }
            if v.len() > MAX_AXIS_POINTS {
                return Err(doc.error(&here("values"), format!("at most {MAX_AXIS_POINTS} values")));
            }
            let origins = (0..v.len())
                .map(|k| {
                    let mut p = here("values");
                    p.push(Seg::Index(k));
                    Origin(p, None, target_key(at, &target))
                })
                .collect();
            (v.clone(), origins)
        }
        (None, Some(from), Some(to), step) => {
            let written = step.is_some();
            let step = step.unwrap_or(Num::Int(1));
            let all_int = matches!((from, to, step), (Num::Int(_), Num::Int(_), Num::Int(_)));
            let (f, t, s) = (from.as_f64(), to.as_f64(), step.as_f64());
            if !(s > 0.0) || !s.is_finite() {
                return Err(doc.error(&here("step"), "expected a positive step"));
            }
            if !(t >= f) {
                return Err(doc.error(&here("to"), format!("expected `to` ≥ `from` ({f})")));
            }
            let n = ((t - f) / s + 1e-9).floor() as usize + 1;
            if n > MAX_AXIS_POINTS {
                return Err(doc.error(
                    &here(if written { "step" } else { "to" }),
                    format!("{n} points; at most {MAX_AXIS_POINTS} per axis"),
                ));
            }
            // A value is placed at the key that made it: the step when it is fractional (an
            // integer field then refuses every value), else `from` for the first, `to` for the
            // last and the step between.
            let range = if written {
                format!(" (from {from} to {to} in steps of {step})")
            } else {
                format!(" (from {from} to {to})")
            };
            let key_of = |k: usize| {
                if !all_int {
                    if matches!(step, Num::Real(_)) && written {
                        "step"
                    } else if matches!(from, Num::Real(_)) {
                        "from"
                    } else {
                        "to"
                    }
                } else if k == 0 {
                    "from"
                } else if k + 1 == n {
                    "to"
                } else if written {
                    "step"
                } else {
                    "from"
                }
            };
            (0..n)
                .map(|i| {
                    let v = if all_int {
                        let (Num::Int(f), Num::Int(s)) = (from, step) else {
                            unreachable!()
                        };
                        Value::Num(Num::Int(f + s * i as i64))
                    } else {
                        Value::Num(Num::Real(f + s * i as f64))
                    };
                    (
                        v,
                        Origin(
                            here(key_of(i)),
                            Some(range.clone()),
                            target_key(at, &target),
                        ),
                    )
                })
                .unzip()
        }
        (Some(_), ..) => {
            let k = if values.1.is_some() {
                "from"
            } else if values.2.is_some() {
                "to"
            } else {
                "step"
            };
            return Err(doc.error(
                &here(k),
                "give either `values = [...]` or `from`, `to` (and optionally `step`), not both",
            ));
        }
        (None, Some(_), None, _) => {
            return Err(doc.error(&here("from"), "`from` needs `to` (and optionally `step`)"));
        }
        (None, None, Some(_), _) => {
            return Err(doc.error(&here("to"), "`to` needs `from` (and optionally `step`)"));
        }
        (None, None, None, Some(_)) => {
            return Err(doc.error(&here("step"), "`step` needs `from` and `to`"));
        }
        (None, None, None, None) => {
            return Err(doc.error(
                at,
                "missing the values: give `values = [...]` or `from`, `to` (and optionally `step`)",
            ));
        }
    };
    Ok(Axis {
        target,
        values,
        origins,
    })
}

/// Where an axis at `at` names what it changes: its `field` or `option` key.
fn target_key(at: &[Seg], t: &Target) -> Vec<Seg> {
    let mut p = at.to_vec();
    p.push(key(match t {
        Target::Fighter { .. } | Target::Member { .. } => "field",
        Target::Option { .. } => "option",
    }));
    p
}

fn target(
    doc: &Doc<'_>,
    at: &[Seg],
    scope: Scope<'_>,
    named: Named<'_>,
) -> Result<Target, ScenarioError> {
    let here = |k: &str| {
        let mut p = at.to_vec();
        p.push(key(k));
        p
    };
    let Named {
        fighter,
        field,
        option,
        member,
    } = named;
    let fighters = scope.fighters;
    if let Some(m) = member {
        if fighter.is_some() {
            return Err(doc.error(
                &here("fighter"),
                "give `member` (a member of the matchup's sides) or `fighter` (a fighter of the library), not both",
            ));
        }
        if option.is_some() {
            return Err(doc.error(
                &here("option"),
                "change either a member's field (`member` with `field`) or an option, not both",
            ));
        }
        let Some(field) = field else {
            return Err(doc.error(
                &here("member"),
                format!(
                    "`member` needs `field = \"FIELD\"`: the member's {} or one of its fighter's fields",
                    MEMBER_FIELDS.join(" or ")
                ),
            ));
        };
        if field.trim().is_empty() {
            return Err(doc.error(&here("field"), "must not be empty"));
        }
        return member_target(doc, at, scope, m, field);
    }
    match (fighter, field, option) {
        (Some(f), Some(field), None) => {
            if !fighters.contains(f) {
                return Err(doc.error(
                    &here("fighter"),
                    crate::messages::unknown_name("fighter", f, fighters.iter().map(String::as_str)),
                ));
            }
            if field.trim().is_empty() {
                return Err(doc.error(&here("field"), "must not be empty"));
            }
            Ok(Target::Fighter { fighter: f.clone(), field: field.clone() })
        }
        (None, None, Some(o)) if !o.trim().is_empty() => Ok(Target::Option { option: o.clone() }),
        (None, None, Some(_)) => Err(doc.error(&here("option"), "must not be empty")),
        (Some(_) | None, Some(_) | None, Some(_)) => Err(doc.error(
            &here("option"),
            "change either a fighter's field (`fighter` with `field`) or an option, not both",
        )),
        (Some(_), None, None) => Err(doc.error(
            &here("fighter"),
            "`fighter` needs `field = \"FIELD\"`: the fighter's field to change",
        )),
        (None, Some(_), None) => Err(doc.error(
            &here("field"),
            "`field` needs `fighter = \"NAME\"`: whose field to change (or `member = \"NAME\"`: a member of the matchup's sides, e.g. its count)",
        )),
        (None, None, None) => Err(doc.error(
            at,
            "say what to change: `fighter = \"NAME\"` with `field = \"FIELD\"`, `member = \"NAME\"` with `field = \"count\"`, or `option = \"OPTION\"`",
        )),
    }
}

/// `member = m` with `field`: a member of a side of the section's matchup, named by its
/// fighter (`"goblin"`), or by side and fighter where the fighter fights on both sides
/// (`"b.goblin"`). A member's own key ([`MEMBER_FIELDS`]) is changed in the matchup's side;
/// any other field is its fighter's, changed in the library (so it must fight on one side only).
fn member_target(
    doc: &Doc<'_>,
    at: &[Seg],
    scope: Scope<'_>,
    m: &str,
    field: &str,
) -> Result<Target, ScenarioError> {
    use crate::side::SideSpec;
    let here = |k: &str| {
        let mut p = at.to_vec();
        p.push(key(k));
        p
    };
    let Some((matchup, sides)) = scope.matchup else {
        return Err(doc.error(
            &here("member"),
            "`member` names a member of the matchup's sides, and the scenario has no matchup; add [[matchup]] a = …, b = […]",
        ));
    };
    // Every member of the matchup: (side, place in its list, fighter).
    let all: Vec<(&str, usize, &str)> = ["a", "b"]
        .into_iter()
        .zip(sides)
        .flat_map(|(k, side)| match side {
            SideSpec::Name(n) => vec![(k, 0, n.as_str())],
            SideSpec::Members(v) => v
                .iter()
                .enumerate()
                .map(|(j, m)| (k, j, m.fighter.as_str()))
                .collect(),
        })
        .collect();
    let (want, name) = match m.split_once('.') {
        Some((s @ ("a" | "b"), n)) => (Some(s), n),
        _ => (None, m),
    };
    let hits: Vec<&(&str, usize, &str)> = all
        .iter()
        .filter(|(k, _, f)| *f == name && want.is_none_or(|w| w == *k))
        .collect();
    let names: Vec<String> = all.iter().map(|(k, _, f)| format!("{k}.{f}")).collect();
    let (side, index, fighter) = match hits[..] {
        [] => {
            let plain: Vec<&str> = all.iter().map(|(_, _, f)| *f).collect();
            let hint = oddsmith_rules::fields::suggest(name, plain.iter().copied())
                .or_else(|| oddsmith_rules::fields::suggest(m, names.iter().map(String::as_str)))
                .map(|c| format!("; did you mean {c:?}?"))
                .unwrap_or_default();
            return Err(doc.error(
                &here("member"),
                format!(
                    "no member {m:?} on the sides of this matchup (its members: {}){hint}",
                    names.join(", ")
                ),
            ));
        }
        [&(k, j, f)] => (k, j, f),
        [&(k, _, f), ..] => {
            let both = hits.iter().any(|h| h.0 != k);
            let why = if both {
                format!("write member = \"a.{f}\" or \"b.{f}\"")
            } else {
                format!(
                    "{f} is listed twice on side {k}; give each member its own fighter to address one"
                )
            };
            return Err(doc.error(
                &here("member"),
                format!("{m:?} names more than one member of this matchup: {why}"),
            ));
        }
    };
    let own = field.split('.').next().unwrap_or(field);
    if MEMBER_FIELDS.contains(&own) {
        if field != own {
            return Err(doc.error(
                &here("field"),
                format!("a member's {own} is one value, not a table"),
            ));
        }
        if !scope.written {
            return Err(doc.error(
                &here("member"),
                "the matchup is not written in the file (the loader made it from the two fighters); write it as [[matchup]] a = …, b = … to change a member",
            ));
        }
        return Ok(Target::Member {
            matchup,
            side: side.to_string(),
            index,
            fighter: fighter.to_string(),
            field: field.to_string(),
        });
    }
    // A field of the member's fighter: changing it in the library must not also change a
    // member of the other side.
    if let Some((k, _, _)) = all.iter().find(|(k, _, f)| *f == fighter && *k != side) {
        return Err(doc.error(
            &here("field"),
            format!(
                "{fighter}.{field} is a field of the fighter {fighter:?}, which fights on both sides (a and b): changing it would change side {k} too; copy the fighter under another name for one side (a member's own keys are {})",
                MEMBER_FIELDS.join(", ")
            ),
        ));
    }
    Ok(Target::Fighter {
        fighter: fighter.to_string(),
        field: field.to_string(),
    })
}

fn matchup_index<R: Ruleset>(
    doc: &Doc<'_>,
    at: Vec<Seg>,
    s: &Scenario<R>,
    name: &Option<String>,
) -> Result<usize, ScenarioError> {
    match name {
        None if s.matchups.is_empty() => Err(doc.error(
            &at,
            "the scenario has no matchup; add [[matchup]] a = …, b = …",
        )),
        None => Ok(0),
        Some(n) => s.matchups.iter().position(|m| &m.name == n).ok_or_else(|| {
            let mut p = at.clone();
            p.push(key("matchup"));
            let names = s.matchups.iter().map(|m| m.name.as_str());
            doc.error(&p, crate::messages::unknown_name("matchup", n, names))
        }),
    }
}

/// What a study section of matchup `matchup` may name.
fn scope<'a, R: Ruleset>(
    doc: &Doc<'_>,
    s: &'a Scenario<R>,
    fighters: &'a [String],
    matchup: Option<usize>,
) -> Scope<'a> {
    let matchup = matchup.and_then(|i| s.matchups.get(i).map(|m| (i, &m.sides)));
    Scope {
        fighters,
        matchup,
        written: matchup.is_some_and(|(i, _)| doc.has(&[key("matchup"), Seg::Index(i)])),
    }
}

/// Cross-checks the study sections against the loaded scenario, section kind by section kind
/// (checks before balance and assertions, which may name a check).
pub(crate) fn build<R: Ruleset>(
    doc: &Doc<'_>,
    specs: StudySpecs,
    s: &Scenario<R>,
) -> Result<Study, ScenarioError> {
    let StudySpecs {
        sweeps,
        balance,
        tournament,
        checks,
        asserts,
    } = specs;
    let fighters: Vec<String> = s.fighters.keys().cloned().collect();
    let sweeps = sweeps
        .iter()
        .enumerate()
        .map(|(i, sw)| build_sweep(doc, s, &fighters, i, sw))
        .collect::<Result<Vec<_>, _>>()?;
    let checks = build_checks(doc, s, &checks)?;
    let balance = balance
        .as_ref()
        .map(|b| build_balance(doc, s, &fighters, &checks, b))
        .transpose()?;
    let tournament = tournament
        .as_ref()
        .map(|t| build_tournament(doc, s, &fighters, t))
        .transpose()?;
    let asserts = asserts
        .iter()
        .enumerate()
        .map(|(i, a)| build_assert(doc, s, &checks, i, a))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Study {
        sweeps,
        balance,
        tournament,
        checks,
        asserts,
    })
}

/// `[[sweep]]` number `i`.
fn build_sweep<R: Ruleset>(
    doc: &Doc<'_>,
    s: &Scenario<R>,
    fighters: &[String],
    i: usize,
    sw: &SweepSpec,
) -> Result<Sweep, ScenarioError> {
    let at = vec![key("sweep"), Seg::Index(i)];
    let matchup = matchup_index(doc, at.clone(), s, &sw.matchup)?;
    let scope = scope(doc, s, fighters, Some(matchup));
    let x = axis(
        doc,
        &at,
        scope,
        Named {
            fighter: &sw.fighter,
            field: &sw.field,
            option: &sw.option,
            member: &sw.member,
        },
        (&sw.values, sw.from, sw.to, sw.step),
    )?;
    let y = match &sw.y {
        None => None,
        Some(a) => {
            let mut yat = at.clone();
            yat.push(key("y"));
            Some(axis(
                doc,
                &yat,
                scope,
                Named {
                    fighter: &a.fighter,
                    field: &a.field,
                    option: &a.option,
                    member: &a.member,
                },
                (&a.values, a.from, a.to, a.step),
            )?)
        }
    };
    let name = sw.name.clone().unwrap_or_else(|| match &y {
        None => format!("{} over {}", s.matchups[matchup].name, x.target),
        Some(y) => format!(
            "{} over {} × {}",
            s.matchups[matchup].name, x.target, y.target
        ),
    });
    Ok(Sweep {
        name,
        matchup,
        x,
        y,
    })
}

/// The `[[check]]` sections, every cell parsed under the ruleset.
fn build_checks<R: Ruleset>(
    doc: &Doc<'_>,
    s: &Scenario<R>,
    specs: &[CheckSpec],
) -> Result<Vec<CheckStudy>, ScenarioError> {
    let mut checks = Vec::with_capacity(specs.len());
    for (i, c) in specs.iter().enumerate() {
        let at = vec![key("check"), Seg::Index(i)];
        if specs[..i].iter().any(|o| o.name == c.name) {
            return Err(doc.error(
                &[at[0].clone(), at[1].clone(), key("name")],
                "name given twice",
            ));
        }
        let conv = |a: &CheckAxisSpec, k: &str| -> Result<CheckAxis, ScenarioError> {
            if a.values.is_empty() || a.values.len() > MAX_AXIS_POINTS {
                let mut p = at.clone();
                p.extend([key(k), key("values")]);
                return Err(doc.error(&p, format!("expected 1 to {MAX_AXIS_POINTS} values")));
            }
            Ok(CheckAxis {
                param: a.param.to_ascii_lowercase(),
                values: a.values.iter().map(Scalar::text).collect(),
            })
        };
        // A fixed parameter that is also an axis would be overridden in every cell.
        for (k, a) in [("rows", &c.rows), ("cols", &c.cols)] {
            let Some(a) = a else { continue };
            let param = a.param.to_ascii_lowercase();
            if let Some(fixed) = c.params.keys().find(|p| p.to_ascii_lowercase() == param) {
                let mut p = at.clone();
                p.extend([key("params"), key(fixed)]);
                return Err(doc.error(
                    &p,
                    format!(
                        "`{fixed}` is also the {k} axis ({k}.param = {:?}), whose values replace this fixed value in every cell; remove one of the two",
                        a.param
                    ),
                ));
            }
        }
        if let (Some(r), Some(c)) = (&c.rows, &c.cols)
            && r.param.eq_ignore_ascii_case(&c.param)
        {
            let mut p = at.clone();
            p.extend([key("cols"), key("param")]);
            return Err(doc.error(
                &p,
                format!(
                    "rows and cols both vary {:?}; give the columns another parameter",
                    c.param
                ),
            ));
        }
        let cs = CheckStudy {
            name: c.name.clone(),
            params: c
                .params
                .iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), v.text()))
                .collect(),
            rows: c.rows.as_ref().map(|a| conv(a, "rows")).transpose()?,
            cols: c.cols.as_ref().map(|a| conv(a, "cols")).transpose()?,
        };
        // Every cell must parse under the ruleset; an error is placed at the value that made
        // it (a row or column value, or the fixed parameter), by the parameter it names.
        let ncols = cs.cols.as_ref().map_or(1, |a| a.values.len());
        for (n, (r, col)) in cs.cells().into_iter().enumerate() {
            s.ruleset
                .parse_check(&cs.cell_params(r, col))
                .map_err(|e| {
                    let e = e.to_string();
                    let mut cell = String::new();
                    if let (Some(a), Some(v)) = (&cs.rows, r) {
                        cell += &format!(" (row {}={v}", a.param);
                    }
                    if let (Some(a), Some(v)) = (&cs.cols, col) {
                        cell += &format!(
                            "{}column {}={v}",
                            if cell.is_empty() { " (" } else { ", " },
                            a.param
                        );
                    }
                    if !cell.is_empty() {
                        cell.push(')');
                    }
                    let named = e
                        .strip_prefix("check parameter ")
                        .and_then(|r| r.split_once(':'))
                        .map(|(p, _)| p.to_ascii_lowercase());
                    let unknown = e.contains("unknown parameter");
                    let mut p = at.clone();
                    let axis = [("rows", &c.rows, n / ncols), ("cols", &c.cols, n % ncols)]
                        .into_iter()
                        .find(|(_, a, _)| {
                            a.as_ref()
                                .is_some_and(|a| Some(a.param.to_ascii_lowercase()) == named)
                        });
                    if let Some((k, _, i)) = axis {
                        p.push(key(k));
                        if unknown {
                            p.push(key("param"));
                        } else {
                            p.extend([key("values"), Seg::Index(i)]);
                        }
                    } else if let Some(fixed) = c
                        .params
                        .keys()
                        .find(|k| Some(k.to_ascii_lowercase()) == named)
                    {
                        p.extend([key("params"), key(fixed)]);
                    } else if !c.params.is_empty() {
                        p.push(key("params"));
                    }
                    doc.error(&p, format!("{e}{cell}"))
                })?;
        }
        checks.push(cs);
    }
    Ok(checks)
}

/// The index of the `[[check]]` named `name`, or an error at `at` listing the checks.
fn check_index(
    doc: &Doc<'_>,
    checks: &[CheckStudy],
    at: Vec<Seg>,
    name: &str,
) -> Result<usize, ScenarioError> {
    checks.iter().position(|c| c.name == name).ok_or_else(|| {
        let names = checks.iter().map(|c| c.name.as_str());
        doc.error(&at, crate::messages::unknown_name("[[check]]", name, names))
    })
}

/// The `[balance]` section.
fn build_balance<R: Ruleset>(
    doc: &Doc<'_>,
    s: &Scenario<R>,
    fighters: &[String],
    checks: &[CheckStudy],
    b: &BalanceSpec,
) -> Result<Balance, ScenarioError> {
    let at = vec![key("balance")];
    let here = |k: &str| vec![key("balance"), key(k)];
    let subject = match (&b.check, &b.matchup) {
        (Some(c), None) => {
            let check = check_index(doc, checks, here("check"), c)?;
            let Some(param) = &b.param else {
                return Err(doc.error(&at, "a check balance needs `param` (e.g. \"tn\")"));
            };
            let cs = &checks[check];
            if cs.rows.is_some() || cs.cols.is_some() {
                return Err(doc.error(
                    &here("check"),
                    "balance a single check, not a grid (drop rows/cols or add a second [[check]])",
                ));
            }
            let given = [
                ("fighter", &b.fighter),
                ("member", &b.member),
                ("field", &b.field),
                ("option", &b.option),
            ];
            if let Some((k, _)) = given.iter().find(|(_, v)| v.is_some()) {
                return Err(doc.error(
                    &here(k),
                    "a check balance changes `param`, not a fighter or option",
                ));
            }
            BalanceSubject::Check {
                check,
                param: param.to_ascii_lowercase(),
            }
        }
        (None, m) => {
            if b.param.is_some() {
                return Err(doc.error(&here("param"), "`param` is for `check = …` balances"));
            }
            let matchup = matchup_index(doc, at.clone(), s, m)?;
            let named = Named {
                fighter: &b.fighter,
                field: &b.field,
                option: &b.option,
                member: &b.member,
            };
            let target = target(doc, &at, scope(doc, s, fighters, Some(matchup)), named)?;
            BalanceSubject::Duel { matchup, target }
        }
        (Some(_), Some(_)) => {
            return Err(doc.error(&here("check"), "give `matchup` or `check`, not both"));
        }
    };
    let (lo, hi) = (b.range[0].as_f64(), b.range[1].as_f64());
    if !(lo < hi) || !lo.is_finite() || !hi.is_finite() {
        return Err(doc.error(&here("range"), "expected [low, high] with low < high"));
    }
    let is_check = matches!(subject, BalanceSubject::Check { .. });
    if is_check && b.integer == Some(false) {
        return Err(doc.error(
            &here("integer"),
            "check parameters are whole numbers; a check balance searches integers",
        ));
    }
    let integer = is_check
        || b.integer
            .unwrap_or(matches!(b.range, [Num::Int(_), Num::Int(_)]));
    if integer && lo.ceil() > hi.floor() {
        return Err(doc.error(&here("range"), "no whole number lies in this range"));
    }
    let target = b.target.unwrap_or(0.5);
    if !(target > 0.0 && target < 1.0) {
        return Err(doc.error(
            &here("target"),
            "expected a probability strictly between 0 and 1",
        ));
    }
    let tolerance = b.tolerance.unwrap_or((hi - lo) / 1000.0);
    if !(tolerance >= (hi - lo) * 1e-9) {
        return Err(doc.error(
            &here("tolerance"),
            format!(
                "expected a tolerance of at least {:e} (range × 1e-9)",
                (hi - lo) * 1e-9
            ),
        ));
    }
    Ok(Balance {
        subject,
        range: (lo, hi),
        integer,
        target,
        tolerance,
    })
}

/// The `[tournament]` section.
fn build_tournament<R: Ruleset>(
    doc: &Doc<'_>,
    s: &Scenario<R>,
    fighters: &[String],
    t: &TournamentSpec,
) -> Result<Tournament, ScenarioError> {
    use crate::side::SideSpec;
    let sides: Vec<SideSpec> = t
        .fighters
        .clone()
        .unwrap_or_else(|| fighters.iter().cloned().map(SideSpec::Name).collect());
    let list: Vec<String> = sides.iter().map(SideSpec::label).collect();
    for (i, (f, side)) in list.iter().zip(&sides).enumerate() {
        let at = vec![key("tournament"), key("fighters"), Seg::Index(i)];
        match side {
            SideSpec::Name(f) if !fighters.contains(f) => {
                return Err(doc.error(
                    &at,
                    crate::messages::unknown_name(
                        "fighter",
                        f,
                        fighters.iter().map(String::as_str),
                    ),
                ));
            }
            SideSpec::Name(_) => {}
            // A party: compiled as a matchup's side is, errors at the member's key.
            SideSpec::Members(_) => {
                crate::side_fighter(&s.ruleset, &s.fighters, side).map_err(|(more, fault)| {
                    let mut at = at.clone();
                    at.extend(more);
                    fault.place(doc, at)
                })?;
            }
        }
        if list[..i].contains(f) {
            return Err(doc.error(&at, "listed twice"));
        }
    }
    if list.len() < 2 {
        return Err(doc.error(
            &[key("tournament"), key("fighters")],
            "a tournament needs at least two fighters",
        ));
    }
    // A priced name that is no entry at all is most likely misspelt: say so before saying
    // that the entry it was meant for has no price.
    for (f, c) in &t.costs {
        if !list.contains(f) {
            let message = if fighters.contains(f) {
                "not a fighter of the tournament".to_string()
            } else {
                crate::messages::unknown_name("fighter", f, list.iter().map(String::as_str))
            };
            return Err(doc.error(&[key("tournament"), key("costs"), key(f)], message));
        }
        if !c.is_finite() {
            return Err(doc.error(
                &[key("tournament"), key("costs"), key(f)],
                "expected a number",
            ));
        }
    }
    // A price list must price every entry (or the rules must): a kit left unpriced would
    // drop out of the cost analysis.
    if !t.costs.is_empty() {
        let unpriced: Vec<&str> = list
            .iter()
            .zip(&sides)
            .filter(|(f, side)| {
                !t.costs.contains_key(*f)
                    && crate::side_cost(&s.ruleset, &s.fighters, side).is_none()
            })
            .map(|(f, _)| f.as_str())
            .collect();
        if !unpriced.is_empty() {
            return Err(doc.error(
                &[key("tournament"), key("costs")],
                format!(
                    "no cost for {} (neither here nor from the {} rules); give every tournament fighter a cost, or none",
                    unpriced.join(", "),
                    R::ID
                ),
            ));
        }
    }
    let fair_tolerance = t.fair_tolerance.unwrap_or(DEFAULT_FAIR_TOLERANCE);
    if !(0.0..0.5).contains(&fair_tolerance) {
        return Err(doc.error(
            &[key("tournament"), key("fair_tolerance")],
            "expected a win-rate difference from 0 to 0.5 (0.03 = 3 points)",
        ));
    }
    Ok(Tournament {
        name: t.name.clone().unwrap_or_else(|| "tournament".into()),
        fighters: list,
        sides,
        costs: t.costs.clone(),
        fair_tolerance,
        cost_unit: t
            .cost_unit
            .as_ref()
            .map(|u| u.trim().to_string())
            .filter(|u| !u.is_empty()),
    })
}

/// `[[assert]]` number `i`.
fn build_assert<R: Ruleset>(
    doc: &Doc<'_>,
    s: &Scenario<R>,
    checks: &[CheckStudy],
    i: usize,
    a: &AssertSpec,
) -> Result<Assertion, ScenarioError> {
    let at = vec![key("assert"), Seg::Index(i)];
    let metrics: Vec<(Metric, [f64; 2])> = [
        (Metric::PAWin, a.p_a_win),
        (Metric::PBWin, a.p_b_win),
        (Metric::PDraw, a.p_draw),
        (Metric::RoundsMean, a.rounds_mean),
        (Metric::PSuccess, a.p_success),
    ]
    .into_iter()
    .filter_map(|(m, r)| r.map(|r| (m, r)))
    .collect();
    let [(metric, range)] = metrics[..] else {
        return Err(doc.error(
            &at,
            "give exactly one of p_a_win, p_b_win, p_draw, rounds_mean, p_success = [low, high]",
        ));
    };
    let mut p = at.clone();
    p.push(key(metric.key()));
    if !(range[0] <= range[1]) {
        return Err(doc.error(&p, "expected [low, high] with low ≤ high"));
    }
    if metric != Metric::RoundsMean && !(0.0 <= range[0] && range[1] <= 1.0) {
        let hint = if range[1] > 1.0 && range[1] <= 100.0 {
            format!(
                "; for percentages write fractions, e.g. [{}, {}]",
                range[0] / 100.0,
                range[1] / 100.0
            )
        } else {
            String::new()
        };
        return Err(doc.error(
            &p,
            format!(
                "a probability lies between 0 and 1, got [{}, {}]{hint}",
                range[0], range[1]
            ),
        ));
    }
    if metric == Metric::RoundsMean && range[1] < 0.0 {
        return Err(doc.error(&p, "a mean number of rounds is never negative"));
    }
    let (matchup, check, subject) = if metric == Metric::PSuccess {
        let Some(c) = &a.check else {
            return Err(doc.error(&at, "p_success needs `check = \"NAME\"`"));
        };
        if a.matchup.is_some() {
            return Err(doc.error(&at, "give `check` or `matchup`, not both"));
        }
        let ci = check_index(
            doc,
            checks,
            vec![key("assert"), Seg::Index(i), key("check")],
            c,
        )?;
        let cs = &checks[ci];
        if cs.rows.is_some() || cs.cols.is_some() {
            return Err(doc.error(&at, "assert on a single check, not a grid"));
        }
        (None, Some(ci), c.clone())
    } else {
        if a.check.is_some() {
            return Err(doc.error(&at, "`check` goes with p_success"));
        }
        let m = matchup_index(doc, at.clone(), s, &a.matchup)?;
        (Some(m), None, s.matchups[m].name.clone())
    };
    Ok(Assertion {
        name: format!(
            "{subject}: {} in [{}, {}]",
            metric.key(),
            range[0],
            range[1]
        ),
        matchup,
        check,
        metric,
        range: (range[0], range[1]),
    })
}

/// Where a variant's change came from, for error messages: the study field that asked for it,
/// and how the value was made when it was not written as such (a range's `from`, `to`, `step`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin(
    pub(crate) Vec<Seg>,
    pub(crate) Option<String>,
    /// Where the changed field or option is named (`sweep[0].field`), for an error about the
    /// name rather than the value; empty: the same place.
    pub(crate) Vec<Seg>,
);

impl Origin {
    /// The `[[sweep]]` number `sweep` (its `y` axis when `y_axis`), for a value not of a list.
    pub fn sweep(sweep: usize, y_axis: bool) -> Origin {
        let mut p = vec![key("sweep"), Seg::Index(sweep)];
        if y_axis {
            p.push(key("y"));
        }
        Origin(p, None, Vec::new())
    }
    /// The `[balance]` section's `range`.
    pub fn balance() -> Origin {
        Origin(vec![key("balance"), key("range")], None, Vec::new())
    }
    /// The `[readings]` section (a readings study's factor).
    pub fn readings() -> Origin {
        Origin(vec![key("readings")], None, Vec::new())
    }
    /// End `k` (0 low, 1 high) of the `[balance]` section's `range`.
    pub fn balance_end(k: usize) -> Origin {
        Origin(
            vec![key("balance"), key("range"), Seg::Index(k)],
            None,
            Vec::new(),
        )
    }
}

/// Loads the scenario again with `changes` applied (each target set to its value). Errors are
/// placed at the change's origin in the original file and name the field and value.
pub fn variant<R: Ruleset>(
    file: &str,
    text: &str,
    changes: &[(&Target, Value, &Origin)],
) -> Result<Scenario<R>, ScenarioError> {
    let doc = Doc::parse(file, text)?;
    let changed = variant_text(file, text, changes)?;
    variant_load::<R>(&doc, file, &changed, changes)
}

/// The scenario's text with `changes` applied (each target set to its value), as
/// [`variant`] loads it: for a study that runs another study on a variant (a readings study
/// of a `[balance]`).
pub fn variant_text(
    file: &str,
    text: &str,
    changes: &[(&Target, Value, &Origin)],
) -> Result<String, ScenarioError> {
    let doc = Doc::parse(file, text)?;
    let mut table: toml::Table = toml::from_str(text)
        .map_err(|e| doc.error(&[], format!("cannot re-read the file: {}", e.message())))?;
    for (t, v, origin) in changes {
        if let Target::Member { .. } = t {
            set_member(&doc, &mut table, t, v, origin)?;
            continue;
        }
        let path: Vec<String> = t
            .path()
            .into_iter()
            .map(|s| match s {
                Seg::Key(k) => k,
                Seg::Index(i) => i.to_string(),
            })
            .collect();
        let mut node = &mut table;
        for (i, k) in path.iter().enumerate() {
            if i + 1 == path.len() {
                node.insert(k.clone(), v.to_toml());
                break;
            }
            let entry = node
                .entry(k.clone())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            match entry {
                toml::Value::Table(t2) => node = t2,
                toml::Value::String(name) => {
                    // A built-in given by name: an inline table named like it inherits its
                    // fields, and a study can change one of them.
                    return Err(doc.error(
                        &origin.0,
                        format!(
                            "cannot set {t} = {v}: `{k}` is given by name ({name:?}); to vary one of its fields, write it as a table named like it, {k} = {{ name = {name:?} }} (it keeps the built-in's other fields)"
                        ),
                    ));
                }
                other => {
                    let what = other.type_str();
                    return Err(doc.error(
                        &origin.0,
                        format!("cannot set {t} = {v}: `{k}` is a {what}, not a table"),
                    ));
                }
            }
        }
    }
    toml::to_string(&table)
        .map_err(|e| doc.error(&[], format!("cannot write the changed scenario: {e}")))
}

/// The scenario's text with each built-in item a target changes a field of, given by name
/// (`weapon = "spear"` for the target `knight.weapon.max_damage`), written as the table named
/// like it (`weapon = { name = "spear" }`), which keeps every field of the built-in: a
/// readings study varies a built-in item's placeholder statistic this way, as a designer
/// would by hand. Other targets, and items already written as tables, are left as they are.
pub fn named_as_tables(
    file: &str,
    text: &str,
    targets: &[&Target],
) -> Result<String, ScenarioError> {
    let doc = Doc::parse(file, text)?;
    let mut table: toml::Table = toml::from_str(text)
        .map_err(|e| doc.error(&[], format!("cannot re-read the file: {}", e.message())))?;
    let mut changed = false;
    for t in targets {
        // Only keys lead to a named item (a member's count or policy is no item's field).
        let Some(path) = t
            .path()
            .into_iter()
            .map(|s| match s {
                Seg::Key(k) => Some(k),
                Seg::Index(_) => None,
            })
            .collect::<Option<Vec<String>>>()
        else {
            continue;
        };
        if path.len() < 3 {
            continue;
        }
        let Some(node) = table_at(&mut table, &path[..path.len() - 2]) else {
            continue;
        };
        let item = &path[path.len() - 2];
        if let Some(toml::Value::String(name)) = node.get(item).cloned() {
            let named = toml::Table::from_iter([("name".to_string(), toml::Value::String(name))]);
            node.insert(item.clone(), toml::Value::Table(named));
            changed = true;
        }
    }
    if !changed {
        return Ok(text.to_string());
    }
    toml::to_string(&table)
        .map_err(|e| doc.error(&[], format!("cannot write the changed scenario: {e}")))
}

/// The table at `path` under `node`, if every step is a table.
fn table_at<'a>(mut node: &'a mut toml::Table, path: &[String]) -> Option<&'a mut toml::Table> {
    for k in path {
        node = node.get_mut(k)?.as_table_mut()?;
    }
    Some(node)
}

/// Sets a member's key ([`Target::Member`]) in the parsed file: a side written as a fighter's
/// name becomes a list of one member, a member written as a name becomes a table.
fn set_member(
    doc: &Doc<'_>,
    table: &mut toml::Table,
    t: &Target,
    v: &Value,
    origin: &Origin,
) -> Result<(), ScenarioError> {
    let Target::Member {
        matchup,
        side,
        index,
        field,
        ..
    } = t
    else {
        unreachable!("called for members only")
    };
    let missing = || {
        doc.error(
            &origin.0,
            format!("cannot set {t} = {v}: matchup[{matchup}].{side}[{index}] is not in the file"),
        )
    };
    let entry = table
        .get_mut("matchup")
        .and_then(toml::Value::as_array_mut)
        .and_then(|a| a.get_mut(*matchup))
        .and_then(toml::Value::as_table_mut)
        .and_then(|m| m.get_mut(side.as_str()))
        .ok_or_else(missing)?;
    let one = |name: &str| {
        let mut m = toml::Table::new();
        m.insert("fighter".into(), toml::Value::String(name.to_string()));
        m.insert(field.clone(), v.to_toml());
        toml::Value::Table(m)
    };
    match entry {
        toml::Value::String(name) if *index == 0 => {
            *entry = toml::Value::Array(vec![one(name)]);
        }
        toml::Value::Array(items) => match items.get_mut(*index) {
            Some(toml::Value::String(name)) => {
                let m = one(name);
                items[*index] = m;
            }
            Some(toml::Value::Table(m)) => {
                m.insert(field.clone(), v.to_toml());
            }
            _ => return Err(missing()),
        },
        _ => return Err(missing()),
    }
    Ok(())
}

/// Loads `changed` (the text [`variant_text`] wrote), placing an error at the change's origin
/// in the original file (`doc`).
fn variant_load<R: Ruleset>(
    doc: &Doc<'_>,
    file: &str,
    changed: &str,
    changes: &[(&Target, Value, &Origin)],
) -> Result<Scenario<R>, ScenarioError> {
    load::<R>(file, changed).map_err(|e| {
        // Point at the study field whose change the error is about (e.g. the y axis of a 2-D
        // sweep), judged by the error's field path; else at the first change.
        let score = |t: &Target| {
            let p = crate::locate::render(&t.path());
            if e.field == p {
                3
            } else if e.field.starts_with(&format!("{p}.")) {
                2
            } else if p.starts_with(&format!("{}.", e.field)) {
                1
            } else {
                0
            }
        };
        let best = changes
            .iter()
            .enumerate()
            .max_by_key(|(i, c)| (score(c.0), std::cmp::Reverse(*i)))
            .map(|(i, _)| i);
        let Some(i) = best else {
            return doc.error(&[], format!("{}{}", field_prefix(&e.field), e.message));
        };
        let (t, v, origin) = &changes[i];
        // `knight.skill = 40: out of range …`; the other changes of the point after it, and
        // the error's own field where it is not the changed one.
        let others: Vec<String> = changes
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, (t, v, _))| format!("{t} = {v}"))
            .collect();
        let mut what = format!("{t} = {v}{}", origin.1.as_deref().unwrap_or(""));
        if !others.is_empty() {
            what += &format!(" (with {})", others.join(", "));
        }
        let field = if e.field == crate::locate::render(&t.path()) {
            ""
        } else {
            e.field.as_str()
        };
        // An unknown field or name that is the changed key itself: the study's `field` (or
        // `option`) is wrong, not the value.
        let last = match t.path().last() {
            Some(Seg::Key(k)) => k.clone(),
            _ => String::new(),
        };
        let names_key = e.message.starts_with("unknown ")
            && (e.message.contains(&format!("`{last}`"))
                || e.message.contains(&format!("{last:?}")))
            && !matches!(v, Value::Text(s) if *s == last);
        let at = if names_key && !origin.2.is_empty() {
            &origin.2
        } else {
            &origin.0
        };
        // A fractional value for a whole-number field: the study made it, so say which
        // numbers to write rather than "got the number 3.0".
        let message = if matches!(v, Value::Num(Num::Real(_)))
            && field.is_empty()
            && e.message.starts_with("expected a whole number")
        {
            let how = if origin.1.is_some() {
                "write `from`, `to` and `step` as whole numbers (e.g. step = 1)"
            } else {
                "write the values as whole numbers (3, not 3.0 or 3.5)"
            };
            format!("{t} takes whole numbers; {how}")
        } else {
            e.message.clone()
        };
        let mut err = doc.error(at, format!("{what}: {}{}", field_prefix(field), message));
        err.message = err.message.replace("  ", " ");
        err
    })
}

fn field_prefix(f: &str) -> String {
    if f.is_empty() {
        String::new()
    } else {
        format!("{f}: ")
    }
}

/// The `[readings]` section: which of the ruleset's declared readings and invented numbers
/// (`oddsmith rulesets ID` marks them) a readings study varies. A name is a marked key
/// (`options.hp_base`, `fighters.*.health`) or its last part (`hp_base`, `health`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadingsSpec {
    /// Only these factors (empty: every marked factor the file uses).
    #[serde(default)]
    pub include: Vec<String>,
    /// Never these factors.
    #[serde(default)]
    pub exclude: Vec<String>,
}

impl ReadingsSpec {
    /// Whether the marked key `key` is studied.
    pub fn admits(&self, key: &str) -> bool {
        let hit = |n: &String| readings_name_matches(n, key);
        (self.include.is_empty() || self.include.iter().any(hit)) && !self.exclude.iter().any(hit)
    }
}

/// Whether name `n` (as written in `[readings]`) names marked key `key`: the key itself, or
/// its part after `options.` / `fighters.*.`, or its last part.
pub fn readings_name_matches(n: &str, key: &str) -> bool {
    let short = key
        .strip_prefix("options.")
        .or_else(|| key.strip_prefix("fighters.*."))
        .unwrap_or(key);
    n == key || n == short || key.rsplit('.').next() == Some(n)
}

/// Checks every name of `[readings]` names a marked key of ruleset `R`.
pub(crate) fn check_readings<R: Ruleset>(
    doc: &Doc<'_>,
    r: &ReadingsSpec,
) -> Result<(), ScenarioError> {
    let marks = R::info().marks;
    for (list, names) in [("include", &r.include), ("exclude", &r.exclude)] {
        for (i, n) in names.iter().enumerate() {
            if marks.iter().any(|m| readings_name_matches(n, &m.key)) {
                continue;
            }
            let shorts: Vec<&str> = marks
                .iter()
                .map(|m| m.key.rsplit('.').next().unwrap_or(&m.key))
                .collect();
            let hint = oddsmith_rules::fields::suggest(n, shorts.iter().copied())
                .map(|c| format!("; did you mean {c:?}?"))
                .unwrap_or_default();
            return Err(doc.error(
                &[key("readings"), key(list), Seg::Index(i)],
                format!(
                    "{n:?} is no marked reading or invented number of {} (oddsmith rulesets {} lists them){hint}",
                    R::ID,
                    R::ID
                ),
            ));
        }
    }
    Ok(())
}

impl Value {
    /// A value written as TOML text (`5`, `true`, `"shared"`), as a mark declares it; `None`
    /// for a table, an array or text that is not one TOML value.
    pub fn from_toml_text(text: &str) -> Option<Value> {
        #[derive(Deserialize)]
        struct W {
            v: Value,
        }
        toml::from_str::<W>(&format!("v = {text}"))
            .ok()
            .map(|w| w.v)
    }
}

/// The value a scenario's text gives at dotted `path` (`options.hp_base`,
/// `fighters.knight.health`), if it gives one there that is a plain value.
pub fn given_value(text: &str, path: &str) -> Option<Value> {
    let table: toml::Table = toml::from_str(text).ok()?;
    let mut node = &toml::Value::Table(table);
    for k in path.split('.') {
        node = node.as_table()?.get(k)?;
    }
    Value::from_toml_text(&node.to_string())
}
