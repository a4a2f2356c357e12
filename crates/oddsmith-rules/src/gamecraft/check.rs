//! Gamecraft checks: `die + attribute + skill + pool points + modifier` against a TN with four
//! success levels («Levels Of Success And Failure»), opposed checks («Opposed Checks»), an
//! attack against a static defense, a dodge or a full dodge («Defense»), damage against
//! resistance («Damage»), blast avoidance («Explosions»), and the leader's check with
//! helpers («Cooperation»), settling and focusing («Diceless Resolution») as `kind=…`.

use oddsmith_dice::Dist;

use super::Gamecraft;
use super::options::{ExplodeMode, GamecraftOptions, OpposedTie};
use super::reference::explosion_tn;
use super::tables::{self, DIFFICULTIES, die_dist, gc_die};
use crate::{Band, CheckExact, CheckParams, Roller, RulesError};

/// A parsed Gamecraft check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GamecraftCheck {
    /// `die + base ≥ tn`; the result is the total.
    Simple {
        /// Attribute + skill + pool points + modifier.
        base: i64,
        /// Target number.
        tn: i64,
        /// The named difficulty level the TN stands for, when the check names one
        /// (`difficulty=…`): its label, since a TN may lie in two bands («Skill Checks»:
        /// Heroic 26–30, Nigh Impossible 30+).
        level: Option<&'static str>,
    },
    /// Opposed: result `(a + die) − (b + die)`; A wins on > 0, tie on 0.
    Opposed {
        /// A's base.
        a: i64,
        /// B's base.
        b: i64,
    },
    /// Attack against an active dodge: result `(attack + die) − (defense + die)`; hit on ≥ 0.
    Dodge {
        /// Attack base.
        attack: i64,
        /// Static defense score.
        defense: i64,
    },
    /// Damage `max(0, damage + die)` minus resistance `max(0, resist + die)` (or only
    /// `damage` when `resist` is absent), floored at 0.
    Damage {
        /// Damage base (attribute + weapon).
        damage: i64,
        /// Resistance base (Constitution + armour), if the target resists.
        resist: Option<i64>,
    },
    /// Blast avoidance («Explosions»): `die + base` against the TN of the device's Area at the
    /// target's Range; the result is the total, the bands say where the target ends up.
    Explosion {
        /// Attribute + skill + pool points + modifier.
        base: i64,
        /// Area: 0 Small, 1 Medium, 2 Large.
        area: u8,
        /// The target's Range in the blast: 0 Short, 1 Medium, 2 Long.
        range: u8,
    },
    /// «Cooperation»: the leader's `die + base` plus every helper's bonus (`coop_bonus` for a
    /// success against `coop_tn`, `coop_crit_bonus` for a critical), against `tn`; the result
    /// is the leader's total.
    Cooperation {
        /// The leader's attribute + skill + pool points + modifier.
        base: i64,
        /// Target number.
        tn: i64,
        /// Each helper's attribute + skill.
        helper: i64,
        /// Number of helpers.
        helpers: u8,
    },
    /// «Diceless Resolution», settle: the die counts as 0; the result is `base`.
    Settle {
        /// Attribute + skill + pool points + modifier.
        base: i64,
        /// Target number.
        tn: i64,
    },
    /// «Diceless Resolution», focus: settle again and again, +1 per time increment past the
    /// first; the result is the round of success (0: settling succeeds), or −1 when settling
    /// would fumble (no focusing).
    Focus {
        /// Attribute + skill + modifier.
        base: i64,
        /// Target number.
        tn: i64,
        /// Rounds one attempt takes.
        per: i64,
    },
}

crate::check_params! {
    /// The parameters of `oddsmith check gamecraft`: accepted names and docs.
    pub mod params for GamecraftCheck {
        "kind" => (
            "from the parameters",
            "skill | opposed (a=, b=) | attack (attack=) | damage (damage=) | explosion (explosion=) | cooperation (a leader with helpers=, «Cooperation») | settle (die = 0) | focus (settle until success, +1 per increment; result = rounds, −1 = cannot focus); without kind, the parameters decide",
        ),
        "helpers" => (
            "1",
            "kind=cooperation: helpers, 0–10, each rolling helper + die against coop_tn (+coop_bonus, critical +coop_crit_bonus)",
        ),
        "helper" => (
            "attribute + skill",
            "kind=cooperation: each helper's attribute + skill (the seed: the leader's combination)",
        ),
        "per" => (
            "1",
            "kind=focus: rounds one attempt takes, 1–100 (the GM's time increment)",
        ),
        "attribute" => (
            "0",
            "skill check: attribute score",
        ),
        "skill" => (
            "0",
            "skill check: skill level (0 = untrained); attack check: the weapon skill's level, which caps pool (already in attack)",
        ),
        "pool" => (
            "0",
            "Savvy/Charm/Grace points spent, +1 each, at most the skill level (attack checks: give skill=…, the weapon skill's level)",
        ),
        "modifier" => (
            "0",
            "sum of bonuses and penalties",
        ),
        "difficulty" => (
            "moderate",
            "very_easy (3), easy (8), moderate (13), difficult (18), very_difficult (22), heroic (28), nigh_impossible (30); the TNs of the option difficulty_tns",
        ),
        "tn" => (
            "13",
            "target number, instead of difficulty",
        ),
        "a" => (
            "—",
            "opposed check: A's base (result = A − B total; ties per the opposed_tie option)",
        ),
        "b" => (
            "—",
            "opposed check: B's base",
        ),
        "attack" => (
            "—",
            "attack check: attack base (attribute + skill + modifiers)",
        ),
        "defense" | "defence" => (
            "0",
            "attack check: static defense score (Prowess + Combat Defense + range)",
        ),
        "dodge" => (
            "none",
            "attack check: none | dodge (defender rolls the die too; hit on ≥) | full (+full_dodge_bonus, 10)",
        ),
        "damage" => (
            "—",
            "damage check: damage base (attribute + weapon)",
        ),
        "resist" => (
            "—",
            "damage check: resistance base (Constitution + armour); omit for raw damage",
        ),
        "explosion" => (
            "—",
            "blast-avoidance check: the device's Area, small | medium | large (with attribute, skill, pool, modifier: e.g. Prowess and Combat Defense (Explosives))",
        ),
        "range" => (
            "short",
            "blast-avoidance check: the target's Range in the blast, short | medium | long",
        ),
    }
}

impl crate::Check<Gamecraft> for GamecraftCheck {
    /// Parses check parameters (see [`params`]).
    fn parse(rules: &Gamecraft, p: &CheckParams) -> Result<GamecraftCheck, RulesError> {
        let o = rules.options();
        p.only(params::NAMES)?;
        let kind = p.get("kind").map(tables::normalise);
        match kind.as_deref() {
            Some(k @ ("cooperation" | "settle" | "focus")) => return parse_diceless(o, p, k),
            None | Some("skill" | "opposed" | "attack" | "damage" | "explosion") => {}
            Some(k) => {
                return Err(RulesError::check(
                    "kind",
                    format!(
                        "{k:?}: expected skill, opposed, attack, damage, explosion, cooperation, settle or focus"
                    ),
                ));
            }
        }
        let c = parse_rolled(o, p)?;
        let is = match &c {
            GamecraftCheck::Opposed { .. } => "opposed",
            GamecraftCheck::Damage { .. } => "damage",
            GamecraftCheck::Explosion { .. } => "explosion",
            GamecraftCheck::Dodge { .. } => "attack",
            GamecraftCheck::Simple { .. } if p.get("attack").is_some() => "attack",
            _ => "skill",
        };
        match kind {
            Some(k) if k != is => Err(RulesError::check(
                "kind",
                format!("kind={k} but the parameters make a {is} check"),
            )),
            _ => Ok(c),
        }
    }

    /// The exact distribution of a check.
    fn exact(&self, rules: &Gamecraft) -> CheckExact {
        let (o, c) = (rules.options(), self);
        let x = die_dist(o.explode_mode);
        let (cm, fm) = (i64::from(o.crit_margin), i64::from(o.fumble_margin));
        match *c {
            GamecraftCheck::Simple { base, tn, level } => CheckExact {
                description: format!(
                    "1d6−1 ({} explosion) + {base} ≥ TN {tn} ({})",
                    match o.explode_mode {
                        ExplodeMode::Limited => "limited",
                        ExplodeMode::Unlimited => "unlimited",
                        ExplodeMode::None => "no",
                    },
                    level.unwrap_or_else(|| tables::difficulty_of(tn))
                ),
                distribution: x.shift(base),
                success_at_least: tn,
                bands: levels(o, tn),
            },
            GamecraftCheck::Cooperation {
                base,
                tn,
                helper,
                helpers,
            } => CheckExact {
                description: format!(
                    "cooperation: leader 1d6−1 + {base} + the bonuses of {helpers} helper(s) (each {helper} + die against TN {}: +{}, critical +{}) ≥ TN {tn}",
                    o.coop_tn, o.coop_bonus, o.coop_crit_bonus
                ),
                distribution: coop_dist(o, base, helper, helpers).expect("checked when parsed"),
                success_at_least: tn,
                bands: levels(o, tn),
            },
            GamecraftCheck::Settle { base, tn } => CheckExact {
                description: format!("settle: die = 0, total {base} against TN {tn}"),
                distribution: Dist::constant(base),
                success_at_least: tn,
                bands: levels(o, tn),
            },
            GamecraftCheck::Focus { base, tn, per } => {
                let round = focus_round(o, base, tn, per);
                CheckExact {
                    description: format!(
                        "focus: settle at {base} against TN {tn}, attempts of {per} round(s), +1 per increment past the first; result = round of success, −1 = settling would fumble (no focusing)"
                    ),
                    distribution: Dist::constant(round),
                    success_at_least: 0,
                    bands: vec![
                        band("cannot_focus", None, Some(-1)),
                        band("settles", Some(0), Some(0)),
                        band("focused", Some(1), None),
                    ],
                }
            }
            GamecraftCheck::Opposed { a, b } => {
                let margin = x.shift(a).convolve(&x.shift(b).negate()).expect("small");
                let wins = |a_from: i64| {
                    vec![
                        band("b_wins", None, Some(a_from - 1)),
                        band("a_wins", Some(a_from), Some(cm - 1)),
                        band("a_wins_by_crit_margin", Some(cm), None),
                    ]
                };
                match tie_rule(o, a, b) {
                    Tie::Report => CheckExact {
                        description: format!(
                            "opposed: ({a} + die) − ({b} + die); A wins iff > 0"
                        ),
                        distribution: margin,
                        success_at_least: 1,
                        bands: vec![
                            band("b_wins", None, Some(-1)),
                            band("tie", Some(0), Some(0)),
                            band("a_wins", Some(1), Some(cm - 1)),
                            band("a_wins_by_crit_margin", Some(cm), None),
                        ],
                    },
                    Tie::Reroll => CheckExact {
                        description: format!(
                            "opposed: ({a} + die) − ({b} + die), ties re-rolled; A wins iff > 0"
                        ),
                        distribution: Dist::from_weights(margin.iter().filter(|&(v, _)| v != 0))
                            .expect("a non-zero margin is possible"),
                        success_at_least: 1,
                        bands: wins(1),
                    },
                    Tie::A => CheckExact {
                        description: format!(
                            "opposed: ({a} + die) − ({b} + die); A wins iff ≥ 0 (A wins ties)"
                        ),
                        distribution: margin,
                        success_at_least: 0,
                        bands: wins(0),
                    },
                    Tie::B => CheckExact {
                        description: format!(
                            "opposed: ({a} + die) − ({b} + die); A wins iff > 0 (B wins ties)"
                        ),
                        distribution: margin,
                        success_at_least: 1,
                        bands: wins(1),
                    },
                }
            }
            GamecraftCheck::Dodge { attack, defense } => CheckExact {
                description: format!(
                    "attack {attack} + die against dodged defense {defense} + die: margin, hit iff ≥ 0"
                ),
                distribution: x
                    .shift(attack)
                    .convolve(&x.shift(defense).negate())
                    .expect("small"),
                success_at_least: 0,
                bands: vec![
                    band("fumble", None, Some(-fm)),
                    band("miss", Some(-fm + 1), Some(-1)),
                    band("hit", Some(0), Some(cm - 1)),
                    band("critical", Some(cm), None),
                ],
            },
            GamecraftCheck::Damage { damage, resist } => CheckExact {
                description: match resist {
                    Some(r) => {
                        format!("damage max(0, {damage} + die) − max(0, {r} + die), ≥ 0")
                    }
                    None => format!("damage max(0, {damage} + die)"),
                },
                distribution: damage_dist(o, damage, resist),
                success_at_least: 1,
                bands: vec![band("none", None, Some(0)), band("damage", Some(1), None)],
            },
            GamecraftCheck::Explosion { base, area, range } => {
                const AREAS: [&str; 3] = ["Small", "Medium", "Large"];
                const RANGES: [&str; 5] = ["short", "medium", "long", "out", "out"];
                let tn = i64::from(explosion_tn(usize::from(area), usize::from(range)));
                let r = usize::from(range);
                let to = |k: usize| {
                    if k > 2 {
                        "out_of_blast".to_string()
                    } else {
                        format!("to_{}", RANGES[k])
                    }
                };
                CheckExact {
                    description: format!(
                        "blast avoidance: 1d6−1 + {base} ≥ TN {tn} ({} device, target at {} Range): one Range out, two on a critical, no Constitution on a critical failure",
                        AREAS[usize::from(area)],
                        RANGES[r]
                    ),
                    distribution: x.shift(base),
                    success_at_least: tn,
                    bands: vec![
                        band(
                            &format!("critical_failure_stays_{}", RANGES[r]),
                            None,
                            Some(tn - fm),
                        ),
                        band(
                            &format!("stays_{}", RANGES[r]),
                            Some(tn - fm + 1),
                            Some(tn - 1),
                        ),
                        band(&to(r + 1), Some(tn), Some(tn + cm - 1)),
                        band(
                            &if r + 1 > 2 {
                                "out_of_blast_critical".to_string()
                            } else {
                                to(r + 2)
                            },
                            Some(tn + cm),
                            None,
                        ),
                    ],
                }
            }
        }
    }

    /// One sampled result of a check (same scale as [`exact`]).
    fn sample<R: Roller>(&self, rules: &Gamecraft, r: &mut R) -> i64 {
        let (o, c) = (rules.options(), self);
        let mut die = || i64::from(gc_die(r, o.explode_mode));
        match *c {
            GamecraftCheck::Simple { base, .. } | GamecraftCheck::Explosion { base, .. } => {
                base + die()
            }
            GamecraftCheck::Cooperation {
                base,
                helper,
                helpers,
                ..
            } => {
                let mut total = base + die();
                for _ in 0..helpers {
                    total += coop_bonus(o, helper + die());
                }
                total
            }
            GamecraftCheck::Settle { base, .. } => base,
            GamecraftCheck::Focus { base, tn, per } => focus_round(o, base, tn, per),
            GamecraftCheck::Opposed { a, b } => loop {
                let x = a + die();
                let m = x - (b + die());
                if m != 0 || tie_rule(o, a, b) != Tie::Reroll {
                    break m;
                }
            },
            GamecraftCheck::Dodge { attack, defense } => {
                let x = attack + die();
                x - (defense + die())
            }
            GamecraftCheck::Damage { damage, resist } => {
                let dealt = (damage + die()).max(0);
                match resist {
                    Some(res) => {
                        let resisted = res + die();
                        (dealt
                            - if o.resist_clamp_zero {
                                resisted.max(0)
                            } else {
                                resisted
                            })
                        .max(0)
                    }
                    None => dealt,
                }
            }
        }
    }
}

/// The parameters other kinds use, refused by cooperation, settle and focus.
const ROLLED_ONLY: &[&str] = &[
    "a",
    "b",
    "attack",
    "defense",
    "defence",
    "dodge",
    "damage",
    "resist",
    "explosion",
    "range",
];

/// Parses `kind=cooperation|settle|focus`.
fn parse_diceless(
    o: &GamecraftOptions,
    p: &CheckParams,
    kind: &str,
) -> Result<GamecraftCheck, RulesError> {
    for &k in ROLLED_ONLY
        .iter()
        .chain(if kind == "cooperation" { &[][..] } else { &["helpers", "helper"][..] })
        .chain(if kind == "focus" { &["pool"][..] } else { &["per"][..] })
    {
        if p.get(k).is_some() {
            let why = if k == "pool" {
                "not used by a focus check: it settles again and again, and points are spent per roll"
            } else {
                "not used by this kind"
            };
            return Err(RulesError::check(k, format!("{why} (kind={kind})")));
        }
    }
    let int = |k: &str, d: i64, lo: i64, hi: i64| -> Result<i64, RulesError> {
        let v = p.int_or(k, d)?;
        if (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(RulesError::check(k, format!("{v} is out of range: expected {lo} to {hi}")))
        }
    };
    let attribute = int("attribute", 0, -1000, 1000)?;
    let skill = int("skill", 0, -1000, 1000)?;
    let modifier = int("modifier", 0, -1000, 1000)?;
    let pool = capped_pool(p, skill)?;
    let tn = target_number(o, p)?;
    let base = attribute + skill + pool + modifier;
    Ok(match kind {
        "cooperation" => {
            let c = GamecraftCheck::Cooperation {
                base,
                tn,
                helper: int("helper", attribute + skill, -1000, 1000)?,
                helpers: int("helpers", 1, 0, 10)? as u8,
            };
            if let GamecraftCheck::Cooperation { base, helper, helpers, .. } = c {
                coop_dist(o, base, helper, helpers).map_err(|_| {
                    RulesError::check(
                        "helpers",
                        "too many helpers for an exact distribution of this die (explode_mode = \"unlimited\"): use fewer",
                    )
                })?;
            }
            c
        }
        "settle" => GamecraftCheck::Settle { base, tn },
        _ => GamecraftCheck::Focus {
            base,
            tn,
            per: int("per", 1, 1, 100)?,
        },
    })
}

/// The target number of a skill-like check: `difficulty` or `tn` (13 when neither).
fn target_number(o: &GamecraftOptions, p: &CheckParams) -> Result<i64, RulesError> {
    Ok(match (p.get("difficulty"), p.get("tn")) {
        (Some(_), Some(_)) => {
            return Err(RulesError::check("tn", "give difficulty or tn, not both"));
        }
        (Some(d), None) => tables::difficulty_tn(d, o.difficulty_tns).ok_or_else(|| {
            let names: Vec<_> = DIFFICULTIES.iter().map(|d| d.0.replace(' ', "_")).collect();
            RulesError::check(
                "difficulty",
                format!("unknown level {d:?}; expected one of: {}", names.join(", ")),
            )
        })?,
        (None, Some(_)) => p.int_or("tn", 13)?,
        (None, None) => 13,
    })
}

/// The leader's total with `helpers` helpers of base `helper` («Cooperation»).
pub fn coop_dist(
    o: &GamecraftOptions,
    base: i64,
    helper: i64,
    helpers: u8,
) -> Result<Dist, oddsmith_dice::DiceError> {
    let x = die_dist(o.explode_mode);
    let bonus = x.shift(helper).map(|v| coop_bonus(o, v));
    x.shift(base).convolve(&bonus.sum_iid(u32::from(helpers))?)
}

/// A helper's bonus for a cooperation check total of `v`.
fn coop_bonus(o: &GamecraftOptions, v: i64) -> i64 {
    let tn = i64::from(o.coop_tn);
    if v >= tn + i64::from(o.crit_margin) {
        i64::from(o.coop_crit_bonus)
    } else if v >= tn {
        i64::from(o.coop_bonus)
    } else {
        0
    }
}

/// The four success levels of a total against `tn`.
fn levels(o: &GamecraftOptions, tn: i64) -> Vec<Band> {
    let (cm, fm) = (i64::from(o.crit_margin), i64::from(o.fumble_margin));
    vec![
        band("fumble", None, Some(tn - fm)),
        band("failure", Some(tn - fm + 1), Some(tn - 1)),
        band("success", Some(tn), Some(tn + cm - 1)),
        band("critical", Some(tn + cm), None),
    ]
}

/// Parses the rolled kinds (skill, opposed, attack, damage, explosion), told apart by their
/// parameters.
fn parse_rolled(o: &GamecraftOptions, p: &CheckParams) -> Result<GamecraftCheck, RulesError> {
    for k in ["helpers", "helper", "per"] {
        if p.get(k).is_some() {
            return Err(RulesError::check(
                k,
                "used only by kind=cooperation (helpers, helper) or kind=focus (per)",
            ));
        }
    }
    for k in [
        "attribute",
        "skill",
        "pool",
        "modifier",
        "tn",
        "a",
        "b",
        "attack",
        "defense",
        "defence",
        "damage",
        "resist",
    ] {
        if !(-1000..=1000).contains(&p.int_or(k, 0)?) {
            return Err(RulesError::check(k, "expected a number from -1000 to 1000"));
        }
    }
    let modifier = p.int_or("modifier", 0)?;
    let reject = |keys: &[&str], what: &str| -> Result<(), RulesError> {
        for k in keys {
            if p.get(k).is_some() {
                return Err(RulesError::check(*k, format!("not used by {what}")));
            }
        }
        Ok(())
    };
    if let Some(area) = p.get("explosion") {
        reject(
            &[
                "difficulty",
                "tn",
                "a",
                "b",
                "attack",
                "defense",
                "defence",
                "dodge",
                "damage",
                "resist",
            ],
            "a blast-avoidance check (explosion=…, range=…, attribute=…, skill=…)",
        )?;
        let area = match tables::normalise(area).as_str() {
            "small" => 0,
            "medium" => 1,
            "large" => 2,
            _ => {
                return Err(RulesError::check(
                    "explosion",
                    format!("unknown Area {area:?}; expected small, medium or large"),
                ));
            }
        };
        let range = match p.get("range").map(tables::normalise).as_deref() {
            None | Some("short") => 0,
            Some("medium") => 1,
            Some("long") => 2,
            Some(v) => {
                return Err(RulesError::check(
                    "range",
                    format!("unknown blast Range {v:?}; expected short, medium or long"),
                ));
            }
        };
        let skill = p.int_or("skill", 0)?;
        let pool = capped_pool(p, skill)?;
        return Ok(GamecraftCheck::Explosion {
            base: p.int_or("attribute", 0)? + skill + pool + modifier,
            area,
            range,
        });
    }
    if p.get("range").is_some() {
        return Err(RulesError::check(
            "range",
            "used only by a blast-avoidance check (explosion=…)",
        ));
    }
    if p.get("damage").is_some() {
        reject(
            &[
                "attribute",
                "skill",
                "pool",
                "difficulty",
                "tn",
                "a",
                "b",
                "attack",
                "defense",
                "defence",
                "dodge",
            ],
            "a damage check (damage=…, resist=…)",
        )?;
        let resist = match p.get("resist") {
            Some(_) => Some(p.int_or("resist", 0)?),
            None => None,
        };
        return Ok(GamecraftCheck::Damage {
            damage: p.int_or("damage", 0)? + modifier,
            resist,
        });
    }
    if p.get("a").is_some() || p.get("b").is_some() {
        reject(
            &[
                "attribute",
                "skill",
                "pool",
                "difficulty",
                "tn",
                "attack",
                "defense",
                "defence",
                "dodge",
                "resist",
            ],
            "an opposed check (a=…, b=…)",
        )?;
        return Ok(GamecraftCheck::Opposed {
            a: p.int_or("a", 0)? + modifier,
            b: p.int_or("b", 0)?,
        });
    }
    if p.get("attack").is_some() {
        reject(
            &["attribute", "difficulty", "tn", "resist"],
            "an attack check (attack=…, defense=…, dodge=…)",
        )?;
        let defense = match p.get("defense") {
            Some(_) => p.int_or("defense", 0)?,
            None => p.int_or("defence", 0)?,
        };
        // «Skill Categories»: no more points than the skill has levels, in an attack too; the
        // attack base already holds the skill, so `skill` here only sets that cap.
        if p.get("pool").is_some() && p.get("skill").is_none() {
            return Err(RulesError::check(
                "pool",
                "an attack check spending pool points needs skill=… (the weapon skill's level, at most that many points)",
            ));
        }
        let pool = capped_pool(p, p.int_or("skill", 0)?)?;
        let attack = p.int_or("attack", 0)? + pool + modifier;
        return match p.get("dodge").map(|v| v.to_ascii_lowercase()) {
            None => Ok(GamecraftCheck::Simple {
                base: attack,
                tn: defense,
                level: None,
            }),
            Some(v) if v == "none" || v == "false" => Ok(GamecraftCheck::Simple {
                base: attack,
                tn: defense,
                level: None,
            }),
            Some(v) if v == "dodge" || v == "true" => Ok(GamecraftCheck::Dodge { attack, defense }),
            Some(v) if v == "full" => Ok(GamecraftCheck::Simple {
                base: attack,
                tn: defense + i64::from(o.full_dodge_bonus),
                level: None,
            }),
            Some(v) => Err(RulesError::check(
                "dodge",
                format!("expected none, dodge or full, got {v:?}"),
            )),
        };
    }
    reject(
        &["defense", "defence", "dodge", "resist"],
        "a skill check (attribute=…, skill=…, tn=…)",
    )?;
    let skill = p.int_or("skill", 0)?;
    let pool = capped_pool(p, skill)?;
    let tn = target_number(o, p)?;
    Ok(GamecraftCheck::Simple {
        base: p.int_or("attribute", 0)? + skill + pool + modifier,
        tn,
        level: p
            .get("difficulty")
            .and_then(|d| tables::difficulty_level(d).map(|i| DIFFICULTIES[i].0)),
    })
}

/// The `pool` parameter, refused beyond 0 ..= the skill's level («Skill Categories»).
fn capped_pool(p: &CheckParams, skill: i64) -> Result<i64, RulesError> {
    let pool = p.int_or("pool", 0)?;
    if pool < 0 || pool > skill.max(0) {
        return Err(RulesError::check(
            "pool",
            format!(
                "you may spend 0 to {} pool points: no more than your skill level («Skill Categories»)",
                skill.max(0)
            ),
        ));
    }
    Ok(pool)
}

fn band(name: &str, lo: Option<i64>, hi: Option<i64>) -> Band {
    Band {
        name: name.into(),
        lo,
        hi,
    }
}

/// How an opposed tie is settled, after `opposed_tie` and the bases (G10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tie {
    Report,
    Reroll,
    A,
    B,
}

fn tie_rule(o: &GamecraftOptions, a: i64, b: i64) -> Tie {
    match o.opposed_tie {
        OpposedTie::Report => Tie::Report,
        OpposedTie::Reroll => Tie::Reroll,
        OpposedTie::Defender => Tie::B,
        OpposedTie::HigherBase => match a.cmp(&b) {
            std::cmp::Ordering::Greater => Tie::A,
            std::cmp::Ordering::Less => Tie::B,
            std::cmp::Ordering::Equal => Tie::Reroll,
        },
    }
}

/// The distribution of sustained damage.
pub fn damage_dist(o: &GamecraftOptions, damage: i64, resist: Option<i64>) -> Dist {
    let x = die_dist(o.explode_mode);
    let dealt = x.shift(damage).map(|v| v.max(0));
    match resist {
        None => dealt,
        Some(r) => dealt
            .convolve(
                &x.shift(r)
                    .map(|v| if o.resist_clamp_zero { v.max(0) } else { v })
                    .negate(),
            )
            .expect("small dice")
            .map(|v| v.max(0)),
    }
}

/// The round a focused attempt succeeds under the digest's W5 reading (the attempt ending at
/// round `per·j` gets +j): 0 when settling succeeds, −1 when settling would fumble (miss by
/// `fumble_margin` or more: no focusing).
fn focus_round(o: &GamecraftOptions, base: i64, tn: i64, per: i64) -> i64 {
    if tn - base >= i64::from(o.fumble_margin) {
        -1
    } else {
        per * (tn - base).max(0)
    }
}
