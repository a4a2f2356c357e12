//! Mergeable per-run accumulators. Memory does not grow with the number of trials.

use oddsmith_rules::group::{GroupOutcome, MAX_SIDE, Roster};
use oddsmith_rules::{DuelOutcome, Ending, MAX_COUNTERS, Record, Winner};
use oddsmith_stats::{IntHistogram, OutcomeCounts, Proportion};
use serde::{Deserialize, Serialize};

/// Everything gathered over many duels of one matchup.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DuelStats {
    /// Wins and draws.
    pub outcomes: OutcomeCounts,
    /// Duels by how they ended, indexed like `Ending::ALL`.
    pub endings: [u64; 6],
    /// Wins of A and of B by ending, indexed like `Ending::ALL`.
    pub wins_by_ending: [[u64; 6]; 2],
    /// Fight length in rounds.
    pub rounds: IntHistogram,
    /// Damage points dealt per duel by A and by B.
    pub damage: [IntHistogram; 2],
    /// Hits landed by A and by B.
    pub hits: [u64; 2],
    /// Attacks made by A and by B.
    pub attacks: [u64; 2],
    /// Sums of the ruleset's counters.
    pub counters: [u64; MAX_COUNTERS],
    /// Group fights only (some side fields more than one creature): per side and per member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<Box<GroupStats>>,
}

/// Everything gathered per side and per member over many group fights
/// ([`oddsmith_rules::group::fight`]). Fixed-size counts: adding a fight allocates nothing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GroupStats {
    /// Side A, side B.
    pub sides: [SideStats; 2],
    /// Whether the ruleset reports damage per member (else `dealt`/`taken` stay 0).
    pub damage: bool,
}

/// One side's counts over many fights.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideStats {
    /// Creatures on the side.
    pub creatures: u8,
    /// Each member's number of copies (`members.len()` members; at most [`MAX_SIDE`]).
    pub counts: Vec<u8>,
    /// Fights by how many creatures of the side were down at the end (index = how many).
    pub down: [u64; MAX_SIDE + 1],
    /// Fights by how many creatures of the side were dead at the end.
    pub dead: [u64; MAX_SIDE + 1],
    /// Per member, in list order (the first `counts.len()` are used).
    pub members: [MemberStats; MAX_SIDE],
}

/// One member's sums over many fights (over its copies too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberStats {
    /// Copies down at the end, summed over fights.
    pub down: u64,
    /// Copies dead at the end.
    pub dead: u64,
    /// Fights in which at least one copy was down at the end.
    pub any_down: u64,
    /// Damage its copies dealt.
    pub dealt: u64,
    /// Damage its copies took.
    pub taken: u64,
    /// Rounds its copies stood.
    pub rounds: u64,
}

impl GroupStats {
    /// Empty counts for fights of `roster`.
    pub fn new(roster: &Roster) -> GroupStats {
        GroupStats {
            sides: std::array::from_fn(|i| {
                let r = &roster.sides[i];
                SideStats {
                    creatures: r.creatures,
                    counts: (0..usize::from(r.members)).map(|j| r.count(j)).collect(),
                    ..SideStats::default()
                }
            }),
            damage: false,
        }
    }

    /// Adds one fight.
    #[inline]
    pub fn record(&mut self, g: &GroupOutcome) {
        self.damage = g.damage;
        for (st, so) in self.sides.iter_mut().zip(&g.sides) {
            st.down[usize::from(so.down).min(MAX_SIDE)] += 1;
            st.dead[usize::from(so.dead).min(MAX_SIDE)] += 1;
            for (m, mo) in st.members.iter_mut().zip(&so.members) {
                m.down += u64::from(mo.down);
                m.dead += u64::from(mo.dead);
                m.any_down += u64::from(mo.down > 0);
                m.dealt += u64::from(mo.dealt);
                m.taken += u64::from(mo.taken);
                m.rounds += u64::from(mo.rounds);
            }
        }
    }

    /// Adds another accumulator.
    pub fn merge(&mut self, o: &GroupStats) {
        self.damage |= o.damage;
        for (a, b) in self.sides.iter_mut().zip(&o.sides) {
            if a.counts.is_empty() {
                a.creatures = b.creatures;
                a.counts.clone_from(&b.counts);
            }
            for k in 0..=MAX_SIDE {
                a.down[k] = a.down[k].saturating_add(b.down[k]);
                a.dead[k] = a.dead[k].saturating_add(b.dead[k]);
            }
            for (x, y) in a.members.iter_mut().zip(&b.members) {
                x.down = x.down.saturating_add(y.down);
                x.dead = x.dead.saturating_add(y.dead);
                x.any_down = x.any_down.saturating_add(y.any_down);
                x.dealt = x.dealt.saturating_add(y.dealt);
                x.taken = x.taken.saturating_add(y.taken);
                x.rounds = x.rounds.saturating_add(y.rounds);
            }
        }
    }

    /// Fights counted.
    pub fn trials(&self) -> u64 {
        self.sides[0].down.iter().sum()
    }
}

impl DuelStats {
    /// Adds one duel.
    #[inline(always)]
    pub fn record(&mut self, d: &DuelOutcome) {
        let e = d.ending as usize;
        // Without a branch on the winner (a coin flip in an even matchup, so a branch would
        // be mispredicted about every other duel): each count adds 0 or 1.
        let w = d.winner;
        let o = &mut self.outcomes;
        o.a_wins += u64::from(w == Winner::A);
        o.b_wins += u64::from(w == Winner::B);
        o.draws += u64::from(w == Winner::Draw);
        self.wins_by_ending[usize::from(w == Winner::B)][e] += u64::from(w != Winner::Draw);
        self.endings[e] += 1;
        self.rounds.record(u64::from(d.rounds));
        for i in 0..2 {
            self.damage[i].record(u64::from(d.damage[i]));
            self.hits[i] += u64::from(d.hits[i]);
            self.attacks[i] += u64::from(d.attacks[i]);
        }
        for (c, v) in self.counters.iter_mut().zip(d.counters) {
            *c += u64::from(v);
        }
    }

    /// Adds another accumulator (chunks are merged in chunk order).
    pub fn merge(&mut self, o: &DuelStats) {
        self.outcomes.merge(&o.outcomes);
        for i in 0..6 {
            self.endings[i] += o.endings[i];
            self.wins_by_ending[0][i] += o.wins_by_ending[0][i];
            self.wins_by_ending[1][i] += o.wins_by_ending[1][i];
        }
        self.rounds.merge(&o.rounds);
        for i in 0..2 {
            self.damage[i].merge(&o.damage[i]);
            self.hits[i] += o.hits[i];
            self.attacks[i] += o.attacks[i];
        }
        for (c, v) in self.counters.iter_mut().zip(o.counters) {
            *c += v;
        }
        match (&mut self.group, &o.group) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.group = Some(b.clone()),
            _ => {}
        }
    }

    /// Adds one group fight: the duel's figures and the group's.
    #[inline]
    pub fn record_group(&mut self, d: &DuelOutcome, g: &GroupOutcome) {
        self.record(d);
        if let Some(gs) = &mut self.group {
            gs.record(g);
        }
    }

    /// Number of duels.
    pub fn trials(&self) -> u64 {
        self.outcomes.total()
    }

    /// Duels that ended in `e`.
    pub fn ending(&self, e: Ending) -> u64 {
        self.endings[e as usize]
    }
}

/// The engine's accumulator as the place a ruleset's batch of duels hands its outcomes.
impl Record for &mut DuelStats {
    #[inline(always)]
    fn record(&mut self, d: &DuelOutcome) {
        DuelStats::record(self, d)
    }
}

/// Everything gathered over many rolls of one check.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CheckStats {
    /// Successes out of trials.
    pub success: Proportion,
    /// Result values, shifted by `offset` (value − offset ≥ 0).
    pub values: IntHistogram,
    /// The smallest possible result.
    pub offset: i64,
}

impl CheckStats {
    /// An empty accumulator for results ≥ `offset`.
    pub fn new(offset: i64) -> Self {
        CheckStats {
            offset,
            ..CheckStats::default()
        }
    }

    /// Adds one result.
    #[inline]
    pub fn record(&mut self, value: i64, success: bool) {
        self.success.record(success);
        self.values.record((value - self.offset).max(0) as u64);
    }

    /// Adds another accumulator (an empty one, e.g. a shard's share of no chunk, leaves the
    /// offset as it is).
    pub fn merge(&mut self, o: &CheckStats) {
        if o.success.trials > 0 {
            self.offset = o.offset;
        }
        self.success.merge(&o.success);
        self.values.merge(&o.values);
    }

    /// Observed frequency of result `v`.
    pub fn frequency(&self, v: i64) -> f64 {
        let n = self.values.total();
        if n == 0 || v < self.offset {
            return 0.0;
        }
        self.values.count((v - self.offset) as u64) as f64 / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(winner: Winner, ending: Ending, rounds: u32) -> DuelOutcome {
        DuelOutcome {
            winner,
            ending,
            rounds,
            damage: [3, 1],
            hits: [2, 1],
            attacks: [4, 3],
            ..DuelOutcome::empty()
        }
    }

    #[test]
    fn record_counts_each_winner_and_ending_once() {
        let mut s = DuelStats::default();
        s.record(&outcome(Winner::A, Ending::Death, 2));
        s.record(&outcome(Winner::B, Ending::Incapacitated, 3));
        s.record(&outcome(Winner::B, Ending::Incapacitated, 1));
        s.record(&outcome(Winner::Draw, Ending::RoundCap, 9));
        assert_eq!(
            (s.outcomes.a_wins, s.outcomes.b_wins, s.outcomes.draws),
            (1, 2, 1)
        );
        assert_eq!(s.endings, [2, 1, 0, 1, 0, 0]);
        assert_eq!(s.wins_by_ending, [[0, 1, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0]]);
        assert_eq!(s.rounds.total(), 4);
        assert_eq!(s.rounds.count(9), 1);
        assert_eq!((s.hits, s.attacks), ([8, 4], [16, 12]));
        assert_eq!(s.damage[0].count(3), 4);
    }
}
