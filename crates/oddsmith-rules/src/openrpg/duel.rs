//! The Open RPG duel as a state machine: a round start (initiative is rolled once, before round
//! 1, G12), then each fighter's turn in order. A turn is skipped when the fighter cannot act yet
//! (ambush), lost (after a full dodge) or a recovery round (slow weapon, G15); otherwise it is
//! one attack sequence, drawn from the matchup's exact table of turn outcomes.
//!
//! The same [`advance`] serves the Monte Carlo duel (outcomes sampled through a [`Roller`]) and
//! the exact solvers ([`solve`], state by state, and [`super::grid::solve`], a whole health grid
//! at a time: every outcome of every step enumerated with its probability).

use super::OpenRpg;
use super::attack::TurnOutcome;
use super::fighter::{Cumulative, Matchup, Table};
use super::spec::{Readiness, Wait};
use crate::solver::{MAX_LIVE_STATES, MAX_WORK, NEGLIGIBLE_MASS};
use crate::{Ending, ExactDuel, Roller, Ruleset, Step, Tally, Winner};

/// The duel state between steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct State {
    /// The round (0 before the first).
    pub round: u32,
    /// 0 = round start, 1 = the first turn of the round, 2 = the second.
    pub phase: u8,
    /// 0 = not rolled yet, 1 = A acts first, 2 = B acts first.
    pub first: u8,
    /// Health left.
    pub hp: [i32; 2],
    /// Recovery rounds still owed (slow weapons).
    pub recovery: [u8; 2],
    /// The next turn is lost (full dodge).
    pub lost: [bool; 2],
    /// Has had a turn (ends flat-footedness, G13).
    pub acted: [bool; 2],
    /// Has been attacked while flat footed (ends flat-footedness under
    /// `flat_footed = "initial_attack"`; never set otherwise).
    pub struck: [bool; 2],
    /// Yards between the fighters (0 = engaged, G14).
    pub dist: u16,
}

crate::duel_state!(State);

impl crate::Duel<OpenRpg> for State {
    /// The state before the duel.
    fn start(_rules: &OpenRpg, m: &Matchup) -> State {
        State {
            round: 0,
            phase: 0,
            first: 0,
            hp: m.health,
            recovery: [0; 2],
            lost: [false; 2],
            acted: [false; 2],
            struck: [false; 2],
            dist: m.start_distance,
        }
    }

    /// One step ([`advance`]), its random choice sampled through the roller.
    #[inline]
    fn step<R: Roller, T: Tally>(
        &mut self,
        rules: &OpenRpg,
        m: &Matchup,
        roller: &mut R,
        tally: &mut T,
    ) -> Step {
        let step = advance(
            m,
            rules.options().max_rounds,
            self,
            &mut Sample(roller),
            tally,
        );
        // Who won the initiative, counted once, at the duel's end.
        if let Step::Over(w, _) = step
            && self.first == 1
        {
            tally.count(A_FIRST, 1);
            if w == Winner::A {
                tally.count(A_FIRST_AND_WINS, 1);
            }
        }
        step
    }
}

/// The counter of the duels where A won the initiative (acted first).
pub const A_FIRST: usize = 0;
/// The counter of the duels where A won the initiative and the duel.
pub const A_FIRST_AND_WINS: usize = 1;

/// Where a step's one random choice comes from.
pub trait Pick {
    /// An index into `probs` (with cumulative sums `cum`).
    fn pick(&mut self, probs: &[f64], cum: &Cumulative) -> usize;
}

/// Samples through a [`Roller`]: a uniform `u` with 48 random bits (two 24-bit rolls, the
/// first the high half), the first index whose cumulative sum exceeds `u` (the last if none).
pub struct Sample<'a, R: Roller>(pub &'a mut R);

impl<R: Roller> Pick for Sample<'_, R> {
    #[inline]
    fn pick(&mut self, probs: &[f64], cum: &Cumulative) -> usize {
        const SIDES: u32 = 1 << 24;
        let hi = u64::from(self.0.roll(SIDES) - 1);
        let lo = u64::from(self.0.roll(SIDES) - 1);
        cum.find(hi << 24 | lo).min(probs.len() - 1)
    }
}

/// Forces index `idx` and notes how many choices there were and the forced one's probability.
pub(super) struct Forced {
    pub(super) idx: usize,
    pub(super) n: usize,
    pub(super) p: f64,
}

/// One way a step from a state can begin (see [`choices`]).
pub(super) struct Choice<'m> {
    /// The state after [`begin`].
    pub(super) s: State,
    /// What the step does next.
    pub(super) turn: Turn<'m>,
    /// The choice made: its index, how many there were (0 when `begin` chose nothing) and
    /// its probability (1 when it chose nothing).
    pub(super) f: Forced,
}

impl Choice<'_> {
    /// Whether no choice follows this one.
    pub(super) fn last(&self) -> bool {
        self.f.idx + 1 >= self.f.n
    }
}

/// Every way a step from `s` can begin, in the order of the choice's index: [`begin`] with
/// each choice forced in turn (the initiative d2 before round 1 is the only one; most steps
/// have none and give one `Choice`). The exact solvers walk a state's successors with it.
pub(super) fn choices(m: &Matchup, max_rounds: u32, s: State) -> impl Iterator<Item = Choice<'_>> {
    // How many choices there are is known after the first; until then, at least one.
    let (mut idx, mut n) = (0, 1);
    std::iter::from_fn(move || {
        if idx >= n {
            return None;
        }
        let mut s2 = s;
        let mut f = Forced { idx, n: 0, p: 1.0 };
        let turn = begin(m, max_rounds, &mut s2, &mut f);
        (idx, n) = (idx + 1, f.n);
        Some(Choice { s: s2, turn, f })
    })
}

impl Pick for Forced {
    fn pick(&mut self, probs: &[f64], _cum: &Cumulative) -> usize {
        self.n = probs.len();
        self.p = probs[self.idx];
        self.idx
    }
}

/// Whether side `x` may act in round `round` (G13: flat footed lose round 1; legacy: every
/// ambushed fighter does).
pub(super) fn can_act(m: &Matchup, x: usize, round: u32) -> bool {
    round > 1
        || match m.state[x] {
            Readiness::Ready => true,
            Readiness::CaughtOffGuard => !m.legacy,
            Readiness::FlatFooted => false,
        }
}

/// Whether side `x` goes last in round `round` because of an ambush: caught off guard in round
/// 1, flat footed in rounds 1 and 2 (primary §2.3); legacy level 6 in rounds 1 and 2.
fn ambushed_last(m: &Matchup, x: usize, round: u32) -> bool {
    match m.state[x] {
        Readiness::Ready => false,
        Readiness::CaughtOffGuard => round == 1 || (m.legacy && round == 2),
        Readiness::FlatFooted => round <= 2,
    }
}

/// The order of the round: (first actor, second actor).
#[inline]
pub fn order(m: &Matchup, s: &State) -> [usize; 2] {
    let mut o = if s.first == 2 { [1, 0] } else { [0, 1] };
    let last = |x| ambushed_last(m, x, s.round);
    if last(o[0]) && !last(o[1]) {
        o.swap(0, 1);
    } else if !last(o[0])
        && !last(o[1])
        && m.wait[o[0]] == Wait::WhenFirst
        && m.wait[o[1]] == Wait::Never
    {
        // §2.3 waiting: the first holds the turn and acts after the opponent.
        o.swap(0, 1);
    }
    o
}

/// What a step does before its turn's outcome is drawn.
pub enum Turn<'a> {
    /// The step is over (a round start, a skipped turn).
    Done(Step),
    /// Side `x` attacks: draw an outcome of `table` and [`apply`] it.
    Attack {
        /// The attacker.
        x: usize,
        /// The turn table in force.
        table: &'a Table,
    },
}

/// A step up to its turn's draw: the round start (initiative drawn from `pick` before round
/// 1, G12), or the acting fighter's turn, skipped when it cannot act, lost or recovering.
#[inline]
pub fn begin<'m, P: Pick>(
    m: &'m Matchup,
    max_rounds: u32,
    s: &mut State,
    pick: &mut P,
) -> Turn<'m> {
    if s.phase == 0 {
        if s.first == 0 {
            s.first = 1 + pick.pick(&m.first, &m.first_cum) as u8;
        }
        s.round += 1;
        if s.round > max_rounds {
            return Turn::Done(Step::Over(Winner::Draw, Ending::RoundCap));
        }
        s.phase = 1;
        return Turn::Done(Step::Continue);
    }
    // `order`, `can_act` and the ambushes, as the matchup tabulated them (`Slot::of`).
    let round = s.round.min(3) as usize - 1;
    let slot = m.slots[round][usize::from(s.first == 2)][usize::from(s.phase - 1)];
    let x = usize::from(slot.x);
    let y = 1 - x;
    s.phase = if s.phase == 2 { 0 } else { 2 };
    if !slot.acts {
        return Turn::Done(Step::Continue);
    }
    s.acted[x] = true;
    if s.lost[x] || s.recovery[x] > 0 {
        // A lost turn (full dodge) is served on its own when it stacks with recovery (G15).
        if m.dodge_stacks && s.lost[x] {
            s.lost[x] = false;
        } else {
            s.lost[x] = false;
            s.recovery[x] = s.recovery[x].saturating_sub(1);
        }
        return Turn::Done(Step::Continue);
    }
    if s.dist > 0 && !m.missile[x] {
        // Apart: a melee fighter's turn closes the distance (G14).
        s.dist = s.dist.saturating_sub(m.move_yards);
        return Turn::Done(Step::Continue);
    }
    let defenseless = slot.flat_footed && !s.acted[y] && !s.struck[y];
    if defenseless && m.flat_footed_initial_only {
        // Legacy: defenceless "against the initial attack" only.
        s.struck[y] = true;
    }
    let k = super::attack::range_modifier(i64::from(s.dist)) as usize;
    let tables = if k == 0 { &m.turns[x] } else { &m.ranged[x][k - 1] };
    Turn::Attack {
        x,
        table: &tables[usize::from(defenseless)][usize::from(slot.off_guard)],
    }
}

/// Applies side `x`'s turn outcome: damage (a limb hit leaves at least 1 health, G17),
/// recovery rounds, the defender's lost turn.
#[inline]
pub fn apply<T: Tally>(
    s: &mut State,
    x: usize,
    table: &Table,
    out: TurnOutcome,
    t: &mut T,
) -> Step {
    let y = 1 - x;
    let hp = s.hp[y];
    let mut left = hp.saturating_sub(out.damage);
    if table.limb {
        left = left.max(hp.min(1));
    }
    s.hp[y] = left;
    s.recovery[x] = out.recovery;
    if out.defender_loses_turn {
        s.lost[y] = true;
    }
    t.attack(x, out.hit, out.damage);
    if left <= 0 {
        let w = if x == 0 { Winner::A } else { Winner::B };
        return Step::Over(w, Ending::Death);
    }
    Step::Continue
}

/// Advances the duel by one step, drawing the step's one random choice from `pick`.
#[inline]
pub fn advance<P: Pick, T: Tally>(
    m: &Matchup,
    max_rounds: u32,
    s: &mut State,
    pick: &mut P,
    t: &mut T,
) -> Step {
    match begin(m, max_rounds, s, pick) {
        Turn::Done(st) => st,
        Turn::Attack { x, table } => {
            let out = table.outcomes[pick.pick(&table.probs, &table.cum)];
            apply(s, x, table, out, t)
        }
    }
}

/// States lighter than this are dropped by the exact solver (their mass is reported as
/// `truncated`).
pub(super) const PRUNE_MASS: f64 = 1e-22;

/// A state's flags packed in a word (everything but its health and round: every live state of
/// one iteration shares the round, as each step advances the phase of every state alike).
/// Recovery rounds take 4 bits each (a cadence is at most 1/10: at most 9 rounds).
pub(super) fn flags(s: &State) -> u32 {
    let b = |x: bool| u32::from(x);
    u32::from(s.phase)
        | u32::from(s.first) << 2
        | u32::from(s.recovery[0] & 0xf) << 4
        | u32::from(s.recovery[1] & 0xf) << 8
        | b(s.lost[0]) << 12
        | b(s.lost[1]) << 13
        | b(s.acted[0]) << 14
        | b(s.acted[1]) << 15
        | b(s.struck[0]) << 16
        | b(s.struck[1]) << 17
        | u32::from(s.dist) << 18
}

/// The state of `flags` with health `hp` in `round`.
pub(super) fn unflag(f: u32, hp: [i32; 2], round: u32) -> State {
    State {
        round,
        phase: (f & 3) as u8,
        first: (f >> 2 & 3) as u8,
        hp,
        recovery: [(f >> 4 & 0xf) as u8, (f >> 8 & 0xf) as u8],
        lost: [f >> 12 & 1 == 1, f >> 13 & 1 == 1],
        acted: [f >> 14 & 1 == 1, f >> 15 & 1 == 1],
        struck: [f >> 16 & 1 == 1, f >> 17 & 1 == 1],
        dist: (f >> 18) as u16,
    }
}

/// Largest health grid (A's health × B's health) the exact solver accumulates into.
pub(super) const MAX_GRID: usize = 1 << 22;

/// Probability mass of the live states of one iteration: a dense health grid per flag word.
struct Grids {
    w: usize,
    cells: usize,
    grids: Vec<Grid>,
    last: usize,
    round: u32,
}

/// One flag word's health grid and the range of cells written since it was last read (the
/// solver reads only those: as health only falls, most of a grid stays empty).
struct Grid {
    flags: u32,
    cells: Vec<f64>,
    /// The lowest and one past the highest cell written (empty when `lo >= hi`).
    lo: usize,
    hi: usize,
}

impl Grids {
    #[inline]
    fn add(&mut self, s: &State, q: f64) {
        self.round = s.round;
        let f = flags(s);
        if self.grids.get(self.last).is_none_or(|g| g.flags != f) {
            self.last = match self.grids.iter().position(|g| g.flags == f) {
                Some(i) => i,
                None => {
                    self.grids.push(Grid {
                        flags: f,
                        cells: vec![0.0; self.cells],
                        lo: usize::MAX,
                        hi: 0,
                    });
                    self.grids.len() - 1
                }
            };
        }
        let i = (s.hp[0] - 1) as usize * self.w + (s.hp[1] - 1) as usize;
        let g = &mut self.grids[self.last];
        g.cells[i] += q;
        g.lo = g.lo.min(i);
        g.hi = g.hi.max(i + 1);
    }
}

/// The exact duel state by state: forward iteration over every live state, each step's choices
/// enumerated with their probabilities (the reference [`super::grid::solve`] is tested against;
/// `OpenRpg::exact` uses that one, or [`super::product::solve`] where the duel factors); `None` beyond [`MAX_LIVE_STATES`], a health grid of [`MAX_GRID`] cells
/// or [`MAX_WORK`] emissions, or when asked to stop ([`crate::solver::with_stop`]).
pub fn solve(rules: &OpenRpg, m: &Matchup) -> Option<ExactDuel> {
    let max_rounds = rules.max_rounds();
    let mut p = [0.0f64; 3];
    let mut pmf = vec![0.0; max_rounds as usize + 1];
    let last = pmf.len() - 1;
    let mut live: Vec<(State, f64)> = vec![(rules.start(m), 1.0)];
    let w = m.health[1].max(1) as usize;
    let cells = m.health[0].max(1) as usize * w;
    if cells > MAX_GRID {
        return None;
    }
    let mut next = Grids {
        w,
        cells,
        grids: Vec::new(),
        last: 0,
        round: 0,
    };
    let mut pruned = 0.0;
    let mut work = 0u64;
    while !live.is_empty() && live.iter().map(|x| x.1).sum::<f64>() >= NEGLIGIBLE_MASS {
        for &(s, ps) in &live {
            if crate::solver::stop_requested() {
                return None;
            }
            for Choice { s: s2, turn, f } in choices(m, max_rounds, s) {
                let q = ps * f.p;
                let mut emit = |s3: State, st: Step, q: f64| match st {
                    Step::Continue => next.add(&s3, q),
                    Step::Over(w, _) => {
                        p[w as usize] += q;
                        pmf[(s3.round as usize).min(last)] += q;
                    }
                };
                match turn {
                    Turn::Done(st) => emit(s2, st, q),
                    Turn::Attack { x, table } => {
                        // Every outcome at least the defender's health kills alike (unless
                        // limb hits cannot): one emission for all of them.
                        let hp = s2.hp[1 - x];
                        let n = if table.limb {
                            table.outcomes.len()
                        } else {
                            table.outcomes.partition_point(|o| o.damage < hp)
                        };
                        work += n as u64 + 1;
                        for i in 0..n {
                            let mut s3 = s2;
                            let st =
                                apply(&mut s3, x, table, table.outcomes[i], &mut crate::NoTally);
                            emit(s3, st, q * table.probs[i]);
                        }
                        if n < table.outcomes.len() {
                            let w = if x == 0 { Winner::A } else { Winner::B };
                            emit(s2, Step::Over(w, Ending::Death), q * table.tail[n]);
                        }
                    }
                }
            }
        }
        let round = next.round;
        live.clear();
        next.grids.sort_unstable_by_key(|g| g.flags);
        for g in &mut next.grids {
            let f = &g.flags;
            if g.lo >= g.hi {
                continue;
            }
            let lo = g.lo;
            let written = &mut g.cells[lo..g.hi];
            (g.lo, g.hi) = (usize::MAX, 0);
            for (i, q) in written.iter_mut().enumerate() {
                let i = lo + i;
                if *q == 0.0 {
                    continue;
                }
                if *q < PRUNE_MASS {
                    pruned += *q;
                } else {
                    let hp = [(i / w) as i32 + 1, (i % w) as i32 + 1];
                    // Every successor is one step on: the round moved on iff the phase is 1.
                    let s = unflag(*f, hp, round);
                    live.push((s, *q));
                }
                *q = 0.0;
            }
        }
        next.last = usize::MAX;
        if live.len() > MAX_LIVE_STATES || work > MAX_WORK {
            return None;
        }
    }
    let truncated = live.iter().map(|x| x.1).sum::<f64>() + pruned;
    Some(ExactDuel::from_pmf(p, pmf, truncated))
}
