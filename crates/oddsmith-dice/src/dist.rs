//! Exact discrete distributions over `i64` outcomes with integer weights.

use crate::error::DiceError;

/// An exact probability distribution over `i64` outcomes.
///
/// Outcome `offset + i` has weight `weights[i]`; its probability is
/// `weight / total`, an exact fraction. Invariants: `total > 0`, the first and
/// last weights are non-zero, and the weights have no common factor (so two
/// equal distributions always compare equal and weights stay as small as
/// possible). Combinators that could overflow `u128` return
/// [`DiceError::Overflow`] instead.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dist {
    offset: i64,
    weights: Vec<u128>,
    total: u128,
}

/// Binary GCD; `gcd(0, b) == b`.
fn gcd(mut a: u128, mut b: u128) -> u128 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// `num / den` reduced to lowest terms (`0/x` becomes `0/1`).
fn reduce(num: u128, den: u128) -> (u128, u128) {
    let g = gcd(num, den);
    (num / g, den / g)
}

/// Checks that `lo..=hi` fits in `i64` and is at most [`Dist::MAX_SPAN`] wide.
fn check_range(lo: i128, hi: i128) -> Result<(i64, usize), DiceError> {
    let lo64 = i64::try_from(lo).map_err(|_| DiceError::Overflow)?;
    i64::try_from(hi).map_err(|_| DiceError::Overflow)?;
    let span = (hi - lo + 1) as u128;
    if span > Dist::MAX_SPAN as u128 {
        return Err(DiceError::TooWide {
            span,
            max: Dist::MAX_SPAN,
        });
    }
    Ok((lo64, span as usize))
}

impl Dist {
    /// The largest number of consecutive outcomes (from min to max) a distribution may span.
    pub const MAX_SPAN: usize = 1 << 24;

    /// Builds a distribution from dense weights: trims zero ends, sums the
    /// total (checked) and divides out any common factor.
    fn from_dense(offset: i64, mut weights: Vec<u128>) -> Result<Dist, DiceError> {
        let Some(first) = weights.iter().position(|&w| w != 0) else {
            return Err(DiceError::Empty);
        };
        let last = weights.iter().rposition(|&w| w != 0).unwrap_or(first);
        weights.truncate(last + 1);
        weights.drain(..first);
        let offset = offset + first as i64;
        let total = weights
            .iter()
            .try_fold(0u128, |acc, &w| acc.checked_add(w))
            .ok_or(DiceError::Overflow)?;
        let mut g = 0;
        for &w in &weights {
            g = gcd(g, w);
            if g == 1 {
                break;
            }
        }
        if g > 1 {
            weights.iter_mut().for_each(|w| *w /= g);
            return Ok(Dist {
                offset,
                weights,
                total: total / g,
            });
        }
        Ok(Dist {
            offset,
            weights,
            total,
        })
    }

    /// The distribution that is always `k`.
    pub fn constant(k: i64) -> Dist {
        Dist {
            offset: k,
            weights: vec![1],
            total: 1,
        }
    }

    /// A fair die: `1..=sides`, each with weight 1.
    ///
    /// # Panics
    /// If `sides == 0` or `sides > MAX_SPAN`.
    pub fn die(sides: u32) -> Dist {
        assert!(sides > 0, "Dist::die: a die needs at least 1 side");
        Dist::uniform(1, i64::from(sides))
    }

    /// Uniform over `lo..=hi`.
    ///
    /// # Panics
    /// If `lo > hi` or the range spans more than [`Dist::MAX_SPAN`] outcomes.
    pub fn uniform(lo: i64, hi: i64) -> Dist {
        assert!(lo <= hi, "Dist::uniform: empty range {lo}..={hi}");
        let (offset, span) = check_range(lo.into(), hi.into())
            .unwrap_or_else(|e| panic!("Dist::uniform({lo}, {hi}): {e}"));
        Dist {
            offset,
            weights: vec![1; span],
            total: span as u128,
        }
    }

    /// A distribution from `(outcome, weight)` pairs; duplicate outcomes are
    /// merged and zero weights ignored.
    ///
    /// # Errors
    /// [`DiceError::Empty`] if no weight is non-zero, [`DiceError::Overflow`]
    /// if the total exceeds `u128`, [`DiceError::TooWide`] if the outcomes
    /// span more than [`Dist::MAX_SPAN`].
    pub fn from_weights(pairs: impl IntoIterator<Item = (i64, u128)>) -> Result<Dist, DiceError> {
        let pairs: Vec<(i64, u128)> = pairs.into_iter().filter(|&(_, w)| w != 0).collect();
        let lo = pairs
            .iter()
            .map(|&(k, _)| k)
            .min()
            .ok_or(DiceError::Empty)?;
        let hi = pairs
            .iter()
            .map(|&(k, _)| k)
            .max()
            .ok_or(DiceError::Empty)?;
        let (offset, span) = check_range(lo.into(), hi.into())?;
        let mut weights = vec![0u128; span];
        for (k, w) in pairs {
            let slot = &mut weights[(i128::from(k) - i128::from(lo)) as usize];
            *slot = slot.checked_add(w).ok_or(DiceError::Overflow)?;
        }
        Dist::from_dense(offset, weights)
    }

    /// A `sides`-sided die that explodes at most `max_explosions` times:
    /// whenever it shows `sides` and explosions remain, it is rolled again and
    /// added. `max_explosions == 0` is a plain die.
    ///
    /// # Errors
    /// [`DiceError::InvalidSides`] for `sides == 0`; [`DiceError::Overflow`]
    /// if `sides^(max_explosions + 1)` exceeds `u128`; [`DiceError::TooWide`]
    /// if `sides · (max_explosions + 1)` exceeds [`Dist::MAX_SPAN`].
    pub fn exploding(sides: u32, max_explosions: u32) -> Result<Dist, DiceError> {
        if sides == 0 {
            return Err(DiceError::InvalidSides { sides });
        }
        let rolls = u128::from(max_explosions) + 1;
        if sides == 1 {
            return Ok(Dist::constant(rolls as i64));
        }
        let s = u128::from(sides);
        let total = s
            .checked_pow(max_explosions + 1)
            .ok_or(DiceError::Overflow)?;
        let (_, span) = check_range(1, (s * rolls) as i128)?;
        // Outcome s·m + f: m explosions then face f. For m < k only f < s ends
        // the chain (probability s^-(m+1), weight s^(k-m)); the last roll,
        // m = k, may show any face (weight 1).
        let mut weights = vec![0u128; span];
        let mut w = total / s;
        for m in 0..=max_explosions as usize {
            let faces = if m == max_explosions as usize {
                sides
            } else {
                sides - 1
            };
            let base = m * sides as usize;
            weights[base..base + faces as usize].fill(w);
            w /= s;
        }
        Ok(Dist {
            offset: 1,
            weights,
            total,
        })
    }

    /// The distribution of the sum of independent draws from `self` and `other`.
    ///
    /// # Errors
    /// [`DiceError::Overflow`] if the product of the totals or an outcome
    /// overflows; [`DiceError::TooWide`] if the result spans too many outcomes.
    pub fn convolve(&self, other: &Dist) -> Result<Dist, DiceError> {
        let total = self
            .total
            .checked_mul(other.total)
            .ok_or(DiceError::Overflow)?;
        let lo = i128::from(self.offset) + i128::from(other.offset);
        let hi = i128::from(self.max()) + i128::from(other.max());
        let (offset, span) = check_range(lo, hi)?;
        // Every partial sum below is at most `total`, so plain arithmetic
        // cannot overflow. By Gauss's lemma the product of two weight
        // polynomials without common factor has none either, and its end
        // weights are products of non-zero end weights: no trimming needed.
        let (long, short) = if self.weights.len() >= other.weights.len() {
            (&self.weights, &other.weights)
        } else {
            (&other.weights, &self.weights)
        };
        let weights = if short.len() > 8 && short.iter().all(|&w| w == 1) {
            convolve_flat(long, short.len(), span)
        } else if long.len() > 8 && long.iter().all(|&w| w == 1) {
            convolve_flat(short, long.len(), span)
        } else {
            let mut out = vec![0u128; span];
            for (i, &x) in short.iter().enumerate() {
                if x != 0 {
                    for (o, &y) in out[i..i + long.len()].iter_mut().zip(long.iter()) {
                        *o += x * y;
                    }
                }
            }
            out
        };
        Ok(Dist {
            offset,
            weights,
            total,
        })
    }

    /// The distribution of the sum of `n` independent copies of `self`
    /// (`n == 0` gives the constant 0).
    ///
    /// # Errors
    /// As [`Dist::convolve`].
    pub fn sum_iid(&self, n: u32) -> Result<Dist, DiceError> {
        if n == 0 {
            return Ok(Dist::constant(0));
        }
        // Fail fast, before any work, if the result cannot be represented.
        self.total.checked_pow(n).ok_or(DiceError::Overflow)?;
        check_range(
            i128::from(self.min()) * i128::from(n),
            i128::from(self.max()) * i128::from(n),
        )?;
        if self.weights.iter().all(|&w| w == 1) {
            // Flat dice: sequential convolution uses the linear-time sliding window.
            let mut acc = self.clone();
            for _ in 1..n {
                acc = acc.convolve(self)?;
            }
            return Ok(acc);
        }
        // Otherwise: square and multiply.
        let mut result: Option<Dist> = None;
        let mut power = self.clone();
        let mut n = n;
        loop {
            if n & 1 == 1 {
                result = Some(match result {
                    None => power.clone(),
                    Some(r) => r.convolve(&power)?,
                });
            }
            n >>= 1;
            if n == 0 {
                break;
            }
            power = power.convolve(&power)?;
        }
        Ok(result.expect("n >= 1"))
    }

    /// The distribution of the larger of independent draws from `self` and `other`
    /// (e.g. advantage: `d20.max_of(&d20)`).
    ///
    /// # Errors
    /// [`DiceError::Overflow`] if the product of the totals overflows.
    pub fn max_of(&self, other: &Dist) -> Result<Dist, DiceError> {
        let total = self
            .total
            .checked_mul(other.total)
            .ok_or(DiceError::Overflow)?;
        let lo = self.min().max(other.min());
        let hi = self.max().max(other.max());
        let (mut ca, mut cb) = (self.cum_below(lo), other.cum_below(lo));
        let mut prev = ca * cb;
        let mut weights = Vec::with_capacity((i128::from(hi) - i128::from(lo) + 1) as usize);
        for k in lo..=hi {
            ca += self.weight(k);
            cb += other.weight(k);
            let cur = ca * cb;
            weights.push(cur - prev);
            prev = cur;
        }
        debug_assert_eq!(prev, total);
        Dist::from_dense(lo, weights)
    }

    /// The distribution of the smaller of independent draws from `self` and `other`
    /// (e.g. disadvantage).
    ///
    /// # Errors
    /// [`DiceError::Overflow`] if the product of the totals overflows.
    pub fn min_of(&self, other: &Dist) -> Result<Dist, DiceError> {
        let total = self
            .total
            .checked_mul(other.total)
            .ok_or(DiceError::Overflow)?;
        let lo = self.min().min(other.min());
        let hi = self.max().min(other.max());
        let (mut sa, mut sb) = (self.cum_above(hi), other.cum_above(hi));
        let mut prev = sa * sb;
        let mut weights = Vec::with_capacity((i128::from(hi) - i128::from(lo) + 1) as usize);
        for k in (lo..=hi).rev() {
            sa += self.weight(k);
            sb += other.weight(k);
            let cur = sa * sb;
            weights.push(cur - prev);
            prev = cur;
        }
        debug_assert_eq!(prev, total);
        weights.reverse();
        Dist::from_dense(lo, weights)
    }

    /// The distribution of `f(x)`; outcomes mapping to the same value merge.
    ///
    /// # Panics
    /// If the mapped outcomes span more than [`Dist::MAX_SPAN`].
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Dist {
        Dist::from_weights(self.iter().map(|(k, w)| (f(k), w)))
            .unwrap_or_else(|e| panic!("Dist::map: {e}"))
    }

    /// The distribution of `x + k`, or [`DiceError::Overflow`] if an outcome leaves `i64`.
    pub fn checked_shift(&self, k: i64) -> Result<Dist, DiceError> {
        let offset = self.offset.checked_add(k).ok_or(DiceError::Overflow)?;
        self.max().checked_add(k).ok_or(DiceError::Overflow)?;
        Ok(Dist {
            offset,
            weights: self.weights.clone(),
            total: self.total,
        })
    }

    /// The distribution of `x + k`.
    ///
    /// # Panics
    /// If an outcome overflows `i64` (see [`Dist::checked_shift`]).
    pub fn shift(&self, k: i64) -> Dist {
        self.checked_shift(k)
            .unwrap_or_else(|e| panic!("Dist::shift({k}): {e}"))
    }

    /// The distribution of `-x`.
    ///
    /// # Panics
    /// If `i64::MIN` is an outcome.
    pub fn negate(&self) -> Dist {
        let offset = self
            .max()
            .checked_neg()
            .expect("Dist::negate: cannot negate i64::MIN");
        self.min()
            .checked_neg()
            .expect("Dist::negate: cannot negate i64::MIN");
        let mut weights = self.weights.clone();
        weights.reverse();
        Dist {
            offset,
            weights,
            total: self.total,
        }
    }

    /// The distribution of `k · x`.
    ///
    /// # Panics
    /// If an outcome overflows `i64` or the result spans more than [`Dist::MAX_SPAN`].
    pub fn scale(&self, k: i64) -> Dist {
        match k {
            0 => Dist::constant(0),
            1 => self.clone(),
            -1 => self.negate(),
            _ => {
                let ends = [self.min(), self.max()].map(|x| i128::from(x) * i128::from(k));
                let (lo, hi) = (ends[0].min(ends[1]), ends[0].max(ends[1]));
                let (offset, span) =
                    check_range(lo, hi).unwrap_or_else(|e| panic!("Dist::scale({k}): {e}"));
                let mut weights = vec![0u128; span];
                for (x, w) in self.iter() {
                    weights[(i128::from(x) * i128::from(k) - lo) as usize] = w;
                }
                Dist {
                    offset,
                    weights,
                    total: self.total,
                }
            }
        }
    }

    /// The weight of outcome `k` (0 outside the support).
    pub fn weight(&self, k: i64) -> u128 {
        let i = i128::from(k) - i128::from(self.offset);
        usize::try_from(i)
            .ok()
            .and_then(|i| self.weights.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// Sum of the weights of outcomes `< k`.
    fn cum_below(&self, k: i64) -> u128 {
        let end = (i128::from(k) - i128::from(self.offset)).clamp(0, self.weights.len() as i128);
        self.weights[..end as usize].iter().sum()
    }

    /// Sum of the weights of outcomes `> k`.
    fn cum_above(&self, k: i64) -> u128 {
        let start =
            (i128::from(k) - i128::from(self.offset) + 1).clamp(0, self.weights.len() as i128);
        self.weights[start as usize..].iter().sum()
    }

    /// `P(X = k)`.
    pub fn p(&self, k: i64) -> f64 {
        self.weight(k) as f64 / self.total as f64
    }

    /// `P(X = k)` as a reduced fraction `(numerator, denominator)`; `(0, 1)` if impossible.
    pub fn ratio(&self, k: i64) -> (u128, u128) {
        reduce(self.weight(k), self.total)
    }

    /// `P(X >= k)`.
    pub fn p_at_least(&self, k: i64) -> f64 {
        self.at_least_weight(k) as f64 / self.total as f64
    }

    /// `P(X >= k)` as a reduced fraction.
    pub fn ratio_at_least(&self, k: i64) -> (u128, u128) {
        reduce(self.at_least_weight(k), self.total)
    }

    /// `P(X <= k)`.
    pub fn p_at_most(&self, k: i64) -> f64 {
        self.at_most_weight(k) as f64 / self.total as f64
    }

    /// `P(X <= k)` as a reduced fraction.
    pub fn ratio_at_most(&self, k: i64) -> (u128, u128) {
        reduce(self.at_most_weight(k), self.total)
    }

    fn at_least_weight(&self, k: i64) -> u128 {
        k.checked_sub(1).map_or(self.total, |k| self.cum_above(k))
    }

    fn at_most_weight(&self, k: i64) -> u128 {
        k.checked_add(1).map_or(self.total, |k| self.cum_below(k))
    }

    /// The mean `E[X]`.
    pub fn mean(&self) -> f64 {
        self.offset as f64 + self.mean_from_offset()
    }

    /// Mean of `X - offset`, computed relative to the offset to avoid cancellation.
    fn mean_from_offset(&self) -> f64 {
        let total = self.total as f64;
        self.weights
            .iter()
            .enumerate()
            .map(|(i, &w)| i as f64 * (w as f64 / total))
            .sum()
    }

    /// The variance `Var[X]`.
    pub fn variance(&self) -> f64 {
        let m = self.mean_from_offset();
        let total = self.total as f64;
        self.weights
            .iter()
            .enumerate()
            .map(|(i, &w)| (i as f64 - m).powi(2) * (w as f64 / total))
            .sum()
    }

    /// The standard deviation.
    pub fn std_dev(&self) -> f64 {
        self.variance().sqrt()
    }

    /// The smallest possible outcome.
    pub fn min(&self) -> i64 {
        self.offset
    }

    /// The largest possible outcome.
    pub fn max(&self) -> i64 {
        self.offset + (self.weights.len() - 1) as i64
    }

    /// The sum of all weights: the common denominator of every probability.
    pub fn total(&self) -> u128 {
        self.total
    }

    /// `(outcome, weight)` for every possible outcome, ascending; zero weights are skipped.
    pub fn iter(&self) -> impl Iterator<Item = (i64, u128)> + '_ {
        self.weights
            .iter()
            .enumerate()
            .filter(|&(_, &w)| w != 0)
            .map(|(i, &w)| (self.offset + i as i64, w))
    }

    /// `(outcome, probability)` for every possible outcome, ascending.
    pub fn to_f64_pairs(&self) -> Vec<(i64, f64)> {
        let total = self.total as f64;
        self.iter().map(|(k, w)| (k, w as f64 / total)).collect()
    }
}

/// Convolution of `a` with `len` consecutive weights of 1, by a sliding window sum.
fn convolve_flat(a: &[u128], len: usize, span: usize) -> Vec<u128> {
    let mut out = Vec::with_capacity(span);
    let mut window = 0u128;
    for k in 0..span {
        if let Some(&x) = a.get(k) {
            window += x;
        }
        if k >= len {
            window -= a.get(k - len).copied().unwrap_or(0);
        }
        out.push(window);
    }
    out
}

#[cfg(test)]
mod tests;
