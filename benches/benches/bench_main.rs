//! criterion benchmarks: `cargo bench -p oddsmith-benches`.

use criterion::criterion_main;

mod dice;
mod duel;
mod sim;

criterion_main!(duel::benches, dice::benches, sim::benches);
