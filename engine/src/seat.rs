//! Seats around the table. Seat numbers grow clockwise: the seat after `s` clockwise is the
//! player to `s`'s left, who in most Swedish games is the next to act.

use serde::{Deserialize, Serialize};

pub type Seat = usize;

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// "Medsols": play passes to the left.
    #[default]
    Clockwise,
    /// "Motsols": play passes to the right (Fyrtioett, Tarot).
    CounterClockwise,
}

/// A table of `seats` players and the direction play passes in.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Table {
    pub seats: usize,
    pub direction: Direction,
}

impl Table {
    pub fn new(seats: usize) -> Table {
        Table { seats, direction: Direction::Clockwise }
    }

    pub fn counter_clockwise(seats: usize) -> Table {
        Table { seats, direction: Direction::CounterClockwise }
    }

    /// The next seat in the direction of play.
    pub fn next(&self, seat: Seat) -> Seat {
        self.after(seat, 1)
    }

    /// The seat `steps` places on in the direction of play.
    pub fn after(&self, seat: Seat, steps: usize) -> Seat {
        let steps = steps % self.seats;
        match self.direction {
            Direction::Clockwise => (seat + steps) % self.seats,
            Direction::CounterClockwise => (seat + self.seats - steps) % self.seats,
        }
    }

    /// "Förhand": the first player after the dealer in the direction of play.
    pub fn forehand(&self, dealer: Seat) -> Seat {
        self.next(dealer)
    }

    /// Every seat once, starting with `first`, in the direction of play.
    pub fn order_from(&self, first: Seat) -> Vec<Seat> {
        (0..self.seats).map(|i| self.after(first, i)).collect()
    }

    /// The partner across the table in a four-seat partnership game.
    pub fn partner(&self, seat: Seat) -> Seat {
        (seat + self.seats / 2) % self.seats
    }

    /// The partnership (0 or 1) of a seat when partners sit opposite each other.
    pub fn side(&self, seat: Seat) -> usize {
        seat % 2
    }
}

/// The two seats of partnership `side` at a table of four where partners sit opposite each
/// other: 0 and 2, or 1 and 3.
pub fn side_seats(side: usize) -> [Seat; 2] {
    [side, side + 2]
}

/// A partnership named for explanations, in Swedish and English: "lag 1 (plats 1 och 3)".
pub fn side_text(side: usize) -> (String, String) {
    let [a, b] = side_seats(side);
    (format!("lag {side} (plats {a} och {b})"), format!("side {side} (seats {a} and {b})"))
}

/// The seats with the highest total: a match's winners, several when tied.
pub fn match_winners(totals: &[i64]) -> Vec<Seat> {
    let best = totals.iter().copied().max().unwrap_or(0);
    (0..totals.len()).filter(|&s| totals[s] == best).collect()
}

/// "0, 2": seat numbers for explanations.
pub fn seats_text(seats: &[Seat]) -> String {
    seats.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clockwise_passes_to_the_left_and_wraps() {
        let t = Table::new(4);
        assert_eq!(t.next(3), 0);
        assert_eq!(t.forehand(1), 2);
        assert_eq!(t.order_from(2), vec![2, 3, 0, 1]);
        assert_eq!(t.partner(1), 3);
    }

    #[test]
    fn counter_clockwise_passes_to_the_right() {
        let t = Table::counter_clockwise(5);
        assert_eq!(t.next(0), 4);
        assert_eq!(t.order_from(1), vec![1, 0, 4, 3, 2]);
    }
}
