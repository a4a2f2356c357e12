//! Exact histogram over small non-negative integers.

use serde::{Deserialize, Serialize};

/// Dense histogram of non-negative integer values (bin index = value).
///
/// Meant for small values such as fight length in rounds (1..=1000) or damage
/// (0..200): memory is one `u64` per value up to the largest value recorded.
/// The bin vector grows on demand; recording a value that already fits never
/// allocates.
///
/// All statistics are derived from exact integer counts, so a histogram built
/// by merging chunks in any order gives bit-identical results.
///
/// Equality ignores trailing empty bins: a histogram created with
/// [`with_capacity`](Self::with_capacity) equals one created with
/// [`new`](Self::new) holding the same counts.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct IntHistogram {
    counts: Vec<u64>,
}

/// Compact description of an [`IntHistogram`]; every field is 0 when empty.
///
/// `sd` is the sample standard deviation (`n − 1`); quantiles follow
/// [`IntHistogram::quantile`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Number of recorded values.
    pub n: u64,
    /// Mean value.
    pub mean: f64,
    /// Sample standard deviation.
    pub sd: f64,
    /// Smallest recorded value.
    pub min: u64,
    /// Median (0.5 quantile).
    pub p50: u64,
    /// 0.9 quantile.
    pub p90: u64,
    /// 0.99 quantile.
    pub p99: u64,
    /// Largest recorded value.
    pub max: u64,
}

impl IntHistogram {
    /// An empty histogram with no preallocated bins.
    #[must_use]
    pub const fn new() -> Self {
        Self { counts: Vec::new() }
    }

    /// An empty histogram with bins preallocated for values `0..=max_value`,
    /// so recording such values never allocates.
    #[must_use]
    pub fn with_capacity(max_value: u64) -> Self {
        Self {
            counts: vec![0; to_index(max_value) + 1],
        }
    }

    /// Records one occurrence of `v`.
    #[inline]
    pub fn record(&mut self, v: u64) {
        self.record_n(v, 1);
    }

    /// Records `n` occurrences of `v`.
    ///
    /// # Panics
    /// If `v` does not fit in `usize` or the bins cannot be allocated (the
    /// histogram is dense: only small values are sensible).
    #[inline]
    pub fn record_n(&mut self, v: u64, n: u64) {
        let i = to_index(v);
        if let Some(c) = self.counts.get_mut(i) {
            *c += n;
        } else {
            self.grow_and_record(i, n);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_and_record(&mut self, i: usize, n: u64) {
        self.counts.resize(i + 1, 0);
        self.counts[i] += n;
    }

    /// Adds all counts of `other` into `self` (exact; associative and
    /// commutative).
    pub fn merge(&mut self, other: &Self) {
        let used = other.used_len();
        if self.counts.len() < used {
            self.counts.resize(used, 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts[..used]) {
            *a += *b;
        }
    }

    /// Number of recorded values.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Number of recorded values, or `None` if it does not fit in a `u64` (only a histogram
    /// read from a file that was not written by a run can get there).
    #[must_use]
    pub fn checked_total(&self) -> Option<u64> {
        self.counts.iter().try_fold(0u64, |t, &c| t.checked_add(c))
    }

    /// Whether no value has been recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// How many times `v` was recorded.
    #[must_use]
    pub fn count(&self, v: u64) -> u64 {
        usize::try_from(v)
            .ok()
            .and_then(|i| self.counts.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// Smallest recorded value, `None` when empty.
    #[must_use]
    pub fn min(&self) -> Option<u64> {
        self.counts.iter().position(|&c| c > 0).map(|i| i as u64)
    }

    /// Largest recorded value, `None` when empty.
    #[must_use]
    pub fn max(&self) -> Option<u64> {
        self.counts.iter().rposition(|&c| c > 0).map(|i| i as u64)
    }

    /// Exact `(n, Σv, Σv²)` as integers.
    fn sums(&self) -> (u128, u128, u128) {
        let mut n = 0u128;
        let mut s = 0u128;
        let mut s2 = 0u128;
        for (v, c) in self.iter() {
            let (v, c) = (u128::from(v), u128::from(c));
            n += c;
            s += v * c;
            s2 += v * v * c;
        }
        (n, s, s2)
    }

    /// Mean value (0 when empty), from exact integer sums.
    #[must_use]
    pub fn mean(&self) -> f64 {
        let (n, s, _) = self.sums();
        if n == 0 { 0.0 } else { s as f64 / n as f64 }
    }

    /// Sample variance (`n − 1` denominator, matching [`crate::Welford`]);
    /// 0 when fewer than two values. Computed as `(nΣv² − (Σv)²) / (n(n−1))`
    /// with an exact integer numerator, so it is independent of merge order.
    #[must_use]
    pub fn variance(&self) -> f64 {
        let (n, s, s2) = self.sums();
        if n < 2 {
            return 0.0;
        }
        let denom = n as f64 * (n - 1) as f64;
        match n
            .checked_mul(s2)
            .and_then(|a| s.checked_mul(s).map(|b| a - b))
        {
            Some(num) => num as f64 / denom,
            // Astronomically large inputs: fall back to floating point.
            None => {
                let (nf, sf, s2f) = (n as f64, s as f64, s2 as f64);
                ((nf * s2f - sf * sf) / denom).max(0.0)
            }
        }
    }

    /// Sample standard deviation, `sqrt(variance())`.
    #[must_use]
    pub fn sd(&self) -> f64 {
        self.variance().sqrt()
    }

    /// Empirical CDF: fraction of recorded values `≤ v` (0 when empty).
    ///
    /// Computed as `count(≤ v) as f64 / total as f64`.
    #[must_use]
    pub fn cdf(&self, v: u64) -> f64 {
        let total = self.total();
        if total == 0 {
            return 0.0;
        }
        let end = usize::try_from(v)
            .map_or(self.counts.len(), |i| i.saturating_add(1))
            .min(self.counts.len());
        let below: u64 = self.counts[..end].iter().sum();
        below as f64 / total as f64
    }

    /// Lower quantile: the smallest **recorded** value `v` with
    /// [`cdf(v)`](Self::cdf) `≥ q` (the "inverse empirical CDF", type 1 in
    /// Hyndman & Fan). Always returns an observed value, so `quantile(0.0)`
    /// is the minimum and `quantile(1.0)` the maximum; for values 1..=10 once
    /// each, `quantile(0.5) == Some(5)`. `None` when empty.
    ///
    /// The comparison uses the same `f64` ratio as [`cdf`](Self::cdf), so e.g.
    /// `quantile(0.07)` of 100 values is the 7th smallest value exactly.
    ///
    /// # Panics
    /// If `q` is NaN or outside `[0, 1]`.
    #[must_use]
    pub fn quantile(&self, q: f64) -> Option<u64> {
        assert!(
            (0.0..=1.0).contains(&q),
            "quantile q must be in [0, 1], got {q}"
        );
        let total = self.total();
        if total == 0 {
            return None;
        }
        let mut cum = 0u64;
        let mut last = None;
        for (v, c) in self.iter() {
            cum += c;
            last = Some(v);
            if cum as f64 / total as f64 >= q {
                return Some(v);
            }
        }
        // Unreachable in practice: the last bin has cum == total, ratio 1.0.
        last
    }

    /// Iterates `(value, count)` over non-empty bins in increasing value
    /// order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(v, &c)| (v as u64, c))
    }

    /// Count, mean, sd, min, p50/p90/p99 and max in one struct (all zero
    /// when empty).
    #[must_use]
    pub fn summary(&self) -> Summary {
        let n = self.total();
        if n == 0 {
            return Summary::default();
        }
        let q = |p| self.quantile(p).unwrap_or(0);
        Summary {
            n,
            mean: self.mean(),
            sd: self.sd(),
            min: self.min().unwrap_or(0),
            p50: q(0.5),
            p90: q(0.9),
            p99: q(0.99),
            max: self.max().unwrap_or(0),
        }
    }

    /// Length of the bin vector without trailing empty bins.
    fn used_len(&self) -> usize {
        self.counts
            .iter()
            .rposition(|&c| c > 0)
            .map_or(0, |i| i + 1)
    }
}

/// Converts a value to a bin index.
#[inline]
fn to_index(v: u64) -> usize {
    usize::try_from(v).expect("histogram value does not fit in usize")
}

impl PartialEq for IntHistogram {
    fn eq(&self, other: &Self) -> bool {
        self.counts[..self.used_len()] == other.counts[..other.used_len()]
    }
}

impl Eq for IntHistogram {}

impl Extend<u64> for IntHistogram {
    fn extend<I: IntoIterator<Item = u64>>(&mut self, iter: I) {
        for v in iter {
            self.record(v);
        }
    }
}

impl FromIterator<u64> for IntHistogram {
    fn from_iter<I: IntoIterator<Item = u64>>(iter: I) -> Self {
        let mut h = Self::new();
        h.extend(iter);
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Welford;
    use proptest::prelude::*;

    #[test]
    fn checked_total_sees_an_overflow() {
        let mut h: IntHistogram = [1, 1, 4].into_iter().collect();
        assert_eq!(h.checked_total(), Some(3));
        h.record_n(2, u64::MAX - 3);
        assert_eq!(h.checked_total(), Some(u64::MAX));
        h.record(0);
        assert_eq!(h.checked_total(), None);
        assert_eq!(IntHistogram::new().checked_total(), Some(0));
    }

    #[test]
    fn empty() {
        let h = IntHistogram::new();
        assert!(h.is_empty());
        assert_eq!(h.total(), 0);
        assert_eq!((h.min(), h.max(), h.quantile(0.5)), (None, None, None));
        assert_eq!(
            (h.mean(), h.variance(), h.sd(), h.cdf(3)),
            (0.0, 0.0, 0.0, 0.0)
        );
        assert_eq!(h.iter().count(), 0);
        assert_eq!(
            h.summary(),
            Summary {
                n: 0,
                mean: 0.0,
                sd: 0.0,
                min: 0,
                p50: 0,
                p90: 0,
                p99: 0,
                max: 0
            }
        );
    }

    #[test]
    fn uniform_one_to_ten() {
        let h: IntHistogram = (1..=10).collect();
        assert_eq!(h.total(), 10);
        assert_eq!(h.quantile(0.5), Some(5));
        assert_eq!(h.quantile(0.0), Some(1));
        assert_eq!(h.quantile(0.05), Some(1));
        assert_eq!(h.quantile(0.1), Some(1));
        assert_eq!(h.quantile(0.11), Some(2));
        assert_eq!(h.quantile(0.9), Some(9));
        assert_eq!(h.quantile(0.99), Some(10));
        assert_eq!(h.quantile(1.0), Some(10));
        assert_eq!(h.cdf(0), 0.0);
        assert_eq!(h.cdf(5), 0.5);
        assert_eq!(h.cdf(10), 1.0);
        assert_eq!(h.cdf(u64::MAX), 1.0);
        assert_eq!(h.mean(), 5.5);
        assert_eq!(h.variance(), 55.0 / 6.0);
        let s = h.summary();
        assert_eq!(
            (s.n, s.min, s.p50, s.p90, s.p99, s.max),
            (10, 1, 5, 9, 10, 10)
        );
    }

    #[test]
    fn quantile_is_robust_to_decimal_rounding() {
        // 0.07 * 100.0 == 7.000000000000001 in f64; the quantile must still
        // be the 7th smallest value.
        let h: IntHistogram = (1..=100).collect();
        for k in 1..=100u64 {
            let q = format!("0.{k:02}").parse::<f64>().unwrap_or(1.0);
            let q = if k == 100 { 1.0 } else { q };
            assert_eq!(h.quantile(q), Some(k), "q = {q}");
        }
    }

    #[test]
    #[should_panic(expected = "quantile q")]
    fn quantile_rejects_out_of_range() {
        let _ = IntHistogram::from_iter([1]).quantile(1.5);
    }

    #[test]
    fn grows_and_counts() {
        let mut h = IntHistogram::with_capacity(3);
        h.record(2);
        h.record_n(7, 4);
        h.record(0);
        assert_eq!(h.count(7), 4);
        assert_eq!(h.count(2), 1);
        assert_eq!(h.count(5), 0);
        assert_eq!(h.count(u64::MAX), 0);
        assert_eq!((h.min(), h.max()), (Some(0), Some(7)));
        assert_eq!(h.iter().collect::<Vec<_>>(), vec![(0, 1), (2, 1), (7, 4)]);
    }

    #[test]
    fn equality_ignores_trailing_capacity() {
        let mut a = IntHistogram::with_capacity(1000);
        let mut b = IntHistogram::new();
        assert_eq!(a, b);
        a.record(3);
        b.record(3);
        assert_eq!(a, b);
        b.record(4);
        assert_ne!(a, b);
    }

    #[test]
    fn merge_does_not_grow_for_trailing_zeros() {
        let mut a = IntHistogram::new();
        a.record(2);
        let big = IntHistogram::with_capacity(10_000);
        a.merge(&big);
        assert_eq!(a.counts.len(), 3);
    }

    #[test]
    fn moments_match_welford() {
        let data: Vec<u64> = (0..5000u64).map(|i| (i * 7919) % 211).collect();
        let h: IntHistogram = data.iter().copied().collect();
        let w: Welford = data.iter().map(|&v| v as f64).collect();
        assert!((h.mean() - w.mean()).abs() < 1e-9);
        assert!((h.variance() - w.variance()).abs() < 1e-9 * w.variance());
    }

    fn hist(values: &[u64]) -> IntHistogram {
        values.iter().copied().collect()
    }

    proptest! {
        #[test]
        fn merge_is_associative_and_commutative(
            a in proptest::collection::vec(0u64..300, 0..100),
            b in proptest::collection::vec(0u64..300, 0..100),
            c in proptest::collection::vec(0u64..300, 0..100),
        ) {
            let (ha, hb, hc) = (hist(&a), hist(&b), hist(&c));
            let mut left = ha.clone();
            left.merge(&hb);
            left.merge(&hc);
            let mut bc = hb.clone();
            bc.merge(&hc);
            let mut right = ha.clone();
            right.merge(&bc);
            let mut rev = hc.clone();
            rev.merge(&hb);
            rev.merge(&ha);
            prop_assert_eq!(&left, &right);
            prop_assert_eq!(&left, &rev);
            prop_assert_eq!(left.summary(), rev.summary());
            let all: Vec<u64> = a.iter().chain(&b).chain(&c).copied().collect();
            prop_assert_eq!(&left, &hist(&all));
        }

        #[test]
        fn quantile_matches_sorted_definition(
            values in proptest::collection::vec(0u64..50, 1..200),
            q in 0.0f64..=1.0,
        ) {
            let h = hist(&values);
            let mut sorted = values.clone();
            sorted.sort_unstable();
            let n = sorted.len();
            // Smallest order statistic x_(k) (1-based) with k / n >= q, k >= 1.
            let k = (1..=n).find(|&k| k as f64 / n as f64 >= q).unwrap_or(n);
            prop_assert_eq!(h.quantile(q), Some(sorted[k - 1]));
            let v = h.quantile(q).unwrap_or(0);
            prop_assert!(h.cdf(v) >= q);
        }
    }
}
