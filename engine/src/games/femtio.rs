//! Femtio: two to six players, and the cards play themselves.
//!
//! The pack is dealt out evenly (what is left over is set aside) and every player arranges the
//! hand, face down, into a pile in the order it will be played. The players arrange at once,
//! card by card, each seeing only their own pile. Then the tricks are played blind: in turn each
//! player turns up the top card of the pile, and the highest card of the suit led wins. Every
//! trick is a point, and the first to 50 wins the match.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bots;
use crate::cards::{decks, rank_value, sorted, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{seats_text, Seat, Table as Seating};
use crate::trick::{self, Play, PlayView, TrickPlay, WinReason};

#[derive(Default)]
pub struct Femtio;

const PACK: usize = 52;
pub const DEFAULT_TARGET: i64 = 50;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "femtio.deal.players";

    pub const ANY_ORDER: &str = "femtio.arrange.any-order";

    pub const WINNER_LEADS: &str = "femtio.play.winner-leads";

    pub const TRICK_POINT: &str = "femtio.score.trick-point";

    pub const TARGET: &str = "femtio.end.target";
    pub const MOST_POINTS: &str = "femtio.end.most-points";
    pub const LAST_TRICK: &str = "femtio.end.last-trick";

    pub const DEALER: &str = "femtio.house.dealer";
    pub const PLACED_STAYS: &str = "femtio.house.placed-stays";
    pub const LAST_CARD: &str = "femtio.house.last-card";
    pub const PLAY_AFTER: &str = "femtio.house.play-after-arranging";
    pub const NO_TRUMPS: &str = "femtio.house.no-trumps";
    pub const OPTION_TARGET: &str = "femtio.house.target";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The score that ends the match (50, which gives the game its name).
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub target: i64,
}

impl Default for Options {
    fn default() -> Options {
        Options { target: DEFAULT_TARGET }
    }
}

// ---------------------------------------------------------------------------------------------
// State

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    set_aside: Vec<Card>,
    /// Cards dealt to each seat, and so the tricks of the deal.
    dealt: usize,
    /// The cards each seat has still to place on its pile.
    unplaced: Vec<Vec<Card>>,
    /// Each pile as it was arranged, top card first; the play's hands are what is left of them.
    arranged: Vec<Vec<Card>>,
    play: TrickPlay,
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    table: Seating,
    deals: Deals<Deal>,
    /// By seat, how its piles have gone so far in the match, as everyone saw them turned up.
    habits: Vec<PileHabit>,
}

/// How a player tends to lay the pile, read from the cards it turned up (public once turned):
/// of each two cards turned up one after the other, whether the second was no higher.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PileHabit {
    downs: u32,
    ups: u32,
}

/// Of two cards of a pile laid in no order, how often the second is no higher (equal ranks
/// count): 1 − (48/51) / 2.
const NO_ORDER_DOWNS: f64 = 0.529;

/// How likely a player with a habit this strong lays highest card first before the strong bot
/// answers it rather than laying its own pile highest first (see `bot_candidates`).
const ANSWER_HABIT: f64 = 0.4;

impl PileHabit {
    /// How likely the player lays its pile highest card first rather than in no order: a pile
    /// in no order goes down about as often as up, one laid highest first always goes down.
    /// Until a few piles are seen, as if six pairs had been seen laid in no order.
    fn highest_first(self) -> f64 {
        let seen = f64::from(self.downs + self.ups);
        let share = (f64::from(self.downs) + 6.0 * NO_ORDER_DOWNS) / (seen + 6.0);
        ((share - NO_ORDER_DOWNS) / (1.0 - NO_ORDER_DOWNS)).clamp(0.0, 1.0)
    }
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }

    /// How likely `seat` lays its pile highest card first, by what it has shown.
    fn highest_first(&self, seat: Seat) -> f64 {
        self.habits.get(seat).map_or(0.0, |h| h.highest_first())
    }
}

impl Deal {
    fn players(&self) -> usize {
        self.play.table.seats
    }

    fn forehand(&self) -> Seat {
        self.play.table.forehand(self.dealer)
    }

    fn arranging(&self) -> bool {
        self.unplaced.iter().any(|h| !h.is_empty())
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.arranging() {
            (0..self.players()).filter(|&s| !self.unplaced[s].is_empty()).collect()
        } else if self.play.is_over() {
            Vec::new()
        } else {
            vec![self.play.to_play()]
        }
    }

    fn is_live(&self) -> bool {
        !self.play.is_over()
    }

    fn phase(&self) -> Phase {
        if self.arranging() {
            Phase::Arranging
        } else if self.play.is_over() {
            Phase::DealOver
        } else {
            Phase::Playing
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Put this card of one's hand face down on one's pile, under the cards placed before it:
    /// the first card placed is the first turned up.
    PlaceCard { card: Card },
    /// Turn up the top card of one's pile onto the trick: the only move of the play.
    TurnUp,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's hand, sorted by suit and rank.
        hands: Vec<Vec<Card>>,
        /// The cards left over after an even deal, set aside face down.
        set_aside: Vec<Card>,
        /// Scores by seat before this deal.
        scores: Vec<i64>,
        /// The match's options, which this deal is played under.
        options: Options,
    },
    /// Which card it is, only its owner sees while the deal lasts: for everyone else it is
    /// `null` until the deal is over. The card is public once turned up.
    CardPlaced {
        seat: Seat,
        card: Card,
        /// The pile's size with this card.
        pile_size: usize,
    },
    CardTurnedUp {
        seat: Seat,
        card: Card,
        trick_number: usize,
    },
    TrickWon {
        trick_number: usize,
        winner: Seat,
        card: Card,
        reason: WinReason,
        plays: Vec<Play>,
    },
    DealScored {
        deal_number: u32,
        tricks_taken: Vec<u32>,
        /// The deal's score, by seat, term by term: a point a trick.
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
        /// Scores by seat after this deal.
        scores: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        scores: Vec<i64>,
        target: i64,
        /// The rule that named the winner: the target alone, the most points, or the last trick.
        rule: String,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Rules that are pure functions, kept apart so tests can reach them directly

/// The even deal: as many cards each as the pack allows, dealt one at a time from the dealer's
/// left, and the rest (from the bottom of the pack) set aside.
pub fn deal_hands(table: &Seating, dealer: Seat, deck: &[Card]) -> (Vec<Vec<Card>>, Vec<Card>) {
    let each = deck.len() / table.seats;
    let (dealt, rest) = deck.split_at(each * table.seats);
    (deals::deal_singly(table, dealer, dealt), rest.to_vec())
}

/// Who wins the match once a deal is scored, if anyone reached the target: the most points, and
/// among equals the one who took a trick last (`winners_in_order`: the deal's trick winners).
pub fn match_winner(scores: &[i64], target: i64, winners_in_order: &[Seat]) -> Option<(Seat, &'static str)> {
    let reached: Vec<Seat> = (0..scores.len()).filter(|&s| scores[s] >= target).collect();
    let best = reached.iter().map(|&s| scores[s]).max()?;
    let top: Vec<Seat> = reached.iter().copied().filter(|&s| scores[s] == best).collect();
    match (&top[..], reached.len()) {
        ([only], 1) => Some((*only, rule::TARGET)),
        ([only], _) => Some((*only, rule::MOST_POINTS)),
        // Everyone tied at the top was under the target before this deal, so each took a trick.
        _ => winners_in_order.iter().rev().find(|w| top.contains(w)).map(|&w| (w, rule::LAST_TRICK)),
    }
}

fn match_explanation(winner: Seat, scores: &[i64], target: i64, rule: &str) -> Text {
    let best = scores[winner];
    let all = seats_text(&(0..scores.len()).collect::<Vec<_>>());
    let list = scores.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
    let (sv, en) = match rule {
        rule::TARGET => (
            format!("Plats {winner} nådde {best} poäng, minst målet {target}, och vann partiet."),
            format!("Seat {winner} reached {best} points, at least the target of {target}, and won the match."),
        ),
        rule::MOST_POINTS => (
            format!("Flera nådde målet {target} i samma giv; plats {winner} hade flest poäng, {best}, och vann."),
            format!("Several reached the target of {target} in the same deal; seat {winner} had the most, {best}, and won."),
        ),
        _ => (
            format!("Flera nådde målet {target} med lika många poäng, {best}; plats {winner} tog ett stick sist av dem och vann."),
            format!("Several reached the target of {target} with the same {best} points; seat {winner} took a trick last of them and won."),
        ),
    };
    Text::new(format!("{sv} Poäng för platserna {all}: {list}."), format!("{en} Scores of seats {all}: {list}."))
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_place(deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    let hand = &deal.unplaced[seat];
    if hand.is_empty() {
        return Err(RuleViolation::new(
            rule::PLACED_STAYS,
            "Din hög är redan lagd och rörs inte mer; nu vänds korten upp.",
            "Your pile is already laid and is not touched again; the cards are being turned up now.",
        ));
    }
    if !hand.contains(&card) {
        return Err(RuleViolation::new(
            rule::ANY_ORDER,
            format!("Du har inte {card} bland korten du ännu inte lagt i högen."),
            format!("You do not hold {card} among the cards not yet placed on your pile."),
        ));
    }
    let mut size = deal.play.hands[seat].len() + 1;
    let mut events = vec![Event::CardPlaced { seat, card, pile_size: size }];
    // The last card has only one place to go.
    if let [a, b] = hand[..] {
        size += 1;
        events.push(Event::CardPlaced { seat, card: if a == card { b } else { a }, pile_size: size });
    }
    Ok(events)
}

fn decide_turn_up(state: &State, deal: &Deal, seat: Seat) -> Result<Vec<Event>, RuleViolation> {
    if deal.arranging() {
        return Err(RuleViolation::new(
            rule::PLAY_AFTER,
            "Korten vänds upp först när alla har lagt hela sin hög; lägg dina kort först.",
            "Cards are turned up only once everyone has laid the whole pile; place your cards first.",
        ));
    }
    let card = deal.play.hands[seat][0];
    let trick_number = deal.play.number();
    let mut events = vec![Event::CardTurnedUp { seat, card, trick_number }];
    if let Some(won) = deal.play.completed_by(seat, card, &trick::no_trumps) {
        let mut winners: Vec<Seat> = deal.play.tricks.iter().map(|t| t.winner).collect();
        winners.push(won.winner);
        events.push(Event::TrickWon {
            trick_number,
            winner: won.winner,
            card: won.card,
            reason: won.reason,
            plays: won.plays,
        });
        if won.last {
            events.extend(score_deal(state, deal, won.taken, &winners));
        }
    }
    Ok(events)
}

fn score_deal(state: &State, deal: &Deal, tricks_taken: Vec<u32>, winners: &[Seat]) -> Vec<Event> {
    let terms: Vec<ScoreTerm> = (0..deal.players())
        .map(|s| {
            let t = tricks_taken[s];
            ScoreTerm::new(
                s,
                i64::from(t),
                rule::TRICK_POINT,
                format!("Plats {s} tog {t} stick: {t} poäng, ett per stick."),
                format!("Seat {s} took {t} tricks: {t} points, one a trick."),
            )
        })
        .collect();
    let points: Vec<i64> = tricks_taken.iter().map(|&t| i64::from(t)).collect();
    let scores: Vec<i64> = state.deals.scores.iter().zip(&points).map(|(a, b)| a + b).collect();
    let target = state.options.target;
    let mut events =
        vec![Event::DealScored { deal_number: deal.number, tricks_taken, terms, points, scores: scores.clone() }];
    if let Some((winner, rule)) = match_winner(&scores, target, winners) {
        events.push(Event::MatchEnded {
            winners: vec![winner],
            explanation: match_explanation(winner, &scores, target, rule),
            scores,
            target,
            rule: rule.to_string(),
        });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The table view

/// Where the match is: `waiting-for-deal` before the first deal, `arranging` while players still
/// place cards on their piles, `playing` the tricks, `deal-over` once the deal is scored and the
/// next is awaited, `finished` once the match is won.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No deal has been dealt yet.
    WaitingForDeal,
    /// Every player with cards still in hand places them, one by one, on a face-down pile.
    Arranging,
    /// The piles are turned up a card at a time, trick by trick.
    Playing,
    /// The deal is played out and scored; the next deal is awaited.
    DealOver,
    /// Somebody reached the target and the match is won.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// The table as one viewer sees it: the match, and from the first deal on the deal being played
/// (or the last one). A seat sees its own cards in hand and its own pile in order; the others
/// see only how many cards each has placed. A finished deal's record shows every pile as it was
/// arranged and the cards set aside.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, scores, who is to act, how it ended.
    #[serde(flatten)]
    pub deals: MatchView,

    /// The options the match is played with.
    pub options: Options,
    /// The score that ends the match.
    pub target: i64,
    /// The deal's forehand, who turns up the first card: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// Cards dealt to each player, and so tricks in the deal: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub cards_each: Option<usize>,
    /// How many cards were set aside after the deal: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub set_aside_count: Option<usize>,
    /// By seat, how many cards that player has still to place on the pile: absent before the
    /// first deal. The piles' sizes are the play's `hand_sizes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_place: Option<Vec<usize>>,
    /// The viewer's cards not yet placed: only in a seat's view, from the first deal on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
    /// The viewer's own pile, top card (the next turned up) first: only in a seat's view, from
    /// the first deal on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile: Option<Vec<Card>>,
    /// Every pile as it was arranged, top card first: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub arranged: Option<Vec<Vec<Card>>>,
    /// The cards set aside: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub set_aside: Option<Vec<Card>>,
    /// The pack as it was dealt, top card first: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// The card play of the deal (the piles are the hands): absent before the first deal.
    #[serde(flatten)]
    pub play: PlayView,
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Femtio {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "femtio";
    const PLAYERS: RangeInclusive<usize> = 2..=6;
    const RULEBOOK: &'static str = include_str!("rulebooks/femtio.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        [DEFAULT_TARGET, 12, 1].into_iter().map(|target| Options { target }).collect()
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        deals::check_target(options.target)?;
        Ok(State {
            options,
            table: Seating::new(players),
            deals: Deals::new(players),
            habits: vec![PileHabit::default(); players],
        })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let (hands, set_aside) = deal_hands(&state.table, dealer, &deck);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: state.table.forehand(dealer),
            deck,
            hands: hands.into_iter().map(sorted).collect(),
            set_aside,
            scores: state.deals.scores.clone(),
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match *command {
            Command::PlaceCard { card } => decide_place(deal, seat, card),
            Command::TurnUp => decide_turn_up(state, deal, seat),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, deck, hands, set_aside, scores, options, .. } => {
                // The deal carries what it inherits, so it can be replayed on its own.
                state.options = options.clone();
                state.table = Seating::new(hands.len());
                state.deals.next_dealer = state.table.next(*dealer);
                let players = hands.len();
                let dealt = hands.first().map_or(0, Vec::len);
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    set_aside: set_aside.clone(),
                    dealt,
                    unplaced: hands.clone(),
                    arranged: vec![Vec::new(); players],
                    play: TrickPlay::new(state.table, vec![Vec::new(); players], state.table.forehand(*dealer), dealt),
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { terms, scores, .. } => state.deals.scored(terms, scores),
            Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                match event {
                    Event::CardPlaced { seat, card, .. } => {
                        crate::cards::take_card(&mut deal.unplaced[*seat], *card);
                        deal.arranged[*seat].push(*card);
                        deal.play.hands[*seat].push(*card);
                    }
                    Event::CardTurnedUp { seat, card, .. } => {
                        let before = deal.play.played().filter(|(s, _)| s == seat).last().map(|(_, c)| c);
                        // The pile as everyone saw it turned up: how its owner tends to lay.
                        if let (Some(before), Some(habit)) = (before, state.habits.get_mut(*seat)) {
                            if rank_value(*card) <= rank_value(before) {
                                habit.downs += 1;
                            } else {
                                habit.ups += 1;
                            }
                        }
                        deal.play.play(*seat, *card)
                    }
                    Event::TrickWon { winner, card, reason, .. } => deal.play.won(*winner, *card, *reason),
                    _ => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        if deal.arranging() {
            trick::distinct(deal.unplaced[seat].clone()).into_iter().map(|card| Command::PlaceCard { card }).collect()
        } else {
            vec![Command::TurnUp]
        }
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        let mut moves: Vec<Command> = decks::standard52().into_iter().map(|card| Command::PlaceCard { card }).collect();
        moves.push(Command::TurnUp);
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(state.players());
        let record = viewer == Viewer::Record;
        let deal = state.deals.deal.as_ref();
        let mine = deal.zip(me);
        let recorded = deal.filter(|_| record);
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, state.players(), deal.map(|d| d.dealer)),
            options: state.options.clone(),
            target: state.options.target,
            forehand: deal.map(Deal::forehand),
            cards_each: deal.map(|d| d.dealt),
            set_aside_count: deal.map(|d| d.set_aside.len()),
            to_place: deal.map(|d| d.unplaced.iter().map(Vec::len).collect()),
            hand: mine.map(|(d, s)| d.unplaced[s].clone()),
            pile: mine.map(|(d, s)| d.play.hands[s].clone()),
            arranged: recorded.map(|d| d.arranged.clone()),
            set_aside: recorded.map(|d| d.set_aside.clone()),
            deck: recorded.map(|d| d.deck.clone()),
            play: deal.map(|d| d.play.view(record)).unwrap_or_default(),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if viewer == Viewer::Record || deal_over {
            return full;
        }
        match event {
            // Without a live deal of its own, the event belongs to a deal that is over.
            Event::DealStarted { deal_number, hands, .. }
                if state.deals.live().is_some_and(|d| d.number == *deal_number) =>
            {
                deals::hide_hands(&mut full, hands, viewer);
                full["set_aside"] = Value::Null;
            }
            Event::CardPlaced { seat, .. } if viewer != Viewer::Seat(*seat) && state.deals.live().is_some() => {
                full["card"] = Value::Null;
                full["hidden"] = json!(true);
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        // A pile is its owner's to know, like the cards still in hand; the rest nobody knows.
        let mut secrets = deal.play.hand_secrets(|_, _| false);
        for (s, hand) in deal.unplaced.iter().enumerate() {
            secrets.extend(hand.iter().map(|&c| (c, vec![s])));
        }
        secrets.extend(deal.set_aside.iter().map(|&c| (c, Vec::new())));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let scores = &state.deals.scores;
        let target = state.options.target;
        if let Some(outcome) = &state.deals.outcome {
            let best = scores.iter().copied().max().unwrap_or(0);
            if outcome.winners.len() != 1 || scores[outcome.winners[0]] != best || best < target {
                return Err(format!("winners {:?} with scores {scores:?} and target {target}", outcome.winners));
            }
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let n = deal.players();
        if deal.dealt != PACK / n || deal.set_aside != deal.deck[deal.dealt * n..] {
            return Err(format!("{} cards each and {:?} set aside at {n} players", deal.dealt, deal.set_aside));
        }
        if deal.arranging() && deal.play.played().next().is_some() {
            return Err("a card was turned up before every pile was laid".into());
        }
        let mut elsewhere: Vec<Card> = deal.unplaced.iter().flatten().copied().collect();
        elsewhere.extend_from_slice(&deal.set_aside);
        deal.play.check(&pack, &elsewhere, |s| deal.dealt - deal.unplaced[s].len(), &trick::no_trumps)?;
        for s in 0..n {
            // The pile is played from the top, in the order it was laid.
            let mut order: Vec<Card> = deal.play.played().filter(|(p, _)| *p == s).map(|(_, c)| c).collect();
            order.extend_from_slice(&deal.play.hands[s]);
            if order != deal.arranged[s] {
                return Err(format!("seat {s} played {order:?} but arranged {:?}", deal.arranged[s]));
            }
        }
        Ok(())
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        if !deal.arranging() {
            return Some(Command::TurnUp);
        }
        // Nothing is known of the others' piles, so any order is as good as another: a shuffle,
        // laid one card at a time.
        let hand = &deal.unplaced[seat];
        let card = hand[Rng::new(seed).below(hand.len())];
        Some(Command::PlaceCard { card })
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// Against players who lay their piles in no order the highest card first is as good as
    /// the search finds, and the search only adds its noise (strong vs random +1 to +6 a match
    /// where basic makes +11): so the strong bot lays highest first unless another player has
    /// shown the habit of doing so too. Then it weighs the two ends of its hand: the highest
    /// card, to take the lead, or the lowest, to wait while the others spend their high cards.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat).filter(|d| d.arranging()) else {
            return self.legal_moves(state, seat);
        };
        let hand = &deal.unplaced[seat];
        let key = |c: &&Card| (rank_value(**c), **c);
        let (Some(&high), Some(&low)) = (hand.iter().max_by_key(key), hand.iter().min_by_key(key)) else {
            return Vec::new();
        };
        let answered = (0..deal.players()).any(|s| s != seat && state.highest_first(s) >= ANSWER_HABIT);
        let cards = if answered && low != high { vec![high, low] } else { vec![high] };
        cards.into_iter().map(|card| Command::PlaceCard { card }).collect()
    }

    /// The highest card first: a trick's leader names the suit and an ace led always wins, so
    /// high cards early take the first tricks and keep the lead, and low cards are left for the
    /// tricks that are lost anyway.
    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        if !deal.arranging() {
            return Some(Command::TurnUp);
        }
        let card = deal.unplaced[seat].iter().copied().max_by_key(|&c| (rank_value(c), c))?;
        Some(Command::PlaceCard { card })
    }

    /// While the piles are laid, the deal as `seat` knows it: its own pile and cards in hand;
    /// every other hand and the cards set aside dealt afresh from the rest, keeping their sizes.
    /// Each other player's hand is laid as that player has laid its piles so far (highest card
    /// first, or in no order: see [`PileHabit`]), so the search answers the players at the table
    /// rather than assuming they play like basic. Once the play starts nobody has a choice left.
    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        let deal = state.deals.live().filter(|d| d.arranging())?;
        let players = deal.players();
        let mine: Vec<Card> = deal.unplaced[seat].iter().chain(&deal.arranged[seat]).copied().collect();
        let pool: Vec<Card> = decks::standard52().into_iter().filter(|c| !mine.contains(c)).collect();
        let others: Vec<Seat> = (0..players).filter(|&s| s != seat).collect();
        let mut sizes: Vec<usize> = others.iter().map(|&s| deal.arranged[s].len() + deal.unplaced[s].len()).collect();
        sizes.push(deal.set_aside.len());
        let mut dealt = bots::redeal_where(&pool, &sizes, |_, _| true, rng).into_iter();
        let mut world = state.clone();
        let w = world.deals.live_mut()?;
        for &s in &others {
            let mut hand = dealt.next().expect("a hand per seat");
            if (rng.below(1000) as f64) < state.highest_first(s) * 1000.0 {
                hand.sort_by_key(|&c| std::cmp::Reverse((rank_value(c), c)));
                let placed = deal.arranged[s].len();
                w.unplaced[s] = sorted(hand.split_off(placed));
                w.play.hands[s] = hand.clone();
                w.arranged[s] = hand;
            } else {
                // In no order: the whole pile laid now, as it may already be.
                rng.shuffle(&mut hand);
                w.unplaced[s] = Vec::new();
                w.play.hands[s] = hand.clone();
                w.arranged[s] = hand;
            }
        }
        w.set_aside = dealt.next().expect("the cards set aside");
        // Not the deck as dealt (which nobody may see), but the same cards, those set aside last.
        let dealt_cards = (0..players).flat_map(|s| w.arranged[s].iter().chain(&w.unplaced[s]));
        w.deck = dealt_cards.chain(&w.set_aside).copied().collect();
        Some(world)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let scores = &state.deals.scores;
        bots::lead_over_mean(scores.len(), |s| scores[s] as f64, seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::is_permutation;
    use crate::cards::{card, cards};
    use crate::game::{cards_in, erase};
    use crate::rules::core;
    use crate::simulate::Driver;

    type M = Driver<Femtio>;

    fn place(c: &str) -> Command {
        Command::PlaceCard { card: card(c) }
    }

    /// The pack that deals these four hands when seat 0 deals: one card at a time from seat 1.
    fn deck_for(hands: [&str; 4]) -> Vec<Card> {
        let hands = hands.map(cards);
        let deck: Vec<Card> = (0..PACK).map(|i| hands[(1 + i) % 4][i / 4]).collect();
        assert!(is_permutation(&deck, &decks::standard52()), "the four hands must make a pack");
        deck
    }

    /// Seat 0 holds the ace of hearts and spades, seat 1 the other hearts and the ace of spades,
    /// seat 2 the diamonds and seat 3 the clubs.
    fn mixed() -> Vec<Card> {
        deck_for([
            "AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS",
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        ])
    }

    fn arrange(m: &mut M, seat: Seat, order: &str) {
        for c in cards(order) {
            if m.state.deals.current().unwrap().unplaced[seat].contains(&c) {
                m.ok(seat, Command::PlaceCard { card: c });
            }
        }
    }

    #[test]
    fn the_pack_is_dealt_evenly_and_the_rest_set_aside() {
        for (players, each, aside) in [(2, 26, 0), (3, 17, 1), (4, 13, 0), (5, 10, 2), (6, 8, 4)] {
            let mut m = M::new(players, Options::default());
            let deck = decks::standard52();
            let events = m.deal(deck.clone());
            let Event::DealStarted { hands, set_aside, forehand, .. } = &events[0] else { panic!() };
            assert!(hands.iter().all(|h| h.len() == each), "{players} players");
            assert_eq!(set_aside, &deck[PACK - aside..], "{players} players");
            assert_eq!(*forehand, 1);
            assert!(hands[1].contains(&deck[0]) && hands[0].contains(&deck[players - 1]));
            assert_eq!(m.to_act(), (0..players).collect::<Vec<_>>(), "everyone arranges at once");
        }
    }

    #[test]
    fn everyone_arranges_at_once_and_sees_only_their_own_pile() {
        let mut m = M::new(4, Options::default());
        m.deal(mixed());
        let events = m.ok(2, place("KD"));
        assert_eq!(events, vec![Event::CardPlaced { seat: 2, card: card("KD"), pile_size: 1 }]);
        assert_eq!(m.to_act(), [0, 1, 2, 3]);
        // Others see that a card was placed, not which.
        let seen = Femtio.redact(&m.state, &events[0], Viewer::Seat(0), false);
        assert_eq!((seen["card"].clone(), seen["pile_size"].clone()), (Value::Null, json!(1)));
        assert_eq!(Femtio.redact(&m.state, &events[0], Viewer::Seat(2), false)["card"], json!("KD"));
        let mine = serde_json::to_value(Femtio.view(&m.state, Viewer::Seat(2))).unwrap();
        assert_eq!(mine["pile"], json!(["KD"]));
        assert_eq!(mine["hand_sizes"], json!([0, 0, 1, 0]));
        assert_eq!(mine["to_place"], json!([13, 13, 12, 13]));
        let other = serde_json::to_value(Femtio.view(&m.state, Viewer::Seat(0))).unwrap();
        assert!(!cards_in(&other).iter().any(|c| cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD").contains(c)));
        assert!(Femtio.secrets(&m.state).contains(&(card("KD"), vec![2])));
        // Refusals: a card not in hand, and turning up before the piles are laid.
        assert_eq!(m.refused(2, place("KD")).rule, rule::ANY_ORDER);
        assert_eq!(m.refused(2, place("AH")).rule, rule::ANY_ORDER);
        assert_eq!(m.refused(2, Command::TurnUp).rule, rule::PLAY_AFTER);
        // The last card goes on by itself, and a seat that is done is no longer asked.
        arrange(&mut m, 2, "2D 3D 4D 5D 6D 7D 8D 9D TD JD");
        let last = m.ok(2, place("QD"));
        assert_eq!(
            last,
            vec![
                Event::CardPlaced { seat: 2, card: card("QD"), pile_size: 12 },
                Event::CardPlaced { seat: 2, card: card("AD"), pile_size: 13 },
            ]
        );
        assert_eq!(m.to_act(), [0, 1, 3]);
        assert_eq!(m.refused(2, place("2D")).rule, core::TURN);
    }

    #[test]
    fn the_piles_play_themselves_and_the_highest_of_the_suit_led_wins() {
        let mut m = M::new(4, Options::default());
        m.deal(mixed());
        arrange(&mut m, 0, "AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS");
        arrange(&mut m, 1, "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS");
        arrange(&mut m, 2, "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD");
        arrange(&mut m, 3, "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC");
        assert_eq!(m.to_act(), [1], "forehand turns up first");
        assert_eq!(m.legal(1), [Command::TurnUp]);
        assert_eq!(m.refused(1, place("2H")).rule, rule::PLACED_STAYS);
        m.ok(1, Command::TurnUp);
        m.ok(2, Command::TurnUp);
        m.ok(3, Command::TurnUp);
        // The ace of diamonds is off suit; the ace of hearts takes the two of hearts.
        let events = m.ok(0, Command::TurnUp);
        assert_eq!(
            events,
            vec![
                Event::CardTurnedUp { seat: 0, card: card("AH"), trick_number: 1 },
                Event::TrickWon {
                    trick_number: 1,
                    winner: 0,
                    card: card("AH"),
                    reason: WinReason::HighestOfSuitLed,
                    plays: vec![
                        Play { seat: 1, card: card("2H") },
                        Play { seat: 2, card: card("AD") },
                        Play { seat: 3, card: card("2C") },
                        Play { seat: 0, card: card("AH") },
                    ],
                },
            ]
        );
        assert_eq!(m.to_act(), [0], "the winner leads");
        let events = m.finish_deal();
        let Some(Event::DealScored { tricks_taken, terms, scores, .. }) = events.last() else { panic!("{events:?}") };
        // Seat 0 leads its spades and takes every trick but the last, where seat 1's ace of
        // spades meets seat 0's king.
        assert_eq!(tricks_taken, &[12, 1, 0, 0]);
        assert_eq!(scores, &[12, 1, 0, 0]);
        assert!(terms.iter().all(|t| t.rule == rule::TRICK_POINT && t.points == i64::from(tricks_taken[t.to])));
        assert!(Femtio.status(&m.state).to_act().is_empty());
    }

    #[test]
    fn the_first_to_the_target_wins() {
        let mut m = M::new(4, Options { target: 13 });
        m.deal(deck_for([
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        ]));
        let events = m.finish_deal();
        let Some(Event::MatchEnded { winners, rule: r, scores, .. }) = events.last() else { panic!("{events:?}") };
        assert_eq!((winners.as_slice(), r.as_str(), scores.as_slice()), (&[1][..], rule::TARGET, &[0, 13, 0, 0][..]));
        assert!(Femtio.status(&m.state).is_finished());
        assert!(Femtio.legal_moves(&m.state, 1).is_empty());
    }

    #[test]
    fn several_at_the_target_go_by_points_then_by_the_last_trick() {
        assert_eq!(match_winner(&[49, 12, 30], 50, &[0, 1]), None);
        assert_eq!(match_winner(&[51, 12, 30], 50, &[0, 1]), Some((0, rule::TARGET)));
        assert_eq!(match_winner(&[51, 53, 30], 50, &[1, 0]), Some((1, rule::MOST_POINTS)));
        // Equal at the top: seat 0 took a trick after seat 1 did; seat 2 is not tied.
        assert_eq!(match_winner(&[52, 52, 50], 50, &[1, 0, 2, 1, 0, 2]), Some((0, rule::LAST_TRICK)));
        assert_eq!(match_winner(&[52, 52, 50], 50, &[0, 1, 2]), Some((1, rule::LAST_TRICK)));
        let text = match_explanation(1, &[52, 52, 50], 50, rule::LAST_TRICK);
        assert!(text.en.contains("seat 1 took a trick last"), "{}", text.en);
    }

    #[test]
    fn options_have_defaults_and_are_checked() {
        let game = erase(Femtio);
        assert_eq!(game.normalize_options(&Value::Null).unwrap(), json!({ "target": 50 }));
        assert!(game.setup(3, &json!({ "target": 0 })).is_err());
        let parse = |v: Value| serde_json::from_value::<Command>(v).unwrap();
        assert_eq!(parse(json!({ "type": "place_card", "card": "7H" })), place("7H"));
        assert_eq!(parse(json!({ "type": "turn_up" })), Command::TurnUp);
    }
}
