//! criterion benchmarks: `cargo bench -p oddsmith-benches`.

use criterion::criterion_main;

mod dice;
mod duel;

criterion_main!(duel::benches, dice::benches);
