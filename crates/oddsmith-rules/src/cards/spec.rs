//! A cards fighter as written in a scenario file: skills (cards drawn), attributes, weapon,
//! off-hand weapon or shield, backup weapon, armour modifier, relative size («Unusual Foes»)
//! and tactics (digest §6.2, with the Flank, Cling and Buck policies against large foes).

use serde::{Deserialize, Serialize};

use crate::fields::{Builtin, Entry, de_opt_range, de_range, unknown};
use crate::info::{Cond, Is, Requires, cond, warn};

crate::spec! {
    /// A fighter under the card-combat rules (`[fighters.NAME]`).
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct FighterSpec {
        /// Skill with the main weapon: cards drawn per round, 0–16 (0 = unskilled, 1 card).
        #[serde(default, deserialize_with = "de_range::<_, 0, 16>")]
        skill: i32 => (
            "0",
            "main weapon skill 0–16: cards drawn per round (0 = unskilled, 1 card) (§Draw Hands)",
        ),
        /// The main weapon: a built-in name or an inline table.
        weapon: WeaponEntry, inline => (
            "required",
            "dagger, sword, long sword, medium axe, poinard (parrying dagger), spear, bare hands, short bow (digest §4.16 placeholders; sword range/force/maneuvers, spear range and the short bow's ½ maneuver are TEXT), or { range, force, max_maneuvers (0 = unlimited; \"1/N\" = once every N rounds), edge, max_damage, hands, ranged, aim, impact }",
        ),
        /// A shield, parrying dagger or second weapon in the off hand.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        off_hand: Option<WeaponEntry>, inline => (
            "none",
            "shield (\"small shield\": blocks), parrying dagger or second weapon; hand = lower skill, maneuvers = higher maximum + 1, each item within its own (§Shields, Parrying Daggers & Off-hand Weapons)",
        ),
        /// Skill with the off-hand item (the hand is the lower of the two skills), 0–16; not
        /// given, the main weapon skill: a fighter given an item can use it (with 0, a shield
        /// would cut the hand to one card and make the fighter worse than without it).
        #[serde(
            default,
            deserialize_with = "de_opt_range::<_, 0, 16>",
            skip_serializing_if = "Option::is_none"
        )]
        off_hand_skill: Option<i32> => (
            "skill",
            "skill with the off-hand item, 0–16; not given = the main weapon skill, so an item never shrinks the hand by default (§Shields, Parrying Daggers & Off-hand Weapons: the hand is the lower of the two skills; give a lower skill to model an untrained off hand)",
        ),
        /// A backup weapon drawn after a disarm (§Changing Weapons).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        backup: Option<WeaponEntry>, inline => (
            "none",
            "weapon drawn after a disarm under on_disarm = \"backup_or_unarmed\" or \"backup_or_defeat\" (§Changing Weapons)",
        ),
        /// Skill with the backup weapon, 0–16.
        #[serde(default, deserialize_with = "de_range::<_, 0, 16>")]
        backup_skill: i32 => (
            "0",
            "skill with the backup weapon, 0–16",
        ),
        /// Fast-draw skill: the hand in the round after a weapon change is min(new skill,
        /// fast-draw), 1 card without it.
        #[serde(default, deserialize_with = "de_range::<_, 0, 16>")]
        fast_draw: i32 => (
            "0",
            "fast-draw skill: the hand the round after a weapon change is min(skill, fast draw), 1 card without it",
        ),
        /// Combat training: cards drawn for initiative (1 without it), 0–16.
        #[serde(default, deserialize_with = "de_range::<_, 0, 16>")]
        combat_training: i32 => (
            "0",
            "cards drawn for initiative, 1 without it (§Determine Initiative)",
        ),
        /// Bare-hand skill (G23), used under `on_disarm = "unarmed"`, 0–16.
        #[serde(default, deserialize_with = "de_range::<_, 0, 16>")]
        brawling: i32 => (
            "0",
            "bare-hand skill (G23) under on_disarm = \"unarmed\"",
        ),
        /// Dodge skill: cards drawn to dodge missiles (§Ranged Combat, Dodging), 0–16.
        #[serde(default, deserialize_with = "de_range::<_, 0, 16>")]
        dodge: i32 => (
            "0",
            "dodge skill 0–16: cards drawn to dodge missiles (§Ranged Combat, Dodging; 1 card without it), + awareness",
        ),
        /// Identical fighters on this side (§Multiple Opponents), 1–4.
        #[serde(default = "one", deserialize_with = "de_range::<_, 1, 4>")]
        count: i32 => (
            "1",
            "identical fighters on this side, 1–4 (§Multiple Opponents): a band, each with his own deck, hand and pairing (range, initiative) with the lone fighter on the other side",
        ),
        /// Relative size («Unusual Foes»): a foe at least twice the attacker's size is a large
        /// creature to him, one less than half of it a small creature. Above 0, at most 1000.
        #[serde(default = "one_size", skip_serializing_if = "is_one_size")]
        size: f64 => (
            "1",
            "relative size, above 0 and at most 1000 (1 = a person; the post gives no sizes): a foe at least twice the attacker's size is a large creature to him (the Large Creature to-hit table on called shots, Flank, Cling; he may Buck a clinger), one less than half of it a small creature (the Small Creature to-hit table; he may Swipe several and, with an impact weapon, Smash one) («Unusual Foes»); equal sizes play the ordinary rules",
        ),
        /// Stealth skill (the surprise check), 0–16.
        #[serde(default, deserialize_with = "de_range::<_, 0, 16>")]
        stealth: i32 => (
            "0",
            "stealth skill: A's side of the surprise check",
        ),
        /// Finesse, −5…+10: added to attack, parry, dodge and block totals.
        #[serde(default, deserialize_with = "de_range::<_, -5, 10>")]
        finesse: i32 => (
            "0",
            "finesse −5…+10: added to attack, parry, dodge and block totals",
        ),
        /// Might, −5…+10: the hand-to-hand Block and Block Grab compare it (§Striking
        /// Maneuvers; "strength" in Block Grab, errata E8).
        #[serde(default, deserialize_with = "de_range::<_, -5, 10>")]
        might: i32 => (
            "0",
            "might −5…+10: the hand-to-hand Block (+1 if higher than the attacker's, else −1) and Block Grab (−4 if higher, else −6)",
        ),
        /// Willpower, −5…+10: added to the initiative total.
        #[serde(default, deserialize_with = "de_range::<_, -5, 10>")]
        willpower: i32 => (
            "0",
            "willpower −5…+10: added to the initiative total",
        ),
        /// Vitality, −4…+10: hit points are hp_base + vitality (G4).
        #[serde(default, deserialize_with = "de_range::<_, -4, 10>")]
        vitality: i32 => (
            "0",
            "vitality −4…+10: hit points = hp_base + vitality (G4)",
        ),
        /// Awareness, −5…+10 (the surprise check).
        #[serde(default, deserialize_with = "de_range::<_, -5, 10>")]
        awareness: i32 => (
            "0",
            "awareness −5…+10: B's side of the surprise check",
        ),
        /// Armour modifier, −6…0: added to every combat total (the soldier's −1).
        #[serde(default, deserialize_with = "de_range::<_, -6, 0>")]
        armor_mod: i32 => (
            "0",
            "armour modifier −6…0 added to every combat total (the soldier's −1)",
        ),
        /// Armour protection, 0–5, subtracted from damage after the cap (G5; 0 in the text).
        #[serde(default, deserialize_with = "de_range::<_, 0, 5>")]
        protection: i32 => (
            "0",
            "armour protection 0–5 subtracted from damage after the cap (G5; none in the text)",
        ),
        /// A non-player fighter (draws from a jokerless deck under `npc_jokerless`).
        #[serde(default)]
        npc: bool => (
            "false",
            "a non-player fighter: draws from a jokerless deck under npc_jokerless",
        ),
        /// How the fighter plays (digest §6.2).
        #[serde(default)]
        tactics: Tactics => (
            "{ attacker = \"greedy\", defender = \"front\", hit = \"when_losing\", seize_threshold = 5, reserve = 0, disarm_unopposed = true, range_fix = true, lunge = false, dodge_when_no_parry = true, close_with_parry = true, defend_with = \"best\", keep_reach = true, hesitate = \"never\", hesitate_below = 1, shield_bash = false, disengage_at_hp = 0, wrestle = false, hold = \"pin\", hand_dodge = true, strike = \"hand\", take_down = false, called_shot = \"torso\", aim = \"fire_now\", aim_until = 5, aim_rounds = 2, missile_defense = \"none\", target = \"weakest\", band_attack = \"always\", flank = \"outreached\", cling = false, buck = true, swipe = \"always\", smash = \"finishing\" }",
            "digest §6.2: attacker greedy | bait | random; defender front | back | cover_last | random; hit when_losing | never | always; Parry/Seize (Reversal, Block Grab) when card + mods + difficulty ≥ seize_threshold (99 = never); reserve highest cards; disarm when the defender has no card; Close/Push/Retreat when out of reach; Lunge (−2, max damage +1) when one yard short; dodge when no parry; close_with_parry: parry without stepping back (−2) when that moves the range toward his reach (never under no_step_back_delta = 0); defend_with best | off_hand | main: which item parries or blocks when both can (best: a Parry/Seize with a weapon whose card reaches the threshold, else the higher force, the off-hand item on a tie); keep_reach: attack without stepping forward (−2) so a shorter weapon cannot close in (only under no_step_back_delta = −1, where his no-step parry closes); hesitate never | out_of_reach | weak_hand (best card + mods < hesitate_below); shield_bash at range 0; Offensive Disengage at disengage_at_hp hit points (0 = never); wrestle (barehanded: Tackle, Block Grab, hold pin | suffocate); hand_dodge (barehanded: the Dodge (0) when it beats the Block (−1 unless the stronger); Dodge Seize the Initiative (−3) at the seize threshold either way); strike hand | leg | head_butt (the barehanded attack; hand is best); take_down (barehanded: open each round with a Take Down, less the defender's finesse); called_shot torso | head | head_vitals | torso_vitals | legs | arms; aim fire_now | until (fire once the best showing card reaches aim_until or the row is full) | rounds (aim aim_rounds rounds, then fire); missile_defense none | dodge | block (instead of acting, in a round the opponent shoots); target weakest | first (a lone fighter against a band: whom he attacks); band_attack always (attack his target every register he can, leaving that register's other attacks unparried) | free (attack only in a register no other opponent attacks him in); against a large foe (size at least twice his, «Large Creature Maneuvers») flank outreached | always | never: open with a Flank (less the foe's finesse; a dodge prevents it, and at wrestling range a Counter or Reversal) while none of his is in force, with his lowest card whose total is positive, so the foe cannot attack him or dodge his blows this round and the next — outreached: when the foe's longest weapon is longer than his; always: whenever; never: not at all; cling: Cling (−4) once his flank is in force (or at once without flank), after which he attacks with any weapon and the foe only with range-0 weapons (not at all if the flank was in force); buck: the one clung to answers a Cling with a Buck (0, counters it) and opens his rounds with a Buck to throw a clinger off; against small foes (less than half his size, «Small Creature Maneuvers») swipe always | undefended | never: turn the attack on his target into a Swipe (less the number of creatures attacked, each defending on his own, none of them attacking in that register) at every other small foe in reach — undefended: only at those who cannot defend this register (no card, stopped, or attacking in it); smash finishing | always | never, with an impact weapon: a Smash (−2, damage and maximum damage tripled, then no other action that round and the initiative surrendered) when the foe holds no card and the tripled damage takes him out where an attack would not (in a group fight only with his last card); always: with every attack",
        ),
    }
    requires = FIGHTER_REQUIRES;
}

const fn on(field: &'static str, is: Is) -> [Cond; 1] {
    [cond(field, is)]
}

/// The fighter fields read only with another setting ("only with …" in `oddsmith rulesets
/// cards`), checked for every file by the loader.
pub const FIGHTER_REQUIRES: &[Requires] = &[
    warn("off_hand_skill", &on("off_hand", Is::Set), "it is the skill with the off-hand item; add off_hand"),
    warn("backup_skill", &on("backup", Is::Set), "it is the skill with the backup weapon; add backup"),
    warn(
        "backup",
        &on("options.on_disarm", Is::OneOf(&["backup_or_unarmed", "backup_or_defeat"])),
        "a backup is drawn only after a disarm, under these on_disarm readings",
    ),
    warn(
        "backup",
        &on("options.disarming_attack", Is::OneOf(&["true"])),
        "without Disarming Attacks no one is disarmed",
    ),
    warn(
        "fast_draw",
        &[cond("backup", Is::Set), cond("options.start", Is::OneOf(&["show_down"]))],
        "the fast-draw skill limits the hand after drawing a backup weapon, and draws round 1's initiative in a show down",
    ),
    warn(
        "dodge",
        &on("tactics.missile_defense", Is::OneOf(&["dodge"])),
        "the dodge skill is drawn only to dodge missiles; the melee dodge uses the weapon hand",
    ),
    warn("stealth", &on("options.start", Is::OneOf(&["a_surprises"])), "it is A's side of the surprise check"),
    warn("npc", &on("options.npc_jokerless", Is::OneOf(&["true"])), "only that option gives non-player fighters their own deck"),
    warn("tactics.aim_until", &on("tactics.aim", Is::OneOf(&["until"])), ""),
    warn("tactics.aim_rounds", &on("tactics.aim", Is::OneOf(&["rounds"])), ""),
    warn("tactics.aim", &on("options.distance", Is::NoneOf(&["0"])), "a fighter aims only in the rounds apart, before the melee"),
    warn("tactics.missile_defense", &on("options.distance", Is::NoneOf(&["0"])), "missiles fly only in the rounds apart"),
    warn("tactics.hesitate_below", &on("tactics.hesitate", Is::OneOf(&["weak_hand"])), ""),
    warn("tactics.hold", &on("tactics.wrestle", Is::OneOf(&["true"])), "only a wrestler holds"),
    warn("tactics.hand_dodge", &on("options.hand_to_hand", Is::OneOf(&["true"])), "with hand_to_hand = false bare hands parry like a weapon"),
    warn("tactics.strike", &on("options.hand_to_hand", Is::OneOf(&["true"])), "with hand_to_hand = false bare hands attack like a weapon"),
    warn("tactics.take_down", &on("options.hand_to_hand", Is::OneOf(&["true"])), "with hand_to_hand = false there is no Take Down"),
    warn("tactics.wrestle", &on("options.hand_to_hand", Is::OneOf(&["true"])), "with hand_to_hand = false there is no wrestling"),
    warn("tactics.shield_bash", &on("off_hand", Is::Set), "a shield bash needs a small shield in the off hand"),
    warn("tactics.shield_bash", &on("options.shield_bash", Is::OneOf(&["true"])), "the option turns Shield Bash off for everyone"),
    warn("tactics.disengage_at_hp", &on("options.offensive_disengage", Is::OneOf(&["true"])), "the option turns Offensive Disengage off"),
    warn("tactics.defend_with", &on("off_hand", Is::Set), "only a fighter with an off-hand item chooses which item defends"),
    warn("tactics.lunge", &on("options.range_model", Is::OneOf(&["true"])), "without the range model every weapon is always in reach"),
    warn("tactics.keep_reach", &on("options.range_model", Is::OneOf(&["true"])), "without the range model every weapon is always in reach"),
];

/// A weapon entry.
pub type WeaponEntry = Entry<WeaponStats>;

crate::inline! {
    /// A melee weapon or shield (§Melee Weapon Attributes).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct WeaponStats / WeaponTable {
        /// Name shown in reports.
        name: String = "custom weapon".into() => (
            "\"custom weapon\"",
            "name in reports; a built-in's name (e.g. \"sword\", \"small shield\") makes the table that weapon with the given fields changed",
        ),
        /// Range in yards: a melee weapon's reach (0 = close range, at most 6), where alone it
        /// attacks; a ranged weapon's longest shot (1–120).
        range: i32, in 0..=120 => (
            "required",
            "range in yards: a melee weapon's reach 0–6 (0 = close range; §Range), a ranged weapon's longest shot 1–120",
        ),
        /// Force, −5…+5: added to attack (and parry) totals.
        force: i32 = 0, in -5..=5 => (
            "0",
            "force −5…+5, added to attack and parry totals (§Melee Weapon Attributes)",
        ),
        /// Maximum maneuvers per round, 0–10 (0 = only the hand limits, as barehanded), or "1/N"
        /// for a ranged weapon used once every N rounds.
        max_maneuvers: Maneuvers => (
            "required",
            "maximum maneuvers per round 0–10 (0 = only the hand limits, as barehanded), or \"1/N\" for a ranged weapon used once every N rounds",
        ),
        /// Edge, −5…+5: added to the damage total.
        edge: i32 = 0, in -5..=5 => (
            "0",
            "edge −5…+5, added to the damage total",
        ),
        /// Maximum damage, 0–20.
        max_damage: i32, in 0..=20 => (
            "required",
            "maximum damage 0–20 (the damage cap)",
        ),
        /// Hands needed, 1–2.
        hands: i32 = 1, in 1..=2 => (
            "1",
            "hands needed, 1–2",
        ),
        /// A shield: blocks instead of parrying; attacks only by a Shield Bash at range 0.
        shield: bool = false => (
            "false",
            "a shield: blocks instead of parrying; attacks only by a Shield Bash at range 0 (§Shields)",
        ),
        /// A ranged weapon (§Ranged Combat): fired at any distance up to its range, never used in
        /// melee.
        ranged: bool = false => (
            "false",
            "a ranged weapon: fired at any distance up to its range, never used in melee (§Ranged Combat)",
        ),
        /// Aim, 0–10: most cards in the aiming row (§Ranged Weapon Attributes; 0 = cannot aim).
        aim: i32 = 0, in 0..=10 => (
            "0",
            "aim 0–10: most cards in the aiming row (0 = cannot aim; §Aiming)",
        ),
        /// An impact weapon («Smash»: "clubs and maces, for example"): its wielder may Smash a
        /// small foe. The weapon table does not mark impact weapons, so it is this field (no
        /// built-in weapon is one: none is a club, mace, hammer or flail).
        impact: bool = false => (
            "false",
            "an impact weapon (a club, mace, hammer or flail: «Smash», \"clubs and maces, for example\"): against a small foe its wielder may Smash (−2, damage and maximum damage tripled, then no other action that round and the initiative surrendered); a melee weapon only, and no built-in weapon is one",
        ),
    }
}

/// Maximum maneuvers (§Melee and §Ranged Weapon Attributes): a whole number per round, or a
/// fraction "1/N", "used once per a certain number of turns" (the short bow's ½).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Maneuvers {
    /// Uses per round (0 = unlimited; 1 for a fraction).
    pub per_round: i32,
    /// Rounds per use: 1, or N for "1/N".
    pub every: i32,
}

impl Maneuvers {
    /// `n` per round.
    pub const fn per_round(n: i32) -> Maneuvers {
        Maneuvers { per_round: n, every: 1 }
    }
    /// Once every `n` rounds.
    pub const fn every(n: i32) -> Maneuvers {
        Maneuvers { per_round: 1, every: n }
    }
}

impl Serialize for Maneuvers {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.every == 1 {
            s.serialize_i32(self.per_round)
        } else {
            s.serialize_str(&format!("1/{}", self.every))
        }
    }
}

impl<'de> Deserialize<'de> for Maneuvers {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Maneuvers;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a whole number 0–10 or a fraction \"1/N\" (N 2–10)")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Maneuvers, E> {
                if (0..=10).contains(&v) {
                    Ok(Maneuvers::per_round(v as i32))
                } else {
                    Err(E::custom(format!("{v} is out of range: expected 0 to 10, or \"1/N\"")))
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Maneuvers, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Maneuvers, E> {
                let n = v
                    .trim()
                    .strip_prefix("1/")
                    .and_then(|n| n.trim().parse::<i32>().ok())
                    .filter(|n| (2..=10).contains(n));
                n.map(Maneuvers::every).ok_or_else(|| {
                    E::custom(format!("\"{v}\": expected a fraction \"1/N\" with N 2–10, or a whole number"))
                })
            }
        }
        d.deserialize_any(V)
    }
}

fn one_size() -> f64 {
    1.0
}

fn is_one_size(v: &f64) -> bool {
    *v == 1.0
}

fn one() -> i32 {
    1
}

/// A built-in weapon row: name, range, force, maximum maneuvers, edge, maximum damage, hands,
/// shield.
pub type WeaponRow = (&'static str, i32, i32, i32, i32, i32, i32, bool);

/// A built-in ranged weapon row: name, range (yards), force, once every N rounds, edge,
/// maximum damage, hands, aim.
pub type RangedRow = (&'static str, i32, i32, i32, i32, i32, i32, i32);

/// Built-in ranged weapons: the digest's §4.16 placeholder short bow (its ½ maximum maneuver
/// is TEXT, §Ranged Weapon Attributes; range 60 yards, aim 3, the rest placeholders).
pub const RANGED: &[RangedRow] = &[("short bow", 60, 0, 2, 0, 3, 2, 3)];

/// Built-in weapons: the digest's §4.16 placeholder fixtures (range, force and maximum
/// maneuvers are TEXT where the seed gives them: sword 1/+1/3, spear range 2, medium axe 2
/// maneuvers, poinard 3, small shield maximum damage 1). Columns: name, range, force,
/// maximum maneuvers, edge, maximum damage, hands, shield.
pub const WEAPONS: &[WeaponRow] = &[
    ("dagger", 0, 0, 3, 0, 2, 1, false),
    ("sword", 1, 1, 3, 0, 3, 1, false),
    ("long sword", 1, 1, 3, 0, 3, 1, false),
    ("medium axe", 1, 0, 2, 1, 4, 1, false),
    ("poinard", 0, 0, 3, 0, 2, 1, false),
    ("spear", 2, 0, 2, 1, 3, 2, false),
    ("small shield", 0, 0, 2, 0, 1, 1, true),
    ("bare hands", 0, 0, 0, -1, 1, 1, false),
];

/// The built-in weapons' statistics the post does not give (digest §4.16 placeholders): each
/// with a plausible range, for `oddsmith rulesets cards --equipment`, the readings study and
/// the report's "In short". Not here, as the post gives them: the sword's range 1, force +1 and
/// 3 maneuvers, the long sword's and spear's ranges (1, 2), the medium axe's 2 and the
/// poinard's 3 maneuvers, the small shield's maximum damage 1, the dagger's and poinard's range
/// 0 (drawn for close range), the short bow's ½ maneuver, and bare hands (range 0, unlimited
/// maneuvers, the Hand Attack's maximum damage 1 and edge −1, «Hand-to-Hand Combat»).
pub const PLACEHOLDERS: &[crate::Placeholder] = &[
    crate::info::placeholder("dagger", "force", "0", "-1", "1", "§4.16: the post gives no dagger figures (only that it is drawn for range 0)"),
    crate::info::placeholder("dagger", "max_maneuvers", "3", "2", "4", "§4.16: the post gives no dagger figures; the poinard's 3"),
    crate::info::placeholder("dagger", "edge", "0", "-1", "1", "§4.16: the post gives no dagger figures"),
    crate::info::placeholder("dagger", "max_damage", "2", "1", "3", "§4.16: the post gives no dagger figures; below the sword's 3"),
    crate::info::placeholder("sword", "edge", "0", "-1", "1", "§4.16: the post gives the sword's range, force and maneuvers, not its edge"),
    crate::info::placeholder("sword", "max_damage", "3", "2", "4", "§4.16: the post gives the sword's range, force and maneuvers, not its damage"),
    crate::info::placeholder("long sword", "force", "1", "0", "2", "§4.16: the post gives only the long sword's range 1; a sword's force"),
    crate::info::placeholder("long sword", "max_maneuvers", "3", "2", "3", "§4.16: only its range 1 is in the post; a sword's 3, a heavier blade maybe fewer"),
    crate::info::placeholder("long sword", "edge", "0", "0", "1", "§4.16: only its range 1 is in the post"),
    crate::info::placeholder("long sword", "max_damage", "3", "3", "4", "§4.16: the post gives only the sword's; a long sword hits at least as hard"),
    crate::info::placeholder("medium axe", "range", "1", "0", "1", "§4.16: only its 2 maneuvers are in the post; a one-handed axe is about a yard"),
    crate::info::placeholder("medium axe", "force", "0", "-1", "1", "§4.16: only its 2 maneuvers are in the post"),
    crate::info::placeholder("medium axe", "edge", "1", "0", "2", "§4.16: only its 2 maneuvers are in the post; an axe bites deeper than a sword"),
    crate::info::placeholder("medium axe", "max_damage", "4", "3", "5", "§4.16: only its 2 maneuvers are in the post"),
    crate::info::placeholder("poinard", "force", "0", "-1", "1", "§4.16: the post gives the poinard's 3 maneuvers only; a dagger's"),
    crate::info::placeholder("poinard", "edge", "0", "-1", "1", "§4.16: the post gives the poinard's 3 maneuvers only; a dagger's"),
    crate::info::placeholder("poinard", "max_damage", "2", "1", "3", "§4.16: the post gives the poinard's 3 maneuvers, not its damage; a dagger's"),
    crate::info::placeholder("spear", "force", "0", "-1", "1", "§4.16: only its range 2 (and its thrown aim 3) is in the post"),
    crate::info::placeholder("spear", "max_maneuvers", "2", "1", "3", "§4.16: only its range 2 is in the post; a long two-handed weapon, fewer than a sword's 3"),
    crate::info::placeholder("spear", "edge", "1", "0", "2", "§4.16: only its range 2 is in the post; a thrusting point"),
    crate::info::placeholder("spear", "max_damage", "3", "2", "4", "§4.16: only its range 2 is in the post"),
    crate::info::placeholder("small shield", "force", "0", "0", "1", "§4.16: the post gives the shield's maximum damage 1, not its force"),
    crate::info::placeholder("small shield", "max_maneuvers", "2", "1", "3", "§4.16: the post gives the shield's maximum damage 1 and one bash a round, not its maneuvers"),
    crate::info::placeholder("short bow", "range", "60", "30", "100", "§4.16: only aim and ½ maneuver are in the post; a short bow's effective yards"),
    crate::info::placeholder("short bow", "force", "0", "0", "1", "§4.16: only aim and ½ maneuver are in the post"),
    crate::info::placeholder("short bow", "aim", "3", "2", "4", "§4.16: the post's aim 3 is the thrown spear's; a bow's is not given"),
    crate::info::placeholder("short bow", "max_damage", "3", "2", "4", "§4.16: only range, aim and ½ maneuver are in the post"),
];

/// Looks a built-in weapon up (case, `_` and `-` insensitive).
pub fn weapon(name: &str) -> Option<WeaponStats> {
    let n: String = name
        .trim()
        .to_ascii_lowercase()
        .replace(['_', '-'], " ");
    let n = if n == "parrying dagger" { "poinard".into() } else { n };
    let melee = WEAPONS.iter().find(|w| w.0 == n).map(
        |&(name, range, force, mm, edge, md, hands, shield)| WeaponStats {
            name: name.into(),
            range,
            force,
            max_maneuvers: Maneuvers::per_round(mm),
            edge,
            max_damage: md,
            hands,
            shield,
            ranged: false,
            aim: 0,
            impact: false,
        },
    );
    melee.or_else(|| {
        RANGED.iter().find(|w| w.0 == n).map(
            |&(name, range, force, every, edge, md, hands, aim)| WeaponStats {
                name: name.into(),
                range,
                force,
                max_maneuvers: Maneuvers::every(every),
                edge,
                max_damage: md,
                hands,
                shield: false,
                ranged: true,
                aim,
                impact: false,
            },
        )
    })
}

impl Builtin for WeaponStats {
    type Stats = WeaponStats;
    const WHAT: &'static str = "weapon";
    const EXPECTING: &'static str =
        "a weapon name (e.g. \"sword\") or a table { range, force, max_maneuvers, edge, max_damage }";
    fn by_name(v: &str) -> Result<Self, String> {
        weapon(v).ok_or_else(|| {
            let names = Self::names();
            let hint = " (or a table { range = 1, force = 1, max_maneuvers = 3, edge = 0, max_damage = 3 })";
            unknown("weapon", v, "built-in weapons", &names.join(", "), hint)
        })
    }
    fn names() -> Vec<&'static str> {
        WEAPONS.iter().map(|w| w.0).chain(RANGED.iter().map(|w| w.0)).collect()
    }
    fn base(name: &str) -> Option<Result<WeaponStats, String>> {
        weapon(name).map(Ok)
    }
    fn from_stats(stats: WeaponStats) -> Self {
        stats
    }
}

/// Digest §6.2: how a fighter plays, as attacker and as defender.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tactics {
    /// Card order when attacking.
    pub attacker: AttackerPolicy,
    /// Card choice when defending.
    pub defender: DefenderPolicy,
    /// When to hit a played hit card.
    pub hit: HitPolicy,
    /// Parry/Seize instead of a parry when card + modifiers − 3 reaches this (at most one
    /// per round); 99 = never.
    #[serde(deserialize_with = "de_range::<_, -20, 99>")]
    pub seize_threshold: i32,
    /// Highest cards kept back when attacking (for a possible seize), 0–10.
    #[serde(deserialize_with = "de_range::<_, 0, 10>")]
    pub reserve: i32,
    /// A Disarming Attack instead of an attack when the defender has no card left and the
    /// total would be above 0.
    pub disarm_unopposed: bool,
    /// Close (range too long), Push (at range 0) or Retreat (too short) with the best card
    /// when the weapon cannot attack at the current range.
    pub range_fix: bool,
    /// Lunge (−2, maximum damage +1) when the weapon is one yard short, instead of Close.
    pub lunge: bool,
    /// Melee-dodge when reach forbids a parry (the best card; a random one under the random
    /// defender tactic).
    pub dodge_when_no_parry: bool,
    /// A defender whose reach is not the range parries without stepping back once per round
    /// (−2) when that moves the range toward his reach (under `no_step_back_delta` −1 a
    /// shorter weapon closes in; under +1 a longer one opens out; under 0 never).
    pub close_with_parry: bool,
    /// Which item defends when both could (a main weapon and an off-hand shield, parrying
    /// dagger or second weapon; §Shields, Parrying Daggers & Off-hand Weapons leaves it to
    /// the fighter).
    pub defend_with: DefendWith,
    /// Attack without stepping forward (−2, §Range) while the opponent's reach is shorter than
    /// the range and he will not step back: he holds no card, or he has no shield and has not
    /// yet parried without stepping back this round. He cannot close in.
    pub keep_reach: bool,
    /// When to hesitate, relinquishing the initiative (§Hesitating).
    pub hesitate: Hesitate,
    /// `hesitate = "weak_hand"`: hesitate while the best card + attack modifiers is below
    /// this, −20…20.
    #[serde(deserialize_with = "de_range::<_, -20, 20>")]
    pub hesitate_below: i32,
    /// At range 0, bash with the off-hand shield (once a round) when no weapon can attack
    /// there (too long, or its maneuvers spent).
    pub shield_bash: bool,
    /// Try an Offensive Disengage (−4, the best card) instead of attacking once his hit points
    /// are down to this, −10…100 (0 = never: he would be out).
    #[serde(deserialize_with = "de_range::<_, -10, 100>")]
    pub disengage_at_hp: i32,
    /// A wrestler (barehanded, §Hand to Hand Combat): tackles at range 0 or 1, answers an
    /// attack with a Block Grab at the seize threshold, and at wrestling range holds or
    /// strikes; without it a fighter at wrestling range escapes.
    pub wrestle: bool,
    /// The wrestler's hold: Pin (−5) or Suffocate (−4).
    pub hold: Hold,
    /// Barehanded, answer an attack with the hand-to-hand Dodge (0) when it beats the Block
    /// (−1 unless the stronger); false = always the Block.
    pub hand_dodge: bool,
    /// The barehanded striker's attack (§Striking Maneuvers).
    pub strike: Strike,
    /// Barehanded, open each round with a Take Down (less the defender's finesse) while the
    /// defender holds cards.
    pub take_down: bool,
    /// Where his attacks aim (§Hit Location): the torso (no modifier) or a called shot.
    pub called_shot: Location,
    /// When to aim and when to fire a ranged weapon (§Aiming; digest §6.2 ranged policy).
    pub aim: AimPolicy,
    /// `aim = "until"`: fire once the best showing card reaches this, −10…10.
    #[serde(deserialize_with = "de_range::<_, -10, 10>")]
    pub aim_until: i32,
    /// `aim = "rounds"`: rounds of aiming before firing, 1–10.
    #[serde(deserialize_with = "de_range::<_, 1, 10>")]
    pub aim_rounds: i32,
    /// What he does in a round the opponent shoots at him (§Ranged Combat: Dodging, Blocking).
    pub missile_defense: MissileDefense,
    /// A lone fighter against a band (§Multiple Opponents): the one opponent he attacks.
    pub target: Target,
    /// A lone fighter against a band: when he attacks his target, since a card played to
    /// attack leaves no card for parries that register.
    pub band_attack: BandAttack,
    /// Against a large foe («Large Creature Maneuvers»): when to open with a Flank.
    #[serde(skip_serializing_if = "is_outreached")]
    pub flank: FlankPolicy,
    /// Against a large foe: Cling (−4) once his flank is in force (at once without `flank`).
    #[serde(skip_serializing_if = "is_false")]
    pub cling: bool,
    /// Clung to («Buck»): answer a Cling with a Buck and open his rounds with one while a foe
    /// clings to him.
    #[serde(skip_serializing_if = "is_true")]
    pub buck: bool,
    /// Against several small foes («Swipe»): when an attack on his target becomes a Swipe at
    /// several of them.
    #[serde(skip_serializing_if = "is_always_swipe")]
    pub swipe: SwipePolicy,
    /// With an impact weapon against a small foe («Smash»): when an attack becomes a Smash.
    #[serde(skip_serializing_if = "is_finishing")]
    pub smash: SmashPolicy,
}

fn is_always_swipe(v: &SwipePolicy) -> bool {
    *v == SwipePolicy::Always
}

fn is_finishing(v: &SmashPolicy) -> bool {
    *v == SmashPolicy::Finishing
}

/// «Swipe»: when a fighter whose foes include several small creatures turns the attack on his
/// target into a Swipe (less the number of creatures attacked, each defending on his own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwipePolicy {
    /// Whenever another small foe is in his weapon's reach: his target and every small foe in
    /// reach. Each of them must defend or be hit, and, defending or not, none of them attacks
    /// in that register (§Multiple Opponents: one card a register but for parries), against a
    /// penalty of one per creature on each: measured far above `never` against bands of two to
    /// four goblins and never below it.
    Always,
    /// Only when at least one other small foe in reach cannot defend this register (he holds no
    /// card, has stopped for the round, or has declared an attack in it and so parries
    /// nothing): his target and every such foe. Each of those is hit for the card's full
    /// damage («Unopposed Actions»: "Any unopposed maneuver automatically succeeds"; under
    /// `unopposed_auto_success = false` only if the Swipe's total is above 0), and the penalty
    /// costs at most his target's chance of being hit, so the register's expected damage never
    /// falls (the conservative choice).
    Undefended,
    /// Never.
    Never,
}

/// «Smash»: when a fighter with an impact weapon turns an attack on a small foe into a Smash
/// (−2, damage tripled, then no other action that round and the initiative surrendered).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SmashPolicy {
    /// When it finishes the foe and an attack would not: the foe holds no card (so the Smash
    /// is unopposed and succeeds, «Unopposed Actions»; under `unopposed_auto_success = false`
    /// its total must be above 0), the tripled damage of his card takes the foe out and the
    /// ordinary damage would not; in a group fight only with his last card (nothing is then
    /// left to give up). The fight, or that foe, is over, so the surrendered initiative and
    /// the lost actions cost nothing.
    Finishing,
    /// With every attack he may make a Smash (his first of the round, then he is done).
    Always,
    /// Never.
    Never,
}

fn is_outreached(v: &FlankPolicy) -> bool {
    *v == FlankPolicy::Outreached
}

/// «Flank»: when a fighter facing a large foe opens with a Flank (only while none of his is in
/// force, with his lowest card whose flank total is positive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlankPolicy {
    /// When the foe outreaches him (the foe's longest weapon is longer than his): the flank
    /// keeps the foe from attacking while he closes in. Against a foe of his reach a flank
    /// costs a card and a maneuver for little (the foe attacks only after seizing the
    /// initiative).
    Outreached,
    /// Whenever none of his flanks is in force.
    Always,
    /// Never.
    Never,
}

fn is_true(v: &bool) -> bool {
    *v
}

fn is_false(v: &bool) -> bool {
    !*v
}

impl Default for Tactics {
    fn default() -> Self {
        Tactics {
            attacker: AttackerPolicy::Greedy,
            defender: DefenderPolicy::Front,
            hit: HitPolicy::WhenLosing,
            seize_threshold: 5,
            reserve: 0,
            disarm_unopposed: true,
            range_fix: true,
            lunge: false,
            dodge_when_no_parry: true,
            close_with_parry: true,
            defend_with: DefendWith::Best,
            keep_reach: true,
            hesitate: Hesitate::Never,
            hesitate_below: 1,
            shield_bash: false,
            disengage_at_hp: 0,
            wrestle: false,
            hold: Hold::Pin,
            hand_dodge: true,
            strike: Strike::Hand,
            take_down: false,
            called_shot: Location::Torso,
            aim: AimPolicy::FireNow,
            aim_until: 5,
            aim_rounds: 2,
            missile_defense: MissileDefense::None,
            target: Target::Weakest,
            band_attack: BandAttack::Always,
            flank: FlankPolicy::Outreached,
            cling: false,
            buck: true,
            swipe: SwipePolicy::Always,
            smash: SmashPolicy::Finishing,
        }
    }
}

/// §Hit Location: where an attack aims ("assume all attacks are aimed at the target's torso").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// The torso or back: no modifier.
    Torso,
    /// The head, −5.
    Head,
    /// The head's vitals, −8.
    HeadVitals,
    /// The torso's vitals, −6.
    TorsoVitals,
    /// The legs, −3.
    Legs,
    /// The arms, −3.
    Arms,
}

impl Location {
    /// The attack modifier of a called shot (§Hit Location, normal-sized targets).
    pub fn modifier(self) -> i32 {
        match self {
            Location::Torso => 0,
            Location::Head => -5,
            Location::HeadVitals => -8,
            Location::TorsoVitals => -6,
            Location::Legs | Location::Arms => -3,
        }
    }

    /// The attack modifier of a called shot against a target of size class `foe`, replacing
    /// the ordinary one («Large Creature To-Hit Modifiers», «Small Creature To-Hit
    /// Modifiers»); `None` where the shot cannot be called ("An attacker can not call a shot
    /// against the head vitals of a small creature"). The torso, in neither table, stays 0.
    pub fn modifier_against(self, foe: FoeSize) -> Option<i32> {
        Some(match (foe, self) {
            (FoeSize::Equal, l) => l.modifier(),
            (_, Location::Torso) => 0,
            (FoeSize::Large, Location::Head) => -5,
            (FoeSize::Large, Location::HeadVitals) => -6,
            (FoeSize::Large, Location::TorsoVitals) => -4,
            (FoeSize::Large, Location::Legs) => 0,
            (FoeSize::Large, Location::Arms) => -2,
            (FoeSize::Small, Location::Head) => -8,
            (FoeSize::Small, Location::HeadVitals) => return None,
            (FoeSize::Small, Location::TorsoVitals) => -10,
            (FoeSize::Small, Location::Legs) => -6,
            (FoeSize::Small, Location::Arms) => -5,
        })
    }
}

/// «Unusual Foes»: what a foe is to an attacker by their sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoeSize {
    /// Neither large nor small: the ordinary rules.
    Equal,
    /// "A creature is considered a “large creature” if it is twice the size of the attacker."
    Large,
    /// "Any thing less than half the size of the attacker is considered a “small creature.”"
    Small,
}

impl FoeSize {
    /// What a foe of size `foe` is to an attacker of size `own`.
    pub fn of(own: f64, foe: f64) -> FoeSize {
        if foe >= 2.0 * own {
            FoeSize::Large
        } else if foe < 0.5 * own {
            FoeSize::Small
        } else {
            FoeSize::Equal
        }
    }
}

/// §Wrestling Maneuvers: the hold a wrestler plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hold {
    /// Pin (−5): "A successful pin maneuver ends combat."
    Pin,
    /// Suffocate (−4): ends normal combat; the target passes out.
    Suffocate,
}

/// §Striking Maneuvers: the barehanded striker's attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strike {
    /// Hand Attack (0): maximum damage 1, edge −1 (the best: the same damage at the easiest
    /// difficulty).
    Hand,
    /// Leg Attack (−1): maximum damage 1, edge −1.
    Leg,
    /// Head Butt (−2): maximum damage 1, edge −1; the attacker takes half the damage dealt.
    HeadButt,
}

/// §Hesitating: "At any point a player with the initiative may hesitate and relinquish the
/// initiative to his opponent. If both players hesitate, combat ends."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hesitate {
    /// Only when the tactic has nothing to declare at the start of a round.
    Never,
    /// When no weapon reaches at the range (instead of Close, Push or Retreat): let the
    /// opponent come.
    OutOfReach,
    /// When the best card + attack modifiers is below `hesitate_below`: keep the cards to
    /// defend.
    WeakHand,
}

/// Digest §6.2 attacker card ordering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackerPolicy {
    /// Highest remaining card every register.
    Greedy,
    /// Lowest first (feints soak up parries), the best last.
    Bait,
    /// A uniformly random card each register.
    Random,
}

/// Digest §6.2 defender policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefenderPolicy {
    /// Parry each register with the highest remaining card ("best-first").
    Front,
    /// Parry with the lowest card first, saving the best ("save-best").
    Back,
    /// Pass while holding fewer cards than the attacker can still declare, then parry in
    /// ascending order.
    CoverLast,
    /// A uniformly random card each register.
    Random,
}

/// Which item defends when the main weapon and the off-hand item both could (§Shields,
/// Parrying Daggers & Off-hand Weapons: the seed's example parries with the dagger by choice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefendWith {
    /// The competent choice for this card: a Parry/Seize with the weapon that reaches the
    /// seize threshold (the higher force, the off-hand on a tie), else the item with the
    /// higher defence total (force; the off-hand item on a tie, keeping the main weapon's
    /// maneuvers for attacks and seizes).
    Best,
    /// The off-hand item first, then the main weapon (the code's former fixed choice).
    OffHand,
    /// The main weapon first, then the off-hand item.
    Main,
}

/// Digest §6.2 hit decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitPolicy {
    /// Hit while losing the register and the last card is a hit card.
    WhenLosing,
    /// Never hit.
    Never,
    /// Always hit a hit card.
    Always,
}

/// §Aiming: when a fighter with a ranged weapon aims and when he fires (digest §6.2:
/// `fire_now`, `aim_until(t)`, `aim_k(k)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AimPolicy {
    /// Fire whenever the weapon is ready, with a hand of skill cards; never aim.
    FireNow,
    /// Aim until the best showing card reaches `aim_until` or the row holds the weapon's aim,
    /// then fire with it.
    Until,
    /// Aim `aim_rounds` rounds, then fire with the best showing card.
    Rounds,
}

/// §Ranged Combat: what a fighter does in a round the opponent means to shoot at him.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissileDefense {
    /// Nothing: he goes on closing, aiming or shooting.
    None,
    /// Dodge (dodge skill + awareness; the positive total is subtracted from the shot), and
    /// nothing else that round.
    Dodge,
    /// Block with his shield (an opposed check of shield skill against the shot), and nothing
    /// else that round; without a shield he does nothing special.
    Block,
}

/// §Multiple Opponents: whom a lone fighter attacks (and so holds the initiative over).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The opponent with the fewest hit points left (the first of them on a tie).
    Weakest,
    /// The first opponent still standing, until he falls.
    First,
}

/// §Multiple Opponents: "This is the only way a player can use more than one card in a
/// register" — a lone fighter who attacks his target in a register cannot parry in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BandAttack {
    /// Attack every register he can; the other opponents' attacks of that register are
    /// unparried.
    Always,
    /// Attack only in a register no other opponent attacks him in, so every attack on him can
    /// be parried.
    Free,
}
