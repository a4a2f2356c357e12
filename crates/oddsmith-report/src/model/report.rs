//! Everything a written report is built from: the run document and what only the run has
//! (accumulators, exact solutions, the check grid, fighters, the CLI's stamp).

use oddsmith_rules::ExactDuel;
use oddsmith_sim::DuelStats;
use oddsmith_stats::Proportion;

use super::run::RunDoc;

/// Facts about the run that only the CLI knows (it stamps the time; the core never reads a
/// clock).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// oddsmith's version.
    pub oddsmith_version: String,
    /// When the run finished, UTC, ISO 8601.
    pub generated_at: String,
    /// The scenario file as given on the command line.
    pub scenario_file: String,
    /// The command line that produced the report.
    pub command: String,
}

/// One cell of a ruleset's check grid, exact and sampled.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckCell {
    /// Row value (e.g. skill).
    pub row: i64,
    /// Column label (e.g. difficulty name).
    pub col: String,
    /// Column value (e.g. target number).
    pub col_value: i64,
    /// Exact P(success).
    pub exact: f64,
    /// Monte Carlo successes out of trials.
    pub mc: Proportion,
}

/// A ruleset's check grid (rows × columns).
#[derive(Clone, Debug, PartialEq)]
pub struct CheckGridData {
    /// What the rows are (e.g. "skill").
    pub row_name: String,
    /// What the columns are (e.g. "difficulty").
    pub col_name: String,
    /// What the column values are (e.g. "tn").
    pub col_value_name: String,
    /// Cells, row-major.
    pub cells: Vec<CheckCell>,
}

/// A fighter as run.
#[derive(Clone, Debug, PartialEq)]
pub struct FighterData {
    /// Name in the scenario.
    pub name: String,
    /// The spec as written, with defaults filled in.
    pub spec: serde_json::Value,
    /// Derived figures from the ruleset (label, value).
    pub facts: Vec<(String, String)>,
}

/// Input of `write_report` (everything a written report is built from).
#[derive(Clone, Debug)]
pub struct ReportData {
    /// The result document (also printed by `--json`).
    pub run: RunDoc,
    /// Accumulators per matchup, in `run.matchups` order.
    pub stats: Vec<DuelStats>,
    /// Exact solutions per matchup, where known.
    pub exact: Vec<Option<ExactDuel>>,
    /// The ruleset's check grid, if it has one.
    pub checks: Option<CheckGridData>,
    /// Every fighter of the scenario, by name.
    pub fighters: Vec<FighterData>,
    /// Run facts stamped by the CLI.
    pub meta: Meta,
    /// Notes on how the figures were obtained (e.g. no exact value, and why), in plain words.
    pub notes: Vec<String>,
}
