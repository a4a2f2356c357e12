//! Serializable result documents.

use std::collections::BTreeMap;

use oddsmith_rules::{CheckExact, Ending, ExactDuel};
use oddsmith_sim::{CheckStats, DuelStats};
use oddsmith_stats::{IntHistogram, Z95, wilson95};
use serde::Serialize;

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

/// A JSON value written the way it would be in a scenario file (TOML inline syntax).
pub fn toml_text(v: &serde_json::Value) -> String {
    use serde_json::Value as V;
    match v {
        V::String(s) => format!("{s:?}"),
        V::Array(a) => format!(
            "[{}]",
            a.iter().map(toml_text).collect::<Vec<_>>().join(", ")
        ),
        V::Object(o) => {
            let f: Vec<String> = o
                .iter()
                .map(|(k, v)| format!("{k} = {}", toml_text(v)))
                .collect();
            format!("{{ {} }}", f.join(", "))
        }
        V::Null => "none".into(),
        other => other.to_string(),
    }
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
    /// P(A wins) − P(B wins) with its 95 % interval.
    pub advantage_a: [f64; 3],
    /// Plain-words reading of the advantage.
    pub verdict: String,
    /// The exact solution, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<ExactDoc>,
}

/// Smallest advantage (P(A) − P(B)) worth calling out: 2 percentage points.
pub const PRACTICAL_THRESHOLD: f64 = 0.02;

fn ci(successes: u64, n: u64) -> [f64; 2] {
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

/// The advantage of A, P(A) − P(B), with its 95 % normal interval and a verdict that is given
/// only when the difference is significant *and* at least [`PRACTICAL_THRESHOLD`].
pub fn advantage(a: &str, b: &str, s: &DuelStats) -> ([f64; 3], String) {
    let n = s.trials().max(1) as f64;
    let (pa, pb) = (s.outcomes.p_a(), s.outcomes.p_b());
    let d = pa - pb;
    // Multinomial variance of p̂a − p̂b.
    let se = ((pa + pb - d * d) / n).max(0.0).sqrt();
    let (lo, hi) = (d - Z95 * se, d + Z95 * se);
    let pts = |x: f64| format!("{:.1}", 100.0 * x);
    let pm = pts(Z95 * se);
    let verdict = if lo > 0.0 && d >= PRACTICAL_THRESHOLD {
        format!(
            "{a} favoured: wins {} ± {pm} points more often (significant)",
            pts(d)
        )
    } else if hi < 0.0 && -d >= PRACTICAL_THRESHOLD {
        format!(
            "{b} favoured: wins {} ± {pm} points more often (significant)",
            pts(-d)
        )
    } else if lo > -PRACTICAL_THRESHOLD && hi < PRACTICAL_THRESHOLD {
        format!(
            "balanced: P(A) − P(B) = {} ± {pm} points, within ±{} at 95 %",
            pts(d),
            pts(PRACTICAL_THRESHOLD)
        )
    } else {
        format!(
            "undecided: P(A) − P(B) = {} ± {pm} points; run more trials",
            pts(d)
        )
    };
    ([d, lo, hi], verdict)
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
    let (adv, verdict) = advantage(a, b, s);
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
        advantage_a: adv,
        verdict,
        exact,
    }
}

/// The `check --json` document.
#[derive(Clone, Debug, Serialize)]
pub struct CheckDoc {
    /// Ruleset id.
    pub ruleset: String,
    /// What was checked.
    pub description: String,
    /// Exact figures.
    pub exact: CheckExactDoc,
    /// Sampled figures.
    pub monte_carlo: CheckMcDoc,
}

/// Exact part of a check document.
#[derive(Clone, Debug, Serialize)]
pub struct CheckExactDoc {
    /// P(success).
    pub p_success: f64,
    /// P(success) as a reduced fraction `[numerator, denominator]`.
    pub p_success_fraction: [u128; 2],
    /// `[value, probability]` pairs.
    pub distribution: Vec<(i64, f64)>,
    /// Named bands with their probabilities, lowest band first.
    pub bands: Vec<BandDoc>,
}

/// A named band of results and its exact probability.
#[derive(Clone, Debug, Serialize)]
pub struct BandDoc {
    /// Band name.
    pub name: String,
    /// Lowest result in the band (`null` = unbounded).
    pub lo: Option<i64>,
    /// Highest result in the band (`null` = unbounded).
    pub hi: Option<i64>,
    /// Exact probability.
    pub p: f64,
}

/// Monte Carlo part of a check document.
#[derive(Clone, Debug, Serialize)]
pub struct CheckMcDoc {
    /// Rolls made.
    pub trials: u64,
    /// Observed P(success).
    pub p_success: f64,
    /// 95 % Wilson interval.
    pub p_success_ci95: [f64; 2],
    /// `[value, frequency]` pairs.
    pub distribution: Vec<(i64, f64)>,
    /// Distance from the exact P(success), in standard errors.
    pub z: f64,
}

impl CheckDoc {
    /// Builds the document.
    pub fn new(ruleset: &str, exact: &CheckExact, mc: &CheckStats) -> Self {
        let p = exact.p_success();
        let (num, den) = exact.distribution.ratio_at_least(exact.success_at_least);
        let n = mc.success.trials;
        let se = (p * (1.0 - p) / n.max(1) as f64).sqrt();
        let bands = exact
            .bands
            .iter()
            .zip(exact.band_probabilities())
            .map(|(b, p)| BandDoc {
                name: b.name.clone(),
                lo: b.lo,
                hi: b.hi,
                p,
            })
            .collect();
        let dist = &exact.distribution;
        CheckDoc {
            ruleset: ruleset.into(),
            description: exact.description.clone(),
            exact: CheckExactDoc {
                p_success: p,
                p_success_fraction: [num, den],
                distribution: dist.to_f64_pairs(),
                bands,
            },
            monte_carlo: CheckMcDoc {
                trials: n,
                p_success: mc.success.p(),
                p_success_ci95: ci(mc.success.successes, n),
                distribution: dist.iter().map(|(v, _)| (v, mc.frequency(v))).collect(),
                z: if se > 0.0 {
                    (mc.success.p() - p) / se
                } else {
                    0.0
                },
            },
        }
    }
}
