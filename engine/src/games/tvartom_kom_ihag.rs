//! Tvärtom-kom ihåg: the whole pack lies spread face down, each card in a place of its own. A
//! player turns up cards one at a time, as many as he dares: when he stops, every card turned up
//! this turn goes into a heap in front of him; turning a rank already face up this turn busts, and
//! all of the turn's cards go back face down. Most cards (or, as an option, most points) wins.
//!
//! The spread, what was seen and what may be shown again are `layout::Positions`, as in Kom ihåg:
//! a bust stays face up until the next player's first turn, which begins by turning it back, and a
//! card turned back is shown to a seat only until that seat begins its next turn (the one who went
//! bust has to see his cards even when a bot after him turns them back at once). A heap lies face
//! down, but every face in it was seen by all, so it is public.

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
pub struct TvartomKomIhag;

/// The cards a basic bot remembers: the last few turned up.
pub const BASIC_MEMORY: usize = 4;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const FACE_DOWN: &str = "tvartom-kom-ihag.turn.face-down";
    pub const STOP: &str = "tvartom-kom-ihag.turn.stop";
    pub const CARDS: &str = "tvartom-kom-ihag.end.cards";
    pub const POINTS: &str = "tvartom-kom-ihag.variant.points";
    pub const SIMPLE: &str = "tvartom-kom-ihag.variant.simple";
}

// ---------------------------------------------------------------------------------------------
// Options

/// What a heap counts: `cards` (the text's game), `points` (court cards and aces 10, number
/// cards their value) or `simple` (court cards 10, number cards 5, aces 1).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = TvartomKomIhagScoring))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    #[default]
    Cards,
    Points,
    Simple,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = TvartomKomIhagOptions))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    pub scoring: Scoring,
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal`, `playing` and `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = TvartomKomIhagPhase))]
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
    /// The places turned up this turn, in order.
    turned: Vec<usize>,
    /// The places of the last bust, still face up until the next player's first turn.
    to_turn_back: Vec<usize>,
    /// By seat, the heap of cards taken.
    heaps: Vec<Vec<Card>>,
    scored: bool,
    /// By seat, the spread's turn-up count when its latest turn began: it has been shown every
    /// card turned up since, even those turned back before it could look.
    turn_began: Vec<u32>,
    /// The seat that turned the last card.
    last_turner: Option<Seat>,
}

impl Deal {
    /// The turn-up count after which `viewer` may still be shown a card turned back: since its
    /// own turn began for a seat; never for a spectator, who has no turn to miss.
    fn shown_since(&self, viewer: Viewer) -> u32 {
        match viewer {
            Viewer::Seat(s) => self.turn_began[s],
            _ => self.spread.turns(),
        }
    }

    fn over(&self) -> bool {
        self.spread.is_empty()
    }

    /// Whether `position` may be turned now: its card lies face down, or is about to be turned
    /// back before this turn.
    fn can_turn(&self, position: usize) -> bool {
        self.spread.card(position).is_some() && (!self.spread.is_up(position) || self.to_turn_back.contains(&position))
    }

    fn turned_cards(&self) -> Vec<Card> {
        self.turned.iter().filter_map(|&p| self.spread.card(p)).collect()
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

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = TvartomKomIhagCommand))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Turn up the face-down card at `position`.
    Turn { position: usize },
    /// Stop and take this turn's cards.
    Stop,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = TvartomKomIhagEvent))]
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
    /// The cards of the last bust turned back face down, as the next player begins.
    TurnedBack {
        positions: Vec<usize>,
    },
    /// A card turned up: its face is shown only while it stays up (or once taken).
    TurnedUp {
        seat: Seat,
        position: usize,
        card: Card,
    },
    /// The card at `position` repeats a rank turned up this turn: the turn's cards will go back
    /// face down, and `next` turns.
    Busted {
        seat: Seat,
        position: usize,
        next: Seat,
    },
    /// `seat` stopped (or turned the last card): this turn's cards go into his heap.
    HeapTaken {
        seat: Seat,
        positions: Vec<usize>,
        cards: Vec<Card>,
        next: Seat,
    },
    DealScored {
        deal_number: u32,
        /// By seat, the cards in the heap.
        cards: Vec<usize>,
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

/// What a card counts for under `scoring`.
pub fn value(card: Card, scoring: Scoring) -> i64 {
    let r = rank(card);
    match scoring {
        Scoring::Cards => 1,
        Scoring::Points if r.is_court() || r == Rank::ACE => 10,
        Scoring::Points => i64::from(r.value()),
        Scoring::Simple if r.is_court() => 10,
        Scoring::Simple if r == Rank::ACE => 1,
        Scoring::Simple => 5,
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    match *command {
        Command::Turn { position } => {
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
        Command::Stop => {
            if deal.turned.is_empty() {
                return Err(RuleViolation::new(
                    rule::STOP,
                    "Vänd upp minst ett kort innan du stannar.",
                    "Turn up at least one card before stopping.",
                ));
            }
            Ok(run(state, vec![taken(state, deal)]))
        }
    }
}

fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

fn taken(state: &State, deal: &Deal) -> Event {
    let seat = deal.to_play;
    Event::HeapTaken {
        seat,
        positions: deal.turned.clone(),
        cards: deal.turned_cards(),
        next: Seating::new(state.players).next(seat),
    }
}

/// A bust when the card just turned repeats a rank; the turn's cards taken when no face-down card
/// is left; once the spread is empty, the score and the match's end.
fn next_step(state: &State) -> Option<Event> {
    let deal = state.deals.deal.as_ref().filter(|_| state.deals.outcome.is_none())?;
    if deal.over() {
        return match deal.scored {
            false => Some(score(state, deal)),
            true => Some(match_end(state)),
        };
    }
    let (&last, before) = deal.turned.split_last()?;
    let card = deal.spread.card(last)?;
    if before.iter().any(|&p| deal.spread.card(p).map(rank) == Some(rank(card))) {
        let seat = deal.to_play;
        return Some(Event::Busted { seat, position: last, next: Seating::new(state.players).next(seat) });
    }
    deal.spread.face_down().is_empty().then(|| taken(state, deal))
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
                heaps: vec![Vec::new(); n],
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
                Event::Busted { next, .. } => {
                    deal.to_turn_back = std::mem::take(&mut deal.turned);
                    deal.to_play = *next;
                }
                Event::HeapTaken { seat, positions, next, .. } => {
                    for &p in positions {
                        let card = deal.spread.take(p);
                        deal.heaps[*seat].push(card);
                    }
                    deal.turned.clear();
                    deal.to_play = *next;
                }
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// Each heap counted as the option says.
fn score(state: &State, deal: &Deal) -> Event {
    let scoring = state.options.scoring;
    let terms: Vec<ScoreTerm> = (0..state.players)
        .map(|s| {
            let heap = &deal.heaps[s];
            let n = heap.len();
            let points: i64 = heap.iter().map(|&c| value(c, scoring)).sum();
            let (rule, sv, en) = match scoring {
                Scoring::Cards => (rule::CARDS, format!("{n} kort."), format!("{n} cards.")),
                Scoring::Points => (
                    rule::POINTS,
                    format!("{n} kort, {points} poäng (klädda kort och ess 10, andra sin valör)."),
                    format!("{n} cards, {points} points (court cards and aces 10, others their rank)."),
                ),
                Scoring::Simple => (
                    rule::SIMPLE,
                    format!("{n} kort, {points} poäng (klädda kort 10, nummerkort 5, ess 1)."),
                    format!("{n} cards, {points} points (court cards 10, number cards 5, aces 1)."),
                ),
            };
            ScoreTerm::new(s, points, rule, sv, en)
        })
        .collect();
    let mut scores = state.deals.scores.clone();
    terms.iter().for_each(|t| scores[t.to] += t.points);
    Event::DealScored { deal_number: deal.number, cards: deal.heaps.iter().map(Vec::len).collect(), terms, scores }
}

/// The highest count wins; a tie shares the win.
fn match_end(state: &State) -> Event {
    let scores = state.deals.scores.clone();
    let winners = crate::seat::match_winners(&scores);
    let who = crate::seat::seats_text(&winners);
    let most = scores.iter().copied().max().unwrap_or(0);
    let (sv, en) = match state.options.scoring {
        Scoring::Cards => ("kort", "cards"),
        _ => ("poäng", "points"),
    };
    Event::MatchEnded {
        explanation: Text::new(
            format!("Plats {who} vann med flest {sv}, {most}."),
            format!("Seat {who} won with the most {en}, {most}."),
        ),
        winners,
        scores,
    }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the spread (a face only while it is up), the turn under way,
/// the cards about to be turned back, and each seat's heap (face down, but seen by all). A
/// finished deal's record shows the pack as it was spread.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = TvartomKomIhagTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number, dealer, scores, who is to act, the outcome.
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
    /// The places turned up this turn, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turned: Option<Vec<usize>>,
    /// The places of the last bust, face up until the next player turns a card.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_turn_back: Option<Vec<usize>>,
    /// By seat, the heap taken: face down, but every card in it was seen by all.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub heaps: Option<Vec<Vec<Card>>>,
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
        heaps: deal.map(|d| d.heaps.clone()),
        turned_back: deal.filter(|_| !record).map(|d| d.spread.turned_back_since(d.shown_since(viewer))),
        deck: deal.filter(|d| record && d.over()).map(|d| d.deck.clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// The move of a player who remembers the last `memory` cards seen (every one with `None`): a
/// remembered card of a rank not yet up this turn (a sure gain); else, having turned nothing, an
/// unseen card; else another unseen card while the chance of a bust is worth the heap at stake,
/// reckoned from the cards it has not seen (never from a card's face it was not shown).
fn choice(deal: &Deal, scoring: Scoring, memory: Option<usize>, rng: Option<&mut Rng>) -> Option<Command> {
    let up: Vec<Rank> = deal.turned_cards().into_iter().map(rank).collect();
    let known: Vec<(usize, Card)> =
        deal.spread.remembered(memory).into_iter().filter(|&(p, _)| deal.can_turn(p)).collect();
    if let Some(&(position, _)) = known.iter().find(|&&(_, c)| !up.contains(&rank(c))) {
        return Some(Command::Turn { position });
    }
    // Any place not remembered would do, and one fixed by public facts alone keeps the bot from
    // reading a face it was not shown; a forgetful player picks one at random (with `rng`), as
    // forgetful bots walking the spread in a fixed order can cycle for ever.
    let unknowns: Vec<usize> =
        (0..deal.spread.places()).filter(|&p| deal.can_turn(p) && !known.iter().any(|&(k, _)| k == p)).collect();
    let unknown = match rng {
        Some(rng) if !unknowns.is_empty() => Some(unknowns[rng.below(unknowns.len())]),
        _ => unknowns.last().copied(),
    };
    let Some(unseen) = unknown else {
        return match up.is_empty() {
            true => known.first().map(|&(position, _)| Command::Turn { position }),
            false => Some(Command::Stop),
        };
    };
    if up.is_empty() {
        return Some(Command::Turn { position: unseen });
    }
    // The cards it cannot place: the pack less the heaps, the cards face up and those remembered.
    let mut placed: Vec<Card> = deal.heaps.concat();
    placed.extend(deal.spread.face_up().into_iter().filter(|(p, _)| !deal.to_turn_back.contains(p)).map(|(_, c)| c));
    placed.extend(known.iter().map(|&(_, c)| c));
    let pool: Vec<Card> = decks::standard52().into_iter().filter(|c| !placed.contains(c)).collect();
    let risky = pool.iter().filter(|&&c| up.contains(&rank(c))).count() as f64;
    let bust = risky / pool.len().max(1) as f64;
    let safe: Vec<i64> = pool.iter().filter(|&&c| !up.contains(&rank(c))).map(|&c| value(c, scoring)).collect();
    let gain = safe.iter().sum::<i64>() as f64 / safe.len().max(1) as f64;
    let at_stake: i64 = deal.turned_cards().into_iter().map(|c| value(c, scoring)).sum();
    if (1.0 - bust) * (at_stake as f64 + gain) > at_stake as f64 {
        Some(Command::Turn { position: unseen })
    } else {
        Some(Command::Stop)
    }
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for TvartomKomIhag {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "tvartom-kom-ihag";
    const PLAYERS: RangeInclusive<usize> = 2..=6;
    const RULEBOOK: &'static str = include_str!("rulebooks/tvartom-kom-ihag.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        [Scoring::Cards, Scoring::Points, Scoring::Simple].map(|scoring| Options { scoring }).to_vec()
    }

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
        let mut moves: Vec<Command> = (0..deal.spread.places())
            .filter(|&p| deal.can_turn(p))
            .map(|position| Command::Turn { position })
            .collect();
        if !deal.turned.is_empty() {
            moves.push(Command::Stop);
        }
        moves
    }

    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        let places = state.deals.live().map_or(0, |d| d.spread.places());
        let mut moves: Vec<Command> = (0..=places).map(|position| Command::Turn { position }).collect();
        moves.push(Command::Stop);
        moves
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
        all.extend(deal.heaps.concat());
        crate::ensure!(crate::cards::is_permutation(&all, &decks::standard52()), "cards lost: {all:?}");
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
        choice(state.deals.acting(seat)?, state.options.scoring, Some(BASIC_MEMORY), Some(rng))
    }

    /// The strong bot remembers every card seen and reckons the chance of a bust from the cards
    /// it has not seen: its one candidate is that move, so no search is needed.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        state.deals.acting(seat).and_then(|d| choice(d, state.options.scoring, None, None)).into_iter().collect()
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let scoring = state.options.scoring;
        let heap = |s: Seat| {
            state.deals.deal.as_ref().map_or(0, |d| d.heaps[s].iter().map(|&c| value(c, scoring)).sum::<i64>()) as f64
        };
        bots::lead_over_mean(state.players, heap, seat)
    }
}

#[cfg(test)]
mod tests;
