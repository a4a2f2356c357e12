//! Who wins and how duels end: the run's summary in the terminal ([`run_table`]), the
//! `outcomes` and `endings` tables, the P(A wins) chart and the Results section with each
//! matchup's verdict.

use std::fmt::Write;

use oddsmith_rules::Ending;
use oddsmith_stats::wilson95;
#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::charts::{Chart, IntervalPlot, Plot};
use crate::format::{
    col, col_by, pct_ci_padded, pct_padded, percent, percent_ci, percent_exact, points_short,
    thousands, toml_text,
};
use crate::model::{
    ExactDoc, FirstMoveDoc, GivenDoc, MatchupDoc, PRACTICAL_THRESHOLD, ReportData, RunDoc,
};
use crate::page::{Block, Section, head};

use super::subject::{NamedChart, NamedTable, Place, Subject};

/// Stem of the P(A wins) chart.
pub const WIN_STEM: &str = "win-probability";

/// The outcomes of every matchup.
pub struct Outcomes<'a>(pub &'a ReportData);

impl Subject for Outcomes<'_> {
    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        let mut v = vec![
            ("outcomes", outcomes(self.0)?),
            ("endings", endings(self.0)?),
        ];
        if self.0.run.matchups.iter().any(|m| m.first_move.is_some()) {
            v.push(("first_move", first_move(self.0)?));
        }
        Ok(v)
    }

    fn charts(&self) -> Vec<NamedChart> {
        // A study-only scenario (a tournament, checks) has no matchup to chart.
        if self.0.run.matchups.is_empty() {
            return Vec::new();
        }
        vec![(WIN_STEM.to_string(), win_probability(self.0))]
    }

    fn place(&self) -> Place {
        Place::Results
    }

    fn sections(&self) -> Vec<Section> {
        if self.0.run.matchups.is_empty() {
            return Vec::new();
        }
        let rows = self.0.run.matchups.iter().map(result_row).collect();
        vec![Section::new(
            "Results",
            vec![
                Block::table(
                    head([
                        "matchup",
                        "trials",
                        "P(A wins) [95 % CI]",
                        "P(B wins) [95 % CI]",
                        "P(draw) [95 % CI]",
                        "exact P(A wins)",
                        "rounds mean ± sd",
                        "verdict",
                    ]),
                    rows,
                ),
                Block::Note(format!(
                    "A is the first fighter of each matchup. Probabilities in %, 95 % Wilson intervals in brackets. \
                     The verdict compares P(A) − P(B) with its own interval and names a favourite only when the difference \
                     is significant and at least {} percentage points. Exact values come from the ruleset's exact solver \
                     (the same rules code, every die face enumerated); where one exists, the verdict is the exact value's \
                     and the Monte Carlo difference is shown as its check, in standard errors from exact.",
                    points_short(PRACTICAL_THRESHOLD).trim_end_matches(".0")
                )),
            ]
            .into_iter()
            .chain(first_move_block(self.0).into_iter().flat_map(|t| {
                [
                    Block::Paragraph(
                        "Who acts first: the initiative, rolled once before the first round; \
                         P(A wins) in the duels where each side acted first."
                            .into(),
                    ),
                    t,
                ]
            }))
            .collect(),
        )]
    }
}

/// A matchup's row of the results table.
fn result_row(m: &MatchupDoc) -> Vec<String> {
    let ci = |p: f64, c: [f64; 2]| percent_ci(p, c[0], c[1]);
    vec![
        m.name.clone(),
        thousands(m.trials),
        ci(m.p_a_win, m.p_a_win_ci95),
        ci(m.p_b_win, m.p_b_win_ci95),
        ci(m.p_draw, m.p_draw_ci95),
        m.exact
            .as_ref()
            .map_or("—".into(), |e| percent_exact(e.p_a_win)),
        format!(
            "{:.2} ± {:.2} (p50 {}, p90 {}, p99 {})",
            m.rounds.mean, m.rounds.sd, m.rounds.p50, m.rounds.p90, m.rounds.p99
        ),
        m.verdict.clone(),
    ]
}

/// The summary table of a run (percentages, 95 % Wilson intervals in brackets).
pub fn run_table(d: &RunDoc) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} · ruleset {} · seed {}",
        d.scenario, d.ruleset, d.seed
    );
    if let Some(desc) = &d.description {
        let _ = writeln!(s, "{desc}");
    }
    let changed: Vec<String> = d
        .options
        .iter()
        .filter(|o| !o.default)
        .map(|o| format!("{} = {}", o.name, toml_text(&o.value)))
        .collect();
    let _ = writeln!(
        s,
        "options: {}",
        if changed.is_empty() {
            "all defaults".to_string()
        } else {
            changed.join(", ")
        }
    );
    let w = d
        .matchups
        .iter()
        .map(|m| m.name.chars().count())
        .max()
        .unwrap_or(7)
        .max(7);
    // A study-only scenario (a tournament, checks) has no matchup table.
    if d.matchups.is_empty() {
        return s;
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:w$}  {:>10}  {:<23}  {:<23}  {:<23}  {:>8}  {:>13}  {:>11}",
        "matchup",
        "trials",
        "P(A wins) % [95% CI]",
        "P(B wins) % [95% CI]",
        "P(draw) % [95% CI]",
        "exact A%",
        "rounds mean±sd",
        "p50/p90/p99"
    );
    for m in &d.matchups {
        let exact = m
            .exact
            .as_ref()
            .map_or("—".to_string(), |e| pct_padded(e.p_a_win));
        let _ = writeln!(
            s,
            "{:w$}  {:>10}  {:<23}  {:<23}  {:<23}  {:>8}  {:>13}  {:>11}",
            m.name,
            thousands(m.trials),
            pct_ci_padded(m.p_a_win, m.p_a_win_ci95),
            pct_ci_padded(m.p_b_win, m.p_b_win_ci95),
            pct_ci_padded(m.p_draw, m.p_draw_ci95),
            exact,
            format!("{:.2}±{:.2}", m.rounds.mean, m.rounds.sd),
            format!("{}/{}/{}", m.rounds.p50, m.rounds.p90, m.rounds.p99),
        );
    }
    let _ = writeln!(s);
    for m in &d.matchups {
        matchup_lines(&mut s, m);
    }
    s.push_str(&super::group::group_text(d));
    s
}

/// The two sides' names, told apart in a mirror matchup (`d1 (A)`, `d1 (B)`).
pub fn sides(m: &MatchupDoc) -> (String, String) {
    if m.a == m.b {
        (format!("{} (A)", m.a), format!("{} (B)", m.b))
    } else {
        (m.a.clone(), m.b.clone())
    }
}

/// The prefix a comparison part puts before its matchup and both fighters (`draft: `), if
/// any: the lines under the matchup's name leave it out instead of repeating it.
fn part_prefix(m: &MatchupDoc) -> Option<&str> {
    let i = m.name.find(": ")?;
    let p = &m.name[..i + 2];
    (m.a.starts_with(p) && m.b.starts_with(p)).then_some(p)
}

/// A matchup's verdict, exact solution, damage and endings.
fn matchup_lines(s: &mut String, m: &MatchupDoc) {
    let prefix = part_prefix(m).unwrap_or("");
    let bare = |t: &str| t.strip_prefix(prefix).unwrap_or(t).to_string();
    let _ = writeln!(s, "{}: {}", m.name, bare(&m.verdict));
    if let Some(e) = &m.exact {
        let _ = writeln!(
            s,
            "  exact P(A wins) {:.6}, mean rounds {:.4}; Monte Carlo is {:+.2} standard errors from it",
            e.p_a_win, e.mean_rounds, e.monte_carlo_z
        );
    }
    let (a, b) = sides(m);
    let (a, b) = (bare(&a), bare(&b));
    if let Some(f) = &m.first_move {
        let _ = writeln!(s, "  {}", first_move_text(f, &a, &b));
    }
    let _ = writeln!(
        s,
        "  damage dealt per duel: {a} {:.2}±{:.2}, {b} {:.2}±{:.2}; hit rate {:.1} % / {:.1} %",
        m.side_a.damage.mean,
        m.side_a.damage.sd,
        m.side_b.damage.mean,
        m.side_b.damage.sd,
        100.0 * m.side_a.hit_rate,
        100.0 * m.side_b.hit_rate
    );
    let endings: Vec<String> = m
        .endings
        .iter()
        .map(|(k, v)| format!("{k} {}", pct_padded(*v as f64 / m.trials as f64).trim()))
        .collect();
    let _ = writeln!(s, "  endings %: {}", endings.join(", "));
}

/// A probability that is exact where known, with its Monte Carlo estimate and interval:
/// `58.53 % exact (Monte Carlo 58.21 [57.30, 59.10])`, or the estimate alone.
fn exact_or_mc(exact: Option<f64>, mc: f64, ci: [f64; 2]) -> String {
    let mc = percent_ci(mc, ci[0], ci[1]);
    match exact {
        Some(e) => format!("{} exact (Monte Carlo {mc})", percent(e)),
        None => mc,
    }
}

/// Who acts first and what it is worth, in one line: `alda acts first 72.34 % (exact); P(alda
/// wins) when alda acts first 58.53 % exact (Monte Carlo …), when bram acts first …`.
pub fn first_move_text(f: &FirstMoveDoc, a: &str, b: &str) -> String {
    let [mc, lo, hi] = f.p_a_first_monte_carlo;
    let mut t = format!(
        "{a} acts first {} (exact; Monte Carlo {}); P({a} wins)",
        percent(f.p_a_first),
        percent_ci(mc, lo, hi)
    );
    let mut parts = Vec::new();
    for (who, g) in [(a, &f.given_a_first), (b, &f.given_b_first)] {
        match g {
            Some(g) => parts.push(format!(
                " when {who} acts first {}",
                exact_or_mc(g.exact_p_a_win, g.p_a_win, g.p_a_win_ci95)
            )),
            None => parts.push(format!(" when {who} acts first: never happens")),
        }
    }
    t.push_str(&parts.join(","));
    t
}

/// The who-acts-first table of the page: one row per matchup that has one.
fn first_move_block(d: &ReportData) -> Option<Block> {
    let rows: Vec<Vec<String>> = d
        .run
        .matchups
        .iter()
        .filter_map(|m| {
            let f = m.first_move.as_ref()?;
            let given = |g: &Option<GivenDoc>| {
                g.as_ref().map_or("never happens".to_string(), |g| {
                    exact_or_mc(g.exact_p_a_win, g.p_a_win, g.p_a_win_ci95)
                })
            };
            let [mc, lo, hi] = f.p_a_first_monte_carlo;
            Some(vec![
                m.name.clone(),
                format!(
                    "{} exact (Monte Carlo {})",
                    percent(f.p_a_first),
                    percent_ci(mc, lo, hi)
                ),
                given(&f.given_a_first),
                given(&f.given_b_first),
            ])
        })
        .collect();
    (!rows.is_empty()).then(|| {
        Block::table(
            head([
                "matchup",
                "P(A acts first)",
                "P(A wins | A acts first)",
                "P(A wins | B acts first)",
            ]),
            rows,
        )
    })
}

/// One row per matchup with a who-acts-first split: P(A acts first), exact and Monte Carlo,
/// and P(A wins) given each order.
#[cfg(feature = "tables")]
pub fn first_move(d: &ReportData) -> PolarsResult<DataFrame> {
    let m: Vec<(&MatchupDoc, &FirstMoveDoc)> = d
        .run
        .matchups
        .iter()
        .filter_map(|x| Some((x, x.first_move.as_ref()?)))
        .collect();
    let g = |f: &FirstMoveDoc, a: bool| {
        if a {
            f.given_a_first.clone()
        } else {
            f.given_b_first.clone()
        }
    };
    let mut cols = vec![
        col_by("matchup", &m, |x| x.0.name.as_str()),
        col_by("p_a_first", &m, |x| x.1.p_a_first),
        col_by("p_a_first_mc", &m, |x| x.1.p_a_first_monte_carlo[0]),
        col_by("p_a_first_mc_lo", &m, |x| x.1.p_a_first_monte_carlo[1]),
        col_by("p_a_first_mc_hi", &m, |x| x.1.p_a_first_monte_carlo[2]),
    ];
    for (side, a) in [("a_first", true), ("b_first", false)] {
        cols.push(col_by(&format!("{side}_trials"), &m, |x| {
            g(x.1, a).map(|g| g.trials)
        }));
        cols.push(col_by(&format!("p_a_win_given_{side}"), &m, |x| {
            g(x.1, a).map(|g| g.p_a_win)
        }));
        cols.push(col_by(&format!("p_a_win_given_{side}_lo"), &m, |x| {
            g(x.1, a).map(|g| g.p_a_win_ci95[0])
        }));
        cols.push(col_by(&format!("p_a_win_given_{side}_hi"), &m, |x| {
            g(x.1, a).map(|g| g.p_a_win_ci95[1])
        }));
        cols.push(col_by(&format!("exact_p_a_win_given_{side}"), &m, |x| {
            g(x.1, a).and_then(|g| g.exact_p_a_win)
        }));
    }
    DataFrame::new_infer_height(cols)
}

/// One row per matchup: outcome probabilities with 95 % Wilson intervals, exact values,
/// fight length and the advantage of A.
#[cfg(feature = "tables")]
pub fn outcomes(d: &ReportData) -> PolarsResult<DataFrame> {
    let m = &d.run.matchups[..];
    let e = |x: &MatchupDoc, g: fn(&ExactDoc) -> f64| x.exact.as_ref().map(g);
    DataFrame::new_infer_height(vec![
        col_by("matchup", m, |x| x.name.as_str()),
        col_by("a", m, |x| x.a.as_str()),
        col_by("b", m, |x| x.b.as_str()),
        col_by("trials", m, |x| x.trials),
        col_by("a_wins", m, |x| x.a_wins),
        col_by("b_wins", m, |x| x.b_wins),
        col_by("draws", m, |x| x.draws),
        col_by("p_a_win", m, |x| x.p_a_win),
        col_by("p_a_win_lo", m, |x| x.p_a_win_ci95[0]),
        col_by("p_a_win_hi", m, |x| x.p_a_win_ci95[1]),
        col_by("p_b_win", m, |x| x.p_b_win),
        col_by("p_b_win_lo", m, |x| x.p_b_win_ci95[0]),
        col_by("p_b_win_hi", m, |x| x.p_b_win_ci95[1]),
        col_by("p_draw", m, |x| x.p_draw),
        col_by("p_draw_lo", m, |x| x.p_draw_ci95[0]),
        col_by("p_draw_hi", m, |x| x.p_draw_ci95[1]),
        col_by("exact_p_a_win", m, |x| e(x, |x| x.p_a_win)),
        col_by("exact_p_b_win", m, |x| e(x, |x| x.p_b_win)),
        col_by("exact_p_draw", m, |x| e(x, |x| x.p_draw)),
        col_by("exact_mean_rounds", m, |x| e(x, |x| x.mean_rounds)),
        col_by("rounds_mean", m, |x| x.rounds.mean),
        col_by("rounds_sd", m, |x| x.rounds.sd),
        col_by("rounds_p50", m, |x| x.rounds.p50),
        col_by("rounds_p90", m, |x| x.rounds.p90),
        col_by("rounds_p99", m, |x| x.rounds.p99),
        col_by("rounds_max", m, |x| x.rounds.max),
        col_by("advantage_a", m, |x| x.advantage_a[0]),
        col_by("advantage_a_lo", m, |x| x.advantage_a[1]),
        col_by("advantage_a_hi", m, |x| x.advantage_a[2]),
        col_by("advantage_source", m, |x| x.advantage_source),
        col_by("verdict", m, |x| x.verdict.as_str()),
    ])
}

/// One row per matchup and way of ending (incapacitated, death, timeout, …).
#[cfg(feature = "tables")]
pub fn endings(d: &ReportData) -> PolarsResult<DataFrame> {
    let (mut name, mut ending, mut count, mut p, mut lo, mut hi) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for (m, s) in d.run.matchups.iter().zip(&d.stats) {
        let n = s.trials();
        for e in Ending::ALL {
            let c = s.ending(e);
            if c == 0 {
                continue;
            }
            let (l, h) = wilson95(c, n);
            name.push(m.name.as_str());
            ending.push(e.name());
            count.push(c);
            p.push(c as f64 / n as f64);
            lo.push(l);
            hi.push(h);
        }
    }
    DataFrame::new_infer_height(vec![
        col("matchup", name),
        col("ending", ending),
        col("count", count),
        col("p", p),
        col("p_lo", lo),
        col("p_hi", hi),
    ])
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
