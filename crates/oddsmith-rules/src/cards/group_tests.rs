//! Cards group fights (§Multiple Opponents): today's band figures pinned bit for bit, two
//! identical sides fair within 4σ, a one-against-one group equal to the duel, and each group
//! rule changing a case built to show it.

use oddsmith_dice::stream;

use super::options::{CardsOptions, Start};
use super::spec::FighterSpec;
use crate::testing::pair;
use crate::{RngRoller, Ruleset};

pub(super) fn spec(text: &str) -> FighterSpec {
    toml::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// FNV-1a over the text of every outcome of `n` fights at seed `seed`.
pub(super) fn digest(o: CardsOptions, a: &str, b: &str, seed: u64, n: u32) -> u64 {
    let (r, m) = pair::<super::Cards>(o, &spec(a), &spec(b));
    let mut rng = stream(seed, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for _ in 0..n {
        let out = r.duel(&m, &mut dice);
        for b in format!("{out:?}").bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

pub(super) const HERO: &str = "skill = 4\nweapon = \"sword\"\ncombat_training = 2\noff_hand = \"small shield\"\noff_hand_skill = 3\nbackup = \"dagger\"\nbackup_skill = 2";

/// The band fights of the lone fighter against 2–4 identical members (on either seat, under
/// each `target` and `band_attack`, engaged and in a show down, with a wrestler), pinned to
/// the figures of the band code before the group mechanism: moving the band onto it changes
/// no fight. (The show down's, the fourth, moved since on purpose: round 1's hand is the drawn
/// weapon's, min(skill, fast draw).)
#[test]
fn band_fights_are_pinned() {
    let cases: [(&str, &str, Start); 6] = [
        (HERO, "skill = 2\nweapon = \"sword\"\ncount = 2", Start::Engaged),
        ("skill = 3\nweapon = \"spear\"\ntactics = { target = \"first\", band_attack = \"always\" }", "skill = 2\nweapon = \"dagger\"\ncount = 3", Start::Engaged),
        ("skill = 2\nweapon = \"dagger\"\ncount = 4", HERO, Start::Engaged),
        (HERO, "skill = 2\nweapon = \"sword\"\ncount = 3\nfast_draw = 1", Start::ShowDown),
        ("skill = 3\nweapon = \"bare hands\"\nbrawling = 3\ntactics = { wrestle = true }", "skill = 2\nweapon = \"bare hands\"\ncount = 2\ntactics = { wrestle = true }", Start::Engaged),
        ("skill = 2\nweapon = \"sword\"\ncount = 2\ntactics = { attacker = \"bait\" }", "skill = 3\nweapon = \"sword\"\ntactics = { band_attack = \"always\", defender = \"back\" }", Start::Engaged),
    ];
    let got: Vec<u64> = cases
        .iter()
        .enumerate()
        .map(|(i, (a, b, start))| {
            let o = CardsOptions {
                start: *start,
                ..CardsOptions::default()
            };
            digest(o, a, b, 390 + i as u64, 2_000)
        })
        .collect();
    assert_eq!(
        got,
        [
            0x139a_03e6_48ba_958c,
            0xf837_62ba_7bac_04bd,
            0x585e_2127_c33b_fde0,
            0xa9ae_e5f7_1e46_f475,
            0x5743_fec4_fa10_0294,
            0xb5bb_349b_1820_f45c,
        ],
        "{got:#x?}"
    );
}

use super::Cards;
use super::group::{self, pinit};
use crate::{Step, Winner};

/// P(A wins) − P(B wins) over `n` fights, with its standard error.
fn edge(r: &Cards, m: &super::Matchup, seed: u64, n: u32) -> (f64, f64) {
    let mut rng = stream(seed, 0);
    let mut dice = RngRoller::new(&mut rng);
    let (mut a, mut b) = (0u32, 0u32);
    for _ in 0..n {
        match r.duel(m, &mut dice).winner {
            Winner::A => a += 1,
            Winner::B => b += 1,
            Winner::Draw => {}
        }
    }
    let (pa, pb) = (f64::from(a) / f64::from(n), f64::from(b) / f64::from(n));
    let d = pa - pb;
    (d, ((pa + pb - d * d) / f64::from(n)).sqrt())
}

/// A side made of members (`(fighter, count)`), as a scenario's member list makes it.
fn side(r: &Cards, members: &[(&str, u32)]) -> super::Fighter {
    let made = members
        .iter()
        .map(|(f, n)| {
            r.compile("m", &r.side_spec(&spec(f), *n, None).unwrap())
                .unwrap()
        })
        .collect();
    r.join_side(made).unwrap()
}

/// Two identical sides (two swordsmen against two, and two against two mixed pairs) win as
/// often as each other: P(A wins) − P(B wins) within 4σ of 0.
#[test]
fn two_identical_sides_are_fair() {
    let r = Cards::new(CardsOptions::default()).unwrap();
    let sides: [&[(&str, u32)]; 2] = [
        &[("skill = 3\nweapon = \"sword\"", 2)],
        &[("skill = 3\nweapon = \"sword\"", 1), ("skill = 2\nweapon = \"spear\"", 1)],
    ];
    for (k, members) in sides.iter().enumerate() {
        let x = side(&r, members);
        let m = r.matchup(&x, &x).unwrap();
        assert!(m.group.is_some());
        let (d, se) = edge(&r, &m, 391 + k as u64, 20_000);
        assert!(d.abs() <= 4.0 * se, "case {k}: {d} ± {se}");
    }
}

/// A side written as one member of count 1 is the duel, bit for bit: the same fighter, the
/// same matchup (on the duel's fast path, no group), the same fights.
#[test]
fn a_one_against_one_group_is_the_duel() {
    let r = Cards::new(CardsOptions::default()).unwrap();
    let b = "skill = 3\nweapon = \"spear\"";
    let (fa, fb) = (r.compile("m", &spec(HERO)).unwrap(), r.compile("m", &spec(b)).unwrap());
    let (ga, gb) = (side(&r, &[(HERO, 1)]), side(&r, &[(b, 1)]));
    assert_eq!((&ga, &gb), (&fa, &fb));
    let (m, gm) = (r.matchup(&fa, &fb).unwrap(), r.matchup(&ga, &gb).unwrap());
    assert!(gm.group.is_none() && !gm.grouped);
    assert_eq!(m, gm);
    let mut r1 = stream(392, 0);
    let mut r2 = stream(392, 0);
    let (mut d1, mut d2) = (RngRoller::new(&mut r1), RngRoller::new(&mut r2));
    for _ in 0..2_000 {
        assert_eq!(r.duel(&m, &mut d1), r.duel(&gm, &mut d2));
    }
}

/// Mixed members: one strong and one weak fighter do better than two weak ones and worse than
/// two strong ones against the same pair (each more than 4σ apart); a side holds four at most,
/// refused at the member that brings it over.
#[test]
fn mixed_members_fall_between_their_pure_sides() {
    let r = Cards::new(CardsOptions::default()).unwrap();
    let strong = "skill = 4\nweapon = \"sword\"\ncombat_training = 2";
    let weak = "skill = 1\nweapon = \"dagger\"";
    let foes = side(&r, &[("skill = 2\nweapon = \"sword\"", 2)]);
    let p = |members: &[(&str, u32)], seed| {
        let m = r.matchup(&side(&r, members), &foes).unwrap();
        edge(&r, &m, seed, 10_000)
    };
    let (ss, sw, ww) = (p(&[(strong, 2)], 393), p(&[(strong, 1), (weak, 1)], 394), p(&[(weak, 2)], 395));
    assert!(ss.0 - sw.0 > 4.0 * (ss.1 + sw.1), "{ss:?} {sw:?}");
    assert!(sw.0 - ww.0 > 4.0 * (sw.1 + ww.1), "{sw:?} {ww:?}");
    let made = [(strong, 3), (weak, 2)]
        .iter()
        .map(|(f, n)| r.compile("m", &r.side_spec(&spec(f), *n, None).unwrap()).unwrap())
        .collect();
    let e = r.join_side(made).unwrap_err();
    assert_eq!(e.0, 1, "{e:?}");
    assert!(e.1.contains("at most 4"), "{e:?}");
}

/// Bands on both sides (two against three): no member ever holds the initiative over more
/// than one foe after a round, and some rounds leave a pairing to nobody.
#[test]
fn every_member_holds_the_initiative_over_at_most_one_foe() {
    let r = Cards::new(CardsOptions::default()).unwrap();
    let a = side(&r, &[("skill = 3\nweapon = \"sword\"\ncombat_training = 3", 2)]);
    let b = side(&r, &[("skill = 2\nweapon = \"spear\"", 3)]);
    let m = r.matchup(&a, &b).unwrap();
    let g = m.group.as_deref().unwrap();
    let mut rng = stream(396, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut nobody = 0;
    for _ in 0..300 {
        let mut s = r.start(&m);
        while r.step(&m, &mut s, &mut dice, &mut crate::NoTally) == Step::Continue {
            let up = |side: usize, k: usize| s.g.out[side] & (1 << k) == 0;
            for i in (0..2).filter(|&i| up(0, i)) {
                let held = (0..3).filter(|&j| up(1, j) && pinit(&s, i, j) == 0).count();
                assert!(held <= 1, "A's {i} holds {held}");
            }
            for j in (0..3).filter(|&j| up(1, j)) {
                let held = (0..2).filter(|&i| up(0, i) && pinit(&s, i, j) == 1).count();
                assert!(held <= 1, "B's {j} holds {held}");
            }
            nobody += (0..2)
                .flat_map(|i| (0..3).map(move |j| (i, j)))
                .filter(|&(i, j)| up(0, i) && up(1, j) && pinit(&s, i, j) == 2)
                .count();
        }
        let _ = g;
    }
    assert!(nobody > 0, "no pairing was ever left to nobody");
}

/// A yielded initiative goes to the foe, unless he holds it over another already: then to
/// nobody for the round. A's member 0 holds it over B's 0 (the weaker) and B's 1; B's 1 holds
/// it over A's 1: A's 0 keeps B's 0 and the pairing with B's 1 is left to nobody; with B's 1
/// free, it goes to him.
#[test]
fn a_yield_to_a_busy_foe_goes_to_nobody() {
    let r = Cards::new(CardsOptions::default()).unwrap();
    let x = side(&r, &[("skill = 3\nweapon = \"sword\"", 2)]);
    let m = r.matchup(&x, &x).unwrap();
    let g = m.group.as_deref().unwrap();
    for (busy, want) in [(true, 2), (false, 1)] {
        let mut s = r.start(&m);
        s.hp[1] = 1;
        s.init = 0;
        s.g.p[0][1].init = 0;
        s.g.p[1][0].init = 0;
        s.g.p[1][1].init = if busy { 1 } else { 0 };
        group::one_initiative(g, &mut s, group::NO_KEEP);
        assert_eq!((pinit(&s, 0, 0), pinit(&s, 0, 1)), (0, want), "busy {busy}");
    }
}

/// Per member (the shared group tallies, [`crate::group::fight`]): in a mixed side the weak
/// member (fewer hit points, so the foes' `weakest` target) goes down more often than the
/// strong one (4σ; with equal hit points the first listed draws the attacks); each side's members' damage dealt
/// and taken sum to the sides' damage in every fight; the loser's members are all down; the
/// fight is the duel's own, bit for bit.
#[test]
fn group_fights_report_per_member() {
    let r = Cards::new(CardsOptions::default()).unwrap();
    let strong = "skill = 4\nweapon = \"sword\"\ncombat_training = 2";
    let weak = "skill = 1\nweapon = \"dagger\"\nvitality = -3";
    let a = side(&r, &[(strong, 1), (weak, 1)]);
    let b = side(&r, &[("skill = 2\nweapon = \"sword\"", 2)]);
    let m = r.matchup(&a, &b).unwrap();
    let roster = r.roster(&m);
    assert_eq!(
        (roster.sides[0].members, roster.sides[0].creatures, roster.sides[1].members, roster.sides[1].creatures),
        (2, 2, 1, 2)
    );
    let n = 4_000u32;
    let mut rng = stream(397, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut same = stream(397, 0);
    let mut twin = RngRoller::new(&mut same);
    let mut down = [0u32; 2];
    for _ in 0..n {
        let (out, g) = crate::group::fight(&r, &m, &roster, &mut dice);
        assert_eq!(out, r.duel(&m, &mut twin));
        for sd in 0..2 {
            let ms = &g.sides[sd].members;
            assert_eq!(ms.iter().map(|x| x.dealt).sum::<u32>(), out.damage[sd]);
            assert_eq!(ms.iter().map(|x| x.taken).sum::<u32>(), out.damage[1 - sd]);
        }
        match out.winner {
            Winner::A => assert_eq!(g.sides[1].down, 2),
            Winner::B => assert_eq!(g.sides[0].down, 2),
            Winner::Draw => {}
        }
        down[0] += u32::from(g.sides[0].members[0].down);
        down[1] += u32::from(g.sides[0].members[1].down);
    }
    let (ps, pw) = (f64::from(down[0]) / f64::from(n), f64::from(down[1]) / f64::from(n));
    let se = ((ps * (1.0 - ps) + pw * (1.0 - pw)) / f64::from(n)).sqrt();
    assert!(pw - ps > 4.0 * se, "strong {ps}, weak {pw}");
}
