//! Streaming mean/variance (Welford) with a parallel merge (Chan et al.).

use serde::{Deserialize, Serialize};

/// Running count, mean and sum of squared deviations of `f64` samples.
///
/// [`push`](Self::push) uses Welford's update; [`merge`](Self::merge) uses the
/// pairwise formula of Chan, Golub & LeVeque (1979). Merging is deterministic
/// for a fixed merge order and equals a single pass up to floating-point
/// rounding (it is not bit-exactly associative).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Welford {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Welford {
    /// An empty accumulator (same as `Default`).
    #[must_use]
    pub const fn new() -> Self {
        Self {
            n: 0,
            mean: 0.0,
            m2: 0.0,
        }
    }

    /// Adds one sample.
    #[inline]
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
    }

    /// Folds `other` into `self` (Chan et al. parallel combination).
    pub fn merge(&mut self, other: &Self) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *other;
            return;
        }
        let na = self.n as f64;
        let nb = other.n as f64;
        let n = self.n + other.n;
        let nf = n as f64;
        let delta = other.mean - self.mean;
        self.mean += delta * (nb / nf);
        self.m2 += other.m2 + delta * delta * (na * nb / nf);
        self.n = n;
    }

    /// Number of samples pushed.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.n
    }

    /// Sample mean (0 when empty).
    #[must_use]
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// Sample variance with Bessel's correction (`n − 1`); 0 when `n < 2`.
    #[must_use]
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            // m2 can be a hair below zero only through rounding; clamp it.
            (self.m2 / (self.n - 1) as f64).max(0.0)
        }
    }

    /// Sample standard deviation, `sqrt(variance())`.
    #[must_use]
    pub fn sd(&self) -> f64 {
        self.variance().sqrt()
    }

    /// Standard error of the mean, `sd() / sqrt(n)`; 0 when `n < 2`.
    #[must_use]
    pub fn sem(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.sd() / (self.n as f64).sqrt()
        }
    }
}

impl Extend<f64> for Welford {
    fn extend<I: IntoIterator<Item = f64>>(&mut self, iter: I) {
        for x in iter {
            self.push(x);
        }
    }
}

impl FromIterator<f64> for Welford {
    fn from_iter<I: IntoIterator<Item = f64>>(iter: I) -> Self {
        let mut w = Self::new();
        w.extend(iter);
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1.0)
    }

    #[test]
    fn empty_and_single() {
        let mut w = Welford::new();
        assert_eq!(
            (w.count(), w.mean(), w.variance(), w.sd(), w.sem()),
            (0, 0.0, 0.0, 0.0, 0.0)
        );
        w.push(3.5);
        assert_eq!(
            (w.count(), w.mean(), w.variance(), w.sem()),
            (1, 3.5, 0.0, 0.0)
        );
    }

    #[test]
    fn known_small_data_set() {
        // 2,4,4,4,5,5,7,9: mean 5, sum of squared deviations 32.
        let w: Welford = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
            .into_iter()
            .collect();
        assert_eq!(w.count(), 8);
        assert!(close(w.mean(), 5.0, 1e-15));
        assert!(close(w.variance(), 32.0 / 7.0, 1e-15));
        assert!(close(w.sem(), (32.0f64 / 7.0 / 8.0).sqrt(), 1e-15));
    }

    #[test]
    fn nist_numacc1() {
        // NIST StRD univariate summary statistics, data set NumAcc1:
        // 10000001, 10000003, 10000002; certified mean 10000002, sd 1.
        let w: Welford = [10000001.0, 10000003.0, 10000002.0].into_iter().collect();
        assert_eq!(w.mean(), 10000002.0);
        assert!(close(w.sd(), 1.0, 1e-12));
    }

    #[test]
    fn nist_numacc3_offset_stability() {
        // NIST StRD NumAcc3 (1001 values): 1000000.2, then 500 x
        // (1000000.1, 1000000.3); certified mean 1000000.2, sd 0.1 (n − 1).
        let mut w = Welford::new();
        w.push(1000000.2);
        for _ in 0..500 {
            w.push(1000000.1);
            w.push(1000000.3);
        }
        assert!(close(w.mean(), 1000000.2, 1e-14));
        assert!((w.sd() - 0.1).abs() < 1e-8, "sd = {}", w.sd());
    }

    #[test]
    fn merge_halves_equals_single_pass() {
        let data: Vec<f64> = (0..1000)
            .map(|i| ((i * 37) % 101) as f64 * 0.25 - 3.0)
            .collect();
        let single: Welford = data.iter().copied().collect();
        let mut a: Welford = data[..413].iter().copied().collect();
        let b: Welford = data[413..].iter().copied().collect();
        a.merge(&b);
        assert_eq!(a.count(), single.count());
        assert!(close(a.mean(), single.mean(), 1e-12));
        assert!(close(a.variance(), single.variance(), 1e-12));
    }

    #[test]
    fn merge_with_empty_is_identity() {
        let w: Welford = [1.0, 2.0, 4.0].into_iter().collect();
        let mut a = w;
        a.merge(&Welford::new());
        assert_eq!(a, w);
        let mut e = Welford::new();
        e.merge(&w);
        assert_eq!(e, w);
    }

    proptest! {
        #[test]
        fn merge_matches_single_pass(
            data in proptest::collection::vec(-1e3f64..1e3, 0..200),
            split in 0usize..200,
        ) {
            let split = split.min(data.len());
            let single: Welford = data.iter().copied().collect();
            let mut a: Welford = data[..split].iter().copied().collect();
            let b: Welford = data[split..].iter().copied().collect();
            a.merge(&b);
            prop_assert_eq!(a.count(), single.count());
            prop_assert!((a.mean() - single.mean()).abs() <= 1e-9);
            prop_assert!((a.variance() - single.variance()).abs() <= 1e-9 * single.variance().max(1.0));
        }
    }
}
