//! The duel loop and the exact solver, shared by every ruleset.
//!
//! A ruleset writes its duel as a state machine (`Ruleset::step` = one round start or one
//! attack). The Monte Carlo duel ([`duel`]) runs `step` with a random roller until it ends;
//! the exact solver ([`solve`]) keeps the probability of every live state and advances them
//! all by one `step` run under [`crate::roller::enumerate`] (every face of every die it reads),
//! until the live mass is negligible. The two cannot drift apart.
//!
//! **Order of sums.** Live states are visited in their `Ord` order and every probability is
//! added to its successor in the order the transitions are emitted, as with ordered maps; the
//! maps are hash maps plus one sort per iteration (much faster than `BTreeMap`s when fighters
//! dodge or spend Grace), which gives the very same floating-point results. So do the three
//! ways of finding a state's transitions ([`Transitions`]) where their contracts say so.
//!
//! **Exact branching.** The enumerating roller (`Odometer`) runs `step` once per leaf of the
//! face sequences it reads (`roller::enumerate`), except that dice a step uses only through one
//! number (`Roller::outcome`: a class or a total) branch once per distinct value with its exact
//! probability, while every other roller rolls those same faces. `roller::Branching::Faces`
//! keeps the face-by-face enumeration, and tests hold the two within [`BRANCHING_TOLERANCE`]
//! (`solve_branching`, `max_difference`). The enumerating roller alone may also let a step
//! leave a die unread until the one outcome that uses it (`Roller::defers`: gamecraft's dodge
//! die, branched on with the attack that meets it); every other roller reads it where the rules
//! roll it. The exact solver passes a `NoTally`.
//!
//! **Modes and bounds.** An optional round-normalised transition cache (`CACHE_TRANSITIONS`,
//! `cache_round`, `capped`) serves a `step` that cannot tell rounds apart; cached and uncached
//! modes give the same floating-point values bit for bit (tested per ruleset). A solve stops at
//! [`MAX_LIVE_STATES`] live states or [`MAX_WORK`] `step` runs (a count, not a clock, so the
//! same duel always gets the same answer); beyond them `exact` is `None`. A caller that
//! abandons solves (the explorer) runs them under [`with_stop`]: a raised flag ends the solve
//! at its next state with `None`, and a solve whose flag stays down answers exactly as without
//! it. Wherever an exact value was asked for and none came, the run says why in the terminal
//! and the report (`Ruleset::no_exact_reason` for a ruleset that never solves under its
//! options, else the budget).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::outcome::{NoTally, OutcomeTally};
use crate::roller::{Branching, enumerate_by};
use crate::{DuelOutcome, Ending, ExactDuel, Roller, Ruleset, Winner};

thread_local! {
    /// This thread's stop request for exact solves ([`with_stop`]).
    static STOP: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` with `stop` as the stop request of the exact solves `f` makes on this thread: a
/// solve that finds the flag raised gives up at its next state and answers `None`, as beyond
/// its work budget. For callers that abandon solves (the explorer, when a newer edit
/// arrives); the answer of a solve that was not stopped is unchanged.
pub fn with_stop<T>(stop: Arc<AtomicBool>, f: impl FnOnce() -> T) -> T {
    /// Puts the enclosing request back, also when `f` panics.
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let old = self.0.take();
            STOP.with(|s| *s.borrow_mut() = old);
        }
    }
    let _restore = Restore(STOP.with(|s| s.replace(Some(stop))));
    f()
}

/// Whether the exact solves on this thread were asked to stop ([`with_stop`]).
#[inline]
pub fn stop_requested() -> bool {
    STOP.with(|s| {
        s.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

/// The result of one step of a duel state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The duel goes on.
    Continue,
    /// The duel is over.
    Over(Winner, Ending),
}

/// A duel state between steps: small, copied, ordered and hashed by the exact solver.
pub trait DuelState: Copy + Ord + Hash + std::fmt::Debug + Send + Sync {
    /// The round number (0 before the first round).
    fn round(&self) -> u32;
    /// The same state in another round (used by the transition cache).
    fn with_round(self, round: u32) -> Self;
}

/// Implements [`DuelState`] for a state struct with a `round: u32` field.
#[macro_export]
#[doc(hidden)]
macro_rules! duel_state {
    ($state:ty) => {
        impl $crate::DuelState for $state {
            #[inline]
            fn round(&self) -> u32 {
                self.round
            }
            #[inline]
            fn with_round(self, round: u32) -> Self {
                Self { round, ..self }
            }
        }
    };
}

/// Runs a duel state machine with a random roller until it ends (the Monte Carlo duel).
#[inline]
pub fn play<S>(s: &mut S, mut step: impl FnMut(&mut S) -> Step) -> (Winner, Ending) {
    loop {
        if let Step::Over(w, e) = step(s) {
            return (w, e);
        }
    }
}

/// One Monte Carlo duel of ruleset `r` (the default `Ruleset::duel`): [`play`] from
/// `Ruleset::start` with an [`OutcomeTally`]; the rounds are capped at `max_rounds`.
#[inline]
pub fn duel<G: Ruleset, R: Roller>(r: &G, m: &G::Matchup, roller: &mut R) -> DuelOutcome {
    let mut s = r.start(m);
    let mut tally = OutcomeTally::default();
    let (winner, ending) = play(&mut s, |s| r.step(m, s, roller, &mut tally));
    DuelOutcome {
        winner,
        ending,
        rounds: s.round().min(r.max_rounds()),
        ..tally.0
    }
}

/// Live probability mass below which the solver stops (reported as `truncated`).
pub const NEGLIGIBLE_MASS: f64 = 1e-15;

/// Largest number of live states (or cached transition lists) the solver tracks; beyond it
/// (huge state spaces) it gives up and the ruleset reports no exact value rather than exhaust
/// memory.
pub const MAX_LIVE_STATES: usize = 200_000;

/// The exact solver's work budget: the most `step` runs (or, in a ruleset's own solver,
/// outcome emissions) one solve makes before it gives up and the ruleset reports no exact
/// value, so the caller falls back to Monte Carlo instead of running for hours. A count, not
/// a clock, so the same duel always gets the same answer; at 20–100 ns a run it is 6–30 s.
pub const MAX_WORK: u64 = 300_000_000;

/// How the exact solver finds the transitions of a live state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transitions {
    /// Run `step` on the state for every face sequence and pass every leaf on as it comes
    /// (the default: no assumption on `step`).
    Leaves,
    /// Run `step` on the state, merge the leaves by successor state (sums in leaf order) and
    /// pass them on in state order. The reference for [`Transitions::Cached`].
    Merged,
    /// As [`Transitions::Merged`], but computed once per round-normalised state
    /// (`Ruleset::cache_round`) and cached; the round cap is applied before `step`
    /// (`Ruleset::capped`). Gives exactly the numbers of `Merged` when `step` cannot tell
    /// rounds of the same cache round apart (`Ruleset::CACHE_TRANSITIONS`).
    Cached,
}

impl Transitions {
    /// The mode a ruleset asks for: `Cached` if it opts in, else `Leaves`.
    pub fn of<G: Ruleset>() -> Transitions {
        if G::CACHE_TRANSITIONS {
            Transitions::Cached
        } else {
            Transitions::Leaves
        }
    }
}

/// Solves a duel of ruleset `r` exactly from `start` (the default `Ruleset::exact` starts at
/// `Ruleset::start`), with the ruleset's own [`Transitions`] mode; `None` if the state space is
/// too large.
pub fn solve<G: Ruleset>(r: &G, m: &G::Matchup, start: G::State) -> Option<ExactDuel> {
    solve_with(r, m, start, Transitions::of::<G>())
}

/// [`solve`] with a chosen [`Transitions`] mode (tests compare the modes).
pub fn solve_with<G: Ruleset>(
    r: &G,
    m: &G::Matchup,
    start: G::State,
    mode: Transitions,
) -> Option<ExactDuel> {
    solve_branching(r, m, start, mode, Branching::Outcomes)
}

/// [`solve_with`], enumerating the dice of a `Roller::outcome` as `branching` says: tests
/// compare the outcome branching with the face-by-face enumeration it replaces (the same
/// numbers up to the order of floating-point sums).
pub fn solve_branching<G: Ruleset>(
    r: &G,
    m: &G::Matchup,
    start: G::State,
    mode: Transitions,
    branching: Branching,
) -> Option<ExactDuel> {
    let mut totals = Totals::new(r.max_rounds());
    let truncated = iterate_by(r, m, start, mode, MAX_WORK, branching, |s, w, p| {
        totals.over(s.round(), w, p)
    })?;
    Some(totals.finish(truncated))
}

/// How far apart two solutions are: the largest absolute difference of their probabilities
/// (P(A), P(B), P(draw), the truncated mass and every round's probability), and the relative
/// difference of their mean fight lengths (a sum of round × probability over up to
/// `max_rounds` rounds, so its rounding errors are larger). Infinite when their fight-length
/// distributions differ in length.
pub fn max_difference(a: &ExactDuel, b: &ExactDuel) -> (f64, f64) {
    if a.rounds_pmf.len() != b.rounds_pmf.len() {
        return (f64::INFINITY, f64::INFINITY);
    }
    let p = [
        (a.p_a_win, b.p_a_win),
        (a.p_b_win, b.p_b_win),
        (a.p_draw, b.p_draw),
        (a.truncated, b.truncated),
    ]
    .into_iter()
    .chain(
        a.rounds_pmf
            .iter()
            .copied()
            .zip(b.rounds_pmf.iter().copied()),
    )
    .map(|(x, y)| (x - y).abs())
    .fold(0.0, f64::max);
    let mean = (a.mean_rounds - b.mean_rounds).abs() / a.mean_rounds.abs().max(1.0);
    (p, mean)
}

/// The tolerances the outcome branching meets against the face-by-face enumeration
/// ([`max_difference`]): 1e-12 on every probability, 1e-11 (relative) on the mean fight
/// length.
pub const BRANCHING_TOLERANCE: (f64, f64) = (1e-12, 1e-11);

/// The forward iteration of ruleset `r` from `start`: calls `over(state, winner, p)` for
/// every way the duel ends, in a fixed order, and returns the live mass left (`truncated`);
/// `None` if the state space is too large ([`MAX_LIVE_STATES`]) or the work exceeds
/// [`MAX_WORK`] `step` runs, or when asked to stop ([`with_stop`]). For figures beyond
/// [`ExactDuel`].
pub fn iterate<G: Ruleset>(
    r: &G,
    m: &G::Matchup,
    start: G::State,
    mode: Transitions,
    over: impl FnMut(&G::State, Winner, f64),
) -> Option<f64> {
    iterate_within(r, m, start, mode, MAX_WORK, over)
}

/// [`iterate`] with a work budget of `max_work` `step` runs instead of [`MAX_WORK`].
pub fn iterate_within<G: Ruleset>(
    r: &G,
    m: &G::Matchup,
    start: G::State,
    mode: Transitions,
    max_work: u64,
    over: impl FnMut(&G::State, Winner, f64),
) -> Option<f64> {
    iterate_by(r, m, start, mode, max_work, Branching::Outcomes, over)
}

/// [`iterate_within`] with the dice of a `Roller::outcome` enumerated as `branching` says.
fn iterate_by<G: Ruleset>(
    r: &G,
    m: &G::Matchup,
    start: G::State,
    mode: Transitions,
    max_work: u64,
    branching: Branching,
    over: impl FnMut(&G::State, Winner, f64),
) -> Option<f64> {
    let mut merged: Accumulator<G::State, Step> = Accumulator::new();
    let work = std::cell::Cell::new(0u64);
    let within_budget = || work.get() <= max_work;
    let leaves = |s: G::State, f: &mut dyn FnMut(G::State, Step, f64)| {
        enumerate_by(
            branching,
            |roller| {
                work.set(work.get() + 1);
                let mut s2 = s;
                let st = r.step(m, &mut s2, roller, &mut NoTally);
                (s2, st)
            },
            |(s2, st), q| f(s2, st, q),
        );
    };
    match mode {
        Transitions::Leaves => iterate_with(start, over, |s, p, fr| {
            leaves(*s, &mut |s2, st, q| fr.emit(s2, st, p * q));
            within_budget()
        }),
        Transitions::Merged => iterate_with(start, over, |s, p, fr| {
            leaves(*s, &mut |s2, st, q| merged.add(s2, st, q));
            for (s2, st, q) in merged.take_sorted() {
                fr.emit(s2, st, p * q);
            }
            within_budget()
        }),
        Transitions::Cached => {
            let mut cache: StateMap<G::State, TransitionList<G::State>> = StateMap::default();
            iterate_with(start, over, |s, p, fr| {
                if r.capped(s) {
                    fr.emit(*s, Step::Over(Winner::Draw, Ending::RoundCap), p);
                    return true;
                }
                let key = s.with_round(r.cache_round(s.round()));
                let trans = cache.entry(key).or_insert_with(|| {
                    leaves(key, &mut |s2, st, q| merged.add(s2, st, q));
                    merged.take_sorted()
                });
                for &(s2, st, q) in trans.iter() {
                    let s2 = s2.with_round(s.round() + (s2.round() - key.round()));
                    fr.emit(s2, st, p * q);
                }
                cache.len() <= MAX_LIVE_STATES && within_budget()
            })
        }
    }
}

/// Propagates probability from `start` until the duel is decided or the remaining mass is
/// below [`NEGLIGIBLE_MASS`]. `transitions(state, emit)` must call `emit(next, step, p)` for
/// every outcome of one step from `state` (probabilities summing to 1) and return `false` if
/// it gives up. `round_of` reads a state's round, used for the fight-length distribution.
/// (Rulesets use [`solve`]; this is the same iteration over any transition function, kept
/// for tests that compare a hand-written transition function with it.)
#[cfg(test)]
pub(crate) fn forward<S: Copy + Ord + Hash>(
    start: S,
    max_rounds: u32,
    round_of: impl Fn(&S) -> u32,
    mut transitions: impl FnMut(&S, &mut dyn FnMut(S, Step, f64)) -> bool,
) -> Option<ExactDuel> {
    let mut totals = Totals::new(max_rounds);
    let truncated = iterate_with(
        start,
        |s, w, p| totals.over(round_of(s), w, p),
        |s, p, fr| transitions(s, &mut |s2, r, q| fr.emit(s2, r, p * q)),
    )?;
    Some(totals.finish(truncated))
}

/// Where one iteration's transitions go: live successors, and ended duels to `over`.
struct Frontier<S, F> {
    next: Accumulator<S, ()>,
    over: F,
}

impl<S: Copy + Ord + Hash, F: FnMut(&S, Winner, f64)> Frontier<S, F> {
    #[inline]
    fn emit(&mut self, s2: S, r: Step, p: f64) {
        match r {
            Step::Continue => self.next.add(s2, (), p),
            Step::Over(w, _) => (self.over)(&s2, w, p),
        }
    }
}

/// The forward iteration: `advance(state, p, frontier)` emits the transitions of one live
/// state of mass `p` (returns `false` to give up). Returns the live mass left.
fn iterate_with<S: Copy + Ord + Hash, F: FnMut(&S, Winner, f64)>(
    start: S,
    over: F,
    mut advance: impl FnMut(&S, f64, &mut Frontier<S, F>) -> bool,
) -> Option<f64> {
    let mut fr = Frontier {
        next: Accumulator::new(),
        over,
    };
    let mut live: Vec<(S, (), f64)> = vec![(start, (), 1.0)];
    while !live.is_empty() && live.iter().map(|x| x.2).sum::<f64>() >= NEGLIGIBLE_MASS {
        for &(s, (), p) in &live {
            if !advance(&s, p, &mut fr) || stop_requested() {
                return None;
            }
        }
        if fr.next.len() > MAX_LIVE_STATES {
            return None;
        }
        live = fr.next.take_sorted();
    }
    Some(live.iter().map(|x| x.2).sum::<f64>())
}

/// P(A), P(B), P(draw) and the fight-length distribution, summed as the duels end.
struct Totals {
    p: [f64; 3],
    rounds_pmf: Vec<f64>,
}

impl Totals {
    fn new(max_rounds: u32) -> Self {
        Totals {
            p: [0.0; 3],
            rounds_pmf: vec![0.0; max_rounds as usize + 1],
        }
    }
    #[inline]
    fn over(&mut self, round: u32, w: Winner, p: f64) {
        let i = match w {
            Winner::A => 0,
            Winner::B => 1,
            Winner::Draw => 2,
        };
        self.p[i] += p;
        let last = self.rounds_pmf.len() - 1;
        self.rounds_pmf[(round as usize).min(last)] += p;
    }
    fn finish(self, truncated: f64) -> ExactDuel {
        ExactDuel::from_pmf(self.p, self.rounds_pmf, truncated)
    }
}

/// A small multiplicative hasher (states are short runs of small integers).
#[derive(Default)]
struct StateHasher(u64);

impl StateHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for StateHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn write_i8(&mut self, i: i8) {
        self.add(i as u8 as u64);
    }
    #[inline]
    fn write_i16(&mut self, i: i16) {
        self.add(i as u16 as u64);
    }
}

type StateMap<S, V> = HashMap<S, V, BuildHasherDefault<StateHasher>>;

/// A state's cached transitions: (successor, step result, probability), in state order.
type TransitionList<S> = Vec<(S, Step, f64)>;

/// Accumulates probability per state in first-seen order, then hands the states back sorted:
/// the same sums, added in the same order, as a `BTreeMap<S, f64>` (a state's tag is the one
/// it was first seen with).
struct Accumulator<S, T> {
    index: StateMap<S, usize>,
    items: Vec<(S, T, f64)>,
}

impl<S: Copy + Ord + Hash, T> Accumulator<S, T> {
    fn new() -> Self {
        Accumulator {
            index: StateMap::default(),
            items: Vec::new(),
        }
    }
    #[inline]
    fn add(&mut self, s: S, tag: T, p: f64) {
        // Runs of leaves often lead to the same state (every miss, say).
        if let Some(last) = self.items.last_mut()
            && last.0 == s
        {
            last.2 += p;
            return;
        }
        let items = &mut self.items;
        let i = *self.index.entry(s).or_insert_with(|| {
            items.push((s, tag, 0.0));
            items.len() - 1
        });
        self.items[i].2 += p;
    }
    fn len(&self) -> usize {
        self.items.len()
    }
    /// The states in order, in a vector of their own (the working storage is kept, so it
    /// does not grow again from nothing on the next use).
    fn take_sorted(&mut self) -> Vec<(S, T, f64)> {
        self.index.clear();
        self.items.sort_unstable_by_key(|a| a.0);
        self.items.drain(..).collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::roller::enumerate;

    /// The first `forward`: ordered maps throughout, kept as the reference the hashed
    /// iteration must match bit for bit.
    pub(crate) fn btree_forward<S: Copy + Ord>(
        start: S,
        max_rounds: u32,
        round_of: impl Fn(&S) -> u32,
        mut transitions: impl FnMut(&S, &mut dyn FnMut(S, Step, f64)) -> bool,
    ) -> Option<ExactDuel> {
        let mut live: BTreeMap<S, f64> = BTreeMap::new();
        live.insert(start, 1.0);
        let (mut pa, mut pb, mut pd) = (0.0, 0.0, 0.0);
        let mut rounds_pmf = vec![0.0; max_rounds as usize + 1];
        while !live.is_empty() && live.values().sum::<f64>() >= NEGLIGIBLE_MASS {
            let mut next: BTreeMap<S, f64> = BTreeMap::new();
            for (s, p) in live {
                let ok = transitions(&s, &mut |s2, r, q| match r {
                    Step::Continue => *next.entry(s2).or_insert(0.0) += p * q,
                    Step::Over(w, _) => {
                        match w {
                            Winner::A => pa += p * q,
                            Winner::B => pb += p * q,
                            Winner::Draw => pd += p * q,
                        }
                        rounds_pmf[(round_of(&s2) as usize).min(max_rounds as usize)] += p * q;
                    }
                });
                if !ok {
                    return None;
                }
            }
            if next.len() > MAX_LIVE_STATES {
                return None;
            }
            live = next;
        }
        let truncated = live.values().sum::<f64>();
        Some(ExactDuel::from_pmf([pa, pb, pd], rounds_pmf, truncated))
    }

    /// The reference solution of ruleset `r`: [`btree_forward`] over `step` run afresh on
    /// every live state, its leaves passed on as they come (`merge = false`) or merged by
    /// successor in ordered maps (`merge = true`).
    pub(crate) fn reference<G: Ruleset>(
        r: &G,
        m: &G::Matchup,
        start: G::State,
        merge: bool,
    ) -> ExactDuel {
        btree_forward(
            start,
            r.max_rounds(),
            |s| s.round(),
            |s, emit| {
                let mut merged: BTreeMap<G::State, (Step, f64)> = BTreeMap::new();
                enumerate(
                    |roller| {
                        let mut s2 = *s;
                        let st = r.step(m, &mut s2, roller, &mut NoTally);
                        (s2, st)
                    },
                    |(s2, st), q| {
                        if merge {
                            merged.entry(s2).or_insert((st, 0.0)).1 += q;
                        } else {
                            emit(s2, st, q);
                        }
                    },
                );
                for (s2, (st, q)) in merged {
                    emit(s2, st, q);
                }
                true
            },
        )
        .expect("reference solver")
    }

    /// Asserts two exact solutions are the very same numbers.
    pub(crate) fn assert_bits(a: &ExactDuel, b: &ExactDuel) {
        assert_eq!(a.p_a_win.to_bits(), b.p_a_win.to_bits(), "P(A)");
        assert_eq!(a.p_b_win.to_bits(), b.p_b_win.to_bits(), "P(B)");
        assert_eq!(a.p_draw.to_bits(), b.p_draw.to_bits(), "P(draw)");
        assert_eq!(
            a.mean_rounds.to_bits(),
            b.mean_rounds.to_bits(),
            "E[rounds]"
        );
        assert_eq!(a.truncated.to_bits(), b.truncated.to_bits(), "truncated");
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a.rounds_pmf), bits(&b.rounds_pmf), "rounds pmf");
    }

    /// The ruleset's exact solution (branching once per distinct outcome of the dice a step
    /// uses only through one number), checked against the face-by-face enumeration it
    /// replaced: the same numbers up to the order of floating-point sums, within 1e-12.
    pub(crate) fn exact_checked<G: Ruleset>(g: &G, m: &G::Matchup) -> Option<ExactDuel> {
        let e = g.exact(m)?;
        let faces = solve_branching(g, m, g.start(m), Transitions::of::<G>(), Branching::Faces)
            .expect("the face-by-face enumeration solves it too");
        let (p, mean) = max_difference(&e, &faces);
        assert!(
            p <= BRANCHING_TOLERANCE.0 && mean <= BRANCHING_TOLERANCE.1,
            "outcome branching moved a probability by {p:e}, the mean length by {mean:e}"
        );
        Some(e)
    }

    /// Every mode of the shared solver against the ordered-map reference on one matchup:
    /// `Leaves` and `Merged` must equal the reference without and with merging, and the
    /// cache (where the ruleset opts in) must equal `Merged`.
    pub(crate) fn check_modes<G: Ruleset>(r: &G, m: &G::Matchup) {
        let start = r.start(m);
        let leaves = solve_with(r, m, start, Transitions::Leaves).unwrap();
        assert_bits(&leaves, &reference(r, m, start, false));
        let merged = solve_with(r, m, start, Transitions::Merged).unwrap();
        assert_bits(&merged, &reference(r, m, start, true));
        if G::CACHE_TRANSITIONS {
            let cached = solve_with(r, m, start, Transitions::Cached).unwrap();
            assert_bits(&cached, &merged);
        }
        assert_bits(&r.exact(m).unwrap(), &solve(r, m, start).unwrap());
    }

    #[test]
    fn forward_on_a_coin_race_matches_the_ordered_reference() {
        // Each step: A and B each flip a coin; first to 3 heads wins (both at once: a draw).
        type S = (u32, u8, u8);
        let trans = |s: &S, emit: &mut dyn FnMut(S, Step, f64)| {
            for (da, db) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                let n = (s.0 + 1, s.1 + da, s.2 + db);
                let r = match (n.1 >= 3, n.2 >= 3) {
                    (true, true) => Step::Over(Winner::Draw, Ending::Death),
                    (true, false) => Step::Over(Winner::A, Ending::Death),
                    (false, true) => Step::Over(Winner::B, Ending::Death),
                    _ => Step::Continue,
                };
                emit(n, r, 0.25);
            }
            true
        };
        let a = forward((0, 0, 0), 20, |s| s.0, trans).unwrap();
        let b = btree_forward((0, 0, 0), 20, |s| s.0, trans).unwrap();
        assert_bits(&a, &b);
        assert_eq!(a.p_a_win.to_bits(), a.p_b_win.to_bits());
        assert!((a.p_a_win + a.p_b_win + a.p_draw - 1.0).abs() < 1e-12);
    }
}
