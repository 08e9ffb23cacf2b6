//! What each viewer is shown: the table view of a match and a deal, and a seat's own cards.

use super::*;

/// The table as one viewer sees it: the match (points, loaves, chips, the pot) and the deal in
/// progress or the last one. A seat sees its own hand, its discards and its thrown-in hand;
/// nobody else ever sees those, not even in the record, which shows the cards played and the
/// turned trump card only (its steps show the hands as they were, with every card never shown
/// hidden by the service). Every deal field is absent before the first deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, points (`scores`, from 10 down), who is to act, how it
    /// ended.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    /// Chips won (negative: paid in) so far, by seat.
    pub balances: Vec<i64>,
    /// Chips in the pot.
    pub pot: i64,
    /// Loaves (limpor) so far, by seat.
    pub limpor: Vec<u32>,
    /// Deals played and scored so far (redeals not counted).
    pub deals_played: u32,
    /// Forehand of the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The match's first played deal: everyone plays after a knock.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub first_deal: Option<bool>,
    /// Trumfmant holds in this deal: trumps must be played when possible.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trumfmant: Option<bool>,
    /// The turned card (taken up by the dealer): known to everyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trump_card: Option<Card>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trumps: Option<Suit>,
    /// The bidding, in the order spoken.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub calls: Option<Vec<KnockCall>>,
    /// The seat that knocked first; null until someone does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knocker: Option<Option<Seat>>,
    /// The answers to the knock, in the order given (second deal on).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub joins: Option<Vec<JoinCall>>,
    /// Seats that folded this deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub folded: Option<Vec<Seat>>,
    /// Purchases so far, in order: counts only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub buys: Option<Vec<BuyCall>>,
    /// Cards left in the talon.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub talon_size: Option<usize>,
    /// Every payment of the deal (opening stakes, loaves, the pot), each with its rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub payments: Option<Vec<Payment>>,
    /// How the deal was scored; null until it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Option<DealResult>>,
    /// The card play of the deal (the record has the hands only while the deal is played: what
    /// was never shown stays hidden).
    #[serde(flatten)]
    pub play: PlayView,
    /// The viewer's own hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
    /// The viewer's own cards put away when buying.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub discarded: Option<Vec<Card>>,
    /// The viewer's own thrown-in hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub folded_hand: Option<Vec<Card>>,
}

impl Norrlandsknack {
    /// The table for `viewer`; `own` is the seat whose own cards are shown (a seat's view, or a
    /// seat's record).
    pub(super) fn render(&self, state: &State, viewer: Viewer, own: Option<Seat>) -> Table {
        let players = state.players();
        let deal = state.deals.deal.as_ref();
        let mine = deal.zip(own);
        let record = viewer == Viewer::Record;
        let mut play = deal.map(|d| d.play.view(record)).unwrap_or_default();
        // A deal's record shows the hands while it is played, as a replay step shows them (the
        // service puts null for every card the whole record keeps back: discards, folded hands,
        // cards never played); the hands left when it is over were never shown.
        if deal.is_none_or(|d| d.stage == Stage::Over) {
            play.hands = None;
        }
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, players, deal.map(|d| d.dealer)),
            options: state.options.clone(),
            balances: state.ledger.seats(players),
            pot: state.pot(),
            limpor: state.limpor.clone(),
            deals_played: state.deals_played,
            forehand: deal.map(|d| d.forehand),
            first_deal: deal.map(|d| d.first_deal),
            trumfmant: deal.map(|d| d.trumfmant),
            trump_card: deal.map(|d| d.trump_card),
            trumps: deal.map(|d| d.trumps),
            calls: deal.map(|d| d.calls.clone()),
            knocker: deal.map(|d| d.knocker),
            joins: deal.map(|d| d.joins.clone()),
            folded: deal.map(|d| d.play.out.clone()),
            buys: deal.map(|d| d.buys.clone()),
            talon_size: deal.map(|d| d.talon.len()),
            payments: deal.map(|d| d.payments.clone()),
            result: deal.map(|d| d.result.clone()),
            play,
            hand: mine.map(|(d, s)| d.play.hands[s].clone()),
            discarded: mine.map(|(d, s)| d.discards[s].clone()),
            folded_hand: mine.map(|(d, s)| d.folded[s].clone()),
        }
    }
}
