//! A talon (the stock, face down) and a discard pile (face up) beside it: the two heaps of the
//! shedding, drawing and fishing families (docs/engine.md §3, §4.3). A game keeps one [`Piles`]
//! in its deal and goes through it for every card that comes off the talon or onto the pile, so
//! the books of both (and the talon's secrets) are kept in one place.
//!
//! Drawing takes the talon's top card; laying puts cards on the pile, the last one on top; a
//! player may take the pile's top card or pick up the whole pile; a hand may be refilled to a
//! size; a pile may be burnt (set aside for the deal). When the talon runs out, the pile less its
//! top card becomes a new talon: shuffled, where the game says so ([`Piles::to_shuffle`] gives
//! the cards the service must shuffle as a [`crate::game::Status::NeedsShuffle`], and
//! [`Piles::turn`] takes the order it drew), or turned over as it lies ([`Piles::turn_as_it_lies`]).
//! The engine never shuffles: the new order comes in as data and is recorded in an event.

use crate::cards::{is_permutation, Card};
use crate::seat::Seat;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Piles {
    /// The talon, face down, top card first.
    pub talon: Vec<Card>,
    /// The discard pile, face up, bottom card first and top card last.
    pub pile: Vec<Card>,
    /// Cards burnt (set aside for the rest of the deal), in the order they went.
    pub burnt: Vec<Card>,
    /// Times the pile became a new talon this deal.
    pub turns: u32,
}

impl Piles {
    /// A talon of `talon` (top card first) and an empty pile.
    pub fn new(talon: Vec<Card>) -> Piles {
        Piles { talon, ..Piles::default() }
    }

    /// What is left of a deck once `dealt` cards are dealt from its top: the talon, with its top
    /// card turned face up to start the pile when `turn_up` says so.
    pub fn after_dealing(deck: &[Card], dealt: usize, turn_up: bool) -> Piles {
        let mut piles = Piles::new(deck[dealt.min(deck.len())..].to_vec());
        if turn_up {
            piles.turn_up();
        }
        piles
    }

    /// The talon's top card turned face up onto the pile.
    pub fn turn_up(&mut self) -> Option<Card> {
        let card = self.draw()?;
        self.pile.push(card);
        Some(card)
    }

    /// The talon's top card, taken off it.
    pub fn draw(&mut self) -> Option<Card> {
        (!self.talon.is_empty()).then(|| self.talon.remove(0))
    }

    /// Whether a card can be drawn now.
    pub fn can_draw(&self) -> bool {
        !self.talon.is_empty()
    }

    /// Draws into `hand` until it holds `size` cards or the talon is empty: the cards drawn.
    pub fn refill(&mut self, hand: &mut Vec<Card>, size: usize) -> Vec<Card> {
        let mut drawn = Vec::new();
        while hand.len() < size {
            let Some(card) = self.draw() else { break };
            hand.push(card);
            drawn.push(card);
        }
        drawn
    }

    /// The pile's face-up top card.
    pub fn top(&self) -> Option<Card> {
        self.pile.last().copied()
    }

    /// Cards laid on the pile in the order given: the last one ends on top.
    pub fn lay(&mut self, cards: &[Card]) {
        self.pile.extend_from_slice(cards);
    }

    /// The pile's top card, taken into a hand.
    pub fn take_top(&mut self) -> Option<Card> {
        self.pile.pop()
    }

    /// The whole pile, picked up (bottom card first).
    pub fn pick_up(&mut self) -> Vec<Card> {
        std::mem::take(&mut self.pile)
    }

    /// The whole pile set aside for the rest of the deal.
    pub fn burn(&mut self) -> Vec<Card> {
        let burnt = std::mem::take(&mut self.pile);
        self.burnt.extend_from_slice(&burnt);
        burnt
    }

    /// The cards to shuffle into a new talon, when one is due: the talon is empty and the pile
    /// holds more than its top card, which stays. Bottom card first, as they lie.
    pub fn to_shuffle(&self) -> Option<Vec<Card>> {
        (self.talon.is_empty() && self.pile.len() > 1).then(|| self.pile[..self.pile.len() - 1].to_vec())
    }

    /// The pile less its top card becomes the talon in `order` (top card first), an order of
    /// exactly the cards [`Piles::to_shuffle`] named.
    pub fn turn(&mut self, order: &[Card]) -> Result<(), String> {
        let Some(cards) = self.to_shuffle() else {
            return Err("no new talon is due".into());
        };
        if !is_permutation(order, &cards) {
            return Err(format!("an order of {} cards is not the {} under the pile's top", order.len(), cards.len()));
        }
        let top = self.pile.pop();
        self.pile = top.into_iter().collect();
        self.talon = order.to_vec();
        self.turns += 1;
        Ok(())
    }

    /// The pile less its top card turned face down as it lies, its bottom card now the talon's
    /// top (no shuffle): the new talon, top card first. Empty when the pile holds one card.
    pub fn turn_as_it_lies(&mut self) -> Vec<Card> {
        let Some(top) = self.pile.pop() else { return Vec::new() };
        let turned = std::mem::replace(&mut self.pile, vec![top]);
        self.talon.extend_from_slice(&turned);
        if !turned.is_empty() {
            self.turns += 1;
        }
        turned
    }

    /// The whole pile, top card included, turned face down as it lies under the talon: the
    /// pile's bottom card is drawn first (Muggins's discard pile becoming a new draw pile).
    pub fn turn_over(&mut self) -> Vec<Card> {
        let turned = self.pick_up();
        self.talon.extend_from_slice(&turned);
        if !turned.is_empty() {
            self.turns += 1;
        }
        turned
    }

    /// Cards put face down under the talon in the order given: the first of them is drawn first.
    pub fn put_under(&mut self, cards: &[Card]) {
        self.talon.extend_from_slice(cards);
    }

    /// The talon's cards, known to nobody: what a game's `secrets` lists for it.
    pub fn talon_secrets(&self) -> impl Iterator<Item = (Card, Vec<Seat>)> + '_ {
        self.talon.iter().map(|&c| (c, Vec::new()))
    }

    /// Every card in the talon, on the pile and burnt, for a game's books.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.talon.iter().chain(&self.pile).chain(&self.burnt).copied()
    }

    /// The books: the talon, the pile, the burnt cards and `elsewhere` (the hands) hold the pack.
    pub fn check(&self, elsewhere: &[Card], pack: &[Card]) -> Result<(), String> {
        let mut all: Vec<Card> = self.cards().collect();
        all.extend_from_slice(elsewhere);
        if !is_permutation(&all, pack) {
            return Err(format!("talon, pile and hands hold {} cards, not the pack of {}", all.len(), pack.len()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{cards, decks};

    #[test]
    fn a_deal_leaves_a_talon_and_turns_up_its_top_card() {
        let deck = cards("2C 3C 4C 5C 6C 7C");
        let mut p = Piles::after_dealing(&deck, 2, true);
        assert_eq!((p.talon.clone(), p.top()), (cards("5C 6C 7C"), Some(cards("4C")[0])));
        assert_eq!(p.draw(), Some(cards("5C")[0]));
        let mut hand = cards("AS");
        assert_eq!(p.refill(&mut hand, 5), cards("6C 7C"), "the talon runs out first");
        assert!(!p.can_draw() && p.draw().is_none());
        p.lay(&cards("9H 9S"));
        assert_eq!(p.take_top(), Some(cards("9S")[0]));
        assert_eq!(p.pick_up(), cards("4C 9H"));
        p.lay(&cards("TD"));
        assert_eq!(p.burn(), cards("TD"));
        p.put_under(&cards("2D 3D"));
        assert_eq!((p.draw(), p.draw()), (Some(cards("2D")[0]), Some(cards("3D")[0])));
        assert!(p.pile.is_empty() && p.burnt == cards("TD"));
    }

    #[test]
    fn the_pile_but_its_top_becomes_a_new_talon_in_the_order_given() {
        let mut p = Piles { pile: cards("2C 3C 4C"), ..Piles::default() };
        assert_eq!(p.to_shuffle(), Some(cards("2C 3C")));
        assert!(p.turn(&cards("2C 4C")).is_err(), "not the cards under the top");
        p.turn(&cards("3C 2C")).unwrap();
        assert_eq!((p.talon.clone(), p.pile.clone(), p.turns), (cards("3C 2C"), cards("4C"), 1));
        assert_eq!(p.to_shuffle(), None, "a talon is there again");
        p.talon.clear();
        assert_eq!(p.to_shuffle(), None, "only the top card lies on the pile");
        assert!(p.turn(&[]).is_err());
        p.lay(&cards("5C 6C"));
        assert_eq!(p.turn_as_it_lies(), cards("4C 5C"));
        assert_eq!((p.talon.clone(), p.pile.clone(), p.turns), (cards("4C 5C"), cards("6C"), 2));
        assert_eq!(p.turn_over(), cards("6C"), "the top card too");
        assert_eq!((p.talon.clone(), p.pile.is_empty(), p.turns), (cards("4C 5C 6C"), true, 3));
    }

    #[test]
    fn the_books_count_copies_and_the_talon_is_nobodys() {
        let pack = decks::double(&decks::standard52());
        let mut p = Piles::after_dealing(&pack, 10, true);
        assert!(p.check(&pack[..10], &pack).is_ok());
        assert!(p.check(&pack[..9], &pack).is_err());
        p.draw();
        assert!(p.check(&pack[..10], &pack).is_err(), "a drawn card must be somewhere");
        assert!(p.talon_secrets().all(|(_, knowers)| knowers.is_empty()));
        assert_eq!(p.talon_secrets().count(), 104 - 12);
    }
}
