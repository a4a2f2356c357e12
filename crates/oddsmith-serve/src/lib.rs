//! `oddsmith serve`: the local explorer. A small HTTP server (axum on tokio, HTTP/1 only, no
//! TLS) serves one embedded page (HTML, JS and CSS, no build step, nothing from the network)
//! where a designer edits a scenario as a form or as TOML and sees live answers: validation
//! messages at the field, a Monte Carlo preview that refines in stages (a first one sized to
//! answer at once, then 20k → 200k → the file's trials) with exact values streamed beside it,
//! the report's charts, a house-rule B column, and sweep sliders.
//!
//! The server knows nothing of rulesets: everything it computes goes through an [`Engine`]
//! (the CLI implements it with its own validation, run and report code), so this crate holds
//! only what is about serving: sessions and the per-session token, job control with
//! cancellation ([`jobs`]: a page's job is cancelled by its next edit, by closing the page, or
//! when the page stops polling), limits on what a request may cost ([`Limits`]), path safety
//! ([`files`]), TOML edits that keep comments ([`edit`]) and the page.
//!
//! A job runs its Monte Carlo stages (a first one of about 10k duels in all, then 20k, 200k,
//! the file's trials) with the exact solves on a second thread beside them, each under the
//! job's stop flag; the page's poll waits for the job's next version. `files::Folder` is the
//! only folder read or written; save refuses a file whose contents changed on disk since it was
//! loaded (by a hash of the contents). `edit` also writes the house-rule A/B comparison file;
//! `bundled` holds the scenarios embedded by `build.rs`; `page/` is one HTML/JS/CSS set
//! (`include_str!`). Every POST needs the session token and the same origin; nothing is
//! served beyond the one port.

pub mod bundled;
pub mod edit;
#[cfg(feature = "server")]
pub mod files;
#[cfg(feature = "server")]
pub mod jobs;
#[cfg(feature = "server")]
mod server;

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde::Serialize;
use serde_json::Value;

#[cfg(feature = "server")]
pub use server::{Server, router};

/// What the server asks of the oddsmith pipeline. Every method is blocking and is called off
/// the async runtime; `exact` and `run` are called from a page's job and stop soon after
/// `cancel` is raised.
pub trait Engine: Send + Sync + 'static {
    /// The rulesets: a JSON array of `{id, title, summary}`.
    fn rulesets(&self) -> Value;
    /// One ruleset's declarations (the `oddsmith rulesets ID --json` document) under `info`,
    /// its built-in equipment tables under `equipment` and its scenario files' JSON Schema
    /// (`oddsmith schema ID`) under `schema`; `None` for an unknown id.
    fn ruleset(&self, id: &str) -> Option<Value>;
    /// The `oddsmith init` starter scenario of ruleset `id`.
    fn template(&self, id: &str) -> Option<String>;
    /// Validates the text as `oddsmith validate` does (no solving: it answers at once).
    fn check(&self, file: &str, text: &str) -> Checked;
    /// Solves the text's matchups exactly where the ruleset can, one at a time, handing each
    /// answer to `each` as it comes; stops without an error once `cancel` is raised (a solve
    /// under way gives up at its next state).
    fn exact(
        &self,
        file: &str,
        text: &str,
        cancel: &Arc<AtomicBool>,
        each: &mut dyn FnMut(ExactRow),
    ) -> Result<(), EngineError>;
    /// Runs the text with `trials` trials per run (no report, no exact solves): the run's JSON
    /// document (`oddsmith run --json`) and its charts; gives [`EngineError::Cancelled`] once
    /// `cancel` is raised (the run stops at its next chunk).
    fn run(
        &self,
        file: &str,
        text: &str,
        trials: u64,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Preview, EngineError>;
    /// Runs the text at its own trials and writes the report folder `dir`; returns the path of
    /// the report's page.
    fn report(&self, file: &str, text: &str, dir: &Path) -> Result<PathBuf, EngineError>;
    /// The readings study of the text (`oddsmith run FILE --readings`: the file's trials and
    /// seed, exact values where the ruleset solves): a JSON object with the study's `readings`
    /// (one per matchup, each with its `robustness` line and, per factor, whether it
    /// `matters`), `balance_readings`, `cost_readings`, `placeholders` and `lines` (the
    /// balance and cost lines as the report words them). `None` where there is no such study
    /// (a comparison file, or an engine without it). Stops like [`Engine::run`].
    fn readings(
        &self,
        file: &str,
        text: &str,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Option<Value>, EngineError> {
        let _ = (file, text, cancel);
        Ok(None)
    }
}

/// A finished preview stage: the run document and what draws its charts.
pub struct Preview {
    /// The run's JSON document.
    pub run: Value,
    /// The report's charts of this result, drawn on request.
    pub charts: Arc<dyn Charts>,
}

/// The report's charts of one result, drawn when the page asks for them.
pub trait Charts: Send + Sync {
    /// Every chart of the report, in the report's order.
    fn all(&self) -> Vec<ChartSvg>;
    /// The chart of sweep `sweep` (0-based, the report's order) with point `at` marked.
    fn sweep(&self, sweep: usize, at: usize) -> Option<ChartSvg>;
    /// [`Charts::all`] drawn at most `width` pixels wide (the page's column), the text at its
    /// usual size, so that a chart shown at that width stays readable; by default the
    /// report's own.
    fn all_within(&self, width: u32) -> Vec<ChartSvg> {
        let _ = width;
        self.all()
    }
    /// [`Charts::sweep`] drawn at most `width` pixels wide.
    fn sweep_within(&self, sweep: usize, at: usize, width: u32) -> Option<ChartSvg> {
        let _ = width;
        self.sweep(sweep, at)
    }
    /// The report's sections about the run's results (the outcomes, and whatever the report
    /// says about the fights themselves, such as a group fight's members), as the report page
    /// renders them, without their charts (the page shows those from [`Charts::all`]).
    fn sections(&self) -> Vec<SectionHtml> {
        Vec::new()
    }
}

/// One section of the report as HTML (the report's own rendering: escaped text, tables).
#[derive(Clone, Debug, Serialize)]
pub struct SectionHtml {
    /// The section's title.
    pub title: String,
    /// The section's HTML, its heading included.
    pub html: String,
}

/// One chart as SVG.
#[derive(Clone, Debug, Serialize)]
pub struct ChartSvg {
    /// The report's file stem of the chart (`sweep_1_skill`, `win_probabilities`, …).
    pub stem: String,
    /// The chart's title.
    pub title: String,
    /// The sweep it draws (0-based, the report's order), if it is a sweep's chart.
    pub sweep: Option<usize>,
    /// The SVG document (empty when the chart could not be drawn).
    pub svg: String,
    /// Why the chart could not be drawn, if it could not (the page shows this in its place).
    pub error: Option<String>,
    /// The title to show above the chart when the SVG is drawn without it (a chart drawn for
    /// the page's column, where a long title would be cut off; the page's text wraps).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
}

/// No charts (an engine without them).
pub struct NoCharts;

impl Charts for NoCharts {
    fn all(&self) -> Vec<ChartSvg> {
        Vec::new()
    }
    fn sweep(&self, _: usize, _: usize) -> Option<ChartSvg> {
        None
    }
}

/// An engine failure, as text for the page.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The job was cancelled (a newer edit replaced it).
    #[error("cancelled")]
    Cancelled,
    /// Anything else, with its message.
    #[error("{0}")]
    Failed(String),
}

/// What validating a text found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Checked {
    /// The errors (empty when the text is valid).
    pub errors: Vec<Diagnostic>,
    /// A one-line summary (`ruleset draft, 2 fighters, 1 matchups`).
    pub summary: String,
    /// The ruleset id, when the text names a known one.
    pub ruleset: Option<String>,
    /// Runs of `trials` duels the text asks for (the work estimate's count).
    pub runs: u64,
    /// Trials per run the file asks for (or the default).
    pub trials: u64,
    /// Notes on what the loader decided.
    pub notes: Vec<String>,
    /// Warnings: settings accepted but very likely not meant, placed like errors; they do not
    /// stop a run (the page shows them beside the notes).
    pub warnings: Vec<Diagnostic>,
}

/// An error or a warning placed in the text.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Diagnostic {
    /// 1-based line (0: not placed).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// Dotted path of the field (`fighters.knight.weapon`), empty for the document.
    pub field: String,
    /// The message, with its suggestion ("did you mean …").
    pub message: String,
}

/// One matchup's exact outcome probabilities.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ExactRow {
    /// The matchup's name.
    pub matchup: String,
    /// P(A wins).
    pub p_a_win: f64,
    /// P(B wins).
    pub p_b_win: f64,
    /// P(draw).
    pub p_draw: f64,
}

/// Errors starting the server.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A non-loopback address without the explicit permission.
    #[error(
        "{0} is not a loopback address: the explorer would be reachable from other machines; pass --host {0} explicitly to allow it"
    )]
    NotLoopback(IpAddr),
    /// The scenario file cannot be served.
    #[error("{0}")]
    Scenario(String),
    /// Binding or serving failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Where to listen: `host` is only taken when `explicit_host` is set (the user typed
/// `--host`); otherwise only loopback addresses are accepted.
pub fn bind_address(
    host: IpAddr,
    port: u16,
    explicit_host: bool,
) -> Result<SocketAddr, ServeError> {
    if !host.is_loopback() && !explicit_host {
        return Err(ServeError::NotLoopback(host));
    }
    Ok(SocketAddr::new(host, port))
}

/// Limits of one server.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest request body (bytes); also the largest scenario text.
    pub max_body: usize,
    /// Most duels (runs × trials) one preview stage may simulate.
    pub max_work: u64,
    /// Jobs (previews and reports) computing at once; the others wait their turn, first come
    /// first served, and a cancelled one never starts. A page has one job at a time, so it
    /// holds at most one worker.
    pub workers: usize,
    /// Validations (`/api/check`, and the one `/api/run` makes) running at once.
    pub checks: usize,
    /// Validations that may wait for one of [`Limits::checks`]; a request beyond them is
    /// refused as busy (503) at once.
    pub check_queue: usize,
    /// A job whose page has not asked for it for this long (the page was closed or stopped
    /// polling) is cancelled, freeing its worker. The page polls at least every
    /// [`crate::LONG_POLL`] while its job runs.
    pub abandon_after: std::time::Duration,
}

/// Longest wait of a job poll for something new: a page following its job asks again at
/// least this often.
pub const LONG_POLL: std::time::Duration = std::time::Duration::from_secs(2);

impl Default for Limits {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Limits {
            max_body: 1 << 20,
            max_work: 2_000_000_000,
            workers: cores,
            checks: cores,
            check_queue: 32,
            abandon_after: std::time::Duration::from_secs(5),
        }
    }
}
