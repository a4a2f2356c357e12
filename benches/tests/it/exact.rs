//! Faster exact solvers against the slower ones they replaced, on every matchup of the bundled
//! scenarios of their ruleset: the same numbers up to the order of floating-point sums
//! (`solver::BRANCHING_TOLERANCE`). The outcome branching (`Roller::outcome`: one branch per
//! distinct value of the dice a step uses only through one number) against the face-by-face
//! enumeration, for gamecraft, d20 and Draft (whose exact solver branches on a blow's wound
//! level); openrpg's whole-grid solver and its `exact` against its state-by-state one, and its
//! product of health distributions against the whole grid where the duel factors; d20's solver
//! on interned states against the shared solver's cached iteration it replaces (bit for bit).

use std::path::Path;

use oddsmith_rules::d20::D20;
use oddsmith_rules::draft::Draft;
use oddsmith_rules::gamecraft::Gamecraft;
use oddsmith_rules::openrpg::{self, OpenRpg};
use oddsmith_rules::roller::Branching;
use oddsmith_rules::solver::{
    BRANCHING_TOLERANCE, Transitions, max_difference, solve_branching, solve_with,
};
use oddsmith_rules::{ExactDuel, Ruleset};

/// Checks every matchup of `scenarios/<folder>/*.toml` solved by the ruleset's `exact`
/// against `reference(rules, matchup)` and returns how many were solved.
fn every_bundled_matchup<R: Ruleset>(
    folder: &str,
    reference: impl Fn(&R, &R::Matchup) -> Option<ExactDuel>,
) -> usize {
    every_bundled_matchup_by(folder, R::exact, reference)
}

/// [`every_bundled_matchup`] with `fast(rules, matchup)` in place of the ruleset's `exact`.
fn every_bundled_matchup_by<R: Ruleset>(
    folder: &str,
    fast: impl Fn(&R, &R::Matchup) -> Option<ExactDuel>,
    reference: impl Fn(&R, &R::Matchup) -> Option<ExactDuel>,
) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("scenario folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut solved = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable scenario");
        let name = f.display().to_string();
        let s = oddsmith_scenario::load::<R>(&name, &text).expect("bundled scenario");
        for m in &s.matchups {
            let Some(fast) = fast(&s.ruleset, &m.matchup) else {
                continue;
            };
            let slow = reference(&s.ruleset, &m.matchup).expect("the reference solves it too");
            let (p, mean) = max_difference(&fast, &slow);
            assert!(
                p <= BRANCHING_TOLERANCE.0 && mean <= BRANCHING_TOLERANCE.1,
                "{name} {}: a probability moved by {p:e}, the mean length by {mean:e}",
                m.name
            );
            solved += 1;
        }
    }
    solved
}

/// [`every_bundled_matchup`] against the face-by-face enumeration (`Branching::Faces`).
fn outcome_branching_matches_faces<R: Ruleset>(folder: &str) -> usize {
    every_bundled_matchup::<R>(folder, |r, m| {
        solve_branching(r, m, r.start(m), Transitions::of::<R>(), Branching::Faces)
    })
}

#[test]
fn gamecraft_outcome_branching_matches_faces_on_every_bundled_matchup() {
    let solved = outcome_branching_matches_faces::<Gamecraft>("gamecraft");
    assert!(solved >= 20, "only {solved} gamecraft matchups solved");
}

#[test]
fn d20_outcome_branching_matches_faces_on_every_bundled_matchup() {
    let solved = outcome_branching_matches_faces::<D20>("d20");
    assert!(solved >= 20, "only {solved} d20 matchups solved");
}

#[test]
fn draft_outcome_branching_matches_faces_on_every_bundled_matchup() {
    let solved = outcome_branching_matches_faces::<Draft>("draft");
    assert!(solved >= 20, "only {solved} draft matchups solved");
}

#[test]
fn openrpg_grid_solver_matches_the_state_by_state_one_on_every_bundled_matchup() {
    let solved =
        every_bundled_matchup_by::<OpenRpg>("openrpg", openrpg::grid::solve, openrpg::duel::solve);
    assert_eq!(solved, 12, "every openrpg matchup is solved");
}

#[test]
fn d20_interned_solver_equals_the_shared_solver_bit_for_bit_on_every_bundled_matchup() {
    // The tolerance check, then the very same bits: the interned solver runs the same `step`s
    // and adds the same numbers in the same order as the shared solver's cache.
    let solved = every_bundled_matchup::<D20>("d20", |r, m| {
        let shared = solve_with(r, m, r.start(m), Transitions::Cached)?;
        let fast = r.exact(m).expect("solved above");
        let bits = |e: &ExactDuel| {
            [e.p_a_win, e.p_b_win, e.p_draw, e.mean_rounds, e.truncated]
                .into_iter()
                .chain(e.rounds_pmf.iter().copied())
                .map(f64::to_bits)
                .collect::<Vec<_>>()
        };
        assert!(
            bits(&fast) == bits(&shared),
            "not the shared solver's bits: P(A) {} against {}, E[rounds] {} against {}",
            fast.p_a_win,
            shared.p_a_win,
            fast.mean_rounds,
            shared.mean_rounds
        );
        Some(shared)
    });
    assert!(solved >= 20, "only {solved} d20 matchups solved");
}

#[test]
fn openrpg_exact_matches_the_state_by_state_solver_on_every_bundled_matchup() {
    let solved = every_bundled_matchup::<OpenRpg>("openrpg", openrpg::duel::solve);
    assert_eq!(solved, 12, "every openrpg matchup is solved");
}

#[test]
fn openrpg_product_solver_matches_the_grid_one_on_every_bundled_matchup_that_factors() {
    let factoring = std::cell::Cell::new(0);
    let product = |r: &OpenRpg, m: &openrpg::Matchup| {
        factoring.set(factoring.get() + usize::from(openrpg::product::factors(m)));
        openrpg::product::solve(r, m)
    };
    let solved = every_bundled_matchup_by::<OpenRpg>("openrpg", product, openrpg::grid::solve);
    assert_eq!(
        solved,
        factoring.get(),
        "the product solver solves every one that factors"
    );
    // Light-vs-heavy's full dodgers do not factor.
    assert_eq!(solved, 8, "eight bundled openrpg matchups factor");
}
