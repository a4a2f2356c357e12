//! What oddsmith shows a designer: the JSON result documents (the stable contract of
//! `--json`), terminal tables, and written reports — tables as polars DataFrames (CSV and
//! Parquet), charts drawn with plotters (SVG and PNG), report.md and a self-contained
//! report.html.

pub mod charts;
pub mod comparison;
pub mod data;
pub mod doc;
pub mod figures;
pub mod frames;
pub mod html;
pub mod study_figures;
pub mod study_frames;
mod study_html;
pub mod study_text;
pub mod table;
pub mod write;

pub use comparison::comparison_table;
pub use data::{CheckCell, CheckGridData, FighterData, Meta, ReportData};
pub use doc::{CheckDoc, MatchupDoc, OptionValue, RunDoc, matchup_doc, options_table};
pub use study_text::study_table;
pub use table::{check_table, run_table};
pub use write::{MARKER, ReportError, slug, write_report};
