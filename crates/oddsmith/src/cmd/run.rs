//! `oddsmith run FILE`: a scenario ([`scenario`]) or a ruleset comparison ([`comparison`]),
//! both built on the one matchup runner ([`matchups`]); then the report folder, the table or
//! JSON on stdout, and the `[[assert]]` verdict as the exit code.

mod comparison;
mod matchups;
mod scenario;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use oddsmith_report::{
    Meta, ReportData, comparison_table, run_table, slug, study_table, write_report,
};
use oddsmith_scenario::{is_comparison, ruleset_of};

use crate::clock;
use crate::cmd::read;
use crate::config::{ReportTo, RunSettings};
use crate::error::{AssertionsFailed, ScenarioInput};

/// Runs the file, writes the report, prints the results; fails with exit code 3 when an
/// assertion failed (after writing and printing everything).
pub(crate) fn run(
    r: RunSettings,
    command: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<()> {
    let text = read(&r.file)?;
    let ruleset = if is_comparison(&text) {
        None
    } else {
        Some(ruleset_of(&r.file, &text).map_err(ScenarioInput)?)
    };
    // One worker pool for the whole run (every matchup, study and the check grid).
    let mut data = r.threads.install(|| match &ruleset {
        Some(id) => scenario::run_scenario(id, &r, &text),
        None => comparison::run_comparison(&r, &text),
    })?;
    data.meta.command = command.to_string();
    let report = match report_dir(&r.report, &data) {
        None => None,
        Some(dir) => {
            data.meta.generated_at = clock::utc_now();
            Some(
                write_report(&dir, &data)
                    .with_context(|| format!("writing the report to {}", dir.display()))?,
            )
        }
    };
    print(&data, report.as_deref(), r.json, out, err)?;
    check_asserts(&data)
}

/// The report folder, if any: `--out`, or `reports/<scenario name>`.
fn report_dir(to: &ReportTo, data: &ReportData) -> Option<PathBuf> {
    match to {
        ReportTo::Nowhere => None,
        ReportTo::Default => Some(Path::new("reports").join(slug(&data.run.scenario))),
        ReportTo::Folder(dir) => Some(dir.clone()),
    }
}

/// The run's JSON document, or its tables, and where the report went.
fn print(
    data: &ReportData,
    report: Option<&Path>,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<()> {
    if json {
        writeln!(out, "{}", oddsmith_report::format::json_pretty(&data.run)?)?;
        if let Some(p) = report {
            writeln!(err, "report: {}", p.display())?;
        }
    } else {
        write!(out, "{}", run_table(&data.run))?;
        if let Some(st) = &data.run.study {
            write!(out, "\n{}", study_table(st))?;
        }
        if let Some(c) = &data.run.comparison {
            write!(out, "\n{}", comparison_table(c))?;
        }
        if let Some(p) = report {
            writeln!(out, "\nreport: {}", p.display())?;
        }
    }
    Ok(())
}

/// Fails (exit code 3) when an `[[assert]]` of the scenario failed, naming each.
fn check_asserts(data: &ReportData) -> Result<()> {
    let Some(st) = &data.run.study else {
        return Ok(());
    };
    let failed: Vec<String> = st
        .failed_asserts()
        .map(|f| {
            format!(
                "{}: {} = {:.4} ({}) is outside [{}, {}]",
                f.name, f.metric, f.value, f.source, f.range.0, f.range.1
            )
        })
        .collect();
    if !failed.is_empty() {
        bail!(AssertionsFailed(failed));
    }
    Ok(())
}

/// Run facts known before the run; [`run`] stamps the command line and the time.
fn meta(file: &str) -> Meta {
    Meta {
        oddsmith_version: env!("CARGO_PKG_VERSION").into(),
        generated_at: String::new(),
        scenario_file: file.into(),
        command: String::new(),
    }
}
