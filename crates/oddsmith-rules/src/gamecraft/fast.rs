//! The fast path of Gamecraft's Monte Carlo duel: fighters who stand and trade blows.
//!
//! Where [`Fast::new`] applies (see there: no movement, dodges, reserved or simultaneous
//! actions, ammunition, explosives, strafes or bleeding, and the duel ends at Incapacitated),
//! every round is the same: each fighter declares the same attacks, and nobody fights on
//! helpless (whoever becomes helpless has lost, and the duel ends there). [`duel()`] plays such
//! a duel as one loop over rounds, phases and attacks on the two fighters' [`FState`]s, with
//! the parts of each attack that never change folded once per matchup (the attack base less
//! each attack's multiple-action penalty, the static TN, the damage base), instead of going
//! through [`step`](super::duel)'s round parts, declarations and event order on every step.
//! Every rule it applies is `step`'s own function (`duel::initiative`, [`duel::pen`],
//! `duel::grace_for_attack`, `duel::attack_class`, `duel::Hit::sustained`,
//! `duel::wound`, [`duel::lost`], `duel::dice`), so it reads the same dice in the same
//! order and gives the same outcome as the shared duel over `step`; `tests/fast.rs` plays both
//! on the same stream for over a million duels. The exact solver runs `step`.

use super::Gamecraft;
use super::duel::{self, CRITICALS, Check, Declared, FState, FUMBLES, GRACE, Hit, State};
use super::fighter::Matchup;
use super::options::{CritEffect, EndCondition, FumbleEffect, GamecraftOptions, PenaltyScope};
use super::spec::{ActionPlan, GracePolicy, ReservePolicy};
use crate::outcome::{OutcomeTally, Tally};
use crate::{Duel, DuelOutcome, Ending, Roller, Ruleset, Winner};

/// Most attacks a round the fast path tabulates per fighter (`multi_attack:N`).
pub const MAX_ATTACKS: usize = 8;

/// What the fast path reads, folded once per matchup (built only where it applies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fast {
    /// Attacks each fighter declares every round.
    attacks: [u8; 2],
    /// Each fighter's attack base at the distance less its `i`-th attack's multiple-action
    /// penalty (`duel::alloc_pen`).
    atk: [[i32; MAX_ATTACKS]; 2],
    /// The static TN of each fighter's attacks at the distance.
    tn: [i32; 2],
    /// The damage base of each fighter's attacks at the distance.
    dmg: [i32; 2],
    /// Both fighters before the first round ([`Duel::start`]).
    start: [FState; 2],
    /// Their penalties then ([`duel::pen`]).
    pen: [i32; 2],
}

impl Fast {
    /// Folds what the fast path reads from `m` under `rules`; `None` where it does not apply:
    /// it needs `end_condition = "incapacitated"`, no bleeding, and both fighters with the
    /// plan `attack` or `multi_attack:N` (N ≤ [`MAX_ATTACKS`], not simultaneous), no
    /// reserved action, no movement away from the starting distance, a weapon that reaches
    /// there and is neither explosive nor a strafe, ammunition not tracked, and neither
    /// fighter already beaten at the start.
    pub fn new(rules: &Gamecraft, m: &Matchup) -> Option<Fast> {
        let o = rules.options();
        if o.end_condition != EndCondition::Incapacitated || o.bleeding {
            return None;
        }
        let d = usize::from(m.dist0);
        let start = <State as Duel<Gamecraft>>::start(rules, m).f;
        let mut fast = Fast {
            attacks: [0; 2],
            atk: [[0; MAX_ATTACKS]; 2],
            tn: [0; 2],
            dmg: [0; 2],
            start,
            pen: [0, 1].map(|x| duel::pen(o, &m.f[x], &start[x])),
        };
        for (x, st) in start.iter().enumerate() {
            let (f, line) = (&m.f[x], &m.line[x]);
            let n = match f.plan {
                ActionPlan::Attack => 1,
                ActionPlan::MultiAttack(n) => n,
                _ => return None,
            };
            if usize::from(n) > MAX_ATTACKS
                || (f.simultaneous && n > 1)
                || f.reserve != ReservePolicy::None
                || f.goal.is_some_and(|g| g != m.dist0)
                || !line.reach[d]
                || line.explosive
                || line.strafe
                || f.mag > 0
                || duel::lost(o, f, st).is_some()
            {
                return None;
            }
            fast.attacks[x] = n;
            let declared = Declared::attacks(n, false);
            for i in 0..n {
                fast.atk[x][usize::from(i)] =
                    line.atk_at[d] - duel::alloc_pen(o, f.split, declared, Check::Attack(i));
            }
            fast.tn[x] = line.tn_at[d];
            fast.dmg[x] = line.dmg_at[d];
        }
        Some(fast)
    }
}

/// The state of a duel on the fast path between attacks.
struct Play {
    /// Both fighters.
    f: [FState; 2],
    /// Their wound and Fatigue penalties ([`duel::pen`]), updated when they take damage.
    pen: [i32; 2],
    /// The surprise first attack has happened (`surprise_first_attack`).
    surprised: bool,
}

/// The `i`-th attack of `x` this round (`duel::attack` where nobody moves, dodges or is
/// helpless), tallied; the ending when it ends the duel (only the target can lose by it).
#[inline]
#[allow(clippy::too_many_arguments)]
fn attack<R: Roller>(
    m: &Matchup,
    o: &GamecraftOptions,
    e: &Fast,
    p: &mut Play,
    x: usize,
    i: usize,
    r: &mut R,
    tally: &mut OutcomeTally,
) -> Option<Ending> {
    let (x, y) = (x & 1, (x & 1) ^ 1);
    let (fx, fy) = (&m.f[x], &m.f[y]);
    let (sx, sy) = (p.f[x], p.f[y]);
    let all = o.wound_penalty_scope == PenaltyScope::AllRolls;
    let pen_x = p.pen[x];
    let mut tn = e.tn[x];
    if o.wound_penalty_static_defense {
        tn -= p.pen[y];
    }
    // G24: "the first attack only": the duel's first attack uses the surprise, hit or miss.
    let first_attack = o.surprise_first_attack && !p.surprised;
    p.surprised |= o.surprise_first_attack;
    let aware = o.aware && !first_attack;
    let base = e.atk[x][i % MAX_ATTACKS] - pen_x;
    // `grace = "none"` spends nothing (and tallies 0).
    let g = if fx.grace_policy == GracePolicy::None {
        0
    } else {
        let g = duel::grace_for_attack(m, o, fx, &sx, base, tn, tn);
        p.f[x].grace -= g;
        tally.count_side(x, GRACE, u32::from(g));
        g
    };
    let class = duel::dice(&m.die, o.explode_mode, 1, r, |d, _| {
        duel::attack_class(o, false, base + i32::from(g) + d, tn)
    });
    if class < 2 {
        let fumble = class == 0;
        if fumble && o.fumble_effect == FumbleEffect::LoseNextAction {
            p.f[x].skip = true;
        }
        tally.attack(x, false, 0);
        tally.count_side(x, FUMBLES, u32::from(fumble));
        return None;
    }
    let crit = class == 3;
    let blow = Hit {
        dmg_base: e.dmg[x] - if all { pen_x } else { 0 },
        pen_y: if all { p.pen[y] } else { 0 },
        aware,
        strafe_mult: 1,
        crit_extra: crit,
    };
    let mut sus = duel::dice(&m.die, o.explode_mode, 1 + u8::from(aware), r, |dd, rd| {
        blow.sustained(o, fy, dd, rd)
    });
    let level = crit && o.crit_effect == CritEffect::WoundLevel;
    if fx.nonlethal {
        if level {
            sus += o.crit_extra_amount;
        }
        p.f[y].fat = (i32::from(sy.fat) + sus).min(i32::from(fy.fatigue)) as u8;
    } else {
        duel::wound(o, fy, &mut p.f[y], sus, level);
    }
    p.pen[y] = duel::pen(o, fy, &p.f[y]);
    tally.attack(x, true, sus);
    tally.count_side(x, CRITICALS, u32::from(crit));
    duel::lost(o, fy, &p.f[y])
}

/// The Monte Carlo duel of a matchup on the fast path: the very duel [`crate::solver::duel`]
/// plays over `step`, with the same dice in the same order and the same outcome (see the
/// module's documentation).
pub fn duel<R: Roller>(rules: &Gamecraft, m: &Matchup, e: &Fast, r: &mut R) -> DuelOutcome {
    let o = rules.options();
    let mut p = Play {
        f: e.start,
        pen: e.pen,
        surprised: false,
    };
    let mut tally = OutcomeTally::default();
    let mut round = 0;
    let mut first = 0;
    let phases = e.attacks[0].max(e.attacks[1]);
    let (winner, ending) = 'duel: loop {
        if round >= o.max_rounds {
            break (Winner::Draw, Ending::RoundCap);
        }
        round += 1;
        if round == 1 || o.initiative_reroll_each_round {
            first = usize::from(duel::initiative(m, o, &p.f, r)) & 1;
        }
        // Phase k holds each fighter's k-th attack, in initiative order.
        for k in 0..phases {
            for x in [first, first ^ 1] {
                if k >= e.attacks[x] {
                    continue;
                }
                if p.f[x].skip {
                    // A fumble under `fumble_effect = "lose_next_action"`.
                    p.f[x].skip = false;
                } else if let Some(ending) =
                    attack(m, o, e, &mut p, x, usize::from(k), r, &mut tally)
                {
                    break 'duel (if x == 0 { Winner::A } else { Winner::B }, ending);
                }
            }
        }
    };
    DuelOutcome {
        winner,
        ending,
        rounds: round.min(rules.max_rounds()),
        ..tally.0
    }
}
