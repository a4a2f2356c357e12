//! RNG draws per duel for each ruleset's reference duel: `cargo run --release -p
//! oddsmith-benches --example draws`. With the raw generator's throughput (the `dice/raw_u64_x1000`
//! bench), this gives each duel's RNG-bound limit in `benches/README.md`.

use oddsmith_benches::{cards_reference, d20_reference, draft_d1, gamecraft_d1, openrpg_r1};
use oddsmith_dice::{Stream, stream};
use oddsmith_rules::{RngRoller, Ruleset};
use rand_core::RngCore;

/// A stream that counts the 32- and 64-bit words it hands out (a copy counts on from where
/// it was copied: a fast path's local copy of the stream is written back when it ends).
#[derive(Clone)]
struct Counted {
    inner: Stream,
    words: u64,
}

impl RngCore for Counted {
    fn next_u32(&mut self) -> u32 {
        self.words += 1;
        self.inner.next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        self.words += 1;
        self.inner.next_u64()
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        self.words += dst.len().div_ceil(8) as u64;
        self.inner.fill_bytes(dst);
    }
}

const DUELS: u64 = 1_000_000;

fn draws<R: Ruleset>(name: &str, (rules, m): &(R, R::Matchup)) {
    let mut rng = Counted {
        inner: stream(1, 0),
        words: 0,
    };
    let mut roller = RngRoller::new(&mut rng);
    for _ in 0..DUELS {
        let _ = rules.duel(m, &mut roller);
    }
    println!(
        "{name}: {:.2} RNG words per duel",
        rng.words as f64 / DUELS as f64
    );
}

fn main() {
    draws("draft_d1", &draft_d1());
    draws("gamecraft_d1", &gamecraft_d1());
    draws("d20_reference", &d20_reference());
    draws("openrpg_r1", &openrpg_r1());
    draws("cards_reference", &cards_reference());
}
