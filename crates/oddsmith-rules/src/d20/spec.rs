//! A d20 fighter as written in a scenario file: species, class and level, the six abilities,
//! weapon, armour and shield, damage kind, resistances and spells.

use serde::{Deserialize, Deserializer, Serialize};

use super::tables::{self, ArmorStats, ClassStats, Prof, SpeciesStats, WeaponStats, normalise};
use crate::fields::{Builtin, Entry, Named, de_range, unknown};
use crate::info::{Is, Requires, cond, warn};

crate::spec! {
    /// A fighter under the d20 Stats and Rules Taxonomy (`[fighters.NAME]`).
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct FighterSpec {
        /// A built-in species or an inline table `{ def, mv, hd, size, attacks, playable }`.
        #[serde(default = "human")]
        species: SpeciesSpec, inline => (
            "\"human\"",
            "human, dwarf, elf, bug bear, goblin («Sample Creatures»), or { def, mv, hd (0.5 steps), size, attacks = [{ name, damage = \"1d4\", damage_type }, …] (claw/claw/bite), playable }",
        ),
        /// A built-in class or an inline class table; none = an unclassed creature.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        class: Option<ClassSpec>, inline => (
            "none",
            "fighter, 80/20, 50/50, 20/80, magic-user (levels 1–6, literal tables), or { hp_base, bth = [per level], mp = [per level] }",
        ),
        /// Class level, 0–10 (0 without a class).
        #[serde(default, deserialize_with = "de_range::<_, 0, 10>")]
        level: i32 => (
            "0",
            "class level 1–6 (0 without a class)",
        ),
        /// Strength 1–19 (weapons: to hit and damage).
        #[serde(
            rename = "str",
            alias = "strength",
            default = "ten",
            deserialize_with = "de_range::<_, 1, 19>"
        )]
        strength: i32 as "str" => (
            "10",
            "Strength 1–19: to hit and damage with weapons (modifier −4…+4)",
        ),
        /// Intelligence 1–19 (devices, crossbows).
        #[serde(
            rename = "int",
            alias = "intelligence",
            default = "ten",
            deserialize_with = "de_range::<_, 1, 19>"
        )]
        intelligence: i32 as "int" => (
            "10",
            "Intelligence 1–19: to hit and damage with crossbows (devices)",
        ),
        /// Wisdom 1–19 (Magic Points).
        #[serde(
            rename = "wis",
            alias = "wisdom",
            default = "ten",
            deserialize_with = "de_range::<_, 1, 19>"
        )]
        wisdom: i32 as "wis" => (
            "10",
            "Wisdom 1–19: MPs + 2 × modifier, once",
        ),
        /// Constitution 1–19 (Hit Points).
        #[serde(
            rename = "con",
            alias = "constitution",
            default = "ten",
            deserialize_with = "de_range::<_, 1, 19>"
        )]
        constitution: i32 as "con" => (
            "10",
            "Constitution 1–19: HP modifier per Hit Die and per class level",
        ),
        /// Dexterity 1–19 (Defense, Movement).
        #[serde(
            rename = "dex",
            alias = "dexterity",
            default = "ten",
            deserialize_with = "de_range::<_, 1, 19>"
        )]
        dexterity: i32 as "dex" => (
            "10",
            "Dexterity 1–19: Defense and Movement (never to hit)",
        ),
        /// Charisma 1–19 (spells).
        #[serde(
            rename = "chr",
            alias = "charisma",
            alias = "cha",
            default = "ten",
            deserialize_with = "de_range::<_, 1, 19>"
        )]
        charisma: i32 as "chr" => (
            "10",
            "Charisma 1–19: spells to hit and damage",
        ),
        /// The primary weapon; none = the species' natural attack sequence.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<WeaponSpec>, inline => (
            "none (natural attacks)",
            "dagger, short sword, hand axe, club (light); long sword, mace, morning star, spear, battle axe (medium); two-handed sword, great axe, halberd (heavy); javelin, sling, short bow, long bow, crossbow; or { class, damage = \"2d4\", to_hit, damage_bonus, used_as, reach = 1 (Mv units, G-22), damage_type (default the fighter's) }",
        ),
        /// A light weapon in the secondary hand (extra attack under `offhand_attack`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        offhand: Option<WeaponSpec>, inline => (
            "none",
            "a light weapon in the secondary hand (an extra attack only with offhand_attack)",
        ),
        /// A melee weapon carried beside a missile weapon, used once engaged
        /// (`engaged_missile = "melee"`) or once the thrown supply is gone.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        melee_weapon: Option<WeaponSpec>, inline => (
            "none",
            "a melee weapon (light, medium or heavy) carried beside a missile weapon: used once engaged (engaged_missile = \"melee\") or when the thrown supply runs out; no shield with a heavy one",
        ),
        /// Thrown weapons carried (G-21 `thrown_supply`); none = unlimited.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "de_opt_supply"
        )]
        thrown_supply: Option<i32> => (
            "unlimited",
            "G-21: thrown weapons carried, 1–20, one spent per throw; then the melee_weapon (closing in), or no attack",
        ),
        /// Body armour: a built-in name or `{ btd, ptm }`.
        #[serde(default = "no_armor", alias = "armour")]
        armor: ArmorSpec, inline => (
            "\"none\"",
            "none, padded, hide, leather, studded leather, scale mail, ring mail, chain mail, banded mail, plate mail, or { btd 0–10, ptm \"0\"…\"2/3\" }",
        ),
        /// Shield: a built-in name or `{ btd, ptm }`.
        #[serde(default = "no_shield")]
        shield: ShieldSpec, inline => (
            "\"none\"",
            "none, small shield (buckler), medium shield, large shield, or { btd, ptm }; not with two-handed weapons",
        ),
        /// Fixed starting HP instead of rolling, 1–1000.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "de_opt_hp"
        )]
        hp: Option<i32> => (
            "rolled",
            "fixed starting HP 1–1000 instead of rolling",
        ),
        /// Number of identical creatures on this side, 1–8 (digest §7.9(c); a side holds at
        /// most eight creatures in all).
        #[serde(default = "one", deserialize_with = "de_range::<_, 1, 8>")]
        count: i32 => (
            "1",
            "identical creatures on this side, 1–8 (a side holds at most eight in all; whom each attacks: `target`); a scenario's side may also be written as a list of members, b = [{ fighter = \"goblin\", count = 2 }]",
        ),
        /// Whom the creature attacks among the foes it may attack (shared group targeting).
        #[serde(default, skip_serializing_if = "is_lowest_hp")]
        target: crate::group::Target => (
            "\"lowest_hp\"",
            "whom it attacks among the foes able when its group starts (G-18): \"lowest_hp\" (the digest's AI) | \"highest_hp\" | \"most_wounded\" (most HP lost) | \"most_dangerous\" (most expected damage per round) | \"easiest_to_hit\" (lowest Defense) | \"random\" (one die) | \"first\"; ties go to the lowest HP, then the first",
        ),
        /// Kind of damage the fighter's attacks deal when the weapon or natural attack gives
        /// none («Damage and Death»).
        #[serde(default)]
        damage_type: DamageKind => (
            "\"lethal\"",
            "\"lethal\" | \"nonlethal\" (tallied, out when the tally exceeds current HP) | \"non_regenerative\" (fire) | \"crippling\" (lowers maximum HP); for every attack whose weapon, natural attack or spell gives no damage_type of its own",
        ),
        /// The creature regenerates («Damage and Death §5»).
        #[serde(default)]
        regenerates: bool => (
            "false",
            "lethal damage is tallied like non-lethal (out, 'dead' until the situation ends, when the tally exceeds HP); non-lethal ignored («Damage and Death §5»)",
        ),
        /// Resistance to weapon damage («Resistance Check»), none if absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resistance: Option<Prof> => (
            "none",
            "resistance to weapon damage: \"--\" | \"-\" | \"#\" | \"+\" | \"++\" (a d20 per hit, «Resistance Check»)",
        ),
        /// Resistance to magic.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        magic_resistance: Option<Prof> => (
            "none",
            "resistance to spells, same levels",
        ),
        /// Weapon proficiency (to hit only under `proficiency_to_hit`).
        #[serde(default)]
        proficiency: Prof => (
            "\"#\"",
            "weapon proficiency --, -, #, +, ++ (to hit only with proficiency_to_hit)",
        ),
        /// Known spells (G-25), cast from Magic Points.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        spells: Vec<SpellSpec> => (
            "[]",
            "G-25 spells [{ name, damage = HP units, bth = +1 BtH units, damage_type = \"lethal\" | \"nonlethal\" | … }]; cost units + surcharges; total cost ≤ MPs (classed races only)",
        ),
        /// «Order of Combat §1.2»: the special ability to charge (G-23).
        #[serde(default, skip_serializing_if = "is_false")]
        charge: bool => (
            "false",
            "«Order of Combat §1.2» special ability to charge (G-23): at a distance it can cover (distance − Mv ≤ reach) it attacks in the Missile segment instead of closing; the charge replaces the round's melee attack",
        ),
        /// «Order of Combat §1.2.2»: a set-vs-charge defense (return attack simultaneous with the
        /// charge; negates hit-and-run).
        #[serde(default, skip_serializing_if = "is_false")]
        set_vs_charge: bool => (
            "false",
            "«Order of Combat §1.2.2» set-vs-charge defense: the return attack is simultaneous with the charge and hit-and-run is negated (else it comes right after the charge)",
        ),
        /// «Order of Combat §1.2.1»: a charge is meant as hit-and-run.
        #[serde(default, skip_serializing_if = "is_false")]
        hit_and_run: bool => (
            "false",
            "«Order of Combat §1.2.1» charges as hit-and-run: if Mv > 2 × the defender's reach and the defender is not set, no return attack and the charger ends at its distance",
        ),
        /// G-24: when the creature retreats («Order of Combat §3»).
        #[serde(default, skip_serializing_if = "is_never")]
        retreat: RetreatPolicy => (
            "\"never\"",
            "G-24 retreat policy: \"never\" | \"at_hp_fraction\" (retreats once current HP ≤ retreat_hp_fraction × maximum HP, until caught once; each copy of a band by its own HP; an escaped creature leaves the field alive, not down)",
        ),
        /// G-24: `retreat = "at_hp_fraction"` retreats when current HP ≤ this × maximum HP.
        #[serde(default = "quarter", skip_serializing_if = "is_quarter")]
        retreat_hp_fraction: f64 => (
            "0.25",
            "G-24: the HP fraction 0–1 for retreat = \"at_hp_fraction\"",
        ),
    }
    requires = FIGHTER_REQUIRES;
}

/// The fighter fields read only with an option ("only with …" in `oddsmith rulesets d20`),
/// checked for every file by the loader.
pub const FIGHTER_REQUIRES: &[Requires] = &[
    warn(
        "offhand",
        &[cond("options.offhand_attack", Is::OneOf(&["true"]))],
        "G-20: the light weapon in the secondary hand gives its extra attack only with the option offhand_attack = true; without it the weapon does nothing",
    ),
];

fn is_false(v: &bool) -> bool {
    !*v
}
fn is_lowest_hp(v: &crate::group::Target) -> bool {
    *v == crate::group::Target::LowestHp
}
fn is_never(v: &RetreatPolicy) -> bool {
    *v == RetreatPolicy::Never
}
fn quarter() -> f64 {
    0.25
}
fn is_quarter(v: &f64) -> bool {
    *v == 0.25
}

/// G-24: the retreat policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetreatPolicy {
    /// Never retreats (the digest's default AI).
    #[default]
    Never,
    /// Retreats once current HP ≤ `retreat_hp_fraction` × maximum HP (until caught once).
    AtHpFraction,
}

fn ten() -> i32 {
    10
}

fn one() -> i32 {
    1
}

fn de_opt_supply<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i32>, D::Error> {
    de_range::<_, 1, 20>(d).map(Some)
}

fn de_opt_hp<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i32>, D::Error> {
    de_range::<_, 1, 1000>(d).map(Some)
}

fn human() -> SpeciesSpec {
    SpeciesSpec {
        stats: tables::species("human").expect("built in"),
        builtin: true,
    }
}

fn no_armor() -> ArmorSpec {
    ArmorSpec {
        stats: tables::armor_in(tables::ARMORS, "none").expect("built in"),
        builtin: true,
    }
}

fn no_shield() -> ShieldSpec {
    ShieldSpec {
        stats: ShieldStats(tables::armor_in(tables::SHIELDS, "none").expect("built in")),
        builtin: true,
    }
}

/// Damage kinds («Damage and Death §1–5»).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum DamageKind {
    /// Weapon damage: lowers current HPs.
    #[default]
    Lethal,
    /// Stun, ensnare, fear…: tallied; out when the tally exceeds current HPs.
    Nonlethal,
    /// Fire and the like: lethal even to regenerators.
    NonRegenerative,
    /// Lowers maximum HPs (permanent injury).
    Crippling,
}

/// A spell (digest G-25): `damage` HP units and/or `bth` +1 BtH units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellSpec {
    /// Name shown in reports.
    #[serde(default)]
    pub name: String,
    /// HP units: fixed lethal damage (+ Chr modifier) on a hit, 0–100.
    #[serde(default, deserialize_with = "de_range::<_, 0, 100>")]
    pub damage: i32,
    /// BtH units: a lasting +k to hit for the caster, 0–20.
    #[serde(default, deserialize_with = "de_range::<_, 0, 20>")]
    pub bth: i32,
    /// Kind of the damage («Damage and Death»), lethal by default.
    #[serde(default, skip_serializing_if = "is_lethal")]
    pub damage_type: DamageKind,
}

fn is_lethal(v: &DamageKind) -> bool {
    *v == DamageKind::Lethal
}

/// A species entry.
pub type SpeciesSpec = Entry<SpeciesStats>;
/// A class entry.
pub type ClassSpec = Entry<ClassStats>;
/// A weapon entry.
pub type WeaponSpec = Entry<WeaponStats>;
/// An armour entry.
pub type ArmorSpec = Entry<ArmorStats>;
/// A shield entry.
pub type ShieldSpec = Entry<ShieldStats>;

/// Shield statistics (the armour fields, looked up in the shield table).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct ShieldStats(pub ArmorStats);

impl Named for ShieldStats {
    fn name(&self) -> &str {
        &self.0.name
    }
}

impl Builtin for SpeciesStats {
    type Stats = SpeciesStats;
    const WHAT: &'static str = "species";
    const EXPECTING: &'static str = "a species name (e.g. \"human\") or a table { def, mv, hd, size }";
    fn by_name(v: &str) -> Result<Self, String> {
        tables::species(v).ok_or_else(|| {
            let names: Vec<_> = tables::SPECIES.iter().map(|s| s.0).collect();
            let hint = " (or a table { def = 10, mv = 12, hd = 1, size = \"medium\" })";
            unknown("species", v, "built-in species", &names.join(", "), hint)
        })
    }
    fn names() -> Vec<&'static str> {
        tables::SPECIES.iter().map(|s| s.0).collect()
    }
    fn base(name: &str) -> Option<Result<SpeciesStats, String>> {
        tables::species(name).map(Ok)
    }
    fn from_stats(stats: SpeciesStats) -> Self {
        stats
    }
}

impl Builtin for ClassStats {
    type Stats = ClassStats;
    const WHAT: &'static str = "class";
    const EXPECTING: &'static str = "a class name (e.g. \"fighter\") or a table { hp_base, bth, mp }";
    fn by_name(v: &str) -> Result<Self, String> {
        tables::class(v).ok_or_else(|| {
            let names: Vec<_> = tables::CLASSES.iter().map(|c| c.0).collect();
            let hint = " (or a table { hp_base, bth = [..], mp = [..] })";
            unknown("class", v, "built-in classes", &names.join(", "), hint)
        })
    }
    fn names() -> Vec<&'static str> {
        tables::CLASSES.iter().map(|c| c.0).collect()
    }
    fn base(name: &str) -> Option<Result<ClassStats, String>> {
        tables::class(name).map(Ok)
    }
    fn from_stats(stats: ClassStats) -> Self {
        stats
    }
}

impl Builtin for WeaponStats {
    type Stats = WeaponStats;
    const WHAT: &'static str = "weapon";
    const EXPECTING: &'static str = "a weapon name (e.g. \"long sword\") or a table { class, damage, to_hit }";
    fn by_name(v: &str) -> Result<Self, String> {
        tables::weapon(v).ok_or_else(|| {
            let names: Vec<_> = tables::WEAPONS.iter().map(|w| w.0).collect();
            let hint = " (or a table { class = \"medium\" })";
            unknown("weapon", v, "built-in weapons", &names.join(", "), hint)
        })
    }
    fn names() -> Vec<&'static str> {
        tables::WEAPONS.iter().map(|w| w.0).collect()
    }
    fn base(name: &str) -> Option<Result<WeaponStats, String>> {
        tables::weapon(name).map(Ok)
    }
    fn from_stats(stats: WeaponStats) -> Self {
        stats
    }
}

fn table_names(t: &[(&str, i32, i32)]) -> String {
    t.iter().map(|a| a.0).collect::<Vec<_>>().join(", ")
}

impl Builtin for ArmorStats {
    type Stats = ArmorStats;
    const WHAT: &'static str = "armour";
    const EXPECTING: &'static str = "an armour name (e.g. \"chain mail\") or a table { btd, ptm }";
    fn by_name(v: &str) -> Result<Self, String> {
        tables::armor_in(tables::ARMORS, v).ok_or_else(|| {
            let hint = " (or a table { btd = 4, ptm = \"1/3\" })";
            unknown("armour", v, "expected one of", &table_names(tables::ARMORS), hint)
        })
    }
    fn names() -> Vec<&'static str> {
        tables::ARMORS.iter().map(|a| a.0).collect()
    }
    fn base(name: &str) -> Option<Result<ArmorStats, String>> {
        tables::armor_in(tables::ARMORS, name).map(Ok)
    }
    fn from_stats(stats: ArmorStats) -> Self {
        stats
    }
}

impl Builtin for ShieldStats {
    type Stats = ArmorStats;
    const WHAT: &'static str = "shield";
    const EXPECTING: &'static str = "a shield name (e.g. \"medium shield\") or a table { btd, ptm }";
    fn by_name(v: &str) -> Result<Self, String> {
        let n = normalise(v);
        let n = if n.ends_with("shield") || n == "none" || n == "buckler" {
            n
        } else {
            format!("{n} shield")
        };
        tables::armor_in(tables::SHIELDS, &n)
            .map(ShieldStats)
            .ok_or_else(|| {
                let hint = " (or a table { btd = 2, ptm = \"1/6\" })";
                unknown("shield", v, "expected one of", &table_names(tables::SHIELDS), hint)
            })
    }
    fn names() -> Vec<&'static str> {
        tables::SHIELDS.iter().map(|a| a.0).collect()
    }
    fn base(name: &str) -> Option<Result<ArmorStats, String>> {
        Self::by_name(name).ok().map(|s| Ok(s.0))
    }
    fn from_stats(mut stats: ArmorStats) -> Self {
        if stats.name == "custom armour" {
            stats.name = "custom shield".into();
        }
        ShieldStats(stats)
    }
}
