//! The trick-taking toolkit: follow suit, trumps, who wins a trick and why, and the record of
//! the tricks won.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Suit};

pub mod play;
use crate::seat::{Seat, Table};
pub use play::{CurrentTrick, PlayView, TrickPlay};

/// A trick being played.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trick {
    /// The seat that leads (or led) the trick.
    pub leader: Seat,
    /// The cards played to it so far, in the order played, each as a [seat, card] pair.
    pub plays: Vec<(Seat, Card)>,
}

impl Trick {
    pub fn led_by(leader: Seat) -> Trick {
        Trick { leader, plays: Vec::new() }
    }

    pub fn led_suit(&self) -> Option<Suit> {
        self.plays.first().and_then(|(_, c)| c.suit())
    }

    pub fn is_empty(&self) -> bool {
        self.plays.is_empty()
    }

    pub fn is_complete(&self, players: usize) -> bool {
        self.plays.len() == players
    }

    /// Whose turn it is to play to this trick.
    pub fn next_to_play(&self, table: &Table) -> Seat {
        table.after(self.leader, self.plays.len())
    }

    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.plays.iter().map(|&(_, c)| c)
    }
}

/// One card played to a trick, as the record and the events show it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Play {
    /// The seat that played the card.
    pub seat: Seat,
    /// The card played.
    pub card: Card,
}

/// Why a trick went to its winner: for the "why did that seat win?" question.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WinReason {
    /// The highest card of the suit led, no trump being played.
    HighestOfSuitLed,
    /// The highest trump played.
    HighestTrump,
    /// The highest card in the game's own order, whatever its suit: each card played had to beat
    /// the one before it (Bräus).
    HighestCard,
    /// A card that counts as a trick on its own, laid down rather than played (Bräus's sevens).
    LaidAsTrick,
    /// A card that never wins otherwise, played to the deal's last trick by a side that won every
    /// trick before it, takes that trick too (Tarot's Excuse completing a slam).
    ExcuseCompletesSlam,
}

/// Winner of a complete trick with standard ranks (ace high): highest trump if any was played,
/// else the highest card of the suit led.
pub fn winner(trick: &Trick, trumps: Option<Suit>) -> (Seat, Card, WinReason) {
    winner_by(trick, trumps, crate::cards::rank_value)
}

/// [`winner`] in a game without trumps.
pub fn no_trumps(trick: &Trick) -> (Seat, Card, WinReason) {
    winner(trick, None)
}

/// Like [`winner`], with the game's own rank order within a suit.
pub fn winner_by(trick: &Trick, trumps: Option<Suit>, strength: impl Fn(Card) -> u8) -> (Seat, Card, WinReason) {
    let led = trick.led_suit();
    let best_in =
        |suit: Suit| trick.plays.iter().filter(|(_, c)| c.is_suit(suit)).max_by_key(|(_, c)| strength(*c)).copied();
    if let Some(t) = trumps {
        if let Some((seat, card)) = best_in(t) {
            return (seat, card, WinReason::HighestTrump);
        }
    }
    let led = led.expect("a trick is won only once cards are in it");
    let (seat, card) = best_in(led).expect("the lead is of the suit led");
    (seat, card, WinReason::HighestOfSuitLed)
}

/// A trick as it was won, for the deal's record, in the games whose tricks hold one plain card
/// from each seat.
///
/// Its schema is shared by every game's document under one name, so it refers to no schema
/// named after a game: the plays and the reason are inlined.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TrickRecord {
    /// The trick's number in the deal, 1 for the first.
    pub number: usize,
    /// The seat that led it.
    pub leader: Seat,
    /// The cards played to it, in the order played.
    #[cfg_attr(feature = "openapi", schema(inline))]
    pub plays: Vec<Play>,
    /// The seat that won it.
    pub winner: Seat,
    /// The card that won it.
    pub card: Card,
    /// Why that card won it.
    #[cfg_attr(feature = "openapi", schema(inline))]
    pub reason: WinReason,
}

/// Books a won trick: it goes on the record, counts for its winner, and the winner leads the
/// next one. `won` is the winner, the winning card and why, as [`winner`] gives them.
pub fn book_won(
    trick: &mut Trick,
    tricks: &mut Vec<TrickRecord>,
    tricks_taken: &mut [u32],
    number: usize,
    plays: &[Play],
    (winner, card, reason): (Seat, Card, WinReason),
) {
    let leader = std::mem::replace(trick, Trick::led_by(winner)).leader;
    tricks.push(TrickRecord { number, leader, plays: plays.to_vec(), winner, card, reason });
    tricks_taken[winner] += 1;
}

/// The latest trick on the record was played in turn, went to the seat `winner` names, and that
/// seat leads `trick`, the one now on the table. Each trick was checked when it was the latest:
/// checking only that one keeps the invariants linear in the length of the deal.
pub fn check_latest(
    tricks: &[TrickRecord],
    trick: &Trick,
    table: &Table,
    winner: impl Fn(&Trick) -> (Seat, Card, WinReason),
) -> Result<(), String> {
    check_latest_without(tricks, trick, table, &[], winner)
}

/// [`check_latest`] for a deal that the seats `out` sit out: the others play in turn.
pub fn check_latest_without(
    tricks: &[TrickRecord],
    trick: &Trick,
    table: &Table,
    out: &[Seat],
    winner: impl Fn(&Trick) -> (Seat, Card, WinReason),
) -> Result<(), String> {
    let Some(t) = tricks.last() else { return Ok(()) };
    let played = Trick { leader: t.leader, plays: t.plays.iter().map(|p| (p.seat, p.card)).collect() };
    let order: Vec<Seat> = table.order_from(t.leader).into_iter().filter(|s| !out.contains(s)).collect();
    let in_order = order.iter().enumerate().all(|(i, &s)| played.plays.get(i).map(|p| p.0) == Some(s));
    if !in_order || winner(&played) != (t.winner, t.card, t.reason) {
        return Err(format!("trick {} was not played in turn or went to the wrong seat", t.number));
    }
    if trick.leader != t.winner {
        return Err(format!("seat {} leads although seat {} took the last trick", trick.leader, t.winner));
    }
    Ok(())
}

/// For each of `cards` in turn, whether `seat` would take the trick by playing it now, by the
/// game's own `winner`. One copy of the trick with a place for the card, tried with each: the
/// bots ask this for every card of every playout, where a copy a card was a fifth of the time.
pub fn takes(
    trick: &Trick,
    seat: Seat,
    cards: impl IntoIterator<Item = Card>,
    winner: impl Fn(&Trick) -> Seat,
) -> Vec<bool> {
    let mut with = Trick { leader: trick.leader, plays: Vec::with_capacity(trick.plays.len() + 1) };
    with.plays.extend_from_slice(&trick.plays);
    cards
        .into_iter()
        .map(|card| {
            with.plays.truncate(trick.plays.len());
            with.plays.push((seat, card));
            winner(&with) == seat
        })
        .collect()
}

/// The cards of `cards` with which `seat` would take the trick now (see [`takes`]), in order.
pub fn taking(trick: &Trick, seat: Seat, cards: &[Card], winner: impl Fn(&Trick) -> Seat) -> Vec<Card> {
    split_taking(trick, seat, cards, winner).0
}

/// `cards` split into those with which `seat` would take the trick now and the rest, each in order.
pub fn split_taking(
    trick: &Trick,
    seat: Seat,
    cards: &[Card],
    winner: impl Fn(&Trick) -> Seat,
) -> (Vec<Card>, Vec<Card>) {
    let takes = takes(trick, seat, cards.iter().copied(), winner);
    let (taking, rest): (Vec<_>, Vec<_>) = cards.iter().zip(takes).partition(|p| p.1);
    (taking.into_iter().map(|p| *p.0).collect(), rest.into_iter().map(|p| *p.0).collect())
}

/// The cards a player may play to `trick` when the only duty is to follow suit.
pub fn follow_suit(hand: &[Card], trick: &Trick) -> Vec<Card> {
    match trick.led_suit() {
        Some(led) if hand.iter().any(|c| c.is_suit(led)) => hand.iter().copied().filter(|c| c.is_suit(led)).collect(),
        _ => hand.to_vec(),
    }
}

/// Sorted and de-duplicated, so move lists are stable.
pub fn distinct(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort();
    cards.dedup();
    cards
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};

    fn trick(leader: Seat, codes: &str) -> Trick {
        Trick { leader, plays: cards(codes).into_iter().enumerate().map(|(i, c)| ((leader + i) % 4, c)).collect() }
    }

    #[test]
    fn highest_of_the_suit_led_wins_without_trumps() {
        let t = trick(1, "9H AS KH 2H");
        assert_eq!(winner(&t, None), (3, card("KH"), WinReason::HighestOfSuitLed));
    }

    #[test]
    fn any_trump_beats_the_suit_led() {
        let t = trick(1, "9H 2S KH AH");
        assert_eq!(winner(&t, Some(Suit::Spades)), (2, card("2S"), WinReason::HighestTrump));
    }

    #[test]
    fn a_won_trick_goes_on_the_record_and_to_its_winner_who_leads_the_next() {
        let mut current = trick(1, "9H AS KH 2H");
        let won = winner(&current, None);
        let plays: Vec<Play> = current.plays.iter().map(|&(seat, card)| Play { seat, card }).collect();
        let (mut tricks, mut taken) = (Vec::new(), vec![0; 4]);
        book_won(&mut current, &mut tricks, &mut taken, 1, &plays, won);
        assert_eq!(current, Trick::led_by(3));
        assert_eq!(taken, [0, 0, 0, 1]);
        assert_eq!((tricks[0].number, tricks[0].leader, tricks[0].card), (1, 1, card("KH")));
        let table = Table::new(4);
        assert_eq!(check_latest(&tricks, &current, &table, |t| winner(t, None)), Ok(()));
        // With spades as trumps the ace would have won it.
        assert!(check_latest(&tricks, &current, &table, |t| winner(t, Some(Suit::Spades))).is_err());
    }

    #[test]
    fn follow_suit_when_able_else_anything() {
        let t = trick(0, "9H");
        assert_eq!(follow_suit(&cards("2H 3S AH"), &t), cards("2H AH"));
        assert_eq!(follow_suit(&cards("2C 3S"), &t), cards("2C 3S"));
        assert_eq!(follow_suit(&cards("2C 3S"), &Trick::led_by(0)), cards("2C 3S"));
    }
}
