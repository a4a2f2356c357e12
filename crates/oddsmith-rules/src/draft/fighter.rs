//! Compiled fighters and matchups: flat structs with everything precomputed.

use super::options::{
    DamageTerm, DraftOptions, FirstStrikeTie, Rounding, ShieldBonusScope, StrikingOrder,
};
use super::spec::{ArmourSpec, DefenceChoice, FighterSpec, Policy, ShieldKind};
use super::tables::Aspect;
use crate::{RulesError, Side};

/// Size of the damage → wound-level table; larger damage uses the last entry.
pub const WOUND_TABLE_LEN: usize = 64;

/// Wound level of one blow (§4.19.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Level {
    /// Contusion or scratch: no wound.
    None = 0,
    /// Light wound.
    Light = 1,
    /// Severe wound.
    Severe = 2,
    /// Critical wound.
    Critical = 3,
    /// Instant death (damage > 2 × CON).
    Death = 4,
}

/// A compiled Draft fighter.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// Weapon skill (attack and weapon parry).
    pub skill: i32,
    /// Weapon impact class.
    pub impact: i32,
    /// The damage term added on a hit (weapon damage or impact, per `damage_term`).
    pub weapon_damage: i32,
    /// May parry with the weapon at all (not flexible, not unarmed).
    pub weapon_can_parry: bool,
    /// Weapon length, if given (striking order only).
    pub length: Option<u8>,
    /// Weapon needs both hands.
    pub two_handed: bool,
    /// Shield parry base (shield skill + shield bonus) and the highest impact it parries.
    pub shield: Option<(i32, i32)>,
    /// Bonus on weapon parries and dodges from a shield under `all_defenses`.
    pub shield_bonus_elsewhere: i32,
    /// Dodge skill.
    pub dodge: i32,
    /// Strength bonus on damage.
    pub str_bonus: i32,
    /// Armour protection.
    pub protection: i32,
    /// Armour Movement modifier (≤ 0), on attack, parry and dodge.
    pub movement: i32,
    /// Sum of static modifiers on attacks (situation, `attack_modifier`, unfamiliar weapon).
    pub attack_mod: i32,
    /// Sum of static modifiers on parries and dodges (situation, `defence_modifier`).
    pub defence_mod: i32,
    /// Extra modifier on weapon parries only (unfamiliar weapon).
    pub weapon_parry_mod: i32,
    /// Action policy.
    pub policy: Policy,
    /// Threshold for `adaptive`.
    pub adaptive_threshold: i32,
    /// Defence choice.
    pub defence: DefenceChoice,
    /// Stamina = (STR + CON)/2 rounded half up (§2.9), for exhaustion.
    pub stamina: i32,
    /// Wound level by damage points (index clamped to the table).
    pub wound_of: [Level; WOUND_TABLE_LEN],
}

/// Compiles a fighter spec under the options.
pub fn compile(o: &DraftOptions, spec: &FighterSpec) -> Result<Fighter, RulesError> {
    let w = &spec.weapon.stats;
    if w.ranged {
        return Err(RulesError::field(
            "weapon",
            format!(
                "{:?} is a ranged weapon; oddsmith models Draft melee duels only",
                w.name
            ),
        ));
    }
    if !(0..=10).contains(&w.impact) {
        return Err(RulesError::field(
            "weapon.impact",
            "expected an impact class from 0 to 10",
        ));
    }
    if !(1..=2).contains(&w.hands) {
        return Err(RulesError::field("weapon.hands", "expected 1 or 2"));
    }
    let aspect = if w.aspect == Aspect::Blunt {
        0
    } else {
        o.aspect_bonus
    };
    let weapon_damage = match o.damage_term {
        DamageTerm::WeaponDamage => o.weapon_damage_multiplier * w.impact + aspect + w.bonus,
        DamageTerm::Impact => w.impact + w.bonus,
    };
    let (shield_bonus, shield_max) = match spec.shield {
        ShieldKind::None => (0, 0),
        ShieldKind::Small => (o.shield_bonus.small, o.shield_max_parry_impact.small),
        ShieldKind::Large => (o.shield_bonus.large, o.shield_max_parry_impact.large),
    };
    if spec.shield != ShieldKind::None && w.hands != 1 {
        return Err(RulesError::field(
            "shield",
            format!(
                "a shield needs a one-handed weapon (§4.18.1), but {:?} takes two hands",
                w.name
            ),
        ));
    }
    if spec.shield == ShieldKind::None && spec.defence == DefenceChoice::Shield {
        return Err(RulesError::field("defence", "\"shield\" needs a shield"));
    }
    let shield =
        (spec.shield != ShieldKind::None).then_some((spec.shield_skill + shield_bonus, shield_max));
    let shield_bonus_elsewhere = match o.shield_bonus_applies_to {
        ShieldBonusScope::AllDefenses => shield_bonus,
        ShieldBonusScope::ShieldParry => 0,
    };
    let (protection, movement) = match spec.armour {
        ArmourSpec::Named(k) => k.stats(o.armor_table).ok_or_else(|| {
            RulesError::field(
                "armour",
                format!(
                    "{k:?} has no row under armor_table = {:?} (G7)",
                    o.armor_table
                ),
            )
        })?,
        ArmourSpec::Custom {
            protection,
            movement,
        } => (protection, movement),
    };
    let (mut attack_mod, mut defence_mod) = (spec.attack_modifier, spec.defence_modifier);
    for s in &spec.situation {
        let (a, d) = s.modifiers();
        attack_mod += a;
        defence_mod += d;
    }
    let unfamiliar = if spec.unfamiliar_weapon {
        o.unfamiliar_weapon_modifier
    } else {
        0
    };
    Ok(Fighter {
        skill: spec.skill,
        impact: w.impact,
        weapon_damage,
        weapon_can_parry: w.can_parry && !w.flexible,
        length: w.length,
        two_handed: w.hands == 2,
        shield,
        shield_bonus_elsewhere,
        dodge: spec.dodge,
        str_bonus: o.strength_bonus.of(spec.str),
        protection,
        movement,
        attack_mod: attack_mod + unfamiliar,
        defence_mod,
        weapon_parry_mod: unfamiliar,
        policy: spec.policy,
        adaptive_threshold: spec.adaptive_threshold,
        defence: spec.defence,
        stamina: (spec.str + spec.con + 1) / 2,
        wound_of: wound_table(o, spec.con),
    })
}

/// The wound level of `damage` points against `con` (§4.19.2, G6).
pub fn wound_level(o: &DraftOptions, damage: i32, con: i32) -> Level {
    if damage <= o.scratch_max_damage {
        return Level::None;
    }
    let light = match o.light_wound_rounding {
        Rounding::Exact => 2 * damage <= con,
        Rounding::HalfUp => damage <= (con + 1) / 2,
        Rounding::Floor => damage <= con / 2,
    };
    if light {
        Level::Light
    } else if damage <= con {
        Level::Severe
    } else if damage <= 2 * con {
        Level::Critical
    } else {
        Level::Death
    }
}

fn wound_table(o: &DraftOptions, con: i32) -> [Level; WOUND_TABLE_LEN] {
    let mut t = [Level::None; WOUND_TABLE_LEN];
    for (d, slot) in t.iter_mut().enumerate() {
        *slot = wound_level(o, d as i32, con);
    }
    t
}

/// How a fighter defends against one particular opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defence {
    /// Parry with the shield.
    Shield,
    /// Parry with the weapon.
    Weapon,
    /// Dodge.
    Dodge,
    /// No active defence.
    None,
}

/// Two compiled fighters facing each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    /// A and B.
    pub f: [Fighter; 2],
    /// The defence each side uses against the other, and its base value (before penalties).
    pub defence: [(Defence, i32); 2],
    /// Who strikes first within a segment when the rules decide it (G4); `None` = tie.
    pub first_by_rules: Option<Side>,
}

/// Chooses `d`'s defence against `att` (digest §6 `best_legal` and the forced choices).
pub fn choose_defence(o: &DraftOptions, d: &Fighter, att: &Fighter) -> (Defence, i32) {
    let weapon_ok = d.weapon_can_parry && att.impact <= d.impact + o.parry_impact_reach;
    let weapon = weapon_ok.then_some(d.skill + d.weapon_parry_mod + d.shield_bonus_elsewhere);
    let shield = d
        .shield
        .and_then(|(base, max)| (att.impact <= max).then_some(base));
    let dodge = d.dodge + d.shield_bonus_elsewhere;
    // Highest total among the legal options; ties go shield, weapon, dodge.
    let best_legal = || {
        let mut best = (Defence::Dodge, dodge);
        if let Some(v) = weapon.filter(|&v| v >= best.1) {
            best = (Defence::Weapon, v);
        }
        if let Some(v) = shield.filter(|&v| v >= best.1) {
            best = (Defence::Shield, v);
        }
        best
    };
    match d.defence {
        DefenceChoice::None => (Defence::None, 0),
        DefenceChoice::Dodge => (Defence::Dodge, dodge),
        DefenceChoice::Weapon => weapon.map_or_else(best_legal, |v| (Defence::Weapon, v)),
        DefenceChoice::Shield => shield.map_or_else(best_legal, |v| (Defence::Shield, v)),
        DefenceChoice::BestLegal => best_legal(),
    }
}

/// Who strikes first when both act in the same segment (§4.17.2, G4, `striking_order`), if the
/// rules decide it.
pub fn first_striker(o: &DraftOptions, a: &Fighter, b: &Fighter) -> Option<Side> {
    if (a.impact - b.impact).abs() >= o.wide_weight_gap {
        return Some(if a.impact < b.impact {
            Side::A
        } else {
            Side::B
        });
    }
    if o.striking_order == StrikingOrder::Seed
        && let (Some(la), Some(lb)) = (a.length, b.length)
        && la != lb
    {
        return Some(if la > lb { Side::A } else { Side::B });
    }
    if a.skill != b.skill {
        return Some(if a.skill > b.skill { Side::A } else { Side::B });
    }
    match o.first_strike_tie {
        FirstStrikeTie::A => Some(Side::A),
        FirstStrikeTie::B => Some(Side::B),
        FirstStrikeTie::Random | FirstStrikeTie::Simultaneous => None,
    }
}

/// Builds a matchup.
pub fn matchup(o: &DraftOptions, a: &Fighter, b: &Fighter) -> Matchup {
    Matchup {
        defence: [choose_defence(o, a, b), choose_defence(o, b, a)],
        first_by_rules: first_striker(o, a, b),
        f: [a.clone(), b.clone()],
    }
}
