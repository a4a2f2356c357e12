//! One reference duel, many times, on one stream and one thread: the workload to profile with
//! callgrind (instruction counts do not move with the machine's load).
//!
//! `cargo run --release -p oddsmith-benches --example profile -- RULESET [DUELS]` (RULESET one
//! of draft, gamecraft, d20, openrpg, cards; DUELS 200,000 unless given), e.g.
//! `valgrind --tool=callgrind target/release/examples/profile draft 200000`. It prints a
//! checksum of the outcomes (wins, draws, rounds, damage, hits), so a faster `step` can be
//! seen to give the very same duels for the same stream.
//!
//! `-- RULESET DUELS engine` runs the same number of duels through the engine instead
//! (`oddsmith_sim::run_duels` on one thread: chunks of 10,000 on their own streams, the
//! accumulators, the thread pool) and prints the number of duels A won: the difference in
//! instructions per duel from the plain loop is what a trial costs beyond `duel`;
//! `-- RULESET DUELS engine THREADS` on THREADS threads (1 unless given).
//!
//! Besides the five reference duels, `d20_party`, `cards_band` (the older references) and
//! `d20_party6`, `cards_teams` (as issue 39 gives them) are its group fights (timed beside `benches/peers/d20_party.py` at the same trial count).

use oddsmith_benches::{
    cards_band, cards_reference, cards_teams, d20_party, d20_party6, d20_reference, draft_d1,
    gamecraft_d1, openrpg_r1, outcome_checksum,
};
use oddsmith_rules::Ruleset;
use oddsmith_sim::{RunConfig, run_duels};

/// Runs `duels` duels of `m` on stream 0 of seed 1 and prints their checksum.
fn run<R: Ruleset>(name: &str, (rules, m): &(R, R::Matchup), duels: u64) {
    let (wins, sum) = outcome_checksum(rules, m, duels);
    println!(
        "{name}: {duels} duels, A {} B {} draw {}, checksum {sum:016x}",
        wins[0], wins[1], wins[2]
    );
}

/// Runs `duels` duels of `m` through the engine on `threads` threads and prints A's wins.
fn engine<R: Ruleset>(name: &str, (rules, m): &(R, R::Matchup), duels: u64, threads: usize) {
    if duels == 0 {
        println!("{name}: no duels");
        return;
    }
    let cfg = RunConfig {
        seed: 1,
        trials: duels,
        precision: None,
        threads: Some(threads),
        units: Default::default(),
        cancel: Default::default(),
    };
    let stats = run_duels(rules, m, &cfg, &|_| {}).expect("valid config");
    println!(
        "{name}: {duels} duels through the engine, A won {}",
        stats.outcomes.a_wins
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let ruleset = args.next().unwrap_or_else(|| "draft".into());
    let duels = args.next().map_or(200_000, |n| {
        n.replace('_', "").parse().expect("DUELS is a count")
    });
    let through_engine = args.next().is_some_and(|a| a == "engine");
    let threads = args
        .next()
        .map_or(1, |t| t.parse().expect("THREADS is a count"));
    macro_rules! go {
        ($name:expr, $fixture:expr) => {
            if through_engine {
                engine($name, &$fixture, duels, threads)
            } else {
                run($name, &$fixture, duels)
            }
        };
    }
    match ruleset.as_str() {
        "draft" => go!("draft_d1", draft_d1()),
        "gamecraft" => go!("gamecraft_d1", gamecraft_d1()),
        "d20" => go!("d20_reference", d20_reference()),
        "openrpg" => go!("openrpg_r1", openrpg_r1()),
        "cards" => go!("cards_reference", cards_reference()),
        "d20_party" => go!("d20_party", d20_party()),
        "cards_band" => go!("cards_band", cards_band()),
        "d20_party6" => go!("d20_party6", d20_party6()),
        "cards_teams" => go!("cards_teams", cards_teams()),
        other => panic!(
            "unknown ruleset {other:?} (draft, gamecraft, d20, openrpg, cards, d20_party, cards_band, d20_party6, cards_teams)"
        ),
    }
}
