//! Ctrl-C and `kill`: SIGINT and SIGTERM stop the command promptly, with the conventional exit
//! code 128 + the signal number, and a message on stderr that says what was and was not done.
//!
//! - During the computation of a run, the signal raises the run's [`Cancel`] flag: the engine
//!   stops at its next chunk and the command prints the matchups that had finished, marked
//!   partial (their numbers are the ones the seed gives: a matchup is shown only when all its
//!   trials ran), writes no report and exits. If the command has not stopped within
//!   [`GRACE`] (an exact solve does not look at the flag), the process exits without them.
//! - After the results were printed ([`printed`]): the process exits at once, saying that the
//!   results printed are complete. During the report write ([`writing`]) the unfinished write
//!   is undone first (its temporary folder removed, an earlier report put back), and the
//!   message says the report was not written.
//! - During a shard file's write ([`writing_file`]), its temporary file is removed: no shard
//!   file is written (an earlier one stays as it was).
//! - Otherwise the process exits at once: no results.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use oddsmith_sim::Cancel;
#[cfg(feature = "native")]
use signal_hook::consts::{SIGINT, SIGTERM};
#[cfg(feature = "native")]
use signal_hook::iterator::Signals;
/// Without `native` (the browser build) no signal reaches the pipeline; the numbers name
/// nothing.
#[cfg(not(feature = "native"))]
const SIGINT: i32 = 2;

/// What is being written right now, to be undone if a signal comes.
#[derive(Clone, Debug)]
enum Undo {
    /// A report folder.
    Report(PathBuf),
    /// A temporary file that will be renamed over the shard file.
    File(PathBuf),
}

/// What is being written right now, if anything.
static WRITING: Mutex<Option<Undo>> = Mutex::new(None);
/// Whether a run's computation, which stops at the flag, is under way.
static COMPUTING: AtomicBool = AtomicBool::new(false);
/// Whether the run's complete results have been printed.
static PRINTED: AtomicBool = AtomicBool::new(false);
/// The signal that stopped the computation (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// How long a computation may take to stop and print its partial results after a signal.
pub const GRACE: Duration = Duration::from_secs(5);

/// The flag every run of this process carries ([`oddsmith_sim::RunConfig::cancel`]).
pub(crate) fn token() -> Cancel {
    static TOKEN: OnceLock<Cancel> = OnceLock::new();
    TOKEN.get_or_init(Cancel::new).clone()
}

/// The signal that stopped the computation, if one did: (its name, the exit code).
pub(crate) fn stopped_by() -> Option<(&'static str, u8)> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        sig => Some((name(sig), 128 + sig as u8)),
    }
}

fn name(sig: i32) -> &'static str {
    if sig == SIGINT { "SIGINT" } else { "SIGTERM" }
}

/// Starts the thread that waits for SIGINT or SIGTERM (the `oddsmith` binary calls this once;
/// tests that call `main_impl` in-process do not).
#[cfg(feature = "native")]
pub fn install() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
        return; // Without the handler, the default action (stop at once) remains.
    };
    std::thread::spawn(move || {
        let Some(sig) = signals.forever().next() else {
            return;
        };
        let undo = WRITING.lock().map_or(None, |w| w.clone());
        if undo.is_none() && COMPUTING.load(Ordering::SeqCst) {
            SIGNAL.store(sig, Ordering::SeqCst);
            token().cancel();
            // The command prints what finished and exits; if it is still busy (a long exact
            // solve), stop without it. A second signal stops at once.
            let waited = std::time::Instant::now();
            while waited.elapsed() < GRACE {
                if signals.pending().next().is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            eprintln!(
                "\ninterrupted by {}: stopped before the run finished, no results",
                name(sig)
            );
            std::process::exit(128 + sig);
        }
        match &undo {
            Some(Undo::Report(dir)) => oddsmith_report::abandon_write(dir),
            Some(Undo::File(tmp)) => {
                let _ = std::fs::remove_file(tmp);
            }
            None => {}
        }
        eprintln!(
            "\n{}",
            message(name(sig), PRINTED.load(Ordering::SeqCst), undo.as_ref())
        );
        std::process::exit(128 + sig);
    });
}

/// Without `native` there are no signals to handle.
#[cfg(not(feature = "native"))]
pub fn install() {}

/// What a signal `signal` that ends the process at once leaves behind, in plain words: the
/// results printed or not, the report or shard file being written (`undo`) not written.
fn message(signal: &str, printed: bool, undo: Option<&Undo>) -> String {
    match (printed, undo) {
        (true, Some(Undo::Report(dir))) => format!(
            "interrupted by {signal} while writing the report: the results printed are \
             complete, but the report in {} was not written (a report that was there before \
             is unchanged)",
            dir.display()
        ),
        (true, _) => format!(
            "interrupted by {signal} after the results were printed: they are complete; no \
             report was written"
        ),
        (false, Some(Undo::File(tmp))) => format!(
            "interrupted by {signal} while writing the shard file: it was not written (a \
             shard file that was there before is unchanged); its temporary file {} was removed",
            tmp.display()
        ),
        (false, _) => {
            format!("interrupted by {signal}: stopped before the run finished, no results")
        }
    }
}

/// Notes that a run's computation is under way until the guard is dropped: a signal then
/// stops it through [`token`] instead of ending the process.
pub(crate) fn computing() -> Computing {
    COMPUTING.store(true, Ordering::SeqCst);
    Computing
}

/// Clears the mark set by [`computing`] when dropped.
pub(crate) struct Computing;

impl Drop for Computing {
    fn drop(&mut self) {
        COMPUTING.store(false, Ordering::SeqCst);
    }
}

/// Notes that the run's complete results have been printed until the guard is dropped: a
/// signal from then on says so.
pub(crate) fn printed() -> Printed {
    PRINTED.store(true, Ordering::SeqCst);
    Printed
}

/// Clears the mark set by [`printed`] when dropped.
pub(crate) struct Printed;

impl Drop for Printed {
    fn drop(&mut self) {
        PRINTED.store(false, Ordering::SeqCst);
    }
}

/// Notes that the report folder `dir` is being written until the guard is dropped.
pub(crate) fn writing(dir: &Path) -> Writing {
    set_writing(Some(Undo::Report(dir.to_path_buf())));
    Writing
}

/// Notes that the temporary file `tmp` is being written until the guard is dropped: a signal
/// removes it.
pub(crate) fn writing_file(tmp: &Path) -> Writing {
    set_writing(Some(Undo::File(tmp.to_path_buf())));
    Writing
}

fn set_writing(undo: Option<Undo>) {
    if let Ok(mut w) = WRITING.lock() {
        *w = undo;
    }
}

/// Clears what [`writing`] or [`writing_file`] noted when dropped.
pub(crate) struct Writing;

impl Drop for Writing {
    fn drop(&mut self) {
        set_writing(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_says_what_was_done() {
        let report = Undo::Report(PathBuf::from("reports/x"));
        let m = message("SIGINT", true, Some(&report));
        assert!(
            m.starts_with(
                "interrupted by SIGINT while writing the report: the results printed are complete"
            ),
            "{m}"
        );
        assert!(m.contains("the report in reports/x was not written"), "{m}");
        assert!(!m.contains("no results"), "{m}");
        let m = message("SIGTERM", true, None);
        assert!(
            m.contains("after the results were printed: they are complete"),
            "{m}"
        );
        assert!(!m.contains("no results"), "{m}");
        let m = message(
            "SIGINT",
            false,
            Some(&Undo::File(PathBuf::from(".s.json.x.tmp"))),
        );
        assert!(
            m.contains("while writing the shard file: it was not written"),
            "{m}"
        );
        let m = message("SIGINT", false, None);
        assert!(
            m.ends_with("stopped before the run finished, no results"),
            "{m}"
        );
    }
}
