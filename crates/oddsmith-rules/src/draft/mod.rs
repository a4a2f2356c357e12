//! Draft 0.4 (Pitt Murmann, 1993–1998): d10 + skill, opposed attack and parry, margin-based
//! damage against Constitution, stacking wounds. Rules cited as "Draft 0.4 §…";
//! G1–G20 are the gaps of the project's digest of them. Users' account: `docs/rulesets/draft.md`.
//!
//! Modelled: duels between two fighters (digest §6 default loop) with every option of
//! [`DraftOptions`] — engaged, or starting apart (`start_distance`) with missile fire
//! (§4.21), closing, Normal-move or Charge arrival (§4.22.2) and drawing by weight
//! (§4.17.1) — single checks and opposed rolls, and an exact duel solver.
//!
//! # Map
//!
//! - `spec`: the TOML fighter, with an optional `missile` weapon; `options`: the digest's knobs
//!   and the seed's readings, with defaults and docs; `tables`: weapons with lengths, missile
//!   ranges and preparation, armour.
//! - `fighter`: compile, the defence choice, the striking order, defences against missiles and
//!   with nothing in hand. `fighter::Hot` folds the constant parts of the attack, defence and
//!   damage totals and the fixed policies' plans once per matchup; `Hot::fast` is what the fast
//!   path reads, and says where the Monte Carlo duel takes it.
//! - `duel`: the state machine — engaged rounds and, while apart, segments of shots and closing
//!   with the distance in the state; arrival by Normal move or Charge, drawing by weight, the
//!   optional arm drop; plans declared per round (`FState::guard`: the parries and dodges the
//!   plan keeps) with the Changing One's Mind penalty (`changing_mind`), and the optional
//!   potent-fighter shift (`potent_fighter_shift`: strikes first, draws or moves in a segment
//!   sooner).
//! - `duel::margin`: attack against defence, the dice used only through the margin: one
//!   `Roller::outcome`, so the exact solver branches once per margin (at most 10) instead of
//!   once per pair of faces, and, with the exact solver's `NoTally` (`Tally::RECORDS` false:
//!   nothing reads the damage), once per wound level the blow causes, a run of margins of one
//!   level standing for it. Monte Carlo rolls the same faces.
//! - `fast`: `engaged_duel` and `engaged_duels`, the engaged fast path: one loop over rounds
//!   and segments on a compact per-fighter state (running attack and defence totals, caps on
//!   attacks and defences, the wound state) updated on a wound or a new round, with `Engaged`'s
//!   wound-state tables (next state by blow level, penalty, helpless, lost) built per matchup
//!   from `step`'s own rules (`duel::apply`, `duel::lost`, the penalties); at most
//!   `fast::WOUND_STATES` wound states, else `step`. A single-attack form (`Engaged::single`:
//!   every plan attacks at most once a round, at least two actions are allowed and the first
//!   two are free, so no action counts, extra-action modifier or Changing One's Mind per
//!   attack) is chosen once per matchup as a const generic of the same code. The engine's
//!   chunks run through `Ruleset::duels` on `Roller::local`, the stream kept in the fast path's
//!   own frame across the chunk. `tests/fast.rs` plays the fast path and `step` on the same
//!   dice for 1,300,000 duels over 13 settings, both forms and the chunk batches.
//! - `check`: single checks and opposed rolls; `reference`: costs, healing, suffocation, hit
//!   locations; `tests.rs`: the digest's oracles.

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

pub use check::DraftCheck;
pub use fighter::{Fighter, Level, Matchup};
pub use options::DraftOptions;
pub use spec::FighterSpec;

use crate::{CheckGrid, Ruleset, RulesError};

/// The Draft 0.4 ruleset with its options.
pub type Draft = crate::Rules<DraftOptions>;

/// Names of Draft's per-duel counters: blows received by each side, by the level of the blow.
pub const COUNTERS: &[&str] =
    crate::per_side_counters!["scratches_taken", "light_taken", "severe_taken", "critical_taken"];

impl Ruleset for Draft {
    const ID: &'static str = "draft";
    const TITLE: &'static str = "Draft 0.4 RPG Rule Set";
    const SUMMARY: &'static str =
        "Duels: d10 + skill opposed rolls (defender wins ties), damage = margin \
        + strength bonus + weapon damage − armour, wounds against CON that stack \
        (3 Light, 2 Severe, 1 Critical), three segments a round; engaged, or \
        apart with aimed or unaimed missile and thrown fire while one side closes \
        (no sprint in heavy armour or with a Severe wound), walking in or charging; \
        guns fired in melee. Optional hit locations and exhaustion. Exact solver \
        included. Magic, cover and target size are not modelled.";
    const PLACEHOLDERS: &'static [crate::Placeholder] = tables::PLACEHOLDERS;
    type FighterSpec = FighterSpec;
    type Fighter = Fighter;
    type Matchup = Matchup;
    type State = duel::State;
    type Check = DraftCheck;

    /// Free actions cannot exceed the actions allowed in a round.
    fn validate(o: &DraftOptions) -> Result<(), RulesError> {
        if o.free_actions_per_round > o.max_actions_per_round {
            return Err(RulesError::field(
                "free_actions_per_round",
                "cannot exceed max_actions_per_round",
            ));
        }
        Ok(())
    }

    /// [`fast::engaged_duel`] where the matchup allows it ([`fighter::Hot::fast`]), else
    /// the shared duel over `step`.
    #[inline]
    fn duel<R: crate::Roller>(&self, m: &Matchup, roller: &mut R) -> crate::DuelOutcome {
        if let Some(e) = &m.hot.fast {
            fast::engaged_duel(m, e, roller)
        } else {
            crate::solver::duel(self, m, roller)
        }
    }

    /// [`fast::engaged_duels`] where the matchup allows it, else one shared duel after another.
    #[inline]
    fn duels<R: crate::Roller>(
        &self,
        m: &Matchup,
        roller: &mut R,
        n: u64,
        mut record: impl crate::Record,
    ) {
        if let Some(e) = &m.hot.fast {
            fast::engaged_duels(m, e, roller, n, record);
        } else {
            for _ in 0..n {
                record.record(&crate::solver::duel(self, m, roller));
            }
        }
    }

    fn counter_names(&self) -> &'static [&'static str] {
        COUNTERS
    }

    /// Weapon damage, armour and Stamina as the duel uses them.
    fn fighter_facts(&self, spec: &FighterSpec) -> Vec<(String, String)> {
        match self.compile("", spec) {
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
