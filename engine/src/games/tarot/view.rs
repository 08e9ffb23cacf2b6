//! What each viewer is shown: views, redacted events and the secrets behind them.

use super::*;

/// The table of a Tarot match as one viewer sees it: the match so far, and the deal in
/// progress (or the last one) with what this viewer may know of it. A seated player sees their
/// own hand; the dog, the discards, the secret partner and every hand are shown only as the
/// rules turn them up; the record of a deal (and every viewer once it is over) sees it all.
/// Every field from `dealer` on is about the deal, and absent before the first deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match stands: waiting for a deal, a phase of the deal in progress, between
    /// deals (`deal-over`) or finished.
    pub phase: Phase,
    /// Players at the table (3 to 5).
    pub players: usize,
    /// The match's variants and length.
    pub options: Options,
    /// Deals started so far, cancelled ones included; 0 before the first.
    pub deal_number: u32,
    /// Deals played out and scored; cancelled deals do not count.
    pub deals_played: u32,
    /// Deals the match lasts; null when only the score limit ends it.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub deals_total: Option<u32>,
    /// The total that ends the match after the deal in which a player reaches it; null when
    /// there is none.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub score_limit: Option<u32>,
    /// Each seat's total score, by seat; they sum to zero.
    pub scores: Vec<i64>,
    /// The seats that may act now.
    pub to_act: Vec<Seat>,
    /// The seats that won the match (several on a tie); null until it is over.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub winners: Option<Vec<Seat>>,
    /// The seat that deals the next deal.
    pub next_dealer: Seat,
    /// Cards per hand, per packet and in the dog at this player count.
    pub layout: Layout,
    /// Trumps a single, a double and a triple poignée show at this player count.
    pub poignee_sizes: [usize; 3],
    /// The viewer's own seat; absent for a spectator and in the record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub seat: Option<Seat>,

    /// The seat that dealt the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub dealer: Option<Seat>,
    /// Why the deal was void (everybody passed, or a petit sec); null for a deal that stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancelled: Option<Option<CancelReason>>,
    /// The seats in the order they bid, from the dealer's right.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bidding_order: Option<Vec<Seat>>,
    /// Each seat's bid, by seat: a contract, `pass`, or null for a seat that has not spoken.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bids: Option<Vec<Option<Bid>>>,
    /// The highest contract bid so far; null while nobody has bid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub highest_bid: Option<Option<Contract>>,
    /// The seat that won the bidding; null until the bidding is won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taker: Option<Option<Seat>>,
    /// The contract the taker plays; null until the bidding is won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<Option<Contract>>,
    /// The contract's multiplier (1, 2, 4 or 6); null until the bidding is won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multiplier: Option<Option<i64>>,
    /// Five players: the card the taker called; null before the call and at 3 or 4 players.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub called_card: Option<Option<Card>>,
    /// Five players: the taker's secret partner, the holder of the called card. Null until the
    /// viewer may know: the partner knows at once, the table when the called card is played,
    /// everyone at the end of the deal; also null when the taker holds the card (plays alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partner: Option<Option<Seat>>,
    /// The called card has been played, so the partner is known to the table.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub partner_revealed: Option<bool>,
    /// Five players: whether the taker plays alone (the called card was in the dog or in the
    /// taker's own hand). Null when no card is called, and while the viewer cannot know.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taker_alone: Option<Option<bool>>,
    /// The dog's cards; null while they are face down (until the dog is shown, or to the end
    /// of a deal played without or against the dog).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dog: Option<Option<Vec<Card>>>,
    /// Cards in the dog.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub dog_size: Option<usize>,
    /// The side whose cards the dog counts with (the defence against the dog, the taker
    /// otherwise); null until the bidding is won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dog_to: Option<Option<Side>>,
    /// Cards the taker has discarded so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub discard_count: Option<usize>,
    /// The taker's discards; null to everyone but the taker until the deal is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discards: Option<Option<Vec<Card>>>,
    /// The trumps among the discards, which are shown to all.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub discarded_trumps: Option<Vec<Card>>,
    /// Whether the taker announced a slam; null until the taker has chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slam_announced: Option<Option<bool>>,
    /// Each seat's poignée, by seat, with the trumps it showed; null for a seat that showed none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub poignees: Option<Vec<Option<PoigneeShown>>>,
    /// Whether each seat claimed tröst (a hand without court cards), by seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trost: Option<Vec<bool>>,
    /// Cards in each seat's hand, by seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// Whether each seat has played a card in this deal, by seat: a poignée or tröst can only
    /// be declared before one's first card.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub has_played: Option<Vec<bool>>,
    /// The trick on the table.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trick: Option<CurrentTrick>,
    /// Tricks completed in this deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub tricks_played: Option<usize>,
    /// Tricks each seat has won, by seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub tricks_won: Option<Vec<u32>>,
    /// The last trick won, the only one still in view; null before the first is won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_trick: Option<Option<WonTrick>>,
    /// The count of the deal (sides, dog, Excuse, bouts, card points); absent until it has
    /// been played out and scored.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub count: Option<Count>,
    /// The deal's score, term by term; absent until it has been played out and scored.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub scoring: Option<Scoring>,
    /// The viewer's own hand; absent for a spectator and in the record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
    /// Every seat's hand, by seat; only in the record and once the deal is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// Every seat's hand as dealt, by seat; only in the record and once the deal is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub dealt: Option<Vec<Vec<Card>>>,
    /// The pack as it was dealt, top card first; only in the record and once the deal is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// Positions in the deck of the dog's cards; only in the record and once the deal is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub dog_positions: Option<Vec<usize>>,
    /// Every trick won in the deal, in order; only in the record and once the deal is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub tricks: Option<Vec<WonTrick>>,
}

/// A seat's bid: a contract, or a pass.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bid {
    Pass,
    /// "Litet spel", prise: ×1.
    Small,
    /// "Stort spel", garde: ×2.
    Big,
    /// "Spel utan hund", garde sans: ×4.
    WithoutDog,
    /// "Spel mot hunden", garde contre: ×6.
    AgainstDog,
}

impl From<Option<Contract>> for Bid {
    fn from(bid: Option<Contract>) -> Bid {
        match bid {
            None => Bid::Pass,
            Some(Contract::Small) => Bid::Small,
            Some(Contract::Big) => Bid::Big,
            Some(Contract::WithoutDog) => Bid::WithoutDog,
            Some(Contract::AgainstDog) => Bid::AgainstDog,
        }
    }
}

/// The trick on the table.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct CurrentTrick {
    /// The seat that leads (or led) the trick.
    pub leader: Seat,
    /// The cards played to it so far, in order.
    pub plays: Vec<Play>,
    /// What the trick is played in (a suit, or trumps): set by its first card other than the
    /// Excuse; null until then.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub led: Option<Led>,
}

/// A trick as it was won, and where the Excuse went.
// The shared record with Tarot's one addition: the extra field is why the OpenAPI document
// names it `TarotWonTrick`, apart from the shared `TrickRecord`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WonTrick {
    /// Its number, leader, cards, winner, winning card and why that card won.
    #[serde(flatten)]
    pub trick: TrickRecord,
    /// The seat that played the Excuse and keeps it rather than giving it up with the trick;
    /// null when the trick held no Excuse or was the last of the deal.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub excuse_to: Option<Seat>,
}

impl Deal {
    fn won_trick(&self, t: &TrickRecord) -> WonTrick {
        WonTrick { trick: t.clone(), excuse_to: self.excuse_kept_by(t) }
    }

    /// Whether the taker plays alone, once `me` may know it: the called card was in the dog
    /// or the taker's own hand.
    fn taker_alone_seen(&self, me: Option<Seat>, open: bool) -> Option<bool> {
        let called = self.called?;
        let mine = |s: Option<Seat>| me.is_some() && me == s;
        let alone = self.partner.is_none();
        let public = self.dog_taken && self.dog.contains(&called) || (self.partner_revealed && alone);
        let taker_holds = mine(self.taker) && me.is_some_and(|s| self.dealt[s].contains(&called));
        (open || self.partner_revealed || public || taker_holds || mine(self.partner)).then_some(alone)
    }
}

impl Tarot {
    pub(super) fn render_view(&self, state: &State, viewer: Viewer) -> Table {
        let players = state.players();
        let me = viewer.seat_at(players);
        let mine = |s: Option<Seat>| me.is_some() && me == s;
        let deal = state.deals.deal.as_ref();
        let open = |d: &Deal| d.phase == Phase::DealOver || viewer == Viewer::Record;
        // The record sees the whole deal, and so does everyone once it is over.
        let opened = deal.filter(|d| open(d));
        Table {
            phase: state.deals.phase(),
            players,
            options: state.options.clone(),
            deal_number: state.deals.number,
            deals_played: state.deals_played,
            deals_total: state.deals_total(),
            score_limit: state.options.score_limit,
            scores: state.deals.scores.clone(),
            to_act: self.status(state).to_act().to_vec(),
            winners: state.winners().map(<[Seat]>::to_vec),
            next_dealer: state.deals.next_dealer,
            layout: layout(players),
            poignee_sizes: poignee_sizes(players),
            seat: match viewer {
                Viewer::Seat(s) => Some(s),
                _ => None,
            },
            dealer: deal.map(|d| d.dealer),
            cancelled: deal.map(|d| d.cancelled),
            bidding_order: deal.map(|d| d.auction.order.clone()),
            bids: deal.map(|d| (0..players).map(|s| d.auction.bid_of(s).map(|&b| Bid::from(b))).collect()),
            highest_bid: deal.map(Deal::highest_bid),
            taker: deal.map(|d| d.taker),
            contract: deal.map(|d| d.contract),
            multiplier: deal.map(|d| d.contract.map(Contract::multiplier)),
            called_card: deal.map(|d| d.called),
            // The partner is known to the table once the called card is played; before that
            // only to the partner (and the taker knows when holding the card itself).
            partner: deal.map(|d| d.partner.filter(|_| open(d) || d.partner_revealed || mine(d.partner))),
            partner_revealed: deal.map(|d| d.partner_revealed),
            taker_alone: deal.map(|d| d.taker_alone_seen(me, open(d))),
            dog: deal.map(|d| (open(d) || d.dog_taken).then(|| d.dog.clone())),
            dog_size: deal.map(|d| d.dog.len()),
            dog_to: deal.map(|d| d.contract.map(Contract::dog_to)),
            discard_count: deal.map(|d| d.discards.len()),
            discards: deal.map(|d| (open(d) || mine(d.taker)).then(|| d.discards.clone())),
            discarded_trumps: deal.map(|d| d.discards.iter().copied().filter(|&c| is_trump(c)).collect()),
            slam_announced: deal.map(|d| d.slam_announced),
            poignees: deal.map(|d| d.poignees.clone()),
            trost: deal.map(|d| d.trost.clone()),
            hand_sizes: deal.map(|d| d.play.hands.iter().map(Vec::len).collect()),
            has_played: deal.map(|d| (0..players).map(|s| d.has_played(s)).collect()),
            trick: deal.map(|d| CurrentTrick {
                leader: d.play.trick.leader,
                plays: d.play.current_trick().plays,
                led: led_of(&d.play.trick.plays),
            }),
            tricks_played: deal.map(|d| d.play.tricks.len()),
            tricks_won: deal.map(|d| d.play.taken.clone()),
            // As at the table, the tricks are turned down once taken: only the last stays in view.
            last_trick: deal.map(|d| d.play.tricks.last().map(|t| d.won_trick(t))),
            count: deal.and_then(|d| d.result.as_ref()).map(|(count, _)| count.clone()),
            scoring: deal.and_then(|d| d.result.as_ref()).map(|(_, scoring)| scoring.clone()),
            hand: deal.zip(me).map(|(d, s)| d.play.hands[s].clone()),
            hands: opened.map(|d| d.play.hands.clone()),
            dealt: opened.map(|d| d.dealt.clone()),
            deck: opened.map(|d| d.deck.clone()),
            dog_positions: opened.map(|d| d.dog_positions.clone()),
            tricks: opened.map(|d| d.play.tricks.iter().map(|t| d.won_trick(t)).collect()),
        }
    }

    pub(super) fn redact_event(&self, _state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let full = serde_json::to_value(event).expect("events serialize");
        if viewer == Viewer::Record || deal_over {
            return full;
        }
        let Value::Object(mut map) = full else { return full };
        match event {
            Event::DealStarted { hands, dog, .. } => {
                map.remove("deck");
                map.remove("dog_positions");
                map.insert("dog".into(), Value::Null);
                map.insert("dog_size".into(), json!(dog.len()));
                map.insert("hand_sizes".into(), json!(hands.iter().map(Vec::len).collect::<Vec<_>>()));
                let shown: Vec<Value> = (0..hands.len())
                    .map(|s| if viewer == Viewer::Seat(s) { json!(hands[s]) } else { Value::Null })
                    .collect();
                map.insert("hands".into(), Value::Array(shown));
            }
            Event::Discarded { seat, shown: false, .. } if viewer != Viewer::Seat(*seat) => {
                map.insert("card".into(), Value::Null);
            }
            _ => {}
        }
        Value::Object(map)
    }

    pub(super) fn secret_cards(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let hidden = |c: &&Card| !deal.public.contains(c);
        let mut out = deal.play.hand_secrets(|_, c| deal.public.contains(&c));
        if !deal.dog_taken {
            out.extend(deal.dog.iter().filter(hidden).map(|&c| (c, Vec::new())));
        }
        if let Some(taker) = deal.taker {
            out.extend(deal.discards.iter().filter(hidden).map(|&c| (c, vec![taker])));
        }
        out
    }
}
