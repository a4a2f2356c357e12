//! The `oddsmith` command-line tool as a library, so every command can be tested in-process.
//!
//! Arguments are parsed by clap ([`Cli`]), checked into a typed configuration, and only then is
//! any work done: a scenario with an error stops before anything is written to stdout.
//!
//! Exit codes: 0 success · 1 runtime failure · 2 bad input (arguments, scenario files) ·
//! 3 an `[[assert]]` of the scenario failed (the results and report are still written).

mod clock;
mod progress;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use oddsmith_report::{
    CheckCell, CheckDoc, CheckGridData, FighterData, Meta, ReportData, RunDoc, check_table,
    comparison_table, matchup_doc, options_table, run_table, slug, study_table, write_report,
};
use oddsmith_rules::{CheckParams, RULESET_IDS, Ruleset, RulesetInfo, RulesetVisitor, visit};
use oddsmith_scenario::{
    Comparison, Part, ScenarioError, is_comparison, load, load_comparison, ruleset_of,
};
use oddsmith_sim::{DEFAULT_MAX_TRIALS_FOR_PRECISION, RunConfig, run_check, run_duels};
use oddsmith_study::{
    Ctx, PartResult, StudyError, compare, run_check_study, run_study, skill_step,
};

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

/// `[[assert]]` sections that failed (exit code 3), one line each.
#[derive(Debug)]
struct AssertionsFailed(Vec<String>);

impl std::fmt::Display for AssertionsFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} assertion(s) failed:", self.0.len())?;
        for l in &self.0 {
            write!(f, "\n  {l}")?;
        }
        Ok(())
    }
}

impl std::error::Error for AssertionsFailed {}

/// An error caused by the user's input (exit code 2), as opposed to a runtime failure.
#[derive(Debug)]
struct InputError(String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// A located scenario error (exit code 2); kept typed so a comparison can re-locate an
/// error found in one of its parts.
#[derive(Debug)]
struct ScenarioInput(ScenarioError);

impl std::fmt::Display for ScenarioInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ScenarioInput {}

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
            if e.downcast_ref::<InputError>().is_some()
                || e.downcast_ref::<ScenarioInput>().is_some()
            {
                ExitCode::from(2)
            } else if e.downcast_ref::<AssertionsFailed>().is_some() {
                ExitCode::from(3)
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
            let comparison = is_comparison(&text);
            let id = if comparison {
                String::new()
            } else {
                ruleset_of(&a.scenario, &text).map_err(ScenarioInput)?
            };
            // One worker pool for the whole run (every matchup, study and the check grid).
            let job = || {
                if comparison {
                    return run_comparison(&a.scenario, &text, &a);
                }
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
                if let Some(st) = &data.run.study {
                    write!(out, "\n{}", study_table(st))?;
                }
                if let Some(c) = &data.run.comparison {
                    write!(out, "\n{}", comparison_table(c))?;
                }
                if let Some(p) = &report {
                    writeln!(out, "\nreport: {}", p.display())?;
                }
            }
            if let Some(st) = &data.run.study {
                let failed: Vec<String> = st
                    .failed_asserts()
                    .map(|f| {
                        format!(
                            "{}: {} = {:.4} ({}) is outside [{}, {}]",
                            f.name, f.metric, f.value, f.source, f.range.0, f.range.1
                        )
                    })
                    .collect();
                if !failed.is_empty() {
                    bail!(AssertionsFailed(failed));
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
    if is_comparison(&text) {
        let c = load_comparison(file, &text).map_err(ScenarioInput)?;
        let parts = validate_parts(file, &text, &c)?;
        return Ok(format!(
            "comparison of {} rulesets: {}",
            c.parts.len(),
            parts.join("; ")
        ));
    }
    let id = ruleset_of(file, &text).map_err(ScenarioInput)?;
    visit(
        &id,
        Validate {
            file,
            text: &text,
            part: false,
        },
    )
    .expect("id checked")
}

/// Loads and checks every part of a comparison (errors placed in the comparison file);
/// returns one summary per part.
fn validate_parts(file: &str, text: &str, c: &Comparison) -> Result<Vec<String>> {
    c.parts
        .iter()
        .map(|p| {
            let v = Validate {
                file,
                text: &p.text,
                part: true,
            };
            let summary = visit(&p.id, v)
                .expect("load_comparison checked the id")
                .map_err(|e| relocate_err(file, text, &p.id, e))?;
            Ok(format!("[{}] {summary}", p.id))
        })
        .collect()
}

struct Validate<'a> {
    file: &'a str,
    text: &'a str,
    /// A comparison part: only fighters, options, matchups and checks are allowed.
    part: bool,
}

impl RulesetVisitor for Validate<'_> {
    type Output = Result<String>;
    fn visit<R: Ruleset>(self) -> Result<String> {
        let s = load::<R>(self.file, self.text).map_err(ScenarioInput)?;
        let st = &s.study;
        if self.part
            && (!st.sweeps.is_empty()
                || st.balance.is_some()
                || st.tournament.is_some()
                || !st.asserts.is_empty())
        {
            bail!(InputError(format!(
                "{}: rulesets.{}: a comparison part holds fighters, options, matchups and [[check]]s; sweeps, balance, tournaments and assertions belong in a scenario file",
                self.file,
                R::ID
            )));
        }
        oddsmith_study::validate(self.file, self.text, &s).map_err(study_input)?;
        let mut summary = format!(
            "ruleset {}, {} fighters, {} matchups",
            R::ID,
            s.fighters.len(),
            s.matchups.len()
        );
        for (n, what) in [
            (st.sweeps.len(), "sweeps"),
            (usize::from(st.balance.is_some()), "balance"),
            (usize::from(st.tournament.is_some()), "tournament"),
            (st.checks.len(), "checks"),
            (st.asserts.len(), "assertions"),
        ] {
            if n > 0 {
                summary.push_str(&format!(", {n} {what}"));
            }
        }
        Ok(summary)
    }
}

/// A study error caused by the scenario (a bad swept value, check parameter …) is the user's
/// input (exit 2); an engine failure is a runtime failure (exit 1).
fn study_input(e: StudyError) -> anyhow::Error {
    match e {
        StudyError::Scenario(se) => ScenarioInput(se).into(),
        StudyError::Check { .. } | StudyError::Rules(_) => InputError(e.to_string()).into(),
        other => other.into(),
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
        let s = load::<R>(self.file, self.text).map_err(ScenarioInput)?;
        oddsmith_study::validate(self.file, self.text, &s).map_err(study_input)?;
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
        let study = if s.study.is_empty() {
            None
        } else {
            let ctx = Ctx {
                file: self.file,
                text: self.text,
                scenario: &s,
                cfg: &cfg,
                exact: !a.no_exact,
            };
            let bar = progress::Bar::new("study", 0, true);
            let doc =
                run_study(&ctx, &all_stats, &all_exact, &|_, n| bar.inc(n)).map_err(study_input)?;
            bar.finish();
            Some(doc)
        };
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
                study,
                comparison: None,
            },
            stats: all_stats,
            exact: all_exact,
            checks,
            fighters,
            meta: meta(self.file),
        })
    }
}

/// Run facts known before the run; the caller stamps the command line and the time.
fn meta(file: &str) -> Meta {
    Meta {
        oddsmith_version: env!("CARGO_PKG_VERSION").into(),
        generated_at: String::new(),
        scenario_file: file.into(),
        command: String::new(),
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

/// Places an error from a comparison part at its field in the comparison file.
fn relocate_err(file: &str, text: &str, id: &str, e: anyhow::Error) -> anyhow::Error {
    match e.downcast::<ScenarioInput>() {
        Ok(ScenarioInput(se)) => ScenarioInput(Comparison::relocate(file, text, id, se)).into(),
        Err(e) => e,
    }
}

/// The seed of comparison part `k`: part 0 uses the file's seed itself.
fn part_seed(seed: u64, k: usize) -> u64 {
    seed ^ 0xA076_1D64_78BD_642Fu64.wrapping_mul(k as u64)
}

/// Runs a comparison file: each part with its own ruleset, then the comparison.
fn run_comparison(file: &str, text: &str, a: &RunArgs) -> Result<ReportData> {
    let c = load_comparison(file, text).map_err(ScenarioInput)?;
    let precision = a.precision;
    if precision.is_some() {
        bail!(InputError(
            "--precision is not supported for comparison files; give --trials".into()
        ));
    }
    let cfg = RunConfig {
        seed: a.seed.or(c.seed).unwrap_or(DEFAULT_SEED),
        trials: a.trials.or(c.trials).unwrap_or(DEFAULT_TRIALS),
        precision: None,
        threads: None,
    };
    if cfg.trials == 0 {
        bail!(InputError("--trials must be at least 1".into()));
    }
    // Load and check every part before running any.
    validate_parts(file, text, &c)?;
    let mut results = Vec::new();
    let mut data = ReportData {
        run: RunDoc {
            scenario: c.name.clone(),
            ruleset: c
                .parts
                .iter()
                .map(|p| p.id.as_str())
                .collect::<Vec<_>>()
                .join(" vs "),
            seed: cfg.seed,
            description: c.description.clone(),
            options: Vec::new(),
            matchups: Vec::new(),
            study: None,
            comparison: None,
        },
        stats: Vec::new(),
        exact: Vec::new(),
        checks: None,
        fighters: Vec::new(),
        meta: meta(file),
    };
    for (k, p) in c.parts.iter().enumerate() {
        // Each part on its own seed (derived from the file's seed and the part's position),
        // so the rulesets' estimates are independent samples, as the tests assume.
        let part_cfg = RunConfig {
            seed: part_seed(cfg.seed, k),
            ..cfg.clone()
        };
        let r = visit(
            &p.id,
            RunPart {
                file,
                part: p,
                cfg: &part_cfg,
                no_exact: a.no_exact,
            },
        )
        .expect("load_comparison checked the id")
        .map_err(|e| relocate_err(file, text, &p.id, e))?;
        let (part, doc) = r;
        data.run.options.extend(doc.options);
        data.run.matchups.extend(doc.matchups);
        data.stats.extend(doc.stats);
        data.exact.extend(doc.exact);
        data.fighters.extend(doc.fighters);
        results.push(part);
    }
    data.run.comparison = Some(compare(&results, c.alpha, c.practical_threshold));
    Ok(data)
}

/// What one comparison part adds to the report (names prefixed with the ruleset id).
#[derive(Default)]
struct PartData {
    options: Vec<oddsmith_report::OptionValue>,
    matchups: Vec<oddsmith_report::MatchupDoc>,
    stats: Vec<oddsmith_sim::DuelStats>,
    exact: Vec<Option<oddsmith_rules::ExactDuel>>,
    fighters: Vec<FighterData>,
}

/// Runs one part of a comparison: its matchups, its checks and its skill step.
struct RunPart<'a> {
    file: &'a str,
    part: &'a Part,
    cfg: &'a RunConfig,
    no_exact: bool,
}

impl RulesetVisitor for RunPart<'_> {
    type Output = Result<(PartResult, PartData)>;
    fn visit<R: Ruleset>(self) -> Self::Output {
        let (file, text, cfg) = (self.file, self.part.text.as_str(), self.cfg);
        // Checked by `validate_parts` before any part ran.
        let s = load::<R>(file, text).map_err(ScenarioInput)?;
        let id = R::ID;
        let mut doc = PartData {
            options: options_table(s.ruleset.options())
                .into_iter()
                .map(|mut o| {
                    o.name = format!("{id}: {}", o.name);
                    o
                })
                .collect(),
            ..PartData::default()
        };
        let mut part = PartResult {
            id: id.into(),
            matchups: Vec::new(),
            step: None,
            checks: Vec::new(),
        };
        for m in &s.matchups {
            let bar = progress::Bar::new(&format!("{id}: {}", m.name), cfg.trials, false);
            let stats = run_duels(&s.ruleset, &m.matchup, cfg, &|n| bar.inc(n))?;
            bar.finish();
            let exact = if self.no_exact {
                None
            } else {
                s.ruleset.exact(&m.matchup)
            };
            doc.matchups.push(matchup_doc(
                &format!("{id}: {}", m.name),
                &format!("{id}: {}", m.a),
                &format!("{id}: {}", m.b),
                &stats,
                exact.as_ref(),
                s.ruleset.counter_names(),
            ));
            doc.stats.push(stats.clone());
            doc.exact.push(exact.clone());
            part.matchups.push((m.name.clone(), stats, exact));
        }
        for (n, f) in &s.fighters {
            doc.fighters.push(FighterData {
                name: format!("{id}: {n}"),
                spec: serde_json::to_value(f)?,
                facts: s.ruleset.fighter_facts(f),
            });
        }
        let ctx = Ctx {
            file,
            text,
            scenario: &s,
            cfg,
            exact: !self.no_exact,
        };
        for i in 0..s.study.checks.len() {
            part.checks
                .push(run_check_study(&ctx, i).map_err(study_input)?);
        }
        if let Some(step) = &self.part.skill_step {
            part.step =
                Some(skill_step(file, text, &s, step, cfg, !self.no_exact).map_err(study_input)?);
        }
        Ok((part, doc))
    }
}
