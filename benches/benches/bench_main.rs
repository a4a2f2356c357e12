//! criterion benchmarks: `cargo bench -p oddsmith-benches`.

use criterion::criterion_main;

mod cards;
mod dice;
mod duel;
mod openrpg;

criterion_main!(duel::benches, dice::benches, openrpg::benches, cards::benches);
