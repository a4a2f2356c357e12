//! The charts of a run report, built from [`ReportData`].

use oddsmith_stats::IntHistogram;

use crate::charts::{Chart, Corner, IntervalPlot, Plot, Series, Style, XyPlot};
use crate::data::ReportData;

/// Every chart of a report, by file stem; the study charts
/// ([`crate::study_figures::study_figures`]) come last.
pub fn figures(d: &ReportData) -> Vec<(String, Chart)> {
    let mut v = Vec::new();
    // A study-only scenario (a tournament, checks) has no matchup to chart.
    if !d.run.matchups.is_empty() {
        v.push(("win-probability".to_string(), win_probability(d)));
    }
    for (i, m) in d.run.matchups.iter().enumerate() {
        v.push((format!("rounds-{}", i + 1), rounds(d, i, &m.name)));
        v.push((format!("damage-{}", i + 1), damage(d, i, &m.name)));
    }
    if d.checks.is_some() {
        v.push(("checks".to_string(), checks(d)));
    }
    if let Some(s) = &d.run.study {
        v.extend(crate::study_figures::study_figures(s));
    }
    v.extend(crate::comparison::figures(d));
    v
}

/// P(A wins) per matchup with 95 % whiskers, the exact value and a 50 % reference line.
pub fn win_probability(d: &ReportData) -> Chart {
    let m = &d.run.matchups;
    Chart {
        title: format!("{}: P(first fighter wins), 95 % intervals", d.run.scenario),
        width: 1000,
        height: (170 + 60 * m.len() as u32).min(1400),
        plot: Plot::Intervals(IntervalPlot {
            value_desc: "P(A wins), A = first fighter of the matchup".into(),
            categories: m.iter().map(|x| x.name.clone()).collect(),
            values: m
                .iter()
                .map(|x| (x.p_a_win, x.p_a_win_ci95[0], x.p_a_win_ci95[1]))
                .collect(),
            exact: m
                .iter()
                .map(|x| x.exact.as_ref().map(|e| e.p_a_win))
                .collect(),
            range: (0.0, 1.0),
            reference: Some(0.5),
            percent: true,
        }),
    }
}

/// Largest value worth showing: the 99.9th percentile, at least `min`.
fn x_max(h: &IntHistogram, min: u64) -> u64 {
    h.quantile(0.999).unwrap_or(min).max(min)
}

/// Share of duels per value, for values `lo..=hi`.
fn shares(h: &IntHistogram, lo: u64, hi: u64) -> Vec<(f64, f64)> {
    let n = h.total().max(1) as f64;
    (lo..=hi)
        .map(|v| (v as f64, h.count(v) as f64 / n))
        .collect()
}

/// Fight length: histogram (with exact probabilities) and cumulative distribution.
pub fn rounds(d: &ReportData, i: usize, name: &str) -> Chart {
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
    let mut hist = vec![Series {
        name: "Monte Carlo".into(),
        color: 0,
        style: Style::Bars {
            offset: 0.0,
            width: 0.8,
        },
        points: bars,
        band: vec![],
        whiskers: vec![],
    }];
    let mut cum = vec![Series {
        name: "Monte Carlo".into(),
        color: 0,
        style: Style::Line,
        points: cdf,
        band: vec![],
        whiskers: vec![],
    }];
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
        hist.push(Series {
            name: "exact".into(),
            color: 5,
            style: Style::Points,
            points: pmf,
            band: vec![],
            whiskers: vec![],
        });
        cum.push(Series {
            name: "exact".into(),
            color: 5,
            style: Style::Dashed,
            points: ecdf,
            band: vec![],
            whiskers: vec![],
        });
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

/// Damage points dealt per duel by each side.
pub fn damage(d: &ReportData, i: usize, name: &str) -> Chart {
    let m = &d.run.matchups[i];
    let s = &d.stats[i];
    let hi = x_max(&s.damage[0], 5).max(x_max(&s.damage[1], 5));
    let a = shares(&s.damage[0], 0, hi);
    let b = shares(&s.damage[1], 0, hi);
    let top = a.iter().chain(&b).map(|p| p.1).fold(0.0, f64::max);
    Chart {
        title: format!("Damage dealt per duel: {name}"),
        width: 1000,
        height: 460,
        plot: Plot::Xy(XyPlot {
            x_desc: "damage points dealt in the whole duel (after armour)".into(),
            y_desc: "share of duels".into(),
            x_range: (-0.5, hi as f64 + 0.5),
            y_range: (0.0, (top * 1.12).max(0.01)),
            y_percent: true,
            x_integer: true,
            legend: Corner::UpperRight,
            series: vec![
                Series {
                    name: format!("{} (A), mean {:.2}", m.a, m.side_a.damage.mean),
                    color: 0,
                    style: Style::Bars {
                        offset: -0.2,
                        width: 0.4,
                    },
                    points: a,
                    band: vec![],
                    whiskers: vec![],
                },
                Series {
                    name: format!("{} (B), mean {:.2}", m.b, m.side_b.damage.mean),
                    color: 1,
                    style: Style::Bars {
                        offset: 0.2,
                        width: 0.4,
                    },
                    points: b,
                    band: vec![],
                    whiskers: vec![],
                },
            ],
        }),
    }
}

/// Check success across skill, one line per difficulty (exact lines, Monte Carlo points
/// with 95 % whiskers).
pub fn checks(d: &ReportData) -> Chart {
    let g = d.checks.as_ref().expect("called with a check grid");
    let mut cols: Vec<(&str, i64)> = vec![];
    for c in &g.cells {
        if !cols.iter().any(|(n, _)| *n == c.col) {
            cols.push((&c.col, c.col_value));
        }
    }
    let (lo, hi) = g.cells.iter().fold((i64::MAX, i64::MIN), |(l, h), c| {
        (l.min(c.row), h.max(c.row))
    });
    let mut series = vec![];
    for (k, (col, value)) in cols.iter().enumerate() {
        let cells: Vec<_> = g.cells.iter().filter(|c| c.col == *col).collect();
        series.push(Series {
            name: format!("{col} ({} {value})", g.col_value_name.to_uppercase()),
            color: k,
            style: Style::Line,
            points: cells.iter().map(|c| (c.row as f64, c.exact)).collect(),
            band: vec![],
            whiskers: vec![],
        });
        series.push(Series {
            name: String::new(),
            color: k,
            style: Style::Points,
            points: cells.iter().map(|c| (c.row as f64, c.mc.p())).collect(),
            band: vec![],
            whiskers: cells
                .iter()
                .map(|c| {
                    let (l, h) = c.mc.wilson95();
                    (c.row as f64, l, h)
                })
                .collect(),
        });
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
            // Headroom above 100 % keeps the legend off the curves.
            y_range: (0.0, 1.5),
            y_percent: true,
            x_integer: true,
            series,
            legend: Corner::UpperLeft,
        }),
    }
}
