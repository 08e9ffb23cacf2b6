//! Priffe's table view: what one viewer sees of the match and the deal.

use serde::Serialize;

use super::{Call, Contract, Options, SEATS};
use crate::cards::{Card, Suit};
use crate::deals::{MatchPhase, MatchView};
use crate::seat::Seat;
use crate::trick::PlayView;

/// Where the match is.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No deal has been dealt yet.
    WaitingForDeal,
    /// One round of bids from forehand.
    Bidding,
    /// The contract is settled and the thirteen tricks are being played.
    Playing,
    /// The deal is played out and scored; the next deal is awaited.
    DealOver,
    /// The match is over.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// The table as one viewer sees it. Scores are by player; the line scores (below and above) are
/// by side of the current sitting, side 0 being chairs 0 and 2.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, each player's total, who is to act, how it ended.
    #[serde(flatten)]
    pub deals: MatchView,
    /// The options the match is played with.
    pub options: Options,
    /// The sitting being played, 1 to 3 (always 1 in the simpler variant).
    pub sitting: u8,
    /// Who sits in each chair, clockwise, in the sitting being played.
    pub seating: [Seat; SEATS],
    /// The two sides of the sitting being played: chairs 0 and 2, then chairs 1 and 3.
    pub sides: [[Seat; 2]; 2],
    /// The viewer's side in the sitting being played: only in a seat's own view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub side: Option<usize>,
    /// Each side's trick points below the line in the game being played.
    pub below_the_line: [i64; 2],
    /// Each side's bonus and honour points above the line in this sitting.
    pub above_the_line: [i64; 2],
    /// Games won by each side in this sitting.
    pub games: [u8; 2],
    /// The trick points below the line that make a game.
    pub game_points: i64,
    /// The deal's forehand: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seats in the order they bid: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bidding_order: Option<Vec<Seat>>,
    /// Each seat's call, by seat, null for a seat that has not spoken: absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bids: Option<[Option<Call>; SEATS]>,
    /// The highest bid so far: null while nobody has bid, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub highest_bid: Option<Option<Call>>,
    /// What the deal is played as: null during the bidding, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<Option<Contract>>,
    /// The trump suit: null without trumps or during the bidding, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trumps: Option<Option<Suit>>,
    /// The seat whose bid stands: null at forced noll and during the bidding, absent before the
    /// first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declarer: Option<Option<Seat>>,
    /// The declarer's side: null when there is none, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declaring_side: Option<Option<usize>>,
    /// Who leads to the first trick: null during the bidding, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_lead: Option<Option<Seat>>,
    /// Tricks taken in this deal by each side: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub side_tricks: Option<[u32; 2]>,
    /// The pack as it was dealt, top card first: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// The card play of the deal, by seat: absent before the first deal.
    #[serde(flatten)]
    pub play: PlayView,
    /// The viewer's own hand: only in a seat's view, from the first deal on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}
