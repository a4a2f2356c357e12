//! The answer first: a few plain sentences at the top of the page, generated from the results —
//! who is favoured in each matchup and by how much, where a sweep crosses 50 %, the value the
//! balance search found, the tournament's leader and what the costs say.

use oddsmith_study::tournament::CostFit;
use oddsmith_study::{BalanceStatus, StudySection};

use crate::format::{percent, points_short};
use crate::model::ReportData;
use crate::page::Block;

use super::subject::Subject;

/// At most this many matchups are named in the summary; the rest are counted.
const MAX_MATCHUPS: usize = 4;

/// The summary under the page title.
pub struct Summary<'a>(pub &'a ReportData);

impl Subject for Summary<'_> {
    fn intro(&self) -> Vec<Block> {
        let lines = summary_lines(self.0);
        if lines.is_empty() {
            return Vec::new();
        }
        vec![Block::Summary(lines)]
    }
}

/// One sentence per answer, in report order.
pub fn summary_lines(d: &ReportData) -> Vec<String> {
    if let Some(c) = &d.run.comparison {
        return comparison_lines(c);
    }
    let mut v = Vec::new();
    let ms = &d.run.matchups;
    for m in ms.iter().take(MAX_MATCHUPS) {
        let exact = m.exact.as_ref().map_or(String::new(), |e| {
            format!(", exactly {}", percent(e.p_a_win))
        });
        v.push(format!(
            "{}: {}; {} wins {}{exact}.",
            m.name,
            m.verdict.trim_end_matches('.'),
            super::outcomes::sides(m).0,
            percent(m.p_a_win),
        ));
    }
    if ms.len() > MAX_MATCHUPS {
        v.push(format!(
            "… and {} more matchups (see Results).",
            ms.len() - MAX_MATCHUPS
        ));
    }
    if let Some(s) = &d.run.study {
        for section in s.sections() {
            match section {
                StudySection::Sweep(x) if x.y.is_none() => {
                    let (Some(first), Some(last)) = (x.points.first(), x.points.last()) else {
                        continue;
                    };
                    let p = |pt: &oddsmith_study::sweep::SweepPoint| {
                        pt.exact_p_a_win.unwrap_or(pt.p_a_win.p)
                    };
                    let cross = x
                        .points
                        .windows(2)
                        .find(|w| {
                            (p(&w[0]) - 0.5) * (p(&w[1]) - 0.5) <= 0.0 && p(&w[0]) != p(&w[1])
                        })
                        .map_or(String::new(), |w| {
                            format!(
                                "; it crosses 50 % between {} and {}",
                                label(&x.x, w[0].x),
                                label(&x.x, w[1].x)
                            )
                        });
                    v.push(format!(
                        "Sweep \"{}\": P(A wins) goes from {} at {} = {} to {} at {}{cross}.",
                        x.name,
                        percent(p(first)),
                        x.x.target,
                        label(&x.x, first.x),
                        percent(p(last)),
                        label(&x.x, last.x),
                    ));
                }
                StudySection::Balance(b) => v.push(match (b.status, b.value) {
                    (BalanceStatus::Found, Some(value)) => format!(
                        "Balance: {} = {} brings {} to {} (target {}).",
                        b.field,
                        num(value),
                        b.subject,
                        b.achieved
                            .as_ref()
                            .map_or("it".into(), |a| percent(a.exact.unwrap_or(a.monte_carlo.p))),
                        percent(b.target)
                    ),
                    _ => format!(
                        "Balance: no value of {} in [{}, {}] brings {} to {}.",
                        b.field,
                        num(b.range.0),
                        num(b.range.1),
                        b.subject,
                        percent(b.target)
                    ),
                }),
                StudySection::Tournament(t) => {
                    if let Some(top) = t.ranking.first() {
                        let nash: Vec<String> = t
                            .fighters
                            .iter()
                            .zip(&t.nash)
                            .filter(|(_, s)| **s > 0.005)
                            .map(|(f, s)| format!("{f} {}", percent(*s)))
                            .collect();
                        v.push(format!(
                            "Tournament: {} wins most against the field ({}); a perfectly adapted meta picks {}.",
                            top.fighter,
                            percent(top.win_rate.p),
                            nash.join(", ")
                        ));
                    }
                    if let Some(c) = t.costs.as_ref().filter(|c| !c.points.is_empty()) {
                        v.push(match c.fit {
                            CostFit::Predictive => {
                                let fair: Vec<String> = c
                                    .points
                                    .iter()
                                    .filter_map(|p| {
                                        p.fair_cost
                                            .as_ref()
                                            .map(|f| format!("{} {}", p.fighter, num1(f.value)))
                                    })
                                    .collect();
                                format!(
                                    "Costs predict win rate (+{} per {}); fair costs: {}.",
                                    points_short(c.slope),
                                    c.unit,
                                    fair.join(", ")
                                )
                            }
                            CostFit::NotPredictive => {
                                "Costs do not predict win rate here, so no kit is judged by its price.".into()
                            }
                            CostFit::TooFewKits => {
                                "Too few kits are priced to judge costs.".into()
                            }
                            CostFit::SameCost => {
                                "Every kit costs the same, so costs cannot be judged.".into()
                            }
                        });
                    }
                }
                _ => {}
            }
        }
    }
    v
}

/// A comparison's answer: its verdicts, who wins first (then fight length, lethality), or
/// that no difference reached the threshold.
fn comparison_lines(c: &oddsmith_study::ComparisonDoc) -> Vec<String> {
    if c.verdicts.is_empty() {
        return vec![format!(
            "No difference between {} is both significant (α = {}) and at least {} points.",
            c.rulesets.join(", "),
            c.alpha,
            num(c.practical_threshold * 100.0)
        )];
    }
    let (wins, rest): (Vec<&String>, Vec<&String>) =
        c.verdicts.iter().partition(|v| v.contains(" wins "));
    let all: Vec<&String> = wins.into_iter().chain(rest).collect();
    let mut v: Vec<String> = all
        .iter()
        .take(MAX_MATCHUPS)
        .map(|l| format!("{}.", l.trim_end_matches('.')))
        .collect();
    if all.len() > MAX_MATCHUPS {
        v.push(format!(
            "… and {} more verdicts (see Study).",
            all.len() - MAX_MATCHUPS
        ));
    }
    v
}

/// An axis value as its label (text options) or number.
fn label(axis: &oddsmith_study::sweep::AxisDoc, x: f64) -> String {
    axis.values
        .iter()
        .position(|v| *v == x)
        .and_then(|i| axis.labels.get(i).cloned())
        .unwrap_or_else(|| num(x))
}

/// A number without a trailing `.0`.
fn num(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

/// A number with at most one decimal.
fn num1(x: f64) -> String {
    if (x - x.round()).abs() < 0.05 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}
