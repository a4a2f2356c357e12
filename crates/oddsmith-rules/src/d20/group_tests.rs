//! Group fights on the shared mechanism ([`crate::group`]): the targeting policies, the
//! canonical form of identical creatures, symmetry of identical sides.

use super::options::D20Options;
use super::spec::FighterSpec;
use super::*;
use crate::group::Target;
use crate::testing::{monte_carlo, pair, within_4_sigma};
use super::fighter::Fighter;

fn spec(text: &str) -> FighterSpec {
    toml::from_str(text).unwrap_or_else(|e| panic!("{e}"))
}

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} vs {b} (tol {tol})");
}

/// Digest §7.9 "F" (HP 11) and "G" (HP rolled).
const F: &str = "species = \"human\"\nclass = \"fighter\"\nlevel = 1\nstr = 16\ndex = 13\ncon = 14\nweapon = \"long sword\"\narmor = \"chain mail\"\nshield = \"medium shield\"\nhp = 11\n";
const G: &str = "species = \"goblin\"\nweapon = \"short sword\"\narmor = \"leather\"\nshield = \"small shield\"\n";

fn goblins(n: u32, extra: &str) -> FighterSpec {
    spec(&format!("{G}count = {n}\n{extra}"))
}

/// A Bug Bear with a morning star (`scenarios/d20/mixed-party.toml`'s chief), plus `extra`.
fn chief(extra: &str) -> FighterSpec {
    spec(&format!("species = \"bug bear\"\nweapon = \"morning star\"\n{extra}"))
}

fn fighter(target: &str) -> FighterSpec {
    // F with its target policy written out.
    spec(&format!("{F}target = \"{target}\"\n"))
}

fn no_fumbles() -> D20Options {
    D20Options {
        nat1_fumble: false,
        nat20_full_damage: false,
        ..Default::default()
    }
}

/// The digest's fighter-vs-two-goblins oracle (§7.9 (c)) through the shared targeting, with
/// the target policy written out.
#[test]
fn two_goblins_oracle_through_shared_targeting() {
    let f = fighter("lowest_hp");
    let gg = goblins(2, "hp = 4\n");
    // The digest's §7.9 oracle reads a creature's Defense as species Def + Dex + armour +
    // shield (G-12); the seed's «Sample Creatures» default keeps it as listed.
    let digest = D20Options {
        creature_defense: super::options::CreatureDefense::Modified,
        ..D20Options::default()
    };
    let (r, m) = pair::<D20>(digest, &f, &gg);
    assert_eq!(m.canonical, [false, true]);
    let x = r.exact(&m).unwrap();
    close(x.p_a_win, 0.935758, 1.5e-6);
    close(x.mean_rounds, 3.784816, 1.5e-6);
}

/// Identical creatures solve the same with and without the canonical form.
#[test]
fn canonical_form_changes_no_value() {
    for (o, a, b) in [
        (D20Options::default(), spec(F), goblins(2, "")),
        (no_fumbles(), goblins(2, "hp = 5\n"), goblins(2, "")),
    ] {
        let (r, m) = pair::<D20>(o, &a, &b);
        assert!(m.canonical.iter().any(|&c| c));
        let mut plain = m.clone();
        plain.canonical = [false; 2];
        let (x, y) = (r.exact(&m).unwrap(), r.exact(&plain).unwrap());
        // The solver drops live mass below `NEGLIGIBLE_MASS` (1e-15) per state, and the two
        // forms hold different numbers of states: equal up to that.
        close(x.p_a_win, y.p_a_win, 1e-10);
        close(x.p_b_win, y.p_b_win, 1e-10);
        close(x.mean_rounds, y.mean_rounds, 1e-9);
    }
}

/// Two casters with a bolt spell (MP and bonus differ between copies once one casts).
const CASTERS: &str = "species = \"human\"\nclass = \"50/50\"\nlevel = 1\nchr = 14\nweapon = \"dagger\"\nspells = [{ name = \"bolt\", damage = 4 }]\ncount = 2\n";
/// Two javelin throwers with two javelins each.
const THROWERS: &str = "weapon = \"javelin\"\nstr = 13\nhp = 12\nthrown_supply = 2\nmelee_weapon = \"dagger\"\ncount = 2\n";

/// Where the copies of a member can differ only in their HP ([`Matchup::hp_order`]), sorting
/// them by HP alone is their full canonical order: the same fights on the same dice, fight
/// for fight, and the same exact values; and whatever else can tell copies apart turns it off.
#[test]
fn sorting_copies_by_hp_alone_is_their_canonical_order() {
    let hero = spec(&F.replace("hp = 11\n", "count = 4\n"));
    let cases = [
        pair::<D20>(D20Options::default(), &hero, &goblins(6, "hp = 4\n")),
        pair::<D20>(D20Options::default(), &spec(F), &goblins(3, "")),
        mixed(
            D20Options::default(),
            &[spec(F), spec(&format!("{WEAK}count = 2\n"))],
            &[goblins(3, ""), chief("count = 2\n")],
        ),
    ];
    for (k, (r, m)) in cases.iter().enumerate() {
        assert!(m.hp_order.iter().zip(&m.canonical).any(|(&h, &c)| h && c), "case {k}");
        let mut full = m.clone();
        full.hp_order = [false; 2];
        let roster = r.roster(m);
        let (mut s1, mut s2) = (oddsmith_dice::stream(3, k as u64), oddsmith_dice::stream(3, k as u64));
        let (mut a, mut b) = (crate::RngRoller::new(&mut s1), crate::RngRoller::new(&mut s2));
        for trial in 0..3_000 {
            let x = crate::group::fight(r, m, &roster, &mut a);
            let y = crate::group::fight(r, &full, &roster, &mut b);
            assert_eq!(x, y, "case {k}, fight {trial}");
        }
        if k > 0 {
            assert_eq!(r.exact(m), r.exact(&full), "case {k}");
        }
    }
    // Each of these can make two copies differ in more than HP.
    let run = goblins(2, RUN);
    let off = [
        pair::<D20>(D20Options::default(), &spec(F), &run),
        pair::<D20>(D20Options::default(), &spec(F), &goblins(2, "regenerates = true\n")),
        pair::<D20>(D20Options::default(), &spec(&format!("{G}damage_type = \"nonlethal\"\n")), &goblins(2, "")),
        pair::<D20>(D20Options::default(), &spec(&format!("{G}damage_type = \"crippling\"\n")), &goblins(2, "")),
        pair::<D20>(D20Options::default(), &spec(F), &goblins(2, "target = \"most_wounded\"\n")),
        pair::<D20>(D20Options::default(), &spec(F), &spec(CASTERS)),
        pair::<D20>(D20Options::default(), &spec(F), &spec(THROWERS)),
    ];
    for (k, (_, m)) in off.iter().enumerate() {
        assert!(!m.hp_order[1], "case {k}: the goblins' side");
    }
}

/// Two identical sides: P(A wins) = P(B wins), exactly to 1e-12 and by Monte Carlo within 4σ
/// (fumbles off: a fumble downs its own side before the other side's simultaneous group
/// chooses targets, which is the seed's slot order, not a symmetry).
#[test]
fn identical_sides_are_symmetric() {
    let g = goblins(2, "hp = 5\n");
    let (r, m) = pair::<D20>(no_fumbles(), &g, &g);
    let x = r.exact(&m).unwrap();
    // Equal up to the mass the solver drops (below 1e-15 per state).
    close(x.p_a_win, x.p_b_win, 1e-11);
    let n = 20_000;
    let (p, _) = monte_carlo(&r, &m, n, 39);
    within_4_sigma(p, x.p_a_win, n);
}

/// Each policy the band can tell apart moves a goblin's chances (HP 12, so it lives long
/// enough to leave wounded foes) against two goblins of rolled HP; `random` is checked
/// against Monte Carlo (its die is read by both).
#[test]
fn each_policy_moves_the_fight() {
    let gg = goblins(2, "");
    let solve = |t: &str| {
        let one = spec(&format!("{G}hp = 12\ntarget = \"{t}\"\n"));
        let (r, m) = pair::<D20>(D20Options::default(), &one, &gg);
        (r.exact(&m).unwrap().p_a_win, r, m)
    };
    let (base, ..) = solve("lowest_hp");
    for t in ["highest_hp", "most_wounded", "random", "first"] {
        let (p, r, m) = solve(t);
        assert!((p - base).abs() > 1e-6, "{t}: {p} vs lowest_hp {base}");
        if t == "first" {
            // Places matter to `first`: the goblins are not reordered.
            assert_eq!(m.canonical, [false, false]);
        }
        if t == "random" {
            let n = 20_000;
            within_4_sigma(monte_carlo(&r, &m, n, 5).0, p, n);
        }
    }
    // Identical goblins have the same danger and Defense: ties go to the lowest HP.
    for t in ["most_dangerous", "easiest_to_hit"] {
        close(solve(t).0, base, 1e-15);
    }
    // Finishing the weakest first is the better default here.
    assert!(base > solve("highest_hp").0);
    assert_eq!(Target::default(), Target::LowestHp);
}

/// A lone creature on each side: nothing to pick or sort, the duel as before.
#[test]
fn a_lone_pair_is_not_canonicalised() {
    let (_, m) = pair::<D20>(D20Options::default(), &spec(F), &spec(G));
    assert_eq!(m.canonical, [false, false]);
}

/// A 1-vs-1 group fight is the duel, bit for bit: the same outcomes on the same dice.
#[test]
fn a_one_against_one_group_fight_is_the_duel() {
    use crate::group::{Roster, fight};
    let (r, m) = pair::<D20>(D20Options::default(), &spec(F), &spec(G));
    let roster = r.roster(&m);
    assert_eq!(roster, Roster::duel());
    let mut s1 = oddsmith_dice::stream(7, 0);
    let mut s2 = oddsmith_dice::stream(7, 0);
    let (mut r1, mut r2) = (
        crate::RngRoller::new(&mut s1),
        crate::RngRoller::new(&mut s2),
    );
    for _ in 0..2_000 {
        let d = r.duel(&m, &mut r1);
        let (g, go) = fight(&r, &m, &roster, &mut r2);
        assert_eq!(d, g);
        // The lone members carry the sides' figures.
        let loser = match d.winner {
            crate::Winner::A => Some(1),
            crate::Winner::B => Some(0),
            crate::Winner::Draw => None,
        };
        for side in 0..2 {
            let mo = go.sides[side].members[0];
            assert_eq!(mo.dealt, d.damage[side]);
            assert_eq!(mo.taken, d.damage[1 - side]);
            if Some(side) == loser {
                assert_eq!(mo.down, 1);
                assert_eq!(mo.rounds, d.rounds);
            }
        }
    }
}

/// Per-member P(down) and the how-many-down distribution: Monte Carlo within 4σ of the
/// exact values (the fighter against two goblins), and the tallies add up.
#[test]
fn per_member_down_matches_the_exact_values() {
    use crate::group::{exact, fight};
    let (r, m) = pair::<D20>(D20Options::default(), &spec(F), &goblins(2, ""));
    let roster = r.roster(&m);
    assert_eq!(roster.sides[1].creatures, 2);
    let x = exact(&r, &m, &roster).unwrap();
    let duel = r.exact(&m).unwrap();
    // All goblins down ⇔ A wins (nobody flees by default).
    close(x.sides[1].down[2], duel.p_a_win, 1e-9);
    close(x.sides[0].down[1], duel.p_b_win, 1e-9);
    let n = 20_000u32;
    let mut rng = oddsmith_dice::stream(39, 0);
    let mut roller = crate::RngRoller::new(&mut rng);
    let (mut gob_down, mut f_down, mut one_down) = (0u32, 0u32, 0u32);
    for _ in 0..n {
        let (d, g) = fight(&r, &m, &roster, &mut roller);
        let b = g.sides[1];
        assert_eq!(b.down, b.members[0].down);
        assert!(b.members[0].dead <= b.members[0].down);
        // Members' damage sums to their side's.
        assert_eq!(d.damage[0], g.sides[0].members[0].dealt);
        assert_eq!(d.damage[1], b.members[0].dealt);
        assert_eq!(d.damage[0], b.members[0].taken);
        gob_down += u32::from(b.members[0].down);
        f_down += u32::from(g.sides[0].members[0].down);
        one_down += u32::from(b.down == 1);
    }
    // P(a given goblin is down): the mean over the two copies, whose variance per fight is
    // at most one copy's, so σ over n fights bounds it.
    within_4_sigma(f64::from(gob_down) / f64::from(2 * n), x.sides[1].members[0].0, n);
    within_4_sigma(f64::from(f_down) / f64::from(n), x.sides[0].members[0].0, n);
    within_4_sigma(f64::from(one_down) / f64::from(n), x.sides[1].down[1], n);
}

/// Two identical sides: every per-member exact figure is the same on both, to 1e-12.
#[test]
fn identical_sides_have_the_same_member_figures() {
    let g = goblins(2, "hp = 5\n");
    let (r, m) = pair::<D20>(no_fumbles(), &g, &g);
    let x = crate::group::exact(&r, &m, &r.roster(&m)).unwrap();
    for k in 0..=2 {
        close(x.sides[0].down[k], x.sides[1].down[k], 1e-12);
        close(x.sides[0].dead[k], x.sides[1].dead[k], 1e-12);
    }
    close(x.sides[0].members[0].0, x.sides[1].members[0].0, 1e-12);
}

/// A side made of `members` (each spec with its own `count`), as `D20::join_side` makes it.
fn side(r: &D20, members: &[FighterSpec]) -> Fighter {
    let made = members
        .iter()
        .map(|s| r.compile("member", s).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    r.join_side(made).unwrap_or_else(|(j, e)| panic!("member {j}: {e}"))
}

/// A matchup of two sides of mixed members.
fn mixed(o: D20Options, a: &[FighterSpec], b: &[FighterSpec]) -> (D20, Matchup) {
    let r = D20::new(o).unwrap();
    let m = r.matchup(&side(&r, a), &side(&r, b)).unwrap();
    (r, m)
}

/// A weak human with a dagger and no armour, HP 3.
const WEAK: &str = "species = \"human\"\nweapon = \"dagger\"\nhp = 3\n";

/// Monte Carlo group fights on stream 0 of `seed`: per side and member, the copies down in
/// all, and side A's wins.
fn down_counts(r: &D20, m: &Matchup, n: u32, seed: u64) -> ([[u32; 8]; 2], u32) {
    let roster = r.roster(m);
    let mut rng = oddsmith_dice::stream(seed, 0);
    let mut roller = crate::RngRoller::new(&mut rng);
    let (mut down, mut wins) = ([[0u32; 8]; 2], 0u32);
    for _ in 0..n {
        let (d, g) = crate::group::fight(r, m, &roster, &mut roller);
        for side in 0..2 {
            for j in 0..8 {
                down[side][j] += u32::from(g.sides[side].members[j].down);
            }
        }
        wins += u32::from(d.winner == crate::Winner::A);
    }
    (down, wins)
}

/// A fighter and a weak human against two goblins: each member reads its own statistics
/// (the weak one goes down far more often), the roster is per member, and each member's
/// P(down) by Monte Carlo lies within 4σ of the exact value.
#[test]
fn mixed_members_have_their_own_figures() {
    let (r, m) = mixed(
        D20Options::default(),
        &[spec(F), spec(WEAK)],
        &[goblins(2, "hp = 4\n")],
    );
    assert!(m.mixed);
    assert_eq!(m.n, [2, 2]);
    assert_eq!(m.fighter(0, 1).hp.fixed, Some(3));
    assert_eq!(m.fighter(0, 0).hp.fixed, Some(11));
    let roster = r.roster(&m);
    assert_eq!(roster.sides[0], crate::group::SideRoster::of(&[1, 1]));
    assert_eq!(roster.sides[1], crate::group::SideRoster::band(2));
    let x = crate::group::exact(&r, &m, &roster).unwrap();
    let duel = r.exact(&m).unwrap();
    close(x.sides[1].down[2], duel.p_a_win, 1e-9);
    let (p_f, p_weak) = (x.sides[0].members[0].0, x.sides[0].members[1].0);
    assert!(p_weak > p_f + 0.1, "weak {p_weak} vs fighter {p_f}");
    let n = 20_000;
    let (down, wins) = down_counts(&r, &m, n, 41);
    let frac = |k: u32, copies: u32| f64::from(k) / f64::from(copies * n);
    within_4_sigma(frac(down[0][0], 1), p_f, n);
    within_4_sigma(frac(down[0][1], 1), p_weak, n);
    within_4_sigma(frac(down[1][0], 2), x.sides[1].members[0].0, n);
    within_4_sigma(f64::from(wins) / f64::from(n), duel.p_a_win, n);
}

/// A side of two members that are in fact identical is the band of two, bit for bit: the
/// same exact value as the band read without the canonical form (and as the band, up to the
/// mass the solver drops), and the same Monte Carlo fights on the same dice.
#[test]
fn identical_members_are_the_band() {
    let g1 = goblins(1, "hp = 5\n");
    let (r, m) = mixed(D20Options::default(), &[spec(F)], &[g1.clone(), g1.clone()]);
    assert!(m.mixed);
    assert_eq!(m.canonical, [false, false]);
    let (_, band) = pair::<D20>(D20Options::default(), &spec(F), &goblins(2, "hp = 5\n"));
    assert_eq!(band.canonical, [false, true]);
    let mut plain = band.clone();
    plain.canonical = [false; 2];
    let (x, y, z) = (
        r.exact(&m).unwrap(),
        r.exact(&plain).unwrap(),
        r.exact(&band).unwrap(),
    );
    close(x.p_a_win, y.p_a_win, 1e-12);
    close(x.p_b_win, y.p_b_win, 1e-12);
    close(x.mean_rounds, y.mean_rounds, 1e-12);
    close(x.p_a_win, z.p_a_win, 1e-10);
    let mut s1 = oddsmith_dice::stream(3, 0);
    let mut s2 = oddsmith_dice::stream(3, 0);
    let (mut r1, mut r2) = (
        crate::RngRoller::new(&mut s1),
        crate::RngRoller::new(&mut s2),
    );
    for _ in 0..5_000 {
        assert_eq!(r.duel(&m, &mut r1), r.duel(&plain, &mut r2));
    }
}

/// «Order of Combat §2»: creatures act by their own speed across both sides. Side A is two
/// humans (HP 1, a long sword) against a goblin (HP 1, speed 6): unarmoured (speed 12) a
/// human strikes before the goblin, in plate (speed 4) after it, so each fast member raises
/// P(A wins); the speed groups are the creatures' own.
#[test]
fn mixed_members_act_by_their_own_speed() {
    let fast = spec("species = \"human\"\nweapon = \"long sword\"\nhp = 1\n");
    let slow = spec("species = \"human\"\nweapon = \"long sword\"\narmor = \"plate mail\"\nhp = 1\n");
    let gob = spec(&format!("{G}hp = 1\n"));
    let p = |a: &[FighterSpec]| {
        let (r, m) = mixed(D20Options::default(), a, std::slice::from_ref(&gob));
        (r.exact(&m).unwrap().p_a_win, r, m)
    };
    let (ff, ..) = p(&[fast.clone(), fast.clone()]);
    let (fs, r, m) = p(&[fast.clone(), slow.clone()]);
    let (ss, ..) = p(&[slow.clone(), slow.clone()]);
    assert!(m.fighter(0, 0).speed > m.fighter(1, 0).speed);
    assert!(m.fighter(0, 1).speed < m.fighter(1, 0).speed);
    // Fast human, then the goblin, then the slow human.
    assert_eq!((m.group[0][0], m.group[1][0], m.group[0][1]), (0, 1, 2));
    assert!(ff > fs + 1e-3 && fs > ss + 1e-3, "{ff} {fs} {ss}");
    let n = 20_000;
    within_4_sigma(monte_carlo(&r, &m, n, 17).0, fs, n);
}

/// The canonical form sorts only the copies of one member: a side of two goblins and a weak
/// human solves the same with and without it.
#[test]
fn canonical_form_with_mixed_members_changes_no_value() {
    let (r, m) = mixed(
        no_fumbles(),
        &[spec(F)],
        &[goblins(2, "hp = 4\n"), spec(WEAK)],
    );
    assert_eq!(m.canonical, [false, true]);
    let mut plain = m.clone();
    plain.canonical = [false; 2];
    let (x, y) = (r.exact(&m).unwrap(), r.exact(&plain).unwrap());
    close(x.p_a_win, y.p_a_win, 1e-10);
    close(x.p_b_win, y.p_b_win, 1e-10);
    close(x.mean_rounds, y.mean_rounds, 1e-9);
}

/// A side holds up to eight creatures in all: eight are accepted (and fight), a ninth is
/// refused at the member that brings it, and so is a count of nine.
#[test]
fn sides_of_eight_are_accepted_and_nine_refused() {
    let r = D20::new(D20Options::default()).unwrap();
    let c = |s: &FighterSpec| r.compile("m", s).unwrap();
    let eight = r
        .join_side(vec![c(&goblins(4, "")), c(&goblins(3, "")), c(&spec(WEAK))])
        .unwrap();
    let err = r
        .join_side(vec![c(&goblins(4, "")), c(&goblins(4, "")), c(&spec(WEAK))])
        .unwrap_err();
    assert_eq!(err.0, 2);
    assert!(err.1.contains("at most 8"), "{}", err.1);
    assert!(r.side_spec(&spec(G), 9, None).is_err());
    let s8 = r.side_spec(&spec(G), 8, None).unwrap();
    let band8 = c(&s8);
    let m = r.matchup(&eight, &band8).unwrap();
    assert_eq!(m.n, [8, 8]);
    let (down, _) = down_counts(&r, &m, 200, 1);
    assert!(down[1][0] > 0);
    // The fighter's own `count` field takes eight too, and refuses nine.
    let band = c(&goblins(8, ""));
    assert_eq!(r.matchup(&c(&spec(F)), &band).unwrap().n, [1, 8]);
    let nine = toml::from_str::<FighterSpec>(&format!("{G}count = 9\n")).unwrap_err();
    assert!(nine.to_string().contains("from 1 to 8"), "{nine}");
}

/// Two identical mixed sides (a goblin and a weak human each): P(A wins) = P(B wins), and
/// each member's figures are the same on both sides (fumbles off, as for identical bands).
#[test]
fn identical_mixed_sides_are_symmetric() {
    let s = [goblins(1, "hp = 5\n"), spec(WEAK)];
    let (r, m) = mixed(no_fumbles(), &s, &s);
    let x = r.exact(&m).unwrap();
    close(x.p_a_win, x.p_b_win, 1e-12);
    let g = crate::group::exact(&r, &m, &r.roster(&m)).unwrap();
    for j in 0..2 {
        close(g.sides[0].members[j].0, g.sides[1].members[j].0, 1e-12);
    }
}

/// The state's size: 112 bytes with four creatures a side, 212 with eight (equality and
/// hashing read only the creatures in use, `State::n`).
#[test]
fn state_size() {
    assert_eq!(std::mem::size_of::<super::duel::State>(), 212);
}

/// The mixed party of `scenarios/d20/mixed-party.toml` with its HP fixed (the Fighter F at 11,
/// the 50/50 caster at 5), without or with a bolt of `bolt` HP units.
fn small_party(bolt: Option<u32>) -> [FighterSpec; 2] {
    let caster = "species = \"human\"\nclass = \"50/50\"\nlevel = 1\nstr = 12\ndex = 12\nchr = 14\nweapon = \"dagger\"\narmor = \"leather\"\nhp = 5\n";
    let spells = bolt.map_or(String::new(), |d| {
        format!("spells = [{{ name = \"bolt\", damage = {d} }}]\n")
    });
    [spec(F), spec(&format!("{caster}{spells}"))]
}

/// A genuinely small mixed case solves exactly: the Fighter and a different member (the
/// caster, without spells, with the scenario's bolt of 2, which its dagger beats against a
/// goblin so it is never cast, and with a bolt of 4, which it casts) against one goblin of
/// HP 4 (about 4,300 transition lists, some 7,000 live states at most). Against a goblin of
/// HP 12, which lasts long enough to down a member, each member's exact P(down) and P(A wins)
/// lie within 4σ of Monte Carlo.
#[test]
fn a_small_mixed_party_solves_exactly() {
    let gob = goblins(1, "hp = 4\n");
    let solve = |bolt| {
        let (r, m) = mixed(D20Options::default(), &small_party(bolt), std::slice::from_ref(&gob));
        assert!(m.mixed);
        assert_eq!(m.n, [2, 1]);
        let x = r.exact(&m).unwrap_or_else(|| panic!("bolt {bolt:?}: no exact value"));
        (x.p_a_win, m.n_order[0][1])
    };
    let (plain, _) = solve(None);
    let (bolt2, cast2) = solve(Some(2));
    let (bolt4, cast4) = solve(Some(4));
    assert_eq!((cast2, cast4), (0, 1));
    close(bolt2, plain, 0.0);
    assert!((bolt4 - plain).abs() > 1e-6, "{bolt4} vs {plain}");

    let (r, m) = mixed(
        D20Options::default(),
        &small_party(Some(4)),
        &[goblins(1, "hp = 12\n")],
    );
    let x = crate::group::exact(&r, &m, &r.roster(&m)).unwrap();
    let duel = r.exact(&m).unwrap();
    close(x.sides[1].down[1], duel.p_a_win, 1e-9);
    let (p_f, p_c) = (x.sides[0].members[0].0, x.sides[0].members[1].0);
    assert!(p_c > 0.01 && p_f > 0.001, "fighter {p_f}, caster {p_c}");
    let n = 20_000;
    let (down, wins) = down_counts(&r, &m, n, 43);
    let frac = |k: u32| f64::from(k) / f64::from(n);
    within_4_sigma(frac(down[0][0]), p_f, n);
    within_4_sigma(frac(down[0][1]), p_c, n);
    within_4_sigma(frac(down[1][0]), x.sides[1].members[0].0, n);
    within_4_sigma(frac(wins), duel.p_a_win, n);
}

/// A retreat policy, a full-HP fraction (1.0): the creature retreats in round 1.
const RUN: &str = "retreat = \"at_hp_fraction\"\nretreat_hp_fraction = 1.0\n";

/// Runs group fights, returning per fight the outcome and the group figures.
fn fights(r: &D20, m: &Matchup, n: u32, seed: u64) -> Vec<(crate::DuelOutcome, crate::group::GroupOutcome)> {
    let roster = r.roster(m);
    let mut rng = oddsmith_dice::stream(seed, 0);
    let mut roller = crate::RngRoller::new(&mut rng);
    (0..n).map(|_| crate::group::fight(r, m, &roster, &mut roller)).collect()
}

/// The engine's loop plays every fight into one tally ([`crate::group::fight_in`]): each
/// fight's figures are its own (the tally is emptied first), fight for fight the same as
/// [`crate::group::fight`]'s on the same dice, with members downed, damage and rounds.
#[test]
fn one_tally_kept_across_fights_gives_each_fight_its_own_figures() {
    let (r, m) = mixed(
        D20Options::default(),
        &[spec("class = \"fighter\"\nlevel = 3\nweapon = \"long sword\"\narmor = \"chain\"\n"), spec(WEAK)],
        &[goblins(3, "")],
    );
    let want = fights(&r, &m, 300, 21);
    let roster = r.roster(&m);
    let mut rng = oddsmith_dice::stream(21, 0);
    let mut roller = crate::RngRoller::new(&mut rng);
    let mut t = crate::group::GroupTally::new(&roster);
    let mut downs = 0;
    for (k, (d, g)) in want.iter().enumerate() {
        crate::group::fight_in(&r, &m, &mut roller, &mut t);
        assert_eq!(t.outcome(), (d, g), "fight {k}");
        downs += u32::from(g.sides[0].down + g.sides[1].down);
    }
    assert!(downs > 300, "the fights down someone: {downs}");
}

/// G-24 in a group: a band of fast retreaters (unarmoured humans, Mv 12) all escape from
/// slower goblins (Mv 6) before anyone strikes: side B holds the field every time, by a
/// yield, and nobody is down (an escaped creature left the field alive).
#[test]
fn a_band_of_fast_retreaters_escapes_whole() {
    let runners = spec(&format!("species = \"human\"\nweapon = \"dagger\"\ncount = 2\n{RUN}"));
    let (r, m) = pair::<D20>(D20Options::default(), &runners, &goblins(3, ""));
    assert_eq!(m.n, [2, 3]);
    for (d, g) in fights(&r, &m, 500, 3) {
        assert_eq!((d.winner, d.ending), (crate::Winner::B, crate::Ending::Yield));
        assert_eq!(d.rounds, 1);
        assert_eq!(d.damage, [0, 0]);
        assert_eq!((g.sides[0].down, g.sides[1].down), (0, 0));
    }
    let x = r.exact(&m).unwrap();
    close(x.p_b_win, 1.0, 1e-12);
}

/// A pursuer catches one retreater a round: two slow goblins (HP 1000) flee a fast human;
/// the first is caught (and fights on, never to retreat again), the second, the human being
/// busy with the first, escapes. From round 2 it is the human against the caught goblin.
#[test]
fn a_pursuer_catches_one_retreater_a_round() {
    let gg = spec(&format!("{G}hp = 1000\ncount = 2\n{RUN}"));
    let man = spec("species = \"human\"\nweapon = \"long sword\"\nhp = 1000\n");
    let (r, m) = pair::<D20>(D20Options::default(), &man, &gg);
    let mut rng = oddsmith_dice::stream(5, 0);
    let mut roller = crate::RngRoller::new(&mut rng);
    let mut s = r.start(&m);
    while s.round < 2 {
        assert!(matches!(r.step(&m, &mut s, &mut roller, &mut duel::NoTally), crate::solver::Step::Continue));
    }
    let flags: Vec<u8> = s.m[1][..2].iter().map(|c| c.flags).collect();
    assert!(flags.contains(&duel::CAUGHT) && flags.contains(&duel::GONE), "{flags:?}");
    let gone = s.m[1].iter().position(|c| c.flags == duel::GONE).unwrap();
    assert_eq!(s.m[1][gone].hp, 0);
    assert_eq!(r.fate(&m, &s, 1, gone), Some(crate::group::Fate::default()));
    // Round 2 onwards the caught goblin does not retreat again: no fight ends in a yield,
    // and the escaped goblin is never down.
    let gg = spec(&format!("{G}hp = 30\ncount = 2\n{RUN}"));
    let man = spec("species = \"human\"\nweapon = \"long sword\"\nhp = 30\n");
    let (r, m) = pair::<D20>(D20Options::default(), &man, &gg);
    for (d, g) in fights(&r, &m, 500, 5) {
        assert_ne!(d.ending, crate::Ending::Yield, "{d:?}");
        assert!(g.sides[1].down <= 1);
    }
}

/// A member who flees leaves the rest of its side to fight on: a fast weak human that
/// retreats at once beside the fighter changes nothing for side A (it is gone before any
/// goblin acts), so P(A wins) is the fighter's alone against the goblins, exactly; a
/// goblin band that flees at half HP from a slower party escapes (no pursuit), so A wins
/// more often than all goblins go down, and Monte Carlo agrees with the exact figures.
#[test]
fn a_member_who_flees_leaves_the_rest_fighting() {
    let weak_runner = spec(&format!("{WEAK}{RUN}"));
    let gg = goblins(2, "hp = 4\n");
    let (r, m) = mixed(D20Options::default(), &[spec(F), weak_runner], std::slice::from_ref(&gg));
    let (_, alone) = pair::<D20>(D20Options::default(), &spec(F), &gg);
    let (x, y) = (r.exact(&m).unwrap(), r.exact(&alone).unwrap());
    close(x.p_a_win, y.p_a_win, 1e-10);
    close(x.p_b_win, y.p_b_win, 1e-10);
    let g = crate::group::exact(&r, &m, &r.roster(&m)).unwrap();
    // The runner is never down; the fighter is down when B wins (or in a draw).
    close(g.sides[0].members[1].0, 0.0, 1e-12);
    let f_down = g.sides[0].members[0].0;
    assert!(f_down >= x.p_b_win - 1e-9 && f_down <= x.p_b_win + x.p_draw + 1e-9, "{f_down}");

    let half = "retreat = \"at_hp_fraction\"\nretreat_hp_fraction = 0.5\n";
    let o = D20Options {
        pursuit_rule: super::options::PursuitRule::None,
        ..D20Options::default()
    };
    let (r, m) = pair::<D20>(o, &spec(F), &goblins(2, half));
    let x = r.exact(&m).unwrap();
    let g = crate::group::exact(&r, &m, &r.roster(&m)).unwrap();
    assert!(x.p_a_win > g.sides[1].down[2] + 0.01, "{} vs {}", x.p_a_win, g.sides[1].down[2]);
    let n = 20_000u32;
    let out = fights(&r, &m, n, 11);
    let wins = out.iter().filter(|(d, _)| d.winner == crate::Winner::A).count();
    let yields = out.iter().filter(|(d, _)| d.ending == crate::Ending::Yield).count();
    let all_down = out.iter().filter(|(_, g)| g.sides[1].down == 2).count();
    let frac = |k: usize| k as f64 / f64::from(n);
    within_4_sigma(frac(wins), x.p_a_win, n);
    within_4_sigma(frac(all_down), g.sides[1].down[2], n);
    assert!(yields > 0);
}

/// A copy's "rounds stood" is the round it went down in, also when the blow comes in the
/// last group of a round (the step that also opens the next round): a weak human beside a
/// sturdy fighter, struck down by slower goblins, against the round read step by step on
/// the same dice.
#[test]
fn rounds_stood_is_the_round_of_the_fall() {
    let weak = spec("species = \"human\"\nweapon = \"dagger\"\nhp = 1\n");
    let tough = spec(&F.replace("hp = 11", "hp = 1000"));
    let (r, m) = mixed(
        D20Options::default(),
        &[weak, tough],
        &[goblins(2, "hp = 1000\n")],
    );
    let roster = r.roster(&m);
    let mut checked = 0;
    for seed in 0..300u64 {
        // Step by step: the round the weak human's fall happened in (the round before the step).
        let mut rng = oddsmith_dice::stream(seed, 0);
        let mut roller = crate::RngRoller::new(&mut rng);
        let mut s = r.start(&m);
        let mut fell = None;
        loop {
            let before = s.round;
            let st = r.step(&m, &mut s, &mut roller, &mut duel::NoTally);
            if fell.is_none() && s.round > 0 && !duel::able(&s.m[0][0]) {
                fell = Some(before.max(1));
            }
            if matches!(st, crate::solver::Step::Over(..)) {
                break;
            }
        }
        let mut rng = oddsmith_dice::stream(seed, 0);
        let mut roller = crate::RngRoller::new(&mut rng);
        let (d, g) = crate::group::fight(&r, &m, &roster, &mut roller);
        let mo = g.sides[0].members[0];
        match fell {
            Some(k) => {
                assert_eq!((mo.down, mo.rounds), (1, k), "seed {seed}");
                checked += u32::from(k < d.rounds);
            }
            None => assert_eq!((mo.down, mo.rounds), (0, d.rounds)),
        }
    }
    // Falls before the last round, where the old reading dated them a round late.
    assert!(checked > 50, "{checked}");
}

/// A caught retreater pursues nobody else that round: a human in chain mail (speed 7) who
/// flees is caught by a fast human (12); the goblin (6) fleeing him later in the round then
/// escapes, where a free pursuer of speed 7 would have caught it.
#[test]
fn a_caught_retreater_pursues_nobody_that_round() {
    let x = spec(&F.replace("hp = 11", &format!("hp = 1000\n{RUN}")));
    let fast = spec("species = \"human\"\nweapon = \"long sword\"\nhp = 1000\n");
    let runner = spec(&format!("{G}hp = 1000\n{RUN}"));
    let (r, m) = mixed(no_fumbles(), &[x], &[fast, runner]);
    assert!(m.fighter(1, 0).speed > m.fighter(0, 0).speed);
    assert!(m.fighter(0, 0).speed > m.fighter(1, 1).speed);
    for seed in 0..20 {
        let mut rng = oddsmith_dice::stream(seed, 0);
        let mut roller = crate::RngRoller::new(&mut rng);
        let mut s = r.start(&m);
        while s.round < 2 {
            r.step(&m, &mut s, &mut roller, &mut duel::NoTally);
        }
        assert_eq!((s.m[0][0].flags, s.m[1][1].flags), (duel::CAUGHT, duel::GONE));
    }
}

/// Under a Monte Carlo roller `step` runs on to the end of the round in one call
/// ([`crate::Roller::SAMPLES`]); stepping one step a call ([`crate::testing::Stepwise`]) on
/// the same stream gives every fight the same outcome and the same per-member figures, for a
/// duel and for mixed sides with ranged openings, charges, retreat and pursuit.
#[test]
fn running_on_through_a_round_gives_the_same_fights() {
    use crate::testing::Stepwise;
    let ranged = D20Options {
        start: super::options::Start::Range,
        start_distance: 90,
        ..D20Options::default()
    };
    let archer = spec("species = \"human\"\nclass = \"fighter\"\nlevel = 2\nweapon = \"short bow\"\nmelee_weapon = \"short sword\"\n");
    let runner = goblins(3, "retreat = \"at_hp_fraction\"\nretreat_hp_fraction = 0.5\n");
    let cases = [
        pair::<D20>(D20Options::default(), &spec(F), &spec(G)),
        pair::<D20>(D20Options::default(), &fighter("lowest_hp"), &runner),
        mixed(ranged.clone(), &[spec(F), archer.clone()], &[runner.clone(), spec(G)]),
        mixed(ranged, &[archer, fighter("random")], &[goblins(4, "")]),
        // Engaged throughout with every action fixed (`Matchup::fixed`): a band, and mixed
        // sides with speed groups across both.
        pair::<D20>(D20Options::default(), &spec(&format!("{F}count = 2\n")), &goblins(4, "")),
        mixed(
            D20Options::default(),
            &[spec(F), spec(WEAK)],
            &[goblins(3, ""), chief("")],
        ),
        // Engaged throughout: every round is plain (`duel::plain_round`), with spells cast,
        // speed groups across both sides, B's group first at equal speeds, and policies
        // that draw dice or read danger.
        mixed(
            D20Options {
                equal_speed: super::options::EqualSpeed::ResolveFirst,
                ..D20Options::default()
            },
            &small_party(Some(4)).map(|mut f| {
                f.hp = None;
                f
            }),
            &[
                goblins(3, "target = \"random\"\n"),
                chief("armor = \"hide\"\ntarget = \"most_dangerous\"\n"),
            ],
        ),
    ];
    // Which cases take the fixed groups once engaged: the duel, the archers' second case
    // (after the ranged rounds) and the two engaged cases.
    let fixed: Vec<bool> = cases.iter().map(|(_, m)| m.fixed.n > 0).collect();
    assert_eq!(fixed, [true, false, false, true, true, true, false]);
    for (k, (r, m)) in cases.iter().enumerate() {
        let roster = r.roster(m);
        let (mut s1, mut s2) = (oddsmith_dice::stream(11, k as u64), oddsmith_dice::stream(11, k as u64));
        let (mut fast, mut slow) = (crate::RngRoller::new(&mut s1), crate::RngRoller::new(&mut s2));
        let mut slow = Stepwise(&mut slow);
        for trial in 0..2_000 {
            let a = crate::group::fight(r, m, &roster, &mut fast);
            let b = crate::group::fight(r, m, &roster, &mut slow);
            assert_eq!(a, b, "case {k}, fight {trial}");
            assert_eq!(r.duel(m, &mut fast), r.duel(m, &mut slow), "case {k}, duel {trial}");
        }
    }
}
