//! The exact duel solver: forward iteration over the finite state space.
//!
//! Wound points, Fatigue, Grace, dodge results and the action bookkeeping are all bounded, so
//! the live states are finite (digest §7 D). The solver keeps the probability of every live
//! state and advances them all by one [`step`], enumerating every face of every die the step
//! reads: the very code the Monte Carlo duel runs. A step does not depend on the round number
//! (only the round cap does), so each state's transitions are enumerated once, with the round
//! set to 0, and cached.

use std::collections::BTreeMap;

use super::duel::{NoTally, State, Step, next_is_round_start, step};
use super::fighter::Matchup;
use super::options::GamecraftOptions;
use crate::roller::enumerate;
use crate::{ExactDuel, Winner};

/// Live probability mass below which the solver stops (reported as `truncated`).
pub const NEGLIGIBLE_MASS: f64 = 1e-15;

/// Largest number of live (or cached) states the solver tracks; beyond it it gives up.
pub const MAX_LIVE_STATES: usize = 200_000;

type Transitions = Vec<(State, Step, f64)>;

/// Solves a duel exactly up to the round cap; `None` if the state space is too large.
pub fn solve(m: &Matchup, o: &GamecraftOptions) -> Option<ExactDuel> {
    solve_from(m, o, State::start(m))
}

/// Solves from a given state (used by tests for "given who acts first" values).
pub fn solve_from(m: &Matchup, o: &GamecraftOptions, start: State) -> Option<ExactDuel> {
    let mut cache: BTreeMap<State, Transitions> = BTreeMap::new();
    let mut live: BTreeMap<State, f64> = BTreeMap::new();
    live.insert(start, 1.0);
    let (mut pa, mut pb, mut pd) = (0.0, 0.0, 0.0);
    let mut rounds_pmf = vec![0.0; o.max_rounds as usize + 1];
    while !live.is_empty() && live.values().sum::<f64>() >= NEGLIGIBLE_MASS {
        let mut next: BTreeMap<State, f64> = BTreeMap::new();
        for (s, p) in live {
            if next_is_round_start(&s) && s.round >= o.max_rounds {
                pd += p;
                rounds_pmf[s.round as usize] += p;
                continue;
            }
            let key = State { round: 0, ..s };
            let trans = cache.entry(key).or_insert_with(|| {
                let mut merged: BTreeMap<State, (Step, f64)> = BTreeMap::new();
                enumerate(
                    |roller| {
                        let mut s2 = key;
                        let r = step(m, o, &mut s2, roller, &mut NoTally);
                        (s2, r)
                    },
                    |(s2, r), q| {
                        merged.entry(s2).or_insert((r, 0.0)).1 += q;
                    },
                );
                merged.into_iter().map(|(s2, (r, q))| (s2, r, q)).collect()
            });
            for &(s2, r, q) in trans.iter() {
                let s2 = State {
                    round: s.round + s2.round,
                    ..s2
                };
                let pq = p * q;
                match r {
                    Step::Continue => *next.entry(s2).or_insert(0.0) += pq,
                    Step::Over(w, _) => {
                        match w {
                            Winner::A => pa += pq,
                            Winner::B => pb += pq,
                            Winner::Draw => pd += pq,
                        }
                        rounds_pmf[(s2.round as usize).min(o.max_rounds as usize)] += pq;
                    }
                }
            }
        }
        if next.len() > MAX_LIVE_STATES || cache.len() > MAX_LIVE_STATES {
            return None;
        }
        live = next;
    }
    let truncated = live.values().sum::<f64>();
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
