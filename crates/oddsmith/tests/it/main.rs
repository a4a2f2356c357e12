//! The CLI end to end, in-process: golden runs of every bundled scenario, determinism across
//! thread counts, the JSON contract, and errors that stop before any output.

use std::path::{Path, PathBuf};

mod corpus;
mod docs;
mod exact;
mod explorer;
mod group;
mod schema;
mod shard;
mod warnings;
mod web;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the CLI; returns (exit code, stdout, stderr). `run` gets `--no-report` unless the
/// test names an `--out` folder, so tests never write into the repository's `reports/`.
fn cli(args: &[&str]) -> (u8, String, String) {
    let mut args = args.to_vec();
    if args.first() == Some(&"run") && !args.contains(&"--out") && !args.contains(&"--no-report") {
        args.push("--no-report");
    }
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
    } else if code == std::process::ExitCode::from(3) {
        3
    } else {
        1
    };
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// Every bundled scenario of every ruleset (`scenarios/<ruleset>/*.toml`).
fn scenarios() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("scenarios"))
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
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
        let ruleset = p.parent().unwrap().file_name().unwrap().to_str().unwrap();
        let name = p.file_stem().unwrap().to_str().unwrap();
        insta::assert_snapshot!(format!("run-{ruleset}-{name}"), out);
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
    // Far more threads than cores: lowered with a note, same numbers (it used to exhaust the
    // machine and hang).
    let (code, out, err) = cli(&[
        "run",
        p.to_str().unwrap(),
        "--trials",
        "25000",
        "--threads",
        "100000",
        "--json",
    ]);
    assert_eq!((code, out), (0, one), "{err}");
    assert!(
        err.contains("--threads 100000 is more than this machine's"),
        "{err}"
    );
}

#[test]
fn json_contract_keys() {
    let p = root().join("scenarios/draft/reference-duels.toml");
    let (_, out, _) = cli(&[
        "run",
        p.to_str().unwrap(),
        "--trials",
        "20000",
        "--json",
        "--no-report",
    ]);
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
        assert_eq!(m["precision"]["met"], true);
        assert_eq!(m["precision"]["target"], 0.01);
    }
    // A target the trial cap does not let the run reach is reported, not passed over.
    let (code, out, err) = cli(&[
        "run",
        p.to_str().unwrap(),
        "--precision",
        "0.005",
        "--trials",
        "2000",
        "--json",
        "--no-exact",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let m = &v["matchups"][0];
    assert_eq!(
        (m["trials"].as_u64(), &m["precision"]["met"]),
        (Some(2000), &false.into())
    );
    assert!(m["precision"]["reached"].as_f64().unwrap() > 0.02);
    assert!(
        err.contains("note: D1: the precision target ±0.005 was not reached: the trial cap stopped the run at 2000 duels"),
        "{err}"
    );
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
    let (code, out, err) = cli(&["run", f.to_str().unwrap(), "--json", "--no-report"]);
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
fn check_takes_ruleset_options_with_set() {
    // Gamecraft's full dodge adds `full_dodge_bonus` (default 10) to the defense: the
    // option, given on the command line, changes the answer.
    let p = |extra: &[&str]| {
        let mut args = vec![
            "check",
            "gamecraft",
            "attack=5",
            "defense=10",
            "dodge=full",
            "--trials",
            "1000",
            "--json",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = cli(&args);
        assert_eq!(code, 0, "{err}");
        json(&out)["exact"]["p_success"].as_f64().unwrap()
    };
    let default = p(&[]);
    assert_eq!(default, p(&["--set", "full_dodge_bonus=10"]));
    let smaller = p(&["--set", "full_dodge_bonus=2"]);
    assert!(smaller > default, "{smaller} vs {default}");
    let (code, _, err) = cli(&[
        "check",
        "gamecraft",
        "attack=5",
        "--set",
        "full_dodge_bonu=2",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("full_dodge_bonus"), "{err}");
    let (code, _, err) = cli(&[
        "check",
        "gamecraft",
        "attack=5",
        "--set",
        "full_dodge_bonus",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("expected key=value"), "{err}");
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

/// No number in a scenario file can make oddsmith panic: each numeric field, set to extreme
/// values, either runs or gives an input error (exit 2).
#[test]
fn extreme_values_never_panic() {
    let keys = [
        "fighters.x.skill",
        "fighters.x.shield_skill",
        "fighters.x.dodge",
        "fighters.x.str",
        "fighters.x.con",
        "fighters.x.adaptive_threshold",
        "fighters.x.attack_modifier",
        "fighters.x.defence_modifier",
        "fighters.x.weapon.impact",
        "fighters.x.weapon.bonus",
        "fighters.x.armour.protection",
        "fighters.x.armour.movement",
        "options.free_actions_per_round",
        "options.max_actions_per_round",
        "options.extra_action_modifier",
        "options.weapon_damage_multiplier",
        "options.aspect_bonus",
        "options.scratch_max_damage",
        "options.wound_capacity.light",
        "options.wound_capacity.critical",
        "options.wound_penalties.severe",
        "options.undefended_value",
        "options.wide_weight_gap",
        "options.parry_impact_reach",
        "options.shield_bonus.small",
        "options.shield_max_parry_impact.large",
        "options.unfamiliar_weapon_modifier",
        "options.defensive_position_bonus",
        "options.lying_target_bonus",
        "options.max_rounds",
        "seed",
        "trials",
    ];
    let values = [
        "-9223372036854775808",
        "-2147483649",
        "-1000",
        "-1",
        "0",
        "1",
        "7",
        "1000",
        "2147483648",
        "9223372036854775807",
    ];
    let dir = std::env::temp_dir().join(format!("oddsmith-extreme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("x.toml");
    for key in keys {
        for v in values {
            let mut fx = vec![
                ("skill", "6".to_string()),
                ("weapon", "{ impact = 2, aspect = \"sharp\" }".to_string()),
                ("armour", "{ protection = 2, movement = 0 }".to_string()),
                ("shield", "\"small\"".to_string()),
            ];
            let mut top = vec![("seed", "1".to_string()), ("trials", "50".to_string())];
            let mut opts: Vec<(String, String)> = vec![];
            let parts: Vec<&str> = key.split('.').collect();
            match parts.as_slice() {
                ["fighters", "x", "weapon", k] => {
                    fx[1].1 = format!("{{ impact = 2, aspect = \"sharp\", {k} = {v} }}").replace(
                        "impact = 2, aspect = \"sharp\", impact",
                        "aspect = \"sharp\", impact",
                    )
                }
                ["fighters", "x", "armour", k] => {
                    fx[2].1 = if *k == "protection" {
                        format!("{{ protection = {v} }}")
                    } else {
                        format!("{{ protection = 2, movement = {v} }}")
                    }
                }
                ["fighters", "x", k] => fx.push((k, v.to_string())),
                ["options", k] => opts.push((k.to_string(), v.to_string())),
                ["options", k, sub] => opts.push((k.to_string(), format!("{{ {sub} = {v} }}"))),
                [k] => top
                    .iter_mut()
                    .filter(|(n, _)| n == k)
                    .for_each(|e| e.1 = v.to_string()),
                _ => unreachable!(),
            }
            // Keep the trial count small whatever the case.
            if key != "trials" {
                top[1].1 = "50".into();
            }
            let mut text = String::from("name = \"x\"\nruleset = \"draft\"\n");
            for (k, v) in &top {
                text += &format!("{k} = {v}\n");
            }
            text += "\n[options]\n";
            for (k, v) in &opts {
                text += &format!("{k} = {v}\n");
            }
            text += "\n[fighters.x]\n";
            // Dedupe: a pushed key replaces the template's.
            let mut seen = std::collections::BTreeMap::new();
            for (k, v) in &fx {
                seen.insert(*k, v.clone());
            }
            for (k, v) in &seen {
                text += &format!("{k} = {v}\n");
            }
            text += "\n[fighters.y]\nskill = 5\nweapon = \"mace\"\n";
            std::fs::write(&f, &text).unwrap();
            let trials_cap = if key == "trials" {
                vec!["--trials", "50"]
            } else {
                vec![]
            };
            let mut args = vec![
                "run",
                f.to_str().unwrap(),
                "--json",
                "--no-exact",
                "--no-report",
            ];
            args.extend(trials_cap);
            let (code, _, err) = cli(&args);
            assert!(
                code == 0 || code == 2,
                "{key} = {v}: exit {code}: {err}\n{text}"
            );
            if code == 2 {
                assert!(
                    err.contains("x.toml:"),
                    "{key} = {v}: unlocated error {err}"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `oddsmith run SCENARIO --trials N --out DIR`.
fn run_to(scenario: &Path, trials: &str, out: &Path) -> (u8, String, String) {
    cli(&[
        "run",
        scenario.to_str().unwrap(),
        "--trials",
        trials,
        "--out",
        out.to_str().unwrap(),
    ])
}

/// A fresh, empty temporary folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oddsmith-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Checks an SVG file parses as XML with an <svg> root of the given size and real content.
fn assert_valid_svg(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc =
        roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{}", path.display());
    let w: u32 = root.attribute("width").unwrap().parse().unwrap();
    let h: u32 = root.attribute("height").unwrap().parse().unwrap();
    assert!(w >= 600 && h >= 200, "{}: {w}×{h}", path.display());
    let shapes = root
        .descendants()
        .filter(|n| {
            matches!(
                n.tag_name().name(),
                "rect" | "line" | "polyline" | "circle" | "path" | "polygon"
            )
        })
        .count();
    let texts = root
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .count();
    assert!(
        shapes > 20 && texts > 5,
        "{}: {shapes} shapes, {texts} texts",
        path.display()
    );
}

/// (width, height) of a PNG file, after checking its signature.
fn png_size(path: &Path) -> (u32, u32) {
    let b = std::fs::read(path).unwrap();
    assert!(
        b.len() > 1000,
        "{} is too small to hold a chart",
        path.display()
    );
    assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n", "{}", path.display());
    assert_eq!(&b[12..16], b"IHDR");
    let be = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    (be(16), be(20))
}

/// Everything about `--out` is checked before the work: each run here asks for 10^10 duels and
/// would take hours if a check came after it.
#[test]
fn report_folder_problems_are_refused_before_any_work() {
    let dir = temp_dir("out-checks");
    let p = root().join("scenarios/draft/reference-duels.toml");
    let huge = "10000000000";
    // A report folder with a file the user put there: refused, the file kept.
    let out = dir.join("ref");
    let (code, _, err) = run_to(&p, "1000", &out);
    assert_eq!(code, 0, "{err}");
    std::fs::write(out.join("my-notes.txt"), "keep me").unwrap();
    std::fs::write(out.join("charts/sketch.jpg"), "keep me too").unwrap();
    let (code, stdout, err) = run_to(&p, huge, &out);
    assert_eq!(code, 2, "{err}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        err.contains("holds files oddsmith did not write (charts/sketch.jpg, my-notes.txt)"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("my-notes.txt")).unwrap(),
        "keep me"
    );
    // The report of another scenario (e.g. two names that make the same folder name).
    let other = root().join("scenarios/draft/sword-and-shield-vs-greatsword.toml");
    std::fs::remove_file(out.join("my-notes.txt")).unwrap();
    std::fs::remove_file(out.join("charts/sketch.jpg")).unwrap();
    let (code, _, err) = run_to(&other, huge, &out);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("holds the report of scenario \"reference-duels\""),
        "{err}"
    );
    // A folder name too long for the file system.
    let long = dir.join("r".repeat(240));
    let (code, _, err) = run_to(&p, huge, &long);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("at most 200 are allowed"), "{err}");
    // A temporary folder left by a killed run is removed by the next run into the same place.
    let stale = dir.join(".ref.tmp-4000000000");
    std::fs::create_dir_all(stale.join("tables")).unwrap();
    std::fs::write(stale.join(oddsmith_report::MARKER), "oddsmith\n").unwrap();
    let (code, _, err) = run_to(&p, "1000", &out);
    assert_eq!(code, 0, "{err}");
    assert!(!stale.exists(), "the stale temporary folder is still there");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Sends `signal` (e.g. "INT") to process `pid` with kill(1).
fn send_signal(pid: u32, signal: &str) {
    let ok = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{signal} {pid}");
}

/// SIGTERM during the computation stops at once with 143 and prints no numbers; SIGINT during
/// the report write leaves no temporary folder and the earlier report in place, and says that
/// the results printed are complete.
#[test]
fn interruption_stops_promptly_and_cleans_up() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let dir = temp_dir("interrupt");
    let p = root().join("scenarios/draft/reference-duels.toml");
    let bin = env!("CARGO_BIN_EXE_oddsmith");
    let mut child = Command::new(bin)
        .args([
            "run",
            p.to_str().unwrap(),
            "--trials",
            "10000000000",
            "--no-report",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let sent = Instant::now();
    send_signal(child.id(), "TERM");
    while child.try_wait().unwrap().is_none() {
        if sent.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("still running 20 s after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interrupted by SIGTERM"), "{err}");

    // An earlier report, then a run interrupted while it writes the new one.
    let target = dir.join("ref");
    let (code, _, err) = run_to(&p, "1000", &target);
    assert_eq!(code, 0, "{err}");
    let before = std::fs::read(target.join("report.json")).unwrap();
    let mut caught = false;
    for _ in 0..5 {
        let mut child = Command::new(bin)
            .args([
                "run",
                p.to_str().unwrap(),
                "--trials",
                "2000",
                "--seed",
                "9",
                "--out",
            ])
            .arg(&target)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The write's own temporary folder: `.ref.tmp-<pid>-<random>`.
        let prefix = format!(".ref.tmp-{}-", child.id());
        let find_tmp = || {
            std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .find(|e| e.file_name().to_string_lossy().starts_with(&prefix))
                .map(|e| e.path())
        };
        let start = Instant::now();
        let mut tmp = None;
        while tmp.is_none() && start.elapsed() < Duration::from_secs(60) {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            tmp = find_tmp();
            if tmp.is_none() {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
        if tmp.is_some() {
            send_signal(child.id(), "INT");
        }
        let sent = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if sent.elapsed() > Duration::from_secs(60) {
                child.kill().unwrap();
                panic!("still running 60 s after SIGINT");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let out = child.wait_with_output().unwrap();
        if out.status.code() == Some(130) {
            caught = true;
            let err = String::from_utf8_lossy(&out.stderr);
            // The results were printed whole, and the message says so.
            assert!(
                err.contains("interrupted by SIGINT while writing the report: the results printed are complete"),
                "{err}"
            );
            assert!(!err.contains("no results"), "{err}");
            let stdout = String::from_utf8_lossy(&out.stdout);
            for m in ["D1", "D2", "D3"] {
                assert!(stdout.contains(m), "{m} missing from the results: {stdout}");
            }
            assert!(find_tmp().is_none(), "the temporary folder was left behind");
            assert_eq!(std::fs::read(target.join("report.json")).unwrap(), before);
            break;
        }
    }
    assert!(caught, "never caught a run while it wrote its report");
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// SIGINT after the first matchup finished: the finished matchups are printed, marked partial,
/// with the very numbers a full run at the same seed gives; exit code 130; no report. The
/// moment is calibrated on a full run of the same size (a third of its time lands after the
/// first of three matchups and before the last, the longest), with a few tries for a busy
/// machine.
#[test]
fn interruption_prints_the_matchups_that_finished() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let p = root().join("scenarios/draft/reference-duels.toml");
    let bin = env!("CARGO_BIN_EXE_oddsmith");
    let args = |trials: u64| {
        vec![
            "run".to_string(),
            p.to_str().unwrap().to_string(),
            "--trials".into(),
            trials.to_string(),
            "--no-exact".into(),
            "--no-report".into(),
            "--json".into(),
        ]
    };
    let mut trials = 200_000u64;
    let mut caught = false;
    for _ in 0..6 {
        let start = Instant::now();
        let full = Command::new(bin).args(args(trials)).output().unwrap();
        let took = start.elapsed();
        assert!(full.status.success());
        if took < Duration::from_secs(2) {
            trials *= 4;
            continue;
        }
        let full: serde_json::Value = serde_json::from_slice(&full.stdout).unwrap();
        let child = Command::new(bin)
            .args(args(trials))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(took / 3);
        send_signal(child.id(), "INT");
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("interrupted by SIGINT"), "{err}");
        if out.stdout.is_empty() {
            continue; // Too early: no matchup had finished.
        }
        let part: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(part["partial"]["signal"], "SIGINT");
        let done = part["matchups"].as_array().unwrap();
        assert_eq!(part["partial"]["matchups_finished"], done.len());
        assert!(err.contains("partial results"), "{err}");
        if done.len() == 3 {
            continue; // Too late: every matchup had finished.
        }
        for (k, m) in done.iter().enumerate() {
            assert_eq!(
                m, &full["matchups"][k],
                "matchup {k} differs from the full run"
            );
        }
        caught = true;
        break;
    }
    assert!(caught, "never caught the run between its matchups");
}

#[test]
fn report_folder_end_to_end() {
    let dir = temp_dir("report");
    let out = dir.join("ref");
    let p = root().join("scenarios/draft/reference-duels.toml");
    let (code, stdout, err) = cli(&[
        "run",
        p.to_str().unwrap(),
        "--trials",
        "3000",
        "--seed",
        "1",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.contains(&format!("report: {}", out.join("report.html").display())),
        "{stdout}"
    );
    // Tables: CSV snapshots (fixed seed, small trial count) and Parquet files beside them.
    for t in ["outcomes", "endings", "rounds", "damage", "counters"] {
        let csv = std::fs::read_to_string(out.join(format!("tables/{t}.csv"))).unwrap();
        insta::assert_snapshot!(format!("table-{t}"), csv);
        let pq = std::fs::read(out.join(format!("tables/{t}.parquet"))).unwrap();
        assert!(
            pq.starts_with(b"PAR1") && pq.ends_with(b"PAR1"),
            "{t}.parquet"
        );
    }
    // Charts: every SVG is valid and non-empty, every PNG has the SVG's size.
    let charts: Vec<PathBuf> = std::fs::read_dir(out.join("charts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let svgs: Vec<&PathBuf> = charts
        .iter()
        .filter(|p| p.extension().unwrap() == "svg")
        .collect();
    assert_eq!(
        svgs.len(),
        1 + 2 * 3,
        "win probability, rounds and damage per matchup (no check grid: not asked for)"
    );
    assert!(!out.join("tables/checks.csv").exists());
    for svg in svgs {
        assert_valid_svg(svg);
        let text = std::fs::read_to_string(svg).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let (w, h) = (
            doc.root_element().attribute("width").unwrap(),
            doc.root_element().attribute("height").unwrap(),
        );
        assert_eq!(
            png_size(&svg.with_extension("png")),
            (w.parse().unwrap(), h.parse().unwrap())
        );
    }
    // report.md links every chart; report.html inlines them and names every option.
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("![")
            && md.contains("charts/win-probability.svg")
            && md.contains("tables/outcomes.csv")
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 7);
    assert!(html.contains("<div class=\"summary\"><strong>In short</strong>"));
    assert!(html.contains("options at their defaults</summary>"));
    assert!(!html.contains("<script") && !html.contains("<img") && !html.contains("<link"));
    let external = html.replace("http://www.w3.org/2000/svg", "");
    assert!(
        !external.contains("http://") && !external.contains("https://"),
        "the report must not reach the network"
    );
    let json = json(&std::fs::read_to_string(out.join("report.json")).unwrap());
    for o in json["options"].as_array().unwrap() {
        assert!(
            html.contains(&format!("<td>{}</td>", o["name"].as_str().unwrap())),
            "option {} missing",
            o["name"]
        );
    }
    for needle in [
        "reference-duels",
        "seed",
        "oddsmith",
        env!("CARGO_PKG_VERSION"),
        "generated",
        "draft",
        "d2-a",
    ] {
        assert!(html.contains(needle), "report.html lacks {needle:?}");
    }
    // Running again replaces the report; a folder that is not a report is never replaced.
    let (code, _, err) = run_to(&p, "1000", &out);
    assert_eq!(code, 0, "{err}");
    let mine = dir.join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "keep me").unwrap();
    let (code, stdout, err) = run_to(&p, "1000", &mine);
    assert_eq!(code, 2);
    assert!(
        stdout.is_empty()
            && err.contains("refusing to replace")
            && err.contains("not an oddsmith report"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(mine.join("notes.txt")).unwrap(),
        "keep me"
    );
    // A folder that cannot be created gives a clear error.
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let (code, _, err) = run_to(&p, "1000", &file.join("sub"));
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot write") && err.contains("a-file"),
        "{err}"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().starts_with('.'))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary folders left behind: {leftovers:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The path of a Chromium binary on PATH, if any.
fn chromium() -> Option<String> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|c| {
            std::process::Command::new("which")
                .arg(c)
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        })
}

/// Opens report.html in headless Chromium: it must render (screenshot), show every chart, and
/// log no console error. Skipped, with the reason printed, only where Chromium is not installed
/// (`.ci/run` installs Debian's `chromium` when it is missing).
#[test]
fn report_renders_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        println!(
            "SKIPPED report_renders_in_headless_chromium: no chromium binary on PATH (install Debian's `chromium`)"
        );
        return;
    };
    let dir = temp_dir("chromium");
    let out = dir.join("report");
    let p = root().join("scenarios/draft/sword-and-shield-vs-greatsword.toml");
    let (code, _, err) = run_to(&p, "2000", &out);
    assert_eq!(code, 0, "{err}");
    // A wrapper page (test-only) loads the report in a frame and writes what it finds into its
    // own DOM: images that failed, and the inline charts that have no drawn size.
    let check = dir.join("check.html");
    std::fs::write(&check, r#"<!DOCTYPE html><html><body><iframe id="r" src="report/report.html" style="width:1280px;height:3000px"></iframe>
<script>
document.getElementById('r').addEventListener('load', () => {
  const d = document.getElementById('r').contentDocument;
  const broken = [...d.images].filter(i => !(i.complete && i.naturalWidth > 0)).length;
  const svgs = [...d.querySelectorAll('svg')];
  const empty = svgs.filter(s => { const b = s.getBoundingClientRect(); return !(b.width > 100 && b.height > 100); }).length;
  const out = document.createElement('pre');
  out.id = 'result';
  out.textContent = `RESULT svgs=${svgs.length} empty=${empty} broken_images=${broken} title=${d.title}`;
  document.body.appendChild(out);
});
</script></body></html>"#).unwrap();
    let profile = dir.join("profile");
    let common = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--allow-file-access-from-files",
        "--enable-logging=stderr",
        "--v=0",
    ];
    let run = |extra: &[String], page: &Path| {
        let mut cmd = std::process::Command::new(&chromium);
        cmd.args(common)
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(extra)
            .arg(format!("file://{}", page.display()));
        let o = cmd.output().expect("chromium runs");
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (dom, log) = run(
        &["--virtual-time-budget=5000".into(), "--dump-dom".into()],
        &check,
    );
    let result = dom
        .split("<pre id=\"result\">")
        .nth(1)
        .and_then(|r| r.split("</pre>").next())
        .unwrap_or_else(|| panic!("no result in DOM:\n{dom}\n{log}"));
    assert!(
        result.contains("svgs=5 empty=0 broken_images=0"),
        "{result}"
    );
    assert!(
        result.contains("sword-and-shield-vs-greatsword · oddsmith report"),
        "{result}"
    );
    let console: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
        .collect();
    assert!(
        console.is_empty(),
        "console messages:\n{}",
        console.join("\n")
    );
    // And a screenshot of the report itself.
    let shot = dir.join("report.png");
    let (_, log) = run(
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,2400".into(),
        ],
        &out.join("report.html"),
    );
    assert_eq!(png_size(&shot), (1280, 2400), "{log}");
    let console: Vec<&str> = log.lines().filter(|l| l.contains("CONSOLE")).collect();
    assert!(
        console.is_empty(),
        "console messages:\n{}",
        console.join("\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 38 item 7: a report with a nine-column check table, opened 1280 px wide in headless
/// Chromium: no column runs past the page's edge (a wide table scrolls inside its own block,
/// measured from the elements' widths), the page itself does not scroll sideways, no "Charts"
/// heading stands over nothing, and "In short" names the check. The file has no `[fighters]`
/// (a check-only file, item 3). Skipped, with the reason printed, only without Chromium.
#[test]
fn a_nine_column_check_table_is_not_cut_at_1280_px() {
    let Some(chromium) = chromium() else {
        println!(
            "SKIPPED a_nine_column_check_table_is_not_cut_at_1280_px: no chromium binary on PATH"
        );
        return;
    };
    let dir = temp_dir("wide-table");
    let scenario = dir.join("wide.toml");
    std::fs::write(
        &scenario,
        r#"name = "wide-check"
ruleset = "openrpg"
seed = 3

[[check]]
name = "skill by difficulty"
rows = { param = "skill", values = [2, 4, 6, 8, 10] }
cols = { param = "dc", values = [10, 15, 20, 25, 30, 35, 40, 50] }
"#,
    )
    .unwrap();
    let out = dir.join("report");
    let (code, _, err) = run_to(&scenario, "2000", &out);
    assert_eq!(code, 0, "{err}");
    let check = dir.join("check.html");
    std::fs::write(&check, r#"<!DOCTYPE html><html><body style="margin:0"><iframe id="r" src="report/report.html" style="width:1280px;height:2000px;border:0"></iframe>
<script>
document.getElementById('r').addEventListener('load', () => {
  const d = document.getElementById('r').contentDocument;
  const w = d.defaultView;
  const vw = d.documentElement.clientWidth;
  let clipped = 0, scrolling = 0, widest = 0;
  for (const t of d.querySelectorAll('table')) {
    const box = t.parentElement;
    const scrolls = ['auto', 'scroll'].includes(w.getComputedStyle(box).overflowX);
    if (scrolls && box.scrollWidth > box.clientWidth) scrolling++;
    const cols = t.querySelectorAll('thead tr > *').length;
    widest = Math.max(widest, cols);
    // A column is cut when it starts or ends past the page's edge with no box to scroll it
    // into view; a scrolling box itself must end inside the page.
    const edge = scrolls ? box.getBoundingClientRect().right : vw;
    for (const c of t.querySelectorAll('thead tr > *')) {
      const r = c.getBoundingClientRect();
      if (!scrolls && r.right > edge + 1) clipped++;
    }
    if (scrolls && edge > vw + 1) clipped++;
  }
  const pageWide = d.documentElement.scrollWidth > vw + 1;
  const emptyCharts = [...d.querySelectorAll('h2')].filter(h => h.textContent === 'Charts'
    && !(h.nextElementSibling && h.nextElementSibling.tagName === 'FIGURE')).length;
  const short = (d.querySelector('.summary') || {}).textContent || '';
  const out = document.createElement('pre');
  out.id = 'result';
  out.textContent = `RESULT widest=${widest} clipped=${clipped} scrolling=${scrolling} page_wide=${pageWide} empty_charts=${emptyCharts} check_in_short=${short.includes('Check "skill by difficulty"')}`;
  document.body.appendChild(out);
});
</script></body></html>"#).unwrap();
    let profile = dir.join("profile");
    let run = |extra: &[String], page: &Path| {
        let o = std::process::Command::new(&chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--allow-file-access-from-files",
                "--window-size=1280,2000",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(extra)
            .arg(format!("file://{}", page.display()))
            .output()
            .expect("chromium runs");
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (dom, log) = run(
        &["--virtual-time-budget=5000".into(), "--dump-dom".into()],
        &check,
    );
    let result = dom
        .split("<pre id=\"result\">")
        .nth(1)
        .and_then(|r| r.split("</pre>").next())
        .unwrap_or_else(|| panic!("no result in DOM:\n{dom}\n{log}"));
    assert!(
        result.contains("widest=9 clipped=0")
            && result.contains("page_wide=false empty_charts=0 check_in_short=true"),
        "{result}"
    );
    // The nine-column table really is wider than the page: it scrolls in its block.
    assert!(!result.contains("scrolling=0"), "{result}");
    let shot = dir.join("wide.png");
    let (_, log) = run(
        &[format!("--screenshot={}", shot.display())],
        &out.join("report.html"),
    );
    assert_eq!(png_size(&shot), (1280, 2000), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 36: `--readings` adds `study.readings` to the JSON (per matchup: every factor with
/// kind, value, P(A wins), the paired change and whether the verdict holds); the work estimate
/// counts its runs, so `--max-work` refuses a readings run the plain run fits under.
#[test]
fn readings_json_contract_and_work_estimate() {
    let p = root().join("scenarios/cards/spear-vs-sword.toml");
    let p = p.to_str().unwrap();
    let (code, out, err) = cli(&["run", p, "--readings", "--trials", "2000", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ms = v["study"]["readings"].as_array().expect("study.readings");
    assert_eq!(ms.len(), 2);
    let m = &ms[0];
    assert_eq!(m["matchup"], "spear vs sword");
    assert!(m["robust"].is_boolean());
    let rs = m["readings"].as_array().unwrap();
    let mut factors: Vec<&str> = rs.iter().map(|r| r["factor"].as_str().unwrap()).collect();
    factors.dedup();
    assert!(factors.len() >= 5, "{factors:?}");
    let r = &rs[0];
    for key in [
        "factor",
        "kind",
        "value",
        "p_a_win",
        "delta",
        "verdict_holds",
    ] {
        assert!(!r[key].is_null(), "{key} in {r}");
    }
    assert!(r["delta"]["lo"].is_number() && r["delta"]["hi"].is_number());
    assert!(["reading", "invented", "placeholder"].contains(&r["kind"].as_str().unwrap()));
    // The spearman names the built-in spear, whose maximum damage is a placeholder: it is
    // varied at both ends of its range and named (issue 36).
    let spear: Vec<&serde_json::Value> = rs
        .iter()
        .filter(|r| r["factor"] == "spear.max_damage")
        .collect();
    assert_eq!(spear.len(), 2, "{factors:?}");
    assert!(
        spear
            .iter()
            .all(|r| r["kind"] == "placeholder" && r["baseline_value"] == "3")
    );
    let named = v["study"]["placeholders"]
        .as_array()
        .expect("study.placeholders");
    assert!(
        named.iter().any(|p| p
            .as_str()
            .unwrap()
            .starts_with("spearman's spear: max_damage = 3 is a placeholder")),
        "{named:?}"
    );
    // The plain run at 2,000 trials is 2 runs; the readings add 2 × (1 + factors).
    let (code, _, err) = cli(&["run", p, "--trials", "2000", "--max-work", "100000"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = cli(&[
        "run",
        p,
        "--readings",
        "--trials",
        "2000",
        "--max-work",
        "100000",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the readings study"), "{err}");
}

/// Issue 36: a readings run's report has its Readings section with a tornado chart per
/// matchup, and renders in headless Chromium with every chart drawn and no console error.
#[test]
fn readings_report_renders_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        println!(
            "SKIPPED readings_report_renders_in_headless_chromium: no chromium binary on PATH"
        );
        return;
    };
    let p = write_temp(
        "readings-report",
        r#"
name = "readings-report"
ruleset = "draft"
seed = 3

[fighters.plate]
skill = 6
weapon = "long sword"
armour = "full plate"
str = 7
con = 6

[fighters.bare]
skill = 6
weapon = "long sword"
str = 7
con = 6

[[matchup]]
a = "plate"
b = "bare"

[readings]
include = ["armor_table", "striking_order", "undefended_value", "damage_term"]
"#,
    );
    let dir = p.parent().unwrap().to_path_buf();
    let out = dir.join("report");
    let (code, stdout, err) = run_to(&p, "2000", &out);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.contains("readings: what each answer depends on"),
        "{stdout}"
    );
    assert!(stdout.contains("depends on: armor_table"), "{stdout}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("Readings: what the answers depend on"));
    assert!(
        html.contains("the verdict depends on: armor_table"),
        "In short names it"
    );
    assert!(
        html.contains("plate&#39;s long sword: length = 3 is a placeholder, not in the seed")
            || html.contains("plate's long sword: length = 3 is a placeholder, not in the seed"),
        "In short names the placeholder a fighter relies on"
    );
    assert_valid_svg(&out.join("charts/readings-1.svg"));
    let check = dir.join("check.html");
    std::fs::write(&check, r#"<!DOCTYPE html><html><body><iframe id="r" src="report/report.html" style="width:1280px;height:3000px"></iframe>
<script>
document.getElementById('r').addEventListener('load', () => {
  const d = document.getElementById('r').contentDocument;
  const broken = [...d.images].filter(i => !(i.complete && i.naturalWidth > 0)).length;
  const svgs = [...d.querySelectorAll('svg')];
  const empty = svgs.filter(s => { const b = s.getBoundingClientRect(); return !(b.width > 100 && b.height > 100); }).length;
  const tornado = d.body.innerHTML.includes('change of P(A wins) under each reading');
  const out = document.createElement('pre');
  out.id = 'result';
  out.textContent = `RESULT svgs=${svgs.length} empty=${empty} broken_images=${broken} tornado=${tornado}`;
  document.body.appendChild(out);
});
</script></body></html>"#).unwrap();
    let o = std::process::Command::new(&chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--allow-file-access-from-files",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("file://{}", check.display()))
        .output()
        .expect("chromium runs");
    let (dom, log) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    let result = dom
        .split("<pre id=\"result\">")
        .nth(1)
        .and_then(|r| r.split("</pre>").next())
        .unwrap_or_else(|| panic!("no result in DOM:\n{dom}\n{log}"));
    assert!(
        result.contains("empty=0 broken_images=0 tornado=true"),
        "{result}"
    );
    let console: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
        .collect();
    assert!(
        console.is_empty(),
        "console messages:\n{}",
        console.join("\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn write_temp(name: &str, text: &str) -> PathBuf {
    let dir = temp_dir(name);
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn failed_assertion_exits_3_and_names_it() {
    let base = std::fs::read_to_string(root().join("scenarios/studies/draft-house-rules-ci.toml"))
        .unwrap();
    // Passing as bundled.
    let p = root().join("scenarios/studies/draft-house-rules-ci.toml");
    let (code, out, err) = cli(&["run", p.to_str().unwrap(), "--trials", "2000"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("PASS"), "{out}");
    // Tighten one bound so the exact mirror value (0.5) falls outside it.
    let text = base.replacen("p_a_win = [0.4, 0.6]", "p_a_win = [0.55, 0.6]", 1);
    let p = write_temp("assert-fails", &text);
    let (code, out, err) = cli(&["run", p.to_str().unwrap(), "--trials", "2000"]);
    assert_eq!(code, 3, "{err}");
    assert!(out.contains("FAIL"), "{out}");
    assert!(err.contains("1 assertion(s) failed"), "{err}");
    assert!(err.contains("mirror: p_a_win"), "{err}");
    // The JSON still carries the full result.
    let (code, out, _) = cli(&["run", p.to_str().unwrap(), "--trials", "2000", "--json"]);
    assert_eq!(code, 3);
    let v = json(&out);
    assert_eq!(v["study"]["asserts"][0]["passed"], false);
    assert_eq!(v["study"]["asserts"][0]["source"], "exact");
    assert_eq!(v["study"]["asserts"][1]["passed"], true);
}

#[test]
fn study_sections_reach_the_json() {
    let p = root().join("scenarios/studies/draft-fair-armour.toml");
    let (code, out, err) = cli(&["run", p.to_str().unwrap(), "--trials", "2000", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let b = &v["study"]["balance"];
    assert_eq!(b["status"], "found");
    assert_eq!(b["method"], "exact bisection");
    assert!(b["value"].as_f64().unwrap() >= 3.0);
    assert_eq!(b["bracket"].as_array().unwrap().len(), 2);
    // Validate reports the study sections too.
    let (code, out, _) = cli(&["validate", p.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("1 balance"), "{out}");
}

#[test]
fn bad_sweep_value_is_located_and_stops_before_output() {
    let text = r#"
name = "bad-sweep"
ruleset = "draft"
[fighters.a]
skill = 6
weapon = "long sword"
[fighters.b]
skill = 6
weapon = "long sword"
[[sweep]]
fighter = "a"
field = "skill"
values = [5, 99]
"#;
    let p = write_temp("bad-sweep", text);
    let (code, out, err) = cli(&["run", p.to_str().unwrap(), "--trials", "100"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    // At the bad value itself (line 13, the second of `values`), not the section header.
    assert!(
        err.contains("bad-sweep.toml:13:14: sweep[0].values[1]: a.skill = 99: 99 is out of range"),
        "{err}"
    );
}

#[test]
fn comparison_file_runs_every_part_and_compares() {
    let p = root().join("scenarios/studies/rulesets-compared.toml");
    let (code, out, err) = cli(&["run", p.to_str().unwrap(), "--trials", "3000", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["ruleset"], "draft vs gamecraft");
    let names: Vec<&str> = v["matchups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"draft: veteran vs novice"), "{names:?}");
    assert!(
        names.contains(&"gamecraft: armoured vs unarmoured"),
        "{names:?}"
    );
    let c = &v["comparison"];
    assert_eq!(c["archetypes"].as_array().unwrap().len(), 2);
    // Both rulesets solve these duels: the P(A wins) difference is exact and equals the
    // difference of the two exact values reported for the matchups.
    let a = &c["archetypes"][0];
    assert_eq!(a["p_a_win"]["exact"], true);
    let exact = |n: &str| {
        v["matchups"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == n)
            .unwrap()["exact"]["p_a_win"]
            .as_f64()
            .unwrap()
    };
    let arch = a["archetype"].as_str().unwrap();
    let d = exact(&format!("draft: {arch}")) - exact(&format!("gamecraft: {arch}"));
    assert!((a["p_a_win"]["diff"].as_f64().unwrap() - d).abs() < 1e-12);
    assert_eq!(c["steps"].as_array().unwrap().len(), 2);
    assert_eq!(c["checks"].as_array().unwrap().len(), 2);
    assert!(!c["verdicts"].as_array().unwrap().is_empty());
    // Terminal text names the verdicts.
    let (code, out, _) = cli(&["run", p.to_str().unwrap(), "--trials", "2000"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Ruleset comparison: draft vs gamecraft"),
        "{out}"
    );
    assert!(out.contains("Verdicts"), "{out}");
}

#[test]
fn comparison_part_errors_point_into_the_comparison_file() {
    let text = std::fs::read_to_string(root().join("scenarios/studies/rulesets-compared.toml"))
        .unwrap()
        .replacen("armor = \"chain mail\"", "armor = \"tin foil\"", 1);
    let line = text.lines().position(|l| l.contains("tin foil")).unwrap() + 1;
    let p = write_temp("bad-comparison", &text);
    let (code, out, err) = cli(&["run", p.to_str().unwrap(), "--trials", "100"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains(&format!("bad-comparison.toml:{line}:")),
        "{err}"
    );
    assert!(
        err.contains("rulesets.gamecraft.fighters.armoured"),
        "{err}"
    );
    let (code, out, _) = cli(&["validate", p.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        out.contains(&format!("bad-comparison.toml:{line}:")),
        "{out}"
    );
}

/// A report folder can be written for a scenario of every ruleset, every bundled study and
/// the comparison file (small trial counts; the content is checked by the report crate's
/// tests and `report_folder_end_to_end`).
#[test]
fn every_ruleset_and_study_writes_a_report() {
    let mut picked: Vec<PathBuf> = Vec::new();
    for p in scenarios() {
        let dir = p
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let first_of_ruleset = !picked
            .iter()
            .any(|q| q.parent().unwrap().file_name().unwrap() == dir.as_str());
        if dir == "studies" || first_of_ruleset {
            picked.push(p);
        }
    }
    for p in picked {
        let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
        let out = temp_dir(&format!("every-{stem}"));
        let (code, _, err) = run_to(&p, "300", &out.join("r"));
        assert!(code == 0, "{}: {err}", p.display());
        let html = std::fs::read_to_string(out.join("r/report.html")).unwrap();
        assert!(html.contains("</html>"), "{}", p.display());
        for e in std::fs::read_dir(out.join("r/charts")).unwrap() {
            let e = e.unwrap().path();
            if e.extension().is_some_and(|x| x == "svg") {
                assert_valid_svg(&e);
            }
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn comparison_parts_refuse_study_sections_before_running() {
    let text = std::fs::read_to_string(root().join("scenarios/studies/rulesets-compared.toml"))
        .unwrap()
        + "\n[rulesets.gamecraft.tournament]\n";
    let p = write_temp("part-with-tournament", &text);
    for cmd in ["run", "validate"] {
        let (code, out, err) = cli(&[cmd, p.to_str().unwrap()]);
        assert_eq!(code, 2, "{cmd}: {err}");
        let msg = if cmd == "run" { &err } else { &out };
        assert!(
            msg.contains("rulesets.gamecraft.tournament: (gamecraft) a comparison part holds"),
            "{cmd}: {msg}"
        );
        if cmd == "run" {
            assert!(out.is_empty(), "{out}");
        }
    }
}

#[test]
fn init_writes_a_starter_that_validates_for_every_ruleset() {
    let dir = temp_dir("init-starters");
    for id in oddsmith_rules::RULESET_IDS {
        let base = dir.join(format!("my-{id}-duel"));
        let (code, out, err) = cli(&["init", id, base.to_str().unwrap()]);
        assert_eq!(code, 0, "{id}: {err}");
        let file = dir.join(format!("my-{id}-duel.toml"));
        assert!(out.contains("oddsmith run"), "{out}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains(&format!("name = \"my-{id}-duel\"")), "{text}");
        assert!(text.contains("# "), "commented");
        let (code, out, err) = cli(&["validate", file.to_str().unwrap()]);
        assert_eq!(code, 0, "{id}: {out}{err}\n{text}");
        // Never replaces a file.
        let (code, _, err) = cli(&["init", id, base.to_str().unwrap()]);
        assert_eq!(code, 2);
        assert!(err.contains("exists already"), "{err}");
    }
    let (code, _, err) = cli(&["init", "drat"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean \"draft\"?"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rulesets_equipment_lists_built_in_tables() {
    let (code, out, _) = cli(&["rulesets", "draft", "--equipment"]);
    assert_eq!(code, 0);
    for needle in [
        "weapons",
        "two handed sword",
        "impact",
        "length",
        "armour",
        "full plate",
        "shields",
    ] {
        assert!(out.contains(needle), "{needle}: {out}");
    }
    let (code, out, _) = cli(&["rulesets", "d20", "--equipment", "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    let titles: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap())
        .collect();
    assert!(
        titles.iter().any(|t| t.starts_with("species and monsters")),
        "{titles:?}"
    );
    assert!(
        titles.iter().any(|t| t.starts_with("classes")),
        "{titles:?}"
    );
    let (code, _, _) = cli(&["rulesets", "--equipment"]);
    assert_eq!(code, 2, "--equipment needs a ruleset");
}

#[test]
fn messages_suggest_names_and_print_the_path_once() {
    let (code, _, err) = cli(&["check", "draft", "skil=5"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean \"skill\"?"), "{err}");
    let (code, _, err) = cli(&["check", "draft", "skill=5", "difficulty=hardd"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean \"hard\"?"), "{err}");
    let p = write_temp(
        "typo-weapon",
        "name = \"t\"\nruleset = \"draft\"\n[fighters.a]\nskill = 5\nweapon = \"two handed swrod\"\n[fighters.b]\nskill = 5\nweapon = \"dagger\"\n[[matchup]]\na = \"a\"\nb = \"bb\"\n",
    );
    let f = p.to_str().unwrap();
    let (code, out, _) = cli(&["validate", f]);
    assert_eq!(code, 2);
    assert_eq!(out.matches(f).count(), 1, "{out}");
    assert!(out.contains("did you mean \"two handed sword\"?"), "{out}");
    assert!(
        !out.contains("dagger, small club"),
        "no full list when a name is close: {out}"
    );
    let text = std::fs::read_to_string(&p)
        .unwrap()
        .replace("swrod", "sword");
    std::fs::write(&p, text).unwrap();
    let (code, out, _) = cli(&["validate", f]);
    assert_eq!(code, 2);
    assert!(
        out.contains("unknown fighter \"bb\"; did you mean \"b\"?"),
        "{out}"
    );
    let p = write_temp(
        "typo-skill",
        "name = \"t\"\nruleset = \"gamecraft\"\n[fighters.a]\nweapon = \"sword\"\nskills = { \"Melee Combt\" = 5, \"Stealth\" = 2 }\n[fighters.b]\nweapon = \"sword\"\n",
    );
    let (code, out, _) = cli(&["validate", p.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.contains("did you mean \"Melee Combat\"?"), "{out}");
    let p = write_temp(
        "bad-type",
        "name = \"t\"\nruleset = \"draft\"\ntrials = \"many\"\n[fighters.a]\nskill = 5\nweapon = \"dagger\"\n[fighters.b]\nskill = 5\nweapon = \"dagger\"\n[[sweep]]\nfighter = \"a\"\nfield = \"skill\"\nfrom = \"x\"\nto = 3\n",
    );
    let (code, out, _) = cli(&["validate", p.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.contains("sweep[0].from: expected a number"), "{out}");
    let text = std::fs::read_to_string(&p).unwrap().replace("\"x\"", "1");
    std::fs::write(&p, text).unwrap();
    let (code, out, _) = cli(&["validate", p.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        out.contains("expected a whole number, 0 or more, got text \"many\""),
        "{out}"
    );
    for rust in ["i64", "u64", "untagged", "unknown variant"] {
        assert!(!out.contains(rust), "{rust}: {out}");
    }
}

// Where a ruleset gives no exact value although one was asked for (cards: never; gamecraft:
// under `explode_mode = "unlimited"`), the run says so in the terminal and in the report, and
// says nothing with --no-exact or where the exact value is there.
#[test]
fn missing_exact_values_are_noted_in_terminal_and_report() {
    let root = root();
    let cards = root.join("scenarios/cards/greedy-vs-bait.toml");
    let out = temp_dir("exact-note").join("report");
    let (code, _, err) = run_to(&cards, "500", &out);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("note: no exact values: a cards duel carries both decks"),
        "{err}"
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("Note: no exact values: a cards duel"), "{md}");
    let path = cards.to_str().unwrap();
    let (_, _, err) = cli(&["run", path, "--trials", "500", "--no-exact"]);
    assert!(!err.contains("no exact"), "{err}");

    let dir = temp_dir("exact-note-gc");
    let f = dir.join("unlimited.toml");
    let text = std::fs::read_to_string(root.join("scenarios/gamecraft/reference-duel.toml"))
        .unwrap()
        + "\n[options]\nexplode_mode = \"unlimited\"\n";
    std::fs::write(&f, text).unwrap();
    let (code, _, err) = cli(&["run", f.to_str().unwrap(), "--trials", "500"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("unboundedly many faces"), "{err}");
    let (_, _, err) = cli(&[
        "run",
        &root
            .join("scenarios/gamecraft/reference-duel.toml")
            .display()
            .to_string(),
        "--trials",
        "500",
    ]);
    assert!(!err.contains("no exact"), "{err}");
}

#[test]
fn work_is_estimated_and_refused_above_the_limit_before_any_work() {
    let two = "name = \"big\"\nruleset = \"draft\"\ntrials = 1_000_000_000_000_000\n\
               [fighters.a]\nskill = 5\nweapon = \"mace\"\n[fighters.b]\nskill = 5\nweapon = \"mace\"\n";
    let big = write_temp(
        "work-big.toml",
        &format!("{two}[[matchup]]\na = \"a\"\nb = \"b\"\n"),
    );
    let path = big.to_str().unwrap();
    // 1e15 duels (three years) is refused at once, with the estimate and the way out.
    let (code, out, err) = cli(&["run", path]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("1.0e15 duels and rolls (1 runs × 1000000000000000 trials)")
            && err.contains("more than the limit of 1.0e11")
            && err.contains("--max-work N or --yes"),
        "{err}"
    );
    // --max-work sets the limit: a sweep of 3 points and the matchup are 4 runs.
    let sweep = format!(
        "{two}[[matchup]]\na = \"a\"\nb = \"b\"\n[[sweep]]\nfighter = \"a\"\nfield = \"skill\"\nvalues = [4, 5, 6]\n"
    );
    let sw = write_temp("work-sweep.toml", &sweep);
    let sw = sw.to_str().unwrap();
    let (code, _, err) = cli(&["run", sw, "--trials", "100", "--max-work", "399"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("400 duels and rolls (4 runs × 100 trials)"),
        "{err}"
    );
    let (code, _, err) = cli(&["run", sw, "--trials", "100", "--max-work", "400"]);
    assert_eq!(code, 0, "{err}");
    // --yes lifts the limit; it and --max-work exclude each other.
    let (code, _, err) = cli(&["run", sw, "--trials", "100", "--yes"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, _) = cli(&["run", sw, "--yes", "--max-work", "5"]);
    assert_eq!(code, 2);
    // Many exact solves are announced with their bound, unless --no-exact skips them: four
    // sweeps of 30 points and the matchup are 121.
    let sweeps = (0..4)
        .map(|_| {
            let v: Vec<String> = (1..=30).map(|k| k.to_string()).collect();
            format!(
                "[[sweep]]\nfighter = \"a\"\nfield = \"skill\"\nvalues = [{}]\n",
                v.join(", ")
            )
        })
        .collect::<String>();
    let many = write_temp(
        "work-many.toml",
        &format!("{two}[[matchup]]\na = \"a\"\nb = \"b\"\n{sweeps}"),
    );
    let many = many.to_str().unwrap();
    let (code, _, err) = cli(&["run", many, "--trials", "10", "--no-report"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("note: up to 121 exact solves") && err.contains("--no-exact skips them"),
        "{err}"
    );
    let (code, _, err) = cli(&["run", many, "--trials", "10", "--no-report", "--no-exact"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("exact solves"), "{err}");
    // A file of two fighters without [[matchup]] runs them, and says so.
    let none = write_temp(
        "work-none.toml",
        &two.replace("1_000_000_000_000_000", "100"),
    );
    let (code, out, _) = cli(&["validate", none.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("note: no [[matchup]] in the file: its two fighters fight as \"a vs b\""),
        "{out}"
    );
    let (code, _, err) = cli(&["run", none.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("note: no [[matchup]]"), "{err}");
}

// The ruleset's check grid appears only where the file asks about checks: a tournament study
// without matchups gets none, a file with [[check]] sections does.
#[test]
fn check_grid_only_where_checks_are_asked_for() {
    let root = root();
    let out = temp_dir("grid-asked").join("r");
    let (code, _, err) = run_to(
        &root.join("scenarios/studies/draft-loadouts.toml"),
        "200",
        &out,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.join("tables/tournament_matrix.csv").exists());
    assert!(
        !out.join("tables/checks.csv").exists(),
        "a tournament is not a check study"
    );
    assert!(!out.join("charts/checks.svg").exists());
    let out = temp_dir("grid-asked-checks").join("r");
    let (code, _, err) = run_to(
        &root.join("scenarios/studies/gamecraft-check-tn.toml"),
        "200",
        &out,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.join("tables/checks.csv").exists(),
        "[[check]] sections ask for checks"
    );
}

/// A cards duel that never ends before its cap: an all-zero custom deck, 10,000 rounds.
const ZERO_DECK: &str = "name = \"zero-deck\"\nruleset = \"cards\"\n[options]\ndeck = \"custom\"\n\
    custom_deck = [\"0\", \"0\", \"0\", \"0\", \"0\", \"0\", \"0\", \"0\", \"0\", \"0\"]\nmax_rounds = 10000\n\
    [fighters.a]\nskill = 3\nweapon = \"sword\"\n[fighters.b]\nskill = 3\nweapon = \"sword\"\n";

#[test]
fn the_work_estimate_counts_how_long_the_duels_are() {
    // These duels run at about 370 a second on two cores: 1e10 of them take about ten months
    // (the estimate before counted them as ordinary duels: "about 17 minutes").
    let p = write_temp("work-zero-deck", ZERO_DECK);
    let path = p.to_str().unwrap();
    let start = std::time::Instant::now();
    let (code, out, err) = cli(&["run", path, "--trials", "10000000000"]);
    let took = start.elapsed();
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("1.0e10 duels and rolls (1 runs × 10000000000 trials)")
            && err.contains("about 10000 rounds each in a pilot of")
            && err.contains("more than the limit of 1.0e11 ordinary duels"),
        "{err}"
    );
    // The estimate's order of magnitude: between 3 and 30 months.
    let months: f64 = err
        .split("at about ten million a second: ")
        .nth(1)
        .and_then(|t| t.strip_suffix_words(" months)"))
        .unwrap_or_else(|| panic!("no estimate in months: {err}"));
    assert!((3.0..=30.0).contains(&months), "{months} months: {err}");
    // The pilot is cheap (a few hundredths of a second of duels; generous for a busy machine).
    assert!(took.as_secs_f64() < 10.0, "{took:?}");
    // 100,000 of them (about 4.5 minutes) pass a limit of a billion ordinary duels only when
    // counted as the short duels they are not.
    let (code, _, err) = cli(&[
        "run",
        path,
        "--trials",
        "100000",
        "--max-work",
        "1000000000",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("2.5e9 ordinary duels"), "{err}");
    assert!(
        err.contains("(at about ten million a second: 4 minutes)"),
        "{err}"
    );
}

/// `"… 10 months); lower …"` → 10.
trait StripWords {
    fn strip_suffix_words(&self, unit: &str) -> Option<f64>;
}

impl StripWords for str {
    fn strip_suffix_words(&self, unit: &str) -> Option<f64> {
        let end = self.find(unit)?;
        self[..end].trim().parse().ok()
    }
}

#[test]
fn validating_a_101_by_201_sweep_keeps_memory_bounded() {
    // 20,301 open RPG points, each with its own turn tables (about 230 kB a point): built and
    // dropped one at a time, not held together (4.6 GB before).
    let text = "name = \"big-sweep\"\nruleset = \"openrpg\"\ntrials = 1000\n\
        [fighters.alda]\nweapon = \"longsword\"\narmor = \"mail\"\n\
        [fighters.bram]\nweapon = \"spear\"\narmor = \"brigandine\"\n\
        [[matchup]]\na = \"alda\"\nb = \"bram\"\n\
        [[sweep]]\nfighter = \"alda\"\nfield = \"shield\"\nfrom = 0\nto = 100\n\
        y = { fighter = \"bram\", field = \"health\", from = 1, to = 201 }\n";
    let p = write_temp("validate-rss", text);
    let start = std::time::Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_oddsmith"))
        .args(["validate", p.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The child's peak resident set (VmHWM, which only grows), read while it runs.
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0u64;
    let exit = loop {
        if let Ok(s) = std::fs::read_to_string(&status)
            && let Some(kb) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak_kb = peak_kb.max(kb);
        }
        if let Some(e) = child.try_wait().unwrap() {
            break e;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(exit.success(), "{stdout}");
    assert!(stdout.contains("ok "), "{stdout}");
    assert!(peak_kb > 0, "the peak was read");
    assert!(
        peak_kb < 200 * 1024,
        "peak RSS {} MB (limit 200 MB)",
        peak_kb / 1024
    );
    eprintln!(
        "validate of a 101 × 201 openrpg sweep: peak RSS {} MB, {:.1} s",
        peak_kb / 1024,
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn equal_tournament_costs_print_no_nan() {
    let mut text = "name = \"same-price\"\nruleset = \"draft\"\n".to_string();
    for (k, skill) in [4, 5, 6].iter().enumerate() {
        text += &format!("[fighters.k{k}]\nskill = {skill}\nweapon = \"mace\"\n");
    }
    text += "[tournament]\ncosts = { k0 = 10, k1 = 10, k2 = 10 }\n";
    let p = write_temp("same-price", &text);
    let dir = temp_dir("same-price-report");
    let report = dir.join("r");
    let (code, out, err) = cli(&[
        "run",
        p.to_str().unwrap(),
        "--trials",
        "500",
        "--out",
        report.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("NaN"), "{out}");
    assert!(!out.contains("too few"), "{out}");
    assert!(out.contains("cost the same"), "{out}");
    let mut csvs = vec![report.clone()];
    let mut seen = 0;
    while let Some(d) = csvs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                csvs.push(path);
            } else if path.file_name().unwrap() == "tournament_ranking.csv" {
                let csv = std::fs::read_to_string(&path).unwrap();
                assert!(!csv.contains("NaN"), "{csv}");
                seen += 1;
            } else if path.extension().is_some_and(|x| x == "md" || x == "html") {
                let page = std::fs::read_to_string(&path).unwrap();
                assert!(
                    !page.contains("NaN") && !page.contains("too few"),
                    "{}",
                    path.display()
                );
            }
        }
    }
    assert_eq!(seen, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
