//! The seed's tables: ability modifiers («Modifiers for Standard Ability Values»), sizes (HP
//! die, Death Point, weapon caps), sample creatures, the five class tables, armour and shields,
//! resistance and skill-check bands, and the small dice notation used for natural attacks.

use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

/// Ability modifier for values 1–19 (digest §3.2; antisymmetric about 10).
pub const ABILITY_MOD: [i32; 19] = [
    -4, -3, -2, -2, -1, -1, -1, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4,
];

/// The modifier of an ability value 1–19.
#[inline]
pub fn ability_mod(v: i32) -> i32 {
    ABILITY_MOD[(v.clamp(1, 19) - 1) as usize]
}

/// Size categories («Base Primary Skill Values §1», «Damage and Death §2.3»).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Size {
    /// 6" or less: d2, Death Point −2.
    Diminutive,
    /// 6" to 2': d4, −4.
    Tiny,
    /// 2' to 4': d6, −6.
    Small,
    /// 4' to 7': d8, −8.
    #[default]
    Medium,
    /// 7' to 12': d10, −10.
    Large,
    /// 12' to 25': d12, −12.
    Huge,
    /// 25' or more: d20, −20.
    Gigantic,
}

/// Size names as written in scenario files.
pub const SIZE_NAMES: [&str; 7] = [
    "diminutive",
    "tiny",
    "small",
    "medium",
    "large",
    "huge",
    "gigantic",
];

impl Size {
    /// Every size, smallest first.
    pub const ALL: [Size; 7] = [
        Size::Diminutive,
        Size::Tiny,
        Size::Small,
        Size::Medium,
        Size::Large,
        Size::Huge,
        Size::Gigantic,
    ];
    /// Faces of the die rolled per Hit Die.
    pub fn hp_die(self) -> i32 {
        [2, 4, 6, 8, 10, 12, 20][self as usize]
    }
    /// Death Point: dead at HP ≤ this.
    pub fn death_point(self) -> i32 {
        -self.hp_die()
    }
    /// Melee cap («Weapons §2») for light, medium, heavy.
    pub fn melee_cap(self, class: WeaponClass) -> i32 {
        const T: [[i32; 3]; 7] = [
            [2, 3, 4],
            [3, 4, 6],
            [4, 6, 8],
            [6, 8, 10],
            [8, 10, 12],
            [10, 12, 16],
            [12, 16, 20],
        ];
        const M: [[i32; 4]; 7] = [
            [3, 4, 6, 8],
            [4, 6, 8, 10],
            [6, 8, 10, 12],
            [8, 10, 12, 16],
            [10, 12, 16, 20],
            [12, 16, 20, 24],
            [16, 20, 24, 30],
        ];
        let s = self as usize;
        match class {
            WeaponClass::Light => T[s][0],
            WeaponClass::Medium => T[s][1],
            WeaponClass::Heavy => T[s][2],
            WeaponClass::Thrown => M[s][0],
            WeaponClass::Sling => M[s][1],
            WeaponClass::Bow => M[s][2],
            WeaponClass::Crossbow => M[s][3],
        }
    }
    /// Parses a size name or its initial (D, T, S, M, L, H, G).
    pub fn parse(s: &str) -> Option<Size> {
        let t = s.trim().to_ascii_lowercase();
        SIZE_NAMES
            .iter()
            .position(|n| *n == t || (t.len() == 1 && n.starts_with(&t)))
            .map(|i| Size::ALL[i])
    }
}

impl Serialize for Size {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(SIZE_NAMES[*self as usize])
    }
}

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Size::parse(&s).ok_or_else(|| {
            de::Error::custom(format!(
                "unknown size {s:?}; expected one of: {} (or D, T, S, M, L, H, G)",
                SIZE_NAMES.join(", ")
            ))
        })
    }
}

/// Weapon classes: the three melee classes («Weapons §2») and four missile mechanisms (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponClass {
    /// Light: may go in the secondary hand.
    Light,
    /// Medium: primary hand, with a light weapon or shield in the other.
    Medium,
    /// Heavy: two hands.
    Heavy,
    /// Thrown missiles, 1 per round, Str.
    Thrown,
    /// Sling, 1 per round, Str.
    Sling,
    /// Bow, 2 per round, Str.
    Bow,
    /// Crossbow, 1 per 2 rounds, Int (a device).
    Crossbow,
}

impl WeaponClass {
    /// A missile weapon (acts in the Missile segment).
    pub fn is_missile(self) -> bool {
        matches!(
            self,
            WeaponClass::Thrown | WeaponClass::Sling | WeaponClass::Bow | WeaponClass::Crossbow
        )
    }
}

crate::inline! {
    /// A weapon's statistics (the DM defines weapons, «Weapons §1»: only the class matters).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct WeaponStats / WeaponTable {
        /// Name shown in reports.
        name: String = "custom weapon".into() => (
            "\"custom weapon\"",
            "name in reports; a built-in's name (e.g. \"long sword\") makes the table that weapon with the given fields changed",
        ),
        /// Weapon class (decides the damage cap with the wielder's size).
        class: WeaponClass => (
            "required",
            "light | medium | heavy | thrown | sling | bow | crossbow («Weapons»): decides the damage cap with the wielder's size",
        ),
        /// Dice instead of the default die from the cap, e.g. "2d4" (checked by `enforce_caps`).
        #[serde(skip_serializing_if = "Option::is_none")]
        damage: Option<String> = None => (
            "the class's die",
            "damage dice instead of the die the class and size give, e.g. \"2d4\" (within the cap under enforce_caps)",
        ),
        /// Equipment modifier to hit («Rolling Attacks §1.3»), e.g. +1 for a magic weapon.
        to_hit: i32 = 0, in -10..=10 => (
            "0",
            "equipment modifier to hit −10…10 («Rolling Attacks §1.3»), e.g. +1 for a magic weapon",
        ),
        /// Equipment modifier to damage, added like the ability modifier.
        damage_bonus: i32 = 0, in -10..=10 => (
            "0",
            "equipment modifier to damage −10…10, added like the ability modifier",
        ),
        /// Grip (G-08): a light weapon used as medium, or a medium one two-handed as heavy.
        #[serde(skip_serializing_if = "Option::is_none")]
        used_as: Option<WeaponClass> = None => (
            "its class",
            "grip (G-08): a light weapon used as \"medium\", or a medium one two-handed as \"heavy\"",
        ),
        /// Reach in Mv units (G-22, default 1): engaged once the distance is at most this; a
        /// charger faster than twice the defender's reach may hit and run (G-23).
        #[serde(skip_serializing_if = "is_one")]
        reach: i32 = 1, in 1..=100 => (
            "1",
            "reach in Mv units 1–100 (G-22): engaged once the distance is at most this (1: not in the seed, invented; plausible 1–3)",
        ),
        /// Kind of damage this weapon deals («Damage and Death»); none = the fighter's
        /// `damage_type`.
        #[serde(skip_serializing_if = "Option::is_none")]
        damage_type: Option<super::spec::DamageKind> = None => (
            "the fighter's damage_type",
            "\"lethal\" | \"nonlethal\" | \"non_regenerative\" | \"crippling\" («Damage and Death»)",
        ),
    }
}

fn is_one(v: &i32) -> bool {
    *v == 1
}

/// Built-in weapons: (name, class). Names are labels; the rules know only the class.
pub const WEAPONS: &[(&str, WeaponClass)] = &[
    ("dagger", WeaponClass::Light),
    ("short sword", WeaponClass::Light),
    ("hand axe", WeaponClass::Light),
    ("club", WeaponClass::Light),
    ("long sword", WeaponClass::Medium),
    ("mace", WeaponClass::Medium),
    ("morning star", WeaponClass::Medium),
    ("spear", WeaponClass::Medium),
    ("battle axe", WeaponClass::Medium),
    ("two-handed sword", WeaponClass::Heavy),
    ("great axe", WeaponClass::Heavy),
    ("halberd", WeaponClass::Heavy),
    ("javelin", WeaponClass::Thrown),
    ("sling", WeaponClass::Sling),
    ("short bow", WeaponClass::Bow),
    ("long bow", WeaponClass::Bow),
    ("crossbow", WeaponClass::Crossbow),
];

/// Normalises a table name: lower case, `_` as space, single spaces, "armour" → "armor".
pub fn normalise(s: &str) -> String {
    s.trim()
        .to_ascii_lowercase()
        .replace('_', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("armour", "armor")
}

/// A built-in weapon by name.
pub fn weapon(name: &str) -> Option<WeaponStats> {
    let n = normalise(name).replace('-', " ");
    WEAPONS
        .iter()
        .find(|w| w.0.replace('-', " ") == n)
        .map(|&(name, class)| WeaponStats {
            name: name.into(),
            class,
            damage: None,
            to_hit: 0,
            damage_bonus: 0,
            used_as: None,
            reach: 1,
            damage_type: None,
        })
}

crate::inline! {
    /// Armour or shield: Bonus to Defense and Penalty to Movement in sixths («Armor»).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct ArmorStats / ArmorTable {
        /// Name shown in reports.
        name: String = "custom armour".into() => (
            "\"custom armour\" (\"custom shield\")",
            "name in reports; a built-in's name (e.g. \"chain mail\", \"medium shield\") makes the table that armour or shield with the given fields changed",
        ),
        /// Bonus to Defense, 0–10.
        btd: i32, in 0..=10 => (
            "required",
            "Bonus to Defense 0–10 («Armor»)",
        ),
        /// Penalty to Movement, 0 to 2/3 in sixths: "0", "1/6", "1/3", "1/2", "2/3".
        ptm: Ptm = Ptm(0) => (
            "\"0\"",
            "Penalty to Movement \"0\", \"1/6\", \"1/3\", \"1/2\" or \"2/3\" («Armor»)",
        ),
    }
}

/// A Penalty to Movement in sixths (0–4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Ptm(pub i32);

const PTM_NAMES: [&str; 5] = ["0", "1/6", "1/3", "1/2", "2/3"];

impl Serialize for Ptm {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(PTM_NAMES[self.0 as usize])
    }
}

impl<'de> Deserialize<'de> for Ptm {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = Ptm;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a penalty \"0\", \"1/6\", \"1/3\", \"1/2\" or \"2/3\"")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Ptm, E> {
                if v == 0 {
                    Ok(Ptm(0))
                } else {
                    Err(E::custom("a penalty to movement is 0 to 2/3 (in sixths)"))
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Ptm, E> {
                PTM_NAMES
                    .iter()
                    .position(|n| *n == v.trim())
                    .map(|i| Ptm(i as i32))
                    .ok_or_else(|| {
                        E::custom(format!(
                            "unknown penalty {v:?}: expected \"0\", \"1/6\", \"1/3\", \"1/2\" or \"2/3\" (0 to 2/3, «Armor §3»)"
                        ))
                    })
            }
        }
        d.deserialize_any(V)
    }
}

/// Sample armour («Sample Armor»): (name, BtD, PtM sixths).
pub const ARMORS: &[(&str, i32, i32)] = &[
    ("none", 0, 0),
    ("padded", 1, 0),
    ("hide", 1, 0),
    ("leather", 2, 0),
    ("studded leather", 3, 0),
    ("scale mail", 4, 2),
    ("ring mail", 4, 2),
    ("chain mail", 5, 2),
    ("banded mail", 6, 2),
    ("plate mail", 7, 4),
];

/// Sample shields: (name, BtD, PtM sixths).
pub const SHIELDS: &[(&str, i32, i32)] = &[
    ("none", 0, 0),
    ("small shield", 1, 0),
    ("medium shield", 2, 1),
    ("large shield", 3, 2),
];

/// Looks `name` up in an armour or shield table (also "chain" for "chain mail", "buckler").
pub fn armor_in(table: &[(&str, i32, i32)], name: &str) -> Option<ArmorStats> {
    let n = normalise(name);
    let n = match n.as_str() {
        "buckler" => "small shield".to_string(),
        "round shield" => "medium shield".to_string(),
        "scutum" => "large shield".to_string(),
        _ => n,
    };
    table
        .iter()
        .find(|a| a.0 == n || a.0 == format!("{n} mail"))
        .map(|&(name, btd, ptm)| ArmorStats {
            name: name.into(),
            btd,
            ptm: Ptm(ptm),
        })
}

/// A species' natural attack: "claw" 1d4 (digest G-20: one attack per listed item).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NaturalAttack {
    /// Name ("claw", "bite").
    #[serde(default)]
    pub name: String,
    /// Damage dice, e.g. "1d6" or "2d4+1".
    pub damage: String,
    /// Kind of damage («Damage and Death»); none = the fighter's `damage_type`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<super::spec::DamageKind>,
}

crate::inline! {
    /// A species («Sample Creatures»).
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct SpeciesStats / SpeciesTable {
        /// Name shown in reports.
        name: String = "custom species".into() => (
            "\"custom species\"",
            "name in reports; a built-in's name (e.g. \"goblin\") makes the table that species with the given fields changed",
        ),
        /// Defense, 0–40.
        def: i32, in 0..=40 => (
            "required",
            "Defense 0–40",
        ),
        /// Movement, 1–60.
        mv: i32, in 1..=60 => (
            "required",
            "Movement 1–60",
        ),
        /// Hit Dice, 0–30 in steps of ½ (0.5 for a Goblin).
        #[serde(serialize_with = "half_hd::serialize")]
        hd: i32, with half_hd::deserialize => (
            "required",
            "Hit Dice 0–30 in steps of 0.5 (0.5 for a Goblin)",
        ),
        /// Size category.
        size: Size => (
            "required",
            "size: tiny | small | medium | large | huge | gargantuan (or D, T, S, M, L, H, G)",
        ),
        /// Attack sequence: empty = "by weapon", else one attack per item (claw/claw/bite).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        attacks: Vec<NaturalAttack> = Vec::new() => (
            "[]",
            "natural attack sequence [{ name, damage = \"1d4\" (required), damage_type }] (claw/claw/bite); empty = by weapon",
        ),
        /// Members of a race may take class levels; monsters may not («Creatures §1»).
        playable: bool = false => (
            "false",
            "a race whose members may take class levels; monsters may not («Creatures §1»)",
        ),
    }
}

/// Hit Dice stored in halves, written as a number (3, 0.5).
mod half_hd {
    use serde::{Deserialize, Deserializer, Serializer, de};

    pub fn serialize<S: Serializer>(v: &i32, s: S) -> Result<S::Ok, S::Error> {
        if v % 2 == 0 {
            s.serialize_i64(i64::from(v / 2))
        } else {
            s.serialize_f64(f64::from(*v) / 2.0)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
        let v = f64::deserialize(d)?;
        let h = v * 2.0;
        if (0.0..=60.0).contains(&h) && h.fract() == 0.0 {
            Ok(h as i32)
        } else {
            Err(de::Error::custom(format!(
                "{v} is not a Hit Dice value: expected 0 to 30 in steps of 0.5"
            )))
        }
    }
}

/// The sample creatures: (name, Def, Mv, HD in halves, size, playable).
pub const SPECIES: &[(&str, i32, i32, i32, Size, bool)] = &[
    ("human", 10, 12, 0, Size::Medium, true),
    ("dwarf", 10, 9, 2, Size::Medium, true),
    ("elf", 10, 12, 2, Size::Medium, true),
    ("bug bear", 12, 9, 6, Size::Large, false),
    ("goblin", 10, 6, 1, Size::Medium, false),
];

/// A built-in species by name ("bug bear", "bugbear", "bug_bear").
pub fn species(name: &str) -> Option<SpeciesStats> {
    let n = normalise(name);
    let n = if n == "bugbear" { "bug bear".into() } else { n };
    SPECIES
        .iter()
        .find(|s| s.0 == n)
        .map(|&(name, def, mv, hd, size, playable)| SpeciesStats {
            name: name.into(),
            def,
            mv,
            hd,
            size,
            attacks: Vec::new(),
            playable,
        })
}

crate::inline! {
    /// A class table («Primary Skill Bonuses for Classed Creatures»), levels 1–6 as literal data.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct ClassStats / ClassTable {
        /// Name shown in reports.
        name: String = "custom class".into() => (
            "\"custom class\"",
            "name in reports; a built-in's name (e.g. \"fighter\") makes the table that class with the given fields changed",
        ),
        /// HP base per level b in `n(b+d4)`, 0–20.
        hp_base: i32, in 0..=20 => (
            "required",
            "HP base b per level in n(b+d4), 0–20",
        ),
        /// Cumulative Bonus to Hit at levels 1, 2, … (1–10 entries, each 0–20).
        bth: Vec<i32> => (
            "required",
            "cumulative Bonus to Hit at levels 1, 2, … (1–10 entries, each 0–20)",
        ),
        /// Cumulative Magic Points at levels 1, 2, … (same length, multiples of 0.5).
        mp: Vec<f64> => (
            "required",
            "cumulative Magic Points at levels 1, 2, … (as many entries as bth, multiples of 0.5)",
        ),
    }
}

/// The five built-in classes: (name, HP base, BtH by level, MPs ×2 by level).
pub const CLASSES: &[(&str, i32, [i32; 6], [i32; 6])] = &[
    ("fighter", 8, [1, 2, 3, 4, 5, 6], [0; 6]),
    ("80/20", 6, [1, 2, 2, 3, 4, 4], [5, 10, 15, 20, 25, 30]),
    ("50/50", 4, [0, 1, 1, 2, 2, 3], [10, 20, 30, 40, 50, 60]),
    ("20/80", 2, [0, 0, 1, 1, 1, 2], [15, 30, 45, 60, 75, 90]),
    ("magic-user", 0, [0; 6], [20, 40, 60, 80, 100, 120]),
];

/// A built-in class by name ("fighter", "80/20", "80/20 f/mu", "magic-user", "magic_user", "mu").
pub fn class(name: &str) -> Option<ClassStats> {
    let n = normalise(name).replace(" f/mu", "").replace(' ', "-");
    let n = match n.as_str() {
        "mu" | "magic-user" | "magicuser" | "mage" => "magic-user",
        "f" => "fighter",
        other => other,
    };
    CLASSES
        .iter()
        .find(|c| c.0 == n)
        .map(|&(name, hp_base, bth, mp2)| ClassStats {
            name: name.into(),
            hp_base,
            bth: bth.to_vec(),
            mp: mp2.iter().map(|&m| f64::from(m) / 2.0).collect(),
        })
}

/// Proficiency / resistance levels («Proficiency Nomenclature»).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Prof {
    /// `--` Unskilled.
    Unskilled,
    /// `-` Novice.
    Novice,
    /// `#` Competent.
    #[default]
    Competent,
    /// `+` Specialist.
    Specialist,
    /// `++` Master.
    Master,
}

const PROF_NAMES: [&str; 5] = ["--", "-", "#", "+", "++"];

impl Prof {
    /// Every level, lowest first.
    pub const ALL: [Prof; 5] = [
        Prof::Unskilled,
        Prof::Novice,
        Prof::Competent,
        Prof::Specialist,
        Prof::Master,
    ];
    /// The abbreviation (`--` … `++`).
    pub fn symbol(self) -> &'static str {
        PROF_NAMES[self as usize]
    }
    /// Parses `--`, `-`, `#`, `+`, `++` or the names.
    pub fn parse(s: &str) -> Option<Prof> {
        let t = s.trim().to_ascii_lowercase();
        let i = match t.as_str() {
            "--" | "unskilled" | "unsk" => 0,
            "-" | "novice" | "novi" => 1,
            "#" | "competent" | "comp" => 2,
            "+" | "specialist" | "spec" => 3,
            "++" | "master" | "mast" => 4,
            _ => return None,
        };
        Some(Prof::ALL[i])
    }
    /// G-11 / G-29 bonus: −3, −1, 0, +1, +3.
    pub fn bonus(self) -> i32 {
        [-3, -1, 0, 1, 3][self as usize]
    }
}

impl Serialize for Prof {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.symbol())
    }
}

impl<'de> Deserialize<'de> for Prof {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Prof::parse(&s).ok_or_else(|| {
            de::Error::custom(format!(
                "unknown level {s:?}; expected \"--\", \"-\", \"#\", \"+\" or \"++\" (or unskilled … master)"
            ))
        })
    }
}

/// A resistance result («Resistance Check §3»).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Resist {
    /// Normal damage.
    Normal,
    /// −1 from the damage dice.
    MinusOne,
    /// Half damage.
    Half,
    /// 1 point only.
    One,
    /// Unaffected.
    Zero,
    /// Unaffected, half reflected to the source.
    Reflect,
}

/// The resistance table: the result of a d20 roll at a level (bands 1–3, 4–17, 18–20).
pub fn resist_result(level: Prof, roll: u32) -> Resist {
    use Resist::*;
    let band = match roll {
        1..=3 => 0,
        4..=17 => 1,
        _ => 2,
    };
    const T: [[Resist; 3]; 5] = [
        [Normal, Normal, MinusOne],
        [Normal, MinusOne, Half],
        [MinusOne, Half, One],
        [Half, One, Zero],
        [One, Zero, Reflect],
    ];
    T[level as usize][band]
}

/// Skill-check bands («Making Skill Checks §2»): (name, lowest roll, highest roll).
pub const SKILL_BANDS: [(&str, i64, i64); 7] = [
    ("significantly worse than expected", 1, 1),
    ("worse than expected", 2, 3),
    ("below average", 4, 6),
    ("average", 7, 14),
    ("above average", 15, 17),
    ("better than expected", 18, 19),
    ("significantly better than expected", 20, 20),
];

/// Damage dice `NdS+K` (N 0–20, S 1–100, K −50…50).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Dice {
    /// Number of dice.
    pub n: u8,
    /// Faces per die.
    pub sides: u16,
    /// Constant added.
    pub plus: i32,
}

impl Dice {
    /// Parses "1d8", "2d4+1", "d6-1" or a constant "3".
    pub fn parse(s: &str) -> Result<Dice, String> {
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let t = t.to_ascii_lowercase();
        let err = || format!("{s:?} is not a damage expression like \"1d8\", \"2d4+1\" or \"3\"");
        let (dice, plus) = match t.find(['+', '-']) {
            Some(i) if i > 0 => {
                let k: i32 = t[i..].parse().map_err(|_| err())?;
                (&t[..i], k)
            }
            _ => (t.as_str(), 0),
        };
        let d = match dice.split_once('d') {
            None => Dice {
                n: 0,
                sides: 1,
                plus: dice.parse().map_err(|_| err())?,
            },
            Some((n, sides)) => Dice {
                n: if n.is_empty() {
                    1
                } else {
                    n.parse().map_err(|_| err())?
                },
                sides: sides.parse().map_err(|_| err())?,
                plus,
            },
        };
        if d.n > 20 || !(1..=100).contains(&d.sides) || !(-50..=50).contains(&d.plus) {
            return Err(format!(
                "{s:?} is out of range: at most 20 dice of 1 to 100 faces, constant −50 to 50"
            ));
        }
        Ok(d)
    }
    /// Largest roll.
    pub fn max(self) -> i32 {
        i32::from(self.n) * i32::from(self.sides) + self.plus
    }
    /// Smallest roll.
    pub fn min(self) -> i32 {
        i32::from(self.n) + self.plus
    }
}

impl std::fmt::Display for Dice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.n == 0 {
            return write!(f, "{}", self.plus);
        }
        write!(f, "{}d{}", self.n, self.sides)?;
        match self.plus {
            0 => Ok(()),
            k if k > 0 => write!(f, "+{k}"),
            k => write!(f, "{k}"),
        }
    }
}
