//! Svälta räv: the pack dealt into face-down piles that nobody looks at. In the first variant
//! everyone turns up a card at once, and the highest card of each suit turned by two or more
//! takes those cards under its pile; a lone card goes back under its owner's. In the second
//! (Beggar-my-neighbour, two players) the players turn cards onto one pile in turn; a jack,
//! queen, king or ace makes the other pay one to four cards, and if none of them is a court card
//! or an ace the pile goes to the one who laid it. A player with no cards is out; the one left
//! with cards wins. Both can go on for ever, so the text's run of rounds without a capture
//! (variant 1) and a cap of the house's (both) end the match, the most cards winning.
//!
//! The only command is `turn`: there are no choices, but each card is turned by its player, as
//! at the table. What follows a turn (the cards taken, a player out, the end) is automatic.

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, is_permutation, rank_value, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::pile::Piles;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Seat, Table as Seating};

#[derive(Default)]
pub struct SvaltaRav;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 4;
/// The largest number of rounds (variant 1) or piles won (variant 2) a match may be capped at.
pub const MAX_ROUNDS: u32 = 100_000;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const SECOND_PLAYERS: &str = "svalta-rav.second.players";
    pub const CARDS: &str = "svalta-rav.end.cards";
}

// ---------------------------------------------------------------------------------------------
// Options

/// `first`: everyone turns at once, the highest card of a suit takes; `second`:
/// Beggar-my-neighbour, two players turning in turn, with penalty cards.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SvaltaRavVariant))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    #[default]
    First,
    Second,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    pub variant: Variant,
    /// Variant 1: rounds in a row without a capture that end the match.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    pub quiet_rounds: u32,
    /// The house's cap: rounds (variant 1) or piles won (variant 2) after which the match ends.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100000))]
    pub round_limit: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { variant: Variant::First, quiet_rounds: 10, round_limit: 1_000 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// `waiting-for-deal` before the deal, `turning` while cards are turned, `paying` while a player
/// pays for a court card or an ace (variant 2), `finished` at the end.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SvaltaRavPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Turning,
    Paying,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

#[derive(Clone, Debug)]
struct Deal {
    variant: Variant,
    number: u32,
    dealer: Seat,
    forehand: Seat,
    deck: Vec<Card>,
    /// By seat: the face-down pile (`talon`, top card first) and, in variant 1, the card turned
    /// this round beside it (`pile`).
    piles: Vec<Piles>,
    /// Variant 2: the cards on the table, bottom card first.
    centre: Vec<Card>,
    /// The card left over with three players, face down for the whole match.
    set_aside: Vec<Card>,
    /// The seats still to turn: in variant 1 everyone yet to turn this round, in variant 2 the
    /// one player to turn.
    to_turn: Vec<Seat>,
    /// Variant 2: who laid the court card or ace being paid for, and how many cards are owed.
    claimant: Option<Seat>,
    owed: u32,
    /// Rounds played (variant 1) or piles won (variant 2).
    rounds: u32,
    /// Variant 1: rounds in a row without a capture, and whether this round has one.
    quiet: u32,
    captured: bool,
    /// Seats out of cards, in the order they went out.
    out: Vec<Seat>,
    /// Cards turned up at some time: public wherever they lie now.
    seen: BTreeSet<Card>,
    over: bool,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        let mut seats = if self.over { Vec::new() } else { self.to_turn.clone() };
        seats.sort_unstable();
        seats
    }

    fn is_live(&self) -> bool {
        !self.over
    }

    fn phase(&self) -> Phase {
        match self.claimant {
            Some(_) => Phase::Paying,
            None => Phase::Turning,
        }
    }
}

impl Deal {
    fn sizes(&self) -> Vec<usize> {
        self.piles.iter().map(|p| p.talon.len()).collect()
    }

    /// The seats still holding cards, clockwise from forehand.
    fn in_play(&self) -> Vec<Seat> {
        let table = Seating::new(self.piles.len());
        table.order_from(self.forehand).into_iter().filter(|s| !self.out.contains(s)).collect()
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    players: usize,
    /// The match is one deal; its scores are the cards each seat held at the end.
    deals: Deals<Deal>,
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Turn up the top card of one's pile.
    Turn,
}

/// Why the match ended: one player holds every card, the text's run of rounds without a
/// capture, or the house's cap.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SvaltaRavEnding))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    AllCards,
    NoCaptures,
    RoundLimit,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything the deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was shuffled, top card first: hidden while the deal is played.
        deck: Vec<Card>,
        /// Every seat's face-down pile, top card first: nulls while the deal is played.
        piles: Vec<Vec<Card>>,
        /// The card put aside with three players: hidden while the deal is played.
        set_aside: Vec<Card>,
        options: Options,
    },
    /// The seat turned up the top card of its pile.
    CardTurned {
        seat: Seat,
        card: Card,
    },
    /// The seat takes these cards from the table and puts them under its pile, in this order
    /// (variant 1: the cards of one suit, or its own lone card back; variant 2: the pile).
    CardsWon {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// The seat has no cards left and is out.
    PlayerOut {
        seat: Seat,
    },
    DealScored {
        deal_number: u32,
        ending: Ending,
        /// Cards each seat holds at the end.
        cards: Vec<usize>,
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
        scores: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        scores: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Setup and deal

/// Cards each player gets: the pack shared evenly, one card over with three players.
fn per_seat(players: usize) -> usize {
    52 / players
}

// ---------------------------------------------------------------------------------------------
// Turning

/// Variant 2: the cards a court card or an ace makes the other player pay.
fn penalty(card: Card) -> u32 {
    (rank_value(card) as u32).saturating_sub(10)
}

/// Variant 1, once everyone has turned: the cards of each suit turned by two or more go to the
/// highest of them, the winner's own card first and the others clockwise from him; a lone card
/// goes back to its owner. Suits are settled in the order they were first turned from forehand.
fn settle_round(deal: &Deal) -> Vec<Event> {
    let turned: Vec<(Seat, Card)> =
        deal.in_play().into_iter().filter_map(|s| deal.piles[s].top().map(|c| (s, c))).collect();
    let mut suits = Vec::new();
    for &(_, c) in &turned {
        if !suits.contains(&c.suit()) {
            suits.push(c.suit());
        }
    }
    let mut events = Vec::new();
    for suit in suits {
        let group: Vec<(Seat, Card)> = turned.iter().copied().filter(|(_, c)| c.suit() == suit).collect();
        let (winner, _) = *group.iter().max_by_key(|(_, c)| rank_value(*c)).expect("a suit turned");
        let table = Seating::new(deal.piles.len());
        let cards: Vec<Card> = table
            .order_from(winner)
            .into_iter()
            .filter_map(|s| group.iter().find(|(t, _)| *t == s).map(|(_, c)| *c))
            .collect();
        events.push(Event::CardsWon { seat: winner, cards });
    }
    events
}

/// The match's end, if it is due: one seat left with cards, the text's run of rounds without a
/// capture (variant 1), or the house's cap.
fn ending(options: &Options, deal: &Deal) -> Option<Ending> {
    if deal.in_play().len() <= 1 {
        Some(Ending::AllCards)
    } else if options.variant == Variant::First && deal.quiet >= options.quiet_rounds {
        Some(Ending::NoCaptures)
    } else if deal.rounds >= options.round_limit {
        Some(Ending::RoundLimit)
    } else {
        None
    }
}

/// Turns `seat`'s card on a working copy of the deal and runs every automatic step after it.
fn turn_and_settle(state: &State, deal: &mut Deal, seat: Seat) -> Vec<Event> {
    let mut events = Vec::new();
    let mut emit = |deal: &mut Deal, e: Event| {
        evolve_deal(deal, &e);
        events.push(e);
    };
    let card = deal.piles[seat].talon[0];
    emit(deal, Event::CardTurned { seat, card });
    let variant = state.options.variant;
    if variant == Variant::First && !deal.to_turn.is_empty() {
        return events;
    }
    let round_over = match variant {
        Variant::First => {
            settle_round(deal).into_iter().for_each(|e| emit(deal, e));
            for s in deal.in_play() {
                if deal.piles[s].talon.is_empty() {
                    emit(deal, Event::PlayerOut { seat: s });
                }
            }
            true
        }
        Variant::Second => {
            if let (Some(claimant), 0) = (deal.claimant, deal.owed) {
                let cards = deal.centre.clone();
                emit(deal, Event::CardsWon { seat: claimant, cards });
            }
            let next = deal.to_turn[0];
            if deal.piles[next].talon.is_empty() {
                emit(deal, Event::PlayerOut { seat: next });
                let other = 1 - next;
                let cards = deal.centre.clone();
                if !cards.is_empty() {
                    emit(deal, Event::CardsWon { seat: other, cards });
                }
            }
            deal.centre.is_empty()
        }
    };
    if let Some(end) = ending(&state.options, deal).filter(|_| round_over) {
        score_deal(state, deal, end).into_iter().for_each(|e| emit(deal, e));
    }
    events
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, deal: &Deal, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let Command::Turn = command;
    let mut work = deal.clone();
    Ok(turn_and_settle(state, &mut work, seat))
}

// ---------------------------------------------------------------------------------------------
// Evolve

/// Variant 2's turn after a card: a court card or an ace makes the other pay; a plain card pays
/// one owed (the turn stays until the debt is paid) or passes the turn.
fn after_turn_second(deal: &mut Deal, seat: Seat, card: Card) {
    let other = 1 - seat;
    if penalty(card) > 0 {
        deal.claimant = Some(seat);
        deal.owed = penalty(card);
        deal.to_turn = vec![other];
    } else if deal.claimant.is_some() {
        deal.owed -= 1;
    } else {
        deal.to_turn = vec![other];
    }
}

fn evolve_deal(deal: &mut Deal, event: &Event) {
    match event {
        Event::CardTurned { seat, card } => {
            deal.piles[*seat].turn_up();
            deal.seen.insert(*card);
            if deal.variant == Variant::Second {
                deal.centre.extend(deal.piles[*seat].pick_up());
                after_turn_second(deal, *seat, *card);
            } else {
                deal.to_turn.retain(|s| s != seat);
            }
        }
        Event::CardsWon { seat, cards } => {
            for p in deal.piles.iter_mut() {
                p.pile.retain(|c| !cards.contains(c));
            }
            deal.centre.retain(|c| !cards.contains(c));
            deal.piles[*seat].put_under(cards);
            match deal.variant {
                Variant::Second => {
                    deal.claimant = None;
                    deal.owed = 0;
                    deal.rounds += 1;
                    deal.to_turn = vec![*seat];
                }
                Variant::First => {
                    deal.captured |= cards.len() > 1;
                    if deal.piles.iter().all(|p| p.pile.is_empty()) {
                        // The round's last cards are settled: the next round begins.
                        deal.quiet = if deal.captured { 0 } else { deal.quiet + 1 };
                        deal.captured = false;
                        deal.rounds += 1;
                        let in_play = deal.in_play().into_iter();
                        deal.to_turn = in_play.filter(|&s| !deal.piles[s].talon.is_empty()).collect();
                    }
                }
            }
        }
        Event::PlayerOut { seat } => {
            deal.out.push(*seat);
            deal.to_turn.retain(|s| s != seat);
        }
        Event::DealScored { .. } => deal.over = true,
        Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// The end: each seat scores the cards it holds, and the most cards win (shared on a tie).
fn score_deal(state: &State, deal: &Deal, ending: Ending) -> Vec<Event> {
    let cards = deal.sizes();
    let terms: Vec<ScoreTerm> = (0..state.players)
        .filter(|&s| cards[s] > 0)
        .map(|s| {
            let n = cards[s];
            ScoreTerm::new(
                s,
                n as i64,
                rule::CARDS,
                format!("Plats {s} har {n} kort."),
                format!("Seat {s} holds {n} cards."),
            )
        })
        .collect();
    let points: Vec<i64> = cards.iter().map(|&n| n as i64).collect();
    let scores: Vec<i64> = state.deals.scores.iter().zip(&points).map(|(a, b)| a + b).collect();
    let winners = seat::match_winners(&points);
    let who = seat::seats_text(&winners);
    let most = cards[winners[0]];
    let (sv, en) = match ending {
        Ending::AllCards => ("har vunnit alla korten".to_string(), "has won every card".to_string()),
        Ending::NoCaptures => (
            format!("har flest kort, {most}, när {} rundor i rad gått utan att något kort tagits", deal.quiet),
            format!("holds the most cards, {most}, after {} rounds in a row without a capture", deal.quiet),
        ),
        Ending::RoundLimit => (
            format!("har flest kort, {most}, när husets gräns på {} rundor är nådd", deal.rounds),
            format!("holds the most cards, {most}, once the house's limit of {} rounds is reached", deal.rounds),
        ),
    };
    vec![
        Event::DealScored { deal_number: deal.number, ending, cards, terms, points, scores: scores.clone() },
        Event::MatchEnded {
            winners,
            scores,
            explanation: Text::new(format!("Plats {who} {sv} och vinner."), format!("Seat {who} {en} and wins.")),
        },
    ]
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the size of each face-down pile, the cards turned up, and in
/// variant 2 the pile on the table and what is owed. A deal's record shows every pile at every
/// step, and the pack once the deal is over.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SvaltaRavTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, scores (cards held at the end), who is to act, the outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    /// The options the match is played with.
    pub options: Options,
    /// The deal's forehand: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// Cards in each seat's face-down pile: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile_sizes: Option<Vec<usize>>,
    /// Variant 1: by seat, the card it has turned up this round (none yet: empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turned: Option<Vec<Vec<Card>>>,
    /// Variant 2: the cards turned onto the table, bottom card first, the top card last.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile: Option<Vec<Card>>,
    /// Variant 2: who laid the court card or ace being paid for.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub claimant: Option<Seat>,
    /// Variant 2: the cards still owed for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub owed: Option<u32>,
    /// Rounds played (variant 1) or piles won (variant 2): absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub rounds: Option<u32>,
    /// Variant 1: rounds in a row without a capture.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub rounds_without_capture: Option<u32>,
    /// Seats out of cards, in the order they went out: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub out: Option<Vec<Seat>>,
    /// Every face-down pile, top card first: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub piles: Option<Vec<Vec<Card>>>,
    /// The card put aside with three players: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub set_aside: Option<Vec<Card>>,
    /// The pack as it was dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let deal = state.deals.deal.as_ref();
    let first = deal.filter(|d| d.variant == Variant::First);
    let second = deal.filter(|d| d.variant == Variant::Second);
    let record = deal.filter(|_| viewer == Viewer::Record);
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        forehand: deal.map(|d| d.forehand),
        pile_sizes: deal.map(Deal::sizes),
        turned: first.map(|d| d.piles.iter().map(|p| p.pile.clone()).collect()),
        pile: second.map(|d| d.centre.clone()),
        claimant: second.and_then(|d| d.claimant),
        owed: second.filter(|d| d.claimant.is_some()).map(|d| d.owed),
        rounds: deal.map(|d| d.rounds),
        rounds_without_capture: first.map(|d| d.quiet),
        out: deal.map(|d| d.out.clone()),
        piles: record.map(|d| d.piles.iter().map(|p| p.talon.clone()).collect()),
        set_aside: record.map(|d| d.set_aside.clone()),
        deck: record.filter(|d| d.over).map(|d| d.deck.clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for SvaltaRav {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "svalta-rav";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/svalta-rav.txt");

    fn test_option_sets(&self, players: usize) -> Vec<Options> {
        let short = |variant| Options { variant, quiet_rounds: 3, round_limit: 40 };
        let mut sets = vec![Options::default(), short(Variant::First)];
        if players == 2 {
            sets.extend([Options { variant: Variant::Second, ..Options::default() }, short(Variant::Second)]);
        }
        sets
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=1_000).contains(&options.quiet_rounds) {
            return Err(SetupError(format!("quiet_rounds must be 1 to 1000, not {}", options.quiet_rounds)));
        }
        if !(1..=MAX_ROUNDS).contains(&options.round_limit) {
            return Err(SetupError(format!("round_limit must be 1 to {MAX_ROUNDS}, not {}", options.round_limit)));
        }
        if options.variant == Variant::Second && players != 2 {
            return Err(SetupError(format!(
                "the second variant is for two players, not {players} ({})",
                rule::SECOND_PLAYERS
            )));
        }
        Ok(State { options, players, deals: Deals::new(players) })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let table = Seating::new(state.players);
        let dealer = state.deals.next_dealer;
        let dealt = per_seat(state.players) * state.players;
        let piles = deals::deal_singly(&table, dealer, &deck[..dealt]);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: table.next(dealer),
            set_aside: deck[dealt..].to_vec(),
            deck,
            piles,
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, state.deals.current()?, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, forehand, deck, piles, set_aside, options } => {
                state.options = options.clone();
                let players = piles.len();
                state.deals.next_dealer = Seating::new(players).next(*dealer);
                let deal = Deal {
                    variant: options.variant,
                    number: *deal_number,
                    dealer: *dealer,
                    forehand: *forehand,
                    deck: deck.clone(),
                    piles: piles.iter().map(|p| Piles::new(p.clone())).collect(),
                    centre: Vec::new(),
                    set_aside: set_aside.clone(),
                    to_turn: match options.variant {
                        Variant::First => Seating::new(players).order_from(*forehand),
                        Variant::Second => vec![*forehand],
                    },
                    claimant: None,
                    owed: 0,
                    rounds: 0,
                    quiet: 0,
                    captured: false,
                    out: Vec::new(),
                    seen: BTreeSet::new(),
                    over: false,
                };
                state.deals.started(*deal_number, &vec![0; players], deal);
            }
            Event::DealScored { terms, scores, .. } => {
                state.deals.scored(terms, scores);
                if let Some(deal) = state.deals.deal.as_mut() {
                    evolve_deal(deal, event);
                }
            }
            Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
            _ => {
                if let Some(deal) = state.deals.deal.as_mut() {
                    evolve_deal(deal, event);
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        state.deals.acting(seat).map(|_| vec![Command::Turn]).unwrap_or_default()
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        vec![Command::Turn]
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    /// While the deal is played the pack and the face-down piles are nobody's: nulls in place.
    /// A card once turned up stays public under a pile.
    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if let Event::DealStarted { deal_number, piles, set_aside, deck, .. } = event {
            if state.deals.in_play(*deal_number, viewer, deal_over) {
                deals::blank(&mut full, "deck", deck);
                deals::blank_piles(&mut full, "piles", piles);
                deals::blank(&mut full, "set_aside", set_aside);
            }
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let unseen = deal.piles.iter().flat_map(|p| p.talon.iter()).filter(|c| !deal.seen.contains(c));
        unseen.chain(&deal.set_aside).map(|&c| (c, Vec::new())).collect()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.piles.iter().flat_map(Piles::cards).collect();
        all.extend(&deal.centre);
        all.extend(&deal.set_aside);
        crate::ensure!(is_permutation(&all, &pack), "piles, table and set-aside cards are not the pack");
        for &s in &deal.out {
            crate::ensure!(deal.piles[s].cards().next().is_none(), "seat {s} is out but holds cards");
        }
        crate::ensure!(deal.owed <= 4, "{} cards owed", deal.owed);
        let settling = deal.piles.iter().any(|p| !p.pile.is_empty()) || !deal.centre.is_empty();
        crate::ensure!(deal.over || settling || !deal.to_turn.is_empty(), "a live deal with nobody to turn");
        crate::ensure!(
            settling || deal.to_turn.iter().all(|&s| !deal.piles[s].talon.is_empty()),
            "a seat to turn with an empty pile: {:?}",
            deal.sizes()
        );
        crate::ensure!(deal.rounds <= state.options.round_limit, "{} rounds past the cap", deal.rounds);
        Ok(())
    }

    /// Cards held less the others' mean: the end's count.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let Some(deal) = &state.deals.deal else { return 0.0 };
        bots::lead_over_mean(state.players, |s| deal.piles[s].cards().count() as f64, seat)
    }
}

#[cfg(test)]
mod tests;
