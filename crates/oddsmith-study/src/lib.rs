//! Designer studies: the sections of a scenario that turn a simulator into a balance tool.
//!
//! - [`sweep`]: P(A wins) over one or two swept fields, every point on common random numbers
//!   ([`oddsmith_sim::run_paired`]), with paired differences between neighbouring points;
//! - [`balance`]: the value of a field that brings P(A wins) (or a check's P(success)) to a
//!   target, by bisection on exact values where the ruleset has them, else on paired Monte
//!   Carlo estimates, with the result re-measured on fresh random numbers;
//! - [`tournament`]: every loadout against every other both ways, the win matrix, strictly
//!   dominated loadouts, the Nash mix of the symmetric zero-sum meta-game, ranking and cost
//!   efficiency;
//! - [`checks`]: `[[check]]` grids, exact with Monte Carlo beside;
//! - [`asserts`]: `[[assert]]` bounds for a designer's own CI.
//!
//! Like the engine, this crate does no IO and reads no clock: every number depends on the
//! scenario and the seed only.
//!
//! `compare` (ruleset comparison: archetypes, skill steps, checks) gives verdicts only where
//! p < α and the practical threshold are both met; variants of one ruleset run on common
//! random numbers. The tournament's pairings carry fight length and lethality (`PairingDoc`),
//! its JSON matrices are keyed by fighter name, and its cost fit is judged before use
//! (`CostFit`: the slope's 95 % interval by Student's t; per-kit verdicts against
//! `fair_tolerance` and fair costs only when costs predict win rate; missing costs named).
//! [`validate`] builds every variant before anything runs.
//!
//! Studies never re-implement a rule: a swept or balanced value is written into the parsed TOML
//! and the scenario is loaded again with the ruleset's own types
//! (`oddsmith_scenario::variant`), so it is validated exactly like a value in the file. Paired
//! variants share per-trial seeds (trial *t* of every variant is seeded with the same number
//! drawn from its chunk's stream), so a neighbouring pair differs by the change, not by noise.
//!
//! # Adding a study kind
//!
//! 1. `oddsmith-scenario/src/study.rs`: the file syntax (`XSpec`), a `StudySpecs` and a `Study`
//!    field, a `Section` and `SectionKind` variant and a `build_x` function; the compiler then
//!    points at `sections`, `kind`, `counted`, `allowed_in_comparison_part`, `needs_matchup` and
//!    `build` (all exhaustive matches or destructurings).
//! 2. `oddsmith-scenario/src/lib.rs`: the file key (the `StudySpecs` literal does not compile
//!    until it is added).
//! 3. `oddsmith-study/src/<kind>.rs` with `XDoc` and `run_x`; in `lib.rs` a `StudyDoc` field and
//!    a `StudySection` variant; the compiler points at `sections()`, `run_study` and `validate`.
//! 4. `oddsmith-report/src/sections/<kind>.rs` and its arm in `study_subjects()`.
//! 5. A `scenarios/studies/*.toml` example (golden-tested). The CLI needs nothing.

pub mod asserts;
pub mod balance;
pub mod checks;
pub mod compare;
pub mod readings;
pub mod sweep;
pub mod tournament;

use oddsmith_rules::{ExactDuel, RulesError, Ruleset};
use oddsmith_scenario::{Scenario, ScenarioError, Section};
use oddsmith_sim::{DuelStats, RunConfig, SimError};
use oddsmith_stats::Proportion;
use serde::Serialize;
use thiserror::Error;

pub use asserts::{AssertDoc, evaluate_assert, evaluate_asserts};
pub use balance::{BalanceDoc, BalancePoint, BalanceStatus, run_balance};
pub use checks::{CheckCellDoc, CheckStudyDoc, run_check_study};
pub use compare::{
    BalanceIndexDoc, ComparisonDoc, PairedMatchup, PartResult, ROUNDS_PRACTICAL, StepEffect,
    balance_index, compare, paired_matchups, skill_step, validate_skill_step,
};
pub use readings::{
    BalanceReading, CostLabelReadings, Factor, MatchupReadings, ReadingDoc, factors,
    placeholders_relied_on, run_balance_readings, run_cost_readings, run_readings,
};
pub use sweep::{AxisDoc, StepDoc, SweepDoc, SweepPoint, run_sweep};
pub use tournament::{
    CostDoc, CostFit, CostPoint, FairCost, Interval, PairingDoc, RankDoc, TournamentDoc, fair_cost,
    fit_line, run_tournament,
};

/// Why a study could not be run.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum StudyError {
    /// A changed scenario is invalid (e.g. a swept value out of range).
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// The engine failed.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// The rules refused something (e.g. a check parameter).
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A `[[check]]` cell's parameters are invalid.
    #[error("check {check:?} ([[check]] number {}): {source}", index + 1)]
    Check {
        /// The check's name.
        check: String,
        /// Its index in the file.
        index: usize,
        /// What the rules said.
        source: RulesError,
    },
    /// The meta-game could not be solved.
    #[error("solving the meta-game: {0}")]
    Nash(#[from] oddsmith_stats::NashError),
}

/// A probability estimate with its 95 % Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Est {
    /// Point estimate.
    pub p: f64,
    /// 95 % interval, low end.
    pub lo: f64,
    /// 95 % interval, high end.
    pub hi: f64,
    /// Successes.
    pub successes: u64,
    /// Trials.
    pub trials: u64,
}

impl Est {
    /// From counts.
    pub fn new(successes: u64, trials: u64) -> Est {
        let pr = Proportion::from_counts(successes, trials);
        let (lo, hi) = pr.wilson95();
        Est {
            p: pr.p(),
            lo,
            hi,
            successes,
            trials,
        }
    }
    /// Whether `v` lies outside the interval.
    pub fn excludes(&self, v: f64) -> bool {
        v < self.lo || v > self.hi
    }
}

/// Everything a scenario's study sections produced.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StudyDoc {
    /// One per `[[sweep]]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sweeps: Vec<SweepDoc>,
    /// The `[balance]` result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balance: Option<BalanceDoc>,
    /// The `[tournament]` result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentDoc>,
    /// One per `[[check]]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<CheckStudyDoc>,
    /// One per `[[assert]]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub asserts: Vec<AssertDoc>,
    /// The readings study (`oddsmith run --readings` or `[readings]`): one per matchup.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub readings: Vec<MatchupReadings>,
    /// The `[balance]` solved again under each factor that moved a matchup.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub balance_readings: Vec<BalanceReading>,
    /// Per priced tournament kit, whether its cost label holds across the readings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cost_readings: Vec<CostLabelReadings>,
    /// The built-in items' placeholder statistics the fighters rely on ("spearman's spear:
    /// max_damage is a placeholder, not in the seed (2 to 4)").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub placeholders: Vec<String>,
}

/// One result of a [`StudyDoc`]: the one list of study kinds on the result side (the
/// scenario side is [`oddsmith_scenario::Section`]). A new kind is a new variant here, and
/// every `match` on a section (the report's among them) then asks for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StudySection<'a> {
    /// A `[[sweep]]` result.
    Sweep(&'a SweepDoc),
    /// The `[balance]` result.
    Balance(&'a BalanceDoc),
    /// The `[tournament]` result.
    Tournament(&'a TournamentDoc),
    /// A `[[check]]` result.
    Check(&'a CheckStudyDoc),
    /// An evaluated `[[assert]]`.
    Assert(&'a AssertDoc),
}

impl StudyDoc {
    /// Every result in report order: sweeps, balance, tournament, checks, assertions.
    pub fn sections(&self) -> impl Iterator<Item = StudySection<'_>> {
        let StudyDoc {
            sweeps,
            balance,
            tournament,
            checks,
            asserts,
            // Shown by its own table and report section, beside the study kinds.
            readings: _,
            balance_readings: _,
            cost_readings: _,
            placeholders: _,
        } = self;
        sweeps
            .iter()
            .map(StudySection::Sweep)
            .chain(balance.iter().map(StudySection::Balance))
            .chain(tournament.iter().map(StudySection::Tournament))
            .chain(checks.iter().map(StudySection::Check))
            .chain(asserts.iter().map(StudySection::Assert))
    }
    /// Whether nothing was studied.
    pub fn is_empty(&self) -> bool {
        self.sections().next().is_none()
            && self.readings.is_empty()
            && self.balance_readings.is_empty()
            && self.cost_readings.is_empty()
    }
    /// The assertions that failed.
    pub fn failed_asserts(&self) -> impl Iterator<Item = &AssertDoc> {
        self.asserts.iter().filter(|a| !a.passed)
    }
}

/// What every study needs: the scenario as loaded, its text (to build variants), the run
/// configuration, and whether to compute exact values.
#[derive(Clone, Copy, Debug)]
pub struct Ctx<'a, R: Ruleset> {
    /// File name, for error messages.
    pub file: &'a str,
    /// The scenario's text.
    pub text: &'a str,
    /// The loaded scenario.
    pub scenario: &'a Scenario<R>,
    /// Seed, trials (per point / pairing), threads.
    pub cfg: &'a RunConfig,
    /// Compute exact values where the ruleset can.
    pub exact: bool,
}

/// Checks everything a study would build before it runs, with the functions the run builds
/// it with, so a value or a pairing the rules refuse stops the run before any simulation:
/// every sweep point (each built and dropped in turn, so memory does not grow with the
/// grid), both ends of the balance range, every pairing of the tournament (both seatings).
/// Check cells and the assertions' matchups and checks were checked when the scenario was
/// loaded.
pub fn validate<R: Ruleset>(
    file: &str,
    text: &str,
    scenario: &Scenario<R>,
) -> Result<(), StudyError> {
    for section in scenario.study.sections() {
        match section {
            Section::Sweep(i, _) => sweep::validate_points(file, text, scenario, i)?,
            Section::Balance(_) => balance::validate_ends(file, text, scenario)?,
            Section::Tournament(_) => {
                tournament::each_pairing(file, text, scenario, |_, _, _| Ok(()))?;
            }
            Section::Check(..) | Section::Assert(_) => {}
        }
    }
    Ok(())
}

/// Runs every study section of the scenario (after [`validate`]): sweeps, balance,
/// tournament, checks, then the assertions against the base matchups' results (`stats`,
/// `exact`, in matchup order) and the checks. `progress(section, done)` reports trials done.
pub fn run_study<R: Ruleset>(
    ctx: &Ctx<'_, R>,
    stats: &[DuelStats],
    exact: &[Option<ExactDuel>],
    progress: &(dyn Fn(&str, u64) + Sync),
) -> Result<StudyDoc, StudyError> {
    let mut doc = StudyDoc::default();
    for section in ctx.scenario.study.sections() {
        match section {
            Section::Sweep(i, sw) => {
                doc.sweeps
                    .push(run_sweep(ctx, i, &|n| progress(&sw.name, n))?);
            }
            Section::Balance(_) => doc.balance = run_balance(ctx, &|n| progress("balance", n))?,
            Section::Tournament(_) => {
                doc.tournament = run_tournament(ctx, &|n| progress("tournament", n))?;
            }
            Section::Check(i, _) => doc.checks.push(run_check_study(ctx, i)?),
            // Assertions come last, so every check they may judge has run.
            Section::Assert(a) => doc
                .asserts
                .push(evaluate_assert(a, stats, exact, &doc.checks)),
        }
    }
    Ok(doc)
}
