//! What oddsmith shows a designer: the JSON result documents (the stable contract of
//! `--json`), terminal tables, and written reports — tables as polars DataFrames (CSV and
//! Parquet), charts drawn with plotters (SVG and PNG), report.md and a self-contained
//! report.html.
//!
//! Modules, imports pointing one way: [`write`](mod@write) → [`sections`] (one module per
//! subject) → [`page`] (the page model and its two renderers), [`charts`] (chart specs and
//! drawing), [`format`](mod@format) (every number and name format) and [`model`] (the
//! documents).

pub mod charts;
pub mod format;
pub mod model;
pub mod page;
pub mod sections;
pub mod write;

pub use format::slug;
pub use model::{
    CheckCell, CheckDoc, CheckGridData, FighterData, MatchupDoc, Meta, OptionValue, PrecisionDoc,
    ReportData, RunDoc, matchup_doc, options_table,
};
pub use sections::checks::check_table;
pub use sections::comparison::comparison_table;
pub use sections::outcomes::run_table;
pub use sections::study_table;
pub use write::{
    MARKER, MAX_FOLDER_NAME, ReportError, abandon_write, check_destination, write_report,
};
