//! Group fights (a side of more than one creature): per matchup, the deadliness lines a
//! designer reads first (P(no one on a side down), P(at least one), P(all)), each member's
//! P(down), P(dead), damage and rounds stood, and the distribution of how many are down;
//! the terminal lines under the run table ([`group_text`]), the `group_members` and
//! `group_down` tables, the per-member survival chart and the how-many-down chart.

use std::fmt::Write;

#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::charts::{Chart, Corner, IntervalPlot, Plot, Series, Style, XyPlot};
#[cfg(feature = "tables")]
use crate::format::col;
use crate::format::{pct, percent, percent_ci, percent_exact};
use crate::model::{Estimate, GroupDoc, MatchupDoc, ReportData, RunDoc};
use crate::page::{Block, Section, head};

use super::subject::{NamedChart, NamedTable, Place, Subject, aligned};

/// The group fights of a run.
pub struct Group<'a>(pub &'a ReportData);

const SIDES: [&str; 2] = ["A", "B"];

fn groups(d: &RunDoc) -> impl Iterator<Item = (usize, &MatchupDoc, &GroupDoc)> {
    d.matchups
        .iter()
        .enumerate()
        .filter_map(|(i, m)| m.group.as_ref().map(|g| (i, m, g)))
}

/// An estimate in the terminal: `52.30 [51.32 53.28]`, then `exact 52.3046` where known.
fn est_text(e: &Estimate) -> String {
    let mut s = format!("{} [{} {}]", pct(e.p), pct(e.ci95[0]), pct(e.ci95[1]));
    if let Some(x) = e.exact {
        let _ = write!(s, " exact {:.4}", 100.0 * x);
    }
    s
}

/// An estimate on a page.
fn est_page(e: &Estimate) -> String {
    let s = percent_ci(e.p, e.ci95[0], e.ci95[1]);
    match e.exact {
        Some(x) => format!("{s} (exact {})", percent_exact(x)),
        None => s,
    }
}

fn num(v: Option<f64>) -> String {
    v.map_or("—".into(), |x| format!("{x:.2}"))
}

/// The group lines of a run in the terminal (nothing without a group fight).
pub fn group_text(d: &RunDoc) -> String {
    let mut s = String::new();
    for (_, m, g) in groups(d) {
        let _ = writeln!(
            s,
            "{} — group figures (% [95% CI], exact where solved):",
            m.name
        );
        for (k, side) in g.sides.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {} {} ({} creatures): no one down {}; at least one down {}; all down {}; at least one dead {}",
                SIDES[k],
                side.name,
                side.creatures,
                est_text(&side.p_none_down),
                est_text(&side.p_any_down),
                est_text(&side.p_all_down),
                est_text(&side.p_any_dead),
            );
            let down: Vec<String> = side
                .down
                .iter()
                .enumerate()
                .map(|(k, e)| format!("{k}: {}", pct(e.p)))
                .collect();
            let _ = writeln!(s, "    how many down at the end (%): {}", down.join(", "));
        }
        let rows: Vec<Vec<String>> = g
            .sides
            .iter()
            .enumerate()
            .flat_map(|(k, side)| {
                side.members.iter().map(move |mm| {
                    vec![
                        format!("{} {}×{}", SIDES[k], mm.fighter, mm.count),
                        est_text(&mm.p_down),
                        est_text(&mm.p_dead),
                        num(mm.damage_dealt),
                        num(mm.damage_taken),
                        format!("{:.2}", mm.rounds_survived),
                    ]
                })
            })
            .collect();
        aligned(
            &mut s,
            &[
                ("member", false),
                ("P(down) %", false),
                ("P(dead) %", false),
                ("dealt", true),
                ("taken", true),
                ("rounds", true),
            ],
            &rows,
        );
        s.push('\n');
    }
    s
}

impl Subject for Group<'_> {
    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        if groups(&self.0.run).next().is_none() {
            return Ok(Vec::new());
        }
        Ok(vec![
            ("group_members", members_table(&self.0.run)?),
            ("group_down", down_table(&self.0.run)?),
        ])
    }

    fn matchup_charts(&self, i: usize) -> Vec<NamedChart> {
        let m = &self.0.run.matchups[i];
        let Some(g) = &m.group else {
            return Vec::new();
        };
        vec![
            (format!("group-survival-{}", i + 1), survival_chart(m, g)),
            (format!("group-down-{}", i + 1), down_chart(m, g)),
        ]
    }

    fn place(&self) -> Place {
        Place::Results
    }

    fn sections(&self) -> Vec<Section> {
        let subs: Vec<Section> = groups(&self.0.run)
            .map(|(i, m, g)| {
                let mut blocks = vec![Block::Facts(
                    g.sides
                        .iter()
                        .enumerate()
                        .flat_map(|(k, side)| {
                            let who = format!("{} ({})", side.name, SIDES[k]);
                            [
                                (format!("{who}: no one down"), est_page(&side.p_none_down)),
                                (
                                    format!("{who}: at least one down"),
                                    est_page(&side.p_any_down),
                                ),
                                (format!("{who}: all down"), est_page(&side.p_all_down)),
                                (
                                    format!("{who}: at least one dead"),
                                    est_page(&side.p_any_dead),
                                ),
                            ]
                        })
                        .collect(),
                )];
                let rows = g
                    .sides
                    .iter()
                    .enumerate()
                    .flat_map(|(k, side)| {
                        side.members.iter().map(move |mm| {
                            vec![
                                SIDES[k].to_string(),
                                mm.fighter.clone(),
                                mm.count.to_string(),
                                est_page(&mm.p_down),
                                est_page(&mm.p_dead),
                                percent(mm.p_any_down.p),
                                num(mm.damage_dealt),
                                num(mm.damage_taken),
                                format!("{:.2}", mm.rounds_survived),
                            ]
                        })
                    })
                    .collect();
                blocks.push(Block::table(
                    head([
                        "side",
                        "member",
                        "count",
                        "P(a copy down) [95 % CI]",
                        "P(a copy dead) [95 % CI]",
                        "P(any copy down)",
                        "damage dealt per copy",
                        "damage taken per copy",
                        "rounds stood per copy",
                    ]),
                    rows,
                ));
                blocks.push(Block::Chart(format!("group-survival-{}", i + 1)));
                blocks.push(Block::Chart(format!("group-down-{}", i + 1)));
                Section::new(m.name.clone(), blocks)
            })
            .collect();
        if subs.is_empty() {
            return Vec::new();
        }
        let mut s = Section::new(
            "Group fights",
            vec![Block::Note(
                "Per member of each side: the chance a copy is down (out of the fight) or dead at the end, \
                 damage dealt and taken per copy (hits, as the sides' damage counts them), and the rounds a copy \
                 stood (the round it went down in, or the fight's length). Intervals are 95 % Wilson intervals \
                 (for a member of several copies, over fights: conservative). Exact values come from the same \
                 rules code solved exactly, where the solver answers."
                    .into(),
            )],
        );
        s.subsections = subs;
        vec![s]
    }
}

/// One row per matchup, side and member.
#[cfg(feature = "tables")]
pub fn members_table(d: &RunDoc) -> PolarsResult<DataFrame> {
    let (mut name, mut side_col, mut fighter, mut count) = (vec![], vec![], vec![], vec![]);
    let (mut p_down, mut lo, mut hi, mut x_down) = (vec![], vec![], vec![], vec![]);
    let (mut p_dead, mut x_dead, mut any) = (vec![], vec![], vec![]);
    let (mut dealt, mut taken, mut rounds) = (vec![], vec![], vec![]);
    for (_, m, g) in groups(d) {
        for (k, side) in g.sides.iter().enumerate() {
            for mm in &side.members {
                name.push(m.name.clone());
                side_col.push(SIDES[k]);
                fighter.push(mm.fighter.clone());
                count.push(u32::from(mm.count));
                p_down.push(mm.p_down.p);
                lo.push(mm.p_down.ci95[0]);
                hi.push(mm.p_down.ci95[1]);
                x_down.push(mm.p_down.exact);
                p_dead.push(mm.p_dead.p);
                x_dead.push(mm.p_dead.exact);
                any.push(mm.p_any_down.p);
                dealt.push(mm.damage_dealt);
                taken.push(mm.damage_taken);
                rounds.push(mm.rounds_survived);
            }
        }
    }
    DataFrame::new_infer_height(vec![
        col("matchup", name),
        col("side", side_col),
        col("fighter", fighter),
        col("count", count),
        col("p_down", p_down),
        col("p_down_lo", lo),
        col("p_down_hi", hi),
        col("exact_p_down", x_down),
        col("p_dead", p_dead),
        col("exact_p_dead", x_dead),
        col("p_any_down", any),
        col("damage_dealt", dealt),
        col("damage_taken", taken),
        col("rounds_survived", rounds),
    ])
}

/// One row per matchup, side and number down at the end.
#[cfg(feature = "tables")]
pub fn down_table(d: &RunDoc) -> PolarsResult<DataFrame> {
    let (mut name, mut side, mut down, mut p, mut lo, mut hi, mut exact, mut dead) = (
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
    );
    for (_, m, g) in groups(d) {
        for (k, s) in g.sides.iter().enumerate() {
            for (j, e) in s.down.iter().enumerate() {
                name.push(m.name.clone());
                side.push(SIDES[k]);
                down.push(j as u32);
                p.push(e.p);
                lo.push(e.ci95[0]);
                hi.push(e.ci95[1]);
                exact.push(e.exact);
                dead.push(s.dead[j].p);
            }
        }
    }
    DataFrame::new_infer_height(vec![
        col("matchup", name),
        col("side", side),
        col("down", down),
        col("p", p),
        col("p_lo", lo),
        col("p_hi", hi),
        col("exact_p", exact),
        col("p_dead", dead),
    ])
}

/// Per-member survival: P(a copy stands at the end) with its interval, every member of both
/// sides.
pub fn survival_chart(m: &MatchupDoc, g: &GroupDoc) -> Chart {
    let mut categories = Vec::new();
    let mut values = Vec::new();
    let mut exact = Vec::new();
    for (k, side) in g.sides.iter().enumerate() {
        for mm in &side.members {
            categories.push(format!("{} {} ×{}", SIDES[k], mm.fighter, mm.count));
            let e = &mm.p_down;
            values.push((1.0 - e.p, 1.0 - e.ci95[1], 1.0 - e.ci95[0]));
            exact.push(e.exact.map(|x| 1.0 - x));
        }
    }
    Chart {
        title: format!("Survival per member: {}", m.name),
        width: 1000,
        height: (170 + 60 * categories.len() as u32).clamp(240, 1400),
        plot: Plot::Intervals(IntervalPlot {
            value_desc: "P(a copy is still standing at the end)".into(),
            categories,
            values,
            exact,
            range: (0.0, 1.0),
            reference: None,
            percent: true,
        }),
    }
}

/// How many of each side are down at the end (Monte Carlo bars, exact points).
pub fn down_chart(m: &MatchupDoc, g: &GroupDoc) -> Chart {
    let hi = g.sides.iter().map(|s| s.creatures).max().unwrap_or(1);
    let mut series = Vec::new();
    let mut top: f64 = 0.0;
    for (k, side) in g.sides.iter().enumerate() {
        let bars: Vec<(f64, f64)> = side
            .down
            .iter()
            .enumerate()
            .map(|(j, e)| (j as f64, e.p))
            .collect();
        top = bars.iter().map(|b| b.1).fold(top, f64::max);
        series.push(Series::new(
            &format!("{} ({})", side.name, SIDES[k]),
            k,
            Style::Bars {
                offset: if k == 0 { -0.2 } else { 0.2 },
                width: 0.4,
            },
            bars,
        ));
        if side.down.iter().all(|e| e.exact.is_some()) {
            series.push(Series::new(
                &format!("{} ({}), exact", side.name, SIDES[k]),
                5 + k,
                Style::Points,
                side.down
                    .iter()
                    .enumerate()
                    .map(|(j, e)| {
                        (
                            j as f64 + if k == 0 { -0.2 } else { 0.2 },
                            e.exact.unwrap_or(0.0),
                        )
                    })
                    .collect(),
            ));
        }
    }
    Chart {
        title: format!("How many are down at the end: {}", m.name),
        width: 1000,
        height: 460,
        plot: Plot::Xy(XyPlot {
            x_desc: "creatures of the side down at the end of the fight".into(),
            y_desc: "share of fights".into(),
            x_range: (-0.5, f64::from(hi) + 0.5),
            y_range: (0.0, (top * 1.12).max(0.01)),
            y_percent: true,
            x_integer: true,
            legend: Corner::UpperRight,
            series,
        }),
    }
}
