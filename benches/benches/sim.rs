//! Engine workloads beyond a single duel: a check sampled in bulk, and a ten-point paired sweep.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use oddsmith_benches::{draft_d1, draft_skill_sweep, pool};
use oddsmith_rules::{CheckParams, Ruleset};
use oddsmith_sim::{RunConfig, run_check, run_paired};

/// `trials` on the pool the caller installs (`pool`, one per benchmark, as the CLI has one per
/// command).
fn cfg(trials: u64) -> RunConfig {
    RunConfig {
        seed: 1,
        trials,
        precision: None,
        threads: None,
        units: Default::default(),
        cancel: Default::default(),
    }
}

/// Draft's skill check at skill 6 (one d10 per sample), 1,000,000 samples per iteration.
fn check(c: &mut Criterion) {
    let (rules, _) = draft_d1();
    let check = rules
        .parse_check(&CheckParams::parse(["skill=6"]).expect("key=value"))
        .expect("a valid check");
    let mut g = c.benchmark_group("check_draft_skill");
    g.throughput(Throughput::Elements(1_000_000));
    g.sample_size(10);
    for threads in [1, 2] {
        let (cfg, pool) = (cfg(1_000_000), pool(threads));
        g.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| {
                pool.install(|| {
                    black_box(run_check(&rules, &check, 0, &cfg, &|_| {}).expect("valid"))
                })
            })
        });
    }
    g.finish();
}

/// A ten-point paired sweep of Draft D1 (skill 1–10 against skill 6), 100,000 trials per point:
/// throughput counts duels (1,000,000 per iteration).
fn sweep(c: &mut Criterion) {
    let (rules, ms) = draft_skill_sweep();
    let variants: Vec<_> = ms.iter().map(|m| (&rules, m)).collect();
    let mut g = c.benchmark_group("sweep_draft_10_points");
    g.throughput(Throughput::Elements(1_000_000));
    g.sample_size(10);
    for threads in [1, 2] {
        let (cfg, pool) = (cfg(100_000), pool(threads));
        g.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| {
                pool.install(|| black_box(run_paired(&variants, &cfg, &|_| {}).expect("valid")))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, check, sweep);
