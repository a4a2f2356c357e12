//! Mergeable statistical accumulators and confidence intervals for oddsmith.
//!
//! Everything here is pure: no IO, no clock, no randomness. The accumulators
//! are designed to be filled per chunk of Monte Carlo trials and then merged
//! in chunk-index order:
//!
//! * [`OutcomeCounts`] and [`Proportion`] count discrete outcomes (exact,
//!   associative and commutative merges).
//! * [`IntHistogram`] records small non-negative integers (fight rounds,
//!   damage); its merges are exact and its moments come from exact integer
//!   sums, so results do not depend on merge order.
//! * [`Welford`] tracks mean and variance of `f64` samples; its merge (Chan et
//!   al.) is deterministic for a fixed merge order and agrees with a single
//!   pass up to rounding.
//!
//! The [`interval`] functions turn counts into confidence intervals (Wilson
//! score, Clopper–Pearson exact, normal approximation).
//!
//! Comparisons and games, for the designer tools:
//!
//! * [`diff`]: difference of two proportions (independent or paired) with a
//!   Newcombe score interval and a two-sided test.
//! * [`ks`]: two-sample Kolmogorov–Smirnov test on two [`IntHistogram`]s.
//! * [`nash`]: optimal mixed strategies of a zero-sum matrix game (linear
//!   programming) and strict dominance.
//! * [`verdict`]: whether a difference names a favourite (significant *and* at least a
//!   practical threshold), balanced or undecided — one rule for the run's advantage and the
//!   ruleset comparison.
//!
//! All accumulators implement `serde::Serialize`/`Deserialize` so they can be
//! written to shard files.
//!
//! ```
//! use oddsmith_stats::{IntHistogram, OutcomeCounts};
//!
//! let mut chunk0 = OutcomeCounts::default();
//! chunk0.record_a();
//! chunk0.record_b();
//! let mut chunk1 = OutcomeCounts::default();
//! chunk1.record_a();
//! chunk1.record_a();
//! chunk0.merge(&chunk1);
//! assert_eq!(chunk0.p_a(), 0.75);
//! let (lo, hi) = chunk0.a_proportion().wilson95();
//! assert!(lo < 0.75 && 0.75 < hi);
//!
//! let rounds: IntHistogram = (1..=10).collect();
//! assert_eq!(rounds.quantile(0.5), Some(5));
//! assert_eq!(rounds.summary().p90, 9);
//! ```
//!
//! The run's advantage P(A) − P(B) gets its own interval (multinomial normal: both shares come
//! from one sample). [`nash`] solves its linear programs with microlp.

pub mod counts;
pub mod diff;
pub mod histogram;
pub mod interval;
pub mod ks;
pub mod nash;
pub mod verdict;
pub mod welford;

pub use counts::{OutcomeCounts, Proportion};
pub use diff::{DiffError, DiffEstimate, diff_independent, diff_paired, two_sided_p};
pub use histogram::{IntHistogram, Summary};
pub use interval::{
    Z95, clopper_pearson, normal_interval, wilson, wilson_half_width, wilson95, z_for_confidence,
};
pub use ks::{KsError, KsTest, kolmogorov_q, ks_two_sample};
pub use nash::{
    Dominance, NashError, NashSolution, iterated_dominance, solve_zero_sum, strictly_dominated,
};
pub use welford::Welford;
