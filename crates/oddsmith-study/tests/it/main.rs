//! Study tests: the balance solver against known exact roots, tournaments (dominance, Nash
//! mix, costs), paired sweeps, check studies and assertions, on the draft and gamecraft rules.

use oddsmith_rules::Ruleset;
use oddsmith_rules::draft::Draft;
use oddsmith_rules::gamecraft::Gamecraft;
use oddsmith_scenario::{Scenario, load};
use oddsmith_sim::RunConfig;
use oddsmith_study::{BalanceStatus, Ctx, StudyDoc, StudyError, run_study, validate};

mod groups;
mod readings;

const FILE: &str = "test.toml";

fn cfg(trials: u64, seed: u64) -> RunConfig {
    RunConfig {
        seed,
        trials,
        precision: None,
        threads: None,
        units: Default::default(),
        cancel: Default::default(),
    }
}

fn study<R: Ruleset>(text: &str, trials: u64, exact: bool) -> Result<StudyDoc, StudyError> {
    let s: Scenario<R> = load(FILE, text).expect("scenario loads");
    validate(FILE, text, &s)?;
    let c = cfg(trials, 7);
    let (mut stats, mut ex) = (Vec::new(), Vec::new());
    for m in &s.matchups {
        stats.push(oddsmith_sim::run_duels(
            &s.ruleset,
            &m.matchup,
            &c,
            &|_| {},
        )?);
        ex.push(if exact {
            s.ruleset.exact(&m.matchup)
        } else {
            None
        });
    }
    let ctx = Ctx {
        file: FILE,
        text,
        scenario: &s,
        cfg: &c,
        exact,
    };
    run_study(&ctx, &stats, &ex, &|_, _| {})
}

const DRAFT_PAIR: &str = r#"
name = "t"
ruleset = "draft"

[fighters.a]
skill = 6
weapon = "long sword"
str = 7
con = 6

[fighters.b]
skill = 6
weapon = "long sword"
armour = "leather"
str = 7
con = 6

[[matchup]]
a = "a"
b = "b"
"#;

/// Exact P(A wins) of the draft pair with fighter a's CON set to `con`.
fn exact_at(con: i64) -> f64 {
    let text = DRAFT_PAIR.replacen("con = 6", &format!("con = {con}"), 1);
    let s: Scenario<Draft> = load(FILE, &text).unwrap();
    s.ruleset.exact(&s.matchups[0].matchup).unwrap().p_a_win
}

fn balance_text() -> String {
    format!(
        "{DRAFT_PAIR}\n[balance]\nfighter = \"a\"\nfield = \"con\"\nrange = [2, 16]\ntarget = 0.5\n"
    )
}

#[test]
fn balance_finds_the_known_exact_root() {
    // The root by brute force over every integer CON, from the exact solver.
    let ps: Vec<(i64, f64)> = (2..=16).map(|c| (c, exact_at(c))).collect();
    let cross = ps
        .windows(2)
        .position(|w| (w[0].1 - 0.5) * (w[1].1 - 0.5) <= 0.0)
        .unwrap();
    let (lo, hi) = (ps[cross], ps[cross + 1]);
    let best = if (hi.1 - 0.5).abs() < (lo.1 - 0.5).abs() {
        hi
    } else {
        lo
    };
    let d = study::<Draft>(&balance_text(), 20_000, true).unwrap();
    let b = d.balance.unwrap();
    assert_eq!(b.status, BalanceStatus::Found);
    assert_eq!(b.method, "exact bisection");
    assert_eq!(b.value, Some(best.0 as f64));
    let [x, y] = b.bracket.as_ref().unwrap();
    assert_eq!((x.value, y.value), (lo.0 as f64, hi.0 as f64));
    assert_eq!(x.exact, Some(lo.1));
    assert_eq!(y.exact, Some(hi.1));
    // Bisection: about log2(14) evaluations beyond the two ends, not a scan.
    assert!(b.evaluations.len() <= 2 + 4, "{:?}", b.evaluations);
    // The fresh Monte Carlo re-measurement agrees with the exact value within 4σ.
    let a = b.achieved.unwrap();
    let e = a.exact.unwrap();
    let sd = (e * (1.0 - e) / a.monte_carlo.trials as f64).sqrt();
    assert!(
        (a.monte_carlo.p - e).abs() < 4.0 * sd,
        "{} vs {e}",
        a.monte_carlo.p
    );
}

#[test]
fn balance_on_monte_carlo_alone_lands_on_the_root_or_its_neighbour() {
    let ps: Vec<(i64, f64)> = (2..=16).map(|c| (c, exact_at(c))).collect();
    let d = study::<Draft>(&balance_text(), 40_000, false).unwrap();
    let b = d.balance.unwrap();
    assert!(b.method.contains("paired Monte Carlo"), "{}", b.method);
    let v = b.value.unwrap() as i64;
    let p = ps.iter().find(|(c, _)| *c == v).unwrap().1;
    // The chosen value is within one step of the exact crossing.
    let cross = ps
        .windows(2)
        .position(|w| (w[0].1 - 0.5) * (w[1].1 - 0.5) <= 0.0)
        .unwrap();
    assert!(
        (ps[cross].0..=ps[cross + 1].0).contains(&v),
        "chose {v} (p={p})"
    );
    assert!(b.achieved.unwrap().exact.is_none());
}

#[test]
fn unreachable_target_is_reported_not_invented() {
    let text = format!(
        "{DRAFT_PAIR}\n[balance]\nfighter = \"a\"\nfield = \"con\"\nrange = [2, 4]\ntarget = 0.99\n"
    );
    let b = study::<Draft>(&text, 5_000, true).unwrap().balance.unwrap();
    assert_eq!(b.status, BalanceStatus::NotInRange);
    assert_eq!(b.value, None);
    assert_eq!(b.ends[0].p, exact_at(2));
    assert_eq!(b.ends[1].p, exact_at(4));
}

#[test]
fn sweep_points_match_exact_and_steps_are_paired() {
    let text =
        format!("{DRAFT_PAIR}\n[[sweep]]\nfighter = \"a\"\nfield = \"con\"\nvalues = [5, 6, 7]\n");
    let n = 40_000;
    let d = study::<Draft>(&text, n, true).unwrap();
    let sw = &d.sweeps[0];
    assert_eq!(sw.points.len(), 3);
    assert_eq!(sw.steps.len(), 2);
    for (pt, con) in sw.points.iter().zip([5, 6, 7]) {
        let e = exact_at(con);
        assert_eq!(pt.exact_p_a_win, Some(e));
        let sd = (e * (1.0 - e) / n as f64).sqrt();
        assert!(
            (pt.p_a_win.p - e).abs() < 4.0 * sd,
            "con {con}: {} vs {e}",
            pt.p_a_win.p
        );
    }
    for st in &sw.steps {
        // Common random numbers: the paired interval is much narrower than an unpaired one.
        let paired = (st.diff.hi - st.diff.lo) / 2.0;
        assert!(
            paired < 0.6 * st.unpaired_half_width,
            "{paired} vs {}",
            st.unpaired_half_width
        );
        let exact = exact_at(st.to as i64) - exact_at(st.from as i64);
        assert!(
            st.diff.lo <= exact && exact <= st.diff.hi,
            "{:?} vs {exact}",
            st.diff
        );
    }
}

#[test]
fn two_dimensional_sweep_is_row_major() {
    let text = format!(
        "{DRAFT_PAIR}\n[[sweep]]\nfighter = \"a\"\nfield = \"con\"\nvalues = [5, 7]\ny = {{ fighter = \"a\", field = \"skill\", values = [4, 6, 8] }}\n"
    );
    let d = study::<Draft>(&text, 2_000, true).unwrap();
    let sw = &d.sweeps[0];
    let xy: Vec<(f64, Option<f64>)> = sw.points.iter().map(|p| (p.x, p.y)).collect();
    assert_eq!(
        xy,
        [
            (5., Some(4.)),
            (7., Some(4.)),
            (5., Some(6.)),
            (7., Some(6.)),
            (5., Some(8.)),
            (7., Some(8.))
        ]
    );
    assert_eq!(sw.steps.len(), 3);
    // More skill helps: exact P(A wins) rises with y at fixed x.
    let p = |i: usize| sw.points[i].exact_p_a_win.unwrap();
    assert!(p(0) < p(2) && p(2) < p(4));
}

#[test]
fn a_two_dimensional_sweep_run_row_by_row_equals_the_whole_grid_run_together() {
    // Rows run apart (one y value at a time, so only a row's tables are held) replay the same
    // per-trial seeds: every point's counts are those of all points run together.
    let text = format!(
        "{DRAFT_PAIR}\n[[sweep]]\nfighter = \"a\"\nfield = \"con\"\nvalues = [5, 7]\ny = {{ fighter = \"a\", field = \"skill\", values = [4, 6, 8] }}\n"
    );
    let d = study::<Draft>(&text, 3_000, false).unwrap();
    let s: Scenario<Draft> = load(FILE, &text).unwrap();
    let variants: Vec<_> = (0..6)
        .map(|k| oddsmith_study::sweep::point_matchup(FILE, &text, &s, 0, k).unwrap())
        .collect();
    let refs: Vec<_> = variants.iter().map(|(r, m)| (r, m)).collect();
    let whole = oddsmith_sim::run_paired(&refs, &cfg(3_000, 7), &|_| {}).unwrap();
    for (k, pt) in d.sweeps[0].points.iter().enumerate() {
        let o = &whole.variants[k].outcomes;
        assert_eq!(
            (pt.p_a_win.successes, pt.p_a_win.trials),
            (o.a_wins, o.total())
        );
    }
    // The paired steps along x are those of the whole run (within a row).
    for (row, st) in d.sweeps[0].steps.iter().enumerate() {
        let c = &whole.adjacent[2 * row];
        let both =
            oddsmith_stats::diff_paired(c.both, c.second_only, c.first_only, c.neither).unwrap();
        assert_eq!(st.diff, both);
    }
}

#[test]
fn every_tournament_pairing_is_validated_before_any_work() {
    // Cards: bands on both sides are group fights, so every pairing of the tournament is
    // built; under a charging start the rules refuse a band when the pair is built, and
    // validation refuses the file at the later fighter of the first such pairing.
    let text = r#"
name = "bands"
ruleset = "cards"

[fighters.master]
skill = 5
weapon = "sword"

[fighters.two]
skill = 2
weapon = "sword"
count = 2

[fighters.three]
skill = 2
weapon = "sword"
count = 3

[tournament]
fighters = ["master", "two", "three"]
"#;
    let s: Scenario<oddsmith_rules::cards::Cards> = load(FILE, text).unwrap();
    validate(FILE, text, &s).unwrap();
    let charge = text.replace(
        "ruleset = \"cards\"\n",
        "ruleset = \"cards\"\n\n[options]\nstart = \"a_charges\"\n",
    );
    let s: Scenario<oddsmith_rules::cards::Cards> = load(FILE, &charge).unwrap();
    let e = validate(FILE, &charge, &s).unwrap_err().to_string();
    let line = line_of(&charge, "fighters = [");
    assert!(
        e.contains(&format!("test.toml:{line}:23: tournament.fighters[1]: the pairing master vs two of the tournament: count: a band fights from an engaged start")),
        "{e}"
    );
}

#[test]
fn bad_swept_value_is_located_before_anything_runs() {
    let text =
        format!("{DRAFT_PAIR}\n[[sweep]]\nfighter = \"a\"\nfield = \"skill\"\nvalues = [5, 99]\n");
    let s: Scenario<Draft> = load(FILE, &text).unwrap();
    let e = validate(FILE, &text, &s).unwrap_err().to_string();
    assert!(e.contains("test.toml:"), "{e}");
    assert!(e.contains("a.skill = 99"), "{e}");
    // At the bad value itself: the second entry of `values`.
    let line = line_of(&text, "values =");
    assert!(
        e.contains(&format!("test.toml:{line}:14: sweep[0].values[1]:")),
        "{e}"
    );
}

const KITS: &str = r#"
name = "kits"
ruleset = "draft"

[fighters.sword]
skill = 6
weapon = "long sword"
armour = "leather"
str = 7
con = 6

[fighters.greatsword]
skill = 6
weapon = "two handed sword"
armour = "leather"
str = 7
con = 6

[fighters.unarmed]
skill = 6
weapon = "unarmed"
str = 7
con = 6

[tournament]
fighters = ["sword", "greatsword", "unarmed"]
costs = { sword = 20, greatsword = 30, unarmed = 0 }
"#;

#[test]
fn tournament_flags_the_dominated_kit_and_solves_the_meta_game() {
    let t = study::<Draft>(KITS, 10_000, true)
        .unwrap()
        .tournament
        .unwrap();
    let idx = |n: &str| t.fighters.iter().position(|f| f == n).unwrap();
    let u = idx("unarmed");
    let rank = |n: &str| t.ranking.iter().find(|r| r.fighter == n).unwrap();
    assert!(rank("unarmed").dominated);
    assert_eq!(rank("unarmed").nash_share, 0.0);
    let total: f64 = t.nash.iter().sum();
    assert!((total - 1.0).abs() < 1e-9);
    // Payoff is antisymmetric and the exact win matrix is used (every draft duel solves).
    for i in 0..3 {
        for j in 0..3 {
            assert!((t.payoff[i][j] + t.payoff[j][i]).abs() < 1e-12);
            if i != j {
                assert!(t.exact_win[i][j].is_some());
            }
        }
    }
    // The Nash mix is an equilibrium: no pure kit earns more than 0 against it.
    let game = |i: usize, j: usize| {
        if i == j {
            0.0
        } else {
            t.exact_win[i][j].unwrap() - t.exact_win[j][i].unwrap()
        }
    };
    for i in 0..3 {
        let v: f64 = (0..3).map(|j| game(i, j) * t.nash[j]).sum();
        assert!(v < 1e-9, "kit {i} earns {v} against the mix");
    }
    assert!(t.exact_win[idx("sword")][u].unwrap() > 0.9);
    // Fight length and lethality: each unordered pair once, both seatings pooled; the mean
    // length within 4 standard errors of the exact mean over the two seatings.
    let names: Vec<(&str, &str)> = t
        .pairings
        .iter()
        .map(|p| (p.a.as_str(), p.b.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("sword", "greatsword"),
            ("sword", "unarmed"),
            ("greatsword", "unarmed")
        ]
    );
    let s: Scenario<Draft> = load(FILE, KITS).unwrap();
    let compiled = |n: &str| s.ruleset.compile(n, &s.fighters[n]).unwrap();
    for p in &t.pairings {
        assert_eq!(p.trials, 20_000);
        let ends = p.death.successes + p.incapacitated.successes + p.other.successes;
        assert_eq!(ends, p.trials);
        let (a, b) = (compiled(&p.a), compiled(&p.b));
        let exact_mean = |x, y| {
            let m = s.ruleset.matchup(x, y).unwrap();
            s.ruleset.exact(&m).unwrap().mean_rounds
        };
        let want = (exact_mean(&a, &b) + exact_mean(&b, &a)) / 2.0;
        let se = p.rounds_sd / (p.trials as f64).sqrt();
        assert!(
            (p.rounds_mean - want).abs() < 4.0 * se,
            "{} vs {}: {} against exact {want}",
            p.a,
            p.b,
            p.rounds_mean
        );
    }
    let c = t.costs.unwrap();
    assert_eq!(c.unit, "points");
    assert!(c.points.iter().all(|p| p.source == "file"));
    assert_eq!(c.points.len(), 3);
    // Residuals are measured from the least-squares line, so they sum to zero.
    let sum: f64 = c.points.iter().map(|p| p.residual.unwrap()).sum();
    assert!(sum.abs() < 1e-9, "{sum}");
}

#[test]
fn gamecraft_costs_come_from_the_rules() {
    let text = r#"
name = "g"
ruleset = "gamecraft"
[fighters.a]
prowess = 7
skills = { "Melee Combat" = 5 }
weapon = "sword"
[fighters.b]
prowess = 6
skills = { "Melee Combat" = 5 }
weapon = "sword"
[tournament]
"#;
    let t = study::<Gamecraft>(text, 2_000, false)
        .unwrap()
        .tournament
        .unwrap();
    let c = t.costs.unwrap();
    assert_eq!(c.unit, "XP");
    let cost = |n: &str| c.points.iter().find(|p| p.fighter == n).unwrap().cost;
    // Prowess 6→7 costs 21 XP (digest §3.6 text example).
    assert_eq!(cost("a") - cost("b"), 21.0);
}

#[test]
fn check_grid_is_exact_and_check_balance_finds_the_tn() {
    let text = r#"
name = "c"
ruleset = "gamecraft"
[fighters.a]
prowess = 6
weapon = "sword"
[[check]]
name = "grid"
params = { attribute = 6 }
rows = { param = "skill", values = [0, 4] }
cols = { param = "tn", values = [5, 10, 15] }
[[check]]
name = "capable"
params = { attribute = 6, skill = 4, tn = 12 }
[balance]
check = "capable"
param = "tn"
range = [1, 30]
target = 0.6
[[assert]]
check = "capable"
p_success = [0.0, 0.5]
"#;
    let d = study::<Gamecraft>(text, 20_000, true).unwrap();
    let s: Scenario<Gamecraft> = load(FILE, text).unwrap();
    let exact = |skill: i64, tn: i64| {
        let p = oddsmith_rules::CheckParams::parse(
            [
                "attribute=6".to_string(),
                format!("skill={skill}"),
                format!("tn={tn}"),
            ]
            .iter()
            .map(String::as_str),
        )
        .unwrap();
        s.ruleset
            .check_exact(&s.ruleset.parse_check(&p).unwrap())
            .p_success()
    };
    let g = &d.checks[0];
    assert_eq!(g.cells.len(), 6);
    for c in &g.cells {
        let (sk, tn): (i64, i64) = (
            c.row.as_ref().unwrap().parse().unwrap(),
            c.col.as_ref().unwrap().parse().unwrap(),
        );
        assert_eq!(c.exact, exact(sk, tn));
        let sd = (c.exact * (1.0 - c.exact) / c.monte_carlo.trials as f64)
            .sqrt()
            .max(1e-9);
        assert!((c.monte_carlo.p - c.exact).abs() <= 4.0 * sd, "{c:?}");
    }
    let b = d.balance.unwrap();
    let v = b.value.unwrap() as i64;
    // The TN chosen is the one whose exact P(success) is nearest 60 %.
    let best = (1..=30).min_by(|&a, &b| {
        (exact(4, a) - 0.6)
            .abs()
            .partial_cmp(&(exact(4, b) - 0.6).abs())
            .unwrap()
    });
    assert_eq!(Some(v), best);
    // The assertion: P(success) at TN 12 is judged exactly.
    let a = &d.asserts[0];
    assert_eq!(a.value, exact(4, 12));
    assert_eq!(a.source, "exact");
    assert_eq!(a.passed, a.value <= 0.5);
}

#[test]
fn assertions_use_exact_values_and_flag_uncertain_verdicts() {
    let text = format!(
        "{DRAFT_PAIR}\n[[assert]]\np_a_win = [0.0, 0.01]\n[[assert]]\nrounds_mean = [0, 1000]\n"
    );
    let d = study::<Draft>(&text, 5_000, true).unwrap();
    assert_eq!(d.asserts.len(), 2);
    assert!(!d.asserts[0].passed);
    assert_eq!(d.asserts[0].value, exact_at(6));
    assert!(d.asserts[0].certain);
    assert!(d.asserts[1].passed);
    assert_eq!(d.asserts[1].source, "monte carlo");
    assert_eq!(d.failed_asserts().count(), 1);
}

/// One part of a comparison from a draft scenario text (exact values on or off).
fn part(id: &str, text: &str, trials: u64, seed: u64, exact: bool) -> oddsmith_study::PartResult {
    let s: Scenario<Draft> = load(FILE, text).unwrap();
    let c = cfg(trials, seed);
    let matchups = s
        .matchups
        .iter()
        .map(|m| {
            let st = oddsmith_sim::run_duels(&s.ruleset, &m.matchup, &c, &|_| {}).unwrap();
            let e = if exact {
                s.ruleset.exact(&m.matchup)
            } else {
                None
            };
            (m.name.clone(), st, e)
        })
        .collect();
    oddsmith_study::PartResult {
        id: id.into(),
        matchups,
        step: None,
        checks: Vec::new(),
    }
}

#[test]
fn comparison_verdicts_need_significance_and_the_threshold() {
    let skill = |k: i64| DRAFT_PAIR.replacen("skill = 6", &format!("skill = {k}"), 1);
    // Same rules, same fighters, different seeds: nothing to report.
    let same = oddsmith_study::compare(
        &[
            part("x", DRAFT_PAIR, 20_000, 1, false),
            part("y", DRAFT_PAIR, 20_000, 2, false),
        ],
        &[],
        0.05,
        0.02,
    );
    let a = &same.archetypes[0];
    assert!(!a.p_a_win.exact);
    assert!(
        a.p_a_win.lo <= 0.0 && 0.0 <= a.p_a_win.hi,
        "{:?}",
        a.p_a_win
    );
    assert!(same.verdicts.is_empty(), "{:?}", same.verdicts);
    // A real difference (skill 7 vs 6 for A), significant, but under a threshold set above
    // it: no verdict; with a small threshold: a verdict.
    let parts = [
        part("x", &skill(7), 20_000, 1, false),
        part("y", DRAFT_PAIR, 20_000, 2, false),
    ];
    let d = oddsmith_study::compare(&parts, &[], 0.05, 0.9);
    assert!(d.archetypes[0].p_a_win.p_value < 1e-6);
    assert!(!d.archetypes[0].p_a_win.decisive);
    assert!(
        d.verdicts.iter().all(|v| !v.contains("side A wins")),
        "{:?}",
        d.verdicts
    );
    let d = oddsmith_study::compare(&parts, &[], 0.05, 0.05);
    assert!(d.archetypes[0].p_a_win.decisive);
    // The overall balance first, then the matchup.
    assert!(
        d.verdicts[0].starts_with("Overall balance"),
        "{:?}",
        d.verdicts
    );
    assert!(
        d.verdicts[1].contains("more often under x"),
        "{:?}",
        d.verdicts
    );
    // Exact on both sides: the difference is exact; the verdict depends on the threshold only.
    let exact = [
        part("x", &skill(7), 2_000, 1, true),
        part("y", DRAFT_PAIR, 2_000, 2, true),
    ];
    let d = oddsmith_study::compare(&exact, &[], 0.05, 0.05);
    let w = &d.archetypes[0].p_a_win;
    assert!(w.exact);
    let e7 = {
        let s: Scenario<Draft> = load(FILE, &skill(7)).unwrap();
        s.ruleset.exact(&s.matchups[0].matchup).unwrap().p_a_win
    };
    assert_eq!(w.diff, e7 - exact_at(6));
    assert_eq!((w.lo, w.hi), (w.diff, w.diff));
    assert!(w.decisive);
    // Fight lengths: identical rules give a KS D near 0 and no verdict.
    assert!(same.archetypes[0].rounds_ks.d < 0.03);
    assert!(!same.archetypes[0].rounds_decisive);
}

#[test]
fn skill_step_verdict_compares_magnitudes() {
    // Raising side B lowers P(A wins): effects are negative; the larger magnitude matters more.
    let step = |ruleset: &str, e: f64| oddsmith_study::StepEffect {
        ruleset: ruleset.into(),
        label: "novice.skill 4 → 5".into(),
        before: oddsmith_study::Est::new(900, 1000),
        after: oddsmith_study::Est::new(800, 1000),
        diff: oddsmith_stats::DiffEstimate {
            diff: e,
            lo: e - 0.01,
            hi: e + 0.01,
            z: 0.0,
            p_value: 0.0,
        },
        exact_diff: Some(e),
    };
    let mut x = part("x", DRAFT_PAIR, 1_000, 1, true);
    let mut y = part("y", DRAFT_PAIR, 1_000, 2, true);
    x.step = Some(step("x", -0.10));
    y.step = Some(step("y", -0.04));
    let d = oddsmith_study::compare(&[x, y], &[], 0.05, 0.03);
    let v = d
        .verdicts
        .iter()
        .find(|v| v.contains("skill step"))
        .expect("a step verdict");
    assert!(v.contains("matters more under x"), "{v}");
    assert!(v.contains("10.0 points vs 4.0 points"), "{v}");
    assert!(d.step_comparisons[0].effect.exact);
}

#[test]
fn balance_ranges_and_tolerances_are_checked_on_load() {
    let with = |extra: &str| {
        format!("{DRAFT_PAIR}\n[balance]\nfighter = \"a\"\nfield = \"con\"\n{extra}\n")
    };
    let e = load::<Draft>(FILE, &with("range = [2.2, 2.8]\ninteger = true")).unwrap_err();
    assert!(e.message.contains("no whole number"), "{e}");
    let e = load::<Draft>(FILE, &with("range = [2.0, 8.0]\ntolerance = 1e-15")).unwrap_err();
    assert!(e.field.ends_with("tolerance"), "{e}");
}

#[test]
fn sweeps_reach_ruleset_options_including_nested_ones() {
    let text = format!(
        "{DRAFT_PAIR}\n[[sweep]]\noption = \"wound_penalties.severe\"\nvalues = [0, -2, -4]\n"
    );
    let d = study::<Draft>(&text, 2_000, true).unwrap();
    let sw = &d.sweeps[0];
    assert_eq!(sw.x.target, "options.wound_penalties.severe");
    for (pt, severe) in sw.points.iter().zip([0, -2, -4]) {
        // The same duel written with the option in the file.
        let t = format!(
            "{DRAFT_PAIR}\n[options]\nwound_penalties = {{ light = -1, severe = {severe}, critical = -4 }}\n"
        );
        let s: Scenario<Draft> = load(FILE, &t).unwrap();
        let e = s.ruleset.exact(&s.matchups[0].matchup).unwrap().p_a_win;
        assert_eq!(pt.exact_p_a_win, Some(e), "severe = {severe}");
    }
    // The severe-wound penalty changes the duel (the sweep is not a no-op).
    assert_ne!(sw.points[0].exact_p_a_win, sw.points[2].exact_p_a_win);
}

#[test]
fn bad_value_on_the_y_axis_is_located_at_the_y_axis() {
    let text = format!(
        "{DRAFT_PAIR}\n[[sweep]]\nfighter = \"a\"\nfield = \"skill\"\nvalues = [5, 6]\ny = {{ fighter = \"a\", field = \"con\", values = [6, 999] }}\n"
    );
    let s: Scenario<Draft> = load(FILE, &text).unwrap();
    let e = validate(FILE, &text, &s).unwrap_err().to_string();
    let line = line_of(&text, "y = ");
    assert!(e.contains(&format!("test.toml:{line}:")), "{e}");
    assert!(e.contains("a.con = 999"), "{e}");
}

#[test]
fn study_doc_sections_come_in_report_order() {
    use oddsmith_study::StudySection;
    let text = DRAFT_PAIR.to_string()
        + r#"
[[assert]]
check = "hard"
p_success = [0.0, 1.0]

[[check]]
name = "hard"
params = { skill = 5, difficulty = "hard" }

[[sweep]]
fighter = "a"
field = "skill"
values = [5, 6]
"#;
    let doc = study::<Draft>(&text, 2_000, true).unwrap();
    let kinds: Vec<&str> = doc
        .sections()
        .map(|s| match s {
            StudySection::Sweep(_) => "sweep",
            StudySection::Balance(_) => "balance",
            StudySection::Tournament(_) => "tournament",
            StudySection::Check(_) => "check",
            StudySection::Assert(_) => "assert",
        })
        .collect();
    assert_eq!(kinds, ["sweep", "check", "assert"]);
    assert!(doc.asserts[0].passed);
    assert!(!doc.is_empty());
    assert!(StudyDoc::default().is_empty());
}

#[test]
fn sweeps_over_text_and_true_false_values() {
    let text = format!(
        "{DRAFT_PAIR}\n[[sweep]]\noption = \"end_condition\"\nvalues = [\"incapacitated\", \"first_wound\"]\n\n[[sweep]]\noption = \"exhaustion\"\nvalues = [false, true]\ny = {{ option = \"wound_overflow\", values = [\"reset\", \"keep\"] }}\n"
    );
    let d = study::<Draft>(&text, 2_000, true).unwrap();
    let exact = |options: &str| {
        let t = format!("{DRAFT_PAIR}\n[options]\n{options}\n");
        let s: Scenario<Draft> = load(FILE, &t).unwrap();
        s.ruleset.exact(&s.matchups[0].matchup).unwrap().p_a_win
    };
    let sw = &d.sweeps[0];
    assert_eq!(sw.x.target, "options.end_condition");
    assert_eq!(sw.x.labels, ["incapacitated", "first_wound"]);
    assert_eq!(sw.x.values, [0.0, 1.0], "positions on a text axis");
    assert!(!sw.x.is_numeric());
    assert_eq!(sw.x.label(1.0), Some("first_wound"));
    for (pt, v) in sw.points.iter().zip(["incapacitated", "first_wound"]) {
        let e = exact(&format!("end_condition = \"{v}\""));
        assert_eq!(pt.exact_p_a_win, Some(e), "{v}");
    }
    assert_ne!(sw.points[0].exact_p_a_win, sw.points[1].exact_p_a_win);
    // The one step incapacitated → first_wound is paired like a numeric step.
    assert_eq!(sw.steps.len(), 1);
    let st = &sw.steps[0];
    assert_eq!((st.from, st.to), (0.0, 1.0));
    assert!((st.diff.hi - st.diff.lo) / 2.0 < st.unpaired_half_width);
    // true/false on x, text on y: every point is the scenario with both written in.
    let sw = &d.sweeps[1];
    assert_eq!(sw.x.labels, ["false", "true"]);
    assert_eq!(sw.y.as_ref().unwrap().labels, ["reset", "keep"]);
    let written: Vec<(&str, &str)> = sw
        .points
        .iter()
        .map(|p| {
            (
                sw.x.label(p.x).unwrap(),
                sw.y.as_ref().unwrap().label(p.y.unwrap()).unwrap(),
            )
        })
        .collect();
    assert_eq!(
        written,
        [
            ("false", "reset"),
            ("true", "reset"),
            ("false", "keep"),
            ("true", "keep")
        ]
    );
    for (pt, (x, y)) in sw.points.iter().zip(written) {
        let e = exact(&format!("exhaustion = {x}\nwound_overflow = \"{y}\""));
        assert_eq!(pt.exact_p_a_win, Some(e), "{x}, {y}");
    }
    // A numeric sweep keeps numeric values and no labels (its JSON is unchanged).
    let text =
        format!("{DRAFT_PAIR}\n[[sweep]]\nfighter = \"a\"\nfield = \"con\"\nvalues = [5, 6]\n");
    let d = study::<Draft>(&text, 1_000, false).unwrap();
    assert!(d.sweeps[0].x.labels.is_empty());
    let json = serde_json::to_value(&d.sweeps[0].x).unwrap();
    assert_eq!(
        json,
        serde_json::json!({ "target": "a.con", "values": [5.0, 6.0] })
    );
}

#[test]
fn bad_text_value_is_located_and_named() {
    let text = format!(
        "{DRAFT_PAIR}\n[[sweep]]\noption = \"wound_overflow\"\nvalues = [\"keep\", \"rest\"]\n"
    );
    let s: Scenario<Draft> = load(FILE, &text).unwrap();
    let e = validate(FILE, &text, &s).unwrap_err().to_string();
    let line = line_of(&text, "values =");
    assert!(
        e.contains(&format!("test.toml:{line}:19: sweep[0].values[1]:")),
        "{e}"
    );
    assert!(e.contains("options.wound_overflow = \"rest\""), "{e}");
    assert!(e.contains("did you mean \"reset\"?"), "{e}");
}

#[test]
fn sweep_over_one_member_of_a_nested_option_keeps_the_others() {
    // `shield_bonus.large` set alone; `small` stays as written in [options].
    let shielded = DRAFT_PAIR.replace(
        "weapon = \"long sword\"\nstr = 7",
        "weapon = \"long sword\"\nshield = \"large\"\nshield_skill = 6\nstr = 7",
    );
    let text = format!(
        "{shielded}\n[options]\nshield_bonus = {{ small = 1, large = 2 }}\n\n[[sweep]]\noption = \"shield_bonus.large\"\nvalues = [0, 2, 4]\n"
    );
    let d = study::<Draft>(&text, 1_000, true).unwrap();
    let sw = &d.sweeps[0];
    for (pt, large) in sw.points.iter().zip([0, 2, 4]) {
        let t = format!("{shielded}\n[options]\nshield_bonus = {{ small = 1, large = {large} }}\n");
        let s: Scenario<Draft> = load(FILE, &t).unwrap();
        let e = s.ruleset.exact(&s.matchups[0].matchup).unwrap().p_a_win;
        assert_eq!(pt.exact_p_a_win, Some(e), "large = {large}");
    }
    assert!(sw.points[0].exact_p_a_win < sw.points[2].exact_p_a_win);
}

#[test]
fn two_variants_of_one_ruleset_are_compared_paired() {
    let book: Scenario<Draft> = load(FILE, DRAFT_PAIR).unwrap();
    let house_text = format!("{DRAFT_PAIR}\n[options]\nend_condition = \"first_severe\"\n");
    let house: Scenario<Draft> = load(FILE, &house_text).unwrap();
    let run = |a: &Scenario<Draft>, b: &Scenario<Draft>, exact: bool| {
        oddsmith_study::paired_matchups(["book", "house"], a, b, &cfg(20_000, 3), exact, &|_| {})
            .unwrap()
    };
    let parts = || {
        [
            part("book", DRAFT_PAIR, 1_000, 1, false),
            part("house", &house_text, 1_000, 2, false),
        ]
    };
    let paired = run(&book, &house, false);
    assert_eq!(paired.len(), 1);
    let d = oddsmith_study::compare(&parts(), &paired, 0.05, 0.02);
    let a = &d.archetypes[0];
    assert!(a.paired && !a.p_a_win.exact);
    // The values come from the paired run, not the parts' independent runs.
    let (o1, o2) = (&paired[0].stats[0].outcomes, &paired[0].stats[1].outcomes);
    assert_eq!(a.p_a_win.values, [o1.p_a(), o2.p_a()]);
    // Common random numbers: a much narrower interval than independent samples would give.
    let ind =
        oddsmith_stats::diff_independent(o1.a_wins, o1.total(), o2.a_wins, o2.total()).unwrap();
    assert!(
        a.p_a_win.hi - a.p_a_win.lo < 0.6 * (ind.hi - ind.lo),
        "paired {:?} vs independent {ind:?}",
        a.p_a_win
    );
    // Within 4σ of the exact difference.
    let e = |s: &Scenario<Draft>| s.ruleset.exact(&s.matchups[0].matchup).unwrap().p_a_win;
    let exact = e(&book) - e(&house);
    let se = (a.p_a_win.hi - a.p_a_win.lo) / (2.0 * 1.96);
    assert!(
        (a.p_a_win.diff - exact).abs() < 4.0 * se,
        "{} vs exact {exact}",
        a.p_a_win.diff
    );
    assert!(
        exact.abs() > 0.01,
        "the house rule changes the duel: {exact}"
    );
    // The JSON says the comparison was paired.
    let json = serde_json::to_value(a).unwrap();
    assert_eq!(json["paired"], true);
    // The same rules twice: every trial agrees, the difference is exactly 0, no verdict.
    let same = run(&book, &book, false);
    let c = same[0].concordance;
    assert_eq!((c.first_only, c.second_only), (0, 0));
    let d = oddsmith_study::compare(&parts(), &same, 0.05, 0.02);
    assert_eq!(d.archetypes[0].p_a_win.diff, 0.0);
    assert!(d.verdicts.is_empty(), "{:?}", d.verdicts);
    // Exact on both sides: the exact difference, judged by the threshold alone.
    let d = oddsmith_study::compare(&parts(), &run(&book, &house, true), 0.05, 0.02);
    let w = &d.archetypes[0].p_a_win;
    assert!(w.exact);
    assert_eq!(w.diff, exact);
}

/// The balance index of two variants on a fixed seed, against a computation by hand from
/// the paired runs' counts: mean |P(A wins) − ½| per variant, and the delta-method paired
/// interval of the difference.
#[test]
fn balance_index_matches_a_hand_computation_on_paired_runs() {
    let text = format!("{DRAFT_PAIR}\n[[matchup]]\nname = \"b first\"\na = \"b\"\nb = \"a\"\n");
    let book: Scenario<Draft> = load(FILE, &text).unwrap();
    let house_text = format!("{text}\n[options]\nend_condition = \"first_severe\"\n");
    let house: Scenario<Draft> = load(FILE, &house_text).unwrap();
    let paired = oddsmith_study::paired_matchups(
        ["book", "house"],
        &book,
        &house,
        &cfg(20_000, 7),
        false,
        &|_| {},
    )
    .unwrap();
    assert_eq!(paired.len(), 2);
    let parts = [
        part("book", &text, 1_000, 1, false),
        part("house", &house_text, 1_000, 2, false),
    ];
    let d = oddsmith_study::compare(&parts, &paired, 0.05, 0.02);
    assert_eq!(d.balance.len(), 1);
    let b = &d.balance[0];
    assert!(b.paired && !b.index.exact);
    assert_eq!(b.matchups, 2);
    // By hand, from the concordance tables.
    let mut idx = [0.0; 2];
    let mut var = 0.0;
    for x in &paired {
        let c = x.concordance;
        let n = (c.both + c.first_only + c.second_only + c.neither) as f64;
        let p1 = (c.both + c.first_only) as f64 / n;
        let p2 = (c.both + c.second_only) as f64 / n;
        idx[0] += (p1 - 0.5).abs() / 2.0;
        idx[1] += (p2 - 0.5).abs() / 2.0;
        let s = (p1 - 0.5).signum() * (p2 - 0.5).signum();
        let cov = (c.both as f64 / n - p1 * p2) / n;
        var += (p1 * (1.0 - p1) / n + p2 * (1.0 - p2) / n - 2.0 * s * cov) / 4.0;
    }
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(
        close(b.index.values[0], idx[0]) && close(b.index.values[1], idx[1]),
        "{b:?} vs {idx:?}"
    );
    assert!(close(b.index.diff, idx[0] - idx[1]));
    let half = 1.959_963_984_540_054 * var.sqrt();
    assert!(close(b.index.hi - b.index.diff, half), "{b:?} vs ±{half}");
    // The exact index is within 4σ of the Monte Carlo one.
    let exact = |s: &Scenario<Draft>| {
        s.matchups
            .iter()
            .map(|m| (s.ruleset.exact(&m.matchup).unwrap().p_a_win - 0.5).abs())
            .sum::<f64>()
            / 2.0
    };
    let e = exact(&book) - exact(&house);
    assert!(
        (b.index.diff - e).abs() < 4.0 * half / 1.96,
        "{} vs exact {e}",
        b.index.diff
    );
    // The verdict, when there is one, leads the verdicts.
    if b.index.decisive {
        assert!(
            d.verdicts[0].starts_with("Overall balance: "),
            "{:?}",
            d.verdicts
        );
    }
    // Solved on both sides: the exact index difference speaks.
    let solved = oddsmith_study::paired_matchups(
        ["book", "house"],
        &book,
        &house,
        &cfg(2_000, 7),
        true,
        &|_| {},
    )
    .unwrap();
    let parts = [
        part("book", &text, 500, 1, true),
        part("house", &house_text, 500, 2, true),
    ];
    let d = oddsmith_study::compare(&parts, &solved, 0.05, 0.02);
    assert!(d.balance[0].index.exact);
    assert!(close(d.balance[0].index.diff, e));
}

#[test]
fn five_kits_whose_costs_do_not_predict_win_rate_get_no_verdicts() {
    // The bundled five priced Draft kits: the slope's interval includes 0.
    let text = include_str!("../../../../scenarios/studies/draft-loadouts.toml");
    let t = study::<Draft>(text, 2_000, false)
        .unwrap()
        .tournament
        .unwrap();
    let c = t.costs.unwrap();
    assert_eq!(c.points.len(), 5);
    assert!(c.slope_ci95[0] <= 0.0, "{:?}", c.slope_ci95);
    assert_eq!(c.fit, oddsmith_study::CostFit::NotPredictive);
    assert!(
        c.points
            .iter()
            .all(|p| p.verdict.is_none() && !p.fair_cost_usable)
    );
    // Still ranked by residual, file order kept in the table.
    assert_eq!(c.by_residual.len(), 5);
    assert_eq!(c.points[0].fighter, t.fighters[0]);
    assert_eq!(c.tolerance, oddsmith_scenario::DEFAULT_FAIR_TOLERANCE);
    assert!(c.missing.is_empty());
    // The dagger priced as the dearest kit: the line slopes downward (the issue's case, where
    // the dearest kit was called under-priced).
    let text = text.replace("dagger = 10", "dagger = 90");
    let c = study::<Draft>(&text, 2_000, false)
        .unwrap()
        .tournament
        .unwrap()
        .costs
        .unwrap();
    assert!(c.slope < 0.0, "{}", c.slope);
    assert_eq!(c.fit, oddsmith_study::CostFit::NotPredictive);
    assert!(
        c.points
            .iter()
            .all(|p| p.verdict.is_none() && !p.fair_cost_usable)
    );
}

/// Five draft kits whose skill rises with the price: costs predict win rate.
fn priced_skills(costs: &str, extra: &str) -> String {
    let mut t = "name = \"p\"\nruleset = \"draft\"\n".to_string();
    for (k, skill) in [3, 4, 5, 6, 7].iter().enumerate() {
        t += &format!(
            "[fighters.k{k}]\nskill = {skill}\nweapon = \"long sword\"\narmour = \"leather\"\nstr = 7\ncon = 6\n"
        );
    }
    format!("{t}[tournament]\ncosts = {{ {costs} }}\n{extra}")
}

#[test]
fn fair_costs_fed_back_as_costs_land_inside_the_tolerance() {
    // Prices that over-reward the middle kits: the line is real but the kits sit off it.
    let text = priced_skills("k0 = 10, k1 = 35, k2 = 40, k3 = 45, k4 = 90", "");
    let t = study::<Draft>(&text, 4_000, false)
        .unwrap()
        .tournament
        .unwrap();
    let c = t.costs.unwrap();
    assert_eq!(
        c.fit,
        oddsmith_study::CostFit::Predictive,
        "{:?}",
        c.slope_ci95
    );
    assert!(c.slope > 0.0 && c.slope_ci95[0] > 0.0);
    assert!(
        c.points
            .iter()
            .any(|p| p.verdict.as_deref() != Some("fair")),
        "some kit is off the line"
    );
    let xs: Vec<f64> = c.points.iter().map(|p| p.cost).collect();
    let ys: Vec<f64> = c.points.iter().map(|p| p.win_rate.p).collect();
    for (k, p) in c.points.iter().enumerate() {
        let f = p.fair_cost.unwrap();
        assert!(f.lo <= f.value && f.value <= f.hi, "{f:?}");
        // The line through the *other* kits at the fair cost gives the kit's win rate.
        let (ox, oy): (Vec<f64>, Vec<f64>) =
            (0..5).filter(|&j| j != k).map(|j| (xs[j], ys[j])).unzip();
        let l = oddsmith_study::fit_line(&ox, &oy).unwrap();
        assert!((l.intercept + l.slope * f.value - p.win_rate.p).abs() < 1e-9);
    }
}

/// The fair cost of a kit is judged by the other kits' line only, and its interval carries
/// the line's uncertainty: a noisy fit widens it far beyond the Monte Carlo noise.
#[test]
fn fair_cost_is_leave_one_out_and_widens_with_the_fit_noise() {
    use oddsmith_study::fair_cost;
    let xs = [10.0, 20.0, 30.0, 40.0, 50.0];
    let clean = [0.30, 0.40, 0.50, 0.60, 0.70];
    let noisy = [0.30, 0.47, 0.43, 0.66, 0.64];
    let var = [1e-6; 5];
    // Kit 2 (cost 30) on a perfect line: fair cost 30, interval from Monte Carlo noise only
    // (±1.96·0.001/0.01·t(2) ≈ ±0.4).
    let c = fair_cost(2, &xs, &clean, &var).unwrap();
    assert!((c.cost.value - 30.0).abs() < 1e-9, "{c:?}");
    let t2 = 4.302_652_729_911_275;
    let mc_only = t2 * 1e-3 / 0.01;
    assert!((c.cost.hi - c.cost.value - mc_only).abs() < 1e-6, "{c:?}");
    // The same kit among noisy others: the line's own uncertainty widens the interval.
    let mut n = noisy;
    n[2] = 0.50;
    let w = fair_cost(2, &xs, &n, &var).unwrap();
    assert!(
        w.cost.hi - w.cost.lo > 10.0 * (c.cost.hi - c.cost.lo),
        "clean {c:?} noisy {w:?}"
    );
    // By hand: others (10, .30) (20, .47) (40, .66) (50, .64): x̄ = 30, Sxx = 1000,
    // slope = (−20·−.2175 − 10·−.0475 + 10·.1425 + 20·.1225)/1000 = 0.008700,
    // intercept = .5175 − .0087·30 = 0.2565; c* = (.5 − .2565)/.0087 = 27.99.
    assert!(
        (w.cost.value - (0.5 - 0.2565) / 0.0087).abs() < 1e-6,
        "{w:?}"
    );
    // A kit never judges itself: moving its own win rate moves its fair cost along the
    // others' line (1/slope per unit), never the line.
    let mut m = n;
    m[2] = 0.60;
    let moved = fair_cost(2, &xs, &m, &var).unwrap();
    assert!((moved.cost.value - w.cost.value - 0.1 / 0.0087).abs() < 1e-6);
    assert_eq!(moved.slope_significant, w.slope_significant);
    // Too few other kits for an interval: no fair cost.
    assert!(fair_cost(0, &xs[..3], &clean[..3], &var[..3]).is_none());
}

#[test]
fn missing_costs_are_named_and_the_tolerance_is_configurable() {
    // A price list that leaves a kit out (and rules that price none) is refused on load,
    // naming the kit, rather than silently dropping it from the cost analysis.
    let text = priced_skills(
        "k0 = 10, k1 = 20, k2 = 30, k4 = 50",
        "fair_tolerance = 0.001\n",
    );
    let e = load::<Draft>(FILE, &text).unwrap_err();
    assert_eq!(e.field, "tournament.costs", "{e}");
    assert!(e.message.contains("no cost for k3"), "{e}");
    let text = priced_skills(
        "k0 = 10, k1 = 20, k2 = 30, k3 = 40, k4 = 50",
        "fair_tolerance = 0.001\n",
    );
    let c = study::<Draft>(&text, 2_000, false)
        .unwrap()
        .tournament
        .unwrap()
        .costs
        .unwrap();
    assert!(c.missing.is_empty());
    assert_eq!(c.points.len(), 5);
    assert_eq!(c.tolerance, 0.001);
    // No kit priced at all (the draft rules price nothing): every kit is named.
    let text = priced_skills("", "");
    let c = study::<Draft>(&text, 1_000, false)
        .unwrap()
        .tournament
        .unwrap()
        .costs
        .unwrap();
    assert_eq!(c.missing.len(), 5);
    assert_eq!(c.fit, oddsmith_study::CostFit::TooFewKits);
    // A tolerance outside [0, 0.5) is refused on load.
    let bad = priced_skills("", "fair_tolerance = 3\n");
    let e = load::<Draft>(FILE, &bad).unwrap_err();
    assert!(e.field.ends_with("fair_tolerance"), "{e}");
}

#[test]
fn tournament_json_matrices_carry_the_fighters_names() {
    let t = study::<Draft>(KITS, 2_000, true)
        .unwrap()
        .tournament
        .unwrap();
    let j = serde_json::to_value(&t).unwrap();
    let (s, g) = (t.fighters.iter().position(|f| f == "sword").unwrap(), 1);
    assert_eq!(t.fighters[g], "greatsword");
    // win.sword.greatsword is P(sword beats greatsword): the named cell, not a position.
    let cell = &j["win"]["sword"]["greatsword"];
    assert_eq!(cell["p"].as_f64(), t.win[s][g].map(|e| e.p));
    assert!(j["win"]["sword"]["sword"].is_null());
    assert_eq!(
        j["exact_win"]["greatsword"]["unarmed"].as_f64(),
        t.exact_win[g][2]
    );
    assert_eq!(
        j["payoff"]["unarmed"]["sword"].as_f64(),
        Some(t.payoff[2][s])
    );
    assert_eq!(j["nash"]["unarmed"].as_f64(), Some(0.0));
    let rows: Vec<&String> = j["win"].as_object().unwrap().keys().collect();
    assert_eq!(rows.len(), 3);
}

/// The 1-based number of the first line of `text` that starts with `prefix`.
fn line_of(text: &str, prefix: &str) -> usize {
    text.lines().position(|l| l.starts_with(prefix)).unwrap() + 1
}

#[test]
fn tournament_win_rates_speak_exactly_where_every_pairing_is_solved() {
    let t = study::<Draft>(KITS, 2_000, true)
        .unwrap()
        .tournament
        .unwrap();
    let n = t.fighters.len();
    for r in &t.ranking {
        let i = t.fighters.iter().position(|f| *f == r.fighter).unwrap();
        // Against the field, every opponent equally often: the mean of the exact P(beats j).
        let want = (0..n)
            .filter(|&j| j != i)
            .map(|j| t.exact_win[i][j].unwrap())
            .sum::<f64>()
            / (n - 1) as f64;
        let e = r.exact_win_rate.unwrap();
        assert!((e - want).abs() < 1e-15, "{}", r.fighter);
        assert_eq!(r.spoken().value(), e);
        // Monte Carlo, its check, within 4 standard errors of it.
        let se = (e * (1.0 - e) / r.win_rate.trials as f64).sqrt();
        assert!((r.win_rate.p - e).abs() < 4.0 * se, "{}: {r:?}", r.fighter);
    }
    // The ranking follows the exact win rates.
    assert!(
        t.ranking
            .windows(2)
            .all(|w| w[0].exact_win_rate >= w[1].exact_win_rate)
    );
    // The cost line is fitted on the exact win rates, and an exact rate is never "unclear".
    let c = t.costs.unwrap();
    for p in &c.points {
        let e = p.exact_win_rate.unwrap();
        assert!(
            (p.residual.unwrap() - (e - p.fair.unwrap())).abs() < 1e-12,
            "{p:?}"
        );
        assert_ne!(p.verdict.as_deref(), Some("unclear"), "{p:?}");
        if let Some(f) = p.fair_cost {
            assert_eq!((f.lo, f.hi), (f.value, f.value), "{p:?}");
        }
    }
    let xs: Vec<f64> = c.points.iter().map(|p| p.cost).collect();
    let ys: Vec<f64> = c.points.iter().map(|p| p.exact_win_rate.unwrap()).collect();
    let (slope, intercept) = oddsmith_study::tournament::least_squares(&xs, &ys).unwrap();
    assert!((c.slope - slope).abs() < 1e-12 && (c.intercept - intercept).abs() < 1e-12);

    // Without exact values the Monte Carlo estimates speak.
    let t = study::<Draft>(KITS, 2_000, false)
        .unwrap()
        .tournament
        .unwrap();
    assert!(t.ranking.iter().all(|r| r.exact_win_rate.is_none()));
    assert!(
        t.ranking
            .windows(2)
            .all(|w| w[0].win_rate.p >= w[1].win_rate.p)
    );
}

#[test]
fn equal_costs_fit_no_line_and_give_no_nan() {
    // Three kits (and then all five) at one price: no line, no fair value, no residual; said
    // as "same cost", not as "too few kits".
    for costs in [
        "k0 = 20, k1 = 20, k2 = 20",
        "k0 = 20, k1 = 20, k2 = 20, k3 = 20, k4 = 20",
    ] {
        let text = priced_skills(
            costs,
            "fighters = [\"k0\", \"k1\", \"k2\", \"k3\", \"k4\"]\n",
        );
        let text = if costs.contains("k3") {
            text
        } else {
            text.replace(
                "fighters = [\"k0\", \"k1\", \"k2\", \"k3\", \"k4\"]",
                "fighters = [\"k0\", \"k1\", \"k2\"]",
            )
        };
        let c = study::<Draft>(&text, 1_000, false)
            .unwrap()
            .tournament
            .unwrap()
            .costs
            .unwrap();
        assert_eq!(c.fit, oddsmith_study::CostFit::SameCost, "{costs}");
        assert!(c.points.len() >= 3);
        for p in &c.points {
            assert_eq!(
                (p.fair, p.residual, p.verdict.as_deref()),
                (None, None, None)
            );
            assert!(p.win_rate.p.is_finite());
        }
        // The JSON has no NaN (it would be null) where a number is expected per kit.
        let json = serde_json::to_string(&c).unwrap();
        assert!(json.contains("\"fit\":\"same_cost\""), "{json}");
    }
}
