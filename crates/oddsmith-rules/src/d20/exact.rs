//! The exact duel solver: forward iteration over the finite state space.
//!
//! HP, tallies, Magic Points and the cursor are bounded and every step either moves the cursor
//! or lowers some HP, so the live states are finite (digest §7.9 "How to regenerate exactly").
//! Each state's transitions are found by running the Monte Carlo [`step`] under
//! [`enumerate`] (every face of every die it reads) and cached. A step depends on the round
//! only through its parity (crossbows reload in even rounds), so the cache key keeps the
//! parity and the round cap is applied here.

use std::collections::BTreeMap;

use super::duel::{INIT, NoTally, ROUND_START, State, Step, step};
use super::fighter::Matchup;
use super::options::D20Options;
use crate::roller::enumerate;
use crate::solver::{MAX_LIVE_STATES, NEGLIGIBLE_MASS, forward};
use crate::{Ending, ExactDuel, Winner};

type Transitions = Vec<(State, Step, f64)>;

/// The duel's transition function with its cache.
struct Solver<'a> {
    m: &'a Matchup,
    o: &'a D20Options,
    cache: BTreeMap<State, Transitions>,
}

impl Solver<'_> {
    fn key_round(round: u32) -> u32 {
        if round == 0 { 0 } else { 2 - round % 2 }
    }

    /// Calls `emit` for every outcome of one step from `s`; `false` if the state space is too
    /// large.
    fn transitions(&mut self, s: &State, emit: &mut dyn FnMut(State, Step, f64)) -> bool {
        if s.stage == ROUND_START && s.round > self.o.max_rounds {
            emit(*s, Step::Over(Winner::Draw, Ending::RoundCap), 1.0);
            return true;
        }
        let key = State {
            round: Self::key_round(s.round),
            ..*s
        };
        let (m, o) = (self.m, self.o);
        let trans = self.cache.entry(key).or_insert_with(|| {
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
                    round: s.round + (s2.round - key.round),
                    ..s2
                },
                r,
                q,
            );
        }
        self.cache.len() <= MAX_LIVE_STATES
    }
}

/// Solves a duel exactly (HP rolled as the fighters say) up to the round cap; `None` if the
/// state space is too large.
pub fn solve(m: &Matchup, o: &D20Options) -> Option<ExactDuel> {
    let mut sv = Solver {
        m,
        o,
        cache: BTreeMap::new(),
    };
    forward(
        State::start(),
        o.max_rounds,
        |s| s.round,
        |s, emit| sv.transitions(s, emit),
    )
}

/// Exact figures beyond [`ExactDuel`]: how the duel ended.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactDetail {
    /// P(A wins), P(B wins), P(draw).
    pub p: [f64; 3],
    /// P(A wins and every B creature ends dead), P(B wins and every A creature ends dead).
    pub p_win_loser_dead: [f64; 2],
    /// P(draw and side A all dead), P(draw and side B all dead).
    pub p_draw_dead: [f64; 2],
    /// Expected rounds.
    pub mean_rounds: f64,
}

/// Solves a duel and splits the outcome by whether the losing side ended dead (HP ≤ Death
/// Point; digest §7.9 "P(loser dead)").
pub fn solve_detail(m: &Matchup, o: &D20Options) -> Option<ExactDetail> {
    let mut sv = Solver {
        m,
        o,
        cache: BTreeMap::new(),
    };
    let dead = |s: &State, side: usize| {
        (0..m.f[side].count as usize).all(|j| i32::from(s.m[side][j].hp) <= m.f[side].death_point)
    };
    let mut d = ExactDetail {
        p: [0.0; 3],
        p_win_loser_dead: [0.0; 2],
        p_draw_dead: [0.0; 2],
        mean_rounds: 0.0,
    };
    let mut live: BTreeMap<State, f64> = BTreeMap::new();
    live.insert(State::start(), 1.0);
    debug_assert_eq!(State::start().stage, INIT);
    while live.values().sum::<f64>() >= NEGLIGIBLE_MASS {
        let mut next: BTreeMap<State, f64> = BTreeMap::new();
        for (s, p) in live {
            let ok = sv.transitions(&s, &mut |s2, r, q| match r {
                Step::Continue => *next.entry(s2).or_insert(0.0) += p * q,
                Step::Over(w, _) => {
                    let pq = p * q;
                    d.mean_rounds += pq * f64::from(s2.round.min(o.max_rounds));
                    match w {
                        Winner::A => {
                            d.p[0] += pq;
                            if dead(&s2, 1) {
                                d.p_win_loser_dead[0] += pq;
                            }
                        }
                        Winner::B => {
                            d.p[1] += pq;
                            if dead(&s2, 0) {
                                d.p_win_loser_dead[1] += pq;
                            }
                        }
                        Winner::Draw => {
                            d.p[2] += pq;
                            for side in 0..2 {
                                if dead(&s2, side) {
                                    d.p_draw_dead[side] += pq;
                                }
                            }
                        }
                    }
                }
            });
            if !ok || next.len() > MAX_LIVE_STATES {
                return None;
            }
        }
        live = next;
    }
    Some(d)
}
