//! The d20 exact solver and exact figures beyond [`crate::ExactDuel`].
//!
//! HP, tallies, Magic Points and the cursor are bounded and every step either moves the cursor
//! or lowers some HP, so the live states are finite (digest §7.9 "How to regenerate exactly").
//!
//! [`iterate`] is the shared solver's forward iteration with its transition cache
//! (`solver::Transitions::Cached`: each state's transitions found once under its round parity,
//! crossbows reloading in even rounds, `D20::cache_round`; the round cap applied before `step`),
//! the same `step` runs and the very same floating-point sums in the same order, but with the
//! states interned: every round-normalised state gets a number once, its cached transitions
//! point at the numbers of their successors, and a live state is its round and number. So a
//! transition costs an integer hash instead of hashing and comparing a 112-byte state, and the
//! live states are put in `State`'s order by precomputed order words ([`order_words`]) instead
//! of the derived field-by-field comparison. `benches/tests/it/exact.rs` holds it to the shared
//! solver bit for bit on every bundled d20 matchup.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::D20;
use super::duel::State;
use super::fighter::{MAX_SIDE, Matchup};
use crate::roller::{Branching, enumerate_by};
use crate::solver::{MAX_LIVE_STATES, MAX_WORK, NEGLIGIBLE_MASS, Step, stop_requested};
use crate::outcome::NoTally;
use crate::{DuelState, ExactDuel, Ruleset, Winner};

/// Exact figures beyond [`crate::ExactDuel`]: how the duel ended.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactDetail {
    /// P(A wins), P(B wins), P(draw).
    pub p: [f64; 3],
    /// P(A wins and every B creature ends dead), P(B wins and every A creature ends dead).
    pub p_win_loser_dead: [f64; 2],
    /// P(draw and side A all dead), P(draw and side B all dead).
    pub p_draw_dead: [f64; 2],
    /// Expected rounds.
    pub mean_rounds: f64,
}

/// Solves a duel and splits the outcome by whether the losing side ended dead (HP ≤ Death
/// Point; digest §7.9 "P(loser dead)").
pub fn solve_detail(r: &D20, m: &Matchup) -> Option<ExactDetail> {
    let cap = r.max_rounds();
    let dead = |s: &State, side: usize| {
        (0..usize::from(m.n[side]))
            .all(|j| i32::from(s.m[side][j].hp) <= m.fighter(side, j).death_point)
    };
    let mut d = ExactDetail {
        p: [0.0; 3],
        p_win_loser_dead: [0.0; 2],
        p_draw_dead: [0.0; 2],
        mean_rounds: 0.0,
    };
    iterate(r, m, MAX_WORK, Branching::Outcomes, |s2, w, pq| {
        d.mean_rounds += pq * f64::from(s2.round.min(cap));
        match w {
            Winner::A => {
                d.p[0] += pq;
                if dead(s2, 1) {
                    d.p_win_loser_dead[0] += pq;
                }
            }
            Winner::B => {
                d.p[1] += pq;
                if dead(s2, 0) {
                    d.p_win_loser_dead[1] += pq;
                }
            }
            Winner::Draw => {
                d.p[2] += pq;
                for side in 0..2 {
                    if dead(s2, side) {
                        d.p_draw_dead[side] += pq;
                    }
                }
            }
        }
    })?;
    Some(d)
}

/// Solves a duel exactly from `D20::start` ([`iterate`]); `None` beyond the shared solver's
/// budgets (`solver::MAX_LIVE_STATES`, `solver::MAX_WORK`) or when asked to stop.
pub fn solve(r: &D20, m: &Matchup) -> Option<ExactDuel> {
    let mut p = [0.0; 3];
    let mut rounds_pmf = vec![0.0; r.max_rounds() as usize + 1];
    let last = rounds_pmf.len() - 1;
    let truncated = iterate(r, m, MAX_WORK, Branching::Outcomes, |s, w, q| {
        let i = match w {
            Winner::A => 0,
            Winner::B => 1,
            Winner::Draw => 2,
        };
        p[i] += q;
        rounds_pmf[(s.round as usize).min(last)] += q;
    })?;
    Some(ExactDuel::from_pmf(p, rounds_pmf, truncated))
}

/// A multiplicative hasher for integer keys and packed states.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // The table takes its bucket from the low bits: fold the well-mixed high bits in.
        self.0 ^ (self.0 >> 29)
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u64(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

type WordMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// Most order words of a state: the cursor, two per creature, the distance.
const MAX_WORDS: usize = 2 + 4 * MAX_SIDE;

/// The words of `s` but its round, whose lexicographic order is `State`'s derived order among
/// states of the same round, written into `out` (the creatures beyond each side's count are
/// left out: they stay at their default in every state of a duel). Returns how many.
fn order_words(m: &Matchup, s: &State, out: &mut [u64; MAX_WORDS]) -> usize {
    // Destructured so that a new field does not compile until it is ordered here too.
    let State {
        round: _,
        stage,
        init_i,
        seg,
        sub,
        slot,
        atk,
        snap,
        m: members,
        dist,
        moved,
        n: _,
    } = *s;
    out[0] = u64::from(stage) << 56
        | u64::from(init_i) << 48
        | u64::from(seg) << 40
        | u64::from(sub) << 32
        | u64::from(slot) << 24
        | u64::from(atk) << 16
        | u64::from(snap);
    let mut n = 1;
    for (side, &count) in members.iter().zip(&m.n) {
        for c in &side[..usize::from(count)] {
            let [a, b] = c.words();
            out[n] = a;
            out[n + 1] = b;
            n += 2;
        }
    }
    out[n] = u64::from(dist) << 16 | u64::from(moved);
    n + 1
}

/// A cached transition: the successor's number, the rounds it is ahead of the state, how the
/// step ended and its probability.
#[derive(Clone, Copy)]
struct Edge {
    to: u32,
    ahead: u32,
    step: Step,
    q: f64,
}

/// The round-normalised states met so far, by number, with their order words, order keys
/// and cached transitions.
struct Interned {
    ids: WordMap<State, u32>,
    states: Vec<State>,
    /// `stride` order words per state.
    words: Vec<u64>,
    stride: usize,
    /// Where a state's cached transitions lie in `edges` (`u32::MAX`: not found yet).
    span: Vec<(u32, u32)>,
    edges: Vec<Edge>,
    /// Transition lists found (the shared solver's cache size).
    cached: usize,
    /// The fields of the order words, most significant first.
    fields: Vec<Field>,
    /// Per order word, the bits in which some state differs from the first.
    differ: Vec<u64>,
    /// The fields that differ, with the bits each takes in a key (all 16 of a 16-bit field;
    /// a byte's bits up to its highest differing one), most significant first; `None` when
    /// they need more than 128 bits.
    layout: Option<Vec<(Field, u32)>>,
    /// Per state, the differing fields packed in one word: among states of one round, their
    /// order is `State`'s (the other fields are equal in all states met).
    keys: Vec<u128>,
}

/// One field of the order words: `bits` bits of word `word` from bit `shift`; a `full`
/// field takes all its bits in a key, another only up to its highest differing one.
#[derive(Clone, Copy)]
struct Field {
    word: usize,
    shift: u32,
    bits: u32,
    full: bool,
}

impl Field {
    #[inline]
    fn of(self, words: &[u64]) -> u64 {
        (words[self.word] >> self.shift) & (u64::MAX >> (64 - self.bits))
    }
}

impl Interned {
    /// An empty table for a matchup whose states have `stride` order words.
    fn new(stride: usize) -> Self {
        let byte = |word, shift| Field {
            word,
            shift,
            bits: 8,
            full: false,
        };
        let half = |word, shift| Field {
            word,
            shift,
            bits: 16,
            full: true,
        };
        // The cursor's bytes, then the 16-bit snapshot (keyed up to its highest differing bit,
        // as a byte).
        let mut fields: Vec<Field> = (2..8).rev().map(|k| byte(0, 8 * k)).collect();
        fields.push(Field {
            word: 0,
            shift: 0,
            bits: 16,
            full: false,
        });
        for c in 0..(stride - 2) / 2 {
            let word = 1 + 2 * c;
            fields.extend([48, 32, 16, 0].map(|sh| half(word, sh)));
            fields.extend([16, 8, 0].map(|sh| byte(word + 1, sh)));
        }
        fields.extend([half(stride - 1, 16), byte(stride - 1, 8), byte(stride - 1, 0)]);
        Interned {
            ids: WordMap::default(),
            states: Vec::new(),
            words: Vec::new(),
            stride,
            span: Vec::new(),
            edges: Vec::new(),
            cached: 0,
            fields,
            differ: vec![0; stride],
            layout: Some(Vec::new()),
            keys: Vec::new(),
        }
    }
    /// The number of round-normalised state `s`, given one if new.
    fn id(&mut self, m: &Matchup, s: State) -> u32 {
        if let Some(&id) = self.ids.get(&s) {
            return id;
        }
        let id = self.states.len() as u32;
        let mut w = [0u64; MAX_WORDS];
        let n = order_words(m, &s, &mut w);
        debug_assert_eq!(n, self.stride);
        let w = &w[..n];
        let mut grew = false;
        if let Some(first) = self.words.get(..n) {
            for ((d, &x), &f) in self.differ.iter_mut().zip(w).zip(first) {
                grew |= (*d | (x ^ f)) != *d;
                *d |= x ^ f;
            }
        }
        self.words.extend_from_slice(w);
        self.states.push(s);
        self.span.push((u32::MAX, 0));
        self.ids.insert(s, id);
        if grew && self.relayout() {
            // The keys of every state so far, under the new layout.
            self.keys.clear();
            for k in 0..self.states.len() {
                let key = self.key(&self.words[k * n..(k + 1) * n]);
                self.keys.push(key);
            }
        } else {
            self.keys.push(self.key(w));
        }
        id
    }
    /// Recomputes the layout from `differ`; whether it changed.
    fn relayout(&mut self) -> bool {
        let mut layout = Vec::new();
        let mut total = 0;
        for &f in &self.fields {
            let d = f.of(&self.differ);
            if d == 0 {
                continue;
            }
            let width = if f.full { 16 } else { 64 - d.leading_zeros() };
            total += width;
            layout.push((f, width));
        }
        let layout = (total <= 128).then_some(layout);
        let same = match (&layout, &self.layout) {
            (Some(a), Some(b)) => {
                a.len() == b.len()
                    && a.iter().zip(b).all(|(x, y)| {
                        x.1 == y.1 && x.0.word == y.0.word && x.0.shift == y.0.shift
                    })
            }
            (None, None) => true,
            _ => false,
        };
        self.layout = layout;
        !same
    }
    /// A state's key under the current layout (0 without one).
    #[inline]
    fn key(&self, w: &[u64]) -> u128 {
        let Some(layout) = &self.layout else {
            return 0;
        };
        let mut k = 0u128;
        for &(f, width) in layout {
            let v = f.of(w) & (u64::MAX >> (64 - width));
            k = k << width | u128::from(v);
        }
        k
    }
    #[inline]
    fn words(&self, id: u32) -> &[u64] {
        let i = id as usize * self.stride;
        &self.words[i..i + self.stride]
    }
    /// `State`'s order on (round, number) pairs of the same cache round parity.
    #[inline]
    fn cmp(&self, a: (u32, u32), b: (u32, u32)) -> Ordering {
        a.0.cmp(&b.0).then_with(|| {
            if self.layout.is_some() {
                self.keys[a.1 as usize].cmp(&self.keys[b.1 as usize])
            } else {
                self.words(a.1).cmp(self.words(b.1))
            }
        })
    }
    /// Puts distinct live states in `State`'s order: by one 128-bit word each (round less
    /// the lowest, key, place) when they fit, else by [`Interned::cmp`].
    fn sort(&self, live: &mut Vec<Live>, x: &mut SortScratch) {
        let n = live.len();
        if n < 2 {
            return;
        }
        let (lo, hi) = live
            .iter()
            .fold((u32::MAX, 0), |(lo, hi), e| (lo.min(e.0), hi.max(e.0)));
        let round_bits = 32 - (hi - lo).leading_zeros();
        let index_bits = 64 - (n as u64 - 1).leading_zeros();
        let key_bits = self.layout.as_ref().map(|l| l.iter().map(|x| x.1).sum::<u32>());
        match key_bits {
            Some(kb) if kb + round_bits + index_bits <= 128 => {
                x.keys.clear();
                x.keys.extend(live.iter().enumerate().map(|(i, e)| {
                    let r = u128::from(e.0 - lo) << kb;
                    ((r | self.keys[e.1 as usize]) << index_bits) | i as u128
                }));
                x.keys.sort_unstable();
                let mask = (1u128 << index_bits) - 1;
                x.tmp.clear();
                x.tmp
                    .extend(x.keys.iter().map(|&k| live[(k & mask) as usize]));
                std::mem::swap(live, &mut x.tmp);
            }
            _ => live.sort_unstable_by(|a, b| self.cmp((a.0, a.1), (b.0, b.1))),
        }
    }
}

/// Scratch space of [`Interned::sort`].
#[derive(Default)]
struct SortScratch {
    keys: Vec<u128>,
    tmp: Vec<Live>,
}

/// A live state: its round, its round-normalised number and its probability.
type Live = (u32, u32, f64);

/// The forward iteration from `D20::start` with the transition cache, as the shared solver's
/// `Transitions::Cached` (the same `step` runs and sums in the same order): calls
/// `over(state, winner, p)` for every way the duel ends, in a fixed order, and returns the live
/// mass left; `None` beyond `MAX_LIVE_STATES` states or cached lists, beyond `max_work` `step`
/// runs, or when asked to stop. `branching` as in `solver::solve_branching`.
pub fn iterate(
    r: &D20,
    m: &Matchup,
    max_work: u64,
    branching: Branching,
    mut over: impl FnMut(&State, Winner, f64),
) -> Option<f64> {
    let stride = 2 + 2 * (usize::from(m.n[0]) + usize::from(m.n[1]));
    let mut t = Interned::new(stride);
    let mut scratch = SortScratch::default();
    let mut work = 0u64;
    // One transition list's leaves merged by successor: first-seen order, sums in leaf order.
    let mut leaf_ids: WordMap<State, usize> = WordMap::default();
    let mut leaves: Vec<(State, Step, f64)> = Vec::new();
    let mut list: Vec<(u32, u32, Step, f64)> = Vec::new();
    // The next live states: first-seen order, sums in emission order.
    let mut next_ids: WordMap<u64, u32> = WordMap::default();
    let mut next: Vec<Live> = Vec::new();
    // By state number: 1 + where it is in `next` (0: not there).
    let mut seen: Vec<u32> = Vec::new();

    let start = r.start(m);
    let start_id = t.id(m, start.with_round(r.cache_round(start.round)));
    let mut live: Vec<Live> = vec![(start.round, start_id, 1.0)];
    while !live.is_empty() && live.iter().map(|x| x.2).sum::<f64>() >= NEGLIGIBLE_MASS {
        for &(round, id, p) in &live {
            let s = t.states[id as usize].with_round(round);
            if r.capped(&s) {
                over(&s, Winner::Draw, p);
                if stop_requested() {
                    return None;
                }
                continue;
            }
            if t.span[id as usize].0 == u32::MAX {
                // Not met before: run `step` on every leaf, merge by successor, order them.
                let key = t.states[id as usize];
                enumerate_by(
                    branching,
                    |roller| {
                        work += 1;
                        let mut s2 = key;
                        let st = r.step(m, &mut s2, roller, &mut NoTally);
                        (s2, st)
                    },
                    |(s2, st), q| {
                        if let Some(last) = leaves.last_mut()
                            && last.0 == s2
                        {
                            last.2 += q;
                            return;
                        }
                        let i = *leaf_ids.entry(s2).or_insert_with(|| {
                            leaves.push((s2, st, 0.0));
                            leaves.len() - 1
                        });
                        leaves[i].2 += q;
                    },
                );
                leaf_ids.clear();
                list.clear();
                for &(s2, st, q) in &leaves {
                    let to = t.id(m, s2.with_round(r.cache_round(s2.round)));
                    list.push((s2.round, to, st, q));
                }
                leaves.clear();
                list.sort_unstable_by(|a, b| t.cmp((a.0, a.1), (b.0, b.1)));
                let start = t.edges.len() as u32;
                t.edges.extend(list.iter().map(|&(r2, to, step, q)| Edge {
                    to,
                    ahead: r2 - key.round,
                    step,
                    q,
                }));
                t.span[id as usize] = (start, list.len() as u32);
                t.cached += 1;
            }
            let (from, n) = t.span[id as usize];
            for e in &t.edges[from as usize..(from + n) as usize] {
                let round2 = round + e.ahead;
                let pq = p * e.q;
                match e.step {
                    Step::Continue => {
                        // Where the successor is in `next`: by number, unless that slot holds
                        // the same number in another round (then by round and number).
                        let to = e.to as usize;
                        if seen.len() <= to {
                            seen.resize(t.states.len(), 0);
                        }
                        let i = match seen[to] {
                            0 => {
                                next.push((round2, e.to, 0.0));
                                seen[to] = next.len() as u32;
                                next.len() - 1
                            }
                            k if next[k as usize - 1].0 == round2 => k as usize - 1,
                            _ => {
                                let k = u64::from(round2) << 32 | u64::from(e.to);
                                *next_ids.entry(k).or_insert_with(|| {
                                    next.push((round2, e.to, 0.0));
                                    next.len() as u32 - 1
                                }) as usize
                            }
                        };
                        next[i].2 += pq;
                    }
                    Step::Over(w, _) => {
                        over(&t.states[e.to as usize].with_round(round2), w, pq);
                    }
                }
            }
            if t.cached > MAX_LIVE_STATES || work > max_work || stop_requested() {
                return None;
            }
        }
        if next.len() > MAX_LIVE_STATES {
            return None;
        }
        next_ids.clear();
        for e in &next {
            seen[e.1 as usize] = 0;
        }
        t.sort(&mut next, &mut scratch);
        std::mem::swap(&mut live, &mut next);
        next.clear();
    }
    Some(live.iter().map(|x| x.2).sum::<f64>())
}
