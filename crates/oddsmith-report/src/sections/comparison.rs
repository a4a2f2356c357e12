//! A ruleset comparison in the terminal ([`comparison_table`]), the tables, the charts and
//! the page: archetypes (P(A wins), fight length, lethality), the effect of one skill step,
//! and checks cell by cell, each difference with its interval and test, and the verdicts
//! (judged in `oddsmith-study` with `oddsmith_stats::verdict`; rendered here).

use std::fmt::Write as _;

use oddsmith_study::ComparisonDoc;
use oddsmith_study::compare::{ArchetypeDoc, CheckCellCompare, CheckCompareDoc, Compared};
#[cfg(feature = "tables")]
use polars::prelude::{Column, DataFrame, PolarsResult};

use crate::charts::{Chart, Corner, IntervalPlot, Plot, Series, Style, XyPlot};
use crate::format::{col_by, p_value, pct, percent, points_ci, signed_points, z_score};
use crate::model::ReportData;
use crate::page::{Block, Section, head};

use super::subject::{NamedChart, NamedTable, Subject, aligned};

/// A comparison file's ruleset comparison.
pub struct Comparison<'a> {
    /// The comparison.
    pub c: &'a ComparisonDoc,
    /// The run, whose matchups are every part's (`<ruleset>: <archetype>`).
    pub d: &'a ReportData,
}

impl Subject for Comparison<'_> {
    fn text(&self) -> String {
        comparison_table(self.c)
    }

    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        tables(self.c)
    }

    fn charts(&self) -> Vec<NamedChart> {
        figures(self.c, self.d)
    }

    fn sections(&self) -> Vec<Section> {
        sections(self.c)
    }
}

/// Chart stem of the P(A wins) comparison.
pub const WIN_STEM: &str = "comparison-win";
/// Chart stem of the lethality comparison.
pub const LETHALITY_STEM: &str = "comparison-lethality";

/// Chart stem of compared check number `i`.
pub fn check_stem(i: usize) -> String {
    format!("comparison-check-{}", i + 1)
}

/// A difference in points: `+3.10 (exact)`, or `+3.10 [+2.52<sep>+3.69]` with its interval.
fn diff_points(c: &Compared, sep: &str) -> String {
    if let Some(m) = &c.monte_carlo_check {
        format!(
            "{} (exact; Monte Carlo {}, {} se)",
            signed_points(c.diff),
            signed_points(m.monte_carlo.diff),
            z_score(m.z)
        )
    } else if c.exact {
        format!("{} (exact)", signed_points(c.diff))
    } else {
        points_ci(c.diff, c.lo, c.hi, sep)
    }
}

/// A difference in points with its interval (or "exact"), and its test.
fn diff_text(c: &Compared) -> String {
    if c.exact {
        diff_points(c, " ")
    } else {
        format!("{} p={}", diff_points(c, " "), p_value(c.p_value))
    }
}

fn mark(decisive: bool) -> &'static str {
    if decisive { " *" } else { "" }
}

/// Terminal text of a comparison.
pub fn comparison_table(c: &ComparisonDoc) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {} (α = {}, practical threshold {} points; * = verdict)",
        heading(c),
        c.rulesets.join(" vs "),
        c.alpha,
        100.0 * c.practical_threshold
    );
    if let Some(note) = paired_note(c) {
        let _ = writeln!(s, "  {note}");
    }
    if !c.balance.is_empty() {
        balance_text(&mut s, c);
    }
    if !c.archetypes.is_empty() {
        archetypes_text(&mut s, c);
    }
    if !c.steps.is_empty() {
        steps_text(&mut s, c);
    }
    for ch in &c.checks {
        check_text(&mut s, ch);
    }
    for u in &c.unmatched {
        let _ = writeln!(s, "\nnot compared: {u}");
    }
    let _ = writeln!(s, "\nVerdicts");
    if c.verdicts.is_empty() {
        let _ = writeln!(
            s,
            "  none: no difference is both significant and at least {} points",
            100.0 * c.practical_threshold
        );
    }
    for v in &c.verdicts {
        let _ = writeln!(s, "  - {v}");
    }
    s
}

/// Overall balance: each part's mean distance of P(A wins) from 50 % and their difference.
fn balance_text(s: &mut String, c: &ComparisonDoc) {
    let _ = writeln!(
        s,
        "\nOverall balance (mean distance of P(A wins) from 50 %, in points; lower is more even)"
    );
    let rows: Vec<Vec<String>> = c.balance.iter().map(balance_row).collect();
    aligned(
        s,
        &[
            ("rulesets", false),
            ("matchups", true),
            ("first / second", true),
            ("difference", false),
            ("worst first", false),
            ("worst second", false),
        ],
        &rows,
    );
}

fn balance_row(b: &oddsmith_study::BalanceIndexDoc) -> Vec<String> {
    let v = b.index.values;
    vec![
        b.rulesets.join(" vs "),
        b.matchups.to_string(),
        format!("{:.1} / {:.1}", 100.0 * v[0], 100.0 * v[1]),
        format!("{}{}", diff_text(&b.index), mark(b.index.decisive)),
        format!("{} ({:.1})", b.worst[0].0, 100.0 * b.worst[0].1),
        format!("{} ({:.1})", b.worst[1].0, 100.0 * b.worst[1].1),
    ]
}

/// The archetypes: P(A wins), fight length and lethality under each ruleset, one aligned row
/// per measure.
fn archetypes_text(s: &mut String, c: &ComparisonDoc) {
    let _ = writeln!(
        s,
        "\nArchetypes (P in %, differences in points, first − second ruleset)"
    );
    let both = |v: [f64; 2], f: fn(f64) -> String| format!("{} / {}", f(v[0]), f(v[1]));
    let mut rows = Vec::new();
    for a in &c.archetypes {
        rows.push(vec![
            a.archetype.clone(),
            a.rulesets.join(" vs "),
            "P(A wins) %".into(),
            both(a.p_a_win.values, pct),
            format!("{}{}", diff_text(&a.p_a_win), mark(a.p_a_win.decisive)),
        ]);
        rows.push(vec![
            String::new(),
            String::new(),
            "rounds (mean)".into(),
            both(a.rounds_mean, |v| format!("{v:.2}")),
            format!(
                "KS D {:.3} (p {}){}",
                a.rounds_ks.d,
                p_value(a.rounds_ks.p_value),
                mark(a.rounds_decisive)
            ),
        ]);
        rows.push(vec![
            String::new(),
            String::new(),
            "lethality %".into(),
            both(a.lethality.values, pct),
            format!("{}{}", diff_text(&a.lethality), mark(a.lethality.decisive)),
        ]);
    }
    aligned(
        s,
        &[
            ("archetype", false),
            ("rulesets", false),
            ("measure", false),
            ("first / second", true),
            ("difference", false),
        ],
        &rows,
    );
}

/// The skill steps and their comparisons.
fn steps_text(s: &mut String, c: &ComparisonDoc) {
    let _ = writeln!(
        s,
        "\nOne skill step (paired: the same random numbers before and after)"
    );
    let rows: Vec<Vec<String>> = c
        .steps
        .iter()
        .map(|st| {
            vec![
                st.ruleset.clone(),
                st.label.clone(),
                format!("{} → {}", pct(st.before.p), pct(st.after.p)),
                format!(
                    "{:+.2} [{:+.2} {:+.2}]",
                    100.0 * st.diff.diff,
                    100.0 * st.diff.lo,
                    100.0 * st.diff.hi
                ),
                st.exact_diff
                    .map_or(String::new(), |e| format!("{:+.2}", 100.0 * e)),
            ]
        })
        .collect();
    aligned(
        s,
        &[
            ("ruleset", false),
            ("step", false),
            ("P(A wins) %", true),
            ("change, points [95% CI]", false),
            ("exact", true),
        ],
        &rows,
    );
    for sc in &c.step_comparisons {
        let _ = writeln!(
            s,
            "  {} − {}: {}{}",
            sc.rulesets[0],
            sc.rulesets[1],
            diff_text(&sc.effect),
            mark(sc.effect.decisive)
        );
    }
}

/// A compared check, cell by cell.
fn check_text(s: &mut String, ch: &CheckCompareDoc) {
    let _ = writeln!(
        s,
        "\nCheck {:?}: exact P(success) % under {} / {}, difference, and the step from the previous row",
        ch.check, ch.rulesets[0], ch.rulesets[1]
    );
    let rows: Vec<Vec<String>> = ch
        .cells
        .iter()
        .map(|cell| {
            vec![
                cell.row.clone().unwrap_or_default(),
                cell.col.clone().unwrap_or_default(),
                format!("{} / {}", pct(cell.p.values[0]), pct(cell.p.values[1])),
                format!("{}{}", diff_text(&cell.p), mark(cell.p.decisive)),
                cell.step.as_ref().map_or(String::new(), |st| {
                    format!(
                        "{:+.2} / {:+.2}{}",
                        100.0 * st.values[0],
                        100.0 * st.values[1],
                        mark(st.decisive)
                    )
                }),
            ]
        })
        .collect();
    aligned(
        s,
        &[
            ("row", false),
            ("column", false),
            ("first / second", true),
            ("difference", false),
            ("step from previous row", false),
        ],
        &rows,
    );
}

/// The comparison's tables: `comparison_archetypes`, `comparison_steps`, `comparison_checks`.
#[cfg(feature = "tables")]
pub fn tables(c: &ComparisonDoc) -> PolarsResult<Vec<NamedTable>> {
    let mut v = Vec::new();
    if !c.archetypes.is_empty() {
        let a = &c.archetypes[..];
        v.push((
            "comparison_archetypes",
            DataFrame::new_infer_height(
                [
                    col_by("archetype", a, |r| r.archetype.as_str()),
                    col_by("ruleset_1", a, |r| r.rulesets[0].as_str()),
                    col_by("ruleset_2", a, |r| r.rulesets[1].as_str()),
                ]
                .into_iter()
                .chain(compared_columns("p_a_win", a, |r| &r.p_a_win, true))
                .chain([
                    col_by("rounds_mean_1", a, |r| r.rounds_mean[0]),
                    col_by("rounds_mean_2", a, |r| r.rounds_mean[1]),
                    col_by("rounds_ks_d", a, |r| r.rounds_ks.d),
                    col_by("rounds_ks_p_value", a, |r| r.rounds_ks.p_value),
                    col_by("rounds_verdict", a, |r| r.rounds_decisive),
                ])
                .chain(compared_columns("lethality", a, |r| &r.lethality, false))
                .collect(),
            )?,
        ));
    }
    if !c.steps.is_empty() {
        let st = &c.steps[..];
        v.push((
            "comparison_steps",
            DataFrame::new_infer_height(vec![
                col_by("ruleset", st, |s| s.ruleset.as_str()),
                col_by("step", st, |s| s.label.as_str()),
                col_by("p_before", st, |s| s.before.p),
                col_by("p_after", st, |s| s.after.p),
                col_by("effect", st, |s| s.diff.diff),
                col_by("effect_lo", st, |s| s.diff.lo),
                col_by("effect_hi", st, |s| s.diff.hi),
                col_by("effect_exact", st, |s| s.exact_diff),
            ])?,
        ));
    }
    if !c.checks.is_empty() {
        let rows: Vec<(&CheckCompareDoc, &CheckCellCompare)> = c
            .checks
            .iter()
            .flat_map(|ch| ch.cells.iter().map(move |cell| (ch, cell)))
            .collect();
        let step = |b: &CheckCellCompare, r: usize| b.step.as_ref().map(|s| s.values[r]);
        v.push((
            "comparison_checks",
            DataFrame::new_infer_height(vec![
                col_by("check", &rows, |(a, _)| Some(a.check.as_str())),
                col_by("ruleset_1", &rows, |(a, _)| Some(a.rulesets[0].as_str())),
                col_by("ruleset_2", &rows, |(a, _)| Some(a.rulesets[1].as_str())),
                col_by("row", &rows, |(_, b)| b.row.as_deref()),
                col_by("col", &rows, |(_, b)| b.col.as_deref()),
                col_by("p_success_1", &rows, |(_, b)| Some(b.p.values[0])),
                col_by("p_success_2", &rows, |(_, b)| Some(b.p.values[1])),
                col_by("diff", &rows, |(_, b)| Some(b.p.diff)),
                col_by("step_1", &rows, |(_, b)| step(b, 0)),
                col_by("step_2", &rows, |(_, b)| step(b, 1)),
                col_by("verdict", &rows, |(_, b)| b.p.decisive),
            ])?,
        ));
    }
    Ok(v)
}

/// The columns of a compared value: `<name>_1`, `<name>_2`, `<name>_diff` with its interval,
/// `<name>_p_value`, `<name>_exact` (when `exact`) and `<name>_verdict`.
#[cfg(feature = "tables")]
fn compared_columns<'a>(
    name: &str,
    a: &'a [ArchetypeDoc],
    of: fn(&ArchetypeDoc) -> &Compared,
    exact: bool,
) -> Vec<Column> {
    let n = |suffix: &str| format!("{name}_{suffix}");
    let mut v = vec![
        col_by(&n("1"), a, |r| of(r).values[0]),
        col_by(&n("2"), a, |r| of(r).values[1]),
        col_by(&n("diff"), a, |r| of(r).diff),
        col_by(&n("diff_lo"), a, |r| of(r).lo),
        col_by(&n("diff_hi"), a, |r| of(r).hi),
        col_by(&n("p_value"), a, |r| of(r).p_value),
    ];
    if exact {
        v.push(col_by(&n("exact"), a, |r| of(r).exact));
    }
    v.push(col_by(&n("verdict"), a, |r| of(r).decisive));
    v
}

/// Charts: P(A wins) and lethality per archetype and ruleset, with intervals and exact
/// markers; one success-curve chart per compared check.
pub fn figures(c: &ComparisonDoc, d: &ReportData) -> Vec<NamedChart> {
    let mut v = Vec::new();
    // Every part's matchups are in the run as "<ruleset>: <archetype>".
    let mut cats = Vec::new();
    let (mut win, mut exact, mut leth) = (Vec::new(), Vec::new(), Vec::new());
    let mut archetypes: Vec<&str> = Vec::new();
    for a in &c.archetypes {
        if !archetypes.contains(&a.archetype.as_str()) {
            archetypes.push(&a.archetype);
        }
    }
    for a in &archetypes {
        for r in &c.rulesets {
            let name = format!("{r}: {a}");
            let Some(i) = d.run.matchups.iter().position(|m| m.name == name) else {
                continue;
            };
            let m = &d.run.matchups[i];
            cats.push(name);
            win.push((m.p_a_win, m.p_a_win_ci95[0], m.p_a_win_ci95[1]));
            exact.push(m.exact.as_ref().map(|e| e.p_a_win));
            let s = &d.stats[i];
            let n = s.outcomes.total();
            let deaths = s.endings[oddsmith_rules::Ending::Death as usize];
            let (lo, hi) = oddsmith_stats::wilson95(deaths, n);
            leth.push((deaths as f64 / n as f64, lo, hi));
        }
    }
    if !cats.is_empty() {
        let n_cats = cats.len();
        let h = (170 + 60 * cats.len() as u32).min(1400);
        v.push((
            WIN_STEM.to_string(),
            Chart {
                title: "P(A wins) by archetype and ruleset".into(),
                width: 1000,
                height: h,
                plot: Plot::Intervals(IntervalPlot {
                    value_desc: "P(A wins), 95 % interval (red: exact)".into(),
                    categories: cats.clone(),
                    values: win,
                    exact,
                    range: (0.0, 1.0),
                    reference: Some(0.5),
                    percent: true,
                }),
            },
        ));
        v.push((
            LETHALITY_STEM.to_string(),
            Chart {
                title: "Lethality: share of fights ending in a death".into(),
                width: 1000,
                height: h,
                plot: Plot::Intervals(IntervalPlot {
                    value_desc: "P(the loser dies), 95 % interval".into(),
                    categories: cats,
                    values: leth,
                    exact: vec![None; n_cats],
                    range: (0.0, 1.0),
                    reference: None,
                    percent: true,
                }),
            },
        ));
    }
    for (i, ch) in c.checks.iter().enumerate() {
        if let Some(chart) = check_chart(ch) {
            v.push((check_stem(i), chart));
        }
    }
    v
}

/// P(success) over the rows (by position) for each column: solid for the first ruleset,
/// dashed for the second, one colour per column.
fn check_chart(ch: &CheckCompareDoc) -> Option<Chart> {
    let mut cols: Vec<Option<String>> = Vec::new();
    for c in &ch.cells {
        if !cols.contains(&c.col) {
            cols.push(c.col.clone());
        }
    }
    let nrows = ch.cells.len() / cols.len().max(1);
    if nrows < 2 {
        return None;
    }
    // Rows on a numeric axis when every row label ends in a number (e.g. "skill 4").
    let row_values: Option<Vec<f64>> = (0..nrows)
        .map(|r| {
            let label = ch.cells[r * cols.len()].row.as_deref()?;
            side(label, 0).rsplit(' ').next()?.parse::<f64>().ok()
        })
        .collect();
    let x_of = |row: usize| row_values.as_ref().map_or(row as f64, |v| v[row]);
    let mut series = Vec::new();
    for (k, col) in cols.iter().enumerate().take(10) {
        for (r, style) in [(0usize, Style::Line), (1, Style::Dashed)] {
            let points: Vec<(f64, f64)> = ch
                .cells
                .iter()
                .filter(|c| &c.col == col)
                .enumerate()
                .map(|(row, c)| (x_of(row), c.p.values[r]))
                .collect();
            let col_label = col.as_deref().map_or("", |c| side(c, r));
            let name = format!("{}: {col_label}", ch.rulesets[r]);
            series.push(Series::new(&name, k, style, points));
        }
    }
    let x_desc = match &row_values {
        Some(_) => ch.cells[0].row.as_deref().map_or("row".to_string(), |l| {
            let l = side(l, 0);
            l.rsplit_once(' ').map_or(l, |x| x.0).to_string()
        }),
        None => "row of the grid".into(),
    };
    let (x0, x1) = (x_of(0), x_of(nrows - 1));
    Some(Chart {
        title: format!(
            "Check {:?}: {} (solid) vs {} (dashed)",
            ch.check, ch.rulesets[0], ch.rulesets[1]
        ),
        width: 900,
        height: 520,
        plot: Plot::Xy(XyPlot {
            x_desc,
            y_desc: "P(success), exact".into(),
            x_range: (x0.min(x1), x0.max(x1)),
            y_range: (0.0, 1.0),
            y_percent: true,
            x_integer: true,
            series,
            legend: Corner::Right,
        }),
    })
}

/// The part of a compared label that belongs to ruleset `r` (labels read `first / second`
/// when the two rulesets differ).
fn side(label: &str, r: usize) -> &str {
    match label.split_once(" / ") {
        Some((a, b)) => {
            if r == 0 {
                a
            } else {
                b
            }
        }
        None => label,
    }
}

fn cells(c: &Compared) -> [String; 4] {
    [
        percent(c.values[0]),
        percent(c.values[1]),
        diff_points(c, ", "),
        if c.exact {
            "—".into()
        } else {
            p_value(c.p_value)
        },
    ]
}

/// The comparison part of report.md / report.html.
pub fn sections(c: &ComparisonDoc) -> Vec<Section> {
    let mut out = vec![verdicts_section(c)];
    if !c.archetypes.is_empty() {
        out.push(archetypes_section(c));
    }
    if !c.steps.is_empty() {
        out.push(steps_section(c));
    }
    out.extend(
        c.checks
            .iter()
            .enumerate()
            .map(|(i, ch)| check_section(heading(c), i, ch)),
    );
    out
}

/// Which pairs of variants of one ruleset ran on common random numbers, in a sentence; `None`
/// when no pair did.
/// "Variant comparison" when every compared archetype is a pair of variants of one ruleset
/// (house rules on common random numbers), else "Ruleset comparison".
fn heading(c: &ComparisonDoc) -> &'static str {
    if !c.archetypes.is_empty() && c.archetypes.iter().all(|a| a.paired) {
        "Variant comparison"
    } else {
        "Ruleset comparison"
    }
}

fn paired_note(c: &ComparisonDoc) -> Option<String> {
    let mut pairs: Vec<String> = Vec::new();
    for a in c.archetypes.iter().filter(|a| a.paired) {
        let p = a.rulesets.join(" vs ");
        if !pairs.contains(&p) {
            pairs.push(p);
        }
    }
    (!pairs.is_empty()).then(|| {
        format!(
            "{}: variants of one ruleset with the same fighters, run on common random numbers (P(A wins) compared with the paired interval and McNemar's test where not exact).",
            pairs.join(", ")
        )
    })
}

/// The rule, the verdicts and what could not be compared.
fn verdicts_section(c: &ComparisonDoc) -> Section {
    let mut b = vec![Block::Note(format!(
        "Rulesets {} side by side. A verdict is given only where a difference is significant at α = {} and at least {} points; where both rulesets solve a duel or a check exactly, the difference is exact and only the threshold applies.",
        c.rulesets.join(", "),
        c.alpha,
        100.0 * c.practical_threshold
    ))];
    if let Some(note) = paired_note(c) {
        b.push(Block::Note(note));
    }
    if !c.balance.is_empty() {
        b.push(Block::Note("Overall balance: each part's balance index is the mean distance of P(A wins) from 50 % over the matchups both parts have (lower is more even), with its worst matchup. The difference (first − second) has a delta-method interval, paired on common random numbers where the parts ran together, and gets a verdict by the same rule.".into()));
        b.push(Block::table(
            head([
                "rulesets",
                "matchups",
                "index (points)",
                "difference (points)",
                "worst matchup, first",
                "worst matchup, second",
            ]),
            c.balance.iter().map(balance_row).collect(),
        ));
    }
    if c.verdicts.is_empty() {
        b.push(Block::Note(
            "No verdict: no difference passed both tests.".into(),
        ));
    } else {
        b.push(Block::table(
            vec!["verdict".into()],
            c.verdicts.iter().map(|v| vec![v.clone()]).collect(),
        ));
    }
    for u in &c.unmatched {
        b.push(Block::Note(format!("Not compared: {u}.")));
    }
    Section::new(format!("{}: verdicts", heading(c)), b)
}

/// P(A wins), fight length and lethality per archetype.
fn archetypes_section(c: &ComparisonDoc) -> Section {
    let columns: Vec<String> = head([
        "archetype",
        "rulesets",
        "P(A wins) 1",
        "P(A wins) 2",
        "difference (points)",
        "p",
        "mean rounds",
        "KS D",
        "KS p",
        "lethality 1",
        "lethality 2",
        "difference",
        "p",
    ]);
    let rows = c
        .archetypes
        .iter()
        .map(|a| {
            let w = cells(&a.p_a_win);
            let l = cells(&a.lethality);
            vec![
                a.archetype.clone(),
                a.rulesets.join(" vs "),
                w[0].clone(),
                w[1].clone(),
                format!("{}{}", w[2], mark(a.p_a_win.decisive)),
                w[3].clone(),
                format!("{:.2} / {:.2}", a.rounds_mean[0], a.rounds_mean[1]),
                format!("{:.3}{}", a.rounds_ks.d, mark(a.rounds_decisive)),
                p_value(a.rounds_ks.p_value),
                l[0].clone(),
                l[1].clone(),
                format!("{}{}", l[2], mark(a.lethality.decisive)),
                l[3].clone(),
            ]
        })
        .collect();
    Section::new(
        format!("{}: archetypes", heading(c)),
        vec![
            Block::Note(archetypes_note(c)),
            Block::table(columns, rows),
            Block::Chart(WIN_STEM.into()),
            Block::Chart(LETHALITY_STEM.into()),
        ],
    )
}

/// What the archetype table's intervals and tests are, as they were used.
fn archetypes_note(c: &ComparisonDoc) -> String {
    let paired = c.archetypes.iter().filter(|a| a.paired).count();
    let interval = if paired == c.archetypes.len() {
        "P(A wins) differences use the paired interval (Newcombe's method for paired proportions) and McNemar's test, as the variants ran on common random numbers"
    } else if paired == 0 {
        "P(A wins) differences use Newcombe's interval for two independent proportions"
    } else {
        "P(A wins) differences use the paired interval (Newcombe's method for paired proportions) and McNemar's test for variants run on common random numbers, and Newcombe's interval for two independent proportions for the others"
    };
    format!(
        "The same archetype written in each ruleset's terms. {interval}; where both sides are solved the difference is exact. Fight lengths are compared by a two-sample Kolmogorov–Smirnov test and get a verdict only when the mean lengths also differ by at least {} %; lethality is the share of fights that end with the loser dead (independent-proportion interval, conservative on paired runs). * marks a verdict.",
        100.0 * oddsmith_study::ROUNDS_PRACTICAL
    )
}

/// The effect of one skill step per ruleset, and the effects compared.
fn steps_section(c: &ComparisonDoc) -> Section {
    let mut blocks = vec![
        Block::Note("How much one step of skill moves P(A wins) in each ruleset, measured on common random numbers (the same duels before and after the step). Rulesets are compared by a z-test on the two effects.".into()),
        Block::table(
            head(["ruleset", "step", "before", "after", "effect (points)", "exact effect"]),
            c.steps
                .iter()
                .map(|s| {
                    vec![
                        s.ruleset.clone(),
                        s.label.clone(),
                        percent(s.before.p),
                        percent(s.after.p),
                        format!(
                            "{:+.2} [{:+.2}, {:+.2}]",
                            100.0 * s.diff.diff,
                            100.0 * s.diff.lo,
                            100.0 * s.diff.hi
                        ),
                        s.exact_diff.map_or("—".into(), |e| format!("{:+.2}", 100.0 * e)),
                    ]
                })
                .collect(),
        ),
    ];
    if !c.step_comparisons.is_empty() {
        blocks.push(Block::table(
            head([
                "rulesets",
                "effect 1",
                "effect 2",
                "difference (points)",
                "p",
            ]),
            c.step_comparisons
                .iter()
                .map(|s| {
                    let e = &s.effect;
                    vec![
                        s.rulesets.join(" vs "),
                        format!("{:+.2}", 100.0 * e.values[0]),
                        format!("{:+.2}", 100.0 * e.values[1]),
                        format!("{}{}", cells(e)[2], mark(e.decisive)),
                        cells(e)[3].clone(),
                    ]
                })
                .collect(),
        ));
    }
    Section::new(format!("{}: one skill step", heading(c)), blocks)
}

/// A compared check, cell by cell.
fn check_section(heading: &str, i: usize, ch: &CheckCompareDoc) -> Section {
    let rows = ch
        .cells
        .iter()
        .map(|cell| {
            let p = cells(&cell.p);
            vec![
                cell.row.clone().unwrap_or_default(),
                cell.col.clone().unwrap_or_default(),
                p[0].clone(),
                p[1].clone(),
                format!("{}{}", p[2], mark(cell.p.decisive)),
                cell.step.as_ref().map_or("—".into(), |s| {
                    format!("{:+.2} / {:+.2}", 100.0 * s.values[0], 100.0 * s.values[1])
                }),
            ]
        })
        .collect();
    Section::new(
        format!("{heading}: check {:?}", ch.check),
        vec![
            Block::Note(format!(
                "Exact P(success) under {} and {}, cell by cell (grids matched by position), and how much the step from the previous row moves it in each ruleset. For an opposed check written with the weaker side first, P(success) is the upset rate.",
                ch.rulesets[0], ch.rulesets[1]
            )),
            Block::table(
                [
                    "row".to_string(),
                    "column".into(),
                    ch.rulesets[0].clone(),
                    ch.rulesets[1].clone(),
                    "difference (points)".into(),
                    "row step (points)".into(),
                ]
                .to_vec(),
                rows,
            ),
            Block::Chart(check_stem(i)),
        ],
    )
}
