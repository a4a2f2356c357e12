//! Fair dice and unbiased bounded integers.
//!
//! Everything here is hand-written on top of [`RngCore::next_u64`] so that the
//! sequence of results for a given generator never changes with `rand` releases.

use rand_core::RngCore;

/// Rejection threshold of Lemire's method for range `n`: `2^64 mod n`.
#[inline]
const fn lemire_threshold(n: u64) -> u64 {
    n.wrapping_neg() % n
}

/// An unbiased integer in `[0, n)`.
///
/// Uses Lemire's nearly-divisionless method: a 64×64→128-bit multiply, with a
/// division only on the rare path where a rejection may be needed.
///
/// # Panics
/// If `n == 0`.
#[inline]
pub fn uniform_below<R: RngCore + ?Sized>(rng: &mut R, n: u64) -> u64 {
    assert!(n > 0, "uniform_below: n must be at least 1");
    let mut m = u128::from(rng.next_u64()) * u128::from(n);
    if (m as u64) < n {
        let threshold = lemire_threshold(n);
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (m >> 64) as u64
}

/// A fair die showing `1..=sides`.
///
/// # Panics
/// If `sides == 0`.
#[inline]
pub fn roll<R: RngCore + ?Sized>(rng: &mut R, sides: u32) -> u32 {
    assert!(sides > 0, "roll: a die needs at least 1 side");
    uniform_below(rng, u64::from(sides)) as u32 + 1
}

/// An exploding die: whenever it shows `sides` and explosions remain, roll
/// again and add. `None` means unlimited explosions.
///
/// # Panics
/// If `sides == 0`, or if `sides == 1` with unlimited explosions (it would never stop).
pub fn roll_exploding<R: RngCore + ?Sized>(
    rng: &mut R,
    sides: u32,
    max_explosions: Option<u32>,
) -> i64 {
    Die::new(sides).roll_exploding(rng, max_explosions)
}

/// A fair die with its rejection threshold precomputed, for hot loops.
///
/// [`Die::roll`] produces exactly the same sequence as [`roll`] with the same
/// generator, but needs no division: one multiply and one comparison per roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Die {
    sides: u32,
    threshold: u64,
}

impl Die {
    /// A die with `sides` faces showing `1..=sides`.
    ///
    /// # Panics
    /// If `sides == 0`.
    pub const fn new(sides: u32) -> Die {
        assert!(sides > 0, "Die::new: a die needs at least 1 side");
        Die {
            sides,
            threshold: lemire_threshold(sides as u64),
        }
    }

    /// The number of faces.
    #[inline]
    pub const fn sides(&self) -> u32 {
        self.sides
    }

    /// Roll once: a value in `1..=sides`.
    #[inline]
    pub fn roll<R: RngCore + ?Sized>(&self, rng: &mut R) -> u32 {
        let n = u128::from(self.sides);
        loop {
            let m = u128::from(rng.next_u64()) * n;
            if (m as u64) >= self.threshold {
                return (m >> 64) as u32 + 1;
            }
        }
    }

    /// Roll as an exploding die (see [`roll_exploding`]).
    ///
    /// # Panics
    /// If `sides == 1` with unlimited explosions.
    pub fn roll_exploding<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        max_explosions: Option<u32>,
    ) -> i64 {
        assert!(
            self.sides >= 2 || max_explosions.is_some(),
            "roll_exploding: a d1 cannot explode without a limit"
        );
        let mut left = max_explosions.unwrap_or(u32::MAX);
        let mut total = 0i64;
        loop {
            let face = self.roll(rng);
            total += i64::from(face);
            if face != self.sides || left == 0 {
                return total;
            }
            if max_explosions.is_some() {
                left -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests;
