//! Draft checks: `d10 + skill + modifiers ≥ TN` (§3.10) and opposed attack vs defence (§4.18).

use oddsmith_dice::Dist;

use super::Draft;
use super::tables::normalise;
use crate::{Band, CheckExact, CheckParams, Roller, RulesError};

/// The nine difficulty levels of §3.10, two points apart, Normal = TN 10.
pub const DIFFICULTIES: [(&str, i64); 9] = [
    ("extremely easy", 4),
    ("very easy", 6),
    ("easy", 8),
    ("normal", 10),
    ("hard", 12),
    ("very hard", 14),
    ("extremely hard", 16),
    ("exceptional hard", 18),
    ("beyond imagination", 20),
];

/// TN of a named difficulty level.
pub fn difficulty_tn(name: &str) -> Option<i64> {
    let n = normalise(name).replace("exceptionally", "exceptional");
    DIFFICULTIES
        .iter()
        .find(|(d, _)| *d == n)
        .map(|&(_, tn)| tn)
}

/// A parsed Draft check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DraftCheck {
    /// `d10 + value ≥ tn`, `value` = skill (or attribute) + modifiers.
    Simple {
        /// Skill plus modifiers.
        value: i64,
        /// Target number.
        tn: i64,
    },
    /// Opposed roll: the attack hits iff `attack + d10 > defence + d10` (ties to the defender).
    Opposed {
        /// Attack skill plus modifiers.
        attack: i64,
        /// Defence skill plus modifiers.
        defence: i64,
    },
}

crate::check_params! {
    /// The parameters of `oddsmith check draft`: accepted names and docs.
    pub mod params for DraftCheck {
        "skill" => (
            "0",
            "skill (or attribute, for rolls against CON/WIL) of the acting character",
        ),
        "modifier" => (
            "0",
            "sum of bonuses and penalties on the roll",
        ),
        "difficulty" => (
            "normal",
            "extremely_easy (TN 4), very_easy (6), easy (8), normal (10), hard (12), very_hard (14), extremely_hard (16), exceptional_hard (18), beyond_imagination (20) (§3.10)",
        ),
        "tn" => (
            "10",
            "target number, instead of difficulty",
        ),
        "attack" => (
            "—",
            "opposed check: attack skill + modifiers; the margin is reported, hit iff > 0",
        ),
        "defence" | "defense" => (
            "—",
            "opposed check: defence skill + modifiers (ties go to the defender)",
        ),
    }
}

impl crate::Check<Draft> for DraftCheck {
    /// Parses `skill=5 difficulty=hard modifier=-1` or `attack=6 defence=6`.
    fn parse(_rules: &Draft, p: &CheckParams) -> Result<DraftCheck, RulesError> {
        p.only(params::NAMES)?;
        for k in ["skill", "modifier", "tn", "attack", "defence", "defense"] {
            if !(-1000..=1000).contains(&p.int_or(k, 0)?) {
                return Err(RulesError::check(k, "expected a number from -1000 to 1000"));
            }
        }
        let modifier = p.int_or("modifier", 0)?;
        if p.get("attack").is_some() || p.get("defence").is_some() || p.get("defense").is_some() {
            for k in ["skill", "difficulty", "tn"] {
                if p.get(k).is_some() {
                    return Err(RulesError::check(
                        k,
                        "not used by an opposed check (attack=…, defence=…)",
                    ));
                }
            }
            let attack = p.int_or("attack", 0)? + modifier;
            let defence = match p.get("defence") {
                Some(_) => p.int_or("defence", 0)?,
                None => p.int_or("defense", 0)?,
            };
            return Ok(DraftCheck::Opposed { attack, defence });
        }
        let tn = match (p.get("difficulty"), p.get("tn")) {
            (Some(_), Some(_)) => {
                return Err(RulesError::check("tn", "give difficulty or tn, not both"));
            }
            (Some(d), None) => difficulty_tn(d).ok_or_else(|| {
                let names: Vec<_> = DIFFICULTIES.iter().map(|d| d.0.replace(' ', "_")).collect();
                RulesError::check(
                    "difficulty",
                    format!("unknown level {d:?}; expected one of: {}", names.join(", ")),
                )
            })?,
            (None, Some(_)) => p.int_or("tn", 10)?,
            (None, None) => 10,
        };
        Ok(DraftCheck::Simple {
            value: p.int_or("skill", 0)? + modifier,
            tn,
        })
    }

    /// The exact distribution of a check.
    fn exact(&self, _rules: &Draft) -> CheckExact {
        let c = self;
        let d10 = Dist::die(10);
        match *c {
            DraftCheck::Simple { value, tn } => CheckExact {
                description: format!("d10 + {value} ≥ {tn}"),
                distribution: d10.shift(value),
                success_at_least: tn,
                bands: vec![
                    band("catastrophic", None, Some(tn - 5)),
                    band("fail", Some(tn - 4), Some(tn - 1)),
                    band("success", Some(tn), Some(tn + 4)),
                    band("exceptional", Some(tn + 5), None),
                ],
            },
            DraftCheck::Opposed { attack, defence } => CheckExact {
                description: format!(
                    "attack d10 + {attack} vs defence d10 + {defence}: margin, hit iff > 0"
                ),
                distribution: d10
                    .shift(attack)
                    .convolve(&d10.shift(defence).negate())
                    .expect("two d10 cannot overflow"),
                success_at_least: 1,
                bands: vec![band("blocked", None, Some(0)), band("hit", Some(1), None)],
            },
        }
    }

    /// One sampled result of a check (same scale as [`exact`]).
    fn sample<R: Roller>(&self, _rules: &Draft, roller: &mut R) -> i64 {
        let c = self;
        match *c {
            DraftCheck::Simple { value, .. } => value + i64::from(roller.d10()),
            DraftCheck::Opposed { attack, defence } => {
                let a = attack + i64::from(roller.d10());
                a - (defence + i64::from(roller.d10()))
            }
        }
    }
}

fn band(name: &str, lo: Option<i64>, hi: Option<i64>) -> Band {
    Band {
        name: name.into(),
        lo,
        hi,
    }
}
