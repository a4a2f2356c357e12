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
use super::options::{ExplodeMode, GamecraftOptions};
use crate::roller::enumerate;
use crate::solver::{MAX_LIVE_STATES, forward};
use crate::{Ending, ExactDuel, Winner};

type Transitions = Vec<(State, Step, f64)>;

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
    let mut cache: BTreeMap<State, Transitions> = BTreeMap::new();
    forward(
        start,
        o.max_rounds,
        |s| s.round,
        |s, emit| {
            if next_is_round_start(s) && s.round >= o.max_rounds {
                emit(*s, Step::Over(Winner::Draw, Ending::RoundCap), 1.0);
                return true;
            }
            let key = State { round: 0, ..*s };
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
                emit(
                    State {
                        round: s.round + s2.round,
                        ..s2
                    },
                    r,
                    q,
                );
            }
            cache.len() <= MAX_LIVE_STATES
        },
    )
}
