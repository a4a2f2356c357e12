//! Gamecraft options: the digest §5 knobs a duel uses, with the digest's defaults. Every duel
//! INTERPRETATION of digest §6 (G1–G25) is one option here; `OPTION_DOCS` documents them and
//! a test keeps the two lists in step.
//!
//! Not offered (the duel model has no place for them): movement and the move-action penalty
//! (G12, G21 approach model, `moving_target_tn`, `full_dodge_counts_as_moving` of G25; duels
//! start engaged at a fixed distance), reserved and simultaneous actions, strafe, bursts and
//! sprays, explosions (G20), cooperation inside a fight, the Savvy/Charm pools,
//! `stop_bleed_tn_base` (no fighter gives first aid during a duel; the TN itself is
//! `reference::stop_bleeding_tn`), and the `greedy_ev` action plan (digest §6 AI policy 1:
//! it does not say what a fighter who declares first assumes the enemy will do, nor how
//! Grace, the dodge roll's round-long effect or later rounds enter "expected damage taken",
//! so it is not defined precisely enough to implement).

use serde::{Deserialize, Serialize};

use super::tables::Distance;
use crate::FieldDoc;

/// Options under `[options]` for `ruleset = "gamecraft"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GamecraftOptions {
    /// The die: `limited` explosion (RAW), `unlimited` or `none` (for comparison).
    pub explode_mode: ExplodeMode,
    /// Margin over the TN for a critical success (10).
    pub crit_margin: i32,
    /// Margin under the TN for a fumble (10).
    pub fumble_margin: i32,
    /// G1: what a combat critical adds.
    pub crit_effect: CritEffect,
    /// G1: points added by `crit_effect = "wound_point"`.
    pub crit_extra_amount: i32,
    /// G15: what a combat fumble costs.
    pub fumble_effect: FumbleEffect,
    /// G4: which rolls the wound and Fatigue penalties hit.
    pub wound_penalty_scope: PenaltyScope,
    /// G4: whether wound penalties also lower the static defense.
    pub wound_penalty_static_defense: bool,
    /// G17: the Incapacitated penalty ("with above penalties").
    pub incapacitated_penalty: i32,
    /// G7: where the bonus wound points go.
    pub bonus_allocation: BonusAllocation,
    /// G3: what takes a fighter out.
    pub end_condition: EndCondition,
    /// TN of the Incapacitated Constitution roll (5).
    pub incap_con_tn: i32,
    /// G3: under `end_condition = "dead"`, attacks on an unconscious fighter hit automatically.
    pub helpless_auto_hit: bool,
    /// Round cap: a duel still going is a draw marked "timeout".
    pub max_rounds: u32,
    /// G11: order after Initiative, Prowess and Perception all tie.
    pub initiative_final_tie: InitiativeTie,
    /// Roll initiative every round instead of once per combat (not RAW).
    pub initiative_reroll_each_round: bool,
    /// G5: when a dodge action starts to count.
    pub dodge_timing: DodgeTiming,
    /// G2: how the multiple-action penalty is charged.
    pub multi_action_mode: MultiActionMode,
    /// Penalty per action when more than one is taken (1).
    pub multi_action_penalty: i32,
    /// G2: cap on declared actions per round; 0 = unlimited (RAW).
    pub max_actions_per_round: u8,
    /// Full dodge bonus to the defense score (+10).
    pub full_dodge_bonus: i32,
    /// G9: a resistance total below 0 counts as 0.
    pub resist_clamp_zero: bool,
    /// G24: duellists are aware of attacks (Constitution resists).
    pub aware: bool,
    /// G24: the first attack of the duel is resisted by armour only.
    pub surprise_first_attack: bool,
    /// G21: the fixed distance category of the duel.
    pub distance: Distance,
    /// «Range»: weapons cannot attack beyond their Range at all (instead of a doubled modifier).
    pub max_range_hard: bool,
    /// Attack bonus of guns («Bullet Weapons»).
    pub bullet_bonus: i32,
    /// Whether Grace can be spent on combat checks (pools start full, G23).
    pub pools_enabled: bool,
    /// G23: how much Grace a fighter has when the duel starts.
    pub pool_start: PoolStart,
    /// G10: who wins a tie in an opposed check.
    pub opposed_tie: OpposedTie,
    /// Highest level of a general skill (Skilled, 6); 0 = no cap.
    pub general_skill_cap: i32,
    /// Attack penalty for non-lethal damage with a lethal weapon.
    pub nonlethal_weapon_penalty: i32,
    /// Penalty to all rolls below half Fatigue.
    pub fatigue_half_penalty: i32,
    /// Unarmed fighters at or below this Melee Combat (Unarmed Combat) level deal non-lethal damage.
    pub unarmed_nonlethal_max_skill: i32,
    /// G18: damage bonus of the unarmed "weapon".
    pub unarmed_damage_bonus: i32,
    /// Off-hand attack penalty.
    pub offhand_penalty: i32,
    /// G16: bleeding in the duel.
    pub bleeding: bool,
    /// G16: rounds between bleeding checks (one minute = 12 rounds).
    pub bleed_interval_rounds: u32,
    /// G16: TN of the bleeding Constitution check.
    pub bleed_con_tn: i32,
}

impl Default for GamecraftOptions {
    fn default() -> Self {
        GamecraftOptions {
            explode_mode: ExplodeMode::Limited,
            crit_margin: 10,
            fumble_margin: 10,
            crit_effect: CritEffect::WoundPoint,
            crit_extra_amount: 1,
            fumble_effect: FumbleEffect::None,
            wound_penalty_scope: PenaltyScope::AllRolls,
            wound_penalty_static_defense: false,
            incapacitated_penalty: 4,
            bonus_allocation: BonusAllocation::RoundRobin,
            end_condition: EndCondition::Incapacitated,
            incap_con_tn: 5,
            helpless_auto_hit: true,
            max_rounds: 100,
            initiative_final_tie: InitiativeTie::Random,
            initiative_reroll_each_round: false,
            dodge_timing: DodgeTiming::Round,
            multi_action_mode: MultiActionMode::Pool,
            multi_action_penalty: 1,
            max_actions_per_round: 0,
            full_dodge_bonus: 10,
            resist_clamp_zero: true,
            aware: true,
            surprise_first_attack: false,
            distance: Distance::PointBlank,
            max_range_hard: false,
            bullet_bonus: 2,
            pools_enabled: true,
            pool_start: PoolStart::Full,
            opposed_tie: OpposedTie::Report,
            general_skill_cap: 6,
            nonlethal_weapon_penalty: 1,
            fatigue_half_penalty: 2,
            unarmed_nonlethal_max_skill: 2,
            unarmed_damage_bonus: 0,
            offhand_penalty: 2,
            bleeding: false,
            bleed_interval_rounds: 12,
            bleed_con_tn: 5,
        }
    }
}

/// The die's explosion rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExplodeMode {
    /// 5 re-rolls and adds, 0 re-rolls and subtracts, once (RAW).
    Limited,
    /// Plain 1d6−1 (not RAW; for comparison).
    None,
    /// Not RAW: a 5 re-rolls and adds, a 0 re-rolls and subtracts, and every re-roll of 5
    /// re-rolls again in the same direction, without limit.
    Unlimited,
}

/// G23: Grace at the start of a duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PoolStart {
    /// The whole pool (pools refill every session; each duel starts fresh).
    Full,
    /// Half the pool, rounded down (a duel later in the session).
    Half,
    /// Nothing left.
    Empty,
}

/// G10: ties in opposed checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpposedTie {
    /// Report ties separately.
    Report,
    /// Both re-roll until one side wins.
    Reroll,
    /// The side with the higher base wins; equal bases re-roll.
    HigherBase,
    /// The resisting side (B) wins.
    Defender,
}

/// G1: the critical hit's "extra wound".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CritEffect {
    /// `crit_extra_amount` wound points after resistance.
    WoundPoint,
    /// Damage is raised to the next wound-level threshold.
    WoundLevel,
    /// Nothing beyond the hit.
    None,
}

/// G15: combat fumble.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FumbleEffect {
    /// Nothing beyond the miss.
    None,
    /// The fumbler's next action is lost.
    LoseNextAction,
}

/// G4: scope of "−X to all rolls".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PenaltyScope {
    /// Attack, dodge, damage, resistance, Constitution and initiative rolls.
    AllRolls,
    /// Attack and dodge checks only (and the Incapacitated/bleeding Constitution rolls).
    ChecksOnly,
}

/// G7: allocation of bonus wound points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusAllocation {
    /// One per level per pass from Healthy down, at most 2 per level.
    RoundRobin,
    /// Fill Healthy (+2), then Injured, and so on.
    FrontLoaded,
}

/// G3: what takes a fighter out of the duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndCondition {
    /// Out on reaching Incapacitated (or Fatigue ≤ 0).
    Incapacitated,
    /// Out when unconscious: failed Incapacitated roll (on entering and every later round),
    /// Fatigue ≤ 0, or death.
    Unconscious,
    /// Fight to the death; unconscious fighters are helpless.
    Dead,
}

/// G11: final initiative tie-break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InitiativeTie {
    /// A coin flip.
    Random,
    /// A acts first.
    A,
    /// B acts first.
    B,
}

/// G5: when a dodge counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DodgeTiming {
    /// Rolled after declarations, counts for the whole round.
    Round,
    /// Rolled in its own phase; attacks resolved before it face the static defense.
    FromPhase,
}

/// G2: multiple-action penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MultiActionMode {
    /// N actions cost −N in total, split over the round's checks (RAW).
    Pool,
    /// Every check gets −N.
    PerCheck,
}

/// Documentation of every option, in declaration order.
pub const OPTION_DOCS: &[FieldDoc] = &[
    doc(
        "explode_mode",
        "\"limited\"",
        "the die: \"limited\" (RAW: 5 re-rolls and adds, 0 re-rolls and subtracts, once) | \"none\" (plain 1d6−1) | \"unlimited\" (re-rolls of 5 keep going; no exact duel solution, exact checks truncate after 12 re-rolls)",
    ),
    doc(
        "crit_margin",
        "10",
        "beat the TN by this for a critical («Levels Of Success»)",
    ),
    doc("fumble_margin", "10", "miss the TN by this for a fumble"),
    doc(
        "crit_effect",
        "\"wound_point\"",
        "G1: critical hit adds crit_extra_amount points after resistance | \"wound_level\" (to the next level) | \"none\"",
    ),
    doc(
        "crit_extra_amount",
        "1",
        "G1: points added by a critical under \"wound_point\"",
    ),
    doc(
        "fumble_effect",
        "\"none\"",
        "G15: combat fumble: \"none\" | \"lose_next_action\"",
    ),
    doc(
        "wound_penalty_scope",
        "\"all_rolls\"",
        "G4: wound/Fatigue penalties on \"all_rolls\" (attack, dodge, damage, resistance, initiative) | \"checks_only\"",
    ),
    doc(
        "wound_penalty_static_defense",
        "false",
        "G4: wound penalties also lower the static defense",
    ),
    doc(
        "incapacitated_penalty",
        "4",
        "G17: penalty while Incapacitated (\"with above penalties\")",
    ),
    doc(
        "bonus_allocation",
        "\"round_robin\"",
        "G7: bonus wound points \"round_robin\" from Healthy down | \"front_loaded\" (fighters may give wound_levels)",
    ),
    doc(
        "end_condition",
        "\"incapacitated\"",
        "G3: out at \"incapacitated\" | \"unconscious\" (failed CON roll TN 5, on entering and each later round) | \"dead\"",
    ),
    doc(
        "incap_con_tn",
        "5",
        "TN of the Incapacitated Constitution roll («Wound Levels»)",
    ),
    doc(
        "helpless_auto_hit",
        "true",
        "G3: under \"dead\", attacks on an unconscious fighter hit automatically (armour-only resistance)",
    ),
    doc(
        "max_rounds",
        "100",
        "round cap; the duel is then a draw marked \"timeout\"",
    ),
    doc(
        "initiative_final_tie",
        "\"random\"",
        "G11: after Initiative, Prowess, Perception tie: \"random\" | \"a\" | \"b\"",
    ),
    doc(
        "initiative_reroll_each_round",
        "false",
        "not RAW: roll initiative every round (RAW: once per combat)",
    ),
    doc(
        "dodge_timing",
        "\"round\"",
        "G5: dodge rolled after declarations and counts all round | \"from_phase\"",
    ),
    doc(
        "multi_action_mode",
        "\"pool\"",
        "G2: N actions cost −N in total, split by the fighter's penalty_split (RAW) | \"per_check\" (−N on each)",
    ),
    doc(
        "multi_action_penalty",
        "1",
        "penalty per action when more than one is taken («Multiple Actions»)",
    ),
    doc(
        "max_actions_per_round",
        "0",
        "G2: cap on declared actions; 0 = unlimited (RAW)",
    ),
    doc(
        "full_dodge_bonus",
        "10",
        "full dodge: + this to the defense for the round («Defense»)",
    ),
    doc(
        "resist_clamp_zero",
        "true",
        "G9: a negative resistance total counts as 0",
    ),
    doc(
        "aware",
        "true",
        "G24: duellists roll Constitution to resist (false: armour only)",
    ),
    doc(
        "surprise_first_attack",
        "false",
        "G24: the duel's first attack is resisted by armour only",
    ),
    doc(
        "distance",
        "\"point_blank\"",
        "G21: fixed distance: point_blank | short | medium | long | extreme (melee only at point_blank)",
    ),
    doc(
        "max_range_hard",
        "false",
        "«Range»: a weapon cannot attack beyond its Range at all (false: the TN modifier doubles)",
    ),
    doc(
        "bullet_bonus",
        "2",
        "attack bonus of guns («Bullet Weapons»)",
    ),
    doc(
        "pools_enabled",
        "true",
        "Grace (PRO + SPI) may be spent on attack and dodge checks, up to the skill level (G23)",
    ),
    doc(
        "pool_start",
        "\"full\"",
        "G23: Grace at the start of the duel: \"full\" | \"half\" (rounded down) | \"empty\"",
    ),
    doc(
        "opposed_tie",
        "\"report\"",
        "G10: opposed-check ties: \"report\" | \"reroll\" | \"higher_base\" (equal bases re-roll) | \"defender\" (B wins)",
    ),
    doc(
        "general_skill_cap",
        "6",
        "highest level of a general skill (Skilled); 0 = no cap («Skill Basics»)",
    ),
    doc(
        "nonlethal_weapon_penalty",
        "1",
        "attack penalty for non-lethal damage with a lethal weapon («Non-Lethal Combat»)",
    ),
    doc(
        "fatigue_half_penalty",
        "2",
        "penalty to all rolls below half Fatigue («Non-Lethal Combat»)",
    ),
    doc(
        "unarmed_nonlethal_max_skill",
        "2",
        "unarmed at or below this Melee Combat (Unarmed Combat) level always deals non-lethal damage",
    ),
    doc(
        "unarmed_damage_bonus",
        "0",
        "G18: damage bonus of unarmed attacks",
    ),
    doc(
        "offhand_penalty",
        "2",
        "attack penalty with offhand = true («Simultaneous Actions»)",
    ),
    doc(
        "bleeding",
        "false",
        "G16: Badly Wounded or worse bleeds: CON check every bleed_interval_rounds or lose a wound level",
    ),
    doc(
        "bleed_interval_rounds",
        "12",
        "G16: rounds between bleeding checks (a minute of 5-second rounds)",
    ),
    doc("bleed_con_tn", "5", "G16: TN of the bleeding check"),
];

const fn doc(name: &'static str, default: &'static str, doc: &'static str) -> FieldDoc {
    FieldDoc { name, default, doc }
}
