//! Krypkasino: misère Kasino with two packs. The deal comes in four rounds of 26 cards, hands
//! and a few face-up table cards each time (court cards on the table are set aside for the last
//! taker). A card that can take must take, and take everything it can; a card that can sweep the
//! table must be played and sweep it (tvångstabbe). A sweep is a tabbe and taking the played
//! card's twin a dubbeltabbe (two tabbar); the previous player is charged a dukning for each.
//! Points are counted at the deal's end, tabbar +5 and dukningar -5; the fewest points win.
//!
//! The takes are the `capture` toolkit's and the table is a `layout::Spread`. A take is a turn in
//! steps, as in Kasino: `take_with` shows the card and what it counts, then `take` one group at a
//! time; the take ends by itself when no group is left (there is no `stop`: the take is forced).

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::capture::{self, Take};
use crate::cards::{decks, is_permutation, sorted, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::layout::Spread;
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{seats_text, Seat, Table as Seating};

#[derive(Default)]
pub struct Krypkasino;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 6;
/// The deal comes in this many rounds, each of a quarter of the double pack.
pub const ROUNDS: u32 = 4;
/// The ten of diamonds.
pub const STORAN: Card = Card::new(Rank::TEN, Suit::Diamonds);
/// The two of spades.
pub const LILLAN: Card = Card::new(Rank::TWO, Suit::Spades);
/// What a tabbe scores, and a dukning takes off.
pub const TABBE_POINTS: i64 = 5;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const ACE: &str = "krypkasino.pack.ace";
    pub const ONE_CARD: &str = "krypkasino.play.one-card";
    pub const TAKE: &str = "krypkasino.play.take";
    pub const GROUPS: &str = "krypkasino.play.groups";
    pub const NO_CRAWL: &str = "krypkasino.play.no-crawl";
    pub const EVERYTHING: &str = "krypkasino.play.everything";
    pub const FORCED_TABBE: &str = "krypkasino.play.forced-tabbe";
    pub const TURN_DOWN: &str = "krypkasino.play.turn-down";

    pub const STORAN: &str = "krypkasino.score.storan";
    pub const LILLAN: &str = "krypkasino.score.lillan";
    pub const SPADE_ACE: &str = "krypkasino.score.spade-ace";
    pub const ACES: &str = "krypkasino.score.aces";
    pub const SPADES: &str = "krypkasino.score.spades";
    pub const TABBE: &str = "krypkasino.score.tabbe";
    pub const DUKNING: &str = "krypkasino.score.dukning";

    pub const STEPS: &str = "krypkasino.house.steps";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// How many times each player deals: the match is this many deals per player.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub deals_each: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { deals_each: 1 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

pub use crate::capture::Phase;

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    hands: Vec<Vec<Card>>,
    /// Cards still to be dealt, top first.
    stock: Vec<Card>,
    table: Spread,
    /// Court cards dealt to the table, set aside for the last taker.
    set_aside: Vec<Card>,
    /// By seat, every card taken in (public: shown when taken).
    captured: Vec<Vec<Card>>,
    /// By seat, the tabbe cards lying face up (a dubbeltabbe lays two).
    tabbar: Vec<Vec<Card>>,
    /// By seat, tabbe cards turned down again when every seat had one.
    turned_down: Vec<Vec<Card>>,
    /// By seat, the dukningar charged: tabbar the next player made after this one's turn.
    dukningar: Vec<u32>,
    /// The round of the deal being played, 1 to 4.
    round: u32,
    to_play: Seat,
    take: Option<Take>,
    last_taker: Option<Seat>,
    /// The seat that played last, charged a dukning should the next play be a tabbe.
    last_player: Option<Seat>,
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
    /// Lay a card that cannot take face up on the table ("krypa"), ending the turn.
    LayOut { card: Card },
    /// Show a card from the hand to take in with, counting `worth` (an ace 1 or 14): the
    /// groups follow one at a time.
    TakeWith {
        card: Card,
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 14))]
        #[serde(deserialize_with = "crate::schema::within::<_, _, 1, 14>")]
        worth: u8,
    },
    /// Take one group of table cards adding up to the card shown.
    Take { group: Vec<Card> },
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
        /// The double pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's cards of the first round, sorted.
        hands: Vec<Vec<Card>>,
        /// The first round's cards dealt face up on the table, less the court cards.
        table: Vec<Card>,
        /// The court cards among them, set aside for the last taker.
        set_aside: Vec<Card>,
        /// The scores before this deal.
        scores: Vec<i64>,
        options: Options,
    },
    /// A card that could not take, laid out on the table.
    LaidOut {
        seat: Seat,
        card: Card,
        /// The worths that would now sweep the table ("tabbe på tio"), told as custom asks.
        tabbe_on: Vec<u8>,
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
    /// The take is over: the card and every table card it took go to the seat's pile.
    TakeEnded {
        seat: Seat,
        /// The card played, then the table cards in the order taken.
        cards: Vec<Card>,
        /// Tabbar made: 1 for a sweep (the card played lies face up), 2 for a dubbeltabbe (the
        /// card's twin taken: both lie face up), else 0.
        tabbar: u32,
        /// The previous player, charged a dukning for each tabbe (none on the deal's first play).
        charged: Option<Seat>,
        /// The worths that would now sweep the table.
        tabbe_on: Vec<u8>,
    },
    /// Every seat had a tabbe marked: each turns one down (by seat, the card turned down).
    TabbarTurnedDown {
        cards: Vec<Card>,
    },
    /// A new round of the deal: cards to each seat and more face up on the table.
    RoundDealt {
        round: u32,
        hands: Vec<Vec<Card>>,
        table: Vec<Card>,
        set_aside: Vec<Card>,
    },
    /// The last to take in gets what is left on the table and the court cards set aside.
    TableSwept {
        seat: Seat,
        cards: Vec<Card>,
    },
    DealScored {
        deal_number: u32,
        /// By seat: tabbar still marked, tabbar turned down, and dukningar charged.
        tabbar: Vec<usize>,
        turned_down: Vec<usize>,
        dukningar: Vec<u32>,
        /// Every point of the deal, seat by seat.
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

/// Cards to each hand, then to the table, in every round at a table of `players`.
fn round_shape(players: usize) -> (usize, usize) {
    match players {
        2 => (10, 6),
        3 => (8, 2),
        4 => (6, 2),
        5 => (5, 1),
        _ => (4, 2),
    }
}

fn is_court(card: Card) -> bool {
    matches!(card.rank(), Some(r) if r == Rank::JACK || r == Rank::QUEEN || r == Rank::KING)
}

/// A round from the top of `stock`: one card at a time to each seat from forehand, then the table
/// cards, the court cards among them set apart. Returns hands, table cards and court cards.
fn deal_round(seating: &Seating, dealer: Seat, stock: &mut Vec<Card>) -> (Vec<Vec<Card>>, Vec<Card>, Vec<Card>) {
    let (hand, table) = round_shape(seating.seats);
    let dealt: Vec<Card> = stock.drain(..hand * seating.seats).collect();
    let hands = deals::deal_singly(seating, dealer, &dealt);
    let (courts, table): (Vec<Card>, Vec<Card>) = stock.drain(..table).partition(|&c| is_court(c));
    (hands.into_iter().map(sorted).collect(), table, courts)
}

// ---------------------------------------------------------------------------------------------
// Forced takes

/// The cards (with their worth) of `hand` that sweep `table`: one of them must be played.
fn sweepers(hand: &[Card], table: &[Card]) -> Vec<(Card, u8)> {
    capture::hand_worths(hand).into_iter().filter(|&(_, w)| capture::sweeps(table, w)).collect()
}

fn can_take_any(card: Card, table: &[Card]) -> bool {
    capture::worths(card).into_iter().any(|w| capture::can_take(table, w))
}

/// The groups the take may go on with: those that keep the sweep in reach when it is forced.
fn next_groups(table: &[Card], take: &Take) -> Vec<Vec<Card>> {
    if capture::sweeps(&take.table_before(table), take.worth) {
        capture::sweeping_groups(table, take.worth)
    } else {
        capture::groups(table, take.worth)
    }
}

fn tabbe_on(table: &[Card]) -> Vec<u8> {
    (1..=14).filter(|&w| capture::sweeps(table, w)).collect()
}

/// Tabbar a take makes: two when it took the played card's twin, one when it swept the table;
/// as many copies of the card lie face up.
fn tabbar_of(card: Card, taken: &[Card], left: &[Card]) -> u32 {
    if taken.contains(&card) {
        2
    } else {
        u32::from(left.is_empty())
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_lay_out(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if deal.take.is_some() {
        return Err(capture::out_of_step(rule::ONE_CARD, true));
    }
    let hand = &deal.hands[seat];
    if !hand.contains(&card) {
        return Err(RuleViolation::card_not_held(card));
    }
    let table = deal.table.cards();
    if can_take_any(card, table) {
        return Err(RuleViolation::new(
            rule::NO_CRAWL,
            format!("{card} kan ta in från bordet, så det får inte läggas ut: ta in med det."),
            format!("{card} can take from the table, so it may not be laid out: take in with it."),
        ));
    }
    if let Some(&(sweeper, _)) = sweepers(hand, table).first() {
        return Err(forced_tabbe(sweeper));
    }
    let mut after = deal.clone();
    take_card(&mut after.hands[seat], card);
    after.table.lay(card);
    let mut events = vec![Event::LaidOut { seat, card, tabbe_on: tabbe_on(after.table.cards()) }];
    events.extend(after_turn(state, &after));
    Ok(events)
}

fn forced_tabbe(sweeper: Card) -> RuleViolation {
    RuleViolation::new(
        rule::FORCED_TABBE,
        format!("Du kan ta in allt på bordet med {sweeper}: tvångstabbe, du måste göra det."),
        format!("You can sweep the table with {sweeper}: a forced tabbe, you must make it."),
    )
}

fn decide_take_with(deal: &Deal, seat: Seat, card: Card, worth: u8) -> Result<Vec<Event>, RuleViolation> {
    if deal.take.is_some() {
        return Err(capture::out_of_step(rule::ONE_CARD, true));
    }
    capture::check_worth(&deal.hands[seat], card, worth, rule::ACE)?;
    let table = deal.table.cards();
    if !capture::can_take(table, worth) {
        return Err(capture::nothing_to_take(rule::TAKE, worth));
    }
    let sweepers = sweepers(&deal.hands[seat], table);
    if !sweepers.is_empty() && !sweepers.contains(&(card, worth)) {
        return Err(forced_tabbe(sweepers[0].0));
    }
    Ok(vec![Event::PlayedToTake { seat, card, worth }])
}

fn decide_take(state: &State, deal: &Deal, seat: Seat, group: &[Card]) -> Result<Vec<Event>, RuleViolation> {
    let Some(take) = &deal.take else {
        return Err(capture::out_of_step(rule::STEPS, false));
    };
    let table = deal.table.cards();
    capture::check_group(table, group, take.worth, rule::GROUPS, rule::TAKE)?;
    let offered = next_groups(table, take);
    if offered.iter().any(|g| capture::same_cards(g, group) && g != group) {
        // With two packs a twin lies twice: the group is named once, as the table lists it.
        return Err(RuleViolation::new(
            rule::STEPS,
            "Räkna upp gruppens kort i den ordning de ligger på bordet, som de tillåtna dragen gör.",
            "Name the group's cards in the order they lie on the table, as the legal moves do.",
        ));
    }
    if !offered.iter().any(|g| g == group) {
        return Err(RuleViolation::new(
            rule::FORCED_TABBE,
            "Med den gruppen går det inte längre att ta in allt på bordet, och tabben är tvingande.",
            "That group would leave the sweep out of reach, and the tabbe is forced.",
        ));
    }
    let taken = Event::GroupTaken { seat, group: group.to_vec() };
    let mut after = deal.clone();
    evolve_deal(&mut after, &state.table, &taken);
    let mut events = vec![taken];
    if let Some(take) = after.take.clone().filter(|t| !capture::can_take(after.table.cards(), t.worth)) {
        events.extend(end_take(state, after, seat, take));
    }
    Ok(events)
}

/// The take's end and what follows, from the deal once its last group is taken.
fn end_take(state: &State, mut after: Deal, seat: Seat, take: Take) -> Vec<Event> {
    let left = after.table.cards().to_vec();
    let tabbar = tabbar_of(take.card, &take.taken, &left);
    let charged = after.last_player.filter(|_| tabbar > 0);
    let mut cards = vec![take.card];
    cards.extend(take.taken);
    let ended = Event::TakeEnded { seat, cards, tabbar, charged, tabbe_on: tabbe_on(&left) };
    evolve_deal(&mut after, &state.table, &ended);
    let mut events = vec![ended];
    while after.tabbar.iter().all(|t| !t.is_empty()) {
        let down = Event::TabbarTurnedDown { cards: after.tabbar.iter().map(|t| t[0]).collect() };
        evolve_deal(&mut after, &state.table, &down);
        events.push(down);
    }
    events.extend(after_turn(state, &after));
    events
}

/// What follows a turn: the next seat, a new round, or the deal's end.
fn after_turn(state: &State, deal: &Deal) -> Vec<Event> {
    if deal.hands.iter().any(|h| !h.is_empty()) {
        return Vec::new();
    }
    if !deal.stock.is_empty() {
        let mut stock = deal.stock.clone();
        let (hands, table, set_aside) = deal_round(&state.table, deal.dealer, &mut stock);
        return vec![Event::RoundDealt { round: deal.round + 1, hands, table, set_aside }];
    }
    end_deal(state, deal)
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve_deal(deal: &mut Deal, table: &Seating, event: &Event) {
    match event {
        Event::LaidOut { seat, card, .. } => {
            take_card(&mut deal.hands[*seat], *card);
            deal.table.lay(*card);
            deal.to_play = table.next(*seat);
            deal.last_player = Some(*seat);
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
        Event::TakeEnded { seat, cards, tabbar, charged, .. } => {
            deal.take = None;
            deal.captured[*seat].extend(cards);
            (0..*tabbar).for_each(|_| deal.tabbar[*seat].push(cards[0]));
            if let Some(c) = charged {
                deal.dukningar[*c] += *tabbar;
            }
            deal.last_taker = Some(*seat);
            deal.last_player = Some(*seat);
            deal.to_play = table.next(*seat);
        }
        Event::TabbarTurnedDown { cards } => {
            for (s, &c) in cards.iter().enumerate() {
                take_card(&mut deal.tabbar[s], c);
                deal.turned_down[s].push(c);
            }
        }
        Event::RoundDealt { round, hands, table, set_aside } => {
            for (s, h) in hands.iter().enumerate() {
                deal.hands[s] = h.clone();
            }
            let dealt = hands.iter().map(Vec::len).sum::<usize>() + table.len() + set_aside.len();
            deal.stock.drain(..dealt);
            table.iter().for_each(|&c| deal.table.lay(c));
            deal.set_aside.extend(set_aside);
            deal.round = *round;
        }
        Event::TableSwept { seat, cards } => {
            deal.table.clear();
            deal.set_aside.clear();
            deal.captured[*seat].extend(cards);
        }
        Event::DealScored { .. } => deal.over = true,
        Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// What a card taken in counts, with its rule and its name.
fn card_points(card: Card) -> Option<(i64, &'static str, &'static str, &'static str)> {
    let ace = card.rank() == Some(Rank::ACE);
    let spade = card.is_suit(Suit::Spades);
    Some(match card {
        STORAN => (3, rule::STORAN, "storan (ruter tio)", "storan (the ten of diamonds)"),
        LILLAN => (2, rule::LILLAN, "lillan (spader två)", "lillan (the two of spades)"),
        _ if ace && spade => (2, rule::SPADE_ACE, "spader ess", "the ace of spades"),
        _ if ace => (1, rule::ACES, "övriga ess", "other aces"),
        _ if spade => (1, rule::SPADES, "övriga spaderkort", "other spades"),
        _ => return None,
    })
}

/// Seat `seat`'s terms for the deal: its cards by kind, its marked tabbar and its dukningar.
fn seat_terms(deal: &Deal, seat: Seat, pile: &[Card]) -> Vec<ScoreTerm> {
    let mut terms = Vec::new();
    let kinds = [rule::STORAN, rule::LILLAN, rule::SPADE_ACE, rule::ACES, rule::SPADES];
    for kind in kinds {
        let of_kind: Vec<(i64, &str, &str)> =
            pile.iter().filter_map(|&c| card_points(c)).filter(|p| p.1 == kind).map(|p| (p.0, p.2, p.3)).collect();
        if let Some(&(each, sv, en)) = of_kind.first() {
            let (n, points) = (of_kind.len(), each * of_kind.len() as i64);
            terms.push(ScoreTerm::new(
                seat,
                points,
                kind,
                format!("Plats {seat} tog in {sv}: {n} kort, {points} poäng."),
                format!("Seat {seat} took in {en}: {n} cards, {points} points."),
            ));
        }
    }
    let marked = deal.tabbar[seat].len() as i64;
    if marked > 0 {
        terms.push(ScoreTerm::new(
            seat,
            marked * TABBE_POINTS,
            rule::TABBE,
            format!("Plats {seat} har {marked} tabbar markerade."),
            format!("Seat {seat} has {marked} tabbar marked."),
        ));
    }
    let dukningar = i64::from(deal.dukningar[seat]);
    if dukningar > 0 {
        terms.push(ScoreTerm::new(
            seat,
            -dukningar * TABBE_POINTS,
            rule::DUKNING,
            format!("Plats {seat} dukade för {dukningar} tabbar."),
            format!("Seat {seat} set up {dukningar} tabbar (dukningar)."),
        ));
    }
    terms
}

/// The last taker's sweep of what is left, then every seat's points, then the match's end.
fn end_deal(state: &State, deal: &Deal) -> Vec<Event> {
    let mut events = Vec::new();
    let mut after = deal.clone();
    if let Some(last) = deal.last_taker {
        let mut cards = deal.table.cards().to_vec();
        cards.extend(&deal.set_aside);
        let swept = Event::TableSwept { seat: last, cards };
        evolve_deal(&mut after, &state.table, &swept);
        events.push(swept);
    }
    let breakdown: Vec<ScoreTerm> =
        (0..state.players()).flat_map(|s| seat_terms(&after, s, &after.captured[s])).collect();
    let mut points = vec![0; state.players()];
    breakdown.iter().for_each(|t| points[t.to] += t.points);
    let scores: Vec<i64> = state.deals.scores.iter().zip(&points).map(|(a, b)| a + b).collect();
    events.push(Event::DealScored {
        deal_number: deal.number,
        tabbar: after.tabbar.iter().map(Vec::len).collect(),
        turned_down: after.turned_down.iter().map(Vec::len).collect(),
        dukningar: after.dukningar.clone(),
        breakdown,
        points,
        scores: scores.clone(),
    });
    let deals = state.options.deals_each * state.players() as u32;
    if deal.number >= deals {
        let fewest = scores.iter().copied().min().unwrap_or(0);
        let winners: Vec<Seat> = (0..scores.len()).filter(|&s| scores[s] == fewest).collect();
        let who = seats_text(&winners);
        events.push(Event::MatchEnded {
            winners,
            scores,
            explanation: Text::new(
                format!("Efter {deals} givar har plats {who} minst poäng, {fewest}, och vinner."),
                format!("After {deals} deals seat {who} has the fewest points, {fewest}, and wins."),
            ),
        });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, the cards on the table and those set aside, a
/// take in progress, the hands' sizes, the stock, the piles taken in (their sizes: taken cards
/// are not looked at again), the tabbe cards face up, tabbar turned down and dukningar, and the
/// viewer's own hand. A deal's record shows every hand and pile at every step, and the deck once
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
    /// The cards face up on the table, in the order they came there.
    pub layout: Vec<Card>,
    /// The court cards dealt to the table and set aside for the last taker.
    pub set_aside: Vec<Card>,
    /// The worths that would sweep the table now.
    pub tabbe_on: Vec<u8>,
    /// The take in progress: absent when none is.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub taking: Option<Take>,
    /// The round of the deal, 1 to 4: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub round: Option<u32>,
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
    /// By seat, the tabbe cards face up on its pile: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub tabbar: Option<Vec<Vec<Card>>>,
    /// By seat, tabbe cards turned down again: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turned_down: Option<Vec<usize>>,
    /// By seat, the dukningar charged: absent before the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub dukningar: Option<Vec<u32>>,
    /// The last seat to take in: null until somebody has, absent before the deal.
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

/// What a card costs its taker.
fn card_cost(card: Card) -> f64 {
    card_points(card).map_or(0.0, |p| p.0 as f64) + 0.01
}

fn cards_cost(cards: &[Card]) -> f64 {
    cards.iter().map(|&c| card_cost(c)).sum()
}

/// What taking with `card` at `worth` costs, each time taking the cheapest group allowed.
fn take_cost(table: &[Card], card: Card, worth: u8) -> f64 {
    let mut take = Take { card, worth, taken: Vec::new() };
    let mut left = table.to_vec();
    while let Some(g) = cheapest(&left, &take) {
        left = capture::without(&left, &g);
        take.taken.extend(g);
    }
    let tabbar = tabbar_of(card, &take.taken, &left);
    card_cost(card) + cards_cost(&take.taken) + f64::from(tabbar) * TABBE_POINTS as f64
}

fn cheapest(table: &[Card], take: &Take) -> Option<Vec<Card>> {
    next_groups(table, take).into_iter().min_by(|a, b| cards_cost(a).total_cmp(&cards_cost(b)))
}

/// The rule of thumb: take as cheaply as the rules allow; lay out the card that costs most to
/// keep, the more so when it leaves a tabbe for the next player (a dukning is -5).
fn basic_choice(deal: &Deal, seat: Seat) -> Option<Command> {
    let table = deal.table.cards();
    if let Some(take) = &deal.take {
        return cheapest(table, take).map(|group| Command::Take { group });
    }
    let moves = legal(deal, seat);
    let value = |m: &Command| match m {
        Command::TakeWith { card, worth } => -take_cost(table, *card, *worth),
        Command::LayOut { card } => {
            let mut after = table.to_vec();
            after.push(*card);
            100.0 + card_cost(*card) + if tabbe_on(&after).is_empty() { 0.0 } else { 2.0 }
        }
        Command::Take { .. } => 0.0,
    };
    moves.into_iter().max_by(|a, b| value(a).total_cmp(&value(b)))
}

fn legal(deal: &Deal, seat: Seat) -> Vec<Command> {
    let table = deal.table.cards();
    if let Some(take) = &deal.take {
        return next_groups(table, take).into_iter().map(|group| Command::Take { group }).collect();
    }
    let hand = &deal.hands[seat];
    let sweepers = sweepers(hand, table);
    if !sweepers.is_empty() {
        return sweepers.into_iter().map(|(card, worth)| Command::TakeWith { card, worth }).collect();
    }
    let mut moves: Vec<Command> = Vec::new();
    for (card, worth) in capture::hand_worths(hand) {
        if capture::can_take(table, worth) {
            moves.push(Command::TakeWith { card, worth });
        } else if !can_take_any(card, table) && !moves.contains(&Command::LayOut { card }) {
            moves.push(Command::LayOut { card });
        }
    }
    moves
}

/// The deal as `seat` knows it: its own hand, the table, what is set aside and the piles taken
/// in; the other hands and the stock dealt afresh from the copies it has not seen.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let mut seen: Vec<Card> = deal.hands[seat].clone();
    seen.extend(deal.table.cards());
    seen.extend(&deal.set_aside);
    deal.captured.iter().for_each(|p| seen.extend(p));
    if let Some(t) = &deal.take {
        seen.push(t.card);
        seen.extend(&t.taken);
    }
    let pool = capture::without(&decks::double(&decks::standard52()), &seen);
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

impl Rules for Krypkasino {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "krypkasino";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/krypkasino.txt");

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=100).contains(&options.deals_each) {
            return Err(SetupError(format!("deals_each must be 1 to 100, not {}", options.deals_each)));
        }
        Ok(State { options, table: Seating::new(players), deals: Deals::new(players) })
    }

    crate::status_of_deals!(|_state| decks::double(&decks::standard52()));

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let mut stock = deck.clone();
        let (hands, table, set_aside) = deal_round(&state.table, dealer, &mut stock);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: state.table.next(dealer),
            deck,
            hands,
            table,
            set_aside,
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
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, forehand, deck, hands, table, set_aside, scores, options } => {
                state.options = options.clone();
                state.table = Seating::new(hands.len());
                state.deals.next_dealer = state.table.next(*dealer);
                let dealt = hands.iter().map(Vec::len).sum::<usize>() + table.len() + set_aside.len();
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    hands: hands.clone(),
                    stock: deck[dealt..].to_vec(),
                    table: Spread::new(table.clone()),
                    set_aside: set_aside.clone(),
                    captured: vec![Vec::new(); hands.len()],
                    tabbar: vec![Vec::new(); hands.len()],
                    turned_down: vec![Vec::new(); hands.len()],
                    dukningar: vec![0; hands.len()],
                    round: 1,
                    to_play: *forehand,
                    take: None,
                    last_taker: None,
                    last_player: None,
                    over: false,
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { breakdown, scores, .. } => {
                state.deals.scored(breakdown, scores);
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
        moves.push(Command::Take { group: Vec::new() });
        if let Some(deal) = state.deals.live() {
            let table = deal.table.cards();
            for (i, &a) in table.iter().enumerate() {
                moves.push(Command::Take { group: vec![a] });
                for &b in &table[i + 1..] {
                    moves.push(Command::Take { group: vec![a, b] });
                }
            }
            deal.hands.iter().flatten().for_each(|&card| moves.push(Command::LayOut { card }));
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
            set_aside: deal.map(|d| d.set_aside.clone()).unwrap_or_default(),
            tabbe_on: deal.filter(|d| !d.over).map(|d| tabbe_on(d.table.cards())).unwrap_or_default(),
            taking: deal.and_then(|d| d.take.clone()),
            round: deal.map(|d| d.round),
            to_play: deal.map(|d| d.to_play),
            hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
            stock_size: deal.map(|d| d.stock.len()),
            captured_sizes: deal.map(|d| d.captured.iter().map(Vec::len).collect()),
            tabbar: deal.map(|d| d.tabbar.clone()),
            turned_down: deal.map(|d| d.turned_down.iter().map(Vec::len).collect()),
            dukningar: deal.map(|d| d.dukningar.clone()),
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
            Event::RoundDealt { hands, .. } if hidden => deals::hide_dealt(&mut full, hands, viewer),
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
        let pack = decks::double(&decks::standard52());
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.hands.concat();
        all.extend(&deal.stock);
        all.extend(deal.table.cards());
        all.extend(&deal.set_aside);
        all.extend(deal.captured.concat());
        if let Some(t) = &deal.take {
            all.push(t.card);
            all.extend(&t.taken);
            crate::ensure!(capture::splits(&t.taken, t.worth), "the take so far {:?} does not split", t.taken);
        }
        crate::ensure!(is_permutation(&all, &pack), "the deal's places hold {} cards, not the pack", all.len());
        crate::ensure!(deal.set_aside.iter().all(|&c| is_court(c)), "a card set aside is no court card");
        for s in 0..state.players() {
            let mut marks = deal.tabbar[s].clone();
            marks.extend(&deal.turned_down[s]);
            crate::ensure!(
                crate::cards::is_part_of(&marks, &deal.captured[s]),
                "seat {s}'s tabbe cards are not in its pile"
            );
        }
        let made: usize = deal.tabbar.iter().chain(&deal.turned_down).map(Vec::len).sum();
        let charged: u32 = deal.dukningar.iter().sum();
        crate::ensure!(charged as usize <= made, "{charged} dukningar charged for {made} tabbar");
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// Playouts run a whole deal of forced takes: a smaller search keeps a decision in its time
    /// (64 playouts took 35.5 ms at p99, docs/bots.md).
    fn strong_budget(&self) -> bots::Budget {
        bots::Budget { playouts: 28, min_samples: 4, max_samples: 8 }
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic_choice(state.deals.acting(seat)?, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// The fewer points the better: the others' mean less the seat's score, with what its pile,
    /// tabbar and dukningar of this deal will count.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let live = |s: Seat| {
            state.deals.live().map_or(0.0, |d| {
                let cards = cards_cost(&d.captured[s]);
                cards + (d.tabbar[s].len() as f64 - f64::from(d.dukningar[s])) * TABBE_POINTS as f64
            })
        };
        -bots::lead_over_mean(state.players(), |s| state.deals.scores[s] as f64 + live(s), seat)
    }
}

#[cfg(test)]
mod tests;
