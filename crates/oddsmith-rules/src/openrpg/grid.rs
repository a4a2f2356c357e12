//! The Open RPG exact solver over whole health grids: the live states of one iteration are a
//! dense grid of probability (A's health × B's health) per flag word (everything but health and
//! round, [`flags`]), and each step applies the turn it takes to a whole grid at once.
//!
//! A step's turn ([`begin`]) reads no health, so every cell of a grid takes the same turn: a
//! round start or skipped turn moves the grid (scaled by the initiative's probability) to its
//! successor's flag word; an attack adds, per distinct (damage, successor flag word) of the
//! turn table, the grid shifted by the damage along the defender's health and scaled by the
//! outcome's probability (one multiply-add per cell over the written box, no per-state work);
//! the cells whose health the damage takes to 0 or below die, summed per defender health
//! against the table's tail. The transitions are [`advance`]'s own ([`begin`], then [`apply`]
//! on a representative state for the successor's flags), so this is the state-by-state solver
//! ([`super::duel::solve`]) with its sums in another order: the tests compare the two on every
//! bundled matchup.

use super::OpenRpg;
use super::attack::TurnOutcome;
use super::duel::{Choice, MAX_GRID, PRUNE_MASS, State, Turn, apply, choices, flags, unflag};
use crate::solver::{MAX_LIVE_STATES, MAX_WORK, NEGLIGIBLE_MASS};
use crate::{ExactDuel, Ruleset, Step};

use super::fighter::Matchup;

/// One flag word's health grid: cell `(a − 1) · w + (b − 1)` holds the mass of health
/// `[a, b]`; only the box `rows × cols` (cell indices) may be non-zero.
struct Plane {
    flags: u32,
    cells: Vec<f64>,
    rows: (usize, usize),
    cols: (usize, usize),
}

impl Plane {
    fn is_empty(&self) -> bool {
        self.rows.0 >= self.rows.1 || self.cols.0 >= self.cols.1
    }
    /// Widens the box to cover `rows × cols`.
    fn cover(&mut self, rows: (usize, usize), cols: (usize, usize)) {
        if rows.0 >= rows.1 || cols.0 >= cols.1 {
            return;
        }
        if self.is_empty() {
            (self.rows, self.cols) = (rows, cols);
        } else {
            self.rows = (self.rows.0.min(rows.0), self.rows.1.max(rows.1));
            self.cols = (self.cols.0.min(cols.0), self.cols.1.max(cols.1));
        }
    }
}

/// The live grids of one iteration and spare zeroed buffers.
struct Planes {
    cells: usize,
    live: Vec<Plane>,
    spare: Vec<Vec<f64>>,
}

impl Planes {
    /// The index of the plane of `flags`, made (empty) if there is none.
    fn get(&mut self, flags: u32) -> usize {
        if let Some(i) = self.live.iter().position(|p| p.flags == flags) {
            return i;
        }
        let cells = self
            .spare
            .pop()
            .unwrap_or_else(|| vec![0.0; self.cells + LANES]);
        self.live.push(Plane {
            flags,
            cells,
            rows: (0, 0),
            cols: (0, 0),
        });
        self.live.len() - 1
    }
}

/// The successors of an attack with one flag word: `k[d]` is the probability of the outcomes
/// of damage `d` that lead there (`d` below the defender's starting health), `beyond` that of
/// the larger ones.
struct Kernel {
    dest: u32,
    k: Vec<f64>,
    beyond: f64,
}

/// The exact duel over whole health grids (see the module doc); `None` when the state-by-state
/// solver would give up too: beyond [`MAX_LIVE_STATES`] live states, a grid of [`MAX_GRID`]
/// cells or [`MAX_WORK`] of its emissions, or when asked to stop
/// ([`crate::solver::with_stop`]).
pub fn solve(rules: &OpenRpg, m: &Matchup) -> Option<ExactDuel> {
    let max_rounds = rules.max_rounds();
    let mut p = [0.0f64; 3];
    let mut pmf = vec![0.0; max_rounds as usize + 1];
    let last = pmf.len() - 1;
    let health = [m.health[0].max(1) as usize, m.health[1].max(1) as usize];
    let w = health[1];
    let cells = health[0] * w;
    if cells > MAX_GRID {
        return None;
    }
    let start = rules.start(m);
    let mut cur = Planes {
        cells,
        live: Vec::new(),
        spare: Vec::new(),
    };
    let mut next = Planes {
        cells,
        live: Vec::new(),
        spare: Vec::new(),
    };
    let first = cur.get(flags(&start));
    let (a, b) = ((start.hp[0] - 1) as usize, (start.hp[1] - 1) as usize);
    cur.live[first].cells[a * w + b] = 1.0;
    cur.live[first].cover((a, a + 1), (b, b + 1));
    let mut round = start.round;
    let mut mass = 1.0;
    let mut pruned = 0.0;
    let mut work = 0u64;
    // Per defender health (index h − 1): the mass and the number of live cells of a grid.
    let mut margin = vec![0.0f64; health[0].max(health[1])];
    let mut counts = vec![0u64; margin.len()];
    let mut kernels: Vec<Kernel> = Vec::new();
    let mut scratch = vec![0.0f64; health[0].max(health[1]) + LANES];
    while !cur.live.is_empty() && mass >= NEGLIGIBLE_MASS {
        let mut next_round = round;
        cur.live.sort_unstable_by_key(|g| g.flags);
        for src in std::mem::take(&mut cur.live) {
            if crate::solver::stop_requested() {
                return None;
            }
            // Health is not read before the turn's outcome: a representative state.
            let s = unflag(src.flags, [i32::MAX; 2], round);
            let mut src = Some(src);
            for Choice { s: s2, turn, f } in choices(m, max_rounds, s) {
                next_round = s2.round;
                let g = src.as_ref().expect("a grid until it is moved");
                match turn {
                    Turn::Done(Step::Continue) => {
                        let d = next.get(flags(&s2));
                        if f.n == 0 && next.live[d].is_empty() {
                            // The whole grid moves on unchanged: hand its buffer over.
                            let mut g = src.take().expect("a grid");
                            let spare = std::mem::replace(&mut next.live[d].cells, g.cells);
                            g.cells = spare;
                            next.live[d].rows = g.rows;
                            next.live[d].cols = g.cols;
                            next.spare.push(g.cells);
                            break;
                        }
                        add_scaled(&mut next.live[d], g, w, f.p);
                    }
                    Turn::Done(Step::Over(winner, _)) => {
                        let total = grid_mass(g, w);
                        p[winner as usize] += f.p * total;
                        pmf[(s2.round as usize).min(last)] += f.p * total;
                    }
                    Turn::Attack { x, table } => {
                        let y = 1 - x;
                        let n = health[y];
                        // The successors by flag word, each with its damage kernel.
                        let mut used = 0;
                        for (o, &q) in table.outcomes.iter().zip(&table.probs) {
                            let dest = successor(&s2, x, table, *o);
                            let i = match kernels[..used].iter().position(|k| k.dest == dest) {
                                Some(i) => i,
                                None => {
                                    if used == kernels.len() {
                                        kernels.push(Kernel {
                                            dest,
                                            k: Vec::new(),
                                            beyond: 0.0,
                                        });
                                    }
                                    let k = &mut kernels[used];
                                    k.dest = dest;
                                    k.k.clear();
                                    k.k.resize(n, 0.0);
                                    k.beyond = 0.0;
                                    used += 1;
                                    used - 1
                                }
                            };
                            let d = o.damage.max(0) as usize;
                            match kernels[i].k.get_mut(d) {
                                Some(k) => *k += q,
                                None => kernels[i].beyond += q,
                            }
                        }
                        // The defender's health margin: the deaths and the old solver's work.
                        margins(g, w, y, &mut margin[..n], &mut counts[..n]);
                        let mut dead = 0.0;
                        for h in 0..n {
                            if counts[h] == 0 && margin[h] == 0.0 {
                                continue;
                            }
                            let hp = h as i32 + 1;
                            let k = if table.limb {
                                table.outcomes.len()
                            } else {
                                table.outcomes.partition_point(|o| o.damage < hp)
                            };
                            work += counts[h] * (k as u64 + 1);
                            if k < table.outcomes.len() {
                                dead += margin[h] * table.tail[k];
                            }
                        }
                        if dead != 0.0 {
                            p[x] += f.p * dead;
                            pmf[(s2.round as usize).min(last)] += f.p * dead;
                        }
                        for kernel in &mut kernels[..used] {
                            for k in &mut kernel.k {
                                *k *= f.p;
                            }
                            kernel.beyond *= f.p;
                            let d = next.get(kernel.dest);
                            let dest = &mut next.live[d];
                            if y == 1 {
                                shift_cols(dest, g, w, &kernel.k, &mut scratch);
                            } else {
                                shift_rows(dest, g, w, &kernel.k);
                            }
                            if table.limb {
                                clamp_to_one(dest, g, w, y, kernel, &mut scratch);
                            }
                        }
                    }
                }
            }
            if let Some(mut g) = src {
                clear(&mut g, w);
                cur.spare.push(g.cells);
            }
        }
        if work > MAX_WORK {
            return None;
        }
        // The successors become the live grids; cells lighter than PRUNE_MASS are dropped.
        round = next_round;
        std::mem::swap(&mut cur, &mut next);
        next.spare.append(&mut cur.spare);
        mass = 0.0;
        let mut live_states = 0usize;
        let mut kept = Vec::with_capacity(cur.live.len());
        for mut g in std::mem::take(&mut cur.live) {
            let (m, n) = prune(&mut g, w, &mut pruned);
            mass += m;
            live_states += n;
            if g.is_empty() {
                next.spare.push(g.cells);
            } else {
                kept.push(g);
            }
        }
        cur.live = kept;
        if live_states > MAX_LIVE_STATES {
            return None;
        }
    }
    let truncated = mass + pruned;
    Some(ExactDuel::from_pmf(p, pmf, truncated))
}

/// The flag word after `x`'s outcome `o` from `s` (its health is not read: [`apply`] on a
/// state with full-range health).
fn successor(s: &State, x: usize, table: &super::fighter::Table, o: TurnOutcome) -> u32 {
    let mut s3 = *s;
    s3.hp = [i32::MAX; 2];
    apply(&mut s3, x, table, o, &mut crate::NoTally);
    flags(&s3)
}

/// Adds `k ×` grid `g` into `dest`.
fn add_scaled(dest: &mut Plane, g: &Plane, w: usize, k: f64) {
    if g.is_empty() {
        return;
    }
    let (rows, cols) = (g.rows, g.cols);
    dest.cover(rows, cols);
    for r in rows.0..rows.1 {
        let (s, d) = (&g.cells[r * w..][cols.0..cols.1], &mut dest.cells[r * w..]);
        axpy(&mut d[cols.0..cols.1], s, k);
    }
}

/// Cells a kernel computes at once (kept in registers).
const LANES: usize = 8;

/// B's health falls: `dest[a][b] += Σ_d k[d] · g[a][b + d]` (the cells the damage takes to
/// 0 or below are dropped: they died). Row by row over the row's non-zero cells, eight cells
/// at a time, from a zero-padded copy of the row in `scratch` (`w + LANES` long).
fn shift_cols(dest: &mut Plane, g: &Plane, w: usize, k: &[f64], scratch: &mut [f64]) {
    if g.is_empty() {
        return;
    }
    let (rows, (c0, c1)) = (g.rows, g.cols);
    // Damage of c1 or more takes every cell to 0.
    let k = &k[..k.len().min(c1)];
    dest.cover(rows, (c0.saturating_sub(k.len() - 1), c1));
    for r in rows.0..rows.1 {
        let row = &g.cells[r * w..][c0..c1];
        let Some(a) = row.iter().position(|&v| v != 0.0) else {
            continue;
        };
        let b = row.iter().rposition(|&v| v != 0.0).map_or(0, |i| i + 1);
        let (a, b) = (c0 + a, c0 + b);
        scratch[..w + LANES].fill(0.0);
        scratch[a..b].copy_from_slice(&g.cells[r * w..][a..b]);
        let out = &mut dest.cells[r * w..r * w + w];
        let k = &k[..k.len().min(b)];
        let mut j = a.saturating_sub(k.len() - 1);
        while j < b {
            let mut acc = [0.0f64; LANES];
            // Only d with j + d + LANES > a and j + d < b read non-zero cells.
            let from = (a + 1).saturating_sub(j + LANES);
            for (d, &kd) in k.iter().enumerate().take(b - j).skip(from) {
                let s = &scratch[j + d..j + d + LANES];
                for (a, &v) in acc.iter_mut().zip(s) {
                    *a += kd * v;
                }
            }
            for (o, a) in out[j..b.min(j + LANES)].iter_mut().zip(acc) {
                *o += a;
            }
            j += LANES;
        }
    }
}

/// A's health falls: `dest[a][b] += Σ_d k[d] · g[a + d][b]` (the cells the damage takes to
/// 0 or below are dropped). Eight columns at a time over the rows where they are not all
/// zero, so the block stays in the cache (the grids are `LANES` cells longer than the health
/// grid, for the last block's reads).
fn shift_rows(dest: &mut Plane, g: &Plane, w: usize, k: &[f64]) {
    if g.is_empty() {
        return;
    }
    let ((r0, r1), (c0, c1)) = (g.rows, g.cols);
    let k = &k[..k.len().min(r1)];
    dest.cover((r0.saturating_sub(k.len() - 1), r1), (c0, c1));
    let mut j = c0;
    while j < c1 {
        let lanes = (c1 - j).min(LANES);
        let block = |r: usize| g.cells[r * w + j..][..lanes].iter().any(|&v| v != 0.0);
        let Some(ra) = (r0..r1).find(|&r| block(r)) else {
            j += LANES;
            continue;
        };
        let rb = (ra..r1).rev().find(|&r| block(r)).map_or(ra, |r| r + 1);
        let k = &k[..k.len().min(rb)];
        for t in ra.saturating_sub(k.len() - 1)..rb {
            let mut acc = [0.0f64; LANES];
            for (d, &kd) in k.iter().enumerate().take(rb - t).skip(ra.saturating_sub(t)) {
                let s = &g.cells[(t + d) * w + j..][..LANES];
                for (a, &v) in acc.iter_mut().zip(s) {
                    *a += kd * v;
                }
            }
            for (o, a) in dest.cells[t * w + j..][..lanes].iter_mut().zip(acc) {
                *o += a;
            }
        }
        j += LANES;
    }
}

/// A limb hit leaves at least 1 health: the cells of side `y`'s health `h` that damage of `h`
/// or more would kill land on health 1 instead (the shift kept those the damage takes to
/// exactly 1). `scratch` holds the kernel's tail sums.
fn clamp_to_one(
    dest: &mut Plane,
    g: &Plane,
    w: usize,
    y: usize,
    kernel: &Kernel,
    scratch: &mut [f64],
) {
    if g.is_empty() {
        return;
    }
    let ((r0, r1), (c0, c1)) = (g.rows, g.cols);
    // tail[h] = P(damage > h) for the cell at index h (health h + 1): the damage from h + 1.
    let n = kernel.k.len();
    let tail = &mut scratch[..n.max(1)];
    let mut acc = kernel.beyond;
    for h in (0..n).rev() {
        tail[h] = acc;
        acc += kernel.k[h];
    }
    if y == 1 {
        dest.cover((r0, r1), (0, 1));
        for r in r0..r1 {
            let row = &g.cells[r * w..][c0..c1];
            let s: f64 = row.iter().zip(&tail[c0..c1]).map(|(v, t)| v * t).sum();
            dest.cells[r * w] += s;
        }
    } else {
        dest.cover((0, 1), (c0, c1));
        for (r, &t) in tail.iter().enumerate().take(r1).skip(r0) {
            if t == 0.0 {
                continue;
            }
            axpy(&mut dest.cells[c0..c1], &g.cells[r * w..][c0..c1], t);
        }
    }
}

/// `d += k · s`, element by element (vectorised by the compiler).
#[inline]
fn axpy(d: &mut [f64], s: &[f64], k: f64) {
    for (d, s) in d.iter_mut().zip(s) {
        *d += k * *s;
    }
}

/// The mass of grid `g` and the number of its non-zero cells per health of side `y`.
fn margins(g: &Plane, w: usize, y: usize, mass: &mut [f64], count: &mut [u64]) {
    mass.fill(0.0);
    count.fill(0);
    for r in g.rows.0..g.rows.1 {
        let row = &g.cells[r * w..][g.cols.0..g.cols.1];
        if y == 1 {
            for (c, &v) in row.iter().enumerate() {
                mass[g.cols.0 + c] += v;
                count[g.cols.0 + c] += u64::from(v != 0.0);
            }
        } else {
            mass[r] += row.iter().sum::<f64>();
            count[r] += row.iter().filter(|&&v| v != 0.0).count() as u64;
        }
    }
}

/// The total mass of grid `g`.
fn grid_mass(g: &Plane, w: usize) -> f64 {
    (g.rows.0..g.rows.1)
        .map(|r| g.cells[r * w..][g.cols.0..g.cols.1].iter().sum::<f64>())
        .sum()
}

/// Zeroes grid `g`'s box and empties it.
fn clear(g: &mut Plane, w: usize) {
    for r in g.rows.0..g.rows.1 {
        g.cells[r * w..][g.cols.0..g.cols.1].fill(0.0);
    }
    (g.rows, g.cols) = ((0, 0), (0, 0));
}

/// Drops grid `g`'s cells lighter than [`PRUNE_MASS`] (their mass goes to `pruned`) and
/// shrinks its box to the cells left; returns their mass and number.
fn prune(g: &mut Plane, w: usize, pruned: &mut f64) -> (f64, usize) {
    let mut mass = 0.0;
    let mut n = 0;
    let (mut rows, mut cols) = ((usize::MAX, 0), (usize::MAX, 0));
    for r in g.rows.0..g.rows.1 {
        let row = &mut g.cells[r * w..][g.cols.0..g.cols.1];
        for (c, v) in row.iter_mut().enumerate() {
            if *v == 0.0 {
                continue;
            }
            if *v < PRUNE_MASS {
                *pruned += *v;
                *v = 0.0;
                continue;
            }
            mass += *v;
            n += 1;
            let c = g.cols.0 + c;
            rows = (rows.0.min(r), rows.1.max(r + 1));
            cols = (cols.0.min(c), cols.1.max(c + 1));
        }
    }
    if n == 0 {
        (rows, cols) = ((0, 0), (0, 0));
    }
    (g.rows, g.cols) = (rows, cols);
    (mass, n)
}
