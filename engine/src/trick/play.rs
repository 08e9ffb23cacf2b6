//! The card play of a trick game's deal, shared by every game that plays tricks of one card per
//! seat: who holds what, the trick on the table, the tricks won and by whom, and the checks,
//! views and secrets that follow from them. A game keeps its own events (they are a stored
//! contract) and calls these from its `decide` and `evolve`; what is left in the game module is
//! its bidding, scoring and odd rules.

use serde::Serialize;

use crate::cards::{is_permutation, take_card, Card, Suit};
use crate::rules::RuleViolation;
use crate::seat::{Seat, Table};
use crate::trick::{follow_suit, Play, Trick, TrickRecord, WinReason};

/// Who wins a complete trick, and why: the game's trumps and rank order.
pub type Winner<'a> = &'a dyn Fn(&Trick) -> (Seat, Card, WinReason);

#[derive(Clone, Debug)]
pub struct TrickPlay {
    pub table: Table,
    /// What each seat still holds.
    pub hands: Vec<Vec<Card>>,
    /// The trick on the table (led by the first leader before the play starts).
    pub trick: Trick,
    pub tricks: Vec<TrickRecord>,
    pub taken: Vec<u32>,
    /// How many tricks the deal has.
    pub tricks_per_deal: usize,
    /// Seats that sit the deal out (they threw in their hands before the play): they hold no
    /// cards, are passed over in turn, and a trick is complete without them. Empty in games
    /// where everyone plays every deal, which then behave as if the field were not there.
    pub out: Vec<Seat>,
}

/// The card play of a deal as a table view shows it: what everyone sees, and in a finished deal's
/// record every hand and every trick. A game's own view adds a seat's own hand, since games differ
/// on when a player may look at it. Every field is absent before the first deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = TrickPlayView))]
#[derive(Debug, Clone, Default, Serialize)]
pub struct PlayView {
    /// How many cards each seat holds, by seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// How many tricks each seat has taken in this deal, by seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub tricks_taken: Option<Vec<u32>>,
    /// How many tricks of this deal have been played and won.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub tricks_played: Option<usize>,
    /// The trick on the table, possibly still empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trick: Option<CurrentTrick>,
    /// The trick won last; null until the deal's first trick is won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_trick: Option<Option<TrickRecord>>,
    /// What each seat still holds, by seat: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// Every trick of the deal won so far, first trick first: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub tricks: Option<Vec<TrickRecord>>,
}

/// The trick on the table, before it is won.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = TrickOnTable))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CurrentTrick {
    /// The seat that leads (or led) the trick.
    pub leader: Seat,
    /// The cards played to it so far, in the order played.
    pub plays: Vec<Play>,
    /// The suit of the card led; null until a card is led.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub led_suit: Option<Suit>,
}

/// A trick completed by a card, before it is booked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completed {
    pub number: usize,
    pub winner: Seat,
    pub card: Card,
    pub reason: WinReason,
    pub plays: Vec<Play>,
    /// The tricks each seat has taken with this one counted: what the deal is scored on when
    /// it was the last.
    pub taken: Vec<u32>,
    pub last: bool,
}

impl TrickPlay {
    pub fn new(table: Table, hands: Vec<Vec<Card>>, leader: Seat, tricks_per_deal: usize) -> TrickPlay {
        TrickPlay {
            table,
            hands,
            trick: Trick::led_by(leader),
            tricks: Vec::new(),
            taken: vec![0; table.seats],
            tricks_per_deal,
            out: Vec::new(),
        }
    }

    pub fn to_play(&self) -> Seat {
        if self.out.is_empty() {
            return self.trick.next_to_play(&self.table);
        }
        let order = self.seats_in_from(self.trick.leader);
        order[self.trick.plays.len() % order.len().max(1)]
    }

    /// A seat sits the deal out: its hand leaves the play (the game keeps it wherever thrown-in
    /// hands go) and it is passed over from now on.
    pub fn sit_out(&mut self, seat: Seat) -> Vec<Card> {
        if !self.out.contains(&seat) {
            self.out.push(seat);
            self.out.sort_unstable();
        }
        std::mem::take(&mut self.hands[seat])
    }

    /// How many seats play each trick.
    pub fn players_in(&self) -> usize {
        self.table.seats - self.out.len()
    }

    /// The seats that play, in turn from `first` (which leads if it plays).
    pub fn seats_in_from(&self, first: Seat) -> Vec<Seat> {
        self.table.order_from(first).into_iter().filter(|s| !self.out.contains(s)).collect()
    }

    /// The number of the trick being played, 1 for the first.
    pub fn number(&self) -> usize {
        self.tricks.len() + 1
    }

    pub fn is_over(&self) -> bool {
        self.tricks.len() == self.tricks_per_deal
    }

    /// Who acts in a deal whose card play follows a first step (a bidding, a choice of trumps):
    /// the seats `before` names while that step lasts, then the seat to play, and nobody once
    /// the last trick is won.
    pub fn to_act_after(&self, before: Option<Vec<Seat>>) -> Vec<Seat> {
        match before {
            Some(seats) => seats,
            None if self.is_over() => Vec::new(),
            None => vec![self.to_play()],
        }
    }

    /// Such a deal's phase in the game's own terms: `before` while the first step lasts, then
    /// `playing`, then `over`.
    pub fn stage<P>(&self, before: Option<P>, playing: P, over: P) -> P {
        match before {
            Some(phase) => phase,
            None if self.is_over() => over,
            None => playing,
        }
    }

    /// Tricks taken by each partnership, seats 0 and 2 against 1 and 3.
    pub fn side_tricks(&self) -> [u32; 2] {
        [self.taken[0] + self.taken[2], self.taken[1] + self.taken[3]]
    }

    pub fn first_leader(&self) -> Seat {
        self.tricks.first().map_or(self.trick.leader, |t| t.leader)
    }

    /// The card must be in the seat's hand.
    pub fn check_held(&self, seat: Seat, card: Card) -> Result<(), RuleViolation> {
        if self.hands[seat].contains(&card) {
            Ok(())
        } else {
            Err(RuleViolation::card_not_held(card))
        }
    }

    /// Whether `card` follows the suit led, or the hand cannot: [`TrickPlay::check_follow`] without
    /// the words of a refusal, for listing playable cards cheaply.
    pub fn follows(&self, seat: Seat, card: Card) -> bool {
        match self.trick.led_suit() {
            Some(led) => card.is_suit(led) || !self.hands[seat].iter().any(|c| c.is_suit(led)),
            None => true,
        }
    }

    /// The card must follow the suit led when the hand can, under the game's rule id.
    pub fn check_follow(&self, seat: Seat, card: Card, rule: &str) -> Result<(), RuleViolation> {
        match self.trick.led_suit() {
            Some(led) if !self.follows(seat, card) => Err(RuleViolation::new(
                rule,
                format!("Du lade {card} men har {} på handen och måste bekänna färg.", led.name_sv()),
                format!("You played {card} but hold {} and must follow suit.", led.name_en()),
            )),
            _ => Ok(()),
        }
    }

    /// The distinct cards the seat may play when the only duty is to follow suit.
    pub fn following(&self, seat: Seat) -> Vec<Card> {
        crate::trick::distinct(follow_suit(&self.hands[seat], &self.trick))
    }

    /// The trick `card` completes, if it is the last card of one.
    pub fn completed_by(&self, seat: Seat, card: Card, winner: Winner) -> Option<Completed> {
        if self.trick.plays.len() + 1 < self.players_in() {
            return None;
        }
        let mut trick = self.trick.clone();
        trick.plays.push((seat, card));
        let (winner, card, reason) = winner(&trick);
        let mut taken = self.taken.clone();
        taken[winner] += 1;
        Some(Completed {
            number: self.number(),
            winner,
            card,
            reason,
            plays: trick.plays.iter().map(|&(seat, card)| Play { seat, card }).collect(),
            taken,
            last: self.number() == self.tricks_per_deal,
        })
    }

    /// A card played: it leaves the hand for the trick.
    pub fn play(&mut self, seat: Seat, card: Card) {
        take_card(&mut self.hands[seat], card);
        self.trick.plays.push((seat, card));
    }

    /// A card played from outside the hand (from a game's piles on the table, say): the trick
    /// gains it and no hand loses one; `check` finds the card in its `elsewhere` no longer.
    pub fn play_outside(&mut self, seat: Seat, card: Card) {
        self.trick.plays.push((seat, card));
    }

    /// A trick won: it goes on the record, counts for its winner, who leads the next.
    pub fn won(&mut self, winner: Seat, card: Card, reason: WinReason) {
        let trick = std::mem::replace(&mut self.trick, Trick::led_by(winner));
        let plays = trick.plays.iter().map(|&(seat, card)| Play { seat, card }).collect();
        self.tricks.push(TrickRecord {
            number: self.tricks.len() + 1,
            leader: trick.leader,
            plays,
            winner,
            card,
            reason,
        });
        self.taken[winner] += 1;
    }

    /// Every card of the hands, known to its holder only, less those `public` says all know.
    pub fn hand_secrets(&self, public: impl Fn(Seat, Card) -> bool) -> Vec<(Card, Vec<Seat>)> {
        let mut secrets = Vec::new();
        for (s, hand) in self.hands.iter().enumerate() {
            secrets.extend(hand.iter().filter(|&&c| !public(s, c)).map(|&c| (c, vec![s])));
        }
        secrets
    }

    /// Every card played, in the tricks won and on the table.
    pub fn played(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        self.tricks
            .iter()
            .flat_map(|t| t.plays.iter().map(|p| (p.seat, p.card)))
            .chain(self.trick.plays.iter().copied())
    }

    /// The books of the play: the cards in hands, on the table and in tricks are the pack (with
    /// `elsewhere`, the cards the game keeps outside the play), each seat holds what it should,
    /// the tricks are credited to their winners, and the latest trick was played in turn and
    /// won as the game says (each trick was checked when it was the latest).
    pub fn check(
        &self,
        pack: &[Card],
        elsewhere: &[Card],
        hand_size: impl Fn(Seat) -> usize,
        winner: Winner,
    ) -> Result<(), String> {
        self.check_pack(pack, elsewhere)?;
        if self.tricks.len() > self.tricks_per_deal || self.trick.plays.len() > self.players_in() {
            return Err(format!("{} tricks and {} plays in the trick", self.tricks.len(), self.trick.plays.len()));
        }
        for s in 0..self.table.seats {
            self.check_credit(s)?;
            if self.out.contains(&s) {
                if !self.hands[s].is_empty() || self.taken[s] > 0 || self.trick.plays.iter().any(|(p, _)| *p == s) {
                    return Err(format!("seat {s} sits the deal out but holds, plays or wins cards"));
                }
                continue;
            }
            let in_trick = self.trick.plays.iter().filter(|(p, _)| *p == s).count();
            let expected = hand_size(s) - self.tricks.len() - in_trick;
            if self.hands[s].len() != expected {
                return Err(format!("seat {s} holds {} cards, expected {expected}", self.hands[s].len()));
            }
        }
        crate::trick::check_latest_without(&self.tricks, &self.trick, &self.table, &self.out, winner)
    }

    /// A trick that nobody wins (Bräus's trick of worthless cards): its cards leave the table
    /// uncredited, and the same seat leads again. The game keeps them, and counts them as
    /// `elsewhere` in [`TrickPlay::check_uneven`].
    pub fn set_aside(&mut self) -> Vec<Play> {
        let leader = self.trick.leader;
        let trick = std::mem::replace(&mut self.trick, Trick::led_by(leader));
        trick.plays.iter().map(|&(seat, card)| Play { seat, card }).collect()
    }

    /// The books of a play whose tricks need not hold one card from every seat (a player may
    /// stand over, a card may be laid down as a trick of its own, a trick may be won by nobody
    /// and set aside): the cards in hands, on the table, in tricks and `elsewhere` are the pack,
    /// each seat holds `dealt` cards less those it played to the tricks and the table, and the
    /// tricks are credited to their winners. `dealt` leaves out a seat's cards that the game
    /// keeps elsewhere. That the tricks were played in turn and won as the rules say is the
    /// game's to check, since this play has no fixed shape of trick.
    pub fn check_uneven(&self, pack: &[Card], elsewhere: &[Card], dealt: impl Fn(Seat) -> usize) -> Result<(), String> {
        self.check_pack(pack, elsewhere)?;
        for s in 0..self.table.seats {
            self.check_credit(s)?;
            let played = self.played().filter(|(p, _)| *p == s).count();
            if self.hands[s].len() + played != dealt(s) {
                return Err(format!(
                    "seat {s} holds {} cards and played {played}, not {}",
                    self.hands[s].len(),
                    dealt(s)
                ));
            }
        }
        Ok(())
    }

    fn check_pack(&self, pack: &[Card], elsewhere: &[Card]) -> Result<(), String> {
        let mut all: Vec<Card> = self.hands.iter().flatten().copied().collect();
        all.extend(self.played().map(|(_, c)| c));
        all.extend_from_slice(elsewhere);
        if !is_permutation(&all, pack) {
            return Err(format!("{} cards in play instead of the {} of the pack", all.len(), pack.len()));
        }
        Ok(())
    }

    fn check_credit(&self, s: Seat) -> Result<(), String> {
        let won = self.tricks.iter().filter(|t| t.winner == s).count();
        if won != self.taken[s] as usize {
            return Err(format!("seat {s} is credited {} tricks but won {won}", self.taken[s]));
        }
        Ok(())
    }

    /// The play as everyone sees it; with `record`, every hand and every trick as well.
    pub fn view(&self, record: bool) -> PlayView {
        PlayView {
            hand_sizes: Some(self.hands.iter().map(Vec::len).collect()),
            tricks_taken: Some(self.taken.clone()),
            tricks_played: Some(self.tricks.len()),
            trick: Some(self.current_trick()),
            last_trick: Some(self.tricks.last().cloned()),
            hands: record.then(|| self.hands.clone()),
            tricks: record.then(|| self.tricks.clone()),
        }
    }

    /// The trick on the table as the views show it.
    pub fn current_trick(&self) -> CurrentTrick {
        CurrentTrick {
            leader: self.trick.leader,
            plays: self.trick.plays.iter().map(|&(seat, card)| Play { seat, card }).collect(),
            led_suit: self.trick.led_suit(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};
    use crate::trick::winner;

    fn four_hands() -> TrickPlay {
        let hands = vec![cards("AH 2C"), cards("KH 3C"), cards("2H AC"), cards("3S 4C")];
        TrickPlay::new(Table::new(4), hands, 1, 2)
    }

    #[test]
    fn a_trick_is_played_in_turn_won_and_booked() {
        let mut p = four_hands();
        let no_trumps = |t: &Trick| winner(t, None);
        assert_eq!(p.to_play(), 1);
        assert_eq!(p.check_held(1, card("AH")), Err(RuleViolation::card_not_held(card("AH"))));
        for (seat, c) in [(1, "KH"), (2, "2H"), (3, "3S")] {
            assert!(p.completed_by(seat, card(c), &no_trumps).is_none());
            p.play(seat, card(c));
        }
        assert_eq!(p.following(0), cards("AH"));
        assert!(p.check_follow(0, card("2C"), "x.follow").is_err());
        let done = p.completed_by(0, card("AH"), &no_trumps).unwrap();
        assert_eq!(
            (done.number, done.winner, done.card, done.taken.clone(), done.last),
            (1, 0, card("AH"), vec![1, 0, 0, 0], false)
        );
        p.play(0, card("AH"));
        p.won(done.winner, done.card, done.reason);
        assert_eq!((p.to_play(), p.number(), p.taken.clone()), (0, 2, vec![1, 0, 0, 0]));
        let pack: Vec<Card> = cards("AH 2C KH 3C 2H AC 3S 4C");
        assert_eq!(p.check(&pack, &[], |_| 2, &no_trumps), Ok(()));
        assert!(p.check(&pack, &[], |_| 2, &|t: &Trick| winner(t, Some(crate::cards::Suit::Spades))).is_err());
        assert_eq!(p.hand_secrets(|s, _| s != 0), vec![(card("2C"), vec![0])]);
    }

    #[test]
    fn uneven_tricks_keep_the_books_a_card_laid_as_a_trick_and_a_trick_set_aside() {
        let mut p = TrickPlay::new(Table::new(3), vec![cards("7C AH"), cards("KH 3C"), cards("2H")], 0, 9);
        // Seat 0 lays a card down as a trick of its own, then leads; seat 1 beats it and seat 2
        // stands over: a trick of two cards.
        p.play(0, card("7C"));
        p.won(0, card("7C"), WinReason::LaidAsTrick);
        p.play(0, card("AH"));
        p.play(1, card("KH"));
        p.won(1, card("KH"), WinReason::HighestCard);
        // Seat 1 leads a card nobody takes: the trick is set aside and seat 1 leads again.
        p.play(1, card("3C"));
        assert_eq!(p.set_aside(), vec![Play { seat: 1, card: card("3C") }]);
        assert_eq!((p.trick.leader, p.taken.clone(), p.number()), (1, vec![1, 1, 0], 3));
        let pack = cards("7C AH KH 3C 2H");
        let dealt = |s: Seat| [2, 1, 1][s];
        assert_eq!(p.check_uneven(&pack, &cards("3C"), dealt), Ok(()));
        assert!(p.check_uneven(&pack, &[], dealt).is_err(), "the card set aside is missing");
        assert!(p.check_uneven(&pack, &cards("3C"), |_| 2).is_err(), "seat 1 played only one card");
        p.taken[2] = 1;
        assert!(p.check_uneven(&pack, &cards("3C"), dealt).is_err(), "a trick credited but not won");
    }

    #[test]
    fn a_card_from_outside_the_hands_is_played_and_booked_like_any_other() {
        // Seat 0 plays from two cards on the table (AH, 5C) and holds none in the hand.
        let mut p = TrickPlay::new(Table::new(2), vec![vec![], cards("3C 4C")], 0, 2);
        let no_trumps = |t: &Trick| winner(t, None);
        p.play_outside(0, card("AH"));
        let done = p.completed_by(1, card("3C"), &no_trumps).unwrap();
        p.play(1, card("3C"));
        p.won(done.winner, done.card, done.reason);
        assert_eq!((p.hands.clone(), p.taken.clone()), (vec![vec![], cards("4C")], vec![1, 0]));
        let pack = cards("AH 5C 3C 4C");
        let hand_size = |s: Seat| 2 - usize::from(s == 0);
        assert_eq!(p.check(&pack, &cards("5C"), hand_size, &no_trumps), Ok(()));
        assert!(p.check(&pack, &[], hand_size, &no_trumps).is_err());
    }
}
