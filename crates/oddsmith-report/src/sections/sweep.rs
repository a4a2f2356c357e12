//! Sweeps: P(A wins) as one or two fields change, every point on the same random numbers,
//! with the paired steps between neighbouring values — terminal text, the `sweep_points` and
//! `sweep_steps` tables, one chart per sweep (a band over x, or a heatmap over x and y) and
//! one page section per sweep.

use std::fmt::Write;

use oddsmith_study::{AxisDoc, StepDoc, SweepDoc, SweepPoint};
#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::charts::{
    Chart, Corner, HeatmapPlot, IntervalPlot, Plot, Series, Style, XyPlot, all_whole, padded_range,
};
use crate::format::{
    col_by, est, est_page, num, p_value, pct, percent, percent_exact, points, signed_points, slug,
    thousands,
};
use crate::page::{Block, Section, head};

use super::subject::{NamedChart, NamedTable, Subject, grid, indexed, paragraph};

/// Every sweep of a study.
pub struct Sweeps<'a>(pub Vec<&'a SweepDoc>);

impl Subject for Sweeps<'_> {
    fn text(&self) -> String {
        let text = |(i, sw): (usize, &&SweepDoc)| paragraph(|s| sweep_text(s, i, sw));
        self.0.iter().enumerate().map(text).collect()
    }

    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        let mut v = vec![("sweep_points", sweep_points(&self.0)?)];
        if self.0.iter().any(|w| !w.steps.is_empty()) {
            v.push(("sweep_steps", sweep_steps(&self.0)?));
        }
        Ok(v)
    }

    fn charts(&self) -> Vec<NamedChart> {
        indexed(&self.0, |i, sw| Some((sweep_stem(i, sw), sweep_chart(sw)?)))
    }

    fn sections(&self) -> Vec<Section> {
        indexed(&self.0, |i, sw| Some(sweep_section(i, sw)))
    }
}

/// Stem of the chart of sweep `index` (0-based).
pub fn sweep_stem(index: usize, s: &SweepDoc) -> String {
    format!("sweep-{}-{}", index + 1, slug(&s.name))
}

/// A value of an axis as shown: the text as written for an axis of text or `true`/`false`
/// values, else the number.
fn axis_text(a: &AxisDoc, v: f64) -> String {
    a.label(v).map_or_else(|| num(v), str::to_string)
}

/// A point's y as shown (empty without a y axis).
fn y_text(sw: &SweepDoc, y: Option<f64>) -> String {
    match (&sw.y, y) {
        (Some(a), Some(v)) => axis_text(a, v),
        _ => String::new(),
    }
}

fn sweep_text(s: &mut String, i: usize, sw: &SweepDoc) {
    let axes = match &sw.y {
        Some(y) => format!("x = {}, y = {}", sw.x.target, y.target),
        None => format!("x = {}", sw.x.target),
    };
    let _ = writeln!(
        s,
        "Sweep {} \"{}\": {} · {axes} · {} duels per point",
        i + 1,
        sw.name,
        sw.matchup,
        thousands(sw.trials)
    );
    if let Some(g) = Grid::of(sw) {
        grid_text(s, sw, &g);
        return;
    }
    let two = sw.y.is_some();
    let (xw, yw) = (
        sw.points
            .iter()
            .map(|p| axis_text(&sw.x, p.x).chars().count())
            .max()
            .unwrap_or(1)
            .max(6),
        sw.points
            .iter()
            .map(|p| y_text(sw, p.y).chars().count().max(1))
            .max()
            .unwrap_or(1)
            .max(6),
    );
    let y_head = if two {
        format!("  {:>yw$}", "y")
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "  {:>xw$}{y_head}  {:<23}  {:>8}  {:>7}  {:>7}  {:>6}",
        "x", "P(A wins) % [95% CI]", "exact A%", "P(B) %", "draw %", "rounds"
    );
    for p in &sw.points {
        let y = match p.y {
            Some(y) if two => format!("  {:>yw$}", y_text(sw, Some(y))),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "  {:>xw$}{y}  {:<23}  {:>8}  {:>7}  {:>7}  {:>6.2}",
            axis_text(&sw.x, p.x),
            est(&p.p_a_win),
            p.exact_p_a_win.map_or("—".into(), pct),
            pct(p.p_b_win),
            pct(p.p_draw),
            p.rounds_mean
        );
    }
    if sw.steps.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "  steps, paired on common random numbers (change of P(A wins), percentage points):"
    );
    let exact = sw.steps.iter().any(|st| st.exact_diff.is_some());
    let exact_head = if exact {
        format!("  {:>8}", "exact Δ")
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "  {:>15}{y_head}  {:<24}  {:>8}  {:>8}  {:>10}{exact_head}",
        "x from → to", "ΔP(A wins) [95% CI]", "p-value", "paired ±", "unpaired ±"
    );
    for st in &sw.steps {
        let y = match st.y {
            Some(y) if two => format!("  {:>yw$}", y_text(sw, Some(y))),
            _ => String::new(),
        };
        let d = &st.diff;
        let exact = if exact {
            format!(
                "  {:>8}",
                st.exact_diff
                    .map_or("—".into(), |e| format!("{:+.2}", 100.0 * e))
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "  {:>15}{y}  {:<24}  {:>8}  {:>8.2}  {:>10.2}{exact}",
            format!(
                "{} → {}",
                axis_text(&sw.x, st.from),
                axis_text(&sw.x, st.to)
            ),
            points(d.diff, d.lo, d.hi),
            p_value(d.p_value),
            100.0 * (d.hi - d.lo) / 2.0,
            100.0 * st.unpaired_half_width
        );
    }
}

/// A 2-D sweep laid out as a grid: one row per y value (the highest on top, as in the
/// chart), one column per x value.
struct Grid<'a> {
    /// The y axis.
    y: &'a AxisDoc,
    /// `points[r][c]`: the point at y value `r` (bottom first) and x value `c`.
    points: Vec<Vec<&'a SweepPoint>>,
}

impl<'a> Grid<'a> {
    /// The grid of a 2-D sweep whose points cover every (x, y) pair in order; `None` for a
    /// 1-D sweep.
    fn of(sw: &'a SweepDoc) -> Option<Grid<'a>> {
        let y = sw.y.as_ref()?;
        let nx = sw.x.values.len();
        if nx == 0 || sw.points.len() != nx * y.values.len() {
            return None;
        }
        Some(Grid {
            y,
            points: sw.points.chunks(nx).map(|r| r.iter().collect()).collect(),
        })
    }

    /// Rows top to bottom (highest y first), each labelled with its y value and holding
    /// `cell` of each point.
    fn rows(&self, cell: impl Fn(&SweepPoint) -> String) -> Vec<(String, Vec<String>)> {
        self.points
            .iter()
            .zip(&self.y.values)
            .rev()
            .map(|(r, &y)| (axis_text(self.y, y), r.iter().map(|p| cell(p)).collect()))
            .collect()
    }

    /// The steps along x of the row at y value `y`, in order.
    fn steps_at(sw: &'a SweepDoc, y: f64) -> Vec<&'a StepDoc> {
        sw.steps.iter().filter(|st| st.y == Some(y)).collect()
    }
}

/// A 2-D sweep in the terminal: P(A wins) as a grid (y down, x across), then the paired
/// steps along x as a grid.
fn grid_text(s: &mut String, sw: &SweepDoc, g: &Grid<'_>) {
    let exact = sw.points.iter().any(|p| p.exact_p_a_win.is_some());
    let _ = writeln!(
        s,
        "  P(A wins) %{} — rows: {}, columns: {}",
        if exact {
            ", Monte Carlo (exact)"
        } else {
            ", Monte Carlo"
        },
        g.y.target,
        sw.x.target
    );
    let cols: Vec<String> = sw.x.values.iter().map(|v| axis_text(&sw.x, *v)).collect();
    let rows = g.rows(|p| match p.exact_p_a_win {
        Some(e) => format!("{} ({})", pct(p.p_a_win.p), pct(e)),
        None => pct(p.p_a_win.p),
    });
    grid(s, &format!("{} ↓", g.y.target), &cols, &rows);
    if sw.steps.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "  paired steps along {} (change of P(A wins), points{}; * = a real change):",
        sw.x.target,
        if exact { ", exact where known" } else { "" }
    );
    let step_cols: Vec<String> =
        sw.x.values
            .windows(2)
            .map(|w| format!("{}→{}", axis_text(&sw.x, w[0]), axis_text(&sw.x, w[1])))
            .collect();
    let step_rows: Vec<(String, Vec<String>)> =
        g.y.values
            .iter()
            .rev()
            .map(|&y| {
                let cells = Grid::steps_at(sw, y)
                    .iter()
                    .map(|st| {
                        let real = st.is_real();
                        format!(
                            "{:+.2}{}",
                            100.0 * st.spoken().value(),
                            if real { "*" } else { " " }
                        )
                    })
                    .collect();
                (axis_text(g.y, y), cells)
            })
            .collect();
    grid(s, &format!("{} ↓", g.y.target), &step_cols, &step_rows);
}

/// Rows of one kind (points or steps) of every sweep, with the sweep's 1-based index.
fn sweep_rows<'a, T>(
    sweeps: &[&'a SweepDoc],
    of: impl Fn(&'a SweepDoc) -> &'a [T],
) -> Vec<(u32, &'a SweepDoc, &'a T)> {
    let mut rows = Vec::new();
    for (i, w) in sweeps.iter().enumerate() {
        rows.extend(of(w).iter().map(|p| (i as u32 + 1, *w, p)));
    }
    rows
}

/// Whether some sweep has an axis of text or `true`/`false` values (the tables then carry
/// the values as written beside their positions).
fn any_labels(sweeps: &[&SweepDoc]) -> bool {
    sweeps
        .iter()
        .any(|w| !w.x.is_numeric() || w.y.as_ref().is_some_and(|y| !y.is_numeric()))
}

/// A value of an axis as written, for the tables: `None` on a numeric axis.
fn label_of(a: Option<&AxisDoc>, v: Option<f64>) -> Option<String> {
    a?.label(v?).map(str::to_string)
}

/// One row per sweep point: the sweep (1-based index and name), the swept values, P(A wins)
/// with its 95 % interval, the exact value where known, P(B wins), P(draw), mean rounds.
/// Where some sweep's axis holds text or `true`/`false`, `x` and `y` are positions on that
/// axis and `x_value`/`y_value` the values as written.
#[cfg(feature = "tables")]
pub fn sweep_points(sweeps: &[&SweepDoc]) -> PolarsResult<DataFrame> {
    let rows = sweep_rows(sweeps, |w| &w.points);
    let mut cols = vec![
        col_by("sweep_index", &rows, |r| r.0),
        col_by("sweep", &rows, |r| r.1.name.as_str()),
        col_by("matchup", &rows, |r| r.1.matchup.as_str()),
        col_by("x_target", &rows, |r| r.1.x.target.as_str()),
        col_by("x", &rows, |r| r.2.x),
    ];
    let labels = any_labels(sweeps);
    if labels {
        cols.push(col_by("x_value", &rows, |r| {
            label_of(Some(&r.1.x), Some(r.2.x))
        }));
    }
    cols.extend([
        col_by("y_target", &rows, |r| {
            r.1.y.as_ref().map(|a| a.target.as_str())
        }),
        col_by("y", &rows, |r| r.2.y),
    ]);
    if labels {
        cols.push(col_by("y_value", &rows, |r| {
            label_of(r.1.y.as_ref(), r.2.y)
        }));
    }
    cols.extend([
        col_by("p_a_win", &rows, |r| r.2.p_a_win.p),
        col_by("p_a_win_lo", &rows, |r| r.2.p_a_win.lo),
        col_by("p_a_win_hi", &rows, |r| r.2.p_a_win.hi),
        col_by("exact_p_a_win", &rows, |r| r.2.exact_p_a_win),
        col_by("p_b_win", &rows, |r| r.2.p_b_win),
        col_by("p_draw", &rows, |r| r.2.p_draw),
        col_by("rounds_mean", &rows, |r| r.2.rounds_mean),
        col_by("trials", &rows, |r| r.2.p_a_win.trials),
    ]);
    DataFrame::new_infer_height(cols)
}

/// One row per paired step between neighbouring x values: the change of P(A wins) with its
/// paired 95 % interval, the test, and the half-width an unpaired comparison would have had.
/// With text or `true`/`false` axes, `y_value`, `x_from_value` and `x_to_value` give the values
/// as written.
#[cfg(feature = "tables")]
pub fn sweep_steps(sweeps: &[&SweepDoc]) -> PolarsResult<DataFrame> {
    let rows = sweep_rows(sweeps, |w| &w.steps);
    let mut cols = vec![
        col_by("sweep_index", &rows, |r| r.0),
        col_by("sweep", &rows, |r| r.1.name.as_str()),
        col_by("y", &rows, |r| r.2.y),
        col_by("x_from", &rows, |r| r.2.from),
        col_by("x_to", &rows, |r| r.2.to),
    ];
    if any_labels(sweeps) {
        cols.extend([
            col_by("y_value", &rows, |r| label_of(r.1.y.as_ref(), r.2.y)),
            col_by("x_from_value", &rows, |r| {
                label_of(Some(&r.1.x), Some(r.2.from))
            }),
            col_by("x_to_value", &rows, |r| {
                label_of(Some(&r.1.x), Some(r.2.to))
            }),
        ]);
    }
    cols.extend([
        col_by("diff_p_a_win", &rows, |r| r.2.diff.diff),
        col_by("diff_lo", &rows, |r| r.2.diff.lo),
        col_by("diff_hi", &rows, |r| r.2.diff.hi),
        col_by("z", &rows, |r| r.2.diff.z),
        col_by("p_value", &rows, |r| r.2.diff.p_value),
        col_by("paired_half_width", &rows, |r| {
            (r.2.diff.hi - r.2.diff.lo) / 2.0
        }),
        col_by("unpaired_half_width", &rows, |r| r.2.unpaired_half_width),
        col_by("exact_diff", &rows, |r| r.2.exact_diff),
    ]);
    DataFrame::new_infer_height(cols)
}

/// A 1-D sweep: P(A wins) against x with its 95 % band, exact values and the 50 % line; a
/// 2-D sweep: a heatmap of P(A wins) with the 50 % contour.
pub fn sweep_chart(s: &SweepDoc) -> Option<Chart> {
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
            .map(|r| r.iter().map(|p| p.spoken().value()).collect())
            .collect();
        return Some(Chart {
            title,
            width: 900,
            height: 640,
            plot: Plot::Heatmap(HeatmapPlot {
                contour: Some(0.5),
                ..HeatmapPlot::probabilities(
                    (s.x.target.clone(), y.target.clone()),
                    (
                        s.x.values.iter().map(|v| axis_text(&s.x, *v)).collect(),
                        y.values.iter().map(|v| axis_text(y, *v)).collect(),
                    ),
                    values,
                    "P(A wins)",
                )
            }),
        });
    }
    if !s.x.is_numeric() {
        // Values without an order between them (text, true/false): one bar per value.
        return Some(Chart {
            title,
            width: 1000,
            height: (170 + 60 * s.points.len() as u32).min(1400),
            plot: Plot::Intervals(IntervalPlot {
                value_desc: format!("P(A wins), by {}", s.x.target),
                categories: s.points.iter().map(|p| axis_text(&s.x, p.x)).collect(),
                values: s
                    .points
                    .iter()
                    .map(|p| (p.p_a_win.p, p.p_a_win.lo, p.p_a_win.hi))
                    .collect(),
                exact: s.points.iter().map(|p| p.exact_p_a_win).collect(),
                range: (0.0, 1.0),
                reference: Some(0.5),
                percent: true,
            }),
        });
    }
    let x_range = padded_range(s.points.iter().map(|p| p.x))?;
    let points: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.p_a_win.p)).collect();
    let mut mc = Series::new("Monte Carlo, 95 % band", 0, Style::Line, points.clone());
    mc.band = s
        .points
        .iter()
        .map(|p| (p.x, p.p_a_win.lo, p.p_a_win.hi))
        .collect();
    let mut out = vec![Series::reference("50 %", x_range, 0.5), mc];
    let exact: Vec<(f64, f64)> = s
        .points
        .iter()
        .filter_map(|p| p.exact_p_a_win.map(|e| (p.x, e)))
        .collect();
    if !exact.is_empty() {
        out.push(Series::new("", 5, Style::Dashed, exact.clone()));
        out.push(Series::new("exact", 5, Style::Points, exact));
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
            x_integer: all_whole(&s.x.values),
            series: out,
            legend: Corner::Right,
        }),
    })
}

/// [`sweep_chart`] with point `at` (an index into `s.points`) marked: a black point on a 1-D
/// curve, the value and the category label framed by » « on a heatmap or a bar chart. For the
/// explorer's slider; `None` where the chart is or `at` is out of range.
pub fn sweep_chart_at(s: &SweepDoc, at: usize) -> Option<Chart> {
    let p = s.points.get(at)?;
    let mut c = sweep_chart(s)?;
    let framed = |t: &str| format!("» {t} «");
    match &mut c.plot {
        Plot::Xy(xy) => {
            let label = format!("{} = {}", s.x.target, axis_text(&s.x, p.x));
            xy.series.push(Series::new(
                &label,
                7,
                Style::Points,
                vec![(p.x, p.p_a_win.p)],
            ));
        }
        Plot::Heatmap(h) => {
            let nx = s.x.values.len();
            let (row, col) = (at / nx, at % nx);
            if let Some(t) = h.cell_text.get_mut(row).and_then(|r| r.get_mut(col)) {
                *t = framed(t);
            }
            if let Some(t) = h.x_labels.get_mut(col) {
                *t = framed(t);
            }
            if let Some(t) = h.y_labels.get_mut(row) {
                *t = framed(t);
            }
        }
        Plot::Intervals(iv) => {
            if let Some(t) = iv.categories.get_mut(at) {
                *t = framed(t);
            }
        }
        Plot::LabelledXy(_) | Plot::Row(_) => {}
    }
    Some(c)
}

/// Table columns: `first`, then the y axis of a 2-D sweep, then `rest`.
fn with_y(sw: &SweepDoc, first: String, rest: Vec<String>) -> Vec<String> {
    let mut v = vec![first];
    v.extend(sw.y.iter().map(|y| y.target.clone()));
    v.extend(rest);
    v
}

fn sweep_section(i: usize, sw: &SweepDoc) -> Section {
    let two = sw.y.is_some();
    let columns = with_y(
        sw,
        sw.x.target.clone(),
        head([
            "P(A wins) [95 % CI]",
            "exact P(A wins)",
            "P(B wins)",
            "P(draw)",
            "rounds (mean)",
        ]),
    );
    let rows = sw
        .points
        .iter()
        .map(|p| {
            let mut r = vec![axis_text(&sw.x, p.x)];
            if two {
                r.push(y_text(sw, p.y));
            }
            r.extend([
                est_page(&p.p_a_win),
                p.exact_p_a_win.map_or("—".into(), percent_exact),
                percent(p.p_b_win),
                percent(p.p_draw),
                format!("{:.2}", p.rounds_mean),
            ]);
            r
        })
        .collect();
    // A 2-D sweep: the grid first (y down, x across), the full list folded away.
    let (before_chart, after_chart) = match Grid::of(sw) {
        Some(g) => {
            let mut head = vec![format!("{} ↓ / {} →", g.y.target, sw.x.target)];
            head.extend(sw.x.values.iter().map(|v| axis_text(&sw.x, *v)));
            let grid_rows = g
                .rows(|p| est_page(&p.p_a_win))
                .into_iter()
                .map(|(label, cells)| std::iter::once(label).chain(cells).collect())
                .collect();
            let list = Block::Details {
                summary: "Every point with its exact value, P(B wins), P(draw) and rounds".into(),
                blocks: vec![Block::table(columns, rows)],
            };
            (vec![Block::table(head, grid_rows)], vec![list])
        }
        None => (vec![Block::table(columns, rows)], vec![]),
    };
    let mut blocks = vec![Block::Note(format!(
        "P(A wins) for {} (A = first fighter) as {} changes{}; {} duels per point, every point on the same random numbers.{}",
        sw.matchup,
        sw.x.target,
        sw.y.as_ref()
            .map_or(String::new(), |y| format!(" along with {}", y.target)),
        thousands(sw.trials),
        if two {
            " In the chart, the line marks where the fight is even (50 %)."
        } else if !sw.x.is_numeric() {
            " The chart shows each value's 95 % interval; the dashed line marks an even fight (50 %)."
        } else {
            " The shaded band is the 95 % interval; the dashed line marks an even fight (50 %)."
        }
    ))];
    blocks.extend(before_chart);
    blocks.push(Block::Chart(sweep_stem(i, sw)));
    blocks.extend(after_chart);
    if !sw.steps.is_empty() {
        let exact = sw.steps.iter().any(|st| st.exact_diff.is_some());
        let mut names = head([
            "change of P(A wins), points [95 % CI]",
            "p-value",
            "± paired",
            "± independent runs",
        ]);
        if exact {
            names.push("exact change, points".into());
        }
        let columns = with_y(sw, "step".into(), names);
        let rows = sw
            .steps
            .iter()
            .map(|st| {
                let d = &st.diff;
                let mut r = vec![format!(
                    "{} → {}",
                    axis_text(&sw.x, st.from),
                    axis_text(&sw.x, st.to)
                )];
                if two {
                    r.push(y_text(sw, st.y));
                }
                r.extend([
                    points(d.diff, d.lo, d.hi),
                    p_value(d.p_value),
                    format!("{:.2}", 100.0 * (d.hi - d.lo) / 2.0),
                    format!("{:.2}", 100.0 * st.unpaired_half_width),
                ]);
                if exact {
                    r.push(st.exact_diff.map_or("—".into(), signed_points));
                }
                r
            })
            .collect();
        blocks.push(Block::Heading("Steps between neighbouring values".into()));
        blocks.push(Block::Note(if exact {
            "Neighbouring points share their random numbers, so a step's interval is narrower than an independent run's (shown beside it). \
             Where both points are solved exactly, the exact change speaks: it is a real change when it is not zero, and the paired \
             Monte Carlo change is its check."
                .into()
        } else {
            "Neighbouring points share their random numbers, so a step's interval is narrower than an independent run's (shown beside it). \
             A step whose interval excludes 0 is a real change."
                .into()
        }));
        blocks.push(Block::table(columns, rows));
    }
    Section::new(format!("Sweep {}: {}", i + 1, sw.name), blocks)
}
