//! The engaged fast path (`fast::engaged_duel`, issue 15 item 2) against the shared `step`:
//! both play the same stream of dice, duel after duel, and must give the same outcomes and
//! read the same dice (the streams end in the same state after every duel).

use super::*;

/// Plays `duels` duels of `a` against `b` under `o` with the fast path and with the shared
/// duel over `step`, each on its own copy of one stream, and compares them after every duel.
/// Returns whether the setting took the fast path's single-attack form (`Engaged::single`).
fn same_duels(o: DraftOptions, a: &FighterSpec, b: &FighterSpec, duels: u64, seed: u64) -> bool {
    let (d, m) = crate::testing::pair::<Draft>(o, a, b);
    let e = m.hot.fast.expect("the fast path applies to this setting");
    let mut fast = stream(seed, 0);
    let mut shared = fast.clone();
    for i in 0..duels {
        let got = crate::draft::fast::engaged_duel(&m, &e, &mut RngRoller::new(&mut fast));
        let want = crate::solver::duel(&d, &m, &mut RngRoller::new(&mut shared));
        assert_eq!(got, want, "duel {i} of seed {seed}");
        assert_eq!(fast, shared, "duel {i} of seed {seed} read other dice");
    }
    // The engine's batches (`Ruleset::duels`, one stream kept in the fast path's frame across
    // the duels) give the same duels in the same order and leave the stream where the shared
    // duel leaves it.
    let mut batch = Vec::with_capacity(10_000);
    d.duels(&m, &mut RngRoller::new(&mut fast), 10_000, |o: &crate::DuelOutcome| batch.push(*o));
    for (i, got) in batch.iter().enumerate() {
        let want = crate::solver::duel(&d, &m, &mut RngRoller::new(&mut shared));
        assert_eq!(*got, want, "batched duel {i} of seed {seed}");
    }
    assert_eq!(fast, shared, "a batch of seed {seed} read other dice");
    e.single()
}

fn with(f: FighterSpec, change: impl FnOnce(&mut FighterSpec)) -> FighterSpec {
    let mut f = f;
    change(&mut f);
    f
}

/// Over 1,000,000 duels in all (13 settings of 100,000), across policies, defences, shields
/// and every option the fast path reads (wounds and their capacities, overflow and penalties,
/// end conditions, helpless fighters and the lying-target bonus, Defensive Position, Changing
/// One's Mind, knock-back, actions, the undefended value, the round cap, first strikes by rule
/// and by die).
#[test]
fn the_fast_path_plays_the_same_duels_as_step() {
    let d1 = fighter(6, "long sword", 6, 6, "leather");
    let (d2a, d2b) = (
        fighter(7, "short sword", 8, 7, "chain"),
        fighter(5, "mace", 9, 5, "leather"),
    );
    let d3 = fighter(5, "dagger", 5, 9, "chain");
    let shielded = with(fighter(6, "long sword", 7, 6, "chain"), |f| {
        f.shield = ShieldKind::Large;
        f.shield_skill = 5;
        f.dodge = 4;
    });
    let heavy = fighter(5, "two handed sword", 9, 7, "leather");
    let policy = |f: &FighterSpec, p| with(f.clone(), |f| f.policy = p);
    let skill_first = || opts(|o| o.striking_order = StrikingOrder::SkillFirst);
    let cases: Vec<(DraftOptions, FighterSpec, FighterSpec)> = vec![
        (skill_first(), d1.clone(), d1.clone()),
        (skill_first(), d2a.clone(), d2b.clone()),
        (skill_first(), d3.clone(), d3.clone()),
        (
            DraftOptions::default(),
            policy(&d1, Policy::Aggressive),
            policy(&d1, Policy::Defensive),
        ),
        (
            DraftOptions::default(),
            policy(&d2a, Policy::AllOut),
            policy(&d2b, Policy::Adaptive),
        ),
        (
            opts(|o| {
                o.changing_mind = ChangingMind::Free;
                o.severe_knockback = Knockback::Penalty;
                o.wound_overflow = Overflow::Reset;
            }),
            shielded.clone(),
            heavy.clone(),
        ),
        (
            opts(|o| {
                o.end_condition = EndCondition::Death;
                o.critical_can_attack = true;
                o.first_strike_tie = FirstStrikeTie::A;
            }),
            policy(&d3, Policy::Adaptive),
            policy(&d1, Policy::Aggressive),
        ),
        (
            opts(|o| o.end_condition = EndCondition::FirstWound),
            with(shielded.clone(), |f| f.defence = DefenceChoice::Dodge),
            d1.clone(),
        ),
        (
            opts(|o| {
                o.end_condition = EndCondition::FirstSevere;
                o.severe_manual_penalty_in_combat = true;
                o.free_actions_per_round = 1;
                o.max_actions_per_round = 2;
                o.extra_action_modifier = -3;
            }),
            policy(&heavy, Policy::Aggressive),
            with(d2a.clone(), |f| f.defence = DefenceChoice::None),
        ),
        (
            opts(|o| {
                o.max_rounds = 2;
                o.end_condition = EndCondition::Death;
            }),
            d3.clone(),
            d3.clone(),
        ),
        // Fighting on while helpless: the lying-target bonus, no defence, and a helpless
        // fighter's own attacks; Defensive Position against an adaptive fighter.
        (
            opts(|o| {
                o.end_condition = EndCondition::Death;
                o.lying_target_bonus = 3;
                o.defensive_position_bonus = 3;
                o.wound_penalties.critical = -2;
            }),
            policy(&heavy, Policy::Defensive),
            policy(&d2b, Policy::Adaptive),
        ),
        // Other wound capacities (the wound-state tables), overflow that empties a track,
        // knock-back and the Severe manual penalty together.
        (
            opts(|o| {
                o.wound_capacity.light = 2;
                o.wound_capacity.severe = 1;
                o.wound_capacity.critical = 2;
                o.wound_overflow = Overflow::Reset;
                o.severe_knockback = Knockback::Penalty;
                o.severe_manual_penalty_in_combat = true;
                o.end_condition = EndCondition::Death;
                o.critical_can_attack = true;
            }),
            policy(&d2a, Policy::Aggressive),
            policy(&shielded, Policy::Adaptive),
        ),
        // One action a round, none free, a different undefended value: all-out never defends.
        (
            opts(|o| {
                o.max_actions_per_round = 1;
                o.free_actions_per_round = 0;
                o.extra_action_modifier = -2;
                o.undefended_value = 3;
                o.changing_mind_modifier = -3;
            }),
            policy(&d1, Policy::AllOut),
            policy(&d2b, Policy::Balanced),
        ),
    ];
    let mut single = Vec::new();
    for (seed, (o, a, b)) in cases.into_iter().enumerate() {
        single.push(same_duels(o, &a, &b, 100_000, seed as u64 + 1));
    }
    // Both forms of the fast path are played: the single-attack form where every plan attacks
    // at most once a round and the first two actions are free, the general one elsewhere.
    assert_eq!(
        single,
        [true, true, true, false, false, true, false, true, false, true, true, false, false]
    );
}

/// The fast path stays off where a fighter could draw, move, charge, drop a weapon or
/// collapse, or blows could be simultaneous, or the wound capacities give too many states.
#[test]
fn the_fast_path_is_off_where_it_does_not_apply() {
    let d1 = fighter(6, "long sword", 6, 6, "leather");
    let engaged = |o: DraftOptions| crate::testing::pair::<Draft>(o, &d1, &d1).1.hot.fast.is_some();
    assert!(engaged(DraftOptions::default()));
    assert!(!engaged(opts(|o| o.start_distance = 30)));
    assert!(!engaged(opts(|o| o.exhaustion = true)));
    assert!(!engaged(opts(|o| o.hit_locations = true)));
    assert!(!engaged(opts(|o| {
        o.striking_order = StrikingOrder::SkillFirst;
        o.first_strike_tie = FirstStrikeTie::Simultaneous;
    })));
    // More wound states than the fast path tabulates (4 × 4 × 4 alive, and dead).
    assert!(!engaged(opts(|o| {
        o.wound_capacity.severe = 3;
        o.wound_capacity.critical = 3;
    })));
    assert!(engaged(opts(|o| {
        o.wound_capacity.severe = 3;
        o.wound_capacity.critical = 2;
    })));
}
