//! Outcome counters: two-sided fight results and generic success proportions.

use serde::{Deserialize, Serialize};

use crate::interval;

/// Ratio `num / den` as `f64`, or 0 when `den == 0`.
fn ratio(num: u64, den: u64) -> f64 {
    if den == 0 {
        0.0
    } else {
        num as f64 / den as f64
    }
}

/// Counts of fight outcomes between side A and side B.
///
/// Merging is exact integer addition, hence associative and commutative.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OutcomeCounts {
    /// Trials won by side A.
    pub a_wins: u64,
    /// Trials won by side B.
    pub b_wins: u64,
    /// Trials that ended in a draw.
    pub draws: u64,
}

impl OutcomeCounts {
    /// An empty counter (same as `Default`).
    #[must_use]
    pub const fn new() -> Self {
        Self {
            a_wins: 0,
            b_wins: 0,
            draws: 0,
        }
    }

    /// Records a win for side A.
    #[inline]
    pub fn record_a(&mut self) {
        self.a_wins += 1;
    }

    /// Records a win for side B.
    #[inline]
    pub fn record_b(&mut self) {
        self.b_wins += 1;
    }

    /// Records a draw.
    #[inline]
    pub fn record_draw(&mut self) {
        self.draws += 1;
    }

    /// Adds the counts of `other` into `self`.
    pub fn merge(&mut self, other: &Self) {
        self.a_wins += other.a_wins;
        self.b_wins += other.b_wins;
        self.draws += other.draws;
    }

    /// Total number of recorded trials.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.a_wins + self.b_wins + self.draws
    }

    /// Fraction of trials won by A (0 when empty).
    #[must_use]
    pub fn p_a(&self) -> f64 {
        ratio(self.a_wins, self.total())
    }

    /// Fraction of trials won by B (0 when empty).
    #[must_use]
    pub fn p_b(&self) -> f64 {
        ratio(self.b_wins, self.total())
    }

    /// Fraction of trials that were draws (0 when empty).
    #[must_use]
    pub fn p_draw(&self) -> f64 {
        ratio(self.draws, self.total())
    }

    /// A wins as a [`Proportion`] of all trials (for intervals).
    #[must_use]
    pub fn a_proportion(&self) -> Proportion {
        Proportion::from_counts(self.a_wins, self.total())
    }

    /// B wins as a [`Proportion`] of all trials (for intervals).
    #[must_use]
    pub fn b_proportion(&self) -> Proportion {
        Proportion::from_counts(self.b_wins, self.total())
    }

    /// Draws as a [`Proportion`] of all trials (for intervals).
    #[must_use]
    pub fn draw_proportion(&self) -> Proportion {
        Proportion::from_counts(self.draws, self.total())
    }
}

/// Successes out of Bernoulli trials, with confidence intervals.
///
/// Invariant: `successes <= trials` (maintained by [`record`](Self::record)
/// and [`merge`](Self::merge); the interval methods panic if violated).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Proportion {
    /// Number of successful trials.
    pub successes: u64,
    /// Number of trials.
    pub trials: u64,
}

impl Proportion {
    /// An empty proportion (same as `Default`).
    #[must_use]
    pub const fn new() -> Self {
        Self {
            successes: 0,
            trials: 0,
        }
    }

    /// Builds a proportion from existing counts.
    ///
    /// # Panics
    /// If `successes > trials`.
    #[must_use]
    pub fn from_counts(successes: u64, trials: u64) -> Self {
        assert!(
            successes <= trials,
            "successes ({successes}) > trials ({trials})"
        );
        Self { successes, trials }
    }

    /// Records one trial; `success` says whether it succeeded.
    #[inline]
    pub fn record(&mut self, success: bool) {
        self.trials += 1;
        self.successes += u64::from(success);
    }

    /// Adds the counts of `other` into `self`.
    pub fn merge(&mut self, other: &Self) {
        self.successes += other.successes;
        self.trials += other.trials;
    }

    /// Point estimate `successes / trials` (0 when there are no trials).
    #[must_use]
    pub fn p(&self) -> f64 {
        ratio(self.successes, self.trials)
    }

    /// Wilson score interval for critical value `z`; see [`interval::wilson`].
    #[must_use]
    pub fn wilson(&self, z: f64) -> (f64, f64) {
        interval::wilson(self.successes, self.trials, z)
    }

    /// 95 % Wilson score interval; see [`interval::wilson95`].
    #[must_use]
    pub fn wilson95(&self) -> (f64, f64) {
        interval::wilson95(self.successes, self.trials)
    }

    /// Half-width of the Wilson interval; see [`interval::wilson_half_width`].
    #[must_use]
    pub fn wilson_half_width(&self, z: f64) -> f64 {
        interval::wilson_half_width(self.successes, self.trials, z)
    }

    /// Clopper–Pearson exact interval at confidence `conf`; see
    /// [`interval::clopper_pearson`].
    #[must_use]
    pub fn clopper_pearson(&self, conf: f64) -> (f64, f64) {
        interval::clopper_pearson(self.successes, self.trials, conf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_counts_are_zero() {
        let c = OutcomeCounts::default();
        assert_eq!(c.total(), 0);
        assert_eq!((c.p_a(), c.p_b(), c.p_draw()), (0.0, 0.0, 0.0));
        assert_eq!(c, OutcomeCounts::new());
    }

    #[test]
    fn record_and_probabilities() {
        let mut c = OutcomeCounts::new();
        for _ in 0..5 {
            c.record_a();
        }
        for _ in 0..3 {
            c.record_b();
        }
        for _ in 0..2 {
            c.record_draw();
        }
        assert_eq!(c.total(), 10);
        assert_eq!(c.p_a(), 0.5);
        assert_eq!(c.p_b(), 0.3);
        assert_eq!(c.p_draw(), 0.2);
        assert_eq!(c.a_proportion(), Proportion::from_counts(5, 10));
        assert_eq!(c.b_proportion().successes, 3);
        assert_eq!(c.draw_proportion().trials, 10);
    }

    #[test]
    fn merge_is_associative() {
        let x = OutcomeCounts {
            a_wins: 1,
            b_wins: 2,
            draws: 3,
        };
        let y = OutcomeCounts {
            a_wins: 10,
            b_wins: 20,
            draws: 30,
        };
        let z = OutcomeCounts {
            a_wins: 7,
            b_wins: 0,
            draws: 5,
        };
        let mut left = x;
        left.merge(&y);
        left.merge(&z);
        let mut yz = y;
        yz.merge(&z);
        let mut right = x;
        right.merge(&yz);
        assert_eq!(left, right);
        assert_eq!(
            left,
            OutcomeCounts {
                a_wins: 18,
                b_wins: 22,
                draws: 38
            }
        );
    }

    #[test]
    fn proportion_record_merge() {
        let mut p = Proportion::new();
        assert_eq!(p.p(), 0.0);
        assert_eq!(p.wilson95(), (0.0, 1.0));
        p.record(true);
        p.record(false);
        p.record(true);
        p.record(true);
        assert_eq!(
            p,
            Proportion {
                successes: 3,
                trials: 4
            }
        );
        assert_eq!(p.p(), 0.75);
        let mut q = Proportion::from_counts(1, 4);
        q.merge(&p);
        assert_eq!(
            q,
            Proportion {
                successes: 4,
                trials: 8
            }
        );
        let (lo, hi) = q.wilson95();
        assert!(lo < 0.5 && 0.5 < hi);
        assert_eq!(q.wilson(interval::Z95), (lo, hi));
        assert_eq!(q.wilson_half_width(interval::Z95), (hi - lo) / 2.0);
        let (clo, chi) = q.clopper_pearson(0.95);
        assert!(clo < lo && hi < chi);
    }

    #[test]
    #[should_panic(expected = "successes")]
    fn from_counts_rejects_inconsistent() {
        let _ = Proportion::from_counts(3, 2);
    }
}
