//! The readings study (issue 36): what each answer depends on. Per matchup the baseline, its
//! robustness line ("holds under every reading" or "depends on: …"), every factor that moves
//! P(A wins) by at least the practical threshold ranked by size, the others summed up in one
//! line; the `readings` table, a tornado chart per matchup and the page section.

use oddsmith_study::{BalanceReading, MatchupReadings, ReadingDoc, StudyDoc};
#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::charts::{Chart, IntervalPlot, Plot, padded_range};
use crate::format::{col_by, pct, points, signed_points};
use crate::page::{Block, Section};

use super::subject::{NamedChart, NamedTable, Subject};

/// A run's readings study (the study's `readings` and `balance_readings`).
pub struct Readings<'a>(pub &'a StudyDoc);

impl Subject for Readings<'_> {
    fn text(&self) -> String {
        let mut s = readings_table(&self.0.readings);
        if let Some(b) = balance_line(self.0) {
            s += &format!("\n{b}\n");
        }
        for l in cost_lines(self.0) {
            s += &format!("{l}\n");
        }
        for p in &self.0.placeholders {
            s += &format!("placeholder: {p}\n");
        }
        s + "\n"
    }

    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        Ok(vec![("readings", readings_frame(&self.0.readings)?)])
    }

    fn charts(&self) -> Vec<NamedChart> {
        self.0
            .readings
            .iter()
            .enumerate()
            .filter_map(|(i, m)| tornado(m).map(|c| (stem(i), c)))
            .collect()
    }

    fn sections(&self) -> Vec<Section> {
        let mut sec = readings_section(&self.0.readings);
        if let Some(b) = balance_line(self.0) {
            sec.blocks.insert(1, Block::Paragraph(b));
        }
        for l in cost_lines(self.0) {
            sec.blocks.push(Block::Paragraph(l));
        }
        for p in &self.0.placeholders {
            sec.blocks.push(Block::Note(format!("{p}.")));
        }
        vec![sec]
    }
}

/// One line per priced tournament kit: whether its cost label holds across the readings.
pub fn cost_lines(st: &StudyDoc) -> Vec<String> {
    st.cost_readings
        .iter()
        .map(|k| {
            let label = k.label.as_deref().unwrap_or("no verdict");
            if k.holds && k.label.is_none() {
                format!(
                    "cost: {}: no priced verdict by the default readings or under any other",
                    k.fighter
                )
            } else if k.holds {
                format!("cost: {} is {label} under every reading", k.fighter)
            } else {
                format!(
                    "cost: {} is {label} by the default readings, but {}",
                    k.fighter,
                    k.changed_by.join("; ")
                )
            }
        })
        .collect()
}

/// The `[balance]` answer under each factor that moves it: "balance: skill = 4 by the book;
/// 3 under striking_order = \"skill_first\"; 5 with hp_base = 10" (`None` without a balance
/// or without factors).
pub fn balance_line(st: &StudyDoc) -> Option<String> {
    let b = st.balance.as_ref()?;
    if st.balance_readings.is_empty() {
        return None;
    }
    let v = |x: Option<f64>| x.map_or("no crossing in the range".to_string(), |x| format!("{x}"));
    let by_book = v(b.value);
    let others: Vec<String> = st
        .balance_readings
        .iter()
        .filter(|r: &&BalanceReading| r.solved != b.value)
        .map(|r| format!("{} under {}", v(r.solved), r.label()))
        .collect();
    Some(if others.is_empty() {
        format!(
            "balance: {} = {by_book} by the default readings, and the same under every reading that moves a matchup",
            b.field
        )
    } else {
        format!(
            "balance: {} = {by_book} by the default readings; {}",
            b.field,
            others.join("; ")
        )
    })
}

/// Stem of matchup `i`'s tornado chart.
pub fn stem(i: usize) -> String {
    format!("readings-{}", i + 1)
}

/// The change a factor makes, as it speaks: exact where both sides are solved.
fn change(r: &ReadingDoc) -> (f64, f64, f64) {
    match r.exact_delta {
        Some(d) => (d, d, d),
        None => (r.delta.diff, r.delta.lo, r.delta.hi),
    }
}

/// The tornado chart of a matchup: one bar per factor value that matters, largest change on
/// top, with its paired 95 % interval (exact changes marked); `None` when none matters.
pub fn tornado(m: &MatchupReadings) -> Option<Chart> {
    let shown: Vec<&ReadingDoc> = m.readings.iter().filter(|r| r.matters()).collect();
    if shown.is_empty() {
        return None;
    }
    let values: Vec<(f64, f64, f64)> = shown.iter().map(|r| change(r)).collect();
    let values_and_exact = values
        .iter()
        .flat_map(|v| [v.1, v.2])
        .chain(shown.iter().filter_map(|r| r.exact_delta));
    let (lo, hi) = padded_range(values_and_exact.chain([0.0])).unwrap_or((-0.1, 0.1));
    // Room on both sides for the value labels, which go beside each bar's whisker and
    // exact cross (never over them): the data take the middle ~55 % of the axis.
    let room = 0.4 * (hi - lo);
    let range = (lo - room, hi + room);
    Some(Chart {
        title: format!("{}: change of P(A wins) under each reading", m.matchup),
        width: 960,
        height: (160 + 28 * shown.len() as u32).clamp(240, 900),
        plot: Plot::Intervals(IntervalPlot {
            value_desc: "change of P(A wins) from the default reading (points)".into(),
            categories: shown.iter().map(|r| r.label()).collect(),
            values,
            exact: shown.iter().map(|r| r.exact_delta).collect(),
            range,
            reference: Some(0.0),
            percent: true,
        }),
    })
}

/// One row per matchup and factor value.
#[cfg(feature = "tables")]
pub fn readings_frame(ms: &[MatchupReadings]) -> PolarsResult<DataFrame> {
    let rows: Vec<(&MatchupReadings, &ReadingDoc)> = ms
        .iter()
        .flat_map(|m| m.readings.iter().map(move |r| (m, r)))
        .collect();
    DataFrame::new_infer_height(vec![
        col_by("matchup", &rows, |(m, _)| m.matchup.as_str()),
        col_by("factor", &rows, |(_, r)| r.factor.as_str()),
        col_by("kind", &rows, |(_, r)| r.kind),
        col_by("value", &rows, |(_, r)| r.value.as_str()),
        col_by("baseline_value", &rows, |(_, r)| r.baseline_value.as_str()),
        col_by("p_a_win", &rows, |(_, r)| r.p_a_win.p),
        col_by("p_a_win_lo", &rows, |(_, r)| r.p_a_win.lo),
        col_by("p_a_win_hi", &rows, |(_, r)| r.p_a_win.hi),
        col_by("delta", &rows, |(_, r)| r.delta.diff),
        col_by("delta_lo", &rows, |(_, r)| r.delta.lo),
        col_by("delta_hi", &rows, |(_, r)| r.delta.hi),
        col_by("exact", &rows, |(_, r)| r.exact),
        col_by("exact_delta", &rows, |(_, r)| r.exact_delta),
        col_by("verdict_holds", &rows, |(_, r)| r.verdict_holds),
    ])
}

fn readings_section(ms: &[MatchupReadings]) -> Section {
    let mut blocks = vec![Block::Note(
        "Every reading of ambiguous rule text and every number the rules never give (oddsmith \
         rulesets ID marks them) tried one at a time, each paired with the default reading on \
         the same random numbers; exact where the ruleset solves the duel. Changes under 2 \
         points, or not significant, are summed up in one line."
            .into(),
    )];
    for (i, m) in ms.iter().enumerate() {
        blocks.push(Block::Heading(m.matchup.clone()));
        blocks.push(Block::Paragraph(format!(
            "P(A wins) {} % as read by default; the verdict {}.",
            pct(m.baseline_exact.unwrap_or(m.baseline.p)),
            m.robustness()
        )));
        let shown: Vec<&ReadingDoc> = m.readings.iter().filter(|r| r.matters()).collect();
        if !shown.is_empty() {
            blocks.push(Block::Chart(stem(i)));
            let rows = shown
                .iter()
                .map(|r| {
                    let (d, lo, hi) = change(r);
                    vec![
                        r.label(),
                        r.kind.to_string(),
                        format!("{} %", pct(r.exact.unwrap_or(r.p_a_win.p))),
                        if r.exact_delta.is_some() {
                            format!("{} exact", signed_points(d))
                        } else {
                            points(d, lo, hi)
                        },
                        if r.verdict_holds { "holds" } else { "changes" }.to_string(),
                    ]
                })
                .collect();
            blocks.push(Block::table(
                ["factor", "kind", "P(A wins)", "change (points)", "verdict"]
                    .map(String::from)
                    .to_vec(),
                rows,
            ));
        }
        if m.small > 0 {
            blocks.push(Block::Note(small_line(m)));
        }
    }
    blocks.push(Block::Files(vec!["readings".into()]));
    Section::new("Readings: what the answers depend on".to_string(), blocks)
}

/// "12 other factor values move it by less than 2 points or not significantly (−0.40 …
/// +1.10)".
fn small_line(m: &MatchupReadings) -> String {
    let (lo, hi) =
        m.readings
            .iter()
            .filter(|r| !r.matters())
            .fold((0.0f64, 0.0f64), |(lo, hi), r| {
                let v = r.spoken().value();
                (lo.min(v), hi.max(v))
            });
    format!(
        "{} other factor values move it by less than 2 points or not significantly ({} … {})",
        m.small,
        signed_points(lo),
        signed_points(hi)
    )
}

/// The readings tables of a run, one block per matchup.
pub fn readings_table(ms: &[MatchupReadings]) -> String {
    use std::fmt::Write as _;
    if ms.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "readings: what each answer depends on (one factor at a time, paired with the baseline; \
         P(A wins) in %, change in points)\n",
    );
    for m in ms {
        let base = m.baseline_exact.unwrap_or(m.baseline.p);
        let how = if m.baseline_exact.is_some() {
            "exact"
        } else {
            "Monte Carlo"
        };
        let _ = writeln!(
            s,
            "\n{}: P(A wins) {} % as read by default ({how}); {}",
            m.matchup,
            pct(base),
            m.robustness()
        );
        let shown: Vec<_> = m.readings.iter().filter(|r| r.matters()).collect();
        if !shown.is_empty() {
            let w = shown
                .iter()
                .map(|r| r.label().chars().count())
                .max()
                .unwrap_or(0)
                .max(6);
            let _ = writeln!(
                s,
                "  {:<w$}  {:<11}  {:>6}  {:<24}  verdict",
                "factor", "kind", "P(A)", "change"
            );
            for r in &shown {
                let p = r.exact.unwrap_or(r.p_a_win.p);
                let change = match r.exact_delta {
                    Some(d) => format!("{} exact", signed_points(d)),
                    None => points(r.delta.diff, r.delta.lo, r.delta.hi),
                };
                let _ = writeln!(
                    s,
                    "  {:<w$}  {:<11}  {:>6}  {:<24}  {}",
                    r.label(),
                    r.kind,
                    pct(p),
                    change,
                    if r.verdict_holds { "holds" } else { "CHANGES" }
                );
            }
        }
        if m.small > 0 {
            let _ = writeln!(s, "  {}", small_line(m));
        }
    }
    s
}
