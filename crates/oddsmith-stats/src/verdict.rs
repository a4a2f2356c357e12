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
//!
//! **Which figure speaks.** Many quantities are known two ways: a Monte Carlo estimate and,
//! where the ruleset solves the duel (or the quantity is a check), an exact value. [`speaks`]
//! is the one rule every verdict, summary sentence, sweep crossing, table and ranking goes
//! through: the exact value speaks wherever it exists, and the Monte Carlo estimate is then
//! shown as its check ([`McCheck`]: how many standard errors it lies from the exact value).
//! A difference of two quantities is exact only when both are ([`exact_difference`]);
//! between an exact value and a Monte Carlo one it is Monte Carlo.

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

    /// A Monte Carlo estimate `diff` with its 95 % interval `[lo, hi]`, significant when the
    /// interval excludes 0 (the half-width is `(hi − lo) / 2`).
    #[must_use]
    pub fn interval(diff: f64, lo: f64, hi: f64) -> Self {
        Difference {
            diff,
            lo,
            hi,
            half_width: (hi - lo) / 2.0,
            evidence: Evidence::Interval,
        }
    }

    /// The same difference measured from `reference` instead of 0 (`P − 0.5`, `P − target`).
    #[must_use]
    pub fn minus(self, reference: f64) -> Self {
        Difference {
            diff: self.diff - reference,
            lo: self.lo - reference,
            hi: self.hi - reference,
            ..self
        }
    }

    /// Whether the figure is exact.
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.evidence == Evidence::Exact
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

/// The Monte Carlo estimate beside an exact value that speaks: its check.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct McCheck {
    /// The Monte Carlo estimate with its 95 % interval.
    pub monte_carlo: Difference,
    /// Its distance from the exact value in standard errors (`(estimate − exact) / se`, the
    /// standard error taken from the estimate's own interval; 0 when that interval is empty).
    pub z: f64,
}

/// A quantity as it is stated: the figure that speaks, and, when that figure is exact, the
/// Monte Carlo estimate as its check. Built only by [`speaks`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spoken {
    /// The figure every verdict, sentence and table uses: exact where known.
    pub figure: Difference,
    /// When the exact value speaks: the Monte Carlo estimate beside it.
    pub check: Option<McCheck>,
}

impl Spoken {
    /// Whether the exact value speaks.
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.figure.is_exact()
    }

    /// The value that speaks.
    #[must_use]
    pub fn value(&self) -> f64 {
        self.figure.diff
    }
}

/// **The one rule of which figure speaks**: the exact value where one exists (the Monte Carlo
/// estimate then becomes its check, with its distance in standard errors), else the Monte
/// Carlo estimate. Every verdict, summary sentence, sweep crossing, comparison table, ranking
/// and balance statement decides through this function, so no section picks for itself.
///
/// `exact` is the exact value of the same quantity as `monte_carlo` (for a difference,
/// [`exact_difference`] of the two exact values, which is `None` unless both are exact).
#[must_use]
pub fn speaks(monte_carlo: Difference, exact: Option<f64>) -> Spoken {
    match exact.filter(|e| e.is_finite()) {
        Some(e) => {
            let se = monte_carlo.half_width / Z95;
            let z = if se > 0.0 && se.is_finite() {
                (monte_carlo.diff - e) / se
            } else {
                0.0
            };
            Spoken {
                figure: Difference::exact(e, 0.0),
                check: Some(McCheck { monte_carlo, z }),
            }
        }
        None => Spoken {
            figure: monte_carlo,
            check: None,
        },
    }
}

/// The exact value of `a − b`: known only when both are exact (a difference between an exact
/// value and a Monte Carlo one is a Monte Carlo difference).
#[must_use]
pub fn exact_difference(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    Some(a? - b?)
}

/// Where a quantity crosses a level along a sequence of figures: the first place where one
/// figure lies exactly at the level (within [`EXACT_ZERO`] for an exact figure), or between
/// two neighbours on opposite sides of it. Index-based, so the caller names the points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Crossing {
    /// Figure number `i` is at the level.
    At(usize),
    /// The level lies strictly between figures `i` and `i + 1`.
    Between(usize),
}

/// The first crossing of `level` by the figures that speak (see [`Crossing`]); `None` when
/// they all stay on one side. An exact figure equal to the level is reached *at* its point,
/// never "between" it and a neighbour; a Monte Carlo figure is compared by its estimate.
#[must_use]
pub fn crossing(figures: &[Spoken], level: f64) -> Option<Crossing> {
    let off = |s: &Spoken| s.value() - level;
    let at = |s: &Spoken| {
        let d = off(s);
        if s.is_exact() {
            d.abs() <= EXACT_ZERO
        } else {
            d == 0.0
        }
    };
    for (i, s) in figures.iter().enumerate() {
        if at(s) {
            return Some(Crossing::At(i));
        }
        if let Some(next) = figures.get(i + 1)
            && !at(next)
            && off(s) * off(next) < 0.0
        {
            return Some(Crossing::Between(i));
        }
    }
    None
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

    #[test]
    fn the_exact_value_speaks_and_monte_carlo_is_its_check() {
        // The case: Monte Carlo says 2.2 ± 1.4 points (significant), exact 0.6.
        let mc = Difference::interval(0.022, 0.008, 0.036);
        assert!(RULE.judge(mc).is_decisive());
        let s = speaks(mc, Some(0.006));
        assert!(s.is_exact());
        assert!(close(s.value(), 0.006));
        assert!(matches!(RULE.judge(s.figure), Verdict::Balanced(_)));
        let c = s.check.unwrap();
        assert_eq!(c.monte_carlo, mc);
        // se = 0.014 / 1.96; (0.022 − 0.006) / se = 2.24.
        assert!((c.z - 0.016 / (0.014 / Z95)).abs() < 1e-9, "{}", c.z);
        // Without an exact value the estimate speaks, with no check.
        let s = speaks(mc, None);
        assert_eq!((s.figure, s.check), (mc, None));
        // A non-finite exact value is no exact value.
        assert!(!speaks(mc, Some(f64::NAN)).is_exact());
    }

    #[test]
    fn a_difference_is_exact_only_when_both_sides_are() {
        assert_eq!(exact_difference(Some(0.7), Some(0.5)), Some(0.7 - 0.5));
        assert_eq!(exact_difference(Some(0.7), None), None);
        assert_eq!(exact_difference(None, Some(0.5)), None);
    }

    #[test]
    fn crossings_at_a_point_and_between_points() {
        let e = |p: f64| speaks(Difference::interval(p + 0.01, p, p + 0.02), Some(p));
        let m = |p: f64| speaks(Difference::interval(p, p - 0.01, p + 0.01), None);
        // Exactly 50 % at the second point: reached at it, not "between" it and a neighbour.
        assert_eq!(
            crossing(&[e(0.4), e(0.5), e(0.6)], 0.5),
            Some(Crossing::At(1))
        );
        assert_eq!(
            crossing(&[e(0.4), e(0.45), e(0.6)], 0.5),
            Some(Crossing::Between(1))
        );
        assert_eq!(crossing(&[e(0.4), e(0.45)], 0.5), None);
        // The exact values decide, whatever the estimates say (here all above 50 %).
        let tilted = |p: f64| speaks(Difference::interval(0.7, 0.69, 0.71), Some(p));
        assert_eq!(
            crossing(&[tilted(0.4), tilted(0.6)], 0.5),
            Some(Crossing::Between(0))
        );
        assert_eq!(crossing(&[m(0.4), m(0.6)], 0.5), Some(Crossing::Between(0)));
        assert_eq!(crossing(&[m(0.6), m(0.4)], 0.5), Some(Crossing::Between(0)));
    }
}
