//! The `check --json` document: a check's exact probabilities beside the Monte Carlo ones.

use oddsmith_rules::CheckExact;
use oddsmith_sim::CheckStats;
use serde::Serialize;

use super::run::ci;

/// The `check --json` document.
#[derive(Clone, Debug, Serialize)]
pub struct CheckDoc {
    /// Ruleset id.
    pub ruleset: String,
    /// What was checked.
    pub description: String,
    /// Exact figures.
    pub exact: CheckExactDoc,
    /// Sampled figures.
    pub monte_carlo: CheckMcDoc,
}

/// Exact part of a check document.
#[derive(Clone, Debug, Serialize)]
pub struct CheckExactDoc {
    /// P(success).
    pub p_success: f64,
    /// P(success) as a reduced fraction `[numerator, denominator]`.
    pub p_success_fraction: [u128; 2],
    /// `[value, probability]` pairs.
    pub distribution: Vec<(i64, f64)>,
    /// Named bands with their probabilities, lowest band first.
    pub bands: Vec<BandDoc>,
}

/// A named band of results and its exact probability.
#[derive(Clone, Debug, Serialize)]
pub struct BandDoc {
    /// Band name.
    pub name: String,
    /// Lowest result in the band (`null` = unbounded).
    pub lo: Option<i64>,
    /// Highest result in the band (`null` = unbounded).
    pub hi: Option<i64>,
    /// Exact probability.
    pub p: f64,
}

/// Monte Carlo part of a check document.
#[derive(Clone, Debug, Serialize)]
pub struct CheckMcDoc {
    /// Rolls made.
    pub trials: u64,
    /// Observed P(success).
    pub p_success: f64,
    /// 95 % Wilson interval.
    pub p_success_ci95: [f64; 2],
    /// `[value, frequency]` pairs.
    pub distribution: Vec<(i64, f64)>,
    /// Distance from the exact P(success), in standard errors.
    pub z: f64,
}

impl CheckDoc {
    /// Builds the document.
    pub fn new(ruleset: &str, exact: &CheckExact, mc: &CheckStats) -> Self {
        let p = exact.p_success();
        let (num, den) = exact.distribution.ratio_at_least(exact.success_at_least);
        let n = mc.success.trials;
        let se = (p * (1.0 - p) / n.max(1) as f64).sqrt();
        let bands = exact
            .bands
            .iter()
            .zip(exact.band_probabilities())
            .map(|(b, p)| BandDoc {
                name: b.name.clone(),
                lo: b.lo,
                hi: b.hi,
                p,
            })
            .collect();
        let dist = &exact.distribution;
        CheckDoc {
            ruleset: ruleset.into(),
            description: exact.description.clone(),
            exact: CheckExactDoc {
                p_success: p,
                p_success_fraction: [num, den],
                distribution: dist.to_f64_pairs(),
                bands,
            },
            monte_carlo: CheckMcDoc {
                trials: n,
                p_success: mc.success.p(),
                p_success_ci95: ci(mc.success.successes, n),
                distribution: dist.iter().map(|(v, _)| (v, mc.frequency(v))).collect(),
                z: if se > 0.0 {
                    (mc.success.p() - p) / se
                } else {
                    0.0
                },
            },
        }
    }
}
