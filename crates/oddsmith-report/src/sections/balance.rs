//! Balance: the value of a field that brings a probability to a target, found by bisection
//! and measured again on fresh random numbers — terminal text, the `balance` (every
//! evaluation) and `balance_result` tables, the search chart and the page section.

use std::fmt::Write;

use oddsmith_study::{BalanceDoc, BalancePoint, BalanceStatus};
#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::charts::{Chart, Corner, Plot, Series, Style, XyPlot, padded_range};
use crate::format::{
    col, col_by, est, est_page, fit, num, pct, percent, percent_exact, thousands, z_score,
};
use crate::page::{Block, Section};

use super::subject::{NamedChart, NamedTable, Subject, paragraph};

/// Stem of the balance-search chart.
pub const STEM: &str = "balance";

/// A study's balance search.
pub struct Balance<'a>(pub &'a BalanceDoc);

impl Subject for Balance<'_> {
    fn text(&self) -> String {
        paragraph(|s| balance_text(s, self.0))
    }

    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        Ok(vec![
            ("balance", balance_evaluations(self.0)?),
            ("balance_result", balance_result(self.0)?),
        ])
    }

    fn charts(&self) -> Vec<NamedChart> {
        balance_chart(self.0)
            .map(|c| (STEM.to_string(), c))
            .into_iter()
            .collect()
    }

    fn sections(&self) -> Vec<Section> {
        vec![balance_section(self.0)]
    }
}

/// A measured point as it speaks: the exact probability with the Monte Carlo estimate as its
/// check, or the Monte Carlo estimate alone.
fn balance_point(p: &BalancePoint, field: &str) -> String {
    let sp = p.spoken();
    let (figure, check) = match &sp.check {
        Some(c) => (
            format!("{} % exact", pct(sp.value())),
            format!(
                "\n        Monte Carlo {}, {} standard errors from exact",
                est(&p.monte_carlo),
                z_score(c.z)
            ),
        ),
        None => (est(&p.monte_carlo), String::new()),
    };
    format!(
        "{} = {}: P {figure} · {}{check}",
        fit(field, 30),
        num(p.value),
        if p.distinguishable {
            "distinguishable from the target"
        } else {
            "indistinguishable from the target"
        }
    )
}

fn balance_text(s: &mut String, b: &BalanceDoc) {
    let _ = writeln!(
        s,
        "Balance: {} → {} % by changing {} in [{}, {}]{}",
        b.subject,
        pct(b.target),
        b.field,
        num(b.range.0),
        num(b.range.1),
        if b.integer { ", whole numbers" } else { "" }
    );
    let _ = writeln!(
        s,
        "  method: {}; {} evaluations, {} trials per Monte Carlo evaluation",
        b.method,
        b.evaluations.len(),
        thousands(b.trials)
    );
    match (b.status, b.value) {
        (BalanceStatus::Found, Some(v)) => {
            let crossing = b.crossing.map_or(String::new(), |c| {
                format!(" (the target is crossed at ≈ {c:.1})")
            });
            let _ = writeln!(
                s,
                "  found: {} = {}{crossing}, measured again on fresh random numbers:",
                b.field,
                num(v)
            );
            match (&b.bracket, &b.achieved) {
                (Some(br), _) => {
                    let _ = writeln!(s, "  the whole numbers either side of the target:");
                    for p in br {
                        let chosen = if p.value == v { "  ← chosen" } else { "" };
                        let _ = writeln!(s, "    {}{chosen}", balance_point(p, &b.field));
                    }
                }
                (None, Some(a)) => {
                    let _ = writeln!(s, "    {}", balance_point(a, &b.field));
                }
                (None, None) => {}
            }
        }
        _ => {
            let _ = writeln!(
                s,
                "  NOT IN RANGE: P = {} % at {} and {} % at {}; the target is not crossed",
                pct(b.ends[0].p),
                num(b.ends[0].value),
                pct(b.ends[1].p),
                num(b.ends[1].value)
            );
        }
    }
}

/// Every evaluation of the balance search, in order: the value tried and the probability
/// found there.
#[cfg(feature = "tables")]
pub fn balance_evaluations(b: &BalanceDoc) -> PolarsResult<DataFrame> {
    let e = &b.evaluations;
    DataFrame::new_infer_height(vec![
        col("step", (1..=e.len() as u32).collect::<Vec<_>>()),
        col_by("value", e, |x| x.value),
        col_by("p", e, |x| x.p),
    ])
}

/// The balance result: for whole numbers, the two values either side of the target (`role` =
/// "chosen" for the closer, "bracket" for the other); otherwise one row, the chosen value; a
/// single row with `role` = "none" and empty values when the target is not reached.
#[cfg(feature = "tables")]
pub fn balance_result(b: &BalanceDoc) -> PolarsResult<DataFrame> {
    let mut pts: Vec<(&str, Option<&BalancePoint>)> =
        roles(b).into_iter().map(|(r, p)| (r, Some(p))).collect();
    if pts.is_empty() {
        pts.push(("none", None));
    }
    let status = match b.status {
        BalanceStatus::Found => "found",
        BalanceStatus::NotInRange => "not_in_range",
    };
    DataFrame::new_infer_height(vec![
        col_by("subject", &pts, |_| b.subject.as_str()),
        col_by("field", &pts, |_| b.field.as_str()),
        col_by("target", &pts, |_| b.target),
        col_by("range_lo", &pts, |_| b.range.0),
        col_by("range_hi", &pts, |_| b.range.1),
        col_by("integer", &pts, |_| b.integer),
        col_by("method", &pts, |_| b.method.as_str()),
        col_by("status", &pts, |_| status),
        col_by("evaluations", &pts, |_| b.evaluations.len() as u32),
        col_by("role", &pts, |p| p.0),
        col_by("value", &pts, |p| p.1.map(|q| q.value)),
        col_by("p", &pts, |p| p.1.map(|q| q.monte_carlo.p)),
        col_by("p_lo", &pts, |p| p.1.map(|q| q.monte_carlo.lo)),
        col_by("p_hi", &pts, |p| p.1.map(|q| q.monte_carlo.hi)),
        col_by("trials", &pts, |p| p.1.map(|q| q.monte_carlo.trials)),
        col_by("exact_p", &pts, |p| p.1.and_then(|q| q.exact)),
        col_by("distinguishable", &pts, |p| p.1.map(|q| q.distinguishable)),
    ])
}

/// The measured result with its role: for whole numbers the two values either side of the
/// target ("chosen" for the closer, "bracket" for the other), else the chosen value; empty
/// when the target is not reached.
fn roles(b: &BalanceDoc) -> Vec<(&'static str, &BalancePoint)> {
    match (&b.bracket, &b.achieved) {
        (Some(br), _) => br
            .iter()
            .map(|p| {
                let chosen = b.value == Some(p.value);
                (if chosen { "chosen" } else { "bracket" }, p)
            })
            .collect(),
        (None, Some(a)) => vec![("chosen", a)],
        (None, None) => vec![],
    }
}

/// The balance search: every evaluated value with its probability, the target line, and the
/// reported value(s) re-measured on fresh random numbers with 95 % whiskers.
pub fn balance_chart(b: &BalanceDoc) -> Option<Chart> {
    let mut measured: Vec<&BalancePoint> = b.achieved.iter().collect();
    if let Some(br) = &b.bracket {
        measured.extend(br.iter());
    }
    let x_range = padded_range(
        b.evaluations
            .iter()
            .map(|e| e.value)
            .chain([b.range.0, b.range.1]),
    )?;
    let mut evals: Vec<(f64, f64)> = b.evaluations.iter().map(|e| (e.value, e.p)).collect();
    evals.sort_by(|a, c| a.0.total_cmp(&c.0));
    let mut out = vec![
        Series::reference(
            &format!("target {} %", num(100.0 * b.target)),
            x_range,
            b.target,
        ),
        Series::new("search evaluations", 0, Style::Points, evals),
    ];
    if !measured.is_empty() {
        let mut m = Series::new(
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
            legend: Corner::Right,
        }),
    })
}

fn balance_section(b: &BalanceDoc) -> Section {
    let mut blocks = vec![Block::Note(format!(
        "The value of {} in [{}, {}] that brings {} to {} %. Method: {}; the result is then measured again on fresh random numbers, \
         so it is not judged by the numbers it was chosen on. {} evaluations.",
        b.field,
        num(b.range.0),
        num(b.range.1),
        b.subject,
        pct(b.target),
        b.method,
        b.evaluations.len()
    ))];
    match (b.status, b.value) {
        (BalanceStatus::Found, Some(v)) => {
            blocks.push(Block::Note(format!("Found: {} = {}.", b.field, num(v))));
            let pts_ = roles(b);
            let head = [
                b.field.as_str(),
                "role",
                "P [95 % CI], fresh random numbers",
                "exact",
                "vs target",
            ]
            .map(String::from)
            .to_vec();
            let rows = pts_
                .iter()
                .map(|(role, p)| {
                    vec![
                        num(p.value),
                        (*role).to_string(),
                        est_page(&p.monte_carlo),
                        p.exact.map_or("—".into(), percent_exact),
                        if p.distinguishable {
                            "distinguishable"
                        } else {
                            "indistinguishable"
                        }
                        .to_string(),
                    ]
                })
                .collect();
            blocks.push(Block::table(head, rows));
            if b.bracket.is_some() {
                blocks.push(Block::Note(
                    format!(
                        "Whole numbers only: the target lies between these two values, and the closer one is chosen{}. \"Distinguishable\": the difference from the target is significant (an exact value: not equal; Monte Carlo: the 95 % interval excludes it) and at least 2 percentage points, the verdict rule used throughout.",
                        b.crossing.map_or(String::new(), |c| format!(
                            "; the straight line between them crosses the target at ≈ {c:.1}"
                        ))
                    ),
                ));
            }
        }
        _ => blocks.push(Block::Note(format!(
            "Not reached in the range: P = {} at {} and {} at {}. Widen the range or change something else.",
            percent(b.ends[0].p),
            num(b.ends[0].value),
            percent(b.ends[1].p),
            num(b.ends[1].value)
        ))),
    }
    blocks.push(Block::Chart(STEM.into()));
    Section::new("Balance", blocks)
}
