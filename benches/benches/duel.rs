//! Duels per second for each ruleset's reference duel, through the engine at 1 and 2 threads,
//! and the bare duel loop on one stream.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use oddsmith_benches::{d20_reference, draft_d1, gamecraft_d1};
use oddsmith_dice::stream;
use oddsmith_rules::{RngRoller, Ruleset};
use oddsmith_sim::{RunConfig, run_duels};

const TRIALS: u64 = 1_000_000;

fn bench<R: Ruleset>(c: &mut Criterion, group: &str, (rules, m): (R, R::Matchup)) {
    let mut g = c.benchmark_group(group);
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
    g.finish();
}

fn draft(c: &mut Criterion) {
    bench(c, "draft_d1", draft_d1());
}

fn gamecraft(c: &mut Criterion) {
    bench(c, "gamecraft_d1", gamecraft_d1());
}

fn d20(c: &mut Criterion) {
    bench(c, "d20_reference", d20_reference());
}

criterion_group!(benches, draft, gamecraft, d20);
