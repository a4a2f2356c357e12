//! Exact figures beyond [`crate::ExactDuel`], from the shared solver.
//!
//! HP, tallies, Magic Points and the cursor are bounded and every step either moves the cursor
//! or lowers some HP, so the live states are finite (digest §7.9 "How to regenerate exactly").
//! The shared solver (`crate::solver`) caches each state's transitions under its round parity
//! (crossbows reload in even rounds; `D20::cache_round`) and applies the round cap itself.

use super::D20;
use super::duel::State;
use super::fighter::Matchup;
use crate::solver::{Transitions, iterate};
use crate::{Ruleset, Winner};

/// Exact figures beyond [`crate::ExactDuel`]: how the duel ended.
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
pub fn solve_detail(r: &D20, m: &Matchup) -> Option<ExactDetail> {
    let cap = r.max_rounds();
    let dead = |s: &State, side: usize| {
        (0..m.f[side].count as usize).all(|j| i32::from(s.m[side][j].hp) <= m.f[side].death_point)
    };
    let mut d = ExactDetail {
        p: [0.0; 3],
        p_win_loser_dead: [0.0; 2],
        p_draw_dead: [0.0; 2],
        mean_rounds: 0.0,
    };
    iterate(
        r,
        m,
        r.start(m),
        Transitions::of::<D20>(),
        |s2, w, pq| {
            d.mean_rounds += pq * f64::from(s2.round.min(cap));
            match w {
                Winner::A => {
                    d.p[0] += pq;
                    if dead(s2, 1) {
                        d.p_win_loser_dead[0] += pq;
                    }
                }
                Winner::B => {
                    d.p[1] += pq;
                    if dead(s2, 0) {
                        d.p_win_loser_dead[1] += pq;
                    }
                }
                Winner::Draw => {
                    d.p[2] += pq;
                    for side in 0..2 {
                        if dead(s2, side) {
                            d.p_draw_dead[side] += pq;
                        }
                    }
                }
            }
        },
    )?;
    Some(d)
}
