//! The open RPG's "2.3 Combat Rules": one attack roll per turn deciding both accuracy (against
//! 5 × the target's combat base) and the number of blows (roll ÷ weapon rate + 1), slow weapons
//! with recovery rounds, a d20 critical per blow, damage expressions such as `str+22`, damage
//! reduction then defense (armour + strength dice), shields, dodge, targeted attacks, mounted
//! modifiers, ambushes and waiting; both drafts of the section (`text_variant`). Rules cited as
//! "Open RPG 2.3 §Heading"; G-numbers and oracles O1–O20 are those of the project's open-rpg
//! digest. Users' account: `docs/rulesets/openrpg.md`.
//!
//! Every die of one attack sequence is folded into an exact table of turn outcomes per pair of
//! fighters ([`attack::turn_table`]); the duel ([`duel::advance`]) draws each turn from it, in
//! Monte Carlo and in the exact solver alike. The seed prices nothing: no fighter cost.

pub mod attack;
pub mod check;
pub mod duel;
pub mod fighter;
pub mod options;
pub mod spec;

#[cfg(test)]
mod tests;

pub use check::OpenRpgCheck;
pub use fighter::{Fighter, Matchup};
pub use options::OpenRpgOptions;
pub use spec::FighterSpec;

use crate::solver::Step;
use duel::State;

use crate::{
    CheckExact, CheckGrid, CheckParams, ExactDuel, Roller, RulesError, RulesetInfo, Tally,
};

/// The Open RPG ruleset with its options.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenRpg {
    o: OpenRpgOptions,
}

impl crate::Ruleset for OpenRpg {
    const ID: &'static str = "openrpg";
    const TITLE: &'static str = "Open RPG 2.3 Combat Rules";
    type FighterSpec = FighterSpec;
    type Options = OpenRpgOptions;
    type Fighter = Fighter;
    type Matchup = Matchup;
    type State = State;
    type Check = OpenRpgCheck;

    fn new(o: OpenRpgOptions) -> Result<Self, RulesError> {
        if !(1..=100_000).contains(&o.max_rounds) {
            return Err(RulesError::field("max_rounds", "expected 1 to 100000"));
        }
        o.check_ranges()?;
        Ok(OpenRpg { o })
    }

    fn options(&self) -> &OpenRpgOptions {
        &self.o
    }

    fn compile(&self, _name: &str, spec: &FighterSpec) -> Result<Fighter, RulesError> {
        fighter::compile(&self.o, spec)
    }

    fn matchup(&self, a: &Fighter, b: &Fighter) -> Result<Matchup, RulesError> {
        Ok(fighter::matchup(&self.o, a, b))
    }

    fn start(&self, m: &Matchup) -> State {
        State::start(m)
    }

    #[inline]
    fn step<R: Roller, T: Tally>(
        &self,
        m: &Matchup,
        s: &mut State,
        roller: &mut R,
        tally: &mut T,
    ) -> Step {
        duel::advance(m, self.o.max_rounds, s, &mut duel::Sample(roller), tally)
    }

    fn max_rounds(&self) -> u32 {
        self.o.max_rounds
    }

    /// Every turn's outcome is enumerated from the matchup's tables ([`duel::solve`]); the
    /// shared solver would enumerate the 48 random bits of each draw instead.
    fn exact(&self, m: &Matchup) -> Option<ExactDuel> {
        duel::solve(m, self.o.max_rounds)
    }

    fn info() -> RulesetInfo {
        RulesetInfo {
            id: Self::ID,
            title: Self::TITLE,
            summary: "Duels under the open RPG's 2.3 Combat Rules: one attack roll (N d10 per \
                      trait point, G1) gives accuracy against 5 × the target's combat base and \
                      the blows (roll ÷ rate + 1); slow weapons (strike 1/M) recover; a d20 \
                      critical per blow (× or +); the blows summed (primary) or base × \
                      multiplier (legacy); damage reduction then defense (armour + S d4); \
                      shields, dodge (half or full), targeted locations with joint penetration, \
                      mounted halving, ambushes and waiting; initiative by agility + weapon \
                      length or legacy priority levels. Health 100 by default (G3). Exact solver \
                      included; nothing is priced.",
            fighter_fields: FighterSpec::DOCS.to_vec(),
            options: OpenRpgOptions::DOCS.to_vec(),
            check_params: check::params::DOCS.to_vec(),
        }
    }

    fn parse_check(&self, params: &CheckParams) -> Result<OpenRpgCheck, RulesError> {
        check::parse(&self.o, params)
    }

    fn check_exact(&self, c: &OpenRpgCheck) -> CheckExact {
        check::exact(&self.o, c)
    }

    fn check_sample<R: Roller>(&self, c: &OpenRpgCheck, roller: &mut R) -> i64 {
        check::sample(&self.o, c, roller)
    }

    /// The required roll and the blows a turn lands on average against this fighter's own
    /// combat base.
    fn fighter_facts(&self, spec: &FighterSpec) -> Vec<(String, String)> {
        let Ok(f) = fighter::compile(&self.o, spec) else {
            return Vec::new();
        };
        let mean: f64 = f.attack.damage.iter().map(|&(v, p)| v as f64 * p).sum();
        vec![
            (
                "required to hit this fighter".into(),
                f.defend.required.to_string(),
            ),
            ("mean weapon damage (one blow)".into(), format!("{mean:.2}")),
            ("health".into(), spec.health.to_string()),
        ]
    }

    /// Skill 2–10 against difficulties 10–50 (§2.3 skill rolls; the digest's O4/O15).
    fn check_grid(&self) -> Option<CheckGrid<OpenRpgCheck>> {
        let mut cells = Vec::new();
        for skill in 2..=10 {
            for dc in [10, 20, 25, 30, 40, 50] {
                cells.push((
                    i64::from(skill),
                    format!("DC {dc}"),
                    dc,
                    OpenRpgCheck::Skill { skill, dc },
                ));
            }
        }
        Some(CheckGrid {
            row_name: "skill",
            col_name: "difficulty",
            col_value_name: "dc",
            cells,
        })
    }
}
