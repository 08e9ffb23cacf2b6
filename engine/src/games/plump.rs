//! Plump (Oh Hell): every deal each player bids the exact number of tricks they will take.
//!
//! The match is a fixed schedule of deals (as many cards each as the pack allows, one fewer
//! each deal down to one, optionally back up again). Each deal is bidding, trick play and a
//! score; the match ends after the last deal of the schedule.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bidding::Auction;
use crate::bots;
use crate::cards::{decks, sort_hand, sorted, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase};
use crate::game::{Outcome, Rules, SetupError, Status, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm};
use crate::seat::{self, match_winners, Seat};
use crate::trick::{self, PlayView, Trick, TrickPlay, WinReason};
pub use crate::trick::{Play, TrickRecord};

#[derive(Default)]
pub struct Plump;

pub const DECK_SIZE: usize = 52;
pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 8;
/// Three players get 17 cards each: the largest hand, and so the largest bid anyone can make.
pub const MAX_HAND: usize = DECK_SIZE / MIN_PLAYERS;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "plump.deal.players";
    pub const FIRST_DEAL: &str = "plump.deal.first-deal";
    pub const DEALER_ROTATES: &str = "plump.deal.dealer-rotates";
    pub const ONE_AT_A_TIME: &str = "plump.deal.one-at-a-time";

    pub const NO_TRUMPS_FIRST: &str = "plump.trumps.first-deal";
    pub const TURNED_CARD: &str = "plump.trumps.turned-card";
    pub const ACE_NO_TRUMPS: &str = "plump.trumps.ace";

    pub const BID_ORDER: &str = "plump.bidding.order";
    pub const BID_RANGE: &str = "plump.bidding.range";

    pub const FIRST_LEAD: &str = "plump.play.first-lead";
    pub const FOLLOW_SUIT: &str = "plump.play.follow-suit";
    pub const VOID: &str = "plump.play.void";
    pub const TRICK_WINNER: &str = "plump.play.trick-winner";
    pub const WINNER_LEADS: &str = "plump.play.winner-leads";

    pub const TRICK_POINTS: &str = "plump.score.tricks";
    pub const EXACT_BONUS: &str = "plump.score.exact-bid";
    pub const ZERO_BID: &str = "plump.score.zero-bid";

    pub const MATCH_WINNER: &str = "plump.end.winner";

    pub const LAST_BIDDER: &str = "plump.variant.last-bidder-restricted";
    pub const NOT_BOTH: &str = "plump.variant.not-both";

    pub const NOTHING_TO_TURN: &str = "plump.house.nothing-to-turn";
    pub const TIES_SHARE: &str = "plump.house.ties-share";
}

// ---------------------------------------------------------------------------------------------
// Options

/// The three variants of the text, each off by default.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Variant 1: after the one-card deal, go back up to the first deal's size.
    #[serde(alias = "back-up")]
    pub back_up: bool,
    /// Variant 2: the last bidder may not make the bids add up to the tricks in the deal.
    #[serde(alias = "last-bidder-restricted")]
    pub last_bidder_restricted: bool,
    /// Variant 3: everyone bids at once, unseen until all bids are in.
    #[serde(alias = "simultaneous-bids")]
    pub simultaneous_bids: bool,
}

/// Cards per hand in each deal of a match, in order.
pub fn deal_sizes(players: usize, back_up: bool) -> Vec<usize> {
    let first = DECK_SIZE / players;
    let mut sizes: Vec<usize> = (1..=first).rev().collect();
    if back_up {
        // The one-card deal is the turning point and is played once.
        sizes.extend(2..=first);
    }
    sizes
}

// ---------------------------------------------------------------------------------------------
// State

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    cards_per_hand: usize,
    deck: Vec<Card>,
    set_aside: Vec<Card>,
    turned_card: Option<Card>,
    trumps: Option<Suit>,
    trumps_from: TrumpsFrom,
    auction: Auction<u32>,
    /// Taken from the deal's own record, so a deal replayed on its own keeps its bidding mode.
    simultaneous: bool,
    /// Simultaneous bids stay private until this is set.
    bids_revealed: bool,
    /// As many tricks as cards in a hand, which shrinks (and may grow again) deal by deal.
    play: TrickPlay,
}

impl deals::Deal for Deal {
    type Phase = TablePhase;

    fn to_act(&self) -> Vec<Seat> {
        match self.phase() {
            TablePhase::Bidding if self.simultaneous => {
                (0..self.play.table.seats).filter(|&s| !self.auction.has_bid(s)).collect()
            }
            TablePhase::Bidding => self.auction.next_bidder().into_iter().collect(),
            TablePhase::Playing => vec![self.play.to_play()],
            _ => Vec::new(),
        }
    }

    fn is_live(&self) -> bool {
        !self.play.is_over()
    }

    fn phase(&self) -> TablePhase {
        if !self.auction.is_complete() {
            TablePhase::Bidding
        } else if self.play.is_over() {
            TablePhase::DealOver
        } else {
            TablePhase::Playing
        }
    }
}

impl Deal {
    fn bid(&self, seat: Seat) -> Option<u32> {
        self.auction.bid_of(seat).copied()
    }

    fn bids_total(&self) -> u32 {
        self.auction.bids.iter().map(|(_, b)| *b).sum()
    }

    /// Bids by seat once everyone has bid.
    fn all_bids(&self) -> Vec<u32> {
        (0..self.play.table.seats).map(|s| self.bid(s).unwrap_or(0)).collect()
    }

    /// The highest card of the suit led wins, unless a trump is played.
    fn winner(&self) -> impl Fn(&Trick) -> (Seat, Card, WinReason) {
        let trumps = self.trumps;
        move |t| trick::winner(t, trumps)
    }
}

#[derive(Clone, Debug)]
pub struct State {
    table: seat::Table,
    options: Options,
    deal_sizes: Vec<usize>,
    deals: Deals<Deal>,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }

    fn deals_total(&self) -> u32 {
        self.deal_sizes.len() as u32
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    Bid { tricks: u32 },
    Play { card: Card },
}

/// Why the deal has the trumps it has.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrumpsFrom {
    /// The first deal never has trumps.
    FirstDeal,
    /// The suit of the turned card.
    TurnedCard,
    /// An ace was turned: no trumps.
    AceTurned,
    /// Every card was dealt, so none could be turned: no trumps (house rule).
    NothingToTurn,
}

impl TrumpsFrom {
    fn rule(self) -> &'static str {
        match self {
            TrumpsFrom::FirstDeal => rule::NO_TRUMPS_FIRST,
            TrumpsFrom::TurnedCard => rule::TURNED_CARD,
            TrumpsFrom::AceTurned => rule::ACE_NO_TRUMPS,
            TrumpsFrom::NothingToTurn => rule::NOTHING_TO_TURN,
        }
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        deals_total: u32,
        dealer: Seat,
        cards_per_hand: usize,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's hand, sorted by suit and rank.
        hands: Vec<Vec<Card>>,
        /// Cards left over after dealing, other than the turned card: never seen in play.
        set_aside: Vec<Card>,
        turned_card: Option<Card>,
        /// `null` when the deal has no trumps.
        trumps: Option<Suit>,
        trumps_from: TrumpsFrom,
        bidding_order: Vec<Seat>,
        first_lead: Seat,
        /// Scores before this deal.
        scores: Vec<i64>,
        /// The match's variants, which this deal is played under.
        options: Options,
    },
    BidMade {
        seat: Seat,
        tricks: u32,
    },
    /// Simultaneous bidding only: the last bid is in and every bid is shown, by seat.
    BidsRevealed {
        bids: Vec<u32>,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
    },
    TrickWon {
        /// 1 for the first trick of the deal.
        trick_number: usize,
        winner: Seat,
        card: Card,
        reason: WinReason,
        plays: Vec<Play>,
    },
    DealScored {
        deal_number: u32,
        bids: Vec<u32>,
        tricks_taken: Vec<u32>,
        /// Each seat's score for the deal, term by term.
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
        /// Scores after this deal.
        totals: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        scores: Vec<i64>,
    },
}

// ---------------------------------------------------------------------------------------------
// Rules that are pure functions, kept apart so tests can reach them directly

/// The terms of one seat's score for a deal.
pub fn score_terms(seat: Seat, bid: u32, taken: u32) -> Vec<ScoreTerm> {
    let mut terms = vec![ScoreTerm::new(
        seat,
        taken as i64,
        rule::TRICK_POINTS,
        format!("Plats {seat} tog {taken} stick: {taken} poäng."),
        format!("Seat {seat} took {taken} trick{}: {taken} point{}.", plural(taken), plural(taken)),
    )];
    terms.push(if bid == 0 && taken == 0 {
        ScoreTerm::new(
            seat,
            5,
            rule::ZERO_BID,
            format!("Plats {seat} bjöd noll och tog inget stick: 5 poäng."),
            format!("Seat {seat} bid zero and took no trick: 5 points."),
        )
    } else if bid == taken {
        ScoreTerm::new(
            seat,
            10,
            rule::EXACT_BONUS,
            format!("Plats {seat} bjöd {bid} och tog exakt så många: 10 poäng i bonus."),
            format!("Seat {seat} bid {bid} and took exactly that many: a 10-point bonus."),
        )
    } else {
        ScoreTerm::new(
            seat,
            0,
            rule::EXACT_BONUS,
            format!("Plats {seat} bjöd {bid} men tog {taken}: ingen bonus."),
            format!("Seat {seat} bid {bid} but took {taken}: no bonus."),
        )
    });
    terms
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_bid(state: &State, deal: &Deal, seat: Seat, tricks: u32) -> Result<Vec<Event>, RuleViolation> {
    if deal.auction.is_complete() {
        return Err(RuleViolation::wrong_phase(
            "budgivningen är över, nu spelas korten",
            "the bidding is over and the cards are being played",
        ));
    }
    let most = deal.cards_per_hand as u32;
    if tricks > most {
        return Err(RuleViolation::new(
            rule::BID_RANGE,
            format!("Du bjöd {tricks} stick men har bara {most} kort på handen; ett bud ska vara från 0 till {most}."),
            format!("You bid {tricks} tricks but hold only {most} cards; a bid must be from 0 to {most}."),
        ));
    }
    if state.options.last_bidder_restricted && deal.auction.is_last(seat) {
        let before = deal.bids_total();
        if before + tricks == most {
            return Err(RuleViolation::new(
                rule::LAST_BIDDER,
                format!(
                    "Du bjuder sist: de andra har bjudit {before} tillsammans, så ett bud på {tricks} skulle göra summan lika med givens {most} stick. Bjud fler eller färre."
                ),
                format!(
                    "You bid last: the others bid {before} between them, so a bid of {tricks} would make the total equal to the {most} tricks in this deal. Bid more or fewer."
                ),
            ));
        }
    }
    let mut events = vec![Event::BidMade { seat, tricks }];
    if deal.simultaneous && deal.auction.bids.len() + 1 == state.players() {
        let mut bids = deal.all_bids();
        bids[seat] = tricks;
        events.push(Event::BidsRevealed { bids });
    }
    Ok(events)
}

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if !deal.auction.is_complete() {
        return Err(RuleViolation::wrong_phase(
            "alla har inte bjudit än, korten spelas efter budgivningen",
            "not everyone has bid yet; cards are played after the bidding",
        ));
    }
    deal.play.check_held(seat, card)?;
    if let Some(led) = deal.play.trick.led_suit() {
        if !card.is_suit(led) && deal.play.hands[seat].iter().any(|c| c.is_suit(led)) {
            let (sv, en) = (led.name_sv(), led.name_en());
            return Err(RuleViolation::new(
                rule::FOLLOW_SUIT,
                format!("Du lade {card} men har {sv} på handen; när {sv} är utspelat måste du bekänna färg."),
                format!("You played {card} but hold {en}; when {en} are led you must follow suit."),
            ));
        }
    }
    let mut events = vec![Event::CardPlayed { seat, card }];
    let Some(won) = deal.play.completed_by(seat, card, &deal.winner()) else { return Ok(events) };
    events.push(Event::TrickWon {
        trick_number: won.number,
        winner: won.winner,
        card: won.card,
        reason: won.reason,
        plays: won.plays,
    });
    if !won.last {
        return Ok(events);
    }
    let players = state.players();
    let bids = deal.all_bids();
    let terms: Vec<ScoreTerm> = (0..players).flat_map(|s| score_terms(s, bids[s], won.taken[s])).collect();
    let points: Vec<i64> = (0..players).map(|s| terms.iter().filter(|t| t.to == s).map(|t| t.points).sum()).collect();
    let totals: Vec<i64> = (0..players).map(|s| state.deals.scores[s] + points[s]).collect();
    events.push(Event::DealScored {
        deal_number: deal.number,
        bids,
        tricks_taken: won.taken,
        terms,
        points,
        totals: totals.clone(),
    });
    if deal.number >= state.deals_total() {
        events.push(Event::MatchEnded { winners: match_winners(&totals), scores: totals });
    }
    Ok(events)
}

/// What a viewer may know of the bids: simultaneous bids stay private until revealed.
fn visible_bids(deal: &Deal, viewer: Viewer) -> Vec<Option<u32>> {
    (0..deal.play.table.seats)
        .map(|s| {
            let visible =
                deal.bids_revealed || !deal.simultaneous || viewer == Viewer::Record || viewer == Viewer::Seat(s);
            deal.bid(s).filter(|_| visible)
        })
        .collect()
}

/// The bids made so far, added up, unless that would give away a bid hidden from the viewer.
fn visible_total(deal: &Deal, viewer: Viewer) -> Option<u32> {
    let bids = visible_bids(deal, viewer);
    let hidden = bids.iter().enumerate().any(|(s, b)| b.is_none() && deal.auction.has_bid(s));
    (!hidden).then(|| deal.bids_total())
}

// ---------------------------------------------------------------------------------------------
// The table view

/// Where the match stands, as the table shows it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TablePhase {
    /// No deal has started yet: the first deal is to be dealt.
    WaitingForDeal,
    /// The players bid for tricks.
    Bidding,
    /// The cards are played, trick by trick.
    Playing,
    /// Every trick of the deal is played and scored: the next deal is to be dealt.
    DealOver,
    /// The last deal of the schedule is scored: the match is over.
    Finished,
}

impl MatchPhase for TablePhase {
    const WAITING_FOR_DEAL: TablePhase = TablePhase::WaitingForDeal;
    const FINISHED: TablePhase = TablePhase::Finished;
}

/// A plump table as one viewer sees it: the match, and the deal under way (or the last one
/// played). The deal's fields are absent before the first deal. A seat sees its own hand, and in
/// the simultaneous-bids variant only its own bid until every bid is in; the deal's record shows
/// every hand, the set-aside cards, the deck and the tricks.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    /// Where the match stands.
    pub phase: TablePhase,
    /// Players at the table.
    pub players: usize,
    /// The variants the match is played under.
    pub options: Options,
    /// Deals started so far, the one under way included: the number of the current deal (0
    /// before the first deal).
    pub deal_number: u32,
    /// Deals in the whole match.
    pub deals_total: u32,
    /// Cards each player is dealt in each deal of the match, in the order of the deals.
    pub deal_sizes: Vec<usize>,
    /// Each seat's score so far, by seat.
    pub scores: Vec<i64>,
    /// The seats that may act now: the seat to bid or play (every seat yet to bid, when bids are
    /// made at once); empty while a deal is to be dealt and once the match is over.
    pub to_act: Vec<Seat>,
    /// The seats that won the match, several on a tie; null until the match is over.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winners: Option<Vec<Seat>>,
    /// The viewer's own seat; only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub seat: Option<Seat>,
    /// The seat that dealt this deal; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub dealer: Option<Seat>,
    /// Cards each player was dealt this deal, and so the tricks in it and the highest bid;
    /// absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub cards_per_hand: Option<usize>,
    /// The card turned up after dealing, whose suit is trumps (no trumps if it is an ace); null
    /// when no card was turned (the first deal, or a deal that used every card); absent before
    /// the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Card>))]
    pub trump_card: Option<Option<Card>>,
    /// The trump suit; null when the deal is played without trumps; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Suit>))]
    pub trumps: Option<Option<Suit>>,
    /// Why the deal has the trumps it has (or none); absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trumps_from: Option<TrumpsFrom>,
    /// The id of the rule that gave the deal its trumps (or none), for the rulebook; absent before
    /// the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trumps_rule: Option<String>,
    /// The seat that leads to the first trick: the dealer's left; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub first_lead: Option<Seat>,
    /// The seats in the order they bid: the dealer first, then round the table in the direction
    /// of play; absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bidding_order: Option<Vec<Seat>>,
    /// True when this deal's bids are made at once and shown only when all are in (variant 3);
    /// absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub simultaneous_bids: Option<bool>,
    /// The bids made so far, added up; null while that would give away a bid hidden from the
    /// viewer (simultaneous bids before they are revealed); absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u32>))]
    pub bids_total: Option<Option<u32>>,
    /// Each seat's bid (tricks it means to take), by seat; null for a seat that has not bid yet
    /// or whose bid the viewer may not see yet (simultaneous bids before they are revealed);
    /// absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bids: Option<Vec<Option<u32>>>,
    /// Whether each seat has bid, by seat: public even while the bid itself is hidden; absent
    /// before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub has_bid: Option<Vec<bool>>,
    /// The card play of the deal (hand sizes, tricks taken, the trick on the table, the last
    /// trick, and in the deal's record every hand and trick): absent before the first deal.
    #[serde(flatten)]
    pub play: PlayView,
    /// The viewer's own hand, sorted by suit and rank; only in the view of a seat at the table,
    /// once a deal has started.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
    /// The cards left over after dealing, other than the turned card, never seen in play; only in
    /// the deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub set_aside: Option<Vec<Card>>,
    /// The pack as it was dealt, top card first; only in the deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Plump {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "plump";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/plump.txt");

    /// Each variant alone and with back-up; the two bidding variants exclude each other.
    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        let mut sets = Vec::new();
        for back_up in [false, true] {
            for (last_bidder_restricted, simultaneous_bids) in [(false, false), (true, false), (false, true)] {
                sets.push(Options { back_up, last_bidder_restricted, simultaneous_bids });
            }
        }
        sets
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !self.player_counts().contains(&players) {
            return Err(SetupError(format!("plump is played by 3 to 8 players, not {players}")));
        }
        if options.last_bidder_restricted && options.simultaneous_bids {
            return Err(SetupError(format!(
                "last_bidder_restricted and simultaneous_bids cannot be combined: with simultaneous bids nobody bids last ({})",
                rule::NOT_BOTH
            )));
        }
        Ok(State {
            table: seat::Table::new(players),
            deal_sizes: deal_sizes(players, options.back_up),
            options,
            deals: Deals::new(players),
        })
    }

    fn status(&self, state: &State) -> Status {
        state.deals.status(decks::standard52)
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals.number
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let deal_number = state.deals.number + 1;
        let dealer = state.deals.next_dealer;
        let cards_per_hand = state.deal_sizes[deal_number as usize - 1];
        let dealt = state.players() * cards_per_hand;
        let hands = deals::deal_singly(&state.table, dealer, &deck[..dealt]).into_iter().map(sorted).collect();
        let rest = &deck[dealt..];
        let (turned_card, trumps, trumps_from) = if deal_number == 1 {
            (None, None, TrumpsFrom::FirstDeal)
        } else {
            match rest.first() {
                None => (None, None, TrumpsFrom::NothingToTurn),
                Some(&c) if c.rank() == Some(Rank::ACE) => (Some(c), None, TrumpsFrom::AceTurned),
                Some(&c) => (Some(c), c.suit(), TrumpsFrom::TurnedCard),
            }
        };
        let set_aside = rest[turned_card.is_some() as usize..].to_vec();
        Ok(vec![Event::DealStarted {
            deal_number,
            deals_total: state.deals_total(),
            dealer,
            cards_per_hand,
            set_aside,
            turned_card,
            trumps,
            trumps_from,
            bidding_order: state.table.order_from(dealer),
            first_lead: state.table.forehand(dealer),
            scores: state.deals.scores.clone(),
            options: state.options.clone(),
            deck,
            hands,
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match *command {
            Command::Bid { tricks } => decide_bid(state, deal, seat, tricks),
            Command::Play { card } => decide_play(state, deal, seat, card),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted {
                deal_number,
                dealer,
                cards_per_hand,
                deck,
                hands,
                set_aside,
                turned_card,
                trumps,
                trumps_from,
                bidding_order,
                first_lead,
                scores,
                options,
                ..
            } => {
                // The deal carries what it inherits, so it can be replayed on its own.
                state.options = options.clone();
                state.deal_sizes = deal_sizes(state.players(), options.back_up);
                state.deals.next_dealer = state.table.next(*dealer);
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    cards_per_hand: *cards_per_hand,
                    deck: deck.clone(),
                    set_aside: set_aside.clone(),
                    turned_card: *turned_card,
                    trumps: *trumps,
                    trumps_from: *trumps_from,
                    auction: Auction::new(bidding_order.clone()),
                    simultaneous: options.simultaneous_bids,
                    bids_revealed: false,
                    play: TrickPlay::new(state.table, hands.clone(), *first_lead, *cards_per_hand),
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { terms, totals, .. } => state.deals.scored(terms, totals),
            Event::MatchEnded { winners, .. } => {
                let outcome = Outcome::most_points(winners, &state.deals.scores);
                state.deals.ended(winners, &outcome.explanation);
            }
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                match event {
                    Event::BidMade { seat, tricks } => deal.auction.record(*seat, *tricks),
                    Event::BidsRevealed { .. } => deal.bids_revealed = true,
                    Event::CardPlayed { seat, card } => deal.play.play(*seat, *card),
                    Event::TrickWon { winner, card, reason, .. } => deal.play.won(*winner, *card, *reason),
                    _ => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        if deal.auction.is_complete() {
            return deal.play.following(seat).into_iter().map(|card| Command::Play { card }).collect();
        }
        (0..=deal.cards_per_hand as u32)
            .map(|tricks| Command::Bid { tricks })
            .filter(|c| self.decide(state, seat, c).is_ok())
            .collect()
    }

    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        // One bid past the hand size is enough to probe the upper bound of the range.
        let hand = state.deals.deal.as_ref().map_or(MAX_HAND, |d| d.cards_per_hand);
        (0..=hand as u32 + 1)
            .map(|tricks| Command::Bid { tricks })
            .chain(decks::standard52().into_iter().map(|card| Command::Play { card }))
            .collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let players = state.players();
        let record = viewer == Viewer::Record;
        let deal = state.deals.deal.as_ref();
        Table {
            phase: state.deals.phase(),
            players,
            options: state.options.clone(),
            deal_number: state.deals.number,
            deals_total: state.deals_total(),
            deal_sizes: state.deal_sizes.clone(),
            scores: state.deals.scores.clone(),
            to_act: self.status(state).to_act().to_vec(),
            winners: state.deals.outcome.as_ref().map(|o| o.winners.clone()),
            seat: match viewer {
                Viewer::Seat(s) => Some(s),
                _ => None,
            },
            dealer: deal.map(|d| d.dealer),
            cards_per_hand: deal.map(|d| d.cards_per_hand),
            trump_card: deal.map(|d| d.turned_card),
            trumps: deal.map(|d| d.trumps),
            trumps_from: deal.map(|d| d.trumps_from),
            trumps_rule: deal.map(|d| d.trumps_from.rule().to_string()),
            first_lead: deal.map(|d| state.table.forehand(d.dealer)),
            bidding_order: deal.map(|d| d.auction.order.clone()),
            simultaneous_bids: deal.map(|d| d.simultaneous),
            bids_total: deal.map(|d| visible_total(d, viewer)),
            bids: deal.map(|d| visible_bids(d, viewer)),
            has_bid: deal.map(|d| (0..players).map(|s| d.auction.has_bid(s)).collect()),
            play: deal.map(|d| d.play.view(record)).unwrap_or_default(),
            hand: deal.zip(viewer.seat_at(players)).map(|(d, s)| d.play.hands[s].clone()),
            set_aside: deal.filter(|_| record).map(|d| d.set_aside.clone()),
            deck: deal.filter(|_| record).map(|d| d.deck.clone()),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events serialize");
        if viewer == Viewer::Record || deal_over {
            return full;
        }
        match event {
            Event::DealStarted { hands, set_aside, .. } => {
                deals::hide_hands(&mut full, hands, viewer);
                // The deck and the cards set aside are not even shown as hidden: only how many
                // were set aside.
                let map = full.as_object_mut().expect("an event is an object");
                map.remove("deck");
                map.remove("set_aside");
                map.insert("set_aside_count".into(), json!(set_aside.len()));
            }
            Event::BidMade { seat, .. } if state.options.simultaneous_bids && viewer != Viewer::Seat(*seat) => {
                // Who has bid is public; what they bid waits for `bids_revealed`.
                full["tricks"] = Value::Null;
                full["hidden"] = json!(true);
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deals.deal else { return Vec::new() };
        let mut secrets = deal.play.hand_secrets(|_, _| false);
        secrets.extend(deal.set_aside.iter().map(|&c| (c, Vec::new())));
        secrets
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bots::lead_over_mean(state.players(), |s| state.deals.scores[s] as f64, seat)
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.live()?;
        if !deal.auction.is_complete() {
            let estimate = bots::estimate_tricks(&deal.play.hands[seat], deal.trumps, state.players());
            let distance = |c: &Command| match c {
                Command::Bid { tricks } => (*tricks as f64 - estimate).abs(),
                Command::Play { .. } => f64::MAX,
            };
            return self.legal_moves(state, seat).into_iter().min_by(|a, b| distance(a).total_cmp(&distance(b)));
        }
        let aim = if deal.play.taken[seat] < deal.bid(seat).unwrap_or(0) { bots::Aim::Take } else { bots::Aim::Duck };
        let last = deal.play.trick.plays.len() + 1 == state.players();
        bots::basic_card(&deal.play.following(seat), &deal.play.trick, deal.trumps, seat, None, last, aim)
            .map(|card| Command::Play { card })
    }

    /// The deal as `seat` knows it: its own hand, the turned card, the cards played and the
    /// bids shown; the other hands and the set-aside cards dealt afresh from the cards it has
    /// not seen, keeping each hand's size and the suits a seat has shown it lacks; bids still
    /// hidden (simultaneous bidding) left unmade.
    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        let deal = state.deals.deal.as_ref()?;
        let players = state.players();
        // Not `bots::resample_play`, which draws from the unseen cards in another order: the
        // same seed would deal other worlds, and the bot would choose other moves.
        let played: Vec<Card> = deal.play.played().map(|(_, c)| c).collect();
        let seen: Vec<Card> = deal.play.hands[seat].iter().chain(&played).chain(&deal.turned_card).copied().collect();
        let pool: Vec<Card> = decks::standard52().into_iter().filter(|c| !seen.contains(c)).collect();
        let void = bots::voids(players, &deal.play.tricks, &deal.play.trick);
        let others: Vec<Seat> = (0..players).filter(|&s| s != seat).collect();
        let mut piles: Vec<(usize, [bool; 4])> = others.iter().map(|&s| (deal.play.hands[s].len(), void[s])).collect();
        piles.push((deal.set_aside.len(), [false; 4]));
        let mut dealt = bots::redeal(&pool, &piles, rng);
        let mut world = state.clone();
        let w = world.deals.deal.as_mut().expect("cloned");
        w.set_aside = dealt.pop().expect("the set-aside pile");
        for (&s, mut hand) in others.iter().zip(dealt) {
            sort_hand(&mut hand);
            w.play.hands[s] = hand;
        }
        // Not the deck as dealt (which nobody may see), but the same cards.
        let hands = w.play.hands.iter().flatten();
        w.deck = hands.chain(&played).chain(&w.turned_card).chain(&w.set_aside).copied().collect();
        if w.simultaneous && !w.bids_revealed {
            let own = w.bid(seat);
            w.auction = Auction::new(w.auction.order.clone());
            if let Some(b) = own {
                w.auction.record(seat, b);
            }
        }
        Some(world)
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let (number, total) = (state.deals.number, state.deals_total());
        if number > total {
            return Err(format!("deal {number} of {total}"));
        }
        if let Some(outcome) = &state.deals.outcome {
            if number != total {
                return Err("the match ended before its last deal".into());
            }
            if outcome.winners != match_winners(&state.deals.scores) {
                return Err(format!(
                    "winners {:?} are not the top scorers of {:?}",
                    outcome.winners, state.deals.scores
                ));
            }
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        if deal.number != number || deal.number == 0 {
            return Err(format!("the deal in play is {} but {number} were started", deal.number));
        }
        if deal.cards_per_hand != state.deal_sizes[deal.number as usize - 1] {
            return Err(format!("deal {} has {} cards each", deal.number, deal.cards_per_hand));
        }
        if deal.dealer != (deal.number as usize - 1) % state.players() {
            return Err(format!("deal {} dealt by seat {}", deal.number, deal.dealer));
        }
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let elsewhere: Vec<Card> = deal.turned_card.iter().chain(&deal.set_aside).copied().collect();
        deal.play.check(&pack, &elsewhere, |_| deal.cards_per_hand, &deal.winner())?;

        let bids_in = deal.auction.bids.len();
        if bids_in > state.players() || deal.auction.bids.iter().any(|&(_, b)| b as usize > deal.cards_per_hand) {
            return Err("a bid is out of range or made twice".into());
        }
        if !deal.auction.is_complete() && (!deal.play.tricks.is_empty() || !deal.play.trick.is_empty()) {
            return Err("cards were played during the bidding".into());
        }
        if state.options.last_bidder_restricted
            && bids_in == state.players()
            && deal.bids_total() as usize == deal.cards_per_hand
        {
            return Err("the bids add up to the tricks despite the last-bidder rule".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rulebook;
    use serde_json::json;

    use crate::cards::{card, cards};
    use crate::game::erase;
    use crate::rules::core;
    use crate::simulate::{random_matches, Driver, Plan};

    /// A deck that deals `hands` (by seat) with `dealer` dealing, then turns `turned`.
    fn deck_for(dealer: Seat, hands: &[&str], turned: Option<&str>) -> Vec<Card> {
        let n = hands.len();
        let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
        let k = hands[0].len();
        let mut deck: Vec<Card> = (0..n * k).map(|i| hands[(dealer + 1 + i % n) % n][i / n]).collect();
        deck.extend(turned.map(card));
        deck.extend(decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect::<Vec<_>>());
        deck
    }

    type Game = Driver<Plump>;

    /// The table as it is sent.
    fn view_json(state: &State, viewer: Viewer) -> Value {
        serde_json::to_value(Plump.view(state, viewer)).unwrap()
    }

    impl Game {
        fn bid(&mut self, seat: Seat, tricks: u32) -> Vec<Event> {
            self.ok(seat, bid(tricks))
        }

        fn play(&mut self, seat: Seat, code: &str) -> Vec<Event> {
            self.ok(seat, play(code))
        }

        fn deal_ref(&self) -> &Deal {
            self.state.deals.deal.as_ref().unwrap()
        }

        /// Plays whole deals until deal `number` is the next one.
        fn skip_to_deal(&mut self, number: u32) {
            self.finish_deal();
            while Plump.deal_number(&self.state) + 1 < number {
                self.deal(decks::standard52());
                self.finish_deal();
            }
        }
    }

    fn bid(tricks: u32) -> Command {
        Command::Bid { tricks }
    }

    fn play(code: &str) -> Command {
        Command::Play { card: card(code) }
    }

    fn restricted() -> Options {
        Options { last_bidder_restricted: true, ..Default::default() }
    }

    fn simultaneous() -> Options {
        Options { simultaneous_bids: true, ..Default::default() }
    }

    fn scored(events: &[Event]) -> (Vec<ScoreTerm>, Vec<i64>) {
        events
            .iter()
            .find_map(|e| match e {
                Event::DealScored { terms, points, .. } => Some((terms.clone(), points.clone())),
                _ => None,
            })
            .expect("the deal was scored")
    }

    #[test]
    fn worked_example_bid_three_take_three_scores_thirteen() {
        let terms = score_terms(1, 3, 3);
        assert_eq!(terms.iter().map(|t| t.points).sum::<i64>(), 13);
        assert_eq!(terms.iter().map(|t| t.rule.as_str()).collect::<Vec<_>>(), [rule::TRICK_POINTS, rule::EXACT_BONUS]);

        // The same through play: three players, deal 15 has three cards each; seat 1 holds
        // the top three trumps and bids three.
        let mut g = Game::new(3, Options::default());
        g.skip_to_deal(15);
        let dealer = 14 % 3;
        g.deal(deck_for(dealer, &["2C 3C 4C", "AS KS QS", "2D 3D 4D"], Some("2S")));
        assert_eq!(g.deal_ref().trumps, Some(Suit::Spades));
        let before = g.state.deals.scores.clone();
        for seat in g.state.table.order_from(dealer) {
            g.bid(seat, if seat == 1 { 3 } else { 1 });
        }
        let events = g.finish_deal();
        let (terms, points) = scored(&events);
        assert_eq!(points[1], 13);
        assert_eq!(g.state.deals.scores[1], before[1] + 13);
        let seat1: Vec<_> = terms.iter().filter(|t| t.to == 1).collect();
        assert_eq!(seat1[0].points, 3);
        assert_eq!(seat1[1].points, 10);
        assert!(seat1[1].explanation.en.contains("exactly"));
        // The others bid one and took none: no bonus, no points.
        assert_eq!(points[0], 0);
        assert_eq!(points[2], 0);
    }

    #[test]
    fn deal_sizes_depend_on_the_player_count() {
        let firsts: Vec<usize> = (3..=8).map(|n| deal_sizes(n, false)[0]).collect();
        assert_eq!(firsts, [17, 13, 10, 8, 7, 6]);
        assert_eq!(deal_sizes(6, false), [8, 7, 6, 5, 4, 3, 2, 1]);
        for n in 3..=8 {
            let s = deal_sizes(n, false);
            assert_eq!(s.len(), 52 / n);
            assert_eq!(*s.last().unwrap(), 1);
        }
    }

    #[test]
    fn back_up_goes_up_again_and_plays_the_one_card_deal_once() {
        assert_eq!(deal_sizes(6, true), [8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(deal_sizes(3, true).len(), 33);
        let g = Game::new(5, Options { back_up: true, ..Default::default() });
        assert_eq!(g.state.deals_total(), 19);
        assert_eq!(Plump.view(&g.state, Viewer::Spectator).deals_total, 19);
    }

    #[test]
    fn first_deal_goes_one_at_a_time_from_the_dealers_left_without_trumps() {
        let mut g = Game::new(3, Options::default());
        let deck = decks::standard52();
        let events = g.deal(deck.clone());
        let Event::DealStarted { dealer, hands, set_aside, turned_card, trumps, trumps_from, deck: recorded, .. } =
            &events[0]
        else {
            panic!()
        };
        assert_eq!(*dealer, 0);
        assert_eq!(recorded, &deck);
        // Seat 1 (dealer's left) gets the 1st, 4th, 7th card...
        assert_eq!(hands[1][0], deck[0]);
        assert!(hands[1].contains(&deck[3]));
        assert!(hands[2].contains(&deck[1]));
        assert!(hands[0].contains(&deck[2]));
        assert!(hands.iter().all(|h| h.len() == 17));
        // One card over, put aside; never turned in the first deal.
        assert_eq!(set_aside, &vec![deck[51]]);
        assert_eq!((*turned_card, *trumps, *trumps_from), (None, None, TrumpsFrom::FirstDeal));
        assert_eq!(view_json(&g.state, Viewer::Spectator)["trumps"], Value::Null);
    }

    #[test]
    fn first_deal_sizes_and_leftovers_for_every_player_count() {
        for n in 3..=8 {
            let mut g = Game::new(n, Options::default());
            g.deal(decks::standard52());
            let d = g.deal_ref();
            assert!(d.play.hands.iter().all(|h| h.len() == 52 / n));
            assert_eq!(d.set_aside.len(), 52 % n);
            assert_eq!(d.trumps_from, TrumpsFrom::FirstDeal);
        }
    }

    #[test]
    fn the_turned_card_names_trumps_from_the_second_deal() {
        let mut g = Game::new(4, Options::default());
        g.skip_to_deal(2);
        let hands = [
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
            "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        ];
        let events = g.deal(deck_for(1, &hands, Some("2S")));
        let Event::DealStarted { dealer, turned_card, trumps, set_aside, cards_per_hand, .. } = &events[0] else {
            panic!()
        };
        assert_eq!((*dealer, *cards_per_hand), (1, 12));
        assert_eq!(*turned_card, Some(card("2S")));
        assert_eq!(*trumps, Some(Suit::Spades));
        assert_eq!(set_aside.len(), 3);
        assert!(!set_aside.contains(&card("2S")));
        assert_eq!(g.deal_ref().play.hands[0], cards(hands[0]));
        let view = view_json(&g.state, Viewer::Spectator);
        assert_eq!(view["trump_card"], "2S");
        assert_eq!(view["trumps"], "spades");
    }

    #[test]
    fn a_turned_ace_means_no_trumps() {
        let mut g = Game::new(5, Options::default());
        g.skip_to_deal(3);
        let hands = [
            "2C 3C 4C 5C 6C 7C 8C 9C",
            "2D 3D 4D 5D 6D 7D 8D 9D",
            "2H 3H 4H 5H 6H 7H 8H 9H",
            "2S 3S 4S 5S 6S 7S 8S 9S",
            "TC JC QC KC TD JD QD KD",
        ];
        g.deal(deck_for(2, &hands, Some("AH")));
        let d = g.deal_ref();
        assert_eq!((d.turned_card, d.trumps, d.trumps_from), (Some(card("AH")), None, TrumpsFrom::AceTurned));
    }

    #[test]
    fn nothing_left_to_turn_means_no_trumps() {
        let mut g = Game::new(4, Options { back_up: true, ..Default::default() });
        g.skip_to_deal(25);
        assert_eq!(g.state.deals_total(), 25);
        g.deal(decks::standard52());
        let d = g.deal_ref();
        assert_eq!(d.cards_per_hand, 13);
        assert_eq!((d.turned_card, d.trumps, d.trumps_from), (None, None, TrumpsFrom::NothingToTurn));
        assert!(d.set_aside.is_empty());
        assert!(Plump.rulebook().rule(rule::NOTHING_TO_TURN).unwrap().house_rule);
    }

    #[test]
    fn the_dealer_passes_left_and_bids_first() {
        let mut g = Game::new(4, Options::default());
        g.deal(decks::standard52());
        assert_eq!(g.to_act(), [0]);
        // Seat 1 may not bid before the dealer.
        assert_eq!(g.act(1, bid(1)).unwrap_err().rule, core::TURN);
        for seat in [0, 1, 2, 3] {
            assert_eq!(g.to_act(), [seat]);
            g.bid(seat, 0);
        }
        g.skip_to_deal(2);
        g.deal(decks::standard52());
        assert_eq!(g.deal_ref().dealer, 1);
        assert_eq!(g.to_act(), [1]);
        assert_eq!(Plump.view(&g.state, Viewer::Spectator).bidding_order, Some(vec![1, 2, 3, 0]));
    }

    #[test]
    fn bids_run_from_zero_to_the_hand_size() {
        let mut g = Game::new(6, Options::default());
        g.deal(decks::standard52());
        assert_eq!(Plump.legal_moves(&g.state, 0), (0..=8).map(bid).collect::<Vec<_>>());
        let refusal = g.act(0, bid(9)).unwrap_err();
        assert_eq!(refusal.rule, rule::BID_RANGE);
        assert!(refusal.explanation.en.contains("You bid 9 tricks but hold only 8"));
        // Individual bids: the total may equal the tricks without the variant.
        for (seat, b) in [(0, 2), (1, 2), (2, 1), (3, 1), (4, 1)] {
            g.bid(seat, b);
        }
        assert!(Plump.legal_moves(&g.state, 5).contains(&bid(1)));
        g.bid(5, 1);
        assert_eq!(g.state.deals.phase(), TablePhase::Playing);
    }

    #[test]
    fn the_dealers_left_leads_first_and_no_card_is_played_during_bidding() {
        let mut g = Game::new(3, Options::default());
        g.deal(decks::standard52());
        let some_card = g.deal_ref().play.hands[0][0].to_string();
        assert_eq!(g.act(0, play(&some_card)).unwrap_err().rule, core::PHASE);
        for seat in [0, 1, 2] {
            g.bid(seat, 1);
        }
        assert_eq!(g.to_act(), [1]);
        assert_eq!(g.act(1, bid(1)).unwrap_err().rule, core::PHASE);
        let not_held = g.deal_ref().play.hands[2][0].to_string();
        assert_eq!(g.act(1, play(&not_held)).unwrap_err().rule, core::CARD_NOT_HELD);
    }

    /// Deal 15 of a three-player match: three cards each, seat 2 deals, so seat 0 leads.
    fn three_card_deal(hands: [&str; 3], turned: &str) -> Game {
        let mut g = Game::new(3, Options::default());
        g.skip_to_deal(15);
        g.deal(deck_for(2, &hands, Some(turned)));
        for seat in [2, 0, 1] {
            g.bid(seat, 1);
        }
        assert_eq!(g.to_act(), [0]);
        g
    }

    #[test]
    fn follow_suit_if_able_else_anything() {
        let mut g = three_card_deal(["AC 2D 3D", "KC 4H 5H", "6D 7D 8D"], "2S");
        g.play(0, "AC");
        // Seat 1 holds a club: hearts are refused under the follow-suit rule.
        let refusal = g.act(1, play("4H")).unwrap_err();
        assert_eq!(refusal.rule, rule::FOLLOW_SUIT);
        assert!(refusal.explanation.en.contains("You played 4H but hold clubs"));
        assert!(!refusal.explanation.en.contains("KC"), "the explanation names no hidden card");
        assert_eq!(Plump.legal_moves(&g.state, 1), vec![play("KC")]);
        g.play(1, "KC");
        // Seat 2 has no clubs: any card.
        assert_eq!(Plump.legal_moves(&g.state, 2).len(), 3);
        let events = g.play(2, "6D");
        assert!(events.contains(&Event::TrickWon {
            trick_number: 1,
            winner: 0,
            card: card("AC"),
            reason: WinReason::HighestOfSuitLed,
            plays: vec![
                Play { seat: 0, card: card("AC") },
                Play { seat: 1, card: card("KC") },
                Play { seat: 2, card: card("6D") }
            ],
        }));
        // The winner leads the next trick.
        assert_eq!(g.to_act(), [0]);
    }

    #[test]
    fn the_highest_trump_wins() {
        let mut g = three_card_deal(["AC 2D 3D", "4S 4H 5H", "6S 7D 8D"], "2S");
        g.play(0, "AC");
        g.play(1, "4S");
        let events = g.play(2, "6S");
        assert!(events.iter().any(|e| matches!(e, Event::TrickWon { winner: 2, reason: WinReason::HighestTrump, .. })));
        assert_eq!(g.to_act(), [2]);
        assert_eq!(g.deal_ref().play.taken, [0, 0, 1]);
        assert_eq!(g.deal_ref().play.tricks.last().map(|t| t.winner), Some(2));
    }

    #[test]
    fn a_zero_bid_made_scores_five() {
        let mut g = Game::new(3, Options::default());
        g.skip_to_deal(17);
        // Last deal: one card each, dealer 16 % 3 = 1, seat 2 leads.
        g.deal(deck_for(1, &["2C", "AC", "KC"], Some("3H")));
        g.bid(1, 1);
        g.bid(2, 0);
        g.bid(0, 0);
        g.play(2, "KC");
        g.play(0, "2C");
        let events = g.play(1, "AC");
        let (terms, points) = scored(&events);
        assert_eq!(points, [5, 11, 5]);
        assert!(terms.iter().any(|t| t.to == 0 && t.rule == rule::ZERO_BID && t.points == 5));
        // Last deal: the match ends and the top scorer wins.
        let Some(Event::MatchEnded { winners, scores }) = events.last() else { panic!() };
        assert_eq!(winners, &match_winners(scores));
        assert!(Plump.status(&g.state).is_finished());
        assert_eq!(g.refused(0, bid(0)).rule, core::MATCH_OVER);
    }

    #[test]
    fn a_failed_bid_scores_only_its_tricks() {
        assert_eq!(score_terms(0, 2, 4).iter().map(|t| t.points).collect::<Vec<_>>(), [4, 0]);
        assert_eq!(score_terms(0, 0, 1).iter().map(|t| t.points).sum::<i64>(), 1);
        assert_eq!(score_terms(0, 4, 0).iter().map(|t| t.points).sum::<i64>(), 0);
    }

    #[test]
    fn ties_share_the_win() {
        assert_eq!(match_winners(&[10, 30, 30, 5]), [1, 2]);
        assert_eq!(match_winners(&[40, 30, 30]), [0]);
    }

    #[test]
    fn last_bidder_may_not_make_the_total_even() {
        let mut g = Game::new(4, restricted());
        g.deal(decks::standard52());
        g.bid(0, 5);
        g.bid(1, 4);
        g.bid(2, 2);
        // 11 bid so far of 13 tricks: seat 3 may not bid 2.
        let refusal = g.act(3, bid(2)).unwrap_err();
        assert_eq!(refusal.rule, rule::LAST_BIDDER);
        assert!(refusal.explanation.en.contains("the others bid 11"));
        let legal = Plump.legal_moves(&g.state, 3);
        assert_eq!(legal.len(), 13);
        assert!(!legal.contains(&bid(2)));
        g.bid(3, 3);
        assert_eq!(g.state.deals.phase(), TablePhase::Playing);
    }

    #[test]
    fn last_bidder_restriction_binds_only_the_last_bidder() {
        let mut g = Game::new(3, restricted());
        g.deal(decks::standard52());
        // The dealer may bid all 17 tricks.
        g.bid(0, 17);
        // When the others already exceed the tricks, the last bidder is free.
        g.bid(1, 3);
        assert_eq!(Plump.legal_moves(&g.state, 2).len(), 18);
    }

    #[test]
    fn simultaneous_bids_are_hidden_until_all_are_in() {
        let mut g = Game::new(3, simultaneous());
        g.deal(decks::standard52());
        assert_eq!(g.to_act(), [0, 1, 2]);
        let events = g.bid(2, 5);
        assert_eq!(g.to_act(), [0, 1]);
        let seat0 = view_json(&g.state, Viewer::Seat(0));
        assert_eq!(seat0["bids"], json!([null, null, null]));
        assert_eq!(seat0["has_bid"], json!([false, false, true]));
        assert_eq!(seat0["bids_total"], Value::Null);
        assert_eq!(view_json(&g.state, Viewer::Seat(2))["bids"], json!([null, null, 5]));
        assert_eq!(view_json(&g.state, Viewer::Spectator)["bids"], json!([null, null, null]));
        let hidden = Plump.redact(&g.state, &events[0], Viewer::Seat(0), false);
        assert_eq!(hidden, json!({"type": "bid_made", "seat": 2, "tricks": null, "hidden": true}));
        let own = Plump.redact(&g.state, &events[0], Viewer::Seat(2), false);
        assert_eq!(own, json!({"type": "bid_made", "seat": 2, "tricks": 5}));
        assert_eq!(Plump.redact(&g.state, &events[0], Viewer::Spectator, false)["tricks"], Value::Null);
        // A seat that has bid may not bid again.
        assert_eq!(g.act(2, bid(1)).unwrap_err().rule, core::TURN);

        g.bid(0, 6);
        // The total may equal the tricks: 5 + 6 + 6 = 17.
        assert!(Plump.legal_moves(&g.state, 1).contains(&bid(6)));
        let events = g.bid(1, 6);
        assert_eq!(events[1], Event::BidsRevealed { bids: vec![6, 6, 5] });
        assert_eq!(Plump.redact(&g.state, &events[1], Viewer::Spectator, false)["bids"], json!([6, 6, 5]));
        assert_eq!(view_json(&g.state, Viewer::Spectator)["bids"], json!([6, 6, 5]));
        assert_eq!(Plump.view(&g.state, Viewer::Spectator).bids_total, Some(Some(17)));
        assert_eq!(g.to_act(), [1]);
    }

    #[test]
    fn simultaneous_bidders_may_bid_in_any_order() {
        let mut g = Game::new(4, simultaneous());
        g.deal(decks::standard52());
        for seat in [3, 1, 0, 2] {
            assert!(g.to_act().contains(&seat));
            g.bid(seat, 1);
        }
        assert_eq!(g.state.deals.phase(), TablePhase::Playing);
        assert_eq!(g.to_act(), [1]);
    }

    #[test]
    fn options_parse_and_the_two_bid_variants_exclude_each_other() {
        let game = erase(Plump);
        let normal = game.normalize_options(&json!({"back-up": true})).unwrap();
        assert_eq!(normal, json!({"back_up": true, "last_bidder_restricted": false, "simultaneous_bids": false}));
        let both = json!({"last_bidder_restricted": true, "simultaneous_bids": true});
        let err = game.setup(4, &both).err().unwrap();
        assert!(err.0.contains("cannot be combined"));
        let names: Vec<_> = Plump.options().iter().map(|o| o.name).collect();
        assert_eq!(names, ["back_up", "last_bidder_restricted", "simultaneous_bids"]);
    }

    #[test]
    fn commands_and_events_have_their_json_shapes() {
        let c: Command = serde_json::from_value(json!({"type": "bid", "tricks": 3})).unwrap();
        assert_eq!(c, bid(3));
        let c: Command = serde_json::from_value(json!({"type": "play", "card": "QS"})).unwrap();
        assert_eq!(c, play("QS"));
        let e = Event::TrickWon {
            trick_number: 1,
            winner: 2,
            card: card("6S"),
            reason: WinReason::HighestTrump,
            plays: vec![Play { seat: 2, card: card("6S") }],
        };
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({"type": "trick_won", "trick_number": 1, "winner": 2, "card": "6S", "reason": "highest-trump",
                   "plays": [{"seat": 2, "card": "6S"}]})
        );
    }

    #[test]
    fn deal_started_shows_each_seat_only_its_own_hand() {
        let mut g = Game::new(3, Options::default());
        g.skip_to_deal(2);
        let events = g.deal(decks::standard52());
        let e = &events[0];
        let own = Plump.redact(&g.state, e, Viewer::Seat(1), false);
        assert!(own.get("deck").is_none() && own.get("set_aside").is_none());
        assert_eq!(own["set_aside_count"], 3);
        assert_eq!(own["hands"][1], json!(g.deal_ref().play.hands[1]));
        assert_eq!(own["hands"][0], Value::Null);
        assert_eq!(own["hand_sizes"], json!([16, 16, 16]));
        assert_eq!(own["turned_card"], json!(g.deal_ref().turned_card));
        let spectator = Plump.redact(&g.state, e, Viewer::Spectator, false);
        assert_eq!(spectator["hands"], json!([null, null, null]));
        for viewer in [Viewer::Record, Viewer::Seat(0)] {
            let after = Plump.redact(&g.state, e, viewer, viewer == Viewer::Seat(0));
            assert_eq!(after, serde_json::to_value(e).unwrap());
        }
        let view = view_json(&g.state, Viewer::Seat(1));
        assert_eq!(view["hand"], json!(g.deal_ref().play.hands[1]));
        assert!(view.get("hands").is_none());
        assert_eq!(Plump.view(&g.state, Viewer::Record).play.hands.as_ref(), Some(&g.deal_ref().play.hands));
        // Hidden: every hand card to all but its holder, the set-aside cards to everyone.
        let secrets = Plump.secrets(&g.state);
        assert_eq!(secrets.len(), 48 + 3);
        assert!(secrets.iter().all(|(c, who)| g.deal_ref().turned_card != Some(*c) && who.len() <= 1));
    }

    /// Many cheap random matches over every test option set, each checked on its log: the final
    /// scores are the sum of the scored terms, every scored rule is in the rulebook, the winners
    /// are the top scorers, the schedule of deals was played, and simultaneous bids were revealed
    /// once per deal. The generic tests check the rest on the way.
    #[test]
    fn random_match_logs_add_up() {
        let book = Plump.rulebook();
        let plan = Plan { log_only: 25, ..Plan::default() };
        let played = random_matches(&*erase(Plump), plan, |players, options, report| {
            check_log(players, options, &book, &report.log);
            assert_eq!(report.deals as usize, deal_sizes(players, options["back_up"] == true).len());
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(played, 6 * 6 * 25);
    }

    fn check_log(players: usize, options: &Value, book: &Rulebook, log: &[Value]) {
        let mut totals = vec![0i64; players];
        let mut final_scores = None;
        let (mut deals, mut reveals) = (0, 0);
        for event in log {
            match serde_json::from_value::<Event>(event.clone()).unwrap() {
                Event::DealStarted { scores, .. } => {
                    assert_eq!(scores, totals, "a deal starts from the scores so far");
                    deals += 1;
                }
                Event::BidsRevealed { .. } => reveals += 1,
                Event::DealScored { terms, points, totals: after, .. } => {
                    for t in terms {
                        assert!(book.rule(&t.rule).is_some(), "{} is not in the rulebook", t.rule);
                        totals[t.to] += t.points;
                    }
                    assert_eq!(after, totals);
                    assert!(points.iter().all(|&p| p >= 0));
                }
                Event::MatchEnded { scores, winners } => {
                    assert_eq!(winners, match_winners(&scores));
                    final_scores = Some(scores);
                }
                _ => {}
            }
        }
        assert_eq!(final_scores.as_ref(), Some(&totals), "final scores are the sum of the scored terms");
        assert_eq!(reveals, if options["simultaneous_bids"] == true { deals } else { 0 });
    }
}
