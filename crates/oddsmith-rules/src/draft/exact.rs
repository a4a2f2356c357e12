//! The exact duel solver: forward iteration over the finite state space (digest §7.7).
//!
//! The state after each step (wounds, actions, round bookkeeping) is small, so
//! [`crate::solver::forward`] can keep the probability of every live state; each state is
//! advanced by one [`step`] with every face of every die it reads enumerated. It runs the very
//! code the Monte Carlo duel runs.

use super::duel::{NoTally, State, step};
use super::fighter::Matchup;
use super::options::DraftOptions;
use crate::ExactDuel;
use crate::roller::enumerate;
use crate::solver::forward;

/// Solves a duel exactly up to the round cap; `None` if the state space is too large.
pub fn solve(m: &Matchup, o: &DraftOptions) -> Option<ExactDuel> {
    forward(
        State::start(),
        o.max_rounds,
        |s| s.round,
        |s, emit| {
            enumerate(
                |roller| {
                    let mut s2 = *s;
                    let r = step(m, o, &mut s2, roller, &mut NoTally);
                    (s2, r)
                },
                |(s2, r), q| emit(s2, r, q),
            );
            true
        },
    )
}
