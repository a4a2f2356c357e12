//! Engine tests through the public API: determinism across threads, precision stopping,
//! Monte Carlo against exact values.

use oddsmith_rules::draft::{Draft, DraftOptions, FighterSpec};
use oddsmith_rules::{CheckParams, Ruleset};
use oddsmith_sim::{CHUNK_TRIALS, RunConfig, run_check, run_duels};

fn spec(toml_text: &str) -> FighterSpec {
    toml::from_str(toml_text).unwrap()
}

fn d1() -> (Draft, <Draft as Ruleset>::Matchup) {
    let d = Draft::new(DraftOptions::default()).unwrap();
    let f = d
        .compile(
            "d1",
            &spec("skill = 6\nweapon = \"long sword\"\nstr = 6\ncon = 6\narmour = \"leather\""),
        )
        .unwrap();
    let m = d.matchup(&f, &f).unwrap();
    (d, m)
}

fn cfg(trials: u64, threads: usize) -> RunConfig {
    RunConfig {
        seed: 42,
        trials,
        precision: None,
        threads: Some(threads),
        units: Default::default(),
        cancel: Default::default(),
    }
}

#[test]
fn bit_identical_for_one_and_two_threads_and_across_runs() {
    let (d, m) = d1();
    let trials = 5 * CHUNK_TRIALS + 1234; // a partial last chunk too
    let one = run_duels(&d, &m, &cfg(trials, 1), &|_| {}).unwrap();
    let two = run_duels(&d, &m, &cfg(trials, 2), &|_| {}).unwrap();
    let again = run_duels(&d, &m, &cfg(trials, 2), &|_| {}).unwrap();
    assert_eq!(one, two);
    assert_eq!(two, again);
    assert_eq!(one.trials(), trials);
    // Without a precision target a wave is reduced in parallel, pairing accumulators in any
    // order; with one (unreachable here) they are merged one by one in chunk order. Same numbers.
    let eight = run_duels(&d, &m, &cfg(trials, 8), &|_| {}).unwrap();
    let in_order = RunConfig {
        precision: Some(1e-6),
        ..cfg(trials, 3)
    };
    assert_eq!(one, eight);
    assert_eq!(one, run_duels(&d, &m, &in_order, &|_| {}).unwrap());
    // A different seed gives different numbers.
    let other = run_duels(
        &d,
        &m,
        &RunConfig {
            seed: 43,
            ..cfg(trials, 2)
        },
        &|_| {},
    )
    .unwrap();
    assert_ne!(one.outcomes, other.outcomes);
}

#[test]
fn progress_reports_every_trial() {
    let (d, m) = d1();
    let seen = std::sync::atomic::AtomicU64::new(0);
    run_duels(&d, &m, &cfg(25_000, 2), &|n| {
        seen.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!(seen.into_inner(), 25_000);
}

#[test]
fn precision_stops_early_and_deterministically() {
    let (d, m) = d1();
    let c = RunConfig {
        precision: Some(0.005),
        ..cfg(10_000_000, 2)
    };
    let a = run_duels(&d, &m, &c, &|_| {}).unwrap();
    let b = run_duels(
        &d,
        &m,
        &RunConfig {
            threads: Some(1),
            ..c.clone()
        },
        &|_| {},
    )
    .unwrap();
    assert_eq!(a, b);
    let n = a.trials();
    // Half-width 1.96·sqrt(p(1−p)/n) ≤ 0.005 needs about 38,400 duels at p ≈ 0.5.
    assert!(
        n % CHUNK_TRIALS == 0 && (30_000..=50_000).contains(&n),
        "stopped after {n}"
    );
    let (lo, hi) = oddsmith_stats::wilson95(a.outcomes.a_wins, n);
    assert!((hi - lo) / 2.0 <= 0.005);
}

#[test]
fn monte_carlo_matches_exact_within_4_sigma() {
    let (d, m) = d1();
    let n = 200_000;
    let s = run_duels(&d, &m, &cfg(n, 2), &|_| {}).unwrap();
    let e = d.exact(&m).unwrap();
    let sigma = (e.p_a_win * (1.0 - e.p_a_win) / n as f64).sqrt();
    assert!((s.outcomes.p_a() - e.p_a_win).abs() <= 4.0 * sigma);
    let rounds_sd = s.rounds.sd() / (n as f64).sqrt();
    assert!((s.rounds.mean() - e.mean_rounds).abs() <= 4.0 * rounds_sd);
}

#[test]
fn check_monte_carlo_matches_exact() {
    let d = Draft::new(DraftOptions::default()).unwrap();
    let c = d
        .parse_check(&CheckParams::parse(["skill=5", "difficulty=hard"]).unwrap())
        .unwrap();
    let e = d.check_exact(&c);
    let n = 100_000;
    let s = run_check(&d, &c, e.distribution.min(), &cfg(n, 2), &|_| {}).unwrap();
    let p = e.p_success();
    assert_eq!(p, 0.4);
    assert!((s.success.p() - p).abs() <= 4.0 * (p * (1.0 - p) / n as f64).sqrt());
    for v in e.distribution.min()..=e.distribution.max() {
        let q = e.distribution.p(v);
        assert!(
            (s.frequency(v) - q).abs() <= 4.0 * (q * (1.0 - q) / n as f64).sqrt(),
            "value {v}"
        );
    }
}

#[test]
fn bad_configurations_are_errors() {
    let (d, m) = d1();
    assert!(run_duels(&d, &m, &cfg(0, 1), &|_| {}).is_err());
    assert!(run_duels(&d, &m, &cfg(10, 0), &|_| {}).is_err());
    assert!(
        run_duels(
            &d,
            &m,
            &RunConfig {
                precision: Some(0.0),
                ..cfg(10, 1)
            },
            &|_| {}
        )
        .is_err()
    );
}

fn skill_pair(a_skill: u8) -> (Draft, <Draft as Ruleset>::Matchup) {
    pair_with(&format!(
        "skill = {a_skill}\nweapon = \"long sword\"\nstr = 6\ncon = 6\narmour = \"leather\""
    ))
}

fn pair_with(a_spec: &str) -> (Draft, <Draft as Ruleset>::Matchup) {
    let d = Draft::new(DraftOptions::default()).unwrap();
    let a = d.compile("a", &spec(a_spec)).unwrap();
    let b = d
        .compile(
            "b",
            &spec("skill = 6\nweapon = \"long sword\"\nstr = 6\ncon = 6\narmour = \"leather\""),
        )
        .unwrap();
    let m = d.matchup(&a, &b).unwrap();
    (d, m)
}

#[test]
fn paired_runs_are_deterministic_and_match_exact_values() {
    let (d5, m5) = skill_pair(5);
    let (d6, m6) = skill_pair(6);
    let v = [(&d5, &m5), (&d6, &m6)];
    let trials = 3 * CHUNK_TRIALS + 17;
    let one = oddsmith_sim::run_paired(&v, &cfg(trials, 1), &|_| {}).unwrap();
    let two = oddsmith_sim::run_paired(&v, &cfg(trials, 2), &|_| {}).unwrap();
    assert_eq!(one, two);
    assert_eq!(one.adjacent[0].total(), trials);
    assert_eq!(
        one.adjacent[0].both + one.adjacent[0].first_only,
        one.variants[0].outcomes.a_wins
    );
    for (k, (d, m)) in v.iter().enumerate() {
        let exact = d.exact(m).unwrap().p_a_win;
        let s = &one.variants[k].outcomes;
        let sigma = (exact * (1.0 - exact) / trials as f64).sqrt();
        assert!(
            (s.p_a() - exact).abs() < 4.0 * sigma,
            "variant {k}: {} vs {exact}",
            s.p_a()
        );
    }
}

/// Common random numbers: over many seeds, the difference between two neighbouring variants
/// varies much less when both run on the same dice than when they run on independent dice.
#[test]
fn paired_differences_vary_less_than_unpaired_ones() {
    // A's constitution 6 → 7: the same dice decide who strikes first and every roll, so the
    // change only matters in duels where the extra wound threshold does.
    let (d5, m5) = skill_pair(6);
    let (d6, m6) =
        pair_with("skill = 6\nweapon = \"long sword\"\nstr = 6\ncon = 7\narmour = \"leather\"");
    let v = [(&d5, &m5), (&d6, &m6)];
    let trials = 2_000;
    let reps = 40u64;
    let (mut paired, mut unpaired) = (Vec::new(), Vec::new());
    for r in 0..reps {
        let c = RunConfig {
            seed: 1000 + r,
            trials,
            precision: None,
            threads: Some(1),
            units: Default::default(),
            cancel: Default::default(),
        };
        let p = oddsmith_sim::run_paired(&v, &c, &|_| {}).unwrap();
        paired.push(p.variants[1].outcomes.p_a() - p.variants[0].outcomes.p_a());
        let x = run_duels(&d5, &m5, &c, &|_| {}).unwrap();
        let y = run_duels(
            &d6,
            &m6,
            &RunConfig {
                seed: 5000 + r,
                ..c.clone()
            },
            &|_| {},
        )
        .unwrap();
        unpaired.push(y.outcomes.p_a() - x.outcomes.p_a());
    }
    let var = |xs: &[f64]| {
        let m = xs.iter().sum::<f64>() / xs.len() as f64;
        xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64
    };
    let (vp, vu) = (var(&paired), var(&unpaired));
    // Independent runs: var ≈ 2·p(1−p)/n ≈ 2.5e-4. Paired: only the trials the change flips.
    eprintln!("paired variance {vp:.3e}, unpaired {vu:.3e}");
    assert!(
        vp < vu / 3.0,
        "paired variance {vp:.3e} vs unpaired {vu:.3e}"
    );
}

#[test]
fn shards_sum_to_the_whole_run_and_a_merged_source_hands_it_back() {
    use oddsmith_sim::{Accumulator, Shard, Units, merge_shards, run_paired};
    let (d, m) = d1();
    let trials = 3 * CHUNK_TRIALS + 77;
    let whole = run_duels(&d, &m, &cfg(trials, 2), &|_| {}).unwrap();
    let pair = [(&d, &m), (&d, &m)];
    let whole_paired = run_paired(&pair, &cfg(trials, 2), &|_| {}).unwrap();
    let check = d
        .parse_check(&CheckParams::parse(["skill=5", "difficulty=hard"]).unwrap())
        .unwrap();
    let low = d.check_exact(&check).distribution.min();
    let whole_check = run_check(&d, &check, low, &cfg(trials, 2), &|_| {}).unwrap();
    for n in [1, 2, 3, 5] {
        let shards: Vec<_> = (1..=n)
            .map(|k| {
                let c = RunConfig {
                    units: Units::shard(Shard::new(k, n).unwrap()),
                    ..cfg(trials, 2)
                };
                run_duels(&d, &m, &c, &|_| {}).unwrap();
                run_paired(&pair, &c, &|_| {}).unwrap();
                run_check(&d, &check, low, &c, &|_| {}).unwrap();
                c.units.finish().unwrap()
            })
            .collect();
        // Each shard ran a part: together, every chunk once.
        let ran: u64 = shards.iter().map(|s| s[0].acc.trials()).sum();
        assert_eq!(ran, trials, "{n} shards");
        let merged = merge_shards(shards).unwrap();
        assert_eq!(merged[0].acc, Accumulator::Duels(Box::new(whole.clone())));
        assert_eq!(merged[1].acc, Accumulator::Paired(whole_paired.clone()));
        assert_eq!(
            merged[2].acc,
            Accumulator::Check(Box::new(whole_check.clone()))
        );
        let c = RunConfig {
            units: Units::merged(merged),
            ..cfg(trials, 2)
        };
        assert_eq!(run_duels(&d, &m, &c, &|_| {}).unwrap(), whole);
        assert_eq!(run_paired(&pair, &c, &|_| {}).unwrap(), whole_paired);
        // Out of order: the source refuses what does not fit.
        assert!(run_paired(&pair, &c, &|_| {}).is_err());
    }
    // A precision target cannot be sharded.
    let c = RunConfig {
        precision: Some(0.01),
        units: Units::shard(Shard::new(1, 2).unwrap()),
        ..cfg(trials, 2)
    };
    assert!(run_duels(&d, &m, &c, &|_| {}).is_err());
}

// A raised cancel flag stops a run at its next chunk with `Cancelled`, never a short sum:
// raised before the run, and raised by the progress callback after the first chunk (with and
// without a precision target). A run whose flag is never raised is unaffected.
#[test]
fn a_raised_cancel_flag_stops_the_run_with_cancelled() {
    use oddsmith_sim::{Cancel, SimError};
    use std::sync::atomic::{AtomicU64, Ordering};
    let (d, m) = d1();
    let flag = Cancel::new();
    let with = |precision: Option<f64>| RunConfig {
        cancel: flag.clone(),
        precision,
        ..cfg(10_000 * CHUNK_TRIALS, 2)
    };
    let done = AtomicU64::new(0);
    for precision in [None, Some(1e-6)] {
        done.store(0, Ordering::SeqCst);
        let r = run_duels(&d, &m, &with(precision), &|n| {
            done.fetch_add(n, Ordering::SeqCst);
            flag.cancel();
        });
        assert!(matches!(r, Err(SimError::Cancelled)), "{r:?}");
        // Stopped within a wave: far fewer trials than asked for.
        assert!(done.load(Ordering::SeqCst) < 2_000 * CHUNK_TRIALS);
    }
    let r = run_duels(&d, &m, &with(None), &|_| {});
    assert!(matches!(r, Err(SimError::Cancelled)), "{r:?}");
    // An unraised flag (a fresh one) changes nothing.
    let plain = run_duels(&d, &m, &cfg(3 * CHUNK_TRIALS, 2), &|_| {}).unwrap();
    let fresh = RunConfig {
        cancel: Cancel::new(),
        ..cfg(3 * CHUNK_TRIALS, 2)
    };
    assert_eq!(plain, run_duels(&d, &m, &fresh, &|_| {}).unwrap());
}

/// A d20 fighter against three goblins (a band): the group's per-member counts are on the
/// same duels as the duel figures, bit-identical over thread counts and shard splits.
#[test]
fn group_counts_are_deterministic_over_threads_and_shards() {
    use oddsmith_rules::d20::{D20, D20Options, FighterSpec as D20Spec};
    use oddsmith_sim::{Shard, Units, merge_shards};
    let r = D20::new(D20Options::default()).unwrap();
    let f: D20Spec = toml::from_str(
        "species = \"human\"\nclass = \"fighter\"\nlevel = 2\nstr = 16\ndex = 13\ncon = 14\nweapon = \"long sword\"\narmor = \"chain mail\"\nshield = \"medium shield\"\n",
    )
    .unwrap();
    let g: D20Spec = toml::from_str(
        "species = \"goblin\"\nweapon = \"short sword\"\narmor = \"leather\"\nshield = \"small shield\"\ncount = 3\n",
    )
    .unwrap();
    let m = r
        .matchup(&r.compile("f", &f).unwrap(), &r.compile("g", &g).unwrap())
        .unwrap();
    let trials = 2 * CHUNK_TRIALS + 321;
    let one = run_duels(&r, &m, &cfg(trials, 1), &|_| {}).unwrap();
    let two = run_duels(&r, &m, &cfg(trials, 2), &|_| {}).unwrap();
    assert_eq!(one, two);
    let gs = one.group.as_ref().expect("a group fight counts per member");
    assert_eq!(gs.trials(), trials);
    assert_eq!(gs.sides[1].counts, vec![3]);
    // The side's members' damage is the side's; A wins iff all three goblins are down.
    assert_eq!(
        gs.sides[0].members[0].dealt,
        (0..=one.damage[0].max().unwrap())
            .map(|v| v * one.damage[0].count(v))
            .sum::<u64>()
    );
    assert_eq!(gs.sides[1].down[3], one.outcomes.a_wins);
    let shards: Vec<_> = (1..=3)
        .map(|k| {
            let c = RunConfig {
                units: Units::shard(Shard::new(k, 3).unwrap()),
                ..cfg(trials, 2)
            };
            run_duels(&r, &m, &c, &|_| {}).unwrap();
            c.units.finish().unwrap()
        })
        .collect();
    let merged = merge_shards(shards).unwrap();
    let c = RunConfig {
        units: Units::merged(merged),
        ..cfg(trials, 2)
    };
    assert_eq!(run_duels(&r, &m, &c, &|_| {}).unwrap(), one);
}
