//! The study tables as polars DataFrames, one per kind of result. Each is present only when the
//! study has that kind; column names are part of the report contract like those of
//! [`crate::frames`] (intervals as `<name>_lo` / `<name>_hi`, exact values as `exact_<name>`).

use oddsmith_study::{BalanceDoc, BalancePoint, StudyDoc, TournamentDoc};
use polars::prelude::*;

fn col<T, P>(name: &str, v: T) -> Column
where
    Series: NamedFrom<T, P>,
    P: ?Sized,
{
    Column::new(name.into(), v)
}

/// Every study table, by file stem: `sweep_points`, `sweep_steps`, `balance`,
/// `balance_result`, `tournament_matrix`, `tournament_ranking`, `check_study`, `asserts`.
pub fn study_tables(s: &StudyDoc) -> PolarsResult<Vec<(&'static str, DataFrame)>> {
    let mut v = Vec::new();
    if !s.sweeps.is_empty() {
        v.push(("sweep_points", sweep_points(s)?));
        if s.sweeps.iter().any(|w| !w.steps.is_empty()) {
            v.push(("sweep_steps", sweep_steps(s)?));
        }
    }
    if let Some(b) = &s.balance {
        v.push(("balance", balance_evaluations(b)?));
        v.push(("balance_result", balance_result(b)?));
    }
    if let Some(t) = &s.tournament {
        v.push(("tournament_matrix", tournament_matrix(t)?));
        v.push(("tournament_ranking", tournament_ranking(t)?));
    }
    if !s.checks.is_empty() {
        v.push(("check_study", check_study(s)?));
    }
    if !s.asserts.is_empty() {
        v.push(("asserts", asserts(s)?));
    }
    Ok(v)
}

/// One row per sweep point: the sweep (1-based index and name), the swept values, P(A wins)
/// with its 95 % interval, the exact value where known, P(B wins), P(draw), mean rounds.
pub fn sweep_points(s: &StudyDoc) -> PolarsResult<DataFrame> {
    let rows: Vec<_> = s
        .sweeps
        .iter()
        .enumerate()
        .flat_map(|(i, w)| w.points.iter().map(move |p| (i, w, p)))
        .collect();
    let f = |g: &dyn Fn(&oddsmith_study::SweepPoint) -> f64| {
        rows.iter().map(|r| g(r.2)).collect::<Vec<f64>>()
    };
    DataFrame::new_infer_height(vec![
        col(
            "sweep_index",
            rows.iter().map(|r| r.0 as u32 + 1).collect::<Vec<_>>(),
        ),
        col(
            "sweep",
            rows.iter().map(|r| r.1.name.as_str()).collect::<Vec<_>>(),
        ),
        col(
            "matchup",
            rows.iter()
                .map(|r| r.1.matchup.as_str())
                .collect::<Vec<_>>(),
        ),
        col(
            "x_target",
            rows.iter()
                .map(|r| r.1.x.target.as_str())
                .collect::<Vec<_>>(),
        ),
        col("x", f(&|p| p.x)),
        col(
            "y_target",
            rows.iter()
                .map(|r| r.1.y.as_ref().map(|a| a.target.as_str()))
                .collect::<Vec<_>>(),
        ),
        col("y", rows.iter().map(|r| r.2.y).collect::<Vec<_>>()),
        col("p_a_win", f(&|p| p.p_a_win.p)),
        col("p_a_win_lo", f(&|p| p.p_a_win.lo)),
        col("p_a_win_hi", f(&|p| p.p_a_win.hi)),
        col(
            "exact_p_a_win",
            rows.iter().map(|r| r.2.exact_p_a_win).collect::<Vec<_>>(),
        ),
        col("p_b_win", f(&|p| p.p_b_win)),
        col("p_draw", f(&|p| p.p_draw)),
        col("rounds_mean", f(&|p| p.rounds_mean)),
        col(
            "trials",
            rows.iter().map(|r| r.2.p_a_win.trials).collect::<Vec<_>>(),
        ),
    ])
}

/// One row per paired step between neighbouring x values: the change of P(A wins) with its
/// paired 95 % interval, the test, and the half-width an unpaired comparison would have had.
pub fn sweep_steps(s: &StudyDoc) -> PolarsResult<DataFrame> {
    let rows: Vec<_> = s
        .sweeps
        .iter()
        .enumerate()
        .flat_map(|(i, w)| w.steps.iter().map(move |p| (i, w, p)))
        .collect();
    let f = |g: &dyn Fn(&oddsmith_study::StepDoc) -> f64| {
        rows.iter().map(|r| g(r.2)).collect::<Vec<f64>>()
    };
    DataFrame::new_infer_height(vec![
        col(
            "sweep_index",
            rows.iter().map(|r| r.0 as u32 + 1).collect::<Vec<_>>(),
        ),
        col(
            "sweep",
            rows.iter().map(|r| r.1.name.as_str()).collect::<Vec<_>>(),
        ),
        col("y", rows.iter().map(|r| r.2.y).collect::<Vec<_>>()),
        col("x_from", f(&|p| p.from)),
        col("x_to", f(&|p| p.to)),
        col("diff_p_a_win", f(&|p| p.diff.diff)),
        col("diff_lo", f(&|p| p.diff.lo)),
        col("diff_hi", f(&|p| p.diff.hi)),
        col("z", f(&|p| p.diff.z)),
        col("p_value", f(&|p| p.diff.p_value)),
        col("paired_half_width", f(&|p| (p.diff.hi - p.diff.lo) / 2.0)),
        col("unpaired_half_width", f(&|p| p.unpaired_half_width)),
    ])
}

/// Every evaluation of the balance search, in order: the value tried and the probability
/// found there.
pub fn balance_evaluations(b: &BalanceDoc) -> PolarsResult<DataFrame> {
    let e = &b.evaluations;
    DataFrame::new_infer_height(vec![
        col("step", (1..=e.len() as u32).collect::<Vec<_>>()),
        col("value", e.iter().map(|x| x.value).collect::<Vec<_>>()),
        col("p", e.iter().map(|x| x.p).collect::<Vec<_>>()),
    ])
}

/// The balance result: for whole numbers, the two values either side of the target (`role` =
/// "chosen" for the closer, "bracket" for the other); otherwise one row, the chosen value; a
/// single row with `role` = "none" and empty values when the target is not reached.
pub fn balance_result(b: &BalanceDoc) -> PolarsResult<DataFrame> {
    let pts: Vec<(&str, Option<&BalancePoint>)> = match (&b.bracket, &b.achieved) {
        (Some(br), _) => br
            .iter()
            .map(|p| {
                let chosen = b.value == Some(p.value);
                (if chosen { "chosen" } else { "bracket" }, Some(p))
            })
            .collect(),
        (None, Some(a)) => vec![("chosen", Some(a))],
        (None, None) => vec![("none", None)],
    };
    let n = pts.len();
    let status = match b.status {
        oddsmith_study::BalanceStatus::Found => "found",
        oddsmith_study::BalanceStatus::NotInRange => "not_in_range",
    };
    let g = |h: &dyn Fn(&BalancePoint) -> f64| {
        pts.iter().map(|p| p.1.map(h)).collect::<Vec<Option<f64>>>()
    };
    DataFrame::new_infer_height(vec![
        col("subject", vec![b.subject.as_str(); n]),
        col("field", vec![b.field.as_str(); n]),
        col("target", vec![b.target; n]),
        col("range_lo", vec![b.range.0; n]),
        col("range_hi", vec![b.range.1; n]),
        col("integer", vec![b.integer; n]),
        col("method", vec![b.method.as_str(); n]),
        col("status", vec![status; n]),
        col("evaluations", vec![b.evaluations.len() as u32; n]),
        col("role", pts.iter().map(|p| p.0).collect::<Vec<_>>()),
        col("value", g(&|p| p.value)),
        col("p", g(&|p| p.monte_carlo.p)),
        col("p_lo", g(&|p| p.monte_carlo.lo)),
        col("p_hi", g(&|p| p.monte_carlo.hi)),
        col(
            "trials",
            pts.iter()
                .map(|p| p.1.map(|q| q.monte_carlo.trials))
                .collect::<Vec<_>>(),
        ),
        col(
            "exact_p",
            pts.iter()
                .map(|p| p.1.and_then(|q| q.exact))
                .collect::<Vec<_>>(),
        ),
        col(
            "distinguishable",
            pts.iter()
                .map(|p| p.1.map(|q| q.distinguishable))
                .collect::<Vec<_>>(),
        ),
    ])
}

/// The win matrix in long form: one row per ordered pair (fighter, opponent), P(fighter beats
/// opponent) over both seatings with its interval, the exact value where known, and the
/// meta-game payoff P(win) − P(lose).
pub fn tournament_matrix(t: &TournamentDoc) -> PolarsResult<DataFrame> {
    let n = t.fighters.len();
    let pairs: Vec<(usize, usize, oddsmith_study::Est)> = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter_map(|(i, j)| t.win[i][j].map(|e| (i, j, e)))
        .collect();
    let f = |g: &dyn Fn(&oddsmith_study::Est) -> f64| {
        pairs.iter().map(|p| g(&p.2)).collect::<Vec<f64>>()
    };
    DataFrame::new_infer_height(vec![
        col(
            "fighter",
            pairs
                .iter()
                .map(|p| t.fighters[p.0].as_str())
                .collect::<Vec<_>>(),
        ),
        col(
            "opponent",
            pairs
                .iter()
                .map(|p| t.fighters[p.1].as_str())
                .collect::<Vec<_>>(),
        ),
        col("p_win", f(&|e| e.p)),
        col("p_win_lo", f(&|e| e.lo)),
        col("p_win_hi", f(&|e| e.hi)),
        col(
            "wins",
            pairs.iter().map(|p| p.2.successes).collect::<Vec<_>>(),
        ),
        col(
            "trials",
            pairs.iter().map(|p| p.2.trials).collect::<Vec<_>>(),
        ),
        col(
            "exact_p_win",
            pairs
                .iter()
                .map(|p| {
                    t.exact_win
                        .get(p.0)
                        .and_then(|r| r.get(p.1).copied().flatten())
                })
                .collect::<Vec<_>>(),
        ),
        col(
            "payoff",
            pairs.iter().map(|p| t.payoff[p.0][p.1]).collect::<Vec<_>>(),
        ),
    ])
}

/// The standings, best first: P(win) against the field with its interval, P(lose), the
/// loadout's share in the Nash mix, whether it is strictly dominated, and — when every loadout
/// has a cost — its cost, the win rate the fair line predicts, the residual and the verdict.
pub fn tournament_ranking(t: &TournamentDoc) -> PolarsResult<DataFrame> {
    let r = &t.ranking;
    let f = |g: &dyn Fn(&oddsmith_study::RankDoc) -> f64| r.iter().map(g).collect::<Vec<f64>>();
    let mut cols = vec![
        col("rank", (1..=r.len() as u32).collect::<Vec<_>>()),
        col(
            "fighter",
            r.iter().map(|x| x.fighter.as_str()).collect::<Vec<_>>(),
        ),
        col("p_win", f(&|x| x.win_rate.p)),
        col("p_win_lo", f(&|x| x.win_rate.lo)),
        col("p_win_hi", f(&|x| x.win_rate.hi)),
        col("p_lose", f(&|x| x.loss_rate)),
        col("nash_share", f(&|x| x.nash_share)),
        col(
            "dominated",
            r.iter().map(|x| x.dominated).collect::<Vec<_>>(),
        ),
    ];
    if let Some(c) = &t.costs {
        let by = |x: &oddsmith_study::RankDoc| c.points.iter().find(|p| p.fighter == x.fighter);
        let g = |h: &dyn Fn(&oddsmith_study::CostPoint) -> f64| {
            r.iter().map(|x| by(x).map(h)).collect::<Vec<Option<f64>>>()
        };
        cols.push(col("cost", g(&|p| p.cost)));
        cols.push(col("cost_unit", vec![c.unit.as_str(); r.len()]));
        cols.push(col(
            "cost_source",
            r.iter()
                .map(|x| by(x).map(|p| p.source.as_str()))
                .collect::<Vec<_>>(),
        ));
        cols.push(col("fair_p_win", g(&|p| p.fair)));
        cols.push(col("residual", g(&|p| p.residual)));
        cols.push(col(
            "verdict",
            r.iter()
                .map(|x| by(x).map(|p| p.verdict.as_str()))
                .collect::<Vec<_>>(),
        ));
    }
    DataFrame::new_infer_height(cols)
}

/// Every cell of every `[[check]]`: the check, the row and column parameter values, exact
/// P(success) and the Monte Carlo estimate with its interval.
pub fn check_study(s: &StudyDoc) -> PolarsResult<DataFrame> {
    let rows: Vec<_> = s
        .checks
        .iter()
        .flat_map(|c| c.cells.iter().map(move |x| (c, x)))
        .collect();
    let f = |g: &dyn Fn(&oddsmith_study::CheckCellDoc) -> f64| {
        rows.iter().map(|r| g(r.1)).collect::<Vec<f64>>()
    };
    DataFrame::new_infer_height(vec![
        col(
            "check",
            rows.iter().map(|r| r.0.name.as_str()).collect::<Vec<_>>(),
        ),
        col(
            "row_param",
            rows.iter()
                .map(|r| r.0.row_param.as_deref())
                .collect::<Vec<_>>(),
        ),
        col(
            "row",
            rows.iter().map(|r| r.1.row.as_deref()).collect::<Vec<_>>(),
        ),
        col(
            "col_param",
            rows.iter()
                .map(|r| r.0.col_param.as_deref())
                .collect::<Vec<_>>(),
        ),
        col(
            "col",
            rows.iter().map(|r| r.1.col.as_deref()).collect::<Vec<_>>(),
        ),
        col(
            "description",
            rows.iter()
                .map(|r| r.1.description.as_str())
                .collect::<Vec<_>>(),
        ),
        col("exact_p_success", f(&|c| c.exact)),
        col("mc_p_success", f(&|c| c.monte_carlo.p)),
        col("mc_p_success_lo", f(&|c| c.monte_carlo.lo)),
        col("mc_p_success_hi", f(&|c| c.monte_carlo.hi)),
        col(
            "mc_trials",
            rows.iter()
                .map(|r| r.1.monte_carlo.trials)
                .collect::<Vec<_>>(),
        ),
    ])
}

/// One row per `[[assert]]`: the bounds, the value judged and where it came from, the Monte
/// Carlo interval (for probabilities), whether it passed and whether the verdict is certain.
pub fn asserts(s: &StudyDoc) -> PolarsResult<DataFrame> {
    let a = &s.asserts;
    DataFrame::new_infer_height(vec![
        col(
            "name",
            a.iter().map(|x| x.name.as_str()).collect::<Vec<_>>(),
        ),
        col(
            "metric",
            a.iter().map(|x| x.metric.as_str()).collect::<Vec<_>>(),
        ),
        col("min", a.iter().map(|x| x.range.0).collect::<Vec<_>>()),
        col("max", a.iter().map(|x| x.range.1).collect::<Vec<_>>()),
        col("value", a.iter().map(|x| x.value).collect::<Vec<_>>()),
        col(
            "source",
            a.iter().map(|x| x.source.as_str()).collect::<Vec<_>>(),
        ),
        col(
            "ci_lo",
            a.iter().map(|x| x.ci95.map(|c| c.0)).collect::<Vec<_>>(),
        ),
        col(
            "ci_hi",
            a.iter().map(|x| x.ci95.map(|c| c.1)).collect::<Vec<_>>(),
        ),
        col("passed", a.iter().map(|x| x.passed).collect::<Vec<_>>()),
        col("certain", a.iter().map(|x| x.certain).collect::<Vec<_>>()),
    ])
}
