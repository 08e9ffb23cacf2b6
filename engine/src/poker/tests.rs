use std::cmp::Ordering;

use super::*;
use crate::cards::{cards, decks};
use crate::random::Rng;

fn r(codes: &str) -> HandRank {
    rank(&cards(codes), Hands::Standard)
}

fn soko(codes: &str) -> HandRank {
    rank(&cards(codes), Hands::Soko)
}

// ---------------------------------------------------------------------------------------------
// A reference ranker, written apart from `rank` and by another method: every hand is read as
// its sorted rank values and suit letters, and each category is tested by looking at those
// lists directly (the straight by walking the sorted distinct values, the wheel by its five
// values), giving (category number, tie-break list).

fn reference(hand: &[Card]) -> (u8, Vec<u8>) {
    let mut values: Vec<u8> = hand.iter().map(|c| c.rank().unwrap().value()).collect();
    values.sort_unstable();
    let suits: Vec<char> = hand.iter().map(|c| c.suit().unwrap().code()).collect();
    let same_suit = suits.iter().all(|&s| s == suits[0]);
    let mut distinct = values.clone();
    distinct.dedup();
    let in_a_row = distinct.len() == 5 && distinct[4] - distinct[0] == 4;
    let wheel = distinct == [2, 3, 4, 5, 14];
    let straight_high = if in_a_row {
        Some(distinct[4])
    } else if wheel {
        Some(5)
    } else {
        None
    };
    // (how many, value) pairs, most copies first, then the higher value.
    let mut tally: Vec<(usize, u8)> =
        distinct.iter().map(|&v| (values.iter().filter(|&&x| x == v).count(), v)).collect();
    tally.sort_by(|a, b| b.cmp(a));
    let counts: Vec<usize> = tally.iter().map(|t| t.0).collect();
    let order: Vec<u8> = tally.iter().map(|t| t.1).collect();
    match (straight_high, same_suit, counts.as_slice()) {
        (Some(h), true, _) => (8, vec![h]),
        (_, _, [4, 1]) => (7, order),
        (_, _, [3, 2]) => (6, order),
        (None, true, _) => (5, order),
        (Some(h), false, _) => (4, vec![h]),
        (_, _, [3, 1, 1]) => (3, order),
        (_, _, [2, 2, 1]) => (2, order),
        (_, _, [2, 1, 1, 1]) => (1, order),
        _ => (0, order),
    }
}

fn standard_number(c: Category) -> u8 {
    match c {
        Category::HighCard => 0,
        Category::OnePair => 1,
        Category::TwoPairs => 2,
        Category::ThreeOfAKind => 3,
        Category::Straight => 4,
        Category::Flush => 5,
        Category::FullHouse => 6,
        Category::FourOfAKind => 7,
        Category::StraightFlush => 8,
        Category::FourStraight | Category::FourFlush => panic!("no sökö hands in standard poker"),
    }
}

fn random_hand(rng: &mut Rng) -> Vec<Card> {
    let mut pack = decks::standard52();
    for i in 0..5 {
        let j = i + rng.below(52 - i);
        pack.swap(i, j);
    }
    pack.truncate(5);
    pack
}

#[test]
fn the_ranking_agrees_with_the_reference_on_100_000_random_hands() {
    let mut rng = Rng::new(20261129);
    type Ranked = (Vec<Card>, HandRank, (u8, Vec<u8>));
    let mut previous: Option<Ranked> = None;
    for _ in 0..100_000 {
        let hand = random_hand(&mut rng);
        let ours = rank(&hand, Hands::Standard);
        let theirs = reference(&hand);
        assert_eq!(standard_number(ours.category), theirs.0, "{hand:?}");
        // Every hand compared with the one before: both rankers order the two alike.
        if let Some((other, ours_before, theirs_before)) = &previous {
            let a = ours.cmp(ours_before);
            let b = theirs.cmp(theirs_before);
            assert_eq!(a, b, "{hand:?} against {other:?}: {ours:?} / {ours_before:?}");
        }
        previous = Some((hand, ours, theirs));
    }
}

/// The category counts of all 2,598,960 hands, as every table of poker odds has them (a second
/// or less in the test profile, so it runs by default).
#[test]
fn every_hand_counted_by_category() {
    let pack = decks::standard52();
    let mut counts = [0u64; 11];
    let mut royals = 0u64;
    for a in 0..52 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for d in c + 1..52 {
                    for e in d + 1..52 {
                        let h = rank(&[pack[a], pack[b], pack[c], pack[d], pack[e]], Hands::Standard);
                        counts[h.category as usize] += 1;
                        royals += u64::from(h.is_royal());
                    }
                }
            }
        }
    }
    let at = |c: Category| counts[c as usize];
    assert_eq!(at(Category::StraightFlush), 40);
    assert_eq!(royals, 4);
    assert_eq!(at(Category::FourOfAKind), 624);
    assert_eq!(at(Category::FullHouse), 3_744);
    assert_eq!(at(Category::Flush), 5_108);
    assert_eq!(at(Category::Straight), 10_200);
    assert_eq!(at(Category::ThreeOfAKind), 54_912);
    assert_eq!(at(Category::TwoPairs), 123_552);
    assert_eq!(at(Category::OnePair), 1_098_240);
    assert_eq!(at(Category::HighCard), 1_302_540);
    assert_eq!(counts.iter().sum::<u64>(), 2_598_960);
}

/// The same enumeration over one suit's thirteen ranks and the other suits' cards thinned out
/// keeps a quick exhaustive check in the default run: every hand of the 20 cards ten to ace
/// (15,504 hands) by category, counted by hand from the combinatorics of a 5-rank, 4-suit pack.
#[test]
fn every_hand_of_the_twenty_high_cards_counted_by_category() {
    let pack: Vec<Card> = decks::standard52().into_iter().filter(|c| rank_value(*c) >= 10).collect();
    assert_eq!(pack.len(), 20);
    let mut counts = [0u64; 11];
    for a in 0..20 {
        for b in a + 1..20 {
            for c in b + 1..20 {
                for d in c + 1..20 {
                    for e in d + 1..20 {
                        let h = rank(&[pack[a], pack[b], pack[c], pack[d], pack[e]], Hands::Standard);
                        counts[h.category as usize] += 1;
                        let theirs = reference(&[pack[a], pack[b], pack[c], pack[d], pack[e]]);
                        assert_eq!(standard_number(h.category), theirs.0);
                    }
                }
            }
        }
    }
    let at = |c: Category| counts[c as usize];
    // Five ranks: the only straight is T-A, 4 of them royal, 4^5 - 4 plain ones.
    assert_eq!(at(Category::StraightFlush), 4);
    assert_eq!(at(Category::Straight), 1024 - 4);
    // Four of a kind: 5 ranks x 16 other cards; full house: 5 x 4 x 4 x 6.
    assert_eq!(at(Category::FourOfAKind), 80);
    assert_eq!(at(Category::FullHouse), 480);
    // Five distinct ranks are always the straight, so no flush and no high card.
    assert_eq!(at(Category::Flush), 0);
    assert_eq!(at(Category::HighCard), 0);
    assert_eq!(counts.iter().sum::<u64>(), 15_504);
}

#[test]
fn the_texts_examples_order_as_the_text_says() {
    // A pair of queens with ace-6-3 beats the same pair with king-jack-ten.
    assert!(r("QH QS AD 6C 3C") > r("QD QC KH JS TS"));
    // Aces up over threes beats kings and queens with an ace.
    assert!(r("AH AS 3D 3C 2C") > r("KH KS QD QC AD"));
    // The lowest straight is ace to five, the highest ten to ace.
    let wheel = r("AH 2S 3D 4C 5C");
    assert_eq!(wheel.category, Category::Straight);
    assert_eq!(wheel.ranks[0], 5);
    assert!(wheel < r("2H 3S 4D 5C 6C"));
    assert!(r("TH JS QD KC AC") > r("9H TS JD QC KC"));
    // The ace is low in a straight flush too, and ten to ace in a suit is the royal.
    assert_eq!(r("AH 2H 3H 4H 5H").category, Category::StraightFlush);
    assert!(!r("AH 2H 3H 4H 5H").is_royal());
    assert!(r("TS JS QS KS AS").is_royal());
    assert!(r("TS JS QS KS AS") > r("9H TH JH QH KH"));
    // No wrapping round the ace.
    assert_eq!(r("QH KS AD 2C 3C").category, Category::HighCard);
    // Flushes by the highest card, then the next.
    assert!(r("AH 9H 7H 5H 3H") > r("KS QS JS 9S 7S"));
    assert!(r("AH 9H 7H 5H 4H") > r("AS 9S 7S 5S 3S"));
    // Full houses by the triple.
    assert!(r("3H 3S 3D 2C 2D") > r("2H 2S 2C AD AC"));
    // The order of categories, one above the other.
    let ladder = [
        "AH KS 9D 5C 3C",
        "2H 2S 3D 4C 6C",
        "2H 2S 3D 3C 4C",
        "2H 2S 2D 3C 4C",
        "AH 2S 3D 4C 5C",
        "2H 3H 4H 5H 7H",
        "2H 2S 2D 3C 3D",
        "2H 2S 2D 2C 3D",
        "AH 2H 3H 4H 5H",
    ];
    for w in ladder.windows(2) {
        assert!(r(w[0]) < r(w[1]), "{} < {}", w[0], w[1]);
    }
    // Suits never decide: the same ranks tie.
    assert_eq!(r("AH KS 9D 5C 3C").cmp(&r("AS KH 9C 5D 3D")), Ordering::Equal);
    // Names as said at the table.
    assert_eq!(r("2H 2S 2D 3C 3D").name_sv(), "kåk");
    assert_eq!(r("TS JS QS KS AS").name_en(), "royal straight flush");
}

#[test]
fn fewer_cards_rank_by_pairs_and_high_cards_only() {
    // Stud poker's up cards: 8-8 speaks before Q-7, which speaks before Q-4, before J-10.
    let order = ["8H 8S", "QD 7C", "QH 4S", "JD TC"];
    for w in order.windows(2) {
        assert!(r(w[0]) > r(w[1]), "{} > {}", w[0], w[1]);
    }
    assert_eq!(r("2H 3H 4H 5H").category, Category::HighCard);
    assert_eq!(r("KH").ranks, [13, 0, 0, 0, 0]);
}

#[test]
fn soko_puts_four_straights_and_four_flushes_between_one_pair_and_two_pairs() {
    let pair = soko("AH AS KD 9C 2C");
    let four_straight = soko("3H 4S 5D 6C KC");
    let four_flush = soko("2H 5H 9H JH KC");
    let two_pairs = soko("2H 2S 3D 3C 4C");
    assert_eq!(four_straight.category, Category::FourStraight);
    assert_eq!(four_flush.category, Category::FourFlush);
    assert!(pair < four_straight && four_straight < four_flush && four_flush < two_pairs);
    // Without sökö they are nothing special.
    assert_eq!(r("3H 4S 5D 6C KC").category, Category::HighCard);
    // A four-straight-flush is a four-flush.
    assert_eq!(soko("3H 4H 5H 6H KC").category, Category::FourFlush);
    // The ace low or high in a four-straight; a pair in it still makes the four-straight.
    assert_eq!(soko("AH 2S 3D 4C 9C").ranks, [4, 3, 2, 1, 9]);
    assert_eq!(soko("JH QS KD AC 2C").ranks, [14, 13, 12, 11, 2]);
    assert_eq!(soko("3H 4S 5D 6C 6D").category, Category::FourStraight);
    // The four cards from the highest down, then the fifth (rules-notes).
    assert!(soko("3H 4S 5D 6C KC") < soko("4H 5S 6D 7C 2C"));
    assert!(soko("3H 4S 5D 6C KC") > soko("3D 4C 5H 6S QC"));
    assert!(soko("2H 5H 9H JH KC") < soko("2S 5S 9S QS 3C"));
    assert!(soko("2H 5H 9H JH KC") > soko("2S 5S 9S JS QC"));
    // Real hands above them are unchanged.
    assert_eq!(soko("2H 3H 4H 5H 7H").category, Category::Flush);
    assert_eq!(soko("2H 3S 4D 5C 6C").category, Category::Straight);
}

#[test]
fn chicago_pays_by_category_and_52_for_the_royal() {
    let cases = [
        ("AH KS 9D 5C 3C", 0),
        ("2H 2S 3D 4C 6C", 1),
        ("2H 2S 3D 3C 4C", 2),
        ("2H 2S 2D 3C 4C", 3),
        ("AH 2S 3D 4C 5C", 4),
        ("2H 3H 4H 5H 7H", 5),
        ("2H 2S 2D 3C 3D", 6),
        ("2H 2S 2D 2C 3D", 7),
        ("9H TH JH QH KH", 8),
        ("TH JH QH KH AH", 52),
    ];
    for (hand, points) in cases {
        assert_eq!(chicago_points(&r(hand)), points, "{hand}");
    }
}
