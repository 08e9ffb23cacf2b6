//! Snipp snapp snorum: the whole pack dealt; a player leads every card of a rank he holds, and
//! each player in turn must lay all his cards of that rank or stand over; the second card of
//! the rank is "snipp", the third "snapp", the fourth "snorum", whose player puts the four aside
//! and leads anew. The first player rid of every card wins. The Jig variant follows suit with one
//! higher card a turn instead (round from the ace to any number card), and a sequence ends at
//! its fourth card or a round in which nobody could go on.
//!
//! Only real choices are asked for: a lead (unless the hand is all one rank, or one card in Jig)
//! and, in Jig, which of several higher cards to lay. Everything else (the forced plays, standing
//! over, the calls, turning the cards away) follows as automatic events of the decision.

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, is_permutation, rank_value, sorted, take_card, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{Seat, Table as Seating};

#[derive(Default)]
pub struct SnippSnappSnorum;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 8;
/// The cards of a sequence: the fourth closes it.
pub const SEQUENCE: usize = 4;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const LEAD: &str = "snipp-snapp-snorum.play.lead";
    pub const ALL_OF_RANK: &str = "snipp-snapp-snorum.play.all-of-rank";
    pub const FIRST_OUT: &str = "snipp-snapp-snorum.end.first-out";
    pub const JIG_SUIT: &str = "snipp-snapp-snorum.jig.suit";
    pub const JIG_ACE: &str = "snipp-snapp-snorum.jig.ace";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Jig: follow suit with one higher card a turn instead of laying every card of the rank.
    pub jig: bool,
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal` before the deal, `leading` while a player is to start
/// a sequence, `following` while a Jig player chooses which higher card to lay, `finished` once
/// somebody is out (the match is one deal).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Leading,
    Following,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// What is said as a card is laid: the second, third and fourth card of a sequence.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Call {
    Snipp,
    Snapp,
    Snorum,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    jig: bool,
    dealer: Seat,
    deck: Vec<Card>,
    hands: Vec<Vec<Card>>,
    /// The sequence on the table, in the order laid.
    sequence: Vec<Card>,
    /// The cards put aside, sequence after sequence.
    set_aside: Vec<Card>,
    to_play: Seat,
    /// The seat that laid the sequence's latest card.
    last: Seat,
    /// Times each seat stood over.
    stood: Vec<u32>,
    /// By seat, cards it showed it lacks by standing over (public: the table saw it).
    lacks: Vec<BTreeSet<Card>>,
    winner: Option<Seat>,
}

impl Deal {
    fn leading(&self) -> bool {
        self.sequence.is_empty()
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.winner.is_some() {
            Vec::new()
        } else {
            vec![self.to_play]
        }
    }

    fn is_live(&self) -> bool {
        self.winner.is_none()
    }

    fn phase(&self) -> Phase {
        match (self.winner, self.leading()) {
            (Some(_), _) => Phase::DealOver,
            (None, true) => Phase::Leading,
            (None, false) => Phase::Following,
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
    /// Start a sequence with this card (and, but in Jig, every other card of its rank held).
    Lead { card: Card },
    /// Jig: lay this one of several higher cards of the suit.
    Lay { card: Card },
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
    /// Cards laid on the sequence, in order, with what was said for them.
    Laid {
        seat: Seat,
        cards: Vec<Card>,
        calls: Vec<Call>,
    },
    /// A seat had nothing to lay (automatic).
    StoodOver {
        seat: Seat,
    },
    /// The sequence is put aside; `leader` starts the next.
    SequenceClosed {
        leader: Seat,
        cards: Vec<Card>,
    },
    DealScored {
        deal_number: u32,
        /// The first seat out.
        winner: Seat,
        /// Cards each seat still held.
        cards_left: Vec<usize>,
        /// Times each seat stood over.
        stood_over: Vec<u32>,
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
// The sequence

/// A rank's place in Jig's order: ace high.
fn height(card: Card) -> u8 {
    rank_value(card)
}

/// The cards of `hand` that may go on `top` in Jig: higher in its suit, or after an ace any
/// number card of the suit.
fn jig_followers(hand: &[Card], top: Card) -> Vec<Card> {
    let suit = top.suit();
    hand.iter()
        .copied()
        .filter(|c| c.suit() == suit && if height(top) == 14 { height(*c) <= 10 } else { height(*c) > height(top) })
        .collect()
}

/// What `seat` must or may lay now on the open sequence: every card of the rank (Snipp), or
/// the cards that go on the top card (Jig).
fn followers(jig: bool, deal: &Deal, seat: Seat) -> Vec<Card> {
    let Some(&top) = deal.sequence.last() else { return Vec::new() };
    if jig {
        jig_followers(&deal.hands[seat], top)
    } else {
        deal.hands[seat].iter().copied().filter(|c| c.rank() == top.rank()).collect()
    }
}

/// The leads `seat` may choose between, one card each (in Snipp a card stands for its rank).
fn leads(jig: bool, hand: &[Card]) -> Vec<Card> {
    let mut out: Vec<Card> = hand.to_vec();
    if !jig {
        out.sort();
        out.dedup_by_key(|c| c.rank());
    }
    out
}

/// The cards a lead of `card` lays: all of its rank held (Snipp), or the card alone (Jig).
fn lead_cards(jig: bool, hand: &[Card], card: Card) -> Vec<Card> {
    if jig {
        vec![card]
    } else {
        let mut cards = vec![card];
        cards.extend(hand.iter().filter(|c| c.rank() == card.rank() && **c != card));
        cards
    }
}

fn calls_for(before: usize, laid: usize) -> Vec<Call> {
    (before + 1..=before + laid)
        .filter_map(|n| match n {
            2 => Some(Call::Snipp),
            3 => Some(Call::Snapp),
            4 => Some(Call::Snorum),
            _ => None,
        })
        .collect()
}

/// Lays `cards` for `seat` on the working copy and runs every automatic step after it until a
/// seat has a choice or somebody is out.
fn lay_and_settle(state: &State, deal: &mut Deal, seat: Seat, cards: Vec<Card>, events: &mut Vec<Event>) {
    let jig = state.options.jig;
    let table = &state.table;
    let mut emit = |deal: &mut Deal, e: Event| {
        evolve_deal(deal, table, &e);
        events.push(e);
    };
    let calls = calls_for(deal.sequence.len(), cards.len());
    emit(deal, Event::Laid { seat, cards, calls });
    for _ in 0..10_000 {
        if let Some(out) = (0..deal.hands.len()).find(|&s| deal.hands[s].is_empty()) {
            let scored = score_deal(state, deal, out);
            scored.into_iter().for_each(|e| emit(deal, e));
            return;
        }
        if deal.sequence.len() == SEQUENCE {
            let e = Event::SequenceClosed { leader: deal.last, cards: deal.sequence.clone() };
            emit(deal, e);
        }
        let seat = deal.to_play;
        if deal.leading() {
            match leads(jig, &deal.hands[seat])[..] {
                [only] => {
                    let cards = lead_cards(jig, &deal.hands[seat], only);
                    let calls = calls_for(0, cards.len());
                    emit(deal, Event::Laid { seat, cards, calls });
                }
                _ => return,
            }
            continue;
        }
        if seat == deal.last {
            // A whole round without a card laid (Jig): the last to lay turns the cards away.
            let e = Event::SequenceClosed { leader: seat, cards: deal.sequence.clone() };
            emit(deal, e);
            continue;
        }
        let can = followers(jig, deal, seat);
        match can.len() {
            0 => emit(deal, Event::StoodOver { seat }),
            1 => {
                let calls = calls_for(deal.sequence.len(), 1);
                emit(deal, Event::Laid { seat, cards: can, calls });
            }
            _ if !jig => {
                let calls = calls_for(deal.sequence.len(), can.len());
                emit(deal, Event::Laid { seat, cards: can, calls });
            }
            _ => return,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, deal: &Deal, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let jig = state.options.jig;
    let (Command::Lead { card } | Command::Lay { card }) = *command;
    if !deal.hands[seat].contains(&card) {
        return Err(RuleViolation::card_not_held(card));
    }
    let cards = match command {
        Command::Lead { .. } if deal.leading() => lead_cards(jig, &deal.hands[seat], card),
        Command::Lead { .. } => {
            return Err(RuleViolation::new(
                rule::LEAD,
                "En följd pågår; man spelar ut först när den är slut.",
                "A sequence is under way; a new lead comes only once it is over.",
            ))
        }
        Command::Lay { .. } if deal.leading() || !jig => {
            return Err(RuleViolation::new(
                if jig { rule::LEAD } else { rule::ALL_OF_RANK },
                "Nu spelar du ut ett nytt kort.",
                "Now you lead a new card.",
            ))
        }
        Command::Lay { .. } => {
            let top = *deal.sequence.last().expect("a sequence is open");
            if !jig_followers(&[card], top).contains(&card) {
                let (rule, sv, en) = if height(top) == 14 {
                    (
                        rule::JIG_ACE,
                        "efter ett ess ett nummerkort, två till tio,",
                        "after an ace a number card, two to ten,",
                    )
                } else {
                    (rule::JIG_SUIT, "ett högre kort", "a higher card")
                };
                return Err(RuleViolation::new(
                    rule,
                    format!("På {top} ska du lägga {sv} i samma färg."),
                    format!("On {top} you must lay {en} of the same suit."),
                ));
            }
            vec![card]
        }
    };
    let mut work = deal.clone();
    let mut events = Vec::new();
    lay_and_settle(state, &mut work, seat, cards, &mut events);
    Ok(events)
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve_deal(deal: &mut Deal, table: &Seating, event: &Event) {
    match event {
        Event::Laid { seat, cards, .. } => {
            for &c in cards {
                take_card(&mut deal.hands[*seat], c);
            }
            deal.sequence.extend(cards);
            deal.last = *seat;
            deal.to_play = table.next(*seat);
        }
        Event::StoodOver { seat } => {
            deal.stood[*seat] += 1;
            if let Some(&top) = deal.sequence.last() {
                let lacked: Vec<Card> = if deal.jig {
                    jig_followers(&decks::standard52(), top)
                } else {
                    decks::standard52().into_iter().filter(|c| c.rank() == top.rank()).collect()
                };
                deal.lacks[*seat].extend(lacked);
            }
            deal.to_play = table.next(*seat);
        }
        Event::SequenceClosed { leader, .. } => {
            deal.set_aside.append(&mut deal.sequence);
            deal.to_play = *leader;
            deal.last = *leader;
        }
        Event::DealScored { winner, .. } => deal.winner = Some(*winner),
        Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

fn score_deal(state: &State, deal: &Deal, winner: Seat) -> Vec<Event> {
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
    let cards_left: Vec<usize> = deal.hands.iter().map(Vec::len).collect();
    let left = cards_left.iter().sum::<usize>();
    vec![
        Event::DealScored {
            deal_number: deal.number,
            winner,
            cards_left,
            stood_over: deal.stood.clone(),
            terms,
            points,
            scores: scores.clone(),
        },
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

/// The table as one viewer sees it: the match, the sequence on the table, the cards put aside,
/// the hands' sizes, and the viewer's own hand. A deal's record shows every hand at every step,
/// and the deck once the deal is over.
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
    /// The sequence on the table, in the order laid (empty when a lead is awaited).
    pub pile: Vec<Card>,
    /// The sequences put aside so far, in the order laid.
    pub set_aside: Vec<Card>,
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
    /// Times each seat has stood over: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub stood_over: Option<Vec<u32>>,
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

/// The unseen cards of a suit that could go on `card` in Jig: the more, the likelier the
/// sequence goes on round the table rather than back to its player.
fn jig_openness(card: Card, unseen: &[Card]) -> usize {
    jig_followers(unseen, card).len()
}

/// The rule of thumb. Snipp snapp snorum: lead the rank held most of (all four keep the lead).
/// Jig: lay, and lead, the card the most unseen cards can follow (a low card), keeping the high
/// ones that end a sequence; among equals the lowest.
fn basic_choice(state: &State, deal: &Deal, seat: Seat) -> Option<Command> {
    let hand = &deal.hands[seat];
    if !state.options.jig {
        let card = leads(false, hand).into_iter().max_by_key(|&c| {
            (hand.iter().filter(|h| h.rank() == c.rank()).count(), std::cmp::Reverse(rank_value(c)))
        })?;
        return Some(Command::Lead { card });
    }
    let unseen: Vec<Card> = decks::standard52()
        .into_iter()
        .filter(|c| !hand.contains(c) && !deal.sequence.contains(c) && !deal.set_aside.contains(c))
        .collect();
    let choices = if deal.leading() { leads(true, hand) } else { followers(true, deal, seat) };
    let card = choices.into_iter().max_by_key(|&c| (jig_openness(c, &unseen), std::cmp::Reverse(rank_value(c))))?;
    Some(if deal.leading() { Command::Lead { card } } else { Command::Lay { card } })
}

fn legal(state: &State, deal: &Deal, seat: Seat) -> Vec<Command> {
    if deal.leading() {
        deal.hands[seat].iter().map(|&card| Command::Lead { card }).collect()
    } else if state.options.jig {
        followers(true, deal, seat).into_iter().map(|card| Command::Lay { card }).collect()
    } else {
        Vec::new()
    }
}

/// The deal as `seat` knows it: its own hand, the sequence and the cards put aside; the other
/// hands dealt afresh from the cards it has not seen, each keeping its size and none of the
/// cards its seat showed it lacked by standing over.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let others: Vec<Seat> = (0..state.players()).filter(|&s| s != seat).collect();
    let pool: Vec<Card> = decks::standard52()
        .into_iter()
        .filter(|c| !deal.hands[seat].contains(c) && !deal.sequence.contains(c) && !deal.set_aside.contains(c))
        .collect();
    let sizes: Vec<usize> = others.iter().map(|&s| deal.hands[s].len()).collect();
    let hands = bots::redeal_where(&pool, &sizes, |p, c| !deal.lacks[others[p]].contains(&c), rng);
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    for (k, hand) in hands.into_iter().enumerate() {
        w.hands[others[k]] = sorted(hand);
    }
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for SnippSnappSnorum {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "snipp-snapp-snorum";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/snipp-snapp-snorum.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![Options::default(), Options { jig: true }]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        Ok(State { options, table: Seating::new(players), deals: Deals::new(players) })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let forehand = state.table.next(dealer);
        let hands: Vec<Vec<Card>> = deals::deal_singly(&state.table, dealer, &deck).into_iter().map(sorted).collect();
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand,
            deck,
            hands,
            scores: state.deals.scores.clone(),
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, state.deals.current()?, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, forehand, deck, hands, scores, options } => {
                state.options = options.clone();
                state.table = Seating::new(hands.len());
                state.deals.next_dealer = state.table.next(*dealer);
                let deal = Deal {
                    number: *deal_number,
                    jig: options.jig,
                    dealer: *dealer,
                    deck: deck.clone(),
                    hands: hands.clone(),
                    sequence: Vec::new(),
                    set_aside: Vec::new(),
                    to_play: *forehand,
                    last: *forehand,
                    stood: vec![0; hands.len()],
                    lacks: vec![BTreeSet::new(); hands.len()],
                    winner: None,
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { terms, scores, .. } => {
                state.deals.scored(terms, scores);
                if let Some(deal) = state.deals.deal.as_mut() {
                    evolve_deal(deal, &state.table, event);
                }
            }
            Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
            _ => {
                if let Some(deal) = state.deals.deal.as_mut() {
                    evolve_deal(deal, &state.table, event);
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        state.deals.acting(seat).map(|deal| legal(state, deal, seat)).unwrap_or_default()
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        decks::standard52().into_iter().flat_map(|card| [Command::Lead { card }, Command::Lay { card }]).collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(state.players());
        let deal = state.deals.deal.as_ref();
        let record = deal.filter(|_| viewer == Viewer::Record);
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, state.players(), deal.map(|d| d.dealer)),
            options: state.options.clone(),
            pile: deal.map(|d| d.sequence.clone()).unwrap_or_default(),
            set_aside: deal.map(|d| d.set_aside.clone()).unwrap_or_default(),
            forehand: deal.map(|d| state.table.next(d.dealer)),
            to_play: deal.map(|d| d.winner.unwrap_or(d.to_play)),
            hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
            stood_over: deal.map(|d| d.stood.clone()),
            winner: deal.map(|d| d.winner),
            deck: record.filter(|d| d.winner.is_some()).map(|d| d.deck.clone()),
            hands: record.map(|d| d.hands.clone()),
            hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
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
        deal.hands.iter().enumerate().flat_map(|(s, h)| h.iter().map(move |&c| (c, vec![s]))).collect()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.hands.concat();
        all.extend(&deal.sequence);
        all.extend(&deal.set_aside);
        crate::ensure!(
            is_permutation(&all, &pack),
            "hands, sequence and set-aside hold {} cards, not the pack",
            all.len()
        );
        crate::ensure!(deal.sequence.len() <= SEQUENCE, "a sequence of {} cards", deal.sequence.len());
        if !deal.jig {
            crate::ensure!(deal.set_aside.len() % SEQUENCE == 0, "{} cards put aside", deal.set_aside.len());
            crate::ensure!(
                deal.sequence.iter().all(|c| c.rank() == deal.sequence[0].rank()),
                "a sequence of mixed ranks {:?}",
                deal.sequence
            );
        }
        if let Some(w) = deal.winner {
            crate::ensure!(deal.hands[w].is_empty(), "the winner {w} still holds cards");
            crate::ensure!(state.deals.scores[w] == 1, "the winner's score is {}", state.deals.scores[w]);
        }
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// One lead a rank in Snipp snapp snorum (its cards all go together), every card in Jig.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        match legal(state, deal, seat) {
            moves if deal.leading() && !state.options.jig => leads(false, &deal.hands[seat])
                .into_iter()
                .map(|card| Command::Lead { card })
                .filter(|m| moves.contains(m))
                .collect(),
            moves => moves,
        }
    }

    /// Half the usual search: a Jig deal's playouts are long (every card laid one at a time).
    fn strong_budget(&self) -> bots::Budget {
        bots::Budget { playouts: 240, min_samples: 6, max_samples: 24 }
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic_choice(state, state.deals.acting(seat)?, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// The win (one point) less the others' mean, and a little for each card fewer in hand
    /// than theirs: a lost deal is better lost close.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let left = |s: Seat| state.deals.deal.as_ref().map_or(0, |d| d.hands[s].len()) as f64;
        bots::lead_over_mean(state.players(), |s| state.deals.scores[s] as f64 - 0.02 * left(s), seat)
    }
}

#[cfg(test)]
mod tests;
