//! Terminal tables: readable at a glance, every probability with its interval.

use std::fmt::Write;

use crate::{CheckDoc, RunDoc};

fn pct(p: f64) -> String {
    format!("{:5.2}", 100.0 * p)
}

fn with_ci(p: f64, ci: [f64; 2]) -> String {
    format!("{} [{} {}]", pct(p), pct(ci[0]), pct(ci[1]))
}

/// `12,345`.
pub(crate) fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
        .map(|o| format!("{} = {}", o.name, crate::doc::toml_text(&o.value)))
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
        let exact = m.exact.as_ref().map_or("—".to_string(), |e| pct(e.p_a_win));
        let _ = writeln!(
            s,
            "{:w$}  {:>10}  {:<23}  {:<23}  {:<23}  {:>8}  {:>13}  {:>11}",
            m.name,
            thousands(m.trials),
            with_ci(m.p_a_win, m.p_a_win_ci95),
            with_ci(m.p_b_win, m.p_b_win_ci95),
            with_ci(m.p_draw, m.p_draw_ci95),
            exact,
            format!("{:.2}±{:.2}", m.rounds.mean, m.rounds.sd),
            format!("{}/{}/{}", m.rounds.p50, m.rounds.p90, m.rounds.p99),
        );
    }
    let _ = writeln!(s);
    for m in &d.matchups {
        let _ = writeln!(s, "{}: {}", m.name, m.verdict);
        if let Some(e) = &m.exact {
            let _ = writeln!(
                s,
                "  exact P(A wins) {:.6}, mean rounds {:.4}; Monte Carlo is {:+.2} standard errors from it",
                e.p_a_win, e.mean_rounds, e.monte_carlo_z
            );
        }
        let _ = writeln!(
            s,
            "  damage dealt per duel: {} {:.2}±{:.2}, {} {:.2}±{:.2}; hit rate {:.1} % / {:.1} %",
            m.a,
            m.side_a.damage.mean,
            m.side_a.damage.sd,
            m.b,
            m.side_b.damage.mean,
            m.side_b.damage.sd,
            100.0 * m.side_a.hit_rate,
            100.0 * m.side_b.hit_rate
        );
        let endings: Vec<String> = m
            .endings
            .iter()
            .map(|(k, v)| format!("{k} {}", pct(*v as f64 / m.trials as f64).trim()))
            .collect();
        let _ = writeln!(s, "  endings %: {}", endings.join(", "));
    }
    s
}

/// The table of a check: exact and Monte Carlo side by side.
pub fn check_table(d: &CheckDoc) -> String {
    let mut s = String::new();
    let e = &d.exact;
    let m = &d.monte_carlo;
    let _ = writeln!(s, "{} check: {}", d.ruleset, d.description);
    let _ = writeln!(
        s,
        "P(success): exact {:.6} ({}/{}) · Monte Carlo {:.6} [{:.6} {:.6}] over {} rolls ({:+.2} SE)",
        e.p_success,
        e.p_success_fraction[0],
        e.p_success_fraction[1],
        m.p_success,
        m.p_success_ci95[0],
        m.p_success_ci95[1],
        thousands(m.trials),
        m.z
    );
    for b in &e.bands {
        // Band probabilities are differences of sums: clamp rounding noise such as -1e-17.
        let _ = writeln!(s, "  {:<13} {:.6}", b.name, b.p.max(0.0));
    }
    let _ = writeln!(s, "{:>6}  {:>9}  {:>11}", "value", "exact", "Monte Carlo");
    for ((v, p), (_, f)) in e.distribution.iter().zip(&m.distribution) {
        let _ = writeln!(s, "{v:>6}  {p:>9.6}  {f:>11.6}");
    }
    s
}
