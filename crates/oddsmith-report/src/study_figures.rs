//! The charts of a scenario's studies. Stems are unique and slug-safe: `sweep-<n>-<slug>`,
//! `balance`, `tournament-matrix`, `tournament-cost`, `check-<n>-<slug>` (n counts from 1).

use oddsmith_study::{BalanceDoc, CheckStudyDoc, StudyDoc, SweepDoc, TournamentDoc};

use crate::charts::{
    Chart, ColorScale, Corner, HeatmapPlot, LabelledXy, Plot, PointLabel, Series, Style, XyPlot,
    percent_text,
};
use crate::study_text::{check_axes, num};
use crate::write::slug;

/// Stem of the win-matrix chart.
pub const TOURNAMENT_MATRIX: &str = "tournament-matrix";
/// Stem of the cost-efficiency chart.
pub const TOURNAMENT_COST: &str = "tournament-cost";
/// Stem of the balance-search chart.
pub const BALANCE: &str = "balance";

/// Stem of the chart of sweep `index` (0-based).
pub fn sweep_stem(index: usize, s: &SweepDoc) -> String {
    format!("sweep-{}-{}", index + 1, slug(&s.name))
}

/// Stem of the chart of check `index` (0-based).
pub fn check_stem(index: usize, c: &CheckStudyDoc) -> String {
    format!("check-{}-{}", index + 1, slug(&c.name))
}

/// Every study chart, by file stem, in report order.
pub fn study_figures(s: &StudyDoc) -> Vec<(String, Chart)> {
    let mut v = Vec::new();
    for (i, sw) in s.sweeps.iter().enumerate() {
        if let Some(c) = sweep(sw) {
            v.push((sweep_stem(i, sw), c));
        }
    }
    if let Some(b) = &s.balance
        && let Some(c) = balance(b)
    {
        v.push((BALANCE.to_string(), c));
    }
    if let Some(t) = &s.tournament {
        if t.fighters.len() >= 2 {
            v.push((TOURNAMENT_MATRIX.to_string(), tournament_matrix(t)));
        }
        if let Some(c) = tournament_cost(t) {
            v.push((TOURNAMENT_COST.to_string(), c));
        }
    }
    for (i, c) in s.checks.iter().enumerate() {
        if let Some(ch) = check(c) {
            v.push((check_stem(i, c), ch));
        }
    }
    v
}

/// `(lo, hi)` padded by 5 % of the span (or ±1 when there is no span).
fn padded(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    if !lo.is_finite() || !hi.is_finite() {
        return None;
    }
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 1.0 };
    Some((lo - pad, hi + pad))
}

fn whole(values: &[f64]) -> bool {
    values.iter().all(|v| v.fract() == 0.0)
}

fn series(name: &str, color: usize, style: Style, points: Vec<(f64, f64)>) -> Series {
    Series {
        name: name.into(),
        color,
        style,
        points,
        band: vec![],
        whiskers: vec![],
    }
}

/// A dashed grey horizontal line at `y` across `x`.
fn reference(name: &str, x: (f64, f64), y: f64) -> Series {
    series(name, 6, Style::Dashed, vec![(x.0, y), (x.1, y)])
}

/// A 1-D sweep: P(A wins) against x with its 95 % band, exact values and the 50 % line; a
/// 2-D sweep: a heatmap of P(A wins) with the 50 % contour.
pub fn sweep(s: &SweepDoc) -> Option<Chart> {
    if s.points.is_empty() {
        return None;
    }
    let title = format!("{}: P(A wins), {}", s.name, s.matchup);
    if let Some(y) = &s.y {
        let nx = s.x.values.len();
        if nx == 0 || s.points.len() != nx * y.values.len() {
            return None;
        }
        let values: Vec<Vec<f64>> = s
            .points
            .chunks(nx)
            .map(|r| r.iter().map(|p| p.p_a_win.p).collect())
            .collect();
        return Some(Chart {
            title,
            width: 900,
            height: 640,
            plot: Plot::Heatmap(HeatmapPlot {
                x_desc: s.x.target.clone(),
                y_desc: y.target.clone(),
                x_labels: s.x.values.iter().map(|v| num(*v)).collect(),
                y_labels: y.values.iter().map(|v| num(*v)).collect(),
                first_row_on_top: false,
                cell_text: percent_text(&values),
                values,
                range: (0.0, 1.0),
                scale: ColorScale::Diverging { center: 0.5 },
                value_desc: "P(A wins)".into(),
                percent: true,
                contour: Some(0.5),
            }),
        });
    }
    let x_range = padded(s.points.iter().map(|p| p.x))?;
    let points: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.p_a_win.p)).collect();
    let mut mc = series("Monte Carlo, 95 % band", 0, Style::Line, points.clone());
    mc.band = s
        .points
        .iter()
        .map(|p| (p.x, p.p_a_win.lo, p.p_a_win.hi))
        .collect();
    let mut out = vec![reference("50 %", x_range, 0.5), mc];
    let exact: Vec<(f64, f64)> = s
        .points
        .iter()
        .filter_map(|p| p.exact_p_a_win.map(|e| (p.x, e)))
        .collect();
    if !exact.is_empty() {
        out.push(series("", 5, Style::Dashed, exact.clone()));
        out.push(series("exact", 5, Style::Points, exact));
    }
    Some(Chart {
        title,
        width: 1000,
        height: 520,
        plot: Plot::Xy(XyPlot {
            x_desc: s.x.target.clone(),
            y_desc: "P(A wins)".into(),
            x_range,
            y_range: (0.0, 1.0),
            y_percent: true,
            x_integer: whole(&s.x.values),
            series: out,
            legend: Corner::UpperLeft,
        }),
    })
}

/// The balance search: every evaluated value with its probability, the target line, and the
/// reported value(s) re-measured on fresh random numbers with 95 % whiskers.
pub fn balance(b: &BalanceDoc) -> Option<Chart> {
    let mut measured: Vec<&oddsmith_study::BalancePoint> = b.achieved.iter().collect();
    if let Some(br) = &b.bracket {
        measured.extend(br.iter());
    }
    let x_range = padded(
        b.evaluations
            .iter()
            .map(|e| e.value)
            .chain([b.range.0, b.range.1]),
    )?;
    let mut evals: Vec<(f64, f64)> = b.evaluations.iter().map(|e| (e.value, e.p)).collect();
    evals.sort_by(|a, c| a.0.total_cmp(&c.0));
    let mut out = vec![
        reference(
            &format!("target {} %", num(100.0 * b.target)),
            x_range,
            b.target,
        ),
        series("search evaluations", 0, Style::Points, evals),
    ];
    if !measured.is_empty() {
        let mut m = series(
            "re-measured, 95 % interval",
            5,
            Style::Points,
            measured
                .iter()
                .map(|p| (p.value, p.monte_carlo.p))
                .collect(),
        );
        m.whiskers = measured
            .iter()
            .map(|p| (p.value, p.monte_carlo.lo, p.monte_carlo.hi))
            .collect();
        out.push(m);
    }
    Some(Chart {
        title: format!("Balance: {} by {}", b.subject, b.field),
        width: 1000,
        height: 480,
        plot: Plot::Xy(XyPlot {
            x_desc: b.field.clone(),
            y_desc: "probability".into(),
            x_range,
            y_range: (0.0, 1.0),
            y_percent: true,
            x_integer: b.integer,
            series: out,
            legend: Corner::UpperLeft,
        }),
    })
}

/// The win matrix: P(row beats column), both seatings pooled, 50 % in the neutral colour.
pub fn tournament_matrix(t: &TournamentDoc) -> Chart {
    let values: Vec<Vec<f64>> = t
        .win
        .iter()
        .map(|r| r.iter().map(|e| e.map_or(f64::NAN, |e| e.p)).collect())
        .collect();
    let n = t.fighters.len() as u32;
    Chart {
        title: format!("{}: P(row beats column)", t.name),
        width: (520 + 70 * n).min(1400),
        height: (420 + 50 * n).min(1200),
        plot: Plot::Heatmap(HeatmapPlot {
            x_desc: "opponent".into(),
            y_desc: "fighter".into(),
            x_labels: t.fighters.clone(),
            y_labels: t.fighters.clone(),
            first_row_on_top: true,
            cell_text: percent_text(&values),
            values,
            range: (0.0, 1.0),
            scale: ColorScale::Diverging { center: 0.5 },
            value_desc: "P(row wins)".into(),
            percent: true,
            contour: None,
        }),
    }
}

/// P(win) against the field versus cost, each loadout labelled, with the fair line.
pub fn tournament_cost(t: &TournamentDoc) -> Option<Chart> {
    let c = t.costs.as_ref()?;
    let x_range = padded(c.points.iter().map(|p| p.cost))?;
    let fair = |x: f64| c.intercept + c.slope * x;
    let points: Vec<(f64, f64)> = c.points.iter().map(|p| (p.cost, p.win_rate.p)).collect();
    let mut dots = series("loadouts, 95 % intervals", 0, Style::Points, points);
    dots.whiskers = c
        .points
        .iter()
        .map(|p| (p.cost, p.win_rate.lo, p.win_rate.hi))
        .collect();
    let line = series(
        "fair line (least squares)",
        6,
        Style::Dashed,
        vec![(x_range.0, fair(x_range.0)), (x_range.1, fair(x_range.1))],
    );
    Some(Chart {
        title: format!("{}: P(win) against cost", t.name),
        width: 1000,
        height: 560,
        plot: Plot::LabelledXy(LabelledXy {
            xy: XyPlot {
                x_desc: format!("cost ({})", c.unit),
                y_desc: "P(win) against the field".into(),
                x_range,
                y_range: (0.0, 1.0),
                y_percent: true,
                x_integer: whole(&c.points.iter().map(|p| p.cost).collect::<Vec<_>>()),
                series: vec![line, dots],
                legend: Corner::UpperLeft,
            },
            labels: c
                .points
                .iter()
                .map(|p| PointLabel {
                    at: (p.cost, p.win_rate.p),
                    text: p.fighter.clone(),
                })
                .collect(),
        }),
    })
}

/// A check grid: when the row values are numbers, success curves over them (exact lines, Monte
/// Carlo dots with 95 % whiskers), one per column value; otherwise a heatmap of exact
/// P(success). `None` for a single check.
pub fn check(c: &CheckStudyDoc) -> Option<Chart> {
    if c.row_param.is_none() && c.col_param.is_none() {
        return None;
    }
    let (rows, cols) = check_axes(c);
    let row_name = c.row_param.clone().unwrap_or_default();
    let col_name = c.col_param.clone();
    let xs: Option<Vec<f64>> = rows
        .iter()
        .map(|r| r.as_deref().and_then(|v| v.trim().parse::<f64>().ok()))
        .collect();
    let title = format!("Check \"{}\"", c.name);
    if let Some(xs) = xs {
        let x_range = padded(xs.iter().copied())?;
        let mut out = Vec::new();
        for (k, col) in cols.iter().enumerate() {
            let cells: Vec<(f64, &oddsmith_study::CheckCellDoc)> = rows
                .iter()
                .zip(&xs)
                .filter_map(|(r, x)| {
                    c.cells
                        .iter()
                        .find(|cell| cell.row == *r && cell.col == *col)
                        .map(|cell| (*x, cell))
                })
                .collect();
            let name = match (&col_name, col) {
                (Some(n), Some(v)) => format!("{n} {v}"),
                _ => "exact".into(),
            };
            out.push(series(
                &name,
                k,
                Style::Line,
                cells.iter().map(|(x, cell)| (*x, cell.exact)).collect(),
            ));
            let mut mc = series(
                "",
                k,
                Style::Points,
                cells
                    .iter()
                    .map(|(x, cell)| (*x, cell.monte_carlo.p))
                    .collect(),
            );
            mc.whiskers = cells
                .iter()
                .map(|(x, cell)| (*x, cell.monte_carlo.lo, cell.monte_carlo.hi))
                .collect();
            out.push(mc);
        }
        return Some(Chart {
            title: format!("{title}: exact P(success) (lines), Monte Carlo (dots, 95 % whiskers)"),
            width: 1000,
            height: 560,
            plot: Plot::Xy(XyPlot {
                x_desc: row_name,
                y_desc: "P(success)".into(),
                x_range,
                // Headroom above 100 % keeps the legend off the curves.
                y_range: (0.0, 1.3),
                y_percent: true,
                x_integer: whole(&xs),
                series: out,
                legend: Corner::UpperLeft,
            }),
        });
    }
    let values: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| {
            cols.iter()
                .map(|k| {
                    c.cells
                        .iter()
                        .find(|cell| cell.row == *r && cell.col == *k)
                        .map_or(f64::NAN, |cell| cell.exact)
                })
                .collect()
        })
        .collect();
    Some(Chart {
        title: format!("{title}: exact P(success)"),
        width: 900,
        height: (360 + 40 * rows.len() as u32).min(1200),
        plot: Plot::Heatmap(HeatmapPlot {
            x_desc: col_name.unwrap_or_default(),
            y_desc: row_name,
            x_labels: cols
                .iter()
                .map(|v| v.clone().unwrap_or_else(|| "P(success)".into()))
                .collect(),
            y_labels: rows.iter().map(|v| v.clone().unwrap_or_default()).collect(),
            first_row_on_top: true,
            cell_text: percent_text(&values),
            values,
            range: (0.0, 1.0),
            scale: ColorScale::Sequential,
            value_desc: "P(success)".into(),
            percent: true,
            contour: None,
        }),
    })
}
