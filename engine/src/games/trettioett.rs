//! Trettioett (Thirty-one): three cards each, draw and discard, and the best hand in one suit
//! counts, with 31 (an ace and two ten-cards of a suit, or three aces) the best of all.
//!
//! On a turn a player takes the face-up top card of the pile or the unseen top card of the
//! stock and discards one card face up; or knocks instead, after which everyone else has one
//! more turn and the hands are shown. Reaching 31 after a turn wins at once. The pot game
//! stakes before every deal and leaves the pot on a tie; the lives game stakes nothing before a
//! deal, makes the lowest hand (or everyone but a 31) pay a mark, puts out whoever has paid
//! their last, and the last one left takes the pot.
//!
//! The engine shuffles nothing: a stock that runs out is renewed from the pile turned over as
//! it lies, top card kept, and the event says so; a deal nobody knocks in ends in a showdown
//! after a number of rounds (an option), so every deal ends.

use std::ops::RangeInclusive;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, is_permutation, rank_value, sorted, take_card, Card, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::ledger::{Account, Ledger, Payment};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{match_winners, seats_text, Seat, Table as Seating};

#[derive(Default)]
pub struct Trettioett;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 7;
pub const HAND: usize = 3;
/// 31 in half points: hands are counted in halves so that the English 30½ is exact.
pub const THIRTY_ONE: u32 = 62;
/// Guards against a typo turning a friendly game into an overflow: no rule names a limit.
pub const MAX_STAKE: i64 = 1_000_000;
pub const MAX_ROUNDS: u32 = 100;
pub const MAX_LIVES: i64 = 100;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "trettioett.pack.players";
    pub const PACK: &str = "trettioett.pack.cards";
    pub const VALUES: &str = "trettioett.pack.values";

    pub const ANTE: &str = "trettioett.stakes.ante";
    pub const TIE: &str = "trettioett.stakes.tie";

    pub const THREE_EACH: &str = "trettioett.deal.three-each";

    pub const ORDER: &str = "trettioett.turn.order";
    pub const DRAW: &str = "trettioett.turn.draw";
    pub const DISCARD: &str = "trettioett.turn.discard";

    pub const THIRTY_ONE: &str = "trettioett.hand.thirty-one";

    pub const WINS_AT_ONCE: &str = "trettioett.win.thirty-one";
    pub const KNOCK: &str = "trettioett.knock.knock";
    pub const SHOWDOWN: &str = "trettioett.knock.showdown";

    pub const KNOCKER_WINS_TIES: &str = "trettioett.variant.knocker-wins-ties";
    pub const LIVES_THIRTY_ONE: &str = "trettioett.variant.lives-thirty-one";
    pub const LIVES_LOWEST: &str = "trettioett.variant.lives-lowest";
    pub const LIVES_LAST: &str = "trettioett.variant.lives-last";

    pub const FIRST_DEALER: &str = "trettioett.house.first-dealer";
    pub const DEAL_SINGLY: &str = "trettioett.house.deal-singly";
    pub const PILE_CARD_KEPT: &str = "trettioett.house.pile-card-kept";
    pub const KNOCK_ONCE: &str = "trettioett.house.knock-once";
    pub const ALL_TIED: &str = "trettioett.house.all-tied";
    pub const MATCH_END: &str = "trettioett.house.match-end";
    pub const WINNERS: &str = "trettioett.house.winners";
}

// ---------------------------------------------------------------------------------------------
// Options

/// What the match is played for.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stakes {
    /// Everyone stakes before every deal and the best hand takes the pot.
    Pot,
    /// Everyone starts with a number of marks; the worst hand pays one after each deal.
    Lives,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The pot game (the text's main rules) or the lives game (its traditional variant).
    pub stakes: Stakes,
    /// What each player puts into the pot before every deal of the pot game.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000000))]
    pub stake: i64,
    /// Marks each player starts the lives game with.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub lives: i64,
    /// The pot game: how many deals each seat deals before the match ends (more are played
    /// while the pot still holds chips after a tie).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub rounds: u32,
    /// A tie for the best hand at the showdown goes to the knocker if the knocker is in it.
    pub knocker_wins_ties: bool,
    /// The English variant: three of a kind counts 30½, three aces too (not 31).
    pub trips: bool,
    /// Rounds of turns without a knock after which the hands are shown anyway.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub round_limit: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            stakes: Stakes::Pot,
            stake: 1,
            lives: 5,
            rounds: 1,
            knocker_wins_ties: false,
            trips: false,
            round_limit: 10,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal` before the first deal, `drawing` while the player to
/// move may draw or knock, `discarding` once they have drawn, `deal-over` once the deal is
/// settled, `finished` once the match is over.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Drawing,
    Discarding,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// Where a drawn card came from.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    Stock,
    Pile,
}

/// What a hand is worth: its best suit, or three of a kind in the English variant.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = TrettioettHandValue))]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandValue {
    /// The points: the best suit's sum, 31 for three aces, 30.5 for three of a kind (variant).
    pub points: f64,
    /// The suit counted; null for three aces or three of a kind.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub suit: Option<Suit>,
}

/// A hand laid on the table with its worth.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShownHand {
    pub cards: Vec<Card>,
    pub value: HandValue,
}

/// How a deal ended: why the hands were shown, who won, and the money.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settlement {
    /// The seat with 31 or the best hand that took the pot; null on a tie and in the lives game
    /// until the last player is left.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winner: Option<Seat>,
    /// Seats that paid a mark (lives game).
    pub paid_marks: Vec<Seat>,
    /// Seats put out of the match by this deal (lives game).
    pub eliminated: Vec<Seat>,
    /// The pot after the deal: what stays for the next deal.
    pub pot: i64,
    /// Every payment of the deal: stakes, marks, the pot paid out.
    pub payments: Vec<Payment>,
    /// The deal's money by seat, term by term.
    pub terms: Vec<ScoreTerm>,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    /// Seats dealt in (the lives game leaves out those who are out).
    playing: Vec<bool>,
    hands: Vec<Vec<Card>>,
    /// Top card first.
    stock: Vec<Card>,
    /// Top card last.
    pile: Vec<Card>,
    /// Every card that has lain face up on the pile this deal: everyone knows it, wherever it
    /// went after.
    seen: BTreeSet<Card>,
    to_play: Seat,
    drawn: Option<(Source, Card)>,
    knocker: Option<Seat>,
    /// Full rounds completed when the knock came (public: everyone saw when).
    knocked_in_round: u32,
    /// By seat, the last card it threw to the pile and the pile card it took that turn, if any
    /// (public: the seat's hand is unchanged since, so it kept what it thought best).
    last_thrown: Vec<Option<(Card, Option<Card>)>>,
    /// Turns completed (a knock is a turn).
    turns: u32,
    pile_turns: u32,
    opening_pot: i64,
    stakes: Vec<Payment>,
    shown: Vec<Option<ShownHand>>,
    thirty_one: Option<Seat>,
    over: bool,
    settlement: Option<Settlement>,
}

impl Deal {
    fn players(&self) -> usize {
        self.playing.len()
    }

    fn active(&self) -> usize {
        self.playing.iter().filter(|&&p| p).count()
    }

    /// The next seat dealt in, clockwise.
    fn next(&self, seat: Seat) -> Seat {
        next_playing(&self.playing, seat)
    }

    fn pile_top(&self) -> Option<Card> {
        self.pile.last().copied()
    }
}

/// The next seat in `playing` after `seat`, clockwise (to the left).
fn next_playing(playing: &[bool], seat: Seat) -> Seat {
    let n = playing.len();
    (1..=n).map(|i| (seat + i) % n).find(|&s| playing[s]).unwrap_or(seat)
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
        if self.over {
            Phase::DealOver
        } else if self.drawn.is_some() {
            Phase::Discarding
        } else {
            Phase::Drawing
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    table: Seating,
    deals: Deals<Deal>,
    ledger: Ledger,
    /// Deals settled before the current one ends.
    deals_played: u32,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }

    fn deals_scheduled(&self) -> u32 {
        self.options.rounds * self.players() as u32
    }

    fn pot(&self) -> i64 {
        self.ledger.balance(Account::Pot)
    }

    fn lives_game(&self) -> bool {
        self.options.stakes == Stakes::Lives
    }

    /// Seats still in: everyone in the pot game, those with a mark left in the lives game.
    fn in_play(&self) -> Vec<bool> {
        (0..self.players()).map(|s| !self.lives_game() || self.lives_left(s) > 0).collect()
    }

    fn lives_left(&self, seat: Seat) -> i64 {
        self.options.lives + self.ledger.balance(Account::Seat(seat))
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Draw the unseen top card of the stock.
    DrawFromStock,
    /// Take the face-up top card of the pile.
    TakeFromPile,
    /// Discard a card face up on the pile, ending the turn.
    Discard { card: Card },
    /// Knock instead of drawing: everyone else has one more turn, then the hands are shown.
    Knock,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        /// Deals settled before this one.
        deals_played: u32,
        dealer: Seat,
        forehand: Seat,
        /// By seat, whether the seat is dealt in (the lives game leaves out those who are out).
        playing: Vec<bool>,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's three cards, sorted (empty for a seat not dealt in).
        hands: Vec<Vec<Card>>,
        /// The card turned up to start the pile.
        upcard: Card,
        /// The pot before this deal's stakes.
        pot: i64,
        /// Seat balances before this deal's stakes.
        balances: Vec<i64>,
        options: Options,
    },
    StakesPaid {
        payments: Vec<Payment>,
        /// The pot after the stakes.
        pot: i64,
    },
    /// The card is shown only to the player who drew it while the deal lasts.
    DrewFromStock {
        seat: Seat,
        card: Card,
    },
    TookFromPile {
        seat: Seat,
        card: Card,
    },
    Discarded {
        seat: Seat,
        card: Card,
    },
    Knocked {
        seat: Seat,
    },
    /// The stock ran out: the pile but its top card was turned face down as it lay, its bottom
    /// card now the stock's top.
    PileTurned {
        /// The new stock, top card first.
        stock: Vec<Card>,
    },
    /// A player reached 31 after a turn and laid the hand down.
    ThirtyOneShown {
        seat: Seat,
        hand: Vec<Card>,
    },
    /// The hands are shown after a knock, or when the round limit is reached without one.
    HandsShown {
        /// The knocker; null when the round limit ended the deal.
        #[cfg_attr(feature = "openapi", schema(required = true))]
        knocker: Option<Seat>,
        /// By seat, the hand and its worth; null for a seat not dealt in.
        hands: Vec<Option<ShownHand>>,
    },
    DealScored {
        deal_number: u32,
        /// Who took the pot; null on a tie or while the lives game goes on.
        #[cfg_attr(feature = "openapi", schema(required = true))]
        winner: Option<Seat>,
        /// By seat, the points of the hand shown; null for hands not shown.
        values: Vec<Option<f64>>,
        /// Seats that paid a mark (lives game).
        paid_marks: Vec<Seat>,
        /// Seats that paid their last mark and are out (lives game).
        eliminated: Vec<Seat>,
        /// Payments at the end of the deal (marks, the pot paid out).
        payments: Vec<Payment>,
        /// The pot after the deal.
        pot: i64,
        /// The deal's money by seat, term by term, stakes included.
        terms: Vec<ScoreTerm>,
        /// The deal's money by seat.
        points: Vec<i64>,
        /// Seat balances after this deal.
        scores: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        balances: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Rules that are pure functions, kept apart so tests can reach them directly

/// A card's points: ace 11, court cards 10, the others their number.
pub fn card_points(card: Card) -> u32 {
    match rank_value(card) {
        14 => 11,
        11..=13 => 10,
        n => u32::from(n),
    }
}

/// A hand's worth in half points: the best suit's sum doubled; three aces 62 (31), or with
/// `trips` any three of a kind 61 (30½), aces too.
pub fn hand_halves(hand: &[Card], trips: bool) -> (u32, Option<Suit>) {
    let best = Suit::ALL
        .iter()
        .map(|&s| (2 * hand.iter().filter(|c| c.is_suit(s)).map(|&c| card_points(c)).sum::<u32>(), Some(s)))
        .max_by_key(|&(v, s)| (v, std::cmp::Reverse(s)))
        .unwrap_or((0, None));
    let three_alike = hand.len() == HAND && hand.iter().all(|&c| rank_value(c) == rank_value(hand[0]));
    if three_alike && trips {
        // Three cards of one rank are of three suits, so no suit of theirs counts as much.
        return (61, None);
    }
    if three_alike && rank_value(hand[0]) == 14 {
        return (THIRTY_ONE, None);
    }
    best
}

pub fn hand_value(hand: &[Card], trips: bool) -> HandValue {
    let (halves, suit) = hand_halves(hand, trips);
    HandValue { points: f64::from(halves) / 2.0, suit }
}

/// The best three of `cards` to keep, never giving up `keep`: the discard that leaves most.
pub fn best_discard(hand: &[Card], keep: Option<Card>, trips: bool) -> Card {
    let mut best: Option<(u32, u32, Card)> = None;
    for &c in hand {
        if Some(c) == keep {
            continue;
        }
        let mut rest = hand.to_vec();
        take_card(&mut rest, c);
        let key = (hand_halves(&rest, trips).0, 100 - card_points(c));
        if best.is_none_or(|(v, p, _)| key > (v, p)) {
            best = Some((key.0, key.1, c));
        }
    }
    best.map(|b| b.2).unwrap_or(hand[0])
}

fn opening_ledger(balances: &[i64]) -> Ledger {
    let mut ledger = Ledger::new();
    // Every chip a seat is up came out of the pot and every chip it is down went in, so the pot
    // is what the seats are down between them.
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

fn points_of(players: usize, terms: &[ScoreTerm]) -> Vec<i64> {
    let mut points = vec![0; players];
    for t in terms {
        points[t.to] += t.points;
    }
    points
}

fn plus(scores: &[i64], points: &[i64]) -> Vec<i64> {
    scores.iter().zip(points).map(|(a, b)| a + b).collect()
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_draw(deal: &Deal, seat: Seat, source: Source) -> Result<Vec<Event>, RuleViolation> {
    if deal.drawn.is_some() {
        return Err(RuleViolation::new(
            rule::DISCARD,
            "Du har redan dragit ett kort; nu ska du kasta ett.",
            "You have already drawn a card; now discard one.",
        ));
    }
    if source == Source::Pile {
        return Ok(vec![Event::TookFromPile { seat, card: deal.pile_top().expect("the pile is never empty") }]);
    }
    if let Some(&card) = deal.stock.first() {
        return Ok(vec![Event::DrewFromStock { seat, card }]);
    }
    // The stock ran out: the pile but its top card is turned over as it lies, its bottom card
    // coming on top, and the draw is made from it.
    let stock = deal.pile[..deal.pile.len() - 1].to_vec();
    let card = stock[0];
    Ok(vec![Event::PileTurned { stock }, Event::DrewFromStock { seat, card }])
}

fn decide_knock(deal: &Deal, seat: Seat) -> Result<Vec<Event>, RuleViolation> {
    if deal.drawn.is_some() {
        return Err(RuleViolation::new(
            rule::KNOCK,
            "Den som knackar drar inget kort; du har redan dragit och ska nu kasta.",
            "A knocker draws no card; you have already drawn and must now discard.",
        ));
    }
    if let Some(k) = deal.knocker {
        return Err(RuleViolation::new(
            rule::KNOCK_ONCE,
            format!("Plats {k} har redan knackat; det går bara ett sista varv."),
            format!("Seat {k} has already knocked; only the last round remains."),
        ));
    }
    Ok(vec![Event::Knocked { seat }])
}

fn decide_discard(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    let Some((source, drawn)) = deal.drawn else {
        return Err(RuleViolation::new(
            rule::DRAW,
            "Först drar man ett kort, från talongen eller högen, sedan kastar man.",
            "First draw a card, from the stock or the pile, then discard.",
        ));
    };
    if !deal.hands[seat].contains(&card) {
        return Err(RuleViolation::card_not_held(card));
    }
    if source == Source::Pile && card == drawn {
        return Err(RuleViolation::new(
            rule::PILE_CARD_KEPT,
            format!("{card} tog du från högen; det kortet får du inte kasta tillbaka i samma drag."),
            format!("You took {card} from the pile; you may not discard it back in the same turn."),
        ));
    }
    let mut events = vec![Event::Discarded { seat, card }];
    let mut hand = deal.hands[seat].clone();
    take_card(&mut hand, card);
    let trips = state.options.trips;
    if hand_halves(&hand, trips).0 == THIRTY_ONE {
        events.push(Event::ThirtyOneShown { seat, hand: sorted(hand) });
        events.extend(score_deal(state, deal, Some(seat), None, &[]));
        return Ok(events);
    }
    let next = deal.next(seat);
    let limit = deal.knocker.is_none() && deal.turns + 1 >= state.options.round_limit * deal.active() as u32;
    if deal.knocker == Some(next) || limit {
        let mut hands = deal.hands.clone();
        hands[seat] = hand;
        events.extend(showdown(state, deal, &hands));
    }
    Ok(events)
}

fn showdown(state: &State, deal: &Deal, hands: &[Vec<Card>]) -> Vec<Event> {
    let shown: Vec<Option<ShownHand>> = (0..deal.players())
        .map(|s| {
            deal.playing[s].then(|| ShownHand {
                cards: sorted(hands[s].clone()),
                value: hand_value(&hands[s], state.options.trips),
            })
        })
        .collect();
    let halves: Vec<Option<u32>> =
        (0..deal.players()).map(|s| deal.playing[s].then(|| hand_halves(&hands[s], state.options.trips).0)).collect();
    let mut events = vec![Event::HandsShown { knocker: deal.knocker, hands: shown }];
    let best = halves.iter().flatten().copied().max().unwrap_or(0);
    let top: Vec<Seat> = (0..deal.players()).filter(|&s| halves[s] == Some(best)).collect();
    let winner = match top[..] {
        [only] => Some(only),
        _ if state.options.knocker_wins_ties => deal.knocker.filter(|k| top.contains(k)),
        _ => None,
    };
    events.extend(score_deal(state, deal, None, winner, &halves));
    events
}

/// Settles the deal: `thirty_one` is the seat that reached 31; otherwise `best` is the winner
/// of the showdown (none on a tie) and `halves` the hands' worth.
fn score_deal(
    state: &State,
    deal: &Deal,
    thirty_one: Option<Seat>,
    best: Option<Seat>,
    halves: &[Option<u32>],
) -> Vec<Event> {
    let players = deal.players();
    let pot = state.pot();
    let mut payments = Vec::new();
    let mut terms: Vec<ScoreTerm> = deal
        .stakes
        .iter()
        .filter_map(|p| match p.from {
            Account::Seat(s) => Some(ScoreTerm::new(
                s,
                -p.amount,
                rule::ANTE,
                format!("Plats {s} satsade {} i potten.", p.amount),
                format!("Seat {s} staked {} into the pot.", p.amount),
            )),
            _ => None,
        })
        .collect();
    let mut winner = None;
    let mut paid_marks = Vec::new();
    let mut eliminated = Vec::new();
    let mut values: Vec<Option<f64>> = halves.iter().map(|h| h.map(|v| f64::from(v) / 2.0)).collect();
    if values.is_empty() {
        values = vec![None; players];
    }
    if let Some(w) = thirty_one {
        values[w] = Some(31.0);
    }
    let mut pot_after = pot;
    if state.lives_game() {
        let active: Vec<Seat> = (0..players).filter(|&s| deal.playing[s]).collect();
        let (payers, why, sv, en): (Vec<Seat>, &str, &str, &str) = match thirty_one {
            Some(w) => (
                active.iter().copied().filter(|&s| s != w).collect(),
                rule::LIVES_THIRTY_ONE,
                "betalar en mark: någon fick 31",
                "pays a mark: somebody reached 31",
            ),
            None => {
                let low = halves.iter().flatten().copied().min().unwrap_or(0);
                let lowest: Vec<Seat> = active.iter().copied().filter(|&s| halves[s] == Some(low)).collect();
                if lowest.len() == active.len() {
                    (Vec::new(), rule::ALL_TIED, "", "")
                } else {
                    (lowest, rule::LIVES_LOWEST, "betalar en mark för lägsta handen", "pays a mark for the lowest hand")
                }
            }
        };
        for &s in &payers {
            payments.push(Payment::new(
                Account::Seat(s),
                Account::Pot,
                1,
                why,
                format!("Plats {s} {sv}."),
                format!("Seat {s} {en}."),
            ));
            terms.push(ScoreTerm::new(s, -1, why, format!("Plats {s} {sv}."), format!("Seat {s} {en}.")));
            pot_after += 1;
            if state.lives_left(s) == 1 {
                eliminated.push(s);
            }
        }
        paid_marks = payers;
        let left: Vec<Seat> = active.iter().copied().filter(|s| !eliminated.contains(s)).collect();
        if let [last] = left[..] {
            winner = Some(last);
            payments.push(Payment::new(
                Account::Pot,
                Account::Seat(last),
                pot_after,
                rule::LIVES_LAST,
                format!("Plats {last} är ensam kvar och tar potten: {pot_after}."),
                format!("Seat {last} is the last one left and takes the pot: {pot_after}."),
            ));
            terms.push(ScoreTerm::new(
                last,
                pot_after,
                rule::LIVES_LAST,
                format!("Plats {last} är ensam kvar och tar hela potten: {pot_after}."),
                format!("Seat {last} is the last one left and takes the whole pot: {pot_after}."),
            ));
            pot_after = 0;
        }
    } else {
        let (w, why) = match thirty_one {
            Some(w) => (Some(w), rule::WINS_AT_ONCE),
            None if best.is_some() => {
                let top = halves.iter().flatten().filter(|&&h| best.is_some_and(|b| Some(h) == halves[b])).count();
                (best, if top > 1 { rule::KNOCKER_WINS_TIES } else { rule::SHOWDOWN })
            }
            None => (None, rule::TIE),
        };
        if let Some(w) = w {
            let (sv, en) = if thirty_one.is_some() {
                ("fick 31 och tar", "reached 31 and takes")
            } else if why == rule::KNOCKER_WINS_TIES {
                ("knackade, delar bästa handen och tar", "knocked, shares the best hand and takes")
            } else {
                ("har bästa handen och tar", "has the best hand and takes")
            };
            payments.push(Payment::new(
                Account::Pot,
                Account::Seat(w),
                pot,
                why,
                format!("Plats {w} {sv} potten: {pot}."),
                format!("Seat {w} {en} the pot: {pot}."),
            ));
            terms.push(ScoreTerm::new(
                w,
                pot,
                why,
                format!("Plats {w} {sv} hela potten: {pot}."),
                format!("Seat {w} {en} the whole pot: {pot}."),
            ));
            winner = Some(w);
            pot_after = 0;
        }
    }
    let points = points_of(players, &terms);
    let scores = plus(&state.deals.scores, &points);
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        winner,
        values,
        paid_marks,
        eliminated: eliminated.clone(),
        payments,
        pot: pot_after,
        terms,
        points,
        scores: scores.clone(),
    }];
    let played = state.deals_played + 1;
    if state.lives_game() {
        if let Some(last) = winner {
            events.push(Event::MatchEnded {
                winners: vec![last],
                balances: scores,
                explanation: Text::new(
                    format!("Alla andra har betalat sin sista mark; plats {last} är ensam kvar och vinner potten."),
                    format!(
                        "Everyone else has paid their last mark; seat {last} is the last one left and wins the pot."
                    ),
                ),
            });
        }
    } else if played >= state.deals_scheduled() && pot_after == 0 {
        let winners = match_winners(&scores);
        let top = scores[winners[0]];
        let who = seats_text(&winners);
        let explanation = if winners.len() == 1 {
            Text::new(
                format!("{played} givar är spelade och potten är tom; plats {who} har vunnit mest: {top}."),
                format!("{played} deals are played and the pot is empty; seat {who} is furthest ahead: {top}."),
            )
        } else {
            Text::new(
                format!("{played} givar är spelade och potten är tom; platserna {who} delar segern med {top} var."),
                format!("{played} deals are played and the pot is empty; seats {who} share the win with {top} each."),
            )
        };
        events.push(Event::MatchEnded { winners, balances: scores, explanation });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match and its money, the stock's size, the pile's top
/// card, the hands shown at the end, and the viewer's own hand. A deal's record shows every hand,
/// its worth and the whole pile at every step, and the deck once the deal is over.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, balances at the end of the last deal, who is to act.
    #[serde(flatten)]
    pub deals: MatchView,

    /// The options the match is played with.
    pub options: Options,
    /// The pot game: deals that make the match (more while a tie leaves chips in the pot).
    pub deals_scheduled: u32,
    /// Deals settled so far.
    pub deals_played: u32,
    /// Chips in the pot now.
    pub pot: i64,
    /// Each seat's chips won (negative: paid in) now, stakes of the current deal included.
    pub balances: Vec<i64>,
    /// The lives game: marks each seat has left (0: out); absent in the pot game.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub lives: Option<Vec<i64>>,
    /// The deal's forehand: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// By seat, whether it is dealt in: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub playing: Option<Vec<bool>>,
    /// The seat whose turn it is: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// Cards each seat holds: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// Cards left in the stock: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub stock_size: Option<usize>,
    /// Cards in the pile: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile_size: Option<usize>,
    /// The pile's face-up top card: null when the pile is empty (its only card just taken),
    /// absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pile_top: Option<Option<Card>>,
    /// The card the player to move took from the pile this turn (it may not go back): null
    /// otherwise, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taken_from_pile: Option<Option<Card>>,
    /// Who knocked: null before a knock, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knocker: Option<Option<Seat>>,
    /// Turns taken this deal (a knock is a turn): absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turns: Option<u32>,
    /// Times the pile was turned over as a new stock this deal: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile_turns: Option<u32>,
    /// By seat, the hand laid on the table at the end with its worth; null while unshown,
    /// absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub shown: Option<Vec<Option<ShownHand>>>,
    /// How the deal ended: null until it is over, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settlement: Option<Option<Settlement>>,
    /// The pack as it was dealt, top card first: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// Every hand: only in a deal's record, at every step of it (a replay step shows the hands
    /// as they were then).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// By seat, what its hand of three is worth (null for a seat holding four cards between its
    /// draw and its discard, or not dealt in): only in a deal's record, at every step of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_values: Option<Vec<Option<HandValue>>>,
    /// The cards in the pile, bottom first (the last is `pile_top`), every one of them seen face
    /// up: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile: Option<Vec<Card>>,
    /// The viewer's own hand: only in a seat's view, from the first deal on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

// ---------------------------------------------------------------------------------------------
// The bot

fn bot_choice(state: &State, deal: &Deal, seat: Seat, rng: &mut Rng) -> Command {
    let trips = state.options.trips;
    let hand = &deal.hands[seat];
    if let Some((source, card)) = deal.drawn {
        let keep = (source == Source::Pile).then_some(card);
        return Command::Discard { card: best_discard(hand, keep, trips) };
    }
    let now = hand_halves(hand, trips).0;
    // Knock on a good hand, more readily as the deal wears on.
    let rounds = deal.turns / deal.active() as u32;
    let threshold = 54u32.saturating_sub(2 * rounds).saturating_sub(2 * rng.below(3) as u32);
    if deal.knocker.is_none() && rounds >= 1 && now >= threshold {
        return Command::Knock;
    }
    if let Some(top) = deal.pile_top() {
        let mut with = hand.clone();
        with.push(top);
        let discard = best_discard(&with, Some(top), trips);
        take_card(&mut with, discard);
        if hand_halves(&with, trips).0 > now + 2 * rng.below(3) as u32 {
            return Command::TakeFromPile;
        }
    }
    Command::DrawFromStock
}

/// The hand (in half points) the basic bot knocks on after the first round: 26, a point less
/// each round after, since the others improve the longer the deal goes on.
const KNOCK_AT: u32 = 52;

/// The rule-of-thumb move: take the pile's top card when it makes a better hand, else draw
/// blind; discard what leaves the best suit total; knock on a hand strong for the round.
fn basic_choice(state: &State, deal: &Deal, seat: Seat) -> Option<Command> {
    if deal.to_play != seat {
        return None;
    }
    let trips = state.options.trips;
    let hand = &deal.hands[seat];
    if let Some((source, card)) = deal.drawn {
        let keep = (source == Source::Pile).then_some(card);
        return Some(Command::Discard { card: best_discard(hand, keep, trips) });
    }
    let now = hand_halves(hand, trips).0;
    let rounds = deal.turns / deal.active() as u32;
    if deal.knocker.is_none() && rounds >= 1 && now >= KNOCK_AT.saturating_sub(2 * rounds) {
        return Some(Command::Knock);
    }
    if let Some(top) = deal.pile_top() {
        let mut with = hand.clone();
        with.push(top);
        let discard = best_discard(&with, Some(top), trips);
        take_card(&mut with, discard);
        if hand_halves(&with, trips).0 > now {
            return Some(Command::TakeFromPile);
        }
    }
    Some(Command::DrawFromStock)
}

/// Whether `hand`, another seat's hand in a sampled world, fits what that seat showed the
/// table: its last throw was its worst card (the hand is unchanged since), and a knocker held a
/// hand basic would knock on.
fn fits_evidence(deal: &Deal, seat: Seat, hand: &[Card], trips: bool) -> bool {
    let now = hand_halves(hand, trips).0;
    if let Some((thrown, kept)) = deal.last_thrown[seat] {
        let swap_better = hand.iter().filter(|&&c| Some(c) != kept).any(|&c| {
            let mut other = hand.to_vec();
            take_card(&mut other, c);
            other.push(thrown);
            hand_halves(&other, trips).0 > now
        });
        if swap_better {
            return false;
        }
    }
    if deal.knocker == Some(seat) && now < KNOCK_AT.saturating_sub(2 * deal.knocked_in_round) {
        return false;
    }
    true
}

/// Fresh hands dealt per seat before settling for one that does not fit the evidence.
const HAND_TRIES: usize = 24;

/// The deal as `seat` knows it on its turn: its own hand, the pile, and every card that has
/// lain face up where it went since (taken from the pile in sight, or in a stock turned over
/// as it lay); the cards never shown, in the other hands and the stock, dealt afresh into the
/// same places, each other hand redealt until it fits what its seat showed (`fits_evidence`):
/// their real hands were built toward a suit, not dealt at random.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    // Between another seat's draw and discard the drawn card would be theirs to know.
    if deal.to_play != seat {
        return None;
    }
    let trips = state.options.trips;
    let unseen = |c: &Card| !deal.seen.contains(c);
    let mut pool: Vec<Card> =
        decks::standard52().into_iter().filter(|c| unseen(c) && !deal.hands[seat].contains(c)).collect();
    rng.shuffle(&mut pool);
    let others: Vec<Seat> = (0..deal.players()).filter(|&s| s != seat).collect();
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    for &s in &others {
        let known: Vec<Card> = deal.hands[s].iter().copied().filter(|c| !unseen(c)).collect();
        let fresh = deal.hands[s].len() - known.len();
        if fresh > pool.len() {
            return None;
        }
        let mut pick = Vec::new();
        for _ in 0..HAND_TRIES {
            // A random `fresh` cards of the pool moved to its end.
            for k in 0..fresh {
                let i = rng.below(pool.len() - k);
                let last = pool.len() - 1 - k;
                pool.swap(i, last);
            }
            pick = pool[pool.len() - fresh..].to_vec();
            let hand: Vec<Card> = known.iter().copied().chain(pick.iter().copied()).collect();
            if fits_evidence(deal, s, &hand, trips) {
                break;
            }
        }
        pool.truncate(pool.len() - fresh);
        let mut pick = pick.into_iter();
        for c in w.hands[s].iter_mut().filter(|c| unseen(c)) {
            *c = pick.next().expect("a fresh card for every unseen one");
        }
    }
    rng.shuffle(&mut pool);
    let mut rest = pool.into_iter();
    for c in w.stock.iter_mut().filter(|c| unseen(c)) {
        *c = rest.next()?;
    }
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Trettioett {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "trettioett";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/trettioett.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options { knocker_wins_ties: true, trips: true, stake: 3, rounds: 2, ..Options::default() },
            Options { stakes: Stakes::Lives, lives: 2, round_limit: 3, ..Options::default() },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_STAKE).contains(&options.stake) {
            return Err(SetupError(format!("stake must be 1 to {MAX_STAKE}, not {}", options.stake)));
        }
        if !(1..=MAX_LIVES).contains(&options.lives) {
            return Err(SetupError(format!("lives must be 1 to {MAX_LIVES}, not {}", options.lives)));
        }
        if !(1..=MAX_ROUNDS).contains(&options.rounds) {
            return Err(SetupError(format!("rounds must be 1 to {MAX_ROUNDS}, not {}", options.rounds)));
        }
        if !(1..=MAX_ROUNDS).contains(&options.round_limit) {
            return Err(SetupError(format!("round_limit must be 1 to {MAX_ROUNDS}, not {}", options.round_limit)));
        }
        Ok(State {
            options,
            table: Seating::new(players),
            deals: Deals::new(players),
            ledger: Ledger::new(),
            deals_played: 0,
        })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let playing = state.in_play();
        let mut dealer = state.deals.next_dealer;
        if !playing[dealer] {
            dealer = next_playing(&playing, dealer);
        }
        let forehand = next_playing(&playing, dealer);
        let active = playing.iter().filter(|&&p| p).count();
        let mut hands = vec![Vec::new(); state.players()];
        for (i, &card) in deck[..HAND * active].iter().enumerate() {
            let mut seat = dealer;
            for _ in 0..=i % active {
                seat = next_playing(&playing, seat);
            }
            hands[seat].push(card);
        }
        let pot = state.pot();
        let mut events = vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            deals_played: state.deals_played,
            dealer,
            forehand,
            playing: playing.clone(),
            upcard: deck[HAND * active],
            deck,
            hands: hands.into_iter().map(sorted).collect(),
            pot,
            balances: state.ledger.seats(state.players()),
            options: state.options.clone(),
        }];
        if !state.lives_game() {
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
            Command::DrawFromStock => decide_draw(deal, seat, Source::Stock),
            Command::TakeFromPile => decide_draw(deal, seat, Source::Pile),
            Command::Discard { card } => decide_discard(state, deal, seat, card),
            Command::Knock => decide_knock(deal, seat),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted {
                deal_number,
                deals_played,
                dealer,
                forehand,
                playing,
                deck,
                hands,
                upcard,
                pot,
                balances,
                options,
            } => {
                // The deal carries what it inherits, so it can be replayed on its own.
                state.options = options.clone();
                state.table = Seating::new(hands.len());
                state.deals_played = *deals_played;
                state.ledger = opening_ledger(balances);
                debug_assert_eq!(state.pot(), *pot);
                state.deals.next_dealer = next_playing(playing, *dealer);
                let dealt = HAND * playing.iter().filter(|&&p| p).count();
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    playing: playing.clone(),
                    hands: hands.clone(),
                    stock: deck[dealt + 1..].to_vec(),
                    pile: vec![*upcard],
                    seen: BTreeSet::from([*upcard]),
                    to_play: *forehand,
                    drawn: None,
                    knocker: None,
                    knocked_in_round: 0,
                    last_thrown: vec![None; hands.len()],
                    turns: 0,
                    pile_turns: 0,
                    opening_pot: *pot,
                    stakes: Vec::new(),
                    shown: vec![None; hands.len()],
                    thirty_one: None,
                    over: false,
                    settlement: None,
                };
                state.deals.started(*deal_number, balances, deal);
            }
            Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                match event {
                    Event::StakesPaid { payments, .. } => {
                        for p in payments {
                            state.ledger.pay(p);
                            deal.stakes.push(p.clone());
                        }
                    }
                    Event::DrewFromStock { seat, card } => {
                        if !deal.stock.is_empty() {
                            deal.stock.remove(0);
                        }
                        deal.hands[*seat].push(*card);
                        deal.drawn = Some((Source::Stock, *card));
                    }
                    Event::TookFromPile { seat, card } => {
                        deal.pile.pop();
                        deal.hands[*seat].push(*card);
                        deal.drawn = Some((Source::Pile, *card));
                    }
                    Event::Discarded { seat, card } => {
                        let kept = deal.drawn.and_then(|(source, c)| (source == Source::Pile).then_some(c));
                        deal.last_thrown[*seat] = Some((*card, kept));
                        take_card(&mut deal.hands[*seat], *card);
                        deal.hands[*seat] = sorted(std::mem::take(&mut deal.hands[*seat]));
                        deal.pile.push(*card);
                        deal.seen.insert(*card);
                        deal.drawn = None;
                        deal.turns += 1;
                        deal.to_play = deal.next(*seat);
                    }
                    Event::Knocked { seat } => {
                        deal.knocker = Some(*seat);
                        deal.knocked_in_round = deal.turns / deal.active() as u32;
                        deal.turns += 1;
                        deal.to_play = deal.next(*seat);
                    }
                    Event::PileTurned { stock } => {
                        let top = deal.pile.pop();
                        deal.stock.extend(stock.iter().copied());
                        deal.pile = top.into_iter().collect();
                        deal.pile_turns += 1;
                    }
                    Event::ThirtyOneShown { seat, hand } => {
                        deal.thirty_one = Some(*seat);
                        deal.shown[*seat] =
                            Some(ShownHand { cards: hand.clone(), value: hand_value(hand, state.options.trips) });
                        deal.over = true;
                    }
                    Event::HandsShown { hands, .. } => {
                        deal.shown = hands.clone();
                        deal.over = true;
                    }
                    Event::DealScored { winner, paid_marks, eliminated, payments, pot, terms, scores, .. } => {
                        for p in payments {
                            state.ledger.pay(p);
                        }
                        let mut all = deal.stakes.clone();
                        all.extend(payments.iter().cloned());
                        deal.settlement = Some(Settlement {
                            winner: *winner,
                            paid_marks: paid_marks.clone(),
                            eliminated: eliminated.clone(),
                            pot: *pot,
                            payments: all,
                            terms: terms.clone(),
                        });
                        deal.over = true;
                        let dealer = deal.dealer;
                        state.deals_played += 1;
                        state.deals.scored(terms, scores);
                        // The next dealer is the next seat still in after this deal's dealer.
                        let in_play = state.in_play();
                        state.deals.next_dealer = next_playing(&in_play, dealer);
                    }
                    Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        match deal.drawn {
            Some((source, drawn)) => deal.hands[seat]
                .iter()
                .filter(|&&c| source == Source::Stock || c != drawn)
                .map(|&card| Command::Discard { card })
                .collect(),
            None => {
                let mut moves = vec![Command::DrawFromStock, Command::TakeFromPile];
                if deal.knocker.is_none() {
                    moves.push(Command::Knock);
                }
                moves
            }
        }
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        let mut moves = vec![Command::DrawFromStock, Command::TakeFromPile, Command::Knock];
        moves.extend(decks::standard52().into_iter().map(|card| Command::Discard { card }));
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(state.players());
        let deal = state.deals.deal.as_ref();
        let record = deal.filter(|_| viewer == Viewer::Record);
        let full = record.filter(|d| d.over);
        let live = deal.filter(|d| !d.over);
        let trips = state.options.trips;
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, state.players(), deal.map(|d| d.dealer)),
            options: state.options.clone(),
            deals_scheduled: state.deals_scheduled(),
            deals_played: state.deals_played,
            pot: state.pot(),
            balances: state.ledger.seats(state.players()),
            lives: state.lives_game().then(|| (0..state.players()).map(|s| state.lives_left(s).max(0)).collect()),
            forehand: deal.map(|d| d.next(d.dealer)),
            playing: deal.map(|d| d.playing.clone()),
            to_play: deal.map(|d| d.to_play),
            hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
            stock_size: deal.map(|d| d.stock.len()),
            pile_size: deal.map(|d| d.pile.len()),
            pile_top: deal.map(Deal::pile_top),
            taken_from_pile: deal.map(|d| live.and(d.drawn).filter(|(s, _)| *s == Source::Pile).map(|(_, c)| c)),
            knocker: deal.map(|d| d.knocker),
            turns: deal.map(|d| d.turns),
            pile_turns: deal.map(|d| d.pile_turns),
            shown: deal.map(|d| d.shown.clone()),
            settlement: deal.map(|d| d.settlement.clone()),
            deck: full.map(|d| d.deck.clone()),
            hands: record.map(|d| d.hands.clone()),
            hand_values: record.map(|d| {
                (0..state.players())
                    .map(|s| (d.playing[s] && d.hands[s].len() == 3).then(|| hand_value(&d.hands[s], trips)))
                    .collect()
            }),
            pile: record.map(|d| d.pile.clone()),
            hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if deal_over || viewer == Viewer::Record {
            return full;
        }
        match event {
            Event::DealStarted { deal_number, hands, .. } => {
                let live = state.deals.deal.as_ref().is_some_and(|d| d.number == *deal_number && !d.over);
                if live {
                    deals::hide_hands(&mut full, hands, viewer);
                }
            }
            Event::DrewFromStock { seat, .. } => {
                let live = state.deals.deal.as_ref().is_some_and(|d| !d.over);
                if live && viewer != Viewer::Seat(*seat) {
                    full["card"] = Value::Null;
                }
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.deal.as_ref().filter(|d| !d.over) else { return Vec::new() };
        let mut secrets: Vec<(Card, Vec<Seat>)> = Vec::new();
        for (s, hand) in deal.hands.iter().enumerate() {
            secrets.extend(hand.iter().filter(|c| !deal.seen.contains(c)).map(|&c| (c, vec![s])));
        }
        secrets.extend(deal.stock.iter().filter(|c| !deal.seen.contains(c)).map(|&c| (c, Vec::new())));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        state.ledger.check()?;
        let players = state.players();
        if let Some(outcome) = &state.deals.outcome {
            if state.pot() != 0 {
                return Err(format!("the match ended with {} in the pot", state.pot()));
            }
            let balances = state.ledger.seats(players);
            if !state.lives_game() && outcome.winners != match_winners(&balances) {
                return Err(format!("winners {:?} with balances {balances:?}", outcome.winners));
            }
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.hands.concat();
        all.extend(&deal.stock);
        all.extend(&deal.pile);
        if !is_permutation(&all, &pack) {
            return Err(format!("hands, stock and pile hold {} cards, not the pack", all.len()));
        }
        for (s, hand) in deal.hands.iter().enumerate() {
            let expected = if !deal.playing[s] {
                0
            } else if s == deal.to_play && deal.drawn.is_some() && !deal.over {
                HAND + 1
            } else {
                HAND
            };
            if hand.len() != expected {
                return Err(format!("seat {s} holds {} cards, not {expected}", hand.len()));
            }
        }
        if deal.pile.is_empty() && deal.drawn.is_none() {
            return Err("the pile is empty between turns".into());
        }
        let staked: i64 = deal.stakes.iter().map(|p| p.amount).sum();
        if deal.settlement.is_none() && state.pot() != deal.opening_pot + staked {
            return Err(format!("the pot holds {}, not {} plus the stakes {staked}", state.pot(), deal.opening_pot));
        }
        if deal.settlement.is_some() && state.deals.scores != state.ledger.seats(players) {
            return Err(format!(
                "scores {:?} differ from balances {:?}",
                state.deals.scores,
                state.ledger.seats(players)
            ));
        }
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// A knock only where the basic bot would knock: even with worlds fitted to what the others
    /// showed, a search left to itself knocks on hands that lose (strong vs basic +0.5 ± 0.6
    /// free, +0.8 ± 0.6 held to basic's knocks, over 300 matches).
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let knock = state.deals.acting(seat).and_then(|d| basic_choice(state, d, seat)) == Some(Command::Knock);
        let mut moves = self.legal_moves(state, seat);
        moves.retain(|m| knock || *m != Command::Knock);
        moves
    }

    /// Three times the usual worlds: a draw or discard moves a chip or so in a pot of several,
    /// and 48 worlds could not tell the choices apart (+0.1 ± 0.4 over 600 matches, against
    /// +0.9 ± 0.4 with 144).
    fn strong_budget(&self) -> bots::Budget {
        bots::Budget { playouts: 1440, min_samples: 6, max_samples: 144 }
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic_choice(state, state.deals.acting(seat)?, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// Chips plus a share of the pot, less the others' mean: in the pot game an equal share (a
    /// pot left by a tie is anyone's), in the lives game a share by the marks left.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let players = state.players();
        let weight: Vec<f64> =
            (0..players).map(|s| if state.lives_game() { state.lives_left(s).max(0) as f64 } else { 1.0 }).collect();
        let total: f64 = weight.iter().sum::<f64>().max(1.0);
        let pot = state.pot() as f64;
        let equity: Vec<f64> =
            (0..players).map(|s| state.ledger.balance(Account::Seat(s)) as f64 + pot * weight[s] / total).collect();
        bots::lead_over_mean(players, |s| equity[s], seat)
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let moves = self.legal_moves(state, seat);
        let choice = bot_choice(state, deal, seat, &mut Rng::new(seed));
        Some(if moves.contains(&choice) { choice } else { moves.first()?.clone() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};
    use crate::game::Status;
    use crate::simulate::Driver;
    use serde_json::json;

    type M = Driver<Trettioett>;

    /// A deck that deals `hands` (by seat) one at a time from dealer 0's left, then turns up
    /// `upcard`, the rest of the pack after them.
    fn deck(hands: &[&str], upcard: &str) -> Vec<Card> {
        let n = hands.len();
        let hs: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
        let mut deck: Vec<Card> = (0..HAND * n).map(|i| hs[(1 + i % n) % n][i / n]).collect();
        deck.push(card(upcard));
        let rest: Vec<Card> = decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect();
        deck.extend(rest);
        assert!(is_permutation(&deck, &decks::standard52()));
        deck
    }

    fn deal(m: &M) -> &Deal {
        m.state.deals.deal.as_ref().unwrap()
    }

    fn scored(events: &[Event]) -> (Option<Seat>, Vec<i64>, i64) {
        events
            .iter()
            .find_map(|e| match e {
                Event::DealScored { winner, points, pot, .. } => Some((*winner, points.clone(), *pot)),
                _ => None,
            })
            .expect("the deal was scored")
    }

    #[test]
    fn the_texts_example_only_one_suit_counts() {
        assert_eq!(hand_value(&cards("JD QD 8C"), false), HandValue { points: 20.0, suit: Some(Suit::Diamonds) });
        assert_eq!(hand_value(&cards("AS KS QS"), false).points, 31.0);
        assert_eq!(hand_value(&cards("AS TS 9H"), false).points, 21.0);
        assert_eq!(hand_value(&cards("AH AS AC"), false), HandValue { points: 31.0, suit: None });
        // The English variant: three of a kind is 30.5, three aces as well.
        assert_eq!(hand_value(&cards("5H 5S 5C"), true).points, 30.5);
        assert_eq!(hand_value(&cards("AH AS AC"), true).points, 30.5);
        assert_eq!(hand_value(&cards("5H 5S 5C"), false).points, 5.0);
    }

    #[test]
    fn thirty_one_after_drawing_and_discarding_takes_the_pot_at_once() {
        let mut m = M::new(3, Options::default());
        m.deal(deck(&["2H 3H 4H", "AS KS 2C", "5D 6D 7D"], "QS"));
        assert_eq!(m.state.pot(), 3);
        assert_eq!(m.to_act(), vec![1], "forehand begins");
        assert_eq!(m.refused(1, Command::Discard { card: card("2C") }).rule, rule::DRAW);
        m.ok(1, Command::TakeFromPile);
        assert_eq!(m.refused(1, Command::DrawFromStock).rule, rule::DISCARD);
        assert_eq!(m.refused(1, Command::Knock).rule, rule::KNOCK);
        assert_eq!(m.refused(1, Command::Discard { card: card("QS") }).rule, rule::PILE_CARD_KEPT);
        assert_eq!(m.refused(1, Command::Discard { card: card("9H") }).rule, "core.card-not-held");
        let events = m.ok(1, Command::Discard { card: card("2C") });
        assert!(events.iter().any(|e| matches!(e, Event::ThirtyOneShown { seat: 1, .. })));
        let (winner, points, pot) = scored(&events);
        assert_eq!((winner, pot), (Some(1), 0));
        assert_eq!(points, vec![-1, 2, -1]);
        assert!(m.to_act().is_empty());
        assert_eq!(m.state.deals.next_dealer, 1, "the next player deals");
    }

    #[test]
    fn a_knock_gives_everyone_else_one_more_turn_then_the_best_suit_wins() {
        let mut m = M::new(3, Options::default());
        m.deal(deck(&["2H 3H 4H", "AS KS 2C", "5D 6D 7D"], "9C"));
        m.ok(1, Command::Knock);
        assert_eq!(m.to_act(), vec![2]);
        assert_eq!(m.refused(2, Command::Knock).rule, rule::KNOCK_ONCE);
        m.ok(2, Command::DrawFromStock);
        // A card drawn from the stock may go straight back.
        let drawn = deal(&m).drawn.unwrap().1;
        m.ok(2, Command::Discard { card: drawn });
        m.ok(0, Command::TakeFromPile);
        let events = m.ok(0, Command::Discard { card: card("2H") });
        let Some(Event::HandsShown { knocker, hands }) = events.iter().find(|e| matches!(e, Event::HandsShown { .. }))
        else {
            panic!("no showdown: {events:?}")
        };
        assert_eq!(*knocker, Some(1));
        assert_eq!(hands[1].as_ref().unwrap().value.points, 21.0);
        assert_eq!(hands[2].as_ref().unwrap().value.points, 18.0);
        let (winner, points, _) = scored(&events);
        assert_eq!(winner, Some(1));
        assert_eq!(points[1], 2);
        let record = serde_json::to_value(m.rules.view(&m.state, Viewer::Record)).unwrap();
        assert_eq!(record["deck"].as_array().unwrap().len(), 52);
    }

    #[test]
    fn a_tie_leaves_the_pot_for_the_next_deal_unless_the_knocker_wins_ties() {
        for knocker_wins_ties in [false, true] {
            let mut m = M::new(2, Options { knocker_wins_ties, ..Options::default() });
            m.deal(deck(&["AH 9H 2C", "AS 9S 3C"], "4D"));
            m.ok(1, Command::Knock);
            m.ok(0, Command::TakeFromPile);
            let events = m.ok(0, Command::Discard { card: card("2C") });
            let (winner, _, pot) = scored(&events);
            if knocker_wins_ties {
                assert_eq!((winner, pot), (Some(1), 0));
            } else {
                assert_eq!((winner, pot), (None, 2), "both hold 20: the pot stays");
                assert!(!m.rules.status(&m.state).is_finished(), "the pot must be won first");
                m.deal(decks::standard52());
                assert_eq!(m.state.pot(), 4, "the next deal's stakes fill it up");
            }
        }
    }

    #[test]
    fn the_lives_game_makes_the_lowest_pay_and_the_last_one_left_takes_the_pot() {
        let mut m = M::new(3, Options { stakes: Stakes::Lives, lives: 1, ..Options::default() });
        let events = m.deal(deck(&["2H 3H 4H", "AS KS 2C", "5D 6D 7D"], "9C"));
        assert_eq!(events.len(), 1, "no stakes before a deal");
        m.ok(1, Command::Knock);
        for seat in [2, 0] {
            m.ok(seat, Command::TakeFromPile);
            let discard = if seat == 2 { "5D" } else { "2H" };
            m.ok(seat, Command::Discard { card: card(discard) });
        }
        // Seat 0 holds 3H 4H 5D (7), seat 2 6D 7D 9C (13), seat 1 21.
        let Some(Event::DealScored { paid_marks, eliminated, .. }) =
            m.log.iter().find(|e| matches!(e, Event::DealScored { .. }))
        else {
            panic!("not scored")
        };
        assert_eq!((paid_marks.clone(), eliminated.clone()), (vec![0], vec![0]));
        assert_eq!(m.state.pot(), 1);
        // Seat 0 is out: the next deal goes to seats 1 and 2 only, seat 1 dealing.
        // Seat 1 deals to seat 2 first.
        let mut second = cards("AS 2H KS 3H 2C 4H QS");
        let rest: Vec<Card> = decks::standard52().into_iter().filter(|c| !second.contains(c)).collect();
        second.extend(rest);
        m.deal(second);
        assert_eq!(deal(&m).playing, vec![false, true, true]);
        assert_eq!((deal(&m).dealer, deal(&m).to_play), (1, 2));
        m.ok(2, Command::TakeFromPile);
        let events = m.ok(2, Command::Discard { card: card("2C") });
        let (winner, _, _) = scored(&events);
        assert_eq!(winner, Some(2), "31: seat 1 pays its last mark and seat 2 is left");
        let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!("not over") };
        assert_eq!(outcome.winners, vec![2]);
        assert_eq!(m.state.ledger.seats(3), vec![-1, -1, 2]);
    }

    #[test]
    fn an_empty_stock_is_renewed_from_the_pile_as_it_lies() {
        let mut m = M::new(2, Options { round_limit: 100, ..Options::default() });
        m.deal(deck(&["2H 3H 4H", "2S 3S 4S"], "9C"));
        let mut discards = vec![card("9C")];
        while !deal(&m).stock.is_empty() {
            let seat = deal(&m).to_play;
            m.ok(seat, Command::DrawFromStock);
            let drawn = deal(&m).drawn.unwrap().1;
            m.ok(seat, Command::Discard { card: drawn });
            discards.push(drawn);
        }
        let seat = deal(&m).to_play;
        let events = m.ok(seat, Command::DrawFromStock);
        let top = discards.pop().unwrap();
        assert_eq!(events[0], Event::PileTurned { stock: discards.clone() });
        assert_eq!(events[1], Event::DrewFromStock { seat, card: card("9C") }, "the pile's bottom card comes on top");
        assert_eq!(deal(&m).pile, vec![top]);
        assert!(m.rules.secrets(&m.state).iter().all(|(c, _)| !discards.contains(c)), "the turned pile is no secret");
    }

    #[test]
    fn a_deal_nobody_knocks_in_ends_at_the_round_limit() {
        let mut m = M::new(2, Options { round_limit: 1, ..Options::default() });
        m.deal(deck(&["2H 3H 4H", "2S 3S 5S"], "9C"));
        m.ok(1, Command::DrawFromStock);
        let drawn = deal(&m).drawn.unwrap().1;
        m.ok(1, Command::Discard { card: drawn });
        m.ok(0, Command::DrawFromStock);
        let drawn = deal(&m).drawn.unwrap().1;
        let events = m.ok(0, Command::Discard { card: drawn });
        assert!(events.iter().any(|e| matches!(e, Event::HandsShown { knocker: None, .. })));
        assert_eq!(scored(&events).0, Some(1), "10 beats 9");
    }

    #[test]
    fn others_see_neither_hands_nor_stock_draws_but_see_the_pile() {
        let mut m = M::new(2, Options::default());
        m.deal(deck(&["2H 3H 4H", "2S 3S 5S"], "9C"));
        let events = m.ok(1, Command::DrawFromStock);
        let other = m.rules.redact(&m.state, &events[0], Viewer::Seat(0), false);
        assert!(other["card"].is_null());
        let own = m.rules.redact(&m.state, &events[0], Viewer::Seat(1), false);
        assert!(!own["card"].is_null());
        let view = serde_json::to_value(m.rules.view(&m.state, Viewer::Spectator)).unwrap();
        assert_eq!(view["pile_top"], json!("9C"));
        assert!(view.get("hand").is_none() && view.get("hands").is_none());
    }

    #[test]
    fn setup_refuses_impossible_options() {
        assert!(Trettioett.setup(3, Options { stake: 0, ..Options::default() }).is_err());
        assert!(Trettioett.setup(3, Options { lives: 0, ..Options::default() }).is_err());
        assert!(Trettioett.setup(3, Options { round_limit: 0, ..Options::default() }).is_err());
    }
}
