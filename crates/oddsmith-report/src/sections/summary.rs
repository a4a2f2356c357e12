//! The answer first: a few plain sentences at the top of the page, generated from the results —
//! who is favoured in each matchup and by how much, where a sweep crosses 50 %, the value the
//! balance search found, the tournament's leader and what the costs say.
//!
//! Every figure here is the one that speaks ([`oddsmith_stats::verdict::speaks`]): the exact
//! value where one exists, with Monte Carlo as its check, so a sentence never states two
//! figures that disagree.

use oddsmith_stats::verdict::{Crossing, Difference, Spoken, crossing, speaks};
use oddsmith_study::sweep::SweepPoint;
use oddsmith_study::tournament::CostFit;
use oddsmith_study::{BalanceStatus, StudySection};

use crate::format::{percent, points_short, z_score};
use crate::model::{ReportData, advantage_text};
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
        // The verdict and P(A wins) both as they speak: one figure per sentence, the exact
        // one where known, with Monte Carlo as its check.
        let verdict = advantage_text(&m.advantage, &m.a, &m.b);
        let p_a = speaks(
            Difference::interval(m.p_a_win, m.p_a_win_ci95[0], m.p_a_win_ci95[1]),
            m.exact.as_ref().map(|e| e.p_a_win),
        );
        let wins = match (&p_a.check, &m.exact) {
            (Some(c), Some(e)) => format!(
                "{} exactly (Monte Carlo {}, {} standard errors from it)",
                percent(p_a.value()),
                percent(c.monte_carlo.diff),
                z_score(e.monte_carlo_z)
            ),
            _ => percent(p_a.value()),
        };
        v.push(format!(
            "{}: {}; {} wins {wins}.",
            m.name,
            verdict.trim_end_matches('.'),
            super::outcomes::sides(m).0,
        ));
    }
    if ms.len() > MAX_MATCHUPS {
        v.push(format!(
            "… and {} more matchups (see Results).",
            ms.len() - MAX_MATCHUPS
        ));
    }
    if let Some(s) = &d.run.study {
        // Which readings the headline answers depend on, and the placeholders the fighters
        // rely on (issue 36).
        for p in &s.placeholders {
            v.push(format!("{p}."));
        }
        for m in &s.readings {
            let tried = m.readings.len();
            if m.robust {
                v.push(format!(
                    "{}: the verdict holds under every reading ({tried} factor values tried).",
                    m.matchup
                ));
            } else {
                v.push(format!(
                    "{}: the verdict {} (see Readings).",
                    m.matchup,
                    m.robustness()
                ));
            }
        }
        let mut asserts = Vec::new();
        for section in s.sections() {
            match section {
                StudySection::Sweep(x) if x.y.is_none() => {
                    let (Some(first), Some(last)) = (x.points.first(), x.points.last()) else {
                        continue;
                    };
                    let figures: Vec<Spoken> = x.points.iter().map(SweepPoint::spoken).collect();
                    let p = |i: usize| figures[i].value();
                    let cross = match crossing(&figures, 0.5) {
                        Some(Crossing::At(i)) => {
                            format!("; it is even (50 %) at {}", label(&x.x, x.points[i].x))
                        }
                        Some(Crossing::Between(i)) => format!(
                            "; it crosses 50 % between {} and {}",
                            label(&x.x, x.points[i].x),
                            label(&x.x, x.points[i + 1].x)
                        ),
                        None => String::new(),
                    };
                    let exact = if figures.iter().all(Spoken::is_exact) {
                        " (exact)"
                    } else {
                        ""
                    };
                    v.push(format!(
                        "Sweep \"{}\": P(A wins) goes from {} at {} = {} to {} at {}{exact}{cross}.",
                        x.name,
                        percent(p(0)),
                        x.x.target,
                        label(&x.x, first.x),
                        percent(p(figures.len() - 1)),
                        label(&x.x, last.x),
                    ));
                }
                StudySection::Balance(b) => v.push(match (b.status, b.value) {
                    (BalanceStatus::Found, Some(value)) => format!(
                        "Balance: {} = {} brings {} to {} (target {}).",
                        b.field,
                        num(value),
                        b.subject,
                        b.achieved.as_ref().map_or("it".into(), |a| {
                            let s = a.spoken();
                            let exact = if s.is_exact() { " exactly" } else { "" };
                            format!("{}{exact}", percent(s.value()))
                        }),
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
                        let rate = top.spoken();
                        v.push(format!(
                            "Tournament: {} wins most against the field ({}{}); a perfectly adapted meta picks {}.",
                            top.fighter,
                            percent(rate.value()),
                            if rate.is_exact() { " exactly" } else { "" },
                            nash.join(", ")
                        ));
                    }
                    if let Some(c) = t.costs.as_ref().filter(|c| !c.points.is_empty()) {
                        // Whatever the fit says: the kits that give most and least for
                        // their price, with the honest fair-cost interval.
                        let extremes = super::tournament::extremes(c).map(|(hi, lo)| {
                            format!(
                                " Most under-priced: {} ({}); most over-priced: {} ({}).",
                                hi.fighter,
                                super::tournament::residual_and_cost(hi, &c.unit),
                                lo.fighter,
                                super::tournament::residual_and_cost(lo, &c.unit)
                            )
                        });
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
                        } + extremes.as_deref().unwrap_or(""));
                    }
                }
                StudySection::Sweep(x) => {
                    // A 2-D sweep: where P(A wins) is lowest and highest over the grid.
                    let figures: Vec<(f64, &SweepPoint)> =
                        x.points.iter().map(|p| (p.spoken().value(), p)).collect();
                    let lo = figures.iter().min_by(|a, b| a.0.total_cmp(&b.0));
                    let hi = figures.iter().max_by(|a, b| a.0.total_cmp(&b.0));
                    let (Some(lo), Some(hi), Some(y)) = (lo, hi, &x.y) else {
                        continue;
                    };
                    let at = |p: &SweepPoint| {
                        format!(
                            "{} = {}, {} = {}",
                            x.x.target,
                            label(&x.x, p.x),
                            y.target,
                            label(y, p.y.unwrap_or(0.0))
                        )
                    };
                    let exact = if x.points.iter().all(|p| p.exact_p_a_win.is_some()) {
                        " (exact)"
                    } else {
                        ""
                    };
                    v.push(format!(
                        "Sweep \"{}\": P(A wins) ranges from {} ({}) to {} ({}){exact}.",
                        x.name,
                        percent(lo.0),
                        at(lo.1),
                        percent(hi.0),
                        at(hi.1)
                    ));
                }
                StudySection::Check(c) => v.push(check_line(c)),
                StudySection::Assert(a) => asserts.push(a),
            }
        }
        if !asserts.is_empty() {
            let failed: Vec<&str> = asserts
                .iter()
                .filter(|a| !a.passed)
                .map(|a| a.name.as_str())
                .collect();
            v.push(if failed.is_empty() {
                format!("Assertions: all {} pass.", asserts.len())
            } else {
                format!(
                    "Assertions: {} of {} fail: {}.",
                    failed.len(),
                    asserts.len(),
                    failed.join("; ")
                )
            });
        }
    }
    if let Some(g) = &d.checks {
        // The ruleset's own check table: its easiest and hardest cells, exactly.
        let lo = g.cells.iter().min_by(|a, b| a.exact.total_cmp(&b.exact));
        let hi = g.cells.iter().max_by(|a, b| a.exact.total_cmp(&b.exact));
        if let (Some(lo), Some(hi)) = (lo, hi) {
            v.push(format!(
                "Check table ({} × {}, {} cells): P(success) from {} ({} {}, {}) to {} ({} {}, {}) exactly.",
                g.row_name,
                g.col_name,
                g.cells.len(),
                percent(lo.exact),
                g.row_name,
                lo.row,
                lo.col,
                percent(hi.exact),
                g.row_name,
                hi.row,
                hi.col
            ));
        }
    }
    v
}

/// A `[[check]]` in one sentence: a single check's exact P(success), or a grid's lowest and
/// highest cells.
fn check_line(c: &oddsmith_study::CheckStudyDoc) -> String {
    let cell = |x: &oddsmith_study::CheckCellDoc| {
        let parts: Vec<String> = [(&c.row_param, &x.row), (&c.col_param, &x.col)]
            .into_iter()
            .filter_map(|(p, v)| Some(format!("{} = {}", p.as_ref()?, v.as_ref()?)))
            .collect();
        parts.join(", ")
    };
    match c.cells.as_slice() {
        [one] => format!(
            "Check \"{}\": P(success) {} exactly ({}).",
            c.name,
            percent(one.exact),
            one.description
        ),
        cells => {
            let lo = cells.iter().min_by(|a, b| a.exact.total_cmp(&b.exact));
            let hi = cells.iter().max_by(|a, b| a.exact.total_cmp(&b.exact));
            match (lo, hi) {
                (Some(lo), Some(hi)) => format!(
                    "Check \"{}\" ({} cells): P(success) from {} ({}) to {} ({}) exactly.",
                    c.name,
                    cells.len(),
                    percent(lo.exact),
                    cell(lo),
                    percent(hi.exact),
                    cell(hi)
                ),
                _ => format!("Check \"{}\": no cells.", c.name),
            }
        }
    }
}

/// A comparison's answer: its verdicts, who wins first (then fight length, lethality), or
/// that no difference reached the threshold.
fn comparison_lines(c: &oddsmith_study::ComparisonDoc) -> Vec<String> {
    // The overall answer first: which part is better balanced, or that none is.
    let overall: Vec<String> = c
        .balance
        .iter()
        .filter(|b| !b.index.decisive)
        .map(|b| {
            let v = b.index.values;
            format!(
                "Overall balance: {} and {} are equally balanced within the threshold (mean distance from 50 % {:.1} vs {:.1} points, difference {:+.1} [{:+.1} {:+.1}]).",
                b.rulesets[0],
                b.rulesets[1],
                100.0 * v[0],
                100.0 * v[1],
                100.0 * b.index.diff,
                100.0 * b.index.lo,
                100.0 * b.index.hi
            )
        })
        .collect();
    let with_overall = |mut v: Vec<String>| {
        let mut out = overall.clone();
        out.append(&mut v);
        out
    };
    if c.verdicts.is_empty() {
        return with_overall(vec![format!(
            "No difference between {} is both significant (α = {}) and at least {} points.",
            c.rulesets.join(", "),
            c.alpha,
            num(c.practical_threshold * 100.0)
        )]);
    }
    let (first, others): (Vec<&String>, Vec<&String>) = c
        .verdicts
        .iter()
        .partition(|v| v.starts_with("Overall balance"));
    let (wins, rest): (Vec<&String>, Vec<&String>) =
        others.into_iter().partition(|v| v.contains(" wins "));
    let all: Vec<&String> = first.into_iter().chain(wins).chain(rest).collect();
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
    with_overall(v)
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
