//! The `Ruleset` contract and oddsmith's rule systems.
//!
//! A ruleset is one module folder (see [`draft`]): its fighter spec and options (serde, every
//! option with the digest's default), `compile`, the duel, its checks (exact and sampled) and an
//! exact duel solver where the state space allows one. The engine (`oddsmith-sim`) only sees
//! [`DuelOutcome`]; the CLI reaches rulesets through [`registry`].
//!
//! This crate does no IO, reads no clock and owns no random generator: every random number
//! comes from a [`Roller`] passed in.

pub mod check;
pub mod error;
pub mod fields;
pub mod info;
pub mod outcome;
pub mod registry;
pub mod roller;
pub mod solver;
#[cfg(test)]
mod testing;

pub use check::{Band, CheckExact, CheckGrid, CheckParams};
pub use error::RulesError;
pub use info::{FieldDoc, RulesetInfo};
pub use outcome::{DuelOutcome, Ending, ExactDuel, MAX_COUNTERS, Side, Winner};
pub use registry::{RULESET_IDS, RulesetVisitor, visit};
pub use roller::{RngRoller, Roller};

use std::fmt::Debug;

// The one list of rulesets: each line declares the module and registers its type.
rulesets! {
    draft::Draft,
    gamecraft::Gamecraft,
    d20::D20,
}

use serde::Serialize;
use serde::de::DeserializeOwned;

/// One rule system: how fighters are described, compiled and made to fight.
///
/// A ruleset value holds its compiled options. Everything per trial is monomorphised: the
/// engine calls [`Ruleset::duel`] with a concrete [`Roller`], with no dynamic dispatch.
pub trait Ruleset: Sized + Sync + Send + Clone + Debug + 'static {
    /// Stable identifier used in scenario files (`ruleset = "draft"`).
    const ID: &'static str;
    /// Human-readable title of the rule system.
    const TITLE: &'static str;
    /// A fighter as written in a scenario file (`deny_unknown_fields`).
    type FighterSpec: DeserializeOwned + Serialize + Clone + Debug;
    /// The ruleset's options as written under `[options]`; `Default` is the digest's default.
    type Options: DeserializeOwned + Serialize + Default + Clone + PartialEq + Debug + Send + Sync;
    /// A compiled, validated fighter: a flat struct with precomputed tables.
    type Fighter: Clone + Send + Sync + Debug;
    /// Two compiled fighters facing each other, with everything per-pair precomputed.
    type Matchup: Clone + Send + Sync + Debug;
    /// A single check's parameters, parsed from `key=value` pairs.
    type Check: Clone + Send + Sync + Debug;

    /// Validates the options and builds the ruleset.
    fn new(options: Self::Options) -> Result<Self, RulesError>;
    /// The options in force.
    fn options(&self) -> &Self::Options;
    /// Validates a fighter spec and compiles it; `name` is used in messages only.
    fn compile(&self, name: &str, spec: &Self::FighterSpec) -> Result<Self::Fighter, RulesError>;
    /// Pairs two fighters (A first, B second), precomputing per-pair tables.
    fn matchup(&self, a: &Self::Fighter, b: &Self::Fighter) -> Result<Self::Matchup, RulesError>;
    /// Runs one duel to its end.
    fn duel<R: Roller>(&self, m: &Self::Matchup, roller: &mut R) -> DuelOutcome;
    /// Solves the duel exactly, where the ruleset can.
    fn exact(&self, _m: &Self::Matchup) -> Option<ExactDuel> {
        None
    }
    /// Names of the ruleset's extra per-duel counters (at most [`MAX_COUNTERS`]).
    fn counter_names(&self) -> &'static [&'static str] {
        &[]
    }
    /// Fighter fields and options with their defaults and one-line docs.
    fn info() -> RulesetInfo;

    /// Parses check parameters (`skill=5 difficulty=hard`).
    fn parse_check(&self, params: &CheckParams) -> Result<Self::Check, RulesError>;
    /// The exact distribution of a check's result and how to read it.
    fn check_exact(&self, check: &Self::Check) -> CheckExact;
    /// Samples one check result (same scale as [`CheckExact::distribution`]).
    fn check_sample<R: Roller>(&self, check: &Self::Check, roller: &mut R) -> i64;
    /// Derived figures of a fighter worth showing in reports (e.g. Health, point-buy cost),
    /// as (label, value) pairs.
    fn fighter_facts(&self, _spec: &Self::FighterSpec) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The fighter's price under the ruleset's own build rules, with its unit (e.g. `(120.0,
    /// "XP")`), for cost-efficiency studies; `None` where the rules price no fighter.
    fn fighter_cost(&self, _spec: &Self::FighterSpec) -> Option<(f64, &'static str)> {
        None
    }
    /// The ruleset's standard check table for reports (e.g. skill × difficulty), if any.
    fn check_grid(&self) -> Option<CheckGrid<Self::Check>> {
        None
    }
}
