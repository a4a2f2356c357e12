//! The duel as a small state machine, shared by the Monte Carlo duel and the exact solver.
//!
//! One [`step`] is either the start of a round (plans, striking order) or one attack with its
//! defence. The Monte Carlo duel calls it with a random roller until the duel ends; the exact
//! solver calls it with every sequence of faces (see `crate::roller::enumerate`). Digest §6,
//! "Default duel loop", is the specification.

use super::fighter::{Defence, Level, Matchup, WOUND_TABLE_LEN};
use super::options::{DraftOptions, EndCondition, FirstStrikeTie, Knockback, Overflow};
use super::spec::Policy;
pub use crate::solver::Step;
use crate::{Ending, Roller, Winner};

/// One fighter's state: wounds held and this round's bookkeeping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FState {
    /// Light wounds held.
    pub light: u8,
    /// Severe wounds held.
    pub severe: u8,
    /// Critical wounds held.
    pub critical: u8,
    /// Dead.
    pub dead: bool,
    /// Actions used this round.
    pub actions: u8,
    /// Attacks planned this round.
    pub planned: u8,
    /// In Defensive Position this round.
    pub dp: bool,
    /// Knocked back this round (−1 for the rest of it, `severe_knockback = "penalty"`).
    pub knocked: bool,
    /// Collapsed from exhaustion under `end_condition = "death"`: helpless, not dead.
    pub collapsed: bool,
}

/// The whole duel state between steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    /// Round number; 0 before the first round.
    pub round: u32,
    /// Events of this round already resolved; `u8::MAX` = the round has not started.
    pub ev: u8,
    /// Who strikes first within a segment this round.
    pub first: u8,
    /// Whether same-segment blows land simultaneously this round.
    pub simultaneous: bool,
    /// A wound held back until the other blow of the segment lands: (victim, level).
    pub pending: Option<(u8, u8)>,
    /// Both fighters.
    pub f: [FState; 2],
}

impl State {
    /// The state before the first round.
    pub fn start() -> State {
        State {
            ev: u8::MAX,
            ..State::default()
        }
    }
}

pub use crate::outcome::{NoTally, Tally};

crate::duel_state!(State);

/// The per-side counter (in [`super::COUNTERS`]) of a blow of `level` received.
#[inline]
fn taken_counter(level: Level) -> usize {
    match level {
        Level::None => 0,
        Level::Light => 1,
        Level::Severe => 2,
        Level::Critical | Level::Death => 3,
    }
}

#[cfg(test)]
#[test]
fn taken_counters_match_their_names() {
    let n = |l: Level| super::COUNTERS[taken_counter(l)];
    assert_eq!(
        [n(Level::None), n(Level::Light), n(Level::Severe), n(Level::Critical)],
        ["a_scratches_taken", "a_light_taken", "a_severe_taken", "a_critical_taken"]
    );
    assert_eq!(n(Level::Death), "a_critical_taken");
}

#[inline]
fn wound_penalty(o: &DraftOptions, f: &FState) -> i32 {
    let mut p = i32::from(f.light) * o.wound_penalties.light
        + i32::from(f.severe) * o.wound_penalties.severe
        + i32::from(f.critical) * o.wound_penalties.critical;
    if o.severe_manual_penalty_in_combat && f.severe > 0 {
        p -= 1;
    }
    p
}

/// The exhaustion level in `round` for a fighter of Stamina `s` (§4.24.1, digest §7.10):
/// 0 none, 1 Light, 2 Severe, 3 collapse.
#[inline]
pub fn exhaustion_level(round: u32, s: i32) -> u8 {
    let ep = round as i64;
    let s = i64::from(s.max(1));
    if ep >= 3 * s {
        3
    } else if ep > 2 * s {
        2
    } else if ep > s {
        1
    } else {
        0
    }
}

#[inline]
fn exhaustion_penalty(o: &DraftOptions, round: u32, s: i32) -> i32 {
    if !o.exhaustion {
        return 0;
    }
    match exhaustion_level(round, s) {
        1 => o.wound_penalties.light,
        2 => o.wound_penalties.severe,
        _ => 0,
    }
}

/// Whether a fighter is helpless: a Critical wound or an exhaustion collapse, still alive
/// (only under `end_condition = "death"`; otherwise either ends the duel).
#[inline]
fn helpless(f: &FState) -> bool {
    f.critical > 0 || f.dead || f.collapsed
}

/// Whether a fighter may attack: not helpless, unless `critical_can_attack` (G9).
#[inline]
fn can_attack(o: &DraftOptions, f: &FState) -> bool {
    o.critical_can_attack || !helpless(f)
}

/// The `k`-th attack event of the round: (attacker, segment), or `None` when the round is over.
#[inline]
fn event(s: &State, k: u8) -> Option<(usize, u8)> {
    let first = s.first as usize;
    let mut i = 0;
    for seg in 1..=3u8 {
        for who in [first, 1 - first] {
            if s.f[who].planned >= seg {
                if i == k {
                    return Some((who, seg));
                }
                i += 1;
            }
        }
    }
    None
}

fn plan(m: &Matchup, o: &DraftOptions, s: &State, me: usize) -> (u8, bool) {
    let f = &m.f[me];
    let st = &s.f[me];
    if !can_attack(o, st) {
        return (0, false);
    }
    match f.policy {
        Policy::Balanced => (1, false),
        Policy::Aggressive => (2, false),
        Policy::AllOut => (3, false),
        Policy::Defensive => (0, true),
        Policy::Adaptive => {
            let lead = wound_penalty(o, &s.f[1 - me]) - wound_penalty(o, st);
            let opponent_defensive = m.f[1 - me].policy == Policy::Defensive;
            if lead >= f.adaptive_threshold && !opponent_defensive {
                (0, true)
            } else {
                (1, false)
            }
        }
    }
}

/// Adds a wound of `level` to `f` with capacities and overflow (§4.19.3, G8); returns the
/// level the wound was recorded as (a 4th Light is recorded as a Severe, and so on).
#[inline]
pub fn add_wound(o: &DraftOptions, f: &mut FState, level: Level) -> Level {
    const TRACKS: [Level; 3] = [Level::Light, Level::Severe, Level::Critical];
    let cap = &o.wound_capacity;
    let caps = [cap.light, cap.severe, cap.critical];
    if level == Level::None {
        return Level::None;
    }
    // Start on the blow's own track; a full track passes the wound on to the next one, and a
    // wound past the Critical track (or a Death blow) kills.
    for i in level as usize - 1..TRACKS.len() {
        let held = match i {
            0 => &mut f.light,
            1 => &mut f.severe,
            _ => &mut f.critical,
        };
        if *held < caps[i] {
            *held += 1;
            return TRACKS[i];
        }
        if o.wound_overflow == Overflow::Reset && i < 2 {
            *held = 0;
        }
    }
    f.dead = true;
    Level::Death
}

/// Whether `f` has lost under the end condition, and how.
#[inline]
fn lost(o: &DraftOptions, f: &FState) -> Option<Ending> {
    if f.dead {
        return Some(Ending::Death);
    }
    match o.end_condition {
        EndCondition::Incapacitated => (f.critical > 0).then_some(Ending::Incapacitated),
        EndCondition::Death => None,
        EndCondition::FirstWound => (f.critical > 0 || f.severe > 0 || f.light > 0).then_some({
            if f.critical > 0 {
                Ending::Incapacitated
            } else {
                Ending::Wounded
            }
        }),
        EndCondition::FirstSevere => (f.critical > 0 || f.severe > 0).then_some({
            if f.critical > 0 {
                Ending::Incapacitated
            } else {
                Ending::Wounded
            }
        }),
    }
}

fn verdict(o: &DraftOptions, s: &State) -> Option<(Winner, Ending)> {
    match (lost(o, &s.f[0]), lost(o, &s.f[1])) {
        (None, None) => None,
        (Some(e), None) => Some((Winner::B, e)),
        (None, Some(e)) => Some((Winner::A, e)),
        (Some(ea), Some(eb)) => Some((Winner::Draw, if ea == Ending::Death { ea } else { eb })),
    }
}

/// Advances the duel by one step.
#[inline]
pub fn step<R: Roller, T: Tally>(
    m: &Matchup,
    o: &DraftOptions,
    s: &mut State,
    roller: &mut R,
    tally: &mut T,
) -> Step {
    let next = if s.ev == u8::MAX {
        None
    } else {
        event(s, s.ev)
    };
    let Some((x, _seg)) = next else {
        return start_round(m, o, s, roller);
    };
    s.ev += 1;
    let y = 1 - x;
    // Under simultaneous blows, the first blow of a segment pair waits for the second.
    let defer = s.simultaneous
        && s.pending.is_none()
        && event(s, s.ev).is_some_and(|(w, seg2)| w == y && seg2 == _seg);
    let (fx, fy) = (&m.f[x], &m.f[y]);
    let sx = s.f[x];
    let able = can_attack(o, &sx) && sx.actions < o.max_actions_per_round;
    if able {
        let extra_a = if sx.actions >= o.free_actions_per_round {
            o.extra_action_modifier
        } else {
            0
        };
        s.f[x].actions += 1;
        let rnd = s.round;
        let mut attack = fx.skill
            + fx.movement
            + fx.attack_mod
            + extra_a
            + wound_penalty(o, &sx)
            + exhaustion_penalty(o, rnd, fx.stamina)
            - i32::from(sx.knocked);
        let sy = s.f[y];
        if helpless(&sy) {
            attack += o.lying_target_bonus;
        }
        attack += roller.d10() as i32;
        let (kind, base) = m.defence[y];
        let defends = kind != Defence::None
            && fy.policy != Policy::AllOut
            && !helpless(&sy)
            && sy.actions < o.max_actions_per_round;
        let defence = if defends {
            let extra_d = if sy.actions >= o.free_actions_per_round {
                o.extra_action_modifier
            } else {
                0
            };
            s.f[y].actions += 1;
            base + fy.movement
                + fy.defence_mod
                + extra_d
                + if sy.dp { o.defensive_position_bonus } else { 0 }
                + wound_penalty(o, &sy)
                + exhaustion_penalty(o, rnd, fy.stamina)
                - i32::from(sy.knocked)
                + roller.d10() as i32
        } else {
            o.undefended_value
        };
        if attack > defence {
            let damage = attack - defence + fx.str_bonus + fx.weapon_damage - fy.protection;
            let level = fy.wound_of[damage.clamp(0, WOUND_TABLE_LEN as i32 - 1) as usize];
            tally.attack(x, true, damage.max(0));
            tally.count_side(y, taken_counter(level), 1);
            if level != Level::None {
                if defer {
                    s.pending = Some((y as u8, level as u8));
                } else {
                    apply(o, &mut s.f[y], level);
                }
            }
        } else {
            tally.attack(x, false, 0);
        }
    }
    if !defer {
        if let Some((victim, lv)) = s.pending.take() {
            apply(o, &mut s.f[victim as usize], level_of(lv));
        }
        if let Some((w, e)) = verdict(o, s) {
            return Step::Over(w, e);
        }
    }
    Step::Continue
}

#[inline]
fn apply(o: &DraftOptions, f: &mut FState, level: Level) {
    // "In any case, the hit fighter is driven backwards" (§4.19.2): a Light wound that
    // overflows into a Severe one counts too.
    let recorded = add_wound(o, f, level);
    if recorded >= Level::Severe && o.severe_knockback == Knockback::Penalty {
        f.knocked = true;
    }
}

fn level_of(v: u8) -> Level {
    match v {
        0 => Level::None,
        1 => Level::Light,
        2 => Level::Severe,
        3 => Level::Critical,
        _ => Level::Death,
    }
}


fn start_round<R: Roller>(m: &Matchup, o: &DraftOptions, s: &mut State, roller: &mut R) -> Step {
    s.round += 1;
    if s.round > o.max_rounds {
        s.round = o.max_rounds;
        return Step::Over(Winner::Draw, Ending::RoundCap);
    }
    if o.exhaustion {
        let out = [0, 1].map(|i| exhaustion_level(s.round, m.f[i].stamina) >= 3);
        if o.end_condition == EndCondition::Death {
            // A collapse has the consequences of a Critical injury: helpless, not dead (G9).
            for (f, collapsed) in s.f.iter_mut().zip(out) {
                f.collapsed |= collapsed;
            }
        } else {
            match out {
                [true, true] => return Step::Over(Winner::Draw, Ending::Exhaustion),
                [true, false] => return Step::Over(Winner::B, Ending::Exhaustion),
                [false, true] => return Step::Over(Winner::A, Ending::Exhaustion),
                [false, false] => {}
            }
        }
    }
    let plans = [plan(m, o, s, 0), plan(m, o, s, 1)];
    for (f, (planned, dp)) in s.f.iter_mut().zip(plans) {
        f.actions = 0;
        f.knocked = false;
        f.planned = planned;
        f.dp = dp;
    }
    s.ev = 0;
    s.simultaneous = false;
    s.first = match m.first_by_rules {
        Some(side) => side as u8,
        None => match o.first_strike_tie {
            FirstStrikeTie::Simultaneous => {
                s.simultaneous = true;
                0
            }
            _ => (roller.roll(2) - 1) as u8,
        },
    };
    Step::Continue
}
