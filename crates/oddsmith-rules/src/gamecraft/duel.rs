//! The duel as a small state machine, shared by the Monte Carlo duel and the exact solver.
//!
//! One [`step`] is either the start of a round (initiative, bleeding, Incapacitated rolls,
//! declarations, dodge rolls) or one declared action resolved in its phase. The Monte Carlo
//! duel calls it with a random roller until the duel ends; the exact solver calls it with
//! every sequence of faces. Digest §4.15 is the specification.

use super::fighter::{Fighter, Matchup};
use super::options::{
    CritEffect, DodgeTiming, EndCondition, FumbleEffect, GamecraftOptions, InitiativeTie,
    MultiActionMode, PenaltyScope,
};
use super::spec::{ActionPlan, GracePolicy, PenaltySplit};
use super::tables::gc_die;
use crate::{Ending, Roller, Winner};

/// One fighter's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FState {
    /// Cumulative wound points lost (capped at the total).
    pub dmg: u8,
    /// Non-lethal damage taken from Fatigue (capped at Fatigue).
    pub fat: u8,
    /// Grace left.
    pub grace: u8,
    /// Attacks declared this round.
    pub n_att: u8,
    /// Position of the dodge action among this round's actions (1-based), 0 = none.
    pub dodge_slot: u8,
    /// Full dodge this round.
    pub full: bool,
    /// The dodge result added to the defense score (valid when `dodge_on`).
    pub dodge: i8,
    /// The dodge counts now.
    pub dodge_on: bool,
    /// The next action is lost (fumble, `fumble_effect = "lose_next_action"`).
    pub skip: bool,
    /// Unconscious after a failed Incapacitated roll.
    pub unconscious: bool,
    /// Rounds bled since the last bleeding check.
    pub bleed: u8,
    /// Just entered Incapacitated: the Constitution roll is made in the next step.
    pub incap_pending: bool,
}

/// The whole duel state between steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    /// Round number; 0 before the first round.
    pub round: u32,
    /// Actions of this round already resolved; `u8::MAX` = the round has not started.
    pub ev: u8,
    /// Who acts first in each phase (0 = A).
    pub first: u8,
    /// Initiative has been rolled.
    pub init: bool,
    /// The surprise first attack has happened (`surprise_first_attack`).
    pub surprised: bool,
    /// Next part of the round start while `ev == u8::MAX`: 0 initiative, 1–2 bleeding,
    /// 3–4 Incapacitated rolls, 5 declarations and dodge rolls.
    pub pre: u8,
    /// Both fighters.
    pub f: [FState; 2],
}

impl State {
    /// The state before the first round, pools full.
    pub fn start(m: &Matchup) -> State {
        let mut s = State {
            ev: u8::MAX,
            ..State::default()
        };
        for i in 0..2 {
            s.f[i].grace = m.f[i].grace;
        }
        s
    }
}

/// Statistics a Monte Carlo duel gathers on the side; the exact solver ignores them.
pub trait Tally {
    /// An attack by fighter `by`; `damage` sustained if it hit.
    fn attack(&mut self, by: usize, hit: bool, crit: bool, fumble: bool, damage: i32);
    /// A dodge or full dodge by `by`.
    fn dodge(&mut self, by: usize);
    /// Grace spent by `by`.
    fn grace(&mut self, by: usize, points: u8);
}

/// A tally that records nothing.
pub struct NoTally;

impl Tally for NoTally {
    #[inline]
    fn attack(&mut self, _: usize, _: bool, _: bool, _: bool, _: i32) {}
    #[inline]
    fn dodge(&mut self, _: usize) {}
    #[inline]
    fn grace(&mut self, _: usize, _: u8) {}
}

pub use crate::solver::Step;

/// Wound penalty by status (0 Healthy … 5 Incapacitated, 6 Dead), as a positive number.
#[inline]
pub fn wound_pen(o: &GamecraftOptions, f: &Fighter, st: &FState) -> i32 {
    match f.status(st.dmg) {
        s @ 0..=4 => s as i32,
        _ => o.incapacitated_penalty,
    }
}

/// Wound plus Fatigue penalty (positive).
#[inline]
pub fn pen(o: &GamecraftOptions, f: &Fighter, st: &FState) -> i32 {
    let left = i32::from(f.fatigue) - i32::from(st.fat);
    let fat = if 2 * left < i32::from(f.fatigue) {
        o.fatigue_half_penalty
    } else {
        0
    };
    wound_pen(o, f, st) + fat
}

/// Whether a fighter cannot act (dead, unconscious, out of Fatigue, or Incapacitated under
/// `end_condition = "incapacitated"`).
#[inline]
pub fn helpless(o: &GamecraftOptions, f: &Fighter, st: &FState) -> bool {
    let s = f.status(st.dmg);
    s >= 6
        || st.unconscious
        || st.fat >= f.fatigue
        || (o.end_condition == EndCondition::Incapacitated && s >= 5)
}

/// The multiple-action penalty (positive) on one check: `which` = `Some(i)` for attack `i`,
/// `None` for the dodge (digest §4.2, G2).
pub fn alloc_pen(
    o: &GamecraftOptions,
    split: PenaltySplit,
    n_att: u8,
    has_dodge: bool,
    which: Option<u8>,
) -> i32 {
    let l = i32::from(n_att) + i32::from(has_dodge);
    if l <= 1 {
        return 0;
    }
    let total = l * o.multi_action_penalty;
    if o.multi_action_mode == MultiActionMode::PerCheck {
        return total;
    }
    let na = i32::from(n_att);
    match (split, has_dodge) {
        (PenaltySplit::AllOnDodge, true) => {
            if which.is_none() {
                total
            } else {
                0
            }
        }
        (PenaltySplit::AllOnAttack, _) if na > 0 => match which {
            None => 0,
            Some(i) => total / na + i32::from(i32::from(i) < total % na),
        },
        _ => {
            let (base, rem) = (total / l, total % l);
            match which {
                Some(i) => base + i32::from(i32::from(i) < rem),
                None => base + i32::from(rem > na),
            }
        }
    }
}

#[inline]
fn n_actions(st: &FState) -> u8 {
    if st.full {
        1
    } else {
        st.n_att + u8::from(st.dodge_slot > 0)
    }
}

/// The `k`-th action of the round: (fighter, 1-based slot), or `None` when the round is over.
#[inline]
fn event(s: &State, k: u8) -> Option<(usize, u8)> {
    let first = s.first as usize;
    let len = [n_actions(&s.f[0]), n_actions(&s.f[1])];
    let mut i = 0;
    for slot in 1..=len[0].max(len[1]) {
        for who in [first, 1 - first] {
            if len[who] >= slot {
                if i == k {
                    return Some((who, slot));
                }
                i += 1;
            }
        }
    }
    None
}

/// Whether the next step starts a new round.
pub fn next_is_round_start(s: &State) -> bool {
    if s.ev == u8::MAX {
        s.pre == 0 && !s.f.iter().any(|f| f.incap_pending)
    } else {
        event(s, s.ev).is_none() && !s.f.iter().any(|f| f.incap_pending)
    }
}

enum Act {
    Attack(u8),
    Dodge,
    FullDodge,
}

fn act(st: &FState, slot: u8) -> Act {
    if st.full {
        Act::FullDodge
    } else if st.dodge_slot == slot {
        Act::Dodge
    } else {
        Act::Attack(slot - 1 - u8::from(st.dodge_slot != 0 && st.dodge_slot < slot))
    }
}

/// Whether `f` has lost under the end condition, and how.
#[inline]
pub fn lost(o: &GamecraftOptions, f: &Fighter, st: &FState) -> Option<Ending> {
    if f.status(st.dmg) >= 6 {
        return Some(Ending::Death);
    }
    let fat_out = st.fat >= f.fatigue;
    match o.end_condition {
        EndCondition::Incapacitated => {
            (f.status(st.dmg) >= 5 || fat_out).then_some(Ending::Incapacitated)
        }
        EndCondition::Unconscious => (st.unconscious || fat_out).then_some(Ending::Incapacitated),
        EndCondition::Dead => None,
    }
}

fn verdict(m: &Matchup, o: &GamecraftOptions, s: &State) -> Option<(Winner, Ending)> {
    match (lost(o, &m.f[0], &s.f[0]), lost(o, &m.f[1], &s.f[1])) {
        (None, None) => None,
        (Some(e), None) => Some((Winner::B, e)),
        (None, Some(e)) => Some((Winner::A, e)),
        (Some(ea), Some(eb)) => Some((Winner::Draw, if ea == Ending::Death { ea } else { eb })),
    }
}

/// The Incapacitated Constitution roll: `CON + die − penalties ≥ incap_con_tn`.
pub(super) fn incap_roll<R: Roller>(
    o: &GamecraftOptions,
    f: &Fighter,
    st: &FState,
    r: &mut R,
) -> bool {
    f.con + gc_die(r, o.explode_mode) - pen(o, f, st) >= o.incap_con_tn
}

fn roll_dodge<R: Roller, T: Tally>(
    m: &Matchup,
    o: &GamecraftOptions,
    s: &mut State,
    i: usize,
    r: &mut R,
    tally: &mut T,
) {
    let (f, st) = (&m.f[i], s.f[i]);
    let g = if f.grace_policy == GracePolicy::SaveForDefense {
        m.line[1 - i].cd.min(i32::from(st.grace)).max(0) as u8
    } else {
        0
    };
    let v = gc_die(r, o.explode_mode) + i32::from(g)
        - alloc_pen(o, f.split, st.n_att, true, None)
        - pen(o, f, &st);
    s.f[i].grace -= g;
    s.f[i].dodge = v.clamp(-120, 120) as i8;
    s.f[i].dodge_on = true;
    tally.dodge(i);
    tally.grace(i, g);
}

fn plan(m: &Matchup, o: &GamecraftOptions, s: &State, i: usize) -> (u8, u8, bool) {
    let (f, st) = (&m.f[i], &s.f[i]);
    if helpless(o, f, st) {
        return (0, 0, false);
    }
    match f.plan {
        ActionPlan::Attack => (1, 0, false),
        ActionPlan::AttackDodge => (1, 2, false),
        ActionPlan::DodgeAttack => (1, 1, false),
        ActionPlan::MultiAttack(n) => (n, 0, false),
        ActionPlan::FullDodgeAt(k) => {
            if f.status(st.dmg) >= usize::from(k) {
                (0, 0, true)
            } else {
                (1, 0, false)
            }
        }
    }
}

fn start_round<R: Roller, T: Tally>(
    m: &Matchup,
    o: &GamecraftOptions,
    s: &mut State,
    r: &mut R,
    tally: &mut T,
) -> Step {
    let all = o.wound_penalty_scope == PenaltyScope::AllRolls;
    // Each part that rolls dice ends the step, so the exact solver enumerates the parts one
    // after the other instead of their product; parts with nothing to roll fall through.
    loop {
        match s.pre {
            0 => {
                if s.round >= o.max_rounds {
                    return Step::Over(Winner::Draw, Ending::RoundCap);
                }
                s.round += 1;
                s.pre = 1;
                if !s.init || o.initiative_reroll_each_round {
                    let mut tot = [0; 2];
                    for (i, t) in tot.iter_mut().enumerate() {
                        let p = if all { pen(o, &m.f[i], &s.f[i]) } else { 0 };
                        *t = m.f[i].derived.initiative + gc_die(r, o.explode_mode) - p;
                    }
                    let (ka, kb) = (m.f[0].init_key, m.f[1].init_key);
                    s.first = if tot[0] != tot[1] {
                        u8::from(tot[1] > tot[0])
                    } else if ka != kb {
                        u8::from(kb > ka)
                    } else {
                        match o.initiative_final_tie {
                            InitiativeTie::Random => (r.roll(2) - 1) as u8,
                            InitiativeTie::A => 0,
                            InitiativeTie::B => 1,
                        }
                    };
                    s.init = true;
                    return Step::Continue;
                }
            }
            p @ (1 | 2) => {
                s.pre += 1;
                let i = usize::from(p - 1);
                let (f, st) = (&m.f[i], s.f[i]);
                let status = f.status(st.dmg);
                if o.bleeding && (3..6).contains(&status) {
                    s.f[i].bleed += 1;
                    if u32::from(s.f[i].bleed) >= o.bleed_interval_rounds {
                        s.f[i].bleed = 0;
                        // A Constitution check: penalised under either scope (G15).
                        let p = pen(o, f, &st);
                        if f.con + gc_die(r, o.explode_mode) - p < o.bleed_con_tn {
                            s.f[i].dmg = f.cum[status];
                        }
                        return end_part(m, o, s);
                    }
                }
            }
            p @ (3 | 4) => {
                s.pre += 1;
                let i = usize::from(p - 3);
                let (f, st) = (&m.f[i], s.f[i]);
                if o.end_condition != EndCondition::Incapacitated
                    && f.status(st.dmg) == 5
                    && !st.unconscious
                    && st.fat < f.fatigue
                {
                    if !incap_roll(o, f, &st, r) {
                        s.f[i].unconscious = true;
                    }
                    return end_part(m, o, s);
                }
            }
            _ => break,
        }
    }
    if let Some((w, e)) = verdict(m, o, s) {
        return Step::Over(w, e);
    }
    s.pre = 0;
    let plans = [plan(m, o, s, 0), plan(m, o, s, 1)];
    for (i, (n_att, dodge_slot, full)) in plans.into_iter().enumerate() {
        let f = &mut s.f[i];
        f.n_att = n_att;
        f.dodge_slot = dodge_slot;
        f.full = full;
        f.dodge = 0;
        f.dodge_on = false;
        if full {
            tally.dodge(i);
        }
    }
    if o.dodge_timing == DodgeTiming::Round {
        for i in 0..2 {
            if s.f[i].dodge_slot > 0 {
                if s.f[i].skip {
                    s.f[i].skip = false;
                } else {
                    roll_dodge(m, o, s, i, r, tally);
                }
            }
        }
    }
    s.ev = 0;
    tidy(o, s);
    Step::Continue
}

fn end_part(m: &Matchup, o: &GamecraftOptions, s: &State) -> Step {
    match verdict(m, o, s) {
        Some((w, e)) => Step::Over(w, e),
        None => Step::Continue,
    }
}

/// Forgets dodge results no later attack this round can meet, so the exact solver merges
/// states that differ only there.
fn tidy(o: &GamecraftOptions, s: &mut State) {
    if o.dodge_timing == DodgeTiming::FromPhase && s.ev == u8::MAX {
        return;
    }
    for i in 0..2 {
        if !s.f[i].dodge_on {
            continue;
        }
        let mut k = s.ev;
        let mut attacked = false;
        while let Some((who, slot)) = event(s, k) {
            if who != i && matches!(act(&s.f[who], slot), Act::Attack(_)) {
                attacked = true;
                break;
            }
            k += 1;
        }
        if !attacked {
            s.f[i].dodge = 0;
            s.f[i].dodge_on = false;
        }
    }
}

/// Advances the duel by one step.
#[inline]
pub fn step<R: Roller, T: Tally>(
    m: &Matchup,
    o: &GamecraftOptions,
    s: &mut State,
    r: &mut R,
    tally: &mut T,
) -> Step {
    for i in 0..2 {
        if s.f[i].incap_pending {
            s.f[i].incap_pending = false;
            let (f, st) = (&m.f[i], s.f[i]);
            if !st.unconscious && !incap_roll(o, f, &st, r) {
                s.f[i].unconscious = true;
            }
            return end_part(m, o, s);
        }
    }
    let next = if s.ev == u8::MAX {
        None
    } else {
        event(s, s.ev)
    };
    let Some((x, slot)) = next else {
        if s.ev != u8::MAX {
            s.ev = u8::MAX;
            s.pre = 0;
        }
        return start_round(m, o, s, r, tally);
    };
    s.ev += 1;
    if helpless(o, &m.f[x], &s.f[x]) {
        return Step::Continue;
    }
    match act(&s.f[x], slot) {
        Act::FullDodge => {}
        Act::Dodge => {
            if o.dodge_timing == DodgeTiming::FromPhase {
                if s.f[x].skip {
                    s.f[x].skip = false;
                } else {
                    roll_dodge(m, o, s, x, r, tally);
                }
            }
        }
        Act::Attack(i) => {
            if s.f[x].skip {
                s.f[x].skip = false;
            } else {
                attack(m, o, s, x, i, r, tally);
            }
        }
    }
    tidy(o, s);
    end_part(m, o, s)
}

/// How much Grace `f` spends on an attack of base `base` (everything but the die) against the
/// static TN `tn` (before any dodge or full-dodge bonus: digest §6 AI policy 3, "need").
#[inline]
pub(super) fn grace_for_attack(f: &Fighter, st: &FState, base: i32, tn: i32) -> u8 {
    let cap = f.atk_skill.min(i32::from(st.grace)).max(0);
    let g = match f.grace_policy {
        GracePolicy::None | GracePolicy::SaveForDefense => 0,
        GracePolicy::Greedy => cap,
        // P(die ≥ 3) = 1/2 under every explode_mode: spend the least that makes the need at
        // most 3.
        GracePolicy::Need => {
            let need = tn - base - 3;
            if need > 0 && need <= cap { need } else { 0 }
        }
    };
    g as u8
}

#[allow(clippy::too_many_arguments)]
fn attack<R: Roller, T: Tally>(
    m: &Matchup,
    o: &GamecraftOptions,
    s: &mut State,
    x: usize,
    i: u8,
    r: &mut R,
    tally: &mut T,
) {
    let y = 1 - x;
    let (fx, fy, line) = (&m.f[x], &m.f[y], m.line[x]);
    let (sx, sy) = (s.f[x], s.f[y]);
    let all = o.wound_penalty_scope == PenaltyScope::AllRolls;
    let pen_x = pen(o, fx, &sx);
    let mut static_tn = line.tn;
    if o.wound_penalty_static_defense {
        static_tn -= pen(o, fy, &sy);
    }
    let mut tn = static_tn;
    if sy.full {
        tn += o.full_dodge_bonus;
    } else if sy.dodge_on {
        tn += i32::from(sy.dodge);
    }
    let helpless_y = helpless(o, fy, &sy);
    // G24: "the first attack only": the duel's first attack uses the surprise, hit or miss.
    let first_attack = o.surprise_first_attack && !s.surprised;
    if o.surprise_first_attack {
        s.surprised = true;
    }
    let (hit, crit) = if helpless_y && o.helpless_auto_hit && o.end_condition == EndCondition::Dead
    {
        (true, false)
    } else {
        let base = line.atk - alloc_pen(o, fx.split, sx.n_att, sx.dodge_slot > 0, Some(i)) - pen_x;
        let g = grace_for_attack(fx, &sx, base, static_tn);
        s.f[x].grace -= g;
        tally.grace(x, g);
        let tot = base + i32::from(g) + gc_die(r, o.explode_mode);
        let hit = tot >= tn;
        if !hit {
            let fumble = tn - tot >= o.fumble_margin;
            if fumble && o.fumble_effect == FumbleEffect::LoseNextAction {
                s.f[x].skip = true;
            }
            tally.attack(x, false, false, fumble, 0);
            return;
        }
        (true, tot - tn >= o.crit_margin)
    };
    debug_assert!(hit);
    let dealt = (line.dmg + gc_die(r, o.explode_mode) - if all { pen_x } else { 0 }).max(0);
    let aware = o.aware && !helpless_y && !first_attack;
    let resist = if aware {
        let v = fy.res_base + gc_die(r, o.explode_mode) - if all { pen(o, fy, &sy) } else { 0 };
        if o.resist_clamp_zero { v.max(0) } else { v }
    } else {
        fy.armor
    };
    let mut sus = (dealt - resist).max(0);
    if crit && o.crit_effect == CritEffect::WoundPoint {
        sus += o.crit_extra_amount;
    }
    if fx.nonlethal {
        if crit && o.crit_effect == CritEffect::WoundLevel {
            sus += o.crit_extra_amount;
        }
        s.f[y].fat = (i32::from(sy.fat) + sus).min(i32::from(fy.fatigue)) as u8;
    } else {
        let before = fy.status(sy.dmg);
        let mut d = (i32::from(sy.dmg) + sus).min(i32::from(fy.total()));
        if crit && o.crit_effect == CritEffect::WoundLevel {
            let st = fy.status(d as u8);
            if st < 6 {
                d = i32::from(fy.cum[st]);
            }
        }
        s.f[y].dmg = d as u8;
        let now = s.f[y];
        if o.end_condition != EndCondition::Incapacitated
            && before < 5
            && fy.status(now.dmg) == 5
            && !now.unconscious
        {
            s.f[y].incap_pending = true;
        }
    }
    tally.attack(x, true, crit, false, sus);
}
