//! `oddsmith serve [SCENARIO.toml]`: the local explorer ([`oddsmith_serve`]) on the CLI's own
//! pipeline. [`CliEngine`] validates with [`validate::check`] (the check `run` makes), solves
//! with each ruleset's `exact`, runs previews with [`run::compute`], draws the report's charts
//! ([`oddsmith_report::sections::charts`]) and writes reports with [`run::run_text`], so the
//! page shows exactly what `oddsmith run` gives for the same text and trials.

use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use oddsmith_report::charts::{Chart, svg};
use oddsmith_report::model::ReportData;
use oddsmith_report::page::render_section_html;
use oddsmith_report::sections::charts as report_charts;
use oddsmith_report::sections::sweep::{sweep_chart_at, sweep_stem};
use oddsmith_report::sections::{Place, subjects};
use oddsmith_rules::{RULESET_IDS, Ruleset, RulesetVisitor, solver, visit};
use oddsmith_scenario::{is_comparison, ruleset_of};
#[cfg(feature = "native")]
use oddsmith_serve::files::Folder;
use oddsmith_serve::{
    ChartSvg, Charts, Checked, Diagnostic, Engine, EngineError, ExactRow, Preview, SectionHtml,
};
#[cfg(feature = "native")]
use oddsmith_serve::{Limits, Server};
use serde_json::{Value, json};

use crate::DEFAULT_TRIALS;
use crate::args::{RunArgs, ServeArgs};
use crate::cmd::rulesets::Info;
use crate::cmd::validate::{check, load_scenario};
use crate::cmd::{equipment, init, read, run, schema};
use crate::config::RunSettings;
use crate::error::{InputError, ScenarioInput};

/// Starts the explorer and serves until Ctrl-C (the process's interrupt handler ends it; no
/// file is half-written: saves are atomic and an unfinished report is undone).
#[cfg(feature = "native")]
pub(crate) fn serve(a: ServeArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<()> {
    let explicit = a.host.is_some();
    let host: IpAddr = match &a.host {
        Some(h) => h.parse().map_err(|_| {
            InputError(format!(
                "--host {h}: expected an IP address (127.0.0.1, ::1, 0.0.0.0, …)"
            ))
        })?,
        None => IpAddr::from([127, 0, 0, 1]),
    };
    let addr = oddsmith_serve::bind_address(host, a.port, explicit)
        .map_err(|e| InputError(e.to_string()))?;
    let (folder, file) = match &a.scenario {
        Some(s) => {
            // Read and checked as `run` reads it (size, encoding), so a bad file stops here.
            read(s)?;
            let p = Path::new(s);
            let dir = p
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            (
                Folder::new(dir).map_err(|e| InputError(e.to_string()))?,
                name,
            )
        }
        None => (
            Folder::new(Path::new(".")).map_err(|e| InputError(e.to_string()))?,
            None,
        ),
    };
    if !host.is_loopback() {
        writeln!(
            err,
            "warning: serving on {host}: anyone who can reach this machine can use the explorer (reads and writes stay inside {})",
            folder.root().display()
        )?;
    }
    let server = Server::new(CliEngine, folder, file, Limits::default());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .enable_time()
        .build()
        .context("starting the server's runtime")?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let url = format!("http://{}/", listener.local_addr()?);
        writeln!(out, "oddsmith explorer: {url}  (Ctrl-C stops it)")?;
        out.flush()?;
        if a.open {
            open_browser(&url, err);
        }
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        server.serve(listener, stop).await.context("serving")
    })
}

/// Opens `url` in the desktop's browser; says so when it cannot.
#[cfg(feature = "native")]
fn open_browser(url: &str, err: &mut dyn Write) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if std::process::Command::new(opener).arg(url).spawn().is_err() {
        let _ = writeln!(err, "note: could not start {opener}; open {url} yourself");
    }
}

/// Without `native` there is no server to start.
#[cfg(not(feature = "native"))]
pub(crate) fn serve(_: ServeArgs, _: &mut dyn Write, _: &mut dyn Write) -> Result<()> {
    Err(
        InputError("this build of oddsmith has no explorer server (feature `native`)".into())
            .into(),
    )
}

/// The oddsmith pipeline as the explorer's engine.
pub struct CliEngine;

/// Settings of `oddsmith run FILE --readings`'s readings study (the file's trials and seed,
/// exact values), with no report.
fn readings_settings(file: &str) -> Result<RunSettings> {
    Ok(RunSettings::try_from(RunArgs {
        scenario: file.into(),
        trials: None,
        seed: None,
        threads: None,
        precision: None,
        json: true,
        no_exact: false,
        no_report: true,
        out: None,
        max_work: None,
        yes: false,
        shard: None,
        shard_out: None,
        readings: true,
    })?)
}

/// The readings study as the explorer's panel shows it: the study's JSON, each matchup with
/// its `robustness` line and each factor with its `label` and whether it `matters` (the
/// report's rule: significant and at least the practical threshold), and the cost `lines`.
fn readings_json(st: &oddsmith_study::StudyDoc) -> Result<Value, serde_json::Error> {
    let mut readings = Vec::with_capacity(st.readings.len());
    for m in &st.readings {
        let mut v = serde_json::to_value(m)?;
        v["robustness"] = json!(m.robustness());
        if let Some(rows) = v["readings"].as_array_mut() {
            for (row, r) in rows.iter_mut().zip(&m.readings) {
                row["label"] = json!(r.label());
                row["matters"] = json!(r.matters());
            }
        }
        readings.push(v);
    }
    Ok(json!({
        "readings": readings,
        "balance_readings": serde_json::to_value(&st.balance_readings)?,
        "cost_readings": serde_json::to_value(&st.cost_readings)?,
        "placeholders": st.placeholders,
        "lines": oddsmith_report::sections::readings::cost_lines(st),
    }))
}

/// Settings of a run of `file` at `trials` trials, with no report (or the report in `out`).
fn settings(file: &str, trials: Option<u64>, out: Option<PathBuf>) -> Result<RunSettings> {
    Ok(RunSettings::try_from(RunArgs {
        scenario: file.into(),
        trials,
        seed: None,
        threads: None,
        precision: None,
        json: true,
        no_exact: out.is_none(),
        no_report: out.is_none(),
        out,
        max_work: None,
        yes: false,
        shard: None,
        shard_out: None,
        readings: false,
    })?)
}

/// The error as the page shows it: placed at its field when the loader located it.
fn diagnostic(e: &anyhow::Error) -> Diagnostic {
    match e.downcast_ref::<ScenarioInput>() {
        Some(ScenarioInput(se)) => Diagnostic {
            line: se.line,
            column: se.column,
            field: se.field.clone(),
            message: se.message.clone(),
        },
        None => Diagnostic {
            message: format!("{e:#}"),
            ..Diagnostic::default()
        },
    }
}

/// Solves every matchup of a scenario exactly, one at a time, handing each answer on.
struct Exact<'a> {
    file: &'a str,
    text: &'a str,
    cancel: &'a Arc<AtomicBool>,
    each: &'a mut dyn FnMut(ExactRow),
}

impl RulesetVisitor for Exact<'_> {
    type Output = Result<()>;
    fn visit<R: Ruleset>(self) -> Result<()> {
        let s = load_scenario::<R>(self.file, self.text)?;
        for m in &s.matchups {
            if self.cancel.load(Ordering::Relaxed) {
                break;
            }
            let solved = solver::with_stop(self.cancel.clone(), || s.ruleset.exact(&m.matchup));
            if let Some(x) = solved {
                (self.each)(ExactRow {
                    matchup: m.name.clone(),
                    p_a_win: x.p_a_win,
                    p_b_win: x.p_b_win,
                    p_draw: x.p_draw,
                });
            }
        }
        Ok(())
    }
}

impl CliEngine {
    /// [`Engine::check`] with errors as `anyhow` errors.
    fn checked(file: &str, text: &str) -> Result<Checked> {
        let c = check(file, text)?;
        Ok(Checked {
            errors: Vec::new(),
            summary: c.summary,
            ruleset: None,
            runs: c.runs,
            trials: c.sampling.trials.unwrap_or(DEFAULT_TRIALS),
            notes: c.notes,
            warnings: c
                .warnings
                .into_iter()
                .map(|w| Diagnostic {
                    line: w.line,
                    column: w.column,
                    field: w.field,
                    message: w.message,
                })
                .collect(),
        })
    }
}

/// A preview's charts: the report's own, drawn from the run's data.
struct CliCharts(ReportData);

/// A chart as the page shows it; one that fails to draw comes with the reason instead, which
/// the page shows in its place.
fn chart_svg(stem: String, sweep: Option<usize>, c: &Chart) -> ChartSvg {
    let (svg, error) = match svg(c) {
        Ok(s) => (s, None),
        Err(e) => (String::new(), Some(e.to_string())),
    };
    ChartSvg {
        stem,
        title: c.title.clone(),
        sweep,
        svg,
        error,
        caption: None,
    }
}

/// Every chart of the report of `d`, in the report's order, as the page shows them.
pub(crate) fn all_charts(d: &ReportData) -> Vec<ChartSvg> {
    charts_within(d, None)
}

/// [`all_charts`], each at most `width` pixels wide ([`narrow`]).
fn charts_within(d: &ReportData, width: Option<u32>) -> Vec<ChartSvg> {
    let sweeps = d.run.study.iter().flat_map(|s| &s.sweeps);
    let stems: Vec<String> = sweeps.enumerate().map(|(i, s)| sweep_stem(i, s)).collect();
    report_charts(d)
        .into_iter()
        .map(|(stem, mut c)| {
            let title = width.map(|w| narrow(&mut c, w));
            let sweep = stems.iter().position(|s| *s == stem);
            let svg = chart_svg(stem, sweep, &c);
            match title {
                Some(t) => captioned(svg, t),
                None => svg,
            }
        })
        .collect()
}

/// The chart of sweep `sweep` of the report of `d` with point `at` marked.
pub(crate) fn sweep_chart(d: &ReportData, sweep: usize, at: usize) -> Option<ChartSvg> {
    let sw = d.run.study.as_ref()?.sweeps.get(sweep)?;
    Some(chart_svg(
        sweep_stem(sweep, sw),
        Some(sweep),
        &sweep_chart_at(sw, at)?,
    ))
}

impl Charts for CliCharts {
    fn all(&self) -> Vec<ChartSvg> {
        all_charts(&self.0)
    }

    fn sweep(&self, sweep: usize, at: usize) -> Option<ChartSvg> {
        sweep_chart(&self.0, sweep, at)
    }

    fn all_within(&self, width: u32) -> Vec<ChartSvg> {
        charts_within(&self.0, Some(width))
    }

    fn sweep_within(&self, sweep: usize, at: usize, width: u32) -> Option<ChartSvg> {
        let sw = self.0.run.study.as_ref()?.sweeps.get(sweep)?;
        let mut c = sweep_chart_at(sw, at)?;
        let title = narrow(&mut c, width);
        Some(captioned(
            chart_svg(sweep_stem(sweep, sw), Some(sweep), &c),
            title,
        ))
    }

    fn sections(&self) -> Vec<SectionHtml> {
        result_sections(&self.0)
    }
}

/// Narrowest a chart is drawn for the page: below it, labels would crowd the plot.
const NARROWEST_CHART: u32 = 400;

/// `c` drawn at most `width` pixels wide (not below [`NARROWEST_CHART`]), its height kept,
/// and without its title (returned, for the page to show above it, wrapped): the text keeps
/// its size, so a chart shown at that width is as readable as the report's.
fn narrow(c: &mut Chart, width: u32) -> String {
    c.width = c.width.min(width.max(NARROWEST_CHART));
    std::mem::take(&mut c.title)
}

/// `svg` with its title shown by the page above it (the SVG drawn without it).
fn captioned(mut svg: ChartSvg, title: String) -> ChartSvg {
    svg.title.clone_from(&title);
    svg.caption = Some(title);
    svg
}

/// The report's sections about the results of `d` (every subject of the run's fights, such as
/// the outcomes and a group fight's members, but not the study's, which the page shows its own
/// way, nor what was run: fighters and options), as its page renders them, without charts.
pub(crate) fn result_sections(d: &ReportData) -> Vec<SectionHtml> {
    let mut fights = d.clone();
    fights.run.study = None;
    fights.run.comparison = None;
    subjects(&fights)
        .iter()
        .filter(|s| s.place() != Place::End)
        .flat_map(|s| s.sections())
        .map(|sec| SectionHtml {
            html: render_section_html(&sec, &[]),
            title: sec.title,
        })
        .collect()
}

impl Engine for CliEngine {
    fn rulesets(&self) -> Value {
        json!(
            RULESET_IDS
                .iter()
                .map(|id| visit(id, Info).expect("listed id"))
                .collect::<Vec<_>>()
        )
    }

    fn ruleset(&self, id: &str) -> Option<Value> {
        let info = visit(id, Info)?;
        let schema = schema::scenario(id)?;
        Some(json!({ "info": info, "equipment": equipment::tables(id), "schema": schema }))
    }

    fn template(&self, id: &str) -> Option<String> {
        let info = visit(id, Info)?;
        init::starter(&info, &format!("{id}-starter")).ok()
    }

    fn check(&self, file: &str, text: &str) -> Checked {
        let ruleset = if is_comparison(text) {
            None
        } else {
            ruleset_of(file, text).ok()
        };
        let mut c = Self::checked(file, text).unwrap_or_else(|e| Checked {
            errors: vec![diagnostic(&e)],
            ..Checked::default()
        });
        c.ruleset = ruleset;
        c
    }

    fn exact(
        &self,
        file: &str,
        text: &str,
        cancel: &Arc<AtomicBool>,
        each: &mut dyn FnMut(ExactRow),
    ) -> Result<(), EngineError> {
        if is_comparison(text) {
            return Ok(());
        }
        let fail = |e: anyhow::Error| EngineError::Failed(format!("{e:#}"));
        let id = ruleset_of(file, text)
            .map_err(ScenarioInput)
            .map_err(|e| fail(e.into()))?;
        let job = Exact {
            file,
            text,
            cancel,
            each,
        };
        visit(&id, job)
            .ok_or_else(|| EngineError::Failed(format!("unknown ruleset {id:?}")))?
            .map_err(fail)
    }

    fn run(
        &self,
        file: &str,
        text: &str,
        trials: u64,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Preview, EngineError> {
        if cancel.load(Ordering::Relaxed) {
            return Err(EngineError::Cancelled);
        }
        let fail = |e: anyhow::Error| EngineError::Failed(format!("{e:#}"));
        let mut r = settings(file, Some(trials), None).map_err(fail)?;
        r.cancel = cancel.clone().into();
        let data = run::compute(&r, text).map_err(fail)?;
        if cancel.load(Ordering::Relaxed) {
            return Err(EngineError::Cancelled);
        }
        let run =
            serde_json::to_value(&data.run).map_err(|e| EngineError::Failed(e.to_string()))?;
        Ok(Preview {
            run,
            charts: Arc::new(CliCharts(data)),
        })
    }

    fn readings(
        &self,
        file: &str,
        text: &str,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Option<Value>, EngineError> {
        let fail = |e: anyhow::Error| EngineError::Failed(format!("{e:#}"));
        let mut r = readings_settings(file).map_err(fail)?;
        r.cancel = cancel.clone().into();
        let st = run::readings_only(&r, text, cancel.clone());
        if cancel.load(Ordering::Relaxed) {
            return Err(EngineError::Cancelled);
        }
        match st.map_err(fail)? {
            Some(st) => readings_json(&st)
                .map(Some)
                .map_err(|e| EngineError::Failed(e.to_string())),
            None => Ok(None),
        }
    }

    fn report(&self, file: &str, text: &str, dir: &Path) -> Result<PathBuf, EngineError> {
        let fail = |e: anyhow::Error| EngineError::Failed(format!("{e:#}"));
        let r = settings(file, None, Some(dir.to_path_buf())).map_err(fail)?;
        let (mut out, mut err) = (Vec::new(), Vec::new());
        match run::run_text(&r, text, "oddsmith serve", &mut out, &mut err) {
            // A failed assertion still wrote the report.
            Ok(()) => {}
            Err(e) if e.downcast_ref::<crate::error::AssertionsFailed>().is_some() => {}
            Err(e) => return Err(fail(e)),
        }
        Ok(dir.join("report.html"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddsmith_report::charts::{HeatmapPlot, Plot};

    #[test]
    fn a_chart_that_cannot_be_drawn_comes_with_its_reason() {
        let chart = |values: Vec<Vec<f64>>| Chart {
            title: "empty grid".into(),
            width: 300,
            height: 200,
            plot: Plot::Heatmap(HeatmapPlot::probabilities(
                ("x".into(), "y".into()),
                (vec!["1".into()], vec!["1".into()]),
                values,
                "P(A wins)",
            )),
        };
        let bad = chart_svg("grid".into(), None, &chart(Vec::new()));
        assert!(bad.svg.is_empty(), "{}", bad.svg);
        let why = bad.error.expect("a reason");
        assert!(why.contains("empty grid") && why.contains("rows"), "{why}");
        let good = chart_svg("grid".into(), Some(0), &chart(vec![vec![0.4]]));
        assert!(
            good.error.is_none() && good.svg.starts_with("<svg"),
            "{:?}",
            good.error
        );
    }
}
