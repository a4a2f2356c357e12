//! Open RPG options: the digest's toggles (§5) and the INTERPRETATIONs of its gaps (§6), each
//! with the digest's default. `text_variant` switches every rule the two drafts of "2.3 Combat
//! Rules" state differently; `crit_rule`, `blow_combination` and `initiative` may override one
//! of them (`"variant"` = follow `text_variant`).
//!
//! Not offered (fixed at the digest's default): `hit_comparison` (≥), `damage_roll_scope` and
//! `defense_scope` (once per attack sequence), `defense_floor` (0), `full_dodge_choice` (after
//! the roll; only `dodge_size = "minimal_sufficient"` chooses after it),
//! `initiative_reroll_each_round` (rolled once), `movement` (engaged), `bleed_per_round` (0).

use serde::{Deserialize, Serialize};

crate::options! {
    /// Options under `[options]` for `ruleset = "openrpg"`.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct OpenRpgOptions: RulesetOptions {
        /// G2: which draft governs where both speak.
        text_variant: TextVariant = TextVariant::Primary => (
            "\"primary\"",
            "G2 which draft governs: \"primary\" (Open RPG 2.3 §Rate … §Mounted) | \"legacy\" (the older draft: d20 ≥ crit range, base × multiplier, priority levels, ambushed lose round 1)", reading ["primary", "legacy"],
        ),
        /// G1: how a trait of value N is rolled.
        skill_roll: SkillRoll = SkillRoll::Nd10 => (
            "\"nd10\"",
            "G1 skill roll of a trait N: \"nd10\" (N d10, sum) | \"nd4\" | \"d100_plus_n\" (1d100 + N)", reading ["nd10", "nd4", "d100_plus_n"],
        ),
        /// G7: `str` in damage and the strength part of defense.
        strength_token: StrengthToken = StrengthToken::Nd4 => (
            "\"nd4\"",
            "G7 strength S in damage (str) and defense: \"nd4\" (S d4, as both worked examples) | \"flat\" (S, as the gloss 'strength base plus fifteen')", reading ["nd4", "flat"],
        ),
        /// Open RPG 2.3 §Accuracy: required roll = this × the target's combat base.
        hit_multiplier: i32 = 5, in 1..=20 => (
            "5",
            "§Accuracy: required roll = hit_multiplier × target's combat base (+ location), 1–20",
        ),
        /// G25: the critical test (overrides the variant's).
        crit_rule: CritRule = CritRule::Variant => (
            "\"variant\"",
            "G25 crit test per landed blow: \"variant\" (primary at_most, legacy at_least) | \"at_most\" (d20 ≤ range, §Damage) | \"at_least\" (d20 ≥ range, legacy #### Damage)", reading ["variant", "at_most", "at_least"],
        ),
        /// How the blows of one attack sequence combine (overrides the variant's).
        blow_combination: BlowCombination = BlowCombination::Variant => (
            "\"variant\"",
            "combining the blows of a sequence: \"variant\" | \"sum\" (§Damage) | \"multiplier\" (legacy: base × (largest submultiplier + ½ the rest))", reading ["variant", "sum", "multiplier"],
        ),
        /// Initiative (overrides the variant's).
        initiative: Initiative = Initiative::Variant => (
            "\"variant\"",
            "initiative: \"variant\" | \"agility_plus_reach\" (§2.3: agility roll + weapon length in inches) | \"priority_levels\" (legacy levels 1–6, agility roll within a level)", reading ["variant", "agility_plus_reach", "priority_levels"],
        ),
        /// G6: rounding of the total after damage reduction.
        dr_rounding: DrRounding = DrRounding::HalfUp => (
            "\"half_up\"",
            "G6 rounding of T × (1 − DR): \"half_up\" (112.5 → 113, §Defense) | \"ceil\" | \"floor\"", reading ["half_up", "ceil", "floor"],
        ),
        /// G17: armour penetration of joint hits, in percent.
        joint_penetration: i32 = 25, in 0..=100 => (
            "25",
            "G17 joints' armour penetration (§Targeted Attacks '25%'), percent of armour defense and DR ignored, 0–100",
        ),
        /// G15: a full dodge's lost turn is not absorbed by a recovery round already owed.
        full_dodge_stacks_with_recovery: bool = true => (
            "true",
            "G15 a full dodge's lost turn comes on top of a recovery round already owed (the text: 'lose their next turn', strike 1/M); false = the two can be the same turn (the digest's default)", reading [true, false],
        ),
        /// G17: limb hits cannot kill.
        limb_nonlethal: bool = true => (
            "true",
            "G17 'hits against non-vital areas like limbs can't be lethal': a limb hit leaves at least 1 health", reading [true, false],
        ),
        /// Whether a shield is checked per blow or once per attack roll.
        shield_check: Scope = Scope::Blow => (
            "\"blow\"",
            "a shield's block chance is checked \"blow\" (each blow, §Avoiding Damage: the text's \"attacks\" are blows) | \"attack\" (once per attack roll: all blows blocked or none)", reading ["blow", "attack"],
        ),
        /// Whether a dodge is rolled per blow or once per attack roll (G9).
        dodge_roll: Scope = Scope::Blow => (
            "\"blow\"",
            "G9 the dodge roll is rolled \"blow\" (each blow, as the shield) | \"attack\" (once per attack roll, against its one accuracy: all blows avoided or none)", reading ["blow", "attack"],
        ),
        /// G17: what the joints' armour penetration cuts.
        joint_penetration_cuts: JointCut = JointCut::Both => (
            "\"both\"",
            "G17 the joints' \"armor penetration (25%)\" cuts \"both\" the armour's defense and DR (armour gives both, §Defense) | \"defense\" | \"dr\"", reading ["both", "defense", "dr"],
        ),
        /// G15: slow weapons of 1/3 and slower.
        slow_weapons: SlowWeapons = SlowWeapons::PerStep => (
            "\"per_step\"",
            "G15 a slow weapon's rate (strike 1/M, M ≥ 3): \"per_step\" (each rate step cancels one recovery round: 'lowers the time', §Rate) | \"whole_fraction\" (the first step cancels the whole 1/M, each further one adds a blow: 'the fire 1/2 is canceled')", reading ["per_step", "whole_fraction"],
        ),
        /// G13: how long a flat-footed defender is defenceless.
        flat_footed: FlatFooted = FlatFooted::Variant => (
            "\"variant\"",
            "G13 a flat-footed defender cannot avoid and is hit on any roll: \"variant\" (primary until_first_turn, legacy initial_attack) | \"until_first_turn\" (§Avoiding Damage 'can't use these if they're caught flat footed') | \"initial_attack\" (legacy 'against the initial attack')", reading ["variant", "until_first_turn", "initial_attack"],
        ),
        /// What armour's agility penalty lowers.
        armour_agility: ArmourAgility = ArmourAgility::Dodge => (
            "\"dodge\"",
            "armour's agility_penalty lowers \"dodge\" (the dodge roll only: legacy Dodge- 'decreases their ability to dodge') | \"dodge_and_initiative\" (every agility roll, initiative too)", reading ["dodge", "dodge_and_initiative"],
        ),
        /// G14: the starting distance in yards (0 = engaged).
        start_distance: i32 = 0, in 0..=2000 => (
            "0",
            "G14 yards apart at the start, 0–2000 (0 = engaged, as before): a missile weapon shoots from there with §Accuracy's +1 per 5 yards beyond 50 and, under the primary text, adds the distance in inches to its initiative (§2.3); a melee fighter spends its turns closing (move_yards)",
        ),
        /// Yards a fighter closes in one turn (not in the seed).
        move_yards: i32 = 10, in 1..=100 => (
            "10",
            "yards a melee fighter closes in one turn while apart, 1–100 (not in the seed: 'agility (speed) is used for movement rate' gives no number; 5–20 is plausible); a turn that closes makes no attack", invented (5, 20, "the seed gives no speed in yards"),
        ),
        /// G3: the round cap.
        max_rounds: u32 = 1000, in 1..=100_000 => (
            "1000",
            "G3 round cap: a duel still going after it is a draw, 1–100000",
        ),
    }
}

/// G2: which draft of the section governs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextVariant {
    /// The newer, complete text (§Rate … §Mounted).
    Primary,
    /// The older draft (priority levels, `#### Damage` multiplier, d20 ≥ range).
    Legacy,
}

/// G1: how a trait is rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkillRoll {
    /// N d10, summed.
    Nd10,
    /// N d4, summed.
    Nd4,
    /// 1d100 + N.
    D100PlusN,
}

/// G7: what strength contributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StrengthToken {
    /// S d4.
    Nd4,
    /// S itself.
    Flat,
}

/// G25: the critical test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CritRule {
    /// Follow `text_variant`.
    Variant,
    /// d20 ≤ range (primary).
    AtMost,
    /// d20 ≥ range (legacy).
    AtLeast,
}

/// How the blows of one sequence combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlowCombination {
    /// Follow `text_variant`.
    Variant,
    /// Sum of the blows (primary).
    Sum,
    /// Base × (largest submultiplier + ½ the others) (legacy).
    Multiplier,
}

/// Initiative rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Initiative {
    /// Follow `text_variant`.
    Variant,
    /// Agility roll + weapon length (primary).
    AgilityPlusReach,
    /// Priority levels, agility roll within a level (legacy).
    PriorityLevels,
}

/// Rounding after damage reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrRounding {
    /// Round half up.
    HalfUp,
    /// Round up.
    Ceil,
    /// Round down.
    Floor,
}

/// Per blow or once per attack roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// One check per blow.
    Blow,
    /// One check per attack roll (the whole sequence).
    Attack,
}

/// What the joints' armour penetration cuts (G17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JointCut {
    /// The armour's defense and its DR.
    Both,
    /// The armour's defense only.
    Defense,
    /// The armour's DR only.
    Dr,
}

/// How a slow weapon's rate steps cancel its recovery (G15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlowWeapons {
    /// Each step cancels one recovery round, then steps add blows.
    PerStep,
    /// The first step cancels the whole fraction, then steps add blows.
    WholeFraction,
}

/// How long a flat-footed defender is defenceless (G13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlatFooted {
    /// Follow `text_variant`.
    Variant,
    /// Until the defender's own first turn.
    UntilFirstTurn,
    /// Against the first attack made on the defender only.
    InitialAttack,
}

/// What armour's agility penalty lowers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmourAgility {
    /// The dodge roll only.
    Dodge,
    /// The dodge and the initiative roll.
    DodgeAndInitiative,
}

/// The rules in force once `text_variant` and its overrides are resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// Legacy draft in force (ambush and flat-footed rules).
    pub legacy: bool,
    /// d20 ≥ range crits (else ≤).
    pub crit_at_least: bool,
    /// Base × multiplier combination (else sum).
    pub multiplier: bool,
    /// Priority levels (else agility + reach).
    pub priority_levels: bool,
    /// A flat-footed defender is defenceless against the first attack only (else until its
    /// own first turn).
    pub flat_footed_initial_only: bool,
}

impl OpenRpgOptions {
    /// Resolves `text_variant` and the three overrides.
    pub fn resolved(&self) -> Resolved {
        let legacy = self.text_variant == TextVariant::Legacy;
        Resolved {
            legacy,
            crit_at_least: match self.crit_rule {
                CritRule::Variant => legacy,
                c => c == CritRule::AtLeast,
            },
            multiplier: match self.blow_combination {
                BlowCombination::Variant => legacy,
                c => c == BlowCombination::Multiplier,
            },
            priority_levels: match self.initiative {
                Initiative::Variant => legacy,
                c => c == Initiative::PriorityLevels,
            },
            flat_footed_initial_only: match self.flat_footed {
                FlatFooted::Variant => legacy,
                f => f == FlatFooted::InitialAttack,
            },
        }
    }
}
