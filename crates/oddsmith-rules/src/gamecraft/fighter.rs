//! Compiled fighters and matchups: flat structs with everything precomputed.

use std::collections::BTreeMap;

use super::options::{GamecraftOptions, PoolStart};
use super::reference::{self, Derived};
use super::spec::{ActionPlan, DamageType, FighterSpec, GracePolicy, PenaltySplit};
use super::tables::{Attribute, Distance, WeaponKind};
use crate::RulesError;

/// A compiled Gamecraft fighter.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// The eight primaries: STR, CON, PRO, BEA, INT, SPI, PER, PERS.
    pub attrs: [i32; 8],
    /// Derived attributes.
    pub derived: Derived,
    /// Skill levels as written.
    pub skills: BTreeMap<String, i32>,
    /// Weapon kind.
    pub kind: WeaponKind,
    /// Weapon range category (ranged weapons).
    pub range: Distance,
    /// Bullet weapon.
    pub bullet: bool,
    /// Spread weapon.
    pub spread: bool,
    /// Attack base: attribute + effective weapon skill + static modifiers.
    pub atk_base: i32,
    /// Effective weapon skill (the Grace cap on attacks).
    pub atk_skill: i32,
    /// Damage base: Strength or Perception + weapon bonus.
    pub dmg_base: i32,
    /// Resistance base: Constitution + armour.
    pub res_base: i32,
    /// Armour bonus alone (unaware targets).
    pub armor: i32,
    /// Constitution (Incapacitated and bleeding rolls).
    pub con: i32,
    /// Cumulative damage at which Injured … Dead begin.
    pub cum: [u8; 6],
    /// Fatigue score.
    pub fatigue: u8,
    /// Grace at the start of the duel (0 with pools disabled).
    pub grace: u8,
    /// Initiative tie-break key: (Initiative, Prowess, Perception).
    pub init_key: (i32, i32, i32),
    /// Deals non-lethal damage.
    pub nonlethal: bool,
    /// Prowess.
    pub prowess: i32,
    /// Static defense modifier.
    pub defense_modifier: i32,
    /// Action plan.
    pub plan: ActionPlan,
    /// Grace policy.
    pub grace_policy: GracePolicy,
    /// Penalty split.
    pub split: PenaltySplit,
}

impl Fighter {
    /// Total wound points (damage at which the fighter dies).
    pub fn total(&self) -> u8 {
        self.cum[5]
    }
    /// Status 0 (Healthy) … 6 (Dead) after `damage` points.
    #[inline]
    pub fn status(&self, damage: u8) -> usize {
        self.cum.iter().filter(|&&c| damage >= c).count()
    }
}

fn attr(a: &[i32; 8], which: Attribute) -> i32 {
    a[match which {
        Attribute::Strength => 0,
        Attribute::Constitution => 1,
        Attribute::Prowess => 2,
        Attribute::Beauty => 3,
        Attribute::Intelligence => 4,
        Attribute::Spirit => 5,
        Attribute::Perception => 6,
        Attribute::Personality => 7,
    }]
}

/// The most actions a plan ever declares in one round.
pub fn max_actions(p: ActionPlan) -> u8 {
    match p {
        ActionPlan::Attack | ActionPlan::FullDodgeAt(_) => 1,
        ActionPlan::AttackDodge | ActionPlan::DodgeAttack => 2,
        ActionPlan::MultiAttack(n) => n,
    }
}

/// The primaries of a spec in seed order.
pub fn attributes(s: &FighterSpec) -> [i32; 8] {
    [
        s.strength,
        s.constitution,
        s.prowess,
        s.beauty,
        s.intelligence,
        s.spirit,
        s.perception,
        s.personality,
    ]
}

/// Compiles a fighter spec under the options.
pub fn compile(o: &GamecraftOptions, s: &FighterSpec) -> Result<Fighter, RulesError> {
    let a = attributes(s);
    let d = reference::derived(a);
    for (name, &lvl) in &s.skills {
        if !(0..=30).contains(&lvl) {
            return Err(RulesError::field(
                format!("skills.{name}"),
                format!("{lvl} is out of range: expected a level from 0 to 30"),
            ));
        }
        let (_, spec) = reference::split_skill(name);
        if spec.is_none() && o.general_skill_cap > 0 && lvl > o.general_skill_cap {
            return Err(RulesError::field(
                format!("skills.{name}"),
                format!(
                    "a general skill stops at {} (Skilled); buy a specialization such as \"{name} (…)\" instead («Skill Basics»)",
                    o.general_skill_cap
                ),
            ));
        }
    }
    let w = &s.weapon.stats;
    if w.kind == WeaponKind::Explosive {
        return Err(RulesError::field(
            "weapon",
            format!(
                "{:?} is an explosive; explosions (area damage, avoidance TNs) are not modelled in duels",
                w.name
            ),
        ));
    }
    let range = match (w.kind, w.range) {
        (WeaponKind::Melee, _) => Distance::PointBlank,
        (_, Some(r)) if r != Distance::PointBlank => r,
        (_, Some(_)) => {
            return Err(RulesError::field(
                "weapon.range",
                "no weapon has a Range of Point Blank («Range»); use short, medium, long or extreme",
            ));
        }
        (_, None) => {
            return Err(RulesError::field(
                "weapon.range",
                "a ranged weapon needs a range (short, medium, long or extreme); the seed gives none (G19)",
            ));
        }
    };
    if o.max_range_hard && w.kind != WeaponKind::Melee && o.distance > range {
        return Err(RulesError::field(
            "weapon",
            format!(
                "{:?} cannot attack beyond its Range ({range:?}) with max_range_hard = true («Range»)",
                w.name
            ),
        ));
    }
    if w.kind == WeaponKind::Melee && o.distance != Distance::PointBlank {
        return Err(RulesError::field(
            "weapon",
            format!(
                "{:?} is a melee weapon, usable only at point_blank distance (digest §4.5)",
                w.name
            ),
        ));
    }
    let unarmed = w.name == "unarmed" || w.skill.to_ascii_lowercase().contains("unarmed");
    let atk_skill = reference::skill_level(&s.skills, &w.skill);
    let nonlethal = match s.damage_type {
        DamageType::Nonlethal if w.kind == WeaponKind::Firearm => {
            return Err(RulesError::field(
                "damage_type",
                "firearms always deal lethal damage («Non-Lethal Combat»)",
            ));
        }
        DamageType::Nonlethal => true,
        DamageType::Lethal => unarmed && atk_skill <= o.unarmed_nonlethal_max_skill,
    };
    let nonlethal_pen = if nonlethal && !unarmed {
        o.nonlethal_weapon_penalty
    } else {
        0
    };
    let offhand = if s.offhand { o.offhand_penalty } else { 0 };
    let atk_base =
        attr(&a, w.attack_attribute) + atk_skill + s.attack_modifier - offhand - nonlethal_pen;
    let dmg_attr = match w.kind {
        WeaponKind::Melee | WeaponKind::Thrown => a[0],
        _ => a[6],
    };
    let dmg_base = dmg_attr + w.damage + if unarmed { o.unarmed_damage_bonus } else { 0 };
    let levels = match &s.wound_levels {
        Some(lv) => reference::check_wound_levels(d.health, lv)
            .map_err(|m| RulesError::field("wound_levels", m))?,
        None => reference::wound_levels(d.health, o.bonus_allocation),
    };
    let cum = reference::thresholds(levels).map(|c| c as u8);
    if o.max_actions_per_round > 0 && max_actions(s.policy) > o.max_actions_per_round {
        return Err(RulesError::field(
            "policy",
            format!(
                "{} declares {} actions but max_actions_per_round = {}",
                s.policy,
                max_actions(s.policy),
                o.max_actions_per_round
            ),
        ));
    }
    Ok(Fighter {
        attrs: a,
        derived: d,
        skills: s.skills.clone(),
        kind: w.kind,
        range,
        bullet: w.bullet,
        spread: w.spread,
        atk_base,
        atk_skill,
        dmg_base,
        res_base: a[1] + s.armor.resistance,
        armor: s.armor.resistance,
        con: a[1],
        cum,
        fatigue: d.fatigue as u8,
        grace: match (o.pools_enabled, o.pool_start) {
            (false, _) | (_, PoolStart::Empty) => 0,
            (true, PoolStart::Full) => d.grace as u8,
            (true, PoolStart::Half) => (d.grace / 2) as u8,
        },
        init_key: (d.initiative, a[2], a[6]),
        nonlethal,
        prowess: a[2],
        defense_modifier: s.defense_modifier,
        plan: s.policy,
        grace_policy: s.grace,
        split: s.penalty_split,
    })
}

/// One side's attack against the other, precomputed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackLine {
    /// Attack base with bullet and spread modifiers.
    pub atk: i32,
    /// The static TN: defender's Prowess + Combat Defense (specialized) + range modifier.
    pub tn: i32,
    /// Damage base with spread modifier.
    pub dmg: i32,
    /// The defender's effective Combat Defense against this attack (its Grace cap on dodges).
    pub cd: i32,
}

/// Two compiled fighters facing each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    /// A and B.
    pub f: [Fighter; 2],
    /// `line[x]`: x's attack on the other.
    pub line: [AttackLine; 2],
}

/// The attack line of `x` against `y`.
pub fn attack_line(o: &GamecraftOptions, x: &Fighter, y: &Fighter) -> AttackLine {
    let cd = reference::skill_level(&y.skills, x.kind.defense_skill());
    let range_mod = if x.kind == WeaponKind::Melee {
        0
    } else {
        let m = o.distance.tn_modifier();
        if o.distance > x.range { 2 * m } else { m }
    };
    let (sa, sd) = if x.spread {
        o.distance.spread_modifiers()
    } else {
        (0, 0)
    };
    AttackLine {
        atk: x.atk_base + if x.bullet { o.bullet_bonus } else { 0 } + sa,
        tn: y.prowess + cd + y.defense_modifier + range_mod,
        dmg: x.dmg_base + sd,
        cd,
    }
}

/// Builds a matchup.
pub fn matchup(o: &GamecraftOptions, a: &Fighter, b: &Fighter) -> Matchup {
    Matchup {
        line: [attack_line(o, a, b), attack_line(o, b, a)],
        f: [a.clone(), b.clone()],
    }
}
