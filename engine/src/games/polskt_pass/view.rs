//! What each viewer is shown: views, redacted events and the secrets behind them.

use super::*;
use crate::trick::PlayView;

/// Where the match stands, as the table shows it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TablePhase {
    /// No deal has started yet: the first deal is to be dealt.
    WaitingForDeal,
    /// The cutter (on the dealer's right) is to cut the pack.
    Cutting,
    /// The cards are dealt and the turned card lies face up: the dealer decides whether to take
    /// a turned ace.
    TurnedCard,
    /// The players bid for trumps, in round one or round two.
    Bidding,
    /// Whoever holds six cards puts one away face down, before the first lead.
    Discarding,
    /// The cards are played, trick by trick.
    Playing,
    /// The deal is over and paid: the next deal is to be dealt.
    DealOver,
    /// The last deal is over and what was left is shared out: the match is over.
    Finished,
}

/// The bidding for trumps: who speaks next, and every call made this deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bidding {
    /// The bidding round under way, 1 or 2; null when nobody is to bid (before the bidding, after
    /// it, or in a deal without bidding).
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub round: Option<u8>,
    /// The seat to speak next; null when nobody is to bid.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub next: Option<Seat>,
    /// Every call made this deal, round one's then round two's, in the order they were made.
    pub calls: Vec<CallRecord>,
}

/// A polskt pass table as one viewer sees it: the match and its money, and the deal under way
/// (or the last one played). The deal's fields are absent before the first deal. A seat sees its
/// own hand and its own discard; the deal's record shows every hand, the hands as dealt, the
/// discards and the tricks, but never the undealt rest of the pack.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    /// Where the match stands.
    pub phase: TablePhase,
    /// Players at the table.
    pub players: usize,
    /// What the players agreed before the first deal.
    pub options: Options,
    /// Deals started so far, the one under way included: the number of the current deal (0
    /// before the first deal).
    pub deal_number: u32,
    /// Deals in the whole match: the rounds times the players.
    pub deals_total: u32,
    /// The seats that may act now; empty while a deal is to be dealt and once the match is over.
    pub to_act: Vec<Seat>,
    /// The seats that won the most money, several on a tie; null until the match is over.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winners: Option<Vec<Seat>>,
    /// Each seat's money, won less paid in, by seat.
    pub balances: Vec<i64>,
    /// What the pot holds now.
    pub pot: i64,
    /// The bets waiting for a later deal, each by the number it was made under.
    pub bets: Vec<BetRecord>,
    /// The viewer's own seat; only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub seat: Option<Seat>,
    /// The seat that deals this deal; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub dealer: Option<Seat>,
    /// The seat that cuts the pack: the dealer's right; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub cutter: Option<Seat>,
    /// Forehand, the dealer's left: bids first and leads to the first trick; absent before the
    /// first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The waiting bet this deal is played for along with the pot (the least valuable one), by
    /// its number; null when no bet is waiting; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u32>))]
    pub bet_in_play: Option<Option<u32>>,
    /// What the winner of this deal takes: the pot plus the bet in play; absent before the first
    /// deal and once the deal is over (its `result` says what was played for).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub amount_played_for: Option<i64>,
    /// The cut; null until the pack is cut; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<CutRecord>))]
    pub cut: Option<Option<CutRecord>>,
    /// The card turned face up after dealing, whose suit is offered as trumps in round one; null
    /// until the cards are dealt; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Card>))]
    pub turned_card: Option<Option<Card>>,
    /// True once the dealer has taken the turned card into the hand; absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turned_card_taken: Option<bool>,
    /// True while the dealer is to choose whether to take a turned ace (the cutter took no card);
    /// absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub ace_choice: Option<bool>,
    /// The trump suit (the four jacks are trumps as well); null until trumps are set, and in a
    /// deal everyone passed; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Suit>))]
    pub trumps: Option<Option<Suit>>,
    /// How the deal got its trumps and declarers; null until trumps are set; absent before the
    /// first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<TrumpsFrom>))]
    pub trumps_from: Option<Option<TrumpsFrom>>,
    /// The id of the rule that set the trumps, for the rulebook; null until trumps are set;
    /// absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub trumps_rule: Option<Option<String>>,
    /// The seats that declared and play to win the deal: one, or the dealer and the cutter when
    /// both took a card; empty until trumps are set; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub declarers: Option<Vec<Seat>>,
    /// The bidding for trumps; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bidding: Option<Bidding>,
    /// The seats holding six cards that have still to put one away; absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_discard: Option<Vec<Seat>>,
    /// The seats that have put a card away this deal, in order (the cards stay hidden); absent
    /// before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub discarded: Option<Vec<Seat>>,
    /// Cards left in the pack: all of it until the cards are dealt (less a jack the cutter took),
    /// then the unused rest, which is never shown; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub undealt: Option<usize>,
    /// The seat that announced la vola (to take all five tricks); null unless one did; absent
    /// before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Seat>))]
    pub la_vola: Option<Option<Seat>>,
    /// How the deal ended and what was paid; null until the deal is over; absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<DealResult>))]
    pub result: Option<Option<DealResult>>,
    /// The viewer's own hand, sorted by suit and rank; only in the view of a seat at the table,
    /// once a deal has started.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
    /// The card the viewer put away face down; null if the viewer has discarded nothing this
    /// deal; only in the view of a seat at the table, once a deal has started.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Card>))]
    pub discard: Option<Option<Card>>,
    /// Each seat's five cards as they were dealt (empty before the cards are dealt), by seat;
    /// only in the deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub dealt_hands: Option<Vec<Vec<Card>>>,
    /// Every card put away this deal, with the seat that put it away, in order; only in the
    /// deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub discards: Option<Vec<Play>>,
    /// The card play of the deal: hand sizes, tricks taken and played, the trick on the table
    /// (whose led suit is trumps when a jack is led) and the last trick; in the deal's record
    /// every hand (the cards not yet played or put away) and every trick.
    #[serde(flatten)]
    pub play: PlayView,
}

impl PolsktPass {
    pub(super) fn render_view(&self, state: &State, viewer: Viewer) -> Table {
        let players = state.players();
        let deal = state.deals.deal.as_ref();
        let mine = deal.zip(viewer.seat_at(players));
        let record = viewer == Viewer::Record;
        let books = state.books();
        let played_for = |d: &Deal| books.pot + d.bet_in_play.map_or(0, |b| state.ledger.balance(Account::Bet(b)));
        let mut play = deal.map(|d| d.play.view(record)).unwrap_or_default();
        if let (Some(trick), Some(d)) = (&mut play.trick, deal) {
            trick.led_suit = d.trumps.and_then(|t| led_suit(&d.play.trick, t));
        }
        Table {
            phase: state.deals.phase(),
            players,
            options: state.options.clone(),
            deal_number: state.deals.number,
            deals_total: state.deals_total(),
            to_act: self.status(state).to_act().to_vec(),
            winners: state.deals.outcome.as_ref().map(|o| o.winners.clone()),
            seat: match viewer {
                Viewer::Seat(s) => Some(s),
                _ => None,
            },
            dealer: deal.map(|d| d.dealer),
            cutter: deal.map(Deal::cutter),
            forehand: deal.map(Deal::forehand),
            bet_in_play: deal.map(|d| d.bet_in_play),
            amount_played_for: deal.filter(|d| d.phase != TablePhase::DealOver).map(played_for),
            cut: deal.map(|d| d.cut),
            turned_card: deal.map(|d| d.turned_card),
            turned_card_taken: deal.map(|d| d.turned_taken),
            ace_choice: deal.map(Deal::ace_choice_open),
            trumps: deal.map(|d| d.trumps),
            trumps_from: deal.map(|d| d.trumps_from),
            trumps_rule: deal.map(|d| d.trumps_from.map(|f| f.rule().to_string())),
            declarers: deal.map(|d| d.declarers.clone()),
            bidding: deal.map(|d| Bidding {
                round: d.bidding_turn().map(|(r, _)| r),
                next: d.bidding_turn().map(|(_, s)| s),
                calls: d.calls().copied().collect(),
            }),
            to_discard: deal.map(Deal::to_discard),
            discarded: deal.map(|d| d.discards.iter().map(|(s, _)| *s).collect()),
            undealt: deal.map(|d| d.pack.len()),
            la_vola: deal.map(|d| d.la_vola),
            result: deal.map(|d| d.result.clone()),
            hand: mine.map(|(d, s)| d.play.hands[s].clone()),
            discard: mine.map(|(d, s)| d.discards.iter().find(|(t, _)| *t == s).map(|(_, c)| *c)),
            // Everything but the undealt rest of the pack, which stays hidden for ever.
            dealt_hands: deal.filter(|_| record).map(|d| d.dealt.clone()),
            discards: deal
                .filter(|_| record)
                .map(|d| d.discards.iter().map(|&(seat, card)| Play { seat, card }).collect()),
            play,
            balances: books.balances,
            pot: books.pot,
            bets: books.bets,
        }
    }

    pub(super) fn redact_event(&self, _state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let full = serde_json::to_value(event).expect("events serialize");
        let Value::Object(mut map) = full else { return full };
        let open = viewer == Viewer::Record || deal_over;
        match event {
            Event::DealStarted { deck, .. } => {
                // The order would give away the undealt rest: never shown to anyone.
                map.remove("deck");
                map.insert("deck_size".into(), json!(deck.len()));
            }
            Event::CardsDealt { hands, .. } if !open => {
                let shown: Vec<Value> = (0..hands.len())
                    .map(|s| if viewer == Viewer::Seat(s) { json!(hands[s]) } else { Value::Null })
                    .collect();
                map.insert("hands".into(), Value::Array(shown));
                map.insert("hand_sizes".into(), json!(hands.iter().map(Vec::len).collect::<Vec<_>>()));
            }
            Event::CardDiscarded { seat, .. } if !open && viewer != Viewer::Seat(*seat) => {
                map.insert("card".into(), Value::Null);
                map.insert("hidden".into(), json!(true));
            }
            _ => {}
        }
        Value::Object(map)
    }

    pub(super) fn secret_cards(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deals.deal else { return Vec::new() };
        let public = deal.public_cards();
        let mut secrets = deal.play.hand_secrets(|_, c| public.contains(&c));
        let discarded = deal.discards.iter().map(|&(s, c)| (c, vec![s]));
        let rest = deal.pack.iter().map(|&c| (c, Vec::new()));
        secrets.extend(discarded.chain(rest).filter(|(c, _)| !public.contains(c)));
        secrets
    }
}
