//! The HTTP routes. Reads are open to the page; every POST needs the session's token (written
//! into the page when it is served) and a same-origin request (its `Origin` is this server),
//! so another site open in the same browser cannot drive the explorer; and every request must
//! name this server as its `Host` (`localhost`, a loopback address, or the address the request
//! came in on), so a DNS-rebinding page cannot reach it either.
//!
//! What requests may cost is bounded: validations run [`Limits::checks`] at a time with a
//! short line behind them; previews and reports share [`Limits::workers`] workers, first come
//! first served, one job per page; and a preview whose page stops polling for
//! [`Limits::abandon_after`] is cancelled.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::connect_info::{ConnectInfo, Connected};
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::edit::{self, Op, Step};
use crate::files::{FileError, Folder};
use crate::jobs::{Job, JobState, Jobs};
use crate::{ChartSvg, Checked, Engine, EngineError, LONG_POLL, Limits, bundled};

const INDEX: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// Trials of the preview stages after the first (the last is the file's own).
pub const STAGES: [u64; 2] = [20_000, 200_000];

/// Duels the first preview stage computes in all (over every run of the file): a few tens
/// of milliseconds even for the slowest ruleset, so a number answers an edit at once, with an
/// interval a few points wide.
pub const FIRST_STAGE_DUELS: u64 = 10_000;

/// One explorer: the engine, the scenario's folder, the session token and the jobs.
pub struct Server<E> {
    engine: Arc<E>,
    folder: Folder,
    file: Option<String>,
    token: String,
    jobs: Jobs,
    limits: Limits,
    /// Validations running at once.
    checks: Arc<tokio::sync::Semaphore>,
    /// Validations running or waiting.
    checking: AtomicUsize,
}

/// The address a connection came in on (the server's side), which a request's `Host` may
/// name.
#[derive(Clone, Copy, Debug)]
pub struct Local(Option<SocketAddr>);

impl Connected<axum::serve::IncomingStream<'_, tokio::net::TcpListener>> for Local {
    fn connect_info(s: axum::serve::IncomingStream<'_, tokio::net::TcpListener>) -> Self {
        Local(s.io().local_addr().ok())
    }
}

impl<E: Engine> Server<E> {
    /// A server for the scenario `file` (relative to `folder`; `None`: start from the list).
    pub fn new(engine: E, folder: Folder, file: Option<String>, limits: Limits) -> Arc<Self> {
        Arc::new(Server {
            engine: Arc::new(engine),
            folder,
            file,
            token: new_token(),
            jobs: Jobs::new(limits.workers),
            checks: Arc::new(tokio::sync::Semaphore::new(limits.checks.max(1))),
            checking: AtomicUsize::new(0),
            limits,
        })
    }

    /// The session token a writing request must carry.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The jobs (for tests and shutdown).
    pub fn jobs(&self) -> &Jobs {
        &self.jobs
    }

    /// Serves on `listener` until `shutdown` resolves; running jobs are cancelled then.
    pub async fn serve(
        self: Arc<Self>,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let me = self.clone();
        let app = router(self).into_make_service_with_connect_info::<Local>();
        // Cancels the jobs whose pages stopped following them, a few times a second.
        let reaper = {
            let me = me.clone();
            tokio::spawn(async move {
                let every = (me.limits.abandon_after / 8)
                    .clamp(Duration::from_millis(10), Duration::from_millis(500));
                loop {
                    tokio::time::sleep(every).await;
                    me.jobs.reap(me.limits.abandon_after);
                }
            })
        };
        let r = axum::serve(listener, app)
            .with_graceful_shutdown(shutdown)
            .await;
        reaper.abort();
        me.jobs.cancel_all();
        r
    }

    /// Validates `text` as the engine does, at most [`Limits::checks`] at once; refused as
    /// busy when [`Limits::check_queue`] others already wait. A request that goes away while
    /// it waits never runs; one that goes away while it runs keeps its place until it ends.
    async fn check_text(self: &Arc<Self>, file: String, text: String) -> Result<Checked, Fail> {
        struct Count<'a>(&'a AtomicUsize);
        impl Drop for Count<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::SeqCst);
            }
        }
        let n = self.checking.fetch_add(1, Ordering::SeqCst);
        let _count = Count(&self.checking);
        if n >= self.limits.checks + self.limits.check_queue {
            return Err(Fail(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the explorer is busy: {n} validations are running or waiting; try again in a moment"
                ),
            ));
        }
        let permit = self
            .checks
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| Fail(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
        let e = self.engine.clone();
        blocking(move || {
            let _permit = permit;
            e.check(&file, &text)
        })
        .await
    }
}

/// A token from the operating system's randomness (through the standard library's hasher
/// keys): 128 bits as hex.
fn new_token() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut s = String::new();
    for i in 0..2u8 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u8(i);
        s.push_str(&format!("{:016x}", h.finish()));
    }
    s
}

/// The explorer's routes.
pub fn router<E: Engine>(s: Arc<Server<E>>) -> Router {
    let max = s.limits.max_body;
    Router::new()
        .route("/", get(index::<E>))
        .route(
            "/app.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    page_file("app.js", APP_JS),
                )
            }),
        )
        .route(
            "/style.css",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
                    page_file("style.css", STYLE),
                )
            }),
        )
        .route("/api/catalog", get(catalog::<E>))
        .route("/api/ruleset/{id}", get(ruleset::<E>))
        .route("/api/open", get(open::<E>))
        .route("/api/job", get(job_state::<E>))
        .route("/api/charts", get(charts::<E>))
        .route("/api/sweep", get(sweep_chart::<E>))
        .route("/api/sections", get(sections::<E>))
        .route("/files/{*path}", get(file::<E>))
        .route("/api/check", post(check::<E>))
        .route("/api/edit", post(edit_text))
        .route("/api/run", post(run::<E>))
        .route("/api/cancel", post(cancel::<E>))
        .route("/api/save", post(save::<E>))
        .route("/api/report", post(report::<E>))
        .layer(middleware::from_fn_with_state(s.clone(), guard::<E>))
        .layer(DefaultBodyLimit::max(max))
        .with_state(s)
}

/// An error answer: a status and a message for the page.
struct Fail(StatusCode, String);

impl IntoResponse for Fail {
    fn into_response(self) -> Response {
        (self.0, axum::Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<FileError> for Fail {
    fn from(e: FileError) -> Fail {
        let status = match e {
            FileError::Outside(_) => StatusCode::FORBIDDEN,
            FileError::Changed(_) => StatusCode::CONFLICT,
            FileError::Io(_) => StatusCode::NOT_FOUND,
        };
        Fail(status, e.to_string())
    }
}

type Answer = Result<Response, Fail>;

fn ok(v: Value) -> Answer {
    Ok(axum::Json(v).into_response())
}

/// Refuses a POST without the token or from another origin, and any request whose `Host`
/// is not this server's (a DNS-rebinding page).
async fn guard<E: Engine>(State(s): State<Arc<Server<E>>>, req: Request, next: Next) -> Response {
    let h = req.headers();
    let host = h
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let name = host_name(host);
    let local = req
        .extensions()
        .get::<ConnectInfo<Local>>()
        .and_then(|c| c.0.0);
    if !host_allowed(name, local) {
        return Fail(
            StatusCode::FORBIDDEN,
            format!("host {host} is not this explorer"),
        )
        .into_response();
    }
    if req.method() == Method::POST {
        let token = h.get("x-oddsmith-token").and_then(|v| v.to_str().ok());
        if token != Some(s.token.as_str()) {
            return Fail(
                StatusCode::FORBIDDEN,
                "missing or wrong session token".into(),
            )
            .into_response();
        }
        let origin = h.get(header::ORIGIN).and_then(|v| v.to_str().ok());
        if origin != Some(format!("http://{host}").as_str()) {
            return Fail(StatusCode::FORBIDDEN, "cross-origin request refused".into())
                .into_response();
        }
    }
    let mut r = next.run(req).await;
    let hs = r.headers_mut();
    hs.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    hs.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    r
}

/// The name part of a `Host` header (`[::1]:8080` → `[::1]`, `localhost:80` → `localhost`).
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |i| &host[..=i]);
    }
    host.rsplit_once(':').map_or(host, |(n, _)| n)
}

/// Names a request may reach the explorer by: `localhost`, a loopback address, or the
/// address the request came in on (`local`: the server's side of the connection, e.g. the
/// machine's address on the network when `--host 0.0.0.0` was given). Any other name, and
/// any other address, is refused: a page that rebinds its own name to this machine sends its
/// name, and an address of another machine is not this explorer.
fn host_allowed(name: &str, local: Option<SocketAddr>) -> bool {
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let bare = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name);
    let Ok(ip) = bare.parse::<std::net::IpAddr>() else {
        return false;
    };
    // `[…]` only around an IPv6 address, and an IPv6 address only inside `[…]`.
    if ip.is_ipv6() == (bare.len() == name.len()) {
        return false;
    }
    // An IPv4 client of a dual-stack socket shows as `::ffff:a.b.c.d` on the server's side.
    let ip = ip.to_canonical();
    ip.is_loopback() || local.is_some_and(|l| l.ip().to_canonical() == ip)
}

/// A file of the page: the embedded one, or in a debug build with `ODDSMITH_PAGE_DIR` set
/// (working on the page), the one in that folder, read at each request.
fn page_file(name: &str, embedded: &'static str) -> String {
    if cfg!(debug_assertions)
        && let Some(dir) = std::env::var_os("ODDSMITH_PAGE_DIR")
        && let Ok(text) = std::fs::read_to_string(std::path::Path::new(&dir).join(name))
    {
        return text;
    }
    embedded.to_string()
}

async fn index<E: Engine>(State(s): State<Arc<Server<E>>>) -> Response {
    let boot = json!({ "token": s.token, "file": s.file });
    let html =
        page_file("index.html", INDEX).replace("{{BOOT}}", &escape_script(&boot.to_string()));
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

/// JSON safe inside a `<script>` element.
fn escape_script(s: &str) -> String {
    s.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

async fn catalog<E: Engine>(State(s): State<Arc<Server<E>>>) -> Answer {
    let names: Vec<&str> = bundled::BUNDLED.iter().map(|(n, _)| *n).collect();
    ok(json!({ "bundled": names, "rulesets": s.engine.rulesets(), "file": s.file }))
}

async fn ruleset<E: Engine>(
    State(s): State<Arc<Server<E>>>,
    UrlPath(id): UrlPath<String>,
) -> Answer {
    let e = s.engine.clone();
    let v = blocking(move || e.ruleset(&id)).await?;
    v.map_or_else(
        || Err(Fail(StatusCode::NOT_FOUND, "no such ruleset".into())),
        ok,
    )
}

#[derive(Deserialize)]
struct OpenQuery {
    bundled: Option<String>,
    template: Option<String>,
    file: Option<String>,
}

async fn open<E: Engine>(State(s): State<Arc<Server<E>>>, Query(q): Query<OpenQuery>) -> Answer {
    if let Some(b) = q.bundled {
        let text = bundled::bundled(&b).ok_or(Fail(
            StatusCode::NOT_FOUND,
            format!("no bundled scenario {b}"),
        ))?;
        let file = format!("{}.toml", b.rsplit('/').next().unwrap_or(&b));
        return ok(
            json!({ "text": text, "file": file, "version": null, "source": format!("bundled {b}") }),
        );
    }
    if let Some(id) = q.template {
        let text = s
            .engine
            .template(&id)
            .ok_or(Fail(StatusCode::NOT_FOUND, format!("no ruleset {id}")))?;
        return ok(
            json!({ "text": text, "file": format!("{id}-starter.toml"), "version": null, "source": format!("template {id}") }),
        );
    }
    let rel = q
        .file
        .ok_or(Fail(StatusCode::BAD_REQUEST, "open what?".into()))?;
    let (text, version) = s.folder.read(&rel, s.limits.max_body)?;
    ok(json!({ "text": text, "file": rel, "version": version, "source": rel }))
}

/// Serves a file of the scenario's folder, read-only (the report folder and its charts).
async fn file<E: Engine>(
    State(s): State<Arc<Server<E>>>,
    UrlPath(path): UrlPath<String>,
) -> Answer {
    let p = s.folder.resolve(&path)?;
    let q = p.clone();
    let bytes = blocking(move || std::fs::read(q))
        .await?
        .map_err(|e| Fail(StatusCode::NOT_FOUND, format!("{path}: {e}")))?;
    let kind = match p.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "css" => "text/css",
        "csv" | "md" | "toml" | "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    Ok(([(header::CONTENT_TYPE, kind)], bytes).into_response())
}

#[derive(Deserialize)]
struct TextBody {
    text: String,
    #[serde(default)]
    file: Option<String>,
}

/// Runs blocking engine work off the async runtime.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, Fail> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Fail(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

fn file_name(f: &Option<String>) -> String {
    f.clone().unwrap_or_else(|| "scenario.toml".into())
}

async fn check<E: Engine>(
    State(s): State<Arc<Server<E>>>,
    axum::Json(b): axum::Json<TextBody>,
) -> Answer {
    let file = file_name(&b.file);
    let t0 = std::time::Instant::now();
    let checked = s.check_text(file, b.text.clone()).await?;
    let (doc, order) = blocking(move || {
        let doc = toml::from_str::<toml::Value>(&b.text).ok();
        (doc, edit::fighter_order(&b.text))
    })
    .await?;
    let ms = t0.elapsed().as_millis() as u64;
    // `order`: the file's order of what a parsed document sorts by name.
    ok(json!({ "check": checked, "doc": doc, "order": { "fighters": order }, "ms": ms }))
}

#[derive(Deserialize)]
struct EditBody {
    text: String,
    ops: Vec<Op>,
}

async fn edit_text(axum::Json(b): axum::Json<EditBody>) -> Answer {
    let text = edit::apply(&b.text, &b.ops).map_err(|e| Fail(StatusCode::BAD_REQUEST, e.0))?;
    ok(json!({ "text": text }))
}

#[derive(Deserialize)]
struct RunBody {
    page: String,
    text: String,
    #[serde(default)]
    file: Option<String>,
    /// The B column: paths and values.
    #[serde(default)]
    b: Vec<BValue>,
}

#[derive(Deserialize)]
struct BValue {
    path: Vec<Step>,
    value: Value,
}

/// The preview stages for a file asking for `trials` in each of `runs` runs: a first stage
/// of about [`FIRST_STAGE_DUELS`] duels in all (rounded down to 1, 2 or 5 × 10ⁿ trials, 500 to
/// 20,000), then 20k and 200k while below the file's trials, then the file's own.
pub fn stages(trials: u64, runs: u64) -> Vec<u64> {
    let share = FIRST_STAGE_DUELS / runs.max(1);
    let first = [20_000u64, 10_000, 5_000, 2_000, 1_000, 500]
        .into_iter()
        .find(|&t| t <= share)
        .unwrap_or(500);
    let mut v: Vec<u64> = std::iter::once(first)
        .chain(STAGES)
        .filter(|&t| t < trials)
        .collect();
    v.dedup();
    v.push(trials.max(1));
    v
}

/// Starts the page's preview job (cancelling its previous one); the page polls `/api/job`.
async fn run<E: Engine>(
    State(s): State<Arc<Server<E>>>,
    axum::Json(b): axum::Json<RunBody>,
) -> Answer {
    if b.page.is_empty() || b.page.len() > 64 {
        return Err(Fail(
            StatusCode::BAD_REQUEST,
            "a page id of 1 to 64 characters".into(),
        ));
    }
    let file = file_name(&b.file);
    let pairs: Vec<(Vec<Step>, Value)> = b.b.into_iter().map(|x| (x.path, x.value)).collect();
    // A fresh job first, so the page's running one stops now, before the check.
    s.jobs.cancel(&b.page);
    // A text that cannot run is refused with a 200 answer naming why (the page sends the run
    // beside its check, and a browser logs every failed request as an error).
    let refused = |why: String| ok(json!({ "refused": why }));
    let ab = match edit::ab_comparison(&b.text, &pairs) {
        Ok(ab) => ab,
        Err(e) => return refused(e.0),
    };
    let checked = match s.check_text(file.clone(), b.text.clone()).await {
        Ok(c) => c,
        Err(Fail(_, why)) => return refused(why),
    };
    if let Some(d) = checked.errors.first() {
        return refused(d.message.clone());
    }
    let stages = stages(checked.trials, checked.runs);
    let work = checked.runs.saturating_mul(checked.trials);
    if work > s.limits.max_work {
        return refused(format!(
            "this file asks for {work} duels ({} runs × {} trials), more than the explorer's limit of {}; lower `trials`",
            checked.runs, checked.trials, s.limits.max_work
        ));
    }
    let job = s.jobs.start(&b.page, stages.clone());
    let id = job.id;
    let e = s.engine.clone();
    let answer = json!({ "job": id, "stages": stages });
    tokio::task::spawn_blocking(move || work_on(&*e, &job, &file, &b.text, ab.as_deref(), &stages));
    ok(answer)
}

/// The worker, once a worker is free: the Monte Carlo stages, with the exact solves on a
/// second thread beside them (so a slow solve never holds back the preview), and once the
/// first stage is in, the readings study on a third (the "depends on" panel); all stop when
/// the job is cancelled.
fn work_on<E: Engine>(e: &E, job: &Job, file: &str, text: &str, ab: Option<&str>, stages: &[u64]) {
    let Some(_permit) = job.permit() else {
        return job.finish(None);
    };
    let error = std::thread::scope(|scope| {
        scope.spawn(|| {
            // A failed solve leaves its matchups without an exact value, as `run` does.
            let solved = e.exact(file, text, job.flag(), &mut |row| job.exact(row));
            if solved.is_ok() && !job.cancelled() {
                job.exact_done();
            }
        });
        for (i, &t) in stages.iter().enumerate() {
            let r = e.run(file, text, t, job.flag()).and_then(|main| {
                let abr = ab.map(|c| e.run(file, c, t, job.flag())).transpose()?;
                Ok((main, abr))
            });
            match r {
                Ok((main, abr)) if !job.cancelled() => {
                    job.stage(main.run, abr.map(|p| p.run), main.charts);
                    if i == 0 {
                        scope.spawn(|| match e.readings(file, text, job.flag()) {
                            Ok(v) if !job.cancelled() => job.readings(v),
                            Ok(_) | Err(EngineError::Cancelled) => {}
                            Err(EngineError::Failed(m)) => {
                                job.readings(Some(json!({ "error": m })));
                            }
                        });
                    }
                }
                Ok(_) | Err(EngineError::Cancelled) => return None,
                Err(EngineError::Failed(m)) => return Some(m),
            }
        }
        None
    });
    job.finish(error);
}

#[derive(Deserialize)]
struct JobQuery {
    page: String,
    job: u64,
    /// The version the page has seen: the answer waits (up to [`LONG_POLL`]) for a newer one.
    #[serde(default)]
    since: Option<u64>,
    /// The width the page shows charts at (charts are drawn at most this wide).
    #[serde(default)]
    width: Option<u32>,
}

async fn job_state<E: Engine>(
    State(s): State<Arc<Server<E>>>,
    Query(q): Query<JobQuery>,
) -> Answer {
    let until = std::time::Instant::now() + LONG_POLL;
    loop {
        let late = std::time::Instant::now() >= until;
        let seen = |st: &JobState| !st.done && q.since == Some(st.version) && !late;
        match s.jobs.state_unless(&q.page, q.job, seen) {
            Some(Some(st)) => return ok(serde_json::to_value(st).unwrap_or(Value::Null)),
            Some(None) => tokio::time::sleep(std::time::Duration::from_millis(5)).await,
            // Not an error (a browser logs every failed request): the page stops polling.
            None => {
                return ok(serde_json::json!({
                    "replaced": true,
                    "message": "this job was replaced by a newer one",
                }));
            }
        }
    }
}

/// Every chart of the page's job's latest stage (none yet: an empty list).
async fn charts<E: Engine>(State(s): State<Arc<Server<E>>>, Query(q): Query<JobQuery>) -> Answer {
    let all: Vec<ChartSvg> = match s.jobs.charts(&q.page, q.job) {
        Some(c) => blocking(move || q.width.map_or_else(|| c.all(), |w| c.all_within(w))).await?,
        None => Vec::new(),
    };
    ok(json!({ "charts": all }))
}

/// The report's sections about the results of the page's job's latest stage (none yet: an
/// empty list).
async fn sections<E: Engine>(State(s): State<Arc<Server<E>>>, Query(q): Query<JobQuery>) -> Answer {
    let all = match s.jobs.charts(&q.page, q.job) {
        Some(c) => blocking(move || c.sections()).await?,
        None => Vec::new(),
    };
    ok(json!({ "sections": all }))
}

#[derive(Deserialize)]
struct SweepQuery {
    page: String,
    job: u64,
    sweep: usize,
    at: usize,
    /// As [`JobQuery::width`].
    #[serde(default)]
    width: Option<u32>,
}

/// Sweep `sweep`'s chart of the page's job's latest stage with point `at` marked (`null`
/// when there is none).
async fn sweep_chart<E: Engine>(
    State(s): State<Arc<Server<E>>>,
    Query(q): Query<SweepQuery>,
) -> Answer {
    let chart = match s.jobs.charts(&q.page, q.job) {
        Some(c) => {
            blocking(move || match q.width {
                Some(w) => c.sweep_within(q.sweep, q.at, w),
                None => c.sweep(q.sweep, q.at),
            })
            .await?
        }
        None => None,
    };
    ok(json!({ "chart": chart }))
}

#[derive(Deserialize)]
struct CancelBody {
    page: String,
}

/// Cancels the page's job (the page sends this as it closes).
async fn cancel<E: Engine>(
    State(s): State<Arc<Server<E>>>,
    axum::Json(b): axum::Json<CancelBody>,
) -> Answer {
    s.jobs.cancel(&b.page);
    ok(json!({ "cancelled": true }))
}

#[derive(Deserialize)]
struct SaveBody {
    file: String,
    text: String,
    /// The version of the file the page loaded ([`crate::files::version`]); none for a new
    /// file or a bundled scenario.
    version: Option<String>,
    #[serde(default)]
    force: bool,
}

async fn save<E: Engine>(
    State(s): State<Arc<Server<E>>>,
    axum::Json(b): axum::Json<SaveBody>,
) -> Answer {
    if !b.file.ends_with(".toml") {
        return Err(Fail(
            StatusCode::BAD_REQUEST,
            "scenario files end in .toml".into(),
        ));
    }
    // A file changed on disk is an answer the page acts on (it asks before overwriting), not a
    // failed request: it comes as data, so the browser logs no error for it.
    match s
        .folder
        .save(&b.file, &b.text, b.version.as_deref(), b.force)
    {
        Ok(v) => ok(json!({ "file": b.file, "version": v })),
        Err(e @ FileError::Changed(_)) => ok(json!({ "file": b.file, "changed": e.to_string() })),
        Err(e) => Err(e.into()),
    }
}

/// The report folder's name for the scenario file `file`: its own name without `.toml`.
/// Refused when that is empty (`.toml`) or starts with a dot (a hidden name, and the
/// temporary folders' beside the reports).
fn report_stem(file: &str) -> Result<&str, Fail> {
    let name = file.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = name.strip_suffix(".toml").unwrap_or(name);
    if stem.is_empty() || stem.starts_with('.') || stem.contains('\0') {
        return Err(Fail(
            StatusCode::BAD_REQUEST,
            format!(
                "cannot name a report after the file name {file:?}: it needs a name before \".toml\" that does not start with a dot (e.g. \"duel.toml\")"
            ),
        ));
    }
    Ok(stem)
}

async fn report<E: Engine>(
    State(s): State<Arc<Server<E>>>,
    axum::Json(b): axum::Json<TextBody>,
) -> Answer {
    let file = file_name(&b.file);
    let rel = format!("reports/{}", report_stem(&file)?);
    let dir = s.folder.resolve(&rel)?;
    // A report computes the file's own trials: within the preview's limit of work, and in
    // its turn for a worker, like a preview.
    let checked = s.check_text(file.clone(), b.text.clone()).await?;
    let refuse = |why: String| Err(Fail(StatusCode::UNPROCESSABLE_ENTITY, why));
    if let Some(d) = checked.errors.first() {
        return refuse(d.message.clone());
    }
    let work = checked.runs.saturating_mul(checked.trials);
    if work > s.limits.max_work {
        return refuse(format!(
            "this file asks for {work} duels ({} runs × {} trials), more than the explorer's limit of {}; lower `trials`, or run it with `oddsmith run`",
            checked.runs, checked.trials, s.limits.max_work
        ));
    }
    let s2 = s.clone();
    let page = blocking(move || {
        let never = AtomicBool::new(false);
        let _worker = s2.jobs.worker(&never);
        s2.engine.report(&file, &b.text, &dir)
    })
    .await?
    .map_err(|e| Fail(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    let name = page
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("report.html");
    ok(json!({ "url": format!("/files/{rel}/{name}"), "folder": rel }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_refine_to_the_file_s_trials() {
        // One run: 10k, then 20k, 200k and the file's.
        assert_eq!(
            stages(1_000_000, 1),
            vec![10_000, 20_000, 200_000, 1_000_000]
        );
        assert_eq!(stages(40_000, 1), vec![10_000, 20_000, 40_000]);
        assert_eq!(stages(5_000, 1), vec![5_000]);
        // Six runs: 10,000 / 6 = 1,666, rounded down to 1,000; three runs: 3,333 to 2,000.
        assert_eq!(
            stages(1_000_000, 6),
            vec![1_000, 20_000, 200_000, 1_000_000]
        );
        assert_eq!(
            stages(1_000_000, 3),
            vec![2_000, 20_000, 200_000, 1_000_000]
        );
        // A study of 400 runs: 25 rounds up to the floor of 500.
        assert_eq!(stages(100_000, 400), vec![500, 20_000, 100_000]);
        assert_eq!(stages(300, 400), vec![300]);
    }

    #[test]
    fn tokens_differ_and_are_long() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
    }

    #[test]
    fn script_json_cannot_close_the_element() {
        assert!(!escape_script("</script>").contains('<'));
    }

    #[test]
    fn only_this_server_s_names_are_hosts() {
        let lo: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let lan: SocketAddr = "192.168.1.5:8080".parse().unwrap();
        for local in [None, Some(lo), Some(lan)] {
            for name in ["127.0.0.1", "127.0.0.2", "localhost", "LocalHost", "[::1]"] {
                assert!(host_allowed(name, local), "{name} {local:?}");
            }
            for name in [
                "evil.example",
                "10.0.0.1",
                "8.8.8.8",
                "[10.0.0.1]",
                "::1",
                "[127.0.0.1]",
                "[::ffff:8.8.8.8]",
                "",
                "localhost.evil.example",
            ] {
                assert!(!host_allowed(name, local), "{name} {local:?}");
            }
        }
        // The address the request came in on (also as a dual-stack socket shows it).
        assert!(host_allowed("192.168.1.5", Some(lan)));
        let mapped: SocketAddr = "[::ffff:192.168.1.5]:8080".parse().unwrap();
        assert!(host_allowed("192.168.1.5", Some(mapped)));
        assert!(!host_allowed("192.168.1.5", Some(lo)) && !host_allowed("192.168.1.5", None));
        assert_eq!(host_name("[::1]:80"), "[::1]");
        assert_eq!(host_name("localhost:80"), "localhost");
        assert_eq!(host_name("127.0.0.1"), "127.0.0.1");
    }

    #[test]
    fn report_names_come_from_the_file_name() {
        assert_eq!(report_stem("duel.toml").ok(), Some("duel"));
        assert_eq!(report_stem("sub/duel.toml").ok(), Some("duel"));
        assert_eq!(report_stem("duel").ok(), Some("duel"));
        for bad in [
            ".toml",
            "sub/.toml",
            "",
            ".hidden.toml",
            "..toml",
            "a/",
            "..",
        ] {
            let e = report_stem(bad).err().map(|f| f.1);
            assert!(
                e.as_deref().is_some_and(|m| m.contains("needs a name")),
                "{bad}: {e:?}"
            );
        }
    }
}
