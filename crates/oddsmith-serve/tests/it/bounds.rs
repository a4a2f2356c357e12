//! What a page or a request may hold: abandoned jobs are cancelled and free their worker,
//! validations run a few at a time, the `Host` must name this server, report names are
//! derived safely, and a save never follows a planted link.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use oddsmith_serve::Limits;
use serde_json::json;

use super::{Running, run_body};

/// Three pages ask for 2e9 trials (2,000 s each with the fake engine) and never poll; a
/// fourth page's small preview still finishes within a few seconds, because the abandoned
/// jobs are cancelled (with the default limits: cancelled within 5 s of the last poll).
#[test]
fn abandoned_jobs_are_cancelled_and_another_page_s_preview_completes() {
    let srv = Running::start(
        "abandon",
        Limits {
            workers: 2,
            ..Limits::default()
        },
    );
    let c = srv.client();
    let huge = "trials = 2000000000\n";
    let t0 = Instant::now();
    let jobs: Vec<u64> = (0..3)
        .map(|i| {
            let r = c
                .post("/api/run", &run_body(&format!("gone{i}"), huge))
                .json();
            r["job"].as_u64().unwrap_or_else(|| panic!("{r}"))
        })
        .collect();
    while srv.counters.running.load(Ordering::SeqCst) < 2 {
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "the big jobs never started"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(srv.server.jobs().busy(), 2);
    let small = c
        .post("/api/run", &run_body("alive", "trials = 2000\n"))
        .json();
    let job = small["job"].as_u64().unwrap();
    // Polled as the page does, until done.
    let v = srv.wait(&c, "alive", job, Duration::from_secs(15));
    let took = t0.elapsed();
    assert_eq!(
        (v["finished"].as_u64(), &v["cancelled"]),
        (Some(1), &json!(false)),
        "{v}"
    );
    assert!(
        took < Duration::from_secs(9),
        "the small preview took {took:?} behind abandoned jobs"
    );
    // Every abandoned job is done, cancelled and marked abandoned; no worker is busy.
    for (i, j) in jobs.iter().enumerate() {
        let s = c.get(&format!("/api/job?page=gone{i}&job={j}")).json();
        assert_eq!(
            (&s["done"], &s["cancelled"], &s["abandoned"]),
            (&json!(true), &json!(true), &json!(true)),
            "{s}"
        );
    }
    let t = Instant::now();
    while srv.server.jobs().busy() > 0 {
        assert!(t.elapsed() < Duration::from_secs(2), "a worker stayed busy");
        std::thread::sleep(Duration::from_millis(10));
    }
    // The two that had started were stopped by their cancel flag (the third never started).
    assert_eq!(srv.counters.cancelled.load(Ordering::SeqCst), 2);
}

/// A page that keeps polling keeps its job well past the abandonment time; once it stops,
/// the job is cancelled within that time (here 1 s) and a few reaper ticks.
#[test]
fn a_job_lives_while_its_page_polls_and_a_closed_page_cancels_at_once() {
    let srv = Running::start(
        "keep",
        Limits {
            workers: 1,
            abandon_after: Duration::from_secs(1),
            ..Limits::default()
        },
    );
    let c = srv.client();
    // 20 s of work.
    let r = c
        .post("/api/run", &run_body("p", "trials = 20000000\n"))
        .json();
    let job = r["job"].as_u64().unwrap();
    let url = format!("/api/job?page=p&job={job}");
    let t = Instant::now();
    let mut version = 0;
    while t.elapsed() < Duration::from_secs(3) {
        let s = c.get(&format!("{url}&since={version}")).json();
        assert_eq!(s["done"], false, "cancelled while polled: {s}");
        version = s["version"].as_u64().unwrap();
    }
    let stopped = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(50));
        if srv.server.jobs().busy() == 0 {
            break;
        }
        assert!(
            stopped.elapsed() < Duration::from_secs(3),
            "still running after the page stopped polling"
        );
    }
    assert!(stopped.elapsed() >= Duration::from_millis(900));
    let s = c.get(&url).json();
    assert_eq!(
        (&s["abandoned"], &s["done"]),
        (&json!(true), &json!(true)),
        "{s}"
    );

    // A page that closes says so: its job stops at once.
    let r = c
        .post("/api/run", &run_body("q", "trials = 20000000\n"))
        .json();
    let t = Instant::now();
    while srv.counters.running.load(Ordering::SeqCst) == 0 {
        assert!(t.elapsed() < Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(5));
    }
    let bye = c.post("/api/cancel", &json!({ "page": "q" }));
    assert_eq!(bye.status, 200, "{}", bye.body);
    let t = Instant::now();
    while srv.server.jobs().busy() > 0 {
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "not cancelled at once"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let s = c.get(&format!("/api/job?page=q&job={}", r["job"])).json();
    assert_eq!(
        (&s["cancelled"], &s["abandoned"]),
        (&json!(true), &json!(false)),
        "{s}"
    );
}

/// Twelve slow validations at once: at most two run at a time, three more wait, the rest are
/// refused as busy at once (never queued without bound).
#[test]
fn validations_run_a_few_at_a_time() {
    let srv = std::sync::Arc::new(Running::start(
        "checks",
        Limits {
            checks: 2,
            check_queue: 3,
            ..Limits::default()
        },
    ));
    let answers: Vec<(u16, String)> = (0..12)
        .map(|_| {
            let srv = srv.clone();
            std::thread::spawn(move || {
                let r = srv
                    .client()
                    .post("/api/check", &json!({ "text": "# slow\ntrials = 1000\n" }));
                (r.status, r.body)
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect();
    assert!(srv.counters.max_checking.load(Ordering::SeqCst) <= 2);
    let ok = answers.iter().filter(|a| a.0 == 200).count();
    let busy = answers
        .iter()
        .filter(|a| a.0 == 503 && a.1.contains("busy"))
        .count();
    assert_eq!(ok + busy, 12, "{answers:?}");
    assert!(
        ok >= 5 && busy >= 1,
        "{ok} answered, {busy} refused: {answers:?}"
    );
    // A run's own validation counts too: refused as data, not queued.
    let r = srv
        .client()
        .post("/api/run", &run_body("p", "trials = 1000\n"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["job"].is_u64(), "{}", r.body);
}

#[test]
fn the_host_must_name_this_server() {
    let srv = Running::start("host", Limits::default());
    let port = srv.addr.port();
    for (host, status) in [
        (format!("127.0.0.1:{port}"), 200),
        (format!("localhost:{port}"), 200),
        (format!("10.1.2.3:{port}"), 403),
        (format!("192.168.0.1:{port}"), 403),
        (format!("[fe80::1]:{port}"), 403),
        (format!("rebound.example:{port}"), 403),
    ] {
        let mut c = srv.client();
        c.host = Some(host.clone());
        let r = c.get("/api/catalog");
        assert_eq!(r.status, status, "{host}: {}", r.body);
    }
}

#[test]
fn report_names_are_derived_safely() {
    let srv = Running::start("stem", Limits::default());
    let c = srv.client();
    for file in [".toml", "sub/.toml", ".hidden.toml"] {
        let r = c.post(
            "/api/report",
            &json!({ "text": "trials = 1000\n", "file": file }),
        );
        assert_eq!(r.status, 400, "{file}: {}", r.body);
        assert!(r.body.contains("needs a name"), "{}", r.body);
    }
    assert!(!srv.dir.join("reports").exists(), "nothing written");
    let r = c.post(
        "/api/report",
        &json!({ "text": "trials = 1000\n", "file": "duel.toml" }),
    );
    assert_eq!(r.json()["folder"], "reports/duel");
    assert!(srv.dir.join("reports/duel/report.html").is_file());
    assert!(!srv.dir.join("reports/report.html").exists());
    // A report computes the file's own trials: held to the explorer's limit of work, and an
    // invalid text is refused before anything is written.
    for (text, why) in [
        ("trials = 3000000000\n", "limit"),
        ("weapon = \"bad\"\n", "did you mean"),
    ] {
        let r = c.post("/api/report", &json!({ "text": text, "file": "big.toml" }));
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.body.contains(why), "{}", r.body);
    }
    assert!(!srv.dir.join("reports/big").exists());
}

/// `evil.toml.oddsmith-save -> a file outside the folder`, planted beside the scenario: a
/// save through the explorer writes nothing outside.
#[cfg(unix)]
#[test]
fn a_save_never_follows_a_planted_link() {
    let srv = Running::start("planted", Limits::default());
    let outside = srv.dir.with_extension("outside");
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).unwrap();
    let victim = outside.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    std::fs::write(srv.dir.join("evil.toml"), "trials = 1\n").unwrap();
    std::os::unix::fs::symlink(&victim, srv.dir.join("evil.toml.oddsmith-save")).unwrap();
    std::os::unix::fs::symlink(&victim, srv.dir.join("fresh.toml.oddsmith-save")).unwrap();
    let c = srv.client();
    let o = c.get("/api/open?file=evil.toml").json();
    for (file, version) in [
        ("evil.toml", o["version"].clone()),
        ("fresh.toml", json!(null)),
    ] {
        let r = c.post(
            "/api/save",
            &json!({ "file": file, "text": "trials = 2\n", "version": version }),
        );
        assert_eq!(r.status, 200, "{file}: {}", r.body);
        assert_eq!(
            std::fs::read_to_string(srv.dir.join(file)).unwrap(),
            "trials = 2\n"
        );
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1);
    // A link at the saved name itself, out of the folder: refused.
    std::os::unix::fs::symlink(&victim, srv.dir.join("link.toml")).unwrap();
    let r = c.post(
        "/api/save",
        &json!({ "file": "link.toml", "text": "x", "version": null, "force": true }),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let _ = std::fs::remove_dir_all(&outside);
}
