//! The fast path (`fast::duel`) against the shared `step`: both play the same stream of dice,
//! duel after duel, and must give the same outcomes and read the same dice (the streams end in
//! the same state after every duel).

use super::*;

/// Plays `duels` duels of `a` against `b` under `o` with the fast path and with the shared
/// duel over `step`, each on its own copy of one stream, and compares them after every duel.
fn same_duels(o: GamecraftOptions, a: &FighterSpec, b: &FighterSpec, duels: u64, seed: u64) {
    let (g, m) = setup(o, a, b);
    let e = m.fast.expect("the fast path applies to this setting");
    let mut fast = stream(seed, 0);
    let mut shared = fast.clone();
    for i in 0..duels {
        let got = crate::gamecraft::fast::duel(&g, &m, &e, &mut RngRoller::new(&mut fast));
        let want = crate::solver::duel(&g, &m, &mut RngRoller::new(&mut shared));
        assert_eq!(got, want, "duel {i} of seed {seed}");
        assert_eq!(fast, shared, "duel {i} of seed {seed} read other dice");
    }
}

fn with(f: FighterSpec, change: impl FnOnce(&mut FighterSpec)) -> FighterSpec {
    let mut f = f;
    change(&mut f);
    f
}

/// A pistol fighter (ranged, bullets).
fn pistol() -> FighterSpec {
    spec(
        [5, 6, 7, 4, 5, 5, 7, 5],
        &[("Firearms (Pistols)", 6), ("Combat Defense (Firearms)", 3)],
        "heavy pistol",
        "leather",
    )
}

/// A shotgun fighter (a spread weapon).
fn shotgun() -> FighterSpec {
    spec(
        [6, 7, 6, 4, 5, 5, 6, 5],
        &[("Firearms (Shotguns)", 5), ("Combat Defense (Firearms)", 4)],
        "shotgun",
        "leather",
    )
}

/// Over 1,000,000 duels in all (12 settings of 100,000), across plans, Grace policies, penalty
/// splits, lethal and non-lethal damage, melee and ranged weapons, and every option the fast
/// path reads (initiative rerolls and final ties, wound-penalty scope and static defence, the
/// incapacitated and Fatigue penalties, criticals and fumbles with their margins and effects,
/// surprise and awareness, the die's explode mode, resistance clamping, the multiple-action
/// penalty and its mode, pools, Grace's EV cost, the distance, the round cap).
#[test]
fn the_fast_path_plays_the_same_duels_as_step() {
    let plan = |f: &FighterSpec, p| with(f.clone(), |f| f.policy = p);
    let grace = |f: &FighterSpec, g| with(f.clone(), |f| f.grace = g);
    let cases: Vec<(GamecraftOptions, FighterSpec, FighterSpec)> = vec![
        // The reference duel D1.
        (GamecraftOptions::default(), aldric(), borg()),
        // A mirror: initiative ties to the final die, rerolled every round.
        (
            opts(|o| o.initiative_reroll_each_round = true),
            aldric(),
            aldric(),
        ),
        // Several attacks a round, penalties per check, Grace greedy and by need.
        (
            opts(|o| {
                o.multi_action_mode = MultiActionMode::PerCheck;
                o.multi_action_penalty = 2;
            }),
            grace(
                &plan(&aldric(), ActionPlan::MultiAttack(2)),
                GracePolicy::Greedy,
            ),
            grace(
                &plan(&borg(), ActionPlan::MultiAttack(3)),
                GracePolicy::Need,
            ),
        ),
        // Pooled penalties split on the attacks and evenly (a split on a dodge that is never
        // declared); Grace by expected value, half pools; fumbles that lose the next action.
        (
            opts(|o| {
                o.multi_action_penalty = 3;
                o.grace_ev_cost = 1;
                o.pool_start = PoolStart::Half;
                o.fumble_effect = FumbleEffect::LoseNextAction;
                o.fumble_margin = 3;
                o.crit_margin = 4;
            }),
            with(
                grace(
                    &plan(&borg(), ActionPlan::MultiAttack(2)),
                    GracePolicy::GreedyEv,
                ),
                |f| {
                    f.penalty_split = PenaltySplit::AllOnAttack;
                },
            ),
            with(
                grace(
                    &plan(&aldric(), ActionPlan::MultiAttack(3)),
                    GracePolicy::SaveForDefense,
                ),
                |f| {
                    f.penalty_split = PenaltySplit::AllOnDodge;
                },
            ),
        ),
        // Criticals to the next wound level, penalties on the static defence and checks only.
        (
            opts(|o| {
                o.crit_effect = CritEffect::WoundLevel;
                o.crit_extra_amount = 2;
                o.crit_margin = 5;
                o.wound_penalty_scope = PenaltyScope::ChecksOnly;
                o.wound_penalty_static_defense = true;
                o.incapacitated_penalty = 7;
            }),
            grace(&aldric(), GracePolicy::Greedy),
            borg(),
        ),
        // Non-lethal damage into Fatigue, its half penalty, resistance below zero.
        (
            opts(|o| {
                o.fatigue_half_penalty = 3;
                o.resist_clamp_zero = false;
                o.crit_effect = CritEffect::WoundLevel;
                o.crit_margin = 6;
            }),
            with(aldric(), |f| f.damage_type = DamageType::Nonlethal),
            with(borg(), |f| f.damage_type = DamageType::Nonlethal),
        ),
        // Surprise on the first attack; no criticals' extra; a plain die; a round cap.
        (
            opts(|o| {
                o.surprise_first_attack = true;
                o.crit_effect = CritEffect::None;
                o.explode_mode = ExplodeMode::None;
                o.max_rounds = 3;
            }),
            borg(),
            aldric(),
        ),
        // Unaware targets (armour only), unlimited explosions, the final tie to A.
        (
            opts(|o| {
                o.aware = false;
                o.explode_mode = ExplodeMode::Unlimited;
                o.initiative_final_tie = InitiativeTie::A;
                o.initiative_reroll_each_round = true;
            }),
            borg(),
            borg(),
        ),
        // Guns at Short range holding there (a spread shotgun against a pistol), B on the
        // final tie, pools empty.
        (
            opts(|o| {
                o.distance = Distance::Short;
                o.initiative_final_tie = InitiativeTie::B;
                o.pool_start = PoolStart::Empty;
            }),
            with(pistol(), |f| f.movement = MovePolicy::To(Distance::Short)),
            shotgun(),
        ),
        // Guns at Medium, beyond the shotgun's Range; two simultaneous attacks are not
        // simultaneous with one; ranged attacks on Perception.
        (
            opts(|o| {
                o.distance = Distance::Medium;
                o.ranged_attack_attribute = tables::Attribute::Perception;
                o.bullet_bonus = 3;
            }),
            with(pistol(), |f| f.simultaneous = true),
            grace(
                &plan(&shotgun(), ActionPlan::MultiAttack(2)),
                GracePolicy::Greedy,
            ),
        ),
        // No multiple-action penalty, pools off, front-loaded wound levels.
        (
            opts(|o| {
                o.multi_action_penalty = 0;
                o.pools_enabled = false;
                o.bonus_allocation = BonusAllocation::FrontLoaded;
            }),
            grace(
                &plan(&aldric(), ActionPlan::MultiAttack(4)),
                GracePolicy::Greedy,
            ),
            plan(&borg(), ActionPlan::MultiAttack(1)),
        ),
        // Long fights: a round cap of 40 between two heavily armoured fighters, and a fighter
        // with no attacks at all.
        (
            opts(|o| o.max_rounds = 40),
            spec(
                [5, 8, 6, 4, 5, 5, 5, 5],
                &[("Melee Combat", 3), ("Combat Defense", 6)],
                "dagger",
                "plate mail",
            ),
            plan(&borg(), ActionPlan::MultiAttack(0)),
        ),
    ];
    assert!(cases.len() >= 12);
    for (seed, (o, a, b)) in cases.into_iter().enumerate() {
        same_duels(o, &a, &b, 100_000, seed as u64 + 1);
    }
}

/// The fast path stays off where a fighter could move, dodge, hold a reserved action, act
/// simultaneously, run out of ammunition, set off a blast or strafe, where the duel goes on
/// past Incapacitated, and under bleeding.
#[test]
fn the_fast_path_is_off_where_it_does_not_apply() {
    let fast =
        |o: GamecraftOptions, a: &FighterSpec, b: &FighterSpec| setup(o, a, b).1.fast.is_some();
    let d = GamecraftOptions::default;
    let (a, b) = (aldric(), borg());
    assert!(fast(d(), &a, &b));
    assert!(!fast(
        opts(|o| o.end_condition = EndCondition::Dead),
        &a,
        &b
    ));
    assert!(!fast(
        opts(|o| o.end_condition = EndCondition::Unconscious),
        &a,
        &b
    ));
    assert!(!fast(opts(|o| o.bleeding = true), &a, &b));
    for p in [
        ActionPlan::AttackDodge,
        ActionPlan::DodgeAttack,
        ActionPlan::FullDodgeAt(0),
        ActionPlan::FullDodgeAt(3),
        ActionPlan::MultiAttack(crate::gamecraft::fast::MAX_ATTACKS as u8 + 1),
    ] {
        assert!(!fast(d(), &with(a.clone(), |f| f.policy = p), &b), "{p:?}");
    }
    assert!(fast(
        d(),
        &with(a.clone(), |f| f.policy = ActionPlan::MultiAttack(2)),
        &b
    ));
    assert!(!fast(
        d(),
        &with(a.clone(), |f| {
            f.policy = ActionPlan::MultiAttack(2);
            f.simultaneous = true;
        }),
        &b
    ));
    assert!(!fast(
        d(),
        &with(a.clone(), |f| f.reserve = ReservePolicy::Dodge),
        &b
    ));
    assert!(!fast(
        d(),
        &with(a.clone(), |f| f.reserve = ReservePolicy::Interrupt),
        &b
    ));
    // Moving: a pistol closing from Medium to Short, a swordsman closing from Short.
    let medium = || opts(|o| o.distance = Distance::Medium);
    assert!(fast(medium(), &pistol(), &pistol()));
    assert!(!fast(
        medium(),
        &with(pistol(), |f| f.movement = MovePolicy::To(Distance::Short)),
        &pistol()
    ));
    assert!(!fast(
        opts(|o| o.distance = Distance::Short),
        &with(a.clone(), |f| f.movement =
            MovePolicy::To(Distance::PointBlank)),
        &pistol()
    ));
    // Tracked ammunition (an automatic weapon), strafes, explosives.
    let smg = || {
        spec(
            [5, 6, 7, 4, 5, 5, 7, 5],
            &[("Firearms (Submachine Guns)", 6)],
            "sub machinegun",
            "leather",
        )
    };
    let short = || opts(|o| o.distance = Distance::Short);
    assert!(!fast(short(), &smg(), &pistol()));
    assert!(fast(
        opts(|o| {
            o.distance = Distance::Short;
            o.ammunition = false;
        }),
        &smg(),
        &pistol()
    ));
    assert!(!fast(
        opts(|o| {
            o.distance = Distance::Short;
            o.ammunition = false;
        }),
        &with(smg(), |f| f.fire_mode = FireMode::StrafeSmall),
        &pistol()
    ));
    assert!(!fast(short(), &grenadier(), &pistol()));
}
