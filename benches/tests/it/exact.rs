//! The exact solver's outcome branching (`Roller::outcome`: one branch per distinct value of
//! the dice a step uses only through one number) against the face-by-face enumeration it
//! replaced, on every gamecraft and d20 matchup of the bundled scenarios: the same numbers up
//! to the order of floating-point sums.

use std::path::Path;

use oddsmith_rules::Ruleset;
use oddsmith_rules::d20::D20;
use oddsmith_rules::gamecraft::Gamecraft;
use oddsmith_rules::roller::Branching;
use oddsmith_rules::solver::{BRANCHING_TOLERANCE, Transitions, max_difference, solve_branching};

/// Checks every matchup of `scenarios/<folder>/*.toml` and returns how many were solved.
fn outcome_branching_matches_faces<R: Ruleset>(folder: &str) -> usize {
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
            let Some(fast) = s.ruleset.exact(&m.matchup) else {
                continue;
            };
            let start = s.ruleset.start(&m.matchup);
            let faces = solve_branching(
                &s.ruleset,
                &m.matchup,
                start,
                Transitions::of::<R>(),
                Branching::Faces,
            )
            .expect("the face-by-face enumeration solves it too");
            let (p, mean) = max_difference(&fast, &faces);
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
