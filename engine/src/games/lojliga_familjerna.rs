//! Löjliga familjerna (Happy Families): the whole pack dealt out one card at a time, and each
//! player collects quartets, the four cards of a rank, by asking the others for them. The one
//! whose turn it is asks any other player still holding cards for a rank he holds himself; the
//! asked hands over every card of it, and the asker goes on (anyone, any rank) for as long as
//! the asked had the rank; else the asked player takes the turn. A quartet is laid as soon as a
//! hand holds it. One deal: when all thirteen are laid, the most quartets win.
//!
//! Asking, handing over and laying are [`crate::asking`]'s; the game adds who asks and the end.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::asking::{self, AskRules, Asking, AskingView};
use crate::bots;
use crate::cards::{decks, rank_value, sort_hand, take_card, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{Seat, Table as Seating};

#[derive(Default)]
pub struct LojligaFamiljerna;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 5;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const OWN_RANK: &str = "lojliga-familjerna.ask.own-rank";
    pub const TARGET: &str = "lojliga-familjerna.ask.target";
    pub const QUARTETS: &str = "lojliga-familjerna.end.quartets";
    pub const STALL: &str = "lojliga-familjerna.house.stall";
}

const ASK: AskRules = AskRules { own_rank: rule::OWN_RANK, target: rule::TARGET };

// ---------------------------------------------------------------------------------------------
// Options

/// The game has no variants.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = LojligaFamiljernaOptions))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal`, `asking`, `deal-over` (for an instant, before the
/// score) and `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = LojligaFamiljernaPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Asking,
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
    forehand: Seat,
    deck: Vec<Card>,
    asking: Asking,
    /// The seat whose turn it is to ask.
    turn: Seat,
    /// An ask not yet answered: asker, asked, rank.
    pending: Option<(Seat, Seat, u8)>,
    stalled: bool,
    scored: bool,
}

impl Deal {
    fn over(&self) -> bool {
        self.asking.laid() == 13 || self.stalled
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.over() {
            Vec::new()
        } else {
            vec![self.turn]
        }
    }

    fn is_live(&self) -> bool {
        !self.over()
    }

    fn phase(&self) -> Phase {
        if self.over() {
            Phase::DealOver
        } else {
            Phase::Asking
        }
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

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = LojligaFamiljernaCommand))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Ask seat `target` for every card of `rank` (2 to 14, the ace 14), a rank you hold.
    Ask {
        target: Seat,
        #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 14))]
        #[serde(deserialize_with = "crate::schema::within::<_, _, 2, 14>")]
        rank: u8,
    },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = LojligaFamiljernaEvent))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything the deal starts from.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// By seat, the hand.
        hands: Vec<Vec<Card>>,
        options: Options,
    },
    Asked {
        seat: Seat,
        target: Seat,
        rank: u8,
    },
    /// The asked seat had the rank: every card of it, face up, to the asker, who asks again.
    HandedOver {
        from: Seat,
        to: Seat,
        cards: Vec<Card>,
    },
    /// The asked seat had none: the turn is its own now.
    Lacked {
        seat: Seat,
        rank: u8,
    },
    /// Four of a rank in one hand, laid at once and out of play.
    QuartetLaid {
        seat: Seat,
        rank: u8,
        cards: Vec<Card>,
    },
    /// The seat to ask holds no cards: the turn goes on to the next seat holding some (house
    /// rule).
    TurnPassed {
        from: Seat,
        to: Seat,
    },
    /// Too many asks in a row were answered "no" (house rule): the deal ends as it stands.
    AskingStopped {
        asks: u32,
    },
    DealScored {
        deal_number: u32,
        /// By seat, the quartets laid.
        quartets: Vec<i64>,
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
    let seating = Seating::new(state.players);
    let dealer = state.deals.next_dealer;
    let mut hands = deals::deal_singly(&seating, dealer, &deck);
    hands.iter_mut().for_each(|h| sort_hand(h));
    Event::DealStarted {
        deal_number: state.deals.number + 1,
        dealer,
        forehand: seating.forehand(dealer),
        hands,
        deck,
        options: state.options.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let Command::Ask { target, rank } = *command;
    deal.asking.check_ask(seat, target, rank, ASK)?;
    Ok(run(state, vec![Event::Asked { seat, target, rank }]))
}

fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

/// The automatic steps: the answer to an ask, quartets laid (from the seat to ask round the
/// table), the turn passed over a seat without cards, a stalled deal's end, the score and the
/// match's end.
fn next_step(state: &State) -> Option<Event> {
    let deal = state.deals.deal.as_ref().filter(|_| state.deals.outcome.is_none())?;
    if let Some((asker, target, rank)) = deal.pending {
        let cards = deal.asking.of_rank(target, rank);
        return Some(match cards.is_empty() {
            true => Event::Lacked { seat: target, rank },
            false => Event::HandedOver { from: target, to: asker, cards },
        });
    }
    if let Some((seat, rank)) = deal.asking.quartet_from(deal.turn) {
        return Some(Event::QuartetLaid { seat, rank, cards: deal.asking.of_rank(seat, rank) });
    }
    if deal.over() {
        return match deal.scored {
            false => Some(score(state, deal)),
            true => Some(match_end(state)),
        };
    }
    if deal.asking.stalled() {
        return Some(Event::AskingStopped { asks: deal.asking.idle });
    }
    if deal.asking.hands[deal.turn].is_empty() {
        let n = state.players;
        let to = (1..n).map(|i| (deal.turn + i) % n).find(|&s| !deal.asking.hands[s].is_empty())?;
        return Some(Event::TurnPassed { from: deal.turn, to });
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted { deal_number, dealer, forehand, deck, hands, options } => {
            state.options = options.clone();
            state.players = hands.len();
            let n = hands.len();
            state.deals.next_dealer = (dealer + 1) % n;
            let deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                forehand: *forehand,
                deck: deck.clone(),
                asking: Asking::new(hands.clone()),
                turn: *forehand,
                pending: None,
                stalled: false,
                scored: false,
            };
            state.deals.started(*deal_number, &vec![0; n], deal);
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
                Event::Asked { seat, target, rank } => {
                    deal.asking.asked(*seat, *rank);
                    deal.pending = Some((*seat, *target, *rank));
                }
                Event::HandedOver { from, to, cards } => {
                    deal.asking.hand_over(*from, *to, cards);
                    deal.pending = None;
                }
                Event::Lacked { seat, rank } => {
                    deal.asking.lacked(*seat, *rank);
                    deal.pending = None;
                    deal.turn = *seat;
                }
                Event::QuartetLaid { seat, rank, .. } => deal.asking.lay(*seat, *rank),
                Event::TurnPassed { to, .. } => deal.turn = *to,
                Event::AskingStopped { .. } => deal.stalled = true,
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// A point a quartet.
fn score(state: &State, deal: &Deal) -> Event {
    let quartets = deal.asking.counts();
    let terms: Vec<ScoreTerm> = (0..state.players)
        .filter(|&s| quartets[s] > 0)
        .map(|s| {
            let (rule, q) = (if deal.stalled { rule::STALL } else { rule::QUARTETS }, quartets[s]);
            ScoreTerm::new(
                s,
                q,
                rule,
                format!("Plats {s} lade {q} kvartetter."),
                format!("Seat {s} laid {q} quartets."),
            )
        })
        .collect();
    Event::DealScored { deal_number: deal.number, scores: quartets.clone(), quartets, terms }
}

/// The most quartets win; a tie shares the win.
fn match_end(state: &State) -> Event {
    let scores = state.deals.scores.clone();
    let winners = crate::seat::match_winners(&scores);
    let (who, most) = (crate::seat::seats_text(&winners), scores.iter().copied().max().unwrap_or(0));
    let explanation = Text::new(
        format!("Plats {who} vann med flest kvartetter, {most}."),
        format!("Seat {who} won with the most quartets, {most}."),
    );
    Event::MatchEnded { winners, scores, explanation }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, whose turn it is to ask, the hands' sizes, the
/// cards handed over (public while held), the quartets laid, the viewer's own hand; a deal's
/// record shows every hand at every step.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = LojligaFamiljernaTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number, dealer, scores (quartets), who is to act, the outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seat to ask: absent before the deal and once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turn: Option<Seat>,
    #[serde(flatten)]
    pub asking: AskingView,
    /// The pack as it was dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let me = viewer.seat_at(state.players);
    let deal = state.deals.deal.as_ref();
    let record = viewer == Viewer::Record;
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        forehand: deal.map(|d| d.forehand),
        turn: deal.filter(|d| !d.over()).map(|d| d.turn),
        asking: Asking::view(deal.map(|d| &d.asking), me, record),
        deck: deal.filter(|d| record && d.over()).map(|d| d.deck.clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

fn ask((target, rank): (Seat, u8)) -> Command {
    Command::Ask { target, rank }
}

/// The deal as `seat` knows it: its own hand, the cards handed over, the quartets; the other
/// hands' unseen cards dealt afresh by size, no seat given a rank the table knows it lacks.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let a = &deal.asking;
    let others: Vec<Seat> = (0..state.players).filter(|&s| s != seat).collect();
    let mut pool = Vec::new();
    let mut sizes = Vec::new();
    for &s in &others {
        let mut rest = a.hands[s].clone();
        a.knowledge.public_in(s).iter().for_each(|&c| {
            take_card(&mut rest, c);
        });
        sizes.push(rest.len());
        pool.extend(rest);
    }
    let dealt = bots::redeal_where(&pool, &sizes, |pile, c| !a.lacks[others[pile]].contains(&rank_value(c)), rng);
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    for (&s, cards) in others.iter().zip(dealt) {
        let mut hand = w.asking.knowledge.public_in(s);
        hand.extend(cards);
        sort_hand(&mut hand);
        w.asking.hands[s] = hand;
    }
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for LojligaFamiljerna {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "lojliga-familjerna";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/lojliga-familjerna.txt");

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
        deal.asking.asks(seat).into_iter().map(ask).collect()
    }

    /// Every seat for every rank, the asker itself included.
    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        (0..state.players).flat_map(|target| (2..=14).map(move |rank| Command::Ask { target, rank })).collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
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
        state.deals.live().map(|d| d.asking.secrets()).unwrap_or_default()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all = deal.asking.hands.concat();
        all.extend(deal.asking.laid_cards(&pack));
        crate::ensure!(crate::cards::is_permutation(&all, &pack), "hands and quartets are not the pack: {all:?}");
        deal.asking.check()
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<Command> {
        asking::basic_ask(&state.deals.acting(seat)?.asking, seat, rng).map(ask)
    }

    /// The ask a player with a memory makes (`asking::remembering_ask`): its one candidate.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        asking::remembering_ask(&deal.asking, seat).map(ask).into_iter().collect()
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let Some(deal) = &state.deals.deal else { return 0.0 };
        let counts = deal.asking.counts();
        bots::lead_over_mean(state.players, |s| counts[s] as f64, seat)
    }
}

#[cfg(test)]
mod tests;
