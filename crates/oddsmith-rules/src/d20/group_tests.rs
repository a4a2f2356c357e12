//! Group fights on the shared mechanism ([`crate::group`]): the targeting policies, the
//! canonical form of identical creatures, symmetry of identical sides.

use super::options::D20Options;
use super::spec::FighterSpec;
use super::*;
use crate::group::Target;
use crate::testing::{monte_carlo, pair, within_4_sigma};

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
    // P(a given goblin is down) over 2n goblins.
    within_4_sigma(f64::from(gob_down) / f64::from(2 * n), x.sides[1].members[0].0, 2 * n);
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
