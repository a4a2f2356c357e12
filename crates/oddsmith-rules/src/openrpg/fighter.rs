//! Compiling Open RPG fighters and pairing them: every per-pair table (the exact distribution of
//! a turn's outcome for each side and situation, and who acts first) is computed here, once.

use super::attack::{
    AttackerStats, Context, CritEffect, DefenderStats, TurnOutcome, crit_chance, damage_dist,
    mean_damage, range_modifier, skill_dist, strength_dist, turn_table,
};
use super::OpenRpg;
use super::options::{ArmourAgility, JointCut, OpenRpgOptions, Resolved, Scope, SlowWeapons};
use super::spec::{DodgeSize, FighterSpec, Location, Readiness, Target, Wait, WeaponClass};
use crate::RulesError;

/// A compiled fighter.
#[derive(Clone, Debug)]
pub struct Fighter {
    /// The spec it came from.
    pub spec: FighterSpec,
    /// As attacker.
    pub attack: AttackerStats,
    /// As defender.
    pub defend: DefenderStats,
    /// Initiative roll distribution (agility roll + length under the primary text; agility
    /// roll alone under priority levels).
    pub init: Vec<(i64, f64)>,
    /// Legacy priority level when ready (3, 4 or 5).
    pub level: u8,
}

/// A table of outcomes with their probabilities and cumulative sums (for sampling).
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Outcomes, in order.
    pub outcomes: Vec<TurnOutcome>,
    /// Their probabilities.
    pub probs: Vec<f64>,
    /// Cumulative probabilities (last = 1 up to rounding), as the sampler searches them.
    pub cum: Cumulative,
    /// `tail[i]` = the sum of `probs[i..]` (the exact solver's deaths at once).
    pub tail: Vec<f64>,
    /// A limb was targeted: the hit cannot take health below 1.
    pub limb: bool,
    /// The location aimed at, if any.
    pub location: Option<Location>,
}

impl Table {
    fn new(t: Vec<(TurnOutcome, f64)>, location: Option<Location>, limb_nonlethal: bool) -> Self {
        let mut acc = 0.0;
        let cum: Vec<f64> = t
            .iter()
            .map(|(_, p)| {
                acc += p;
                acc
            })
            .collect();
        let mut tail = vec![0.0; t.len() + 1];
        for i in (0..t.len()).rev() {
            tail[i] = tail[i + 1] + t[i].1;
        }
        Table {
            tail,
            outcomes: t.iter().map(|x| x.0).collect(),
            probs: t.iter().map(|x| x.1).collect(),
            cum: Cumulative::new(&cum),
            limb: limb_nonlethal && location == Some(Location::Limb),
            location,
        }
    }
}

/// Bits of a draw's first word that pick a [`Cumulative`]'s starting point.
const GUIDE_BITS: u32 = 8;

/// Cumulative probabilities `cum` as a uniform draw `u = k / 2^48` (48 random bits) is looked
/// up in them: the index `cum.partition_point(|&c| c <= u)`, found by integers and a guide
/// table instead of a binary search over floats.
///
/// `c <= k / 2^48` holds exactly when `ceil(c × 2^48) <= k` (scaling by a power of two is
/// exact), so each sum is kept as that integer threshold; `guide[b]` counts the thresholds at
/// most `b × 2^40`, the least `k` whose top [`GUIDE_BITS`] bits are `b`, so the search starts
/// there and steps over the few thresholds left in `k`'s slice. Exact for any non-decreasing
/// `cum` (sums of probabilities are).
#[derive(Clone, Debug)]
pub struct Cumulative {
    /// `ceil(cum[i] × 2^48)`, then `u64::MAX` (above every draw: the search stops there).
    at: Vec<u64>,
    /// `guide[b]`: how many thresholds are at most `b << (48 - GUIDE_BITS)`.
    guide: [u32; 1 << GUIDE_BITS],
}

impl Default for Cumulative {
    fn default() -> Self {
        Cumulative::new(&[])
    }
}

impl Cumulative {
    /// The thresholds of `cum` (non-decreasing).
    pub fn new(cum: &[f64]) -> Self {
        debug_assert!(cum.windows(2).all(|w| w[0] <= w[1]), "cumulative sums rise");
        let scale = (1u64 << 48) as f64;
        let mut at: Vec<u64> = cum.iter().map(|&c| (c * scale).ceil() as u64).collect();
        at.push(u64::MAX);
        let guide = std::array::from_fn(|b| {
            let lo = (b as u64) << (48 - GUIDE_BITS);
            at.partition_point(|&t| t <= lo) as u32
        });
        Cumulative { at, guide }
    }

    /// The number of sums `c` with `c <= k / 2^48` (`k < 2^48`): `cum.partition_point(|&c|
    /// c <= k / 2^48)`.
    #[inline]
    pub fn find(&self, k: u64) -> usize {
        let mut i = self.guide[(k >> (48 - GUIDE_BITS)) as usize & ((1 << GUIDE_BITS) - 1)] as usize;
        while self.at[i] <= k {
            i += 1;
        }
        i
    }
}

/// Two fighters facing each other.
#[derive(Clone, Debug)]
pub struct Matchup {
    /// Turn tables: `[attacker side][defender defenseless][defender caught off guard]`.
    pub turns: [[[Table; 2]; 2]; 2],
    /// A missile shooter's turn tables at range: `ranged[x][k - 1]` for a range penalty of
    /// `k` ≥ 1 (§Accuracy), as `turns[x]` (empty for a melee fighter or an engaged start).
    pub ranged: [Vec<[[Table; 2]; 2]>; 2],
    /// Each side wields a missile weapon (shoots while apart; the other closes).
    pub missile: [bool; 2],
    /// Yards apart at the start (G14).
    pub start_distance: u16,
    /// Yards a melee fighter closes per turn.
    pub move_yards: u16,
    /// P(A acts first) once ambushes are over, and its complement.
    pub first: [f64; 2],
    /// Cumulative of `first`.
    pub first_cum: Cumulative,
    /// Readiness at the start.
    pub state: [Readiness; 2],
    /// Wait policies.
    pub wait: [Wait; 2],
    /// Starting health.
    pub health: [i32; 2],
    /// Legacy ambush rules.
    pub legacy: bool,
    /// A full dodge's lost turn comes on top of owed recovery rounds (G15).
    pub dodge_stacks: bool,
    /// A flat-footed defender is defenceless against the first attack only (G13).
    pub flat_footed_initial_only: bool,
    /// Each turn of a round, as [`Slot::of`] finds it from the rules
    /// ([`order`](super::duel::order) and the ambush rules): `slots[r][f][t]` for round 1,
    /// round 2 and every later round (`r` = 0, 1, 2), A or B first (`f`) and the first or
    /// second turn (`t`).
    pub slots: [[[Slot; 2]; 2]; 3],
}

/// Who takes a turn of a round and what the ambush rules make of it: the parts of a turn that
/// depend only on the matchup, the round (1, 2 or later), who won the initiative and the turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    /// The side whose turn it is.
    pub x: u8,
    /// It may act this round (an ambush can take round 1 or 2 away, G13).
    pub acts: bool,
    /// The defender is flat footed: defenseless until it has had a turn.
    pub flat_footed: bool,
    /// The defender is caught off guard in round 1.
    pub off_guard: bool,
}

impl crate::Compile<OpenRpg> for Fighter {
    /// Validates and compiles a fighter.
    fn compile(rules: &OpenRpg, _name: &str, s: &FighterSpec) -> Result<Fighter, RulesError> {
        let o = rules.options();
        let w = &s.weapon.stats;
        let a = &s.armor.stats;
        let effect = CritEffect::parse(&w.crit_effect)
            .map_err(|e| RulesError::field("weapon.crit_effect", e.to_string()))?;
        if effect == CritEffect::Times(0) {
            return Err(RulesError::field(
                "weapon.crit_effect",
                "a multiplier must be at least 1",
            ));
        }
        let damage = damage_dist(&w.damage, s.strength, o.strength_token)
            .map_err(|e| RulesError::field("weapon.damage", e.to_string()))?;
        if damage.max() > 100_000 {
            return Err(RulesError::field("weapon.damage", "at most 100000 damage"));
        }
        let r = o.resolved();
        let rolled = if s.proficient { s.skill } else { s.combat_base };
        let missile = w.class == WeaponClass::Missile;
        // Armour weighs the wearer down: its agility penalty lowers the dodge roll (legacy
        // Dodge-), and the initiative roll under `armour_agility = "dodge_and_initiative"`.
        let agility = skill_dist(o.skill_roll, (s.agility - a.agility_penalty).max(0));
        let init_agility = match o.armour_agility {
            ArmourAgility::Dodge => skill_dist(o.skill_roll, s.agility),
            ArmourAgility::DodgeAndInitiative => agility.clone(),
        };
        let init = if r.priority_levels {
            init_agility.to_f64_pairs()
        } else {
            init_agility.shift(i64::from(w.length)).to_f64_pairs()
        };
        let dodge = (s.dodge && s.dodge_size != DodgeSize::None)
            .then(|| agility.to_f64_pairs());
        Ok(Fighter {
            spec: s.clone(),
            attack: AttackerStats {
                roll: skill_dist(o.skill_roll, rolled).to_f64_pairs(),
                rate: w.rate,
                cadence: w.cadence,
                crit: crit_chance(
                    match legacy_crit_range(w) {
                        Some(l) if r.crit_at_least => l,
                        _ => w.crit_range,
                    },
                    r.crit_at_least,
                ),
                effect,
                damage: damage.to_f64_pairs(),
                missile,
                mounted: s.mounted,
            },
            defend: DefenderStats {
                required: i64::from(o.hit_multiplier) * i64::from(s.combat_base),
                armor: i64::from(a.defense),
                dr: i64::from(a.dr),
                uncovered: a.uncovered.clone(),
                strength: strength_dist(o.strength_token, s.strength).to_f64_pairs(),
                shield: i64::from(s.shield),
                dodge,
                dodge_size: s.dodge_size,
                defence: s.defence,
                mounted: s.mounted,
            },
            init,
            level: match w.class {
                _ if w.carries_initiative => 3,
                WeaponClass::Short | WeaponClass::Brawling => 5,
                _ => 4,
            },
        })
    }
}

/// The weapon's range under the legacy crit test, if it has one of its own: a table based on
/// a built-in that changes `crit_range` without giving `legacy_crit_range` wrote its range for
/// the draft it plays, so the built-in's legacy range it inherited is not used.
fn legacy_crit_range(w: &super::spec::Weapon) -> Option<i32> {
    let own = super::spec::builtin_weapons()
        .into_iter()
        .find(|b| b.name == w.name)
        .is_none_or(|b| b.crit_range == w.crit_range || b.legacy_crit_range != w.legacy_crit_range);
    w.legacy_crit_range.filter(|_| own)
}

/// The locations a policy considers.
fn choices(t: Target) -> Vec<Option<Location>> {
    let one = |l| vec![Some(l)];
    match t {
        Target::Opportune => vec![None],
        Target::Chest => one(Location::Chest),
        Target::Limb => one(Location::Limb),
        Target::Joints => one(Location::Joints),
        Target::Head => one(Location::Head),
        Target::Neck => one(Location::Neck),
        Target::Eyes => one(Location::Eyes),
        Target::BestEv => {
            let mut v = vec![None];
            v.extend(
                Location::ALL
                    .iter()
                    .filter(|&&l| l != Location::Limb)
                    .map(|&l| Some(l)),
            );
            v
        }
    }
}

/// The turn table of `a` attacking `d` in one situation, under `a`'s targeting policy
/// (`best_ev`: the highest mean damage, the first on ties).
pub fn table_for(
    o: &OpenRpgOptions,
    r: Resolved,
    a: &Fighter,
    d: &Fighter,
    defenseless: bool,
    off_guard: bool,
    range_penalty: i64,
) -> Table {
    let cx = Context {
        multiplier: r.multiplier,
        rounding: o.dr_rounding,
        joint_pen: i64::from(o.joint_penetration),
        defenseless,
        off_guard,
        range_penalty: if defenseless { 0 } else { range_penalty },
        shield_per_attack: o.shield_check == Scope::Attack,
        dodge_per_attack: o.dodge_roll == Scope::Attack,
        joint_pen_defense: o.joint_penetration_cuts != JointCut::Dr,
        joint_pen_dr: o.joint_penetration_cuts != JointCut::Defense,
        slow_whole: o.slow_weapons == SlowWeapons::WholeFraction,
    };
    let mut best: Option<(f64, Table)> = None;
    for loc in choices(a.spec.target) {
        let t = turn_table(&a.attack, &d.defend, loc, cx);
        let m = mean_damage(&t);
        if best.as_ref().is_none_or(|(bm, _)| m > *bm) {
            best = Some((m, Table::new(t, loc, o.limb_nonlethal)));
        }
    }
    best.expect("at least one choice").1
}

/// P(x's value > y's value) and P(equal).
fn compare(x: &[(i64, f64)], y: &[(i64, f64)]) -> (f64, f64) {
    let (mut gt, mut eq) = (0.0, 0.0);
    for &(a, pa) in x {
        for &(b, pb) in y {
            if a > b {
                gt += pa * pb;
            } else if a == b {
                eq += pa * pb;
            }
        }
    }
    (gt, eq)
}

impl crate::Pair<OpenRpg> for Matchup {
    /// Pairs two fighters.
    fn pair(rules: &OpenRpg, a: &Fighter, b: &Fighter) -> Result<Matchup, RulesError> {
        let o = rules.options();
        let r = o.resolved();
        let f = [a, b];
        let turns = std::array::from_fn(|x| {
            let (att, def) = (f[x], f[1 - x]);
            std::array::from_fn(|dl| {
                std::array::from_fn(|og| table_for(o, r, att, def, dl == 1, og == 1, 0))
            })
        });
        let missile = [a.attack.missile, b.attack.missile];
        let start_distance = o.start_distance as u16;
        let ranged = std::array::from_fn(|x| {
            let (att, def) = (f[x], f[1 - x]);
            let top = if missile[x] {
                range_modifier(i64::from(start_distance))
            } else {
                0
            };
            (1..=top)
                .map(|k| {
                    std::array::from_fn(|dl| {
                        std::array::from_fn(|og| table_for(o, r, att, def, dl == 1, og == 1, k))
                    })
                })
                .collect()
        });
        // §2.3: the initiative roll adds "the distance they need to be from their enemy to
        // take their first action (in inches)": a shooter apart needs the whole distance;
        // legacy level 1: "a missile weapon ready … enemies at least twenty feet away" (the
        // shooter is read as ready).
        let apart = |x: usize| missile[x] && start_distance > 0;
        let init = |x: usize| -> Vec<(i64, f64)> {
            if apart(x) && !r.priority_levels {
                let extra = 36 * i64::from(start_distance) - i64::from(f[x].spec.weapon.stats.length);
                f[x].init.iter().map(|&(v, p)| (v + extra, p)).collect()
            } else {
                f[x].init.clone()
            }
        };
        let level = |x: usize| {
            if apart(x) && 3 * i64::from(start_distance) >= 20 {
                1
            } else {
                f[x].level
            }
        };
        // Who acts first (ties rerolled): by initiative roll, or by priority level then agility.
        let p_a = if r.priority_levels && level(0) != level(1) {
            if level(0) < level(1) { 1.0 } else { 0.0 }
        } else {
            let (gt, eq) = compare(&init(0), &init(1));
            if eq >= 1.0 { 0.5 } else { gt / (1.0 - eq) }
        };
        let mut m = Matchup {
            turns,
            ranged,
            missile,
            start_distance,
            move_yards: o.move_yards as u16,
            first: [p_a, 1.0 - p_a],
            first_cum: Cumulative::new(&[p_a, 1.0]),
            state: [a.spec.state, b.spec.state],
            wait: [a.spec.wait, b.spec.wait],
            health: [a.spec.health, b.spec.health],
            legacy: r.legacy,
            dodge_stacks: o.full_dodge_stacks_with_recovery,
            flat_footed_initial_only: r.flat_footed_initial_only,
            slots: Default::default(),
        };
        m.slots = std::array::from_fn(|r| {
            std::array::from_fn(|f| std::array::from_fn(|t| Slot::of(&m, r as u32 + 1, f as u8 + 1, t)))
        });
        Ok(m)
    }
}

impl Slot {
    /// Turn `turn` (0 or 1) of round `round` when side `first` − 1 won the initiative, by the
    /// rules' own functions.
    pub fn of(m: &Matchup, round: u32, first: u8, turn: usize) -> Slot {
        let s = super::duel::State {
            round,
            phase: turn as u8 + 1,
            first,
            hp: m.health,
            recovery: [0; 2],
            lost: [false; 2],
            acted: [false; 2],
            struck: [false; 2],
            dist: 0,
        };
        let x = super::duel::order(m, &s)[turn];
        let y = 1 - x;
        Slot {
            x: x as u8,
            acts: super::duel::can_act(m, x, round),
            flat_footed: m.state[y] == Readiness::FlatFooted,
            off_guard: m.state[y] == Readiness::CaughtOffGuard && round == 1,
        }
    }
}
