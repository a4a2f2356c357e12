//! Issue 39: fighters of different sizes («Unusual Foes», «Large Creature Maneuvers»). Equal
//! sizes change nothing (bit for bit); against a large foe the Flank, Cling and Buck do what
//! the post says (scripted registers) and the default `flank` tactic is worth having (Monte
//! Carlo at fixed seeds on common random numbers, compared within 4σ of the unpaired
//! difference, which common random numbers only make more conservative).

use oddsmith_dice::deck::{Card, Hand};
use oddsmith_dice::stream;

use super::duel::{self, Decl, Man, SideRound, State};
use super::options::CardsOptions;
use super::spec::{FoeSize, Location};
use super::{Cards, Matchup};
use super::group_tests::{HERO, spec};
use crate::testing::{monte_carlo, pair};
use crate::{RngRoller, Ruleset, RulesError};

/// The band fights' digest ([`super::group_tests::digest`]) under the default options.
fn digest(a: &str, b: &str, seed: u64, n: u32) -> u64 {
    super::group_tests::digest(CardsOptions::default(), a, b, seed, n)
}

const SWORD: &str = "skill = 3\nweapon = \"sword\"";
/// A size-3 brute with a two-handed great club reaching 2 yards.
const BRUTE: &str = "skill = 3\nsize = 3\nvitality = 5\nweapon = { name = \"great club\", range = 2, force = 1, max_maneuvers = 2, edge = 2, max_damage = 5, hands = 2 }";

/// Equal sizes (any size, as long as neither is twice the other) play the ordinary rules bit
/// for bit: the first pinned band fight of `group_tests.rs` with every member at size 3, and a
/// duel pinned here at sizes 1, 2.5 each, and 1 against 1.9.
#[test]
fn equal_sizes_change_nothing() {
    let (a, b) = (HERO, "skill = 2\nweapon = \"sword\"\ncount = 2");
    let big = |s: &str, size: f64| format!("{s}\nsize = {size}");
    // group_tests.rs `band_fights_are_pinned`, case 0 (seed 390, 2,000 fights).
    assert_eq!(digest(&big(a, 3.0), &big(b, 3.0), 390, 2_000), 0x139a_03e6_48ba_958c);
    let (x, y) = ("skill = 3\nweapon = \"spear\"", "skill = 3\nweapon = \"sword\"\ncombat_training = 2");
    let pinned = digest(x, y, 3901, 4_000);
    assert_eq!(pinned, 0xcf6d_74f1_e2f4_a5a2, "{pinned:#x}");
    assert_eq!(digest(&big(x, 2.5), &big(y, 2.5), 3901, 4_000), pinned);
    assert_eq!(digest(x, &big(y, 1.9), 3901, 4_000), pinned);
    // And the plain form stays the plain form.
    let (_, m) = pair::<Cards>(CardsOptions::default(), &spec(x), &spec(&big(y, 1.9)));
    assert!(m.plain && !m.unusual);
}

/// Against a large foe, where Swipe and Smash cannot arise (a duel has no second foe to
/// swipe, and the brute's great club is no impact weapon), the fights replay bit for bit the
/// figures pinned before the two maneuvers: the man against the brute, the man who clings,
/// and the man against two brutes (each of whom faces one small foe).
#[test]
fn large_foe_fights_replay_bit_for_bit() {
    let cling = format!("{SWORD}\ntactics = {{ cling = true }}");
    let brutes = format!("{BRUTE}\ncount = 2");
    let got = [
        digest(SWORD, BRUTE, 3920, 3_000),
        digest(&cling, BRUTE, 3921, 3_000),
        digest(SWORD, &brutes, 3922, 1_000),
    ];
    assert_eq!(got, [0x2e18_7885_c120_ce7c, 0x85ff_168d_0227_4a96, 0xcf53_2d56_62eb_5549], "{got:#x?}");
}

/// «Unusual Foes»: twice the size is large, less than half small; the called-shot tables.
#[test]
fn sizes_class_foes_and_called_shots() {
    assert_eq!(FoeSize::of(1.0, 2.0), FoeSize::Large);
    assert_eq!(FoeSize::of(1.0, 1.99), FoeSize::Equal);
    assert_eq!(FoeSize::of(1.0, 0.5), FoeSize::Equal);
    assert_eq!(FoeSize::of(1.0, 0.49), FoeSize::Small);
    let large: Vec<_> = [Location::Head, Location::HeadVitals, Location::TorsoVitals, Location::Legs, Location::Arms]
        .iter()
        .map(|l| (l.modifier_against(FoeSize::Large), l.modifier_against(FoeSize::Small)))
        .collect();
    assert_eq!(
        large,
        [(Some(-5), Some(-8)), (Some(-6), None), (Some(-4), Some(-10)), (Some(0), Some(-6)), (Some(-2), Some(-5))]
    );
    // Folded into the matchup: a head shot at the brute is −5, the brute's at the man −5
    // too (he is not small to the brute: a third is less than half, so he is).
    let head = |s: &str| format!("{s}\ntactics = {{ called_shot = \"head_vitals\" }}");
    let (_, m) = pair::<Cards>(CardsOptions::default(), &spec(&head(SWORD)), &spec(&head(BRUTE)));
    assert_eq!(m.foe, [FoeSize::Large, FoeSize::Small]);
    // Head vitals: −6 at a large creature; not callable at a small one (the torso instead).
    assert_eq!([m.shot[0][0], m.shot[1][0]], [-6, 0]);
    assert!(m.unusual && !m.plain);
}

/// Sizes are positive: 0 and −1 are refused at the field with the rule in the message.
#[test]
fn sizes_validate() {
    let r = Cards::new(CardsOptions::default()).unwrap();
    for bad in ["0", "-1", "0.0", "1001"] {
        let e = r.compile("x", &spec(&format!("{SWORD}\nsize = {bad}"))).unwrap_err();
        match e {
            RulesError::InvalidField { field, message } => {
                assert_eq!(field, "size");
                assert!(message.contains("above 0"), "{message}");
            }
            e => panic!("{e:?}"),
        }
    }
    assert!(r.compile("x", &spec(&format!("{SWORD}\nsize = 0.25"))).is_ok());
}

fn hand(cards: &[Card]) -> SideRound {
    SideRound {
        hand: Hand::of(cards),
        cap: 4,
        ..SideRound::default()
    }
}

/// A round-1 state of `m` at `range` with `init` holding the initiative.
fn at(r: &Cards, m: &Matchup, range: i8, init: u8) -> State {
    let mut s = r.start(m);
    s.round = 1;
    s.range = range;
    s.init = init;
    s
}

fn declare(r: &Cards, m: &Matchup, s: &State, att: usize, cards: &[Card]) -> Option<Decl> {
    let mut rs = [hand(&[]), hand(&[])];
    rs[att] = hand(cards);
    rs[1 - att] = hand(&[Card::plain(1)]);
    let mut rng = stream(1, 0);
    duel::declare(r.options(), m, s, &mut rs, att, s.range, &mut RngRoller::new(&mut rng))
}

fn answer(r: &Cards, m: &Matchup, s: &State, def: usize, a: Decl, cards: &[Card]) -> Option<Decl> {
    let mut rs = [hand(&[]), hand(&[])];
    rs[def] = hand(cards);
    let mut rng = stream(2, 0);
    duel::answer(r.options(), m, s, &mut rs, def, &a, s.range, &mut RngRoller::new(&mut rng))
}

fn resolve(r: &Cards, m: &Matchup, s: &mut State, att: usize, a: Decl, d: Option<Decl>) -> duel::Register {
    let mut rs = [hand(&[]), hand(&[])];
    let mut rng = stream(3, 0);
    let o = r.options();
    duel::resolve(o, m, s, &mut rs, att, a, d, 0, &mut RngRoller::new(&mut rng), &mut crate::NoTally).0
}

fn decl(man: Man, v: i8) -> Decl {
    Decl { man, card: Card::plain(v), arm: 0 }
}

/// «Flank»: a man with the initiative flanks the brute (his card's total is positive); only a
/// dodge answers it; once it succeeds the brute declares nothing against him this round and
/// the next, and does not dodge his blows; two rounds on it has lapsed.
#[test]
fn a_flank_bars_the_large_foe() {
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(SWORD), &spec(BRUTE));
    let mut s = at(&r, &m, 1, 0);
    let a = declare(&r, &m, &s, 0, &[Card::plain(3)]).expect("declares");
    assert_eq!(a.man, Man::Flank);
    // A card whose flank total is not positive attacks instead (the brute's finesse is 0).
    let weak = declare(&r, &m, &s, 0, &[Card::plain(-2)]).expect("declares");
    assert_eq!(weak.man, Man::Attack);
    let d = answer(&r, &m, &s, 1, a, &[Card::plain(1)]).expect("answers");
    assert_eq!(d.man, Man::Dodge);
    // The dodge (1 − 2 = −1) does not stop the flank.
    assert!(resolve(&r, &m, &mut s, 0, a, Some(d)).success);
    assert_eq!(s.u.flank, [2, 0]);
    // The brute, with the initiative, has nothing to declare against the flanker.
    assert_eq!(declare(&r, &m, &s, 1, &[Card::plain(9)]), None);
    s.round = 2;
    assert_eq!(declare(&r, &m, &s, 1, &[Card::plain(9)]), None);
    // An attack out of the club's parrying reach (range 1 < 2: it cannot parry inside) is
    // not dodged while flanked.
    assert_eq!(answer(&r, &m, &s, 1, decl(Man::Attack, 2), &[Card::plain(5)]), None);
    s.round = 3;
    // Lapsed: the brute retreats to his club's reach at range 1.
    assert_eq!(declare(&r, &m, &s, 1, &[Card::plain(9)]).map(|d| d.man), Some(Man::Retreat));
    let d = answer(&r, &m, &s, 1, decl(Man::Attack, 2), &[Card::plain(5)]);
    assert_eq!(d.map(|d| d.man), Some(Man::Dodge));
    // A successful dodge prevents a flank.
    let mut s = at(&r, &m, 1, 0);
    assert!(!resolve(&r, &m, &mut s, 0, decl(Man::Flank, 1), Some(Decl { man: Man::Dodge, card: Card::plain(9), arm: 2 })).success);
    assert_eq!(s.u.flank, [0, 0]);
    // Against a foe of his own size there is no flank.
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(SWORD), &spec(SWORD));
    let s = at(&r, &m, 1, 0);
    assert_eq!(declare(&r, &m, &s, 0, &[Card::plain(3)]).map(|d| d.man), Some(Man::Attack));
}

/// «Cling»: once clung the man attacks with his sword at any range, and the brute's club
/// (range 2) cannot attack him: without the buck tactic the brute declares nothing; with a
/// dagger (range 0) he still may. A cling made while the flank holds bars even the dagger.
#[test]
fn a_cling_stops_reach_weapon_attacks() {
    let cling = format!("{SWORD}\ntactics = {{ cling = true, flank = \"never\" }}");
    let no_buck = format!("{BRUTE}\ntactics = {{ buck = false }}");
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(&cling), &spec(&no_buck));
    let mut s = at(&r, &m, 1, 0);
    let a = declare(&r, &m, &s, 0, &[Card::plain(6)]).expect("declares");
    assert_eq!(a.man, Man::Cling);
    // Without buck nothing counters a cling: it succeeds unopposed.
    assert_eq!(answer(&r, &m, &s, 1, a, &[Card::plain(5)]), None);
    assert!(resolve(&r, &m, &mut s, 0, a, None).success);
    assert!(s.u.cling[0] && !s.u.barred[0]);
    // The brute's club reaches 2: at range 2 it would attack; clung, it cannot.
    s.range = 2;
    assert_eq!(declare(&r, &m, &s, 1, &[Card::plain(9)]), None);
    // The clinger's sword attacks at range 2 (out of its reach otherwise: a Close).
    assert_eq!(declare(&r, &m, &s, 0, &[Card::plain(4)]).map(|d| d.man), Some(Man::Attack));
    assert!(resolve(&r, &m, &mut s, 0, decl(Man::Attack, 4), None).success);
    let mut free = at(&r, &m, 2, 0);
    free.u = Default::default();
    // (Free, the brute keeps his reach: an attack without stepping forward.)
    assert_eq!(declare(&r, &m, &free, 1, &[Card::plain(9)]).map(|d| d.man), Some(Man::AttackNoStep));
    assert_eq!(declare(&r, &m, &free, 0, &[Card::plain(4)]).map(|d| d.man), Some(Man::Close));
    // A brute with a dagger (range 0) may still attack the clinger at range 0 …
    let dagger = "skill = 3\nsize = 3\nweapon = \"dagger\"\ntactics = { buck = false }";
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(&cling), &spec(dagger));
    let mut s = at(&r, &m, 0, 0);
    s.u.cling[0] = true;
    assert_eq!(declare(&r, &m, &s, 1, &[Card::plain(9)]).map(|d| d.man), Some(Man::Attack));
    // … but not after a cling made while the flank held.
    let mut s = at(&r, &m, 0, 0);
    s.u.flank[0] = 1;
    assert!(resolve(&r, &m, &mut s, 0, decl(Man::Cling, 6), None).success);
    assert!(s.u.barred[0]);
    s.round = 5;
    assert_eq!(declare(&r, &m, &s, 1, &[Card::plain(9)]), None);
}

/// «Buck»: the brute answers a Cling with a Buck, which counters it when it wins; clung to,
/// he opens with a Buck, which throws the clinger off.
#[test]
fn a_buck_removes_a_clinger() {
    let cling = format!("{SWORD}\ntactics = {{ cling = true, flank = \"never\" }}");
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(&cling), &spec(BRUTE));
    let mut s = at(&r, &m, 1, 0);
    let a = decl(Man::Cling, 3);
    let d = answer(&r, &m, &s, 1, a, &[Card::plain(5)]).expect("bucks");
    assert_eq!(d.man, Man::Buck);
    // Cling 3 − 4 = −1 against the buck's +5: countered.
    assert!(!resolve(&r, &m, &mut s, 0, a, Some(d)).success);
    assert!(!s.u.cling[0]);
    // A clinger thrown off.
    s.u.cling[0] = true;
    let b = declare(&r, &m, &s, 1, &[Card::plain(2)]).expect("bucks");
    assert_eq!(b.man, Man::Buck);
    assert!(resolve(&r, &m, &mut s, 1, b, None).success);
    assert!(!s.u.cling[0]);
    // Nobody clings: no buck; at range 1 the brute retreats to his club's reach.
    assert_eq!(declare(&r, &m, &s, 1, &[Card::plain(2)]).map(|d| d.man), Some(Man::Retreat));
}

/// «Cling»: the one clung to "cannot use any attack with a range greater than 0 against the
/// clinging character", a Lunge included: the brute's club (range 2) lunges one yard short
/// when free, not when clung to, and a Lunge declared before the cling fails.
#[test]
fn a_clung_to_fighter_cannot_lunge() {
    let lunger = format!("{BRUTE}\ntactics = {{ lunge = true, buck = false }}");
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(SWORD), &spec(&lunger));
    let mut s = at(&r, &m, 3, 1);
    assert_eq!(declare(&r, &m, &s, 1, &[Card::plain(9)]).map(|d| d.man), Some(Man::Lunge));
    s.u.cling[0] = true;
    assert_eq!(declare(&r, &m, &s, 1, &[Card::plain(9)]), None);
    for range in [2, 3] {
        let mut s = at(&r, &m, range, 1);
        s.u.cling[0] = true;
        assert!(!resolve(&r, &m, &mut s, 1, decl(Man::Lunge, 9), None).success, "range {range}");
        let mut free = at(&r, &m, range, 1);
        assert!(resolve(&r, &m, &mut free, 1, decl(Man::Lunge, 9), None).success, "range {range}");
    }
}

/// A clinger "may attack with any weapon he wishes": his Offensive Disengage (an attack with
/// his weapon) is legal wherever his attacks are, so the card he declares it with is not
/// wasted at a range his sword does not reach.
#[test]
fn a_clinger_disengages_at_any_range() {
    let worn = format!("{SWORD}\ntactics = {{ disengage_at_hp = 99, flank = \"never\" }}");
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(&worn), &spec(BRUTE));
    let mut s = at(&r, &m, 3, 0);
    s.u.cling[0] = true;
    let a = declare(&r, &m, &s, 0, &[Card::plain(5)]).expect("declares");
    assert_eq!(a.man, Man::Disengage);
    assert!(resolve(&r, &m, &mut s, 0, a, None).success);
    // Free at range 3, the sword (range 1) cannot disengage.
    let mut free = at(&r, &m, 3, 0);
    assert!(!resolve(&r, &m, &mut free, 0, decl(Man::Disengage, 5), None).success);
}

/// Ranged called shots use the size tables too: legs at a large creature are 0 (−3 at one of
/// his size), and head vitals at a small one cannot be called (the torso instead, 0 where the
/// ordinary table says −8). Equal sizes keep the ordinary modifier.
#[test]
fn ranged_called_shots_use_the_size_tables() {
    use super::ranged::{self, Act};
    let mut o = CardsOptions::default();
    o.hit_rule = super::options::HitRule::None;
    // Whether `archer`'s shot with card `v` hits `target` at 10 yards.
    let hits = |archer: &str, target: &str, v: i8| {
        let (r, m) = pair::<Cards>(o.clone(), &spec(archer), &spec(target));
        let mut s = r.start(&m);
        s.apart = true;
        s.range = 10;
        let mut rng = stream(4, 0);
        let mut t = crate::OutcomeTally::default();
        let card = Some(Card::plain(v));
        ranged::shoot_with(r.options(), &m, &mut s, 0, Act::Dodge, 0, None, card, &mut RngRoller::new(&mut rng), &mut t);
        t.0.hits[0] > 0
    };
    let bow = |loc: &str| format!("skill = 3\nweapon = \"short bow\"\ntactics = {{ called_shot = \"{loc}\" }}");
    let large = format!("{SWORD}\nsize = 3");
    let small = format!("{SWORD}\nsize = 0.4");
    let mut moved = [false; 2];
    for v in -12..=12 {
        // Legs: 0 at a large creature, as a torso shot at a man.
        assert_eq!(hits(&bow("legs"), &large, v), hits(&bow("torso"), SWORD, v), "legs, card {v}");
        assert_eq!(hits(&bow("legs"), SWORD, v), hits(&bow("torso"), SWORD, v - 3), "legs, card {v}");
        moved[0] |= hits(&bow("legs"), &large, v) != hits(&bow("legs"), SWORD, v);
        // Head vitals at a small creature: the torso.
        assert_eq!(hits(&bow("head_vitals"), &small, v), hits(&bow("torso"), &small, v), "vitals, card {v}");
        moved[1] |= hits(&bow("head_vitals"), &small, v) != hits(&bow("head_vitals"), SWORD, v);
    }
    assert_eq!(moved, [true, true]);
}

/// Flank, Cling and Buck come out of an item's own maximum maneuvers (§Shields, Parrying
/// Daggers & Off-hand Weapons: "may use neither weapon more times than its individual
/// maximum"): with the sword's 3 spent, the shield's (before, a fourth sword maneuver).
#[test]
fn flank_cling_and_buck_respect_each_items_maximum() {
    let shielded = format!("{SWORD}\noff_hand = \"small shield\"\noff_hand_skill = 3\ntactics = {{ flank = \"always\" }}");
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(&shielded), &spec(BRUTE));
    let o = r.options();
    let s = at(&r, &m, 1, 0);
    let mut rng = stream(5, 0);
    let mut dice = RngRoller::new(&mut rng);
    // The man's maneuvers so far: (sword, shield) used, of a cap of 4.
    let round = |used: [u8; 2]| {
        let mut c = hand(&[Card::plain(5), Card::plain(6)]);
        c.used = used;
        c.total = used[0] + used[1];
        c.declared = 1;
        [c, hand(&[Card::plain(1)])]
    };
    let mut rs = round([0, 0]);
    let a = duel::declare(o, &m, &s, &mut rs, 0, 1, &mut dice).expect("flanks");
    assert_eq!((a.man, a.arm, rs[0].used), (Man::Flank, 0, [1, 0]));
    let mut rs = round([3, 0]);
    let a = duel::declare(o, &m, &s, &mut rs, 0, 1, &mut dice).expect("flanks");
    assert_eq!((a.man, a.arm, rs[0].used), (Man::Flank, 1, [3, 1]));
    // Clung to (a Buck is offered whatever the sizes), he bucks with the shield.
    let mut s = s;
    s.u.cling[1] = true;
    let mut rs = round([3, 0]);
    let b = duel::declare(o, &m, &s, &mut rs, 0, 1, &mut dice).expect("bucks");
    assert_eq!((b.man, b.arm), (Man::Buck, 1));
    // Answering a Cling: the shield's maneuver when the sword's are spent.
    let s = at(&r, &m, 1, 1);
    let mut rs = round([3, 0]);
    let d = duel::answer(o, &m, &s, &mut rs, 0, &decl(Man::Cling, 2), 1, &mut dice).expect("bucks");
    assert_eq!((d.man, d.arm), (Man::Buck, 1));
}

/// P(A wins) over `n` duels at `seed` and its standard error.
fn win(a: &str, b: &str, n: u32, seed: u64) -> (f64, f64) {
    let (r, m) = pair::<Cards>(CardsOptions::default(), &spec(a), &spec(b));
    let p = monte_carlo(&r, &m, n, seed).0;
    (p, (p * (1.0 - p) / f64::from(n)).sqrt())
}

const N: u32 = 20_000;

/// A flanker beats the same man without the flank against the brute (by more than 4σ of the
/// difference, 20,000 duels, seed 3902).
#[test]
fn a_flanker_beats_the_same_man_without_flank() {
    let (flank, sf) = win(SWORD, BRUTE, N, 3902);
    let (plain, sp) = win(&format!("{SWORD}\ntactics = {{ flank = \"never\" }}"), BRUTE, N, 3902);
    let sd = (sf * sf + sp * sp).sqrt();
    assert!(flank - plain > 4.0 * sd, "flank {flank} vs without {plain} (σ {sd})");
}

/// The default tactic (`flank = "outreached"`) is never worse than not flanking, within 4σ,
/// against large foes of several kinds: the brute, a nimble one (finesse 3, a flank at −3), a
/// size-2 swordsman of skill 4 (of the man's reach: the default does not flank him), a size-4
/// beast with claws of range 1, and a foe of the man's own size (where nothing changes).
#[test]
fn the_default_flank_never_does_worse() {
    let foes = [
        BRUTE.to_string(),
        format!("{BRUTE}\nfinesse = 3"),
        "skill = 4\nsize = 2\nvitality = 3\nweapon = \"sword\"".to_string(),
        "skill = 2\nsize = 4\nvitality = 8\nweapon = { name = \"claws\", range = 1, max_maneuvers = 3, edge = 1, max_damage = 4 }".to_string(),
        SWORD.to_string(),
    ];
    for (k, foe) in foes.iter().enumerate() {
        let seed = 3910 + k as u64;
        let (on, s1) = win(SWORD, foe, N, seed);
        let (off, s0) = win(&format!("{SWORD}\ntactics = {{ flank = \"never\" }}"), foe, N, seed);
        let sd = (s1 * s1 + s0 * s0).sqrt();
        assert!(on >= off - 4.0 * sd, "foe {k}: flank {on} vs without {off} (σ {sd})");
    }
}

/// Figures for the docs (run with `--ignored --nocapture`).
#[test]
#[ignore]
fn print_figures() {
    let n = 100_000;
    let foes = [
        BRUTE.to_string(),
        format!("{BRUTE}\nfinesse = 3"),
        "skill = 4\nsize = 2\nvitality = 3\nweapon = \"sword\"".to_string(),
        "skill = 2\nsize = 4\nvitality = 8\nweapon = { name = \"claws\", range = 1, max_maneuvers = 3, edge = 1, max_damage = 4 }".to_string(),
    ];
    for (k, foe) in foes.iter().enumerate() {
        for (what, t) in [
            ("default (outreached)", ""),
            ("always", "flank = \"always\""),
            ("never", "flank = \"never\""),
            ("default, cling", "cling = true"),
            ("always, cling", "flank = \"always\", cling = true"),
            ("never, cling", "flank = \"never\", cling = true"),
        ] {
            let a = format!("{SWORD}\ntactics = {{ {t} }}");
            let (p, s) = win(&a, foe, n, 39);
            println!("foe {k} {what}: P(man wins) {p:.4} ± {:.4} (95 %)", 1.96 * s);
        }
    }
}
