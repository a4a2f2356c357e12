//! Cards checks, each exact (hypergeometric, `oddsmith_dice::deck`) and sampled from a fresh
//! deck: a basic check (§Basic Actions: best of N + modifiers, success above 0), an opposed
//! check (§Opposed Checks), one attack register against a parry (§Resolve Maneuvers: attack
//! total − positive parry total ≥ 1), the damage of an unopposed attack (§Melee Weapon
//! Attributes) and a missile fired into melee (§Firing into Melee). Checks play the best card
//! and do not hit (the digest §7 convention, `hit_rule = "none"`).

use oddsmith_dice::deck::{Deck, best_of, pairwise};

use super::Cards;
use crate::info::{Cond, Is, Requires, cond, refuse};
use crate::{Band, CheckExact, CheckParams, Roller, RulesError};

/// A parsed cards check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CardsCheck {
    /// Best of `n` + `modifier`; succeeds above 0.
    Basic {
        /// Cards drawn (skill; 1 unskilled).
        n: u32,
        /// Attribute + difficulty + other modifiers.
        modifier: i32,
    },
    /// A's best of `n` + `modifier` against B's best of `vs`: result MT_A − MT_B.
    Opposed {
        /// A's cards.
        n: u32,
        /// B's cards.
        vs: u32,
        /// A's modifier advantage.
        modifier: i32,
    },
    /// One register: attack best of `n` + `attack` against a parry best of `parry_cards` +
    /// `parry`; result = attack total − max(0, parry total).
    Register {
        /// Attacker's cards.
        n: u32,
        /// Defender's cards.
        parry_cards: u32,
        /// Attacker's modifiers + maneuver difficulty.
        attack: i32,
        /// Defender's modifiers + parry difficulty.
        parry: i32,
    },
    /// Damage of an unopposed attack with the best of `n`: clamp(card + edge, 0, max_damage).
    Damage {
        /// Cards drawn.
        n: u32,
        /// Weapon edge.
        edge: i32,
        /// Weapon maximum damage.
        max_damage: i32,
    },
    /// A missile fired into melee: best of `n` + `modifier`; > 0 hits the target, 0 misses
    /// everyone, < 0 hits another combatant.
    IntoMelee {
        /// Cards drawn.
        n: u32,
        /// Total modifier (force, finesse, range band, target).
        modifier: i32,
    },
}

crate::check_params! {
    /// The parameters of `oddsmith check cards`: accepted names and docs.
    pub mod params for CardsCheck {
        "kind" => ("basic", "basic | opposed | register | damage | into_melee"),
        "skill" => ("1", "cards drawn (0 = unskilled, 1 card)"),
        "modifier" => (
            "0",
            "basic, opposed, into_melee: total modifier (A's advantage for opposed)",
        ),
        "vs" => ("1", "opposed: the other side's cards"),
        "parry_cards" => ("1", "register: the defender's cards"),
        "attack" => ("0", "register: attacker's modifiers + maneuver difficulty"),
        "parry" => (
            "0",
            "register: defender's modifiers + parry difficulty (−2 no step back, −3 seize)",
        ),
        "edge" => ("0", "damage: weapon edge"),
        "max_damage" => ("3", "damage: weapon maximum damage"),
    }
    requires = CHECK_REQUIRES;
}

const fn kind(field: &'static str, kinds: &'static [Cond]) -> Requires {
    refuse(field, kinds, "")
}

const REGISTER: &[Cond] = &[cond("kind", Is::OneOf(&["register"]))];
const DAMAGE: &[Cond] = &[cond("kind", Is::OneOf(&["damage"]))];

/// Each parameter is read by some kinds of check only; the others refuse it.
const CHECK_REQUIRES: &[Requires] = &[
    kind("modifier", &[cond("kind", Is::OneOf(&["basic", "opposed", "into_melee"]))]),
    kind("vs", &[cond("kind", Is::OneOf(&["opposed"]))]),
    kind("parry_cards", REGISTER),
    kind("attack", REGISTER),
    kind("parry", REGISTER),
    kind("edge", DAMAGE),
    kind("max_damage", DAMAGE),
];

fn cards(p: &CheckParams, key: &str, default: i64, deck_len: usize) -> Result<u32, RulesError> {
    let v = p.int_or(key, default)?;
    let hi = deck_len.min(oddsmith_dice::deck::MAX_HAND) as i64;
    if !(0..=hi).contains(&v) {
        return Err(RulesError::check(key, format!("{v}: expected 0 to {hi} cards")));
    }
    Ok(v.max(1) as u32)
}

fn modifier(p: &CheckParams, key: &str, default: i64) -> Result<i32, RulesError> {
    let v = p.int_or(key, default)?;
    if !(-30..=30).contains(&v) {
        return Err(RulesError::check(key, format!("{v}: expected -30 to 30")));
    }
    Ok(v as i32)
}

impl crate::Check<Cards> for CardsCheck {
    /// Parses `kind=basic|opposed|register|damage|into_melee` and its parameters.
    fn parse(rules: &Cards, p: &CheckParams) -> Result<CardsCheck, RulesError> {
        let deck_len = rules.built().len();
        p.only(params::NAMES)?;
        let n = cards(p, "skill", 1, deck_len)?;
        Ok(match p.get("kind").unwrap_or("basic") {
            "basic" => CardsCheck::Basic {
                n,
                modifier: modifier(p, "modifier", 0)?,
            },
            "opposed" => CardsCheck::Opposed {
                n,
                vs: cards(p, "vs", 1, deck_len)?,
                modifier: modifier(p, "modifier", 0)?,
            },
            "register" => CardsCheck::Register {
                n,
                parry_cards: cards(p, "parry_cards", 1, deck_len)?,
                attack: modifier(p, "attack", 0)?,
                parry: modifier(p, "parry", 0)?,
            },
            "damage" => CardsCheck::Damage {
                n,
                edge: modifier(p, "edge", 0)?,
                max_damage: modifier(p, "max_damage", 3)?.max(0),
            },
            "into_melee" => CardsCheck::IntoMelee {
                n,
                modifier: modifier(p, "modifier", 0)?,
            },
            k => {
                return Err(RulesError::check(
                    "kind",
                    format!("{k:?}: expected basic, opposed, register, damage or into_melee"),
                ));
            }
        })
    }

    /// The exact distribution of a check's result.
    fn exact(&self, rules: &Cards) -> CheckExact {
        let (deck, c) = (rules.built().cards(), self);
        let best = |n: u32| best_of(deck, n).expect("hand sizes are checked against the deck");
        let (description, distribution, bands) = match *c {
            CardsCheck::Basic { n, modifier } => (
                format!("basic check: best of {n} cards {modifier:+}, success above 0"),
                best(n).shift(i64::from(modifier)),
                general_bands(),
            ),
            CardsCheck::Opposed { n, vs, modifier } => (
                format!("opposed check: best of {n} {modifier:+} against best of {vs}; result MT_A − MT_B"),
                pairwise(&best(n), &best(vs), |a, b| a + i64::from(modifier) - b)
                    .expect("small weights"),
                Vec::new(),
            ),
            CardsCheck::Register {
                n,
                parry_cards,
                attack,
                parry,
            } => (
                format!(
                    "one register: attack best of {n} {attack:+} against a parry best of {parry_cards} {parry:+}; result attack total − positive parry total"
                ),
                pairwise(&best(n), &best(parry_cards), |a, d| {
                    a + i64::from(attack) - (d + i64::from(parry)).max(0)
                })
                .expect("small weights"),
                Vec::new(),
            ),
            CardsCheck::Damage { n, edge, max_damage } => (
                format!("damage of an unopposed attack, best of {n}, edge {edge:+}, maximum {max_damage}"),
                best(n).map(|v| (v + i64::from(edge)).clamp(0, i64::from(max_damage))),
                Vec::new(),
            ),
            CardsCheck::IntoMelee { n, modifier } => (
                format!("missile into melee: best of {n} {modifier:+}"),
                best(n).shift(i64::from(modifier)),
                vec![
                    Band {
                        name: "hits another combatant".into(),
                        lo: None,
                        hi: Some(-1),
                    },
                    Band {
                        name: "misses everyone".into(),
                        lo: Some(0),
                        hi: Some(0),
                    },
                    Band {
                        name: "hits the target".into(),
                        lo: Some(1),
                        hi: None,
                    },
                ],
            ),
        };
        CheckExact {
            description,
            distribution,
            success_at_least: 1,
            bands,
        }
    }

    /// One sampled result on the scale of [`exact`], from fresh decks.
    fn sample<R: Roller>(&self, rules: &Cards, r: &mut R) -> i64 {
        let (deck, c) = (rules.built(), self);
        let mut d = *deck;
        match *c {
            CardsCheck::Basic { n, modifier } | CardsCheck::IntoMelee { n, modifier } => {
                sample_best(&mut d, n, r) + i64::from(modifier)
            }
            CardsCheck::Opposed { n, vs, modifier } => {
                let a = sample_best(&mut d, n, r);
                let b = sample_best(&mut d, vs, r);
                a + i64::from(modifier) - b
            }
            CardsCheck::Register {
                n,
                parry_cards,
                attack,
                parry,
            } => {
                let a = sample_best(&mut d, n, r);
                let p = sample_best(&mut d, parry_cards, r);
                a + i64::from(attack) - (p + i64::from(parry)).max(0)
            }
            CardsCheck::Damage { n, edge, max_damage } => {
                (sample_best(&mut d, n, r) + i64::from(edge)).clamp(0, i64::from(max_damage))
            }
        }
    }
}

/// §Skill Results, General Result column (INTERPRETATION: each label covers its row up to
/// the next label; totals clamp to ±10).
fn general_bands() -> Vec<Band> {
    let b = |name: &str, lo: Option<i64>, hi: Option<i64>| Band {
        name: name.into(),
        lo,
        hi,
    };
    vec![
        b("incompetence", None, Some(-9)),
        b("horrific", Some(-8), Some(-7)),
        b("awful", Some(-6), Some(-5)),
        b("bad", Some(-4), Some(-3)),
        b("poor", Some(-2), Some(0)),
        b("sufficient", Some(1), Some(2)),
        b("average", Some(3), Some(4)),
        b("good", Some(5), Some(6)),
        b("excellent", Some(7), Some(8)),
        b("superb", Some(9), Some(9)),
        b("extraordinary", Some(10), None),
    ]
}

fn sample_best<R: Roller>(deck: &mut Deck, n: u32, r: &mut R) -> i64 {
    deck.reset();
    (0..n)
        .filter_map(|_| deck.draw_with(|k| r.roll(k) - 1))
        .map(|c| i64::from(c.value))
        .max()
        .unwrap_or(0)
}

/// The §Difficulty Modifiers table.
pub const DIFFICULTIES: &[(&str, i32)] = &[
    ("very easy", 5),
    ("easy", 3),
    ("moderate", 0),
    ("difficult", -3),
    ("very difficult", -5),
    ("nigh impossible", -8),
];

