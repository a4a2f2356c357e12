//! Readings study (issue 36): what an answer depends on. Every matchup runs once per
//! alternative reading and at the low and high ends of every invented number its file uses,
//! one factor at a time, paired with the baseline on common random numbers, with the exact
//! solver wherever it answers.
//!
//! The factors come from the ruleset's declarations ([`oddsmith_rules::Mark`], listed by
//! `oddsmith rulesets ID`): a marked option is a factor of every matchup; a marked fighter
//! field is a factor where some fighter leaves it to its default (its value is then written
//! for every such fighter); a built-in item's placeholder statistic
//! ([`Ruleset::PLACEHOLDERS`]) is a factor where some fighter names the item without giving
//! that statistic (its low and high ends are then written for every such fighter, the item
//! as the table named like it: `weapon = { name = "spear", max_damage = 2 }`).
//! Each variant is the scenario loaded again with the value written in
//! (`oddsmith_scenario::variant`), so a factor's figures are those of a comparison file whose
//! house rule writes that value, digit for digit at the same seed: a paired run gives every
//! variant its own generator per trial, whatever the other variants.

use oddsmith_rules::Placeholder;
use oddsmith_rules::{Mark, Ruleset};
use oddsmith_scenario::{
    Origin, ReadingsSpec, Target, Value, given_value, load, named_as_tables, variant, variant_text,
};
use oddsmith_sim::run_paired;
use oddsmith_stats::verdict::{self, Difference, Rule, Side, Spoken};
use oddsmith_stats::{DiffEstimate, diff_paired};
use serde::Serialize;

use crate::balance::{BalanceStatus, run_balance};
use crate::tournament::run_tournament;
use crate::{Ctx, Est, StudyError};

/// The verdict rule of a matchup's advantage (the run's own: significant and at least 2
/// points).
pub const RULE: Rule = Rule {
    alpha: 0.05,
    threshold: 0.02,
};

/// One factor value of a readings study: a marked setting at one alternative value.
#[derive(Clone, Debug, PartialEq)]
pub struct Factor {
    /// The marked key (`options.hp_base`, `fighters.*.health`).
    pub key: String,
    /// `reading`, `invented` or `placeholder`.
    pub kind: &'static str,
    /// The value tried.
    pub value: Value,
    /// The value in force in the file (written or the default).
    pub baseline: Value,
    /// Where the value is written: the option, or each fighter relying on the default.
    pub targets: Vec<Target>,
}

impl Factor {
    /// `hp_base = 10`.
    pub fn label(&self) -> String {
        format!("{} = {}", self.name(), self.value)
    }
    /// The key without `options.` / `fighters.*.`.
    pub fn name(&self) -> &str {
        self.key
            .strip_prefix("options.")
            .or_else(|| self.key.strip_prefix("fighters.*."))
            .unwrap_or(&self.key)
    }
}

/// An item name as the rulesets look it up: case, `_` and `-` aside.
fn item_name(s: &str) -> String {
    s.trim().to_ascii_lowercase().replace(['_', '-'], " ")
}

/// Where the scenario's fighters rely on placeholder `p`: each fighter field (`weapon`,
/// `shield`, …; the keys of the ruleset's inline tables) that names the built-in item, by
/// name or as a table named like it that leaves the statistic out, as the target that sets
/// the statistic (`knight`, `weapon.max_damage`).
pub fn relying_on<R: Ruleset>(
    text: &str,
    scenario: &oddsmith_scenario::Scenario<R>,
    p: &Placeholder,
) -> Vec<Target> {
    let mut keys: Vec<&str> = R::info()
        .tables
        .iter()
        .flat_map(|t| t.keys.iter().copied())
        .collect();
    keys.dedup();
    let item = item_name(p.item);
    let mut out = Vec::new();
    for f in scenario.fighters.keys() {
        for key in &keys {
            let at = format!("fighters.{f}.{key}");
            let named = match given_value(text, &at) {
                Some(Value::Text(t)) => item_name(&t) == item,
                _ => {
                    matches!(given_value(text, &format!("{at}.name")), Some(Value::Text(t)) if item_name(&t) == item)
                        && given_value(text, &format!("{at}.{}", p.field)).is_none()
                }
            };
            if named {
                out.push(Target::Fighter {
                    fighter: f.clone(),
                    field: format!("{key}.{}", p.field),
                });
            }
        }
    }
    out
}

/// The factors of `scenario` (file `text`) under `spec`: every alternative of every marked
/// option, of every marked fighter field some fighter leaves to its default, and both ends of
/// every placeholder statistic of a built-in item some fighter names ([`relying_on`]), except
/// the value already in force.
pub fn factors<R: Ruleset>(
    text: &str,
    scenario: &oddsmith_scenario::Scenario<R>,
    spec: &ReadingsSpec,
) -> Vec<Factor> {
    let mut out = Vec::new();
    for m in R::info().marks {
        if matches!(m.mark, Mark::None) || !spec.admits(&m.key) {
            continue;
        }
        let default = Value::from_toml_text(m.default);
        let (baseline, targets) = if let Mark::Placeholder { .. } = m.mark {
            let Some(p) = R::PLACEHOLDERS
                .iter()
                .find(|p| format!("{}.{}", p.item, p.field) == m.key)
            else {
                continue;
            };
            (default, relying_on(text, scenario, p))
        } else if let Some(path) = m.option() {
            let given = given_value(text, &format!("options.{path}"));
            (
                given.or(default),
                vec![Target::Option {
                    option: path.to_string(),
                }],
            )
        } else if let Some(field) = m.fighter_field() {
            let relying: Vec<Target> = scenario
                .fighters
                .keys()
                .filter(|f| given_value(text, &format!("fighters.{f}.{field}")).is_none())
                .map(|f| Target::Fighter {
                    fighter: f.clone(),
                    field: field.to_string(),
                })
                .collect();
            (default, relying)
        } else {
            continue;
        };
        let Some(baseline) = baseline else { continue };
        if targets.is_empty() {
            continue;
        }
        for alt in m.mark.alternatives() {
            let Some(value) = Value::from_toml_text(alt) else {
                continue;
            };
            if value == baseline
                || out
                    .iter()
                    .any(|f: &Factor| f.key == m.key && f.value == value)
            {
                continue;
            }
            out.push(Factor {
                key: m.key.clone(),
                kind: m.mark.kind(),
                value,
                baseline: baseline.clone(),
                targets: targets.clone(),
            });
        }
    }
    out
}

/// The text the factor's value is written into: `text`, with a built-in item whose
/// placeholder statistic the factor varies written as the table named like it.
fn base_text(file: &str, text: &str, f: &Factor) -> Result<String, StudyError> {
    if f.kind != "placeholder" {
        return Ok(text.to_string());
    }
    let targets: Vec<&Target> = f.targets.iter().collect();
    Ok(named_as_tables(file, text, &targets)?)
}

/// The scenario with factor `f` written in.
pub fn factor_scenario<R: Ruleset>(
    file: &str,
    text: &str,
    f: &Factor,
) -> Result<oddsmith_scenario::Scenario<R>, StudyError> {
    let origin = Origin::readings();
    let changes: Vec<(&Target, Value, &Origin)> = f
        .targets
        .iter()
        .map(|t| (t, f.value.clone(), &origin))
        .collect();
    let text = base_text(file, text, f)?;
    Ok(variant::<R>(file, &text, &changes)?)
}

/// One factor's figures for one matchup.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReadingDoc {
    /// The marked key (`options.hp_base`).
    pub factor: String,
    /// `reading`, `invented` or `placeholder`.
    pub kind: &'static str,
    /// The value tried, as written in TOML.
    pub value: String,
    /// The value in force in the file.
    pub baseline_value: String,
    /// P(A wins) under the factor (Monte Carlo, paired with the baseline).
    pub p_a_win: Est,
    /// P(B wins) under the factor.
    pub p_b_win: f64,
    /// P(A wins) under the factor − baseline, Newcombe's paired interval (McNemar's test).
    pub delta: DiffEstimate,
    /// Exact P(A wins) under the factor, where the ruleset solves the duel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<f64>,
    /// Exact change from the baseline, where both are solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_delta: Option<f64>,
    /// Whether the matchup's verdict (who is favoured: A, B or neither) is the baseline's; a
    /// change that does not matter ([`ReadingDoc::matters`]) never changes it.
    pub verdict_holds: bool,
}

impl ReadingDoc {
    /// The change as it speaks: exact where both sides are solved, else the paired interval.
    pub fn spoken(&self) -> Spoken {
        verdict::speaks(Difference::tested(&self.delta), self.exact_delta)
    }
    /// Whether the change is at least the practical threshold (and significant).
    pub fn matters(&self) -> bool {
        let s = self.spoken();
        s.value().abs() >= RULE.threshold && (s.is_exact() || s.figure.significant(RULE.alpha))
    }
    /// `hp_base = 10`.
    pub fn label(&self) -> String {
        let name = self
            .factor
            .strip_prefix("options.")
            .or_else(|| self.factor.strip_prefix("fighters.*."))
            .unwrap_or(&self.factor);
        format!("{name} = {}", self.value)
    }
}

/// A matchup's readings: its baseline, every factor ranked by the size of its change, and
/// whether the verdict holds under every one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchupReadings {
    /// The matchup's name.
    pub matchup: String,
    /// Trials per variant.
    pub trials: u64,
    /// P(A wins) of the baseline in the paired run.
    pub baseline: Est,
    /// Exact P(A wins) of the baseline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_exact: Option<f64>,
    /// The baseline's verdict: `A`, `B` or `none` (no side favoured).
    pub verdict: &'static str,
    /// Every factor, largest change first.
    pub readings: Vec<ReadingDoc>,
    /// The verdict holds under every factor.
    pub robust: bool,
    /// The factors whose change is within the practical threshold (summed up in one line).
    pub small: usize,
}

impl MatchupReadings {
    /// "holds under every reading" or "depends on: hp_base (83.0 % at 10), …".
    pub fn robustness(&self) -> String {
        if self.robust {
            return "holds under every reading".into();
        }
        let parts: Vec<String> = self
            .readings
            .iter()
            .filter(|r| !r.verdict_holds)
            .map(|r| {
                let p = r.exact.unwrap_or(r.p_a_win.p);
                format!(
                    "{} ({:.1} % at {})",
                    r.label().split(" = ").next().unwrap_or(""),
                    100.0 * p,
                    r.value
                )
            })
            .collect();
        format!("depends on: {}", parts.join(", "))
    }
}

fn side(v: &verdict::Verdict) -> &'static str {
    match v.favours() {
        Some(Side::First) => "A",
        Some(Side::Second) => "B",
        None => "none",
    }
}

/// The verdict (who is favoured) from outcome counts and the exact solution.
fn verdict_of(o: &oddsmith_stats::OutcomeCounts, exact: Option<(f64, f64)>) -> &'static str {
    let d = match exact {
        Some((a, b)) => Difference::exact(a, b),
        None => verdict::advantage(o),
    };
    side(&RULE.judge(d))
}

/// Runs the readings study of every matchup of `ctx`'s scenario: per matchup one paired run
/// of the baseline and every factor (`factors`), with exact values where the ruleset solves
/// the duel and `ctx.exact`.
pub fn run_readings<R: Ruleset>(
    ctx: &Ctx<'_, R>,
    factors: &[Factor],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<MatchupReadings>, StudyError> {
    let variants: Vec<oddsmith_scenario::Scenario<R>> = factors
        .iter()
        .map(|f| factor_scenario::<R>(ctx.file, ctx.text, f))
        .collect::<Result<_, _>>()?;
    let s = ctx.scenario;
    let mut out = Vec::with_capacity(s.matchups.len());
    for (i, m) in s.matchups.iter().enumerate() {
        let mut runs: Vec<(&R, &R::Matchup)> = vec![(&s.ruleset, &m.matchup)];
        runs.extend(
            variants
                .iter()
                .map(|v| (&v.ruleset, &v.matchups[i].matchup)),
        );
        let st = run_paired(&runs, ctx.cfg, progress)?;
        let solve = |r: &R, x: &R::Matchup| if ctx.exact { r.exact(x) } else { None };
        let base_exact = solve(&s.ruleset, &m.matchup);
        let b = &st.variants[0].outcomes;
        let verdict = verdict_of(b, base_exact.as_ref().map(|e| (e.p_a_win, e.p_b_win)));
        let mut readings: Vec<ReadingDoc> = factors
            .iter()
            .enumerate()
            .map(|(k, f)| {
                let o = &st.variants[k + 1].outcomes;
                let c = &st.vs_first[k];
                let delta =
                    diff_paired(c.both, c.second_only, c.first_only, c.neither).expect("trials");
                let e = solve(&variants[k].ruleset, &variants[k].matchups[i].matchup);
                let mut doc = ReadingDoc {
                    factor: f.key.clone(),
                    kind: f.kind,
                    value: f.value.to_string(),
                    baseline_value: f.baseline.to_string(),
                    p_a_win: Est::new(o.a_wins, o.total()),
                    p_b_win: o.p_b(),
                    delta,
                    exact: e.as_ref().map(|e| e.p_a_win),
                    exact_delta: verdict::exact_difference(
                        e.as_ref().map(|e| e.p_a_win),
                        base_exact.as_ref().map(|e| e.p_a_win),
                    ),
                    verdict_holds: true,
                };
                // A verdict changes only with a change that matters (significant and at
                // least the practical threshold), so noise around an even matchup never
                // reads as a flip.
                doc.verdict_holds = !doc.matters()
                    || verdict_of(o, e.as_ref().map(|e| (e.p_a_win, e.p_b_win))) == verdict;
                doc
            })
            .collect();
        readings.sort_by(|x, y| {
            y.spoken()
                .value()
                .abs()
                .total_cmp(&x.spoken().value().abs())
        });
        let robust = readings.iter().all(|r| r.verdict_holds);
        let small = readings.iter().filter(|r| !r.matters()).count();
        out.push(MatchupReadings {
            matchup: m.name.clone(),
            trials: st.variants[0].trials(),
            baseline: Est::new(b.a_wins, b.total()),
            baseline_exact: base_exact.map(|e| e.p_a_win),
            verdict,
            readings,
            robust,
            small,
        });
    }
    Ok(out)
}

/// The `[balance]` solved again under one factor.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BalanceReading {
    /// The marked key.
    pub factor: String,
    /// `reading` or `invented`.
    pub kind: &'static str,
    /// The value tried, as TOML.
    pub value: String,
    /// The value found (`None`: no crossing in the range).
    pub solved: Option<f64>,
    /// How the search ended.
    pub status: BalanceStatus,
}

impl BalanceReading {
    /// `hp_base = 10`.
    pub fn label(&self) -> String {
        let name = self
            .factor
            .strip_prefix("options.")
            .or_else(|| self.factor.strip_prefix("fighters.*."))
            .unwrap_or(&self.factor);
        format!("{name} = {}", self.value)
    }
}

/// The scenario's text and scenario with factor `f` written in.
fn factor_text<R: Ruleset>(
    ctx: &Ctx<'_, R>,
    f: &Factor,
) -> Result<(String, oddsmith_scenario::Scenario<R>), StudyError> {
    let origin = Origin::readings();
    let changes: Vec<(&Target, Value, &Origin)> = f
        .targets
        .iter()
        .map(|t| (t, f.value.clone(), &origin))
        .collect();
    let text = base_text(ctx.file, ctx.text, f)?;
    let text = variant_text(ctx.file, &text, &changes)?;
    let s = load::<R>(ctx.file, &text)?;
    Ok((text, s))
}

/// Whether a tournament kit's cost label (over-priced, fair, under-priced) holds across the
/// readings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostLabelReadings {
    /// The kit (fighter).
    pub fighter: String,
    /// Its label by the default readings (`None`: no verdict, e.g. costs do not predict win
    /// rate).
    pub label: Option<String>,
    /// Whether every factor gives the same label.
    pub holds: bool,
    /// The factors that change it: `hp_base = 10: over-priced`.
    pub changed_by: Vec<String>,
}

/// The `[tournament]` run again under every factor, and for each priced kit whether its cost
/// label holds across the readings. Empty without a tournament with costs.
pub fn run_cost_readings<R: Ruleset>(
    ctx: &Ctx<'_, R>,
    factors: &[Factor],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<CostLabelReadings>, StudyError> {
    let Some(base) = run_tournament(ctx, progress)?.and_then(|t| t.costs) else {
        return Ok(Vec::new());
    };
    let mut out: Vec<CostLabelReadings> = base
        .points
        .iter()
        .map(|p| CostLabelReadings {
            fighter: p.fighter.clone(),
            label: p.verdict.clone(),
            holds: true,
            changed_by: Vec::new(),
        })
        .collect();
    for f in factors {
        let (text, s) = factor_text(ctx, f)?;
        let c = Ctx {
            file: ctx.file,
            text: &text,
            scenario: &s,
            cfg: ctx.cfg,
            exact: ctx.exact,
        };
        let Some(costs) = run_tournament(&c, progress)?.and_then(|t| t.costs) else {
            continue;
        };
        for k in &mut out {
            let label = costs
                .points
                .iter()
                .find(|p| p.fighter == k.fighter)
                .and_then(|p| p.verdict.clone());
            if label != k.label {
                k.holds = false;
                k.changed_by.push(format!(
                    "{}: {}",
                    f.label(),
                    label.as_deref().unwrap_or("no verdict")
                ));
            }
        }
    }
    Ok(out)
}

/// The `[balance]` search of `ctx`'s scenario run again under each factor that moved some
/// matchup (`moved`, from [`run_readings`]): "fair length 4 by the book; 3 under
/// striking_order = skill_first". Empty without a `[balance]`.
pub fn run_balance_readings<R: Ruleset>(
    ctx: &Ctx<'_, R>,
    factors: &[Factor],
    moved: &[MatchupReadings],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<BalanceReading>, StudyError> {
    if ctx.scenario.study.balance.is_none() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for f in factors {
        let value = f.value.to_string();
        let matters = moved.iter().any(|m| {
            m.readings
                .iter()
                .any(|r| r.factor == f.key && r.value == value && r.matters())
        });
        if !matters {
            continue;
        }
        let (text, s) = factor_text(ctx, f)?;
        let c = Ctx {
            file: ctx.file,
            text: &text,
            scenario: &s,
            cfg: ctx.cfg,
            exact: ctx.exact,
        };
        if let Some(b) = run_balance(&c, progress)? {
            out.push(BalanceReading {
                factor: f.key.clone(),
                kind: f.kind,
                value,
                solved: b.value,
                status: b.status,
            });
        }
    }
    Ok(out)
}

/// The built-in items' placeholder statistics ([`oddsmith_rules::Ruleset::PLACEHOLDERS`]) the
/// scenario's fighters rely on ([`relying_on`]): a fighter naming the item (`weapon =
/// "spear"`) without giving the statistic in an inline table.
pub fn placeholders_relied_on<R: Ruleset>(
    text: &str,
    scenario: &oddsmith_scenario::Scenario<R>,
) -> Vec<String> {
    let mut out = Vec::new();
    for name in scenario.fighters.keys() {
        for p in R::PLACEHOLDERS {
            let Some(m) = p.mark.text() else { continue };
            let m = m.trim_start_matches("placeholder (not in the seed): ");
            for t in relying_on(text, scenario, p) {
                if matches!(&t, Target::Fighter { fighter, .. } if fighter == name) {
                    out.push(format!(
                        "{name}'s {}: {} = {} is a placeholder, not in the seed ({m})",
                        p.item, p.field, p.value
                    ));
                }
            }
        }
    }
    out
}
