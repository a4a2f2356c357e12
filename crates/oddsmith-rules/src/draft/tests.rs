//! Oracles of digest §7 and worked examples of §7.12.

use std::collections::BTreeMap;

use oddsmith_dice::{Dist, stream};

use super::duel::{self, FState, State, Tally};
use super::fighter::{self, Level};
use super::options::*;
use super::reference::*;
use super::spec::*;
use super::tables::{self, ArmourKind};
use super::*;
use crate::Side;
use crate::roller::enumerate;
use crate::testing::within_4_sigma;
use crate::{CheckParams, RngRoller, Ruleset, Winner};

fn fighter(skill: i32, weapon: &str, str_: i32, con: i32, armour: &str) -> FighterSpec {
    FighterSpec {
        skill,
        weapon: WeaponSpec {
            stats: tables::weapon(weapon).unwrap(),
            builtin: true,
        },
        shield: ShieldKind::None,
        shield_skill: 0,
        dodge: 0,
        armour: ArmourSpec::Named(ArmourKind::from_name(armour).unwrap()),
        str: str_,
        con,
        policy: Policy::Balanced,
        adaptive_threshold: 3,
        defence: DefenceChoice::BestLegal,
        unfamiliar_weapon: false,
        situation: vec![],
        attack_modifier: 0,
        defence_modifier: 0,
        missile: None,
        missile_skill: 0,
        aim: Aim::Auto,
        missile_in_melee: MeleeMissile::Auto,
        charge: false,
    }
}

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} vs {b} (tol {tol})");
}

// §7.1, §7.2: the check table, all 99 cells.
#[test]
fn check_table_all_cells() {
    let d = Draft::new(DraftOptions::default()).unwrap();
    for skill in 0..=10 {
        for (name, tn) in check::DIFFICULTIES {
            let p = CheckParams::parse([
                format!("skill={skill}").as_str(),
                &format!("difficulty={}", name.replace(' ', "_")),
            ])
            .unwrap();
            let c = d.parse_check(&p).unwrap();
            let e = d.check_exact(&c);
            let expect = ((11 - tn + skill) as f64 / 10.0).clamp(0.0, 1.0);
            close(e.p_success(), expect, 1e-12);
            let (num, den) = e.distribution.ratio_at_least(tn);
            assert_eq!(num as f64 / den as f64, e.p_success());
        }
    }
    let d10 = Dist::die(10);
    close(d10.mean(), 5.5, 1e-12);
    close(d10.variance(), 8.25, 1e-12);
    assert_eq!(d10.ratio(7), (1, 10));
}

// §7.3 quality bands at Normal.
#[test]
fn quality_bands() {
    let d = Draft::new(DraftOptions::default()).unwrap();
    for (skill, expect) in [
        (3, [0.2, 0.4, 0.4, 0.0]),
        (5, [0.0, 0.4, 0.5, 0.1]),
        (8, [0.0, 0.1, 0.5, 0.4]),
    ] {
        let c = d
            .parse_check(&CheckParams::parse([format!("skill={skill}").as_str()]).unwrap())
            .unwrap();
        let got = d.check_exact(&c).band_probabilities();
        for (g, e) in got.iter().zip(expect) {
            close(*g, e, 1e-12);
        }
    }
}

// §7.4: the opposed table for every Δ.
#[test]
fn opposed_table() {
    #[rustfmt::skip]
    let rows: [(i64, f64, f64, f64); 19] = [
        (-9, 0.0, 0.01, 0.0), (-8, 0.01, 0.02, 0.01), (-7, 0.03, 0.03, 0.04), (-6, 0.06, 0.04, 0.10),
        (-5, 0.10, 0.05, 0.20), (-4, 0.15, 0.06, 0.35), (-3, 0.21, 0.07, 0.56), (-2, 0.28, 0.08, 0.84),
        (-1, 0.36, 0.09, 1.20), (0, 0.45, 0.10, 1.65), (1, 0.55, 0.09, 2.20), (2, 0.64, 0.08, 2.84),
        (3, 0.72, 0.07, 3.56), (4, 0.79, 0.06, 4.35), (5, 0.85, 0.05, 5.20), (6, 0.90, 0.04, 6.10),
        (7, 0.94, 0.03, 7.04), (8, 0.97, 0.02, 8.01), (9, 0.99, 0.01, 9.00),
    ];
    let d = Draft::new(DraftOptions::default()).unwrap();
    for (delta, p_hit, p_tie, e_plus) in rows {
        let c = d
            .parse_check(
                &CheckParams::parse([format!("attack={delta}").as_str(), "defence=0"]).unwrap(),
            )
            .unwrap();
        let e = d.check_exact(&c);
        close(e.p_success(), p_hit, 1e-12);
        close(e.distribution.p(0), p_tie, 1e-12);
        let plus: f64 = e
            .distribution
            .iter()
            .filter(|&(m, _)| m > 0)
            .map(|(m, _)| m as f64 * e.distribution.p(m))
            .sum();
        close(plus, e_plus, 1e-12);
        if p_hit > 0.0 {
            close(plus / p_hit, e_plus / p_hit, 1e-9);
        }
    }
    // E[margin | hit] at Δ = +2 is 71/16; margin at Δ = 0 is (10 − m)/100.
    let c = d
        .parse_check(&CheckParams::parse(["attack=2", "defence=0"]).unwrap())
        .unwrap();
    let e = d.check_exact(&c);
    let cond: f64 = (1..=11)
        .map(|m| m as f64 * e.distribution.p(m))
        .sum::<f64>()
        / e.p_success();
    close(cond, 71.0 / 16.0, 1e-12);
    let c0 = d.check_exact(
        &d.parse_check(&CheckParams::parse(["attack=0", "defence=0"]).unwrap())
            .unwrap(),
    );
    for m in 1..=9 {
        assert_eq!(c0.distribution.ratio(m), reduce(10 - m as u128, 100));
    }
    // Composites: Defensive Position 7/25, charge 11/20, lone defender 44/125.
    let p = |a: i64, dfn: i64| {
        d.check_exact(
            &d.parse_check(
                &CheckParams::parse([format!("attack={a}").as_str(), &format!("defence={dfn}")])
                    .unwrap(),
            )
            .unwrap(),
        )
        .p_success()
    };
    close(p(6, 8), 7.0 / 25.0, 1e-12);
    close(p(7, 6), 11.0 / 20.0, 1e-12);
    close((1.0 - p(5, 6)) * (1.0 - p(5, 5)), 44.0 / 125.0, 1e-12);
}

fn reduce(n: u128, d: u128) -> (u128, u128) {
    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let g = gcd(n, d);
    (n / g, d / g)
}

// §7.5: wound bands by CON, exact and half_up.
#[test]
fn wound_bands() {
    let o = DraftOptions::default();
    let half = DraftOptions {
        light_wound_rounding: Rounding::HalfUp,
        ..DraftOptions::default()
    };
    // (CON, light range, severe range, critical range, death from, half_up light max)
    #[rustfmt::skip]
    let rows = [
        (1, None, None, Some((2, 2)), 3, None),
        (2, None, Some((2, 2)), Some((3, 4)), 5, None),
        (3, None, Some((2, 3)), Some((4, 6)), 7, Some(2)),
        (4, Some((2, 2)), Some((3, 4)), Some((5, 8)), 9, Some(2)),
        (5, Some((2, 2)), Some((3, 5)), Some((6, 10)), 11, Some(3)),
        (6, Some((2, 3)), Some((4, 6)), Some((7, 12)), 13, Some(3)),
        (7, Some((2, 3)), Some((4, 7)), Some((8, 14)), 15, Some(4)),
        (8, Some((2, 4)), Some((5, 8)), Some((9, 16)), 17, Some(4)),
        (9, Some((2, 4)), Some((5, 9)), Some((10, 18)), 19, Some(5)),
        (10, Some((2, 5)), Some((6, 10)), Some((11, 20)), 21, Some(5)),
    ];
    let within = |r: Option<(i32, i32)>, d: i32| r.is_some_and(|(lo, hi)| (lo..=hi).contains(&d));
    for (con, light, severe, critical, death, half_light) in rows {
        for dmg in -3..=30 {
            let expect = if dmg <= 1 {
                Level::None
            } else if within(light, dmg) {
                Level::Light
            } else if within(severe, dmg) {
                Level::Severe
            } else if within(critical, dmg) {
                Level::Critical
            } else {
                assert!(dmg >= death, "CON {con} dmg {dmg}");
                Level::Death
            };
            assert_eq!(
                fighter::wound_level(&o, dmg, con),
                expect,
                "CON {con} dmg {dmg}"
            );
            let hl = fighter::wound_level(&half, dmg, con);
            if dmg >= 2 && half_light.is_some_and(|m| dmg <= m) {
                assert_eq!(hl, Level::Light, "half_up CON {con} dmg {dmg}");
            } else {
                assert_ne!(hl, Level::Light, "half_up CON {con} dmg {dmg}");
            }
        }
    }
}

/// Records the damage of the one attack a step makes (`Some` if it hit).
#[derive(Default)]
struct Last(Option<Option<i32>>);
impl Tally for Last {
    fn attack(&mut self, _: usize, hit: bool, damage: i32) {
        self.0 = Some(hit.then_some(damage));
    }
}

/// Exact distribution of one attack by `att` on `dfn`: outcome name → P, and damage → P.
fn single_attack(
    o: DraftOptions,
    att: FighterSpec,
    dfn: FighterSpec,
) -> (BTreeMap<&'static str, f64>, BTreeMap<i32, f64>) {
    let (d, m) = crate::testing::pair::<Draft>(o, &att, &dfn);
    let mut s = State::start();
    s.round = 1;
    s.ev = 0;
    s.first = 0;
    s.f = [
        FState {
            planned: 1,
            ..FState::default()
        },
        FState::default(),
    ];
    step_outcomes(&d, &m, s)
}

/// Exact distribution of the one attack (or shot) the next step from `s` makes: outcome name
/// → P, and damage → P.
fn step_outcomes(
    d: &Draft,
    m: &Matchup,
    s: State,
) -> (BTreeMap<&'static str, f64>, BTreeMap<i32, f64>) {
    let (mut outcomes, mut damage) = (BTreeMap::new(), BTreeMap::new());
    enumerate(
        |r| {
            let mut s2 = s;
            let mut t = Last::default();
            duel::step(m, d.options(), &mut s2, r, &mut t);
            let hit = t.0.unwrap();
            // The level of the blow, as the duel reads it from the defender's wound table.
            let level = hit.map_or(Level::None, |dmg| {
                m.f[1].wound_of[(dmg as usize).min(fighter::WOUND_TABLE_LEN - 1)]
            });
            (hit, level)
        },
        |(hit, level), p| {
            let name = match (hit, level) {
                (None, _) => "miss",
                (Some(_), Level::None) => "scratch",
                (_, Level::Light) => "light",
                (_, Level::Severe) => "severe",
                (_, Level::Critical) => "critical",
                (_, Level::Death) => "death",
            };
            *outcomes.entry(name).or_insert(0.0) += p;
            *damage.entry(hit.unwrap_or(0)).or_insert(0.0) += p;
        },
    );
    (outcomes, damage)
}

fn check_outcomes(got: &BTreeMap<&str, f64>, expect: &[(&str, f64)]) {
    for (name, p) in expect {
        close(got.get(name).copied().unwrap_or(0.0), *p, 1e-12);
    }
    close(got.values().sum(), 1.0, 1e-12);
}

fn mean_damage(d: &BTreeMap<i32, f64>) -> f64 {
    d.iter().map(|(&k, &p)| f64::from(k) * p).sum()
}

// §7.6: single-attack outcome distributions.
#[test]
fn single_attacks() {
    let m1a = fighter(6, "long sword", 7, 5, "none");
    let m1d = fighter(6, "long sword", 5, 6, "leather");
    let (o, dmg) = single_attack(digest_loop(|_| {}), m1a.clone(), m1d.clone());
    check_outcomes(
        &o,
        &[
            ("miss", 0.55),
            ("severe", 0.17),
            ("critical", 0.27),
            ("death", 0.01),
        ],
    );
    close(mean_damage(&dmg), 3.45, 1e-12);
    for (k, p) in [
        (0, 0.55),
        (5, 0.09),
        (6, 0.08),
        (7, 0.07),
        (8, 0.06),
        (9, 0.05),
        (10, 0.04),
        (11, 0.03),
        (12, 0.02),
        (13, 0.01),
    ] {
        close(dmg[&k], p, 1e-12);
    }
    let impact = DraftOptions {
        damage_term: DamageTerm::Impact,
        ..digest_loop(|_| {})
    };
    let (o, dmg) = single_attack(impact, m1a, m1d);
    check_outcomes(
        &o,
        &[
            ("miss", 0.55),
            ("light", 0.17),
            ("severe", 0.18),
            ("critical", 0.10),
        ],
    );
    close(mean_damage(&dmg), 2.1, 1e-12);

    let m2a = fighter(5, "dagger", 5, 5, "none");
    let mut m2d = fighter(0, "dagger", 5, 5, "chain");
    m2d.dodge = 4;
    m2d.defence = DefenceChoice::Dodge;
    let (o, dmg) = single_attack(digest_loop(|_| {}), m2a.clone(), m2d.clone());
    check_outcomes(
        &o,
        &[
            ("miss", 0.36),
            ("scratch", 0.09),
            ("light", 0.10),
            ("severe", 0.24),
            ("critical", 0.20),
            ("death", 0.01),
        ],
    );
    close(mean_damage(&dmg), 2.84, 1e-12);
    let half = DraftOptions {
        light_wound_rounding: Rounding::HalfUp,
        ..digest_loop(|_| {})
    };
    let (o, _) = single_attack(half, m2a, m2d);
    check_outcomes(
        &o,
        &[
            ("miss", 0.36),
            ("scratch", 0.09),
            ("light", 0.19),
            ("severe", 0.15),
            ("critical", 0.20),
            ("death", 0.01),
        ],
    );

    let m3a = fighter(7, "two handed sword", 9, 5, "none");
    let mut m3d = fighter(0, "long sword", 5, 7, "chain");
    m3d.shield = ShieldKind::Large;
    m3d.shield_skill = 5;
    let (o, dmg) = single_attack(digest_loop(|_| {}), m3a, m3d);
    check_outcomes(
        &o,
        &[
            ("miss", 0.45),
            ("severe", 0.10),
            ("critical", 0.42),
            ("death", 0.03),
        ],
    );
    close(mean_damage(&dmg), 5.5, 1e-12);
    for (k, p) in [(7, 0.10), (8, 0.09), (12, 0.05), (16, 0.01)] {
        close(dmg[&k], p, 1e-12);
    }

    let m4a = fighter(4, "mace", 6, 5, "none");
    let mut m4d = fighter(0, "dagger", 5, 5, "none");
    m4d.defence = DefenceChoice::None;
    let (o, dmg) = single_attack(digest_loop(|_| {}), m4a, m4d);
    check_outcomes(
        &o,
        &[
            ("miss", 0.10),
            ("severe", 0.10),
            ("critical", 0.50),
            ("death", 0.30),
        ],
    );
    close(mean_damage(&dmg), 8.1, 1e-12);
}

fn exact_duel(o: DraftOptions, a: FighterSpec, b: FighterSpec) -> crate::ExactDuel {
    let d = Draft::new(o).unwrap();
    let m = d
        .matchup(&d.compile("a", &a).unwrap(), &d.compile("b", &b).unwrap())
        .unwrap();
    d.exact(&m).unwrap()
}

fn d1() -> FighterSpec {
    fighter(6, "long sword", 6, 6, "leather")
}
fn d2() -> (FighterSpec, FighterSpec) {
    (
        fighter(7, "short sword", 8, 7, "chain"),
        fighter(5, "mace", 9, 5, "leather"),
    )
}
fn d3() -> FighterSpec {
    fighter(5, "dagger", 5, 9, "chain")
}
fn opts(f: impl FnOnce(&mut DraftOptions)) -> DraftOptions {
    let mut o = DraftOptions::default();
    f(&mut o);
    o
}

/// The options that reproduce the digest's §6 duel loop (its oracles' setting), then `f`:
/// skill before weapon length (`striking_order = "skill_first"`) and defences that never pay
/// for a changed plan (`changing_mind = "free"`); the potent-fighter shift is off by default.
fn digest_loop(f: impl FnOnce(&mut DraftOptions)) -> DraftOptions {
    opts(|o| {
        o.striking_order = StrikingOrder::SkillFirst;
        o.changing_mind = ChangingMind::Free;
        f(o);
    })
}

// §7.7: reference duels, exact.
#[test]
fn reference_duels_exact() {
    let a_first = digest_loop(|o| o.first_strike_tie = FirstStrikeTie::A);
    let e = exact_duel(a_first.clone(), d1(), d1());
    close(e.p_a_win, 6633967780.0 / 10918456277.0, 1e-12);
    close(e.mean_rounds, 241920276680.0 / 98266106493.0, 1e-10);
    assert!(e.truncated < 1e-14 && e.p_draw < 1e-14);
    let e = exact_duel(digest_loop(|_| {}), d1(), d1());
    close(e.p_a_win, 0.5, 1e-12);
    close(e.mean_rounds, 2.464240, 5e-7);
    let e = exact_duel(
        digest_loop(|o| {
            o.first_strike_tie = FirstStrikeTie::A;
            o.damage_term = DamageTerm::Impact;
        }),
        d1(),
        d1(),
    );
    close(e.p_a_win, 0.571085, 5e-7);
    close(e.mean_rounds, 5.291437, 5e-7);
    let e = exact_duel(digest_loop(|o| o.damage_term = DamageTerm::Impact), d1(), d1());
    close(e.p_a_win, 0.5, 1e-12);
    close(e.mean_rounds, 5.299610, 5e-7);

    // D2: the digest's loop lets the higher skill strike first (`striking_order =
    // "skill_first"`); under the seed's order the mace is longer and strikes first.
    let sf = digest_loop(|_| {});
    let (a, b) = d2();
    let e = exact_duel(sf.clone(), a.clone(), b.clone());
    close(
        e.p_a_win,
        84266157245970107755.0 / 104165881945148691712.0,
        1e-12,
    );
    close(e.mean_rounds, 2.496793, 5e-7);
    // "random each round" for D2 means the coin decides even though skills differ: model it by
    // equal sheet skills plus modifiers that restore the real totals.
    let (mut ra, mut rb) = d2();
    ra.skill = 6;
    ra.attack_modifier = 1;
    ra.defence_modifier = 1;
    rb.skill = 6;
    rb.attack_modifier = -1;
    rb.defence_modifier = -1;
    let e = exact_duel(sf.clone(), ra, rb);
    close(e.p_a_win, 0.721623, 5e-7);
    close(e.mean_rounds, 2.545852, 5e-7);
    let e = exact_duel(
        DraftOptions {
            light_wound_rounding: Rounding::HalfUp,
            ..sf
        },
        a,
        b,
    );
    close(e.p_a_win, 0.806686, 5e-7);
    close(e.mean_rounds, 2.615503, 5e-7);

    let e = exact_duel(a_first.clone(), d3(), d3());
    close(e.p_a_win, 0.566634, 5e-7);
    close(e.mean_rounds, 7.980305, 5e-7);
    let e = exact_duel(digest_loop(|_| {}), d3(), d3());
    close(e.p_a_win, 0.5, 1e-12);
    close(e.mean_rounds, 7.996203, 5e-7);
    let e = exact_duel(
        digest_loop(|o| {
            o.first_strike_tie = FirstStrikeTie::A;
            o.light_wound_rounding = Rounding::HalfUp;
        }),
        d3(),
        d3(),
    );
    close(e.p_a_win, 0.564970, 5e-7);
    close(e.mean_rounds, 8.760582, 5e-7);
}

/// Monte Carlo P(A wins) and mean rounds over `n` duels at `seed`.
fn monte_carlo(o: DraftOptions, a: FighterSpec, b: FighterSpec, n: u32, seed: u64) -> (f64, f64) {
    let (d, m) = crate::testing::pair::<Draft>(o, &a, &b);
    crate::testing::monte_carlo(&d, &m, n, seed)
}

/// The exact solution of a duel, checked: total probability 1, and P(A wins) within 4σ of a
/// Monte Carlo of 100,000 duels at `seed`.
fn exact_checked_by_monte_carlo(
    o: DraftOptions,
    a: FighterSpec,
    b: FighterSpec,
    seed: u64,
) -> crate::ExactDuel {
    let e = exact_duel(o.clone(), a.clone(), b.clone());
    close(e.p_a_win + e.p_b_win + e.p_draw + e.truncated, 1.0, 1e-9);
    let n = 100_000;
    let (p, _) = monte_carlo(o, a, b, n, seed);
    within_4_sigma(p, e.p_a_win, n);
    e
}

// §7.7: reference duels, Monte Carlo within 4σ of the exact values at a fixed seed.
#[test]
fn reference_duels_monte_carlo() {
    let n = 200_000;
    let a_first = digest_loop(|o| o.first_strike_tie = FirstStrikeTie::A);
    let (p, r) = monte_carlo(a_first.clone(), d1(), d1(), n, 7);
    within_4_sigma(p, 6633967780.0 / 10918456277.0, n);
    close(r, 2.461889, 0.02);
    let (p, _) = monte_carlo(digest_loop(|_| {}), d1(), d1(), n, 8);
    within_4_sigma(p, 0.5, n);
    let (a, b) = d2();
    let sf = digest_loop(|_| {});
    let (p, _) = monte_carlo(sf, a, b, n, 9);
    within_4_sigma(p, 0.808961, n);
    let (p, r) = monte_carlo(a_first, d3(), d3(), n, 10);
    within_4_sigma(p, 0.566634, n);
    close(r, 7.980305, 0.1);
}

// The exact solver and the Monte Carlo agree on configurations with no oracle: every policy,
// shields, dodges, death mode, overflow reset, knockback, exhaustion and simultaneous blows.
#[test]
fn exact_matches_monte_carlo_across_options() {
    let mut knight = fighter(6, "long sword", 7, 6, "chain");
    knight.shield = ShieldKind::Small;
    knight.shield_skill = 5;
    knight.policy = Policy::Aggressive;
    let mut brute = fighter(5, "two handed sword", 8, 7, "leather");
    brute.dodge = 3;
    brute.policy = Policy::Adaptive;
    let cases: Vec<(DraftOptions, FighterSpec, FighterSpec)> = vec![
        (DraftOptions::default(), knight.clone(), brute.clone()),
        (
            opts(|o| {
                o.end_condition = EndCondition::Death;
                o.wound_overflow = Overflow::Reset;
                o.severe_knockback = Knockback::Penalty;
            }),
            knight.clone(),
            brute.clone(),
        ),
        (
            opts(|o| {
                o.first_strike_tie = FirstStrikeTie::Simultaneous;
                o.exhaustion = true;
            }),
            FighterSpec {
                policy: Policy::AllOut,
                ..d3()
            },
            FighterSpec {
                policy: Policy::Defensive,
                ..d3()
            },
        ),
        (
            opts(|o| o.end_condition = EndCondition::FirstSevere),
            FighterSpec {
                policy: Policy::Aggressive,
                ..d1()
            },
            d1(),
        ),
    ];
    for (i, (o, a, b)) in cases.into_iter().enumerate() {
        exact_checked_by_monte_carlo(o, a, b, 100 + i as u64);
    }
}

#[test]
fn simultaneous_blows_can_both_land() {
    // All-out daggers with no defence: under simultaneous blows both may go down at once.
    let f = FighterSpec {
        policy: Policy::AllOut,
        ..fighter(5, "long sword", 9, 1, "none")
    };
    let o = opts(|o| o.first_strike_tie = FirstStrikeTie::Simultaneous);
    let e = exact_duel(o, f.clone(), f);
    assert!(e.p_draw > 0.1, "p_draw {}", e.p_draw);
    close(e.p_a_win, e.p_b_win, 1e-12);
}

#[test]
fn wound_stacking_keep_and_reset() {
    let o = DraftOptions::default();
    let mut f = FState::default();
    for _ in 0..3 {
        duel::add_wound(&o, &mut f, Level::Light);
    }
    assert_eq!((f.light, f.severe), (3, 0));
    duel::add_wound(&o, &mut f, Level::Light); // 4th Light becomes Severe
    assert_eq!((f.light, f.severe), (3, 1));
    duel::add_wound(&o, &mut f, Level::Severe);
    duel::add_wound(&o, &mut f, Level::Light); // cascades into a Critical
    assert_eq!((f.severe, f.critical), (2, 1));
    duel::add_wound(&o, &mut f, Level::Critical);
    assert!(f.dead);
    let r = opts(|o| o.wound_overflow = Overflow::Reset);
    let mut g = FState {
        light: 3,
        ..FState::default()
    };
    duel::add_wound(&r, &mut g, Level::Light);
    assert_eq!((g.light, g.severe), (0, 1));
}

#[test]
fn striking_order_and_parry_rules() {
    let o = DraftOptions::default();
    let d = Draft::new(o.clone()).unwrap();
    let c = |s: FighterSpec| d.compile("x", &s).unwrap();
    // Rapier (1) before claymore (3): wide weight gap.
    let rapier = c(fighter(3, "rapier", 5, 5, "none"));
    let claymore = c(fighter(8, "claymore", 5, 5, "none"));
    assert_eq!(
        fighter::first_striker(&o, &rapier, &claymore),
        Some(Side::A)
    );
    // Longer weapon first when lengths are given.
    let mut spear = fighter(4, "mace", 5, 5, "none");
    spear.weapon.stats.length = Some(4);
    let mut sword = fighter(6, "long sword", 5, 5, "none");
    sword.weapon.stats.length = Some(3);
    assert_eq!(
        fighter::first_striker(&o, &c(sword), &c(spear)),
        Some(Side::B)
    );
    // Short sword (1) cannot parry a two-handed sword (3); a long sword (2) can.
    let short = c(fighter(6, "short sword", 5, 5, "none"));
    let long = c(fighter(6, "long sword", 5, 5, "none"));
    assert_eq!(
        fighter::choose_defence(&o, &short, &claymore).0,
        fighter::Defence::Dodge
    );
    assert_eq!(
        fighter::choose_defence(&o, &long, &claymore).0,
        fighter::Defence::Weapon
    );
    // A flail cannot parry; a shield cannot take a giant's club (impact 4).
    let flail = c(fighter(6, "flail", 5, 5, "none"));
    assert_eq!(
        fighter::choose_defence(&o, &flail, &long).0,
        fighter::Defence::Dodge
    );
    let mut sh = fighter(2, "long sword", 5, 5, "none");
    sh.shield = ShieldKind::Large;
    sh.shield_skill = 4;
    let sh = c(sh);
    assert_eq!(
        fighter::choose_defence(&o, &sh, &long),
        (fighter::Defence::Shield, 6)
    );
    let giant = c(fighter(6, "giant's club", 5, 5, "none"));
    assert_eq!(
        fighter::choose_defence(&o, &sh, &giant).0,
        fighter::Defence::Dodge
    );
    // Shields need a one-handed weapon.
    let mut bad = fighter(6, "two handed sword", 5, 5, "none");
    bad.shield = ShieldKind::Small;
    assert!(
        matches!(d.compile("x", &bad), Err(RulesError::InvalidField { field, .. }) if field == "shield")
    );
}

#[test]
fn third_action_penalty_applies() {
    // An aggressive attacker's second attack is its 3rd action when it parried in between.
    // Against a fighter who never defends (passive defence 5), a −50 penalty means that
    // attack never hits, so A wins less often than with the normal −1.
    let a = FighterSpec {
        policy: Policy::Aggressive,
        ..d1()
    };
    let b = FighterSpec {
        defence: DefenceChoice::None,
        ..d1()
    };
    let harsh = opts(|o| {
        o.extra_action_modifier = -50;
        o.first_strike_tie = FirstStrikeTie::A;
    });
    let normal = opts(|o| o.first_strike_tie = FirstStrikeTie::A);
    let e_harsh = exact_duel(harsh, a.clone(), b.clone());
    let e = exact_duel(normal, a, b);
    assert!(
        e.p_a_win > e_harsh.p_a_win + 0.002,
        "{} vs {}",
        e.p_a_win,
        e_harsh.p_a_win
    );
    assert!(
        e.mean_rounds < e_harsh.mean_rounds - 0.1,
        "{} vs {}",
        e.mean_rounds,
        e_harsh.mean_rounds
    );
}

#[test]
fn dagger_against_heavy_armour_times_out() {
    let a = fighter(5, "dagger", 5, 5, "none");
    let mut b = FighterSpec {
        policy: Policy::Defensive,
        ..fighter(5, "dagger", 5, 5, "none")
    };
    b.armour = ArmourSpec::Custom(crate::draft::spec::CustomArmour {
        name: "custom armour".into(),
        protection: 16,
        movement: 0,
    });
    let o = opts(|o| o.max_rounds = 20);
    let e = exact_duel(o.clone(), a.clone(), b.clone());
    close(e.p_draw, 1.0, 1e-12);
    let d = Draft::new(o).unwrap();
    let m = d
        .matchup(&d.compile("a", &a).unwrap(), &d.compile("b", &b).unwrap())
        .unwrap();
    let mut rng = stream(1, 0);
    let out = d.duel(&m, &mut RngRoller::new(&mut rng));
    assert_eq!(
        (out.winner, out.ending, out.rounds),
        (Winner::Draw, crate::Ending::RoundCap, 20)
    );
}

// §7.8: costs.
#[test]
fn cost_oracles() {
    for v in 1..=8 {
        assert_eq!(attribute_cost(v, Some((8, 2))), v);
    }
    assert_eq!(attribute_cost(9, Some((8, 2))), 10);
    assert_eq!(attribute_cost(10, Some((8, 2))), 12);
    let build = [5, 8, 6, 5, 7, 4, 5, 8, 5];
    assert_eq!(build_cost(&build, None), 53);
    assert_eq!(build_cost(&build, Some((8, 2))), 53);
    for ((s, c), st) in [
        ((8, 7), 8),
        ((5, 6), 6),
        ((5, 5), 5),
        ((1, 2), 2),
        ((10, 9), 10),
    ] {
        assert_eq!(stamina(s, c), st);
    }
    #[rustfmt::skip]
    let table: [[u32; 10]; 10] = [
        [1, 3, 6, 10, 15, 21, 28, 36, 45, 55], [1, 2, 4, 7, 11, 16, 22, 29, 37, 46],
        [1, 2, 3, 5, 8, 12, 17, 23, 30, 38], [1, 2, 3, 4, 6, 9, 13, 18, 24, 31],
        [1, 2, 3, 4, 5, 7, 10, 14, 19, 25], [1, 2, 3, 4, 5, 6, 8, 11, 15, 20],
        [1, 2, 3, 4, 5, 6, 7, 9, 12, 16], [1, 2, 3, 4, 5, 6, 7, 8, 10, 13],
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 11], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    ];
    for (a, row) in table.iter().enumerate() {
        for (n, &cost) in row.iter().enumerate() {
            let (a, n) = (a as u32 + 1, n as u32 + 1);
            assert_eq!(skill_cost(0, n, a, SkillClass::Normal), cost, "A {a} n {n}");
            assert_eq!(skill_cost(0, n, a, SkillClass::Hard), 2 * cost);
            assert_eq!(skill_cost(0, n, a, SkillClass::VeryHard), 3 * cost);
            assert_eq!(skill_cost(0, n, a, SkillClass::ExtremelyHard), 4 * cost);
        }
    }
    for (a, n, cost) in [
        (5, 5, 1),
        (5, 6, 3),
        (5, 7, 6),
        (5, 8, 10),
        (5, 10, 21),
        (7, 8, 3),
        (7, 10, 10),
    ] {
        assert_eq!(
            skill_cost(0, n, a, SkillClass::Easy),
            cost,
            "easy A {a} n {n}"
        );
    }
}

// §7.9: suffocation.
#[test]
fn suffocation_oracle() {
    let rows: [(i64, [f64; 5], f64); 5] = [
        (3, [0.4, 0.08, 0.0, 0.0, 0.0], 0.48),
        (5, [0.6, 0.24, 0.048, 0.0, 0.0], 0.888),
        (7, [0.8, 0.48, 0.192, 0.0384, 0.0], 1.5104),
        (8, [0.9, 0.63, 0.315, 0.0945, 0.00945], 1.94895),
        (10, [1.0, 0.9, 0.63, 0.315, 0.0945], 2.94895),
    ];
    for (con, expect, mean) in rows {
        let got = suffocation_survival(con, 12);
        for (g, e) in got.iter().zip(expect) {
            close(*g, e, 1e-12);
        }
        close(got.iter().sum::<f64>(), mean, 1e-12);
    }
}

// §7.10 exhaustion and §7.11 hit locations.
#[test]
fn exhaustion_and_hit_locations() {
    assert_eq!(exhaustion_rounds(5), (6, 11, 15));
    assert_eq!(exhaustion_rounds(6), (7, 13, 18));
    assert_eq!(exhaustion_rounds(1), (2, 3, 3));
    let p = |dir: &str, loc: &str| {
        (1..=10)
            .filter(|&f| hit_location(dir, f) == Some(loc))
            .count()
    };
    assert_eq!(
        (
            p("front", "left leg") + p("front", "right leg"),
            p("front", "torso"),
            p("front", "left arm"),
            p("front", "head")
        ),
        (4, 2, 1, 2)
    );
    assert_eq!(
        (
            p("left", "left leg"),
            p("left", "torso"),
            p("left", "left arm"),
            p("left", "right arm"),
            p("left", "right leg")
        ),
        (2, 2, 3, 1, 0)
    );
    assert_eq!(
        (
            p("right", "right leg"),
            p("right", "right arm"),
            p("right", "left leg")
        ),
        (2, 3, 0)
    );
    assert_eq!(
        (
            p("above", "left leg"),
            p("above", "torso"),
            p("above", "left arm"),
            p("above", "head")
        ),
        (1, 1, 2, 3)
    );
    assert_eq!(
        (
            p("below", "left leg"),
            p("below", "torso"),
            p("below", "left arm"),
            p("below", "head")
        ),
        (2, 3, 1, 1)
    );
}

// §7.12: the worked examples of the seed.
#[test]
fn worked_examples() {
    // 1. Character build: 53 of 55 points.
    assert_eq!(55 - build_cost(&[5, 8, 6, 5, 7, 4, 5, 8, 5], None), 2);
    // 2. Singing, CHA 7, Normal: 0→5 costs 5, 5→8 costs 4.
    assert_eq!(skill_cost(0, 5, 7, SkillClass::Normal), 5);
    assert_eq!(skill_cost(5, 8, 7, SkillClass::Normal), 4);
    // 3. Stamina 7.5 rounds to 8.
    assert_eq!(stamina(8, 7), 8);
    // 4. Difficulty: Extremely Hard = TN 16; 14 succeeds at Very Hard; 11 at Normal, not Hard.
    assert_eq!(check::difficulty_tn("extremely_hard"), Some(16));
    assert_eq!(check::difficulty_tn("Very Hard"), Some(14));
    assert!(
        11 >= check::difficulty_tn("normal").unwrap() && 11 < check::difficulty_tn("hard").unwrap()
    );
    // 5. Weapon damage: dagger 3, long sword 5, two-handed war hammer 6.
    let d = Draft::new(DraftOptions::default()).unwrap();
    for (w, dmg) in [
        ("dagger", 3),
        ("long sword", 5),
        ("two handed war hammer", 6),
    ] {
        assert_eq!(
            d.compile("x", &fighter(5, w, 5, 5, "none"))
                .unwrap()
                .weapon_damage,
            dmg
        );
    }
    // 6. Attribute surcharge: 8 → 8, 9 → 10, 10 → 12.
    assert_eq!(
        [8, 9, 10].map(|v| attribute_cost(v, Some((8, 2)))),
        [8, 10, 12]
    );
    // 7. Segments: move + attack fits; attack + turn + attack fits (3 actions); attack + move + attack does not.
    assert_eq!(fits_in_round(&["normal move", "melee attack"]), Some(true));
    assert_eq!(
        fits_in_round(&["melee attack", "turn", "melee attack"]),
        Some(true)
    );
    assert_eq!(
        fits_in_round(&["melee attack", "normal move", "melee attack"]),
        Some(false)
    );
    // 8. Archery: prepare 3 + fire 1 = 4 segments per arrow, 3 arrows per 4 rounds; gunslinger fires in segment 2.
    let per_arrow = action_segments("prepare bow").unwrap() + action_segments("fire").unwrap();
    assert_eq!((4 * 3) / per_arrow, 3);
    assert_eq!(
        action_segments("draw light weapon").unwrap() + action_segments("trigger gun").unwrap(),
        2
    );
    // 9. Target size: ratio 5 → +2, ratio 20 → +4.
    assert_eq!((size_modifier(5.0), size_modifier(20.0)), (2, 4));
    // 10. Conjuration: 5 + 2 + 8 = 15 and 8 + 6 + 3 = 17 (the demon-level penalty is an open question).
    let e = d.check_exact(
        &d.parse_check(&CheckParams::parse(["skill=5", "modifier=2", "tn=15"]).unwrap())
            .unwrap(),
    );
    assert_eq!(e.distribution.p(15), 0.1); // a roll of 8 gives exactly 15
    // 11. Magic exhaustion: 8 h Critical → Severe at 4 h, Light at 6 h, gone at 8 h.
    assert_eq!(
        [0.0, 3.9, 4.0, 5.9, 6.0, 7.9, 8.0].map(|t| temporary_level(3, 8.0, t)),
        [3, 3, 2, 2, 1, 1, 0]
    );
    // 12. Elemental Lore, Very Hard: 3 points per increment up to EMP.
    assert_eq!(skill_cost(2, 3, 5, SkillClass::VeryHard), 3);
    // 13. Healing, CON 6: Severe 8 days (Light after 2/3 if treated); Critical ≥ 15 days to Severe.
    assert_eq!(severe_healing_days(6), 8);
    assert_eq!(critical_to_severe_days(6), 15);
}

#[test]
fn option_docs_cover_every_option() {
    let v = toml::Value::try_from(DraftOptions::default()).unwrap();
    let keys: Vec<String> = v.as_table().unwrap().keys().cloned().collect();
    let docs: Vec<&str> = OPTION_DOCS.iter().map(|d| d.name).collect();
    for k in &keys {
        assert!(docs.contains(&k.as_str()), "option {k} has no doc");
    }
    assert_eq!(keys.len(), docs.len());
    // Every documented default parses back to the real default.
    for d in OPTION_DOCS {
        let parsed: DraftOptions = toml::from_str(&format!("{} = {}", d.name, d.default)).unwrap();
        assert_eq!(parsed, DraftOptions::default(), "doc default of {}", d.name);
    }
}

#[test]
fn fighter_docs_cover_every_field() {
    let mut f = fighter(5, "dagger", 5, 5, "none");
    f.missile = Some(WeaponSpec {
        stats: tables::weapon("long bow").unwrap(),
        builtin: true,
    });
    let v = toml::Value::try_from(f).unwrap();
    let keys: Vec<String> = v.as_table().unwrap().keys().cloned().collect();
    let docs: Vec<&str> = FighterSpec::DOCS.iter().map(|d| d.name).collect();
    for k in &keys {
        assert!(docs.contains(&k.as_str()), "fighter field {k} has no doc");
    }
    assert_eq!(keys.len(), docs.len());
}

#[test]
fn overflowing_light_wound_knocks_back() {
    let o = opts(|o| o.severe_knockback = Knockback::Penalty);
    let mut f = FState {
        light: 3,
        ..FState::default()
    };
    assert_eq!(duel::add_wound(&o, &mut f, Level::Light), Level::Severe);
    let mut g = FState {
        light: 1,
        ..FState::default()
    };
    assert_eq!(duel::add_wound(&o, &mut g, Level::Light), Level::Light);
}

#[test]
fn illegal_forced_defence_falls_back_to_best_legal() {
    let o = DraftOptions::default();
    let d = Draft::new(o.clone()).unwrap();
    let mut spec = fighter(6, "long sword", 5, 5, "none");
    spec.weapon.stats.impact = 3; // a heavy one-handed blade, so it may parry impact 4
    spec.shield = ShieldKind::Small;
    spec.shield_skill = 8;
    spec.defence = DefenceChoice::Shield;
    let f = d.compile("x", &spec).unwrap();
    let giant = d
        .compile("g", &fighter(6, "giant's club", 5, 5, "none"))
        .unwrap();
    let long = d
        .compile("l", &fighter(6, "long sword", 5, 5, "none"))
        .unwrap();
    assert_eq!(
        fighter::choose_defence(&o, &f, &long),
        (fighter::Defence::Shield, 9)
    );
    assert_eq!(
        fighter::choose_defence(&o, &f, &giant),
        (fighter::Defence::Weapon, 6)
    );
}

#[test]
fn exhaustion_collapse_under_death_mode_leaves_fighter_helpless() {
    // Two defensive fighters never attack; with exhaustion on, STR 1 / CON 1 (Stamina 1)
    // collapses in round 3. Under "incapacitated" that ends the duel as a draw by exhaustion;
    // under "death" both lie helpless and the duel runs to the round cap.
    let f = FighterSpec {
        policy: Policy::Defensive,
        ..fighter(5, "dagger", 1, 1, "none")
    };
    let e = exact_duel(opts(|o| o.exhaustion = true), f.clone(), f.clone());
    close(e.p_draw, 1.0, 1e-12);
    close(e.mean_rounds, 3.0, 1e-12);
    let e = exact_duel(
        opts(|o| {
            o.exhaustion = true;
            o.end_condition = EndCondition::Death;
            o.max_rounds = 10;
        }),
        f.clone(),
        f,
    );
    close(e.p_draw, 1.0, 1e-12);
    close(e.mean_rounds, 10.0, 1e-12);
}

// The shared exact solver: its hashed iteration equals the ordered-map reference bit for bit.
#[test]
fn shared_solver_matches_the_ordered_reference() {
    let cases = [
        (
            DraftOptions::default(),
            fighter(6, "long sword", 7, 5, "none"),
            fighter(6, "long sword", 5, 6, "leather"),
        ),
        (
            opts(|o| {
                o.max_rounds = 6;
                o.exhaustion = true;
            }),
            fighter(5, "dagger", 5, 4, "none"),
            fighter(4, "mace", 6, 5, "chain"),
        ),
    ];
    for (o, a, b) in cases {
        let (d, m) = crate::testing::pair::<Draft>(o, &a, &b);
        crate::solver::tests::check_modes(&d, &m);
    }
}

#[test]
fn nested_options_given_in_part_keep_their_documented_defaults() {
    let d = DraftOptions::default();
    let o: DraftOptions = toml::from_str("shield_bonus = { large = 1 }").unwrap();
    assert_eq!(o.shield_bonus, ShieldBonus { small: 1, large: 1 });
    assert_eq!(
        DraftOptions {
            shield_bonus: d.shield_bonus,
            ..o
        },
        d
    );
    let o: DraftOptions = toml::from_str("shield_max_parry_impact = { small = 2 }").unwrap();
    assert_eq!(
        o.shield_max_parry_impact,
        ShieldMaxParryImpact { small: 2, large: 3 }
    );
    let o: DraftOptions = toml::from_str("wound_penalties = { severe = -3 }").unwrap();
    assert_eq!(
        o.wound_penalties,
        WoundPenalties {
            light: -1,
            severe: -3,
            critical: -4
        }
    );
    let o: DraftOptions = toml::from_str("strength_bonus = { weak_bonus = -2 }").unwrap();
    assert_eq!(o.strength_bonus.table, vec![(9, 2), (7, 1)]);
    assert_eq!(o.strength_bonus.weak_bonus, -2);
    let o: DraftOptions = toml::from_str("wound_capacity = { light = 4 }").unwrap();
    assert_eq!((o.wound_capacity.light, o.wound_capacity.severe), (4, 2));
}

#[test]
fn option_bounds_are_checked_when_read_and_when_built_in_code() {
    for (text, msg) in [
        (
            "wound_penalties = { light = -51 }",
            "-51 is out of range: expected an integer from -50 to 50",
        ),
        (
            "strength_bonus = { table = [[9, 21]] }",
            "21 is out of range: expected integers from -20 to 20",
        ),
        (
            "wound_capacity = { critical = 21 }",
            "21 is out of range: expected an integer from 0 to 20",
        ),
        (
            "max_rounds = 0",
            "0 is out of range: expected an integer from 1 to 100000",
        ),
        (
            "wide_weight_gap = 11",
            "11 is out of range: expected an integer from 1 to 10",
        ),
    ] {
        let e = toml::from_str::<DraftOptions>(text)
            .unwrap_err()
            .to_string();
        assert!(e.contains(msg), "{text}: {e}");
    }
    let mut o = DraftOptions::default();
    o.shield_max_parry_impact.large = 11;
    assert_eq!(
        Draft::new(o).unwrap_err(),
        RulesError::field(
            "shield_max_parry_impact.large",
            "11 is out of range: expected an integer from 0 to 10"
        )
    );
    let o = opts(|o| o.free_actions_per_round = 3);
    let o = DraftOptions {
        max_actions_per_round: 2,
        ..o
    };
    assert_eq!(
        Draft::new(o).unwrap_err(),
        RulesError::field(
            "free_actions_per_round",
            "cannot exceed max_actions_per_round"
        )
    );
}

/// Issue 14 item 1, the figures measured on the digest's duel loop (STR 6, CON 6 on both
/// sides), to six decimals: the seed's striking order (§4.17.2, the default) against the
/// skill-first reading of the digest's loop.
#[test]
fn longer_weapon_strikes_first_figures() {
    let sf = digest_loop(|_| {});
    // The digest's loop with the seed's striking order.
    let seed_order = digest_loop(|o| o.striking_order = StrikingOrder::Seed);
    let two_handed = fighter(6, "two handed sword", 6, 6, "chain");
    let long = fighter(6, "long sword", 6, 6, "chain");
    let e = exact_duel(seed_order.clone(), two_handed.clone(), long.clone());
    close(e.p_a_win, 0.696579, 5e-7);
    let e = exact_duel(sf.clone(), two_handed, long);
    close(e.p_a_win, 0.599721, 5e-7);
    let long5 = fighter(5, "long sword", 6, 6, "leather");
    let short6 = fighter(6, "short sword", 6, 6, "leather");
    let e = exact_duel(seed_order.clone(), long5.clone(), short6.clone());
    close(e.p_a_win, 0.516104, 5e-7);
    let e = exact_duel(sf, long5, short6);
    close(e.p_a_win, 0.324908, 5e-7);
}

/// The seed's order, Monte Carlo within 4σ of the exact value (long sword skill 5 first
/// against a short sword skill 6 because it is longer).
#[test]
fn seed_striking_order_monte_carlo_matches_exact() {
    let n = 200_000;
    let (a, b) = (
        fighter(5, "long sword", 6, 6, "leather"),
        fighter(6, "short sword", 6, 6, "leather"),
    );
    let exact = exact_duel(DraftOptions::default(), a.clone(), b.clone()).p_a_win;
    let (p, _) = monte_carlo(DraftOptions::default(), a, b, n, 21);
    within_4_sigma(p, exact, n);
}

/// §4.17.2: a very wide weight gap beats length (rapier before claymore); equal weapons fall
/// back to skill; a custom weapon's `length` counts against a built-in one.
#[test]
fn striking_order_rules() {
    let o = DraftOptions::default();
    let first = |a: &FighterSpec, b: &FighterSpec, o: &DraftOptions| {
        let d = Draft::new(o.clone()).unwrap();
        let m = d
            .matchup(&d.compile("a", a).unwrap(), &d.compile("b", b).unwrap())
            .unwrap();
        m.first_by_rules
    };
    let rapier = fighter(5, "rapier", 6, 6, "none");
    let claymore = fighter(7, "two handed sword", 6, 6, "none");
    assert_eq!(first(&rapier, &claymore, &o), Some(Side::A));
    let (d2a, d2b) = d2();
    assert_eq!(first(&d2a, &d2b, &o), Some(Side::B), "the mace is longer");
    let sf = opts(|o| o.striking_order = StrikingOrder::SkillFirst);
    assert_eq!(first(&d2a, &d2b, &sf), Some(Side::A), "skill first");
    assert_eq!(
        first(&d1(), &d1(), &o),
        None,
        "same weapon, same skill: the coin"
    );
    let spear = |length| {
        let mut s = fighter(6, "long sword", 6, 6, "none");
        s.weapon = toml::from_str::<BTreeMap<String, WeaponSpec>>(&format!(
            "w = {{ name = \"spear\", impact = 2, aspect = \"pointed\", hands = 2, length = {length} }}"
        ))
        .unwrap()
        .remove("w")
        .unwrap();
        s
    };
    let sword = fighter(6, "two handed sword", 6, 6, "none");
    assert_eq!(first(&spear(3), &sword, &o), Some(Side::B));
    assert_eq!(first(&spear(5), &sword, &o), Some(Side::A));
    let p3 = exact_duel(o.clone(), spear(3), sword.clone()).p_a_win;
    let p5 = exact_duel(o.clone(), spear(5), sword.clone()).p_a_win;
    let p7 = exact_duel(o, spear(7), sword).p_a_win;
    assert!(p5 > p3 + 0.05, "{p3} {p5}");
    assert_eq!(p5, p7, "only the order of lengths counts");
}

mod locations;
mod plans;
mod fast;
mod ranged;

// The exact solver's work budget: a solve that needs more `step` runs than the budget gives up
// (no exact value, so callers fall back to Monte Carlo) instead of running on; with the
// default budget the same duel is solved.
#[test]
fn exact_solver_gives_up_beyond_its_work_budget() {
    use crate::solver::{Transitions, iterate_within};
    let d = Draft::new(DraftOptions::default()).unwrap();
    let m = d
        .matchup(&d.compile("a", &d1()).unwrap(), &d.compile("b", &d1()).unwrap())
        .unwrap();
    let mut runs_needed = 0;
    for budget in [1_000u64, 10_000, 100_000, 1_000_000, 10_000_000] {
        let got = iterate_within(&d, &m, d.start(&m), Transitions::Leaves, budget, |_, _, _| {});
        if got.is_some() {
            runs_needed = budget;
            break;
        }
    }
    assert!(
        runs_needed > 1_000 && runs_needed <= 10_000_000,
        "D1 needs between 1,000 and 10 million step runs, got {runs_needed}"
    );
    assert!(d.exact(&m).is_some());
    assert!(crate::solver::MAX_WORK >= 10 * runs_needed);
}

#[test]
fn a_raised_stop_flag_ends_the_solve_without_an_answer() {
    use crate::solver::{stop_requested, with_stop};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let d = Draft::new(DraftOptions::default()).unwrap();
    let m = d
        .matchup(&d.compile("a", &d1()).unwrap(), &d.compile("b", &d1()).unwrap())
        .unwrap();
    let raised = Arc::new(AtomicBool::new(true));
    assert!(with_stop(raised.clone(), || d.exact(&m)).is_none());
    // Nested requests: the inner one applies inside, the outer one again after it.
    let lowered = Arc::new(AtomicBool::new(false));
    with_stop(raised, || {
        let inner = with_stop(lowered, || d.exact(&m));
        assert!(inner.is_some());
        assert!(stop_requested());
    });
    assert!(!stop_requested());
    assert_eq!(
        d.exact(&m).unwrap().p_a_win.to_bits(),
        exact_duel(DraftOptions::default(), d1(), d1()).p_a_win.to_bits()
    );
}

/// The successors of one step from `s` with their probabilities, and the leaves it took:
/// enumerated with a tally that records the damage (`records`: the attack's outcome branches
/// per margin) or with the exact solver's `NoTally` (per wound level).
fn successors(d: &Draft, m: &Matchup, s: State, records: bool) -> (BTreeMap<(State, u8), f64>, usize) {
    let (mut next, mut leaves) = (BTreeMap::new(), 0);
    enumerate(
        |r| {
            let mut s2 = s;
            let st = if records {
                duel::step(m, d.options(), &mut s2, r, &mut Last::default())
            } else {
                duel::step(m, d.options(), &mut s2, r, &mut crate::NoTally)
            };
            let end = match st {
                duel::Step::Continue => 0,
                duel::Step::Over(w, e) => 1 + 8 * w as u8 + e as u8,
            };
            (s2, end)
        },
        |key, p| {
            *next.entry(key).or_insert(0.0) += p;
            leaves += 1;
        },
    );
    (next, leaves)
}

// The exact solver's step (`NoTally`) branches once per wound level a blow causes, a recording
// tally's once per margin: from every state reached in the first steps of several duels (melee
// and missiles, charges, hit locations, simultaneous blows, knock-back, exhaustion), the same
// successors with the same probabilities, from fewer leaves.
#[test]
fn wound_level_branching_gives_the_margins_successors() {
    let mut charger = d1();
    charger.charge = true;
    let archer = ranged::with_missile(fighter(6, "short sword", 6, 7, "leather"), "long bow", 6);
    let cases = [
        (digest_loop(|_| {}), d3(), d3()),
        (
            opts(|o| {
                o.hit_locations = true;
                o.severe_knockback = Knockback::Penalty;
                o.start_distance = 12;
            }),
            charger,
            d2().1,
        ),
        (
            opts(|o| {
                o.first_strike_tie = FirstStrikeTie::Simultaneous;
                o.exhaustion = true;
                o.start_distance = 40;
            }),
            archer,
            d2().0,
        ),
    ];
    let (mut by_margin, mut by_level) = (0, 0);
    for (o, a, b) in cases {
        let (d, m) = crate::testing::pair::<Draft>(o, &a, &b);
        let mut seen = std::collections::BTreeSet::new();
        let mut todo = vec![d.start(&m)];
        while let Some(s) = todo.pop() {
            if seen.len() >= 3_000 || !seen.insert(s) {
                continue;
            }
            let (margins, leaves_m) = successors(&d, &m, s, true);
            let (levels, leaves_l) = successors(&d, &m, s, false);
            assert_eq!(
                margins.keys().collect::<Vec<_>>(),
                levels.keys().collect::<Vec<_>>(),
                "{s:?}"
            );
            for (key, p) in &margins {
                close(levels[key], *p, 1e-15);
            }
            assert!(leaves_l <= leaves_m, "{s:?}: {leaves_l} leaves > {leaves_m}");
            (by_margin, by_level) = (by_margin + leaves_m, by_level + leaves_l);
            todo.extend(margins.keys().filter(|k| k.1 == 0).map(|k| k.0));
        }
    }
    assert!(2 * by_level < by_margin, "{by_level} leaves against {by_margin}");
}

#[test]
fn difficulty_parameter_doc_lists_all_nine_levels() {
    // `oddsmith rulesets draft` prints this doc: every level with its TN, not three of nine.
    let doc = check::params::DOCS
        .iter()
        .find(|d| d.name == "difficulty")
        .unwrap()
        .doc;
    for (name, tn) in check::DIFFICULTIES {
        let written = name.replace(' ', "_");
        assert!(doc.contains(&written), "{written} missing from {doc}");
        assert!(doc.contains(&format!("{tn})")), "TN {tn} missing from {doc}");
    }
}
