//! Check studies (`[[check]]`): a check's exact P(success) over one or two parameters beside
//! the Monte Carlo estimate — terminal grids, the `check_study` table, a chart per grid
//! (success curves, or a heatmap when the rows are not numbers) and a page section per check.

use std::fmt::Write;

use oddsmith_study::{CheckCellDoc, CheckStudyDoc};
#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::charts::{
    Chart, ColorScale, Corner, HeatmapPlot, Plot, Series, Style, XyPlot, all_whole, padded_range,
    percent_text,
};
use crate::format::{col_by, est, est_page, pct, percent, slug, thousands};
use crate::page::{Block, Section};

use super::subject::{NamedChart, NamedTable, Subject, grid, indexed, paragraph};

/// Every check of a study.
pub struct CheckStudies<'a>(pub Vec<&'a CheckStudyDoc>);

impl Subject for CheckStudies<'_> {
    fn text(&self) -> String {
        self.0
            .iter()
            .map(|c| paragraph(|s| check_text(s, c)))
            .collect()
    }

    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        Ok(vec![("check_study", check_study(&self.0)?)])
    }

    fn charts(&self) -> Vec<NamedChart> {
        indexed(&self.0, |i, c| Some((check_stem(i, c), check_chart(c)?)))
    }

    fn sections(&self) -> Vec<Section> {
        indexed(&self.0, |i, c| Some(check_section(i, c)))
    }
}

/// Stem of the chart of check `index` (0-based).
pub fn check_stem(index: usize, c: &CheckStudyDoc) -> String {
    format!("check-{}-{}", index + 1, slug(&c.name))
}

/// Row and column labels of a check study, in order of first appearance.
pub(crate) fn check_axes(c: &CheckStudyDoc) -> (Vec<Option<String>>, Vec<Option<String>>) {
    let mut rows: Vec<Option<String>> = vec![];
    let mut cols: Vec<Option<String>> = vec![];
    for cell in &c.cells {
        if !rows.contains(&cell.row) {
            rows.push(cell.row.clone());
        }
        if !cols.contains(&cell.col) {
            cols.push(cell.col.clone());
        }
    }
    (rows, cols)
}

fn check_text(s: &mut String, c: &CheckStudyDoc) {
    let params: Vec<String> = c.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(
        s,
        "Check \"{}\"{}",
        c.name,
        if params.is_empty() {
            String::new()
        } else {
            format!(" ({})", params.join(", "))
        }
    );
    if c.row_param.is_none() && c.col_param.is_none() {
        if let Some(cell) = c.cells.first() {
            let _ = writeln!(
                s,
                "  {}: exact {} % · Monte Carlo {} over {} rolls",
                cell.description,
                pct(cell.exact),
                est(&cell.monte_carlo),
                thousands(cell.monte_carlo.trials)
            );
        }
        return;
    }
    let (rows, cols) = check_axes(c);
    let corner = format!(
        "{} ↓ {} →",
        c.row_param.as_deref().unwrap_or("-"),
        c.col_param.as_deref().unwrap_or("-")
    );
    let col_names: Vec<String> = cols
        .iter()
        .map(|v| v.clone().unwrap_or_else(|| "P".into()))
        .collect();
    let cell = |r: &Option<String>, k: &Option<String>| {
        c.cells.iter().find(|x| x.row == *r && x.col == *k)
    };
    let body = |f: &dyn Fn(&CheckCellDoc) -> String| -> Vec<(String, Vec<String>)> {
        rows.iter()
            .map(|r| {
                (
                    r.clone().unwrap_or_default(),
                    cols.iter()
                        .map(|k| cell(r, k).map_or(String::new(), f))
                        .collect(),
                )
            })
            .collect()
    };
    let _ = writeln!(s, "  exact P(success) %:");
    grid(s, &corner, &col_names, &body(&|x| pct(x.exact)));
    let _ = writeln!(
        s,
        "  Monte Carlo P(success) % [95% CI], {} rolls per cell:",
        thousands(c.cells.first().map_or(0, |x| x.monte_carlo.trials))
    );
    grid(s, &corner, &col_names, &body(&|x| est(&x.monte_carlo)));
}

/// Every cell of every `[[check]]`: the check, the row and column parameter values, exact
/// P(success) and the Monte Carlo estimate with its interval.
#[cfg(feature = "tables")]
pub fn check_study(checks: &[&CheckStudyDoc]) -> PolarsResult<DataFrame> {
    let rows: Vec<(&CheckStudyDoc, &CheckCellDoc)> = checks
        .iter()
        .flat_map(|c| c.cells.iter().map(move |x| (*c, x)))
        .collect();
    DataFrame::new_infer_height(vec![
        col_by("check", &rows, |r| r.0.name.as_str()),
        col_by("row_param", &rows, |r| r.0.row_param.as_deref()),
        col_by("row", &rows, |r| r.1.row.as_deref()),
        col_by("col_param", &rows, |r| r.0.col_param.as_deref()),
        col_by("col", &rows, |r| r.1.col.as_deref()),
        col_by("description", &rows, |r| r.1.description.as_str()),
        col_by("exact_p_success", &rows, |r| r.1.exact),
        col_by("mc_p_success", &rows, |r| r.1.monte_carlo.p),
        col_by("mc_p_success_lo", &rows, |r| r.1.monte_carlo.lo),
        col_by("mc_p_success_hi", &rows, |r| r.1.monte_carlo.hi),
        col_by("mc_trials", &rows, |r| r.1.monte_carlo.trials),
    ])
}

/// A check grid: when the row values are numbers, success curves over them (exact lines, Monte
/// Carlo dots with 95 % whiskers), one per column value; otherwise a heatmap of exact
/// P(success). `None` for a single check.
pub fn check_chart(c: &CheckStudyDoc) -> Option<Chart> {
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
        let x_range = padded_range(xs.iter().copied())?;
        let mut out = Vec::new();
        for (k, col) in cols.iter().enumerate() {
            let cells: Vec<(f64, &CheckCellDoc)> = rows
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
            out.push(Series::new(
                &name,
                k,
                Style::Line,
                cells.iter().map(|(x, cell)| (*x, cell.exact)).collect(),
            ));
            let mut mc = Series::new(
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
                y_range: (0.0, 1.0),
                y_percent: true,
                x_integer: all_whole(&xs),
                series: out,
                legend: Corner::Right,
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

fn check_section(i: usize, c: &CheckStudyDoc) -> Section {
    let params: Vec<String> = c.params.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    let mut blocks = vec![Block::Note(format!(
        "Exact P(success), the Monte Carlo estimate with its 95 % interval in brackets{}.",
        if params.is_empty() {
            String::new()
        } else {
            format!("; fixed: {}", params.join(", "))
        }
    ))];
    let (rows, cols) = check_axes(c);
    let corner = match (&c.row_param, &c.col_param) {
        (Some(r), Some(k)) => format!("{r} ↓ {k} →"),
        (Some(r), None) => r.clone(),
        (None, Some(k)) => k.clone(),
        (None, None) => "check".into(),
    };
    let head = std::iter::once(corner)
        .chain(
            cols.iter()
                .map(|k| k.clone().unwrap_or_else(|| "P(success)".into())),
        )
        .collect();
    let body = rows
        .iter()
        .map(|r| {
            std::iter::once(r.clone().unwrap_or_else(|| {
                c.cells
                    .first()
                    .map_or(String::new(), |x| x.description.clone())
            }))
            .chain(cols.iter().map(|k| {
                c.cells
                    .iter()
                    .find(|x| x.row == *r && x.col == *k)
                    .map_or(String::new(), |x| {
                        format!("{} ({})", percent(x.exact), est_page(&x.monte_carlo))
                    })
            }))
            .collect()
        })
        .collect();
    blocks.push(Block::table(head, body));
    if c.row_param.is_some() || c.col_param.is_some() {
        blocks.push(Block::Chart(check_stem(i, c)));
    }
    Section::new(format!("Check: {}", c.name), blocks)
}
