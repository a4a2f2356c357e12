//! `oddsmith validate FILE…`: every scenario and comparison file loaded and every study
//! variant built, nothing run. Also the loaders `oddsmith run` uses, so a file that validates
//! is exactly a file that runs.

use std::io::Write;

use anyhow::{Result, bail};
use oddsmith_rules::{Ruleset, RulesetVisitor, visit};
use oddsmith_scenario::{Comparison, Scenario, is_comparison, load, load_comparison, ruleset_of};

use crate::cmd::read;
use crate::error::{InputError, ScenarioInput, relocate_err, study_input};

/// Checks every file, printing `ok` or `bad` and the reason for each.
pub(crate) fn validate(files: &[String], out: &mut dyn Write) -> Result<()> {
    let mut failed = 0;
    for f in files {
        match validate_file(f) {
            Ok(summary) => writeln!(out, "ok  {f}: {summary}")?,
            Err(e) => {
                // A located error starts with the path already: print it once.
                let e = format!("{e:#}");
                match e.strip_prefix(f.as_str()) {
                    Some(rest) if rest.starts_with(':') => writeln!(out, "bad {f}{rest}")?,
                    _ => writeln!(out, "bad {f}: {e}")?,
                }
                failed += 1;
            }
        }
    }
    if failed > 0 {
        bail!(InputError(format!(
            "{failed} of {} scenario files are invalid",
            files.len()
        )));
    }
    Ok(())
}

/// A one-line summary of a valid scenario or comparison file.
fn validate_file(file: &str) -> Result<String> {
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
    let v = Validate {
        file,
        text: &text,
        role: Role::Scenario,
    };
    visit(&id, v).expect("id checked")
}

/// Loads and checks every part of a comparison (errors placed in the comparison file);
/// returns one summary per part.
pub(crate) fn validate_parts(file: &str, text: &str, c: &Comparison) -> Result<Vec<String>> {
    c.parts
        .iter()
        .map(|p| {
            let v = Validate {
                file,
                text: &p.text,
                role: Role::ComparisonPart,
            };
            let summary = visit(&p.id, v)
                .expect("load_comparison checked the id")
                .map_err(|e| relocate_err(file, text, p, e))?;
            Ok(format!("[{}] {summary}", p.name))
        })
        .collect()
}

/// Loads a scenario and builds every variant its study sections would run, so a bad value
/// stops the run before any simulation.
pub(crate) fn load_scenario<R: Ruleset>(file: &str, text: &str) -> Result<Scenario<R>> {
    let s = load::<R>(file, text).map_err(ScenarioInput)?;
    oddsmith_study::validate(file, text, &s).map_err(study_input)?;
    Ok(s)
}

/// Loads one part of a comparison (its text as a stand-alone scenario): like a scenario, but
/// only the study sections a part may hold (checks).
fn load_part<R: Ruleset>(file: &str, text: &str) -> Result<Scenario<R>> {
    let s = load::<R>(file, text).map_err(ScenarioInput)?;
    if s.study
        .sections()
        .any(|x| !x.kind().allowed_in_comparison_part())
    {
        bail!(InputError(format!(
            "{file}: rulesets.{}: a comparison part holds fighters, options, matchups and [[check]]s; sweeps, balance, tournaments and assertions belong in a scenario file",
            R::ID
        )));
    }
    oddsmith_study::validate(file, text, &s).map_err(study_input)?;
    Ok(s)
}

/// `ruleset draft, 4 fighters, 2 matchups, 1 sweeps, 2 checks`.
fn summary<R: Ruleset>(s: &Scenario<R>) -> String {
    let mut summary = format!(
        "ruleset {}, {} fighters, {} matchups",
        R::ID,
        s.fighters.len(),
        s.matchups.len()
    );
    for (kind, n) in s.study.counts() {
        summary.push_str(&format!(", {n} {}", kind.counted()));
    }
    summary
}

/// What a file is checked as.
#[derive(Clone, Copy, Debug)]
enum Role {
    /// A scenario file.
    Scenario,
    /// One `[rulesets.<id>]` part of a comparison file.
    ComparisonPart,
}

/// Loads a file in its role and summarises it.
struct Validate<'a> {
    file: &'a str,
    text: &'a str,
    role: Role,
}

impl RulesetVisitor for Validate<'_> {
    type Output = Result<String>;
    fn visit<R: Ruleset>(self) -> Result<String> {
        let s = match self.role {
            Role::Scenario => load_scenario::<R>(self.file, self.text)?,
            Role::ComparisonPart => load_part::<R>(self.file, self.text)?,
        };
        Ok(summary(&s))
    }
}
