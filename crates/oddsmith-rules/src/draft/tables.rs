//! The seed's built-in weapon and armour tables (§4.17.4, §4.19.1, §4.17.5; digest §4.3–§4.4).

use serde::{Deserialize, Serialize};

/// A weapon's damage aspect (§4.19.1): pointed and sharp weapons get +1 damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aspect {
    /// Daggers, short swords, spears, arrows and other thrusting weapons.
    Pointed,
    /// Swords, sabres, axes.
    Sharp,
    /// Clubs, maces, hammers (no bonus).
    Blunt,
}

crate::inline! {
    /// A weapon's statistics.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct WeaponStats / WeaponTable {
        /// Name shown in reports.
        name: String = "custom weapon".into() => (
            "\"custom weapon\"",
            "name in reports; a built-in's name (e.g. \"long sword\", \"short bow\") makes the table that weapon with the given fields changed",
        ),
        /// Impact class: 1 small, 2 medium, 3 large, 4 huge (§4.17.4); 0–10.
        impact: i32, in 0..=10 => (
            "required",
            "impact class 0–10: 1 small, 2 medium, 3 large, 4 huge (§4.17.4)",
        ),
        /// Damage aspect; pointed/sharp add `aspect_bonus`.
        aspect: Aspect => (
            "required",
            "\"pointed\" | \"sharp\" | \"blunt\": pointed and sharp add aspect_bonus to damage (§4.19.1)",
        ),
        /// Magic or supreme-quality bonus to weapon damage (§4.19.1); −20 to 20.
        bonus: i32 = 0, in -20..=20 => (
            "0",
            "magic or supreme-quality damage bonus −20…20 (§4.19.1)",
        ),
        /// 1 or 2 hands; shields need a one-handed weapon (§4.18.1).
        hands: u8 = 1 => (
            "1",
            "1 or 2 hands; a shield needs a one-handed weapon (§4.18.1)",
        ),
        /// Flexible weapons (flail, whip, net) cannot parry (§4.18.2).
        flexible: bool = false => (
            "false",
            "flexible (flail, whip, net): cannot parry (§4.18.2)",
        ),
        /// Whether the weapon can parry other weapons at all (unarmed cannot, G18).
        can_parry: bool = true => (
            "true",
            "can parry other weapons at all (unarmed cannot, G18)",
        ),
        /// Length class, used only for striking order (§4.17.2, G4): built-in weapons have one
        /// (`builtin_length`); an inline weapon without it is not compared by length.
        length: Option<u8> = None => (
            "none (not compared)",
            "length class for striking order (§4.17.2, G4): 0 unarmed … 4 two-handed, a spear 5, a pike 6; the seed gives no lengths: the built-ins' are not in the seed",
        ),
        /// A missile weapon (bow, crossbow, gun; §4.21): carried as a fighter's `missile`, never
        /// as its melee `weapon`.
        ranged: bool = false => (
            "false",
            "a missile weapon (§4.21): carried as missile, never as the melee weapon",
        ),
        /// Missile weapons: point-blank range in metres (§4.21.2); no range penalty within it.
        #[serde(skip_serializing_if = "Option::is_none")]
        point_blank: Option<u16> = None => (
            "none",
            "missile weapons: point-blank range in metres (§4.21.2); required when ranged",
        ),
        /// Missile weapons: maximum range in metres (§4.21.2); no shot beyond it.
        #[serde(skip_serializing_if = "Option::is_none")]
        max_range: Option<u16> = None => (
            "none",
            "missile weapons: maximum range in metres (§4.21.2); required when ranged",
        ),
        /// Missile weapons: segments to prepare (draw, load and aim) each shot before the
        /// 1-segment shot (§4.17.1: "Prepare bow 3", "Prepare crossbow 6"; a gun 0).
        #[serde(skip_serializing_if = "Option::is_none")]
        prepare: Option<u8> = None => (
            "none",
            "missile weapons: segments to prepare each shot (§4.17.1: bow 3, crossbow 6, gun 0; a thrown weapon the draw of its weight, not in the seed); required when ranged; an aimed bow, crossbow or gun shot takes at least aim_segments",
        ),
        /// A thrown weapon (dart, knife, javelin; §4.21.3): half Dodge at most, shields parry it,
        /// thrown after melee attacks (§4.17.1 "Throw weapon"), no full round of aiming.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        thrown: bool = false => (
            "false",
            "a thrown weapon (§4.21.3): needs ranged = true; dodged at half Dodge, parried by shields, thrown after melee attacks (§4.17.1), no full round of aiming (§4.21.1)",
        ),
        /// Missile weapons: how many can be shot or thrown in a duel; `None` = not counted.
        #[serde(skip_serializing_if = "Option::is_none")]
        supply: Option<u8> = None => (
            "none (not counted)",
            "missile weapons: shots or throws available in the duel (built-in dart 4, knife 3, javelin 2: not in the seed); none = not counted",
        ),
    }
}

const fn w(
    name: &'static str,
    impact: i32,
    aspect: Aspect,
    hands: u8,
    flexible: bool,
    ranged: bool,
) -> (&'static str, i32, Aspect, u8, bool, bool) {
    (name, impact, aspect, hands, flexible, ranged)
}

/// The built-in weapons: (name, impact, aspect, hands, flexible, ranged). Digest §4.3.
pub const WEAPONS: &[(&str, i32, Aspect, u8, bool, bool)] = &[
    w("dagger", 1, Aspect::Pointed, 1, false, false),
    w("small club", 1, Aspect::Blunt, 1, false, false),
    w("mace", 2, Aspect::Blunt, 1, false, false),
    w("flail", 2, Aspect::Blunt, 1, true, false),
    w("giant's club", 4, Aspect::Blunt, 2, false, false),
    w("short sword", 1, Aspect::Pointed, 1, false, false),
    w("long sword", 2, Aspect::Sharp, 1, false, false),
    w("two handed sword", 3, Aspect::Sharp, 2, false, false),
    w("two handed war hammer", 3, Aspect::Blunt, 2, false, false),
    w("rapier", 1, Aspect::Pointed, 1, false, false),
    w("unarmed", 0, Aspect::Blunt, 1, false, false),
    w("short bow", 2, Aspect::Pointed, 2, false, true),
    w("long bow", 3, Aspect::Pointed, 2, false, true),
    w("cross bow", 3, Aspect::Pointed, 2, false, true),
    w("pistol", 3, Aspect::Pointed, 1, false, true),
    w("rifle", 4, Aspect::Pointed, 2, false, true),
    // Thrown weapons (§4.21.2 ranges): the seed gives no impact for them; a dart and a knife
    // are read as small (the dagger's 1), a javelin as medium (2). Not in the seed.
    w("dart", 1, Aspect::Pointed, 1, false, true),
    w("knife", 1, Aspect::Pointed, 1, false, true),
    w("javelin", 2, Aspect::Pointed, 1, false, true),
];

/// Other spellings accepted for built-in weapons.
const WEAPON_ALIASES: &[(&str, &str)] = &[
    ("claymore", "two handed sword"),
    ("war hammer", "two handed war hammer"),
    ("crossbow", "cross bow"),
    ("longbow", "long bow"),
    ("shortbow", "short bow"),
    ("longsword", "long sword"),
    ("shortsword", "short sword"),
    ("giants club", "giant's club"),
    ("club", "small club"),
    ("brawl", "unarmed"),
    ("throwing knife", "knife"),
    ("pilum", "javelin"),
];

/// Normalises a table name: lower case, `-`/`_` as spaces, single spaces.
pub fn normalise(name: &str) -> String {
    name.to_ascii_lowercase()
        .replace(['-', '_'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Looks a built-in weapon up by name (case-, dash- and underscore-insensitive).
pub fn weapon(name: &str) -> Option<WeaponStats> {
    let n = normalise(name);
    let n = WEAPON_ALIASES
        .iter()
        .find(|(a, _)| *a == n)
        .map_or(n.as_str(), |(_, t)| t)
        .to_string();
    WEAPONS
        .iter()
        .find(|row| row.0 == n)
        .map(
            |&(name, impact, aspect, hands, flexible, ranged)| WeaponStats {
                name: name.to_string(),
                impact,
                aspect,
                bonus: 0,
                hands,
                flexible,
                can_parry: impact > 0 && !ranged,
                length: builtin_length(name),
                ranged,
                point_blank: builtin_missile(name).map(|m| m.0),
                max_range: builtin_missile(name).map(|m| m.1),
                prepare: builtin_missile(name).map(|m| m.2),
                thrown: builtin_thrown(name).is_some(),
                supply: builtin_thrown(name),
            },
        )
}

/// The length class of a built-in melee weapon (§4.17.2 "longer weapons strike first"; the
/// seed gives impact, not length, so these classes are read from its weapon list and
/// descriptions, see `docs/rulesets/draft.md`): 0 unarmed, 1 dagger, 2 small club and short
/// sword, 3 the one-handed arm-length weapons (mace, flail, long sword, rapier), 4 the
/// two-handed ones (two handed sword, two handed war hammer, giant's club). Pole arms (a spear
/// 5, a pike 6) are written as inline weapons with a `length`. Ranged weapons have none.
pub fn builtin_length(name: &str) -> Option<u8> {
    Some(match name {
        "unarmed" => 0,
        "dagger" => 1,
        "small club" | "short sword" => 2,
        "mace" | "flail" | "long sword" | "rapier" => 3,
        "two handed sword" | "two handed war hammer" | "giant's club" => 4,
        _ => return None,
    })
}

/// The built-in weapons' length classes (`builtin_length`): the seed gives impact, not
/// length, so each class is a placeholder read from its weapon list, with a plausible range;
/// and the thrown weapons' impact, preparation and supply, which the seed does not give.
pub const PLACEHOLDERS: &[crate::Placeholder] = &[
    crate::info::placeholder("dagger", "length", "1", "1", "2", "§4.17.2: the seed gives no lengths; a dagger is the shortest blade"),
    crate::info::placeholder("short sword", "length", "2", "1", "3", "§4.17.2: the seed gives no lengths"),
    crate::info::placeholder("small club", "length", "2", "1", "3", "§4.17.2: the seed gives no lengths"),
    crate::info::placeholder("long sword", "length", "3", "3", "4", "§4.17.2: the seed gives no lengths"),
    crate::info::placeholder("rapier", "length", "3", "3", "4", "§4.17.2: the seed gives no lengths; a rapier is long and light"),
    crate::info::placeholder("mace", "length", "3", "2", "3", "§4.17.2: the seed gives no lengths"),
    crate::info::placeholder("flail", "length", "3", "2", "4", "§4.17.2: the seed gives no lengths; the chain adds reach"),
    crate::info::placeholder("two handed sword", "length", "4", "4", "5", "§4.17.2: the seed gives no lengths"),
    crate::info::placeholder("two handed war hammer", "length", "4", "4", "5", "§4.17.2: the seed gives no lengths"),
    crate::info::placeholder("giant's club", "length", "4", "3", "5", "§4.17.2: the seed gives no lengths"),
    crate::info::placeholder("dart", "impact", "1", "1", "2", "§4.21.2: the seed gives thrown weapons no impact; read as small, the dagger's 1"),
    crate::info::placeholder("dart", "prepare", "1", "1", "2", "§4.17.1: drawing the next dart read as 'Draw light weapon 1'"),
    crate::info::placeholder("dart", "supply", "4", "1", "6", "§4.21.3: the seed gives no number of darts carried"),
    crate::info::placeholder("knife", "impact", "1", "1", "2", "§4.21.2: the seed gives thrown weapons no impact; read as small, the dagger's 1"),
    crate::info::placeholder("knife", "prepare", "1", "1", "2", "§4.17.1: drawing the next knife read as 'Draw light weapon 1'"),
    crate::info::placeholder("knife", "supply", "3", "1", "6", "§4.21.3: the seed gives no number of knives carried"),
    crate::info::placeholder("javelin", "impact", "2", "1", "2", "§4.21.2: the seed gives thrown weapons no impact; read as medium, 2"),
    crate::info::placeholder("javelin", "prepare", "2", "1", "2", "§4.17.1: drawing the next javelin read as 'Draw medium weapon 2'"),
    crate::info::placeholder("javelin", "supply", "2", "1", "6", "§4.21.3: the seed gives no number of javelins carried"),
];

/// (point blank m, maximum range m, preparation segments) of a built-in missile weapon: the
/// ranges of the §4.21.2 table, the preparation of the §4.17.1 action table ("Prepare bow 3",
/// "Prepare crossbow 6"; "Trigger gun 1" with no preparation: "once loaded, their rate of fire
/// is extremely high", §4.21.1).
pub fn builtin_missile(name: &str) -> Option<(u16, u16, u8)> {
    Some(match name {
        "short bow" => (20, 100, 3),
        "long bow" => (30, 120, 3),
        "cross bow" => (30, 100, 6),
        "pistol" => (20, 80, 0),
        "rifle" => (40, 200, 0),
        // Thrown weapons: the §4.21.2 ranges; the preparation is drawing the next one by its
        // weight (§4.17.1 "Draw light weapon 1", "Draw medium weapon 2"; not in the seed).
        "dart" | "knife" => (5, 15, 1),
        "javelin" => (15, 40, 2),
        _ => return None,
    })
}

/// The supply of a built-in thrown weapon (how many a fighter carries), `None` for the other
/// weapons. Not in the seed: a plausible 4 darts, 3 knives, 2 javelins (range 1–6).
pub fn builtin_thrown(name: &str) -> Option<u8> {
    Some(match name {
        "dart" => 4,
        "knife" => 3,
        "javelin" => 2,
        _ => return None,
    })
}

/// Names of every built-in weapon, for error messages and docs.
pub fn weapon_names() -> Vec<&'static str> {
    WEAPONS.iter().map(|r| r.0).collect()
}

/// How the seed's damaged armour table maps to names (G7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ArmourTable {
    /// cloth 1/±0, leather 2/±0, chain 3/−1, plate 4/−1, full plate 5/−2, armour_6 7/−2.
    #[default]
    A,
    /// cloth 1/±0, leather 2/±0, chain 3/−1, armour_4 4/−1, plate 5/−2, full plate 7/−2.
    B,
}

/// The named armour types (§4.17.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmourKind {
    /// No armour: 0/±0.
    None,
    /// Thick cloth, padding, furs.
    Cloth,
    /// Hardened, boiled or studded leather.
    Leather,
    /// Chain, scale or ring mail.
    Chain,
    /// Plates on the torso, chain on the limbs.
    Plate,
    /// Full plate.
    FullPlate,
    /// The unnamed heavier row (7/−2) under table A.
    #[serde(rename = "armour_6")]
    Armour6,
    /// The unnamed 4/−1 row under table B.
    #[serde(rename = "armour_4")]
    Armour4,
}

const ARMOUR_NAMES: &[(&str, ArmourKind)] = &[
    ("none", ArmourKind::None),
    ("cloth", ArmourKind::Cloth),
    ("leather", ArmourKind::Leather),
    ("chain", ArmourKind::Chain),
    ("chain mail", ArmourKind::Chain),
    ("plate", ArmourKind::Plate),
    ("full plate", ArmourKind::FullPlate),
    ("armour 6", ArmourKind::Armour6),
    ("armor 6", ArmourKind::Armour6),
    ("armour 4", ArmourKind::Armour4),
    ("armor 4", ArmourKind::Armour4),
];

impl ArmourKind {
    /// The canonical names, in table order.
    pub const NAMES: [&'static str; 8] = [
        "none",
        "cloth",
        "leather",
        "chain",
        "plate",
        "full plate",
        "armour 6",
        "armour 4",
    ];
    /// The canonical name of a kind.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    /// Parses an armour name (case-, dash- and underscore-insensitive; armour/armor).
    pub fn from_name(name: &str) -> Option<ArmourKind> {
        let n = normalise(name);
        ARMOUR_NAMES.iter().find(|(a, _)| *a == n).map(|&(_, k)| k)
    }
    /// Names accepted, for error messages.
    pub fn names() -> &'static str {
        "none, cloth, leather, chain, plate, full plate, armour_6 (table A), armour_4 (table B)"
    }
    /// (protection, movement modifier) under `table`, or `None` where the row has no such name.
    pub fn stats(self, table: ArmourTable) -> Option<(i32, i32)> {
        use ArmourKind::*;
        Some(match (self, table) {
            (None, _) => (0, 0),
            (Cloth, _) => (1, 0),
            (Leather, _) => (2, 0),
            (Chain, _) => (3, -1),
            (Plate, ArmourTable::A) => (4, -1),
            (FullPlate, ArmourTable::A) => (5, -2),
            (Armour6, ArmourTable::A) => (7, -2),
            (Armour4, ArmourTable::B) => (4, -1),
            (Plate, ArmourTable::B) => (5, -2),
            (FullPlate, ArmourTable::B) => (7, -2),
            _ => return Option::None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weapon_lookup_is_forgiving() {
        assert_eq!(weapon("Long-Sword").unwrap().impact, 2);
        assert_eq!(weapon("two_handed_sword").unwrap().hands, 2);
        assert_eq!(weapon("claymore").unwrap().name, "two handed sword");
        assert!(weapon("long swrd").is_none());
        assert!(!weapon("unarmed").unwrap().can_parry);
        assert!(!weapon("long bow").unwrap().can_parry, "a bow cannot parry");
        let j = weapon("pilum").unwrap();
        assert_eq!(
            (j.name.as_str(), j.point_blank, j.max_range, j.thrown, j.supply),
            ("javelin", Some(15), Some(40), true, Some(2))
        );
    }

    #[test]
    fn armour_tables() {
        assert_eq!(
            ArmourKind::from_name("Full_Plate")
                .unwrap()
                .stats(ArmourTable::A),
            Some((5, -2))
        );
        assert_eq!(ArmourKind::Plate.stats(ArmourTable::B), Some((5, -2)));
        assert_eq!(ArmourKind::Armour6.stats(ArmourTable::B), None);
    }
}
