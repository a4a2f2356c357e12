//! Running a comparison file: every part with its own ruleset and seed, the matchups of
//! every two variants of one ruleset together on common random numbers, then the comparison
//! of the parts (archetypes, skill steps, checks).

use anyhow::Result;
use oddsmith_dice::seeds;
use oddsmith_report::{ReportData, RunDoc};
use oddsmith_rules::{Ruleset, RulesetVisitor, visit};
use oddsmith_scenario::{Comparison, Part, Warning, load, load_comparison};
use oddsmith_sim::RunConfig;
use oddsmith_study::{
    Ctx, PairedMatchup, PartResult, compare, paired_matchups, run_check_study, skill_step,
};

use super::matchups::{BaseRun, run_base};
use crate::cmd::validate::merge_warnings;
use crate::config::{FileSampling, RunSettings};
use crate::error::{ScenarioInput, relocate_err, study_input};

/// Runs the comparison file `text`, checked whole (every part, every skill step) by
/// [`check`](crate::cmd::validate::check) before any part runs.
pub(super) fn run_comparison(r: &RunSettings, text: &str) -> Result<ReportData> {
    let file = r.file.as_str();
    let c = load_comparison(file, text).map_err(ScenarioInput)?;
    let cfg = RunConfig {
        units: r.units.clone(),
        cancel: r.cancel.clone(),
        ..r.sampling.for_comparison(FileSampling {
            trials: c.trials,
            precision: None,
            seed: c.seed,
        })?
    };
    let mut results = Vec::new();
    let mut data = ReportData {
        run: RunDoc {
            scenario: c.name.clone(),
            ruleset: c
                .parts
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(" vs "),
            seed: cfg.seed,
            description: c.description.clone(),
            options: Vec::new(),
            matchups: Vec::new(),
            study: None,
            comparison: None,
            warnings: Vec::new(),
        },
        stats: Vec::new(),
        exact: Vec::new(),
        checks: None,
        fighters: Vec::new(),
        meta: super::meta(file),
        notes: Vec::new(),
    };
    let mut warnings: Vec<Vec<Warning>> = Vec::new();
    for (k, p) in c.parts.iter().enumerate() {
        // Each part on its own seed, so the rulesets' estimates are independent samples, as
        // the comparison's tests assume.
        let part_cfg = RunConfig {
            seed: seeds::part_seed(cfg.seed, k),
            ..cfg.clone()
        };
        let job = RunPart {
            file,
            part: p,
            cfg: &part_cfg,
            exact: r.exact,
        };
        let (part, base, found) = visit(&p.id, job)
            .expect("load_comparison checked the id")
            .map_err(|e| relocate_err(file, text, p, e))?;
        warnings.push(
            found
                .into_iter()
                .map(|w| Comparison::relocate_warning(file, text, p, w))
                .collect(),
        );
        data.run.options.extend(base.options);
        data.run.matchups.extend(base.matchups);
        data.stats.extend(base.stats);
        data.exact.extend(base.exact);
        data.fighters.extend(base.fighters);
        data.notes.extend(base.notes);
        results.push(part);
    }
    // Variants of one ruleset share their fighters: their matchups run together on common
    // random numbers (one seed for the pair), so the comparison sees the rule change, not noise.
    let mut paired: Vec<PairedMatchup> = Vec::new();
    for (i, p) in c.parts.iter().enumerate() {
        for q in c.parts[i + 1..].iter().filter(|q| q.id == p.id) {
            let job = RunPair {
                file,
                parts: [p, q],
                cfg: &cfg,
                exact: r.exact,
            };
            paired.extend(visit(&p.id, job).expect("load_comparison checked the id")?);
        }
    }
    data.run.warnings = merge_warnings(warnings);
    data.run.comparison = Some(compare(&results, &paired, c.alpha, c.practical_threshold));
    Ok(data)
}

/// Runs the common matchups of two variants of one ruleset on common random numbers.
struct RunPair<'a> {
    file: &'a str,
    parts: [&'a Part; 2],
    cfg: &'a RunConfig,
    exact: bool,
}

impl RulesetVisitor for RunPair<'_> {
    type Output = Result<Vec<PairedMatchup>>;
    fn visit<R: Ruleset>(self) -> Self::Output {
        let [p, q] = self.parts;
        // Both were loaded and checked by `validate::check` before any part ran.
        let a = load::<R>(self.file, &p.text).map_err(ScenarioInput)?;
        let b = load::<R>(self.file, &q.text).map_err(ScenarioInput)?;
        let label = format!("{} vs {} (paired)", p.name, q.name);
        let bar =
            crate::progress::Bar::new(&label, self.cfg.trials * a.matchups.len() as u64, false);
        let out = paired_matchups([&p.name, &q.name], &a, &b, self.cfg, self.exact, &|n| {
            bar.inc(n)
        })
        .map_err(study_input)?;
        bar.finish();
        Ok(out)
    }
}

/// Runs one part of a comparison: its matchups, its checks and its skill step.
struct RunPart<'a> {
    file: &'a str,
    part: &'a Part,
    cfg: &'a RunConfig,
    exact: bool,
}

impl RulesetVisitor for RunPart<'_> {
    type Output = Result<(PartResult, BaseRun, Vec<Warning>)>;
    fn visit<R: Ruleset>(self) -> Self::Output {
        let (file, text, cfg) = (self.file, self.part.text.as_str(), self.cfg);
        // Checked by `validate::check` before any part ran.
        let s = load::<R>(file, text).map_err(ScenarioInput)?;
        let name = &self.part.name;
        let base = run_base(&s, cfg, self.exact, &format!("{name}: "))?;
        let ctx = Ctx {
            file,
            text,
            scenario: &s,
            cfg,
            exact: self.exact,
        };
        let part = PartResult {
            id: name.clone(),
            matchups: s
                .matchups
                .iter()
                .zip(base.stats.iter().zip(&base.exact))
                .map(|(m, (st, ex))| (m.name.clone(), st.clone(), ex.clone()))
                .collect(),
            checks: (0..s.study.checks.len())
                .map(|i| run_check_study(&ctx, i).map_err(study_input))
                .collect::<Result<_>>()?,
            step: match &self.part.skill_step {
                Some(step) => {
                    let mut effect =
                        skill_step(file, text, &s, step, cfg, self.exact).map_err(study_input)?;
                    effect.ruleset.clone_from(name);
                    Some(effect)
                }
                None => None,
            },
        };
        Ok((part, base, s.warnings))
    }
}
