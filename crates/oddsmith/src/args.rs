//! The raw command line, as clap parses it. Nothing here is checked beyond its type:
//! [`crate::config`] turns these into the checked configuration the commands run on.

use clap::{Args, Parser, Subcommand};

use crate::{DEFAULT_SEED, DEFAULT_TRIALS};

/// Monte Carlo balance analysis for tabletop RPG rules.
#[derive(Debug, Parser)]
#[command(name = "oddsmith", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run every matchup of a scenario: win probabilities with 95 % intervals, fight length,
    /// damage, and the exact solution where the ruleset has one.
    Run(RunArgs),
    /// Sum the shard files of a sharded run (`run --shard K/N`) into the results and report
    /// the single run gives.
    Merge(MergeArgs),
    /// Exact and Monte Carlo figures for one check, e.g. `oddsmith check draft skill=5 difficulty=hard`.
    Check(CheckArgs),
    /// Check scenario files without running them.
    Validate {
        /// Scenario or comparison files (UTF-8 text, at most 1 MiB each).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// List rulesets, or show one ruleset's fighter fields, options (with defaults) and check parameters.
    Rulesets {
        /// A ruleset id.
        ruleset: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// With a ruleset id: its built-in tables (weapons, armour, shields, species, classes)
        /// with their statistics.
        #[arg(long, requires = "ruleset")]
        equipment: bool,
    },
    /// Write a commented starter scenario: `oddsmith init draft my-duel` writes my-duel.toml.
    Init {
        /// A ruleset id.
        ruleset: String,
        /// The scenario's name and file (NAME.toml; default RULESET-starter).
        name: Option<String>,
    },
    /// Print the JSON Schema of scenario files (every ruleset, or one), for editors and validators.
    Schema {
        /// A ruleset id (default: the combined schema of every ruleset and comparison files).
        ruleset: Option<String>,
        /// Write oddsmith.schema.json and ID.schema.json for every ruleset into this folder.
        #[arg(long, value_name = "DIR", conflicts_with = "ruleset")]
        write: Option<String>,
    },
    /// The local explorer: edit a scenario as a form or TOML in the browser and watch exact
    /// and Monte Carlo answers update live.
    Serve(ServeArgs),
}

// No `///` doc on the argument structs: clap would take it as the subcommand's description.
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The scenario or comparison file (UTF-8 text, at most 1 MiB).
    pub scenario: String,
    /// Trials per matchup; overrides a precision target the file sets (with --precision: the
    /// cap).
    #[arg(long)]
    pub trials: Option<u64>,
    /// Seed; stream i of it feeds chunk i of the trials.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (results do not depend on it).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stop each matchup once the 95 % half-width of P(A wins) is at most this.
    #[arg(long)]
    pub precision: Option<f64>,
    /// Print one JSON document on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Skip the exact solver.
    #[arg(long)]
    pub no_exact: bool,
    /// Report folder (default: reports/<scenario name>).
    #[arg(long, conflicts_with = "no_report")]
    pub out: Option<std::path::PathBuf>,
    /// Do not write a report folder.
    #[arg(long)]
    pub no_report: bool,
    /// Most duels (and check rolls) a run may simulate, summed over matchups, sweep points,
    /// tournament seatings, balance steps and checks, in duels of ordinary length (a pilot of a
    /// few of the file's duels measures their length: a duel of many rounds counts as
    /// several); a run estimated above it is refused before it starts. Default 100000000000
    /// (1e11, hours of computing).
    #[arg(long, value_name = "N", conflicts_with = "yes")]
    pub max_work: Option<u64>,
    /// Run however much work the estimate shows (no --max-work limit).
    #[arg(long)]
    pub yes: bool,
    /// Also run the readings study: every matchup once per alternative reading and at both
    /// ends of every invented number it uses (`oddsmith rulesets ID` marks them), paired with
    /// the baseline; `[readings]` in the file chooses the factors (and runs it without the flag).
    /// Shards and merges like the rest of the run.
    #[arg(long)]
    pub readings: bool,
    /// Run only shard K of N of the work (every N-th chunk of trials, from the K-th) and write
    /// a shard file for `oddsmith merge`, instead of the results and report.
    #[arg(long, value_name = "K/N", conflicts_with_all = ["json", "out", "precision"])]
    pub shard: Option<String>,
    /// The shard file (default: <scenario file stem>.shard-K-of-N.json).
    #[arg(long, value_name = "PATH", requires = "shard")]
    pub shard_out: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The shard files written by `oddsmith run --shard K/N`, every K from 1 to N once.
    #[arg(required = true)]
    pub shards: Vec<String>,
    /// Print one JSON document on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Report folder (default: reports/<scenario name>).
    #[arg(long, conflicts_with = "no_report")]
    pub out: Option<std::path::PathBuf>,
    /// Do not write a report folder.
    #[arg(long)]
    pub no_report: bool,
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// The ruleset id.
    pub ruleset: String,
    /// Check parameters as key=value (see `oddsmith rulesets RULESET`).
    pub params: Vec<String>,
    /// A ruleset option as key=value, the names of `[options]` (repeatable; dotted keys
    /// for nested options, e.g. `--set full_dodge_bonus=2`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Monte Carlo rolls.
    #[arg(long, default_value_t = DEFAULT_TRIALS)]
    pub trials: u64,
    /// Seed.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Worker threads.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The scenario to open (the explorer reads and writes only inside its folder; default:
    /// pick a bundled scenario or a template, in the current folder).
    pub scenario: Option<String>,
    /// Port (0: any free port).
    #[arg(long, default_value_t = 8737)]
    pub port: u16,
    /// Address to listen on (default 127.0.0.1); anything but a loopback address makes the
    /// explorer reachable from other machines and needs this flag.
    #[arg(long)]
    pub host: Option<String>,
    /// Open the page in the desktop's browser.
    #[arg(long)]
    pub open: bool,
}
