//! «Small Creature Maneuvers»: Swipe and Smash. A Smash triples the damage and the maximum
//! damage, then surrenders the initiative and ends the smasher's round (scripted registers);
//! only an impact weapon against a small foe smashes; a Swipe takes in the small foes in reach,
//! less their number, each defending on his own, its one card hit once (a scripted group
//! register); and the default tactics are worth having (Monte Carlo at fixed
//! seeds, compared within 4σ of the unpaired difference).

use oddsmith_dice::deck::{Card, Hand};
use oddsmith_dice::stream;

use super::duel::{self, Decl, Man, SideRound, State};
use super::group;
use super::group_tests::spec;
use super::options::{CardsOptions, HitRule};
use super::spec::FoeSize;
use super::{Cards, Matchup};
use crate::testing::{monte_carlo, pair};
use crate::{OutcomeTally, RngRoller, Ruleset, RulesError};

/// A size-3 ogre with a great club: an impact weapon reaching 1 yard.
const OGRE: &str = "skill = 3\nsize = 3\nvitality = 5\nweapon = { name = \"great club\", range = 1, force = 1, max_maneuvers = 2, edge = 0, max_damage = 3, hands = 2, impact = true }";
/// The same ogre with a sword-like club that is not an impact weapon.
const BLADE_OGRE: &str = "skill = 3\nsize = 3\nvitality = 5\nweapon = { name = \"great blade\", range = 1, force = 1, max_maneuvers = 2, edge = 0, max_damage = 3, hands = 2 }";
const MAN: &str = "skill = 2\nweapon = \"sword\"";

fn opts(f: impl FnOnce(&mut CardsOptions)) -> CardsOptions {
    let mut o = CardsOptions {
        hit_rule: HitRule::None,
        ..CardsOptions::default()
    };
    f(&mut o);
    o
}

fn with(s: &str, tactics: &str) -> String {
    format!("{s}\ntactics = {{ {tactics} }}")
}

fn hand(cards: &[Card]) -> SideRound {
    SideRound {
        hand: Hand::of(cards),
        cap: 4,
        ..SideRound::default()
    }
}

/// A round-1 state of `m` at range 1 with `init` holding the initiative.
fn at(r: &Cards, m: &Matchup, init: u8) -> State {
    let mut s = r.start(m);
    s.round = 1;
    s.range = 1;
    s.init = init;
    s
}

/// The attacker's declaration with `cards` against a defender holding `def`, and the rounds.
fn declare(r: &Cards, m: &Matchup, s: &State, cards: &[Card], def: &[Card]) -> (Option<Decl>, [SideRound; 2]) {
    let mut rs = [hand(cards), hand(def)];
    let mut rng = stream(1, 0);
    let d = duel::declare(r.options(), m, s, &mut rs, 0, s.range, &mut RngRoller::new(&mut rng));
    (d, rs)
}

fn resolve(r: &Cards, m: &Matchup, s: &mut State, a: Decl, d: Option<Decl>) -> duel::Register {
    let mut rs = [hand(&[]), hand(&[])];
    let mut rng = stream(3, 0);
    duel::resolve(r.options(), m, s, &mut rs, 0, a, d, 0, &mut RngRoller::new(&mut rng), &mut crate::NoTally).0
}

fn decl(man: Man, v: i8) -> Decl {
    Decl { man, card: Card::plain(v), arm: 0 }
}

/// «Smash»: "The damage and damage total from a smash maneuver is tripled": card 2 deals 6
/// where an attack deals 2, card 5 deals 9 where the club's maximum damage caps an attack at
/// 3 (the maximum is tripled too), armour protection comes off after; a parried Smash deals
/// nothing; hit or miss the smasher "surrenders the initiative to his opponent".
#[test]
fn a_smash_triples_damage_and_surrenders_the_initiative() {
    let o = opts(|o| o.hp_base = 100);
    let (r, m) = pair::<Cards>(o.clone(), &spec(OGRE), &spec(MAN));
    assert_eq!(m.foe, [FoeSize::Small, FoeSize::Large]);
    for (card, attack, smash) in [(2, 2, 6), (3, 3, 9), (5, 3, 9), (-1, 0, 0)] {
        let mut s = at(&r, &m, 0);
        let hit = resolve(&r, &m, &mut s, decl(Man::Attack, card), None);
        assert_eq!((hit.success, hit.damage, s.init), (true, attack, 0), "attack {card}");
        let mut s = at(&r, &m, 0);
        let hp = s.hp[1];
        let hit = resolve(&r, &m, &mut s, decl(Man::Smash, card), None);
        assert_eq!((hit.success, hit.damage, s.init), (true, smash, 1), "smash {card}");
        assert_eq!(i32::from(hp - s.hp[1]), smash);
    }
    // The Smash is at −2: card 3 + force 1 − 2 = 2 against a parry of 1 + 1 = 2 fails.
    let mut s = at(&r, &m, 0);
    let parry = Decl { man: Man::Parry, card: Card::plain(1), arm: 0 };
    let hit = resolve(&r, &m, &mut s, decl(Man::Smash, 3), Some(parry));
    assert_eq!((hit.attack_total, hit.success, hit.damage, s.init), (2, false, 0, 1));
    let mut s = at(&r, &m, 0);
    assert!(resolve(&r, &m, &mut s, decl(Man::Attack, 3), Some(parry)).success);
    // Protection 1 comes off the tripled damage: 3 × 2 − 1.
    let (r, m) = pair::<Cards>(o, &spec(OGRE), &spec(&format!("{MAN}\nprotection = 1")));
    let mut s = at(&r, &m, 0);
    assert_eq!(resolve(&r, &m, &mut s, decl(Man::Smash, 2), None).damage, 5);
}

/// "After executing a smash maneuver the attacker can take no other actions": with `smash =
/// "always"` the ogre smashes, is done for the round (he neither declares nor defends again),
/// and in the duel's registers the man, now holding the initiative, attacks with the cards he
/// has left, unopposed.
#[test]
fn after_a_smash_the_smasher_is_done() {
    let o = opts(|o| o.hp_base = 100);
    let (r, m) = pair::<Cards>(o.clone(), &spec(&with(OGRE, "smash = \"always\"")), &spec(MAN));
    let s = at(&r, &m, 0);
    let (a, mut rs) = declare(&r, &m, &s, &[Card::plain(4), Card::plain(6)], &[Card::plain(1)]);
    let a = a.expect("declares");
    assert_eq!(a.man, Man::Smash);
    assert!(rs[0].done);
    let mut rng = stream(2, 0);
    let mut dice = RngRoller::new(&mut rng);
    assert_eq!(duel::declare(r.options(), &m, &s, &mut rs, 0, 1, &mut dice), None);
    assert_eq!(duel::answer(r.options(), &m, &s, &mut rs, 0, &decl(Man::Attack, 3), 1, &mut dice), None);
}

/// The default `smash = "finishing"`: a Smash only when the man holds no card, the tripled
/// damage takes him out and an attack's would not. At 5 hit points card 2 smashes (6 ≥ 5 > 2);
/// at 2 hit points an attack does it; a man holding a card is attacked; `never` never smashes.
#[test]
fn the_finishing_smash_is_taken_only_when_it_finishes() {
    let o = CardsOptions::default();
    let (r, m) = pair::<Cards>(o.clone(), &spec(OGRE), &spec(MAN));
    let man = |s: &mut State, hp: i16| s.hp[1] = hp;
    let mut s = at(&r, &m, 0);
    man(&mut s, 5);
    let two = [Card::plain(2)];
    assert_eq!(declare(&r, &m, &s, &two, &[]).0.map(|d| d.man), Some(Man::Smash));
    assert_eq!(declare(&r, &m, &s, &[Card::plain(1)], &[]).0.map(|d| d.man), Some(Man::Attack), "3 < 5");
    assert_eq!(declare(&r, &m, &s, &two, &[Card::plain(-9)]).0.map(|d| d.man), Some(Man::Attack));
    man(&mut s, 2);
    assert_eq!(declare(&r, &m, &s, &two, &[]).0.map(|d| d.man), Some(Man::Attack));
    let (r, m) = pair::<Cards>(o, &spec(&with(OGRE, "smash = \"never\"")), &spec(MAN));
    let mut s = at(&r, &m, 0);
    man(&mut s, 5);
    assert_eq!(declare(&r, &m, &s, &two, &[]).0.map(|d| d.man), Some(Man::Attack));
}

/// «Smash»: "can only be used with an impact weapon", by a larger attacker: the same ogre with
/// a blade, or with his club against a foe of his own size, never smashes, even under `smash =
/// "always"`, and a Smash declared with the blade fails; `impact` is refused on a shield or a
/// ranged weapon.
#[test]
fn a_non_impact_weapon_never_smashes() {
    let o = opts(|o| o.hp_base = 100);
    let always = "smash = \"always\"";
    let (r, m) = pair::<Cards>(o.clone(), &spec(&with(BLADE_OGRE, always)), &spec(MAN));
    let s = at(&r, &m, 0);
    assert_eq!(declare(&r, &m, &s, &[Card::plain(4)], &[]).0.map(|d| d.man), Some(Man::Attack));
    let mut s = at(&r, &m, 0);
    let hit = resolve(&r, &m, &mut s, decl(Man::Smash, 4), None);
    assert_eq!((hit.success, hit.damage), (false, 0));
    let big = format!("{MAN}\nsize = 2");
    let (r, m) = pair::<Cards>(o.clone(), &spec(&with(OGRE, always)), &spec(&big));
    assert_eq!(m.foe[0], FoeSize::Equal);
    let s = at(&r, &m, 0);
    assert_eq!(declare(&r, &m, &s, &[Card::plain(4)], &[]).0.map(|d| d.man), Some(Man::Attack));
    let r = Cards::new(o).unwrap();
    for bad in [
        "skill = 2\nweapon = \"sword\"\noff_hand = { name = \"small shield\", impact = true }",
        "skill = 2\nweapon = { name = \"short bow\", impact = true }",
    ] {
        match r.compile("x", &spec(bad)).unwrap_err() {
            RulesError::InvalidField { message, .. } => assert!(message.contains("impact"), "{message}"),
            e => panic!("{e:?}"),
        }
    }
}

/// A goblin: small to the ogre (a third of his size).
const GOBLIN: &str = "skill = 2\nweapon = \"sword\"\ncount = 3";

/// One scripted group round: the ogre (side A) holds the initiative over goblin 0 and plays
/// `card`; goblin 0 holds `g0` and goblins 1 and 2 hold nothing (they hold the initiative over
/// the ogre, with no card to use it). Returns the round's tally.
fn swipe_round(o: &CardsOptions, ogre: &str, card: Card, g0: &[Card]) -> crate::DuelOutcome {
    let (r, m) = pair::<Cards>(o.clone(), &spec(ogre), &spec(GOBLIN));
    let mut s = r.start(&m);
    s.round = 1;
    s.init = 0;
    s.g.p[0][1].init = 1;
    s.g.p[0][2].init = 1;
    let ogre = SideRound {
        hand: Hand::of(&[card]),
        cap: 2,
        ..SideRound::default()
    };
    let goblin = |c: &[Card]| SideRound {
        hand: Hand::of(c),
        cap: 3,
        ..SideRound::default()
    };
    let mut rounds = [
        [ogre, SideRound::default(), SideRound::default(), SideRound::default()],
        [goblin(g0), goblin(&[]), goblin(&[]), SideRound::default()],
    ];
    let mut rng = stream(7, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut t = OutcomeTally::default();
    let plan = m.group.as_deref().unwrap();
    let end = group::registers(r.options(), plan, &mut s, &mut rounds, &mut dice, &mut t);
    assert_eq!(end, crate::Step::Continue);
    t.0
}

/// «Swipe»: "The negative modifier is the number of creatures being attacked. Each target gets
/// a normal defense … The damage done is applied normally to each target that does not
/// successfully defend". The ogre's +6 swipes goblin 0 and the two goblins without a card
/// (6 + 1 − 3 = 4): goblin 0's parry of +2 (+3 with his sword's force) leaves net 1, a hit;
/// the other two are hit unopposed, 3 damage each. A parry of +3 (4) stops it for goblin 0
/// alone. Without the swipe the same card hits goblin 0 only; under `undefended` the same
/// three (the two without a card cannot defend).
#[test]
fn a_swipe_hits_each_goblin_that_does_not_defend() {
    let o = opts(|o| o.hp_base = 100);
    let six = Card::plain(6);
    let t = swipe_round(&o, OGRE, six, &[Card::plain(2)]);
    assert_eq!((t.attacks, t.hits, t.damage), ([3, 0], [3, 0], [9, 0]));
    let t = swipe_round(&o, OGRE, six, &[Card::plain(3)]);
    assert_eq!((t.attacks, t.hits, t.damage), ([3, 0], [2, 0], [6, 0]));
    let t = swipe_round(&o, &with(OGRE, "swipe = \"never\""), six, &[Card::plain(3)]);
    assert_eq!((t.attacks, t.hits, t.damage), ([1, 0], [1, 0], [3, 0]));
    let undefended = with(OGRE, "swipe = \"undefended\"");
    let t = swipe_round(&o, &undefended, six, &[Card::plain(2)]);
    assert_eq!((t.attacks, t.hits), ([3, 0], [3, 0]));
    // Under unopposed_auto_success = false `undefended` needs a total above 0: a +1 swipe at
    // three (1 + 1 − 3 = −1) would hit none of them, so the ogre attacks goblin 0 alone.
    let strict = opts(|o| {
        o.hp_base = 100;
        o.unopposed_auto_success = false;
    });
    let t = swipe_round(&strict, &undefended, Card::plain(1), &[]);
    assert_eq!((t.attacks, t.hits), ([1, 0], [1, 0]));
    let t = swipe_round(&strict, &undefended, Card::plain(3), &[]);
    assert_eq!((t.attacks, t.hits), ([3, 0], [3, 0]));
    // Goblins of the ogre's own size are not small: no swipe.
    let t = swipe_round(&o, &OGRE.replace("size = 3", "size = 1.5"), six, &[Card::plain(2)]);
    assert_eq!(t.attacks, [1, 0]);
}

/// A Swipe's one card is hit once: the ogre's "+1 (hit)" loses to each goblin's parry, he
/// draws one card (from a deck of plain +5s) in the first target's register, and every
/// target meets the same total (1 + 5 + 1 − 3 = 4 against parries of +1 + 1 = 2: all hit).
#[test]
fn a_swipe_card_is_hit_once() {
    let o = opts(|o| {
        o.hp_base = 100;
        o.hit_rule = HitRule::DrawAdd;
        o.deck = super::options::DeckChoice::Custom;
        o.custom_deck = vec!["+5".into(); 40];
    });
    let (r, m) = pair::<Cards>(o, &spec(OGRE), &spec(GOBLIN));
    let mut s = r.start(&m);
    s.round = 1;
    s.init = 0;
    let parry = || SideRound {
        hand: Hand::of(&[Card::plain(1)]),
        cap: 3,
        ..SideRound::default()
    };
    let ogre = SideRound {
        hand: Hand::of(&[Card { value: 1, hit: true }]),
        cap: 2,
        ..SideRound::default()
    };
    let none = SideRound::default();
    let mut rounds = [[ogre, none, none, none], [parry(), parry(), parry(), none]];
    let mut rng = stream(8, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut t = OutcomeTally::default();
    let g = m.group.as_deref().unwrap();
    assert_eq!(group::registers(r.options(), g, &mut s, &mut rounds, &mut dice, &mut t), crate::Step::Continue);
    assert_eq!((t.0.attacks, t.0.hits, t.0.damage), ([3, 0], [3, 0], [9, 0]));
    assert_eq!(t.0.counters[duel::C_HIT_DRAWS], 1, "one hit draw for the one card");
}

/// P(A wins) over `n` fights at `seed` and its standard error.
fn win(o: &CardsOptions, a: &str, b: &str, n: u32, seed: u64) -> (f64, f64) {
    let (r, m) = pair::<Cards>(o.clone(), &spec(a), &spec(b));
    let p = monte_carlo(&r, &m, n, seed).0;
    (p, (p * (1.0 - p) / f64::from(n)).sqrt())
}

const N: u32 = 20_000;

/// A skill-4 ogre with three maneuvers of a great club, against three skill-1 goblins.
const SWIPER: &str = "skill = 4\nsize = 3\nvitality = 8\nweapon = { name = \"great club\", range = 1, force = 1, max_maneuvers = 3, edge = 0, max_damage = 3, hands = 2, impact = true }";
const GOBLINS: &str = "skill = 1\nweapon = \"sword\"\ncount = 3";
/// A skill-3 ogre whose great club deals at most 2 (6 smashing), against a nimble one-card man
/// of 8 hit points.
const SMASHER: &str = "skill = 3\nsize = 3\nweapon = { name = \"great club\", range = 1, force = 1, max_maneuvers = 3, edge = 0, max_damage = 2, hands = 2, impact = true }";
const NIMBLE: &str = "skill = 1\nweapon = \"sword\"\nvitality = 3\nfinesse = 2";

/// P(a wins) − P(b wins) against `foe` at `seed`, and 4σ of the difference.
fn gain(a: &str, b: &str, foe: &str, seed: u64) -> (f64, f64, f64) {
    let o = CardsOptions::default();
    let (on, s1) = win(&o, a, foe, N, seed);
    let (off, s0) = win(&o, b, foe, N, seed);
    (on, off, 4.0 * (s1 * s1 + s0 * s0).sqrt())
}

/// The `swipe` tactics change the fight they are built for: the ogre against three goblins
/// wins more often swiping by default (`always`) than under `undefended`, and more often
/// under `undefended` than never swiping (each by more than 4σ of the difference, 20,000
/// fights; about 0.90, 0.53 and 0.50), and the default is never worse than `never` against
/// two goblins or three daggers (within 4σ).
#[test]
fn the_default_swipe_beats_never_swiping() {
    let never = with(SWIPER, "swipe = \"never\"");
    let undefended = with(SWIPER, "swipe = \"undefended\"");
    let (on, off, sd4) = gain(SWIPER, &undefended, GOBLINS, 4001);
    assert!(on - off > sd4, "always {on} vs undefended {off} (4σ {sd4})");
    let (on, off, sd4) = gain(&undefended, &never, GOBLINS, 4001);
    assert!(on - off > sd4, "undefended {on} vs never {off} (4σ {sd4})");
    let two = GOBLINS.replace("count = 3", "count = 2");
    let daggers = "skill = 1\nweapon = \"dagger\"\ncount = 3\nvitality = -2";
    for (k, foe) in [two.as_str(), daggers].iter().enumerate() {
        let (on, off, sd4) = gain(SWIPER, &never, foe, 4002 + k as u64);
        assert!(on >= off - sd4, "foe {k}: swipe {on} vs never {off} (4σ {sd4})");
    }
}

/// The default `smash` changes the duel it is built for: the ogre against a nimble one-card
/// man (soon out of cards, and at 3–6 hit points a tripled 2 finishes him) wins more often than
/// the ogre who never smashes (more than 4σ; about 0.73 against 0.69), and is never worse
/// against the goblins or a two-card man (within 4σ). `always` (a Smash with every attack,
/// then nothing more that round) is far worse.
#[test]
fn the_default_smash_beats_never_smashing() {
    let never = with(SMASHER, "smash = \"never\"");
    let (on, off, sd4) = gain(SMASHER, &never, NIMBLE, 4003);
    assert!(on - off > sd4, "smash {on} vs never {off} (4σ {sd4})");
    for (k, foe) in [GOBLINS, MAN].iter().enumerate() {
        let (on, off, sd4) = gain(SMASHER, &never, foe, 4004 + k as u64);
        assert!(on >= off - sd4, "foe {k}: smash {on} vs never {off} (4σ {sd4})");
    }
    let (always, on, sd4) = gain(&with(SMASHER, "smash = \"always\""), SMASHER, NIMBLE, 4006);
    assert!(on - always > sd4, "finishing {on} vs always {always} (4σ {sd4})");
}

/// Figures for the docs (run with `--ignored --nocapture`).
#[test]
#[ignore]
fn print_figures() {
    let o = CardsOptions::default();
    let n = 100_000;
    for (what, ogre, foe) in [("swiper, three goblins", SWIPER, GOBLINS), ("smasher, nimble man", SMASHER, NIMBLE)] {
        for t in ["", "swipe = \"undefended\"", "swipe = \"never\"", "smash = \"never\"", "smash = \"always\""] {
            let (p, s) = win(&o, &with(ogre, t), foe, n, 40);
            println!("{what} [{t}]: P(ogre wins) {p:.4} ± {:.4} (95 %)", 1.96 * s);
        }
    }
}

/// The bundled `ogre-vs-goblins` scenario: its fighters compile and pair, the ogre's club is an
/// impact weapon, and the goblins and the man are small to him.
#[test]
fn the_ogre_scenario_pairs() {
    let text = include_str!("../../../../scenarios/cards/ogre-vs-goblins.toml");
    let doc: toml::Table = toml::from_str(text).unwrap();
    let fighters = doc["fighters"].as_table().unwrap();
    let r = Cards::new(CardsOptions::default()).unwrap();
    let fighter = |name: &toml::Value| {
        let name = name.as_str().unwrap();
        let s: super::FighterSpec = fighters[name].clone().try_into().unwrap_or_else(|e| panic!("{name}: {e}"));
        r.compile(name, &s).unwrap()
    };
    for m in doc["matchup"].as_array().unwrap() {
        let (a, b) = (fighter(&m["a"]), fighter(&m["b"]));
        assert!(a.main.impact);
        let m = r.matchup(&a, &b).unwrap();
        assert_eq!(m.foe[0], FoeSize::Small);
        assert!(m.unusual);
    }
}

