//! The tournament: every loadout against every other — terminal text (win matrix, ranking,
//! Nash mix, fight length and lethality per pairing, cost efficiency), the
//! `tournament_matrix`, `tournament_ranking` and `tournament_pairings` tables, the win-matrix
//! heatmap and the cost chart, and the page section.

use std::fmt::Write;

use oddsmith_stats::verdict::{self, Difference};
use oddsmith_study::{CostDoc, CostFit, Est, PairingDoc, RankDoc, TournamentDoc};
#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::charts::{
    Chart, Corner, HeatmapPlot, LabelledXy, Plot, PointLabel, Series, Style, XyPlot, all_whole,
    padded_range,
};
use crate::format::{col_by, est, est_page, fit, num, pct, percent, percent_exact, thousands};
use crate::page::{Block, Section, head};

use super::subject::{NamedChart, NamedTable, Subject, grid, paragraph};

/// Stem of the win-matrix chart.
pub const MATRIX_STEM: &str = "tournament-matrix";
/// Stem of the cost-efficiency chart.
pub const COST_STEM: &str = "tournament-cost";

/// A study's tournament.
pub struct Tournament<'a>(pub &'a TournamentDoc);

impl Subject for Tournament<'_> {
    fn text(&self) -> String {
        paragraph(|s| tournament_text(s, self.0))
    }

    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        Ok(vec![
            ("tournament_matrix", tournament_matrix(self.0)?),
            ("tournament_ranking", tournament_ranking(self.0)?),
            ("tournament_pairings", tournament_pairings(self.0)?),
        ])
    }

    fn charts(&self) -> Vec<NamedChart> {
        let t = self.0;
        let mut v = Vec::new();
        if t.fighters.len() >= 2 {
            v.push((MATRIX_STEM.to_string(), matrix_chart(t)));
        }
        if let Some(c) = cost_chart(t) {
            v.push((COST_STEM.to_string(), c));
        }
        v
    }

    fn sections(&self) -> Vec<Section> {
        vec![tournament_section(self.0)]
    }
}

fn tournament_text(s: &mut String, t: &TournamentDoc) {
    let n = t.fighters.len();
    let _ = writeln!(
        s,
        "Tournament \"{}\": {n} loadouts, {} duels per seating (each pair fought both ways)",
        t.name,
        thousands(t.trials_per_seating)
    );
    let any_exact = t.exact_win.iter().flatten().any(Option::is_some);
    let _ = writeln!(
        s,
        "  P(row beats column) %{}:",
        if any_exact {
            " (exact where solved)"
        } else {
            ""
        }
    );
    let cols: Vec<String> = (1..=n).map(|j| j.to_string()).collect();
    let rows: Vec<(String, Vec<String>)> = (0..n)
        .map(|i| {
            (
                format!("{} {}", i + 1, t.fighters[i]),
                (0..n)
                    .map(|j| cell(t, i, j).map_or("—".into(), |v| format!("{:.1}", 100.0 * v)))
                    .collect(),
            )
        })
        .collect();
    grid(s, "", &cols, &rows);
    let fw = t
        .ranking
        .iter()
        .map(|r| r.fighter.chars().count())
        .max()
        .unwrap_or(7)
        .clamp(7, 24);
    let _ = writeln!(
        s,
        "  ranking against the field; Nash % = share in a perfectly adapted meta (0 = never pick):"
    );
    let exact_rates = t.ranking.iter().any(|r| r.exact_win_rate.is_some());
    let exact_col = |v: Option<f64>| {
        if exact_rates {
            format!("  {:>8}", v.map_or("—".into(), pct))
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        s,
        "  {:>2}  {:fw$}  {:<23}{}  {:>8}  {:>6}  dominated",
        "#",
        "fighter",
        "P(win) % [95% CI]",
        if exact_rates {
            format!("  {:>8}", "exact %")
        } else {
            String::new()
        },
        "P(lose)%",
        "Nash %"
    );
    for (k, r) in t.ranking.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {:>2}  {:fw$}  {:<23}{}  {:>8}  {:>6.1}  {}",
            k + 1,
            fit(&r.fighter, fw),
            est(&r.win_rate),
            exact_col(r.exact_win_rate),
            pct(r.loss_rate),
            100.0 * r.nash_share,
            dominated_text(r, "")
        );
    }
    pairings_text(s, t);
    let Some(c) = &t.costs else { return };
    if c.points.is_empty() {
        if let Some(m) = missing_note(c) {
            let _ = writeln!(s, "  {m}");
        }
        return;
    }
    let _ = writeln!(s, "  cost efficiency:");
    for line in cost_judgement(c) {
        let _ = writeln!(s, "    {line}");
    }
    if let Some(m) = missing_note(c) {
        let _ = writeln!(s, "  {m}");
    }
    if c.points.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "  {:fw$}  {:>8}  {:<23}{}  {:>6}  {:>8}  {:<12}  fair cost [95% CI]",
        "fighter",
        "cost",
        "P(win) % [95% CI]",
        if exact_rates {
            format!("  {:>8}", "exact %")
        } else {
            String::new()
        },
        "fair %",
        "Δ pts",
        "verdict"
    );
    for p in &c.points {
        let _ = writeln!(
            s,
            "  {:fw$}  {:>8}  {:<23}{}  {:>6}  {:>8}  {:<12}  {}",
            fit(&p.fighter, fw),
            num(p.cost),
            est(&p.win_rate),
            exact_col(p.exact_win_rate),
            p.fair.map_or("—".into(), pct),
            p.residual
                .map_or("—".into(), |r| format!("{:+.2}", 100.0 * r)),
            p.verdict.as_deref().unwrap_or("—"),
            fair_cost_text(p)
        );
    }
}

/// P(row `i` beats column `j`) as it speaks: exact where the pairing is solved, else the
/// Monte Carlo estimate; `None` on the diagonal.
fn cell(t: &TournamentDoc, i: usize, j: usize) -> Option<f64> {
    let mc = t.win.get(i)?.get(j).copied().flatten()?;
    let exact = t.exact_win.get(i).and_then(|r| r.get(j).copied().flatten());
    Some(verdict::speaks(Difference::interval(mc.p, mc.lo, mc.hi), exact).value())
}

/// The pairing's name: "a vs b".
fn pairing_name(p: &PairingDoc) -> String {
    format!("{} vs {}", p.a, p.b)
}

/// Fight length and lethality per pairing, one aligned line each.
fn pairings_text(s: &mut String, t: &TournamentDoc) {
    if t.pairings.is_empty() {
        return;
    }
    let pw = t
        .pairings
        .iter()
        .map(|p| pairing_name(p).chars().count())
        .max()
        .unwrap_or(7)
        .clamp(7, 40);
    let _ = writeln!(
        s,
        "  fight length and lethality per pairing (both seatings pooled):"
    );
    let _ = writeln!(
        s,
        "  {:pw$}  {:>14}  {:>7}  {:<23}  incapacitated % [95% CI]",
        "pairing", "rounds mean±sd", "p50/p90", "death % [95% CI]"
    );
    for p in &t.pairings {
        let _ = writeln!(
            s,
            "  {:pw$}  {:>14}  {:>7}  {:<23}  {}",
            fit(&pairing_name(p), pw),
            format!("{:.2}±{:.2}", p.rounds_mean, p.rounds_sd),
            format!("{}/{}", p.rounds_p50, p.rounds_p90),
            est(&p.death),
            est(&p.incapacitated)
        );
    }
}

/// Fight length and lethality per pairing (both seatings pooled): mean, sd, median and 90th
/// percentile of the rounds; the shares ending in a death, with the loser incapacitated, and
/// otherwise, each with its interval.
#[cfg(feature = "tables")]
pub fn tournament_pairings(t: &TournamentDoc) -> PolarsResult<DataFrame> {
    let p = &t.pairings;
    DataFrame::new_infer_height(vec![
        col_by("fighter", p, |x| x.a.as_str()),
        col_by("opponent", p, |x| x.b.as_str()),
        col_by("trials", p, |x| x.trials),
        col_by("rounds_mean", p, |x| x.rounds_mean),
        col_by("rounds_sd", p, |x| x.rounds_sd),
        col_by("rounds_p50", p, |x| x.rounds_p50),
        col_by("rounds_p90", p, |x| x.rounds_p90),
        col_by("p_death", p, |x| x.death.p),
        col_by("p_death_lo", p, |x| x.death.lo),
        col_by("p_death_hi", p, |x| x.death.hi),
        col_by("p_incapacitated", p, |x| x.incapacitated.p),
        col_by("p_incapacitated_lo", p, |x| x.incapacitated.lo),
        col_by("p_incapacitated_hi", p, |x| x.incapacitated.hi),
        col_by("p_other_ending", p, |x| x.other.p),
    ])
}

/// The page table of fight length and lethality per pairing.
fn pairings_blocks(t: &TournamentDoc) -> Vec<Block> {
    if t.pairings.is_empty() {
        return vec![];
    }
    let rows = t
        .pairings
        .iter()
        .map(|p| {
            vec![
                pairing_name(p),
                format!("{:.2} ± {:.2}", p.rounds_mean, p.rounds_sd),
                format!("{} / {}", p.rounds_p50, p.rounds_p90),
                est_page(&p.death),
                est_page(&p.incapacitated),
                percent(p.other.p),
            ]
        })
        .collect();
    vec![
        Block::Heading("Fight length and lethality".into()),
        Block::Note(
            "Per pairing, both seatings pooled: rounds per fight, and how fights end — the loser dead, taken out alive \
             (incapacitated), or another way (yield, a lesser wound, exhaustion, the round cap)."
                .into(),
        ),
        Block::table(
            head([
                "pairing",
                "rounds mean ± sd",
                "rounds p50 / p90",
                "death [95 % CI]",
                "incapacitated [95 % CI]",
                "other ending",
            ]),
            rows,
        ),
    ]
}

/// The win matrix in long form: one row per ordered pair (fighter, opponent), P(fighter beats
/// opponent) over both seatings with its interval, the exact value where known, and the
/// meta-game payoff P(win) − P(lose).
#[cfg(feature = "tables")]
pub fn tournament_matrix(t: &TournamentDoc) -> PolarsResult<DataFrame> {
    let n = t.fighters.len();
    let pairs: Vec<(usize, usize, Est)> = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter_map(|(i, j)| t.win[i][j].map(|e| (i, j, e)))
        .collect();
    let exact = |i: usize, j: usize| t.exact_win.get(i).and_then(|r| r.get(j).copied().flatten());
    DataFrame::new_infer_height(vec![
        col_by("fighter", &pairs, |p| t.fighters[p.0].as_str()),
        col_by("opponent", &pairs, |p| t.fighters[p.1].as_str()),
        col_by("p_win", &pairs, |p| p.2.p),
        col_by("p_win_lo", &pairs, |p| p.2.lo),
        col_by("p_win_hi", &pairs, |p| p.2.hi),
        col_by("wins", &pairs, |p| p.2.successes),
        col_by("trials", &pairs, |p| p.2.trials),
        col_by("exact_p_win", &pairs, |p| exact(p.0, p.1)),
        col_by("payoff", &pairs, |p| t.payoff[p.0][p.1]),
    ])
}

/// The standings, best first: P(win) against the field with its interval, P(lose), the
/// loadout's share in the Nash mix, whether it is strictly dominated, and — when every loadout
/// has a cost — its cost, the win rate the fair line predicts, the residual and the verdict.
#[cfg(feature = "tables")]
pub fn tournament_ranking(t: &TournamentDoc) -> PolarsResult<DataFrame> {
    let r: Vec<(u32, &RankDoc)> = (1..).zip(&t.ranking).collect();
    let mut cols = vec![
        col_by("rank", &r, |x| x.0),
        col_by("fighter", &r, |x| x.1.fighter.as_str()),
        col_by("p_win", &r, |x| x.1.win_rate.p),
        col_by("p_win_lo", &r, |x| x.1.win_rate.lo),
        col_by("p_win_hi", &r, |x| x.1.win_rate.hi),
        col_by("exact_p_win", &r, |x| x.1.exact_win_rate),
        col_by("p_lose", &r, |x| x.1.loss_rate),
        col_by("nash_share", &r, |x| x.1.nash_share),
        col_by("dominated", &r, |x| x.1.dominated),
        col_by("dominated_by", &r, |x| x.1.dominated_by.join(", ")),
    ];
    if let Some(c) = &t.costs {
        let by = |x: &(u32, &RankDoc)| c.points.iter().find(|p| p.fighter == x.1.fighter);
        cols.extend([
            col_by("cost", &r, |x| by(x).map(|p| p.cost)),
            col_by("cost_unit", &r, |_| c.unit.as_str()),
            col_by("cost_source", &r, |x| by(x).map(|p| p.source.as_str())),
            col_by("fair_p_win", &r, |x| by(x).and_then(|p| p.fair)),
            col_by("residual", &r, |x| by(x).and_then(|p| p.residual)),
            col_by("verdict", &r, |x| by(x).and_then(|p| p.verdict.as_deref())),
            col_by("fair_cost", &r, |x| {
                by(x).and_then(|p| p.fair_cost.map(|f| f.value))
            }),
            col_by("fair_cost_lo", &r, |x| {
                by(x).and_then(|p| p.fair_cost.map(|f| f.lo))
            }),
            col_by("fair_cost_hi", &r, |x| {
                by(x).and_then(|p| p.fair_cost.map(|f| f.hi))
            }),
        ]);
    }
    DataFrame::new_infer_height(cols)
}

/// The win matrix: P(row beats column), both seatings pooled, 50 % in the neutral colour.
pub fn matrix_chart(t: &TournamentDoc) -> Chart {
    let values: Vec<Vec<f64>> = t
        .win
        .iter()
        .map(|r| r.iter().map(|e| e.map_or(f64::NAN, |e| e.p)).collect())
        .collect();
    let n = t.fighters.len() as u32;
    Chart {
        title: format!("{}: P(row beats column)", t.name),
        width: (520 + 70 * n).min(1400),
        height: (420 + 50 * n).min(1200),
        plot: Plot::Heatmap(HeatmapPlot {
            first_row_on_top: true,
            ..HeatmapPlot::probabilities(
                ("opponent".into(), "fighter".into()),
                (t.fighters.clone(), t.fighters.clone()),
                values,
                "P(row wins)",
            )
        }),
    }
}

/// P(win) against the field versus cost, each loadout labelled, with the fair line.
pub fn cost_chart(t: &TournamentDoc) -> Option<Chart> {
    let c = t.costs.as_ref()?;
    let x_range = padded_range(c.points.iter().map(|p| p.cost))?;
    let fair = |x: f64| c.intercept + c.slope * x;
    let points: Vec<(f64, f64)> = c.points.iter().map(|p| (p.cost, p.win_rate.p)).collect();
    let mut dots = Series::new("loadouts, 95 % intervals", 0, Style::Points, points);
    dots.whiskers = c
        .points
        .iter()
        .map(|p| (p.cost, p.win_rate.lo, p.win_rate.hi))
        .collect();
    let mut series = Vec::new();
    if c.slope.is_finite() {
        let name = match c.fit {
            CostFit::Predictive => "fair line (least squares)",
            CostFit::NotPredictive | CostFit::TooFewKits | CostFit::SameCost => {
                "least-squares line (not a fair line)"
            }
        };
        series.push(Series::new(
            name,
            6,
            Style::Dashed,
            vec![(x_range.0, fair(x_range.0)), (x_range.1, fair(x_range.1))],
        ));
    }
    Some(Chart {
        title: format!("{}: P(win) against cost", t.name),
        width: 1000,
        height: 560,
        plot: Plot::LabelledXy(LabelledXy {
            xy: XyPlot {
                x_desc: format!("cost ({})", c.unit),
                y_desc: "P(win) against the field".into(),
                x_range,
                y_range: (0.0, 1.0),
                y_percent: true,
                x_integer: all_whole(&c.points.iter().map(|p| p.cost).collect::<Vec<_>>()),
                series: {
                    series.push(dots);
                    series
                },
                legend: Corner::Right,
            },
            labels: c
                .points
                .iter()
                .map(|p| PointLabel {
                    at: (p.cost, p.win_rate.p),
                    text: p.fighter.clone(),
                })
                .collect(),
        }),
    })
}

fn tournament_section(t: &TournamentDoc) -> Section {
    let n = t.fighters.len();
    let mut columns = vec!["P(row beats column)".to_string()];
    columns.extend(t.fighters.iter().cloned());
    let matrix =
        (0..n)
            .map(|i| {
                std::iter::once(t.fighters[i].clone())
                    .chain((0..n).map(|j| {
                        cell(t, i, j).map_or("—".into(), |v| format!("{:.1} %", 100.0 * v))
                    }))
                    .collect()
            })
            .collect();
    let exact_rates = t.ranking.iter().any(|r| r.exact_win_rate.is_some());
    let with_exact = |mut v: Vec<String>, at: usize, e: Option<f64>| {
        if exact_rates {
            v.insert(at, e.map_or("—".into(), percent_exact));
        }
        v
    };
    let mut rhead = head([
        "#",
        "fighter",
        "P(win) [95 % CI]",
        "P(lose)",
        "Nash mix",
        "dominated",
    ]);
    if exact_rates {
        rhead.insert(3, "exact P(win)".into());
    }
    let ranking = t
        .ranking
        .iter()
        .enumerate()
        .map(|(k, r)| {
            with_exact(
                vec![
                    (k + 1).to_string(),
                    r.fighter.clone(),
                    est_page(&r.win_rate),
                    percent(r.loss_rate),
                    format!("{:.1} %", 100.0 * r.nash_share),
                    dominated_text(r, "no"),
                ],
                3,
                r.exact_win_rate,
            )
        })
        .collect();
    let mut blocks = vec![
        Block::Note(format!(
            "Every loadout against every other, {} duels in each seating (each pair fought both ways, pooled).",
            thousands(t.trials_per_seating)
        )),
        Block::table(columns, matrix),
        Block::Chart(MATRIX_STEM.into()),
        Block::Heading("Ranking".into()),
        Block::Note(
            "P(win) against the field: every opponent equally often. Nash mix: the share of each loadout a perfectly adapted meta would play; \
             0 % = never worth picking. Dominated: worse than another loadout against every opponent."
                .into(),
        ),
        Block::table(rhead, ranking),
    ];
    blocks.extend(pairings_blocks(t));
    if let Some(c) = &t.costs {
        let mut chead = head([
            "fighter",
            "cost",
            "cost from",
            "P(win) [95 % CI]",
            "fair P(win)",
            "residual (points)",
            "verdict",
            "fair cost [95 % CI]",
        ]);
        if exact_rates {
            chead.insert(4, "exact P(win)".into());
        }
        let rows = c
            .points
            .iter()
            .map(|p| {
                with_exact(
                    vec![
                        p.fighter.clone(),
                        format!("{} {}", num(p.cost), c.unit),
                        p.source.clone(),
                        est_page(&p.win_rate),
                        p.fair.map_or("—".into(), percent),
                        p.residual
                            .map_or("—".into(), |r| format!("{:+.2}", 100.0 * r)),
                        p.verdict.clone().unwrap_or_else(|| "—".into()),
                        fair_cost_text(p),
                    ],
                    4,
                    p.exact_win_rate,
                )
            })
            .collect();
        // No kit priced: one line, no cost section.
        if c.points.is_empty() {
            blocks.push(Block::Note(missing_note(c).unwrap_or_else(|| {
                "No kit has a cost: add `costs = { kit = 10, … }` to [tournament] to judge prices.".into()
            })));
            return Section::new(format!("Tournament: {}", t.name), blocks);
        }
        blocks.push(Block::Heading("Cost efficiency".into()));
        blocks.push(Block::Note(cost_judgement(c).join(" ")));
        if let Some(m) = missing_note(c) {
            blocks.push(Block::Note(m));
        }
        blocks.push(Block::table(chead, rows));
        blocks.push(Block::Chart(COST_STEM.into()));
    }
    Section::new(format!("Tournament: {}", t.name), blocks)
}

/// The fair line judged, in a few sentences: whether costs predict win rate (slope and its
/// 95 % interval), the tolerance, and the kits furthest from the line when it is used.
pub fn cost_judgement(c: &CostDoc) -> Vec<String> {
    let per = |v: f64| format!("{:+.3} %", 100.0 * v);
    let line = format!(
        "P(win) = {} {} {:.3} % × cost in {}",
        percent(c.intercept),
        if c.slope < 0.0 { "−" } else { "+" },
        100.0 * c.slope.abs(),
        c.unit
    );
    match c.fit {
        CostFit::Predictive => {
            let ranked = || c.by_residual.iter().filter_map(|f| point(c, f));
            let under = ranked().find(|p| p.verdict.as_deref() == Some("under-priced"));
            let over = ranked()
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .find(|p| p.verdict.as_deref() == Some("over-priced"));
            let name = |p: Option<&oddsmith_study::CostPoint>| {
                p.map_or("none".into(), |p| {
                    format!(
                        "{} ({:+.1} points)",
                        p.fighter,
                        100.0 * p.residual.unwrap_or(0.0)
                    )
                })
            };
            vec![
                format!("Costs predict win rate. Fair line: {line}."),
                format!(
                    "Slope 95 % CI [{} {}] per {}; fair: within {} points of the line.",
                    per(c.slope_ci95[0]),
                    per(c.slope_ci95[1]),
                    c.unit,
                    fmt_points(c.tolerance)
                ),
                "Under-/over-priced: at least that far off, the whole 95 % interval off the line;"
                    .into(),
                "unclear: that far off but the interval reaches the line (more trials needed)."
                    .into(),
                "Fair cost: the price at which the line through the other kits predicts the kit's win rate;"
                    .into(),
                "its interval carries the line's own uncertainty and the Monte Carlo noise.".into(),
                format!(
                    "Most under-priced: {}; most over-priced: {}.",
                    name(under),
                    name(over)
                ),
            ]
        }
        CostFit::NotPredictive => vec![
            "Costs do not predict win rate here: no kit gets a price verdict,".into(),
            "and a fair cost (from the line through the other kits) is too uncertain to act on."
                .into(),
            format!("Least-squares line: {line};"),
            format!(
                "its slope's 95 % CI [{} {}] per {} is not wholly above 0.",
                per(c.slope_ci95[0]),
                per(c.slope_ci95[1]),
                c.unit
            ),
            "Compare the kits by win rate and the Nash mix, or reprice them and run again.".into(),
        ]
        .into_iter()
        .chain(extremes(c).into_iter().flat_map(|(hi, lo)| {
            [
                format!(
                    "Gives most for its price: {} ({}).",
                    hi.fighter,
                    residual_and_cost(hi, &c.unit)
                ),
                format!(
                    "Gives least: {} ({}).",
                    lo.fighter,
                    residual_and_cost(lo, &c.unit)
                ),
            ]
        }))
        .collect(),
        CostFit::TooFewKits => vec![format!(
            "{} priced kit{}: too few to judge whether costs predict win rate (three needed).",
            c.points.len(),
            if c.points.len() == 1 { "" } else { "s" }
        )],
        CostFit::SameCost => vec![format!(
            "All {} priced kits cost the same ({} {}): costs cannot tell them apart, so no line is fitted and no kit is judged by its price; give the kits their own costs.",
            c.points.len(),
            c.points.first().map_or(String::new(), |p| num(p.cost)),
            c.unit
        )],
    }
}

/// The kits without a cost, named, with how to add them (none when every kit has one).
fn missing_note(c: &CostDoc) -> Option<String> {
    (!c.missing.is_empty()).then(|| {
        format!(
            "No cost for {}: left out of the fit. Add {} to `[tournament] costs = {{ … }}`.",
            c.missing.join(", "),
            if c.missing.len() == 1 { "it" } else { "them" }
        )
    })
}

/// Percentage points with up to one decimal ("3", "2.5").
fn fmt_points(p: f64) -> String {
    num((1000.0 * p).round() / 10.0)
}

/// "52.3 [48.1 56.0]", or "—" without a fair cost; "(too wide to act on)" when it cannot be
/// acted on.
pub fn fair_cost_text(p: &oddsmith_study::CostPoint) -> String {
    p.fair_cost.map_or("—".into(), |f| {
        let wide = if p.fair_cost_usable {
            ""
        } else {
            " (too wide to act on)"
        };
        format!("{:.1} [{:.1} {:.1}]{wide}", f.value, f.lo, f.hi)
    })
}

fn point<'c>(c: &'c CostDoc, fighter: &str) -> Option<&'c oddsmith_study::CostPoint> {
    c.points.iter().find(|p| p.fighter == fighter)
}

/// The kits that give most and least for their price (first and last by residual), when
/// there are two or more with a residual.
pub fn extremes(c: &CostDoc) -> Option<(&oddsmith_study::CostPoint, &oddsmith_study::CostPoint)> {
    let ranked: Vec<_> = c
        .by_residual
        .iter()
        .filter_map(|f| point(c, f))
        .filter(|p| p.residual.is_some())
        .collect();
    (ranked.len() >= 2).then(|| (ranked[0], ranked[ranked.len() - 1]))
}

/// "residual +12.3 points at 3 gold, fair cost 5.2 [1.0 9.4] gold".
pub fn residual_and_cost(p: &oddsmith_study::CostPoint, unit: &str) -> String {
    let r = format!(
        "residual {:+.1} points, wins {} at {} {unit}",
        100.0 * p.residual.unwrap_or(0.0),
        percent(p.exact_win_rate.unwrap_or(p.win_rate.p)),
        num(p.cost)
    );
    match p.fair_cost {
        Some(f) => format!(
            "{r}; fair cost {:.1} [{:.1} {:.1}] {unit}{}",
            f.value,
            f.lo,
            f.hi,
            if p.fair_cost_usable {
                ""
            } else {
                ", too wide to act on"
            }
        ),
        None => r,
    }
}

/// `by greatsword, sword-shield` for a dominated loadout, else `otherwise`.
fn dominated_text(r: &RankDoc, otherwise: &str) -> String {
    if r.dominated_by.is_empty() {
        if r.dominated { "yes" } else { otherwise }.to_string()
    } else {
        format!("by {}", r.dominated_by.join(", "))
    }
}
