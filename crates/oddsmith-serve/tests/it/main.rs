//! Server tests against a fake engine: concurrent clients, cancellation, path safety, limits,
//! the token and same-origin rule, and the loopback-only default.

mod bounds;
mod http;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use oddsmith_serve::files::Folder;
use oddsmith_serve::{
    Checked, Diagnostic, Engine, EngineError, ExactRow, Limits, NoCharts, Preview, Server,
    bind_address,
};
use serde_json::{Value, json};

use http::Client;

/// Counts what the fake engine did.
#[derive(Default)]
struct Counters {
    running: AtomicUsize,
    max_running: AtomicUsize,
    runs: AtomicUsize,
    cancelled: AtomicUsize,
    checking: AtomicUsize,
    max_checking: AtomicUsize,
}

/// A fake engine: a text containing `bad` is invalid at `fighters.x.weapon`; one containing
/// `slow` takes 300 ms to check; `trials = N` asks for N trials; a run takes one millisecond
/// per thousand trials, checking the cancel flag every millisecond.
struct Fake(Arc<Counters>);

fn trials_of(text: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix("trials = "))
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(20_000)
}

impl Engine for Fake {
    fn rulesets(&self) -> Value {
        json!([{ "id": "fake", "title": "Fake", "summary": "" }])
    }
    fn ruleset(&self, id: &str) -> Option<Value> {
        (id == "fake").then(|| json!({ "info": {}, "equipment": [] }))
    }
    fn template(&self, id: &str) -> Option<String> {
        (id == "fake").then(|| "ruleset = \"fake\"\n".into())
    }
    fn check(&self, _file: &str, text: &str) -> Checked {
        if text.contains("slow") {
            let c = &self.0;
            let now = c.checking.fetch_add(1, Ordering::SeqCst) + 1;
            c.max_checking.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(300));
            c.checking.fetch_sub(1, Ordering::SeqCst);
        }
        if text.contains("bad") {
            return Checked {
                errors: vec![Diagnostic {
                    line: 1,
                    column: 1,
                    field: "fighters.x.weapon".into(),
                    message: "unknown weapon \"bad\"; did you mean \"bow\"?".into(),
                }],
                ..Checked::default()
            };
        }
        Checked {
            ruleset: Some("fake".into()),
            runs: 1,
            trials: trials_of(text),
            ..Checked::default()
        }
    }
    fn exact(
        &self,
        _f: &str,
        text: &str,
        cancel: &Arc<AtomicBool>,
        each: &mut dyn FnMut(ExactRow),
    ) -> Result<(), EngineError> {
        // One answer per `matchup` line, 5 ms apiece.
        for (i, _) in text
            .lines()
            .filter(|l| l.starts_with("matchup"))
            .enumerate()
        {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
            each(ExactRow {
                matchup: format!("m{i}"),
                p_a_win: 0.5,
                p_b_win: 0.5,
                p_draw: 0.0,
            });
        }
        Ok(())
    }
    fn run(
        &self,
        _f: &str,
        _t: &str,
        trials: u64,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Preview, EngineError> {
        let c = &self.0;
        let now = c.running.fetch_add(1, Ordering::SeqCst) + 1;
        c.max_running.fetch_max(now, Ordering::SeqCst);
        let mut result = Ok(Preview {
            run: json!({ "trials": trials }),
            charts: Arc::new(NoCharts),
        });
        for _ in 0..trials / 1000 {
            if cancel.load(Ordering::Relaxed) {
                c.cancelled.fetch_add(1, Ordering::SeqCst);
                result = Err(EngineError::Cancelled);
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        c.running.fetch_sub(1, Ordering::SeqCst);
        c.runs.fetch_add(1, Ordering::SeqCst);
        result
    }
    fn readings(
        &self,
        _f: &str,
        text: &str,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Option<Value>, EngineError> {
        // A text with `readings` has a study of 50 ms, which a cancel stops.
        if !text.contains("readings") {
            return Ok(None);
        }
        for _ in 0..50 {
            if cancel.load(Ordering::Relaxed) {
                return Err(EngineError::Cancelled);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(Some(
            json!({ "readings": [{ "matchup": "m0", "robust": true }] }),
        ))
    }
    fn report(&self, _f: &str, _t: &str, dir: &std::path::Path) -> Result<PathBuf, EngineError> {
        std::fs::create_dir_all(dir).map_err(|e| EngineError::Failed(e.to_string()))?;
        std::fs::write(dir.join("report.html"), "<p>report</p>")
            .map_err(|e| EngineError::Failed(e.to_string()))?;
        Ok(dir.join("report.html"))
    }
}

/// A running server on a free loopback port; stops when dropped.
struct Running {
    addr: SocketAddr,
    token: String,
    counters: Arc<Counters>,
    server: Arc<Server<Fake>>,
    dir: PathBuf,
    stop: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    fn start(name: &str, limits: Limits) -> Running {
        let dir =
            std::env::temp_dir().join(format!("oddsmith-serve-it-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("s.toml"), "trials = 20000\n").unwrap();
        let counters = Arc::new(Counters::default());
        let server = Server::new(
            Fake(counters.clone()),
            Folder::new(&dir).unwrap(),
            Some("s.toml".into()),
            limits,
        );
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let (atx, arx) = std::sync::mpsc::channel();
        let s2 = server.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                atx.send(l.local_addr().unwrap()).unwrap();
                s2.serve(l, async {
                    let _ = rx.await;
                })
                .await
                .unwrap();
            });
        });
        let addr = arx.recv_timeout(Duration::from_secs(10)).unwrap();
        Running {
            addr,
            token: server.token().to_string(),
            counters,
            server,
            dir,
            stop: Mutex::new(Some(tx)),
            thread: Some(thread),
        }
    }

    fn client(&self) -> Client {
        Client::new(self.addr, Some(self.token.clone()))
    }

    /// Polls the page's job until it is done (at most `limit`).
    fn wait(&self, c: &Client, page: &str, job: u64, limit: Duration) -> Value {
        let t = Instant::now();
        loop {
            let r = c.get(&format!("/api/job?page={page}&job={job}"));
            assert_eq!(r.status, 200, "{}", r.body);
            let v = r.json();
            if v["done"] == true {
                return v;
            }
            assert!(t.elapsed() < limit, "job {job} of {page} stuck: {v}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.lock().unwrap().take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn run_body(page: &str, text: &str) -> Value {
    json!({ "page": page, "text": text, "file": "s.toml" })
}

#[test]
fn twenty_clients_editing_for_ten_seconds() {
    let srv = Arc::new(Running::start(
        "load",
        Limits {
            workers: 2,
            ..Limits::default()
        },
    ));
    let deadline = Instant::now() + Duration::from_secs(10);
    let errors = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..20)
        .map(|i| {
            let (srv, errors) = (srv.clone(), errors.clone());
            std::thread::spawn(move || {
                let c = srv.client();
                let page = format!("page{i}");
                let mut last = 0;
                // Bounded: at most 2,000 edits or the deadline.
                for n in 0..2_000u64 {
                    if Instant::now() >= deadline {
                        break;
                    }
                    let text = format!("trials = {}\n", 20_000 + 1_000 * (n % 300));
                    let checked = c.post("/api/check", &json!({ "text": text }));
                    let run = c.post("/api/run", &run_body(&page, &text));
                    if checked.status != 200 || run.status != 200 {
                        errors.fetch_add(1, Ordering::SeqCst);
                        continue;
                    }
                    last = run.json()["job"].as_u64().unwrap();
                    let poll = c.get(&format!("/api/job?page={page}&job={last}"));
                    if poll.status != 200 {
                        errors.fetch_add(1, Ordering::SeqCst);
                    }
                    std::thread::sleep(Duration::from_millis(5 + (i as u64 % 7) * 3));
                }
                // The last edit's run finishes every stage.
                let v = srv.wait(&c, &page, last, Duration::from_secs(60));
                assert_eq!(v["cancelled"], false, "{v}");
                assert_eq!(
                    v["finished"].as_u64(),
                    Some(v["stages"].as_array().unwrap().len() as u64),
                    "{v}"
                );
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(errors.load(Ordering::SeqCst), 0);
    assert!(srv.counters.max_running.load(Ordering::SeqCst) <= 2);
    assert!(
        srv.counters.cancelled.load(Ordering::SeqCst) > 0,
        "edits cancel running jobs"
    );
    // Nothing left computing.
    let t = Instant::now();
    while srv.server.jobs().busy() > 0 {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "a worker stayed busy"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_new_edit_cancels_the_running_job_and_frees_the_worker() {
    let srv = Running::start(
        "cancel",
        Limits {
            workers: 1,
            ..Limits::default()
        },
    );
    let c = srv.client();
    // 30 s of work if nothing stops it.
    let long = c
        .post("/api/run", &run_body("p", "trials = 30000000\n"))
        .json();
    let t = Instant::now();
    while srv.counters.running.load(Ordering::SeqCst) == 0 {
        assert!(t.elapsed() < Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(5));
    }
    // Another page waits for the one worker …
    let other = c.post("/api/run", &run_body("q", "trials = 5000\n")).json();
    std::thread::sleep(Duration::from_millis(100));
    let waiting = c
        .get(&format!("/api/job?page=q&job={}", other["job"]))
        .json();
    assert_eq!(waiting["finished"], 0, "{waiting}");
    // … until the first page's new edit cancels its long job.
    let t = Instant::now();
    let short = c.post("/api/run", &run_body("p", "trials = 5000\n")).json();
    let gone = c.get(&format!("/api/job?page=p&job={}", long["job"]));
    assert_eq!(
        (gone.status, &gone.json()["replaced"]),
        (200, &serde_json::json!(true))
    );
    let q = srv.wait(
        &c,
        "q",
        other["job"].as_u64().unwrap(),
        Duration::from_secs(5),
    );
    let p = srv.wait(
        &c,
        "p",
        short["job"].as_u64().unwrap(),
        Duration::from_secs(5),
    );
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "the worker was freed promptly"
    );
    assert_eq!(
        (q["finished"].as_u64(), p["finished"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(p["result"]["trials"], 5000);
    assert_eq!(srv.counters.cancelled.load(Ordering::SeqCst), 1);
    assert_eq!(srv.server.jobs().busy(), 0);
}

#[test]
fn paths_outside_the_folder_are_refused() {
    let srv = Running::start("paths", Limits::default());
    let c = srv.client();
    std::fs::write(
        srv.dir.parent().unwrap().join("oddsmith-serve-secret.toml"),
        "secret",
    )
    .unwrap();
    let name = srv.dir.file_name().unwrap().to_str().unwrap();
    for url in [
        "/api/open?file=../oddsmith-serve-secret.toml".to_string(),
        "/api/open?file=%2Fetc%2Fpasswd".to_string(),
        format!("/api/open?file=..%2F{name}%2Fs.toml"),
        "/files/..%2Foddsmith-serve-secret.toml".to_string(),
        "/files/%2Fetc%2Fpasswd".to_string(),
    ] {
        let r = c.get(&url);
        assert!(
            r.status == 403 || r.status == 400 || r.status == 404,
            "{url}: {}",
            r.status
        );
        assert!(
            !r.body.contains("secret") || r.body.contains("outside"),
            "{url}: {}",
            r.body
        );
    }
    let r = c.post(
        "/api/save",
        &json!({ "file": "../evil.toml", "text": "x", "version": null }),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(!srv.dir.parent().unwrap().join("evil.toml").exists());
    // Inside the folder: opened, saved, and refused once changed on disk.
    let o = c.get("/api/open?file=s.toml").json();
    assert_eq!(o["text"], "trials = 20000\n");
    let s = c.post(
        "/api/save",
        &json!({ "file": "s.toml", "text": "trials = 30000\n", "version": o["version"] }),
    );
    assert_eq!(s.status, 200, "{}", s.body);
    let stale = c.post(
        "/api/save",
        &json!({ "file": "s.toml", "text": "x", "version": o["version"] }),
    );
    // Refused as data (the page asks before overwriting; no error status for the console).
    assert_eq!(stale.status, 200, "{}", stale.body);
    assert!(
        stale.json()["changed"]
            .as_str()
            .is_some_and(|m| m.contains("changed on disk")),
        "{}",
        stale.body
    );
    assert_eq!(
        std::fs::read_to_string(srv.dir.join("s.toml")).unwrap(),
        "trials = 30000\n"
    );
    let forced = c.post(
        "/api/save",
        &json!({ "file": "s.toml", "text": "trials = 1000\n", "version": o["version"], "force": true }),
    );
    assert_eq!(forced.status, 200);
    assert_eq!(
        std::fs::read_to_string(srv.dir.join("s.toml")).unwrap(),
        "trials = 1000\n"
    );
    // The report is written inside the folder and served read-only.
    let rep = c
        .post(
            "/api/report",
            &json!({ "text": "trials = 1000\n", "file": "s.toml" }),
        )
        .json();
    assert_eq!(rep["url"], "/files/reports/s/report.html");
    assert_eq!(c.get("/files/reports/s/report.html").body, "<p>report</p>");
    let _ = std::fs::remove_file(srv.dir.parent().unwrap().join("oddsmith-serve-secret.toml"));
}

#[test]
fn oversized_requests_and_work_are_refused() {
    let srv = Running::start(
        "size",
        Limits {
            max_body: 64 * 1024,
            max_work: 1_000_000,
            ..Limits::default()
        },
    );
    let c = srv.client();
    let big = "#".repeat(100 * 1024);
    let r = c.post("/api/check", &json!({ "text": big }));
    assert_eq!(r.status, 413);
    let r = c.post("/api/run", &run_body("p", "trials = 2000000\n"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.json()["refused"].as_str().unwrap().contains("limit"),
        "{}",
        r.body
    );
    assert_eq!(srv.counters.runs.load(Ordering::SeqCst), 0);
}

#[test]
fn writes_need_the_token_and_the_same_origin() {
    let srv = Running::start("token", Limits::default());
    let body = json!({ "file": "s.toml", "text": "trials = 1\n", "version": null, "force": true });
    let no_token = Client::new(srv.addr, None).post("/api/save", &body);
    assert_eq!(no_token.status, 403);
    let wrong = Client::new(srv.addr, Some("0".repeat(32))).post("/api/save", &body);
    assert_eq!(wrong.status, 403);
    let mut other_site = srv.client();
    other_site.origin = Some("http://evil.example".into());
    assert_eq!(other_site.post("/api/save", &body).status, 403);
    let mut rebound = srv.client();
    rebound.host = Some("evil.example".into());
    assert_eq!(rebound.get("/api/catalog").status, 403);
    assert_eq!(
        std::fs::read_to_string(srv.dir.join("s.toml")).unwrap(),
        "trials = 20000\n"
    );
    assert_eq!(srv.client().post("/api/save", &body).status, 200);
    // The page carries the token.
    let page = srv.client().get("/");
    assert!(page.body.contains(&srv.token));
    assert!(
        page.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
}

#[test]
fn validation_errors_come_back_at_their_field() {
    let srv = Running::start("check", Limits::default());
    let c = srv.client();
    let r = c
        .post("/api/check", &json!({ "text": "weapon = \"bad\"\n" }))
        .json();
    assert_eq!(r["check"]["errors"][0]["field"], "fighters.x.weapon");
    assert!(
        r["check"]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean")
    );
    assert_eq!(r["doc"]["weapon"], "bad");
    let run = c.post("/api/run", &run_body("p", "weapon = \"bad\"\n"));
    assert_eq!(run.status, 200);
    assert!(
        run.json()["refused"]
            .as_str()
            .unwrap()
            .contains("did you mean")
    );
    let e = c.post("/api/edit", &json!({ "text": "# keep\n[a]\nb = 1 # one\n", "ops": [{ "op": "set", "path": ["a", "b"], "value": 2 }] }));
    assert_eq!(e.json()["text"], "# keep\n[a]\nb = 2 # one\n");
}

#[test]
fn only_loopback_without_an_explicit_host() {
    let any: IpAddr = "0.0.0.0".parse().unwrap();
    let lan: IpAddr = "192.168.1.2".parse().unwrap();
    let lo: IpAddr = "127.0.0.1".parse().unwrap();
    assert!(bind_address(any, 0, false).is_err());
    assert!(bind_address(lan, 0, false).is_err());
    assert!(bind_address(lo, 0, false).is_ok());
    assert!(bind_address("::1".parse().unwrap(), 0, false).is_ok());
    assert!(bind_address(any, 0, true).is_ok());
}

#[test]
fn exact_answers_stream_beside_the_stages_and_polls_wait_for_news() {
    let srv = Running::start("exact", Limits::default());
    let c = srv.client();
    // Three matchups (5 ms of solving each) beside stages of 10, 20 and 100 ms.
    let text = "trials = 100000\nmatchup a\nmatchup b\nmatchup c\n";
    let run = c.post("/api/run", &run_body("p", text)).json();
    assert_eq!(run["stages"], json!([10_000, 20_000, 100_000]), "{run}");
    let job = run["job"].as_u64().unwrap();
    // A poll that has seen version 0 waits until something is published.
    let t = Instant::now();
    let first = c.get(&format!("/api/job?page=p&job={job}&since=0")).json();
    assert!(first["version"].as_u64().unwrap() > 0, "{first}");
    assert!(
        t.elapsed() < Duration::from_secs(1),
        "answered when news came"
    );
    let done = srv.wait(&c, "p", job, Duration::from_secs(10));
    assert_eq!(done["exact_done"], true, "{done}");
    let names: Vec<&str> = done["exact"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["matchup"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["m0", "m1", "m2"]);
    assert_eq!(done["finished"], 3);
    // A finished job answers a poll at once, whatever version it names.
    let v = done["version"].as_u64().unwrap();
    let t = Instant::now();
    let again = c
        .get(&format!("/api/job?page=p&job={job}&since={v}"))
        .json();
    assert_eq!(again["version"], done["version"]);
    assert!(t.elapsed() < Duration::from_secs(1));
    // Charts of a finished stage: the fake engine has none, and says so with an empty list.
    let charts = c.get(&format!("/api/charts?page=p&job={job}")).json();
    assert_eq!(charts["charts"], json!([]));
    let sweep = c
        .get(&format!("/api/sweep?page=p&job={job}&sweep=0&at=0"))
        .json();
    assert_eq!(sweep["chart"], Value::Null);
    let sections = c.get(&format!("/api/sections?page=p&job={job}")).json();
    assert_eq!(sections["sections"], json!([]));
    // No readings study for this text: said so once the job is done.
    assert_eq!(
        (&done["readings_done"], &done["readings"]),
        (&json!(true), &Value::Null)
    );
}

#[test]
fn the_readings_study_comes_in_the_background_before_the_job_is_done() {
    let srv = Running::start("readings", Limits::default());
    let c = srv.client();
    let text = "trials = 30000\nmatchup a\nreadings\n";
    let run = c.post("/api/run", &run_body("p", text)).json();
    let job = run["job"].as_u64().unwrap();
    let done = srv.wait(&c, "p", job, Duration::from_secs(10));
    assert_eq!(done["finished"], 3, "{done}");
    assert_eq!(done["readings_done"], true, "{done}");
    assert_eq!(done["readings"]["readings"][0]["matchup"], "m0", "{done}");
}
