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

/// A roller that replays a fixed tape of faces and notes when it runs past the end (face 1
/// from there on), e.g. to check that a step reads no dice.
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

/// The roller [`enumerate`] runs a step with: it replays the faces chosen so far and, past
/// them, chooses face 1 of every further die and notes the die (its sides and the probability
/// of the faces so far), so that one run of the step reaches one leaf.
#[derive(Debug, Default)]
pub struct Odometer {
    /// The faces of this run's dice, in the order the step read them.
    faces: Vec<u32>,
    /// The sides of each of those dice.
    sides: Vec<u32>,
    /// The probability of the faces up to and including each die (`1/s₁/s₂/…`, divided in
    /// that order).
    probs: Vec<f64>,
    /// Dice read in this run.
    pos: usize,
}

impl Roller for Odometer {
    #[inline]
    fn roll(&mut self, sides: u32) -> u32 {
        let pos = self.pos;
        self.pos += 1;
        if let Some(&v) = self.faces.get(pos) {
            return v;
        }
        let p = self.probs.last().copied().unwrap_or(1.0) / f64::from(sides);
        self.faces.push(1);
        self.sides.push(sides);
        self.probs.push(p);
        1
    }
}

impl Odometer {
    /// Moves to the next sequence of faces in lexicographic order (the last die with a face
    /// left turns to its next face, the dice after it are read afresh); `false` after the last.
    #[inline]
    fn advance(&mut self) -> bool {
        self.pos = 0;
        while let (Some(face), Some(&sides)) = (self.faces.last_mut(), self.sides.last()) {
            if *face < sides {
                *face += 1;
                return true;
            }
            self.faces.pop();
            self.sides.pop();
            self.probs.pop();
        }
        false
    }
}

/// Calls `f` once for every sequence of faces the step asks for, with its probability.
///
/// `step` is run with an [`Odometer`] roller: it reads the faces chosen so far and face 1 for
/// every die past them, so each run ends at one leaf; the next run turns the last die that has
/// a face left to that face. Outcomes are reported in lexicographic order of their faces (the
/// order of a depth-first walk that branches on every face of each die in turn), each leaf's
/// probability is `1/s₁/s₂/…` divided in die order, and the step runs once per leaf (a
/// re-run per branching die would cost a run per inner node of the tree as well).
pub fn enumerate<T>(mut step: impl FnMut(&mut Odometer) -> T, mut f: impl FnMut(T, f64)) {
    let mut odo = Odometer {
        faces: Vec::with_capacity(16),
        sides: Vec::with_capacity(16),
        probs: Vec::with_capacity(16),
        pos: 0,
    };
    loop {
        let out = step(&mut odo);
        f(out, odo.probs.last().copied().unwrap_or(1.0));
        // A step reads every face it was given (the faces chosen are the ones it read).
        debug_assert_eq!(
            odo.pos,
            odo.faces.len(),
            "a step read fewer dice than before"
        );
        if !odo.advance() {
            return;
        }
    }
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
