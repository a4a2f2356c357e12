//! `[[check]]`: a check or a grid of checks, exact with Monte Carlo beside.

use oddsmith_dice::seeds;
use oddsmith_rules::Ruleset;
use oddsmith_sim::{RunConfig, run_check};
use serde::Serialize;

use crate::{Ctx, Est, StudyError};

/// Most Monte Carlo rolls per check cell (checks are cheap but grids can be large).
pub const MAX_CHECK_TRIALS: u64 = 200_000;

/// One cell of a check study.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckCellDoc {
    /// Row parameter value, if a grid.
    pub row: Option<String>,
    /// Column parameter value, if a grid.
    pub col: Option<String>,
    /// What the ruleset says was checked.
    pub description: String,
    /// Exact P(success).
    pub exact: f64,
    /// Monte Carlo P(success) with its interval.
    pub monte_carlo: Est,
}

/// The result of one `[[check]]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckStudyDoc {
    /// Name.
    pub name: String,
    /// Fixed parameters (`key=value`).
    pub params: Vec<(String, String)>,
    /// Row parameter, if a grid.
    pub row_param: Option<String>,
    /// Column parameter, if a grid.
    pub col_param: Option<String>,
    /// Number of columns of the grid (1 without a column parameter).
    pub columns: usize,
    /// Cells, row-major.
    pub cells: Vec<CheckCellDoc>,
}

/// Runs `[[check]]` number `index`. Cell *k* runs on
/// [`seeds::check_cell_seed`] of the run's seed.
pub fn run_check_study<R: Ruleset>(
    ctx: &Ctx<'_, R>,
    index: usize,
) -> Result<CheckStudyDoc, StudyError> {
    let cs = &ctx.scenario.study.checks[index];
    let rules = &ctx.scenario.ruleset;
    let mut cells = Vec::new();
    for (r, c) in cs.cells() {
        let check = rules.parse_check(&cs.cell_params(r, c))?;
        let exact = rules.check_exact(&check);
        let cfg = RunConfig {
            seed: seeds::check_cell_seed(ctx.cfg.seed, index, cells.len()),
            trials: ctx.cfg.trials.min(MAX_CHECK_TRIALS),
            precision: None,
            threads: None,
            units: ctx.cfg.units.clone(),
            cancel: ctx.cfg.cancel.clone(),
        };
        let mc = run_check(rules, &check, exact.distribution.min(), &cfg, &|_| {})?;
        cells.push(CheckCellDoc {
            row: r.map(str::to_string),
            col: c.map(str::to_string),
            description: exact.description.clone(),
            exact: exact.p_success(),
            monte_carlo: Est::new(mc.success.successes, mc.success.trials),
        });
    }
    Ok(CheckStudyDoc {
        name: cs.name.clone(),
        params: cs
            .params
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        row_param: cs.rows.as_ref().map(|a| a.param.clone()),
        col_param: cs.cols.as_ref().map(|a| a.param.clone()),
        columns: cs.cols.as_ref().map_or(1, |a| a.values.len()),
        cells,
    })
}
