//! Result tables as polars DataFrames (written as CSV and Parquet). Column names are part of
//! the documented contract (README, "Report tables").

use oddsmith_rules::Ending;
use oddsmith_stats::wilson95;
use polars::prelude::*;

use crate::data::ReportData;

fn col<T, P>(name: &str, v: T) -> Column
where
    Series: NamedFrom<T, P>,
    P: ?Sized,
{
    Column::new(name.into(), v)
}

/// Every table of a report, by file stem; the study tables
/// ([`crate::study_frames::study_tables`]) follow the run's own.
pub fn tables(d: &ReportData) -> PolarsResult<Vec<(&'static str, DataFrame)>> {
    let mut v = vec![
        ("outcomes", outcomes(d)?),
        ("endings", endings(d)?),
        ("rounds", rounds(d)?),
        ("damage", damage(d)?),
        ("counters", counters(d)?),
    ];
    if let Some(c) = checks(d)? {
        v.push(("checks", c));
    }
    if let Some(s) = &d.run.study {
        v.extend(crate::study_frames::study_tables(s)?);
    }
    if let Some(c) = &d.run.comparison {
        v.extend(crate::comparison::tables(c)?);
    }
    Ok(v)
}

/// One row per matchup: outcome probabilities with 95 % Wilson intervals, exact values,
/// fight length and the advantage of A.
pub fn outcomes(d: &ReportData) -> PolarsResult<DataFrame> {
    let m = &d.run.matchups;
    let f = |g: &dyn Fn(&crate::MatchupDoc) -> f64| m.iter().map(g).collect::<Vec<f64>>();
    let e = |g: &dyn Fn(&crate::doc::ExactDoc) -> f64| {
        m.iter()
            .map(|x| x.exact.as_ref().map(g))
            .collect::<Vec<Option<f64>>>()
    };
    let u = |g: &dyn Fn(&crate::MatchupDoc) -> u64| m.iter().map(g).collect::<Vec<u64>>();
    DataFrame::new_infer_height(vec![
        col(
            "matchup",
            m.iter().map(|x| x.name.as_str()).collect::<Vec<_>>(),
        ),
        col("a", m.iter().map(|x| x.a.as_str()).collect::<Vec<_>>()),
        col("b", m.iter().map(|x| x.b.as_str()).collect::<Vec<_>>()),
        col("trials", u(&|x| x.trials)),
        col("a_wins", u(&|x| x.a_wins)),
        col("b_wins", u(&|x| x.b_wins)),
        col("draws", u(&|x| x.draws)),
        col("p_a_win", f(&|x| x.p_a_win)),
        col("p_a_win_lo", f(&|x| x.p_a_win_ci95[0])),
        col("p_a_win_hi", f(&|x| x.p_a_win_ci95[1])),
        col("p_b_win", f(&|x| x.p_b_win)),
        col("p_b_win_lo", f(&|x| x.p_b_win_ci95[0])),
        col("p_b_win_hi", f(&|x| x.p_b_win_ci95[1])),
        col("p_draw", f(&|x| x.p_draw)),
        col("p_draw_lo", f(&|x| x.p_draw_ci95[0])),
        col("p_draw_hi", f(&|x| x.p_draw_ci95[1])),
        col("exact_p_a_win", e(&|x| x.p_a_win)),
        col("exact_p_b_win", e(&|x| x.p_b_win)),
        col("exact_p_draw", e(&|x| x.p_draw)),
        col("exact_mean_rounds", e(&|x| x.mean_rounds)),
        col("rounds_mean", f(&|x| x.rounds.mean)),
        col("rounds_sd", f(&|x| x.rounds.sd)),
        col("rounds_p50", u(&|x| x.rounds.p50)),
        col("rounds_p90", u(&|x| x.rounds.p90)),
        col("rounds_p99", u(&|x| x.rounds.p99)),
        col("rounds_max", u(&|x| x.rounds.max)),
        col("advantage_a", f(&|x| x.advantage_a[0])),
        col("advantage_a_lo", f(&|x| x.advantage_a[1])),
        col("advantage_a_hi", f(&|x| x.advantage_a[2])),
        col(
            "verdict",
            m.iter().map(|x| x.verdict.as_str()).collect::<Vec<_>>(),
        ),
    ])
}

/// One row per matchup and way of ending (incapacitated, death, timeout, …).
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

/// The full fight-length histogram: one row per matchup and number of rounds.
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

/// Damage dealt per duel by each side: one row per matchup, side and damage total.
pub fn damage(d: &ReportData) -> PolarsResult<DataFrame> {
    let (mut name, mut side, mut fighter, mut dmg, mut count, mut p) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for (m, s) in d.run.matchups.iter().zip(&d.stats) {
        let n = s.trials() as f64;
        for (i, (label, f)) in [("a", &m.a), ("b", &m.b)].into_iter().enumerate() {
            for (v, c) in s.damage[i].iter() {
                name.push(m.name.as_str());
                side.push(label);
                fighter.push(f.as_str());
                dmg.push(v);
                count.push(c);
                p.push(c as f64 / n);
            }
        }
    }
    DataFrame::new_infer_height(vec![
        col("matchup", name),
        col("side", side),
        col("fighter", fighter),
        col("damage", dmg),
        col("count", count),
        col("p", p),
    ])
}

/// The ruleset's extra counters as means per duel.
pub fn counters(d: &ReportData) -> PolarsResult<DataFrame> {
    let (mut name, mut counter, mut mean) = (vec![], vec![], vec![]);
    for m in &d.run.matchups {
        for (k, v) in &m.counters {
            name.push(m.name.as_str());
            counter.push(*k);
            mean.push(*v);
        }
    }
    DataFrame::new_infer_height(vec![
        col("matchup", name),
        col("counter", counter),
        col("mean_per_duel", mean),
    ])
}

/// The check grid: exact P(success) and the Monte Carlo estimate with its interval.
pub fn checks(d: &ReportData) -> PolarsResult<Option<DataFrame>> {
    let Some(g) = &d.checks else { return Ok(None) };
    let cells = &g.cells;
    // A ruleset may name the column label and its value alike (d20: "defense").
    let value_name = if g.col_value_name == g.col_name {
        format!("{}_value", g.col_value_name)
    } else {
        g.col_value_name.clone()
    };
    let df = DataFrame::new_infer_height(vec![
        col(&g.row_name, cells.iter().map(|c| c.row).collect::<Vec<_>>()),
        col(
            &g.col_name,
            cells.iter().map(|c| c.col.as_str()).collect::<Vec<_>>(),
        ),
        col(
            &value_name,
            cells.iter().map(|c| c.col_value).collect::<Vec<_>>(),
        ),
        col(
            "exact_p_success",
            cells.iter().map(|c| c.exact).collect::<Vec<_>>(),
        ),
        col(
            "mc_trials",
            cells.iter().map(|c| c.mc.trials).collect::<Vec<_>>(),
        ),
        col(
            "mc_p_success",
            cells.iter().map(|c| c.mc.p()).collect::<Vec<_>>(),
        ),
        col(
            "mc_p_success_lo",
            cells.iter().map(|c| c.mc.wilson95().0).collect::<Vec<_>>(),
        ),
        col(
            "mc_p_success_hi",
            cells.iter().map(|c| c.mc.wilson95().1).collect::<Vec<_>>(),
        ),
    ])?;
    Ok(Some(df))
}

/// A table as CSV text (polars' writers take the frame mutably; it is not changed).
pub fn to_csv(df: &mut DataFrame) -> PolarsResult<String> {
    let mut buf = Vec::new();
    CsvWriter::new(&mut buf).finish(df)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// A table as Parquet bytes.
pub fn to_parquet(df: &mut DataFrame) -> PolarsResult<Vec<u8>> {
    let mut buf = Vec::new();
    ParquetWriter::new(&mut buf).finish(df)?;
    Ok(buf)
}
