//! `[tournament]`: every loadout against every other, both ways; dominance, the Nash mix of
//! the meta-game, a ranking and cost efficiency.

use oddsmith_rules::{Ending, Ruleset};
use oddsmith_scenario::{Scenario, tournament_pairing_error};
use oddsmith_sim::{DuelStats, run_duels};
use oddsmith_stats::verdict::{self, Difference, Spoken};
use oddsmith_stats::{solve_zero_sum, strictly_dominated};
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::{Ctx, Est, StudyError};

/// A loadout's standing in the tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankDoc {
    /// Fighter name.
    pub fighter: String,
    /// P(win) against the field: every opponent equally often, both seatings.
    pub win_rate: Est,
    /// Exact P(win) against the field (the mean of the exact P(beats j) over every
    /// opponent j), where every pairing is solved.
    pub exact_win_rate: Option<f64>,
    /// P(lose) against the field.
    pub loss_rate: f64,
    /// Share in the Nash mix of the meta-game.
    pub nash_share: f64,
    /// Strictly dominated by another loadout (worse against every opponent).
    pub dominated: bool,
    /// The loadouts that strictly dominate this one (empty when not dominated).
    pub dominated_by: Vec<String>,
}

impl RankDoc {
    /// The win rate as it speaks ([`verdict::speaks`]): exact where every pairing is solved,
    /// else the Monte Carlo estimate; the ranking is ordered by it.
    pub fn spoken(&self) -> Spoken {
        win_rate_spoken(&self.win_rate, self.exact_win_rate)
    }
}

fn win_rate_spoken(w: &Est, exact: Option<f64>) -> Spoken {
    verdict::speaks(Difference::interval(w.p, w.lo, w.hi), exact)
}

/// One loadout against the fair line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostPoint {
    /// Fighter name.
    pub fighter: String,
    /// Its cost.
    pub cost: f64,
    /// Where the cost came from: "file" or the ruleset's rules.
    pub source: String,
    /// P(win) against the field, with its interval.
    pub win_rate: Est,
    /// Exact P(win) against the field, where every pairing is solved (it then speaks: the
    /// fair line, the residual and the verdict use it).
    pub exact_win_rate: Option<f64>,
    /// P(win) the fair line predicts for this cost; `None` without a line (fewer than two
    /// priced kits, or all at one cost).
    pub fair: Option<f64>,
    /// `win_rate − fair` (the exact win rate where known): positive = gives more than it
    /// costs; `None` without a line.
    pub residual: Option<f64>,
    /// Only when the line predicts win rate ([`CostFit::Predictive`]): "under-priced" (the
    /// interval lies above the line and the kit at least `tolerance` above it),
    /// "over-priced" (the mirror), "fair" (within `tolerance` of the line) or "unclear"
    /// (beyond the tolerance but the interval reaches the line: more trials needed; never
    /// for an exact win rate); `None` when the line cannot judge a kit.
    pub verdict: Option<String>,
    /// The cost at which the line through the *other* kits (leave-one-out: a kit never
    /// judges itself) predicts this kit's win rate — the price that would make it fair —
    /// with a 95 % interval that carries both the Monte Carlo noise of the win rate and the
    /// line's own uncertainty (delta method on the inverse prediction, Student's t with
    /// m − 2 degrees of freedom for the m other kits). `None` with fewer than three other
    /// priced kits at two costs or more, or when their line does not rise with cost.
    pub fair_cost: Option<Interval>,
    /// Whether `fair_cost` can be acted on: costs predict win rate ([`CostFit::Predictive`]),
    /// the other kits' slope is significantly positive too, and the interval is no wider
    /// than the spread of the kits' costs. `false`: "too wide
    /// to act on".
    pub fair_cost_usable: bool,
}

/// A value with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// The value.
    pub value: f64,
    /// Interval low end.
    pub lo: f64,
    /// Interval high end.
    pub hi: f64,
}

/// Whether costs predict win rate: the fair line judged before it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CostFit {
    /// The slope is positive and its 95 % interval excludes 0: kits are judged against it.
    Predictive,
    /// The slope is not positive, or its interval includes 0: costs do not predict win rate
    /// here, and no kit is judged against the line.
    NotPredictive,
    /// Fewer than three priced kits: a line through two points cannot be judged.
    TooFewKits,
    /// Every priced kit has the same cost (two or more kits): no line can be fitted, and costs
    /// cannot tell the kits apart.
    SameCost,
}

/// Cost efficiency: P(win) against cost, with a least-squares fair line judged before use.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostDoc {
    /// Unit of the costs.
    pub unit: String,
    /// Fair line: win rate = intercept + slope × cost (least squares over the priced kits;
    /// NaN with fewer than two distinct costs).
    pub slope: f64,
    /// 95 % interval of the slope (Student's t with n − 2 degrees of freedom on the
    /// residuals; empty `[NaN, NaN]` with fewer than three kits).
    pub slope_ci95: [f64; 2],
    /// Fair line intercept.
    pub intercept: f64,
    /// Whether the line predicts win rate (see [`CostFit`]).
    pub fit: CostFit,
    /// How far a kit may lie from the line and still be fair (probability).
    pub tolerance: f64,
    /// Every priced loadout, in the file's order of fighters.
    pub points: Vec<CostPoint>,
    /// The priced loadouts ranked by residual, most under-priced (gives most for its price)
    /// first; by win rate without a line.
    pub by_residual: Vec<String>,
    /// Loadouts without a cost (neither in the file nor from the rules): left out of the fit.
    pub missing: Vec<String>,
}

/// How one pairing's fights went, both seatings pooled: fight length and lethality.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingDoc {
    /// The fighter listed first in the tournament.
    pub a: String,
    /// The other fighter.
    pub b: String,
    /// Duels, both seatings.
    pub trials: u64,
    /// Mean fight length in rounds.
    pub rounds_mean: f64,
    /// Standard deviation of the fight length.
    pub rounds_sd: f64,
    /// Median fight length (rounds).
    pub rounds_p50: u64,
    /// 90th percentile of the fight length (rounds).
    pub rounds_p90: u64,
    /// Share of fights ending in a death.
    pub death: Est,
    /// Share of fights ending with the loser incapacitated (taken out alive).
    pub incapacitated: Est,
    /// Share of fights ending any other way (yield, lesser wound, exhaustion, round cap).
    pub other: Est,
}

impl PairingDoc {
    fn new(a: &str, b: &str, st: &DuelStats) -> PairingDoc {
        let n = st.trials();
        let (death, incapacitated) = (st.ending(Ending::Death), st.ending(Ending::Incapacitated));
        let r = st.rounds.summary();
        PairingDoc {
            a: a.into(),
            b: b.into(),
            trials: n,
            rounds_mean: r.mean,
            rounds_sd: r.sd,
            rounds_p50: r.p50,
            rounds_p90: r.p90,
            death: Est::new(death, n),
            incapacitated: Est::new(incapacitated, n),
            other: Est::new(n - death - incapacitated, n),
        }
    }
}

/// The result of `[tournament]`. In JSON the matrices (`win`, `exact_win`, `payoff`) and
/// the Nash mix are labelled: objects keyed by the row fighter, then the column fighter
/// (`win.greatsword["sword-shield"]`), in the order of `fighters`; the diagonal is `null`
/// (`0` in `payoff`).
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentDoc {
    /// Display name.
    pub name: String,
    /// Loadouts, in the order given.
    pub fighters: Vec<String>,
    /// Duels per seating of each pair.
    pub trials_per_seating: u64,
    /// `win[i][j]`: P(i beats j), both seatings pooled; `None` on the diagonal.
    pub win: Vec<Vec<Option<Est>>>,
    /// Exact P(i beats j), both seatings averaged, where the ruleset solves the duels.
    pub exact_win: Vec<Vec<Option<f64>>>,
    /// Meta-game payoff P(i wins) − P(i loses) (0 on the diagonal; antisymmetric): from the
    /// exact values when every pairing has one, else from the Monte Carlo counts; the Nash mix
    /// is solved on this matrix.
    pub payoff: Vec<Vec<f64>>,
    /// The Nash mix, one share per loadout.
    pub nash: Vec<f64>,
    /// Standings, best win rate first.
    pub ranking: Vec<RankDoc>,
    /// Fight length and lethality of every pairing (each unordered pair once, in the order
    /// of `fighters`).
    pub pairings: Vec<PairingDoc>,
    /// Cost efficiency (kits without a cost named in it).
    pub costs: Option<CostDoc>,
}

/// A square matrix serialized with its fighters' names: an object
/// keyed by row name whose values are objects keyed by column name.
struct Labelled<'a, T> {
    names: &'a [String],
    rows: &'a [Vec<T>],
}

/// One row of a [`Labelled`] matrix: an object keyed by column name.
struct LabelledRow<'a, T> {
    names: &'a [String],
    cells: &'a [T],
}

impl<T: Serialize> Serialize for LabelledRow<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.cells.len()))?;
        for (name, v) in self.names.iter().zip(self.cells) {
            m.serialize_entry(name, v)?;
        }
        m.end()
    }
}

impl<T: Serialize> Serialize for Labelled<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.rows.len()))?;
        for (name, row) in self.names.iter().zip(self.rows) {
            let row = LabelledRow {
                names: self.names,
                cells: row,
            };
            m.serialize_entry(name, &row)?;
        }
        m.end()
    }
}

impl Serialize for TournamentDoc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let names = &self.fighters[..];
        let mut st = s.serialize_struct("TournamentDoc", 10)?;
        st.serialize_field("name", &self.name)?;
        st.serialize_field("fighters", &self.fighters)?;
        st.serialize_field("trials_per_seating", &self.trials_per_seating)?;
        st.serialize_field(
            "win",
            &Labelled {
                names,
                rows: &self.win,
            },
        )?;
        st.serialize_field(
            "exact_win",
            &Labelled {
                names,
                rows: &self.exact_win,
            },
        )?;
        st.serialize_field(
            "payoff",
            &Labelled {
                names,
                rows: &self.payoff,
            },
        )?;
        st.serialize_field(
            "nash",
            &LabelledRow {
                names,
                cells: &self.nash,
            },
        )?;
        st.serialize_field("ranking", &self.ranking)?;
        st.serialize_field("pairings", &self.pairings)?;
        st.serialize_field("costs", &self.costs)?;
        st.end()
    }
}

/// Results pooled over both seatings of every pair: `wins[i][j]` counts fighter *i*'s wins
/// over *j*, whichever side it fought on.
struct Pooled {
    wins: Vec<Vec<u64>>,
    losses: Vec<Vec<u64>>,
    trials: Vec<Vec<u64>>,
    /// Mean exact P(*i* beats *j*) over the two seatings, where both have an exact value.
    exact: Vec<Vec<Option<f64>>>,
    /// Both seatings of each pair *i* < *j* merged (fight length, endings).
    pairs: Vec<(usize, usize, DuelStats)>,
}

/// Builds the matchup of every ordered pair (*i*, *j*), *i* ≠ *j*, of the tournament's
/// fighters in the order the round robin fights them, one at a time, and hands each to `f`:
/// the run fights it, validation drops it, so what the rules refuse about a pair (a band
/// charging, a band at range) is found by `validate` exactly as the run would meet
/// it, and placed in the file ([`oddsmith_scenario::tournament_pairing_error`]).
pub(crate) fn each_pairing<R: Ruleset>(
    file: &str,
    text: &str,
    s: &Scenario<R>,
    mut f: impl FnMut(usize, usize, R::Matchup) -> Result<(), StudyError>,
) -> Result<(), StudyError> {
    let Some(t) = &s.study.tournament else {
        return Ok(());
    };
    let rules = &s.ruleset;
    // An entry is a fighter or a party (a side's members), compiled as the loader compiles a
    // matchup's side.
    let compiled = t
        .sides
        .iter()
        .map(|side| oddsmith_scenario::compile_side(rules, &s.fighters, side))
        .collect::<Result<Vec<_>, _>>()?;
    let n = t.fighters.len();
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let m = rules
                .matchup(&compiled[i], &compiled[j])
                .map_err(|e| tournament_pairing_error(file, text, &t.fighters, (i, j), &e))?;
            f(i, j, m)?;
        }
    }
    Ok(())
}

/// Fights every fighter against every other in both seatings, `cfg.trials` duels each.
fn round_robin<R: Ruleset>(
    ctx: &Ctx<'_, R>,
    fighters: &[String],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Pooled, StudyError> {
    let rules = &ctx.scenario.ruleset;
    let n = fighters.len();
    let mut p = Pooled {
        wins: vec![vec![0u64; n]; n],
        losses: vec![vec![0u64; n]; n],
        trials: vec![vec![0u64; n]; n],
        exact: vec![vec![Some(0.0f64); n]; n],
        pairs: Vec::new(),
    };
    each_pairing(ctx.file, ctx.text, ctx.scenario, |i, j, m| {
        {
            let st = run_duels(rules, &m, ctx.cfg, progress)?;
            let o = st.outcomes;
            let (lo, hi) = (i.min(j), i.max(j));
            match p.pairs.iter_mut().find(|(a, b, _)| (*a, *b) == (lo, hi)) {
                Some((_, _, merged)) => merged.merge(&st),
                None => p.pairs.push((lo, hi, st.clone())),
            }
            p.wins[i][j] += o.a_wins;
            p.losses[i][j] += o.b_wins;
            p.trials[i][j] += o.total();
            p.wins[j][i] += o.b_wins;
            p.losses[j][i] += o.a_wins;
            p.trials[j][i] += o.total();
            let e = if ctx.exact { rules.exact(&m) } else { None };
            match e {
                Some(e) => {
                    p.exact[i][j] = p.exact[i][j].map(|v| v + e.p_a_win / 2.0);
                    p.exact[j][i] = p.exact[j][i].map(|v| v + e.p_b_win / 2.0);
                }
                None => {
                    p.exact[i][j] = None;
                    p.exact[j][i] = None;
                }
            }
        }
        Ok(())
    })?;
    Ok(p)
}

/// The tournament's matrices (the diagonal empty).
struct Matrices {
    /// Monte Carlo P(*i* beats *j*) with its interval.
    win: Vec<Vec<Option<Est>>>,
    /// Exact P(*i* beats *j*), where known.
    exact_win: Vec<Vec<Option<f64>>>,
    /// The meta-game: exact P(*i* wins) − P(*j* wins) when every pairing has an exact value,
    /// else the pooled Monte Carlo (wins − losses) / trials, antisymmetric by construction.
    payoff: Vec<Vec<f64>>,
}

fn matrices(p: &Pooled) -> Matrices {
    let n = p.wins.len();
    let mut win = vec![vec![None; n]; n];
    let mut exact_win = vec![vec![None; n]; n];
    let mut payoff = vec![vec![0.0; n]; n]; // Monte Carlo
    for i in 0..n {
        for j in 0..n {
            if i != j {
                win[i][j] = Some(Est::new(p.wins[i][j], p.trials[i][j]));
                exact_win[i][j] = p.exact[i][j];
                payoff[i][j] =
                    (p.wins[i][j] as f64 - p.losses[i][j] as f64) / p.trials[i][j] as f64;
            }
        }
    }
    let all_exact = (0..n).all(|i| (0..n).all(|j| i == j || exact_win[i][j].is_some()));
    if all_exact {
        payoff = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        if i == j {
                            0.0
                        } else {
                            exact_win[i][j].unwrap() - exact_win[j][i].unwrap()
                        }
                    })
                    .collect()
            })
            .collect();
    }
    Matrices {
        win,
        exact_win,
        payoff,
    }
}

/// Runs the scenario's `[tournament]`: n·(n−1) matchups of `cfg.trials` duels each.
pub fn run_tournament<R: Ruleset>(
    ctx: &Ctx<'_, R>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Option<TournamentDoc>, StudyError> {
    let Some(t) = &ctx.scenario.study.tournament else {
        return Ok(None);
    };
    let n = t.fighters.len();
    let p = round_robin(ctx, &t.fighters, progress)?;
    let Matrices {
        win,
        exact_win,
        payoff: game,
    } = matrices(&p);
    let nash = solve_zero_sum(&game)?.row;
    let dominated = strictly_dominated(&game)?;
    let mut ranking: Vec<RankDoc> = (0..n)
        .map(|i| {
            let (w, l, tr) = (0..n).fold((0, 0, 0), |(w, l, tr), j| {
                (w + p.wins[i][j], l + p.losses[i][j], tr + p.trials[i][j])
            });
            let exact_win_rate = (0..n)
                .filter(|&j| j != i)
                .map(|j| exact_win[i][j])
                .sum::<Option<f64>>()
                .map(|sum| sum / (n - 1).max(1) as f64);
            RankDoc {
                fighter: t.fighters[i].clone(),
                win_rate: Est::new(w, tr),
                exact_win_rate,
                loss_rate: l as f64 / tr as f64,
                nash_share: nash[i],
                dominated: dominated[i],
                // The same rule as `strictly_dominated`: better against every column.
                dominated_by: (0..n)
                    .filter(|&k| k != i && (0..n).all(|j| game[k][j] > game[i][j]))
                    .map(|k| t.fighters[k].clone())
                    .collect(),
            }
        })
        .collect();
    let costs = cost_doc(
        ctx,
        &t.fighters,
        (&t.costs, t.cost_unit.as_deref()),
        t.fair_tolerance,
        &ranking,
    );
    let mut pairs = p.pairs;
    pairs.sort_by_key(|&(a, b, _)| (a, b));
    let pairings = pairs
        .iter()
        .map(|(a, b, st)| PairingDoc::new(&t.fighters[*a], &t.fighters[*b], st))
        .collect();
    ranking.sort_by(|a, b| b.spoken().value().total_cmp(&a.spoken().value()));
    Ok(Some(TournamentDoc {
        name: t.name.clone(),
        fighters: t.fighters.clone(),
        trials_per_seating: ctx.cfg.trials,
        win,
        exact_win,
        payoff: game,
        nash,
        ranking,
        pairings,
        costs,
    }))
}

fn cost_doc<R: Ruleset>(
    ctx: &Ctx<'_, R>,
    fighters: &[String],
    (given, file_unit): (&std::collections::BTreeMap<String, f64>, Option<&str>),
    tolerance: f64,
    ranking: &[RankDoc],
) -> Option<CostDoc> {
    let mut unit: Option<String> = file_unit.map(str::to_string);
    // (index, cost, source) of every priced kit; the rest are named as missing.
    let mut priced = Vec::new();
    let mut missing = Vec::new();
    for (i, f) in fighters.iter().enumerate() {
        if let Some(&c) = given.get(f) {
            priced.push((i, c, "file".to_string()));
        } else if let Some((c, u)) = ctx.scenario.study.tournament.as_ref().and_then(|t| {
            let side = t.sides.get(t.fighters.iter().position(|g| g == f)?)?;
            oddsmith_scenario::side_cost(&ctx.scenario.ruleset, &ctx.scenario.fighters, side)
        }) {
            unit.get_or_insert_with(|| u.to_string());
            priced.push((i, c, format!("{} rules", R::ID)));
        } else {
            missing.push(f.clone());
        }
    }
    if priced.is_empty() {
        // No kit priced: say so (the report tells how to add costs).
        return Some(CostDoc {
            unit: unit.unwrap_or_else(|| "points".into()),
            slope: f64::NAN,
            slope_ci95: [f64::NAN; 2],
            intercept: f64::NAN,
            fit: CostFit::TooFewKits,
            tolerance,
            points: Vec::new(),
            by_residual: Vec::new(),
            missing,
        });
    }
    let rates: Vec<(Est, Option<f64>)> = priced
        .iter()
        .map(|p| (ranking[p.0].win_rate, ranking[p.0].exact_win_rate))
        .collect();
    let spoken: Vec<Spoken> = rates.iter().map(|(w, e)| win_rate_spoken(w, *e)).collect();
    let xs: Vec<f64> = priced.iter().map(|p| p.1).collect();
    let ys: Vec<f64> = spoken.iter().map(Spoken::value).collect();
    let fit = fit_line(&xs, &ys);
    let (slope, intercept, slope_ci95, judged) = match fit {
        Some(l) => (l.slope, l.intercept, l.slope_ci95, l.judge()),
        // Two or more kits and no line: they all cost the same.
        None if xs.len() >= 2 => (f64::NAN, f64::NAN, [f64::NAN; 2], CostFit::SameCost),
        None => (f64::NAN, f64::NAN, [f64::NAN; 2], CostFit::TooFewKits),
    };
    let spread = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        - xs.iter().copied().fold(f64::INFINITY, f64::min);
    let var_ys: Vec<f64> = spoken
        .iter()
        .map(|sp| sp.figure.half_width.powi(2) / (Z95 * Z95))
        .collect();
    let points: Vec<CostPoint> = priced
        .iter()
        .zip(rates.iter().zip(&spoken))
        .enumerate()
        .map(|(k, ((i, cost, source), (&(w, exact), sp)))| {
            let fair = fit.map(|l| l.intercept + l.slope * cost);
            let loo = fair_cost(k, &xs, &ys, &var_ys);
            let residual = fair.map(|f| sp.value() - f);
            let predictive = judged == CostFit::Predictive;
            CostPoint {
                fighter: fighters[*i].clone(),
                cost: *cost,
                source: source.clone(),
                win_rate: w,
                exact_win_rate: exact,
                fair,
                residual,
                verdict: fair
                    .filter(|_| predictive)
                    .map(|f| price_verdict(sp, f, tolerance).to_string()),
                fair_cost_usable: predictive
                    && loo
                        .as_ref()
                        .is_some_and(|f| f.slope_significant && f.cost.hi - f.cost.lo <= spread),
                fair_cost: loo.map(|f| f.cost),
            }
        })
        .collect();
    // Most under-priced first; without a line, by win rate (the exact one where known).
    let mut order: Vec<&CostPoint> = points.iter().collect();
    order.sort_by(|a, b| {
        let key = |p: &CostPoint| {
            p.residual
                .unwrap_or(p.exact_win_rate.unwrap_or(p.win_rate.p))
        };
        key(b).total_cmp(&key(a))
    });
    let by_residual = order.iter().map(|p| p.fighter.clone()).collect();
    Some(CostDoc {
        unit: unit.unwrap_or_else(|| "points".into()),
        slope,
        slope_ci95,
        intercept,
        fit: judged,
        tolerance,
        points,
        by_residual,
        missing,
    })
}

const Z95: f64 = 1.959_963_984_540_054;

/// A kit's fair cost judged by the line through the other kits (see [`CostPoint::fair_cost`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FairCost {
    /// The cost at which the other kits' line predicts this kit's win rate, with its interval.
    pub cost: Interval,
    /// This kit's win rate minus the other kits' line at its cost.
    pub residual: f64,
    /// Whether the other kits' slope interval lies wholly above 0.
    pub slope_significant: bool,
}

/// The fair cost of kit `k` of the priced kits (costs `xs`, win rates `ys` with Monte Carlo
/// variances `var_ys`, 0 where exact), leave-one-out: the line is fitted to the other kits
/// only. With the other kits' line `y = a + b·x` over `m` kits (residual variance `s²` on
/// `m − 2` degrees of freedom), `c* = (y_k − a)/b` and, by the delta method,
/// `Var c* ≈ [Var y_k + s²(1/m + (c* − x̄)²/Sxx)] / b²`; the interval is
/// `c* ± t(m − 2)·√Var c*`. `None` with fewer than three other kits, other kits all at one
/// cost, or a line that does not rise.
pub fn fair_cost(k: usize, xs: &[f64], ys: &[f64], var_ys: &[f64]) -> Option<FairCost> {
    let ox: Vec<f64> = xs
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != k)
        .map(|(_, v)| *v)
        .collect();
    let oy: Vec<f64> = ys
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != k)
        .map(|(_, v)| *v)
        .collect();
    let m = ox.len();
    if m < 3 {
        return None;
    }
    let line = fit_line(&ox, &oy)?;
    let (a, b) = (line.intercept, line.slope);
    if b <= 0.0 {
        return None;
    }
    let mf = m as f64;
    let mx = ox.iter().sum::<f64>() / mf;
    let sxx: f64 = ox.iter().map(|v| (v - mx).powi(2)).sum();
    let rss: f64 = ox
        .iter()
        .zip(&oy)
        .map(|(x, y)| (y - a - b * x).powi(2))
        .sum();
    let s2 = rss / (mf - 2.0);
    let c = (ys[k] - a) / b;
    let var = (var_ys[k] + s2 * (1.0 / mf + (c - mx).powi(2) / sxx)) / (b * b);
    let half = t_975(m - 2) * var.max(0.0).sqrt();
    Some(FairCost {
        cost: Interval {
            value: c,
            lo: c - half,
            hi: c + half,
        },
        residual: ys[k] - (a + b * xs[k]),
        slope_significant: line.judge() == CostFit::Predictive,
    })
}

/// A kit's price judged against the line from its win rate as it speaks: the same rule as
/// every verdict (the interval excludes the line *and* the distance is at least the
/// tolerance; an exact win rate has an interval of width 0), "fair" within the tolerance,
/// "unclear" otherwise.
fn price_verdict(w: &Spoken, fair: f64, tolerance: f64) -> &'static str {
    let f = &w.figure;
    let residual = f.diff - fair;
    if residual.abs() < tolerance {
        "fair"
    } else if f.lo > fair {
        "under-priced"
    } else if f.hi < fair {
        "over-priced"
    } else {
        "unclear"
    }
}

/// A least-squares line with its slope's 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// Slope.
    pub slope: f64,
    /// Intercept.
    pub intercept: f64,
    /// 95 % interval of the slope (NaN with fewer than three points).
    pub slope_ci95: [f64; 2],
}

impl Line {
    /// Predictive when the slope's interval lies wholly above 0; too few kits without an
    /// interval.
    pub fn judge(&self) -> CostFit {
        let [lo, _] = self.slope_ci95;
        if lo.is_nan() {
            CostFit::TooFewKits
        } else if self.slope > 0.0 && lo > 0.0 {
            CostFit::Predictive
        } else {
            CostFit::NotPredictive
        }
    }
}

/// Least squares of y on x with the slope's 95 % interval (Student's t, n − 2 degrees of
/// freedom, from the residuals); `None` if x has no spread.
pub fn fit_line(x: &[f64], y: &[f64]) -> Option<Line> {
    let (slope, intercept) = least_squares(x, y)?;
    let n = x.len();
    let slope_ci95 = if n >= 3 {
        let mx = x.iter().sum::<f64>() / n as f64;
        let sxx: f64 = x.iter().map(|v| (v - mx).powi(2)).sum();
        let rss: f64 = x
            .iter()
            .zip(y)
            .map(|(a, b)| (b - intercept - slope * a).powi(2))
            .sum();
        let se = (rss / (n - 2) as f64 / sxx).sqrt();
        let t = t_975(n - 2);
        [slope - t * se, slope + t * se]
    } else {
        [f64::NAN; 2]
    };
    Some(Line {
        slope,
        intercept,
        slope_ci95,
    })
}

/// The 97.5 % quantile of Student's t with `df` degrees of freedom (df ≥ 1).
fn t_975(df: usize) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    StudentsT::new(0.0, 1.0, df as f64)
        .map(|t| t.inverse_cdf(0.975))
        .unwrap_or(f64::NAN)
}

/// Ordinary least squares of y on x; `None` if x has no spread.
pub fn least_squares(x: &[f64], y: &[f64]) -> Option<(f64, f64)> {
    let n = x.len() as f64;
    if x.len() < 2 {
        return None;
    }
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxx: f64 = x.iter().map(|v| (v - mx).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let slope = sxy / sxx;
    Some((slope, my - slope * mx))
}
