//! Where rulesets get their dice from.
//!
//! A ruleset's duel and checks take any [`Roller`]. The Monte Carlo engine passes a
//! [`RngRoller`] over a seeded stream; exact solvers pass a roller that replays chosen faces, so
//! the same rules code serves both and they cannot drift apart.

use oddsmith_dice::{Die, roll};
use rand_core::RngCore;

/// A source of fair die rolls.
pub trait Roller {
    /// A fair roll of a die with `sides` faces, 1..=sides.
    fn roll(&mut self, sides: u32) -> u32;
    /// A fair d10 (the common case, kept separate so it can use a precomputed [`Die`]).
    #[inline]
    fn d10(&mut self) -> u32 {
        self.roll(10)
    }
}

/// A [`Roller`] over a random stream.
#[derive(Debug)]
pub struct RngRoller<'a, R: RngCore> {
    rng: &'a mut R,
    d10: Die,
}

impl<'a, R: RngCore> RngRoller<'a, R> {
    /// Wraps a random stream.
    pub fn new(rng: &'a mut R) -> Self {
        RngRoller {
            rng,
            d10: Die::new(10),
        }
    }
}

impl<R: RngCore> Roller for RngRoller<'_, R> {
    #[inline]
    fn roll(&mut self, sides: u32) -> u32 {
        roll(self.rng, sides)
    }
    #[inline]
    fn d10(&mut self) -> u32 {
        self.d10.roll(self.rng)
    }
}

/// A roller that replays a fixed tape of faces and notes when it runs past the end.
///
/// Exact solvers enumerate every tape: run the step with a prefix; if it asked for more dice
/// than the prefix holds, extend the prefix with every face and run again.
#[derive(Debug, Default)]
pub struct TapeRoller<'a> {
    tape: &'a [u32],
    pos: usize,
    /// Sides of the first die asked for past the end of the tape, if any.
    pub wanted: Option<u32>,
}

impl<'a> TapeRoller<'a> {
    /// A roller replaying `tape`.
    pub fn new(tape: &'a [u32]) -> Self {
        TapeRoller {
            tape,
            pos: 0,
            wanted: None,
        }
    }
}

impl Roller for TapeRoller<'_> {
    fn roll(&mut self, sides: u32) -> u32 {
        let v = match self.tape.get(self.pos) {
            Some(&v) => v,
            None => {
                self.wanted.get_or_insert(sides);
                1
            }
        };
        self.pos += 1;
        v
    }
}

/// Calls `f` once for every sequence of faces the step asks for, with its probability.
///
/// `step` is run with a [`TapeRoller`]; whenever it reads past the tape, the enumeration
/// branches on every face of the die it asked for. Outcomes are reported in a fixed order.
pub fn enumerate<T>(mut step: impl FnMut(&mut TapeRoller<'_>) -> T, mut f: impl FnMut(T, f64)) {
    fn go<T>(
        tape: &mut Vec<u32>,
        p: f64,
        step: &mut impl FnMut(&mut TapeRoller<'_>) -> T,
        f: &mut impl FnMut(T, f64),
    ) {
        let mut r = TapeRoller::new(tape);
        let out = step(&mut r);
        match r.wanted {
            None => f(out, p),
            Some(sides) => {
                let q = p / f64::from(sides);
                for face in 1..=sides {
                    tape.push(face);
                    go(tape, q, step, f);
                    tape.pop();
                }
            }
        }
    }
    go(&mut Vec::new(), 1.0, &mut step, &mut f);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumerate_two_d10_covers_all_faces_once() {
        let mut total = 0.0;
        let mut count = 0;
        let mut sum = 0.0;
        enumerate(
            |r| r.d10() + r.d10(),
            |v, p| {
                total += p;
                count += 1;
                sum += f64::from(v) * p;
            },
        );
        assert_eq!(count, 100);
        assert!((total - 1.0).abs() < 1e-12);
        assert!((sum - 11.0).abs() < 1e-12);
    }

    #[test]
    fn enumerate_conditional_dice() {
        // Roll a d2; on 2 roll a d10 too. P(total = 1) = 1/2.
        let mut p1 = 0.0;
        let mut n = 0;
        enumerate(
            |r| {
                let c = r.roll(2);
                if c == 2 { 1 + r.d10() } else { 1 }
            },
            |v, p| {
                n += 1;
                if v == 1 {
                    p1 += p;
                }
            },
        );
        assert_eq!(n, 11);
        assert!((p1 - 0.5).abs() < 1e-15);
    }
}
