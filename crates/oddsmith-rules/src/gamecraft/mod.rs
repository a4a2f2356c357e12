//! The Gamecraft System 1.0 (Brian Engard, 2002): limited-exploding 1d6−1 + attribute + skill
//! against a TN, attacks against Prowess + Combat Defense, damage (Strength or Perception +
//! weapon + die) against resistance (Constitution + armour + die), six wound levels of
//! Health/6. Rules cited as "Gamecraft 1.0 «heading»";
//! G1–G25 are the gaps of the project's digest of them. Users' account: `docs/rulesets/gamecraft.md`.
//!
//! Modelled: one-on-one duels (digest §4.15) with initiative once per combat, phased multiple
//! actions, simultaneous and reserved actions, dodge and full dodge, Grace, criticals and
//! fumbles, movement between distance categories (G21 approach model) with range modifiers
//! and the moving-target bonus, bursts, sprays and strafes, non-lethal damage, bleeding and
//! first aid as options; explosives (thrown or placed; the target's avoidance roll moves it
//! out through the blast's Ranges, G20 options); single, opposed, attack, damage and
//! explosion-avoidance checks; an exact duel solver; creation and XP costs.
//!
//! # Map
//!
//! 61 options. Explosions: a grenade's throw, the avoidance roll and the blast bands are
//! resolved in the throw's step. The exact solver goes through the shared solver's transition
//! cache, with a dodge's die deferred to the attack that meets it (`Roller::defers`).
//!
//! `fast` is the Monte Carlo fast path where fighters stand and trade blows: `fast::duel` on
//! the two `FState`s with the per-matchup attack bases, TNs and damage bases
//! (`Matchup::fast`), every rule through `step`'s own functions. `tests/fast.rs` plays it and
//! `step` on the same dice for 1,200,000 duels over 12 settings. (Keeping the stream in
//! registers across a chunk with `Roller::local`, as Draft does, was tried here and cost
//! instructions: this path's dice helper is not inlined, so the copy was passed by pointer.)

pub mod check;
pub mod duel;
pub mod fast;
pub mod fighter;
pub mod options;
pub mod reference;
pub mod spec;
pub mod tables;

#[cfg(test)]
mod tests;

pub use check::GamecraftCheck;
pub use fighter::{Fighter, Matchup};
pub use options::GamecraftOptions;
pub use spec::FighterSpec;

use crate::solver;
use duel::State;
use options::ExplodeMode;

use crate::{CheckGrid, ExactDuel, Ruleset, Winner};

/// The Gamecraft System 1.0 ruleset with its options.
pub type Gamecraft = crate::Rules<GamecraftOptions>;

/// Names of Gamecraft's per-duel counters.
pub const COUNTERS: &[&str] =
    crate::per_side_counters!["criticals", "fumbles", "dodges", "grace_spent"];

impl Ruleset for Gamecraft {
    const ID: &'static str = "gamecraft";
    const TITLE: &'static str = "The Gamecraft System 1.0";
    const SUMMARY: &'static str =
        "Duels: limited-exploding 1d6−1 + Prowess + weapon skill against Prowess + \
        Combat Defense (+ dodge roll or +10 full dodge, + range), damage \
        (Strength/Perception + weapon + die) minus resistance (Constitution + \
        armour + die) into six wound levels of Health/6 with −1…−4 penalties. \
        Initiative once per combat, actions resolved in phases, −N for N actions, \
        Grace spent up to the skill level; simultaneous and reserved actions; \
        movement between distance categories with range modifiers and moving \
        targets; bursts, sprays and strafes; first aid against bleeding; \
        explosives (a blast the target rolls to avoid, Range by Range, at full, \
        half or quarter damage). Exact solver included.";
    const PLACEHOLDERS: &'static [crate::Placeholder] = tables::PLACEHOLDERS;
    type FighterSpec = FighterSpec;
    type Fighter = Fighter;
    type Matchup = Matchup;
    type State = State;
    type Check = GamecraftCheck;

    /// No exact duel under `explode_mode = "unlimited"` (the provided `exact` then answers
    /// `None`).
    fn no_exact_reason(&self) -> Option<&'static str> {
        (self.options().explode_mode == ExplodeMode::Unlimited)
            .then_some("under explode_mode = \"unlimited\" a die has unboundedly many faces")
    }

    /// A step does not depend on the round number (only the round cap does).
    const CACHE_TRANSITIONS: bool = true;

    fn cache_round(&self, _round: u32) -> u32 {
        0
    }

    fn capped(&self, s: &State) -> bool {
        duel::next_is_round_start(s) && s.round >= self.options().max_rounds
    }

    /// [`fast::duel`] where the matchup allows it ([`Matchup::fast`]), else the shared duel
    /// over `step`.
    #[inline]
    fn duel<R: crate::Roller>(&self, m: &Matchup, roller: &mut R) -> crate::DuelOutcome {
        if let Some(e) = &m.fast {
            fast::duel(self, m, e, roller)
        } else {
            solver::duel(self, m, roller)
        }
    }

    fn counter_names(&self) -> &'static [&'static str] {
        COUNTERS
    }

    /// XP to build the fighter from the minimum character (every attribute 1, no skills) by the
    /// advancement costs of «Spending Experience Points» (digest §3.6); weapons and armour
    /// have no price in the seed.
    fn fighter_cost(&self, spec: &FighterSpec) -> Option<(f64, &'static str)> {
        let c = reference::cost(fighter::attributes(spec), &spec.skills);
        Some((f64::from(c.xp_from_minimum), "XP"))
    }

    /// Derived attributes, wound levels, combat figures and creation/XP cost.
    fn fighter_facts(&self, spec: &FighterSpec) -> Vec<(String, String)> {
        let Ok(f) = self.compile("", spec) else {
            return Vec::new();
        };
        let d = f.derived;
        let a = fighter::attributes(spec);
        let c = reference::cost(a, &spec.skills);
        let line = fighter::attack_line(self.options(), &f, &f);
        let mut levels = Vec::new();
        let mut prev = 0;
        for &t in &f.cum {
            levels.push((t - prev).to_string());
            prev = t;
        }
        let legal = a.iter().all(|&v| (1..=10).contains(&v))
            && c.attribute_points <= 45
            && c.skill_points <= 25
            && c.max_skill <= 8;
        vec![
            (
                "Health / Fatigue / Grace / Power".into(),
                format!("{} / {} / {} / {}", d.health, d.fatigue, d.grace, d.power),
            ),
            (
                "Savvy / Charm / Initiative / Move".into(),
                format!("{} / {} / {} / {}", d.savvy, d.charm, d.initiative, d.move_),
            ),
            ("wound levels".into(), levels.join("/")),
            (
                "attack / damage / resistance".into(),
                format!("{} / {} / {}", line.atk, f.dmg_base, f.res_base),
            ),
            (
                "creation points (attributes, skills)".into(),
                format!(
                    "{}/45, {}/25{}",
                    c.attribute_points,
                    c.skill_points,
                    if legal {
                        ""
                    } else {
                        " (beyond starting limits)"
                    }
                ),
            ),
            ("XP from minimum".into(), c.xp_from_minimum.to_string()),
        ]
    }

    /// Attribute + skill 2–20 against the seven difficulty levels («Skill Checks»).
    fn check_grid(&self) -> Option<CheckGrid<GamecraftCheck>> {
        let tns = self.options().difficulty_tns.tns();
        let cells = (2..=20)
            .flat_map(|base| {
                tables::DIFFICULTIES.iter().zip(tns).map(move |(&(name, ..), tn)| {
                    (
                        base,
                        name.to_string(),
                        tn,
                        GamecraftCheck::Simple {
                            base,
                            tn,
                            level: Some(name),
                        },
                    )
                })
            })
            .collect();
        Some(CheckGrid {
            row_name: "attribute + skill",
            col_name: "difficulty",
            col_value_name: "tn",
            cells,
        })
    }
}

impl Gamecraft {
    /// P(A wins) given who acts first (0 = A), by exact solution; for reports and tests.
    pub fn exact_given_first(&self, m: &Matchup, first: u8) -> Option<ExactDuel> {
        let mut s = self.start(m);
        s.first = first;
        s.init = true;
        self.exact_given_start(m, s)
    }

    /// The exact solution from a given state; `None` under `explode_mode = "unlimited"`.
    fn exact_given_start(&self, m: &Matchup, start: State) -> Option<ExactDuel> {
        if self.no_exact_reason().is_some() {
            return None;
        }
        solver::solve(self, m, start)
    }
}

/// A draw's winner helper for tests and reports.
pub fn winner_index(w: Winner) -> Option<usize> {
    w.side().map(|s| s.index())
}
