//! d20 options: the digest's toggles (§5) and every duel INTERPRETATION of §6 (G-03 … G-29),
//! each with the digest's default. `OPTION_DOCS` documents them; a test keeps the lists in step.
//!
//! Distance (G-22 … G-24): `start`, `start_distance`, `missile_range` and `pursuit_rule` are
//! options; the charge ability, set-vs-charge, hit-and-run, the retreat policy and weapon reach
//! are fighter fields. These were added after the first release and are written to reports only
//! when not at their default, so reports of engaged duels are unchanged.
//!
//! Missile fighters in melee (`engaged_missile`) and the fumble's resistance check
//! (`fumble_resisted`) came with weapon switching, thrown supplies and damage kinds per attack.
//!
//! Not offered: `ability_gen` (G-01: scores are given explicitly),
//! `ability_mod_override` (G-02: values above 19 are rejected), `class_extrapolation` (G-30:
//! levels above 6 need an inline class table), `spreadsheet_save_vs_hps` (G-25: speculative
//! draft notes), and the AI choices `random`/`highest_threat` targeting.

use serde::{Deserialize, Serialize};

use crate::FieldDoc;
use crate::info::{Cond, Is, Requires, cond, warn};

crate::options! {
    /// Options under `[options]` for `ruleset = "d20"`.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct D20Options: RulesetOptions {
        /// «Rolling Attacks §2–3»: a natural 1 makes the attacker take the minimum damage of every
        /// engaged opponent.
        nat1_fumble: bool = true => (
            "true",
            "natural 1: the attacker takes the minimum damage of every engaged opponent («Rolling Attacks §2–3», optional result, on as the 'standard universal rule')",
        ),
        /// «Rolling Attacks §2–3»: a natural 20 "deals full normal damage".
        nat20_full_damage: bool = true => (
            "true",
            "natural 20: the hit deals 'full normal damage' (see crit_rule) («Rolling Attacks §2–3»)",
        ),
        /// G-15: what "full normal damage" means.
        crit_rule: CritRule = CritRule::Max => (
            "\"max\"",
            "G-15 meaning of full damage: \"max\" (all dice at maximum + modifiers) | \"bypass_resistance\" (rolled damage, no resistance check)", reading ["max", "bypass_resistance"],
        ),
        /// G-08: the damage die a weapon rolls from its maximum damage (cap).
        damage_die: DamageDie = DamageDie::OneDie => (
            "\"one_die\"",
            "G-08 damage from a weapon's maximum damage M: \"one_die\" (1dM) | \"two_dice\" (2d(M/2), odd M keeps 1dM)", reading ["one_die", "two_dice"],
        ),
        /// G-08: a light weapon used as medium (or medium as heavy) takes the cap of that class.
        versatile_upgrade: bool = false => (
            "false",
            "G-08: a weapon's used_as grip (light as medium, medium as heavy) also raises its cap", reading [false, true],
        ),
        /// G-08: what a weapon whose dice exceed its cap does.
        enforce_caps: EnforceCaps = EnforceCaps::Warn => (
            "\"warn\"",
            "G-08 weapon dice above the cap: \"error\" | \"warn\" (noted in the fighter's facts) | \"off\"",
        ),
        /// G-09: the ability modifier may lift damage above the weapon's cap.
        damage_mod_exceeds_cap: bool = true => (
            "true",
            "G-09: the ability (and equipment) damage modifier may take damage above the cap", reading [true, false],
        ),
        /// G-10: least damage of a hit (and of a fumble's "minimum damage").
        min_damage_on_hit: i32 = 1, in 0..=5 => (
            "1",
            "G-10: least damage of a hit and of a fumble's 'minimum damage', 0–5", invented (0, 2, "G-10: the seed gives no least damage of a hit"),
        ),
        /// G-03: Con modifier on species Hit Dice: per die or once.
        con_hp_species: ConHp = ConHp::PerHd => (
            "\"per_hd\"",
            "G-03 Con modifier on species Hit Dice: \"per_hd\" | \"once\" (class levels always add it per level)", reading ["per_hd", "once"],
        ),
        /// «Modifiers» note 1: the Con modifier is added at each class level (else once).
        con_per_level: bool = true => (
            "true",
            "«Modifiers for Standard Ability Values» note 1 (stated): Con modifier added at each class level; false = once for all levels",
        ),
        /// G-07: HP of a ½ Hit Die.
        half_hd_hp: HalfHd = HalfHd::CeilHalfDie => (
            "\"ceil_half_die\"",
            "G-07 HP of ½ HD: \"ceil_half_die\" (ceil(d8/2) ~ U1–4) | \"half_die_type\" (d4) | \"round_down\" (none)", reading ["ceil_half_die", "half_die_type", "round_down"],
        ),
        /// G-07: BtH from fractional Hit Dice.
        fractional_bth: FractionalBth = FractionalBth::Floor => (
            "\"floor\"",
            "G-07 BtH of ½ HD (+1 per HD): \"floor\" | \"round_up\"", reading ["floor", "round_up"],
        ),
        /// G-04: least HP from each Hit Die or class level (the total is always at least 1).
        min_hp_per_die: i32 = 1, in 0..=5 => (
            "1",
            "G-04: least HP per Hit Die or class level after Con, 0–5; total HP is at least 1", invented (0, 2, "G-04: the seed gives no least HP per Hit Die"),
        ),
        /// G-05: `n(b+d4)`: a d4 per level, or one d4 times n.
        class_hp_roll: ClassHpRoll = ClassHpRoll::PerLevel => (
            "\"per_level\"",
            "G-05 n(b+d4): \"per_level\" (n·b + n d4) | \"single_times_n\" (n·(b + one d4))", reading ["per_level", "single_times_n"],
        ),
        /// G-06: species Hit Dice and class levels stack (HP and BtH), or class levels replace them.
        species_class_stacking: bool = true => (
            "true",
            "G-06: species HD and class levels both give HP and BtH; false = a classed creature uses class levels only", reading [true, false],
        ),
        /// G-33: monsters (non-playable species) may take class levels.
        allow_monster_classes: bool = false => (
            "false",
            "G-33: non-playable species (monsters) may take class levels («Creatures §1» says they cannot)",
        ),
        /// G-13: Dex modifies Movement before armour's penalty (else after).
        dex_before_armor: bool = true => (
            "true",
            "G-13: speed = ceil((Mv + Dex mod) × (1 − PtM)); false = ceil(Mv × (1 − PtM)) + Dex mod; at least 1", reading [true, false],
        ),
        /// G-13: how armour and shield penalties to movement combine.
        ptm_stacking: PtmStacking = PtmStacking::AddCap => (
            "\"add_cap\"",
            "G-13 armour + shield PtM: \"add_cap\" (sum, at most 2/3) | \"multiply\"", reading ["add_cap", "multiply"],
        ),
        /// G-14: the speed that orders actions within a segment.
        initiative_speed: InitiativeSpeed = InitiativeSpeed::Effective => (
            "\"effective\"",
            "G-14 speed ordering a segment (fastest first, equal = simultaneous): \"effective\" | \"base\" (species Mv)", reading ["effective", "base"],
        ),
        /// G-20: attacks per round of a "by weapon" creature with its primary weapon.
        by_weapon_attacks: u8 = 1, in 1..=4 => (
            "1",
            "G-20 attacks per round of a 'by weapon' creature, 1–4 (bows shoot twice per attack action)", invented (1, 2, "G-20: the seed says 'by weapon' without a count"),
        ),
        /// G-20: a light weapon in the secondary hand gives one extra attack.
        offhand_attack: bool = false => (
            "false",
            "G-20: a light weapon in the secondary hand (fighter field offhand) gives one extra attack",
        ),
        /// G-20: to-hit modifier of the off-hand attack (the text gives no penalty).
        offhand_to_hit: i32 = 0, in -10..=10 => (
            "0",
            "G-20: to-hit modifier of the off-hand attack, −10 to 10",
        ),
        /// G-11: weapon proficiency modifies the attack roll (++ +3, + +1, # 0, − −1, −− −3).
        proficiency_to_hit: bool = false => (
            "false",
            "G-11: the fighter's proficiency modifies to-hit: ++ +3, + +1, # 0, - −1, -- −3",
        ),
        /// G-21: per-hit cap of a crossbow.
        crossbow_reading: CrossbowReading = CrossbowReading::PerRoundCap => (
            "\"per_round_cap\"",
            "G-21 crossbow per-hit cap: \"per_round_cap\" (table value; fires rounds 1, 3, 5, …) | \"average_rate\" (twice the table value)", reading ["per_round_cap", "average_rate"],
        ),
        /// G-19: fight until a side is incapacitated, or until it is dead.
        fight_to: FightTo = FightTo::Incapacitated => (
            "\"incapacitated\"",
            "G-19: \"incapacitated\" (a side with nobody at HP > 0 loses) | \"death\" (downed foes are attacked until HP ≤ Death Point)", reading ["incapacitated", "death"],
        ),
        /// G-19: under `fight_to = "death"`, attacks on a downed foe hit automatically.
        helpless_auto_hit: bool = false => (
            "false",
            "G-19: under fight_to = \"death\", attacks on a downed foe hit automatically (no fumble)",
        ),
        /// G-19: round cap; a duel still going is a draw marked "timeout".
        max_rounds: u32 = 1000, in 1..=100_000 => (
            "1000",
            "G-19: round cap, 1–100000; a duel still going is a draw marked timeout",
        ),
        /// G-28: rounding of the resistance "½" and of Reflect ½.
        halve_rounding: HalveRounding = HalveRounding::FloorMin1 => (
            "\"floor_min1\"",
            "G-28 resistance ½ and Reflect ½: \"floor_min1\" | \"ceil\" | \"floor\"", reading ["floor_min1", "ceil", "floor"],
        ),
        /// «Damage and Death §4»: crippling damage lowers maximum HPs; what happens to current HPs.
        crippling_current: CripplingCurrent = CripplingCurrent::Cap => (
            "\"cap\"",
            "«Damage and Death §4» crippling damage lowers maximum HP: \"cap\" (current HP cut to the new maximum; seed as written) | \"reduce\" (current HP falls too)", reading ["cap", "reduce"],
        ),
        /// G-29: skill checks: no modifier (RAW), or the proficiency shifts rolls 2–19.
        skill_modifier_mode: SkillMode = SkillMode::None => (
            "\"none\"",
            "G-29 skill checks: \"none\" (unmodified d20) | \"shift\" (proficiency bonus on rolls 2–19, clamped)", reading ["none", "shift"],
        ),
        /// G-22: the duel starts engaged in melee, or at `start_distance`.
        #[serde(skip_serializing_if = "is_default")]
        start: Start = Start::Engaged => (
            "\"engaged\"",
            "G-22: \"engaged\" (duels start in melee) | \"range\" (at start_distance: melee fighters close their effective Mv in the Melee segment, engaged from the next round once the distance is ≤ their weapon's reach; chargers may charge; missile fighters shoot within missile_range)",
        ),
        /// G-22: distance between the sides at the start under `start = "range"`, in Mv units.
        #[serde(skip_serializing_if = "is_24")]
        start_distance: i32 = 24, in 1..=1000 => (
            "24",
            "G-22: starting distance in Mv units under start = \"range\", 1–1000 (24: not in the seed, invented; plausible 6–60)", invented (6, 60, "G-22: the seed gives no starting distance in Mv units"),
        ),
        /// G-22: missile weapons shoot while the distance is at most this (Mv units).
        #[serde(skip_serializing_if = "is_60")]
        missile_range: i32 = 60, in 1..=1000 => (
            "60",
            "G-22: missile weapons shoot (Missile segment) while the distance is ≤ this, 1–1000; a missile fighter farther away closes to it (60: not in the seed, invented; plausible 20–200)", invented (20, 200, "G-22: the seed gives no missile range in Mv units"),
        ),
        /// G-24: whether a pursuer catches a retreating creature.
        #[serde(skip_serializing_if = "is_default")]
        pursuit_rule: PursuitRule = PursuitRule::FasterCatches => (
            "\"faster_catches\"",
            "G-24 pursuit of a retreating creature: \"faster_catches\" (the fastest able foe not in a pursuit this round and not fleeing itself pursues, and catches iff its effective Mv is greater: the pursuit takes the rest of the round from both, and the sides are engaged from then on; else it escapes, off the field alive, and a side with nobody able left yields: the side holding the field wins, ending 'yield') | \"none\" (always escapes)", reading ["faster_catches", "none"],
        ),
        /// §6 AI "else melee": what an engaged creature with a missile weapon does.
        #[serde(skip_serializing_if = "is_default")]
        engaged_missile: EngagedMissile = EngagedMissile::Melee => (
            "\"melee\"",
            "an engaged missile fighter: \"melee\" (the digest's AI: it melees in the Melee segment, by speed, with its melee_weapon, else one attack with the missile weapon, G-20 'by weapon') | \"shoot\" (keeps shooting in the Missile segment at the full fire rate, before any melee; the seed does not say)",
        ),
        /// «Rolling Attacks §2–3» with «Resistance Check»: a fumbler resists the fumble's damage.
        #[serde(skip_serializing_if = "is_true")]
        fumble_resisted: bool = true => (
            "true",
            "the natural-1 fumble's minimum damage is weapon damage: the fumbler's weapon resistance («Resistance Check») rolls against it like any other hit | false (taken in full)", reading [true, false],
        ),
        /// «Sample Creatures»: "These stats are not modified by equipment, ability scores, or
        /// class level."
        #[serde(skip_serializing_if = "is_default")]
        creature_defense: CreatureDefense = CreatureDefense::AsListed => (
            "\"as_listed\"",
            "«Sample Creatures» (\"these stats are not modified by equipment, ability scores, or class level\"): a creature without a class fights with its species' Defense as listed, no Dex, armour or shield added (\"as_listed\") | \"modified\" (species Defense + Dex + armour + shield for every creature, the digest's G-12 reading); a classed character always adds them («Standard Abilities §2.3»)", reading ["as_listed", "modified"],
        ),
        /// «Order of Combat §2.1»: what "rolled first" means for equal speeds.
        #[serde(skip_serializing_if = "is_default")]
        equal_speed: EqualSpeed = EqualSpeed::Simultaneous => (
            "\"simultaneous\"",
            "«Order of Combat §2.1» (\"the same speed attack simultaneously. However, those attacking the player's character or party are rolled first\"): \"simultaneous\" (side B, attacking the party, only rolls first; damage lands together) | \"resolve_first\" (side B's equal-speed group resolves before side A's, so a party member it drops does not strike back)", reading ["simultaneous", "resolve_first"],
        ),
        /// «Rolling Attacks §2»: an engaged opponent's "minimum damage" on a natural 1.
        #[serde(skip_serializing_if = "is_default")]
        fumble_damage: FumbleDamage = FumbleDamage::Sequence => (
            "\"sequence\"",
            "«Rolling Attacks §2» natural 1, \"minimum damage from all engaged opponents\": each engaged opponent deals the minimum of its whole engaged attack sequence, every attack at its least (\"sequence\") | \"first_attack\" (the minimum of its first attack only)", reading ["sequence", "first_attack"],
        ),
        /// «Rolling Attacks §2» with «Resistance Check §3.1»: how a natural 1's minimum
        /// damage is resisted, per set of damage dice or in one lump per opponent.
        #[serde(skip_serializing_if = "is_default")]
        fumble_resist_per: FumbleResistPer = FumbleResistPer::Attack => (
            "\"attack\"",
            "«Rolling Attacks §2» natural 1 (\"minimum damage from all engaged opponents\") under fumble_resisted: \"attack\" (a reading of «Resistance Check §3.1» \"each set of damage dice\": every engaged attack's minimum is its own set, resisted by its own roll) | \"opponent\" (one roll against each opponent's summed minimum, the reading before)", reading ["attack", "opponent"],
        ),
        /// «Resistance Check §3.1»: "−1 … slightly lessen the effect of each unit of magic".
        #[serde(skip_serializing_if = "is_default")]
        magic_minus_one: MagicMinusOne = MagicMinusOne::Total => (
            "\"total\"",
            "«Resistance Check §3.1» −1 against a damage spell: \"total\" (1 off the spell, as off one set of damage dice: \"slightly\", and weaker than ½ as the table orders them) | \"per_unit\" (1 off for each HP unit of the spell, at least min_damage_on_hit)", reading ["total", "per_unit"],
        ),
    }
    requires = OPTION_REQUIRES;
}

const fn on(field: &'static str, is: Is) -> [Cond; 1] {
    [cond(field, is)]
}

const TRUE: Is = Is::OneOf(&["true"]);

/// The options read only with another option ("only with …" in `oddsmith rulesets d20`),
/// checked for every file by the loader.
pub const OPTION_REQUIRES: &[Requires] = &[
    warn("offhand_to_hit", &on("offhand_attack", TRUE), "without it the secondary hand makes no attack"),
    warn("fumble_resist_per", &[cond("nat1_fumble", TRUE), cond("fumble_resisted", TRUE)], "it is how a resisted fumble is rolled"),
];

/// Documentation of every option, in declaration order.
pub const OPTION_DOCS: &[FieldDoc] = D20Options::DOCS;

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}
fn is_true(v: &bool) -> bool {
    *v
}
fn is_24(v: &i32) -> bool {
    *v == 24
}
fn is_60(v: &i32) -> bool {
    *v == 60
}

/// «Sample Creatures»: whether a creature's listed Defense takes Dex and equipment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CreatureDefense {
    /// A creature without a class uses the table's Defense as it stands ("not modified by
    /// equipment, ability scores, or class level").
    #[default]
    AsListed,
    /// Species Defense + Dex modifier + armour + shield for everyone (digest G-12).
    Modified,
}

/// «Order of Combat §2.1»: equal speeds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EqualSpeed {
    /// One simultaneous group; side B's dice are read first.
    #[default]
    Simultaneous,
    /// Side B (attacking the party, side A) resolves in a group of its own before side A.
    ResolveFirst,
}

/// «Rolling Attacks §2»: an engaged opponent's minimum damage on a natural 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FumbleDamage {
    /// Every attack of its engaged sequence at its least.
    #[default]
    Sequence,
    /// Its first attack at its least (the reading before issue 35).
    FirstAttack,
}

/// «Rolling Attacks §2» with «Resistance Check §3.1»: what one resistance roll meets when a
/// fumbler resists the minimum damage of its engaged opponents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FumbleResistPer {
    /// Each engaged attack's minimum, a set of damage dice of its own: one roll each.
    #[default]
    Attack,
    /// Each opponent's summed minimum: one roll per opponent (the reading before issue 35).
    Opponent,
}

/// «Resistance Check §3.1»: the −1 result against a damage spell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MagicMinusOne {
    /// 1 off the spell's damage.
    #[default]
    Total,
    /// 1 off per HP unit of the spell.
    PerUnit,
}

/// What an engaged creature with a missile weapon does (§6 AI, G-20).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngagedMissile {
    /// Melees in the Melee segment: with its `melee_weapon`, else one attack ("by weapon")
    /// with the missile weapon.
    #[default]
    Melee,
    /// Keeps shooting in the Missile segment at the full fire rate.
    Shoot,
}

/// G-22: how a duel starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// Engaged in melee (the digest's default).
    #[default]
    Engaged,
    /// At `start_distance`: melee fighters close (or charge), missile fighters shoot.
    Range,
}

/// G-24: pursuit of a retreating creature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PursuitRule {
    /// Caught iff the pursuer's effective Mv is greater than the retreater's.
    #[default]
    FasterCatches,
    /// Nobody pursues: a retreater who survives to its slot escapes.
    None,
}


/// G-15: the meaning of "full normal damage".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CritRule {
    /// Maximum damage: every die at its maximum, plus modifiers.
    Max,
    /// Normal rolled damage that ignores the target's resistance check.
    BypassResistance,
}

/// G-08: the die behind a maximum damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageDie {
    /// One uniform die 1..cap (digest default).
    OneDie,
    /// Two dice of cap/2 (same maximum, bell-shaped; odd caps keep one die).
    TwoDice,
}

/// G-08: weapons whose dice exceed their cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnforceCaps {
    /// Reject the fighter.
    Error,
    /// Accept, and say so in the fighter's facts.
    Warn,
    /// Accept silently.
    Off,
}

/// G-03: Con on species Hit Dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConHp {
    /// Once per Hit Die.
    PerHd,
    /// Once in total.
    Once,
}

/// G-07: HP of a ½ Hit Die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HalfHd {
    /// ceil(d(size)/2): uniform 1–4 for a Medium creature.
    CeilHalfDie,
    /// A die of half the faces (d8 → d4).
    HalfDieType,
    /// No HP from the ½ (rounds down to 0 HD).
    RoundDown,
}

/// G-07: BtH from fractional Hit Dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FractionalBth {
    /// floor(HD).
    Floor,
    /// ½ rounds up.
    RoundUp,
}

/// G-05: `n(b+d4)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClassHpRoll {
    /// A d4 each level: n·b + n·d4.
    PerLevel,
    /// One d4, times n: n·(b + d4).
    SingleTimesN,
}

/// G-13: combining penalties to movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PtmStacking {
    /// Add armour and shield, cap at 2/3.
    AddCap,
    /// Multiply the remaining fractions.
    Multiply,
}

/// G-14: the speed for ordering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InitiativeSpeed {
    /// After Dex and armour.
    Effective,
    /// The species' Movement.
    Base,
}

/// G-21: crossbow per-hit maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CrossbowReading {
    /// The table value per hit (one shot in two rounds).
    PerRoundCap,
    /// Twice the table value (the table as an average over two rounds).
    AverageRate,
}

/// G-19: when the duel ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FightTo {
    /// A side with nobody able to fight loses.
    Incapacitated,
    /// Downed foes are attacked until dead (HP ≤ Death Point).
    Death,
}

/// G-28: halving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HalveRounding {
    /// max(1, floor(d/2)).
    FloorMin1,
    /// ceil(d/2).
    Ceil,
    /// floor(d/2), possibly 0.
    Floor,
}

/// Crippling damage and current HPs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CripplingCurrent {
    /// Seed as written: lowers the maximum; current HPs are cut to the new maximum.
    Cap,
    /// Lowers the maximum and current HPs alike.
    Reduce,
}

/// G-29: skill checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkillMode {
    /// Unmodified d20 (RAW).
    None,
    /// Add the proficiency bonus to rolls 2–19, clamped to 2–19.
    Shift,
}

