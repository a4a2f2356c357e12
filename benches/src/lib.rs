//! Fixtures shared by the criterion benchmarks in `benches/` (run with
//! `cargo bench -p oddsmith-benches`): the digests' reference duels, loaded from the bundled
//! scenario files so the benchmark measures exactly what users run.

use oddsmith_rules::Ruleset;
use oddsmith_rules::d20::D20;
use oddsmith_rules::draft::Draft;
use oddsmith_rules::gamecraft::Gamecraft;

/// Loads `text` under ruleset `R` and returns the ruleset with the matchup called `name`.
fn matchup<R: Ruleset>(file: &str, text: &str, name: &str) -> (R, R::Matchup) {
    let s = oddsmith_scenario::load::<R>(file, text).unwrap_or_else(|e| panic!("{e}"));
    let m = s
        .matchups
        .iter()
        .find(|m| m.name == name)
        .expect("matchup exists")
        .matchup
        .clone();
    (s.ruleset, m)
}

/// Draft reference duel D1 (draft.md §7.7): two identical long-sword fighters, default options.
pub fn draft_d1() -> (Draft, <Draft as Ruleset>::Matchup) {
    matchup(
        "reference-duels.toml",
        include_str!("../../scenarios/draft/reference-duels.toml"),
        "D1",
    )
}

/// Gamecraft reference duel D1 (gamecraft.md §7 D1): Aldric against Borg, default options.
pub fn gamecraft_d1() -> (Gamecraft, <Gamecraft as Ruleset>::Matchup) {
    matchup(
        "reference-duel.toml",
        include_str!("../../scenarios/gamecraft/reference-duel.toml"),
        "D1",
    )
}

/// d20 reference duel S2r (d20-taxonomy.md §7.9): Fighter 1 against a Bug Bear, default options.
pub fn d20_reference() -> (D20, <D20 as Ruleset>::Matchup) {
    matchup(
        "reference-duels.toml",
        include_str!("../../scenarios/d20/reference-duels.toml"),
        "S2r",
    )
}
