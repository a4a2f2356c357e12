//! Scenario files: the TOML envelope, ruleset-specific fighters and options, validation, and
//! errors that name the file, line:column, the field path and what was expected.
//!
//! Loading is two-pass: [`ruleset_of`] reads only the `ruleset` key, then [`load`] is called
//! with that ruleset's type and deserializes the whole file with the ruleset's own fighter and
//! option types (`deny_unknown_fields` throughout). This crate takes text, not paths: it does
//! no IO.
//!
//! The envelope: `name`, `ruleset`, `trials`/`precision`, `seed`, `[options]`,
//! `[fighters.*]`, `[[matchup]]`, and the study sections. Modules:
//!
//! - `messages`: `suggest`/`unknown_name`/`humanize`, "did you mean" and plain-word serde
//!   errors; every located error passes through `humanize`.
//! - `study`: the study sections, `study::Value` (a swept value is a number, true/false or
//!   text) and `variant` (the scenario reloaded with fields changed); `Origin` carries where a
//!   study value was written (`values[k]`, `from`/`to`/`step`, the `field` key), so a variant's
//!   error points at the value that asked for it.
//! - `compare`: comparison files. Each `[rulesets.<id>]` or `[variants.<name>]` part (with
//!   `ruleset`, and `from` merged key by key) becomes a stand-alone scenario text;
//!   `Comparison::relocate` maps a part's error back into the comparison file.
//! - `keys`: `KEY_DOCS`, what each envelope, matchup and study-section key means.
//! - `Scenario::notes` carries the loader's decisions (e.g. two fighters without `[[matchup]]`).

pub mod compare;
pub mod keys;
mod locate;
pub mod messages;
mod requires;
pub mod side;
pub mod study;

use std::collections::BTreeMap;

use oddsmith_rules::{RULESET_IDS, RulesError, Ruleset};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

pub use compare::{Comparison, Part, SkillStep, is_comparison, load_comparison};
use locate::{Doc, Seg};
pub use study::{
    Assertion, Axis, Balance, BalanceSubject, CheckAxis, CheckStudy, DEFAULT_FAIR_TOLERANCE,
    Metric, Num, Origin, ReadingsSpec, Section, SectionKind, Study, Sweep, Target, Tournament,
    Value, given_value, named_as_tables, variant, variant_text,
};

/// The most errors one load reports (the first in file order carries the rest in
/// [`ScenarioError::also`]).
pub const MAX_ERRORS: usize = 10;

/// A scenario error located in its file. A file with several mistakes gives them all at once
/// (up to [`MAX_ERRORS`]): the first in file order here, the others in `also`, and the
/// one-line-per-error text shows them all.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "{file}:{line}:{column}: {}{message}{}",
    field_prefix(field),
    also_lines(also)
)]
pub struct ScenarioError {
    /// The file name as given by the caller.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// Dotted path of the offending field (`fighters.knight.skill`), empty for the document.
    pub field: String,
    /// What is wrong and what was expected.
    pub message: String,
    /// The file's further errors, in file order (empty for a single error).
    pub also: Vec<ScenarioError>,
}

impl ScenarioError {
    /// The first of `errors` (in file order) carrying the others; `None` for no errors.
    pub fn many(mut errors: Vec<ScenarioError>) -> Option<ScenarioError> {
        errors.sort_by_key(|e| (e.line, e.column));
        errors.dedup();
        errors.truncate(MAX_ERRORS);
        let mut it = errors.into_iter();
        let mut first = it.next()?;
        first.also.extend(it);
        Some(first)
    }

    /// This error and those in `also`, in file order.
    pub fn all(&self) -> impl Iterator<Item = &ScenarioError> {
        std::iter::once(self).chain(self.also.iter())
    }
}

fn also_lines(also: &[ScenarioError]) -> String {
    let mut s = String::new();
    for e in also {
        s.push('\n');
        s.push_str(&e.to_string());
    }
    if also.len() + 1 >= MAX_ERRORS {
        s.push_str(&format!(
            "\n(stopped after {MAX_ERRORS} errors; fix these and run again)"
        ));
    }
    s
}

fn field_prefix(field: &str) -> String {
    if field.is_empty() {
        String::new()
    } else {
        format!("{field}: ")
    }
}

/// A warning: a located message about a setting that is accepted but very likely not what
/// the author meant (it has no effect, say). It does not stop the run: `validate` and `run`
/// print it on stderr before any work, the run's JSON carries it in `warnings`, the report
/// shows it in its introduction.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{file}:{line}:{column}: {}{message}", field_prefix(field))]
pub struct Warning {
    /// The file name as given by the caller.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// Dotted path of the field (`fighters.knight.tactics.hold`), empty for the document.
    pub field: String,
    /// What is suspicious, in plain words.
    pub message: String,
}

impl Warning {
    /// The one-line form, `file:line:col: field: message` (also `text` in JSON).
    pub fn text(&self) -> String {
        self.to_string()
    }
}

impl From<ScenarioError> for Warning {
    fn from(e: ScenarioError) -> Warning {
        Warning {
            file: e.file,
            line: e.line,
            column: e.column,
            field: e.field,
            message: e.message,
        }
    }
}

impl From<Warning> for ScenarioError {
    fn from(w: Warning) -> ScenarioError {
        ScenarioError {
            file: w.file,
            line: w.line,
            column: w.column,
            field: w.field,
            message: w.message,
            also: Vec::new(),
        }
    }
}

impl serde::Serialize for Warning {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Warning", 6)?;
        st.serialize_field("file", &self.file)?;
        st.serialize_field("line", &self.line)?;
        st.serialize_field("column", &self.column)?;
        st.serialize_field("field", &self.field)?;
        st.serialize_field("message", &self.message)?;
        st.serialize_field("text", &self.text())?;
        st.end()
    }
}

/// A matchup: two fighters from the library, A first.
#[derive(Clone, Debug)]
pub struct MatchupDef<R: Ruleset> {
    /// Display name ("knight vs brute" unless given).
    pub name: String,
    /// Name of fighter A.
    pub a: String,
    /// Name of fighter B.
    pub b: String,
    /// Sides A and B as written: a fighter's name or a list of members (what a study's
    /// `member = …` addresses).
    pub sides: [side::SideSpec; 2],
    /// The compiled pair.
    pub matchup: R::Matchup,
}

/// A loaded, validated scenario.
#[derive(Clone, Debug)]
pub struct Scenario<R: Ruleset> {
    /// Scenario name (also the report folder name).
    pub name: String,
    /// Free text describing what the scenario asks.
    pub description: Option<String>,
    /// The ruleset with the scenario's options.
    pub ruleset: R,
    /// The options as given (merged with defaults).
    pub options: R::Options,
    /// Seed, if the file sets one.
    pub seed: Option<u64>,
    /// Trials, if the file sets them.
    pub trials: Option<u64>,
    /// Precision target, if the file sets one.
    pub precision: Option<f64>,
    /// Fighter specs by name.
    pub fighters: BTreeMap<String, R::FighterSpec>,
    /// Matchups in file order.
    pub matchups: Vec<MatchupDef<R>>,
    /// Study sections (sweeps, balance, tournament, checks, assertions).
    pub study: Study,
    /// Things the loader decided that the file did not say (e.g. the matchup of a file of two
    /// fighters without `[[matchup]]`), for the CLI to print as notes.
    pub notes: Vec<String>,
    /// The `[readings]` section: which declared readings and invented numbers a readings
    /// study varies (`oddsmith run --readings`, or the section alone).
    pub readings: Option<study::ReadingsSpec>,
    /// Settings accepted but very likely not meant (see [`Warning`]), in file order. Only the
    /// file's own: a study variant (sweep point, seating …) reloads the text and its
    /// warnings are not added, so a study never multiplies them.
    pub warnings: Vec<Warning>,
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    bound(deserialize = "F: DeserializeOwned, O: DeserializeOwned + Default")
)]
struct File<F, O> {
    name: String,
    #[allow(dead_code)]
    ruleset: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    trials: Option<u64>,
    #[serde(default)]
    precision: Option<f64>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    options: O,
    // A check-only file (`[[check]]` sections, or nothing but the ruleset's check grid) needs
    // no fighters.
    #[serde(default)]
    fighters: BTreeMap<String, F>,
    #[serde(default, rename = "matchup")]
    matchups: Vec<MatchupSpec>,
    #[serde(default, rename = "sweep")]
    sweeps: Vec<study::SweepSpec>,
    #[serde(default)]
    balance: Option<study::BalanceSpec>,
    #[serde(default)]
    tournament: Option<study::TournamentSpec>,
    #[serde(default, rename = "check")]
    checks: Vec<study::CheckSpec>,
    #[serde(default, rename = "assert")]
    asserts: Vec<study::AssertSpec>,
    #[serde(default)]
    readings: Option<study::ReadingsSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchupSpec {
    a: side::SideSpec,
    b: side::SideSpec,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
struct Envelope {
    ruleset: Option<String>,
    /// Present in comparison files (for the message when `[compare]` is missing).
    rulesets: Option<toml::Value>,
    variants: Option<toml::Value>,
}

/// The shape of a scenario file for `oddsmith schema`, traced from the loader's own types
/// (envelope, matchups, study sections): [`oddsmith_rules::schema::Shape::Slot`]`("fighter")`
/// and `("options")` mark where the ruleset's fighter spec and options go.
pub fn file_shape() -> oddsmith_rules::schema::Shape {
    use oddsmith_rules::schema::{FighterSlot, OptionsSlot, Shape, trace};
    let mut shape = trace::<File<FighterSlot, OptionsSlot>>();
    // A side is read by hand (a name or a list of members): the slot "side", filled by
    // `oddsmith schema` from [`side_shape`].
    fn table(s: &mut Shape) -> Option<&mut Vec<oddsmith_rules::schema::Prop>> {
        match s {
            Shape::Optional(s) | Shape::Array(s) => table(s),
            Shape::Object { props, .. } => Some(props),
            _ => None,
        }
    }
    let sides = table(&mut shape)
        .and_then(|props| props.iter_mut().find(|p| p.name == "matchup"))
        .and_then(|m| table(&mut m.shape));
    for p in sides.into_iter().flatten() {
        if p.name == "a" || p.name == "b" {
            p.shape = Shape::Slot("side");
        }
    }
    // A tournament's entry is a side too: a fighter's name or a party.
    let entries = table(&mut shape)
        .and_then(|props| props.iter_mut().find(|p| p.name == "tournament"))
        .and_then(|t| table(&mut t.shape))
        .and_then(|props| props.iter_mut().find(|p| p.name == "fighters"));
    if let Some(p) = entries {
        p.shape = Shape::Optional(Box::new(Shape::Array(Box::new(Shape::Slot("side")))));
    }
    shape
}

/// The shape of one member of a side written as a list (`{ fighter, count, target }`; a
/// fighter's name alone is also a member).
pub fn member_shape() -> oddsmith_rules::schema::Shape {
    oddsmith_rules::schema::trace::<side::MemberSpec>()
}

/// Reads the `ruleset` id of a scenario and checks that it exists.
pub fn ruleset_of(file: &str, text: &str) -> Result<String, ScenarioError> {
    let doc = Doc::parse(file, text)?;
    let env: Envelope = doc.deserialize()?;
    let Some(id) = env.ruleset else {
        let mut m = format!(
            "missing key `ruleset`: a scenario names its rules, e.g. ruleset = \"draft\" (one of: {})",
            RULESET_IDS.join(", ")
        );
        if env.rulesets.is_some() || env.variants.is_some() {
            m += "; this file has [rulesets.…] or [variants.…] tables: a comparison file also needs a [compare] table (it may be empty)";
        }
        return Err(doc.error(&[], m));
    };
    if !RULESET_IDS.contains(&id.as_str()) {
        return Err(doc.error(
            &[Seg::Key("ruleset".into())],
            format!(
                "unknown ruleset {id:?}; expected one of: {}",
                RULESET_IDS.join(", ")
            ),
        ));
    }
    Ok(id)
}

/// The top-level `name` of a scenario or comparison file, if the file parses and has one (a
/// quick read, e.g. to check where the report will go before any work; the loaders check it).
pub fn name_of(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Name {
        name: Option<String>,
    }
    toml::from_str::<Name>(text).ok()?.name
}

/// Loads and validates a scenario under ruleset `R`.
pub fn load<R: Ruleset>(file: &str, text: &str) -> Result<Scenario<R>, ScenarioError> {
    let doc = Doc::parse(file, text)?;
    let f: File<R::FighterSpec, R::Options> = doc
        .deserialize_all(MAX_ERRORS)
        .map_err(|errors| ScenarioError::many(errors).expect("at least one error"))?;
    let key = |k: &str| Seg::Key(k.to_string());
    if f.name.trim().is_empty() {
        return Err(doc.error(&[key("name")], "must not be empty"));
    }
    if f.trials == Some(0) {
        return Err(doc.error(&[key("trials")], "expected at least 1 trial"));
    }
    if let Some(h) = f.precision
        && !(h > 0.0 && h < 0.5)
    {
        return Err(doc.error(
            &[key("precision")],
            format!("expected a half-width between 0 and 0.5, got {h}"),
        ));
    }
    let mut warnings = requires::check::<R>(&doc, &f.options, &f.fighters)?;
    let ruleset =
        R::new(f.options.clone()).map_err(|e| rules_error(&doc, vec![key("options")], e))?;
    for w in ruleset.option_warnings() {
        warnings.push(rules_error(&doc, vec![key("options")], w).into());
    }
    let mut compiled = BTreeMap::new();
    let mut errors = Vec::new();
    for (name, spec) in &f.fighters {
        let at = || vec![key("fighters"), key(name)];
        match ruleset.compile(name, spec) {
            Ok(c) => {
                compiled.insert(name.clone(), c);
            }
            Err(e) => errors.push(rules_error(&doc, at(), e)),
        }
        for w in ruleset.fighter_warnings(spec) {
            warnings.push(rules_error(&doc, at(), w).into());
        }
    }
    if let Some(e) = ScenarioError::many(errors) {
        return Err(e);
    }
    warnings.sort_by_key(|w| (w.line, w.column));
    warnings.dedup();
    let study_specs = study::StudySpecs {
        sweeps: f.sweeps,
        balance: f.balance,
        tournament: f.tournament,
        checks: f.checks,
        asserts: f.asserts,
    };
    if let Some(r) = &f.readings {
        study::check_readings::<R>(&doc, r)?;
    }
    let invented = f.matchups.is_empty();
    let (matchups, side_notes) = matchups(
        &doc,
        &ruleset,
        &f.fighters,
        &compiled,
        f.matchups,
        &study_specs,
    )?;
    let mut notes = match matchups.first() {
        Some(m) if invented => vec![format!(
            "no [[matchup]] in the file: its two fighters fight as {:?} (A = {}, B = {}); add [[matchup]] to choose",
            m.name, m.a, m.b
        )],
        _ => Vec::new(),
    };
    notes.extend(side_notes);
    let mut scenario = Scenario {
        name: f.name,
        description: f.description,
        options: f.options,
        ruleset,
        seed: f.seed,
        trials: f.trials,
        precision: f.precision,
        fighters: f.fighters,
        matchups,
        study: Study::default(),
        notes,
        readings: f.readings,
        warnings,
    };
    scenario.study = study::build(&doc, study_specs, &scenario)?;
    Ok(scenario)
}

/// The `[[matchup]]` entries compiled in file order; a file of two fighters that lists none
/// gets one (and [`Scenario::notes`] says so).
fn matchups<R: Ruleset>(
    doc: &Doc<'_>,
    ruleset: &R,
    fighters: &BTreeMap<String, R::FighterSpec>,
    compiled: &BTreeMap<String, R::Fighter>,
    mut specs: Vec<MatchupSpec>,
    study: &study::StudySpecs,
) -> Result<(Vec<MatchupDef<R>>, Vec<String>), ScenarioError> {
    let key = |k: &str| Seg::Key(k.to_string());
    // Two fighters make the matchup a file needs but does not list.
    if specs.is_empty() && (study.needs_matchup() || compiled.len() == 2) {
        if compiled.is_empty() {
            return Err(doc.error(
                &[key("fighters")],
                "no fighters and nothing to check; add [fighters.<name>] tables to run duels, or [[check]] sections for checks only",
            ));
        }
        if compiled.len() != 2 {
            return Err(doc.error(
                &[key("fighters")],
                format!(
                    "{} fighters but no [[matchup]]; add [[matchup]] entries with a = \"…\" and b = \"…\"",
                    compiled.len()
                ),
            ));
        }
        let mut names = compiled.keys();
        let (a, b) = (names.next().unwrap().clone(), names.next().unwrap().clone());
        specs.push(MatchupSpec {
            a: side::SideSpec::Name(a),
            b: side::SideSpec::Name(b),
            name: None,
        });
    }
    let mut matchups = Vec::new();
    let mut notes = Vec::new();
    for (i, m) in specs.into_iter().enumerate() {
        let (fa, fb) = (
            side(doc, ruleset, fighters, compiled, i, "a", &m.a, &mut notes)?,
            side(doc, ruleset, fighters, compiled, i, "b", &m.b, &mut notes)?,
        );
        let (fa, fb) = (&fa, &fb);
        let matchup = ruleset
            .matchup(fa, fb)
            .map_err(|e| rules_error(doc, vec![key("matchup"), Seg::Index(i)], e))?;
        let given = m.name.is_some();
        let (la, lb) = (m.a.label(), m.b.label());
        let name = m.name.unwrap_or_else(|| format!("{la} vs {lb}"));
        if let Some(j) = matchups.iter().position(|d: &MatchupDef<R>| d.name == name) {
            let mut at = vec![key("matchup"), Seg::Index(i)];
            if given {
                at.push(key("name"));
            }
            return Err(doc.error(
                &at,
                format!(
                    "matchup[{j}] is already called {name:?}; give each matchup its own name (tables and asserts refer to them by name)"
                ),
            ));
        }
        matchups.push(MatchupDef {
            name,
            a: la,
            b: lb,
            sides: [m.a, m.b],
            matchup,
        });
    }
    Ok((matchups, notes))
}

/// One side of `[[matchup]]` `i` compiled: a fighter of the library (a duel's side), or a
/// list of members made into the ruleset's side ([`Ruleset::side_spec`]); errors at the
/// member's key, with "did you mean" for names. A fighter whose own `count` makes a band gets
/// a note pointing at the list form.
#[allow(clippy::too_many_arguments)]
fn side<R: Ruleset>(
    doc: &Doc<'_>,
    ruleset: &R,
    fighters: &BTreeMap<String, R::FighterSpec>,
    compiled: &BTreeMap<String, R::Fighter>,
    i: usize,
    key: &str,
    spec: &side::SideSpec,
    notes: &mut Vec<String>,
) -> Result<R::Fighter, ScenarioError> {
    let mut at = vec![
        Seg::Key("matchup".into()),
        Seg::Index(i),
        Seg::Key(key.into()),
    ];
    if let side::SideSpec::Name(name) = spec
        && let Some(f) = compiled.get(name)
    {
        let n = ruleset.spec_count(&fighters[name]);
        if n > 1 {
            notes.push(format!(
                "matchup[{i}].{key}: fighter {name:?} sets count = {n} in its own table, which still works; the newer form lists a side's members: {key} = [{{ fighter = {name:?}, count = {n} }}]"
            ));
        }
        return Ok(f.clone());
    }
    side_fighter(ruleset, fighters, spec).map_err(|(more, fault)| {
        at.extend(more);
        fault.place(doc, at)
    })
}

/// Why a side could not be compiled ([`side_fighter`]), below the side's own path.
pub(crate) enum SideFault {
    /// In plain words.
    Message(String),
    /// The rules refused the member's fighter.
    Rules(RulesError),
}

impl SideFault {
    /// The error at `at` (the side's path with the fault's own below it).
    pub(crate) fn place(self, doc: &Doc<'_>, at: Vec<Seg>) -> ScenarioError {
        match self {
            SideFault::Message(m) => doc.error(&at, m),
            SideFault::Rules(e) => rules_error(doc, at, e),
        }
    }
}

/// A side as the ruleset fights it: a fighter of the library, or its members made into the
/// ruleset's side ([`Ruleset::side_spec`]). On error, the path below the side (`[j].count`)
/// and what is wrong. Used by `[[matchup]]` sides and `[tournament]` entries alike.
pub(crate) fn side_fighter<R: Ruleset>(
    ruleset: &R,
    fighters: &BTreeMap<String, R::FighterSpec>,
    spec: &side::SideSpec,
) -> Result<R::Fighter, (Vec<Seg>, SideFault)> {
    let unknown = |path: Vec<Seg>, name: &str| {
        (
            path,
            SideFault::Message(messages::unknown_name(
                "fighter",
                name,
                fighters.keys().map(String::as_str),
            )),
        )
    };
    let members = match spec {
        side::SideSpec::Name(name) => {
            let f = fighters.get(name).ok_or_else(|| unknown(vec![], name))?;
            return ruleset
                .compile(name, f)
                .map_err(|e| (vec![], SideFault::Rules(e)));
        }
        side::SideSpec::Members(v) => v,
    };
    if members.is_empty() {
        return Err((
            vec![],
            SideFault::Message(
                "an empty side: list at least one member, e.g. [{ fighter = \"goblin\", count = 2 }]"
                    .into(),
            ),
        ));
    }
    for (j, m) in members.iter().enumerate() {
        if !fighters.contains_key(&m.fighter) {
            return Err(unknown(
                vec![Seg::Index(j), Seg::Key("fighter".into())],
                &m.fighter,
            ));
        }
        if m.count == 0 {
            return Err((
                vec![Seg::Index(j), Seg::Key("count".into())],
                SideFault::Message("count must be at least 1".into()),
            ));
        }
    }
    let mut made = Vec::with_capacity(members.len());
    for (j, m) in members.iter().enumerate() {
        let spec = ruleset
            .side_spec(&fighters[&m.fighter], m.count, m.target)
            .map_err(|e| (vec![Seg::Index(j)], SideFault::Message(e)))?;
        made.push(
            ruleset
                .compile(&m.fighter, &spec)
                .map_err(|e| (vec![Seg::Index(j)], SideFault::Rules(e)))?,
        );
    }
    ruleset
        .join_side(made)
        .map_err(|(j, e)| (vec![Seg::Index(j)], SideFault::Message(e)))
}

/// A side of a study (a `[tournament]` entry) compiled as the loader compiled it: the
/// scenario was validated, so an error here is the rules' own.
pub fn compile_side<R: Ruleset>(
    ruleset: &R,
    fighters: &BTreeMap<String, R::FighterSpec>,
    spec: &side::SideSpec,
) -> Result<R::Fighter, RulesError> {
    side_fighter(ruleset, fighters, spec).map_err(|(at, fault)| match fault {
        SideFault::Rules(e) => e,
        SideFault::Message(m) => RulesError::field(locate::render(&at), m),
    })
}

/// A side's price under the ruleset's own rules: its fighter's, or the sum over its members
/// of count × the member's fighter's price; `None` where a member's fighter has none (or the
/// units differ).
pub fn side_cost<R: Ruleset>(
    ruleset: &R,
    fighters: &BTreeMap<String, R::FighterSpec>,
    spec: &side::SideSpec,
) -> Option<(f64, &'static str)> {
    match spec {
        side::SideSpec::Name(n) => ruleset.fighter_cost(fighters.get(n)?),
        side::SideSpec::Members(v) => {
            let mut total = 0.0;
            let mut unit = None;
            for m in v {
                let (c, u) = ruleset.fighter_cost(fighters.get(&m.fighter)?)?;
                if unit.is_some_and(|x| x != u) {
                    return None;
                }
                unit = Some(u);
                total += c * f64::from(m.count);
            }
            Some((total, unit?))
        }
    }
}

/// The place in the file for an error the rules found in a pairing a study makes (not a
/// `[[matchup]]`): pairing `a` against `b` of the `[tournament]`. At the tournament's entry
/// for the later-listed of the two where `tournament.fighters` is written; else at the
/// refused field in the fighter's own table (the second fighter's, or the first's where only
/// it writes the field); else at `[tournament]`. The message names the pairing.
pub fn tournament_pairing_error(
    file: &str,
    text: &str,
    listed: &[String],
    (i, j): (usize, usize),
    e: &RulesError,
) -> ScenarioError {
    let doc = match Doc::parse(file, text) {
        Ok(d) => d,
        Err(e) => return e,
    };
    let key = |k: &str| Seg::Key(k.to_string());
    let (a, b) = (&listed[i], &listed[j]);
    let (field, message) = match e {
        RulesError::InvalidField { field, message } => (field.as_str(), message.clone()),
        other => ("", other.to_string()),
    };
    let what = if field.is_empty() {
        format!("the pairing {a} vs {b} of the tournament: {message}")
    } else {
        format!("the pairing {a} vs {b} of the tournament: {field}: {message}")
    };
    let entry = vec![key("tournament"), key("fighters"), Seg::Index(i.max(j))];
    if doc.has(&entry) {
        return doc.error(&entry, what);
    }
    let own = |f: &str| {
        let mut p = vec![key("fighters"), key(f)];
        p.extend(compare::parse_path(field));
        p
    };
    match [b, a]
        .into_iter()
        .find(|f| !field.is_empty() && doc.has(&own(f)))
    {
        Some(f) => doc.error(&own(f), what),
        None => doc.error(&[key("tournament")], what),
    }
}

/// Places a ruleset error under `base` (e.g. `fighters.knight` + `shield`).
fn rules_error(doc: &Doc<'_>, mut base: Vec<Seg>, e: RulesError) -> ScenarioError {
    match e {
        RulesError::InvalidField { field, message } => {
            base.extend(field.split('.').map(|k| Seg::Key(k.to_string())));
            doc.error(&base, message)
        }
        other => doc.error(&base, other.to_string()),
    }
}
