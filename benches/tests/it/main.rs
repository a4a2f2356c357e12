//! Zero allocations per trial: `allocation-counter`'s counting global allocator watches a chunk
//! of duels of every ruleset's reference duel, after one warm-up duel. `exact`: the exact
//! solvers against the slower ones they replaced (outcome branching against face-by-face
//! enumeration; openrpg's whole-grid solver against its state-by-state one) on the bundled
//! scenarios.

mod exact;

use oddsmith_benches::{
    cards_band, cards_group, cards_reference, cards_teams, d20_group, d20_party, d20_party6,
    d20_reference, draft_d1, gamecraft_d1, openrpg_r1,
};
use oddsmith_dice::stream;
use oddsmith_rules::{RngRoller, Ruleset, Winner};

/// Allocations made while `rules` plays `n` duels on one stream (after one warm-up duel, which
/// may fill lazily built tables).
fn allocations_in_duels<R: Ruleset>(fight: &(R, R::Matchup), n: u32) -> u64 {
    allocations_in_fights(fight, n, true)
}

/// [`allocations_in_duels`], where `both_win` says whether both sides must win some of the
/// `n` fights (a lopsided reference fight need not).
fn allocations_in_fights<R: Ruleset>((rules, m): &(R, R::Matchup), n: u32, both_win: bool) -> u64 {
    let mut rng = stream(7, 0);
    let mut roller = RngRoller::new(&mut rng);
    let _ = rules.duel(m, &mut roller);
    let (mut a_wins, mut rounds) = (0u32, 0u64);
    let info = allocation_counter::measure(|| {
        for _ in 0..n {
            let o = rules.duel(m, &mut roller);
            a_wins += u32::from(o.winner == Winner::A);
            rounds += u64::from(o.rounds);
        }
    });
    assert!(
        a_wins > 0 && (a_wins < n || !both_win) && rounds >= u64::from(n),
        "the duels were played ({a_wins} of {n}, {rounds} rounds)"
    );
    info.count_total
}

#[test]
fn the_counter_sees_an_allocation() {
    let info = allocation_counter::measure(|| {
        std::hint::black_box(vec![1u8; 100]);
    });
    assert_eq!(info.count_total, 1);
}

#[test]
fn draft_duels_allocate_nothing() {
    assert_eq!(allocations_in_duels(&draft_d1(), 10_000), 0);
}

#[test]
fn gamecraft_duels_allocate_nothing() {
    assert_eq!(allocations_in_duels(&gamecraft_d1(), 10_000), 0);
}

#[test]
fn d20_duels_allocate_nothing() {
    assert_eq!(allocations_in_duels(&d20_reference(), 10_000), 0);
}

#[test]
fn group_fights_allocate_nothing() {
    assert_eq!(allocations_in_duels(&d20_group(), 10_000), 0);
    assert_eq!(allocations_in_duels(&cards_group(), 10_000), 0);
    // Issue 39's reference group fights (the party wins nearly every fight).
    assert_eq!(allocations_in_fights(&d20_party(), 10_000, false), 0);
    assert_eq!(allocations_in_duels(&cards_band(), 10_000), 0);
    // As the issue gives them: four against six goblins, two against three.
    assert_eq!(allocations_in_fights(&d20_party6(), 10_000, false), 0);
    assert_eq!(allocations_in_duels(&cards_teams(), 10_000), 0);
}

#[test]
fn openrpg_duels_allocate_nothing() {
    assert_eq!(allocations_in_duels(&openrpg_r1(), 10_000), 0);
}

#[test]
fn cards_duels_allocate_nothing() {
    assert_eq!(allocations_in_duels(&cards_reference(), 10_000), 0);
}

/// Group fights with their per-member tallies ([`oddsmith_rules::group::fight`] recorded into
/// the engine's group counts, as `run_duels` does for a group) allocate nothing per fight
/// (the duel's histograms, which grow with a new longest fight, are not watched here).
#[test]
fn group_fights_with_member_tallies_allocate_nothing() {
    use oddsmith_rules::group::fight;
    use oddsmith_sim::GroupStats;
    let (rules, m) = d20_group();
    let roster = rules.roster(&m);
    assert!(roster.is_group());
    let mut rng = stream(7, 0);
    let mut roller = RngRoller::new(&mut rng);
    let mut acc = GroupStats::new(&roster);
    let (_, g) = fight(&rules, &m, &roster, &mut roller);
    acc.record(&g);
    let mut a_wins = 0u32;
    let info = allocation_counter::measure(|| {
        for _ in 0..10_000 {
            let (d, g) = fight(&rules, &m, &roster, &mut roller);
            a_wins += u32::from(d.winner == Winner::A);
            acc.record(&g);
        }
    });
    assert_eq!(info.count_total, 0);
    assert_eq!(acc.trials(), 10_001);
    assert!(a_wins > 0 && acc.sides[1].members[0].down > 0);
}
