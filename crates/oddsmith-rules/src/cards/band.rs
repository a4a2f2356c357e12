//! Several opponents ("Random Combat Rules" §Multiple Opponents; digest §4.13, G25): a lone
//! fighter (the *hero*) against a band of `count` identical fighters. Each pairing (hero,
//! member) has its own range and initiative holder; the hero holds the initiative over at most
//! one member, his *target* (tactic `target`); if he seizes it from another, he yields it to
//! the first. One hand faces them all: the hero draws one hand and one maneuver budget
//! (his weapon's maximum maneuvers) for the round, each member his own. In every register each
//! member holding the initiative declares against the hero and the hero answers each with a
//! separate card and maneuver ("each parry uses a maneuver and a separate card"), and the
//! hero, holding the initiative over his target, declares against him and the target answers —
//! but since "this is the only way a player can use more than one card in a register", a hero
//! who attacks parries nothing in that register (tactic `band_attack`: attack only in a
//! register nobody else attacks him in, or every register); then every pairing's register
//! resolves, separately and at once (a fighter taken out in a register still completes that
//! register's maneuvers).
//!
//! Each pairing is played by the one-on-one code: member `i`'s part of the state is swapped
//! into the band's seat ([`swap`]), so `declare`, `answer` and `resolve` are the duel's own.

use super::duel::{
    self, Decl, MAX_BAND, MAX_REGISTERS, SideRound, State, answer, arms, cap, declare, hand_size,
    initiative, range_announced, resolve, side,
};
use super::fighter::Matchup;
use super::options::{CardsOptions, DeckOwner, Reshuffle};
use super::spec::{BandAttack, Target};
use crate::solver::Step;
use crate::{Ending, Roller, Tally, Winner};

/// Swaps member `i`'s part of the state with the band's seat `b` (member 0 lives there; a
/// second swap undoes the first). A shared deck is never swapped.
pub fn swap(o: &CardsOptions, s: &mut State, b: usize, i: usize) {
    if i == 0 {
        return;
    }
    let x = &mut s.more[i - 1];
    std::mem::swap(&mut s.hp[b], &mut x.hp);
    std::mem::swap(&mut s.range, &mut x.range);
    std::mem::swap(&mut s.init, &mut x.init);
    std::mem::swap(&mut s.kit[b], &mut x.kit);
    std::mem::swap(&mut s.fresh[b], &mut x.fresh);
    if o.deck_owner == DeckOwner::PerFighter {
        std::mem::swap(&mut s.decks[b], &mut x.deck);
    }
}

/// Member `i`'s hit points (not swapped in).
fn hp(s: &State, b: usize, i: usize) -> i16 {
    if i == 0 { s.hp[b] } else { s.more[i - 1].hp }
}

/// Who holds the initiative in member `i`'s pairing (not swapped in).
fn init(s: &State, i: usize) -> u8 {
    if i == 0 { s.init } else { s.more[i - 1].init }
}

fn set_init(s: &mut State, i: usize, v: u8) {
    if i == 0 {
        s.init = v;
    } else {
        s.more[i - 1].init = v;
    }
}

/// Members still fighting.
fn active(s: &State, count: usize) -> impl Iterator<Item = usize> + '_ {
    (0..count).filter(move |&i| s.out & (1 << i) == 0)
}

/// §Multiple Opponents: the hero "may never have initiative on more than one opponent at a
/// time". Of the pairings where he holds it, he keeps `keep` if given, else his target
/// (tactic `target`), and yields the others.
fn one_initiative(m: &Matchup, s: &mut State, b: usize, count: usize, keep: Option<usize>) {
    let h = 1 - b;
    let held = |s: &State| active(s, count).filter(|&i| init(s, i) == h as u8).count();
    if held(s) <= 1 {
        return;
    }
    let keep = keep.unwrap_or_else(|| {
        // The shared group targeting ([`crate::group::best`]): `weakest` is `lowest_hp`.
        let policy = match m.f[h].tactics.target {
            Target::First => crate::group::Target::First,
            Target::Weakest => crate::group::Target::LowestHp,
        };
        let held = |i: usize| s.out & (1 << i) == 0 && init(s, i) == h as u8;
        crate::group::best(policy, count, |i| {
            held(i).then(|| crate::group::Candidate {
                hp: i32::from(hp(s, b, i)),
                ..Default::default()
            })
        })
        .unwrap_or(0)
    });
    for i in 0..count {
        if i != keep && init(s, i) == h as u8 {
            set_init(s, i, b as u8);
        }
    }
}

/// One round of the hero against the band (see the module doc).
pub fn round<R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    r: &mut R,
    tally: &mut T,
) -> Step {
    let b = m.band.unwrap_or(1);
    let h = 1 - b;
    let count = usize::from(m.f[b].count).min(MAX_BAND);
    if o.reshuffle == Reshuffle::EveryRound {
        for x in &mut s.more {
            x.deck.reset();
        }
    }
    // Initiative, pairing by pairing (the hero draws his check against each).
    for i in 0..count {
        if s.out & (1 << i) == 0 && init(s, i) > 1 {
            swap(o, s, b, i);
            s.init = initiative(o, m, s, r, tally);
            swap(o, s, b, i);
        }
    }
    one_initiative(m, s, b, count, None);
    for i in active(s, count).collect::<Members>().iter() {
        tally.count_side(usize::from(init(s, i)), duel::C_INITIATIVE, 1);
    }
    if o.reshuffle == Reshuffle::EveryCheck {
        duel::reset_decks(o, s);
        for x in &mut s.more {
            x.deck.reset();
        }
    }
    // Hands: the hero's one hand, then each member's.
    let mut hero = SideRound::default();
    draw_hand(o, m, s, h, &mut hero, r);
    let mut band = [SideRound::default(); MAX_BAND];
    for (i, rs) in band.iter_mut().enumerate().take(count) {
        if s.out & (1 << i) == 0 {
            swap(o, s, b, i);
            draw_hand(o, m, s, b, rs, r);
            swap(o, s, b, i);
        }
    }
    let end = registers(o, m, s, b, count, &mut hero, &mut band, r, tally);
    for d in &mut s.decks {
        d.discard_out();
    }
    for x in &mut s.more {
        x.deck.discard_out();
    }
    end
}

/// Indices of members, without allocating.
#[derive(Default)]
struct Members {
    ids: [usize; MAX_BAND],
    n: usize,
}

impl FromIterator<usize> for Members {
    fn from_iter<I: IntoIterator<Item = usize>>(it: I) -> Members {
        let mut v = Members::default();
        for i in it {
            if v.n < MAX_BAND {
                v.ids[v.n] = i;
                v.n += 1;
            }
        }
        v
    }
}

impl Members {
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.ids[..self.n].iter().copied()
    }
}

/// Draws `side`'s hand (the seat as swapped) and sets his maneuver budget.
fn draw_hand<R: Roller>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    side: usize,
    rs: &mut SideRound,
    r: &mut R,
) {
    for _ in 0..hand_size(m, s, side) {
        if let Some(c) = duel::draw(&mut s.decks[duel::deck_of(o, side)], r) {
            rs.hand.push(c);
        }
    }
    rs.cap = cap(*arms(m, s, side));
    s.fresh[side] = false;
}

/// Plays member `i`'s pairing (swapped in) through `f` with the two round records in the
/// duel's seats.
#[allow(clippy::too_many_arguments)]
fn with_pairing<X>(
    o: &CardsOptions,
    s: &mut State,
    b: usize,
    i: usize,
    hero: &mut SideRound,
    member: &mut SideRound,
    f: impl FnOnce(&mut State, &mut [SideRound; 2]) -> X,
) -> X {
    swap(o, s, b, i);
    let mut rs = [SideRound::default(); 2];
    rs[1 - b] = *hero;
    rs[b] = *member;
    let x = f(s, &mut rs);
    *hero = rs[1 - b];
    *member = rs[b];
    swap(o, s, b, i);
    x
}

/// The round's registers (§Declare Maneuvers, §Resolve Maneuvers, §Multiple Opponents).
#[allow(clippy::too_many_arguments)]
pub(super) fn registers<R: Roller, T: Tally>(
    o: &CardsOptions,
    m: &Matchup,
    s: &mut State,
    b: usize,
    count: usize,
    hero: &mut SideRound,
    band: &mut [SideRound; MAX_BAND],
    r: &mut R,
    tally: &mut T,
) -> Step {
    let h = 1 - b;
    let mut decl_range = [0i8; MAX_BAND];
    for (i, d) in decl_range.iter_mut().enumerate().take(count) {
        *d = if i == 0 { s.range } else { s.more[i - 1].range };
    }
    // A pairing whose attacker stopped (or whose initiative is to be drawn again) is over for
    // the round.
    let mut stopped = [false; MAX_BAND];
    let mut yielded_once = false;
    for reg in 0..MAX_REGISTERS {
        // Declarations: the hero against his target first, then each member holding the
        // initiative, each answered at once.
        let mut decls: [Option<(usize, Decl, Option<Decl>)>; MAX_BAND] = [None; MAX_BAND];
        // "This is the only way a player can use more than one card in a register": a hero
        // who attacks cannot parry in that register. Under `band_attack = "always"` he
        // declares against his target first and the others' attacks go unparried; under
        // "free" he attacks only in a register no other opponent attacks him in.
        let always = m.f[h].tactics.band_attack == BandAttack::Always;
        let hero_first = active(s, count).filter(|&i| init(s, i) == h as u8 && always);
        let members = active(s, count).filter(|&i| init(s, i) == b as u8);
        let hero_last = active(s, count).filter(|&i| init(s, i) == h as u8 && !always);
        let order = hero_first.chain(members).chain(hero_last).collect::<Members>();
        let mut hero_attacked = false;
        let mut attacked = false;
        for i in order.iter() {
            if stopped[i] {
                continue;
            }
            let hero_att = init(s, i) == h as u8;
            if hero_att && attacked {
                continue;
            }
            let dr = decl_range[i];
            let parry = !hero_attacked;
            decls[i] = with_pairing(o, s, b, i, hero, &mut band[i], |s, rs| {
                let att = usize::from(s.init);
                let a = declare(o, m, s, rs, att, dr, r)?;
                rs[att].declared += 1;
                let d = if parry || att == h {
                    answer(o, m, s, rs, 1 - att, &a, dr, r)
                } else {
                    None
                };
                Some((att, a, d))
            });
            match decls[i] {
                Some((att, _, _)) if att == h => hero_attacked = true,
                Some(_) => attacked = true,
                None if reg > 0 => stopped[i] = true,
                None => {}
            }
        }
        if decls.iter().all(Option::is_none) {
            if reg > 0 {
                break;
            }
            // §Determine Initiative / §Hesitating: attackers with nothing to declare yield the
            // initiative; if nobody can act after that either, combat ends.
            if yielded_once {
                return Step::Over(Winner::Draw, Ending::Yield);
            }
            yielded_once = true;
            for i in 0..count {
                let v = init(s, i);
                if v < 2 {
                    set_init(s, i, 1 - v);
                }
            }
            one_initiative(m, s, b, count, None);
            continue;
        }
        // Resolution: every pairing of the register, separately.
        let target = active(s, count).find(|&i| init(s, i) == h as u8);
        let mut hero_out = None;
        let mut last = Ending::Incapacitated;
        let mut draw = false;
        for i in 0..count {
            let Some((att, a, d)) = decls[i] else { continue };
            let end = with_pairing(o, s, b, i, hero, &mut band[i], |s, rs| {
                let (_, end) = resolve(o, m, s, rs, att, a, d, 0, r, tally);
                end
            });
            if let Some(Step::Over(w, e)) = end {
                if w == Winner::of(side(h)) {
                    s.out |= 1 << i;
                    last = e;
                } else if w == Winner::of(side(b)) {
                    hero_out = Some(e);
                } else {
                    draw = true;
                }
            }
            if init(s, i) > 1 {
                // §Striking Maneuvers Tackle: the initiative is drawn again next round.
                stopped[i] = true;
            }
            if range_announced(o, &a, d.as_ref()) {
                decl_range[i] = if i == 0 { s.range } else { s.more[i - 1].range };
            }
        }
        if draw {
            return Step::Over(Winner::Draw, Ending::Yield);
        }
        let all_out = active(s, count).next().is_none();
        match (hero_out, all_out) {
            (Some(_), true) => return Step::Over(Winner::Draw, Ending::Incapacitated),
            (Some(e), false) => return Step::Over(Winner::of(side(b)), e),
            (None, true) => return Step::Over(Winner::of(side(h)), last),
            (None, false) => {}
        }
        // A seize: the hero keeps the initiative he just took and yields his old target's.
        let seized = active(s, count).find(|&i| init(s, i) == h as u8 && Some(i) != target);
        one_initiative(m, s, b, count, seized);
    }
    Step::Continue
}
