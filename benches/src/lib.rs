//! Fixtures shared by the criterion benchmarks in `benches/` (run with
//! `cargo bench -p oddsmith-benches`).

use oddsmith_rules::Ruleset;
use oddsmith_rules::draft::spec::{ArmourSpec, WeaponSpec};
use oddsmith_rules::draft::tables::{self, ArmourKind};
use oddsmith_rules::draft::{Draft, DraftOptions, FighterSpec, Matchup};

/// The digest's reference duel D1 (draft.md §7.7): two identical long-sword fighters, skill 6,
/// STR 6, CON 6, leather, default options (random first strike each round).
pub fn d1() -> (Draft, Matchup) {
    let d = Draft::new(DraftOptions::default()).expect("default options are valid");
    let spec = FighterSpec {
        skill: 6,
        weapon: WeaponSpec {
            stats: tables::weapon("long sword").expect("built in"),
            builtin: true,
        },
        shield: Default::default(),
        shield_skill: 0,
        dodge: 0,
        armour: ArmourSpec::Named(ArmourKind::Leather),
        str: 6,
        con: 6,
        policy: Default::default(),
        adaptive_threshold: 3,
        defence: Default::default(),
        unfamiliar_weapon: false,
        situation: vec![],
        attack_modifier: 0,
        defence_modifier: 0,
    };
    let f = d.compile("d1", &spec).expect("valid fighter");
    let m = d.matchup(&f, &f).expect("valid matchup");
    (d, m)
}
