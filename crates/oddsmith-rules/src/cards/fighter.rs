//! Compiling a cards fighter (flat arms, hand sizes, hit points, size) and pairing two of them
//! (their decks, the starting range, and what each is to the other by size: «Unusual Foes»).

use oddsmith_dice::deck::{Card, Deck, d44};

use super::Cards;
use super::options::{CardsOptions, DeckChoice, DeckOwner, Jokers, Start};
use super::spec::{FighterSpec, FoeSize, Tactics, WeaponStats, weapon};
use crate::RulesError;

/// A weapon or shield as the duel reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arm {
    /// Range in yards.
    pub range: i8,
    /// Force (to-hit).
    pub force: i8,
    /// Maximum maneuvers per round (`u8::MAX` = unlimited).
    pub mm: u8,
    /// Edge (damage).
    pub edge: i8,
    /// Maximum damage.
    pub md: i8,
    /// A shield (blocks, never attacks).
    pub shield: bool,
    /// Bare hands: fights by the hand-to-hand maneuvers (§Hand to Hand Combat).
    pub bare: bool,
    /// A ranged weapon (§Ranged Combat): fires while apart, useless in melee.
    pub ranged: bool,
    /// Most cards in the aiming row (§Aiming).
    pub aim: u8,
    /// Rounds per use (a fractional maximum maneuver "1/N"; 1 otherwise).
    pub every: u8,
    /// An impact weapon: it may Smash a small foe («Smash»).
    pub impact: bool,
}

impl Arm {
    fn of(w: &WeaponStats) -> Arm {
        Arm {
            range: w.range as i8,
            force: w.force as i8,
            mm: if w.max_maneuvers.per_round == 0 {
                u8::MAX
            } else {
                w.max_maneuvers.per_round as u8
            },
            edge: w.edge as i8,
            md: w.max_damage as i8,
            shield: w.shield,
            bare: w.name == BARE_HANDS,
            ranged: w.ranged,
            aim: w.aim as u8,
            every: w.max_maneuvers.every as u8,
            impact: w.impact,
        }
    }
}

/// The built-in bare hands' name.
pub const BARE_HANDS: &str = "bare hands";

/// A compiled fighter.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// Name, for messages.
    pub name: String,
    /// Main weapon and its skill.
    pub main: Arm,
    /// Main weapon skill.
    pub main_skill: u8,
    /// Off-hand weapon or shield.
    pub off: Option<Arm>,
    /// Off-hand skill.
    pub off_skill: u8,
    /// Backup weapon.
    pub backup: Option<Arm>,
    /// Backup skill.
    pub backup_skill: u8,
    /// Bare hands (under `on_disarm = "unarmed"`).
    pub bare: Arm,
    /// Bare-hand skill.
    pub brawling: u8,
    /// Fast-draw skill.
    pub fast_draw: u8,
    /// Combat training (initiative cards).
    pub combat_training: u8,
    /// Dodge skill (dodging missiles).
    pub dodge: u8,
    /// Identical fighters on this side (a band, §Multiple Opponents).
    pub count: u8,
    /// The side's further members (mixed members, each with its own `count`; empty for a
    /// side of one kind): a group fight's side is this fighter and these, in order.
    pub others: Vec<Fighter>,
    /// Stealth (surprise).
    pub stealth: u8,
    /// Finesse.
    pub finesse: i32,
    /// Might (hand-to-hand Block and Block Grab).
    pub might: i32,
    /// Willpower.
    pub willpower: i32,
    /// Vitality (the suffocated fighter's check).
    pub vitality: i32,
    /// Awareness.
    pub awareness: i32,
    /// Armour modifier.
    pub armor_mod: i32,
    /// Armour protection.
    pub protection: i32,
    /// Hit points.
    pub hp: i32,
    /// Non-player fighter.
    pub npc: bool,
    /// Relative size («Unusual Foes»; 1 by default).
    pub size: f64,
    /// Tactics.
    pub tactics: Tactics,
}

/// Two fighters, their decks and the starting range.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    /// A and B.
    pub f: [Fighter; 2],
    /// Each side's fresh deck (`deck[0]` alone under a shared deck).
    pub deck: [Deck; 2],
    /// The range the melee begins at (the longest melee weapon's).
    pub start_range: i8,
    /// The distance in yards the duel starts at, when it starts apart (option `distance`
    /// beyond the melee range); 0 = engaged at `start_range`.
    pub distance: i8,
    /// A group fight (more than one fighter on a side): its roster and the pairings' own
    /// one-against-one matchups ([`super::group::Plan`]); `None` for a duel.
    pub group: Option<Box<super::group::Plan>>,
    /// A pairing inside a group fight (or the group itself): a hold wins at once there
    /// (`hold_checks` is a duel's).
    pub grouped: bool,
    /// What each side fights with, folded once from `f` (see [`Kit`]):
    /// `kits[side][kit + 4 × wrestling]`, read by [`super::duel::arms`] and friends.
    pub kits: [[Kit; 8]; 2],
    /// Each side's finesse + armour modifier (folded once from `f`).
    pub mods: [i32; 2],
    /// Each side's called shot (§Hit Location): [its modifier, its extra damage under
    /// `location_damage`], folded once.
    pub shot: [[i32; 2]; 2],
    /// Each side's hit policy under the hit rule: [`HITS_NEVER`], [`HITS_WHEN_LOSING`] or
    /// [`HITS_ALWAYS`] ([`Matchup::hits_of`]), folded once.
    pub hits: [u8; 2],
    /// Each side's tactics combined with the options they are tested with (`PLAY_*` bits,
    /// [`Matchup::plays_of`]), folded once.
    pub plays: [u16; 2],
    /// The state before round 1, built once (by `duel::initial`) and copied by `start`.
    pub initial: super::duel::State,
    /// The plain form of a round's registers applies ([`Matchup::plain_of`], and one against
    /// one: a band's rounds, `group::round`, always take the general form): the duel's `step`
    /// then plays them with the branches that cannot arise folded away.
    pub plain: bool,
    /// What each side's foe is to him by their sizes («Unusual Foes»): `foe[side]`.
    pub foe: [FoeSize; 2],
    /// A side's foe is large to him (`foe` has a [`FoeSize::Large`]; so is every pairing where
    /// a side's foe is small to him, as one is small to the other only if the other is large to
    /// him): the Large and Small Creature Maneuvers (Flank, Cling, Buck, Swipe, Smash) can
    /// arise, which only the general form plays.
    pub unusual: bool,
}

/// What a side's kit (`duel::KIT_*`) gives at wrestling range or not, folded once per matchup
/// from the fighter by the duel's own rules. Aligned to 32 bytes, so a kit's address is a shift
/// from its index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(align(32))]
pub struct Kit {
    /// [primary, off-hand] ([`Matchup::arms_of`]).
    pub arms: [Option<Arm>; 2],
    /// Cards in hand: [after a round of the same weapon, the round after drawing it]
    /// ([`Matchup::hand_of`]).
    pub hand: [u8; 2],
    /// Most maneuvers a round ([`super::duel::cap`]).
    pub cap: u8,
    /// Reach: the longest melee weapon's range, 0 without one ([`Matchup::reach_of`]).
    pub reach: i8,
    /// An arm is a shield.
    pub shield: bool,
    /// The main weapon, ranged, out of wrestling range: in melee (not apart) the side must
    /// change or drop it.
    pub ranged_main: bool,
    /// Disarmed (`KIT_DISARMED`).
    pub disarmed: bool,
}

// The 32 bytes the alignment above is chosen for (a larger kit still works, only slower).
const _: () = assert!(std::mem::size_of::<Kit>() == 32);

/// [`Matchup::plays`] bit: `disarm_unopposed` under `disarming_attack`.
pub const PLAY_DISARM: u16 = 1 << 0;
/// [`Matchup::plays`] bit: `keep_reach` under `range_model`.
pub const PLAY_KEEP_REACH: u16 = 1 << 1;
/// [`Matchup::plays`] bit: `lunge` under `range_model`.
pub const PLAY_LUNGE: u16 = 1 << 2;
/// [`Matchup::plays`] bit: `range_fix` under `close_retreat` and `range_model`.
pub const PLAY_RANGE_FIX: u16 = 1 << 3;
/// [`Matchup::plays`] bit: `shield_bash` (the tactic) under `shield_bash` (the option).
pub const PLAY_BASH: u16 = 1 << 4;
/// [`Matchup::plays`] bit: `wrestle` under `hand_to_hand` (Tackle).
pub const PLAY_TACKLE: u16 = 1 << 5;
/// [`Matchup::plays`] bit: `offensive_disengage` (the option).
pub const PLAY_DISENGAGE: u16 = 1 << 6;
/// [`Matchup::plays`] bit: `defender = "cover_last"` under `defender_may_pass`.
pub const PLAY_PASS: u16 = 1 << 7;
/// [`Matchup::plays`] bit: `close_with_parry` under `range_model`.
pub const PLAY_CLOSE_WITH_PARRY: u16 = 1 << 8;
/// [`Matchup::plays`] bit: `dodge_when_no_parry` under `melee_dodge`.
pub const PLAY_DODGE: u16 = 1 << 9;
/// [`Matchup::plays`] bit: the side may hesitate (its `hesitate` tactic is not `"never"`).
pub const PLAY_HESITATE: u16 = 1 << 10;
/// [`Matchup::plays`] bit: `flank` (against a large foe).
pub const PLAY_FLANK: u16 = 1 << 11;
/// [`Matchup::plays`] bit: `cling` (against a large foe).
pub const PLAY_CLING: u16 = 1 << 12;
/// [`Matchup::plays`] bit: `buck` (against a clinger).
pub const PLAY_BUCK: u16 = 1 << 13;

/// [`Matchup::hits`]: never hits (or the hit rule does not draw).
pub const HITS_NEVER: u8 = 0;
/// [`Matchup::hits`]: hits while losing.
pub const HITS_WHEN_LOSING: u8 = 1;
/// [`Matchup::hits`]: always hits.
pub const HITS_ALWAYS: u8 = 2;

impl Matchup {
    /// [`Matchup::hits`] for tactics `t` under options `o`.
    pub fn hits_of(o: &CardsOptions, t: &Tactics) -> u8 {
        use super::options::HitRule;
        use super::spec::HitPolicy;
        match t.hit {
            _ if o.hit_rule != HitRule::DrawAdd => HITS_NEVER,
            HitPolicy::Never => HITS_NEVER,
            HitPolicy::WhenLosing => HITS_WHEN_LOSING,
            HitPolicy::Always => HITS_ALWAYS,
        }
    }

    /// [`Matchup::plays`] for tactics `t` under options `o`.
    pub fn plays_of(o: &CardsOptions, t: &Tactics) -> u16 {
        use super::spec::DefenderPolicy;
        [
            (t.disarm_unopposed && o.disarming_attack, PLAY_DISARM),
            (t.keep_reach && o.range_model, PLAY_KEEP_REACH),
            (t.lunge && o.range_model, PLAY_LUNGE),
            (t.range_fix && o.close_retreat && o.range_model, PLAY_RANGE_FIX),
            (t.shield_bash && o.shield_bash, PLAY_BASH),
            (t.wrestle && o.hand_to_hand, PLAY_TACKLE),
            (o.offensive_disengage, PLAY_DISENGAGE),
            (t.defender == DefenderPolicy::CoverLast && o.defender_may_pass, PLAY_PASS),
            (t.close_with_parry && o.range_model, PLAY_CLOSE_WITH_PARRY),
            (t.dodge_when_no_parry && o.melee_dodge, PLAY_DODGE),
            (t.hesitate != super::spec::Hesitate::Never, PLAY_HESITATE),
            (t.flank != super::spec::FlankPolicy::Never, PLAY_FLANK),
            (t.cling, PLAY_CLING),
            (t.buck, PLAY_BUCK),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .fold(0, |bits, (_, bit)| bits | bit)
    }
}

impl Matchup {
    /// Whether the plain form of the registers applies to fighters `f` under options `o`
    /// (read once per matchup): no side has an off-hand item (no shield, no second arm: every
    /// kit's off-hand arm is `None`), no side carries a ranged weapon (main or backup: no kit
    /// is ranged), and no side can take the fight into wrestling range (`wrestle` under
    /// `hand_to_hand`: the only Tackle and Block Grab), so the range never drops below 0.
    pub fn plain_of(o: &CardsOptions, f: &[Fighter; 2]) -> bool {
        let wrestles = |f: &Fighter| o.hand_to_hand && f.tactics.wrestle;
        let ranged = |f: &Fighter| f.main.ranged || f.backup.is_some_and(|b| b.ranged);
        f.iter().all(|f| f.off.is_none() && !ranged(f) && !wrestles(f))
    }

    /// The arms fighter `f` fights with under kit `kit` (`duel::KIT_*`), at wrestling range or
    /// not: [primary, off-hand] (§Hand to Hand Combat: wrestlers fight barehanded, whatever
    /// they hold, unless disarmed).
    pub fn arms_of(f: &Fighter, kit: u8, wrestling: bool) -> [Option<Arm>; 2] {
        use super::duel::{KIT_BACKUP, KIT_BARE, KIT_DISARMED, KIT_MAIN};
        if wrestling && kit != KIT_DISARMED {
            return [Some(f.bare), None];
        }
        match kit {
            KIT_MAIN => [Some(f.main), f.off],
            KIT_BACKUP => [f.backup, f.off],
            KIT_BARE => [Some(f.bare), f.off],
            _ => [None, None],
        }
    }

    /// Cards in fighter `f`'s hand under kit `kit` (§Draw Hands, §Shields…, §Changing
    /// Weapons), at wrestling range or not, the round after drawing the weapon (`fresh`) or not.
    pub fn hand_of(f: &Fighter, kit: u8, wrestling: bool, fresh: bool) -> u8 {
        use super::duel::{KIT_BACKUP, KIT_BARE, KIT_MAIN};
        let skill = match kit {
            // Wrestling: the bare-hand skill (G23).
            KIT_MAIN | KIT_BACKUP | KIT_BARE if wrestling => f.brawling,
            KIT_MAIN => match f.off {
                Some(_) => f.main_skill.min(f.off_skill),
                None => f.main_skill,
            },
            KIT_BACKUP => match f.off {
                Some(_) => f.backup_skill.min(f.off_skill),
                None => f.backup_skill,
            },
            KIT_BARE => match f.off {
                Some(_) => f.brawling.min(f.off_skill),
                None => f.brawling,
            },
            _ => 1,
        };
        let skill = if fresh { skill.min(f.fast_draw) } else { skill };
        skill.max(1).min(oddsmith_dice::deck::MAX_HAND as u8)
    }

    /// A side's reach with arms `a`: its longest melee weapon's range (shields and ranged
    /// weapons reach nothing), 0 without one.
    pub fn reach_of(a: &[Option<Arm>; 2]) -> i8 {
        a.iter()
            .flatten()
            .filter(|a| !a.shield && !a.ranged)
            .map(|a| a.range)
            .max()
            .unwrap_or(0)
    }

    /// [`Matchup::kits`] for fighters `f`.
    fn kits(f: &[Fighter; 2]) -> [[Kit; 8]; 2] {
        std::array::from_fn(|side| {
            std::array::from_fn(|i| {
                let (kit, wrestling) = ((i % 4) as u8, i >= 4);
                let arms = Matchup::arms_of(&f[side], kit, wrestling);
                Kit {
                    arms,
                    hand: [false, true].map(|fresh| Matchup::hand_of(&f[side], kit, wrestling, fresh)),
                    cap: super::duel::cap(arms),
                    reach: Matchup::reach_of(&arms),
                    shield: arms.iter().flatten().any(|x| x.shield),
                    ranged_main: kit == super::duel::KIT_MAIN && !wrestling && f[side].main.ranged,
                    disarmed: kit == super::duel::KIT_DISARMED,
                }
            })
        })
    }
}

/// §Draw Hands: every hand (and every check draw) is dealt from the fighter's deck, so a
/// skill that asks for more cards than the deck holds is impossible, not a strong fighter: it
/// is refused at the skill (a custom deck of 2 cards and skill 12 would deal 2 cards and
/// leave the other fighter's draws to a reshuffle).
fn check_hands(o: &CardsOptions, s: &FighterSpec) -> Result<(), RulesError> {
    let len = deck(o, s.npc)?.len();
    let skills = [
        ("skill", Some(s.skill)),
        ("off_hand_skill", s.off_hand.as_ref().and(s.off_hand_skill)),
        ("backup_skill", s.backup.as_ref().map(|_| s.backup_skill)),
        ("brawling", Some(s.brawling)),
        ("fast_draw", Some(s.fast_draw)),
        ("combat_training", Some(s.combat_training)),
        ("dodge", Some(s.dodge)),
        ("stealth", Some(s.stealth)),
    ];
    for (key, n) in skills {
        if let Some(n) = n
            && usize::try_from(n).is_ok_and(|n| n > len)
        {
            return Err(RulesError::field(
                key,
                format!(
                    "{n} cards cannot be drawn from a deck of {len} cards (§Draw Hands: the cards are dealt from the fighter's deck); lower it to at most {len}, or give a larger custom_deck"
                ),
            ));
        }
    }
    Ok(())
}

/// The largest hand of a fighter with a weapon (main or backup), for the shared-deck check.
fn largest_hand(f: &Fighter) -> usize {
    use super::duel::{KIT_BACKUP, KIT_MAIN};
    let main = Matchup::hand_of(f, KIT_MAIN, false, false);
    let backup = if f.backup.is_some() {
        Matchup::hand_of(f, KIT_BACKUP, false, false)
    } else {
        0
    };
    usize::from(main.max(backup)) * usize::from(f.count.max(1))
        + f.others.iter().map(largest_hand).sum::<usize>()
}

/// The largest relative size a fighter may be given.
pub const MAX_SIZE: f64 = 1000.0;

/// The most yards a melee weapon reaches (§Range: "the weapon's approximate length").
pub const MAX_REACH: i32 = 6;

/// Cross-field checks of one weapon: a melee weapon reaches at most [`MAX_REACH`] yards; a
/// ranged weapon shoots at least 1 yard and is no shield; aim and fractional maneuvers belong
/// to ranged weapons.
fn check_arm(key: &str, w: &WeaponStats) -> Result<(), RulesError> {
    let bad = if w.impact && (w.shield || w.ranged) {
        Some("impact is for melee weapons («Smash» is a melee attack; a shield attacks only by a Shield Bash)".to_string())
    } else if w.ranged {
        if w.shield {
            Some("a shield cannot be a ranged weapon".to_string())
        } else if w.range < 1 {
            Some("a ranged weapon shoots at least 1 yard (range 1–120)".to_string())
        } else {
            None
        }
    } else if w.range > MAX_REACH {
        Some(format!(
            "range {} yards: a melee weapon reaches 0–{MAX_REACH} yards (ranged = true for a missile weapon)",
            w.range
        ))
    } else if w.aim > 0 {
        Some("aim is for ranged weapons (ranged = true)".to_string())
    } else if w.max_maneuvers.every > 1 {
        Some("a fraction of maneuvers (\"1/N\") is for ranged weapons (ranged = true)".to_string())
    } else {
        None
    };
    bad.map_or(Ok(()), |m| Err(RulesError::field(key, m)))
}

/// The deck a fighter draws from, ready to shuffle.
pub fn deck(o: &CardsOptions, npc: bool) -> Result<Deck, RulesError> {
    Deck::new(&deck_cards(o, npc)?).map_err(|e| RulesError::field("deck", e.to_string()))
}

/// The deck a fighter draws from (a player's), built once for the ruleset's checks.
impl crate::Build<CardsOptions> for Deck {
    fn build(o: &CardsOptions) -> Result<Deck, RulesError> {
        deck(o, false)
    }
}

/// The cards of the deck a fighter draws from.
pub fn deck_cards(o: &CardsOptions, npc: bool) -> Result<Vec<Card>, RulesError> {
    match o.deck {
        DeckChoice::Custom => {
            let cards = o
                .custom_deck
                .iter()
                .map(|c| c.parse::<Card>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| RulesError::field("custom_deck", e))?;
            if !(2..=oddsmith_dice::deck::MAX_DECK).contains(&cards.len()) {
                return Err(RulesError::field(
                    "custom_deck",
                    format!("{} cards: expected 2 to 64", cards.len()),
                ));
            }
            Ok(cards)
        }
        DeckChoice::D44 => {
            let jokers = !(npc && o.npc_jokerless) && o.jokers != Jokers::Remove;
            let mut cards = d44(jokers);
            if o.jokers == Jokers::Wild {
                let best = cards.iter().map(|c| c.value).max().unwrap_or(0);
                // The two jokers are the last cards of d44(true).
                let n = cards.len();
                if jokers {
                    for c in &mut cards[n - 2..] {
                        *c = Card::plain(best);
                    }
                }
            }
            Ok(cards)
        }
    }
}

impl crate::Compile<Cards> for Fighter {
    /// Validates and compiles a fighter.
    fn compile(rules: &Cards, name: &str, s: &FighterSpec) -> Result<Fighter, RulesError> {
        let o = rules.options();
        let main = &s.weapon.stats;
        if main.shield {
            return Err(RulesError::field(
                "weapon",
                "a shield cannot be the main weapon; put it in off_hand",
            ));
        }
        if let Some(off) = &s.off_hand {
            if main.hands == 2 {
                return Err(RulesError::field(
                    "off_hand",
                    format!("{} needs both hands", main.name),
                ));
            }
            if off.stats.hands == 2 {
                return Err(RulesError::field("off_hand", "a two-handed item cannot be off-hand"));
            }
        }
        if let Some(b) = &s.backup
            && b.stats.shield
        {
            return Err(RulesError::field("backup", "a backup must be a weapon"));
        }
        for (key, w) in [("weapon", Some(&s.weapon)), ("off_hand", s.off_hand.as_ref()), ("backup", s.backup.as_ref())] {
            if let Some(w) = w {
                check_arm(key, &w.stats)?;
            }
        }
        if let Some(off) = &s.off_hand
            && off.stats.ranged
        {
            return Err(RulesError::field("off_hand", "a ranged weapon cannot be off-hand"));
        }
        check_hands(o, s)?;
        // «Unusual Foes»: a size is a positive number (the comparisons are ratios).
        if !(s.size > 0.0 && s.size <= MAX_SIZE) {
            return Err(RulesError::field(
                "size",
                format!(
                    "size {}: a relative size must be above 0 and at most {MAX_SIZE} (1 = a person, 3 = a creature three times his size; «Unusual Foes»: a foe at least twice the attacker's size is large, less than half of it small)",
                    s.size
                ),
            ));
        }
        Ok(Fighter {
            name: name.into(),
            main: Arm::of(main),
            main_skill: s.skill as u8,
            off: s.off_hand.as_ref().map(|w| Arm::of(&w.stats)),
            off_skill: s.off_hand_skill.unwrap_or(s.skill) as u8,
            backup: s.backup.as_ref().map(|w| Arm::of(&w.stats)),
            backup_skill: s.backup_skill as u8,
            bare: Arm::of(&weapon(BARE_HANDS).expect("built in")),
            brawling: s.brawling as u8,
            fast_draw: s.fast_draw as u8,
            combat_training: s.combat_training as u8,
            dodge: s.dodge as u8,
            count: s.count as u8,
            others: Vec::new(),
            stealth: s.stealth as u8,
            finesse: s.finesse,
            might: s.might,
            willpower: s.willpower,
            vitality: s.vitality,
            awareness: s.awareness,
            armor_mod: s.armor_mod,
            protection: s.protection,
            hp: (o.hp_base + s.vitality).max(1),
            npc: s.npc,
            size: s.size,
            tactics: s.tactics.clone(),
        })
    }
}

impl crate::Pair<Cards> for Matchup {
    /// Pairs two fighters: hit points, decks and the starting range.
    fn pair(rules: &Cards, a: &Fighter, b: &Fighter) -> Result<Matchup, RulesError> {
        let o = rules.options();
        let f = [a.clone(), b.clone()];
        let deck = |npc| deck(o, npc);
        let decks = match o.deck_owner {
            DeckOwner::PerFighter => [deck(a.npc)?, deck(b.npc)?],
            DeckOwner::Shared => {
                let d = deck(a.npc && b.npc)?;
                // Both hands of a round are dealt from the one deck.
                let need = largest_hand(a) + largest_hand(b);
                if need > d.len() {
                    return Err(RulesError::Unsupported(format!(
                        "{} and {} hold hands of {} cards together, but they draw from one shared deck of {} cards (deck_owner = \"shared\"): the hands cannot both be dealt; lower their skills, give a larger custom_deck, or use deck_owner = \"per_fighter\"",
                        a.name,
                        b.name,
                        need,
                        d.len()
                    )));
                }
                [d, d]
            }
        };
        // §Range: "Combat begins at the range of the longest weapon" (off-hand weapons too;
        // a ranged weapon is no reach).
        let reach = |f: &Fighter| {
            let main = if f.main.ranged { 0 } else { f.main.range };
            f.off.filter(|x| !x.shield).map_or(main, |x| x.range.max(main))
        };
        let start_range = if o.range_model {
            reach(a).max(reach(b))
        } else {
            0
        };
        let distance = if o.range_model && o.distance > i32::from(start_range) {
            o.distance as i8
        } else {
            0
        };
        let grouped = a.count > 1 || b.count > 1 || !a.others.is_empty() || !b.others.is_empty();
        if grouped {
            if matches!(o.start, Start::ACharges | Start::ASurprises) {
                return Err(RulesError::field(
                    "count",
                    "a band fights from an engaged start or a show down (start = \"engaged\" or \"show_down\")",
                ));
            }
            if distance > 0 {
                return Err(RulesError::field(
                    "count",
                    "a band fights in melee: set the option distance to 0 (ranged rounds are one against one)",
                ));
            }
            return super::group::pair(rules, a, b);
        }
        let initial = super::duel::initial(o, &f, decks, start_range, distance);
        let foe = [FoeSize::of(a.size, b.size), FoeSize::of(b.size, a.size)];
        let unusual = foe.contains(&FoeSize::Large);
        Ok(Matchup {
            // The Large Creature Maneuvers are played by the general form only.
            plain: Matchup::plain_of(o, &f) && !unusual,
            foe,
            unusual,
            kits: Matchup::kits(&f),
            f,
            deck: decks,
            start_range,
            distance,
            group: None,
            grouped: false,
            initial,
            mods: [a.finesse + a.armor_mod, b.finesse + b.armor_mod],
            plays: [Matchup::plays_of(o, &a.tactics), Matchup::plays_of(o, &b.tactics)],
            hits: [Matchup::hits_of(o, &a.tactics), Matchup::hits_of(o, &b.tactics)],
            // «Large/Small Creature To-Hit Modifiers» replace the ordinary ones; a shot that
            // cannot be called (a small creature's head vitals) aims at the torso.
            shot: [(a, foe[0]), (b, foe[1])].map(|(f, foe)| {
                let loc = f.tactics.called_shot;
                match loc.modifier_against(foe) {
                    Some(m) => [m, o.location_damage.of(loc)],
                    None => [0, 0],
                }
            }),
        })
    }
}
