//! Duels per second for each ruleset's reference duel, through the engine at 1 and 2 threads,
//! and the bare duel loop on one stream (and openrpg's exact solution).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use oddsmith_benches::{
    cards_band, cards_group, cards_reference, cards_teams, d20_group, d20_party, d20_party6,
    d20_reference, draft_d1, gamecraft_d1, openrpg_r1, pool,
};
use oddsmith_dice::stream;
use oddsmith_rules::{RngRoller, Ruleset};
use oddsmith_sim::{RunConfig, run_duels};

/// Duels per engine iteration: 100 chunks of `oddsmith_sim::CHUNK_TRIALS`, so that two
/// threads share them evenly (cards ran 100,000, 10 chunks, until 2026-11-27: a 6/4 split
/// left a thread idle for a tenth of the run).
const TRIALS: u64 = 1_000_000;

fn bench<R: Ruleset>(c: &mut Criterion, group: &str, trials: u64, (rules, m): &(R, R::Matchup)) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(trials));
    g.sample_size(10);
    for threads in [1, 2] {
        // On a pool of `threads` built once, as `oddsmith run --threads N` runs its matchups.
        let pool = pool(threads);
        let cfg = RunConfig {
            seed: 1,
            trials,
            precision: None,
            threads: None,
            units: Default::default(),
            cancel: Default::default(),
        };
        g.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| {
                pool.install(|| {
                    black_box(run_duels(rules, m, &cfg, &|_| {}).expect("valid config"))
                })
            })
        });
    }
    g.throughput(Throughput::Elements(1));
    let mut rng = stream(1, 0);
    let mut roller = RngRoller::new(&mut rng);
    g.bench_function("one_duel", |b| {
        b.iter(|| black_box(rules.duel(m, &mut roller)))
    });
    g.finish();
}

fn draft(c: &mut Criterion) {
    bench(c, "draft_d1", TRIALS, &draft_d1());
}

fn gamecraft(c: &mut Criterion) {
    bench(c, "gamecraft_d1", TRIALS, &gamecraft_d1());
}

fn d20(c: &mut Criterion) {
    bench(c, "d20_reference", TRIALS, &d20_reference());
    bench(c, "d20_group", TRIALS, &d20_group());
    bench(c, "d20_party", TRIALS, &d20_party());
    bench(c, "d20_party6", TRIALS, &d20_party6());
}

fn openrpg(c: &mut Criterion) {
    let r1 = openrpg_r1();
    bench(c, "openrpg_r1", TRIALS, &r1);
    let (rules, m) = &r1;
    c.benchmark_group("openrpg_r1")
        .bench_function("exact", |b| b.iter(|| black_box(rules.exact(m))));
}

fn cards(c: &mut Criterion) {
    bench(c, "cards_reference", TRIALS, &cards_reference());
    bench(c, "cards_group", TRIALS, &cards_group());
    bench(c, "cards_band", TRIALS, &cards_band());
    bench(c, "cards_teams", TRIALS, &cards_teams());
}

criterion_group!(benches, draft, gamecraft, d20, openrpg, cards);
