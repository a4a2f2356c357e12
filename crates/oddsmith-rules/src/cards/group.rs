//! Group fights ("Random Combat Rules" §Multiple Opponents; digest §4.13, G25) on the shared
//! group mechanism ([`crate::group`]): each side is a roster of up to [`MAX_BAND`] members
//! (mixed fighters, each with its count), every member is engaged with every foe still
//! standing, and each pairing of two foes has its own range and initiative holder. A member
//! "must face them with his hand as normal": he draws one hand and has one maneuver budget (his
//! weapon's maximum) for the round, whoever he faces. He "may never have initiative on more
//! than one opponent at a time": of the pairings where he holds it he keeps the one with the
//! foe his targeting policy picks (tactic `target`, [`crate::group::best`]) and yields the
//! others; "if a character has the initiative over one foe and seizes the initiative from
//! another, he automatically yields the initiative to the first foe". A yielded pairing whose
//! foe already holds the initiative over another goes to nobody for the round (it is drawn
//! again next round; the post does not say: a reading, named in the ruleset's docs).
//!
//! In each register every holder declares against his foe and the foe answers with a separate
//! card and maneuver ("each parry uses a maneuver and a separate card"; several parries in a
//! register, one per attacker, since a pairing has one attacker). "This is the only way a
//! player can use more than one card in a register": a member who attacks in a register parries
//! nothing in it, and one who faces several foes chooses by his tactic `band_attack`: attack
//! first (`always`; the others' attacks of that register go unparried) or only in a register
//! nobody attacked him in (`free`, declared last). Then every pairing's register resolves,
//! separately and at once (a fighter taken out in a register still completes that register's
//! maneuvers). A side wins when every member of the other is out.
//!
//! Each pairing is played by the one-on-one code: its two members and its range, initiative,
//! flanks and clings («Large Creature Maneuvers») are swapped into the duel's seats
//! ([`swap_pair`]), so `initiative`, `declare`, `answer` and
//! `resolve` are the duel's own, with the pairing's own one-against-one [`Matchup`] (built once
//! per pair of member kinds). A lone fighter against a band is the case of one member on a
//! side; one against one never comes here (the duel keeps its fast path).
//!
//! Members are not put in canonical order ([`crate::group::canonical`]): the cards fight is
//! Monte Carlo only (the decks are in the state), so there is no state space to shrink.

use super::duel::{
    self, Decl, MAX_BAND, MAX_REGISTERS, Man, SideRound, State, answer, arms, cap, declare, hand_size,
    initiative, range_announced, resolve,
};
use super::fighter::{Fighter, Matchup};
use super::options::{DeckOwner, Reshuffle};
use super::spec::{BandAttack, SwipePolicy, Target};
use super::{Cards, CardsOptions};
use crate::group::Candidate;
use crate::solver::Step;
use crate::{Ending, Pair, Roller, RulesError, Tally, Winner};

/// A group fight's plan, built once per matchup: the rosters and the pairings' matchups.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Members on each side.
    pub n: [usize; 2],
    /// The kind of each member (its place in the side's list of members as written).
    pub kind: [[u8; MAX_BAND]; 2],
    /// Kinds on B's side (the stride of `pairs`).
    pub kinds_b: usize,
    /// The one-against-one matchup of A's kind `a` and B's kind `b` at `a × kinds_b + b`
    /// (`grouped`: a hold wins at once).
    pub pairs: Vec<Matchup>,
    /// Each member's targeting policy among the foes he holds the initiative over.
    pub target: [[crate::group::Target; MAX_BAND]; 2],
    /// Each member's `band_attack` is `always`.
    pub always: [[bool; MAX_BAND]; 2],
    /// Each member's `swipe` tactic («Swipe»), `never` where no foe of his is small to him.
    pub swipe: [[SwipePolicy; MAX_BAND]; 2],
    /// Each member's hit points at the start (for `most_wounded`).
    pub hp: [[i16; MAX_BAND]; 2],
    /// Each member's danger (his main weapon's maximum damage + edge) and defense (finesse +
    /// armour modifier) for `most_dangerous` and `easiest_to_hit`.
    pub danger: [[i32; MAX_BAND]; 2],
    /// See `danger`.
    pub defense: [[i32; MAX_BAND]; 2],
}

impl Plan {
    /// Who is who for the shared group report ([`crate::group::Roster`]): the members in slot
    /// order, each member's copies side by side, so a slot is a creature's number.
    pub fn roster(&self) -> crate::group::Roster {
        let side = |s: usize| {
            let mut counts = [0u8; MAX_BAND];
            for &k in &self.kind[s][..self.n[s]] {
                counts[usize::from(k)] += 1;
            }
            let kinds = usize::from(self.kind[s][self.n[s] - 1]) + 1;
            crate::group::SideRoster::of(&counts[..kinds])
        };
        crate::group::Roster {
            sides: [side(0), side(1)],
        }
    }

    /// The matchup of pairing (A's member `i`, B's member `j`).
    #[inline]
    pub fn pair(&self, i: usize, j: usize) -> &Matchup {
        &self.pairs[usize::from(self.kind[0][i]) * self.kinds_b + usize::from(self.kind[1][j])]
    }
}

/// The shared policy a cards tactic names.
pub fn policy(t: Target) -> crate::group::Target {
    use crate::group::Target as G;
    match t {
        Target::Weakest => G::LowestHp,
        Target::First => G::First,
    }
}

/// A member's kind as one fighter (count 1, no further members).
fn single(f: &Fighter) -> Fighter {
    Fighter {
        count: 1,
        others: Vec::new(),
        ..f.clone()
    }
}

/// A side's kinds (the fighter, then its further members) and its members' kinds.
fn roster(f: &Fighter) -> Result<(Vec<Fighter>, Vec<u8>), RulesError> {
    let kinds: Vec<Fighter> = std::iter::once(f).chain(&f.others).map(single).collect();
    let mut slots = Vec::new();
    for (k, x) in std::iter::once(f).chain(&f.others).enumerate() {
        slots.extend(std::iter::repeat_n(k as u8, usize::from(x.count.max(1))));
    }
    if slots.len() > MAX_BAND {
        return Err(RulesError::field(
            "count",
            format!(
                "a cards side holds at most {MAX_BAND} fighters (§Multiple Opponents is played pairing by pairing), not {}",
                slots.len()
            ),
        ));
    }
    Ok((kinds, slots))
}

/// Pairs two sides of which at least one holds more than one fighter (`Matchup::pair` sends
/// them here).
pub fn pair(rules: &Cards, a: &Fighter, b: &Fighter) -> Result<Matchup, RulesError> {
    let o = rules.options();
    let (ka, sa) = roster(a)?;
    let (kb, sb) = roster(b)?;
    let mut pairs = Vec::with_capacity(ka.len() * kb.len());
    for x in &ka {
        for y in &kb {
            let mut m = Matchup::pair(rules, x, y)?;
            m.grouped = true;
            m.plain = false;
            pairs.push(m);
        }
    }
    let slots = [sa, sb];
    let kinds = [&ka, &kb];
    let mut plan = Plan {
        n: [slots[0].len(), slots[1].len()],
        kind: [[0; MAX_BAND]; 2],
        kinds_b: kb.len(),
        pairs,
        target: [[crate::group::Target::LowestHp; MAX_BAND]; 2],
        always: [[true; MAX_BAND]; 2],
        swipe: [[SwipePolicy::Never; MAX_BAND]; 2],
        hp: [[0; MAX_BAND]; 2],
        danger: [[0; MAX_BAND]; 2],
        defense: [[0; MAX_BAND]; 2],
    };
    for side in 0..2 {
        for (k, &kind) in slots[side].iter().enumerate() {
            let f = &kinds[side][usize::from(kind)];
            plan.kind[side][k] = kind;
            plan.target[side][k] = policy(f.tactics.target);
            plan.always[side][k] = f.tactics.band_attack == BandAttack::Always;
            let small = kinds[1 - side].iter().any(|foe| {
                super::spec::FoeSize::of(f.size, foe.size) == super::spec::FoeSize::Small
            });
            if small {
                plan.swipe[side][k] = f.tactics.swipe;
            }
            plan.hp[side][k] = f.hp as i16;
            plan.danger[side][k] = i32::from(f.main.md) + i32::from(f.main.edge);
            plan.defense[side][k] = f.finesse + f.armor_mod;
        }
    }
    let mut m = plan.pair(0, 0).clone();
    m.initial = initial(o, &plan, &ka, &kb)?;
    m.group = Some(Box::new(plan));
    Ok(m)
}

/// The group's state before round 1: each side's member 0 in its seat, the others and the
/// pairings (each at its own two fighters' starting range) outside.
fn initial(
    o: &CardsOptions,
    plan: &Plan,
    ka: &[Fighter],
    kb: &[Fighter],
) -> Result<State, RulesError> {
    let kinds = [ka, kb];
    let shared = if o.deck_owner == DeckOwner::Shared {
        Some(super::fighter::deck(
            o,
            ka.iter().chain(kb).all(|f| f.npc),
        )?)
    } else {
        None
    };
    let deck = |f: &Fighter| shared.map_or_else(|| super::fighter::deck(o, f.npc), Ok);
    let p = plan.pair(0, 0);
    let mut s = duel::initial(
        o,
        &p.f,
        [deck(&p.f[0])?, deck(&p.f[1])?],
        p.start_range,
        0,
    );
    for side in 0..2 {
        for k in 1..plan.n[side] {
            let f = &kinds[side][usize::from(plan.kind[side][k])];
            s.g.m[side][k - 1] = duel::Member {
                hp: f.hp as i16,
                kit: duel::KIT_MAIN,
                fresh: o.start == super::options::Start::ShowDown,
                deck: deck(f)?,
            };
        }
        s.g.out[side] = !((1u16 << plan.n[side]) - 1) as u8;
    }
    for i in 0..plan.n[0] {
        for j in 0..plan.n[1] {
            s.g.p[i][j] = duel::Pairing {
                range: plan.pair(i, j).start_range,
                init: 2,
            };
            s.g.u[i][j] = duel::Unusual::default();
        }
    }
    Ok(s)
}

/// Swaps member `k` of `side` with the side's seat (member 0 lives there; a second swap undoes
/// the first). A shared deck is never swapped.
fn swap_member(o: &CardsOptions, s: &mut State, side: usize, k: usize) {
    if k == 0 {
        return;
    }
    let x = &mut s.g.m[side][k - 1];
    std::mem::swap(&mut s.hp[side], &mut x.hp);
    std::mem::swap(&mut s.kit[side], &mut x.kit);
    std::mem::swap(&mut s.fresh[side], &mut x.fresh);
    if o.deck_owner == DeckOwner::PerFighter {
        std::mem::swap(&mut s.decks[side], &mut x.deck);
    }
}

/// Swaps pairing (A's member `i`, B's member `j`) into the duel's seats: the two members and
/// the pairing's range and initiative (a second call undoes the first).
pub fn swap_pair(o: &CardsOptions, s: &mut State, i: usize, j: usize) {
    swap_member(o, s, 0, i);
    swap_member(o, s, 1, j);
    if (i, j) != (0, 0) {
        let p = &mut s.g.p[i][j];
        std::mem::swap(&mut s.range, &mut p.range);
        std::mem::swap(&mut s.init, &mut p.init);
        std::mem::swap(&mut s.u, &mut s.g.u[i][j]);
    }
}

/// Who holds the initiative in pairing (`i`, `j`) (not swapped in).
pub fn pinit(s: &State, i: usize, j: usize) -> u8 {
    if (i, j) == (0, 0) { s.init } else { s.g.p[i][j].init }
}

fn set_pinit(s: &mut State, i: usize, j: usize, v: u8) {
    if (i, j) == (0, 0) {
        s.init = v;
    } else {
        s.g.p[i][j].init = v;
    }
}

fn prange(s: &State, i: usize, j: usize) -> i8 {
    if (i, j) == (0, 0) { s.range } else { s.g.p[i][j].range }
}

/// Member `k`'s hit points on `side` (not swapped in).
pub fn hp(s: &State, side: usize, k: usize) -> i16 {
    if k == 0 { s.hp[side] } else { s.g.m[side][k - 1].hp }
}

fn up(s: &State, side: usize, k: usize) -> bool {
    s.g.out[side] & (1 << k) == 0
}

/// The pairings of members still fighting, A's member first, without allocating.
#[derive(Clone, Copy)]
struct Live {
    ids: [(u8, u8); MAX_BAND * MAX_BAND],
    n: usize,
}

impl Live {
    fn of(g: &Plan, s: &State) -> Live {
        let mut v = Live {
            ids: [(0, 0); MAX_BAND * MAX_BAND],
            n: 0,
        };
        for i in (0..g.n[0]).filter(|&i| up(s, 0, i)) {
            for j in (0..g.n[1]).filter(|&j| up(s, 1, j)) {
                v.ids[v.n] = (i as u8, j as u8);
                v.n += 1;
            }
        }
        v
    }

    fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.ids[..self.n]
            .iter()
            .map(|&(i, j)| (usize::from(i), usize::from(j)))
    }
}

/// The pairing of `side`'s member `k` with foe `f`.
#[inline]
fn of(side: usize, k: usize, f: usize) -> (usize, usize) {
    if side == 0 { (k, f) } else { (f, k) }
}

/// No member keeps a pairing by force ([`one_initiative`]).
pub(super) const NO_KEEP: [[Option<usize>; MAX_BAND]; 2] = [[None; MAX_BAND]; 2];

/// §Multiple Opponents: a member "may never have initiative on more than one opponent at a
/// time". Of the pairings where he holds it, he keeps the one with the foe `keep` names (the
/// one he just seized), else the foe his policy picks, and yields the others — to nobody for
/// the round where that foe already holds the initiative over another.
pub(super) fn one_initiative(g: &Plan, s: &mut State, keep: [[Option<usize>; MAX_BAND]; 2]) {
    for side in 0..2 {
        let foes = g.n[1 - side];
        for k in 0..g.n[side] {
            if !up(s, side, k) {
                continue;
            }
            let held = |s: &State, f: usize| {
                up(s, 1 - side, f) && {
                    let (i, j) = of(side, k, f);
                    pinit(s, i, j) == side as u8
                }
            };
            if (0..foes).filter(|&f| held(s, f)).count() <= 1 {
                continue;
            }
            let keep = keep[side][k].unwrap_or_else(|| {
                crate::group::best(g.target[side][k], foes, |f| {
                    held(s, f).then(|| {
                        let h = hp(s, 1 - side, f);
                        Candidate {
                            hp: i32::from(h),
                            wounds: i32::from(g.hp[1 - side][f] - h),
                            danger: g.danger[1 - side][f],
                            defense: g.defense[1 - side][f],
                        }
                    })
                })
                .unwrap_or(0)
            });
            for f in 0..foes {
                let (i, j) = of(side, k, f);
                if f == keep || pinit(s, i, j) != side as u8 {
                    continue;
                }
                // The foe holds the initiative over another member of this side already?
                let busy = (0..g.n[side]).any(|x| {
                    x != k && up(s, side, x) && {
                        let (i, j) = of(side, x, f);
                        pinit(s, i, j) == (1 - side) as u8
                    }
                });
                set_pinit(s, i, j, if busy { 2 } else { (1 - side) as u8 });
            }
        }
    }
}

/// One round of a group fight (see the module doc).
pub fn round<R: Roller, T: Tally>(
    o: &CardsOptions,
    g: &Plan,
    s: &mut State,
    r: &mut R,
    tally: &mut T,
) -> Step {
    if o.reshuffle == Reshuffle::EveryRound {
        for x in s.g.m.iter_mut().flatten() {
            x.deck.reset();
        }
    }
    // Initiative, pairing by pairing (each member draws his check against each foe).
    let live = Live::of(g, s);
    for (i, j) in live.iter() {
        if pinit(s, i, j) > 1 {
            swap_pair(o, s, i, j);
            s.init = initiative(o, g.pair(i, j), s, r, tally);
            swap_pair(o, s, i, j);
        }
    }
    one_initiative(g, s, NO_KEEP);
    for (i, j) in live.iter() {
        let v = pinit(s, i, j);
        if v < 2 {
            tally.count_side(usize::from(v), duel::C_INITIATIVE, 1);
        }
    }
    if o.reshuffle == Reshuffle::EveryCheck {
        duel::reset_decks(o, s);
        for x in s.g.m.iter_mut().flatten() {
            x.deck.reset();
        }
    }
    // Hands: the smaller side's first (A's on a tie), member by member, each with his own
    // seat swapped in (paired with the foes' member 0).
    let mut rounds = [[SideRound::default(); MAX_BAND]; 2];
    let first = usize::from(g.n[1] < g.n[0]);
    for side in [first, 1 - first] {
        for (k, rs) in rounds[side].iter_mut().enumerate().take(g.n[side]) {
            if !up(s, side, k) {
                continue;
            }
            let (i, j) = of(side, k, 0);
            swap_pair(o, s, i, j);
            draw_hand(o, g.pair(i, j), s, side, rs, r);
            swap_pair(o, s, i, j);
        }
    }
    let end = registers(o, g, s, &mut rounds, r, tally);
    for d in &mut s.decks {
        d.discard_out();
    }
    for x in s.g.m.iter_mut().flatten() {
        x.deck.discard_out();
    }
    end
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

/// Plays pairing (`i`, `j`) (swapped in) through `f` with its matchup and the two members'
/// round records in the duel's seats.
fn with_pairing<X>(
    o: &CardsOptions,
    g: &Plan,
    s: &mut State,
    (i, j): (usize, usize),
    rounds: &mut [[SideRound; MAX_BAND]; 2],
    f: impl FnOnce(&Matchup, &mut State, &mut [SideRound; 2]) -> X,
) -> X {
    swap_pair(o, s, i, j);
    let mut rs = [rounds[0][i], rounds[1][j]];
    let x = f(g.pair(i, j), s, &mut rs);
    rounds[0][i] = rs[0];
    rounds[1][j] = rs[1];
    swap_pair(o, s, i, j);
    x
}

/// A pairing's declaration in a register: the attacker's side, his maneuver and the answer.
type Declared = Option<(usize, Decl, Option<Decl>)>;

/// The round's registers (§Declare Maneuvers, §Resolve Maneuvers, §Multiple Opponents), with
/// each member's round record (`rounds[side][k]`: hand, maneuvers used).
pub(super) fn registers<R: Roller, T: Tally>(
    o: &CardsOptions,
    g: &Plan,
    s: &mut State,
    rounds: &mut [[SideRound; MAX_BAND]; 2],
    r: &mut R,
    tally: &mut T,
) -> Step {
    let mut decl_range = [[0i8; MAX_BAND]; MAX_BAND];
    for (i, row) in decl_range.iter_mut().enumerate().take(g.n[0]) {
        for (j, d) in row.iter_mut().enumerate().take(g.n[1]) {
            *d = prange(s, i, j);
        }
    }
    // A pairing whose attacker stopped (or whose initiative is to be drawn again) is over for
    // the round.
    let mut stopped = [[false; MAX_BAND]; MAX_BAND];
    let mut yielded_once = false;
    for reg in 0..MAX_REGISTERS {
        let live = Live::of(g, s);
        let mut decls: [[Declared; MAX_BAND]; MAX_BAND] = [[None; MAX_BAND]; MAX_BAND];
        // Who declared an attack, and who was attacked, in this register.
        let mut attacking = [[false; MAX_BAND]; 2];
        let mut attacked = [[false; MAX_BAND]; 2];
        // Declarations, each answered at once: first the holders facing several foes who
        // attack `always`, then those facing one, then those facing several who attack only
        // when free ("this is the only way a player can use more than one card in a
        // register": who attacks parries nothing in that register, who was attacked does not
        // attack in it).
        for phase in 0..3 {
            for (i, j) in live.iter() {
                let holder = pinit(s, i, j);
                if holder > 1 || stopped[i][j] {
                    continue;
                }
                let hs = usize::from(holder);
                let (hk, dk) = if hs == 0 { (i, j) } else { (j, i) };
                let several = g.n[1 - hs] > 1;
                let ph = match (several, g.always[hs][hk]) {
                    (false, _) => 1,
                    (true, true) => 0,
                    (true, false) => 2,
                };
                if ph != phase || attacked[hs][hk] {
                    continue;
                }
                let dr = decl_range[i][j];
                let parry = !attacking[1 - hs][dk];
                decls[i][j] = if g.swipe[hs][hk] != SwipePolicy::Never {
                    // «Swipe»: the attack may take in other small foes (out of line).
                    swipe_or_attack(o, g, s, (i, j), hs, rounds, &decl_range, &mut decls, &attacking, &mut attacked, r)
                } else {
                    with_pairing(o, g, s, (i, j), rounds, |m, s, rs| {
                        let att = usize::from(s.init);
                        let a = declare(o, m, s, rs, att, dr, r)?;
                        rs[att].declared += 1;
                        let d = if parry {
                            answer(o, m, s, rs, 1 - att, &a, dr, r)
                        } else {
                            None
                        };
                        Some((att, a, d))
                    })
                };
                if decls[i][j].is_some() {
                    attacking[hs][hk] = true;
                    attacked[1 - hs][dk] = true;
                } else if reg > 0 {
                    stopped[i][j] = true;
                }
            }
        }
        if decls.iter().flatten().all(Option::is_none) {
            if reg > 0 {
                break;
            }
            // §Determine Initiative / §Hesitating: attackers with nothing to declare yield the
            // initiative; if nobody can act after that either, combat ends.
            if yielded_once {
                return Step::Over(Winner::Draw, Ending::Yield);
            }
            yielded_once = true;
            for (i, j) in live.iter() {
                let v = pinit(s, i, j);
                if v < 2 {
                    set_pinit(s, i, j, 1 - v);
                }
            }
            one_initiative(g, s, NO_KEEP);
            continue;
        }
        // Each member's target (the pairing he holds the initiative in) as the register began.
        let mut target = [[None; MAX_BAND]; 2];
        for (i, j) in live.iter() {
            match pinit(s, i, j) {
                0 => target[0][i] = Some(j),
                1 => target[1][j] = Some(i),
                _ => {}
            }
        }
        // Resolution: every pairing of the register, separately.
        let mut last = [Ending::Incapacitated; 2];
        let mut draw = false;
        for (i, j) in live.iter() {
            let Some((att, a, d)) = decls[i][j] else {
                continue;
            };
            let end = with_pairing(o, g, s, (i, j), rounds, |m, s, rs| {
                let t = &mut PairTally { t: tally, k: [i, j] };
                resolve(o, m, s, rs, att, a, d, 0, r, t).1
            });
            match end {
                Some(Step::Over(Winner::A, e)) => {
                    s.g.out[1] |= 1 << j;
                    last[1] = e;
                }
                Some(Step::Over(Winner::B, e)) => {
                    s.g.out[0] |= 1 << i;
                    last[0] = e;
                }
                Some(Step::Over(Winner::Draw, _)) => draw = true,
                _ => {}
            }
            if pinit(s, i, j) > 1 {
                // §Striking Maneuvers Tackle: the initiative is drawn again next round.
                stopped[i][j] = true;
            }
            if range_announced(o, &a, d.as_ref()) {
                decl_range[i][j] = prange(s, i, j);
            }
        }
        if draw {
            return Step::Over(Winner::Draw, Ending::Yield);
        }
        let down = |side: usize| (0..g.n[side]).all(|k| !up(s, side, k));
        match (down(0), down(1)) {
            (true, true) => return Step::Over(Winner::Draw, Ending::Incapacitated),
            (true, false) => return Step::Over(Winner::B, last[0]),
            (false, true) => return Step::Over(Winner::A, last[1]),
            (false, false) => {}
        }
        // A seize: a member keeps the initiative he just took and yields his old target's.
        let mut keep = NO_KEEP;
        for (i, j) in Live::of(g, s).iter() {
            match pinit(s, i, j) {
                0 if target[0][i] != Some(j) => {
                    keep[0][i].get_or_insert(j);
                }
                1 if target[1][j] != Some(i) => {
                    keep[1][j].get_or_insert(i);
                }
                _ => {}
            }
        }
        one_initiative(g, s, keep);
    }
    Step::Continue
}

/// The declaration of a holder who may Swipe («Swipe»), in pairing `(i, j)` where side `hs`
/// holds the initiative, answered at once: his declaration as [`registers`] makes it, and,
/// when it is an Attack at a small foe and his `swipe` tactic takes in other small foes in
/// reach, a Swipe at all of them (less their number), declared in each of their pairings too
/// (`decls`), each of them answering on his own ("Each target gets a normal defense") and
/// counted as attacked in the register. Only the pairings where his foe is small to him come
/// here ([`Plan::swipe`]); the others keep the plain code.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn swipe_or_attack<R: Roller>(
    o: &CardsOptions,
    g: &Plan,
    s: &mut State,
    (i, j): (usize, usize),
    hs: usize,
    rounds: &mut [[SideRound; MAX_BAND]; 2],
    decl_range: &[[i8; MAX_BAND]; MAX_BAND],
    decls: &mut [[Declared; MAX_BAND]; MAX_BAND],
    attacking: &[[bool; MAX_BAND]; 2],
    attacked: &mut [[bool; MAX_BAND]; 2],
    r: &mut R,
) -> Declared {
    let (hk, dk) = if hs == 0 { (i, j) } else { (j, i) };
    let fs = 1 - hs;
    let dr = decl_range[i][j];
    let (att, mut a, sweeps) = with_pairing(o, g, s, (i, j), rounds, |m, s, rs| {
        let att = usize::from(s.init);
        let a = declare(o, m, s, rs, att, dr, r)?;
        rs[att].declared += 1;
        Some((att, a, a.man == Man::Attack && duel::swipes(o, m, s, att, a.arm, dr)))
    })?;
    // The other small foes in reach the tactic takes in: (foe, his pairing).
    let mut extra = [(0usize, (0usize, 0usize)); MAX_BAND];
    let mut n = 0;
    if sweeps {
        for f in 0..g.n[fs] {
            if f == dk || !up(s, fs, f) {
                continue;
            }
            let p = of(hs, hk, f);
            if decls[p.0][p.1].is_some() {
                continue;
            }
            let dr = decl_range[p.0][p.1];
            if !with_pairing(o, g, s, p, rounds, |m, s, _| duel::swipes(o, m, s, att, a.arm, dr)) {
                continue;
            }
            let x = &rounds[fs][f];
            let undefended = x.hand.is_empty() || x.done || attacking[fs][f];
            if g.swipe[hs][hk] == SwipePolicy::Always || undefended {
                extra[n] = (f, p);
                n += 1;
            }
        }
    }
    if n > 0 && g.swipe[hs][hk] == SwipePolicy::Undefended && !o.unopposed_auto_success {
        // The undefended are hit only if the Swipe's total is above 0.
        let k = n as i32 + 1;
        let total = with_pairing(o, g, s, (i, j), rounds, |m, s, rs| {
            let arm = duel::arms(m, s, att)[usize::from(a.arm.min(1))];
            let down = if rs[att].down { -o.take_down_penalty } else { 0 };
            i32::from(a.card.value) + duel::mods(m, att, arm.as_ref(), Man::Swipe) + down - k
        });
        if total < 1 {
            n = 0;
        }
    }
    if n > 0 {
        a.man = Man::Swipe;
        rounds[hs][hk].swipe = n as u8 + 1;
        rounds[hs][hk].swipe_total = None;
    }
    let parry = !attacking[fs][dk];
    let d = with_pairing(o, g, s, (i, j), rounds, |m, s, rs| {
        if parry { answer(o, m, s, rs, 1 - att, &a, dr, r) } else { None }
    });
    for &(f, p) in &extra[..n] {
        let parry = !attacking[fs][f];
        let dr = decl_range[p.0][p.1];
        let d = with_pairing(o, g, s, p, rounds, |m, s, rs| {
            if parry { answer(o, m, s, rs, 1 - att, &a, dr, r) } else { None }
        });
        decls[p.0][p.1] = Some((att, a, d));
        attacked[fs][f] = true;
    }
    Some((att, a, d))
}

/// One pairing's tally: passes everything on, and tells the damage of each hit per member
/// ([`Tally::member_damage`], creatures numbered as in [`Plan::roster`]).
struct PairTally<'t, T> {
    t: &'t mut T,
    /// The pairing's A member and B member.
    k: [usize; 2],
}

impl<T: Tally> Tally for PairTally<'_, T> {
    #[inline]
    fn attack(&mut self, by: usize, hit: bool, damage: i32) {
        self.t.attack(by, hit, damage);
        if hit {
            self.t.member_damage(by, self.k[by], self.k[1 - by], damage);
        }
    }
    #[inline]
    fn damage(&mut self, by: usize, damage: i32) {
        self.t.damage(by, damage);
    }
    #[inline]
    fn count(&mut self, i: usize, n: u32) {
        self.t.count(i, n);
    }
    #[inline]
    fn count_side(&mut self, side: usize, k: usize, n: u32) {
        self.t.count_side(side, k, n);
    }
    #[inline]
    fn member_damage(&mut self, side: usize, by: usize, on: usize, damage: i32) {
        self.t.member_damage(side, by, on, damage);
    }
}
