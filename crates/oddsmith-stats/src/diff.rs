//! Differences of two proportions with 95 % intervals and two-sided tests.
//!
//! * [`diff_independent`]: `x₁/n₁ − x₂/n₂` from two independent samples (e.g. P(A wins)
//!   under two rulesets run with different seeds), with Newcombe's hybrid score interval and
//!   the pooled two-proportion z-test.
//! * [`diff_paired`]: the same difference when each trial yields both outcomes (e.g. the same
//!   dice tape replayed under two options), from the 2×2 concordance counts, with Newcombe's
//!   paired score interval and McNemar's test.
//!
//! Both intervals are built from [`wilson`](crate::wilson()) intervals of the two proportions
//! ("square and add"), so they stay inside `[−1, 1]`, are asymmetric near the boundaries, and
//! never have zero width.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

use crate::{Z95, wilson};

/// A difference of two proportions with its 95 % interval and a two-sided test of "no
/// difference".
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiffEstimate {
    /// Point estimate `p₁ − p₂`.
    pub diff: f64,
    /// Lower end of the 95 % interval.
    pub lo: f64,
    /// Upper end of the 95 % interval.
    pub hi: f64,
    /// Test statistic (standard normal under "no difference"; 0 when undefined).
    pub z: f64,
    /// Two-sided p-value `2·Φ(−|z|)`.
    pub p_value: f64,
}

impl DiffEstimate {
    /// Whether the 95 % interval excludes 0.
    #[must_use]
    pub fn excludes_zero(&self) -> bool {
        self.lo > 0.0 || self.hi < 0.0
    }
}

/// Invalid counts for a difference of proportions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DiffError {
    /// Sample `which` (1 or 2; 0 for a paired table) has no trials.
    #[error("sample {which} has no trials")]
    NoTrials {
        /// Which sample (1 or 2; 0 for the paired table).
        which: u8,
    },
    /// Sample `which` has more successes than trials.
    #[error("sample {which}: {successes} successes out of {trials} trials")]
    TooManySuccesses {
        /// Which sample (1 or 2).
        which: u8,
        /// Successes given.
        successes: u64,
        /// Trials given.
        trials: u64,
    },
}

/// Two-sided p-value `2·Φ(−|z|)`, computed in the lower tail (accurate for large `|z|`).
pub fn two_sided_p(z: f64) -> f64 {
    (2.0 * Normal::standard().cdf(-z.abs())).min(1.0)
}

fn check(which: u8, successes: u64, trials: u64) -> Result<(), DiffError> {
    if trials == 0 {
        return Err(DiffError::NoTrials { which });
    }
    if successes > trials {
        return Err(DiffError::TooManySuccesses {
            which,
            successes,
            trials,
        });
    }
    Ok(())
}

/// `x₁/n₁ − x₂/n₂` for two independent binomial samples.
///
/// Interval: Newcombe's hybrid score interval (method 10 of Newcombe 1998, *Statistics in
/// Medicine* 17, 873–890): with Wilson 95 % intervals `(l₁, u₁)` and `(l₂, u₂)`,
/// `lo = d − √((p₁−l₁)² + (u₂−p₂)²)` and `hi = d + √((u₁−p₁)² + (p₂−l₂)²)`.
///
/// Test: pooled two-proportion z-test, `z = d / √(p̄(1−p̄)(1/n₁ + 1/n₂))` with
/// `p̄ = (x₁+x₂)/(n₁+n₂)`; when `p̄` is 0 or 1 (no variation at all) `z = 0` and `p = 1`.
///
/// # Errors
/// [`DiffError`] if a sample has no trials or more successes than trials.
pub fn diff_independent(x1: u64, n1: u64, x2: u64, n2: u64) -> Result<DiffEstimate, DiffError> {
    check(1, x1, n1)?;
    check(2, x2, n2)?;
    let p1 = x1 as f64 / n1 as f64;
    let p2 = x2 as f64 / n2 as f64;
    let d = p1 - p2;
    let (l1, u1) = wilson(x1, n1, Z95);
    let (l2, u2) = wilson(x2, n2, Z95);
    let lo = d - (p1 - l1).hypot(u2 - p2);
    let hi = d + (u1 - p1).hypot(p2 - l2);
    let pooled = (x1 + x2) as f64 / (n1 + n2) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
    let z = if se > 0.0 { d / se } else { 0.0 };
    Ok(DiffEstimate {
        diff: d,
        lo: lo.max(-1.0),
        hi: hi.min(1.0),
        z,
        p_value: two_sided_p(z),
    })
}

/// `p₁ − p₂` for paired binary outcomes, from the concordance counts: `n11` trials where
/// both succeed, `n10` where only the first does, `n01` where only the second does, `n00`
/// where neither does. `p₁ = (n11+n10)/n`, `p₂ = (n11+n01)/n`, so `d = (n10−n01)/n`.
///
/// Interval: Newcombe's paired square-and-add score interval (method 10 of Newcombe 1998,
/// *Statistics in Medicine* 17, 2635–2650): the Wilson intervals of `p₁` and `p₂` combined
/// as in [`diff_independent`] but with the correlation term `−2φ*·(p₁−l₁)(u₂−p₂)` (and its
/// mirror for `hi`), where `φ*` is the phi coefficient of the table with Newcombe's
/// continuity correction (`n11·n00 − n10·n01` reduced by `n/2` when positive, 0 if that makes
/// it negative; `φ* = 0` if a margin is empty).
///
/// Test: McNemar's asymptotic test without continuity correction,
/// `z = (n10 − n01)/√(n10 + n01)` (`z = 0`, `p = 1` when there are no discordant pairs).
///
/// # Errors
/// [`DiffError::NoTrials`] (with `which = 0`) if all counts are 0.
pub fn diff_paired(n11: u64, n10: u64, n01: u64, n00: u64) -> Result<DiffEstimate, DiffError> {
    let n = n11 + n10 + n01 + n00;
    if n == 0 {
        return Err(DiffError::NoTrials { which: 0 });
    }
    let nf = n as f64;
    let (s1, s2) = (n11 + n10, n11 + n01);
    let p1 = s1 as f64 / nf;
    let p2 = s2 as f64 / nf;
    let d = (n10 as f64 - n01 as f64) / nf;
    let (l1, u1) = wilson(s1, n, Z95);
    let (l2, u2) = wilson(s2, n, Z95);
    let margins = [s1, n - s1, s2, n - s2];
    let phi = if margins.contains(&0) {
        0.0
    } else {
        let cross = (n11 as f64) * (n00 as f64) - (n10 as f64) * (n01 as f64);
        let corrected = if cross > nf / 2.0 {
            cross - nf / 2.0
        } else if cross >= 0.0 {
            0.0
        } else {
            cross
        };
        corrected / margins.iter().map(|&m| m as f64).product::<f64>().sqrt()
    };
    let spread = |a: f64, b: f64| (a * a + b * b - 2.0 * phi * a * b).max(0.0).sqrt();
    let lo = d - spread(p1 - l1, u2 - p2);
    let hi = d + spread(p2 - l2, u1 - p1);
    let discordant = n10 + n01;
    let z = if discordant == 0 {
        0.0
    } else {
        (n10 as f64 - n01 as f64) / (discordant as f64).sqrt()
    };
    Ok(DiffEstimate {
        diff: d,
        lo: lo.max(-1.0),
        hi: hi.min(1.0),
        z,
        p_value: two_sided_p(z),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published values are rounded to 4 decimals.
    const TOL: f64 = 6e-5;

    #[test]
    fn newcombe_1998_table_ii_method_10() {
        // (x1, n1, x2, n2, lo, hi): Newcombe (1998), Statistics in Medicine 17, 873–890,
        // Table II, method 10 (hybrid score).
        let cases = [
            (56, 70, 48, 80, 0.0524, 0.3339),
            (9, 10, 3, 10, 0.1705, 0.8090),
            (6, 7, 2, 7, 0.0582, 0.8062),
            (5, 56, 0, 29, -0.0381, 0.1926),
            (0, 10, 0, 20, -0.1611, 0.2775),
            (10, 10, 0, 20, 0.6791, 1.0000),
        ];
        for (x1, n1, x2, n2, lo, hi) in cases {
            let e = diff_independent(x1, n1, x2, n2).unwrap();
            assert!(
                (e.lo - lo).abs() < TOL && (e.hi - hi).abs() < TOL,
                "{x1}/{n1} − {x2}/{n2}: got ({}, {}), want ({lo}, {hi})",
                e.lo,
                e.hi
            );
        }
        let e = diff_independent(56, 70, 48, 80).unwrap();
        assert!((e.diff - 0.2).abs() < 1e-12);
    }

    #[test]
    fn pooled_z_test() {
        // 56/70 vs 48/80: p̄ = 104/150, se = √(p̄(1−p̄)(1/70 + 1/80)).
        let e = diff_independent(56, 70, 48, 80).unwrap();
        let pooled: f64 = 104.0 / 150.0;
        let se = (pooled * (1.0 - pooled) * (1.0 / 70.0 + 1.0 / 80.0)).sqrt();
        assert!((e.z - 0.2 / se).abs() < 1e-12);
        // z = 2.6502, two-sided p = erfc(z/√2) = 0.008045.
        assert!((e.z - 2.650_17).abs() < 1e-5, "{e:?}");
        assert!((e.p_value - 0.008_045_08).abs() < 1e-8, "{e:?}");
        assert!(e.excludes_zero());
        // Reference points of the standard normal.
        assert!(
            (two_sided_p(Z95) - 0.05).abs() < 1e-10,
            "{}",
            two_sided_p(Z95)
        );
        assert!((two_sided_p(-2.575_829_303_548_900_4) - 0.01).abs() < 1e-10);
        assert_eq!(two_sided_p(0.0), 1.0);
    }

    #[test]
    fn no_variation_and_symmetry() {
        let e = diff_independent(0, 10, 0, 20).unwrap();
        assert_eq!((e.diff, e.z, e.p_value), (0.0, 0.0, 1.0));
        assert!(!e.excludes_zero());
        let a = diff_independent(30, 100, 45, 90).unwrap();
        let b = diff_independent(45, 90, 30, 100).unwrap();
        assert!((a.lo + b.hi).abs() < 1e-15 && (a.hi + b.lo).abs() < 1e-15);
        assert!((a.z + b.z).abs() < 1e-15 && a.p_value == b.p_value);
    }

    #[test]
    fn bad_counts() {
        assert_eq!(
            diff_independent(1, 0, 0, 1),
            Err(DiffError::NoTrials { which: 1 })
        );
        assert_eq!(
            diff_independent(1, 2, 3, 2),
            Err(DiffError::TooManySuccesses {
                which: 2,
                successes: 3,
                trials: 2
            })
        );
        assert_eq!(
            diff_paired(0, 0, 0, 0),
            Err(DiffError::NoTrials { which: 0 })
        );
    }

    #[test]
    fn paired_published_example() {
        // Complete response before and after consolidation therapy (Cavo et al. 2012), as
        // analysed in Fagerland, Lydersen & Laake, "Statistical Analysis of Contingency
        // Tables" (2017), ch. 8: table [[59, 6], [16, 80]], estimate −0.0621, Newcombe
        // square-and-add 95 % CI −0.1186 to −0.0046; McNemar asymptotic z = −2.13, p = 0.033.
        let e = diff_paired(59, 6, 16, 80).unwrap();
        assert!((e.diff - (-10.0 / 161.0)).abs() < 1e-15);
        assert!((e.lo - -0.1186).abs() < TOL, "{e:?}");
        assert!((e.hi - -0.0046).abs() < TOL, "{e:?}");
        assert!((e.z - -10.0 / 22f64.sqrt()).abs() < 1e-12);
        assert!((e.p_value - 0.033).abs() < 5e-4, "{e:?}");
    }

    #[test]
    fn paired_is_narrower_than_independent_when_correlated() {
        // Strong positive correlation (few discordant pairs) narrows the interval.
        let paired = diff_paired(400, 30, 10, 560).unwrap();
        let indep = diff_independent(430, 1000, 410, 1000).unwrap();
        assert!((paired.diff - indep.diff).abs() < 1e-15);
        assert!(
            paired.hi - paired.lo < 0.6 * (indep.hi - indep.lo),
            "{paired:?} {indep:?}"
        );
        // No discordant pairs: difference 0, McNemar undefined ⇒ z = 0, p = 1.
        let e = diff_paired(5, 0, 0, 5).unwrap();
        assert_eq!((e.diff, e.z, e.p_value), (0.0, 0.0, 1.0));
        assert!(e.lo < 0.0 && e.hi > 0.0);
    }
}
