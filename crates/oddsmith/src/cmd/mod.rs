//! One module per subcommand; each takes its checked configuration ([`crate::config`]) and
//! writes its results to `out`.

pub(crate) mod check;
pub(crate) mod equipment;
pub(crate) mod init;
pub(crate) mod merge;
pub(crate) mod rulesets;
pub(crate) mod run;
pub(crate) mod schema;
pub(crate) mod serve;
pub(crate) mod validate;

use anyhow::{Context, Result};

use crate::error::InputError;

/// Largest scenario or comparison file read (1 MiB): the bundled ones are a few kilobytes, and
/// a far larger file is a mistake (a log, a generated table) that would cost memory and an
/// enormous report.
pub(crate) const MAX_INPUT_BYTES: u64 = 1 << 20;

/// Reads a scenario file; failing to is the user's input error. Files over
/// [`MAX_INPUT_BYTES`] and files that are not UTF-8 text are refused with a plain message.
pub(crate) fn read(path: &str) -> Result<String> {
    let input = |m: String| -> anyhow::Error { InputError(m).into() };
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read scenario {path}"))
        .map_err(|e| input(format!("{e:#}")))?
        .len();
    if size > MAX_INPUT_BYTES {
        return Err(input(format!(
            "{path}: the file is {size} bytes; scenario files are limited to {MAX_INPUT_BYTES} bytes (1 MiB)"
        )));
    }
    let bytes = std::fs::read(path)
        .with_context(|| format!("cannot read scenario {path}"))
        .map_err(|e| input(format!("{e:#}")))?;
    decode(path, bytes).map_err(input)
}

/// The file's text: UTF-8 (a leading byte-order mark dropped); UTF-16 and other encodings are
/// refused, naming the encoding or the first bad byte's place.
fn decode(path: &str, bytes: Vec<u8>) -> std::result::Result<String, String> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(format!(
            "{path}: the file is UTF-16 text; save it as UTF-8 (scenario files are UTF-8)"
        ));
    }
    let bytes = match bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    String::from_utf8(bytes).map_err(|e| {
        let ok = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let ok = std::str::from_utf8(ok).unwrap_or_default();
        let line = ok.matches('\n').count() + 1;
        let column = ok.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!(
            "{path}:{line}:{column}: the file is not UTF-8 text (a byte here is not valid UTF-8); save it as UTF-8"
        )
    })
}
