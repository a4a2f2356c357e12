//! The duel as a small state machine, shared by the Monte Carlo duel and the exact solver.
//!
//! One [`step`] is either the start of a round (initiative, bleeding, Incapacitated rolls,
//! declarations, dodge rolls), one declared action resolved in its phase, or one part of a
//! blast an explosive set off (the avoidance roll, then the damage). The Monte Carlo
//! duel calls it with a random roller until the duel ends; the exact solver calls it with
//! every sequence of faces. Digest §4.15 is the specification.

use super::Gamecraft;
use super::fighter::{DieTable, Fighter, Matchup};
use super::options::{
    AvoidRoll, CritEffect, DodgeTiming, EndCondition, ExplodeMode, ExplosionDelivery, FumbleEffect,
    GamecraftOptions, HalfMove, InitiativeTie, MovePenaltyMode, MovingTargetScope, MultiActionMode,
    PenaltyScope, StrafeCritTiming, StrafeHitRule, ThrowerInBlast,
};
use super::reference;
use super::spec::{ActionPlan, GracePolicy, OwnBlast, PenaltySplit, ReservePolicy};
use super::tables::gc_die;
use crate::{Ending, Roller, Winner};

/// One fighter's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
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
    pub bleed: u16,
    /// Just entered Incapacitated: the Constitution roll is made in the next step.
    pub incap_pending: bool,
    /// A move action this round: always the first action, so in phase 1.
    pub mv: bool,
    /// A move-only round (up to 3× Move, no other action).
    pub run: bool,
    /// This round's move action steps away from the enemy (`own_blast = "step_back"`)
    /// instead of toward the movement goal.
    pub back: bool,
    /// This round opens with the free ½ Move (`half_move = "into_melee"`): before its first
    /// action the fighter steps from Short into Point Blank, which is no action.
    pub free_mv: bool,
    /// This round's declared actions are simultaneous: all in the fighter's phase-1 slot.
    pub sim: bool,
    /// The reserved action: 0 none this round, 1 held, 2 used.
    pub reserve: u8,
    /// First aid is this round's only action.
    pub aid_act: bool,
    /// Wound status (3–5) at which first aid stopped (at 5: slowed) the bleeding; 0 = none.
    pub aided: u8,
    /// Rounds left in the loaded magazine (0 when ammunition is not tracked).
    pub ammo: u8,
    /// Spare magazines left.
    pub spare: u8,
    /// Actions already spent on the reload under way (`reload_actions` > 1).
    pub loading: u8,
    /// The dodge die is not read yet (only where the roller defers dice, `Roller::defers`:
    /// the exact solver): `dodge` holds the roll's modifiers, and the attack that meets the
    /// dodge branches on its die and the attack's together (the dodge is used only through
    /// that attack's class), so live states do not multiply by the die's 16 values.
    pub dodge_deferred: bool,
}

/// The whole duel state between steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
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
    /// The distance category between the fighters (0 Point Blank … 4 Extreme).
    pub dist: u8,
    /// A blast waiting to be resolved ([`Blast`], packed; 0 = none).
    pub blast: u16,
}

/// A pending blast («Explosions»): set off by an explosive, then resolved in two steps of its
/// own (the avoidance roll, then damage against resistance), so the exact solver enumerates
/// the dice of each part after the other instead of their product. A blast that also catches
/// its thrower (`blast_catches_thrower`) is resolved on the target, then on the thrower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blast {
    /// The fighter caught in it (the other set it off).
    pub target: usize,
    /// The blast Range the target is in: 0 Short, 1 Medium, 2 Long.
    pub band: u8,
    /// The avoidance roll is done (or skipped); damage comes next.
    pub damage_stage: bool,
    /// No Constitution against the damage (a critical failure, or an unaware target).
    pub no_con: bool,
    /// The target set the device off itself (the thrower caught in his own blast).
    pub own: bool,
    /// The thrower is caught next, at blast Range `thrower - 1`; 0 = not caught.
    pub thrower: u8,
}

impl Blast {
    /// Packs into a non-zero word.
    pub fn encode(self) -> u16 {
        0x8000
            | self.target as u16
            | u16::from(self.band & 3) << 1
            | u16::from(self.damage_stage) << 3
            | u16::from(self.no_con) << 4
            | u16::from(self.own) << 5
            | u16::from(self.thrower & 3) << 6
    }
    /// Unpacks [`Blast::encode`]; `None` for 0.
    pub fn decode(v: u16) -> Option<Blast> {
        (v != 0).then_some(Blast {
            target: usize::from(v & 1),
            band: ((v >> 1) & 3) as u8,
            damage_stage: v & 8 != 0,
            no_con: v & 16 != 0,
            own: v & 32 != 0,
            thrower: ((v >> 6) & 3) as u8,
        })
    }
    /// A blast on its target only, as set off by the enemy.
    pub fn on(target: usize, band: u8, damage_stage: bool, no_con: bool) -> Blast {
        Blast {
            target,
            band,
            damage_stage,
            no_con,
            own: false,
            thrower: 0,
        }
    }
}

impl FState {
    /// Every field packed into one word (the exact solver hashes states by the million).
    #[inline]
    fn packed(&self) -> u64 {
        let flags = u64::from(self.full)
            | u64::from(self.dodge_on) << 1
            | u64::from(self.skip) << 2
            | u64::from(self.unconscious) << 3
            | u64::from(self.incap_pending) << 4
            | u64::from(self.mv) << 5
            | u64::from(self.run) << 6
            | u64::from(self.sim) << 7
            | u64::from(self.aid_act) << 8
            | u64::from(self.reserve & 3) << 9
            | u64::from(self.aided & 7) << 11
            | u64::from(self.dodge_slot & 15) << 14
            | u64::from(self.n_att & 15) << 18;
        let ammo = u64::from(self.ammo)
            | u64::from(self.spare) << 8
            | u64::from(self.loading) << 13
            | u64::from(self.dodge_deferred) << 21
            | u64::from(self.back) << 22
            | u64::from(self.free_mv) << 23;
        (u64::from(self.dmg)
            | u64::from(self.fat) << 8
            | u64::from(self.grace) << 16
            | u64::from(self.dodge as u8) << 24
            | u64::from(self.bleed) << 32
            | flags << 48)
            ^ ammo.rotate_left(40)
    }
}

impl std::hash::Hash for FState {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.packed());
    }
}

impl std::hash::Hash for State {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(
            u64::from(self.round)
                | u64::from(self.ev) << 32
                | u64::from(self.first) << 40
                | u64::from(self.init) << 41
                | u64::from(self.surprised) << 42
                | u64::from(self.pre) << 48
                | u64::from(self.dist) << 56 ^ u64::from(self.blast) << 43,
        );
        h.write_u64(self.f[0].packed());
        h.write_u64(self.f[1].packed());
    }
}

crate::duel_state!(State);

pub use crate::outcome::{NoTally, Tally};

/// Per-side counters (see [`super::COUNTERS`] and [`Tally::count_side`]).
pub(super) const CRITICALS: usize = 0;
pub(super) const FUMBLES: usize = 1;
const DODGES: usize = 2;
pub(super) const GRACE: usize = 3;

#[cfg(test)]
#[test]
fn per_side_counters_match_their_names() {
    let n = |k: usize| super::COUNTERS[k];
    assert_eq!(
        [n(CRITICALS), n(FUMBLES), n(DODGES), n(GRACE)],
        ["a_criticals", "a_fumbles", "a_dodges", "a_grace_spent"]
    );
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

/// What a fighter declared this round, as far as the multiple-action penalty is concerned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// Attacks.
    pub n_att: u8,
    /// A dodge action.
    pub dodge: bool,
    /// A reserved action (counts whether used or not, «Reserved Actions»).
    pub reserve: bool,
    /// A move action (not a check; changes the total under G12).
    pub mv: bool,
    /// A first-aid check.
    pub aid: bool,
}

impl Declared {
    /// `n_att` attacks and maybe a dodge, nothing else.
    pub fn attacks(n_att: u8, dodge: bool) -> Declared {
        Declared {
            n_att,
            dodge,
            ..Declared::default()
        }
    }
    /// The declaration held in a fighter's state.
    pub fn of(st: &FState) -> Declared {
        Declared {
            n_att: st.n_att,
            dodge: st.dodge_slot > 0,
            reserve: st.reserve > 0,
            mv: st.mv,
            aid: st.aid_act,
        }
    }
}

/// One check of the round, for [`alloc_pen`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The `i`-th attack (0-based).
    Attack(u8),
    /// The dodge action.
    Dodge,
    /// The reserved action, whatever it is used for.
    Reserve,
    /// First aid.
    Aid,
}

/// The multiple-action penalty (positive) on one check (digest §4.2, G2, G12).
///
/// N actions cost N × `multi_action_penalty` in total, or N − 1 of them when one is a move
/// under `move_action_penalty_mode = "movement_section"`. The move is not a check, so the
/// total is split over the others: evenly (remainder on the attacks, then the dodge, the
/// reserved action, first aid), all on the attacks, or all on a declared dodge. The reserved
/// action's share is fixed at declaration and stays charged if it goes unused; no split puts
/// more than an even share on it, so leaving it unused never escapes the penalty.
pub fn alloc_pen(o: &GamecraftOptions, split: PenaltySplit, d: Declared, which: Check) -> i32 {
    let na = i32::from(d.n_att);
    let checks = na + i32::from(d.dodge) + i32::from(d.reserve) + i32::from(d.aid);
    let l = checks + i32::from(d.mv);
    if l <= 1 || checks == 0 {
        return 0;
    }
    let counted = if d.mv && o.move_action_penalty_mode == MovePenaltyMode::MovementSection {
        l - 1
    } else {
        l
    };
    let total = counted * o.multi_action_penalty;
    if o.multi_action_mode == MultiActionMode::PerCheck {
        return total;
    }
    match (split, d.dodge) {
        (PenaltySplit::AllOnDodge, true) => {
            if which == Check::Dodge {
                total
            } else {
                0
            }
        }
        (PenaltySplit::AllOnAttack, _) if na > 0 => match which {
            Check::Attack(i) => total / na + i32::from(i32::from(i) < total % na),
            _ => 0,
        },
        _ => {
            let (base, rem) = (total / checks, total % checks);
            let idx = match which {
                Check::Attack(i) => i32::from(i),
                Check::Dodge => na,
                Check::Reserve => na + i32::from(d.dodge),
                Check::Aid => na + i32::from(d.dodge) + i32::from(d.reserve),
            };
            base + i32::from(idx < rem)
        }
    }
}

/// The simultaneous-actions penalty (positive) on each of a fighter's declared checks:
/// `simultaneous_penalty` per other action in the same phase («Simultaneous Actions»).
#[inline]
pub fn sim_pen(o: &GamecraftOptions, st: &FState) -> i32 {
    if st.sim {
        (i32::from(n_actions(st)) - 1).max(0) * o.simultaneous_penalty
    } else {
        0
    }
}

#[inline]
fn n_actions(st: &FState) -> u8 {
    if st.full || st.run || st.aid_act {
        1
    } else {
        st.n_att + u8::from(st.dodge_slot > 0) + u8::from(st.mv)
    }
}

/// The phase of a fighter's `slot`-th action: its own number, or 1 when simultaneous.
#[inline]
fn phase_of(st: &FState, slot: u8) -> u8 {
    if st.sim { 1 } else { slot }
}

/// The `k`-th action of the round: (fighter, 1-based slot), or `None` when the round is over.
/// Phase p holds every fighter's p-th action in initiative order; a simultaneous fighter's
/// actions all sit in its phase-1 slot («Simultaneous Actions»).
#[inline]
pub(super) fn event(s: &State, k: u8) -> Option<(usize, u8)> {
    let first = s.first as usize;
    let len = [n_actions(&s.f[0]), n_actions(&s.f[1])];
    let mut i = 0;
    if !s.f[0].sim && !s.f[1].sim {
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
        return None;
    }
    for phase in 1..=len[0].max(len[1]) {
        for who in [first, 1 - first] {
            let (lo, hi) = if s.f[who].sim {
                (1, if phase == 1 { len[who] } else { 0 })
            } else {
                (phase, if len[who] >= phase { phase } else { 0 })
            };
            for slot in lo..=hi {
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
    if s.blast != 0 {
        false
    } else if s.ev == u8::MAX {
        s.pre == 0 && !s.f.iter().any(|f| f.incap_pending)
    } else {
        event(s, s.ev).is_none() && !s.f.iter().any(|f| f.incap_pending)
    }
}

enum Act {
    Attack(u8),
    Dodge,
    FullDodge,
    Move,
    Run,
    Aid,
}

fn act(st: &FState, slot: u8) -> Act {
    if st.full {
        Act::FullDodge
    } else if st.run {
        Act::Run
    } else if st.aid_act {
        Act::Aid
    } else if st.mv && slot == 1 {
        Act::Move
    } else {
        let k = slot - u8::from(st.mv);
        if st.dodge_slot == k {
            Act::Dodge
        } else {
            Act::Attack(k - 1 - u8::from(st.dodge_slot != 0 && st.dodge_slot < k))
        }
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

/// Up to two dice (`n` = 0, 1 or 2, rolled one after the other) that the step uses only
/// through `outcome(first, second)` (an unrolled die counts 0): Monte Carlo rolls them with
/// [`gc_die`], the same faces as ever; the exact solver branches once per distinct outcome,
/// with its exact probability from the die's table (`Roller::outcome`), rather than once per
/// sequence of faces (16 per die, 256 for two).
#[inline]
pub(super) fn dice<R: Roller>(
    die: &DieTable,
    mode: ExplodeMode,
    n: u8,
    r: &mut R,
    outcome: impl Fn(i32, i32) -> i32,
) -> i32 {
    match n {
        0 => outcome(0, 0),
        1 => r.outcome(
            |w| {
                for (v, weight) in die.weights() {
                    w.add(outcome(v, 0), weight);
                }
            },
            |r| outcome(gc_die(r, mode), 0),
        ),
        _ => r.outcome(
            |w| {
                for (v1, w1) in die.weights() {
                    for (v2, w2) in die.weights() {
                        w.add(outcome(v1, v2), w1 * w2);
                    }
                }
            },
            |r| {
                let first = gc_die(r, mode);
                outcome(first, gc_die(r, mode))
            },
        ),
    }
}

/// The Incapacitated Constitution roll: `CON + die − penalties ≥ incap_con_tn`.
pub(super) fn incap_roll<R: Roller>(
    o: &GamecraftOptions,
    die: &DieTable,
    f: &Fighter,
    st: &FState,
    r: &mut R,
) -> bool {
    let need = o.incap_con_tn - f.con + pen(o, f, st);
    dice(die, o.explode_mode, 1, r, |d, _| i32::from(d >= need)) == 1
}

/// Rolls a dodge for fighter `i`: the declared dodge action (`check = Check::Dodge`), or the
/// reserved action used as one (`Check::Reserve`).
fn roll_dodge<R: Roller, T: Tally>(
    m: &Matchup,
    o: &GamecraftOptions,
    s: &mut State,
    i: usize,
    check: Check,
    r: &mut R,
    tally: &mut T,
) {
    let (f, st) = (&m.f[i], s.f[i]);
    let g = if f.grace_policy == GracePolicy::SaveForDefense {
        m.line[1 - i].cd.min(i32::from(st.grace)).max(0) as u8
    } else {
        0
    };
    let sim = if check == Check::Dodge {
        sim_pen(o, &st)
    } else {
        0
    };
    let modifiers =
        i32::from(g) - alloc_pen(o, f.split, Declared::of(&st), check) - sim - pen(o, f, &st);
    // The exact solver leaves the die to the attack that meets the dodge (`dodge_deferred`).
    let defer = r.defers() && (-100..=100).contains(&modifiers);
    s.f[i].grace -= g;
    s.f[i].dodge = if defer {
        modifiers as i8
    } else {
        dodged(modifiers, gc_die(r, o.explode_mode))
    };
    s.f[i].dodge_deferred = defer;
    s.f[i].dodge_on = true;
    tally.count_side(i, DODGES, 1);
    tally.count_side(i, GRACE, u32::from(g));
}

/// The dodge result added to the defense score: the die plus the roll's modifiers.
#[inline]
fn dodged(modifiers: i32, die: i32) -> i8 {
    (die + modifiers).clamp(-120, 120) as i8
}

/// Whether an attack by `y`'s enemy meets `y`'s dodge later this round (from event `s.ev`
/// on): otherwise [`tidy`] forgets the dodge after this step.
fn attacked_later(s: &State, y: usize) -> bool {
    let mut k = s.ev;
    while let Some((who, slot)) = event(s, k) {
        if who != y && matches!(act(&s.f[who], slot), Act::Attack(_)) {
            return true;
        }
        k += 1;
    }
    false
}

/// Whether `f` bleeds (option `bleeding`) and has had no first aid at its present status.
#[inline]
fn wants_aid(o: &GamecraftOptions, f: &Fighter, st: &FState) -> bool {
    let status = f.status(st.dmg);
    o.bleeding && (3..6).contains(&status) && usize::from(st.aided) != status
}

/// The blast Range (0 Short, 1 Medium, 2 Long) at which a fighter's own blast catches it when
/// it stands at distance category `d` from the target, under `blast_catches_thrower`; `None`
/// outside the blast.
#[inline]
pub fn own_band(o: &GamecraftOptions, d: u8) -> Option<u8> {
    let out = match o.blast_catches_thrower {
        ThrowerInBlast::Never => return None,
        ThrowerInBlast::PointBlank if d > 0 => return None,
        ThrowerInBlast::PointBlank => 0,
        ThrowerInBlast::ByDistance => d,
    };
    let band = o.explosion_range as u8 + out;
    (band <= 2).then_some(band)
}

/// Whether `x` holds its explosive at distance `d` (`own_blast = "step_back"`: a competent
/// grenadier does not throw where the blast would catch him as fully as the target, at Point
/// Blank; further out, under `blast_catches_thrower = "by_distance"`, he is a Range or more
/// further from the centre than his target and throws).
#[inline]
fn holds_throw(m: &Matchup, o: &GamecraftOptions, x: usize, d: u8) -> bool {
    m.line[x].explosive
        && m.f[x].own_blast == OwnBlast::StepBack
        && d == 0
        && own_band(o, d).is_some()
}

/// Distance categories a fighter crosses with a move action (`run = false`) or a move-only
/// round (G21): Badly and Critically Wounded fighters "cannot move faster than Move", so a run
/// crosses no more than a move action; a conscious Incapacitated fighter (≤ 3 ft) none.
#[inline]
fn bands(o: &GamecraftOptions, f: &Fighter, st: &FState, run: bool) -> u8 {
    match f.status(st.dmg) {
        0..=2 if run => o.move_only_bands,
        0..=4 => o.move_action_bands,
        _ => 0,
    }
}

/// The distance after moving from `d` toward `goal` by at most `n` categories.
#[inline]
fn toward(d: u8, goal: u8, n: u8) -> u8 {
    if d > goal {
        d - n.min(d - goal)
    } else {
        d + n.min(goal - d)
    }
}

/// A round's declaration.
#[derive(Clone, Copy, Debug, Default)]
struct Plan {
    n_att: u8,
    dodge_slot: u8,
    full: bool,
    mv: bool,
    free_mv: bool,
    back: bool,
    run: bool,
    aid: bool,
    reserve: bool,
}

/// The fighter's declaration for the round (digest §6 AI policies): first aid while bleeding
/// (if it gives itself first aid); else the action plan, led by a move action when it is
/// not yet at its movement goal and its weapon reaches from where the move ends, or a
/// move-only round when it does not; plus a reserved action under `reserve`.
fn plan(m: &Matchup, o: &GamecraftOptions, s: &State, i: usize) -> Plan {
    let (f, st) = (&m.f[i], &s.f[i]);
    let mut p = Plan::default();
    if helpless(o, f, st) {
        return p;
    }
    if f.aid_base.is_some() && wants_aid(o, f, st) {
        p.aid = true;
        return p;
    }
    let (mut n_att, mut dodge_slot, full) = match f.plan {
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
    };
    if full {
        p.full = true;
        return p;
    }
    let line = &m.line[i];
    let mut at = s.dist;
    if let Some(goal) = f.goal.filter(|&g| g != s.dist) {
        let after = toward(s.dist, goal, bands(o, f, st, false));
        if o.half_move == HalfMove::IntoMelee
            && (s.dist, goal) == (1, 0)
            && after == 0
            && n_att > 0
            && line.reach[0]
            && !m.line[1 - i].reach[1]
        {
            // «Movement in Combat»: the step into melee is the free ½ Move. A competent
            // fighter takes it unless the enemy can attack him at Short: there he declares
            // the move action instead, whose moving-target +2 TN may outweigh its −1.
            p.free_mv = true;
            at = 0;
        } else if after != s.dist && n_att > 0 && line.reach[usize::from(after)] {
            p.mv = true;
            at = after;
        } else if bands(o, f, st, true) > 0 {
            p.run = true;
            return p;
        }
    }
    // «Explosions»: a grenadier whose blast would catch it (`own_blast = "step_back"`) leads
    // with a move action away, then throws from where it ends.
    if !p.mv && n_att > 0 && holds_throw(m, o, i, at) {
        let after = toward(at, 4, bands(o, f, st, false));
        if after != at && line.reach[usize::from(after)] {
            p.mv = true;
            p.back = true;
            at = after;
        }
    }
    // Out of reach, or out of ammunition: no attack to declare.
    let dry = dry(f, st);
    if !line.reach[usize::from(at)] || dry {
        n_att = 0;
        dodge_slot = dodge_slot.min(1);
    }
    p.n_att = n_att;
    p.dodge_slot = dodge_slot;
    p.reserve = match f.reserve {
        ReservePolicy::None => false,
        ReservePolicy::Interrupt => !dry,
        ReservePolicy::Dodge => true,
    };
    p
}

/// Who acts first (0 = A): both initiative rolls (penalised under `wound_penalty_scope =
/// "all_rolls"`), then Initiative, Prowess and Perception on a tie, then
/// `initiative_final_tie`.
#[inline]
pub(super) fn initiative<R: Roller>(
    m: &Matchup,
    o: &GamecraftOptions,
    f: &[FState; 2],
    r: &mut R,
) -> u8 {
    let all = o.wound_penalty_scope == PenaltyScope::AllRolls;
    let base = [0, 1].map(|i| {
        let p = if all { pen(o, &m.f[i], &f[i]) } else { 0 };
        m.f[i].derived.initiative - p
    });
    // Who is first on the totals (0 or 1), or 2 on a tie.
    let order = dice(&m.die, o.explode_mode, 2, r, |da, db| {
        match (base[0] + da).cmp(&(base[1] + db)) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 2,
        }
    });
    let (ka, kb) = (m.f[0].init_key, m.f[1].init_key);
    if order < 2 {
        order as u8
    } else if ka != kb {
        u8::from(kb > ka)
    } else {
        match o.initiative_final_tie {
            InitiativeTie::Random => (r.roll(2) - 1) as u8,
            InitiativeTie::A => 0,
            InitiativeTie::B => 1,
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
                    s.first = initiative(m, o, &s.f, r);
                    s.init = true;
                    return Step::Continue;
                }
            }
            p @ (1 | 2) => {
                s.pre += 1;
                let i = usize::from(p - 1);
                let (f, st) = (&m.f[i], s.f[i]);
                let status = f.status(st.dmg);
                // First aid stops the bleeding at the status it was given; at Incapacitated it
                // only stretches the interval («Bleeding»).
                let stopped = usize::from(st.aided) == status && status < 5;
                if o.bleeding && (3..6).contains(&status) && !stopped {
                    s.f[i].bleed += 1;
                    let interval = if usize::from(st.aided) == status {
                        o.bleed_interval_rounds * o.aided_incap_interval_mult
                    } else {
                        o.bleed_interval_rounds
                    };
                    if u32::from(s.f[i].bleed) >= interval {
                        s.f[i].bleed = 0;
                        // A Constitution check: penalised under either scope (G15).
                        let need = o.bleed_con_tn - f.con + pen(o, f, &st);
                        if dice(&m.die, o.explode_mode, 1, r, |d, _| i32::from(d < need)) == 1 {
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
                    if !incap_roll(o, &m.die, f, &st, r) {
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
    for (i, p) in plans.into_iter().enumerate() {
        let f = &mut s.f[i];
        f.n_att = p.n_att;
        f.dodge_slot = p.dodge_slot;
        f.full = p.full;
        f.mv = p.mv;
        f.free_mv = p.free_mv;
        f.back = p.back;
        f.run = p.run;
        f.aid_act = p.aid;
        f.reserve = u8::from(p.reserve);
        f.sim = m.f[i].simultaneous && n_actions(f) > 1;
        f.dodge = 0;
        f.dodge_on = false;
        f.dodge_deferred = false;
        if p.full {
            tally.count_side(i, DODGES, 1);
        }
    }
    if o.dodge_timing == DodgeTiming::Round {
        for i in 0..2 {
            if s.f[i].dodge_slot > 0 {
                if s.f[i].skip {
                    s.f[i].skip = false;
                } else {
                    roll_dodge(m, o, s, i, Check::Dodge, r, tally);
                }
            }
        }
    }
    s.ev = 0;
    tidy(o, s);
    Step::Continue
}

/// The end of an action's step: the verdict and, if the duel goes on, the parts of a blast
/// the action set off ([`blast_step`]: the avoidance roll, then the damage), in this same
/// step. The dice are read in the order of the parts; resolving them here rather than in
/// steps of their own keeps every duel the exact solver follows at the same step of its
/// round, so it does not track the same fight at several rounds at once.
fn end_action<R: Roller, T: Tally>(
    m: &Matchup,
    o: &GamecraftOptions,
    s: &mut State,
    r: &mut R,
    tally: &mut T,
) -> Step {
    let mut st = end_part(m, o, s);
    while st == Step::Continue
        && let Some(b) = Blast::decode(s.blast)
    {
        st = blast_step(m, o, s, b, r, tally);
    }
    st
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
        if s.f[i].dodge_on && !attacked_later(s, i) {
            s.f[i].dodge = 0;
            s.f[i].dodge_on = false;
            s.f[i].dodge_deferred = false;
        }
    }
}

impl crate::Duel<Gamecraft> for State {
    /// The state before the first round, pools full.
    fn start(_rules: &Gamecraft, m: &Matchup) -> State {
        let mut s = State {
            ev: u8::MAX,
            dist: m.dist0,
            ..State::default()
        };
        for i in 0..2 {
            s.f[i].grace = m.f[i].grace;
            s.f[i].ammo = m.f[i].mag;
            s.f[i].spare = m.f[i].spares;
        }
        s
    }

    /// Advances the duel by one step.
    #[inline]
    fn step<R: Roller, T: Tally>(
        &mut self,
        rules: &Gamecraft,
        m: &Matchup,
        r: &mut R,
        tally: &mut T,
    ) -> Step {
        let (o, s) = (rules.options(), self);
        if let Some(b) = Blast::decode(s.blast) {
            return blast_step(m, o, s, b, r, tally);
        }
        for i in 0..2 {
            if s.f[i].incap_pending {
                s.f[i].incap_pending = false;
                let (f, st) = (&m.f[i], s.f[i]);
                if !st.unconscious && !incap_roll(o, &m.die, f, &st, r) {
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
        if let Some(done) = use_reserve(m, o, s, x, slot, r, tally) {
            return done;
        }
        s.ev += 1;
        if helpless(o, &m.f[x], &s.f[x]) {
            return Step::Continue;
        }
        if s.f[x].free_mv {
            // The free ½ Move, before the fighter's first action of the round.
            s.f[x].free_mv = false;
            if let Some(goal) = m.f[x].goal {
                s.dist = toward(s.dist, goal, 1);
            }
        }
        match act(&s.f[x], slot) {
            Act::FullDodge => {}
            Act::Dodge => {
                if o.dodge_timing == DodgeTiming::FromPhase {
                    if s.f[x].skip {
                        s.f[x].skip = false;
                    } else {
                        roll_dodge(m, o, s, x, Check::Dodge, r, tally);
                    }
                }
            }
            Act::Attack(i) => {
                if s.f[x].skip {
                    s.f[x].skip = false;
                } else {
                    let phase = phase_of(&s.f[x], slot);
                    attack(m, o, s, x, Check::Attack(i), phase, r, tally);
                }
            }
            Act::Move | Act::Run => {
                if s.f[x].skip {
                    s.f[x].skip = false;
                } else if s.f[x].back {
                    s.dist = toward(s.dist, 4, bands(o, &m.f[x], &s.f[x], false));
                } else if let Some(goal) = m.f[x].goal {
                    let run = s.f[x].run;
                    s.dist = toward(s.dist, goal, bands(o, &m.f[x], &s.f[x], run));
                }
            }
            Act::Aid => {
                if s.f[x].skip {
                    s.f[x].skip = false;
                } else {
                    first_aid(m, o, s, x, r);
                }
            }
        }
        tidy(o, s);
        end_action(m, o, s, r, tally)
    }
}

/// The reserved action of `x`'s enemy, used out of turn just before `x`'s `slot`-th action
/// when its policy says so («Reserved Actions»); `Some` ends the step there.
#[inline]
fn use_reserve<R: Roller, T: Tally>(
    m: &Matchup,
    o: &GamecraftOptions,
    s: &mut State,
    x: usize,
    slot: u8,
    r: &mut R,
    tally: &mut T,
) -> Option<Step> {
    let y = 1 - x;
    if s.f[y].reserve != 1 {
        return None;
    }
    if helpless(o, &m.f[y], &s.f[y]) || helpless(o, &m.f[x], &s.f[x]) {
        return None;
    }
    let fire = match m.f[y].reserve {
        ReservePolicy::None => false,
        ReservePolicy::Interrupt => slot == 1,
        ReservePolicy::Dodge => {
            matches!(act(&s.f[x], slot), Act::Attack(_))
                && !s.f[x].skip
                && m.line[x].reach[usize::from(s.dist)]
                && !s.f[y].dodge_on
                && !s.f[y].full
        }
    };
    if !fire {
        return None;
    }
    s.f[y].reserve = 2;
    if s.f[y].skip {
        s.f[y].skip = false;
    } else if m.f[y].reserve == ReservePolicy::Dodge {
        roll_dodge(m, o, s, y, Check::Reserve, r, tally);
    } else {
        // Just before the enemy's first action, which is in phase 1.
        attack(m, o, s, y, Check::Reserve, 1, r, tally);
    }
    tidy(o, s);
    Some(end_action(m, o, s, r, tally))
}

/// First aid on oneself («Bleeding»): `first_aid_attribute` + Medicine (First Aid) + die − penalties
/// against wound levels lost + `stop_bleed_tn_base`. Success stops the bleeding until the
/// next wound level is lost (at Incapacitated it only stretches the interval).
fn first_aid<R: Roller>(m: &Matchup, o: &GamecraftOptions, s: &mut State, x: usize, r: &mut R) {
    let (f, st) = (&m.f[x], s.f[x]);
    let Some(base) = f.aid_base else { return };
    let status = f.status(st.dmg);
    let need = reference::stop_bleeding_tn_from(status as i32, o.stop_bleed_tn_base) - base
        + alloc_pen(o, f.split, Declared::of(&st), Check::Aid)
        + pen(o, f, &st);
    if dice(&m.die, o.explode_mode, 1, r, |d, _| i32::from(d >= need)) == 1 {
        s.f[x].aided = status as u8;
        s.f[x].bleed = 0;
    }
}

/// How much Grace `f` spends on an attack of base `base` (everything but the die) against the
/// static TN `tn` (before any dodge or full-dodge bonus: digest §6 AI policy 3, "need") or,
/// under `greedy_ev`, against `full_tn`, the TN the attacker actually faces.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(super) fn grace_for_attack(
    m: &Matchup,
    o: &GamecraftOptions,
    f: &Fighter,
    st: &FState,
    base: i32,
    tn: i32,
    full_tn: i32,
) -> u8 {
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
        GracePolicy::GreedyEv => greedy_ev_spend(m, o, full_tn - base, cap),
    };
    g as u8
}

/// `grace = "greedy_ev"`: the g in 0..=cap maximising
/// 36·(P(die ≥ need − g) − P(die ≥ need)) − `grace_ev_cost`·g, computed exactly in integers
/// from the die's distribution; the smallest such g on ties (so 0 when nothing pays).
#[inline]
pub fn greedy_ev_spend(m: &Matchup, o: &GamecraftOptions, need: i32, cap: i32) -> i32 {
    let s0 = m.die.at_least(need);
    let (mut best, mut best_g) = (0i128, 0);
    for g in 1..=cap {
        let gain = i128::from(m.die.at_least(need - g) - s0) * 36;
        let value = gain - i128::from(o.grace_ev_cost) * i128::from(g) * i128::from(m.die.scale);
        if value > best {
            best = value;
            best_g = g;
        }
    }
    best_g
}

/// The class of an attack total `tot` against the TN `tn`: 0 a fumble, 1 a miss, 2 a hit, 3 a
/// critical. A strafe (`strict`, `strafe_hit_rule = "strict_lt"`) hits only a target whose TN
/// is lower than the total (G14).
#[inline]
pub(super) fn attack_class(o: &GamecraftOptions, strict: bool, tot: i32, tn: i32) -> i32 {
    let hit = if strict { tot > tn } else { tot >= tn };
    match (hit, tot - tn >= o.crit_margin, tn - tot >= o.fumble_margin) {
        (false, _, true) => 0,
        (false, _, false) => 1,
        (true, false, _) => 2,
        (true, true, _) => 3,
    }
}

/// What a hit's damage depends on besides its two dice.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hit {
    /// Damage base at the distance, less the attacker's penalties under `"all_rolls"`.
    pub dmg_base: i32,
    /// The target's penalties on its resistance roll (0 unless `"all_rolls"`).
    pub pen_y: i32,
    /// The target resists with Constitution and a die (else armour only).
    pub aware: bool,
    /// A strafe's critical multiplier (1 otherwise).
    pub strafe_mult: i32,
    /// A critical's extra wound (not a strafe's).
    pub crit_extra: bool,
}

impl Hit {
    /// The wound points `fy` sustains from the damage die `dd` and the resistance die `rd`
    /// (before a critical's extra wound level).
    #[inline]
    pub(super) fn sustained(&self, o: &GamecraftOptions, fy: &Fighter, dd: i32, rd: i32) -> i32 {
        let mut dealt = (self.dmg_base + dd).max(0);
        if o.strafe_crit_timing == StrafeCritTiming::BeforeResistance {
            dealt *= self.strafe_mult;
        }
        let resist = if self.aware {
            let v = fy.res_base + rd - self.pen_y;
            if o.resist_clamp_zero { v.max(0) } else { v }
        } else {
            fy.armor
        };
        let mut sus = (dealt - resist).max(0);
        if o.strafe_crit_timing == StrafeCritTiming::AfterResistance {
            sus *= self.strafe_mult;
        }
        if self.crit_extra && o.crit_effect == CritEffect::WoundPoint {
            sus += o.crit_extra_amount;
        }
        sus
    }
}

#[allow(clippy::too_many_arguments)]
fn attack<R: Roller, T: Tally>(
    m: &Matchup,
    o: &GamecraftOptions,
    s: &mut State,
    x: usize,
    check: Check,
    phase: u8,
    r: &mut R,
    tally: &mut T,
) {
    let y = 1 - x;
    let d = usize::from(s.dist);
    let (fx, fy, line) = (&m.f[x], &m.f[y], &m.line[x]);
    if !line.reach[d] {
        // Out of reach (melee beyond Point Blank, or beyond a hard Range): the action is lost.
        return;
    }
    if holds_throw(m, o, x, s.dist) {
        // The enemy is (back) at a distance where the blast would catch the thrower: the
        // competent grenadier keeps the device (`own_blast = "step_back"`).
        return;
    }
    if !feed(o, fx, &mut s.f[x]) {
        return;
    }
    let (sx, sy) = (s.f[x], s.f[y]);
    let all = o.wound_penalty_scope == PenaltyScope::AllRolls;
    let pen_x = pen(o, fx, &sx);
    let mut static_tn = line.tn_at[d];
    if o.wound_penalty_static_defense {
        static_tn -= pen(o, fy, &sy);
    }
    // «Movement in Combat»: + moving_target_tn against a target taking a move action in this
    // phase (its move is its first action, so phase 1).
    let moving = ((sy.mv || sy.run)
        && (phase == 1 || o.moving_target_scope == MovingTargetScope::Round))
        || (sy.full && o.full_dodge_counts_as_moving);
    if moving {
        static_tn += o.moving_target_tn;
    }
    let mut tn = static_tn;
    // A dodge whose die is not read yet (`FState::dodge_deferred`); `sy.dodge` holds its
    // modifiers.
    let mut deferred = !sy.full && sy.dodge_on && sy.dodge_deferred;
    if sy.full {
        tn += o.full_dodge_bonus;
    } else if sy.dodge_on && !deferred {
        tn += i32::from(sy.dodge);
    }
    let helpless_y = helpless(o, fy, &sy);
    // G24: "the first attack only": the duel's first attack uses the surprise, hit or miss.
    let first_attack = o.surprise_first_attack && !s.surprised;
    if o.surprise_first_attack {
        s.surprised = true;
    }
    let aware = o.aware && !helpless_y && !first_attack;
    let placed = line.explosive && o.explosion_delivery == ExplosionDelivery::Placed;
    let (hit, crit) = if placed
        || (helpless_y && o.helpless_auto_hit && o.end_condition == EndCondition::Dead)
    {
        (true, false)
    } else {
        let sim = if check == Check::Reserve {
            0
        } else {
            sim_pen(o, &sx)
        };
        let base = line.atk_at[d] - alloc_pen(o, fx.split, Declared::of(&sx), check) - sim - pen_x;
        if deferred && (fx.grace_policy == GracePolicy::GreedyEv || attacked_later(s, y)) {
            // The dodge's value is wanted beyond this attack's class: its die now, alone.
            let v = dice(&m.die, o.explode_mode, 1, r, |dd, _| {
                i32::from(dodged(i32::from(sy.dodge), dd))
            });
            s.f[y].dodge = v as i8;
            s.f[y].dodge_deferred = false;
            tn += v;
            deferred = false;
        }
        let g = grace_for_attack(m, o, fx, &sx, base, static_tn, tn);
        s.f[x].grace -= g;
        tally.count_side(x, GRACE, u32::from(g));
        let strict = line.strafe && o.strafe_hit_rule == StrafeHitRule::StrictLt;
        // The total matters only as a fumble (0), a miss (1), a hit (2) or a critical (3).
        let class_of = |d: i32, tn: i32| attack_class(o, strict, base + i32::from(g) + d, tn);
        let class = if deferred {
            // The deferred dodge die (first, as it is rolled first), then the attack's.
            let modifiers = i32::from(sy.dodge);
            dice(&m.die, o.explode_mode, 2, r, |dd, d| {
                class_of(d, tn + i32::from(dodged(modifiers, dd)))
            })
        } else {
            dice(&m.die, o.explode_mode, 1, r, |d, _| class_of(d, tn))
        };
        if class < 2 {
            let fumble = class == 0;
            if fumble && o.fumble_effect == FumbleEffect::LoseNextAction {
                s.f[x].skip = true;
            }
            tally.attack(x, false, 0);
            tally.count_side(x, FUMBLES, u32::from(fumble));
            return;
        }
        (true, class == 3)
    };
    debug_assert!(hit);
    if line.explosive {
        // «Explosions»: the device goes off with the target at `explosion_range`; an unaware
        // target neither avoids it nor resists with Constitution. A critical throw adds
        // nothing: the blast replaces the weapon's damage.
        // «Explosions» ("damage to an area"): a thrower standing in the area is caught next
        // (`blast_catches_thrower`).
        s.blast = Blast {
            thrower: own_band(o, s.dist).map_or(0, |b| b + 1),
            ..Blast::on(
                y,
                o.explosion_range as u8,
                !aware || o.explosion_avoid_roll == AvoidRoll::None,
                !aware,
            )
        }
        .encode();
        tally.attack(x, true, 0);
        tally.count_side(x, CRITICALS, u32::from(crit));
        return;
    }
    // A strafe's critical multiplies the damage (dealt, or sustained under
    // `strafe_crit_timing`) instead of the usual extra wound.
    let crit_extra = crit && !line.strafe;
    let strafe_mult = if crit && line.strafe {
        o.strafe_crit_mult
    } else {
        1
    };
    let dmg_base = line.dmg_at[d] - if all { pen_x } else { 0 };
    let pen_y = if all { pen(o, fy, &sy) } else { 0 };
    // The damage die, then (an aware target) the resistance die: only what is sustained counts.
    let blow = Hit {
        dmg_base,
        pen_y,
        aware,
        strafe_mult,
        crit_extra,
    };
    let mut sus = dice(&m.die, o.explode_mode, 1 + u8::from(aware), r, |dd, rd| {
        blow.sustained(o, fy, dd, rd)
    });
    if fx.nonlethal {
        if crit_extra && o.crit_effect == CritEffect::WoundLevel {
            sus += o.crit_extra_amount;
        }
        s.f[y].fat = (i32::from(sy.fat) + sus).min(i32::from(fy.fatigue)) as u8;
    } else {
        take_wounds(
            m,
            o,
            s,
            y,
            sus,
            crit_extra && o.crit_effect == CritEffect::WoundLevel,
        );
    }
    tally.attack(x, true, sus);
    tally.count_side(x, CRITICALS, u32::from(crit));
}

/// Spends the rounds of one attack from a tracked magazine and says whether the attack is
/// made. An attack the magazine cannot feed is a reload action instead (after
/// `reload_actions` of them a spare magazine is loaded), or lost with no spare left.
#[inline]
fn feed(o: &GamecraftOptions, f: &Fighter, st: &mut FState) -> bool {
    if f.mag == 0 {
        return true;
    }
    if st.ammo >= f.per_attack {
        st.ammo -= f.per_attack;
        return true;
    }
    if st.spare > 0 {
        st.loading += 1;
        if st.loading >= o.reload_actions {
            st.loading = 0;
            st.spare -= 1;
            st.ammo = f.mag;
        }
    }
    false
}

/// Out of ammunition: nothing in the magazine for one attack and no spare magazine.
#[inline]
pub fn dry(f: &Fighter, st: &FState) -> bool {
    f.mag > 0 && st.ammo < f.per_attack && st.spare == 0
}

/// `y` loses `sus` wound points (raised to the next level threshold when `to_next_level`), and
/// the Incapacitated roll is queued if it has just become Incapacitated.
fn take_wounds(
    m: &Matchup,
    o: &GamecraftOptions,
    s: &mut State,
    y: usize,
    sus: i32,
    to_next_level: bool,
) {
    wound(o, &m.f[y], &mut s.f[y], sus, to_next_level);
}

/// [`take_wounds`] on the target's own state `sy`.
#[inline]
pub(super) fn wound(
    o: &GamecraftOptions,
    fy: &Fighter,
    sy: &mut FState,
    sus: i32,
    to_next_level: bool,
) {
    let before = fy.status(sy.dmg);
    let mut dm = (i32::from(sy.dmg) + sus).min(i32::from(fy.total()));
    if to_next_level {
        let st = fy.status(dm as u8);
        if st < 6 {
            dm = i32::from(fy.cum[st]);
        }
    }
    sy.dmg = dm as u8;
    if o.end_condition != EndCondition::Incapacitated
        && before < 5
        && fy.status(sy.dmg) == 5
        && !sy.unconscious
    {
        sy.incap_pending = true;
    }
}

/// One part of a pending blast («Explosions», G20).
///
/// Avoidance: `explosion_avoid_roll` + die − wound and Fatigue penalties (+ Grace under
/// `save_for_defense`, capped by Combat Defense (Explosives)) against the TN of the device's
/// Area at the target's Range; beating it moves the target one Range out, a critical two (past
/// Long: out of the blast), a critical failure leaves it there without Constitution.
///
/// Damage: the listed damage (+ die under `explosion_damage_die`), × the Range's
/// `blast_fraction`, rounded by `blast_rounding`, against Constitution + armour + die (armour
/// only without Constitution). Always lethal; no critical effect.
fn blast_step<R: Roller, T: Tally>(
    m: &Matchup,
    o: &GamecraftOptions,
    s: &mut State,
    b: Blast,
    r: &mut R,
    tally: &mut T,
) -> Step {
    // `x` set the device off: the enemy, or the target itself when caught in its own blast.
    let (y, x) = (b.target, if b.own { b.target } else { 1 - b.target });
    let (fx, fy, sy) = (&m.f[x], &m.f[y], s.f[y]);
    if !b.damage_stage {
        let skill = match o.explosion_avoid_roll {
            AvoidRoll::ProCd if b.own => fy.cd_explosives,
            AvoidRoll::ProCd => m.line[x].cd,
            AvoidRoll::ProOnly | AvoidRoll::None => 0,
        };
        let g = if fy.grace_policy == GracePolicy::SaveForDefense {
            skill.min(i32::from(sy.grace)).max(0) as u8
        } else {
            0
        };
        let base = fy.prowess + skill + i32::from(g) - pen(o, fy, &sy);
        s.f[y].grace -= g;
        tally.count_side(y, GRACE, u32::from(g));
        let tn = reference::explosion_tn(usize::from(fx.area), usize::from(b.band));
        let avoid = |d: i32| reference::avoid_outcome(base + d, tn, o.crit_margin, o.fumble_margin);
        let class = dice(&m.die, o.explode_mode, 1, r, |d, _| {
            let (out, crit_fail) = avoid(d);
            i32::from(out) * 2 + i32::from(crit_fail)
        });
        let (out, crit_fail) = ((class / 2) as u8, class % 2 == 1);
        let band = b.band + out;
        s.blast = if band > 2 {
            next_blast(o, b)
        } else {
            Blast {
                band,
                damage_stage: true,
                no_con: crit_fail,
                ..b
            }
            .encode()
        };
        return Step::Continue;
    }
    s.blast = 0;
    let all = o.wound_penalty_scope == PenaltyScope::AllRolls;
    let pen_y = if all { pen(o, fy, &sy) } else { 0 };
    // The damage die (under `explosion_damage_die`), then the Constitution die (unless
    // `no_con`): only what is sustained counts.
    let sus_of = |raw_die: i32, res_die: i32| {
        let raw = fx.dmg_base + raw_die;
        let dealt =
            reference::blast_damage(raw, o.blast_fraction[usize::from(b.band)], o.blast_rounding);
        let resist = if b.no_con {
            fy.armor
        } else {
            let v = fy.res_base + res_die - pen_y;
            if o.resist_clamp_zero { v.max(0) } else { v }
        };
        (dealt - resist).max(0)
    };
    let sus = match (o.explosion_damage_die, b.no_con) {
        (true, false) => dice(&m.die, o.explode_mode, 2, r, sus_of),
        (true, true) => dice(&m.die, o.explode_mode, 1, r, sus_of),
        (false, false) => dice(&m.die, o.explode_mode, 1, r, |d, _| sus_of(0, d)),
        (false, true) => sus_of(0, 0),
    };
    take_wounds(m, o, s, y, sus, false);
    // Damage is tallied by the side that dealt it to the other: a thrower's own wounds are not.
    if !b.own {
        tally.damage(x, sus);
    }
    s.blast = next_blast(o, b);
    if s.blast != 0 {
        // The thrower's part of the same blast comes before any verdict: both may fall.
        return Step::Continue;
    }
    end_part(m, o, s)
}

/// The blast part after `b` is done: the thrower's, if the blast also caught it (aware of
/// its own device, so it rolls to avoid unless `explosion_avoid_roll = "none"`), else none.
fn next_blast(o: &GamecraftOptions, b: Blast) -> u16 {
    if b.own || b.thrower == 0 {
        return 0;
    }
    Blast {
        own: true,
        thrower: 0,
        ..Blast::on(
            1 - b.target,
            b.thrower - 1,
            o.explosion_avoid_roll == AvoidRoll::None,
            false,
        )
    }
    .encode()
}
