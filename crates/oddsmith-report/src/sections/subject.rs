//! What a report subject is ([`Subject`]: terminal text, tables, charts, page sections) and
//! the small helpers subjects share (terminal grid, paragraphs, per-item lists).

use std::fmt::Write as _;

#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::charts::Chart;
use crate::format::fit;
use crate::page::{Block, Section};

/// Widest line the terminal tables aim for.
pub(crate) const WIDTH: usize = 100;

/// A grid with a label column: the columns are split into blocks so that no line is wider
/// than [`WIDTH`].
pub(crate) fn grid(s: &mut String, corner: &str, cols: &[String], rows: &[(String, Vec<String>)]) {
    let lw = rows
        .iter()
        .map(|r| r.0.chars().count())
        .chain([corner.chars().count()])
        .max()
        .unwrap_or(0)
        .min(24);
    let cw = cols
        .iter()
        .map(|c| c.chars().count())
        .chain(
            rows.iter()
                .flat_map(|r| r.1.iter().map(|c| c.chars().count())),
        )
        .max()
        .unwrap_or(1);
    let per = ((WIDTH.saturating_sub(2 + lw)) / (cw + 2)).max(1);
    let mut start = 0;
    while start < cols.len() {
        let end = (start + per).min(cols.len());
        let mut line = format!("  {:lw$}", fit(corner, lw));
        for c in &cols[start..end] {
            let _ = write!(line, "  {c:>cw$}");
        }
        let _ = writeln!(s, "{}", line.trim_end());
        for (label, cells) in rows {
            let mut line = format!("  {:lw$}", fit(label, lw));
            for c in &cells[start..end] {
                let _ = write!(line, "  {c:>cw$}");
            }
            let _ = writeln!(s, "{}", line.trim_end());
        }
        start = end;
    }
}

/// A terminal table whose every column is as wide as its widest cell: `heads` names the
/// columns and says which are right-aligned (numbers); two spaces between columns; no
/// trailing spaces.
pub(crate) fn aligned(s: &mut String, heads: &[(&str, bool)], rows: &[Vec<String>]) {
    let widths: Vec<usize> = heads
        .iter()
        .enumerate()
        .map(|(k, (h, _))| {
            rows.iter()
                .filter_map(|r| r.get(k))
                .map(|c| c.chars().count())
                .chain([h.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut l = String::from(" ");
        for ((c, (_, right)), w) in cells.zip(heads).zip(&widths) {
            if *right {
                let _ = write!(l, " {c:>w$} ");
            } else {
                let _ = write!(l, " {c:<w$} ");
            }
        }
        l.trim_end().to_string()
    };
    let _ = writeln!(s, "{}", line(&mut heads.iter().map(|h| h.0)));
    for r in rows {
        let _ = writeln!(s, "{}", line(&mut r.iter().map(String::as_str)));
    }
}

/// `f` of each item with its index, where it gives something (a chart, a section).
pub(crate) fn indexed<T, O>(items: &[T], f: impl Fn(usize, &T) -> Option<O>) -> Vec<O> {
    items
        .iter()
        .enumerate()
        .filter_map(|(i, x)| f(i, x))
        .collect()
}

/// Terminal text written by `f`, then a blank line.
pub(crate) fn paragraph(f: impl FnOnce(&mut String)) -> String {
    let mut s = String::new();
    f(&mut s);
    s.push('\n');
    s
}

/// A table of a report: file stem and frame.
#[cfg(feature = "tables")]
pub type NamedTable = (&'static str, DataFrame);
/// Without `tables` a report has no tables (the name stays, so the sections' imports hold).
#[cfg(not(feature = "tables"))]
pub type NamedTable = (&'static str, ());
/// A chart of a report: file stem and chart.
pub type NamedChart = (String, Chart);

/// Where a subject's page sections stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Top-level, before the study (the run's results).
    Results,
    /// First in the study part (its pass/fail summary).
    StudyLead,
    /// In the study part, in list order.
    Study,
    /// Top-level, after the general chart list.
    AfterCharts,
    /// Top-level, at the end (what was run: fighters, options).
    End,
}

/// What one subject contributes to a report. Every method defaults to nothing.
pub trait Subject {
    /// Terminal lines printed before every subject's text (e.g. a failure banner).
    fn headline(&self) -> String {
        String::new()
    }
    /// Terminal text.
    fn text(&self) -> String {
        String::new()
    }
    /// Tables, by file stem.
    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        Ok(Vec::new())
    }
    /// Charts of the whole run, by file stem.
    fn charts(&self) -> Vec<NamedChart> {
        Vec::new()
    }
    /// Charts of matchup `i` (they are grouped by matchup in the chart list).
    fn matchup_charts(&self, _i: usize) -> Vec<NamedChart> {
        Vec::new()
    }
    /// Blocks under the page title (e.g. a warning).
    fn intro(&self) -> Vec<Block> {
        Vec::new()
    }
    /// Where [`Subject::sections`] stand on the page.
    fn place(&self) -> Place {
        Place::Study
    }
    /// Page sections.
    fn sections(&self) -> Vec<Section> {
        Vec::new()
    }
}
