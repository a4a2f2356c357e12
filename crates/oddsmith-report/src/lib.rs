//! What oddsmith shows a designer: the JSON result documents (the stable contract of
//! `--json`) and the terminal tables. Built from engine accumulators; no IO here.

pub mod doc;
pub mod table;

pub use doc::{CheckDoc, MatchupDoc, OptionValue, RunDoc, matchup_doc, options_table};
pub use table::{check_table, run_table};
