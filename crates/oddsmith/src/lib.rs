//! The `oddsmith` command-line tool as a library, so every command can be tested in-process.
//!
//! Arguments are parsed by clap ([`Cli`], module `args`), checked once into a typed
//! configuration (module `config`), and only then is any work done, by the command's own
//! module under `cmd`: a scenario with an error stops before anything is written to stdout.
//!
//! Exit codes: 0 success · 1 runtime failure · 2 bad input (arguments, scenario files) ·
//! 3 an `[[assert]]` of the scenario failed (the results and report are still written).
//!
//! Map: `main.rs` calls [`main_impl`]; `args` (raw clap structs) → `config` (one checked
//! configuration: trials, precision, threads, seed) → `cmd/{run,check,validate,rulesets,
//! equipment,init,schema,merge,serve}`, one module per subcommand.
//!
//! - `cmd/validate::check` is the one full check (every part, study variant and skill step)
//!   that `validate` prints and `run` performs before any work; it also returns the loader's
//!   notes and the run count behind the work estimate: `run` refuses more than
//!   `DEFAULT_MAX_WORK` = 1e11 duels unless `--max-work`/`--yes`. The CLI checks its flags
//!   (trials, precision, threads) before it reads a file, so when both are wrong the flag's
//!   error is the one reported. No input passes `validate` and then fails at run time for an
//!   input reason; the corpus test (`tests/corpus/`, each file declaring its expected error)
//!   proves every listed fault exits 2 at its key with nothing written.
//! - `cmd/run/{scenario,comparison,matchups}`: one matchup runner for scenarios and
//!   comparison parts. `cmd::read` refuses files over 1 MiB and files that are not UTF-8.
//! - `cmd/merge`: `run --shard` writes a shard file (versioned JSON with a run hash and the
//!   scenario text); `oddsmith merge` checks the set, sums it and runs the same pipeline,
//!   giving the single run's output bit for bit.
//! - `interrupt`: on SIGINT/SIGTERM during the computation, raise the runs' `Cancel` flag (the
//!   engine stops at its next chunk) and print the matchups that finished under "PARTIAL
//!   RESULTS" (`"partial"` in the JSON), writing no report; during a report write, undo it;
//!   exit 130/143.
//! - `cmd/serve`: `CliEngine`, the explorer's engine.
//! - `error`: exit codes (4: results printed but the report not written); `clock.rs` stamps
//!   report times.

// Without `native` (the browser build) the command-line-only helpers are unused.
#![cfg_attr(not(feature = "native"), allow(unused))]

mod args;
mod clock;
mod cmd;
mod config;
mod error;
pub mod interrupt;
mod progress;
pub mod web;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

pub use args::Cli;
use args::Command;
use config::{CheckSettings, RunSettings};

/// Trials per matchup when neither the scenario nor `--trials` says.
pub const DEFAULT_TRIALS: u64 = 100_000;
/// Seed when neither the scenario nor `--seed` says.
pub const DEFAULT_SEED: u64 = 1;
/// Monte Carlo rolls per cell of a ruleset's check grid in reports.
pub const CHECK_GRID_TRIALS: u64 = 20_000;

/// Parses `args` and runs the command, writing results to `out` and errors to `err`.
pub fn main_impl(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> ExitCode {
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let command = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let cli = match Cli::try_parse_from(&args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = if e.use_stderr() {
                write!(err, "{}", e.render())
            } else {
                write!(out, "{}", e.render())
            };
            return ExitCode::from(code);
        }
    };
    match dispatch(cli, &command, out, err) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "error: {e:#}");
            error::exit_code(&e)
        }
    }
}

/// Checks the command's arguments, then runs it.
fn dispatch(cli: Cli, command: &str, out: &mut dyn Write, err: &mut dyn Write) -> Result<()> {
    match cli.command {
        Command::Run(a) => {
            let settings = RunSettings::try_from(a)?;
            note(settings.note.as_deref(), err)?;
            cmd::run::run(settings, command, out, err)
        }
        Command::Merge(a) => cmd::merge::merge(&a, command, out, err),
        Command::Check(a) => {
            let settings = CheckSettings::try_from(a)?;
            note(settings.note.as_deref(), err)?;
            cmd::check::check(settings, out)
        }
        Command::Validate { files } => cmd::validate::validate(&files, out, err),
        Command::Rulesets {
            ruleset,
            json,
            equipment,
        } => cmd::rulesets::rulesets(ruleset, json, equipment, out),
        Command::Init { ruleset, name } => cmd::init::init(&ruleset, name, out),
        Command::Schema { ruleset, write } => cmd::schema::schema(ruleset, write, out),
        Command::Serve(a) => cmd::serve::serve(a, out, err),
    }
}

/// Writes a note about the arguments (e.g. `--threads` lowered) to `err`, if there is one.
fn note(note: Option<&str>, err: &mut dyn Write) -> Result<()> {
    if let Some(n) = note {
        writeln!(err, "note: {n}")?;
    }
    Ok(())
}
