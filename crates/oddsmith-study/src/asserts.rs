//! `[[assert]]`: bounds a designer keeps in their own CI; `oddsmith run` fails when one fails.

use oddsmith_rules::ExactDuel;
use oddsmith_scenario::{Assertion, Metric};
use oddsmith_sim::DuelStats;
use oddsmith_stats::verdict::{self, Difference};
use serde::Serialize;

use crate::CheckStudyDoc;

/// An evaluated assertion.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AssertDoc {
    /// What was asserted (`knight vs brute: p_a_win in [0.45, 0.55]`).
    pub name: String,
    /// The metric's key.
    pub metric: String,
    /// Inclusive bounds.
    pub range: (f64, f64),
    /// The value judged: the exact value where known, else the Monte Carlo estimate.
    pub value: f64,
    /// "exact" or "monte carlo".
    pub source: String,
    /// The Monte Carlo estimate's 95 % interval, for probabilities.
    pub ci95: Option<(f64, f64)>,
    /// Whether `value` lies in the range.
    pub passed: bool,
    /// Whether the whole interval lies on the same side as the verdict (exact values are
    /// always certain); an uncertain verdict may flip with another seed.
    pub certain: bool,
}

/// Evaluates the scenario's assertions against the base matchups' results and the checks.
pub fn evaluate_asserts(
    asserts: &[Assertion],
    stats: &[DuelStats],
    exact: &[Option<ExactDuel>],
    checks: &[CheckStudyDoc],
) -> Vec<AssertDoc> {
    asserts
        .iter()
        .map(|a| evaluate_assert(a, stats, exact, checks))
        .collect()
}

/// Evaluates one assertion against the base matchups' results and the checks.
pub fn evaluate_assert(
    a: &Assertion,
    stats: &[DuelStats],
    exact: &[Option<ExactDuel>],
    checks: &[CheckStudyDoc],
) -> AssertDoc {
    let (lo, hi) = a.range;
    let (value, source, ci) = match (a.metric, a.matchup, a.check) {
        (Metric::PSuccess, _, Some(c)) => {
            let cell = &checks[c].cells[0];
            let e = cell.monte_carlo;
            (cell.exact, "exact", Some((e.lo, e.hi)))
        }
        (m, Some(i), _) => {
            let s = &stats[i];
            let o = s.outcomes;
            let (succ, ex) = match m {
                Metric::PAWin => (Some(o.a_wins), exact[i].as_ref().map(|e| e.p_a_win)),
                Metric::PBWin => (Some(o.b_wins), exact[i].as_ref().map(|e| e.p_b_win)),
                Metric::PDraw => (Some(o.draws), exact[i].as_ref().map(|e| e.p_draw)),
                _ => (None, None),
            };
            match succ {
                Some(sc) => {
                    // The figure that speaks: exact where known, else Monte Carlo.
                    let est = crate::Est::new(sc, o.total());
                    let sp = verdict::speaks(Difference::interval(est.p, est.lo, est.hi), ex);
                    let source = if sp.is_exact() {
                        "exact"
                    } else {
                        "monte carlo"
                    };
                    (sp.value(), source, Some((est.lo, est.hi)))
                }
                None => (s.rounds.mean(), "monte carlo", None),
            }
        }
        _ => unreachable!("assertions are cross-checked when the scenario is loaded"),
    };
    let passed = value >= lo && value <= hi;
    let certain = source == "exact"
        || match ci {
            Some((l, h)) => {
                if passed {
                    l >= lo && h <= hi
                } else {
                    h < lo || l > hi
                }
            }
            None => false,
        };
    AssertDoc {
        name: a.name.clone(),
        metric: a.metric.key().into(),
        range: a.range,
        value,
        source: source.into(),
        ci95: ci,
        passed,
        certain,
    }
}
