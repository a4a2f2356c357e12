//! The exact duel solver: forward iteration over the finite state space.
//!
//! Wound points, Fatigue, Grace, dodge results, distance and the action bookkeeping are all
//! bounded, so the live states are finite (digest §7 D). The solver keeps the probability of
//! every live state and advances them all by one [`step`], enumerating every face of every
//! die the step reads: the very code the Monte Carlo duel runs. A step does not depend on the
//! round number (only the round cap does), so each state's transitions are enumerated once,
//! with the round set to 0, and cached.
//!
//! The iteration is `solver::forward`'s, step for step and sum for sum (states are visited in
//! their `Ord` order and every probability is added in the same order), so it gives the very
//! same floating-point results; it only swaps the ordered maps for hash maps plus one sort
//! per iteration, which is what made the solver slow when fighters dodge or spend Grace.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::duel::{NoTally, State, Step, next_is_round_start, step};
use super::fighter::Matchup;
use super::options::{ExplodeMode, GamecraftOptions};
use crate::roller::enumerate;
use crate::solver::{MAX_LIVE_STATES, NEGLIGIBLE_MASS};
use crate::{ExactDuel, Winner};

type Transitions = Vec<(State, Step, f64)>;

/// A small multiplicative hasher (the states are short runs of small integers).
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
}

type StateMap<V> = HashMap<State, V, BuildHasherDefault<StateHasher>>;

/// Accumulates probability per state in first-seen order, then hands the states back sorted:
/// the same sums, added in the same order, as a `BTreeMap<State, f64>`.
struct Accumulator<T> {
    index: StateMap<usize>,
    items: Vec<(State, T, f64)>,
}

impl<T> Accumulator<T> {
    fn new() -> Self {
        Accumulator {
            index: StateMap::default(),
            items: Vec::new(),
        }
    }
    #[inline]
    fn add(&mut self, s: State, tag: T, p: f64) {
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
    fn take_sorted(&mut self) -> Vec<(State, T, f64)> {
        self.index.clear();
        let mut v = std::mem::take(&mut self.items);
        v.sort_unstable_by_key(|a| a.0);
        v
    }
}

/// Solves a duel exactly up to the round cap; `None` if the state space is too large.
pub fn solve(m: &Matchup, o: &GamecraftOptions) -> Option<ExactDuel> {
    solve_from(m, o, State::start(m))
}

/// Solves from a given state (used by tests for "given who acts first" values).
/// `None` under `explode_mode = "unlimited"`: a die has unboundedly many faces.
pub fn solve_from(m: &Matchup, o: &GamecraftOptions, start: State) -> Option<ExactDuel> {
    if o.explode_mode == ExplodeMode::Unlimited {
        return None;
    }
    let max_rounds = o.max_rounds;
    let mut cache: StateMap<Transitions> = StateMap::default();
    let mut merged: Accumulator<Step> = Accumulator::new();
    let mut next: Accumulator<()> = Accumulator::new();
    let mut live: Vec<(State, (), f64)> = vec![(start, (), 1.0)];
    let (mut pa, mut pb, mut pd) = (0.0, 0.0, 0.0);
    let mut rounds_pmf = vec![0.0; max_rounds as usize + 1];
    let mut over = |s2: &State, w: Winner, pq: f64| {
        match w {
            Winner::A => pa += pq,
            Winner::B => pb += pq,
            Winner::Draw => pd += pq,
        }
        rounds_pmf[(s2.round as usize).min(max_rounds as usize)] += pq;
    };
    while !live.is_empty() && live.iter().map(|x| x.2).sum::<f64>() >= NEGLIGIBLE_MASS {
        for &(s, (), p) in &live {
            if next_is_round_start(&s) && s.round >= max_rounds {
                over(&s, Winner::Draw, p * 1.0);
                continue;
            }
            let key = State { round: 0, ..s };
            let trans = cache.entry(key).or_insert_with(|| {
                enumerate(
                    |roller| {
                        let mut s2 = key;
                        let r = step(m, o, &mut s2, roller, &mut NoTally);
                        (s2, r)
                    },
                    |(s2, r), q| merged.add(s2, r, q),
                );
                merged.take_sorted()
            });
            for &(s2, r, q) in trans.iter() {
                let s2 = State {
                    round: s.round + s2.round,
                    ..s2
                };
                match r {
                    Step::Continue => next.add(s2, (), p * q),
                    Step::Over(w, _) => over(&s2, w, p * q),
                }
            }
            if cache.len() > MAX_LIVE_STATES {
                return None;
            }
        }
        if next.len() > MAX_LIVE_STATES {
            return None;
        }
        live = next.take_sorted();
    }
    let truncated = live.iter().map(|x| x.2).sum::<f64>();
    let mean_rounds = rounds_pmf
        .iter()
        .enumerate()
        .map(|(r, p)| r as f64 * p)
        .sum();
    Some(ExactDuel {
        p_a_win: pa,
        p_b_win: pb,
        p_draw: pd,
        mean_rounds,
        rounds_pmf,
        truncated,
    })
}
