//! Ruleset comparison: the same archetypes written in each ruleset's terms, compared pair by
//! pair — P(A wins), fight length (two-sample Kolmogorov–Smirnov), lethality, the effect of
//! one skill step, and checks cell by cell. Every difference carries its 95 % interval and a
//! test; a verdict is given only where the difference is significant at `alpha` *and* at
//! least the practical threshold. Where both rulesets have exact values the difference is
//! exact (no test needed) and judged against the threshold alone.
//!
//! Two variants of one ruleset (a house rule against the book) share their fighters, so
//! their matchups are run together on common random numbers ([`paired_matchups`]) and
//! P(A wins) is compared with the paired interval and test (Newcombe, McNemar), under the
//! same verdict rule.

use oddsmith_rules::{Ending, ExactDuel, Ruleset};
use oddsmith_scenario::compare::skill_step_origin;
use oddsmith_scenario::messages::unknown_name;
use oddsmith_scenario::{Num, Scenario, SkillStep, Target, variant};
use oddsmith_sim::{Concordance, DuelStats, RunConfig, run_paired};
use oddsmith_stats::verdict::{self, Difference, McCheck, Rule, Side, Verdict};
use oddsmith_stats::{
    DiffEstimate, KsTest, diff_independent, diff_paired, ks_two_sample, two_sided_p,
};
use serde::Serialize;

use crate::{CheckStudyDoc, Est, StudyError};

/// One ruleset's measured part, the input of [`compare`].
#[derive(Clone, Debug)]
pub struct PartResult {
    /// Ruleset id.
    pub id: String,
    /// Matchups: name, Monte Carlo accumulators, exact solution where known.
    pub matchups: Vec<(String, DuelStats, Option<ExactDuel>)>,
    /// The measured skill step, if the part asks for one.
    pub step: Option<StepEffect>,
    /// The part's `[[check]]` results.
    pub checks: Vec<CheckStudyDoc>,
}

/// One matchup of two variants of a ruleset, run together on common random numbers.
#[derive(Clone, Debug)]
pub struct PairedMatchup {
    /// The two parts' names, in file order.
    pub parts: [String; 2],
    /// The matchup's name (the same in both).
    pub matchup: String,
    /// Each variant's accumulators from the paired run.
    pub stats: [DuelStats; 2],
    /// Each variant's exact solution, where known.
    pub exact: [Option<ExactDuel>; 2],
    /// How the two variants' "A wins" agree trial by trial.
    pub concordance: Concordance,
}

/// Runs every matchup the two variants `a` and `b` (parts named `names`) both have, each on
/// common random numbers (trial *t* of both variants from the same seed), with the exact
/// solutions when `exact`.
pub fn paired_matchups<R: Ruleset>(
    names: [&str; 2],
    a: &Scenario<R>,
    b: &Scenario<R>,
    cfg: &RunConfig,
    exact: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<PairedMatchup>, StudyError> {
    let mut out = Vec::new();
    for m in &a.matchups {
        let Some(n) = b.matchups.iter().find(|n| n.name == m.name) else {
            continue;
        };
        let st = run_paired(
            &[(&a.ruleset, &m.matchup), (&b.ruleset, &n.matchup)],
            cfg,
            progress,
        )?;
        let solve = |r: &R, x: &R::Matchup| if exact { r.exact(x) } else { None };
        let [s0, s1]: [DuelStats; 2] = st
            .variants
            .try_into()
            .expect("two variants give two results");
        out.push(PairedMatchup {
            parts: names.map(str::to_string),
            matchup: m.name.clone(),
            stats: [s0, s1],
            exact: [solve(&a.ruleset, &m.matchup), solve(&b.ruleset, &n.matchup)],
            concordance: st.adjacent[0],
        });
    }
    Ok(out)
}

/// The effect of one skill step in one ruleset, on common random numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepEffect {
    /// Ruleset id.
    pub ruleset: String,
    /// What was raised ("veteran.skill 6 → 7 in veteran vs novice").
    pub label: String,
    /// P(A wins) before the step.
    pub before: Est,
    /// P(A wins) after the step.
    pub after: Est,
    /// after − before, paired (Newcombe interval, McNemar test).
    pub diff: DiffEstimate,
    /// Exact after − before, where the ruleset solves both duels.
    pub exact_diff: Option<f64>,
}

/// A difference between two rulesets' values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Compared {
    /// The value under each ruleset of the pair.
    pub values: [f64; 2],
    /// values[0] − values[1].
    pub diff: f64,
    /// 95 % interval of the difference (equal to `diff` when exact).
    pub lo: f64,
    /// 95 % interval, high end.
    pub hi: f64,
    /// Two-sided p-value of "no difference" (0 or 1 when exact).
    pub p_value: f64,
    /// Whether both values are exact.
    pub exact: bool,
    /// Whether the difference earns a verdict: significant (or exact and non-zero) and at
    /// least the practical threshold (`verdict` names a favoured side).
    pub decisive: bool,
    /// The difference judged (not in the JSON, which carries `decisive` and the verdict
    /// sentences).
    #[serde(skip)]
    pub verdict: Verdict,
    /// When the exact difference speaks and a Monte Carlo one was measured too: that
    /// estimate and its distance from the exact difference in standard errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monte_carlo_check: Option<McCheck>,
}

impl Compared {
    fn exact(a: f64, b: f64, threshold: f64) -> Compared {
        let d = Difference::exact(a, b);
        // Alpha plays no part in judging an exact difference.
        let verdict = Rule {
            alpha: 0.05,
            threshold,
        }
        .judge(d);
        Compared {
            values: [a, b],
            diff: d.diff,
            lo: d.lo,
            hi: d.hi,
            p_value: if d.significant(0.05) { 0.0 } else { 1.0 },
            exact: true,
            decisive: verdict.is_decisive(),
            verdict,
            monte_carlo_check: None,
        }
    }
    /// A measured difference `d` (of the Monte Carlo `values`) with the exact values of both
    /// sides where known: the figure that speaks is chosen by [`verdict::speaks`] (exact only
    /// when both sides are exact), and the Monte Carlo difference is then kept as its check.
    fn measured(
        values: [f64; 2],
        d: &DiffEstimate,
        exact: [Option<f64>; 2],
        alpha: f64,
        threshold: f64,
    ) -> Compared {
        let spoken = verdict::speaks(
            Difference::tested(d),
            verdict::exact_difference(exact[0], exact[1]),
        );
        if let (true, [Some(a), Some(b)]) = (spoken.is_exact(), exact) {
            return Compared {
                monte_carlo_check: spoken.check,
                ..Compared::exact(a, b, threshold)
            };
        }
        let verdict = Rule { alpha, threshold }.judge(spoken.figure);
        Compared {
            values,
            diff: d.diff,
            lo: d.lo,
            hi: d.hi,
            p_value: d.p_value,
            exact: false,
            decisive: verdict.is_decisive(),
            verdict,
            monte_carlo_check: None,
        }
    }
    /// The favoured ruleset of `pair`, for a decisive difference.
    fn favoured<'a>(&self, pair: &'a [String; 2]) -> Option<(&'a String, &'a String)> {
        self.verdict.favours().map(|side| match side {
            Side::First => (&pair[0], &pair[1]),
            Side::Second => (&pair[1], &pair[0]),
        })
    }
    /// Two proportions, exact when both exact values are given.
    fn proportions(
        (x1, n1, e1): (u64, u64, Option<f64>),
        (x2, n2, e2): (u64, u64, Option<f64>),
        alpha: f64,
        threshold: f64,
    ) -> Compared {
        let d = diff_independent(x1, n1, x2, n2).expect("runs have trials");
        Compared::measured(
            [x1 as f64 / n1 as f64, x2 as f64 / n2 as f64],
            &d,
            [e1, e2],
            alpha,
            threshold,
        )
    }
}

/// One archetype compared between two rulesets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArchetypeDoc {
    /// Matchup name (the same in both parts).
    pub archetype: String,
    /// The pair of rulesets.
    pub rulesets: [String; 2],
    /// P(A wins).
    pub p_a_win: Compared,
    /// Mean fight length in rounds under each ruleset (Monte Carlo).
    pub rounds_mean: [f64; 2],
    /// Two-sample KS test of the fight-length distributions.
    pub rounds_ks: KsTest,
    /// Whether the fight lengths differ decisively (p < alpha, D ≥ threshold, and the means at
    /// least [`ROUNDS_PRACTICAL`] apart).
    pub rounds_decisive: bool,
    /// Lethality: share of fights that end with the loser dead.
    pub lethality: Compared,
    /// Whether both sides ran on common random numbers (two variants of one ruleset):
    /// P(A wins) then has the paired interval and test; fight length and lethality keep the
    /// independent-sample tests, which are conservative on paired samples.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub paired: bool,
}

/// How balanced two parts are overall: each part's balance index (the mean distance of
/// P(A wins) from 50 % over the matchups both have) and the difference between them, with its
/// own interval and the verdict rule of everything else.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BalanceIndexDoc {
    /// The pair of parts.
    pub rulesets: [String; 2],
    /// How many matchups the index averages over (those both parts have).
    pub matchups: usize,
    /// The index under each part (`values`) and first − second: a negative difference means
    /// the first part is closer to even. Exact when every matchup is solved under both;
    /// else a delta-method interval (paired on common random numbers when the parts ran
    /// together, the matchups taken as independent runs).
    pub index: Compared,
    /// The worst matchup under each part: its name and distance from 50 %.
    pub worst: [(String, f64); 2],
    /// Whether the matchups ran on common random numbers.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub paired: bool,
}

/// The skill-step effects of two rulesets compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepCompareDoc {
    /// The pair of rulesets.
    pub rulesets: [String; 2],
    /// Effect of one step under each (values) and their difference (z-test on two
    /// independent paired estimates; exact when both are exact).
    pub effect: Compared,
}

/// One cell of a check compared between two rulesets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckCellCompare {
    /// Row label (same position in both grids), e.g. "skill 4 / skill 4".
    pub row: Option<String>,
    /// Column label.
    pub col: Option<String>,
    /// Exact P(success) under each ruleset.
    pub p: Compared,
    /// How much the step from the previous row moved P(success) under each ruleset, and the
    /// difference (exact).
    pub step: Option<Compared>,
}

/// A `[[check]]` with the same name in two rulesets, compared cell by cell (exact).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckCompareDoc {
    /// Check name.
    pub check: String,
    /// The pair of rulesets.
    pub rulesets: [String; 2],
    /// Cells, row-major; grids are matched by position.
    pub cells: Vec<CheckCellCompare>,
}

/// The result of a comparison file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComparisonDoc {
    /// Rulesets, in file order.
    pub rulesets: Vec<String>,
    /// Significance level.
    pub alpha: f64,
    /// Smallest difference worth a verdict.
    pub practical_threshold: f64,
    /// Skill-step effects, one per ruleset that asks for one.
    pub steps: Vec<StepEffect>,
    /// Overall balance of each pair of parts (mean distance of P(A wins) from 50 %).
    pub balance: Vec<BalanceIndexDoc>,
    /// Archetypes, every pair of rulesets.
    pub archetypes: Vec<ArchetypeDoc>,
    /// Skill-step effects compared, every pair of rulesets.
    pub step_comparisons: Vec<StepCompareDoc>,
    /// Checks compared, every pair of rulesets.
    pub checks: Vec<CheckCompareDoc>,
    /// Matchups and checks found in only one ruleset (not compared).
    pub unmatched: Vec<String>,
    /// Plain-language verdicts (only decisive differences).
    pub verdicts: Vec<String>,
}

fn get_number(v: &serde_json::Value, path: &str) -> Option<f64> {
    let mut node = v;
    for k in path.split('.') {
        node = node.get(k)?;
    }
    node.as_f64()
}

/// A skill step checked against its part: the matchup's index, the field's value before and
/// after, and the part's scenario with the field raised.
struct StepPlan<R: Ruleset> {
    matchup: usize,
    /// `fighter.field from → to in matchup`.
    label: String,
    after: Scenario<R>,
}

/// Checks `step` against the part `s` (matchup, fighter and field exist, the field is a
/// number, the raised value loads) without running anything: the one check `validate` and
/// `run` share. Errors are placed at the skill step's own keys (`skill_step.fighter`, …).
fn plan_skill_step<R: Ruleset>(
    file: &str,
    text: &str,
    s: &Scenario<R>,
    step: &SkillStep,
) -> Result<StepPlan<R>, StudyError> {
    let err = |key: &str, m: String| {
        StudyError::Scenario(oddsmith_scenario::ScenarioError {
            file: file.into(),
            line: 0,
            column: 0,
            field: format!("skill_step.{key}"),
            message: m,
            also: Vec::new(),
        })
    };
    let matchup = s
        .matchups
        .iter()
        .position(|m| m.name == step.matchup)
        .ok_or_else(|| {
            let names = s.matchups.iter().map(|m| m.name.as_str());
            err("matchup", unknown_name("matchup", &step.matchup, names))
        })?;
    let Target::Fighter { fighter, field } = &step.target else {
        return Err(err("field", "a skill step raises a fighter's field".into()));
    };
    let spec = s.fighters.get(fighter).ok_or_else(|| {
        let names = s.fighters.keys().map(String::as_str);
        err("fighter", unknown_name("fighter", fighter, names))
    })?;
    let json = serde_json::to_value(spec).map_err(|e| err("fighter", e.to_string()))?;
    let base = get_number(&json, field).ok_or_else(|| {
        err(
            "field",
            format!("{fighter}.{field} is not a number the fighter has; a skill step raises a numeric field (e.g. \"skill\")"),
        )
    })?;
    let (from, to) = match step.by {
        Num::Int(b) if base.fract() == 0.0 => (Num::Int(base as i64), Num::Int(base as i64 + b)),
        by => (Num::Real(base), Num::Real(base + by.as_f64())),
    };
    let after = variant::<R>(
        file,
        text,
        &[(&step.target, to.into(), &skill_step_origin())],
    )?;
    Ok(StepPlan {
        matchup,
        label: format!("{fighter}.{field} {from} → {to} in {}", step.matchup),
        after,
    })
}

/// Checks `step` against the part `s` without running it (see [`skill_step`]).
pub fn validate_skill_step<R: Ruleset>(
    file: &str,
    text: &str,
    s: &Scenario<R>,
    step: &SkillStep,
) -> Result<(), StudyError> {
    plan_skill_step(file, text, s, step).map(|_| ())
}

/// Measures `step` in a part: P(A wins) of its matchup before and after raising the field,
/// both on the same per-trial random numbers.
pub fn skill_step<R: Ruleset>(
    file: &str,
    text: &str,
    s: &Scenario<R>,
    step: &SkillStep,
    cfg: &RunConfig,
    exact: bool,
) -> Result<StepEffect, StudyError> {
    let StepPlan {
        matchup: mi,
        label,
        after,
    } = plan_skill_step(file, text, s, step)?;
    let m0 = &s.matchups[mi].matchup;
    let m1 = &after.matchups[mi].matchup;
    let st = run_paired(&[(&s.ruleset, m0), (&after.ruleset, m1)], cfg, &|_| {})?;
    let c = &st.adjacent[0];
    let diff = diff_paired(c.both, c.second_only, c.first_only, c.neither).expect("trials");
    let est = |k: usize| {
        let o = &st.variants[k].outcomes;
        Est::new(o.a_wins, o.total())
    };
    let exact_diff = if exact {
        match (s.ruleset.exact(m0), after.ruleset.exact(m1)) {
            (Some(a), Some(b)) => Some(b.p_a_win - a.p_a_win),
            _ => None,
        }
    } else {
        None
    };
    Ok(StepEffect {
        ruleset: R::ID.into(),
        label,
        before: est(0),
        after: est(1),
        diff,
        exact_diff,
    })
}

fn pct(p: f64) -> String {
    format!("{:.1} %", 100.0 * p)
}

fn pts(d: f64) -> String {
    format!("{:.1} points", 100.0 * d.abs())
}

fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".into()
    } else {
        format!("p = {p:.3}")
    }
}

fn evidence(c: &Compared) -> String {
    if let Some(m) = &c.monte_carlo_check {
        format!(
            "exact; Monte Carlo {:+.1} points, {:+.1} standard errors from exact",
            100.0 * m.monte_carlo.diff,
            if m.z.abs() < 0.05 { 0.0 } else { m.z }
        )
    } else if c.exact {
        "exact".into()
    } else {
        p_text(c.p_value)
    }
}

/// Compares every pair of parts; `paired` holds the matchups of variants of one ruleset run
/// on common random numbers ([`paired_matchups`]), used in place of the parts' independent
/// runs for those pairs.
pub fn compare(
    parts: &[PartResult],
    paired: &[PairedMatchup],
    alpha: f64,
    threshold: f64,
) -> ComparisonDoc {
    let mut doc = ComparisonDoc {
        rulesets: parts.iter().map(|p| p.id.clone()).collect(),
        alpha,
        practical_threshold: threshold,
        steps: parts.iter().filter_map(|p| p.step.clone()).collect(),
        balance: Vec::new(),
        archetypes: Vec::new(),
        step_comparisons: Vec::new(),
        checks: Vec::new(),
        unmatched: Vec::new(),
        verdicts: Vec::new(),
    };
    for p in parts {
        for (name, _, _) in &p.matchups {
            if !parts
                .iter()
                .any(|q| q.id != p.id && q.matchups.iter().any(|m| &m.0 == name))
            {
                doc.unmatched
                    .push(format!("matchup {name:?} is only in {}", p.id));
            }
        }
        for c in &p.checks {
            if !parts
                .iter()
                .any(|q| q.id != p.id && q.checks.iter().any(|d| d.name == c.name))
            {
                doc.unmatched
                    .push(format!("check {:?} is only in {}", c.name, p.id));
            }
        }
    }
    for i in 0..parts.len() {
        for j in i + 1..parts.len() {
            let (p, q) = (&parts[i], &parts[j]);
            let pair = [p.id.clone(), q.id.clone()];
            if let Some(b) = balance_index(p, q, paired, alpha, threshold) {
                if let Some((closer, other)) = b.index.favoured(&pair).map(|(x, y)| (y, x)) {
                    let (c, o) = if closer == &pair[0] { (0, 1) } else { (1, 0) };
                    let how = if b.paired && !b.index.exact {
                        "paired on common random numbers, "
                    } else {
                        ""
                    };
                    // First among the verdicts: the overall answer.
                    doc.verdicts.insert(
                        0,
                        format!(
                            "Overall balance: {closer} is closer to even than {other}: over {} matchups P(A wins) is {} from 50 % on average against {} (difference {} [{} {}], {how}{}); worst matchup under {closer}: {} ({}); under {other}: {} ({})",
                            b.matchups,
                            pts(b.index.values[c]),
                            pts(b.index.values[o]),
                            pts(b.index.diff),
                            signed_pts(b.index.lo),
                            signed_pts(b.index.hi),
                            evidence(&b.index),
                            b.worst[c].0,
                            pts(b.worst[c].1),
                            b.worst[o].0,
                            pts(b.worst[o].1),
                        ),
                    );
                }
                doc.balance.push(b);
            }
            for (name, s1, e1) in &p.matchups {
                let Some((_, s2, e2)) = q.matchups.iter().find(|m| &m.0 == name) else {
                    continue;
                };
                let on_crn = paired
                    .iter()
                    .find(|x| x.parts == pair && &x.matchup == name);
                let a = match on_crn {
                    Some(x) => archetype_paired(name, x, alpha, threshold),
                    None => archetype(
                        name,
                        &pair,
                        (s1, e1.as_ref()),
                        (s2, e2.as_ref()),
                        alpha,
                        threshold,
                    ),
                };
                if let Some((hi, lo)) = a.p_a_win.favoured(&pair) {
                    let how = if a.paired && !a.p_a_win.exact {
                        "paired on common random numbers, "
                    } else {
                        ""
                    };
                    doc.verdicts.push(format!(
                        "{name}: side A wins {} more often under {hi} than under {lo} ({} vs {}, {how}{})",
                        pts(a.p_a_win.diff),
                        pct(a.p_a_win.values[0].max(a.p_a_win.values[1])),
                        pct(a.p_a_win.values[0].min(a.p_a_win.values[1])),
                        evidence(&a.p_a_win)
                    ));
                }
                if a.rounds_decisive {
                    let longer = if a.rounds_mean[0] > a.rounds_mean[1] {
                        &pair[0]
                    } else {
                        &pair[1]
                    };
                    doc.verdicts.push(format!(
                        "{name}: fights last longer under {longer} (mean {:.2} vs {:.2} rounds; KS D = {:.3}, {})",
                        a.rounds_mean[0].max(a.rounds_mean[1]),
                        a.rounds_mean[0].min(a.rounds_mean[1]),
                        a.rounds_ks.d,
                        p_text(a.rounds_ks.p_value)
                    ));
                }
                if let Some((more, _)) = a.lethality.favoured(&pair) {
                    doc.verdicts.push(format!(
                        "{name}: fights are more lethal under {more} ({} vs {} end in a death, {})",
                        pct(a.lethality.values[0].max(a.lethality.values[1])),
                        pct(a.lethality.values[0].min(a.lethality.values[1])),
                        evidence(&a.lethality)
                    ));
                }
                doc.archetypes.push(a);
            }
            if let (Some(a), Some(b)) = (&p.step, &q.step) {
                let effect = {
                    let se = |d: &DiffEstimate| (d.hi - d.lo) / (2.0 * 1.959_963_984_540_054);
                    let (sa, sb) = (se(&a.diff), se(&b.diff));
                    let s = (sa * sa + sb * sb).sqrt();
                    let diff = a.diff.diff - b.diff.diff;
                    let z = if s > 0.0 { diff / s } else { 0.0 };
                    let p_value = if s > 0.0 { two_sided_p(z) } else { 1.0 };
                    let d = DiffEstimate {
                        diff,
                        lo: diff - 1.959_963_984_540_054 * s,
                        hi: diff + 1.959_963_984_540_054 * s,
                        z,
                        p_value,
                    };
                    Compared::measured(
                        [a.diff.diff, b.diff.diff],
                        &d,
                        [a.exact_diff, b.exact_diff],
                        alpha,
                        threshold,
                    )
                };
                if effect.decisive {
                    // Compare magnitudes: raising side B gives negative effects on P(A wins).
                    let (m0, m1) = (effect.values[0].abs(), effect.values[1].abs());
                    let (more, big, small) = if m0 > m1 {
                        (&pair[0], m0, m1)
                    } else {
                        (&pair[1], m1, m0)
                    };
                    let signs = if effect.values[0] * effect.values[1] < 0.0 {
                        " (the two effects go in opposite directions)"
                    } else {
                        ""
                    };
                    doc.verdicts.push(format!(
                        "one skill step matters more under {more}: it moves P(A wins) by {} vs {}{signs} ({})",
                        pts(big),
                        pts(small),
                        evidence(&effect)
                    ));
                }
                doc.step_comparisons.push(StepCompareDoc {
                    rulesets: pair.clone(),
                    effect,
                });
            }
            for c1 in &p.checks {
                let Some(c2) = q.checks.iter().find(|c| c.name == c1.name) else {
                    continue;
                };
                let shape = |c: &CheckStudyDoc| (c.cells.len() / c.columns.max(1), c.columns);
                if shape(c1) != shape(c2) {
                    let ((r1, k1), (r2, k2)) = (shape(c1), shape(c2));
                    doc.unmatched.push(format!(
                        "check {:?}: {} has a {r1}×{k1} grid and {} a {r2}×{k2} grid; only the common {}×{} corner is compared",
                        c1.name,
                        pair[0],
                        pair[1],
                        r1.min(r2),
                        k1.min(k2)
                    ));
                }
                let c = check_compare(c1, c2, &pair, threshold);
                let decisive = c.cells.iter().filter(|x| x.p.decisive).count();
                let biggest = c
                    .cells
                    .iter()
                    .max_by(|a, b| a.p.diff.abs().total_cmp(&b.p.diff.abs()));
                // The largest gap is decisive whenever any cell is.
                if let Some((biggest, (more, _))) =
                    biggest.and_then(|b| b.p.favoured(&pair).map(|f| (b, f)))
                {
                    doc.verdicts.push(format!(
                        "check {:?}: {decisive} of {} cells differ by at least {}; the largest gap is {} in favour of {more}{} (exact)",
                        c.check,
                        c.cells.len(),
                        pts(threshold),
                        pts(biggest.p.diff),
                        cell_label(biggest),
                    ));
                }
                doc.checks.push(c);
            }
        }
    }
    doc
}

/// The smallest relative change of mean fight length worth a verdict (5 %): with a million
/// trials a KS test finds 3.77 against 3.75 rounds "significant", which no table would notice.
/// A presentation threshold, not a rule (not in any seed).
pub const ROUNDS_PRACTICAL: f64 = 0.05;

/// Whether two mean fight lengths differ by at least [`ROUNDS_PRACTICAL`] of the shorter.
fn practical_rounds(a: f64, b: f64) -> bool {
    let short = a.min(b);
    short > 0.0 && (a - b).abs() / short >= ROUNDS_PRACTICAL
}

fn signed_pts(d: f64) -> String {
    format!("{:+.1}", 100.0 * d)
}

/// The balance index of parts `p` and `q` over the matchups both have (see
/// [`BalanceIndexDoc`]); `None` when they share none.
///
/// Each part's index is `B = (1/M) Σ |p_m − ½|`. Its difference `D = B_p − B_q` has, by the
/// delta method, `Var D = (1/M²) Σ_m [Var p_m + Var q_m − 2 s_m t_m Cov(p_m, q_m)]` with
/// `s_m`, `t_m` the signs of `p_m − ½`, `q_m − ½`, and on common random numbers
/// `Cov = (n₁₁/N − p q)/N` from the trial-by-trial concordance (0 for independent runs).
/// The matchups are taken as independent of each other. Near 50 % the absolute value is not
/// smooth and the interval is only approximate.
pub fn balance_index(
    p: &PartResult,
    q: &PartResult,
    paired: &[PairedMatchup],
    alpha: f64,
    threshold: f64,
) -> Option<BalanceIndexDoc> {
    let pair = [p.id.clone(), q.id.clone()];
    struct Row {
        name: String,
        mc: [f64; 2],
        exact: [Option<f64>; 2],
        var: f64,
        paired: bool,
    }
    let mut rows = Vec::new();
    for (name, s1, e1) in &p.matchups {
        let Some((_, s2, e2)) = q.matchups.iter().find(|m| &m.0 == name) else {
            continue;
        };
        let on_crn = paired
            .iter()
            .find(|x| x.parts == pair && &x.matchup == name);
        let (o1, o2) = (&s1.outcomes, &s2.outcomes);
        let (mut n1, mut n2) = (o1.total() as f64, o2.total() as f64);
        let (mut x1, mut x2) = (o1.a_wins as f64 / n1, o2.a_wins as f64 / n2);
        let mut cov = 0.0;
        if let Some(x) = on_crn {
            let [a, b] = &x.stats;
            let c = &x.concordance;
            let n = (c.both + c.first_only + c.second_only + c.neither) as f64;
            x1 = a.outcomes.a_wins as f64 / a.outcomes.total() as f64;
            x2 = b.outcomes.a_wins as f64 / b.outcomes.total() as f64;
            if n > 0.0 {
                cov = (c.both as f64 / n - x1 * x2) / n;
            }
            (n1, n2) = (a.outcomes.total() as f64, b.outcomes.total() as f64);
        }
        let sign = |x: f64| {
            if x > 0.5 {
                1.0
            } else if x < 0.5 {
                -1.0
            } else {
                0.0
            }
        };
        let var = x1 * (1.0 - x1) / n1 + x2 * (1.0 - x2) / n2 - 2.0 * sign(x1) * sign(x2) * cov;
        rows.push(Row {
            name: name.clone(),
            mc: [x1, x2],
            exact: [
                e1.as_ref().map(|e| e.p_a_win),
                e2.as_ref().map(|e| e.p_a_win),
            ],
            var: var.max(0.0),
            paired: on_crn.is_some(),
        });
    }
    if rows.is_empty() {
        return None;
    }
    let m = rows.len() as f64;
    let dist = |x: f64| (x - 0.5).abs();
    let index = |k: usize| rows.iter().map(|r| dist(r.mc[k])).sum::<f64>() / m;
    let exact_index = |k: usize| -> Option<f64> {
        rows.iter()
            .map(|r| r.exact[k].map(dist))
            .sum::<Option<f64>>()
            .map(|s| s / m)
    };
    let values = [index(0), index(1)];
    let diff = values[0] - values[1];
    let se = rows.iter().map(|r| r.var).sum::<f64>().sqrt() / m;
    const Z95: f64 = 1.959_963_984_540_054;
    let z = if se > 0.0 { diff / se } else { 0.0 };
    let d = DiffEstimate {
        diff,
        lo: diff - Z95 * se,
        hi: diff + Z95 * se,
        z,
        p_value: if se > 0.0 { two_sided_p(z) } else { 1.0 },
    };
    let index_doc = Compared::measured(
        values,
        &d,
        [exact_index(0), exact_index(1)],
        alpha,
        threshold,
    );
    // The worst matchup by the figure that speaks (exact where the part is solved).
    let worst = |k: usize| {
        let exact = exact_index(k).is_some();
        rows.iter()
            .map(|r| {
                let x = if exact {
                    r.exact[k].unwrap_or(r.mc[k])
                } else {
                    r.mc[k]
                };
                (r.name.clone(), dist(x))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .expect("at least one matchup")
    };
    Some(BalanceIndexDoc {
        rulesets: pair,
        matchups: rows.len(),
        index: index_doc,
        worst: [worst(0), worst(1)],
        paired: rows.iter().all(|r| r.paired),
    })
}

fn cell_label(c: &CheckCellCompare) -> String {
    match (&c.row, &c.col) {
        (None, None) => String::new(),
        (Some(r), None) => format!(" at {r}"),
        (None, Some(k)) => format!(" at {k}"),
        (Some(r), Some(k)) => format!(" at {r}, {k}"),
    }
}

fn archetype(
    name: &str,
    pair: &[String; 2],
    (s1, e1): (&DuelStats, Option<&ExactDuel>),
    (s2, e2): (&DuelStats, Option<&ExactDuel>),
    alpha: f64,
    threshold: f64,
) -> ArchetypeDoc {
    let (o1, o2) = (&s1.outcomes, &s2.outcomes);
    let p_a_win = Compared::proportions(
        (o1.a_wins, o1.total(), e1.map(|e| e.p_a_win)),
        (o2.a_wins, o2.total(), e2.map(|e| e.p_a_win)),
        alpha,
        threshold,
    );
    let rounds_ks = ks_two_sample(&s1.rounds, &s2.rounds).expect("runs have trials");
    let death = Ending::Death as usize;
    let lethality = Compared::proportions(
        (s1.endings[death], o1.total(), None),
        (s2.endings[death], o2.total(), None),
        alpha,
        threshold,
    );
    ArchetypeDoc {
        archetype: name.into(),
        rulesets: pair.clone(),
        p_a_win,
        rounds_mean: [s1.rounds.mean(), s2.rounds.mean()],
        rounds_decisive: rounds_ks.p_value < alpha
            && rounds_ks.d >= threshold
            && practical_rounds(s1.rounds.mean(), s2.rounds.mean()),
        rounds_ks,
        lethality,
        paired: false,
    }
}

/// An archetype of two variants run on common random numbers: P(A wins) with the paired
/// interval and McNemar's test (exact where both variants are solved); fight length and
/// lethality as for independent samples.
fn archetype_paired(name: &str, x: &PairedMatchup, alpha: f64, threshold: f64) -> ArchetypeDoc {
    let [s1, s2] = &x.stats;
    let mut a = archetype(
        name,
        &x.parts,
        (s1, x.exact[0].as_ref()),
        (s2, x.exact[1].as_ref()),
        alpha,
        threshold,
    );
    let c = &x.concordance;
    // First − second: n10 = A won under the first variant only.
    let d = diff_paired(c.both, c.first_only, c.second_only, c.neither).expect("runs have trials");
    let (o1, o2) = (&s1.outcomes, &s2.outcomes);
    let values = [
        o1.a_wins as f64 / o1.total() as f64,
        o2.a_wins as f64 / o2.total() as f64,
    ];
    // The paired difference speaks unless both variants are solved (the exact difference
    // then speaks, with the paired estimate as its check).
    let exact = x.exact.each_ref().map(|e| e.as_ref().map(|e| e.p_a_win));
    a.p_a_win = Compared::measured(values, &d, exact, alpha, threshold);
    a.paired = true;
    a
}

fn check_compare(
    c1: &CheckStudyDoc,
    c2: &CheckStudyDoc,
    pair: &[String; 2],
    threshold: f64,
) -> CheckCompareDoc {
    let label = |p: &Option<String>,
                 q: &Option<String>,
                 v1: &Option<String>,
                 v2: &Option<String>| match (v1, v2) {
        (None, None) => None,
        _ => {
            let one = |p: &Option<String>, v: &Option<String>| match (p, v) {
                (Some(p), Some(v)) => format!("{p} {v}"),
                (_, Some(v)) => v.clone(),
                _ => "—".into(),
            };
            let (a, b) = (one(p, v1), one(q, v2));
            Some(if a == b { a } else { format!("{a} / {b}") })
        }
    };
    let (n1, n2) = (c1.columns.max(1), c2.columns.max(1));
    let mut cells = Vec::new();
    let rows = (c1.cells.len() / n1).min(c2.cells.len() / n2);
    let ncols = n1.min(n2);
    for r in 0..rows {
        for k in 0..ncols {
            let (x, y) = (&c1.cells[r * n1 + k], &c2.cells[r * n2 + k]);
            let step = (r > 0).then(|| {
                let (px, py) = (&c1.cells[(r - 1) * n1 + k], &c2.cells[(r - 1) * n2 + k]);
                Compared::exact(x.exact - px.exact, y.exact - py.exact, threshold)
            });
            cells.push(CheckCellCompare {
                row: label(&c1.row_param, &c2.row_param, &x.row, &y.row),
                col: label(&c1.col_param, &c2.col_param, &x.col, &y.col),
                p: Compared::exact(x.exact, y.exact, threshold),
                step,
            });
        }
    }
    CheckCompareDoc {
        check: c1.name.clone(),
        rulesets: pair.clone(),
        cells,
    }
}
