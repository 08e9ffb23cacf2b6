//! Cards, suits, ranks and the decks the catalog needs.
//!
//! A card is written as rank + suit (`TD` is the ten of diamonds, `JC` the jack of clubs);
//! jokers are `JK`, or `JK1`/`JK2` where a game tells two jokers apart. Parsing is strict:
//! anything else is an error, never a panic.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub fn code(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    pub fn from_code(c: char) -> Option<Suit> {
        match c {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }

    pub fn name_en(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
            Suit::Hearts => "hearts",
            Suit::Spades => "spades",
        }
    }

    pub fn name_sv(self) -> &'static str {
        match self {
            Suit::Clubs => "klöver",
            Suit::Diamonds => "ruter",
            Suit::Hearts => "hjärter",
            Suit::Spades => "spader",
        }
    }
}

impl Serialize for Suit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name_en())
    }
}

impl<'de> Deserialize<'de> for Suit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Suit::ALL
            .into_iter()
            .find(|s| s.name_en() == text || text.len() == 1 && text.starts_with(s.code()))
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown suit '{text}': expected clubs, diamonds, hearts or spades"
                ))
            })
    }
}

/// A rank from 2 to 14 (ace high). Games that rank cards differently map ranks themselves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Rank(u8);

impl Rank {
    pub const TWO: Rank = Rank(2);
    pub const SIX: Rank = Rank(6);
    pub const SEVEN: Rank = Rank(7);
    pub const EIGHT: Rank = Rank(8);
    pub const NINE: Rank = Rank(9);
    pub const TEN: Rank = Rank(10);
    pub const JACK: Rank = Rank(11);
    pub const QUEEN: Rank = Rank(12);
    pub const KING: Rank = Rank(13);
    pub const ACE: Rank = Rank(14);

    pub fn new(value: u8) -> Option<Rank> {
        (2..=14).contains(&value).then_some(Rank(value))
    }

    pub fn value(self) -> u8 {
        self.0
    }

    pub fn is_court(self) -> bool {
        (11..=13).contains(&self.0)
    }

    pub fn code(self) -> char {
        b"??23456789TJQKA"[self.0 as usize] as char
    }

    pub fn from_code(c: char) -> Option<Rank> {
        "23456789TJQKA".find(c).map(|i| Rank(i as u8 + 2))
    }

    /// Ranks from `low` up to the ace.
    pub fn from_up(low: Rank) -> impl Iterator<Item = Rank> {
        (low.0..=14).map(Rank)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Card {
    Suited { rank: Rank, suit: Suit },
    /// 0 is a plain joker (`JK`); 1 and 2 are told apart (`JK1`, `JK2`).
    Joker(u8),
}

impl Card {
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card::Suited { rank, suit }
    }

    pub fn suit(self) -> Option<Suit> {
        match self {
            Card::Suited { suit, .. } => Some(suit),
            Card::Joker(_) => None,
        }
    }

    pub fn rank(self) -> Option<Rank> {
        match self {
            Card::Suited { rank, .. } => Some(rank),
            Card::Joker(_) => None,
        }
    }

    pub fn is_suit(self, suit: Suit) -> bool {
        self.suit() == Some(suit)
    }

    pub fn code(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Suited { rank, suit } => write!(f, "{}{}", rank.code(), suit.code()),
            Card::Joker(0) => f.write_str("JK"),
            Card::Joker(n) => write!(f, "JK{n}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCard(pub String);

impl fmt::Display for UnknownCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown card code '{}': a card is a rank (2-9, T, J, Q, K, A) followed by a suit (C, D, H, S), or JK, JK1, JK2",
            self.0
        )
    }
}

impl std::error::Error for UnknownCard {}

impl FromStr for Card {
    type Err = UnknownCard;

    fn from_str(s: &str) -> Result<Card, UnknownCard> {
        let err = || UnknownCard(s.chars().take(16).collect());
        match s {
            "JK" => return Ok(Card::Joker(0)),
            "JK1" => return Ok(Card::Joker(1)),
            "JK2" => return Ok(Card::Joker(2)),
            _ => {}
        }
        let mut chars = s.chars();
        let (Some(r), Some(su), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(err());
        };
        let rank = Rank::from_code(r).ok_or_else(err)?;
        let suit = Suit::from_code(su).ok_or_else(err)?;
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Shorthand for tests and tables: `card("QS")`. Panics on a bad code, so only for literals.
pub fn card(code: &str) -> Card {
    code.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Shorthand for a list of literal codes separated by spaces.
pub fn cards(codes: &str) -> Vec<Card> {
    codes.split_whitespace().map(card).collect()
}

/// The deck compositions the catalog needs, in a fixed canonical order (suits C D H S, ranks
/// low to high). The order only matters as the thing a shuffle permutes.
pub mod decks {
    use super::*;

    /// All four suits from `low` up to the ace: 52 cards from 2, 36 from 6, 32 from 7,
    /// 28 from 8, 24 from 9.
    pub fn from_rank(low: Rank) -> Vec<Card> {
        Suit::ALL
            .into_iter()
            .flat_map(|suit| Rank::from_up(low).map(move |rank| Card::new(rank, suit)))
            .collect()
    }

    pub fn standard52() -> Vec<Card> {
        from_rank(Rank::TWO)
    }

    /// Two packs shuffled together (104 cards): every card appears twice.
    pub fn double(deck: &[Card]) -> Vec<Card> {
        deck.iter().chain(deck.iter()).copied().collect()
    }

    pub fn with_jokers(mut deck: Vec<Card>, jokers: &[Card]) -> Vec<Card> {
        deck.extend_from_slice(jokers);
        deck
    }
}

/// True when `deck` is a rearrangement of `composition` (as multisets).
pub fn is_permutation(deck: &[Card], composition: &[Card]) -> bool {
    if deck.len() != composition.len() {
        return false;
    }
    let mut a = deck.to_vec();
    let mut b = composition.to_vec();
    a.sort();
    b.sort();
    a == b
}

/// Removes one copy of `card` from `hand`; false when the hand does not hold it.
pub fn take_card(hand: &mut Vec<Card>, card: Card) -> bool {
    match hand.iter().position(|&c| c == card) {
        Some(i) => {
            hand.remove(i);
            true
        }
        None => false,
    }
}

pub fn codes(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_standard_card_round_trips_through_its_code() {
        let deck = decks::standard52();
        assert_eq!(deck.len(), 52);
        for c in &deck {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), *c);
        }
        assert_eq!(card("TD"), Card::new(Rank::TEN, Suit::Diamonds));
        assert_eq!(card("JC"), Card::new(Rank::JACK, Suit::Clubs));
    }

    #[test]
    fn unknown_codes_are_errors_not_panics() {
        for bad in ["", "1C", "10D", "TX", "tD", "QSS", "JK3", "X", "🂡", "AD "] {
            assert!(bad.parse::<Card>().is_err(), "{bad:?} parsed");
        }
        let err = serde_json::from_str::<Card>("\"ZZ\"").unwrap_err();
        assert!(err.to_string().contains("unknown card code 'ZZ'"));
    }

    #[test]
    fn reduced_decks_have_the_sizes_the_catalog_needs() {
        assert_eq!(decks::from_rank(Rank::SIX).len(), 36);
        assert_eq!(decks::from_rank(Rank::SEVEN).len(), 32);
        assert_eq!(decks::from_rank(Rank::EIGHT).len(), 28);
        assert_eq!(decks::from_rank(Rank::NINE).len(), 24);
        assert_eq!(decks::double(&decks::standard52()).len(), 104);
        let with = decks::with_jokers(decks::standard52(), &[card("JK1"), card("JK2")]);
        assert_eq!(with.len(), 54);
    }

    #[test]
    fn jokers_have_their_own_codes() {
        assert_eq!(card("JK").to_string(), "JK");
        assert_eq!(card("JK2").to_string(), "JK2");
        assert_eq!(card("JK1").suit(), None);
    }
}
