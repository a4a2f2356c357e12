//! The exact duel solver: forward iteration over the finite state space (digest §7.7).
//!
//! The state after each step (wounds, actions, round bookkeeping) is small, so the solver keeps
//! the probability of every live state and advances them all by one [`step`], enumerating every
//! face of every die the step reads. It runs the very code the Monte Carlo duel runs.

use std::collections::BTreeMap;

use super::duel::{NoTally, State, Step, step};
use super::fighter::Matchup;
use super::options::DraftOptions;
use crate::roller::enumerate;
use crate::{ExactDuel, Winner};

/// Live probability mass below which the solver stops (reported as `truncated`).
pub const NEGLIGIBLE_MASS: f64 = 1e-15;

/// Largest number of live states the solver tracks; beyond it (huge wound capacities) it
/// gives up and reports no exact value rather than exhaust memory.
pub const MAX_LIVE_STATES: usize = 200_000;

/// Solves a duel exactly up to the round cap; `None` if the state space is too large.
pub fn solve(m: &Matchup, o: &DraftOptions) -> Option<ExactDuel> {
    let mut live: BTreeMap<State, f64> = BTreeMap::new();
    live.insert(State::start(), 1.0);
    let (mut pa, mut pb, mut pd) = (0.0, 0.0, 0.0);
    let mut rounds_pmf = vec![0.0; o.max_rounds as usize + 1];
    while !live.is_empty() && live.values().sum::<f64>() >= NEGLIGIBLE_MASS {
        let mut next: BTreeMap<State, f64> = BTreeMap::new();
        for (s, p) in live {
            enumerate(
                |roller| {
                    let mut s2 = s;
                    let r = step(m, o, &mut s2, roller, &mut NoTally);
                    (s2, r)
                },
                |(s2, r), q| match r {
                    Step::Continue => *next.entry(s2).or_insert(0.0) += p * q,
                    Step::Over(w, _) => {
                        match w {
                            Winner::A => pa += p * q,
                            Winner::B => pb += p * q,
                            Winner::Draw => pd += p * q,
                        }
                        rounds_pmf[s2.round as usize] += p * q;
                    }
                },
            );
        }
        if next.len() > MAX_LIVE_STATES {
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
