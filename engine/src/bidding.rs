//! The bidding toolkit: who bids next, what has been bid, and whether the round is done.

use serde::{Deserialize, Serialize};

use crate::seat::Seat;

/// One round of bids in a fixed order, each bidder once.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Auction<B> {
    pub order: Vec<Seat>,
    pub bids: Vec<(Seat, B)>,
}

impl<B: Clone> Auction<B> {
    pub fn new(order: Vec<Seat>) -> Auction<B> {
        Auction { order, bids: Vec::new() }
    }

    pub fn next_bidder(&self) -> Option<Seat> {
        self.order.get(self.bids.len()).copied()
    }

    pub fn is_complete(&self) -> bool {
        self.bids.len() >= self.order.len()
    }

    /// True when `seat` is the last to bid in this round.
    pub fn is_last(&self, seat: Seat) -> bool {
        self.order.last() == Some(&seat)
    }

    pub fn bid_of(&self, seat: Seat) -> Option<&B> {
        self.bids.iter().find(|(s, _)| *s == seat).map(|(_, b)| b)
    }

    pub fn has_bid(&self, seat: Seat) -> bool {
        self.bid_of(seat).is_some()
    }

    pub fn record(&mut self, seat: Seat, bid: B) {
        self.bids.push((seat, bid));
    }

    /// Seats still to bid, in order.
    pub fn waiting(&self) -> Vec<Seat> {
        self.order.iter().copied().filter(|s| !self.has_bid(*s)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bids_go_round_once_in_order() {
        let mut a: Auction<u8> = Auction::new(vec![2, 0, 1]);
        assert_eq!(a.next_bidder(), Some(2));
        a.record(2, 3);
        assert_eq!(a.next_bidder(), Some(0));
        assert!(!a.is_complete());
        a.record(0, 1);
        a.record(1, 0);
        assert!(a.is_complete());
        assert_eq!(a.bid_of(0), Some(&1));
        assert!(a.is_last(1));
        assert!(a.waiting().is_empty());
    }
}
