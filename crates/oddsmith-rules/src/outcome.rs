//! What one duel produces, and what an exact solver produces.

use serde::Serialize;

/// Upper bound on a ruleset's extra per-duel counters.
pub const MAX_COUNTERS: usize = 8;

/// One of the two sides of a duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Side {
    /// The first fighter of the matchup.
    A = 0,
    /// The second fighter of the matchup.
    B = 1,
}

impl Side {
    /// The other side.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
    /// 0 for A, 1 for B.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Who won a duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Winner {
    /// Side A won.
    A,
    /// Side B won.
    B,
    /// Nobody won (round cap, or both out at once).
    Draw,
}

impl Winner {
    /// The winner as a side, `None` for a draw.
    pub fn side(self) -> Option<Side> {
        match self {
            Winner::A => Some(Side::A),
            Winner::B => Some(Side::B),
            Winner::Draw => None,
        }
    }
    /// The winner named by side.
    pub fn of(side: Side) -> Winner {
        match side {
            Side::A => Winner::A,
            Side::B => Winner::B,
        }
    }
}

/// How a duel ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Ending {
    /// The loser was taken out of the fight alive (e.g. a Critical wound).
    Incapacitated = 0,
    /// The loser died.
    Death = 1,
    /// The loser gave up.
    Yield = 2,
    /// The round cap was reached: a draw marked "timeout".
    RoundCap = 3,
    /// The end condition was a lesser one (first wound, first Severe wound).
    Wounded = 4,
    /// The loser collapsed from exhaustion.
    Exhaustion = 5,
}

impl Ending {
    /// Every ending, in index order.
    pub const ALL: [Ending; 6] = [
        Ending::Incapacitated,
        Ending::Death,
        Ending::Yield,
        Ending::RoundCap,
        Ending::Wounded,
        Ending::Exhaustion,
    ];
    /// Stable lower-case name used in JSON and tables.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Incapacitated => "incapacitated",
            Ending::Death => "death",
            Ending::Yield => "yield",
            Ending::RoundCap => "timeout",
            Ending::Wounded => "wounded",
            Ending::Exhaustion => "exhaustion",
        }
    }
}

/// Everything the engine learns from one duel. Plain data, no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelOutcome {
    /// Who won.
    pub winner: Winner,
    /// How it ended.
    pub ending: Ending,
    /// Rounds fought (the round in which the duel ended).
    pub rounds: u32,
    /// Damage points dealt by A and by B (after armour, hits only, clipped at 0).
    pub damage: [u32; 2],
    /// Hits landed by A and by B.
    pub hits: [u32; 2],
    /// Attacks made by A and by B.
    pub attacks: [u32; 2],
    /// The ruleset's extra counters (names from `Ruleset::counter_names`).
    pub counters: [u32; MAX_COUNTERS],
}

/// Where a batch of duels ([`Ruleset::duels`](crate::Ruleset::duels)) hands each outcome: the
/// Monte Carlo engine's accumulators, or any closure taking `&DuelOutcome` (with the type
/// written, `|o: &DuelOutcome| …`: through the trait it is not inferred).
///
/// A trait rather than a closure so that the engine's accumulator is always inlined into the
/// ruleset's duel loop: a closure is inlined at the compiler's discretion, and in some builds
/// it was not (a call and an outcome written to memory a duel).
pub trait Record {
    /// Takes the outcome of one duel.
    fn record(&mut self, o: &DuelOutcome);
}

impl<F: FnMut(&DuelOutcome)> Record for F {
    #[inline(always)]
    fn record(&mut self, o: &DuelOutcome) {
        self(o)
    }
}

impl DuelOutcome {
    /// An outcome with no events yet, for rulesets to fill in.
    pub fn empty() -> Self {
        DuelOutcome {
            winner: Winner::Draw,
            ending: Ending::RoundCap,
            rounds: 0,
            damage: [0; 2],
            hits: [0; 2],
            attacks: [0; 2],
            counters: [0; MAX_COUNTERS],
        }
    }
}

/// The exact solution of a duel (no sampling).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExactDuel {
    /// P(A wins).
    pub p_a_win: f64,
    /// P(B wins).
    pub p_b_win: f64,
    /// P(draw), including timeouts at the round cap.
    pub p_draw: f64,
    /// Expected number of rounds.
    pub mean_rounds: f64,
    /// P(the duel ends in round r), index r (index 0 unused).
    pub rounds_pmf: Vec<f64>,
    /// Probability mass the solver dropped as negligible (an upper bound on its error).
    pub truncated: f64,
}

impl ExactDuel {
    /// The solution from P(A wins), P(B wins) and P(draw) (`p`), the probability of each round
    /// being the last (`rounds_pmf`, index r) and the mass dropped; the mean length follows
    /// from the pmf.
    pub fn from_pmf(p: [f64; 3], rounds_pmf: Vec<f64>, truncated: f64) -> ExactDuel {
        let mean_rounds = rounds_pmf
            .iter()
            .enumerate()
            .map(|(r, q)| r as f64 * q)
            .sum();
        ExactDuel {
            p_a_win: p[0],
            p_b_win: p[1],
            p_draw: p[2],
            mean_rounds,
            rounds_pmf,
            truncated,
        }
    }
}

/// What a duel's `step` reports besides its state: attacks, damage and the ruleset's counters.
///
/// The Monte Carlo duel passes an [`OutcomeTally`], which fills a [`DuelOutcome`]; the exact
/// solver passes [`NoTally`]. Sides are indices, 0 = A and 1 = B.
pub trait Tally {
    /// Whether the tally keeps what it is told (`false` for [`NoTally`]): a step whose dice
    /// matter only through what it reports and through the state may, with a tally that
    /// keeps nothing, let the exact solver branch on what changes the state alone.
    const RECORDS: bool = true;
    /// An attack roll by side `by`: whether it hit and the damage it dealt (a negative
    /// damage counts as 0).
    fn attack(&mut self, by: usize, hit: bool, damage: i32);
    /// Damage dealt by side `by` outside an attack roll (a blast, say), counted like an
    /// attack's.
    #[inline]
    fn damage(&mut self, _by: usize, _damage: i32) {}
    /// Adds `n` to the ruleset's counter `i` (an index into `Ruleset::counter_names`).
    #[inline]
    fn count(&mut self, _i: usize, _n: u32) {}
    /// Adds `n` to side `side`'s counter `k`, for counters listed per side (A's
    /// [`PER_SIDE`] first, then B's): counter `side * PER_SIDE + k`.
    #[inline]
    fn count_side(&mut self, side: usize, k: usize, n: u32) {
        self.count(side * PER_SIDE + k, n);
    }
    /// Group fights: creature `by` of side `side` dealt `damage` to creature `on` of the other
    /// side (a negative damage counts as 0), beside the side's own [`Tally::attack`] or
    /// [`Tally::damage`]. Creatures are numbered as in the ruleset's
    /// [`Roster`](crate::group::Roster). Only the group report's tally
    /// ([`GroupTally`](crate::group::GroupTally)) keeps it; a ruleset that reports it sets
    /// [`Ruleset::MEMBER_DAMAGE`](crate::Ruleset::MEMBER_DAMAGE).
    #[inline]
    fn member_damage(&mut self, _side: usize, _by: usize, _on: usize, _damage: i32) {}
}

/// Counters per side when a ruleset lists them per side ([`Tally::count_side`]).
pub const PER_SIDE: usize = MAX_COUNTERS / 2;

/// The names of a ruleset's per-side counters in the layout [`Tally::count_side`] writes:
/// `per_side_counters!["hits", …]` is `&["a_hits", …, "b_hits", …]` (at most [`PER_SIDE`]
/// names).
#[macro_export]
#[doc(hidden)]
macro_rules! per_side_counters {
    ($($name:literal),+ $(,)?) => {
        &[$(concat!("a_", $name),)+ $(concat!("b_", $name),)+]
    };
}

/// A tally that records nothing (the exact solver's).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTally;

impl Tally for NoTally {
    const RECORDS: bool = false;
    #[inline]
    fn attack(&mut self, _: usize, _: bool, _: i32) {}
}

/// The Monte Carlo duel's tally: fills a [`DuelOutcome`] (the winner, ending and rounds are
/// set by the caller when the duel ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutcomeTally(pub DuelOutcome);

impl Default for OutcomeTally {
    fn default() -> Self {
        OutcomeTally(DuelOutcome::empty())
    }
}

impl Tally for OutcomeTally {
    #[inline]
    fn attack(&mut self, by: usize, hit: bool, damage: i32) {
        self.0.attacks[by] += 1;
        if hit {
            self.0.hits[by] += 1;
            self.0.damage[by] += damage.max(0) as u32;
        }
    }
    #[inline]
    fn damage(&mut self, by: usize, damage: i32) {
        self.0.damage[by] += damage.max(0) as u32;
    }
    #[inline]
    fn count(&mut self, i: usize, n: u32) {
        self.0.counters[i] += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_tally_counts_hits_damage_and_counters() {
        let mut t = OutcomeTally::default();
        t.attack(0, true, 5);
        t.attack(0, false, 0);
        t.attack(1, true, -3);
        t.damage(1, 4);
        t.count(6, 2);
        assert_eq!(t.0.attacks, [2, 1]);
        assert_eq!(t.0.hits, [1, 1]);
        assert_eq!(t.0.damage, [5, 4]);
        assert_eq!(t.0.counters[6], 2);
    }
}
