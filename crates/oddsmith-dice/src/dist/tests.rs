use super::*;
use proptest::prelude::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

#[test]
fn two_d10() {
    let d = Dist::die(10).sum_iid(2).unwrap();
    assert_eq!(d.ratio(11), (1, 10));
    assert_eq!(d.total(), 100);
    assert_eq!((d.min(), d.max()), (2, 20));
    assert_eq!(d.ratio(2), (1, 100));
    assert_eq!(d.ratio(1), (0, 1));
}

#[test]
fn three_d6() {
    let d = Dist::die(6).sum_iid(3).unwrap();
    assert_eq!(d.weight(10), 27);
    assert_eq!(d.total(), 216);
    assert_eq!(d.ratio(10), (1, 8));
    assert!(close(d.p(10), 27.0 / 216.0));
    assert!(close(d.mean(), 10.5));
    assert!(close(d.variance(), 3.0 * 35.0 / 12.0));
}

#[test]
fn d10_moments() {
    let d = Dist::die(10);
    assert!(close(d.mean(), 11.0 / 2.0));
    assert!(close(d.variance(), 33.0 / 4.0));
}

#[test]
fn advantage_d20() {
    let d20 = Dist::die(20);
    let adv = d20.max_of(&d20).unwrap();
    assert_eq!(adv.ratio(20), (39, 400));
    assert_eq!(adv.ratio(1), (1, 400));
    assert_eq!(adv.total(), 400);
    let dis = d20.min_of(&d20).unwrap();
    assert_eq!(dis.ratio(1), (39, 400));
    assert_eq!(dis.ratio(20), (1, 400));
    assert_eq!(dis, adv.map(|x| 21 - x));
}

#[test]
fn exploding_d6_once() {
    let d = Dist::exploding(6, 1).unwrap();
    for k in 1..=5 {
        assert_eq!(d.ratio(k), (1, 6), "P({k})");
    }
    assert_eq!(d.ratio(6), (0, 1));
    for k in 7..=12 {
        assert_eq!(d.ratio(k), (1, 36), "P({k})");
    }
    assert_eq!((d.min(), d.max()), (1, 12));
    assert_eq!(Dist::exploding(6, 0).unwrap(), Dist::die(6));
    assert_eq!(Dist::exploding(1, 3).unwrap(), Dist::constant(4));
    assert_eq!(
        Dist::exploding(0, 3),
        Err(DiceError::InvalidSides { sides: 0 })
    );
}

#[test]
fn exploding_mean_approaches_unlimited() {
    // Limited to k explosions: mean = 3.5 · (1 - 6^-(k+1)) / (1 - 1/6).
    let d = Dist::exploding(6, 20).unwrap();
    let exact = 3.5 * (1.0 - 6f64.powi(-21)) / (5.0 / 6.0);
    assert!(close(d.mean(), exact));
    assert!((d.mean() - 4.2).abs() < 1e-12);
    assert_eq!(Dist::exploding(6, 100), Err(DiceError::Overflow));
}

#[test]
fn constructors_and_queries() {
    let c = Dist::constant(-3);
    assert_eq!((c.min(), c.max(), c.total()), (-3, -3, 1));
    assert_eq!(c.p(-3), 1.0);
    let u = Dist::uniform(-2, 2);
    assert_eq!(
        u.iter().collect::<Vec<_>>(),
        [(-2, 1), (-1, 1), (0, 1), (1, 1), (2, 1)]
    );
    assert_eq!(u.ratio_at_least(1), (2, 5));
    assert_eq!(u.ratio_at_most(-2), (1, 5));
    assert!(close(u.p_at_least(-2), 1.0));
    assert!(close(u.p_at_most(0), 0.6));
    assert_eq!(u.ratio_at_least(i64::MIN), (1, 1));
    assert_eq!(u.ratio_at_most(i64::MAX), (1, 1));
    assert_eq!(u.ratio_at_least(3), (0, 1));

    let w = Dist::from_weights([(5, 2), (1, 4), (5, 2), (3, 0)]).unwrap();
    // Weights 4 and 4 have the common factor 4: stored reduced.
    assert_eq!(w.iter().collect::<Vec<_>>(), [(1, 1), (5, 1)]);
    assert_eq!(w.total(), 2);
    assert_eq!(w.to_f64_pairs(), [(1, 0.5), (5, 0.5)]);
    assert_eq!(Dist::from_weights([]), Err(DiceError::Empty));
    assert_eq!(Dist::from_weights([(1, 0)]), Err(DiceError::Empty));
    assert_eq!(
        Dist::from_weights([(1, u128::MAX), (2, 1)]),
        Err(DiceError::Overflow)
    );
    assert!(matches!(
        Dist::from_weights([(i64::MIN, 1), (i64::MAX, 1)]),
        Err(DiceError::TooWide { .. })
    ));
}

#[test]
fn transforms() {
    let d6 = Dist::die(6);
    assert_eq!(d6.shift(-1), Dist::uniform(0, 5));
    assert_eq!(d6.negate(), Dist::uniform(-6, -1));
    assert_eq!(d6.scale(0), Dist::constant(0));
    let doubled = d6.scale(-2);
    assert_eq!((doubled.min(), doubled.max()), (-12, -2));
    assert_eq!(doubled.ratio(-4), (1, 6));
    assert_eq!(doubled.ratio(-3), (0, 1));
    assert_eq!(d6.map(|x| x % 2), Dist::uniform(0, 1));
    assert_eq!(d6.map(|_| 7), Dist::constant(7));
    assert_eq!(
        Dist::constant(i64::MAX).checked_shift(1),
        Err(DiceError::Overflow)
    );
    assert_eq!(d6.sum_iid(0).unwrap(), Dist::constant(0));
    assert_eq!(d6.sum_iid(1).unwrap(), d6);
}

#[test]
fn overflow_is_reported() {
    let d = Dist::die(1_000_000);
    assert_eq!(d.sum_iid(7), Err(DiceError::Overflow));
    let big = d.sum_iid(6).unwrap();
    assert_eq!(big.convolve(&d), Err(DiceError::Overflow));
    assert_eq!(big.max_of(&d.sum_iid(2).unwrap()), Err(DiceError::Overflow));
}

#[test]
fn large_flat_sum_is_fast_and_exact() {
    // 5d1000000 uses the sliding-window path; the weights are symmetric.
    let d = Dist::die(1_000_000).sum_iid(5).unwrap();
    assert_eq!((d.min(), d.max()), (5, 5_000_000));
    assert_eq!(d.weight(6), 5);
    assert_eq!(d.weight(6), d.weight(4_999_999));
    assert!(close(d.mean(), 5.0 * 500_000.5));
}

#[test]
fn gcd_works() {
    assert_eq!(gcd(0, 0), 0);
    assert_eq!(gcd(0, 7), 7);
    assert_eq!(gcd(12, 18), 6);
    assert_eq!(gcd(u128::MAX, 3), 3);
    assert_eq!(gcd(1 << 100, 1 << 90), 1 << 90);
}

/// Direct O(n·m) convolution through `from_weights`, the reference.
fn naive_convolve(a: &Dist, b: &Dist) -> Dist {
    let pairs: Vec<_> = a
        .iter()
        .flat_map(|(x, v)| b.iter().map(move |(y, w)| (x + y, v * w)))
        .collect();
    Dist::from_weights(pairs).unwrap()
}

fn small_dist() -> impl Strategy<Value = Dist> {
    prop::collection::vec((-20i64..20, 0u128..1000), 1..10)
        .prop_filter_map("all weights zero", |pairs| Dist::from_weights(pairs).ok())
}

proptest! {
    #[test]
    fn convolve_commutes_and_totals_multiply(a in small_dist(), b in small_dist()) {
        let ab = a.convolve(&b).unwrap();
        prop_assert_eq!(&ab, &b.convolve(&a).unwrap());
        prop_assert_eq!(ab.total(), a.total() * b.total());
        prop_assert_eq!(&ab, &naive_convolve(&a, &b));
        prop_assert_eq!((ab.min(), ab.max()), (a.min() + b.min(), a.max() + b.max()));
    }

    #[test]
    fn convolve_adds_means_and_variances(a in small_dist(), b in small_dist()) {
        let ab = a.convolve(&b).unwrap();
        prop_assert!((ab.mean() - (a.mean() + b.mean())).abs() < 1e-9);
        prop_assert!((ab.variance() - (a.variance() + b.variance())).abs() < 1e-9);
    }

    #[test]
    fn sum_iid_matches_repeated_convolution(a in small_dist(), n in 0u32..6) {
        let mut expected = Dist::constant(0);
        for _ in 0..n {
            expected = expected.convolve(&a).unwrap();
        }
        prop_assert_eq!(a.sum_iid(n).unwrap(), expected);
    }

    #[test]
    fn max_and_min_match_brute_force(a in small_dist(), b in small_dist()) {
        let pairs = |f: fn(i64, i64) -> i64| -> Vec<(i64, u128)> {
            a.iter().flat_map(|(x, v)| b.iter().map(move |(y, w)| (f(x, y), v * w))).collect()
        };
        prop_assert_eq!(a.max_of(&b).unwrap(), Dist::from_weights(pairs(i64::max)).unwrap());
        prop_assert_eq!(a.min_of(&b).unwrap(), Dist::from_weights(pairs(i64::min)).unwrap());
    }

    #[test]
    fn flat_path_matches_naive(a in small_dist(), lo in -5i64..5, len in 9i64..30) {
        let u = Dist::uniform(lo, lo + len - 1);
        prop_assert_eq!(a.convolve(&u).unwrap(), naive_convolve(&a, &u));
        prop_assert_eq!(u.convolve(&a).unwrap(), naive_convolve(&a, &u));
    }

    #[test]
    fn probabilities_sum_to_one(a in small_dist(), k in -25i64..25) {
        let total: f64 = a.to_f64_pairs().iter().map(|&(_, p)| p).sum();
        prop_assert!((total - 1.0).abs() < 1e-12);
        prop_assert!((a.p_at_least(k) + a.p_at_most(k - 1) - 1.0).abs() < 1e-12);
        let (n, d) = a.ratio(k);
        prop_assert_eq!(gcd(n, d), 1);
        prop_assert_eq!(n * a.total(), a.weight(k) * d);
    }
}
