//! The round as a small state machine, shared by the Monte Carlo duel and the exact solver.
//!
//! A round («Order of Combat») has three segments, Magic, Missile and Melee. Each able creature
//! takes one action (G-20): a spell (Magic), a missile attack (Missile) or its attack sequence
//! (Melee). Within a segment creatures act in descending order of their own speed across both
//! sides (`Matchup::group`, «Order of Combat §2»); equal speeds form one simultaneous group
//! (G-18): everyone able when the group starts acts, damage is tallied at once, later
//! attackers retarget away from a foe already down but never lose their action (with no other
//! target they attack the original one). A side with nobody able is out when the group ends.
//!
//! One [`step`] is: rolling one creature's HP (before round 1), starting a round (choosing
//! actions), one attack roll with its damage, resistance roll and fumble, a move, or a retreat.
//!
//! Under a Monte Carlo roller ([`Roller::SAMPLES`]) a call runs on to the round's end, and
//! rolls every HP in one call. A round whose actions are all none, attacks or spells (no
//! move, charge, return attack or retreat: nothing changes an action or the order mid-round)
//! is a *plain* round: its acting groups are found once ([`Groups`]), and where every
//! creature's engaged action is fixed they are found once per matchup (`Matchup::fixed`).
//! The cursor is set before each attack as the step-by-step path sets it, so the very same
//! `attack` reads the very same state; `running_on_through_a_round_gives_the_same_fights`
//! plays both on one stream, fight for fight.
//!
//! Distance (G-22 … G-24, `start = "range"`): the sides stand `dist` Mv units apart (0 =
//! engaged; a side's creatures share its position, a reading: the document is silent). At a distance a melee creature closes its
//! effective Mv in the Melee segment and is engaged from the next round once the distance left
//! is at most its weapon's reach; a missile creature shoots while `dist ≤ missile_range`, else
//! closes to that range. A creature with the charge ability that can arrive this round
//! (`dist − Mv ≤ reach`) charges instead, with its attack sequence in the Missile segment (the
//! round's melee attack). The defender's return attack (its melee action of the round) comes in
//! an extra Missile-segment group right after the charge, or in the charger's group
//! (simultaneous) if it is set vs charge; a hit-and-run charger faster than twice the
//! defender's reach against an unset defender gets no return attack and ends where it started.
//! If both sides can charge, the faster one charges (equal speeds: both, simultaneously). A
//! retreating creature leaves at the start of its group in the segment its distance gives
//! («Order of Combat §1.1.1, §1.2.3, §1.3.1»), so only earlier segments and faster groups
//! strike it; the fastest able foe not in a pursuit this round (nor fleeing) pursues it and
//! catches it iff faster (`pursuit_rule`): the pursuit takes the rest of the round from both,
//! the sides are engaged from then on, and the caught creature ([`CAUGHT`]) fights on;
//! otherwise it escapes ([`GONE`]: off the field alive, neither down nor dead) and the rest
//! of its side fights on; a side whose last able creature escapes yields (the side holding
//! the field wins, ending `Yield`). In a duel that is the retreat of one creature from one foe.

use super::D20;
use super::fighter::{Attack, Fighter, MAX_SIDE, MAX_SPELLS, Matchup, NOT_FIXED};
use super::options::{
    CripplingCurrent, CritRule, D20Options, EngagedMissile, FightTo, FumbleResistPer,
    HalveRounding, MagicMinusOne, PursuitRule, Start,
};
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
/// Stage: the next step resolves the retreat of the creature in `slot` (G-24).
pub const RETREAT: u8 = 3;

/// Action: none this round.
pub const ACT_NONE: u8 = 0;
/// Action: the attack sequence (melee) or the missile weapon.
pub const ACT_ATTACK: u8 = 1;
/// Action: cast spell `k` (`ACT_SPELL + k`).
pub const ACT_SPELL: u8 = 2;
/// Action: move toward the foe (Melee segment, G-22).
pub const ACT_CLOSE: u8 = 10;
/// Action: charge, arriving and attacking in the Missile segment (G-23).
pub const ACT_CHARGE: u8 = 11;
/// Action: a hit-and-run charge (no return attack, ends at distance; G-23).
pub const ACT_CHARGE_HR: u8 = 12;
/// Action: the return attack right after a charge (Missile segment, extra group).
pub const ACT_RETURN: u8 = 13;
/// Action: the set-vs-charge return attack, simultaneous with the charge.
pub const ACT_RETURN_SET: u8 = 14;
/// Action: retreat (G-24).
pub const ACT_RETREAT: u8 = 15;
/// Action: a missile fighter's melee (Melee segment): its melee weapon, or one attack with the
/// missile weapon (`engaged_missile = "melee"`, or its thrown supply gone).
pub const ACT_MELEE: u8 = 16;
/// Action: in a pursuit this round (G-24), as the pursuer or the caught retreater: the
/// rest of the round goes to it (the pursuer's own action, if still to come, is spent), and
/// neither pursues anyone else this round.
pub const ACT_PURSUE: u8 = 17;

/// A spell action.
#[inline]
fn is_spell(act: u8) -> bool {
    (ACT_SPELL..ACT_SPELL + MAX_SPELLS as u8).contains(&act)
}

/// An action that makes the attack sequence.
#[inline]
fn is_attack_seq(act: u8) -> bool {
    matches!(
        act,
        ACT_ATTACK | ACT_CHARGE | ACT_CHARGE_HR | ACT_RETURN | ACT_RETURN_SET | ACT_MELEE
    )
}

/// Out of thrown weapons (a finite `thrown_supply`, all thrown).
#[inline]
fn out_of_supply(f: &Fighter, ms: &MState) -> bool {
    f.supply.is_some() && ms.thrown == 0
}

/// One creature's state.
#[derive(Clone, Copy, Debug, Default, Eq, PartialOrd, Ord)]
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
    /// Thrown weapons left (a finite `thrown_supply`; else 0).
    pub thrown: u8,
    /// [`CAUGHT`] and [`GONE`] (G-24; both follow the creature when its side is sorted).
    pub flags: u8,
}

/// Flag: caught once after a retreat, so it fights on and retreats no more (G-24).
pub const CAUGHT: u8 = 1;
/// Flag: escaped by a retreat: off the field alive, neither able nor down (G-24). Its other
/// fields are cleared (HP 0), so it is not able and escaped creatures merge.
pub const GONE: u8 = 2;

/// The whole duel state between steps.
#[derive(Clone, Copy, Debug, Default, Eq, PartialOrd, Ord)]
pub struct State {
    /// Round number; 0 while rolling HP.
    pub round: u32,
    /// [`INIT`], [`ROUND_START`], [`ATTACK`] or [`RETREAT`].
    pub stage: u8,
    /// Next creature whose HP is rolled (side · 8 + index, side A first).
    pub init_i: u8,
    /// Segment: 0 Magic, 1 Missile, 2 Melee.
    pub seg: u8,
    /// Group within the segment: the speed group ([`Matchup::group`], fastest first), or
    /// [`Matchup::ret_sub`] for the return attacks after a charge.
    pub sub: u8,
    /// Acting creature: slots 0–7 are side B's creatures (rolled first, «Order of Combat
    /// §2.1»), 8–15 side A's.
    pub slot: u8,
    /// Attack of the action being resolved.
    pub atk: u8,
    /// Creatures able when the group started (bit side·8 + index).
    pub snap: u16,
    /// Every creature, by side (the first `n[side]` are used, the rest stay at default).
    pub m: [[MState; MAX_SIDE]; 2],
    /// Distance between the sides in Mv units; 0 = engaged (G-22; always 0 by default).
    pub dist: u16,
    /// Sides that moved this round (bit per side).
    pub moved: u8,
    /// Creatures per side ([`Matchup::n`]; fixed in a fight): equality and hashing read only
    /// these, so a duel's state compares as few creatures as before sides of eight.
    pub n: [u8; 2],
}

impl MState {
    /// The four 16-bit fields in one word and the four 8-bit ones in another, signed fields
    /// offset so that their unsigned order is theirs: equal states have equal words and the
    /// other way round, so comparing and hashing them is two integer operations each (the
    /// exact solver compares and hashes states for every transition), and the words'
    /// lexicographic order is the derived order of `MState` (the exact solver's sort key).
    #[inline]
    pub(super) fn words(&self) -> [u64; 2] {
        // Destructured so that a new field does not compile until it is packed here too.
        let MState {
            hp,
            max,
            tally,
            mp2,
            buff,
            act,
            thrown,
            flags,
        } = *self;
        let s16 = |x: i16| u64::from(x as u16 ^ 0x8000);
        [
            s16(hp) << 48 | s16(max) << 32 | s16(tally) << 16 | s16(mp2),
            u64::from(buff as u8 ^ 0x80) << 24
                | u64::from(act) << 16
                | u64::from(thrown) << 8
                | u64::from(flags),
        ]
    }
}

impl PartialEq for MState {
    #[inline]
    fn eq(&self, o: &Self) -> bool {
        self.words() == o.words()
    }
}

impl std::hash::Hash for MState {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let [a, b] = self.words();
        h.write_u64(a ^ b.rotate_left(40));
    }
}

impl State {
    /// The fields beside the creatures in two words (equal iff those fields are).
    #[inline]
    fn head(&self) -> [u64; 2] {
        // Destructured so that a new field does not compile until it is packed here too.
        let State {
            round,
            stage,
            init_i,
            seg,
            sub,
            slot,
            atk,
            snap,
            m: _,
            dist,
            moved,
            n: _,
        } = *self;
        [
            u64::from(round)
                | u64::from(stage) << 32
                | u64::from(init_i) << 40
                | u64::from(seg) << 48
                | u64::from(sub) << 56,
            u64::from(slot)
                | u64::from(atk) << 8
                | u64::from(snap) << 16
                | u64::from(dist) << 32
                | u64::from(moved) << 48,
        ]
    }
}

impl PartialEq for State {
    /// Field by field, through [`State::head`] and [`MState::words`] (the creatures in use).
    #[inline]
    fn eq(&self, o: &Self) -> bool {
        self.head() == o.head()
            && self.n == o.n
            && (0..2).all(|i| {
                (0..usize::from(self.n[i])).all(|j| self.m[i][j].words() == o.m[i][j].words())
            })
    }
}

impl std::hash::Hash for State {
    /// Every field, packed into a few words (consistent with `Eq`: equal states hash alike).
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let [a, b] = self.head();
        h.write_u64(a);
        h.write_u64(b);
        for (side, &n) in self.m.iter().zip(&self.n) {
            for c in &side[..usize::from(n)] {
                c.hash(h);
            }
        }
    }
}

pub use crate::outcome::{NoTally, Tally};

/// Per-side counters (see [`super::COUNTERS`] and [`Tally::count_side`]).
const NATURAL_20S: usize = 0;
const FUMBLES: usize = 1;
const SPELLS: usize = 2;
const RESISTED: usize = 3;

#[cfg(test)]
#[test]
fn per_side_counters_match_their_names() {
    let n = |k: usize| super::COUNTERS[k];
    assert_eq!(
        [n(NATURAL_20S), n(FUMBLES), n(SPELLS), n(RESISTED)],
        ["a_natural_20s", "a_fumbles", "a_spells", "a_resisted"]
    );
}

crate::duel_state!(State);

/// Able to fight: HP above 0 and no tally above current HP («Damage and Death §1.2, §2.2»).
#[inline]
pub fn able(ms: &MState) -> bool {
    ms.hp > 0 && ms.tally <= ms.hp
}

/// Dead (HP ≤ Death Point), or a regenerator "dead" from its lethal tally (§5.3.1); or
/// escaped ([`GONE`]): beyond reach, so nobody fights on to finish it.
#[inline]
pub fn finished(f: &Fighter, ms: &MState) -> bool {
    i32::from(ms.hp) <= f.death_point || (f.regenerates && ms.tally > ms.hp) || ms.flags & GONE != 0
}

#[inline]
fn member(slot: u8) -> (usize, usize) {
    (if slot < 8 { 1 } else { 0 }, (slot % 8) as usize)
}

#[inline]
fn bit(side: usize, i: usize) -> u16 {
    1 << (side * 8 + i)
}

/// The segment of creature `i` of `side`'s action `act`.
#[inline]
fn seg_of(m: &Matchup, s: &State, side: usize, i: usize, act: u8) -> u8 {
    match act {
        ACT_NONE | ACT_PURSUE => 3,
        // A missile fighter's attack is in the Missile segment (`Matchup::missile`).
        ACT_ATTACK => 2 - ((m.missile[side] >> i) & 1) as u8,
        ACT_CLOSE | ACT_MELEE => 2,
        ACT_CHARGE | ACT_CHARGE_HR | ACT_RETURN | ACT_RETURN_SET => 1,
        // «Order of Combat §1.1.1, §1.2.3, §1.3.1».
        ACT_RETREAT => {
            if s.dist == 0 {
                2
            } else if i32::from(s.dist) <= m.missile_range {
                1
            } else {
                0
            }
        }
        _ => 0,
    }
}

/// The group creature `i` of `side` acts in with action `act`: its speed group
/// ([`Matchup::group`]); a return attack after the charge in [`Matchup::ret_sub`]; a set vs
/// charge return attack in the group of the fastest charger it answers (simultaneous).
#[inline]
fn group_of<const MIXED: bool>(m: &Matchup, s: &State, side: usize, i: usize, act: u8) -> u8 {
    match act {
        ACT_RETURN => m.ret_sub,
        // One member a side: every creature of a side in its first's group.
        ACT_RETURN_SET if !MIXED => {
            let c = 1 - side;
            m.group[if (0..usize::from(m.n[c])).any(|k| s.m[c][k].act == ACT_CHARGE) {
                c
            } else {
                side
            }][0]
        }
        ACT_RETURN_SET => {
            let c = 1 - side;
            (0..usize::from(m.n[c]))
                .filter(|&k| s.m[c][k].act == ACT_CHARGE)
                .map(|k| m.group[c][k])
                .min()
                .unwrap_or(m.group[side][i])
        }
        _ if !MIXED => m.group[side][0],
        _ => m.group[side][i],
    }
}

/// Whether creature `i` of `side`, able at the group's start, acts in the cursor's group.
#[inline]
fn joins_group<const MIXED: bool>(m: &Matchup, s: &State, side: usize, i: usize) -> bool {
    let act = s.m[side][i].act;
    // A return attack comes right after the charge, once it has arrived.
    group_of::<MIXED>(m, s, side, i, act) == s.sub && (act != ACT_RETURN || s.dist == 0)
}

#[inline(always)]
fn acts_in_group<const MIXED: bool>(m: &Matchup, s: &State, slot: u8) -> bool {
    let (side, i) = member(slot);
    if i >= usize::from(m.n[side]) || s.snap & bit(side, i) == 0 {
        return false;
    }
    let act = s.m[side][i].act;
    seg_of(m, s, side, i, act) == s.seg && joins_group::<MIXED>(m, s, side, i)
}

/// The slot of member `i` of `side` (the inverse of [`member`]).
#[inline]
fn slot_of(side: usize, i: usize) -> u8 {
    (((1 - side) * 8) + i) as u8
}

/// The slots (bit per slot) of the members in a snapshot mask (bit side·8 + index).
#[inline]
fn snap_slots(snap: u16) -> u16 {
    snap.rotate_left(8)
}

/// Moves to the first actor of the next non-empty group at or after (seg, sub), or to the next
/// round's start.
#[inline]
fn enter_group<const MIXED: bool>(m: &Matchup, s: &mut State) {
    // Who is able (the group's snapshot) and the segment of each able member's action do not
    // change while the cursor moves, so they are found once, as a mask of slots per segment
    // (`in_seg`; `seg_of` gives 3 for no action); a segment in which no able member acts has
    // no group that acts, and is skipped whole.
    let mut snap = 0u16;
    let mut in_seg = [0u16; 4];
    for side in 0..2 {
        for i in 0..usize::from(m.n[side]) {
            let ms = &s.m[side][i];
            if able(ms) {
                snap |= bit(side, i);
                in_seg[usize::from(seg_of(m, s, side, i, ms.act))] |=
                    1 << slot_of(side, i);
            }
        }
    }
    while s.seg < 3 {
        let here = in_seg[usize::from(s.seg)];
        // Only return attacks (Missile segment) act in `ret_sub`, after every speed group.
        if s.sub > m.ret_sub || (s.sub == m.ret_sub && s.seg != 1) || here == 0 {
            s.seg += 1;
            s.sub = 0;
            continue;
        }
        s.snap = snap;
        // The first member acting in the group, and the first retreater among them:
        // a retreater leaves before its own group strikes (§3.1: only faster ones do).
        // Slots in increasing order.
        let mut first = None;
        let mut left = here;
        while left != 0 {
            let slot = left.trailing_zeros() as u8;
            left &= left - 1;
            let (side, i) = member(slot);
            if !joins_group::<MIXED>(m, s, side, i) {
                continue;
            }
            if s.m[side][i].act == ACT_RETREAT {
                first = Some((slot, RETREAT));
                break;
            }
            first.get_or_insert((slot, ATTACK));
        }
        if let Some((slot, stage)) = first {
            s.slot = slot;
            s.atk = 0;
            s.stage = stage;
            return;
        }
        s.sub += 1;
    }
    end_round::<MIXED>(m, s);
}

/// The round is over: clears the cursor and the actions so equal states merge, and puts
/// identical creatures in canonical order.
#[inline]
fn end_round<const MIXED: bool>(m: &Matchup, s: &mut State) {
    s.round += 1;
    s.stage = ROUND_START;
    s.sub = 0;
    s.seg = 0;
    s.slot = 0;
    s.atk = 0;
    s.snap = 0;
    s.moved = 0;
    // Every place (those past `n` hold no action): plain stores, no loop bound to test.
    for side in s.m.iter_mut() {
        for ms in side.iter_mut() {
            ms.act = ACT_NONE;
        }
    }
    if m.retreat {
        for side in s.m.iter_mut() {
            for ms in side.iter_mut() {
                if !able(ms) {
                    ms.flags &= !CAUGHT;
                }
            }
        }
    }
    canonical::<MIXED>(m, s, false);
}

/// Target choice (the fighter's `target` policy, by default the digest's AI "lowest_hp";
/// G-18), through the shared [`crate::group::pick`]: a foe able at the group's start and still
/// up; else the original targets (able at the group's start); under `fight_to = "death"` a
/// downed foe not yet dead.
#[inline(always)]
fn target<const MIXED: bool, R: Roller>(
    m: &Matchup,
    o: &D20Options,
    s: &State,
    side: usize,
    i: usize,
    r: &mut R,
) -> Option<usize> {
    use crate::group::{Candidate, lowest_hp, pick};
    let foe = 1 - side;
    let (snap, policy, me) = (s.snap, m.fighter_in::<MIXED>(side, i).target, m.member_in::<MIXED>(side, i));
    let n = usize::from(m.n[foe]);
    let cand = |j: usize, ok: bool| {
        let ms = &s.m[foe][j];
        ok.then(|| Candidate {
            hp: i32::from(ms.hp),
            wounds: i32::from(ms.max) - i32::from(ms.hp),
            danger: m.danger[foe][m.member_in::<MIXED>(foe, j)][me],
            defense: m.fighter_in::<MIXED>(foe, j).def,
        })
    };
    let in_snap = |j: usize| snap & bit(foe, j) != 0;
    if policy == crate::group::Target::LowestHp {
        // The default policy reads only the HP: `pick`'s choice without the rest of each
        // candidate.
        let side = &s.m[foe][..n];
        let hp = |j: usize, ok: bool| ok.then(|| i32::from(side[j].hp));
        return lowest_hp(n, |j| hp(j, in_snap(j) && able(&side[j])))
            .or_else(|| lowest_hp(n, |j| hp(j, in_snap(j))))
            .or_else(|| {
                (o.fight_to == FightTo::Death).then(|| {
                    lowest_hp(n, |j| hp(j, !finished(m.fighter_in::<MIXED>(foe, j), &side[j])))
                })?
            });
    }
    if let Some(j) = pick(policy, n, |j| cand(j, in_snap(j) && able(&s.m[foe][j])), r) {
        return Some(j);
    }
    if let Some(j) = pick(policy, n, |j| cand(j, in_snap(j)), r) {
        return Some(j);
    }
    if o.fight_to == FightTo::Death {
        return pick(
            policy,
            n,
            |j| cand(j, !finished(m.fighter_in::<MIXED>(foe, j), &s.m[foe][j])),
            r,
        );
    }
    None
}

/// Puts each side's identical creatures (the copies of one member, never two members'
/// creatures) in canonical order ([`crate::group::canonical`]) at a round's start, where
/// nothing refers to a creature by its slot; by their HP alone where nothing else can tell
/// them apart ([`Matchup::hp_order`]: the same order, without comparing every field).
/// `rolled_only` (as the HP are rolled) leaves out members of fixed HP: their copies are
/// identical then, so already in order.
#[inline(always)]
fn canonical<const MIXED: bool>(m: &Matchup, s: &mut State, rolled_only: bool) {
    // A duel has nothing to sort: one test, no call.
    if m.canonical[0] || m.canonical[1] {
        sort_copies::<MIXED>(m, s, rolled_only);
    }
}

/// [`canonical`]'s sort, out of line (a group fight calls it once a round).
#[inline(never)]
fn sort_copies<const MIXED: bool>(m: &Matchup, s: &mut State, rolled_only: bool) {
    let skip = |f: &Fighter| rolled_only && f.hp.fixed.is_some();
    let sort = |copies: &mut [MState], hp_order: bool| {
        if hp_order {
            debug_assert!(
                copies.windows(2).all(|w| MState { hp: 0, ..w[0] } == MState { hp: 0, ..w[1] }),
                "copies differ in more than their HP: {copies:?}"
            );
            crate::group::canonical_by(copies, |c| c.hp);
        } else {
            crate::group::canonical(copies);
        }
    };
    for side in 0..2 {
        if m.canonical[side] && !MIXED {
            if !skip(&m.f[side]) {
                sort(&mut s.m[side][..usize::from(m.n[side])], m.hp_order[side]);
            }
        } else if m.canonical[side] {
            let mut lo = 0;
            for (j, &c) in m.counts[side][..m.members[side].len()].iter().enumerate() {
                let hi = lo + usize::from(c);
                if c > 1 && !skip(&m.members[side][j]) {
                    sort(&mut s.m[side][lo..hi], m.hp_order[side]);
                }
                lo = hi;
            }
        }
    }
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
///
/// Only the dice's total counts, so the exact solver branches once per total (with its
/// weight from the dice's convolution, `Roller::outcome`) rather than once per sequence of
/// faces; Monte Carlo rolls the dice one by one as ever. Dice whose totals do not fit the
/// table (over `MAX_TOTALS` values) are enumerated face by face.
#[inline]
fn roll_damage<R: Roller>(a: &Attack, crit_max: bool, r: &mut R) -> i32 {
    if crit_max {
        return a.max_damage();
    }
    let (n, sides) = (usize::from(a.dice.n), usize::from(a.dice.sides));
    let draw = |r: &mut R| {
        let mut v = a.dice.plus;
        for _ in 0..n {
            v += r.roll(sides as u32) as i32;
        }
        a.clamp(v)
    };
    if n == 0 || n * sides >= MAX_TOTALS {
        return draw(r);
    }
    r.outcome(
        |w| {
            // ways[t]: the sequences of faces with total t (t counted from 0, faces from 0).
            let mut ways = [0u64; MAX_TOTALS];
            ways[0] = 1;
            for k in 0..n {
                for t in (0..=k * (sides - 1) + sides - 1).rev() {
                    ways[t] = (t.saturating_sub(sides - 1)..=t.min(k * (sides - 1)))
                        .map(|u| ways[u])
                        .sum();
                }
            }
            for (t, &count) in ways[..=n * (sides - 1)].iter().enumerate() {
                w.add(a.clamp(a.dice.plus + (n + t) as i32), count);
            }
        },
        draw,
    )
}

/// Most totals of a damage roll the exact solver branches on at once.
const MAX_TOTALS: usize = 128;

/// Chooses every able creature's action for the round (digest §6 AI: a BtH spell not yet
/// active, else the best affordable damage spell that beats the attack, else attack; a
/// crossbow reloads in even rounds). Called from one place in `step`, where it is inlined.
#[inline]
fn choose_actions<const MIXED: bool>(m: &Matchup, o: &D20Options, s: &mut State) {
    for side in 0..2 {
        for i in 0..usize::from(m.n[side]) {
            // Engaged, a creature with nothing to decide takes its one action
            // ([`engaged_act`]), as the choice below would.
            let fixed = m.engaged_act[side][i];
            if s.dist == 0 && fixed != NOT_FIXED {
                let ms = &mut s.m[side][i];
                ms.act = if able(ms) { fixed } else { ACT_NONE };
                continue;
            }
            let f = m.fighter_in::<MIXED>(side, i);
            let member = m.member_in::<MIXED>(side, i);
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
                    for j in 0..usize::from(m.n_order[side][member]) {
                        let k = usize::from(m.spell_order[side][member][j]);
                        if mp >= f.spells[k].cost2 {
                            act = ACT_SPELL + k as u8;
                            break;
                        }
                    }
                }
                let reloading = f.crossbow && s.round.is_multiple_of(2);
                let out = out_of_supply(f, &ms);
                if act == ACT_NONE && s.dist == 0 {
                    act = engaged(o, f, reloading, out);
                } else if act == ACT_NONE && s.dist > 0 {
                    act = at_distance::<MIXED>(m, s, side, i, reloading, out);
                }
                // G-24: the retreat policy comes first.
                if let Some(t) = f.retreat_milli
                    && ms.flags & CAUGHT == 0
                    && i32::from(ms.hp) * 1000 <= t * i32::from(ms.max)
                    && foe_able(m, s, side)
                {
                    act = ACT_RETREAT;
                }
            }
            s.m[side][i].act = act;
        }
    }
    if s.dist > 0 {
        resolve_charges::<MIXED>(m, s);
    }
}

/// An engaged creature's action when it casts no spell (§6 AI "else melee"): an engaged
/// missile fighter switches to melee (under `engaged_missile = "melee"`, or, out of thrown
/// weapons, must); a crossbow reloads in even rounds unless swung in melee.
#[inline]
fn engaged(o: &D20Options, f: &Fighter, reloading: bool, out: bool) -> u8 {
    let switch = f.missile && (out || o.engaged_missile == EngagedMissile::Melee);
    if !switch {
        if reloading { ACT_NONE } else { ACT_ATTACK }
    } else if f.has_melee_weapon || !out {
        // Swung in melee, a crossbow needs no reloading.
        ACT_MELEE
    } else {
        ACT_NONE
    }
}

/// The action `f` takes each round when engaged and able, if nothing else can decide it: no
/// spells, no crossbow's reloading, no finite supply, no retreat policy ([`engaged`] with
/// neither); else [`NOT_FIXED`].
pub(super) fn engaged_act(o: &D20Options, f: &Fighter) -> u8 {
    if f.n_spells > 0 || f.crossbow || f.supply.is_some() || f.retreat_milli.is_some() {
        return NOT_FIXED;
    }
    engaged(o, f, false, false)
}

/// A creature's action at a distance (no spell): shoot within missile range, charge when it
/// can arrive this round, else close; out of thrown weapons, close with the melee weapon (or
/// do nothing without one).
fn at_distance<const MIXED: bool>(m: &Matchup, s: &State, side: usize, i: usize, reloading: bool, out: bool) -> u8 {
    let f = m.fighter_in::<MIXED>(side, i);
    let d = i32::from(s.dist);
    if out {
        if f.has_melee_weapon {
            ACT_CLOSE
        } else {
            ACT_NONE
        }
    } else if f.missile {
        if d > m.missile_range {
            ACT_CLOSE
        } else if reloading {
            ACT_NONE
        } else {
            ACT_ATTACK
        }
    } else if f.charge && d - f.speed <= f.reach {
        ACT_CHARGE
    } else {
        ACT_CLOSE
    }
}

/// G-23: who charges and how the defender answers («Order of Combat §1.2.1–1.2.2»). In a
/// side of several members each charger rides hit-and-run by its own speed and ability
/// against the defenders' longest reach (none if any defender is set vs charge), and each
/// defender answers by its own set-vs-charge defense.
fn resolve_charges<const MIXED: bool>(m: &Matchup, s: &mut State) {
    let fastest = |s: &State, side: usize| {
        (0..usize::from(m.n[side]))
            .filter(|&i| s.m[side][i].act == ACT_CHARGE)
            .map(|i| m.fighter_in::<MIXED>(side, i).speed)
            .max()
    };
    let c = match (fastest(s, 0), fastest(s, 1)) {
        (None, None) => return,
        (Some(_), None) => 0,
        (None, Some(_)) => 1,
        // Both can charge: the faster charges; equal speeds charge each other at once.
        (Some(a), Some(b)) => match a.cmp(&b) {
            std::cmp::Ordering::Equal => return,
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
        },
    };
    let d = 1 - c;
    let defenders = 0..usize::from(m.n[d]);
    let reach = defenders.clone().map(|k| m.fighter_in::<MIXED>(d, k).reach).max().unwrap_or(0);
    let set = defenders.clone().any(|k| m.fighter_in::<MIXED>(d, k).set_vs_charge);
    let mut arrives = false;
    for i in 0..usize::from(m.n[c]) {
        if s.m[c][i].act == ACT_CHARGE {
            let fc = m.fighter_in::<MIXED>(c, i);
            if fc.hit_and_run && fc.speed > 2 * reach && !set {
                s.m[c][i].act = ACT_CHARGE_HR;
            } else {
                arrives = true;
            }
        }
    }
    for k in defenders {
        let fd = m.fighter_in::<MIXED>(d, k);
        let act = &mut s.m[d][k].act;
        // A melee defender's action of the round becomes its return attack.
        if !fd.missile && matches!(*act, ACT_CLOSE | ACT_CHARGE) {
            *act = if !arrives {
                ACT_CLOSE
            } else if fd.set_vs_charge {
                ACT_RETURN_SET
            } else {
                ACT_RETURN
            };
        }
    }
}

/// G-22: a side closes its effective Mv (once a round); engaged once within its reach.
/// The side moves as one, by the Mv and reach of the first of its creatures to move in the
/// round (the fastest mover: a side keeps one position).
fn close<const MIXED: bool>(m: &Matchup, s: &mut State, side: usize, i: usize) {
    if s.dist == 0 || s.moved & (1 << side) != 0 {
        return;
    }
    s.moved |= 1 << side;
    let f = m.fighter_in::<MIXED>(side, i);
    let mut d = i32::from(s.dist) - f.speed;
    // A side out of thrown weapons closes in with its melee weapon.
    let out =
        (0..usize::from(m.n[side])).all(|k| out_of_supply(m.fighter_in::<MIXED>(side, k), &s.m[side][k]));
    let reach = if out { f.melee_reach } else { f.reach };
    if f.missile && !out {
        d = d.max(m.missile_range);
    }
    s.dist = if d <= reach { 0 } else { d as u16 };
}

/// Whether nobody of `side` is able.
#[inline(always)]
fn side_out(m: &Matchup, s: &State, side: usize) -> bool {
    s.m[side][..usize::from(m.n[side])].iter().all(|ms| !able(ms))
}

/// Whether some foe of `side` is able (a retreat needs someone to flee from).
fn foe_able(m: &Matchup, s: &State, side: usize) -> bool {
    !side_out(m, s, 1 - side)
}

/// Who wins if a side is out after a group; `None` while the duel goes on.
#[inline]
fn verdict<const MIXED: bool>(m: &Matchup, o: &D20Options, s: &State) -> Option<(Winner, Ending)> {
    let out = |side: usize| side_out(m, s, side);
    // Those who escaped (G-24) are not counted.
    let all_dead = |side: usize| {
        (0..usize::from(m.n[side])).all(|j| {
            let ms = &s.m[side][j];
            i32::from(ms.hp) <= m.fighter_in::<MIXED>(side, j).death_point || ms.flags & GONE != 0
        })
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
                let can_kill = m.lethal[1 - loser];
                let done = (0..usize::from(m.n[loser]))
                    .all(|j| !can_kill || finished(m.fighter_in::<MIXED>(loser, j), &s.m[loser][j]));
                if !done {
                    return None;
                }
            }
            Some((winner, ending(loser)))
        }
    }
}

/// Whether a fighter can kill a downed foe (any attack or spell not non-lethal).
pub(super) fn lethal(f: &Fighter) -> bool {
    f.attacks[..f.n_attacks as usize]
        .iter()
        .any(|a| a.kind != DamageKind::Nonlethal)
        || f.spells[..f.n_spells as usize].iter().any(|s| s.damage > 0)
}

impl crate::Duel<D20> for State {
    /// The state before HP are rolled.
    fn start(_rules: &D20, m: &Matchup) -> State {
        State {
            n: m.n,
            ..State::default()
        }
    }

    /// One step of the duel, by the form of the code chosen once per matchup
    /// ([`Matchup::mixed`]): a side of one member reads `Matchup::f` alone.
    #[inline]
    fn step<R: Roller, T: Tally>(
        &mut self,
        rules: &D20,
        m: &Matchup,
        r: &mut R,
        tally: &mut T,
    ) -> Step {
        if m.mixed {
            step_in::<true, R, T>(self, rules, m, r, tally)
        } else {
            step_in::<false, R, T>(self, rules, m, r, tally)
        }
    }
}

/// One step of the duel ([`crate::Duel::step`]); `MIXED` is [`Matchup::mixed`]. Under a
/// Monte Carlo roller ([`Roller::SAMPLES`]) it runs on, step after step, to the end of the
/// round (or of the fight) in one call: the same steps on the same dice, without a return
/// between attacks (group fights read the creatures' fates only when the round changes).
fn step_in<const MIXED: bool, R: Roller, T: Tally>(
    s: &mut State,
    rules: &D20,
    m: &Matchup,
    r: &mut R,
    tally: &mut T,
) -> Step {
    if !R::SAMPLES {
        return step_one::<MIXED, R, T>(s, rules, m, r, tally);
    }
    let round = s.round;
    loop {
        let st = step_one::<MIXED, R, T>(s, rules, m, r, tally);
        if st != Step::Continue || s.round != round {
            return st;
        }
    }
}

/// One step of the duel: an HP roll, a round's start (the actions chosen), a retreat, or one
/// attack (then the cursor moves on: [`enter_group`]).
#[inline(always)]
fn step_one<const MIXED: bool, R: Roller, T: Tally>(
    s: &mut State,
    rules: &D20,
    m: &Matchup,
    r: &mut R,
    tally: &mut T,
) -> Step {
        let o = rules.options();
        match s.stage {
            INIT => {
                // The first place in use at or after `from` (side A's `n[0]`, then B's).
                let next = |from: u8| {
                    let (side, i) = (usize::from(from / 8), from % 8);
                    if side < 2 && i < m.n[side] {
                        Some(from)
                    } else if side == 0 && m.n[1] > 0 {
                        Some(8)
                    } else {
                        None
                    }
                };
                // Under a Monte Carlo roller every creature's HP in one call (the same dice in
                // the same order); else one creature a step.
                loop {
                if let Some(k) = next(s.init_i) {
                    let (side, i) = (usize::from(k / 8), usize::from(k % 8));
                    let f = m.fighter_in::<MIXED>(side, i);
                    let hp = f.hp.roll(r) as i16;
                    s.m[side][i] = MState {
                        hp,
                        // Tracked only when crippling damage can lower it, so equal states merge.
                        max: if m.track_max { hp } else { 0 },
                        tally: 0,
                        mp2: f.mp2 as i16,
                        buff: 0,
                        act: ACT_NONE,
                        thrown: f.supply.unwrap_or(0),
                        flags: 0,
                    };
                    s.init_i = k + 1;
                }
                if next(s.init_i).is_none() {
                    s.stage = ROUND_START;
                    s.round = 1;
                    canonical::<MIXED>(m, s, true);
                    if o.start == Start::Range {
                        s.dist = o.start_distance as u16;
                    }
                    return Step::Continue;
                }
                if !R::SAMPLES {
                    return Step::Continue;
                }
                }
            }
            RETREAT => {
                // G-24: the fastest able foe not in a pursuit this round and not fleeing itself
                // pursues (the first in slot order among equals) and catches the retreater iff
                // faster; the pursuit takes the rest of the round from both, and the sides are
                // engaged from then on (one position a side). Else it escapes: it leaves the
                // field alive, and its side, if nobody able is left, yields the field.
                let (side, i) = member(s.slot);
                let p = 1 - side;
                let speed = m.fighter_in::<MIXED>(side, i).speed;
                // Nobody able left to flee from (under `fight_to = "death"`): it stays.
                let stays = !foe_able(m, s, side);
                let mut pursuer = None;
                if o.pursuit_rule == PursuitRule::FasterCatches {
                    for k in 0..usize::from(m.n[p]) {
                        let v = m.fighter_in::<MIXED>(p, k).speed;
                        // Not one already in a pursuit, nor one about to flee itself.
                        let act = s.m[p][k].act;
                        let free = able(&s.m[p][k]) && act != ACT_PURSUE && act != ACT_RETREAT;
                        if free && v > speed && pursuer.is_none_or(|(_, w)| v > w) {
                            pursuer = Some((k, v));
                        }
                    }
                }
                if stays {
                    // Its round's action was the retreat: it holds the field, idle.
                    s.m[side][i].act = ACT_NONE;
                } else if let Some((k, _)) = pursuer {
                    let me = &mut s.m[side][i];
                    me.flags |= CAUGHT;
                    me.act = ACT_PURSUE;
                    s.m[p][k].act = ACT_PURSUE;
                    s.dist = 0;
                } else {
                    s.m[side][i] = MState {
                        flags: GONE,
                        ..MState::default()
                    };
                    if let Some((w, _)) = verdict::<MIXED>(m, o, s) {
                        return Step::Over(w, Ending::Yield);
                    }
                }
            }
            ROUND_START => {
                if s.round > o.max_rounds {
                    return Step::Over(Winner::Draw, Ending::RoundCap);
                }
                if R::SAMPLES && s.dist == 0 && m.fixed.n > 0 {
                    // What `choose_actions` gives when every action is fixed (its first
                    // branch), here without its call: calling it costs the d20 duel 6.5 %
                    // of its instructions, the six-goblin fight 4.5 %.
                    for side in 0..2 {
                        for i in 0..usize::from(m.n[side]) {
                            let ms = &mut s.m[side][i];
                            ms.act = if able(ms) { m.engaged_act[side][i] } else { ACT_NONE };
                        }
                    }
                    s.seg = 0;
                    s.sub = 0;
                    return run_groups::<MIXED, R, T>(m, o, s, r, tally, &m.fixed);
                }
                choose_actions::<MIXED>(m, o, s);
                s.seg = 0;
                s.sub = 0;
                if R::SAMPLES && plain(m, s) {
                    return plain_round::<MIXED, R, T>(m, o, s, r, tally);
                }
            }
            _ => {
                attack::<MIXED, _, _>(m, o, s, r, tally);
                // Next attack, next actor, or the end of the group.
                let (side, i) = member(s.slot);
                let n = attacks_in(m.fighter_in::<MIXED>(side, i), s.m[side][i].act);
                if s.atk + 1 < n {
                    s.atk += 1;
                    return Step::Continue;
                }
                // Only members able at the group's start can act in it: the later slots of
                // the snapshot, in increasing order.
                let mut later = snap_slots(s.snap) & !(((2u32 << s.slot) - 1) as u16);
                while later != 0 {
                    let k = later.trailing_zeros() as u8;
                    later &= later - 1;
                    if acts_in_group::<MIXED>(m, s, k) {
                        s.slot = k;
                        s.atk = 0;
                        return Step::Continue;
                    }
                }
                if let Some((w, e)) = verdict::<MIXED>(m, o, s) {
                    return Step::Over(w, e);
                }
                s.sub += 1;
            }
        }
        // The one call site, so that it is inlined once.
        enter_group::<MIXED>(m, s);
        Step::Continue
}

/// How many attacks `f`'s action `act` makes.
#[inline(always)]
fn attacks_in(f: &Fighter, act: u8) -> u8 {
    if act == ACT_MELEE {
        f.n_melee
    } else if is_attack_seq(act) {
        f.n_attacks
    } else {
        1
    }
}

/// Whether every creature's action this round leaves the cursor to the dice alone: no
/// action, an attack, a melee attack or a spell (no closing, charge, return attack or
/// retreat: those move the sides or change actions mid-round). Read after `choose_actions`.
#[inline]
fn plain(m: &Matchup, s: &State) -> bool {
    (0..2).all(|side| {
        s.m[side][..usize::from(m.n[side])]
            .iter()
            .all(|ms| ms.act < ACT_CLOSE || ms.act == ACT_MELEE)
    })
}

/// The rest of a [`plain`] round under a Monte Carlo roller, from its start to its end (or
/// the fight's): the steps [`enter_group`] and the attack step's cursor would take, on the
/// same dice, with each group's actors found once. Each acting creature's group is fixed
/// for the round (its action's segment and its speed group), so the groups are walked in
/// (segment, group) order; a group's actors are its members able at the group's start
/// (the snapshot), in slot order; after each group that acted, the verdict. The cursor
/// fields are set as the step-by-step path sets them before each attack, so `attack` reads
/// the same state, and the state at the end is the same.
fn plain_round<const MIXED: bool, R: Roller, T: Tally>(
    m: &Matchup,
    o: &D20Options,
    s: &mut State,
    r: &mut R,
    t: &mut T,
) -> Step {
    let groups = Groups::of::<MIXED>(m, s);
    run_groups::<MIXED, R, T>(m, o, s, r, t, &groups)
}

/// A round's acting groups in order: each group's (segment, group) key, segment · 32 +
/// speed group, and its creatures (bit per slot), for the creatures with an action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Groups {
    /// Groups in use.
    pub n: u8,
    /// Per group, in increasing order: segment · 32 + speed group.
    pub key: [u8; 16],
    /// Per group, its creatures (bit per slot).
    pub mask: [u16; 16],
}

impl Groups {
    /// The groups of the actions in `s` (a [`plain`] round's: each action's segment and
    /// group are fixed for the round).
    #[inline]
    fn of<const MIXED: bool>(m: &Matchup, s: &State) -> Groups {
        let mut g = Groups::default();
        for side in 0..2 {
            for i in 0..usize::from(m.n[side]) {
                let act = s.m[side][i].act;
                let seg = seg_of(m, s, side, i, act);
                if seg < 3 {
                    let sub = group_of::<MIXED>(m, s, side, i, act);
                    debug_assert!(sub < m.ret_sub && m.ret_sub < 32);
                    g.add(seg * 32 + sub, slot_of(side, i));
                }
            }
        }
        g
    }
    /// Puts `slot` in the group of `key`, kept in increasing order of key.
    #[inline]
    fn add(&mut self, key: u8, slot: u8) {
        let n = usize::from(self.n);
        let mut k = 0;
        while k < n && self.key[k] < key {
            k += 1;
        }
        if k == n || self.key[k] != key {
            self.key.copy_within(k..n, k + 1);
            self.mask.copy_within(k..n, k + 1);
            self.key[k] = key;
            self.mask[k] = 0;
            self.n += 1;
        }
        self.mask[k] |= 1 << slot;
    }
}

/// The groups of sides engaged throughout with every creature's action fixed
/// ([`Matchup::engaged_act`], none [`NOT_FIXED`]): the same each round (a creature down at
/// a round's start has no action, and is never in a snapshot again). `n` is 0 if some
/// action is not fixed.
pub(super) fn fixed_groups(m: &Matchup) -> Groups {
    let mut s = State::default();
    for side in 0..2 {
        for i in 0..usize::from(m.n[side]) {
            let act = m.engaged_act[side][i];
            if act == NOT_FIXED {
                return Groups::default();
            }
            s.m[side][i].act = act;
        }
    }
    Groups::of::<true>(m, &s)
}

/// Runs a round's `groups` from its start (the cursor's `seg` and `sub` at 0) to its end or
/// the fight's ([`plain_round`]).
#[inline(always)]
fn run_groups<const MIXED: bool, R: Roller, T: Tally>(
    m: &Matchup,
    o: &D20Options,
    s: &mut State,
    r: &mut R,
    t: &mut T,
    groups: &Groups,
) -> Step {
    // Who is able: the first group's snapshot, then after each group that acted the next's
    // (nothing changes between groups).
    let mut snap = able_mask(m, s);
    for g in 0..usize::from(groups.n) {
        let mut actors = groups.mask[g] & snap_slots(snap);
        if actors == 0 {
            continue;
        }
        let key = groups.key[g];
        s.seg = key / 32;
        s.sub = key % 32;
        s.snap = snap;
        s.stage = ATTACK;
        while actors != 0 {
            let slot = actors.trailing_zeros() as u8;
            actors &= actors - 1;
            let (side, i) = member(slot);
            // Able at the group's start, so at the round's (nobody gets up), so with an action.
            debug_assert_ne!(s.m[side][i].act, ACT_NONE);
            s.slot = slot;
            let n = attacks_in(m.fighter_in::<MIXED>(side, i), s.m[side][i].act);
            for atk in 0..n {
                s.atk = atk;
                attack::<MIXED, _, _>(m, o, s, r, t);
            }
        }
        snap = able_mask(m, s);
        // Someone able on both sides: the verdict is that the fight goes on.
        if (snap & 0xff == 0 || snap >> 8 == 0)
            && let Some((w, e)) = verdict::<MIXED>(m, o, s)
        {
            return Step::Over(w, e);
        }
    }
    end_round::<MIXED>(m, s);
    Step::Continue
}

/// The able creatures (bit side·8 + index, [`bit`]).
#[inline(always)]
fn able_mask(m: &Matchup, s: &State) -> u16 {
    let mut mask = 0u16;
    for side in 0..2 {
        for i in 0..usize::from(m.n[side]) {
            if able(&s.m[side][i]) {
                mask |= bit(side, i);
            }
        }
    }
    mask
}

/// A resistance check («Resistance Check») against `full` damage of a spell of `units` HP
/// units (0 for weapon damage): (damage taken, damage reflected back). The −1 result takes 1
/// off a set of damage dice, and off a spell 1 in all or 1 per unit (`magic_minus_one`).
#[inline]
pub(super) fn resisted<R: Roller>(
    o: &D20Options,
    level: super::tables::Prof,
    full: i32,
    units: i32,
    r: &mut R,
) -> (i32, i32) {
    let minus = if units > 0 && o.magic_minus_one == MagicMinusOne::PerUnit {
        units
    } else {
        1
    };
    match resist_result(level, r.roll(20)) {
        Resist::Normal => (full, 0),
        Resist::MinusOne => ((full - minus).max(1), 0),
        Resist::Half => (halve(o, full), 0),
        Resist::One => (full.min(1), 0),
        Resist::Zero => (0, 0),
        Resist::Reflect => (0, halve(o, full)),
    }
}

/// Resolves the current attack (or spell) of the current actor.
#[inline(always)]
fn attack<const MIXED: bool, R: Roller, T: Tally>(m: &Matchup, o: &D20Options, s: &mut State, r: &mut R, t: &mut T) {
    let (side, i) = member(s.slot);
    let foe = 1 - side;
    let f = m.fighter_in::<MIXED>(side, i);
    let act = s.m[side][i].act;
    if act == ACT_CLOSE {
        close::<MIXED>(m, s, side, i);
        return;
    }
    if act == ACT_CHARGE && s.atk == 0 {
        // The charger arrives and stays engaged (a hit-and-run charger rides back out).
        s.dist = 0;
    }
    // Fumbles hurt only engaged opponents (always engaged without distance).
    let engaged = s.dist == 0 || matches!(act, ACT_CHARGE_HR | ACT_RETURN_SET);
    let mut units = 0;
    let a = if is_spell(act) {
        let sp = &f.spells[(act - ACT_SPELL) as usize];
        units = sp.damage;
        let me = &mut s.m[side][i];
        me.mp2 -= sp.cost2 as i16;
        me.buff = me.buff.max(sp.bth as i8);
        t.count_side(side, SPELLS, 1);
        if sp.damage == 0 {
            return;
        }
        sp.attack
    } else if act == ACT_MELEE {
        f.melee[s.atk as usize]
    } else {
        f.attacks[s.atk as usize]
    };
    // Each throw spends one of a finite supply (G-21), with the missile weapon used in melee.
    if f.supply.is_some() && (act == ACT_ATTACK || (act == ACT_MELEE && !f.has_melee_weapon)) {
        let me = &mut s.m[side][i];
        if me.thrown == 0 {
            return;
        }
        me.thrown -= 1;
    }
    let Some(j) = target::<MIXED, _>(m, o, s, side, i, r) else {
        return;
    };
    let g = m.fighter_in::<MIXED>(foe, j);
    let helpless = o.helpless_auto_hit && o.fight_to == FightTo::Death && !able(&s.m[foe][j]);
    let buff = i32::from(s.m[side][i].buff);
    // The d20 counts only as a natural 1 (0), a miss (1), a hit (2) or a natural 20 (3).
    let class = |roll: i32| {
        if roll == 1 && !helpless {
            0
        } else if !(roll == 20 || roll + a.to_hit + buff >= g.def || helpless) {
            1
        } else if roll == 20 {
            3
        } else {
            2
        }
    };
    let class = r.outcome(
        |w| {
            for roll in 1..=20 {
                w.add(class(roll), 1);
            }
        },
        |r| class(r.roll(20) as i32),
    );
    if class == 0 {
        if o.nat1_fumble && engaged {
            // «Rolling Attacks §2»: the minimum damage of every engaged opponent (G-16: every
            // foe able when the group started).
            // The fumbler's weapon resistance rolls against it (`fumble_resisted`), a
            // reflection going back to that opponent.
            // Under `fumble_resist_per = "attack"` each engaged attack's minimum is a set of
            // damage dice of its own («Resistance Check §3.1»), resisted by its own roll.
            // Each opponent deals its own member's minimum.
            for k in 0..usize::from(m.n[foe]) {
                if s.snap & bit(foe, k) != 0 {
                    let g = m.fighter_in::<MIXED>(foe, k);
                    let lump = [(g.min_dmg, g.min_kind)];
                    let sets = match (f.resist, o.fumble_resisted, o.fumble_resist_per) {
                        (Some(_), true, FumbleResistPer::Attack) => {
                            &g.min_sets[..g.n_min_sets as usize]
                        }
                        _ => &lump[..],
                    };
                    for &(min, kind) in sets {
                        let (dmg, reflect) = match (f.resist, o.fumble_resisted) {
                            (Some(level), true) => resisted(o, level, min, 0, r),
                            _ => (min, 0),
                        };
                        if dmg < min {
                            t.count_side(side, RESISTED, 1);
                        }
                        apply(o, f, &mut s.m[side][i], dmg, kind);
                        if reflect > 0 {
                            apply(o, g, &mut s.m[foe][k], reflect, kind);
                        }
                    }
                }
            }
        }
        t.attack(side, false, 0);
        t.count_side(side, FUMBLES, 1);
        return;
    }
    if class == 1 {
        t.attack(side, false, 0);
        return;
    }
    let crit = class == 3 && o.nat20_full_damage;
    let full = roll_damage(&a, crit && crit_is_max(o), r);
    let mut dmg = full;
    let res = if a.magic { g.magic_resist } else { g.resist };
    let mut reflect = 0;
    let bypass = crit && o.crit_rule == CritRule::BypassResistance;
    if let (Some(level), false) = (res, bypass) {
        (dmg, reflect) = resisted(o, level, full, units, r);
        if dmg < full {
            t.count_side(foe, RESISTED, 1);
        }
    }
    apply(o, g, &mut s.m[foe][j], dmg, a.kind);
    t.member_damage(side, i, j, dmg);
    if reflect > 0 {
        apply(o, f, &mut s.m[side][i], reflect, a.kind);
    }
    t.attack(side, true, dmg);
    t.count_side(side, NATURAL_20S, u32::from(crit));
}

/// `MState::words` and `State::head` against the fields they pack: the exact solver's
/// interning and sort rely on them (no bundled scenario has two live states that differ only
/// in, say, `thrown`, so the solver's own tests cannot tell if a field is left out).
#[cfg(test)]
mod packing {
    use super::{MState, State};
    use proptest::prelude::*;
    use std::hash::BuildHasher;

    /// A creature from each field's whole range.
    fn creature() -> impl Strategy<Value = MState> {
        (
            any::<i16>(),
            any::<i16>(),
            any::<i16>(),
            any::<i16>(),
            any::<i8>(),
            any::<u8>(),
            any::<u8>(),
            any::<u8>(),
        )
            .prop_map(|(hp, max, tally, mp2, buff, act, thrown, flags)| MState {
                hp,
                max,
                tally,
                mp2,
                buff,
                act,
                thrown,
                flags,
            })
    }

    /// `a` with the fields in `mask` (bit per field, in declaration order) taken from `b`: two
    /// creatures that differ in some fields and agree in the rest.
    fn mix(a: MState, b: MState, mask: u8) -> MState {
        let pick = |bit: u8| mask >> bit & 1 == 1;
        MState {
            hp: if pick(0) { b.hp } else { a.hp },
            max: if pick(1) { b.max } else { a.max },
            tally: if pick(2) { b.tally } else { a.tally },
            mp2: if pick(3) { b.mp2 } else { a.mp2 },
            buff: if pick(4) { b.buff } else { a.buff },
            act: if pick(5) { b.act } else { a.act },
            thrown: if pick(6) { b.thrown } else { a.thrown },
            flags: if pick(7) { b.flags } else { a.flags },
        }
    }

    /// The fields as a tuple: what equality and order mean.
    fn fields(m: &MState) -> (i16, i16, i16, i16, i8, u8, u8, u8) {
        (m.hp, m.max, m.tally, m.mp2, m.buff, m.act, m.thrown, m.flags)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// Equal words iff equal fields; the words' order is the fields' order (the derived
        /// `Ord`); equal creatures hash alike.
        #[test]
        fn creature_words_are_its_fields(a in creature(), b in creature(), mask in 0u8..=255) {
            let c = mix(a, b, mask);
            prop_assert_eq!(a == c, fields(&a) == fields(&c));
            prop_assert_eq!(a.words().cmp(&c.words()), fields(&a).cmp(&fields(&c)));
            prop_assert_eq!(a.cmp(&c), fields(&a).cmp(&fields(&c)));
            let h = std::collections::hash_map::RandomState::new();
            if a == c {
                prop_assert_eq!(h.hash_one(a), h.hash_one(c));
            }
        }

        /// Two states that differ in one field (a head field, or one field of one creature)
        /// are unequal.
        #[test]
        fn state_equality_sees_every_field(
            side in 0usize..2,
            slot in 0usize..super::MAX_SIDE,
            m in creature(),
            field in 0u8..18,
            v in 1u32..u32::from(u16::MAX),
        ) {
            let mut a = State {
                n: [super::MAX_SIDE as u8; 2],
                ..State::default()
            };
            a.m[side][slot] = m;
            let mut b = a;
            let v8 = v as u8 | 1;
            // `m` with every field changed.
            let other = MState {
                hp: m.hp ^ 1,
                max: m.max ^ 1,
                tally: m.tally ^ 1,
                mp2: m.mp2 ^ 1,
                buff: m.buff ^ 1,
                act: m.act ^ 1,
                thrown: m.thrown ^ 1,
                flags: m.flags ^ 1,
            };
            match field {
                0 => b.round ^= v,
                1 => b.stage ^= v8,
                2 => b.init_i ^= v8,
                3 => b.seg ^= v8,
                4 => b.sub ^= v8,
                5 => b.slot ^= v8,
                6 => b.atk ^= v8,
                7 => b.snap ^= v as u16 | 1,
                8 => b.dist ^= v as u16,
                9 => b.moved ^= v8,
                f => b.m[side][slot] = mix(m, other, 1 << (f - 10)),
            }
            prop_assert_ne!(a, b);
        }
    }
}

/// [`engaged_act`] is what [`choose_actions`] works out for an engaged creature: the same
/// actions with the fixed ones and with every creature chosen in full, for fighters with and
/// without missile weapons, spells, supplies and retreat, under both `engaged_missile`.
#[cfg(test)]
#[test]
fn a_fixed_engaged_action_is_the_one_chosen_in_full() {
    use super::spec::FighterSpec;
    use crate::Ruleset;
    let spec = |t: &str| -> FighterSpec { toml::from_str(t).unwrap_or_else(|e| panic!("{e}")) };
    let sides = [
        "species = \"human\"\nclass = \"fighter\"\nlevel = 2\nweapon = \"long sword\"\ncount = 2\n",
        "species = \"human\"\nweapon = \"short bow\"\nmelee_weapon = \"short sword\"\ncount = 2\n",
        "species = \"human\"\nweapon = \"short bow\"\ncount = 2\n",
        "species = \"human\"\nclass = \"50/50\"\nlevel = 1\nweapon = \"dagger\"\nspells = [{ name = \"bolt\", damage = 2 }]\ncount = 2\n",
        "species = \"goblin\"\nweapon = \"short sword\"\ncount = 3\nretreat = \"at_hp_fraction\"\nretreat_hp_fraction = 0.5\n",
    ];
    for missile in [EngagedMissile::Melee, EngagedMissile::Shoot] {
        let o = D20Options { engaged_missile: missile, ..D20Options::default() };
        for a in sides {
            for b in sides {
                let (r, m) = crate::testing::pair::<D20>(o.clone(), &spec(a), &spec(b));
                let full = Matchup { engaged_act: [[NOT_FIXED; MAX_SIDE]; 2], ..m.clone() };
                let mut rng = oddsmith_dice::stream(7, 0);
                let mut roller = crate::RngRoller::new(&mut rng);
                for _ in 0..50 {
                    let mut s = r.start(&m);
                    while s.stage == INIT {
                        let _ = r.step(&m, &mut s, &mut roller, &mut NoTally);
                    }
                    // Some creatures down, some hurt.
                    for side in 0..2 {
                        for i in 0..usize::from(m.n[side]) {
                            s.m[side][i].hp -= roller.roll(8) as i16 - 2;
                        }
                    }
                    let (mut x, mut y) = (s, s);
                    choose_actions::<true>(&m, &o, &mut x);
                    choose_actions::<true>(&full, &o, &mut y);
                    assert_eq!(x, y, "{a} against {b} under {missile:?}");
                }
            }
        }
    }
}
