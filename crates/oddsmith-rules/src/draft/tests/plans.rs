//! Declared plans and Changing One's Mind (Draft 0.4 §4.17.1, §4.17.6), and the potent-fighter
//! shift (§4.17.2); issue 14 item 5.

use super::ranged::{Fixed, apart, with_missile};
use super::*;

fn aggressive(f: FighterSpec) -> FighterSpec {
    FighterSpec {
        policy: Policy::Aggressive,
        ..f
    }
}

/// Runs the round start (`step` from before the round) and returns both fighters' declared
/// defences.
fn guards_after_round_start(o: DraftOptions, a: &FighterSpec, b: &FighterSpec) -> [u8; 2] {
    let (d, m) = crate::testing::pair::<Draft>(o, a, b);
    let mut s = d.start(&m);
    duel::step(&m, d.options(), &mut s, &mut Fixed(1), &mut duel::NoTally);
    assert_eq!(s.round, 1);
    [s.f[0].guard, s.f[1].guard]
}

/// Each policy's plan keeps the actions it does not spend on attacks as declared parries or
/// dodges (of the three a round allows): balanced 2, aggressive 1, all-out 0, defensive 3.
/// Under `"free"` nothing is declared and nothing is counted.
#[test]
fn plans_declare_the_actions_not_spent_on_attacks() {
    let base = fighter(6, "long sword", 6, 6, "none");
    let with = |policy| FighterSpec {
        policy,
        ..base.clone()
    };
    let seed = DraftOptions::default();
    assert_eq!(seed.changing_mind, ChangingMind::Seed, "the seed is the default");
    for (a, b, expect) in [
        (Policy::Balanced, Policy::Aggressive, [2, 1]),
        (Policy::AllOut, Policy::Defensive, [0, 3]),
    ] {
        assert_eq!(guards_after_round_start(seed.clone(), &with(a), &with(b)), expect);
        let free = opts(|o| o.changing_mind = ChangingMind::Free);
        assert_eq!(guards_after_round_start(free, &with(a), &with(b)), [0, 0]);
    }
}

/// Hand-computed: an aggressive mirror (long swords, skill 6, no armour), A striking first.
/// Segment 1: A attacks and B parries (B's one declared defence), B attacks and A parries.
/// Segment 2: A attacks as its third action (−1); B's parry is its third action (−1) and,
/// under the seed, replaces its planned second attack (§4.17.6, Similar: −1 more). A hits iff
/// 6 + a − 1 > 6 + b − 2, i.e. a ≥ b on two d10: 55/100 (45/100 without the penalty).
#[test]
fn undeclared_parry_pays_the_similar_action_penalty() {
    let f = aggressive(fighter(6, "long sword", 6, 6, "none"));
    for (mode, p_miss) in [(ChangingMind::Seed, 0.45), (ChangingMind::Free, 0.55)] {
        let o = opts(|o| {
            o.changing_mind = mode;
            o.first_strike_tie = FirstStrikeTie::A;
        });
        let (d, m) = crate::testing::pair::<Draft>(o, &f, &f);
        let mut s = d.start(&m);
        // The round start, then the two attacks of segment 1 (every die 1: ties, parried).
        for _ in 0..3 {
            let step = duel::step(&m, d.options(), &mut s, &mut Fixed(1), &mut duel::NoTally);
            assert!(matches!(step, duel::Step::Continue));
        }
        assert_eq!(
            (s.f[0].actions, s.f[1].actions, s.f[0].guard, s.f[1].guard),
            (2, 2, 0, 0)
        );
        let (outcomes, _) = step_outcomes(&d, &m, s);
        close(outcomes["miss"], p_miss, 1e-12);
    }
}

/// The penalty moves the aggressive mirror towards the fighter who strikes first (it is the
/// other whose second parry replaces an attack), and the exact solver agrees with Monte
/// Carlo within 4σ under both values and a harsher modifier.
#[test]
fn changing_mind_exact_matches_monte_carlo() {
    let mut knight = aggressive(fighter(6, "long sword", 7, 6, "chain"));
    knight.shield = ShieldKind::Small;
    knight.shield_skill = 5;
    let mut brute = aggressive(fighter(6, "two handed sword", 8, 7, "leather"));
    brute.dodge = 4;
    let first_a = |mode, modifier| {
        opts(|o| {
            o.changing_mind = mode;
            o.changing_mind_modifier = modifier;
            o.first_strike_tie = FirstStrikeTie::A;
        })
    };
    let f = aggressive(d1());
    let seed = exact_duel(first_a(ChangingMind::Seed, -1), f.clone(), f.clone()).p_a_win;
    let free = exact_duel(first_a(ChangingMind::Free, -1), f.clone(), f.clone()).p_a_win;
    assert!(seed > free + 0.005, "seed {seed} free {free}");
    let cases = [
        (opts(|_| {}), knight.clone(), brute.clone()),
        (
            opts(|o| o.changing_mind = ChangingMind::Free),
            knight.clone(),
            brute.clone(),
        ),
        (first_a(ChangingMind::Seed, -3), f.clone(), f),
        (
            opts(|_| {}),
            FighterSpec {
                policy: Policy::Adaptive,
                ..knight
            },
            brute,
        ),
    ];
    for (i, (o, a, b)) in cases.into_iter().enumerate() {
        exact_checked_by_monte_carlo(o, a, b, 320 + i as u64);
    }
}

/// §4.17.2: with the shift on, a fighter 5 skill points above the other strikes first in spite
/// of a very wide weight gap or a longer weapon; below the gap, or with the shift off, the
/// weapons decide.
#[test]
fn potent_fighter_strikes_first_in_spite_of_weapons() {
    let first = |o: DraftOptions, a: &FighterSpec, b: &FighterSpec| {
        crate::testing::pair::<Draft>(o, a, b).1.first_by_rules
    };
    let on = opts(|o| o.potent_fighter_shift = true);
    let claymore = fighter(9, "two handed sword", 6, 6, "none");
    let rapier = fighter(4, "rapier", 6, 6, "none");
    assert_eq!(first(DraftOptions::default(), &claymore, &rapier), Some(Side::B));
    assert_eq!(first(on.clone(), &claymore, &rapier), Some(Side::A));
    let rapier5 = fighter(5, "rapier", 6, 6, "none");
    assert_eq!(first(on.clone(), &claymore, &rapier5), Some(Side::B));
    let gap4 = opts(|o| {
        o.potent_fighter_shift = true;
        o.potent_fighter_gap = 4;
    });
    assert_eq!(first(gap4, &claymore, &rapier5), Some(Side::A));
    // The longer long sword against a short sword 5 points better.
    let long = fighter(2, "long sword", 6, 6, "none");
    let short = fighter(7, "short sword", 6, 6, "none");
    assert_eq!(first(DraftOptions::default(), &long, &short), Some(Side::A));
    assert_eq!(first(on, &long, &short), Some(Side::B));
}

/// §4.17.2, the Lonesome Stranger: a potent archer (melee skill 9) whom a skill-4 swordsman
/// reaches from 8 m (in chain, no sprint: 4 m a segment) drops the bow and draws his short sword (1 segment) in time to strike in
/// segment 3 of the arrival round, one segment earlier than a common archer, who only draws.
#[test]
fn potent_fighter_finishes_drawing_a_segment_sooner() {
    let archer = with_missile(fighter(9, "short sword", 6, 6, "leather"), "long bow", 6);
    let closer = fighter(4, "long sword", 6, 6, "chain");
    for (shift, offset, planned) in [(false, 3, 0), (true, 2, 1)] {
        let o = apart(8, |o| o.potent_fighter_shift = shift);
        let (d, m) = crate::testing::pair::<Draft>(o, &archer, &closer);
        let mut s = d.start(&m);
        // The round start and segments 1 and 2: the swordsman arrives after segment 2.
        for _ in 0..3 {
            duel::step(&m, d.options(), &mut s, &mut Fixed(1), &mut duel::NoTally);
        }
        assert_eq!(s.dist, 0);
        assert_eq!((s.f[0].offset, s.f[0].planned), (offset, planned));
        assert_eq!((s.f[1].offset, s.f[1].planned), (2, 1));
    }
    // It is worth something, and the exact solver agrees with Monte Carlo.
    let off = exact_duel(apart(12, |_| {}), archer.clone(), closer.clone()).p_a_win;
    let on = apart(12, |o| o.potent_fighter_shift = true);
    let on = exact_checked_by_monte_carlo(on, archer, closer, 311).p_a_win;
    assert!(on > off + 0.01, "on {on} off {off}");
}

/// The shift engaged, by Monte Carlo against the exact solver: a claymore 5 points better than
/// a rapier duellist strikes first.
#[test]
fn potent_fighter_exact_matches_monte_carlo() {
    let claymore = fighter(9, "two handed sword", 6, 6, "chain");
    let mut rapier = aggressive(fighter(4, "rapier", 6, 6, "leather"));
    rapier.dodge = 6;
    let on = opts(|o| o.potent_fighter_shift = true);
    let off = exact_duel(DraftOptions::default(), claymore.clone(), rapier.clone()).p_a_win;
    let on = exact_checked_by_monte_carlo(on, claymore, rapier, 312).p_a_win;
    assert!(on > off, "on {on} off {off}");
}
