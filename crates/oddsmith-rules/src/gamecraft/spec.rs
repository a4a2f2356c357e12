//! A Gamecraft fighter as written in a scenario file: the eight attributes, skills by name,
//! weapon and armour, and the AI policy.

use std::collections::BTreeMap;
use std::fmt;

use serde::de;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::tables::{self, WeaponStats};
use crate::fields::{Entry, Named, de_range, name_or_table};

/// A fighter under The Gamecraft System (`[fighters.NAME]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterSpec {
    /// Strength 1–20 (10 is human peak, 11+ Superhuman).
    #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
    pub strength: i32,
    /// Constitution 1–20.
    #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
    pub constitution: i32,
    /// Prowess 1–20.
    #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
    pub prowess: i32,
    /// Beauty 1–20.
    #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
    pub beauty: i32,
    /// Intelligence 1–20.
    #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
    pub intelligence: i32,
    /// Spirit 1–20.
    #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
    pub spirit: i32,
    /// Perception 1–20.
    #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
    pub perception: i32,
    /// Personality 1–20.
    #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
    pub personality: i32,
    /// Skill levels by name, e.g. `{ "Melee Combat" = 6, "Melee Combat (Swords)" = 7 }`;
    /// levels 0–30, checked when compiled.
    #[serde(default)]
    pub skills: BTreeMap<String, i32>,
    /// A built-in weapon name or an inline table `{ damage, kind, range, skill, … }`.
    pub weapon: WeaponSpec,
    /// A built-in armour name or an inline table `{ resistance, name }`.
    #[serde(default, alias = "armour")]
    pub armor: ArmorSpec,
    /// Explicit points per wound level (Healthy … Incapacitated), overriding `bonus_allocation`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wound_levels: Option<Vec<i32>>,
    /// How many actions the fighter declares each round.
    #[serde(default)]
    pub policy: ActionPlan,
    /// How the fighter spends Grace.
    #[serde(default)]
    pub grace: GracePolicy,
    /// How the multiple-action penalty is split over the round's checks (pool mode).
    #[serde(default)]
    pub penalty_split: PenaltySplit,
    /// Lethal or non-lethal damage.
    #[serde(default)]
    pub damage_type: DamageType,
    /// The weapon is in the off hand (−`offhand_penalty` to attack; false if ambidextrous).
    #[serde(default)]
    pub offhand: bool,
    /// Any further modifier on this fighter's attack rolls, −20 to 20.
    #[serde(default, deserialize_with = "de_range::<_, -20, 20>")]
    pub attack_modifier: i32,
    /// Any further modifier on this fighter's defense score, −20 to 20.
    #[serde(
        default,
        deserialize_with = "de_range::<_, -20, 20>",
        alias = "defence_modifier"
    )]
    pub defense_modifier: i32,
}

fn five() -> i32 {
    5
}

/// Action plan (digest §6 AI policy 1), written as a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ActionPlan {
    /// `"attack"`: one attack a round, no penalty.
    #[default]
    Attack,
    /// `"attack_dodge"`: attack (phase 1) and dodge (phase 2), −2 split by `penalty_split`.
    AttackDodge,
    /// `"dodge_attack"`: dodge (phase 1) and attack (phase 2).
    DodgeAttack,
    /// `"multi_attack:N"`: N attacks (1–10), −N in total.
    MultiAttack(u8),
    /// `"full_dodge_when_status>=K"`: one attack, but a full dodge once the own wound status
    /// is at least K (1 Injured … 5 Incapacitated); `"full_dodge"` always.
    FullDodgeAt(u8),
}

impl ActionPlan {
    /// Parses the policy string.
    pub fn parse(s: &str) -> Result<ActionPlan, String> {
        let t = s.trim().to_ascii_lowercase();
        let err = || {
            format!(
                "unknown policy {s:?}; expected \"attack\", \"attack_dodge\", \"dodge_attack\", \"multi_attack:N\" (N 1–10), \"full_dodge\" or \"full_dodge_when_status>=K\" (K 1–5)"
            )
        };
        Ok(match t.as_str() {
            "attack" => ActionPlan::Attack,
            "attack_dodge" => ActionPlan::AttackDodge,
            "dodge_attack" => ActionPlan::DodgeAttack,
            "full_dodge" => ActionPlan::FullDodgeAt(0),
            _ => {
                if let Some(n) = t.strip_prefix("multi_attack:") {
                    let n: u8 = n.trim().parse().map_err(|_| err())?;
                    if !(1..=10).contains(&n) {
                        return Err(err());
                    }
                    ActionPlan::MultiAttack(n)
                } else if let Some(k) = t.strip_prefix("full_dodge_when_status>=") {
                    let k: u8 = k.trim().parse().map_err(|_| err())?;
                    if !(1..=5).contains(&k) {
                        return Err(err());
                    }
                    ActionPlan::FullDodgeAt(k)
                } else {
                    return Err(err());
                }
            }
        })
    }
}

impl fmt::Display for ActionPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionPlan::Attack => f.write_str("attack"),
            ActionPlan::AttackDodge => f.write_str("attack_dodge"),
            ActionPlan::DodgeAttack => f.write_str("dodge_attack"),
            ActionPlan::MultiAttack(n) => write!(f, "multi_attack:{n}"),
            ActionPlan::FullDodgeAt(0) => f.write_str("full_dodge"),
            ActionPlan::FullDodgeAt(k) => write!(f, "full_dodge_when_status>={k}"),
        }
    }
}

impl Serialize for ActionPlan {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for ActionPlan {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ActionPlan::parse(&s).map_err(de::Error::custom)
    }
}

/// Grace spending (digest §6 AI policy 3); spending is declared before the roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GracePolicy {
    /// Never spend.
    #[default]
    None,
    /// Spend min(skill, pool) on every attack until empty.
    Greedy,
    /// Spend the least that lifts the hit chance against the static TN (before any dodge)
    /// to ≥ 1/2, if the cap and pool allow.
    Need,
    /// Spend min(Combat Defense, pool) on dodge checks only.
    SaveForDefense,
}

/// How the pool-mode multiple-action penalty is split (digest §6 AI policy 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PenaltySplit {
    /// Evenly over all checks, remainder on the attacks.
    #[default]
    Even,
    /// All on the attacks (evenly among them).
    AllOnAttack,
    /// All on the dodge, if one is declared.
    AllOnDodge,
}

/// Damage type (digest §6 AI policy 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageType {
    /// Wound points.
    #[default]
    Lethal,
    /// Fatigue (−1 to attack with a lethal weapon; not with guns).
    Nonlethal,
}

/// A weapon: a built-in name, or a custom table.
pub type WeaponSpec = Entry<WeaponStats>;

impl Named for WeaponStats {
    fn name(&self) -> &str {
        &self.name
    }
}

impl<'de> Deserialize<'de> for WeaponSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        name_or_table(
            d,
            "a weapon name (e.g. \"sword\") or a table { damage, kind, … }",
            |v| {
                tables::weapon(v).map(|stats| WeaponSpec { stats, builtin: true }).ok_or_else(|| {
                    format!(
                        "unknown weapon {v:?}; built-in weapons: {} (or give a table {{ damage = 3, kind = \"melee\" }})",
                        tables::weapon_names().join(", ")
                    )
                })
            },
            |mut stats: WeaponStats| {
                if stats.name.is_empty() {
                    stats.name = "custom weapon".into();
                }
                WeaponSpec {
                    stats,
                    builtin: false,
                }
            },
        )
    }
}

/// Armour: a built-in name, or a custom `{ resistance, name }` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmorSpec {
    /// Name shown in reports.
    pub name: String,
    /// Resistance bonus.
    pub resistance: i32,
    /// Whether it was given by built-in name.
    pub builtin: bool,
}

impl Default for ArmorSpec {
    fn default() -> Self {
        ArmorSpec {
            name: "none".into(),
            resistance: 0,
            builtin: true,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CustomArmor {
    #[serde(default)]
    name: String,
    #[serde(deserialize_with = "de_range::<_, 0, 50>")]
    resistance: i32,
}

impl Serialize for ArmorSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.builtin {
            s.serialize_str(&self.name)
        } else {
            CustomArmor {
                name: self.name.clone(),
                resistance: self.resistance,
            }
            .serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for ArmorSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        name_or_table(
            d,
            "an armour name (e.g. \"leather\") or a table { resistance }",
            |v| {
                tables::armor(v)
                    .map(|(name, resistance)| ArmorSpec { name: name.into(), resistance, builtin: true })
                    .ok_or_else(|| {
                        let names: Vec<_> = tables::ARMORS.iter().map(|a| a.0).collect();
                        format!(
                            "unknown armour {v:?}; expected one of: {} (or a table {{ resistance = 3 }})",
                            names.join(", ")
                        )
                    })
            },
            |c: CustomArmor| ArmorSpec {
                name: if c.name.is_empty() {
                    "custom armour".into()
                } else {
                    c.name
                },
                resistance: c.resistance,
                builtin: false,
            },
        )
    }
}
