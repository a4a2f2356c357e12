//! A Draft fighter as written in a scenario file.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::tables::{self, ArmourKind, ArmourTable, WeaponStats};
use crate::fields::{Builtin, Entry, de_builtin, de_range, unknown};
use crate::info::{Cond, Is, Requires, cond, warn};

crate::spec! {
    /// A fighter under Draft 0.4 (`[fighters.NAME]`).
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct FighterSpec {
        /// Weapon skill, used to attack and to parry with the weapon (§4.18), 0–30.
        #[serde(deserialize_with = "de_range::<_, 0, 30>")]
        skill: i32 => (
            "required",
            "weapon skill 0–30, to attack and to parry with the weapon (§4.18)",
        ),
        /// A built-in weapon name or an inline table `{ impact, aspect, bonus, hands, … }`.
        weapon: WeaponSpec, inline => (
            "required",
            "built-in name (dagger, small club, mace, flail, giant's club, short sword, long sword, two handed sword, two handed war hammer, rapier, unarmed; rapier and unarmed are not in the seed, G18) or { impact, aspect = \"pointed\"|\"sharp\"|\"blunt\", bonus, hands, flexible, can_parry, length, name }",
        ),
        /// A missile weapon carried besides the melee weapon (§4.21): a built-in name (short
        /// bow, long bow, cross bow, pistol, rifle) or an inline table with `ranged = true`,
        /// `point_blank`, `max_range` and `prepare`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        missile: Option<WeaponSpec>, inline => (
            "none",
            "short bow, long bow, cross bow, pistol, rifle, dart, knife, javelin, or { impact, aspect, ranged = true, point_blank, max_range, prepare, thrown, supply }: shot while the duel is apart (start_distance), and in melee per missile_in_melee (§4.17.1 \"Trigger gun\", §4.21.1); else dropped for the melee weapon on contact",
        ),
        /// Skill with the missile weapon (§4.18), 0–30.
        #[serde(default, deserialize_with = "de_range::<_, 0, 30>")]
        missile_skill: i32 => (
            "0",
            "skill with the missile weapon (§4.21.1: 5 or more is a trained marksman)",
        ),
        /// How the fighter aims its missile weapon (§4.21.1).
        #[serde(default)]
        aim: Aim => (
            "\"auto\"",
            "§4.21.1: \"auto\" (an aimed shot, a full round: aim_segments before the shot; unaimed at unaimed_shot_modifier where an aimed one could not go off before contact, and in melee) | \"aimed\" (always) | \"unaimed\" (no aiming: a gun fires every segment) | \"extra_round\" (aims one more round, extra_aim_bonus)",
        ),
        /// Whether the fighter shoots its missile weapon in melee (§4.17.1, §4.21.1).
        #[serde(default)]
        missile_in_melee: MeleeMissile => (
            "\"auto\"",
            "§4.17.1 \"Trigger gun\", the §4.21.1 gunslinger: \"auto\" (keeps shooting in melee a missile weapon that needs no preparation when its shot is worth more than its melee blow, a reading) | \"always\" (shoots in melee; a bow is drawn there, shield or dodge only meanwhile) | \"never\" (drops it for the melee weapon)",
        ),
        /// Charge on arrival when the duel starts apart (§4.22.2).
        #[serde(default)]
        charge: bool => (
            "false",
            "when closing from a distance, arrive with a Charge (§4.22.2: +1 attack, +1 damage, −2 on own defences that round; the longer weapon strikes first)",
        ),
        /// `none`, `small` or `large` (§4.18.1).
        #[serde(default)]
        shield: ShieldKind => (
            "\"none\"",
            "\"none\" | \"small\" (+1) | \"large\" (+2); needs a one-handed weapon (§4.18.1)",
        ),
        /// Shield skill (a separate skill, §4.18.1), 0–30.
        #[serde(default, deserialize_with = "de_range::<_, 0, 30>")]
        shield_skill: i32 => (
            "0",
            "shield skill, a separate skill (§4.18.1)",
        ),
        /// Dodge skill (§4.18.3), 0–30.
        #[serde(default, deserialize_with = "de_range::<_, 0, 30>")]
        dodge: i32 => (
            "0",
            "Dodge skill (§4.18.3)",
        ),
        /// A built-in armour name or an inline table `{ protection, movement }` (§4.17.5).
        #[serde(default, alias = "armor")]
        armour: ArmourSpec, inline => (
            "\"none\"",
            "none, cloth, leather, chain, plate, full plate, armour_6 / armour_4, or { protection, movement } (§4.17.5)",
        ),
        /// Strength 1–10 (strength bonus, §4.19).
        #[serde(default = "five", deserialize_with = "de_range::<_, 1, 10>")]
        str: i32 => (
            "5",
            "Strength 1–10: damage bonus (§4.19)",
        ),
        /// Constitution 1–20 (wound thresholds, §4.19.2).
        #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
        con: i32 => (
            "5",
            "Constitution 1–20: wound thresholds (§4.19.2)",
        ),
        /// How the fighter spends its actions each round.
        #[serde(default)]
        policy: Policy => (
            "\"balanced\"",
            "\"balanced\" (1 attack) | \"aggressive\" (2) | \"all_out\" (3, no defence) | \"defensive\" | \"adaptive\"",
        ),
        /// Wound-penalty lead of the opponent at which `adaptive` takes a Defensive Position.
        #[serde(default = "three", deserialize_with = "de_range::<_, 1, 30>")]
        adaptive_threshold: i32 => (
            "3",
            "adaptive: Defensive Position when own wound penalty exceeds the opponent's by this",
        ),
        /// Which defence to use when attacked.
        #[serde(default, alias = "defense")]
        defence: DefenceChoice => (
            "\"best_legal\"",
            "\"best_legal\" | \"weapon\" | \"shield\" | \"dodge\" | \"none\" (a forced choice that is illegal against this opponent falls back to best_legal)",
        ),
        /// The weapon is familiar but not the fighter's own (§4.17.3): `unfamiliar_weapon_modifier`.
        #[serde(default)]
        unfamiliar_weapon: bool => (
            "false",
            "familiar but different weapon: unfamiliar_weapon_modifier on attack and weapon parry (§4.17.3)",
        ),
        /// Static situational flags from the §4.23.3 table.
        #[serde(default)]
        situation: Vec<Situation> => (
            "[]",
            "§4.23.3 flags: opponent_surprised, attacking_from_behind, opponent_sitting_or_lying (attacks); higher_ground, surprised, lower_ground, sitting, lying (attacks and defences)",
        ),
        /// Any further modifier on this fighter's attack rolls.
        #[serde(default, deserialize_with = "de_range::<_, -20, 20>")]
        attack_modifier: i32 => (
            "0",
            "any further modifier on attack rolls",
        ),
        /// Any further modifier on this fighter's parry and dodge rolls.
        #[serde(
            default,
            deserialize_with = "de_range::<_, -20, 20>",
            alias = "defense_modifier"
        )]
        defence_modifier: i32 => (
            "0",
            "any further modifier on parry and dodge rolls",
        ),
    }
    requires = FIGHTER_REQUIRES;
}

const fn on(field: &'static str, is: Is) -> [Cond; 1] {
    [cond(field, is)]
}

const APART: Is = Is::NoneOf(&["0"]);

/// The fighter fields read only with another setting ("only with …" in `oddsmith rulesets
/// draft`), checked for every file by the loader.
pub const FIGHTER_REQUIRES: &[Requires] = &[
    warn("missile_skill", &on("missile", Is::Set), "it is the skill with the missile weapon; add missile"),
    warn(
        "missile",
        &[
            cond("options.start_distance", APART),
            cond("missile_in_melee", Is::OneOf(&["always"])),
            cond("missile", Is::OneOf(&["pistol", "rifle"])),
        ],
        "engaged, a missile weapon that needs preparation is shot only with missile_in_melee = \"always\"; else it is never used",
    ),
    warn("aim", &on("missile", Is::Set), "it is how the missile weapon is aimed; add missile"),
    warn("missile_in_melee", &on("missile", Is::Set), "it is about the missile weapon; add missile"),
    warn("charge", &on("options.start_distance", APART), "a charge is an arrival from a distance"),
    warn("shield_skill", &on("shield", Is::NoneOf(&["none"])), "it is the skill with a shield; add shield"),
    warn("adaptive_threshold", &on("policy", Is::OneOf(&["adaptive"])), ""),
];

fn five() -> i32 {
    5
}
fn three() -> i32 {
    3
}

/// Shield carried (§4.18.1–§4.18.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShieldKind {
    /// No shield.
    #[default]
    None,
    /// Small shield: +1 to shield parries.
    Small,
    /// Large shield: +2 to shield parries.
    Large,
}

/// How a fighter spends its actions (digest §6, AI policies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// One attack per round; every other action is kept for defences.
    #[default]
    Balanced,
    /// Two attacks per round; a defence may become the 3rd action at −1.
    Aggressive,
    /// Up to three attacks (the 3rd at −1), never defends.
    AllOut,
    /// Defensive Position every round: +2 to defences, no attacks (§4.22.1).
    Defensive,
    /// Balanced, but Defensive Position for a round when its own wound penalty exceeds the
    /// opponent's by at least `adaptive_threshold`.
    Adaptive,
}

/// How a fighter aims its missile weapon (§4.21.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aim {
    /// An aimed shot (a full round, `aim_segments`, §4.21.1), except where an aimed shot
    /// could not go off before contact and in melee: there an unaimed one, if ready.
    #[default]
    Auto,
    /// Always the aimed shot.
    Aimed,
    /// Never aims: `unaimed_shot_modifier`, but only the weapon's own preparation (a gun
    /// fires every segment, the third of a round at −1).
    Unaimed,
    /// Aims for another round before each shot: `extra_aim_bonus` (§4.21.1, "not cumulative
    /// beyond one additional round").
    ExtraRound,
}

/// Whether a fighter shoots its missile weapon in melee (§4.17.1, §4.21.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeleeMissile {
    /// Shoots in melee a missile weapon that needs no preparation (a gun) when its shot is
    /// worth more than the melee blow (expected margin plus damage against this opponent).
    #[default]
    Auto,
    /// Shoots in melee (a bow or a thrown weapon is prepared there).
    Always,
    /// Drops it for the melee weapon.
    Never,
}

/// Which defence to roll when attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefenceChoice {
    /// The legal option with the highest total; ties go shield, weapon, dodge.
    #[default]
    BestLegal,
    /// Parry with the weapon; `best_legal` where the weapon may not parry this attack.
    Weapon,
    /// Parry with the shield; `best_legal` where the shield may not parry this attack.
    Shield,
    /// Always dodge.
    Dodge,
    /// Never defend actively (the attack is against `undefended_value`).
    None,
}

/// Static situational flags (§4.23.3), for the acting character. INTERPRETATION: flags hold
/// for the whole duel (G20); position and surprise modify defence rolls as well as attacks
/// (parrying is an action too); flags are not mirrored onto the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Situation {
    /// +2 on attacks.
    OpponentSurprised,
    /// +2 on attacks.
    AttackingFromBehind,
    /// +1 on attacks and defences.
    HigherGround,
    /// +1 on attacks.
    OpponentSittingOrLying,
    /// −2 on attacks and defences.
    Surprised,
    /// −1 on attacks and defences.
    LowerGround,
    /// −1 on attacks and defences.
    Sitting,
    /// −4 on attacks and defences.
    Lying,
}

impl Situation {
    /// (modifier on attacks, modifier on defences).
    pub fn modifiers(self) -> (i32, i32) {
        match self {
            Situation::OpponentSurprised | Situation::AttackingFromBehind => (2, 0),
            Situation::HigherGround => (1, 1),
            Situation::OpponentSittingOrLying => (1, 0),
            Situation::Surprised => (-2, -2),
            Situation::LowerGround | Situation::Sitting => (-1, -1),
            Situation::Lying => (-4, -4),
        }
    }
}

/// A weapon: a built-in name, or a custom table.
pub type WeaponSpec = Entry<WeaponStats>;

impl Builtin for WeaponStats {
    type Stats = WeaponStats;
    const WHAT: &'static str = "weapon";
    const EXPECTING: &'static str =
        "a weapon name (e.g. \"long sword\") or a table { impact, aspect, … }";
    fn by_name(v: &str) -> Result<Self, String> {
        tables::weapon(v).ok_or_else(|| {
            let names = tables::weapon_names().join(", ");
            let hint = " (or give a table { impact = 2, aspect = \"sharp\" })";
            unknown("weapon", v, "built-in weapons", &names, hint)
        })
    }
    fn names() -> Vec<&'static str> {
        tables::weapon_names()
    }
    fn base(name: &str) -> Option<Result<WeaponStats, String>> {
        tables::weapon(name).map(Ok)
    }
    fn from_stats(stats: WeaponStats) -> Self {
        stats
    }
}

/// Armour: a built-in name, or a custom `{ name, protection, movement }` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArmourSpec {
    /// A named type, resolved with `armor_table`.
    Named(ArmourKind),
    /// Custom protection and Movement modifier.
    Custom(CustomArmour),
}

impl Default for ArmourSpec {
    fn default() -> Self {
        ArmourSpec::Named(ArmourKind::None)
    }
}

crate::inline! {
    /// Custom armour as written inline (§4.17.5).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct CustomArmour / CustomArmourTable {
        /// Name shown in reports.
        name: String = "custom armour".into() => (
            "\"custom armour\"",
            "name in reports; a built-in's name (e.g. \"chain\") makes the table that armour with the given fields changed (plate, full plate, armour_6 and armour_4 differ between armor_table A and B: give both fields)",
        ),
        /// Armour protection subtracted from damage, 0–30.
        protection: i32, in 0..=30 => (
            "required",
            "protection 0–30, subtracted from damage (§4.17.5)",
        ),
        /// Movement modifier on attack, parry and dodge rolls, −10…0.
        movement: i32 = 0, in -10..=0 => (
            "0",
            "Movement modifier −10…0 on attack, parry and dodge rolls (§4.17.5)",
        ),
    }
}

impl Serialize for ArmourSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ArmourSpec::Named(k) => k.serialize(s),
            ArmourSpec::Custom(c) => c.serialize(s),
        }
    }
}

impl Builtin for ArmourSpec {
    type Stats = CustomArmour;
    const WHAT: &'static str = "armour";
    const EXPECTING: &'static str =
        "an armour name (e.g. \"chain\") or a table { protection, movement }";
    fn by_name(v: &str) -> Result<Self, String> {
        ArmourKind::from_name(v)
            .map(ArmourSpec::Named)
            .ok_or_else(|| unknown("armour", v, "expected one of", ArmourKind::names(), ""))
    }
    fn names() -> Vec<&'static str> {
        ArmourKind::NAMES.to_vec()
    }
    /// A kind whose row is the same under both armour tables; the others (plate, full plate,
    /// armour_6, armour_4) depend on `armor_table`, unknown here.
    fn base(name: &str) -> Option<Result<CustomArmour, String>> {
        let kind = ArmourKind::from_name(name)?;
        let (a, b) = (kind.stats(ArmourTable::A), kind.stats(ArmourTable::B));
        let row = |r: Option<(i32, i32)>| r.map_or("no row".into(), |(p, m)| format!("{p}/{m:+}"));
        Some(match (a, b) {
            (Some((protection, movement)), Some(bb)) if (protection, movement) == bb => {
                Ok(CustomArmour {
                    name: ArmourKind::name(kind).into(),
                    protection,
                    movement,
                })
            }
            _ => Err(format!(
                "an armour table named {name:?} must give both protection and movement: that \
                 armour's row depends on options.armor_table (A: {}, B: {}; G7), so its fields \
                 cannot be inherited; or write armour = {name:?}",
                row(a),
                row(b)
            )),
        })
    }
    fn from_stats(c: CustomArmour) -> Self {
        ArmourSpec::Custom(c)
    }
}

impl<'de> Deserialize<'de> for ArmourSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        de_builtin(d)
    }
}
