//! Terminal text of a scenario's studies: sweeps, balance, tournament, check grids and
//! assertions. Percentages with their 95 % intervals in brackets; lines at most 100 characters.

use std::fmt::Write;

use oddsmith_study::{
    AssertDoc, BalanceDoc, BalancePoint, BalanceStatus, CheckStudyDoc, Est, StudyDoc, SweepDoc,
    TournamentDoc,
};

/// Widest line the study tables aim for.
const WIDTH: usize = 100;

/// A swept value or cost as written: whole numbers without decimals, others with up to three.
pub(crate) fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A probability in percent, two decimals.
pub(crate) fn pct(p: f64) -> String {
    format!("{:.2}", 100.0 * p)
}

/// An estimate as `52.30 [51.32 53.28]` (percent).
pub(crate) fn est(e: &Est) -> String {
    format!("{} [{} {}]", pct(e.p), pct(e.lo), pct(e.hi))
}

/// A difference in percentage points, signed: `+3.10 [+2.52 +3.69]`.
pub(crate) fn pts(d: f64, lo: f64, hi: f64) -> String {
    format!("{:+.2} [{:+.2} {:+.2}]", 100.0 * d, 100.0 * lo, 100.0 * hi)
}

/// A p-value: four decimals, or `<0.0001`.
pub(crate) fn p_value(p: f64) -> String {
    if p < 1e-4 {
        "<0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

/// An assertion's value: percent for probabilities (`p_…` metrics), else three decimals.
pub(crate) fn metric_value(metric: &str, v: f64) -> String {
    if metric.starts_with("p_") {
        format!("{} %", pct(v))
    } else {
        format!("{v:.3}")
    }
}

/// An assertion's range in the metric's unit.
pub(crate) fn metric_range(metric: &str, r: (f64, f64)) -> String {
    if metric.starts_with("p_") {
        format!("[{} %, {} %]", pct(r.0), pct(r.1))
    } else {
        format!("[{}, {}]", num(r.0), num(r.1))
    }
}

/// The verdict and the value of an assertion: `PASS  <name>` and
/// `→ 51.23 % (exact, 95 % CI [49.00 53.00])`, with ` · uncertain` when the verdict may flip.
fn assert_parts(a: &AssertDoc) -> (String, String) {
    let ci = a.ci95.map_or(String::new(), |(l, h)| {
        if a.metric.starts_with("p_") {
            format!(", 95 % CI [{} {}]", pct(l), pct(h))
        } else {
            format!(", 95 % CI [{l:.3} {h:.3}]")
        }
    });
    (
        format!("{}  {}", if a.passed { "PASS" } else { "FAIL" }, a.name),
        format!(
            "→ {} ({}{ci}){}",
            metric_value(&a.metric, a.value),
            a.source,
            if a.certain { "" } else { " · uncertain" }
        ),
    )
}

/// One assertion as a line: `FAIL  knight vs brute: rounds_mean in [1, 3] → 4.250 (monte
/// carlo) · uncertain` (the name states the metric and its bounds).
pub(crate) fn assert_line(a: &AssertDoc) -> String {
    let (head, tail) = assert_parts(a);
    format!("{head} {tail}")
}

pub(crate) use crate::table::thousands;

/// `s` cut to at most `w` characters (with an ellipsis when cut).
fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(w.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// A grid with a label column: the columns are split into blocks so that no line is wider
/// than [`WIDTH`].
fn grid(s: &mut String, corner: &str, cols: &[String], rows: &[(String, Vec<String>)]) {
    let lw = rows
        .iter()
        .map(|r| r.0.chars().count())
        .chain([corner.chars().count()])
        .max()
        .unwrap_or(0)
        .min(24);
    let cw = cols
        .iter()
        .map(|c| c.chars().count())
        .chain(
            rows.iter()
                .flat_map(|r| r.1.iter().map(|c| c.chars().count())),
        )
        .max()
        .unwrap_or(1);
    let per = ((WIDTH.saturating_sub(2 + lw)) / (cw + 2)).max(1);
    let mut start = 0;
    while start < cols.len() {
        let end = (start + per).min(cols.len());
        let mut line = format!("  {:lw$}", fit(corner, lw));
        for c in &cols[start..end] {
            let _ = write!(line, "  {c:>cw$}");
        }
        let _ = writeln!(s, "{}", line.trim_end());
        for (label, cells) in rows {
            let mut line = format!("  {:lw$}", fit(label, lw));
            for c in &cells[start..end] {
                let _ = write!(line, "  {c:>cw$}");
            }
            let _ = writeln!(s, "{}", line.trim_end());
        }
        start = end;
    }
}

/// The study results as terminal text, printed after the run table: per sweep its points and
/// paired steps, the balance result, the tournament (win matrix, ranking, Nash mix, costs), the
/// check grids and the assertions. Empty for an empty study.
pub fn study_table(s: &StudyDoc) -> String {
    let mut out = String::new();
    if s.asserts.iter().any(|a| !a.passed) {
        let failed = s.failed_asserts().count();
        let _ = writeln!(
            out,
            "{failed} of {} assertion{} FAILED (details at the end)\n",
            s.asserts.len(),
            if s.asserts.len() == 1 { "" } else { "s" }
        );
    }
    for (i, sw) in s.sweeps.iter().enumerate() {
        sweep(&mut out, i, sw);
        out.push('\n');
    }
    if let Some(b) = &s.balance {
        balance(&mut out, b);
        out.push('\n');
    }
    if let Some(t) = &s.tournament {
        tournament(&mut out, t);
        out.push('\n');
    }
    for c in &s.checks {
        check(&mut out, c);
        out.push('\n');
    }
    if !s.asserts.is_empty() {
        let failed = s.failed_asserts().count();
        let _ = writeln!(
            out,
            "Assertions: {} passed, {failed} failed",
            s.asserts.len() - failed
        );
        for a in &s.asserts {
            let (head, tail) = assert_parts(a);
            if head.chars().count() + tail.chars().count() + 3 <= WIDTH {
                let _ = writeln!(out, "  {head} {tail}");
            } else {
                let _ = writeln!(out, "  {head}\n        {tail}");
            }
        }
        if s.asserts.iter().any(|a| !a.certain) {
            let _ = writeln!(
                out,
                "  uncertain: a Monte Carlo verdict another seed may flip (interval across a bound or unknown)"
            );
        }
    }
    let mut text = String::new();
    for line in out.trim_end().lines() {
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

fn sweep(s: &mut String, i: usize, sw: &SweepDoc) {
    let axes = match &sw.y {
        Some(y) => format!("x = {}, y = {}", sw.x.target, y.target),
        None => format!("x = {}", sw.x.target),
    };
    let _ = writeln!(
        s,
        "Sweep {} \"{}\": {} · {axes} · {} duels per point",
        i + 1,
        sw.name,
        sw.matchup,
        thousands(sw.trials)
    );
    let two = sw.y.is_some();
    let (xw, yw) = (
        sw.points
            .iter()
            .map(|p| num(p.x).len())
            .max()
            .unwrap_or(1)
            .max(6),
        sw.points
            .iter()
            .map(|p| p.y.map_or(1, |y| num(y).len()))
            .max()
            .unwrap_or(1)
            .max(6),
    );
    let y_head = if two {
        format!("  {:>yw$}", "y")
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "  {:>xw$}{y_head}  {:<23}  {:>8}  {:>7}  {:>7}  {:>6}",
        "x", "P(A wins) % [95% CI]", "exact A%", "P(B) %", "draw %", "rounds"
    );
    for p in &sw.points {
        let y = match p.y {
            Some(y) if two => format!("  {:>yw$}", num(y)),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "  {:>xw$}{y}  {:<23}  {:>8}  {:>7}  {:>7}  {:>6.2}",
            num(p.x),
            est(&p.p_a_win),
            p.exact_p_a_win.map_or("—".into(), pct),
            pct(p.p_b_win),
            pct(p.p_draw),
            p.rounds_mean
        );
    }
    if sw.steps.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "  steps, paired on common random numbers (change of P(A wins), percentage points):"
    );
    let _ = writeln!(
        s,
        "  {:>15}{y_head}  {:<24}  {:>8}  {:>8}  {:>10}",
        "x from → to", "ΔP(A wins) [95% CI]", "p-value", "paired ±", "unpaired ±"
    );
    for st in &sw.steps {
        let y = match st.y {
            Some(y) if two => format!("  {:>yw$}", num(y)),
            _ => String::new(),
        };
        let d = &st.diff;
        let _ = writeln!(
            s,
            "  {:>15}{y}  {:<24}  {:>8}  {:>8.2}  {:>10.2}",
            format!("{} → {}", num(st.from), num(st.to)),
            pts(d.diff, d.lo, d.hi),
            p_value(d.p_value),
            100.0 * (d.hi - d.lo) / 2.0,
            100.0 * st.unpaired_half_width
        );
    }
}

fn balance_point(p: &BalancePoint, field: &str) -> String {
    let exact = p
        .exact
        .map_or(String::new(), |e| format!(", exact {}", pct(e)));
    format!(
        "{} = {}: P {}{exact} · {}",
        fit(field, 30),
        num(p.value),
        est(&p.monte_carlo),
        if p.distinguishable {
            "differs from the target"
        } else {
            "indistinguishable from the target"
        }
    )
}

fn balance(s: &mut String, b: &BalanceDoc) {
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
            let _ = writeln!(
                s,
                "  found: {} = {}, measured again on fresh random numbers:",
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

fn tournament(s: &mut String, t: &TournamentDoc) {
    let n = t.fighters.len();
    let _ = writeln!(
        s,
        "Tournament \"{}\": {n} loadouts, {} duels per seating (each pair fought both ways)",
        t.name,
        thousands(t.trials_per_seating)
    );
    let _ = writeln!(s, "  P(row beats column) %:");
    let cols: Vec<String> = (1..=n).map(|j| j.to_string()).collect();
    let rows: Vec<(String, Vec<String>)> = (0..n)
        .map(|i| {
            (
                format!("{} {}", i + 1, t.fighters[i]),
                (0..n)
                    .map(|j| t.win[i][j].map_or("—".into(), |e| format!("{:.1}", 100.0 * e.p)))
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
    let _ = writeln!(
        s,
        "  {:>2}  {:fw$}  {:<23}  {:>8}  {:>6}  dominated",
        "#", "fighter", "P(win) % [95% CI]", "P(lose)%", "Nash %"
    );
    for (k, r) in t.ranking.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {:>2}  {:fw$}  {:<23}  {:>8}  {:>6.1}  {}",
            k + 1,
            fit(&r.fighter, fw),
            est(&r.win_rate),
            pct(r.loss_rate),
            100.0 * r.nash_share,
            if r.dominated { "yes" } else { "" }
        );
    }
    let Some(c) = &t.costs else { return };
    let _ = writeln!(
        s,
        "  cost efficiency: fair line P(win) = {} % {} {:.3} % × cost in {}",
        pct(c.intercept),
        if c.slope < 0.0 { "−" } else { "+" },
        100.0 * c.slope.abs(),
        c.unit
    );
    let _ = writeln!(
        s,
        "  {:fw$}  {:>8}  {:<23}  {:>6}  {:>8}  verdict",
        "fighter", "cost", "P(win) % [95% CI]", "fair %", "Δ pts"
    );
    for p in &c.points {
        let _ = writeln!(
            s,
            "  {:fw$}  {:>8}  {:<23}  {:>6}  {:>+8.2}  {}",
            fit(&p.fighter, fw),
            num(p.cost),
            est(&p.win_rate),
            pct(p.fair),
            100.0 * p.residual,
            p.verdict
        );
    }
    let under = c.points.iter().find(|p| p.verdict == "under-priced");
    let over = c.points.iter().rev().find(|p| p.verdict == "over-priced");
    let _ = writeln!(
        s,
        "  most under-priced: {}; most over-priced: {}",
        under.map_or("none significant".into(), |p| format!(
            "{} ({:+.1} pts)",
            p.fighter,
            100.0 * p.residual
        )),
        over.map_or("none significant".into(), |p| format!(
            "{} ({:+.1} pts)",
            p.fighter,
            100.0 * p.residual
        )),
    );
}

/// Row and column labels of a check study, in order of first appearance.
pub(crate) fn check_axes(c: &CheckStudyDoc) -> (Vec<Option<String>>, Vec<Option<String>>) {
    let mut rows: Vec<Option<String>> = vec![];
    let mut cols: Vec<Option<String>> = vec![];
    for cell in &c.cells {
        if !rows.contains(&cell.row) {
            rows.push(cell.row.clone());
        }
        if !cols.contains(&cell.col) {
            cols.push(cell.col.clone());
        }
    }
    (rows, cols)
}

fn check(s: &mut String, c: &CheckStudyDoc) {
    let params: Vec<String> = c.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(
        s,
        "Check \"{}\"{}",
        c.name,
        if params.is_empty() {
            String::new()
        } else {
            format!(" ({})", params.join(", "))
        }
    );
    if c.row_param.is_none() && c.col_param.is_none() {
        if let Some(cell) = c.cells.first() {
            let _ = writeln!(
                s,
                "  {}: exact {} % · Monte Carlo {} over {} rolls",
                cell.description,
                pct(cell.exact),
                est(&cell.monte_carlo),
                thousands(cell.monte_carlo.trials)
            );
        }
        return;
    }
    let (rows, cols) = check_axes(c);
    let corner = format!(
        "{} ↓ {} →",
        c.row_param.as_deref().unwrap_or("-"),
        c.col_param.as_deref().unwrap_or("-")
    );
    let col_names: Vec<String> = cols
        .iter()
        .map(|v| v.clone().unwrap_or_else(|| "P".into()))
        .collect();
    let cell = |r: &Option<String>, k: &Option<String>| {
        c.cells.iter().find(|x| x.row == *r && x.col == *k)
    };
    let body = |f: &dyn Fn(&oddsmith_study::CheckCellDoc) -> String| -> Vec<(String, Vec<String>)> {
        rows.iter()
            .map(|r| {
                (
                    r.clone().unwrap_or_default(),
                    cols.iter()
                        .map(|k| cell(r, k).map_or(String::new(), f))
                        .collect(),
                )
            })
            .collect()
    };
    let _ = writeln!(s, "  exact P(success) %:");
    grid(s, &corner, &col_names, &body(&|x| pct(x.exact)));
    let _ = writeln!(
        s,
        "  Monte Carlo P(success) % [95% CI], {} rolls per cell:",
        thousands(c.cells.first().map_or(0, |x| x.monte_carlo.trials))
    );
    grid(s, &corner, &col_names, &body(&|x| est(&x.monte_carlo)));
}
