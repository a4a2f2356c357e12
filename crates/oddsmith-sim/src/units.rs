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
//!
//! Units read back from a shard file are checked before they are summed ([`check_shard`]: each
//! holds exactly its shard's share of the unit's trials, [`Shard::share`], and its own totals
//! agree) and added without overflow ([`add_shard`]); a merged run takes each unit only if its
//! seed, trials, kind and shape are the run's ([`Units::misfit`] says why not).

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use oddsmith_rules::Ending;
use serde::{Deserialize, Serialize};

use crate::{CHUNK_TRIALS, CheckStats, Concordance, DuelStats, PairedStats, SimError};

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

    /// Trials this shard runs of a unit of `trials` trials whose chunks follow `chunks_before`
    /// chunks of the run: the sizes of the unit's chunks *i* it owns (every chunk holds
    /// [`CHUNK_TRIALS`] but the unit's last, which holds the rest). In `u128`, so that no
    /// figure read from a file overflows.
    pub fn share(&self, chunks_before: u128, trials: u64) -> u128 {
        let chunk = u128::from(CHUNK_TRIALS);
        let n_chunks = u128::from(trials).div_ceil(chunk);
        if n_chunks == 0 {
            return 0;
        }
        let (n, r) = (u128::from(self.n), u128::from(self.k - 1));
        // Chunks j < m of the run with j % n == r.
        let below = |m: u128| (m + n - 1 - r) / n;
        let owned = below(chunks_before + n_chunks) - below(chunks_before);
        let last_owned = (chunks_before + n_chunks - 1) % n == r;
        let short = if last_owned {
            n_chunks * chunk - u128::from(trials)
        } else {
            0
        };
        owned * chunk - short
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
    /// Whether `self` (taken from shards) has the shape of the run's empty accumulator
    /// `empty`: as many variants (paired), the same smallest result (check).
    fn same_shape(&self, empty: &Self) -> bool;
}

macro_rules! unit {
    ($t:ty, $v:ident, $wrap:path, $unwrap:expr, $shape:expr) => {
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
            fn same_shape(&self, empty: &Self) -> bool {
                $shape(self, empty)
            }
        }
    };
}
unit!(DuelStats, Duels, Box::new, |x: Box<_>| *x, |_, _| true);
unit!(
    PairedStats,
    Paired,
    std::convert::identity,
    |x| x,
    |a: &PairedStats, e: &PairedStats| a.variants.len() == e.variants.len()
);
unit!(
    CheckStats,
    Check,
    Box::new,
    |x: Box<_>| *x,
    |a: &CheckStats, e: &CheckStats| a.offset == e.offset
);

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
        /// Why the shards did not fit the run, once they did not.
        misfit: Option<String>,
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
            misfit: None,
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

    /// In a merged run: the next unit, checked against the run that asks for it (its seed,
    /// its trials and the shape of its empty accumulator `empty`); `None` when this source
    /// computes.
    pub(crate) fn take<A: Unit>(
        &self,
        seed: u64,
        trials: u64,
        empty: &A,
    ) -> Result<Option<A>, SimError> {
        self.with(|m| {
            let Mode::Merged {
                units,
                taken,
                misfit,
            } = m
            else {
                return Ok(None);
            };
            *taken += 1;
            let n = *taken;
            let u = units.next();
            let found = take_unit(u, seed, trials, empty).map_err(|what| {
                let what = format!("the shards do not fit this run: its run number {n} {what}");
                misfit.get_or_insert(what.clone());
                SimError::Config(what)
            })?;
            Ok(Some(found))
        })
        .unwrap_or(Ok(None))
    }

    /// In a merged run: why the shards did not fit the run, if they did not (a unit of
    /// another seed, size or kind, a unit missing or left over); the error that stopped the
    /// run may have been reworded on its way up.
    pub fn misfit(&self) -> Option<String> {
        self.with(|m| match m {
            Mode::Merged { misfit, .. } => misfit.clone(),
            Mode::Shard { .. } => None,
        })
        .flatten()
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
            Mode::Merged {
                units,
                taken,
                misfit,
            } => match units.len() {
                0 => Ok(Vec::new()),
                left => {
                    let what = format!(
                        "the shards do not fit this run: they hold {left} more runs than its {taken}"
                    );
                    misfit.get_or_insert(what.clone());
                    Err(SimError::Config(what))
                }
            },
        })
        .unwrap_or(Ok(Vec::new()))
    }
}

/// The unit `u` a merged run takes, if it is the one the run asks for; else what differs.
fn take_unit<A: Unit>(
    u: Option<UnitRecord>,
    seed: u64,
    trials: u64,
    empty: &A,
) -> Result<A, String> {
    let u = u.ok_or("is missing from them")?;
    let held = u.acc.trials();
    if u.seed != seed || u.trials != trials || held != trials {
        return Err(format!(
            "asks for {trials} trials on seed {seed}, the shards hold {held} of {} on seed {}",
            u.trials, u.seed
        ));
    }
    let kind = u.acc.kind();
    let a = A::from_acc(u.acc).ok_or(format!("is not the {kind} run the shards hold there"))?;
    if !a.same_shape(empty) {
        return Err(format!(
            "is not shaped like the {kind} run the shards hold there (another number of \
             variants, or another smallest result)"
        ));
    }
    Ok(a)
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

/// Checks the units of shard `shard` as read from a shard file: each unit's accumulator holds
/// exactly the shard's share of the unit's trials ([`Shard::share`], the units' chunks numbered
/// on in run order), and its own totals agree (wins + losses + draws = duels = the duels of
/// every ending = the counts of each histogram; wins by ending = wins; concordance tables and
/// check rolls likewise). Says which unit and what is wrong, in plain words.
pub fn check_shard(shard: Shard, units: &[UnitRecord]) -> Result<(), SimError> {
    let mut chunks_before = 0u128;
    for (i, u) in units.iter().enumerate() {
        let n = shard.share(chunks_before, u.trials);
        chunks_before += u128::from(u.trials).div_ceil(u128::from(CHUNK_TRIALS));
        check_acc(&u.acc, n).map_err(|what| {
            SimError::Config(format!(
                "run {} ({} of {} trials, shard {shard}'s share {n}): {what}",
                i + 1,
                u.acc.kind(),
                u.trials
            ))
        })?;
    }
    Ok(())
}

/// The sum of `counts`, `None` on overflow.
fn sum(counts: impl IntoIterator<Item = u64>) -> Option<u64> {
    counts.into_iter().try_fold(0u64, |t, c| t.checked_add(c))
}

/// `what` if `got` is not `want`.
fn agree(got: Option<u64>, want: u128, what: impl FnOnce(String) -> String) -> Result<(), String> {
    if got.map(u128::from) == Some(want) {
        return Ok(());
    }
    Err(what(got.map_or("at least 2^64".into(), |g| g.to_string())))
}

/// Checks that an accumulator counts `n` trials and that its own totals agree.
fn check_acc(acc: &Accumulator, n: u128) -> Result<(), String> {
    match acc {
        Accumulator::Duels(d) => check_duels(d, n, ""),
        Accumulator::Check(c) => {
            let p = c.success;
            agree(Some(p.trials), n, |g| format!("it counts {g} rolls"))?;
            if p.successes > p.trials {
                return Err(format!(
                    "it counts {} successes in {} rolls",
                    p.successes, p.trials
                ));
            }
            agree(c.values.checked_total(), n, |g| {
                format!("its histogram of results counts {g} rolls")
            })
        }
        Accumulator::Paired(p) => {
            if p.variants.is_empty() {
                return Err("it holds no variant".into());
            }
            if p.adjacent.len() + 1 != p.variants.len() {
                return Err(format!(
                    "it holds {} concordance tables for {} variants",
                    p.adjacent.len(),
                    p.variants.len()
                ));
            }
            for (k, v) in p.variants.iter().enumerate() {
                check_duels(v, n, &format!("variant {}: ", k + 1))?;
            }
            for (k, c) in p.adjacent.iter().enumerate() {
                check_concordance(c, &p.variants[k], &p.variants[k + 1], n)
                    .map_err(|what| format!("variants {} and {}: {what}", k + 1, k + 2))?;
            }
            Ok(())
        }
    }
}

/// Checks one duel accumulator against its `n` duels; messages start with `at`.
fn check_duels(d: &DuelStats, n: u128, at: &str) -> Result<(), String> {
    let o = d.outcomes;
    agree(sum([o.a_wins, o.b_wins, o.draws]), n, |g| {
        format!(
            "{at}its wins of A, wins of B and draws ({} + {} + {}) count {g} duels",
            o.a_wins, o.b_wins, o.draws
        )
    })?;
    agree(sum(d.endings), n, |g| {
        format!("{at}its duels by ending count {g} duels")
    })?;
    for (side, wins, name) in [(0, o.a_wins, "A"), (1, o.b_wins, "B")] {
        agree(sum(d.wins_by_ending[side]), u128::from(wins), |g| {
            format!(
                "{at}its wins of {name} by ending count {g} wins, not its {wins} wins of {name}"
            )
        })?;
    }
    for e in 0..6 {
        let won = u128::from(d.wins_by_ending[0][e]) + u128::from(d.wins_by_ending[1][e]);
        if won > u128::from(d.endings[e]) {
            return Err(format!(
                "{at}it counts {won} wins by {} but {} duels that ended so",
                Ending::ALL[e].name(),
                d.endings[e]
            ));
        }
    }
    agree(d.rounds.checked_total(), n, |g| {
        format!("{at}its histogram of rounds counts {g} duels")
    })?;
    for (side, name) in [(0, "A"), (1, "B")] {
        agree(d.damage[side].checked_total(), n, |g| {
            format!("{at}its histogram of damage dealt by {name} counts {g} duels")
        })?;
    }
    Ok(())
}

/// Checks a concordance table of `n` trials against the variants it pairs.
fn check_concordance(
    c: &Concordance,
    first: &DuelStats,
    second: &DuelStats,
    n: u128,
) -> Result<(), String> {
    agree(
        sum([c.both, c.first_only, c.second_only, c.neither]),
        n,
        |g| format!("their concordance table counts {g} trials"),
    )?;
    for (got, wins, which) in [
        (sum([c.both, c.first_only]), first.outcomes.a_wins, "first"),
        (
            sum([c.both, c.second_only]),
            second.outcomes.a_wins,
            "second",
        ),
    ] {
        agree(got, u128::from(wins), |g| {
            format!(
                "their concordance table counts {g} wins of A under the {which}, not its {wins}"
            )
        })?;
    }
    Ok(())
}

/// Whether adding `b` into `a` overflows none of the sums that no trial count bounds (hits,
/// attacks, counters): shards read from files are added with this checked first.
fn sums_fit(a: &DuelStats, b: &DuelStats) -> bool {
    let pairs = a
        .hits
        .iter()
        .chain(&a.attacks)
        .chain(&a.counters)
        .zip(b.hits.iter().chain(&b.attacks).chain(&b.counters));
    pairs.into_iter().all(|(x, y)| x.checked_add(*y).is_some())
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
        let too_big = || {
            SimError::Config(format!(
                "run {}: its hits, attacks or counters add up to at least 2^64",
                i + 1
            ))
        };
        match (&mut t.acc, &u.acc) {
            (Accumulator::Duels(a), Accumulator::Duels(b)) => {
                if !sums_fit(a, b) {
                    return Err(too_big());
                }
                a.merge(b);
            }
            (Accumulator::Check(a), Accumulator::Check(b)) if a.offset == b.offset => a.merge(b),
            (Accumulator::Paired(a), Accumulator::Paired(b))
                if a.variants.len() == b.variants.len() =>
            {
                if !a
                    .variants
                    .iter()
                    .zip(&b.variants)
                    .all(|(x, y)| sums_fit(x, y))
                {
                    return Err(too_big());
                }
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
        let check = CheckStats::default();
        let u = Units::merged(vec![rec(0)]);
        assert!(u.take(1, 0, &DuelStats::default()).is_err(), "wrong kind");
        assert!(u.misfit().unwrap().contains("is not the check run"));
        let u = Units::merged(vec![rec(0)]);
        assert!(u.take(2, 0, &check).is_err(), "wrong seed");
        let u = Units::merged(vec![rec(0)]);
        assert!(u.take(1, 0, &CheckStats::new(3)).is_err(), "another offset");
        let u = Units::merged(vec![rec(0), rec(0)]);
        assert!(u.take(1, 0, &check).unwrap().is_some());
        assert!(u.misfit().is_none());
        assert!(u.finish().is_err(), "a unit left over");
        assert!(u.misfit().unwrap().contains("1 more runs"));
        assert!(u.take(1, 0, &check).unwrap().is_some());
        assert!(u.take(1, 0, &check).is_err(), "none left");
        assert!(Units::all().take(1, 0, &check).unwrap().is_none());
        let paired = |n| UnitRecord {
            seed: 1,
            trials: 0,
            acc: Accumulator::Paired(PairedStats::new(n)),
        };
        let u = Units::merged(vec![paired(2)]);
        assert!(u.take(1, 0, &PairedStats::new(3)).is_err(), "variants");
    }

    #[test]
    fn a_shards_share_is_the_size_of_its_chunks() {
        let c = CHUNK_TRIALS;
        // Brute force over the chunks, against the closed form.
        for n in 1..=5 {
            for k in 1..=n {
                let s = Shard::new(k, n).unwrap();
                for before in 0..7u64 {
                    for trials in [1, c - 1, c, c + 1, 3 * c, 7 * c + 5] {
                        let want: u64 = (0..trials.div_ceil(c))
                            .filter(|&j| s.owns(before + j))
                            .map(|j| c.min(trials - j * c))
                            .sum();
                        assert_eq!(s.share(before.into(), trials), u128::from(want));
                    }
                }
            }
        }
        let sum: u128 = (1..=7)
            .map(|k| Shard::new(k, 7).unwrap().share(3, u64::MAX))
            .sum();
        assert_eq!(sum, u128::from(u64::MAX));
        assert_eq!(Shard::new(1, 1).unwrap().share(0, 0), 0);
    }

    /// A duel accumulator over `n` duels that A wins by the first ending in one round.
    fn won_by_a(n: u64) -> DuelStats {
        let mut d = DuelStats::default();
        d.outcomes.a_wins = n;
        d.endings[0] = n;
        d.wins_by_ending[0][0] = n;
        d.rounds.record_n(1, n);
        d.damage[0].record_n(5, n);
        d.damage[1].record_n(0, n);
        d
    }

    #[test]
    fn a_shard_whose_totals_do_not_agree_is_refused_saying_what() {
        let shard = Shard::new(2, 2).unwrap();
        // 25,000 trials are chunks 0, 1 and 2: shard 2/2 runs chunk 1, 10,000 trials.
        let unit = |d: DuelStats| UnitRecord {
            seed: 1,
            trials: 25_000,
            acc: Accumulator::Duels(Box::new(d)),
        };
        let good = won_by_a(10_000);
        assert!(check_shard(shard, &[unit(good.clone())]).is_ok());
        let refused = |d: DuelStats| check_shard(shard, &[unit(d)]).unwrap_err().to_string();
        let e = refused(won_by_a(15_000));
        assert!(
            e.starts_with("run 1 (duels of 25000 trials, shard 2/2's share 10000)"),
            "{e}"
        );
        assert!(e.contains("(15000 + 0 + 0) count 15000 duels"), "{e}");
        let mut d = good.clone();
        d.outcomes.a_wins -= 1000;
        d.outcomes.b_wins += 1000;
        let e = refused(d);
        assert!(
            e.contains("its wins of A by ending count 10000 wins, not its 9000"),
            "{e}"
        );
        let mut d = good.clone();
        d.rounds.record(7);
        assert!(refused(d).contains("its histogram of rounds counts 10001 duels"));
        let mut d = good.clone();
        d.damage[1].record_n(3, u64::MAX);
        assert!(refused(d).contains("damage dealt by B counts at least 2^64 duels"));
        let mut d = good.clone();
        d.outcomes.draws = u64::MAX;
        assert!(refused(d).contains("count at least 2^64 duels"));
        let mut d = good.clone();
        d.endings = [9_000, 1_000, 0, 0, 0, 0];
        assert!(refused(d).contains("10000 wins by incapacitated but 9000 duels"));
        // A check and a paired run.
        let mut c = CheckStats::new(2);
        c.success.trials = 10_000;
        c.success.successes = 10_001;
        c.values.record_n(0, 10_000);
        let e = check_shard(
            shard,
            &[UnitRecord {
                seed: 1,
                trials: 25_000,
                acc: Accumulator::Check(Box::new(c)),
            }],
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("10001 successes in 10000 rolls"), "{e}");
        let mut p = PairedStats::new(2);
        p.variants = vec![good.clone(), good.clone()];
        p.adjacent[0].both = 9_999;
        p.adjacent[0].neither = 1;
        let e = check_shard(
            shard,
            &[UnitRecord {
                seed: 1,
                trials: 25_000,
                acc: Accumulator::Paired(p),
            }],
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("variants 1 and 2: their concordance table counts 9999 wins of A"),
            "{e}"
        );
    }

    #[test]
    fn shards_are_added_without_overflow() {
        let rec = |d: DuelStats| UnitRecord {
            seed: 1,
            trials: 10,
            acc: Accumulator::Duels(Box::new(d)),
        };
        let mut big = won_by_a(5);
        big.hits[0] = u64::MAX;
        let mut total = vec![rec(big)];
        let e = add_shard(&mut total, vec![rec(won_by_a(5))]);
        assert!(e.is_ok());
        let mut one = won_by_a(5);
        one.hits[0] = 1;
        let e = add_shard(&mut total, vec![rec(one)]).unwrap_err();
        assert!(e.to_string().contains("at least 2^64"), "{e}");
    }
}
