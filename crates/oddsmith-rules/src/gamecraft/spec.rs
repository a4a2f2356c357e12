//! A Gamecraft fighter as written in a scenario file: the eight attributes, skills by name,
//! weapon and armour, and the AI policy.

use std::collections::BTreeMap;
use std::fmt;

use serde::de;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::tables::{self, Distance, WeaponStats};
use crate::fields::{Builtin, Entry, de_builtin, de_range, unknown};
use crate::info::{Cond, Is, Requires, cond, warn};

crate::spec! {
    /// A fighter under The Gamecraft System (`[fighters.NAME]`).
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct FighterSpec {
        /// Strength 1–20 (10 is human peak, 11+ Superhuman).
        #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
        strength: i32 => (
            "5",
            "Strength 1–20: melee/thrown damage, Health, Fatigue, Move",
        ),
        /// Constitution 1–20.
        #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
        constitution: i32 => (
            "5",
            "Constitution 1–20: resistance roll, Health",
        ),
        /// Prowess 1–20.
        #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
        prowess: i32 => (
            "5",
            "Prowess 1–20: attack, defense score, Initiative, Grace",
        ),
        /// Beauty 1–20.
        #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
        beauty: i32 => (
            "5",
            "Beauty 1–20 (Charm; cost only)",
        ),
        /// Intelligence 1–20.
        #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
        intelligence: i32 => (
            "5",
            "Intelligence 1–20 (Savvy; cost only)",
        ),
        /// Spirit 1–20.
        #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
        spirit: i32 => (
            "5",
            "Spirit 1–20: Grace, Fatigue, Power",
        ),
        /// Perception 1–20.
        #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
        perception: i32 => (
            "5",
            "Perception 1–20: ranged damage, Initiative",
        ),
        /// Personality 1–20.
        #[serde(default = "five", deserialize_with = "de_range::<_, 1, 20>")]
        personality: i32 => (
            "5",
            "Personality 1–20 (Charm; cost only)",
        ),
        /// Skill levels by name, e.g. `{ "Melee Combat" = 6, "Melee Combat (Swords)" = 7 }`;
        /// levels 0–30, checked when compiled.
        #[serde(default)]
        skills: BTreeMap<String, i32> => (
            "{}",
            "levels 0–30 by name, e.g. { \"Melee Combat\" = 6, \"Melee Combat (Swords)\" = 7, \"Combat Defense\" = 5 }; a specialization counts as max(general, specialization); general skills cap at general_skill_cap",
        ),
        /// A built-in weapon name or an inline table `{ damage, kind, range, skill, … }`.
        weapon: WeaponSpec, inline => (
            "required",
            "dagger, thrown dagger, sword, longbow, war axe, light pistol, heavy pistol, shotgun, sniper rifle, sub machinegun (automatic), fragmentation grenade (explosive, Athletics, Range Short, Area grenade_area), unarmed (Ranges other than the thrown dagger's Short, the grenade's Area and its Athletics skill are not in the seed: G19 placeholders), or { damage, kind = melee|thrown|bow|firearm|explosive, range, skill, attack_attribute, bullet, spread, automatic, area = small|medium|large, name }",
        ),
        /// A built-in armour name or an inline table `{ resistance, name }`.
        #[serde(default, alias = "armour")]
        armor: ArmorSpec, inline => (
            "\"none\"",
            "leather, chain mail, splint mail, plate mail, flak jacket, tactical plate armor, biomechanical power armor, or { resistance, name }",
        ),
        /// Explicit points per wound level (Healthy … Incapacitated), overriding `bonus_allocation`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        wound_levels: Option<Vec<i32>> => (
            "from bonus_allocation",
            "explicit points per level, Healthy … Incapacitated: base ≤ each ≤ base + 2, total max(Health, 6)",
        ),
        /// How many actions the fighter declares each round.
        #[serde(default)]
        policy: ActionPlan => (
            "\"attack\"",
            "\"attack\" | \"attack_dodge\" | \"dodge_attack\" | \"multi_attack:N\" | \"full_dodge\" | \"full_dodge_when_status>=K\"",
        ),
        /// How the fighter spends Grace.
        #[serde(default)]
        grace: GracePolicy => (
            "\"none\"",
            "Grace spending: \"none\" | \"greedy\" (max on every attack) | \"need\" (least for ≥ 1/2 to hit) | \"save_for_defense\" (dodges only) | \"greedy_ev\" (on each attack the g ≤ min(skill, pool) maximising 36·ΔP(hit) − grace_ev_cost·g against the TN faced, exact; smallest on ties)",
        ),
        /// How the multiple-action penalty is split over the round's checks (pool mode).
        #[serde(default)]
        penalty_split: PenaltySplit => (
            "\"even\"",
            "multiple-action penalty: \"even\" (remainder on attacks) | \"all_on_attack\" | \"all_on_dodge\"",
        ),
        /// Lethal or non-lethal damage.
        #[serde(default)]
        damage_type: DamageType => (
            "\"lethal\"",
            "\"lethal\" | \"nonlethal\" (to Fatigue; −1 to attack with a lethal weapon; not with guns)",
        ),
        /// The weapon is in the off hand (−`offhand_penalty` to attack; false if ambidextrous).
        #[serde(default)]
        offhand: bool => (
            "false",
            "attacks with the off hand (−offhand_penalty)",
        ),
        /// Any further modifier on this fighter's attack rolls, −20 to 20.
        #[serde(default, deserialize_with = "de_range::<_, -20, 20>")]
        attack_modifier: i32 => (
            "0",
            "further modifier on attack rolls, −20 to 20",
        ),
        /// Any further modifier on this fighter's defense score, −20 to 20.
        #[serde(
            default,
            deserialize_with = "de_range::<_, -20, 20>",
            alias = "defence_modifier"
        )]
        defense_modifier: i32 => (
            "0",
            "further modifier on the defense score (cover, specializations not in skills), −20 to 20",
        ),
        /// «Simultaneous Actions»: all of the round's declared actions resolve together in the
        /// fighter's phase-1 slot, each at −`simultaneous_penalty` per other action in the phase.
        #[serde(default, skip_serializing_if = "is_false")]
        simultaneous: bool => (
            "false",
            "«Simultaneous Actions»: all of the round's declared actions resolve in the fighter's phase-1 slot, each at −simultaneous_penalty per other action (the scenario vouches they can be simultaneous, e.g. two pistols)",
        ),
        /// «Reserved Actions»: whether and how the fighter holds one undeclared action each round.
        #[serde(default, skip_serializing_if = "is_default")]
        reserve: ReservePolicy => (
            "\"none\"",
            "«Reserved Actions»: hold one undeclared action a round (counts toward the multiple-action penalty, used or not): \"none\" | \"dodge\" (a dodge just before the enemy's first attack of the round) | \"interrupt\" (an attack just before the enemy's first action)",
        ),
        /// Movement (digest G21): the distance category the fighter moves toward, or hold.
        #[serde(default, skip_serializing_if = "is_default")]
        movement: MovePolicy => (
            "\"hold\"",
            "G21 approach: \"hold\" | \"close\" | a distance to move toward (point_blank … extreme): a move action first if the weapon reaches from where it ends, else a move-only round",
        ),
        /// «Automatic Weapons»: how an automatic weapon is fired.
        #[serde(default, skip_serializing_if = "is_default")]
        fire_mode: FireMode => (
            "\"single\"",
            "«Automatic Weapons» (automatic weapons only): \"single\" | \"burst\" (spread, bonus ×1.5 up) | \"spray\" (spread from Short, bonus ×spray_mult) | \"strafe_small\" | \"strafe_medium\" | \"strafe_large\" (−2/−4/−6, hit if TN < total, crit ×strafe_crit_mult damage)",
        ),
        /// «Explosions»: what the fighter does where its own blast would catch it (option
        /// `blast_catches_thrower`).
        #[serde(default, skip_serializing_if = "is_default")]
        own_blast: OwnBlast => (
            "\"step_back\"",
            "«Explosions» (explosives only): where its own blast would catch it, \"step_back\" (a move action away first, and no throw while the blast would still catch it) | \"throw\" (throws anyway and makes its own avoidance roll)",
        ),
        /// Spare magazines carried beside the loaded one (option `ammunition`).
        #[serde(default = "two_u8", skip_serializing_if = "is_two_u8", deserialize_with = "de_u8_0_20")]
        spare_magazines: u8 => (
            "2",
            "spare magazines beside the loaded one, 0–20, for a weapon whose ammunition is tracked (option ammunition; not in the seed: invented 2, plausible 0–6)", invented (0, 6, "the seed gives no figure for magazines carried"),
        ),
        /// «Bleeding»: while bleeding, spend the round's action on first aid
        /// (`first_aid_attribute` + Medicine (First Aid)) against TN levels lost +
        /// `stop_bleed_tn_base`.
        #[serde(default, skip_serializing_if = "is_false")]
        first_aid: bool => (
            "false",
            "«Bleeding» (option bleeding): while bleeding, the round's only action is first aid, first_aid_attribute (Intelligence) + Medicine (First Aid) against levels lost + stop_bleed_tn_base; success stops it until the next level is lost",
        ),
    }
    requires = FIGHTER_REQUIRES;
}

const fn on(field: &'static str, is: Is) -> [Cond; 1] {
    [cond(field, is)]
}

const TRUE: Is = Is::OneOf(&["true"]);

/// The fighter fields read only with an option ("only with …" in `oddsmith rulesets
/// gamecraft`), checked for every file by the loader.
pub const FIGHTER_REQUIRES: &[Requires] = &[
    warn("first_aid", &on("options.bleeding", TRUE), "first aid stops bleeding, and bleeding is off"),
    warn("spare_magazines", &on("options.ammunition", TRUE), "ammunition is not tracked"),
];

fn five() -> i32 {
    5
}

fn two_u8() -> u8 {
    2
}

fn is_two_u8(v: &u8) -> bool {
    *v == 2
}

fn de_u8_0_20<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    de_range::<_, 0, 20>(d).map(|v| v as u8)
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// Reserved-action policy («Reserved Actions»; digest §6 AI policy 8). The reserved action
/// counts toward the multiple-action penalty whether used or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReservePolicy {
    /// Never reserve (default).
    #[default]
    None,
    /// Reserve one action and use it as a dodge the moment the enemy's first attack of the
    /// round is about to be rolled (if no dodge is already on); it then lasts the round.
    Dodge,
    /// Reserve one action and use it as an attack just before the enemy's first action of
    /// the round, out of turn.
    Interrupt,
}

/// Movement policy (digest G21 approach model): `"hold"` or a distance category to move
/// toward (`"close"` = `"point_blank"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MovePolicy {
    /// Never take a move action (default).
    #[default]
    Hold,
    /// Move toward this distance category.
    To(Distance),
}

impl MovePolicy {
    /// Parses `"hold"`, `"close"` or a distance category name.
    pub fn parse(s: &str) -> Result<MovePolicy, String> {
        let t = tables::normalise(s).replace(' ', "_");
        Ok(match t.as_str() {
            "hold" => MovePolicy::Hold,
            "close" | "point_blank" => MovePolicy::To(Distance::PointBlank),
            "short" => MovePolicy::To(Distance::Short),
            "medium" => MovePolicy::To(Distance::Medium),
            "long" => MovePolicy::To(Distance::Long),
            "extreme" => MovePolicy::To(Distance::Extreme),
            _ => {
                return Err(format!(
                    "unknown movement {s:?}; expected \"hold\", \"close\" or a distance: point_blank, short, medium, long, extreme"
                ));
            }
        })
    }
}

impl fmt::Display for MovePolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MovePolicy::Hold => f.write_str("hold"),
            MovePolicy::To(d) => f.write_str(match d {
                Distance::PointBlank => "point_blank",
                Distance::Short => "short",
                Distance::Medium => "medium",
                Distance::Long => "long",
                Distance::Extreme => "extreme",
            }),
        }
    }
}

impl Serialize for MovePolicy {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for MovePolicy {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        MovePolicy::parse(&s).map_err(de::Error::custom)
    }
}

/// What a fighter does where its own explosive's blast would catch it («Explosions»).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OwnBlast {
    /// The competent default: a move action away from the enemy first (the seed allows a
    /// move and an action in one round, «Movement in Combat»), then the throw; while the
    /// blast would still catch it, it keeps the device.
    #[default]
    StepBack,
    /// Throws wherever it stands and is caught in its own blast.
    Throw,
}

/// Fire mode of an automatic weapon («Automatic Weapons»). Each attack spends its rounds
/// from a tracked magazine (options `ammunition`, `burst_rounds`, `spray_ammo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FireMode {
    /// Single shots (default).
    #[default]
    Single,
    /// Burst: a spread weapon with the damage bonus × 1.5, rounded up.
    Burst,
    /// Controlled spray: a spread weapon with the damage bonus × `spray_mult`, and no Point
    /// Blank row (the spread table is read from Short).
    Spray,
    /// Strafe over a Small area: −2 to attack, hit if the TN is lower than the total.
    StrafeSmall,
    /// Strafe over a Medium area: −4.
    StrafeMedium,
    /// Strafe over a Large area: −6.
    StrafeLarge,
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
    /// On each attack, spend the g in 0..=min(skill, pool) that maximises
    /// 36·(P(hit | g) − P(hit | 0)) − `grace_ev_cost`·g against the TN the attacker faces
    /// (dodge roll or full dodge included), P exact from the die; ties go to the smaller g.
    GreedyEv,
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

impl Builtin for WeaponStats {
    type Stats = WeaponStats;
    const WHAT: &'static str = "weapon";
    const EXPECTING: &'static str = "a weapon name (e.g. \"sword\") or a table { damage, kind, … }";
    fn by_name(v: &str) -> Result<Self, String> {
        tables::weapon(v).ok_or_else(|| {
            let names = tables::weapon_names().join(", ");
            let hint = " (or give a table { damage = 3, kind = \"melee\" })";
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

crate::inline! {
    /// Custom armour as written inline.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct CustomArmor / CustomArmorTable {
        /// Name shown in reports.
        name: String = "custom armour".into() => (
            "\"custom armour\"",
            "name in reports; a built-in's name (e.g. \"chain mail\") makes the table that armour with the given fields changed",
        ),
        /// Resistance bonus («Damage» table).
        resistance: i32, in 0..=50 => (
            "required",
            "resistance bonus 0–50 («Damage» table)",
        ),
    }
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

impl Builtin for ArmorSpec {
    type Stats = CustomArmor;
    const WHAT: &'static str = "armour";
    const EXPECTING: &'static str = "an armour name (e.g. \"leather\") or a table { resistance }";
    fn by_name(v: &str) -> Result<Self, String> {
        tables::armor(v)
            .map(|(name, resistance)| ArmorSpec {
                name: name.into(),
                resistance,
                builtin: true,
            })
            .ok_or_else(|| {
                let names: Vec<_> = tables::ARMORS.iter().map(|a| a.0).collect();
                let hint = " (or a table { resistance = 3 })";
                unknown("armour", v, "expected one of", &names.join(", "), hint)
            })
    }
    fn names() -> Vec<&'static str> {
        tables::ARMORS.iter().map(|a| a.0).collect()
    }
    fn base(name: &str) -> Option<Result<CustomArmor, String>> {
        tables::armor(name).map(|(name, resistance)| {
            Ok(CustomArmor {
                name: name.into(),
                resistance,
            })
        })
    }
    fn from_stats(c: CustomArmor) -> Self {
        ArmorSpec {
            name: c.name,
            resistance: c.resistance,
            builtin: false,
        }
    }
}

impl<'de> Deserialize<'de> for ArmorSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        de_builtin(d)
    }
}
