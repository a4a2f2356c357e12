use super::*;
use crate::stream::stream;

/// Pearson χ² statistic of `n` rolls of a `sides`-sided die against uniform.
fn chi_squared(sides: u32, n: u32, seed: u64) -> f64 {
    let mut rng = stream(seed, 0);
    let die = Die::new(sides);
    let mut counts = vec![0u64; sides as usize];
    for _ in 0..n {
        counts[die.roll(&mut rng) as usize - 1] += 1;
    }
    let expected = f64::from(n) / f64::from(sides);
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

#[test]
fn d10_chi_squared_goodness_of_fit() {
    // χ² critical value for 9 degrees of freedom at p = 0.001.
    const CRITICAL_DF9_P001: f64 = 27.877;
    let stat = chi_squared(10, 600_000, 2024);
    assert!(stat < CRITICAL_DF9_P001, "χ² = {stat}");
}

#[test]
fn d6_chi_squared_goodness_of_fit() {
    // χ² critical value for 5 degrees of freedom at p = 0.001.
    const CRITICAL_DF5_P001: f64 = 20.515;
    let stat = chi_squared(6, 600_000, 2024);
    assert!(stat < CRITICAL_DF5_P001, "χ² = {stat}");
}

#[test]
fn die_roll_matches_roll_and_uniform_below() {
    for sides in [1, 2, 3, 6, 7, 10, 20, 100, 1_000_000, u32::MAX] {
        let die = Die::new(sides);
        let (mut a, mut b, mut c) = (stream(9, 0), stream(9, 0), stream(9, 0));
        for _ in 0..2_000 {
            let x = die.roll(&mut a);
            assert_eq!(x, roll(&mut b, sides));
            assert_eq!(u64::from(x) - 1, uniform_below(&mut c, u64::from(sides)));
            assert!((1..=sides).contains(&x));
        }
    }
}

#[test]
fn uniform_below_rejects_in_biased_zone() {
    // With n = 2^63 + 1 almost half of all draws are rejected; results must stay in range
    // and both halves must appear.
    let n = (1u64 << 63) + 1;
    let mut rng = stream(1, 0);
    let draws: Vec<u64> = (0..1_000).map(|_| uniform_below(&mut rng, n)).collect();
    assert!(draws.iter().all(|&x| x < n));
    assert!(draws.iter().any(|&x| x < n / 2) && draws.iter().any(|&x| x >= n / 2));
    assert_eq!(uniform_below(&mut rng, 1), 0);
}

#[test]
fn exploding_d6_mean_is_4_2() {
    // Unlimited exploding d6: mean 7/2 · 6/5 = 4.2, variance 10.64.
    const N: u32 = 400_000;
    let mut rng = stream(77, 0);
    let sum: i64 = (0..N).map(|_| roll_exploding(&mut rng, 6, None)).sum();
    let mean = sum as f64 / f64::from(N);
    let sigma = (10.64 / f64::from(N)).sqrt();
    assert!((mean - 4.2).abs() < 4.0 * sigma, "mean {mean}");
}

#[test]
fn exploding_respects_limit() {
    let mut rng = stream(3, 0);
    for _ in 0..10_000 {
        let x = roll_exploding(&mut rng, 2, Some(2));
        assert!((1..=6).contains(&x), "{x}");
        assert_ne!(x, 2, "a 2 always explodes while explosions remain");
        assert_ne!(x, 4);
    }
    assert_eq!(roll_exploding(&mut rng, 1, Some(3)), 4);
    assert!((1..=6).contains(&roll_exploding(&mut rng, 6, Some(0))));
}

#[test]
#[should_panic(expected = "cannot explode")]
fn unlimited_d1_explosion_panics() {
    roll_exploding(&mut stream(0, 0), 1, None);
}
