//! Ctrl-C and `kill`: SIGINT and SIGTERM stop the command promptly, with the conventional exit
//! code 128 + the signal number.
//!
//! - During the computation of a run, the signal raises the run's [`Cancel`] flag: the engine
//!   stops at its next chunk and the command prints the matchups that had finished, marked
//!   partial (their numbers are the ones the seed gives: a matchup is shown only when all its
//!   trials ran), writes no report and exits. If the command has not stopped within
//!   [`GRACE`] (an exact solve does not look at the flag), the process exits without them.
//! - During a report write, the unfinished write is undone (its temporary folder removed, an
//!   earlier report put back) and the process exits at once.
//! - Otherwise the process exits at once.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use oddsmith_sim::Cancel;
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// The report folder being written right now, if any.
static WRITING: Mutex<Option<PathBuf>> = Mutex::new(None);
/// Whether a run's computation, which stops at the flag, is under way.
static COMPUTING: AtomicBool = AtomicBool::new(false);
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
pub fn install() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
        return; // Without the handler, the default action (stop at once) remains.
    };
    std::thread::spawn(move || {
        let Some(sig) = signals.forever().next() else {
            return;
        };
        let dir = WRITING.lock().map_or(None, |w| w.clone());
        if dir.is_none() && COMPUTING.load(Ordering::SeqCst) {
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
        if let Some(dir) = &dir {
            oddsmith_report::abandon_write(dir);
        }
        let report = dir.map_or(String::new(), |d| {
            format!("; the report in {} was not changed", d.display())
        });
        eprintln!(
            "\ninterrupted by {}: stopped before the run finished, no results{report}",
            name(sig)
        );
        std::process::exit(128 + sig);
    });
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
