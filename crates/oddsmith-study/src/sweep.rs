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

/// The scenario at every point of sweep number `index`, row-major (y outer, x inner), each
/// loaded (and so validated) like a file with the swept values written in.
pub(crate) fn point_scenarios<R: Ruleset>(
    file: &str,
    text: &str,
    scenario: &Scenario<R>,
    index: usize,
) -> Result<Vec<Scenario<R>>, StudyError> {
    let sw = &scenario.study.sweeps[index];
    let (ox, oy) = (Origin::sweep(index, false), Origin::sweep(index, true));
    // Each value with where it was written (its list entry, or the range's key).
    let ys: Vec<Option<(&Value, &Origin)>> = match &sw.y {
        None => vec![None],
        Some(a) => (0..a.values.len())
            .map(|k| Some((&a.values[k], at(a, k, &oy))))
            .collect(),
    };
    let mut out = Vec::with_capacity(ys.len() * sw.x.values.len());
    for y in &ys {
        for (k, x) in sw.x.values.iter().enumerate() {
            let mut changes = vec![(&sw.x.target, x.clone(), at(&sw.x, k, &ox))];
            if let (Some(ya), Some((yv, yo))) = (&sw.y, y) {
                changes.push((&ya.target, (*yv).clone(), *yo));
            }
            out.push(variant::<R>(file, text, &changes)?);
        }
    }
    Ok(out)
}

/// Runs sweep number `index` of the scenario: every point is validated and compiled first,
/// then all points run together on the same per-trial random numbers.
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
    let variants: Vec<(R, R::Matchup)> = point_scenarios(ctx.file, ctx.text, ctx.scenario, index)?
        .into_iter()
        .map(|s| {
            let m = s.matchups[sw.matchup].matchup.clone();
            (s.ruleset, m)
        })
        .collect();
    let refs: Vec<(&R, &R::Matchup)> = variants.iter().map(|(r, m)| (r, m)).collect();
    let stats = run_paired(&refs, ctx.cfg, progress)?;
    let nx = sw.x.values.len();
    let mut points = Vec::with_capacity(variants.len());
    let mut steps = Vec::new();
    for (k, (r, m)) in variants.iter().enumerate() {
        let (xi, yi) = (k % nx, k / nx);
        let y = ys[yi];
        let o = &stats.variants[k].outcomes;
        points.push(SweepPoint {
            x: x_axis.values[xi],
            y,
            p_a_win: Est::new(o.a_wins, o.total()),
            p_b_win: o.p_b(),
            p_draw: o.p_draw(),
            rounds_mean: stats.variants[k].rounds.mean(),
            exact_p_a_win: if ctx.exact {
                r.exact(m).map(|e| e.p_a_win)
            } else {
                None
            },
        });
        if xi > 0 {
            let c = &stats.adjacent[k - 1];
            // Paired: second − first = P(A wins at x_k) − P(A wins at x_{k−1}).
            let diff = diff_paired(c.both, c.second_only, c.first_only, c.neither)
                .expect("a run has trials");
            let prev = &stats.variants[k - 1].outcomes;
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
    Ok(SweepDoc {
        name: sw.name.clone(),
        matchup: ctx.scenario.matchups[sw.matchup].name.clone(),
        trials: stats.variants[0].trials(),
        x: x_axis,
        y: y_axis,
        points,
        steps,
    })
}
