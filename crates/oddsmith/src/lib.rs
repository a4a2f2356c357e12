//! The `oddsmith` command-line tool as a library, so every command can be tested in-process.
//!
//! Arguments are parsed by clap ([`Cli`]), checked into a typed configuration, and only then is
//! any work done: a scenario with an error stops before anything is written to stdout.
//!
//! Exit codes: 0 success · 1 runtime failure · 2 bad input (arguments, scenario files).

mod clock;
mod progress;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use oddsmith_report::{
    CheckCell, CheckDoc, CheckGridData, FighterData, Meta, ReportData, RunDoc, check_table,
    matchup_doc, options_table, run_table, slug, write_report,
};
use oddsmith_rules::{CheckParams, RULESET_IDS, Ruleset, RulesetInfo, RulesetVisitor, visit};
use oddsmith_scenario::{ScenarioError, load, ruleset_of};
use oddsmith_sim::{DEFAULT_MAX_TRIALS_FOR_PRECISION, RunConfig, run_check, run_duels};

/// Trials per matchup when neither the scenario nor `--trials` says.
pub const DEFAULT_TRIALS: u64 = 100_000;
/// Seed when neither the scenario nor `--seed` says.
pub const DEFAULT_SEED: u64 = 1;

/// Monte Carlo balance analysis for tabletop RPG rules.
#[derive(Debug, Parser)]
#[command(name = "oddsmith", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run every matchup of a scenario: win probabilities with 95 % intervals, fight length,
    /// damage, and the exact solution where the ruleset has one.
    Run(RunArgs),
    /// Exact and Monte Carlo figures for one check, e.g. `oddsmith check draft skill=5 difficulty=hard`.
    Check(CheckArgs),
    /// Check scenario files without running them.
    Validate {
        /// Scenario files.
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
    },
}

#[derive(Debug, Args)]
struct RunArgs {
    /// The scenario file.
    scenario: String,
    /// Trials per matchup (with --precision: the cap).
    #[arg(long)]
    trials: Option<u64>,
    /// Seed; stream i of it feeds chunk i of the trials.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (results do not depend on it).
    #[arg(long)]
    threads: Option<usize>,
    /// Stop each matchup once the 95 % half-width of P(A wins) is at most this.
    #[arg(long)]
    precision: Option<f64>,
    /// Print one JSON document on stdout instead of the table.
    #[arg(long)]
    json: bool,
    /// Skip the exact solver.
    #[arg(long)]
    no_exact: bool,
    /// Report folder (default: reports/<scenario name>).
    #[arg(long, conflicts_with = "no_report")]
    out: Option<std::path::PathBuf>,
    /// Do not write a report folder.
    #[arg(long)]
    no_report: bool,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// The ruleset id.
    ruleset: String,
    /// Check parameters as key=value (see `oddsmith rulesets RULESET`).
    params: Vec<String>,
    /// Monte Carlo rolls.
    #[arg(long, default_value_t = DEFAULT_TRIALS)]
    trials: u64,
    /// Seed.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Worker threads.
    #[arg(long)]
    threads: Option<usize>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// An error caused by the user's input (exit code 2), as opposed to a runtime failure.
#[derive(Debug)]
struct InputError(String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

impl From<ScenarioError> for InputError {
    fn from(e: ScenarioError) -> Self {
        InputError(e.to_string())
    }
}

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
    match run(cli, &command, out, err) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "error: {e:#}");
            if e.downcast_ref::<InputError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

fn run(cli: Cli, command: &str, out: &mut dyn Write, err: &mut dyn Write) -> Result<()> {
    match cli.command {
        Command::Run(a) => {
            let text = read(&a.scenario)?;
            let id = ruleset_of(&a.scenario, &text).map_err(InputError::from)?;
            // One worker pool for the whole run (every matchup and the check grid).
            let job = || {
                let scenario = RunScenario {
                    file: &a.scenario,
                    text: &text,
                    args: &a,
                };
                visit(&id, scenario).expect("ruleset_of checked the id")
            };
            let mut data = match a.threads {
                Some(0) => bail!(InputError("--threads must be at least 1".into())),
                Some(t) => rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .with_context(|| format!("starting {t} worker threads"))?
                    .install(job)?,
                None => job()?,
            };
            data.meta.command = command.to_string();
            let report = if a.no_report {
                None
            } else {
                let dir = a.out.clone().unwrap_or_else(|| {
                    std::path::Path::new("reports").join(slug(&data.run.scenario))
                });
                data.meta.generated_at = clock::utc_now();
                Some(
                    write_report(&dir, &data)
                        .with_context(|| format!("writing the report to {}", dir.display()))?,
                )
            };
            if a.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&data.run)?)?;
                if let Some(p) = &report {
                    writeln!(err, "report: {}", p.display())?;
                }
            } else {
                write!(out, "{}", run_table(&data.run))?;
                if let Some(p) = &report {
                    writeln!(out, "\nreport: {}", p.display())?;
                }
            }
        }
        Command::Check(a) => {
            if !RULESET_IDS.contains(&a.ruleset.as_str()) {
                bail!(InputError(format!(
                    "unknown ruleset {:?}; expected one of: {}",
                    a.ruleset,
                    RULESET_IDS.join(", ")
                )));
            }
            let doc = visit(&a.ruleset.clone(), RunCheck { args: &a }).expect("id checked")?;
            if a.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
            } else {
                write!(out, "{}", check_table(&doc))?;
            }
        }
        Command::Validate { files } => {
            let mut failed = Vec::new();
            for f in &files {
                match validate(f) {
                    Ok(summary) => writeln!(out, "ok  {f}: {summary}")?,
                    Err(e) => {
                        writeln!(out, "bad {f}: {e:#}")?;
                        failed.push(f.clone());
                    }
                }
            }
            if !failed.is_empty() {
                bail!(InputError(format!(
                    "{} of {} scenario files are invalid",
                    failed.len(),
                    files.len()
                )));
            }
        }
        Command::Rulesets { ruleset, json } => match ruleset {
            None => {
                let infos: Vec<RulesetInfo> = RULESET_IDS
                    .iter()
                    .map(|id| visit(id, Info).expect("listed id"))
                    .collect();
                if json {
                    writeln!(out, "{}", serde_json::to_string_pretty(&infos)?)?;
                } else {
                    for i in infos {
                        writeln!(out, "{:<10} {}", i.id, i.title)?;
                    }
                }
            }
            Some(id) => {
                let Some(info) = visit(&id, Info) else {
                    bail!(InputError(format!(
                        "unknown ruleset {id:?}; expected one of: {}",
                        RULESET_IDS.join(", ")
                    )));
                };
                if json {
                    writeln!(out, "{}", serde_json::to_string_pretty(&info)?)?;
                } else {
                    write!(out, "{}", describe(&info))?;
                }
            }
        },
    }
    Ok(())
}

fn read(path: &str) -> Result<String> {
    std::fs::read_to_string(path)
        .with_context(|| format!("cannot read scenario {path}"))
        .map_err(|e| InputError(format!("{e:#}")).into())
}

fn validate(file: &str) -> Result<String> {
    let text = read(file)?;
    let id = ruleset_of(file, &text).map_err(InputError::from)?;
    visit(&id, Validate { file, text: &text }).expect("id checked")
}

struct Validate<'a> {
    file: &'a str,
    text: &'a str,
}

impl RulesetVisitor for Validate<'_> {
    type Output = Result<String>;
    fn visit<R: Ruleset>(self) -> Result<String> {
        let s = load::<R>(self.file, self.text).map_err(InputError::from)?;
        Ok(format!(
            "ruleset {}, {} fighters, {} matchups",
            R::ID,
            s.fighters.len(),
            s.matchups.len()
        ))
    }
}

struct Info;

impl RulesetVisitor for Info {
    type Output = RulesetInfo;
    fn visit<R: Ruleset>(self) -> RulesetInfo {
        R::info()
    }
}

fn describe(i: &RulesetInfo) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(s, "{} — {}\n{}\n", i.id, i.title, i.summary);
    for (title, fields) in [
        ("fighter fields ([fighters.NAME])", &i.fighter_fields),
        ("options ([options])", &i.options),
        (
            "check parameters (oddsmith check ID key=value…)",
            &i.check_params,
        ),
    ] {
        let _ = writeln!(s, "{title}:");
        for f in fields.iter() {
            let _ = writeln!(s, "  {} = {}\n      {}", f.name, f.default, f.doc);
        }
        let _ = writeln!(s);
    }
    s
}

struct RunScenario<'a> {
    file: &'a str,
    text: &'a str,
    args: &'a RunArgs,
}

/// Monte Carlo rolls per cell of a ruleset's check grid in reports.
pub const CHECK_GRID_TRIALS: u64 = 20_000;

impl RulesetVisitor for RunScenario<'_> {
    type Output = Result<ReportData>;
    fn visit<R: Ruleset>(self) -> Result<ReportData> {
        let a = self.args;
        let s = load::<R>(self.file, self.text).map_err(InputError::from)?;
        let precision = a.precision.or(s.precision);
        let trials = a.trials.or(s.trials).unwrap_or(if precision.is_some() {
            DEFAULT_MAX_TRIALS_FOR_PRECISION
        } else {
            DEFAULT_TRIALS
        });
        let cfg = RunConfig {
            seed: a.seed.or(s.seed).unwrap_or(DEFAULT_SEED),
            trials,
            precision,
            threads: None, // the caller runs this inside the --threads pool
        };
        if trials == 0 {
            bail!(InputError("--trials must be at least 1".into()));
        }
        if let Some(h) = precision
            && !(h > 0.0 && h < 0.5)
        {
            bail!(InputError(format!(
                "--precision must be between 0 and 0.5, got {h}"
            )));
        }
        let (mut matchups, mut all_stats, mut all_exact) = (Vec::new(), Vec::new(), Vec::new());
        for m in &s.matchups {
            let bar = progress::Bar::new(&m.name, trials, precision.is_some());
            let stats = run_duels(&s.ruleset, &m.matchup, &cfg, &|n| bar.inc(n))?;
            bar.finish();
            let exact = if a.no_exact {
                None
            } else {
                s.ruleset.exact(&m.matchup)
            };
            matchups.push(matchup_doc(
                &m.name,
                &m.a,
                &m.b,
                &stats,
                exact.as_ref(),
                s.ruleset.counter_names(),
            ));
            all_stats.push(stats);
            all_exact.push(exact);
        }
        let checks = if a.no_report {
            None
        } else {
            check_grid(&s.ruleset, cfg.seed)?
        };
        let fighters = s
            .fighters
            .iter()
            .map(|(n, f)| {
                Ok(FighterData {
                    name: n.clone(),
                    spec: serde_json::to_value(f)?,
                    facts: s.ruleset.fighter_facts(f),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(ReportData {
            run: RunDoc {
                scenario: s.name,
                ruleset: R::ID.into(),
                seed: cfg.seed,
                description: s.description,
                options: options_table(s.ruleset.options()),
                matchups,
            },
            stats: all_stats,
            exact: all_exact,
            checks,
            fighters,
            meta: Meta {
                oddsmith_version: env!("CARGO_PKG_VERSION").into(),
                generated_at: String::new(),
                scenario_file: self.file.into(),
                command: String::new(),
            },
        })
    }
}

/// Exact and Monte Carlo values of the ruleset's check grid. Cell *i* uses its own seed,
/// derived from the run's seed, so the grid is as reproducible as the duels.
fn check_grid<R: Ruleset>(rules: &R, seed: u64) -> Result<Option<CheckGridData>> {
    let Some(g) = rules.check_grid() else {
        return Ok(None);
    };
    let mut cells = Vec::with_capacity(g.cells.len());
    for (i, (row, col, col_value, check)) in g.cells.iter().enumerate() {
        let exact = rules.check_exact(check);
        let cell_seed = seed ^ 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1);
        let cfg = RunConfig {
            seed: cell_seed,
            trials: CHECK_GRID_TRIALS,
            precision: None,
            threads: None,
        };
        let mc = run_check(rules, check, exact.distribution.min(), &cfg, &|_| {})?;
        cells.push(CheckCell {
            row: *row,
            col: col.clone(),
            col_value: *col_value,
            exact: exact.p_success(),
            mc: mc.success,
        });
    }
    Ok(Some(CheckGridData {
        row_name: g.row_name.into(),
        col_name: g.col_name.into(),
        col_value_name: g.col_value_name.into(),
        cells,
    }))
}

struct RunCheck<'a> {
    args: &'a CheckArgs,
}

impl RulesetVisitor for RunCheck<'_> {
    type Output = Result<CheckDoc>;
    fn visit<R: Ruleset>(self) -> Result<CheckDoc> {
        let a = self.args;
        let rules = R::new(R::Options::default())?;
        let params = CheckParams::parse(a.params.iter().map(String::as_str))
            .map_err(|e| InputError(e.to_string()))?;
        let check = rules
            .parse_check(&params)
            .map_err(|e| InputError(e.to_string()))?;
        let exact = rules.check_exact(&check);
        let cfg = RunConfig {
            seed: a.seed,
            trials: a.trials,
            precision: None,
            threads: a.threads,
        };
        if a.trials == 0 {
            bail!(InputError("--trials must be at least 1".into()));
        }
        let stats = run_check(&rules, &check, exact.distribution.min(), &cfg, &|_| {})?;
        Ok(CheckDoc::new(R::ID, &exact, &stats))
    }
}
