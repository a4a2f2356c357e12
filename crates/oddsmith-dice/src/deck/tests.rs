//! Deck tests: draws without replacement, reshuffles counted over long runs, and the exact
//! tables of the cards digest §7.0–7.3 and §7.7–7.8 (fractions compared exactly).

use super::*;
use crate::stream;

fn d() -> Vec<Card> {
    d44(true)
}

#[test]
fn d44_composition() {
    let c = d();
    assert_eq!(c.len(), 44);
    assert_eq!(c.iter().filter(|c| c.hit).count(), 12);
    assert_eq!(c.iter().map(|c| i32::from(c.value)).sum::<i32>(), 0);
    assert_eq!(c.iter().filter(|c| c.value == 3).count(), 4);
    assert_eq!(c.iter().filter(|c| c.value == -5).count(), 2);
    assert_eq!(c.iter().filter(|c| c.value == 10).count(), 1);
    assert_eq!(d44(false).len(), 42);
}

#[test]
fn card_parse_and_display() {
    assert_eq!("+3h".parse::<Card>().unwrap(), Card::hit(3));
    assert_eq!("-2".parse::<Card>().unwrap(), Card::plain(-2));
    assert_eq!("0".parse::<Card>().unwrap(), Card::plain(0));
    assert!("x".parse::<Card>().is_err());
    assert_eq!(Card::hit(-2).to_string(), "-2h");
}

/// A deck of 44 distinct values, so every card can be told apart.
fn distinct() -> Vec<Card> {
    (0..44).map(|v| Card::plain(v as i8)).collect()
}

#[test]
fn draws_are_without_replacement_and_reshuffle_when_empty() {
    let mut deck = Deck::new(&distinct()).unwrap();
    let mut rng = stream(7, 0);
    for cycle in 0..200u32 {
        let mut seen = [false; 44];
        for _ in 0..44 {
            let c = deck.draw(&mut rng).unwrap();
            assert!(!seen[c.value as usize], "card {c} drawn twice in one pass");
            seen[c.value as usize] = true;
            deck.discard_out();
        }
        assert!(seen.iter().all(|&s| s));
        // The stock ran out at the end of the pass; the next draw reshuffles.
        assert_eq!(deck.stock(), 0);
        assert_eq!(deck.reshuffles(), cycle);
    }
}

#[test]
fn cards_out_are_not_reshuffled() {
    let mut rng = stream(8, 0);
    for _ in 0..500 {
        let mut deck = Deck::new(&distinct()).unwrap();
        let mut held = [false; 44];
        for _ in 0..5 {
            held[deck.draw(&mut rng).unwrap().value as usize] = true;
        }
        // Draw the rest, discarding as we go, then keep drawing past the reshuffle.
        for _ in 0..39 {
            deck.draw(&mut rng).unwrap();
            // Keep the five held cards out: only the newest card goes to the discards.
            deck.discard_last();
        }
        assert_eq!(deck.stock(), 0);
        let mut again = [false; 44];
        for _ in 0..39 {
            let c = deck.draw(&mut rng).unwrap();
            assert!(!held[c.value as usize], "a held card came back");
            assert!(!again[c.value as usize]);
            again[c.value as usize] = true;
        }
        assert_eq!(deck.reshuffles(), 1);
        assert_eq!(deck.out(), 44);
        assert_eq!(deck.draw(&mut rng), None);
    }
}

#[test]
fn discard_out_except_keeps_the_showing_cards_out() {
    let mut rng = stream(10, 0);
    for _ in 0..200 {
        let mut deck = Deck::new(&distinct()).unwrap();
        let row: Vec<Card> = (0..3).map(|_| deck.draw(&mut rng).unwrap()).collect();
        for _ in 0..5 {
            deck.draw(&mut rng).unwrap();
        }
        // Keep the row (and ignore a card that is not out).
        deck.discard_out_except(&[row[2], Card::plain(99), row[0], row[1]]);
        assert_eq!((deck.out(), deck.discarded()), (3, 5));
        // The row never comes back, through any number of reshuffles.
        for _ in 0..200 {
            let c = deck.draw(&mut rng).unwrap();
            assert!(!row.contains(&c), "a showing card came back");
            deck.discard_out_except(&row);
        }
    }
}

#[test]
fn reset_gathers_everything_and_draw_card_stacks() {
    let mut deck = Deck::new(&d()).unwrap();
    let mut rng = stream(9, 0);
    for _ in 0..10 {
        deck.draw(&mut rng);
    }
    deck.discard_out();
    deck.reset();
    assert_eq!((deck.stock(), deck.out(), deck.discarded()), (44, 0, 0));
    assert!(deck.draw_card(Card::plain(10)));
    assert!(!deck.draw_card(Card::plain(10)));
    assert_eq!(deck.out(), 1);
}

#[test]
fn first_card_is_uniform_over_the_stock() {
    // Each of 44 distinct cards is first 1/44 of the time: within 4σ at a fixed seed.
    let n = 220_000u32;
    let mut counts = [0u32; 44];
    let mut rng = stream(10, 0);
    let mut deck = Deck::new(&distinct()).unwrap();
    for _ in 0..n {
        deck.reset();
        counts[deck.draw(&mut rng).unwrap().value as usize] += 1;
    }
    let p = 1.0 / 44.0;
    let sd = (f64::from(n) * p * (1.0 - p)).sqrt();
    for c in counts {
        assert!((f64::from(c) - f64::from(n) * p).abs() < 4.5 * sd, "{c}");
    }
}

#[test]
fn best_of_matches_digest_7_1_and_7_2() {
    let c = d();
    let b1 = best_of(&c, 1).unwrap();
    assert_eq!(b1.ratio(-10), (1, 44));
    assert_eq!(b1.ratio(0), (1, 22));
    assert_eq!(b1.ratio(3), (1, 11));
    let b3 = best_of(&c, 3).unwrap();
    assert_eq!(b3.ratio(3), (1025, 6622));
    assert_eq!(b3.ratio(-8), (1, 13244));
    assert_eq!(b3.ratio(5), (1369, 13244));
    let b6 = best_of(&c, 6).unwrap();
    assert_eq!(b6.ratio(-3), (408, 1764763));
    assert_eq!(b6.ratio(10), (3, 22));
    // §7.2 P(best ≥ v).
    assert_eq!(best_of(&c, 4).unwrap().ratio_at_least(4), (1083, 1763));
    assert_eq!(best_of(&c, 5).unwrap().ratio_at_least(7), (53500, 135751));
    assert_eq!(best_of(&c, 2).unwrap().ratio_at_least(1), (63, 86));
    assert_eq!(best_of(&c, 3).unwrap().ratio_at_least(1), (149, 172));
}

/// E[best] as an exact fraction.
fn mean_ratio(d: &Dist) -> (i128, u128) {
    let num: i128 = d.iter().map(|(v, w)| i128::from(v) * w as i128).sum();
    let den = d.total();
    let g = {
        let (mut a, mut b) = (num.unsigned_abs(), den);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a.max(1)
    };
    (num / g as i128, den / g)
}

#[test]
fn expected_best_and_hit_cards_match_digest_7_3() {
    let c = d();
    let want = [
        ((0, 1), (3, 11)),
        ((1262, 473), (225, 473)),
        ((1893, 473), (2071, 3311)),
        ((661737, 135751), (99791, 135751)),
        ((1497715, 271502), (15797, 19393)),
        ((10625315, 1764763), (219745, 252109)),
    ];
    for (n, (e, h)) in (1..=6).zip(want) {
        assert_eq!(mean_ratio(&best_of(&c, n).unwrap()), e, "E[best] N={n}");
        assert_eq!(p_hand_has_hit(&c, n).unwrap(), h, "hit card N={n}");
    }
}

/// P(attack hits): attacker best of `na` + `aa` against a parry best of `nd` + `pp`.
fn p_hit(na: u32, nd: u32, aa: i64, pp: i64) -> (u128, u128) {
    let c = d();
    let a = best_of(&c, na).unwrap();
    let b = best_of(&c, nd).unwrap();
    pairwise(&a, &b, |x, y| x + aa - (y + pp).max(0))
        .unwrap()
        .ratio_at_least(1)
}

#[test]
fn attack_vs_parry_matches_digest_7_7_and_7_8() {
    assert_eq!(p_hit(1, 1, 0, 0), (673, 1936));
    assert_eq!(p_hit(2, 2, 0, 0), (386163, 894916));
    assert_eq!(p_hit(4, 4, 0, 0), (8307658019, 18428334001));
    assert_eq!(p_hit(3, 2, 1, 0), (7852027, 12528824));
    assert_eq!(p_hit(1, 1, 0, -2), (49, 121));
    assert_eq!(p_hit(4, 4, 0, -3), (12907824091, 18428334001));
    assert_eq!(p_hit(2, 3, 1, -3), (1916701, 3132206));
    // §7.7: a fixed attack card +5 against the best of two.
    let fixed = Dist::constant(5);
    let b2 = best_of(&d(), 2).unwrap();
    let p = pairwise(&fixed, &b2, |x, y| x - y.max(0)).unwrap();
    assert_eq!(p.ratio_at_least(1), (333, 473));
}

#[test]
fn monte_carlo_best_of_three_within_4_sigma() {
    let c = d();
    let exact = best_of(&c, 3).unwrap();
    let n = 200_000u32;
    let mut deck = Deck::new(&c).unwrap();
    let mut rng = stream(11, 0);
    let mut at_least_4 = 0u32;
    for _ in 0..n {
        deck.reset();
        let best = (0..3)
            .map(|_| deck.draw(&mut rng).unwrap().value)
            .max()
            .unwrap();
        at_least_4 += u32::from(best >= 4);
    }
    let p = exact.p_at_least(4);
    let sd = (p * (1.0 - p) / f64::from(n)).sqrt();
    let got = f64::from(at_least_4) / f64::from(n);
    assert!((got - p).abs() < 4.0 * sd, "{got} vs {p}");
}

#[test]
fn hand_best_worst_take() {
    let mut h = Hand::of(&[
        Card::hit(3),
        Card::plain(-2),
        Card::plain(10),
        Card::plain(3),
    ]);
    assert_eq!(h.best(), Some(2));
    assert_eq!(h.worst(), Some(1));
    assert_eq!(h.kth_best(1), Some(0)); // the +3 hit card before the plain +3
    assert_eq!(h.take(2), Card::plain(10));
    assert_eq!(h.cards(), &[Card::hit(3), Card::plain(-2), Card::plain(3)]);
    assert_eq!(h.best(), Some(0));
}

/// The hand's picks against their definitions by sorting (the implementation before the
/// cards duel was optimised): best and worst the first of equal cards, `kth_best` the order
/// of (card descending, position), `take` keeping the order; over many random hands with
/// repeated cards, hit and plain cards of equal value among them.
#[test]
fn hand_picks_match_their_sorted_definitions() {
    let mut rng = stream(7, 0);
    let pool = [
        Card::plain(-3),
        Card::hit(-3),
        Card::plain(0),
        Card::plain(2),
        Card::hit(2),
        Card::plain(5),
    ];
    for _ in 0..20_000 {
        let n = 1 + crate::uniform_below(&mut rng, MAX_HAND as u64) as usize;
        let cards: Vec<Card> = (0..n)
            .map(|_| pool[crate::uniform_below(&mut rng, pool.len() as u64) as usize])
            .collect();
        let h = Hand::of(&cards);
        let best = (0..n).max_by_key(|&i| (cards[i], std::cmp::Reverse(i)));
        let worst = (0..n).min_by_key(|&i| (cards[i], i));
        assert_eq!(h.best(), best, "{cards:?}");
        assert_eq!(h.worst(), worst, "{cards:?}");
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(cards[i]), i));
        for k in 0..=n {
            assert_eq!(h.kth_best(k), order.get(k).copied(), "{cards:?} k {k}");
        }
        let i = crate::uniform_below(&mut rng, n as u64) as usize;
        let mut taken = h;
        let mut rest = cards.clone();
        assert_eq!(taken.take(i), rest.remove(i));
        assert_eq!(taken.cards(), &rest[..]);
    }
    assert_eq!(Hand::new().best(), None);
    assert_eq!(Hand::new().worst(), None);
}

/// `deal_with` against `draw_with` and `push` one card at a time, on copies of one stream:
/// the same hand, the same deck (stock, out, discards, reshuffles) and the same stream after
/// each deal, over hands into an empty or part-filled hand, decks that run out and reshuffle,
/// decks with every card out, and hands that overflow.
#[test]
fn dealing_draws_the_cards_of_one_draw_after_another() {
    let mut rng = stream(11, 0);
    for trial in 0..20_000 {
        let size = 2 + crate::uniform_below(&mut rng, 20) as usize;
        let cards: Vec<Card> = d()[..size].to_vec();
        let mut deck = Deck::new(&cards).unwrap();
        let mut hand = Hand::new();
        // Some history: draws, discards, cards kept out.
        for _ in 0..crate::uniform_below(&mut rng, 40) {
            match crate::uniform_below(&mut rng, 4) {
                0 => deck.discard_out(),
                1 => deck.discard_last(),
                _ => {
                    let c = deck.draw(&mut rng);
                    if let Some(c) = c {
                        hand.push(c);
                    }
                }
            }
        }
        if trial % 3 == 0 {
            hand = Hand::new();
        }
        let n = crate::uniform_below(&mut rng, 24) as usize;
        let (mut d1, mut h1, mut r1) = (deck, hand, rng.clone());
        for _ in 0..n {
            if let Some(c) = d1.draw_with(|k| crate::uniform_below(&mut r1, u64::from(k)) as u32) {
                h1.push(c);
            }
        }
        let (mut d2, mut h2, mut r2) = (deck, hand, rng.clone());
        d2.deal_with(&mut h2, n, |k| {
            crate::uniform_below(&mut r2, u64::from(k)) as u32
        });
        assert_eq!((d1, h1), (d2, h2), "trial {trial}: {n} cards");
        assert_eq!(
            r1.next_u64(),
            r2.next_u64(),
            "trial {trial}: the stream after"
        );
        rng = r1;
    }
}

/// Taking a card the hand does not hold is a bug in the caller, not a stale card.
#[test]
#[should_panic(expected = "card 2 of a hand of 2")]
fn taking_past_the_hand_panics() {
    let mut h = Hand::of(&[Card::plain(1), Card::plain(2)]);
    h.take(2);
}
