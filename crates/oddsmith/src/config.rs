//! The checked configuration of each command, built once from the raw arguments
//! ([`crate::args`]) before any file is read or any work done: trials, precision and threads
//! are checked here and nowhere else in the CLI.

use std::num::NonZeroUsize;
use std::path::PathBuf;

use anyhow::{Context, Result};
use oddsmith_sim::{Cancel, DEFAULT_MAX_TRIALS_FOR_PRECISION, RunConfig, Units};

use crate::args::{CheckArgs, MergeArgs, RunArgs};
use crate::error::InputError;
use crate::{DEFAULT_SEED, DEFAULT_TRIALS};

/// Worker threads for a whole command: `None` is rayon's default pool (one per core).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Threads(Option<NonZeroUsize>);

/// Most worker threads per core a command starts: results do not depend on the thread count,
/// and far more threads than cores only cost memory and start-up time (`--threads 100000` used
/// to exhaust the machine).
pub(crate) const MAX_THREADS_PER_CORE: usize = 4;

impl Threads {
    /// From `--threads`; 0 is refused, and more than [`MAX_THREADS_PER_CORE`] per core is
    /// lowered to that, with a note for the user.
    fn new(threads: Option<usize>) -> Result<(Threads, Option<String>), InputError> {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        Self::clamped(threads, cores)
    }

    /// [`Threads::new`] on a machine with `cores` cores.
    fn clamped(
        threads: Option<usize>,
        cores: usize,
    ) -> Result<(Threads, Option<String>), InputError> {
        let Some(t) = threads else {
            return Ok((Threads(None), None));
        };
        let t = NonZeroUsize::new(t)
            .ok_or_else(|| InputError("--threads must be at least 1".into()))?;
        let max = cores.max(1) * MAX_THREADS_PER_CORE;
        if t.get() <= max {
            return Ok((Threads(Some(t)), None));
        }
        let note = format!(
            "--threads {t} is more than this machine's {cores} cores can use; running {max} \
             threads (the numbers do not depend on the thread count)"
        );
        Ok((Threads(NonZeroUsize::new(max)), Some(note)))
    }

    /// Runs `job` on one worker pool of this size (or on the default pool): every matchup,
    /// study and check of the command shares it. Results do not depend on the size.
    pub(crate) fn install<T: Send>(self, job: impl FnOnce() -> Result<T> + Send) -> Result<T> {
        match self.0 {
            None => job(),
            Some(t) => rayon::ThreadPoolBuilder::new()
                .num_threads(t.get())
                .build()
                .with_context(|| format!("starting {t} worker threads"))?
                .install(job),
        }
    }
}

/// `--trials`, `--precision` and `--seed` as given (checked); a scenario file may set what
/// they leave out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sampling {
    trials: Option<u64>,
    precision: Option<f64>,
    seed: Option<u64>,
}

/// What a file says about trials, precision and seed (already checked by its loader).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct FileSampling {
    /// `trials = …`.
    pub trials: Option<u64>,
    /// `precision = …`.
    pub precision: Option<f64>,
    /// `seed = …`.
    pub seed: Option<u64>,
}

impl Sampling {
    fn new(
        trials: Option<u64>,
        precision: Option<f64>,
        seed: Option<u64>,
    ) -> Result<Self, InputError> {
        if trials == Some(0) {
            return Err(InputError("--trials must be at least 1".into()));
        }
        if let Some(h) = precision
            && !(h > 0.0 && h < 0.5)
        {
            return Err(InputError(format!(
                "--precision must be between 0 and 0.5, got {h}"
            )));
        }
        Ok(Sampling {
            trials,
            precision,
            seed,
        })
    }

    /// The engine's configuration for a scenario: the command line first, then the file, then
    /// the defaults ([`DEFAULT_TRIALS`], or [`DEFAULT_MAX_TRIALS_FOR_PRECISION`] as the cap
    /// when running to a precision; [`DEFAULT_SEED`]). `--trials` without `--precision`
    /// overrides a precision target the file sets (the run is then a fixed number of trials,
    /// as a shard needs); with `--precision` it is the cap. The engine runs on the command's
    /// pool.
    pub(crate) fn for_scenario(&self, file: FileSampling) -> RunConfig {
        let precision = match (self.precision, self.trials) {
            (Some(h), _) => Some(h),
            (None, Some(_)) => None,
            (None, None) => file.precision,
        };
        let default_trials = if precision.is_some() {
            DEFAULT_MAX_TRIALS_FOR_PRECISION
        } else {
            DEFAULT_TRIALS
        };
        RunConfig {
            seed: self.seed.or(file.seed).unwrap_or(DEFAULT_SEED),
            trials: self.trials.or(file.trials).unwrap_or(default_trials),
            precision,
            threads: None,
            units: Units::all(),
            cancel: crate::interrupt::token(),
        }
    }

    /// The engine's configuration for a comparison file, which runs a fixed number of trials.
    pub(crate) fn for_comparison(&self, file: FileSampling) -> Result<RunConfig, InputError> {
        if self.precision.is_some() {
            return Err(InputError(
                "--precision is not supported for comparison files; give --trials".into(),
            ));
        }
        Ok(RunConfig {
            seed: self.seed.or(file.seed).unwrap_or(DEFAULT_SEED),
            trials: self.trials.or(file.trials).unwrap_or(DEFAULT_TRIALS),
            precision: None,
            threads: None,
            units: Units::all(),
            cancel: crate::interrupt::token(),
        })
    }
}

/// Where the report of a run goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ReportTo {
    /// `--no-report`.
    Nowhere,
    /// `reports/<scenario name>`.
    Default,
    /// `--out DIR`.
    Folder(PathBuf),
}

/// `oddsmith run`, checked.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RunSettings {
    /// The scenario or comparison file.
    pub file: String,
    /// Trials, precision and seed from the command line.
    pub sampling: Sampling,
    /// Worker threads.
    pub threads: Threads,
    /// Compute exact solutions where the ruleset has them (not `--no-exact`).
    pub exact: bool,
    /// Print JSON instead of tables.
    pub json: bool,
    /// Where the report goes.
    pub report: ReportTo,
    /// A note on stderr before any work (e.g. `--threads` lowered).
    pub note: Option<String>,
    /// Most work the run may do, in ordinary duels ([`DEFAULT_MAX_WORK`], `--max-work`, or
    /// no limit with `--yes`; see `validate::duel_cost`).
    pub max_work: u64,
    /// Where the Monte Carlo accumulators come from: computed (all chunks, or a shard's
    /// share with `--shard`), or summed from shard files by `oddsmith merge`.
    pub units: Units,
    /// `--shard-out`.
    pub shard_out: Option<PathBuf>,
    /// What stops the run early: the process's Ctrl-C flag, or the explorer's job flag.
    pub cancel: Cancel,
    /// `--readings`: run the readings study (a file's `[readings]` runs it too).
    pub readings: bool,
}

impl ReportTo {
    /// From `--no-report` and `--out`.
    fn of(no_report: bool, out: Option<PathBuf>) -> ReportTo {
        match (no_report, out) {
            (true, _) => ReportTo::Nowhere,
            (false, None) => ReportTo::Default,
            (false, Some(dir)) => ReportTo::Folder(dir),
        }
    }
}

impl RunSettings {
    /// `oddsmith merge`: the run the shards were cut from (`file`, `--trials`, `--seed`,
    /// `--no-exact`, `--readings` as they recorded them), fed the shards' sum `units`.
    pub(crate) fn for_merge(
        a: &MergeArgs,
        file: String,
        (trials, seed): (Option<u64>, Option<u64>),
        exact: bool,
        readings: bool,
        units: Units,
    ) -> Result<RunSettings, InputError> {
        Ok(RunSettings {
            file,
            sampling: Sampling::new(trials, None, seed)?,
            threads: Threads(None),
            exact,
            json: a.json,
            report: ReportTo::of(a.no_report, a.out.clone()),
            note: None,
            // The shards did the work; merging only sums it.
            max_work: u64::MAX,
            units,
            shard_out: None,
            cancel: crate::interrupt::token(),
            readings,
        })
    }

    /// `--trials` and `--seed` as given (a shard file records them).
    pub(crate) fn trials_and_seed(&self) -> (Option<u64>, Option<u64>) {
        (self.sampling.trials, self.sampling.seed)
    }
}

/// Most duels and check rolls a run simulates unless `--max-work` or `--yes` says otherwise:
/// 1e11, hours of computing at about ten million duels a second.
pub(crate) const DEFAULT_MAX_WORK: u64 = 100_000_000_000;

impl TryFrom<RunArgs> for RunSettings {
    type Error = InputError;
    fn try_from(a: RunArgs) -> Result<Self, InputError> {
        let (threads, note) = Threads::new(a.threads)?;
        let sampling = Sampling::new(a.trials, a.precision, a.seed)?;
        let report = ReportTo::of(a.no_report, a.out);
        let units = match a.shard {
            Some(s) => Units::shard(s.parse().map_err(|e| InputError(format!("--shard: {e}")))?),
            None => Units::all(),
        };
        Ok(RunSettings {
            file: a.scenario,
            sampling,
            threads,
            exact: !a.no_exact,
            json: a.json,
            report,
            note,
            max_work: match (a.yes, a.max_work) {
                (true, _) => u64::MAX,
                (false, Some(n)) => n,
                (false, None) => DEFAULT_MAX_WORK,
            },
            units,
            shard_out: a.shard_out,
            cancel: crate::interrupt::token(),
            readings: a.readings,
        })
    }
}

/// `oddsmith check`, checked.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CheckSettings {
    /// The ruleset id (checked against the registry by the command).
    pub ruleset: String,
    /// `key=value` parameters, as given.
    pub params: Vec<String>,
    /// `--set key=value` ruleset options, as given.
    pub options: Vec<String>,
    /// Seed and rolls.
    pub cfg: RunConfig,
    /// Worker threads.
    pub threads: Threads,
    /// Print JSON instead of the table.
    pub json: bool,
    /// A note on stderr before any work (e.g. `--threads` lowered).
    pub note: Option<String>,
}

impl TryFrom<CheckArgs> for CheckSettings {
    type Error = InputError;
    fn try_from(a: CheckArgs) -> Result<Self, InputError> {
        let (threads, note) = Threads::new(a.threads)?;
        let sampling = Sampling::new(Some(a.trials), None, Some(a.seed))?;
        Ok(CheckSettings {
            ruleset: a.ruleset,
            params: a.params,
            options: a.set,
            cfg: sampling.for_scenario(FileSampling::default()),
            threads,
            json: a.json,
            note,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Command};
    use clap::Parser;

    fn run(args: &[&str]) -> Result<RunSettings, InputError> {
        let argv = ["oddsmith", "run", "s.toml"].iter().chain(args);
        match Cli::try_parse_from(argv).unwrap().command {
            Command::Run(a) => RunSettings::try_from(a),
            other => panic!("parsed as {other:?}"),
        }
    }

    fn check(args: &[&str]) -> Result<CheckSettings, InputError> {
        let argv = ["oddsmith", "check", "draft", "skill=5"].iter().chain(args);
        match Cli::try_parse_from(argv).unwrap().command {
            Command::Check(a) => CheckSettings::try_from(a),
            other => panic!("parsed as {other:?}"),
        }
    }

    fn refused(msg: &str) -> InputError {
        InputError(msg.into())
    }

    #[test]
    fn bad_run_arguments_are_refused_with_their_messages() {
        assert_eq!(
            run(&["--trials", "0"]),
            Err(refused("--trials must be at least 1"))
        );
        assert_eq!(
            run(&["--threads", "0"]),
            Err(refused("--threads must be at least 1"))
        );
        for h in ["0", "0.5", "0.7", "NaN"] {
            assert_eq!(
                run(&["--precision", h]),
                Err(refused(&format!(
                    "--precision must be between 0 and 0.5, got {}",
                    h.parse::<f64>().unwrap()
                )))
            );
        }
        // Threads are checked first, as the command line reads.
        assert_eq!(
            run(&["--trials", "0", "--threads", "0"]),
            Err(refused("--threads must be at least 1"))
        );
    }

    #[test]
    fn threads_far_above_the_cores_are_lowered_with_a_note() {
        let t = |n| Threads::clamped(Some(n), 2).unwrap();
        assert_eq!(t(8), (Threads(NonZeroUsize::new(8)), None));
        let (threads, note) = t(100_000);
        assert_eq!(
            threads,
            Threads(NonZeroUsize::new(2 * MAX_THREADS_PER_CORE))
        );
        assert!(
            note.unwrap()
                .starts_with("--threads 100000 is more than this machine's 2 cores")
        );
        assert_eq!(Threads::clamped(None, 2).unwrap(), (Threads(None), None));
    }

    #[test]
    fn bad_check_arguments_are_refused_with_their_messages() {
        assert_eq!(
            check(&["--trials", "0"]).unwrap_err(),
            refused("--trials must be at least 1")
        );
        assert_eq!(
            check(&["--threads", "0"]).unwrap_err(),
            refused("--threads must be at least 1")
        );
        let c = check(&["--trials", "7", "--seed", "9", "--threads", "2"]).unwrap();
        assert_eq!((c.cfg.trials, c.cfg.seed, c.cfg.precision), (7, 9, None));
        assert_eq!(c.threads, Threads(NonZeroUsize::new(2)));
        let c = check(&[]).unwrap();
        assert_eq!((c.cfg.trials, c.cfg.seed), (DEFAULT_TRIALS, DEFAULT_SEED));
    }

    #[test]
    fn the_command_line_wins_over_the_file_then_the_defaults() {
        let file = FileSampling {
            trials: Some(500),
            precision: None,
            seed: Some(3),
        };
        let s = run(&[]).unwrap();
        let cfg = s.sampling.for_scenario(file);
        assert_eq!((cfg.trials, cfg.seed, cfg.precision), (500, 3, None));
        let cfg = s.sampling.for_scenario(FileSampling::default());
        assert_eq!((cfg.trials, cfg.seed), (DEFAULT_TRIALS, DEFAULT_SEED));
        let s = run(&["--trials", "20", "--seed", "8"]).unwrap();
        let cfg = s.sampling.for_scenario(file);
        assert_eq!((cfg.trials, cfg.seed), (20, 8));
        // Running to a precision without a trial count: the default cap.
        let s = run(&["--precision", "0.01"]).unwrap();
        let cfg = s.sampling.for_scenario(FileSampling::default());
        assert_eq!(
            (cfg.trials, cfg.precision),
            (DEFAULT_MAX_TRIALS_FOR_PRECISION, Some(0.01))
        );
        // A precision target in the file: --trials overrides it, --precision keeps --trials
        // as the cap.
        let file_h = FileSampling {
            trials: Some(500),
            precision: Some(0.02),
            seed: None,
        };
        let cfg = run(&[]).unwrap().sampling.for_scenario(file_h);
        assert_eq!((cfg.trials, cfg.precision), (500, Some(0.02)));
        let cfg = run(&["--trials", "70"])
            .unwrap()
            .sampling
            .for_scenario(file_h);
        assert_eq!((cfg.trials, cfg.precision), (70, None));
        let cfg = run(&["--trials", "70", "--precision", "0.01"])
            .unwrap()
            .sampling
            .for_scenario(file_h);
        assert_eq!((cfg.trials, cfg.precision), (70, Some(0.01)));
        assert_eq!(
            s.sampling.for_comparison(file),
            Err(refused(
                "--precision is not supported for comparison files; give --trials"
            ))
        );
        let cfg = run(&[]).unwrap().sampling.for_comparison(file).unwrap();
        assert_eq!((cfg.trials, cfg.seed, cfg.precision), (500, 3, None));
    }

    #[test]
    fn report_destination() {
        assert_eq!(run(&[]).unwrap().report, ReportTo::Default);
        assert_eq!(run(&["--no-report"]).unwrap().report, ReportTo::Nowhere);
        assert_eq!(
            run(&["--out", "x"]).unwrap().report,
            ReportTo::Folder("x".into())
        );
    }
}
