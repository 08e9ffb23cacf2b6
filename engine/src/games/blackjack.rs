//! BlackJack as Swedish restaurants play it: one to seven players against a dealer who is no
//! seat but the bank's rules. Everyone bets at once (2 to 20 chips in steps of 2), gets two cards
//! face up; the dealer gets one up and a hole card nobody sees. With an ace up the dealer offers
//! insurance (even money to a blackjack) and looks for his blackjack. Then each seat in turn hits,
//! stands, doubles on 7 to 11 or splits a pair (split aces one card each); the dealer draws to 16
//! and stands on every 17. Ties go to the bank on 17 to 19 and push on 20 and 21; a blackjack pays
//! 3:2. A match is ten rounds, every round dealt from a shoe of one to eight packs shuffled anew.
//! As some casinos do (`face_down`), the players' first two cards may be dealt face down instead,
//! each pair seen by its owner alone until a blackjack, a split, a bust or the settling shows it.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, is_permutation, Card, Rank};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Status, Viewer};
use crate::ledger::{Account, Ledger, Payment};
use crate::random::Rng;
use crate::rules::{core, RuleViolation, ScoreTerm, Text};
use crate::seat::{seats_text, Seat};

#[derive(Default)]
pub struct Blackjack;

pub const MIN_PLAYERS: usize = 1;
pub const MAX_PLAYERS: usize = 7;
pub const MAX_CHIPS: i64 = 10_000;
/// Hands a seat may hold at once when splitting again is allowed.
pub const MAX_HANDS: usize = 4;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const BET_PLACE: &str = "blackjack.bet.place";
    pub const BET_AMOUNT: &str = "blackjack.bet.amount";
    pub const INSURANCE: &str = "blackjack.insurance.offer";
    pub const EVEN_MONEY: &str = "blackjack.insurance.even-money";
    pub const ANSWER: &str = "blackjack.insurance.answer";
    pub const PEEK: &str = "blackjack.peek.ace";
    pub const PLAYER_BLACKJACK: &str = "blackjack.peek.player-blackjack";
    pub const HIT: &str = "blackjack.play.hit";
    pub const STAND: &str = "blackjack.play.stand";
    pub const BUST: &str = "blackjack.play.bust";
    pub const DOUBLE: &str = "blackjack.play.double";
    pub const SPLIT: &str = "blackjack.play.split";
    pub const SPLIT_ACES: &str = "blackjack.play.split-aces";
    pub const CHIPS: &str = "blackjack.play.chips";
    pub const DEALER_BUST: &str = "blackjack.dealer.bust";
    pub const HIGHER: &str = "blackjack.settle.higher";
    pub const LOWER: &str = "blackjack.settle.lower";
    pub const TIE: &str = "blackjack.settle.tie";
    pub const BREAKDOWN: &str = "blackjack.settle.breakdown";
    pub const TWENTY_ONE: &str = "blackjack.house.twenty-one";
    pub const NO_PEEK: &str = "blackjack.house.no-peek";
    pub const RESHUFFLE: &str = "blackjack.house.reshuffle";
    pub const FACE_DOWN: &str = "blackjack.variant.face-down";
    pub const SHOW_BLACKJACK: &str = "blackjack.variant.show-blackjack";
    pub const SHOW_SPLIT: &str = "blackjack.variant.show-split";
    pub const SHOW_BUST: &str = "blackjack.variant.show-bust";
    pub const SHOW_SETTLING: &str = "blackjack.variant.show-settling";
}

// ---------------------------------------------------------------------------------------------
// Options

/// Who keeps the bet when a hand ties with the dealer.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackTies))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ties {
    /// The restaurant rule: the bank keeps ties on 17 to 19; 20 and 21 push.
    Swedish,
    /// Every tie pushes.
    Push,
}

/// Which first two cards may be doubled on.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackDoubling))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Doubling {
    SevenToEleven,
    NineToEleven,
    Any,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackOptions))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10000))]
    pub chips: i64,
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub rounds: u32,
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 8))]
    pub packs: u8,
    /// The least bet: an even number of chips from 2, at most max_bet.
    #[cfg_attr(feature = "openapi", schema(minimum = 2))]
    pub min_bet: i64,
    #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 10000))]
    pub max_bet: i64,
    pub ties: Ties,
    pub double_on: Doubling,
    pub double_after_split: bool,
    pub resplit: bool,
    pub peek_on_ten: bool,
    pub insurance: bool,
    /// The players' first two cards dealt face down, each pair seen by its owner alone.
    pub face_down: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            chips: 100,
            rounds: 10,
            packs: 6,
            min_bet: 2,
            max_bet: 20,
            ties: Ties::Swedish,
            double_on: Doubling::SevenToEleven,
            double_after_split: false,
            resplit: false,
            peek_on_ten: false,
            insurance: true,
            face_down: false,
        }
    }
}

impl Options {
    fn shoe(&self) -> Vec<Card> {
        (0..self.packs).flat_map(|_| decks::standard52()).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// State

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Betting,
    Insurance,
    Playing,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// A seat's answer to the insurance offer.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackCover))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cover {
    Insured,
    EvenMoney,
    Declined,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    pub cards: Vec<Card>,
    pub stake: i64,
    pub doubled: bool,
    /// Made by a split: two cards of 21 are then no blackjack.
    pub split: bool,
    pub stood: bool,
    pub bust: bool,
}

impl Hand {
    fn new(cards: Vec<Card>, stake: i64, split: bool) -> Hand {
        Hand { cards, stake, doubled: false, split, stood: false, bust: false }
    }

    fn natural(&self) -> bool {
        !self.split && is_blackjack(&self.cards)
    }

    fn split_aces(&self) -> bool {
        self.split && self.cards.first().is_some_and(|c| c.rank() == Some(Rank::ACE))
    }

    fn done(&self) -> bool {
        self.stood || self.bust || self.natural()
    }
}

/// What the seat's stage is in a round, read from the facts so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Betting,
    Dealing,
    Insurance,
    Peek,
    /// A seat's blackjack dealt face down, shown at once.
    Showing(Seat),
    /// Seat, hand.
    Playing(Seat, usize),
    TurnHole,
    DealerDraws,
    Settling,
    Over,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    deck: Vec<Card>,
    in_round: Vec<bool>,
    bets: Vec<Option<i64>>,
    hands: Vec<Vec<Hand>>,
    /// By seat, its first two cards lie face down (the face-down variant): known to it alone.
    /// Only a seat's one unsplit hand can hold them, as the first two cards of it.
    down: Vec<bool>,
    covers: Vec<Option<Cover>>,
    insured: Vec<i64>,
    up: Option<Card>,
    hole: Option<Card>,
    hole_turned: bool,
    /// The dealer's cards drawn after the hole card.
    drawn: Vec<Card>,
    peeked: bool,
    /// Undealt cards, top first: nobody knows them.
    shoe: Vec<Card>,
    /// Cards the dealer has taken in during the round (bust hands): public.
    tray: Vec<Card>,
    scored: bool,
    options: Options,
}

impl Deal {
    fn players(&self) -> usize {
        self.in_round.len()
    }

    fn dealer_cards(&self) -> Vec<Card> {
        let hole = self.hole.filter(|_| self.hole_turned);
        self.up.into_iter().chain(hole).chain(self.drawn.iter().copied()).collect()
    }

    fn dealer_blackjack(&self) -> bool {
        self.hole_turned && self.drawn.is_empty() && is_blackjack(&self.dealer_cards())
    }

    fn peek_due(&self) -> bool {
        self.up.is_some_and(|c| c.rank() == Some(Rank::ACE) || (self.options.peek_on_ten && value(c) == 10))
    }

    fn insurance_offered(&self) -> bool {
        self.options.insurance && self.up.is_some_and(|c| c.rank() == Some(Rank::ACE))
    }

    /// Seats to answer the insurance offer: a blackjack is offered even money, another hand
    /// insurance if its seat has the chips for it.
    fn asked(&self, seat: Seat, stack: i64) -> bool {
        self.insurance_offered()
            && self.covers[seat].is_none()
            && self.hands[seat].first().is_some_and(|h| h.natural() || stack >= h.stake / 2)
    }

    /// The seat's cards lying face down: its first two while `down`.
    fn hidden(&self, seat: Seat) -> &[Card] {
        match self.hands[seat].first() {
            Some(hand) if self.down[seat] => &hand.cards[..2],
            _ => &[],
        }
    }

    /// The seat's face-down cards turned up for all, by `rule`.
    fn shown(&self, seat: Seat, rule: &str) -> Event {
        Event::CardsShown { seat, cards: self.hidden(seat).to_vec(), rule: rule.into() }
    }

    fn cards_left(&self) -> bool {
        !self.shoe.is_empty() || !self.tray.is_empty()
    }

    /// A hand still to be played for, against the dealer's cards.
    fn live_hands(&self) -> bool {
        (0..self.players())
            .any(|s| self.covers[s] != Some(Cover::EvenMoney) && self.hands[s].iter().any(|h| !h.bust && !h.natural()))
    }

    fn stage(&self, stacks: &[i64]) -> Stage {
        let seats = 0..self.players();
        if seats.clone().any(|s| self.in_round[s] && self.bets[s].is_none()) {
            return Stage::Betting;
        }
        if self.up.is_none() {
            return Stage::Dealing;
        }
        if let Some(s) = seats.clone().find(|&s| self.down[s] && self.hands[s].first().is_some_and(Hand::natural)) {
            return Stage::Showing(s);
        }
        if !self.peeked && seats.clone().any(|s| self.in_round[s] && self.asked(s, stacks[s])) {
            return Stage::Insurance;
        }
        if !self.peeked && self.peek_due() {
            return Stage::Peek;
        }
        if !self.dealer_blackjack() {
            let turn = seats.clone().find_map(|s| {
                let h = self.hands[s].iter().position(|h| !h.done())?;
                (self.covers[s] != Some(Cover::EvenMoney)).then_some((s, h))
            });
            if let Some((s, h)) = turn {
                return Stage::Playing(s, h);
            }
        }
        if !self.hole_turned {
            return Stage::TurnHole;
        }
        if self.live_hands() && !self.dealer_blackjack() && total(&self.dealer_cards()).0 < 17 && self.cards_left() {
            return Stage::DealerDraws;
        }
        if !self.scored {
            return Stage::Settling;
        }
        Stage::Over
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    players: usize,
    /// Every seat's chips beyond its start, the pot of stakes on the table and the bank.
    ledger: Ledger,
    deals: Deals<Deal>,
    refills: u32,
}

impl State {
    fn stack(&self, seat: Seat) -> i64 {
        self.options.chips + self.ledger.balance(Account::Seat(seat))
    }

    fn stacks(&self) -> Vec<i64> {
        (0..self.players).map(|s| self.stack(s)).collect()
    }

    fn stage(&self) -> Stage {
        match self.deals.deal.as_ref() {
            Some(d) if !d.scored => d.stage(&self.stacks()),
            _ => Stage::Over,
        }
    }

    /// The shoe is empty while a card may be wanted and the dealer has cards to shuffle into it.
    fn refill_due(&self) -> Option<Vec<Card>> {
        let deal = self.deals.live()?;
        let wants = matches!(self.stage(), Stage::Playing(..) | Stage::DealerDraws);
        (wants && deal.shoe.is_empty() && !deal.tray.is_empty()).then(|| deal.tray.clone())
    }
}

/// Who acts and the phase need the stacks, which only the match holds: `Rules::status` and the
/// view work them out from [`State::stage`], so a round tells `Deals` only whether it is live.
impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        Vec::new()
    }

    fn is_live(&self) -> bool {
        !self.scored
    }

    fn phase(&self) -> Phase {
        if self.scored {
            Phase::DealOver
        } else {
            Phase::Playing
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackCommand))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    Bet {
        #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 4_294_967_295_i64))]
        #[serde(deserialize_with = "crate::schema::within::<_, _, 2, 4294967295>")]
        amount: i64,
    },
    Insure,
    EvenMoney,
    NoInsurance,
    Hit,
    Stand,
    Double,
    Split,
}

/// How a hand (or an insurance) came out, for the round's breakdown.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackResult))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HandResult {
    Blackjack,
    EvenMoney,
    Won,
    DealerBust,
    Push,
    Lost,
    Bust,
    InsuranceWon,
    InsuranceLost,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackSettled))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settled {
    pub seat: Seat,
    /// The hand, or null for an insurance.
    pub hand: Option<usize>,
    pub result: HandResult,
    pub stake: i64,
    /// What came back to the seat, the stake included.
    pub paid: i64,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackEvent))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    RoundStarted {
        deal_number: u32,
        /// Never shown: the shoe's order.
        deck: Vec<Card>,
        in_round: Vec<Seat>,
        scores: Vec<i64>,
        options: Options,
    },
    BetPlaced {
        seat: Seat,
        amount: i64,
    },
    /// Two cards to each seat in the round (by seat) and the dealer's up card; the hole card
    /// goes face down from the shoe, unnamed. With `face_down` each seat's two are its own to
    /// see until `cards_shown`.
    CardsDealt {
        hands: Vec<Vec<Card>>,
        up: Card,
    },
    InsuranceTaken {
        seat: Seat,
        amount: i64,
    },
    EvenMoneyTaken {
        seat: Seat,
    },
    InsuranceDeclined {
        seat: Seat,
    },
    DealerPeeked {
        blackjack: bool,
    },
    HoleCardTurned {
        card: Card,
    },
    Hit {
        seat: Seat,
        hand: usize,
        card: Card,
    },
    Stood {
        seat: Seat,
        hand: usize,
        /// The rule that stood it: the seat's choice, or a hand that could take no more.
        rule: String,
    },
    Doubled {
        seat: Seat,
        hand: usize,
        amount: i64,
        card: Card,
    },
    Split {
        seat: Seat,
        hand: usize,
        amount: i64,
    },
    /// The second card of a hand made by a split.
    CardDealt {
        seat: Seat,
        hand: usize,
        card: Card,
    },
    Busted {
        seat: Seat,
        hand: usize,
        payment: Payment,
    },
    /// A seat's first two cards, dealt face down (`face_down`), turned up for all: a blackjack
    /// at once, a pair as it is split, a bust hand as the dealer takes it, and the rest when
    /// the hands are compared with the dealer's.
    CardsShown {
        seat: Seat,
        cards: Vec<Card>,
        rule: String,
    },
    /// The cards the dealer took in, shuffled into a new shoe (the order is nobody's to know).
    ShoeRefilled {
        order: Vec<Card>,
    },
    DealerDrew {
        card: Card,
    },
    RoundScored {
        deal_number: u32,
        dealer_total: u8,
        settled: Vec<Settled>,
        payments: Vec<Payment>,
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
        scores: Vec<i64>,
        stacks: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        scores: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Setup and deal

fn round_started(state: &State, deck: Vec<Card>) -> Event {
    Event::RoundStarted {
        deal_number: state.deals.number + 1,
        deck,
        in_round: (0..state.players).filter(|&s| state.stack(s) >= state.options.min_bet).collect(),
        scores: state.deals.scores.clone(),
        options: state.options.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Counting a hand

/// A card's count, an ace as 1.
fn value(card: Card) -> u8 {
    match card.rank().map_or(0, Rank::value) {
        14 => 1,
        v if v >= 10 => 10,
        v => v,
    }
}

/// The hand's count and whether an ace counts 11 in it (a soft hand).
pub fn total(cards: &[Card]) -> (u8, bool) {
    let hard: u8 = cards.iter().map(|&c| value(c)).sum();
    let ace = cards.iter().any(|c| c.rank() == Some(Rank::ACE));
    if ace && hard + 10 <= 21 {
        (hard + 10, true)
    } else {
        (hard, false)
    }
}

fn is_blackjack(cards: &[Card]) -> bool {
    cards.len() == 2 && total(cards).0 == 21
}

fn may_double(options: &Options, hand: &Hand) -> bool {
    if hand.cards.len() != 2 || hand.split_aces() || (hand.split && !options.double_after_split) {
        return false;
    }
    let count = total(&hand.cards).0;
    match options.double_on {
        Doubling::SevenToEleven => (7..=11).contains(&count),
        Doubling::NineToEleven => (9..=11).contains(&count),
        Doubling::Any => true,
    }
}

fn may_split(options: &Options, hands: &[Hand], hand: usize) -> bool {
    let h = &hands[hand];
    let pair = h.cards.len() == 2 && h.cards[0].rank() == h.cards[1].rank();
    let room = if options.resplit { hands.len() < MAX_HANDS } else { hands.len() == 1 };
    pair && room && !h.split_aces()
}

// ---------------------------------------------------------------------------------------------
// Decide

fn refused(rule: &str, sv: &str, en: &str) -> RuleViolation {
    RuleViolation::new(rule, sv, en)
}

fn check(state: &State, seat: Seat, command: &Command) -> Result<(), RuleViolation> {
    let deal = state.deals.current()?;
    let stack = state.stack(seat);
    match (state.stage(), command) {
        (Stage::Betting, Command::Bet { amount }) => {
            let (min, max) = (deal.options.min_bet, deal.options.max_bet.min(stack));
            if deal.bets[seat].is_some() {
                return Err(refused(rule::BET_PLACE, "Du har redan satsat.", "You have already bet."));
            }
            if *amount < min || *amount > max || amount % 2 != 0 {
                return Err(RuleViolation::new(
                    rule::BET_AMOUNT,
                    format!("Insatsen ska vara ett jämnt antal marker från {min} till {max}."),
                    format!("The bet must be an even number of chips from {min} to {max}."),
                ));
            }
            Ok(())
        }
        (Stage::Betting, _) => Err(refused(rule::BET_PLACE, "Först satsar alla.", "Everyone bets first.")),
        (Stage::Insurance, Command::Insure | Command::EvenMoney | Command::NoInsurance) => {
            if !deal.asked(seat, stack) {
                return Err(refused(rule::ANSWER, "Du har redan svarat.", "You have already answered."));
            }
            let natural = deal.hands[seat][0].natural();
            match command {
                Command::Insure if natural => Err(refused(
                    rule::EVEN_MONEY,
                    "Med blackjack erbjuds du even money, inte försäkring.",
                    "With a blackjack you are offered even money, not insurance.",
                )),
                Command::EvenMoney if !natural => Err(refused(
                    rule::EVEN_MONEY,
                    "Even money är bara för den som har blackjack.",
                    "Even money is only for a blackjack.",
                )),
                _ => Ok(()),
            }
        }
        (Stage::Insurance, _) => Err(refused(
            rule::INSURANCE,
            "Först svarar alla på erbjudandet om försäkring.",
            "First everyone answers the offer of insurance.",
        )),
        (Stage::Playing(s, h), _) if s == seat => {
            let hands = &deal.hands[seat];
            let hand = &hands[h];
            match command {
                Command::Hit if deal.shoe.is_empty() => Err(refused(
                    rule::RESHUFFLE,
                    "Det finns inga kort kvar att ta.",
                    "There are no cards left to take.",
                )),
                Command::Hit | Command::Stand => Ok(()),
                Command::Double if !may_double(&deal.options, hand) => Err(refused(
                    rule::DOUBLE,
                    "Du får bara dubbla på de två första korten med rätt summa.",
                    "You may double only on the first two cards with the right total.",
                )),
                Command::Split if !may_split(&deal.options, hands, h) => Err(refused(
                    rule::SPLIT,
                    "Du får bara dela två första kort av samma valör.",
                    "You may split only a first two cards of the same rank.",
                )),
                Command::Double | Command::Split if stack < hand.stake => Err(refused(
                    rule::CHIPS,
                    "Du har inte marker nog för den nya insatsen.",
                    "You do not have the chips for the new bet.",
                )),
                Command::Double if deal.shoe.is_empty() => Err(refused(
                    rule::RESHUFFLE,
                    "Det finns inga kort kvar att ta.",
                    "There are no cards left to take.",
                )),
                Command::Double | Command::Split => Ok(()),
                _ => Err(refused(rule::STAND, "Nu spelar du din hand.", "You are playing your hand now.")),
            }
        }
        _ => Err(RuleViolation::new(core::TURN, "Det är inte din tur nu.", "It is not your turn now.")),
    }
}

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    check(state, seat, command)?;
    let deal = state.deals.current()?;
    let top = deal.shoe.first().copied();
    let event = match (*command, state.stage()) {
        (Command::Bet { amount }, _) => Event::BetPlaced { seat, amount },
        (Command::Insure, _) => Event::InsuranceTaken { seat, amount: deal.hands[seat][0].stake / 2 },
        (Command::EvenMoney, _) => Event::EvenMoneyTaken { seat },
        (Command::NoInsurance, _) => Event::InsuranceDeclined { seat },
        (Command::Hit, Stage::Playing(_, hand)) => Event::Hit { seat, hand, card: top.expect("checked") },
        (Command::Stand, Stage::Playing(_, hand)) => Event::Stood { seat, hand, rule: rule::STAND.into() },
        (Command::Double, Stage::Playing(_, hand)) => {
            Event::Doubled { seat, hand, amount: deal.hands[seat][hand].stake, card: top.expect("checked") }
        }
        (Command::Split, Stage::Playing(_, hand)) => {
            let split = Event::Split { seat, hand, amount: deal.hands[seat][hand].stake };
            // The pair is laid apart face up before the new bet goes beside it.
            if deal.down[seat] {
                return Ok(run(state, vec![deal.shown(seat, rule::SHOW_SPLIT), split]));
            }
            split
        }
        _ => return Err(RuleViolation::wrong_phase("det passar inte nu", "it does not fit now")),
    };
    Ok(run(state, vec![event]))
}

fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

fn next_step(state: &State) -> Option<Event> {
    if state.deals.outcome.is_some() {
        return None;
    }
    let deal = state.deals.deal.as_ref()?;
    if deal.scored {
        return match_over(state).then(|| match_end(state));
    }
    match state.stage() {
        Stage::Dealing => {
            let order: Vec<Seat> = (0..deal.players()).filter(|&s| deal.in_round[s]).collect();
            let n = order.len();
            let mut hands = vec![Vec::new(); deal.players()];
            for (i, &s) in order.iter().enumerate() {
                hands[s] = vec![deal.shoe[i], deal.shoe[n + 1 + i]];
            }
            Some(Event::CardsDealt { hands, up: deal.shoe[n] })
        }
        Stage::Showing(seat) => Some(deal.shown(seat, rule::SHOW_BLACKJACK)),
        Stage::Peek => Some(Event::DealerPeeked { blackjack: is_blackjack(&[deal.up?, deal.hole?]) }),
        Stage::Playing(seat, h) => {
            let hand = &deal.hands[seat][h];
            if hand.cards.len() == 1 {
                return match deal.shoe.first() {
                    Some(&card) => Some(Event::CardDealt { seat, hand: h, card }),
                    None if deal.tray.is_empty() => Some(Event::Stood { seat, hand: h, rule: rule::RESHUFFLE.into() }),
                    None => None,
                };
            }
            let (count, _) = total(&hand.cards);
            if count > 21 && deal.down[seat] {
                return Some(deal.shown(seat, rule::SHOW_BUST));
            }
            if count > 21 {
                let stake = hand.stake;
                return Some(Event::Busted {
                    seat,
                    hand: h,
                    payment: Payment::new(
                        Account::Pot,
                        Account::Bank,
                        stake,
                        rule::BUST,
                        format!("Plats {seat} spricker med {count}: banken tar insatsen {stake}."),
                        format!("Seat {seat} is bust with {count}: the bank takes the bet of {stake}."),
                    ),
                });
            }
            let rule = if hand.doubled {
                Some(rule::DOUBLE)
            } else if hand.split_aces() {
                Some(rule::SPLIT_ACES)
            } else if count == 21 && !deal.down[seat] {
                // "blackjack.house.face-down-twenty-one": a hand standing by itself would tell
                // the table what its face-down cards make, so its owner stands as on any count.
                Some(rule::TWENTY_ONE)
            } else if !deal.cards_left() {
                Some(rule::RESHUFFLE)
            } else {
                None
            };
            rule.map(|r| Event::Stood { seat, hand: h, rule: r.into() })
        }
        Stage::TurnHole => Some(Event::HoleCardTurned { card: deal.hole? }),
        Stage::DealerDraws => deal.shoe.first().map(|&card| Event::DealerDrew { card }),
        Stage::Settling => match (0..deal.players()).find(|&s| deal.down[s]) {
            Some(seat) => Some(deal.shown(seat, rule::SHOW_SETTLING)),
            None => Some(score(state, deal)),
        },
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn stake(seat: Seat, amount: i64, rule: &str, sv: String, en: String) -> Payment {
    Payment::new(Account::Seat(seat), Account::Pot, amount, rule, sv, en)
}

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::RoundStarted { deal_number, deck, in_round, scores, options } => {
            let players = scores.len();
            state.options = options.clone();
            state.players = players;
            // The books start from the scores the round inherits, so a replay may begin here.
            state.ledger = Ledger::new();
            for (s, &b) in scores.iter().enumerate().filter(|(_, b)| **b != 0) {
                state.ledger.pay(&Payment::new(
                    Account::Bank,
                    Account::Seat(s),
                    b,
                    rule::BREAKDOWN,
                    "Saldo från tidigare rundor.".into(),
                    "Balance from earlier rounds.".into(),
                ));
            }
            let deal = Deal {
                number: *deal_number,
                deck: deck.clone(),
                in_round: (0..players).map(|s| in_round.contains(&s)).collect(),
                bets: vec![None; players],
                hands: vec![Vec::new(); players],
                down: vec![false; players],
                covers: vec![None; players],
                insured: vec![0; players],
                up: None,
                hole: None,
                hole_turned: false,
                drawn: Vec::new(),
                peeked: false,
                shoe: deck.clone(),
                tray: Vec::new(),
                scored: false,
                options: options.clone(),
            };
            state.deals.started(*deal_number, scores, deal);
        }
        Event::RoundScored { terms, scores, payments, .. } => {
            state.deals.scored(terms, scores);
            payments.iter().for_each(|p| state.ledger.pay(p));
            if let Some(deal) = state.deals.deal.as_mut() {
                deal.scored = true;
            }
        }
        Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
        Event::ShoeRefilled { .. } => {
            state.refills += 1;
            if let Some(deal) = state.deals.deal.as_mut() {
                evolve_deal(deal, &mut state.ledger, event);
            }
        }
        _ => {
            if let Some(deal) = state.deals.deal.as_mut() {
                evolve_deal(deal, &mut state.ledger, event);
            }
        }
    }
}

fn draw(deal: &mut Deal) -> Card {
    deal.shoe.remove(0)
}

fn evolve_deal(deal: &mut Deal, ledger: &mut Ledger, event: &Event) {
    match event {
        Event::BetPlaced { seat, amount } => {
            deal.bets[*seat] = Some(*amount);
            ledger.pay(&stake(
                *seat,
                *amount,
                rule::BET_PLACE,
                format!("Plats {seat} satsar {amount}."),
                format!("Seat {seat} bets {amount}."),
            ));
        }
        Event::CardsDealt { hands, up } => {
            let order: Vec<Seat> = (0..deal.players()).filter(|&s| deal.in_round[s]).collect();
            // First cards round the table, the up card, second cards, the hole card: all off the top.
            let n = order.len();
            let dealt: Vec<Card> = deal.shoe.drain(..2 * n + 2).collect();
            for (s, cards) in hands.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
                deal.hands[s] = vec![Hand::new(cards.clone(), deal.bets[s].unwrap_or(0), false)];
                deal.down[s] = deal.options.face_down;
            }
            deal.up = Some(*up);
            deal.hole = dealt.last().copied();
            if !deal.insurance_offered() {
                deal.covers = vec![Some(Cover::Declined); deal.players()];
            }
        }
        Event::InsuranceTaken { seat, amount } => {
            deal.covers[*seat] = Some(Cover::Insured);
            deal.insured[*seat] = *amount;
            ledger.pay(&stake(
                *seat,
                *amount,
                rule::INSURANCE,
                format!("Plats {seat} försäkrar för {amount}."),
                format!("Seat {seat} insures for {amount}."),
            ));
        }
        Event::EvenMoneyTaken { seat } => deal.covers[*seat] = Some(Cover::EvenMoney),
        Event::InsuranceDeclined { seat } => deal.covers[*seat] = Some(Cover::Declined),
        Event::DealerPeeked { blackjack } => {
            deal.peeked = true;
            // Those not asked (no chips for it) are past the offer too.
            for c in deal.covers.iter_mut().filter(|c| c.is_none()) {
                *c = Some(Cover::Declined);
            }
            if *blackjack {
                deal.hole_turned = true;
            }
        }
        Event::HoleCardTurned { .. } => {
            deal.peeked = true;
            deal.hole_turned = true;
        }
        Event::Hit { seat, hand, .. } | Event::CardDealt { seat, hand, .. } => {
            let card = draw(deal);
            deal.hands[*seat][*hand].cards.push(card);
        }
        Event::Stood { seat, hand, .. } => deal.hands[*seat][*hand].stood = true,
        Event::Doubled { seat, hand, amount, .. } => {
            let card = draw(deal);
            let h = &mut deal.hands[*seat][*hand];
            h.cards.push(card);
            h.stake += amount;
            h.doubled = true;
            ledger.pay(&stake(
                *seat,
                *amount,
                rule::DOUBLE,
                format!("Plats {seat} dubblar med {amount}."),
                format!("Seat {seat} doubles with {amount}."),
            ));
        }
        Event::Split { seat, hand, amount } => {
            let hands = &mut deal.hands[*seat];
            let second = hands[*hand].cards.pop().expect("a pair");
            hands[*hand].split = true;
            hands.insert(hand + 1, Hand::new(vec![second], *amount, true));
            ledger.pay(&stake(
                *seat,
                *amount,
                rule::SPLIT,
                format!("Plats {seat} delar med en ny insats på {amount}."),
                format!("Seat {seat} splits with a new bet of {amount}."),
            ));
        }
        Event::CardsShown { seat, .. } => deal.down[*seat] = false,
        Event::Busted { seat, hand, payment } => {
            let h = &mut deal.hands[*seat][*hand];
            h.bust = true;
            deal.tray.append(&mut h.cards);
            ledger.pay(payment);
        }
        Event::ShoeRefilled { order } => {
            deal.shoe = order.clone();
            deal.tray.clear();
        }
        Event::DealerDrew { .. } => {
            let card = draw(deal);
            deal.drawn.push(card);
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// One hand against the dealer: its result and what comes back to the seat, stake included.
fn settle_hand(deal: &Deal, seat: Seat, hand: &Hand) -> (HandResult, i64, &'static str) {
    let dealer = deal.dealer_cards();
    let (mine, theirs) = (total(&hand.cards).0, total(&dealer).0);
    let s = hand.stake;
    if deal.covers[seat] == Some(Cover::EvenMoney) {
        return (HandResult::EvenMoney, 2 * s, rule::EVEN_MONEY);
    }
    if deal.dealer_blackjack() {
        let rule = if deal.peek_due() { rule::PEEK } else { rule::NO_PEEK };
        return if hand.natural() { (HandResult::Push, s, rule) } else { (HandResult::Lost, 0, rule) };
    }
    if hand.natural() {
        return (HandResult::Blackjack, s + s * 3 / 2, rule::PLAYER_BLACKJACK);
    }
    if theirs > 21 {
        return (HandResult::DealerBust, 2 * s, rule::DEALER_BUST);
    }
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => (HandResult::Won, 2 * s, rule::HIGHER),
        std::cmp::Ordering::Less => (HandResult::Lost, 0, rule::LOWER),
        std::cmp::Ordering::Equal if deal.options.ties == Ties::Swedish && (17..=19).contains(&mine) => {
            (HandResult::Lost, 0, rule::TIE)
        }
        std::cmp::Ordering::Equal => (HandResult::Push, s, rule::TIE),
    }
}

fn score(state: &State, deal: &Deal) -> Event {
    let players = deal.players();
    let mut settled = Vec::new();
    let mut payments = Vec::new();
    let mut terms = Vec::new();
    let mut pay = |seat: Seat, stake: i64, paid: i64, rule: &str, what_sv: &str, what_en: &str| {
        if paid > 0 {
            let back = paid.min(stake);
            payments.push(Payment::new(
                Account::Pot,
                Account::Seat(seat),
                back,
                rule,
                format!("Plats {seat} får tillbaka insatsen {back} ({what_sv})."),
                format!("Seat {seat} gets back the bet of {back} ({what_en})."),
            ));
            if paid > stake {
                let won = paid - stake;
                payments.push(Payment::new(
                    Account::Bank,
                    Account::Seat(seat),
                    won,
                    rule,
                    format!("Banken betalar plats {seat} {won} ({what_sv})."),
                    format!("The bank pays seat {seat} {won} ({what_en})."),
                ));
            }
        } else if stake > 0 {
            payments.push(Payment::new(
                Account::Pot,
                Account::Bank,
                stake,
                rule,
                format!("Banken tar plats {seat}s insats {stake} ({what_sv})."),
                format!("The bank takes seat {seat}'s bet of {stake} ({what_en})."),
            ));
        }
    };
    for seat in 0..players {
        let put_in = deal_put_in(deal, seat);
        if put_in > 0 {
            terms.push(ScoreTerm::new(
                seat,
                -put_in,
                rule::BREAKDOWN,
                format!("Plats {seat} satsade {put_in} i rundan."),
                format!("Seat {seat} put {put_in} into the round."),
            ));
        }
        for (h, hand) in deal.hands[seat].iter().enumerate() {
            let (result, paid, rule) = if hand.bust {
                (HandResult::Bust, 0, rule::BUST)
            } else {
                let (result, paid, rule) = settle_hand(deal, seat, hand);
                let (sv, en) = result_words(result);
                pay(seat, hand.stake, paid, rule, sv, en);
                (result, paid, rule)
            };
            settled.push(Settled { seat, hand: Some(h), result, stake: hand.stake, paid });
            if paid > 0 {
                let (sv, en) = result_words(result);
                terms.push(ScoreTerm::new(
                    seat,
                    paid,
                    rule,
                    format!("Hand {h}: {sv}, tillbaka {paid}."),
                    format!("Hand {h}: {en}, {paid} back."),
                ));
            }
        }
        let insured = deal.insured[seat];
        if insured > 0 {
            let won = deal.dealer_blackjack();
            let (result, paid) =
                if won { (HandResult::InsuranceWon, 3 * insured) } else { (HandResult::InsuranceLost, 0) };
            let (sv, en) = result_words(result);
            pay(seat, insured, paid, rule::INSURANCE, sv, en);
            settled.push(Settled { seat, hand: None, result, stake: insured, paid });
            if paid > 0 {
                terms.push(ScoreTerm::new(
                    seat,
                    paid,
                    rule::INSURANCE,
                    format!("Försäkringen betalar {paid}."),
                    format!("The insurance pays {paid}."),
                ));
            }
        }
    }
    let mut points = vec![0; players];
    terms.iter().for_each(|t| points[t.to] += t.points);
    let scores: Vec<i64> = state.deals.scores.iter().zip(&points).map(|(a, b)| a + b).collect();
    let stacks = scores.iter().map(|s| state.options.chips + s).collect();
    Event::RoundScored {
        deal_number: deal.number,
        dealer_total: total(&deal.dealer_cards()).0,
        settled,
        payments,
        terms,
        points,
        scores,
        stacks,
    }
}

fn result_words(result: HandResult) -> (&'static str, &'static str) {
    match result {
        HandResult::Blackjack => ("blackjack, 3:2", "blackjack, 3:2"),
        HandResult::EvenMoney => ("even money", "even money"),
        HandResult::Won => ("högre än dealern", "higher than the dealer"),
        HandResult::DealerBust => ("dealern sprack", "the dealer went bust"),
        HandResult::Push => ("lika", "a tie"),
        HandResult::Lost => ("förlorad", "lost"),
        HandResult::Bust => ("sprucken", "bust"),
        HandResult::InsuranceWon => ("försäkringen vann", "the insurance won"),
        HandResult::InsuranceLost => ("försäkringen förlorad", "the insurance lost"),
    }
}

fn match_over(state: &State) -> bool {
    let can_bet = (0..state.players).any(|s| state.stack(s) >= state.options.min_bet);
    state.deals.number >= state.options.rounds || !can_bet
}

fn match_end(state: &State) -> Event {
    let stacks = state.stacks();
    let winners: Vec<Seat> = (0..state.players).filter(|&s| stacks[s] > state.options.chips).collect();
    let explanation = if winners.is_empty() {
        Text::new(
            "Ingen slutade med fler marker än han började med: banken vann.",
            "Nobody ended with more chips than he began with: the bank won.",
        )
    } else {
        let who = seats_text(&winners);
        Text::new(
            format!("Plats {who} slutade med fler marker än vid start."),
            format!("Seat {who} ended with more chips than at the start."),
        )
    };
    Event::MatchEnded { winners, scores: state.deals.scores.clone(), explanation }
}

// ---------------------------------------------------------------------------------------------
// The table view

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackDealer))]
#[derive(Debug, Clone, Serialize)]
pub struct DealerView {
    /// The up card, the hole card once turned, and the cards drawn.
    pub cards: Vec<Card>,
    /// The hole card lies face down.
    pub hole_down: bool,
    /// The count of the cards showing.
    pub total: u8,
}

/// A hand as the viewer sees it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackHand))]
#[derive(Debug, Clone, Serialize)]
pub struct HandView {
    /// Null for a card lying face down that is not the viewer's (`face_down`).
    pub cards: Vec<Option<Card>>,
    pub stake: i64,
    pub doubled: bool,
    /// Made by a split: two cards of 21 are then no blackjack.
    pub split: bool,
    pub stood: bool,
    pub bust: bool,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BlackjackTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The dealer is the house, no seat: `dealer` and `next_dealer` are always seat 0, the seat
    /// on the dealer's left.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    pub stacks: Vec<i64>,
    /// By seat, the seat's bet this round (null before it bets or when out).
    pub bets: Vec<Option<i64>>,
    /// By seat, its hands.
    pub hands: Vec<Vec<HandView>>,
    pub covers: Vec<Option<Cover>>,
    pub insured: Vec<i64>,
    /// The house's hand (named apart from `dealer`, the seat the match's deals say deals).
    pub house: DealerView,
    /// The seat and hand to play now.
    pub turn: Option<(Seat, usize)>,
    pub pot: i64,
    /// Cards left in the shoe.
    pub shoe: usize,
    /// The cards the dealer has taken in this round.
    pub tray: Vec<Card>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let players = state.players;
    let deal = state.deals.deal.as_ref();
    let dealer_cards = deal.map(|d| {
        let mut cards = d.dealer_cards();
        // The record shows the hole card while a round is being played (it is turned by the end).
        if viewer == Viewer::Record && !d.hole_turned {
            cards.extend(d.hole);
        }
        cards
    });
    let mut deals = state.deals.view(viewer, players, Some(0));
    deals.to_act = Blackjack.status(state).to_act().to_vec();
    Table {
        phase: phase(state),
        deals,
        options: state.options.clone(),
        stacks: state.stacks(),
        bets: deal.map(|d| d.bets.clone()).unwrap_or_else(|| vec![None; players]),
        hands: deal.map(|d| hands_seen(d, viewer)).unwrap_or_else(|| vec![Vec::new(); players]),
        covers: deal.map(|d| d.covers.clone()).unwrap_or_else(|| vec![None; players]),
        insured: deal.map(|d| d.insured.clone()).unwrap_or_else(|| vec![0; players]),
        house: DealerView {
            total: dealer_cards.as_deref().map_or(0, |c| total(c).0),
            cards: dealer_cards.unwrap_or_default(),
            hole_down: deal.is_some_and(|d| d.hole.is_some() && !d.hole_turned),
        },
        turn: match state.stage() {
            Stage::Playing(s, h) => Some((s, h)),
            _ => None,
        },
        pot: state.ledger.balance(Account::Pot),
        shoe: deal.map_or(0, |d| d.shoe.len()),
        tray: deal.map(|d| d.tray.clone()).unwrap_or_default(),
    }
}

/// Whether `viewer` may not see `seat`'s face-down cards: everyone but their owner and the
/// record, which shows the hole card too.
fn kept_from(deal: &Deal, seat: Seat, viewer: Viewer) -> bool {
    deal.down[seat] && viewer != Viewer::Record && viewer.seat_at(deal.players()) != Some(seat)
}

fn hands_seen(deal: &Deal, viewer: Viewer) -> Vec<Vec<HandView>> {
    let seen = |seat: Seat, h: usize, hand: &Hand| HandView {
        cards: (hand.cards.iter().enumerate())
            .map(|(i, &c)| (h > 0 || i >= deal.hidden(seat).len() || !kept_from(deal, seat, viewer)).then_some(c))
            .collect(),
        stake: hand.stake,
        doubled: hand.doubled,
        split: hand.split,
        stood: hand.stood,
        bust: hand.bust,
    };
    (deal.hands.iter().enumerate())
        .map(|(seat, hands)| hands.iter().enumerate().map(|(h, hand)| seen(seat, h, hand)).collect())
        .collect()
}

fn phase(state: &State) -> Phase {
    match (&state.deals.outcome, &state.deals.deal) {
        (Some(_), _) => Phase::Finished,
        (None, None) => Phase::WaitingForDeal,
        (None, Some(_)) => match state.stage() {
            Stage::Betting => Phase::Betting,
            Stage::Insurance => Phase::Insurance,
            Stage::Over => Phase::DealOver,
            _ => Phase::Playing,
        },
    }
}

/// The state is the event's round's while `deal_over` is false; by its end every face-down card
/// has been shown.
fn redact(state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
    let mut full = serde_json::to_value(event).expect("events always serialize");
    match event {
        Event::RoundStarted { .. } => full["deck"] = Value::Null,
        Event::ShoeRefilled { .. } => full["order"] = Value::Null,
        Event::CardsDealt { hands, .. } if !deal_over => {
            let Some(deal) = &state.deals.deal else { return full };
            for (seat, cards) in hands.iter().enumerate() {
                if seat < deal.players() && kept_from(deal, seat, viewer) {
                    full["hands"][seat] = Value::Array(vec![Value::Null; cards.len()]);
                }
            }
        }
        _ => {}
    }
    full
}

// ---------------------------------------------------------------------------------------------
// The bot

/// The dealer's up card counted for strategy, an ace as 11.
fn up_count(deal: &Deal) -> u8 {
    deal.up.map_or(10, |c| if c.rank() == Some(Rank::ACE) { 11 } else { value(c) })
}

/// Bet the least, never insure, and play as the dealer must: hit to 16, stand on 17.
fn basic_choice(state: &State, seat: Seat) -> Option<Command> {
    let deal = state.deals.live()?;
    match state.stage() {
        Stage::Betting => Some(Command::Bet { amount: deal.options.min_bet }),
        Stage::Insurance => Some(Command::NoInsurance),
        Stage::Playing(s, h) if s == seat => {
            let hit = total(&deal.hands[seat][h].cards).0 < 17 && !deal.shoe.is_empty();
            Some(if hit { Command::Hit } else { Command::Stand })
        }
        _ => None,
    }
}

/// What basic strategy advises for a hand against the up card (dealer stands on soft 17).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Advice {
    Hit,
    Stand,
    Double,
    /// Double where allowed, else stand (soft 18).
    DoubleOrStand,
    Split,
}

fn advice(cards: &[Card], up: u8, may_split: bool) -> Advice {
    let (count, soft) = total(cards);
    if may_split && cards.len() == 2 {
        let pair = value(cards[0]);
        let split = match pair {
            1 | 8 => true,
            9 => !matches!(up, 7 | 10 | 11),
            7 => up <= 7,
            6 => (3..=6).contains(&up),
            2 | 3 => (4..=7).contains(&up),
            _ => false,
        };
        if split {
            return Advice::Split;
        }
    }
    if soft {
        return match count {
            13 | 14 if (5..=6).contains(&up) => Advice::Double,
            15 | 16 if (4..=6).contains(&up) => Advice::Double,
            17 if (3..=6).contains(&up) => Advice::Double,
            18 if (3..=6).contains(&up) => Advice::DoubleOrStand,
            18 if up <= 8 => Advice::Stand,
            19.. => Advice::Stand,
            _ => Advice::Hit,
        };
    }
    match count {
        ..=8 => Advice::Hit,
        9 if (3..=6).contains(&up) => Advice::Double,
        10 if up <= 9 => Advice::Double,
        11 if up <= 10 => Advice::Double,
        9..=11 => Advice::Hit,
        12 if (4..=6).contains(&up) => Advice::Stand,
        13..=16 if up <= 6 => Advice::Stand,
        12..=16 => Advice::Hit,
        _ => Advice::Stand,
    }
}

/// Basic strategy: the least bet, never insurance or even money, and the table's advice on
/// every hand, each move the rules or chips forbid falling back to hitting or standing.
fn strong_choice(state: &State, seat: Seat) -> Option<Command> {
    let deal = state.deals.live()?;
    let Stage::Playing(s, h) = state.stage() else { return basic_choice(state, seat) };
    if s != seat {
        return None;
    }
    let legal = legal_moves(state, seat);
    let hand = &deal.hands[seat][h];
    let allowed = |c: Command| legal.contains(&c).then_some(c);
    let fallback = || {
        let hit = matches!(advice(&hand.cards, up_count(deal), false), Advice::Hit | Advice::Double);
        if hit {
            allowed(Command::Hit).unwrap_or(Command::Stand)
        } else {
            Command::Stand
        }
    };
    let choice = match advice(&hand.cards, up_count(deal), legal.contains(&Command::Split)) {
        Advice::Split => allowed(Command::Split),
        Advice::Double => allowed(Command::Double),
        Advice::DoubleOrStand => allowed(Command::Double).or(Some(Command::Stand)),
        Advice::Hit => allowed(Command::Hit),
        Advice::Stand => Some(Command::Stand),
    };
    Some(choice.unwrap_or_else(fallback))
}

fn legal_moves(state: &State, seat: Seat) -> Vec<Command> {
    let Ok(deal) = state.deals.current() else { return Vec::new() };
    let mut moves = match state.stage() {
        Stage::Betting => {
            (deal.options.min_bet..=deal.options.max_bet).step_by(2).map(|amount| Command::Bet { amount }).collect()
        }
        Stage::Insurance => vec![Command::Insure, Command::EvenMoney, Command::NoInsurance],
        Stage::Playing(..) => vec![Command::Hit, Command::Stand, Command::Double, Command::Split],
        _ => Vec::new(),
    };
    moves.retain(|m| check(state, seat, m).is_ok());
    moves
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Blackjack {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "blackjack";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/blackjack.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options {
                packs: 1,
                ties: Ties::Push,
                double_on: Doubling::Any,
                double_after_split: true,
                resplit: true,
                peek_on_ten: true,
                ..Options::default()
            },
            Options {
                chips: 30,
                rounds: 4,
                packs: 2,
                min_bet: 4,
                max_bet: 30,
                double_on: Doubling::NineToEleven,
                insurance: false,
                ..Options::default()
            },
            Options { packs: 2, resplit: true, face_down: true, ..Options::default() },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_CHIPS).contains(&options.chips) {
            return Err(SetupError(format!("chips must be 1 to {MAX_CHIPS}, not {}", options.chips)));
        }
        if !(1..=100).contains(&options.rounds) {
            return Err(SetupError(format!("rounds must be 1 to 100, not {}", options.rounds)));
        }
        if !(1..=8).contains(&options.packs) {
            return Err(SetupError(format!("packs must be 1 to 8, not {}", options.packs)));
        }
        for (name, bet) in [("min_bet", options.min_bet), ("max_bet", options.max_bet)] {
            if !(2..=MAX_CHIPS).contains(&bet) || bet % 2 != 0 {
                return Err(SetupError(format!("{name} must be an even number from 2 to {MAX_CHIPS}, not {bet}")));
            }
        }
        if options.max_bet < options.min_bet {
            return Err(SetupError("max_bet must be at least min_bet".into()));
        }
        Ok(State { options, players, ledger: Ledger::new(), deals: Deals::new(players), refills: 0 })
    }

    fn status(&self, state: &State) -> Status {
        if let Some(outcome) = &state.deals.outcome {
            return Status::Finished { outcome: outcome.clone() };
        }
        if let Some(cards) = state.refill_due() {
            return Status::NeedsShuffle { cards };
        }
        if state.deals.live().is_none() {
            return Status::NeedsDeck { composition: state.options.shoe() };
        }
        let deal = state.deals.live().expect("live");
        let stacks = state.stacks();
        let seats = match state.stage() {
            Stage::Betting => (0..state.players).filter(|&s| deal.in_round[s] && deal.bets[s].is_none()).collect(),
            Stage::Insurance => (0..state.players).filter(|&s| deal.in_round[s] && deal.asked(s, stacks[s])).collect(),
            Stage::Playing(s, _) => vec![s],
            _ => Vec::new(),
        };
        Status::ToAct { seats }
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals.number
    }

    fn shuffles(&self, state: &State) -> u32 {
        state.deals.number + state.refills
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(run(state, vec![round_started(state, deck)]))
    }

    fn reshuffle(&self, state: &State, order: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let Some(cards) = state.refill_due() else {
            return Err(RuleViolation::wrong_phase("skon behöver inte fyllas", "the shoe needs no refill"));
        };
        if !is_permutation(&order, &cards) {
            return Err(RuleViolation::new(
                core::DECK,
                format!("Ordningen måste bestå av exakt de {} kort dealern tagit in.", cards.len()),
                format!("The order must hold exactly the {} cards the dealer took in.", cards.len()),
            ));
        }
        Ok(run(state, vec![Event::ShoeRefilled { order }]))
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        legal_moves(state, seat)
    }

    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        let mut moves = vec![
            Command::Insure,
            Command::EvenMoney,
            Command::NoInsurance,
            Command::Hit,
            Command::Stand,
            Command::Double,
            Command::Split,
        ];
        moves.extend((0..=state.options.max_bet + 2).map(|amount| Command::Bet { amount }));
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        redact(state, event, viewer, deal_over)
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deals.deal else { return Vec::new() };
        let hole = deal.hole.filter(|_| !deal.hole_turned);
        let mut secrets: Vec<(Card, Vec<Seat>)> =
            deal.shoe.iter().copied().chain(hole).map(|c| (c, Vec::new())).collect();
        for seat in 0..deal.players() {
            secrets.extend(deal.hidden(seat).iter().map(|&c| (c, vec![seat])));
        }
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        state.ledger.check()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let shoe = deal.options.shoe();
        deals::check_deck(&deal.deck, &shoe)?;
        let mut all: Vec<Card> = deal.hands.iter().flatten().flat_map(|h| h.cards.clone()).collect();
        all.extend(deal.up);
        all.extend(deal.hole);
        all.extend(&deal.drawn);
        all.extend(&deal.shoe);
        all.extend(&deal.tray);
        crate::ensure!(is_permutation(&all, &shoe), "hands, dealer, shoe and tray are not the shoe's packs");
        for seat in (0..state.players).filter(|&s| deal.down[s]) {
            let hands = &deal.hands[seat];
            crate::ensure!(
                deal.options.face_down && hands.len() == 1 && hands[0].cards.len() >= 2 && !hands[0].split,
                "seat {seat} has cards face down but no unsplit hand to hold them"
            );
            // A split, a bust and the settling each show them first.
            crate::ensure!(
                !hands[0].bust && !deal.scored,
                "seat {seat}'s cards are face down after they were due shown"
            );
        }
        let lost: i64 = deal.hands.iter().flatten().filter(|h| h.bust).map(|h| h.stake).sum();
        let stakes = (0..state.players).map(|s| deal_put_in(deal, s)).sum::<i64>() - lost;
        let pot = state.ledger.balance(Account::Pot);
        crate::ensure!(deal.scored || pot == stakes, "the pot holds {pot}, the stakes on the table {stakes}");
        crate::ensure!(!deal.scored || pot == 0, "the pot holds {pot} after the round");
        let scores: Vec<i64> = state.ledger.seats(state.players);
        crate::ensure!(
            deal.scored || (0..state.players).all(|s| scores[s] + deal_put_in(deal, s) == state.deals.scores[s]),
            "the balances and stakes do not make the scores"
        );
        crate::ensure!((0..state.players).all(|s| state.stack(s) >= 0), "a stack below zero");
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic_choice(state, seat)
    }

    /// Basic strategy decides alone: the hand and the up card are all it reads, and a search
    /// over the shoe could only add noise to a table worked out over every shoe.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        strong_choice(state, seat).into_iter().collect()
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bots::lead_over_mean(state.players, |s| state.stack(s) as f64, seat)
    }
}

/// What the seat has bet this round, lost or not.
fn deal_put_in(deal: &Deal, seat: Seat) -> i64 {
    match deal.hands[seat].is_empty() {
        true => deal.bets[seat].unwrap_or(0),
        false => deal.hands[seat].iter().map(|h| h.stake).sum::<i64>() + deal.insured[seat],
    }
}

#[cfg(test)]
mod tests;
