//! Which figure speaks (issue 32, item 4): wherever an exact value exists, the verdict, the
//! report's "In short", sweep crossings and comparisons use it, and Monte Carlo is shown as
//! its check. Each case is chosen so that Monte Carlo alone, at the fixed seed, would say
//! something else (`--no-exact` shows what).

use super::{cli, json, root, temp_dir};

/// `run` of a bundled scenario at a fixed seed and trial count: (terminal, JSON, report.md).
fn run_all(
    scenario: &str,
    trials: &str,
    seed: &str,
    name: &str,
) -> (String, serde_json::Value, String) {
    let p = root().join(scenario);
    let p = p.to_str().unwrap();
    let dir = temp_dir(name);
    let out = dir.join("report");
    let args = [
        "run",
        p,
        "--trials",
        trials,
        "--seed",
        seed,
        "--threads",
        "2",
    ];
    let (code, text, err) = cli(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, j, err) = cli(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (text, json(&j), md)
}

/// The lines of the report's "In short" list.
fn in_short(md: &str) -> Vec<String> {
    md.split("**In short:**")
        .nth(1)
        .unwrap_or_else(|| panic!("no In short in:\n{md}"))
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| l.starts_with("- "))
        .map(str::to_string)
        .collect()
}

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn the_exact_verdict_speaks_where_monte_carlo_says_favoured() {
    // Open RPG's reference duel: exact P(A) − P(B) = 0.64 points, inside the 2-point
    // threshold. 3,000 duels at seed 1 happen to give +5.7 ± 3.6 points, which alone reads
    // "alda favoured (significant)".
    let scenario = "scenarios/openrpg/reference-duel.toml";
    let p = root().join(scenario);
    let args = |more: &[&'static str]| {
        let mut v = vec![
            "run",
            p.to_str().unwrap(),
            "--trials",
            "3000",
            "--seed",
            "1",
        ];
        v.extend_from_slice(more);
        v
    };
    let (code, mc_only, err) = cli(&args(&["--no-exact", "--json"]));
    assert_eq!(code, 0, "{err}");
    let mc = &json(&mc_only)["matchups"][0];
    assert_eq!(mc["advantage_source"], "monte_carlo");
    assert_eq!(
        mc["verdict"],
        "alda favoured: wins 5.7 ± 3.6 points more often (significant)"
    );

    let (text, j, md) = run_all(scenario, "3000", "1", "exact-speaks-duel");
    let m = &j["matchups"][0];
    let e = &m["exact"];
    let exact_diff = f(&e["p_a_win"]) - f(&e["p_b_win"]);
    assert!((exact_diff - 0.0064).abs() < 1e-4, "{exact_diff}");
    // The JSON: the advantage is the exact difference; Monte Carlo is its check.
    assert_eq!(m["advantage_source"], "exact");
    for k in 0..3 {
        assert!((f(&m["advantage_a"][k]) - exact_diff).abs() < 1e-12, "{m}");
    }
    let check = &m["advantage_check"];
    let mc_d = f(&check["monte_carlo"][0]);
    assert!((mc_d - f(&mc["advantage_a"][0])).abs() < 1e-12);
    assert!(f(&check["monte_carlo"][1]) > 0.0 && mc_d >= 0.02, "{check}");
    let se = (f(&check["monte_carlo"][2]) - mc_d) / oddsmith_stats::Z95;
    assert!(
        (f(&check["z"]) - (mc_d - exact_diff) / se).abs() < 1e-9,
        "{check}"
    );
    let verdict = "balanced: P(A) − P(B) = 0.6 points exactly, within ±2.0 \
                   (Monte Carlo +5.7 ± 3.6, +2.8 standard errors from exact)";
    assert_eq!(m["verdict"], verdict);
    // The terminal says the same.
    assert!(
        text.contains(&format!("R1 Alda vs Bram: {verdict}\n")),
        "{text}"
    );
    assert!(!text.contains("favoured"), "{text}");
    // The report's In short: one figure per sentence, the exact one, with its check.
    let lines = in_short(&md);
    assert_eq!(
        lines,
        [
            "- R1 Alda vs Bram: balanced: P(A) − P(B) = 0.6 points exactly, within ±2.0; \
             alda wins 50.32 % exactly (Monte Carlo 52.83 %, +2.8 standard errors from it)."
        ],
        "{md}"
    );
    assert!(!md.contains("favoured"), "{md}");
}

#[test]
fn a_sweep_exactly_even_at_a_point_is_even_there() {
    // Draft skill sweep: the challenger and the defender are the same at skill 6, so the
    // exact P(A wins) there is 50 % (up to rounding in the last bits).
    let scenario = "scenarios/studies/draft-skill-sweep.toml";
    let (_, j, md) = run_all(scenario, "2000", "1", "exact-speaks-sweep");
    let sw = &j["study"]["sweeps"][0];
    let points = sw["points"].as_array().unwrap();
    let at6 = points.iter().find(|p| f(&p["x"]) == 6.0).unwrap();
    let e6 = f(&at6["exact_p_a_win"]);
    assert!((e6 - 0.5).abs() < 1e-12, "{e6}");
    // Monte Carlo at 6 is not 50 %: alone, it would put the crossing between two points.
    assert_ne!(f(&at6["p_a_win"]["p"]), 0.5);
    let lines = in_short(&md);
    let sweep = lines
        .iter()
        .find(|l| l.starts_with("- Sweep \"skill\""))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(
        sweep.ends_with("(exact); it is even (50 %) at 6."),
        "{sweep}"
    );
    assert!(!md.contains("crosses 50 % between"), "{md}");
    // Each step between solved points carries its exact change.
    for st in sw["steps"].as_array().unwrap() {
        let at = |x: f64| {
            let y = &st["y"];
            let p = points
                .iter()
                .find(|p| f(&p["x"]) == x && &p["y"] == y)
                .unwrap();
            f(&p["exact_p_a_win"])
        };
        let want = at(f(&st["to"])) - at(f(&st["from"]));
        assert!((f(&st["exact_diff"]) - want).abs() < 1e-15, "{st}");
    }

    // Without the exact solver, the Monte Carlo estimates speak and put the crossing
    // between two values.
    let p = root().join(scenario);
    let dir = temp_dir("exact-speaks-sweep-mc");
    let out = dir.join("report");
    let (code, _, err) = cli(&[
        "run",
        p.to_str().unwrap(),
        "--trials",
        "2000",
        "--seed",
        "1",
        "--no-exact",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let lines = in_short(&md);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("- Sweep \"skill\"") && l.contains("crosses 50 % between")),
        "{lines:?}"
    );
}

#[test]
fn a_house_rule_comparison_judges_the_exact_difference() {
    // Draft's book wound penalties against halved ones: both variants are solved, so every
    // P(A wins) difference is exact and the paired Monte Carlo difference is its check.
    let scenario = "scenarios/studies/draft-book-vs-house-rule.toml";
    let (text, j, md) = run_all(scenario, "2000", "1", "exact-speaks-house-rule");
    let exact_of = |name: &str| {
        let m = j["matchups"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .unwrap_or_else(|| panic!("{name}"));
        f(&m["exact"]["p_a_win"])
    };
    let c = &j["comparison"];
    let archetypes = c["archetypes"].as_array().unwrap();
    assert_eq!(archetypes.len(), 2);
    for a in archetypes {
        let name = a["archetype"].as_str().unwrap();
        let p = &a["p_a_win"];
        assert_eq!(p["exact"], true, "{a}");
        let (book, house) = (
            exact_of(&format!("book: {name}")),
            exact_of(&format!("house: {name}")),
        );
        assert_eq!(f(&p["values"][0]), book);
        assert_eq!(f(&p["values"][1]), house);
        assert_eq!(f(&p["diff"]), book - house);
        assert_eq!(f(&p["lo"]), f(&p["hi"]));
        assert_eq!(p["decisive"], (book - house).abs() >= 0.02, "{a}");
        let check = &p["monte_carlo_check"];
        assert!(check["z"].is_number(), "{a}");
        let verdict = c["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v.as_str())
            .find(|v| v.starts_with(&format!("{name}: side A wins")));
        if p["decisive"] == true {
            let v = verdict.unwrap_or_else(|| panic!("{c}"));
            assert!(v.contains(", exact; Monte Carlo "), "{v}");
        } else {
            assert!(verdict.is_none(), "{c}");
        }
    }
    // The skill step's effect is compared exactly too.
    assert_eq!(c["step_comparisons"][0]["effect"]["exact"], true);
    // The terminal's table shows the exact difference with Monte Carlo beside it, and the
    // report's In short gives the same verdicts.
    assert!(text.contains("(exact; Monte Carlo "), "{text}");
    let lines = in_short(&md);
    for v in c["verdicts"].as_array().unwrap().iter().take(4) {
        let v = v.as_str().unwrap();
        assert!(lines.iter().any(|l| l.contains(v)), "{v} not in {lines:?}");
    }
}
