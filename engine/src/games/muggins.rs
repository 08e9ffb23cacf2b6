//! Muggins: a few cards lie face up on the table as muggins piles, and the rest of the pack is
//! dealt into face-down draw piles that nobody looks at, their owners included. In turn a player
//! turns up his top card and places it by a fixed order: on a muggins pile whose top is one rank
//! higher or lower (suits do not count; an ace goes only on a two, a king only on a queen), else
//! by the same rule on the nearest discard pile to his left, else on his own discard pile. He
//! goes on turning while his cards go on a muggins pile or the pile to his left; a card on his
//! own pile ends his turn. A draw pile run out is replaced by its owner's discard pile turned
//! over. The first player rid of all his cards wins; a cap of the house's ends a game that goes
//! on too long, the fewest cards winning.
//!
//! Commands: `turn`, then `place` (a muggins pile) or `discard` (a discard pile, by its owner).
//! A placement against the order is refused, or with the `callable` option allowed: then any
//! other player may `call` "muggins" until the next card is turned, and each of the others gives
//! the offender the top card of his draw pile, unseen, to go under the offender's draw pile.

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
pub struct Muggins;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 7;
/// The largest number of cards turned a match may be capped at.
pub const MAX_TURNS: u32 = 100_000;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const TURN: &str = "muggins.play.turn";
    pub const FIT: &str = "muggins.play.fit";
    pub const ORDER: &str = "muggins.play.order";
    pub const LEFT: &str = "muggins.play.left";
    pub const CALL: &str = "muggins.house.call";
    pub const CARDS: &str = "muggins.end.cards";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// A placement against the order is allowed, and the others may call "muggins" on it (else
    /// it is refused).
    pub callable: bool,
    /// The house's cap: cards turned after which the match ends, the fewest cards winning.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100000))]
    pub turn_limit: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { callable: false, turn_limit: 2_000 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// `waiting-for-deal` before the deal, `turning` while the player to play is to turn a card,
/// `placing` while his turned card waits to be placed, `finished` at the end.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = MugginsPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Turning,
    Placing,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    forehand: Seat,
    deck: Vec<Card>,
    /// By seat: the draw pile (`talon`, top card first) and the discard pile (`pile`, top last).
    piles: Vec<Piles>,
    /// The muggins piles, bottom card first.
    muggins: Vec<Vec<Card>>,
    /// Whose turn it is.
    to_play: Seat,
    /// The card he has turned up and not yet placed.
    turned: Option<Card>,
    /// The player whose wrong placement may still be called (the `callable` option).
    callable: Option<Seat>,
    /// Cards turned so far.
    turns: u32,
    /// Cards turned up at some time, and the muggins cards: public wherever they lie now.
    seen: BTreeSet<Card>,
    over: bool,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.over {
            return Vec::new();
        }
        (0..self.piles.len()).filter(|&s| s == self.to_play || self.callable.is_some_and(|o| o != s)).collect()
    }

    fn is_live(&self) -> bool {
        !self.over
    }

    fn phase(&self) -> Phase {
        match self.turned {
            Some(_) => Phase::Placing,
            None => Phase::Turning,
        }
    }
}

/// A rank's number in Muggins: the ace is one, the king thirteen.
fn number(card: Card) -> u8 {
    match rank_value(card) {
        14 => 1,
        v => v,
    }
}

/// A card goes on a pile whose top is one rank higher or lower.
fn fits(card: Card, top: Option<Card>) -> bool {
    top.is_some_and(|t| number(card).abs_diff(number(t)) == 1)
}

impl Deal {
    /// Cards each seat holds: draw pile and discard pile, and the card it has turned.
    fn holdings(&self) -> Vec<usize> {
        let turned = |s| usize::from(self.to_play == s && self.turned.is_some());
        self.piles.iter().enumerate().map(|(s, p)| p.talon.len() + p.pile.len() + turned(s)).collect()
    }

    /// The nearest discard pile to `seat`'s left: the first seat clockwise that has one.
    fn left_pile(&self, seat: Seat) -> Option<Seat> {
        let table = Seating::new(self.piles.len());
        table.order_from(seat).into_iter().skip(1).find(|&s| !self.piles[s].pile.is_empty())
    }

    /// The muggins piles the turned card fits, and the left pile's owner if it fits there.
    fn fitting(&self, card: Card) -> (Vec<usize>, Option<Seat>) {
        let muggins = (0..self.muggins.len()).filter(|&i| fits(card, self.muggins[i].last().copied())).collect();
        let left = self.left_pile(self.to_play).filter(|&l| fits(card, self.piles[l].top()));
        (muggins, left)
    }

    /// The places the turned card may go: by the order alone (`wrong` false), or every place it
    /// fits and the player's own pile (`wrong` true, the `callable` option).
    fn places(&self, wrong: bool) -> Vec<Command> {
        let Some(card) = self.turned else { return Vec::new() };
        let (muggins, left) = self.fitting(card);
        let mut places: Vec<Command> = muggins.into_iter().map(|pile| Command::Place { pile }).collect();
        if wrong || places.is_empty() {
            places.extend(left.map(|owner| Command::Discard { owner }));
        }
        if wrong || places.is_empty() {
            places.push(Command::Discard { owner: self.to_play });
        }
        places
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    players: usize,
    /// The match is one deal; its scores are the cards each seat held at the end, as minus points.
    deals: Deals<Deal>,
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Turn up the top card of one's draw pile.
    Turn,
    /// Place the turned card on a muggins pile (numbered from 0).
    Place { pile: usize },
    /// Place the turned card on a discard pile: the nearest to the left, or one's own.
    Discard { owner: Seat },
    /// Call "muggins" on a placement against the order (the `callable` option).
    Call,
}

/// Why the match ended: a player is rid of every card, or the house's cap.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = MugginsEnding))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    Out,
    TurnLimit,
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
        /// The muggins cards laid face up, one a pile.
        muggins: Vec<Card>,
        /// Every seat's draw pile, top card first: nulls while the deal is played.
        piles: Vec<Vec<Card>>,
        options: Options,
    },
    /// The seat turned up the top card of its draw pile.
    CardTurned {
        seat: Seat,
        card: Card,
    },
    /// The seat placed its turned card on a muggins pile.
    PlacedOnMuggins {
        seat: Seat,
        card: Card,
        pile: usize,
    },
    /// The seat placed its turned card on `owner`'s discard pile; `wrong`: against the order.
    Discarded {
        seat: Seat,
        card: Card,
        owner: Seat,
        wrong: bool,
    },
    /// The seat's draw pile ran out: its discard pile, turned over, is its new draw pile.
    DrawPileRenewed {
        seat: Seat,
        cards: usize,
    },
    /// The seat called "muggins" on the offender's wrong placement.
    MugginsCalled {
        seat: Seat,
        offender: Seat,
    },
    /// The top card of `from`'s draw pile goes under `to`'s, unseen: null while the deal is played.
    PenaltyCard {
        from: Seat,
        to: Seat,
        card: Card,
    },
    /// The seat is rid of all its cards.
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

/// The muggins cards laid out at the start.
pub fn muggins_cards(players: usize) -> usize {
    match players {
        5 => 2,
        7 => 3,
        _ => 4,
    }
}

/// Cards each player gets: the rest of the pack shared evenly (it always shares evenly).
fn per_seat(players: usize) -> usize {
    (52 - muggins_cards(players)) / players
}

// ---------------------------------------------------------------------------------------------
// Decide

/// What follows a placement or a penalty: a seat left with no cards at all is out and the match
/// ends (several at once share the win); else the house's cap may end it.
fn settle(state: &State, deal: &mut Deal, emit: &mut impl FnMut(&mut Deal, Event)) {
    let held = deal.holdings();
    let out: Vec<Seat> =
        Seating::new(state.players).order_from(deal.to_play).into_iter().filter(|&s| held[s] == 0).collect();
    for &s in &out {
        emit(deal, Event::PlayerOut { seat: s });
    }
    if !out.is_empty() {
        score_deal(state, deal, Ending::Out).into_iter().for_each(|e| emit(deal, e));
    } else if deal.turns >= state.options.turn_limit {
        score_deal(state, deal, Ending::TurnLimit).into_iter().for_each(|e| emit(deal, e));
    }
}

/// A seat about to take a card from an empty draw pile first turns its discard pile over.
fn renew(deal: &mut Deal, seat: Seat, emit: &mut impl FnMut(&mut Deal, Event)) {
    if deal.piles[seat].talon.is_empty() {
        let cards = deal.piles[seat].pile.len();
        emit(deal, Event::DrawPileRenewed { seat, cards });
    }
}

fn refuse_place(deal: &Deal, command: &Command) -> RuleViolation {
    let Some(card) = deal.turned else {
        return RuleViolation::new(
            rule::TURN,
            "Vänd först upp ett kort från din draghög.",
            "First turn up a card from your draw pile.",
        );
    };
    let (muggins, left) = deal.fitting(card);
    match *command {
        Command::Place { pile } if !muggins.contains(&pile) => RuleViolation::new(
            rule::FIT,
            format!("{card} passar inte på muggins-hög {pile}: kortet ska vara ett steg högre eller lägre."),
            format!("{card} does not fit muggins pile {pile}: it must be one rank higher or lower."),
        ),
        Command::Discard { owner } if owner != deal.to_play && Some(owner) != deal.left_pile(deal.to_play) => {
            RuleViolation::new(
                rule::LEFT,
                format!("Man får bara lägga på närmaste kasthög till vänster, inte plats {owner}s."),
                format!("Only the nearest discard pile to the left may be used, not seat {owner}'s."),
            )
        }
        Command::Discard { owner } if owner != deal.to_play && left != Some(owner) => RuleViolation::new(
            rule::FIT,
            format!("{card} passar inte på kasthögen hos plats {owner}: kortet ska vara ett steg högre eller lägre."),
            format!("{card} does not fit seat {owner}'s discard pile: it must be one rank higher or lower."),
        ),
        _ => RuleViolation::new(
            rule::ORDER,
            format!("{card} ska läggas på en muggins-hög om det går, annars på kasthögen till vänster om det går."),
            format!("{card} must go on a muggins pile if it can, else on the discard pile to the left if it can."),
        ),
    }
}

fn decide(state: &State, deal: &Deal, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let mut work = deal.clone();
    let mut events = Vec::new();
    let mut emit = |deal: &mut Deal, e: Event| {
        evolve_deal(deal, &e);
        events.push(e);
    };
    let callable = state.options.callable;
    match *command {
        Command::Call => {
            let Some(offender) = deal.callable.filter(|&o| o != seat) else {
                return Err(RuleViolation::new(
                    rule::CALL,
                    "Det finns ingen felplacering att kalla muggins på.",
                    "There is no wrong placement to call muggins on.",
                ));
            };
            emit(&mut work, Event::MugginsCalled { seat, offender });
            for from in Seating::new(state.players).order_from(offender).into_iter().skip(1) {
                renew(&mut work, from, &mut emit);
                let card = work.piles[from].talon[0];
                emit(&mut work, Event::PenaltyCard { from, to: offender, card });
            }
            settle(state, &mut work, &mut emit);
        }
        _ if seat != deal.to_play => return Err(RuleViolation::not_your_turn(seat)),
        Command::Turn => {
            if deal.turned.is_some() {
                return Err(RuleViolation::wrong_phase("lägg först det vända kortet", "place the turned card first"));
            }
            renew(&mut work, seat, &mut emit);
            let card = work.piles[seat].talon[0];
            emit(&mut work, Event::CardTurned { seat, card });
        }
        Command::Place { .. } | Command::Discard { .. } => {
            if !deal.places(callable).contains(command) {
                return Err(refuse_place(deal, command));
            }
            let card = deal.turned.expect("a card to place");
            let wrong = !deal.places(false).contains(command);
            let event = match *command {
                Command::Place { pile } => Event::PlacedOnMuggins { seat, card, pile },
                Command::Discard { owner } => Event::Discarded { seat, card, owner, wrong },
                _ => unreachable!(),
            };
            emit(&mut work, event);
            settle(state, &mut work, &mut emit);
        }
    }
    Ok(events)
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve_deal(deal: &mut Deal, event: &Event) {
    let table = Seating::new(deal.piles.len());
    match event {
        Event::CardTurned { seat, card } => {
            deal.piles[*seat].draw();
            deal.turned = Some(*card);
            deal.callable = None;
            deal.turns += 1;
            deal.seen.insert(*card);
        }
        Event::PlacedOnMuggins { card, pile, .. } => {
            deal.turned = None;
            deal.muggins[*pile].push(*card);
        }
        Event::Discarded { seat, card, owner, wrong } => {
            deal.turned = None;
            deal.piles[*owner].lay(&[*card]);
            if *wrong {
                deal.callable = Some(*seat);
            }
            if owner == seat {
                deal.to_play = table.next(*seat);
            }
        }
        Event::DrawPileRenewed { seat, .. } => {
            deal.piles[*seat].turn_over();
        }
        Event::MugginsCalled { .. } => deal.callable = None,
        Event::PenaltyCard { from, to, .. } => {
            let card = deal.piles[*from].draw().expect("a card to give");
            deal.piles[*to].put_under(&[card]);
        }
        Event::DealScored { .. } => deal.over = true,
        Event::DealStarted { .. } | Event::PlayerOut { .. } | Event::MatchEnded { .. } => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// The end: each seat scores minus the cards it holds, and the fewest cards win (shared on a tie).
fn score_deal(state: &State, deal: &Deal, ending: Ending) -> Vec<Event> {
    let cards = deal.holdings();
    let terms: Vec<ScoreTerm> = (0..state.players)
        .filter(|&s| cards[s] > 0)
        .map(|s| {
            let n = cards[s];
            ScoreTerm::new(
                s,
                -(n as i64),
                rule::CARDS,
                format!("Plats {s} har {n} kort kvar."),
                format!("Seat {s} has {n} cards left."),
            )
        })
        .collect();
    let points: Vec<i64> = cards.iter().map(|&n| -(n as i64)).collect();
    let scores: Vec<i64> = state.deals.scores.iter().zip(&points).map(|(a, b)| a + b).collect();
    let winners = seat::match_winners(&points);
    let who = seat::seats_text(&winners);
    let fewest = cards[winners[0]];
    let (sv, en) = match ending {
        Ending::Out => ("har blivit av med alla sina kort".to_string(), "is rid of all his cards".to_string()),
        Ending::TurnLimit => (
            format!("har minst kort kvar, {fewest}, när husets gräns på {} vända kort är nådd", deal.turns),
            format!(
                "has the fewest cards left, {fewest}, once the house's limit of {} cards turned is reached",
                deal.turns
            ),
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

/// The table as one viewer sees it: the muggins piles, the size of each draw pile, each discard
/// pile, the card turned, whose turn it is and a wrong placement open to a call. A deal's record
/// shows every draw pile at every step, and the pack once the deal is over.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = MugginsTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, scores (minus the cards held at the end), who is to act,
    /// the outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    /// The options the match is played with.
    pub options: Options,
    /// The deal's forehand: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The muggins piles, bottom card first, the top card last: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub muggins: Option<Vec<Vec<Card>>>,
    /// Cards in each seat's face-down draw pile: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile_sizes: Option<Vec<usize>>,
    /// Each seat's discard pile, bottom card first, the top card last: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub discard_piles: Option<Vec<Vec<Card>>>,
    /// By seat, the card it has turned up and not yet placed (none: empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turned: Option<Vec<Vec<Card>>>,
    /// Whose turn it is: absent before the deal and once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// The player whose placement against the order may be called "muggins" now.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub callable: Option<Seat>,
    /// Cards turned so far: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turns: Option<u32>,
    /// Every draw pile, top card first: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub piles: Option<Vec<Vec<Card>>>,
    /// The pack as it was dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let deal = state.deals.deal.as_ref();
    let live = deal.filter(|d| !d.over);
    let record = deal.filter(|_| viewer == Viewer::Record);
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        forehand: deal.map(|d| d.forehand),
        muggins: deal.map(|d| d.muggins.clone()),
        pile_sizes: deal.map(|d| d.piles.iter().map(|p| p.talon.len()).collect()),
        discard_piles: deal.map(|d| d.piles.iter().map(|p| p.pile.clone()).collect()),
        turned: deal
            .map(|d| (0..state.players).map(|s| d.turned.filter(|_| s == d.to_play).into_iter().collect()).collect()),
        to_play: live.map(|d| d.to_play),
        callable: live.and_then(|d| d.callable),
        turns: deal.map(|d| d.turns),
        piles: record.map(|d| d.piles.iter().map(|p| p.talon.clone()).collect()),
        deck: record.filter(|d| d.over).map(|d| d.deck.clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// The ranks (1 to 13) that could go on some muggins pile with these tops.
fn ranks_taken(tops: &[Option<Card>]) -> usize {
    (1..=13u8).filter(|&r| tops.iter().flatten().any(|&t| number(t).abs_diff(r) == 1)).count()
}

/// The rule of thumb: call whenever one may; keep to the order, and of several muggins piles
/// choose the one that leaves the most ranks able to land on the muggins piles.
fn basic(deal: &Deal, seat: Seat, legal: &[Command]) -> Option<Command> {
    if legal.contains(&Command::Call) {
        return Some(Command::Call);
    }
    let right: Vec<Command> = deal.places(false);
    let card = deal.turned.filter(|_| seat == deal.to_play && !right.is_empty());
    let Some(card) = card else { return legal.first().cloned() };
    let score = |c: &Command| match *c {
        Command::Place { pile } => {
            let mut tops: Vec<Option<Card>> = deal.muggins.iter().map(|p| p.last().copied()).collect();
            tops[pile] = Some(card);
            ranks_taken(&tops)
        }
        _ => 0,
    };
    let best = right.iter().map(&score).max()?;
    right.into_iter().find(|c| score(c) == best)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Muggins {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "muggins";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/muggins.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options { callable: true, ..Options::default() },
            Options { callable: false, turn_limit: 60 },
            Options { callable: true, turn_limit: 60 },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_TURNS).contains(&options.turn_limit) {
            return Err(SetupError(format!("turn_limit must be 1 to {MAX_TURNS}, not {}", options.turn_limit)));
        }
        Ok(State { options, players, deals: Deals::new(players) })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let table = Seating::new(state.players);
        let dealer = state.deals.next_dealer;
        let m = muggins_cards(state.players);
        let piles = deals::deal_singly(&table, dealer, &deck[m..m + per_seat(state.players) * state.players]);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: table.next(dealer),
            muggins: deck[..m].to_vec(),
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
            Event::DealStarted { deal_number, dealer, forehand, deck, muggins, piles, options } => {
                state.options = options.clone();
                let players = piles.len();
                state.deals.next_dealer = Seating::new(players).next(*dealer);
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    forehand: *forehand,
                    deck: deck.clone(),
                    piles: piles.iter().map(|p| Piles::new(p.clone())).collect(),
                    muggins: muggins.iter().map(|&c| vec![c]).collect(),
                    to_play: *forehand,
                    turned: None,
                    callable: None,
                    turns: 0,
                    seen: muggins.iter().copied().collect(),
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
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        let mut moves = Vec::new();
        if seat == deal.to_play {
            match deal.turned {
                None => moves.push(Command::Turn),
                Some(_) => moves.extend(deal.places(state.options.callable)),
            }
        }
        if deal.callable.is_some_and(|o| o != seat) {
            moves.push(Command::Call);
        }
        moves
    }

    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        let mut space = vec![Command::Turn, Command::Call];
        space.extend((0..muggins_cards(state.players)).map(|pile| Command::Place { pile }));
        space.extend((0..state.players).map(|owner| Command::Discard { owner }));
        space
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    /// While the deal is played the pack and the draw piles are nobody's, their owners' neither:
    /// nulls in place, and a penalty card goes unseen. A card once turned up stays public.
    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        let hidden = state.deals.in_play(state.deals.number, viewer, deal_over);
        match event {
            Event::DealStarted { deal_number, piles, deck, .. }
                if state.deals.in_play(*deal_number, viewer, deal_over) =>
            {
                deals::blank(&mut full, "deck", deck);
                deals::blank_piles(&mut full, "piles", piles);
            }
            Event::PenaltyCard { .. } if hidden => full["card"] = Value::Null,
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let unseen = deal.piles.iter().flat_map(|p| p.talon.iter()).filter(|c| !deal.seen.contains(c));
        unseen.map(|&c| (c, Vec::new())).collect()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.piles.iter().flat_map(Piles::cards).collect();
        all.extend(deal.muggins.iter().flatten());
        all.extend(deal.turned);
        crate::ensure!(is_permutation(&all, &pack), "piles, muggins piles and the turned card are not the pack");
        crate::ensure!(deal.muggins.len() == muggins_cards(state.players), "{} muggins piles", deal.muggins.len());
        crate::ensure!(deal.turns <= state.options.turn_limit, "{} cards turned past the cap", deal.turns);
        crate::ensure!(deal.turned.is_none() || deal.callable.is_none(), "a call open while a card is turned");
        crate::ensure!(deal.callable.is_none() || state.options.callable, "a call open without the option");
        let left = deal.left_pile(deal.to_play);
        crate::ensure!(left != Some(deal.to_play), "seat {} is its own left neighbour", deal.to_play);
        Ok(())
    }

    /// Minus the cards held, less the others' mean: the end's count.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let Some(deal) = &state.deals.deal else { return 0.0 };
        let held = deal.holdings();
        bots::lead_over_mean(state.players, |s| -(held[s] as f64), seat)
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut crate::random::Rng) -> Option<Command> {
        basic(state.deals.acting(seat)?, seat, &self.legal_moves(state, seat))
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels { basic: true, strong: false }
    }
}

#[cfg(test)]
mod tests;
