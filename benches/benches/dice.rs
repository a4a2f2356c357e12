//! Raw generator and dice throughput: the RNG-bound limit every duel is measured against.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
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

criterion_group!(benches, dice);
