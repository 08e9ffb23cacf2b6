//! What each viewer is shown: views, the masked record of a deal with a blanked card, redacted
//! events and the secrets behind them.

use super::*;

/// The table of a Svängknack match as one viewer sees it: the pot and the balances, and the deal
/// in progress (or the last one). A seated player also sees their own hand, discards, thrown-in
/// cards and blanked card; nobody else ever sees a blanked card. The record (of a finished deal)
/// shows every hand, the deck and the talon; where a card was blanked, it shows each card only to
/// whoever saw it at the table, with null for the rest. Every field from `dealer` on is about the
/// deal, and absent before the first deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match stands: waiting for a deal, a phase of the deal in progress, between
    /// deals (`deal-over`) or finished.
    pub phase: TablePhase,
    /// Players at the table (3 to 12).
    pub players: usize,
    /// The match's stake, pack and length.
    pub options: Options,
    /// The lowest rank in the pack (2 to 6), from the options or the player count.
    pub lowest_rank: u8,
    /// Cards in the pack.
    pub pack_size: usize,
    /// The base stake each of the three stakers puts into the pot before every deal.
    pub stake: i64,
    /// Deals started so far; 0 before the first.
    pub deal_number: u32,
    /// Deals in the scheduled rounds (each seat deals once a round); the match goes on past them
    /// until the pot goes out.
    pub deals_scheduled: u32,
    /// Chips in the pot.
    pub pot: i64,
    /// Each seat's chips won (negative: lost) so far, by seat.
    pub balances: Vec<i64>,
    /// The seats that may act now.
    pub to_act: Vec<Seat>,
    /// The seats that won the match (several on a tie); null until it is over.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub winners: Option<Vec<Seat>>,
    /// The viewer's own seat; absent for a spectator and in the record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub seat: Option<Seat>,

    /// The seat that dealt the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub dealer: Option<Seat>,
    /// Forehand, on the dealer's left: the first to stake and the first who may swing.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// A forced deal ("tvång"): the pot was empty before the stakes, so a turned card sets
    /// trumps and everyone plays.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forced: Option<bool>,
    /// The trump suit; null until it is turned (forced deal) or chosen by the swinger, and in a
    /// deal nobody swung.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trumps: Option<Option<Suit>>,
    /// The cards face up beside the talon: the forced deal's trump card, or the two the swinger
    /// chooses trumps from; empty before they are turned.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turned_cards: Option<Vec<Card>>,
    /// The seat that swung (knocked to play for the pot and choose trumps); null in a forced
    /// deal and until somebody swings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swinger: Option<Option<Seat>>,
    /// Whether forehand, then the next player, swung or passed, in the order they spoke.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub swing_calls: Option<Vec<SwingCall>>,
    /// Whether each player after the swinger joined or threw in, in the order they spoke.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub join_calls: Option<Vec<JoinCall>>,
    /// The seats playing for the pot.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub in_play: Option<Vec<Seat>>,
    /// The seats that threw in their hand rather than join.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub folded: Option<Vec<Seat>>,
    /// The seats in the order they buy from the talon.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub buy_order: Option<Vec<Seat>>,
    /// Each turn of the buying round so far, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub buys: Option<Vec<BuyCall>>,
    /// Cards left in the talon.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub talon_count: Option<usize>,
    /// Cards in each seat's hand, by seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// The trick being played, 1 to 3 (3 also once all three are played).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trick_number: Option<usize>,
    /// The trick on the table.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trick: Option<CurrentTrick>,
    /// The tricks won so far in the deal, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub tricks: Option<Vec<TrickSeen>>,
    /// Tricks each seat has taken in the deal, by seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub tricks_taken: Option<Vec<u32>>,
    /// How the pot was shared and paid into after the third trick; null until then, and in a
    /// deal nobody swung.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settlement: Option<Option<Settlement>>,
    /// The viewer's own hand; only for a seated player.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
    /// The viewer's own card played face down to the second trick, if any; only for a seated
    /// player.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub blanked: Option<Vec<Card>>,
    /// The cards put away when buying: a seated player's own, or in the record every seat's,
    /// by seat; absent for a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub discards: Option<SeatCards>,
    /// The cards thrown in when declining to join: a seated player's own, or in the record
    /// every seat's, by seat; absent for a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub thrown_in: Option<SeatCards>,
    /// The pack as it was dealt, top card first; only in the record (null: a card kept hidden,
    /// see the table's description).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Option<Card>>>,
    /// Every seat's hand as dealt, by seat; only in the record (null: a card kept hidden).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands_dealt: Option<Vec<Vec<Option<Card>>>>,
    /// Every seat's hand now, by seat; only in the record (null: a card kept hidden).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Option<Card>>>>,
    /// The talon left, top card first; only in the record (null: a card kept hidden).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub talon: Option<Vec<Option<Card>>>,
    /// The cards each seat drew from the talon, by seat; only in the record (null: a card kept
    /// hidden).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub drawn: Option<Vec<Vec<Option<Card>>>>,
}

impl Table {
    /// Nulls every card `shows` rejects: the record of a deal with a blanked card.
    fn mask(&mut self, shows: &dyn Fn(Card) -> bool) {
        let hide = |card: &mut Option<Card>| {
            if card.is_some_and(|c| !shows(c)) {
                *card = None;
            }
        };
        let hide_all = |cards: &mut Vec<Option<Card>>| cards.iter_mut().for_each(hide);
        let by_seat = |seats: &mut Vec<Vec<Option<Card>>>| seats.iter_mut().for_each(hide_all);
        self.deck.iter_mut().for_each(hide_all);
        self.talon.iter_mut().for_each(hide_all);
        self.hands_dealt.iter_mut().for_each(by_seat);
        self.hands.iter_mut().for_each(by_seat);
        self.drawn.iter_mut().for_each(by_seat);
        for cards in self.discards.iter_mut().chain(&mut self.thrown_in) {
            if let SeatCards::EverySeat(seats) = cards {
                by_seat(seats);
            }
        }
        let plays = self.trick.iter_mut().flat_map(|t| &mut t.plays);
        plays.chain(self.tricks.iter_mut().flatten().flat_map(|t| &mut t.plays)).for_each(|p| hide(&mut p.card));
        self.tricks.iter_mut().flatten().for_each(|t| hide(&mut t.card));
        // The turned cards were face up for all, so the mask never hides them.
        debug_assert!(self.turned_cards.iter().flatten().all(|&c| shows(c)));
    }
}

/// Where a Svängknack match stands.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TablePhase {
    /// No deal yet: the first is to be dealt.
    WaitingForDeal,
    /// Forehand, then the next player, may swing.
    Swinging,
    /// The swinger picks trumps from the suits of the two turned cards.
    ChoosingTrumps,
    /// The others say whether they join, from the swinger's left.
    Joining,
    /// Those in buy from the talon, once each.
    Buying,
    /// The three tricks are played.
    Playing,
    /// The deal is settled or passed out; the next deal is to be dealt.
    DealOver,
    /// The match is over.
    Finished,
}

impl MatchPhase for TablePhase {
    const WAITING_FOR_DEAL: TablePhase = TablePhase::WaitingForDeal;
    const FINISHED: TablePhase = TablePhase::Finished;
}

/// What a seat said when it could swing.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SwingCall {
    /// The seat that spoke.
    pub seat: Seat,
    /// True: swung, to play for the pot and choose trumps; false: passed.
    pub swung: bool,
}

/// What a seat said after the swing.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct JoinCall {
    /// The seat that spoke.
    pub seat: Seat,
    /// True: joined, to play along with the swinger; false: threw in the hand.
    pub joined: bool,
}

/// One seat's turn in the buying round.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BuyCall {
    /// The seat whose turn it was.
    pub seat: Seat,
    /// Bought (and how many cards), stood, or skipped for want of a talon.
    pub turn: BuyTurn,
}

/// The trick on the table.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CurrentTrick {
    /// The seat that leads (or led) the trick.
    pub leader: Seat,
    /// The cards played to it so far, in order.
    pub plays: Vec<TrickPlay>,
}

/// A trick as it was won.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TrickSeen {
    /// 1 for the first trick of the deal.
    pub number: usize,
    /// The seat that led it.
    pub leader: Seat,
    /// Its cards, in the order they were played.
    pub plays: Vec<TrickPlay>,
    /// The seat that took it.
    pub winner: Seat,
    /// The card that took it; null when a blanked lead did (nobody played a trump).
    #[cfg_attr(feature = "openapi", schema(required))]
    pub card: Option<Card>,
    /// Why it went to the winner.
    pub reason: Won,
}

/// Cards a seat put aside, as the viewer may see them: a seated player sees its own; the record
/// shows every seat's, by seat (null: a card kept hidden, see the table's description).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum SeatCards {
    /// The viewer's own cards.
    Own(Vec<Card>),
    /// Every seat's cards, by seat (in the record).
    EverySeat(Vec<Vec<Option<Card>>>),
}

impl Svangknack {
    pub(super) fn redact_event(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        use Event as E;
        let mut full = serde_json::to_value(event).expect("events serialize");
        if viewer == Viewer::Record || deal_over {
            if let Some(mask) = event.deal_number().and_then(|n| self.record_mask(state, n)) {
                mask_cards(&mut full, &|c| mask.shows(c, viewer));
            }
            return full;
        }
        let Value::Object(map) = &mut full else { return full };
        let own = |s: Seat| viewer == Viewer::Seat(s);
        match event {
            E::DealStarted { hands, talon, .. } => {
                map.remove("deck");
                map.remove("talon");
                map.insert("talon_count".into(), json!(talon.len()));
                map.insert("hand_sizes".into(), json!(hands.iter().map(Vec::len).collect::<Vec<_>>()));
                let shown: Vec<Value> =
                    (0..hands.len()).map(|s| if own(s) { json!(hands[s]) } else { Value::Null }).collect();
                map.insert("hands".into(), Value::Array(shown));
            }
            E::Folded { seat, .. } if !own(*seat) => {
                map.insert("cards".into(), Value::Null);
            }
            E::Bought { seat, .. } if !own(*seat) => {
                map.insert("discarded".into(), Value::Null);
                map.insert("drawn".into(), Value::Null);
            }
            E::CardBlanked { seat, .. } if !own(*seat) => {
                map.insert("card".into(), Value::Null);
            }
            _ => {}
        }
        full
    }

    /// The state as `viewer` sees it; `record_of` is the seat whose deal record this is, which
    /// shows it the cards it held itself where a blanked card masks the rest.
    pub(super) fn render(&self, state: &State, viewer: Viewer, record_of: Option<Seat>) -> Table {
        let players = state.players();
        let deal = state.deals.deal.as_ref();
        let own = |s: Seat| viewer == Viewer::Seat(s) || (viewer == Viewer::Record && record_of == Some(s));
        let seen_by = |d: &Deal, &(seat, card): &(Seat, Card)| seen(seat, card, d.is_blanked(card), own(seat));
        let mine = deal.zip(match viewer {
            Viewer::Seat(s) if s < players => Some(s),
            _ => None,
        });
        let record = deal.filter(|_| viewer == Viewer::Record);
        let every = |cards: &[Vec<Card>]| -> Vec<Vec<Option<Card>>> {
            cards.iter().map(|hand| hand.iter().copied().map(Some).collect()).collect()
        };
        let mut v = Table {
            phase: state.deals.phase(),
            players,
            options: state.options.clone(),
            lowest_rank: state.lowest_rank,
            pack_size: pack_size(state.lowest_rank),
            stake: state.options.stake,
            deal_number: state.deals.number,
            deals_scheduled: state.deals_scheduled(),
            pot: state.pot(),
            balances: state.ledger.seats(players),
            to_act: self.status(state).to_act().to_vec(),
            winners: state.deals.outcome.as_ref().map(|o| o.winners.clone()),
            seat: match viewer {
                Viewer::Seat(s) => Some(s),
                _ => None,
            },
            dealer: deal.map(|d| d.dealer),
            forehand: deal.map(|d| d.forehand),
            forced: deal.map(|d| d.forced),
            trumps: deal.map(|d| d.trumps),
            turned_cards: deal.map(|d| d.turned.clone()),
            swinger: deal.map(|d| d.swinger),
            swing_calls: deal.map(|d| d.swing_calls.iter().map(|&(seat, swung)| SwingCall { seat, swung }).collect()),
            join_calls: deal.map(|d| d.join_calls.iter().map(|&(seat, joined)| JoinCall { seat, joined }).collect()),
            in_play: deal.map(Deal::in_seats),
            folded: deal.map(|d| d.play.out.clone()),
            buy_order: deal.map(|d| d.buy_order.clone()),
            buys: deal.map(|d| d.buys.iter().map(|&(seat, turn)| BuyCall { seat, turn }).collect()),
            talon_count: deal.map(|d| d.talon.len()),
            hand_sizes: deal.map(|d| d.play.hands.iter().map(Vec::len).collect()),
            trick_number: deal.map(|d| d.play.number().min(HAND)),
            trick: deal.map(|d| CurrentTrick {
                leader: d.play.trick.leader,
                plays: d.play.trick.plays.iter().map(|p| seen_by(d, p)).collect(),
            }),
            tricks: deal.map(|d| {
                let seen_trick = |t: &trick::TrickRecord| {
                    let (card, reason) = shown_win(t.card, t.reason, d.is_blanked(t.card));
                    let plays = t.plays.iter().map(|p| seen_by(d, &(p.seat, p.card))).collect();
                    TrickSeen { number: t.number, leader: t.leader, plays, winner: t.winner, card, reason }
                };
                d.play.tricks.iter().map(seen_trick).collect()
            }),
            tricks_taken: deal.map(|d| d.play.taken.clone()),
            settlement: deal.map(|d| d.settlement.clone()),
            hand: mine.map(|(d, s)| d.play.hands[s].clone()),
            blanked: mine.map(|(d, s)| d.blanked.iter().filter(|p| p.seat == s).map(|p| p.card).collect()),
            discards: mine
                .map(|(d, s)| SeatCards::Own(d.discards[s].clone()))
                .or_else(|| record.map(|d| SeatCards::EverySeat(every(&d.discards)))),
            thrown_in: mine
                .map(|(d, s)| SeatCards::Own(d.folded[s].clone()))
                .or_else(|| record.map(|d| SeatCards::EverySeat(every(&d.folded)))),
            deck: record.map(|d| d.deck.iter().copied().map(Some).collect()),
            hands_dealt: record.map(|d| every(&d.dealt)),
            hands: record.map(|d| every(&d.play.hands)),
            talon: record.map(|d| d.talon.iter().copied().map(Some).collect()),
            drawn: record.map(|d| every(&d.drawn)),
        };
        if let Some(d) = record.filter(|d| !d.blanked.is_empty()) {
            let mask = RecordMask::of(d);
            let as_seen = record_of.map_or(Viewer::Record, Viewer::Seat);
            v.mask(&|c| mask.shows(c, as_seen));
        }
        v
    }

    pub(super) fn record_mask(&self, state: &State, deal_number: u32) -> Option<RecordMask> {
        match &state.deals.deal {
            Some(d) if d.number == deal_number => (!d.blanked.is_empty()).then(|| RecordMask::of(d)),
            _ => state.masks.get(&deal_number).cloned(),
        }
    }
}

/// Replaces every card the viewer may not see with `null`, wherever it sits in `value`.
fn mask_cards(value: &mut Value, shows: &dyn Fn(Card) -> bool) {
    match value {
        Value::String(s) if s.parse::<Card>().is_ok_and(|c| !shows(c)) => *value = Value::Null,
        Value::Array(items) => items.iter_mut().for_each(|i| mask_cards(i, shows)),
        Value::Object(map) => map.values_mut().for_each(|i| mask_cards(i, shows)),
        _ => {}
    }
}
