//! The CLI end to end, in-process: golden runs of every bundled scenario, determinism across
//! thread counts, the JSON contract, and errors that stop before any output.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the CLI; returns (exit code, stdout, stderr).
fn cli(args: &[&str]) -> (u8, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = oddsmith::main_impl(
        std::iter::once("oddsmith").chain(args.iter().copied()),
        &mut out,
        &mut err,
    );
    let code = if code == std::process::ExitCode::SUCCESS {
        0
    } else if code == std::process::ExitCode::from(2) {
        2
    } else {
        1
    };
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn scenarios() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("scenarios/draft"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    v.sort();
    v
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap()
}

#[test]
fn golden_every_bundled_scenario() {
    for p in scenarios() {
        let path = p.to_str().unwrap();
        let (code, out, err) = cli(&[
            "run",
            path,
            "--trials",
            "3000",
            "--seed",
            "1",
            "--threads",
            "2",
            "--json",
        ]);
        assert_eq!(code, 0, "{path}: {err}");
        let name = p.file_stem().unwrap().to_str().unwrap().to_string();
        insta::assert_snapshot!(format!("run-{name}"), out);
    }
}

#[test]
fn golden_terminal_table() {
    let p = root().join("scenarios/draft/reference-duels.toml");
    let (code, out, _) = cli(&[
        "run",
        p.to_str().unwrap(),
        "--trials",
        "20000",
        "--seed",
        "2",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("table-reference-duels", out);
}

#[test]
fn one_and_two_threads_give_identical_output() {
    let p = root().join("scenarios/draft/sword-and-shield-vs-greatsword.toml");
    let run = |t: &str| {
        cli(&[
            "run",
            p.to_str().unwrap(),
            "--trials",
            "25000",
            "--threads",
            t,
            "--json",
        ])
        .1
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("2"));
}

#[test]
fn json_contract_keys() {
    let p = root().join("scenarios/draft/reference-duels.toml");
    let (_, out, _) = cli(&["run", p.to_str().unwrap(), "--trials", "20000", "--json"]);
    let v = json(&out);
    assert_eq!(v["scenario"], "reference-duels");
    assert_eq!(v["ruleset"], "draft");
    assert_eq!(v["seed"], 1);
    let m = &v["matchups"][0];
    for k in [
        "name",
        "trials",
        "a_wins",
        "b_wins",
        "draws",
        "p_a_win",
        "p_a_win_ci95",
        "p_draw",
        "rounds",
        "exact",
    ] {
        assert!(!m[k].is_null(), "missing {k}");
    }
    for k in ["mean", "sd", "p50", "p90", "p99", "max"] {
        assert!(m["rounds"][k].is_number(), "missing rounds.{k}");
    }
    assert_eq!(m["trials"], 20000);
    let (a, b, d) = (
        m["a_wins"].as_u64().unwrap(),
        m["b_wins"].as_u64().unwrap(),
        m["draws"].as_u64().unwrap(),
    );
    assert_eq!(a + b + d, 20000);
    // D2's exact value is the digest's oracle, and the Monte Carlo value lies within 4σ of it.
    let d2 = &v["matchups"][1];
    let exact = d2["exact"]["p_a_win"].as_f64().unwrap();
    assert!((exact - 0.808961).abs() < 5e-7);
    let sigma = (exact * (1.0 - exact) / 20000.0).sqrt();
    assert!((d2["p_a_win"].as_f64().unwrap() - exact).abs() < 4.0 * sigma);
    let ci = d2["p_a_win_ci95"].as_array().unwrap();
    assert!(
        ci[0].as_f64().unwrap() < d2["p_a_win"].as_f64().unwrap()
            && d2["p_a_win"].as_f64().unwrap() < ci[1].as_f64().unwrap()
    );
}

#[test]
fn precision_flag_stops_early() {
    let p = root().join("scenarios/draft/reference-duels.toml");
    let (code, out, _) = cli(&[
        "run",
        p.to_str().unwrap(),
        "--precision",
        "0.01",
        "--json",
        "--no-exact",
    ]);
    assert_eq!(code, 0);
    let v = json(&out);
    for m in v["matchups"].as_array().unwrap() {
        let ci = m["p_a_win_ci95"].as_array().unwrap();
        assert!((ci[1].as_f64().unwrap() - ci[0].as_f64().unwrap()) / 2.0 <= 0.01);
        assert!(m["trials"].as_u64().unwrap() <= 20_000);
        assert!(m.get("exact").is_none());
    }
}

#[test]
fn bad_scenario_stops_before_any_output() {
    let dir = std::env::temp_dir().join(format!("oddsmith-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.toml");
    let text = std::fs::read_to_string(root().join("scenarios/draft/skill-gap.toml")).unwrap();
    std::fs::write(
        &f,
        text.replace(
            "weapon = \"long sword\"\narmour = \"leather\"\nstr = 6\ncon = 6\n\n[fighters.skill-5]",
            "weapon = \"long sword\"\narmour = \"leathr\"\nstr = 6\ncon = 6\n\n[fighters.skill-5]",
        ),
    )
    .unwrap();
    let (code, out, err) = cli(&["run", f.to_str().unwrap(), "--json"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("bad.toml:")
            && err.contains("fighters.skill-6.armour")
            && err.contains("unknown armour \"leathr\""),
        "{err}"
    );
    let (code, out, _) = cli(&[
        "validate",
        f.to_str().unwrap(),
        root()
            .join("scenarios/draft/skill-gap.toml")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(out.contains("bad ") && out.contains("ok  "), "{out}");
    let (code, _, err) = cli(&["run", "no/such/file.toml"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot read scenario no/such/file.toml"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_command_json_and_errors() {
    let (code, out, _) = cli(&[
        "check",
        "draft",
        "skill=5",
        "difficulty=hard",
        "--trials",
        "50000",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["ruleset"], "draft");
    assert_eq!(v["exact"]["p_success"], 0.4);
    assert_eq!(v["exact"]["p_success_fraction"], serde_json::json!([2, 5]));
    assert_eq!(v["exact"]["distribution"].as_array().unwrap().len(), 10);
    let p = v["monte_carlo"]["p_success"].as_f64().unwrap();
    assert!((p - 0.4).abs() < 4.0 * (0.24f64 / 50000.0).sqrt());
    assert_eq!(v["monte_carlo"]["trials"], 50000);
    let (code, _, err) = cli(&["check", "draft", "skill=5", "difficulty=impossible"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown level \"impossible\""), "{err}");
    let (code, _, err) = cli(&["check", "gurps", "skill=5"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown ruleset \"gurps\""), "{err}");
}

#[test]
fn rulesets_lists_options_with_defaults() {
    let (code, out, _) = cli(&["rulesets"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("draft"));
    let (code, out, _) = cli(&["rulesets", "draft", "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    let opts = v["options"].as_array().unwrap();
    assert!(
        opts.iter()
            .any(|o| o["name"] == "end_condition" && o["default"] == "\"incapacitated\"")
    );
    let (code, out, _) = cli(&["rulesets", "draft"]);
    assert_eq!(code, 0);
    assert!(out.contains("wound_overflow = \"keep\""), "{out}");
}
