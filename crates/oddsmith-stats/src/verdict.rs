//! Verdicts: whether a difference between two quantities names a favourite.
//!
//! A [`Difference`] is `first − second` with its 95 % interval, and how it was measured
//! ([`Evidence`]). [`Rule::judge`] turns it into a [`Verdict`], criterion's rule: a side is
//! favoured only when the difference is significant *and* at least the practical threshold;
//! an interval inside ±threshold is [`Verdict::Balanced`]; anything else is
//! [`Verdict::Undecided`] (more trials would tell). Exact values need no test: a non-zero
//! exact difference is significant, a zero one is [`Verdict::NoDifference`].
//!
//! Both the run's advantage P(A) − P(B) ([`advantage`]) and the ruleset comparison (Newcombe
//! intervals from [`crate::diff`]) are judged here, so a verdict means the same everywhere.
//! Words belong to the callers: this module has none.

use serde::{Deserialize, Serialize};

use crate::{DiffEstimate, OutcomeCounts, Z95};

/// An exact difference smaller than this is no difference (rounding noise of exact sums).
pub const EXACT_ZERO: f64 = 1e-12;

/// How a difference was measured, which decides what "significant" means.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Evidence {
    /// Both values are exact: the difference is significant when it is not zero.
    Exact,
    /// Significant when the 95 % interval excludes 0.
    Interval,
    /// Significant when this two-sided p-value is below the rule's `alpha`.
    Test {
        /// Two-sided p-value of "no difference".
        p_value: f64,
    },
}

/// `first − second` with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    /// Point estimate (or exact value).
    pub diff: f64,
    /// Lower end of the 95 % interval (`diff` when exact).
    pub lo: f64,
    /// Upper end of the 95 % interval (`diff` when exact).
    pub hi: f64,
    /// Half-width of the interval as computed (`z · se` for a normal interval, so `d ± hw`
    /// is printed from the same number that set `lo` and `hi`; `(hi − lo) / 2` for an
    /// asymmetric one; 0 when exact).
    pub half_width: f64,
    /// How it was measured.
    pub evidence: Evidence,
}

impl Difference {
    /// An exact difference `a − b` (an interval of width 0).
    #[must_use]
    pub fn exact(a: f64, b: f64) -> Self {
        let diff = a - b;
        Difference {
            diff,
            lo: diff,
            hi: diff,
            half_width: 0.0,
            evidence: Evidence::Exact,
        }
    }

    /// A Newcombe difference of proportions, judged by its test's p-value.
    #[must_use]
    pub fn tested(d: &DiffEstimate) -> Self {
        Difference {
            diff: d.diff,
            lo: d.lo,
            hi: d.hi,
            half_width: (d.hi - d.lo) / 2.0,
            evidence: Evidence::Test { p_value: d.p_value },
        }
    }

    /// Whether the difference is significant at level `alpha` (see [`Evidence`]).
    #[must_use]
    pub fn significant(&self, alpha: f64) -> bool {
        match self.evidence {
            Evidence::Exact => self.diff.abs() > EXACT_ZERO,
            Evidence::Interval => self.lo > 0.0 || self.hi < 0.0,
            Evidence::Test { p_value } => p_value < alpha,
        }
    }
}

/// The advantage of A in one set of duels: P(A wins) − P(B wins) with its 95 % normal
/// interval, judged by whether that interval excludes 0.
///
/// Both proportions come from the same multinomial sample (each duel is an A win, a B win or
/// a draw), so they are negatively correlated and their difference has variance
/// `(pa + pb − (pa − pb)²) / n` — not the sum of two binomial variances, and not a Newcombe
/// interval for independent samples (which would be too wide). The normal interval is adequate
/// at the trial counts oddsmith runs (thousands of duels per matchup).
#[must_use]
pub fn advantage(o: &OutcomeCounts) -> Difference {
    let n = o.total().max(1) as f64;
    let (pa, pb) = (o.p_a(), o.p_b());
    let d = pa - pb;
    let se = ((pa + pb - d * d) / n).max(0.0).sqrt();
    Difference {
        diff: d,
        lo: d - Z95 * se,
        hi: d + Z95 * se,
        half_width: Z95 * se,
        evidence: Evidence::Interval,
    }
}

/// Which of the two compared things a verdict favours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    /// The first (the difference is positive).
    First,
    /// The second (the difference is negative).
    Second,
}

/// What a difference says.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Verdict {
    /// Significant and at least the practical threshold, in favour of `side`.
    Favours {
        /// The side with the larger value.
        side: Side,
        /// The difference judged.
        difference: Difference,
    },
    /// The whole interval lies within ±threshold (an exact difference: below the threshold
    /// but not zero).
    Balanced(Difference),
    /// Neither favoured nor shown balanced: more trials would tell.
    Undecided(Difference),
    /// Exactly no difference.
    NoDifference(Difference),
}

impl Verdict {
    /// The difference judged.
    #[must_use]
    pub fn difference(&self) -> &Difference {
        match self {
            Verdict::Favours { difference, .. }
            | Verdict::Balanced(difference)
            | Verdict::Undecided(difference)
            | Verdict::NoDifference(difference) => difference,
        }
    }

    /// The favoured side, if any.
    #[must_use]
    pub fn favours(&self) -> Option<Side> {
        match self {
            Verdict::Favours { side, .. } => Some(*side),
            _ => None,
        }
    }

    /// Whether the verdict names a favourite.
    #[must_use]
    pub fn is_decisive(&self) -> bool {
        self.favours().is_some()
    }
}

/// When a difference earns a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    /// Significance level for differences with a test ([`Evidence::Test`]).
    pub alpha: f64,
    /// Smallest difference worth calling out (a probability: 0.02 = 2 points).
    pub threshold: f64,
}

impl Rule {
    /// Judges a difference.
    #[must_use]
    pub fn judge(&self, d: Difference) -> Verdict {
        let t = self.threshold;
        if d.significant(self.alpha) && d.diff.abs() >= t {
            let side = if d.diff > 0.0 {
                Side::First
            } else {
                Side::Second
            };
            Verdict::Favours {
                side,
                difference: d,
            }
        } else if d.evidence == Evidence::Exact && d.diff.abs() <= EXACT_ZERO {
            Verdict::NoDifference(d)
        } else if d.lo > -t && d.hi < t {
            Verdict::Balanced(d)
        } else {
            Verdict::Undecided(d)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: Rule = Rule {
        alpha: 0.05,
        threshold: 0.02,
    };

    fn counts(a: u64, b: u64, draws: u64) -> OutcomeCounts {
        OutcomeCounts {
            a_wins: a,
            b_wins: b,
            draws,
        }
    }

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-12
    }

    #[test]
    fn clearly_favoured_by_hand() {
        // 600 A wins, 300 B wins, 100 draws of 1,000: d = 0.3,
        // var = (0.6 + 0.3 − 0.09) / 1000 = 0.00081, se = 0.0285, half-width 1.96·se.
        let d = advantage(&counts(600, 300, 100));
        let hw = Z95 * 0.00081_f64.sqrt();
        assert!(close(d.diff, 0.3));
        assert!(close(d.lo, 0.3 - hw) && close(d.hi, 0.3 + hw));
        assert!((hw - 0.055_78).abs() < 1e-4);
        let v = RULE.judge(d);
        assert_eq!(v.favours(), Some(Side::First));
        let d = advantage(&counts(300, 600, 100));
        assert_eq!(RULE.judge(d).favours(), Some(Side::Second));
    }

    #[test]
    fn balanced_by_hand() {
        // 49,500 vs 49,500 with 1,000 draws of 100,000: d = 0,
        // se = sqrt(0.99 / 100000) = 0.003146, half-width 0.006167 < 0.02.
        let d = advantage(&counts(49_500, 49_500, 1_000));
        assert!(close(d.diff, 0.0));
        assert!((d.hi - 0.006_167).abs() < 1e-5);
        assert!(matches!(RULE.judge(d), Verdict::Balanced(_)));
    }

    #[test]
    fn undecided_by_hand() {
        // 55 vs 45 of 100: d = 0.1, se = sqrt((1 − 0.01)/100) = 0.0995, interval crosses 0
        // and reaches beyond ±2 points: neither favoured nor balanced.
        let d = advantage(&counts(55, 45, 0));
        assert!((d.lo - (0.1 - Z95 * 0.099_498_7)).abs() < 1e-6);
        // The printed half-width is the z·se that set the interval, not a difference of ends.
        assert_eq!(d.half_width, d.hi - d.diff);
        assert!(d.lo < 0.0 && d.hi > 0.02);
        assert!(matches!(RULE.judge(d), Verdict::Undecided(_)));
        // Significant but below the threshold, with an interval reaching past it: undecided.
        let d = Difference {
            diff: 0.015,
            lo: 0.005,
            hi: 0.025,
            half_width: 0.01,
            evidence: Evidence::Interval,
        };
        assert!(d.significant(0.05));
        assert!(matches!(RULE.judge(d), Verdict::Undecided(_)));
    }

    #[test]
    fn exact_differences_against_the_threshold() {
        let v = RULE.judge(Difference::exact(0.52, 0.50));
        // 0.52 − 0.50 is 0.020000000000000018 in binary: at least the threshold.
        assert_eq!(v.favours(), Some(Side::First));
        let v = RULE.judge(Difference::exact(0.50, 0.515));
        assert!(matches!(v, Verdict::Balanced(_)));
        assert!(close(v.difference().diff, -0.015));
        let v = RULE.judge(Difference::exact(0.4, 0.4));
        assert!(matches!(v, Verdict::NoDifference(_)));
        let v = RULE.judge(Difference::exact(0.3, 0.5));
        assert_eq!(v.favours(), Some(Side::Second));
        // With no threshold, any non-zero exact difference decides.
        let any = Rule {
            alpha: 0.05,
            threshold: 0.0,
        };
        assert!(any.judge(Difference::exact(0.5001, 0.5)).is_decisive());
        assert!(!any.judge(Difference::exact(0.5, 0.5)).is_decisive());
    }

    #[test]
    fn tested_differences_use_the_p_value() {
        let d = DiffEstimate {
            diff: 0.05,
            lo: -0.001,
            hi: 0.101,
            z: 1.97,
            p_value: 0.049,
        };
        // The p-value decides, not the interval (the two tests need not agree exactly).
        assert!(RULE.judge(Difference::tested(&d)).is_decisive());
        let strict = Rule {
            alpha: 0.01,
            threshold: 0.02,
        };
        assert!(matches!(
            strict.judge(Difference::tested(&d)),
            Verdict::Undecided(_)
        ));
    }
}
