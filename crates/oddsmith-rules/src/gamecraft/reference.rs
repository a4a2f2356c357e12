//! Non-duel rules as pure functions: derived attributes, wound levels, creation and XP costs,
//! bleeding, healing, diceless resolution, range, automatic fire, cooperation, explosions.
//! Each is tested against the seed's worked examples (digest §7 W1–W15, O9, O10).

use std::collections::BTreeMap;

use oddsmith_dice::Dist;

use super::options::{BlastRounding, BonusAllocation, ExplodeMode};
use super::tables::{Distance, die_dist};

/// Derived attributes («Derived Attributes»), each the sum of two primaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Derived {
    /// STR + CON.
    pub health: i32,
    /// INT + PER.
    pub savvy: i32,
    /// BEA + PERS.
    pub charm: i32,
    /// PRO + SPI.
    pub grace: i32,
    /// CON + SPI.
    pub power: i32,
    /// STR + SPI.
    pub fatigue: i32,
    /// PRO + PER.
    pub initiative: i32,
    /// STR + PRO (feet per round).
    pub move_: i32,
}

/// The eight primaries in seed order: STR, CON, PRO, BEA, INT, SPI, PER, PERS.
pub fn derived(a: [i32; 8]) -> Derived {
    let [s, c, pro, bea, int, spi, per, pers] = a;
    Derived {
        health: s + c,
        savvy: int + per,
        charm: bea + pers,
        grace: pro + spi,
        power: c + spi,
        fatigue: s + spi,
        initiative: pro + per,
        move_: s + pro,
    }
}

/// Base and bonus wound points for a Health score («Wound Levels» table): base =
/// max(1, Health/6), bonus = max(0, Health − 6·base).
pub fn wound_points(health: i32) -> (i32, i32) {
    let base = (health / 6).max(1);
    (base, (health - 6 * base).max(0))
}

/// Points in each of the six wound levels (Healthy … Incapacitated) under an allocation (G7).
pub fn wound_levels(health: i32, alloc: BonusAllocation) -> [i32; 6] {
    let (base, mut bonus) = wound_points(health);
    let mut lv = [base; 6];
    match alloc {
        BonusAllocation::RoundRobin => {
            let mut i = 0;
            while bonus > 0 {
                if lv[i] - base < 2 {
                    lv[i] += 1;
                    bonus -= 1;
                }
                i = (i + 1) % 6;
            }
        }
        BonusAllocation::FrontLoaded => {
            for l in &mut lv {
                let add = bonus.min(2);
                *l += add;
                bonus -= add;
            }
        }
    }
    lv
}

/// Checks an explicit allocation: each level holds base..=base+2 and the total is
/// max(Health, 6).
pub fn check_wound_levels(health: i32, lv: &[i32]) -> Result<[i32; 6], String> {
    let (base, bonus) = wound_points(health);
    let arr: [i32; 6] = lv
        .try_into()
        .map_err(|_| format!("expected 6 levels, got {}", lv.len()))?;
    if arr.iter().any(|&l| !(base..=base + 2).contains(&l)) {
        return Err(format!(
            "each level holds {base} base points plus at most 2 bonus points (Health {health})"
        ));
    }
    if arr.iter().sum::<i32>() != 6 * base + bonus {
        return Err(format!(
            "the levels must add up to {} (Health {health})",
            6 * base + bonus
        ));
    }
    Ok(arr)
}

/// Cumulative damage at which each status begins: Injured, Wounded, Badly Wounded,
/// Critically Wounded, Incapacitated, Dead (digest O9).
pub fn thresholds(lv: [i32; 6]) -> [i32; 6] {
    let mut c = [0; 6];
    let mut s = 0;
    for (i, l) in lv.iter().enumerate() {
        s += l;
        c[i] = s;
    }
    c
}

/// Status after `damage` points: 0 Healthy … 5 Incapacitated, 6 Dead.
pub fn status(cum: &[i32; 6], damage: i32) -> usize {
    cum.iter().filter(|&&c| damage >= c).count()
}

/// Names of the statuses 0–6.
pub const STATUS_NAMES: [&str; 7] = [
    "Healthy",
    "Injured",
    "Wounded",
    "Badly Wounded",
    "Critically Wounded",
    "Incapacitated",
    "Dead",
];

/// XP to raise an attribute to `new` (3 × the new score).
pub fn xp_attribute(new: i32) -> i32 {
    3 * new
}
/// XP to raise a general skill to `new` (2 × the new level).
pub fn xp_general(new: i32) -> i32 {
    2 * new
}
/// XP to raise a specialization to `new` (the new effective level).
pub fn xp_specialization(new: i32) -> i32 {
    new
}

/// Splits "General (Spec)" into ("General", Some("Spec")).
pub fn split_skill(name: &str) -> (String, Option<String>) {
    let n = name.trim();
    match n.split_once('(') {
        Some((g, rest)) => (
            g.trim().to_string(),
            Some(rest.trim_end_matches(')').trim().to_string()),
        ),
        None => (n.to_string(), None),
    }
}

fn key(name: &str) -> String {
    let k = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase();
    // The seed names the same specialization "Unarmed Combat" (skill table) and "Unarmed"
    // (non-lethal combat): both spellings are one skill.
    k.replace("(unarmed)", "(unarmed combat)")
}

/// Refuses a skill whose general name is a near miss of one the duel reads ("Melee Combt" for
/// "Melee Combat"): it would silently count as untrained. Other names (skills the duel does not
/// read, such as "Stealth") are kept for the character's cost.
pub fn check_skill_names(
    skills: &BTreeMap<String, i32>,
    weapon_skill: &str,
) -> Result<(), crate::RulesError> {
    let read: Vec<String> = super::tables::WEAPONS
        .iter()
        .map(|w| w.4)
        .chain([weapon_skill, "Combat Defense", "Medicine"])
        .map(|s| split_skill(s).0)
        .collect();
    for name in skills.keys() {
        let general = split_skill(name).0;
        let k = key(&general);
        if read.iter().any(|r| key(r) == k) {
            continue;
        }
        let near = read
            .iter()
            .map(|r| (strsim::osa_distance(&key(r), &k), r))
            .filter(|&(d, _)| d <= (k.len() / 4).clamp(1, 2))
            .min_by_key(|&(d, _)| d);
        if let Some((_, r)) = near {
            return Err(crate::RulesError::field(
                format!("skills.{name}"),
                format!(
                    "unknown skill {general:?}; did you mean {r:?}? (a misspelt skill counts as untrained)"
                ),
            ));
        }
    }
    Ok(())
}

/// Effective level of a skill (G22): for "General (Spec)" the higher of the general skill and
/// the specialization; unlisted skills are 0 (untrained).
pub fn skill_level(skills: &BTreeMap<String, i32>, name: &str) -> i32 {
    let lookup = |n: &str| {
        let k = key(n);
        skills
            .iter()
            .find(|(s, _)| key(s) == k)
            .map_or(0, |(_, &v)| v)
    };
    let (general, spec) = split_skill(name);
    match spec {
        Some(_) => lookup(&general).max(lookup(name)),
        None => lookup(name),
    }
}

/// Creation and advancement cost of a character (digest §3.4, §3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    /// Attribute points (budget 45).
    pub attribute_points: i32,
    /// Skill points (budget 25): general levels plus specialization levels above the general.
    pub skill_points: i32,
    /// Highest skill level (starting characters: at most 8, Advanced).
    pub max_skill: i32,
    /// XP to build the character from all attributes 1 and no skills.
    pub xp_from_minimum: i32,
}

/// The cost of attributes `a` and `skills`.
pub fn cost(a: [i32; 8], skills: &BTreeMap<String, i32>) -> Cost {
    let mut xp = 0;
    for &v in &a {
        xp += (2..=v).map(xp_attribute).sum::<i32>();
    }
    let mut sp = 0;
    let mut max_skill = 0;
    for (name, &lvl) in skills {
        let (general, spec) = split_skill(name);
        if spec.is_some() {
            let g = skill_level(skills, &general);
            sp += (lvl - g).max(0);
            xp += (g + 1..=lvl).map(xp_specialization).sum::<i32>();
            max_skill = max_skill.max(lvl.max(g));
        } else {
            sp += lvl;
            xp += (1..=lvl).map(xp_general).sum::<i32>();
            max_skill = max_skill.max(lvl);
        }
    }
    Cost {
        attribute_points: a.iter().sum(),
        skill_points: sp,
        max_skill,
        xp_from_minimum: xp,
    }
}

/// Stop-bleeding TN: wound levels lost + 5 («Bleeding»).
pub fn stop_bleeding_tn(levels_lost: i32) -> i32 {
    levels_lost + 5
}

/// The stop-bleeding TN with another base (option `stop_bleed_tn_base`).
pub fn stop_bleeding_tn_from(levels_lost: i32, base: i32) -> i32 {
    levels_lost + base
}

/// Minutes of bed rest from `status` (1 Injured … 5 Incapacitated; 0 = Healthy with points
/// lost) back to full health with Constitution `con` («Healing»). INTERPRETATION: a month is
/// 30 days. Without rest and care, double it.
pub fn healing_minutes(status: usize, con: i32) -> i64 {
    const H: i64 = 60;
    const D: i64 = 24 * H;
    let con = i64::from(con);
    // Time to heal one level from each status, Constitution in hours or days.
    let step = [
        1,
        2 * D - con * H,
        5 * D - con * H,
        14 * D - con * D,
        30 * D - con * D,
        42 * D - con * D,
    ];
    step[..=status.min(5)].iter().map(|&m| m.max(0)).sum()
}

/// Settle: the die counts as 0 («Diceless Resolution»).
pub fn settle(base: i32) -> i32 {
    base
}

/// Focus: the round at which a focused attempt succeeds, attempts taking `per` rounds, under
/// the digest's reading that the attempt ending at round `per·j` gets +j (W5). `Some(0)` if
/// settling already succeeds; `None` if settling would fumble (no focusing).
pub fn focus_success_round(base: i32, tn: i32, per: i32) -> Option<i32> {
    if base <= tn - 10 {
        None
    } else if base >= tn {
        Some(0)
    } else {
        Some(per * (tn - base))
    }
}

/// Defense score: Prowess + Combat Defense (effective), + `full_dodge_bonus` when
/// full-dodging (pass 0 otherwise; the option's default is 10).
pub fn defense_score(prowess: i32, combat_defense: i32, full_dodge_bonus: i32) -> i32 {
    prowess + combat_defense + full_dodge_bonus
}

/// The ranged attack TN: defense + the distance modifier, doubled beyond the weapon's Range.
pub fn ranged_tn(defense: i32, distance: Distance, weapon_range: Distance) -> i32 {
    let m = distance.tn_modifier();
    defense + if distance > weapon_range { 2 * m } else { m }
}

/// Burst damage bonus: ×1.5 rounded up.
pub fn burst_bonus(b: i32) -> i32 {
    (3 * b + 1).div_euclid(2)
}
/// Controlled-spray damage bonus: ×3.
pub fn spray_bonus(b: i32) -> i32 {
    3 * b
}

/// Explosion TN to move one range out («Explosions» table); `area` 0 small, 1 medium,
/// 2 large; `range` 0 short, 1 medium, 2 long.
pub fn explosion_tn(area: usize, range: usize) -> i32 {
    [[16, 18, 20], [12, 16, 19], [8, 14, 18]][range.min(2)][area.min(2)]
}

/// Explosion damage at a range (full, half, quarter), rounded down (digest §2.9).
pub fn explosion_damage(full: i32, range: usize) -> i32 {
    full >> range.min(2)
}

/// Blast damage `raw × fraction`, rounded as `rounding` says (the seed does not say; §2.9),
/// never below 0. With the default fractions every result is exact in binary.
pub fn blast_damage(raw: i32, fraction: f64, rounding: BlastRounding) -> i32 {
    let v = f64::from(raw.max(0)) * fraction;
    let r = match rounding {
        BlastRounding::Down => v.floor(),
        BlastRounding::Up => v.ceil(),
        BlastRounding::Nearest => (v + 0.5).floor(),
    };
    r as i32
}

/// The avoidance roll's outcome («Explosions»): Range levels moved out (0, 1 or 2) and
/// whether it was a critical failure (no move, no Constitution against the blast).
pub fn avoid_outcome(total: i32, tn: i32, crit_margin: i32, fumble_margin: i32) -> (u8, bool) {
    if total - tn >= crit_margin {
        (2, false)
    } else if total >= tn {
        (1, false)
    } else {
        (0, tn - total >= fumble_margin)
    }
}

/// One cooperation helper against TN 10: (P(success), P(critical), E[bonus]) with +1 per
/// success and +3 per critical.
pub fn cooperation(base: i64, mode: ExplodeMode) -> (f64, f64, f64) {
    let d = die_dist(mode).shift(base);
    let ps = d.p_at_least(10);
    let pc = d.p_at_least(20);
    (ps, pc, (ps - pc) + 3.0 * pc)
}

/// Grace spend cap: no more points than levels in the skill («Skill Categories»).
pub fn pool_cap(skill: i32, pool: i32) -> i32 {
    skill.min(pool).max(0)
}

/// The distribution of a check total `base + die`.
pub fn check_dist(base: i64, mode: ExplodeMode) -> Dist {
    die_dist(mode).shift(base)
}
