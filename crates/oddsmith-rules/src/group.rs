//! Group fights, the part every ruleset shares: a side is a list of members (a fighter and a
//! count), each member picks its targets by a policy given as data ([`Target`]), and a state's
//! identical members can be put in one canonical order ([`canonical`]) so that the exact
//! solver sees the symmetry between them. A ruleset keeps only its own rules of who acts when
//! and what an action does; the duel is the one-against-one case (nothing to pick, nothing to
//! sort), so a duel plays exactly as before.
//!
//! What a group fight reports per member lives here too: the [`Roster`] (which creature
//! belongs to which member of its side's list), a creature's [`Fate`], the per-fight
//! [`GroupOutcome`] a [`GroupTally`] fills without allocating, the Monte Carlo fight that
//! fills it ([`fight`]; [`fight_in`] into a tally kept across fights, the engine's loop,
//! which copies no outcome) and the exact figures ([`exact`]). Figures are kept per *member* (an
//! entry of the side's list: a fighter and its count), summed over its copies, so sorting
//! identical creatures ([`canonical`]) changes none of them.
//!
//! **Never:** a rule of one ruleset, a die read other than through the [`Roller`].

use serde::{Deserialize, Serialize};

use crate::outcome::{OutcomeTally, Tally};
use crate::solver::{Step, Transitions};
use crate::{DuelOutcome, DuelState, Ending, Roller, Ruleset, Winner};

/// Whom a member attacks among the foes it may attack (ties go to the lowest HP, then to the
/// first). The default is the competent player's "finish the weakest first".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The foe with the fewest current hit points.
    #[default]
    LowestHp,
    /// The foe with the most current hit points.
    HighestHp,
    /// The foe who has lost the most hit points.
    MostWounded,
    /// The foe who deals the most damage (the ruleset's estimate per round).
    MostDangerous,
    /// The foe with the lowest defense (the ruleset's own measure).
    EasiestToHit,
    /// A foe drawn uniformly among those it may attack (one die read, none if only one).
    Random,
    /// The first foe in the side's list (by member, then by index).
    First,
}

impl Target {
    /// The names as written in scenario files, in declaration order.
    pub const NAMES: &'static [&'static str] = &[
        "lowest_hp",
        "highest_hp",
        "most_wounded",
        "most_dangerous",
        "easiest_to_hit",
        "random",
        "first",
    ];

    /// The policy reads only the foes' states, never their places in the list, so the foes'
    /// identical members may be reordered ([`canonical`]) without changing the fight.
    #[inline]
    pub fn label_free(self) -> bool {
        self != Target::First
    }

    /// Whether the policy reads how many hit points a foe has lost (a ruleset that does not
    /// otherwise track maximum hit points must then track them).
    #[inline]
    pub fn reads_wounds(self) -> bool {
        self == Target::MostWounded
    }
}

/// What a targeting policy reads of one foe (the ruleset fills it in).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Candidate {
    /// Current hit points.
    pub hp: i32,
    /// Hit points lost (maximum − current).
    pub wounds: i32,
    /// The foe's damage per round in the ruleset's own fixed-point estimate.
    pub danger: i32,
    /// The foe's defense in the ruleset's own measure (lower is easier to hit).
    pub defense: i32,
}

/// The foe `policy` picks among `0..n` (`cand(j)` is `None` for a foe that may not be
/// attacked): ties by lowest HP, then by first index. [`Target::Random`] reads one die of
/// as many faces as there are candidates (none with a single candidate), so the exact solver
/// branches over them; no other policy reads a die.
#[inline]
pub fn pick<R: Roller>(
    policy: Target,
    n: usize,
    cand: impl Fn(usize) -> Option<Candidate>,
    r: &mut R,
) -> Option<usize> {
    if policy == Target::Random {
        let k = (0..n).filter(|&j| cand(j).is_some()).count();
        let nth = match k {
            0 => return None,
            1 => 0,
            _ => r.roll(k as u32) as usize - 1,
        };
        return (0..n).filter(|&j| cand(j).is_some()).nth(nth);
    }
    best(policy, n, cand)
}

/// The foe a policy that reads no die picks ([`pick`] without a roller, for a ruleset that
/// offers no `random`): [`Target::Random`] here falls back on the lowest HP.
#[inline]
pub fn best(policy: Target, n: usize, cand: impl Fn(usize) -> Option<Candidate>) -> Option<usize> {
    if policy == Target::LowestHp {
        return lowest_hp(n, |j| cand(j).map(|c| c.hp));
    }
    let mut best: Option<(usize, Candidate)> = None;
    for j in 0..n {
        let Some(c) = cand(j) else { continue };
        let better = match best {
            None => true,
            Some((_, b)) => better(policy, &c, &b),
        };
        if better {
            best = Some((j, c));
        }
    }
    best.map(|(j, _)| j)
}

/// The foe [`Target::LowestHp`] picks among `0..n` (`hp(j)` is `None` for a foe that may not
/// be attacked): the first of the lowest HP. A ruleset may call it with the HP alone, without
/// building each [`Candidate`] (the default policy, on the hot path).
#[inline]
pub fn lowest_hp(n: usize, hp: impl Fn(usize) -> Option<i32>) -> Option<usize> {
    // The least of the keys HP · 2³² + index (the first of the lowest HP), taken without a
    // branch: which foe is the lowest is what the dice made it, so a branch per foe would be
    // mispredicted often.
    let mut best = i64::MAX;
    for j in 0..n.min(u32::MAX as usize) {
        let key = hp(j).map_or(i64::MAX, |h| i64::from(h) << 32 | j as i64);
        best = best.min(key);
    }
    (best != i64::MAX).then_some((best & 0xffff_ffff) as usize)
}

/// Whether `c` is strictly preferred to `b` under `policy` (so ties keep the earlier foe).
#[inline]
fn better(policy: Target, c: &Candidate, b: &Candidate) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let primary = match policy {
        Target::LowestHp | Target::Random => c.hp.cmp(&b.hp).reverse(),
        Target::HighestHp => c.hp.cmp(&b.hp),
        Target::MostWounded => c.wounds.cmp(&b.wounds),
        Target::MostDangerous => c.danger.cmp(&b.danger),
        Target::EasiestToHit => c.defense.cmp(&b.defense).reverse(),
        Target::First => return false,
    };
    match primary {
        Greater => true,
        Less => false,
        Equal => c.hp < b.hp,
    }
}

/// Puts a side's identical members in one order (ascending state order), the canonical form
/// of a group state: two states that differ only by which of two identical members is which
/// become one. Call it only where nothing in the state refers to a member by its place (at a
/// round's start, say) and only when the foes' policies are [`Target::label_free`].
#[inline]
pub fn canonical<T: Ord>(members: &mut [T]) {
    insertion_sort(members, |a, b| a < b);
}

/// Sorts by `less` (stable): a side has at most a handful of members, so insertion, no
/// allocation.
#[inline]
fn insertion_sort<T>(members: &mut [T], less: impl Fn(&T, &T) -> bool) {
    for i in 1..members.len() {
        let mut j = i;
        while j > 0 && less(&members[j], &members[j - 1]) {
            members.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// [`canonical`] by an order key, for members that `key` orders as their own order does
/// (members of equal keys are equal) and that is cheap to read (a field): members already in
/// order (the usual case: the lowest-first policies hurt the first in order) are seen to be
/// in one pass without a branch per pair, so the sort's hard-to-predict branches are taken
/// only where something moved.
#[inline]
pub fn canonical_by<T, K: Ord>(members: &mut [T], key: impl Fn(&T) -> K) {
    let mut unsorted = false;
    for w in members.windows(2) {
        unsorted |= key(&w[1]) < key(&w[0]);
    }
    if unsorted {
        insertion_sort(members, |a, b| key(a) < key(b));
    }
}

/// Most creatures on one side of a group fight (and so most members of a side's list).
pub const MAX_SIDE: usize = 8;

/// One side's creatures: how many, and the member (entry of the side's list, from 0) each
/// belongs to. A ruleset keeps a member's copies next to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideRoster {
    /// Creatures on the side (1 ..= [`MAX_SIDE`]).
    pub creatures: u8,
    /// Members in the side's list (1 ..= `creatures`).
    pub members: u8,
    /// The member of each creature (`member_of[i]` for creature `i < creatures`).
    pub member_of: [u8; MAX_SIDE],
    /// How many creatures each member fields (`counts[j]` for member `j < members`; the
    /// fight's end reads it once per member and fight).
    pub counts: [u8; MAX_SIDE],
}

impl SideRoster {
    /// A side of one member with `count` identical creatures (a band; 1 is a duel's side).
    pub fn band(count: u8) -> SideRoster {
        SideRoster::of(&[count])
    }
    /// A side of members with these counts, in list order (at most [`MAX_SIDE`] creatures in
    /// all; more are cut off).
    pub fn of(counts: &[u8]) -> SideRoster {
        let mut r = SideRoster {
            creatures: 0,
            members: 0,
            member_of: [0; MAX_SIDE],
            counts: [0; MAX_SIDE],
        };
        for (j, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                if usize::from(r.creatures) < MAX_SIDE {
                    r.member_of[usize::from(r.creatures)] = j as u8;
                    r.counts[j] += 1;
                    r.creatures += 1;
                    r.members = j as u8 + 1;
                }
            }
        }
        r
    }
    /// How many creatures member `j` fields.
    #[inline]
    pub fn count(&self, j: usize) -> u8 {
        self.counts.get(j).copied().unwrap_or(0)
    }
}

/// Who is who in a fight: side A's roster and side B's ([`Ruleset::roster`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roster {
    /// Side A, side B.
    pub sides: [SideRoster; 2],
}

impl Roster {
    /// One creature a side: the duel.
    pub fn duel() -> Roster {
        Roster::bands(1, 1)
    }
    /// A band of `a` identical creatures against one of `b`.
    pub fn bands(a: u8, b: u8) -> Roster {
        Roster {
            sides: [SideRoster::band(a), SideRoster::band(b)],
        }
    }
    /// Whether some side fields more than one creature (a group fight, which reports per
    /// member; a duel does not need to).
    pub fn is_group(&self) -> bool {
        self.sides.iter().any(|s| s.creatures > 1)
    }
}

/// A creature as the group report reads it at some point of the fight
/// ([`Ruleset::fate`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fate {
    /// Out of the fight (unable to act: unconscious, dying, dead, captured …); a creature
    /// that left the field alive (a retreat) is not down.
    pub down: bool,
    /// Dead (only where the ruleset tells death from being down; implies `down`).
    pub dead: bool,
}

/// One member's figures in one fight, summed over its copies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemberOutcome {
    /// Copies down at the end.
    pub down: u8,
    /// Copies dead at the end.
    pub dead: u8,
    /// Damage its copies dealt to foes as the side's damage counts it (hits, after armour and
    /// resistance: [`Tally::member_damage`]), so a side's members sum to the side's figure.
    pub dealt: u32,
    /// Damage its copies took from foes.
    pub taken: u32,
    /// Rounds its copies stood, summed: a copy that went down counts the round it went down
    /// in, one standing at the end the fight's length.
    pub rounds: u32,
}

/// One side's figures in one fight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideOutcome {
    /// Creatures down at the end.
    pub down: u8,
    /// Creatures dead at the end.
    pub dead: u8,
    /// Per member (entry `j` of the side's list; `roster.members` of them are used).
    pub members: [MemberOutcome; MAX_SIDE],
}

/// What one group fight adds to its [`DuelOutcome`]: per side, per member. Plain data, no
/// allocation (the per-fight tallies of the group report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupOutcome {
    /// Side A, side B.
    pub sides: [SideOutcome; 2],
    /// Whether damage per member was reported ([`Ruleset::MEMBER_DAMAGE`], or a duel, whose
    /// sides' totals are its members').
    pub damage: bool,
}

/// The Monte Carlo tally of a group fight: the duel's [`OutcomeTally`] plus damage per member
/// ([`Tally::member_damage`]).
#[derive(Clone, Copy, Debug)]
pub struct GroupTally<'a> {
    /// The duel's figures, exactly as the duel's own tally keeps them.
    pub duel: OutcomeTally,
    /// Per member.
    pub group: GroupOutcome,
    roster: &'a Roster,
}

impl<'a> GroupTally<'a> {
    /// An empty tally for a fight of `roster`.
    pub fn new(roster: &'a Roster) -> Self {
        GroupTally {
            duel: OutcomeTally::default(),
            group: GroupOutcome::default(),
            roster,
        }
    }
    /// The fight's outcome, once [`fight_in`] has played it into this tally.
    pub fn outcome(&self) -> (&DuelOutcome, &GroupOutcome) {
        (&self.duel.0, &self.group)
    }
}

impl Tally for GroupTally<'_> {
    #[inline]
    fn attack(&mut self, by: usize, hit: bool, damage: i32) {
        self.duel.attack(by, hit, damage);
    }
    #[inline]
    fn damage(&mut self, by: usize, damage: i32) {
        self.duel.damage(by, damage);
    }
    #[inline]
    fn count(&mut self, i: usize, n: u32) {
        self.duel.count(i, n);
    }
    #[inline]
    fn member_damage(&mut self, side: usize, by: usize, on: usize, damage: i32) {
        let d = damage.max(0) as u32;
        let (mine, theirs) = (&self.roster.sides[side], &self.roster.sides[1 - side]);
        if by < usize::from(mine.creatures) {
            self.group.sides[side].members[usize::from(mine.member_of[by])].dealt += d;
        }
        if on < usize::from(theirs.creatures) {
            self.group.sides[1 - side].members[usize::from(theirs.member_of[on])].taken += d;
        }
    }
}

/// Down copies per member, read from the state ([`Ruleset::fate`]); `None` where the ruleset
/// does not say.
fn downs<G: Ruleset>(
    r: &G,
    m: &G::Matchup,
    s: &G::State,
    roster: &Roster,
) -> Option<[[(u8, u8); MAX_SIDE]; 2]> {
    let mut out = [[(0u8, 0u8); MAX_SIDE]; 2];
    for (side, ros) in roster.sides.iter().enumerate() {
        for i in 0..usize::from(ros.creatures) {
            let f = r.fate(m, s, side, i)?;
            let x = &mut out[side][usize::from(ros.member_of[i])];
            x.0 += u8::from(f.down || f.dead);
            x.1 += u8::from(f.dead);
        }
    }
    Some(out)
}

/// The fates at a duel's end where the ruleset reads none from its state: the loser's
/// creatures down (dead if it ended in a death), a draw other than a timeout or a yield
/// downs both sides.
fn fates_from_ending(roster: &Roster, w: Winner, e: Ending) -> [[(u8, u8); MAX_SIDE]; 2] {
    let mut out = [[(0u8, 0u8); MAX_SIDE]; 2];
    let lost = |side: usize| match w {
        Winner::A => side == 1,
        Winner::B => side == 0,
        Winner::Draw => !matches!(e, Ending::RoundCap | Ending::Yield),
    };
    for (side, ros) in roster.sides.iter().enumerate() {
        if lost(side) && e != Ending::Yield {
            for i in 0..usize::from(ros.creatures) {
                let x = &mut out[side][usize::from(ros.member_of[i])];
                x.0 += 1;
                x.1 += u8::from(e == Ending::Death);
            }
        }
    }
    out
}

/// One Monte Carlo group fight: the very duel of [`crate::solver::duel`] (same dice, same
/// [`DuelOutcome`], bit for bit) with the per-member figures beside it. Reads the creatures'
/// fates each time the round changes and at the end, to date each member's losses: a fate
/// never reverts (nobody gets up again in a fight), so whoever went down since the last read
/// went down in the round the steps since then ran in (the new round where the ruleset
/// counts a round as it starts, [`Ruleset::ROUND_COUNTED_AT_START`]; else the old one).
pub fn fight<G: Ruleset, R: Roller>(
    r: &G,
    m: &G::Matchup,
    roster: &Roster,
    roller: &mut R,
) -> (DuelOutcome, GroupOutcome) {
    let mut t = GroupTally::new(roster);
    fight_in(r, m, roller, &mut t);
    (t.duel.0, t.group)
}

/// [`fight`] played into `t`, a tally of the fight's roster that the caller keeps from one
/// fight to the next (emptied here first), so that no fight copies its outcome: the Monte
/// Carlo engine's loop. Read the outcome with [`GroupTally::outcome`].
#[inline]
pub fn fight_in<G: Ruleset, R: Roller>(
    r: &G,
    m: &G::Matchup,
    roller: &mut R,
    t: &mut GroupTally<'_>,
) {
    let roster = t.roster;
    t.duel = OutcomeTally::default();
    t.group = GroupOutcome::default();
    let mut s = r.start(m);
    let mut seen = [[0u8; MAX_SIDE]; 2];
    let max = r.max_rounds();
    let mut dated = true;
    let mut prev = s.round();
    // The fates read at the last step, which are the fates at the end.
    let mut last = None;
    let (winner, ending) = loop {
        let st = r.step(m, &mut s, roller, t);
        let now = s.round();
        let over = matches!(st, Step::Over(..));
        // The round the steps since the last read played. Fates are read from round 1 on
        // (the HP rolled), not as round 1 begins: a creature down as it is rolled counts
        // round 1 either way, read at round 1's end.
        let played = if G::ROUND_COUNTED_AT_START { now } else { prev };
        if dated && now > 0 && ((now != prev && played > 0) || over) {
            let round = played.clamp(1, max.max(1));
            last = downs(r, m, &s, roster);
            match last {
                Some(d) => {
                    for side in 0..2 {
                        for j in 0..usize::from(roster.sides[side].members) {
                            let now = d[side][j].0;
                            if now > seen[side][j] {
                                t.group.sides[side].members[j].rounds +=
                                    u32::from(now - seen[side][j]) * round;
                                seen[side][j] = now;
                            }
                        }
                    }
                }
                None => dated = false,
            }
        }
        prev = now;
        if let Step::Over(w, e) = st {
            break (w, e);
        }
    };
    let rounds = s.round().min(max);
    let end = match (dated, last) {
        (true, Some(d)) => d,
        _ => {
            let d = fates_from_ending(roster, winner, ending);
            for side in 0..2 {
                for j in 0..MAX_SIDE {
                    t.group.sides[side].members[j].rounds = u32::from(d[side][j].0) * rounds;
                    seen[side][j] = d[side][j].0;
                }
            }
            d
        }
    };
    let duel = &mut t.duel.0;
    duel.winner = winner;
    duel.ending = ending;
    duel.rounds = rounds;
    let g = &mut t.group;
    g.damage = G::MEMBER_DAMAGE;
    for (side, ros) in roster.sides.iter().enumerate() {
        let so = &mut g.sides[side];
        for j in 0..usize::from(ros.members) {
            let mo = &mut so.members[j];
            mo.down = end[side][j].0;
            mo.dead = end[side][j].1;
            so.down += mo.down;
            so.dead += mo.dead;
            // Copies never seen down stood to the end (or to the round they were last up).
            let standing = ros.count(j).saturating_sub(seen[side][j]);
            mo.rounds += u32::from(standing) * rounds;
        }
        if !G::MEMBER_DAMAGE && ros.creatures == 1 {
            // A lone creature's damage is its side's.
            so.members[0].dealt = duel.damage[side];
            so.members[0].taken = duel.damage[1 - side];
        }
    }
    if !G::MEMBER_DAMAGE {
        g.damage = roster.sides.iter().all(|s| s.creatures == 1);
    }
}

/// Exact figures of a group fight: how many of each side are down at the end, and each
/// member's chance of being down (and dead).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupExact {
    /// Side A, side B.
    pub sides: [SideExact; 2],
    /// Probability mass the solver dropped as negligible.
    pub truncated: f64,
}

/// One side's exact figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideExact {
    /// P(exactly k creatures down at the end), k = 0 ..= creatures.
    pub down: Vec<f64>,
    /// P(exactly k creatures dead at the end).
    pub dead: Vec<f64>,
    /// Per member: P(a copy is down at the end) and P(dead) (the mean over its copies).
    pub members: Vec<(f64, f64)>,
}

/// Solves a group fight for its per-member figures with the shared solver's forward
/// iteration ([`crate::solver::iterate`], the ruleset's own transition mode) from
/// [`Ruleset::start`]; `None` where the solver gives up or the ruleset has no exact solution.
/// The fates are read from each end state ([`Ruleset::fate`], else the ending).
pub fn exact<G: Ruleset>(r: &G, m: &G::Matchup, roster: &Roster) -> Option<GroupExact> {
    if r.no_exact_reason().is_some() {
        return None;
    }
    let mut sides: [SideExact; 2] = std::array::from_fn(|side| {
        let ros = &roster.sides[side];
        SideExact {
            down: vec![0.0; usize::from(ros.creatures) + 1],
            dead: vec![0.0; usize::from(ros.creatures) + 1],
            members: vec![(0.0, 0.0); usize::from(ros.members)],
        }
    });
    let truncated = crate::solver::iterate(r, m, r.start(m), Transitions::of::<G>(), |s, w, p| {
        // The ending is not passed on: a ruleset without fates is read as a win by K.O.
        let d = downs(r, m, s, roster)
            .unwrap_or_else(|| fates_from_ending(roster, w, Ending::Incapacitated));
        for (side, ros) in roster.sides.iter().enumerate() {
            let (mut down, mut dead) = (0usize, 0usize);
            for (j, &(n, k)) in d[side][..usize::from(ros.members)].iter().enumerate() {
                let c = f64::from(ros.count(j).max(1));
                sides[side].members[j].0 += p * f64::from(n) / c;
                sides[side].members[j].1 += p * f64::from(k) / c;
                down += usize::from(n);
                dead += usize::from(k);
            }
            sides[side].down[down] += p;
            sides[side].dead[dead] += p;
        }
    })?;
    Some(GroupExact { sides, truncated })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roller::TapeRoller;

    fn c(hp: i32, wounds: i32, danger: i32, defense: i32) -> Option<Candidate> {
        Some(Candidate {
            hp,
            wounds,
            danger,
            defense,
        })
    }

    /// Four foes built so that every policy picks a different one.
    fn foes(j: usize) -> Option<Candidate> {
        [
            None,             // 0: may not be attacked
            c(5, 1, 10, 15),  // 1: first, lowest HP
            c(12, 0, 30, 14), // 2: highest HP, most dangerous
            c(8, 9, 20, 11),  // 3: most wounded, easiest to hit
            c(5, 2, 10, 15),  // 4: ties 1 on HP, later
        ][j]
    }

    #[test]
    fn each_policy_picks_its_own_foe() {
        let mut r = TapeRoller::new(&[3]);
        let got = |p| pick(p, 5, foes, &mut TapeRoller::new(&[])).unwrap();
        assert_eq!(got(Target::LowestHp), 1);
        assert_eq!(got(Target::HighestHp), 2);
        assert_eq!(got(Target::MostWounded), 3);
        assert_eq!(got(Target::MostDangerous), 2);
        assert_eq!(got(Target::EasiestToHit), 3);
        assert_eq!(got(Target::First), 1);
        // Random: the third of the four candidates (1, 2, 3, 4).
        assert_eq!(pick(Target::Random, 5, foes, &mut r), Some(3));
    }

    #[test]
    fn no_candidate_picks_nobody_and_one_candidate_reads_no_die() {
        let mut r = TapeRoller::new(&[]);
        for p in [Target::LowestHp, Target::Random, Target::First] {
            assert_eq!(pick(p, 3, |_| None, &mut r), None);
        }
        let one = |j: usize| if j == 1 { c(4, 0, 0, 10) } else { None };
        assert_eq!(pick(Target::Random, 3, one, &mut r), Some(1));
        assert_eq!(r.wanted, None);
    }

    #[test]
    fn names_are_the_serde_names() {
        for (i, name) in Target::NAMES.iter().enumerate() {
            let t: Target = serde::Deserialize::deserialize(serde::de::value::StrDeserializer::<
                serde::de::value::Error,
            >::new(name))
            .unwrap();
            assert_eq!(Target::NAMES[t as usize], Target::NAMES[i]);
        }
    }

    #[test]
    fn canonical_sorts_identical_members() {
        let mut a = [3, 1, 2, 1];
        canonical(&mut a);
        assert_eq!(a, [1, 1, 2, 3]);
        let mut b = [(2, 'x')];
        canonical(&mut b);
        assert_eq!(b, [(2, 'x')]);
    }

    #[test]
    fn canonical_by_a_key_is_canonical() {
        // Members in order, reversed, shuffled, with ties, and more than a side holds.
        let cases: [&[i32]; 6] = [
            &[],
            &[7],
            &[1, 2, 3, 4, 5],
            &[5, 4, 3, 2, 1],
            &[3, 1, 3, 0, 1],
            &[9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
        ];
        for case in cases {
            let (mut a, mut b) = (case.to_vec(), case.to_vec());
            canonical(&mut a);
            canonical_by(&mut b, |&x| x);
            assert_eq!(a, b, "{case:?}");
        }
        // The key alone decides: members are moved with their keys.
        let mut c = [(3, 'c'), (1, 'a'), (2, 'b')];
        canonical_by(&mut c, |x| x.0);
        assert_eq!(c, [(1, 'a'), (2, 'b'), (3, 'c')]);
    }
}
