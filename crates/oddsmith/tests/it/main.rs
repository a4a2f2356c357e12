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
            let mut args = vec!["run", f.to_str().unwrap(), "--json", "--no-exact"];
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
