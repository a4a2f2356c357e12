//! Ctrl-C and `kill`: SIGINT and SIGTERM stop the command at once, after undoing an unfinished
//! report write (its temporary folder removed, an earlier report put back), with the
//! conventional exit code 128 + the signal number. A partial run prints no numbers: they would
//! not be the ones its seed gives.

use std::path::PathBuf;
use std::sync::Mutex;

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// The report folder being written right now, if any.
static WRITING: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Starts the thread that waits for SIGINT or SIGTERM (the `oddsmith` binary calls this once;
/// tests that call `main_impl` in-process do not).
pub fn install() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
        return; // Without the handler, the default action (stop at once) remains.
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            let name = if sig == SIGINT { "SIGINT" } else { "SIGTERM" };
            let dir = WRITING.lock().map_or(None, |w| w.clone());
            if let Some(dir) = &dir {
                oddsmith_report::abandon_write(dir);
            }
            let report = dir.map_or(String::new(), |d| {
                format!("; the report in {} was not changed", d.display())
            });
            eprintln!(
                "\ninterrupted by {name}: stopped before the run finished, no results{report}"
            );
            std::process::exit(128 + sig);
        }
    });
}

/// Notes that the report folder `dir` is being written until the guard is dropped.
pub(crate) fn writing(dir: &std::path::Path) -> Writing {
    if let Ok(mut w) = WRITING.lock() {
        *w = Some(dir.to_path_buf());
    }
    Writing
}

/// Clears the folder noted by [`writing`] when dropped.
pub(crate) struct Writing;

impl Drop for Writing {
    fn drop(&mut self) {
        if let Ok(mut w) = WRITING.lock() {
            *w = None;
        }
    }
}
