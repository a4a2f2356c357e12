//! The engine: deterministic, parallel Monte Carlo runs of duels and checks.
//!
//! Trials are split into fixed-size chunks of [`CHUNK_TRIALS`]. Chunk *i* draws every random
//! number from stream *i* of the seed (`oddsmith_dice::Streams`), chunks run in parallel with
//! rayon, and their accumulators are merged in chunk order. So the numbers depend on the
//! scenario and the seed only: never on the thread count or on scheduling.
//!
//! This crate does no IO and reads no clock; progress is reported through a callback.

mod paired;
mod stats;
mod units;

pub use paired::{Concordance, PairedStats, run_paired};
pub use stats::{CheckStats, DuelStats, GroupStats, MemberStats, SideStats};
pub use units::{Accumulator, Shard, UnitRecord, Units, add_shard, check_shard, merge_shards};

use units::Unit;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use oddsmith_dice::{Stream, Streams, stream};
use oddsmith_rules::{RngRoller, Ruleset};
use oddsmith_stats::{Z95, wilson_half_width};
use rayon::prelude::*;
use thiserror::Error;

/// Trials per chunk; part of the identity of every published number (changing it changes
/// which stream each trial uses).
pub const CHUNK_TRIALS: u64 = 10_000;

/// Chunks run in parallel between two checks of the stopping rule.
pub const WAVE_CHUNKS: u64 = 16;

/// Default cap on trials when running to a precision target.
pub const DEFAULT_MAX_TRIALS_FOR_PRECISION: u64 = 100_000_000;

/// How much to run, with which seed, on how many threads.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    /// The seed; stream *i* of it feeds chunk *i*.
    pub seed: u64,
    /// Number of trials, or the cap when `precision` is set.
    pub trials: u64,
    /// Stop once the 95 % Wilson half-width of P(A wins) is at most this (checked after each
    /// chunk, in chunk order, so the stopping point is deterministic too).
    pub precision: Option<f64>,
    /// Worker threads; `None` = rayon's default (one per core).
    pub threads: Option<usize>,
    /// Where the accumulators come from: every chunk computed here ([`Units::all`]), one
    /// shard's chunks, or the sum of a sharded run's shards.
    pub units: Units,
    /// Raised by another thread to stop the run early ([`SimError::Cancelled`]).
    pub cancel: Cancel,
}

/// A flag another thread raises to stop runs early (Ctrl-C, a newer edit in an explorer).
/// Runs check it before each chunk, so they stop within a chunk's time. Clones share the flag;
/// the default flag is never raised. Not part of a configuration's identity: any two compare
/// equal.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Option<Arc<AtomicBool>>);

impl Cancel {
    /// A new flag, not raised.
    pub fn new() -> Cancel {
        Cancel(Some(Arc::new(AtomicBool::new(false))))
    }
    /// Raises the flag: every run holding a clone stops at its next chunk.
    pub fn cancel(&self) {
        if let Some(f) = &self.0 {
            f.store(true, Ordering::Relaxed);
        }
    }
    /// Whether the flag has been raised.
    pub fn is_cancelled(&self) -> bool {
        self.0.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

impl From<Arc<AtomicBool>> for Cancel {
    /// A run stopped by a flag the caller owns.
    fn from(flag: Arc<AtomicBool>) -> Cancel {
        Cancel(Some(flag))
    }
}

impl PartialEq for Cancel {
    fn eq(&self, _: &Cancel) -> bool {
        true
    }
}

/// Errors of the engine.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SimError {
    /// The thread pool could not be built.
    #[error("could not start {threads} worker threads: {source}")]
    ThreadPool {
        /// Threads asked for.
        threads: usize,
        /// The underlying error.
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
    /// The configuration is unusable.
    #[error("{0}")]
    Config(String),
    /// The run's [`Cancel`] flag was raised before it finished.
    #[error("the run was stopped before it finished")]
    Cancelled,
}

/// Runs `f` on a pool of `threads` workers (or the global pool).
fn with_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T, SimError> {
    match threads {
        None => Ok(f()),
        Some(t) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .map_err(|source| SimError::ThreadPool { threads: t, source })?;
            Ok(pool.install(f))
        }
    }
}

fn check_config(cfg: &RunConfig) -> Result<(), SimError> {
    if cfg.trials == 0 {
        return Err(SimError::Config("trials must be at least 1".into()));
    }
    if let Some(h) = cfg.precision
        && !(h > 0.0 && h < 0.5)
    {
        return Err(SimError::Config(format!(
            "precision must be in (0, 0.5), got {h}"
        )));
    }
    if cfg.threads == Some(0) {
        return Err(SimError::Config("threads must be at least 1".into()));
    }
    if cfg.precision.is_some() && cfg.units.shard_of().is_some() {
        return Err(SimError::Config(
            "a run to a precision target cannot be sharded: where it stops depends on every chunk before"
                .into(),
        ));
    }
    Ok(())
}

/// Chunks per wave when no stopping rule is checked: large enough that both cores stay busy
/// to the end of a wave, small enough that the streams of a wave take little memory.
pub const FREE_WAVE_CHUNKS: u64 = 1024;

/// Runs chunks in waves until `done` says stop or trials run out, starting from `empty`; or,
/// per `cfg.units`, only one shard's chunks (recording the result), or none (taking the
/// shards' sum).
///
/// With a precision target, each wave's accumulators are merged one by one in chunk order and
/// `done` is checked after each, so the stopping point is deterministic. Without one, a wave is
/// reduced in parallel: accumulators hold integer counts only, so their merge is exact and
/// associative and the result does not depend on how rayon pairs them.
fn run_chunks<A: Send + Default + Clone + Unit>(
    cfg: &RunConfig,
    empty: A,
    chunk: impl Fn(Stream, u64) -> A + Sync,
    merge: impl Fn(&mut A, &A) + Sync,
    done: impl Fn(&A) -> bool + Sync,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<A, SimError> {
    check_config(cfg)?;
    if let Some(merged) = cfg.units.take(cfg.seed, cfg.trials, &empty)? {
        return Ok(merged);
    }
    let n_chunks = cfg.trials.div_ceil(CHUNK_TRIALS);
    let share = cfg.units.next_share(n_chunks);
    let mut owned = 0u64;
    let wave = if cfg.precision.is_some() {
        WAVE_CHUNKS
    } else {
        FREE_WAVE_CHUNKS
    };
    let mut streams = Streams::new(cfg.seed);
    let mut total = empty;
    let run = |(s, size): (Stream, u64)| {
        if cfg.cancel.is_cancelled() {
            return A::default();
        }
        let a = chunk(s, size);
        progress(size);
        a
    };
    with_pool(cfg.threads, || {
        let mut next = 0;
        while next < n_chunks {
            if cfg.cancel.is_cancelled() {
                return;
            }
            let end = (next + wave).min(n_chunks);
            let jobs: Vec<(Stream, u64)> = (next..end)
                .map(|i| {
                    let size = CHUNK_TRIALS.min(cfg.trials - i * CHUNK_TRIALS);
                    (i, streams.next().expect("streams never end"), size)
                })
                .filter(|(i, ..)| share.as_ref().is_none_or(|owns| owns(*i)))
                .map(|(_, s, size)| (s, size))
                .collect();
            owned += jobs.len() as u64;
            if cfg.precision.is_none() {
                let sum = jobs
                    .into_par_iter()
                    .map(run)
                    .reduce(A::default, |mut a, b| {
                        merge(&mut a, &b);
                        a
                    });
                merge(&mut total, &sum);
            } else {
                let results: Vec<A> = jobs.into_par_iter().map(run).collect();
                for r in &results {
                    merge(&mut total, r);
                    if done(&total) {
                        return;
                    }
                }
            }
            next = end;
        }
    })?;
    // A chunk skipped after the flag went up leaves the sum short: it is never returned.
    if cfg.cancel.is_cancelled() {
        return Err(SimError::Cancelled);
    }
    if share.is_some() {
        cfg.units.record(cfg.seed, cfg.trials, total.clone());
        if owned == 0 {
            // A shard whose share of this run is empty still hands its caller real figures
            // (what follows in a study may need trials): chunk 0's, computed, not recorded.
            let mut first = total;
            merge(
                &mut first,
                &chunk(stream(cfg.seed, 0), CHUNK_TRIALS.min(cfg.trials)),
            );
            return Ok(first);
        }
    }
    Ok(total)
}

/// Runs duels of one matchup; a group fight (some side fields more than one creature,
/// `Ruleset::roster`) also counts per side and per member ([`DuelStats::group`]) on the very
/// same duels.
pub fn run_duels<R: Ruleset>(
    rules: &R,
    m: &R::Matchup,
    cfg: &RunConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<DuelStats, SimError> {
    let precision = cfg.precision;
    let roster = rules.roster(m);
    let group = roster.is_group();
    run_chunks(
        cfg,
        DuelStats::default(),
        |mut s, n| {
            let mut acc = DuelStats::default();
            let mut roller = RngRoller::new(&mut s);
            if group {
                // The same duels on the same dice, with the per-member figures beside them.
                acc.group = Some(Box::new(GroupStats::new(&roster)));
                // One tally for the chunk: each fight plays into it, nothing is copied.
                let mut t = oddsmith_rules::group::GroupTally::new(&roster);
                for _ in 0..n {
                    oddsmith_rules::group::fight_in(rules, m, &mut roller, &mut t);
                    let (d, g) = t.outcome();
                    acc.record_group(d, g);
                }
            } else {
                rules.duels(m, &mut roller, n, &mut acc);
            }
            acc
        },
        DuelStats::merge,
        |acc| {
            precision.is_some_and(|h| {
                let o = acc.outcomes;
                wilson_half_width(o.a_wins, o.total(), Z95) <= h
            })
        },
        progress,
    )
}

/// Runs a check `cfg.trials` times (`precision` applies to P(success)).
pub fn run_check<R: Ruleset>(
    rules: &R,
    check: &R::Check,
    offset: i64,
    cfg: &RunConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<CheckStats, SimError> {
    let exact = rules.check_exact(check);
    let at_least = exact.success_at_least;
    let precision = cfg.precision;
    run_chunks(
        cfg,
        CheckStats::new(offset),
        |mut s, n| {
            let mut acc = CheckStats::new(offset);
            let mut roller = RngRoller::new(&mut s);
            for _ in 0..n {
                let v = rules.check_sample(check, &mut roller);
                acc.record(v, v >= at_least);
            }
            acc
        },
        CheckStats::merge,
        |acc| {
            precision.is_some_and(|h| {
                let p = acc.success;
                wilson_half_width(p.successes, p.trials, Z95) <= h
            })
        },
        progress,
    )
}
