//! Running one scenario file: its matchups, its study sections, and (for the report) the
//! ruleset's check grid.

use anyhow::{Result, bail};
use oddsmith_dice::seeds;
use oddsmith_report::{CheckCell, CheckGridData, ReportData, RunDoc};
use oddsmith_rules::{Ruleset, RulesetVisitor, visit};
use oddsmith_scenario::Scenario;
use oddsmith_sim::{RunConfig, Shard, run_check};
use oddsmith_study::{Ctx, StudyDoc, run_study};

use super::matchups::{BaseRun, run_base};
use crate::cmd::validate::{load_scenario, readings_factors};
use crate::config::{FileSampling, ReportTo, RunSettings};
use crate::error::{InputError, study_input};
use crate::{CHECK_GRID_TRIALS, interrupt, progress};

/// Runs the scenario `text` of ruleset `id` (checked by `ruleset_of`).
pub(super) fn run_scenario(id: &str, r: &RunSettings, text: &str) -> Result<ReportData> {
    visit(id, RunScenario { r, text }).expect("ruleset_of checked the id")
}

struct RunScenario<'a> {
    r: &'a RunSettings,
    text: &'a str,
}

impl RulesetVisitor for RunScenario<'_> {
    type Output = Result<ReportData>;
    fn visit<R: Ruleset>(self) -> Result<ReportData> {
        let (r, file, text) = (self.r, self.r.file.as_str(), self.text);
        let s = load_scenario::<R>(file, text)?;
        let cfg = run_config(r, &s);
        if let Some(shard) = r.units.shard_of() {
            refuse_shard(&s, &cfg, shard)?;
        }
        let base: BaseRun = run_base(&s, &cfg, r.exact, "")?;
        let study = if s.study.is_empty() || base.stopped {
            None
        } else {
            let ctx = Ctx {
                file,
                text,
                scenario: &s,
                cfg: &cfg,
                exact: r.exact,
            };
            // A study the cancel flag stopped is left out, as the matchups not run are.
            match study(&ctx, &base) {
                Err(_) if interrupt::stopped_by().is_some() => None,
                r => Some(r?),
            }
        };
        let wants_readings = (r.readings || s.readings.is_some()) && !base.stopped;
        let study = if wants_readings && interrupt::stopped_by().is_none() {
            let ctx = Ctx {
                file,
                text,
                scenario: &s,
                cfg: &cfg,
                exact: r.exact,
            };
            match readings(&ctx) {
                Err(_) if interrupt::stopped_by().is_some() => study,
                Err(e) => return Err(e),
                Ok((rd, br, cr)) => {
                    let mut doc = study.unwrap_or_default();
                    doc.readings = rd;
                    doc.balance_readings = br;
                    doc.cost_readings = cr;
                    doc.placeholders = oddsmith_study::placeholders_relied_on(text, &s);
                    Some(doc)
                }
            }
        } else {
            study
        };
        // The ruleset's check grid only where the file asks about checks: one with [[check]]
        // sections, or a file with nothing else to show (no matchup, no study). A tournament
        // or balance study without matchups is not a check study.
        let asks_checks =
            !s.study.checks.is_empty() || (s.matchups.is_empty() && s.study.is_empty());
        // It is for the report; shards run it whatever theirs, as their merge may write one.
        let checks = if interrupt::stopped_by().is_some() {
            None
        } else if asks_checks && (r.report != ReportTo::Nowhere || !r.units.is_all()) {
            check_grid(&s.ruleset, &cfg)?
        } else {
            None
        };
        Ok(ReportData {
            run: RunDoc {
                scenario: s.name,
                ruleset: R::ID.into(),
                seed: cfg.seed,
                description: s.description,
                options: base.options,
                matchups: base.matchups,
                study,
                comparison: None,
                warnings: s.warnings,
            },
            stats: base.stats,
            exact: base.exact,
            checks,
            fighters: base.fighters,
            meta: super::meta(file),
            notes: base.notes,
        })
    }
}

/// The readings study of the scenario `text` of ruleset `id` alone (the explorer's "depends
/// on" panel): the study `oddsmith run --readings` adds to the run, at the same trials and
/// seed, so its figures are the run's to the digit. `None` when the file's matchups use no
/// factor.
pub(crate) fn readings_study(id: &str, r: &RunSettings, text: &str) -> Result<Option<StudyDoc>> {
    visit(id, ReadingsOnly { r, text }).expect("ruleset_of checked the id")
}

/// The run's sampling for a loaded scenario: the command line's settings over the file's.
fn run_config<R: Ruleset>(r: &RunSettings, s: &Scenario<R>) -> RunConfig {
    RunConfig {
        units: r.units.clone(),
        cancel: r.cancel.clone(),
        ..r.sampling.for_scenario(FileSampling {
            trials: s.trials,
            precision: s.precision,
            seed: s.seed,
        })
    }
}

struct ReadingsOnly<'a> {
    r: &'a RunSettings,
    text: &'a str,
}

impl RulesetVisitor for ReadingsOnly<'_> {
    type Output = Result<Option<StudyDoc>>;
    fn visit<R: Ruleset>(self) -> Result<Option<StudyDoc>> {
        let (r, file, text) = (self.r, self.r.file.as_str(), self.text);
        let s = load_scenario::<R>(file, text)?;
        let cfg = run_config(r, &s);
        let ctx = Ctx {
            file,
            text,
            scenario: &s,
            cfg: &cfg,
            exact: r.exact,
        };
        let (rd, br, cr) = readings(&ctx)?;
        if rd.is_empty() && br.is_empty() && cr.is_empty() {
            return Ok(None);
        }
        Ok(Some(StudyDoc {
            readings: rd,
            balance_readings: br,
            cost_readings: cr,
            placeholders: oddsmith_study::placeholders_relied_on(text, &s),
            ..StudyDoc::default()
        }))
    }
}

/// Refuses `--shard` where the work is sequential: a run to a precision target (where it
/// stops depends on every chunk before) and a `[balance]` search (each step depends on the
/// results before it): these run in one job. A readings study shards: its paired runs are
/// fixed by the file (its factors), not by the results before them; only its `[balance]`
/// part would be, and a `[balance]` is refused.
fn refuse_shard<R: Ruleset>(s: &Scenario<R>, cfg: &RunConfig, shard: Shard) -> Result<()> {
    if cfg.precision.is_some() {
        bail!(InputError(format!(
            "--shard {shard}: this scenario runs to a precision target, which cannot be sharded \
             (where a run stops depends on every chunk before); run it in one job, or give \
             --trials without --precision (a fixed number of trials, which overrides the \
             file's precision)"
        )));
    }
    if s.study.balance.is_some() {
        bail!(InputError(format!(
            "--shard {shard}: a [balance] search cannot be sharded (each step depends on the \
             results before it); run this scenario in one job"
        )));
    }
    Ok(())
}

/// Runs the readings study: every matchup against each factor the file uses
/// ([`readings_factors`]), paired with its baseline.
/// With a `[balance]`, the search is solved again under each factor that moved a matchup;
/// with a priced `[tournament]`, it runs again under every factor.
fn readings<R: Ruleset>(
    ctx: &Ctx<'_, R>,
) -> Result<(
    Vec<oddsmith_study::MatchupReadings>,
    Vec<oddsmith_study::BalanceReading>,
    Vec<oddsmith_study::CostLabelReadings>,
)> {
    let factors = readings_factors(ctx.file, ctx.text, ctx.scenario);
    let bar = progress::Bar::new("readings", 0, true);
    let doc = oddsmith_study::run_readings(ctx, &factors, &|n| bar.inc(n)).map_err(study_input)?;
    let balance = oddsmith_study::run_balance_readings(ctx, &factors, &doc, &|n| bar.inc(n))
        .map_err(study_input)?;
    let costs =
        oddsmith_study::run_cost_readings(ctx, &factors, &|n| bar.inc(n)).map_err(study_input)?;
    bar.finish();
    Ok((doc, balance, costs))
}

/// Runs the scenario's study sections against its base matchups' results.
fn study<R: Ruleset>(ctx: &Ctx<'_, R>, base: &BaseRun) -> Result<StudyDoc> {
    let bar = progress::Bar::new("study", 0, true);
    let doc = run_study(ctx, &base.stats, &base.exact, &|_, n| bar.inc(n)).map_err(study_input)?;
    bar.finish();
    Ok(doc)
}

/// Exact and Monte Carlo values of the ruleset's check grid. Cell *i* runs on
/// [`seeds::grid_cell_seed`] of the run's seed, so the grid is as reproducible as the duels.
fn check_grid<R: Ruleset>(rules: &R, run: &RunConfig) -> Result<Option<CheckGridData>> {
    let Some(g) = rules.check_grid() else {
        return Ok(None);
    };
    let mut cells = Vec::with_capacity(g.cells.len());
    for (i, (row, col, col_value, check)) in g.cells.iter().enumerate() {
        let exact = rules.check_exact(check);
        let cfg = RunConfig {
            seed: seeds::grid_cell_seed(run.seed, i),
            trials: CHECK_GRID_TRIALS,
            precision: None,
            threads: None,
            units: run.units.clone(),
            cancel: run.cancel.clone(),
        };
        let mc = run_check(rules, check, exact.distribution.min(), &cfg, &|_| {})?;
        cells.push(CheckCell {
            row: *row,
            col: col.clone(),
            col_value: *col_value,
            exact: exact.p_success(),
            mc: mc.success,
        });
    }
    Ok(Some(CheckGridData {
        row_name: g.row_name.into(),
        col_name: g.col_name.into(),
        col_value_name: g.col_value_name.into(),
        cells,
    }))
}
