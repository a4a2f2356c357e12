//! Raw dice throughput.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use oddsmith_dice::{Die, stream};

fn d10(c: &mut Criterion) {
    let mut g = c.benchmark_group("dice");
    g.throughput(Throughput::Elements(1000));
    let die = Die::new(10);
    let mut rng = stream(1, 0);
    g.bench_function("d10_x1000", |b| {
        b.iter(|| {
            let mut s = 0u32;
            for _ in 0..1000 {
                s += die.roll(&mut rng);
            }
            black_box(s)
        })
    });
    g.finish();
}

criterion_group!(benches, d10);
