//! Kom ihåg (Memory, Pelmanism): the whole pack lies spread face down, each card in a place of
//! its own. A player turns up two cards, one at a time; two of a rank are a pair, which he takes
//! and turns again; otherwise the two go back face down where they were and the turn passes. Most
//! pairs wins.
//!
//! Memory is the game, so the service forgets for the players: a card turned back down is never
//! shown again, in views or in past events ([`Positions::shows`]). The two cards of a miss stay
//! face up until the next player's first turn, which begins by turning them back, so that every
//! table sees them before they go.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bots;
use crate::cards::{decks, Card, Rank};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::layout::{Place, Positions};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{Seat, Table as Seating};

#[derive(Default)]
pub struct KomIhag;

/// The cards a basic bot remembers: the last few turned up.
pub const BASIC_MEMORY: usize = 4;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const FACE_DOWN: &str = "kom-ihag.turn.face-down";
    pub const PAIRS: &str = "kom-ihag.end.pairs";
}

// ---------------------------------------------------------------------------------------------
// Options

/// The game has no options: one deal of the whole pack.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = KomIhagOptions))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal`, `playing` and `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = KomIhagPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Playing,
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
    spread: Positions,
    to_play: Seat,
    /// The places turned up in the turn under way (one or two).
    turned: Vec<usize>,
    /// The two places of the last miss, still face up until the next player's first turn.
    to_turn_back: Vec<usize>,
    /// By seat, the pairs taken, two cards a pair.
    pairs: Vec<Vec<Card>>,
    scored: bool,
    /// By seat, the spread's turn-up count when its latest turn began: it has been shown every
    /// card turned up since, even those turned back before it could look (a bot moves at once).
    turn_began: Vec<u32>,
    /// The seat that turned the last card.
    last_turner: Option<Seat>,
}

impl Deal {
    /// The turn-up count after which `viewer` may still be shown a card turned back: since its
    /// own turn began for a seat; never for a spectator, who has no turn to miss (and is not at
    /// the table to have remembered it).
    fn shown_since(&self, viewer: Viewer) -> u32 {
        match viewer {
            Viewer::Seat(s) => self.turn_began[s],
            _ => self.spread.turns(),
        }
    }
}

impl Deal {
    fn over(&self) -> bool {
        self.spread.is_empty()
    }

    /// Whether `position` may be turned now: its card lies face down, or is about to be turned
    /// back before this turn.
    fn can_turn(&self, position: usize) -> bool {
        self.spread.card(position).is_some() && (!self.spread.is_up(position) || self.to_turn_back.contains(&position))
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.over() {
            Vec::new()
        } else {
            vec![self.to_play]
        }
    }

    fn is_live(&self) -> bool {
        !self.over()
    }

    fn phase(&self) -> Phase {
        Phase::Playing
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    players: usize,
    deals: Deals<Deal>,
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = KomIhagCommand))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Turn up the face-down card at `position`: the turn's first card or its second.
    Turn { position: usize },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = KomIhagEvent))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The pack spread face down, the deck's first card at position 0.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was spread: hidden while the deal lasts.
        deck: Vec<Card>,
        options: Options,
    },
    /// The cards of the last miss turned back face down, as the next player begins.
    TurnedBack {
        positions: Vec<usize>,
    },
    /// A card turned up: its face is shown only while it stays up (or once taken).
    TurnedUp {
        seat: Seat,
        position: usize,
        card: Card,
    },
    /// The two cards turned up are of a rank: `seat` takes them and turns again.
    PairTaken {
        seat: Seat,
        positions: Vec<usize>,
        cards: Vec<Card>,
    },
    /// The two cards turned up differ: they will go back face down, and `next` turns.
    Missed {
        seat: Seat,
        next: Seat,
    },
    DealScored {
        deal_number: u32,
        /// By seat, the pairs taken.
        pairs: Vec<usize>,
        terms: Vec<ScoreTerm>,
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

fn deal_started(state: &State, deck: Vec<Card>) -> Event {
    let dealer = state.deals.next_dealer;
    Event::DealStarted {
        deal_number: state.deals.number + 1,
        dealer,
        forehand: Seating::new(state.players).forehand(dealer),
        deck,
        options: state.options.clone(),
    }
}

fn rank(card: Card) -> Rank {
    card.rank().expect("a standard card")
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let Command::Turn { position } = *command;
    if !deal.can_turn(position) {
        return Err(RuleViolation::new(
            rule::FACE_DOWN,
            format!("Plats {position} har inget kort med baksidan upp att vända."),
            format!("Position {position} holds no face-down card to turn."),
        ));
    }
    let mut events = Vec::new();
    if !deal.to_turn_back.is_empty() {
        events.push(Event::TurnedBack { positions: deal.to_turn_back.clone() });
    }
    let card = deal.spread.card(position).expect("checked above");
    events.push(Event::TurnedUp { seat, position, card });
    Ok(run(state, events))
}

fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

/// After a turn's second card, the pair taken or the miss; once the spread is empty, the score
/// and the match's end.
fn next_step(state: &State) -> Option<Event> {
    let deal = state.deals.deal.as_ref().filter(|_| state.deals.outcome.is_none())?;
    if deal.over() {
        return match deal.scored {
            false => Some(score(state, deal)),
            true => Some(match_end(state)),
        };
    }
    let [a, b] = deal.turned[..] else { return None };
    let seat = deal.to_play;
    let cards: Vec<Card> = [a, b].iter().map(|&p| deal.spread.card(p).expect("turned up")).collect();
    if rank(cards[0]) == rank(cards[1]) {
        Some(Event::PairTaken { seat, positions: vec![a, b], cards })
    } else {
        Some(Event::Missed { seat, next: Seating::new(state.players).next(seat) })
    }
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted { deal_number, dealer, forehand, deck, options } => {
            state.options = options.clone();
            let n = state.players;
            state.deals.next_dealer = (dealer + 1) % n;
            let deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                forehand: *forehand,
                deck: deck.clone(),
                spread: Positions::new(deck.clone()),
                to_play: *forehand,
                turned: Vec::new(),
                to_turn_back: Vec::new(),
                pairs: vec![Vec::new(); n],
                scored: false,
                turn_began: vec![0; n],
                last_turner: None,
            };
            let scores = if state.deals.scores.len() == n { state.deals.scores.clone() } else { vec![0; n] };
            state.deals.started(*deal_number, &scores, deal);
        }
        Event::DealScored { terms, scores, .. } => {
            state.deals.scored(terms, scores);
            if let Some(deal) = state.deals.deal.as_mut() {
                deal.scored = true;
            }
        }
        Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
        _ => {
            let Some(deal) = state.deals.deal.as_mut() else { return };
            match event {
                Event::TurnedBack { positions } => {
                    positions.iter().for_each(|&p| deal.spread.turn_down(p));
                    deal.to_turn_back.clear();
                }
                Event::TurnedUp { seat, position, .. } => {
                    if deal.last_turner != Some(*seat) {
                        deal.turn_began[*seat] = deal.spread.turns();
                        deal.last_turner = Some(*seat);
                    }
                    deal.spread.turn_up(*position);
                    deal.turned.push(*position);
                }
                Event::PairTaken { seat, positions, .. } => {
                    for &p in positions {
                        let card = deal.spread.take(p);
                        deal.pairs[*seat].push(card);
                    }
                    deal.turned.clear();
                }
                Event::Missed { next, .. } => {
                    deal.to_turn_back = std::mem::take(&mut deal.turned);
                    deal.to_play = *next;
                }
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// A point a pair.
fn score(state: &State, deal: &Deal) -> Event {
    let pairs: Vec<usize> = deal.pairs.iter().map(|p| p.len() / 2).collect();
    let terms: Vec<ScoreTerm> = (0..state.players)
        .map(|s| {
            let n = pairs[s];
            ScoreTerm::new(s, n as i64, rule::PAIRS, format!("{n} par."), format!("{n} pairs."))
        })
        .collect();
    let mut scores = state.deals.scores.clone();
    terms.iter().for_each(|t| scores[t.to] += t.points);
    Event::DealScored { deal_number: deal.number, pairs, terms, scores }
}

/// Most pairs wins; a tie shares the win.
fn match_end(state: &State) -> Event {
    let scores = state.deals.scores.clone();
    let winners = crate::seat::match_winners(&scores);
    let who = crate::seat::seats_text(&winners);
    let most = scores.iter().copied().max().unwrap_or(0);
    Event::MatchEnded {
        explanation: Text::new(
            format!("Plats {who} vann med flest par, {most}."),
            format!("Seat {who} won with the most pairs, {most}."),
        ),
        winners,
        scores,
    }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the spread (a face only while it is up), the turn under way,
/// the cards about to be turned back, and each seat's pairs. A finished deal's record shows the
/// pack as it was spread.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = KomIhagTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number, dealer, scores (pairs), who is to act, the outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seat whose turn it is: absent before the deal and once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// Every place still holding a card, by position; its face only while it lies face up.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub places: Option<Vec<Place>>,
    /// The places turned up in the turn under way.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turned: Option<Vec<usize>>,
    /// The places of the last miss, face up until the next player turns a card.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_turn_back: Option<Vec<usize>>,
    /// By seat, the pairs taken, lying open in front of the player.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pairs: Option<Vec<Vec<Card>>>,
    /// The cards turned back down since the viewer's own turn began, with their places: what the
    /// table showed while the viewer could not look, as when a bot moves at once (none for a
    /// spectator). Older ones are never shown again.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turned_back: Option<Vec<Place>>,
    /// The pack as it was spread: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let deal = state.deals.deal.as_ref();
    let record = viewer == Viewer::Record;
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        forehand: deal.map(|d| d.forehand),
        to_play: deal.filter(|d| !d.over()).map(|d| d.to_play),
        places: deal.map(|d| if record { d.spread.view_open() } else { d.spread.view() }),
        turned: deal.map(|d| d.turned.clone()),
        to_turn_back: deal.map(|d| d.to_turn_back.clone()),
        pairs: deal.map(|d| d.pairs.clone()),
        turned_back: deal.filter(|_| !record).map(|d| d.spread.turned_back_since(d.shown_since(viewer))),
        deck: deal.filter(|d| record && d.over()).map(|d| d.deck.clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// The place to turn for a player who remembers the last `memory` cards seen (every one with
/// `None`): the second of a known pair, else a card never seen (or forgotten), else any. It reads
/// only the faces the table has shown ([`Positions::remembered`]). The place not remembered is
/// picked with `rng` when one is given (basic), else the last one.
fn choice(deal: &Deal, memory: Option<usize>, rng: Option<&mut Rng>) -> Option<Command> {
    let known: Vec<(usize, Card)> =
        deal.spread.remembered(memory).into_iter().filter(|&(p, _)| deal.can_turn(p)).collect();
    // Any place not remembered would do, and one fixed by public facts alone keeps the bot from
    // reading a face it was not shown. A forgetful player must not walk the spread in a fixed
    // order, though: bots that forget walk it in a cycle that never meets a pair.
    let unknowns: Vec<usize> =
        (0..deal.spread.places()).filter(|&p| deal.can_turn(p) && !known.iter().any(|&(k, _)| k == p)).collect();
    let unknown = match rng {
        Some(rng) if !unknowns.is_empty() => Some(unknowns[rng.below(unknowns.len())]),
        _ => unknowns.last().copied(),
    };
    let mate = |r: Rank, besides: usize| known.iter().find(|&&(p, c)| p != besides && rank(c) == r).map(|k| k.0);
    let position = match deal.turned.first() {
        Some(&first) => mate(rank(deal.spread.card(first)?), first),
        None => known.iter().find_map(|&(p, c)| mate(rank(c), p).map(|_| p)),
    }
    .or(unknown)
    .or(known.first().map(|k| k.0))?;
    Some(Command::Turn { position })
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for KomIhag {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "kom-ihag";
    const PLAYERS: RangeInclusive<usize> = 2..=7;
    const RULEBOOK: &'static str = include_str!("rulebooks/kom-ihag.txt");

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        Ok(State { options, players, deals: Deals::new(players) })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(run(state, vec![deal_started(state, deck)]))
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        (0..deal.spread.places()).filter(|&p| deal.can_turn(p)).map(|position| Command::Turn { position }).collect()
    }

    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        let places = state.deals.live().map_or(0, |d| d.spread.places());
        (0..=places).map(|position| Command::Turn { position }).collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        let deal = state.deals.deal.as_ref().filter(|_| viewer != Viewer::Record && !deal_over);
        match event {
            Event::DealStarted { deal_number, deck, .. } if state.deals.in_play(*deal_number, viewer, deal_over) => {
                deals::blank(&mut full, "deck", deck);
            }
            Event::TurnedUp { position, .. }
                if deal.is_some_and(|d| {
                    !d.spread.shows(*position) && !d.spread.seen_after(*position, d.shown_since(viewer))
                }) =>
            {
                full["card"] = json!(null);
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        state.deals.live().map(|d| d.spread.memory_secrets(state.players)).unwrap_or_default()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        deals::check_deck(&deal.deck, &decks::standard52())?;
        let mut all = deal.spread.cards();
        all.extend(deal.pairs.concat());
        crate::ensure!(crate::cards::is_permutation(&all, &decks::standard52()), "cards lost: {all:?}");
        for pairs in &deal.pairs {
            crate::ensure!(pairs.chunks(2).all(|p| p.len() == 2 && rank(p[0]) == rank(p[1])), "not pairs: {pairs:?}");
        }
        crate::ensure!(deal.turned.len() <= 2, "a turn of {:?}", deal.turned);
        let up: Vec<usize> = deal.spread.face_up().into_iter().map(|(p, _)| p).collect();
        let mut shown = [deal.turned.clone(), deal.to_turn_back.clone()].concat();
        shown.sort();
        crate::ensure!(up == shown, "face up {up:?}, turned {:?} and {:?}", deal.turned, deal.to_turn_back);
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<Command> {
        choice(state.deals.acting(seat)?, Some(BASIC_MEMORY), Some(rng))
    }

    /// The strong bot remembers every card seen: its one candidate is that move, so no search is
    /// needed (the spread holds no choice that memory does not settle).
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        state.deals.acting(seat).and_then(|d| choice(d, None, None)).into_iter().collect()
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let pairs = |s: Seat| state.deals.deal.as_ref().map_or(0, |d| d.pairs[s].len()) as f64;
        bots::lead_over_mean(state.players, pairs, seat)
    }
}

#[cfg(test)]
mod tests;
