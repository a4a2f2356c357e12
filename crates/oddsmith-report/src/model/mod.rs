//! The document model: what a run, a check, a study and a ruleset comparison produced, as
//! serializable documents (the `--json` contract), and [`ReportData`], everything a written
//! report is built from. Sections render these; nothing here formats a page.

mod check;
mod group;
mod report;
mod run;

pub use check::{BandDoc, CheckDoc, CheckExactDoc, CheckMcDoc};
pub use group::{Estimate, GroupDoc, GroupSideDoc, MemberDoc, group_doc, member_names};
pub use oddsmith_study::{ComparisonDoc, StudyDoc};
pub use report::{CheckCell, CheckGridData, FighterData, Meta, ReportData};
pub use run::{
    ADVANTAGE_RULE, CountSummary, ExactDoc, FirstMoveDoc, GivenDoc, MatchupDoc, McCheckDoc,
    OptionValue, PRACTICAL_THRESHOLD, PrecisionDoc, RunDoc, SideDoc, advantage, advantage_text,
    check_text, matchup_doc, options_table, verdict_text,
};
