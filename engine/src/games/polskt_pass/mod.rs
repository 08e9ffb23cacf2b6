//! Polskt pass: five tricks, four permanent jack trumps, and a pot with bets that carry over.
//!
//! Every deal the dealer stakes the pot; the player on the dealer's right cuts (a jack shown at
//! the cut is taken), five cards each are dealt and the next card is turned. Depending on what
//! was taken the dealer (and the cutter) declare at once, or two rounds of bidding find a
//! declarer. The first to three tricks, or else the first to two, wins what the deal is played
//! for: the pot and at most one waiting bet. A declarer who does not win pays a new bet, kept
//! apart for a later deal. The match is a fixed number of rounds of deals; what the pot and the
//! bets hold at the end is shared out.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bidding::Auction;
use crate::bots;
use crate::cards::{decks, sort_hand, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase};
use crate::game::{Rules, SetupError, Viewer};
use crate::ledger::{Account, Ledger, Payment};
use crate::random::Rng;
use crate::rules::{RuleViolation, Text};
use crate::seat::{self, match_winners, seats_text, Seat};
use crate::trick::{self, Trick, TrickPlay, WinReason};
pub use crate::trick::{Play, TrickRecord};

mod bot;
mod payments;
pub use payments::*;
mod invariants;
#[cfg(test)]
mod tests;
mod view;
pub use view::{Bidding, Table, TablePhase};

#[derive(Default)]
pub struct PolsktPass;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 5;
/// Cards in a hand once the extra cards are discarded, and so tricks in a deal.
pub const HAND: usize = 5;
/// A cut leaves at least this many cards in each part of the pack (house rule).
pub const MIN_CUT: usize = 3;
/// No bet and no la vola payment is larger than this (house rule): it keeps every sum of the
/// match exact in 64-bit integers, however long a run of doubled bets lasts.
pub const TABLE_LIMIT: i64 = 1_000_000_000_000;
pub const MAX_STAKE: i64 = 1_000_000;
pub const MAX_ROUNDS: u32 = 10;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "polskt-pass.deck.players";
    pub const PACK: &str = "polskt-pass.deck.pack";

    pub const STAKE: &str = "polskt-pass.stake.dealer-stakes";
    pub const POT_CARRIES: &str = "polskt-pass.stake.pot-carries";

    pub const DEALER_ROTATES: &str = "polskt-pass.deal.dealer-rotates";
    pub const CUT: &str = "polskt-pass.deal.cut";
    pub const THREE_THEN_TWO: &str = "polskt-pass.deal.three-then-two";
    pub const TURNED_CARD: &str = "polskt-pass.deal.turned-card";
    pub const MUST_TAKE: &str = "polskt-pass.deal.dealer-must-take";
    pub const MAY_TAKE_ACE: &str = "polskt-pass.deal.dealer-may-take-ace";
    pub const TURNED_STAYS: &str = "polskt-pass.deal.turned-card-stays";
    pub const DISCARD: &str = "polskt-pass.deal.discard";

    pub const DEALER_TOOK: &str = "polskt-pass.bidding.dealer-took";
    pub const TWO_DECLARERS: &str = "polskt-pass.bidding.two-declarers";
    pub const ROUND_ONE: &str = "polskt-pass.bidding.round-one";
    pub const ROUND_TWO: &str = "polskt-pass.bidding.round-two";
    pub const OTHERS_OTHER_SUITS: &str = "polskt-pass.bidding.others-other-suits";
    pub const FIRST_ENDS: &str = "polskt-pass.bidding.first-ends";
    pub const ALL_PASS: &str = "polskt-pass.bidding.all-pass";

    pub const FIRST_LEAD: &str = "polskt-pass.play.first-lead";
    pub const FOLLOW_SUIT: &str = "polskt-pass.play.follow-suit";
    pub const VOID: &str = "polskt-pass.play.void";
    pub const TRICK_WINNER: &str = "polskt-pass.play.trick-winner";
    pub const WINNER_LEADS: &str = "polskt-pass.play.winner-leads";
    pub const LA_VOLA: &str = "polskt-pass.play.la-vola";

    pub const THREE_TRICKS: &str = "polskt-pass.win.three-tricks";
    pub const FIRST_TO_TWO: &str = "polskt-pass.win.first-to-two";
    pub const NO_WINNER: &str = "polskt-pass.win.no-winner";
    pub const LA_VOLA_ONLY: &str = "polskt-pass.win.la-vola-only";
    pub const LA_VOLA_LOST: &str = "polskt-pass.win.la-vola-lost";

    pub const WINNER_TAKES: &str = "polskt-pass.payment.winner-takes";
    pub const LA_VOLA_PAID: &str = "polskt-pass.payment.la-vola";
    pub const FAILED_DECLARER: &str = "polskt-pass.payment.failed-declarer";
    pub const BOTH_FAIL: &str = "polskt-pass.payment.both-fail";
    pub const NO_WINNER_BET: &str = "polskt-pass.payment.no-winner";

    pub const MERGE_BETS: &str = "polskt-pass.variant.merge-bets";

    pub const THREE_PLAYERS: &str = "polskt-pass.house.three-players";
    pub const FIRST_DEALER: &str = "polskt-pass.house.first-dealer";
    pub const CUT_RANGE: &str = "polskt-pass.house.cut-range";
    pub const SHARE_OUT: &str = "polskt-pass.house.share-out";
    pub const TIES_SHARE: &str = "polskt-pass.house.ties-share";
    pub const TABLE_LIMIT: &str = "polskt-pass.house.table-limit";
}

// ---------------------------------------------------------------------------------------------
// Options

/// What the players agree before the first deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// What the dealer puts into the pot at the start of every deal.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000000))]
    pub stake: i64,
    /// A failed declarer's bet is twice the amount played for instead of once.
    #[serde(alias = "double-bet")]
    pub double_bet: bool,
    /// When two declarers both fail, their two bets become one bet of twice the size.
    #[serde(alias = "merge-bets")]
    pub merge_bets: bool,
    /// How many times each player deals before the match ends.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10))]
    pub rounds: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options { stake: 10, double_bet: false, merge_bets: false, rounds: 4 }
    }
}

/// The pack for a table: 9 to ace, and the eights as well for five players.
pub fn composition(players: usize) -> Vec<Card> {
    decks::from_rank(if players >= 5 { Rank::EIGHT } else { Rank::NINE })
}

// ---------------------------------------------------------------------------------------------
// State

/// The cut: where the pack was cut and the card it showed.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CutRecord {
    /// Cards lifted off the top of the pack.
    pub at: usize,
    /// The bottom card of the lifted part, shown to everyone.
    pub shown_card: Card,
    /// True when the shown card was a jack, which the cutter had to take.
    pub cutter_took: bool,
}

/// How a deal ended and what its end paid.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DealResult {
    /// How the deal ended.
    pub outcome: DealOutcome,
    /// The seat that won the deal; null when nobody did.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winner: Option<Seat>,
    /// The id of the rule the winner won under, or of the rule saying why nobody won.
    pub rule: String,
    /// What the deal was played for: the pot plus the bet in play.
    pub amount_played_for: i64,
    /// Every payment the end of the deal made, in order.
    pub payments: Vec<Payment>,
    /// The result in words, in Swedish and English.
    pub explanation: Text,
}

#[derive(Clone, Debug)]
pub struct Deal {
    pub number: u32,
    pub dealer: Seat,
    pub deck: Vec<Card>,
    /// What is left of the pack: the whole deck before the cut, the undealt rest after it.
    pub pack: Vec<Card>,
    pub cut: Option<CutRecord>,
    pub dealt: Vec<Vec<Card>>,
    pub turned_card: Option<Card>,
    pub turned_taken: bool,
    pub bet_in_play: Option<u32>,
    /// Round one, then round two once round one is all passes.
    pub rounds: Vec<Auction<CallRecord>>,
    pub trumps: Option<Suit>,
    pub trumps_from: Option<TrumpsFrom>,
    pub declarers: Vec<Seat>,
    pub discards: Vec<(Seat, Card)>,
    pub phase: TablePhase,
    /// The hands from the cut on (a jack the cutter took, a turned card the dealer took, until
    /// put away), the trick on the table and the tricks won.
    pub play: TrickPlay,
    pub la_vola: Option<Seat>,
    pub result: Option<DealResult>,
}

impl deals::Deal for Deal {
    type Phase = TablePhase;

    fn to_act(&self) -> Vec<Seat> {
        match self.phase {
            TablePhase::Cutting => vec![self.cutter()],
            TablePhase::TurnedCard => vec![self.dealer],
            TablePhase::Bidding => self.bidding_turn().map(|(_, s)| s).into_iter().collect(),
            TablePhase::Discarding => self.to_discard(),
            TablePhase::Playing => vec![self.play.to_play()],
            _ => Vec::new(),
        }
    }

    fn is_live(&self) -> bool {
        self.phase != TablePhase::DealOver
    }

    fn phase(&self) -> TablePhase {
        self.phase
    }
}

impl MatchPhase for TablePhase {
    const WAITING_FOR_DEAL: TablePhase = TablePhase::WaitingForDeal;
    const FINISHED: TablePhase = TablePhase::Finished;
}

impl Deal {
    /// The player on the dealer's right.
    fn cutter(&self) -> Seat {
        self.play.table.after(self.dealer, self.play.table.seats - 1)
    }

    /// The player on the dealer's left: bids first and leads to the first trick.
    fn forehand(&self) -> Seat {
        self.play.table.forehand(self.dealer)
    }

    /// While cards are put away, the seats that still hold six.
    fn to_discard(&self) -> Vec<Seat> {
        if self.phase != TablePhase::Discarding {
            return Vec::new();
        }
        (0..self.play.table.seats).filter(|&s| self.play.hands[s].len() > HAND).collect()
    }

    fn calls(&self) -> impl Iterator<Item = &CallRecord> {
        self.rounds.iter().flat_map(|a| a.bids.iter().map(|(_, c)| c))
    }

    /// The bidding round under way (1 or 2), and who speaks next.
    fn bidding_turn(&self) -> Option<(u8, Seat)> {
        let round = self.rounds.last()?;
        round.next_bidder().map(|s| (self.rounds.len() as u8, s))
    }

    /// Cards whose identity everyone knows: the card shown at the cut and the turned card.
    fn public_cards(&self) -> Vec<Card> {
        self.cut.map(|c| c.shown_card).into_iter().chain(self.turned_card).collect()
    }

    fn turned_suit(&self) -> Option<Suit> {
        self.turned_card.and_then(|c| c.suit())
    }

    /// The dealer may choose: an ace is up, the cutter took nothing, nothing is decided yet.
    fn ace_choice_open(&self) -> bool {
        self.phase == TablePhase::TurnedCard
            && !self.turned_taken
            && self.turned_card.and_then(|c| c.rank()) == Some(Rank::ACE)
            && !self.cut.is_some_and(|c| c.cutter_took)
    }

    /// True when `seat` may announce la vola now.
    fn la_vola_open(&self, seat: Seat) -> bool {
        self.phase == TablePhase::Playing
            && self.la_vola.is_none()
            && self.play.tricks.len() == 2
            && self.play.trick.is_empty()
            && self.play.trick.leader == seat
            && self.play.taken[seat] == 2
    }
}

#[derive(Clone, Debug)]
pub struct State {
    pub table: seat::Table,
    pub options: Options,
    /// The deals played and the end of the match; the match keeps no points, only money.
    pub deals: Deals<Deal>,
    pub ledger: Ledger,
    /// The money as the latest money event stated it: must match the ledger built from the
    /// payments alone.
    pub reported: Books,
    pub next_bet: u32,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }

    fn deals_total(&self) -> u32 {
        self.options.rounds * self.players() as u32
    }

    fn books(&self) -> Books {
        Books::of(&self.ledger, self.players())
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Lift `at` cards off the top of the pack; the bottom card of that part is shown.
    Cut {
        at: usize,
    },
    /// The dealer takes the turned ace (only when the cutter took nothing).
    TakeAce,
    /// The dealer leaves the turned ace on the table.
    LeaveAce,
    /// Round one: declare with the turned card's suit as trumps.
    Accept,
    /// Round one: decline.
    Pass,
    /// Round two: declare with this suit as trumps.
    NameSuit {
        suit: Suit,
    },
    /// Round two: decline.
    Wieder,
    /// A player with six cards puts one away face down.
    Discard {
        card: Card,
    },
    /// Leading to the third trick after taking the first two: play for all five.
    LaVola,
    Play {
        card: Card,
    },
}

/// A bet waiting for a later deal, by the number it was made under.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BetRecord {
    pub bet: u32,
    pub amount: i64,
}

/// The money of the match: every seat's balance, the pot and each waiting bet. Always sums to
/// zero, since seats start at zero and pay in.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Books {
    pub balances: Vec<i64>,
    pub pot: i64,
    pub bets: Vec<BetRecord>,
}

impl Books {
    pub fn of(ledger: &Ledger, players: usize) -> Books {
        Books {
            balances: ledger.seats(players),
            pot: ledger.balance(Account::Pot),
            bets: ledger.bets().into_iter().map(|(bet, amount)| BetRecord { bet, amount }).collect(),
        }
    }

    pub fn total(&self) -> i64 {
        self.balances.iter().sum::<i64>() + self.pot + self.bets.iter().map(|b| b.amount).sum::<i64>()
    }
}

/// Why the dealer took the turned card.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TakeReason {
    /// A jack was turned: it must be taken.
    JackTurned,
    /// The cutter took the card shown at the cut, so the dealer must take the turned card.
    CutterTook,
    /// An ace was turned, the cutter took nothing, and the dealer chose to take it.
    AceChosen,
}

impl TakeReason {
    fn rule(self) -> &'static str {
        match self {
            TakeReason::JackTurned | TakeReason::CutterTook => rule::MUST_TAKE,
            TakeReason::AceChosen => rule::MAY_TAKE_ACE,
        }
    }
}

/// Why the turned card stayed on the table.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeaveReason {
    /// Neither a jack nor an ace, and the cutter took nothing.
    NotJackOrAce,
    /// An ace the dealer chose not to take.
    AceDeclined,
}

/// How the deal got its trumps and declarers.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrumpsFrom {
    /// The dealer took the turned card: its suit, no bidding.
    DealerTook,
    /// A player accepted the turned suit in round one.
    RoundOne,
    /// A player named a suit in round two.
    RoundTwo,
}

impl TrumpsFrom {
    fn rule(self) -> &'static str {
        match self {
            TrumpsFrom::DealerTook => rule::DEALER_TOOK,
            TrumpsFrom::RoundOne => rule::ROUND_ONE,
            TrumpsFrom::RoundTwo => rule::ROUND_TWO,
        }
    }
}

/// What a player said in the bidding.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Call {
    Accept,
    Pass,
    NameSuit,
    Wieder,
}

impl Call {
    fn declares(self) -> bool {
        matches!(self, Call::Accept | Call::NameSuit)
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallRecord {
    pub seat: Seat,
    pub round: u8,
    pub call: Call,
    /// The suit accepted or named; `null` for a pass or "wieder".
    pub suit: Option<Suit>,
}

/// How a deal ended.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DealOutcome {
    /// Everyone passed in both rounds: a round pass, nothing paid.
    AllPassed,
    /// A player won the tricks and takes what was played for.
    Won,
    /// Five players took one trick each: nobody wins, the declarer still pays a bet.
    NoWinner,
    /// La vola was announced and all five tricks taken.
    LaVolaWon,
    /// La vola was announced and a trick lost: a round pass, nothing paid.
    LaVolaLost,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        deals_total: u32,
        dealer: Seat,
        /// The player on the dealer's right.
        cutter: Seat,
        /// The player on the dealer's left: bids first and leads to the first trick.
        forehand: Seat,
        /// The pack as the dealer picked it up, top card first, before the cut. Never shown:
        /// it would give away the undealt rest.
        deck: Vec<Card>,
        /// The money the deal inherits, before the dealer's stake.
        books: Books,
        /// The bet this deal is played for along with the pot: the least valuable one waiting.
        bet_in_play: Option<u32>,
        /// The number the next new bet gets.
        next_bet: u32,
        options: Options,
    },
    StakePaid {
        payment: Payment,
        books: Books,
    },
    PackCut {
        seat: Seat,
        /// Cards lifted off the top.
        at: usize,
        /// The bottom card of the lifted part, shown to everyone; it ends at the bottom of the
        /// pack unless the cutter takes it.
        shown_card: Card,
        cutter_took: bool,
    },
    CardsDealt {
        /// Five cards each, by seat, as dealt (three then two from the dealer's left).
        hands: Vec<Vec<Card>>,
        turned_card: Card,
        /// Cards left in the pack, never used and never shown.
        undealt: usize,
    },
    TurnedCardTaken {
        seat: Seat,
        card: Card,
        why: TakeReason,
        rule: String,
    },
    TurnedCardLeft {
        card: Card,
        why: LeaveReason,
        rule: String,
    },
    BidMade {
        seat: Seat,
        round: u8,
        call: Call,
        suit: Option<Suit>,
    },
    TrumpsSet {
        trumps: Suit,
        declarers: Vec<Seat>,
        from: TrumpsFrom,
        rule: String,
    },
    CardDiscarded {
        seat: Seat,
        card: Card,
    },
    LaVolaAnnounced {
        seat: Seat,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
    },
    TrickWon {
        /// 1 for the first trick of the deal.
        trick_number: usize,
        winner: Seat,
        card: Card,
        reason: WinReason,
        plays: Vec<Play>,
    },
    DealEnded {
        deal_number: u32,
        outcome: DealOutcome,
        winner: Option<Seat>,
        /// The rule the winner won under, or why nobody won.
        rule: String,
        declarers: Vec<Seat>,
        la_vola: Option<Seat>,
        tricks_taken: Vec<u32>,
        /// The pot plus the bet in play.
        amount_played_for: i64,
        bet_in_play: Option<u32>,
        payments: Vec<Payment>,
        explanation: Text,
        books: Books,
    },
    MatchEnded {
        /// The pot and the bets still waiting, shared out.
        payments: Vec<Payment>,
        books: Books,
        winners: Vec<Seat>,
    },
}

// ---------------------------------------------------------------------------------------------
// Card order and trick play: pure functions, kept apart so tests can reach them directly

pub fn is_jack(card: Card) -> bool {
    card.rank() == Some(Rank::JACK)
}

/// The suit a card belongs to in play: every jack is a trump.
pub fn effective_suit(card: Card, trumps: Suit) -> Suit {
    if is_jack(card) {
        trumps
    } else {
        card.suit().unwrap_or(trumps)
    }
}

pub fn is_trump(card: Card, trumps: Suit) -> bool {
    effective_suit(card, trumps) == trumps
}

/// Rank within the card's suit in play: the jacks (clubs, spades, hearts, diamonds) above the
/// trump ace, then ace, king, queen, ten, nine, eight.
pub fn strength(card: Card) -> u8 {
    match (card.rank(), card.suit()) {
        (Some(Rank::JACK), Some(suit)) => {
            20 - match suit {
                Suit::Clubs => 0,
                Suit::Spades => 1,
                Suit::Hearts => 2,
                Suit::Diamonds => 3,
            }
        }
        (Some(rank), _) => rank.value(),
        _ => 0,
    }
}

pub fn led_suit(trick: &Trick, trumps: Suit) -> Option<Suit> {
    trick.plays.first().map(|&(_, c)| effective_suit(c, trumps))
}

/// The cards of `hand` that may be played to `trick`.
pub fn playable(hand: &[Card], trick: &Trick, trumps: Suit) -> Vec<Card> {
    match led_suit(trick, trumps) {
        Some(led) if hand.iter().any(|&c| effective_suit(c, trumps) == led) => {
            hand.iter().copied().filter(|&c| effective_suit(c, trumps) == led).collect()
        }
        _ => hand.to_vec(),
    }
}

/// The highest trump takes the trick, else the highest card of the suit led.
pub fn trick_winner(trick: &Trick, trumps: Suit) -> (Seat, Card, WinReason) {
    let best_in = |suit: Suit| {
        trick
            .plays
            .iter()
            .filter(|&&(_, c)| effective_suit(c, trumps) == suit)
            .max_by_key(|&&(_, c)| strength(c))
            .copied()
    };
    if let Some((seat, card)) = best_in(trumps) {
        return (seat, card, WinReason::HighestTrump);
    }
    let led = led_suit(trick, trumps).expect("a trick is won only once cards are in it");
    let (seat, card) = best_in(led).expect("the lead is of the suit led");
    (seat, card, WinReason::HighestOfSuitLed)
}

/// Who won the tricks, from the winners of the tricks in order: three tricks, else the first
/// to two, else nobody (five players with one trick each).
pub fn deal_winner(trick_winners: &[Seat], players: usize) -> Option<(Seat, &'static str)> {
    let mut taken = vec![0u32; players];
    let mut first_to_two = None;
    for &w in trick_winners {
        taken[w] += 1;
        if taken[w] == 2 && first_to_two.is_none() {
            first_to_two = Some(w);
        }
    }
    if let Some(s) = (0..players).find(|&s| taken[s] >= 3) {
        return Some((s, rule::THREE_TRICKS));
    }
    first_to_two.map(|s| (s, rule::FIRST_TO_TWO))
}

/// The bet a deal is played for: the least valuable waiting, the oldest among equals.
pub fn bet_in_play(bets: &[BetRecord]) -> Option<BetRecord> {
    bets.iter().copied().min_by_key(|b| (b.amount, b.bet))
}

fn suit_names(suit: Suit) -> (&'static str, &'static str) {
    (suit.name_sv(), suit.name_en())
}

/// A ledger holding exactly `books` (which must sum to zero): how a deal replayed on its own
/// starts from the money it inherits.
fn ledger_from(books: &Books) -> Ledger {
    let mut ledger = Ledger::new();
    let mut set = |to: Account, amount: i64| {
        if amount != 0 {
            ledger.pay(&Payment::new(Account::Seat(0), to, amount, rule::POT_CARRIES, String::new(), String::new()));
        }
    };
    set(Account::Pot, books.pot);
    for b in &books.bets {
        set(Account::Bet(b.bet), b.amount);
    }
    for (s, &balance) in books.balances.iter().enumerate().skip(1) {
        set(Account::Seat(s), balance);
    }
    ledger
}

// ---------------------------------------------------------------------------------------------
// Decide

impl PolsktPass {
    fn phase_text(phase: TablePhase) -> (&'static str, &'static str) {
        match phase {
            TablePhase::Cutting => ("nu ska leken kuperas", "the pack is to be cut now"),
            TablePhase::TurnedCard => {
                ("nu avgör givaren om det uppvända esset ska tas", "the dealer is now deciding on the turned ace")
            }
            TablePhase::Bidding => ("nu pågår budgivningen", "the bidding is under way"),
            TablePhase::Discarding => (
                "nu lägger den som har sex kort bort ett, innan första utspelet",
                "whoever holds six cards is now putting one away, before the first lead",
            ),
            TablePhase::Playing => ("nu spelas korten", "the cards are being played"),
            _ => ("given är slut", "the deal is over"),
        }
    }

    fn wrong_phase(deal: &Deal) -> RuleViolation {
        let (sv, en) = Self::phase_text(deal.phase);
        RuleViolation::wrong_phase(sv, en)
    }

    fn decide_cut(&self, state: &State, deal: &Deal, seat: Seat, at: usize) -> Result<Vec<Event>, RuleViolation> {
        let len = deal.deck.len();
        if !(MIN_CUT..=len - MIN_CUT).contains(&at) {
            return Err(RuleViolation::new(
                rule::CUT_RANGE,
                format!("Du ville lyfta {at} kort, men varje del av leken ska ha minst {MIN_CUT} kort: lyft mellan {MIN_CUT} och {} kort.", len - MIN_CUT),
                format!("You asked to lift {at} cards, but each part of the pack must keep at least {MIN_CUT} cards: lift between {MIN_CUT} and {} cards.", len - MIN_CUT),
            ));
        }
        let shown_card = deal.deck[at - 1];
        // The lifted part goes under the rest, so the shown card ends at the bottom.
        let mut pack: Vec<Card> = deal.deck[at..].iter().chain(&deal.deck[..at]).copied().collect();
        let cutter_took = is_jack(shown_card);
        if cutter_took {
            pack.pop();
        }
        let players = state.players();
        let order = state.table.order_from(deal.forehand());
        let mut hands = vec![Vec::with_capacity(HAND); players];
        let mut next = 0;
        for packet in [3, 2] {
            for &s in &order {
                hands[s].extend_from_slice(&pack[next..next + packet]);
                next += packet;
            }
        }
        let turned_card = pack[next];
        let mut events = vec![
            Event::PackCut { seat, at, shown_card, cutter_took },
            Event::CardsDealt { hands, turned_card, undealt: pack.len() - next - 1 },
        ];
        let take = if cutter_took {
            Some(TakeReason::CutterTook)
        } else if is_jack(turned_card) {
            Some(TakeReason::JackTurned)
        } else {
            None
        };
        match take {
            Some(why) => events.extend(self.dealer_takes(deal, turned_card, why, cutter_took)),
            None if turned_card.rank() == Some(Rank::ACE) => {}
            None => events.push(Event::TurnedCardLeft {
                card: turned_card,
                why: LeaveReason::NotJackOrAce,
                rule: rule::TURNED_STAYS.into(),
            }),
        }
        Ok(events)
    }

    fn dealer_takes(&self, deal: &Deal, card: Card, why: TakeReason, cutter_took: bool) -> Vec<Event> {
        let mut declarers = vec![deal.dealer];
        if cutter_took {
            declarers.push(deal.cutter());
        }
        vec![
            Event::TurnedCardTaken { seat: deal.dealer, card, why, rule: why.rule().into() },
            Event::TrumpsSet {
                trumps: card.suit().unwrap_or(Suit::Clubs),
                rule: if declarers.len() == 2 { rule::TWO_DECLARERS } else { rule::DEALER_TOOK }.into(),
                declarers,
                from: TrumpsFrom::DealerTook,
            },
        ]
    }

    fn decide_ace(&self, deal: &Deal, take: bool) -> Result<Vec<Event>, RuleViolation> {
        let card = deal.turned_card.expect("the turned card is up");
        if !deal.ace_choice_open() {
            return Err(RuleViolation::new(
                rule::MAY_TAKE_ACE,
                format!("Givaren väljer bara när ett ess vänds upp och den som kuperade inte tog något kort; nu är {card} uppvänt."),
                format!("The dealer chooses only when an ace is turned and the cutter took no card; {card} is turned now."),
            ));
        }
        Ok(if take {
            self.dealer_takes(deal, card, TakeReason::AceChosen, false)
        } else {
            vec![Event::TurnedCardLeft { card, why: LeaveReason::AceDeclined, rule: rule::MAY_TAKE_ACE.into() }]
        })
    }

    fn decide_call(
        &self,
        state: &State,
        deal: &Deal,
        seat: Seat,
        command: &Command,
    ) -> Result<Vec<Event>, RuleViolation> {
        let Some((round, _)) = deal.bidding_turn() else { return Err(Self::wrong_phase(deal)) };
        let turned = deal.turned_suit().expect("bidding follows a turned card");
        let (call, suit) = match *command {
            Command::Accept | Command::Pass if round == 2 => {
                return Err(RuleViolation::new(
                    rule::ROUND_TWO,
                    "I andra budrundan anger man en trumffärg (name_suit) eller säger \"wieder\"; att godta eller passa hör till första rundan.",
                    "In the second round you name a trump suit (name_suit) or say \"wieder\"; accepting or passing belongs to the first round.",
                ))
            }
            Command::NameSuit { .. } | Command::Wieder if round == 1 => {
                return Err(RuleViolation::new(
                    rule::ROUND_ONE,
                    format!("I första budrundan godtar man den uppvända färgen, {}, eller passar; egen färg eller \"wieder\" hör till andra rundan.", turned.name_sv()),
                    format!("In the first round you accept the turned suit, {}, or pass; naming a suit or \"wieder\" belongs to the second round.", turned.name_en()),
                ))
            }
            Command::Accept => (Call::Accept, Some(turned)),
            Command::Pass => (Call::Pass, None),
            Command::Wieder => (Call::Wieder, None),
            Command::NameSuit { suit } => {
                if suit == turned && seat != deal.forehand() {
                    let (sv, en) = suit_names(suit);
                    return Err(RuleViolation::new(
                        rule::OTHERS_OTHER_SUITS,
                        format!("Du angav {sv}, den uppvända färgen; i andra rundan får bara förhand välja den, övriga väljer bland de tre andra färgerna."),
                        format!("You named {en}, the turned suit; in the second round only forehand may choose it, the others choose among the three other suits."),
                    ));
                }
                (Call::NameSuit, Some(suit))
            }
            _ => return Err(Self::wrong_phase(deal)),
        };
        let mut events = vec![Event::BidMade { seat, round, call, suit }];
        if let (true, Some(trumps)) = (call.declares(), suit) {
            let from = if round == 1 { TrumpsFrom::RoundOne } else { TrumpsFrom::RoundTwo };
            events.push(Event::TrumpsSet { trumps, declarers: vec![seat], from, rule: rule::FIRST_ENDS.into() });
        } else if round == 2 && deal.rounds[1].is_last(seat) {
            events.extend(self.end_deal(state, deal, DealOutcome::AllPassed, &[]));
        }
        Ok(events)
    }

    fn decide_discard(&self, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
        deal.play.check_held(seat, card)?;
        Ok(vec![Event::CardDiscarded { seat, card }])
    }

    fn decide_la_vola(&self, deal: &Deal, seat: Seat) -> Result<Vec<Event>, RuleViolation> {
        if deal.la_vola.is_some() {
            return Err(RuleViolation::new(
                rule::LA_VOLA,
                "La vola är redan ansagt i den här given.",
                "La vola has already been announced in this deal.",
            ));
        }
        if !deal.la_vola_open(seat) {
            return Err(RuleViolation::new(
                rule::LA_VOLA,
                format!(
                    "La vola ansägs bara av den som tagit de två första sticken, i utspelet till det tredje; nu är {} stick spelade och du har tagit {}.",
                    deal.play.tricks.len(),
                    deal.play.taken[seat]
                ),
                format!(
                    "La vola is announced only by whoever took the first two tricks, when leading to the third; {} tricks are played and you took {}.",
                    deal.play.tricks.len(),
                    deal.play.taken[seat]
                ),
            ));
        }
        Ok(vec![Event::LaVolaAnnounced { seat }])
    }

    fn decide_play(&self, state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
        deal.play.check_held(seat, card)?;
        let hand = &deal.play.hands[seat];
        let trumps = deal.trumps.expect("play has trumps");
        if let Some(led) = led_suit(&deal.play.trick, trumps) {
            if effective_suit(card, trumps) != led && hand.iter().any(|&c| effective_suit(c, trumps) == led) {
                let (led_sv, led_en) = if led == trumps {
                    ("trumf (knektarna räknas dit)".to_string(), "trumps (the jacks count as trumps)".to_string())
                } else {
                    (
                        format!("{} (knektar räknas som trumf)", led.name_sv()),
                        format!("{} (jacks count as trumps)", led.name_en()),
                    )
                };
                return Err(RuleViolation::new(
                    rule::FOLLOW_SUIT,
                    format!("Du lade {card} men har {led_sv} på handen; när det är utspelat måste du bekänna."),
                    format!("You played {card} but hold {led_en}; when that is led you must follow suit."),
                ));
            }
        }
        let mut events = vec![Event::CardPlayed { seat, card }];
        let Some(won) = deal.play.completed_by(seat, card, &|t| trick_winner(t, trumps)) else { return Ok(events) };
        let winners: Vec<Seat> = deal.play.tricks.iter().map(|t| t.winner).chain([won.winner]).collect();
        let outcome = match deal.la_vola {
            Some(v) if won.winner != v => Some(DealOutcome::LaVolaLost),
            Some(_) if won.last => Some(DealOutcome::LaVolaWon),
            None if won.last && deal_winner(&winners, state.players()).is_some() => Some(DealOutcome::Won),
            None if won.last => Some(DealOutcome::NoWinner),
            _ => None,
        };
        events.push(Event::TrickWon {
            trick_number: won.number,
            winner: won.winner,
            card: won.card,
            reason: won.reason,
            plays: won.plays,
        });
        if let Some(outcome) = outcome {
            events.extend(self.end_deal(state, deal, outcome, &winners));
        }
        Ok(events)
    }

    /// The deal's last event with its payments, and the match's end after the last deal.
    fn end_deal(&self, state: &State, deal: &Deal, outcome: DealOutcome, trick_winners: &[Seat]) -> Vec<Event> {
        let players = state.players();
        let bet = deal.bet_in_play.map(|b| BetRecord { bet: b, amount: state.ledger.balance(Account::Bet(b)) });
        let settlement = Settlement {
            players,
            declarers: &deal.declarers,
            pot: state.ledger.balance(Account::Pot),
            bet,
            next_bet: state.next_bet,
            double_bet: state.options.double_bet,
            merge_bets: state.options.merge_bets,
        };
        let mut tricks_taken = vec![0u32; players];
        trick_winners.iter().for_each(|&w| tricks_taken[w] += 1);
        let decl = seats_text(&deal.declarers);
        let (winner, rule_id, payments, sv, en) = match outcome {
            DealOutcome::AllPassed => (
                None,
                rule::ALL_PASS,
                Vec::new(),
                "Alla passade i båda budrundorna: rundpass. Potten och betarna ligger kvar, och given går vidare.".to_string(),
                "Everyone passed in both rounds of bidding: a round pass. The pot and the bets stay, and the deal passes on.".to_string(),
            ),
            DealOutcome::LaVolaLost => {
                let v = deal.la_vola.unwrap_or(0);
                (
                    None,
                    rule::LA_VOLA_LOST,
                    Vec::new(),
                    format!("Plats {v} ansade la vola men förlorade ett stick: rundpass utan betalning. Potten och betarna ligger kvar."),
                    format!("Seat {v} announced la vola but lost a trick: a round pass with no payment. The pot and the bets stay."),
                )
            }
            DealOutcome::LaVolaWon => {
                let v = deal.la_vola.unwrap_or(0);
                (
                    Some(v),
                    rule::LA_VOLA_ONLY,
                    settlement.la_vola_won(v),
                    format!("Plats {v} tog alla fem sticken med la vola och får det man spelade om, {}, av potten och av var och en av de andra.", settlement.amount_played_for()),
                    format!("Seat {v} took all five tricks with la vola and gets what was played for, {}, from the pot and from each of the others.", settlement.amount_played_for()),
                )
            }
            DealOutcome::Won => {
                let (w, how) = deal_winner(trick_winners, players).expect("a won deal has a winner");
                let (how_sv, how_en) = if how == rule::THREE_TRICKS {
                    (format!("tog {} stick", tricks_taken[w]), format!("took {} tricks", tricks_taken[w]))
                } else {
                    ("var först till två stick när ingen tog tre".to_string(), "was first to two tricks with nobody taking three".to_string())
                };
                let (res_sv, res_en) = if deal.declarers.contains(&w) && deal.declarers.len() == 1 {
                    ("Spelföraren vann.".to_string(), "The declarer won.".to_string())
                } else if deal.declarers.contains(&w) {
                    ("Den ena spelföraren vann; den andra sätter bet.".to_string(), "One declarer won; the other pays a bet.".to_string())
                } else if deal.declarers.len() == 2 {
                    (
                        format!("Båda spelförarna ({decl}) misslyckades och sätter bet."),
                        format!("Both declarers ({decl}) failed and each pays a bet."),
                    )
                } else {
                    (format!("Spelföraren ({decl}) misslyckades och sätter bet."), format!("The declarer ({decl}) failed and pays a bet."))
                };
                (
                    Some(w),
                    how,
                    settlement.won(w),
                    format!("Plats {w} {how_sv} och vinner given. {res_sv}"),
                    format!("Seat {w} {how_en} and wins the deal. {res_en}"),
                )
            }
            DealOutcome::NoWinner => {
                let (who_sv, who_en) = if deal.declarers.len() == 2 {
                    (format!("båda spelförarna ({decl}) sätter bet"), format!("both declarers ({decl}) pay a bet each"))
                } else {
                    (format!("spelföraren ({decl}) sätter bet"), format!("the declarer ({decl}) pays a bet"))
                };
                (
                    None,
                    rule::NO_WINNER,
                    settlement.no_winner(),
                    format!("Alla fem tog ett stick var: ingen vinner, potten och betarna ligger kvar, men {who_sv}."),
                    format!("All five took one trick each: nobody wins, the pot and the bets stay, but {who_en}."),
                )
            }
        };
        let books = books_after(&state.ledger, players, &payments);
        let mut events = vec![Event::DealEnded {
            deal_number: deal.number,
            outcome,
            winner,
            rule: rule_id.into(),
            declarers: deal.declarers.clone(),
            la_vola: deal.la_vola,
            tricks_taken,
            amount_played_for: settlement.amount_played_for(),
            bet_in_play: deal.bet_in_play,
            payments: payments.clone(),
            explanation: Text::new(sv, en),
            books: books.clone(),
        }];
        if deal.number >= state.deals_total() {
            let mut after = state.ledger.clone();
            payments.iter().for_each(|p| after.pay(p));
            let sources: Vec<(Account, i64)> = std::iter::once((Account::Pot, after.balance(Account::Pot)))
                .chain(after.bets().into_iter().map(|(b, a)| (Account::Bet(b), a)))
                .collect();
            let shares = share_out(&sources, &state.table.order_from(deal.forehand()));
            let books = books_after(&after, players, &shares);
            events.push(Event::MatchEnded { winners: match_winners(&books.balances), payments: shares, books });
        }
        events
    }
}

// ---------------------------------------------------------------------------------------------
// Evolve

/// How the match ended: the highest balance, one seat's or shared.
fn match_explanation(winners: &[Seat], ledger: &Ledger) -> Text {
    let who = seats_text(winners);
    let best = winners.first().map_or(0, |&s| ledger.balance(Account::Seat(s)));
    if winners.len() == 1 {
        Text::new(
            format!("Plats {who} vann med högst saldo, {best}."),
            format!("Seat {who} won with the highest balance, {best}."),
        )
    } else {
        Text::new(
            format!("Platserna {who} delar segern med saldot {best} var."),
            format!("Seats {who} share the win with a balance of {best} each."),
        )
    }
}

/// The facts of a deal in play: the cut, the cards, the bidding and the tricks.
fn evolve_deal(deal: &mut Deal, table: &seat::Table, event: &Event) {
    let hands = &mut deal.play.hands;
    match event {
        Event::PackCut { seat, at, shown_card, cutter_took } => {
            let at = (*at).min(deal.deck.len());
            deal.pack = deal.deck[at..].iter().chain(&deal.deck[..at]).copied().collect();
            if *cutter_took {
                take_card(&mut deal.pack, *shown_card);
                hands[*seat].push(*shown_card);
            }
            deal.cut = Some(CutRecord { at, shown_card: *shown_card, cutter_took: *cutter_took });
        }
        Event::CardsDealt { hands: dealt, turned_card, .. } => {
            for (s, hand) in dealt.iter().enumerate() {
                for &c in hand {
                    take_card(&mut deal.pack, c);
                }
                hands[s].extend_from_slice(hand);
                sort_hand(&mut hands[s]);
            }
            take_card(&mut deal.pack, *turned_card);
            deal.dealt = dealt.clone();
            deal.turned_card = Some(*turned_card);
            deal.phase = TablePhase::TurnedCard;
        }
        Event::TurnedCardTaken { seat, card, .. } => {
            hands[*seat].push(*card);
            sort_hand(&mut hands[*seat]);
            deal.turned_taken = true;
        }
        Event::TurnedCardLeft { .. } => {
            deal.phase = TablePhase::Bidding;
            deal.rounds = vec![Auction::new(table.order_from(deal.forehand()))];
        }
        Event::BidMade { seat, round, call, suit } => {
            if let Some(r) = deal.rounds.last_mut() {
                r.record(*seat, CallRecord { seat: *seat, round: *round, call: *call, suit: *suit });
            }
            if !call.declares() && deal.rounds.len() == 1 && deal.rounds[0].is_complete() {
                deal.rounds.push(Auction::new(table.order_from(deal.forehand())));
            }
        }
        Event::TrumpsSet { trumps, declarers, from, .. } => {
            deal.trumps = Some(*trumps);
            deal.trumps_from = Some(*from);
            deal.declarers = declarers.clone();
            let six = hands.iter().any(|h| h.len() > HAND);
            deal.phase = if six { TablePhase::Discarding } else { TablePhase::Playing };
        }
        Event::CardDiscarded { seat, card } => {
            take_card(&mut hands[*seat], *card);
            deal.discards.push((*seat, *card));
            if hands.iter().all(|h| h.len() <= HAND) {
                deal.phase = TablePhase::Playing;
            }
        }
        Event::LaVolaAnnounced { seat } => deal.la_vola = Some(*seat),
        Event::CardPlayed { seat, card } => deal.play.play(*seat, *card),
        Event::TrickWon { winner, card, reason, .. } => deal.play.won(*winner, *card, *reason),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for PolsktPass {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "polskt-pass";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("../rulebooks/polskt-pass.txt");

    /// Both bet variants in every combination, in short matches with two stakes.
    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        let mut sets = vec![Options::default()];
        for double_bet in [false, true] {
            for merge_bets in [false, true] {
                for (stake, rounds) in [(10, 1), (3, 2)] {
                    sets.push(Options { stake, double_bet, merge_bets, rounds });
                }
            }
        }
        sets
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !self.player_counts().contains(&players) {
            return Err(SetupError(format!("polskt-pass is played by 3 to 5 players, not {players}")));
        }
        if !(1..=MAX_STAKE).contains(&options.stake) {
            return Err(SetupError(format!("the stake must be from 1 to {MAX_STAKE}, not {}", options.stake)));
        }
        if !(1..=MAX_ROUNDS).contains(&options.rounds) {
            return Err(SetupError(format!("rounds must be from 1 to {MAX_ROUNDS}, not {}", options.rounds)));
        }
        Ok(State {
            table: seat::Table::new(players),
            options,
            deals: Deals::new(0),
            ledger: Ledger::new(),
            reported: Books { balances: vec![0; players], pot: 0, bets: Vec::new() },
            next_bet: 1,
        })
    }

    crate::status_of_deals!(|state| composition(state.players()));

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let players = state.players();
        let deal_number = state.deals.number + 1;
        let dealer = state.deals.next_dealer;
        let books = state.books();
        let stake = state.options.stake;
        let payment = Payment::new(
            Account::Seat(dealer),
            Account::Pot,
            stake,
            rule::STAKE,
            format!("Givaren, plats {dealer}, lägger insatsen {stake} i potten."),
            format!("The dealer, seat {dealer}, puts the stake of {stake} into the pot."),
        );
        let after = books_after(&state.ledger, players, std::slice::from_ref(&payment));
        Ok(vec![
            Event::DealStarted {
                deal_number,
                deals_total: state.deals_total(),
                dealer,
                cutter: state.table.after(dealer, players - 1),
                forehand: state.table.forehand(dealer),
                deck,
                bet_in_play: bet_in_play(&books.bets).map(|b| b.bet),
                books,
                next_bet: state.next_bet,
                options: state.options.clone(),
            },
            Event::StakePaid { payment, books: after },
        ])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        use Command as C;
        let fits = deal.phase
            == match command {
                C::Cut { .. } => TablePhase::Cutting,
                C::TakeAce | C::LeaveAce => TablePhase::TurnedCard,
                C::Accept | C::Pass | C::NameSuit { .. } | C::Wieder => TablePhase::Bidding,
                C::Discard { .. } => TablePhase::Discarding,
                C::LaVola | C::Play { .. } => TablePhase::Playing,
            };
        if !fits {
            return Err(Self::wrong_phase(deal));
        }
        match *command {
            C::Cut { at } => self.decide_cut(state, deal, seat, at),
            C::TakeAce => self.decide_ace(deal, true),
            C::LeaveAce => self.decide_ace(deal, false),
            C::Accept | C::Pass | C::NameSuit { .. } | C::Wieder => self.decide_call(state, deal, seat, command),
            C::Discard { card } => self.decide_discard(deal, seat, card),
            C::LaVola => self.decide_la_vola(deal, seat),
            C::Play { card } => self.decide_play(state, deal, seat, card),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        let players = state.players();
        match event {
            Event::DealStarted { deal_number, dealer, deck, books, bet_in_play, next_bet, options, .. } => {
                // The deal carries what it inherits, so it can be replayed on its own.
                state.options = options.clone();
                state.ledger = ledger_from(books);
                state.reported = books.clone();
                state.next_bet = *next_bet;
                state.deals.next_dealer = state.table.next(*dealer);
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    pack: deck.clone(),
                    cut: None,
                    dealt: vec![Vec::new(); players],
                    turned_card: None,
                    turned_taken: false,
                    bet_in_play: *bet_in_play,
                    rounds: Vec::new(),
                    trumps: None,
                    trumps_from: None,
                    declarers: Vec::new(),
                    discards: Vec::new(),
                    phase: TablePhase::Cutting,
                    play: TrickPlay::new(state.table, vec![Vec::new(); players], state.table.forehand(*dealer), HAND),
                    la_vola: None,
                    result: None,
                };
                state.deals.started(*deal_number, &[], deal);
            }
            Event::StakePaid { payment, books } => {
                state.ledger.pay(payment);
                state.reported = books.clone();
            }
            Event::DealEnded { outcome, winner, rule, amount_played_for, payments, explanation, books, .. } => {
                for p in payments {
                    state.ledger.pay(p);
                    if let Account::Bet(b) = p.to {
                        state.next_bet = state.next_bet.max(b + 1);
                    }
                }
                state.reported = books.clone();
                let Some(deal) = state.deals.deal.as_mut() else { return };
                deal.phase = TablePhase::DealOver;
                deal.result = Some(DealResult {
                    outcome: *outcome,
                    winner: *winner,
                    rule: rule.clone(),
                    amount_played_for: *amount_played_for,
                    payments: payments.clone(),
                    explanation: explanation.clone(),
                });
            }
            Event::MatchEnded { payments, books, winners } => {
                payments.iter().for_each(|p| state.ledger.pay(p));
                state.reported = books.clone();
                state.deals.ended(winners, &match_explanation(winners, &state.ledger));
            }
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                evolve_deal(deal, &state.table, event);
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        use Command as C;
        match deal.phase {
            TablePhase::Cutting => (MIN_CUT..=deal.deck.len() - MIN_CUT).map(|at| C::Cut { at }).collect(),
            TablePhase::TurnedCard if deal.ace_choice_open() => vec![C::TakeAce, C::LeaveAce],
            TablePhase::Bidding => match deal.bidding_turn() {
                Some((1, _)) => vec![C::Accept, C::Pass],
                Some(_) => {
                    let turned = deal.turned_suit();
                    Suit::ALL
                        .into_iter()
                        .filter(|&s| seat == deal.forehand() || Some(s) != turned)
                        .map(|suit| C::NameSuit { suit })
                        .chain([C::Wieder])
                        .collect()
                }
                None => Vec::new(),
            },
            TablePhase::Discarding => {
                trick::distinct(deal.play.hands[seat].clone()).into_iter().map(|card| C::Discard { card }).collect()
            }
            TablePhase::Playing => {
                let trumps = deal.trumps.expect("play has trumps");
                let mut moves: Vec<C> = trick::distinct(playable(&deal.play.hands[seat], &deal.play.trick, trumps))
                    .into_iter()
                    .map(|card| C::Play { card })
                    .collect();
                if deal.la_vola_open(seat) {
                    moves.push(C::LaVola);
                }
                moves
            }
            _ => Vec::new(),
        }
    }

    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        use Command as C;
        let pack = composition(state.players());
        (0..=pack.len() + 1)
            .map(|at| C::Cut { at })
            .chain([C::TakeAce, C::LeaveAce, C::Accept, C::Pass, C::Wieder, C::LaVola])
            .chain(Suit::ALL.into_iter().map(|suit| C::NameSuit { suit }))
            .chain(pack.iter().map(|&card| C::Discard { card }))
            .chain(pack.iter().map(|&card| C::Play { card }))
            .collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        self.render_view(state, viewer)
    }

    fn redact(&self, _state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        self.redact_event(_state, event, viewer, deal_over)
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        self.secret_cards(state)
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        self.check_books(state)
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        bot::basic_move(state, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        bot::determinize(state, seat, rng)
    }

    /// Money less the others' mean; the pot and the bets are everyone's alike (see
    /// `bot::standing`).
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bot::standing(state, seat)
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let moves = self.legal_moves(state, seat);
        let deal = state.deals.deal.as_ref()?;
        let pick = |moves: &[Command]| moves.get((seed % moves.len().max(1) as u64) as usize).cloned();
        let hand = &deal.play.hands[seat];
        let trump_count = |suit: Suit| hand.iter().filter(|&&c| is_trump(c, suit)).count();
        use Command as C;
        match deal.phase {
            TablePhase::TurnedCard => {
                let suit = deal.turned_suit()?;
                // A few trumps besides the ace make it worth declaring; now and then on a hunch.
                let take = trump_count(suit) >= 2 || seed.is_multiple_of(5);
                Some(if take { C::TakeAce } else { C::LeaveAce })
            }
            TablePhase::Bidding => match deal.bidding_turn()? {
                (1, _) => {
                    let n = trump_count(deal.turned_suit()?);
                    // Declaring with three trumps is a gamble taken half the time.
                    Some(if n >= 4 || (n == 3 && seed.is_multiple_of(2)) { C::Accept } else { C::Pass })
                }
                _ => {
                    let best = moves
                        .iter()
                        .filter_map(|m| match m {
                            C::NameSuit { suit } => Some(*suit),
                            _ => None,
                        })
                        .max_by_key(|&s| (trump_count(s), s))?;
                    let n = trump_count(best);
                    Some(if n >= 4 || (n == 3 && seed.is_multiple_of(3)) {
                        C::NameSuit { suit: best }
                    } else {
                        C::Wieder
                    })
                }
            },
            TablePhase::Discarding => {
                // Put away the weakest card outside the trumps.
                let trumps = deal.trumps?;
                hand.iter()
                    .min_by_key(|&&c| (is_trump(c, trumps), strength(c), c.suit()))
                    .map(|&card| C::Discard { card })
            }
            TablePhase::Playing => {
                if moves.contains(&C::LaVola) && seed.is_multiple_of(2) {
                    return Some(C::LaVola);
                }
                let cards: Vec<C> = moves.into_iter().filter(|m| *m != C::LaVola).collect();
                pick(&cards)
            }
            _ => pick(&moves),
        }
    }
}
