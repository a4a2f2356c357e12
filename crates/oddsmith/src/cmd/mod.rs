//! One module per subcommand; each takes its checked configuration ([`crate::config`]) and
//! writes its results to `out`.

pub(crate) mod check;
pub(crate) mod equipment;
pub(crate) mod init;
pub(crate) mod merge;
pub(crate) mod rulesets;
pub(crate) mod run;
pub(crate) mod schema;
pub(crate) mod validate;

use anyhow::{Context, Result};

use crate::error::InputError;

/// Reads a scenario file; failing to is the user's input error.
pub(crate) fn read(path: &str) -> Result<String> {
    std::fs::read_to_string(path)
        .with_context(|| format!("cannot read scenario {path}"))
        .map_err(|e| InputError(format!("{e:#}")).into())
}
