//! report.md and the self-contained report.html (inline SVG, inline CSS, no script, no network).

use std::fmt::Write as _;

use crate::data::ReportData;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn pct(p: f64) -> String {
    format!("{:.2} %", 100.0 * p)
}

fn ci(p: f64, c: [f64; 2]) -> String {
    format!("{} [{:.2}, {:.2}]", pct(p), 100.0 * c[0], 100.0 * c[1])
}

fn value_text(v: &serde_json::Value) -> String {
    crate::doc::toml_text(v)
}

fn spec_text(spec: &serde_json::Value) -> String {
    spec.as_object()
        .map_or(vec![], |o| {
            o.iter()
                .map(|(k, v)| format!("{k} = {}", value_text(v)))
                .collect::<Vec<_>>()
        })
        .join(", ")
}

fn facts_text(facts: &[(String, String)], prefix: &str) -> String {
    if facts.is_empty() {
        return String::new();
    }
    let f: Vec<String> = facts.iter().map(|(k, v)| format!("{k} {v}")).collect();
    format!("{prefix}{}", f.join(", "))
}

/// Rows of the results table: matchup, trials, P(A), P(B), P(draw), exact, rounds, verdict.
fn result_rows(d: &ReportData) -> Vec<[String; 8]> {
    d.run
        .matchups
        .iter()
        .map(|m| {
            [
                m.name.clone(),
                m.trials.to_string(),
                ci(m.p_a_win, m.p_a_win_ci95),
                ci(m.p_b_win, m.p_b_win_ci95),
                ci(m.p_draw, m.p_draw_ci95),
                m.exact
                    .as_ref()
                    .map_or("—".into(), |e| format!("{:.4} %", 100.0 * e.p_a_win)),
                format!(
                    "{:.2} ± {:.2} (p50 {}, p90 {}, p99 {})",
                    m.rounds.mean, m.rounds.sd, m.rounds.p50, m.rounds.p90, m.rounds.p99
                ),
                m.verdict.clone(),
            ]
        })
        .collect()
}

const RESULT_HEAD: [&str; 8] = [
    "matchup",
    "trials",
    "P(A wins) [95 % CI]",
    "P(B wins) [95 % CI]",
    "P(draw) [95 % CI]",
    "exact P(A wins)",
    "rounds mean ± sd",
    "verdict",
];

fn header_facts(d: &ReportData) -> Vec<(&'static str, String)> {
    let trials: Vec<String> = {
        let mut t: Vec<u64> = d.run.matchups.iter().map(|m| m.trials).collect();
        t.dedup();
        t.iter().map(u64::to_string).collect()
    };
    vec![
        ("ruleset", d.run.ruleset.clone()),
        ("scenario file", d.meta.scenario_file.clone()),
        ("seed", d.run.seed.to_string()),
        ("trials per matchup", trials.join(", ")),
        ("oddsmith", d.meta.oddsmith_version.clone()),
        ("generated", d.meta.generated_at.clone()),
        ("command", d.meta.command.clone()),
    ]
}

/// Check grid as rows of cells "exact (Monte Carlo)".
fn check_grid(d: &ReportData) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    let g = d.checks.as_ref()?;
    let mut cols: Vec<(String, i64)> = vec![];
    for c in &g.cells {
        if !cols.iter().any(|(n, _)| *n == c.col) {
            cols.push((c.col.clone(), c.col_value));
        }
    }
    let mut rows: Vec<i64> = g.cells.iter().map(|c| c.row).collect();
    rows.dedup();
    let head = std::iter::once(g.row_name.clone())
        .chain(
            cols.iter()
                .map(|(n, v)| format!("{n} ({} {v})", g.col_value_name.to_uppercase())),
        )
        .collect();
    let body = rows
        .iter()
        .map(|r| {
            std::iter::once(r.to_string())
                .chain(cols.iter().map(|(n, _)| {
                    g.cells
                        .iter()
                        .find(|c| c.row == *r && c.col == *n)
                        .map_or(String::new(), |c| {
                            format!("{:.3} ({:.3})", c.exact, c.mc.p())
                        })
                }))
                .collect()
        })
        .collect();
    Some((head, body))
}

/// report.md: the tables, and the charts as linked SVG files.
pub fn markdown(d: &ReportData, tables: &[&str], charts: &[(String, String, String)]) -> String {
    let mut s = String::new();
    let r = &d.run;
    let _ = writeln!(s, "# {}\n", r.scenario);
    if let Some(desc) = &r.description {
        let _ = writeln!(s, "{desc}\n");
    }
    for (k, v) in header_facts(d) {
        let _ = writeln!(s, "- **{k}:** {}", v.replace('|', "\\|"));
    }
    let sections = study_sections(d);
    let failed = d
        .run
        .study
        .as_ref()
        .map_or(vec![], crate::study_html::failed_lines);
    if !failed.is_empty() {
        let _ = writeln!(
            s,
            "\n> **{} assertion{} failed:**",
            failed.len(),
            if failed.len() == 1 { "" } else { "s" }
        );
        for f in &failed {
            let _ = writeln!(s, ">\n> - {}", f.replace('|', "\\|"));
        }
    }
    let _ = writeln!(s, "\n## Results\n");
    let _ = writeln!(s, "| {} |", RESULT_HEAD.join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(RESULT_HEAD.len()));
    for row in result_rows(d) {
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
    let _ = writeln!(
        s,
        "\nProbabilities in %, 95 % Wilson intervals in brackets. The verdict compares P(A) − P(B); it names a favourite only when the difference is significant and at least 2 points.\n"
    );
    s.push_str(&crate::study_html::markdown(&sections, charts));
    let in_study = crate::study_html::chart_stems(&sections);
    let _ = writeln!(s, "## Charts\n");
    for (stem, title, _) in charts {
        if in_study.contains(&stem.as_str()) {
            continue;
        }
        let _ = writeln!(s, "![{title}](charts/{stem}.svg)\n");
    }
    if let Some((head, body)) = check_grid(d) {
        let _ = writeln!(s, "## Checks: exact P(success) (Monte Carlo in brackets)\n");
        let _ = writeln!(s, "| {} |", head.join(" | "));
        let _ = writeln!(s, "|{}", "---|".repeat(head.len()));
        for row in body {
            let _ = writeln!(s, "| {} |", row.join(" | "));
        }
        s.push('\n');
    }
    let _ = writeln!(s, "## Fighters\n");
    for f in &d.fighters {
        let _ = writeln!(
            s,
            "- **{}:** {}{}",
            f.name,
            spec_text(&f.spec),
            facts_text(&f.facts, " — ")
        );
    }
    let _ = writeln!(
        s,
        "\n## Options\n\n| option | value | default? |\n|---|---|---|"
    );
    for o in &r.options {
        let _ = writeln!(
            s,
            "| {} | {} | {} |",
            o.name,
            value_text(&o.value),
            if o.default { "default" } else { "**changed**" }
        );
    }
    let _ = writeln!(s, "\n## Tables\n");
    for t in tables {
        let _ = writeln!(
            s,
            "- `{t}`: [CSV](tables/{t}.csv), [Parquet](tables/{t}.parquet)"
        );
    }
    s
}

const CSS: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1180px;margin:2em auto;padding:0 1em;color:#1a1a1a;line-height:1.45}\
h1{margin-bottom:.2em}h2{margin-top:1.8em;border-bottom:1px solid #ddd;padding-bottom:.2em}\
table{border-collapse:collapse;margin:.8em 0;font-size:.92em}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}\
th{background:#f2f2f2}tr:nth-child(even) td{background:#fafafa}.num{text-align:right;font-variant-numeric:tabular-nums}\
.changed{font-weight:bold;color:#9a3b00}.facts td:first-child{font-weight:600;white-space:nowrap}\
figure{margin:1.2em 0}figure svg{max-width:100%;height:auto;border:1px solid #eee}\
.note{color:#555;font-size:.92em}code{background:#f4f4f4;padding:0 .25em}\
.fail{border:2px solid #b00020;background:#fdecee;color:#6d0014;padding:.6em 1em;margin:1em 0;border-radius:4px}\
.fail ul{margin:.3em 0 0;padding-left:1.2em}h3{margin-top:1.4em}h4{margin:1em 0 .3em}";

/// An SVG chart inline in a `<figure>` (without its XML declaration).
fn figure(s: &mut String, title: &str, svg: &str) {
    let svg = svg.trim_start_matches(|c| c != '<');
    let svg = if svg.starts_with("<?xml") {
        svg.split_once("?>").map_or(svg, |x| x.1)
    } else {
        svg
    };
    let _ = writeln!(
        s,
        "<figure role=\"img\" aria-label=\"{}\">{}</figure>",
        esc(title),
        svg.trim()
    );
}

/// The study subsections of a report (none without a study).
fn study_sections(d: &ReportData) -> Vec<crate::study_html::Section> {
    let mut v = d
        .run
        .study
        .as_ref()
        .map_or(vec![], crate::study_html::sections);
    if let Some(c) = &d.run.comparison {
        v.extend(crate::comparison::sections(c));
    }
    v
}

fn table(s: &mut String, head: &[String], rows: &[Vec<String>]) {
    let _ = write!(s, "<table><thead><tr>");
    for h in head {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    let _ = write!(s, "</tr></thead><tbody>");
    for r in rows {
        let _ = write!(s, "<tr>");
        for c in r {
            let _ = write!(s, "<td>{}</td>", esc(c));
        }
        let _ = write!(s, "</tr>");
    }
    let _ = writeln!(s, "</tbody></table>");
}

/// report.html: one self-contained file.
pub fn html(d: &ReportData, tables: &[&str], charts: &[(String, String, String)]) -> String {
    let r = &d.run;
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{} · oddsmith report</title><style>{CSS}</style></head><body>\n",
        esc(&r.scenario)
    );
    let _ = writeln!(s, "<h1>{}</h1>", esc(&r.scenario));
    if let Some(desc) = &r.description {
        let _ = writeln!(s, "<p>{}</p>", esc(desc));
    }
    let _ = write!(s, "<table class=\"facts\">");
    for (k, v) in header_facts(d) {
        let _ = write!(s, "<tr><td>{}</td><td>{}</td></tr>", esc(k), esc(&v));
    }
    let _ = writeln!(s, "</table>");
    let sections = study_sections(d);
    let failed = d
        .run
        .study
        .as_ref()
        .map_or(vec![], crate::study_html::failed_lines);
    if !failed.is_empty() {
        let _ = write!(
            s,
            "<div class=\"fail\"><strong>{} assertion{} failed</strong><ul>",
            failed.len(),
            if failed.len() == 1 { "" } else { "s" }
        );
        for f in &failed {
            let _ = write!(s, "<li>{}</li>", esc(f));
        }
        let _ = writeln!(s, "</ul></div>");
    }
    let _ = writeln!(s, "<h2>Results</h2>");
    let head: Vec<String> = RESULT_HEAD.iter().map(|h| h.to_string()).collect();
    let rows: Vec<Vec<String>> = result_rows(d).into_iter().map(Vec::from).collect();
    table(&mut s, &head, &rows);
    let _ = writeln!(
        s,
        "<p class=\"note\">A is the first fighter of each matchup. Probabilities with 95 % Wilson intervals. The verdict compares P(A) − P(B) with its own interval and names a favourite only when the difference is significant <em>and</em> at least 2 percentage points. Exact values come from the ruleset's exact solver (the same rules code, every die face enumerated).</p>"
    );
    s.push_str(&crate::study_html::html(
        &sections, charts, esc, table, figure,
    ));
    let in_study = crate::study_html::chart_stems(&sections);
    let _ = writeln!(s, "<h2>Charts</h2>");
    for (stem, title, svg) in charts {
        if !in_study.contains(&stem.as_str()) {
            figure(&mut s, title, svg);
        }
    }
    if let Some((head, body)) = check_grid(d) {
        let _ = writeln!(
            s,
            "<h2>Checks</h2><p class=\"note\">Exact P(success), Monte Carlo estimate in brackets.</p>"
        );
        table(&mut s, &head, &body);
    }
    let _ = writeln!(s, "<h2>Fighters</h2>");
    let fhead = vec![
        "fighter".to_string(),
        "as run (defaults filled in)".to_string(),
        "derived".to_string(),
    ];
    let frows: Vec<Vec<String>> = d
        .fighters
        .iter()
        .map(|f| vec![f.name.clone(), spec_text(&f.spec), facts_text(&f.facts, "")])
        .collect();
    table(&mut s, &fhead, &frows);
    let _ = writeln!(
        s,
        "<h2>Options</h2><table><thead><tr><th>option</th><th>value</th><th>default?</th></tr></thead><tbody>"
    );
    for o in &r.options {
        let (class, label) = if o.default {
            ("", "default")
        } else {
            (" class=\"changed\"", "changed")
        };
        let _ = write!(
            s,
            "<tr><td>{}</td><td{class}>{}</td><td{class}>{label}</td></tr>",
            esc(&o.name),
            esc(&value_text(&o.value))
        );
    }
    let _ = writeln!(s, "</tbody></table>");
    let _ = writeln!(s, "<h2>Tables</h2><ul>");
    for t in tables {
        let _ = writeln!(
            s,
            "<li><code>{t}</code>: <a href=\"tables/{t}.csv\">CSV</a> · <a href=\"tables/{t}.parquet\">Parquet</a></li>"
        );
    }
    let _ = writeln!(
        s,
        "</ul><p class=\"note\">Generated by oddsmith {}.</p></body></html>",
        esc(&d.meta.oddsmith_version)
    );
    s
}
