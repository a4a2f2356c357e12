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
//!
//! # Map
//!
//! - Monte Carlo samples the turn table through the `Roller`: 48 random bits looked up as
//!   integer thresholds from a 256-entry guide (`fighter::Cumulative`, tested to give the index
//!   of the float search). Each turn's side, whether it acts and the ambush state are
//!   tabulated per matchup from the rules' functions (`Matchup::slots`). The engine's chunks
//!   run through `Ruleset::duels` on `Roller::local`, tested against one `duel` after another.
//! - `exact` is overridden (8d10 has too many faces for the shared solver) and enumerates the
//!   same `duel::advance` over health grids: `grid::solve` applies each turn (`duel::begin` for
//!   every forced choice, `duel::choices`, then `duel::apply` for the successor's flags) to a
//!   whole grid per flag word at once, one damage kernel per successor. `duel::solve`, state by
//!   state, is kept as its reference, and a test compares the two on every bundled matchup.
//! - Where no turn outcome changes anything but health (`product::factors`: no full dodge, no
//!   recovery that depends on the outcome) the flags follow one path per initiative draw and
//!   the grid is the product of the two fighters' health distributions, so `product::solve`
//!   moves two vectors instead of the grid (tested against the grid on every bundled matchup
//!   that factors).
//! - A test rolls the dice one by one with the rules' own functions and matches the tables
//!   within 4σ.

pub mod attack;
pub mod check;
pub mod duel;
pub mod fighter;
pub mod grid;
pub mod options;
pub mod product;
pub mod spec;

#[cfg(test)]
mod tests;

pub use check::OpenRpgCheck;
pub use fighter::{Fighter, Matchup};
pub use options::OpenRpgOptions;
pub use spec::FighterSpec;

use duel::State;

use crate::{CheckGrid, ExactDuel, Ruleset};

/// The Open RPG ruleset with its options.
pub type OpenRpg = crate::Rules<OpenRpgOptions>;

impl Ruleset for OpenRpg {
    const ID: &'static str = "openrpg";
    const TITLE: &'static str = "Open RPG 2.3 Combat Rules";
    const SUMMARY: &'static str =
        "Duels under the open RPG's 2.3 Combat Rules: one attack roll (N d10 per \
        trait point, G1) gives accuracy against 5 × the target's combat base and \
        the blows (roll ÷ rate + 1); slow weapons (strike 1/M) recover; a d20 \
        critical per blow (× or +); the blows summed (primary) or base × \
        multiplier (legacy); damage reduction then defense (armour + S d4); \
        shields, dodge (half or full), targeted locations with joint penetration, \
        mounted halving, ambushes and waiting; initiative by agility + weapon \
        length or legacy priority levels. Health 100 by default (G3). Exact solver \
        included; nothing is priced.";
    type FighterSpec = FighterSpec;
    type Fighter = Fighter;
    type Matchup = Matchup;
    type State = State;
    type Check = OpenRpgCheck;
    const PLACEHOLDERS: &'static [crate::Placeholder] = spec::PLACEHOLDERS;

    /// The shared duel over `step`, one after another, rolled with the roller's
    /// [`Roller::local`](crate::Roller::local) copy (the generator's state kept in registers
    /// across the chunk, written back at its end): the very duels of `n` calls of `duel`.
    #[inline]
    fn duels<R: crate::Roller>(
        &self,
        m: &Matchup,
        roller: &mut R,
        n: u64,
        mut record: impl crate::Record,
    ) {
        let mut r = roller.local();
        for _ in 0..n {
            record.record(&crate::solver::duel(self, m, &mut r));
        }
    }

    /// Every turn's outcome is enumerated from the matchup's tables, a whole health grid at a
    /// time ([`grid::solve`]; [`duel::solve`] state by state is its reference), or, where no
    /// outcome changes anything but health, as a product of the two health distributions
    /// ([`product::solve`], tested against the grid); the shared solver would enumerate the
    /// 48 random bits of each draw instead.
    fn exact(&self, m: &Matchup) -> Option<ExactDuel> {
        if product::factors(m) {
            product::solve(self, m)
        } else {
            grid::solve(self, m)
        }
    }

    /// Who won the initiative (G12, rolled once before round 1) in each duel: the duels where
    /// A acted first, and those A acted first and won ([`State`]'s `step` counts them at the
    /// duel's end).
    fn counter_names(&self) -> &'static [&'static str] {
        &["a_first", "a_first_and_wins"]
    }

    /// P(A acts first) from the matchup's initiative table; with `solve`, the duel solved with
    /// the initiative forced each way (the same [`exact`](Ruleset::exact) on a copy of the
    /// matchup whose initiative draw has one outcome).
    fn first_move(&self, m: &Matchup, solve: bool) -> Option<crate::FirstMove> {
        let p = m.first[0];
        let forced = |a_first: bool| {
            let q = if a_first { p } else { 1.0 - p };
            if !solve || q <= 0.0 {
                return None;
            }
            let mut f = m.clone();
            f.first = if a_first { [1.0, 0.0] } else { [0.0, 1.0] };
            f.first_cum = fighter::Cumulative::new(&[f.first[0], 1.0]);
            self.exact(&f)
        };
        Some(crate::FirstMove {
            p_a_first: p,
            counters: [duel::A_FIRST, duel::A_FIRST_AND_WINS],
            exact: [forced(true), forced(false)],
        })
    }

    /// The required roll and the blows a turn lands on average against this fighter's own
    /// combat base.
    fn fighter_facts(&self, spec: &FighterSpec) -> Vec<(String, String)> {
        let Ok(f) = self.compile("", spec) else {
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
