//! An Open RPG fighter as written in a scenario file, with its weapon and armour (a built-in
//! name or an inline table) and the player's choices (digest §6.1 policies).

use serde::{Deserialize, Serialize};

use crate::fields::{Builtin, Entry, de_range, unknown};
use crate::info::{Cond, Is, Requires, cond, warn};

crate::spec! {
    /// A fighter under `[fighters.NAME]`.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct FighterSpec {
        /// Combat base: the required roll to hit this fighter is 5 × it (§Accuracy), and the attack
        /// roll of a fighter without the weapon's proficiency (§Rate).
        #[serde(default = "five", deserialize_with = "de_range::<_, 0, 30>")]
        combat_base: i32 => (
            "5",
            "combat base 0–30: required roll to hit = 5 × it (§Accuracy); rolled when not proficient (§Rate)",
        ),
        /// The weapon's subskill (melee, missile weapons or brawling), rolled when `proficient`.
        #[serde(default = "eight", deserialize_with = "de_range::<_, 0, 30>")]
        skill: i32 => (
            "8",
            "the weapon's subskill (melee, missile weapons or brawling) 0–30, rolled as skill_roll when proficient",
        ),
        /// Holds the weapon proficiency discipline (else the combat base is rolled).
        #[serde(default = "yes")]
        proficient: bool => (
            "true",
            "holds the weapon proficiency discipline (else the combat base is rolled, §Rate)",
        ),
        /// Strength: S d4 in `str` damage and in defense (§Damage, §Defense).
        #[serde(default = "three", deserialize_with = "de_range::<_, 0, 30>")]
        strength: i32 => (
            "3",
            "strength 0–30: S d4 in str damage and in defense (§Damage, §Defense)",
        ),
        /// Agility subskill: initiative and dodge rolls.
        #[serde(default = "six", deserialize_with = "de_range::<_, 0, 30>")]
        agility: i32 => (
            "6",
            "agility subskill 0–30: initiative roll (§2.3) and dodge roll (legacy Dodge-)",
        ),
        /// Health (G3: not in the excerpt); out at 0 or less.
        #[serde(default = "hundred", deserialize_with = "de_range::<_, 1, 10000>")]
        health: i32 => (
            "100",
            "health 1–10000 (G3, not in the excerpt); out at 0 or less", invented (50, 200, "G3: the excerpt gives no health; the worked examples' damage (15–40 a blow) makes 100 a few blows"),
        ),
        /// The weapon.
        weapon: Entry<Weapon>, inline => (
            "required",
            "\"longsword\", \"spear\" (reference duel R1), \"bow\" (§Rate: rate 30, fire 1/2) or { name, class = melee|polearm|short|brawling|missile, damage = \"str+22\", rate, cadence (strike 1/M), crit_range, crit_effect = \"x2\"|\"+5\", length (inches), carries_initiative }",
        ),
        /// The armour (default none: defense is the strength roll alone).
        #[serde(default = "no_armor")]
        armor: Entry<Armor>, inline => (
            "\"none\"",
            "\"none\", \"mail\" (20, 25 %), \"brigandine\" (30, 25 %) or { name, defense, dr (percent), uncovered = [locations], agility_penalty }",
        ),
        /// Shield block chance in percent (0 = no shield), §Avoiding Damage.
        #[serde(default, deserialize_with = "de_range::<_, 0, 100>")]
        shield: i32 => (
            "0",
            "shield block chance in percent per blow, 0–100 (§Avoiding Damage)",
        ),
        /// Holds the dodge discipline.
        #[serde(default)]
        dodge: bool => (
            "false",
            "holds the dodge discipline (legacy Dodge-)",
        ),
        /// Readiness at the start: ambush rules (§2.3 "What about ambushes?").
        #[serde(default)]
        state: Readiness => (
            "\"ready\"",
            "\"ready\" | \"caught_off_guard\" | \"flat_footed\" (§2.3 ambushes)",
        ),
        /// Mounted (§Mounted).
        #[serde(default)]
        mounted: bool => (
            "false",
            "mounted: melee against the rider deals half after defense; the rider's missiles have half accuracy (§Mounted)",
        ),
        /// Policy: target a location or not (§6.1).
        #[serde(default)]
        target: Target => (
            "\"opportune\"",
            "policy: \"opportune\" (never target) | chest | limb | joints | head | neck | eyes | \"best_ev\" (highest expected damage, limbs excluded)",
        ),
        /// Policy: how big a dodge (§6.1).
        #[serde(default)]
        dodge_size: DodgeSize => (
            "\"half\"",
            "policy: \"half\" (keep the turn) | \"full\" (lose the next turn) | \"minimal_sufficient\" | \"none\"",
        ),
        /// Policy: shield or dodge against each attack (§Avoiding Damage: one method per attack).
        #[serde(default)]
        defence: Defence => (
            "\"best\"",
            "policy when holding a shield and the dodge (§Avoiding Damage 'only one method for each attack'): \"best\" (per attack roll, the method more likely to stop a blow; the shield on a tie) | \"shield\" | \"dodge\"",
        ),
        /// Policy: waiting (§2.3 "Characters may choose to wait").
        #[serde(default)]
        wait: Wait => (
            "\"never\"",
            "policy: \"never\" | \"when_first\" (hold the turn and act after the opponent)",
        ),
    }
    requires = FIGHTER_REQUIRES;
}

const fn on(field: &'static str, is: Is) -> [Cond; 1] {
    [cond(field, is)]
}

/// The fighter fields read only with another field ("only with …" in `oddsmith rulesets
/// openrpg`), checked for every file by the loader.
pub const FIGHTER_REQUIRES: &[Requires] = &[
    warn("dodge_size", &on("dodge", Is::OneOf(&["true"])), "only a fighter with the dodge discipline dodges"),
    warn(
        "skill",
        &on("proficient", Is::OneOf(&["true"])),
        "without the proficiency the combat base is rolled instead (§Rate)",
    ),
];

fn five() -> i32 {
    5
}
fn eight() -> i32 {
    8
}
fn yes() -> bool {
    true
}
fn three() -> i32 {
    3
}
fn six() -> i32 {
    6
}
fn hundred() -> i32 {
    100
}
fn no_armor() -> Entry<Armor> {
    Entry {
        stats: Armor::by_name("none").expect("built-in"),
        builtin: true,
    }
}

/// Readiness when the fight starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Readiness {
    /// Ready.
    #[default]
    Ready,
    /// Caught off guard: last in round 1 (legacy: no action in round 1).
    CaughtOffGuard,
    /// Flat footed: no action in round 1, last in round 2, defenseless until the first turn.
    FlatFooted,
}

/// A hit location (§Targeted Attacks table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// Chest: +3, strength defense −0 %.
    Chest,
    /// Limb: +5, −25 %, not lethal.
    Limb,
    /// Joints: +7, −35 %, armour penetration.
    Joints,
    /// Head: +10, −50 %.
    Head,
    /// Neck: +15, −75 %.
    Neck,
    /// Eyes, ears, etc.: +25, −100 %.
    Eyes,
}

impl Location {
    /// Every location, in the table's order.
    pub const ALL: [Location; 6] = [
        Location::Chest,
        Location::Limb,
        Location::Joints,
        Location::Head,
        Location::Neck,
        Location::Eyes,
    ];
    /// Required accuracy added (§Targeted Attacks "Required Accuracy").
    pub fn accuracy(self) -> i32 {
        [3, 5, 7, 10, 15, 25][self as usize]
    }
    /// Strength defense reduction in percent.
    pub fn strength_reduction(self) -> i32 {
        [0, 25, 35, 50, 75, 100][self as usize]
    }
}

/// Which location to aim at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// Never target ("the most opportune location").
    #[default]
    Opportune,
    /// Always the chest.
    Chest,
    /// Always a limb.
    Limb,
    /// Always the joints.
    Joints,
    /// Always the head.
    Head,
    /// Always the neck.
    Neck,
    /// Always the eyes.
    Eyes,
    /// The choice (or none) with the highest expected damage against this defender, limbs
    /// excluded.
    BestEv,
}

/// How much of the agility roll a dodge uses (legacy `Dodge-`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DodgeSize {
    /// Sidestep: half the roll (rounded up), keep the next turn.
    #[default]
    Half,
    /// Throw oneself aside: the full roll, lose the next turn.
    Full,
    /// Half if that avoids the blow, else full if that does, else half.
    MinimalSufficient,
    /// Never dodge.
    None,
}

/// Which avoidance method a fighter holding both a shield and the dodge uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Defence {
    /// Per attack roll, the method with the higher chance of stopping a blow (shield on ties).
    #[default]
    Best,
    /// Always the shield.
    Shield,
    /// Always the dodge.
    Dodge,
}

/// Whether to hold one's turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wait {
    /// Act when one's turn comes.
    #[default]
    Never,
    /// When acting first in a round, wait and act after the opponent.
    WhenFirst,
}

/// Weapon class: subskill, initiative level and mounted rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponClass {
    /// A melee weapon.
    #[default]
    Melee,
    /// A polearm (melee).
    Polearm,
    /// A short weapon (melee; legacy level 5).
    Short,
    /// Brawling (legacy level 5).
    Brawling,
    /// A missile weapon (half accuracy when mounted; not halved against a rider).
    Missile,
}

crate::inline! {
    /// A weapon's statistics.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct Weapon / WeaponTable {
        /// Name in reports.
        name: String = "custom weapon".into() => (
            "\"custom weapon\"",
            "name in reports; a built-in's name (\"longsword\", \"spear\") makes the table that weapon with the given fields changed",
        ),
        /// Class.
        class: WeaponClass = WeaponClass::Melee => (
            "\"melee\"",
            "melee | polearm | short | brawling | missile: subskill, initiative level and mounted rules",
        ),
        /// Damage expression, e.g. `str+22` or `2d10+5` (`str` = the wielder's strength).
        damage: String => (
            "required",
            "damage expression, e.g. \"str+22\" or \"2d10+5\" (str = the wielder's strength, §Damage)",
        ),
        /// Rate: blows = roll ÷ rate (round down) + 1; 0 = no rate (one blow).
        rate: i32 = 0, in 0..=1000 => (
            "0",
            "rate 0–1000: blows = attack roll ÷ rate (round down) + 1; 0 = one blow (§Rate)",
        ),
        /// Cadence M of "strike 1/M" / "fire 1/M": M − 1 recovery rounds after an attack.
        cadence: i32 = 1, in 1..=10 => (
            "1",
            "cadence M of \"strike 1/M\" / \"fire 1/M\", 1–10: M − 1 recovery rounds after an attack",
        ),
        /// Critical range (d20 ≤ it under `at_most`, ≥ it under `at_least` unless
        /// `legacy_crit_range` is given).
        crit_range: i32 = 0, in 0..=20 => (
            "0",
            "critical range 0–20, read by the crit test in force: d20 ≤ it (primary §Damage, crit_rule = \"at_most\"), d20 ≥ it (legacy #### Damage, \"at_least\") unless legacy_crit_range is given; 0 = no critical",
        ),
        /// The range under the legacy test (d20 ≥ it), if it differs from `crit_range`.
        legacy_crit_range: Option<i32> = None, with de_legacy_crit => (
            "none (crit_range as written)",
            "critical range 1–20 under the legacy test (d20 ≥ it), used instead of crit_range whenever crits are d20 ≥ range; the built-ins give it (the longsword 3 / 17 as the seed's two examples, others 21 − r)",
        ),
        /// Critical effect: `x2` ("Damage x 2") or `+5` ("+5 Damage").
        crit_effect: String = "x2".into() => (
            "\"x2\"",
            "critical effect: \"x2\" (Damage x 2) or \"+N\" (+N Damage)",
        ),
        /// Length in inches, added to the initiative roll.
        length: i32 = 0, in 0..=100000 => (
            "0",
            "length in inches, added to the initiative roll (§2.3)",
        ),
        /// Carries initiative (legacy priority level 3).
        carries_initiative: bool = false => (
            "false",
            "carries initiative (legacy priority level 3)",
        ),
    }
}

/// Where a built-in weapon's or armour's numbers come from: the seed ("Open RPG 2.3 Combat
/// Rules") or not (the project's digest, for the reference duel), for `--equipment` and the
/// docs.
pub fn builtin_source(name: &str) -> &'static str {
    match name {
        "longsword" => {
            "seed: the §Damage example weapon (Str+22, crit 3 / legacy 17, Damage x 2) and the §Rate example's rate 25; the name and length 40 in are not in the seed"
        }
        "spear" => "not in the seed (the digest's reference duel R1)",
        "bow" => {
            "seed: the §Rate example bow (rate 30, fire 1/2); damage 2d10+20, crit 2 (legacy 19) x2 and length 40 in are not in the seed"
        }
        "none" => "seed: §Defense 'a defense equal to their strength'",
        "mail" => "not in the seed (the digest's reference duel R1)",
        "brigandine" => {
            "seed: the §Defense example (defense 30, DR 25 %); the name is not in the seed"
        }
        _ => "",
    }
}

/// The built-in weapons' and armour's statistics the seed does not give ([`builtin_source`]):
/// each with a plausible range, for `oddsmith rulesets openrpg --equipment`, the report's "In
/// short" and the readings study (which writes each end as the inline table `weapon = { name =
/// "bow", damage = "2d10+10" }`).
pub const PLACEHOLDERS: &[crate::Placeholder] = &[
    crate::info::placeholder("longsword", "length", "40", "30", "50", "§2.3 initiative adds the weapon's length in inches; the seed gives the longsword none"),
    crate::info::placeholder("spear", "damage", "\"2d10+20\"", "\"2d10+10\"", "\"2d10+30\"", "the spear is the digest's reference duel R1, not the seed's"),
    crate::info::placeholder("spear", "rate", "30", "25", "35", "the spear is the digest's reference duel R1; the seed's example rates are 25 and 30"),
    crate::info::placeholder("spear", "crit_range", "2", "1", "3", "the spear is the digest's reference duel R1; the seed's longsword has 3"),
    crate::info::placeholder("spear", "crit_effect", "\"+5\"", "\"+5\"", "\"x2\"", "the spear is the digest's reference duel R1; §Damage names both effects"),
    crate::info::placeholder("spear", "length", "60", "40", "80", "the spear is the digest's reference duel R1; a polearm outreaches the longsword"),
    crate::info::placeholder("bow", "damage", "\"2d10+20\"", "\"2d10+10\"", "\"2d10+30\"", "§Rate gives the bow's rate and fire 1/2, not its damage"),
    crate::info::placeholder("bow", "crit_range", "2", "1", "3", "§Rate gives the bow's rate and fire 1/2, not its critical range"),
    crate::info::placeholder("bow", "crit_effect", "\"x2\"", "\"+5\"", "\"x2\"", "§Rate gives the bow's rate and fire 1/2, not its critical effect"),
    crate::info::placeholder("bow", "length", "40", "20", "60", "§2.3 initiative adds the weapon's length in inches; the seed gives the bow none"),
    crate::info::placeholder("mail", "defense", "20", "10", "30", "the digest's reference duel R1; the seed's one example armour has defense 30"),
    crate::info::placeholder("mail", "dr", "25", "15", "35", "the digest's reference duel R1; the seed's one example armour has DR 25 %"),
];

/// Reads `legacy_crit_range` (1–20).
fn de_legacy_crit<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i32>, D::Error> {
    crate::fields::de_opt_range::<D, 1, 20>(d)
}

/// Built-in weapons: the digest's reference duel R1 (the excerpt lists no weapons). Each
/// carries its critical range under both drafts' tests: the longsword is the seed's worked
/// example weapon (Str+22, Damage x 2: range 3 under §Damage's d20 ≤, 17 under legacy
/// `#### Damage`'s d20 ≥); the spear's 2 is converted (21 − r = 19). The bow is §Rate's
/// example (rate 30, fire 1/2); its damage, crit and length are not in the seed.
pub fn builtin_weapons() -> Vec<Weapon> {
    let w = |name: &str, class, damage: &str, rate, (crit_range, legacy), crit_effect: &str, length| {
        Weapon {
            name: name.into(),
            class,
            damage: damage.into(),
            rate,
            cadence: 1,
            crit_range,
            legacy_crit_range: Some(legacy),
            crit_effect: crit_effect.into(),
            length,
            carries_initiative: false,
        }
    };
    vec![
        w("longsword", WeaponClass::Melee, "str+22", 25, (3, 17), "x2", 40),
        w("spear", WeaponClass::Polearm, "2d10+20", 30, (2, 19), "+5", 60),
        Weapon {
            cadence: 2,
            ..w("bow", WeaponClass::Missile, "2d10+20", 30, (2, 19), "x2", 40)
        },
    ]
}

impl Builtin for Weapon {
    type Stats = Weapon;
    const WHAT: &'static str = "weapon";
    const EXPECTING: &'static str =
        "a weapon name (\"longsword\", \"spear\", \"bow\") or a table { damage, rate, crit_range, … }";
    fn by_name(v: &str) -> Result<Self, String> {
        let all = builtin_weapons();
        let names: Vec<String> = all.iter().map(|w| w.name.clone()).collect();
        all.into_iter().find(|w| w.name == v).ok_or_else(|| {
            unknown(
                "weapon",
                v,
                "built-in weapons",
                &names.join(", "),
                " (or a table { damage = \"2d10+5\", rate = 30 })",
            )
        })
    }
    fn names() -> Vec<&'static str> {
        vec!["longsword", "spear", "bow"]
    }
    fn base(name: &str) -> Option<Result<Weapon, String>> {
        Self::by_name(name).ok().map(Ok)
    }
    fn from_stats(w: Weapon) -> Self {
        w
    }
}

crate::inline! {
    /// An armour's statistics (§Defense).
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct Armor / ArmorTable {
        /// Name in reports.
        name: String = "custom armour".into() => (
            "\"custom armour\"",
            "name in reports; a built-in's name (\"none\", \"mail\", \"brigandine\") makes the table that armour with the given fields changed",
        ),
        /// Flat defense (added to the wearer's strength roll).
        defense: i32, in 0..=10000 => (
            "required",
            "flat defense 0–10000, added to the wearer's strength roll (§Defense)",
        ),
        /// Damage reduction in percent.
        dr: i32, in 0..=100 => (
            "required",
            "damage reduction in percent, 0–100 (§Defense)",
        ),
        /// Locations the armour leaves bare (G17), e.g. `["head", "neck", "eyes"]`.
        uncovered: Vec<Location> = Vec::new() => (
            "[]",
            "locations the armour leaves bare (G17), e.g. [\"head\", \"neck\", \"eyes\"]",
        ),
        /// Agility dice lost for dodging (legacy `Dodge-`: "Armor weighs characters down").
        agility_penalty: i32 = 0, in 0..=30 => (
            "0",
            "agility dice lost for dodging, 0–30 (legacy Dodge-: \"Armor weighs characters down\")",
        ),
    }
}

/// The built-in armours (for `oddsmith rulesets openrpg --equipment`).
pub fn builtin_armors() -> Vec<Armor> {
    let a = |name: &str, defense, dr| Armor {
        name: name.into(),
        defense,
        dr,
        uncovered: Vec::new(),
        agility_penalty: 0,
    };
    vec![a("none", 0, 0), a("mail", 20, 25), a("brigandine", 30, 25)]
}

impl Builtin for Armor {
    type Stats = Armor;
    const WHAT: &'static str = "armour";
    const EXPECTING: &'static str =
        "an armour name (\"none\", \"mail\", \"brigandine\") or a table { defense, dr }";
    fn by_name(v: &str) -> Result<Self, String> {
        let all = builtin_armors();
        let names: Vec<String> = all.iter().map(|a| a.name.clone()).collect();
        all.into_iter().find(|a| a.name == v).ok_or_else(|| {
            unknown(
                "armour",
                v,
                "built-in armours",
                &names.join(", "),
                " (or a table { defense = 30, dr = 25 })",
            )
        })
    }
    fn names() -> Vec<&'static str> {
        vec!["none", "mail", "brigandine"]
    }
    fn base(name: &str) -> Option<Result<Armor, String>> {
        Self::by_name(name).ok().map(Ok)
    }
    fn from_stats(a: Armor) -> Self {
        a
    }
}
