//! d20 checks: an attack roll against Defense («Rolling Attacks»), the damage of one attack
//! roll, skill checks («Making Skill Checks», optionally shifted by proficiency, G-29) and
//! resistance checks («Resistance Check», optionally with the damage taken, G-28).

use oddsmith_dice::Dist;

use super::D20;
use super::fighter::Attack;
use super::options::{D20Options, HalveRounding, SkillMode};
use super::reference::attack_damage_dist;
use super::spec::DamageKind;
use super::tables::{Dice, Prof, Resist, SKILL_BANDS, resist_result};
use crate::{Band, CheckExact, CheckParams, Roller, RulesError};

/// A parsed d20 check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum D20Check {
    /// d20 + modifier against Defense: 0 natural 1, 1 miss, 2 hit, 3 natural 20.
    Attack {
        /// Total attack modifier.
        modifier: i32,
        /// Target's Defense.
        defense: i32,
    },
    /// Damage of one attack roll (0 on a miss), natural 20 per the options.
    Damage {
        /// Total attack modifier.
        modifier: i32,
        /// Target's Defense.
        defense: i32,
        /// Damage dice with modifiers.
        dice: Dice,
    },
    /// A skill check: the d20 roll read against the seven bands.
    Skill {
        /// Proficiency (shifts the roll under `skill_modifier_mode = "shift"`).
        proficiency: Prof,
    },
    /// A resistance check: 0 normal, 1 −1, 2 ½, 3 one point, 4 unaffected, 5 reflect ½.
    Resist {
        /// Resistance level.
        level: Prof,
    },
    /// Damage taken from one hit of `dice` after a resistance check.
    ResistDamage {
        /// Resistance level.
        level: Prof,
        /// Damage dice.
        dice: Dice,
    },
}

crate::check_params! {
    /// The parameters of `oddsmith check d20`: accepted names and docs.
    pub mod params for D20Check {
        "attack" => (
            "—",
            "attack check: total modifier (BtH + ability + equipment); result 0 natural 1, 1 miss, 2 hit, 3 natural 20",
        ),
        "defense" | "defence" => (
            "10",
            "attack or damage check: the target's Defense",
        ),
        "damage" => (
            "—",
            "with attack/defense: damage of one attack roll (0 on a miss); with resist: damage taken from one hit",
        ),
        "resist" => (
            "—",
            "resistance check at --, -, #, +, ++: result 0 normal … 5 reflect ½ (or damage taken with damage=…)",
        ),
        "proficiency" => (
            "#",
            "skill check (no other parameter): the d20 roll and its seven bands; shifted under skill_modifier_mode = \"shift\"",
        ),
    }
}

fn prof(p: &CheckParams, key: &str) -> Result<Option<Prof>, RulesError> {
    match p.get(key) {
        None => Ok(None),
        Some(v) => Prof::parse(v).map(Some).ok_or_else(|| {
            RulesError::check(key, format!("expected --, -, #, + or ++, got {v:?}"))
        }),
    }
}

impl crate::Check<D20> for D20Check {
    /// Parses check parameters (see [`params`]).
    fn parse(_rules: &D20, p: &CheckParams) -> Result<D20Check, RulesError> {
        p.only(params::NAMES)?;
        for k in ["attack", "defense", "defence"] {
            if !(-100..=100).contains(&p.int_or(k, 0)?) {
                return Err(RulesError::check(k, "expected a number from -100 to 100"));
            }
        }
        let modifier = p.int_or("attack", 0)? as i32;
        let defense = match p.get("defense") {
            Some(_) => p.int_or("defense", 10)?,
            None => p.int_or("defence", 10)?,
        } as i32;
        let dice = match p.get("damage") {
            None => None,
            Some(v) => Some(Dice::parse(v).map_err(|e| RulesError::check("damage", e))?),
        };
        if let Some(level) = prof(p, "resist")? {
            if p.get("attack").is_some() || p.get("defense").is_some() {
                return Err(RulesError::check(
                    "resist",
                    "a resistance check takes resist=… and optionally damage=…, not attack/defense",
                ));
            }
            return Ok(match dice {
                Some(dice) => D20Check::ResistDamage { level, dice },
                None => D20Check::Resist { level },
            });
        }
        if let Some(dice) = dice {
            return Ok(D20Check::Damage {
                modifier,
                defense,
                dice,
            });
        }
        if p.get("attack").is_some() || p.get("defense").is_some() || p.get("defence").is_some() {
            return Ok(D20Check::Attack { modifier, defense });
        }
        Ok(D20Check::Skill {
            proficiency: prof(p, "proficiency")?.unwrap_or_default(),
        })
    }

    /// The exact distribution of a check.
    fn exact(&self, rules: &D20) -> CheckExact {
        let (o, c) = (rules.options(), self);
        match *c {
            D20Check::Attack { modifier, defense } => {
                let w = (1..=20).map(|r| {
                    let v = match r {
                        1 => 0,
                        20 => 3,
                        _ if r + modifier >= defense => 2,
                        _ => 1,
                    };
                    (v, 1u128)
                });
                CheckExact {
                    description: format!("d20 {modifier:+} against Defense {defense}"),
                    distribution: Dist::from_weights(w).expect("20 faces"),
                    success_at_least: 2,
                    bands: vec![
                        band("natural 1 (miss)", 0, 0),
                        band("miss", 1, 1),
                        band("hit", 2, 2),
                        band("natural 20 (hit)", 3, 3),
                    ],
                }
            }
            D20Check::Damage {
                modifier,
                defense,
                dice,
            } => CheckExact {
                description: format!(
                    "damage of one attack roll: d20 {modifier:+} against Defense {defense}, {dice} on a hit"
                ),
                distribution: attack_damage_dist(o, &plain_attack(o, modifier, dice), defense),
                success_at_least: 1,
                bands: Vec::new(),
            },
            D20Check::Skill { proficiency } => CheckExact {
                description: format!(
                    "skill check, proficiency {}{}",
                    proficiency.symbol(),
                    if o.skill_modifier_mode == SkillMode::Shift {
                        " (shifted)"
                    } else {
                        " (no modifier)"
                    }
                ),
                distribution: Dist::from_weights(
                    (1..=20).map(|r| (skill_roll(o, proficiency, r), 1)),
                )
                .expect("20 faces"),
                success_at_least: 7,
                bands: SKILL_BANDS
                    .iter()
                    .map(|&(n, lo, hi)| band(n, lo, hi))
                    .collect(),
            },
            D20Check::Resist { level } => CheckExact {
                description: format!("resistance check at {}", level.symbol()),
                distribution: Dist::from_weights(
                    (1..=20).map(|r| (resist_result(level, r) as i64, 1u128)),
                )
                .expect("20 faces"),
                success_at_least: 1,
                bands: RESIST_NAMES
                    .iter()
                    .enumerate()
                    .map(|(i, n)| band(n, i as i64, i as i64))
                    .collect(),
            },
            D20Check::ResistDamage { level, dice } => {
                let hit = plain_attack(o, 0, dice).damage_dist();
                let mut w = Vec::new();
                for roll in 1..=20 {
                    let r = resist_result(level, roll);
                    for (d, wt) in hit.iter() {
                        w.push((resisted(o, r, d), wt));
                    }
                }
                CheckExact {
                    description: format!(
                        "damage taken from one {dice} hit after a resistance check at {}",
                        level.symbol()
                    ),
                    distribution: Dist::from_weights(w).expect("small weights"),
                    success_at_least: 1,
                    bands: Vec::new(),
                }
            }
        }
    }

    /// Samples one check result.
    fn sample<R: Roller>(&self, rules: &D20, r: &mut R) -> i64 {
        let (o, c) = (rules.options(), self);
        match *c {
            D20Check::Attack { modifier, defense } => {
                let roll = r.roll(20) as i32;
                match roll {
                    1 => 0,
                    20 => 3,
                    _ if roll + modifier >= defense => 2,
                    _ => 1,
                }
            }
            D20Check::Damage {
                modifier,
                defense,
                dice,
            } => {
                let a = plain_attack(o, modifier, dice);
                let roll = r.roll(20) as i32;
                let hit = roll != 1 && (roll == 20 || roll + modifier >= defense);
                if !hit {
                    0
                } else if roll == 20 && super::reference::crit_is_max(o) {
                    i64::from(a.max_damage())
                } else {
                    i64::from(roll_dice(&a, r))
                }
            }
            D20Check::Skill { proficiency } => skill_roll(o, proficiency, i64::from(r.roll(20))),
            D20Check::Resist { level } => resist_result(level, r.roll(20)) as i64,
            D20Check::ResistDamage { level, dice } => {
                let res = resist_result(level, r.roll(20));
                let d = roll_dice(&plain_attack(o, 0, dice), r);
                resisted(o, res, i64::from(d))
            }
        }
    }
}

fn plain_attack(o: &D20Options, modifier: i32, dice: Dice) -> Attack {
    Attack {
        to_hit: modifier,
        dice,
        cap: i32::MAX,
        floor: o.min_damage_on_hit,
        kind: DamageKind::Lethal,
        magic: false,
    }
}

/// The skill band value of a d20 roll (G-29 shift on rolls 2–19).
fn skill_roll(o: &D20Options, p: Prof, roll: i64) -> i64 {
    if o.skill_modifier_mode == SkillMode::None || roll == 1 || roll == 20 {
        roll
    } else {
        (roll + i64::from(p.bonus())).clamp(2, 19)
    }
}

fn halve(o: &D20Options, d: i64) -> i64 {
    match o.halve_rounding {
        HalveRounding::FloorMin1 => (d / 2).max(1),
        HalveRounding::Ceil => (d + 1) / 2,
        HalveRounding::Floor => d / 2,
    }
}

/// Damage taken after a resistance result (G-28).
pub fn resisted(o: &D20Options, r: Resist, d: i64) -> i64 {
    match r {
        Resist::Normal => d,
        Resist::MinusOne => (d - 1).max(1),
        Resist::Half => halve(o, d),
        Resist::One => d.min(1),
        Resist::Zero | Resist::Reflect => 0,
    }
}

fn band(name: &str, lo: i64, hi: i64) -> Band {
    Band {
        name: name.into(),
        lo: Some(lo),
        hi: Some(hi),
    }
}

const RESIST_NAMES: [&str; 6] = [
    "normal",
    "-1",
    "1/2",
    "1 point",
    "unaffected",
    "unaffected, reflect 1/2",
];

fn roll_dice<R: Roller>(a: &Attack, r: &mut R) -> i32 {
    let mut v = a.dice.plus;
    for _ in 0..a.dice.n {
        v += r.roll(u32::from(a.dice.sides)) as i32;
    }
    a.clamp(v)
}
