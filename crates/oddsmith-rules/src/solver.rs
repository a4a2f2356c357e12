//! Exact duel solving by forward iteration, shared by every ruleset.
//!
//! A ruleset writes its duel as a state machine (`step` = one round start or one attack). The
//! Monte Carlo duel runs `step` with a random roller; [`forward`] keeps the probability of
//! every live state and asks the ruleset for the transitions of each (usually by running the
//! same `step` under [`crate::roller::enumerate`]), until the live mass is negligible.

use std::collections::BTreeMap;

use crate::{Ending, ExactDuel, Winner};

/// The result of one step of a duel state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The duel goes on.
    Continue,
    /// The duel is over.
    Over(Winner, Ending),
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

/// Live probability mass below which the solver stops (reported as `truncated`).
pub const NEGLIGIBLE_MASS: f64 = 1e-15;

/// Largest number of live states the solver tracks; beyond it (huge state spaces) it gives up
/// and the ruleset reports no exact value rather than exhaust memory.
pub const MAX_LIVE_STATES: usize = 200_000;

/// Propagates probability from `start` until the duel is decided or the remaining mass is
/// below [`NEGLIGIBLE_MASS`]. `transitions(state, emit)` must call `emit(next, step, p)` for
/// every outcome of one step from `state` (probabilities summing to 1) and return `false` if
/// it gives up. `round_of` reads a state's round, used for the fight-length distribution.
pub fn forward<S: Copy + Ord>(
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
