//! Test helpers shared by every ruleset's oracle tests.

use oddsmith_dice::stream;

use crate::{RngRoller, Ruleset, Winner};

/// Builds a ruleset and pairs two fighter specs.
pub fn pair<R: Ruleset>(o: R::Options, a: &R::FighterSpec, b: &R::FighterSpec) -> (R, R::Matchup) {
    let r = R::new(o).expect("valid options");
    let m = r
        .matchup(
            &r.compile("a", a).expect("valid fighter a"),
            &r.compile("b", b).expect("valid fighter b"),
        )
        .expect("valid matchup");
    (r, m)
}

/// Runs `n` Monte Carlo duels on stream 0 of `seed`; returns (P(A wins), mean rounds).
pub fn monte_carlo<R: Ruleset>(r: &R, m: &R::Matchup, n: u32, seed: u64) -> (f64, f64) {
    let mut rng = stream(seed, 0);
    let mut roller = RngRoller::new(&mut rng);
    let (mut wins, mut rounds) = (0u32, 0u64);
    for _ in 0..n {
        let out = r.duel(m, &mut roller);
        wins += u32::from(out.winner == Winner::A);
        rounds += u64::from(out.rounds);
    }
    (f64::from(wins) / f64::from(n), rounds as f64 / f64::from(n))
}

/// Asserts a Monte Carlo proportion over `n` trials lies within 4σ of the exact `p`.
#[track_caller]
pub fn within_4_sigma(p_hat: f64, p: f64, n: u32) {
    let sigma = (p * (1.0 - p) / f64::from(n)).sqrt();
    assert!(
        (p_hat - p).abs() <= 4.0 * sigma,
        "Monte Carlo {p_hat} vs exact {p}: more than 4σ = {}",
        4.0 * sigma
    );
}
