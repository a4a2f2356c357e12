//! Fight length: the full `rounds` histogram table and, per matchup, the chart of the share
//! of duels ending in each round (with exact probabilities) and its cumulative distribution.

use oddsmith_stats::IntHistogram;
#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::charts::{Chart, Corner, Plot, Series, Style, XyPlot};
use crate::format::col;
use crate::model::ReportData;

use super::subject::{NamedChart, NamedTable, Subject};

/// Fight length of every matchup.
pub struct Rounds<'a>(pub &'a ReportData);

impl Subject for Rounds<'_> {
    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        Ok(vec![("rounds", rounds(self.0)?)])
    }

    fn matchup_charts(&self, i: usize) -> Vec<NamedChart> {
        let name = &self.0.run.matchups[i].name;
        vec![(format!("rounds-{}", i + 1), rounds_chart(self.0, i, name))]
    }
}

/// The full fight-length histogram: one row per matchup and number of rounds.
#[cfg(feature = "tables")]
pub fn rounds(d: &ReportData) -> PolarsResult<DataFrame> {
    let (mut name, mut r, mut count, mut p, mut cdf, mut exact) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for ((m, s), e) in d.run.matchups.iter().zip(&d.stats).zip(&d.exact) {
        let n = s.trials() as f64;
        let mut acc = 0u64;
        for (v, c) in s.rounds.iter() {
            acc += c;
            name.push(m.name.as_str());
            r.push(v);
            count.push(c);
            p.push(c as f64 / n);
            cdf.push(acc as f64 / n);
            exact.push(
                e.as_ref()
                    .map(|e| e.rounds_pmf.get(v as usize).copied().unwrap_or(0.0)),
            );
        }
    }
    DataFrame::new_infer_height(vec![
        col("matchup", name),
        col("rounds", r),
        col("count", count),
        col("p", p),
        col("cdf", cdf),
        col("exact_p", exact),
    ])
}

/// Largest value worth showing: the 99.9th percentile, at least `min`.
pub(crate) fn x_max(h: &IntHistogram, min: u64) -> u64 {
    h.quantile(0.999).unwrap_or(min).max(min)
}

/// Share of duels per value, for values `lo..=hi`.
pub(crate) fn shares(h: &IntHistogram, lo: u64, hi: u64) -> Vec<(f64, f64)> {
    let n = h.total().max(1) as f64;
    (lo..=hi)
        .map(|v| (v as f64, h.count(v) as f64 / n))
        .collect()
}

/// Fight length: histogram (with exact probabilities) and cumulative distribution.
pub fn rounds_chart(d: &ReportData, i: usize, name: &str) -> Chart {
    let h = &d.stats[i].rounds;
    let hi = x_max(h, 5);
    let bars = shares(h, 1, hi);
    let mut acc = 0.0;
    let cdf: Vec<(f64, f64)> = bars
        .iter()
        .map(|&(x, p)| {
            acc += p;
            (x, acc)
        })
        .collect();
    let y_top = bars.iter().map(|p| p.1).fold(0.0, f64::max);
    let mut hist = vec![Series::new(
        "Monte Carlo",
        0,
        Style::Bars {
            offset: 0.0,
            width: 0.8,
        },
        bars,
    )];
    let mut cum = vec![Series::new("Monte Carlo", 0, Style::Line, cdf)];
    let mut top = y_top;
    if let Some(e) = &d.exact[i] {
        let pmf: Vec<(f64, f64)> = (1..=hi)
            .map(|r| {
                (
                    r as f64,
                    e.rounds_pmf.get(r as usize).copied().unwrap_or(0.0),
                )
            })
            .collect();
        top = top.max(pmf.iter().map(|p| p.1).fold(0.0, f64::max));
        let mut acc = 0.0;
        let ecdf = pmf
            .iter()
            .map(|&(x, p)| {
                acc += p;
                (x, acc)
            })
            .collect();
        hist.push(Series::new("exact", 5, Style::Points, pmf));
        cum.push(Series::new("exact", 5, Style::Dashed, ecdf));
    }
    let x_range = (0.4, hi as f64 + 0.6);
    Chart {
        title: format!("Fight length: {name}"),
        width: 1100,
        height: 460,
        plot: Plot::Row(vec![
            (
                "share of duels ending in each round".into(),
                Plot::Xy(XyPlot {
                    x_desc: "round in which the duel ended (rounds of 6 s)".into(),
                    y_desc: "share of duels".into(),
                    x_range,
                    y_range: (0.0, (top * 1.15).max(0.01)),
                    y_percent: true,
                    x_integer: true,
                    series: hist,
                    legend: Corner::UpperRight,
                }),
            ),
            (
                "cumulative: duel over by round r".into(),
                Plot::Xy(XyPlot {
                    x_desc: "round r (rounds of 6 s)".into(),
                    y_desc: "share of duels over".into(),
                    x_range,
                    y_range: (0.0, 1.0),
                    y_percent: true,
                    x_integer: true,
                    series: cum,
                    legend: Corner::LowerRight,
                }),
            ),
        ]),
    }
}
