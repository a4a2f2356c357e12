//! Draft 0.4 (Pitt Murmann, 1993–1998): d10 + skill, opposed attack and parry, margin-based
//! damage against Constitution, stacking wounds. Rules cited as "Draft 0.4 §…";
//! G1–G20 are the gaps of the project's digest of them. Users' account: `docs/rulesets/draft.md`.
//!
//! Modelled: melee duels between two engaged fighters (digest §6 default loop) with every
//! option of [`DraftOptions`], single checks and opposed rolls, and an exact duel solver.

pub mod check;
pub mod duel;
pub mod fighter;
pub mod options;
pub mod reference;
pub mod spec;
pub mod tables;

#[cfg(test)]
mod tests;

pub use check::DraftCheck;
pub use fighter::{Fighter, Level, Matchup};
pub use options::DraftOptions;
pub use spec::FighterSpec;

use crate::fields::check_range;
use crate::info::doc;
use crate::solver::Step;

use crate::{
    CheckExact, CheckGrid, CheckParams, FieldDoc, Roller, RulesError, RulesetInfo, Tally,
};

/// The Draft 0.4 ruleset with its options.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    o: DraftOptions,
}

/// Names of Draft's per-duel counters: blows received by each side, by the level of the blow.
pub const COUNTERS: &[&str] = &[
    "a_scratches_taken",
    "a_light_taken",
    "a_severe_taken",
    "a_critical_taken",
    "b_scratches_taken",
    "b_light_taken",
    "b_severe_taken",
    "b_critical_taken",
];

impl crate::Ruleset for Draft {
    const ID: &'static str = "draft";
    const TITLE: &'static str = "Draft 0.4 RPG Rule Set";
    type FighterSpec = FighterSpec;
    type Options = DraftOptions;
    type Fighter = Fighter;
    type Matchup = Matchup;
    type State = duel::State;
    type Check = DraftCheck;

    fn new(o: DraftOptions) -> Result<Self, RulesError> {
        let bad = |f: &str, m: &str| Err(RulesError::field(f, m));
        if !(1..=3).contains(&o.max_actions_per_round) {
            return bad(
                "max_actions_per_round",
                "expected 1, 2 or 3 (a round has three segments)",
            );
        }
        if o.free_actions_per_round > o.max_actions_per_round {
            return bad(
                "free_actions_per_round",
                "cannot exceed max_actions_per_round",
            );
        }
        if !(1..=100_000).contains(&o.max_rounds) {
            return bad("max_rounds", "expected 1 to 100000");
        }
        if o.wide_weight_gap < 1 {
            return bad("wide_weight_gap", "expected at least 1");
        }
        let c = o.wound_capacity;
        if c.light > 20 || c.severe > 20 || c.critical > 20 {
            return bad("wound_capacity", "expected capacities from 0 to 20");
        }
        // Every number stays small, so no sum in the duel loop can overflow.
        o.check_ranges()?;
        check_range("wound_penalties.light", o.wound_penalties.light.into(), -50, 50)?;
        check_range("wound_penalties.severe", o.wound_penalties.severe.into(), -50, 50)?;
        check_range("wound_penalties.critical", o.wound_penalties.critical.into(), -50, 50)?;
        check_range("shield_bonus.small", o.shield_bonus.small.into(), -10, 10)?;
        check_range("shield_bonus.large", o.shield_bonus.large.into(), -10, 10)?;
        check_range("shield_max_parry_impact.small", o.shield_max_parry_impact.small.into(), 0, 10)?;
        check_range("shield_max_parry_impact.large", o.shield_max_parry_impact.large.into(), 0, 10)?;
        if o.wide_weight_gap > 10 {
            return bad("wide_weight_gap", "expected 1 to 10");
        }
        for &(min, bonus) in &o.strength_bonus.table {
            if !(-20..=20).contains(&min) || !(-20..=20).contains(&bonus) {
                return bad(
                    "strength_bonus.table",
                    "expected [min STR, bonus] rows with numbers from -20 to 20",
                );
            }
        }
        if !(-20..=20).contains(&o.strength_bonus.weak_max)
            || !(-20..=20).contains(&o.strength_bonus.weak_bonus)
        {
            return bad(
                "strength_bonus",
                "weak_max and weak_bonus must be from -20 to 20",
            );
        }
        Ok(Draft { o })
    }

    fn options(&self) -> &DraftOptions {
        &self.o
    }

    fn compile(&self, _name: &str, spec: &FighterSpec) -> Result<Fighter, RulesError> {
        fighter::compile(&self.o, spec)
    }

    fn matchup(&self, a: &Fighter, b: &Fighter) -> Result<Matchup, RulesError> {
        Ok(fighter::matchup(&self.o, a, b))
    }

    fn start(&self, _m: &Matchup) -> duel::State {
        duel::State::start()
    }

    #[inline]
    fn step<R: Roller, T: Tally>(
        &self,
        m: &Matchup,
        s: &mut duel::State,
        roller: &mut R,
        tally: &mut T,
    ) -> Step {
        duel::step(m, &self.o, s, roller, tally)
    }

    fn max_rounds(&self) -> u32 {
        self.o.max_rounds
    }

    fn counter_names(&self) -> &'static [&'static str] {
        COUNTERS
    }

    fn info() -> RulesetInfo {
        RulesetInfo {
            id: Self::ID,
            title: Self::TITLE,
            summary: "Melee duels: d10 + skill opposed rolls (defender wins ties), damage = margin \
                      + strength bonus + weapon damage − armour, wounds against CON that stack \
                      (3 Light, 2 Severe, 1 Critical), three segments a round. Exact solver \
                      included. Ranged combat, charges, hit locations and magic are not modelled.",
            fighter_fields: FIGHTER_DOCS.to_vec(),
            options: options::OPTION_DOCS.to_vec(),
            check_params: CHECK_DOCS.to_vec(),
        }
    }

    fn parse_check(&self, params: &CheckParams) -> Result<DraftCheck, RulesError> {
        check::parse(params)
    }

    fn check_exact(&self, c: &DraftCheck) -> CheckExact {
        check::exact(c)
    }

    fn check_sample<R: Roller>(&self, c: &DraftCheck, roller: &mut R) -> i64 {
        check::sample(c, roller)
    }

    /// Weapon damage, armour and Stamina as the duel uses them.
    fn fighter_facts(&self, spec: &FighterSpec) -> Vec<(String, String)> {
        match fighter::compile(&self.o, spec) {
            Ok(f) => vec![
                ("damage term".into(), f.weapon_damage.to_string()),
                ("strength bonus".into(), format!("{:+}", f.str_bonus)),
                (
                    "protection / movement".into(),
                    format!("{} / {:+}", f.protection, f.movement),
                ),
                ("stamina".into(), f.stamina.to_string()),
            ],
            Err(_) => Vec::new(),
        }
    }

    /// Skill 0–10 against the nine difficulty levels of §3.10 (digest §7.2).
    fn check_grid(&self) -> Option<CheckGrid<DraftCheck>> {
        let cells = (0..=10)
            .flat_map(|skill| {
                check::DIFFICULTIES.iter().map(move |&(name, tn)| {
                    (
                        skill,
                        name.to_string(),
                        tn,
                        DraftCheck::Simple { value: skill, tn },
                    )
                })
            })
            .collect();
        Some(CheckGrid {
            row_name: "skill",
            col_name: "difficulty",
            col_value_name: "tn",
            cells,
        })
    }
}


/// Documentation of every fighter field.
pub const FIGHTER_DOCS: &[FieldDoc] = &[
    doc(
        "skill",
        "required",
        "weapon skill 0–30, to attack and to parry with the weapon (§4.18)",
    ),
    doc(
        "weapon",
        "required",
        "built-in name (dagger, small club, mace, flail, giant's club, short sword, long sword, two handed sword, two handed war hammer, rapier, unarmed) or { impact, aspect = \"pointed\"|\"sharp\"|\"blunt\", bonus, hands, flexible, can_parry, length, name }",
    ),
    doc(
        "shield",
        "\"none\"",
        "\"none\" | \"small\" (+1) | \"large\" (+2); needs a one-handed weapon (§4.18.1)",
    ),
    doc(
        "shield_skill",
        "0",
        "shield skill, a separate skill (§4.18.1)",
    ),
    doc("dodge", "0", "Dodge skill (§4.18.3)"),
    doc(
        "armour",
        "\"none\"",
        "none, cloth, leather, chain, plate, full plate, armour_6 / armour_4, or { protection, movement } (§4.17.5)",
    ),
    doc("str", "5", "Strength 1–10: damage bonus (§4.19)"),
    doc("con", "5", "Constitution 1–20: wound thresholds (§4.19.2)"),
    doc(
        "policy",
        "\"balanced\"",
        "\"balanced\" (1 attack) | \"aggressive\" (2) | \"all_out\" (3, no defence) | \"defensive\" | \"adaptive\"",
    ),
    doc(
        "adaptive_threshold",
        "3",
        "adaptive: Defensive Position when own wound penalty exceeds the opponent's by this",
    ),
    doc(
        "defence",
        "\"best_legal\"",
        "\"best_legal\" | \"weapon\" | \"shield\" | \"dodge\" | \"none\" (a forced choice that is illegal against this opponent falls back to best_legal)",
    ),
    doc(
        "unfamiliar_weapon",
        "false",
        "familiar but different weapon: unfamiliar_weapon_modifier on attack and weapon parry (§4.17.3)",
    ),
    doc(
        "situation",
        "[]",
        "§4.23.3 flags: opponent_surprised, attacking_from_behind, opponent_sitting_or_lying (attacks); higher_ground, surprised, lower_ground, sitting, lying (attacks and defences)",
    ),
    doc(
        "attack_modifier",
        "0",
        "any further modifier on attack rolls",
    ),
    doc(
        "defence_modifier",
        "0",
        "any further modifier on parry and dodge rolls",
    ),
];

/// Documentation of `oddsmith check draft` parameters.
pub const CHECK_DOCS: &[FieldDoc] = &[
    doc(
        "skill",
        "0",
        "skill (or attribute, for rolls against CON/WIL) of the acting character",
    ),
    doc("modifier", "0", "sum of bonuses and penalties on the roll"),
    doc(
        "difficulty",
        "normal",
        "extremely_easy (TN 4) … normal (10) … beyond_imagination (20) (§3.10)",
    ),
    doc("tn", "10", "target number, instead of difficulty"),
    doc(
        "attack",
        "—",
        "opposed check: attack skill + modifiers; the margin is reported, hit iff > 0",
    ),
    doc(
        "defence",
        "—",
        "opposed check: defence skill + modifiers (ties go to the defender)",
    ),
];
