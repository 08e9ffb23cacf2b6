//! Climbing (docs/engine.md §3, §4.3): the play of a deal in which each player beats the last
//! play on the table with as many cards of one higher rank, or passes; once every other player
//! still holding cards has passed in a row, the table is cleared and the last to play leads
//! again (or, if that play took the last of his cards, the next player still holding cards).
//! Players rid of their cards leave the round in the order they went out.
//!
//! The toolkit knows no rank order of its own: a game gives each card its rank (a number, higher
//! beats lower) and says which cards are wild. A wild card stands for the rank of the others in
//! its play but is worse than a real card of that rank, so that a play of as many cards of the
//! same rank with fewer wild cards beats it; a wild card played alone counts its own rank.

use serde::{Deserialize, Serialize};

use crate::cards::{take_card, Card};
use crate::seat::Seat;

/// One play laid on the table: who laid it and its cards.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = ClimbPlay))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Play {
    pub seat: Seat,
    pub cards: Vec<Card>,
}

/// What a play is worth: how many cards, of which rank, how many of them wild.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub count: usize,
    pub rank: u8,
    pub wild: usize,
}

impl Shape {
    /// Beats `other`: as many cards, of a higher rank, or of the same rank with fewer wild ones.
    pub fn beats(self, other: Shape) -> bool {
        self.count == other.count && (self.rank, other.wild) > (other.rank, self.wild)
    }
}

/// Why a set of cards is no play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// No cards, or more than a play may hold.
    Count,
    /// Cards of different ranks (wild cards aside), or the same card twice.
    Ranks,
}

/// A game's ranks: each card's rank, and whether it is wild.
pub trait Ranks {
    fn rank(&self, card: Card) -> u8;
    fn wild(&self, card: Card) -> bool;
}

/// The shape of `cards` as a play of at most `max` cards of one rank.
pub fn shape(cards: &[Card], max: usize, ranks: &impl Ranks) -> Result<Shape, Misfit> {
    if cards.is_empty() || cards.len() > max {
        return Err(Misfit::Count);
    }
    if (1..cards.len()).any(|i| cards[..i].contains(&cards[i])) {
        return Err(Misfit::Ranks);
    }
    let real: Vec<u8> = cards.iter().filter(|&&c| !ranks.wild(c)).map(|&c| ranks.rank(c)).collect();
    let wild = cards.len() - real.len();
    match real.first() {
        Some(&rank) if real.iter().all(|&r| r == rank) => Ok(Shape { count: cards.len(), rank, wild }),
        Some(_) => Err(Misfit::Ranks),
        // Wild cards alone count their own rank, the highest of them.
        None if cards.len() == 1 => Ok(Shape { count: 1, rank: ranks.rank(cards[0]), wild: 0 }),
        None => Err(Misfit::Ranks),
    }
}

/// Every play of at most `max` cards that `hand` can make, each set of cards once (real cards
/// in the hand's order, then wild ones).
pub fn plays(hand: &[Card], max: usize, ranks: &impl Ranks) -> Vec<Vec<Card>> {
    let wilds: Vec<Card> = hand.iter().copied().filter(|&c| ranks.wild(c)).collect();
    let mut by_rank: Vec<(u8, Vec<Card>)> = Vec::new();
    for &c in hand.iter().filter(|&&c| !ranks.wild(c)) {
        match by_rank.iter_mut().find(|(r, _)| *r == ranks.rank(c)) {
            Some((_, group)) => group.push(c),
            None => by_rank.push((ranks.rank(c), vec![c])),
        }
    }
    by_rank.sort_by_key(|(r, _)| *r);
    let mut out = Vec::new();
    for (_, group) in &by_rank {
        for real in subsets(group).into_iter().filter(|s| !s.is_empty()) {
            for wild in subsets(&wilds) {
                if real.len() + wild.len() <= max {
                    out.push(real.iter().chain(&wild).copied().collect());
                }
            }
        }
    }
    out.extend(wilds.iter().map(|&w| vec![w]));
    out
}

/// Every subset of a few cards, in order.
fn subsets(cards: &[Card]) -> Vec<Vec<Card>> {
    (0u32..1 << cards.len()).map(|m| (0..cards.len()).filter(|i| m >> i & 1 == 1).map(|i| cards[i]).collect()).collect()
}

/// The play of one deal: hands, the plays on the table, the cards cleared, who is out.
#[derive(Clone, Debug)]
pub struct Climb {
    /// The order of play, once round the table.
    pub order: Vec<Seat>,
    /// By seat.
    pub hands: Vec<Vec<Card>>,
    /// The plays since the table was last cleared, the one to beat last.
    pub table: Vec<Play>,
    /// Cards cleared from the table, out of play.
    pub cleared: Vec<Card>,
    pub to_play: Seat,
    /// Passes in a row since the last play.
    pub passes: usize,
    /// Seats rid of their cards, in the order they went out.
    pub out: Vec<Seat>,
}

impl Climb {
    /// The play of a deal with these hands, `order[0]` to lead.
    pub fn new(order: Vec<Seat>, hands: Vec<Vec<Card>>) -> Climb {
        Climb { to_play: order[0], order, hands, table: Vec::new(), cleared: Vec::new(), passes: 0, out: Vec::new() }
    }

    pub fn holds(&self, seat: Seat) -> bool {
        !self.hands[seat].is_empty()
    }

    /// Seats still holding cards.
    pub fn holders(&self) -> usize {
        self.order.iter().filter(|&&s| self.holds(s)).count()
    }

    /// The deal is played out once at most one player holds cards.
    pub fn over(&self) -> bool {
        self.holders() <= 1
    }

    /// The play to beat: none when the table is clear.
    pub fn last(&self) -> Option<&Play> {
        self.table.last()
    }

    /// The next seat after `seat` in the order of play that still holds cards.
    pub fn next_holding(&self, seat: Seat) -> Seat {
        let at = self.order.iter().position(|&s| s == seat).unwrap_or(0);
        let n = self.order.len();
        (1..=n).map(|i| self.order[(at + i) % n]).find(|&s| self.holds(s)).unwrap_or(seat)
    }

    /// Whether a pass now completes a round of passes and clears the table: every player still
    /// holding cards but the last to play has passed in a row.
    pub fn pass_clears(&self) -> bool {
        let Some(last) = self.last() else { return false };
        let needed = self.holders() - usize::from(self.holds(last.seat));
        self.passes + 1 >= needed
    }

    /// Who leads once the table is cleared: the last to play, or if that play took his last
    /// card, the next player after him still holding cards.
    pub fn leader_after_clear(&self) -> Seat {
        match self.last() {
            Some(p) if self.holds(p.seat) => p.seat,
            Some(p) => self.next_holding(p.seat),
            None => self.to_play,
        }
    }

    /// `seat` lays `cards` (held, checked by the game).
    pub fn play(&mut self, seat: Seat, cards: &[Card]) {
        for &c in cards {
            take_card(&mut self.hands[seat], c);
        }
        self.table.push(Play { seat, cards: cards.to_vec() });
        self.passes = 0;
        if !self.holds(seat) && !self.out.contains(&seat) {
            self.out.push(seat);
        }
        self.to_play = self.next_holding(seat);
    }

    pub fn pass(&mut self, seat: Seat) {
        self.passes += 1;
        self.to_play = self.next_holding(seat);
    }

    /// The table cleared, `leader` to lead.
    pub fn clear(&mut self, leader: Seat) {
        self.cleared.extend(self.table.drain(..).flat_map(|p| p.cards));
        self.passes = 0;
        self.to_play = leader;
    }

    /// The finishing order: those out in turn, then whoever still holds cards in the order of
    /// play (once the deal is over, the one left holding cards).
    pub fn ranking(&self) -> Vec<Seat> {
        let mut ranking = self.out.clone();
        ranking.extend(self.order.iter().filter(|s| !self.out.contains(s)));
        ranking
    }

    /// The cards every seat has seen played: on the table and cleared from it.
    pub fn seen(&self) -> Vec<Card> {
        self.table.iter().flat_map(|p| p.cards.iter().copied()).chain(self.cleared.iter().copied()).collect()
    }

    /// Every card of the deal: hands, table and cleared.
    pub fn all_cards(&self) -> Vec<Card> {
        let mut all = self.hands.concat();
        all.extend(self.seen());
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards, rank_value};

    struct AceHigh;
    impl Ranks for AceHigh {
        fn rank(&self, c: Card) -> u8 {
            if self.wild(c) {
                15
            } else {
                rank_value(c)
            }
        }
        fn wild(&self, c: Card) -> bool {
            matches!(c, Card::Joker(_))
        }
    }

    #[test]
    fn plays_beat_with_as_many_cards_of_a_higher_rank_and_real_cards_beat_wild_ones() {
        let s = |c: &str| shape(&cards(c), 4, &AceHigh).unwrap();
        assert!(s("9C 9D").beats(s("5H 5S")));
        assert!(!s("9C 9D 9H").beats(s("5H 5S")));
        assert!(!s("5C 5D").beats(s("5H 5S")));
        assert!(s("TC TD").beats(s("TH JK")));
        assert!(!s("TH JK").beats(s("TC TD")));
        assert!(s("JK").beats(s("AS")));
        assert_eq!(shape(&cards("5C 6C"), 4, &AceHigh), Err(Misfit::Ranks));
        assert_eq!(shape(&cards("5C 5D 5H 5S JK"), 4, &AceHigh), Err(Misfit::Count));
        assert_eq!(shape(&cards("5C 5C"), 4, &AceHigh), Err(Misfit::Ranks));
    }

    #[test]
    fn a_hand_offers_every_set_of_one_rank() {
        let all = plays(&cards("5C 5D 9H JK"), 4, &AceHigh);
        assert_eq!(all.len(), 3 * 2 + 2 + 1);
        assert!(all.contains(&cards("5C 5D JK")) && all.contains(&vec![card("JK")]));
    }

    #[test]
    fn the_table_clears_when_the_others_pass_and_after_going_out_the_next_holder_leads() {
        let mut c = Climb::new(vec![0, 1, 2], vec![cards("5C 9C"), cards("6C"), cards("7C KC")]);
        c.play(0, &cards("5C"));
        c.play(1, &cards("6C"));
        assert_eq!(c.out, [1]);
        assert_eq!(c.to_play, 2);
        assert!(!c.pass_clears());
        c.pass(2);
        // Seat 1 went out: the table clears once both holders have passed.
        assert!(c.pass_clears());
        assert_eq!(c.leader_after_clear(), 2);
        c.clear(2);
        assert_eq!(c.cleared.len(), 2);
        assert_eq!(c.ranking(), [1, 0, 2]);
    }
}
