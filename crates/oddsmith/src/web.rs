//! The pipeline as the browser build calls it (`oddsmith-web`, WebAssembly; this crate
//! without its `native` feature): the explorer's engine ([`CliEngine`]), and a run cut into
//! shards — the `--shard K/N` units of `oddsmith run` — that the page's Web Workers compute
//! one each ([`run_shard`]) and that are then summed and finished as `oddsmith merge` does
//! ([`merge_shards`]), so the page's numbers are those of `oddsmith run FILE --json`, bit for
//! bit, whatever the number of workers. [`report_html`] is the report's own page, charts
//! inlined, as one self-contained HTML file (no tables: they need polars).

use anyhow::{Result, bail};
use oddsmith_report::model::ReportData;
use oddsmith_report::page::{Figure, render_html};
use oddsmith_report::{charts, sections};
use oddsmith_sim::{UnitRecord, Units, add_shard};

pub use crate::cmd::serve::CliEngine;

use crate::args::RunArgs;
use crate::cmd::run::compute;
use crate::config::RunSettings;

/// A run of `file`'s text as `oddsmith run FILE --json --no-report [--trials T] [--no-exact]`
/// would make it, its units from `shard` (`K/N`) when given.
fn settings(
    file: &str,
    trials: Option<u64>,
    exact: bool,
    shard: Option<String>,
) -> Result<RunSettings> {
    Ok(RunSettings::try_from(RunArgs {
        scenario: file.into(),
        trials,
        seed: None,
        threads: None,
        precision: None,
        json: true,
        no_exact: !exact,
        no_report: true,
        out: None,
        max_work: None,
        yes: true,
        shard,
        shard_out: None,
        readings: false,
    })?)
}

/// Runs shard `k` of `n` of the text's run (every `n`-th chunk of trials of every unit, from
/// the `k`-th): the shard's accumulators, one per unit in run order, as JSON (the `units` of
/// a shard file).
pub fn run_shard(
    file: &str,
    text: &str,
    trials: Option<u64>,
    exact: bool,
    k: u64,
    n: u64,
) -> Result<String> {
    let r = settings(file, trials, exact, Some(format!("{k}/{n}")))?;
    compute(&r, text)?;
    Ok(serde_json::to_string(&r.units.finish()?)?)
}

/// The whole run in one piece, as `oddsmith run FILE --json` makes it: for what cannot be cut
/// into shards (a `[balance]` search, whose every step depends on the results before it).
pub fn whole(file: &str, text: &str, trials: Option<u64>, exact: bool) -> Result<ReportData> {
    compute(&settings(file, trials, exact, None)?, text)
}

/// The run fed the sums of the shards' accumulators ([`run_shard`]'s answers, every shard
/// from 1 to N once), as `oddsmith merge` finishes it; exact values are solved here.
pub fn merged(
    file: &str,
    text: &str,
    trials: Option<u64>,
    exact: bool,
    shards: &[String],
) -> Result<ReportData> {
    let Some((first, rest)) = shards.split_first() else {
        bail!("no shards to merge");
    };
    let mut total: Vec<UnitRecord> = serde_json::from_str(first)?;
    for s in rest {
        add_shard(&mut total, serde_json::from_str(s)?)?;
    }
    let mut r = settings(file, trials, exact, None)?;
    r.units = Units::merged(total);
    let data = compute(&r, text)?;
    // Every unit of the shards was used.
    r.units.finish()?;
    Ok(data)
}

/// The run's JSON document (`oddsmith run --json`) from its shards ([`merged`]).
pub fn merge_shards(
    file: &str,
    text: &str,
    trials: Option<u64>,
    exact: bool,
    shards: &[String],
) -> Result<String> {
    let data = merged(file, text, trials, exact, shards)?;
    Ok(oddsmith_report::format::json_pretty(&data.run)?)
}

/// The report's page of a run, as one HTML file with its charts inline as SVG (the report
/// folder's `report.html` without the table files).
pub fn report_html(data: &ReportData) -> Result<String> {
    let mut figures = Vec::new();
    for (stem, chart) in sections::charts(data) {
        // As the report folder: a chart that cannot be drawn is an error (in the browser, the
        // page registers the chart font first: `charts::use_font`).
        let svg = charts::svg(&chart)?;
        figures.push(Figure {
            stem,
            title: chart.title,
            svg,
        });
    }
    Ok(render_html(&sections::page(data, &[], figures)))
}

/// Every chart of the report of `data`, as the explorer's page shows them.
pub fn charts(data: &ReportData) -> Vec<oddsmith_serve::ChartSvg> {
    crate::cmd::serve::all_charts(data)
}

/// The chart of sweep `sweep` (0-based, the report's order) with point `at` marked.
pub fn sweep_chart(data: &ReportData, sweep: usize, at: usize) -> Option<oddsmith_serve::ChartSvg> {
    crate::cmd::serve::sweep_chart(data, sweep, at)
}

/// The report's sections on the results of `data` (the explorer's "report sections": the
/// outcomes, and a group fight's members where the report has them), as HTML.
pub fn sections(data: &ReportData) -> Vec<oddsmith_serve::SectionHtml> {
    crate::cmd::serve::result_sections(data)
}
