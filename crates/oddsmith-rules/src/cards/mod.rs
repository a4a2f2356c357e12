//! The card-driven combat of the 2008 Karmic blog post "Random Combat Rules I Don't Know How
//! to Organize": cards instead of dice, drawn without replacement from each fighter's karma
//! deck. Rules cited by the post's section ("§Determine Initiative"); G-n, E-n and §7 are the
//! gaps, errata and oracles of the project's digest of it. Users' account:
//! `docs/rulesets/cards.md`.
//!
//! Modelled: the deck (D44 by default, custom decks, jokers as 0, wild or removed, a jokerless
//! deck for non-player fighters, per-fighter or shared, reshuffled when empty, every round or
//! every check), hit cards (draw and add), initiative, secret hands drawn by skill (the lower
//! of two skills with an off-hand item, fast-draw after a weapon change), registers declared
//! in turn under each fighter's tactics and resolved simultaneously, attack total = card +
//! finesse + force + armour + difficulty − positive parry total, damage = card + edge capped
//! at the weapon's maximum, Attack, Parry (with and without stepping back), Parry/Seize the
//! Initiative, Melee Dodge, Block, Disarming Attack, Lunge, Close, Retreat, Push and weapon
//! changes, range
//! and reach, charging and surprise, hit points (G4) and the round cap.
//!
//! The decks travel in the duel state, so the duel is Monte Carlo only: [`Cards`] overrides
//! `exact` to return `None`. The exact values are the checks (best card of N, opposed checks,
//! one register, unopposed damage, firing into melee), computed hypergeometrically.

pub mod check;
pub mod duel;
pub mod fighter;
pub mod options;
pub mod spec;

#[cfg(test)]
mod tests;

pub use check::CardsCheck;
pub use fighter::{Fighter, Matchup};
pub use options::CardsOptions;
pub use spec::FighterSpec;

use oddsmith_dice::deck::{Deck, best_of};

use crate::info::doc;
use crate::solver::Step;
use crate::{
    CheckExact, CheckGrid, CheckParams, ExactDuel, FieldDoc, Roller, RulesError, RulesetInfo,
    Tally,
};
use duel::State;

/// The cards ruleset with its options.
#[derive(Clone, Debug, PartialEq)]
pub struct Cards {
    o: CardsOptions,
    /// A fresh deck as the options build it (for checks).
    deck: Deck,
}

/// Names of the per-duel counters (A's four, then B's).
pub const COUNTERS: &[&str] = &[
    "a_initiative_rounds",
    "a_disarms",
    "a_seizes",
    "a_hit_draws",
    "b_initiative_rounds",
    "b_disarms",
    "b_seizes",
    "b_hit_draws",
];

impl crate::Ruleset for Cards {
    const ID: &'static str = "cards";
    const TITLE: &'static str = "Karmic card combat (Random Combat Rules, 2008)";
    type FighterSpec = FighterSpec;
    type Options = CardsOptions;
    type Fighter = Fighter;
    type Matchup = Matchup;
    type State = State;
    type Check = CardsCheck;

    fn new(o: CardsOptions) -> Result<Self, RulesError> {
        o.check_ranges()?;
        let deck = fighter::deck(&o, false)?;
        fighter::deck(&o, true)?;
        Ok(Cards { o, deck })
    }

    fn options(&self) -> &CardsOptions {
        &self.o
    }

    fn compile(&self, name: &str, spec: &FighterSpec) -> Result<Fighter, RulesError> {
        fighter::compile(&self.o, name, spec)
    }

    fn matchup(&self, a: &Fighter, b: &Fighter) -> Result<Matchup, RulesError> {
        fighter::matchup(&self.o, a, b)
    }

    fn start(&self, m: &Matchup) -> State {
        State::start(&self.o, m)
    }

    #[inline]
    fn step<R: Roller, T: Tally>(
        &self,
        m: &Matchup,
        s: &mut State,
        roller: &mut R,
        tally: &mut T,
    ) -> Step {
        duel::step(&self.o, m, s, roller, tally)
    }

    fn max_rounds(&self) -> u32 {
        self.o.max_rounds
    }

    /// No exact duel: the state carries both decks (card counting across rounds), far beyond
    /// what forward iteration can enumerate. Exact values are the checks.
    fn exact(&self, _m: &Matchup) -> Option<ExactDuel> {
        None
    }

    fn counter_names(&self) -> &'static [&'static str] {
        COUNTERS
    }

    fn info() -> RulesetInfo {
        RulesetInfo {
            id: Self::ID,
            title: Self::TITLE,
            summary: "Card-driven duels: each fighter draws a secret hand from his own karma deck \
                      (D44: ±1..±10, J/Q/K hit cards, jokers 0; or a custom deck) by weapon skill; \
                      the initiative holder and the defender lay cards into registers in turn \
                      under their tactics (greedy/bait/random attackers; front/back/cover_last \
                      defenders; seize threshold, hit policy, disarm when unopposed); each \
                      register resolves simultaneously: attack total = card + finesse + force + \
                      armour + difficulty − positive parry total, a hit at 1 or more, damage = \
                      card + edge capped at the weapon's maximum against hp_base + vitality. \
                      Parry (−2 without stepping back), Parry/Seize, Melee Dodge, Block, \
                      Disarming Attack, Lunge, Close, Retreat, Push, weapon changes with fast draw, range and \
                      reach, off-hand items, charging and surprise. Monte Carlo only (the decks \
                      are in the state); checks are exact (hypergeometric).",
            fighter_fields: FIGHTER_DOCS.to_vec(),
            options: options::OPTION_DOCS.to_vec(),
            check_params: CHECK_DOCS.to_vec(),
        }
    }

    fn parse_check(&self, params: &CheckParams) -> Result<CardsCheck, RulesError> {
        check::parse(params, self.deck.len())
    }

    fn check_exact(&self, c: &CardsCheck) -> CheckExact {
        check::exact(self.deck.cards(), c)
    }

    fn check_sample<R: Roller>(&self, c: &CardsCheck, roller: &mut R) -> i64 {
        check::sample(&self.deck, c, roller)
    }

    /// Hand size, maneuvers, hit points and the exact chance the best card of the hand is
    /// positive.
    fn fighter_facts(&self, spec: &FighterSpec) -> Vec<(String, String)> {
        let Ok(f) = fighter::compile(&self.o, "", spec) else {
            return Vec::new();
        };
        let hand = match f.off {
            Some(_) => f.main_skill.min(f.off_skill),
            None => f.main_skill,
        }
        .max(1);
        let mm = |a: fighter::Arm| {
            if a.mm == u8::MAX {
                "unlimited".to_string()
            } else {
                a.mm.to_string()
            }
        };
        let mut v = vec![
            ("hand (cards per round)".into(), hand.to_string()),
            ("hit points".into(), f.hp.to_string()),
            (
                "weapon".into(),
                format!(
                    "{}: range {}, force {:+}, maneuvers {}, edge {:+}, max damage {}",
                    spec.weapon.stats.name,
                    f.main.range,
                    f.main.force,
                    mm(f.main),
                    f.main.edge,
                    f.main.md
                ),
            ),
        ];
        if let Ok(b) = best_of(self.deck.cards(), u32::from(hand)) {
            let mods = f.finesse + f.armor_mod + i32::from(f.main.force);
            v.push((
                "P(unopposed attack total ≥ 1)".into(),
                format!("{:.4}", b.p_at_least(i64::from(1 - mods))),
            ));
        }
        v
    }

    /// P(success) of a basic check: skill 1–6 against the §Difficulty Modifiers table.
    fn check_grid(&self) -> Option<CheckGrid<CardsCheck>> {
        let cells = (1..=6)
            .flat_map(|n| {
                check::DIFFICULTIES.iter().map(move |&(name, m)| {
                    (
                        i64::from(n),
                        format!("{name} ({m:+})"),
                        i64::from(m),
                        CardsCheck::Basic { n, modifier: m },
                    )
                })
            })
            .collect();
        Some(CheckGrid {
            row_name: "skill",
            col_name: "difficulty",
            col_value_name: "modifier",
            cells,
        })
    }
}

/// Documentation of every fighter field.
pub const FIGHTER_DOCS: &[FieldDoc] = &[
    doc("skill", "0", "main weapon skill 0–16: cards drawn per round (0 = unskilled, 1 card) (§Draw Hands)"),
    doc(
        "weapon",
        "required",
        "dagger, sword, long sword, medium axe, poinard (parrying dagger), spear, bare hands (digest §4.16 placeholders; sword range/force/maneuvers and spear range are TEXT), or { range, force, max_maneuvers (0 = unlimited), edge, max_damage, hands }",
    ),
    doc(
        "off_hand",
        "none",
        "shield (\"small shield\": blocks), parrying dagger or second weapon; hand = lower skill, maneuvers = higher maximum + 1, each item within its own (§Shields, Parrying Daggers & Off-hand Weapons)",
    ),
    doc("off_hand_skill", "0", "skill with the off-hand item, 0–16"),
    doc("backup", "none", "weapon drawn after a disarm under on_disarm = \"backup_or_unarmed\" or \"backup_or_defeat\" (§Changing Weapons)"),
    doc("backup_skill", "0", "skill with the backup weapon, 0–16"),
    doc("fast_draw", "0", "fast-draw skill: the hand the round after a weapon change is min(skill, fast draw), 1 card without it"),
    doc("combat_training", "0", "cards drawn for initiative, 1 without it (§Determine Initiative)"),
    doc("brawling", "0", "bare-hand skill (G23) under on_disarm = \"unarmed\""),
    doc("stealth", "0", "stealth skill: A's side of the surprise check"),
    doc("finesse", "0", "finesse −5…+10: added to attack, parry, dodge and block totals"),
    doc("willpower", "0", "willpower −5…+10: added to the initiative total"),
    doc("vitality", "0", "vitality −4…+10: hit points = hp_base + vitality (G4)"),
    doc("awareness", "0", "awareness −5…+10: B's side of the surprise check"),
    doc("armor_mod", "0", "armour modifier −6…0 added to every combat total (the soldier's −1)"),
    doc("protection", "0", "armour protection 0–5 subtracted from damage after the cap (G5; none in the text)"),
    doc("npc", "false", "a non-player fighter: draws from a jokerless deck under npc_jokerless"),
    doc(
        "tactics",
        "{ attacker = \"greedy\", defender = \"front\", hit = \"when_losing\", seize_threshold = 5, reserve = 0, disarm_unopposed = true, range_fix = true, lunge = false, dodge_when_no_parry = true, close_with_parry = true }",
        "digest §6.2: attacker greedy | bait | random; defender front | back | cover_last | random; hit when_losing | never | always; Parry/Seize when card + mods − 3 ≥ seize_threshold (99 = never); reserve highest cards; disarm when the defender has no card; Close/Push/Retreat when out of reach; Lunge (−2, max damage +1) when one yard short; dodge when no parry; parry without stepping back to close in",
    ),
];

/// Documentation of `oddsmith check cards` parameters.
pub const CHECK_DOCS: &[FieldDoc] = &[
    doc("kind", "basic", "basic | opposed | register | damage | into_melee"),
    doc("skill", "1", "cards drawn (0 = unskilled, 1 card)"),
    doc("modifier", "0", "basic, opposed, into_melee: total modifier (A's advantage for opposed)"),
    doc("vs", "1", "opposed: the other side's cards"),
    doc("parry_cards", "1", "register: the defender's cards"),
    doc("attack", "0", "register: attacker's modifiers + maneuver difficulty"),
    doc("parry", "0", "register: defender's modifiers + parry difficulty (−2 no step back, −3 seize)"),
    doc("edge", "0", "damage: weapon edge"),
    doc("max_damage", "3", "damage: weapon maximum damage"),
];
