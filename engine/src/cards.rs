//! Cards, suits, ranks and the decks the catalog needs.
//!
//! A card is written as rank + suit (`TD` is the ten of diamonds, `JC` the jack of clubs);
//! jokers are `JK`, or `JK1`/`JK2` where a game tells two jokers apart. The tarot pack adds
//! the 1 of each suit (`1H`), the knight or "cavalier" (`CH`, between the jack and the queen),
//! the trumps `T1` to `T21` (no clash with the tens, which are `T` + a suit letter) and the
//! Excuse `EX`; its 2-10, jacks, queens and kings are the standard cards. Parsing is strict:
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
        Suit::ALL.into_iter().find(|s| s.name_en() == text || text.len() == 1 && text.starts_with(s.code())).ok_or_else(
            || serde::de::Error::custom(format!("unknown suit '{text}': expected clubs, diamonds, hearts or spades")),
        )
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
    Suited {
        rank: Rank,
        suit: Suit,
    },
    /// 0 is a plain joker (`JK`); 1 and 2 are told apart (`JK1`, `JK2`).
    Joker(u8),
    /// Tarot: the 1 of a suit (`1H`), the lowest card of its suit. It has no [`Rank`], since
    /// ranks run from 2 to the ace.
    One(Suit),
    /// Tarot: the knight, "cavalier" (`CH`), ranked between the jack and the queen. No [`Rank`].
    Knight(Suit),
    /// Tarot: a trump from 1 to 21 (`T1`..`T21`); trump 1 is the Petit. Build with
    /// [`Card::trump`], which refuses numbers outside 1-21.
    Trump(u8),
    /// Tarot: the Excuse (`EX`).
    Excuse,
}

impl Card {
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card::Suited { rank, suit }
    }

    /// Trump `n` of the tarot pack, for `n` from 1 to 21.
    pub fn trump(n: u8) -> Option<Card> {
        (1..=21).contains(&n).then_some(Card::Trump(n))
    }

    /// The suit of a suited card (tarot 1s and knights included); `None` for jokers, tarot
    /// trumps and the Excuse.
    pub fn suit(self) -> Option<Suit> {
        match self {
            Card::Suited { suit, .. } | Card::One(suit) | Card::Knight(suit) => Some(suit),
            Card::Joker(_) | Card::Trump(_) | Card::Excuse => None,
        }
    }

    /// The rank of a standard card; `None` for jokers and for the tarot cards the standard
    /// pack lacks (1s, knights, trumps, the Excuse).
    pub fn rank(self) -> Option<Rank> {
        match self {
            Card::Suited { rank, .. } => Some(rank),
            _ => None,
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
            Card::One(suit) => write!(f, "1{}", suit.code()),
            Card::Knight(suit) => write!(f, "C{}", suit.code()),
            Card::Trump(n) => write!(f, "T{n}"),
            Card::Excuse => f.write_str("EX"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCard(pub String);

impl fmt::Display for UnknownCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown card code '{}': a card is a rank (2-9, T, J, Q, K, A) followed by a suit (C, D, H, S), or JK, JK1, JK2; tarot adds 1 and C (knight) before a suit, T1 to T21 and EX",
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
            "EX" => return Ok(Card::Excuse),
            _ => {}
        }
        if let Some(number) = s.strip_prefix('T').filter(|n| n.starts_with(|c: char| c.is_ascii_digit())) {
            // Digits only, no leading zero, 1 to 21: "T01", "T0" and "T22" are not cards.
            if number.len() > 2 || number.starts_with('0') || !number.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err());
            }
            return number.parse().ok().and_then(Card::trump).ok_or_else(err);
        }
        let mut chars = s.chars();
        let (Some(r), Some(su), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(err());
        };
        let suit = Suit::from_code(su).ok_or_else(err)?;
        match r {
            '1' => Ok(Card::One(suit)),
            'C' => Ok(Card::Knight(suit)),
            _ => Ok(Card::new(Rank::from_code(r).ok_or_else(err)?, suit)),
        }
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
        Suit::ALL.into_iter().flat_map(|suit| Rank::from_up(low).map(move |rank| Card::new(rank, suit))).collect()
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

    /// The 78-card tarot pack: each suit from the 1 up (1-10, jack, knight, queen, king), then
    /// trumps 1 to 21 and the Excuse.
    pub fn tarot78() -> Vec<Card> {
        let mut deck: Vec<Card> = Suit::ALL
            .into_iter()
            .flat_map(|suit| {
                std::iter::once(Card::One(suit)).chain((2..=10).map(move |v| Card::new(Rank(v), suit))).chain([
                    Card::new(Rank::JACK, suit),
                    Card::Knight(suit),
                    Card::new(Rank::QUEEN, suit),
                    Card::new(Rank::KING, suit),
                ])
            })
            .collect();
        deck.extend((1..=21).map(Card::Trump));
        deck.push(Card::Excuse);
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

/// True when every card of `part` is in `whole`, each at most as often as `whole` has it (as
/// multisets: `part` is a sub-multiset of `whole`).
pub fn is_part_of(part: &[Card], whole: &[Card]) -> bool {
    let mut rest = whole.to_vec();
    part.iter().all(|c| take_card(&mut rest, *c))
}

/// A hand in the order a player holds it: by suit, then by rank.
pub fn sort_hand(hand: &mut [Card]) {
    hand.sort_by_key(|c| (c.suit(), c.rank()));
}

/// `hand` sorted as a player holds it.
pub fn sorted(mut hand: Vec<Card>) -> Vec<Card> {
    sort_hand(&mut hand);
    hand
}

/// A card's rank as a number (two to fourteen, ace high), 0 for a card without one.
pub fn rank_value(card: Card) -> u8 {
    card.rank().map_or(0, |r| r.value())
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
        for bad in ["", "1X", "10D", "TX", "tD", "QSS", "JK3", "X", "🂡", "AD "] {
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
    fn the_tarot_pack_has_78_distinct_cards_that_round_trip() {
        let deck = decks::tarot78();
        assert_eq!(deck.len(), 78);
        let mut codes: Vec<String> = deck.iter().map(|c| c.to_string()).collect();
        for (c, code) in deck.iter().zip(&codes) {
            assert_eq!(code.parse::<Card>().unwrap(), *c, "{code}");
            let json = serde_json::to_string(c).unwrap();
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), *c);
        }
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), 78, "codes are distinct");
        assert_eq!(card("1H"), Card::One(Suit::Hearts));
        assert_eq!(card("CS"), Card::Knight(Suit::Spades));
        assert_eq!(card("T1"), Card::Trump(1));
        assert_eq!(card("T21"), Card::Trump(21));
        assert_eq!(card("EX"), Card::Excuse);
        assert_eq!(card("CH").suit(), Some(Suit::Hearts));
        assert_eq!(card("1D").suit(), Some(Suit::Diamonds));
        assert_eq!((card("T5").suit(), card("EX").suit(), card("CH").rank()), (None, None, None));
        // 2-10, jacks, queens and kings are the standard cards; the tarot has no ace.
        assert!(deck.contains(&card("TD")) && deck.contains(&card("JC")) && deck.contains(&card("KS")));
        assert!(!deck.iter().any(|c| c.rank() == Some(Rank::ACE)));
        assert_eq!(Card::trump(0), None);
        assert_eq!(Card::trump(22), None);
        assert_eq!(Card::trump(7), Some(card("T7")));
    }

    #[test]
    fn tarot_codes_leave_the_standard_codes_as_they_were_and_stay_strict() {
        // The tens are still `T` + a suit letter, and every old code prints as before.
        assert_eq!(card("TH"), Card::new(Rank::TEN, Suit::Hearts));
        for c in decks::with_jokers(decks::standard52(), &[card("JK"), card("JK1"), card("JK2")]) {
            let code = c.to_string();
            assert_eq!(code.parse::<Card>().unwrap(), c);
            assert!(matches!(c, Card::Suited { .. } | Card::Joker(_)), "{code}");
        }
        for bad in [
            "T0", "T22", "T01", "T1 ", "T", "T100", "T-1", "T+1", "t1", "T1H", "EX1", "Ex", "ex", "E", "1X", "11H",
            "C1", "CX", "0H", "1", "C", "T١",
        ] {
            assert!(bad.parse::<Card>().is_err(), "{bad:?} parsed");
        }
        let found = crate::game::cards_in(&serde_json::json!({"a": ["T21", "EX", "CH", "1S", "T22", "tarot.rule"]}));
        assert_eq!(found, cards("T21 EX CH 1S"));
    }

    #[test]
    fn jokers_have_their_own_codes() {
        assert_eq!(card("JK").to_string(), "JK");
        assert_eq!(card("JK2").to_string(), "JK2");
        assert_eq!(card("JK1").suit(), None);
    }
}
