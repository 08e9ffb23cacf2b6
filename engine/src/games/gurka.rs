//! Gurka (Cucumber, Polish "ogórek"): six cards each, five climbing tricks in which suits mean
//! nothing, and only the card left over counts: whoever is left holding the highest card takes
//! its value in minus points.
//!
//! Everyone stakes once into the pot. Each card played must be at least as high as the card just
//! before it, else the player must play their lowest card; an ace may not be answered by an ace.
//! Thirty minus points puts a player out ("gurka"); they may buy back in with a new stake, but
//! start at the score of whoever is worst off among those still in. The last player left takes
//! the pot.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, rank_value, sorted, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::ledger::{Account, Ledger, Payment};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{seats_text, Seat, Table as Seating};
use crate::trick::{Play, PlayView, Trick, TrickPlay, WinReason};

#[derive(Default)]
pub struct Gurka;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 8;
/// Cards per hand: five are played to tricks and the sixth is the one that counts.
pub const HAND: usize = 6;
pub const TRICKS: usize = HAND - 1;
/// Guards against a typo turning a friendly game into an overflow: no rule names a limit.
pub const MAX_STAKE: i64 = 1_000_000;
pub const MAX_LIMIT: i64 = 1_000;
pub const MAX_BUY_INS: u32 = 10;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "gurka.pack.players";
    pub const PACK: &str = "gurka.pack.cards";

    pub const ANTE: &str = "gurka.stakes.ante";

    pub const ROTATION: &str = "gurka.deal.rotation";

    pub const LEAD: &str = "gurka.play.lead";
    pub const SUITS: &str = "gurka.play.suits";
    pub const EQUAL_OR_HIGHER: &str = "gurka.play.equal-or-higher";
    pub const LOWEST: &str = "gurka.play.lowest";
    pub const ACE: &str = "gurka.play.ace";
    pub const TRICK_WINNER: &str = "gurka.play.trick-winner";

    pub const LAST_CARD: &str = "gurka.score.last-card";
    pub const VALUES: &str = "gurka.score.values";
    pub const TIES: &str = "gurka.score.ties";

    pub const BUY_IN: &str = "gurka.out.buy-in";
    pub const RESTART: &str = "gurka.out.restart";
    pub const POT: &str = "gurka.out.pot";

    pub const FIRST_DEALER: &str = "gurka.house.first-dealer";
    pub const BUY_IN_NOW: &str = "gurka.house.buy-in-now";
    pub const UNDEALT: &str = "gurka.house.undealt";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// What each player puts into the pot at the start, and again to buy back in.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000000))]
    pub stake: i64,
    /// The minus points that put a player out.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    pub limit: i64,
    /// How many times each player may buy back in during a match (0: never).
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 10))]
    pub buy_ins: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { stake: 1, limit: 30, buy_ins: 1 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal` before the first deal, `playing` the tricks,
/// `buying-in` while players just put out decide whether to buy back in, `deal-over` once the
/// deal is scored, `finished` once one player is left.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Playing,
    BuyingIn,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// How a deal ended: the cards left over and who paid for them.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DealResult {
    /// By seat, the card each player was left with; null for a seat that sat the deal out.
    pub last_cards: Vec<Option<Card>>,
    /// The players left with the highest card.
    pub losers: Vec<Seat>,
    /// The deal's minus points, term by term.
    pub terms: Vec<ScoreTerm>,
    /// The players put out by this deal.
    pub eliminated: Vec<Seat>,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    play: TrickPlay,
    /// Players put out by this deal who have still to say whether they buy back in.
    deciding: Vec<Seat>,
    result: Option<DealResult>,
}

impl Deal {
    fn forehand(&self) -> Seat {
        self.play.first_leader()
    }

    /// The cards set aside after dealing.
    fn undealt(&self) -> &[Card] {
        &self.deck[HAND * self.play.players_in()..]
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if !self.play.is_over() {
            vec![self.play.to_play()]
        } else {
            self.deciding.clone()
        }
    }

    fn is_live(&self) -> bool {
        !self.play.is_over() || !self.deciding.is_empty()
    }

    fn phase(&self) -> Phase {
        if !self.play.is_over() {
            Phase::Playing
        } else if !self.deciding.is_empty() {
            Phase::BuyingIn
        } else {
            Phase::DealOver
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    table: Seating,
    /// Minus points as negative scores: the protocol.
    deals: Deals<Deal>,
    ledger: Ledger,
    /// Whether each seat is still in the game.
    in_game: Vec<bool>,
    /// How often each seat has bought back in.
    buy_ins_used: Vec<u32>,
    /// The opening stakes are in the pot.
    staked: bool,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }

    fn pot(&self) -> i64 {
        self.ledger.balance(Account::Pot)
    }

    fn seats_in(&self) -> Vec<Seat> {
        (0..self.players()).filter(|&s| self.in_game[s]).collect()
    }

    /// The score of whoever is worst off among those still in: where a buy-in starts.
    fn worst_in(&self) -> Option<i64> {
        self.seats_in().into_iter().map(|s| self.deals.scores[s]).min()
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Play a card to the trick (in turn).
    Play { card: Card },
    /// Just put out: pay a new stake and play on from the worst score of those still in.
    BuyIn,
    /// Just put out: stay out for the rest of the match.
    StayOut,
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
        /// Every seat's six cards, sorted; empty for a seat that is out of the game.
        hands: Vec<Vec<Card>>,
        /// Whether each seat is still in the game.
        in_game: Vec<bool>,
        /// How often each seat has bought back in.
        buy_ins_used: Vec<u32>,
        /// The protocol before this deal: minus points as negative scores.
        scores: Vec<i64>,
        /// The pot before this deal.
        pot: i64,
        /// Seat balances before this deal.
        balances: Vec<i64>,
        options: Options,
    },
    /// The opening stakes, paid before the first deal.
    StakesPaid {
        payments: Vec<Payment>,
        /// The pot after the stakes.
        pot: i64,
    },
    CardPlayed {
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
    /// The five tricks are played: everyone shows the card left and the highest pays.
    DealScored {
        deal_number: u32,
        /// By seat, the card each player was left with; null for a seat that sat out.
        last_cards: Vec<Option<Card>>,
        losers: Vec<Seat>,
        /// The deal's minus points, term by term.
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
        /// The protocol after this deal.
        scores: Vec<i64>,
        /// The players this deal puts out.
        eliminated: Vec<Seat>,
        /// Of those, the ones who may buy back in and are asked.
        may_buy_in: Vec<Seat>,
    },
    BoughtIn {
        seat: Seat,
        payment: Payment,
        /// The move from the player's score to the worst of those still in.
        terms: Vec<ScoreTerm>,
        scores: Vec<i64>,
    },
    StayedOut {
        seat: Seat,
    },
    /// One player is left and takes the pot.
    MatchEnded {
        winners: Vec<Seat>,
        payments: Vec<Payment>,
        balances: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Rules that are pure functions, kept apart so tests can reach them directly

/// Ace 14, king 13, queen 12, knave 11, the others their pips.
pub fn value(card: Card) -> i64 {
    i64::from(rank_value(card))
}

fn is_ace(card: Card) -> bool {
    value(card) == 14
}

/// The cards of the lowest rank in the hand, any of which is "the lowest card".
pub fn lowest(hand: &[Card]) -> Vec<Card> {
    let Some(low) = hand.iter().map(|&c| value(c)).min() else { return Vec::new() };
    sorted(hand.iter().copied().filter(|&c| value(c) == low).collect())
}

/// The cards `hand` may play to `trick`: anything to lead; on an ace the lowest card; else a
/// card at least as high as the one just played, or the lowest card when there is none.
pub fn playable(hand: &[Card], trick: &Trick) -> Vec<Card> {
    let Some(&(_, previous)) = trick.plays.last() else { return sorted(hand.to_vec()) };
    if is_ace(previous) {
        return lowest(hand);
    }
    let high: Vec<Card> = hand.iter().copied().filter(|&c| value(c) >= value(previous)).collect();
    if high.is_empty() {
        lowest(hand)
    } else {
        sorted(high)
    }
}

/// The highest card takes the trick; of equal cards the one played last.
pub fn trick_winner(trick: &Trick) -> (Seat, Card, WinReason) {
    let mut best = trick.plays[0];
    for &(seat, card) in &trick.plays[1..] {
        if value(card) >= value(best.1) {
            best = (seat, card);
        }
    }
    (best.0, best.1, WinReason::HighestCard)
}

/// Six cards to each player still in, one at a time from the dealer's left; none to those out.
pub fn deal_hands(table: &Seating, dealer: Seat, in_game: &[bool], deck: &[Card]) -> Vec<Vec<Card>> {
    let order: Vec<Seat> = table.order_from(table.next(dealer)).into_iter().filter(|&s| in_game[s]).collect();
    let mut hands = vec![Vec::new(); table.seats];
    for (i, &card) in deck[..HAND * order.len()].iter().enumerate() {
        hands[order[i % order.len()]].push(card);
    }
    hands
}

/// The first seat still in from `from` on, clockwise.
fn first_in(table: &Seating, from: Seat, in_game: &[bool]) -> Seat {
    table.order_from(from).into_iter().find(|&s| in_game[s]).unwrap_or(from)
}

fn opening_ledger(balances: &[i64]) -> Ledger {
    let mut ledger = Ledger::new();
    // Every chip a seat is down went into the pot, and the pot pays out only at the end.
    for (s, &b) in balances.iter().enumerate() {
        if b != 0 {
            ledger.pay(&Payment::new(
                Account::Pot,
                Account::Seat(s),
                b,
                rule::ANTE,
                "Saldo från tidigare givar.".into(),
                "Balance from earlier deals.".into(),
            ));
        }
    }
    ledger
}

fn plus(scores: &[i64], points: &[i64]) -> Vec<i64> {
    scores.iter().zip(points).map(|(a, b)| a + b).collect()
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if deal.play.is_over() {
        return Err(RuleViolation::new(
            rule::BUY_IN_NOW,
            "Given är utspelad; nu bestämmer de utslagna om de köper in sig igen.",
            "The deal is played out; now the players put out decide whether to buy back in.",
        ));
    }
    deal.play.check_held(seat, card)?;
    let hand = &deal.play.hands[seat];
    if !playable(hand, &deal.play.trick).contains(&card) {
        let previous = deal.play.trick.plays.last().expect("any card may lead").1;
        let low = lowest(hand)[0];
        return Err(if is_ace(previous) {
            RuleViolation::new(
                rule::ACE,
                format!("Efter ett ess får man inte lägga ett ess till utan måste lägga sitt lägsta kort ({low})."),
                format!("After an ace no ace may follow: you must play your lowest card ({low})."),
            )
        } else if value(card) < value(previous) && hand.iter().any(|&c| value(c) >= value(previous)) {
            RuleViolation::new(
                rule::EQUAL_OR_HIGHER,
                format!("Du lade {card} men har ett kort som är lika högt som eller högre än {previous}."),
                format!("You played {card} but hold a card as high as {previous} or higher."),
            )
        } else {
            RuleViolation::new(
                rule::LOWEST,
                format!("Du kan inte lägga lika högt som {previous} och måste lägga ditt lägsta kort ({low})."),
                format!("You cannot play as high as {previous} and must play your lowest card ({low})."),
            )
        });
    }
    let trick_number = deal.play.number();
    let mut events = vec![Event::CardPlayed { seat, card, trick_number }];
    if let Some(won) = deal.play.completed_by(seat, card, &trick_winner) {
        events.push(Event::TrickWon {
            trick_number,
            winner: won.winner,
            card: won.card,
            reason: won.reason,
            plays: won.plays,
        });
        if won.last {
            let mut hands = deal.play.hands.clone();
            crate::cards::take_card(&mut hands[seat], card);
            events.extend(score_deal(state, deal, &hands));
        }
    }
    Ok(events)
}

fn score_deal(state: &State, deal: &Deal, hands: &[Vec<Card>]) -> Vec<Event> {
    let players = state.players();
    let last_cards: Vec<Option<Card>> = hands.iter().map(|h| h.first().copied()).collect();
    let high = last_cards.iter().flatten().map(|&c| value(c)).max().unwrap_or(0);
    let losers: Vec<Seat> = (0..players).filter(|&s| last_cards[s].is_some_and(|c| value(c) == high)).collect();
    let shared = losers.len() > 1;
    let terms: Vec<ScoreTerm> = losers
        .iter()
        .map(|&s| {
            let card = last_cards[s].expect("a loser holds a card");
            let (rule, sv, en) = if shared {
                (
                    rule::TIES,
                    format!("Plats {s} satt kvar med {card}, lika högt som det högsta kortet: {high} minuspoäng."),
                    format!("Seat {s} was left with {card}, as high as the highest card: {high} minus points."),
                )
            } else {
                (
                    rule::LAST_CARD,
                    format!("Plats {s} satt kvar med det högsta kortet, {card}: {high} minuspoäng."),
                    format!("Seat {s} was left with the highest card, {card}: {high} minus points."),
                )
            };
            ScoreTerm::new(s, -high, rule, sv, en)
        })
        .collect();
    let mut points = vec![0; players];
    for t in &terms {
        points[t.to] += t.points;
    }
    let scores = plus(&state.deals.scores, &points);
    let limit = state.options.limit;
    let seats_in = state.seats_in();
    let mut eliminated: Vec<Seat> = seats_in.iter().copied().filter(|&s| scores[s] <= -limit).collect();
    if eliminated.len() == seats_in.len() {
        // Nobody would be left: those with the fewest minus points stay in.
        let best = seats_in.iter().map(|&s| scores[s]).max().unwrap_or(0);
        eliminated.retain(|&s| scores[s] != best);
    }
    let worst_left = seats_in.iter().filter(|s| !eliminated.contains(s)).map(|&s| scores[s]).min();
    let may_buy_in: Vec<Seat> = match worst_left {
        Some(w) if w > -limit => {
            eliminated.iter().copied().filter(|&s| state.buy_ins_used[s] < state.options.buy_ins).collect()
        }
        _ => Vec::new(),
    };
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        last_cards,
        losers,
        terms,
        points,
        scores,
        eliminated: eliminated.clone(),
        may_buy_in: may_buy_in.clone(),
    }];
    if may_buy_in.is_empty() {
        let left: Vec<Seat> = seats_in.into_iter().filter(|s| !eliminated.contains(s)).collect();
        events.extend(match_end(state, &left));
    }
    events
}

/// The match ends once one player is left: that player takes the pot.
fn match_end(state: &State, left: &[Seat]) -> Option<Event> {
    let &[winner] = left else { return None };
    let pot = state.pot();
    let payments = vec![Payment::new(
        Account::Pot,
        Account::Seat(winner),
        pot,
        rule::POT,
        format!("Plats {winner} är den enda som är kvar och tar hem potten: {pot}."),
        format!("Seat {winner} is the only player left and takes the pot: {pot}."),
    )];
    let mut balances = state.ledger.seats(state.players());
    balances[winner] += pot;
    let who = seats_text(left);
    Some(Event::MatchEnded {
        winners: left.to_vec(),
        payments,
        balances,
        explanation: Text::new(
            format!("Alla andra har blivit gurka; plats {who} är ensam kvar och vinner potten ({pot})."),
            format!("Everyone else has become a cucumber; seat {who} is the only one left and wins the pot ({pot})."),
        ),
    })
}

fn decide_buy_in(state: &State, deal: &Deal, seat: Seat, buy: bool) -> Result<Vec<Event>, RuleViolation> {
    if !deal.deciding.contains(&seat) {
        return Err(RuleViolation::new(
            rule::BUY_IN_NOW,
            "Man köper in sig direkt efter att ha blivit utslagen, när given är utspelad.",
            "One buys back in right after being put out, once the deal is played out.",
        ));
    }
    let mut events = Vec::new();
    let mut in_game = state.in_game.clone();
    if buy {
        let stake = state.options.stake;
        let worst = state.worst_in().expect("someone is still in");
        let score = state.deals.scores[seat];
        let terms = vec![ScoreTerm::new(
            seat,
            worst - score,
            rule::RESTART,
            format!("Plats {seat} köper in sig och börjar om på {} minuspoäng, som den som har mest.", -worst),
            format!("Seat {seat} buys back in and starts again on {} minus points, as whoever has the most.", -worst),
        )];
        let mut scores = state.deals.scores.clone();
        scores[seat] = worst;
        let payment = Payment::new(
            Account::Seat(seat),
            Account::Pot,
            stake,
            rule::BUY_IN,
            format!("Plats {seat} lägger en ny insats {stake} i potten för att köpa in sig."),
            format!("Seat {seat} puts a new stake of {stake} into the pot to buy back in."),
        );
        events.push(Event::BoughtIn { seat, payment, terms, scores });
        in_game[seat] = true;
    } else {
        events.push(Event::StayedOut { seat });
    }
    if deal.deciding.len() == 1 {
        let left: Vec<Seat> = (0..state.players()).filter(|&s| in_game[s]).collect();
        let mut after = state.clone();
        if let Some(Event::BoughtIn { payment, .. }) = events.first() {
            after.ledger.pay(payment);
        }
        events.extend(match_end(&after, &left));
    }
    Ok(events)
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, its protocol and its money, and from the first
/// deal on the deal being played (or the last one). A seat sees its own hand; the last cards are
/// shown to all once the five tricks are played; the record shows the whole pack.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, the protocol (minus points as negative scores), who is to
    /// act.
    #[serde(flatten)]
    pub deals: MatchView,

    /// The options the match is played with.
    pub options: Options,
    /// Whether each seat is still in the game.
    pub in_game: Vec<bool>,
    /// How often each seat has bought back in.
    pub buy_ins_used: Vec<u32>,
    /// Chips in the pot now.
    pub pot: i64,
    /// Each seat's chips won (negative: paid in) now.
    pub balances: Vec<i64>,
    /// The deal's forehand, who led the first trick: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// Players put out by the deal who have still to say whether they buy back in.
    pub deciding: Vec<Seat>,
    /// The deal's last cards and minus points once its five tricks are played: absent before.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub result: Option<DealResult>,
    /// The pack as dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// The card play: hand sizes, tricks, the trick on the table.
    #[serde(flatten)]
    pub play: PlayView,
    /// The viewer's own hand: only in a seat's view, from the first deal on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

// ---------------------------------------------------------------------------------------------
// The bot

/// Only the card left over counts: play the highest card allowed, to keep a low one for last.
fn bot_choice(moves: &[Command], rng: &mut Rng) -> Command {
    if moves.contains(&Command::BuyIn) {
        return if rng.below(4) == 0 { Command::StayOut } else { Command::BuyIn };
    }
    let cards: Vec<Card> =
        moves.iter().filter_map(|m| if let Command::Play { card } = m { Some(*card) } else { None }).collect();
    if cards.len() > 1 && rng.below(8) == 0 {
        return Command::Play { card: cards[rng.below(cards.len())] };
    }
    match cards.iter().copied().max_by_key(|&c| (value(c), c.suit())) {
        Some(card) => Command::Play { card },
        None => moves[0].clone(),
    }
}

/// The rule-of-thumb move: play the highest card allowed, so that a low one is left for the
/// end; buy back in (the stake is small against a pot everyone has paid into).
fn basic_choice(deal: &Deal, seat: Seat) -> Option<Command> {
    if deal.play.is_over() {
        return deal.deciding.contains(&seat).then_some(Command::BuyIn);
    }
    if deal.play.to_play() != seat {
        return None;
    }
    let highest = playable(&deal.play.hands[seat], &deal.play.trick).into_iter().max_by_key(|&c| (value(c), c.suit()));
    highest.map(|card| Command::Play { card })
}

/// The deal as `seat` knows it: its own hand and the cards played; the other hands and the
/// undealt rest dealt afresh from the cards it has not seen. Suits mean nothing here, so
/// nothing is inferred from them.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live().filter(|d| !d.play.is_over())?;
    let played: Vec<Card> = deal.play.played().map(|(_, c)| c).collect();
    let hand = &deal.play.hands[seat];
    let pool: Vec<Card> =
        decks::standard52().into_iter().filter(|c| !hand.contains(c) && !played.contains(c)).collect();
    let others: Vec<Seat> = (0..state.players()).filter(|&s| s != seat).collect();
    let mut piles: Vec<(usize, [bool; 4])> = others.iter().map(|&s| (deal.play.hands[s].len(), [false; 4])).collect();
    piles.push((deal.undealt().len(), [false; 4]));
    let mut dealt = bots::redeal(&pool, &piles, rng).into_iter();
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    for &s in &others {
        w.play.hands[s] = sorted(dealt.next()?);
    }
    // The pack as this world has it: the cards dealt (held or played), then the undealt rest.
    let mut deck: Vec<Card> = w.play.hands.iter().flatten().copied().chain(played).collect();
    deck.extend(dealt.next()?);
    w.deck = deck;
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Gurka {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "gurka";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/gurka.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options { stake: 3, limit: 20, buy_ins: 0 },
            Options { buy_ins: 3, ..Options::default() },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_STAKE).contains(&options.stake) {
            return Err(SetupError(format!("stake must be 1 to {MAX_STAKE}, not {}", options.stake)));
        }
        if !(1..=MAX_LIMIT).contains(&options.limit) {
            return Err(SetupError(format!("limit must be 1 to {MAX_LIMIT}, not {}", options.limit)));
        }
        if options.buy_ins > MAX_BUY_INS {
            return Err(SetupError(format!("buy_ins must be 0 to {MAX_BUY_INS}, not {}", options.buy_ins)));
        }
        Ok(State {
            options,
            table: Seating::new(players),
            deals: Deals::new(players),
            ledger: Ledger::new(),
            in_game: vec![true; players],
            buy_ins_used: vec![0; players],
            staked: false,
        })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = first_in(&state.table, state.deals.next_dealer, &state.in_game);
        let forehand = first_in(&state.table, state.table.next(dealer), &state.in_game);
        let hands = deal_hands(&state.table, dealer, &state.in_game, &deck);
        let pot = state.pot();
        let mut events = vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand,
            deck,
            hands: hands.into_iter().map(sorted).collect(),
            in_game: state.in_game.clone(),
            buy_ins_used: state.buy_ins_used.clone(),
            scores: state.deals.scores.clone(),
            pot,
            balances: state.ledger.seats(state.players()),
            options: state.options.clone(),
        }];
        if !state.staked {
            let stake = state.options.stake;
            let payments = state
                .table
                .order_from(forehand)
                .into_iter()
                .map(|s| {
                    Payment::new(
                        Account::Seat(s),
                        Account::Pot,
                        stake,
                        rule::ANTE,
                        format!("Plats {s} lägger sin insats {stake} i potten."),
                        format!("Seat {s} puts the stake of {stake} into the pot."),
                    )
                })
                .collect();
            events.push(Event::StakesPaid { payments, pot: pot + stake * state.players() as i64 });
        }
        Ok(events)
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match *command {
            Command::Play { card } => decide_play(state, deal, seat, card),
            Command::BuyIn => decide_buy_in(state, deal, seat, true),
            Command::StayOut => decide_buy_in(state, deal, seat, false),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted {
                deal_number,
                dealer,
                forehand,
                deck,
                hands,
                in_game,
                buy_ins_used,
                scores,
                pot,
                balances,
                options,
            } => {
                // The deal carries what it inherits, so it can be replayed on its own.
                state.options = options.clone();
                state.table = Seating::new(hands.len());
                state.ledger = opening_ledger(balances);
                state.in_game = in_game.clone();
                state.buy_ins_used = buy_ins_used.clone();
                state.staked = *pot > 0;
                state.deals.next_dealer = state.table.next(*dealer);
                let mut play = TrickPlay::new(state.table, hands.clone(), *forehand, TRICKS);
                for s in (0..hands.len()).filter(|&s| !in_game[s]) {
                    play.sit_out(s);
                }
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    play,
                    deciding: Vec::new(),
                    result: None,
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::StakesPaid { payments, .. } => {
                for p in payments {
                    state.ledger.pay(p);
                }
                state.staked = true;
            }
            Event::CardPlayed { seat, card, .. } => {
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.play.play(*seat, *card);
                }
            }
            Event::TrickWon { winner, card, reason, .. } => {
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.play.won(*winner, *card, *reason);
                }
            }
            Event::DealScored { last_cards, losers, terms, scores, eliminated, may_buy_in, .. } => {
                for &s in eliminated {
                    state.in_game[s] = false;
                }
                state.deals.scored(terms, scores);
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.deciding = may_buy_in.clone();
                    deal.result = Some(DealResult {
                        last_cards: last_cards.clone(),
                        losers: losers.clone(),
                        terms: terms.clone(),
                        eliminated: eliminated.clone(),
                    });
                }
            }
            Event::BoughtIn { seat, payment, terms, scores } => {
                state.ledger.pay(payment);
                state.in_game[*seat] = true;
                state.buy_ins_used[*seat] += 1;
                state.deals.scored(terms, scores);
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.deciding.retain(|s| s != seat);
                }
            }
            Event::StayedOut { seat } => {
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.deciding.retain(|s| s != seat);
                }
            }
            Event::MatchEnded { winners, payments, explanation, .. } => {
                for p in payments {
                    state.ledger.pay(p);
                }
                state.deals.ended(winners, explanation);
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        if deal.play.is_over() {
            return vec![Command::BuyIn, Command::StayOut];
        }
        playable(&deal.play.hands[seat], &deal.play.trick).into_iter().map(|card| Command::Play { card }).collect()
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        let mut moves = vec![Command::BuyIn, Command::StayOut];
        moves.extend(decks::standard52().into_iter().map(|card| Command::Play { card }));
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(state.players());
        let record = viewer == Viewer::Record;
        let deal = state.deals.deal.as_ref();
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, state.players(), deal.map(|d| d.dealer)),
            options: state.options.clone(),
            in_game: state.in_game.clone(),
            buy_ins_used: state.buy_ins_used.clone(),
            pot: state.pot(),
            balances: state.ledger.seats(state.players()),
            forehand: deal.map(Deal::forehand),
            deciding: deal.map(|d| d.deciding.clone()).unwrap_or_default(),
            result: deal.and_then(|d| d.result.clone()),
            deck: deal.filter(|_| record).map(|d| d.deck.clone()),
            play: deal.map(|d| d.play.view(record)).unwrap_or_default(),
            hand: deal.zip(me).map(|(d, s)| d.play.hands[s].clone()),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if let Event::DealStarted { deal_number, hands, .. } = event {
            let current = state.deals.deal.as_ref().filter(|d| d.number == *deal_number);
            let playing = !deal_over && current.is_some_and(|d| !d.play.is_over());
            if viewer != Viewer::Record && playing {
                deals::hide_hands(&mut full, hands, viewer);
            }
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.deal.as_ref().filter(|d| !d.play.is_over()) else { return Vec::new() };
        let mut secrets = deal.play.hand_secrets(|_, _| false);
        secrets.extend(deal.undealt().iter().map(|&c| (c, Vec::new())));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        state.ledger.check()?;
        let players = state.players();
        let pot = state.pot();
        if let Some(outcome) = &state.deals.outcome {
            if pot != 0 || outcome.winners.len() != 1 || state.seats_in() != outcome.winners {
                return Err(format!("the match ended with {pot} in the pot and {:?} still in", state.seats_in()));
            }
        } else {
            let bought: u32 = state.buy_ins_used.iter().sum();
            let expected = if state.staked { state.options.stake * (players as i64 + i64::from(bought)) } else { 0 };
            if pot != expected {
                return Err(format!("the pot holds {pot}, not the {expected} staked"));
            }
        }
        if state.deals.scores.iter().any(|&s| s > 0) {
            return Err(format!("minus points cannot be plus points: {:?}", state.deals.scores));
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        deal.play.check(&pack, deal.undealt(), |_| HAND, &trick_winner)?;
        if deal.play.players_in() < 2 {
            return Err(format!("a deal played by {} players", deal.play.players_in()));
        }
        if deal.deciding.iter().any(|&s| state.in_game[s] || state.buy_ins_used[s] >= state.options.buy_ins) {
            return Err(format!("players {:?} asked to buy in who cannot", deal.deciding));
        }
        if deal.result.is_some() && !deal.play.is_over() {
            return Err("a deal scored before its five tricks are played".into());
        }
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

    /// Chips plus, while the match runs, a share of the pot by how far each player still in is
    /// from the limit that puts it out; less the others' mean.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let players = state.players();
        let weight: Vec<f64> = (0..players)
            .map(|s| if state.in_game[s] { (state.options.limit + state.deals.scores[s]).max(1) as f64 } else { 0.0 })
            .collect();
        let total: f64 = weight.iter().sum::<f64>().max(1.0);
        let pot = state.pot() as f64;
        let equity: Vec<f64> =
            (0..players).map(|s| state.ledger.balance(Account::Seat(s)) as f64 + pot * weight[s] / total).collect();
        bots::lead_over_mean(players, |s| equity[s], seat)
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        state.deals.acting(seat)?;
        let moves = self.legal_moves(state, seat);
        if moves.is_empty() {
            return None;
        }
        Some(bot_choice(&moves, &mut Rng::new(seed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::is_permutation;
    use crate::cards::{card, cards};
    use crate::game::Status;
    use crate::simulate::Driver;

    type M = Driver<Gurka>;

    /// A deck that deals `hands` (by seat, six each) one at a time from `dealer`'s left, the
    /// rest of the pack after them.
    fn deck_from(dealer: Seat, hands: &[&str]) -> Vec<Card> {
        let n = hands.len();
        let hs: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
        let mut deck: Vec<Card> = (0..HAND * n).map(|i| hs[(dealer + 1 + i % n) % n][i / n]).collect();
        let rest: Vec<Card> = decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect();
        deck.extend(rest);
        assert!(is_permutation(&deck, &decks::standard52()));
        deck
    }

    fn deck(hands: &[&str]) -> Vec<Card> {
        deck_from(0, hands)
    }

    fn deal(m: &M) -> &Deal {
        m.state.deals.deal.as_ref().unwrap()
    }

    fn play(m: &mut M, seat: Seat, code: &str) -> Vec<Event> {
        m.ok(seat, Command::Play { card: card(code) })
    }

    #[test]
    fn the_texts_example_equal_or_higher_else_the_lowest_and_the_last_king_wins() {
        // Six players A to F in seats 0 to 5; F deals, so A leads.
        let mut m = M::new(6, Options::default());
        m.state.deals.next_dealer = 5;
        m.deal(deck_from(
            5,
            &[
                "8S 2C 3C 4C 5C 6C",
                "JD 2D 3D 4D 5D 6D",
                "KD 7D 8D 9D TD QD",
                "KC 2H 4H 5H 6H 7H",
                "3H 5S 6S 7S 8C 9C",
                "9S 4S 3S 2S TS JS",
            ],
        ));
        assert_eq!(m.to_act(), vec![0]);
        play(&mut m, 0, "8S");
        assert_eq!(m.refused(1, Command::Play { card: card("2D") }).rule, rule::EQUAL_OR_HIGHER);
        play(&mut m, 1, "JD");
        play(&mut m, 2, "KD");
        play(&mut m, 3, "KC");
        // E has nothing as high as a king and must play the lowest card, the three of hearts.
        assert_eq!(m.legal(4), vec![Command::Play { card: card("3H") }]);
        assert_eq!(m.refused(4, Command::Play { card: card("9C") }).rule, rule::LOWEST);
        play(&mut m, 4, "3H");
        // F need only match the three just played.
        assert_eq!(m.legal(5).len(), 5);
        let events = play(&mut m, 5, "9S");
        let Some(Event::TrickWon { winner, card: won_with, plays, .. }) = events.last() else { panic!("{events:?}") };
        assert_eq!((*winner, *won_with), (3, card("KC")), "D played the second king, last, and takes the trick");
        assert_eq!(plays.len(), 6);
        assert_eq!(m.to_act(), vec![3], "D leads the next trick");
    }

    #[test]
    fn no_ace_on_an_ace_but_aces_may_come_with_cards_between() {
        let trick =
            |codes: &[&str]| Trick { leader: 0, plays: codes.iter().enumerate().map(|(i, c)| (i, card(c))).collect() };
        assert_eq!(playable(&cards("AS 5H 5C KD"), &trick(&["AH"])), cards("5C 5H"));
        assert_eq!(playable(&cards("AS 5H KD"), &trick(&["AH", "2C"])), sorted(cards("5H KD AS")));
        assert_eq!(playable(&cards("AS AD"), &trick(&["AH"])), cards("AD AS"), "a hand of aces plays one");
        assert_eq!(playable(&cards("2S 9D"), &trick(&["TH"])), cards("2S"));
        assert_eq!(playable(&cards("TS 9D"), &trick(&["TH"])), cards("TS"), "as high is enough");
        let (seat, c, _) = trick_winner(&trick(&["AH", "2C", "AD"]));
        assert_eq!((seat, c), (2, card("AD")), "the later of two aces");
    }

    #[test]
    fn an_ace_refused_after_an_ace_names_the_rule() {
        let mut m = M::new(3, Options::default());
        m.deal(deck(&["2C 3C 4C 5C 6C 7C", "AH 2D 3D 4D 5D 6D", "AS 7D 8D 9D TD QD"]));
        play(&mut m, 1, "AH");
        assert_eq!(m.refused(2, Command::Play { card: card("AS") }).rule, rule::ACE);
        assert_eq!(m.legal(2), vec![Command::Play { card: card("7D") }]);
    }

    /// Three players; forehand (seat 1) leads and the others follow the first legal card.
    fn play_out(m: &mut M) -> Vec<Event> {
        let mut events = Vec::new();
        while m.state.deals.live().is_some_and(|d| !d.play.is_over()) {
            let seat = deal(m).play.to_play();
            let first = m.legal(seat).swap_remove(0);
            events.extend(m.ok(seat, first));
        }
        events
    }

    #[test]
    fn the_highest_card_left_pays_its_value_and_ties_both_pay() {
        let mut m = M::new(3, Options::default());
        // Everyone plays the lowest allowed card first, so the last cards are the highest ones.
        m.deal(deck(&["2C 3C 4C 5C 6C KC", "2D 3D 4D 5D 6D KD", "2H 3H 4H 5H 6H 9H"]));
        assert_eq!(m.state.pot(), 3);
        let events = play_out(&mut m);
        let Some(Event::DealScored { last_cards, losers, terms, scores, .. }) =
            events.iter().find(|e| matches!(e, Event::DealScored { .. }))
        else {
            panic!("no score: {events:?}")
        };
        assert_eq!(last_cards, &vec![Some(card("KC")), Some(card("KD")), Some(card("9H"))]);
        assert_eq!(losers, &vec![0, 1]);
        assert!(terms.iter().all(|t| t.rule == rule::TIES && t.points == -13));
        assert_eq!(scores, &vec![-13, -13, 0]);
        assert_eq!(m.state.deals.next_dealer, 1, "the deal passes to the left");
    }

    #[test]
    fn thirty_puts_a_player_out_who_may_buy_in_at_the_worst_score_left() {
        let mut m = M::new(3, Options::default());
        m.state.deals.scores = vec![-20, -5, -12];
        // Only seat 0 is left with an ace.
        m.deal(deck(&["2C 3C 4C 5C 6C AC", "2D 3D 4D 5D 6D KD", "2H 3H 4H 5H 6H 9H"]));
        let events = play_out(&mut m);
        assert!(events.iter().any(|e| matches!(e, Event::DealScored { eliminated, may_buy_in, .. }
            if eliminated == &vec![0] && may_buy_in == &vec![0])));
        assert_eq!(m.to_act(), vec![0]);
        assert_eq!(m.state.deals.phase(), Phase::BuyingIn);
        assert_eq!(m.refused(0, Command::Play { card: card("AC") }).rule, rule::BUY_IN_NOW);
        let events = m.ok(0, Command::BuyIn);
        let Event::BoughtIn { payment, scores, .. } = &events[0] else { panic!("{events:?}") };
        assert_eq!((payment.amount, payment.rule.as_str()), (1, rule::BUY_IN));
        assert_eq!(scores, &vec![-12, -5, -12], "seat 0 starts where seat 2 is, the worst of those in");
        assert_eq!(m.state.pot(), 4);
        assert!(matches!(m.rules.status(&m.state), Status::NeedsDeck { .. }));
    }

    #[test]
    fn the_last_player_left_takes_the_pot() {
        let mut m = M::new(3, Options { buy_ins: 0, ..Options::default() });
        m.state.deals.scores = vec![-25, -25, 0];
        m.state.in_game = vec![true, true, true];
        m.deal(deck(&["2C 3C 4C 5C 6C AC", "2D 3D 4D 5D 6D AD", "2H 3H 4H 5H 6H 9H"]));
        let events = play_out(&mut m);
        let Some(Event::MatchEnded { winners, payments, .. }) = events.last() else { panic!("{events:?}") };
        assert_eq!(winners, &vec![2]);
        assert_eq!((payments[0].amount, payments[0].to), (3, Account::Seat(2)));
        assert_eq!(m.state.ledger.seats(3), vec![-1, -1, 2]);
        assert!(m.rules.status(&m.state).is_finished());
    }

    #[test]
    fn a_player_out_sits_out_and_does_not_deal() {
        let mut m = M::new(4, Options { buy_ins: 0, ..Options::default() });
        m.state.in_game = vec![true, false, true, true];
        m.state.deals.next_dealer = 1;
        m.state.staked = true;
        m.state.ledger = opening_ledger(&[-1, -1, -1, -1]);
        let events = m.deal(decks::standard52());
        let Event::DealStarted { dealer, forehand, hands, .. } = &events[0] else { panic!() };
        assert_eq!((*dealer, *forehand), (2, 3));
        assert!(hands[1].is_empty() && hands.iter().filter(|h| h.len() == HAND).count() == 3);
        assert_eq!(m.to_act(), vec![3]);
    }

    #[test]
    fn when_everyone_left_would_be_out_the_fewest_minus_points_stay() {
        let mut m = M::new(3, Options { buy_ins: 0, ..Options::default() });
        m.state.deals.scores = vec![-25, -20, -28];
        m.deal(deck(&["2C 3C 4C 5C 6C AC", "2D 3D 4D 5D 6D AD", "2H 3H 4H 5H 6H AH"]));
        let events = play_out(&mut m);
        let Some(Event::MatchEnded { winners, .. }) = events.last() else { panic!("{events:?}") };
        assert_eq!(winners, &vec![1]);
    }

    #[test]
    fn setup_refuses_impossible_options() {
        assert!(Gurka.setup(3, Options { stake: 0, ..Options::default() }).is_err());
        assert!(Gurka.setup(3, Options { limit: 0, ..Options::default() }).is_err());
        assert!(Gurka.setup(3, Options { buy_ins: 99, ..Options::default() }).is_err());
    }
}
