//! Duels per second for the reference duel D1, through the engine at 1 and 2 threads, and the
//! bare duel loop on one stream.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use oddsmith_benches::d1;
use oddsmith_dice::stream;
use oddsmith_rules::{RngRoller, Ruleset};
use oddsmith_sim::{RunConfig, run_duels};

const TRIALS: u64 = 1_000_000;

fn engine(c: &mut Criterion) {
    let (d, m) = d1();
    let mut g = c.benchmark_group("d1_engine");
    g.throughput(Throughput::Elements(TRIALS));
    g.sample_size(20);
    for threads in [1, 2] {
        let cfg = RunConfig {
            seed: 1,
            trials: TRIALS,
            precision: None,
            threads: Some(threads),
        };
        g.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| black_box(run_duels(&d, &m, &cfg, &|_| {}).expect("valid config")))
        });
    }
    g.finish();
}

fn bare_loop(c: &mut Criterion) {
    let (d, m) = d1();
    let mut g = c.benchmark_group("d1_duel");
    g.throughput(Throughput::Elements(1));
    let mut rng = stream(1, 0);
    let mut roller = RngRoller::new(&mut rng);
    g.bench_function("one_duel", |b| {
        b.iter(|| black_box(d.duel(&m, &mut roller)))
    });
    g.finish();
}

criterion_group!(benches, engine, bare_loop);
