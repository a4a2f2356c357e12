//! Confidence intervals for proportions and means.
//!
//! Conventions: `conf` is a two-sided confidence level in `(0, 1)` (e.g.
//! `0.95`); `z` is a positive two-sided critical value of the standard normal
//! (e.g. [`Z95`]). Proportion intervals take `successes <= n` and return
//! `(lo, hi)` within `[0, 1]`; with `n == 0` they return `(0, 1)`.

use statrs::distribution::{Beta, ContinuousCDF, Normal};

/// Two-sided 95 % critical value of the standard normal, `Φ⁻¹(0.975)`.
pub const Z95: f64 = 1.959963984540054;

/// Asserts that `conf` is a valid two-sided confidence level.
fn check_conf(conf: f64) {
    assert!(
        conf > 0.0 && conf < 1.0,
        "confidence level must be in (0, 1), got {conf}"
    );
}

/// Asserts `successes <= n`.
fn check_counts(successes: u64, n: u64) {
    assert!(successes <= n, "successes ({successes}) > trials ({n})");
}

/// Two-sided critical value `z = Φ⁻¹(1 − (1 − conf)/2)` for confidence level
/// `conf` (`0.95 → 1.959963984540054`).
///
/// # Panics
/// If `conf` is not in `(0, 1)`.
#[must_use]
pub fn z_for_confidence(conf: f64) -> f64 {
    check_conf(conf);
    let alpha = 1.0 - conf;
    // Evaluate in the lower tail: more accurate than Φ⁻¹ of a value near 1.
    -Normal::standard().inverse_cdf(alpha / 2.0)
}

/// Wilson score interval for `successes` out of `n` with critical value `z`.
///
/// `(x + z²/2 ∓ z·sqrt(x(n−x)/n + z²/4)) / (n + z²)`, clamped to `[0, 1]`;
/// exactly `0` at `x = 0` and `1` at `x = n`; `(0, 1)` when `n == 0`.
///
/// # Panics
/// If `successes > n`.
#[must_use]
pub fn wilson(successes: u64, n: u64, z: f64) -> (f64, f64) {
    check_counts(successes, n);
    if n == 0 {
        return (0.0, 1.0);
    }
    let x = successes as f64;
    let nf = n as f64;
    let z2 = z * z;
    let center = x + z2 / 2.0;
    let spread = z * (x * (nf - x) / nf + z2 / 4.0).sqrt();
    let denom = nf + z2;
    let lo = if successes == 0 {
        0.0
    } else {
        ((center - spread) / denom).clamp(0.0, 1.0)
    };
    let hi = if successes == n {
        1.0
    } else {
        ((center + spread) / denom).clamp(0.0, 1.0)
    };
    (lo, hi)
}

/// 95 % Wilson score interval, `wilson(successes, n, Z95)`.
///
/// # Panics
/// If `successes > n`.
#[must_use]
pub fn wilson95(successes: u64, n: u64) -> (f64, f64) {
    wilson(successes, n, Z95)
}

/// Half the width of the Wilson interval, `(hi − lo) / 2` (0.5 when `n == 0`).
///
/// # Panics
/// If `successes > n`.
#[must_use]
pub fn wilson_half_width(successes: u64, n: u64, z: f64) -> f64 {
    let (lo, hi) = wilson(successes, n, z);
    (hi - lo) / 2.0
}

/// Clopper–Pearson "exact" interval at confidence `conf`.
///
/// `lo = B⁻¹(α/2; x, n−x+1)` (0 when `x = 0`) and
/// `hi = B⁻¹(1−α/2; x+1, n−x)` (1 when `x = n`), with `α = 1 − conf` and `B⁻¹`
/// the Beta quantile function; `(0, 1)` when `n == 0`.
///
/// # Panics
/// If `successes > n` or `conf` is not in `(0, 1)`.
#[must_use]
pub fn clopper_pearson(successes: u64, n: u64, conf: f64) -> (f64, f64) {
    check_counts(successes, n);
    check_conf(conf);
    if n == 0 {
        return (0.0, 1.0);
    }
    let alpha = 1.0 - conf;
    let x = successes as f64;
    let nf = n as f64;
    let beta_quantile = |a: f64, b: f64, p: f64| {
        Beta::new(a, b)
            .expect("Beta shape parameters are positive")
            .inverse_cdf(p)
            .clamp(0.0, 1.0)
    };
    let lo = if successes == 0 {
        0.0
    } else {
        beta_quantile(x, nf - x + 1.0, alpha / 2.0)
    };
    let hi = if successes == n {
        1.0
    } else {
        beta_quantile(x + 1.0, nf - x, 1.0 - alpha / 2.0)
    };
    (lo, hi)
}

/// Normal-approximation interval `mean ± z·se`.
#[must_use]
pub fn normal_interval(mean: f64, se: f64, z: f64) -> (f64, f64) {
    (mean - z * se, mean + z * se)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A `(lo, hi)` pair.
    type Interval = (f64, f64);

    /// Published values are rounded to 4 decimals.
    const TOL: f64 = 6e-5;

    /// Newcombe, R. G. (1998). "Two-sided confidence intervals for the single
    /// proportion: comparison of seven methods." Statistics in Medicine 17,
    /// 857–872, Table I: (x, n, Wilson score lo/hi (method 3), Clopper–Pearson
    /// "exact" lo/hi (method 5)), all at 95 %.
    const NEWCOMBE: [(u64, u64, Interval, Interval); 4] = [
        (81, 263, (0.2553, 0.3662), (0.2527, 0.3676)),
        (15, 148, (0.0624, 0.1605), (0.0578, 0.1617)),
        (0, 20, (0.0000, 0.1611), (0.0000, 0.1684)),
        (1, 29, (0.0061, 0.1718), (0.0009, 0.1776)),
    ];

    fn assert_close(got: (f64, f64), want: (f64, f64), what: &str) {
        assert!(
            (got.0 - want.0).abs() <= TOL && (got.1 - want.1).abs() <= TOL,
            "{what}: got {got:?}, want {want:?}"
        );
    }

    #[test]
    fn z95_constant() {
        assert!((z_for_confidence(0.95) - Z95).abs() < 1e-13);
        // Standard table values.
        assert!((z_for_confidence(0.90) - 1.6448536269514722).abs() < 1e-12);
        assert!((z_for_confidence(0.99) - 2.5758293035489004).abs() < 1e-12);
    }

    #[test]
    #[should_panic(expected = "confidence level")]
    fn z_rejects_bad_confidence() {
        let _ = z_for_confidence(1.0);
    }

    #[test]
    fn wilson_matches_newcombe_table_1() {
        for (x, n, w, _) in NEWCOMBE {
            assert_close(wilson95(x, n), w, &format!("wilson {x}/{n}"));
        }
    }

    #[test]
    fn clopper_pearson_matches_newcombe_table_1() {
        for (x, n, _, cp) in NEWCOMBE {
            assert_close(clopper_pearson(x, n, 0.95), cp, &format!("CP {x}/{n}"));
        }
    }

    #[test]
    fn clopper_pearson_is_wider_and_contains_estimates() {
        for (x, n, _, _) in NEWCOMBE {
            let (wl, wh) = wilson95(x, n);
            let (cl, ch) = clopper_pearson(x, n, 0.95);
            let p = x as f64 / n as f64;
            let wilson_mid = (wl + wh) / 2.0;
            assert!(wl <= p && p <= wh, "{x}/{n}: Wilson must contain p̂");
            assert!(cl <= p && p <= ch, "{x}/{n}: CP must contain p̂");
            assert!(
                cl <= wilson_mid && wilson_mid <= ch,
                "{x}/{n}: CP must contain Wilson centre"
            );
            assert!(ch - cl > wh - wl, "{x}/{n}: CP must be wider than Wilson");
            assert!(cl <= wl && wh <= ch, "{x}/{n}: CP must enclose Wilson here");
        }
    }

    #[test]
    fn edge_cases() {
        assert_eq!(wilson95(0, 0), (0.0, 1.0));
        assert_eq!(clopper_pearson(0, 0, 0.95), (0.0, 1.0));
        assert_eq!(wilson_half_width(0, 0, Z95), 0.5);
        assert_eq!(wilson95(0, 10).0, 0.0);
        assert_eq!(wilson95(10, 10).1, 1.0);
        // Symmetry: interval for n−x is the mirror image of the one for x.
        let (a, b) = wilson95(3, 17);
        let (c, d) = wilson95(14, 17);
        assert!((a - (1.0 - d)).abs() < 1e-12 && (b - (1.0 - c)).abs() < 1e-12);
        let (a, b) = clopper_pearson(3, 17, 0.9);
        let (c, d) = clopper_pearson(14, 17, 0.9);
        assert!((a - (1.0 - d)).abs() < 1e-9 && (b - (1.0 - c)).abs() < 1e-9);
        // Closed form for x = n: lo = (α/2)^(1/n).
        let (lo, hi) = clopper_pearson(20, 20, 0.95);
        assert!((lo - 0.025f64.powf(1.0 / 20.0)).abs() < 1e-9);
        assert_eq!(hi, 1.0);
    }

    #[test]
    fn half_width_shrinks_with_n() {
        let w1 = wilson_half_width(50, 100, Z95);
        let w2 = wilson_half_width(5000, 10_000, Z95);
        assert!(w2 < w1 / 9.0);
        // Large n: close to the Wald half-width z·sqrt(p(1−p)/n).
        assert!((w2 - Z95 * (0.25f64 / 10_000.0).sqrt()).abs() < 1e-5);
    }

    #[test]
    fn normal_interval_is_symmetric() {
        assert_eq!(normal_interval(10.0, 2.0, 1.5), (7.0, 13.0));
    }

    #[test]
    #[should_panic(expected = "successes")]
    fn rejects_more_successes_than_trials() {
        let _ = wilson95(5, 4);
    }

    proptest! {
        #[test]
        fn intervals_bracket_point_estimate(n in 0u64..5000, frac in 0.0f64..=1.0) {
            let x = ((n as f64) * frac).floor() as u64;
            let p = if n == 0 { 0.0 } else { x as f64 / n as f64 };
            let (lo, hi) = wilson95(x, n);
            prop_assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0, "wilson {x}/{n}: {lo} {hi}");
            let (lo, hi) = clopper_pearson(x, n, 0.95);
            prop_assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0, "CP {x}/{n}: {lo} {hi}");
        }
    }
}
