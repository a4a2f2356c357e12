//! The engaged fast path of Draft's Monte Carlo duel (issue 15 item 2).
//!
//! Where [`Hot::fast`](super::fighter::Hot::fast) is set (the duel starts engaged, without
//! exhaustion, hit locations or simultaneous blows), nothing draws, moves, charges, drops a
//! weapon or collapses, so a fighter attacks in the first `planned` segments of each round.
//! [`engaged_duel`] plays that duel as one loop over rounds and segments on a compact
//! per-fighter state that keeps the running parts of the totals (the wound penalty, helpless,
//! whether it may attack and defend, the attack and defence totals before the die) and updates
//! them only when a wound lands or a round starts, instead of recomputing them from the wound
//! counts on every roll as [`step`](super::duel::step) does. It reads the same dice in the
//! same order and gives the same outcome as the shared duel over `step`; `tests/fast.rs` plays
//! both on the same stream for over a million duels. The exact solver runs `step`.

use super::duel::{self, FState};
use super::fighter::{DefenceHand, Hot, Level, Matchup, WOUND_TABLE_LEN};
use super::options::{ChangingMind, DraftOptions};
use super::spec::Policy;
use crate::outcome::PER_SIDE;
use crate::{DuelOutcome, Ending, Record, Roller, Winner};

/// Everything the engaged fast path reads, folded once per matchup from the matchup and the
/// options (built only where the fast path applies: [`Hot::fast`](super::fighter::Hot::fast)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engaged {
    /// [`Hot::attack`](super::fighter::Hot::attack).
    attack: [i32; 2],
    /// Each side's armed defence base ([`Hot::defence`](super::fighter::Hot::defence)), 0
    /// when it never defends.
    defence: [i32; 2],
    /// Whether each side defends actively at all.
    defends: [bool; 2],
    /// [`Hot::damage`](super::fighter::Hot::damage).
    damage: [i32; 2],
    /// The fixed policies' plans ([`Hot::plan`](super::fighter::Hot::plan)).
    plan: [Option<(u8, bool)>; 2],
    /// `adaptive`: its threshold, and whether the opponent's policy is `defensive`.
    adaptive: [(i32, bool); 2],
    /// The extra-action modifier by actions already used this round (§4.17.1).
    extra: [i32; 4],
    /// `max_actions_per_round`.
    max_actions: u8,
    /// `defensive_position_bonus`.
    dp_bonus: i32,
    /// `lying_target_bonus`.
    lying: i32,
    /// `changing_mind_modifier` under `"seed"`, 0 under `"free"` (no penalty ever).
    mind: i32,
    /// `undefended_value`.
    undefended: i32,
    /// Who strikes first when the rules decide it (else a d2 each round).
    first: Option<u8>,
    /// `max_rounds`.
    max_rounds: u32,
    /// The wound state a wound of each level leads to from each wound state (`duel::add_wound`;
    /// [`KNOCKED`] set when it knocks the victim back, `duel::apply`).
    next: [[u8; 5]; WOUND_STATES],
    /// What follows from each wound state.
    wounds: [Wounds; WOUND_STATES],
    /// What each side's totals, caps and plan are in each wound state.
    stance: [[Stance; WOUND_STATES]; 2],
    /// Both sides before the first round.
    start: [Side; 2],
    /// Each side attacks at most once a round (every fixed plan attacks at most once;
    /// `adaptive` plans attack once or not at all), at least two actions are allowed and the
    /// first two are free (§4.17.1): then an attack never meets an action cap, the
    /// extra-action modifier or Changing One's Mind, and [`play`] leaves them out.
    single: bool,
}

impl Engaged {
    /// Folds what the fast path reads from `m` and its constant parts `h` under `o`.
    /// `None` when the wound capacities give more than [`WOUND_STATES`] wound states.
    pub(super) fn new(o: &DraftOptions, m: &Matchup, h: &Hot) -> Option<Engaged> {
        let armed = h.defence.map(|d| d[DefenceHand::Armed as usize]);
        let (next, wounds) = wound_tables(o)?;
        let side = |x: usize| {
            (
                m.f[x].adaptive_threshold,
                m.f[1 - x].policy == Policy::Defensive,
            )
        };
        let mut e = Engaged {
            attack: h.attack,
            defence: armed.map(|d| d.unwrap_or(0)),
            defends: armed.map(|d| d.is_some()),
            damage: h.damage,
            plan: h.plan,
            adaptive: [side(0), side(1)],
            extra: [0u8, 1, 2, 3].map(|a| {
                if a >= o.free_actions_per_round {
                    o.extra_action_modifier
                } else {
                    0
                }
            }),
            max_actions: o.max_actions_per_round,
            dp_bonus: o.defensive_position_bonus,
            lying: o.lying_target_bonus,
            mind: match o.changing_mind {
                ChangingMind::Seed => o.changing_mind_modifier,
                ChangingMind::Free => 0,
            },
            undefended: o.undefended_value,
            first: m.first_by_rules.map(|s| s as u8),
            max_rounds: o.max_rounds,
            next,
            wounds,
            stance: [[Stance::default(); WOUND_STATES]; 2],
            start: [Side::default(); 2],
            single: false,
        };
        for x in 0..2 {
            for ws in 0..WOUND_STATES {
                e.stance[x][ws] = Stance::new(&e, x, &e.wounds[ws]);
            }
        }
        e.start = [Side::start(&e, 0), Side::start(&e, 1)];
        e.single = e.max_actions >= 2
            && e.extra[0] == 0
            && e.extra[1] == 0
            && e.plan.iter().all(|p| p.is_none_or(|(planned, _)| planned <= 1));
        Some(e)
    }

    /// Whether [`play`] takes its single-attack form ([`Engaged::single`]).
    pub fn single(&self) -> bool {
        self.single
    }
}

/// Most wound states the fast path tabulates: every (Light, Severe, Critical) count within the
/// capacities, and dead (the default capacities 3, 2, 1 give 25).
pub const WOUND_STATES: usize = 64;

/// Set in [`Engaged::next`] when the wound knocks the victim back.
const KNOCKED: u8 = 0x80;

/// What follows from a wound state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Wounds {
    /// The wound penalty on every roll (§4.19.2, with the optional Severe manual penalty).
    pen: i32,
    /// A Critical wound or dead: cannot defend, attacked at the lying-target bonus.
    helpless: bool,
    /// May attack (not helpless, or `critical_can_attack`).
    able: bool,
    /// Whether the holder has lost under the end condition, and how (`duel::lost`).
    lost: Option<Ending>,
}

/// What a side's wound state gives it: the parts of its totals, its caps and its plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stance {
    /// [`Engaged::attack`] + the wound penalty.
    att: i32,
    /// The armed defence base + the wound penalty.
    def: i32,
    /// The wound penalty ([`Wounds::pen`]).
    pen: i32,
    /// Actions the side may use in a round to attack: `max_actions_per_round`, or 0 when it
    /// may not attack ([`Wounds::able`]).
    attacks_cap: u8,
    /// Actions the side may use in a round to defend: `max_actions_per_round`, or 0 when it
    /// never defends or is helpless.
    defences_cap: u8,
    /// Each round's plan while the wounds stay as they are: a fixed policy's plan
    /// ([`Engaged::plan`]), or no attack when it may not attack; `None` for `adaptive`.
    plan: Option<Round>,
}

impl Stance {
    /// Side `x`'s stance in a wound state with consequences `w`.
    fn new(e: &Engaged, x: usize, w: &Wounds) -> Stance {
        let plan = if w.able { e.plan[x] } else { Some((0, false)) };
        Stance {
            att: e.attack[x] + w.pen,
            def: e.defence[x] + w.pen,
            pen: w.pen,
            attacks_cap: if w.able { e.max_actions } else { 0 },
            defences_cap: if e.defends[x] && !w.helpless {
                e.max_actions
            } else {
                0
            },
            plan: plan.map(|p| Round::new(e, p)),
        }
    }
}

/// A plan as a round's starting values (`duel::plan`'s attacks and Defensive Position).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Round {
    /// Attacks planned.
    planned: u8,
    /// Defences the plan declares (`max_actions_per_round` − attacks).
    guard: u8,
    /// The Defensive Position bonus (0 out of it).
    dp: i32,
}

impl Round {
    /// The round's starting values of the plan `(attacks, defensive position)`.
    #[inline]
    fn new(e: &Engaged, (planned, dp): (u8, bool)) -> Round {
        Round {
            planned,
            guard: e.max_actions.saturating_sub(planned),
            dp: if dp { e.dp_bonus } else { 0 },
        }
    }
}

/// The wound-state tables of [`Engaged`]: state `l + (L + 1) × (s + (S + 1) × c)` holds `l`
/// Light, `s` Severe and `c` Critical wounds (capacities `L`, `S`, `C`); the state after the
/// last of those is dead.
#[allow(clippy::type_complexity)]
fn wound_tables(
    o: &DraftOptions,
) -> Option<([[u8; 5]; WOUND_STATES], [Wounds; WOUND_STATES])> {
    let cap = &o.wound_capacity;
    let dims = [cap.light, cap.severe, cap.critical].map(|c| usize::from(c) + 1);
    let alive = dims[0] * dims[1] * dims[2];
    if alive >= WOUND_STATES {
        return None;
    }
    let dead = alive;
    let index = |f: &FState| -> usize {
        if f.dead {
            dead
        } else {
            usize::from(f.light)
                + dims[0] * (usize::from(f.severe) + dims[1] * usize::from(f.critical))
        }
    };
    let state = |i: usize| -> FState {
        let mut f = FState::default();
        if i == dead {
            // What the counts are once dead does not matter: nothing reads them.
            f.dead = true;
        } else {
            f.light = (i % dims[0]) as u8;
            f.severe = (i / dims[0] % dims[1]) as u8;
            f.critical = (i / dims[0] / dims[1]) as u8;
        }
        f
    };
    let mut next = [[0u8; 5]; WOUND_STATES];
    let mut wounds = [Wounds::default(); WOUND_STATES];
    for i in 0..=dead {
        let f = state(i);
        let helpless = duel::helpless(&f);
        wounds[i] = Wounds {
            pen: duel::wound_penalty(o, &f),
            helpless,
            able: duel::can_attack(o, &f),
            lost: duel::lost(o, &f),
        };
        for level in [Level::None, Level::Light, Level::Severe, Level::Critical, Level::Death] {
            if level == Level::None {
                next[i][0] = i as u8;
                continue;
            }
            let mut g = f;
            duel::apply(o, &mut g, level);
            next[i][level as usize] = index(&g) as u8 | if g.knocked { KNOCKED } else { 0 };
        }
    }
    Some((next, wounds))
}

/// One fighter on the fast path: its wound state and the running parts of its totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Side {
    /// Attack total before the extra-action modifier and the die, this round.
    att: i32,
    /// Defence total before the extra-action and Changing One's Mind modifiers and the die,
    /// this round.
    def: i32,
    /// What `att` is at the start of a round: [`Stance::att`] + the lying-target bonus once
    /// the other is helpless.
    att0: i32,
    /// The Defensive Position bonus this round (0 out of it).
    dp: i32,
    /// The lying-target bonus on this side's attacks (once the other is helpless, else 0).
    lying: i32,
    /// What the wound state gives this side.
    st: Stance,
    /// The wound state (an index into [`Engaged::wounds`]).
    ws: u8,
    /// Knocked back this round.
    knocked: bool,
    /// Actions used this round.
    actions: u8,
    /// Attacks planned this round.
    planned: u8,
    /// Defences the plan still declares (`changing_mind = "seed"`; under `"free"` they do not
    /// matter, [`Engaged::mind`] being 0).
    guard: u8,
}

impl Side {
    /// The state of side `x` before the first round.
    #[inline]
    fn start(e: &Engaged, x: usize) -> Side {
        let mut f = Side::default();
        f.set_wounds(e, x, 0);
        f
    }

    /// Moves side `x` to wound state `ws` and updates what depends on it (not the other's
    /// lying-target bonus).
    #[inline]
    fn set_wounds(&mut self, e: &Engaged, x: usize, ws: u8) {
        self.ws = ws;
        self.st = e.stance[x & 1][usize::from(ws) % WOUND_STATES];
        self.att0 = self.st.att + self.lying;
        self.current();
    }

    /// Starts a round with the plan `r`.
    #[inline]
    fn start_round(&mut self, r: Round) {
        self.knocked = false;
        self.actions = 0;
        self.planned = r.planned;
        self.guard = r.guard;
        self.dp = r.dp;
        self.att = self.att0;
        self.def = self.st.def + r.dp;
    }

    /// Sets this round's totals from the round's start values, Defensive Position and
    /// knock-back.
    #[inline]
    fn current(&mut self) {
        let knocked = i32::from(self.knocked);
        self.att = self.att0 - knocked;
        self.def = self.st.def + self.dp - knocked;
    }
}

/// A side's plan for the round (`duel::plan` on the fast path's state).
#[inline]
fn plan(e: &Engaged, s: &[Side; 2], me: usize) -> Round {
    if let Some(p) = s[me].st.plan {
        return p;
    }
    let (threshold, opponent_defensive) = e.adaptive[me];
    let p = if s[1 - me].st.pen - s[me].st.pen >= threshold && !opponent_defensive {
        (0, true)
    } else {
        (1, false)
    };
    Round::new(e, p)
}

/// One melee attack of `x` with the other's defence (`duel::attack` on the fast path), tallied
/// in `out`; returns the ending when it ends the duel (only a wound can, and only the victim's).
///
/// `SINGLE` ([`Engaged::single`]): each side attacks and defends at most once a round, so the
/// attacker has used at most one action (a defence) and the defender at most one (an attack),
/// both below every cap and free, and the defender's plan still declares a defence. The
/// action counts, the extra-action modifier and Changing One's Mind then change nothing and
/// are left out; the caps matter only when they are 0 (a fighter that may not attack, or
/// defend, since a wound earlier in the round).
#[inline(always)]
fn attack<R: Roller, const SINGLE: bool>(
    m: &Matchup,
    e: &Engaged,
    s: &mut [Side; 2],
    x: usize,
    roller: &mut R,
    out: &mut DuelOutcome,
) -> Option<Ending> {
    let (x, y) = (x & 1, (x & 1) ^ 1);
    let (attack, defence) = if SINGLE {
        // A wound earlier in the round may have taken the attack away.
        if s[x].st.attacks_cap == 0 {
            return None;
        }
        let attack = s[x].att + roller.d10() as i32;
        let fy = &s[y];
        let defence = if fy.st.defences_cap > 0 {
            fy.def + roller.d10() as i32
        } else {
            e.undefended
        };
        (attack, defence)
    } else {
        let ax = s[x].actions;
        if ax >= s[x].st.attacks_cap {
            return None;
        }
        s[x].actions = ax + 1;
        let attack = s[x].att + e.extra[usize::from(ax) & 3] + roller.d10() as i32;
        let fy = &mut s[y];
        let ay = fy.actions;
        let defence = if ay < fy.st.defences_cap {
            fy.actions = ay + 1;
            // Changing One's Mind: free while the plan still declares a defence.
            let mind = if fy.guard > 0 { 0 } else { e.mind };
            fy.guard = fy.guard.saturating_sub(1);
            fy.def + e.extra[usize::from(ay) & 3] + mind + roller.d10() as i32
        } else {
            e.undefended
        };
        (attack, defence)
    };
    out.attacks[x] += 1;
    if attack <= defence {
        return None;
    }
    let damage = attack - defence + e.damage[x];
    let level = m.f[y].wound_of[damage.clamp(0, WOUND_TABLE_LEN as i32 - 1) as usize];
    out.hits[x] += 1;
    out.damage[x] += damage.max(0) as u32;
    out.counters[y * PER_SIDE + (level as usize).min(3)] += 1;
    if level == Level::None {
        return None;
    }
    // The wound (`duel::apply`), and what follows from it.
    let fy = &mut s[y];
    let next = e.next[usize::from(fy.ws) % WOUND_STATES][level as usize];
    fy.knocked |= next & KNOCKED != 0;
    fy.set_wounds(e, y, next & !KNOCKED);
    let w = &e.wounds[usize::from(next & !KNOCKED) % WOUND_STATES];
    if w.helpless {
        // The other is lying helpless: the lying-target bonus from now on.
        let fx = &mut s[x];
        fx.lying = e.lying;
        fx.att0 = fx.st.att + fx.lying;
        fx.current();
    }
    w.lost
}

/// The Monte Carlo duel of a matchup on the engaged fast path: the very duel
/// [`crate::solver::duel`] plays over [`step`](super::duel::step), with the same dice in the
/// same order and the same outcome (see the module's documentation).
pub fn engaged_duel<R: Roller>(m: &Matchup, e: &Engaged, roller: &mut R) -> DuelOutcome {
    // The stream copied into this frame for the duel (written back when it ends).
    let mut local = roller.local();
    if e.single {
        play::<_, true>(m, e, &mut local)
    } else {
        play::<_, false>(m, e, &mut local)
    }
}

/// `n` duels of [`engaged_duel`] one after another, each outcome handed to `record` in turn,
/// with the stream kept in this frame across them.
pub fn engaged_duels<R: Roller>(
    m: &Matchup,
    e: &Engaged,
    roller: &mut R,
    n: u64,
    mut record: impl Record,
) {
    let mut local = roller.local();
    if e.single {
        for _ in 0..n {
            record.record(&play::<_, true>(m, e, &mut local));
        }
    } else {
        for _ in 0..n {
            record.record(&play::<_, false>(m, e, &mut local));
        }
    }
}

/// One duel of [`engaged_duel`].
#[inline(always)]
fn play<R: Roller, const SINGLE: bool>(m: &Matchup, e: &Engaged, roller: &mut R) -> DuelOutcome {
    let mut s = e.start;
    let mut out = DuelOutcome::empty();
    let mut round = 0;
    let (winner, ending) = 'duel: loop {
        round += 1;
        if round > e.max_rounds {
            round = e.max_rounds;
            break (Winner::Draw, Ending::RoundCap);
        }
        let plans = [plan(e, &s, 0), plan(e, &s, 1)];
        s[0].start_round(plans[0]);
        s[1].start_round(plans[1]);
        let first = match e.first {
            Some(side) => side as usize,
            None => (roller.roll(2) - 1) as usize,
        };
        // At most one segment with an attack when `SINGLE`.
        let last = if SINGLE {
            1
        } else {
            s[0].planned.max(s[1].planned)
        };
        for seg in 1..=last {
            // The first striker, then the other.
            for k in 0..2 {
                let x = (first ^ k) & 1;
                if seg <= s[x].planned
                    && let Some(ending) = attack::<R, SINGLE>(m, e, &mut s, x, roller, &mut out)
                {
                    break 'duel (if x == 0 { Winner::A } else { Winner::B }, ending);
                }
            }
        }
    };
    DuelOutcome {
        winner,
        ending,
        rounds: round,
        ..out
    }
}
