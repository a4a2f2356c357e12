//! The raw Xoshiro256++ stream on THREADS threads, each on its own stream, for WORDS words
//! each: criterion's `dice/raw_u64_threads` loop (`oddsmith_benches::raw_words`) as one long
//! run that prints its rate, so a script can measure the RNG limit right beside a
//! whole-process run (`benches/whole.py`).
//!
//! `cargo run --release -p oddsmith-benches --example raw -- [THREADS] [WORDS]` (1 thread and
//! 400,000,000 words unless given) prints `M words/s` over all threads.

use std::time::Instant;

use oddsmith_benches::raw_words;

fn main() {
    let mut args = std::env::args().skip(1);
    let threads: u64 = args
        .next()
        .map_or(1, |a| a.parse().expect("THREADS is a count"));
    let words: u64 = args.next().map_or(400_000_000, |a| {
        a.replace('_', "").parse().expect("WORDS is a count")
    });
    let start = Instant::now();
    let sum = raw_words(threads, words);
    let secs = start.elapsed().as_secs_f64();
    std::hint::black_box(sum);
    println!("{:.1}", (words * threads) as f64 / secs / 1e6);
}
