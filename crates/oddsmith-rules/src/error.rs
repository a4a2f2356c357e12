//! Typed errors of rulesets.

use thiserror::Error;

/// What went wrong while building a ruleset, a fighter, a matchup or a check.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RulesError {
    /// A field holds a value the rules do not allow. `field` is a dotted path relative to the
    /// item being compiled (e.g. `shield`), so callers can locate it in the source file.
    #[error("{field}: {message}")]
    InvalidField {
        /// Dotted path of the offending field.
        field: String,
        /// What is wrong and what was expected.
        message: String,
    },
    /// A check parameter is missing, unknown or malformed.
    #[error("check parameter {param}: {message}")]
    Check {
        /// The parameter name.
        param: String,
        /// What is wrong and what was expected.
        message: String,
    },
    /// The requested feature of the rules is not modelled.
    #[error("{0}")]
    Unsupported(String),
}

impl RulesError {
    /// Shorthand for [`RulesError::InvalidField`].
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::InvalidField {
            field: field.into(),
            message: message.into(),
        }
    }
    /// Shorthand for [`RulesError::Check`].
    pub fn check(param: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Check {
            param: param.into(),
            message: message.into(),
        }
    }
}
