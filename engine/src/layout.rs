//! An open table layout of rows, one row a suit, each row a run of consecutive ranks laid face
//! up and built on at its ends: Fan tan's rows (a seven, then down to the ace and up to the
//! king), the free variant's piles (any card, then up and round from the king to the ace), and
//! the like for games to come (Jazz's sixth deal). The layout is public; it knows nothing of
//! turns or hands, only which cards fit now, where they go and what lies there.
//!
//! Beside the rows, a [`Spread`]: loose cards face up in the middle of the table, laid out one at
//! a time and taken in by any set (the fishing games' "sea", Kasino's and Krypkasino's table);
//! and [`Positions`]: cards face down each in its own place, turned up or taken by position
//! (Finns i sjön's sea, the memory games' spreads).
//!
//! Ranks are counted from the ace as one (`ace_low`: A = 1, 2-10, J = 11, Q = 12, K = 13), as
//! building games count them.

use serde::Serialize;

use crate::cards::{Card, Rank, Suit};

/// How the rows of a layout start and grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A row starts with the card of this rank (counted from the ace as one) and grows one card
    /// at a time down to the ace and up to the king (Fan tan: 7).
    Outward { start: u8 },
    /// A row starts with any card of its suit and grows upward only, the king followed by the
    /// ace, until the suit is complete (fri fan tan).
    Round,
}

/// One suit's row: the card it started with and how far it has grown each way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub suit: Suit,
    /// The rank it started with, counted from the ace as one.
    pub first: u8,
    /// Cards laid below the first (Outward only).
    pub below: u8,
    /// Cards laid above the first (round the king in a Round layout).
    pub above: u8,
}

impl Row {
    pub fn len(&self) -> usize {
        usize::from(1 + self.below + self.above)
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// Every card of the suit is laid.
    pub fn is_complete(&self) -> bool {
        self.len() == 13
    }

    /// The row's cards in the order they lie, from its low end to its high end.
    pub fn cards(&self) -> Vec<Card> {
        let low = i32::from(self.first) - i32::from(self.below);
        (0..self.len() as i32).map(|i| card_at(self.suit, (low - 1 + i).rem_euclid(13) as u8 + 1)).collect()
    }
}

/// A row as a table shows it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LayoutRow {
    pub suit: Suit,
    /// The cards laid, from the row's low end to its high end (in a round row, from the card it
    /// started with upward).
    pub cards: Vec<Card>,
}

/// A card's rank counted from the ace as one: A = 1, 2-10, J = 11, Q = 12, K = 13 (0 for a card
/// without a rank).
pub fn ace_low(card: Card) -> u8 {
    card.rank().map_or(0, |r| if r == Rank::ACE { 1 } else { r.value() })
}

/// The card of `suit` whose rank counted from the ace as one is `n` (1-13).
pub fn card_at(suit: Suit, n: u8) -> Card {
    let value = if n == 1 { 14 } else { n };
    Card::new(Rank::new(value).expect("a rank from 1 to 13"), suit)
}

/// The layout: its shape and the rows laid so far, in the order they were started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    shape: Shape,
    rows: Vec<Row>,
}

impl Layout {
    pub fn new(shape: Shape) -> Layout {
        Layout { shape, rows: Vec::new() }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    pub fn row(&self, suit: Suit) -> Option<&Row> {
        self.rows.iter().find(|r| r.suit == suit)
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The card that extends `suit`'s row upward, if it can grow that way.
    pub fn next_up(&self, suit: Suit) -> Option<Card> {
        let row = self.row(suit).filter(|r| !r.is_complete())?;
        let n = row.first + row.above + 1;
        match self.shape {
            Shape::Outward { .. } => (n <= 13).then(|| card_at(suit, n)),
            Shape::Round => Some(card_at(suit, (n - 1) % 13 + 1)),
        }
    }

    /// The card that extends `suit`'s row downward, if it can grow that way.
    pub fn next_down(&self, suit: Suit) -> Option<Card> {
        let row = self.row(suit)?;
        match self.shape {
            Shape::Outward { .. } => (row.first > row.below + 1).then(|| card_at(suit, row.first - row.below - 1)),
            Shape::Round => None,
        }
    }

    /// Whether `card` may be laid now: it starts its suit's row, or extends it at an end.
    pub fn fits(&self, card: Card) -> bool {
        let Some(suit) = card.suit() else { return false };
        match (self.row(suit), self.shape) {
            (None, Shape::Outward { start }) => ace_low(card) == start,
            (None, Shape::Round) => ace_low(card) > 0,
            (Some(_), _) => self.next_up(suit) == Some(card) || self.next_down(suit) == Some(card),
        }
    }

    /// Every card that may be laid now (in an Outward layout the starting cards of the suits not
    /// started; in a Round one, which any card may start, only the rows' next cards).
    pub fn openings(&self) -> Vec<Card> {
        Suit::ALL
            .into_iter()
            .flat_map(|suit| match (self.row(suit), self.shape) {
                (None, Shape::Outward { start }) => vec![card_at(suit, start)],
                (None, Shape::Round) => Vec::new(),
                (Some(_), _) => self.next_down(suit).into_iter().chain(self.next_up(suit)).collect(),
            })
            .collect()
    }

    /// Lays `card`, which must fit ([`Layout::fits`]; a replayed event always does).
    pub fn lay(&mut self, card: Card) {
        debug_assert!(self.fits(card), "{card} does not fit the layout");
        let Some(suit) = card.suit() else { return };
        if self.next_up(suit) == Some(card) {
            self.rows.iter_mut().filter(|r| r.suit == suit).for_each(|r| r.above += 1);
        } else if self.next_down(suit) == Some(card) {
            self.rows.iter_mut().filter(|r| r.suit == suit).for_each(|r| r.below += 1);
        } else if self.row(suit).is_none() {
            self.rows.push(Row { suit, first: ace_low(card), below: 0, above: 0 });
        }
    }

    /// Whether `run` may be laid now card by card, each fitting once the ones before lie: a
    /// card that fits, then the cards that follow it upward in its suit.
    pub fn fits_run(&self, run: &[Card]) -> bool {
        let Some(suit) = run.first().and_then(|c| c.suit()) else { return false };
        let mut after = self.clone();
        run.iter().enumerate().all(|(i, &c)| {
            let ok = after.fits(c) && (i == 0 || Some(c) == after.next_up(suit));
            if ok {
                after.lay(c);
            }
            ok
        })
    }

    /// The runs from `hand` that may be laid now, each a card that fits followed by as many of
    /// the cards above it in turn as the hand holds (a run of one included): at most `longest`
    /// cards a run.
    pub fn runs(&self, hand: &[Card], longest: usize) -> Vec<Vec<Card>> {
        let mut runs = Vec::new();
        for &c in hand.iter().filter(|&&c| self.fits(c)) {
            let mut after = self.clone();
            let mut run = vec![c];
            after.lay(c);
            runs.push(run.clone());
            while run.len() < longest {
                match after.next_up(c.suit().expect("fits")).filter(|n| hand.contains(n)) {
                    Some(n) => {
                        after.lay(n);
                        run.push(n);
                        runs.push(run.clone());
                    }
                    None => break,
                }
            }
        }
        runs
    }

    /// Every card laid.
    pub fn cards(&self) -> Vec<Card> {
        self.rows.iter().flat_map(Row::cards).collect()
    }

    pub fn len(&self) -> usize {
        self.rows.iter().map(Row::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The rows as a table shows them, in suit order.
    pub fn view(&self) -> Vec<LayoutRow> {
        Suit::ALL
            .into_iter()
            .filter_map(|s| self.row(s))
            .map(|r| LayoutRow { suit: r.suit, cards: r.cards() })
            .collect()
    }

    /// The books: one row a suit, none longer than its suit, each grown only as its shape
    /// allows.
    pub fn check(&self) -> Result<(), String> {
        for (i, r) in self.rows.iter().enumerate() {
            crate::ensure!(!self.rows[..i].iter().any(|o| o.suit == r.suit), "two rows of {:?}", r.suit);
            crate::ensure!(r.len() <= 13, "the {:?} row holds {} cards", r.suit, r.len());
            match self.shape {
                Shape::Outward { start } => crate::ensure!(
                    r.first == start && r.below < start && usize::from(r.above) <= 13 - usize::from(start),
                    "the {:?} row grew past its ends",
                    r.suit
                ),
                Shape::Round => crate::ensure!(r.below == 0, "the {:?} row grew downward", r.suit),
            }
        }
        Ok(())
    }
}

/// Loose cards face up on the table, in the order they came there: dealt or laid out one at a
/// time, taken in by any set of them. Public, like the rows; with two packs it may hold two
/// equal cards.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spread {
    cards: Vec<Card>,
}

impl Spread {
    pub fn new(cards: Vec<Card>) -> Spread {
        Spread { cards }
    }

    /// A card laid out, last in the order.
    pub fn lay(&mut self, card: Card) {
        self.cards.push(card);
    }

    /// Whether the spread holds every card of `cards` (as many copies as listed).
    pub fn holds(&self, cards: &[Card]) -> bool {
        crate::cards::is_part_of(cards, &self.cards)
    }

    /// Takes `cards` (which it must hold; a replayed event always does) off the spread, one copy
    /// of each.
    pub fn take(&mut self, cards: &[Card]) {
        debug_assert!(self.holds(cards), "{cards:?} are not all on the table");
        for &c in cards {
            crate::cards::take_card(&mut self.cards, c);
        }
    }

    /// Every card left, taken off the spread.
    pub fn clear(&mut self) -> Vec<Card> {
        std::mem::take(&mut self.cards)
    }

    /// The cards in the order they came.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

/// Cards lying face down each in a fixed place, picked out by position: Finns i sjön's sea, the
/// memory games' spreads. A card turned up shows until it is turned back down; a card taken
/// leaves its place empty, and the other places keep their numbers. Nobody knows a face-down
/// card (in the memory games not even one seen before: remembering it is the game), but which
/// places were seen and in what order is public, so a game may list a card seen before as known
/// to everyone who was there ([`Positions::memory_secrets`]) and a bot may remember it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Positions {
    places: Vec<Option<Card>>,
    up: Vec<bool>,
    /// By place, when its card was last turned up (a count of turn-ups, 0 for never).
    seen: Vec<u32>,
    turns: u32,
}

/// A place still holding a card, as the table shows it: its face only while turned up.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Place {
    pub position: usize,
    /// The card, while it lies face up.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub card: Option<Card>,
}

impl Positions {
    /// `cards` laid face down, the first at position 0.
    pub fn new(cards: Vec<Card>) -> Positions {
        let up = vec![false; cards.len()];
        let seen = vec![0; cards.len()];
        Positions { places: cards.into_iter().map(Some).collect(), up, seen, turns: 0 }
    }

    /// Every place ever laid, empty or not.
    pub fn places(&self) -> usize {
        self.places.len()
    }

    /// Whether the card at `position` has ever been turned up.
    pub fn was_seen(&self, position: usize) -> bool {
        self.seen.get(position).is_some_and(|&t| t > 0)
    }

    /// The cards still on the table that have been turned up, face up or down again, with their
    /// places: the last turned up first, at most `last` of them (all with `None`). What a player
    /// remembering the last few (or every) card seen knows.
    pub fn remembered(&self, last: Option<usize>) -> Vec<(usize, Card)> {
        let mut seen: Vec<usize> =
            (0..self.places.len()).filter(|&p| self.card(p).is_some() && self.was_seen(p)).collect();
        seen.sort_by_key(|&p| std::cmp::Reverse(self.seen[p]));
        seen.truncate(last.unwrap_or(usize::MAX));
        seen.into_iter().map(|p| (p, self.places[p].unwrap())).collect()
    }

    /// Whether the card once turned up at `position` may be shown now: it lies face up, or it
    /// has been taken off the table. A card turned back down is not (memory is the game).
    pub fn shows(&self, position: usize) -> bool {
        self.card(position).is_none() || self.is_up(position)
    }

    /// Turn-ups so far: a clock of the spread, for "seen since".
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Whether the card at `position` was last turned up after turn-up number `since`.
    pub fn seen_after(&self, position: usize, since: u32) -> bool {
        self.seen.get(position).is_some_and(|&t| t > since)
    }

    /// The cards turned back down since turn-up number `since`, with their places: what a
    /// player may still be shown of the table's last moves.
    pub fn turned_back_since(&self, since: u32) -> Vec<Place> {
        (0..self.places.len())
            .filter(|&p| self.card(p).is_some() && !self.up[p] && self.seen_after(p, since))
            .map(|p| Place { position: p, card: self.places[p] })
            .collect()
    }

    /// The card at `position`, if one lies there (face up or down).
    pub fn card(&self, position: usize) -> Option<Card> {
        self.places.get(position).copied().flatten()
    }

    pub fn is_up(&self, position: usize) -> bool {
        self.card(position).is_some() && self.up[position]
    }

    /// The positions whose card lies face down, in order.
    pub fn face_down(&self) -> Vec<usize> {
        (0..self.places.len()).filter(|&p| self.card(p).is_some() && !self.up[p]).collect()
    }

    /// The cards lying face up, with their positions.
    pub fn face_up(&self) -> Vec<(usize, Card)> {
        (0..self.places.len()).filter(|&p| self.is_up(p)).map(|p| (p, self.places[p].unwrap())).collect()
    }

    /// Turns the card at `position` face up and gives it.
    pub fn turn_up(&mut self, position: usize) -> Card {
        let card = self.card(position).expect("a card lies there");
        self.up[position] = true;
        self.turns += 1;
        self.seen[position] = self.turns;
        card
    }

    /// Turns the card at `position` back face down.
    pub fn turn_down(&mut self, position: usize) {
        self.up[position] = false;
    }

    /// Takes the card at `position` off the table.
    pub fn take(&mut self, position: usize) -> Card {
        self.up[position] = false;
        self.places[position].take().expect("a card lies there")
    }

    /// Every card still on the table, face up or down.
    pub fn cards(&self) -> Vec<Card> {
        self.places.iter().flatten().copied().collect()
    }

    /// Cards still on the table.
    pub fn len(&self) -> usize {
        self.places.iter().flatten().count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The places still holding a card, faces shown only where turned up.
    pub fn view(&self) -> Vec<Place> {
        (0..self.places.len())
            .filter(|&p| self.card(p).is_some())
            .map(|p| Place { position: p, card: self.is_up(p).then(|| self.places[p].unwrap()) })
            .collect()
    }

    /// The face-down cards, known to nobody.
    pub fn secrets(&self) -> Vec<(Card, Vec<crate::seat::Seat>)> {
        self.face_down().into_iter().map(|p| (self.places[p].unwrap(), vec![])).collect()
    }

    /// The face-down cards of a memory game: one never turned up known to nobody, one turned up
    /// before seen by all `seats` (each may remember it; the service never shows it again).
    pub fn memory_secrets(&self, seats: usize) -> Vec<(Card, Vec<crate::seat::Seat>)> {
        let knowers = |p: usize| if self.was_seen(p) { (0..seats).collect() } else { vec![] };
        self.face_down().into_iter().map(|p| (self.places[p].unwrap(), knowers(p))).collect()
    }

    /// Every place still holding a card with its face, up or down: a finished deal's record.
    pub fn view_open(&self) -> Vec<Place> {
        (0..self.places.len()).filter_map(|p| self.card(p).map(|c| Place { position: p, card: Some(c) })).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};

    #[test]
    fn a_spread_takes_any_set_and_keeps_copies() {
        let mut s = Spread::new(cards("5H 9C"));
        s.lay(card("5H"));
        assert!(s.holds(&cards("5H 5H")) && !s.holds(&cards("5H 5H 5H")));
        s.take(&cards("5H 9C"));
        assert_eq!(s.cards(), cards("5H").as_slice());
        assert_eq!(s.clear(), cards("5H"));
        assert!(s.is_empty());
    }

    #[test]
    fn positions_keep_their_numbers_and_show_only_faces_turned_up() {
        let mut p = Positions::new(cards("5H 9C 5S"));
        assert_eq!(p.face_down(), vec![0, 1, 2]);
        assert_eq!(p.turn_up(2), card("5S"));
        assert_eq!(
            p.view(),
            vec![
                Place { position: 0, card: None },
                Place { position: 1, card: None },
                Place { position: 2, card: Some(card("5S")) }
            ]
        );
        assert_eq!(p.secrets(), vec![(card("5H"), vec![]), (card("9C"), vec![])]);
        p.turn_down(2);
        assert!(p.face_up().is_empty());
        assert_eq!(p.take(1), card("9C"));
        assert_eq!(p.face_down(), vec![0, 2]);
        assert_eq!((p.len(), p.card(1), p.cards()), (2, None, cards("5H 5S")));
    }

    #[test]
    fn positions_remember_what_was_seen_and_in_what_order() {
        let mut p = Positions::new(cards("5H 9C 5S 2D"));
        p.turn_up(2);
        p.turn_up(0);
        p.turn_down(2);
        p.turn_down(0);
        p.turn_up(2);
        assert_eq!(p.remembered(None), vec![(2, card("5S")), (0, card("5H"))]);
        assert_eq!(p.remembered(Some(1)), vec![(2, card("5S"))]);
        assert_eq!(p.memory_secrets(2), vec![(card("5H"), vec![0, 1]), (card("9C"), vec![]), (card("2D"), vec![])]);
        assert!(p.shows(2) && !p.shows(0) && !p.shows(1));
        p.take(0);
        assert!(p.shows(0) && !p.was_seen(1) && p.was_seen(0));
        assert_eq!(p.view_open().len(), 3);
    }

    #[test]
    fn sevens_grow_down_to_the_ace_and_up_to_the_king() {
        let mut l = Layout::new(Shape::Outward { start: 7 });
        assert_eq!(l.openings(), cards("7C 7D 7H 7S"));
        assert!(!l.fits(card("8H")));
        l.lay(card("7H"));
        assert_eq!(l.openings(), cards("7C 7D 6H 8H 7S"));
        for c in cards("6H 5H 4H 3H 2H AH") {
            l.lay(c);
        }
        assert_eq!(l.next_down(Suit::Hearts), None);
        for c in cards("8H 9H TH JH QH KH") {
            l.lay(c);
        }
        assert!(l.row(Suit::Hearts).unwrap().is_complete());
        assert_eq!(l.next_up(Suit::Hearts), None);
        assert_eq!(l.view()[0].cards, cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"));
        assert_eq!(l.len(), 13);
        assert!(l.check().is_ok());
    }

    #[test]
    fn a_round_row_starts_anywhere_and_turns_the_corner_at_the_king() {
        let mut l = Layout::new(Shape::Round);
        assert!(l.openings().is_empty());
        assert!(l.fits(card("QS")));
        assert!(l.fits_run(&cards("QS KS AS 2S")));
        assert!(!l.fits_run(&cards("QS AS")));
        assert_eq!(
            l.runs(&cards("QS KS AS 3S 9D"), 13),
            vec![
                cards("QS"),
                cards("QS KS"),
                cards("QS KS AS"),
                cards("KS"),
                cards("KS AS"),
                cards("AS"),
                cards("3S"),
                cards("9D")
            ]
        );
        for c in cards("QS KS AS") {
            l.lay(c);
        }
        assert_eq!(l.openings(), cards("2S"));
        assert!(!l.fits(card("JS")));
        assert_eq!(l.view()[0].cards, cards("QS KS AS"));
        assert!(l.check().is_ok());
    }
}
