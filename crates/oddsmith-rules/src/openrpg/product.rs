//! The Open RPG exact solver as a product of the two fighters' health distributions, for the
//! matchups where no turn's outcome changes anything but health ([`factors`]: every outcome of
//! a turn table leaves the same recovery and the same lost turn).
//!
//! There a step's successor flag word (everything but health and round, [`flags`]) does not
//! depend on the outcome, so the flags follow one path per initiative draw, and an attack
//! changes the defender's health alone, by a damage drawn independently of both healths. Along
//! one path the mass of health `[a, b]` (both alive) is then `w · u[a] · v[b]`: the path's
//! probability times A's and B's health distributions, each moved on by its attacker's
//! damage kernel as though nobody died (a death only removes mass, and the live cells never
//! receive mass from a dead one). An attack on B costs one convolution of `v`, not of the whole
//! grid; the deaths are `w · Σu · Σ_b v[b] · P(damage ≥ b)`. The transitions are
//! [`super::duel::advance`]'s own ([`begin`], then [`apply`] on a representative state for the
//! successor's flags), as in [`super::grid::solve`], which it is tested against on every
//! bundled matchup that factors.
//!
//! No cell is pruned (a product has no cell to drop), so the truncated mass is the live mass
//! at the end. The grid solver's budgets are kept as counts of the cells it would hold: the
//! live cells are those of mass at least [`PRUNE_MASS`], its work the outcome emissions per
//! defender health over them, so `None` comes where the grid solver's would (up to the mass
//! its pruning drops).

use super::OpenRpg;
use super::duel::{Choice, MAX_GRID, PRUNE_MASS, State, Turn, apply, choices, flags, unflag};
use super::fighter::{Matchup, Table};
use crate::solver::{MAX_LIVE_STATES, MAX_WORK, NEGLIGIBLE_MASS};
use crate::{ExactDuel, Ruleset, Step};

/// Whether the matchup's duel factors: every outcome of each turn table leaves the same
/// recovery rounds and the same lost turn, so no outcome changes anything but health (no full
/// dodge, no recovery that depends on the attack).
pub fn factors(m: &Matchup) -> bool {
    let ranged = m.ranged.iter().flatten().flatten().flatten();
    m.turns.iter().flatten().flatten().chain(ranged).all(|t| {
        t.outcomes.windows(2).all(|w| {
            w[0].recovery == w[1].recovery && w[0].defender_loses_turn == w[1].defender_loses_turn
        })
    })
}

/// One flag path: its flag word, its probability and each side's health distribution
/// (`hp[i][h]`: health `h + 1`).
struct Path {
    flags: u32,
    weight: f64,
    hp: [Vec<f64>; 2],
}

impl Path {
    fn mass(&self) -> f64 {
        self.weight * sum(&self.hp[0]) * sum(&self.hp[1])
    }
}

/// The exact duel as a product of health distributions (see the module doc); `None` when the
/// matchup does not [`factor`](factors), or where the grid solver would give up too: beyond
/// [`MAX_LIVE_STATES`] live cells, a grid of [`MAX_GRID`] cells or [`MAX_WORK`] of its
/// emissions, or when asked to stop ([`crate::solver::with_stop`]).
pub fn solve(rules: &OpenRpg, m: &Matchup) -> Option<ExactDuel> {
    if !factors(m) {
        return None;
    }
    let max_rounds = rules.max_rounds();
    let mut p = [0.0f64; 3];
    let mut pmf = vec![0.0; max_rounds as usize + 1];
    let last = pmf.len() - 1;
    let health = [m.health[0].max(1) as usize, m.health[1].max(1) as usize];
    if health[0] * health[1] > MAX_GRID {
        return None;
    }
    let start = rules.start(m);
    let mut hp = [vec![0.0; health[0]], vec![0.0; health[1]]];
    for (v, &h) in hp.iter_mut().zip(&start.hp) {
        v[(h - 1) as usize] = 1.0;
    }
    let mut paths = vec![Path {
        flags: flags(&start),
        weight: 1.0,
        hp,
    }];
    let mut round = start.round;
    let mut mass = 1.0;
    let mut work = 0u64;
    let mut kernel = Kernel::default();
    let mut sorted = Vec::new();
    let mut out = Vec::new();
    while !paths.is_empty() && mass >= NEGLIGIBLE_MASS {
        let mut next_round = round;
        let mut next = Vec::with_capacity(paths.len());
        for mut path in std::mem::take(&mut paths) {
            if crate::solver::stop_requested() {
                return None;
            }
            // Health is not read before the turn's outcome: a representative state.
            let s = unflag(path.flags, [i32::MAX; 2], round);
            for c in choices(m, max_rounds, s) {
                // The last choice takes the distributions, the others copy them.
                let more = !c.last();
                let Choice { s: s2, turn, f } = c;
                next_round = s2.round;
                let weight = path.weight * f.p;
                let take = |path: &mut Path| {
                    if more {
                        path.hp.clone()
                    } else {
                        std::mem::take(&mut path.hp)
                    }
                };
                match turn {
                    Turn::Done(Step::Continue) => next.push(Path {
                        flags: flags(&s2),
                        weight,
                        hp: take(&mut path),
                    }),
                    Turn::Done(Step::Over(winner, _)) => {
                        let q = weight * sum(&path.hp[0]) * sum(&path.hp[1]);
                        p[winner as usize] += q;
                        pmf[(s2.round as usize).min(last)] += q;
                    }
                    Turn::Attack { x, table } => {
                        let y = 1 - x;
                        work += emissions(&path, x, table, &mut sorted);
                        let mut hp = take(&mut path);
                        kernel.build(table, health[y]);
                        let dead = kernel.apply(&mut hp[y], &mut out, table.limb);
                        if dead != 0.0 {
                            let q = weight * sum(&hp[x]) * dead;
                            p[x] += q;
                            pmf[(s2.round as usize).min(last)] += q;
                        }
                        next.push(Path {
                            flags: successor(&s2, x, table),
                            weight,
                            hp,
                        });
                    }
                }
            }
        }
        if work > MAX_WORK {
            return None;
        }
        round = next_round;
        mass = 0.0;
        let mut live_cells = 0usize;
        next.retain(|path| {
            let m = path.mass();
            mass += m;
            live_cells += cells(path, &mut sorted);
            m > 0.0
        });
        paths = next;
        if live_cells > MAX_LIVE_STATES {
            return None;
        }
    }
    Some(ExactDuel::from_pmf(p, pmf, mass))
}

/// The flag word after any outcome of `x`'s turn from `s` (they all lead to the same one when
/// the matchup [`factors`]): [`apply`] on a state with full-range health.
fn successor(s: &State, x: usize, table: &Table) -> u32 {
    let mut s3 = *s;
    s3.hp = [i32::MAX; 2];
    apply(&mut s3, x, table, table.outcomes[0], &mut crate::NoTally);
    flags(&s3)
}

/// A turn table's damage to a defender of `n` health levels: `k[d]` the probability of damage
/// `d` (below `n`; a negative damage is 0), `tail[h]` that of a damage above `h` (one that
/// takes health `h + 1` to 0 or below).
#[derive(Default)]
struct Kernel {
    k: Vec<f64>,
    tail: Vec<f64>,
}

impl Kernel {
    fn build(&mut self, table: &Table, n: usize) {
        self.k.clear();
        self.k.resize(n, 0.0);
        let mut beyond = 0.0;
        for (o, &q) in table.outcomes.iter().zip(&table.probs) {
            match self.k.get_mut(o.damage.max(0) as usize) {
                Some(k) => *k += q,
                None => beyond += q,
            }
        }
        self.tail.clear();
        self.tail.resize(n, 0.0);
        let mut acc = beyond;
        for h in (0..n).rev() {
            self.tail[h] = acc;
            acc += self.k[h];
        }
    }

    /// Moves the defender's health distribution `v` on by one attack (`out` is scratch):
    /// `v'[j] = Σ_d k[d] · v[j + d]`; returns the mass the damage kills, or, for a limb hit
    /// (`limb`: at least 1 health left), puts it on health 1 and returns 0.
    fn apply(&self, v: &mut Vec<f64>, out: &mut Vec<f64>, limb: bool) -> f64 {
        let n = v.len();
        out.clear();
        out.resize(n, 0.0);
        let Some(lo) = v.iter().position(|&x| x != 0.0) else {
            return 0.0;
        };
        let hi = v.iter().rposition(|&x| x != 0.0).map_or(lo, |i| i + 1);
        for (d, &kd) in self.k.iter().enumerate().take(hi) {
            if kd == 0.0 {
                continue;
            }
            let from = lo.max(d);
            for (o, &x) in out[from - d..hi - d].iter_mut().zip(&v[from..hi]) {
                *o += kd * x;
            }
        }
        let beyond: f64 = v[lo..hi]
            .iter()
            .zip(&self.tail[lo..hi])
            .map(|(x, t)| x * t)
            .sum();
        std::mem::swap(v, out);
        if limb {
            v[0] += beyond;
            0.0
        } else {
            beyond
        }
    }
}

/// The sum of a distribution.
fn sum(v: &[f64]) -> f64 {
    v.iter().sum()
}

/// The non-zero entries of `v`, largest first, in `sorted`.
fn sort_desc(v: &[f64], sorted: &mut Vec<f64>) {
    sorted.clear();
    sorted.extend(v.iter().copied().filter(|&x| x != 0.0));
    sorted.sort_unstable_by(|a, b| b.total_cmp(a));
}

/// How many of the cells `w · u[a] · v[b]` (`u` sorted largest first) a row `v[b]` holds of
/// mass at least [`PRUNE_MASS`].
fn heavy(w: f64, u: &[f64], vb: f64) -> usize {
    let t = w * vb;
    u.partition_point(|&ua| t * ua >= PRUNE_MASS)
}

/// The cells of `path` the grid solver would keep live: mass at least [`PRUNE_MASS`].
fn cells(path: &Path, sorted: &mut Vec<f64>) -> usize {
    sort_desc(&path.hp[0], sorted);
    path.hp[1]
        .iter()
        .filter(|&&vb| vb != 0.0)
        .map(|&vb| heavy(path.weight, sorted, vb))
        .sum()
}

/// The grid solver's work for `x`'s attack on `path`: per defender health, its live cells
/// times the outcomes that leave the defender alive, plus one.
fn emissions(path: &Path, x: usize, table: &Table, sorted: &mut Vec<f64>) -> u64 {
    let y = 1 - x;
    sort_desc(&path.hp[x], sorted);
    let mut work = 0u64;
    for (h, &vh) in path.hp[y].iter().enumerate() {
        if vh == 0.0 {
            continue;
        }
        let k = if table.limb {
            table.outcomes.len()
        } else {
            table.outcomes.partition_point(|o| o.damage <= h as i32)
        };
        work += heavy(path.weight, sorted, vh) as u64 * (k as u64 + 1);
    }
    work
}
