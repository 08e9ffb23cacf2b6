//! Kasino: four cards each and four face up on the table; a player plays one card a turn and
//! either takes in with it (table cards worth as much, alone or in groups adding up to it) or
//! lays it out on the table. Sweeping the table is a tabbe; the last to take in gets what is left
//! (sistan). Aces, storan, lillan and tabbar count as they are won, most cards, most spades and
//! sistan at the end of the deal; the first to 16 wins at once.
//!
//! The takes are the `capture` toolkit's and the table is a `layout::Spread`. A take is a turn in
//! steps: `take_with` shows the card and what it counts, then `take` one group at a time, and
//! the take ends by itself when no group is left, or when the player says `stop`.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::capture;
use crate::cards::{decks, is_permutation, sorted, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchView};
use crate::game::{Outcome, Rules, SetupError, Viewer};
use crate::layout::Spread;
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{match_winners, Seat, Table as Seating};

#[derive(Default)]
pub struct Kasino;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 4;
/// Cards a hand holds, dealt two at a time.
pub const HAND: usize = 4;
/// The ten of diamonds.
pub const STORAN: Card = Card::new(Rank::TEN, Suit::Diamonds);
/// The two of spades.
pub const LILLAN: Card = Card::new(Rank::TWO, Suit::Spades);

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const ONE_CARD: &str = "kasino.play.one-card";
    pub const TAKE: &str = "kasino.play.take";
    pub const GROUPS: &str = "kasino.play.groups";
    pub const ACE: &str = "kasino.pack.ace";

    pub const MOST_CARDS: &str = "kasino.score.most-cards";
    pub const MOST_SPADES: &str = "kasino.score.most-spades";
    pub const TABBE_POINT: &str = "kasino.score.tabbe";
    pub const ACES: &str = "kasino.score.ace";
    pub const STORAN: &str = "kasino.score.storan";
    pub const LILLAN: &str = "kasino.score.lillan";
    pub const SISTAN_POINT: &str = "kasino.score.sistan";

    pub const STEPS: &str = "kasino.house.steps";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The points that win the match at once.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    pub target: i64,
    /// Deals after which a match nobody has won ends, the most points winning (house rule).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    pub deal_limit: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { target: 16, deal_limit: 50 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

pub use crate::capture::{Phase, Take};

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    hands: Vec<Vec<Card>>,
    /// Cards still to be dealt, top first.
    stock: Vec<Card>,
    table: Spread,
    /// By seat, every card taken in (public: shown when taken).
    captured: Vec<Vec<Card>>,
    /// By seat, the cards that made a tabbe, lying face up.
    tabbar: Vec<Vec<Card>>,
    to_play: Seat,
    take: Option<Take>,
    last_taker: Option<Seat>,
    /// Every score term of this deal so far, for its breakdown.
    terms: Vec<ScoreTerm>,
    over: bool,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.over {
            Vec::new()
        } else {
            vec![self.to_play]
        }
    }

    fn is_live(&self) -> bool {
        !self.over
    }

    fn phase(&self) -> Phase {
        Phase::of_deal(self.over, self.take.as_ref())
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
    /// Lay a card from the hand face up on the table, ending the turn.
    LayOut { card: Card },
    /// Show a card from the hand to take in with it, counting `worth` (an ace 1 or 14): the
    /// groups follow one at a time.
    TakeWith {
        card: Card,
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 14))]
        #[serde(deserialize_with = "crate::schema::within::<_, _, 1, 14>")]
        worth: u8,
    },
    /// Take one group of table cards adding up to the card shown.
    Take { group: Vec<Card> },
    /// End the take while groups are left on the table.
    Stop,
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
        /// Every seat's first four cards, sorted.
        hands: Vec<Vec<Card>>,
        /// The four cards dealt face up on the table.
        table: Vec<Card>,
        /// The scores before this deal.
        scores: Vec<i64>,
        options: Options,
    },
    LaidOut {
        seat: Seat,
        card: Card,
    },
    /// A card shown to take in with, and what it counts.
    PlayedToTake {
        seat: Seat,
        card: Card,
        worth: u8,
    },
    GroupTaken {
        seat: Seat,
        group: Vec<Card>,
    },
    /// The take is over: the card and every table card it took go to the seat's pile, and the
    /// points won with them count at once.
    TakeEnded {
        seat: Seat,
        /// The card played, then the table cards in the order taken.
        cards: Vec<Card>,
        /// The table was swept: the card lies face up.
        tabbe: bool,
        terms: Vec<ScoreTerm>,
        scores: Vec<i64>,
    },
    /// Four new cards each, no new table cards.
    HandsDealt {
        hands: Vec<Vec<Card>>,
        /// "Sista given": the stock is used up.
        last: bool,
    },
    /// Sistan: the last to take in gets what is left on the table.
    TableSwept {
        seat: Seat,
        cards: Vec<Card>,
        terms: Vec<ScoreTerm>,
        scores: Vec<i64>,
    },
    DealScored {
        deal_number: u32,
        /// Cards and spades each seat took in.
        cards_taken: Vec<usize>,
        spades_taken: Vec<usize>,
        /// Most cards and most spades (none when the match ended during the deal).
        terms: Vec<ScoreTerm>,
        /// Every point of the deal, in the order won.
        breakdown: Vec<ScoreTerm>,
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

/// A round of the deal from the top of `stock`: two cards to each seat from the dealer's left, then
/// two face up on the table when `to_table` says so, and all of it once more.
fn deal_round(seating: &Seating, dealer: Seat, stock: &mut Vec<Card>, to_table: bool) -> (Vec<Vec<Card>>, Vec<Card>) {
    let mut hands = vec![Vec::new(); seating.seats];
    let mut table = Vec::new();
    for _ in 0..2 {
        for k in 1..=seating.seats {
            hands[seating.after(dealer, k)].extend(stock.drain(..2));
        }
        if to_table {
            table.extend(stock.drain(..2));
        }
    }
    (hands.into_iter().map(sorted).collect(), table)
}

// ---------------------------------------------------------------------------------------------
// Takes

/// A card's points when taken in: aces, storan and lillan.
fn card_terms(seat: Seat, cards: &[Card]) -> Vec<ScoreTerm> {
    let mut terms = Vec::new();
    for &c in cards {
        let (points, rule, sv, en) = match c {
            STORAN => (2, rule::STORAN, "storan (ruter tio)", "storan (the ten of diamonds)"),
            LILLAN => (1, rule::LILLAN, "lillan (spader två)", "lillan (the two of spades)"),
            c if c.rank() == Some(Rank::ACE) => (1, rule::ACES, "ett ess", "an ace"),
            _ => continue,
        };
        terms.push(ScoreTerm::new(
            seat,
            points,
            rule,
            format!("Plats {seat} tog in {sv} ({c})."),
            format!("Seat {seat} took in {en} ({c})."),
        ));
    }
    terms
}

fn plus(scores: &[i64], terms: &[ScoreTerm]) -> Vec<i64> {
    let mut scores = scores.to_vec();
    terms.iter().for_each(|t| scores[t.to] += t.points);
    scores
}

/// The first seat at or over the target as `terms` are counted in order from `scores`.
fn first_to_target(scores: &[i64], terms: &[ScoreTerm], target: i64) -> Option<Seat> {
    let mut running = scores.to_vec();
    terms.iter().find_map(|t| {
        running[t.to] += t.points;
        (running[t.to] >= target).then_some(t.to)
    })
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_lay_out(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if deal.take.is_some() {
        return Err(capture::out_of_step(rule::ONE_CARD, true));
    }
    if !deal.hands[seat].contains(&card) {
        return Err(RuleViolation::card_not_held(card));
    }
    let mut after = deal.clone();
    take_card(&mut after.hands[seat], card);
    after.table.lay(card);
    let mut events = vec![Event::LaidOut { seat, card }];
    events.extend(after_turn(state, &after, &[]));
    Ok(events)
}

fn decide_take_with(deal: &Deal, seat: Seat, card: Card, worth: u8) -> Result<Vec<Event>, RuleViolation> {
    if deal.take.is_some() {
        return Err(capture::out_of_step(rule::ONE_CARD, true));
    }
    capture::check_worth(&deal.hands[seat], card, worth, rule::ACE)?;
    if !capture::can_take(deal.table.cards(), worth) {
        return Err(capture::nothing_to_take(rule::TAKE, worth));
    }
    Ok(vec![Event::PlayedToTake { seat, card, worth }])
}

fn decide_take(state: &State, deal: &Deal, seat: Seat, group: &[Card]) -> Result<Vec<Event>, RuleViolation> {
    let Some(take) = &deal.take else {
        return Err(capture::out_of_step(rule::STEPS, false));
    };
    capture::check_group(deal.table.cards(), group, take.worth, rule::GROUPS, rule::TAKE)?;
    let mut events = vec![Event::GroupTaken { seat, group: group.to_vec() }];
    let left = capture::without(deal.table.cards(), group);
    if !capture::can_take(&left, take.worth) {
        let mut taken = take.taken.clone();
        taken.extend(group);
        events.extend(end_take(state, deal, seat, take.card, taken, left));
    }
    Ok(events)
}

fn decide_stop(state: &State, deal: &Deal, seat: Seat) -> Result<Vec<Event>, RuleViolation> {
    match &deal.take {
        Some(take) if !take.taken.is_empty() => {
            Ok(end_take(state, deal, seat, take.card, take.taken.clone(), deal.table.cards().to_vec()))
        }
        _ => Err(RuleViolation::new(
            rule::STEPS,
            "Man slutar först när man tagit minst en grupp.",
            "A take stops only once at least one group is taken.",
        )),
    }
}

/// The take's end and what follows: its points, the next turn or the deal's end.
/// `left`: the table once the take is over.
fn end_take(state: &State, deal: &Deal, seat: Seat, card: Card, taken: Vec<Card>, left: Vec<Card>) -> Vec<Event> {
    let tabbe = left.is_empty();
    let mut cards = vec![card];
    cards.extend(taken);
    let mut terms = card_terms(seat, &cards);
    if tabbe {
        terms.push(ScoreTerm::new(
            seat,
            1,
            rule::TABBE_POINT,
            format!("Plats {seat} tog in allt på bordet med {card}: tabbe."),
            format!("Seat {seat} swept the table with {card}: a tabbe."),
        ));
    }
    let scores = plus(&state.deals.scores, &terms);
    let mut events = vec![Event::TakeEnded { seat, cards: cards.clone(), tabbe, terms: terms.clone(), scores }];
    let mut after = deal.clone();
    take_card(&mut after.hands[seat], card);
    after.table = Spread::new(left);
    after.take = None;
    after.captured[seat].extend(&cards);
    after.last_taker = Some(seat);
    after.terms.extend(terms.clone());
    events.extend(after_turn(state, &after, &terms));
    events
}

/// What follows a turn: the match won at once, new hands, the deal's end, or the next seat.
fn after_turn(state: &State, deal: &Deal, terms: &[ScoreTerm]) -> Vec<Event> {
    let scores = plus(&state.deals.scores, terms);
    if let Some(winner) = first_to_target(&state.deals.scores, terms, state.options.target) {
        let mut events = vec![score_deal(state, deal, &scores, Vec::new())];
        events.push(match_won(winner, &scores, state.options.target));
        return events;
    }
    if deal.hands.iter().any(|h| !h.is_empty()) {
        return Vec::new();
    }
    if !deal.stock.is_empty() {
        let mut stock = deal.stock.clone();
        let (hands, _) = deal_round(&state.table, deal.dealer, &mut stock, false);
        return vec![Event::HandsDealt { hands, last: stock.is_empty() }];
    }
    end_deal(state, deal, scores)
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve_deal(deal: &mut Deal, table: &Seating, event: &Event) {
    match event {
        Event::LaidOut { seat, card } => {
            take_card(&mut deal.hands[*seat], *card);
            deal.table.lay(*card);
            deal.to_play = table.next(*seat);
        }
        Event::PlayedToTake { seat, card, worth } => {
            take_card(&mut deal.hands[*seat], *card);
            deal.take = Some(Take { card: *card, worth: *worth, taken: Vec::new() });
        }
        Event::GroupTaken { group, .. } => {
            deal.table.take(group);
            if let Some(t) = deal.take.as_mut() {
                t.taken.extend(group);
            }
        }
        Event::TakeEnded { seat, cards, tabbe, terms, .. } => {
            deal.take = None;
            deal.captured[*seat].extend(cards);
            if *tabbe {
                deal.tabbar[*seat].push(cards[0]);
            }
            deal.last_taker = Some(*seat);
            deal.terms.extend(terms.iter().cloned());
            deal.to_play = table.next(*seat);
        }
        Event::HandsDealt { hands, .. } => {
            for (s, h) in hands.iter().enumerate() {
                deal.stock.drain(..h.len());
                deal.hands[s] = h.clone();
            }
        }
        Event::TableSwept { seat, terms, .. } => {
            let cards = deal.table.clear();
            deal.captured[*seat].extend(cards);
            deal.terms.extend(terms.iter().cloned());
        }
        Event::DealScored { .. } => deal.over = true,
        Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// Sistan, then most cards and most spades, counted in that order.
fn end_deal(state: &State, deal: &Deal, scores: Vec<i64>) -> Vec<Event> {
    let mut events = Vec::new();
    let mut captured = deal.captured.clone();
    let mut scores = scores;
    let mut breakdown_before = deal.terms.clone();
    if let Some(last) = deal.last_taker {
        let cards = deal.table.cards().to_vec();
        let mut terms = card_terms(last, &cards);
        terms.push(ScoreTerm::new(
            last,
            1,
            rule::SISTAN_POINT,
            format!("Plats {last} tog in sist: sistan."),
            format!("Seat {last} took in last: sistan."),
        ));
        captured[last].extend(&cards);
        let before = scores.clone();
        scores = plus(&scores, &terms);
        breakdown_before.extend(terms.clone());
        events.push(Event::TableSwept { seat: last, cards, terms: terms.clone(), scores: scores.clone() });
        if let Some(w) = first_to_target(&before, &terms, state.options.target) {
            let mut d = deal.clone();
            d.captured = captured;
            d.terms = breakdown_before;
            events.push(score_deal(state, &d, &scores, Vec::new()));
            events.push(match_won(w, &scores, state.options.target));
            return events;
        }
    }
    let mut terms = Vec::new();
    let count = |f: &dyn Fn(&Card) -> bool| captured.iter().map(|p| p.iter().filter(|c| f(c)).count()).collect();
    let cards_taken: Vec<usize> = count(&|_| true);
    let spades_taken: Vec<usize> = count(&|c| c.is_suit(Suit::Spades));
    for (counts, points, rule, sv, en) in [
        (&cards_taken, 1, rule::MOST_CARDS, "flest kort", "the most cards"),
        (&spades_taken, 2, rule::MOST_SPADES, "flest spader", "the most spades"),
    ] {
        let most = *counts.iter().max().unwrap_or(&0);
        let top: Vec<Seat> = (0..counts.len()).filter(|&s| counts[s] == most).collect();
        if let [s] = top[..] {
            terms.push(ScoreTerm::new(
                s,
                points,
                rule,
                format!("Plats {s} tog in {sv}, {most}."),
                format!("Seat {s} took in {en}, {most}."),
            ));
        }
    }
    let before = scores.clone();
    let after = plus(&scores, &terms);
    let mut d = deal.clone();
    d.captured = captured;
    d.terms = breakdown_before;
    events.push(score_deal(state, &d, &after, terms.clone()));
    if let Some(w) = first_to_target(&before, &terms, state.options.target) {
        events.push(match_won(w, &after, state.options.target));
    } else if state.deals.number >= state.options.deal_limit {
        let winners = match_winners(&after);
        let explanation = Outcome::most_points(&winners, &after).explanation;
        events.push(Event::MatchEnded {
            winners,
            scores: after,
            explanation: Text::new(
                format!("Ingen nådde målet på {} givar. {}", state.options.deal_limit, explanation.sv),
                format!("Nobody reached the target in {} deals. {}", state.options.deal_limit, explanation.en),
            ),
        });
    }
    events
}

fn score_deal(state: &State, deal: &Deal, scores: &[i64], terms: Vec<ScoreTerm>) -> Event {
    let mut breakdown = deal.terms.clone();
    breakdown.extend(terms.clone());
    let mut points = vec![0; state.players()];
    breakdown.iter().for_each(|t| points[t.to] += t.points);
    let count = |f: &dyn Fn(&Card) -> bool| deal.captured.iter().map(|p| p.iter().filter(|c| f(c)).count()).collect();
    Event::DealScored {
        deal_number: deal.number,
        cards_taken: count(&|_| true),
        spades_taken: count(&|c| c.is_suit(Suit::Spades)),
        terms,
        breakdown,
        points,
        scores: scores.to_vec(),
    }
}

fn match_won(winner: Seat, scores: &[i64], target: i64) -> Event {
    Event::MatchEnded {
        winners: vec![winner],
        scores: scores.to_vec(),
        explanation: Text::new(
            format!("Plats {winner} nådde först {target} poäng och vann partiet ({}).", scores[winner]),
            format!("Seat {winner} was first to reach {target} points and won the match ({}).", scores[winner]),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, the cards on the table, a take in progress, the
/// hands' sizes, the stock, the piles taken in (their sizes: taken cards are not looked at
/// again) and the tabbe cards lying face up, and the viewer's own hand. A deal's record shows
/// every hand and every pile at every step, and the deck once the deal is over.
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
    /// The cards face up on the table, in the order they came there.
    pub layout: Vec<Card>,
    /// The take in progress: absent when none is.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub taking: Option<Take>,
    /// The seat to play: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// Cards each seat holds: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// Cards still to be dealt: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub stock_size: Option<usize>,
    /// Cards each seat has taken in: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub captured_sizes: Option<Vec<usize>>,
    /// By seat, the cards that made a tabbe, face up on its pile: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub tabbar: Option<Vec<Vec<Card>>>,
    /// The last seat to take in (who gets sistan): null until somebody has, absent before the
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_taker: Option<Option<Seat>>,
    /// By seat, every card taken in: only in a deal's record, at every step of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub captured: Option<Vec<Vec<Card>>>,
    /// The cards still to be dealt, top first: only in a deal's record, at every step of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub stock: Option<Vec<Card>>,
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

/// What a card is worth to its taker, roughly: its points, a share of most spades and most cards.
fn card_value(card: Card) -> f64 {
    let points = match card {
        STORAN => 2.0,
        LILLAN => 1.0,
        c if c.rank() == Some(Rank::ACE) => 1.0,
        _ => 0.0,
    };
    points + if card.is_suit(Suit::Spades) { 0.2 } else { 0.0 } + 0.05
}

fn group_value(group: &[Card]) -> f64 {
    group.iter().map(|&c| card_value(c)).sum()
}

/// The group the rule of thumb takes next: one that keeps a sweep in reach if there is one, else
/// the most valuable.
fn best_group(table: &[Card], worth: u8) -> Option<Vec<Card>> {
    let sweeping = capture::sweeping_groups(table, worth);
    let pick = if sweeping.is_empty() { capture::groups(table, worth) } else { sweeping };
    pick.into_iter().max_by(|a, b| group_value(a).total_cmp(&group_value(b)))
}

/// What taking with `card` counting `worth` brings, taking the best group each time until none is
/// left (a sweep worth a point more).
fn take_value(table: &[Card], card: Card, worth: u8) -> Option<f64> {
    let mut left = table.to_vec();
    let mut value = card_value(card);
    let mut took = false;
    while let Some(g) = best_group(&left, worth) {
        value += group_value(&g);
        left = capture::without(&left, &g);
        took = true;
    }
    took.then_some(value + if left.is_empty() { 1.0 } else { 0.0 })
}

/// The rule of thumb: take what is worth most; with nothing to take, lay out the card worth
/// least that leaves no sweep for the next player.
fn basic_choice(deal: &Deal, seat: Seat) -> Option<Command> {
    let table = deal.table.cards();
    if let Some(take) = &deal.take {
        return best_group(table, take.worth).map(|group| Command::Take { group });
    }
    let hand = &deal.hands[seat];
    let best = hand
        .iter()
        .flat_map(|&c| capture::worths(c).into_iter().map(move |w| (c, w)))
        .filter_map(|(c, w)| take_value(table, c, w).map(|v| (v, c, w)))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((_, card, worth)) = best {
        return Some(Command::TakeWith { card, worth });
    }
    let risk = |c: Card| {
        let mut after = table.to_vec();
        after.push(c);
        let sweepable = (1..=14).any(|w| capture::sweeps(&after, w));
        (if sweepable { 10.0 } else { 0.0 }) + card_value(c) + f64::from(capture::low_worth(c)) * 0.01
    };
    hand.iter().copied().min_by(|&a, &b| risk(a).total_cmp(&risk(b))).map(|card| Command::LayOut { card })
}

fn legal(deal: &Deal, seat: Seat) -> Vec<Command> {
    let table = deal.table.cards();
    if let Some(take) = &deal.take {
        let mut moves: Vec<Command> =
            capture::groups(table, take.worth).into_iter().map(|group| Command::Take { group }).collect();
        if !take.taken.is_empty() {
            moves.push(Command::Stop);
        }
        return moves;
    }
    let hand = &deal.hands[seat];
    let mut moves: Vec<Command> = Vec::new();
    for (i, &card) in hand.iter().enumerate() {
        if hand[..i].contains(&card) {
            continue;
        }
        moves.push(Command::LayOut { card });
        for worth in capture::worths(card) {
            if capture::can_take(table, worth) {
                moves.push(Command::TakeWith { card, worth });
            }
        }
    }
    moves
}

/// The deal as `seat` knows it: its own hand, the table and the piles taken in, the other hands
/// and the stock dealt afresh from the cards it has not seen.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let mut seen: Vec<Card> = deal.hands[seat].clone();
    seen.extend(deal.table.cards());
    deal.captured.iter().for_each(|p| seen.extend(p));
    if let Some(t) = &deal.take {
        seen.push(t.card);
        seen.extend(&t.taken);
    }
    let pool: Vec<Card> = decks::standard52().into_iter().filter(|c| !seen.contains(c)).collect();
    let others: Vec<Seat> = (0..state.players()).filter(|&s| s != seat).collect();
    let mut sizes: Vec<usize> = others.iter().map(|&s| deal.hands[s].len()).collect();
    sizes.push(deal.stock.len());
    let mut piles = bots::redeal_where(&pool, &sizes, |_, _| true, rng);
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    w.stock = piles.pop()?;
    for (k, hand) in piles.into_iter().enumerate() {
        w.hands[others[k]] = sorted(hand);
    }
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Kasino {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "kasino";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/kasino.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![Options::default(), Options { target: 6, deal_limit: 3 }]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=1000).contains(&options.target) {
            return Err(SetupError(format!("target must be 1 to 1000, not {}", options.target)));
        }
        if !(1..=1000).contains(&options.deal_limit) {
            return Err(SetupError(format!("deal_limit must be 1 to 1000, not {}", options.deal_limit)));
        }
        Ok(State { options, table: Seating::new(players), deals: Deals::new(players) })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let mut stock = deck.clone();
        let (hands, table) = deal_round(&state.table, dealer, &mut stock, true);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: state.table.next(dealer),
            deck,
            hands,
            table,
            scores: state.deals.scores.clone(),
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match command {
            Command::LayOut { card } => decide_lay_out(state, deal, seat, *card),
            Command::TakeWith { card, worth } => decide_take_with(deal, seat, *card, *worth),
            Command::Take { group } => decide_take(state, deal, seat, group),
            Command::Stop => decide_stop(state, deal, seat),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, forehand, deck, hands, table, scores, options } => {
                state.options = options.clone();
                state.table = Seating::new(hands.len());
                state.deals.next_dealer = state.table.next(*dealer);
                let dealt = hands.iter().map(Vec::len).sum::<usize>() + table.len();
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    hands: hands.clone(),
                    stock: deck[dealt..].to_vec(),
                    table: Spread::new(table.clone()),
                    captured: vec![Vec::new(); hands.len()],
                    tabbar: vec![Vec::new(); hands.len()],
                    to_play: *forehand,
                    take: None,
                    last_taker: None,
                    terms: Vec::new(),
                    over: false,
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::TakeEnded { terms, scores, .. } | Event::TableSwept { terms, scores, .. } => {
                state.deals.scored(terms, scores);
                if let Some(deal) = state.deals.deal.as_mut() {
                    evolve_deal(deal, &state.table, event);
                }
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
        state.deals.acting(seat).map(|deal| legal(deal, seat)).unwrap_or_default()
    }

    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        let mut moves: Vec<Command> = Vec::new();
        for c in decks::standard52().into_iter().step_by(3) {
            moves.push(Command::LayOut { card: c });
            moves.push(Command::TakeWith { card: c, worth: capture::low_worth(c) });
            moves.push(Command::TakeWith { card: c, worth: 14 });
        }
        moves.push(Command::Stop);
        moves.push(Command::Take { group: Vec::new() });
        if let Some(deal) = state.deals.live() {
            let table = deal.table.cards();
            for (i, &a) in table.iter().enumerate() {
                moves.push(Command::Take { group: vec![a] });
                for &b in &table[i + 1..] {
                    moves.push(Command::Take { group: vec![a, b] });
                }
            }
            if let Some(&a) = table.first() {
                moves.push(Command::Take { group: vec![a, a] });
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
            layout: deal.map(|d| d.table.cards().to_vec()).unwrap_or_default(),
            taking: deal.and_then(|d| d.take.clone()),
            to_play: deal.map(|d| d.to_play),
            hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
            stock_size: deal.map(|d| d.stock.len()),
            captured_sizes: deal.map(|d| d.captured.iter().map(Vec::len).collect()),
            tabbar: deal.map(|d| d.tabbar.clone()),
            last_taker: deal.map(|d| d.last_taker),
            captured: record.map(|d| d.captured.clone()),
            stock: record.map(|d| d.stock.clone()),
            deck: record.filter(|d| d.over).map(|d| d.deck.clone()),
            hands: record.map(|d| d.hands.clone()),
            hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        let hidden = state.deals.in_play(state.deals.number, viewer, deal_over);
        match event {
            Event::DealStarted { deal_number, hands, .. } if state.deals.in_play(*deal_number, viewer, deal_over) => {
                deals::hide_hands(&mut full, hands, viewer);
            }
            Event::HandsDealt { hands, .. } if hidden => deals::hide_dealt(&mut full, hands, viewer),
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let mut secrets: Vec<(Card, Vec<Seat>)> =
            deal.hands.iter().enumerate().flat_map(|(s, h)| h.iter().map(move |&c| (c, vec![s]))).collect();
        secrets.extend(deal.stock.iter().map(|&c| (c, Vec::new())));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.hands.concat();
        all.extend(&deal.stock);
        all.extend(deal.table.cards());
        all.extend(deal.captured.concat());
        if let Some(t) = &deal.take {
            all.push(t.card);
            all.extend(&t.taken);
            crate::ensure!(capture::splits(&t.taken, t.worth), "the take so far {:?} does not split", t.taken);
        }
        crate::ensure!(is_permutation(&all, &pack), "the deal's places hold {} cards, not the pack", all.len());
        crate::ensure!(deal.hands.iter().all(|h| h.len() <= HAND), "a hand holds more than {HAND} cards");
        for (s, t) in deal.tabbar.iter().enumerate() {
            crate::ensure!(t.iter().all(|c| deal.captured[s].contains(c)), "seat {s}'s tabbe card is not in its pile");
        }
        let points: i64 = deal.terms.iter().map(|t| t.points).sum();
        let tabbar = deal.tabbar.iter().map(Vec::len).sum::<usize>() as i64;
        crate::ensure!(points <= 11 + tabbar, "the deal gave {points} points with {tabbar} tabbar");
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// Playouts run a whole deal of takes: a smaller search keeps a decision inside its time.
    fn strong_budget(&self) -> bots::Budget {
        bots::Budget { playouts: 96, min_samples: 4, max_samples: 16 }
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic_choice(state.deals.acting(seat)?, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// The score less the others' mean, with the cards and spades each has taken in this deal
    /// counted toward most cards and most spades.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let pile = |s: Seat| {
            let live = state.deals.live();
            live.map_or(0.0, |d| d.captured[s].iter().map(|c| if c.is_suit(Suit::Spades) { 0.25 } else { 0.05 }).sum())
        };
        bots::lead_over_mean(state.players(), |s| state.deals.scores[s] as f64 + pile(s), seat)
    }
}

#[cfg(test)]
mod tests;
