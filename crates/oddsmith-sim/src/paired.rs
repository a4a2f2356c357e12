//! Paired runs with common random numbers: several variants of a duel fought on the same dice.
//!
//! A normal run feeds a whole chunk of trials from one stream, so two variants of a matchup
//! share only their first trial's dice: after the first difference in how many dice a duel
//! reads, the streams fall out of step. A paired run gives every *trial* its own seed (the
//! next number of the chunk's stream) and replays that seed for every variant, so trial *t*
//! of every variant starts from the same dice. Differences between neighbouring variants then
//! come from the change, not from noise, and the pairing is recorded per trial
//! ([`Concordance`]) for paired intervals and tests.

use oddsmith_dice::seeds;
use oddsmith_rules::{RngRoller, Ruleset, Winner};
use oddsmith_stats::{Z95, wilson_half_width};
use rand_core::RngCore;
use serde::{Deserialize, Serialize};

use crate::{DuelStats, RunConfig, SimError, run_chunks};

/// How two variants' "A wins" agree over the same trials (a 2×2 table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Concordance {
    /// A won under both variants.
    pub both: u64,
    /// A won under the first variant only.
    pub first_only: u64,
    /// A won under the second variant only.
    pub second_only: u64,
    /// A won under neither.
    pub neither: u64,
}

impl Concordance {
    /// Adds one trial.
    #[inline]
    pub fn record(&mut self, first: bool, second: bool) {
        match (first, second) {
            (true, true) => self.both += 1,
            (true, false) => self.first_only += 1,
            (false, true) => self.second_only += 1,
            (false, false) => self.neither += 1,
        }
    }

    /// Adds another table.
    pub fn merge(&mut self, o: &Concordance) {
        self.both += o.both;
        self.first_only += o.first_only;
        self.second_only += o.second_only;
        self.neither += o.neither;
    }

    /// Trials in the table.
    pub fn total(&self) -> u64 {
        self.both + self.first_only + self.second_only + self.neither
    }
}

/// Results of a paired run: one accumulator per variant, and the concordance of each variant
/// with the one before it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairedStats {
    /// Per variant, in the order given.
    pub variants: Vec<DuelStats>,
    /// `adjacent[k]` pairs variant `k` (first) with variant `k + 1` (second).
    pub adjacent: Vec<Concordance>,
    /// `vs_first[k]` pairs variant 0 (first) with variant `k + 1` (second): every variant
    /// against a baseline (a readings study's factors).
    #[serde(default)]
    pub vs_first: Vec<Concordance>,
}

impl PairedStats {
    pub(crate) fn new(n: usize) -> Self {
        PairedStats {
            variants: vec![DuelStats::default(); n],
            adjacent: vec![Concordance::default(); n.saturating_sub(1)],
            vs_first: vec![Concordance::default(); n.saturating_sub(1)],
        }
    }

    pub(crate) fn merge(&mut self, o: &PairedStats) {
        if self.variants.is_empty() {
            *self = o.clone();
            return;
        }
        for (a, b) in self.variants.iter_mut().zip(&o.variants) {
            a.merge(b);
        }
        for (a, b) in self.adjacent.iter_mut().zip(&o.adjacent) {
            a.merge(b);
        }
        for (a, b) in self.vs_first.iter_mut().zip(&o.vs_first) {
            a.merge(b);
        }
    }
}

/// Runs every variant (a ruleset with its options and a matchup) on common random numbers.
///
/// Deterministic like [`crate::run_duels`]: chunk *i* takes stream *i* of the seed; trial *t* of
/// a chunk draws one number from it and seeds a fresh generator with it for each variant
/// ([`oddsmith_dice::seeds::trial_stream_of`]). With
/// `precision`, the run stops once every variant's P(A wins) half-width is at most it.
pub fn run_paired<R: Ruleset>(
    variants: &[(&R, &R::Matchup)],
    cfg: &RunConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<PairedStats, SimError> {
    if variants.is_empty() {
        return Err(SimError::Config(
            "a paired run needs at least one variant".into(),
        ));
    }
    let n = variants.len();
    let precision = cfg.precision;
    run_chunks(
        cfg,
        PairedStats::new(n),
        |mut s, trials| {
            let mut acc = PairedStats::new(n);
            for _ in 0..trials {
                let trial_seed = s.next_u64();
                let (mut prev, mut first) = (false, false);
                for (k, (rules, m)) in variants.iter().enumerate() {
                    let mut rng = seeds::trial_stream_of(trial_seed);
                    let o = rules.duel(m, &mut RngRoller::new(&mut rng));
                    acc.variants[k].record(&o);
                    let won = o.winner == Winner::A;
                    if k > 0 {
                        acc.adjacent[k - 1].record(prev, won);
                        acc.vs_first[k - 1].record(first, won);
                    } else {
                        first = won;
                    }
                    prev = won;
                }
            }
            acc
        },
        PairedStats::merge,
        |acc| {
            precision.is_some_and(|h| {
                acc.variants.iter().all(|v| {
                    let o = v.outcomes;
                    wilson_half_width(o.a_wins, o.total(), Z95) <= h
                })
            })
        },
        progress,
    )
}
