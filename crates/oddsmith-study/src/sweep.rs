//! `[[sweep]]`: P(A wins) over one or two swept fields, on common random numbers.

use oddsmith_rules::Ruleset;
use oddsmith_scenario::{Axis, Origin, Scenario, Sweep, Value, variant};
use oddsmith_sim::run_paired;
use oddsmith_stats::verdict::{self, Difference, Spoken};
use oddsmith_stats::{DiffEstimate, diff_independent, diff_paired};
use serde::Serialize;

use crate::{Ctx, Est, StudyError};

/// One swept axis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AxisDoc {
    /// What was changed (`knight.skill`, `options.wound_stacking`).
    pub target: String,
    /// The values, in order; for an axis of text or `true`/`false` values, their positions
    /// 0, 1, 2, … (the values themselves are in `labels`).
    pub values: Vec<f64>,
    /// The values as written, for an axis that is not numeric; empty for a numeric axis.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}

impl AxisDoc {
    fn new(a: &Axis) -> AxisDoc {
        let (values, labels) = if a.is_numeric() {
            (a.values.iter().filter_map(Value::as_f64).collect(), vec![])
        } else {
            (
                (0..a.values.len()).map(|i| i as f64).collect(),
                a.values.iter().map(Value::label).collect(),
            )
        };
        AxisDoc {
            target: a.target.to_string(),
            values,
            labels,
        }
    }

    /// Whether the axis is numeric (else its values are categories named by `labels`).
    pub fn is_numeric(&self) -> bool {
        self.labels.is_empty()
    }

    /// The label of a value of this axis (a point's `x` or `y`): the text as written for a
    /// categorical axis, `None` for a numeric one (the caller formats the number).
    pub fn label(&self, v: f64) -> Option<&str> {
        if self.labels.is_empty() || v.is_nan() || v < 0.0 {
            return None;
        }
        self.labels.get(v as usize).map(String::as_str)
    }
}

/// One point of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepPoint {
    /// x value.
    pub x: f64,
    /// y value (2-D sweeps).
    pub y: Option<f64>,
    /// P(A wins) with its interval.
    pub p_a_win: Est,
    /// P(B wins).
    pub p_b_win: f64,
    /// P(draw).
    pub p_draw: f64,
    /// Mean fight length in rounds.
    pub rounds_mean: f64,
    /// Exact P(A wins), where the ruleset solves the duel.
    pub exact_p_a_win: Option<f64>,
}

impl SweepPoint {
    /// P(A wins) as it speaks ([`verdict::speaks`]): exact where known, else the Monte
    /// Carlo estimate with its interval.
    pub fn spoken(&self) -> Spoken {
        let e = &self.p_a_win;
        verdict::speaks(Difference::interval(e.p, e.lo, e.hi), self.exact_p_a_win)
    }
}

/// The change of P(A wins) between two neighbouring x values (same y), paired.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepDoc {
    /// y value (2-D sweeps).
    pub y: Option<f64>,
    /// From this x …
    pub from: f64,
    /// … to this x.
    pub to: f64,
    /// P(A wins at `to`) − P(A wins at `from`), Newcombe's paired interval, McNemar's test.
    pub diff: DiffEstimate,
    /// Half-width the interval would have had from independent runs of the same size: what
    /// common random numbers saved.
    pub unpaired_half_width: f64,
    /// Exact P(A wins at `to`) − P(A wins at `from`), where both points are solved.
    pub exact_diff: Option<f64>,
}

impl StepDoc {
    /// The step as it speaks ([`verdict::speaks`]): the exact difference where both points
    /// are solved, else the paired Monte Carlo difference judged by McNemar's test.
    pub fn spoken(&self) -> Spoken {
        verdict::speaks(Difference::tested(&self.diff), self.exact_diff)
    }

    /// Whether the step is a real change: an exact step that is not zero, or a Monte Carlo
    /// step whose 95 % interval excludes 0.
    pub fn is_real(&self) -> bool {
        let s = self.spoken();
        if s.is_exact() {
            s.figure.significant(0.05)
        } else {
            self.diff.lo > 0.0 || self.diff.hi < 0.0
        }
    }
}

/// The result of one `[[sweep]]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepDoc {
    /// Display name.
    pub name: String,
    /// The matchup swept.
    pub matchup: String,
    /// Trials per point.
    pub trials: u64,
    /// x axis.
    pub x: AxisDoc,
    /// y axis (2-D sweeps).
    pub y: Option<AxisDoc>,
    /// Points, row-major: y outer, x inner.
    pub points: Vec<SweepPoint>,
    /// Paired steps along x.
    pub steps: Vec<StepDoc>,
}

/// Where value `k` of axis `a` was written, or `whole` (the axis) when not known.
fn at<'a>(a: &'a Axis, k: usize, whole: &'a Origin) -> &'a Origin {
    a.origins.get(k).unwrap_or(whole)
}

/// The scenario at point `k` of sweep `sw` (number `index` of the file), row-major (y outer, x
/// inner), loaded (and so validated) like a file with the swept values written in.
fn point<R: Ruleset>(
    file: &str,
    text: &str,
    sw: &Sweep,
    index: usize,
    k: usize,
) -> Result<Scenario<R>, StudyError> {
    let (ox, oy) = (Origin::sweep(index, false), Origin::sweep(index, true));
    let nx = sw.x.values.len();
    let (xi, yi) = (k % nx, k / nx);
    let mut changes = vec![(&sw.x.target, sw.x.values[xi].clone(), at(&sw.x, xi, &ox))];
    if let Some(ya) = &sw.y {
        changes.push((&ya.target, ya.values[yi].clone(), at(ya, yi, &oy)));
    }
    Ok(variant::<R>(file, text, &changes)?)
}

/// The ruleset and swept matchup at point `k` (row-major: y outer, x inner) of sweep number
/// `index`, as the run builds them (e.g. for a pilot of a few duels there).
pub fn point_matchup<R: Ruleset>(
    file: &str,
    text: &str,
    scenario: &Scenario<R>,
    index: usize,
    k: usize,
) -> Result<(R, R::Matchup), StudyError> {
    let sw = &scenario.study.sweeps[index];
    let s = point::<R>(file, text, sw, index, k.min(n_points(sw) - 1))?;
    let m = s.matchups[sw.matchup].matchup.clone();
    Ok((s.ruleset, m))
}

/// Points of sweep `sw`.
pub fn n_points(sw: &Sweep) -> usize {
    sw.x.values.len() * sw.y.as_ref().map_or(1, |y| y.values.len())
}

/// Builds every point of sweep number `index`, each dropped before the next is built on the
/// same worker, so memory stays that of a point per worker whatever the grid (a 101 × 201
/// grid of the open RPG is 20,301 sets of turn tables). Every point is built: an axis value
/// may be refused only beside a value of the other axis (a band against a band, a hand
/// larger than the deck), so no subset of the grid proves the rest. The error is the first
/// point's in grid order, whatever the thread count.
pub(crate) fn validate_points<R: Ruleset>(
    file: &str,
    text: &str,
    scenario: &Scenario<R>,
    index: usize,
) -> Result<(), StudyError> {
    use rayon::prelude::*;
    let sw = &scenario.study.sweeps[index];
    match (0..n_points(sw))
        .into_par_iter()
        .find_map_first(|k| point::<R>(file, text, sw, index, k).err())
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Runs sweep number `index` of the scenario: every point on the same per-trial random
/// numbers. A 2-D sweep runs row by row (one y value, every x value together), so only a
/// row's compiled variants are held at once; each row replays the same per-trial seeds, so
/// the numbers are those of the whole grid run together, and the paired steps (along x) lie
/// within a row. With a precision target the grid runs whole, since where it stops depends on
/// every point.
pub fn run_sweep<R: Ruleset>(
    ctx: &Ctx<'_, R>,
    index: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SweepDoc, StudyError> {
    let sw: &Sweep = &ctx.scenario.study.sweeps[index];
    let (x_axis, y_axis) = (AxisDoc::new(&sw.x), sw.y.as_ref().map(AxisDoc::new));
    let ys: Vec<Option<f64>> = match &y_axis {
        None => vec![None],
        Some(a) => a.values.iter().copied().map(Some).collect(),
    };
    let nx = sw.x.values.len();
    let n = n_points(sw);
    let batch = if ctx.cfg.precision.is_some() { n } else { nx };
    let mut points = Vec::with_capacity(n);
    let mut steps = Vec::new();
    let mut trials = 0;
    for first in (0..n).step_by(batch) {
        let variants: Vec<(R, R::Matchup)> = (first..(first + batch).min(n))
            .map(|k| {
                let s = point::<R>(ctx.file, ctx.text, sw, index, k)?;
                let m = s.matchups[sw.matchup].matchup.clone();
                Ok((s.ruleset, m))
            })
            .collect::<Result<_, StudyError>>()?;
        let refs: Vec<(&R, &R::Matchup)> = variants.iter().map(|(r, m)| (r, m)).collect();
        let stats = run_paired(&refs, ctx.cfg, progress)?;
        trials = stats.variants[0].trials();
        for (b, (r, m)) in variants.iter().enumerate() {
            let k = first + b;
            let (xi, yi) = (k % nx, k / nx);
            let y = ys[yi];
            let o = &stats.variants[b].outcomes;
            points.push(SweepPoint {
                x: x_axis.values[xi],
                y,
                p_a_win: Est::new(o.a_wins, o.total()),
                p_b_win: o.p_b(),
                p_draw: o.p_draw(),
                rounds_mean: stats.variants[b].rounds.mean(),
                exact_p_a_win: if ctx.exact {
                    r.exact(m).map(|e| e.p_a_win)
                } else {
                    None
                },
            });
            if xi > 0 {
                let c = &stats.adjacent[b - 1];
                // Paired: second − first = P(A wins at x_k) − P(A wins at x_{k−1}).
                let diff = diff_paired(c.both, c.second_only, c.first_only, c.neither)
                    .expect("a run has trials");
                let prev = &stats.variants[b - 1].outcomes;
                let unpaired = diff_independent(o.a_wins, o.total(), prev.a_wins, prev.total())
                    .expect("a run has trials");
                steps.push(StepDoc {
                    y,
                    from: x_axis.values[xi - 1],
                    to: x_axis.values[xi],
                    diff,
                    unpaired_half_width: (unpaired.hi - unpaired.lo) / 2.0,
                    exact_diff: verdict::exact_difference(
                        points[k].exact_p_a_win,
                        points[k - 1].exact_p_a_win,
                    ),
                });
            }
        }
    }
    Ok(SweepDoc {
        name: sw.name.clone(),
        matchup: ctx.scenario.matchups[sw.matchup].name.clone(),
        trials,
        x: x_axis,
        y: y_axis,
        points,
        steps,
    })
}
