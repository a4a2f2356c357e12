//! The CLI's error kinds and the exit codes they map to: 2 for the user's input (arguments,
//! scenario files, a report folder that cannot be used), 3 for a failed `[[assert]]`, 4 when
//! the results were printed but the report could not be written, 128 + the signal number when
//! SIGINT or SIGTERM stopped the run, 1 for anything else.

use std::process::ExitCode;

use oddsmith_scenario::{Comparison, Part, ScenarioError};
use oddsmith_study::StudyError;

/// `[[assert]]` sections that failed (exit code 3), one line each.
#[derive(Debug)]
pub(crate) struct AssertionsFailed(pub Vec<String>);

impl std::fmt::Display for AssertionsFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} assertion(s) failed:", self.0.len())?;
        for l in &self.0 {
            write!(f, "\n  {l}")?;
        }
        Ok(())
    }
}

impl std::error::Error for AssertionsFailed {}

/// The results were printed but the report folder could not be written (exit code 4).
#[derive(Debug)]
pub(crate) struct ReportNotWritten(pub String);

impl std::fmt::Display for ReportNotWritten {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReportNotWritten {}

/// SIGINT or SIGTERM stopped the run (exit code 128 + the signal number); the message says
/// what, if anything, was printed.
#[derive(Debug)]
pub(crate) struct Interrupted {
    /// The exit code, 128 + the signal number.
    pub code: u8,
    /// What happened, in plain words.
    pub message: String,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Interrupted {}

/// An error caused by the user's input (exit code 2), as opposed to a runtime failure.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct InputError(pub String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// A located scenario error (exit code 2); kept typed so a comparison can re-locate an
/// error found in one of its parts.
#[derive(Debug)]
pub(crate) struct ScenarioInput(pub ScenarioError);

impl std::fmt::Display for ScenarioInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ScenarioInput {}

/// The exit code of a failed command.
pub(crate) fn exit_code(e: &anyhow::Error) -> ExitCode {
    if e.downcast_ref::<InputError>().is_some() || e.downcast_ref::<ScenarioInput>().is_some() {
        ExitCode::from(2)
    } else if e.downcast_ref::<AssertionsFailed>().is_some() {
        ExitCode::from(3)
    } else if e.downcast_ref::<ReportNotWritten>().is_some() {
        ExitCode::from(4)
    } else if let Some(i) = e.downcast_ref::<Interrupted>() {
        ExitCode::from(i.code)
    } else {
        ExitCode::from(1)
    }
}

/// A study error caused by the scenario (a bad swept value, check parameter …) is the user's
/// input (exit 2); an engine failure is a runtime failure (exit 1).
pub(crate) fn study_input(e: StudyError) -> anyhow::Error {
    match e {
        StudyError::Scenario(se) => ScenarioInput(se).into(),
        StudyError::Check { .. } | StudyError::Rules(_) => InputError(e.to_string()).into(),
        other => other.into(),
    }
}

/// Places an error from a comparison part at its field in the comparison file.
pub(crate) fn relocate_err(file: &str, text: &str, part: &Part, e: anyhow::Error) -> anyhow::Error {
    match e.downcast::<ScenarioInput>() {
        Ok(ScenarioInput(se)) => ScenarioInput(Comparison::relocate(file, text, part, se)).into(),
        Err(e) => e,
    }
}
