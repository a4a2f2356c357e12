//! `oddsmith run FILE`: a scenario ([`scenario`]) or a ruleset comparison ([`comparison`]),
//! both built on the one matchup runner ([`matchups`]); then the report folder, the table or
//! JSON on stdout, and the `[[assert]]` verdict as the exit code.

mod comparison;
mod matchups;
mod scenario;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use oddsmith_report::{
    Meta, ReportData, check_destination, comparison_table, run_table, slug, study_table,
    write_report,
};
use oddsmith_rules::solver::MAX_WORK;
use oddsmith_scenario::{is_comparison, name_of, ruleset_of};

use crate::cmd::validate::{Checked, check, print_warnings};
use crate::cmd::{merge, read};
use crate::config::{ReportTo, RunSettings};
use crate::error::{AssertionsFailed, InputError, Interrupted, ReportNotWritten, ScenarioInput};
use crate::{clock, interrupt};

/// Runs the file, writes the report, prints the results; fails with exit code 3 when an
/// assertion failed (after writing and printing everything). With `--shard`, runs the shard's
/// share and writes the shard file instead.
pub(crate) fn run(
    r: RunSettings,
    command: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<()> {
    let text = read(&r.file)?;
    // The whole file is checked (every part and study variant) before any work: the same
    // check `validate` makes.
    let checked = check(&r.file, &text)?;
    print_warnings(&checked.warnings, err)?;
    for n in &checked.notes {
        writeln!(err, "note: {n}")?;
    }
    foresee(&r, &checked, is_comparison(&text), err)?;
    if let Some(shard) = r.units.shard_of() {
        return merge::write_shard(&r, &text, shard, out);
    }
    run_text(&r, &text, command, out, err)
}

/// Runs the file's text `text` (its accumulators from `r.units`); writes the report and
/// prints the results as [`run`] does.
pub(crate) fn run_text(
    r: &RunSettings,
    text: &str,
    command: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<()> {
    // Where the report goes is checked before any work, so a bad `--out` costs nothing.
    let name = name_of(text);
    let dir = name.as_deref().and_then(|n| report_dir(&r.report, n));
    if let (Some(dir), Some(name)) = (&dir, &name) {
        check_destination(dir, name).map_err(|e| InputError(e.to_string()))?;
    }
    let computed = {
        let _computing = interrupt::computing();
        compute(r, text)
    };
    if let Some((signal, code)) = interrupt::stopped_by() {
        return Err(partial(computed.ok(), signal, code, r.json, out)?.into());
    }
    let mut data = computed?;
    // A merged run must have used every unit of its shards.
    r.units.finish()?;
    data.meta.command = command.to_string();
    // The results are printed first: a report that cannot be written loses nothing.
    print(&data, r.json, out)?;
    out.flush()?;
    let _printed = interrupt::printed();
    for n in &data.notes {
        writeln!(err, "note: {n}")?;
    }
    for m in &data.run.matchups {
        if let Some(p) = m.precision.filter(|p| !p.met) {
            writeln!(
                err,
                "note: {}: the precision target ±{} was not reached: the trial cap stopped the run at {} duels with ±{:.4}; raise --trials",
                m.name, p.target, m.trials, p.reached
            )?;
        }
    }
    if let Some(dir) = report_dir(&r.report, &data.run.scenario) {
        data.meta.generated_at = clock::utc_now();
        let _writing = interrupt::writing(&dir);
        let report = write_report(&dir, &data).map_err(|e| {
            ReportNotWritten(format!(
                "the results above are complete, but the report could not be written to {}: {e}",
                dir.display()
            ))
        })?;
        if r.json {
            writeln!(err, "report: {}", report.display())?;
        } else {
            writeln!(out, "\nreport: {}", report.display())?;
        }
    }
    check_asserts(&data)
}

/// After SIGINT or SIGTERM stopped the computation: prints the matchups that finished (every
/// trial of each ran, so their numbers are the seed's), marked partial, and says what was not
/// run. No report is written and no assertion checked.
fn partial(
    data: Option<ReportData>,
    signal: &str,
    code: u8,
    json: bool,
    out: &mut dyn Write,
) -> Result<Interrupted> {
    let run = match data {
        Some(d) if !d.run.matchups.is_empty() => d.run,
        d => {
            let when = if d.is_some() {
                "before any matchup finished"
            } else {
                "before the run finished"
            };
            return Ok(Interrupted {
                code,
                message: format!("interrupted by {signal}: stopped {when}, no results"),
            });
        }
    };
    let done = run.matchups.len();
    let what = format!(
        "interrupted by {signal}: partial results: the {done} matchup(s) shown finished; the rest of the run (later matchups, the study, the check grid) did not; no report was written"
    );
    if json {
        let mut v = serde_json::to_value(&run)?;
        if let Some(o) = v.as_object_mut() {
            o.insert(
                "partial".into(),
                serde_json::json!({ "signal": signal, "matchups_finished": done }),
            );
        }
        writeln!(out, "{}", oddsmith_report::format::json_pretty(&v)?)?;
    } else {
        writeln!(
            out,
            "PARTIAL RESULTS ({signal}): the run was stopped; only these matchups finished\n"
        )?;
        write!(out, "{}", run_table(&run))?;
    }
    Ok(Interrupted {
        code,
        message: what,
    })
}

/// Exact solves from which their number and bound are printed before the run.
const MANY_EXACT_SOLVES: u64 = 100;

/// Runs estimated at or above this many duels get the estimate printed before they start.
const LONG_RUN_DUELS: u64 = 100_000_000;

/// The work the file asks for (runs × trials, each duel counted at what a pilot of a few
/// of the file's duels found it costs) checked against the limit before any work, and
/// printed when the run is long.
fn foresee(r: &RunSettings, c: &Checked, comparison: bool, err: &mut dyn Write) -> Result<()> {
    let cfg = if comparison {
        r.sampling.for_comparison(c.sampling)?
    } else {
        r.sampling.for_scenario(c.sampling)
    };
    // The readings study, when asked for, is one paired run per matchup of the baseline and
    // every factor.
    let readings = (r.readings || c.readings.in_file) && !comparison;
    let (runs, per_trial) = if readings {
        (
            c.runs + c.readings.runs,
            c.work_per_trial + c.readings.work_per_trial,
        )
    } else {
        (c.runs, c.work_per_trial)
    };
    let total = runs.saturating_mul(cfg.trials);
    // In ordinary duels (about ten million a second).
    let work = per_trial * cfg.trials as f64;
    let upto = if cfg.precision.is_some() {
        "up to "
    } else {
        ""
    };
    let mut what = format!(
        "{upto}{} duels and rolls ({} runs × {} trials)",
        sci(total),
        runs,
        cfg.trials
    );
    if readings {
        what += &format!(
            ", of which {} runs are the readings study ({} factors)",
            c.readings.runs, c.readings.factors
        );
    }
    if let Some(p) = c.pilot.filter(|p| p.cost > 1.0) {
        what += &format!(
            ", and its duels are long: about {} rounds each in a pilot of {} duels, so the work is that of {} ordinary duels",
            sci(p.rounds.round() as u64),
            p.duels,
            sci(work as u64)
        );
    }
    if work > r.max_work as f64 {
        bail!(InputError(format!(
            "{}: this run would simulate {what}, more than the limit of {} ordinary duels (at about ten million a second: {}); lower `trials` (or --trials), or pass --max-work N or --yes to run it anyway",
            r.file,
            sci(r.max_work),
            duration(work)
        )));
    }
    // The exact solver cannot tell its state count before it solves; its budget bounds it.
    if r.exact && c.solves_exactly && c.duel_runs >= MANY_EXACT_SOLVES {
        writeln!(
            err,
            "note: up to {} exact solves (one per matchup, sweep point and seating), each stopped at {} steps (about half a minute at worst); --no-exact skips them",
            c.duel_runs,
            sci(MAX_WORK)
        )?;
    }
    if work >= LONG_RUN_DUELS as f64 {
        writeln!(
            err,
            "note: this run simulates {what}: about {} at ten million ordinary duels a second",
            duration(work)
        )?;
    }
    Ok(())
}

/// `1.2e11`, or the number itself below a million.
fn sci(n: u64) -> String {
    if n < 1_000_000 {
        n.to_string()
    } else {
        format!("{:.1e}", n as f64)
    }
}

/// A rough duration of `duels` ordinary duels at ten million a second: `40 seconds`,
/// `3 hours`, `10 months`, `2 years`.
fn duration(duels: f64) -> String {
    let s = duels / 1e7;
    let (v, unit) = if s < 120.0 {
        (s, "seconds")
    } else if s < 7200.0 {
        (s / 60.0, "minutes")
    } else if s < 172_800.0 {
        (s / 3600.0, "hours")
    } else if s < 5_184_000.0 {
        (s / 86_400.0, "days")
    } else if s < 63_072_000.0 {
        (s / 2_629_800.0, "months")
    } else {
        (s / 31_536_000.0, "years")
    };
    format!("{v:.0} {unit}")
}

/// Runs every matchup, study and check of `text` on one worker pool.
pub(crate) fn compute(r: &RunSettings, text: &str) -> Result<ReportData> {
    let ruleset = if is_comparison(text) {
        None
    } else {
        Some(ruleset_of(&r.file, text).map_err(ScenarioInput)?)
    };
    r.threads.install(|| match &ruleset {
        Some(id) => scenario::run_scenario(id, r, text),
        None => comparison::run_comparison(r, text),
    })
}

/// The readings study of `text` alone, as `run --readings` computes it beside the run (`None`
/// for a comparison file, which has none, and for a file whose matchups use no factor). An
/// exact solve under way gives up once `stop` is raised.
pub(crate) fn readings_only(
    r: &RunSettings,
    text: &str,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Result<Option<oddsmith_study::StudyDoc>> {
    if is_comparison(text) {
        return Ok(None);
    }
    let id = ruleset_of(&r.file, text).map_err(ScenarioInput)?;
    r.threads.install(|| {
        oddsmith_rules::solver::with_stop(stop, || scenario::readings_study(&id, r, text))
    })
}

/// The report folder, if any: `--out`, or `reports/<scenario name>`.
fn report_dir(to: &ReportTo, scenario: &str) -> Option<PathBuf> {
    match to {
        ReportTo::Nowhere => None,
        ReportTo::Default => Some(Path::new("reports").join(slug(scenario))),
        ReportTo::Folder(dir) => Some(dir.clone()),
    }
}

/// The run's JSON document, or its tables.
fn print(data: &ReportData, json: bool, out: &mut dyn Write) -> Result<()> {
    if json {
        writeln!(out, "{}", oddsmith_report::format::json_pretty(&data.run)?)?;
    } else {
        write!(out, "{}", run_table(&data.run))?;
        if let Some(st) = &data.run.study {
            write!(out, "\n{}", study_table(st))?;
        }
        if let Some(c) = &data.run.comparison {
            write!(out, "\n{}", comparison_table(c))?;
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
