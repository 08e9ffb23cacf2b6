//! Poker hands: the ranking of five cards (and of fewer, for the up cards of stud poker), shared
//! by Poker, Stötpoker and Chicago. A hand's [`HandRank`] orders hands as the table does:
//! category first (high card up to straight flush, the royal being the highest straight flush),
//! then the ranks that decide between hands of a category, kickers included. Suits never decide.
//! Sökö adds two hands between one pair and two pairs, the four-straight and the four-flush
//! ([`Hands::Soko`]). Chicago pays points by category ([`chicago_points`]).

use serde::{Deserialize, Serialize};

use crate::cards::{rank_value, Card, Suit};

/// The categories of hands, lowest first. `FourStraight` and `FourFlush` exist only in sökö.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = HandCategory))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    HighCard,
    OnePair,
    FourStraight,
    FourFlush,
    TwoPairs,
    ThreeOfAKind,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
}

impl Category {
    pub const ALL: [Category; 11] = [
        Category::HighCard,
        Category::OnePair,
        Category::FourStraight,
        Category::FourFlush,
        Category::TwoPairs,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// The Swedish name as said at the table.
    pub fn name_sv(self) -> &'static str {
        match self {
            Category::HighCard => "högsta kort",
            Category::OnePair => "ett par",
            Category::FourStraight => "fyrstraight",
            Category::FourFlush => "fyrflush",
            Category::TwoPairs => "två par",
            Category::ThreeOfAKind => "triss",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "kåk",
            Category::FourOfAKind => "fyrtal",
            Category::StraightFlush => "straight flush",
        }
    }

    pub fn name_en(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::OnePair => "one pair",
            Category::FourStraight => "four-straight",
            Category::FourFlush => "four-flush",
            Category::TwoPairs => "two pairs",
            Category::ThreeOfAKind => "three of a kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full house",
            Category::FourOfAKind => "four of a kind",
            Category::StraightFlush => "straight flush",
        }
    }
}

/// Which hands count: the standard ones, or sökö's with the four-straight and four-flush.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Hands {
    #[default]
    Standard,
    Soko,
}

/// A hand's place in the order of hands: compare two with `<`. `ranks` are the rank values (2 to
/// 14, the ace low in a five-high straight counted 1) that decide between hands of the category,
/// most significant first, zero-padded.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct HandRank {
    pub category: Category,
    pub ranks: [u8; 5],
}

impl HandRank {
    /// Ten to ace in one suit: the top straight flush, which Chicago pays apart.
    pub fn is_royal(&self) -> bool {
        self.category == Category::StraightFlush && self.ranks[0] == 14
    }

    /// The hand in words, as a player would call it ("kåk", "royal straight flush").
    pub fn name_sv(&self) -> &'static str {
        if self.is_royal() {
            "royal straight flush"
        } else {
            self.category.name_sv()
        }
    }

    pub fn name_en(&self) -> &'static str {
        if self.is_royal() {
            "royal straight flush"
        } else {
            self.category.name_en()
        }
    }
}

/// The rank bits of a five-card straight, its top card's value: a mask with the ace set twice
/// (bit 14 and bit 1) so that the wheel A-2-3-4-5 is five in a row topped by the five.
fn straight_top(mask: u16, length: u32) -> Option<u8> {
    let run = (1u16 << length) - 1;
    (length as u8..=14).rev().find(|&top| {
        let low = top + 1 - length as u8;
        (mask >> low) & run == run
    })
}

fn rank_mask(values: impl Iterator<Item = u8>) -> u16 {
    values.fold(0u16, |m, v| {
        let m = m | (1 << v);
        if v == 14 {
            m | 0b10
        } else {
            m
        }
    })
}

/// The rank of one to five cards (a stud table ranks the up cards shown so far). Straights and
/// flushes need five cards; sökö's four-card hands need four.
///
/// Panics on a card without a rank (a joker): poker is played with a standard pack.
pub fn rank(cards: &[Card], hands: Hands) -> HandRank {
    assert!(!cards.is_empty() && cards.len() <= 5, "a poker hand is one to five cards, not {}", cards.len());
    let values: Vec<u8> = cards.iter().map(|&c| rank_value(c)).collect();
    assert!(values.iter().all(|&v| v >= 2), "a poker hand holds only ranked cards: {cards:?}");
    // Groups of equal rank, the largest first and, among equal sizes, the highest.
    let mut counts = [0u8; 15];
    values.iter().for_each(|&v| counts[v as usize] += 1);
    let mut groups: Vec<(u8, u8)> =
        (2..=14u8).filter(|&v| counts[v as usize] > 0).map(|v| (counts[v as usize], v)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let by_groups = || {
        // Each rank once, the larger groups first: in a full house the triple decides, then
        // the pair; in two pairs the higher pair, the lower, then the kicker.
        let mut r = [0u8; 5];
        groups.iter().zip(r.iter_mut()).for_each(|(g, slot)| *slot = g.1);
        r
    };
    let suit_of = |c: &Card| c.suit().expect("ranked cards have suits");
    let five = cards.len() == 5;
    let mask = rank_mask(values.iter().copied());
    let flush = five && cards.iter().all(|c| suit_of(c) == suit_of(&cards[0]));
    let straight = if five && groups.len() == 5 { straight_top(mask, 5) } else { None };
    let top = |t: u8| [t, 0, 0, 0, 0];
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let made = match (straight, flush, &shape[..]) {
        (Some(t), true, _) => Some(HandRank { category: Category::StraightFlush, ranks: top(t) }),
        (_, _, [4, ..]) => Some(HandRank { category: Category::FourOfAKind, ranks: by_groups() }),
        (_, _, [3, 2]) => Some(HandRank { category: Category::FullHouse, ranks: by_groups() }),
        (_, true, _) => Some(HandRank { category: Category::Flush, ranks: by_groups() }),
        (Some(t), _, _) => Some(HandRank { category: Category::Straight, ranks: top(t) }),
        (_, _, [3, ..]) => Some(HandRank { category: Category::ThreeOfAKind, ranks: by_groups() }),
        (_, _, [2, 2, ..]) => Some(HandRank { category: Category::TwoPairs, ranks: by_groups() }),
        _ => None,
    };
    if let Some(hand) = made {
        return hand;
    }
    if hands == Hands::Soko && cards.len() >= 4 {
        if let Some(hand) = four_flush(cards).or_else(|| four_straight(&values, mask)) {
            return hand;
        }
    }
    let category = if shape.first() == Some(&2) { Category::OnePair } else { Category::HighCard };
    HandRank { category, ranks: by_groups() }
}

/// Four cards of one suit (a four-straight-flush is only a four-flush): the four from the
/// highest down, then the fifth card.
fn four_flush(cards: &[Card]) -> Option<HandRank> {
    let suit: Suit = Suit::ALL.into_iter().find(|&s| cards.iter().filter(|c| c.is_suit(s)).count() >= 4)?;
    let mut four: Vec<u8> = cards.iter().filter(|c| c.is_suit(suit)).map(|&c| rank_value(c)).collect();
    four.sort_unstable_by(|a, b| b.cmp(a));
    let mut rest: Vec<u8> = cards.iter().filter(|c| !c.is_suit(suit)).map(|&c| rank_value(c)).collect();
    rest.sort_unstable_by(|a, b| b.cmp(a));
    four.extend(rest);
    four.resize(5, 0);
    Some(HandRank { category: Category::FourFlush, ranks: four.try_into().expect("five ranks") })
}

/// Four ranks in a row (the ace high or low): the four from the highest down, then the fifth.
fn four_straight(values: &[u8], mask: u16) -> Option<HandRank> {
    let t = straight_top(mask, 4)?;
    let run: Vec<u8> = (0..4).map(|i| t - i).collect();
    // The fifth card: whichever card is left once one card of each rank of the run is taken.
    let mut rest = values.to_vec();
    for &v in &run {
        let v = if v == 1 { 14 } else { v };
        let i = rest.iter().position(|&x| x == v).expect("the run's ranks are held");
        rest.swap_remove(i);
    }
    let mut ranks = [0u8; 5];
    ranks[..4].copy_from_slice(&run);
    ranks[4] = rest.first().copied().unwrap_or(0);
    Some(HandRank { category: Category::FourStraight, ranks })
}

/// Chicago's points for the best hand: a pair 1, two pairs 2, three of a kind 3, a straight 4,
/// a flush 5, a full house 6, four of a kind 7, a straight flush 8 and a royal straight flush
/// 52 (which also wins the game at once); nothing for a high card.
pub fn chicago_points(hand: &HandRank) -> i64 {
    if hand.is_royal() {
        return 52;
    }
    match hand.category {
        Category::HighCard | Category::FourStraight | Category::FourFlush => 0,
        Category::OnePair => 1,
        Category::TwoPairs => 2,
        Category::ThreeOfAKind => 3,
        Category::Straight => 4,
        Category::Flush => 5,
        Category::FullHouse => 6,
        Category::FourOfAKind => 7,
        Category::StraightFlush => 8,
    }
}

#[cfg(test)]
mod tests;
