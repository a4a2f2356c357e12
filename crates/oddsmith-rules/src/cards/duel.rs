//! The card duel ("Random Combat Rules" §Turn Sequence): one `step` is one round —
//! initiative (round 1, or after a tie), hands drawn in secret, the attacker and the defender
//! declaring register by register under their tactics, each register revealed and resolved
//! simultaneously (hits drawn after the reveal), range and initiative changing as maneuvers
//! resolve. The decks travel in the state, so the duel is Monte Carlo only.
//!
//! Declaring and resolving are interleaved, which the rules' "declare everything, then
//! resolve" order allows because a tactic sees only what was declared: the range a tactic
//! reads (`decl_range`) is the range as of the last resolve-immediately maneuver (Close,
//! Retreat, Parry/Seize, Disarming Attack), and a maneuver that has become illegal by the time
//! it resolves fails and spends its card (digest §4.5).
//!
//! Against a large foe («Large Creature Maneuvers», only in the general form) the tactics may
//! Flank, Cling and Buck; who flanks until when and who clings travel in the state
//! ([`Unusual`]; in a group, per pairing).
//!
//! A round's registers come in two forms of the same code (`registers::<P>`): the plain form,
//! chosen once per matchup by [`Matchup::plain`] (no off-hand item, no ranged weapon, nobody
//! who wrestles), has the branches that cannot arise there folded away; a test plays both forms
//! on the same cards and finds the same duels.

use oddsmith_dice::deck::{Card, Deck, Hand};

use super::Cards;
use super::fighter::{
    Arm, Fighter, HITS_ALWAYS, HITS_NEVER, Kit, Matchup, PLAY_BASH, PLAY_CLOSE_WITH_PARRY,
    PLAY_DISARM, PLAY_DISENGAGE, PLAY_DODGE, PLAY_HESITATE, PLAY_KEEP_REACH, PLAY_LUNGE, PLAY_PASS,
    PLAY_RANGE_FIX, PLAY_TACKLE, PLAY_FLANK, PLAY_CLING, PLAY_BUCK,
};
use super::options::{
    CardsOptions, DeckOwner, InitiativeTie, OnDisarm, Reshuffle, Start, SurpriseCheck,
};
use super::spec::{AttackerPolicy, DefenderPolicy, FoeSize, Hesitate, Hold};
use crate::solver::Step;
use crate::{Ending, Roller, Tally, Winner};

/// The head's called-shot modifier (§Hit Location), for a Shield Bash under
/// `shield_bash_head_penalty`.
pub const HEAD: i32 = -5;

/// Wrestling range (§Range: "the combatants are effectively on top of one another"; digest
/// §4.1 INTERPRETATION: −1, below close range 0).
pub const WRESTLING: i8 = -1;

/// Registers per round at most (a safety bound; hands hold at most 16 cards).
pub const MAX_REGISTERS: usize = 40;

/// Kit: the main weapon (and off-hand item).
pub const KIT_MAIN: u8 = 0;
/// Kit: the backup weapon.
pub const KIT_BACKUP: u8 = 1;
/// Kit: bare hands.
pub const KIT_BARE: u8 = 2;
/// Kit: disarmed, must spend a card to draw the backup weapon.
pub const KIT_DISARMED: u8 = 3;

/// Per-side counter: rounds begun with the initiative.
pub const C_INITIATIVE: usize = 0;
/// Per-side counter: successful disarms.
pub const C_DISARMS: usize = 1;
/// Per-side counter: successful Parry/Seize the Initiative.
pub const C_SEIZES: usize = 2;
/// Per-side counter: cards drawn by hitting.
pub const C_HIT_DRAWS: usize = 3;

#[cfg(test)]
#[test]
fn per_side_counters_match_their_names() {
    let n = |k: usize| super::COUNTERS[k];
    assert_eq!(
        [n(C_INITIATIVE), n(C_DISARMS), n(C_SEIZES), n(C_HIT_DRAWS)],
        ["a_initiative_rounds", "a_disarms", "a_seizes", "a_hit_draws"]
    );
}

/// The duel between two rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct State {
    /// Rounds begun.
    pub round: u32,
    /// Hit points left.
    pub hp: [i16; 2],
    /// Current range in yards.
    pub range: i8,
    /// Side holding the initiative (2 = to be drawn).
    pub init: u8,
    /// What each side fights with (`KIT_*`).
    pub kit: [u8; 2],
    /// The weapon was drawn last round: this round's hand is min(skill, fast-draw).
    pub fresh: [bool; 2],
    /// The decks (only `decks[0]` under a shared deck).
    pub decks: [Deck; 2],
    /// Apart (§Ranged Combat): `range` is the distance in yards, and a round is shots, aiming
    /// and running (see [`super::ranged`]).
    pub apart: bool,
    /// Each side's aiming row (§Aiming).
    pub aim: [AimRow; 2],
    /// Rounds until each side's ranged weapon is ready again (a "1/N" maximum maneuver).
    pub reload: [u8; 2],
    /// A group fight's members and pairings outside the seats (§Multiple Opponents; see
    /// [`super::group`]).
    pub g: Group,
    /// A Pin or Suffocate being held (§Wrestling Maneuvers), under `hold_checks`.
    pub hold: Held,
    /// Flanks and clings between the two seats («Large Creature Maneuvers»).
    pub u: Unusual,
}

/// «Large Creature Maneuvers» between two foes: who flanks and who clings. Left as built
/// (nobody) unless a side's foe is large to him ([`Matchup::unusual`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Unusual {
    /// The last round side `x`'s flank of his foe is in force (0 = none): "the target may
    /// not attack or dodge blows from the attacker next round or for the remainder of the
    /// current round". (A round fits: `max_rounds` is at most 10,000; a `u16` keeps the
    /// state, which every duel copies and every group pairing swaps, small.)
    pub flank: [u16; 2],
    /// Side `x` clings to his foe: he attacks with any weapon, the foe only with range-0
    /// weapons.
    pub cling: [bool; 2],
    /// Side `x` clung while his flank was in force: "the target can not attack the character
    /// at all" while he clings.
    pub barred: [bool; 2],
}

impl Unusual {
    /// Side `x`'s flank of his foe is in force in round `round`.
    #[inline]
    pub fn flanks(&self, x: usize, round: u32) -> bool {
        u32::from(self.flank[x]) >= round
    }
    /// Side `x` may not attack his foe at all: the foe's flank is in force, or the foe clings
    /// to him after flanking.
    #[inline]
    pub fn barred(&self, x: usize, round: u32) -> bool {
        self.flanks(1 - x, round) || (self.cling[1 - x] && self.barred[1 - x])
    }
}

/// §Wrestling Maneuvers: a successful Pin or Suffocate "ends normal combat"; every turn the
/// target may make a might check to break the hold, opposed by the value of the card played
/// for it, and a suffocated target makes a vitality check or passes out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Held {
    /// A hold is on.
    pub on: bool,
    /// The side holding.
    pub by: u8,
    /// The value of the card played for the hold.
    pub card: i8,
    /// A Suffocate (else a Pin).
    pub suffocate: bool,
    /// Turns the pin has held.
    pub turns: u8,
}

crate::duel_state!(State);

/// Most members a side in a group fight (§Multiple Opponents).
pub const MAX_BAND: usize = 4;

/// Most cards in an aiming row.
pub const MAX_AIM: usize = 10;

/// §Aiming: the face-up row of cards dealt while aiming, oldest first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AimRow {
    /// The cards showing, oldest first.
    pub cards: [Card; MAX_AIM],
    /// Cards showing.
    pub len: u8,
    /// Rounds aimed since the last shot.
    pub rounds: u8,
}

impl AimRow {
    /// The cards showing.
    pub fn showing(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
    /// The best showing card.
    pub fn best(&self) -> Option<Card> {
        self.showing().iter().copied().max()
    }
    /// Deals `c` into the row; once the row holds more than `aim` cards the oldest goes
    /// ("the oldest played card is discarded as a new one is dealt").
    pub fn deal(&mut self, c: Card, aim: u8) {
        let aim = usize::from(aim).clamp(1, MAX_AIM);
        let n = usize::from(self.len);
        if n >= aim {
            self.cards.copy_within(n + 1 - aim..n, 0);
            self.len = (aim - 1) as u8;
        }
        self.cards[usize::from(self.len)] = c;
        self.len += 1;
        self.rounds = self.rounds.saturating_add(1);
    }
}

/// A group fight's part of the state (§Multiple Opponents): each side's member 0 sits in the
/// side's seat (`hp`, `kit`, `fresh`, `decks`) and the pairing of the two members 0 in
/// `range`/`init`; the others wait here and are swapped into the seats pairing by pairing
/// ([`super::group`]). A duel leaves it as built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Group {
    /// Members 1.. of each side (`m[side][k - 1]` is member `k`).
    pub m: [[Member; MAX_BAND - 1]; 2],
    /// The pairing of A's member `i` and B's member `j` (`p[i][j]`; `p[0][0]` is unused: that
    /// pairing sits in `range`/`init`).
    pub p: [[Pairing; MAX_BAND]; MAX_BAND],
    /// The pairing's flanks and clings («Large Creature Maneuvers»; `u[i][j]` as `p`, with
    /// `u[0][0]` unused: that pairing's sit in `State::u`). Apart from `p` so a pairing stays
    /// two bytes.
    pub u: [[Unusual; MAX_BAND]; MAX_BAND],
    /// Members out of the fight, each side (bit `k` = member `k`; members beyond the side's
    /// count are out from the start).
    pub out: [u8; 2],
}

/// One member's own part of the state outside the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Member {
    /// Hit points left.
    pub hp: i16,
    /// What he fights with.
    pub kit: u8,
    /// His weapon was drawn last round.
    pub fresh: bool,
    /// His deck.
    pub deck: Deck,
}

/// One pairing of two foes (each pairing has its own range and initiative holder, digest
/// §4.13).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pairing {
    /// Range in yards.
    pub range: i8,
    /// Who holds the initiative (0 A's member, 1 B's; 2 = to be drawn, or nobody this round).
    pub init: u8,
}

/// A maneuver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Man {
    /// Attack (0), needs the initiative.
    Attack,
    /// Attack without stepping forward (−2, §Range): against a defence that steps back the
    /// range grows by one; against none, or a parry without stepping back, it stays.
    AttackNoStep,
    /// Disarming Attack (−5), resolve immediately.
    Disarm,
    /// Close (−3), resolve immediately: range −1.
    Close,
    /// Retreat (−3), resolve immediately: range +1.
    Retreat,
    /// Lunge (−2): an attack one yard beyond the weapon's range, maximum damage +1.
    Lunge,
    /// Push (0), resolve immediately, only at range 0: range +1; prevented only by a dodge.
    Push,
    /// Shield Bash (§Shield Bash): an attack with a small shield at range 0, maximum damage
    /// 1; once a round, and the shield cannot block that round.
    ShieldBash,
    /// Offensive Disengage (−4), resolve immediately: an attack and a quick retreat; on success
    /// combat ends and the defender takes no damage. Prevented by a parry or block.
    Disengage,
    /// Tackle (−3; −5 at range 1 or in a charge), barehanded, needs the initiative: no damage,
    /// into wrestling range; the initiative is drawn again (the round ends).
    Tackle,
    /// Escape (−4), resolve immediately: from wrestling range to close range 0.
    Escape,
    /// Pin (−5), at wrestling range, needs the initiative: on success the holder wins.
    Pin,
    /// Suffocate (−4), at wrestling range, needs the initiative: on success the target is
    /// out (he passes out, the hold being kept).
    Suffocate,
    /// Hand-to-hand Block (+1 if the defender's might is higher than the attacker's, else −1):
    /// a barehanded parry.
    HandBlock,
    /// Block Grab (−4 if the defender's might is higher, else −6), resolve immediately: a
    /// block that takes the fight into wrestling range and the initiative.
    BlockGrab,
    /// Counter (0), at wrestling range: prevents the opponent's maneuver.
    Counter,
    /// Reversal (−2), resolve immediately: a counter that also takes the initiative.
    Reversal,
    /// Drop the weapon and draw the backup (§Changing Weapons): no other action this round.
    Change,
    /// Parry (0), stepping back.
    Parry,
    /// Parry without stepping back (−2): the range changes by `no_step_back_delta`.
    ParryNoStep,
    /// Parry/Seize the Initiative (−3), resolve immediately.
    Seize,
    /// Melee Dodge (−2, no force; once per round, outside the maximum maneuvers).
    Dodge,
    /// Block with a shield (0).
    Block,
    /// The hand-to-hand Dodge (0, §Striking Maneuvers): prevents an attack by moving out of
    /// its way; no weapon, so no force.
    HandDodge,
    /// Dodge Seize the Initiative (−3, §Striking Maneuvers), resolve immediately: if the
    /// dodge succeeds the dodger takes the initiative.
    DodgeSeize,
    /// Leg Attack (−1, §Striking Maneuvers): maximum damage 1, edge −1.
    LegAttack,
    /// Head Butt (−2, §Striking Maneuvers): maximum damage 1, edge −1; the attacker takes
    /// half the damage he deals (rounded down).
    HeadButt,
    /// Take Down (less the defender's finesse, §Striking Maneuvers): no damage; the thrown
    /// fighter's maneuvers are at −`take_down_penalty` for the rest of the round.
    TakeDown,
    /// Flank («Large Creature Maneuvers»; less the target's finesse, digest G18), against a
    /// large foe, needs the initiative: no damage; the target may not attack the flanker or
    /// dodge his blows for the rest of the round and the next. Prevented by a dodge.
    Flank,
    /// Cling (−4, «Large Creature Maneuvers»), against a large foe, needs the initiative: the
    /// clinger attacks with any weapon at any range, the target only with range-0 weapons (not
    /// at all after a flank). Countered by a Buck.
    Cling,
    /// Buck (0, «Small Creature Maneuvers»): throws off a foe clinging to the bucker; as a
    /// defence it counters a Cling.
    Buck,
    /// Swipe («Small Creature Maneuvers»; less the number of creatures attacked), against
    /// several small foes, needs the initiative: one card attacks each of them, each defends
    /// on his own, and each who does not is hit. Declared in a group fight only
    /// ([`super::group`]), where the number attacked is [`SideRound::swipe`].
    Swipe,
    /// Smash (−2, «Small Creature Maneuvers»), with an impact weapon against a small foe, needs
    /// the initiative: the damage total and the maximum damage are tripled; the smasher then
    /// takes no other action that round and surrenders the initiative.
    Smash,
}

impl Man {
    /// The maneuver's difficulty (§Basic and §Complex Maneuvers).
    pub fn difficulty(self) -> i32 {
        match self {
            Man::Attack | Man::Parry | Man::Block | Man::Change | Man::Push | Man::ShieldBash => 0,
            Man::Disengage | Man::Escape | Man::Suffocate => -4,
            Man::Counter | Man::HandBlock | Man::BlockGrab => 0,
            Man::Reversal => -2,
            Man::Tackle => -3,
            Man::Pin => -5,
            Man::Disarm => -5,
            Man::Close | Man::Retreat | Man::Seize => -3,
            Man::ParryNoStep | Man::Dodge | Man::Lunge | Man::AttackNoStep => -2,
            Man::HandDodge | Man::TakeDown => 0,
            Man::DodgeSeize => -3,
            Man::LegAttack => -1,
            Man::HeadButt => -2,
            Man::Flank | Man::Buck => 0,
            Man::Cling => -4,
            // «Swipe»: "The negative modifier is the number of creatures being attacked" (in
            // `resolve`, from [`SideRound::swipe`]).
            Man::Swipe => 0,
            Man::Smash => -2,
        }
    }
    /// Every maneuver, in declaration order (`man as usize` is its index).
    pub const ALL: [Man; 33] = [
        Man::Attack,
        Man::AttackNoStep,
        Man::Disarm,
        Man::Close,
        Man::Retreat,
        Man::Lunge,
        Man::Push,
        Man::ShieldBash,
        Man::Disengage,
        Man::Tackle,
        Man::Escape,
        Man::Pin,
        Man::Suffocate,
        Man::HandBlock,
        Man::BlockGrab,
        Man::Counter,
        Man::Reversal,
        Man::Change,
        Man::Parry,
        Man::ParryNoStep,
        Man::Seize,
        Man::Dodge,
        Man::Block,
        Man::HandDodge,
        Man::DodgeSeize,
        Man::LegAttack,
        Man::HeadButt,
        Man::TakeDown,
        Man::Flank,
        Man::Cling,
        Man::Buck,
        Man::Swipe,
        Man::Smash,
    ];
    /// Whether this defence prevents `attack` (the "prevented by" clauses; a counter or
    /// reversal "prevents an opponent's maneuver"): [`Man::prevents_rule`], tabulated.
    #[inline]
    pub fn prevents(self, attack: Man) -> bool {
        PREVENTS[self as usize] >> (attack as u32) & 1 != 0
    }
    /// The rule [`Man::prevents`] reads from its table.
    pub const fn prevents_rule(self, attack: Man) -> bool {
        let parry = matches!(self, Man::Parry | Man::ParryNoStep | Man::Seize);
        let block = matches!(self, Man::Block | Man::HandBlock | Man::BlockGrab);
        let counter = matches!(self, Man::Counter | Man::Reversal);
        let dodge = matches!(self, Man::Dodge | Man::HandDodge | Man::DodgeSeize);
        // The hand-to-hand Disengage "can be prevented with a successful dodge or block".
        let hand_dodge = matches!(self, Man::HandDodge | Man::DodgeSeize);
        counter
            || match attack {
                Man::Attack
                | Man::AttackNoStep
                | Man::Disarm
                | Man::Lunge
                | Man::ShieldBash
                | Man::Tackle
                | Man::LegAttack
                | Man::HeadButt
                | Man::TakeDown
                // «Swipe»: "Each target gets a normal defense"; a Smash is an attack.
                | Man::Swipe
                | Man::Smash => parry || block || dodge,
                Man::Close | Man::Retreat => parry || block,
                Man::Disengage => parry || block || hand_dodge,
                Man::Push => dodge,
                // «Flank»: "A flank can be prevented by a successful dodge"; «Buck»: "A
                // successful buck will counter a cling".
                Man::Flank => dodge,
                Man::Cling => matches!(self, Man::Buck),
                _ => false,
            }
    }
}

// `Man::ALL` lists the maneuvers in declaration order, so `man as usize` indexes it and
// `PREVENTS` (checked at compile time; a new maneuver must be added to `ALL` in its place).
const _: () = {
    let mut i = 0;
    while i < Man::ALL.len() {
        assert!(Man::ALL[i] as usize == i);
        i += 1;
    }
    assert!(Man::ALL.len() <= 64, "a maneuver's bit must fit PREVENTS' u64");
};

/// [`Man::prevents_rule`] for every pair: bit `attack` of `PREVENTS[defence]`.
const PREVENTS: [u64; Man::ALL.len()] = {
    let n = Man::ALL.len();
    let mut t = [0u64; Man::ALL.len()];
    let mut d = 0;
    while d < n {
        let mut a = 0;
        while a < n {
            if Man::ALL[d].prevents_rule(Man::ALL[a]) {
                t[d] |= 1 << a;
            }
            a += 1;
        }
        d += 1;
    }
    t
};

#[cfg(test)]
#[test]
fn prevents_reads_the_rule_for_every_pair() {
    for (i, &d) in Man::ALL.iter().enumerate() {
        assert_eq!(d as usize, i, "Man::ALL in declaration order");
        for &a in &Man::ALL {
            assert_eq!(d.prevents(a), d.prevents_rule(a), "{d:?} against {a:?}");
        }
    }
}

/// One declaration: a maneuver, its card, and the arm used (0 primary, 1 secondary, 2 none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decl {
    /// The maneuver.
    pub man: Man,
    /// The card played face down.
    pub card: Card,
    /// Which arm: 0 the primary weapon, 1 the off-hand item, 2 none (dodge, change).
    pub arm: u8,
}

/// One side's round: hand, maneuvers used, once-per-round flags.
#[derive(Clone, Copy, Debug, Default)]
pub struct SideRound {
    /// Cards left in hand.
    pub hand: Hand,
    /// Maneuvers used with the primary and the off-hand arm.
    pub used: [u8; 2],
    /// Maneuvers used in all (dodges excluded).
    pub total: u8,
    /// Most maneuvers this round.
    pub cap: u8,
    /// A melee dodge was used.
    pub dodged: bool,
    /// A Parry/Seize was declared.
    pub seized: bool,
    /// A no-step-back parry was declared.
    pub no_step: bool,
    /// No further action this round (after a weapon change).
    pub done: bool,
    /// Maneuvers declared as the attacker.
    pub declared: u8,
    /// Hesitated this round (§Hesitating; once a round).
    pub hesitated: bool,
    /// Bashed with the shield this round: it cannot block (§Shield Bash).
    pub bashed: bool,
    /// Thrown by a Take Down this round: his maneuvers are at −`take_down_penalty`.
    pub down: bool,
    /// The creatures his Swipe of this register attacks («Swipe»: its modifier is minus
    /// this; a group fight's only).
    pub swipe: u8,
    /// His Swipe's card total after hits, once its first target's register has resolved: the
    /// one card serves every target.
    pub swipe_total: Option<i16>,
}

/// What one register came to (for replays and tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Register {
    /// The attacker's maneuver total (card, hits, modifiers, difficulty).
    pub attack_total: i32,
    /// The defence total, if the register was opposed.
    pub defense_total: Option<i32>,
    /// Attack total after a positive defence is subtracted.
    pub net: i32,
    /// Whether the attacker's maneuver succeeded.
    pub success: bool,
    /// Damage dealt.
    pub damage: i32,
}

#[inline]
pub(super) fn draw<R: Roller>(deck: &mut Deck, r: &mut R) -> Option<Card> {
    deck.draw_with(|n| r.roll(n) - 1)
}

#[inline]
pub(super) fn deck_of(o: &CardsOptions, side: usize) -> usize {
    if o.deck_owner == DeckOwner::Shared {
        0
    } else {
        side
    }
}

pub(super) fn reset_decks(o: &CardsOptions, s: &mut State) {
    for d in &mut s.decks {
        d.reset();
    }
    // §Aiming (digest §2.4): the cards of an aiming row stay out while they show.
    for side in 0..2 {
        let row = s.aim[side];
        for &c in row.showing() {
            s.decks[deck_of(o, side)].draw_card(c);
        }
    }
}

/// Ends a round's or a check's draws: every card out goes to its discard pile, except the
/// aiming rows (digest §2.4: "Aiming cards stay out while they are showing").
pub(super) fn discard_round(o: &CardsOptions, s: &mut State) {
    let mut keep = [Card::default(); 2 * MAX_AIM];
    for d in 0..2 {
        let mut n = 0;
        for side in (0..2).filter(|&side| deck_of(o, side) == d) {
            for &c in s.aim[side].showing() {
                keep[n] = c;
                n += 1;
            }
        }
        s.decks[d].discard_out_except(&keep[..n]);
    }
}

/// The range a weapon fights at in melee: a ranged weapon has no reach.
#[inline]
pub(super) fn melee_range(a: Arm) -> i8 {
    if a.ranged { 0 } else { a.range }
}

/// What a side's kit gives now (folded per matchup: [`Matchup::kits`]).
#[inline(always)]
pub fn kit<'m>(m: &'m Matchup, s: &State, side: usize) -> &'m Kit {
    &m.kits[side][usize::from(s.kit[side] & 3) + 4 * usize::from(s.range < 0)]
}

/// [`kit`] in the registers' form `P` ([`Matchup::plain`]: the range is never below 0, so
/// never the wrestling kits). `side` is 0 or 1.
#[inline(always)]
fn kit_in<'m, const P: bool>(m: &'m Matchup, s: &State, side: usize) -> &'m Kit {
    let side = side & 1;
    &m.kits[side][usize::from(s.kit[side] & 3) + 4 * usize::from(wrestling::<P>(s.range))]
}

/// Whether `range` is wrestling range; never in the plain form `P` ([`Matchup::plain`]).
#[inline(always)]
fn wrestling<const P: bool>(range: i8) -> bool {
    !P && range < 0
}

/// How many arms a kit may hold in the registers' form `P`: one in the plain form (no
/// off-hand item: [`Matchup::plain`]), else two.
#[inline(always)]
const fn arms_in<const P: bool>() -> usize {
    if P { 1 } else { 2 }
}

/// The plain form's arm `i` of `arms` (0 the primary weapon, 1 the off-hand item, 2 none): the
/// primary weapon or none, as the plain form has no off-hand item ([`Matchup::plain`]).
#[inline(always)]
fn primary(arms: &[Option<Arm>; 2], i: u8) -> Option<&Arm> {
    if i == 0 { arms[0].as_ref() } else { None }
}

/// The arm a declared maneuver names (`i`: 0 the primary weapon, 1 the off-hand item, 2 none,
/// read as 1), in the registers' form `P`: in the plain form only the primary weapon, as it has
/// no off-hand item ([`Matchup::plain`]).
#[inline(always)]
fn declared_arm<const P: bool>(arms: &[Option<Arm>; 2], i: u8) -> Option<&Arm> {
    if P { primary(arms, i) } else { arms[usize::from(i.min(1))].as_ref() }
}

/// The arms a side fights with now: [primary, off-hand] (folded per matchup:
/// [`Matchup::arms_of`]).
#[inline(always)]
pub fn arms<'m>(m: &'m Matchup, s: &State, side: usize) -> &'m [Option<Arm>; 2] {
    &kit(m, s, side).arms
}

/// Whether a side with kit `k` holds a ranged weapon in melee (he must change or drop it).
#[inline]
fn ranged_in_melee(s: &State, k: &Kit) -> bool {
    !s.apart && k.ranged_main
}

/// The longest weapon in the combat between sides with kits `a` and `b` (the Retreat limit).
#[inline]
fn longest(a: &Kit, b: &Kit) -> i8 {
    a.reach.max(b.reach)
}

/// The side's reach: its longest weapon's range ([`Matchup::reach_of`]).
#[inline]
pub(super) fn reach(m: &Matchup, s: &State, side: usize) -> i8 {
    kit(m, s, side).reach
}

/// Cards in the side's hand this round (§Draw Hands, §Shields…, §Changing Weapons; folded per
/// matchup: [`Matchup::hand_of`]).
#[inline]
pub fn hand_size(m: &Matchup, s: &State, side: usize) -> usize {
    usize::from(kit(m, s, side).hand[usize::from(s.fresh[side])])
}

/// Most maneuvers a side may take this round: the weapon's maximum maneuvers, or with an
/// off-hand item the higher of the two plus one (§Shields…).
#[inline]
pub fn cap(a: [Option<Arm>; 2]) -> u8 {
    match a {
        [Some(p), Some(o)] => p.mm.max(o.mm).saturating_add(1),
        [Some(p), None] => p.mm,
        _ => 1,
    }
}

/// Whether arm `a` can attack at `range` (§Range: only at its own range).
#[inline]
pub fn can_attack(o: &CardsOptions, a: Arm, range: i8) -> bool {
    can_attack_in::<false>(o, a, range)
}

/// [`can_attack`] in the registers' form `P` (in the plain form no arm is a shield or ranged,
/// and the range is never below 0: [`Matchup::plain`]).
#[inline(always)]
fn can_attack_in<const P: bool>(o: &CardsOptions, a: Arm, range: i8) -> bool {
    (P || (!a.shield && !a.ranged))
        && (!o.range_model || a.range == range || (a.bare && wrestling::<P>(range)))
}

/// Whether side `att`'s arm `a` can attack his foe at `range` ([`can_attack_in`]), with the
/// «Cling» rules in the general form: a clinger "may attack with any weapon he wishes", and
/// the one clung to "cannot use any attack with a range greater than 0 against the clinging
/// character".
#[inline(always)]
fn reaches<const P: bool, const U: bool>(
    o: &CardsOptions,
    s: &State,
    att: usize,
    a: Arm,
    range: i8,
) -> bool {
    if P || !U {
        return can_attack_in::<P>(o, a, range);
    }
    let u = &s.u;
    if clung_to(s, att, a) {
        return false;
    }
    can_attack_in::<P>(o, a, range) || (u.cling[att] && !a.shield && !a.ranged)
}

/// Whether side `att`'s arm `a` is barred by a cling: his foe clings to him and `a` has a
/// range above 0 («Cling»: "his opponent cannot use any attack with a range greater than 0
/// against the clinging character"; never in the plain form).
#[inline(always)]
fn clung_to(s: &State, att: usize, a: Arm) -> bool {
    s.u.cling[1 - att] && a.range > 0
}

/// Whether side `att` may declare a Lunge with arm `a` at `range` (§Complex Maneuvers Lunge:
/// one yard short; no shield; no weapon of range above 0 against a clinger, «Cling»).
#[inline(always)]
fn lunges<const P: bool, const U: bool>(s: &State, att: usize, a: Arm, range: i8) -> bool {
    (P || (!a.shield && !(U && clung_to(s, att, a)))) && a.range + 1 == range
}

/// Whether arm `own` can parry `theirs` at `range` (§Range: at its own range or against a
/// longer weapon; G15; shields block at any range).
#[inline]
pub fn can_parry(o: &CardsOptions, own: Arm, theirs: Option<Arm>, range: i8) -> bool {
    can_parry_in::<false>(o, own, theirs, range)
}

/// [`can_parry`] in the registers' form `P` ([`Matchup::plain`]).
#[inline(always)]
fn can_parry_in<const P: bool>(o: &CardsOptions, own: Arm, theirs: Option<Arm>, range: i8) -> bool {
    if !P && own.ranged {
        return false;
    }
    if (!P && own.shield) || !o.range_model || (own.bare && wrestling::<P>(range)) {
        return true;
    }
    own.range == range
        || theirs.is_some_and(|t| t.range > own.range)
        || (o.long_weapon_can_parry_inside_reach && own.range > range)
}

/// [`can_parry`], or against a Lunge one yard beyond one's own range ("the opponent is
/// afforded the same advantage", §Complex Maneuvers Lunge).
#[inline(always)]
fn can_parry_vs<const P: bool>(o: &CardsOptions, own: &Arm, theirs: Option<&Arm>, range: i8, man: Man) -> bool {
    can_parry_in::<P>(o, *own, theirs.copied(), range)
        || (matches!(man, Man::Lunge | Man::Tackle) && own.range + 1 == range)
}

/// The part of a maneuver's difficulty that depends on the fighters or the range: the
/// hand-to-hand Block and Block Grab by might (§Striking Maneuvers; E8: "strength" is might),
/// a Tackle at range 1 or in a charge −2. `att` holds the initiative.
#[inline]
fn situational(m: &Matchup, s: &State, att: usize, man: Man, charge: bool) -> i32 {
    situational_in::<false>(m, s, att, man, charge)
}

/// [`situational`] in the registers' form `P` (no Block Grab or Tackle in the plain form:
/// no side wrestles, [`Matchup::plain`]).
#[inline(always)]
fn situational_in<const P: bool>(m: &Matchup, s: &State, att: usize, man: Man, charge: bool) -> i32 {
    let stronger = || m.f[1 - att].might > m.f[att].might;
    match man {
        Man::HandBlock if stronger() => 1,
        Man::HandBlock => -1,
        Man::BlockGrab if !P && stronger() => -4,
        Man::BlockGrab if !P => -6,
        Man::Tackle if !P && (s.range == 1 || charge) => -2,
        Man::TakeDown => -m.f[1 - att].finesse,
        // «Flank»: "The modifier is equal to the target's finesse" (digest G18: less it).
        Man::Flank if !P => -m.f[1 - att].finesse,
        _ => 0,
    }
}

/// The total of `def`'s maneuver `man` (a Reversal or Block Grab) with `card`, before hits.
#[inline]
fn takes_initiative(m: &Matchup, s: &State, def: usize, arm: Option<&Arm>, card: Card, man: Man) -> i32 {
    i32::from(card.value) + mods(m, def, arm, man) + man.difficulty() + situational(m, s, 1 - def, man, false)
}

/// Combat modifiers of a maneuver: finesse + armour (+ the arm's force, not for a dodge).
#[inline]
pub(super) fn mods(m: &Matchup, side: usize, arm: Option<&Arm>, man: Man) -> i32 {
    let force = match (man, arm) {
        (
            Man::Dodge
            | Man::Change
            | Man::HandDodge
            | Man::DodgeSeize
            | Man::Flank
            | Man::Cling
            | Man::Buck,
            _,
        )
        | (_, None) => 0,
        (_, Some(a)) => i32::from(a.force),
    };
    m.mods[side] + force
}

#[inline(always)]
fn pick<R: Roller>(h: &Hand, best: bool, random: bool, r: &mut R) -> usize {
    if random {
        return (r.roll(h.len() as u32) - 1) as usize;
    }
    if best {
        h.best().unwrap_or(0)
    } else {
        h.worst().unwrap_or(0)
    }
}

/// The attacker's next declaration under his tactics, or `None` to stop (digest §6.2).
#[inline(always)]
pub fn declare<R: Roller>(
    o: &CardsOptions,
    m: &Matchup,
    s: &State,
    rs: &mut [SideRound; 2],
    att: usize,
    decl_range: i8,
    r: &mut R,
) -> Option<Decl> {
    let (ka, kd) = (kit(m, s, att), kit(m, s, 1 - att));
    if m.unusual {
        declare_unusual(o, m, s, rs, att, decl_range, ka, kd, r)
    } else {
        declare_in::<false, false, R>(o, m, s, rs, att, decl_range, ka, kd, r)
    }
}

/// [`declare_in`] where a side's foe is large to him ([`Matchup::unusual`]), out of line.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn declare_unusual<R: Roller>(
    o: &CardsOptions,
    m: &Matchup,
    s: &State,
    rs: &mut [SideRound; 2],
    att: usize,
    decl_range: i8,
    ka: &Kit,
    kd: &Kit,
    r: &mut R,
) -> Option<Decl> {
    declare_in::<false, true, R>(o, m, s, rs, att, decl_range, ka, kd, r)
}

/// [`declare`] with the attacker's and the defender's kits now (`ka`, `kd`: [`kit`]), looked
/// up once a register, in the registers' form `P` ([`Matchup::plain`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn declare_in<const P: bool, const U: bool, R: Roller>(
    o: &CardsOptions,
    m: &Matchup,
    s: &State,
    rs: &mut [SideRound; 2],
    att: usize,
    decl_range: i8,
    ka: &Kit,
    kd: &Kit,
    r: &mut R,
) -> Option<Decl> {
    let def = 1 - att;
    let c = &rs[att];
    if c.done || c.hand.is_empty() {
        return None;
    }
    let t = &m.f[att].tactics;
    let plays = m.plays[att];
    if ka.disarmed || (!P && ranged_in_melee(s, ka)) {
        // Disarmed, or a ranged weapon in melee: change to the backup (or drop it).
        let i = c.hand.worst()?;
        return Some(take(rs, att, Man::Change, 2, i));
    }
    if c.total >= c.cap {
        return None;
    }
    if c.declared > 0 && c.hand.len() <= t.reserve as usize {
        return None;
    }
    // «Large Creature Maneuvers» (never in the plain form: [`Matchup::unusual`]).
    // Each is charged to an item with a maneuver left ([`free_arm`]).
    if U && let Some(arm) = free_arm(c, ka)
    {
        let u = &s.u;
        if u.cling[def] && plays & PLAY_BUCK != 0 {
            // «Buck»: throw the clinger off first.
            let idx = c.hand.best()?;
            return Some(take(rs, att, Man::Buck, arm, idx));
        }
        if m.foe[att] == FoeSize::Large && !u.cling[att] {
            // «Flank», under his tactic, while none of his is in force: his lowest card whose
            // flank total is positive.
            let would_flank = plays & PLAY_FLANK != 0
                && (t.flank == super::spec::FlankPolicy::Always || kd.reach > ka.reach);
            if would_flank && !u.flanks(att, s.round) {
                let base = mods(m, att, None, Man::Flank)
                    + Man::Flank.difficulty()
                    + situational_in::<P>(m, s, att, Man::Flank, false);
                let cards = c.hand.cards();
                let low = (0..cards.len())
                    .filter(|&i| i32::from(cards[i].value) + base >= 1)
                    .min_by_key(|&i| cards[i].value);
                if let Some(idx) = low {
                    return Some(take(rs, att, Man::Flank, arm, idx));
                }
            }
            // «Cling», once his flank is in force (at once without the flank tactic), within
            // his reach.
            if plays & PLAY_CLING != 0
                && (!would_flank || u.flanks(att, s.round))
                && decl_range <= ka.reach
            {
                let idx = c.hand.best()?;
                return Some(take(rs, att, Man::Cling, arm, idx));
            }
        }
    }
    if U && s.u.barred(att, s.round) {
        // "The target may not attack … the attacker": nothing to declare but a Buck.
        return None;
    }
    let a = &ka.arms;
    let usable = |i: usize| a[i].as_ref().filter(|x| c.used[i] < x.mm);
    let attacks = |i: usize| usable(i).is_some_and(|x| reaches::<P, U>(o, s, att, *x, decl_range));
    // The first arm that attacks (the plain form has one arm).
    let attack_arm = if attacks(0) {
        Some(0)
    } else if !P && attacks(1) {
        Some(1)
    } else {
        None
    };
    if o.hand_to_hand && wrestling::<P>(decl_range) {
        // §Wrestling Maneuvers: a wrestler holds (Pin or Suffocate) when the hold would
        // succeed unopposed or he expects it to, else strikes; anyone else escapes.
        if !t.wrestle {
            let idx = c.hand.best()?;
            return Some(take(rs, att, Man::Escape, 0, idx));
        }
        let idx = attack_card(c, t.reserve as usize, t.attacker, r);
        let hold = match t.hold {
            Hold::Pin => Man::Pin,
            Hold::Suffocate => Man::Suffocate,
        };
        let total = i32::from(c.hand.cards()[idx].value) + mods(m, att, a[0].as_ref(), hold);
        let man = if rs[def].hand.is_empty() || total + hold.difficulty() >= 1 {
            hold
        } else {
            Man::Attack
        };
        return Some(take(rs, att, man, 0, idx));
    }
    // §Striking Maneuvers Tackle: a barehanded wrestler at range 0 or 1, when his card's
    // total reaches his seize threshold (hit or miss a Tackle ends the round: "Initiative must
    // be re-determined"); never in the plain form: no side wrestles.
    if !P
        && plays & PLAY_TACKLE != 0
        && a[0].is_some_and(|x| x.bare)
        && (decl_range == 0 || decl_range == 1)
    {
        let idx = attack_card(c, t.reserve as usize, t.attacker, r);
        let total = i32::from(c.hand.cards()[idx].value)
            + mods(m, att, a[0].as_ref(), Man::Tackle)
            + Man::Tackle.difficulty()
            + if decl_range == 1 { -2 } else { 0 };
        if total >= t.seize_threshold {
            return Some(take(rs, att, Man::Tackle, 0, idx));
        }
    }
    // §Complex Maneuvers Offensive Disengage: a fighter worn down gets out.
    if let Some(i) = attack_arm
        && plays & PLAY_DISENGAGE != 0
        && i32::from(s.hp[att]) <= t.disengage_at_hp
    {
        let idx = c.hand.best()?;
        return Some(take(rs, att, Man::Disengage, i as u8, idx));
    }
    // §Shield Bash: at range 0, when no weapon attacks (it is too long, or spent; never in the
    // plain form: no shield).
    if !P
        && attack_arm.is_none()
        && plays & PLAY_BASH != 0
        && !c.bashed
        && usable(1).is_some_and(|x| x.shield && (!o.range_model || decl_range == 0))
    {
        let idx = attack_card(c, t.reserve as usize, t.attacker, r);
        return Some(take(rs, att, Man::ShieldBash, 1, idx));
    }
    // §Striking Maneuvers: a barehanded striker's Take Down (his round's first maneuver, under
    // the take_down tactic) and his strike (Hand, Leg or Head Butt).
    if let Some(0) = attack_arm
        && o.hand_to_hand
        && a[0].is_some_and(|x| x.bare)
    {
        let man = if t.take_down && c.declared == 0 && !rs[def].hand.is_empty() {
            Man::TakeDown
        } else {
            match t.strike {
                super::spec::Strike::Hand => Man::Attack,
                super::spec::Strike::Leg => Man::LegAttack,
                super::spec::Strike::HeadButt => Man::HeadButt,
            }
        };
        if man != Man::Attack {
            let idx = attack_card(c, t.reserve as usize, t.attacker, r);
            return Some(take(rs, att, man, 0, idx));
        }
    }
    match attack_arm {
        Some(i) => {
            let idx = attack_card(c, t.reserve as usize, t.attacker, r);
            let card = c.hand.cards()[idx];
            // «Smash», under his tactic (never in the plain form: [`Matchup::unusual`]): "the
            // attacker can take no other actions".
            if U && a[i].is_some_and(|x| x.impact) && smashes(o, m, s, rs, att, a[i].as_ref(), card) {
                let d = take(rs, att, Man::Smash, i as u8, idx);
                rs[att].done = true;
                return Some(d);
            }
            let man = if plays & PLAY_DISARM != 0
                && rs[def].hand.is_empty()
                && s.kit[def] != KIT_BARE
                && i32::from(card.value) + mods(m, att, a[i].as_ref(), Man::Disarm) - 5 >= 1
            {
                Man::Disarm
            } else if plays & PLAY_KEEP_REACH != 0 && o.no_step_back_delta < 0 && kd.reach < decl_range && {
                // He cannot step back: no card, or his closing parry is still to come and he
                // has no shield to block with (a block steps back).
                let shield = !P && kd.shield;
                rs[def].hand.is_empty() || (!rs[def].no_step && !shield)
            } {
                Man::AttackNoStep
            } else {
                Man::Attack
            };
            Some(take(rs, att, man, i as u8, idx))
        }
        None if plays & PLAY_LUNGE != 0 && {
            (0..arms_in::<P>()).any(|i| usable(i).is_some_and(|x| lunges::<P, U>(s, att, *x, decl_range)))
        } =>
        {
            let i = (0..arms_in::<P>())
                .find(|&i| usable(i).is_some_and(|x| lunges::<P, U>(s, att, *x, decl_range)))?;
            let idx = attack_card(c, t.reserve as usize, t.attacker, r);
            Some(take(rs, att, Man::Lunge, i as u8, idx))
        }
        None => {
            // §Changing Weapons: out of reach with a backup weapon that reaches: change.
            if s.kit[att] == KIT_MAIN
                && m.f[att].backup.is_some_and(|b| reaches::<P, U>(o, s, att, b, decl_range))
            {
                let i = c.hand.worst()?;
                return Some(take(rs, att, Man::Change, 2, i));
            }
            // Clung to, no range helps his long weapons («Cling»).
            if plays & PLAY_RANGE_FIX == 0 || (U && s.u.cling[def]) {
                return None;
            }
            let i = (0..arms_in::<P>()).find(|&i| usable(i).is_some_and(|x| P || !x.shield))?;
            let want = a[i]?.range;
            let man = if decl_range > want {
                Man::Close
            } else if decl_range == 0 && want > 0 {
                Man::Push
            } else if decl_range < want && decl_range < longest(ka, kd) {
                Man::Retreat
            } else {
                return None;
            };
            let idx = c.hand.best()?;
            Some(take(rs, att, man, i as u8, idx))
        }
    }
}

/// Whether side `att` turns his attack with `arm` and `card` into a Smash under his `smash`
/// tactic («Smash»: an impact weapon, the foe small to him). `finishing`: the foe holds no
/// card (the Smash is unopposed: it succeeds, or under `unopposed_auto_success = false` its
/// total is above 0, so no hit is drawn), the tripled damage takes him out and an attack's
/// would not; in a group fight only with his last card.
#[inline(never)]
fn smashes(
    o: &CardsOptions,
    m: &Matchup,
    s: &State,
    rs: &[SideRound; 2],
    att: usize,
    arm: Option<&Arm>,
    card: Card,
) -> bool {
    use super::spec::SmashPolicy;
    let def = 1 - att;
    let Some(x) = arm.filter(|x| x.impact && !x.shield && !x.ranged) else {
        return false;
    };
    if m.foe[att] != FoeSize::Small {
        return false;
    }
    match m.f[att].tactics.smash {
        SmashPolicy::Never => false,
        SmashPolicy::Always => true,
        SmashPolicy::Finishing => {
            if !rs[def].hand.is_empty() || (m.grouped && rs[att].hand.len() > 1) {
                return false;
            }
            let down = if rs[att].down { -o.take_down_penalty } else { 0 };
            let total = i32::from(card.value) + mods(m, att, Some(x), Man::Smash) + Man::Smash.difficulty() + down;
            if !o.unopposed_auto_success && total < 1 {
                return false;
            }
            let raw = (i32::from(card.value) + i32::from(x.edge))
                .clamp(o.damage_floor, i32::from(x.md).max(o.damage_floor));
            let protection = m.f[def].protection;
            let attack = (raw + m.shot[att][1] - protection).max(0);
            let smash = (3 * raw - protection).max(0);
            let hp = i32::from(s.hp[def]);
            smash >= hp && attack < hp
        }
    }
}

/// Whether side `att` may take his foe in the seats into a Swipe with his arm `arm` (0 the
/// primary weapon, 1 the off-hand item) at `range` («Swipe»; [`super::group`] declares it):
/// the foe is small to him and within the arm's reach (a melee weapon's; a clinger's any), and
/// no flank of the foe's bars him.
pub(super) fn swipes(o: &CardsOptions, m: &Matchup, s: &State, att: usize, arm: u8, range: i8) -> bool {
    m.unusual
        && m.foe[att] == FoeSize::Small
        && !s.u.barred(att, s.round)
        && kit(m, s, att).arms[usize::from(arm.min(1))]
            .is_some_and(|x| !x.shield && !x.ranged && reaches::<false, true>(o, s, att, x, range))
}

/// The attacker's card under his policy, never one of his `reserve` highest cards (while he
/// holds more than those).
#[inline(always)]
fn attack_card<R: Roller>(c: &SideRound, reserve: usize, p: AttackerPolicy, r: &mut R) -> usize {
    let n = c.hand.len();
    let reserve = if n > reserve { reserve } else { 0 };
    let k = match p {
        AttackerPolicy::Greedy => reserve,
        AttackerPolicy::Bait => n - 1,
        AttackerPolicy::Random => reserve + (r.roll((n - reserve) as u32) - 1) as usize,
    };
    c.hand.kth_best(k).unwrap_or(0)
}

/// The item a maneuver no weapon makes (Flank, Cling, Buck) is charged to: the first with a
/// maneuver left this round (§Shields, Parrying Daggers & Off-hand Weapons: "may use neither
/// weapon more times than its individual maximum"), or `None` when both are spent. A side
/// with no item at all (never, but for safety) charges the primary slot.
#[inline(always)]
fn free_arm(c: &SideRound, k: &Kit) -> Option<u8> {
    if k.arms.iter().all(Option::is_none) {
        return Some(0);
    }
    (0..2u8).find(|&i| k.arms[usize::from(i)].is_some_and(|x| c.used[usize::from(i)] < x.mm))
}

/// Takes card `idx` from `side`'s hand for maneuver `man` with arm `arm`, counting it.
#[inline(always)]
fn take(rs: &mut [SideRound; 2], side: usize, man: Man, arm: u8, idx: usize) -> Decl {
    let c = &mut rs[side];
    let card = c.hand.take(idx);
    match man {
        Man::Dodge => c.dodged = true,
        Man::Change => c.done = true,
        _ => {
            c.used[usize::from(arm.min(1))] += 1;
            c.total += 1;
        }
    }
    match man {
        Man::Seize | Man::Reversal | Man::BlockGrab | Man::DodgeSeize => c.seized = true,
        Man::ParryNoStep => c.no_step = true,
        Man::ShieldBash => c.bashed = true,
        _ => {}
    }
    Decl { man, card, arm }
}

/// The defender's answer to `a` under his tactics, or `None` (an empty register).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn answer<R: Roller>(
    o: &CardsOptions,
    m: &Matchup,
    s: &State,
    rs: &mut [SideRound; 2],
    def: usize,
    a: &Decl,
    decl_range: i8,
    r: &mut R,
) -> Option<Decl> {
    let (kd, ka) = (kit(m, s, def), kit(m, s, 1 - def));
    if m.unusual {
        answer_unusual(o, m, s, rs, def, a, decl_range, kd, ka, r)
    } else {
        answer_in::<false, false, R>(o, m, s, rs, def, a, decl_range, kd, ka, r)
    }
}

/// [`answer_in`] where a side's foe is large to him ([`Matchup::unusual`]), out of line.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn answer_unusual<R: Roller>(
    o: &CardsOptions,
    m: &Matchup,
    s: &State,
    rs: &mut [SideRound; 2],
    def: usize,
    a: &Decl,
    decl_range: i8,
    kd: &Kit,
    ka: &Kit,
    r: &mut R,
) -> Option<Decl> {
    answer_in::<false, true, R>(o, m, s, rs, def, a, decl_range, kd, ka, r)
}

/// [`answer`] with the defender's and the attacker's kits now (`kd`, `ka`: [`kit`]), in the
/// registers' form `P` ([`Matchup::plain`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn answer_in<const P: bool, const U: bool, R: Roller>(
    o: &CardsOptions,
    m: &Matchup,
    s: &State,
    rs: &mut [SideRound; 2],
    def: usize,
    a: &Decl,
    decl_range: i8,
    kd: &Kit,
    ka: &Kit,
    r: &mut R,
) -> Option<Decl> {
    let att = 1 - def;
    let c = &rs[def];
    if c.done || c.hand.is_empty() || a.man == Man::Change {
        return None;
    }
    if kd.disarmed {
        let i = c.hand.worst()?;
        return Some(take(rs, def, Man::Change, 2, i));
    }
    let t = &m.f[def].tactics;
    // §Disarming Attack: "can always defend … if he has cards remaining".
    let room = c.total < c.cap || a.man == Man::Disarm;
    let mine = &kd.arms;
    let theirs = declared_arm::<P>(&ka.arms, a.arm);
    // The arms that can defend this register (the plain form has no off-hand item).
    let can = [
        room && defends::<P>(o, c, mine, 0, theirs, decl_range, a.man),
        !P && room && defends::<P>(o, c, mine, 1, theirs, decl_range, a.man),
    ];
    let plays = m.plays[def];
    if plays & PLAY_PASS != 0 {
        let ac = &rs[att];
        let left = ac.hand.len().min(usize::from(ac.cap.saturating_sub(ac.total)));
        if c.hand.len() < left + 1 {
            return None;
        }
    }
    let (best, random) = match t.defender {
        DefenderPolicy::Front => (true, false),
        DefenderPolicy::Back | DefenderPolicy::CoverLast => (false, false),
        DefenderPolicy::Random => (true, true),
    };
    // «Buck» counters a Cling; a flanked target may not dodge the flanker's blows («Flank»).
    // Never in the plain form ([`Matchup::unusual`]).
    if U
        && a.man == Man::Cling
        && room
        && plays & PLAY_BUCK != 0
        && let Some(arm) = free_arm(c, kd)
    {
        let idx = pick(&c.hand, best, random, r);
        return Some(take(rs, def, Man::Buck, arm, idx));
    }
    let may_dodge = !U || !s.u.flanks(att, s.round);
    // A Reversal or Block Grab with `card` reaches the seize threshold.
    let takes_over = |card: Card, man: Man| {
        !c.seized && takes_initiative(m, s, def, mine[0].as_ref(), card, man) >= t.seize_threshold
    };
    if o.hand_to_hand && wrestling::<P>(decl_range) {
        // §Wrestling Maneuvers: Counter, or Reversal at the seize threshold.
        let idx = pick(&c.hand, best, random, r);
        let card = c.hand.cards()[idx];
        let man = if takes_over(card, Man::Reversal) {
            Man::Reversal
        } else if !t.wrestle
            && matches!(a.man, Man::Pin | Man::Suffocate)
            && i32::from(card.value) + mods(m, def, mine[0].as_ref(), Man::Escape) - 4 >= 1
        {
            // §Wrestling Maneuvers Escape, resolved at once: a sure escape (its total is
            // above 0 on the card alone) voids the hold.
            Man::Escape
        } else {
            Man::Counter
        };
        return Some(take(rs, def, man, 0, idx));
    }
    if can[0] || can[1] {
        let idx = pick(&c.hand, best, random, r);
        let card = c.hand.cards()[idx];
        let i = if P || !can[1] {
            0
        } else if !can[0] {
            1
        } else {
            defending_arm(o, m, def, c, mine, card, t)
        };
        let x = mine[i].as_ref().expect("found above");
        let man = if x.bare && o.hand_to_hand {
            // §Striking Maneuvers: the barehanded Block; a wrestler's Block Grab at the
            // seize threshold.
            // Then the better of the Block (+1 if the stronger, else −1) and the Dodge (0, no
            // force), or a Dodge Seize the Initiative (−3) at the seize threshold.
            let stronger = m.f[def].might > m.f[att].might;
            if t.wrestle && Man::BlockGrab.prevents(a.man) && takes_over(card, Man::BlockGrab) {
                Man::BlockGrab
            } else if o.seize_the_initiative
                && may_dodge
                && !c.seized
                && Man::DodgeSeize.prevents(a.man)
                && i32::from(card.value) + mods(m, def, None, Man::DodgeSeize) - 3 >= t.seize_threshold
            {
                Man::DodgeSeize
            } else if (stronger || !t.hand_dodge) && Man::HandBlock.prevents(a.man) {
                Man::HandBlock
            } else if t.hand_dodge && may_dodge && Man::HandDodge.prevents(a.man) {
                Man::HandDodge
            } else {
                Man::HandBlock
            }
        } else if !P && x.shield {
            Man::Block
        } else if o.seize_the_initiative
            && !c.seized
            && i32::from(card.value) + mods(m, def, Some(x), Man::Seize) - 3 >= t.seize_threshold
        {
            Man::Seize
        } else if plays & PLAY_CLOSE_WITH_PARRY != 0
            && matches!(a.man, Man::Attack | Man::AttackNoStep)
            && !c.no_step
            && toward_reach(o, kd.reach, decl_range)
        {
            Man::ParryNoStep
        } else {
            Man::Parry
        };
        return Some(take(rs, def, man, i as u8, idx));
    }
    if plays & PLAY_DODGE != 0 && may_dodge && !c.dodged && Man::Dodge.prevents(a.man) {
        let idx = pick(&c.hand, true, random, r);
        return Some(take(rs, def, Man::Dodge, 2, idx));
    }
    if !P && ranged_in_melee(s, kd) {
        // A bow cannot parry: change to the backup (or drop it) instead.
        let i = c.hand.worst()?;
        return Some(take(rs, def, Man::Change, 2, i));
    }
    None
}

/// Whether a parry without stepping back moves the range (by `no_step_back_delta`) toward a
/// defender's `reach` from `range`: closes in under −1 when his reach is shorter, opens out
/// under +1 when it is longer, never under 0.
#[inline(always)]
fn toward_reach(o: &CardsOptions, reach: i8, range: i8) -> bool {
    match o.no_step_back_delta.signum() {
        -1 => reach < range,
        1 => reach > range,
        _ => false,
    }
}

/// Which of the two arms that can both defend does, with `card`, under the defender's
/// `defend_with` tactic (0 the main weapon, 1 the off-hand item). `best`: a Parry/Seize with a
/// weapon whose total reaches the seize threshold (the higher force, the off-hand item on a
/// tie), else the arm with the higher defence total (force; the off-hand item on a tie, so the
/// main weapon keeps its maneuvers for attacks and seizes).
#[inline(always)]
fn defending_arm(
    o: &CardsOptions,
    m: &Matchup,
    def: usize,
    c: &SideRound,
    mine: &[Option<Arm>; 2],
    card: Card,
    t: &super::spec::Tactics,
) -> usize {
    use super::spec::DefendWith;
    match t.defend_with {
        DefendWith::OffHand => 1,
        DefendWith::Main => 0,
        DefendWith::Best => {
            let force = |i: usize| mine[i].map_or(i32::MIN, |x| i32::from(x.force));
            let seizes = |i: usize| {
                mine[i].is_some_and(|x| {
                    !(x.shield || (x.bare && o.hand_to_hand))
                        && o.seize_the_initiative
                        && !c.seized
                        && i32::from(card.value) + mods(m, def, Some(&x), Man::Seize) - 3
                            >= t.seize_threshold
                })
            };
            match (seizes(0), seizes(1)) {
                (true, false) => 0,
                (false, true) => 1,
                _ => usize::from(force(1) >= force(0)),
            }
        }
    }
}

/// Whether the defender's arm `i` (of `mine`) can defend against the attacker's maneuver `man`
/// with arm `theirs` this register (it has maneuvers left, or `man` is a Disarming Attack).
#[inline(always)]
fn defends<const P: bool>(
    o: &CardsOptions,
    c: &SideRound,
    mine: &[Option<Arm>; 2],
    i: usize,
    theirs: Option<&Arm>,
    decl_range: i8,
    man: Man,
) -> bool {
    let Some(x) = mine[i].as_ref() else {
        return false;
    };
    !(!P && x.shield && c.bashed)
        && (c.used[i] < x.mm || man == Man::Disarm)
        && can_parry_vs::<P>(o, x, theirs, decl_range, man)
        && (if !P && x.shield { Man::Block } else { Man::Parry }).prevents(man)
}

/// Whether `side` draws again on its played hit card, given whether it is losing.
#[inline]
pub(super) fn wants_hit(o: &CardsOptions, m: &Matchup, side: usize, last: Card, first: bool, losing: bool) -> bool {
    wants_hit_by(o, m, side, last, first, || losing)
}

/// [`wants_hit`] with `losing` asked only where it decides (a hit card under "when losing").
#[inline(always)]
fn wants_hit_by(o: &CardsOptions, m: &Matchup, side: usize, last: Card, first: bool, losing: impl FnOnce() -> bool) -> bool {
    let hits = m.hits[side];
    last.hit && hits != HITS_NEVER && (first || o.hit_chain) && (hits == HITS_ALWAYS || losing())
}

/// Hits on a played card while `losing(total)` says so (digest §2.3); returns the card total.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn hit_loop<R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    side: usize,
    card: Card,
    losing: impl Fn(i32) -> bool,
    r: &mut R,
    tally: &mut T,
) -> i32 {
    let mut total = i32::from(card.value);
    let mut last = card;
    let mut first = true;
    while wants_hit_by(o, m, side, last, first, || losing(total)) {
        let Some(c) = draw(&mut s.decks[deck_of(o, side)], r) else {
            break;
        };
        tally.count_side(side, C_HIT_DRAWS, 1);
        total += i32::from(c.value);
        last = c;
        first = false;
    }
    total
}

/// Resolves one register: reveal, hits (attacker first), totals, effects. Returns what the
/// register came to and, if the duel ended, how.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn resolve<R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    rs: &mut [SideRound; 2],
    att: usize,
    a: Decl,
    d: Option<Decl>,
    charge_bonus: i32,
    r: &mut R,
    tally: &mut T,
) -> (Register, Option<Step>) {
    let (ka, kd) = (kit(m, s, att), kit(m, s, 1 - att));
    if m.unusual {
        resolve_unusual(o, m, s, rs, att, a, d, charge_bonus, ka, kd, r, tally)
    } else {
        resolve_in::<false, false, R, T>(o, m, s, rs, att, a, d, charge_bonus, ka, kd, r, tally)
    }
}

/// [`resolve_in`] where a side's foe is large to him ([`Matchup::unusual`]), out of line.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn resolve_unusual<R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    rs: &mut [SideRound; 2],
    att: usize,
    a: Decl,
    d: Option<Decl>,
    charge_bonus: i32,
    ka: &Kit,
    kd: &Kit,
    r: &mut R,
    tally: &mut T,
) -> (Register, Option<Step>) {
    resolve_in::<false, true, R, T>(o, m, s, rs, att, a, d, charge_bonus, ka, kd, r, tally)
}

/// [`resolve`] with the attacker's and the defender's kits as the register begins (`ka`,
/// `kd`: [`kit`]), in the registers' form `P` ([`Matchup::plain`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn resolve_in<const P: bool, const U: bool, R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    rs: &mut [SideRound; 2],
    att: usize,
    a: Decl,
    d: Option<Decl>,
    charge_bonus: i32,
    ka: &Kit,
    kd: &Kit,
    r: &mut R,
    tally: &mut T,
) -> (Register, Option<Step>) {
    let def = 1 - att;
    let a_arms = &ka.arms;
    let d_arms = &kd.arms;
    let a_arm = declared_arm::<P>(a_arms, a.arm);
    let theirs = a_arm;
    // §Wrestling Maneuvers Escape by the defender, resolved at once (on its card alone): out to
    // close range before the attacker's maneuver takes effect (a hold then fails).
    if !P
        && let Some(d) = d
        && d.man == Man::Escape
        && s.range < 0
        && i32::from(d.card.value) + mods(m, def, d_arms[0].as_ref(), Man::Escape) - 4 >= 1
    {
        s.range = 0;
    }
    let legal = match a.man {
        Man::Attack | Man::AttackNoStep | Man::Disarm => {
            a_arm.is_some_and(|x| reaches::<P, U>(o, s, att, *x, s.range))
        }
        // §Complex Maneuvers Lunge: "a weapon that would work at either the current range or
        // one range less".
        Man::Lunge => a_arm.is_some_and(|x| {
            (P || (!x.shield && !(U && clung_to(s, att, *x))))
                && (!o.range_model || x.range + 1 == s.range || x.range == s.range)
        }),
        Man::LegAttack | Man::HeadButt | Man::TakeDown => {
            a_arm.is_some_and(|x| x.bare && can_attack_in::<P>(o, *x, s.range))
        }
        Man::ShieldBash => a_arm.is_some_and(|x| x.shield && (!o.range_model || s.range == 0)),
        // A clinger disengages with any weapon, as he attacks ([`reaches`]).
        Man::Disengage => a_arm.is_some_and(|x| reaches::<P, U>(o, s, att, *x, s.range)),
        Man::Tackle => a_arm.is_some_and(|x| x.bare) && (s.range == 0 || s.range == 1),
        Man::Escape | Man::Pin | Man::Suffocate => s.range < 0,
        Man::Close => s.range > 0,
        Man::Push => s.range == 0,
        Man::Retreat => s.range < longest(ka, kd),
        Man::Flank => U && m.foe[att] == FoeSize::Large,
        Man::Cling => U && m.foe[att] == FoeSize::Large && !s.u.cling[att],
        Man::Buck => U && s.u.cling[def],
        // «Swipe» at a small creature, «Smash» one with an impact weapon, within reach.
        Man::Swipe | Man::Smash => {
            U && m.foe[att] == FoeSize::Small
                && a_arm.is_some_and(|x| {
                    !x.shield
                        && !x.ranged
                        && (a.man == Man::Swipe || x.impact)
                        && reaches::<P, U>(o, s, att, *x, s.range)
                })
        }
        _ => true,
    };
    let opposed = d.filter(|d| {
        d.man.prevents(a.man)
            && match d.man {
                Man::Dodge | Man::Buck => true,
                _ => declared_arm::<P>(d_arms, d.arm).is_some_and(|x| can_parry_vs::<P>(o, x, theirs, s.range, a.man)),
            }
    });
    let head = if !P && a.man == Man::ShieldBash && o.shield_bash_head_penalty {
        HEAD
    } else {
        0
    };
    let charged = charge_bonus > 0;
    // §Hit Location: a called shot's modifier and extra damage (the Shield Bash gets no
    // benefit from it; the torso has neither).
    let [loc_mod, loc_damage] = match a.man {
        Man::Attack | Man::AttackNoStep | Man::Lunge => m.shot[att],
        _ => [0, 0],
    };
    let down = |side: usize| if rs[side].down { -o.take_down_penalty } else { 0 };
    let a_base = mods(m, att, a_arm, a.man)
        + down(att)
        + a.man.difficulty()
        + head
        + loc_mod
        // «Swipe»: "The negative modifier is the number of creatures being attacked".
        - (if U && a.man == Man::Swipe { i32::from(rs[att].swipe) } else { 0 })
        + situational_in::<P>(m, s, att, a.man, charged);
    let d_base = opposed.map(|d| {
        let d_arm = if P {
            primary(d_arms, d.arm)
        } else {
            d_arms.get(usize::from(d.arm)).and_then(Option::as_ref)
        };
        mods(m, def, d_arm, d.man)
            + down(def)
            + d.man.difficulty()
            + situational_in::<P>(m, s, att, d.man, charged)
    });
    let needs_positive = a.man == Man::Disarm || !o.unopposed_auto_success;
    let d_first = opposed.map_or(0, |d| i32::from(d.card.value));
    // A Swipe's one card is hit (or not) once, in its first target's register; every other
    // target meets the same total.
    let swiped = if U && a.man == Man::Swipe { rs[att].swipe_total } else { None };
    let a_card = match swiped {
        Some(t) => i32::from(t),
        None => hit_loop(
            o,
            m,
            s,
            att,
            a.card,
            |t| match d_base {
                Some(db) => t + a_base - (d_first + db).max(0) <= 0,
                None => needs_positive && t + a_base <= 0,
            },
            r,
            tally,
        ),
    };
    if U && a.man == Man::Swipe {
        rs[att].swipe_total = Some(a_card.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16);
    }
    let a_total = a_card + a_base;
    let defense_total = match (opposed, d_base) {
        (Some(d), Some(db)) => {
            let dc = hit_loop(o, m, s, def, d.card, |t| a_total - (t + db).max(0) >= 1, r, tally);
            Some(dc + db)
        }
        _ => None,
    };
    let net = a_total - defense_total.unwrap_or(0).max(0);
    let success = legal
        && match defense_total {
            Some(_) => net >= 1,
            None => !needs_positive || a_total >= 1,
        };
    let mut out = Register {
        attack_total: a_total,
        defense_total,
        net,
        success,
        damage: 0,
    };
    let mut end = None;
    match a.man {
        Man::Attack
        | Man::AttackNoStep
        | Man::Lunge
        | Man::ShieldBash
        | Man::LegAttack
        | Man::HeadButt
        | Man::Swipe
        | Man::Smash => {
            // «Smash»: "After executing a smash maneuver the attacker can take no other
            // actions and surrenders the initiative to his opponent" (hit or miss).
            if U && a.man == Man::Smash {
                s.init = def as u8;
            }
            // §Striking Maneuvers Lunge: barehanded, maximum damage 1, edge −3, and the
            // initiative goes to the opponent.
            let h2h_lunge = a.man == Man::Lunge && o.hand_to_hand && a_arm.is_some_and(|x| x.bare);
            if h2h_lunge && legal {
                s.init = def as u8;
            }
            let dmg = match a_arm {
                Some(arm) if success => {
                    let (md, edge) = if h2h_lunge {
                        (1, -3)
                    } else {
                        (i32::from(arm.md) + i32::from(a.man == Man::Lunge), i32::from(arm.edge))
                    };
                    let md = md + charge_bonus;
                    let raw = (a_card + edge)
                        .clamp(o.damage_floor, md.max(o.damage_floor));
                    // «Smash»: "The damage and damage total … is tripled" (the total and the
                    // maximum damage it is capped at), before armour protection.
                    let raw = if U && a.man == Man::Smash { 3 * raw } else { raw };
                    (raw + loc_damage - m.f[def].protection).max(0)
                }
                _ => 0,
            };
            out.damage = dmg;
            tally.attack(att, success, dmg);
            s.hp[def] -= dmg as i16;
            if s.hp[def] <= 0 {
                end = Some(Step::Over(Winner::of(side(att)), Ending::Incapacitated));
            } else if a.man == Man::HeadButt && dmg / 2 > 0 {
                // "The attacker will take half the damage that he deals" (rounded down).
                s.hp[att] -= (dmg / 2) as i16;
                if s.hp[att] <= 0 {
                    end = Some(Step::Over(Winner::of(side(def)), Ending::Incapacitated));
                }
            }
        }
        Man::Disarm if success => {
            tally.count_side(att, C_DISARMS, 1);
            let defeated = match o.on_disarm {
                OnDisarm::Defeat => true,
                OnDisarm::BackupOrDefeat => {
                    if s.kit[def] == KIT_MAIN && m.f[def].backup.is_some() {
                        s.kit[def] = KIT_DISARMED;
                        false
                    } else {
                        true
                    }
                }
                OnDisarm::BackupOrUnarmed => {
                    if s.kit[def] == KIT_MAIN && m.f[def].backup.is_some() {
                        s.kit[def] = KIT_DISARMED;
                    } else {
                        s.kit[def] = KIT_BARE;
                        s.fresh[def] = false;
                    }
                    false
                }
                OnDisarm::Unarmed => {
                    s.kit[def] = KIT_BARE;
                    false
                }
            };
            if defeated {
                end = Some(Step::Over(Winner::of(side(att)), Ending::Yield));
            }
        }
        Man::Disengage if success => {
            s.range += 2;
            end = Some(Step::Over(Winner::Draw, Ending::Yield));
        }
        // "Initiative must be re-determined after performing this maneuver", hit or miss.
        Man::Tackle if legal => {
            if success {
                s.range = WRESTLING;
            }
            s.init = 2;
        }
        Man::TakeDown if success => rs[def].down = true,
        Man::Escape if success => s.range = 0,
        Man::Pin | Man::Suffocate if success && o.hold_checks && !m.grouped => {
            s.hold = Held {
                on: true,
                by: att as u8,
                card: a.card.value,
                suffocate: a.man == Man::Suffocate,
                turns: 0,
            };
        }
        Man::Pin if success => end = Some(Step::Over(Winner::of(side(att)), Ending::Yield)),
        Man::Suffocate if success => {
            end = Some(Step::Over(Winner::of(side(att)), Ending::Incapacitated));
        }
        Man::Flank if U && success => s.u.flank[att] = u16::try_from(s.round + 1).unwrap_or(u16::MAX),
        Man::Cling if U && success => {
            s.u.cling[att] = true;
            s.u.barred[att] = s.u.flanks(att, s.round);
        }
        Man::Buck if U && success => {
            s.u.cling[def] = false;
            s.u.barred[def] = false;
        }
        Man::Close if success => s.range = (s.range - 1).max(0),
        Man::Retreat | Man::Push if success => s.range += 1,
        Man::Change => change(m, s, rs, att),
        _ => {}
    }
    let step = o.no_step_back_delta as i8;
    if legal && attack_moves_range(o, &a, d.as_ref()) {
        shift::<P>(s, step);
    }
    if legal && a.man == Man::AttackNoStep && d.is_some_and(|d| steps_back(o, d.man)) {
        // The defender steps back, the attacker does not step forward (digest G6).
        shift::<P>(s, -step);
    }
    if let Some(d) = d {
        match d.man {
            Man::Change => change(m, s, rs, def),
            Man::ParryNoStep if a.man == Man::Attack => shift::<P>(s, step),
            Man::Seize | Man::Reversal | Man::BlockGrab | Man::DodgeSeize
                if opposed.is_some() && !success =>
            {
                s.init = def as u8;
                tally.count_side(def, C_SEIZES, 1);
                if d.man == Man::BlockGrab {
                    s.range = WRESTLING;
                }
            }
            _ => {}
        }
    }
    (out, end)
}

/// Moves the range by `d` (§Range steps), never below close range, and not at all at
/// wrestling range (only Escape leaves it; never there in the plain form `P`).
#[inline(always)]
fn shift<const P: bool>(s: &mut State, d: i8) {
    if !wrestling::<P>(s.range) {
        s.range = (s.range + d).max(0);
    }
}

#[inline]
pub(super) fn side(i: usize) -> crate::Side {
    if i == 0 { crate::Side::A } else { crate::Side::B }
}

/// §Changing Weapons: the side drops his weapon (or has lost it) and draws his backup; no
/// other action this round, and next round's hand is min(skill, fast-draw).
pub(super) fn change(m: &Matchup, s: &mut State, rs: &mut [SideRound; 2], side: usize) {
    if matches!(s.kit[side], KIT_MAIN | KIT_DISARMED) {
        if m.f[side].backup.is_some() {
            s.kit[side] = KIT_BACKUP;
            s.fresh[side] = true;
        } else {
            // A ranged weapon dropped without a backup: bare hands need no drawing.
            s.kit[side] = KIT_BARE;
        }
    }
    rs[side].done = true;
}

/// §Range, literal: "If a character attacks normally and his opponent does not use a maneuver
/// that includes a step back … then the range is increased by one" (by `no_step_back_delta`,
/// errata E1). Parries, blocks and Parry/Seize step back (a no-step parry moves the range by
/// itself); an empty register, a dodge or a weapon change do not.
#[inline]
fn attack_moves_range(o: &CardsOptions, a: &Decl, d: Option<&Decl>) -> bool {
    o.unopposed_attack_closes_range
        && matches!(a.man, Man::Attack | Man::ShieldBash)
        && !d.is_some_and(|d| steps_back(o, d.man) || d.man == Man::ParryNoStep)
}

/// Whether a defence includes a step back (§Range: "normal parries and blocks are considered
/// to take a step back, even if the maneuver fails").
#[inline]
fn steps_back(o: &CardsOptions, d: Man) -> bool {
    matches!(
        d,
        Man::Parry | Man::Block | Man::Seize | Man::HandBlock | Man::BlockGrab
    ) || (matches!(d, Man::Dodge | Man::HandDodge | Man::DodgeSeize) && o.dodge_steps_back)
}

/// Whether the register's announced maneuvers moved the range, so the tactics see the new
/// range from the next register on.
#[inline]
pub(super) fn range_announced(o: &CardsOptions, a: &Decl, d: Option<&Decl>) -> bool {
    immediate(a, d)
        || attack_moves_range(o, a, d)
        || (a.man == Man::AttackNoStep && d.is_some_and(|d| steps_back(o, d.man)))
}

/// Whether a maneuver resolves immediately (and so re-syncs what the tactics know). A
/// no-step parry against an attack counts too: it is announced, and its range change is what
/// the attacker answers next register (the seed's Devon example: "The noble doesn't step back
/// while parrying, reducing the range to 0. During the second register Devon changes weapons").
#[inline]
pub(super) fn immediate(a: &Decl, d: Option<&Decl>) -> bool {
    matches!(
        a.man,
        Man::Disarm
            | Man::Close
            | Man::Retreat
            | Man::Push
            | Man::Change
            | Man::Disengage
            | Man::Escape
            | Man::Tackle
    ) || d.is_some_and(|d| {
        matches!(
            d.man,
            Man::Seize | Man::Change | Man::Reversal | Man::BlockGrab | Man::DodgeSeize | Man::Escape
        )
            || (d.man == Man::ParryNoStep && a.man == Man::Attack)
    })
}

/// §Determine Initiative: combat training (1 card without it; fast-draw in round 1 of a show
/// down) + willpower, best card, hits by whoever is behind; ties per `initiative_tie`. Returns the side with the initiative.
pub fn initiative<R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    r: &mut R,
    tally: &mut T,
) -> u8 {
    let r = &mut r.local();
    for _ in 0..100 {
        if o.reshuffle == Reshuffle::EveryCheck {
            reset_decks(o, s);
        }
        let mut tot = [0i32; 2];
        let mut last = [Card::default(); 2];
        for sd in 0..2 {
            // §Show Downs: "the fast-draw skill is used instead of combat training".
            let skill = if o.start == Start::ShowDown && s.round <= 1 {
                m.f[sd].fast_draw
            } else {
                m.f[sd].combat_training
            };
            let n = skill.max(1);
            let mut best: Option<Card> = None;
            for _ in 0..n {
                if let Some(c) = draw(&mut s.decks[deck_of(o, sd)], r) {
                    best = Some(best.map_or(c, |b| b.max(c)));
                }
            }
            let b = best.unwrap_or_default();
            tot[sd] = i32::from(b.value) + m.f[sd].willpower;
            last[sd] = b;
        }
        let mut first = [true; 2];
        for _ in 0..32 {
            let behind = usize::from(tot[1] < tot[0]);
            if !wants_hit(o, m, behind, last[behind], first[behind], tot[behind] <= tot[1 - behind]) {
                break;
            }
            let Some(c) = draw(&mut s.decks[deck_of(o, behind)], r) else {
                break;
            };
            tally.count_side(behind, C_HIT_DRAWS, 1);
            tot[behind] += i32::from(c.value);
            last[behind] = c;
            first[behind] = false;
        }
        for d in &mut s.decks {
            d.discard_out();
        }
        if tot[0] != tot[1] {
            return u8::from(tot[1] > tot[0]);
        }
        let (wa, wb) = (m.f[0].willpower, m.f[1].willpower);
        if o.initiative_tie == InitiativeTie::Willpower && wa != wb {
            return u8::from(wb > wa);
        }
    }
    0
}

/// §Surprise: B with combat training makes an opposed check (combat training + awareness
/// against A's stealth + finesse) to avoid it; otherwise A makes one attack B cannot defend.
fn surprise<R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    r: &mut R,
    tally: &mut T,
) -> Option<Step> {
    let best_of = |s: &mut State, side: usize, n: u8, r: &mut R| -> i32 {
        (0..n.max(1))
            .filter_map(|_| draw(&mut s.decks[deck_of(o, side)], r))
            .map(|c| i32::from(c.value))
            .max()
            .unwrap_or(0)
    };
    let (fa, fb) = (&m.f[0], &m.f[1]);
    let avoided = fb.combat_training > 0 && {
        let b = best_of(s, 1, fb.combat_training, r) + fb.awareness;
        let a = match o.surprise_check {
            SurpriseCheck::Stealth => best_of(s, 0, fa.stealth, r) + fa.finesse,
            SurpriseCheck::CombatTraining => best_of(s, 0, fa.combat_training, r) + fa.willpower,
        };
        b > a
    };
    let mut end = None;
    if !avoided {
        let n = hand_size(m, s, 0) as u8;
        let card = best_of(s, 0, n, r);
        let arm = fa.main;
        let total = card + mods(m, 0, Some(&arm), Man::Attack);
        let success = o.unopposed_auto_success || total >= 1;
        let dmg = if success {
            ((card + i32::from(arm.edge)).clamp(o.damage_floor, i32::from(arm.md).max(o.damage_floor))
                - fb.protection)
                .max(0)
        } else {
            0
        };
        tally.attack(0, success, dmg);
        s.hp[1] -= dmg as i16;
        if s.hp[1] <= 0 {
            end = Some(Step::Over(Winner::A, Ending::Incapacitated));
        }
    }
    for d in &mut s.decks {
        d.discard_out();
    }
    end
}

/// A turn under a hold (§Wrestling Maneuvers): the held fighter's might check (one card +
/// might) breaks it if above the value of the card played for it (the fight goes on at
/// wrestling range, the initiative drawn again); else a suffocated fighter makes a vitality
/// check (one card + vitality, above 0) or passes out, and a pinned one stays pinned: after
/// `pin_turns` turns the holder wins.
fn hold_turn<R: Roller>(o: &CardsOptions, m: &Matchup, s: &mut State, r: &mut R) -> Step {
    let r = &mut r.local();
    let h = s.hold;
    let (by, held) = (usize::from(h.by), 1 - usize::from(h.by));
    let mut check = |s: &mut State, attr: i32| {
        if o.reshuffle == Reshuffle::EveryCheck {
            reset_decks(o, s);
        }
        draw(&mut s.decks[deck_of(o, held)], r).map_or(0, |c| i32::from(c.value)) + attr
    };
    let end = if check(s, m.f[held].might) > i32::from(h.card) {
        s.hold = Held::default();
        s.init = 2;
        None
    } else if h.suffocate {
        (check(s, m.f[held].vitality) < 1)
            .then_some(Step::Over(Winner::of(side(by)), Ending::Incapacitated))
    } else {
        s.hold.turns += 1;
        (u32::from(s.hold.turns) >= o.pin_turns).then_some(Step::Over(Winner::of(side(by)), Ending::Yield))
    };
    for d in &mut s.decks {
        d.discard_out();
    }
    end.unwrap_or(Step::Continue)
}

/// The state before round 1 of fighters `f` with their fresh decks `deck`, engaged at
/// `start_range` or apart at `distance` (> 0); a group fight fills in `g` and the seats
/// ([`super::group::initial`]).
pub(super) fn initial(
    o: &CardsOptions,
    f: &[Fighter; 2],
    deck: [Deck; 2],
    start_range: i8,
    distance: i8,
) -> State {
    let decks = match o.deck_owner {
        DeckOwner::PerFighter => deck,
        DeckOwner::Shared => [deck[0], deck[0]],
    };
    // §Show Downs: "characters have to draw their weapons to start combat", so round 1's hand
    // is the drawn weapon's, min(skill, fast draw) (§Changing Weapons).
    let drawn = o.start == Start::ShowDown;
    let member = |side: usize| Member {
        hp: f[side].hp as i16,
        kit: KIT_MAIN,
        fresh: drawn,
        deck: decks[side],
    };
    State {
        round: 0,
        hp: [f[0].hp as i16, f[1].hp as i16],
        range: if distance > 0 { distance } else { start_range },
        init: 2,
        kit: [KIT_MAIN; 2],
        fresh: [drawn; 2],
        decks,
        apart: distance > 0,
        aim: [AimRow::default(); 2],
        reload: [0; 2],
        g: Group {
            m: [[member(0); MAX_BAND - 1], [member(1); MAX_BAND - 1]],
            p: [[Pairing { range: start_range, init: 2 }; MAX_BAND]; MAX_BAND],
            u: [[Unusual::default(); MAX_BAND]; MAX_BAND],
            // One member a side: the others never fight.
            out: [0xfe; 2],
        },
        hold: Held::default(),
        u: Unusual::default(),
    }
}

impl crate::Duel<Cards> for State {
    /// The state before round 1 (built once per matchup: [`initial`]).
    #[inline]
    fn start(_rules: &Cards, m: &Matchup) -> State {
        m.initial
    }

    /// One round (see the module doc).
    fn step<R: Roller, T: Tally>(
        &mut self,
        rules: &Cards,
        m: &Matchup,
        r: &mut R,
        tally: &mut T,
    ) -> Step {
        let (o, s) = (rules.options(), self);
        s.round += 1;
        if s.round > o.max_rounds {
            return Step::Over(Winner::Draw, Ending::RoundCap);
        }
        if o.reshuffle == Reshuffle::EveryRound {
            reset_decks(o, s);
        }
        if s.hold.on {
            return hold_turn(o, m, s, r);
        }
        let mut charger = None;
        if s.round == 1 {
            match o.start {
                Start::Engaged | Start::ShowDown => {}
                Start::ACharges => {
                    charger = Some(0);
                    s.init = u8::from(melee_range(m.f[1].main) > melee_range(m.f[0].main));
                }
                Start::ASurprises => {
                    if let Some(end) = surprise(o, m, s, r, tally) {
                        return end;
                    }
                }
            }
        }
        if s.apart {
            match super::ranged::round(o, m, s, r, tally) {
                Apart::Over(end) => return end,
                Apart::Stay => return Step::Continue,
                Apart::Charge(side) => charger = Some(side),
            }
        }
        if let Some(g) = &m.group {
            return super::group::round(o, g, s, r, tally);
        }
        if s.init > 1 {
            s.init = initiative(o, m, s, r, tally);
        }
        tally.count_side(usize::from(s.init), C_INITIATIVE, 1);
        if o.reshuffle == Reshuffle::EveryCheck {
            reset_decks(o, s);
        }
        // The plain form where it applies (chosen once per matchup: `Matchup::plain`).
        let end = if m.plain {
            melee::<true, false, R, T>(o, m, s, charger, r, tally)
        } else {
            melee_general(o, m, s, charger, r, tally)
        };
        for d in &mut s.decks {
            d.discard_out();
        }
        end
    }
}

/// A melee round after the initiative: the hands dealt, then the registers, in the registers'
/// form `P` ([`registers`]).
#[inline(always)]
fn melee<const P: bool, const U: bool, R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    charger: Option<usize>,
    r: &mut R,
    tally: &mut T,
) -> Step {
    // The plain form never sees wrestling range (`Matchup::plain`: nothing can take it there).
    debug_assert!(!P || s.range >= 0, "the plain form at wrestling range");
    let mut rs = [SideRound::default(); 2];
    let first = usize::from(s.init);
    // The first attacker's and the defender's kits.
    let kits = (kit_in::<P>(m, s, first), kit_in::<P>(m, s, 1 - first));
    {
        // The stream in this loop's frame while the hands are dealt.
        let mut r = r.local();
        for (side, k) in [(first, kits.0), (1 - first, kits.1)] {
            let n = usize::from(k.hand[usize::from(s.fresh[side])]);
            // As `n` draws, each into the hand (`hand_size`).
            s.decks[deck_of(o, side)].deal_with(&mut rs[side].hand, n, |n| r.roll(n) - 1);
            rs[side].cap = if charger.is_some() { 1 } else { k.cap };
        }
    }
    s.fresh = [false; 2];
    registers::<P, U, R, T>(o, m, s, &mut rs, kits, charger, r, tally)
}

/// [`melee`] in the general form, out of line so `step` holds the plain form alone: with the
/// Large Creature Maneuvers where a side's foe is large to him ([`Matchup::unusual`], chosen
/// once per matchup), else with every size, flank and cling check folded away.
#[inline(never)]
fn melee_general<R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    charger: Option<usize>,
    r: &mut R,
    tally: &mut T,
) -> Step {
    if m.unusual {
        melee::<false, true, R, T>(o, m, s, charger, r, tally)
    } else {
        melee::<false, false, R, T>(o, m, s, charger, r, tally)
    }
}

/// How a round apart ended (see [`super::ranged::round`]).
pub enum Apart {
    /// The duel is over.
    Over(Step),
    /// The round is over (still apart, or the fighters met and the melee starts next round).
    Stay,
    /// This side ran into melee range: the round ends with the charge's one maneuver each.
    Charge(usize),
}

/// Whether the attacker hesitates now under his tactics (§Hesitating).
#[inline(always)]
fn hesitates<const P: bool>(
    o: &CardsOptions,
    m: &Matchup,
    s: &State,
    rs: &[SideRound; 2],
    att: usize,
    decl_range: i8,
    ka: &Kit,
) -> bool {
    let t = &m.f[att].tactics;
    let c = &rs[att];
    if t.hesitate == Hesitate::Never
        || c.done
        || c.hand.is_empty()
        || ka.disarmed
        || (!P && ranged_in_melee(s, ka))
    {
        return false;
    }
    let a = &ka.arms;
    match t.hesitate {
        Hesitate::Never => false,
        Hesitate::OutOfReach => {
            o.range_model
                && !a[..arms_in::<P>()].iter().flatten().any(|&x| can_attack_in::<P>(o, x, decl_range))
        }
        Hesitate::WeakHand => c.hand.best().is_some_and(|i| {
            i32::from(c.hand.cards()[i].value) + mods(m, att, a[0].as_ref(), Man::Attack) < t.hesitate_below
        }),
    }
}

/// Declares and resolves the round's registers (§Declare Maneuvers, §Resolve Maneuvers), in the
/// plain form (`P`: [`Matchup::plain`], the branches that cannot arise there folded away) or
/// the general one: the same code either way.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn registers<'m, const P: bool, const U: bool, R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &'m Matchup,
    s: &mut State,
    rs: &mut [SideRound; 2],
    kits: (&'m Kit, &'m Kit),
    charger: Option<usize>,
    r: &mut R,
    tally: &mut T,
) -> Step {
    let mut att = usize::from(s.init);
    let mut decl_range = s.range;
    let mut any = false;
    // The side whose hesitation no declaration has answered yet.
    let mut pending: Option<usize> = None;
    // The attacker's and the defender's kits (`kits` as the round begins; only `resolve`
    // changes them).
    let mut kits = kits;
    for _ in 0..MAX_REGISTERS {
        // Read the options where they are tested, not hoisted out of the loop (the compiler
        // would copy some 25 of them to the stack every round).
        let o = std::hint::black_box(o);
        let (ka, kd) = kits;
        let hesitating = m.plays[att & 1] & PLAY_HESITATE != 0
            && !rs[att].hesitated
            && hesitates::<P>(o, m, s, rs, att, decl_range, ka);
        let a = if hesitating {
            rs[att].hesitated = true;
            None
        } else {
            declare_in::<P, U, R>(o, m, s, rs, att, decl_range, ka, kd, r)
        };
        let Some(a) = a else {
            if any && !hesitating {
                break;
            }
            // §Hesitating / §Determine Initiative: an attacker who hesitates (or has nothing to
            // declare at the start of the round) relinquishes the initiative; if both do,
            // combat ends.
            if pending == Some(1 - att) {
                return Step::Over(Winner::Draw, Ending::Yield);
            }
            pending = Some(att);
            att = 1 - att;
            kits = (kd, ka);
            s.init = att as u8;
            continue;
        };
        pending = None;
        any = true;
        rs[att].declared += 1;
        let d = answer_in::<P, U, R>(o, m, s, rs, 1 - att, &a, decl_range, kd, ka, r);
        let bonus = i32::from(charger == Some(att));
        let (_, end) = resolve_in::<P, U, R, T>(o, m, s, rs, att, a, d, bonus, ka, kd, r, tally);
        if let Some(end) = end {
            return end;
        }
        if s.init > 1 || (!P && s.hold.on) {
            // §Striking Maneuvers Tackle: "Initiative must be re-determined"; a hold "ends
            // normal combat".
            break;
        }
        // (Where the range is where the tactics saw it, there is nothing to announce.)
        if s.range != decl_range && range_announced(o, &a, d.as_ref()) {
            decl_range = s.range;
        }
        att = usize::from(s.init);
        kits = (kit_in::<P>(m, s, att), kit_in::<P>(m, s, 1 - att));
    }
    Step::Continue
}
