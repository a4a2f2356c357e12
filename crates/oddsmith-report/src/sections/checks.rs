//! The ruleset's check grid (e.g. skill × difficulty): exact P(success) beside the Monte
//! Carlo estimate, as the `checks` table, a chart of success curves and the Checks section;
//! and the terminal table of `oddsmith check` ([`check_table`]).

use std::fmt::Write;

#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::charts::{Chart, Corner, Plot, Series, Style, XyPlot};
use crate::format::{col, thousands};
use crate::model::{CheckDoc, CheckGridData, ReportData};
use crate::page::{Block, Section};

use super::subject::{NamedChart, NamedTable, Place, Subject};

/// The run's check grid, if the ruleset has one.
pub struct Checks<'a>(pub &'a ReportData);

impl Subject for Checks<'_> {
    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        Ok(checks(self.0)?.map(|c| ("checks", c)).into_iter().collect())
    }

    fn charts(&self) -> Vec<NamedChart> {
        self.0
            .checks
            .as_ref()
            .map(|g| ("checks".to_string(), checks_chart(g)))
            .into_iter()
            .collect()
    }

    fn place(&self) -> Place {
        Place::AfterCharts
    }

    fn sections(&self) -> Vec<Section> {
        let Some((head, body)) = check_grid(self.0) else {
            return Vec::new();
        };
        vec![Section::new(
            "Checks",
            vec![
                Block::Note("Exact P(success), Monte Carlo estimate in brackets.".into()),
                Block::table(head, body),
            ],
        )]
    }
}

/// The columns of a grid (label and value), in order of first appearance.
fn columns(g: &CheckGridData) -> Vec<(&str, i64)> {
    let mut cols: Vec<(&str, i64)> = vec![];
    for c in &g.cells {
        if !cols.iter().any(|(n, _)| *n == c.col) {
            cols.push((&c.col, c.col_value));
        }
    }
    cols
}

/// Check grid as rows of cells "exact (Monte Carlo)".
fn check_grid(d: &ReportData) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    let g = d.checks.as_ref()?;
    let cols = columns(g);
    let mut rows: Vec<i64> = g.cells.iter().map(|c| c.row).collect();
    rows.dedup();
    let head = std::iter::once(g.row_name.clone())
        .chain(
            cols.iter()
                .map(|(n, v)| format!("{n} ({} {v})", g.col_value_name.to_uppercase())),
        )
        .collect();
    let body = rows
        .iter()
        .map(|r| {
            std::iter::once(r.to_string())
                .chain(cols.iter().map(|(n, _)| {
                    g.cells
                        .iter()
                        .find(|c| c.row == *r && c.col == *n)
                        .map_or(String::new(), |c| {
                            format!("{:.3} ({:.3})", c.exact, c.mc.p())
                        })
                }))
                .collect()
        })
        .collect();
    Some((head, body))
}

/// The check grid: exact P(success) and the Monte Carlo estimate with its interval.
#[cfg(feature = "tables")]
pub fn checks(d: &ReportData) -> PolarsResult<Option<DataFrame>> {
    let Some(g) = &d.checks else { return Ok(None) };
    let cells = &g.cells;
    // A ruleset may name the column label and its value alike (d20: "defense").
    let value_name = if g.col_value_name == g.col_name {
        format!("{}_value", g.col_value_name)
    } else {
        g.col_value_name.clone()
    };
    let df = DataFrame::new_infer_height(vec![
        col(&g.row_name, cells.iter().map(|c| c.row).collect::<Vec<_>>()),
        col(
            &g.col_name,
            cells.iter().map(|c| c.col.as_str()).collect::<Vec<_>>(),
        ),
        col(
            &value_name,
            cells.iter().map(|c| c.col_value).collect::<Vec<_>>(),
        ),
        col(
            "exact_p_success",
            cells.iter().map(|c| c.exact).collect::<Vec<_>>(),
        ),
        col(
            "mc_trials",
            cells.iter().map(|c| c.mc.trials).collect::<Vec<_>>(),
        ),
        col(
            "mc_p_success",
            cells.iter().map(|c| c.mc.p()).collect::<Vec<_>>(),
        ),
        col(
            "mc_p_success_lo",
            cells.iter().map(|c| c.mc.wilson95().0).collect::<Vec<_>>(),
        ),
        col(
            "mc_p_success_hi",
            cells.iter().map(|c| c.mc.wilson95().1).collect::<Vec<_>>(),
        ),
    ])?;
    Ok(Some(df))
}

/// Check success across skill, one line per difficulty (exact lines, Monte Carlo points
/// with 95 % whiskers).
pub fn checks_chart(g: &CheckGridData) -> Chart {
    let cols = columns(g);
    let (lo, hi) = g.cells.iter().fold((i64::MAX, i64::MIN), |(l, h), c| {
        (l.min(c.row), h.max(c.row))
    });
    let mut series = vec![];
    for (k, (col, value)) in cols.iter().enumerate() {
        let cells: Vec<_> = g.cells.iter().filter(|c| c.col == *col).collect();
        series.push(Series::new(
            &format!("{col} ({} {value})", g.col_value_name.to_uppercase()),
            k,
            Style::Line,
            cells.iter().map(|c| (c.row as f64, c.exact)).collect(),
        ));
        let mut mc = Series::new(
            "",
            k,
            Style::Points,
            cells.iter().map(|c| (c.row as f64, c.mc.p())).collect(),
        );
        mc.whiskers = cells
            .iter()
            .map(|c| {
                let (l, h) = c.mc.wilson95();
                (c.row as f64, l, h)
            })
            .collect();
        series.push(mc);
    }
    Chart {
        title: format!(
            "Check success by {} and {}: exact (lines), Monte Carlo (dots, 95 % whiskers)",
            g.row_name, g.col_name
        ),
        width: 1100,
        height: 720,
        plot: Plot::Xy(XyPlot {
            x_desc: format!("{} (effective value after modifiers)", g.row_name),
            y_desc: "P(success)".into(),
            x_range: (lo as f64 - 0.3, hi as f64 + 0.3),
            y_range: (0.0, 1.0),
            y_percent: true,
            x_integer: true,
            series,
            legend: Corner::Right,
        }),
    }
}
/// The table of a check: exact and Monte Carlo side by side.
pub fn check_table(d: &CheckDoc) -> String {
    let mut s = String::new();
    let e = &d.exact;
    let m = &d.monte_carlo;
    let _ = writeln!(s, "{} check: {}", d.ruleset, d.description);
    let _ = writeln!(
        s,
        "P(success): exact {:.6} ({}/{}) · Monte Carlo {:.6} [{:.6} {:.6}] over {} rolls ({:+.2} SE)",
        e.p_success,
        e.p_success_fraction[0],
        e.p_success_fraction[1],
        m.p_success,
        m.p_success_ci95[0],
        m.p_success_ci95[1],
        thousands(m.trials),
        m.z
    );
    for b in &e.bands {
        // Band probabilities are differences of sums: clamp rounding noise such as -1e-17.
        let _ = writeln!(s, "  {:<13} {:.6}", b.name, b.p.max(0.0));
    }
    let _ = writeln!(s, "{:>6}  {:>9}  {:>11}", "value", "exact", "Monte Carlo");
    for ((v, p), (_, f)) in e.distribution.iter().zip(&m.distribution) {
        let _ = writeln!(s, "{v:>6}  {p:>9.6}  {f:>11.6}");
    }
    s
}
