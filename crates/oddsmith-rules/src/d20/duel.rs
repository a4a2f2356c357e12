//! The round as a small state machine, shared by the Monte Carlo duel and the exact solver.
//!
//! A round («Order of Combat») has three segments, Magic, Missile and Melee. Each able creature
//! takes one action (G-20): a spell (Magic), a missile attack (Missile) or its attack sequence
//! (Melee). Within a segment the faster side acts first; equal speeds form one simultaneous
//! group (G-18): everyone able when the group starts acts, damage is tallied at once, later
//! attackers retarget away from a foe already down but never lose their action (with no other
//! target they attack the original one). A side with nobody able is out when the group ends.
//!
//! One [`step`] is: rolling one creature's HP (before round 1), starting a round (choosing
//! actions), or one attack roll with its damage, resistance roll and fumble.

use super::fighter::{Attack, Fighter, MAX_BAND, Matchup};
use super::options::{CripplingCurrent, CritRule, D20Options, FightTo, HalveRounding};
use super::reference::crit_is_max;
use super::spec::DamageKind;
use super::tables::{Resist, resist_result};
use crate::{Ending, Roller, Winner};

pub use crate::solver::Step;

/// Stage: rolling hit points.
pub const INIT: u8 = 0;
/// Stage: the next step starts a round.
pub const ROUND_START: u8 = 1;
/// Stage: the next step is an attack.
pub const ATTACK: u8 = 2;

/// Action: none this round.
pub const ACT_NONE: u8 = 0;
/// Action: the attack sequence (melee) or the missile weapon.
pub const ACT_ATTACK: u8 = 1;
/// Action: cast spell `k` (`ACT_SPELL + k`).
pub const ACT_SPELL: u8 = 2;

/// One creature's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MState {
    /// Current HP (kept at or above the Death Point).
    pub hp: i16,
    /// Maximum HP (lowered by crippling damage).
    pub max: i16,
    /// Non-lethal tally; for regenerators the lethal tally (kept at most max(hp, 0) + 1).
    pub tally: i16,
    /// Magic Points left, in halves.
    pub mp2: i16,
    /// Lasting +to-hit from a BtH spell.
    pub buff: i8,
    /// This round's action.
    pub act: u8,
}

/// The whole duel state between steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    /// Round number; 0 while rolling HP.
    pub round: u32,
    /// [`INIT`], [`ROUND_START`] or [`ATTACK`].
    pub stage: u8,
    /// Next creature whose HP is rolled (slot index, side A first).
    pub init_i: u8,
    /// Segment: 0 Magic, 1 Missile, 2 Melee.
    pub seg: u8,
    /// Group within the segment: 0 the faster side (or both at equal speed), 1 the slower.
    pub sub: u8,
    /// Acting creature: slots 0–3 are side B's creatures (rolled first, «Order of Combat
    /// §2.1»), 4–7 side A's.
    pub slot: u8,
    /// Attack of the action being resolved.
    pub atk: u8,
    /// Creatures able when the group started (bit side·4 + index).
    pub snap: u8,
    /// Every creature, by side.
    pub m: [[MState; MAX_BAND]; 2],
}

impl State {
    /// The state before HP are rolled.
    pub fn start() -> State {
        State::default()
    }
}

/// Statistics a Monte Carlo duel gathers on the side; the exact solver ignores them.
pub trait Tally {
    /// An attack roll by side `by`; `damage` dealt if it hit.
    fn attack(&mut self, by: usize, hit: bool, crit: bool, fumble: bool, damage: i32);
    /// A spell cast by side `by`.
    fn spell(&mut self, by: usize);
    /// A resistance roll of side `by` lowered the damage it took.
    fn resisted(&mut self, by: usize);
}

/// A tally that records nothing.
pub struct NoTally;

impl Tally for NoTally {
    #[inline]
    fn attack(&mut self, _: usize, _: bool, _: bool, _: bool, _: i32) {}
    #[inline]
    fn spell(&mut self, _: usize) {}
    #[inline]
    fn resisted(&mut self, _: usize) {}
}

/// Able to fight: HP above 0 and no tally above current HP («Damage and Death §1.2, §2.2»).
#[inline]
pub fn able(ms: &MState) -> bool {
    ms.hp > 0 && ms.tally <= ms.hp
}

/// Dead (HP ≤ Death Point), or a regenerator "dead" from its lethal tally (§5.3.1).
#[inline]
pub fn finished(f: &Fighter, ms: &MState) -> bool {
    i32::from(ms.hp) <= f.death_point || (f.regenerates && ms.tally > ms.hp)
}

#[inline]
fn member(slot: u8) -> (usize, usize) {
    (if slot < 4 { 1 } else { 0 }, (slot % 4) as usize)
}

#[inline]
fn bit(side: usize, i: usize) -> u8 {
    1 << (side * 4 + i)
}

/// The segment of an action.
#[inline]
fn seg_of(f: &Fighter, act: u8) -> u8 {
    match act {
        ACT_NONE => 3,
        ACT_ATTACK => {
            if f.missile {
                1
            } else {
                2
            }
        }
        _ => 0,
    }
}

/// Which sides act in group `sub` of a segment.
#[inline]
fn group_sides(m: &Matchup, sub: u8) -> Option<[bool; 2]> {
    let (a, b) = (m.f[0].order_speed, m.f[1].order_speed);
    match (sub, a.cmp(&b)) {
        (0, std::cmp::Ordering::Equal) => Some([true, true]),
        (0, std::cmp::Ordering::Greater) | (1, std::cmp::Ordering::Less) => Some([true, false]),
        (0, std::cmp::Ordering::Less) | (1, std::cmp::Ordering::Greater) => Some([false, true]),
        _ => None,
    }
}

#[inline]
fn acts_in_group(m: &Matchup, s: &State, slot: u8, sides: [bool; 2]) -> bool {
    let (side, i) = member(slot);
    i < m.f[side].count as usize
        && sides[side]
        && s.snap & bit(side, i) != 0
        && seg_of(&m.f[side], s.m[side][i].act) == s.seg
}

/// Moves to the first actor of the next non-empty group at or after (seg, sub), or to the next
/// round's start.
fn enter_group(m: &Matchup, s: &mut State) {
    while s.seg < 3 {
        if let Some(sides) = group_sides(m, s.sub) {
            let mut snap = 0u8;
            for side in 0..2 {
                for i in 0..m.f[side].count as usize {
                    if able(&s.m[side][i]) {
                        snap |= bit(side, i);
                    }
                }
            }
            s.snap = snap;
            if let Some(slot) = (0..8).find(|&k| acts_in_group(m, s, k, sides)) {
                s.slot = slot;
                s.atk = 0;
                s.stage = ATTACK;
                return;
            }
            s.sub += 1;
        } else {
            s.seg += 1;
            s.sub = 0;
        }
    }
    // The round is over: clear the cursor and the actions so equal states merge.
    s.round += 1;
    s.stage = ROUND_START;
    s.sub = 0;
    s.seg = 0;
    s.slot = 0;
    s.atk = 0;
    s.snap = 0;
    for side in s.m.iter_mut() {
        for ms in side.iter_mut() {
            ms.act = ACT_NONE;
        }
    }
}

/// The lowest-HP creature of `side` among those in `mask` and passing `ok` (ties → first).
#[inline]
fn lowest(
    m: &Matchup,
    s: &State,
    side: usize,
    ok: impl Fn(usize, &MState) -> bool,
) -> Option<usize> {
    let mut best: Option<usize> = None;
    for j in 0..m.f[side].count as usize {
        let ms = &s.m[side][j];
        if ok(j, ms) && best.is_none_or(|b| ms.hp < s.m[side][b].hp) {
            best = Some(j);
        }
    }
    best
}

/// Target choice (digest AI "lowest_hp", G-18): a foe able at the group's start and still up;
/// else the original target (able at the group's start); under `fight_to = "death"` a downed
/// foe not yet dead.
fn target(m: &Matchup, o: &D20Options, s: &State, foe: usize) -> Option<usize> {
    let snap = s.snap;
    lowest(m, s, foe, |j, ms| snap & bit(foe, j) != 0 && able(ms))
        .or_else(|| lowest(m, s, foe, |j, _| snap & bit(foe, j) != 0))
        .or_else(|| {
            if o.fight_to == FightTo::Death {
                lowest(m, s, foe, |_, ms| !finished(&m.f[foe], ms))
            } else {
                None
            }
        })
}

fn halve(o: &D20Options, d: i32) -> i32 {
    match o.halve_rounding {
        HalveRounding::FloorMin1 => (d / 2).max(1),
        HalveRounding::Ceil => (d + 1) / 2,
        HalveRounding::Floor => d / 2,
    }
}

/// Applies `d` points of damage of `kind` to a creature («Damage and Death»).
#[inline]
pub fn apply(o: &D20Options, f: &Fighter, ms: &mut MState, d: i32, kind: DamageKind) {
    let d = d.clamp(0, 10_000) as i16;
    match kind {
        DamageKind::Lethal if f.regenerates => ms.tally = ms.tally.saturating_add(d),
        DamageKind::Lethal | DamageKind::NonRegenerative => ms.hp -= d,
        DamageKind::Nonlethal => {
            if !f.regenerates {
                ms.tally = ms.tally.saturating_add(d);
            }
        }
        DamageKind::Crippling if f.regenerates => ms.hp -= d,
        DamageKind::Crippling => {
            ms.max -= d;
            match o.crippling_current {
                CripplingCurrent::Cap => ms.hp = ms.hp.min(ms.max),
                CripplingCurrent::Reduce => ms.hp -= d,
            }
        }
    }
    let dp = f.death_point as i16;
    ms.hp = ms.hp.max(dp);
    if ms.max != 0 {
        ms.max = ms.max.max(dp);
    }
    ms.tally = ms.tally.min(ms.hp.max(0) + 1);
}

/// Rolls a hit's damage: full damage on a natural 20 under `crit_rule = "max"`.
#[inline]
fn roll_damage<R: Roller>(a: &Attack, crit_max: bool, r: &mut R) -> i32 {
    if crit_max {
        return a.max_damage();
    }
    let mut v = a.dice.plus;
    for _ in 0..a.dice.n {
        v += r.roll(u32::from(a.dice.sides)) as i32;
    }
    a.clamp(v)
}

/// Chooses every able creature's action for the round (digest §6 AI: a BtH spell not yet
/// active, else the best affordable damage spell that beats the attack, else attack; a
/// crossbow reloads in even rounds).
fn choose_actions(m: &Matchup, s: &mut State) {
    for side in 0..2 {
        let f = &m.f[side];
        for i in 0..f.count as usize {
            let ms = s.m[side][i];
            let mut act = ACT_NONE;
            if able(&ms) {
                let mp = i32::from(ms.mp2);
                for k in 0..f.n_spells as usize {
                    let sp = &f.spells[k];
                    if sp.bth > i32::from(ms.buff) && mp >= sp.cost2 {
                        act = ACT_SPELL + k as u8;
                        break;
                    }
                }
                if act == ACT_NONE {
                    for j in 0..m.n_order[side] as usize {
                        let k = m.spell_order[side][j] as usize;
                        if mp >= f.spells[k].cost2 {
                            act = ACT_SPELL + k as u8;
                            break;
                        }
                    }
                }
                if act == ACT_NONE && !(f.crossbow && s.round.is_multiple_of(2)) {
                    act = ACT_ATTACK;
                }
            }
            s.m[side][i].act = act;
        }
    }
}

/// Who wins if a side is out after a group; `None` while the duel goes on.
fn verdict(m: &Matchup, o: &D20Options, s: &State) -> Option<(Winner, Ending)> {
    let out = |side: usize| (0..m.f[side].count as usize).all(|j| !able(&s.m[side][j]));
    let all_dead = |side: usize| {
        (0..m.f[side].count as usize).all(|j| i32::from(s.m[side][j].hp) <= m.f[side].death_point)
    };
    let ending = |side: usize| {
        if all_dead(side) {
            Ending::Death
        } else {
            Ending::Incapacitated
        }
    };
    match (out(0), out(1)) {
        (false, false) => None,
        (true, true) => Some((
            Winner::Draw,
            if all_dead(0) || all_dead(1) {
                Ending::Death
            } else {
                Ending::Incapacitated
            },
        )),
        (a_out, _) => {
            let loser = if a_out { 0 } else { 1 };
            let winner = if a_out { Winner::B } else { Winner::A };
            if o.fight_to == FightTo::Death {
                let killer = &m.f[1 - loser];
                let can_kill = lethal(killer);
                let done = (0..m.f[loser].count as usize)
                    .all(|j| !can_kill || finished(&m.f[loser], &s.m[loser][j]));
                if !done {
                    return None;
                }
            }
            Some((winner, ending(loser)))
        }
    }
}

/// Whether a fighter can kill a downed foe (any attack or spell not non-lethal).
fn lethal(f: &Fighter) -> bool {
    f.attacks[..f.n_attacks as usize]
        .iter()
        .any(|a| a.kind != DamageKind::Nonlethal)
        || f.spells[..f.n_spells as usize].iter().any(|s| s.damage > 0)
}

/// One step of the duel.
pub fn step<R: Roller, T: Tally>(
    m: &Matchup,
    o: &D20Options,
    s: &mut State,
    r: &mut R,
    tally: &mut T,
) -> Step {
    match s.stage {
        INIT => {
            let next = |from: u8| {
                (from..8).find(|&k| ((k % 4) as usize) < m.f[(k / 4) as usize].count as usize)
            };
            if let Some(k) = next(s.init_i) {
                let (side, i) = ((k / 4) as usize, (k % 4) as usize);
                let f = &m.f[side];
                let hp = f.hp.roll(r) as i16;
                s.m[side][i] = MState {
                    hp,
                    // Tracked only when crippling damage can lower it, so equal states merge.
                    max: if m.crippling { hp } else { 0 },
                    tally: 0,
                    mp2: f.mp2 as i16,
                    buff: 0,
                    act: ACT_NONE,
                };
                s.init_i = k + 1;
            }
            if next(s.init_i).is_none() {
                s.stage = ROUND_START;
                s.round = 1;
            }
            Step::Continue
        }
        ROUND_START => {
            if s.round > o.max_rounds {
                return Step::Over(Winner::Draw, Ending::RoundCap);
            }
            choose_actions(m, s);
            s.seg = 0;
            s.sub = 0;
            enter_group(m, s);
            Step::Continue
        }
        _ => {
            attack(m, o, s, r, tally);
            // Next attack, next actor, or the end of the group.
            let (side, i) = member(s.slot);
            let act = s.m[side][i].act;
            let n = if act == ACT_ATTACK {
                m.f[side].n_attacks
            } else {
                1
            };
            if s.atk + 1 < n {
                s.atk += 1;
                return Step::Continue;
            }
            let sides = group_sides(m, s.sub).expect("in a group");
            if let Some(k) = (s.slot + 1..8).find(|&k| acts_in_group(m, s, k, sides)) {
                s.slot = k;
                s.atk = 0;
                return Step::Continue;
            }
            if let Some((w, e)) = verdict(m, o, s) {
                return Step::Over(w, e);
            }
            s.sub += 1;
            enter_group(m, s);
            Step::Continue
        }
    }
}

/// Resolves the current attack (or spell) of the current actor.
fn attack<R: Roller, T: Tally>(m: &Matchup, o: &D20Options, s: &mut State, r: &mut R, t: &mut T) {
    let (side, i) = member(s.slot);
    let foe = 1 - side;
    let f = &m.f[side];
    let act = s.m[side][i].act;
    let a = if act >= ACT_SPELL {
        let sp = &f.spells[(act - ACT_SPELL) as usize];
        let me = &mut s.m[side][i];
        me.mp2 -= sp.cost2 as i16;
        me.buff = me.buff.max(sp.bth as i8);
        t.spell(side);
        if sp.damage == 0 {
            return;
        }
        sp.attack
    } else {
        f.attacks[s.atk as usize]
    };
    let Some(j) = target(m, o, s, foe) else {
        return;
    };
    let g = &m.f[foe];
    let helpless = o.helpless_auto_hit && o.fight_to == FightTo::Death && !able(&s.m[foe][j]);
    let roll = r.roll(20) as i32;
    if roll == 1 && !helpless {
        if o.nat1_fumble {
            // «Rolling Attacks §2»: the minimum damage of every engaged opponent (G-16: every
            // foe able when the group started).
            for k in 0..g.count as usize {
                if s.snap & bit(foe, k) != 0 {
                    apply(o, f, &mut s.m[side][i], g.min_dmg, g.min_kind);
                }
            }
        }
        t.attack(side, false, false, true, 0);
        return;
    }
    let buff = i32::from(s.m[side][i].buff);
    let hit = roll == 20 || roll + a.to_hit + buff >= g.def || helpless;
    if !hit {
        t.attack(side, false, false, false, 0);
        return;
    }
    let crit = roll == 20 && o.nat20_full_damage;
    let full = roll_damage(&a, crit && crit_is_max(o), r);
    let mut dmg = full;
    let res = if a.magic { g.magic_resist } else { g.resist };
    let mut reflect = 0;
    let bypass = crit && o.crit_rule == CritRule::BypassResistance;
    if let (Some(level), false) = (res, bypass) {
        dmg = match resist_result(level, r.roll(20)) {
            Resist::Normal => full,
            Resist::MinusOne => (full - 1).max(1),
            Resist::Half => halve(o, full),
            Resist::One => full.min(1),
            Resist::Zero => 0,
            Resist::Reflect => {
                reflect = halve(o, full);
                0
            }
        };
        if dmg < full {
            t.resisted(foe);
        }
    }
    apply(o, g, &mut s.m[foe][j], dmg, a.kind);
    if reflect > 0 {
        apply(o, f, &mut s.m[side][i], reflect, a.kind);
    }
    t.attack(side, true, crit, false, dmg);
}
