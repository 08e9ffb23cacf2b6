//! Fan tan (Sevens): the whole pack dealt, and the cards laid in one open row a suit, each row
//! started by its seven and built down to the ace and up to the king, one card a turn; a player
//! who has no card that fits passes, and the first player rid of every card wins. The free
//! variant (fri fan tan) starts each suit with any card, builds upward only, round from the king
//! to the ace, and lets a player lay a run of several cards at once.
//!
//! The rows are the `layout` toolkit's; this module keeps the turn, the hands and the end. Passes
//! are never asked for: a seat with nothing to lay is passed over by an automatic event, so every
//! seat that is asked has a choice (which card, and in the free variant how long a run).

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, sorted, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::layout::{ace_low, card_at, LayoutRow};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{Seat, Table as Seating};

pub mod play;
pub use play::SEVEN;
use play::{FanTanPlay, LayRules};

#[derive(Default)]
pub struct FanTan;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 7;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const BUILD: &str = "fan-tan.play.build";
    pub const ONE_CARD: &str = "fan-tan.play.one-card";
    pub const PASS: &str = "fan-tan.play.pass";
    pub const FIRST_OUT: &str = "fan-tan.end.first-out";
    pub const FREE_BUILD: &str = "fan-tan.free.build";
    pub const FREE_RUN: &str = "fan-tan.free.run";
}

const LAY_RULES: LayRules =
    LayRules { build: rule::BUILD, one_card: rule::ONE_CARD, free_build: rule::FREE_BUILD, free_run: rule::FREE_RUN };

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Fri fan tan: any first card in a suit, piles built upward round the king, runs at once.
    pub free: bool,
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal` before the deal, `playing` while cards are laid,
/// `finished` once somebody is out (the match is one deal).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Playing,
    DealOver,
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
    deck: Vec<Card>,
    play: FanTanPlay,
    winner: Option<Seat>,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.winner.is_some() {
            Vec::new()
        } else {
            vec![self.play.to_play]
        }
    }

    fn is_live(&self) -> bool {
        self.winner.is_none()
    }

    fn phase(&self) -> Phase {
        if self.winner.is_some() {
            Phase::DealOver
        } else {
            Phase::Playing
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    table: Seating,
    deals: Deals<Deal>,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Lay cards on the layout: one card, or in the free variant a run of cards following one
    /// another upward in a suit, laid in that order.
    Lay { cards: Vec<Card> },
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
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's cards, sorted.
        hands: Vec<Vec<Card>>,
        /// The scores before this deal.
        scores: Vec<i64>,
        options: Options,
    },
    /// Cards laid on the layout, in the order laid.
    Laid {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// A seat had no card that fits and was passed over (automatic).
    Passed {
        seat: Seat,
    },
    DealScored {
        deal_number: u32,
        /// The first seat out.
        winner: Seat,
        /// Cards each seat still held.
        cards_left: Vec<usize>,
        /// The deal's points, term by term.
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

/// The deal's opening events after `DealStarted`: forehand and those after him with nothing to
/// lay pass until a seat can.
fn opening_passes(table: &Seating, hands: &[Vec<Card>], free: bool, forehand: Seat) -> Vec<Event> {
    let layout = crate::layout::Layout::new(play::shape(free));
    FanTanPlay::passes_from(table, hands, &layout, forehand).into_iter().map(|seat| Event::Passed { seat }).collect()
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_lay(state: &State, deal: &Deal, seat: Seat, cards: &[Card]) -> Result<Vec<Event>, RuleViolation> {
    deal.play.check_lay(seat, cards, &LAY_RULES)?;
    let (hands, passing) = deal.play.after_lay(seat, cards);
    let mut events = vec![Event::Laid { seat, cards: cards.to_vec() }];
    if hands[seat].is_empty() {
        events.extend(score_deal(state, deal, seat, &hands));
    } else {
        events.extend(passing.into_iter().map(|seat| Event::Passed { seat }));
    }
    Ok(events)
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve_deal(deal: &mut Deal, event: &Event) {
    match event {
        Event::Laid { seat, cards } => deal.play.lay(*seat, cards),
        Event::Passed { seat } => deal.play.pass(*seat),
        Event::DealScored { winner, .. } => deal.winner = Some(*winner),
        Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

fn score_deal(state: &State, deal: &Deal, winner: Seat, hands: &[Vec<Card>]) -> Vec<Event> {
    let terms = vec![ScoreTerm::new(
        winner,
        1,
        rule::FIRST_OUT,
        format!("Plats {winner} blev först av med sina kort och får en poäng."),
        format!("Seat {winner} was first rid of every card and gets one point."),
    )];
    let mut points = vec![0; state.players()];
    points[winner] = 1;
    let scores: Vec<i64> = state.deals.scores.iter().zip(&points).map(|(a, b)| a + b).collect();
    let cards_left: Vec<usize> = hands.iter().map(Vec::len).collect();
    let left = cards_left.iter().sum::<usize>();
    vec![
        Event::DealScored { deal_number: deal.number, winner, cards_left, terms, points, scores: scores.clone() },
        Event::MatchEnded {
            winners: vec![winner],
            scores,
            explanation: Text::new(
                format!("Plats {winner} blev först av med alla sina kort och vann; de andra hade {left} kort kvar."),
                format!(
                    "Seat {winner} was first rid of every card and won; the others held {left} cards between them."
                ),
            ),
        },
    ]
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, the layout's rows, the hands' sizes, the passes,
/// and the viewer's own hand. A deal's record shows every hand at every step, and the deck once
/// the deal is over.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, scores, who is to act, the outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    /// The options the match is played with.
    pub options: Options,
    /// The rows laid on the table, one a suit, in suit order (empty before the first card).
    pub layout: Vec<LayoutRow>,
    /// The deal's forehand: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seat whose turn it is (the winner once the deal is over): absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// Cards each seat holds: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// Times each seat has passed: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub passes: Option<Vec<u32>>,
    /// The first seat out: null while the deal is played, absent before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Option<Seat>>,
    /// The pack as it was dealt, top card first: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// Every hand: only in a deal's record, at every step of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// The viewer's own hand: only in a seat's view, from the deal on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

// ---------------------------------------------------------------------------------------------
// The bot

fn legal(deal: &Deal, seat: Seat) -> Vec<Command> {
    deal.play.legal(seat).into_iter().map(|cards| Command::Lay { cards }).collect()
}

/// The deal as `seat` knows it (see [`FanTanPlay::resample`]).
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    state.deals.live()?;
    let mut world = state.clone();
    world.deals.live_mut()?.play.resample(seat, rng);
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for FanTan {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "fan-tan";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/fan-tan.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![Options::default(), Options { free: true }]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        Ok(State { options, table: Seating::new(players), deals: Deals::new(players) })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let forehand = state.table.next(dealer);
        let hands: Vec<Vec<Card>> = deals::deal_singly(&state.table, dealer, &deck).into_iter().map(sorted).collect();
        let passes = opening_passes(&state.table, &hands, state.options.free, forehand);
        let mut events = vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand,
            deck,
            hands,
            scores: state.deals.scores.clone(),
            options: state.options.clone(),
        }];
        events.extend(passes);
        Ok(events)
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match command {
            Command::Lay { cards } => decide_lay(state, deal, seat, cards),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, forehand, deck, hands, scores, options } => {
                state.options = options.clone();
                state.table = Seating::new(hands.len());
                state.deals.next_dealer = state.table.next(*dealer);
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    play: FanTanPlay::new(state.table, hands.clone(), *forehand, options.free),
                    winner: None,
                };
                state.deals.started(*deal_number, scores, deal);
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
        state.deals.acting(seat).map(|deal| legal(deal, seat)).unwrap_or_default()
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut moves: Vec<Command> =
            decks::standard52().into_iter().map(|c| Command::Lay { cards: vec![c] }).collect();
        moves.push(Command::Lay { cards: Vec::new() });
        if let Some(deal) = state.deals.live() {
            for &c in &deal.play.hands[seat] {
                let suit = c.suit().expect("a suited card");
                let n = ace_low(c);
                for len in 2..=4u8 {
                    moves.push(Command::Lay { cards: (0..len).map(|k| card_at(suit, (n - 1 + k) % 13 + 1)).collect() });
                }
            }
        }
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(state.players());
        let deal = state.deals.deal.as_ref();
        let record = deal.filter(|_| viewer == Viewer::Record);
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, state.players(), deal.map(|d| d.dealer)),
            options: state.options.clone(),
            layout: deal.map(|d| d.play.layout.view()).unwrap_or_default(),
            forehand: deal.map(|d| state.table.next(d.dealer)),
            to_play: deal.map(|d| d.winner.unwrap_or(d.play.to_play)),
            hand_sizes: deal.map(|d| d.play.hands.iter().map(Vec::len).collect()),
            passes: deal.map(|d| d.play.passes.clone()),
            winner: deal.map(|d| d.winner),
            deck: record.filter(|d| d.winner.is_some()).map(|d| d.deck.clone()),
            hands: record.map(|d| d.play.hands.clone()),
            hand: deal.zip(me).map(|(d, s)| d.play.hands[s].clone()),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if let Event::DealStarted { deal_number, hands, .. } = event {
            if state.deals.in_play(*deal_number, viewer, deal_over) {
                deals::hide_hands(&mut full, hands, viewer);
            }
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        deal.play.hands.iter().enumerate().flat_map(|(s, h)| h.iter().map(move |&c| (c, vec![s]))).collect()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        deal.play.check(&pack)?;
        // Mid-decision a seat may be out before the score, or next with nothing to lay before
        // its pass: the events that follow settle both, so only a scored deal is held to its end.
        if let Some(w) = deal.winner {
            crate::ensure!(deal.play.hands[w].is_empty(), "the winner {w} still holds cards");
            crate::ensure!(state.deals.scores[w] == 1, "the winner's score is {}", state.deals.scores[w]);
        }
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// The legal moves, the rule of thumb's first, so that moves the search cannot tell apart go
    /// its way.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut moves = self.legal_moves(state, seat);
        if let Some(basic) = self.basic_move(state, seat, &mut Rng::new(0)) {
            moves.retain(|m| *m != basic);
            moves.insert(0, basic);
        }
        moves
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        deal.play.basic(seat).map(|cards| Command::Lay { cards })
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// The win (one point) less the others' mean, and a little for each card fewer in hand
    /// than theirs: a lost deal is better lost close.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let left = |s: Seat| state.deals.deal.as_ref().map_or(0, |d| d.play.hands[s].len()) as f64;
        bots::lead_over_mean(state.players(), |s| state.deals.scores[s] as f64 - 0.02 * left(s), seat)
    }
}

#[cfg(test)]
mod tests;
