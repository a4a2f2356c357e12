//! `[balance]`: the value of a field that brings a probability to a target.
//!
//! The method has to be sound on noisy estimates. Where the ruleset solves the duel exactly
//! (or the subject is a check, which is always exact), bisection runs on exact values. Where it
//! does not, bisection runs on Monte Carlo estimates that all share the same per-trial random
//! numbers (common random numbers), so the estimated curve is a fixed function of the value
//! for a given seed, and its crossing converges to the true crossing as trials grow (sample
//! average approximation). The chosen value and its neighbours are then measured again on a
//! fresh seed, so the reported probability is not the one the choice was made on.

use oddsmith_dice::seeds::fresh_seed;
use oddsmith_rules::{RulesError, Ruleset};
use oddsmith_scenario::{Balance, BalanceSubject, Num, Origin, Scenario, variant};
use oddsmith_sim::{RunConfig, run_check, run_paired};
use oddsmith_stats::verdict::{self, Difference, Rule, Spoken};
use serde::Serialize;

use crate::{Ctx, Est, StudyError};

/// Whether the target was reached inside the range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BalanceStatus {
    /// The probability crosses the target inside the range.
    Found,
    /// The probability stays on one side of the target over the whole range.
    NotInRange,
}

/// The probability at one value, as measured for the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BalancePoint {
    /// The value.
    pub value: f64,
    /// Monte Carlo estimate on a fresh seed, with its interval.
    pub monte_carlo: Est,
    /// Exact probability, where known.
    pub exact: Option<f64>,
    /// Whether this value's probability is statistically distinguishable from the target
    /// (exact: differs by more than 1e-9; otherwise: the 95 % interval excludes the target).
    pub distinguishable: bool,
}

impl BalancePoint {
    /// The probability as it speaks ([`verdict::speaks`]): exact where known, else the
    /// fresh Monte Carlo estimate with its interval.
    pub fn spoken(&self) -> Spoken {
        spoken(&self.monte_carlo, self.exact)
    }
}

fn spoken(mc: &Est, exact: Option<f64>) -> Spoken {
    verdict::speaks(Difference::interval(mc.p, mc.lo, mc.hi), exact)
}

/// One step of the search.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Evaluation {
    /// Value tried.
    pub value: f64,
    /// Probability found there (exact, or the paired estimate).
    pub p: f64,
}

/// When a re-measured value is "distinguishable from the target": the difference from the
/// target is significant (exact: not zero; Monte Carlo: its 95 % interval excludes it) and at
/// least 2 percentage points — the verdict rule of every other comparison.
pub const TARGET_RULE: Rule = Rule {
    alpha: 0.05,
    threshold: 0.02,
};

/// Whether a probability (exact where known) is distinguishable from `target` under
/// [`TARGET_RULE`].
pub fn distinguishable(mc: &Est, exact: Option<f64>, target: f64) -> bool {
    TARGET_RULE
        .judge(spoken(mc, exact).figure.minus(target))
        .is_decisive()
}

/// The result of `[balance]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BalanceDoc {
    /// What probability is balanced ("knight vs brute: P(A wins)").
    pub subject: String,
    /// What is changed.
    pub field: String,
    /// The probability sought.
    pub target: f64,
    /// The range searched.
    pub range: (f64, f64),
    /// Integer values only.
    pub integer: bool,
    /// "exact bisection" or "bisection on paired Monte Carlo estimates".
    pub method: String,
    /// Trials per Monte Carlo evaluation.
    pub trials: u64,
    /// Whether the target was reached.
    pub status: BalanceStatus,
    /// The value that best reaches the target (for integers: the closer of the bracket).
    pub value: Option<f64>,
    /// The probability at `value`.
    pub achieved: Option<BalancePoint>,
    /// Integer fields: the two neighbouring values either side of the target.
    pub bracket: Option<[BalancePoint; 2]>,
    /// Integer fields: where the straight line between the bracket's two probabilities (exact
    /// where known) crosses the target, e.g. 6.4 — the value a real-valued field would take.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crossing: Option<f64>,
    /// The probability at both ends of the range.
    pub ends: [Evaluation; 2],
    /// Every evaluation of the search, in order.
    pub evaluations: Vec<Evaluation>,
}

/// The method when the exact solver stopped giving values during the search.
const FELL_BACK: &str = "exact bisection, continued on paired Monte Carlo estimates where the exact solver gave no value";

/// Something whose probability depends on one number.
trait Subject {
    /// The probability used for the search at `x`.
    fn search(&mut self, x: Num) -> Result<f64, StudyError>;
    /// The probability measured for the report at `x`: fresh Monte Carlo and exact.
    fn measure(&mut self, x: Num) -> Result<(Est, Option<f64>), StudyError>;
    /// Whether a search that began on exact values had to continue on Monte Carlo estimates
    /// (the exact solver gave no value at some point).
    fn fell_back(&self) -> bool {
        false
    }
}

struct Duel<'c, 'a, R: Ruleset> {
    ctx: &'c Ctx<'a, R>,
    matchup: usize,
    target: &'c oddsmith_scenario::Target,
    exact: bool,
    fell_back: bool,
    progress: &'c (dyn Fn(u64) + Sync),
}

impl<R: Ruleset> Duel<'_, '_, R> {
    fn build(&self, x: Num) -> Result<(R, R::Matchup), StudyError> {
        let origin = Origin::balance();
        let s = variant::<R>(
            self.ctx.file,
            self.ctx.text,
            &[(self.target, x.into(), &origin)],
        )?;
        let m = s.matchups[self.matchup].matchup.clone();
        Ok((s.ruleset, m))
    }
    fn mc(&self, r: &R, m: &R::Matchup, seed: u64) -> Result<Est, StudyError> {
        let cfg = RunConfig {
            seed,
            precision: None,
            ..self.ctx.cfg.clone()
        };
        let s = run_paired(&[(r, m)], &cfg, self.progress)?;
        let o = &s.variants[0].outcomes;
        Ok(Est::new(o.a_wins, o.total()))
    }
}

impl<R: Ruleset> Subject for Duel<'_, '_, R> {
    fn search(&mut self, x: Num) -> Result<f64, StudyError> {
        let (r, m) = self.build(x)?;
        if self.exact
            && let Some(e) = r.exact(&m)
        {
            return Ok(e.p_a_win);
        }
        if self.exact {
            self.fell_back = true;
            self.exact = false;
        }
        Ok(self.mc(&r, &m, self.ctx.cfg.seed)?.p)
    }
    fn fell_back(&self) -> bool {
        self.fell_back
    }
    fn measure(&mut self, x: Num) -> Result<(Est, Option<f64>), StudyError> {
        let (r, m) = self.build(x)?;
        let est = self.mc(&r, &m, fresh_seed(self.ctx.cfg.seed))?;
        let exact = if self.ctx.exact {
            r.exact(&m).map(|e| e.p_a_win)
        } else {
            None
        };
        Ok((est, exact))
    }
}

struct Check<'c, 'a, R: Ruleset> {
    ctx: &'c Ctx<'a, R>,
    check: usize,
    param: &'c str,
}

impl<R: Ruleset> Check<'_, '_, R> {
    fn parse(&self, x: Num) -> Result<R::Check, StudyError> {
        Ok(check_at(self.ctx.scenario, self.check, self.param, x)?)
    }
}

/// Check number `check` of the scenario with `param` set to `x`.
fn check_at<R: Ruleset>(
    s: &Scenario<R>,
    check: usize,
    param: &str,
    x: Num,
) -> Result<R::Check, RulesError> {
    let mut c = s.study.checks[check].clone();
    c.params.insert(param.to_string(), x.to_string());
    s.ruleset.parse_check(&c.cell_params(None, None))
}

/// The range searched: integer ranges shrink to the whole numbers inside them.
fn search_range(b: &Balance) -> (f64, f64) {
    if b.integer {
        (b.range.0.ceil(), b.range.1.floor())
    } else {
        b.range
    }
}

/// Builds the scenario (or check) at both ends of the `[balance]` range, so a value the
/// search would try that the rules refuse stops the run before any simulation.
pub(crate) fn validate_ends<R: Ruleset>(
    file: &str,
    text: &str,
    s: &Scenario<R>,
) -> Result<(), StudyError> {
    let Some(b) = &s.study.balance else {
        return Ok(());
    };
    let (lo, hi) = search_range(b);
    for (k, x) in [num(lo, b.integer), num(hi, b.integer)]
        .into_iter()
        .enumerate()
    {
        match &b.subject {
            BalanceSubject::Duel { target, .. } => {
                variant::<R>(file, text, &[(target, x.into(), &Origin::balance_end(k))])?;
            }
            BalanceSubject::Check { check, param } => {
                check_at(s, *check, param, x).map_err(|e| StudyError::Check {
                    check: s.study.checks[*check].name.clone(),
                    index: *check,
                    source: e,
                })?;
            }
        }
    }
    Ok(())
}

impl<R: Ruleset> Subject for Check<'_, '_, R> {
    fn search(&mut self, x: Num) -> Result<f64, StudyError> {
        let c = self.parse(x)?;
        Ok(self.ctx.scenario.ruleset.check_exact(&c).p_success())
    }
    fn measure(&mut self, x: Num) -> Result<(Est, Option<f64>), StudyError> {
        let rules = &self.ctx.scenario.ruleset;
        let c = self.parse(x)?;
        let exact = rules.check_exact(&c);
        let cfg = RunConfig {
            seed: fresh_seed(self.ctx.cfg.seed),
            precision: None,
            ..self.ctx.cfg.clone()
        };
        let s = run_check(rules, &c, exact.distribution.min(), &cfg, &|_| {})?;
        Ok((
            Est::new(s.success.successes, s.success.trials),
            Some(exact.p_success()),
        ))
    }
}

/// What a balance search is about: its name and changed field for the report, the subject
/// itself, and the search method.
struct Searched<'c> {
    name: String,
    field: String,
    subject: Box<dyn Subject + 'c>,
    method: &'static str,
}

/// The subject of `[balance]` `b`: a duel (searched on exact values if the ruleset solves
/// it, else on paired Monte Carlo estimates) or a check (always exact).
fn searched<'c, R: Ruleset>(
    ctx: &'c Ctx<'_, R>,
    b: &'c Balance,
    progress: &'c (dyn Fn(u64) + Sync),
) -> Result<Searched<'c>, StudyError> {
    Ok(match &b.subject {
        BalanceSubject::Duel { matchup, target } => {
            let mut d = Duel {
                ctx,
                matchup: *matchup,
                target,
                exact: ctx.exact,
                fell_back: false,
                progress,
            };
            // Exact bisection only if the ruleset solves this duel.
            let first = if b.integer {
                b.range.0.ceil()
            } else {
                b.range.0
            };
            let probe = d.build(num(first, b.integer))?;
            d.exact = ctx.exact && probe.0.exact(&probe.1).is_some();
            let method = if d.exact {
                "exact bisection"
            } else {
                "bisection on paired Monte Carlo estimates (common random numbers)"
            };
            Searched {
                name: format!("{}: P(A wins)", ctx.scenario.matchups[*matchup].name),
                field: target.to_string(),
                subject: Box::new(d),
                method,
            }
        }
        BalanceSubject::Check { check, param } => Searched {
            name: format!(
                "check {:?}: P(success)",
                ctx.scenario.study.checks[*check].name
            ),
            field: param.clone(),
            subject: Box::new(Check {
                ctx,
                check: *check,
                param,
            }),
            method: "exact bisection",
        },
    })
}

/// The final bracket of a bisection: `a` and `z` with their probabilities on either side of
/// the target.
struct Bracket {
    a: f64,
    z: f64,
    pa: f64,
    pz: f64,
}

/// Bisects between the ends of the range (whose probabilities `plo`, `phi` straddle the
/// target) until the bracket is one whole number or `tolerance` wide; `eval` gives the
/// probability at a value.
fn bisect(
    b: &Balance,
    (lo, hi): (f64, f64),
    (plo, phi): (f64, f64),
    eval: &mut dyn FnMut(f64) -> Result<f64, StudyError>,
) -> Result<Bracket, StudyError> {
    // Invariant: p(a) is on the same side of the target as p(lo), p(z) as p(hi).
    // Which side of the target the low end is on; when the low end hits the target exactly,
    // the direction comes from the high end (the search then closes in on the low end).
    let below_at_lo = if plo != b.target {
        plo < b.target
    } else {
        phi > b.target
    };
    let (mut a, mut z, mut pa, mut pz) = (lo, hi, plo, phi);
    loop {
        let width = z - a;
        if (b.integer && width <= 1.0) || (!b.integer && width <= b.tolerance) {
            break;
        }
        let mid = if b.integer {
            ((a + z) / 2.0).floor()
        } else {
            (a + z) / 2.0
        };
        if mid <= a || mid >= z {
            // Neighbouring floating-point values: the bracket cannot shrink further.
            break;
        }
        let pm = eval(mid)?;
        if (pm < b.target) == below_at_lo && pm != b.target {
            (a, pa) = (mid, pm);
        } else {
            (z, pz) = (mid, pm);
        }
    }
    Ok(Bracket { a, z, pa, pz })
}

/// Runs the scenario's `[balance]` section.
pub fn run_balance<R: Ruleset>(
    ctx: &Ctx<'_, R>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Option<BalanceDoc>, StudyError> {
    let Some(b) = &ctx.scenario.study.balance else {
        return Ok(None);
    };
    let Searched {
        name,
        field,
        mut subject,
        method,
    } = searched(ctx, b, progress)?;
    let mut evaluations = Vec::new();
    let mut eval = |x: f64| -> Result<f64, StudyError> {
        let p = subject.search(num(x, b.integer))?;
        evaluations.push(Evaluation { value: x, p });
        Ok(p)
    };
    let (lo, hi) = search_range(b);
    let (plo, phi) = (eval(lo)?, eval(hi)?);
    let reachable = (plo - b.target) * (phi - b.target) <= 0.0;
    let bracket = if reachable {
        Some(bisect(b, (lo, hi), (plo, phi), &mut eval)?)
    } else {
        None
    };
    let mut doc = BalanceDoc {
        subject: name,
        field,
        target: b.target,
        range: (lo, hi),
        integer: b.integer,
        method: if subject.fell_back() {
            FELL_BACK.into()
        } else {
            method.into()
        },
        trials: ctx.cfg.trials,
        status: if reachable {
            BalanceStatus::Found
        } else {
            BalanceStatus::NotInRange
        },
        value: None,
        achieved: None,
        bracket: None,
        crossing: None,
        ends: [
            Evaluation { value: lo, p: plo },
            Evaluation { value: hi, p: phi },
        ],
        evaluations,
    };
    if let Some(bracket) = bracket {
        answer(&mut doc, b, subject.as_mut(), &bracket)?;
    }
    Ok(Some(doc))
}

/// Measures the answer inside the final bracket on fresh random numbers: the closer of the
/// two whole numbers, or the linear interpolation between the ends.
fn answer(
    doc: &mut BalanceDoc,
    b: &Balance,
    subject: &mut dyn Subject,
    &Bracket { a, z, pa, pz }: &Bracket,
) -> Result<(), StudyError> {
    let mut point = |x: f64| -> Result<BalancePoint, StudyError> {
        let (mc, exact) = subject.measure(num(x, b.integer))?;
        let distinguishable = distinguishable(&mc, exact, b.target);
        Ok(BalancePoint {
            value: x,
            monte_carlo: mc,
            exact,
            distinguishable,
        })
    };
    if b.integer {
        let pts = [point(a)?, point(z)?];
        let p = |q: &BalancePoint| q.spoken().value();
        let gap = |q: &BalancePoint| (p(q) - b.target).abs();
        let best = if gap(&pts[1]) < gap(&pts[0]) { 1 } else { 0 };
        let (p0, p1) = (p(&pts[0]), p(&pts[1]));
        doc.crossing = ((p1 - p0).abs() > 0.0)
            .then(|| pts[0].value + (b.target - p0) * (pts[1].value - pts[0].value) / (p1 - p0))
            .filter(|x| {
                (pts[0].value.min(pts[1].value)..=pts[0].value.max(pts[1].value)).contains(x)
            });
        doc.value = Some(pts[best].value);
        doc.achieved = Some(pts[best].clone());
        doc.bracket = Some(pts);
    } else {
        // Linear interpolation inside the final bracket.
        let x = if (pz - pa).abs() > 0.0 {
            a + (b.target - pa) * (z - a) / (pz - pa)
        } else {
            (a + z) / 2.0
        };
        let x = x.clamp(a, z);
        doc.value = Some(x);
        doc.achieved = Some(point(x)?);
    }
    Ok(())
}

fn num(x: f64, integer: bool) -> Num {
    if integer {
        Num::Int(x.round() as i64)
    } else {
        Num::Real(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinguishable_needs_significance_and_the_practical_threshold() {
        let mc = Est::new(500, 1000);
        // Exact: 60.9 % is 10.9 points off 50 %; 50.25 % is not 2 points off.
        assert!(distinguishable(&mc, Some(0.609), 0.5));
        assert!(!distinguishable(&mc, Some(0.5025), 0.5));
        assert!(!distinguishable(&mc, Some(0.5), 0.5));
        // Monte Carlo: an interval holding the target, or one excluding it by less than 2
        // points, is not distinguishable; one clearly off is.
        assert!(!distinguishable(&Est::new(510, 1000), None, 0.5));
        assert!(!distinguishable(&Est::new(510_000, 1_000_000), None, 0.5));
        assert!(distinguishable(&Est::new(600, 1000), None, 0.5));
    }
}
