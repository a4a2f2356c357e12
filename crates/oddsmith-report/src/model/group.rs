//! What a group fight reports (the `group` object of a matchup in `--json`): per side, the
//! distribution of how many are down at the end, the "deadliness" lines and a `members` list,
//! each member with its figures; Monte Carlo with 95 % intervals, exact values where the
//! solver answers.

use oddsmith_rules::group::GroupExact;
use oddsmith_sim::DuelStats;
use oddsmith_stats::wilson95;
use serde::Serialize;

/// A figure with its 95 % interval and, where the solver answers, its exact value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The Monte Carlo estimate.
    pub p: f64,
    /// Its 95 % interval.
    pub ci95: [f64; 2],
    /// The exact value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<f64>,
}

impl Estimate {
    /// `k` of `n` (Wilson interval).
    fn count(k: u64, n: u64, exact: Option<f64>) -> Estimate {
        let (lo, hi) = wilson95(k, n);
        Estimate {
            p: k as f64 / n.max(1) as f64,
            ci95: [lo, hi],
            exact,
        }
    }
    /// A mean share `p` over `n` fights of a figure in [0, 1] per fight: the Wilson interval
    /// of `p·n` successes in `n` trials, which holds (conservatively) since a share's
    /// variance is at most a single draw's.
    fn share(p: f64, n: u64, exact: Option<f64>) -> Estimate {
        let k = (p * n as f64).round() as u64;
        let (lo, hi) = wilson95(k.min(n), n);
        Estimate {
            p,
            ci95: [lo.min(p), hi.max(p)],
            exact,
        }
    }
}

/// One member of a side (an entry of its list: a fighter and its count).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemberDoc {
    /// The fighter's name.
    pub fighter: String,
    /// How many copies.
    pub count: u8,
    /// P(a copy is down at the end): the mean over its copies.
    pub p_down: Estimate,
    /// P(a copy is dead at the end) (where the ruleset tells death apart; else as `p_down`
    /// only where the fight was to the death).
    pub p_dead: Estimate,
    /// P(at least one copy is down at the end).
    pub p_any_down: Estimate,
    /// Mean damage dealt per copy per fight (hits, as the side's damage counts them);
    /// `None` where the ruleset does not report damage per member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage_dealt: Option<f64>,
    /// Mean damage taken per copy per fight.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage_taken: Option<f64>,
    /// Mean rounds a copy stood (the round it went down in, or the fight's length).
    pub rounds_survived: f64,
}

/// One side of a group fight.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupSideDoc {
    /// The side's name (as in the matchup).
    pub name: String,
    /// Creatures on the side.
    pub creatures: u8,
    /// P(exactly k down at the end), k = 0 ..= creatures.
    pub down: Vec<Estimate>,
    /// P(exactly k dead at the end).
    pub dead: Vec<Estimate>,
    /// P(no one on the side down).
    pub p_none_down: Estimate,
    /// P(at least one down).
    pub p_any_down: Estimate,
    /// P(all down).
    pub p_all_down: Estimate,
    /// P(at least one dead).
    pub p_any_dead: Estimate,
    /// Per member, in list order.
    pub members: Vec<MemberDoc>,
}

/// A group fight's per-side and per-member figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupDoc {
    /// Side A, side B.
    pub sides: [GroupSideDoc; 2],
}

/// A side's member names from its label: `goblin×2 + shaman` → `goblin`, `shaman` (the
/// label the scenario gives a side of members; a single name is one member).
pub fn member_names(label: &str, members: usize) -> Vec<String> {
    let names: Vec<String> = label
        .split(" + ")
        .map(|m| match m.rsplit_once('×') {
            Some((name, n)) if n.chars().all(|c| c.is_ascii_digit()) => name.to_string(),
            _ => m.to_string(),
        })
        .collect();
    if names.len() == members {
        names
    } else {
        (1..=members).map(|j| format!("{label} #{j}")).collect()
    }
}

/// The group figures of a matchup's run (`None` for a duel), with the exact ones where
/// known; `a` and `b` are the sides' names.
pub fn group_doc(s: &DuelStats, exact: Option<&GroupExact>, a: &str, b: &str) -> Option<GroupDoc> {
    let g = s.group.as_ref()?;
    let n = g.trials();
    let side = |i: usize, name: &str| {
        let st = &g.sides[i];
        let x = exact.map(|e| &e.sides[i]);
        let c = usize::from(st.creatures);
        let dist = |h: &[u64], e: Option<&Vec<f64>>| {
            (0..=c)
                .map(|k| Estimate::count(h[k], n, e.and_then(|v| v.get(k).copied())))
                .collect::<Vec<_>>()
        };
        let ex = |f: &dyn Fn(&oddsmith_rules::group::SideExact) -> f64| x.map(f);
        let names = member_names(name, st.counts.len());
        let members = st
            .counts
            .iter()
            .enumerate()
            .map(|(j, &count)| {
                let m = &st.members[j];
                let per = (n.max(1) * u64::from(count.max(1))) as f64;
                MemberDoc {
                    fighter: names[j].clone(),
                    count,
                    p_down: Estimate::share(m.down as f64 / per, n, x.map(|e| e.members[j].0)),
                    p_dead: Estimate::share(m.dead as f64 / per, n, x.map(|e| e.members[j].1)),
                    p_any_down: Estimate::count(m.any_down, n, None),
                    damage_dealt: g.damage.then(|| m.dealt as f64 / per),
                    damage_taken: g.damage.then(|| m.taken as f64 / per),
                    rounds_survived: m.rounds as f64 / per,
                }
            })
            .collect();
        let none = st.down[0];
        let all = st.down[c];
        let any_dead = n - st.dead[0];
        GroupSideDoc {
            name: name.to_string(),
            creatures: st.creatures,
            down: dist(&st.down, x.map(|e| &e.down)),
            dead: dist(&st.dead, x.map(|e| &e.dead)),
            p_none_down: Estimate::count(none, n, ex(&|e| e.down[0])),
            p_any_down: Estimate::count(n - none, n, ex(&|e| 1.0 - e.down[0])),
            p_all_down: Estimate::count(all, n, ex(&|e| e.down[c])),
            p_any_dead: Estimate::count(any_dead, n, ex(&|e| 1.0 - e.dead[0])),
            members,
        }
    };
    Some(GroupDoc {
        sides: [side(0, a), side(1, b)],
    })
}
