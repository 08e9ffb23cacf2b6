//! What each viewer is shown: the table view of a match and a deal, and a seat's own cards.

use super::*;
use crate::deals::MatchView;
use crate::trick::PlayView;

/// Where a seat stands on "går ni med?".
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GoingOn {
    /// The declarer, who asks.
    Declarer,
    /// Had a trick when asked: in without a word.
    InWithTrick,
    /// Has still to answer.
    Undecided,
    /// Has answered; what, the others learn once every answer is in.
    Answered,
    Joined,
    /// Threw the last two cards face down and sits the deal out.
    Dropped,
    /// Out of the match after a failed Rödskägg: not dealt in.
    OutOfMatch,
}

/// The table as one viewer sees it: the match (points counting down from 12) and the deal in
/// progress or the last one. A seat sees its own hand and its own thrown cards; nobody else ever
/// sees those, not even in the record, which shows the cards played (its steps show the hands as
/// they were, with every card never shown hidden by the service). Every deal field is absent
/// before the first deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, points (`scores`, from 12 down), who is to act, how it
    /// ended.
    #[serde(flatten)]
    pub deals: MatchView,

    pub options: Options,
    /// Seats out of the match after a failed Rödskägg.
    pub out_of_match: Vec<Seat>,
    /// Why the match ended: null until it has.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub end_reason: Option<EndReason>,
    /// What each loser paid when the match was settled in money: empty until then, and always
    /// when the option is off.
    pub settlement: Vec<Payment>,
    /// Forehand of the deal, who bids first.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The bidding, in the order spoken.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub calls: Option<Vec<Call>>,
    /// The declarer; null until the bidding is over (and when everyone sneaked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declarer: Option<Option<Seat>>,
    /// The declarer's bid; null until the bidding is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bid: Option<Option<Bid>>,
    /// By seat, where each stands on "går ni med?"; null until the declarer has asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub going_on: Option<Option<Vec<GoingOn>>>,
    /// The declarer has knocked for going out ("knack för min utgång") in this deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub out_knocked: Option<bool>,
    /// How the deal was scored; null until it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Option<DealResult>>,
    /// The card play of the deal (the record has the hands only while the deal is played:
    /// thrown cards stay hidden).
    #[serde(flatten)]
    pub play: PlayView,
    /// The viewer's own hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
    /// The viewer's own two cards thrown on dropping out (empty if it did not drop).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub thrown: Option<Vec<Card>>,
}

/// Where each seat stands on "går ni med?" as `own` (a seat's view or record) may know it.
fn going_on(deal: &Deal, own: Option<Seat>) -> Option<Vec<GoingOn>> {
    if !deal.asked {
        return None;
    }
    let declarer = deal.declarer?;
    Some(
        (0..deal.players())
            .map(|s| {
                if deal.out_of_match.contains(&s) {
                    GoingOn::OutOfMatch
                } else if s == declarer {
                    GoingOn::Declarer
                } else if deal.in_with_trick.contains(&s) {
                    GoingOn::InWithTrick
                } else {
                    match deal.answers.iter().find(|(a, _)| *a == s) {
                        None => GoingOn::Undecided,
                        Some(_) if !deal.answers_shown && own != Some(s) => GoingOn::Answered,
                        Some((_, true)) => GoingOn::Joined,
                        Some((_, false)) => GoingOn::Dropped,
                    }
                }
            })
            .collect(),
    )
}

impl Rodskagg {
    /// The table for `viewer`; `own` is the seat whose own cards are shown (a seat's view, or a
    /// seat's record).
    pub(super) fn render(&self, state: &State, viewer: Viewer, own: Option<Seat>) -> Table {
        let deal = state.deals.deal.as_ref();
        let mine = deal.zip(own);
        let mut play = deal.map(|d| d.play.view(viewer == Viewer::Record)).unwrap_or_default();
        // The record shows the hands while the deal is played, as a replay step shows them (the
        // service puts null for every card the whole record keeps back: thrown cards, cards
        // never played); the hands left when it is over were never shown.
        if deal.is_none_or(|d| d.stage == Stage::Over) {
            play.hands = None;
        }
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, state.players(), deal.map(|d| d.dealer)),
            options: state.options.clone(),
            out_of_match: state.out_of_match.clone(),
            end_reason: state.end_reason,
            settlement: state.settlement.clone(),
            forehand: deal.map(|d| d.forehand),
            calls: deal.map(|d| d.auction.bids.iter().map(|&(seat, bid)| Call { seat, bid }).collect()),
            declarer: deal.map(|d| d.declarer),
            bid: deal.map(|d| d.bid),
            going_on: deal.map(|d| going_on(d, own)),
            out_knocked: deal.map(|d| d.knocked_out),
            result: deal.map(|d| d.result.clone()),
            play,
            hand: mine.map(|(d, s)| d.play.hands[s].clone()),
            thrown: mine.map(|(d, s)| d.thrown[s].clone()),
        }
    }
}
