//! The static page (`web/dist/`, built by `web/build.sh`) in headless Chromium, served by a
//! small static server of this test: for one bundled scenario per ruleset, the page's run (the
//! engine in WebAssembly, one shard per Web Worker, summed as `oddsmith merge` does) equals
//! the native `oddsmith run FILE --json --no-report --trials T` byte for byte, with 1 and with
//! 4 workers; a share link reproduces the scenario and its numbers; an error in the TOML shows
//! at its line; the "depends on" panel has the figures of `oddsmith run --readings`; cancel
//! ends the workers; the report's charts show in the page, drawn in the
//! engine with the same code and font as the native report, SVG for SVG.
//!
//! Without `web/dist/` (the wasm toolchain is not on every machine) or without
//! chromium/chromedriver it prints `SKIPPED: <reason>`, unless `ODDSMITH_WEB_REQUIRED=1` (as
//! `.ci/run` sets it after building the page), which makes a missing page a failure.
//! `ODDSMITH_WEB_DIST=DIR` tests another build of the page.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use serde_json::{Value, json};

use super::explorer::start_driver;
use super::root;

/// Trials per run in the comparisons: enough for every chunk path (several chunks of 10,000,
/// so 4 workers each get a share), small enough for CI.
const TRIALS: u64 = 40_000;

/// One bundled scenario per ruleset, a study (a sweep: many runs, one shard each) and a
/// `[balance]` search (which cannot be sharded: the page runs it in one worker).
const SCENARIOS: [&str; 7] = [
    "scenarios/draft/skill-gap.toml",
    "scenarios/d20/armor-vs-dex.toml",
    "scenarios/gamecraft/reference-duel.toml",
    "scenarios/openrpg/reference-duel.toml",
    "scenarios/cards/devon-vs-soldier.toml",
    "scenarios/studies/draft-skill-sweep.toml",
    "scenarios/studies/draft-fair-armour.toml",
];

/// Serves the files of `dir` on loopback (GET only, no listing), as any static host would.
fn serve(dir: PathBuf) -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let dir = dir.clone();
            std::thread::spawn(move || answer(&dir, s));
        }
    });
    port
}

fn answer(dir: &Path, mut s: TcpStream) {
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut line = String::new();
    if r.read_line(&mut line).is_err() {
        return;
    }
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).map_or(true, |n| n == 0) || h == "\r\n" {
            break;
        }
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let rel = if path == "/" {
        "index.html"
    } else {
        path.trim_start_matches('/')
    };
    let file = dir.join(rel);
    let ok = !rel.contains("..") && file.is_file();
    let body = if ok {
        std::fs::read(&file).unwrap_or_default()
    } else {
        b"not found".to_vec()
    };
    let kind = match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript",
        "css" => "text/css",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    };
    let head = format!(
        "HTTP/1.1 {}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        if ok { "200 OK" } else { "404 Not Found" },
        body.len()
    );
    let _ = s
        .write_all(head.as_bytes())
        .and_then(|()| s.write_all(&body));
}

/// `oddsmith run FILE --json --no-report --trials TRIALS`, in this process: its stdout.
fn native(file: &str) -> String {
    let trials = TRIALS.to_string();
    let (code, out, err) = super::cli(&["run", file, "--json", "--no-report", "--trials", &trials]);
    assert_eq!(code, 0, "{file}: {err}");
    out
}

async fn js(c: &Client, script: &str, args: Vec<Value>) -> Value {
    c.execute(script, args)
        .await
        .unwrap_or_else(|e| panic!("{script}: {e}"))
}

/// Runs an async script (its last argument is the callback) and returns what it passes on.
async fn js_async(c: &Client, script: &str, args: Vec<Value>) -> Value {
    c.execute_async(script, args)
        .await
        .unwrap_or_else(|e| panic!("{script}: {e}"))
}

async fn until(c: &Client, script: &str, limit: Duration) -> Value {
    let t = Instant::now();
    loop {
        let v = js(c, script, vec![]).await;
        if !(v.is_null() || v == false || v == "") {
            return v;
        }
        assert!(t.elapsed() < limit, "timed out waiting for: {script}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The page's run of `text` at [`TRIALS`] with `workers` shards: the JSON text, or the error.
const RUN: &str = "const [text, file, workers, trials, done] = arguments; \
    oddsmithLocal.runJson(text, file, { workers, trials }).then((j) => done({ ok: j }), (e) => done({ error: String(e.message || e) }));";

#[test]
fn the_page_runs_the_engine_with_the_native_numbers() {
    let dist = std::env::var_os("ODDSMITH_WEB_DIST")
        .map_or_else(|| root().join("web/dist"), PathBuf::from);
    let required = std::env::var_os("ODDSMITH_WEB_REQUIRED").is_some_and(|v| v == "1");
    if !dist.join("oddsmith_bg.wasm").is_file() {
        assert!(
            !required,
            "{} has no page: run web/build.sh",
            dist.display()
        );
        println!("SKIPPED: {} is not built (web/build.sh)", dist.display());
        return;
    }
    let (_driver, driver_port) = match start_driver() {
        Ok(d) => d,
        Err(why) => {
            assert!(!required, "{why}");
            println!("SKIPPED: {why}");
            return;
        }
    };
    let port = serve(dist);
    let url = format!("http://127.0.0.1:{port}/index.html?no-sw");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({ "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900"] }),
        );
        let mut builder = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        builder.capabilities(caps);
        let c = match builder.connect(&format!("http://127.0.0.1:{driver_port}")).await {
            Ok(c) => c,
            Err(e) => {
                assert!(!required, "chromium does not start: {e}");
                println!("SKIPPED: chromium does not start under chromedriver: {e}");
                return;
            }
        };
        let long = fantoccini::wd::TimeoutConfiguration::new(Some(Duration::from_secs(600)), None, None);
        c.update_timeouts(long).await.unwrap();
        c.goto(&url).await.unwrap();
        // The page opened its first bundled scenario and checked it in the engine.
        until(&c, "return window.oddsmith && window.oddsmith.check && window.oddsmith.check.summary;", Duration::from_secs(60)).await;

        // 1. Bit for bit with the native CLI, every ruleset, 1 and 4 workers.
        for file in SCENARIOS {
            let text = std::fs::read_to_string(root().join(file)).unwrap();
            let want = native(&root().join(file).to_string_lossy());
            let full = root().join(file).to_string_lossy().into_owned();
            for workers in [1, 4] {
                let got = js_async(&c, RUN, vec![json!(text), json!(full), json!(workers), json!(TRIALS)]).await;
                let got = got["ok"].as_str().unwrap_or_else(|| panic!("{file}, {workers} workers: {got}"));
                assert!(
                    got.trim_end() == want.trim_end(),
                    "{file}, {workers} workers: the page's JSON differs from the native CLI's\n--- page\n{got}\n--- native\n{want}"
                );
            }
        }

        // 2. A share link: the scenario in the fragment; opening it gives the same text and
        //    the same numbers (the preview's last stage, a deterministic run).
        let done = "const s = window.oddsmith; return s.jobDone && document.querySelector('#answers tbody tr .mc').textContent.includes('%') && document.querySelector('#answers tbody').textContent;";
        let before = until(&c, done, Duration::from_secs(120)).await;
        let text = js(&c, "return window.oddsmith.text;", vec![]).await;
        c.find(fantoccini::Locator::Css("#share")).await.unwrap().click().await.unwrap();
        let link = until(&c, "return location.hash.startsWith('#s=') && location.href;", Duration::from_secs(10)).await;
        c.goto("about:blank").await.unwrap();
        c.goto(link.as_str().unwrap()).await.unwrap();
        until(&c, "return window.oddsmith && window.oddsmith.text.length > 0;", Duration::from_secs(60)).await;
        assert_eq!(js(&c, "return window.oddsmith.text;", vec![]).await, text);
        let after = until(&c, done, Duration::from_secs(120)).await;
        assert_eq!(after, before, "the shared link's numbers");

        // 2b. The page shows the report's charts: SVG with its text (labels, titles).
        let shown = until(&c, "const i = document.querySelector('img.chart:not([hidden])'); return i && decodeURIComponent(i.src);", Duration::from_secs(60)).await;
        let shown = shown.as_str().unwrap();
        assert!(shown.starts_with("data:image/svg+xml") && shown.contains("<svg") && shown.contains("<text"), "{shown:.300}");

        // 3. An error in the TOML shows at its line.
        js(&c, "const t = document.getElementById('toml'); t.value = 'ruleset = \"draft\"\\nname = \"x\"\\n\\n[fighters.a]\\nskil = 3\\n'; t.dispatchEvent(new Event('input'));", vec![]).await;
        let err = until(&c, "return [...document.querySelectorAll('#errors li')].map((e) => e.textContent).join('\\n');", Duration::from_secs(30)).await;
        assert!(err.as_str().unwrap().lines().any(|l| l.starts_with("line 5:") && l.contains("skil")), "{err}");

        // 3b. The "depends on" panel: filled in the background (its own worker) after the
        //     first preview, with the figures of `oddsmith run FILE --readings`.
        let text = std::fs::read_to_string(root().join(SCENARIOS[0])).unwrap().replace("precision = 0.001", "trials = 2000");
        js(&c, "const t = document.getElementById('toml'); t.value = arguments[0]; t.dispatchEvent(new Event('input')); return true;", vec![json!(text)]).await;
        until(&c, "return window.oddsmith.text.includes('trials = 2000') && window.oddsmith.renderedSeq === window.oddsmith.editSeq;", Duration::from_secs(30)).await;
        until(&c, "return document.getElementById('depends').dataset.state === 'done';", Duration::from_secs(600)).await;
        let page = js(&c, super::explorer::DEPENDS_ROWS, vec![]).await;
        let rows = super::explorer::depends_panel_is_the_cli_s(&text, &page);
        assert!(rows > 0, "no factor rows in the page's panel: {page}");
        println!("depends on (wasm): {rows} factor rows, as `oddsmith run --readings` gives them");

        // 4. Cancel ends the run's workers (only the page's own engine stays).
        let idle = js(&c, "return oddsmithLocal.live;", vec![]).await;
        let text = std::fs::read_to_string(root().join(SCENARIOS[0])).unwrap();
        js(&c, "window.cancelled = oddsmithLocal.runJson(arguments[0], 'x.toml', { workers: 4, trials: 1e9 }).then(() => 'finished', (e) => e.message);", vec![json!(text)]).await;
        until(&c, &format!("return oddsmithLocal.live >= {} + 4;", idle), Duration::from_secs(30)).await;
        js(&c, "oddsmithLocal.cancelRun();", vec![]).await;
        let why = js_async(&c, "window.cancelled.then(arguments[0]);", vec![]).await;
        assert_eq!(why, "cancelled");
        assert_eq!(js(&c, "return oddsmithLocal.live;", vec![]).await, idle);

        // 5. The charts drawn in the page (wasm, the font handed over by the page) are the
        //    native report's charts/<stem>.svg, byte for byte, for a duel and a sweep study.
        for file in [SCENARIOS[0], SCENARIOS[5]] {
            let full = root().join(file).to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&full).unwrap();
            let dir = super::temp_dir(&format!("web-charts-{}", file.len()));
            let out = dir.join("report");
            let trials = TRIALS.to_string();
            let (code, _, err) = super::cli(&["run", &full, "--trials", &trials, "--out", out.to_str().unwrap()]);
            assert_eq!(code, 0, "{file}: {err}");
            let got = js_async(&c, RUN, vec![json!(text), json!(full), json!(4), json!(TRIALS)]).await;
            assert!(got["ok"].is_string(), "{file}: {got}");
            let charts = js_async(&c, "oddsmithLocal.charts().then(arguments[0], (e) => arguments[0]({ error: String(e) }));", vec![]).await;
            let charts = charts.as_array().unwrap_or_else(|| panic!("{file}: {charts}"));
            assert!(!charts.is_empty(), "{file}: no charts");
            for ch in charts {
                let stem = ch["stem"].as_str().unwrap();
                assert!(ch["error"].is_null(), "{file} {stem}: {}", ch["error"]);
                let svg = ch["svg"].as_str().unwrap();
                let want = std::fs::read_to_string(out.join(format!("charts/{stem}.svg")))
                    .unwrap_or_else(|e| panic!("{file}: the native report has no charts/{stem}.svg: {e}"));
                assert!(svg.contains("<text"), "{file} {stem}: no text");
                assert!(svg == want, "{file} {stem}: the page's chart differs from the native report's\n--- page\n{svg}\n--- native\n{want}");
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
        let _ = c.close().await;
    });
}
