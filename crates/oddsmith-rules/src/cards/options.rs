//! Cards options: the deck (cards digest §2.2–2.4), the hit rule (§2.3), and every duel
//! INTERPRETATION of §6.1 (G1–G25) the duel models, each with the digest's default and the
//! seed section it reads ("Random Combat Rules" §Range, §Determine Initiative, …).
//!
//! Tactics (digest §6.2) are fighter fields (`tactics = { … }`), not options, so each fighter
//! can play differently.

use serde::{Deserialize, Serialize};

use super::spec::Location;
use crate::FieldDoc;
use crate::info::{Cond, Is, Requires, cond, refuse, warn};

crate::options! {
    /// Options under `[options]` for `ruleset = "cards"`.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct CardsOptions: RulesetOptions {
        /// G1: the deck every fighter draws from.
        deck: DeckChoice = DeckChoice::D44 => (
            "\"d44\"",
            "G1 deck: \"d44\" (the digest's D44 reading: ±1..±10, J/Q/K hit cards, 2 jokers) | \"custom\" (the cards of custom_deck)",
        ),
        /// G1: the cards of a custom deck.
        custom_deck: Vec<String> = Vec::new() => (
            "[]",
            "custom deck for deck = \"custom\": 2–64 cards such as \"+3h\" (h = hit card), \"-2\", \"0\"",
        ),
        /// G1: how the two jokers of D44 count.
        jokers: Jokers = Jokers::Zero => (
            "\"zero\"",
            "G1 jokers of D44: \"zero\" (value 0, not hit cards) | \"wild\" (the holder names the value: the deck's highest) | \"remove\" (a 42-card deck)", reading ["zero", "wild", "remove"],
        ),
        /// G1: fighters marked `npc` draw from the GM's world deck, which has no jokers.
        npc_jokerless: bool = false => (
            "false",
            "G1: fighters with npc = true draw from a deck without jokers (the GM's world deck of the blog's deck post)",
        ),
        /// G3: when the discard pile goes back into the deck.
        reshuffle: Reshuffle = Reshuffle::WhenEmpty => (
            "\"when_empty\"",
            "G3 reshuffle: \"when_empty\" (a persistent deck; discards return when the stock runs out) | \"every_round\" (all cards back at each round start) | \"every_check\" (all back before every draw: initiative, hands)", reading ["when_empty", "every_round", "every_check"],
        ),
        /// G3: whose deck a fighter draws from.
        deck_owner: DeckOwner = DeckOwner::PerFighter => (
            "\"per_fighter\"",
            "G3 deck owner: \"per_fighter\" (each his own karma deck, §Basic Actions) | \"shared\" (one deck for both)", reading ["per_fighter", "shared"],
        ),
        /// G2: what a "(hit)" card does.
        hit_rule: HitRule = HitRule::DrawAdd => (
            "\"draw_add\"",
            "G2 \"(hit)\" cards: \"draw_add\" (after the reveal the holder may draw the top card and add its value, blackjack-like) | \"none\"", reading ["draw_add", "none"],
        ),
        /// G2: a drawn hit card may be hit again.
        hit_chain: bool = true => (
            "true",
            "G2: a hit card drawn by hitting may itself be hit", reading [true, false],
        ),
        /// G7: an unopposed maneuver succeeds whatever its total (§Unopposed Actions).
        unopposed_auto_success: bool = true => (
            "true",
            "G7 §Unopposed Actions: unopposed maneuvers succeed automatically (a disarm still needs a total above 0); false = every unopposed maneuver needs a total above 0", reading [true, false],
        ),
        /// §Range: weapons attack only at their range.
        range_model: bool = true => (
            "true",
            "§Range: weapons attack only at their own range, parry only at it or against a longer weapon; false = a pure card duel, always in reach",
        ),
        /// G6/E1: the range change when the defender parries without stepping back.
        no_step_back_delta: i32 = -1, in -1..=1 => (
            "-1",
            "G6 (errata E1): range change when an attacked defender parries without stepping back: -1 (the example's 'reducing') or +1 (the text's 'increased')", reading [-1, 1],
        ),
        /// §Range, literal: an attack met by no stepping-back maneuver changes the range.
        unopposed_attack_closes_range: bool = true => (
            "true",
            "§Range: \"If a character attacks normally and his opponent does not use a maneuver that includes a step back … then the range is increased by one\": an attack the defender meets with an empty register, a dodge or a weapon change moves the range by no_step_back_delta (parries, blocks and Parry/Seize step back); false = the range never moves (the digest's reading)", reading [true, false],
        ),
        /// G15: a weapon longer than the current range may parry.
        long_weapon_can_parry_inside_reach: bool = false => (
            "false",
            "G15: a weapon longer than the current range may still parry (the literal rule says no)", reading [false, true],
        ),
        /// G13: the defender may leave a register empty (the `cover_last` tactic passes).
        defender_may_pass: bool = true => (
            "true",
            "G13: the defender may leave a register empty (the attack is then unopposed); false = cover_last parries every register it can", reading [true, false],
        ),
        /// §Melee Dodge: the once-per-round jump back that needs no weapon.
        melee_dodge: bool = true => (
            "true",
            "§Basic Maneuvers Melee Dodge (-2, no force, outside the weapon's maximum maneuvers, once per round)",
        ),
        /// §Basic Maneuvers Melee Dodge: the dodge is "jumping backwards", a step back.
        dodge_steps_back: bool = true => (
            "true",
            "§Basic Maneuvers Melee Dodge, \"jumping backwards out of the way of an attack\": a dodge steps back, so an attack it meets does not move the range (§Range) | false = a dodge is no step back (the range moves as for an unopposed attack)", reading [true, false],
        ),
        /// §Complex Maneuvers: Parry/Seize the Initiative.
        seize_the_initiative: bool = true => (
            "true",
            "§Complex Maneuvers Parry/Seize the Initiative (-3): if the attacker does not hit, the parrier takes the initiative (kept into later rounds until lost)",
        ),
        /// §Complex Maneuvers: Disarming Attack.
        disarming_attack: bool = true => (
            "true",
            "§Complex Maneuvers Disarming Attack (-5): flings the opponent's weapon away (see on_disarm)",
        ),
        /// §Complex Maneuvers: Close, Retreat and Push.
        close_retreat: bool = true => (
            "true",
            "§Complex Maneuvers Close (-3), Retreat (-3) and Push (0, at range 0 only, prevented only by a dodge): range -1 / +1 / +1; Close and Retreat are prevented by a parry or block",
        ),
        /// §Complex Maneuvers: Offensive Disengage.
        offensive_disengage: bool = true => (
            "true",
            "§Complex Maneuvers Offensive Disengage (-4, needs the initiative, resolved at once, prevented by a parry or block): on success the duel ends, a draw (yield), and the defender takes no damage",
        ),
        /// §Shield Bash.
        shield_bash: bool = true => (
            "true",
            "§Shield Bash: a small shield attacks at range 0, maximum damage 1, once a round, and cannot block that round",
        ),
        /// §Shield Bash: its difficulty (not given).
        shield_bash_head_penalty: bool = false => (
            "false",
            "§Shield Bash \"done to the head\" with \"no benefit for hit location\": false = difficulty 0 (the digest's reading); true = the head's called-shot -5 (§Hit Location)", reading [false, true],
        ),
        /// §Hand to Hand Combat: the striking and wrestling maneuvers.
        hand_to_hand: bool = true => (
            "true",
            "§Hand to Hand Combat: barehanded fighters block by the hand-to-hand Block (+1 if the stronger, else -1), tackle (-3, -5 at range 1 or in a charge) and block-grab (-4/-6) into wrestling range, lunge by the hand-to-hand Lunge (maximum damage 1, edge -3, the initiative given up); at wrestling range everyone fights barehanded with his brawling skill: Pin (-5), Suffocate (-4), Counter (0), Reversal (-2), Escape (-4); false = bare hands fight as a weapon (range 0, edge -1, maximum damage 1)",
        ),
        /// §Wrestling Maneuvers: a hold is broken by checks, turn by turn.
        hold_checks: bool = true => (
            "true",
            "§Wrestling Maneuvers: a successful Pin or Suffocate \"ends normal combat\" and holds: every turn the target makes a might check (one card + might) to break it, above the value of the card played for it; a suffocated target then makes a vitality check (one card + vitality, above 0) or passes out; a pinned one who has not broken free in pin_turns turns is beaten; false = a hold wins at once (the former reading)", reading [true, false],
        ),
        /// INVENTED (not in the seed): turns a pin must hold to win.
        pin_turns: u32 = 3, in 1..=20 => (
            "3",
            "NOT IN THE SEED (invented, plausible 1–5): turns a Pin must hold, the target failing his might check each turn, before the holder wins (the post says only that the pin \"ends combat\" and the target may try every turn)", invented (1, 5, "no duration for a pin"),
        ),
        /// INVENTED (not in the seed): the Take Down's effect.
        take_down_penalty: i32 = 3, in 0..=10 => (
            "3",
            "NOT IN THE SEED (invented, plausible 2–5; the post says only that the target goes \"to the ground\"): a fighter thrown by a Take Down makes his maneuvers at minus this for the rest of the round (3 = the Prone modifier of §Other Modifiers)", invented (2, 5, "'to the ground'; 3 is the Prone modifier"),
        ),
        /// §Ranged Combat: the hand behind several shots in a round.
        shot_hand: ShotHand = ShotHand::Fresh => (
            "\"fresh\"",
            "a ranged weapon with several shots a round (a whole-number maximum maneuvers above 1): \"fresh\" (each shot a basic check with a fresh hand of skill cards, §Resolving Ranged Attacks) | \"one_hand\" (one hand of skill cards for the round, a card per shot, best first, no more shots than cards: §Compound Actions)", reading ["fresh", "one_hand"],
        ),
        /// §Surprise: whose skill opposes the defender's combat training.
        surprise_check: SurpriseCheck = SurpriseCheck::Stealth => (
            "\"stealth\"",
            "§Surprise (\"an opposed skill check\", against what not given): B's combat training + awareness against \"stealth\" (A's stealth + finesse) | \"combat_training\" (A's combat training + willpower)", reading ["stealth", "combat_training"],
        ),
        /// G12: extra damage of a hit on a called location (tactic `called_shot`).
        location_damage: LocationDamage = LocationDamage::default(), @nested => (
            "{ head = 0, head_vitals = 0, torso_vitals = 0, legs = 0, arms = 0 }",
            "G12 (§Hit Location: the effects are \"described later\", not in the post): damage added to a hit on a called location (the tactic called_shot), after the maximum-damage cap; 0 = a called shot only costs its modifier",
        ),
        /// §Changing Weapons / disarm: what a disarmed fighter does.
        on_disarm: OnDisarm = OnDisarm::BackupOrUnarmed => (
            "\"backup_or_unarmed\"",
            "disarm (§Disarming Attack: \"This does not necessarily end combat\"): \"backup_or_unarmed\" (spends a card to draw his backup weapon, §Changing Weapons; no backup = fights on barehanded, keeping his off-hand item) | \"backup_or_defeat\" (the digest's reading: no backup = defeated) | \"defeat\" | \"unarmed\" (fights on barehanded)", reading ["backup_or_unarmed", "backup_or_defeat", "defeat", "unarmed"],
        ),
        /// G10: initiative ties.
        initiative_tie: InitiativeTie = InitiativeTie::Redraw => (
            "\"redraw\"",
            "G10 initiative ties: \"redraw\" (both draw again) | \"willpower\" (higher willpower wins, then redraw)", reading ["redraw", "willpower"],
        ),
        /// G4: hit points are hp_base + vitality.
        hp_base: i32 = 5, in 1..=100 => (
            "5",
            "G4 hit points = hp_base + vitality; out of the fight at 0", invented (3, 10, "G4: the post gives hit points as base + vitality but no base; 3–10 keeps a duel to a few hits"),
        ),
        /// G4: the lowest damage total of a successful attack.
        damage_floor: i32 = 0, in -10..=0 => (
            "0",
            "G4: the damage total of a hit is at least this (card + edge can be negative)",
        ),
        /// §Charging / §Surprise: how the duel starts.
        start: Start = Start::Engaged => (
            "\"engaged\"",
            "start: \"engaged\" | \"a_charges\" (§Charging: one maneuver each in round 1, A has the initiative unless B's weapon is longer, A's maximum damage +1) | \"a_surprises\" (§Surprise: one undefendable attack by A; B with combat training makes an opposed check to avoid it) | \"show_down\" (§Show Downs: both draw their weapons; round 1's initiative draws the fast-draw skill instead of combat training)",
        ),
        /// §Ranged Combat: the distance in yards the duel starts at.
        distance: i32 = 0, in 0..=120 => (
            "0",
            "§Ranged Combat: yards between the fighters at the start; beyond the melee range they start apart: ranged weapons shoot (range bands of §Other Modifiers), fighters aim, dodge or block, and a fighter without a ranged weapon in range runs close_yards a round toward the other; 0 = engaged at the longest weapon's range (§Range)",
        ),
        /// INTERPRETATION (no movement rate in the post): yards run per round to close.
        close_yards: i32 = 20, in 1..=120 => (
            "20",
            "INTERPRETATION (the post gives no movement rate; a round read as about 5 seconds, digest G20): yards a fighter runs per round toward his opponent while apart", invented (10, 30, "G20: the post gives no movement rate; a 5-second round at a walk to a run"),
        ),
        /// §Charging: the closing fighter's arrival is a charge.
        arrival_charge: bool = true => (
            "true",
            "§Charging: a fighter who runs into melee range charges: that round ends with one melee maneuver each, the charger has the initiative (unless the other's weapon is longer) and maximum damage +1; false = the melee starts next round with an initiative draw",
        ),
        /// §Other Modifiers: a running or standing target.
        target_motion: bool = true => (
            "true",
            "§Other Modifiers: a shot at a fighter running to close is at -1 (Running), at one standing to shoot, aim or wait at +1 (Stationary); false = neither",
        ),
        /// §Other Modifiers: what else modifies every shot.
        shot_modifier: i32 = 0, in -20..=20 => (
            "0",
            "§Other Modifiers: added to every shot, for the target's situation the duel does not track (prone -3, partially obscured -3, in low light -2, riding -2; cumulative)",
        ),
        /// The round cap: a duel still going is a draw.
        max_rounds: u32 = 50, in 1..=10000 => (
            "50",
            "round cap; a duel still going after it is a draw (timeout)",
        ),
    }
    requires = OPTION_REQUIRES;
}

const fn on(field: &'static str, is: Is) -> [Cond; 1] {
    [cond(field, is)]
}

const TRUE: Is = Is::OneOf(&["true"]);
const APART: Is = Is::NoneOf(&["0"]);

/// The options read only with another option ("only with …" in `oddsmith rulesets cards`),
/// checked for every file by the loader.
pub const OPTION_REQUIRES: &[Requires] = &[
    refuse(
        "custom_deck",
        &on("deck", Is::OneOf(&["custom"])),
        "add deck = \"custom\" to play these cards",
    ),
    warn("jokers", &on("deck", Is::OneOf(&["d44"])), "a custom deck has only its own cards"),
    warn("hit_chain", &on("hit_rule", Is::OneOf(&["draw_add"])), "with hit_rule = \"none\" no card is hit"),
    warn("no_step_back_delta", &on("range_model", TRUE), "without the range model the range never moves"),
    warn("unopposed_attack_closes_range", &on("range_model", TRUE), "without the range model the range never moves"),
    warn("long_weapon_can_parry_inside_reach", &on("range_model", TRUE), "without the range model every weapon parries"),
    warn("dodge_steps_back", &on("melee_dodge", TRUE), "the melee dodge is turned off"),
    warn("pin_turns", &on("hold_checks", TRUE), "without hold checks a pin wins at once"),
    warn("hold_checks", &on("hand_to_hand", TRUE), "with hand_to_hand = false there is no wrestling"),
    warn("take_down_penalty", &on("hand_to_hand", TRUE), "with hand_to_hand = false there is no Take Down"),
    warn("shot_hand", &on("distance", APART), "with distance 0 no missile flies before the melee"),
    warn("surprise_check", &on("start", Is::OneOf(&["a_surprises"])), "only a surprise start makes the check"),
    warn("shield_bash_head_penalty", &on("shield_bash", TRUE), "Shield Bash is turned off"),
    warn("close_yards", &on("distance", APART), "with distance 0 the duel starts engaged: no one runs"),
    warn("arrival_charge", &on("distance", APART), "with distance 0 the duel starts engaged: no one arrives"),
    warn("target_motion", &on("distance", APART), "with distance 0 no missile flies before the melee"),
    warn("shot_modifier", &on("distance", APART), "with distance 0 no missile flies before the melee"),
    warn("distance", &on("range_model", TRUE), "without the range model the duel starts engaged"),
];

/// Documentation of every option, in declaration order.
pub const OPTION_DOCS: &[FieldDoc] = CardsOptions::DOCS;

/// G1: the deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckChoice {
    /// The digest's D44 reading.
    D44,
    /// The cards of `custom_deck`.
    Custom,
}

/// G1: the jokers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Jokers {
    /// Jokers count 0.
    Zero,
    /// Jokers are wild: the holder names the deck's highest value.
    Wild,
    /// No jokers (42 cards).
    Remove,
}

/// G3: reshuffle policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reshuffle {
    /// Discards go back when the stock runs out.
    WhenEmpty,
    /// Every card goes back at the start of every round.
    EveryRound,
    /// Every card goes back before every draw.
    EveryCheck,
}

/// G3: deck ownership.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckOwner {
    /// Each fighter has his own deck.
    PerFighter,
    /// Both fighters draw from one deck.
    Shared,
}

/// G2: the hit rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitRule {
    /// Draw the top card and add it.
    DrawAdd,
    /// Hit cards are plain cards.
    None,
}

/// What happens to a disarmed fighter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnDisarm {
    /// He changes to his backup weapon (a card, no other action); without one he fights on
    /// barehanded, keeping his off-hand item (§Disarming Attack: "This does not necessarily
    /// end combat").
    BackupOrUnarmed,
    /// He changes to his backup weapon (a card, no other action); without one he is defeated.
    BackupOrDefeat,
    /// He is defeated.
    Defeat,
    /// He fights on barehanded.
    Unarmed,
}

/// G10: initiative ties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InitiativeTie {
    /// Both draw again.
    Redraw,
    /// Higher willpower wins; equal willpower redraws.
    Willpower,
}

/// §Surprise: the attacker's side of the check the defender makes to avoid surprise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SurpriseCheck {
    /// A's stealth + finesse.
    Stealth,
    /// A's combat training + willpower.
    CombatTraining,
}

/// §Ranged Combat: the hand behind several shots in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShotHand {
    /// Each shot its own basic check, a fresh hand.
    Fresh,
    /// One hand for the round, a card per shot.
    OneHand,
}

/// How the duel starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// Both engaged at the longest weapon's range.
    Engaged,
    /// A charges (§Charging).
    ACharges,
    /// A surprises B (§Surprise).
    ASurprises,
    /// Both must draw their weapons (§Show Downs): round 1's initiative is drawn by fast-draw.
    ShowDown,
}

crate::options! {
    /// G12: damage added to a hit on each called location (§Hit Location).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct LocationDamage {
        /// The head (−5).
        head: i32 = 0, in 0..=10 => ("0", "the head (-5)", invented (0, 3, "G12: §Hit Location's effects are \"described later\", never given")),
        /// The head's vitals (−8).
        head_vitals: i32 = 0, in 0..=10 => ("0", "the head's vitals (-8)", invented (0, 3, "G12: §Hit Location's effects are \"described later\", never given")),
        /// The torso's vitals (−6).
        torso_vitals: i32 = 0, in 0..=10 => ("0", "the torso's vitals (-6)", invented (0, 3, "G12: §Hit Location's effects are \"described later\", never given")),
        /// The legs (−3).
        legs: i32 = 0, in 0..=10 => ("0", "the legs (-3)", invented (0, 3, "G12: §Hit Location's effects are \"described later\", never given")),
        /// The arms (−3).
        arms: i32 = 0, in 0..=10 => ("0", "the arms (-3)", invented (0, 3, "G12: §Hit Location's effects are \"described later\", never given")),
    }
}

impl LocationDamage {
    /// The damage added to a hit on `loc` (none on the torso).
    pub fn of(&self, loc: Location) -> i32 {
        match loc {
            Location::Torso => 0,
            Location::Head => self.head,
            Location::HeadVitals => self.head_vitals,
            Location::TorsoVitals => self.torso_vitals,
            Location::Legs => self.legs,
            Location::Arms => self.arms,
        }
    }
}
