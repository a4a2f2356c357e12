//! Decks of cards drawn without replacement, hands, and their exact distributions.
//!
//! A [`Deck`] is fixed-capacity storage ([`MAX_DECK`] cards, `Copy`, no allocation per draw)
//! split into three parts: the stock (undrawn), the cards out (held in hands or showing) and
//! the discard pile. A draw is one step of a partial Fisher–Yates shuffle: an unbiased index
//! into the stock (Lemire's method, as for dice) picks the card, which is swapped to the end of
//! the stock and becomes "out". [`Deck::discard_out`] sends every card out to the discard pile;
//! when the stock is empty the discard pile (never the cards out) is shuffled back in
//! ([`Deck::draw_with`]), which is the `when_empty` reshuffle; [`Deck::reset`] gathers every
//! card back (the `every_round` / `every_check` reshuffles, decided by the caller).
//!
//! The exact side is pure functions with integer weights ([`Dist`]): the hypergeometric
//! distribution of the best card of a hand of N ([`best_of`]), the chance a hand holds a
//! flagged card ([`p_hand_has_hit`]), and any comparison of two independent hands
//! ([`pairwise`], e.g. attack card vs parry card).

use rand_core::RngCore;

use crate::{DiceError, Dist, uniform_below};

/// Largest number of cards a [`Deck`] holds.
pub const MAX_DECK: usize = 64;
/// Largest number of cards a [`Hand`] holds.
pub const MAX_HAND: usize = 16;

/// One card: a signed value and whether it is a "hit" card (one that may draw again).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    /// The card value (positive or negative).
    pub value: i8,
    /// Whether the card is a hit card.
    pub hit: bool,
}

impl Card {
    /// A plain card.
    pub const fn plain(value: i8) -> Card {
        Card { value, hit: false }
    }
    /// A hit card.
    pub const fn hit(value: i8) -> Card {
        Card { value, hit: true }
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:+}{}", self.value, if self.hit { "h" } else { "" })
    }
}

impl std::str::FromStr for Card {
    type Err = String;
    /// Parses `+3`, `-2h`, `0`, `5H` (a trailing `h` marks a hit card).
    fn from_str(s: &str) -> Result<Card, String> {
        let t = s.trim();
        let (num, hit) = match t.strip_suffix(['h', 'H']) {
            Some(n) => (n, true),
            None => (t, false),
        };
        let value: i8 = num.trim_start_matches('+').parse().map_err(|_| {
            format!("bad card {s:?}: expected a value -99..=99, e.g. \"+3\" or \"-2h\"")
        })?;
        if !(-99..=99).contains(&value) {
            return Err(format!("bad card {s:?}: value out of -99..=99"));
        }
        Ok(Card { value, hit })
    }
}

/// The 44-card deck of the Karmic rules as the project's digest reads it (D44): a standard
/// deck without the 6–10 of one red and one black suit; black positive, red negative; aces and
/// jacks 1, queens 2, kings 3; J, Q, K are hit cards; `jokers` adds the two jokers as 0.
pub fn d44(jokers: bool) -> Vec<Card> {
    let mut v = Vec::with_capacity(44);
    for sign in [1i8, -1] {
        for x in 6..=10 {
            v.push(Card::plain(sign * x));
        }
        for x in [4, 5] {
            v.extend([Card::plain(sign * x); 2]);
        }
        for x in 1..=3 {
            v.extend([Card::plain(sign * x); 2]);
            v.extend([Card::hit(sign * x); 2]);
        }
    }
    if jokers {
        v.extend([Card::plain(0); 2]);
    }
    v
}

/// A deck drawn without replacement: stock, cards out, discard pile (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Deck {
    cards: [Card; MAX_DECK],
    len: u8,
    /// Cards `0..stock` are the stock.
    stock: u8,
    /// Cards `stock..stock + out` are out; the rest up to `len` are discarded.
    out: u8,
    /// Times the discard pile was shuffled back because the stock ran out.
    reshuffles: u16,
}

impl Deck {
    /// A full deck of `cards` (all in the stock).
    ///
    /// # Errors
    /// [`DiceError::Empty`] for no cards, [`DiceError::TooWide`] for more than [`MAX_DECK`].
    pub fn new(cards: &[Card]) -> Result<Deck, DiceError> {
        if cards.is_empty() {
            return Err(DiceError::Empty);
        }
        if cards.len() > MAX_DECK {
            return Err(DiceError::TooWide {
                span: cards.len() as u128,
                max: MAX_DECK,
            });
        }
        let mut d = Deck {
            cards: [Card::default(); MAX_DECK],
            len: cards.len() as u8,
            stock: cards.len() as u8,
            out: 0,
            reshuffles: 0,
        };
        d.cards[..cards.len()].copy_from_slice(cards);
        Ok(d)
    }

    /// Cards in the deck (stock, out and discarded).
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }
    /// Never true (a deck has at least one card); for symmetry with `len`.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Cards left in the stock.
    pub fn stock(&self) -> usize {
        usize::from(self.stock)
    }
    /// Cards out (held or showing).
    pub fn out(&self) -> usize {
        usize::from(self.out)
    }
    /// Cards in the discard pile.
    pub fn discarded(&self) -> usize {
        usize::from(self.len - self.stock - self.out)
    }
    /// How many times the discard pile was shuffled back into an empty stock.
    pub fn reshuffles(&self) -> u32 {
        u32::from(self.reshuffles)
    }
    /// Every card of the deck, in storage order.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len()]
    }
    /// The cards left in the stock (in storage order, which carries no information).
    pub fn stock_cards(&self) -> &[Card] {
        &self.cards[..self.stock()]
    }

    /// Draws one card; `pick(n)` must return an unbiased index in `0..n` (for a
    /// [`crate::Die`]-style roller: `roll(n) - 1`). When the stock is empty the discard pile is
    /// shuffled back first; `None` only if every card is out.
    #[inline]
    pub fn draw_with(&mut self, mut pick: impl FnMut(u32) -> u32) -> Option<Card> {
        if self.stock == 0 {
            self.recycle();
            if self.stock == 0 {
                return None;
            }
        }
        let n = u32::from(self.stock);
        let j = pick(n) as usize;
        debug_assert!(j < n as usize, "pick({n}) returned {j}");
        let last = usize::from(self.stock) - 1;
        self.cards.swap(j.min(last), last);
        self.stock -= 1;
        self.out += 1;
        Some(self.cards[last])
    }

    /// Draws `n` cards into `hand` as `n` calls of [`Deck::draw_with`] would, each pushed
    /// with [`Hand::push`] (a card that finds the hand full is still drawn; once every card is
    /// out nothing more is drawn): the same cards, the same `pick` calls, with the deck's
    /// counts kept in registers for the loop.
    #[inline(always)]
    pub fn deal_with(&mut self, hand: &mut Hand, n: usize, mut pick: impl FnMut(u32) -> u32) {
        let (mut stock, mut out) = (self.stock(), self.out());
        let mut held = hand.len();
        for _ in 0..n {
            if stock == 0 {
                (self.stock, self.out) = (0, out as u8);
                self.recycle();
                stock = self.stock();
                if stock == 0 {
                    break;
                }
            }
            let j = pick(stock as u32) as usize;
            debug_assert!(j < stock, "pick({stock}) returned {j}");
            let last = stock - 1;
            // `% MAX_DECK` changes nothing (`last < stock <= MAX_DECK`) and spares the bounds
            // checks.
            self.cards.swap(j.min(last) % MAX_DECK, last % MAX_DECK);
            stock = last;
            out += 1;
            if held < MAX_HAND {
                hand.cards[held] = self.cards[last % MAX_DECK];
                held += 1;
            }
        }
        self.stock = stock as u8;
        self.out = out as u8;
        hand.len = held as u8;
    }

    /// [`Deck::draw_with`] from a random stream.
    #[inline]
    pub fn draw<R: RngCore + ?Sized>(&mut self, rng: &mut R) -> Option<Card> {
        self.draw_with(|n| uniform_below(rng, u64::from(n)) as u32)
    }

    /// Takes one given card out of the stock (a stacked deck, for replays); `false` if the
    /// stock holds no such card.
    pub fn draw_card(&mut self, card: Card) -> bool {
        let Some(j) = self.stock_cards().iter().position(|&c| c == card) else {
            return false;
        };
        let last = self.stock() - 1;
        self.cards.swap(j, last);
        self.stock -= 1;
        self.out += 1;
        true
    }

    /// Sends every card out to the discard pile (end of a round or check).
    #[inline]
    pub fn discard_out(&mut self) {
        self.out = 0;
    }

    /// Sends every card out to the discard pile except one out copy of each card of `keep`
    /// (cards left showing across rounds, such as an aiming row). A card of `keep` that is not
    /// out is ignored.
    pub fn discard_out_except(&mut self, keep: &[Card]) {
        let (start, out) = (self.stock(), self.out());
        let mut kept = 0;
        for &k in keep {
            if let Some(j) = self.cards[start + kept..start + out]
                .iter()
                .position(|&c| c == k)
            {
                self.cards.swap(start + kept, start + kept + j);
                kept += 1;
            }
        }
        self.out = kept as u8;
    }

    /// Sends the card drawn last (still out) to the discard pile, keeping the other cards out.
    pub fn discard_last(&mut self) {
        if self.out == 0 {
            return;
        }
        let (first, last) = (self.stock(), self.stock() + self.out() - 1);
        self.cards.swap(first, last);
        self.out -= 1;
    }

    /// Gathers every card, out or discarded, back into the stock.
    #[inline]
    pub fn reset(&mut self) {
        self.stock = self.len;
        self.out = 0;
    }

    /// Shuffles the discard pile back into the stock, leaving the cards out where they are.
    fn recycle(&mut self) {
        let (stock, out, len) = (self.stock(), self.out(), self.len());
        if len - stock - out == 0 {
            return;
        }
        // Move the cards out behind the discards, then the discards become the stock.
        self.cards[stock..len].rotate_left(out);
        self.stock = (len - out) as u8;
        self.reshuffles = self.reshuffles.saturating_add(1);
    }
}

/// A hand of at most [`MAX_HAND`] cards (fixed storage, `Copy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hand {
    cards: [Card; MAX_HAND],
    len: u8,
}

impl Hand {
    /// An empty hand.
    pub const fn new() -> Hand {
        Hand {
            cards: [Card {
                value: 0,
                hit: false,
            }; MAX_HAND],
            len: 0,
        }
    }
    /// A hand holding `cards` (at most [`MAX_HAND`]; the rest are ignored).
    pub fn of(cards: &[Card]) -> Hand {
        let mut h = Hand::new();
        for &c in cards.iter().take(MAX_HAND) {
            h.push(c);
        }
        h
    }
    /// Cards held.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }
    /// No card held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The cards held.
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len()]
    }
    /// Adds a card; `false` if the hand is full.
    #[inline]
    pub fn push(&mut self, c: Card) -> bool {
        if self.len() == MAX_HAND {
            return false;
        }
        self.cards[self.len()] = c;
        self.len += 1;
        true
    }
    /// Removes and returns card `i` (the order of the others is kept).
    ///
    /// # Panics
    /// If `i >= len`.
    #[inline(always)]
    pub fn take(&mut self, i: usize) -> Card {
        let len = self.len();
        assert!(i < len, "card {i} of a hand of {len}");
        let c = self.cards[i];
        // A short loop rather than `copy_within` (a call to `memmove` for a few bytes).
        for j in i..len - 1 {
            self.cards[j] = self.cards[j + 1];
        }
        self.len -= 1;
        c
    }
    /// Index of the highest card (a hit card first on equal values; the first held of equal
    /// cards), if any.
    #[inline(always)]
    pub fn best(&self) -> Option<usize> {
        let (first, rest) = self.cards().split_first()?;
        // The best key so far kept beside its index (not read back from the hand).
        let (mut best, mut top) = (0, key(*first));
        for (i, &c) in rest.iter().enumerate() {
            let k = key(c);
            if k > top {
                (best, top) = (i + 1, k);
            }
        }
        Some(best)
    }
    /// Index of the lowest card (a plain card first on equal values; the first held of equal
    /// cards), if any.
    #[inline(always)]
    pub fn worst(&self) -> Option<usize> {
        let (first, rest) = self.cards().split_first()?;
        let (mut worst, mut low) = (0, key(*first));
        for (i, &c) in rest.iter().enumerate() {
            let k = key(c);
            if k < low {
                (worst, low) = (i + 1, k);
            }
        }
        Some(worst)
    }
    /// Index of the `k`-th highest card (0 = the best; equal cards in the order held), if
    /// held.
    #[inline(always)]
    pub fn kth_best(&self, k: usize) -> Option<usize> {
        if k >= self.len() {
            return None;
        }
        if k == 0 {
            return self.best();
        }
        self.kth_below_best(k)
    }
    /// [`Hand::kth_best`] for `k` in `1..len`.
    fn kth_below_best(&self, k: usize) -> Option<usize> {
        // The card whose rank (cards above it, and equal cards held before it) is `k`.
        let cards = self.cards();
        (0..cards.len()).find(|&i| {
            let ki = key(cards[i]);
            let rank = cards
                .iter()
                .enumerate()
                .filter(|&(j, &c)| key(c) > ki || (key(c) == ki && j < i))
                .count();
            rank == k
        })
    }
}

/// A card's place in the order of [`Card`] (value, then a hit card above a plain one) as one
/// integer.
#[inline]
fn key(c: Card) -> i16 {
    i16::from(c.value) * 2 + i16::from(c.hit)
}

/// `n choose k` in `u128` (`None` on overflow).
fn choose(n: u32, k: u32) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = r.checked_mul(u128::from(n - i))? / u128::from(i + 1);
    }
    Some(r)
}

/// The exact distribution of the best (highest) card value in a hand of `n` cards dealt from
/// a full deck of `cards` without replacement (hypergeometric): P(best ≤ v) = C(#cards ≤ v, n)
/// / C(#cards, n).
///
/// # Errors
/// [`DiceError::Empty`] if `n` is 0 or larger than the deck; [`DiceError::Overflow`] if the
/// binomials do not fit `u128`.
pub fn best_of(cards: &[Card], n: u32) -> Result<Dist, DiceError> {
    let total = cards.len() as u32;
    if n == 0 || n > total {
        return Err(DiceError::Empty);
    }
    let mut values: Vec<i8> = cards.iter().map(|c| c.value).collect();
    values.sort_unstable();
    values.dedup();
    let mut pairs = Vec::with_capacity(values.len());
    let mut below = 0u128;
    for v in values {
        let le = cards.iter().filter(|c| c.value <= v).count() as u32;
        let c = choose(le, n).ok_or(DiceError::Overflow)?;
        pairs.push((i64::from(v), c - below));
        below = c;
    }
    Dist::from_weights(pairs)
}

/// P(a hand of `n` dealt from `cards` holds at least one hit card), as a reduced fraction.
///
/// # Errors
/// As [`best_of`].
pub fn p_hand_has_hit(cards: &[Card], n: u32) -> Result<(u128, u128), DiceError> {
    let total = cards.len() as u32;
    if n == 0 || n > total {
        return Err(DiceError::Empty);
    }
    let plain = cards.iter().filter(|c| !c.hit).count() as u32;
    let all = choose(total, n).ok_or(DiceError::Overflow)?;
    let none = choose(plain, n).ok_or(DiceError::Overflow)?;
    let d = Dist::from_weights([(1, all - none), (0, none)])?;
    Ok(d.ratio(1))
}

/// The exact distribution of `f(x, y)` for independent `x ~ a`, `y ~ b`: e.g. the best card of
/// an attacking hand against the best card of a parrying hand dealt from separate decks, with
/// `f` the attack total.
///
/// # Errors
/// [`DiceError::Overflow`] if the product weights do not fit `u128`.
pub fn pairwise(a: &Dist, b: &Dist, f: impl Fn(i64, i64) -> i64) -> Result<Dist, DiceError> {
    let mut pairs = Vec::new();
    for (x, wx) in a.iter() {
        if wx == 0 {
            continue;
        }
        for (y, wy) in b.iter() {
            if wy == 0 {
                continue;
            }
            pairs.push((f(x, y), wx.checked_mul(wy).ok_or(DiceError::Overflow)?));
        }
    }
    Dist::from_weights(pairs)
}

#[cfg(test)]
mod tests;
