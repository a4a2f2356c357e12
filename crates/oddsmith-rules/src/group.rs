//! Group fights, the part every ruleset shares: a side is a list of members (a fighter and a
//! count), each member picks its targets by a policy given as data ([`Target`]), and a state's
//! identical members can be put in one canonical order ([`canonical`]) so that the exact
//! solver sees the symmetry between them. A ruleset keeps only its own rules of who acts when
//! and what an action does; the duel is the one-against-one case (nothing to pick, nothing to
//! sort), so a duel plays exactly as before.
//!
//! **Never:** a rule of one ruleset, a die read other than through the [`Roller`].

use serde::{Deserialize, Serialize};

use crate::Roller;

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
    // A side has at most a handful of members: insertion sort, no allocation.
    for i in 1..members.len() {
        let mut j = i;
        while j > 0 && members[j] < members[j - 1] {
            members.swap(j, j - 1);
            j -= 1;
        }
    }
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
}
