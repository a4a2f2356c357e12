//! `oddsmith validate FILE…`: every scenario and comparison file loaded and every study
//! variant built, nothing run. Also the loaders `oddsmith run` uses, so a file that validates
//! is exactly a file that runs.

use std::io::Write;

use anyhow::{Result, bail};
use oddsmith_rules::{Ruleset, RulesetVisitor, visit};
use oddsmith_scenario::{
    Comparison, Part, Scenario, ScenarioError, Warning, is_comparison, load, load_comparison,
    ruleset_of,
};

use crate::cmd::read;
use crate::config::FileSampling;
use crate::error::{InputError, ScenarioInput, relocate_err, study_input};

/// Checks every file, printing `ok` or `bad` and the reason for each, and each file's
/// warnings on `err`.
pub(crate) fn validate(files: &[String], out: &mut dyn Write, err: &mut dyn Write) -> Result<()> {
    let mut failed = 0;
    for f in files {
        match read(f).and_then(|text| check(f, &text)) {
            Ok(c) => {
                writeln!(out, "ok  {f}: {}", c.summary)?;
                for n in &c.notes {
                    writeln!(out, "    note: {n}")?;
                }
                print_warnings(&c.warnings, err)?;
            }
            Err(e) => {
                // A located error starts with the path already: print it once.
                let e = format!("{e:#}");
                match e.strip_prefix(f.as_str()) {
                    Some(rest) if rest.starts_with(':') => writeln!(out, "bad {f}{rest}")?,
                    _ => writeln!(out, "bad {f}: {e}")?,
                }
                failed += 1;
            }
        }
    }
    if failed > 0 {
        bail!(InputError(format!(
            "{failed} of {} scenario files are invalid",
            files.len()
        )));
    }
    Ok(())
}

/// Prints warnings on stderr, one line each: `warning: FILE:LINE:COL: FIELD: message`.
pub(crate) fn print_warnings(warnings: &[Warning], err: &mut dyn Write) -> Result<()> {
    for w in warnings {
        writeln!(err, "warning: {w}")?;
    }
    Ok(())
}

/// What checking a file found: a one-line summary, notes on what the loader decided, and
/// how much work running it takes.
pub(crate) struct Checked {
    /// `ruleset draft, 4 fighters, 2 matchups, 1 sweeps`.
    pub summary: String,
    /// Decisions the file left to the loader (printed as notes by `validate` and `run`).
    pub notes: Vec<String>,
    /// Settings accepted but very likely not meant, located in the file (of a comparison: in
    /// the comparison file), printed on stderr by `validate` and `run` before any work.
    pub warnings: Vec<Warning>,
    /// Runs of `trials` duels (or check rolls) the file asks for: matchups, sweep points,
    /// tournament seatings, balance evaluations (estimated), check cells, skill steps.
    pub runs: u64,
    /// Of those, the runs of duels (not check rolls): each also gets an exact solve when the
    /// ruleset has a solver and `--no-exact` is not given.
    pub duel_runs: u64,
    /// Whether the ruleset, with the file's options, solves duels exactly (of a comparison:
    /// any part's).
    pub solves_exactly: bool,
    /// The work of one trial of every run, in ordinary duels (see [`duel_cost`]): each run of
    /// duels counted at its pilot's cost, each run of check rolls as 1.
    pub work_per_trial: f64,
    /// The longest mean duel length (rounds) a pilot found, with the duels it played: said
    /// when a run is refused or long.
    pub pilot: Option<Pilot>,
    /// Matchups of the file (of a comparison part: its own).
    pub matchups: u64,
    /// What the file says about trials, precision and seed.
    pub sampling: FileSampling,
    /// The readings study the file's matchups would run (`--readings` or `[readings]`).
    pub readings: ReadingsWork,
}

/// What a readings study of a scenario costs: one paired run per matchup of the baseline and
/// every factor.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ReadingsWork {
    /// The file has a `[readings]` section (the study runs without `--readings`).
    pub in_file: bool,
    /// Factors (readings and invented-number ends) the file's matchups use.
    pub factors: u64,
    /// Runs of `trials` duels: matchups × (baseline + factors).
    pub runs: u64,
    /// Their work per trial, in ordinary duels.
    pub work_per_trial: f64,
}

/// Checks a scenario or comparison file completely (every part, every study variant, the
/// skill steps) without running it: the one validation `validate` prints and `run` performs
/// before any work.
pub(crate) fn check(file: &str, text: &str) -> Result<Checked> {
    if is_comparison(text) {
        let c = load_comparison(file, text).map_err(ScenarioInput)?;
        let parts = validate_parts(file, text, &c)?;
        let summary = format!(
            "comparison of {} rulesets: {}",
            c.parts.len(),
            parts
                .iter()
                .map(|p| p.summary.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        );
        // Each part's runs, its skill step (two variants), and the paired re-run of the
        // common matchups of two variants of one ruleset.
        let mut runs: u64 = parts.iter().map(|p| p.runs).sum();
        runs += 2 * c.parts.iter().filter(|p| p.skill_step.is_some()).count() as u64;
        for (i, p) in c.parts.iter().enumerate() {
            for (j, q) in c.parts.iter().enumerate().skip(i + 1) {
                if q.id == p.id {
                    runs += parts[i].matchups.min(parts[j].matchups) * 2;
                }
            }
        }
        let duel_runs = parts.iter().map(|p| p.duel_runs).sum();
        let solves_exactly = parts.iter().any(|p| p.solves_exactly);
        let warnings = merge_warnings(parts.iter().map(|p| p.warnings.clone()));
        // Each part's own work, and the paired re-runs at the cost of the part's duels.
        let mut work_per_trial: f64 = parts.iter().map(|p| p.work_per_trial).sum();
        work_per_trial += 2.0
            * c.parts
                .iter()
                .zip(&parts)
                .filter(|(p, _)| p.skill_step.is_some())
                .map(|(_, q)| q.pilot.map_or(1.0, |x| x.cost))
                .sum::<f64>();
        for (i, p) in c.parts.iter().enumerate() {
            for (j, q) in c.parts.iter().enumerate().skip(i + 1) {
                if q.id == p.id {
                    let cost = [&parts[i], &parts[j]]
                        .iter()
                        .map(|x| x.pilot.map_or(1.0, |x| x.cost))
                        .fold(1.0, f64::max);
                    work_per_trial += (parts[i].matchups.min(parts[j].matchups) * 2) as f64 * cost;
                }
            }
        }
        let pilot = parts
            .iter()
            .filter_map(|p| p.pilot)
            .max_by(|a, b| a.cost.total_cmp(&b.cost));
        let notes = parts.into_iter().flat_map(|p| p.notes).collect();
        return Ok(Checked {
            summary,
            notes,
            warnings,
            runs,
            duel_runs,
            solves_exactly,
            work_per_trial,
            pilot,
            matchups: 0,
            sampling: FileSampling {
                trials: c.trials,
                precision: None,
                seed: c.seed,
            },
            readings: ReadingsWork::default(),
        });
    }
    let id = ruleset_of(file, text).map_err(ScenarioInput)?;
    let v = Validate {
        file,
        text,
        role: Role::Scenario,
    };
    visit(&id, v).expect("id checked")
}

/// The warnings of a comparison's parts, relocated into the comparison file, as one list in
/// file order: one warning found in several parts (a `[variants.*]` part inherits its `from`
/// part's settings) is given once, naming every part it concerns.
pub(crate) fn merge_warnings(parts: impl IntoIterator<Item = Vec<Warning>>) -> Vec<Warning> {
    let mut out: Vec<(Warning, Vec<String>)> = Vec::new();
    for w in parts.into_iter().flatten() {
        // `(part) message`, as `Comparison::relocate_warning` writes it.
        let (part, message) = match w.message.strip_prefix('(').and_then(|m| m.split_once(") ")) {
            Some((p, m)) => (p.to_string(), m.to_string()),
            None => (String::new(), w.message.clone()),
        };
        let same = |(o, _): &&mut (Warning, Vec<String>)| {
            (o.line, o.column, &o.field, &o.message) == (w.line, w.column, &w.field, &message)
        };
        match out.iter_mut().find(same) {
            Some((_, names)) => names.push(part),
            None => out.push((Warning { message, ..w }, vec![part])),
        }
    }
    let mut out: Vec<Warning> = out
        .into_iter()
        .map(|(mut w, names)| {
            let names: Vec<String> = names.into_iter().filter(|n| !n.is_empty()).collect();
            if !names.is_empty() {
                w.message = format!("({}) {}", names.join(", "), w.message);
            }
            w
        })
        .collect();
    out.sort_by_key(|w| (w.line, w.column));
    out
}

/// Loads and checks every part of a comparison (errors placed in the comparison file);
/// returns what was found in each part, its name in front.
pub(crate) fn validate_parts(file: &str, text: &str, c: &Comparison) -> Result<Vec<Checked>> {
    c.parts
        .iter()
        .map(|p| {
            let v = Validate {
                file,
                text: &p.text,
                role: Role::ComparisonPart(p),
            };
            let found = visit(&p.id, v)
                .expect("load_comparison checked the id")
                .map_err(|e| relocate_err(file, text, p, e))?;
            let warnings = found
                .warnings
                .iter()
                .map(|w| Comparison::relocate_warning(file, text, p, w.clone()))
                .collect();
            Ok(Checked {
                summary: format!("[{}] {}", p.name, found.summary),
                warnings,
                notes: found
                    .notes
                    .iter()
                    .map(|n| format!("[{}] {n}", p.name))
                    .collect(),
                ..found
            })
        })
        .collect()
}

/// Loads a scenario and builds every variant its study sections would run, so a bad value
/// stops the run before any simulation.
pub(crate) fn load_scenario<R: Ruleset>(file: &str, text: &str) -> Result<Scenario<R>> {
    let s = load::<R>(file, text).map_err(ScenarioInput)?;
    oddsmith_study::validate(file, text, &s).map_err(study_input)?;
    Ok(s)
}

/// The factors of a readings study of scenario `s` (its `[readings]` choice, else every
/// marked factor it uses) whose variant loads: an alternative a file's fighters cannot take
/// (a reading another setting of the file refuses) is left out, not an error.
pub(crate) fn readings_factors<R: Ruleset>(
    file: &str,
    text: &str,
    s: &Scenario<R>,
) -> Vec<oddsmith_study::Factor> {
    let spec = s.readings.clone().unwrap_or_default();
    let mut f = oddsmith_study::factors::<R>(text, s, &spec);
    f.retain(|f| oddsmith_study::readings::factor_scenario::<R>(file, text, f).is_ok());
    f
}

/// Loads one part of a comparison (its text as a stand-alone scenario): like a scenario, but
/// only the study sections a part may hold (checks), and its skill step checked against it.
fn load_part<R: Ruleset>(file: &str, text: &str, part: &Part) -> Result<Scenario<R>> {
    let s = load::<R>(file, text).map_err(ScenarioInput)?;
    if let Some(x) = s
        .study
        .sections()
        .find(|x| !x.kind().allowed_in_comparison_part())
    {
        // Placed at the section's key of the part by the caller's `relocate_err`.
        bail!(ScenarioInput(ScenarioError {
            file: file.into(),
            line: 0,
            column: 0,
            field: x.kind().file_key().into(),
            message: "a comparison part holds fighters, options, matchups and [[check]]s; sweeps, balance, tournaments and assertions belong in a scenario file".into(),
            also: Vec::new(),
        }));
    }
    oddsmith_study::validate(file, text, &s).map_err(study_input)?;
    if let Some(step) = &part.skill_step {
        oddsmith_study::validate_skill_step(file, text, &s, step).map_err(study_input)?;
    }
    Ok(s)
}

/// `ruleset draft, 4 fighters, 2 matchups, 1 sweeps, 2 checks`.
fn summary<R: Ruleset>(s: &Scenario<R>) -> String {
    let mut summary = format!(
        "ruleset {}, {} fighters, {} matchups",
        R::ID,
        s.fighters.len(),
        s.matchups.len()
    );
    for (kind, n) in s.study.counts() {
        summary.push_str(&format!(", {n} {}", kind.counted()));
    }
    summary
}

/// Runs of `trials` duels or rolls a scenario asks for (see [`Checked::runs`]), and of those
/// the runs of duels; a balance search is counted as its bisection steps plus the two ends
/// and a re-measurement.
fn runs<R: Ruleset>(s: &Scenario<R>) -> (u64, u64) {
    let st = &s.study;
    let n = |x: usize| x as u64;
    let mut runs = n(s.matchups.len());
    for sw in &st.sweeps {
        runs += n(sw.x.values.len()) * n(sw.y.as_ref().map_or(1, |y| y.values.len()));
    }
    if let Some(b) = &st.balance {
        let width = b.range.1 - b.range.0;
        let steps = if b.integer {
            width
        } else {
            width / b.tolerance
        };
        runs += steps.max(1.0).log2().ceil() as u64 + 3;
    }
    if let Some(t) = &st.tournament {
        runs += n(t.fighters.len()) * n(t.fighters.len().saturating_sub(1));
    }
    let duels = runs;
    for c in &st.checks {
        runs += n(c.cells().len());
    }
    (runs, duels)
}

/// What a file is checked as.
#[derive(Clone, Copy, Debug)]
enum Role<'a> {
    /// A scenario file.
    Scenario,
    /// One `[rulesets.<id>]` or `[variants.<name>]` part of a comparison file.
    ComparisonPart(&'a Part),
}

/// Loads a file in its role and summarises it.
struct Validate<'a> {
    file: &'a str,
    text: &'a str,
    role: Role<'a>,
}

impl RulesetVisitor for Validate<'_> {
    type Output = Result<Checked>;
    fn visit<R: Ruleset>(self) -> Result<Checked> {
        let s = match self.role {
            Role::Scenario => load_scenario::<R>(self.file, self.text)?,
            Role::ComparisonPart(p) => load_part::<R>(self.file, self.text, p)?,
        };
        let (runs, duel_runs) = runs(&s);
        let pilot = pilot(self.file, self.text, &s);
        let cost = pilot.map_or(1.0, |p| p.cost);
        let readings = match self.role {
            Role::Scenario => {
                let f = readings_factors(self.file, self.text, &s);
                let n = f.len() as u64;
                // Matchups: the baseline and every factor; a tournament again per factor
                // (for its cost labels); a balance again per factor (at most: only those
                // that move a matchup), each counted as the file's own.
                let mut runs = s.matchups.len() as u64 * (1 + n);
                if let Some(t) = &s.study.tournament {
                    let k = t.fighters.len() as u64;
                    runs += k * k.saturating_sub(1) * (1 + n);
                }
                if let Some(b) = &s.study.balance {
                    let width = b.range.1 - b.range.0;
                    let steps = if b.integer {
                        width
                    } else {
                        width / b.tolerance
                    };
                    runs += (steps.max(1.0).log2().ceil() as u64 + 3) * n;
                }
                ReadingsWork {
                    in_file: s.readings.is_some(),
                    factors: f.len() as u64,
                    runs,
                    work_per_trial: runs as f64 * cost,
                }
            }
            Role::ComparisonPart(_) => ReadingsWork::default(),
        };
        Ok(Checked {
            summary: summary(&s),
            notes: s.notes.clone(),
            warnings: s.warnings.clone(),
            runs,
            duel_runs,
            solves_exactly: s.ruleset.no_exact_reason().is_none(),
            work_per_trial: duel_runs as f64 * cost + (runs - duel_runs) as f64,
            pilot,
            matchups: s.matchups.len() as u64,
            sampling: FileSampling {
                trials: s.trials,
                precision: s.precision,
                seed: s.seed,
            },
            readings,
        })
    }
}

/// What a pilot of a few duels found: how long the file's duels are, and what one costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Pilot {
    /// Mean rounds per duel of the longest matchup piloted.
    pub rounds: f64,
    /// Duels the pilot played in all.
    pub duels: u64,
    /// What one duel of the file costs, in ordinary duels ([`duel_cost`]).
    pub cost: f64,
}

/// Duels a pilot plays of each matchup it measures.
const PILOT_DUELS: u64 = 32;
/// Most rounds a pilot plays in all (a few hundredths of a second in the slowest ruleset):
/// duels of 10,000 rounds stop it after 20.
const PILOT_ROUNDS: u64 = 200_000;
/// Most matchups (and tournament pairings) a pilot measures.
const PILOT_MATCHUPS: usize = 8;
/// The pilot's seed: the estimate depends on the file only, not on `--seed`.
const PILOT_SEED: u64 = 0x0dd5_0001;

/// Rounds a second the ruleset fights on two cores, from the benchmarks' reference duels
/// (benches/README: duels a second on 2 threads × their mean rounds), rounded towards the
/// slow side; cards' from its slowest duels (an all-zero deck: about 3.7 million rounds a
/// second).
fn rounds_per_second(id: &str) -> f64 {
    match id {
        "draft" => 4e7,
        "openrpg" => 2.5e7,
        "gamecraft" => 1.3e7,
        "d20" => 5e6,
        _ => 4e6,
    }
}

/// The cost of one duel of `rounds` rounds (mean) in ruleset `id`, in ordinary duels (the
/// unit of `--max-work`, at about ten million a second): 1 for a duel of ordinary length, more
/// for long ones (duels of 10,000 rounds in cards cost about 25,000).
pub(crate) fn duel_cost(id: &str, rounds: f64) -> f64 {
    (rounds * 1e7 / rounds_per_second(id)).max(1.0)
}

/// Plays a few duels, deterministically, of the file's matchups (the first few, the first
/// and last point of each sweep, the first pairings of its tournament) and measures how long
/// they last; `None` for a file without duels.
fn pilot<R: Ruleset>(file: &str, text: &str, s: &Scenario<R>) -> Option<Pilot> {
    let mut budget = PILOT_ROUNDS;
    let (mut duels, mut longest) = (0u64, None::<f64>);
    let mut measure = |rules: &R, m: &R::Matchup| {
        if budget == 0 {
            return;
        }
        let mut rng = oddsmith_dice::stream(PILOT_SEED, 0);
        let mut roller = oddsmith_rules::RngRoller::new(&mut rng);
        let (mut n, mut rounds) = (0u64, 0u64);
        while n < PILOT_DUELS && rounds < budget {
            rounds += u64::from(rules.duel(m, &mut roller).rounds);
            n += 1;
        }
        budget = budget.saturating_sub(rounds);
        duels += n;
        let mean = rounds as f64 / n as f64;
        longest = Some(longest.map_or(mean, |l: f64| l.max(mean)));
    };
    for m in s.matchups.iter().take(PILOT_MATCHUPS) {
        measure(&s.ruleset, &m.matchup);
    }
    for (i, sw) in s.study.sweeps.iter().enumerate() {
        for k in [0, oddsmith_study::sweep::n_points(sw) - 1] {
            if let Ok((r, m)) = oddsmith_study::sweep::point_matchup(file, text, s, i, k) {
                measure(&r, &m);
            }
        }
    }
    if let Some(t) = &s.study.tournament {
        // An entry is a fighter or a party (a side's members).
        let fighters: Vec<_> = t
            .sides
            .iter()
            .take(PILOT_MATCHUPS)
            .filter_map(|side| oddsmith_scenario::compile_side(&s.ruleset, &s.fighters, side).ok())
            .collect();
        for (i, a) in fighters.iter().enumerate() {
            for b in &fighters[i + 1..] {
                if let Ok(m) = s.ruleset.matchup(a, b) {
                    measure(&s.ruleset, &m);
                }
            }
        }
    }
    longest.map(|rounds| Pilot {
        rounds,
        duels,
        cost: duel_cost(R::ID, rounds),
    })
}
