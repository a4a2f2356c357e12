//! Assertions (`[[assert]]`): bounds a designer sets on a result, judged on the exact value
//! where the ruleset solves it — a banner when one fails (terminal and page), the list with
//! each value and verdict, the `asserts` table and the page section.

use std::fmt::Write;

use oddsmith_study::AssertDoc;
#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::format::{col_by, num, pass_fail, pct, plural};
use crate::page::{Block, Section, head};

use super::subject::{NamedTable, Place, Subject, WIDTH};

/// Every assertion of a study.
pub struct Asserts<'a>(pub Vec<&'a AssertDoc>);

impl Asserts<'_> {
    fn failed(&self) -> impl Iterator<Item = &&AssertDoc> {
        self.0.iter().filter(|a| !a.passed)
    }
}

impl Subject for Asserts<'_> {
    fn headline(&self) -> String {
        let failed = self.failed().count();
        if failed == 0 {
            return String::new();
        }
        format!(
            "{failed} of {} assertion{} FAILED (details at the end)\n\n",
            self.0.len(),
            plural(self.0.len())
        )
    }

    fn text(&self) -> String {
        let mut out = String::new();
        let failed = self.failed().count();
        let _ = writeln!(
            out,
            "Assertions: {} passed, {failed} failed",
            self.0.len() - failed
        );
        for a in &self.0 {
            let (head, tail) = assert_parts(a);
            if head.chars().count() + tail.chars().count() + 3 <= WIDTH {
                let _ = writeln!(out, "  {head} {tail}");
            } else {
                let _ = writeln!(out, "  {head}\n        {tail}");
            }
        }
        if self.0.iter().any(|a| !a.certain) {
            let _ = writeln!(
                out,
                "  uncertain: a Monte Carlo verdict another seed may flip (interval across a bound or unknown)"
            );
        }
        out
    }

    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        Ok(vec![("asserts", asserts_table(&self.0)?)])
    }

    fn intro(&self) -> Vec<Block> {
        let failed: Vec<String> = self.failed().map(|a| assert_line(a)).collect();
        if failed.is_empty() {
            return Vec::new();
        }
        vec![Block::Warning {
            title: format!("{} assertion{} failed", failed.len(), plural(failed.len())),
            items: failed,
        }]
    }

    fn place(&self) -> Place {
        Place::StudyLead
    }

    fn sections(&self) -> Vec<Section> {
        vec![asserts_section(&self.0)]
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
        format!("{}  {}", pass_fail(a.passed), a.name),
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

/// One row per `[[assert]]`: the bounds, the value judged and where it came from, the Monte
/// Carlo interval (for probabilities), whether it passed and whether the verdict is certain.
#[cfg(feature = "tables")]
pub fn asserts_table(a: &[&AssertDoc]) -> PolarsResult<DataFrame> {
    DataFrame::new_infer_height(vec![
        col_by("name", a, |x| x.name.as_str()),
        col_by("metric", a, |x| x.metric.as_str()),
        col_by("min", a, |x| x.range.0),
        col_by("max", a, |x| x.range.1),
        col_by("value", a, |x| x.value),
        col_by("source", a, |x| x.source.as_str()),
        col_by("ci_lo", a, |x| x.ci95.map(|c| c.0)),
        col_by("ci_hi", a, |x| x.ci95.map(|c| c.1)),
        col_by("passed", a, |x| x.passed),
        col_by("certain", a, |x| x.certain),
    ])
}

fn asserts_section(asserts: &[&AssertDoc]) -> Section {
    let failed = asserts.iter().filter(|a| !a.passed).count();
    let columns = head([
        "result",
        "assertion",
        "metric",
        "value",
        "source",
        "95 % CI",
        "allowed",
        "verdict",
    ]);
    let rows = asserts
        .iter()
        .map(|a| {
            vec![
                pass_fail(a.passed).to_string(),
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
    Section::new(
        format!(
            "Assertions: {} passed, {failed} failed",
            asserts.len() - failed
        ),
        vec![
            Block::Note(
                "The bounds set with [[assert]]; the value judged is exact where the ruleset solves it. \
                 \"Uncertain\": judged on a Monte Carlo estimate whose interval crosses a bound (or is unknown), so another seed or more trials may flip the verdict."
                    .into(),
            ),
            Block::table(columns, rows),
        ],
    )
}
