//! What oddsmith shows a designer: the JSON result documents (the stable contract of
//! `--json`), terminal tables, and written reports — tables as polars DataFrames (CSV and
//! Parquet), charts drawn with plotters (SVG and PNG), report.md and a self-contained
//! report.html.
//!
//! Modules, imports pointing one way: [`write`](mod@write) → [`sections`] (one module per
//! subject) → [`page`] (the page model and its two renderers), [`charts`] (chart specs and
//! drawing), [`format`](mod@format) (every number and name format) and [`model`] (the
//! documents).
//!
//! Where to start: `sections/summary` (the answer first; page blocks `Summary` and `Details`);
//! `model/` (`RunDoc`, `MatchupDoc`, `CheckDoc`, `ReportData`, `Meta`: the JSON contract);
//! `format::json_pretty` (no negative zero); `write::check_destination` (the report folder
//! checked before any work); `sections::tables` (puts `scenario, ruleset, seed` first in every
//! table). `sections/` holds one module per subject (about, outcomes, rounds, damage,
//! counters, checks, sweep, balance, tournament, check_study, asserts, comparison), each a
//! `Subject`: terminal text, tables, charts, page sections; `subjects()` is the one list.
//! `page` is one page model (sections of blocks: heading, paragraph, note, table, chart, …)
//! rendered once to Markdown and once to HTML. There is no import cycle.
//!
//! Charts are data (`charts::Chart`: interval bars, x–y series with bands and whiskers,
//! labelled scatters, heatmaps with colour bar and contour, rows of panels) rendered by one
//! drawing path to both SVG and PNG with a bundled font; `charts` uses only `format`. Legends go
//! in a corner or in a column beside the plot (`Corner::Right`); probability axes leave room
//! past 0 %/100 % and draw the lines at those bounds a few pixels apart. polars is used eager
//! only (`csv`, `parquet`, `fmt`; never `lazy`), plotters with its SVG and bitmap backends and
//! `ab_glyph` text.
//!
//! This crate never runs simulations, computes a verdict (it renders
//! `oddsmith_stats::verdict`) or reads a clock (the CLI stamps the time).
//!
//! Reports are written atomically: built in `.<name>.tmp-<pid>` beside the target and renamed
//! into place; a folder without the `.oddsmith-report` marker, with files oddsmith does not
//! write, or with another scenario's report is never replaced. `check_destination` checks all
//! this (and that the place is writable) before the run starts; the CLI prints results before
//! the report is written, so a failed write loses nothing; a killed run's temporaries are
//! removed by the next run into the same place.
//!
//! # Adding a report section
//!
//! 1. `src/sections/<subject>.rs`: a struct implementing `Subject` (terminal `text`, `tables`,
//!    `charts`, page `sections`).
//! 2. `src/sections/mod.rs`: `pub mod <subject>;` and one line in `subjects()` (or, for a study
//!    kind, its arm in `study_subjects()`, which the compiler points at).
//! 3. Only if needed: `format.rs` (a new number format), `charts.rs` (a new plot kind),
//!    `page.rs` (a new block kind, rendered in both `render_markdown` and `render_html`).
//! 4. A test in `tests/it/`.

// Without `tables` (the browser build) the helpers only the tables use are unused.
#![cfg_attr(not(feature = "tables"), allow(unused))]

pub mod charts;
pub mod format;
pub mod model;
pub mod page;
pub mod sections;
pub mod write;

pub use format::slug;
pub use model::{
    CheckCell, CheckDoc, CheckGridData, FighterData, FirstMoveDoc, GroupDoc, MatchupDoc, Meta,
    OptionValue, PrecisionDoc, ReportData, RunDoc, group_doc, matchup_doc, options_table,
};
pub use sections::checks::check_table;
pub use sections::comparison::comparison_table;
pub use sections::outcomes::run_table;
pub use sections::readings::readings_table;
pub use sections::study_table;
pub use write::{
    MARKER, MAX_FOLDER_NAME, ReportError, abandon_write, check_destination, write_report,
};
