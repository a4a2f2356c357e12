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
pub mod schema;
pub mod solver;
#[cfg(test)]
mod testing;

pub use check::{Band, CheckExact, CheckGrid, CheckParams};
pub use error::RulesError;
pub use info::{FieldDoc, RulesetInfo};
pub use outcome::{
    DuelOutcome, Ending, ExactDuel, MAX_COUNTERS, NoTally, OutcomeTally, Side, Tally, Winner,
};
pub use registry::{RULESET_IDS, RulesetVisitor, visit};
pub use roller::{RngRoller, Roller};
pub use solver::{DuelState, Step};

use std::fmt::Debug;

// The one list of rulesets: each line declares the module and registers its type.
rulesets! {
    draft::Draft,
    gamecraft::Gamecraft,
    d20::D20,
    openrpg::OpenRpg,
    cards::Cards,
}

use serde::Serialize;
use serde::de::DeserializeOwned;

/// One rule system: how fighters are described, compiled and made to fight.
///
/// A ruleset value holds its compiled options. Everything per trial is monomorphised: the
/// engine calls [`Ruleset::duel`] with a concrete [`Roller`], with no dynamic dispatch.
///
/// **Required**: the types (fighter spec, options, compiled fighter, matchup, duel state,
/// check), [`new`](Ruleset::new) and [`options`](Ruleset::options), [`compile`](Ruleset::compile)
/// and [`matchup`](Ruleset::matchup), the duel state machine ([`start`](Ruleset::start),
/// [`step`](Ruleset::step), [`max_rounds`](Ruleset::max_rounds)), [`info`](Ruleset::info) and
/// the three check methods.
///
/// **Provided**: [`duel`](Ruleset::duel) (the Monte Carlo duel, [`solver::duel`]) and
/// [`exact`](Ruleset::exact) (the exact solver, [`solver::solve`]), both over `step`, and the
/// outcome tally ([`OutcomeTally`]). **Optional**: [`counter_names`](Ruleset::counter_names),
/// [`fighter_facts`](Ruleset::fighter_facts), [`fighter_cost`](Ruleset::fighter_cost),
/// [`check_grid`](Ruleset::check_grid), and the exact solver's transition cache
/// ([`CACHE_TRANSITIONS`](Ruleset::CACHE_TRANSITIONS) with [`cache_round`](Ruleset::cache_round)
/// and [`capped`](Ruleset::capped)).
///
/// **The `step` contract.** `step` advances the state by one step (a round start, one
/// attack, …) and says whether the duel goes on. It reads dice only through the roller, the
/// same dice in the same order for the same state, and reports attacks and counters only
/// through the [`Tally`] (the exact solver passes [`NoTally`]); it has no other side effects.
/// It ends the duel as a draw ([`Ending::RoundCap`]) when a round past `max_rounds` would
/// start. The state space reachable from `start` must be finite for `exact` to answer.
///
/// ```ignore
/// impl Ruleset for Coin {
///     const ID: &'static str = "coin";
///     const TITLE: &'static str = "Coin duel";
///     type State = CoinState; // #[derive(Clone, Copy, …, Hash, Ord)] + DuelState
///     // … FighterSpec, Options, Fighter, Matchup, Check, new, options, compile, matchup …
///     fn start(&self, _m: &Matchup) -> CoinState { CoinState::default() }
///     fn step<R: Roller, T: Tally>(&self, m: &Matchup, s: &mut CoinState, r: &mut R,
///                                  t: &mut T) -> Step {
///         s.round += 1;
///         if s.round > self.o.max_rounds { return Step::Over(Winner::Draw, Ending::RoundCap) }
///         let hit = r.roll(2) == 2;
///         t.attack(0, hit, 1);
///         if hit { Step::Over(Winner::A, Ending::Death) } else { Step::Continue }
///     }
///     fn max_rounds(&self) -> u32 { self.o.max_rounds }
///     // … info, parse_check, check_exact, check_sample; duel and exact come for free.
/// }
/// ```
pub trait Ruleset: Sized + Sync + Send + Clone + Debug + 'static {
    /// Stable identifier used in scenario files (`ruleset = "draft"`).
    const ID: &'static str;
    /// Human-readable title of the rule system.
    const TITLE: &'static str;
    /// A fighter as written in a scenario file (`deny_unknown_fields`).
    type FighterSpec: DeserializeOwned + Serialize + Clone + Debug + schema::Declared;
    /// The ruleset's options as written under `[options]`; `Default` is the digest's default.
    type Options: DeserializeOwned
        + Serialize
        + Default
        + Clone
        + PartialEq
        + Debug
        + Send
        + Sync
        + schema::Declared;
    /// A compiled, validated fighter: a flat struct with precomputed tables.
    type Fighter: Clone + Send + Sync + Debug;
    /// Two compiled fighters facing each other, with everything per-pair precomputed.
    type Matchup: Clone + Send + Sync + Debug;
    /// The duel state between two steps (small and `Copy`; the exact solver's key).
    type State: DuelState;
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
    /// The state before the first step of a duel.
    fn start(&self, m: &Self::Matchup) -> Self::State;
    /// Advances the duel by one step (see the trait's `step` contract).
    fn step<R: Roller, T: Tally>(
        &self,
        m: &Self::Matchup,
        s: &mut Self::State,
        roller: &mut R,
        tally: &mut T,
    ) -> Step;
    /// The round cap (a duel still going after it is a draw).
    fn max_rounds(&self) -> u32;
    /// Runs one duel to its end: [`solver::duel`].
    #[inline]
    fn duel<R: Roller>(&self, m: &Self::Matchup, roller: &mut R) -> DuelOutcome {
        solver::duel(self, m, roller)
    }
    /// Solves the duel exactly ([`solver::solve`] from [`Ruleset::start`]); `None` where the
    /// ruleset has no exact solution under its options ([`no_exact_reason`](Ruleset::no_exact_reason))
    /// or the solver gives up ([`solver::MAX_LIVE_STATES`], [`solver::MAX_WORK`]).
    fn exact(&self, m: &Self::Matchup) -> Option<ExactDuel> {
        if self.no_exact_reason().is_some() {
            return None;
        }
        solver::solve(self, m, self.start(m))
    }
    /// Why the ruleset, under its options, never solves a duel exactly (shown beside
    /// Monte Carlo-only results); `None` where [`exact`](Ruleset::exact) answers unless the
    /// solver's budget runs out.
    fn no_exact_reason(&self) -> Option<&'static str> {
        None
    }
    /// Opt in to the exact solver's transition cache ([`solver::Transitions::Cached`]): each
    /// state's transitions are computed once under its [`cache_round`](Ruleset::cache_round)
    /// and reused in every round. Only for a `step` that cannot tell such rounds apart (the
    /// round cap aside, which [`capped`](Ruleset::capped) then applies).
    const CACHE_TRANSITIONS: bool = false;
    /// With the cache: the round a state in `round` is solved under (0 if `step` never reads
    /// the round, the round's parity if it reads only that).
    fn cache_round(&self, round: u32) -> u32 {
        round
    }
    /// With the cache: whether the duel ends at `s` by the round cap (a draw in `s`'s round)
    /// before `step`, which sees only the cache round.
    fn capped(&self, _s: &Self::State) -> bool {
        false
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
