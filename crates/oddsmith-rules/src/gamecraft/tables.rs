//! The seed's tables: weapons and armour («Damage»), distance categories («Range»,
//! «Spread Weapons»), difficulty levels («Skill Checks») and the die itself
//! («What's An Exploding Die?»).

use oddsmith_dice::Dist;
use serde::{Deserialize, Serialize};

use super::options::ExplodeMode;
use crate::Roller;

/// One limited-exploding 1d6−1 (digest §2.1): a 5 re-rolls and adds, a 0 re-rolls and
/// subtracts, once. Under `explode_mode = "none"` a plain 1d6−1.
#[inline(always)]
pub fn gc_die<R: Roller>(r: &mut R, mode: ExplodeMode) -> i32 {
    let v = r.roll(6) as i32 - 1;
    // 1–4 stand (and every face under "none"): the common case, kept small to inline.
    if v % 5 != 0 || mode == ExplodeMode::None {
        return v;
    }
    explode(r, mode, v)
}

/// The re-rolls of [`gc_die`] after a first roll `v` of 0 or 5.
#[inline]
fn explode<R: Roller>(r: &mut R, mode: ExplodeMode, v: i32) -> i32 {
    let sign = if v == 5 { 1 } else { -1 };
    let mut total = v;
    loop {
        let x = r.roll(6) as i32 - 1;
        total += sign * x;
        if mode == ExplodeMode::Limited || x != 5 {
            return total;
        }
    }
}

/// Re-rolls of 5 that [`die_dist`] follows under `explode_mode = "unlimited"`; the chain is
/// cut there (the last re-roll does not explode), which moves less than 1e-9 of probability.
pub const UNLIMITED_DEPTH: u32 = 12;

/// The exact distribution of [`gc_die`] (digest §7 O1); under `"unlimited"` cut after
/// [`UNLIMITED_DEPTH`] re-rolls.
pub fn die_dist(mode: ExplodeMode) -> Dist {
    let mut w = Vec::new();
    if mode == ExplodeMode::Unlimited {
        // Weights over 6^(depth + 1): the first roll, then a re-roll showing x after k
        // earlier re-rolls of 5 has probability 6^−(k + 2), weight 6^(depth − 1 − k).
        let depth = UNLIMITED_DEPTH;
        let one = 6u128.pow(depth + 1);
        for r in 1..5i64 {
            w.push((r, one / 6));
        }
        for sign in [1i64, -1] {
            let start = if sign > 0 { 5 } else { 0 };
            // k earlier re-rolls were all 5; this re-roll shows x.
            for k in 0..depth {
                let weight = 6u128.pow(depth - 1 - k);
                for x in 0..6i64 {
                    if x == 5 && k + 1 < depth {
                        continue;
                    }
                    w.push((start + sign * (5 * i64::from(k) + x), weight));
                }
            }
        }
        return Dist::from_weights(w).expect("bounded weights");
    }
    for r in 0..6i64 {
        if mode == ExplodeMode::None {
            w.push((r, 6u128));
            continue;
        }
        for r2 in 0..6i64 {
            let v = match r {
                5 => 5 + r2,
                0 => -r2,
                _ => r,
            };
            w.push((v, 1u128));
        }
    }
    Dist::from_weights(w).expect("36 small weights")
}

/// Normalises a table name: lower case, `_`/`-` as spaces, single spaces, "armour" → "armor".
pub fn normalise(s: &str) -> String {
    s.trim()
        .to_ascii_lowercase()
        .replace(['_', '-'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("armour", "armor")
}

/// Distance categories («Range», «Spread Weapons»), nearest first.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Distance {
    /// Melee range.
    #[default]
    PointBlank,
    /// Short.
    Short,
    /// Medium.
    Medium,
    /// Long.
    Long,
    /// Extreme.
    Extreme,
}

impl Distance {
    /// Every category, nearest first.
    pub const ALL: [Distance; 5] = [
        Distance::PointBlank,
        Distance::Short,
        Distance::Medium,
        Distance::Long,
        Distance::Extreme,
    ];
    /// The category with index `i` (0 = Point Blank), clamped to Extreme.
    pub fn from_index(i: u8) -> Distance {
        Distance::ALL[usize::from(i.min(4))]
    }
    /// TN modifier of the «Range» table: +0, +2, +4, +8, +12.
    pub fn tn_modifier(self) -> i32 {
        [0, 2, 4, 8, 12][self as usize]
    }
    /// Spread weapons («Spread Weapons» table): (attack modifier, damage modifier).
    pub fn spread_modifiers(self) -> (i32, i32) {
        [(0, 0), (1, -2), (2, -4), (1, -6), (0, -8)][self as usize]
    }
}

/// How a weapon is used; decides the damage attribute and the Combat Defense specialization.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    /// Melee: Strength damage, Combat Defense (Melee), Point Blank only.
    Melee,
    /// Thrown: Strength damage, Combat Defense (Ranged).
    Thrown,
    /// Bows and other non-gun ranged weapons: Perception damage, Combat Defense (Ranged).
    Bow,
    /// Guns: Perception damage, Combat Defense (Firearms), always lethal.
    Firearm,
    /// Explosives: a thrown or placed device whose blast the target tries to avoid
    /// («Explosions»); its own damage, no attribute.
    Explosive,
}

impl WeaponKind {
    /// The Combat Defense specialization used against this kind of attack (digest §4.4).
    pub fn defense_skill(self) -> &'static str {
        match self {
            WeaponKind::Melee => "Combat Defense (Melee)",
            WeaponKind::Thrown | WeaponKind::Bow => "Combat Defense (Ranged)",
            WeaponKind::Firearm => "Combat Defense (Firearms)",
            WeaponKind::Explosive => "Combat Defense (Explosives)",
        }
    }
}

/// The Area of an explosive device («Explosions»).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    /// Small device.
    #[default]
    Small,
    /// Medium device.
    Medium,
    /// Large device.
    Large,
}

/// The three Ranges of a blast («Explosions»), centre outward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlastRange {
    /// Short: full damage.
    #[default]
    Short,
    /// Medium: half damage.
    Medium,
    /// Long: a quarter.
    Long,
}

/// A primary attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attribute {
    /// Strength.
    Strength,
    /// Constitution.
    Constitution,
    /// Prowess.
    #[default]
    Prowess,
    /// Beauty.
    Beauty,
    /// Intelligence.
    Intelligence,
    /// Spirit.
    Spirit,
    /// Perception.
    Perception,
    /// Personality.
    Personality,
}

crate::inline! {
    /// A weapon's statistics.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct WeaponStats / WeaponTable {
        /// Name shown in reports.
        name: String = "custom weapon".into() => (
            "\"custom weapon\"",
            "name in reports; a built-in's name (e.g. \"sword\") makes the table that weapon with the given fields changed",
        ),
        /// Damage bonus («Damage» table), −10 to 50.
        damage: i32, in -10..=50 => (
            "required",
            "damage bonus −10…50 («Damage» table)",
        ),
        /// Melee, thrown, bow, firearm or explosive.
        kind: WeaponKind = WeaponKind::Melee => (
            "\"melee\"",
            "melee | thrown | bow | firearm | explosive",
        ),
        /// Range category for ranged weapons (none for melee).
        range: Option<Distance> = None => (
            "none",
            "range category of a ranged weapon: short | medium | long | extreme (none for melee)",
        ),
        /// Skill used to attack, e.g. "Melee Combat (Swords)"; specializations build on the
        /// general skill before the parenthesis.
        skill: String = "Melee Combat".into() => (
            "\"Melee Combat\"",
            "skill used to attack, e.g. \"Melee Combat (Swords)\" (a specialization builds on the general skill before the parenthesis)",
        ),
        /// Attribute added to the attack roll; none = Prowess for a melee weapon, option
        /// `ranged_attack_attribute` (Prowess by default, G6) for any other.
        #[serde(skip_serializing_if = "Option::is_none")]
        attack_attribute: Option<Attribute> = None => (
            "none",
            "attribute added to the attack roll; none = Prowess for melee, option ranged_attack_attribute for any other (G6)",
        ),
        /// A gun: +`bullet_bonus` to attack («Bullet Weapons»).
        bullet: bool = false => (
            "false",
            "a gun: + option bullet_bonus to attack («Bullet Weapons»)",
        ),
        /// A spread weapon («Spread Weapons» table).
        spread: bool = false => (
            "false",
            "a spread weapon («Spread Weapons» table)",
        ),
        /// Semi- or fully automatic: may fire bursts, sprays and strafes («Automatic Weapons»).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        automatic: bool = false => (
            "false",
            "semi- or fully automatic: may fire bursts, sprays and strafes («Automatic Weapons»)",
        ),
        /// Explosives: the device's Area («Explosions»); none given = option `grenade_area`.
        #[serde(skip_serializing_if = "Option::is_none")]
        area: Option<Area> = None => (
            "none (option grenade_area)",
            "an explosive's Area small | medium | large («Explosions»)",
        ),
        /// «Range»: the weapon cannot attack beyond its Range at all ("certain weapons—such as
        /// flamethrowers—do have a maximum range"); none = option `max_range_hard`.
        #[serde(skip_serializing_if = "Option::is_none")]
        hard_range: Option<bool> = None => (
            "none (option max_range_hard)",
            "«Range»: true = the weapon cannot attack beyond its Range at all (a flamethrower's maximum range), false = the TN modifier doubles beyond it; none = option max_range_hard",
        ),
        /// Rounds a full magazine holds, 1–200 (the seed gives none); none = not tracked, or
        /// option `auto_magazine` for an automatic weapon.
        #[serde(skip_serializing_if = "Option::is_none")]
        magazine: Option<u8> = None, with de_magazine => (
            "none (not tracked; option auto_magazine if automatic)",
            "rounds a full magazine holds, 1–200 (not in the seed: it gives none)",
        ),
    }
}

fn de_magazine<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u8>, D::Error> {
    crate::fields::de_range::<_, 1, 200>(d).map(|v| Some(v as u8))
}


/// Built-in weapons: (name, damage, kind, range, skill, bullet, spread). Damage from the
/// seed; ranges other than the thrown dagger are the digest's G19 placeholders (not RAW).
/// The sub-machinegun (+6, automatic) is the «Automatic Weapons» example; its Range (Short)
/// is a placeholder like G19's. The fragmentation grenade (30, explosive) has no Area in the
/// seed (G19): it takes the option `grenade_area`; its throwing skill (Athletics) is not RAW
/// either (G6).
#[allow(clippy::type_complexity)]
pub const WEAPONS: &[(&str, i32, WeaponKind, Option<Distance>, &str, bool, bool)] = &[
    (
        "dagger",
        1,
        WeaponKind::Melee,
        None,
        "Melee Combat (Knives)",
        false,
        false,
    ),
    (
        "thrown dagger",
        1,
        WeaponKind::Thrown,
        Some(Distance::Short),
        "Melee Combat (Knives)",
        false,
        false,
    ),
    (
        "sword",
        3,
        WeaponKind::Melee,
        None,
        "Melee Combat (Swords)",
        false,
        false,
    ),
    (
        "longbow",
        3,
        WeaponKind::Bow,
        Some(Distance::Long),
        "Archery",
        false,
        false,
    ),
    (
        "war axe",
        4,
        WeaponKind::Melee,
        None,
        "Melee Combat (Axes)",
        false,
        false,
    ),
    (
        "light pistol",
        8,
        WeaponKind::Firearm,
        Some(Distance::Short),
        "Firearms (Pistols)",
        true,
        false,
    ),
    (
        "heavy pistol",
        12,
        WeaponKind::Firearm,
        Some(Distance::Medium),
        "Firearms (Pistols)",
        true,
        false,
    ),
    (
        "shotgun",
        15,
        WeaponKind::Firearm,
        Some(Distance::Short),
        "Firearms (Shotguns)",
        true,
        true,
    ),
    (
        "sniper rifle",
        18,
        WeaponKind::Firearm,
        Some(Distance::Extreme),
        "Firearms (Rifles)",
        true,
        false,
    ),
    (
        "sub machinegun",
        6,
        WeaponKind::Firearm,
        Some(Distance::Short),
        "Firearms (Submachine Guns)",
        true,
        false,
    ),
    (
        "fragmentation grenade",
        30,
        WeaponKind::Explosive,
        Some(Distance::Short),
        "Athletics",
        false,
        false,
    ),
    (
        "unarmed",
        0,
        WeaponKind::Melee,
        None,
        "Melee Combat (Unarmed Combat)",
        false,
        false,
    ),
];

/// The built-in weapons' statistics the seed does not give (the digest's G18, G19
/// placeholders): each with a plausible range, for `oddsmith rulesets gamecraft --equipment`
/// and the report's "In short".
pub const PLACEHOLDERS: &[crate::Placeholder] = &[
    crate::info::placeholder("light pistol", "range", "\"short\"", "\"short\"", "\"medium\"", "G19: the seed gives no pistol Range"),
    crate::info::placeholder("heavy pistol", "range", "\"medium\"", "\"short\"", "\"long\"", "G19: the seed gives no pistol Range"),
    crate::info::placeholder("shotgun", "range", "\"short\"", "\"short\"", "\"medium\"", "G19: the seed gives no shotgun Range; «Range»: no weapon has Point Blank"),
    crate::info::placeholder("sniper rifle", "range", "\"extreme\"", "\"long\"", "\"extreme\"", "G19: the seed gives no rifle Range"),
    crate::info::placeholder("sub machinegun", "range", "\"short\"", "\"short\"", "\"medium\"", "G19: the «Automatic Weapons» example gives damage, not Range; «Range»: no weapon has Point Blank"),
    crate::info::placeholder("longbow", "range", "\"long\"", "\"medium\"", "\"extreme\"", "G19: the seed gives no bow Range"),
    crate::info::placeholder("fragmentation grenade", "range", "\"short\"", "\"short\"", "\"medium\"", "G19: the seed gives the grenade's damage 30, not its Range"),
    crate::info::placeholder("unarmed", "damage", "0", "0", "2", "G18: the seed gives no unarmed damage"),
];

/// A built-in weapon by name.
pub fn weapon(name: &str) -> Option<WeaponStats> {
    let n = normalise(name);
    WEAPONS
        .iter()
        .find(|w| w.0 == n)
        .map(
            |&(name, damage, kind, range, skill, bullet, spread)| WeaponStats {
                name: name.into(),
                damage,
                kind,
                range,
                skill: skill.into(),
                attack_attribute: None,
                bullet,
                spread,
                automatic: name == "sub machinegun",
                area: None,
                hard_range: None,
                magazine: None,
            },
        )
}

/// Names of the built-in weapons.
pub fn weapon_names() -> Vec<&'static str> {
    WEAPONS.iter().map(|w| w.0).collect()
}

/// Built-in armour («Damage» table) with its resistance bonus.
pub const ARMORS: &[(&str, i32)] = &[
    ("none", 0),
    ("leather", 2),
    ("chain mail", 3),
    ("splint mail", 4),
    ("plate mail", 5),
    ("flak jacket", 8),
    ("tactical plate armor", 10),
    ("biomechanical power armor", 15),
];

/// A built-in armour's resistance bonus by name.
pub fn armor(name: &str) -> Option<(&'static str, i32)> {
    let n = normalise(name);
    ARMORS.iter().find(|a| a.0 == n).copied()
}

/// Difficulty levels («Skill Checks»): (name, lowest TN, highest TN, middle of the band).
/// Nigh Impossible is "30+" (it overlaps Heroic at 30, G25). The TN a name stands for is the
/// option `difficulty_tns` ([`difficulty_tn`]).
pub const DIFFICULTIES: [(&str, i64, i64, i64); 7] = [
    ("very easy", 1, 5, 3),
    ("easy", 6, 10, 8),
    ("moderate", 11, 15, 13),
    ("difficult", 16, 20, 18),
    ("very difficult", 21, 25, 23),
    ("heroic", 26, 30, 28),
    ("nigh impossible", 30, i64::MAX, 31),
];

/// The index in [`DIFFICULTIES`] of a named difficulty level.
pub fn difficulty_level(name: &str) -> Option<usize> {
    let n = normalise(name);
    DIFFICULTIES.iter().position(|d| d.0 == n)
}

/// The TN of a named difficulty level under `difficulty_tns`.
pub fn difficulty_tn(name: &str, tns: super::options::DifficultyTns) -> Option<i64> {
    difficulty_level(name).map(|i| tns.tns()[i])
}

/// The difficulty level whose band holds `tn`; TN 30 lies in two bands («Skill Checks»: Heroic
/// 26–30, Nigh Impossible 30+) and is labelled with both.
pub fn difficulty_of(tn: i64) -> &'static str {
    if tn == 30 {
        return "heroic or nigh impossible";
    }
    DIFFICULTIES
        .iter()
        .find(|d| tn <= d.2)
        .map_or("very easy", |d| d.0)
}
