//! The tarot pack: trumps, the Excuse, card points, and who wins a trick.

use super::*;

pub const JACK: u8 = 11;
pub const KNIGHT: u8 = 12;
pub const QUEEN: u8 = 13;
pub const KING: u8 = 14;

/// A suit card's place in its suit: 1-10, then jack 11, knight 12, queen 13, king 14. `None`
/// for trumps, the Excuse and cards outside the tarot pack (aces, jokers).
pub fn suit_value(card: Card) -> Option<u8> {
    match card {
        Card::One(_) => Some(1),
        Card::Knight(_) => Some(KNIGHT),
        Card::Suited { rank, .. } => match rank.value() {
            v @ 2..=10 => Some(v),
            11 => Some(JACK),
            12 => Some(QUEEN),
            13 => Some(KING),
            _ => None,
        },
        _ => None,
    }
}

/// The suit card of `value` (1-14) in `suit`.
pub fn suit_card(suit: Suit, value: u8) -> Card {
    match value {
        1 => Card::One(suit),
        JACK => Card::new(Rank::JACK, suit),
        KNIGHT => Card::Knight(suit),
        QUEEN => Card::new(Rank::QUEEN, suit),
        KING => Card::new(Rank::KING, suit),
        v => Card::new(Rank::new(v).expect("2 to 10"), suit),
    }
}

pub fn trump_number(card: Card) -> Option<u8> {
    match card {
        Card::Trump(n) if (1..=21).contains(&n) => Some(n),
        _ => None,
    }
}

pub fn is_trump(card: Card) -> bool {
    trump_number(card).is_some()
}

pub const PETIT: Card = Card::Trump(1);
pub const TWENTY_ONE: Card = Card::Trump(21);
pub const EXCUSE: Card = Card::Excuse;

/// The three bouts: the Petit, the 21 and the Excuse.
pub fn is_bout(card: Card) -> bool {
    matches!(card, PETIT | TWENTY_ONE | EXCUSE)
}

pub fn is_king(card: Card) -> bool {
    suit_value(card) == Some(KING)
}

/// King, queen, knight or jack.
pub fn is_court(card: Card) -> bool {
    suit_value(card).is_some_and(|v| v >= JACK)
}

/// Card points in half points: bouts and kings 9, queens 7, knights 5, jacks 3, the rest 1.
pub fn half_points(card: Card) -> u32 {
    if is_bout(card) {
        return 9;
    }
    match suit_value(card) {
        Some(KING) => 9,
        Some(QUEEN) => 7,
        Some(KNIGHT) => 5,
        Some(JACK) => 3,
        _ => 1,
    }
}

pub fn half_points_of(cards: &[Card]) -> u32 {
    cards.iter().map(|&c| half_points(c)).sum()
}

/// Half points as a reader writes them: 101 is "50.5".
pub fn points_text(half: u32) -> String {
    if half.is_multiple_of(2) {
        format!("{}", half / 2)
    } else {
        format!("{}.5", half / 2)
    }
}

/// The card's place in [`decks::tarot78`]: suits C D H S from the 1 up, trumps, the Excuse.
pub fn index78(card: Card) -> Option<usize> {
    if let Some(v) = suit_value(card) {
        let suit = Suit::ALL.iter().position(|&s| Some(s) == card.suit())?;
        return Some(suit * 14 + v as usize - 1);
    }
    match card {
        Card::Excuse => Some(77),
        c => trump_number(c).map(|n| 55 + n as usize),
    }
}

pub(super) fn sort_hand(hand: &mut [Card]) {
    hand.sort_by_key(|&c| index78(c));
}

pub(super) fn suit_name(suit: Suit) -> (&'static str, &'static str) {
    (suit.name_sv(), suit.name_en())
}

/// What a trick is being played in: a suit, or trumps.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Led {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
    Trumps,
}

impl Led {
    pub(super) fn of(card: Card) -> Option<Led> {
        if is_trump(card) {
            return Some(Led::Trumps);
        }
        card.suit().map(|s| match s {
            Suit::Clubs => Led::Clubs,
            Suit::Diamonds => Led::Diamonds,
            Suit::Hearts => Led::Hearts,
            Suit::Spades => Led::Spades,
        })
    }

    pub(super) fn matches(self, card: Card) -> bool {
        Led::of(card) == Some(self)
    }

    pub(super) fn names(self) -> (&'static str, &'static str) {
        match self {
            Led::Trumps => ("trumf", "trumps"),
            Led::Clubs => suit_name(Suit::Clubs),
            Led::Diamonds => suit_name(Suit::Diamonds),
            Led::Hearts => suit_name(Suit::Hearts),
            Led::Spades => suit_name(Suit::Spades),
        }
    }
}

/// The suit (or trumps) of a trick: set by its first card other than the Excuse.
pub fn led_of(plays: &[(Seat, Card)]) -> Option<Led> {
    plays.iter().map(|&(_, c)| c).find(|&c| c != EXCUSE).and_then(Led::of)
}

pub(super) fn highest_trump(plays: &[(Seat, Card)]) -> Option<u8> {
    plays.iter().filter_map(|&(_, c)| trump_number(c)).max()
}

/// The cards of `hand` that may be played to a trick holding `plays`, by the duties to follow,
/// to trump and to overtrump. The Excuse may always be played.
pub fn playable(hand: &[Card], plays: &[(Seat, Card)]) -> Vec<Card> {
    let Some(led) = led_of(plays) else { return hand.to_vec() };
    let excuse = hand.iter().copied().filter(|&c| c == EXCUSE);
    if led != Led::Trumps {
        let follow: Vec<Card> = hand.iter().copied().filter(|&c| led.matches(c)).collect();
        if !follow.is_empty() {
            return follow.into_iter().chain(excuse).collect();
        }
    }
    let trumps: Vec<Card> = hand.iter().copied().filter(|&c| is_trump(c)).collect();
    if trumps.is_empty() {
        return hand.to_vec();
    }
    let high = highest_trump(plays).unwrap_or(0);
    let over: Vec<Card> = trumps.iter().copied().filter(|&c| trump_number(c) > Some(high)).collect();
    let allowed = if over.is_empty() { trumps } else { over };
    allowed.into_iter().chain(excuse).collect()
}

/// The winner of a complete trick under the ordinary rules: the highest trump, else the
/// highest card of the suit led; the Excuse never wins here.
pub fn trick_winner(plays: &[(Seat, Card)]) -> (Seat, Card, WinReason) {
    let trumps = plays.iter().filter(|&&(_, c)| is_trump(c)).max_by_key(|&&(_, c)| trump_number(c));
    if let Some(&(seat, card)) = trumps {
        return (seat, card, WinReason::HighestTrump);
    }
    let led = led_of(plays).expect("a trick holds a card other than the Excuse");
    let &(seat, card) = plays
        .iter()
        .filter(|&&(_, c)| led.matches(c))
        .max_by_key(|&&(_, c)| suit_value(c))
        .expect("the card that set the suit is in the trick");
    (seat, card, WinReason::HighestOfSuitLed)
}
