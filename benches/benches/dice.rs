//! Raw generator and dice throughput: the RNG-bound limit every duel is measured against.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use oddsmith_benches::raw_words;
use oddsmith_dice::{Deck, Die, deck, stream};
use rand_core::RngCore;

/// Draws per iteration in every dice benchmark.
const N: u64 = 1000;

fn dice(c: &mut Criterion) {
    let mut g = c.benchmark_group("dice");
    g.throughput(Throughput::Elements(N));
    let mut rng = stream(1, 0);
    g.bench_function("raw_u64_x1000", |b| {
        b.iter(|| {
            let mut s = 0u64;
            for _ in 0..N {
                s = s.wrapping_add(rng.next_u64());
            }
            black_box(s)
        })
    });
    for sides in [10, 20] {
        let die = Die::new(sides);
        g.bench_function(format!("d{sides}_x1000"), |b| {
            b.iter(|| {
                let mut s = 0u32;
                for _ in 0..N {
                    s += die.roll(&mut rng);
                }
                black_box(s)
            })
        });
    }
    let d6 = Die::new(6);
    g.bench_function("exploding_d6_x1000", |b| {
        b.iter(|| {
            let mut s = 0i64;
            for _ in 0..N {
                s += d6.roll_exploding(&mut rng, None);
            }
            black_box(s)
        })
    });
    // The cards ruleset's default deck; reshuffled (all cards back) whenever it runs out.
    let mut d = Deck::new(&deck::d44(true)).expect("the D44 deck is valid");
    g.bench_function("deck_draw_x1000", |b| {
        b.iter(|| {
            let mut s = 0i64;
            for _ in 0..N {
                let card = match d.draw(&mut rng) {
                    Some(card) => card,
                    None => {
                        d.reset();
                        d.draw(&mut rng).expect("a full deck has cards")
                    }
                };
                s += i64::from(card.value);
            }
            black_box(s)
        })
    });
    g.finish();
}

/// Words each thread draws per iteration of the threaded raw-stream benchmark (a few
/// milliseconds, so starting the threads costs well under 1 %).
const WORDS_PER_THREAD: u64 = 4_000_000;

/// The raw stream on 1 and on 2 threads, each thread on its own stream: the speed-up the
/// machine itself gives a loop that only computes, beside which the duels' 2-thread speed-ups
/// are read (on a host that shares a core's execution units between its two CPUs, no
/// computing loop reaches 2×).
fn raw_threads(c: &mut Criterion) {
    let mut g = c.benchmark_group("dice/raw_u64_threads");
    for threads in [1u64, 2] {
        g.throughput(Throughput::Elements(WORDS_PER_THREAD * threads));
        g.bench_function(format!("{threads}"), |b| {
            b.iter(|| black_box(raw_words(threads, WORDS_PER_THREAD)))
        });
    }
    g.finish();
}

criterion_group!(benches, dice, raw_threads);
