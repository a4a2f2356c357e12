//! Draft options: the knobs of digest §5 that an engaged melee duel uses, with the digest's
//! defaults, except where the seed speaks against the digest (`striking_order`: the seed's
//! longer-weapon-first order, §4.17.2; the digest's skill-first loop is the other value). Each
//! duel INTERPRETATION of the digest (G1–G11, exhaustion of G20) is one option here, declared
//! once in the `options!` table below with its default, doc and bounds.
//!
//! The duel that starts apart (`start_distance`, G17) brings the missile options of §4.21
//! (G1, G13, G15, G16, the shield of §4.21.3) and the Charge of §4.22.2.
//!
//! Changing One's Mind (§4.17.6) follows the seed by default (`changing_mind`; `"free"` is the
//! digest's loop); the potent-fighter shift (§4.17.2) is offered off, as the seed leaves it to
//! the GM (`potent_fighter_shift`).
//!
//! Aiming (§4.21.1: `aim_segments`, `unaimed_shot_modifier`, `extra_aim_bonus` with the
//! fighter's `aim`), thrown weapons (§4.21.3: `thrown_dodge`) and closing speeds (§4.17.5,
//! §4.19.2: `run_per_segment`, `heavy_armour_movement`) are offered; values the seed does not
//! give are marked "not in the seed" in their docs.
//!
//! Not offered, because the duel model has no place for them yet: target size and cover
//! (§4.21.2, §4.21.4) and magic.

use serde::{Deserialize, Serialize};

use super::tables::ArmourTable;
use crate::FieldDoc;
use crate::info::{Cond, Is, Requires, cond, warn};

crate::options! {
    /// Options under `[options]` for `ruleset = "draft"`.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct DraftOptions: RulesetOptions {
        /// Actions per round without penalty (§4.17.1).
        free_actions_per_round: u8 = 2 => (
            "2",
            "actions per round without penalty (§4.17.1)",
        ),
        /// Hard cap on actions per round (three one-segment actions, §4.17.1).
        max_actions_per_round: u8 = 3, in 1..=3 => (
            "3",
            "hard cap: three one-segment actions per round (§4.17.1, §4.23.2)",
        ),
        /// Modifier on every action beyond the free ones (§4.17.1).
        extra_action_modifier: i32 = -1, in -50..=50 => (
            "-1",
            "modifier on the action beyond the free ones (§4.17.1)",
        ),
        /// What enters damage: `weapon_damage` (§4.19.1) or `impact` (§4.19 prose), G2.
        damage_term: DamageTerm = DamageTerm::WeaponDamage => (
            "\"weapon_damage\"",
            "G2: \"weapon_damage\" = 2·impact + aspect + bonus (§4.19.1) | \"impact\" (§4.19 prose)", reading ["weapon_damage", "impact"],
        ),
        /// Weapon damage = multiplier × impact + aspect bonus + weapon bonus (§4.19.1).
        weapon_damage_multiplier: i32 = 2, in 0..=10 => (
            "2",
            "impact multiplier in weapon damage (§4.19.1)",
        ),
        /// Bonus for pointed or sharp weapons (§4.19.1), at most once.
        aspect_bonus: i32 = 1, in -10..=10 => (
            "1",
            "damage bonus of pointed or sharp weapons, at most once (§4.19.1)",
        ),
        /// The strength bonus on damage (§4.19).
        strength_bonus: StrengthBonus = StrengthBonus::default(), @nested => (
            "{ enabled = true, table = [[9, 2], [7, 1]], weak_max = 2, weak_bonus = -1 }",
            "damage bonus by STR (§4.19); enabled = false drops it",
        ),
        /// Damage at or below this is a scratch, no wound (§4.19.2).
        scratch_max_damage: i32 = 1, in 0..=50 => (
            "1",
            "damage at or below this is a scratch, no wound (§4.19.2)",
        ),
        /// How "half the CON" is compared for Light wounds (G6).
        light_wound_rounding: Rounding = Rounding::Exact => (
            "\"exact\"",
            "G6: Light iff 2·dmg ≤ CON (\"exact\") | \"half_up\" | \"floor\"", reading ["exact", "half_up", "floor"],
        ),
        /// Wounds a fighter endures per level before the next is upgraded (§4.19.3).
        wound_capacity: WoundCapacity = WoundCapacity::default(), @nested => (
            "{ light = 3, severe = 2, critical = 1 }",
            "wounds endured per level before the next converts (§4.19.3)",
        ),
        /// What happens to a full track when a wound overflows (G8).
        wound_overflow: Overflow = Overflow::Keep => (
            "\"keep\"",
            "G8: a full track stays full (\"keep\") | is emptied as it converts (\"reset\")", reading ["keep", "reset"],
        ),
        /// Penalty per wound held on attack, parry and dodge rolls (§4.19.2, G10).
        wound_penalties: WoundPenalties = WoundPenalties::default(), @nested => (
            "{ light = -1, severe = -2, critical = -4 }",
            "per wound held, on attack, parry and dodge (§4.19.2, G10)",
        ),
        /// Apply the Severe "manual dexterity −1" to combat rolls too (G10).
        severe_manual_penalty_in_combat: bool = false => (
            "false",
            "G10: also apply the Severe −1 manual penalty to combat rolls", reading [false, true],
        ),
        /// Effect of being "driven backwards" by a Severe wound (G11).
        severe_knockback: Knockback = Knockback::PushedBack => (
            "\"pushed_back\"",
            "G11: \"pushed_back\" (no effect in the open) | \"penalty\" (−1 rest of round)", reading ["pushed_back", "penalty"],
        ),
        /// What ends the duel (G9).
        end_condition: EndCondition = EndCondition::Incapacitated => (
            "\"incapacitated\"",
            "G9: \"incapacitated\" (Critical or death) | \"death\" | \"first_wound\" | \"first_severe\"",
        ),
        /// Under `end_condition = "death"`: may a Critically wounded fighter still attack (G9).
        critical_can_attack: bool = false => (
            "false",
            "G9: under end_condition = \"death\", may a Critically wounded fighter attack",
        ),
        /// Passive defence total of a fighter that does not or cannot defend (G1).
        undefended_value: i32 = 5, in -50..=50 => (
            "5",
            "G1: passive defence total when no active defence is made (§4.18.1)", invented (3, 7, "G1: §4.18.1 gives no passive defence total; 5 is a middling total"),
        ),
        /// §4.17.2: what decides who strikes first within a segment.
        striking_order: StrikingOrder = StrikingOrder::Seed => (
            "\"seed\"",
            "§4.17.2, G4: \"seed\" (a very wide weight gap: lighter first; else the longer weapon; else the higher skill; else first_strike_tie) | \"skill_first\" (the digest's §6 loop: weight gap, then skill, then first_strike_tie; lengths unused)", reading ["seed", "skill_first"],
        ),
        /// §4.17.2: the optional potent-fighter shift ("a GM could decide"), off by default.
        potent_fighter_shift: bool = false => (
            "false",
            "§4.17.2 \"a GM could decide\": a fighter whose weapon skill is potent_fighter_gap or more above the other's acts one segment earlier when the two fight in different ways: it strikes first in spite of weight or length, and finishes drawing, picking up or moving in a segment sooner",
        ),
        /// Skill gap that makes a fighter potent (§4.17.2 "differ by 5 or more points").
        potent_fighter_gap: i32 = 5, in 1..=30 => (
            "5",
            "§4.17.2: weapon-skill gap at which potent_fighter_shift applies",
        ),
        /// §4.18.2, §4.18.3: what a parry's or dodge's "one segment" costs.
        parry_segment: ParrySegment = ParrySegment::Action => (
            "\"action\"",
            "§4.18.2 \"a character who chooses to parry a blow looses one segment of the current round\" (and §4.18.3 for a dodge): \"action\" (a reading, after §4.17.1's \"her amount of remaining actions would have to be adjusted accordingly\": the parry or dodge is one of the round's three one-segment actions, so it uses up one, the attacks keep their segments) | \"segment\" (it also takes its segment: the defender's attacks not yet made this round move to the segments after it, one pushed past segment 3 is lost)", reading ["action", "segment"],
        ),
        /// §4.17.6 Changing One's Mind: does a defence the plan did not declare cost a penalty.
        changing_mind: ChangingMind = ChangingMind::Seed => (
            "\"seed\"",
            "§4.17.6: \"seed\" (each round's plan declares the policy's attacks and keeps its other actions as parries or dodges; a defence beyond those replaces a planned attack, at changing_mind_modifier) | \"free\" (the digest's §6 loop: defences never pay)",
        ),
        /// §4.17.6: modifier on a defence that replaces a planned attack (a Similar action).
        changing_mind_modifier: i32 = -1, in -50..=50 => (
            "-1",
            "§4.17.6: modifier on a parry or dodge that replaces a planned attack (a Similar action; a dodge is always Similar)",
        ),
        /// Who strikes first when weapons and skills do not decide (G4).
        first_strike_tie: FirstStrikeTie = FirstStrikeTie::Random => (
            "\"random\"",
            "G4: when weapons and skills tie: \"random\" each round | \"a\" | \"b\" | \"simultaneous\"", reading ["random", "simultaneous"],
        ),
        /// Impact gap at which the lighter weapon strikes first (§4.17.2, G4).
        wide_weight_gap: i32 = 2, in 1..=10 => (
            "2",
            "G4: impact gap at which the lighter weapon strikes first (§4.17.2)",
        ),
        /// A weapon may parry attacks of impact up to its own plus this (§4.18.2).
        parry_impact_reach: i32 = 1, in -10..=10 => (
            "1",
            "a weapon parries attacks of impact ≤ its own + this (§4.18.2)",
        ),
        /// Shield bonuses (§4.18.2).
        shield_bonus: ShieldBonus = ShieldBonus::default(), @nested => (
            "{ small = 1, large = 2 }",
            "shield parry bonus (§4.18.2)",
        ),
        /// Where the shield bonus applies (G5).
        shield_bonus_applies_to: ShieldBonusScope = ShieldBonusScope::ShieldParry => (
            "\"shield_parry\"",
            "G5: \"shield_parry\" | \"all_defenses\" (also weapon parries and dodges)", reading ["shield_parry", "all_defenses"],
        ),
        /// Highest attacking impact a shield can parry (§4.18.1, G5).
        shield_max_parry_impact: ShieldMaxParryImpact = ShieldMaxParryImpact::default(), @nested => (
            "{ small = 3, large = 3 }",
            "G5: highest attacking impact a shield can parry (§4.18.1)",
        ),
        /// Modifier for a familiar but different weapon (§4.17.3).
        unfamiliar_weapon_modifier: i32 = -1, in -50..=50 => (
            "-1",
            "for a fighter with unfamiliar_weapon = true (§4.17.3)",
        ),
        /// Bonus to parries and dodges in Defensive Position (§4.22.1).
        defensive_position_bonus: i32 = 2, in -50..=50 => (
            "2",
            "parry/dodge bonus in Defensive Position (§4.22.1)",
        ),
        /// Whether the §4.23.3 position and surprise flags modify parries and dodges too.
        situation_on_defence: bool = true => (
            "true",
            "§4.23.3 gives its modifiers for \"certain actions\": true (a reading: higher_ground, surprised, lower_ground, sitting and lying modify parries and dodges as well as attacks) | false (attacks only)", reading [true, false],
        ),
        /// Bonus to attacks on a fighter lying helpless (§4.23.3 "opponent lying").
        lying_target_bonus: i32 = 1, in -50..=50 => (
            "1",
            "attack bonus against a helpless fighter lying down (§4.23.3, G9)",
        ),
        /// Which damaged armour row is which type (G7).
        armor_table: ArmourTable = ArmourTable::A => (
            "\"A\"",
            "G7: which damaged armour row is which type: \"A\" | \"B\" (§4.17.5)", reading ["A", "B"],
        ),
        /// Optional exhaustion rule (§4.24.1): one exhaustion point per round against Stamina
        /// (every round of an engaged duel counts as exhausting for both fighters).
        exhaustion: bool = false => (
            "false",
            "optional rule §4.24.1: 1 EP per round; EP > Stamina Light, > 2·Stamina Severe, ≥ 3·Stamina out",
        ),
        /// Metres between the fighters when the duel starts; 0 = engaged (G17).
        start_distance: u16 = 0, in 0..=2000 => (
            "0",
            "G17: metres apart at the start; 0 = engaged, weapons drawn (today's duel); > 0: a fighter with a missile weapon in range shoots, the other closes",
        ),
        /// Metres a sprinting fighter covers per segment while closing (the seed gives no speed,
        /// §4.17.1: not in the seed).
        move_per_segment: u16 = 6, in 1..=100 => (
            "6",
            "metres a sprinting fighter covers per segment while closing (not in the seed, plausible 5–8): a Full move (3 segments, §4.17.1) covers 3× this; the arrival is a Normal move (2 segments) and an attack in segment 3", invented (5, 8, "the seed gives no metres per segment for a sprint"),
        ),
        /// Metres per segment of a closing fighter that may not sprint (§4.17.5, §4.19.2).
        run_per_segment: u16 = 4, in 1..=100 => (
            "4",
            "metres per segment of a closing fighter that may not sprint: in heavy armour (§4.17.5 \"sprinting … not possible while wearing heavy armor\") or with a Severe wound (§4.19.2); not in the seed, plausible 3–5", invented (3, 5, "no running speed in the seed"),
        ),
        /// Armour at or below this Movement modifier is heavy (§4.17.5, no sprint).
        heavy_armour_movement: i32 = -1, in -10..=0 => (
            "-1",
            "§4.17.5: armour whose Movement modifier is at or below this is heavy: no sprinting (a reading: the armour that \"interferes with its wearer's movements\", chain and heavier; -2 would keep it to full plate)", reading [-1, -2],
        ),
        /// Passive defence total of a missile target (G1: TN − 1).
        ranged_passive_value: i32 = 9, in -50..=50 => (
            "9",
            "G1: a missile hits when its total is above this (TN 10 − 1, §4.21.2); the margin counts from it",
        ),
        /// Penalty at maximum range; between point blank and it the penalty grows linearly (G16).
        range_penalty_at_max: i32 = 4, in 0..=20 => (
            "4",
            "G16: beyond point blank the shot is at −ceil(this × (d − PB)/(MAX − PB)); no shot beyond MAX (§4.21.2)", invented (2, 6, "G16: §4.21.2 gives no penalty beyond point blank"),
        ),
        /// Extra preparation segments of a shooter with missile skill below 5 (G15).
        unskilled_prepare_extra: u8 = 1, in 0..=10 => (
            "1",
            "G15: extra segments to prepare a shot for missile skill < 5 (§4.21.1 \"less experienced shooters need even more time\")", invented (0, 2, "G15: 'even more time' without a number"),
        ),
        /// Whether the first shot is already prepared when the duel starts.
        missile_loaded_at_start: bool = false => (
            "false",
            "the first shot needs no preparation (a spanned crossbow, a readied gun); false: prepare, then fire (§4.21.1)",
        ),
        /// Strength bonus on missile damage (G13).
        str_bonus_on_missiles: bool = false => (
            "false",
            "G13: the strength bonus adds to bows, crossbows and guns too", reading [false, true],
        ),
        /// Strength bonus on thrown weapons' damage (§4.19: "the attacker's strength bonus …
        /// [is] added"; a thrown weapon is driven by the arm).
        str_bonus_on_thrown: bool = true => (
            "true",
            "§4.19 \"the attacker's strength bonus and her weapon's impact value are added\", and \"it is up to the game master to decide how important a character's strength is when wielding a particular weapon\": true (a reading: a dart, knife or javelin is thrown by the arm, so the strength bonus adds as in melee) | false (as bows and guns, str_bonus_on_missiles)", reading [true, false],
        ),
        /// The first thrown weapon is in hand when the duel starts (§4.21.1's legionary).
        thrown_ready_at_start: bool = true => (
            "true",
            "§4.21.1 \"begins the round with his pilum readily prepared. He could throw his pilum as soon as in the first segment\" (\"Throw weapon 1\", §4.17.1): true (a reading: the first dart, knife or javelin is in hand at the start and is thrown in segment 1; each next one is drawn, its prepare) | false (drawn first, like the next ones)", reading [true, false],
        ),
        /// What a shield does against a bow, crossbow or gun shot (§4.21.3: "shields, and shields
        /// only, can be used to parry thrown weapons"; it says nothing of a shield against
        /// missile weapons, which "move so fast" that they cannot be dodged).
        missile_shield: MissileShield = MissileShield::None => (
            "\"none\"",
            "§4.21.3, against bows, crossbows and guns (thrown weapons always meet the shield's parry): \"none\" (the text gives shields only against thrown weapons) | \"armour\" (the shield's quality, its bonus, adds to protection) | \"parry\" (as against a thrown weapon)", reading ["none", "armour", "parry"],
        ),
        /// Velocity modifier on a shield parry against a thrown weapon, and a missile under
        /// `missile_shield = "parry"` (§4.21.3 "recommended to modify the Shield skill", no
        /// number: not in the seed).
        missile_shield_modifier: i32 = -2, in -50..=50 => (
            "-2",
            "§4.21.3: modifier on a shield parry against a thrown weapon (and a missile under missile_shield = \"parry\"); the seed gives no number: not in the seed, plausible −1…−4", invented (-4, -1, "'recommended to modify', no number"),
        ),
        /// Dodging a thrown weapon (§4.21.3: "halve of the character's dodge skill at most").
        thrown_dodge: ThrownDodge = ThrownDodge::Half => (
            "\"half\"",
            "§4.21.3: \"half\" (a thrown weapon is dodged at half the Dodge skill, rounded down, when that beats the shield) | \"none\" (the GM does not allow it)", reading ["half", "none"],
        ),
        /// Segments of aiming before an aimed bow, crossbow or gun shot (§4.21.1).
        aim_segments: u8 = 2, in 0..=6 => (
            "2",
            "§4.21.1 \"markmen need a full round to aim at their target and perform a standard shot\": segments of aiming before the 1-segment shot (a reading: 2 + the shot = the full round the sentence gives to aiming and the shot; 3 would aim a full round and then shoot, as the archer \"needs 3 segments, that is 1 round, to draw his bow … and aim his target, and 1 segment to fire\"); a bow's or crossbow's longer preparation includes it (\"skilled marksmen already follow their targets while loading\"); thrown weapons need none", reading [2, 3],
        ),
        /// Modifier on an unaimed missile shot (§4.21.1 gives none: not in the seed).
        unaimed_shot_modifier: i32 = -3, in -20..=0 => (
            "-3",
            "§4.21.1: modifier on a shot without the full round of aiming (aim = \"unaimed\", or \"auto\" where an aimed shot cannot go off in time, and in melee); \"without any modifications\" only when aimed: not in the seed, plausible −2…−5", invented (-5, -2, "the seed gives no number for an unaimed shot"),
        ),
        /// Bonus for aiming one more round (§4.21.1).
        extra_aim_bonus: i32 = 1, in -10..=10 => (
            "1",
            "§4.21.1: bonus of a shot aimed for another round (aim = \"extra_round\"; not cumulative)",
        ),
        /// Whether a Charge is a sprint (§4.22.2 "accelerate and run").
        charge_needs_sprint: bool = true => (
            "true",
            "§4.22.2 \"Charging means to accelerate and run towards one's opponent\": true (a reading: a Charge is a sprint, which is \"not possible while wearing heavy armor\" (§4.17.5, heavy_armour_movement) nor with a Severe wound (§4.19.2): a fighter with charge = true in heavy armour is refused, and a Severely wounded one walks in) | false (any fighter may charge)", reading [true, false],
        ),
        /// Charge: bonus on the charger's attack (§4.22.2).
        charge_attack_bonus: i32 = 1, in -50..=50 => (
            "1",
            "§4.22.2: bonus on a charging fighter's attack",
        ),
        /// Charge: extra damage of the charger's hit (§4.22.2).
        charge_damage_bonus: i32 = 1, in -50..=50 => (
            "1",
            "§4.22.2: extra damage when a charging fighter hits",
        ),
        /// Charge: modifier on the charger's parries and dodges that round (§4.22.2).
        charge_defence_modifier: i32 = -2, in -50..=50 => (
            "-2",
            "§4.22.2: modifier on a charging fighter's parries and dodges in the charge round",
        ),
        /// Optional hit locations (§4.24.3) and with them the arm drop of §4.19.2 (G12).
        hit_locations: bool = false => (
            "false",
            "optional rule §4.24.3: a Severe blow rolls a d10 on the front table; an arm (7, 8) drops weapon and shield (§4.19.2), picked up at 2 segments each (§4.17.1), dodge only meanwhile (G12)",
        ),
        /// Round cap; a duel still going after it is a draw marked "timeout" (G9).
        max_rounds: u32 = 100, in 1..=100_000 => (
            "100",
            "G9: round cap (not in the seed: the project's); the duel is then a draw marked \"timeout\"",
        ),
    }
    requires = OPTION_REQUIRES;
}

const fn on(field: &'static str, is: Is) -> [Cond; 1] {
    [cond(field, is)]
}

const APART: Is = Is::NoneOf(&["0"]);

/// The options read only with another option ("only with …" in `oddsmith rulesets draft`),
/// checked for every file by the loader.
pub const OPTION_REQUIRES: &[Requires] = &[
    warn("critical_can_attack", &on("end_condition", Is::OneOf(&["death"])), "under the other end conditions a Critical wound ends the duel"),
    warn("potent_fighter_gap", &on("potent_fighter_shift", Is::OneOf(&["true"])), ""),
    warn("changing_mind_modifier", &on("changing_mind", Is::OneOf(&["seed"])), "under \"free\" a defence never pays"),
    warn("move_per_segment", &on("start_distance", APART), "with start_distance = 0 the duel starts engaged"),
    warn("range_penalty_at_max", &on("start_distance", APART), "engaged, a missile is shot at point blank"),
    warn("run_per_segment", &on("start_distance", APART), "with start_distance = 0 the duel starts engaged"),
    warn("heavy_armour_movement", &on("start_distance", APART), "it only slows a fighter closing from a distance"),
    warn("charge_attack_bonus", &on("start_distance", APART), "a charge is an arrival from a distance"),
    warn("charge_damage_bonus", &on("start_distance", APART), "a charge is an arrival from a distance"),
    warn("charge_defence_modifier", &on("start_distance", APART), "a charge is an arrival from a distance"),
    warn("charge_needs_sprint", &on("start_distance", APART), "a charge is an arrival from a distance"),
];

/// Documentation of every option, in declaration order.
pub const OPTION_DOCS: &[FieldDoc] = DraftOptions::DOCS;

/// G2: the damage term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageTerm {
    /// multiplier × impact + aspect + bonus (§4.19.1).
    WeaponDamage,
    /// The bare impact class (§4.19 prose).
    Impact,
}

/// G6: rounding of half the CON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// Light iff 2 × damage ≤ CON.
    Exact,
    /// Light iff damage ≤ CON/2 rounded half up (§2.9).
    HalfUp,
    /// Light iff damage ≤ CON/2 rounded down.
    Floor,
}

/// G8: overflow of a full wound track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Overflow {
    /// Existing wounds stay; the new one becomes the next level.
    Keep,
    /// The full track is emptied as it converts.
    Reset,
}

/// G11: "driven backwards".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Knockback {
    /// Pushed back on open ground: no mechanical effect.
    PushedBack,
    /// Cornered: −1 for the rest of the round.
    Penalty,
}

/// G9: what ends the duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndCondition {
    /// Out on a Critical wound or death.
    Incapacitated,
    /// Fight on until death (the helpless fighter cannot defend).
    Death,
    /// The first wound of any level decides.
    FirstWound,
    /// The first Severe (or worse) wound decides.
    FirstSevere,
}

/// G4: tie-break for striking first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstStrikeTie {
    /// 50/50, re-drawn every round.
    Random,
    /// A always strikes first.
    A,
    /// B always strikes first.
    B,
    /// Both blows land together: neither is spared by the other's wound that segment.
    Simultaneous,
}

/// §4.17.2: the order of the striking-first rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StrikingOrder {
    /// The seed's order: "if the difference in weight is very wide, lighter weapons strike
    /// first"; else "if different types of weapons are wielded against each other longer
    /// weapons strike first"; else "the one with the higher skill score strikes first"; else
    /// `first_strike_tie`.
    Seed,
    /// The digest's §6 duel loop: the weight gap, then the higher skill, then
    /// `first_strike_tie`; weapon lengths are not used (the D2 oracle's reading).
    SkillFirst,
}

/// §4.18.2, §4.18.3: what the segment a parry or dodge takes costs the defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParrySegment {
    /// One of the round's three one-segment actions (§4.17.1): the attacks keep their segments.
    Action,
    /// The segment too: the defender's attacks not yet made this round move past it (each at
    /// least a segment after the one before); one pushed past segment 3 is lost.
    Segment,
}

/// §4.17.6: whether an undeclared defence pays the Changing One's Mind penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangingMind {
    /// The seed: a round's plan declares the policy's attacks and keeps the fighter's other
    /// actions as parries or dodges; a defence beyond the declared ones replaces a planned
    /// attack and is modified by `changing_mind_modifier` (a Similar action, −1).
    Seed,
    /// The digest's §6 loop: every defence is made without penalty.
    Free,
}

/// §4.21.3: what a shield does against a missile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissileShield {
    /// The shield's quality (its bonus) adds to armour protection against every missile.
    Armour,
    /// The shield parries (with `missile_shield_modifier`); a shield whose highest parried
    /// impact is below the missile's only adds its quality to armour.
    Parry,
    /// The shield does nothing against missiles (the seed: shields parry thrown weapons).
    None,
}

/// §4.21.3: dodging thrown weapons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThrownDodge {
    /// At half the Dodge skill (rounded down), where that beats the shield.
    Half,
    /// Not at all.
    None,
}

/// G5: where the shield bonus applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShieldBonusScope {
    /// Only to parries made with the shield.
    ShieldParry,
    /// To every parry and dodge ("against all attacks" read literally).
    AllDefenses,
}

crate::options! {
    /// Shield parry bonus per size (§4.18.2); a table may give one size only.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    pub struct ShieldBonus {
        /// Small shield (+1).
        small: i32 = 1, in -10..=10 => ("1", "small shield"),
        /// Large shield (+2).
        large: i32 = 2, in -10..=10 => ("2", "large shield"),
    }
}

crate::options! {
    /// Highest attacking impact a shield parries, per size (§4.18.1, G5).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    pub struct ShieldMaxParryImpact {
        /// Small shield (3).
        small: i32 = 3, in 0..=10 => ("3", "small shield", invented (2, 4, "G5: §4.18.1 gives no highest impact a shield parries")),
        /// Large shield (3).
        large: i32 = 3, in 0..=10 => ("3", "large shield", invented (2, 5, "G5: §4.18.1 gives no highest impact a shield parries")),
    }
}

crate::options! {
    /// §4.19.3 wound capacities.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    pub struct WoundCapacity {
        /// Light wounds endured (3).
        light: u8 = 3, in 0..=20 => ("3", "Light wounds endured"),
        /// Severe wounds endured (2).
        severe: u8 = 2, in 0..=20 => ("2", "Severe wounds endured"),
        /// Critical wounds endured (1); one more kills.
        critical: u8 = 1, in 0..=20 => ("1", "Critical wounds endured; one more kills"),
    }
}

crate::options! {
    /// §4.19.2 penalties per wound held (negative numbers).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    pub struct WoundPenalties {
        /// Per Light wound (−1).
        light: i32 = -1, in -50..=50 => ("-1", "per Light wound"),
        /// Per Severe wound (−2).
        severe: i32 = -2, in -50..=50 => ("-2", "per Severe wound"),
        /// Per Critical wound (−4).
        critical: i32 = -4, in -50..=50 => ("-4", "per Critical wound"),
    }
}

crate::options! {
    /// §4.19 strength bonus on damage.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct StrengthBonus {
        /// `false` drops the bonus ("the GM may drop it").
        enabled: bool = true => ("true", "false drops the bonus (\"the GM may drop it\")"),
        /// `[min STR, bonus]` rows, checked in order: STR ≥ 9 → +2, STR ≥ 7 → +1.
        table: Vec<(i32, i32)> = vec![(9, 2), (7, 1)], in -20..=20 => (
            "[[9, 2], [7, 1]]",
            "[min STR, bonus] rows, first match wins",
        ),
        /// STR at or below this gets `weak_bonus`.
        weak_max: i32 = 2, in -20..=20 => ("2", "STR at or below this gets weak_bonus"),
        /// The bonus (a penalty) of weak fighters.
        weak_bonus: i32 = -1, in -20..=20 => ("-1", "the bonus (a penalty) of weak fighters"),
    }
}

impl StrengthBonus {
    /// The bonus for a strength score.
    pub fn of(&self, str_score: i32) -> i32 {
        if !self.enabled {
            return 0;
        }
        if let Some(&(_, b)) = self.table.iter().find(|&&(min, _)| str_score >= min) {
            return b;
        }
        if str_score <= self.weak_max {
            self.weak_bonus
        } else {
            0
        }
    }
}
