//! End-to-end tests through the public API only.

use oddsmith_dice::{DiceExpr, Streams, no_vars};
use rand_core::RngCore;

/// Exact distribution vs Monte Carlo over several independent streams.
#[test]
fn exact_dist_agrees_with_monte_carlo() {
    let vars = |name: &str| (name == "str").then_some(2);
    for text in ["4d6+1d4-2", "3d6!2+str", "d20-str"] {
        let expr: DiceExpr = text.parse().unwrap();
        let dist = expr.dist(&vars).unwrap();
        const STREAMS: usize = 4;
        const PER_STREAM: u32 = 50_000;
        let mut sum = 0i64;
        let mut hits_at_least_mean = 0u32;
        let threshold = dist.mean().ceil() as i64;
        for mut rng in Streams::new(99).take(STREAMS) {
            for _ in 0..PER_STREAM {
                let x = expr.sample(&mut rng, &vars).unwrap();
                assert!((dist.min()..=dist.max()).contains(&x), "{text}: {x}");
                sum += x;
                hits_at_least_mean += u32::from(x >= threshold);
            }
        }
        let n = (STREAMS as u32 * PER_STREAM) as f64;
        let mean = sum as f64 / n;
        let se = (dist.variance() / n).sqrt();
        assert!(
            (mean - dist.mean()).abs() < 4.0 * se,
            "{text}: sample mean {mean}, exact {}",
            dist.mean()
        );
        let p = dist.p_at_least(threshold);
        let freq = f64::from(hits_at_least_mean) / n;
        assert!(
            (freq - p).abs() < 4.0 * (p * (1.0 - p) / n).sqrt(),
            "{text}: P(X >= {threshold}) {freq} vs exact {p}"
        );
    }
    assert!(DiceExpr::parse("2d6").unwrap().dist(&no_vars).is_ok());
}

#[test]
fn streams_of_one_seed_differ() {
    let firsts: Vec<u64> = Streams::new(2024)
        .take(5)
        .map(|mut s| s.next_u64())
        .collect();
    for i in 0..firsts.len() {
        for j in i + 1..firsts.len() {
            assert_ne!(firsts[i], firsts[j], "streams {i} and {j}");
        }
    }
    let mut third = Streams::starting_at(2024, 3).next().unwrap();
    assert_eq!(third.next_u64(), firsts[3]);
    assert_eq!(oddsmith_dice::stream(2024, 4).next_u64(), firsts[4]);
}
