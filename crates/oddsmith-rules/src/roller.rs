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
    /// An outcome of several dice that the step uses only through one number (a total, a
    /// class such as miss/hit/critical, the damage left after resistance).
    ///
    /// `draw` rolls it with this roller's own dice: every roller but the exact solver's runs
    /// it, so Monte Carlo reads the very faces it would read without this call. `weights`
    /// gives the same outcome's exact distribution (`Outcomes::add(value, weight)`, integer
    /// weights over any total); the enumerating [`Odometer`] calls it instead of `draw` and
    /// branches once per distinct value rather than once per sequence of faces.
    #[inline]
    fn outcome(
        &mut self,
        weights: impl FnOnce(&mut Outcomes<'_>),
        draw: impl FnOnce(&mut Self) -> i32,
    ) -> i32
    where
        Self: Sized,
    {
        let _ = weights;
        draw(self)
    }
    /// Whether the step may leave a die unread where the rules roll it and fold it into the
    /// one later [`Roller::outcome`] that uses it (whose `weights` then include that die).
    /// Only the enumerating [`Odometer`] under [`Branching::Outcomes`] says yes; every roller
    /// that draws (Monte Carlo, tapes, the face-by-face reference) reads each die where the
    /// rules roll it, so the faces it reads and their order never depend on this.
    #[inline]
    fn defers(&self) -> bool {
        false
    }
    /// Whether this roller draws every die from a random stream (Monte Carlo: [`RngRoller`]
    /// and its [`LocalRoller`]), so that a ruleset's `step` may run on through several steps
    /// in one call (the same steps in the same order, the same dice) where nothing between
    /// them needs to see the state. Every other roller says no: the exact solver enumerates
    /// one step's faces, and tapes and tests look at each step.
    const SAMPLES: bool = false;

    /// The roller a hot loop rolls with: for [`RngRoller`] a copy of its stream that lives in
    /// the loop's own frame (so the generator's state can stay in registers across the loop
    /// instead of being loaded and stored around every draw), written back when it is dropped;
    /// every other roller lends itself. Rolling with it reads the very same dice.
    type Local<'a>: Roller
    where
        Self: 'a;
    /// This roller as [`Roller::Local`].
    fn local(&mut self) -> Self::Local<'_>;
}

/// A borrowed roller rolls as the roller it borrows; an [`Roller::outcome`] it draws with its
/// own dice (an [`Odometer`] lent this way enumerates outcomes face by face: the same
/// probabilities, more branches).
impl<T: Roller> Roller for &mut T {
    #[inline]
    fn roll(&mut self, sides: u32) -> u32 {
        (**self).roll(sides)
    }
    #[inline]
    fn d10(&mut self) -> u32 {
        (**self).d10()
    }
    /// The borrowed roller's answer: `r.defers()` on an `r: &mut R` resolves to this impl (a
    /// `&self` method found by auto-reference), so it must not fall back to the default. A
    /// deferred die is read by the later outcome's `draw`, which this impl runs.
    #[inline]
    fn defers(&self) -> bool {
        (**self).defers()
    }
    const SAMPLES: bool = T::SAMPLES;
    type Local<'a>
        = &'a mut T
    where
        Self: 'a;
    #[inline]
    fn local(&mut self) -> Self::Local<'_> {
        self
    }
}

/// Where [`Roller::outcome`]'s `weights` write an outcome's exact distribution.
#[derive(Debug)]
pub struct Outcomes<'a> {
    raw: &'a mut Vec<(i32, u64)>,
}

impl Outcomes<'_> {
    /// Adds `weight` to the outcome `value` (a value may be added many times; zero weights
    /// are ignored).
    #[inline]
    pub fn add(&mut self, value: i32, weight: u64) {
        if weight > 0 {
            self.raw.push((value, weight));
        }
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

impl<R: RngCore + Clone> Roller for RngRoller<'_, R> {
    const SAMPLES: bool = true;
    #[inline]
    fn roll(&mut self, sides: u32) -> u32 {
        roll(self.rng, sides)
    }
    #[inline]
    fn d10(&mut self) -> u32 {
        self.d10.roll(self.rng)
    }
    type Local<'a>
        = LocalRoller<'a, R>
    where
        Self: 'a;
    #[inline]
    fn local(&mut self) -> LocalRoller<'_, R> {
        LocalRoller {
            rng: self.rng.clone(),
            home: self.rng,
            d10: self.d10,
        }
    }
}

/// [`RngRoller::local`]: a copy of the stream, written back to the stream it came from when
/// dropped.
#[derive(Debug)]
pub struct LocalRoller<'a, R: RngCore + Clone> {
    rng: R,
    home: &'a mut R,
    d10: Die,
}

impl<R: RngCore + Clone> Drop for LocalRoller<'_, R> {
    #[inline]
    fn drop(&mut self) {
        self.home.clone_from(&self.rng);
    }
}

impl<R: RngCore + Clone> Roller for LocalRoller<'_, R> {
    const SAMPLES: bool = true;
    #[inline]
    fn roll(&mut self, sides: u32) -> u32 {
        roll(&mut self.rng, sides)
    }
    #[inline]
    fn d10(&mut self) -> u32 {
        self.d10.roll(&mut self.rng)
    }
    type Local<'b>
        = &'b mut Self
    where
        Self: 'b;
    #[inline]
    fn local(&mut self) -> &mut Self {
        self
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
    type Local<'a>
        = &'a mut Self
    where
        Self: 'a;
    #[inline]
    fn local(&mut self) -> &mut Self {
        self
    }
}

/// How [`enumerate`] branches on a [`Roller::outcome`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Branching {
    /// Once per distinct value of the outcome, with its exact probability (the default).
    #[default]
    Outcomes,
    /// Once per sequence of faces its `draw` reads (every die face by face: the reference
    /// the outcome branching is tested against).
    Faces,
}

/// The roller [`enumerate`] runs a step with: it replays the faces chosen so far and, past
/// them, chooses face 1 of every further die and notes the die (its sides and the probability
/// of the faces so far), so that one run of the step reaches one leaf. An outcome
/// ([`Roller::outcome`]) is a die whose faces are its distinct values, each with its own
/// probability.
#[derive(Debug, Default)]
pub struct Odometer {
    /// The faces of this run's dice, in the order the step read them.
    faces: Vec<u32>,
    /// The sides of each of those dice.
    sides: Vec<u32>,
    /// The probability of the faces up to and including each die (`1/s₁/s₂/…`, divided in
    /// that order; an outcome multiplies by its value's probability).
    probs: Vec<f64>,
    /// For each die, where its values start in `values` if it is an outcome (`NOT_OUTCOME`
    /// for a plain die).
    lists: Vec<u32>,
    /// The distinct values of the outcomes in play and their probabilities, in value order.
    values: Vec<(i32, f64)>,
    /// Working storage for an outcome's weights.
    raw: Vec<(i32, u64)>,
    /// Working storage for an outcome's weights summed by value (over a short span of values).
    dense: Vec<u64>,
    /// Dice read in this run.
    pos: usize,
    /// How outcomes are enumerated.
    branching: Branching,
}

/// `Odometer::lists` entry of a plain die.
const NOT_OUTCOME: u32 = u32::MAX;

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
        self.lists.push(NOT_OUTCOME);
        1
    }

    fn outcome(
        &mut self,
        weights: impl FnOnce(&mut Outcomes<'_>),
        draw: impl FnOnce(&mut Self) -> i32,
    ) -> i32 {
        if self.branching == Branching::Faces {
            return draw(self);
        }
        let pos = self.pos;
        self.pos += 1;
        if let Some(&face) = self.faces.get(pos) {
            return self.values[self.lists[pos] as usize + face as usize - 1].0;
        }
        // A new branching point: its distinct values in order, each weight summed in the
        // order given, then divided by the total once.
        self.raw.clear();
        weights(&mut Outcomes { raw: &mut self.raw });
        sum_by_value(&mut self.raw, &mut self.dense);
        let total: u64 = self.raw.iter().map(|v| v.1).sum();
        assert!(total > 0, "an outcome with no value");
        let start = self.values.len();
        let n = self.raw.len();
        self.values
            .extend(self.raw.iter().map(|&(v, w)| (v, w as f64 / total as f64)));
        let prev = self.probs.last().copied().unwrap_or(1.0);
        self.faces.push(1);
        self.sides.push(n as u32);
        self.probs.push(prev * self.values[start].1);
        self.lists.push(start as u32);
        self.values[start].0
    }
    type Local<'a>
        = &'a mut Self
    where
        Self: 'a;
    #[inline]
    fn local(&mut self) -> &mut Self {
        self
    }

    #[inline]
    fn defers(&self) -> bool {
        self.branching == Branching::Outcomes
    }
}

/// Sums `raw`'s weights by value and leaves one entry per distinct value, in value order.
/// Integer sums do not depend on their order, so counting into `dense` over the values' span
/// (when it is short) gives the same weights as sorting the list and merging its runs.
fn sum_by_value(raw: &mut Vec<(i32, u64)>, dense: &mut Vec<u64>) {
    /// The longest span of values counted densely.
    const DENSE_SPAN: i64 = 1024;
    let (lo, hi) = raw.iter().fold((i32::MAX, i32::MIN), |(lo, hi), v| {
        (lo.min(v.0), hi.max(v.0))
    });
    if raw.len() > 1 && i64::from(hi) - i64::from(lo) < DENSE_SPAN {
        dense.clear();
        dense.resize((hi - lo) as usize + 1, 0);
        for &(v, w) in raw.iter() {
            dense[(v - lo) as usize] += w;
        }
        raw.clear();
        raw.extend(
            dense
                .iter()
                .enumerate()
                .filter(|x| *x.1 > 0)
                .map(|(i, &w)| (lo + i as i32, w)),
        );
        return;
    }
    raw.sort_by_key(|v| v.0);
    raw.dedup_by(|next, kept| {
        let same = next.0 == kept.0;
        if same {
            kept.1 += next.1;
        }
        same
    });
}

impl Odometer {
    /// Moves to the next sequence of faces in lexicographic order (the last die with a face
    /// left turns to its next face, the dice after it are read afresh); `false` after the last.
    #[inline]
    fn advance(&mut self) -> bool {
        self.pos = 0;
        while let (Some(face), Some(&sides)) = (self.faces.last_mut(), self.sides.last()) {
            let list = *self.lists.last().expect("one list entry per die");
            if *face < sides {
                *face += 1;
                if list != NOT_OUTCOME {
                    // An outcome's values differ in probability (a die's faces do not).
                    let n = self.probs.len();
                    let prev = if n > 1 { self.probs[n - 2] } else { 1.0 };
                    self.probs[n - 1] = prev * self.values[list as usize + *face as usize - 1].1;
                }
                return true;
            }
            self.faces.pop();
            self.sides.pop();
            self.probs.pop();
            self.lists.pop();
            if list != NOT_OUTCOME {
                self.values.truncate(list as usize);
            }
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
pub fn enumerate<T>(step: impl FnMut(&mut Odometer) -> T, f: impl FnMut(T, f64)) {
    enumerate_by(Branching::Outcomes, step, f);
}

/// [`enumerate`], branching on outcomes as `branching` says.
pub fn enumerate_by<T>(
    branching: Branching,
    mut step: impl FnMut(&mut Odometer) -> T,
    mut f: impl FnMut(T, f64),
) {
    let mut odo = Odometer {
        faces: Vec::with_capacity(16),
        sides: Vec::with_capacity(16),
        probs: Vec::with_capacity(16),
        lists: Vec::with_capacity(16),
        values: Vec::new(),
        raw: Vec::new(),
        dense: Vec::new(),
        pos: 0,
        branching,
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

    /// Two d6 then, on a total of 7 or more, a d4: the step uses the 2d6 only through "7 or
    /// more", written as an outcome.
    fn two_d6_then_d4(r: &mut impl Roller) -> u32 {
        let high = r.outcome(
            |w| {
                for a in 1..=6 {
                    for b in 1..=6 {
                        w.add(i32::from(a + b >= 7), 1);
                    }
                }
            },
            |r| {
                let a = r.roll(6);
                i32::from(a + r.roll(6) >= 7)
            },
        );
        if high == 1 { 10 + r.roll(4) } else { 0 }
    }

    #[test]
    fn outcomes_branch_once_per_value_with_the_faces_probabilities() {
        let run = |branching| {
            let mut leaves = Vec::new();
            enumerate_by(branching, two_d6_then_d4, |v, p| leaves.push((v, p)));
            leaves
        };
        let by_value = run(Branching::Outcomes);
        let by_faces = run(Branching::Faces);
        // "Under 7" (15/36) then "7 or more" (21/36) times each face of the d4.
        assert_eq!(by_value.len(), 1 + 4);
        assert_eq!(by_faces.len(), 15 + 21 * 4);
        assert_eq!(by_value[0], (0, 15.0 / 36.0));
        for (k, &(v, p)) in by_value[1..].iter().enumerate() {
            assert_eq!(v, 11 + k as u32);
            assert!((p - 21.0 / 36.0 / 4.0).abs() < 1e-16);
        }
        let total =
            |l: &[(u32, f64)], v: u32| -> f64 { l.iter().filter(|x| x.0 == v).map(|x| x.1).sum() };
        for v in [0, 11, 12, 13, 14] {
            assert!((total(&by_value, v) - total(&by_faces, v)).abs() < 1e-15);
        }
        // Any other roller draws the faces: a tape of 3 + 4, then the d4's 2.
        let mut tape = TapeRoller::new(&[3, 4, 2]);
        assert_eq!(two_d6_then_d4(&mut tape), 12);
        assert_eq!(tape.wanted, None);
    }

    /// Weights summed by counting over their span are those of sorting and merging runs,
    /// for short spans (counted) and long ones (sorted) alike.
    #[test]
    fn sums_by_value_count_as_sorting_does() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut dense = Vec::new();
        for (n, span) in [(1, 5), (3, 1), (256, 31), (300, 1500), (40, 4000)] {
            let raw: Vec<(i32, u64)> = (0..n)
                .map(|_| ((next() % span) as i32 - 7, 1 + next() % 1000))
                .collect();
            let mut sorted = raw.clone();
            sorted.sort_by_key(|v| v.0);
            let mut want: Vec<(i32, u64)> = Vec::new();
            for (v, w) in sorted {
                match want.last_mut() {
                    Some(last) if last.0 == v => last.1 += w,
                    _ => want.push((v, w)),
                }
            }
            let mut got = raw;
            sum_by_value(&mut got, &mut dense);
            assert_eq!(got, want, "{n} weights over {span} values");
        }
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
