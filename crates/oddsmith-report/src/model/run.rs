//! The run document: one entry per matchup with its probabilities, intervals, fight length,
//! per-side figures, the advantage of A and its verdict (the stable `--json` contract).

use std::collections::BTreeMap;

use oddsmith_rules::{Ending, ExactDuel};
use oddsmith_sim::DuelStats;
use oddsmith_stats::verdict::{self, McCheck, Rule, Side, Spoken, Verdict};
use oddsmith_stats::{IntHistogram, wilson95};
use serde::Serialize;

use crate::format::{points_short, z_score};

/// A whole `oddsmith run`: one entry per matchup.
#[derive(Clone, Debug, Serialize)]
pub struct RunDoc {
    /// Scenario name.
    pub scenario: String,
    /// Ruleset id.
    pub ruleset: String,
    /// The seed used.
    pub seed: u64,
    /// Scenario description, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Every option with its value and whether it is the default.
    pub options: Vec<OptionValue>,
    /// One entry per matchup, in scenario order.
    pub matchups: Vec<MatchupDoc>,
    /// The scenario's study sections (sweeps, balance, tournament, checks, assertions), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub study: Option<oddsmith_study::StudyDoc>,
    /// The ruleset comparison, for a comparison file (`[compare]` with `[rulesets.<id>]`
    /// parts); the matchups above are then every part's, named `<ruleset>: <matchup>`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<oddsmith_study::ComparisonDoc>,
    /// Settings of the file accepted but very likely not meant (each with `file`, `line`,
    /// `column`, `field`, `message` and the one-line `text`), in file order; absent when
    /// there are none. For a comparison they are placed in the comparison file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<oddsmith_scenario::Warning>,
}

/// One option as run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionValue {
    /// Option key.
    pub name: String,
    /// Value in force.
    pub value: serde_json::Value,
    /// Whether the value is the ruleset's default.
    pub default: bool,
}

/// Lists every option with its value, marking defaults.
pub fn options_table<O: Serialize + Default>(o: &O) -> Vec<OptionValue> {
    let to_map = |v: &O| match serde_json::to_value(v) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    let (cur, def) = (to_map(o), to_map(&O::default()));
    cur.into_iter()
        .map(|(name, value)| {
            let default = def.get(&name) == Some(&value);
            OptionValue {
                name,
                value,
                default,
            }
        })
        .collect()
}

/// Summary of a count distribution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CountSummary {
    /// Mean.
    pub mean: f64,
    /// Standard deviation.
    pub sd: f64,
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Largest value seen.
    pub max: u64,
}

impl CountSummary {
    fn of(h: &IntHistogram) -> Self {
        let s = h.summary();
        CountSummary {
            mean: s.mean,
            sd: s.sd,
            p50: s.p50,
            p90: s.p90,
            p99: s.p99,
            max: s.max,
        }
    }
}

/// The exact solution, where the ruleset has one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExactDoc {
    /// Exact P(A wins).
    pub p_a_win: f64,
    /// Exact P(B wins).
    pub p_b_win: f64,
    /// Exact P(draw) (timeouts at the round cap).
    pub p_draw: f64,
    /// Exact expected rounds.
    pub mean_rounds: f64,
    /// Upper bound on the solver's truncation error.
    pub truncated: f64,
    /// Distance of the Monte Carlo P(A wins) from the exact value, in standard errors.
    pub monte_carlo_z: f64,
}

/// Per-side figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideDoc {
    /// Damage points dealt per duel.
    pub damage: CountSummary,
    /// Attacks per duel.
    pub attacks_per_duel: f64,
    /// Hits per attack.
    pub hit_rate: f64,
}

/// Results of one matchup (the stable `--json` core plus extras).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchupDoc {
    /// Matchup name.
    pub name: String,
    /// Fighter A.
    pub a: String,
    /// Fighter B.
    pub b: String,
    /// Duels run.
    pub trials: u64,
    /// Duels A won.
    pub a_wins: u64,
    /// Duels B won.
    pub b_wins: u64,
    /// Draws (including timeouts).
    pub draws: u64,
    /// P(A wins).
    pub p_a_win: f64,
    /// 95 % Wilson interval of P(A wins).
    pub p_a_win_ci95: [f64; 2],
    /// P(B wins).
    pub p_b_win: f64,
    /// 95 % Wilson interval of P(B wins).
    pub p_b_win_ci95: [f64; 2],
    /// P(draw).
    pub p_draw: f64,
    /// 95 % Wilson interval of P(draw).
    pub p_draw_ci95: [f64; 2],
    /// Fight length in rounds.
    pub rounds: CountSummary,
    /// Duels by how they ended ("timeout" = round cap).
    pub endings: BTreeMap<&'static str, u64>,
    /// Fighter A's figures.
    pub side_a: SideDoc,
    /// Fighter B's figures.
    pub side_b: SideDoc,
    /// The ruleset's counters, as means per duel.
    pub counters: BTreeMap<&'static str, f64>,
    /// P(A wins) − P(B wins) as it speaks, with its 95 % interval: the exact difference
    /// (an interval of width 0) where the duel is solved, else the Monte Carlo estimate.
    pub advantage_a: [f64; 3],
    /// Which figure `advantage_a` and `verdict` come from: `"exact"` or `"monte_carlo"`.
    pub advantage_source: &'static str,
    /// When the exact value speaks: the Monte Carlo P(A) − P(B) with its 95 % interval and
    /// its distance from the exact difference in standard errors, as the exact value's check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advantage_check: Option<McCheckDoc>,
    /// Plain-words reading of the advantage (rendered from `advantage`), with the Monte
    /// Carlo check in brackets when the exact value speaks.
    pub verdict: String,
    /// The advantage of A judged: favoured side, balanced or undecided (not in the JSON,
    /// which carries `advantage_a` and `verdict`).
    #[serde(skip)]
    pub advantage: Verdict,
    /// The advantage as it speaks (not in the JSON, which carries it in `advantage_a`,
    /// `advantage_source` and `advantage_check`).
    #[serde(skip)]
    pub advantage_spoken: Spoken,
    /// The exact solution, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<ExactDoc>,
    /// With a precision target: the target, the half-width reached and whether it was met
    /// (not met when the trial cap stopped the run first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<PrecisionDoc>,
    /// Who acts first, where the rules settle it once per duel (Open RPG's initiative):
    /// P(A acts first) and P(A wins) given each order, exact where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_move: Option<FirstMoveDoc>,
    /// A group fight's per-side and per-member figures ([`super::GroupDoc`]); `None` for a
    /// duel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<super::GroupDoc>,
}

/// Who acts first in a matchup and how much it matters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FirstMoveDoc {
    /// P(A acts first), exact (from the rules' initiative table).
    pub p_a_first: f64,
    /// The Monte Carlo share of duels where A acted first with its 95 % Wilson interval:
    /// `[estimate, lo, hi]` (the exact value's check).
    pub p_a_first_monte_carlo: [f64; 3],
    /// P(A wins) in the duels where A acted first; absent when that order cannot happen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given_a_first: Option<GivenDoc>,
    /// P(A wins) in the duels where B acted first; absent when that order cannot happen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given_b_first: Option<GivenDoc>,
}

/// P(A wins) among the duels of one order of play.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GivenDoc {
    /// Duels run in this order.
    pub trials: u64,
    /// Duels A won among them.
    pub a_wins: u64,
    /// Their share, Monte Carlo.
    pub p_a_win: f64,
    /// Its 95 % Wilson interval.
    pub p_a_win_ci95: [f64; 2],
    /// Exact P(A wins) in this order, where the duel is solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_p_a_win: Option<f64>,
}

impl FirstMoveDoc {
    /// The figures from the rules' [`FirstMove`](oddsmith_rules::FirstMove) and the run's
    /// counters (A acted first; A acted first and won) and A's wins.
    pub fn of(f: &oddsmith_rules::FirstMove, s: &DuelStats) -> FirstMoveDoc {
        let n = s.trials();
        let first = s.counters[f.counters[0]];
        let first_wins = s.counters[f.counters[1]];
        let given = |trials: u64, wins: u64, exact: &Option<ExactDuel>, possible: bool| {
            (possible || trials > 0).then(|| GivenDoc {
                trials,
                a_wins: wins,
                p_a_win: if trials == 0 {
                    0.0
                } else {
                    wins as f64 / trials as f64
                },
                p_a_win_ci95: ci(wins, trials),
                exact_p_a_win: exact.as_ref().map(|e| e.p_a_win),
            })
        };
        let [lo, hi] = ci(first, n);
        FirstMoveDoc {
            p_a_first: f.p_a_first,
            p_a_first_monte_carlo: [first as f64 / n.max(1) as f64, lo, hi],
            given_a_first: given(first, first_wins, &f.exact[0], f.p_a_first > 0.0),
            given_b_first: given(
                n - first,
                s.outcomes.a_wins - first_wins,
                &f.exact[1],
                f.p_a_first < 1.0,
            ),
        }
    }
}

/// A Monte Carlo estimate shown as the check of the exact value that speaks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct McCheckDoc {
    /// The Monte Carlo estimate with its 95 % interval: `[estimate, lo, hi]`.
    pub monte_carlo: [f64; 3],
    /// Its distance from the exact value in standard errors.
    pub z: f64,
}

impl McCheckDoc {
    /// The JSON form of a check.
    pub fn of(c: &McCheck) -> McCheckDoc {
        let d = &c.monte_carlo;
        McCheckDoc {
            monte_carlo: [d.diff, d.lo, d.hi],
            z: c.z,
        }
    }
}

/// How a run to a precision target ended.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PrecisionDoc {
    /// The 95 % half-width asked for on P(A wins).
    pub target: f64,
    /// The 95 % Wilson half-width of P(A wins) reached.
    pub reached: f64,
    /// Whether `reached <= target`.
    pub met: bool,
}

impl PrecisionDoc {
    /// The precision reached by `trials` duels with `a_wins` wins, against `target`.
    pub fn of(target: f64, a_wins: u64, trials: u64) -> PrecisionDoc {
        let reached = oddsmith_stats::wilson_half_width(a_wins, trials, oddsmith_stats::Z95);
        PrecisionDoc {
            target,
            reached,
            met: reached <= target,
        }
    }
}

/// Smallest advantage (P(A) − P(B)) worth calling out: 2 percentage points.
pub const PRACTICAL_THRESHOLD: f64 = 0.02;

/// When an advantage names a favourite: significant (its 95 % interval excludes 0) and at
/// least [`PRACTICAL_THRESHOLD`].
pub const ADVANTAGE_RULE: Rule = Rule {
    alpha: 0.05,
    threshold: PRACTICAL_THRESHOLD,
};

pub(crate) fn ci(successes: u64, n: u64) -> [f64; 2] {
    let (lo, hi) = wilson95(successes, n);
    [lo, hi]
}

fn side(s: &DuelStats, i: usize) -> SideDoc {
    let n = s.trials().max(1) as f64;
    SideDoc {
        damage: CountSummary::of(&s.damage[i]),
        attacks_per_duel: s.attacks[i] as f64 / n,
        hit_rate: if s.attacks[i] == 0 {
            0.0
        } else {
            s.hits[i] as f64 / s.attacks[i] as f64
        },
    }
}

/// The advantage of A, P(A) − P(B), as it speaks ([`verdict::speaks`]): the exact
/// difference where the duel is solved, else the Monte Carlo estimate with its 95 % interval
/// (see [`oddsmith_stats::verdict::advantage`] for why a multinomial normal interval).
pub fn advantage(s: &DuelStats, exact: Option<&ExactDuel>) -> Spoken {
    verdict::speaks(
        verdict::advantage(&s.outcomes),
        verdict::exact_difference(exact.map(|e| e.p_a_win), exact.map(|e| e.p_b_win)),
    )
}

/// The Monte Carlo check of an exact figure, in words: `Monte Carlo +5.7 ± 3.6, +2.8
/// standard errors from exact` (points).
pub fn check_text(c: &McCheck) -> String {
    let d = &c.monte_carlo;
    format!(
        "Monte Carlo {:+.1} ± {}, {} standard errors from exact",
        100.0 * d.diff,
        points_short(d.half_width),
        z_score(c.z)
    )
}

/// The advantage in words: `knight favoured: wins 12.3 ± 1.4 points more often
/// (significant)`, `balanced: …`, or `undecided: …; run more trials`; from an exact value
/// `knight favoured: wins 12.3 points more often (exact)`, `balanced: … exactly, …`, or
/// `even: P(A) = P(B) exactly`. The Monte Carlo check is not included (see [`check_text`]).
pub fn advantage_text(v: &Verdict, a: &str, b: &str) -> String {
    let d = v.difference();
    let pm = points_short(d.half_width);
    let exact = d.is_exact();
    match v {
        Verdict::Favours { side, .. } => {
            let (who, by) = match side {
                Side::First => (a, d.diff),
                Side::Second => (b, -d.diff),
            };
            if exact {
                format!(
                    "{who} favoured: wins {} points more often (exact)",
                    points_short(by)
                )
            } else {
                format!(
                    "{who} favoured: wins {} ± {pm} points more often (significant)",
                    points_short(by)
                )
            }
        }
        Verdict::Balanced(_) if exact => format!(
            "balanced: P(A) − P(B) = {} points exactly, within ±{}",
            points_short(d.diff),
            points_short(PRACTICAL_THRESHOLD)
        ),
        Verdict::Balanced(_) => format!(
            "balanced: P(A) − P(B) = {} ± {pm} points, within ±{} at 95 %",
            points_short(d.diff),
            points_short(PRACTICAL_THRESHOLD)
        ),
        Verdict::NoDifference(_) => "even: P(A) = P(B) exactly".to_string(),
        Verdict::Undecided(_) => format!(
            "undecided: P(A) − P(B) = {} ± {pm} points; run more trials",
            points_short(d.diff)
        ),
    }
}

/// The advantage's verdict as stated everywhere: [`advantage_text`], followed by the Monte
/// Carlo check in brackets when the exact value speaks.
pub fn verdict_text(s: &Spoken, a: &str, b: &str) -> String {
    let text = advantage_text(&ADVANTAGE_RULE.judge(s.figure), a, b);
    match &s.check {
        // `… more often (exact)` takes the check inside its brackets.
        Some(c) => match text.strip_suffix(" (exact)") {
            Some(t) => format!("{t} (exact; {})", check_text(c)),
            None => format!("{text} ({})", check_text(c)),
        },
        None => text,
    }
}

/// Builds a matchup's document from its accumulator and, where known, its exact solution.
pub fn matchup_doc(
    name: &str,
    a: &str,
    b: &str,
    s: &DuelStats,
    exact: Option<&ExactDuel>,
    counter_names: &[&'static str],
) -> MatchupDoc {
    let n = s.trials();
    let o = s.outcomes;
    let endings = Ending::ALL
        .iter()
        .filter(|e| s.ending(**e) > 0)
        .map(|e| (e.name(), s.ending(*e)))
        .collect();
    let counters = counter_names
        .iter()
        .zip(s.counters)
        .map(|(name, sum)| (*name, sum as f64 / n.max(1) as f64))
        .collect();
    let spoken = advantage(s, exact);
    let adv = ADVANTAGE_RULE.judge(spoken.figure);
    let d = adv.difference();
    let exact = exact.map(|e| {
        let se = (e.p_a_win * (1.0 - e.p_a_win) / n.max(1) as f64).sqrt();
        ExactDoc {
            p_a_win: e.p_a_win,
            p_b_win: e.p_b_win,
            p_draw: e.p_draw,
            mean_rounds: e.mean_rounds,
            truncated: e.truncated,
            monte_carlo_z: if se > 0.0 {
                (o.p_a() - e.p_a_win) / se
            } else {
                0.0
            },
        }
    });
    MatchupDoc {
        name: name.into(),
        a: a.into(),
        b: b.into(),
        trials: n,
        a_wins: o.a_wins,
        b_wins: o.b_wins,
        draws: o.draws,
        p_a_win: o.p_a(),
        p_a_win_ci95: ci(o.a_wins, n),
        p_b_win: o.p_b(),
        p_b_win_ci95: ci(o.b_wins, n),
        p_draw: o.p_draw(),
        p_draw_ci95: ci(o.draws, n),
        rounds: CountSummary::of(&s.rounds),
        endings,
        side_a: side(s, 0),
        side_b: side(s, 1),
        counters,
        advantage_a: [d.diff, d.lo, d.hi],
        advantage_source: if spoken.is_exact() {
            "exact"
        } else {
            "monte_carlo"
        },
        advantage_check: spoken.check.as_ref().map(McCheckDoc::of),
        verdict: verdict_text(&spoken, a, b),
        advantage: adv,
        advantage_spoken: spoken,
        exact,
        precision: None,
        first_move: None,
        group: super::group_doc(s, None, a, b),
    }
}
