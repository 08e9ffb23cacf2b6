//! Stopp: six cards each from a pack whose rest stays face down for ever. Forehand leads any
//! card; each player in turn must beat the card on the pile with a higher one of its suit, or
//! say "stopp". Once every other player holding cards has said stop, the last to play turns the
//! pile away and leads again. A player rid of his cards is out of the deal; the deal ends once a
//! last card goes unbeaten, and everyone still holding cards pays a unit a card into the pot.
//! A player whose capital is gone leaves the match; the last one left takes the pot.
//!
//! Only real choices are asked for: a lead from more than one card, and which of several higher
//! cards to beat with. Stops, forced beats, turning the pile away and the payments follow as
//! automatic events of the decision.

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, is_permutation, rank_value, sorted, Card};
use crate::climb::Climb;
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::ledger::{Account, Ledger, Payment};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{Seat, Table as Seating};

#[derive(Default)]
pub struct Stopp;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 6;
/// Cards dealt to each player in the match.
pub const HAND: usize = 6;
/// The largest capital or payment a match may be created with.
pub const MAX_UNITS: i64 = 1_000;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const BEAT: &str = "stopp.play.beat";
    pub const PAY: &str = "stopp.end.pay";
    pub const POT: &str = "stopp.match.pot";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Units each player starts the match with.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    pub capital: i64,
    /// Units paid into the pot for each card left in hand when a deal ends.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    pub per_card: i64,
}

impl Default for Options {
    fn default() -> Options {
        Options { capital: 10, per_card: 1 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal` before a deal, `leading` while a player is to start a
/// new pile, `beating` while a player chooses which higher card to play, `deal-over` between
/// deals, `finished` once one player is left.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Leading,
    Beating,
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
    /// The hands, the pile (plays since it was last turned away), the cards turned away, the
    /// turn and who is out of the deal; seats out of the match are not in its order.
    climb: Climb,
    /// The rest of the pack, face down for ever.
    undealt: Vec<Card>,
    /// By seat, cards it showed it lacks by saying stop (public: the table saw it).
    lacks: Vec<BTreeSet<Card>>,
    over: bool,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.over {
            Vec::new()
        } else {
            vec![self.climb.to_play]
        }
    }

    fn is_live(&self) -> bool {
        !self.over
    }

    fn phase(&self) -> Phase {
        match (self.over, self.climb.last()) {
            (true, _) => Phase::DealOver,
            (false, None) => Phase::Leading,
            (false, Some(_)) => Phase::Beating,
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    table: Seating,
    /// The match; its scores are each seat's units won (negative: paid into the pot).
    deals: Deals<Deal>,
    ledger: Ledger,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }

    /// The units `seat` has left of its capital.
    fn capital(&self, seat: Seat) -> i64 {
        self.options.capital + self.ledger.balance(Account::Seat(seat))
    }

    fn in_match(&self, seat: Seat) -> bool {
        self.capital(seat) > 0
    }

    /// The first seat still in the match from `from` on, clockwise.
    fn first_in(&self, from: Seat) -> Seat {
        self.table.order_from(from).into_iter().find(|&s| self.in_match(s)).unwrap_or(from)
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Lead this card on an empty pile, or beat the pile's top card with it.
    Play { card: Card },
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
        /// The pack as it was shuffled, top card first: never shown, as it holds the undealt rest.
        deck: Vec<Card>,
        /// Every seat's cards, sorted; empty for a seat out of the match.
        hands: Vec<Vec<Card>>,
        /// The units each seat has won (negative: paid in) before this deal.
        scores: Vec<i64>,
        options: Options,
    },
    /// A card led or played on the pile; `went_out` when it was the player's last.
    CardPlayed {
        seat: Seat,
        card: Card,
        went_out: bool,
    },
    /// The seat could not beat the top card and said "stopp" (automatic).
    Stopped {
        seat: Seat,
    },
    /// Everyone else said stop: `seat`, who played last, turns the pile away and leads.
    PileTurnedAway {
        seat: Seat,
        cards: Vec<Card>,
    },
    DealScored {
        deal_number: u32,
        /// Seats rid of their cards, in the order they went out.
        went_out: Vec<Seat>,
        /// Cards each seat still held.
        cards_left: Vec<usize>,
        /// Every movement of units, with why: the cards left paid into the pot, and the pot
        /// taken by the last player left.
        payments: Vec<Payment>,
        /// The payments as the deal's points, term by term.
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
        scores: Vec<i64>,
        /// The pot after the deal.
        pot: i64,
        /// The seats whose capital this deal used up.
        out_of_match: Vec<Seat>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        scores: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Beating

/// The cards of `hand` that beat `top`: higher in its suit, the ace highest.
fn beaters(hand: &[Card], top: Card) -> Vec<Card> {
    hand.iter().copied().filter(|c| c.suit() == top.suit() && rank_value(*c) > rank_value(top)).collect()
}

/// The cards `seat` may play now: any card on an empty pile, else those that beat its top.
fn playable(deal: &Deal, seat: Seat) -> Vec<Card> {
    let hand = &deal.climb.hands[seat];
    match deal.climb.last() {
        None => hand.clone(),
        Some(p) => beaters(hand, p.cards[0]),
    }
}

/// Whether the deal is played out after the latest event: nobody holds cards, or only the
/// player who just played does (nobody is left to beat him), or a last card went unbeaten.
fn played_out(climb: &Climb) -> bool {
    match climb.holders() {
        0 => true,
        1 => climb.last().is_some_and(|p| climb.holds(p.seat)),
        _ => false,
    }
}

/// Plays `card` for `seat` on the working copy and runs every automatic step after it until a
/// seat has a choice or the deal is over.
fn play_and_settle(state: &State, deal: &mut Deal, seat: Seat, card: Card, events: &mut Vec<Event>) {
    let mut emit = |deal: &mut Deal, e: Event| {
        evolve_deal(deal, &e);
        events.push(e);
    };
    let went_out = deal.climb.hands[seat].len() == 1;
    emit(deal, Event::CardPlayed { seat, card, went_out });
    for _ in 0..10_000 {
        if played_out(&deal.climb) {
            break;
        }
        let seat = deal.climb.to_play;
        let can = playable(deal, seat);
        match (can.len(), deal.climb.last()) {
            (0, Some(last)) => {
                let (clears, last_seat) = (deal.climb.pass_clears(), last.seat);
                emit(deal, Event::Stopped { seat });
                if !clears {
                    continue;
                }
                if !deal.climb.holds(last_seat) {
                    // The last card went unbeaten round the table: the deal is over.
                    break;
                }
                let cards: Vec<Card> = deal.climb.table.iter().flat_map(|p| p.cards.clone()).collect();
                emit(deal, Event::PileTurnedAway { seat: last_seat, cards });
            }
            (1, _) => {
                let went_out = deal.climb.hands[seat].len() == 1;
                emit(deal, Event::CardPlayed { seat, card: can[0], went_out });
            }
            _ => return,
        }
    }
    score_deal(state, deal).into_iter().for_each(|e| emit(deal, e));
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, deal: &Deal, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let Command::Play { card } = *command;
    if !deal.climb.hands[seat].contains(&card) {
        return Err(RuleViolation::card_not_held(card));
    }
    if let Some(top) = deal.climb.last().map(|p| p.cards[0]) {
        if !beaters(&[card], top).contains(&card) {
            return Err(RuleViolation::new(
                rule::BEAT,
                format!("På {top} ska du lägga ett högre kort i samma färg."),
                format!("On {top} you must play a higher card of the same suit."),
            ));
        }
    }
    let mut work = deal.clone();
    let mut events = Vec::new();
    play_and_settle(state, &mut work, seat, card, &mut events);
    Ok(events)
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve_deal(deal: &mut Deal, event: &Event) {
    match event {
        Event::CardPlayed { seat, card, .. } => deal.climb.play(*seat, &[*card]),
        Event::Stopped { seat } => {
            if let Some(top) = deal.climb.last().map(|p| p.cards[0]) {
                deal.lacks[*seat].extend(beaters(&decks::standard52(), top));
            }
            deal.climb.pass(*seat);
        }
        Event::PileTurnedAway { seat, .. } => deal.climb.clear(*seat),
        Event::DealScored { .. } => deal.over = true,
        Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// The deal's payments: a unit (or the agreed amount) a card left, at most what the player has
/// left; then, if only one player is left in the match, the pot to him.
fn score_deal(state: &State, deal: &Deal) -> Vec<Event> {
    let players = state.players();
    let cards_left: Vec<usize> = deal.climb.hands.iter().map(Vec::len).collect();
    let mut payments = Vec::new();
    let mut capital: Vec<i64> = (0..players).map(|s| state.capital(s)).collect();
    for &s in &deal.climb.order {
        let owed = cards_left[s] as i64 * state.options.per_card;
        let amount = owed.min(capital[s]);
        if amount == 0 {
            continue;
        }
        capital[s] -= amount;
        let (sv, en) = match amount < owed {
            true => (
                format!(" men har bara {amount} kvar och är ute ur partiet"),
                format!(" but has only {amount} left and is out of the match"),
            ),
            false => (String::new(), String::new()),
        };
        payments.push(Payment::new(
            Account::Seat(s),
            Account::Pot,
            amount,
            rule::PAY,
            format!("Plats {s} har {} kort kvar och ska betala {owed} till potten{sv}.", cards_left[s]),
            format!("Seat {s} holds {} cards and owes {owed} to the pot{en}.", cards_left[s]),
        ));
    }
    let out_of_match: Vec<Seat> = deal.climb.order.iter().copied().filter(|&s| capital[s] <= 0).collect();
    let left: Vec<Seat> = (0..players).filter(|&s| capital[s] > 0).collect();
    let mut pot = state.ledger.balance(Account::Pot) + payments.iter().map(|p| p.amount).sum::<i64>();
    if let [winner] = left[..] {
        payments.push(Payment::new(
            Account::Pot,
            Account::Seat(winner),
            pot,
            rule::POT,
            format!("Plats {winner} är ensam kvar med kapital och tar hem potten: {pot}."),
            format!("Seat {winner} is the only player left with capital and takes the pot: {pot}."),
        ));
        pot = 0;
    }
    let terms: Vec<ScoreTerm> = payments
        .iter()
        .map(|p| match (p.from, p.to) {
            (Account::Seat(s), _) => {
                ScoreTerm::new(s, -p.amount, &p.rule, p.explanation.sv.clone(), p.explanation.en.clone())
            }
            (_, Account::Seat(s)) => {
                ScoreTerm::new(s, p.amount, &p.rule, p.explanation.sv.clone(), p.explanation.en.clone())
            }
            _ => unreachable!("every payment of Stopp is to or from a seat"),
        })
        .collect();
    let mut points = vec![0; players];
    for t in &terms {
        points[t.to] += t.points;
    }
    let scores: Vec<i64> = state.deals.scores.iter().zip(&points).map(|(a, b)| a + b).collect();
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        went_out: deal.climb.out.clone(),
        cards_left,
        payments,
        terms,
        points,
        scores: scores.clone(),
        pot,
        out_of_match,
    }];
    if let [winner] = left[..] {
        let won = scores[winner];
        events.push(Event::MatchEnded {
            winners: left.clone(),
            scores,
            explanation: Text::new(
                format!("Alla andra har förlorat hela sitt kapital; plats {winner} är ensam kvar och vinner partiet med {won} enheter i plus."),
                format!("Everyone else has lost all their capital; seat {winner} is the only one left and wins the match, {won} units up."),
            ),
        });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match and its money, the pile, the cards turned away,
/// the hands' sizes and the viewer's own hand. A deal's record shows every hand at every step;
/// the pack's undealt rest is never shown to anyone.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, scores (units won, negative: paid in), who is to act,
    /// the outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    /// The options the match is played with.
    pub options: Options,
    /// Units each seat has won (negative: paid into the pot).
    pub balances: Vec<i64>,
    /// Units each seat has left of its capital.
    pub capital: Vec<i64>,
    /// Units in the pot.
    pub pot: i64,
    /// Seats whose capital is gone, out of the match.
    pub out_of_match: Vec<Seat>,
    /// The pile: the cards played since it was last turned away, in order (the top card last).
    pub pile: Vec<Card>,
    /// The cards turned away this deal, pile after pile.
    pub set_aside: Vec<Card>,
    /// The deal's forehand: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seat whose turn it is: absent before the deal and once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// Cards each seat holds: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// Seats rid of their cards this deal, in the order they went out: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub went_out: Option<Vec<Seat>>,
    /// Cards of the pack not dealt, face down for ever: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub undealt: Option<usize>,
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

/// The cards not seen by `seat`: neither in its hand nor on the pile nor turned away.
fn unseen(deal: &Deal, seat: Seat) -> Vec<Card> {
    let seen = deal.climb.seen();
    decks::standard52().into_iter().filter(|c| !deal.climb.hands[seat].contains(c) && !seen.contains(c)).collect()
}

/// The rule of thumb: play the lowest card, leading or beating. The high cards are kept: they
/// win a pile back (and with it the lead), and an ace is the surest last card to go out on.
/// (Leading the card fewest unseen cards can beat, to keep the lead, lost to random play.)
fn basic_choice(deal: &Deal, seat: Seat) -> Option<Command> {
    let card = playable(deal, seat).into_iter().min_by_key(|&c| rank_value(c))?;
    Some(Command::Play { card })
}

/// The deal as `seat` knows it: its own hand, the pile and the cards turned away; the other
/// hands and the undealt rest dealt afresh from the cards it has not seen, each hand keeping
/// its size and none of the cards its seat showed it lacked by saying stop.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let others: Vec<Seat> = deal.climb.order.iter().copied().filter(|&s| s != seat).collect();
    let pool = unseen(deal, seat);
    let mut sizes: Vec<usize> = others.iter().map(|&s| deal.climb.hands[s].len()).collect();
    sizes.push(deal.undealt.len());
    let lacks = |p: usize, c: Card| p == others.len() || !deal.lacks[others[p]].contains(&c);
    let mut piles = bots::redeal_where(&pool, &sizes, lacks, rng);
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    w.undealt = piles.pop().unwrap_or_default();
    for (k, hand) in piles.into_iter().enumerate() {
        w.climb.hands[others[k]] = sorted(hand);
    }
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Stopp {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "stopp";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/stopp.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![Options::default(), Options { capital: 3, per_card: 2 }]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        for (name, value) in [("capital", options.capital), ("per_card", options.per_card)] {
            if !(1..=MAX_UNITS).contains(&value) {
                return Err(SetupError(format!("{name} must be 1 to {MAX_UNITS}, not {value}")));
            }
        }
        Ok(State { options, table: Seating::new(players), deals: Deals::new(players), ledger: Ledger::new() })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.first_in(state.deals.next_dealer);
        let order: Vec<Seat> =
            state.table.order_from(state.table.next(dealer)).into_iter().filter(|&s| state.in_match(s)).collect();
        let mut hands = vec![Vec::new(); state.players()];
        for (i, &card) in deck.iter().take(HAND * order.len()).enumerate() {
            hands[order[i % order.len()]].push(card);
        }
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: order[0],
            deck,
            hands: hands.into_iter().map(sorted).collect(),
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
                // Every unit a seat is down went into the pot, which pays out only at the end.
                state.ledger = Ledger::new();
                for (s, &b) in scores.iter().enumerate().filter(|(_, b)| **b != 0) {
                    let why = || "Saldo från tidigare givar.".to_string();
                    state.ledger.pay(&Payment::new(
                        Account::Pot,
                        Account::Seat(s),
                        b,
                        rule::PAY,
                        why(),
                        "Balance from earlier deals.".into(),
                    ));
                }
                state.deals.next_dealer = state.first_in(state.table.next(*dealer));
                let order: Vec<Seat> =
                    state.table.order_from(*forehand).into_iter().filter(|&s| state.in_match(s)).collect();
                let dealt = HAND * order.len();
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    climb: Climb::new(order, hands.clone()),
                    undealt: deck[dealt..].to_vec(),
                    lacks: vec![BTreeSet::new(); hands.len()],
                    over: false,
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { terms, scores, payments, .. } => {
                state.deals.scored(terms, scores);
                payments.iter().for_each(|p| state.ledger.pay(p));
                if let Some(deal) = state.deals.deal.as_mut() {
                    evolve_deal(deal, event);
                    let dealer = deal.dealer;
                    state.deals.next_dealer = state.first_in(state.table.next(dealer));
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
        playable(deal, seat).into_iter().map(|card| Command::Play { card }).collect()
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        decks::standard52().into_iter().map(|card| Command::Play { card }).collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let players = state.players();
        let me = viewer.seat_at(players);
        let deal = state.deals.deal.as_ref();
        let climb = deal.map(|d| &d.climb);
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, players, deal.map(|d| d.dealer)),
            options: state.options.clone(),
            balances: state.ledger.seats(players),
            capital: (0..players).map(|s| state.capital(s)).collect(),
            pot: state.ledger.balance(Account::Pot),
            out_of_match: (0..players).filter(|&s| !state.in_match(s)).collect(),
            pile: climb.map(|c| c.table.iter().flat_map(|p| p.cards.clone()).collect()).unwrap_or_default(),
            set_aside: climb.map(|c| c.cleared.clone()).unwrap_or_default(),
            forehand: climb.map(|c| c.order[0]),
            to_play: state.deals.live().map(|d| d.climb.to_play),
            hand_sizes: climb.map(|c| c.hands.iter().map(Vec::len).collect()),
            went_out: climb.map(|c| c.out.clone()),
            undealt: deal.map(|d| d.undealt.len()),
            hands: climb.filter(|_| viewer == Viewer::Record).map(|c| c.hands.clone()),
            hand: climb.zip(me).map(|(c, s)| c.hands[s].clone()),
        }
    }

    /// The deck is never shown, as it would give away the undealt rest; the hands are each
    /// owner's while the deal is played.
    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if let Event::DealStarted { deal_number, hands, .. } = event {
            if state.deals.in_play(*deal_number, viewer, deal_over) {
                deals::hide_hands(&mut full, hands, viewer);
            }
            full["deck"] = Value::Null;
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deals.deal else { return Vec::new() };
        let mut secrets: Vec<(Card, Vec<Seat>)> = deal.undealt.iter().map(|&c| (c, Vec::new())).collect();
        if state.deals.live().is_some() {
            let hands = deal.climb.hands.iter().enumerate();
            secrets.extend(hands.flat_map(|(s, h)| h.iter().map(move |&c| (c, vec![s]))));
        }
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        state.ledger.check()?;
        crate::ensure!(
            state.ledger.seats(state.players()) == state.deals.scores,
            "balances {:?} differ from the scores {:?}",
            state.ledger.seats(state.players()),
            state.deals.scores
        );
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all = deal.climb.all_cards();
        all.extend(&deal.undealt);
        crate::ensure!(is_permutation(&all, &pack), "hands, pile, turned-away and undealt cards are not the pack");
        crate::ensure!(
            deal.undealt.len() == 52 - HAND * deal.climb.order.len(),
            "{} cards undealt",
            deal.undealt.len()
        );
        let top = deal.climb.table.windows(2).all(|w| beaters(&w[1].cards, w[0].cards[0]) == w[1].cards);
        crate::ensure!(top, "a pile that does not climb in one suit: {:?}", deal.climb.table);
        for s in 0..state.players() {
            let playing = deal.climb.order.contains(&s);
            crate::ensure!(playing || deal.climb.hands[s].is_empty(), "seat {s} holds cards out of the match");
            crate::ensure!(state.capital(s) >= 0, "seat {s} has {} capital", state.capital(s));
        }
        let left = (0..state.players()).filter(|&s| state.in_match(s)).count();
        crate::ensure!(state.deals.outcome.is_none() || left == 1, "a match won with {left} players left");
        crate::ensure!(left > 1 || state.deals.live().is_none(), "a deal played with {left} player left");
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic_choice(state.deals.acting(seat)?, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// Units won less the others' mean, and a little for each card fewer in hand than theirs:
    /// a deal's cards are what it will cost.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let per_card = state.options.per_card as f64;
        let left = |s: Seat| state.deals.deal.as_ref().filter(|d| !d.over).map_or(0, |d| d.climb.hands[s].len()) as f64;
        bots::lead_over_mean(state.players(), |s| state.deals.scores[s] as f64 - per_card * left(s), seat)
    }
}

#[cfg(test)]
mod tests;
