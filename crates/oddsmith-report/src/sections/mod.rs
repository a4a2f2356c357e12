//! The report by subject. Each module is one subject (outcomes, fight length, damage, a
//! sweep, the tournament, …) and says everything about it: its terminal text, its tables
//! (polars DataFrames, written as CSV and Parquet), its charts and its page sections, by
//! implementing [`Subject`]. [`subjects`] lists them in report order; [`tables`],
//! [`charts`], [`page`] and [`study_table`] walk that list, so adding a subject is one new
//! module and one line in [`subjects`] (a study section kind: one arm in
//! [`study_subjects`]).

use oddsmith_study::{StudyDoc, StudySection};
#[cfg(feature = "tables")]
use polars::prelude::PolarsResult;

use crate::format::col;
use crate::model::ReportData;
use crate::page::{Block, Figure, Page, Section};

pub mod about;
pub mod asserts;
pub mod balance;
pub mod check_study;
pub mod checks;
pub mod comparison;
pub mod counters;
pub mod damage;
pub mod group;
pub mod outcomes;
pub mod readings;
pub mod rounds;
mod subject;
pub mod summary;
pub mod sweep;
pub mod tournament;

pub use subject::{NamedChart, NamedTable, Place, Subject};

/// Every subject of a report, in report order.
pub fn subjects(d: &ReportData) -> Vec<Box<dyn Subject + '_>> {
    let mut v: Vec<Box<dyn Subject + '_>> = vec![
        Box::new(summary::Summary(d)),
        Box::new(about::About(d)),
        Box::new(outcomes::Outcomes(d)),
        Box::new(rounds::Rounds(d)),
        Box::new(damage::Damage(d)),
        Box::new(group::Group(d)),
        Box::new(counters::Counters(d)),
        Box::new(checks::Checks(d)),
    ];
    if let Some(s) = &d.run.study {
        v.extend(study_subjects(s));
    }
    if let Some(c) = &d.run.comparison {
        v.push(Box::new(comparison::Comparison { c, d }));
    }
    v
}

/// The study's subjects: its sections grouped by kind (every sweep in one subject, …), kinds
/// in report order. The one place that walks a study.
pub fn study_subjects(s: &StudyDoc) -> Vec<Box<dyn Subject + '_>> {
    let (mut sweeps, mut balance, mut tournament) = (Vec::new(), None, None);
    let (mut checks, mut asserts) = (Vec::new(), Vec::new());
    for section in s.sections() {
        match section {
            StudySection::Sweep(x) => sweeps.push(x),
            StudySection::Balance(x) => balance = Some(x),
            StudySection::Tournament(x) => tournament = Some(x),
            StudySection::Check(x) => checks.push(x),
            StudySection::Assert(x) => asserts.push(x),
        }
    }
    let mut v: Vec<Box<dyn Subject + '_>> = Vec::new();
    if !sweeps.is_empty() {
        v.push(Box::new(sweep::Sweeps(sweeps)));
    }
    if let Some(b) = balance {
        v.push(Box::new(balance::Balance(b)));
    }
    if let Some(t) = tournament {
        v.push(Box::new(tournament::Tournament(t)));
    }
    if !checks.is_empty() {
        v.push(Box::new(check_study::CheckStudies(checks)));
    }
    if !asserts.is_empty() {
        v.push(Box::new(asserts::Asserts(asserts)));
    }
    if !s.readings.is_empty() || !s.cost_readings.is_empty() || !s.balance_readings.is_empty() {
        v.push(Box::new(readings::Readings(s)));
    }
    v
}

/// The study results as terminal text, printed after the run table: per sweep its points and
/// paired steps, the balance result, the tournament (win matrix, ranking, Nash mix, costs), the
/// check grids and the assertions. Empty for an empty study.
pub fn study_table(s: &StudyDoc) -> String {
    let subjects = study_subjects(s);
    let mut out: String = subjects.iter().map(|x| x.headline()).collect();
    for x in &subjects {
        out.push_str(&x.text());
    }
    let mut text = String::new();
    for line in out.trim_end().lines() {
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// The columns every table starts with, so that tables of several runs can be stacked and
/// told apart: `scenario`, `ruleset` and `seed`.
pub const RUN_COLUMNS: [&str; 3] = ["scenario", "ruleset", "seed"];

/// Every table of a report, by file stem, in report order; each starts with the
/// [`RUN_COLUMNS`] (but for one the table already has).
#[cfg(feature = "tables")]
pub fn tables(d: &ReportData) -> PolarsResult<Vec<NamedTable>> {
    let mut v = Vec::new();
    for s in subjects(d) {
        v.extend(s.tables()?);
    }
    let run = &d.run;
    for (_, df) in &mut v {
        let n = df.height();
        let columns = [
            col(RUN_COLUMNS[0], vec![run.scenario.as_str(); n]),
            col(RUN_COLUMNS[1], vec![run.ruleset.as_str(); n]),
            col(RUN_COLUMNS[2], vec![run.seed; n]),
        ];
        // A table with its own column of that name (a comparison's per-row `ruleset`) keeps
        // it: it is the more specific.
        let mut at = 0;
        for c in columns {
            if df.column(c.name()).is_err() {
                df.insert_column(at, c)?;
                at += 1;
            }
        }
    }
    Ok(v)
}

/// Every chart of a report, by file stem: the results' charts, then each matchup's, then the
/// others in report order.
pub fn charts(d: &ReportData) -> Vec<NamedChart> {
    let subjects = subjects(d);
    let results = |s: &dyn Subject| s.place() == Place::Results;
    let mut v: Vec<NamedChart> = subjects
        .iter()
        .filter(|s| results(s.as_ref()))
        .flat_map(|s| s.charts())
        .collect();
    for i in 0..d.run.matchups.len() {
        v.extend(subjects.iter().flat_map(|s| s.matchup_charts(i)));
    }
    v.extend(
        subjects
            .iter()
            .filter(|s| !results(s.as_ref()))
            .flat_map(|s| s.charts()),
    );
    v
}

/// Stems of the charts a section shows itself.
fn shown(sections: &[Section]) -> Vec<&str> {
    sections
        .iter()
        .flat_map(|s| {
            s.blocks
                .iter()
                .chain(s.subsections.iter().flat_map(|x| &x.blocks))
        })
        .filter_map(|b| match b {
            Block::Chart(stem) => Some(stem.as_str()),
            _ => None,
        })
        .collect()
}

/// The file's warnings (settings accepted but very likely not meant), one item each with its
/// place, as a warning box; nothing when there are none.
fn file_warnings(warnings: &[oddsmith_scenario::Warning]) -> Option<Block> {
    if warnings.is_empty() {
        return None;
    }
    let n = warnings.len();
    Some(Block::Warning {
        title: format!(
            "{n} warning{} about the scenario file (the run went ahead)",
            if n == 1 { "" } else { "s" }
        ),
        items: warnings
            .iter()
            .map(|w| {
                let field = if w.field.is_empty() {
                    String::new()
                } else {
                    format!("{} ", w.field)
                };
                format!(
                    "{field}(line {}, column {}): {}",
                    w.line, w.column, w.message
                )
            })
            .collect(),
    })
}

/// The report page: intro (description, facts, warnings, the run's notes), the results, the study part, the
/// charts no section shows, then the checks, fighters, options and the list of tables.
pub fn page(d: &ReportData, tables: &[&str], charts: Vec<Figure>) -> Page {
    let subjects = subjects(d);
    let placed = |p: Place| -> Vec<Section> {
        subjects
            .iter()
            .filter(|s| s.place() == p)
            .flat_map(|s| s.sections())
            .collect()
    };
    let mut sections = placed(Place::Results);
    let mut study = placed(Place::StudyLead);
    study.extend(placed(Place::Study));
    if !study.is_empty() {
        sections.push(Section {
            title: "Study".into(),
            id: Some("study".into()),
            blocks: Vec::new(),
            subsections: study,
        });
    }
    let after = placed(Place::AfterCharts);
    let end = placed(Place::End);
    let in_sections: Vec<String> = shown(&sections)
        .into_iter()
        .chain(shown(&after))
        .chain(shown(&end))
        .map(String::from)
        .collect();
    let rest: Vec<Block> = charts
        .iter()
        .filter(|f| !in_sections.contains(&f.stem))
        .map(|f| Block::Chart(f.stem.clone()))
        .collect();
    // No "Charts" heading over nothing: every chart may already sit in its section.
    if !rest.is_empty() {
        sections.push(Section::new("Charts", rest));
    }
    sections.extend(after);
    sections.extend(end);
    sections.push(Section::new(
        "Tables",
        vec![Block::Files(tables.iter().map(|t| t.to_string()).collect())],
    ));
    Page {
        title: d.run.scenario.clone(),
        intro: subjects
            .iter()
            .flat_map(|s| s.intro())
            .chain(file_warnings(&d.run.warnings))
            .chain(d.notes.iter().map(|n| Block::Note(format!("Note: {n}."))))
            .collect(),
        sections,
        charts,
        footer: Some(format!(
            "Generated by oddsmith {}.",
            d.meta.oddsmith_version
        )),
    }
}
