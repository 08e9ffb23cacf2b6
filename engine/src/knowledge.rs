//! Who knows each card held out of sight (docs/engine.md §2-3): the truth behind a game's
//! `secrets`, its views and its redaction, kept in one place instead of each game deciding.
//!
//! A card in a hand is known to its holder. Some are known to more: a card picked up face up
//! from the table (Stortok, Långe Laban, Skitgubbe) was seen by everyone and stays public while
//! it sits in the hand; a card handed over face down (Gris, Svarte Petter) is known to the giver
//! too; a face-down play (Fusk) is known to the one who laid it and to whoever picks it up. A
//! [`Knowledge`] records only that extra knowledge, place by place: the places are the seats'
//! hands, numbered by seat, and any face-down heap the game numbers after them.
//!
//! Copies count apart: with two packs a hand may hold a public 9♥ and a private one. When a
//! copy leaves a place, the most widely known copy goes first, so nobody is credited with
//! knowing a card that is still there when they may only know that one like it was.

use crate::cards::Card;
use crate::seat::Seat;

/// A set of seats, one bit a seat.
type Knowers = u32;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Knowledge {
    seats: usize,
    /// By place, each card there that others than its holder have seen, with who saw it.
    seen: Vec<Vec<(Card, Knowers)>>,
}

impl Knowledge {
    /// No extra knowledge yet at a table of `seats` with `places` places (at least the hands).
    pub fn new(seats: usize, places: usize) -> Knowledge {
        assert!(seats <= Knowers::BITS as usize, "a table of at most 32 seats");
        Knowledge { seats, seen: vec![Vec::new(); places.max(seats)] }
    }

    /// Knowledge for the seats' hands only.
    pub fn of_hands(seats: usize) -> Knowledge {
        Knowledge::new(seats, seats)
    }

    fn everyone(&self) -> Knowers {
        if self.seats == 32 {
            Knowers::MAX
        } else {
            (1 << self.seats) - 1
        }
    }

    fn mask(seats: &[Seat]) -> Knowers {
        seats.iter().fold(0, |m, &s| m | 1 << s)
    }

    fn seats_of(&self, knowers: Knowers) -> Vec<Seat> {
        (0..self.seats).filter(|s| knowers & 1 << s != 0).collect()
    }

    /// `cards` went into `place` face up, seen by everyone: they stay public while there.
    pub fn shown_to_all(&mut self, place: usize, cards: &[Card]) {
        let all = self.everyone();
        self.seen[place].extend(cards.iter().map(|&c| (c, all)));
    }

    /// `card` went into `place` seen by `seats` (besides its holder, who always knows).
    pub fn shown_to(&mut self, place: usize, card: Card, seats: &[Seat]) {
        self.seen[place].push((card, Self::mask(seats)));
    }

    /// One copy of `card` left `place` (played, given, put aside): its knowledge goes with it,
    /// the most widely known copy first. Returns the seats that had seen it.
    pub fn left(&mut self, place: usize, card: Card) -> Vec<Seat> {
        let copies = &mut self.seen[place];
        let widest = copies
            .iter()
            .enumerate()
            .filter(|(_, (c, _))| *c == card)
            .max_by_key(|(_, (_, k))| k.count_ones())
            .map(|(i, _)| i);
        match widest {
            Some(i) => {
                let (_, knowers) = copies.remove(i);
                self.seats_of(knowers)
            }
            None => Vec::new(),
        }
    }

    /// One copy of `card` went from `from` to `to`, seen on the way by `seats`: whoever had
    /// seen it still knows where it is.
    pub fn moved(&mut self, from: usize, to: usize, card: Card, seats: &[Seat]) {
        let mut knowers = Self::mask(&self.left(from, card)) | Self::mask(seats);
        if from < self.seats {
            knowers |= 1 << from;
        }
        self.seen[to].push((card, knowers));
    }

    /// Everything about `place` is forgotten (its cards were turned face up, or left it all).
    pub fn clear(&mut self, place: usize) {
        self.seen[place].clear();
    }

    /// The cards in `place` everyone knows to be there.
    pub fn public_in(&self, place: usize) -> Vec<Card> {
        let all = self.everyone();
        self.seen[place].iter().filter(|(_, k)| *k == all).map(|(c, _)| *c).collect()
    }

    /// By seat, the hand cards everyone knows to be there, as `viewer` is shown them: its own
    /// hand's are left out, as the hand itself shows them (naming a two-pack card twice would
    /// claim a copy that may be hidden).
    pub fn public_hands(&self, viewer: Option<Seat>) -> Vec<Vec<Card>> {
        (0..self.seats).map(|s| if viewer == Some(s) { Vec::new() } else { self.public_in(s) }).collect()
    }

    /// The cards in `place` that `viewer` knows besides its own hand.
    pub fn known_to(&self, place: usize, viewer: Seat) -> Vec<Card> {
        self.seen[place].iter().filter(|(_, k)| k & 1 << viewer != 0).map(|(c, _)| *c).collect()
    }

    /// Every card of the hands not known to all, each with its knowers: its holder, and whoever
    /// has seen that copy.
    pub fn hand_secrets(&self, hands: &[Vec<Card>]) -> Vec<(Card, Vec<Seat>)> {
        let mut secrets = Vec::new();
        for (holder, hand) in hands.iter().enumerate() {
            self.secrets_of(holder, hand, 1 << holder, &mut secrets);
        }
        secrets
    }

    /// Every card of a face-down heap numbered `place` not known to all, each with its knowers
    /// (nobody holds a heap, so a card nobody has seen has no knower).
    pub fn heap_secrets(&self, place: usize, heap: &[Card]) -> Vec<(Card, Vec<Seat>)> {
        let mut secrets = Vec::new();
        self.secrets_of(place, heap, 0, &mut secrets);
        secrets
    }

    fn secrets_of(&self, place: usize, cards: &[Card], holder: Knowers, secrets: &mut Vec<(Card, Vec<Seat>)>) {
        // Each copy of a card is matched with one recorded copy, the widest known first, so two
        // copies in one place never both borrow one copy's knowledge.
        let mut seen = self.seen[place].clone();
        seen.sort_by_key(|(_, k)| std::cmp::Reverse(k.count_ones()));
        for &card in cards {
            let knowers = match seen.iter().position(|(c, _)| *c == card) {
                Some(i) => seen.remove(i).1,
                None => 0,
            } | holder;
            if knowers != self.everyone() {
                secrets.push((card, self.seats_of(knowers)));
            }
        }
    }

    /// The books: every card recorded in a place is there (copies counted), so knowledge never
    /// outlives the card.
    pub fn check(&self, places: &[&[Card]]) -> Result<(), String> {
        for (place, seen) in self.seen.iter().enumerate() {
            let cards = places.get(place).copied().unwrap_or(&[]);
            for (card, _) in seen {
                let recorded = seen.iter().filter(|(c, _)| c == card).count();
                let there = cards.iter().filter(|c| *c == card).count();
                if recorded > there {
                    return Err(format!(
                        "place {place} is known to hold {card} {recorded} time(s) but holds it {there} time(s)"
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};

    #[test]
    fn a_picked_up_card_is_public_while_held_and_leaves_no_trace_once_played() {
        let mut k = Knowledge::of_hands(3);
        let hands = vec![cards("9H AS"), cards("7C"), cards("8D")];
        k.shown_to_all(0, &cards("9H"));
        assert_eq!(k.public_in(0), cards("9H"));
        assert_eq!(k.hand_secrets(&hands), vec![(card("AS"), vec![0]), (card("7C"), vec![1]), (card("8D"), vec![2])]);
        assert_eq!(k.public_hands(Some(1)), vec![cards("9H"), vec![], vec![]]);
        assert_eq!(k.public_hands(Some(0)), vec![vec![], vec![], vec![]], "the holder sees it in the hand");
        assert_eq!(k.left(0, card("9H")), vec![0, 1, 2]);
        assert!(k.public_in(0).is_empty());
        assert!(k.check(&[&cards("AS"), &cards("7C"), &cards("8D")]).is_ok());
    }

    #[test]
    fn copies_count_apart_and_the_public_copy_leaves_first() {
        let mut k = Knowledge::of_hands(2);
        k.shown_to_all(0, &cards("9H"));
        let hand = cards("9H 9H");
        assert_eq!(k.hand_secrets(&[hand.clone(), vec![]]), vec![(card("9H"), vec![0])]);
        k.left(0, card("9H"));
        assert_eq!(k.hand_secrets(&[cards("9H"), vec![]]), vec![(card("9H"), vec![0])]);
    }

    #[test]
    fn a_card_handed_over_face_down_is_known_to_the_giver_and_follows_the_card() {
        let mut k = Knowledge::new(3, 4);
        k.moved(1, 2, card("QS"), &[]);
        assert_eq!(k.hand_secrets(&[vec![], vec![], cards("QS")]), vec![(card("QS"), vec![1, 2])]);
        assert_eq!(k.known_to(2, 1), cards("QS"));
        // Laid face down on a heap (place 3) by its holder, it stays known to both.
        k.moved(2, 3, card("QS"), &[]);
        assert_eq!(k.heap_secrets(3, &cards("QS AH")), vec![(card("QS"), vec![1, 2]), (card("AH"), vec![])]);
        assert!(k.check(&[&[], &[], &[], &cards("QS")]).is_ok());
        assert!(k.check(&[&[], &[], &[], &[]]).is_err());
    }
}
