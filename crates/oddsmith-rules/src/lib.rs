//! The `Ruleset` contract and oddsmith's rule systems.
//!
//! A ruleset is one module folder (see [`draft`]): its fighter spec and options (serde, every
//! option with the digest's default), `compile`, the duel, its checks (exact and sampled) and an
//! exact duel solver where the state space allows one. The engine (`oddsmith-sim`) only sees
//! [`DuelOutcome`]; the CLI reaches rulesets through [`registry`].
//!
//! This crate does no IO, reads no clock and owns no random generator: every random number
//! comes from a [`Roller`] passed in.
//!
//! # Map
//!
//! - `contract`: `Rules<O, B>` (the ruleset value), `HoldsOptions`, `RulesetOptions`, `Build`,
//!   and the traits on a ruleset's own types: `Compile`, `Pair`, `Duel`, `Check`.
//! - `outcome`: `DuelOutcome`, `Tally` (`OutcomeTally` for Monte Carlo, `NoTally` for the exact
//!   solver), `per_side_counters!`. A ruleset with a full set of counters lays them out per side
//!   (`a_x` at *k*, `b_x` at 4 + *k*, written by `Tally::count_side`); tests check the names
//!   against the layout and against the constants the duel writes with.
//! - `roller`: `Roller` (where dice come from) and `Roller::local`, the copy of a stream a hot
//!   loop rolls with.
//! - `info`: `Documented`, `info::doc`; `check`: check grids and bands; `registry`: `visit`.
//! - Shared by rulesets: `solver` (the duel loop and the exact solver, `duel_state!`), `fields`
//!   (`options!`, `spec!`, `check_params!`), `schema` (shapes for `oddsmith schema`), and the
//!   Monte Carlo test helpers in `testing`.
//!
//! Documentation cannot drift from declarations: an option, nested option member, fighter
//! field or check parameter is declared once with its doc and cannot compile without one;
//! `oddsmith rulesets ID` prints those declarations, and a test fails if a documented default
//! does not parse to `Default`. Bounds are declared beside the field and checked while
//! deserializing, so the error carries the key's line:col; a ruleset's `validate` keeps only
//! its cross-field checks, and the shared `new` runs `check_ranges()` (generated from the same
//! bounds) first, for options built in code. The JSON Schema (`schema/`) comes from the same
//! declarations; every bundled scenario validates against it (with the `jsonschema` crate) and
//! a test fails when `schema/` is stale.
//!
//! # Adding a ruleset
//!
//! All inside `src/<id>/` but the last three steps:
//!
//! 1. `options.rs`: one `crate::options!` table (`pub struct XOptions: RulesetOptions {
//!    max_rounds …, … }`): every option with its default, TOML default text, doc (with the rule
//!    it comes from) and bounds (`in LO..=HI`; a nested table is its own `options!` marked
//!    `@nested`, so it can be given in part).
//! 2. `spec.rs`: the fighter in one `crate::spec!` table (serde attributes, `as "toml_name"` for
//!    renamed fields, each field's default text and doc), `Builtin` impls for
//!    built-in-or-inline entries (`Entry<T>`).
//! 3. `fighter.rs`: `impl Compile<X> for Fighter` and `impl Pair<X> for Matchup` (flat structs,
//!    per-pair tables).
//! 4. `duel.rs`: `State` with `crate::duel_state!(State)` and `impl Duel<X> for State` (`start`,
//!    and the one `step`, reporting through `Tally`).
//! 5. `check.rs`: `crate::check_params! { pub mod params for XCheck { … } }` (names, aliases,
//!    docs) and `impl Check<X> for XCheck` (`parse`, `exact`, `sample`).
//! 6. `mod.rs`: the modules; `pub type X = crate::Rules<XOptions>` (or `Rules<XOptions, B>` with
//!    `impl Build<XOptions> for B`); `impl Ruleset for X` with `ID`, `TITLE`, `SUMMARY` and the
//!    types; then only the ruleset's own items: `validate` for cross-field checks, `COUNTERS` via
//!    `per_side_counters!`, `fighter_facts`, `fighter_cost`, `check_grid`,
//!    `no_exact_reason`/`exact`/the cache.
//! 7. `tests.rs`: the digest's oracles, and `crate::solver::tests::check_modes` on a few duels.
//! 8. `src/lib.rs`: one line in `rulesets! { … }`.
//! 9. `scenarios/<id>/` bundled scenarios (golden-tested automatically) and
//!    `docs/rulesets/<id>.md` for users.
//! 10. Regenerate `schema/` (`cargo run -p oddsmith -- schema --write schema`); add the reference
//!     duel to `benches/src/lib.rs`, `benches/benches/duel.rs` and the allocation test.

pub mod check;
pub mod contract;
pub mod error;
pub mod fields;
pub mod group;
pub mod info;
pub mod outcome;
pub mod registry;
pub mod roller;
pub mod schema;
pub mod solver;
#[cfg(test)]
mod testing;

pub use check::{Band, CheckExact, CheckGrid, CheckParams};
pub use contract::{Build, Check, Compile, Duel, HoldsOptions, Pair, Rules, RulesetOptions};
pub use error::RulesError;
pub use info::{
    Cond, Documented, FieldDoc, Is, Mark, Marked, Placeholder, Requires, RulesetInfo, TableDoc,
};
pub use outcome::{
    DuelOutcome, Ending, ExactDuel, FirstMove, MAX_COUNTERS, NoTally, OutcomeTally, Record, Side,
    Tally, Winner,
};
pub use registry::{RULESET_IDS, RulesetVisitor, visit};
pub use roller::{Outcomes, RngRoller, Roller};
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
/// A ruleset value is a [`Rules`]: its options, checked once by [`new`](Ruleset::new), and
/// what it builds from them. Everything per trial is monomorphised: the engine calls
/// [`Ruleset::duel`] with a concrete [`Roller`], with no dynamic dispatch.
///
/// **Required**: `ID`, `TITLE`, `SUMMARY` and the types, each carrying the behaviour it owns
/// (see [`contract`]): the fighter spec ([`spec!`](crate::spec)); the options
/// ([`RulesetOptions`], generated by [`options!`](crate::options)); the compiled fighter
/// ([`Compile`]); the matchup ([`Pair`]); the duel state ([`Duel`]: `start` and the one
/// `step`); the check ([`Check`], its parameters declared by
/// [`check_params!`](crate::check_params)).
///
/// **Provided**: [`new`](Ruleset::new) (the declared bounds, then [`Build`] and
/// [`validate`](Ruleset::validate)), [`options`](HoldsOptions::options), [`info`](Ruleset::info)
/// (from the declarations, [`Documented`]),
/// [`compile`](Ruleset::compile), [`matchup`](Ruleset::matchup), [`start`](Ruleset::start),
/// [`step`](Ruleset::step), [`max_rounds`](Ruleset::max_rounds), the three check methods, and,
/// over `step`, [`duel`](Ruleset::duel) (the Monte Carlo duel, [`solver::duel`]) and
/// [`exact`](Ruleset::exact) (the exact solver, [`solver::solve`]) with the outcome tally
/// ([`OutcomeTally`]). **Optional**: [`validate`](Ruleset::validate) (cross-field checks),
/// [`fighter_warnings`](Ruleset::fighter_warnings) and
/// [`option_warnings`](Ruleset::option_warnings) (accepted but suspicious settings),
/// [`counter_names`](Ruleset::counter_names) (see [`per_side_counters!`](crate::per_side_counters)),
/// [`fighter_facts`](Ruleset::fighter_facts),
/// [`fighter_cost`](Ruleset::fighter_cost), [`check_grid`](Ruleset::check_grid), `exact` for a
/// state space the shared solver cannot enumerate, and the exact solver's transition cache
/// ([`CACHE_TRANSITIONS`](Ruleset::CACHE_TRANSITIONS) with [`cache_round`](Ruleset::cache_round)
/// and [`capped`](Ruleset::capped)).
///
/// **The `step` contract.** [`Duel::step`] advances the state by one step (a round start, one
/// attack, …) and says whether the duel goes on. It reads dice only through the roller, the
/// same dice in the same order for the same state, and reports attacks and counters only
/// through the [`Tally`] (the exact solver passes [`NoTally`]); it has no other side effects.
/// It ends the duel as a draw ([`Ending::RoundCap`]) when a round past `max_rounds` would
/// start. The state space reachable from `start` must be finite for `exact` to answer.
///
/// ```ignore
/// pub type Coin = Rules<CoinOptions>; // options! { pub struct CoinOptions: RulesetOptions { max_rounds … } }
///
/// impl Ruleset for Coin {
///     const ID: &'static str = "coin";
///     const TITLE: &'static str = "Coin duel";
///     const SUMMARY: &'static str = "A flips a coin each round and wins on heads.";
///     type FighterSpec = CoinSpec;   // spec! { … }
///     type Fighter = CoinFighter;    // impl Compile<Coin>
///     type Matchup = CoinMatchup;    // impl Pair<Coin>
///     type State = CoinState;        // duel_state!(CoinState) and impl Duel<Coin>, below
///     type Check = CoinCheck;        // impl Check<Coin>; check_params! { pub mod params for CoinCheck { … } }
///     // new, info, duel, exact and the rest come for free.
/// }
///
/// impl Duel<Coin> for CoinState {
///     fn start(_rules: &Coin, _m: &CoinMatchup) -> CoinState { CoinState::default() }
///     fn step<R: Roller, T: Tally>(&mut self, rules: &Coin, _m: &CoinMatchup, r: &mut R,
///                                  t: &mut T) -> Step {
///         self.round += 1;
///         if self.round > rules.options().max_rounds {
///             return Step::Over(Winner::Draw, Ending::RoundCap);
///         }
///         let hit = r.roll(2) == 2;
///         t.attack(0, hit, 1);
///         if hit { Step::Over(Winner::A, Ending::Death) } else { Step::Continue }
///     }
/// }
/// ```
pub trait Ruleset: HoldsOptions + Sync + Send + Clone + Debug + 'static {
    /// Stable identifier used in scenario files (`ruleset = "draft"`).
    const ID: &'static str;
    /// Human-readable title of the rule system.
    const TITLE: &'static str;
    /// A short paragraph on what is modelled (for `oddsmith rulesets`).
    const SUMMARY: &'static str;
    /// A fighter as written in a scenario file (`deny_unknown_fields`).
    type FighterSpec: DeserializeOwned + Serialize + Clone + Debug + schema::Declared + Documented;
    /// A compiled, validated fighter: a flat struct with precomputed tables.
    type Fighter: Compile<Self>;
    /// Two compiled fighters facing each other, with everything per-pair precomputed.
    type Matchup: Pair<Self>;
    /// The duel state between two steps (small and `Copy`; the exact solver's key).
    type State: Duel<Self>;
    /// A single check's parameters, parsed from `key=value` pairs.
    type Check: Check<Self> + Documented;

    /// Checks the options and builds the ruleset: the declared bounds
    /// ([`RulesetOptions::check_ranges`]), what the ruleset builds from them ([`Build`]),
    /// then the ruleset's own [`validate`](Ruleset::validate).
    fn new(options: Self::Options) -> Result<Self, RulesError> {
        // Every number stays small, so no sum in the duel loop can overflow.
        options.check_ranges()?;
        let built = <Self::Built as Build<Self::Options>>::build(&options)?;
        Self::validate(&options)?;
        Ok(Self::from_parts(options, built))
    }
    /// The ruleset's own checks across options (beyond each option's declared bounds).
    fn validate(_options: &Self::Options) -> Result<(), RulesError> {
        Ok(())
    }
    /// Validates a fighter spec and compiles it ([`Compile`]); `name` is used in messages only.
    fn compile(&self, name: &str, spec: &Self::FighterSpec) -> Result<Self::Fighter, RulesError> {
        Self::Fighter::compile(self, name, spec)
    }
    /// Pairs two fighters (A first, B second), precomputing per-pair tables ([`Pair`]).
    fn matchup(&self, a: &Self::Fighter, b: &Self::Fighter) -> Result<Self::Matchup, RulesError> {
        Self::Matchup::pair(self, a, b)
    }
    /// The state before the first step of a duel ([`Duel::start`]).
    #[inline]
    fn start(&self, m: &Self::Matchup) -> Self::State {
        Self::State::start(self, m)
    }
    /// Advances the duel by one step ([`Duel::step`]; see the trait's `step` contract).
    #[inline]
    fn step<R: Roller, T: Tally>(
        &self,
        m: &Self::Matchup,
        s: &mut Self::State,
        roller: &mut R,
        tally: &mut T,
    ) -> Step {
        s.step(self, m, roller, tally)
    }
    /// The round cap (a duel still going after it is a draw).
    #[inline]
    fn max_rounds(&self) -> u32 {
        self.options().max_rounds()
    }
    /// Runs one duel to its end: [`solver::duel`].
    #[inline]
    fn duel<R: Roller>(&self, m: &Self::Matchup, roller: &mut R) -> DuelOutcome {
        solver::duel(self, m, roller)
    }
    /// Runs `n` duels one after another on `roller` and hands each outcome to `record` in
    /// turn: the very duels of `n` calls of [`Ruleset::duel`]. A ruleset may override it to
    /// keep a duel's setup and the generator's state across duels (Draft's engaged fast path);
    /// the Monte Carlo engine runs its chunks through it.
    #[inline]
    fn duels<R: Roller>(&self, m: &Self::Matchup, roller: &mut R, n: u64, mut record: impl Record) {
        for _ in 0..n {
            record.record(&self.duel(m, roller));
        }
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
    /// Built-in items' statistics that are placeholders (declared beside the equipment
    /// tables with [`info::placeholder`]).
    const PLACEHOLDERS: &'static [Placeholder] = &[];
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
    /// Who acts first, where the rules settle it once per duel: P(A acts first) exact, the
    /// counters that split the Monte Carlo duels by it and, with `solve`, the duel solved
    /// under each order ([`FirstMove`]). `None` (the default) where the rules have no such
    /// draw.
    fn first_move(&self, _m: &Self::Matchup, _solve: bool) -> Option<FirstMove> {
        None
    }
    /// Fighter fields, options and check parameters with their defaults and one-line docs,
    /// from their declarations ([`Documented`]), under [`SUMMARY`](Ruleset::SUMMARY).
    fn info() -> RulesetInfo {
        RulesetInfo {
            id: Self::ID,
            title: Self::TITLE,
            summary: Self::SUMMARY,
            fighter_fields: Self::FighterSpec::DOCS.to_vec(),
            options: Self::Options::DOCS.to_vec(),
            check_params: Self::Check::DOCS.to_vec(),
            fighter_requires: Self::FighterSpec::REQUIRES.to_vec(),
            option_requires: Self::Options::REQUIRES.to_vec(),
            check_requires: Self::Check::REQUIRES.to_vec(),
            tables: <Self::FighterSpec as schema::Declared>::tables(),
            placeholders: Self::PLACEHOLDERS.to_vec(),
            marks: info::marks(
                <Self::Options as RulesetOptions>::marks(),
                Self::FighterSpec::DOCS,
                &<Self::FighterSpec as schema::Declared>::tables(),
                Self::PLACEHOLDERS,
            ),
        }
    }

    /// Parses check parameters (`skill=5 difficulty=hard`; [`Check::parse`]), after refusing
    /// a parameter the check would not read ([`Documented::REQUIRES`] of the check type, e.g.
    /// `parry_cards` only with `kind = "register"`).
    fn parse_check(&self, params: &CheckParams) -> Result<Self::Check, RulesError> {
        params.requires(Self::Check::DOCS, Self::Check::REQUIRES)?;
        Self::Check::parse(self, params)
    }
    /// The exact distribution of a check's result and how to read it ([`Check::exact`]).
    fn check_exact(&self, check: &Self::Check) -> CheckExact {
        check.exact(self)
    }
    /// Samples one check result (same scale as [`CheckExact::distribution`]; [`Check::sample`]).
    #[inline]
    fn check_sample<R: Roller>(&self, check: &Self::Check, roller: &mut R) -> i64 {
        check.sample(self, roller)
    }
    /// Settings of a fighter the rules accept but that are very likely not what the author
    /// meant (a bow in a duel that starts engaged, say): each a [`RulesError::InvalidField`]
    /// (the field relative to the fighter, the message in plain words), which the loader
    /// shows as a located warning without stopping the run. Settings read only with another
    /// setting are declared instead ([`Documented::REQUIRES`]) and checked for every ruleset.
    fn fighter_warnings(&self, _spec: &Self::FighterSpec) -> Vec<RulesError> {
        Vec::new()
    }
    /// Like [`fighter_warnings`](Ruleset::fighter_warnings), for the options (fields relative
    /// to `[options]`).
    fn option_warnings(&self) -> Vec<RulesError> {
        Vec::new()
    }
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
    /// Group fights ([`group`]): the spec of a side of `count` members made from `spec`, each
    /// attacking by `target` (`None`: as the spec says). `Err` (a plain sentence) where the
    /// ruleset cannot field that side. By default a side is one fighter.
    fn side_spec(
        &self,
        spec: &Self::FighterSpec,
        count: u32,
        target: Option<group::Target>,
    ) -> Result<Self::FighterSpec, String> {
        match (count, target) {
            (1, None) => Ok(spec.clone()),
            _ => Err(format!(
                "{} has no group fights yet: a side is one fighter (count = 1, no target)",
                Self::ID
            )),
        }
    }
    /// Group fights with mixed members: the side made of `members` (each already made by
    /// [`side_spec`](Ruleset::side_spec) and compiled, at least one), in the order listed.
    /// `Err((j, sentence))` refuses member `j`. By default a side is one member.
    fn join_side(&self, mut members: Vec<Self::Fighter>) -> Result<Self::Fighter, (usize, String)> {
        if members.len() == 1 {
            return Ok(members.remove(0));
        }
        Err((
            1,
            format!(
                "a {} side is one fighter with its count today: mixed members (and a fighter listed twice) are not modelled yet; write one member with its count",
                Self::ID
            ),
        ))
    }
    /// Group fights: which creature of the matchup belongs to which member of its side's list
    /// ([`group::Roster`]). By default one creature a side (a duel).
    fn roster(&self, _m: &Self::Matchup) -> group::Roster {
        group::Roster::duel()
    }
    /// Group fights: whether creature `i` of side `side` (numbered as in
    /// [`roster`](Ruleset::roster)) is down, or dead, in state `s`; `None` where the ruleset
    /// does not read it from its state (the group report then reads the loser's side as down
    /// at the end). Only read from round 1 on.
    fn fate(
        &self,
        _m: &Self::Matchup,
        _s: &Self::State,
        _side: usize,
        _i: usize,
    ) -> Option<group::Fate> {
        None
    }
    /// Whether `step` reports damage per creature ([`Tally::member_damage`]) for the group
    /// report's damage dealt and taken per member.
    const MEMBER_DAMAGE: bool = false;
    /// Whether a step that moves the round number on plays the new round (the round is
    /// counted as it starts: cards, one step a round) rather than closing the old one (d20,
    /// whose last step of round r leaves the state at round r + 1's start): the group
    /// report dates a creature's fall by it ([`group::fight`]).
    const ROUND_COUNTED_AT_START: bool = false;
    /// How many identical members a spec fields by its own `count` field (the older way of
    /// writing a band; the loader notes the newer one).
    fn spec_count(&self, _spec: &Self::FighterSpec) -> u32 {
        1
    }
}
