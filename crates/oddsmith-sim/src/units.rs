//! Where a run's accumulators come from: computed here from every chunk (the default),
//! computed from one shard's share of the chunks, or summed from the shards of a sharded run.
//!
//! A *unit* is one call of [`crate::run_duels`], [`crate::run_paired`] or [`crate::run_check`];
//! a run makes its units in a fixed order (matchups, then study sections, then the check
//! grid). The chunks of all units are numbered on, unit after unit (chunk *i* of a unit that
//! follows units of *c* chunks in all is chunk *c + i* of the run); shard *K* of *N* computes
//! only the run's chunks *j* with `j % N == K − 1` (so many small units, e.g. the pairings of
//! a tournament, spread over the shards too), and records each unit's accumulator. Accumulators hold integer counts only,
//! so the sum over the shards of a unit is exactly the accumulator of the whole run: a run fed
//! that sum ([`Units::merged`]) gives the same numbers, bit for bit, as a single run.
//!
//! A run to a precision target cannot be sharded: where it stops depends on every chunk before.
//!
//! [`add_shard`] adds one shard into the running sums, so `merge` reads shard files one at a
//! time: its memory stays flat in the number of shards.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use crate::{CheckStats, DuelStats, PairedStats, SimError};

/// Shard `k` of `n` (1-based): it runs the run's chunks *j* with `j % n == k − 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 1 to `n`.
    pub k: u64,
    /// How many shards.
    pub n: u64,
}

impl Shard {
    /// Shard `k` of `n`; refuses `n = 0` and `k` outside `1..=n`.
    pub fn new(k: u64, n: u64) -> Result<Shard, SimError> {
        if n == 0 || k == 0 || k > n {
            return Err(SimError::Config(format!(
                "a shard is K/N with 1 ≤ K ≤ N, got {k}/{n}"
            )));
        }
        Ok(Shard { k, n })
    }

    /// Whether chunk `i` is this shard's.
    #[inline]
    pub fn owns(&self, chunk: u64) -> bool {
        chunk % self.n == self.k - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl std::str::FromStr for Shard {
    type Err = SimError;
    /// Parses `K/N`.
    fn from_str(s: &str) -> Result<Shard, SimError> {
        let bad = || SimError::Config(format!("a shard is K/N (e.g. 2/8), got {s:?}"));
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse().map_err(|_| bad())?;
        let n = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n)
    }
}

/// One unit's accumulator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "stats", rename_all = "snake_case")]
pub enum Accumulator {
    /// From [`crate::run_duels`].
    Duels(Box<DuelStats>),
    /// From [`crate::run_paired`].
    Paired(PairedStats),
    /// From [`crate::run_check`].
    Check(Box<CheckStats>),
}

impl Accumulator {
    fn kind(&self) -> &'static str {
        match self {
            Accumulator::Duels(_) => "duels",
            Accumulator::Paired(_) => "paired",
            Accumulator::Check(_) => "check",
        }
    }

    /// Trials counted.
    pub fn trials(&self) -> u64 {
        match self {
            Accumulator::Duels(d) => d.trials(),
            Accumulator::Paired(p) => p.variants.first().map_or(0, DuelStats::trials),
            Accumulator::Check(c) => c.success.trials,
        }
    }
}

/// One unit of a shard: which run it was (seed and trials asked for) and its accumulator over
/// the shard's chunks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitRecord {
    /// The run's seed.
    pub seed: u64,
    /// The run's trials (all shards together).
    pub trials: u64,
    /// The accumulator over this shard's chunks (or, merged, over all chunks).
    #[serde(flatten)]
    pub acc: Accumulator,
}

/// An accumulator a runner can record and take back.
pub(crate) trait Unit: Sized {
    fn into_acc(self) -> Accumulator;
    fn from_acc(a: Accumulator) -> Option<Self>;
}

macro_rules! unit {
    ($t:ty, $v:ident, $wrap:path, $unwrap:expr) => {
        impl Unit for $t {
            fn into_acc(self) -> Accumulator {
                Accumulator::$v($wrap(self))
            }
            fn from_acc(a: Accumulator) -> Option<Self> {
                match a {
                    Accumulator::$v(x) => Some($unwrap(x)),
                    _ => None,
                }
            }
        }
    };
}
unit!(DuelStats, Duels, Box::new, |x: Box<_>| *x);
unit!(PairedStats, Paired, std::convert::identity, |x| x);
unit!(CheckStats, Check, Box::new, |x: Box<_>| *x);

enum Mode {
    Shard {
        shard: Shard,
        /// Chunks of the units before the next.
        chunks_before: u64,
        done: Vec<UnitRecord>,
    },
    Merged {
        units: std::vec::IntoIter<UnitRecord>,
        taken: usize,
    },
}

/// The source of a run's accumulators, shared by every run of one command (clones share it).
/// The default computes every chunk.
#[derive(Clone, Default)]
pub struct Units(Option<Arc<Mutex<Mode>>>);

impl Units {
    /// Computes every chunk of every unit (a single run).
    pub fn all() -> Units {
        Units(None)
    }

    /// Computes shard `shard`'s chunks of every unit and records each unit's accumulator.
    pub fn shard(shard: Shard) -> Units {
        Units(Some(Arc::new(Mutex::new(Mode::Shard {
            shard,
            chunks_before: 0,
            done: Vec::new(),
        }))))
    }

    /// Computes nothing: hands out `units` (summed by [`merge_shards`]) in order.
    pub fn merged(units: Vec<UnitRecord>) -> Units {
        Units(Some(Arc::new(Mutex::new(Mode::Merged {
            units: units.into_iter(),
            taken: 0,
        }))))
    }

    /// Whether every unit is computed whole, here.
    pub fn is_all(&self) -> bool {
        self.0.is_none()
    }

    fn with<T>(&self, f: impl FnOnce(&mut Mode) -> T) -> Option<T> {
        self.0
            .as_ref()
            .map(|m| f(&mut m.lock().unwrap_or_else(PoisonError::into_inner)))
    }

    /// The shard this source computes, if it is one.
    pub fn shard_of(&self) -> Option<Shard> {
        self.with(|m| match m {
            Mode::Shard { shard, .. } => Some(*shard),
            Mode::Merged { .. } => None,
        })
        .flatten()
    }

    /// In a shard: which of the next unit's `n_chunks` chunks it computes (chunk *i* when
    /// `owns(i)`); `None` when this source does not shard.
    pub(crate) fn next_share(&self, n_chunks: u64) -> Option<impl Fn(u64) -> bool + Sync> {
        self.with(|m| match m {
            Mode::Shard {
                shard,
                chunks_before,
                ..
            } => {
                let (s, before) = (*shard, *chunks_before);
                *chunks_before += n_chunks;
                Some(move |i: u64| s.owns(before + i))
            }
            Mode::Merged { .. } => None,
        })
        .flatten()
    }

    /// In a merged run: the next unit, checked against the run that asks for it; `None` when
    /// this source computes.
    pub(crate) fn take<A: Unit>(&self, seed: u64, trials: u64) -> Result<Option<A>, SimError> {
        self.with(|m| {
            let Mode::Merged { units, taken } = m else {
                return Ok(None);
            };
            *taken += 1;
            let n = *taken;
            let misfit = |what: String| {
                SimError::Config(format!(
                    "the shards do not fit this run: its run number {n} {what}"
                ))
            };
            let u = units
                .next()
                .ok_or_else(|| misfit("is missing from them".into()))?;
            if u.seed != seed || u.trials != trials || u.acc.trials() != trials {
                return Err(misfit(format!(
                    "asks for {trials} trials on seed {seed}, the shards hold {} of {} on seed {}",
                    u.acc.trials(),
                    u.trials,
                    u.seed
                )));
            }
            let kind = u.acc.kind();
            A::from_acc(u.acc)
                .map(Some)
                .ok_or_else(|| misfit(format!("is not the {kind} run the shards hold there")))
        })
        .unwrap_or(Ok(None))
    }

    /// In a shard: records a unit's accumulator over the shard's chunks.
    pub(crate) fn record<A: Unit>(&self, seed: u64, trials: u64, acc: A) {
        self.with(|m| {
            if let Mode::Shard { done, .. } = m {
                done.push(UnitRecord {
                    seed,
                    trials,
                    acc: acc.into_acc(),
                });
            }
        });
    }

    /// Ends the run: a shard's records in order (empty for a single run); for a merged run,
    /// an error if a unit of the shards was not used.
    pub fn finish(&self) -> Result<Vec<UnitRecord>, SimError> {
        self.with(|m| match m {
            Mode::Shard { done, .. } => Ok(std::mem::take(done)),
            Mode::Merged { units, taken } => match units.len() {
                0 => Ok(Vec::new()),
                left => Err(SimError::Config(format!(
                    "the shards do not fit this run: they hold {left} more runs than its {taken}"
                ))),
            },
        })
        .unwrap_or(Ok(Vec::new()))
    }
}

impl fmt::Debug for Units {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.0, self.shard_of()) {
            (None, _) => f.write_str("Units::all"),
            (Some(_), Some(s)) => write!(f, "Units::shard({s})"),
            (Some(_), None) => f.write_str("Units::merged"),
        }
    }
}

impl PartialEq for Units {
    /// Two sources are equal when both compute everything or they are the same source.
    fn eq(&self, o: &Units) -> bool {
        match (&self.0, &o.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// Sums the units of every shard of a run, unit by unit (each shard's units in run order).
/// Refuses shards whose units do not line up (different runs).
pub fn merge_shards(shards: Vec<Vec<UnitRecord>>) -> Result<Vec<UnitRecord>, SimError> {
    let mut shards = shards.into_iter();
    let Some(mut total) = shards.next() else {
        return Ok(Vec::new());
    };
    for (s, units) in shards.enumerate() {
        add_shard(&mut total, units).map_err(|what| {
            SimError::Config(format!(
                "shard {} does not line up with the first: {what}",
                s + 2
            ))
        })?;
    }
    Ok(total)
}

/// Adds one shard's units into `total` (the sums so far, in run order), so a merge can read
/// shards one at a time. Refuses units that do not line up with `total` (a different run)
/// and then says which (`total` may be partly summed).
pub fn add_shard(total: &mut [UnitRecord], units: Vec<UnitRecord>) -> Result<(), SimError> {
    if units.len() != total.len() {
        return Err(SimError::Config("a different number of runs".into()));
    }
    for (i, (t, u)) in total.iter_mut().zip(units).enumerate() {
        let differs = || SimError::Config(format!("run {} differs", i + 1));
        if t.seed != u.seed || t.trials != u.trials {
            return Err(differs());
        }
        match (&mut t.acc, &u.acc) {
            (Accumulator::Duels(a), Accumulator::Duels(b)) => a.merge(b),
            (Accumulator::Check(a), Accumulator::Check(b)) => a.merge(b),
            (Accumulator::Paired(a), Accumulator::Paired(b))
                if a.variants.len() == b.variants.len() =>
            {
                a.merge(b);
            }
            _ => return Err(differs()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_own_disjoint_chunks() {
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!(s, Shard { k: 2, n: 3 });
        assert_eq!(s.to_string(), "2/3");
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (1..=3).map(|k| Shard::new(k, 3).unwrap()).collect();
        for i in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.owns(i)).count(), 1);
        }
        assert!(shards[0].owns(0) && shards[1].owns(4) && shards[2].owns(8));
    }

    #[test]
    fn merged_units_are_checked_against_the_run() {
        let rec = |trials| UnitRecord {
            seed: 1,
            trials,
            acc: Accumulator::Check(Box::default()),
        };
        let u = Units::merged(vec![rec(0)]);
        assert!(u.take::<DuelStats>(1, 0).is_err(), "wrong kind");
        let u = Units::merged(vec![rec(0)]);
        assert!(u.take::<CheckStats>(2, 0).is_err(), "wrong seed");
        let u = Units::merged(vec![rec(0), rec(0)]);
        assert!(u.take::<CheckStats>(1, 0).unwrap().is_some());
        assert!(u.finish().is_err(), "a unit left over");
        assert!(u.take::<CheckStats>(1, 0).unwrap().is_some());
        assert!(u.take::<CheckStats>(1, 0).is_err(), "none left");
        assert!(Units::all().take::<CheckStats>(1, 0).unwrap().is_none());
    }
}
