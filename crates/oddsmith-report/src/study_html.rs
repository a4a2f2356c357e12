//! The "Study" part of report.md and report.html: one subsection per kind of study, each with
//! its tables, its charts and a sentence a designer can act on. The content is built once as
//! [`Section`]s and rendered to Markdown or HTML.

use std::fmt::Write as _;

use oddsmith_study::{BalanceStatus, CheckStudyDoc, StudyDoc, SweepDoc, TournamentDoc};

use crate::study_figures::{self, BALANCE, TOURNAMENT_COST, TOURNAMENT_MATRIX};
use crate::study_text::{
    assert_line, check_axes, metric_range, metric_value, num, p_value, pct, pts, thousands,
};

/// A piece of a study subsection.
pub(crate) enum Block {
    /// A minor heading inside the subsection.
    Heading(String),
    /// A short explanation.
    Note(String),
    /// A table: header and rows.
    Table(Vec<String>, Vec<Vec<String>>),
    /// A chart, by stem (drawn if the report has it).
    Chart(String),
}

/// One subsection of the study part.
pub(crate) struct Section {
    /// Its heading.
    pub title: String,
    /// Its content, in order.
    pub blocks: Vec<Block>,
}

/// `52.30 % [51.32, 53.28]`.
fn ci(e: &oddsmith_study::Est) -> String {
    format!("{} % [{}, {}]", pct(e.p), pct(e.lo), pct(e.hi))
}

fn pc(p: f64) -> String {
    format!("{} %", pct(p))
}

/// The subsections, in report order.
pub(crate) fn sections(s: &StudyDoc) -> Vec<Section> {
    let mut v = Vec::new();
    if !s.asserts.is_empty() {
        v.push(asserts(s));
    }
    for (i, sw) in s.sweeps.iter().enumerate() {
        v.push(sweep(i, sw));
    }
    if let Some(b) = &s.balance {
        v.push(balance(b));
    }
    if let Some(t) = &s.tournament {
        v.push(tournament(t));
    }
    for (i, c) in s.checks.iter().enumerate() {
        v.push(check(i, c));
    }
    v
}

/// Stems of the charts shown in the study part (left out of the general chart list).
pub(crate) fn chart_stems(sections: &[Section]) -> Vec<&str> {
    sections
        .iter()
        .flat_map(|s| &s.blocks)
        .filter_map(|b| match b {
            Block::Chart(stem) => Some(stem.as_str()),
            _ => None,
        })
        .collect()
}

fn asserts(s: &StudyDoc) -> Section {
    let failed = s.failed_asserts().count();
    let head = [
        "result",
        "assertion",
        "metric",
        "value",
        "source",
        "95 % CI",
        "allowed",
        "verdict",
    ]
    .map(String::from)
    .to_vec();
    let rows = s
        .asserts
        .iter()
        .map(|a| {
            vec![
                if a.passed { "PASS" } else { "FAIL" }.to_string(),
                a.name.clone(),
                a.metric.clone(),
                metric_value(&a.metric, a.value),
                a.source.clone(),
                a.ci95.map_or("—".into(), |(l, h)| {
                    if a.metric.starts_with("p_") {
                        format!("[{}, {}]", pct(l), pct(h))
                    } else {
                        format!("[{l:.3}, {h:.3}]")
                    }
                }),
                metric_range(&a.metric, a.range),
                if a.certain { "certain" } else { "uncertain" }.to_string(),
            ]
        })
        .collect();
    Section {
        title: format!(
            "Assertions: {} passed, {failed} failed",
            s.asserts.len() - failed
        ),
        blocks: vec![
            Block::Note(
                "The bounds set with [[assert]]; the value judged is exact where the ruleset solves it. \
                 \"Uncertain\": judged on a Monte Carlo estimate whose interval crosses a bound (or is unknown), so another seed or more trials may flip the verdict."
                    .into(),
            ),
            Block::Table(head, rows),
        ],
    }
}

fn sweep(i: usize, sw: &SweepDoc) -> Section {
    let two = sw.y.is_some();
    let mut head = vec![sw.x.target.clone()];
    if let Some(y) = &sw.y {
        head.push(y.target.clone());
    }
    head.extend(
        [
            "P(A wins) [95 % CI]",
            "exact P(A wins)",
            "P(B wins)",
            "P(draw)",
            "rounds (mean)",
        ]
        .map(String::from),
    );
    let rows = sw
        .points
        .iter()
        .map(|p| {
            let mut r = vec![num(p.x)];
            if two {
                r.push(p.y.map_or(String::new(), num));
            }
            r.extend([
                ci(&p.p_a_win),
                p.exact_p_a_win
                    .map_or("—".into(), |e| format!("{:.4} %", 100.0 * e)),
                pc(p.p_b_win),
                pc(p.p_draw),
                format!("{:.2}", p.rounds_mean),
            ]);
            r
        })
        .collect();
    let mut blocks = vec![
        Block::Note(format!(
            "P(A wins) for {} (A = first fighter) as {} changes{}; {} duels per point, every point on the same random numbers.{}",
            sw.matchup,
            sw.x.target,
            sw.y.as_ref()
                .map_or(String::new(), |y| format!(" along with {}", y.target)),
            thousands(sw.trials),
            if two {
                " In the chart, the line marks where the fight is even (50 %)."
            } else {
                " The shaded band is the 95 % interval; the dashed line marks an even fight (50 %)."
            }
        )),
        Block::Table(head, rows),
        Block::Chart(study_figures::sweep_stem(i, sw)),
    ];
    if !sw.steps.is_empty() {
        let mut head = vec!["step".to_string()];
        if let Some(y) = &sw.y {
            head.push(y.target.clone());
        }
        head.extend(
            [
                "change of P(A wins), points [95 % CI]",
                "p-value",
                "± paired",
                "± independent runs",
            ]
            .map(String::from),
        );
        let rows = sw
            .steps
            .iter()
            .map(|st| {
                let d = &st.diff;
                let mut r = vec![format!("{} → {}", num(st.from), num(st.to))];
                if two {
                    r.push(st.y.map_or(String::new(), num));
                }
                r.extend([
                    pts(d.diff, d.lo, d.hi),
                    p_value(d.p_value),
                    format!("{:.2}", 100.0 * (d.hi - d.lo) / 2.0),
                    format!("{:.2}", 100.0 * st.unpaired_half_width),
                ]);
                r
            })
            .collect();
        blocks.push(Block::Heading("Steps between neighbouring values".into()));
        blocks.push(Block::Note(
            "Neighbouring points share their random numbers, so a step's interval is narrower than an independent run's (shown beside it). \
             A step whose interval excludes 0 is a real change."
                .into(),
        ));
        blocks.push(Block::Table(head, rows));
    }
    Section {
        title: format!("Sweep {}: {}", i + 1, sw.name),
        blocks,
    }
}

fn balance(b: &oddsmith_study::BalanceDoc) -> Section {
    let mut blocks = vec![Block::Note(format!(
        "The value of {} in [{}, {}] that brings {} to {} %. Method: {}; the result is then measured again on fresh random numbers, \
         so it is not judged by the numbers it was chosen on. {} evaluations.",
        b.field,
        num(b.range.0),
        num(b.range.1),
        b.subject,
        pct(b.target),
        b.method,
        b.evaluations.len()
    ))];
    match (b.status, b.value) {
        (BalanceStatus::Found, Some(v)) => {
            blocks.push(Block::Note(format!("Found: {} = {}.", b.field, num(v))));
            let pts_: Vec<(&str, &oddsmith_study::BalancePoint)> = match (&b.bracket, &b.achieved) {
                (Some(br), _) => br
                    .iter()
                    .map(|p| (if p.value == v { "chosen" } else { "bracket" }, p))
                    .collect(),
                (None, Some(a)) => vec![("chosen", a)],
                (None, None) => vec![],
            };
            let head = [
                b.field.as_str(),
                "role",
                "P [95 % CI], fresh random numbers",
                "exact",
                "vs target",
            ]
            .map(String::from)
            .to_vec();
            let rows = pts_
                .iter()
                .map(|(role, p)| {
                    vec![
                        num(p.value),
                        (*role).to_string(),
                        ci(&p.monte_carlo),
                        p.exact.map_or("—".into(), |e| format!("{:.4} %", 100.0 * e)),
                        if p.distinguishable {
                            "differs"
                        } else {
                            "indistinguishable"
                        }
                        .to_string(),
                    ]
                })
                .collect();
            blocks.push(Block::Table(head, rows));
            if b.bracket.is_some() {
                blocks.push(Block::Note(
                    "Whole numbers only: the target lies between these two values, and the closer one is chosen. \"Indistinguishable\": the 95 % interval includes the target (an exact value: equals it)."
                        .into(),
                ));
            }
        }
        _ => blocks.push(Block::Note(format!(
            "Not reached in the range: P = {} at {} and {} at {}. Widen the range or change something else.",
            pc(b.ends[0].p),
            num(b.ends[0].value),
            pc(b.ends[1].p),
            num(b.ends[1].value)
        ))),
    }
    blocks.push(Block::Chart(BALANCE.into()));
    Section {
        title: "Balance".into(),
        blocks,
    }
}

fn tournament(t: &TournamentDoc) -> Section {
    let n = t.fighters.len();
    let mut head = vec!["P(row beats column)".to_string()];
    head.extend(t.fighters.iter().cloned());
    let matrix =
        (0..n)
            .map(|i| {
                std::iter::once(t.fighters[i].clone())
                    .chain((0..n).map(|j| {
                        t.win[i][j].map_or("—".into(), |e| format!("{:.1} %", 100.0 * e.p))
                    }))
                    .collect()
            })
            .collect();
    let rhead = [
        "#",
        "fighter",
        "P(win) [95 % CI]",
        "P(lose)",
        "Nash mix",
        "dominated",
    ]
    .map(String::from)
    .to_vec();
    let ranking = t
        .ranking
        .iter()
        .enumerate()
        .map(|(k, r)| {
            vec![
                (k + 1).to_string(),
                r.fighter.clone(),
                ci(&r.win_rate),
                pc(r.loss_rate),
                format!("{:.1} %", 100.0 * r.nash_share),
                if r.dominated { "yes" } else { "no" }.to_string(),
            ]
        })
        .collect();
    let mut blocks = vec![
        Block::Note(format!(
            "Every loadout against every other, {} duels in each seating (each pair fought both ways, pooled).",
            thousands(t.trials_per_seating)
        )),
        Block::Table(head, matrix),
        Block::Chart(TOURNAMENT_MATRIX.into()),
        Block::Heading("Ranking".into()),
        Block::Note(
            "P(win) against the field: every opponent equally often. Nash mix: the share of each loadout a perfectly adapted meta would play; \
             0 % = never worth picking. Dominated: worse than another loadout against every opponent."
                .into(),
        ),
        Block::Table(rhead, ranking),
    ];
    if let Some(c) = &t.costs {
        let chead = [
            "fighter",
            "cost",
            "cost from",
            "P(win) [95 % CI]",
            "fair P(win)",
            "residual (points)",
            "verdict",
        ]
        .map(String::from)
        .to_vec();
        let rows = c
            .points
            .iter()
            .map(|p| {
                vec![
                    p.fighter.clone(),
                    format!("{} {}", num(p.cost), c.unit),
                    p.source.clone(),
                    ci(&p.win_rate),
                    pc(p.fair),
                    format!("{:+.2}", 100.0 * p.residual),
                    p.verdict.clone(),
                ]
            })
            .collect();
        let under = c.points.iter().find(|p| p.verdict == "under-priced");
        let over = c.points.iter().rev().find(|p| p.verdict == "over-priced");
        let name = |p: Option<&oddsmith_study::CostPoint>| {
            p.map_or("none is significantly".into(), |p| {
                format!("{} ({:+.1} points)", p.fighter, 100.0 * p.residual)
            })
        };
        blocks.push(Block::Heading("Cost efficiency".into()));
        blocks.push(Block::Note(format!(
            "The fair line is the least-squares fit of P(win) on cost: P(win) = {} {} {:.3} % × cost in {}. \
             Under-priced: the whole 95 % interval lies above the line (gives more than it costs); over-priced: below it. \
             Most under-priced: {}; most over-priced: {}.",
            pc(c.intercept),
            if c.slope < 0.0 { "−" } else { "+" },
            100.0 * c.slope.abs(),
            c.unit,
            name(under),
            name(over)
        )));
        blocks.push(Block::Table(chead, rows));
        blocks.push(Block::Chart(TOURNAMENT_COST.into()));
    }
    Section {
        title: format!("Tournament: {}", t.name),
        blocks,
    }
}

fn check(i: usize, c: &CheckStudyDoc) -> Section {
    let params: Vec<String> = c.params.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    let mut blocks = vec![Block::Note(format!(
        "Exact P(success), the Monte Carlo estimate with its 95 % interval in brackets{}.",
        if params.is_empty() {
            String::new()
        } else {
            format!("; fixed: {}", params.join(", "))
        }
    ))];
    let (rows, cols) = check_axes(c);
    let corner = match (&c.row_param, &c.col_param) {
        (Some(r), Some(k)) => format!("{r} ↓ {k} →"),
        (Some(r), None) => r.clone(),
        (None, Some(k)) => k.clone(),
        (None, None) => "check".into(),
    };
    let head = std::iter::once(corner)
        .chain(
            cols.iter()
                .map(|k| k.clone().unwrap_or_else(|| "P(success)".into())),
        )
        .collect();
    let body = rows
        .iter()
        .map(|r| {
            std::iter::once(r.clone().unwrap_or_else(|| {
                c.cells
                    .first()
                    .map_or(String::new(), |x| x.description.clone())
            }))
            .chain(cols.iter().map(|k| {
                c.cells
                    .iter()
                    .find(|x| x.row == *r && x.col == *k)
                    .map_or(String::new(), |x| {
                        format!("{} ({})", pc(x.exact), ci(&x.monte_carlo))
                    })
            }))
            .collect()
        })
        .collect();
    blocks.push(Block::Table(head, body));
    if c.row_param.is_some() || c.col_param.is_some() {
        blocks.push(Block::Chart(study_figures::check_stem(i, c)));
    }
    Section {
        title: format!("Check: {}", c.name),
        blocks,
    }
}

/// The failed assertions as lines, for the banner at the top of a report.
pub(crate) fn failed_lines(s: &StudyDoc) -> Vec<String> {
    s.failed_asserts().map(assert_line).collect()
}

/// Markdown of the study part (`## Study` with `###` subsections). `charts` holds
/// (stem, title, svg) of every chart written.
pub(crate) fn markdown(sections: &[Section], charts: &[(String, String, String)]) -> String {
    let mut s = String::new();
    if sections.is_empty() {
        return s;
    }
    let cell = |c: &str| c.replace('|', "\\|");
    let _ = writeln!(s, "## Study\n");
    for sec in sections {
        let _ = writeln!(s, "### {}\n", sec.title);
        for b in &sec.blocks {
            match b {
                Block::Heading(h) => {
                    let _ = writeln!(s, "#### {h}\n");
                }
                Block::Note(n) => {
                    let _ = writeln!(s, "{n}\n");
                }
                Block::Table(head, rows) => {
                    let h: Vec<String> = head.iter().map(|c| cell(c)).collect();
                    let _ = writeln!(s, "| {} |", h.join(" | "));
                    let _ = writeln!(s, "|{}", "---|".repeat(head.len()));
                    for r in rows {
                        let r: Vec<String> = r.iter().map(|c| cell(c)).collect();
                        let _ = writeln!(s, "| {} |", r.join(" | "));
                    }
                    s.push('\n');
                }
                Block::Chart(stem) => {
                    if let Some((_, title, _)) = charts.iter().find(|c| c.0 == *stem) {
                        let _ = writeln!(s, "![{title}](charts/{stem}.svg)\n");
                    }
                }
            }
        }
    }
    s
}

/// HTML of the study part (`<h2>Study</h2>` with `<h3>` subsections), charts inline.
pub(crate) fn html(
    sections: &[Section],
    charts: &[(String, String, String)],
    esc: fn(&str) -> String,
    table: fn(&mut String, &[String], &[Vec<String>]),
    figure: fn(&mut String, &str, &str),
) -> String {
    let mut s = String::new();
    if sections.is_empty() {
        return s;
    }
    let _ = writeln!(s, "<h2 id=\"study\">Study</h2>");
    for sec in sections {
        let _ = writeln!(s, "<section class=\"study\"><h3>{}</h3>", esc(&sec.title));
        for b in &sec.blocks {
            match b {
                Block::Heading(h) => {
                    let _ = writeln!(s, "<h4>{}</h4>", esc(h));
                }
                Block::Note(n) => {
                    let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(n));
                }
                Block::Table(head, rows) => table(&mut s, head, rows),
                Block::Chart(stem) => {
                    if let Some((_, title, svg)) = charts.iter().find(|c| c.0 == *stem) {
                        figure(&mut s, title, svg);
                    }
                }
            }
        }
        let _ = writeln!(s, "</section>");
    }
    s
}
