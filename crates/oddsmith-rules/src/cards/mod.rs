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
//! at the weapon's maximum, Attack and Parry (each with and without stepping forward/back),
//! Parry/Seize the Initiative, Melee Dodge, Block, Disarming Attack, Lunge, Close, Retreat,
//! Push, Offensive Disengage, Shield Bash, called shots and weapon changes, hesitating at will,
//! hand-to-hand combat (the Hand and Leg Attacks, Head Butt, Take Down, the barehanded Block and
//! Dodge, Dodge Seize the Initiative, Tackle, Block Grab, the hand-to-hand Lunge, and at
//! wrestling range Pin and Suffocate held against might and vitality checks, Counter, Reversal,
//! Escape by either side), range and reach, charging,
//! surprise and show downs, fighters of different sizes («Unusual Foes»: the Large and Small
//! Creature to-hit tables on called shots; against a large foe Flank, Cling and Buck), hit points (G4) and the round cap; ranged combat from a starting
//! distance ([`ranged`]: ranged weapons with aim and fractional maneuvers, range bands, aiming
//! rows, dodging and blocking missiles, running into melee with a charge); group fights
//! ([`group`]: sides of up to four mixed members on the shared group mechanism, one pairing
//! per two foes).
//!
//! The decks travel in the duel state, so the duel is Monte Carlo only: [`Cards`] overrides
//! `exact` to return `None`. The exact values are the checks (best card of N, opposed checks,
//! one register, unopposed damage, firing into melee), computed hypergeometrically.
//!
//! # Map
//!
//! Since `exact` returns `None`, the shared `step` is the Monte Carlo duel and is optimised in
//! place. Built once when the matchup is paired: what each side's kit gives at wrestling range
//! or not (arms, hand sizes, cap, reach; `fighter::Kit` in `Matchup::kits`, looked up once a
//! register), the tactics folded with the options they are tested with (`Matchup::plays`,
//! `hits`, `shot`, `mods`) and the initial state (`Matchup::initial`). Hands are dealt by
//! `Deck::deal_with` on the stream's local copy; a round's registers run in one inlined frame.
//!
//! The registers come in two forms of the same code: the plain form (`registers::<true>`,
//! chosen once per matchup by `Matchup::plain`: one against one, no off-hand item, no ranged
//! weapon, no wrestler, so no second arm, shield, ranged kit or wrestling range can arise)
//! folds those branches away. `plain_tests.rs` plays both forms on the same stream for over a
//! million duels and shows each clause of the predicate is needed.
//!
//! Tactics: the digest's §6.2 plus defend_with, keep_reach, hesitate, shield_bash,
//! disengage_at_hp, wrestle/hold, hand_dodge, strike, take_down, called_shot, and against a
//! large foe flank, cling and buck (`size_tests.rs`). A matchup where one side's foe is large
//! (`Matchup::unusual`) always takes the general form of the registers, so equal sizes keep
//! the plain form and every figure. Where the post
//! leaves a choice to the fighter the default is the competent one (issue 34; the tests in
//! `choice_tests.rs`). `group` swaps each pairing's two members into the duel's seats so the
//! one-on-one `declare`/`answer`/`resolve` play every pairing, each member with one hand, one
//! maneuver budget and the initiative over at most one foe.

pub mod check;
pub mod duel;
pub mod fighter;
pub mod group;
pub mod options;
pub mod ranged;
pub mod spec;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod plain_tests;
#[cfg(test)]
mod choice_tests;
#[cfg(test)]
mod group_tests;
#[cfg(test)]
mod size_tests;
#[cfg(test)]
mod swipe_tests;

pub use check::CardsCheck;
pub use fighter::{Fighter, Matchup};
pub use options::CardsOptions;
pub use spec::FighterSpec;

use oddsmith_dice::deck::{Deck, best_of};

use crate::{CheckGrid, Ruleset, RulesError};
use duel::State;

/// The cards ruleset with its options and a fresh deck as they build it (for checks; see
/// `impl Build for Deck` in [`fighter`]).
pub type Cards = crate::Rules<CardsOptions, Deck>;

/// Names of the per-duel counters (A's four, then B's).
pub const COUNTERS: &[&str] =
    crate::per_side_counters!["initiative_rounds", "disarms", "seizes", "hit_draws"];

impl Ruleset for Cards {
    const ID: &'static str = "cards";
    const TITLE: &'static str = "Karmic card combat (Random Combat Rules, 2008)";
    const SUMMARY: &'static str =
        "Card-driven duels: each fighter draws a secret hand from his own karma deck \
        (D44: ±1..±10, J/Q/K hit cards, jokers 0; or a custom deck) by weapon skill; \
        the initiative holder and the defender lay cards into registers in turn \
        under their tactics (greedy/bait/random attackers; front/back/cover_last \
        defenders; seize threshold, hit policy, disarm when unopposed); each \
        register resolves simultaneously: attack total = card + finesse + force + \
        armour + difficulty − positive parry total, a hit at 1 or more, damage = \
        card + edge capped at the weapon's maximum against hp_base + vitality. \
        Attack and Parry (−2 without stepping forward/back), Parry/Seize, Melee \
        Dodge, Block, Disarming Attack, Lunge, Close, Retreat, Push, Offensive \
        Disengage, Shield Bash, called shots, hesitating, weapon changes with fast \
        draw, range and reach, off-hand items, hand to hand and wrestling (Tackle, \
        Block Grab, Pin, Suffocate, Counter, Reversal, Escape), charging, surprise \
        and show downs; ranged weapons from a starting distance in yards (range \
        bands, aiming rows, once-per-N-rounds weapons, dodging and blocking \
        missiles, running into melee with a charge); group fights of up to four \
        mixed fighters a side (one hand against all, the initiative over at most \
        one foe); relative sizes (large and small creatures' called-shot tables; \
        Flank, Cling and Buck against a large foe). Monte Carlo only (the decks are in the state); checks are exact \
        (hypergeometric).";
    const PLACEHOLDERS: &'static [crate::Placeholder] = spec::PLACEHOLDERS;
    type FighterSpec = FighterSpec;
    type Fighter = Fighter;
    type Matchup = Matchup;
    type State = State;
    type Check = CardsCheck;

    /// A non-player fighter's deck can be built too.
    fn validate(o: &CardsOptions) -> Result<(), RulesError> {
        if o.distance > 0 && matches!(o.start, options::Start::ACharges | options::Start::ASurprises) {
            return Err(RulesError::field(
                "distance",
                "a charge or a surprise starts engaged: distance must be 0 with start = \"a_charges\" or \"a_surprises\"",
            ));
        }
        fighter::deck(o, true).map(|_| ())
    }

    /// No exact duel (so `exact` is `None`): the state carries both decks (card counting
    /// across rounds), far beyond what forward iteration can enumerate. Exact values are the
    /// checks.
    fn no_exact_reason(&self) -> Option<&'static str> {
        Some("a cards duel carries both decks from round to round (card counting), far beyond exact enumeration; its checks are exact")
    }

    /// A member of 1–4 identical fighters (§Multiple Opponents); `target` is the member's
    /// choice among several foes: `lowest_hp` (tactic `weakest`) or `first`.
    fn side_spec(
        &self,
        spec: &FighterSpec,
        count: u32,
        target: Option<crate::group::Target>,
    ) -> Result<FighterSpec, String> {
        use crate::group::Target as T;
        if !(1..=4).contains(&count) {
            return Err(format!(
                "count {count} is out of range: a cards member is 1–4 identical fighters"
            ));
        }
        let mut s = spec.clone();
        s.count = count as i32;
        s.tactics.target = match target {
            None => s.tactics.target,
            Some(T::LowestHp) => spec::Target::Weakest,
            Some(T::First) => spec::Target::First,
            Some(t) => {
                return Err(format!(
                    "cards plays target \"lowest_hp\" (tactic weakest) or \"first\", not {:?}",
                    crate::group::Target::NAMES[t as usize]
                ));
            }
        };
        Ok(s)
    }

    /// A group fight's members in slot order ([`group::Plan::roster`]); a duel's one a side.
    fn roster(&self, m: &Matchup) -> crate::group::Roster {
        m.group
            .as_deref()
            .map_or_else(crate::group::Roster::duel, group::Plan::roster)
    }

    /// In a group fight a member is down once out of it (taken out, or beaten by a hold or a
    /// disarm); cards does not tell death from being down. A duel's loser is read from its
    /// ending (`None`).
    fn fate(
        &self,
        m: &Matchup,
        s: &State,
        side: usize,
        i: usize,
    ) -> Option<crate::group::Fate> {
        m.group.as_ref()?;
        Some(crate::group::Fate {
            down: s.g.out[side] & (1 << i) != 0,
            dead: false,
        })
    }

    const MEMBER_DAMAGE: bool = true;

    /// One step is one round, counted as it starts.
    const ROUND_COUNTED_AT_START: bool = true;

    fn spec_count(&self, spec: &FighterSpec) -> u32 {
        spec.count.max(1) as u32
    }

    /// Mixed members (§Multiple Opponents): up to four fighters a side in all.
    fn join_side(&self, mut members: Vec<Fighter>) -> Result<Fighter, (usize, String)> {
        let mut total = 0usize;
        for (j, f) in members.iter().enumerate() {
            total += usize::from(f.count.max(1));
            if total > duel::MAX_BAND {
                return Err((
                    j,
                    format!(
                        "a cards side holds at most {} fighters in all (§Multiple Opponents is played pairing by pairing); this member brings it to {total}",
                        duel::MAX_BAND
                    ),
                ));
            }
        }
        let mut first = members.remove(0);
        first.others = members;
        Ok(first)
    }

    fn counter_names(&self) -> &'static [&'static str] {
        COUNTERS
    }

    /// A ranged main weapon in a duel that starts engaged never shoots (§Ranged Combat: a
    /// ranged weapon is "used from a distance"): the file very likely forgot `distance`.
    fn fighter_warnings(&self, spec: &FighterSpec) -> Vec<RulesError> {
        let o = self.options();
        let w = &spec.weapon.stats;
        let mut out = Vec::new();
        if w.ranged && (o.distance == 0 || !o.range_model) {
            let why = if o.range_model {
                "the duel starts engaged (the option distance is 0)"
            } else {
                "without the range model the duel starts engaged"
            };
            out.push(RulesError::field(
                "weapon",
                format!(
                    "{} is a ranged weapon, but {why}: it never shoots (§Ranged Combat: ranged weapons are used from a distance): in melee he drops it for his backup weapon or his bare hands; set the option distance (in yards, e.g. distance = 30) for a duel that starts apart",
                    w.name
                ),
            ));
        }
        out
    }

    /// Hand size, maneuvers, hit points and the exact chance the best card of the hand is
    /// positive.
    fn fighter_facts(&self, spec: &FighterSpec) -> Vec<(String, String)> {
        let Ok(f) = self.compile("", spec) else {
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
        if f.main.ranged {
            let every = if f.main.every > 1 {
                format!("once every {} rounds", f.main.every)
            } else {
                format!("{} a round", mm(f.main))
            };
            v[2].1 = format!(
                "{}: ranged, {} yards, force {:+}, aim {}, {every}, edge {:+}, max damage {}",
                spec.weapon.stats.name, f.main.range, f.main.force, f.main.aim, f.main.edge, f.main.md
            );
        }
        if f.count > 1 {
            v.push(("band".into(), format!("{} identical fighters", f.count)));
        }
        if let Ok(b) = best_of(self.built().cards(), u32::from(hand)) {
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
