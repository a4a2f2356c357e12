//! The duel as a small state machine, shared by the Monte Carlo duel and the exact solver.
//!
//! One [`step`] is either the start of a round (plans, striking order) or one attack with its
//! defence. The Monte Carlo duel calls it with a random roller until the duel ends; the exact
//! solver calls it with every sequence of faces (see `crate::roller::enumerate`). Digest §6,
//! "Default duel loop", is the specification.

use super::Draft;
use super::fighter::{DefenceHand, Fighter, Level, Matchup, WOUND_TABLE_LEN};
use super::options::{
    ChangingMind, DraftOptions, EndCondition, FirstStrikeTie, Knockback, Overflow, ParrySegment,
};
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
    /// Segments at the start of this round before the first attack (moving in, drawing).
    pub offset: u8,
    /// Segments of drawing the melee weapon still to come after this round.
    pub unready: u8,
    /// Segments of preparation done toward the next shot (§4.21.1).
    pub prep: u8,
    /// Charging this round (§4.22.2).
    pub charging: bool,
    /// Dropped weapon and shield this round after an arm hit (§4.19.2): no more attacks.
    pub disarmed: bool,
    /// The segments still to come are picking up what was dropped: dodge only (G12).
    pub pickup: bool,
    /// Parries or dodges still declared in this round's plan (§4.17.6, `changing_mind =
    /// "seed"`); a defence beyond them replaces a planned attack. Always 0 under `"free"`.
    pub guard: u8,
    /// Shots or throws made with the missile weapon (its `supply`, §4.21.3).
    pub fired: u8,
    /// Under `parry_segment = "segment"`: attack events of this round already resolved.
    pub made: u8,
    /// Under `parry_segment = "segment"`: segments each planned attack of this round was
    /// pushed back by the fighter's parries and dodges (§4.18.2).
    pub delay: [u8; 3],
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
    /// Metres apart at the start of this round; 0 = engaged (G17).
    pub dist: u16,
    /// While apart: segments of this round already resolved.
    pub seg: u8,
    /// While apart: this round is an arrival (a Normal move and contact after segment 2).
    pub arriving: bool,
    /// While apart: who closes this round (bit 0 A, bit 1 B), fixed at its first segment.
    pub closers: u8,
    /// Both fighters.
    pub f: [FState; 2],
}

impl State {
    /// The state before the first round of an engaged duel.
    pub fn start() -> State {
        State {
            ev: u8::MAX,
            ..State::default()
        }
    }

    /// The state before the first round, `dist` metres apart (0 = engaged).
    pub fn start_at(m: &Matchup, o: &DraftOptions, dist: u16) -> State {
        let mut s = State::start();
        s.dist = dist;
        for (f, fighter) in s.f.iter_mut().zip(&m.f) {
            f.prep = match fighter.missile {
                Some(ms) if o.missile_loaded_at_start => ms.prepare,
                // §4.21.1: the legionary "begins the round with his pilum readily prepared";
                // aiming one more round (aim = "extra_round") still takes its round.
                Some(ms) if ms.thrown && o.thrown_ready_at_start => ms.quick,
                _ => 0,
            };
        }
        s
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
        [
            n(Level::None),
            n(Level::Light),
            n(Level::Severe),
            n(Level::Critical)
        ],
        [
            "a_scratches_taken",
            "a_light_taken",
            "a_severe_taken",
            "a_critical_taken"
        ]
    );
    assert_eq!(n(Level::Death), "a_critical_taken");
}

#[inline]
pub(super) fn wound_penalty(o: &DraftOptions, f: &FState) -> i32 {
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

/// The modifiers on every roll of a fighter: armour Movement (§4.17.5), wounds (§4.19.2),
/// exhaustion (§4.24.1) and knock-back (G11).
#[inline]
fn roll_mods(o: &DraftOptions, f: &Fighter, st: &FState, round: u32) -> i32 {
    f.movement + state_mods(o, f, st, round)
}

/// [`roll_mods`] but armour Movement, which [`Hot`] holds: what changes during the duel.
#[inline]
fn state_mods(o: &DraftOptions, f: &Fighter, st: &FState, round: u32) -> i32 {
    wound_penalty(o, st) + exhaustion_penalty(o, round, f.stamina) - i32::from(st.knocked)
}

/// The modifier of an action beyond the free ones (§4.17.1).
#[inline]
fn extra_action(o: &DraftOptions, st: &FState) -> i32 {
    if st.actions >= o.free_actions_per_round {
        o.extra_action_modifier
    } else {
        0
    }
}

/// Whether a fighter is helpless: a Critical wound or an exhaustion collapse, still alive
/// (only under `end_condition = "death"`; otherwise either ends the duel).
#[inline]
pub(super) fn helpless(f: &FState) -> bool {
    f.critical > 0 || f.dead || f.collapsed
}

/// Whether a fighter may attack: not helpless, unless `critical_can_attack` (G9).
#[inline]
pub(super) fn can_attack(o: &DraftOptions, f: &FState) -> bool {
    o.critical_can_attack || !helpless(f)
}

/// The `k`-th attack event of the round: (attacker, segment), or `None` when the round is over.
#[inline]
fn event(s: &State, k: u8) -> Option<(usize, u8)> {
    let first = s.first as usize;
    let mut i = 0;
    for seg in 1..=3u8 {
        for who in [first, 1 - first] {
            if attacks_in(&s.f[who], seg) {
                if i == k {
                    return Some((who, seg));
                }
                i += 1;
            }
        }
    }
    None
}

/// Whether `f` makes a planned attack in segment `seg`: the `planned` attacks follow the
/// `offset`, one a segment, each pushed back by its `delay`.
#[inline]
fn attacks_in(f: &FState, seg: u8) -> bool {
    if seg <= f.offset {
        return false;
    }
    if f.delay == [0; 3] {
        return seg - f.offset <= f.planned;
    }
    (0..f.planned.min(3)).any(|i| f.offset + 1 + i + f.delay[usize::from(i)] == seg)
}

/// `parry_segment = "segment"` (§4.18.2 "looses one segment"): a parry or dodge of `f` in
/// segment `seg` pushes its attacks not yet made to the segments after it, each at least one
/// after the one before (event order of the attacks already made is kept: they are all
/// earlier in the round's enumeration).
#[inline]
fn slide(f: &mut FState, seg: u8) {
    let mut prev = seg;
    for i in f.made..f.planned.min(3) {
        let at = f.offset + 1 + i + f.delay[usize::from(i)];
        if at <= prev {
            f.delay[usize::from(i)] += prev + 1 - at;
            prev += 1;
        } else {
            prev = at;
        }
    }
}

/// Declares the parries and dodges of a fighter's plan for the rest of the round (§4.17.1,
/// §4.17.6): under `changing_mind = "seed"`, every action its policy does not plan as an
/// attack; a defence beyond them replaces a planned attack (INTERPRETATION: the plan fixes
/// how many actions go to attacks and to defences, not the segment of each defence, since
/// the duel loop lets a fighter attack and defend within one segment).
#[inline]
fn declare_defences(o: &DraftOptions, f: &mut FState) {
    if o.changing_mind == ChangingMind::Seed {
        f.guard = o
            .max_actions_per_round
            .saturating_sub(f.actions.saturating_add(f.planned));
    }
}

/// The Changing One's Mind modifier on a defence being made (§4.17.6): none while the plan
/// still declares a defence (it uses one up), else `changing_mind_modifier` (a Similar
/// action: attack to parry; a dodge is always Similar). Always 0 under `"free"`.
#[inline]
fn changed_mind(o: &DraftOptions, f: &mut FState) -> i32 {
    if o.changing_mind == ChangingMind::Free {
        0
    } else if f.guard > 0 {
        f.guard -= 1;
        0
    } else {
        o.changing_mind_modifier
    }
}

/// The potent-fighter shift (§4.17.2, `potent_fighter_shift`): when the potent fighter's first
/// action of the round waits on drawing, picking up or moving in that ends this round, and
/// the other fighter's does not wait as long (they fight "in different ways"), the action is
/// "scheduled one segment earlier". Returns which side moved.
#[inline]
fn shift_potent(m: &Matchup, s: &mut State) -> Option<usize> {
    let x = m.potent? as usize;
    let (fx, other) = (s.f[x], s.f[1 - x]);
    if fx.offset > 0 && fx.unready == 0 && fx.offset != other.offset {
        s.f[x].offset -= 1;
        return Some(x);
    }
    None
}

/// A fighter's plan for the round: attacks and Defensive Position, by its policy (the fixed
/// ones are in [`Hot::plan`]; `adaptive` looks at the wounds).
#[inline]
fn plan(m: &Matchup, o: &DraftOptions, s: &State, me: usize) -> (u8, bool) {
    let st = &s.f[me];
    if !can_attack(o, st) {
        return (0, false);
    }
    if let Some(p) = m.hot.plan[me] {
        return p;
    }
    let f = &m.f[me];
    let lead = wound_penalty(o, &s.f[1 - me]) - wound_penalty(o, st);
    let opponent_defensive = m.f[1 - me].policy == Policy::Defensive;
    if lead >= f.adaptive_threshold && !opponent_defensive {
        (0, true)
    } else {
        (1, false)
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
pub(super) fn lost(o: &DraftOptions, f: &FState) -> Option<Ending> {
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

#[inline]
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
    if s.ev != u8::MAX && s.dist > 0 {
        return approach_segment(m, o, s, roller, tally);
    }
    let next = if s.ev == u8::MAX {
        None
    } else {
        event(s, s.ev)
    };
    let Some((x, seg)) = next else {
        return start_round(m, o, s, roller);
    };
    s.ev += 1;
    let segment = o.parry_segment == ParrySegment::Segment;
    if segment {
        s.f[x].made += 1;
    }
    let y = 1 - x;
    // Under simultaneous blows, the first blow of a segment pair waits for the second.
    let pair = |s: &State| event(s, s.ev).is_some_and(|(w, seg2)| w == y && seg2 == seg);
    let mut defer = s.simultaneous && s.pending.is_none() && pair(s);
    attack(m, o, s, x, seg, defer, roller, tally);
    // A parry that pushed the other blow out of this segment leaves nothing to wait for.
    defer &= !segment || pair(s);
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

/// One melee attack of `x` in segment `seg` with the other's defence (§4.17–§4.19), as one
/// `step` makes it; a wound is applied at once, or held in `pending` when `defer`red.
/// Returns whether a wound was applied or held (if not, no fighter's wounds changed).
#[inline]
#[allow(clippy::too_many_arguments)]
fn attack<R: Roller, T: Tally>(
    m: &Matchup,
    o: &DraftOptions,
    s: &mut State,
    x: usize,
    seg: u8,
    defer: bool,
    roller: &mut R,
    tally: &mut T,
) -> bool {
    if shooting(m, s, x) {
        return melee_shot(m, o, s, x, seg, defer, roller, tally);
    }
    let y = 1 - x;
    let (fx, fy) = (&m.f[x], &m.f[y]);
    let rnd = s.round;
    // Everything read from the two states is read before either is written (no copies).
    let (sx, sy) = (&s.f[x], &s.f[y]);
    let able = can_attack(o, sx) && sx.actions < o.max_actions_per_round && !sx.disarmed;
    if !able {
        return false;
    }
    let y_helpless = helpless(sy);
    // The constant part (skill, static modifiers, Movement) is folded in `Hot::attack`.
    let mut attack = m.hot.attack[x] + extra_action(o, sx) + state_mods(o, fx, sx, rnd);
    if sx.charging {
        attack += o.charge_attack_bonus;
    }
    if y_helpless {
        attack += o.lying_target_bonus;
    }
    // Drawing the melee weapon: shield or dodge only (§4.17.1); picking up what an arm hit
    // dropped: dodge only (G12).
    let empty_handed = sy.disarmed || (sy.pickup && seg <= sy.offset);
    let hand = if empty_handed {
        DefenceHand::Empty
    } else if shooting(m, s, y) {
        DefenceHand::Shooting
    } else if seg > sy.offset {
        DefenceHand::Armed
    } else {
        DefenceHand::Drawing
    };
    // `None` folds "no active defence" and `all_out` (see `Hot::defence`).
    let base = m.hot.defence[y][hand as usize]
        .filter(|_| !y_helpless && sy.actions < o.max_actions_per_round)
        .map(|base| {
            base + extra_action(o, sy)
                + if sy.dp { o.defensive_position_bonus } else { 0 }
                + if sy.charging {
                    o.charge_defence_modifier
                } else {
                    0
                }
                + state_mods(o, fy, sy, rnd)
        });
    let charging = sx.charging;
    s.f[x].actions += 1;
    // The defence without its die (its action and Changing One's Mind are spent before the
    // dice: nothing between them reads a die).
    let defence = base.map(|base| {
        let fy = &mut s.f[y];
        fy.actions += 1;
        if o.parry_segment == ParrySegment::Segment {
            slide(fy, seg);
        }
        base + changed_mind(o, fy)
    });
    let charge = if charging { o.charge_damage_bonus } else { 0 };
    let bonus = m.hot.damage[x] + charge;
    let margin = if T::RECORDS {
        margin(attack, defence, o.undefended_value, |margin| margin, roller)
    } else {
        // Nothing reads the damage: the step uses the margin only through the level of the
        // blow (a miss is a class of its own).
        let wound_of = &m.f[y].wound_of;
        let level = |margin: i32| {
            if margin == 0 {
                -1
            } else {
                wound_of[(margin + bonus).clamp(0, WOUND_TABLE_LEN as i32 - 1) as usize] as i32
            }
        };
        margin(attack, defence, o.undefended_value, level, roller)
    };
    if margin == 0 {
        tally.attack(x, false, 0);
        return false;
    }
    let damage = margin + bonus;
    let level = hit(m, y, damage, tally, x);
    if level == Level::Severe && o.hit_locations && !empty_handed {
        arm_hit(m, &mut s.f[y], y, roller);
    }
    if level == Level::None {
        return false;
    }
    if defer {
        s.pending = Some((y as u8, level as u8));
    } else {
        apply(o, &mut s.f[y], level);
    }
    true
}

/// The margin by which `attack` + d10 beats `defence` + d10 (or, with no active defence, the
/// fixed `undefended` value), 0 when it does not (ties to the defender, §4.18): the step uses
/// the dice only through it, so it is one `Roller::outcome`. Monte Carlo rolls the attack's
/// d10, then the defence's, as ever. The exact solver branches once per run of consecutive
/// margins of the same `class` (the margins the step treats alike; the identity when the
/// tally records the damage, at most 10 branches instead of 100 pairs of faces), the run's
/// first margin standing for it.
#[inline]
fn margin<R: Roller>(
    attack: i32,
    defence: Option<i32>,
    undefended: i32,
    class: impl Fn(i32) -> i32,
    roller: &mut R,
) -> i32 {
    match defence {
        Some(defence) => roller.outcome(
            // a − d = k with weight 10 − |k| over the 100 pairs of faces.
            |w| {
                let margins = (-9..=9).map(|k: i32| ((attack - defence + k).max(0), 10 - k.abs()));
                runs(w, margins, &class);
            },
            |r| {
                let a = attack + r.d10() as i32;
                (a - (defence + r.d10() as i32)).max(0)
            },
        ),
        None => roller.outcome(
            |w| runs(w, (1..=10).map(|a| ((attack + a - undefended).max(0), 1)), &class),
            |r| (attack + r.d10() as i32 - undefended).max(0),
        ),
    }
}

/// Adds `margins` (in increasing order, with their weights) to `w`, a run of consecutive
/// margins of one `class` at once under the run's first margin.
#[inline]
fn runs(
    w: &mut crate::roller::Outcomes<'_>,
    margins: impl Iterator<Item = (i32, i32)>,
    class: &impl Fn(i32) -> i32,
) {
    let mut run: Option<(i32, i32, u64)> = None;
    for (margin, weight) in margins {
        let c = class(margin);
        match &mut run {
            Some((_, rc, rw)) if *rc == c => *rw += weight as u64,
            _ => {
                if let Some((first, _, rw)) = run {
                    w.add(first, rw);
                }
                run = Some((margin, c, weight as u64));
            }
        }
    }
    if let Some((first, _, rw)) = run {
        w.add(first, rw);
    }
}

impl crate::Duel<Draft> for State {
    /// [`State::start_at`] the options' `start_distance`.
    fn start(rules: &Draft, m: &Matchup) -> State {
        State::start_at(m, rules.options(), rules.options().start_distance)
    }

    /// [`step`] under the ruleset's options.
    #[inline]
    fn step<R: Roller, T: Tally>(
        &mut self,
        rules: &Draft,
        m: &Matchup,
        roller: &mut R,
        tally: &mut T,
    ) -> Step {
        step(m, rules.options(), self, roller, tally)
    }
}

/// Reports a hit of `damage` points by `x` on `y` and returns its wound level.
#[inline]
fn hit<T: Tally>(m: &Matchup, y: usize, damage: i32, tally: &mut T, x: usize) -> Level {
    let level = m.f[y].wound_of[damage.clamp(0, WOUND_TABLE_LEN as i32 - 1) as usize];
    tally.attack(x, true, damage.max(0));
    tally.count_side(y, taken_counter(level), 1);
    level
}

/// Optional hit locations (§4.24.3, front table): a Severe blow to an arm (7 left, 8 right)
/// drops "all weapons or objects he held" (§4.19.2): no more attacks this round, dodge only
/// until weapon and shield are picked up again at 2 segments each (§4.17.1, G12).
#[inline]
fn arm_hit<R: Roller>(m: &Matchup, f: &mut FState, y: usize, roller: &mut R) {
    // Only "an arm (7 or 8) or not" matters: one outcome of the d10 (2 branches, not 10).
    let arm = roller.outcome(
        |w| {
            w.add(1, 2);
            w.add(0, 8);
        },
        |r| i32::from(matches!(r.d10(), 7 | 8)),
    );
    if arm == 0 {
        return;
    }
    let items = 1 + u8::from(m.f[y].shield.is_some());
    f.disarmed = true;
    f.pickup = true;
    f.unready = f.unready.saturating_add(2 * items);
}

/// Whether `x` closes in this round instead of shooting: no missile weapon (or none left to
/// shoot), or the other fighter beyond its maximum range.
#[inline]
fn closing(m: &Matchup, s: &State, x: usize) -> bool {
    !has_shots(m, s, x) || m.f[x].missile.is_none_or(|ms| s.dist > ms.max_range)
}

/// Whether `x` has a missile weapon with a shot or throw left (its `supply`).
#[inline]
pub(super) fn has_shots(m: &Matchup, s: &State, x: usize) -> bool {
    m.f[x]
        .missile
        .is_some_and(|ms| ms.supply.is_none_or(|n| s.f[x].fired < n))
}

/// Whether `x` fights in melee with its missile weapon (`Matchup::shoots`) and has a shot left.
#[inline]
pub(super) fn shooting(m: &Matchup, s: &State, x: usize) -> bool {
    m.shoots[x] && has_shots(m, s, x)
}

/// Whether `x` may sprint: not in heavy armour (§4.17.5) nor with a Severe wound (§4.19.2).
#[inline]
fn can_sprint(m: &Matchup, o: &DraftOptions, s: &State, x: usize) -> bool {
    m.f[x].movement > o.heavy_armour_movement && s.f[x].severe == 0
}

/// Metres `x` covers per segment while closing: a sprint, unless its armour is heavy
/// (§4.17.5) or it holds a Severe wound (§4.19.2).
#[inline]
fn pace_of(m: &Matchup, o: &DraftOptions, s: &State, x: usize) -> u16 {
    if can_sprint(m, o, s, x) {
        o.move_per_segment
    } else {
        o.run_per_segment
    }
}

/// Segments left for shooting before contact, this one included (at least `cap` when there
/// are that many): `pace` metres a segment closed, `u8::MAX` when no one closes.
fn segments_left(s: &State, pace: u16, cap: u8) -> u8 {
    if pace == 0 {
        return u8::MAX;
    }
    if s.arriving {
        return 3 - s.seg;
    }
    let mut left = 4 - s.seg;
    let mut d = s.dist.saturating_sub(pace * u16::from(4 - s.seg));
    while d > 0 && left < cap {
        if d <= 2 * pace {
            left += 2;
            break;
        }
        left += 3;
        d = d.saturating_sub(3 * pace);
    }
    left
}

/// One shot in melee of `x`, a fighter that keeps its missile weapon (§4.17.1 "Trigger gun",
/// the §4.21.1 gunslinger): at point blank, unaimed under `aim = "auto"`, against the target's
/// defence against missiles (§4.21.3); the rest of the round prepares the next shot. A thrown
/// weapon's last throw leaves the fighter to draw its melee weapon.
#[allow(clippy::too_many_arguments)]
fn melee_shot<R: Roller, T: Tally>(
    m: &Matchup,
    o: &DraftOptions,
    s: &mut State,
    x: usize,
    seg: u8,
    defer: bool,
    roller: &mut R,
    tally: &mut T,
) -> bool {
    let y = 1 - x;
    let sx = &s.f[x];
    let Some(ms) = m.f[x].missile else {
        return false;
    };
    let quick = ms.melee_quick();
    let able = can_attack(o, sx)
        && sx.actions < o.max_actions_per_round
        && !sx.disarmed
        && sx.prep >= ms.need(quick);
    if !able {
        return false;
    }
    let mut bonus = ms.aim_mod(quick);
    if helpless(&s.f[y]) {
        bonus += o.lying_target_bonus;
    }
    let roll = roller.d10() as i32;
    let Some(attack) = shot_total(m, o, s, x, 0, roll) else {
        return false;
    };
    let attack = attack + bonus;
    let f = &mut s.f[x];
    f.actions += 1;
    f.fired = f.fired.saturating_add(1);
    f.prep = 3u8.saturating_sub(seg);
    if !has_shots(m, s, x) {
        let f = &mut s.f[x];
        f.disarmed = true;
        f.unready = m.f[x].draw;
    }
    let Some(level) = missile_hit(m, o, s, x, attack, roller, tally) else {
        return false;
    };
    if level == Level::None {
        return false;
    }
    if defer {
        s.pending = Some((y as u8, level as u8));
    } else {
        apply(o, &mut s.f[y], level);
    }
    true
}

/// The total of a missile shot by `x` at `d` metres with die `roll`, before the target's
/// defence (§4.21.1–§4.21.2), or `None` beyond the maximum range.
#[inline]
pub fn shot_total(
    m: &Matchup,
    o: &DraftOptions,
    s: &State,
    x: usize,
    d: u16,
    roll: i32,
) -> Option<i32> {
    let (fx, sx) = (&m.f[x], &s.f[x]);
    let ms = fx.missile?;
    let range = ms.range_modifier(o, d)?;
    Some(ms.attack + range + extra_action(o, sx) + roll_mods(o, fx, sx, s.round) + roll)
}

/// One segment while the fighters are apart (G17, §4.21): shots first (firing precedes
/// moving in the §4.17.1 order), then the closers move; after the second segment of the round
/// in which they reach the other, the rest of the round is melee: the closers attack in
/// segment 3 (a Normal move and an attack, §4.17.1, or a Charge, §4.22.2) and a fighter that
/// held a missile weapon drops it and draws its melee weapon.
fn approach_segment<R: Roller, T: Tally>(
    m: &Matchup,
    o: &DraftOptions,
    s: &mut State,
    roller: &mut R,
    tally: &mut T,
) -> Step {
    if s.seg >= 3 {
        return start_round(m, o, s, roller);
    }
    s.seg += 1;
    if s.seg == 1 {
        s.closers = u8::from(closing(m, s, 0)) | (u8::from(closing(m, s, 1)) << 1);
    }
    let closes = [s.closers & 1 != 0, s.closers & 2 != 0];
    let pace = (0..2)
        .filter(|&x| closes[x])
        .map(|x| pace_of(m, o, s, x))
        .sum::<u16>();
    if s.seg == 1 {
        s.arriving = pace > 0 && s.dist <= 2 * pace;
    }
    let d = s.dist;
    let first = match m.first_shot {
        Some(side) => side as usize,
        None => s.first as usize,
    };
    for x in [first, 1 - first] {
        let (Some(ms), false) = (m.f[x].missile, closes[x]) else {
            continue;
        };
        if helpless(&s.f[x]) || !has_shots(m, s, x) {
            continue;
        }
        // The shot of the fighter's aim when ready; under aim = "auto" an unaimed one where
        // the aimed one could not go off before contact (§4.21.1).
        let prep = s.f[x].prep;
        let quick = if prep >= ms.prepare {
            false
        } else if ms.auto && prep >= ms.quick && {
            let more = ms.prepare - prep + 1;
            segments_left(s, pace, more) < more
        } {
            true
        } else {
            s.f[x].prep += 1;
            continue;
        };
        if s.f[x].actions >= o.max_actions_per_round {
            continue;
        }
        let roll = roller.d10() as i32;
        let Some(attack) = shot_total(m, o, s, x, d, roll) else {
            continue;
        };
        let attack = attack + ms.aim_mod(quick);
        s.f[x].actions += 1;
        s.f[x].prep = 0;
        s.f[x].fired = s.f[x].fired.saturating_add(1);
        let y = 1 - x;
        if let Some(level) = missile_hit(m, o, s, x, attack, roller, tally) {
            if level != Level::None {
                apply(o, &mut s.f[y], level);
            }
            if let Some((w, e)) = verdict(o, s) {
                return Step::Over(w, e);
            }
        }
    }
    if s.arriving && s.seg == 2 {
        // Contact: the rest of the round is melee (segment 3).
        s.dist = 0;
        s.arriving = false;
        s.ev = 0;
        let mut charging = false;
        let draws = [drop_and_draw(m, s, 0), drop_and_draw(m, s, 1)];
        let ready = [0, 1].map(|x| {
            shooting(m, s, x)
                && m.f[x]
                    .missile
                    .is_some_and(|ms| s.f[x].prep >= ms.need(ms.melee_quick()))
        });
        for (f, draw) in s.f.iter_mut().zip(draws) {
            let busy = 2 + draw;
            f.offset = busy.min(3);
            f.unready = busy - f.offset;
            f.planned = 0;
            f.made = 0;
            f.delay = [0; 3];
            f.dp = false;
        }
        let shifted = shift_potent(m, s);
        for (x, &closer) in closes.iter().enumerate() {
            let offset = s.f[x].offset;
            if ((closer || ready[x]) && offset == 2) || (shifted == Some(x) && offset <= 2) {
                // §4.22.2 "accelerate and run": no Charge where no sprint (§4.17.5, §4.19.2).
                let charge_ok = !o.charge_needs_sprint || can_sprint(m, o, s, x);
                let (planned, dp) = plan(m, o, s, x);
                let f = &mut s.f[x];
                f.planned = planned.min(1);
                f.dp = dp;
                f.charging = closer && m.f[x].charge && f.planned > 0 && charge_ok;
                charging |= f.charging;
            }
            // Moving in (or drawing) is this round's first action.
            let f = &mut s.f[x];
            f.actions = f.actions.saturating_add(1).min(o.max_actions_per_round);
            declare_defences(o, f);
        }
        if charging && let Some(side) = m.first_on_charge {
            s.first = side as u8;
        }
    } else {
        // An arrival round closes in segment 2 (above): its first segment leaves at least a
        // metre, however fast the closers are.
        s.dist = s.dist.saturating_sub(pace).max(u16::from(s.arriving));
        if s.seg == 3 && s.dist == 0 {
            // Contact at the end of a Full move: the melee starts next round.
            let draws = [drop_and_draw(m, s, 0), drop_and_draw(m, s, 1)];
            for (f, draw) in s.f.iter_mut().zip(draws) {
                f.unready = draw;
                f.planned = 0;
            }
            s.ev = 0;
        }
    }
    Step::Continue
}

/// Segments to get the melee weapon in hand on contact: a fighter holding a missile weapon
/// drops it and draws (§4.17.1), unless it keeps shooting in melee; any other already holds
/// its weapon.
#[inline]
fn drop_and_draw(m: &Matchup, s: &State, x: usize) -> u8 {
    if m.f[x].missile.is_some() && !shooting(m, s, x) {
        m.f[x].draw
    } else {
        0
    }
}

/// Resolves the target's defence against a missile total `attack` of `x` (§4.21.3) and
/// reports it; returns the wound level of a hit, `None` for a miss. A shot meets
/// `ranged_passive_value`, or the target's active defence (a shield parry, half a Dodge
/// against a thrown weapon) when that is higher: a failed defence never makes the hit better
/// than standing still would.
fn missile_hit<R: Roller, T: Tally>(
    m: &Matchup,
    o: &DraftOptions,
    s: &State,
    x: usize,
    attack: i32,
    roller: &mut R,
    tally: &mut T,
) -> Option<Level> {
    let y = 1 - x;
    let (fx, fy, sy) = (&m.f[x], &m.f[y], &s.f[y]);
    let ms = fx.missile?;
    let md = m.vs_missile[y];
    let protection = fy.protection + md.armour;
    let from = |defence: i32, quality: i32, tally: &mut T| {
        if attack > defence {
            let damage = attack - defence + ms.damage - protection - quality;
            Some(hit(m, y, damage, tally, x))
        } else {
            tally.attack(x, false, 0);
            None
        }
    };
    let passive = o.ranged_passive_value;
    let Some(base) = md.parry.filter(|_| !helpless(sy)) else {
        return from(passive, 0, tally);
    };
    let parry = base + fy.defence_mod + roll_mods(o, fy, sy, s.round) + roller.d10() as i32;
    if parry >= attack {
        if md.blocks {
            tally.attack(x, false, 0);
            None
        } else {
            // Parried, but the shield cannot stop this missile: its quality adds to armour.
            from(passive, md.quality, tally)
        }
    } else {
        from(parry.max(passive), 0, tally)
    }
}

#[inline]
pub(super) fn apply(o: &DraftOptions, f: &mut FState, level: Level) {
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
    let apart = s.dist > 0;
    for (f, (planned, dp)) in s.f.iter_mut().zip(plans) {
        f.knocked = false;
        f.charging = false;
        f.disarmed = false;
        // Drawing (or picking up) the melee weapon takes the first segments of the round and
        // one action.
        f.offset = f.unready.min(3);
        f.unready -= f.offset;
        f.pickup &= f.offset > 0;
        f.actions = u8::from(f.offset > 0);
        f.planned = if apart { 0 } else { planned };
        f.made = 0;
        f.delay = [0; 3];
        f.dp = dp && !apart;
        f.guard = 0;
        declare_defences(o, f);
    }
    if !apart {
        for x in 0..2 {
            let Some(ms) = m.f[x].missile.filter(|_| shooting(m, s, x)) else {
                continue;
            };
            // A shooter in melee prepares (draws, aims) in the round's first segments, and a
            // weapon that needs preparation shoots at most once a round.
            let full = ms.need(ms.melee_quick());
            let f = &mut s.f[x];
            let need = full.saturating_sub(f.prep);
            if need > 0 {
                let w = need.min(3);
                f.offset = f.offset.max(w);
                f.prep += w;
                f.actions = 1;
            }
            if full > 0 {
                f.planned = f.planned.min(1);
            }
            f.guard = 0;
            declare_defences(o, f);
        }
    }
    shift_potent(m, s);
    s.ev = 0;
    s.seg = 0;
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
