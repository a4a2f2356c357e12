//! `oddsmith check RULESET key=value…`: one check's exact figures with Monte Carlo beside.

use std::io::Write;

use anyhow::{Result, bail};
use oddsmith_report::{CheckDoc, check_table};
use oddsmith_rules::{CheckParams, RULESET_IDS, Ruleset, RulesetVisitor, visit};
use oddsmith_sim::{RunConfig, run_check};

use oddsmith_scenario::messages::{humanize, unknown_name};

use crate::config::CheckSettings;
use crate::error::InputError;

/// Runs the check and prints its table or JSON.
pub(crate) fn check(c: CheckSettings, out: &mut dyn Write) -> Result<()> {
    if !RULESET_IDS.contains(&c.ruleset.as_str()) {
        bail!(InputError(unknown_name(
            "ruleset",
            &c.ruleset,
            RULESET_IDS.iter().copied()
        )));
    }
    let job = RunCheck {
        params: &c.params,
        options: &c.options,
        cfg: &c.cfg,
    };
    let doc = c
        .threads
        .install(|| visit(&c.ruleset, job).expect("id checked"))?;
    if c.json {
        writeln!(out, "{}", oddsmith_report::format::json_pretty(&doc)?)?;
    } else {
        write!(out, "{}", check_table(&doc))?;
    }
    Ok(())
}

struct RunCheck<'a> {
    params: &'a [String],
    options: &'a [String],
    cfg: &'a RunConfig,
}

/// The ruleset's options from `--set key=value` (the names of a scenario's `[options]`, dotted
/// for nested ones), over the defaults. A value that is not a TOML value is taken as text, so
/// `--set damage_term=impact` needs no quotes.
pub(crate) fn options_from_sets<R: Ruleset>(sets: &[String]) -> Result<R::Options, InputError> {
    let mut text = String::new();
    for s in sets {
        let Some((k, v)) = s.split_once('=') else {
            return Err(InputError(format!(
                "--set {s}: expected key=value, e.g. --set full_dodge_bonus=2"
            )));
        };
        let (k, v) = (k.trim(), v.trim());
        let value = if toml::from_str::<toml::Table>(&format!("x = {v}")).is_ok() {
            v.to_string()
        } else {
            format!("{v:?}")
        };
        text += &format!("{k} = {value}\n");
    }
    toml::from_str::<R::Options>(&text).map_err(|e| {
        InputError(format!(
            "--set: {} (see `oddsmith rulesets {}` for the options)",
            humanize(e.message().lines().next().unwrap_or("")),
            R::ID
        ))
    })
}

impl RulesetVisitor for RunCheck<'_> {
    type Output = Result<CheckDoc>;
    fn visit<R: Ruleset>(self) -> Result<CheckDoc> {
        let rules = R::new(options_from_sets::<R>(self.options)?)
            .map_err(|e| InputError(format!("--set: {e}")))?;
        let params = CheckParams::parse(self.params.iter().map(String::as_str))
            .map_err(|e| InputError(humanize(&e.to_string())))?;
        let check = rules
            .parse_check(&params)
            .map_err(|e| InputError(humanize(&e.to_string())))?;
        let exact = rules.check_exact(&check);
        let stats = run_check(&rules, &check, exact.distribution.min(), self.cfg, &|_| {})?;
        Ok(CheckDoc::new(R::ID, &exact, &stats))
    }
}
