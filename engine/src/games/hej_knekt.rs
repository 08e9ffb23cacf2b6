//! Hej knekt: the pack dealt into face-down piles that nobody looks at, not even their owners.
//! The players turn their top cards onto a pile in the middle in turn; a ten or higher opens a
//! reaction window in which everyone, the turner included, must make the card's gesture (whistle
//! for a ten, "hej knekt" for a jack, "goddag dam" for a queen, a salute for a king, a slap for an
//! ace). The last to make the right one, or the late player nearest the turner when the time
//! runs out, takes the middle pile under his own and turns next. The first rid of his pile wins.
//!
//! The game is clocked (docs/engine.md §4.7): every event carries the service's receive time,
//! the window is a [`reaction::Window`], and the service closes it by time through
//! [`Rules::time_passes`].

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots::{self, Level};
use crate::cards::{decks, is_permutation, rank_value, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::knowledge::Knowledge;
use crate::random::Rng;
use crate::reaction::{self, Clock, Reaction, Window};
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Seat, Table as Seating};

#[derive(Default)]
pub struct HejKnekt;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 6;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const TURN_WAIT: &str = "hej-knekt.turn.wait";
    pub const REACT_NOTHING: &str = "hej-knekt.react.nothing";
    pub const END_OUT: &str = "hej-knekt.end.out";
    pub const END_LIMIT: &str = "hej-knekt.end.limit";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// How long a reaction window stays open, in milliseconds.
    #[cfg_attr(feature = "openapi", schema(minimum = 1000, maximum = 30000))]
    #[serde(deserialize_with = "crate::schema::within::<_, _, 1000, 30000>")]
    pub window_ms: u32,
    /// The house's cap on cards turned: the match then ends, the fewest cards winning.
    #[cfg_attr(feature = "openapi", schema(minimum = 10, maximum = 100000))]
    #[serde(deserialize_with = "crate::schema::within::<_, _, 10, 100000>")]
    pub turn_limit: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { window_ms: 4_000, turn_limit: 1_000 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// `waiting-for-deal` before the deal, `turning` while the next card is awaited, `reacting` while
/// a window is open, `finished` at the end.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = HejKnektPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Turning,
    Reacting,
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
    /// By seat, the face-down pile, top card first.
    piles: Vec<Vec<Card>>,
    /// The cards turned up in the middle, bottom card first, the one showing last.
    centre: Vec<Card>,
    /// Who turns next, or who turned the card a window is open for.
    turner: Seat,
    window: Option<Window>,
    /// By seat, wrong gestures made in the window open now.
    wrong: Vec<u32>,
    /// Who knows which cards under the piles (place = seat): those taken up from the middle.
    known: Knowledge,
    /// Cards turned so far, and times each seat took the middle pile.
    turns: u32,
    taken: Vec<u32>,
    over: bool,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match (&self.window, self.over) {
            (_, true) => Vec::new(),
            (Some(w), _) => w.waiting.clone(),
            (None, _) => vec![self.turner],
        }
    }

    fn is_live(&self) -> bool {
        !self.over
    }

    fn phase(&self) -> Phase {
        match self.window {
            Some(_) => Phase::Reacting,
            None => Phase::Turning,
        }
    }
}

impl Deal {
    fn sizes(&self) -> Vec<usize> {
        self.piles.iter().map(Vec::len).collect()
    }

    /// The gesture the card showing in the middle asks for, while a window is open.
    fn asked(&self) -> Option<Gesture> {
        self.window.as_ref().and(self.centre.last().copied().and_then(Gesture::for_card))
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    players: usize,
    /// The latest time recorded: it never runs backwards.
    clock: Clock,
    /// The match is one deal; the winner scores 1.
    deals: Deals<Deal>,
}

// ---------------------------------------------------------------------------------------------
// Commands and events

/// What a player does at a ten or higher: whistle (ten), say "hej knekt" (jack), say "goddag
/// dam" (queen), stand and salute (king), slap the table (ace).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = HejKnektGesture))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Gesture {
    Whistle,
    HejKnekt,
    GoddagDam,
    Salute,
    Slap,
}

impl Gesture {
    pub const ALL: [Gesture; 5] =
        [Gesture::Whistle, Gesture::HejKnekt, Gesture::GoddagDam, Gesture::Salute, Gesture::Slap];

    /// The gesture a card asks for: none below a ten.
    pub fn for_card(card: Card) -> Option<Gesture> {
        match card.rank()? {
            Rank::TEN => Some(Gesture::Whistle),
            Rank::JACK => Some(Gesture::HejKnekt),
            Rank::QUEEN => Some(Gesture::GoddagDam),
            Rank::KING => Some(Gesture::Salute),
            Rank::ACE => Some(Gesture::Slap),
            _ => None,
        }
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Turn up the top card of one's pile onto the middle.
    Turn,
    /// React to the ten or higher showing in the middle.
    React { gesture: Gesture },
}

/// Why a seat took the middle pile: it was the last to make the right gesture, or it was late
/// when the window closed by time (the late seat nearest the turner, clockwise from him).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = HejKnektTaken))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Why {
    Last,
    Late,
}

/// Why the match ended: a player rid of his pile, or the house's cap on cards turned.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = HejKnektEnding))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    OutOfCards,
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
        /// Every seat's face-down pile, top card first: nulls while the deal is played.
        piles: Vec<Vec<Card>>,
        options: Options,
    },
    /// The seat turned up the top card of its pile onto the middle at `at_ms`; a ten or higher
    /// opened a window from `opened_at_ms` (the same time) to `closes_at_ms`.
    CardTurned {
        seat: Seat,
        card: Card,
        at_ms: u64,
        opened_at_ms: Option<u64>,
        closes_at_ms: Option<u64>,
    },
    /// The seat made a gesture `after_ms` after the window opened; a wrong one changes nothing.
    Reacted {
        seat: Seat,
        gesture: Gesture,
        right: bool,
        at_ms: u64,
        after_ms: u64,
    },
    /// The seat took the middle pile under its own, face down in this order (the first card
    /// turned first), and turns next: it was last, or late at the window's close (`at_ms`).
    PileTaken {
        seat: Seat,
        why: Why,
        cards: Vec<Card>,
        at_ms: u64,
        /// The right gestures in the order recorded, with their times after the window opened.
        reactions: Vec<Reaction>,
        /// The seats that had not made the right gesture when the window closed.
        late: Vec<Seat>,
    },
    DealScored {
        deal_number: u32,
        ending: Ending,
        /// Cards in each seat's pile at the end.
        cards: Vec<usize>,
        /// Times each seat took the middle pile.
        piles_taken: Vec<u32>,
        turns: u32,
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

/// The twos left out so that the pack divides evenly: one with three players, two with five,
/// all four with six.
fn left_out(players: usize) -> Vec<Card> {
    let twos = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades].map(|s| Card::new(Rank::TWO, s));
    let n = match players {
        3 => 1,
        5 => 2,
        6 => 4,
        _ => 0,
    };
    twos[..n].to_vec()
}

/// The pack for `players`: 52 cards less the twos left out.
pub fn pack_for(players: usize) -> Vec<Card> {
    let out = left_out(players);
    decks::standard52().into_iter().filter(|c| !out.contains(c)).collect()
}

// ---------------------------------------------------------------------------------------------
// Reacting

/// The end of the match, if it is due once no window is open: the turner rid of his pile (he
/// did not take the middle back), or the cap on cards turned.
fn ending(options: &Options, deal: &Deal) -> Option<Ending> {
    if deal.window.is_some() {
        None
    } else if deal.piles.iter().any(Vec::is_empty) {
        Some(Ending::OutOfCards)
    } else if deal.turns >= options.turn_limit {
        Some(Ending::TurnLimit)
    } else {
        None
    }
}

/// The events `first` leads to on a copy of the deal: itself, then the match's end if due.
fn settle(state: &State, deal: &Deal, first: Vec<Event>) -> Vec<Event> {
    let mut work = deal.clone();
    first.iter().for_each(|e| evolve_deal(&mut work, e));
    let mut events = first;
    if let Some(end) = ending(&state.options, &work) {
        events.extend(score_deal(state, &work, end));
    }
    events
}

fn taken(deal: &Deal, seat: Seat, why: Why, at_ms: u64) -> Event {
    let window = deal.window.as_ref().expect("a window is open");
    Event::PileTaken {
        seat,
        why,
        cards: deal.centre.clone(),
        at_ms,
        reactions: window.reacted.clone(),
        late: window.waiting.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, deal: &Deal, seat: Seat, command: &Command, at: u64) -> Result<Vec<Event>, RuleViolation> {
    match (command, &deal.window) {
        (Command::Turn, Some(_)) => Err(RuleViolation::new(
            rule::TURN_WAIT,
            "Vänta: fönstret för det uppvända kortet är öppet.",
            "Wait: the window for the card turned up is open.",
        )),
        (Command::Turn, None) => {
            let card = deal.piles[seat][0];
            let opens = Gesture::for_card(card).is_some();
            let closes = at.saturating_add(u64::from(state.options.window_ms));
            let (opened_at_ms, closes_at_ms) = if opens { (Some(at), Some(closes)) } else { (None, None) };
            Ok(settle(state, deal, vec![Event::CardTurned { seat, card, at_ms: at, opened_at_ms, closes_at_ms }]))
        }
        (Command::React { .. }, None) => Err(RuleViolation::new(
            rule::REACT_NOTHING,
            "Inget kort från tia till ess ligger överst i mitten.",
            "No card from ten to ace shows in the middle.",
        )),
        (Command::React { gesture }, Some(w)) => {
            let right = deal.asked() == Some(*gesture);
            let after_ms = at.saturating_sub(w.opened_at_ms);
            let mut events = vec![Event::Reacted { seat, gesture: *gesture, right, at_ms: at, after_ms }];
            let mut after = w.clone();
            if right {
                after.react(seat, at);
            }
            if let Some(last) = after.last() {
                let mut work = deal.clone();
                evolve_deal(&mut work, &events[0]);
                events.push(taken(&work, last, Why::Last, at));
            }
            Ok(settle(state, deal, events))
        }
    }
}

/// The window's time has run out at `now`: the late seat nearest the turner (clockwise from him,
/// he first) takes the middle pile.
fn time_passes(state: &State, deal: &Deal, now: u64) -> Result<Vec<Event>, RuleViolation> {
    let Some(w) = deal.window.as_ref().filter(|w| w.timed_out(now)) else {
        return Err(RuleViolation::wrong_phase("inget fönster har stängts", "no window has closed"));
    };
    let late = w.late_at(now);
    let order = Seating::new(state.players).order_from(deal.turner);
    let loser = *order.iter().find(|s| late.contains(s)).expect("a seat is late");
    Ok(settle(state, deal, vec![taken(deal, loser, Why::Late, now)]))
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve_deal(deal: &mut Deal, event: &Event) {
    match event {
        Event::CardTurned { seat, card, opened_at_ms, closes_at_ms, .. } => {
            deal.piles[*seat].remove(0);
            deal.known.left(*seat, *card);
            deal.centre.push(*card);
            deal.turns += 1;
            match (opened_at_ms, closes_at_ms) {
                (Some(open), Some(close)) => {
                    let seats = 0..deal.piles.len();
                    deal.window = Some(Window::open(*open, close.saturating_sub(*open), seats));
                    deal.wrong = vec![0; deal.piles.len()];
                }
                _ => deal.turner = Seating::new(deal.piles.len()).next(*seat),
            }
        }
        Event::Reacted { seat, right, at_ms, .. } => {
            if let Some(w) = deal.window.as_mut() {
                if *right {
                    w.react(*seat, *at_ms);
                } else {
                    deal.wrong[*seat] += 1;
                }
            }
        }
        Event::PileTaken { seat, cards, .. } => {
            deal.centre.clear();
            deal.piles[*seat].extend(cards);
            deal.known.shown_to_all(*seat, cards);
            deal.taken[*seat] += 1;
            deal.window = None;
            deal.turner = *seat;
        }
        Event::DealScored { .. } => deal.over = true,
        Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
    }
}

fn event_time(event: &Event) -> Option<u64> {
    match event {
        Event::CardTurned { at_ms, .. } | Event::Reacted { at_ms, .. } | Event::PileTaken { at_ms, .. } => Some(*at_ms),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// The end: the player rid of his pile wins, or at the cap the fewest cards (shared on a tie).
/// The winners score 1 each.
fn score_deal(state: &State, deal: &Deal, ending: Ending) -> Vec<Event> {
    let cards = deal.sizes();
    let fewest = *cards.iter().min().expect("seats");
    let winners: Vec<Seat> = (0..state.players).filter(|&s| cards[s] == fewest).collect();
    let terms: Vec<ScoreTerm> = winners
        .iter()
        .map(|&s| match ending {
            Ending::OutOfCards => ScoreTerm::new(
                s,
                1,
                rule::END_OUT,
                format!("Plats {s} blev först av med alla sina kort."),
                format!("Seat {s} was the first rid of every card."),
            ),
            Ending::TurnLimit => ScoreTerm::new(
                s,
                1,
                rule::END_LIMIT,
                format!("Plats {s} har färst kort, {fewest}, vid husets gräns."),
                format!("Seat {s} holds the fewest cards, {fewest}, at the house's limit."),
            ),
        })
        .collect();
    let points: Vec<i64> = (0..state.players).map(|s| i64::from(winners.contains(&s))).collect();
    let scores: Vec<i64> = state.deals.scores.iter().zip(&points).map(|(a, b)| a + b).collect();
    let who = seat::seats_text(&winners);
    let explanation = match ending {
        Ending::OutOfCards => Text::new(
            format!("Plats {who} blev först av med alla sina kort och vinner."),
            format!("Seat {who} was the first rid of every card and wins."),
        ),
        Ending::TurnLimit => Text::new(
            format!(
                "Husets gräns på {} vända kort är nådd; plats {who} har färst kort, {fewest}, och vinner.",
                deal.turns
            ),
            format!(
                "The house's limit of {} cards turned is reached; seat {who} holds the fewest cards, {fewest}, and wins.",
                deal.turns
            ),
        ),
    };
    vec![
        Event::DealScored {
            deal_number: deal.number,
            ending,
            cards,
            piles_taken: deal.taken.clone(),
            turns: deal.turns,
            terms,
            points,
            scores: scores.clone(),
        },
        Event::MatchEnded { winners, scores, explanation },
    ]
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the size of each face-down pile and the cards under it that
/// everyone saw taken up, the middle pile, the window. A deal's record shows every pile at every
/// step, and the pack once the deal is over.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = HejKnektTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, scores (1 for the winner), who is to act, the outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    /// The options the match is played with.
    pub options: Options,
    /// The latest time recorded, in milliseconds since the Unix epoch.
    pub clock_ms: u64,
    /// The deal's forehand: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// Who turns next, or who turned the card the window is open for: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turner: Option<Seat>,
    /// Cards in each seat's face-down pile: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile_sizes: Option<Vec<usize>>,
    /// By seat, the cards at the bottom of its pile that everyone saw taken up from the middle,
    /// in their order (the first to come up first): absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub known_under: Option<Vec<Vec<Card>>>,
    /// The middle pile, bottom card first, the card showing last: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile: Option<Vec<Card>>,
    /// The reaction window open now: when it opened and closes, who has reacted and who not.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub window: Option<Window>,
    /// By seat, wrong gestures made in the window open now.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub wrong_gestures: Option<Vec<u32>>,
    /// Cards turned so far: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turns: Option<u32>,
    /// Times each seat took the middle pile: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub piles_taken: Option<Vec<u32>>,
    /// Every face-down pile, top card first: only in a deal's record.
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
    let record = deal.filter(|_| viewer == Viewer::Record);
    let known = |d: &Deal| (0..state.players).map(|s| d.known.public_in(s)).collect();
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        clock_ms: state.clock.0,
        forehand: deal.map(|d| d.forehand),
        turner: deal.map(|d| d.turner),
        pile_sizes: deal.map(Deal::sizes),
        known_under: deal.map(known),
        pile: deal.map(|d| d.centre.clone()),
        window: deal.and_then(|d| d.window.clone()),
        wrong_gestures: deal.filter(|d| d.window.is_some()).map(|d| d.wrong.clone()),
        turns: deal.map(|d| d.turns),
        piles_taken: deal.map(|d| d.taken.clone()),
        piles: record.map(|d| d.piles.clone()),
        deck: record.filter(|d| d.over).map(|d| d.deck.clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// A seed for one seat's `attempt`-th reaction to the window opened at `opened`: the same plan
/// however many other events come between.
fn reaction_seed(seed: u64, opened: u64, attempt: u32) -> u64 {
    seed ^ opened ^ u64::from(attempt).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The window `seat` still has to react in.
fn waiting_in(state: &State, seat: Seat) -> Option<(&Deal, &Window)> {
    let deal = state.deals.live()?;
    let w = deal.window.as_ref().filter(|w| w.is_waiting_for(seat))?;
    Some((deal, w))
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for HejKnekt {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "hej-knekt";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/hej-knekt.txt");
    const CLOCKED: bool = true;

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![Options::default(), Options { window_ms: 1_000, turn_limit: 30 }]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1_000..=30_000).contains(&options.window_ms) {
            return Err(SetupError(format!("window_ms must be 1000 to 30000, not {}", options.window_ms)));
        }
        if !(10..=100_000).contains(&options.turn_limit) {
            return Err(SetupError(format!("turn_limit must be 10 to 100000, not {}", options.turn_limit)));
        }
        Ok(State { options, players, clock: Clock::default(), deals: Deals::new(players) })
    }

    crate::status_of_deals!(|state| pack_for(state.players));

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let table = Seating::new(state.players);
        let dealer = state.deals.next_dealer;
        let piles = deals::deal_singly(&table, dealer, &deck);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: table.next(dealer),
            deck,
            piles,
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        self.decide_at(state, seat, command, None)
    }

    fn decide_at(
        &self,
        state: &State,
        seat: Seat,
        command: &Command,
        at_ms: Option<u64>,
    ) -> Result<Vec<Event>, RuleViolation> {
        decide(state, state.deals.current()?, seat, command, state.clock.at(at_ms))
    }

    fn due_at(&self, state: &State) -> Option<u64> {
        state.deals.live()?.window.as_ref().map(|w| w.closes_at_ms)
    }

    fn time_passes(&self, state: &State, now_ms: u64) -> Result<Vec<Event>, RuleViolation> {
        time_passes(state, state.deals.current()?, state.clock.at(Some(now_ms)))
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        if let Some(t) = event_time(event) {
            state.clock.advance(t);
        }
        match event {
            Event::DealStarted { deal_number, dealer, forehand, deck, piles, options } => {
                state.options = options.clone();
                let players = piles.len();
                state.deals.next_dealer = Seating::new(players).next(*dealer);
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    forehand: *forehand,
                    deck: deck.clone(),
                    piles: piles.clone(),
                    centre: Vec::new(),
                    turner: *forehand,
                    window: None,
                    wrong: vec![0; players],
                    known: Knowledge::of_hands(players),
                    turns: 0,
                    taken: vec![0; players],
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
        match state.deals.acting(seat) {
            Some(d) if d.window.is_some() => Gesture::ALL.map(|gesture| Command::React { gesture }).to_vec(),
            Some(_) => vec![Command::Turn],
            None => Vec::new(),
        }
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        let mut space = vec![Command::Turn];
        space.extend(Gesture::ALL.map(|gesture| Command::React { gesture }));
        space
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    /// While the deal is played the pack and the face-down piles are nobody's: nulls in place.
    /// Cards turned up and taken from the middle are public.
    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if let Event::DealStarted { deal_number, piles, deck, .. } = event {
            if state.deals.in_play(*deal_number, viewer, deal_over) {
                deals::blank(&mut full, "deck", deck);
                deals::blank_piles(&mut full, "piles", piles);
            }
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        (0..state.players).flat_map(|s| deal.known.heap_secrets(s, &deal.piles[s])).collect()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = pack_for(state.players);
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.piles.iter().flatten().copied().collect();
        all.extend(&deal.centre);
        crate::ensure!(is_permutation(&all, &pack), "piles and middle are not the pack");
        let places: Vec<&[Card]> = deal.piles.iter().map(Vec::as_slice).collect();
        deal.known.check(&places)?;
        // The public cards lie at the bottom of each pile, in the order they were taken up.
        for (s, pile) in deal.piles.iter().enumerate() {
            let public = deal.known.public_in(s);
            crate::ensure!(pile.ends_with(&public), "seat {s}'s public cards {public:?} are not its pile's bottom");
        }
        crate::ensure!(deal.turns <= state.options.turn_limit, "{} cards turned past the cap", deal.turns);
        if let Some(w) = &deal.window {
            let top = deal.centre.last().copied();
            crate::ensure!(top.is_some_and(|c| rank_value(c) >= 10), "a window open on {top:?}");
            crate::ensure!(w.waiting.len() + w.reacted.len() == state.players, "the window lost a seat");
        }
        let empty = deal.piles.iter().filter(|p| p.is_empty()).count();
        crate::ensure!(empty <= 1, "{empty} piles are empty");
        crate::ensure!(state.clock.0 >= deal.window.as_ref().map_or(0, |w| w.opened_at_ms), "the clock ran back");
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// The random bot: any gesture, wrong ones too, drawn afresh for each attempt in a window.
    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        if let Some((deal, w)) = waiting_in(state, seat) {
            let mut rng = Rng::new(reaction_seed(seed, w.opened_at_ms, deal.wrong[seat]));
            return Some(Command::React { gesture: Gesture::ALL[rng.below(Gesture::ALL.len())] });
        }
        state.deals.acting(seat).filter(|d| d.window.is_none()).map(|_| Command::Turn)
    }

    /// The right gesture, or the turn.
    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        match deal.asked() {
            Some(gesture) => Some(Command::React { gesture }),
            None => Some(Command::Turn),
        }
    }

    /// Nothing to weigh: the strong bot is the basic one, quicker ([`reaction::bot_delay_ms`]).
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        self.basic_move(state, seat, &mut Rng::new(0)).into_iter().collect()
    }

    /// A reaction comes when the window opened plus a delay drawn for this seat, window and
    /// attempt (after a wrong gesture the next comes one delay later); a turn comes at once.
    fn bot_reaction_at(&self, state: &State, seat: Seat, level: Level, seed: u64) -> Option<u64> {
        let (deal, w) = waiting_in(state, seat)?;
        let delays =
            (0..=deal.wrong[seat]).map(|k| reaction::bot_delay_ms(level, reaction_seed(seed, w.opened_at_ms, k)));
        Some(w.opened_at_ms + delays.sum::<u64>())
    }

    /// Cards in one's pile against the others' mean, fewer being better.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let Some(deal) = &state.deals.deal else { return 0.0 };
        bots::lead_over_mean(state.players, |s| -(deal.piles[s].len() as f64), seat)
    }
}

#[cfg(test)]
mod tests;
