//! Cards oracles: the seed's worked examples replayed register by register with scripted
//! cards, the digest's §7 tables through the checks (exact exactly, Monte Carlo within 4σ at
//! fixed seeds), §7.6 initiative, §7.9 one register with hits, §7.10 one full round under the
//! four policy pairs, and every duel ending within the round cap under every policy pair.

use oddsmith_dice::deck::{Card, Deck, Hand};
use oddsmith_dice::stream;

use super::duel::{self, Decl, KIT_BACKUP, KIT_BARE, KIT_DISARMED, Man, SideRound, State};
use super::options::{CardsOptions, HitRule, OnDisarm, Reshuffle, Start};
use super::spec::{AttackerPolicy, DefenderPolicy, FighterSpec, HitPolicy};
use super::{Cards, Matchup};
use crate::testing::{check_docs, pair, within_4_sigma};
use crate::{CheckParams, Ending, NoTally, OutcomeTally, RngRoller, Ruleset, Winner};

fn spec(text: &str) -> FighterSpec {
    toml::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn opts(f: impl FnOnce(&mut CardsOptions)) -> CardsOptions {
    let mut o = CardsOptions::default();
    f(&mut o);
    o
}

const DEVON: &str = r#"
skill = 3
weapon = "sword"
combat_training = 2
backup = "dagger"
backup_skill = 2
tactics = { hit = "never" }
"#;

const SOLDIER: &str = r#"
skill = 2
weapon = "sword"
armor_mod = -1
backup = "dagger"
backup_skill = 2
tactics = { hit = "never" }
"#;

fn rounds(hands: [&[Card]; 2]) -> [SideRound; 2] {
    let mut rs = [SideRound::default(); 2];
    for (r, h) in rs.iter_mut().zip(hands) {
        r.hand = Hand::of(h);
        r.cap = 3;
    }
    rs
}

fn decl(man: Man, card: Card, arm: u8) -> Decl {
    Decl { man, card, arm }
}

/// Resolves one register with A attacking, outside a charge, without counting.
fn resolve0<R: crate::Roller>(
    r: &Cards,
    m: &Matchup,
    s: &mut State,
    rs: &mut [SideRound; 2],
    a: Decl,
    d: Option<Decl>,
    dice: &mut R,
) -> (duel::Register, Option<crate::Step>) {
    duel::resolve(r.options(), m, s, rs, 0, a, d, 0, dice, &mut NoTally)
}

#[test]
fn docs_are_complete() {
    check_docs::<Cards>();
}

/// Seed §For Example (Devon vs the enemy soldier), digest §7.14.1.
#[test]
fn devon_vs_the_soldier_register_by_register() {
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(DEVON), &spec(SOLDIER));
    let mut s = r.start(&m);
    s.init = 0;
    assert_eq!(s.range, 1);
    // Hands (after the cards are declared, none are left): scripted.
    let mut rs = rounds([&[], &[]]);
    let mut rng = stream(1, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut t = NoTally;
    // Register 1: Attack +3 (hit) against Parry +5: 3 + 1 − 5 = −1, fails.
    let (reg, end) = duel::resolve(
        r.options(),
        &m,
        &mut s,
        &mut rs,
        0,
        decl(Man::Attack, Card::hit(3), 0),
        Some(decl(Man::Parry, Card::plain(5), 0)),
        0,
        &mut dice,
        &mut t,
    );
    assert_eq!((reg.defense_total, reg.net, reg.success), (Some(5), -1, false));
    assert!(end.is_none());
    // Register 2: Attack −2 (a feint) against Parry −2 (hit, not hit): the parry total is not
    // positive, so the attack total is −2 + 1 = −1: a miss.
    let (reg, _) = duel::resolve(
        r.options(),
        &m,
        &mut s,
        &mut rs,
        0,
        decl(Man::Attack, Card::plain(-2), 0),
        Some(decl(Man::Parry, Card::hit(-2), 0)),
        0,
        &mut dice,
        &mut t,
    );
    assert_eq!((reg.defense_total, reg.net, reg.success), (Some(-2), -1, false));
    // Register 3: the soldier has no card; Disarming Attack +10: 10 + 1 − 5 = +6 > 0.
    let (reg, end) = duel::resolve(
        r.options(),
        &m,
        &mut s,
        &mut rs,
        0,
        decl(Man::Disarm, Card::plain(10), 0),
        None,
        0,
        &mut dice,
        &mut t,
    );
    assert_eq!((reg.attack_total, reg.defense_total, reg.success), (6, None, true));
    // "This doesn't necessarily end the combat": the soldier must draw his backup.
    assert!(end.is_none());
    assert_eq!(s.kit[1], KIT_DISARMED);
    assert_eq!(s.range, 1, "parries step back: the range stays 1");
    assert_eq!(s.hp, [5, 5]);
    // Without a backup weapon he fights on barehanded (§Disarming Attack: "This does not
    // necessarily end combat"), keeping his shield (on_disarm = "backup_or_unarmed").
    let (r3, m3) = pair::<Cards>(
        CardsOptions::default(),
        &spec(DEVON),
        &spec("skill = 2\nweapon = \"sword\"\noff_hand = \"small shield\"\noff_hand_skill = 2"),
    );
    let mut s3 = r3.start(&m3);
    let (_, end) = duel::resolve(
        r3.options(),
        &m3,
        &mut s3,
        &mut rs,
        0,
        decl(Man::Disarm, Card::plain(10), 0),
        None,
        0,
        &mut dice,
        &mut t,
    );
    assert!(end.is_none());
    assert_eq!(s3.kit[1], KIT_BARE);
    let arms = duel::arms(&m3, &s3, 1);
    assert!(arms[1].is_some_and(|a| a.shield), "the shield stays");
    // The digest's reading defeats him (on_disarm = "backup_or_defeat").
    let (r2, m2) = pair::<Cards>(
        opts(|o| o.on_disarm = OnDisarm::BackupOrDefeat),
        &spec(DEVON),
        &spec("skill = 2\nweapon = \"sword\"\narmor_mod = -1"),
    );
    let mut s2 = r2.start(&m2);
    let (_, end) = duel::resolve(
        r2.options(),
        &m2,
        &mut s2,
        &mut rs,
        0,
        decl(Man::Disarm, Card::plain(10), 0),
        None,
        0,
        &mut dice,
        &mut t,
    );
    assert_eq!(end, Some(crate::Step::Over(Winner::A, Ending::Yield)));
}

/// With Devon's hit card losing register 1, `hit = "when_losing"` would hit (digest §7.14.1):
/// a hit draw is taken from his deck and added.
#[test]
fn when_losing_hits_a_losing_hit_card() {
    let devon = DEVON.replace("hit = \"never\"", "hit = \"when_losing\"");
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(&devon), &spec(SOLDIER));
    let mut s = r.start(&m);
    let mut rs = rounds([&[], &[]]);
    let mut rng = stream(2, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut t = OutcomeTally::default();
    let (reg, _) = duel::resolve(
        r.options(),
        &m,
        &mut s,
        &mut rs,
        0,
        decl(Man::Attack, Card::hit(3), 0),
        Some(decl(Man::Parry, Card::plain(5), 0)),
        0,
        &mut dice,
        &mut t,
    );
    assert!(t.0.counters[duel::C_HIT_DRAWS] >= 1);
    assert_ne!(reg.attack_total, 4, "a card was added");
}

/// Seed §Changing Weapons (digest §7.14.2): the noble parries without stepping back (range
/// 1 → 0); Devon spends a card to change to his dagger and takes no other action; next round
/// he draws min(dagger, fast-draw) = 1 card, the round after his dagger skill.
#[test]
fn changing_weapons_example() {
    let o = CardsOptions::default();
    let noble = "skill = 3\nweapon = \"long sword\"";
    let (r, m) = pair::<Cards>(o, &spec(DEVON), &spec(noble));
    let mut s = r.start(&m);
    s.init = 0;
    let mut rs = rounds([&[Card::plain(4), Card::plain(-1)], &[Card::plain(2)]]);
    let mut rng = stream(3, 0);
    let mut dice = RngRoller::new(&mut rng);
    let (_, _) = resolve0(&r, &m, &mut s, &mut rs, decl(Man::Attack, Card::plain(1), 0), Some(decl(Man::ParryNoStep, Card::plain(2), 0)), &mut dice);
    assert_eq!(s.range, 0, "errata E1: the example's 'reducing the range to 0'");
    // Devon's sword cannot attack at 0; his dagger can: his tactic changes weapons.
    let mut rng = stream(4, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut rs = rounds([&[Card::plain(4), Card::plain(-1)], &[]]);
    let mut rs2 = rs;
    let d = decl_next(&r, &m, &s, &mut rs2, &mut dice);
    assert_eq!(d.man, Man::Change);
    rs = rs2;
    resolve0(&r, &m, &mut s, &mut rs, d, None, &mut dice);
    assert_eq!(s.kit[0], KIT_BACKUP);
    assert!(rs[0].done, "no further action this round");
    assert_eq!(rs[0].hand.len(), 1, "the other card stays unplayed");
    assert_eq!(duel::hand_size(&m, &s, 0), 1, "no fast-draw: one card");
    s.fresh[0] = false;
    assert_eq!(duel::hand_size(&m, &s, 0), 2, "the dagger skill the round after");
}

/// Reviewer A5: the no-step parry re-syncs the range the tactics read, so in the Devon
/// example the attacker's next register sees range 0 (and changes weapons) instead of
/// declaring a sword attack that is illegal when it resolves.
#[test]
fn no_step_parry_resyncs_declared_range() {
    let a = decl(Man::Attack, Card::plain(1), 0);
    assert!(duel::immediate(&a, Some(&decl(Man::ParryNoStep, Card::plain(2), 0))));
    assert!(!duel::immediate(&a, Some(&decl(Man::Parry, Card::plain(2), 0))));
}

/// Reviewer A6/A8 (seed §Shields, Parrying Daggers & Off-hand Weapons, §Range): the off-hand
/// item stays through a weapon change (hand = the lower of the two skills), and the combat
/// begins at the range of the longest weapon, off-hand weapons included.
#[test]
fn off_hand_kept_and_counted_for_the_start_range() {
    let o = CardsOptions::default();
    let a = "skill = 4\nweapon = \"sword\"\noff_hand = \"small shield\"\noff_hand_skill = 2\nbackup = \"dagger\"\nbackup_skill = 3";
    let (r, m) = pair::<Cards>(o.clone(), &spec(a), &spec("skill = 2\nweapon = \"dagger\""));
    let mut s = r.start(&m);
    let mut rs = rounds([&[], &[]]);
    duel::change(&m, &mut s, &mut rs, 0);
    assert_eq!(s.kit[0], KIT_BACKUP);
    assert!(duel::arms(&m, &s, 0)[1].is_some_and(|x| x.shield), "the shield stays");
    s.fresh[0] = false;
    assert_eq!(duel::hand_size(&m, &s, 0), 2, "min(dagger 3, shield 2)");
    let b = "skill = 2\nweapon = \"dagger\"\noff_hand = \"sword\"\noff_hand_skill = 2";
    let (r, m) = pair::<Cards>(o, &spec(b), &spec("skill = 2\nweapon = \"dagger\""));
    assert_eq!(r.start(&m).range, 1, "the off-hand sword is the longest weapon");
}

fn decl_next<R: crate::Roller>(
    r: &Cards,
    m: &Matchup,
    s: &State,
    rs: &mut [SideRound; 2],
    dice: &mut R,
) -> Decl {
    duel::declare(r.options(), m, s, rs, 0, s.range, dice).expect("a declaration")
}

/// Seed §Shields, Parrying Daggers & Off-hand Weapons (digest §7.14.3): medium axe (MM 2,
/// skill 4) and poinard (MM 3, skill 6): 4 cards, 4 maneuvers, at most 2 with the axe.
#[test]
fn off_hand_example() {
    let devon = "skill = 4\nweapon = \"medium axe\"\noff_hand = \"poinard\"\noff_hand_skill = 6";
    let (r, m) = pair::<Cards>(
        opts(|o| o.range_model = false),
        &spec(devon),
        &spec(SOLDIER),
    );
    let s = r.start(&m);
    assert_eq!(duel::hand_size(&m, &s, 0), 4);
    assert_eq!(duel::cap(*duel::arms(&m, &s, 0)), 4);
    // Attacking with four cards: two with the axe, then the poinard.
    let mut rng = stream(5, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut rs = rounds([
        &[Card::plain(1), Card::plain(2), Card::plain(3), Card::plain(4)],
        &[],
    ]);
    rs[0].cap = 4;
    let mut arms_used = Vec::new();
    while let Some(d) = duel::declare(r.options(), &m, &s, &mut rs, 0, 0, &mut dice) {
        arms_used.push(d.arm);
    }
    assert_eq!(arms_used, [0, 0, 1, 1], "axe twice, then the poinard");
}

/// Seed §Range, literal reading: an unopposed attack changes the range like a no-step parry.
#[test]
fn unopposed_attack_closes_range_option() {
    assert!(CardsOptions::default().unopposed_attack_closes_range, "the seed's reading");
    // Answered by a dodge: "jumping backwards" steps back, so the range holds; under
    // `dodge_steps_back = false` it moves as for an unopposed attack.
    for (flag, want) in [(true, 1), (false, 0)] {
        let o = opts(|o| o.dodge_steps_back = flag);
        let (r, m) = pair::<Cards>(o, &spec(DEVON), &spec(SOLDIER));
        let mut s = r.start(&m);
        let mut rs = rounds([&[], &[]]);
        let mut rng = stream(6, 1);
        let mut dice = RngRoller::new(&mut rng);
        resolve0(&r, &m, &mut s, &mut rs, decl(Man::Attack, Card::plain(-4), 0), Some(decl(Man::Dodge, Card::plain(5), 0)), &mut dice);
        assert_eq!(s.range, want, "dodge_steps_back = {flag}");
    }
    for (flag, want) in [(false, 1), (true, 0)] {
        let o = opts(|o| o.unopposed_attack_closes_range = flag);
        let (r, m) = pair::<Cards>(o, &spec(DEVON), &spec(SOLDIER));
        let mut s = r.start(&m);
        let mut rs = rounds([&[], &[]]);
        let mut rng = stream(6, 0);
        let mut dice = RngRoller::new(&mut rng);
        resolve0(&r, &m, &mut s, &mut rs, decl(Man::Attack, Card::plain(-4), 0), None, &mut dice);
        assert_eq!(s.range, want);
    }
}

/// §Complex Maneuvers Push (range 0 only, range +1), Lunge (−2, one yard beyond the weapon's
/// range, maximum damage +1), and the `reserve` tactic (the highest cards are kept back).
#[test]
fn push_lunge_and_reserve() {
    let o = CardsOptions::default();
    let mut rng = stream(7, 0);
    let mut dice = RngRoller::new(&mut rng);
    // A spearman at range 0 pushes.
    let (r, m) = pair::<Cards>(
        o.clone(),
        &spec("skill = 2\nweapon = \"spear\""),
        &spec("skill = 2\nweapon = \"dagger\""),
    );
    let mut s = r.start(&m);
    s.range = 0;
    let mut rs = rounds([&[Card::plain(1), Card::plain(2)], &[]]);
    let d = duel::declare(r.options(), &m, &s, &mut rs, 0, 0, &mut dice).unwrap();
    assert_eq!((d.man, d.card), (Man::Push, Card::plain(2)));
    resolve0(&r, &m, &mut s, &mut rs, d, None, &mut dice);
    assert_eq!(s.range, 1);
    // A swordsman one yard short lunges; an unopposed +10 deals 3 + 1.
    let (r, m) = pair::<Cards>(
        o.clone(),
        &spec("skill = 2\nweapon = \"sword\"\ntactics = { lunge = true }"),
        &spec("skill = 2\nweapon = \"spear\""),
    );
    let mut s = r.start(&m);
    assert_eq!(s.range, 2);
    let mut rs = rounds([&[Card::plain(10)], &[]]);
    let d = duel::declare(r.options(), &m, &s, &mut rs, 0, 2, &mut dice).unwrap();
    assert_eq!(d.man, Man::Lunge);
    let (reg, _) =
        resolve0(&r, &m, &mut s, &mut rs, d, None, &mut dice);
    assert_eq!((reg.attack_total, reg.damage), (10 + 1 - 2, 4));
    // Greedy with one card in reserve plays the second best, then stops at one card left.
    let (r, m) = pair::<Cards>(
        o,
        &spec("skill = 3\nweapon = \"sword\"\ntactics = { reserve = 1 }"),
        &spec("skill = 2\nweapon = \"sword\""),
    );
    let s = r.start(&m);
    let mut rs = rounds([&[Card::plain(1), Card::plain(9), Card::plain(5)], &[]]);
    let first = duel::declare(r.options(), &m, &s, &mut rs, 0, 1, &mut dice).unwrap();
    assert_eq!(first.card, Card::plain(5));
    rs[0].declared = 1;
    let second = duel::declare(r.options(), &m, &s, &mut rs, 0, 1, &mut dice).unwrap();
    assert_eq!(second.card, Card::plain(1));
    rs[0].declared = 2;
    assert!(duel::declare(r.options(), &m, &s, &mut rs, 0, 1, &mut dice).is_none());
}

/// Seed §Range (digest §7.14.8): spear 2 against sword 1 begins at range 2; the swordsman
/// may parry the spear but not attack.
#[test]
fn range_example() {
    let o = CardsOptions::default();
    let (r, m) = pair::<Cards>(
        o.clone(),
        &spec("skill = 3\nweapon = \"spear\""),
        &spec("skill = 3\nweapon = \"sword\""),
    );
    let s = r.start(&m);
    assert_eq!(s.range, 2);
    let spear = m.f[0].main;
    let sword = m.f[1].main;
    assert!(duel::can_attack(&o, spear, 2));
    assert!(!duel::can_attack(&o, sword, 2));
    assert!(duel::can_parry(&o, sword, Some(spear), 2));
    assert!(!duel::can_parry(&o, spear, Some(sword), 1), "G15: literal reach rule");
}

fn check(r: &Cards, words: &str) -> crate::CheckExact {
    let p = CheckParams::parse(words.split_whitespace()).unwrap();
    r.check_exact(&r.parse_check(&p).unwrap())
}

/// Seed §Basic Actions tracking example (digest §7.14.5) with a stacked deck: −3, −4, −7
/// drawn, −3 played, + awareness 2 + Easy 3 = +2: success. And §Opposed Checks charm
/// example: +6 against +8 fails by 2 ("poor").
#[test]
fn tracking_and_charm_examples() {
    let o = opts(|o| {
        o.deck = super::options::DeckChoice::Custom;
        o.custom_deck = vec!["-3".into(), "-4".into(), "-7".into()];
    });
    let r = Cards::new(o).unwrap();
    let c = check(&r, "skill=3 modifier=5");
    assert_eq!(c.distribution.ratio(2), (1, 1));
    assert_eq!(c.p_success(), 1.0);
    let o = opts(|o| {
        o.deck = super::options::DeckChoice::Custom;
        o.custom_deck = vec!["+5".into(), "+5".into()];
    });
    let r = Cards::new(o).unwrap();
    // Enris +5 + finesse 1 against the barkeeper's +8: modifier −2 relative to equal cards.
    let c = check(&r, "kind=opposed skill=1 vs=1 modifier=-2");
    assert_eq!(c.distribution.ratio(-2), (1, 1));
    assert_eq!(c.p_success(), 0.0);
    let poor = c.bands.iter().position(|b| b.contains(-2));
    assert_eq!(poor, None, "opposed checks have no bands");
    let basic = check(&r, "skill=1 modifier=-7");
    assert_eq!(basic.bands[basic.bands.iter().position(|b| b.contains(-2)).unwrap()].name, "poor");
}

/// Digest §7.2, §7.4, §7.8, §7.11, §7.12, §7.13 through the checks, exactly.
#[test]
fn checks_match_the_digest_tables_exactly() {
    let r = Cards::new(CardsOptions::default()).unwrap();
    let ratio = |w: &str| check(&r, w).distribution.ratio_at_least(1);
    assert_eq!(ratio("skill=3"), (149, 172));
    assert_eq!(ratio("skill=4 modifier=-3"), (1083, 1763));
    assert_eq!(ratio("skill=3 modifier=-5"), (4105, 13244));
    assert_eq!(ratio("kind=register skill=3 parry_cards=2 attack=1"), (7852027, 12528824));
    assert_eq!(ratio("kind=register skill=1 parry_cards=1 parry=-3"), (823, 1936));
    assert_eq!(ratio("kind=opposed skill=1 vs=1"), (905, 1936));
    assert_eq!(ratio("kind=opposed skill=3 vs=3 modifier=1"), (95490071, 175403536));
    assert_eq!(ratio("kind=damage skill=2"), (63, 86));
    assert_eq!(ratio("kind=damage skill=1 edge=-1 max_damage=1"), (17, 44));
    let melee = check(&r, "kind=into_melee skill=3 modifier=-2");
    assert_eq!(melee.distribution.ratio_at_least(1), (8749, 13244));
    assert_eq!(melee.distribution.ratio(0), (785, 6622));
    assert_eq!(melee.distribution.ratio_at_most(-1), (2925, 13244));
    let dmg = check(&r, "kind=damage skill=2");
    assert!((dmg.distribution.mean() - 1769.0 / 946.0).abs() < 1e-12);
}

/// The sampled checks agree with the exact ones within 4σ at a fixed seed.
#[test]
fn checks_monte_carlo_within_4_sigma() {
    let r = Cards::new(CardsOptions::default()).unwrap();
    for w in [
        "skill=3 modifier=-3",
        "kind=register skill=2 parry_cards=2 attack=1",
        "kind=opposed skill=2 vs=1",
        "kind=into_melee skill=1",
    ] {
        let p = CheckParams::parse(w.split_whitespace()).unwrap();
        let c = r.parse_check(&p).unwrap();
        let exact = r.check_exact(&c).p_success();
        let n = 100_000u32;
        let mut rng = stream(20, 0);
        let mut dice = RngRoller::new(&mut rng);
        let ok = (0..n).filter(|_| r.check_sample(&c, &mut dice) >= 1).count() as f64;
        within_4_sigma(ok / f64::from(n), exact, n);
    }
}

/// Digest §7.6: initiative with ties redrawn, combat training 2 against 1: 5304/7783.
#[test]
fn initiative_matches_7_6() {
    let p = initiative_share(Start::Engaged, "combat_training = 2", "combat_training = 1", 21);
    within_4_sigma(p, 5304.0 / 7783.0, INITIATIVE_TRIALS);
}

const INITIATIVE_TRIALS: u32 = 100_000;

/// A's share of the initiative draws (no hits, every check on a full deck) between two
/// swordsmen with the extra fields `a` and `b`.
fn initiative_share(start: Start, a: &str, b: &str, seed: u64) -> f64 {
    let o = opts(|o| {
        o.hit_rule = HitRule::None;
        o.reshuffle = Reshuffle::EveryCheck;
        o.start = start;
    });
    let f = |x: &str| spec(&format!("skill = 1\nweapon = \"sword\"\n{x}"));
    let (r, m) = pair::<Cards>(o, &f(a), &f(b));
    let mut rng = stream(seed, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut won = 0u32;
    for _ in 0..INITIATIVE_TRIALS {
        let mut s = r.start(&m);
        won += u32::from(duel::initiative(r.options(), &m, &mut s, &mut dice, &mut NoTally) == 0);
    }
    f64::from(won) / f64::from(INITIATIVE_TRIALS)
}

/// Digest §7.9: one register, one card each, modifiers 0, both hitting when losing, the
/// attacker first: P(hit) = 0.369820.
#[test]
fn one_register_with_hits_matches_7_9() {
    let o = opts(|o| o.range_model = false);
    let f = "skill = 1\nweapon = \"dagger\"";
    let (r, m) = pair::<Cards>(o, &spec(f), &spec(f));
    let n = 200_000u32;
    let mut rng = stream(22, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut hits = 0u32;
    for _ in 0..n {
        let mut s = r.start(&m);
        let a = s.decks[0].draw_with(|k| dice_roll(&mut dice, k)).unwrap();
        let d = s.decks[1].draw_with(|k| dice_roll(&mut dice, k)).unwrap();
        let mut rs = rounds([&[], &[]]);
        let (reg, _) = resolve0(&r, &m, &mut s, &mut rs, decl(Man::Attack, a, 0), Some(decl(Man::Parry, d, 0)), &mut dice);
        hits += u32::from(reg.success);
    }
    within_4_sigma(f64::from(hits) / f64::from(n), 0.369820, n);
    // And without the hit rule, the exact 673/1936 of §7.8.
}

fn dice_roll<R: crate::Roller>(r: &mut R, k: u32) -> u32 {
    r.roll(k) - 1
}

/// Digest §7.10: one full round of fixture R (attacker skill 3, sword, +1; defender skill 2,
/// 0; edge 0, maximum damage 3; Attack and Parry only; no hits): E[damage] and P(≥ 1
/// damaging hit) under the four policy pairs, within 4σ.
#[test]
fn one_round_fixture_r_matches_7_10() {
    let o = opts(|o| {
        o.hit_rule = HitRule::None;
        o.reshuffle = Reshuffle::EveryRound;
        o.melee_dodge = false;
        o.seize_the_initiative = false;
        o.disarming_attack = false;
        o.defender_may_pass = false;
        o.hp_base = 100;
        o.max_rounds = 1;
    });
    let cases = [
        ("greedy", "front", 2546835.0 / 894916.0, 8809655.0 / 12528824.0),
        ("greedy", "back", 37858959.0 / 12528824.0, 5235001.0 / 6264412.0),
        ("bait", "front", 1493817.0 / 447458.0, 149.0 / 172.0),
        ("bait", "back", 38447631.0 / 12528824.0, 149.0 / 172.0),
    ];
    for (k, (ap, dp, e_dmg, p_dmg)) in cases.into_iter().enumerate() {
        let a = format!("skill = 3\nweapon = \"sword\"\ntactics = {{ attacker = \"{ap}\" }}");
        let b = format!(
            "skill = 2\nweapon = \"sword\"\narmor_mod = -1\ntactics = {{ defender = \"{dp}\", seize_threshold = 99 }}"
        );
        let (r, m) = pair::<Cards>(o.clone(), &spec(&a), &spec(&b));
        let n = 100_000u32;
        let mut rng = stream(23, k as u64);
        let mut dice = RngRoller::new(&mut rng);
        let (mut sum, mut sum2, mut damaging) = (0.0f64, 0.0f64, 0u32);
        for _ in 0..n {
            let mut s = r.start(&m);
            s.init = 0;
            let mut t = OutcomeTally::default();
            r.step(&m, &mut s, &mut dice, &mut t);
            let d = f64::from(t.0.damage[0]);
            sum += d;
            sum2 += d * d;
            damaging += u32::from(t.0.damage[0] > 0);
        }
        let mean = sum / f64::from(n);
        let sd = (sum2 / f64::from(n) - mean * mean).sqrt();
        assert!(
            (mean - e_dmg).abs() <= 4.0 * sd / f64::from(n).sqrt(),
            "{ap}/{dp}: E[damage] {mean} vs {e_dmg}"
        );
        // P(≥ 1 damaging hit) needs a damaging *hit*; a hit of 0 damage does not count.
        within_4_sigma(f64::from(damaging) / f64::from(n), p_dmg, n);
    }
}

/// Every duel ends within the round cap under every policy pair (and hit policy), and the
/// same seed gives the same duel.
#[test]
fn every_duel_ends_within_the_cap_under_every_policy_pair() {
    let attackers = [AttackerPolicy::Greedy, AttackerPolicy::Bait, AttackerPolicy::Random];
    let defenders = [
        DefenderPolicy::Front,
        DefenderPolicy::Back,
        DefenderPolicy::CoverLast,
        DefenderPolicy::Random,
    ];
    let hits = [HitPolicy::WhenLosing, HitPolicy::Never, HitPolicy::Always];
    let name = |x: &dyn std::fmt::Debug| {
        let s = format!("{x:?}");
        let mut out = String::new();
        for (i, ch) in s.chars().enumerate() {
            if ch.is_uppercase() && i > 0 {
                out.push('_');
            }
            out.push(ch.to_ascii_lowercase());
        }
        out
    };
    for (weapons, start) in [
        (("bare hands", "dagger"), Start::Engaged),
        (("bare hands", "bare hands"), Start::ACharges),
        (("sword", "sword"), Start::Engaged),
        (("spear", "sword"), Start::Engaged),
        (("dagger", "spear"), Start::ACharges),
        (("sword", "medium axe"), Start::ASurprises),
        (("dagger", "sword"), Start::ShowDown),
    ] {
        let o = opts(|o| {
            o.start = start;
            o.max_rounds = 30;
        });
        for (i, ap) in attackers.iter().enumerate() {
            for (j, dp) in defenders.iter().enumerate() {
                let hp = hits[(i + j) % 3];
                let hesitate = ["never", "out_of_reach", "weak_hand"][(i * 4 + j) % 3];
                let t = format!(
                    "brawling = 2\ntactics = {{ attacker = \"{}\", defender = \"{}\", hit = \"{}\", lunge = {}, keep_reach = {}, hesitate = \"{hesitate}\", shield_bash = {}, disengage_at_hp = {}, wrestle = {}, hold = \"{}\", called_shot = \"{}\" }}",
                    name(ap),
                    name(dp),
                    name(&hp),
                    (i + j) % 2 == 0,
                    (i + j) % 2 == 1,
                    (i + j) % 2 == 0,
                    j % 3,
                    (i + j) % 2 == 0,
                    ["pin", "suffocate"][j % 2],
                    ["torso", "legs"][(i + 2 * j) % 2],
                );
                let a = format!("skill = 3\nweapon = \"{}\"\nbackup = \"dagger\"\nbackup_skill = 2\n{t}", weapons.0);
                let shield = if weapons.1 == "spear" {
                    ""
                } else {
                    "off_hand = \"small shield\"\noff_hand_skill = 2"
                };
                let b = format!("skill = 3\nweapon = \"{}\"\n{shield}\n{t}", weapons.1);
                let (r, m) = pair::<Cards>(o.clone(), &spec(&a), &spec(&b));
                let mut rng = stream(24, 0);
                let mut dice = RngRoller::new(&mut rng);
                let mut timeouts = 0;
                for _ in 0..200 {
                    let out = r.duel(&m, &mut dice);
                    assert!((1..=30).contains(&out.rounds), "{out:?}");
                    timeouts += u32::from(out.ending == Ending::RoundCap);
                }
                assert!(timeouts < 100, "{weapons:?} {ap:?}/{dp:?}: {timeouts} of 200 timed out");
                let mut r1 = stream(25, 0);
                let mut r2 = stream(25, 0);
                assert_eq!(
                    r.duel(&m, &mut RngRoller::new(&mut r1)),
                    r.duel(&m, &mut RngRoller::new(&mut r2))
                );
            }
        }
    }
}

/// Identical fighters win equally often (the rules favour no side), within 4σ.
#[test]
fn mirror_match_is_fair() {
    let f = "skill = 3\nweapon = \"sword\"\ncombat_training = 1";
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(f), &spec(f));
    let n = 20_000u32;
    let mut rng = stream(26, 0);
    let mut dice = RngRoller::new(&mut rng);
    let (mut a, mut b) = (0u32, 0u32);
    for _ in 0..n {
        match r.duel(&m, &mut dice).winner {
            Winner::A => a += 1,
            Winner::B => b += 1,
            Winner::Draw => {}
        }
    }
    let decided = a + b;
    within_4_sigma(f64::from(a) / f64::from(decided), 0.5, decided);
}

/// The duel is Monte Carlo only, and a deck too large or malformed is an input error.
#[test]
fn no_exact_duel_and_deck_errors() {
    let (r, m) = pair::<Cards>(
        CardsOptions::default(),
        &spec("skill = 2\nweapon = \"sword\""),
        &spec("skill = 2\nweapon = \"sword\""),
    );
    assert!(r.exact(&m).is_none());
    let bad = opts(|o| {
        o.deck = super::options::DeckChoice::Custom;
        o.custom_deck = vec!["+3".into(), "x".into()];
    });
    assert!(Cards::new(bad).is_err());
    let big = opts(|o| {
        o.deck = super::options::DeckChoice::Custom;
        o.custom_deck = vec!["+1".into(); 65];
    });
    assert!(Cards::new(big).is_err());
    assert!(toml::from_str::<FighterSpec>("weapon = \"small shield\"").is_ok());
    let r = Cards::new(CardsOptions::default()).unwrap();
    assert!(r.compile("x", &spec("weapon = \"small shield\"")).is_err());
    assert!(r
        .compile("x", &spec("weapon = \"spear\"\noff_hand = \"small shield\""))
        .is_err());
    // Jokers: wild jokers count as the deck's best card; removed, 42 cards; NPC decks.
    let wild = Cards::new(opts(|o| o.jokers = super::options::Jokers::Wild)).unwrap();
    assert_eq!(wild.built().cards().iter().filter(|c| c.value == 10).count(), 3);
    let npc = opts(|o| o.npc_jokerless = true);
    let (_, m) = pair::<Cards>(
        npc,
        &spec("weapon = \"sword\"\nnpc = true"),
        &spec("weapon = \"sword\""),
    );
    assert_eq!((m.deck[0].len(), m.deck[1].len()), (42, 44));
    let _ = Deck::new(&[Card::plain(1)]).unwrap();
}

/// Seed §Range: "an attacker choosing not to step forward has a –2 modifier to his attack".
/// Against a defence that steps back (a dodge jumps back) the range grows by one; against a parry without stepping
/// back, or no defence, it stays (digest G6: "both decline: 0").
#[test]
fn attack_without_stepping_forward() {
    let o = CardsOptions::default();
    let spear = "skill = 3\nweapon = \"spear\"\ntactics = { keep_reach = true }";
    let sword = "skill = 3\nweapon = \"sword\"\ntactics = { seize_threshold = 99 }";
    let (r, m) = pair::<Cards>(o, &spec(spear), &spec(sword));
    let mut rng = stream(30, 0);
    let mut dice = RngRoller::new(&mut rng);
    for (answer, want) in [
        (Some(Man::Parry), 3),
        (Some(Man::ParryNoStep), 2),
        (Some(Man::Dodge), 3),
        (None, 2),
    ] {
        let mut s = r.start(&m);
        assert_eq!(s.range, 2);
        let mut rs = rounds([&[], &[]]);
        let (reg, _) = resolve0(&r, &m, &mut s, &mut rs, decl(Man::AttackNoStep, Card::plain(4), 0), answer.map(|man| decl(man, Card::plain(-5), 0)), &mut dice);
        assert_eq!(reg.attack_total, 4 - 2, "{answer:?}: the −2");
        assert_eq!(s.range, want, "{answer:?}");
    }
    // A normal attack met by no defence closes the range (the literal §Range reading).
    let mut s = r.start(&m);
    let mut rs = rounds([&[], &[]]);
    let a = decl(Man::Attack, Card::plain(4), 0);
    resolve0(&r, &m, &mut s, &mut rs, a, None, &mut dice);
    assert_eq!(s.range, 1);
    // The keep_reach tactic: register 1 without stepping forward; the swordsman answers with
    // his closing parry (without stepping back): the range holds at 2. Register 2: his
    // no-step parry is spent, so the spearman steps forward again.
    let s = r.start(&m);
    let mut rs = rounds([&[Card::plain(5), Card::plain(3)], &[Card::plain(2), Card::plain(1)]]);
    let d = duel::declare(r.options(), &m, &s, &mut rs, 0, 2, &mut dice).unwrap();
    assert_eq!(d.man, Man::AttackNoStep);
    let mut s = s;
    let ans = {
        let mut rs2 = rs;
        let x = duel::answer(r.options(), &m, &s, &mut rs2, 1, &d, 2, &mut dice);
        rs = rs2;
        x
    };
    assert_eq!(ans.map(|x| x.man), Some(Man::ParryNoStep));
    resolve0(&r, &m, &mut s, &mut rs, d, ans, &mut dice);
    assert_eq!(s.range, 2, "both declined to step");
    let d = duel::declare(r.options(), &m, &s, &mut rs, 0, 2, &mut dice).unwrap();
    assert_eq!(d.man, Man::Attack);
}

/// Seed §Hesitating: a fighter with the initiative may hesitate, relinquishing it; if both
/// hesitate, combat ends.
#[test]
fn hesitating_at_will() {
    let o = CardsOptions::default();
    let mut rng = stream(31, 0);
    let mut dice = RngRoller::new(&mut rng);
    // Two swordsmen three yards apart, both waiting for the other: combat ends in round 1.
    let f = "skill = 3\nweapon = \"sword\"\ntactics = { hesitate = \"out_of_reach\" }";
    let (r, m) = pair::<Cards>(o.clone(), &spec(f), &spec(f));
    for init in [0, 1] {
        let mut s = r.start(&m);
        s.range = 3;
        s.init = init;
        let step = r.step(&m, &mut s, &mut dice, &mut NoTally);
        assert_eq!(step, crate::Step::Over(Winner::Draw, Ending::Yield));
    }
    // A swordsman out of the spear's reach waits for the spearman instead of closing at −3:
    // the spearman attacks with the initiative, and keeps it.
    let sword = "skill = 3\nweapon = \"sword\"\ntactics = { hesitate = \"out_of_reach\", seize_threshold = 99 }";
    let (r, m) = pair::<Cards>(o.clone(), &spec(sword), &spec("skill = 3\nweapon = \"spear\""));
    let mut s = r.start(&m);
    s.init = 0;
    let mut t = OutcomeTally::default();
    assert_eq!(r.step(&m, &mut s, &mut dice, &mut t), crate::Step::Continue);
    assert_eq!(s.init, 1, "the spearman took the initiative");
    assert!(t.0.attacks[1] >= 1 && t.0.attacks[0] == 0, "{:?}", t.0);
    // A weak hand: hesitate_below = 20 always hesitates; the other attacks.
    let weak = "skill = 3\nweapon = \"sword\"\ntactics = { hesitate = \"weak_hand\", hesitate_below = 20, seize_threshold = 99 }";
    let (r, m) = pair::<Cards>(o, &spec(weak), &spec("skill = 3\nweapon = \"sword\""));
    let mut s = r.start(&m);
    s.init = 0;
    let mut t = OutcomeTally::default();
    r.step(&m, &mut s, &mut dice, &mut t);
    assert_eq!((s.init, t.0.attacks[0]), (1, 0));
}

/// Seed §Shield Bash: a small shield attacks at range 0 with maximum damage 1, once a round,
/// and cannot be used to parry (block) that round; its difficulty is 0 unless the head's −5
/// is applied (`shield_bash_head_penalty`).
#[test]
fn shield_bash() {
    let knight = "skill = 3\nweapon = \"sword\"\noff_hand = \"small shield\"\noff_hand_skill = 3\ntactics = { shield_bash = true }";
    let knife = "skill = 3\nweapon = \"dagger\"";
    let mut rng = stream(32, 0);
    let mut dice = RngRoller::new(&mut rng);
    for (penalty, total) in [(false, 10), (true, 5)] {
        let o = opts(|o| o.shield_bash_head_penalty = penalty);
        let (r, m) = pair::<Cards>(o, &spec(knight), &spec(knife));
        let mut s = r.start(&m);
        s.range = 0;
        let mut rs = rounds([&[Card::plain(10), Card::plain(2)], &[]]);
        rs[0].cap = 4;
        let d = duel::declare(r.options(), &m, &s, &mut rs, 0, 0, &mut dice).unwrap();
        assert_eq!((d.man, d.arm, d.card), (Man::ShieldBash, 1, Card::plain(10)));
        let (reg, _) =
            resolve0(&r, &m, &mut s, &mut rs, d, None, &mut dice);
        assert_eq!((reg.attack_total, reg.damage), (total, 1), "maximum damage 1");
        assert_eq!(s.hp[1], 4);
        // Only one bash a round: the sword cannot reach at 0, so the tactic pushes.
        let d = duel::declare(r.options(), &m, &s, &mut rs, 0, 0, &mut dice).unwrap();
        assert_eq!(d.man, Man::Push);
        // And the shield cannot block this round: against the dagger he must dodge.
        let a = decl(Man::Attack, Card::plain(3), 0);
        let mut rs = rounds([&[Card::plain(4)], &[]]);
        rs[0].bashed = true;
        let ans = duel::answer(r.options(), &m, &s, &mut rs, 0, &a, 0, &mut dice).unwrap();
        assert_eq!(ans.man, Man::Dodge);
        let mut rs = rounds([&[Card::plain(4)], &[]]);
        let ans = duel::answer(r.options(), &m, &s, &mut rs, 0, &a, 0, &mut dice).unwrap();
        assert_eq!(ans.man, Man::Block, "without a bash the shield blocks");
    }
    // Not at range 1, and not without the option.
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(knight), &spec(knife));
    let mut s = r.start(&m);
    assert_eq!(s.range, 1);
    let mut rs = rounds([&[], &[]]);
    let bash = decl(Man::ShieldBash, Card::plain(9), 1);
    let (reg, _) = resolve0(&r, &m, &mut s, &mut rs, bash, None, &mut dice);
    assert!(!reg.success, "a shield bash is illegal at range 1");
    let (r, m) = pair::<Cards>(opts(|o| o.shield_bash = false), &spec(knight), &spec(knife));
    let s = r.start(&m);
    let mut rs = rounds([&[Card::plain(10)], &[]]);
    let d = duel::declare(r.options(), &m, &s, &mut rs, 0, 0, &mut dice).unwrap();
    assert_ne!(d.man, Man::ShieldBash);
}

/// Seed §Complex Maneuvers Offensive Disengage (−4, resolve immediately): prevented by a
/// parry or block, not a dodge; on success combat ends and the defender takes no damage.
#[test]
fn offensive_disengage() {
    let hurt = "skill = 3\nweapon = \"sword\"\ntactics = { disengage_at_hp = 2 }";
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(hurt), &spec(SOLDIER));
    let mut rng = stream(33, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut s = r.start(&m);
    let mut rs = rounds([&[Card::plain(1), Card::plain(6)], &[]]);
    let d = duel::declare(r.options(), &m, &s, &mut rs, 0, 1, &mut dice).unwrap();
    assert_ne!(d.man, Man::Disengage, "5 hit points: he fights");
    s.hp[0] = 2;
    let mut rs = rounds([&[Card::plain(1), Card::plain(6)], &[]]);
    let d = duel::declare(r.options(), &m, &s, &mut rs, 0, 1, &mut dice).unwrap();
    assert_eq!((d.man, d.card), (Man::Disengage, Card::plain(6)));
    assert!(duel::immediate(&d, None));
    // The soldier's parry of +4 stops it: 6 + 1 − 4 = 3, minus the parry total 4 + 1 − 1 = 4.
    let (reg, end) = resolve0(&r, &m, &mut s.clone(), &mut rs, d, Some(decl(Man::Parry, Card::plain(4), 0)), &mut dice);
    assert_eq!((reg.attack_total, reg.net, reg.success, end), (3, -1, false, None));
    // A dodge does not: the duel ends, a draw, the range two yards longer, nobody hurt.
    let (reg, end) = resolve0(&r, &m, &mut s, &mut rs, d, Some(decl(Man::Dodge, Card::plain(10), 2)), &mut dice);
    assert_eq!((reg.success, reg.damage, reg.defense_total), (true, 0, None));
    assert_eq!(end, Some(crate::Step::Over(Winner::Draw, Ending::Yield)));
    assert_eq!((s.range, s.hp), (3, [2, 5]));
}

const WRESTLER: &str = "skill = 3\nweapon = \"bare hands\"\nbrawling = 3\ntactics = { wrestle = true, seize_threshold = -3 }";
const KNIFE: &str = "skill = 3\nweapon = \"dagger\"\ntactics = { seize_threshold = 99 }";

/// Seed §Striking Maneuvers Block (+1 if the defender has a higher might, else −1): the
/// barehanded parry; `hand_to_hand = false` keeps the weapon-like parry (0).
#[test]
fn hand_to_hand_block_by_might() {
    let mut rng = stream(40, 0);
    let mut dice = RngRoller::new(&mut rng);
    let boxer = |might: i32| {
        format!("skill = 3\nweapon = \"bare hands\"\nmight = {might}\ntactics = {{ seize_threshold = 99 }}")
    };
    for (o, might, man, total) in [
        (CardsOptions::default(), 0, Man::HandDodge, 3),
        (CardsOptions::default(), 1, Man::HandBlock, 3 + 1),
        (opts(|o| o.hand_to_hand = false), 1, Man::Parry, 3),
    ] {
        let (r, m) = pair::<Cards>(o, &spec(KNIFE), &spec(&boxer(might)));
        let mut s = r.start(&m);
        assert_eq!(s.range, 0);
        let a = decl(Man::Attack, Card::plain(6), 0);
        let mut rs = rounds([&[], &[Card::plain(3)]]);
        let d = duel::answer(r.options(), &m, &s, &mut rs, 1, &a, 0, &mut dice).unwrap();
        assert_eq!(d.man, man);
        let (reg, _) =
            resolve0(&r, &m, &mut s, &mut rs, a, Some(d), &mut dice);
        assert_eq!(reg.defense_total, Some(total), "might {might}");
        assert_eq!(s.range, 0, "a block steps back");
    }
}

/// Seed §Striking Maneuvers Tackle (−3; −2 more at range 1): no damage, into wrestling range,
/// initiative drawn again (the round ends); Block Grab (−4 if the stronger, else −6): the
/// defender blocks, takes the fight into wrestling range and the initiative.
#[test]
fn tackle_and_block_grab() {
    let mut rng = stream(41, 0);
    let mut dice = RngRoller::new(&mut rng);
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(WRESTLER), &spec(KNIFE));
    for (range, total) in [(0, 5 - 3), (1, 5 - 5)] {
        let mut s = r.start(&m);
        s.range = range;
        s.init = 0;
        let mut rs = rounds([&[Card::plain(5)], &[]]);
        let d = duel::declare(r.options(), &m, &s, &mut rs, 0, range, &mut dice).unwrap();
        assert_eq!(d.man, Man::Tackle);
        assert!(duel::immediate(&d, None));
        let (reg, _) =
            resolve0(&r, &m, &mut s, &mut rs, d, None, &mut dice);
        assert_eq!((reg.attack_total, reg.success, reg.damage), (total, true, 0));
        assert_eq!((s.range, s.init), (duel::WRESTLING, 2), "wrestling; initiative redrawn");
    }
    // The knife fighter attacks; the wrestler answers with a Block Grab (+4 − 6 = −2 reaches
    // his threshold −3). The attack −1 does not hit: wrestling range, the wrestler's initiative.
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(KNIFE), &spec(WRESTLER));
    let mut s = r.start(&m);
    s.init = 0;
    let a = decl(Man::Attack, Card::plain(-1), 0);
    let mut rs = rounds([&[], &[Card::plain(4)]]);
    let d = duel::answer(r.options(), &m, &s, &mut rs, 1, &a, 0, &mut dice).unwrap();
    assert_eq!(d.man, Man::BlockGrab);
    assert!(duel::immediate(&a, Some(&d)));
    let (reg, _) =
        resolve0(&r, &m, &mut s, &mut rs, a, Some(d), &mut dice);
    assert_eq!((reg.defense_total, reg.success), (Some(-2), false));
    assert_eq!((s.range, s.init), (duel::WRESTLING, 1));
    // The stronger wrestler grabs at −4.
    let strong = WRESTLER.replace("brawling = 3", "brawling = 3\nmight = 2");
    let (r2, m2) = pair::<Cards>(CardsOptions::default(), &spec(KNIFE), &spec(&strong));
    let mut s2 = r2.start(&m2);
    let mut rs = rounds([&[], &[Card::plain(4)]]);
    let g = decl(Man::BlockGrab, Card::plain(4), 0);
    let (reg, _) =
        resolve0(&r2, &m2, &mut s2, &mut rs, a, Some(g), &mut dice);
    assert_eq!(reg.defense_total, Some(0));
    // At wrestling range both fight barehanded, with their brawling skill.
    assert_eq!(duel::hand_size(&m, &s, 0), 1, "the knife fighter has no brawling");
    assert_eq!(duel::hand_size(&m, &s, 1), 3);
    assert!(duel::arms(&m, &s, 0)[0].is_some_and(|x| x.bare));
}

/// Seed §Wrestling Maneuvers: a non-wrestler escapes (−4, to range 0), a counter prevents
/// it; the wrestler pins (−5, ends combat) or suffocates (−4, the target passes out), and a
/// reversal (−2) prevents the hold and takes the initiative.
#[test]
fn wrestling_maneuvers() {
    let mut rng = stream(42, 0);
    let mut dice = RngRoller::new(&mut rng);
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(KNIFE), &spec(WRESTLER));
    let mut s = r.start(&m);
    s.range = duel::WRESTLING;
    s.init = 0;
    let mut rs = rounds([&[Card::plain(2), Card::plain(7)], &[Card::plain(-4)]]);
    let d = duel::declare(r.options(), &m, &s, &mut rs, 0, -1, &mut dice).unwrap();
    assert_eq!((d.man, d.card), (Man::Escape, Card::plain(7)));
    let c = duel::answer(r.options(), &m, &s, &mut rs, 1, &d, -1, &mut dice).unwrap();
    assert_eq!(c.man, Man::Counter, "−4 − 2 is below the threshold −3: a plain counter");
    let (reg, _) =
        resolve0(&r, &m, &mut s.clone(), &mut rs, d, Some(c), &mut dice);
    assert_eq!((reg.attack_total, reg.defense_total, reg.success), (3, Some(-4), true));
    let (reg, _) = resolve0(&r, &m, &mut s, &mut rs, d, Some(decl(Man::Counter, Card::plain(5), 0)), &mut dice);
    assert_eq!((reg.net, reg.success), (-2, false));
    assert_eq!(s.range, duel::WRESTLING, "countered");
    let (reg, _) = resolve0(&r, &m, &mut s, &mut rs, d, None, &mut dice);
    assert!(reg.success);
    assert_eq!(s.range, 0, "escaped to close range");
    // The wrestler pins an opponent without cards; against a +8 he strikes (8 − 5 ≥ 1 holds).
    for (hold, ending) in [("pin", Ending::Yield), ("suffocate", Ending::Incapacitated)] {
        let w = WRESTLER.replace("wrestle = true", &format!("wrestle = true, hold = \"{hold}\""));
        let (r, m) = pair::<Cards>(opts(|o| o.hold_checks = false), &spec(&w), &spec(KNIFE));
        let mut s = r.start(&m);
        s.range = duel::WRESTLING;
        let mut rs = rounds([&[Card::plain(-6)], &[]]);
        let d = duel::declare(r.options(), &m, &s, &mut rs, 0, -1, &mut dice).unwrap();
        assert!(matches!(d.man, Man::Pin | Man::Suffocate));
        let (_, end) =
            resolve0(&r, &m, &mut s, &mut rs, d, None, &mut dice);
        assert_eq!(end, Some(crate::Step::Over(Winner::A, ending)));
        let mut rs = rounds([&[Card::plain(-6)], &[Card::plain(1)]]);
        let d = duel::declare(r.options(), &m, &s, &mut rs, 0, -1, &mut dice).unwrap();
        assert_eq!(d.man, Man::Attack, "a −6 hold would fail: he strikes");
    }
    // A reversal: the knife fighter (threshold −3 now) prevents the pin and takes over.
    let knife = KNIFE.replace("99", "-3");
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(WRESTLER), &spec(&knife));
    let mut s = r.start(&m);
    s.range = duel::WRESTLING;
    s.init = 0;
    let pin = decl(Man::Pin, Card::plain(6), 0);
    let mut rs = rounds([&[], &[Card::plain(6)]]);
    let d = duel::answer(r.options(), &m, &s, &mut rs, 1, &pin, -1, &mut dice).unwrap();
    assert_eq!(d.man, Man::Reversal);
    assert!(duel::immediate(&pin, Some(&d)));
    let (reg, end) =
        resolve0(&r, &m, &mut s, &mut rs, pin, Some(d), &mut dice);
    assert_eq!((reg.attack_total, reg.defense_total, reg.success, end), (1, Some(4), false, None));
    assert_eq!((s.init, s.range), (1, duel::WRESTLING));
}

/// Seed §Striking Maneuvers Lunge (−2, maximum damage 1, edge −3): barehanded at range 1; the
/// lunger gives the initiative up.
#[test]
fn hand_to_hand_lunge() {
    let mut rng = stream(43, 0);
    let mut dice = RngRoller::new(&mut rng);
    let boxer = "skill = 3\nweapon = \"bare hands\"\ntactics = { lunge = true }";
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(boxer), &spec("skill = 2\nweapon = \"sword\""));
    let mut s = r.start(&m);
    s.init = 0;
    assert_eq!(s.range, 1);
    let mut rs = rounds([&[Card::plain(3)], &[]]);
    let d = duel::declare(r.options(), &m, &s, &mut rs, 0, 1, &mut dice).unwrap();
    assert_eq!(d.man, Man::Lunge);
    let (reg, _) = resolve0(&r, &m, &mut s, &mut rs, d, None, &mut dice);
    assert_eq!((reg.success, reg.damage), (true, 0), "3 − 3 = 0 damage");
    assert_eq!(s.init, 1, "the initiative goes to the swordsman");
    let mut rs = rounds([&[Card::plain(10)], &[]]);
    s.init = 0;
    let (reg, _) = resolve0(&r, &m, &mut s, &mut rs, decl(Man::Lunge, Card::plain(10), 0), None, &mut dice);
    assert_eq!(reg.damage, 1, "maximum damage 1");
}

/// Seed §Show Downs: "the fast-draw skill is used instead of combat training to determine
/// initiative" — fast-draw 2 against 1 (no combat training) gives the §7.6 value 5304/7783.
#[test]
fn show_down_initiative_by_fast_draw() {
    let b = "fast_draw = 1\ncombat_training = 4";
    let p = initiative_share(Start::ShowDown, "fast_draw = 2", b, 44);
    within_4_sigma(p, 5304.0 / 7783.0, INITIATIVE_TRIALS);
}

/// Seed §Hit Location: a called shot takes the location's modifier (the head −5); what a hit
/// there does is not in the post (G12), so `location_damage` adds damage after the cap.
#[test]
fn called_shots() {
    let aimer = "skill = 3\nweapon = \"sword\"\ntactics = { called_shot = \"head\" }";
    let mut rng = stream(45, 0);
    let mut dice = RngRoller::new(&mut rng);
    for (bonus, damage) in [(0, 3), (2, 5)] {
        let o = opts(|o| o.location_damage.head = bonus);
        let (r, m) = pair::<Cards>(o, &spec(aimer), &spec(SOLDIER));
        let mut s = r.start(&m);
        let mut rs = rounds([&[], &[]]);
        let a = decl(Man::Attack, Card::plain(10), 0);
        let p = decl(Man::Parry, Card::plain(2), 0);
        let (reg, _) =
            resolve0(&r, &m, &mut s, &mut rs, a, Some(p), &mut dice);
        assert_eq!((reg.attack_total, reg.net, reg.damage), (10 + 1 - 5, 6 - 2, damage));
    }
    // The torso (the default) has no modifier.
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(DEVON), &spec(SOLDIER));
    let mut s = r.start(&m);
    let mut rs = rounds([&[], &[]]);
    let a = decl(Man::Attack, Card::plain(10), 0);
    let (reg, _) = resolve0(&r, &m, &mut s, &mut rs, a, None, &mut dice);
    assert_eq!((reg.attack_total, reg.damage), (11, 3));
}

// ---- ranged combat (§Ranged Combat) ----

use oddsmith_dice::deck::{best_of, pairwise};

use super::duel::AimRow;
use super::ranged::{self, Act, band_modifier};

const ARCHER: &str = "skill = 3\nweapon = \"short bow\"\nbackup = \"dagger\"\nbackup_skill = 2";

/// A state apart at `yards`.
fn apart(r: &Cards, m: &Matchup, yards: i8) -> State {
    let mut s = r.start(m);
    s.apart = true;
    s.range = yards;
    s
}

/// §Other Modifiers, digest §4.15: point blank (three feet) −0, short (¼ of the range) −2,
/// medium (½) −4, long −6, nothing beyond the range.
#[test]
fn range_bands_follow_other_modifiers() {
    let got: Vec<_> = [0, 1, 2, 15, 16, 30, 31, 60, 61]
        .into_iter()
        .map(|d| band_modifier(d, 60))
        .collect();
    let want = [Some(0), Some(0), Some(-2), Some(-2), Some(-4), Some(-4), Some(-6), Some(-6), None];
    assert_eq!(got, want);
}

/// §Aiming, Enris's spear (aim 3): +2, then −4, then −7; the fourth card (+5) pushes the +2
/// out; on the fifth turn he throws with the +5 for both the attack and the damage totals.
#[test]
fn aiming_example_enris() {
    let mut row = AimRow::default();
    for (c, want) in [(2, &[2][..]), (-4, &[2, -4]), (-7, &[2, -4, -7]), (5, &[-4, -7, 5])] {
        row.deal(Card::plain(c), 3);
        let v: Vec<i8> = row.showing().iter().map(|c| c.value).collect();
        assert_eq!(v, want);
    }
    assert_eq!(row.best(), Some(Card::plain(5)));
    // The tactic aim = "rounds" with 4 rounds aims four times, then fires.
    let spear = "skill = 3\nweapon = { name = \"thrown spear\", ranged = true, range = 20, max_maneuvers = 1, edge = 1, max_damage = 3, hands = 2, aim = 3 }\ntactics = { aim = \"rounds\", aim_rounds = 4 }";
    let o = opts(|o| o.hit_rule = HitRule::None);
    let (r, m) = pair::<Cards>(o, &spec(spear), &spec("skill = 1\nweapon = \"dagger\""));
    let mut s = apart(&r, &m, 5);
    let mut script = AimRow::default();
    for c in [2, -4, -7, 5] {
        assert_eq!(ranged::intent(&m, &s, 0), Act::Aim);
        s.aim[0].deal(Card::plain(c), 3);
        script.deal(Card::plain(c), 3);
    }
    assert_eq!(s.aim[0], script);
    assert_eq!(ranged::intent(&m, &s, 0), Act::Fire);
    // Short range (5 of 20 yards) −2, a standing target +1: 5 − 2 + 1 = 4 hits; damage
    // 5 + edge 1 = 6, capped at 3.
    let mut t = OutcomeTally::default();
    let mut rng = stream(40, 0);
    let dmg = ranged::shoot(r.options(), &m, &mut s, 0, Act::Stand, 0, None, &mut RngRoller::new(&mut rng), &mut t);
    assert_eq!((dmg, t.0.hits[0], t.0.damage[0]), (3, 1, 3));
    assert_eq!(s.aim[0].len, 0, "the row is spent");
}

/// §Ranged Weapon Attributes: the short bow's ½ maneuver, "used once every two turns": two
/// archers firing at once shoot in rounds 1, 3, 5.
#[test]
fn short_bow_fires_every_other_round() {
    let o = opts(|o| {
        o.distance = 30;
        o.hp_base = 100;
    });
    let (r, m) = pair::<Cards>(o, &spec(ARCHER), &spec(ARCHER));
    let mut s = r.start(&m);
    assert!(s.apart && s.range == 30);
    let mut rng = stream(41, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut shots = Vec::new();
    for _ in 0..6 {
        let mut t = OutcomeTally::default();
        assert_eq!(r.step(&m, &mut s, &mut dice, &mut t), crate::Step::Continue);
        shots.push((t.0.attacks[0], t.0.attacks[1]));
    }
    assert_eq!(shots, [(1, 1), (0, 0), (1, 1), (0, 0), (1, 1), (0, 0)]);
    assert_eq!(s.range, 30, "archers in range stand");
}

/// A shot is a basic check (§Resolving Ranged Attacks): P(hit) = P(best of 3 + m ≥ 1), m =
/// force 0 + medium range −4 + a standing target +1, exactly; the duel's shot within 4σ.
#[test]
fn one_shot_is_a_check() {
    let o = opts(|o| o.hit_rule = HitRule::None);
    let (r, m) = pair::<Cards>(o, &spec(ARCHER), &spec("skill = 1\nweapon = \"dagger\""));
    let exact = best_of(r.built().cards(), 3).unwrap().p_at_least(1 - (-4 + 1));
    let n = 100_000u32;
    let mut rng = stream(42, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut t = OutcomeTally::default();
    for _ in 0..n {
        let mut s = apart(&r, &m, 20);
        ranged::shoot(r.options(), &m, &mut s, 0, Act::Stand, 0, None, &mut dice, &mut t);
    }
    within_4_sigma(f64::from(t.0.hits[0]) / f64::from(n), exact, n);
}

/// §Dodging ("subtract the total from all attackers' attack totals") and §Blocking (an opposed
/// check against the attacker's): the duel's round apart against the exact value over both
/// best-of-N distributions, within 4σ. The dodger or blocker does nothing else: he does not
/// close.
#[test]
fn dodge_and_block_against_a_shot() {
    let o = opts(|o| {
        o.hit_rule = HitRule::None;
        o.distance = 20;
        o.hp_base = 100;
    });
    let d44 = Deck::new(&oddsmith_dice::deck::d44(true)).unwrap();
    let best = |n| best_of(d44.cards(), n).unwrap();
    // Medium range −4; a dodging or blocking target is neither running nor standing (0).
    let m0 = -4;
    let dodger = "skill = 1\nweapon = \"sword\"\ndodge = 2\nawareness = 1\ntactics = { missile_defense = \"dodge\" }";
    let blocker = "skill = 1\nweapon = \"sword\"\noff_hand = \"small shield\"\noff_hand_skill = 2\nfinesse = 1\ntactics = { missile_defense = \"block\" }";
    let dodge_exact = pairwise(&best(3), &best(2), |a, d| i64::from(a + m0 - (d + 1).max(0) >= 1))
        .unwrap()
        .p_at_least(1);
    let block_exact = pairwise(&best(3), &best(2), |a, d| i64::from(a + m0 >= 1 && a + m0 > d + 1))
        .unwrap()
        .p_at_least(1);
    for (k, (target, exact)) in [(dodger, dodge_exact), (blocker, block_exact)].into_iter().enumerate() {
        let (r, m) = pair::<Cards>(o.clone(), &spec(ARCHER), &spec(target));
        let n = 100_000u32;
        let mut rng = stream(43, k as u64);
        let mut dice = RngRoller::new(&mut rng);
        let mut hits = 0u32;
        for _ in 0..n {
            let mut s = r.start(&m);
            let mut t = OutcomeTally::default();
            r.step(&m, &mut s, &mut dice, &mut t);
            hits += t.0.hits[0];
            assert_eq!(s.range, 20, "a dodger or blocker does not run");
        }
        within_4_sigma(f64::from(hits) / f64::from(n), exact, n);
    }
}

/// A swordsman runs `close_yards` a round; arriving, he charges (§Charging): he has the
/// initiative, the round ends with one maneuver each, and the archer, whose bow can neither
/// attack nor parry, changes to his dagger.
#[test]
fn a_runner_arrives_with_a_charge_and_the_archer_changes_weapons() {
    let o = opts(|o| {
        o.distance = 30;
        o.hp_base = 100;
    });
    let sword = "skill = 3\nweapon = \"sword\"";
    let (r, m) = pair::<Cards>(o.clone(), &spec(ARCHER), &spec(sword));
    let mut rng = stream(44, 0);
    let mut dice = RngRoller::new(&mut rng);
    for _ in 0..200 {
        let mut s = r.start(&m);
        let mut t = OutcomeTally::default();
        r.step(&m, &mut s, &mut dice, &mut t);
        assert_eq!((s.apart, s.range, t.0.attacks[0], t.0.attacks[1]), (true, 10, 1, 0));
        let mut t = OutcomeTally::default();
        r.step(&m, &mut s, &mut dice, &mut t);
        assert!(!s.apart);
        assert_eq!(s.init, 1, "the charger holds the initiative");
        assert!(t.0.attacks[1] <= 1, "one maneuver in the charge round");
        for _ in 0..3 {
            r.step(&m, &mut s, &mut dice, &mut NoTally);
        }
        // He has drawn his dagger (and may have lost it since to a disarm).
        assert!(matches!(s.kit[0], KIT_BACKUP | KIT_BARE), "the archer still holds his bow");
    }
    // Without a backup he drops the bow and fights barehanded; without arrival_charge the
    // melee starts with an initiative draw next round.
    let o2 = opts(|o| {
        o.distance = 30;
        o.hp_base = 100;
        o.arrival_charge = false;
    });
    let (r, m) = pair::<Cards>(o2, &spec("skill = 3\nweapon = \"short bow\""), &spec(sword));
    let mut s = r.start(&m);
    r.step(&m, &mut s, &mut dice, &mut NoTally);
    let mut t = OutcomeTally::default();
    r.step(&m, &mut s, &mut dice, &mut t);
    assert_eq!((s.apart, s.init, t.0.attacks[1]), (false, 2, 0));
    for _ in 0..3 {
        r.step(&m, &mut s, &mut dice, &mut NoTally);
    }
    assert_eq!(s.kit[0], KIT_BARE);
}

/// A ranged weapon, a melee reach, aim and fractions of maneuvers are checked at the fighter;
/// a charge or surprise cannot start apart.
#[test]
fn ranged_weapon_errors() {
    let r = Cards::new(CardsOptions::default()).unwrap();
    for (f, key) in [
        ("skill = 1\nweapon = { range = 7, max_maneuvers = 2, max_damage = 3 }", "weapon"),
        ("skill = 1\nweapon = { range = 1, max_maneuvers = 2, max_damage = 3, aim = 2 }", "weapon"),
        ("skill = 1\nweapon = { range = 1, max_maneuvers = \"1/2\", max_damage = 3 }", "weapon"),
        ("skill = 1\nweapon = \"dagger\"\noff_hand = \"short bow\"", "off_hand"),
    ] {
        let e = r.compile("x", &spec(f)).unwrap_err();
        assert!(e.to_string().contains(key), "{e}");
    }
    for bad in ["\"1/1\"", "\"2/3\"", "11"] {
        let text = format!("skill = 1\nweapon = {{ ranged = true, range = 9, max_maneuvers = {bad}, max_damage = 3 }}");
        assert!(toml::from_str::<FighterSpec>(&text).is_err(), "{bad}");
    }
    let o = opts(|o| {
        o.distance = 30;
        o.start = Start::ACharges;
    });
    assert!(Cards::new(o).is_err());
}

// ---- several opponents (§Multiple Opponents) ----

use super::group;

/// Who holds the initiative in the lone fighter's (A's) pairing with member `i`.
fn pairing_init(s: &State, i: usize) -> u8 {
    group::pinit(s, 0, i)
}

/// One register against two attackers, exactly: two members (skill 2, +1, one maneuver each)
/// attack with their best cards; the lone fighter (skill 3, +1, `front`) parries the first
/// with his best card and the second with his next best — "each parry uses a maneuver and a
/// separate card". E[hits] by enumerating his 3-card hands against the members' best-of-2,
/// against the duel's round within 4σ.
#[test]
fn one_register_against_two_attackers() {
    let o = opts(|o| {
        o.hit_rule = HitRule::None;
        o.reshuffle = Reshuffle::EveryRound;
        o.melee_dodge = false;
        o.disarming_attack = false;
        o.hp_base = 100;
        o.max_rounds = 1;
    });
    let hero = "skill = 3\nweapon = \"sword\"\ntactics = { seize_threshold = 99 }";
    let band_of_two = "skill = 2\nweapon = { name = \"short sword\", range = 1, force = 1, max_maneuvers = 1, max_damage = 3 }\ncount = 2";
    let (r, m) = pair::<Cards>(o, &spec(hero), &spec(band_of_two));
    // Exact: hero hands by enumeration, member cards by best-of-2.
    let cards: Vec<i64> = r.built().cards().iter().map(|c| i64::from(c.value)).collect();
    let member = best_of(r.built().cards(), 2).unwrap();
    let p_member = |v: i64| member.p_at_least(v) - member.p_at_least(v + 1);
    let p_hit = |parry: i64| -> f64 {
        (-10..=10).filter(|&a| a + 1 - (parry + 1).max(0) >= 1).map(p_member).sum()
    };
    let (mut sum, mut hands) = (0.0, 0u32);
    for i in 0..cards.len() {
        for j in i + 1..cards.len() {
            for k in j + 1..cards.len() {
                let mut h = [cards[i], cards[j], cards[k]];
                h.sort_unstable();
                sum += p_hit(h[2]) + p_hit(h[1]);
                hands += 1;
            }
        }
    }
    let exact = sum / f64::from(hands);
    let n = 100_000u32;
    let mut rng = stream(45, 0);
    let mut dice = RngRoller::new(&mut rng);
    let (mut total, mut total2) = (0.0f64, 0.0f64);
    for _ in 0..n {
        let mut s = r.start(&m);
        s.init = 1;
        s.g.p[0][1].init = 1;
        let mut t = OutcomeTally::default();
        r.step(&m, &mut s, &mut dice, &mut t);
        assert_eq!(t.0.attacks, [0, 2], "one attack each, the hero holds no initiative");
        let x = f64::from(t.0.hits[1]);
        total += x;
        total2 += x * x;
    }
    let mean = total / f64::from(n);
    let sd = (total2 / f64::from(n) - mean * mean).sqrt();
    assert!((mean - exact).abs() <= 4.0 * sd / f64::from(n).sqrt(), "{mean} vs {exact}");
}

/// "May never have initiative on more than one opponent at a time": a well-trained fighter
/// against three holds it over exactly one when each round begins (counted by the
/// `initiative_rounds` counter, one per pairing) in nearly every round 1, and never over more
/// than one, at the start of a round or after any round.
#[test]
fn the_lone_fighter_holds_the_initiative_over_at_most_one() {
    for target in ["weakest", "first"] {
        let hero = format!("skill = 5\nweapon = \"sword\"\ncombat_training = 6\ntactics = {{ target = \"{target}\" }}");
        let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(&hero), &spec("skill = 2\nweapon = \"sword\"\ncount = 3"));
        let mut rng = stream(46, 0);
        let mut dice = RngRoller::new(&mut rng);
        let mut first_round_one = 0;
        for _ in 0..500 {
            let mut s = r.start(&m);
            loop {
                let mut t = OutcomeTally::default();
                let go = r.step(&m, &mut s, &mut dice, &mut t);
                let at_start = t.0.counters[duel::C_INITIATIVE];
                assert!(at_start <= 1, "{at_start} initiatives at the start of round {}", s.round);
                first_round_one += usize::from(s.round == 1 && at_start == 1);
                if go != crate::Step::Continue {
                    break;
                }
                let held = (0..3).filter(|&i| s.g.out[1] & (1 << i) == 0 && pairing_init(&s, i) == 0).count();
                assert!(held <= 1, "{held} initiatives after round {}", s.round);
            }
        }
        assert!(first_round_one > 490, "{first_round_one}: combat training 6 wins it over one");
    }
}

/// "If a character has the initiative over one foe and seizes the initiative from another, he
/// automatically yields the initiative to the first foe": the hero (initiative over member 0)
/// parries member 1's attack with a Parry/Seize, and the initiatives swap. And "this is the
/// only way a player can use more than one card in a register": under `band_attack =
/// "always"` he attacks member 0 and cannot parry member 1 in the same register.
#[test]
fn seizing_from_a_second_opponent_yields_the_first() {
    let o = opts(|o| {
        o.hit_rule = HitRule::None;
        o.hp_base = 100;
    });
    let run = |band_attack: &str| {
        let hero = format!("skill = 2\nweapon = \"sword\"\ntactics = {{ seize_threshold = 0, reserve = 1, band_attack = \"{band_attack}\" }}");
        let (r, m) = pair::<Cards>(o.clone(), &spec(&hero), &spec("skill = 1\nweapon = \"sword\"\ncount = 2"));
        let mut s = r.start(&m);
        s.init = 0;
        s.g.p[0][1].init = 1;
        let hero_rs = SideRound {
            hand: Hand::of(&[Card::plain(10), Card::plain(-5)]),
            cap: 3,
            ..SideRound::default()
        };
        let member = |c: i8| SideRound {
            hand: Hand::of(&[Card::plain(c)]),
            cap: 3,
            ..SideRound::default()
        };
        let members = [member(3), member(1), SideRound::default(), SideRound::default()];
        let mut rounds = [[hero_rs, SideRound::default(), SideRound::default(), SideRound::default()], members];
        let mut rng = stream(47, 0);
        let mut dice = RngRoller::new(&mut rng);
        let mut t = OutcomeTally::default();
        let plan = m.group.as_deref().unwrap();
        let end = group::registers(r.options(), plan, &mut s, &mut rounds, &mut dice, &mut t);
        assert_eq!(end, crate::Step::Continue);
        (t.0, pairing_init(&s, 0), pairing_init(&s, 1))
    };
    // "free": member 1 attacks (+1 + 1 = 2), so the hero holds back his attack and meets it
    // with a Parry/Seize of +10 + 1 − 3 = +8; in register 2 member 0, now holding the
    // initiative, attacks (+3 + 1) and the hero's −5 parry (−4) does not subtract: a hit.
    let (t, i0, i1) = run("free");
    assert_eq!((t.attacks, t.hits, i0, i1), ([0, 2], [0, 1], 1, 0));
    assert_eq!(t.counters[duel::C_SEIZES], 1);
    // "always": he attacks member 0 with his −5 (keeping the +10 back), member 0 parries, and
    // member 1's attack goes unparried.
    let (t, i0, i1) = run("always");
    assert_eq!((t.attacks, t.hits, i0, i1), ([1, 1], [0, 1], 0, 1));
    assert_eq!(t.counters[duel::C_SEIZES], 0);
}

/// A band on either seat plays the same: the lone fighter's chance does not depend on being
/// A or B (4σ on the difference); bands on both sides pair, and a band fights in melee.
#[test]
fn band_seats_are_fair_and_bands_fight_in_melee() {
    let hero = "skill = 4\nweapon = \"sword\"\ncombat_training = 2";
    let two = "skill = 2\nweapon = \"sword\"\ncount = 2";
    let n = 20_000u32;
    let share = |a: &str, b: &str, hero_side: Winner, seed: u64| {
        let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(a), &spec(b));
        let mut rng = stream(seed, 0);
        let mut dice = RngRoller::new(&mut rng);
        let wins = (0..n).filter(|_| r.duel(&m, &mut dice).winner == hero_side).count();
        wins as f64 / f64::from(n)
    };
    let (pa, pb) = (share(hero, two, Winner::A, 48), share(two, hero, Winner::B, 49));
    let p = (pa + pb) / 2.0;
    let sigma = (2.0 * p * (1.0 - p) / f64::from(n)).sqrt();
    assert!((pa - pb).abs() <= 4.0 * sigma, "{pa} vs {pb}");
    let r = Cards::new(CardsOptions::default()).unwrap();
    let x = r.compile("x", &spec(two)).unwrap();
    assert!(r.matchup(&x, &x).is_ok(), "bands on both sides");
    let far = Cards::new(opts(|o| o.distance = 30)).unwrap();
    let h = far.compile("h", &spec(hero)).unwrap();
    assert!(far.matchup(&h, &x).is_err(), "a band fights in melee");
}

/// Every band duel and every duel apart ends within the round cap under every attacker ×
/// defender policy pair, varying the new tactics across the pairs (the band counterpart of
/// `every_duel_ends_within_the_cap_under_every_policy_pair`).
#[test]
fn band_and_ranged_duels_end_within_the_cap_under_every_policy_pair() {
    let attackers = ["greedy", "bait", "random"];
    let defenders = ["front", "back", "cover_last", "random"];
    let aims = ["fire_now", "until", "rounds"];
    let defences = ["none", "dodge", "block"];
    for (i, ap) in attackers.iter().enumerate() {
        for (j, dp) in defenders.iter().enumerate() {
            let t = format!(
                "tactics = {{ attacker = \"{ap}\", defender = \"{dp}\", hit = \"{}\", target = \"{}\", band_attack = \"{}\", aim = \"{}\", missile_defense = \"{}\", lunge = {}, hesitate = \"{}\" }}",
                ["when_losing", "never", "always"][(i + j) % 3],
                ["weakest", "first"][j % 2],
                ["free", "always"][(i + j) % 2],
                aims[(i + j) % 3],
                defences[(i + 2 * j) % 3],
                (i + j) % 2 == 0,
                ["never", "out_of_reach", "weak_hand"][(i * 4 + j) % 3],
            );
            let hero = format!("skill = 4\nweapon = \"sword\"\noff_hand = \"small shield\"\noff_hand_skill = 3\ndodge = 2\nbackup = \"dagger\"\nbackup_skill = 2\n{t}");
            let archer = format!("{ARCHER}\n{t}");
            let cases = [
                (0, hero.clone(), format!("skill = 2\nweapon = \"spear\"\ncount = {}\n{t}", 2 + j % 3)),
                (0, format!("skill = 2\nweapon = \"dagger\"\ncount = 3\n{t}"), hero.clone()),
                (45, archer.clone(), hero.clone()),
                (30, archer.clone(), archer.clone()),
                (100, hero.clone(), archer.clone()),
            ];
            for (k, (distance, a, b)) in cases.into_iter().enumerate() {
                let o = opts(|o| {
                    o.max_rounds = 30;
                    o.distance = distance;
                });
                let (r, m) = pair::<Cards>(o, &spec(&a), &spec(&b));
                let mut rng = stream(50, (i * 100 + j * 10 + k) as u64);
                let mut dice = RngRoller::new(&mut rng);
                for _ in 0..100 {
                    let out = r.duel(&m, &mut dice);
                    assert!((1..=30).contains(&out.rounds), "{ap}/{dp} case {k}: {out:?}");
                }
                let mut r1 = stream(51, 0);
                let mut r2 = stream(51, 0);
                assert_eq!(
                    r.duel(&m, &mut RngRoller::new(&mut r1)),
                    r.duel(&m, &mut RngRoller::new(&mut r2))
                );
            }
        }
    }
}
