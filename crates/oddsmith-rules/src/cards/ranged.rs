//! Rounds apart ("Random Combat Rules" §Ranged Combat): the fighters stand `range` yards
//! apart. Each round each one shoots, aims, runs toward the other, dodges or blocks, decided
//! by his tactics (`aim`, `missile_defense`); then everything resolves at once. A shot is a
//! basic check with the weapon skill (§Resolving Ranged Attacks): the best card of a hand of
//! skill cards, or the best card of the aiming row (§Aiming; digest G22: only the row), plus
//! force + finesse + armour + the range band (§Other Modifiers) + the target's motion +
//! `shot_modifier` + a called shot, minus the target's positive dodge total (dodge skill +
//! awareness); it hits only above 0 ("regardless of
//! other factors"), and against a block only above the block total. Damage = card + edge,
//! capped at the weapon's maximum. Running fighters cover `close_yards` a round; one who
//! reaches melee range charges (§Charging), unless `arrival_charge` is off.

use oddsmith_dice::deck::{Card, Hand};

use super::duel::{
    AimRow, Apart, State, arms, deck_of, discard_round, draw, hit_loop, reach, reset_decks,
};
use super::fighter::{Arm, Matchup};
use super::options::{CardsOptions, Reshuffle, ShotHand};
use super::spec::{AimPolicy, MissileDefense};
use crate::solver::Step;
use crate::{Ending, Roller, Tally, Winner};

/// What a fighter does in a round apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// Shoots his ranged weapon.
    Fire,
    /// Deals a card into his aiming row (§Aiming).
    Aim,
    /// Runs toward the other (a shooter out of range walks into range of another shooter).
    Close,
    /// Waits (a weapon reloading, a row he keeps).
    Stand,
    /// Dodges every shot of the round (§Dodging); nothing else.
    Dodge,
    /// Blocks with his shield (§Blocking); nothing else.
    Block,
}

/// §Other Modifiers: the range band of a shot at `dist` yards with a weapon of range `max`
/// (digest §4.15: point blank ≤ 1 yard (three feet) −0, short ≤ ¼ −2, medium ≤ ½ −4, long −6);
/// `None` beyond the weapon's range.
pub fn band_modifier(dist: i32, max: i32) -> Option<i32> {
    if dist > max {
        None
    } else if dist <= 1 {
        Some(0)
    } else if 4 * dist <= max {
        Some(-2)
    } else if 2 * dist <= max {
        Some(-4)
    } else {
        Some(-6)
    }
}

/// The ranged weapon the side holds, if any.
pub fn ranged_arm(m: &Matchup, s: &State, side: usize) -> Option<Arm> {
    arms(m, s, side)[0].filter(|a| a.ranged)
}

/// The side's intent this round under his tactics, before any defence (digest §6.2 ranged
/// policy: fire now, aim until a card, aim k rounds).
pub fn intent(m: &Matchup, s: &State, side: usize) -> Act {
    let Some(w) = ranged_arm(m, s, side) else {
        return Act::Close;
    };
    if s.range > w.range {
        // Out of range: walk into range against another shooter; let a runner come.
        return if ranged_arm(m, s, 1 - side).is_some() {
            Act::Close
        } else {
            Act::Stand
        };
    }
    let t = &m.f[side].tactics;
    let row = &s.aim[side];
    let aims = w.aim > 0
        && match t.aim {
            AimPolicy::FireNow => false,
            AimPolicy::Until => {
                !(row.len >= w.aim || row.best().is_some_and(|c| i32::from(c.value) >= t.aim_until))
            }
            AimPolicy::Rounds => i32::from(row.rounds) < t.aim_rounds,
        };
    if s.reload[side] == 0 && !aims {
        Act::Fire
    } else if aims {
        Act::Aim
    } else {
        Act::Stand
    }
}

/// What the side does, knowing whether the other means to shoot (§Dodging: "if he is aware of
/// any attacks towards him").
pub fn act(m: &Matchup, s: &State, side: usize, intents: [Act; 2]) -> Act {
    if intents[1 - side] != Act::Fire {
        return intents[side];
    }
    let shield = arms(m, s, side)[1].is_some_and(|x| x.shield);
    match m.f[side].tactics.missile_defense {
        MissileDefense::Dodge => Act::Dodge,
        MissileDefense::Block if shield => Act::Block,
        _ => intents[side],
    }
}

/// The best of `n` cards (at least 1) from the side's deck, after a reset under
/// `every_check`.
fn check_card<R: Roller>(o: &CardsOptions, s: &mut State, side: usize, n: u8, r: &mut R) -> Card {
    if o.reshuffle == Reshuffle::EveryCheck {
        reset_decks(o, s);
    }
    let mut best: Option<Card> = None;
    for _ in 0..n.max(1) {
        if let Some(c) = draw(&mut s.decks[deck_of(o, side)], r) {
            best = Some(best.map_or(c, |b| b.max(c)));
        }
    }
    best.unwrap_or_default()
}

/// The target's motion modifier (§Other Modifiers): running −1, standing +1.
fn motion(o: &CardsOptions, a: Act) -> i32 {
    match a {
        _ if !o.target_motion => 0,
        Act::Close => -1,
        Act::Fire | Act::Aim | Act::Stand => 1,
        Act::Dodge | Act::Block => 0,
    }
}

/// One shot by `side` at the other (whose act is `target`, with the dodge and block totals
/// he drew): hits and damage, hits on the card drawn as the tactics say. Returns the damage.
#[allow(clippy::too_many_arguments)]
pub fn shoot<R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    side: usize,
    target: Act,
    dodge: i32,
    block: Option<i32>,
    r: &mut R,
    tally: &mut T,
) -> i32 {
    shoot_with(o, m, s, side, target, dodge, block, None, r, tally)
}

/// [`shoot`] with the card already chosen from the round's one hand (`shot_hand =
/// "one_hand"`), or `None`: the aiming row's best card, else a fresh hand of skill cards.
#[allow(clippy::too_many_arguments)]
pub fn shoot_with<R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    side: usize,
    target: Act,
    dodge: i32,
    block: Option<i32>,
    preset: Option<Card>,
    r: &mut R,
    tally: &mut T,
) -> i32 {
    let f = &m.f[side];
    let Some(w) = ranged_arm(m, s, side) else {
        return 0;
    };
    let card = match preset.or_else(|| s.aim[side].best()) {
        Some(c) => c,
        None => {
            let n = f.main_skill;
            check_card(o, s, side, n, r)
        }
    };
    // §Hit Location, with «Large/Small Creature To-Hit Modifiers» against a foe of another
    // size ([`Matchup::shot`]: the ordinary modifier at equal sizes; an uncallable shot at a
    // small creature's head vitals aims at the torso).
    let [loc_mod, loc_damage] = m.shot[side];
    let base = i32::from(w.force)
        + f.finesse
        + f.armor_mod
        + band_modifier(i32::from(s.range), i32::from(w.range)).unwrap_or(-99)
        + motion(o, target)
        + o.shot_modifier
        + loc_mod;
    let misses = |t: i32| t + base - dodge.max(0) <= 0 || block.is_some_and(|b| t + base <= b);
    let total = hit_loop(o, m, s, side, card, misses, r, tally);
    let hit = !misses(total);
    let dmg = if hit {
        let raw = (total + i32::from(w.edge)).clamp(o.damage_floor, i32::from(w.md).max(o.damage_floor));
        (raw + loc_damage - m.f[1 - side].protection).max(0)
    } else {
        0
    };
    tally.attack(side, hit, dmg);
    // The shot is away: the row goes, the weapon reloads.
    s.aim[side] = AimRow::default();
    s.reload[side] = w.every.saturating_sub(1);
    dmg
}

/// One round apart (see the module doc).
pub fn round<R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    r: &mut R,
    tally: &mut T,
) -> Apart {
    let intents = [intent(m, s, 0), intent(m, s, 1)];
    let acts = [act(m, s, 0, intents), act(m, s, 1, intents)];
    // Defences first: each a basic check drawn before the shots it answers.
    let mut dodge = [0i32; 2];
    let mut block = [None; 2];
    for side in 0..2 {
        let f = &m.f[side];
        let losing = |t: i32| t <= 0;
        match acts[side] {
            Act::Dodge => {
                let c = check_card(o, s, side, f.dodge, r);
                let t = hit_loop(o, m, s, side, c, |t| losing(t + f.awareness), r, tally);
                dodge[side] = t + f.awareness;
            }
            Act::Block => {
                let shield = arms(m, s, side)[1].map_or(0, |x| i32::from(x.force));
                let c = check_card(o, s, side, f.off_skill, r);
                block[side] = Some(i32::from(c.value) + f.finesse + f.armor_mod + shield);
            }
            _ => {}
        }
    }
    for (side, &a) in acts.iter().enumerate() {
        if a == Act::Aim {
            let aim = ranged_arm(m, s, side).map_or(1, |w| w.aim);
            if o.reshuffle == Reshuffle::EveryCheck {
                reset_decks(o, s);
            }
            if let Some(c) = draw(&mut s.decks[deck_of(o, side)], r) {
                s.aim[side].deal(c, aim);
            }
        }
    }
    let mut dmg = [0i32; 2];
    for side in 0..2 {
        if acts[side] == Act::Fire {
            let other = 1 - side;
            // §Ranged Weapon Attributes: up to the weapon's maximum maneuvers shots a round,
            // each its own check (one for "1/N" or 0).
            let shots = ranged_arm(m, s, side).map_or(1, |w| if w.mm == u8::MAX { 1 } else { w.mm.max(1) });
            if o.shot_hand == ShotHand::OneHand && shots > 1 {
                // One compound hand for the round's shots (§Compound Actions: a card per
                // maneuver, no more maneuvers than cards): the best card first; a row aimed
                // before is the first shot's card.
                let mut hand = Hand::default();
                if o.reshuffle == Reshuffle::EveryCheck {
                    reset_decks(o, s);
                }
                let n = usize::from(m.f[side].main_skill.max(1));
                for _ in 0..n {
                    if let Some(c) = draw(&mut s.decks[deck_of(o, side)], r) {
                        hand.push(c);
                    }
                }
                for k in 0..shots {
                    let card = if k == 0 && s.aim[side].best().is_some() {
                        None
                    } else {
                        let Some(i) = hand.best() else { break };
                        Some(hand.take(i))
                    };
                    dmg[other] += shoot_with(o, m, s, side, acts[other], dodge[other], block[other], card, r, tally);
                }
            } else {
                for _ in 0..shots {
                    dmg[other] += shoot(o, m, s, side, acts[other], dodge[other], block[other], r, tally);
                }
            }
        } else {
            s.reload[side] = s.reload[side].saturating_sub(1);
        }
    }
    discard_round(o, s);
    for (hp, d) in s.hp.iter_mut().zip(dmg) {
        *hp -= d as i16;
    }
    match (s.hp[0] <= 0, s.hp[1] <= 0) {
        (true, true) => return Apart::Over(Step::Over(Winner::Draw, Ending::Incapacitated)),
        (true, false) => return Apart::Over(Step::Over(Winner::B, Ending::Incapacitated)),
        (false, true) => return Apart::Over(Step::Over(Winner::A, Ending::Incapacitated)),
        _ => {}
    }
    // Running: a fighter without a ranged weapon runs close_yards; a shooter walks no nearer
    // than his weapon's range.
    let mut moved = [0i32; 2];
    for side in 0..2 {
        if acts[side] == Act::Close {
            let d = i32::from(s.range);
            moved[side] = match ranged_arm(m, s, side) {
                Some(w) => o.close_yards.min(d - i32::from(w.range)).max(0),
                None => o.close_yards,
            };
        }
    }
    let d = i32::from(s.range) - moved[0] - moved[1];
    if d > i32::from(m.start_range) {
        s.range = d as i8;
        return Apart::Stay;
    }
    // Melee range: the fight is engaged at the longest weapon's range (§Range).
    s.apart = false;
    s.range = m.start_range;
    s.aim = [AimRow::default(); 2];
    s.reload = [0; 2];
    // The rows are no longer showing.
    discard_round(o, s);
    let runners = [moved[0] > 0, moved[1] > 0];
    match runners {
        [true, false] | [false, true] if o.arrival_charge => {
            let c = usize::from(runners[1]);
            // §Charging: "The character who charged has the initiative (unless the opponent's
            // weapon has greater range)"; he retains it afterwards.
            s.init = if reach(m, s, 1 - c) > reach(m, s, c) {
                (1 - c) as u8
            } else {
                c as u8
            };
            Apart::Charge(c)
        }
        _ => Apart::Stay,
    }
}
