//! What a scenario and each part of a comparison both run and show: every matchup (Monte
//! Carlo, then the exact solution), and the options and fighters as the report lists them.
//! A comparison part's names carry its ruleset id as a prefix (`draft: knight vs brute`).

use anyhow::Result;
use oddsmith_report::format::thousands;
use oddsmith_report::{
    FighterData, FirstMoveDoc, MatchupDoc, OptionValue, PrecisionDoc, matchup_doc, options_table,
};
use oddsmith_rules::solver::{MAX_LIVE_STATES, MAX_WORK};
use oddsmith_rules::{ExactDuel, Ruleset};
use oddsmith_scenario::Scenario;
use oddsmith_sim::{DuelStats, RunConfig, SimError, run_duels};

use crate::progress;

/// A scenario's matchups run, with its options and fighters, in report form.
#[derive(Default)]
pub(super) struct BaseRun {
    /// The options table.
    pub options: Vec<OptionValue>,
    /// One per matchup, in file order.
    pub matchups: Vec<MatchupDoc>,
    /// One per matchup.
    pub stats: Vec<DuelStats>,
    /// One per matchup (`None` without an exact solution or with `--no-exact`).
    pub exact: Vec<Option<ExactDuel>>,
    /// Every fighter with its derived facts.
    pub fighters: Vec<FighterData>,
    /// Notes on the figures (no exact value where one was asked for, and why).
    pub notes: Vec<String>,
    /// The run's cancel flag stopped it: the matchups above are the ones that finished.
    pub stopped: bool,
}

/// Runs every matchup of `s` on `cfg` (and its exact solution when `exact`), naming
/// everything with `prefix` in front (empty for a scenario, `"{id}: "` for a comparison part).
pub(super) fn run_base<R: Ruleset>(
    s: &Scenario<R>,
    cfg: &RunConfig,
    exact: bool,
    prefix: &str,
) -> Result<BaseRun> {
    let label = |name: &str| format!("{prefix}{name}");
    let mut run = BaseRun {
        options: options_table(s.ruleset.options())
            .into_iter()
            .map(|mut o| {
                o.name = label(&o.name);
                o
            })
            .collect(),
        ..BaseRun::default()
    };
    for m in &s.matchups {
        let bar = progress::Bar::new(&label(&m.name), cfg.trials, cfg.precision.is_some());
        let stats = match run_duels(&s.ruleset, &m.matchup, cfg, &|n| bar.inc(n)) {
            Err(SimError::Cancelled) => {
                run.stopped = true;
                break;
            }
            r => r?,
        };
        bar.finish();
        let solution = if exact {
            s.ruleset.exact(&m.matchup)
        } else {
            None
        };
        if exact && solution.is_none() {
            let note = match s.ruleset.no_exact_reason() {
                Some(why) => {
                    format!("{prefix}no exact values: {why}; the figures are Monte Carlo only")
                }
                None => format!(
                    "{}: no exact value: the exact solver gave up (more than {} live states or {} steps); the figures are Monte Carlo only",
                    label(&m.name),
                    thousands(MAX_LIVE_STATES as u64),
                    thousands(MAX_WORK),
                ),
            };
            if !run.notes.contains(&note) {
                run.notes.push(note);
            }
        }
        let mut doc = matchup_doc(
            &label(&m.name),
            &label(&m.a),
            &label(&m.b),
            &stats,
            solution.as_ref(),
            s.ruleset.counter_names(),
        );
        doc.first_move = s
            .ruleset
            .first_move(&m.matchup, solution.is_some())
            .map(|f| FirstMoveDoc::of(&f, &stats));
        if doc.group.is_some() {
            // A group fight: the per-member exact figures where the duel itself solved.
            let gx = solution.as_ref().and_then(|_| {
                oddsmith_rules::group::exact(&s.ruleset, &m.matchup, &s.ruleset.roster(&m.matchup))
            });
            doc.group = oddsmith_report::group_doc(&stats, gx.as_ref(), &label(&m.a), &label(&m.b));
        }
        doc.precision = cfg
            .precision
            .map(|h| PrecisionDoc::of(h, stats.outcomes.a_wins, stats.trials()));
        run.matchups.push(doc);
        run.stats.push(stats);
        run.exact.push(solution);
    }
    for (n, f) in &s.fighters {
        run.fighters.push(FighterData {
            name: label(n),
            spec: serde_json::to_value(f)?,
            facts: s.ruleset.fighter_facts(f),
        });
    }
    Ok(run)
}
