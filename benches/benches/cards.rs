//! Duels per second for the cards reference duel (Devon vs the soldier, default options):
//! through the engine at 1 and 2 threads, and the bare duel loop on one stream.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use oddsmith_dice::stream;
use oddsmith_rules::cards::spec::{FighterSpec, Tactics, weapon};
use oddsmith_rules::cards::{Cards, CardsOptions};
use oddsmith_rules::fields::Entry;
use oddsmith_rules::{RngRoller, Ruleset};
use oddsmith_sim::{RunConfig, run_duels};

const TRIALS: u64 = 100_000;

fn fighter(skill: i32, combat_training: i32, armor_mod: i32) -> FighterSpec {
    let w = |name: &str| Entry {
        stats: weapon(name).expect("built in"),
        builtin: true,
    };
    FighterSpec {
        skill,
        weapon: w("sword"),
        off_hand: None,
        off_hand_skill: 0,
        backup: Some(w("dagger")),
        backup_skill: 2,
        fast_draw: 0,
        combat_training,
        brawling: 0,
        stealth: 0,
        finesse: 0,
        willpower: 0,
        vitality: 0,
        awareness: 0,
        armor_mod,
        protection: 0,
        npc: false,
        tactics: Tactics::default(),
    }
}

fn cards(c: &mut Criterion) {
    let rules = Cards::new(CardsOptions::default()).expect("default options");
    let a = rules.compile("devon", &fighter(3, 2, 0)).expect("valid");
    let b = rules.compile("soldier", &fighter(2, 0, -1)).expect("valid");
    let m = rules.matchup(&a, &b).expect("valid");
    let mut g = c.benchmark_group("cards_reference");
    g.throughput(Throughput::Elements(TRIALS));
    g.sample_size(10);
    for threads in [1, 2] {
        let cfg = RunConfig {
            seed: 1,
            trials: TRIALS,
            precision: None,
            threads: Some(threads),
        };
        g.bench_function(format!("threads_{threads}"), |bch| {
            bch.iter(|| black_box(run_duels(&rules, &m, &cfg, &|_| {}).expect("valid config")))
        });
    }
    g.throughput(Throughput::Elements(1));
    let mut rng = stream(1, 0);
    let mut roller = RngRoller::new(&mut rng);
    g.bench_function("one_duel", |bch| {
        bch.iter(|| black_box(rules.duel(&m, &mut roller)))
    });
    g.finish();
}

criterion_group!(benches, cards);
