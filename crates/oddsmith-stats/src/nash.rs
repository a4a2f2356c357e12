//! Two-player zero-sum matrix games: optimal mixed strategies and strict dominance.
//!
//! The row player picks a row `i`, the column player a column `j`, and the row player
//! receives `payoff[i][j]` (the column player loses it). [`solve_zero_sum`] finds optimal
//! mixed strategies for both players and the game value by linear programming
//! ([`microlp`], a pure-Rust simplex solver), then checks the answer with its duality
//! certificate: the row strategy guarantees at least the value against every column and the
//! column strategy concedes at most the value against every row.
//!
//! A loadout tournament uses the symmetric meta-game
//! `payoff[i][j] = P(i beats j) − P(j beats i)`: the matrix is antisymmetric, the value is 0
//! and the row strategy is the Nash mix of loadouts.
//!
//! ```
//! use oddsmith_stats::nash::solve_zero_sum;
//!
//! // Rock, paper, scissors.
//! let rps = vec![vec![0.0, -1.0, 1.0], vec![1.0, 0.0, -1.0], vec![-1.0, 1.0, 0.0]];
//! let s = solve_zero_sum(&rps).unwrap();
//! assert!(s.row.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-9));
//! assert!(s.value.abs() < 1e-12);
//! ```

use microlp::{ComparisonOp, OptimizationDirection, Problem};
use serde::{Deserialize, Serialize};

/// Shares below this are solver noise: they are set to 0 and the rest renormalised.
pub const SHARE_EPS: f64 = 1e-9;

/// Optimal mixed strategies of a zero-sum game and its value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NashSolution {
    /// The row (maximising) player's optimal mix: one share per row, summing to 1.
    pub row: Vec<f64>,
    /// The column (minimising) player's optimal mix: one share per column, summing to 1.
    pub col: Vec<f64>,
    /// The value of the game: `rowᵀ · payoff · col`, what the row player is guaranteed.
    pub value: f64,
}

impl NashSolution {
    /// Indices of the rows played with a positive share (the support of [`row`](Self::row)).
    #[must_use]
    pub fn row_support(&self) -> Vec<usize> {
        support(&self.row)
    }

    /// Indices of the columns played with a positive share.
    #[must_use]
    pub fn col_support(&self) -> Vec<usize> {
        support(&self.col)
    }
}

fn support(shares: &[f64]) -> Vec<usize> {
    shares
        .iter()
        .enumerate()
        .filter(|&(_, &s)| s > 0.0)
        .map(|(i, _)| i)
        .collect()
}

/// Why a payoff matrix could not be solved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum NashError {
    /// The matrix has no rows or no columns.
    #[error("payoff matrix is empty")]
    Empty,
    /// Row `row` has `len` entries where row 0 has `expected`.
    #[error("payoff matrix is ragged: row {row} has {len} entries, row 0 has {expected}")]
    Ragged {
        /// The offending row.
        row: usize,
        /// Its length.
        len: usize,
        /// The length of row 0.
        expected: usize,
    },
    /// `payoff[row][col]` is NaN or infinite.
    #[error("payoff[{row}][{col}] is not finite")]
    NonFinite {
        /// Row index.
        row: usize,
        /// Column index.
        col: usize,
    },
    /// The LP solver failed or returned strategies that do not certify each other.
    #[error("linear programming failed: {0}")]
    Solver(String),
}

/// Checks that `payoff` is a non-empty rectangular matrix of finite numbers and returns
/// `(rows, cols)`.
fn check(payoff: &[Vec<f64>]) -> Result<(usize, usize), NashError> {
    let cols = payoff.first().map_or(0, Vec::len);
    if cols == 0 {
        return Err(NashError::Empty);
    }
    for (i, r) in payoff.iter().enumerate() {
        if r.len() != cols {
            return Err(NashError::Ragged {
                row: i,
                len: r.len(),
                expected: cols,
            });
        }
        if let Some(j) = r.iter().position(|v| !v.is_finite()) {
            return Err(NashError::NonFinite { row: i, col: j });
        }
    }
    Ok((payoff.len(), cols))
}

/// Solves the zero-sum game where the row player receives `payoff[i][j]`.
///
/// Each player's strategy comes from one LP (`max v` s.t. `Σᵢ pᵢ·a[i][j] ≥ v ∀j`, `Σ p = 1`,
/// `p ≥ 0`; the column player's is the mirror image). Shares below [`SHARE_EPS`] are set to 0
/// and the rest renormalised; the value is then `rowᵀ·payoff·col`. When a game has several
/// optimal strategies, one of them (a vertex of the optimal set) is returned.
///
/// The answer is checked before it is returned: the row strategy must guarantee, and the
/// column strategy concede, the value to within `1e-9` times the largest payoff magnitude.
///
/// # Errors
/// [`NashError::Empty`], [`NashError::Ragged`] or [`NashError::NonFinite`] for bad input;
/// [`NashError::Solver`] if the LP fails (not expected for finite input).
pub fn solve_zero_sum(payoff: &[Vec<f64>]) -> Result<NashSolution, NashError> {
    let (m, n) = check(payoff)?;
    let scale = payoff
        .iter()
        .flatten()
        .fold(0.0f64, |a, v| a.max(v.abs()))
        .max(f64::MIN_POSITIVE);
    // Work on payoffs scaled to [-1, 1], which keeps the LP well inside the solver's
    // recommended coefficient range whatever the units.
    let a: Vec<Vec<f64>> = payoff
        .iter()
        .map(|r| r.iter().map(|v| v / scale).collect())
        .collect();
    let at: Vec<Vec<f64>> = (0..n).map(|j| (0..m).map(|i| -a[i][j]).collect()).collect();
    let row = clean(maximin(&a)?);
    // The column player maximises the negated transposed game.
    let col = clean(maximin(&at)?);

    // Duality certificate: min_j (pᵀA)_j ≥ max_i (Aq)_i − tol.
    let guaranteed = (0..n)
        .map(|j| (0..m).map(|i| row[i] * a[i][j]).sum::<f64>())
        .fold(f64::INFINITY, f64::min);
    let conceded = (0..m)
        .map(|i| (0..n).map(|j| a[i][j] * col[j]).sum::<f64>())
        .fold(f64::NEG_INFINITY, f64::max);
    if guaranteed < conceded - 1e-9 {
        return Err(NashError::Solver(format!(
            "strategies do not certify each other: row guarantees {}, column concedes {}",
            guaranteed * scale,
            conceded * scale
        )));
    }
    let value: f64 = (0..m)
        .map(|i| row[i] * (0..n).map(|j| payoff[i][j] * col[j]).sum::<f64>())
        .sum();
    Ok(NashSolution { row, col, value })
}

/// The maximising player's optimal mix for the game `a` (rows are that player's strategies).
fn maximin(a: &[Vec<f64>]) -> Result<Vec<f64>, NashError> {
    let (m, n) = (a.len(), a[0].len());
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let p: Vec<_> = (0..m).map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    // The value lies in [-1, 1] because the payoffs do.
    let v = lp.add_var(1.0, (-1.0, 1.0));
    for j in 0..n {
        let mut terms: Vec<_> = a
            .iter()
            .zip(&p)
            .filter(|(r, _)| r[j] != 0.0)
            .map(|(r, &x)| (x, r[j]))
            .collect();
        terms.push((v, -1.0));
        lp.add_constraint(terms.as_slice(), ComparisonOp::Ge, 0.0);
    }
    let ones: Vec<_> = p.iter().map(|&x| (x, 1.0)).collect();
    lp.add_constraint(ones.as_slice(), ComparisonOp::Eq, 1.0);
    let solution = lp
        .solve()
        .map_err(|e| NashError::Solver(e.to_string()))?
        .into_solution()
        .map_err(|e| NashError::Solver(format!("{:?}", e.termination_reason())))?;
    Ok(p.iter().map(|&x| solution.var_value(x)).collect())
}

/// Sets shares below [`SHARE_EPS`] (and negative noise) to 0 and renormalises to sum 1.
fn clean(mut shares: Vec<f64>) -> Vec<f64> {
    for s in &mut shares {
        if *s < SHARE_EPS {
            *s = 0.0;
        }
    }
    let total: f64 = shares.iter().sum();
    if total > 0.0 {
        for s in &mut shares {
            *s /= total;
        }
    }
    shares
}

/// Whether row `k` strictly beats row `i` in every one of `cols`.
fn beats(payoff: &[Vec<f64>], k: usize, i: usize, cols: &[usize]) -> bool {
    cols.iter().all(|&j| payoff[k][j] > payoff[i][j])
}

/// For each row strategy, whether another pure row strategy is strictly better against every
/// column (`payoff[k][j] > payoff[i][j]` for all `j`). Such a row gets share 0 in every
/// equilibrium. For the column player's strategies pass the negated transpose.
///
/// Only domination by pure strategies is detected, not by mixtures.
///
/// # Errors
/// [`NashError::Empty`], [`NashError::Ragged`] or [`NashError::NonFinite`] for bad input.
pub fn strictly_dominated(payoff: &[Vec<f64>]) -> Result<Vec<bool>, NashError> {
    let (m, n) = check(payoff)?;
    let cols: Vec<usize> = (0..n).collect();
    Ok((0..m)
        .map(|i| (0..m).any(|k| k != i && beats(payoff, k, i, &cols)))
        .collect())
}

/// Result of [`iterated_dominance`]: in which round each strategy was eliminated.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dominance {
    /// Per row: `Some(r)` if eliminated in round `r` (1-based), `None` if it survives.
    pub row_round: Vec<Option<usize>>,
    /// Per column: `Some(r)` if eliminated in round `r` (1-based), `None` if it survives.
    pub col_round: Vec<Option<usize>>,
    /// Number of rounds that eliminated something.
    pub rounds: usize,
}

impl Dominance {
    /// Rows that survive every round.
    #[must_use]
    pub fn surviving_rows(&self) -> Vec<usize> {
        survivors(&self.row_round)
    }

    /// Columns that survive every round.
    #[must_use]
    pub fn surviving_cols(&self) -> Vec<usize> {
        survivors(&self.col_round)
    }
}

fn survivors(rounds: &[Option<usize>]) -> Vec<usize> {
    rounds
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_none())
        .map(|(i, _)| i)
        .collect()
}

/// Iterated elimination of strictly dominated pure strategies for both players.
///
/// Each round removes, all at once, every remaining row strictly dominated by another
/// remaining row over the remaining columns, and every remaining column strictly dominated
/// for the minimising column player (`payoff[i][l] < payoff[i][k]` for every remaining row
/// `i`) by another remaining column; rounds repeat until nothing changes. With strict
/// dominance the surviving set does not depend on the order of elimination, and every
/// equilibrium gives eliminated strategies share 0.
///
/// # Errors
/// [`NashError::Empty`], [`NashError::Ragged`] or [`NashError::NonFinite`] for bad input.
pub fn iterated_dominance(payoff: &[Vec<f64>]) -> Result<Dominance, NashError> {
    let (m, n) = check(payoff)?;
    let mut d = Dominance {
        row_round: vec![None; m],
        col_round: vec![None; n],
        rounds: 0,
    };
    loop {
        let rows = survivors(&d.row_round);
        let cols = survivors(&d.col_round);
        let dead_rows: Vec<usize> = rows
            .iter()
            .copied()
            .filter(|&i| rows.iter().any(|&k| k != i && beats(payoff, k, i, &cols)))
            .collect();
        let dead_cols: Vec<usize> = cols
            .iter()
            .copied()
            .filter(|&j| {
                cols.iter()
                    .any(|&l| l != j && rows.iter().all(|&i| payoff[i][l] < payoff[i][j]))
            })
            .collect();
        if dead_rows.is_empty() && dead_cols.is_empty() {
            return Ok(d);
        }
        d.rounds += 1;
        for i in dead_rows {
            d.row_round[i] = Some(d.rounds);
        }
        for j in dead_cols {
            d.col_round[j] = Some(d.rounds);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rps() -> Vec<Vec<f64>> {
        vec![
            vec![0.0, -1.0, 1.0],
            vec![1.0, 0.0, -1.0],
            vec![-1.0, 1.0, 0.0],
        ]
    }

    fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
    }

    #[test]
    fn rock_paper_scissors() {
        let s = solve_zero_sum(&rps()).unwrap();
        let third = [1.0 / 3.0; 3];
        assert!(close(&s.row, &third, 1e-9), "{s:?}");
        assert!(close(&s.col, &third, 1e-9), "{s:?}");
        assert!(s.value.abs() < 1e-12);
        assert_eq!(s.row_support(), vec![0, 1, 2]);
    }

    #[test]
    fn hand_solved_two_by_two() {
        // [[3, -1], [-2, 1]]: p·3 − 2(1−p) = −p + (1−p) ⇒ p = 3/7; value 1/7;
        // column: 3q − (1−q) = −2q + (1−q) ⇒ q = 2/7.
        let s = solve_zero_sum(&[vec![3.0, -1.0], vec![-2.0, 1.0]]).unwrap();
        assert!(close(&s.row, &[3.0 / 7.0, 4.0 / 7.0], 1e-9), "{s:?}");
        assert!(close(&s.col, &[2.0 / 7.0, 5.0 / 7.0], 1e-9), "{s:?}");
        assert!((s.value - 1.0 / 7.0).abs() < 1e-9);
    }

    #[test]
    fn antisymmetric_four_by_four() {
        // Weighted rock-paper-scissors (a, b, c) = (0.1, 0.2, 0.3) has the unique mix
        // ∝ (c, b, a) = (3, 2, 1)/6. A fourth strategy D = (0.1, −0.2, 0.05, 0) is not
        // dominated by any pure strategy, but loses 0.05/6 against that mix, so it gets
        // share 0. The game is symmetric: value 0 and both players play the same mix.
        let a = vec![
            vec![0.0, -0.1, 0.2, -0.1],
            vec![0.1, 0.0, -0.3, 0.2],
            vec![-0.2, 0.3, 0.0, -0.05],
            vec![0.1, -0.2, 0.05, 0.0],
        ];
        let want = [0.5, 1.0 / 3.0, 1.0 / 6.0, 0.0];
        let s = solve_zero_sum(&a).unwrap();
        assert!(close(&s.row, &want, 1e-9), "{s:?}");
        assert!(close(&s.col, &want, 1e-9), "{s:?}");
        assert_eq!(s.row[3], 0.0, "noise is cleaned to an exact 0");
        assert!(s.value.abs() < 1e-12);
        assert_eq!(s.row_support(), vec![0, 1, 2]);
        assert_eq!(strictly_dominated(&a).unwrap(), vec![false; 4]);
    }

    #[test]
    fn dominated_strategy_gets_no_share() {
        // RPS plus a "worse rock" that does 0.5 worse than rock against everything.
        let mut a = rps();
        for r in &mut a {
            r.push(0.0);
        }
        let worse: Vec<f64> = a[0].iter().map(|v| v - 0.5).collect();
        a.push(worse);
        // Keep the game symmetric: column 3 is minus row 3.
        let last = a[3].clone();
        for (r, v) in a.iter_mut().zip(&last) {
            r[3] = -v;
        }
        a[3][3] = 0.0;
        assert_eq!(
            strictly_dominated(&a).unwrap(),
            vec![false, false, false, true]
        );
        let s = solve_zero_sum(&a).unwrap();
        assert!(
            close(&s.row, &[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 0.0], 1e-9),
            "{s:?}"
        );
        assert_eq!(s.row[3], 0.0);
        assert!(s.value.abs() < 1e-12);
    }

    /// Deterministic pseudo-random numbers in [0, 1) (splitmix64).
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut x = seed;
        move || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) as f64 / 2f64.powi(64)
        }
    }

    #[test]
    fn random_tournaments_solve_and_certify() {
        // Meta-games of 2 to 60 loadouts from random win probabilities, plus general
        // rectangular games: each must solve, pass the certificate and be consistent.
        for (seed, size) in (0..40u64).zip([2usize, 3, 5, 8, 13, 21, 34, 60].iter().cycle()) {
            let mut u = uniform(seed);
            // Upper triangle: P(i wins) − P(j wins) with up to 10 % draws; mirrored below.
            let upper: Vec<Vec<f64>> = (0..*size)
                .map(|i| {
                    (0..*size)
                        .map(|j| {
                            if j <= i {
                                return 0.0;
                            }
                            let win = u();
                            let draw = 0.1 * u();
                            win - (1.0 - win - draw).max(0.0)
                        })
                        .collect()
                })
                .collect();
            let p: Vec<Vec<f64>> = (0..*size)
                .map(|i| (0..*size).map(|j| upper[i][j] - upper[j][i]).collect())
                .collect();
            let s = solve_zero_sum(&p).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(s.value.abs() < 1e-9, "seed {seed}: value {}", s.value);
            for shares in [&s.row, &s.col] {
                assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                assert!(shares.iter().all(|&x| x == 0.0 || x >= SHARE_EPS));
            }
            let (m, n) = (1 + seed as usize % 7, 1 + (seed as usize * 3) % 11);
            let g: Vec<Vec<f64>> = (0..m)
                .map(|_| (0..n).map(|_| 2.0 * u() - 1.0).collect())
                .collect();
            let s = solve_zero_sum(&g).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let worst = (0..n)
                .map(|j| (0..m).map(|i| s.row[i] * g[i][j]).sum::<f64>())
                .fold(f64::INFINITY, f64::min);
            assert!(worst >= s.value - 1e-9, "seed {seed}");
        }
    }

    #[test]
    fn saddle_point_is_pure() {
        // Row 0 guarantees 2; column 1 concedes at most 2.
        let s = solve_zero_sum(&[vec![4.0, 2.0, 3.0], vec![1.0, 0.0, 5.0]]).unwrap();
        assert_eq!(s.row, vec![1.0, 0.0]);
        assert_eq!(s.col, vec![0.0, 1.0, 0.0]);
        assert_eq!(s.value, 2.0);
    }

    #[test]
    fn scale_does_not_matter() {
        let big: Vec<Vec<f64>> = rps()
            .iter()
            .map(|r| r.iter().map(|v| v * 1e6 + 5e6).collect())
            .collect();
        let s = solve_zero_sum(&big).unwrap();
        assert!(close(&s.row, &[1.0 / 3.0; 3], 1e-9));
        assert!((s.value - 5e6).abs() < 1e-3);
    }

    #[test]
    fn clean_zeroes_noise_and_renormalises() {
        let c = clean(vec![0.5, 1e-12, -1e-15, 0.5 + 1e-10]);
        assert_eq!(c[1], 0.0);
        assert_eq!(c[2], 0.0);
        assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn bad_input() {
        assert_eq!(solve_zero_sum(&[]), Err(NashError::Empty));
        assert_eq!(solve_zero_sum(&[vec![]]), Err(NashError::Empty));
        assert_eq!(
            solve_zero_sum(&[vec![1.0, 2.0], vec![3.0]]),
            Err(NashError::Ragged {
                row: 1,
                len: 1,
                expected: 2
            })
        );
        assert_eq!(
            solve_zero_sum(&[vec![1.0, 2.0], vec![3.0, f64::NAN]]),
            Err(NashError::NonFinite { row: 1, col: 1 })
        );
        assert_eq!(
            strictly_dominated(&[vec![f64::INFINITY]]),
            Err(NashError::NonFinite { row: 0, col: 0 })
        );
        assert_eq!(iterated_dominance(&[]), Err(NashError::Empty));
    }

    #[test]
    fn single_cell() {
        let s = solve_zero_sum(&[vec![-0.25]]).unwrap();
        assert_eq!((s.row, s.col, s.value), (vec![1.0], vec![1.0], -0.25));
    }

    #[test]
    fn all_zero_game() {
        let s = solve_zero_sum(&vec![vec![0.0; 3]; 3]).unwrap();
        assert_eq!(s.value, 0.0);
        assert!((s.row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn dominance_flags_and_rounds() {
        // Row 2 is strictly dominated by row 0. Once it is gone, column 2 (which only
        // row 2 made attractive to the column player) is dominated by column 0.
        let a = vec![
            vec![1.0, 2.0, 3.0],
            vec![2.0, 0.0, 4.0],
            vec![0.0, 1.0, -5.0],
        ];
        assert_eq!(strictly_dominated(&a).unwrap(), vec![false, false, true]);
        let d = iterated_dominance(&a).unwrap();
        assert_eq!(d.row_round, vec![None, None, Some(1)]);
        assert_eq!(d.col_round, vec![None, None, Some(2)]);
        assert_eq!(d.rounds, 2);
        assert_eq!(d.surviving_rows(), vec![0, 1]);
        assert_eq!(d.surviving_cols(), vec![0, 1]);
        // Ties are not strict dominance.
        assert_eq!(
            strictly_dominated(&[vec![1.0, 1.0], vec![1.0, 2.0]]).unwrap(),
            vec![false, false]
        );
    }
}
