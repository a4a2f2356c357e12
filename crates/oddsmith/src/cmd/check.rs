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
    cfg: &'a RunConfig,
}

impl RulesetVisitor for RunCheck<'_> {
    type Output = Result<CheckDoc>;
    fn visit<R: Ruleset>(self) -> Result<CheckDoc> {
        let rules = R::new(R::Options::default())?;
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
