//! Two-sample Kolmogorov–Smirnov test on integer-valued samples stored as histograms.
//!
//! Used to ask whether two distributions (fight lengths, damage) differ, e.g. the same
//! matchup under two rulesets. The statistic `D` is the largest gap between the two
//! empirical CDFs; the p-value uses the asymptotic Kolmogorov distribution with Stephens'
//! small-sample correction.
//!
//! **Discrete data:** the Kolmogorov distribution assumes continuous data. With integer
//! values (many ties) the true null distribution of `D` is stochastically smaller, so the
//! p-value reported here is *conservative* (too large): a small p-value is trustworthy, a
//! large one does not prove the distributions are equal.

use serde::{Deserialize, Serialize};

use crate::IntHistogram;

/// Result of [`ks_two_sample`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct KsTest {
    /// `D = max_v |F₁(v) − F₂(v)|`, the largest gap between the empirical CDFs (in `[0, 1]`).
    pub d: f64,
    /// Effective sample size `n₁·n₂ / (n₁ + n₂)`.
    pub n_eff: f64,
    /// Two-sided p-value `Q_KS((√nₑ + 0.12 + 0.11/√nₑ)·D)`; conservative for discrete data.
    pub p_value: f64,
}

/// Why a KS test could not be computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KsError {
    /// One of the samples has no values (`which` is 1 or 2).
    #[error("sample {which} is empty")]
    EmptySample {
        /// Which sample (1 or 2).
        which: u8,
    },
}

/// Two-sample Kolmogorov–Smirnov test of whether `a` and `b` come from the same
/// distribution.
///
/// `D` is computed exactly from integer counts (`|c₁·n₂ − c₂·n₁| / (n₁·n₂)` at every value),
/// so it does not depend on rounding or merge order. The p-value is
/// [`kolmogorov_q`]`((√nₑ + 0.12 + 0.11/√nₑ)·D)` with `nₑ = n₁n₂/(n₁+n₂)` (Stephens 1970, as
/// in Numerical Recipes); it is conservative for integer data (see the module docs).
///
/// # Errors
/// [`KsError::EmptySample`] if either histogram is empty.
pub fn ks_two_sample(a: &IntHistogram, b: &IntHistogram) -> Result<KsTest, KsError> {
    let n1 = u128::from(a.total());
    let n2 = u128::from(b.total());
    if n1 == 0 {
        return Err(KsError::EmptySample { which: 1 });
    }
    if n2 == 0 {
        return Err(KsError::EmptySample { which: 2 });
    }
    // Walk the union of values in increasing order with cumulative counts.
    let (mut ia, mut ib) = (a.iter().peekable(), b.iter().peekable());
    let (mut c1, mut c2) = (0u128, 0u128);
    let mut gap = 0u128;
    loop {
        let v = match (ia.peek(), ib.peek()) {
            (None, None) => break,
            (Some(&(x, _)), None) => x,
            (None, Some(&(y, _))) => y,
            (Some(&(x, _)), Some(&(y, _))) => x.min(y),
        };
        if let Some(&(x, c)) = ia.peek()
            && x == v
        {
            c1 += u128::from(c);
            ia.next();
        }
        if let Some(&(y, c)) = ib.peek()
            && y == v
        {
            c2 += u128::from(c);
            ib.next();
        }
        gap = gap.max((c1 * n2).abs_diff(c2 * n1));
    }
    let d = gap as f64 / (n1 * n2) as f64;
    let (n1, n2) = (n1 as f64, n2 as f64);
    let n_eff = n1 * n2 / (n1 + n2);
    let sq = n_eff.sqrt();
    let p_value = kolmogorov_q((sq + 0.12 + 0.11 / sq) * d);
    Ok(KsTest { d, n_eff, p_value })
}

/// Survival function of the Kolmogorov distribution,
/// `Q_KS(λ) = 2 Σ_{k≥1} (−1)^{k−1} e^{−2k²λ²}` (1 at `λ ≤ 0`).
///
/// Accurate to about 1e-15 for all `λ`: for small `λ`, where the alternating series converges
/// slowly, it uses the equivalent theta-function form
/// `1 − (√(2π)/λ) Σ_{k≥1} e^{−(2k−1)²π²/(8λ²)}`. Critical values: `Q_KS(1.3581) ≈ 0.05`,
/// `Q_KS(1.6276) ≈ 0.01`.
#[must_use]
pub fn kolmogorov_q(lambda: f64) -> f64 {
    if lambda.is_nan() {
        return f64::NAN;
    }
    if lambda <= 0.0 {
        return 1.0;
    }
    if lambda < 1.18 {
        // P(λ) = √(2π)/λ · Σ exp(−(2k−1)²π²/(8λ²)); a handful of terms suffice.
        let y = -std::f64::consts::PI.powi(2) / (8.0 * lambda * lambda);
        let sum: f64 = (1..=6)
            .map(|k: i32| {
                let m = f64::from(2 * k - 1);
                (m * m * y).exp()
            })
            .sum();
        let p = (2.0 * std::f64::consts::PI).sqrt() / lambda * sum;
        (1.0 - p).clamp(0.0, 1.0)
    } else {
        let x = -2.0 * lambda * lambda;
        let mut sum = 0.0;
        let mut sign = 1.0;
        for k in 1..=20i32 {
            let kf = f64::from(k);
            let term = (x * kf * kf).exp();
            sum += sign * term;
            if term < 1e-17 * sum.abs() {
                break;
            }
            sign = -sign;
        }
        (2.0 * sum).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist(pairs: &[(u64, u64)]) -> IntHistogram {
        let mut h = IntHistogram::new();
        for &(v, n) in pairs {
            h.record_n(v, n);
        }
        h
    }

    #[test]
    fn kolmogorov_known_values() {
        // Standard critical values of the Kolmogorov distribution.
        for (lambda, q) in [
            (1.2238, 0.10),
            (1.3581, 0.05),
            (1.4802, 0.025),
            (1.6276, 0.01),
            (1.9495, 0.001),
        ] {
            // The critical values are rounded to 4 decimals.
            assert!(
                (kolmogorov_q(lambda) - q).abs() < 3e-5,
                "Q({lambda}) = {} want {q}",
                kolmogorov_q(lambda)
            );
        }
        // Q(1.36) = 2(e^{−3.6992} − e^{−14.7968} + …) = 0.0494859…
        assert!((kolmogorov_q(1.36) - 0.049_485_9).abs() < 1e-7);
        assert!((kolmogorov_q(1.63) - 0.009_846_4).abs() < 1e-7);
        // K(1) = 1 − Q(1) = 0.7300003 (tabulated).
        assert!((kolmogorov_q(1.0) - 0.269_999_7).abs() < 1e-6);
        assert_eq!(kolmogorov_q(0.0), 1.0);
        assert_eq!(kolmogorov_q(-1.0), 1.0);
        assert!(kolmogorov_q(0.1) > 0.999_999);
        assert!(kolmogorov_q(5.0) < 1e-20);
    }

    #[test]
    fn both_branches_agree_at_the_switch() {
        // Evaluate the alternating series directly on the small-λ side of the switch.
        let lambda: f64 = 1.179;
        let direct: f64 = 2.0
            * (1..=100)
                .map(|k: i32| {
                    let s = if k % 2 == 1 { 1.0 } else { -1.0 };
                    s * (-2.0 * f64::from(k * k) * lambda * lambda).exp()
                })
                .sum::<f64>();
        assert!((kolmogorov_q(lambda) - direct).abs() < 1e-14);
        // Monotone decreasing across the switch.
        assert!(kolmogorov_q(1.1799) > kolmogorov_q(1.18));
    }

    #[test]
    fn identical_samples() {
        let a = hist(&[(1, 10), (2, 40), (3, 30), (9, 1)]);
        let t = ks_two_sample(&a, &a.clone()).unwrap();
        assert_eq!(t.d, 0.0);
        assert_eq!(t.p_value, 1.0);
        // Proportional counts are the same empirical distribution.
        let b = hist(&[(1, 20), (2, 80), (3, 60), (9, 2)]);
        assert_eq!(ks_two_sample(&a, &b).unwrap().d, 0.0);
    }

    #[test]
    fn small_case_by_hand() {
        // a = {1, 2, 2, 5}, b = {2, 3, 3}.
        // v:      1     2     3     5
        // F_a:   1/4   3/4   3/4   1
        // F_b:    0    1/3    1    1
        // gap:   1/4  5/12   1/4   0   ⇒ D = 5/12.
        let a = hist(&[(1, 1), (2, 2), (5, 1)]);
        let b = hist(&[(2, 1), (3, 2)]);
        let t = ks_two_sample(&a, &b).unwrap();
        assert!((t.d - 5.0 / 12.0).abs() < 1e-15);
        assert!((t.n_eff - 12.0 / 7.0).abs() < 1e-15);
        let sq = (12.0f64 / 7.0).sqrt();
        assert_eq!(
            t.p_value,
            kolmogorov_q((sq + 0.12 + 0.11 / sq) * 5.0 / 12.0)
        );
        // Symmetric in its arguments.
        assert_eq!(ks_two_sample(&b, &a).unwrap(), t);
    }

    #[test]
    fn clearly_different() {
        // Fight lengths centred at 3 vs centred at 6, 1000 each.
        let a = hist(&[(2, 250), (3, 500), (4, 250)]);
        let b = hist(&[(5, 250), (6, 500), (7, 250)]);
        let t = ks_two_sample(&a, &b).unwrap();
        assert_eq!(t.d, 1.0);
        assert!(t.p_value < 1e-100);
        // A small shift with large samples is still detected.
        let c = hist(&[(2, 2000), (3, 5000), (4, 3000)]);
        let d = hist(&[(2, 2500), (3, 5000), (4, 2500)]);
        let t = ks_two_sample(&c, &d).unwrap();
        assert!((t.d - 0.05).abs() < 1e-15);
        assert!(t.p_value < 1e-8, "{t:?}");
    }

    #[test]
    fn empty_samples_are_errors() {
        let a = hist(&[(1, 3)]);
        let e = IntHistogram::new();
        assert_eq!(
            ks_two_sample(&e, &a),
            Err(KsError::EmptySample { which: 1 })
        );
        assert_eq!(
            ks_two_sample(&a, &e),
            Err(KsError::EmptySample { which: 2 })
        );
    }
}
