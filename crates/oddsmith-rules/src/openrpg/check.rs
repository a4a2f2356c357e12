//! Open RPG checks: a skill roll against a difficulty (§2.3 "roll their agility"), an attack roll
//! read as blows landed (§Rate, §Accuracy) and the damage of a sequence after armour (§Damage,
//! §Defense).

use oddsmith_dice::Dist;

use super::attack::{
    CritEffect, after_dr, blows, damage_dist, defense, is_crit, skill_dist, strength_dist, total_x2,
};
use super::OpenRpg;
use super::options::{OpenRpgOptions, SkillRoll, StrengthToken};
use crate::info::{Cond, Is, Requires, cond, refuse};
use crate::{Band, CheckExact, CheckParams, Roller, RulesError};

/// A parsed Open RPG check.
#[derive(Clone, Debug, PartialEq)]
pub enum OpenRpgCheck {
    /// Skill roll of trait `skill` against `dc` (success at ≥ dc).
    Skill {
        /// Trait value.
        skill: i32,
        /// Difficulty.
        dc: i64,
    },
    /// Attack roll of `skill` against `required`: blows landed (0 on a miss).
    Blows {
        /// Trait value.
        skill: i32,
        /// Weapon rate (0 = none).
        rate: i32,
        /// Cadence M.
        cadence: i32,
        /// Required roll.
        required: i64,
    },
    /// Final damage of `blows` landed blows after DR and defense.
    Damage {
        /// The damage distribution of the weapon.
        damage: Dist,
        /// Landed blows.
        blows: u32,
        /// Critical range.
        crit_range: i32,
        /// Critical effect.
        effect: CritEffect,
        /// DR in percent.
        dr: i64,
        /// Armour defense.
        defense: i64,
        /// Defender's strength.
        def_strength: i32,
        /// The exact distribution of the final damage, built when parsed (where the blows
        /// are too many for its integer weights the check is refused there).
        exact: Dist,
    },
}

crate::check_params! {
    /// The parameters of `oddsmith check openrpg`: accepted names and docs.
    pub mod params for OpenRpgCheck {
        "kind" => (
            "\"skill\"",
            "skill (roll against dc) | blows (attack roll → blows landed) | damage (a sequence's damage after armour)",
        ),
        "skill" => (
            "6",
            "trait value rolled (skill_roll), 0–30",
        ),
        "dc" => (
            "30",
            "kind=skill: difficulty, success at ≥ dc",
        ),
        "rate" => (
            "25",
            "kind=blows: weapon rate (0 = none)",
        ),
        "cadence" => (
            "1",
            "kind=blows: M of strike 1/M, 1–10",
        ),
        "required" => (
            "25",
            "kind=blows: required roll (5 × combat base + location)",
        ),
        "damage" => (
            "\"str+22\"",
            "kind=damage: the weapon's damage expression",
        ),
        "strength" => (
            "3",
            "kind=damage: attacker's strength (str)",
        ),
        "blows" => (
            "1",
            "kind=damage: blows landed, 0 to as many as kind=blows reports (301 under nd10); with a crit_range, as many as an exact distribution can hold",
        ),
        "crit_range" => (
            "0",
            "kind=damage: critical range (0 = none under at_most)",
        ),
        "crit" => (
            "\"x2\"",
            "kind=damage: critical effect x2 or +5",
        ),
        "dr" => (
            "0",
            "kind=damage: damage reduction in percent",
        ),
        "defense" => (
            "0",
            "kind=damage: armour defense",
        ),
        "def_strength" => (
            "0",
            "kind=damage: defender's strength (S d4 added to defense)",
        ),
    }
    requires = CHECK_REQUIRES;
}

const SKILL: &[Cond] = &[cond("kind", Is::OneOf(&["skill"]))];
const BLOWS: &[Cond] = &[cond("kind", Is::OneOf(&["blows"]))];
const DAMAGE: &[Cond] = &[cond("kind", Is::OneOf(&["damage"]))];

/// Each parameter is read by one kind of check; the others refuse it.
const CHECK_REQUIRES: &[Requires] = &[
    refuse("dc", SKILL, ""),
    refuse("rate", BLOWS, ""),
    refuse("cadence", BLOWS, ""),
    refuse("required", BLOWS, ""),
    refuse("damage", DAMAGE, ""),
    refuse("strength", DAMAGE, ""),
    refuse("blows", DAMAGE, ""),
    refuse("crit_range", DAMAGE, ""),
    refuse("crit", DAMAGE, ""),
    refuse("dr", DAMAGE, ""),
    refuse("defense", DAMAGE, ""),
    refuse("def_strength", DAMAGE, ""),
];

fn int(p: &CheckParams, k: &str, d: i64, lo: i64, hi: i64) -> Result<i64, RulesError> {
    let v = p.int_or(k, d)?;
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(RulesError::check(
            k,
            format!("{v} is out of range: expected {lo} to {hi}"),
        ))
    }
}

impl crate::Check<OpenRpg> for OpenRpgCheck {
    /// Parses `kind=skill|blows|damage` and its parameters.
    fn parse(rules: &OpenRpg, p: &CheckParams) -> Result<OpenRpgCheck, RulesError> {
        let o = rules.options();
        p.only(params::NAMES)?;
        let skill = int(p, "skill", 6, 0, 30)? as i32;
        match p.get("kind").unwrap_or("skill") {
            "skill" => Ok(OpenRpgCheck::Skill {
                skill,
                dc: int(p, "dc", 30, -1000, 100_000)?,
            }),
            "blows" => Ok(OpenRpgCheck::Blows {
                skill,
                rate: int(p, "rate", 25, 0, 1000)? as i32,
                cadence: int(p, "cadence", 1, 1, 10)? as i32,
                required: int(p, "required", 25, 0, 100_000)?,
            }),
            "damage" => {
                let strength = int(p, "strength", 3, 0, 30)? as i32;
                let expr = p.get("damage").unwrap_or("str+22");
                let damage = damage_dist(expr, strength, o.strength_token)
                    .map_err(|e| RulesError::check("damage", e.to_string()))?;
                let effect = CritEffect::parse(p.get("crit").unwrap_or("x2"))
                    .map_err(|e| RulesError::check("crit", e.to_string()))?;
                let blows = int(p, "blows", 1, 0, max_blows(o))? as u32;
                let crit_range = int(p, "crit_range", 0, 0, 20)? as i32;
                let dr = int(p, "dr", 0, 0, 100)?;
                let def = int(p, "defense", 0, 0, 10_000)?;
                let def_strength = int(p, "def_strength", 0, 0, 30)? as i32;
                let sd = strength_dist(o.strength_token, def_strength);
                let exact = |k| {
                    damage_exact(o, &damage, &sd, k, crit_range, effect, dr, def)
                };
                let Some(dist) = exact(blows) else {
                    let most = (0..blows).rev().find(|&k| exact(k).is_some()).unwrap_or(0);
                    return Err(RulesError::check(
                        "blows",
                        format!(
                            "{blows} blows with crit_range {crit_range}: too many for an exact \
                             distribution of these dice (at most {most} here; without a \
                             crit_range, any number up to {})",
                            max_blows(o)
                        ),
                    ));
                };
                Ok(OpenRpgCheck::Damage {
                    damage,
                    blows,
                    crit_range,
                    effect,
                    dr,
                    defense: def,
                    def_strength,
                    exact: dist,
                })
            }
            k => Err(RulesError::check(
                "kind",
                format!("{k:?}: expected skill, blows or damage"),
            )),
        }
    }

    /// The exact distribution of a check's result.
    fn exact(&self, rules: &OpenRpg) -> CheckExact {
        let (o, c) = (rules.options(), self);
        match c {
            OpenRpgCheck::Skill { skill, dc } => CheckExact {
                description: format!(
                    "skill {skill} ({}) against {dc}",
                    roll_name(o.skill_roll, *skill)
                ),
                distribution: skill_dist(o.skill_roll, *skill),
                success_at_least: *dc,
                bands: Vec::new(),
            },
            OpenRpgCheck::Blows {
                skill,
                rate,
                cadence,
                required,
            } => {
                let d = skill_dist(o.skill_roll, *skill);
                let w = d.iter().map(|(r, w)| {
                    let n = if r >= *required {
                        i64::from(blows(r, *rate, *cadence).0)
                    } else {
                        0
                    };
                    (n, w)
                });
                CheckExact {
                    description: format!(
                        "blows landed: {} against {required}, rate {rate}, strike 1/{cadence}",
                        roll_name(o.skill_roll, *skill)
                    ),
                    distribution: Dist::from_weights(w).expect("non-empty"),
                    success_at_least: 1,
                    bands: vec![
                        Band {
                            name: "miss".into(),
                            lo: None,
                            hi: Some(0),
                        },
                        Band {
                            name: "one blow".into(),
                            lo: Some(1),
                            hi: Some(1),
                        },
                        Band {
                            name: "several blows".into(),
                            lo: Some(2),
                            hi: None,
                        },
                    ],
                }
            }
            OpenRpgCheck::Damage {
                blows,
                dr,
                defense: def,
                def_strength,
                exact,
                ..
            } => {
                CheckExact {
                    description: format!(
                        "damage of {blows} landed blows after DR {dr} % and defense {def} + strength {def_strength}"
                    ),
                    distribution: exact.clone(),
                    success_at_least: 1,
                    bands: Vec::new(),
                }
            }
        }
    }

    /// Samples one check result through the roller: the dice the rules roll, in order.
    fn sample<R: Roller>(&self, rules: &OpenRpg, r: &mut R) -> i64 {
        let (o, c) = (rules.options(), self);
        match c {
            OpenRpgCheck::Skill { skill, .. } => roll_skill(o.skill_roll, *skill, r),
            OpenRpgCheck::Blows {
                skill,
                rate,
                cadence,
                required,
            } => {
                let v = roll_skill(o.skill_roll, *skill, r);
                if v >= *required {
                    i64::from(blows(v, *rate, *cadence).0)
                } else {
                    0
                }
            }
            OpenRpgCheck::Damage {
                damage,
                blows,
                crit_range,
                effect,
                dr,
                defense: def,
                def_strength,
                ..
            } => {
                let at_least = o.resolved().crit_at_least;
                let crits = (0..*blows)
                    .filter(|_| is_crit(r.roll(20), *crit_range, at_least))
                    .count();
                let b = sample_dist(damage, r);
                let t = total_x2(b, *blows, crits as u32, *effect, o.resolved().multiplier);
                let after = after_dr(t, dr * 100, o.dr_rounding);
                let s = match o.strength_token {
                    StrengthToken::Nd4 => (0..*def_strength).map(|_| i64::from(r.roll(4))).sum(),
                    StrengthToken::Flat => i64::from(*def_strength),
                };
                (after - defense(*def, 0, s, 0)).max(0)
            }
        }
    }
}

/// Integer weights of Bin(k, r/20) for c = 0..=k, over a total of 20^k.
fn crit_weights(k: u32, p20: u128) -> Option<Vec<u128>> {
    // Divided by their common factor gcd(p20, 20)^k, so no crit range (or all 20) costs
    // nothing however many blows.
    let g = (1..=20u128)
        .rev()
        .find(|g| p20 % g == 0 && 20 % g == 0)
        .unwrap_or(1);
    let (hit, miss) = (p20 / g, (20 - p20) / g);
    (0..=k)
        .map(|c| {
            if (hit == 0 && c > 0) || (miss == 0 && c < k) {
                return Some(0);
            }
            let mut comb = 1u128;
            for i in 0..c {
                comb = comb.checked_mul(u128::from(k - i))? / u128::from(i + 1);
            }
            comb.checked_mul(hit.checked_pow(c)?)?
                .checked_mul(miss.checked_pow(k - c)?)
        })
        .collect()
}

/// The most blows `kind=blows` can report: the highest roll of trait 30 at rate 1, plus one.
fn max_blows(o: &OpenRpgOptions) -> i64 {
    skill_dist(o.skill_roll, 30).max() + 1
}

/// The exact distribution of the final damage of `blows` landed blows (the dice of
/// [`OpenRpgCheck::sample`]), or `None` where its integer weights would overflow.
#[allow(clippy::too_many_arguments)]
fn damage_exact(
    o: &OpenRpgOptions,
    damage: &Dist,
    sd: &Dist,
    blows: u32,
    crit_range: i32,
    effect: CritEffect,
    dr: i64,
    def: i64,
) -> Option<Dist> {
    let cw = crit_weights(blows, crit20(o, crit_range))?;
    let r = o.resolved();
    let mut pairs = Vec::new();
    for (b, wb) in damage.iter() {
        for (c, &wc) in cw.iter().enumerate() {
            if wc == 0 {
                continue;
            }
            let t = total_x2(b, blows, c as u32, effect, r.multiplier);
            let after = after_dr(t, dr * 100, o.dr_rounding);
            for (s, ws) in sd.iter() {
                let fin = (after - defense(def, 0, s, 0)).max(0);
                pairs.push((fin, wb.checked_mul(wc)?.checked_mul(ws)?));
            }
        }
    }
    Dist::from_weights(pairs).ok()
}

fn crit20(o: &OpenRpgOptions, range: i32) -> u128 {
    (1..=20u32)
        .filter(|&d| is_crit(d, range, o.resolved().crit_at_least))
        .count() as u128
}

fn roll_name(m: SkillRoll, n: i32) -> String {
    match m {
        SkillRoll::Nd10 => format!("{n}d10"),
        SkillRoll::Nd4 => format!("{n}d4"),
        SkillRoll::D100PlusN => format!("1d100+{n}"),
    }
}

/// Rolls a trait through the roller.
pub fn roll_skill<R: Roller>(m: SkillRoll, n: i32, r: &mut R) -> i64 {
    match m {
        SkillRoll::Nd10 => (0..n).map(|_| i64::from(r.d10())).sum(),
        SkillRoll::Nd4 => (0..n).map(|_| i64::from(r.roll(4))).sum(),
        SkillRoll::D100PlusN => i64::from(r.roll(100)) + i64::from(n),
    }
}

/// Samples a value of an exact distribution (small totals only) through the roller.
fn sample_dist<R: Roller>(d: &Dist, r: &mut R) -> i64 {
    let total = d.total();
    let mut u = if total <= u128::from(u32::MAX) {
        u128::from(r.roll(total as u32) - 1)
    } else {
        // Two draws (the totals here are far below 2^64).
        (u128::from(r.roll(u32::MAX) - 1) * u128::from(u32::MAX) + u128::from(r.roll(u32::MAX) - 1))
            % total
    };
    for (v, w) in d.iter() {
        if u < w {
            return v;
        }
        u -= w;
    }
    d.max()
}
