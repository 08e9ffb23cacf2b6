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
use serde_json::{json, Map, Value};

use crate::bidding::Auction;
use crate::cards::{decks, is_permutation, sort_hand, take_card, Card, Rank, Suit};
use crate::game::{OptionDoc, Outcome, Rules, SetupError, Status, Viewer};
use crate::ledger::{Account, Ledger, Payment};
use crate::rules::{self, core, RuleViolation, Rulebook, Text};
use crate::seat::{match_winners, seats_text, Seat, Table};
use crate::trick::{self, Trick, WinReason};
pub use crate::trick::{Play, TrickRecord};

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
    pub const JACKS: &str = "polskt-pass.deck.jacks";
    pub const TRUMP_ORDER: &str = "polskt-pass.deck.trump-order";
    pub const SIDE_ORDER: &str = "polskt-pass.deck.side-order";

    pub const STAKE: &str = "polskt-pass.stake.dealer-stakes";
    pub const POT_CARRIES: &str = "polskt-pass.stake.pot-carries";

    pub const DEALER_ROTATES: &str = "polskt-pass.deal.dealer-rotates";
    pub const CUT: &str = "polskt-pass.deal.cut";
    pub const CUT_JACK: &str = "polskt-pass.deal.cut-jack";
    pub const THREE_THEN_TWO: &str = "polskt-pass.deal.three-then-two";
    pub const TURNED_CARD: &str = "polskt-pass.deal.turned-card";
    pub const MUST_TAKE: &str = "polskt-pass.deal.dealer-must-take";
    pub const MAY_TAKE_ACE: &str = "polskt-pass.deal.dealer-may-take-ace";
    pub const TURNED_STAYS: &str = "polskt-pass.deal.turned-card-stays";
    pub const REST_UNUSED: &str = "polskt-pass.deal.rest-unused";
    pub const DISCARD: &str = "polskt-pass.deal.discard";

    pub const DEALER_TOOK: &str = "polskt-pass.bidding.dealer-took";
    pub const TWO_DECLARERS: &str = "polskt-pass.bidding.two-declarers";
    pub const ROUND_ONE: &str = "polskt-pass.bidding.round-one";
    pub const ROUND_TWO: &str = "polskt-pass.bidding.round-two";
    pub const FOREHAND_ANY_SUIT: &str = "polskt-pass.bidding.forehand-any-suit";
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

    pub const AMOUNT: &str = "polskt-pass.payment.amount";
    pub const LEAST_BET: &str = "polskt-pass.payment.least-bet";
    pub const WINNER_TAKES: &str = "polskt-pass.payment.winner-takes";
    pub const LA_VOLA_PAID: &str = "polskt-pass.payment.la-vola";
    pub const FAILED_DECLARER: &str = "polskt-pass.payment.failed-declarer";
    pub const BOTH_FAIL: &str = "polskt-pass.payment.both-fail";
    pub const NO_WINNER_BET: &str = "polskt-pass.payment.no-winner";
    pub const BETS_APART: &str = "polskt-pass.payment.bets-apart";

    pub const DOUBLE_BET: &str = "polskt-pass.variant.double-bet";
    pub const MERGE_BETS: &str = "polskt-pass.variant.merge-bets";

    pub const THREE_PLAYERS: &str = "polskt-pass.house.three-players";
    pub const FIRST_DEALER: &str = "polskt-pass.house.first-dealer";
    pub const CUT_RANGE: &str = "polskt-pass.house.cut-range";
    pub const JACKS_FOLLOW_TRUMPS: &str = "polskt-pass.house.jacks-follow-trumps";
    pub const DISCARD_ANY: &str = "polskt-pass.house.discard-any";
    pub const REST_HIDDEN: &str = "polskt-pass.house.rest-hidden";
    pub const ALL_TRICKS: &str = "polskt-pass.house.all-tricks";
    pub const EQUAL_BETS: &str = "polskt-pass.house.equal-bets";
    pub const MATCH_LENGTH: &str = "polskt-pass.house.match-length";
    pub const SHARE_OUT: &str = "polskt-pass.house.share-out";
    pub const TIES_SHARE: &str = "polskt-pass.house.ties-share";
    pub const TABLE_LIMIT: &str = "polskt-pass.house.table-limit";
}

// ---------------------------------------------------------------------------------------------
// Options

/// What the players agree before the first deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// What the dealer puts into the pot at the start of every deal.
    pub stake: i64,
    /// A failed declarer's bet is twice the amount played for instead of once.
    #[serde(alias = "double-bet")]
    pub double_bet: bool,
    /// When two declarers both fail, their two bets become one bet of twice the size.
    #[serde(alias = "merge-bets")]
    pub merge_bets: bool,
    /// How many times each player deals before the match ends.
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
// Commands and events

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// Lift `at` cards off the top of the pack; the bottom card of that part is shown.
    Cut { at: usize },
    /// The dealer takes the turned ace (only when the cutter took nothing).
    TakeAce,
    /// The dealer leaves the turned ace on the table.
    LeaveAce,
    /// Round one: declare with the turned card's suit as trumps.
    Accept,
    /// Round one: decline.
    Pass,
    /// Round two: declare with this suit as trumps.
    NameSuit { suit: Suit },
    /// Round two: decline.
    Wieder,
    /// A player with six cards puts one away face down.
    Discard { card: Card },
    /// Leading to the third trick after taking the first two: play for all five.
    LaVola,
    Play { card: Card },
}

/// A bet waiting for a later deal, by the number it was made under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BetRecord {
    pub bet: u32,
    pub amount: i64,
}

/// The money of the match: every seat's balance, the pot and each waiting bet. Always sums to
/// zero, since seats start at zero and pay in.
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeaveReason {
    /// Neither a jack nor an ace, and the cutter took nothing.
    NotJackOrAce,
    /// An ace the dealer chose not to take.
    AceDeclined,
}

/// How the deal got its trumps and declarers.
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallRecord {
    pub seat: Seat,
    pub round: u8,
    pub call: Call,
    /// The suit accepted or named; `null` for a pass or "wieder".
    pub suit: Option<Suit>,
}

/// How a deal ended.
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
// State

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The cutter is to cut.
    Cutting,
    /// The turned card lies face up: the dealer decides on an ace (a forced take or a card
    /// that stays follows at once, in the same batch of events).
    TurnedCard,
    Bidding,
    /// Players with six cards put one away.
    Discarding,
    Playing,
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CutRecord {
    pub at: usize,
    pub shown_card: Card,
    pub cutter_took: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DealResult {
    pub outcome: DealOutcome,
    pub winner: Option<Seat>,
    pub rule: String,
    pub amount_played_for: i64,
    pub payments: Vec<Payment>,
    pub explanation: Text,
}

#[derive(Clone, Debug)]
pub struct Deal {
    pub number: u32,
    pub dealer: Seat,
    pub cutter: Seat,
    pub forehand: Seat,
    pub deck: Vec<Card>,
    /// What is left of the pack: the whole deck before the cut, the undealt rest after it.
    pub pack: Vec<Card>,
    pub cut: Option<CutRecord>,
    pub dealt: Vec<Vec<Card>>,
    pub hands: Vec<Vec<Card>>,
    pub turned_card: Option<Card>,
    pub turned_taken: bool,
    pub bet_in_play: Option<u32>,
    /// Round one, then round two once round one is all passes.
    pub rounds: Vec<Auction<CallRecord>>,
    pub trumps: Option<Suit>,
    pub trumps_from: Option<TrumpsFrom>,
    pub declarers: Vec<Seat>,
    pub to_discard: Vec<Seat>,
    pub discards: Vec<(Seat, Card)>,
    pub phase: Phase,
    pub trick: Trick,
    pub tricks: Vec<TrickRecord>,
    pub tricks_taken: Vec<u32>,
    pub la_vola: Option<Seat>,
    pub result: Option<DealResult>,
}

impl Deal {
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
        self.phase == Phase::TurnedCard
            && !self.turned_taken
            && self.turned_card.and_then(|c| c.rank()) == Some(Rank::ACE)
            && !self.cut.is_some_and(|c| c.cutter_took)
    }

    /// True when `seat` may announce la vola now.
    fn la_vola_open(&self, seat: Seat) -> bool {
        self.phase == Phase::Playing
            && self.la_vola.is_none()
            && self.tricks.len() == 2
            && self.trick.is_empty()
            && self.trick.leader == seat
            && self.tricks.iter().all(|t| t.winner == seat)
    }
}

#[derive(Clone, Debug)]
pub struct State {
    pub table: Table,
    pub options: Options,
    pub deals_started: u32,
    pub ledger: Ledger,
    /// The money as the latest money event stated it: must match the ledger built from the
    /// payments alone.
    pub reported: Books,
    pub next_bet: u32,
    pub deal: Option<Deal>,
    pub winners: Option<Vec<Seat>>,
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
// Payments

/// Everything a settlement depends on.
pub struct Settlement<'a> {
    pub players: usize,
    pub declarers: &'a [Seat],
    pub pot: i64,
    pub bet: Option<BetRecord>,
    pub next_bet: u32,
    pub double_bet: bool,
    pub merge_bets: bool,
}

impl Settlement<'_> {
    pub fn amount_played_for(&self) -> i64 {
        self.pot + self.bet.map_or(0, |b| b.amount)
    }

    /// The winner takes the pot and the bet in play.
    fn winner_takes(&self, winner: Seat) -> Vec<Payment> {
        let mut out = vec![Payment::new(
            Account::Pot,
            Account::Seat(winner),
            self.pot,
            rule::WINNER_TAKES,
            format!("Plats {winner} vann given och tar potten, {}.", self.pot),
            format!("Seat {winner} won the deal and takes the pot, {}.", self.pot),
        )];
        if let Some(b) = self.bet {
            out.push(Payment::new(
                Account::Bet(b.bet),
                Account::Seat(winner),
                b.amount,
                rule::WINNER_TAKES,
                format!("Plats {winner} tar också bet {} ({}), som given spelades om tillsammans med potten.", b.bet, b.amount),
                format!("Seat {winner} also takes bet {} ({}), which the deal was played for along with the pot.", b.bet, b.amount),
            ));
        }
        out
    }

    /// A new bet from each of `failed`, at once or twice the amount played for.
    fn bets_from(&self, failed: &[Seat], no_winner: bool) -> Vec<Payment> {
        let amount_for = self.amount_played_for();
        let (size, size_sv, size_en) = if self.double_bet {
            (amount_for.saturating_mul(2), format!("dubbla beloppet man spelade om, 2 × {amount_for}"), format!("twice the amount played for, 2 × {amount_for}"))
        } else {
            (amount_for, format!("beloppet man spelade om, {amount_for}"), format!("the amount played for, {amount_for}"))
        };
        let amount = size.min(TABLE_LIMIT);
        let limit_sv = if amount < size { format!(" (begränsat till bordets tak {TABLE_LIMIT})") } else { String::new() };
        let limit_en = if amount < size { format!(" (held to the table limit of {TABLE_LIMIT})") } else { String::new() };
        let merged = self.merge_bets && failed.len() == 2;
        failed
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                let bet = if merged { self.next_bet } else { self.next_bet + i as u32 };
                let (rule_id, why_sv, why_en) = if no_winner {
                    (
                        rule::NO_WINNER_BET,
                        format!("Ingen vann sticktagningen, men plats {d} var spelförare och sätter ändå bet"),
                        format!("Nobody won the tricks, but seat {d} declared and still pays a bet"),
                    )
                } else if failed.len() == 2 {
                    (
                        rule::BOTH_FAIL,
                        format!("Båda spelförarna misslyckades; plats {d} sätter sin bet"),
                        format!("Both declarers failed; seat {d} pays its bet"),
                    )
                } else {
                    (
                        rule::FAILED_DECLARER,
                        format!("Plats {d} var spelförare men vann inte och sätter bet"),
                        format!("Seat {d} declared but did not win and pays a bet"),
                    )
                };
                let (rule_id, merge_sv, merge_en) = if merged {
                    (
                        rule::MERGE_BETS,
                        format!("; de två betarna slås ihop till bet {bet}"),
                        format!("; the two bets are merged into bet {bet}"),
                    )
                } else {
                    (rule_id, format!(", bet {bet}"), format!(", bet {bet}"))
                };
                Payment::new(
                    Account::Seat(d),
                    Account::Bet(bet),
                    amount,
                    rule_id,
                    format!("{why_sv}: {size_sv}{limit_sv}{merge_sv}."),
                    format!("{why_en}: {size_en}{limit_en}{merge_en}."),
                )
            })
            .collect()
    }

    /// The payments of a deal won normally: the winner takes the pot and the bet in play, and
    /// every declarer other than the winner pays a bet.
    pub fn won(&self, winner: Seat) -> Vec<Payment> {
        let failed: Vec<Seat> = self.declarers.iter().copied().filter(|&d| d != winner).collect();
        let mut out = self.winner_takes(winner);
        out.extend(self.bets_from(&failed, false));
        out
    }

    /// Five players with one trick each: the pot and the bets stay, every declarer pays.
    pub fn no_winner(&self) -> Vec<Payment> {
        self.bets_from(self.declarers, true)
    }

    /// La vola made: the pot and the bet, and the amount played for from every other player.
    /// The declarers' undertaking no longer counts.
    pub fn la_vola_won(&self, winner: Seat) -> Vec<Payment> {
        let amount_for = self.amount_played_for();
        let amount = amount_for.min(TABLE_LIMIT);
        let mut out = self.winner_takes(winner);
        for other in (0..self.players).filter(|&s| s != winner) {
            out.push(Payment::new(
                Account::Seat(other),
                Account::Seat(winner),
                amount,
                rule::LA_VOLA_PAID,
                format!("Plats {winner} vann la vola: plats {other} betalar lika mycket som man spelade om, {amount}."),
                format!("Seat {winner} made la vola: seat {other} pays as much as was played for, {amount}."),
            ));
        }
        out
    }
}

/// Shares `total` held in `sources` out equally over `order` (seats); the chips that do not
/// share evenly go one each to the first seats of `order`.
pub fn share_out(sources: &[(Account, i64)], order: &[Seat]) -> Vec<Payment> {
    let total: i64 = sources.iter().map(|(_, a)| a).sum();
    let n = order.len() as i64;
    if total <= 0 || n == 0 {
        return Vec::new();
    }
    let shares: Vec<i64> = (0..n).map(|i| total / n + (i < total % n) as i64).collect();
    let mut out = Vec::new();
    let mut sources = sources.iter().copied().filter(|(_, a)| *a > 0);
    let mut current = sources.next();
    for (i, &seat) in order.iter().enumerate() {
        let mut owed = shares[i];
        while owed > 0 {
            let Some((from, left)) = current.as_mut() else { break };
            let amount = owed.min(*left);
            let (what_sv, what_en) = match from {
                Account::Pot => ("potten".to_string(), "the pot".to_string()),
                Account::Bet(b) => (format!("bet {b}"), format!("bet {b}")),
                Account::Seat(s) => (format!("plats {s}"), format!("seat {s}")),
            };
            out.push(Payment::new(
                *from,
                Account::Seat(seat),
                amount,
                rule::SHARE_OUT,
                format!("Partiet är slut: plats {seat} får {amount} ur {what_sv} som sin del av det som låg kvar ({} av {total}).", shares[i]),
                format!("The match is over: seat {seat} gets {amount} from {what_en} as its share of what was left ({} of {total}).", shares[i]),
            ));
            owed -= amount;
            *left -= amount;
            if *left == 0 {
                current = sources.next();
            }
        }
    }
    out
}


fn books_after(ledger: &Ledger, players: usize, payments: &[Payment]) -> Books {
    let mut l = ledger.clone();
    payments.iter().for_each(|p| l.pay(p));
    Books::of(&l, players)
}

// ---------------------------------------------------------------------------------------------
// Deciding

impl PolsktPass {
    fn phase_text(phase: Phase) -> (&'static str, &'static str) {
        match phase {
            Phase::Cutting => ("nu ska leken kuperas", "the pack is to be cut now"),
            Phase::TurnedCard => ("nu avgör givaren om det uppvända esset ska tas", "the dealer is now deciding on the turned ace"),
            Phase::Bidding => ("nu pågår budgivningen", "the bidding is under way"),
            Phase::Discarding => (
                "nu lägger den som har sex kort bort ett, innan första utspelet",
                "whoever holds six cards is now putting one away, before the first lead",
            ),
            Phase::Playing => ("nu spelas korten", "the cards are being played"),
            Phase::Over => ("given är slut", "the deal is over"),
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
        let order = state.table.order_from(deal.forehand);
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
            declarers.push(deal.cutter);
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
                if suit == turned && seat != deal.forehand {
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
        if !deal.hands[seat].contains(&card) {
            return Err(RuleViolation::card_not_held(card));
        }
        Ok(vec![Event::CardDiscarded { seat, card }])
    }

    fn decide_la_vola(&self, deal: &Deal, seat: Seat) -> Result<Vec<Event>, RuleViolation> {
        if deal.la_vola.is_some() {
            return Err(RuleViolation::new(rule::LA_VOLA, "La vola är redan ansagt i den här given.", "La vola has already been announced in this deal."));
        }
        if !deal.la_vola_open(seat) {
            return Err(RuleViolation::new(
                rule::LA_VOLA,
                format!(
                    "La vola ansägs bara av den som tagit de två första sticken, i utspelet till det tredje; nu är {} stick spelade och du har tagit {}.",
                    deal.tricks.len(),
                    deal.tricks_taken[seat]
                ),
                format!(
                    "La vola is announced only by whoever took the first two tricks, when leading to the third; {} tricks are played and you took {}.",
                    deal.tricks.len(),
                    deal.tricks_taken[seat]
                ),
            ));
        }
        Ok(vec![Event::LaVolaAnnounced { seat }])
    }

    fn decide_play(&self, state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
        let hand = &deal.hands[seat];
        if !hand.contains(&card) {
            return Err(RuleViolation::card_not_held(card));
        }
        let trumps = deal.trumps.expect("play has trumps");
        if let Some(led) = led_suit(&deal.trick, trumps) {
            if effective_suit(card, trumps) != led && hand.iter().any(|&c| effective_suit(c, trumps) == led) {
                let (led_sv, led_en) = if led == trumps {
                    ("trumf (knektarna räknas dit)".to_string(), "trumps (the jacks count as trumps)".to_string())
                } else {
                    (format!("{} (knektar räknas som trumf)", led.name_sv()), format!("{} (jacks count as trumps)", led.name_en()))
                };
                return Err(RuleViolation::new(
                    rule::FOLLOW_SUIT,
                    format!("Du lade {card} men har {led_sv} på handen; när det är utspelat måste du bekänna."),
                    format!("You played {card} but hold {led_en}; when that is led you must follow suit."),
                ));
            }
        }
        let mut events = vec![Event::CardPlayed { seat, card }];
        let mut trick = deal.trick.clone();
        trick.plays.push((seat, card));
        if !trick.is_complete(state.players()) {
            return Ok(events);
        }
        let (winner, winning, reason) = trick_winner(&trick, trumps);
        let trick_number = deal.tricks.len() + 1;
        events.push(Event::TrickWon {
            trick_number,
            winner,
            card: winning,
            reason,
            plays: trick.plays.iter().map(|&(seat, card)| Play { seat, card }).collect(),
        });
        let mut winners: Vec<Seat> = deal.tricks.iter().map(|t| t.winner).collect();
        winners.push(winner);
        match deal.la_vola {
            Some(v) if winner != v => {
                events.extend(self.end_deal(state, deal, DealOutcome::LaVolaLost, &winners));
            }
            Some(_) if trick_number == HAND => {
                events.extend(self.end_deal(state, deal, DealOutcome::LaVolaWon, &winners));
            }
            None if trick_number == HAND => {
                let outcome =
                    if deal_winner(&winners, state.players()).is_some() { DealOutcome::Won } else { DealOutcome::NoWinner };
                events.extend(self.end_deal(state, deal, outcome, &winners));
            }
            _ => {}
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
            let shares = share_out(&sources, &state.table.order_from(deal.forehand));
            let books = books_after(&after, players, &shares);
            events.push(Event::MatchEnded { winners: match_winners(&books.balances), payments: shares, books });
        }
        events
    }
}

// ---------------------------------------------------------------------------------------------
// The rules

impl Rules for PolsktPass {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;

    fn id(&self) -> &'static str {
        "polskt-pass"
    }

    fn rulebook(&self) -> Rulebook {
        Rulebook {
            game: "polskt-pass",
            sections: vec![
                core::section(),
                rules::section(
                    "polskt-pass.deck",
                    "Kortleken",
                    "The pack",
                    &[
                        (rule::PLAYERS, "Tre, fyra eller fem spelare; spelet är bäst med fyra.", "Three, four or five players; four is best."),
                        (rule::PACK, "Man spelar med 24 kort, nior till ess. Är man fem tas åttorna med, så att leken har 28 kort.", "The pack has 24 cards, nines to aces. With five players the eights go in too, for 28 cards."),
                        (rule::JACKS, "De fyra knektarna är alltid trumf, högst av alla: klöver knekt, spader knekt, hjärter knekt, ruter knekt.", "The four jacks are always trumps, the highest of all: jack of clubs, of spades, of hearts, of diamonds."),
                        (rule::TRUMP_ORDER, "Efter knektarna kommer trumffärgens övriga kort: ess, kung, dam, tio, nio (och åtta).", "Below the jacks come the rest of the trump suit: ace, king, queen, ten, nine (and eight)."),
                        (rule::SIDE_ORDER, "I de andra färgerna går ordningen ess, kung, dam, tio, nio (och åtta).", "In the other suits the order is ace, king, queen, ten, nine (and eight)."),
                    ],
                ),
                rules::section(
                    "polskt-pass.stake",
                    "Insats",
                    "Stake",
                    &[
                        (rule::STAKE, "I början av varje giv lägger givaren den överenskomna insatsen i potten.", "At the start of every deal the dealer puts the agreed stake into the pot."),
                        (rule::POT_CARRIES, "Det som ligger kvar i potten från tidigare givar stannar där; insatsen läggs till det.", "Whatever the pot holds from earlier deals stays there; the stake is added to it."),
                    ],
                ),
                rules::section(
                    "polskt-pass.deal",
                    "Given",
                    "The deal",
                    &[
                        (rule::DEALER_ROTATES, "Given och spelet går medsols: efter varje giv, hur den än slutade, ger spelaren till vänster.", "Dealing and play go clockwise: after every deal, however it ended, the player on the left deals."),
                        (rule::CUT, "Spelaren till höger om givaren kuperar och visar bottenkortet i den avlyfta delen för alla.", "The player on the dealer's right cuts and shows everyone the bottom card of the part lifted off."),
                        (rule::CUT_JACK, "Är det visade kortet en knekt måste den som kuperade ta det; annars ligger det kvar i leken.", "If the card shown is a jack, the cutter must take it; otherwise it stays in the pack."),
                        (rule::THREE_THEN_TWO, "Givaren delar ut fem kort var med början till vänster: först tre kort var, sedan två kort var.", "The dealer gives five cards each starting on the left: three each first, then two each."),
                        (rule::TURNED_CARD, "Nästa kort i leken vänds upp så att alla ser det.", "The next card of the pack is turned face up for everyone to see."),
                        (rule::MUST_TAKE, "Givaren måste ta det uppvända kortet om det är en knekt eller om den som kuperade tog ett kort.", "The dealer must take the turned card if it is a jack or if the cutter took a card."),
                        (rule::MAY_TAKE_ACE, "Är det uppvända kortet ett ess och tog den som kuperade inget kort, väljer givaren själv om esset ska tas.", "If the turned card is an ace and the cutter took no card, the dealer chooses whether to take the ace."),
                        (rule::TURNED_STAYS, "I alla andra fall ligger det uppvända kortet kvar på bordet.", "In every other case the turned card stays on the table."),
                        (rule::REST_UNUSED, "Resten av leken används inte i given utan läggs åt sidan.", "The rest of the pack is not used in the deal and is put aside."),
                        (rule::DISCARD, "Den som har sex kort, givaren och kanske den som kuperade, lägger bort ett kort dolt före första utspelet.", "Whoever holds six cards, the dealer and perhaps the cutter, puts one card away face down before the first lead."),
                    ],
                ),
                rules::section(
                    "polskt-pass.bidding",
                    "Trumf och budgivning",
                    "Trumps and bidding",
                    &[
                        (rule::DEALER_TOOK, "Tog givaren det uppvända kortet, frivilligt eller av tvång, blir det ingen budgivning: dess färg är trumf och givaren är spelförare.", "If the dealer took the turned card, by choice or not, there is no bidding: its suit is trumps and the dealer declares."),
                        (rule::TWO_DECLARERS, "Tog både givaren och den som kuperade ett kort är båda spelförare och spelar var för sig; bara så kan det bli två spelförare.", "If both the dealer and the cutter took a card, both declare and play independently; this is the only way to have two declarers."),
                        (rule::ROUND_ONE, "Annars börjar förhand, och sedan går turen medsols: i första rundan säger man om man vill vara spelförare med den uppvända färgen som trumf, eller passar.", "Otherwise forehand speaks first, then the turn passes clockwise: in the first round each says whether to declare with the turned suit as trumps, or passes."),
                        (rule::ROUND_TWO, "Passar alla följer en andra runda där man anger en trumffärg och blir spelförare, eller säger \"wieder\" och passar.", "If all pass, a second round follows in which each names a trump suit and declares, or says \"wieder\" and passes."),
                        (rule::FOREHAND_ANY_SUIT, "I andra rundan får förhand välja vilken färg som helst, även den uppvända.", "In the second round forehand may choose any suit, the turned suit included."),
                        (rule::OTHERS_OTHER_SUITS, "Övriga spelare får i andra rundan bara välja bland de tre färger som inte vändes upp.", "In the second round the other players may choose only among the three suits not turned."),
                        (rule::FIRST_ENDS, "Så fort någon blir spelförare är budgivningen slut.", "As soon as someone declares, the bidding is over."),
                        (rule::ALL_PASS, "Passar alla två gånger är given slut utan betalning, och turen att ge går vidare; den nya givaren sätter en ny insats.", "If everyone passes twice the deal ends with no payment and the deal passes on; the new dealer stakes again."),
                    ],
                ),
                rules::section(
                    "polskt-pass.play",
                    "Spelet",
                    "Play",
                    &[
                        (rule::FIRST_LEAD, "Förhand spelar ut till första sticket.", "Forehand leads to the first trick."),
                        (rule::FOLLOW_SUIT, "Man måste bekänna färg om man kan.", "You must follow suit if you can."),
                        (rule::VOID, "Kan man inte bekänna får man lägga vilket kort som helst.", "If you cannot follow suit you may play any card."),
                        (rule::TRICK_WINNER, "Finns trumf i sticket tar högsta trumfen det, annars högsta kortet i utspelsfärgen.", "If the trick holds a trump the highest trump takes it, otherwise the highest card of the suit led."),
                        (rule::WINNER_LEADS, "Den som tar ett stick spelar ut till nästa.", "Whoever takes a trick leads to the next."),
                        (rule::LA_VOLA, "Den som tagit de två första sticken kan säga \"la vola\" när den spelar ut till det tredje, och spelar då om att ta alla fem.", "Whoever took the first two tricks may say \"la vola\" when leading to the third, and then plays to take all five."),
                    ],
                ),
                rules::section(
                    "polskt-pass.win",
                    "Vem vinner",
                    "Who wins",
                    &[
                        (rule::THREE_TRICKS, "Den som tar minst tre stick vinner sticktagningen.", "Whoever takes at least three tricks wins the tricks."),
                        (rule::FIRST_TO_TWO, "Tar ingen tre stick vinner den som först kom upp i två.", "If nobody takes three tricks, whoever first reached two wins."),
                        (rule::NO_WINNER, "Är man fem och tar alla ett stick var finns ingen vinnare; spelföraren har ändå misslyckats.", "With five players each taking one trick there is no winner; the declarer has still failed."),
                        (rule::LA_VOLA_ONLY, "När la vola är sagt gäller inte längre spelförarens åtagande: man spelar bara om la vola.", "Once la vola is said the declarer's undertaking no longer counts: the deal is played for la vola alone."),
                        (rule::LA_VOLA_LOST, "Förlorar den som sagt la vola ett stick avbryts given genast och räknas som rundpass: ingen betalar, och turen att ge går vidare.", "If the player who said la vola loses a trick the deal stops at once and counts as a round pass: nobody pays, and the deal passes on."),
                    ],
                ),
                rules::section(
                    "polskt-pass.payment",
                    "Betalning",
                    "Payment",
                    &[
                        (rule::AMOUNT, "Man spelar om potten plus högst en bet, en straffsats som en spelförare satt i en tidigare giv.", "A deal is played for the pot plus at most one bet, a forfeit a declarer paid in an earlier deal."),
                        (rule::LEAST_BET, "Finns två eller fler betar när given börjar spelar man om den minst värda; de andra väntar till kommande givar.", "If two or more bets are waiting when the deal starts, it is played for the least valuable; the others wait for later deals."),
                        (rule::WINNER_TAKES, "Den som vinner given, spelförare eller inte, tar potten och beten man spelade om.", "Whoever wins the deal, declarer or not, takes the pot and the bet played for."),
                        (rule::LA_VOLA_PAID, "Den som vinner la vola tar det man spelade om och får dessutom lika mycket av var och en av de andra.", "Whoever makes la vola takes what was played for and also gets as much from each of the others."),
                        (rule::FAILED_DECLARER, "Vinner någon annan än spelföraren har spelföraren misslyckats och sätter bet: lika mycket som man spelade om.", "If anyone but the declarer wins, the declarer has failed and pays a bet: as much as was played for."),
                        (rule::BOTH_FAIL, "Med två spelförare misslyckas minst den ena; misslyckas båda sätter de en bet var.", "With two declarers at least one fails; if both fail, each pays a bet."),
                        (rule::NO_WINNER_BET, "Finns ingen vinnare ligger potten och betarna kvar till nästa giv, men spelföraren sätter ändå bet.", "If there is no winner the pot and the bets stay for the next deal, but the declarer still pays a bet."),
                        (rule::BETS_APART, "Varje bet hålls åtskild från potten och från andra betar tills en giv spelas om den.", "Each bet is kept apart from the pot and from other bets until a deal is played for it."),
                    ],
                ),
                rules::section(
                    "polskt-pass.variant",
                    "Överenskommelser",
                    "Agreements",
                    &[
                        (rule::DOUBLE_BET, "Tillval: en misslyckad spelförares bet är dubbla beloppet man spelade om.", "Option: a failed declarer's bet is twice the amount played for."),
                        (rule::MERGE_BETS, "Tillval: misslyckas två spelförare i samma giv slås deras betar ihop till en enda, dubbelt så stor.", "Option: when two declarers fail in the same deal, their bets are merged into a single bet twice the size."),
                    ],
                ),
                rules::house_rules(
                    "polskt-pass.house",
                    &[
                        (rule::THREE_PLAYERS, "Tre spelare följer fyrmansreglerna oförändrade, med 24 kort.", "Three players follow the four-player rules unchanged, with 24 cards."),
                        (rule::FIRST_DEALER, "Plats 0 ger i första given.", "Seat 0 deals the first deal."),
                        (rule::CUT_RANGE, "Vid kuperingen lyfts minst tre kort och minst tre blir kvar; den avlyfta delen läggs under resten, så det visade kortet hamnar sist i leken och delas inte ut.", "The cut lifts at least three cards and leaves at least three; the lifted part goes under the rest, so the card shown ends at the bottom of the pack and is not dealt."),
                        (rule::JACKS_FOLLOW_TRUMPS, "Eftersom knektarna är trumf hör de till trumffärgen när man bekänner, inte till sin tryckta färg.", "Since the jacks are trumps, they belong to the trump suit for following suit, not to their printed suit."),
                        (rule::DISCARD_ANY, "Vilket kort som helst får läggas bort, även det man just tog; givaren och den som kuperade lägger bort i valfri ordning. Det bortlagda kortet visas bara för den som lade bort det, och i givens protokoll när given är slut.", "Any card may be put away, even the one just taken; dealer and cutter put away in either order. The card is shown only to whoever put it away, and in the deal's record once the deal is over."),
                        (rule::REST_HIDDEN, "Korten som inte delas ut visas aldrig, inte heller i protokollet efteråt; bara kortet som visades vid kuperingen är känt.", "The cards not dealt are never shown, not even in the record afterwards; only the card shown at the cut is known."),
                        (rule::ALL_TRICKS, "Alla fem sticken spelas även när vinnaren redan är klar, utom när la vola förloras.", "All five tricks are played even when the winner is already settled, except when la vola is lost."),
                        (rule::EQUAL_BETS, "Är två väntande betar lika mycket värda spelar man om den äldsta.", "If two waiting bets are worth the same, the deal is played for the older."),
                        (rule::MATCH_LENGTH, "Ett parti är ett överenskommet antal varv: var och en ger lika många gånger.", "A match is an agreed number of rounds: everyone deals the same number of times."),
                        (rule::SHARE_OUT, "När partiet är slut delas det som ligger i potten och i betarna lika mellan spelarna; det som inte går jämnt ut går ett i taget till spelarna med början till vänster om sista givaren.", "When the match is over, what the pot and the bets hold is shared equally between the players; what does not share evenly goes one each to the players starting on the last dealer's left."),
                        (rule::TIES_SHARE, "Har flera spelare samma högsta saldo när partiet är slut delar de på segern.", "If several players share the highest balance at the end, they share the win."),
                        (rule::TABLE_LIMIT, "Ingen bet och ingen betalning för la vola är större än bordets tak på 1 000 000 000 000, så att alla summor förblir exakta.", "No bet and no la vola payment is larger than the table limit of 1,000,000,000,000, so every sum stays exact."),
                    ],
                ),
            ],
        }
    }

    fn options(&self) -> Vec<OptionDoc> {
        let d = Options::default();
        vec![
            OptionDoc {
                name: "stake",
                default: json!(d.stake),
                sv: "Insatsen som givaren lägger i potten i början av varje giv (1 till 1 000 000).",
                en: "The stake the dealer puts into the pot at the start of every deal (1 to 1,000,000).",
            },
            OptionDoc {
                name: "double_bet",
                default: json!(d.double_bet),
                sv: "En misslyckad spelförares bet är dubbla beloppet man spelade om, i stället för lika mycket.",
                en: "A failed declarer's bet is twice the amount played for, instead of the same amount.",
            },
            OptionDoc {
                name: "merge_bets",
                default: json!(d.merge_bets),
                sv: "Misslyckas två spelförare i samma giv slås deras betar ihop till en enda dubbelt så stor bet.",
                en: "When two declarers fail in the same deal, their bets are merged into one bet twice the size.",
            },
            OptionDoc {
                name: "rounds",
                default: json!(d.rounds),
                sv: "Hur många gånger var och en ger innan partiet är slut (1 till 10).",
                en: "How many times each player deals before the match ends (1 to 10).",
            },
        ]
    }

    fn player_counts(&self) -> RangeInclusive<usize> {
        MIN_PLAYERS..=MAX_PLAYERS
    }

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
            table: Table::new(players),
            options,
            deals_started: 0,
            ledger: Ledger::new(),
            reported: Books { balances: vec![0; players], pot: 0, bets: Vec::new() },
            next_bet: 1,
            deal: None,
            winners: None,
        })
    }

    fn status(&self, state: &State) -> Status {
        if let Some(winners) = &state.winners {
            let who = seats_text(winners);
            let best = winners.first().map_or(0, |&s| state.ledger.balance(Account::Seat(s)));
            let explanation = if winners.len() == 1 {
                Text::new(format!("Plats {who} vann med högst saldo, {best}."), format!("Seat {who} won with the highest balance, {best}."))
            } else {
                Text::new(
                    format!("Platserna {who} delar segern med saldot {best} var."),
                    format!("Seats {who} share the win with a balance of {best} each."),
                )
            };
            return Status::Finished { outcome: Outcome { winners: winners.clone(), explanation } };
        }
        let Some(deal) = state.deal.as_ref().filter(|d| d.phase != Phase::Over) else {
            return Status::NeedsDeck { composition: composition(state.players()) };
        };
        let seats = match deal.phase {
            Phase::Cutting => vec![deal.cutter],
            Phase::TurnedCard => vec![deal.dealer],
            Phase::Bidding => deal.bidding_turn().map(|(_, s)| s).into_iter().collect(),
            Phase::Discarding => deal.to_discard.clone(),
            Phase::Playing => vec![deal.trick.next_to_play(&state.table)],
            Phase::Over => Vec::new(),
        };
        Status::ToAct { seats }
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals_started
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let players = state.players();
        let deal_number = state.deals_started + 1;
        let dealer = (deal_number as usize - 1) % players;
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
        let deal = state.deal.as_ref().expect("a seat acts only while a deal is in play");
        use Command as C;
        let fits = match command {
            C::Cut { .. } => deal.phase == Phase::Cutting,
            C::TakeAce | C::LeaveAce => deal.phase == Phase::TurnedCard,
            C::Accept | C::Pass | C::NameSuit { .. } | C::Wieder => deal.phase == Phase::Bidding,
            C::Discard { .. } => deal.phase == Phase::Discarding,
            C::LaVola | C::Play { .. } => deal.phase == Phase::Playing,
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
            Event::DealStarted { deal_number, dealer, cutter, forehand, deck, books, bet_in_play, next_bet, options, .. } => {
                state.deals_started = *deal_number;
                // The deal carries what it inherits, so it can be replayed on its own.
                state.options = options.clone();
                state.ledger = ledger_from(books);
                state.reported = books.clone();
                state.next_bet = *next_bet;
                state.deal = Some(Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    cutter: *cutter,
                    forehand: *forehand,
                    deck: deck.clone(),
                    pack: deck.clone(),
                    cut: None,
                    dealt: vec![Vec::new(); players],
                    hands: vec![Vec::new(); players],
                    turned_card: None,
                    turned_taken: false,
                    bet_in_play: *bet_in_play,
                    rounds: Vec::new(),
                    trumps: None,
                    trumps_from: None,
                    declarers: Vec::new(),
                    to_discard: Vec::new(),
                    discards: Vec::new(),
                    phase: Phase::Cutting,
                    trick: Trick::led_by(*forehand),
                    tricks: Vec::new(),
                    tricks_taken: vec![0; players],
                    la_vola: None,
                    result: None,
                });
            }
            Event::StakePaid { payment, books } => {
                state.ledger.pay(payment);
                state.reported = books.clone();
            }
            Event::PackCut { seat, at, shown_card, cutter_took } => {
                let Some(deal) = state.deal.as_mut() else { return };
                let at = (*at).min(deal.deck.len());
                deal.pack = deal.deck[at..].iter().chain(&deal.deck[..at]).copied().collect();
                if *cutter_took {
                    take_card(&mut deal.pack, *shown_card);
                    deal.hands[*seat].push(*shown_card);
                }
                deal.cut = Some(CutRecord { at, shown_card: *shown_card, cutter_took: *cutter_took });
            }
            Event::CardsDealt { hands, turned_card, .. } => {
                let Some(deal) = state.deal.as_mut() else { return };
                for (s, hand) in hands.iter().enumerate() {
                    for &c in hand {
                        take_card(&mut deal.pack, c);
                    }
                    deal.hands[s].extend_from_slice(hand);
                    sort_hand(&mut deal.hands[s]);
                }
                take_card(&mut deal.pack, *turned_card);
                deal.dealt = hands.clone();
                deal.turned_card = Some(*turned_card);
                deal.phase = Phase::TurnedCard;
            }
            Event::TurnedCardTaken { seat, card, .. } => {
                let Some(deal) = state.deal.as_mut() else { return };
                deal.hands[*seat].push(*card);
                sort_hand(&mut deal.hands[*seat]);
                deal.turned_taken = true;
            }
            Event::TurnedCardLeft { .. } => {
                let Some(deal) = state.deal.as_mut() else { return };
                deal.phase = Phase::Bidding;
                deal.rounds = vec![Auction::new(state.table.order_from(deal.forehand))];
            }
            Event::BidMade { seat, round, call, suit } => {
                let Some(deal) = state.deal.as_mut() else { return };
                if let Some(r) = deal.rounds.last_mut() {
                    r.record(*seat, CallRecord { seat: *seat, round: *round, call: *call, suit: *suit });
                }
                if !call.declares() && deal.rounds.len() == 1 && deal.rounds[0].is_complete() {
                    deal.rounds.push(Auction::new(state.table.order_from(deal.forehand)));
                }
            }
            Event::TrumpsSet { trumps, declarers, from, .. } => {
                let Some(deal) = state.deal.as_mut() else { return };
                deal.trumps = Some(*trumps);
                deal.trumps_from = Some(*from);
                deal.declarers = declarers.clone();
                deal.to_discard = (0..players).filter(|&s| deal.hands[s].len() > HAND).collect();
                deal.phase = if deal.to_discard.is_empty() { Phase::Playing } else { Phase::Discarding };
            }
            Event::CardDiscarded { seat, card } => {
                let Some(deal) = state.deal.as_mut() else { return };
                take_card(&mut deal.hands[*seat], *card);
                deal.discards.push((*seat, *card));
                deal.to_discard.retain(|s| s != seat);
                if deal.to_discard.is_empty() {
                    deal.phase = Phase::Playing;
                }
            }
            Event::LaVolaAnnounced { seat } => {
                if let Some(deal) = state.deal.as_mut() {
                    deal.la_vola = Some(*seat);
                }
            }
            Event::CardPlayed { seat, card } => {
                let Some(deal) = state.deal.as_mut() else { return };
                take_card(&mut deal.hands[*seat], *card);
                deal.trick.plays.push((*seat, *card));
            }
            Event::TrickWon { trick_number, winner, card, reason, plays } => {
                let Some(deal) = state.deal.as_mut() else { return };
                let won = (*winner, *card, *reason);
                trick::book_won(&mut deal.trick, &mut deal.tricks, &mut deal.tricks_taken, *trick_number, plays, won);
            }
            Event::DealEnded { outcome, winner, rule, amount_played_for, payments, explanation, books, .. } => {
                for p in payments {
                    state.ledger.pay(p);
                    if let Account::Bet(b) = p.to {
                        state.next_bet = state.next_bet.max(b + 1);
                    }
                }
                state.reported = books.clone();
                let Some(deal) = state.deal.as_mut() else { return };
                deal.phase = Phase::Over;
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
                state.winners = Some(winners.clone());
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        if !self.status(state).to_act().contains(&seat) {
            return Vec::new();
        }
        let Some(deal) = &state.deal else { return Vec::new() };
        use Command as C;
        match deal.phase {
            Phase::Cutting => (MIN_CUT..=deal.deck.len() - MIN_CUT).map(|at| C::Cut { at }).collect(),
            Phase::TurnedCard if deal.ace_choice_open() => vec![C::TakeAce, C::LeaveAce],
            Phase::TurnedCard => Vec::new(),
            Phase::Bidding => match deal.bidding_turn() {
                Some((1, _)) => vec![C::Accept, C::Pass],
                Some(_) => {
                    let turned = deal.turned_suit();
                    Suit::ALL
                        .into_iter()
                        .filter(|&s| seat == deal.forehand || Some(s) != turned)
                        .map(|suit| C::NameSuit { suit })
                        .chain([C::Wieder])
                        .collect()
                }
                None => Vec::new(),
            },
            Phase::Discarding => trick::distinct(deal.hands[seat].clone()).into_iter().map(|card| C::Discard { card }).collect(),
            Phase::Playing => {
                let trumps = deal.trumps.expect("play has trumps");
                let mut moves: Vec<C> = trick::distinct(playable(&deal.hands[seat], &deal.trick, trumps))
                    .into_iter()
                    .map(|card| C::Play { card })
                    .collect();
                if deal.la_vola_open(seat) {
                    moves.push(C::LaVola);
                }
                moves
            }
            Phase::Over => Vec::new(),
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

    fn view(&self, state: &State, viewer: Viewer) -> Value {
        let players = state.players();
        let status = self.status(state);
        let phase = if state.winners.is_some() {
            "finished"
        } else {
            match &state.deal {
                None => "waiting-for-deal",
                Some(d) => match d.phase {
                    Phase::Cutting => "cutting",
                    Phase::TurnedCard => "turned-card",
                    Phase::Bidding => "bidding",
                    Phase::Discarding => "discarding",
                    Phase::Playing => "playing",
                    Phase::Over => "deal-over",
                },
            }
        };
        let books = state.books();
        let mut v = Map::new();
        v.insert("phase".into(), json!(phase));
        v.insert("players".into(), json!(players));
        v.insert("options".into(), json!(state.options));
        v.insert("deal_number".into(), json!(state.deals_started));
        v.insert("deals_total".into(), json!(state.deals_total()));
        v.insert("to_act".into(), json!(status.to_act()));
        v.insert("winners".into(), json!(state.winners));
        v.insert("balances".into(), json!(books.balances));
        v.insert("pot".into(), json!(books.pot));
        v.insert("bets".into(), json!(books.bets));
        if let Viewer::Seat(s) = viewer {
            v.insert("seat".into(), json!(s));
        }
        let Some(deal) = &state.deal else { return Value::Object(v) };
        let bet = deal.bet_in_play.map(|b| state.ledger.balance(Account::Bet(b)));
        v.insert("dealer".into(), json!(deal.dealer));
        v.insert("cutter".into(), json!(deal.cutter));
        v.insert("forehand".into(), json!(deal.forehand));
        v.insert("bet_in_play".into(), json!(deal.bet_in_play));
        if deal.phase != Phase::Over {
            v.insert("amount_played_for".into(), json!(books.pot + bet.unwrap_or(0)));
        }
        v.insert("cut".into(), json!(deal.cut));
        v.insert("turned_card".into(), json!(deal.turned_card));
        v.insert("turned_card_taken".into(), json!(deal.turned_taken));
        v.insert("ace_choice".into(), json!(deal.ace_choice_open()));
        v.insert("trumps".into(), json!(deal.trumps));
        v.insert("trumps_from".into(), json!(deal.trumps_from));
        v.insert("trumps_rule".into(), json!(deal.trumps_from.map(|f| f.rule())));
        v.insert("declarers".into(), json!(deal.declarers));
        v.insert(
            "bidding".into(),
            json!({
                "round": deal.bidding_turn().map(|(r, _)| r),
                "next": deal.bidding_turn().map(|(_, s)| s),
                "calls": deal.calls().collect::<Vec<_>>(),
            }),
        );
        v.insert("hand_sizes".into(), json!(deal.hands.iter().map(Vec::len).collect::<Vec<_>>()));
        v.insert("to_discard".into(), json!(deal.to_discard));
        v.insert("discarded".into(), json!(deal.discards.iter().map(|(s, _)| *s).collect::<Vec<_>>()));
        v.insert("undealt".into(), json!(deal.pack.len()));
        v.insert("tricks_taken".into(), json!(deal.tricks_taken));
        v.insert("tricks_played".into(), json!(deal.tricks.len()));
        v.insert(
            "trick".into(),
            json!({
                "leader": deal.trick.leader,
                "plays": deal.trick.plays.iter().map(|&(seat, card)| Play { seat, card }).collect::<Vec<_>>(),
                "led_suit": deal.trumps.and_then(|t| led_suit(&deal.trick, t)),
            }),
        );
        v.insert("last_trick".into(), json!(deal.tricks.last()));
        v.insert("la_vola".into(), json!(deal.la_vola));
        v.insert("result".into(), json!(deal.result));
        match viewer {
            Viewer::Seat(s) if s < players => {
                v.insert("hand".into(), json!(deal.hands[s]));
                let own = deal.discards.iter().find(|(d, _)| *d == s).map(|(_, c)| *c);
                v.insert("discard".into(), json!(own));
            }
            Viewer::Record => {
                // Everything but the undealt rest of the pack, which stays hidden for ever.
                v.insert("hands".into(), json!(deal.hands));
                v.insert("dealt_hands".into(), json!(deal.dealt));
                v.insert(
                    "discards".into(),
                    json!(deal.discards.iter().map(|&(seat, card)| Play { seat, card }).collect::<Vec<_>>()),
                );
                v.insert("tricks".into(), json!(deal.tricks));
            }
            _ => {}
        }
        Value::Object(v)
    }

    fn redact(&self, _state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let full = serde_json::to_value(event).expect("events serialize");
        let Value::Object(mut map) = full else { return full };
        let open = viewer == Viewer::Record || deal_over;
        match event {
            Event::DealStarted { deck, .. } => {
                // The order would give away the undealt rest: never shown to anyone.
                map.remove("deck");
                map.insert("deck_size".into(), json!(deck.len()));
            }
            Event::CardsDealt { hands, .. } if !open => {
                let shown: Vec<Value> =
                    (0..hands.len()).map(|s| if viewer == Viewer::Seat(s) { json!(hands[s]) } else { Value::Null }).collect();
                map.insert("hands".into(), Value::Array(shown));
                map.insert("hand_sizes".into(), json!(hands.iter().map(Vec::len).collect::<Vec<_>>()));
            }
            Event::CardDiscarded { seat, .. } if !open && viewer != Viewer::Seat(*seat) => {
                map.insert("card".into(), Value::Null);
                map.insert("hidden".into(), json!(true));
            }
            _ => {}
        }
        Value::Object(map)
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deal else { return Vec::new() };
        let public = deal.public_cards();
        let held = deal.hands.iter().enumerate().flat_map(|(s, h)| h.iter().map(move |&c| (c, vec![s])));
        let discarded = deal.discards.iter().map(|&(s, c)| (c, vec![s]));
        let rest = deal.pack.iter().map(|&c| (c, Vec::new()));
        held.chain(discarded).chain(rest).filter(|(c, _)| !public.contains(c)).collect()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        let players = state.players();
        state.ledger.check()?;
        let books = state.books();
        if books != state.reported {
            return Err(format!("the ledger holds {books:?} but the last money event stated {:?}", state.reported));
        }
        if books.total() != 0 {
            return Err(format!("balances, pot and bets sum to {}", books.total()));
        }
        if let Some(b) = books.bets.iter().find(|b| b.bet >= state.next_bet) {
            return Err(format!("bet {} exists but the next bet is numbered {}", b.bet, state.next_bet));
        }
        if state.deals_started > state.deals_total() {
            return Err(format!("deal {} of {}", state.deals_started, state.deals_total()));
        }
        if let Some(winners) = &state.winners {
            if state.deals_started != state.deals_total() {
                return Err("the match ended before its last deal".into());
            }
            if books.pot != 0 || !books.bets.is_empty() {
                return Err("the match ended with chips left in the pot or the bets".into());
            }
            if *winners != match_winners(&books.balances) {
                return Err(format!("winners {winners:?} do not have the highest balance of {:?}", books.balances));
            }
        }
        let Some(deal) = &state.deal else { return Ok(()) };
        if deal.number != state.deals_started || deal.number == 0 {
            return Err(format!("the deal in play is {} but {} were started", deal.number, state.deals_started));
        }
        let dealer = (deal.number as usize - 1) % players;
        if deal.dealer != dealer || deal.cutter != state.table.after(dealer, players - 1) || deal.forehand != state.table.forehand(dealer) {
            return Err(format!("deal {} has dealer {}, cutter {}, forehand {}", deal.number, deal.dealer, deal.cutter, deal.forehand));
        }
        if let Some(b) = deal.bet_in_play {
            if deal.phase != Phase::Over && state.ledger.balance(Account::Bet(b)) <= 0 {
                return Err(format!("the deal is played for bet {b}, which holds nothing"));
            }
        }

        // Every card is in exactly one place.
        let mut all: Vec<Card> = deal
            .hands
            .iter()
            .flatten()
            .copied()
            .chain(deal.discards.iter().map(|&(_, c)| c))
            .chain(deal.tricks.iter().flat_map(|t| t.plays.iter().map(|p| p.card)))
            .chain(deal.trick.cards())
            .chain(deal.turned_card.filter(|_| !deal.turned_taken))
            .chain(deal.pack.iter().copied())
            .collect();
        let pack = composition(players);
        if !is_permutation(&all, &pack) {
            all.sort();
            return Err(format!("the cards of the deal are not the pack, each once: {}", crate::cards::codes(&all)));
        }
        if !is_permutation(&deal.deck, &pack) {
            return Err("the recorded deck is not the pack".into());
        }

        let Some(cut) = deal.cut else {
            if deal.phase != Phase::Cutting || deal.pack.len() != pack.len() {
                return Err("cards moved before the cut".into());
            }
            return Ok(());
        };
        if cut.cutter_took != is_jack(cut.shown_card) || deal.deck.get(cut.at.wrapping_sub(1)) != Some(&cut.shown_card) {
            return Err(format!("the cut at {} showed {} and the cutter took it: {}", cut.at, cut.shown_card, cut.cutter_took));
        }
        if !cut.cutter_took && deal.pack.last() != Some(&cut.shown_card) {
            return Err("the card shown at the cut is not at the bottom of the undealt rest".into());
        }
        if deal.turned_card.is_none() {
            // Cut, not yet dealt: only the jack shown at the cut can have left the pack.
            let taken = cut.cutter_took as usize;
            if deal.pack.len() + taken != pack.len() || deal.hands.iter().map(Vec::len).sum::<usize>() != taken {
                return Err("cards moved between the cut and the deal".into());
            }
            return Ok(());
        }
        let dealt_all = 1 + players * HAND + cut.cutter_took as usize;
        if deal.pack.len() + dealt_all != pack.len() || deal.dealt.iter().any(|h| h.len() != HAND) {
            return Err(format!("{} cards left undealt", deal.pack.len()));
        }
        if deal.turned_taken && !(cut.cutter_took || deal.turned_card.is_some_and(|c| is_jack(c) || c.rank() == Some(Rank::ACE))) {
            return Err("the dealer took a turned card that must stay".into());
        }
        if (cut.cutter_took || deal.turned_card.is_some_and(is_jack)) && deal.phase != Phase::TurnedCard && !deal.turned_taken {
            return Err("the dealer left a turned card that must be taken".into());
        }

        // Hand sizes: five each, one more for a taken card until it is put away, one fewer for
        // each card played.
        let played = |s: Seat| {
            deal.tricks.iter().filter(|t| t.plays.iter().any(|p| p.seat == s)).count()
                + deal.trick.plays.iter().filter(|&&(p, _)| p == s).count()
        };
        for s in 0..players {
            let extra = (s == deal.dealer && deal.turned_taken) as usize + (s == deal.cutter && cut.cutter_took) as usize;
            let discarded = deal.discards.iter().filter(|&&(d, _)| d == s).count();
            if discarded > extra {
                return Err(format!("seat {s} put away {discarded} cards"));
            }
            let expected = HAND + extra - discarded - played(s);
            if deal.hands[s].len() != expected {
                return Err(format!("seat {s} holds {} cards, expected {expected}", deal.hands[s].len()));
            }
            let won = deal.tricks.iter().filter(|t| t.winner == s).count() as u32;
            if won != deal.tricks_taken[s] {
                return Err(format!("seat {s} is credited {} tricks but won {won}", deal.tricks_taken[s]));
            }
        }
        if matches!(deal.phase, Phase::Playing) && deal.hands.iter().any(|h| h.len() > HAND) {
            return Err("play started before every extra card was put away".into());
        }

        // Declarers and trumps.
        match deal.trumps_from {
            Some(TrumpsFrom::DealerTook) => {
                let mut expected = vec![deal.dealer];
                if cut.cutter_took {
                    expected.push(deal.cutter);
                }
                if !deal.turned_taken || deal.declarers != expected || deal.trumps != deal.turned_suit() {
                    return Err(format!("declarers {:?} with trumps {:?} after the dealer took", deal.declarers, deal.trumps));
                }
            }
            Some(from) => {
                let last = deal.calls().last().copied();
                let ok = matches!(last, Some(c) if c.call.declares() && deal.declarers == [c.seat] && deal.trumps == c.suit
                    && (from == TrumpsFrom::RoundOne) == (c.round == 1));
                if !ok || deal.turned_taken {
                    return Err(format!("declarers {:?} do not match the bidding", deal.declarers));
                }
            }
            None => {
                if matches!(deal.phase, Phase::Discarding | Phase::Playing) {
                    return Err("play without trumps".into());
                }
            }
        }
        if deal.calls().filter(|c| c.call.declares()).count() > 1 || deal.rounds.len() > 2 {
            return Err("the bidding went on after someone declared".into());
        }

        // Tricks.
        if deal.tricks.len() > HAND || deal.trick.plays.len() > players {
            return Err("more tricks or plays than the deal has".into());
        }
        if let Some(trumps) = deal.trumps {
            trick::check_latest(&deal.tricks, &deal.trick, &state.table, |t| trick_winner(t, trumps))?;
        }
        if let Some(v) = deal.la_vola {
            if deal.tricks.len() < 2 || deal.tricks[..2].iter().any(|t| t.winner != v) {
                return Err(format!("seat {v} announced la vola without taking the first two tricks"));
            }
            // A lost trick ends the deal: no trick after it, and no card either.
            let lost = deal.tricks.iter().position(|t| t.winner != v);
            if lost.is_some_and(|i| i + 1 < deal.tricks.len() || !deal.trick.is_empty()) {
                return Err("la vola was lost but the deal went on".into());
            }
        }
        if deal.phase == Phase::Over {
            let Some(result) = &deal.result else { return Err("a finished deal has no result".into()) };
            let complete = deal.tricks.len() == HAND;
            let ok = match result.outcome {
                DealOutcome::AllPassed => deal.trumps.is_none() && deal.rounds.len() == 2 && deal.tricks.is_empty(),
                DealOutcome::LaVolaLost => deal.la_vola.is_some() && deal.tricks.last().map(|t| t.winner) != deal.la_vola,
                DealOutcome::LaVolaWon => complete && deal.la_vola.is_some() && deal.tricks_taken.iter().max() == Some(&(HAND as u32)),
                DealOutcome::Won | DealOutcome::NoWinner => {
                    let winners: Vec<Seat> = deal.tricks.iter().map(|t| t.winner).collect();
                    complete && deal.la_vola.is_none() && deal_winner(&winners, players).map(|(w, _)| w) == result.winner
                }
            };
            if !ok {
                return Err(format!("the deal ended as {:?} after {} tricks", result.outcome, deal.tricks.len()));
            }
        }
        Ok(())
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let moves = self.legal_moves(state, seat);
        let deal = state.deal.as_ref()?;
        let pick = |moves: &[Command]| moves.get((seed % moves.len().max(1) as u64) as usize).cloned();
        let hand = &deal.hands[seat];
        let trump_count = |suit: Suit| hand.iter().filter(|&&c| is_trump(c, suit)).count();
        use Command as C;
        match deal.phase {
            Phase::TurnedCard => {
                let suit = deal.turned_suit()?;
                // A few trumps besides the ace make it worth declaring; now and then on a hunch.
                let take = trump_count(suit) >= 2 || seed.is_multiple_of(5);
                Some(if take { C::TakeAce } else { C::LeaveAce })
            }
            Phase::Bidding => match deal.bidding_turn()? {
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
                    Some(if n >= 4 || (n == 3 && seed.is_multiple_of(3)) { C::NameSuit { suit: best } } else { C::Wieder })
                }
            },
            Phase::Discarding => {
                // Put away the weakest card outside the trumps.
                let trumps = deal.trumps?;
                hand.iter()
                    .min_by_key(|&&c| (is_trump(c, trumps), strength(c), c.suit()))
                    .map(|&card| C::Discard { card })
            }
            Phase::Playing => {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};
    use crate::game::erase;
    use crate::simulate::{random_matches, Driver, Plan};

    use super::Command as C;

    /// A pack that, cut at `at` by the dealer's right-hand neighbour, shows `shown` and deals
    /// `hands` (by seat, five each, in the order given: the first three come in the first
    /// packet), then turns `turned`.
    fn deck_for(players: usize, dealer: Seat, hands: &[&str], turned: &str, shown: &str, at: usize) -> Vec<Card> {
        let table = Table::new(players);
        let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
        assert!(hands.iter().all(|h| h.len() == HAND));
        let order = table.order_from(table.forehand(dealer));
        let mut p: Vec<Card> = Vec::new();
        for (from, to) in [(0, 3), (3, 5)] {
            for &s in &order {
                p.extend_from_slice(&hands[s][from..to]);
            }
        }
        p.push(card(turned));
        let shown = card(shown);
        p.extend(composition(players).into_iter().filter(|c| !p.contains(c) && *c != shown).collect::<Vec<_>>());
        p.push(shown);
        assert!(is_permutation(&p, &composition(players)), "the hands overlap");
        // Undo the cut: the lifted part (the top `at` cards) went under the rest.
        let len = p.len();
        p[len - at..].iter().chain(&p[..len - at]).copied().collect()
    }

    type Game = Driver<PolsktPass>;

    impl Game {
        fn play(&mut self, seat: Seat, code: &str) -> Vec<Event> {
            self.ok(seat, C::Play { card: card(code) })
        }

        /// Plays a whole trick, from the seat to lead.
        fn trick(&mut self, codes: &str) -> Vec<Event> {
            let mut events = Vec::new();
            for code in codes.split_whitespace() {
                let seat = self.to_act()[0];
                events.extend(self.play(seat, code));
            }
            events
        }

        fn deal_ref(&self) -> &Deal {
            self.state.deal.as_ref().unwrap()
        }

        fn books(&self) -> Books {
            self.state.books()
        }

        /// Starts the match as if earlier deals had left these books.
        fn inherit(&mut self, books: Books, next_bet: u32) {
            assert_eq!(books.total(), 0);
            self.state.ledger = ledger_from(&books);
            self.state.reported = books;
            self.state.next_bet = next_bet;
        }
    }

    fn ended(events: &[Event]) -> (DealOutcome, Option<Seat>, String, Vec<Payment>, i64) {
        events
            .iter()
            .find_map(|e| match e {
                Event::DealEnded { outcome, winner, rule, payments, amount_played_for, .. } => {
                    Some((*outcome, *winner, rule.clone(), payments.clone(), *amount_played_for))
                }
                _ => None,
            })
            .expect("the deal ended")
    }

    fn pay(from: Account, to: Account, amount: i64) -> (Account, Account, i64) {
        (from, to, amount)
    }

    fn flows(payments: &[Payment]) -> Vec<(Account, Account, i64)> {
        payments.iter().map(|p| (p.from, p.to, p.amount)).collect()
    }

    fn no_bets() -> Options {
        Options::default()
    }

    use Account::{Bet, Pot, Seat as S};

    // Four players, seat 0 deals, seat 3 cuts, seat 1 is forehand.

    /// Seat 1 holds the two top jacks and three top hearts; hearts are turned.
    const STRONG: [&str; 4] = ["AD KD QD TD 9D", "JC JS AH KH QH", "AS KS QS TS 9S", "AC KC QC TC 9C"];

    /// Hearts turned; played out as in `play_mixed`, seat 1 and seat 3 take two tricks each,
    /// seat 1 first, and seat 2 one.
    const MIXED: [&str; 4] = ["AD QD QS TS QH", "JC AC KC 9S 9D", "JS AS KS 9C TD", "AH KH QC TC KD"];

    fn dealt(players: usize, hands: &[&str], turned: &str, shown: &str, options: Options) -> Game {
        let mut g = Game::new(players, options);
        g.deal(deck_for(players, 0, hands, turned, shown, 10));
        let cutter = players - 1;
        assert_eq!(g.to_act(), [cutter]);
        g.ok(cutter, C::Cut { at: 10 });
        g
    }

    /// Hearts turned and accepted by `declarer` (seat 1 or 2: the seats before pass).
    fn declared(hands: &[&str], declarer: Seat, options: Options) -> Game {
        let mut g = dealt(4, hands, "9H", "TH", options);
        for seat in 1..declarer {
            g.ok(seat, C::Pass);
        }
        g.ok(declarer, C::Accept);
        assert_eq!(g.deal_ref().declarers, [declarer]);
        assert_eq!(g.deal_ref().trumps, Some(Suit::Hearts));
        g
    }

    fn play_mixed(g: &mut Game) -> Vec<Event> {
        let mut events = g.trick("AC 9C TC TS");
        events.extend(g.trick("KC JS QC QS"));
        events.extend(g.trick("AS AH QH 9S"));
        events.extend(g.trick("KH AD JC KS"));
        events.extend(g.trick("9D TD KD QD"));
        events
    }

    // -----------------------------------------------------------------------------------------
    // The pack and the order of the cards

    #[test]
    fn the_pack_is_nine_to_ace_with_the_eights_for_five_players() {
        for (players, size) in [(3, 24), (4, 24), (5, 28)] {
            let g = Game::new(players, no_bets());
            let Status::NeedsDeck { composition } = PolsktPass.status(&g.state) else { panic!() };
            assert_eq!(composition.len(), size);
            assert_eq!(composition.iter().any(|c| c.rank() == Some(Rank::EIGHT)), players == 5);
            assert!(composition.iter().all(|c| c.rank() >= Some(Rank::EIGHT)));
        }
        assert!(PolsktPass.setup(2, no_bets()).is_err());
        assert!(PolsktPass.setup(6, no_bets()).is_err());
    }

    #[test]
    fn the_jacks_are_the_top_trumps_clubs_spades_hearts_diamonds() {
        let order: Vec<u8> = cards("JC JS JH JD AH KH QH TH 9H 8H").into_iter().map(strength).collect();
        assert!(order.windows(2).all(|w| w[0] > w[1]), "{order:?}");
        let side: Vec<u8> = cards("AS KS QS TS 9S 8S").into_iter().map(strength).collect();
        assert!(side.windows(2).all(|w| w[0] > w[1]));
        // Every jack is a trump whatever the trump suit, never a card of its printed suit.
        for trumps in Suit::ALL {
            for jack in cards("JC JS JH JD") {
                assert!(is_trump(jack, trumps));
                assert_eq!(effective_suit(jack, trumps), trumps);
            }
        }
        let trick = |leader: Seat, codes: &str| Trick {
            leader,
            plays: cards(codes).into_iter().enumerate().map(|(i, c)| ((leader + i) % 4, c)).collect(),
        };
        // The lowest jack beats the trump ace.
        assert_eq!(trick_winner(&trick(0, "AH JD KH 9S"), Suit::Hearts), (1, card("JD"), WinReason::HighestTrump));
        assert_eq!(trick_winner(&trick(0, "JD JS JC JH"), Suit::Hearts), (2, card("JC"), WinReason::HighestTrump));
        // Any trump beats the suit led; without one the highest of the suit led wins.
        assert_eq!(trick_winner(&trick(2, "AS 9H KS QS"), Suit::Hearts), (3, card("9H"), WinReason::HighestTrump));
        assert_eq!(trick_winner(&trick(2, "QS AD KS TS"), Suit::Hearts), (0, card("KS"), WinReason::HighestOfSuitLed));
        // A led jack of a side suit is a trump lead.
        let t = trick(1, "JS AS 9C QH");
        assert_eq!(led_suit(&t, Suit::Hearts), Some(Suit::Hearts));
        assert_eq!(trick_winner(&t, Suit::Hearts), (1, card("JS"), WinReason::HighestTrump));
        // Eights rank lowest in a side suit (five players).
        assert_eq!(trick_winner(&trick(0, "8C 9C AD KD"), Suit::Hearts), (1, card("9C"), WinReason::HighestOfSuitLed));
    }

    // -----------------------------------------------------------------------------------------
    // Stake, cut and deal

    #[test]
    fn the_dealer_stakes_every_deal_and_the_pot_keeps_what_is_left() {
        let mut g = Game::new(4, no_bets());
        let events = g.deal(decks::from_rank(Rank::NINE));
        let Event::StakePaid { payment, books } = &events[1] else { panic!() };
        assert_eq!((payment.from, payment.to, payment.amount, payment.rule.as_str()), (S(0), Pot, 10, rule::STAKE));
        assert!(payment.explanation.en.contains("seat 0"));
        assert_eq!(books, &Books { balances: vec![-10, 0, 0, 0], pot: 10, bets: vec![] });
        let view = PolsktPass.view(&g.state, Viewer::Spectator);
        assert_eq!((view["pot"].clone(), view["balances"].clone(), view["bets"].clone()), (json!(10), json!([-10, 0, 0, 0]), json!([])));
        assert_eq!(view["amount_played_for"], 10);
        // A round pass leaves the pot; the next dealer adds the stake to it.
        let mut g = Game::new(4, Options { stake: 7, ..no_bets() });
        g.deal(deck_for(4, 0, &STRONG, "9H", "TH", 10));
        g.ok(3, C::Cut { at: 10 });
        for s in [1, 2, 3, 0] {
            g.ok(s, C::Pass);
        }
        for s in [1, 2, 3] {
            g.ok(s, C::Wieder);
        }
        let events = g.ok(0, C::Wieder);
        assert_eq!(ended(&events).0, DealOutcome::AllPassed);
        assert_eq!(g.books().pot, 7);
        g.deal(decks::from_rank(Rank::NINE));
        assert_eq!(g.deal_ref().dealer, 1);
        assert_eq!(g.books(), Books { balances: vec![-7, -7, 0, 0], pot: 14, bets: vec![] });
    }

    #[test]
    fn nothing_is_done_before_the_deal_and_the_deck_must_be_the_pack() {
        let mut g = Game::new(4, no_bets());
        assert_eq!(g.refusal_served(3, C::Cut { at: 5 }).rule, core::PHASE);
        assert!(PolsktPass.legal_moves(&g.state, 3).is_empty());
        assert_eq!(g.try_deal(decks::from_rank(Rank::EIGHT)).unwrap_err().rule, core::DECK);
        let mut short = decks::from_rank(Rank::NINE);
        short.pop();
        assert_eq!(g.try_deal(short).unwrap_err().rule, core::DECK);
        let mut five = Game::new(5, no_bets());
        assert_eq!(five.try_deal(decks::from_rank(Rank::NINE)).unwrap_err().rule, core::DECK);
        g.deal(decks::from_rank(Rank::NINE));
        assert_eq!(g.try_deal(decks::from_rank(Rank::NINE)).unwrap_err().rule, core::PHASE);
    }

    #[test]
    fn the_player_on_the_dealers_right_cuts_and_shows_the_bottom_card_of_the_lifted_part() {
        let mut g = Game::new(4, no_bets());
        let deck = decks::from_rank(Rank::NINE);
        g.deal(deck.clone());
        assert_eq!(g.deal_ref().cutter, 3);
        assert_eq!(g.to_act(), [3]);
        assert_eq!(g.legal(3), (3..=21).map(|at| C::Cut { at }).collect::<Vec<_>>());
        assert_eq!(g.refusal_served(1, C::Cut { at: 12 }).rule, core::TURN);
        assert_eq!(g.refusal_served(0, C::Cut { at: 12 }).rule, core::TURN);
        for at in [0, 2, 22, 30] {
            let v = g.refused(3, C::Cut { at });
            assert_eq!(v.rule, rule::CUT_RANGE);
            assert!(v.explanation.en.contains("between 3 and 21"), "{}", v.explanation.en);
        }
        assert_eq!(g.refused(3, C::Pass).rule, core::PHASE);
        assert_eq!(g.refused(1, C::Play { card: card("9C") }).rule, core::PHASE);
        // Cut at 12: clubs and diamonds lifted, the ace of diamonds shown and put underneath.
        let events = g.ok(3, C::Cut { at: 12 });
        assert_eq!(events[0], Event::PackCut { seat: 3, at: 12, shown_card: card("AD"), cutter_took: false });
        let d = g.deal_ref();
        assert_eq!(d.pack.last(), Some(&card("AD")), "the shown card is at the bottom of the rest");
        assert!(!PolsktPass.secrets(&g.state).iter().any(|(c, _)| *c == card("AD")), "the shown card is public");
        let view = PolsktPass.view(&g.state, Viewer::Spectator);
        assert_eq!(view["cut"], json!({"at": 12, "shown_card": "AD", "cutter_took": false}));
    }

    #[test]
    fn five_each_three_then_two_from_the_dealers_left_then_a_card_is_turned() {
        let mut g = Game::new(4, no_bets());
        g.deal(decks::from_rank(Rank::NINE));
        let events = g.ok(3, C::Cut { at: 12 });
        // After the cut the pack runs hearts, spades, clubs, diamonds: seat 1 gets three
        // hearts, seat 2 the next three, and so on; then two each in the same order.
        let Event::CardsDealt { hands, turned_card, undealt } = &events[1] else { panic!() };
        assert_eq!(hands[1], cards("9H TH JH 9C TC"));
        assert_eq!(hands[2], cards("QH KH AH JC QC"));
        assert_eq!(hands[3], cards("9S TS JS KC AC"));
        assert_eq!(hands[0], cards("QS KS AS 9D TD"));
        assert_eq!(*turned_card, card("JD"));
        assert_eq!(*undealt, 3);
        // The rest of the pack is not used and stays hidden from everyone.
        let rest: Vec<Card> = PolsktPass.secrets(&g.state).into_iter().filter(|(_, who)| who.is_empty()).map(|(c, _)| c).collect();
        assert_eq!(rest, cards("QD KD"));
        assert_eq!(g.deal_ref().pack, cards("QD KD AD"));
    }

    #[test]
    fn three_players_play_the_four_player_rules_with_24_cards() {
        let mut g = Game::new(3, no_bets());
        g.deal(decks::from_rank(Rank::NINE));
        let d = g.deal_ref();
        assert_eq!((d.dealer, d.cutter, d.forehand), (0, 2, 1));
        assert_eq!(g.refusal_served(1, C::Cut { at: 5 }).rule, core::TURN);
        let events = g.ok(2, C::Cut { at: 5 });
        let Event::CardsDealt { hands, undealt, .. } = &events[1] else { panic!() };
        assert!(hands.iter().all(|h| h.len() == 5));
        assert_eq!(*undealt, 24 - 16);
        assert!(PolsktPass.rulebook().rule(rule::THREE_PLAYERS).unwrap().house_rule);
    }

    #[test]
    fn a_turned_jack_is_taken_by_the_dealer_who_declares_alone_without_bidding() {
        let mut g = Game::new(4, no_bets());
        g.deal(decks::from_rank(Rank::NINE));
        let events = g.ok(3, C::Cut { at: 12 });
        assert_eq!(
            events[2],
            Event::TurnedCardTaken { seat: 0, card: card("JD"), why: TakeReason::JackTurned, rule: rule::MUST_TAKE.into() }
        );
        assert_eq!(
            events[3],
            Event::TrumpsSet { trumps: Suit::Diamonds, declarers: vec![0], from: TrumpsFrom::DealerTook, rule: rule::DEALER_TOOK.into() }
        );
        assert_eq!(events.len(), 4);
        // No bidding: the dealer, holding six, puts one away before forehand leads.
        assert_eq!(g.deal_ref().phase, Phase::Discarding);
        assert_eq!(g.to_act(), [0]);
        assert_eq!(g.deal_ref().hands[0].len(), 6);
        assert_eq!(g.refused(0, C::Accept).rule, core::PHASE);
        assert_eq!(g.refused(1, C::Play { card: card("9H") }).rule, core::PHASE);
        g.ok(0, C::Discard { card: card("JD") });
        assert_eq!(g.deal_ref().phase, Phase::Playing);
        assert_eq!(g.to_act(), [1], "forehand leads");
        // The turned card is public, but where it went after the discard is not told.
        let view = PolsktPass.view(&g.state, Viewer::Seat(2));
        assert_eq!(view["turned_card"], "JD");
        assert_eq!(view["turned_card_taken"], true);
        assert_eq!(view["discarded"], json!([0]));
        assert_eq!(view["discard"], Value::Null);
        assert_eq!(PolsktPass.view(&g.state, Viewer::Seat(0))["discard"], "JD");
    }

    #[test]
    fn a_jack_shown_at_the_cut_goes_to_the_cutter_and_both_declare() {
        let hands = ["AD KD QD TD 9D", "JC JS AH KH QH", "AS KS QS TS 9S", "AC KC QC TC 9C"];
        let mut g = Game::new(4, no_bets());
        g.deal(deck_for(4, 0, &hands, "9H", "JD", 10));
        let events = g.ok(3, C::Cut { at: 10 });
        assert_eq!(events[0], Event::PackCut { seat: 3, at: 10, shown_card: card("JD"), cutter_took: true });
        assert!(matches!(&events[2], Event::TurnedCardTaken { seat: 0, why: TakeReason::CutterTook, .. }));
        let Event::TrumpsSet { trumps, declarers, rule: r, .. } = &events[3] else { panic!() };
        assert_eq!((*trumps, declarers.as_slice(), r.as_str()), (Suit::Hearts, &[0, 3][..], rule::TWO_DECLARERS));
        let d = g.deal_ref();
        assert!(d.hands[3].contains(&card("JD")) && d.hands[3].len() == 6);
        assert!(d.hands[0].contains(&card("9H")) && d.hands[0].len() == 6);
        // Both put a card away, in either order, each seeing only its own.
        assert_eq!(g.to_act(), [0, 3]);
        assert_eq!(g.refusal_served(1, C::Discard { card: card("JC") }).rule, core::TURN);
        assert_eq!(g.refused(3, C::Discard { card: card("AD") }).rule, core::CARD_NOT_HELD);
        let events = g.ok(3, C::Discard { card: card("9C") });
        assert_eq!(g.to_act(), [0]);
        assert_eq!(g.refusal_served(3, C::Discard { card: card("TC") }).rule, core::TURN);
        let hidden = PolsktPass.redact(&g.state, &events[0], Viewer::Seat(0), false);
        assert_eq!(hidden, json!({"type": "card_discarded", "seat": 3, "card": null, "hidden": true}));
        assert_eq!(PolsktPass.redact(&g.state, &events[0], Viewer::Spectator, false)["card"], Value::Null);
        assert_eq!(PolsktPass.redact(&g.state, &events[0], Viewer::Seat(3), false)["card"], "9C");
        assert_eq!(PolsktPass.redact(&g.state, &events[0], Viewer::Record, false)["card"], "9C");
        assert_eq!(PolsktPass.redact(&g.state, &events[0], Viewer::Seat(1), true)["card"], "9C");
        assert!(PolsktPass.secrets(&g.state).contains(&(card("9C"), vec![3])));
        g.ok(0, C::Discard { card: card("9D") });
        assert_eq!(g.to_act(), [1]);
    }

    #[test]
    fn a_turned_ace_is_the_dealers_choice_when_the_cutter_took_nothing() {
        let hands = ["AD KD QD TD 9D", "JC JS 9H KH QH", "AS KS QS TS 9S", "AC KC QC TC 9C"];
        let mut g = dealt(4, &hands, "AH", "TH", no_bets());
        assert_eq!(g.deal_ref().phase, Phase::TurnedCard);
        assert_eq!(g.to_act(), [0]);
        assert_eq!(g.legal(0), [C::TakeAce, C::LeaveAce]);
        assert_eq!(g.refusal_served(1, C::LeaveAce).rule, core::TURN);
        assert_eq!(g.refused(0, C::Accept).rule, core::PHASE);
        assert_eq!(PolsktPass.view(&g.state, Viewer::Spectator)["ace_choice"], true);
        let mut taken = Game { rules: PolsktPass, state: g.state.clone(), log: Vec::new() };
        let events = taken.ok(0, C::TakeAce);
        assert!(matches!(&events[0], Event::TurnedCardTaken { why: TakeReason::AceChosen, rule: r, .. } if r == rule::MAY_TAKE_ACE));
        assert_eq!(taken.deal_ref().declarers, [0]);
        assert_eq!(taken.deal_ref().trumps, Some(Suit::Hearts));
        assert_eq!(taken.to_act(), [0]);
        // Left: it stays on the table and forehand opens the bidding.
        let events = g.ok(0, C::LeaveAce);
        assert_eq!(events, [Event::TurnedCardLeft { card: card("AH"), why: LeaveReason::AceDeclined, rule: rule::MAY_TAKE_ACE.into() }]);
        assert_eq!(g.deal_ref().phase, Phase::Bidding);
        assert_eq!(g.to_act(), [1]);
        assert_eq!(g.deal_ref().hands[0].len(), 5);
    }

    #[test]
    fn a_turned_ace_must_be_taken_when_the_cutter_took_a_jack() {
        let hands = ["AD KD QD TD 9D", "JC JS 9H KH QH", "AS KS QS TS 9S", "AC KC QC TC 9C"];
        let mut g = Game::new(4, no_bets());
        g.deal(deck_for(4, 0, &hands, "AH", "JD", 10));
        let events = g.ok(3, C::Cut { at: 10 });
        assert!(matches!(&events[2], Event::TurnedCardTaken { why: TakeReason::CutterTook, .. }));
        assert_eq!(g.deal_ref().declarers, [0, 3]);
        assert_eq!(g.refused(0, C::TakeAce).rule, core::PHASE);
        // Between the deal and the forced take there is no choice to make either.
        let mut fresh = Game::new(4, no_bets());
        fresh.deal(deck_for(4, 0, &hands, "AH", "JD", 10));
        fresh.apply(events[..2].to_vec());
        assert_eq!(fresh.deal_ref().phase, Phase::TurnedCard);
        assert!(fresh.legal(0).is_empty());
        let v = PolsktPass.decide(&fresh.state, 0, &C::TakeAce).unwrap_err();
        assert_eq!(v.rule, rule::MAY_TAKE_ACE);
        assert!(v.explanation.en.contains("the cutter took no card"));
    }

    #[test]
    fn any_other_turned_card_stays_and_forehand_opens_the_bidding() {
        let mut g = dealt(4, &STRONG, "9H", "TH", no_bets());
        let Event::TurnedCardLeft { why, rule: r, .. } = g.log.last().unwrap() else { panic!() };
        assert_eq!((*why, r.as_str()), (LeaveReason::NotJackOrAce, rule::TURNED_STAYS));
        assert!(!g.deal_ref().turned_taken);
        assert_eq!(g.to_act(), [1]);
        assert_eq!(g.legal(1), [C::Accept, C::Pass]);
        assert_eq!(g.refusal_served(2, C::Pass).rule, core::TURN);
        let v = g.refused(1, C::NameSuit { suit: Suit::Spades });
        assert_eq!(v.rule, rule::ROUND_ONE);
        assert!(v.explanation.en.contains("accept the turned suit, hearts"));
        assert_eq!(g.refused(1, C::Wieder).rule, rule::ROUND_ONE);
        g.ok(1, C::Pass);
        let events = g.ok(2, C::Accept);
        assert_eq!(events[0], Event::BidMade { seat: 2, round: 1, call: Call::Accept, suit: Some(Suit::Hearts) });
        assert_eq!(
            events[1],
            Event::TrumpsSet { trumps: Suit::Hearts, declarers: vec![2], from: TrumpsFrom::RoundOne, rule: rule::FIRST_ENDS.into() }
        );
        // The first to accept ends the bidding: nobody holds six, so forehand leads at once.
        assert_eq!(g.deal_ref().phase, Phase::Playing);
        assert_eq!(g.to_act(), [1]);
        assert_eq!(g.refused(3, C::Pass).rule, core::PHASE);
        let view = PolsktPass.view(&g.state, Viewer::Spectator);
        assert_eq!(view["declarers"], json!([2]));
        assert_eq!(view["trumps"], "hearts");
        assert_eq!(view["bidding"]["calls"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn in_round_two_forehand_may_name_any_suit_and_the_others_only_the_other_three() {
        let mut g = dealt(4, &STRONG, "9H", "TH", no_bets());
        for s in [1, 2, 3, 0] {
            g.ok(s, C::Pass);
        }
        assert_eq!(g.deal_ref().bidding_turn(), Some((2, 1)));
        let all: Vec<C> = Suit::ALL.into_iter().map(|suit| C::NameSuit { suit }).chain([C::Wieder]).collect();
        assert_eq!(g.legal(1), all);
        assert_eq!(g.refused(1, C::Pass).rule, rule::ROUND_TWO);
        assert_eq!(g.refused(1, C::Accept).rule, rule::ROUND_TWO);
        g.ok(1, C::Wieder);
        assert!(!g.legal(2).contains(&C::NameSuit { suit: Suit::Hearts }));
        assert_eq!(g.legal(2).len(), 4);
        let v = g.refused(2, C::NameSuit { suit: Suit::Hearts });
        assert_eq!(v.rule, rule::OTHERS_OTHER_SUITS);
        assert!(v.explanation.en.contains("only forehand"));
        let events = g.ok(2, C::NameSuit { suit: Suit::Spades });
        assert_eq!(events[0], Event::BidMade { seat: 2, round: 2, call: Call::NameSuit, suit: Some(Suit::Spades) });
        assert!(matches!(&events[1], Event::TrumpsSet { trumps: Suit::Spades, from: TrumpsFrom::RoundTwo, .. }));
        assert_eq!(g.deal_ref().declarers, [2]);
        assert_eq!(PolsktPass.view(&g.state, Viewer::Spectator)["trumps_rule"], rule::ROUND_TWO);

        // Forehand may choose the turned suit in round two.
        let mut g = dealt(4, &STRONG, "9H", "TH", no_bets());
        for s in [1, 2, 3, 0] {
            g.ok(s, C::Pass);
        }
        g.ok(1, C::NameSuit { suit: Suit::Hearts });
        assert_eq!((g.deal_ref().declarers.clone(), g.deal_ref().trumps), (vec![1], Some(Suit::Hearts)));
    }

    #[test]
    fn passing_twice_all_round_is_a_round_pass_and_the_deal_moves_on() {
        let mut g = dealt(4, &STRONG, "9H", "TH", no_bets());
        for s in [1, 2, 3, 0] {
            g.ok(s, C::Pass);
        }
        for s in [1, 2, 3] {
            g.ok(s, C::Wieder);
        }
        let events = g.ok(0, C::Wieder);
        let (outcome, winner, r, payments, amount) = ended(&events);
        assert_eq!((outcome, winner, r.as_str(), payments.len(), amount), (DealOutcome::AllPassed, None, rule::ALL_PASS, 0, 10));
        assert!(matches!(PolsktPass.status(&g.state), Status::NeedsDeck { .. }));
        assert_eq!(g.refused(1, C::Pass).rule, core::PHASE);
        g.deal(decks::from_rank(Rank::NINE));
        let d = g.deal_ref();
        assert_eq!((d.dealer, d.cutter, d.forehand), (1, 0, 2));
        assert_eq!(g.books().pot, 20);
    }

    // -----------------------------------------------------------------------------------------
    // Play

    #[test]
    fn forehand_leads_and_suit_must_be_followed_with_the_jacks_counting_as_trumps() {
        let mut g = declared(&MIXED, 1, no_bets());
        assert_eq!(g.to_act(), [1]);
        assert_eq!(g.refusal_served(2, C::Play { card: card("9C") }).rule, core::TURN);
        g.play(1, "AC");
        // Seat 2 holds 9C and the jack of spades: the jack is a trump, so 9C is its only club.
        assert_eq!(g.legal(2), [C::Play { card: card("9C") }]);
        let v = g.refused(2, C::Play { card: card("JS") });
        assert_eq!(v.rule, rule::FOLLOW_SUIT);
        assert!(v.explanation.en.contains("You played JS but hold clubs"), "{}", v.explanation.en);
        assert!(!v.explanation.en.contains("9C"), "the explanation names no hidden card");
        assert_eq!(g.refused(2, C::Play { card: card("QH") }).rule, core::CARD_NOT_HELD);
        g.play(2, "9C");
        g.play(3, "TC");
        // Seat 0 has no clubs: anything goes.
        assert_eq!(g.legal(0).len(), 5);
        let events = g.play(0, "TS");
        assert!(events.contains(&Event::TrickWon {
            trick_number: 1,
            winner: 1,
            card: card("AC"),
            reason: WinReason::HighestOfSuitLed,
            plays: vec![
                Play { seat: 1, card: card("AC") },
                Play { seat: 2, card: card("9C") },
                Play { seat: 3, card: card("TC") },
                Play { seat: 0, card: card("TS") },
            ],
        }));
        assert_eq!(g.to_act(), [1], "the winner leads");
        g.play(1, "KC");
        // Void in clubs now, seat 2 may trump with its jack.
        assert_eq!(g.legal(2).len(), 4);
        g.play(2, "JS");
        g.trick("QC QS");
        assert_eq!(g.to_act(), [2]);
        g.trick("AS AH QH 9S");
        // A trump lead: seat 1's only trump is the jack of clubs, and it must be played.
        g.play(3, "KH");
        g.play(0, "AD");
        assert_eq!(g.legal(1), [C::Play { card: card("JC") }]);
        let v = g.refused(1, C::Play { card: card("9D") });
        assert!(v.explanation.en.contains("hold trumps (the jacks count as trumps)"));
    }

    #[test]
    fn the_first_to_two_tricks_wins_when_nobody_takes_three_and_the_failed_declarer_pays_a_bet() {
        let mut g = declared(&MIXED, 2, no_bets());
        let events = play_mixed(&mut g);
        assert_eq!(g.deal_ref().tricks_taken, [0, 2, 1, 2]);
        let (outcome, winner, r, payments, amount) = ended(&events);
        assert_eq!((outcome, winner, r.as_str(), amount), (DealOutcome::Won, Some(1), rule::FIRST_TO_TWO, 10));
        assert_eq!(flows(&payments), [pay(Pot, S(1), 10), pay(S(2), Bet(1), 10)]);
        assert_eq!(payments[1].rule, rule::FAILED_DECLARER);
        assert!(payments[1].explanation.en.contains("the amount played for, 10"));
        assert_eq!(g.books(), Books { balances: vec![-10, 10, -10, 0], pot: 0, bets: vec![BetRecord { bet: 1, amount: 10 }] });
        // The next deal is played for the pot and that bet.
        g.deal(decks::from_rank(Rank::NINE));
        assert_eq!(g.deal_ref().bet_in_play, Some(1));
        assert_eq!(PolsktPass.view(&g.state, Viewer::Spectator)["amount_played_for"], 20);
    }

    #[test]
    fn deal_winner_three_tricks_or_first_to_two_or_nobody() {
        assert_eq!(deal_winner(&[1, 1, 2, 1, 2], 4), Some((1, rule::THREE_TRICKS)));
        assert_eq!(deal_winner(&[2, 3, 3, 2, 2], 4), Some((2, rule::THREE_TRICKS)));
        assert_eq!(deal_winner(&[2, 3, 3, 2, 1], 4), Some((3, rule::FIRST_TO_TWO)));
        assert_eq!(deal_winner(&[0, 1, 2, 0, 1], 3), Some((0, rule::FIRST_TO_TWO)));
        assert_eq!(deal_winner(&[0, 1, 2, 3, 4], 5), None);
    }

    #[test]
    fn a_declarer_who_wins_takes_the_pot_and_pays_nothing() {
        let mut g = declared(&STRONG, 1, no_bets());
        // Seat 1 takes every trick without announcing la vola: an ordinary win.
        let events = g.finish_deal();
        let (outcome, winner, r, payments, _) = ended(&events);
        assert_eq!((outcome, winner, r.as_str()), (DealOutcome::Won, Some(1), rule::THREE_TRICKS));
        // The deal was settled after three tricks, but all five are played.
        assert_eq!(g.deal_ref().tricks.len(), 5);
        assert_eq!(g.deal_ref().tricks_taken[1], 5);
        assert_eq!(flows(&payments), [pay(Pot, S(1), 10)]);
        assert_eq!(payments[0].rule, rule::WINNER_TAKES);
        assert!(g.books().bets.is_empty());
    }

    #[test]
    fn the_double_bet_option_makes_a_failed_declarer_pay_twice_the_amount() {
        let mut g = declared(&MIXED, 2, Options { double_bet: true, ..no_bets() });
        let (_, _, _, payments, _) = ended(&play_mixed(&mut g));
        assert_eq!(flows(&payments), [pay(Pot, S(1), 10), pay(S(2), Bet(1), 20)]);
        assert!(payments[1].explanation.en.contains("twice the amount played for, 2 × 10"));
    }

    #[test]
    fn the_deal_is_played_for_the_pot_and_the_least_bet_the_others_wait_apart() {
        for double in [false, true] {
            let mut g = Game::new(4, Options { double_bet: double, ..no_bets() });
            let bets = vec![BetRecord { bet: 1, amount: 30 }, BetRecord { bet: 2, amount: 20 }, BetRecord { bet: 3, amount: 20 }];
            g.inherit(Books { balances: vec![-35, -20, -20, 0], pot: 5, bets: bets.clone() }, 4);
            let events = g.deal(deck_for(4, 0, &MIXED, "9H", "TH", 10));
            // Bets 2 and 3 are equally small: the older one is played for.
            assert!(matches!(&events[0], Event::DealStarted { bet_in_play: Some(2), .. }));
            assert_eq!(bet_in_play(&bets), Some(BetRecord { bet: 2, amount: 20 }));
            g.ok(3, C::Cut { at: 10 });
            g.ok(1, C::Pass);
            g.ok(2, C::Accept);
            let (_, _, _, payments, amount) = ended(&play_mixed(&mut g));
            assert_eq!(amount, 15 + 20);
            let bet = if double { 70 } else { 35 };
            assert_eq!(flows(&payments), [pay(Pot, S(1), 15), pay(Bet(2), S(1), 20), pay(S(2), Bet(4), bet)]);
            let after = g.books();
            assert_eq!(
                after.bets,
                [BetRecord { bet: 1, amount: 30 }, BetRecord { bet: 3, amount: 20 }, BetRecord { bet: 4, amount: bet }]
            );
            assert_eq!(after.pot, 0);
            assert_eq!(after.balances, [-45, -20 + 35, -20 - bet, 0]);
            let view = PolsktPass.view(&g.state, Viewer::Spectator);
            assert_eq!(view["bets"].as_array().unwrap().len(), 3);
        }
    }

    fn two_declarers(options: Options) -> Game {
        let mut g = Game::new(4, options);
        g.deal(deck_for(4, 0, &STRONG, "9H", "JD", 10));
        g.ok(3, C::Cut { at: 10 });
        g.ok(0, C::Discard { card: card("9D") });
        g.ok(3, C::Discard { card: card("9C") });
        g
    }

    #[test]
    fn two_declarers_who_both_fail_pay_a_bet_each_kept_apart() {
        let mut g = two_declarers(no_bets());
        let (outcome, winner, _, payments, _) = ended(&g.finish_deal());
        assert_eq!((outcome, winner), (DealOutcome::Won, Some(1)));
        assert_eq!(flows(&payments), [pay(Pot, S(1), 10), pay(S(0), Bet(1), 10), pay(S(3), Bet(2), 10)]);
        assert!(payments[1..].iter().all(|p| p.rule == rule::BOTH_FAIL));
        let Some(Event::DealEnded { explanation, .. }) = g.log.last() else { panic!() };
        assert!(explanation.en.contains("Both declarers (0, 3) failed"), "{}", explanation.en);
        assert_eq!(g.books().bets, [BetRecord { bet: 1, amount: 10 }, BetRecord { bet: 2, amount: 10 }]);
        assert_eq!(g.state.next_bet, 3);
    }

    #[test]
    fn with_the_merge_option_two_failed_bets_become_one_double_bet() {
        let mut g = two_declarers(Options { merge_bets: true, ..no_bets() });
        let (_, _, _, payments, _) = ended(&g.finish_deal());
        assert_eq!(flows(&payments), [pay(Pot, S(1), 10), pay(S(0), Bet(1), 10), pay(S(3), Bet(1), 10)]);
        assert!(payments[1..].iter().all(|p| p.rule == rule::MERGE_BETS));
        assert_eq!(g.books().bets, [BetRecord { bet: 1, amount: 20 }]);
        // With both options each pays twice the amount into the one bet.
        let mut g = two_declarers(Options { merge_bets: true, double_bet: true, ..no_bets() });
        g.finish_deal();
        assert_eq!(g.books().bets, [BetRecord { bet: 1, amount: 40 }]);
    }

    #[test]
    fn with_two_declarers_the_one_who_wins_takes_the_pot_and_the_other_pays() {
        // The dealer (seat 0) now holds the strong hand.
        let hands = ["JC JS AH KH QH", "AD KD QD TD 9D", "AS KS QS TS 9S", "AC KC QC TC 9C"];
        let mut g = Game::new(4, no_bets());
        g.deal(deck_for(4, 0, &hands, "9H", "JD", 10));
        g.ok(3, C::Cut { at: 10 });
        g.ok(0, C::Discard { card: card("9H") });
        g.ok(3, C::Discard { card: card("9C") });
        let (_, winner, _, payments, _) = ended(&g.finish_deal());
        assert_eq!(winner, Some(0));
        assert_eq!(flows(&payments), [pay(Pot, S(0), 10), pay(S(3), Bet(1), 10)]);
        assert_eq!(payments[1].rule, rule::FAILED_DECLARER);
    }

    /// Five players, hearts turned (queen) and accepted by forehand; each seat takes one trick.
    const FIVE: [&str; 5] = ["AC TD KD AS JC", "9C 8D AD 8S KS", "JD 9D 9S QS 9H", "TC QC JH TS TH", "KC 8C QD JS 8H"];

    #[test]
    fn five_players_with_a_trick_each_have_no_winner_but_the_declarer_still_pays() {
        let mut g = Game::new(5, no_bets());
        g.inherit(Books { balances: vec![-25, 0, 0, 0, 0], pot: 0, bets: vec![BetRecord { bet: 1, amount: 25 }] }, 2);
        g.deal(deck_for(5, 0, &FIVE, "QH", "KH", 10));
        assert_eq!(g.deal_ref().cutter, 4);
        g.ok(4, C::Cut { at: 10 });
        g.ok(1, C::Accept);
        g.trick("9C JD TC KC AC");
        g.trick("9D JH QD TD 8D");
        g.trick("TS JS AS 8S 9S");
        g.trick("8H JC KS 9H TH");
        let events = g.trick("KD AD QS QC 8C");
        assert_eq!(g.deal_ref().tricks_taken, [1, 1, 1, 1, 1]);
        let (outcome, winner, r, payments, amount) = ended(&events);
        assert_eq!((outcome, winner, r.as_str(), amount), (DealOutcome::NoWinner, None, rule::NO_WINNER, 35));
        assert_eq!(flows(&payments), [pay(S(1), Bet(2), 35)]);
        assert_eq!(payments[0].rule, rule::NO_WINNER_BET);
        // The pot and the old bet stay where they were.
        let books = g.books();
        assert_eq!(books.pot, 10);
        assert_eq!(books.bets, [BetRecord { bet: 1, amount: 25 }, BetRecord { bet: 2, amount: 35 }]);
        g.deal(decks::from_rank(Rank::EIGHT));
        assert_eq!(g.deal_ref().bet_in_play, Some(1));
        assert_eq!(g.books().pot, 20);
    }

    // -----------------------------------------------------------------------------------------
    // La vola

    #[test]
    fn la_vola_is_announced_only_when_leading_to_the_third_trick_after_taking_two() {
        let mut g = declared(&STRONG, 1, no_bets());
        let v = g.refused(1, C::LaVola);
        assert_eq!(v.rule, rule::LA_VOLA);
        assert!(v.explanation.en.contains("0 tricks are played"));
        g.trick("JC 9S 9C 9D");
        assert_eq!(g.refused(1, C::LaVola).rule, rule::LA_VOLA);
        g.trick("JS TS TC TD");
        assert!(g.legal(1).contains(&C::LaVola));
        assert!(!g.legal(2).contains(&C::LaVola));
        assert_eq!(g.refusal_served(2, C::LaVola).rule, core::TURN);
        let events = g.ok(1, C::LaVola);
        assert_eq!(events, [Event::LaVolaAnnounced { seat: 1 }]);
        assert_eq!(g.to_act(), [1], "the announcer still leads");
        let v = g.refused(1, C::LaVola);
        assert!(v.explanation.en.contains("already been announced"));
        assert_eq!(PolsktPass.view(&g.state, Viewer::Spectator)["la_vola"], 1);
        // Once the lead to the third trick is made, the chance is gone.
        let mut late = declared(&STRONG, 1, no_bets());
        late.trick("JC 9S 9C 9D");
        late.trick("JS TS TC TD");
        late.play(1, "AH");
        assert_eq!(late.refused(2, C::LaVola).rule, rule::LA_VOLA);
    }

    #[test]
    fn la_vola_made_takes_what_is_played_for_and_as_much_from_every_other_player() {
        // Seat 2 declares, seat 1 makes la vola: only la vola counts, so seat 2 pays no bet.
        let mut g = Game::new(4, no_bets());
        g.inherit(Books { balances: vec![-20, 0, 0, -10], pot: 0, bets: vec![BetRecord { bet: 1, amount: 20 }, BetRecord { bet: 2, amount: 10 }] }, 3);
        g.deal(deck_for(4, 0, &STRONG, "9H", "TH", 10));
        g.ok(3, C::Cut { at: 10 });
        g.ok(1, C::Pass);
        g.ok(2, C::Accept);
        g.trick("JC 9S 9C 9D");
        g.trick("JS TS TC TD");
        g.ok(1, C::LaVola);
        let events = g.finish_deal();
        let (outcome, winner, r, payments, amount) = ended(&events);
        assert_eq!((outcome, winner, r.as_str(), amount), (DealOutcome::LaVolaWon, Some(1), rule::LA_VOLA_ONLY, 20));
        assert_eq!(
            flows(&payments),
            [pay(Pot, S(1), 10), pay(Bet(2), S(1), 10), pay(S(0), S(1), 20), pay(S(2), S(1), 20), pay(S(3), S(1), 20)]
        );
        assert!(payments[2..].iter().all(|p| p.rule == rule::LA_VOLA_PAID));
        assert_eq!(g.books(), Books { balances: vec![-50, 80, -20, -30], pot: 0, bets: vec![BetRecord { bet: 1, amount: 20 }] });
    }

    #[test]
    fn a_lost_trick_ends_la_vola_at_once_as_a_round_pass() {
        let hands = ["AD KD QD TD 9D", "JC JS AH KH 9C", "AS KS QS TS 9S", "AC KC QC TC QH"];
        let mut g = declared(&hands, 1, no_bets());
        g.trick("JC 9S QH 9D");
        g.trick("JS TS TC TD");
        g.ok(1, C::LaVola);
        let events = g.trick("9C QS AC QD");
        let (outcome, winner, r, payments, _) = ended(&events);
        assert_eq!((outcome, winner, r.as_str()), (DealOutcome::LaVolaLost, None, rule::LA_VOLA_LOST));
        assert!(payments.is_empty(), "no payment, not even from the declarer");
        assert_eq!(g.deal_ref().tricks.len(), 3);
        assert!(matches!(PolsktPass.status(&g.state), Status::NeedsDeck { .. }));
        assert_eq!(g.books().pot, 10);
        g.deal(decks::from_rank(Rank::NINE));
        assert_eq!(g.deal_ref().dealer, 1);
    }

    // -----------------------------------------------------------------------------------------
    // Money and the end of the match

    #[test]
    fn the_table_limit_caps_bets_and_la_vola_payments() {
        let s = Settlement {
            players: 3,
            declarers: &[0],
            pot: TABLE_LIMIT - 5,
            bet: Some(BetRecord { bet: 4, amount: 10 }),
            next_bet: 7,
            double_bet: true,
            merge_bets: false,
        };
        let won = s.won(1);
        assert_eq!(flows(&won), [pay(Pot, S(1), TABLE_LIMIT - 5), pay(Bet(4), S(1), 10), pay(S(0), Bet(7), TABLE_LIMIT)]);
        assert!(won[2].explanation.en.contains("table limit"));
        let vola = s.la_vola_won(2);
        assert!(vola[2..].iter().all(|p| p.amount == TABLE_LIMIT));
    }

    #[test]
    fn what_is_left_at_the_end_is_shared_out_with_the_odd_chips_from_the_last_dealers_left() {
        let out = share_out(&[(Pot, 7), (Bet(2), 3)], &[2, 0, 1]);
        assert_eq!(flows(&out), [pay(Pot, S(2), 4), pay(Pot, S(0), 3), pay(Bet(2), S(1), 3)]);
        let out = share_out(&[(Pot, 5), (Bet(1), 5)], &[1, 2, 0]);
        assert_eq!(flows(&out), [pay(Pot, S(1), 4), pay(Pot, S(2), 1), pay(Bet(1), S(2), 2), pay(Bet(1), S(0), 3)]);
        assert!(out.iter().all(|p| p.rule == rule::SHARE_OUT));
        assert!(share_out(&[(Pot, 0)], &[0, 1, 2]).is_empty());
        assert_eq!(share_out(&[(Pot, 2)], &[0, 1, 2]).len(), 2);
        assert_eq!(match_winners(&[5, -3, 5]), [0, 2]);
        assert_eq!(match_winners(&[-5, -3, 8]), [2]);
    }

    #[test]
    fn the_match_ends_after_the_agreed_rounds_with_the_pot_and_bets_shared_out() {
        let mut g = Game::new(3, Options { rounds: 2, ..no_bets() });
        assert_eq!(g.state.deals_total(), 6);
        let mut last = Vec::new();
        for n in 1..=6 {
            assert!(matches!(PolsktPass.status(&g.state), Status::NeedsDeck { .. }));
            g.deal(decks::from_rank(Rank::NINE));
            assert_eq!(g.deal_ref().dealer, (n - 1) % 3);
            last = g.finish_deal();
        }
        let Some(Event::MatchEnded { payments, books, winners }) = last.last() else { panic!("{last:?}") };
        assert_eq!(books.pot, 0);
        assert!(books.bets.is_empty());
        assert_eq!(books.balances.iter().sum::<i64>(), 0);
        assert_eq!(winners, &match_winners(&books.balances));
        assert!(payments.iter().all(|p| p.rule == rule::SHARE_OUT));
        let status = PolsktPass.status(&g.state);
        assert!(status.is_finished());
        assert!(g.try_deal(decks::from_rank(Rank::NINE)).is_err());
        assert_eq!(g.refusal_served(0, C::Pass).rule, core::MATCH_OVER);
        assert_eq!(PolsktPass.view(&g.state, Viewer::Spectator)["phase"], "finished");
    }

    // -----------------------------------------------------------------------------------------
    // Hidden information

    #[test]
    fn the_undealt_rest_is_never_shown_not_even_in_the_record() {
        let mut g = Game::new(4, no_bets());
        let deal_events = g.deal(decks::from_rank(Rank::NINE));
        // Before the cut the whole pack is secret from everyone.
        assert_eq!(PolsktPass.secrets(&g.state).len(), 24);
        assert!(PolsktPass.secrets(&g.state).iter().all(|(_, who)| who.is_empty()));
        let mut events = deal_events;
        events.extend(g.ok(3, C::Cut { at: 12 }));
        events.extend(g.ok(0, C::Discard { card: card("9D") }));
        events.extend(g.finish_deal());
        let rest = cards("QD KD");
        for viewer in [Viewer::Record, Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(2)] {
            for e in &events {
                for deal_over in [false, true] {
                    let shown = crate::game::cards_in(&PolsktPass.redact(&g.state, e, viewer, deal_over));
                    assert!(rest.iter().all(|c| !shown.contains(c)), "{viewer:?} sees the rest in {e:?}");
                }
            }
            let view = crate::game::cards_in(&PolsktPass.view(&g.state, viewer));
            assert!(rest.iter().all(|c| !view.contains(c)), "{viewer:?} sees the rest in the view");
        }
        let started = PolsktPass.redact(&g.state, &events[0], Viewer::Record, true);
        assert!(started.get("deck").is_none());
        assert_eq!(started["deck_size"], 24);
        // The record opens the hands and the discard; the shown ace is public anyway.
        let record = PolsktPass.view(&g.state, Viewer::Record);
        assert_eq!(record["dealt_hands"][1], json!(cards("9H TH JH 9C TC")));
        assert_eq!(record["discards"], json!([{"seat": 0, "card": "9D"}]));
        assert!(record.get("pack").is_none() && record.get("deck").is_none());
    }

    #[test]
    fn cards_dealt_shows_each_seat_only_its_own_hand() {
        let g = dealt(4, &STRONG, "9H", "TH", no_bets());
        let e = g.log.iter().find(|e| matches!(e, Event::CardsDealt { .. })).unwrap();
        let own = PolsktPass.redact(&g.state, e, Viewer::Seat(2), false);
        assert_eq!(own["hands"][2], json!(cards(STRONG[2])));
        assert_eq!(own["hands"][1], Value::Null);
        assert_eq!(own["hand_sizes"], json!([5, 5, 5, 5]));
        assert_eq!(own["turned_card"], "9H");
        assert_eq!(PolsktPass.redact(&g.state, e, Viewer::Spectator, false)["hands"], json!([null, null, null, null]));
        assert_eq!(PolsktPass.redact(&g.state, e, Viewer::Record, false), serde_json::to_value(e).unwrap());
        let view = PolsktPass.view(&g.state, Viewer::Seat(1));
        let mut hand = cards(STRONG[1]);
        sort_hand(&mut hand);
        assert_eq!(view["hand"], json!(hand));
        assert!(view.get("hands").is_none());
        // Secret: every hand card to its holder, the rest to nobody; the turned and the shown
        // card are public.
        let secrets = PolsktPass.secrets(&g.state);
        assert_eq!(secrets.len(), 20 + 2);
        assert!(secrets.iter().all(|(c, who)| *c != card("9H") && *c != card("TH") && who.len() <= 1));
    }

    // -----------------------------------------------------------------------------------------
    // Options, shapes, replay, rulebook

    #[test]
    fn options_have_defaults_and_bad_values_are_refused() {
        let game = erase(PolsktPass);
        assert_eq!(
            game.normalize_options(&Value::Null).unwrap(),
            json!({"stake": 10, "double_bet": false, "merge_bets": false, "rounds": 4})
        );
        assert_eq!(
            game.normalize_options(&json!({"double-bet": true, "merge-bets": true, "stake": 5})).unwrap(),
            json!({"stake": 5, "double_bet": true, "merge_bets": true, "rounds": 4})
        );
        assert!(game.normalize_options(&json!({"ante": 5})).is_err());
        for bad in [json!({"stake": 0}), json!({"stake": -3}), json!({"rounds": 0}), json!({"rounds": 11}), json!({"stake": 1_000_001})] {
            assert!(game.setup(4, &bad).is_err(), "{bad}");
        }
        assert!(game.setup(5, &json!({"stake": 1, "rounds": 10})).is_ok());
        let names: Vec<_> = PolsktPass.options().iter().map(|o| o.name).collect();
        assert_eq!(names, ["stake", "double_bet", "merge_bets", "rounds"]);
        assert_eq!(Game::new(5, Options { rounds: 3, ..no_bets() }).state.deals_total(), 15);
    }

    #[test]
    fn commands_and_events_have_their_json_shapes() {
        let shapes = [
            (json!({"type": "cut", "at": 7}), C::Cut { at: 7 }),
            (json!({"type": "take_ace"}), C::TakeAce),
            (json!({"type": "leave_ace"}), C::LeaveAce),
            (json!({"type": "accept"}), C::Accept),
            (json!({"type": "pass"}), C::Pass),
            (json!({"type": "name_suit", "suit": "spades"}), C::NameSuit { suit: Suit::Spades }),
            (json!({"type": "wieder"}), C::Wieder),
            (json!({"type": "discard", "card": "9D"}), C::Discard { card: card("9D") }),
            (json!({"type": "la_vola"}), C::LaVola),
            (json!({"type": "play", "card": "JC"}), C::Play { card: card("JC") }),
        ];
        for (value, command) in shapes {
            assert_eq!(serde_json::from_value::<Command>(value.clone()).unwrap(), command);
            assert_eq!(serde_json::to_value(&command).unwrap(), value);
        }
        assert!(serde_json::from_value::<Command>(json!({"type": "cut", "at": -1})).is_err());
        let e = Event::PackCut { seat: 3, at: 10, shown_card: card("JD"), cutter_took: true };
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({"type": "pack_cut", "seat": 3, "at": 10, "shown_card": "JD", "cutter_took": true})
        );
        let e = Event::StakePaid {
            payment: Payment::new(S(1), Pot, 10, rule::STAKE, "sv".into(), "en".into()),
            books: Books { balances: vec![0, -10, 0], pot: 10, bets: vec![BetRecord { bet: 1, amount: 5 }] },
        };
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({"type": "stake_paid",
                   "payment": {"from": {"seat": 1}, "to": "pot", "amount": 10, "rule": rule::STAKE, "explanation": {"sv": "sv", "en": "en"}},
                   "books": {"balances": [0, -10, 0], "pot": 10, "bets": [{"bet": 1, "amount": 5}]}})
        );
        let e = Event::BidMade { seat: 2, round: 2, call: Call::NameSuit, suit: Some(Suit::Clubs) };
        assert_eq!(serde_json::to_value(&e).unwrap(), json!({"type": "bid_made", "seat": 2, "round": 2, "call": "name-suit", "suit": "clubs"}));
    }

    #[test]
    fn the_view_shows_the_money_and_the_table() {
        let g = declared(&MIXED, 2, no_bets());
        let view = PolsktPass.view(&g.state, Viewer::Seat(2));
        for key in [
            "phase", "players", "options", "deal_number", "deals_total", "to_act", "winners", "balances", "pot", "bets",
            "seat", "dealer", "cutter", "forehand", "bet_in_play", "amount_played_for", "cut", "turned_card",
            "turned_card_taken", "ace_choice", "trumps", "trumps_from", "trumps_rule", "declarers", "bidding",
            "hand_sizes", "to_discard", "discarded", "undealt", "tricks_taken", "tricks_played", "trick", "last_trick",
            "la_vola", "result", "hand", "discard",
        ] {
            assert!(view.get(key).is_some(), "the view lacks {key}");
        }
        assert_eq!(view["phase"], "playing");
        assert_eq!(view["undealt"], 3);
    }

    // -----------------------------------------------------------------------------------------
    // Random matches

    /// What the random matches of one test went through, to show the rules were exercised.
    #[derive(Default, Debug)]
    struct Seen {
        matches: u32,
        outcomes: std::collections::BTreeMap<String, u32>,
        takes: std::collections::BTreeMap<String, u32>,
        two_declarers: u32,
        cutter_took: u32,
        round_two: u32,
        merged: u32,
        several_bets: u32,
    }

    /// Replays the money of a match from its log: every money event states the books its
    /// payments lead to, every payment names a rule of the rulebook, each deal is played for
    /// the pot and its bet, and the match ends with the pot and the bets shared out.
    fn check_log(players: usize, options: &Value, book: &Rulebook, log: &[Value], seen: &mut Seen) {
        let mut ledger = Ledger::new();
        let (mut deals, mut ended_match) = (0u32, false);
        let mut bet_for: Option<u32> = None;
        let mut next_bet = 1u32;
        let check_payment = |p: &Payment| {
            assert!(book.rule(&p.rule).is_some(), "{} is not in the rulebook", p.rule);
            assert!(p.amount > 0 && !p.explanation.sv.is_empty() && !p.explanation.en.is_empty(), "{p:?}");
        };
        for value in log {
            let event: Event = serde_json::from_value(value.clone()).unwrap();
            assert!(!ended_match, "nothing follows the end of the match");
            match event {
                Event::DealStarted { books, bet_in_play: b, next_bet: n, deal_number, .. } => {
                    deals += 1;
                    assert_eq!(deal_number, deals);
                    assert_eq!(books, Books::of(&ledger, players), "a deal starts from the books so far");
                    assert_eq!(b, bet_in_play(&books.bets).map(|b| b.bet));
                    assert_eq!(n, next_bet);
                    if books.bets.len() > 1 {
                        seen.several_bets += 1;
                    }
                    bet_for = b;
                }
                Event::StakePaid { payment, books } => {
                    check_payment(&payment);
                    assert_eq!((payment.amount, payment.rule.as_str()), (options["stake"].as_i64().unwrap(), rule::STAKE));
                    ledger.pay(&payment);
                    assert_eq!(books, Books::of(&ledger, players));
                }
                Event::PackCut { cutter_took, .. } => seen.cutter_took += cutter_took as u32,
                Event::TurnedCardTaken { why, rule: r, .. } => {
                    assert!(book.rule(&r).is_some());
                    *seen.takes.entry(format!("{why:?}")).or_default() += 1;
                }
                Event::TurnedCardLeft { why, rule: r, .. } => {
                    assert!(book.rule(&r).is_some());
                    *seen.takes.entry(format!("{why:?}")).or_default() += 1;
                }
                Event::TrumpsSet { declarers, from, rule: r, .. } => {
                    assert!(book.rule(&r).is_some());
                    seen.two_declarers += (declarers.len() == 2) as u32;
                    seen.round_two += (from == TrumpsFrom::RoundTwo) as u32;
                }
                Event::DealEnded { outcome, winner, rule: r, declarers, amount_played_for, bet_in_play: b, payments, books, .. } => {
                    assert!(book.rule(&r).is_some());
                    assert_eq!(b, bet_for);
                    let pot = ledger.balance(Account::Pot);
                    let bet = b.map_or(0, |b| ledger.balance(Account::Bet(b)));
                    assert_eq!(amount_played_for, pot + bet, "played for the pot and one bet");
                    for p in &payments {
                        check_payment(p);
                        if let Account::Bet(n) = p.to {
                            assert!(n >= next_bet || ledger.balance(p.to) > 0 || options["merge_bets"] == true);
                        }
                    }
                    let to_bets: Vec<u32> = payments.iter().filter_map(|p| match p.to { Account::Bet(n) => Some(n), _ => None }).collect();
                    match outcome {
                        DealOutcome::AllPassed | DealOutcome::LaVolaLost => {
                            assert!(payments.is_empty() && winner.is_none());
                        }
                        DealOutcome::NoWinner => {
                            assert_eq!(players, 5);
                            assert!(winner.is_none());
                            assert_eq!(to_bets.len(), declarers.len(), "every declarer pays");
                            assert!(payments.iter().all(|p| matches!(p.from, Account::Seat(s) if declarers.contains(&s))));
                        }
                        DealOutcome::Won | DealOutcome::LaVolaWon => {
                            let w = winner.unwrap();
                            let taken: i64 = payments.iter().filter(|p| p.to == Account::Seat(w) && !matches!(p.from, Account::Seat(_))).map(|p| p.amount).sum();
                            assert_eq!(taken, amount_played_for, "the winner takes the pot and the bet");
                            let failed = if outcome == DealOutcome::Won { declarers.iter().filter(|&&d| d != w).count() } else { 0 };
                            assert_eq!(to_bets.len(), failed);
                            if outcome == DealOutcome::LaVolaWon {
                                let from_players = payments.iter().filter(|p| p.to == Account::Seat(w) && matches!(p.from, Account::Seat(_))).count();
                                assert_eq!(from_players, players - 1);
                            }
                        }
                    }
                    if to_bets.len() == 2 && to_bets[0] == to_bets[1] {
                        seen.merged += 1;
                    }
                    for p in &payments {
                        ledger.pay(p);
                        if let Account::Bet(n) = p.to {
                            next_bet = next_bet.max(n + 1);
                        }
                    }
                    assert_eq!(books, Books::of(&ledger, players));
                    ledger.check().unwrap();
                    *seen.outcomes.entry(format!("{outcome:?}")).or_default() += 1;
                }
                Event::MatchEnded { payments, books, winners } => {
                    payments.iter().for_each(|p| {
                        check_payment(p);
                        ledger.pay(p);
                    });
                    assert_eq!(books, Books::of(&ledger, players));
                    assert_eq!((books.pot, books.bets.len()), (0, 0), "everything is shared out");
                    assert_eq!(winners, match_winners(&books.balances));
                    ended_match = true;
                }
                _ => {}
            }
        }
        assert!(ended_match);
        assert_eq!(deals, options["rounds"].as_u64().unwrap() as u32 * players as u32);
        seen.matches += 1;
    }

    fn assert_exercised(seen: &Seen, players: usize) {
        for outcome in ["AllPassed", "Won", "LaVolaWon", "LaVolaLost"] {
            assert!(seen.outcomes.get(outcome).copied().unwrap_or(0) > 0, "{outcome} never happened: {seen:?}");
        }
        if players == 5 {
            assert!(seen.outcomes.get("NoWinner").copied().unwrap_or(0) > 0, "{seen:?}");
        }
        for why in ["JackTurned", "CutterTook", "AceChosen", "NotJackOrAce", "AceDeclined"] {
            assert!(seen.takes.get(why).copied().unwrap_or(0) > 0, "{why} never happened: {seen:?}");
        }
        assert!(seen.two_declarers > 0 && seen.round_two > 0 && seen.merged > 0 && seen.several_bets > 0, "{seen:?}");
    }

    /// Many cheap random matches over every test option set, each checked on its log and
    /// shown to go through every outcome; the generic tests check the rest on the way.
    #[test]
    fn random_match_logs_keep_the_money_and_go_everywhere() {
        let book = PolsktPass.rulebook();
        let mut seen: std::collections::BTreeMap<usize, Seen> = Default::default();
        let plan = Plan { log_only: 50, ..Plan::default() };
        random_matches(&*erase(PolsktPass), plan, |players, options, report| {
            check_log(players, options, &book, &report.log, seen.entry(players).or_default());
        })
        .unwrap_or_else(|e| panic!("{e}"));
        for (players, seen) in &seen {
            assert_eq!(seen.matches, 9 * 50);
            assert_exercised(seen, *players);
        }
        assert_eq!(seen.len(), 3);
    }
}
