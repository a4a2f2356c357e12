//! The seed's worked examples (★ in the digest) replayed exactly, the digest's oracles O1–O20
//! and the reference duel R1 (exact values exactly; Monte Carlo within 4σ at fixed seeds).

use oddsmith_dice::stream;

use super::attack::*;
use super::check::OpenRpgCheck;
use super::fighter::{self, Matchup};
use super::options::*;
use super::spec::*;
use super::*;
use crate::testing::{check_docs, monte_carlo, within_4_sigma};
use crate::{CheckParams, Ending, ExactDuel, RngRoller, Ruleset, Winner};

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} vs {b} (tolerance {tol})");
}

fn alda() -> FighterSpec {
    toml::from_str(
        r#"combat_base = 5
skill = 8
agility = 6
strength = 3
weapon = "longsword"
armor = "mail""#,
    )
    .unwrap()
}

fn bram() -> FighterSpec {
    toml::from_str(
        r#"combat_base = 5
skill = 8
agility = 5
strength = 2
weapon = "spear"
armor = "brigandine""#,
    )
    .unwrap()
}

fn legacy() -> OpenRpgOptions {
    OpenRpgOptions {
        text_variant: TextVariant::Legacy,
        ..Default::default()
    }
}

/// R1 under the legacy text: crit ranges 18 and 19 (the primary 3 and 2 read as 21 − r, G25).
fn legacy_r1() -> (FighterSpec, FighterSpec) {
    let (mut a, mut b) = (alda(), bram());
    a.weapon.stats.crit_range = 18;
    b.weapon.stats.crit_range = 19;
    // Written for the legacy draft: read as written, not through the built-ins' legacy ranges.
    a.weapon.stats.legacy_crit_range = None;
    b.weapon.stats.legacy_crit_range = None;
    (a, b)
}

fn pair(o: OpenRpgOptions, a: &FighterSpec, b: &FighterSpec) -> (OpenRpg, Matchup) {
    crate::testing::pair::<OpenRpg>(o, a, b)
}

/// The matchup with the initiative forced: A first (`a_first`) or B first.
fn forced(m: &Matchup, a_first: bool) -> Matchup {
    let mut m = m.clone();
    m.first = if a_first { [1.0, 0.0] } else { [0.0, 1.0] };
    m.first_cum = fighter::Cumulative::new(&[m.first[0], 1.0]);
    m
}

fn table(m: &Matchup, side: usize) -> &fighter::Table {
    &m.turns[side][0][0]
}

fn p_zero(t: &fighter::Table) -> f64 {
    t.outcomes
        .iter()
        .zip(&t.probs)
        .filter(|(o, _)| o.damage == 0)
        .map(|(_, p)| p)
        .sum()
}

fn mean(t: &fighter::Table) -> f64 {
    t.outcomes
        .iter()
        .zip(&t.probs)
        .map(|(o, p)| f64::from(o.damage) * p)
        .sum()
}

// ----- ★ worked examples of the seed -----

#[test]
fn o1_rate_replays() {
    // §Rate: "if the roll is 41 and the weapon's rate is 25, then the character makes two attacks".
    assert_eq!(blows(41, 25, 1), (2, 0));
    // "rate of 30 and fire 1/2 … rate roll is 32 … ready to fire again the next round".
    assert_eq!(blows(32, 30, 2), (1, 0));
    // "… rate roll of 79 then the fire 1/2 would be canceled and it would fire a second time".
    assert_eq!(blows(79, 30, 2), (2, 0));
    assert_eq!(blows(29, 30, 2), (1, 1));
    assert_eq!(
        [blows(24, 25, 1).0, blows(25, 25, 1).0, blows(50, 25, 1).0],
        [1, 2, 3]
    );
    assert_eq!(
        [blows(59, 30, 3), blows(60, 30, 3), blows(90, 30, 3)],
        [(1, 1), (1, 0), (2, 0)]
    );
    assert_eq!(blows(80, 0, 1), (1, 0));
}

#[test]
fn o6_crit_replays_and_counts() {
    // Primary: range 3, d20s 2, 3, 10 → two critical blows; legacy: range 17, 6, 17, 19 → two.
    let n = |d: [u32; 3], r, al| d.iter().filter(|&&x| is_crit(x, r, al)).count();
    assert_eq!(n([2, 3, 10], 3, false), 2);
    assert_eq!(n([6, 17, 19], 17, true), 2);
    assert_eq!(crit_chance(3, false), 3.0 / 20.0);
    assert_eq!(crit_chance(17, true), 4.0 / 20.0);
    assert_eq!(crit_chance(0, false), 0.0);
    // P(exactly 2 of 3): 459/8000 primary, 12/125 legacy (O6), through the damage check.
    let o = OpenRpgOptions::default();
    let g = OpenRpg::new(o).unwrap();
    let words = [
        "kind=damage",
        "damage=1",
        "strength=0",
        "blows=3",
        "crit_range=3",
        "crit=+1",
    ];
    let c = g.parse_check(&CheckParams::parse(words).unwrap()).unwrap();
    let e = g.check_exact(&c);
    assert_eq!(e.distribution.ratio(5), (459 * 8000 / 8000, 8000));
    let g = OpenRpg::new(legacy()).unwrap();
    let words = [
        "kind=damage",
        "damage=2",
        "strength=0",
        "blows=3",
        "crit_range=17",
        "crit=+2",
    ];
    let c = g.parse_check(&CheckParams::parse(words).unwrap()).unwrap();
    // Legacy: (2 + 2c) × 2 → c = 2 gives 12.
    let (num, den) = g.check_exact(&c).distribution.ratio(12);
    assert_eq!(num * 125, 12 * den);
}

#[test]
fn o7_crit_example_totals() {
    // "(30 × 2) + (30 × 2) + 30 = 150"; legacy "30 × 3½ = 105".
    assert_eq!(total_x2(30, 3, 2, CritEffect::Times(2), false), 300);
    assert_eq!(total_x2(30, 3, 2, CritEffect::Times(2), true), 210);
    // "Str+22" with strength 3 is 3d4+22 (mean 59/2, variance 15/4).
    let d = damage_dist("Str+22", 3, StrengthToken::Nd4).unwrap();
    assert_eq!((d.min(), d.max()), (25, 34));
    assert_eq!(d.ratio(30), (3, 16));
    close(d.mean(), 29.5, 1e-12);
    close(d.variance(), 3.75, 1e-12);
    assert_eq!(
        damage_dist("str+15", 4, StrengthToken::Flat).unwrap().min(),
        19
    );
    assert_eq!(
        damage_dist("2d10+5", 9, StrengthToken::Nd4).unwrap().mean(),
        16.0
    );
    assert!(damage_dist("dex+5", 1, StrengthToken::Nd4).is_err());
    assert!(damage_dist("2d", 1, StrengthToken::Nd4).is_err());
    // E[T] of three landed blows, primary range 3 ×2 = 4071/40 (O7): through the damage check.
    let g = OpenRpg::new(OpenRpgOptions::default()).unwrap();
    let c = g
        .parse_check(&CheckParams::parse(["kind=damage", "blows=3", "crit_range=3"]).unwrap())
        .unwrap();
    close(g.check_exact(&c).distribution.mean(), 4071.0 / 40.0, 1e-9);
    let g = OpenRpg::new(legacy()).unwrap();
    let c = g
        .parse_check(&CheckParams::parse(["kind=damage", "blows=3", "crit_range=17"]).unwrap())
        .unwrap();
    // Legacy totals are rounded (half up) by the DR step even at DR 0; E[M]·E[b] = 9381/125.
    close(g.check_exact(&c).distribution.mean(), 9381.0 / 125.0, 0.5);
}

#[test]
fn o8_legacy_multiplier_table() {
    // M(n, k) × 2 with "x2" crits, base 1: 1 + ½ + ½ = 2 [three default attacks], 2 + 1 + ½.
    let m2 = |n, k| total_x2(1, n, k, CritEffect::Times(2), true);
    assert_eq!([m2(1, 0), m2(1, 1)], [2, 4]);
    assert_eq!([m2(2, 0), m2(2, 1), m2(2, 2)], [3, 5, 6]);
    assert_eq!([m2(3, 0), m2(3, 1), m2(3, 2), m2(3, 3)], [4, 6, 7, 8]);
    assert_eq!(
        [m2(4, 0), m2(4, 1), m2(4, 2), m2(4, 3), m2(4, 4)],
        [5, 7, 8, 9, 10]
    );
    // G20: "+5" crits add to the base once per crit, then multiply.
    assert_eq!(total_x2(20, 2, 1, CritEffect::Add(5), true), 25 * 3);
}

#[test]
fn o9_defense_example() {
    // "150 to 113 (150 × (1 − .25))", then "30+2d4 (lets say this is 34) … final damage would be 79".
    let after = after_dr(300, 2500, DrRounding::HalfUp);
    assert_eq!(after, 113);
    assert_eq!(after - defense(30, 0, 4, 0), 79);
    assert_eq!(after_dr(202, 2500, DrRounding::HalfUp), 76);
    assert_eq!(after_dr(202, 2500, DrRounding::Ceil), 76);
    assert_eq!(after_dr(198, 2500, DrRounding::HalfUp), 74);
    assert_eq!(after_dr(198, 2500, DrRounding::Ceil), 75);
    assert_eq!(after_dr(198, 2500, DrRounding::Floor), 74);
    // Final damage given T = 150: 83 − 2d4 (mean 78, P(79) = 3/16), through the check.
    let g = OpenRpg::new(OpenRpgOptions::default()).unwrap();
    let c = g
        .parse_check(
            &CheckParams::parse([
                "kind=damage",
                "damage=150",
                "dr=25",
                "defense=30",
                "def_strength=2",
            ])
            .unwrap(),
        )
        .unwrap();
    let d = g.check_exact(&c).distribution;
    assert_eq!((d.min(), d.max()), (75, 81));
    assert_eq!(d.ratio(79), (3, 16));
    close(d.mean(), 78.0, 1e-12);
}

#[test]
fn o10_multiple_damages_example() {
    // "7d6+4, 4d6+6, and 2d6+1 … (7d6+4) + (2d6+3) + (1d6+1) which would be 10d6+8".
    let t = |count, plus| Term {
        count,
        sides: 6,
        plus,
    };
    assert_eq!(
        multiple_damages(&[t(7, 4), t(4, 6), t(2, 1)]),
        vec![t(10, 8)]
    );
    assert_eq!(multiple_damages(&[t(4, 6)]), vec![t(4, 6)]);
    assert_eq!(multiple_damages(&[t(2, 1), t(7, 4)]), vec![t(8, 5)]);
}

#[test]
fn o11_magic_resistance_example() {
    // "a fire resistance of 25% would lower a fireball's damage from 28 to 21".
    assert_eq!(resist(28, 25), 21);
    // "20% to one type, 10% to another, and no resistance to the third … 10%".
    assert_eq!(tech_resistance(&[20, 10, 0]), 10.0);
    // "Magic resistance can be negative": −20 % on 28 → 33.6 → 34.
    assert_eq!(resist(28, -20), 34);
}

// ----- exact oracles -----

fn blows_check(
    g: &OpenRpg,
    skill: i32,
    rate: i32,
    cadence: i32,
    required: i64,
) -> oddsmith_dice::Dist {
    g.check_exact(&OpenRpgCheck::Blows {
        skill,
        rate,
        cadence,
        required,
    })
    .distribution
}

#[test]
fn o2_o3_o5_blow_distributions() {
    let g = OpenRpg::new(OpenRpgOptions::default()).unwrap();
    // O3: 8d10 rate 25, every roll.
    let d = blows_check(&g, 8, 25, 1, 0);
    assert_eq!(d.ratio(1), (711447, 100000000));
    assert_eq!(d.ratio(2), (74024733, 100000000));
    assert_eq!(d.ratio(4), (1287, 100000000));
    close(d.mean(), 11227683.0 / 5000000.0, 1e-12);
    assert_eq!(blows_check(&g, 5, 25, 1, 0).ratio(3), (1, 100000));
    close(
        blows_check(&g, 7, 30, 1, 0).mean(),
        18810621.0 / 10000000.0,
        1e-12,
    );
    // O5: hit test and blow count from the same roll.
    let d = blows_check(&g, 8, 25, 1, 25);
    assert_eq!(d.ratio(0), (711447, 100000000));
    assert_eq!(d.weight(1), 0);
    close(d.mean(), 223842213.0 / 100000000.0, 1e-12);
    close(
        blows_check(&g, 8, 25, 1, 30).mean(),
        1743117.0 / 800000.0,
        1e-12,
    );
    assert_eq!(blows_check(&g, 8, 30, 1, 25).ratio(1), (1488147, 50000000));
    close(
        blows_check(&g, 7, 30, 1, 25).mean(),
        18488541.0 / 10000000.0,
        1e-12,
    );
    // O2: 8d10 fire 1/2 at rate 30: (1,1), (1,0), (2,0).
    let r = skill_dist(SkillRoll::Nd10, 8);
    let p = |want: (u32, u32)| -> (u128, u128) {
        let w: u128 = r
            .iter()
            .filter(|&(v, _)| blows(v, 30, 2) == want)
            .map(|(_, w)| w)
            .sum();
        (w, r.total())
    };
    assert_eq!(p((1, 1)), (3687741, 100000000));
    assert_eq!(p((1, 0)), (93554190, 100000000));
    assert_eq!(p((2, 0)), (2758069, 100000000));
    let r5 = skill_dist(SkillRoll::Nd10, 5);
    let q: u128 = r5
        .iter()
        .filter(|&(v, _)| blows(v, 30, 3) == (1, 2))
        .map(|(_, w)| w)
        .sum();
    assert_eq!(q * 160, 99 * r5.total());
}

#[test]
fn o4_o15_skill_rolls() {
    let g = OpenRpg::new(OpenRpgOptions::default()).unwrap();
    let p = |skill, dc| {
        g.check_exact(&OpenRpgCheck::Skill { skill, dc })
            .distribution
            .ratio_at_least(dc)
    };
    let frac = |(a, b): (u128, u128)| a as f64 / b as f64;
    // O4 diagonal P(N d10 ≥ 5N).
    for (n, num, den) in [
        (1, 3u128, 5u128),
        (2, 16, 25),
        (3, 81, 125),
        (4, 1657, 2500),
        (5, 33753, 50000),
        (6, 42907, 62500),
        (8, 3534881, 5000000),
        (10, 3624683167, 5000000000),
    ] {
        let (a, b) = p(n, 5 * i64::from(n));
        assert_eq!(a * den, num * b, "N = {n}");
    }
    close(frac(p(9, 50)), 0.5, 1e-15);
    let nd4 = OpenRpg::new(OpenRpgOptions {
        skill_roll: SkillRoll::Nd4,
        ..Default::default()
    })
    .unwrap();
    let c = OpenRpgCheck::Skill { skill: 8, dc: 25 };
    assert_eq!(
        nd4.check_exact(&c).distribution.ratio_at_least(25),
        (5115, 65536)
    );
    // O15: agility 6 against DC 20 … 50.
    for (dc, num, den) in [
        (20, 243343u128, 250000u128),
        (25, 441711, 500000),
        (30, 42907, 62500),
        (35, 417627, 1000000),
        (40, 182197, 1000000),
        (45, 12873, 250000),
        (50, 4001, 500000),
    ] {
        let (a, b) = p(6, dc);
        assert_eq!(a * den, num * b, "DC {dc}");
    }
}

/// A turn table of a fixed attack roll `r` (one value) against a bare defender of combat base
/// `cb`, one damage point per blow, no crits: the final damage is the number of blows landed.
fn counting_table(
    r: i64,
    rate: i32,
    cb: i64,
    shield: i64,
    dodge: Option<(i32, DodgeSize)>,
) -> Vec<(TurnOutcome, f64)> {
    let a = AttackerStats {
        roll: vec![(r, 1.0)],
        rate,
        cadence: 1,
        crit: 0.0,
        effect: CritEffect::Add(0),
        damage: vec![(1, 1.0)],
        missile: false,
        mounted: false,
    };
    let d = DefenderStats {
        required: 5 * cb,
        armor: 0,
        dr: 0,
        uncovered: Vec::new(),
        strength: vec![(0, 1.0)],
        shield,
        dodge: dodge.map(|(n, _)| skill_dist(SkillRoll::Nd10, n).to_f64_pairs()),
        dodge_size: dodge.map_or(DodgeSize::None, |x| x.1),
        defence: Defence::Best,
        mounted: false,
    };
    let cx = Context {
        multiplier: false,
        rounding: DrRounding::HalfUp,
        joint_pen: 25,
        defenseless: false,
        off_guard: false,
        range_penalty: 0,
        shield_per_attack: false,
        dodge_per_attack: false,
        joint_pen_defense: true,
        joint_pen_dr: true,
        slow_whole: false,
    };
    turn_table(&a, &d, None, cx)
}

fn p_of(t: &[(TurnOutcome, f64)], f: impl Fn(&TurnOutcome) -> bool) -> f64 {
    t.iter().filter(|(o, _)| f(o)).map(|(_, p)| p).sum()
}

#[test]
fn o13_shield_blocks_per_blow() {
    // R = 50: rate 0 → 1 blow, rate 30 → 2, rate 25 → 3; 30 % block each.
    for (rate, expect) in [
        (0, vec![0.3, 0.7]),
        (30, vec![0.09, 0.42, 0.49]),
        (25, vec![0.027, 0.189, 0.441, 0.343]),
    ] {
        let t = counting_table(50, rate, 0, 30, None);
        for (k, e) in expect.iter().enumerate() {
            close(p_of(&t, |o| o.damage == k as i32), *e, 1e-12);
        }
    }
}

#[test]
fn o12_dodge_per_blow() {
    // Attacker 8d10 (one blow), required 25, defender agility 6d10: P(blow not avoided).
    let run = |size: Option<DodgeSize>| {
        let mut all = Vec::new();
        for (r, pr) in skill_dist(SkillRoll::Nd10, 8).to_f64_pairs() {
            for (o, p) in counting_table(r, 0, 5, 0, size.map(|s| (6, s))) {
                all.push((o, p * pr));
            }
        }
        all
    };
    close(p_of(&run(None), |o| o.damage == 1), 99288553.0 / 1e8, 1e-12);
    close(
        p_of(&run(Some(DodgeSize::Half)), |o| o.damage == 1),
        6203229478693.0 / 1e13,
        1e-12,
    );
    let full = run(Some(DodgeSize::Full));
    close(p_of(&full, |o| o.damage == 1), 422672151407.0 / 4e12, 1e-12);
    let min = run(Some(DodgeSize::MinimalSufficient));
    close(p_of(&min, |o| o.damage == 1), 422672151407.0 / 4e12, 1e-12);
    close(
        p_of(&min, |o| o.defender_loses_turn),
        10293098200351.0 / 2e13,
        1e-12,
    );
    // Full: the turn is lost whenever the dodge is made (every hit).
    close(
        p_of(&full, |o| o.defender_loses_turn),
        99288553.0 / 1e8,
        1e-12,
    );
}

#[test]
fn o14_initiative() {
    let (_, m) = pair(OpenRpgOptions::default(), &alda(), &bram());
    close(m.first[0], 1161208557.0 / 19729979953.0, 1e-12);
    let (_, m) = pair(legacy(), &alda(), &bram());
    close(m.first[0], 34895292605.0 / 48237170299.0, 1e-12);
    let (_, m) = pair(OpenRpgOptions::default(), &alda(), &alda());
    close(m.first[0], 0.5, 1e-12);
    // Legacy level 3 (carries initiative) beats level 4; short weapons (5) go after.
    let mut pole = bram();
    pole.weapon.stats.carries_initiative = true;
    assert_eq!(pair(legacy(), &alda(), &pole).1.first[0], 0.0);
    let mut short = bram();
    short.weapon.stats.class = WeaponClass::Short;
    assert_eq!(pair(legacy(), &alda(), &short).1.first[0], 1.0);
}

#[test]
fn o16_r1_per_turn_damage() {
    let (_, m) = pair(OpenRpgOptions::default(), &alda(), &bram());
    let (ab, ba) = (table(&m, 0), table(&m, 1));
    close(p_zero(ab), 312801839037.0 / 40960000000000.0, 1e-12);
    close(mean(ab), 716210588612577.0 / 32000000000000.0, 1e-10);
    close(p_zero(ba), 52555715049.0 / 1600000000000.0, 1e-12);
    close(mean(ba), 397566295742861.0 / 20000000000000.0, 1e-10);
    assert_eq!(ab.outcomes.iter().map(|o| o.damage).max(), Some(172));
    assert_eq!(ba.outcomes.iter().map(|o| o.damage).max(), Some(78));
    let sd = |t: &fighter::Table| {
        let mu = mean(t);
        t.outcomes
            .iter()
            .zip(&t.probs)
            .map(|(o, p)| (f64::from(o.damage) - mu).powi(2) * p)
            .sum::<f64>()
            .sqrt()
    };
    close(sd(ab), 16.748286, 5e-7);
    close(sd(ba), 8.518077, 5e-7);
    let at_least = |t: &fighter::Table, k| {
        p_of(
            &t.outcomes
                .iter()
                .copied()
                .zip(t.probs.iter().copied())
                .collect::<Vec<_>>(),
            |o| o.damage >= k,
        )
    };
    close(at_least(ab, 25), 0.436563, 5e-7);
    close(at_least(ab, 100), 0.000367, 5e-7);
    close(at_least(ba, 10), 0.908829, 5e-7);
}

#[test]
fn o17_targeted_attacks() {
    let covered = [
        (Target::Chest, 0.020966, 14.865892),
        (Target::Limb, 0.036877, 15.791501),
        (Target::Joints, 0.062654, 26.966311),
        (Target::Head, 0.123565, 15.856432),
        (Target::Neck, 0.293024, 14.837386),
        (Target::Eyes, 0.747362, 9.221577),
    ];
    let uncovered = [0.020256, 0.036877, 0.062654, 0.123565, 0.293024, 0.747362];
    let uncovered_mean = [
        60.359385, 60.545339, 59.651648, 56.752664, 48.192710, 22.358860,
    ];
    let o = OpenRpgOptions {
        limb_nonlethal: false,
        ..Default::default()
    };
    for (i, (t, p0, mu)) in covered.into_iter().enumerate() {
        let mut a = alda();
        a.target = t;
        let (_, m) = pair(o.clone(), &a, &bram());
        close(p_zero(table(&m, 0)), p0, 5e-7);
        close(mean(table(&m, 0)), mu, 5e-7);
        let mut b = bram();
        b.armor.stats.uncovered = Location::ALL.to_vec();
        let (_, m) = pair(o.clone(), &a, &b);
        close(p_zero(table(&m, 0)), uncovered[i], 5e-7);
        close(mean(table(&m, 0)), uncovered_mean[i], 5e-7);
    }
    // best_ev: joints against a fully covered Bram; the head when head, neck and eyes are bare.
    let mut a = alda();
    a.target = Target::BestEv;
    let (_, m) = pair(o.clone(), &a, &bram());
    assert_eq!(table(&m, 0).location, Some(Location::Joints));
    let mut b = bram();
    b.armor.stats.uncovered = vec![Location::Head, Location::Neck, Location::Eyes];
    let (_, m) = pair(o, &a, &b);
    assert_eq!(table(&m, 0).location, Some(Location::Head));
}

#[test]
fn o18_r1_exact_primary_both_orders() {
    let (g, m) = pair(OpenRpgOptions::default(), &alda(), &bram());
    let x = g.exact(&m).unwrap();
    close(x.p_a_win, 0.503215, 5e-7);
    close(x.mean_rounds, 4.644250, 5e-7);
    close(x.p_a_win + x.p_b_win + x.p_draw, 1.0, 1e-9);
    assert!(x.p_draw < 1e-12 && x.truncated < 1e-14);
    let a_first = g.exact(&forced(&m, true)).unwrap();
    let b_first = g.exact(&forced(&m, false)).unwrap();
    close(a_first.p_a_win, 0.690132, 5e-7);
    close(b_first.p_a_win, 0.491526, 5e-7);
    close(a_first.mean_rounds, 4.644250, 5e-7);
    close(b_first.mean_rounds, 4.644250, 5e-7);
    // Monte Carlo within 4σ of the exact value (fixed seed).
    let n = 20_000;
    let (p, _) = monte_carlo(&g, &m, n, 41);
    within_4_sigma(p, x.p_a_win, n);
    let (p, _) = monte_carlo(&g, &forced(&m, true), n, 42);
    within_4_sigma(p, a_first.p_a_win, n);
}

/// Who acts first (issue 38 item 4): P(A acts first) exact, the duel solved under each order
/// (weighted, they give the unconditional answer), and the Monte Carlo counters that split
/// the duels by it agree with both within 4σ.
#[test]
fn first_move_splits_the_duel_by_who_acts_first() {
    let (g, m) = pair(legacy(), &legacy_r1().0, &legacy_r1().1);
    let f = g.first_move(&m, true).unwrap();
    close(f.p_a_first, 0.723411, 5e-7);
    let [Some(a), Some(b)] = f.exact.clone() else {
        panic!("both orders solved: {f:?}")
    };
    close(a.p_a_win, 0.585301, 5e-7);
    close(b.p_a_win, 0.504138, 5e-7);
    let x = g.exact(&m).unwrap();
    close(
        f.p_a_first * a.p_a_win + (1.0 - f.p_a_first) * b.p_a_win,
        x.p_a_win,
        1e-9,
    );
    assert_eq!(g.counter_names()[f.counters[0]], "a_first");
    assert!(g.first_move(&m, false).unwrap().exact == [None, None]);
    let n = 20_000u32;
    let mut rng = stream(43, 0);
    let mut roller = RngRoller::new(&mut rng);
    let (mut first, mut first_wins, mut wins) = (0u32, 0u32, 0u32);
    for _ in 0..n {
        let o = g.duel(&m, &mut roller);
        first += o.counters[f.counters[0]];
        first_wins += o.counters[f.counters[1]];
        wins += u32::from(o.winner == Winner::A);
        assert!(o.counters[f.counters[1]] <= o.counters[f.counters[0]]);
    }
    within_4_sigma(f64::from(first) / f64::from(n), f.p_a_first, n);
    within_4_sigma(
        f64::from(first_wins) / f64::from(first),
        a.p_a_win,
        first,
    );
    within_4_sigma(
        f64::from(wins - first_wins) / f64::from(n - first),
        b.p_a_win,
        n - first,
    );
    // An order that cannot happen is not solved: legacy level 3 always goes before level 4.
    let mut pole = legacy_r1().1;
    pole.weapon.stats.carries_initiative = true;
    let (g, m) = pair(legacy(), &legacy_r1().0, &pole);
    let f = g.first_move(&m, true).unwrap();
    assert_eq!(f.p_a_first, 0.0);
    assert!(f.exact[0].is_none() && f.exact[1].is_some());
}

#[test]
fn o19_r1_exact_legacy() {
    let (a, b) = legacy_r1();
    let (g, m) = pair(legacy(), &a, &b);
    close(p_zero(table(&m, 0)), 0.426145, 5e-7);
    close(mean(table(&m, 0)), 9.305071, 5e-7);
    close(p_zero(table(&m, 1)), 0.103614, 5e-7);
    close(mean(table(&m, 1)), 8.715098, 5e-7);
    close(m.first[0], 0.723411, 5e-7);
    let x = g.exact(&m).unwrap();
    close(x.p_a_win, 0.562852, 5e-7);
    close(x.mean_rounds, 10.121397, 5e-7);
    close(g.exact(&forced(&m, true)).unwrap().p_a_win, 0.585301, 5e-7);
    close(g.exact(&forced(&m, false)).unwrap().p_a_win, 0.504138, 5e-7);
    let n = 20_000;
    let (p, _) = monte_carlo(&g, &m, n, 43);
    within_4_sigma(p, x.p_a_win, n);
}

#[test]
fn o20_mounted_range_concentration() {
    // Mounted archer 8d10 against 25: P(ceil(R/2) ≥ 25) = 1465119/5000000.
    let mut archer = alda();
    archer.mounted = true;
    archer.weapon.stats.class = WeaponClass::Missile;
    archer.weapon.stats.rate = 1000;
    let (_, m) = pair(OpenRpgOptions::default(), &archer, &bram());
    let hit: f64 = table(&m, 0)
        .outcomes
        .iter()
        .zip(&table(&m, 0).probs)
        .filter(|(o, _)| o.hit)
        .map(|(_, p)| p)
        .sum();
    close(hit, 1465119.0 / 5000000.0, 1e-12);
    // Melee against a rider: half after defense, rounded up.
    assert_eq!((half_up(79), half_up(1), half_up(0)), (40, 1, 0));
    let mut rider = bram();
    rider.mounted = true;
    let (_, m1) = pair(OpenRpgOptions::default(), &alda(), &bram());
    let (_, m2) = pair(OpenRpgOptions::default(), &alda(), &rider);
    let halved: f64 = table(&m1, 0)
        .outcomes
        .iter()
        .zip(&table(&m1, 0).probs)
        .map(|(o, p)| half_up(i64::from(o.damage)) as f64 * p)
        .sum();
    close(mean(table(&m2, 0)), halved, 1e-9);
    assert_eq!([50, 54, 55, 62, 100].map(range_modifier), [0, 0, 1, 2, 10]);
    assert_eq!(
        (concentration_loss(30, 12), concentration_loss(10, 12)),
        (18, 0)
    );
}

// ----- the table against the dice, the duel against its rules -----

/// One untargeted, unavoided attack rolled die by die with the rules' functions.
fn roll_attack<R: crate::Roller>(
    o: &OpenRpgOptions,
    a: &FighterSpec,
    d: &FighterSpec,
    r: &mut R,
) -> i64 {
    let res = o.resolved();
    let roll: i64 = (0..a.skill).map(|_| i64::from(r.d10())).sum();
    let w = &a.weapon.stats;
    if roll < 5 * i64::from(d.combat_base) {
        return 0;
    }
    let (n, _) = blows(roll, w.rate, w.cadence);
    let crits = (0..n)
        .filter(|_| is_crit(r.roll(20), w.crit_range, res.crit_at_least))
        .count() as u32;
    let b = if w.damage == "str+22" {
        (0..a.strength).map(|_| i64::from(r.roll(4))).sum::<i64>() + 22
    } else {
        i64::from(r.roll(10) + r.roll(10)) + 20
    };
    let effect = CritEffect::parse(&w.crit_effect).unwrap();
    let after = after_dr(
        total_x2(b, n, crits, effect, res.multiplier),
        i64::from(d.armor.stats.dr) * 100,
        o.dr_rounding,
    );
    let s: i64 = (0..d.strength).map(|_| i64::from(r.roll(4))).sum();
    (after - defense(i64::from(d.armor.stats.defense), 0, s, 0)).max(0)
}

#[test]
fn turn_tables_match_the_dice_within_4_sigma() {
    for (o, (a, b)) in [
        (OpenRpgOptions::default(), (alda(), bram())),
        (legacy(), legacy_r1()),
    ] {
        let (_, m) = pair(o.clone(), &a, &b);
        for (side, (x, y)) in [(0, (&a, &b)), (1, (&b, &a))] {
            let t = table(&m, side);
            let mut rng = stream(7, side as u64);
            let mut roller = RngRoller::new(&mut rng);
            let n = 20_000u32;
            let (mut zero, mut sum) = (0u32, 0.0);
            for _ in 0..n {
                let v = roll_attack(&o, x, y, &mut roller);
                zero += u32::from(v == 0);
                sum += v as f64;
            }
            within_4_sigma(f64::from(zero) / f64::from(n), p_zero(t), n);
            let mu = mean(t);
            let var: f64 = t
                .outcomes
                .iter()
                .zip(&t.probs)
                .map(|(o, p)| (f64::from(o.damage) - mu).powi(2) * p)
                .sum();
            let se = (var / f64::from(n)).sqrt();
            assert!(
                (sum / f64::from(n) - mu).abs() <= 4.0 * se,
                "mean {} vs {mu}",
                sum / f64::from(n)
            );
        }
    }
}

/// Every pairing of [`policy_fighters`] under both texts, with the ruleset it was built by.
fn policy_matchups() -> Vec<(OpenRpg, Matchup)> {
    let fighters = policy_fighters();
    let mut v = Vec::new();
    for o in [OpenRpgOptions::default(), legacy()] {
        let g = OpenRpg::new(o).unwrap();
        let c: Vec<_> = fighters
            .iter()
            .map(|f| g.compile("f", f).unwrap())
            .collect();
        for a in &c {
            for b in &c {
                v.push((g.clone(), g.matchup(a, b).unwrap()));
            }
        }
    }
    v
}

fn policy_fighters() -> Vec<FighterSpec> {
    let mut v = Vec::new();
    for t in [
        Target::Opportune,
        Target::Chest,
        Target::Limb,
        Target::Joints,
        Target::Head,
        Target::Neck,
        Target::Eyes,
        Target::BestEv,
    ] {
        let mut f = alda();
        f.target = t;
        v.push(f);
    }
    for s in [
        DodgeSize::Half,
        DodgeSize::Full,
        DodgeSize::MinimalSufficient,
        DodgeSize::None,
    ] {
        let mut f = bram();
        f.dodge = true;
        f.dodge_size = s;
        v.push(f);
    }
    let mut f = alda();
    f.wait = Wait::WhenFirst;
    f.shield = 30;
    v.push(f);
    let mut f = bram();
    f.weapon.stats.cadence = 3;
    f.state = Readiness::FlatFooted;
    v.push(f);
    let mut f = alda();
    f.state = Readiness::CaughtOffGuard;
    f.mounted = true;
    v.push(f);
    v
}

#[test]
fn every_duel_ends_within_the_round_cap_under_every_policy_pair() {
    let fighters = policy_fighters();
    for o in [
        OpenRpgOptions {
            max_rounds: 6,
            ..Default::default()
        },
        OpenRpgOptions {
            max_rounds: 6,
            ..legacy()
        },
    ] {
        let g = OpenRpg::new(o).unwrap();
        let c: Vec<_> = fighters
            .iter()
            .map(|f| g.compile("f", f).unwrap())
            .collect();
        let mut rng = stream(3, 0);
        let mut roller = RngRoller::new(&mut rng);
        for a in &c {
            for b in &c {
                let m = g.matchup(a, b).unwrap();
                for _ in 0..40 {
                    let out = g.duel(&m, &mut roller);
                    assert!(out.rounds <= 6);
                    assert_eq!(out.winner == Winner::Draw, out.ending == Ending::RoundCap);
                }
            }
        }
        // The exact solver agrees: every duel ends by round 6 (pairs of neighbours).
        for (i, a) in c.iter().enumerate() {
            let m = g.matchup(a, &c[(i + 1) % c.len()]).unwrap();
            let x = g.exact(&m).unwrap();
            close(x.p_a_win + x.p_b_win + x.p_draw, 1.0, 1e-9);
            assert!(x.rounds_pmf.len() == 7 && x.truncated < 1e-12);
        }
    }
}

#[test]
fn grid_solver_matches_the_state_by_state_one_under_every_policy() {
    // Unequal health (a grid that is not square), limb hits that cannot kill on either side
    // (and, with `limb_nonlethal` off, that can), dodges that cost a turn, slow weapons,
    // ambushes, waiting, shields, mounts; both texts. The ruleset's `exact` (the product of
    // health distributions where the duel factors) and the grid solver alike.
    let f = policy_fighters();
    let n = f.len();
    let mut factoring = 0;
    for (o, health) in [
        (OpenRpgOptions::default(), [30, 41]),
        (legacy(), [37, 26]),
        (
            OpenRpgOptions {
                limb_nonlethal: false,
                max_rounds: 40,
                ..Default::default()
            },
            [25, 25],
        ),
    ] {
        let g = OpenRpg::new(o).unwrap();
        for i in 0..n {
            for (a, b) in [(i, (i + 1) % n), (2, i), (i, 2)] {
                let (mut fa, mut fb) = (f[a].clone(), f[b].clone());
                (fa.health, fb.health) = (health[0], health[1]);
                let m = g
                    .matchup(&g.compile("a", &fa).unwrap(), &g.compile("b", &fb).unwrap())
                    .unwrap();
                let states = duel::solve(&g, &m).unwrap();
                let grid = super::grid::solve(&g, &m).unwrap();
                // The state-by-state solver adds every state's deaths to one sum, one by one:
                // over long fights that sum drifts by up to about 1e-12 (its total then misses
                // 1 by as much), so its own drift is allowed on top of the tolerance.
                let total = |e: &ExactDuel| e.p_a_win + e.p_b_win + e.p_draw + e.truncated;
                let drift = 2.0 * (1.0 - total(&states)).abs();
                let product = super::product::solve(&g, &m);
                assert_eq!(product.is_some(), super::product::factors(&m));
                factoring += usize::from(product.is_some());
                for (name, fast) in [("exact", g.exact(&m).unwrap()), ("grid", grid)]
                    .into_iter()
                    .chain(product.map(|p| ("product", p)))
                {
                    let (dp, dmean) = crate::solver::max_difference(&fast, &states);
                    assert!(
                        dp <= crate::solver::BRANCHING_TOLERANCE.0 + drift
                            && dmean <= crate::solver::BRANCHING_TOLERANCE.1,
                        "fighters {a} vs {b}, {name}: a probability moved by {dp:e}, the mean by \
                         {dmean:e} ({name} total {}, state-by-state total {})",
                        total(&fast),
                        total(&states)
                    );
                }
            }
        }
    }
    // Both kinds of duel are among them (102 of the 135 factor): the full dodgers' do not.
    assert!((20..3 * 3 * n).contains(&factoring), "{factoring} factor");
}

#[test]
fn ambush_dodge_and_slow_weapons_monte_carlo_matches_exact() {
    // Health 30 keeps the dodgers' long duels quick to solve exactly.
    let f: Vec<_> = policy_fighters()
        .into_iter()
        .map(|mut f| {
            f.health = 30;
            f
        })
        .collect();
    let g = OpenRpg::new(OpenRpgOptions::default()).unwrap();
    for (k, (i, j)) in [(3, 9), (13, 14), (12, 10), (14, 11), (7, 8)]
        .into_iter()
        .enumerate()
    {
        let m = g
            .matchup(
                &g.compile("a", &f[i]).unwrap(),
                &g.compile("b", &f[j]).unwrap(),
            )
            .unwrap();
        let x = g.exact(&m).unwrap();
        let n = 10_000;
        let (p, rounds) = monte_carlo(&g, &m, n, 100 + k as u64);
        within_4_sigma(p, x.p_a_win, n);
        assert!(
            (rounds - x.mean_rounds).abs() < 0.5,
            "rounds {rounds} vs {}",
            x.mean_rounds
        );
    }
}

#[test]
fn flat_footed_defender_is_hit_for_sure_and_loses_round_one() {
    let mut b = bram();
    b.state = Readiness::FlatFooted;
    let (rules, m) = pair(OpenRpgOptions::default(), &alda(), &b);
    // Defenseless table: every roll hits (required 0).
    assert!(m.turns[0][1][0].outcomes.iter().all(|o| o.hit));
    let s = rules.start(&m);
    let mut s1 = s;
    s1.round = 1;
    s1.first = 2;
    assert_eq!(duel::order(&m, &s1), [0, 1]);
}

#[test]
fn checks_sample_like_exact() {
    let g = OpenRpg::new(OpenRpgOptions::default()).unwrap();
    for words in [
        vec!["skill=6", "dc=30"],
        vec!["kind=blows", "skill=8", "rate=25", "required=25"],
        vec![
            "kind=damage",
            "damage=str+22",
            "strength=3",
            "blows=3",
            "crit_range=3",
            "dr=25",
            "defense=30",
            "def_strength=2",
        ],
    ] {
        let c = g
            .parse_check(&CheckParams::parse(words.clone()).unwrap())
            .unwrap();
        let e = g.check_exact(&c);
        let mut rng = stream(5, 0);
        let mut roller = RngRoller::new(&mut rng);
        let n = 20_000;
        let hits = (0..n)
            .filter(|_| g.check_sample(&c, &mut roller) >= e.success_at_least)
            .count();
        within_4_sigma(hits as f64 / f64::from(n), e.p_success(), n);
    }
    assert!(
        g.parse_check(&CheckParams::parse(["kind=nope"]).unwrap())
            .is_err()
    );
    assert!(
        g.parse_check(&CheckParams::parse(["skill=99"]).unwrap())
            .is_err()
    );
    assert!(g.check_grid().unwrap().cells.len() == 54);
}

/// `kind=damage` takes as many blows as `kind=blows` reports (301 under nd10: 30d10 at rate
/// 1), exactly; a crit range refuses only what its integer weights cannot hold, saying the most.
#[test]
fn damage_check_takes_as_many_blows_as_the_blows_check_reports() {
    let g = OpenRpg::new(OpenRpgOptions::default()).unwrap();
    let most = g
        .parse_check(&CheckParams::parse(["kind=blows", "skill=30", "rate=1", "required=0"]).unwrap())
        .unwrap();
    assert_eq!(g.check_exact(&most).distribution.max(), 301);
    let parse = |w: &[&str]| g.parse_check(&CheckParams::parse(w.to_vec()).unwrap());
    // 21 blows of 3d4+22 (str 3), no crits: the base is rolled once, so 21 × (25..=34).
    let c = parse(&["kind=damage", "blows=21"]).unwrap();
    let d = g.check_exact(&c).distribution;
    assert_eq!((d.min(), d.max()), (21 * 25, 21 * 34));
    close(d.mean(), 21.0 * 29.5, 1e-9);
    let c = parse(&["kind=damage", "blows=301"]).unwrap();
    assert_eq!(g.check_exact(&c).distribution.max(), 301 * 34);
    assert!(parse(&["kind=damage", "blows=302"]).is_err());
    // With crits: 21 blows still exact (and sampled alike); far more are refused in words.
    let c = parse(&["kind=damage", "blows=21", "crit_range=3"]).unwrap();
    let e = g.check_exact(&c);
    let mut rng = stream(7, 0);
    let mut roller = RngRoller::new(&mut rng);
    let n = 20_000;
    let at = e.distribution.mean().round() as i64;
    let hits = (0..n)
        .filter(|_| g.check_sample(&c, &mut roller) >= at)
        .count();
    within_4_sigma(hits as f64 / f64::from(n), e.distribution.p_at_least(at), n);
    let err = parse(&["kind=damage", "blows=200", "crit_range=3"])
        .unwrap_err()
        .to_string();
    assert!(err.contains("too many for an exact distribution"), "{err}");
    assert!(err.contains("at most 28 here"), "{err}");
}

#[test]
fn docs_cover_every_option_and_field() {
    check_docs::<OpenRpg>();
    let mut s = alda();
    s.shield = 10;
    let back: FighterSpec = toml::from_str(&toml::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
}

#[test]
fn bad_values_are_errors_not_panics() {
    let g = OpenRpg::new(OpenRpgOptions::default()).unwrap();
    let mut s = alda();
    s.weapon.stats.crit_effect = "x0".into();
    assert!(g.compile("a", &s).is_err());
    let mut s = alda();
    s.weapon.stats.damage = "1d6-10".into();
    assert!(g.compile("a", &s).is_err());
    for (text, message) in [
        (
            "skill = 31",
            "31 is out of range: expected an integer from 0 to 30",
        ),
        (
            "health = 0",
            "0 is out of range: expected an integer from 1 to 10000",
        ),
        (
            "weapon = { damage = \"str+22\", cadence = 0 }",
            "0 is out of range: expected an integer from 1 to 10",
        ),
        (
            "armor = { dr = 101 }",
            "101 is out of range: expected an integer from 0 to 100",
        ),
    ] {
        let text = if text.starts_with("weapon") {
            text.to_string()
        } else {
            format!("weapon = \"longsword\"\n{text}")
        };
        let e = toml::from_str::<FighterSpec>(&text).unwrap_err();
        assert!(e.to_string().contains(message), "{text}: {e}");
    }
    assert!(
        OpenRpg::new(OpenRpgOptions {
            max_rounds: 0,
            ..Default::default()
        })
        .is_err()
    );
    assert!(toml::from_str::<FighterSpec>("weapon = \"club\"").is_err());
}

#[test]
fn full_dodge_lost_turn_stacks_with_owed_recovery() {
    // A fighter owing one recovery round who also lost a turn to a full dodge skips two turns
    // when the two stack (the default), one when they may coincide (the digest's G15 default).
    for (stacks, skipped) in [(true, 2), (false, 1)] {
        let g = OpenRpg::new(OpenRpgOptions {
            full_dodge_stacks_with_recovery: stacks,
            ..Default::default()
        })
        .unwrap();
        let a = g.compile("a", &alda()).unwrap();
        let m = forced(&g.matchup(&a, &a).unwrap(), true);
        let mut s = g.start(&m);
        s.round = 1;
        s.first = 1;
        s.acted = [true; 2];
        s.lost[0] = true;
        s.recovery[0] = 1;
        let mut count = 0;
        for _ in 0..4 {
            if s.lost[0] || s.recovery[0] > 0 {
                count += 1;
            }
            // A's turn (phase 1, A first): skipped while lost or recovering.
            s.phase = 1;
            let mut rng = stream(1, 0);
            let mut r = RngRoller::new(&mut rng);
            g.step(&m, &mut s, &mut r, &mut crate::NoTally);
        }
        assert_eq!(count, skipped, "stacks = {stacks}");
    }
}

#[test]
fn armour_agility_penalty_lowers_initiative() {
    let top = |f: &Fighter| f.init.iter().map(|x| x.0).max().unwrap();
    let mut s = alda();
    s.armor.stats.agility_penalty = 6;
    let g = OpenRpg::new(OpenRpgOptions {
        armour_agility: ArmourAgility::DodgeAndInitiative,
        ..Default::default()
    })
    .unwrap();
    let free = g.compile("a", &alda()).unwrap();
    let heavy = g.compile("b", &s).unwrap();
    assert_eq!(top(&free) - top(&heavy), 60);
    assert!(g.matchup(&free, &heavy).unwrap().first[0] > 0.99);
    // By default the penalty lowers the dodge only.
    let g = OpenRpg::new(OpenRpgOptions::default()).unwrap();
    let heavy = g.compile("b", &s).unwrap();
    assert_eq!(top(&heavy), top(&g.compile("a", &alda()).unwrap()));
}

#[test]
fn a_raised_stop_flag_ends_the_solve_without_an_answer() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let (g, m) = pair(OpenRpgOptions::default(), &alda(), &bram());
    let raised = Arc::new(AtomicBool::new(true));
    assert!(crate::solver::with_stop(raised, || g.exact(&m)).is_none());
    let lowered = Arc::new(AtomicBool::new(false));
    let solved = crate::solver::with_stop(lowered, || g.exact(&m)).unwrap();
    // Outside `with_stop` the request is gone and the answer is the same, bit for bit.
    assert_eq!(
        g.exact(&m).unwrap().p_a_win.to_bits(),
        solved.p_a_win.to_bits()
    );
}

/// The index the sampler took before `fighter::Cumulative`: the 48-bit draw `k` as a float
/// `u` and a binary search over the float sums.
fn float_pick(cum: &[f64], k: u64) -> usize {
    const SIDES: f64 = (1u64 << 24) as f64;
    let (hi, lo) = ((k >> 24) as f64, (k & 0xff_ffff) as f64);
    let u = (hi + lo / SIDES) / SIDES;
    cum.partition_point(|&c| c <= u).min(cum.len() - 1)
}

/// `c` and the draws at and around `c × 2^48`, every one of them below `2^48`.
fn near(c: f64) -> impl Iterator<Item = u64> {
    let at = (c * (1u64 << 48) as f64).floor() as i64;
    (at - 2..=at + 2).filter_map(|k| u64::try_from(k).ok().filter(|&k| k < 1 << 48))
}

/// Every turn table of every policy pair (both texts) and the initiative sums, plus sums with
/// zero-probability outcomes, repeats, a last sum short of 1 and sums on a guide boundary: the
/// integer search gives the float search's index for random draws and for the draws at and
/// next to every sum (where a rounding slip would show) and every guide slice's first draw.
#[test]
fn sampling_by_thresholds_finds_the_float_search_index() {
    let mut sums: Vec<Vec<f64>> = vec![
        vec![0.0, 0.0, 0.5, 0.5, 0.75, 1.0],
        vec![0.25, 0.5, 0.999_999_999],
        vec![1.0 / 256.0, 2.0 / 256.0, 0.1, 0.1 + 1e-15, 1.0],
        vec![1.0],
        vec![0.3, 0.3, 0.3, 1.0 + 1e-15],
    ];
    for (_, m) in policy_matchups() {
        sums.push(vec![m.first[0], 1.0]);
        for t in m.turns.iter().flatten().flatten() {
            // The sums as `Table::new` adds them.
            let mut acc = 0.0;
            sums.push(
                t.probs
                    .iter()
                    .map(|p| {
                        acc += p;
                        acc
                    })
                    .collect(),
            );
            let (want, got) = (&sums[sums.len() - 1], &t.cum);
            for k in want.iter().flat_map(|&c| near(c)) {
                assert_eq!(got.find(k).min(want.len() - 1), float_pick(want, k));
            }
        }
    }
    let mut rng = stream(9, 0);
    let mut draws = 0u64;
    for cum in &sums {
        let search = fighter::Cumulative::new(cum);
        let slices = (0..256u64).map(|b| b << 40);
        let random = (0..200).map(|_| rand_core::RngCore::next_u64(&mut rng) >> 16);
        let edges = [0, (1 << 48) - 1];
        for k in cum
            .iter()
            .flat_map(|&c| near(c))
            .chain(slices)
            .chain(random)
            .chain(edges)
        {
            assert_eq!(
                search.find(k).min(cum.len() - 1),
                float_pick(cum, k),
                "draw {k:#x} in {cum:?}"
            );
            draws += 1;
        }
    }
    assert!(sums.len() > 4_000 && draws > 1_000_000, "{} sums, {draws} draws", sums.len());
}

/// The engine's batches (`Ruleset::duels`, the stream copied into the loop's frame across the
/// batch) play the duels of one `duel` after another on the same stream and leave it in the
/// same state: every policy pair under both texts (450 matchups, 2,500 duels each, 1,125,000
/// in all).
#[test]
fn batches_play_the_duels_of_one_duel_after_another() {
    let fighters = policy_fighters();
    let mut duels = 0;
    for (i, o) in [OpenRpgOptions::default(), legacy()].into_iter().enumerate() {
        let g = OpenRpg::new(o).unwrap();
        let c: Vec<_> = fighters
            .iter()
            .map(|f| g.compile("f", f).unwrap())
            .collect();
        let mut batched = stream(11, i as u64);
        let mut single = batched.clone();
        let mut got = Vec::with_capacity(2_500);
        for a in &c {
            for b in &c {
                let m = g.matchup(a, b).unwrap();
                got.clear();
                g.duels(&m, &mut RngRoller::new(&mut batched), 2_500, |o: &crate::DuelOutcome| got.push(*o));
                for (k, got) in got.iter().enumerate() {
                    let want = g.duel(&m, &mut RngRoller::new(&mut single));
                    assert_eq!(*got, want, "duel {k}");
                }
                assert_eq!(batched, single, "a batch read other dice");
                duels += got.len();
            }
        }
    }
    assert_eq!(duels, 1_125_000);
}

/// The matchup's turn slots are the rules' own answers: for every policy pair (ambushes,
/// waiting) under both texts, rounds 1 to 5, either side first and both turns, the slot's side
/// is `order`'s, it acts iff `can_act` says so, and the defender's readiness is the matchup's.
#[test]
fn turn_slots_follow_order_and_the_ambush_rules() {
    let mut checked = 0;
    for (g, m) in policy_matchups() {
        for round in 1..=5u32 {
            for first in 1..=2u8 {
                let mut s = g.start(&m);
                (s.round, s.first) = (round, first);
                let order = duel::order(&m, &s);
                for (turn, &x) in order.iter().enumerate() {
                    let slot = m.slots[round.min(3) as usize - 1][usize::from(first - 1)][turn];
                    let y = 1 - x;
                    assert_eq!(usize::from(slot.x), x);
                    assert_eq!(slot.acts, duel::can_act(&m, x, round));
                    assert_eq!(slot.flat_footed, m.state[y] == Readiness::FlatFooted);
                    assert_eq!(
                        slot.off_guard,
                        m.state[y] == Readiness::CaughtOffGuard && round == 1
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 2 * 15 * 15 * 5 * 2 * 2);
}

// ----- issue 34: the fighter's choices and the readings as options -----

/// Exact P(A wins).
fn p_exact(o: &OpenRpgOptions, a: &FighterSpec, b: &FighterSpec) -> f64 {
    let (g, m) = pair(o.clone(), a, b);
    g.exact(&m).unwrap().p_a_win
}

/// Exact P(A wins), checked against 20,000 Monte Carlo duels within 4σ (seed `seed`).
fn p_checked(o: &OpenRpgOptions, a: &FighterSpec, b: &FighterSpec, seed: u64) -> f64 {
    let (g, m) = pair(o.clone(), a, b);
    let x = g.exact(&m).unwrap();
    let n = 20_000;
    let (p, _) = monte_carlo(&g, &m, n, seed);
    within_4_sigma(p, x.p_a_win, n);
    x.p_a_win
}

/// The issue's agile fighter: R1's Alda (agility 6, longsword, mail) with the dodge
/// discipline and a shield of `shield` %.
fn agile(shield: i32, defence: Defence) -> FighterSpec {
    let mut a = alda();
    a.dodge = true;
    a.shield = shield;
    a.defence = defence;
    a
}

#[test]
fn shield_or_dodge_is_chosen_per_attack_and_a_shield_never_hurts() {
    let o = OpenRpgOptions::default();
    let dodge_only = p_exact(&o, &agile(0, Defence::Best), &bram());
    println!("dodge only {dodge_only}");
    close(dodge_only, 0.882, 5e-4);
    // Always the shield (the old behaviour): a 10 % shield cost 19 points.
    let always = [10, 20].map(|s| p_exact(&o, &agile(s, Defence::Shield), &bram()));
    println!("always shield {always:?}");
    close(always[0], 0.694, 5e-4);
    close(always[1], 0.839, 5e-4);
    // Always the dodge: the shield is never used.
    for s in [10, 20] {
        close(p_exact(&o, &agile(s, Defence::Dodge), &bram()), dodge_only, 1e-12);
    }
    // The default picks the better method per attack roll: no shield makes the fighter worse,
    // and the choice beats both fixed methods.
    for (i, s) in [10, 20, 40].into_iter().enumerate() {
        let best = p_checked(&o, &agile(s, Defence::Best), &bram(), 340 + i as u64);
        println!("best {s}: {best}");
        assert!(best >= dodge_only - 1e-12, "{s} %: {best} < {dodge_only}");
        if i < 2 {
            assert!(best >= always[i] - 1e-12, "{s} %: {best} < {}", always[i]);
        }
    }
    // A shield-bearer without the dodge keeps the shield whatever the policy.
    let mut s20 = alda();
    s20.shield = 20;
    close(p_exact(&o, &s20, &bram()), 0.839, 5e-4);
}

#[test]
fn shield_and_dodge_per_attack_roll_match_monte_carlo() {
    let mut s20 = alda();
    s20.shield = 20;
    let attack = |f: fn(&mut OpenRpgOptions)| {
        let mut o = OpenRpgOptions::default();
        f(&mut o);
        o
    };
    let per_blow = p_exact(&OpenRpgOptions::default(), &s20, &bram());
    let o = attack(|o| o.shield_check = Scope::Attack);
    let per_attack = p_checked(&o, &s20, &bram(), 350);
    println!("shield per blow {per_blow} per attack {per_attack}");
    close(per_blow, 0.839, 5e-4);
    close(per_attack, 0.707, 5e-4);
    let per_blow = p_exact(&OpenRpgOptions::default(), &agile(0, Defence::Best), &bram());
    let o = attack(|o| o.dodge_roll = Scope::Attack);
    let per_attack = p_checked(&o, &agile(0, Defence::Best), &bram(), 351);
    println!("dodge per blow {per_blow} per attack {per_attack}");
    close(per_attack, 0.827, 5e-4);
    // A full dodger loses at most one turn per attack either way.
    let mut full = agile(0, Defence::Best);
    full.dodge_size = DodgeSize::Full;
    full.health = 40;
    p_checked(&o, &full, &bram(), 352);
}

/// The plate-armoured fighters of `scenarios/openrpg/joints-vs-plate.toml`.
fn plated(target: Target) -> FighterSpec {
    let mut f: FighterSpec = toml::from_str(
        r#"strength = 3
weapon = "longsword"
armor = { name = "plate", defense = 45, dr = 40 }"#,
    )
    .unwrap();
    f.target = target;
    f
}

#[test]
fn joint_penetration_cuts_defense_dr_or_both() {
    let mut got = Vec::new();
    for (k, cut) in [JointCut::Both, JointCut::Defense, JointCut::Dr]
        .into_iter()
        .enumerate()
    {
        let o = OpenRpgOptions {
            joint_penetration_cuts: cut,
            ..Default::default()
        };
        got.push(p_checked(
            &o,
            &plated(Target::Joints),
            &plated(Target::Opportune),
            360 + k as u64,
        ));
    }
    println!("joints {got:?}");
    close(got[0], 0.957, 5e-4);
    close(got[1], 0.660, 5e-4);
    close(got[2], 0.510, 5e-4);
}

#[test]
fn slow_weapons_cancel_per_step_or_the_whole_fraction() {
    assert_eq!(blows_in(32, 30, 2, true), blows_in(32, 30, 2, false));
    assert_eq!(blows_in(79, 30, 2, true), (2, 0));
    assert_eq!(blows_in(32, 30, 3, false), (1, 1));
    assert_eq!(blows_in(32, 30, 3, true), (1, 0));
    assert_eq!(blows_in(65, 30, 3, true), (2, 0));
    assert_eq!(blows_in(20, 30, 3, true), (1, 2));
    // An axe of strike 1/3 (Bram's spear, slowed) against Alda: the whole-fraction reading
    // lets it strike again next round far more often.
    let mut axe = bram();
    axe.weapon.stats.cadence = 3;
    axe.weapon.stats.damage = "3d10+60".into();
    let per_step = p_checked(&OpenRpgOptions::default(), &axe, &alda(), 370);
    let o = OpenRpgOptions {
        slow_weapons: SlowWeapons::WholeFraction,
        ..Default::default()
    };
    let whole = p_checked(&o, &axe, &alda(), 371);
    println!("slow per step {per_step} whole {whole}");
    assert!(whole - per_step > 0.02, "{per_step} vs {whole}");
}

#[test]
fn flat_footed_until_first_turn_or_initial_attack_only() {
    let mut victim = bram();
    victim.state = Readiness::FlatFooted;
    victim.dodge = true;
    victim.shield = 20;
    let mut got = Vec::new();
    for (k, (o, ff)) in [
        (OpenRpgOptions::default(), FlatFooted::Variant),
        (OpenRpgOptions::default(), FlatFooted::InitialAttack),
        (legacy(), FlatFooted::Variant),
        (legacy(), FlatFooted::UntilFirstTurn),
    ]
    .into_iter()
    .enumerate()
    {
        let o = OpenRpgOptions {
            flat_footed: ff,
            ..o
        };
        let (a, mut b) = if o.text_variant == TextVariant::Legacy {
            legacy_r1()
        } else {
            (alda(), bram())
        };
        b.state = victim.state;
        b.dodge = true;
        b.shield = 20;
        got.push(p_checked(&o, &a, &b, 380 + k as u64));
    }
    println!("flat footed {got:?}");
    // Primary defaults to until the first turn, legacy to the initial attack.
    assert!(got[0] - got[1] > 0.01, "{got:?}");
    assert!(got[3] - got[2] > 0.01, "{got:?}");
}

#[test]
fn armour_agility_penalty_lowers_initiative_only_when_asked() {
    let mut heavy = alda();
    heavy.armor.stats.agility_penalty = 3;
    let o = OpenRpgOptions::default();
    let base = p_exact(&o, &alda(), &bram());
    let dodge_only = p_checked(&o, &heavy, &bram(), 390);
    close(dodge_only, base, 1e-12);
    let o = OpenRpgOptions {
        armour_agility: ArmourAgility::DodgeAndInitiative,
        ..Default::default()
    };
    let both = p_checked(&o, &heavy, &bram(), 391);
    println!("agility penalty 2: {base} vs {both}");
    assert!(base - both > 0.01, "{base} vs {both}");
}

#[test]
fn built_in_weapons_carry_their_crit_range_per_draft() {
    let sword = <Weapon as crate::fields::Builtin>::by_name("longsword").unwrap();
    assert_eq!((sword.crit_range, sword.legacy_crit_range), (3, Some(17)));
    let spear = <Weapon as crate::fields::Builtin>::by_name("spear").unwrap();
    assert_eq!((spear.crit_range, spear.legacy_crit_range), (2, Some(19)));
    // A table based on a built-in keeps both ranges.
    let f: FighterSpec =
        toml::from_str("weapon = { name = \"longsword\", damage = \"str+30\" }").unwrap();
    assert_eq!(f.weapon.stats.legacy_crit_range, Some(17));
    // Each draft's test reads its own range: 15 % (d20 ≤ 3), 20 % (d20 ≥ 17).
    for (o, p) in [(OpenRpgOptions::default(), 0.15), (legacy(), 0.20)] {
        let g = OpenRpg::new(o).unwrap();
        close(g.compile("a", &alda()).unwrap().attack.crit, p, 1e-12);
    }
    // A table that changes a built-in's crit_range without legacy_crit_range wrote it for the
    // draft it plays (scenarios/openrpg/primary-vs-legacy.toml: 18 for the longsword).
    let f: FighterSpec =
        toml::from_str("weapon = { name = \"longsword\", crit_range = 18 }").unwrap();
    let g = OpenRpg::new(legacy()).unwrap();
    close(g.compile("a", &f).unwrap().attack.crit, 0.15, 1e-12);
    let f: FighterSpec = toml::from_str(
        "weapon = { name = \"longsword\", crit_range = 5, legacy_crit_range = 16 }",
    )
    .unwrap();
    close(g.compile("a", &f).unwrap().attack.crit, 0.25, 1e-12);
    // A custom weapon without legacy_crit_range is read as written under either test.
    let (a, _) = legacy_r1();
    let g = OpenRpg::new(legacy()).unwrap();
    close(g.compile("a", &a).unwrap().attack.crit, 0.15, 1e-12);
}

#[test]
fn legacy_reference_duel_with_built_in_weapons() {
    // Before: the built-in ranges 3 and 2 read as d20 ≥ 3 and ≥ 2 (90 % and 95 % crits) made
    // R1 0.989 under the legacy text. With each draft's range: the longsword's 17 is the
    // seed's own legacy range for its example weapon (20 % crits, not the 15 % of d20 ≤ 3),
    // so R1 is 0.739; with the converted 18 it is O19's 0.562852.
    let p = p_checked(&legacy(), &alda(), &bram(), 400);
    close(p, 0.739440, 5e-7);
    let mut a = alda();
    a.weapon.stats.legacy_crit_range = Some(18);
    close(p_exact(&legacy(), &a, &bram()), 0.562852, 5e-7);
}

/// Alda unarmoured.
fn bare() -> FighterSpec {
    let mut a = alda();
    a.armor = toml::from_str::<FighterSpec>("weapon = \"bow\"").unwrap().armor;
    a
}

/// Unarmoured Alda with the built-in bow (§Rate's example: rate 30, fire 1/2).
fn archer() -> FighterSpec {
    let mut a = bare();
    a.weapon = toml::from_str::<FighterSpec>("weapon = \"bow\"").unwrap().weapon;
    a
}

#[test]
fn duels_can_start_apart_with_closing_and_range_penalties() {
    let bow = &archer().weapon.stats;
    assert_eq!((bow.rate, bow.cadence, bow.class), (30, 2, WeaponClass::Missile));
    let apart = |d: i32| OpenRpgOptions {
        start_distance: d,
        ..Default::default()
    };
    // Engaged (today's only start): the bow fights the sword at contact.
    let engaged = p_exact(&OpenRpgOptions::default(), &archer(), &bare());
    // 100 yards apart: ten range steps (+1 per 5 yards beyond 50), the sword closes 10 yards a
    // turn while the archer shoots, and the archer acts first (agility + 3600 inches).
    let (_, m) = pair(apart(100), &archer(), &bare());
    assert_eq!((m.ranged[0].len(), m.ranged[1].len()), (10, 0));
    assert!(m.first[0] > 0.999_999);
    let hit = |t: &fighter::Table| {
        t.outcomes
            .iter()
            .zip(&t.probs)
            .filter(|(o, _)| o.hit)
            .map(|(_, p)| p)
            .sum::<f64>()
    };
    assert!(hit(&m.ranged[0][9][0][0]) < hit(&m.turns[0][0][0]) - 0.05);
    let mut got = Vec::new();
    for (k, d) in [30, 100].into_iter().enumerate() {
        got.push(p_checked(&apart(d), &archer(), &bare(), 410 + k as u64));
    }
    println!("bow vs sword: engaged {engaged}, apart {got:?}");
    assert!(
        got[0] > engaged + 0.02 && got[1] > engaged + 0.02,
        "{engaged} {got:?}"
    );
    // Legacy: a ready missile at twenty feet or more takes priority level 1.
    let (_, m) = pair(
        OpenRpgOptions {
            start_distance: 7,
            ..legacy()
        },
        &archer(),
        &alda(),
    );
    assert_eq!(m.first[0], 1.0);
    // Two swordsmen apart close on each other, then fight as if engaged.
    p_checked(&apart(25), &alda(), &bram(), 412);
}

#[test]
fn duels_apart_solve_alike_state_by_state_and_by_grid() {
    for (a, b) in [(archer(), bare()), (bare(), archer()), (archer(), archer())] {
        let o = OpenRpgOptions {
            start_distance: 80,
            max_rounds: 60,
            ..Default::default()
        };
        let (mut a, mut b) = (a, b);
        (a.health, b.health) = (40, 35);
        let (g, m) = pair(o, &a, &b);
        let states = duel::solve(&g, &m).unwrap();
        for fast in [g.exact(&m).unwrap(), super::grid::solve(&g, &m).unwrap()] {
            close(fast.p_a_win, states.p_a_win, 1e-9);
            close(fast.mean_rounds, states.mean_rounds, 1e-6);
        }
    }
}
