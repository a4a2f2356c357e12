//! The open-rpg digest's reference duel R1 (Alda against Bram, `scenarios/openrpg/
//! reference-duel.toml`): duels per second through the engine at 1 and 2 threads, the bare duel
//! loop, and the exact solution.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use oddsmith_dice::stream;
use oddsmith_rules::openrpg::OpenRpg;
use oddsmith_rules::{RngRoller, Ruleset};
use oddsmith_sim::{RunConfig, run_duels};

const TRIALS: u64 = 1_000_000;

fn r1(c: &mut Criterion) {
    let s = oddsmith_scenario::load::<OpenRpg>(
        "reference-duel.toml",
        include_str!("../../scenarios/openrpg/reference-duel.toml"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (rules, m) = (s.ruleset, s.matchups[0].matchup.clone());
    let mut g = c.benchmark_group("openrpg_r1");
    g.throughput(Throughput::Elements(TRIALS));
    g.sample_size(10);
    for threads in [1, 2] {
        let cfg = RunConfig {
            seed: 1,
            trials: TRIALS,
            precision: None,
            threads: Some(threads),
        };
        g.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| black_box(run_duels(&rules, &m, &cfg, &|_| {}).expect("valid config")))
        });
    }
    g.throughput(Throughput::Elements(1));
    let mut rng = stream(1, 0);
    let mut roller = RngRoller::new(&mut rng);
    g.bench_function("one_duel", |b| {
        b.iter(|| black_box(rules.duel(&m, &mut roller)))
    });
    g.bench_function("exact", |b| b.iter(|| black_box(rules.exact(&m))));
    g.finish();
}

criterion_group!(benches, r1);
