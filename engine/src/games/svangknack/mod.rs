//! Svängknack: three cards each, three tricks, and a pot that grows.
//!
//! Before every deal forehand and the two players on forehand's left each stake into the pot.
//! A deal whose pot was empty before the stakes is forced ("tvång"): the dealer turns the
//! talon's top card for trumps and everyone plays. Otherwise forehand, then the next player,
//! may swing; the swinger picks trumps from two turned cards, the others join or throw in,
//! those in buy once from the talon, and three tricks are played. The second trick is special:
//! a player without trumps plays a card face down ("blanks"), and that card's identity stays
//! hidden from everyone else for ever. Every trick takes a third of the pot; whoever was in
//! and took no trick pays the pot's size into the next pot.
//!
//! The match runs for a number of rounds (each seat deals once per round) and then on until
//! the pot goes out, so that it ends with every chip back with the players.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bots;
use crate::cards::{decks, is_permutation, rank_value, sort_hand, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase};
use crate::game::{Rules, SetupError, Viewer};
use crate::ledger::{Account, Ledger, Payment};
use crate::random::Rng;
use crate::rules::{RuleViolation, Text};
use crate::seat::{match_winners, seats_text, Seat, Table as Seating};
use crate::trick::{self, Play, Trick, WinReason};

mod bot;
#[cfg(test)]
mod tests;
mod view;
pub use view::{BuyCall, CurrentTrick, JoinCall, SeatCards, SwingCall, Table, TablePhase, TrickSeen};

#[derive(Default)]
pub struct Svangknack;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 12;
/// Cards per hand, and so tricks per deal.
pub const HAND: usize = 3;
/// The text's pack runs from the six up.
pub const TEXT_LOWEST_RANK: u8 = 6;
/// Guards against a typo turning a friendly game into an overflow: no rule names a limit.
pub const MAX_STAKE: i64 = 1_000_000;
pub const MAX_ROUNDS: u32 = 100;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PACK: &str = "svangknack.pack.cards";
    pub const LOW_CARDS: &str = "svangknack.pack.low-cards";
    pub const RANKING: &str = "svangknack.pack.ranking";

    pub const BASE_STAKE: &str = "svangknack.stakes.base-stake";
    pub const THREE_STAKES: &str = "svangknack.stakes.three-stakes";

    pub const DEALER: &str = "svangknack.deal.dealer";
    pub const THREE_EACH: &str = "svangknack.deal.three-each";
    pub const TALON: &str = "svangknack.deal.talon";

    pub const FORCED_ALL_PLAY: &str = "svangknack.forced.all-play";
    pub const FORCED_NO_BUYING: &str = "svangknack.forced.no-buying";

    pub const CHOOSE_TRUMPS: &str = "svangknack.swing.choose-trumps";

    pub const JOIN_ORDER: &str = "svangknack.join.order";
    pub const FOLD: &str = "svangknack.join.fold";
    pub const FORCED_JOIN: &str = "svangknack.join.forced";

    pub const BUY_ORDER: &str = "svangknack.buy.order";
    pub const EXCHANGE: &str = "svangknack.buy.exchange";

    pub const FIRST_LEAD: &str = "svangknack.play.first-lead";
    pub const FOLLOW_SUIT: &str = "svangknack.play.follow-suit";
    pub const TRICK_WINNER: &str = "svangknack.play.trick-winner";
    pub const WINNER_LEADS: &str = "svangknack.play.winner-leads";
    pub const TRUMP_LEAD: &str = "svangknack.play.trump-lead";
    pub const BLANK_LEAD: &str = "svangknack.play.blank-lead";
    pub const BLANK_FOLLOW: &str = "svangknack.play.blank-follow";
    pub const FACE_UP: &str = "svangknack.play.face-up";

    pub const SHARE: &str = "svangknack.pay.share";
    pub const FORFEIT: &str = "svangknack.pay.forfeit";
    pub const NEXT_POT: &str = "svangknack.pay.next-pot";
    pub const RIVET: &str = "svangknack.pay.rivet";

    pub const FIRST_DEALER: &str = "svangknack.house.first-dealer";
    pub const ONE_AT_A_TIME: &str = "svangknack.house.one-at-a-time";
    pub const AUTO_PACK: &str = "svangknack.house.auto-pack";
    pub const TALON_OUT: &str = "svangknack.house.talon-out";
    pub const INDIVISIBLE: &str = "svangknack.house.indivisible-pot";
    pub const MATCH_END: &str = "svangknack.house.match-end";
    pub const WINNERS: &str = "svangknack.house.winners";
    pub const RECORD: &str = "svangknack.house.record";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The base stake ("grundinsats") each of the three stakers puts in before every deal.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000000))]
    pub stake: i64,
    /// The lowest rank in the pack (2 to 6, and 2 to 5 with twelve players, for the pack to hold
    /// the deal); `null` lets the player count decide.
    #[serde(alias = "lowest-rank")]
    #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 6))]
    pub lowest_rank: Option<u8>,
    /// How many times each seat deals before the match may end (it then ends when the pot
    /// goes out).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub rounds: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options { stake: 1, lowest_rank: None, rounds: 1 }
    }
}

pub fn pack_size(lowest_rank: u8) -> usize {
    4 * (15 - lowest_rank as usize)
}

/// Cards a pack must hold so that every seat can be dealt and the swinger still has two
/// cards to choose trumps from.
pub fn cards_for_the_deal(players: usize) -> usize {
    HAND * players + 2
}

/// Cards that also let every seat exchange its whole hand.
pub fn cards_for_every_purchase(players: usize) -> usize {
    cards_for_the_deal(players) + HAND * players
}

/// The default pack: the text's 36 cards up to six players; above that whole ranks are added
/// from the five down until every seat could exchange all three cards, or the pack is whole.
pub fn auto_lowest_rank(players: usize) -> u8 {
    if players <= 6 {
        return TEXT_LOWEST_RANK;
    }
    (2..=TEXT_LOWEST_RANK).rev().find(|&r| pack_size(r) >= cards_for_every_purchase(players)).unwrap_or(2)
}

pub fn lowest_rank_for(players: usize, options: &Options) -> u8 {
    options.lowest_rank.unwrap_or_else(|| auto_lowest_rank(players))
}

pub fn pack(lowest_rank: u8) -> Vec<Card> {
    decks::from_rank(Rank::new(lowest_rank).expect("lowest ranks are checked at setup"))
}

// ---------------------------------------------------------------------------------------------
// State

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Forehand, then the next player, may swing.
    Swinging,
    /// The swinger picks trumps from two suits.
    ChoosingTrumps,
    /// The others say whether they join, from the swinger's left.
    Joining,
    Buying,
    Playing,
    /// Settled or passed out; the next deal (or nothing) follows.
    Over,
}

/// How one seat's turn in the buying round went.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "count")]
pub enum BuyTurn {
    /// Exchanged this many cards with the talon.
    Bought(usize),
    /// Kept the hand ("nöjd").
    Stood,
    /// The talon was empty when this seat's turn came.
    Skipped,
}

/// How a deal's pot was shared after the third trick, and what was paid into the next one.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Settlement {
    /// The pot before it was shared.
    pub pot_before: i64,
    /// Shares first, then what those without a trick paid in, each with its rule.
    pub payments: Vec<Payment>,
    /// The seat that took all three tricks ("rivet"); null when nobody did.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub rivet: Option<Seat>,
    /// Everyone in took a trick, so nothing was paid in and the next pot starts empty.
    pub pot_went_out: bool,
    /// The pot the next deal inherits.
    pub pot: i64,
}

#[derive(Clone, Debug)]
pub struct Deal {
    pub number: u32,
    pub dealer: Seat,
    pub forehand: Seat,
    pub forced: bool,
    pub deck: Vec<Card>,
    /// The hands as dealt: the record shows them, and a masked record each seat its own.
    pub dealt: Vec<Vec<Card>>,
    pub talon: Vec<Card>,
    /// Face up beside the talon: the forced deal's trump card or the swinger's two cards.
    pub turned: Vec<Card>,
    pub trumps: Option<Suit>,
    pub phase: Phase,
    pub swing_calls: Vec<(Seat, bool)>,
    pub swinger: Option<Seat>,
    pub join_order: Vec<Seat>,
    pub join_calls: Vec<(Seat, bool)>,
    /// The hands thrown in; their seats sit the play out.
    pub folded: Vec<Vec<Card>>,
    pub buy_order: Vec<Seat>,
    pub buys: Vec<(Seat, BuyTurn)>,
    pub discards: Vec<Vec<Card>>,
    pub drawn: Vec<Vec<Card>>,
    /// The hands and the tricks. A blanked lead never trumped is booked as the trump it counts
    /// as, won by the blanked card itself, which only this game's views and events hide.
    pub play: trick::TrickPlay,
    /// The cards played face down, in the order played: the trick component knows them only as
    /// cards, and this game alone hides them and makes them worthless.
    pub blanked: Vec<Play>,
    pub opening_balances: Vec<i64>,
    pub opening_pot: i64,
    /// Every payment since the deal started: stakes, then the settlement.
    pub payments: Vec<Payment>,
    pub settlement: Option<Settlement>,
}

impl deals::Deal for Deal {
    type Phase = TablePhase;

    fn to_act(&self) -> Vec<Seat> {
        let seat = match self.phase {
            Phase::Swinging => self.next_swing_speaker(),
            Phase::ChoosingTrumps => self.swinger,
            Phase::Joining => self.join_order.get(self.join_calls.len()).copied(),
            Phase::Buying => self.buy_order.get(self.buys.len()).copied(),
            Phase::Playing => Some(self.play.to_play()),
            Phase::Over => None,
        };
        seat.into_iter().collect()
    }

    fn is_live(&self) -> bool {
        self.phase != Phase::Over
    }

    fn phase(&self) -> TablePhase {
        match self.phase {
            Phase::Swinging => TablePhase::Swinging,
            Phase::ChoosingTrumps => TablePhase::ChoosingTrumps,
            Phase::Joining => TablePhase::Joining,
            Phase::Buying => TablePhase::Buying,
            Phase::Playing => TablePhase::Playing,
            Phase::Over => TablePhase::DealOver,
        }
    }
}

impl Deal {
    fn players(&self) -> usize {
        self.play.table.seats
    }

    fn is_blanked(&self, card: Card) -> bool {
        self.blanked.iter().any(|p| p.card == card)
    }

    /// Playing for the pot: everyone in a forced deal, else the swinger and those who joined.
    fn is_in(&self, seat: Seat) -> bool {
        self.forced || self.swinger == Some(seat) || self.join_calls.contains(&(seat, true))
    }

    fn in_seats(&self) -> Vec<Seat> {
        (0..self.players()).filter(|&s| self.is_in(s)).collect()
    }

    /// The player who may swing now.
    fn next_swing_speaker(&self) -> Option<Seat> {
        match self.swing_calls.len() {
            0 => Some(self.forehand),
            1 if !self.swing_calls[0].1 => Some(self.play.table.next(self.forehand)),
            _ => None,
        }
    }

    /// Everyone else passed and only the last speaker is left: the swinger may not take
    /// the pot without play.
    fn join_is_forced(&self) -> bool {
        self.join_calls.len() + 1 == self.join_order.len() && self.join_calls.iter().all(|&(_, joined)| !joined)
    }

    fn balances_rebuilt(&self) -> Ledger {
        let mut ledger = opening_ledger(&self.opening_balances);
        self.payments.iter().for_each(|p| ledger.pay(p));
        ledger
    }
}

/// What the record of a deal with a blanked card may show: cards that were face up at the
/// table, and to a seat the cards it held itself. Anything more would let the blanked card
/// be found by elimination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMask {
    pub public: Vec<Card>,
    pub known: Vec<Vec<Card>>,
}

impl RecordMask {
    fn of(deal: &Deal) -> RecordMask {
        let face_up = deal.play.played().map(|(_, c)| c).filter(|&c| !deal.is_blanked(c));
        RecordMask {
            public: deal.turned.iter().copied().chain(face_up).collect(),
            known: (0..deal.players()).map(|s| deal.dealt[s].iter().chain(&deal.drawn[s]).copied().collect()).collect(),
        }
    }

    fn shows(&self, card: Card, viewer: Viewer) -> bool {
        self.public.contains(&card)
            || matches!(viewer, Viewer::Seat(s) if self.known.get(s).is_some_and(|k| k.contains(&card)))
    }
}

#[derive(Clone, Debug)]
pub struct State {
    pub table: Seating,
    pub options: Options,
    pub lowest_rank: u8,
    /// The match of deals. It keeps no scores: what the players won is in `ledger`.
    pub deals: Deals<Deal>,
    pub ledger: Ledger,
    /// Masks of finished deals that had a blanked card, so their records stay masked later.
    pub masks: BTreeMap<u32, RecordMask>,
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

    fn pack(&self) -> Vec<Card> {
        pack(self.lowest_rank)
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Knock to play for the pot and choose trumps (forehand, then the next player).
    Swing,
    /// Decline to swing, or, after the swing, decline to join and throw in the hand.
    Pass,
    /// The swinger picks trumps from the suits of the two turned cards.
    ChooseTrumps { suit: Suit },
    /// Knock to play along with the swinger.
    Join,
    /// Put these cards away and draw as many from the talon.
    Buy { discard: Vec<Card> },
    /// Keep the hand ("nöjd").
    Stand,
    /// Play a card face up.
    Play { card: Card },
    /// Play a card face down (second trick only).
    Blank { card: Card },
}

/// Why a trick went to its winner.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Won {
    /// The highest card of the suit led, no trump being played.
    HighestOfSuitLed,
    /// The highest trump played.
    HighestTrump,
    /// The second trick was led face down and nobody played a trump.
    BlankedLead,
}

/// One card in a trick. A blanked card (played face down) has no identity in the events and the
/// record; only its owner's view of the table shows it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrickPlay {
    /// The seat that played it.
    pub seat: Seat,
    /// The card; null for a card played face down (blanked), which only its owner's view of the
    /// table shows.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub card: Option<Card>,
    /// Played face down, to the second trick.
    pub blanked: bool,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        /// Deals in the scheduled rounds; the match goes on past them until the pot is out.
        deals_scheduled: u32,
        dealer: Seat,
        forehand: Seat,
        /// The pot was empty before the stakes: a forced deal.
        forced: bool,
        lowest_rank: u8,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's three cards, sorted by suit and rank.
        hands: Vec<Vec<Card>>,
        /// The cards left after dealing, top first.
        talon: Vec<Card>,
        /// The pot before this deal's stakes.
        pot: i64,
        /// Seat balances before this deal's stakes.
        balances: Vec<i64>,
        options: Options,
    },
    StakesPaid {
        payments: Vec<Payment>,
        pot: i64,
    },
    /// Forced deal: the dealer turned the talon's top card, and its suit is trumps.
    TrumpCardTurned {
        card: Card,
        trumps: Suit,
    },
    SwingPassed {
        seat: Seat,
    },
    /// Both players who could swing passed: the deal ends and the pot stays.
    NobodySwung {
        pot: i64,
    },
    Swung {
        seat: Seat,
    },
    /// The dealer turned the talon's two top cards for the swinger to choose trumps from.
    CardsTurned {
        cards: Vec<Card>,
    },
    TrumpsChosen {
        seat: Seat,
        suit: Suit,
        /// Both turned cards had this suit, so there was no choice.
        automatic: bool,
    },
    Joined {
        seat: Seat,
        /// The last to speak had to join because everyone else had passed.
        forced: bool,
    },
    /// A player declined to join and threw in these cards face down.
    Folded {
        deal_number: u32,
        seat: Seat,
        cards: Vec<Card>,
    },
    Bought {
        deal_number: u32,
        seat: Seat,
        /// How many cards were exchanged: public, unlike the cards themselves.
        count: usize,
        discarded: Vec<Card>,
        drawn: Vec<Card>,
    },
    Stood {
        seat: Seat,
    },
    /// The talon is empty: these players in the buying order could not buy.
    TalonRanOut {
        skipped: Vec<Seat>,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
    },
    /// A card played face down to the second trick; only its owner ever learns which.
    CardBlanked {
        deal_number: u32,
        seat: Seat,
        card: Card,
    },
    TrickWon {
        /// 1 for the first trick of the deal.
        trick_number: usize,
        winner: Seat,
        /// The winning card; `null` when a blanked lead won.
        card: Option<Card>,
        reason: Won,
        plays: Vec<TrickPlay>,
    },
    DealSettled {
        deal_number: u32,
        /// The seats that played for the pot.
        in_play: Vec<Seat>,
        tricks_taken: Vec<u32>,
        /// The pot before it was shared.
        pot_before: i64,
        /// Shares first, then what those without a trick paid in, each with its rule.
        payments: Vec<Payment>,
        /// The seat that took all three tricks ("rivet").
        rivet: Option<Seat>,
        /// Everyone in took a trick, so nothing was paid in and the next pot starts empty.
        pot_went_out: bool,
        /// The pot the next deal inherits.
        pot: i64,
        balances: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        balances: Vec<i64>,
    },
}

impl Event {
    /// The deal an event with hidden cards belongs to (the others show only public facts).
    fn deal_number(&self) -> Option<u32> {
        match self {
            Event::DealStarted { deal_number, .. }
            | Event::Folded { deal_number, .. }
            | Event::Bought { deal_number, .. }
            | Event::CardBlanked { deal_number, .. } => Some(*deal_number),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rules that are pure functions, kept apart so tests can reach them directly

fn opening_ledger(balances: &[i64]) -> Ledger {
    let mut ledger = Ledger::new();
    let mut put = |from: Account, to: Account, amount: i64| {
        if amount != 0 {
            ledger.pay(&Payment::new(
                from,
                to,
                amount,
                rule::NEXT_POT,
                "Saldo från tidigare givar.".into(),
                "Balance from earlier deals.".into(),
            ));
        }
    };
    // Every chip a seat is up came out of the pot and every chip it is down went in, so the
    // pot is what the seats are down between them.
    for (s, &b) in balances.iter().enumerate() {
        put(Account::Pot, Account::Seat(s), b);
    }
    ledger
}

/// The trick's winner, with the cards `blanked` says were played face down: a blanked lead
/// counts as a trump below the lowest (and wins as one if nobody trumps), and a blanked card
/// played to a started trick is worth nothing.
pub fn trick_winner(trick: &Trick, trumps: Suit, blanked: impl Fn(Card) -> bool) -> (Seat, Card, WinReason) {
    let face_up = || trick.plays.iter().copied().filter(|&(_, c)| !blanked(c));
    if let Some((seat, card)) = face_up().filter(|(_, c)| c.is_suit(trumps)).max_by_key(|&(_, c)| rank_value(c)) {
        return (seat, card, WinReason::HighestTrump);
    }
    let (leader, lead) = *trick.plays.first().expect("a trick is won only once cards are in it");
    if blanked(lead) {
        return (leader, lead, WinReason::HighestTrump);
    }
    let (seat, card) = face_up()
        .filter(|(_, c)| c.suit() == lead.suit())
        .max_by_key(|&(_, c)| rank_value(c))
        .expect("the lead is of the suit led");
    (seat, card, WinReason::HighestOfSuitLed)
}

/// A trick's winning card and why, as the events and views tell them: a blanked lead wins as
/// no card, for a reason of its own.
pub fn shown_win(card: Card, reason: WinReason, blanked: bool) -> (Option<Card>, Won) {
    match (blanked, reason) {
        (true, _) => (None, Won::BlankedLead),
        (false, WinReason::HighestTrump) => (Some(card), Won::HighestTrump),
        _ => (Some(card), Won::HighestOfSuitLed),
    }
}

/// One card of a trick as the events (`shown` false) or a viewer show it: a blanked card only
/// to whom `shown` names.
fn seen(seat: Seat, card: Card, blanked: bool, shown: bool) -> TrickPlay {
    TrickPlay { seat, card: (!blanked || shown).then_some(card), blanked }
}

/// Cards `hand` may play now: (face up, face down).
pub fn playable(hand: &[Card], trick_number: usize, trick: &Trick, trumps: Suit) -> (Vec<Card>, Vec<Card>) {
    if trick_number != 2 {
        return (trick::distinct(trick::follow_suit(hand, trick)), Vec::new());
    }
    let held: Vec<Card> = hand.iter().copied().filter(|c| c.is_suit(trumps)).collect();
    if held.is_empty() {
        (Vec::new(), trick::distinct(hand.to_vec()))
    } else {
        (trick::distinct(held), Vec::new())
    }
}

/// Shares and payments for a played deal. Each trick wins a third of the pot (whole chips;
/// what does not divide stays), a seat with all three tricks takes the whole pot, and every
/// seat in without a trick pays what the pot held before it was shared.
pub fn settle(pot: i64, in_play: &[Seat], tricks_taken: &[u32]) -> Settlement {
    let third = pot / 3;
    let mut payments = Vec::new();
    let mut left = pot;
    let rivet = in_play.iter().copied().find(|&s| tricks_taken[s] as usize == HAND);
    for &s in in_play {
        let t = tricks_taken[s];
        if t == 0 {
            continue;
        }
        let amount = if rivet == Some(s) { pot } else { third * t as i64 };
        left -= amount;
        payments.push(if rivet == Some(s) {
            Payment::new(
                Account::Pot,
                Account::Seat(s),
                amount,
                rule::RIVET,
                format!("Plats {s} tog alla tre sticken, rivet, och får hela potten: {amount}."),
                format!("Seat {s} took all three tricks, \"rivet\", and gets the whole pot: {amount}."),
            )
        } else {
            Payment::new(
                Account::Pot,
                Account::Seat(s),
                amount,
                rule::SHARE,
                format!(
                    "Plats {s} tog {t} stick och får {t} tredjedel{} av potten på {pot}: {amount}.",
                    if t == 1 { "" } else { "ar" }
                ),
                format!(
                    "Seat {s} took {t} trick{} and gets {t} third{} of the pot of {pot}: {amount}.",
                    plural(t),
                    plural(t)
                ),
            )
        });
    }
    let mut forfeits = 0;
    for &s in in_play {
        if tricks_taken[s] == 0 {
            forfeits += 1;
            payments.push(Payment::new(
                Account::Seat(s),
                Account::Pot,
                pot,
                rule::FORFEIT,
                format!("Plats {s} var med men tog inget stick och betalar in så mycket som potten höll före delningen: {pot}."),
                format!("Seat {s} was in but took no trick and pays in what the pot held before it was shared: {pot}."),
            ));
        }
    }
    let next = left + forfeits * pot;
    Settlement { pot_before: pot, payments, rivet, pot_went_out: forfeits == 0 && next == 0, pot: next }
}

/// Who won the match, and with how much.
fn match_won(winners: &[Seat], balances: &[i64]) -> Text {
    let who = seats_text(winners);
    let best = winners.first().map_or(0, |&s| balances[s]);
    if winners.len() == 1 {
        Text::new(format!("Plats {who} vann partiet med {best:+}."), format!("Seat {who} won the match with {best:+}."))
    } else {
        Text::new(
            format!("Platserna {who} delar segern med {best:+} var."),
            format!("Seats {who} share the win with {best:+} each."),
        )
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn forced_deal_refusal(what_sv: &str, what_en: &str) -> RuleViolation {
    RuleViolation::new(
        rule::FORCED_ALL_PLAY,
        format!("Given spelas med tvång: alla är med och ingen svänger eller passar, så du kan inte {what_sv}."),
        format!("This is a forced deal: everyone plays and nobody swings or passes, so you cannot {what_en}."),
    )
}

impl Svangknack {
    // The turn guard (`game::check_turn`) let only the seat to act through: forehand or the
    // next player here, the swinger choosing trumps, the next to join, buy or play below.
    fn decide_swing_round(&self, state: &State, deal: &Deal, seat: Seat, swing: bool) -> Vec<Event> {
        if !swing {
            let mut events = vec![Event::SwingPassed { seat }];
            if deal.swing_calls.len() == 1 {
                events.push(Event::NobodySwung { pot: state.pot() });
            }
            return events;
        }
        let cards = deal.talon[..2].to_vec();
        let mut events = vec![Event::Swung { seat }, Event::CardsTurned { cards: cards.clone() }];
        if cards[0].suit() == cards[1].suit() {
            let suit = cards[0].suit().expect("a suited pack");
            events.push(Event::TrumpsChosen { seat, suit, automatic: true });
        }
        events
    }

    fn decide_trumps(&self, deal: &Deal, seat: Seat, suit: Suit) -> Result<Vec<Event>, RuleViolation> {
        if !deal.turned.iter().any(|c| c.is_suit(suit)) {
            let shown = deal.turned.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" och ");
            let shown_en = deal.turned.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" and ");
            return Err(RuleViolation::new(
                rule::CHOOSE_TRUMPS,
                format!(
                    "Du valde {} som trumf, men trumf väljs bland färgerna på de uppslagna korten {shown}.",
                    suit.name_sv()
                ),
                format!(
                    "You chose {} as trumps, but trumps are chosen from the suits of the turned cards {shown_en}.",
                    suit.name_en()
                ),
            ));
        }
        Ok(vec![Event::TrumpsChosen { seat, suit, automatic: false }])
    }

    fn decide_join(&self, deal: &Deal, seat: Seat, join: bool) -> Result<Vec<Event>, RuleViolation> {
        let forced = deal.join_is_forced();
        let first = if join {
            Event::Joined { seat, forced }
        } else if forced {
            let swinger = deal.swinger.unwrap_or(seat);
            return Err(RuleViolation::new(
                rule::FORCED_JOIN,
                format!("Alla andra har passat, så du måste knacka: plats {swinger} svängde och får aldrig vinna potten utan spel."),
                format!("Everyone else has passed, so you must knock: seat {swinger} swung and may never take the pot without play."),
            ));
        } else {
            Event::Folded { deal_number: deal.number, seat, cards: deal.play.hands[seat].clone() }
        };
        let mut events = vec![first];
        if deal.join_calls.len() + 1 == deal.join_order.len() && deal.talon.is_empty() {
            // Nothing to buy from: the buying round is over before it begins. Only a pack exactly
            // as large as the deal and the turned cards does this (none of whole ranks for up to
            // twelve players), but a deal replayed from elsewhere must not stall.
            let swinger = deal.swinger.unwrap_or(seat);
            let order = deal.play.table.order_from(swinger);
            let skipped = order.into_iter().filter(|&s| if s == seat { join } else { deal.is_in(s) }).collect();
            events.push(Event::TalonRanOut { skipped });
        }
        Ok(events)
    }

    fn decide_buy(&self, deal: &Deal, seat: Seat, discard: Option<&[Card]>) -> Result<Vec<Event>, RuleViolation> {
        let Some(discard) = discard else {
            return Ok(self.after_buy(deal, Event::Stood { seat }, 0));
        };
        if discard.is_empty() {
            return Err(RuleViolation::new(
                rule::EXCHANGE,
                "Du köpte utan att lägga bort något kort; den som vill behålla sin hand säger sig vara nöjd.",
                "You bought without putting any card away; a player who keeps the hand stands instead.",
            ));
        }
        if let Some(&c) = discard.iter().find(|c| !deal.play.hands[seat].contains(c)) {
            return Err(RuleViolation::card_not_held(c));
        }
        if let Some(&c) = discard.iter().enumerate().find(|(i, c)| discard[..*i].contains(c)).map(|(_, c)| c) {
            return Err(RuleViolation::new(
                rule::EXCHANGE,
                format!("Du lade bort {c} två gånger; varje kort läggs bort en gång."),
                format!("You put {c} away twice; each card is put away once."),
            ));
        }
        let k = discard.len();
        if k > deal.talon.len() {
            let left = deal.talon.len();
            return Err(RuleViolation::new(
                rule::TALON_OUT,
                format!("Du ville byta {k} kort men talongen har bara {left} kvar; du kan byta högst {left}."),
                format!("You wanted to exchange {k} cards but the talon holds only {left}; you may exchange at most {left}."),
            ));
        }
        let mut discarded = discard.to_vec();
        sort_hand(&mut discarded);
        let event =
            Event::Bought { deal_number: deal.number, seat, count: k, discarded, drawn: deal.talon[..k].to_vec() };
        Ok(self.after_buy(deal, event, k))
    }

    /// The buying event, and the note that the talon ran out if it did with buyers waiting.
    fn after_buy(&self, deal: &Deal, event: Event, drawn: usize) -> Vec<Event> {
        let mut events = vec![event];
        let waiting: Vec<Seat> = deal.buy_order[deal.buys.len() + 1..].to_vec();
        if deal.talon.len() == drawn && !waiting.is_empty() {
            events.push(Event::TalonRanOut { skipped: waiting });
        }
        events
    }

    fn decide_card(
        &self,
        state: &State,
        deal: &Deal,
        seat: Seat,
        card: Card,
        blank: bool,
    ) -> Result<Vec<Event>, RuleViolation> {
        deal.play.check_held(seat, card)?;
        let trumps = deal.trumps.ok_or_else(|| {
            RuleViolation::wrong_phase("trumfkortet är inte vänt än", "the trump card has not been turned yet")
        })?;
        let number = deal.play.number();
        let (face_up, face_down) = playable(&deal.play.hands[seat], number, &deal.play.trick, trumps);
        let allowed = if blank { face_down.contains(&card) } else { face_up.contains(&card) };
        if !allowed {
            return Err(self.card_refusal(deal, seat, card, blank, trumps));
        }
        let mut events = vec![if blank {
            Event::CardBlanked { deal_number: deal.number, seat, card }
        } else {
            Event::CardPlayed { seat, card }
        }];
        let blanked = |c: Card| deal.is_blanked(c) || (blank && c == card);
        let Some(done) = deal.play.completed_by(seat, card, &|t| trick_winner(t, trumps, blanked)) else {
            return Ok(events);
        };
        let (winning, reason) = shown_win(done.card, done.reason, blanked(done.card));
        events.push(Event::TrickWon {
            trick_number: done.number,
            winner: done.winner,
            card: winning,
            reason,
            plays: done.plays.iter().map(|p| seen(p.seat, p.card, blanked(p.card), false)).collect(),
        });
        if !done.last {
            return Ok(events);
        }
        let (in_play, tricks_taken) = (deal.in_seats(), done.taken);
        let s = settle(state.pot(), &in_play, &tricks_taken);
        let mut ledger = state.ledger.clone();
        s.payments.iter().for_each(|p| ledger.pay(p));
        let balances = ledger.seats(state.players());
        events.push(Event::DealSettled {
            deal_number: deal.number,
            in_play,
            tricks_taken,
            pot_before: s.pot_before,
            payments: s.payments,
            rivet: s.rivet,
            pot_went_out: s.pot_went_out,
            pot: s.pot,
            balances: balances.clone(),
        });
        if state.deals.number >= state.deals_scheduled() && s.pot == 0 {
            events.push(Event::MatchEnded { winners: match_winners(&balances), balances });
        }
        Ok(events)
    }

    /// Why a card cannot be played now; names only the player's own cards.
    fn card_refusal(&self, deal: &Deal, seat: Seat, card: Card, blank: bool, trumps: Suit) -> RuleViolation {
        let (t_sv, t_en) = (trumps.name_sv(), trumps.name_en());
        let number = deal.play.number();
        if number != 2 {
            if blank {
                return RuleViolation::new(
                    rule::FACE_UP,
                    format!("Du ville blanka {card} i stick {number}, men man blankar bara i andra sticket; spela kortet med framsidan upp."),
                    format!("You wanted to blank {card} in trick {number}, but cards are blanked only in the second trick; play it face up."),
                );
            }
            let led = deal.play.trick.led_suit().expect("only a started trick binds");
            return RuleViolation::new(
                rule::FOLLOW_SUIT,
                format!(
                    "Du lade {card} men har {} på handen; när {} är utspelat måste du bekänna färg.",
                    led.name_sv(),
                    led.name_sv()
                ),
                format!(
                    "You played {card} but hold {}; when {} are led you must follow suit.",
                    led.name_en(),
                    led.name_en()
                ),
            );
        }
        let leads = deal.play.trick.is_empty();
        let has_trump = deal.play.hands[seat].iter().any(|c| c.is_suit(trumps));
        match (leads, has_trump) {
            (true, true) => RuleViolation::new(
                rule::TRUMP_LEAD,
                format!("Du {} {card} men har {t_sv} på handen; den som tog första sticket måste spela ut trumf till det andra.", if blank { "ville blanka" } else { "spelade ut" }),
                format!("You {} {card} but hold {t_en}; the winner of the first trick must lead a trump to the second.", if blank { "wanted to blank" } else { "led" }),
            ),
            (true, false) => RuleViolation::new(
                rule::BLANK_LEAD,
                format!("Du spelade ut {card} med framsidan upp men har ingen {t_sv}; utan trumf måste du blanka, alltså spela ut ett kort med baksidan upp."),
                format!("You led {card} face up but hold no {t_en}; without trumps you must blank, that is lead a card face down."),
            ),
            (false, true) => RuleViolation::new(
                rule::BLANK_FOLLOW,
                format!("Du {} {card} men har {t_sv} på handen; i andra sticket måste man lägga trumf om man kan.", if blank { "ville blanka" } else { "lade" }),
                format!("You {} {card} but hold {t_en}; in the second trick you must play a trump if you can.", if blank { "wanted to blank" } else { "played" }),
            ),
            (false, false) => RuleViolation::new(
                rule::BLANK_FOLLOW,
                format!("Du lade {card} med framsidan upp men har ingen {t_sv}; i andra sticket måste den som inte kan lägga trumf blanka."),
                format!("You played {card} face up but hold no {t_en}; in the second trick a player who cannot play a trump must blank."),
            ),
        }
    }

    fn bot_choice(&self, deal: &Deal, seat: Seat, moves: &[Command], seed: u64) -> Command {
        let hand = &deal.play.hands[seat];
        let roll = seed % 100;
        let count = |suit: Suit| hand.iter().filter(|c| c.is_suit(suit)).count();
        let strength =
            |suit: Suit| hand.iter().filter(|c| c.is_suit(suit)).map(|&c| rank_value(c) as usize).sum::<usize>();
        match deal.phase {
            Phase::Swinging => {
                let good = hand.iter().any(|&c| rank_value(c) >= 13) || Suit::ALL.into_iter().any(|s| count(s) >= 2);
                if (good && roll < 70) || roll < 20 {
                    Command::Swing
                } else {
                    Command::Pass
                }
            }
            Phase::ChoosingTrumps => {
                let suit = deal
                    .turned
                    .iter()
                    .filter_map(|c| c.suit())
                    .max_by_key(|&s| (count(s), strength(s)))
                    .expect("two turned cards");
                Command::ChooseTrumps { suit }
            }
            Phase::Joining => {
                let trumps = deal.trumps.map_or(0, count);
                // Few players in keeps the pot likely to go out, which is how a match ends.
                let alone = deal.in_seats().len() < 2;
                if alone && ((trumps >= 1 && roll < 60) || roll < 10) {
                    Command::Join
                } else {
                    Command::Pass
                }
            }
            Phase::Buying => {
                let keep = |c: &Card| deal.trumps.is_some_and(|t| c.is_suit(t)) || rank_value(*c) == 14;
                let discard: Vec<Card> = hand.iter().copied().filter(|c| !keep(c)).take(deal.talon.len()).collect();
                let buy = Command::Buy { discard };
                if moves.contains(&buy) && roll < 80 {
                    buy
                } else {
                    Command::Stand
                }
            }
            _ => moves[(seed % moves.len() as u64) as usize].clone(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Svangknack {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "svangknack";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("../rulebooks/svangknack.txt");

    /// Another stake and length, and packs of other sizes than the player count gives.
    fn test_option_sets(&self, players: usize) -> Vec<Options> {
        let low = if players <= 11 { 6 } else { 5 };
        let default = Options::default();
        vec![
            default.clone(),
            Options { stake: 5, rounds: 2, ..default.clone() },
            Options { lowest_rank: Some(low), ..default.clone() },
            Options { lowest_rank: Some(2), stake: 2, ..default },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !self.player_counts().contains(&players) {
            return Err(SetupError(format!(
                "svangknack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
            )));
        }
        if !(1..=MAX_STAKE).contains(&options.stake) {
            return Err(SetupError(format!(
                "the stake must be from 1 to {MAX_STAKE}, not {} ({})",
                options.stake,
                rule::BASE_STAKE
            )));
        }
        if !(1..=MAX_ROUNDS).contains(&options.rounds) {
            return Err(SetupError(format!(
                "rounds must be from 1 to {MAX_ROUNDS}, not {} ({})",
                options.rounds,
                rule::MATCH_END
            )));
        }
        let lowest_rank = lowest_rank_for(players, &options);
        if !(2..=TEXT_LOWEST_RANK).contains(&lowest_rank) {
            return Err(SetupError(format!(
                "lowest_rank must be from 2 to 6, not {lowest_rank} ({})",
                rule::LOW_CARDS
            )));
        }
        if pack_size(lowest_rank) < cards_for_the_deal(players) {
            return Err(SetupError(format!(
                "a pack from {lowest_rank} has {} cards, but {players} players need {} (three each and two to turn up) ({})",
                pack_size(lowest_rank),
                cards_for_the_deal(players),
                rule::AUTO_PACK
            )));
        }
        Ok(State {
            table: Seating::new(players),
            options,
            lowest_rank,
            deals: Deals::new(0),
            ledger: Ledger::new(),
            masks: BTreeMap::new(),
        })
    }

    crate::status_of_deals!(|state| state.pack());

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let players = state.players();
        let deal_number = state.deals.number + 1;
        let dealer = state.deals.next_dealer;
        let forehand = state.table.forehand(dealer);
        let mut hands = deals::deal_singly(&state.table, dealer, &deck[..HAND * players]);
        hands.iter_mut().for_each(|h| sort_hand(h));
        let talon = deck[HAND * players..].to_vec();
        let pot = state.pot();
        let forced = pot == 0;
        let stake = state.options.stake;
        let payments: Vec<Payment> = [
            ("förhand", "forehand"),
            ("till vänster om förhand", "on forehand's left"),
            ("andra till vänster om förhand", "second on forehand's left"),
        ]
        .iter()
        .enumerate()
        .map(|(i, (sv, en))| {
            let s = state.table.after(forehand, i);
            Payment::new(
                Account::Seat(s),
                Account::Pot,
                stake,
                rule::THREE_STAKES,
                format!("Plats {s} sitter {sv} och sätter in grundinsatsen {stake} i potten."),
                format!("Seat {s} sits {en} and puts the base stake of {stake} into the pot."),
            )
        })
        .collect();
        let mut events = vec![
            Event::DealStarted {
                deal_number,
                deals_scheduled: state.deals_scheduled(),
                dealer,
                forehand,
                forced,
                lowest_rank: state.lowest_rank,
                deck,
                hands,
                talon: talon.clone(),
                pot,
                balances: state.ledger.seats(players),
                options: state.options.clone(),
            },
            Event::StakesPaid { payments, pot: pot + 3 * stake },
        ];
        if forced {
            let card = talon[0];
            events.push(Event::TrumpCardTurned { card, trumps: card.suit().expect("a suited pack") });
        }
        Ok(events)
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        use Command as C;
        let deal = state.deals.current()?;
        match (deal.phase, command) {
            (Phase::Swinging, C::Swing) => Ok(self.decide_swing_round(state, deal, seat, true)),
            (Phase::Swinging, C::Pass) => Ok(self.decide_swing_round(state, deal, seat, false)),
            (Phase::Swinging, _) => Err(RuleViolation::wrong_phase(
                "nu svänger eller passar förhand och spelaren till vänster om förhand",
                "forehand and the player on forehand's left now swing or pass",
            )),
            (Phase::ChoosingTrumps, C::ChooseTrumps { suit }) => self.decide_trumps(deal, seat, *suit),
            (Phase::ChoosingTrumps, _) => Err(RuleViolation::wrong_phase(
                "den som svängde väljer trumf först",
                "the swinger chooses trumps first",
            )),
            (Phase::Joining, C::Join) => self.decide_join(deal, seat, true),
            (Phase::Joining, C::Pass) => self.decide_join(deal, seat, false),
            (Phase::Joining, _) => Err(RuleViolation::wrong_phase(
                "nu säger spelarna om de går med eller passar",
                "the players now say whether they join or pass",
            )),
            (Phase::Buying, C::Buy { discard }) => self.decide_buy(deal, seat, Some(discard)),
            (Phase::Buying, C::Stand) => self.decide_buy(deal, seat, None),
            (Phase::Buying, _) => Err(RuleViolation::wrong_phase(
                "nu köper de som är med eller säger sig nöjda",
                "those in now buy or stand",
            )),
            (Phase::Playing, C::Play { card }) => self.decide_card(state, deal, seat, *card, false),
            (Phase::Playing, C::Blank { card }) => self.decide_card(state, deal, seat, *card, true),
            (Phase::Playing, C::Buy { .. } | C::Stand) if deal.forced => Err(RuleViolation::new(
                rule::FORCED_NO_BUYING,
                "Given spelas med tvång, och i en tvångsgiv köper ingen kort.",
                "This is a forced deal, and nobody buys cards in a forced deal.",
            )),
            (Phase::Playing, C::Swing) if deal.forced => Err(forced_deal_refusal("svänga", "swing")),
            (Phase::Playing, C::Pass) if deal.forced => Err(forced_deal_refusal("passa", "pass")),
            (Phase::Playing, C::Join) if deal.forced => Err(forced_deal_refusal("knacka", "knock")),
            (Phase::Playing, _) => Err(RuleViolation::wrong_phase("nu spelas korten", "the cards are being played")),
            (Phase::Over, _) => unreachable!("no seat is to act once the deal is over"),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        use Event as E;
        let players = state.players();
        let table = state.table;
        if let E::DealStarted {
            deal_number,
            dealer,
            forehand,
            forced,
            lowest_rank,
            deck,
            hands,
            talon,
            pot,
            balances,
            options,
            ..
        } = event
        {
            if let Some(old) = state.deals.deal.as_ref().filter(|d| !d.blanked.is_empty()) {
                state.masks.insert(old.number, RecordMask::of(old));
            }
            // The deal carries what it inherits, so it can be replayed on its own.
            state.options = options.clone();
            state.lowest_rank = *lowest_rank;
            state.ledger = opening_ledger(balances);
            state.deals.next_dealer = table.next(*dealer);
            let deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                forehand: *forehand,
                forced: *forced,
                deck: deck.clone(),
                dealt: hands.clone(),
                talon: talon.clone(),
                turned: Vec::new(),
                trumps: None,
                phase: if *forced { Phase::Playing } else { Phase::Swinging },
                swing_calls: Vec::new(),
                swinger: None,
                join_order: Vec::new(),
                join_calls: Vec::new(),
                folded: vec![Vec::new(); players],
                buy_order: Vec::new(),
                buys: Vec::new(),
                discards: vec![Vec::new(); players],
                drawn: vec![Vec::new(); players],
                play: trick::TrickPlay::new(table, hands.clone(), *forehand, HAND),
                blanked: Vec::new(),
                opening_balances: balances.clone(),
                opening_pot: *pot,
                payments: Vec::new(),
                settlement: None,
            };
            state.deals.started(*deal_number, &[], deal);
            return;
        }
        if let E::MatchEnded { winners, balances } = event {
            state.deals.ended(winners, &match_won(winners, balances));
            return;
        }
        let Some(deal) = state.deals.deal.as_mut() else { return };
        match event {
            E::DealStarted { .. } | E::MatchEnded { .. } => {}
            E::StakesPaid { payments, .. } => {
                for p in payments {
                    state.ledger.pay(p);
                    deal.payments.push(p.clone());
                }
            }
            E::TrumpCardTurned { card, trumps } => {
                take_card(&mut deal.talon, *card);
                deal.turned.push(*card);
                deal.trumps = Some(*trumps);
            }
            E::SwingPassed { seat } => deal.swing_calls.push((*seat, false)),
            E::NobodySwung { .. } => deal.phase = Phase::Over,
            E::Swung { seat } => {
                deal.swing_calls.push((*seat, true));
                deal.swinger = Some(*seat);
                deal.phase = Phase::ChoosingTrumps;
            }
            E::CardsTurned { cards } => {
                for c in cards {
                    take_card(&mut deal.talon, *c);
                    deal.turned.push(*c);
                }
            }
            E::TrumpsChosen { seat, suit, .. } => {
                deal.trumps = Some(*suit);
                deal.join_order = (1..players).map(|i| table.after(*seat, i)).collect();
                deal.phase = Phase::Joining;
            }
            E::Joined { seat, .. } | E::Folded { seat, .. } => {
                let joined = matches!(event, E::Joined { .. });
                deal.join_calls.push((*seat, joined));
                if !joined {
                    deal.folded[*seat] = deal.play.sit_out(*seat);
                }
                if deal.join_calls.len() == deal.join_order.len() {
                    let swinger = deal.swinger.unwrap_or(*seat);
                    deal.buy_order = deal.play.seats_in_from(swinger);
                    deal.play.trick = Trick::led_by(swinger);
                    deal.phase = Phase::Buying;
                }
            }
            E::Bought { seat, discarded, drawn, .. } => {
                let hand = &mut deal.play.hands[*seat];
                for c in discarded {
                    take_card(hand, *c);
                    deal.discards[*seat].push(*c);
                }
                for c in drawn {
                    take_card(&mut deal.talon, *c);
                    hand.push(*c);
                    deal.drawn[*seat].push(*c);
                }
                sort_hand(hand);
                deal.buys.push((*seat, BuyTurn::Bought(discarded.len())));
            }
            E::Stood { seat } => deal.buys.push((*seat, BuyTurn::Stood)),
            E::TalonRanOut { skipped } => deal.buys.extend(skipped.iter().map(|&s| (s, BuyTurn::Skipped))),
            E::CardPlayed { seat, card } => deal.play.play(*seat, *card),
            E::CardBlanked { seat, card, .. } => {
                deal.play.play(*seat, *card);
                deal.blanked.push(Play { seat: *seat, card: *card });
            }
            E::TrickWon { winner, card, reason, .. } => {
                // A blanked lead is booked as the trump it counts as (see `trick_winner`).
                let (card, reason) = match (card, reason) {
                    (Some(c), Won::HighestOfSuitLed) => (*c, WinReason::HighestOfSuitLed),
                    (Some(c), _) => (*c, WinReason::HighestTrump),
                    (None, _) => (deal.play.trick.plays[0].1, WinReason::HighestTrump),
                };
                deal.play.won(*winner, card, reason);
            }
            E::DealSettled { pot_before, payments, rivet, pot_went_out, pot, .. } => {
                for p in payments {
                    state.ledger.pay(p);
                    deal.payments.push(p.clone());
                }
                deal.settlement = Some(Settlement {
                    pot_before: *pot_before,
                    payments: payments.clone(),
                    rivet: *rivet,
                    pot_went_out: *pot_went_out,
                    pot: *pot,
                });
                deal.phase = Phase::Over;
            }
        }
        if deal.phase == Phase::Buying && deal.buys.len() >= deal.buy_order.len() {
            deal.phase = Phase::Playing;
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        use Command as C;
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        match deal.phase {
            Phase::Swinging => vec![C::Swing, C::Pass],
            Phase::ChoosingTrumps => {
                let mut suits: Vec<Suit> = deal.turned.iter().filter_map(|c| c.suit()).collect();
                suits.sort();
                suits.dedup();
                suits.into_iter().map(|suit| C::ChooseTrumps { suit }).collect()
            }
            Phase::Joining if deal.join_is_forced() => vec![C::Join],
            Phase::Joining => vec![C::Join, C::Pass],
            Phase::Buying => {
                let hand = &deal.play.hands[seat];
                let mut moves = vec![C::Stand];
                moves.extend(
                    subsets(hand).into_iter().filter(|d| d.len() <= deal.talon.len()).map(|discard| C::Buy { discard }),
                );
                moves
            }
            Phase::Playing => {
                let Some(trumps) = deal.trumps else { return Vec::new() };
                let (face_up, face_down) =
                    playable(&deal.play.hands[seat], deal.play.number(), &deal.play.trick, trumps);
                face_up
                    .into_iter()
                    .map(|card| C::Play { card })
                    .chain(face_down.into_iter().map(|card| C::Blank { card }))
                    .collect()
            }
            Phase::Over => Vec::new(),
        }
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        use Command as C;
        let mut moves = vec![C::Swing, C::Pass, C::Join, C::Stand, C::Buy { discard: Vec::new() }];
        moves.extend(Suit::ALL.into_iter().map(|suit| C::ChooseTrumps { suit }));
        if let Some(hand) = state.deals.deal.as_ref().and_then(|d| d.play.hands.get(seat)) {
            moves.extend(subsets(hand).into_iter().map(|discard| C::Buy { discard }));
            if let Some(&c) = hand.first() {
                moves.push(C::Buy { discard: vec![c, c] });
            }
        }
        for card in state.pack() {
            moves.extend([C::Play { card }, C::Blank { card }, C::Buy { discard: vec![card] }]);
        }
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        self.render(state, viewer, None)
    }

    fn record_view(&self, state: &State, seat: Option<Seat>) -> Value {
        serde_json::to_value(self.render(state, Viewer::Record, seat)).expect("views serialize")
    }

    // A masked deal's events as its record shows them: the mask already lets a seat see what it
    // held, so a seat's record is what it is shown of the events once the deal is over.
    fn record_event(&self, state: &State, event: &Event, seat: Option<Seat>) -> Value {
        self.redact(state, event, seat.map_or(Viewer::Record, Viewer::Seat), true)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        self.redact_event(state, event, viewer, deal_over)
    }

    /// A seat's own hand, thrown-in hand, discards and blanked cards; nobody's the talon.
    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deals.deal else { return Vec::new() };
        let mut secrets = deal.play.hand_secrets(|_, _| false);
        for s in 0..deal.players() {
            secrets.extend(deal.folded[s].iter().chain(&deal.discards[s]).map(|&c| (c, vec![s])));
        }
        secrets.extend(deal.talon.iter().map(|&c| (c, Vec::new())));
        secrets.extend(deal.blanked.iter().map(|p| (p.card, vec![p.seat])));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        check_books(state)
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// The search weighs swinging, joining and the cards; the trumps and the buying are basic's,
    /// where searching them measured no better (a third of the pot turns on luck the few
    /// worlds cannot average out).
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        match state.deals.acting(seat) {
            Some(deal) if matches!(deal.phase, Phase::Buying | Phase::ChoosingTrumps) => {
                bot::basic_move(state, seat).into_iter().collect()
            }
            _ => self.legal_moves(state, seat),
        }
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        bot::basic_move(state, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        bot::determinize(state, seat, rng)
    }

    /// Chips less the others' mean; the pot is everyone's alike (see `bot::standing`).
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bot::standing(state, seat)
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let moves = self.legal_moves(state, seat);
        match moves.len() {
            0 => None,
            1 => Some(moves[0].clone()),
            _ => {
                let deal = state.deals.acting(seat)?;
                let choice = self.bot_choice(deal, seat, &moves, seed);
                Some(if moves.contains(&choice) { choice } else { moves[0].clone() })
            }
        }
    }
}

/// The books balance: what the generic tests check after every event.
fn check_books(state: &State) -> Result<(), String> {
    state.deals.check_books()?;
    state.ledger.check()?;
    let players = state.players();
    let balances = state.ledger.seats(players);
    if let Some(outcome) = &state.deals.outcome {
        if state.pot() != 0 || state.deals.number < state.deals_scheduled() {
            return Err(format!("the match ended after {} deals with {} in the pot", state.deals.number, state.pot()));
        }
        if outcome.winners != match_winners(&balances) {
            return Err(format!("winners {:?} are not the seats furthest ahead in {balances:?}", outcome.winners));
        }
    }
    let Some(deal) = &state.deals.deal else {
        return if state.ledger.total() == 0 && state.pot() == 0 {
            Ok(())
        } else {
            Err("chips moved before any deal".into())
        };
    };
    if deal.number != state.deals.number || deal.dealer != (deal.number as usize - 1) % players {
        return Err(format!("deal {} dealt by seat {} after {} deals", deal.number, deal.dealer, state.deals.number));
    }
    // The books: what the deal opened with plus its payments is what the ledger holds.
    let rebuilt = deal.balances_rebuilt();
    if rebuilt.seats(players) != balances || rebuilt.balance(Account::Pot) != state.pot() {
        return Err(format!("the ledger {balances:?} / {} differs from the deal's payments", state.pot()));
    }
    if opening_ledger(&deal.opening_balances).balance(Account::Pot) != deal.opening_pot {
        return Err("the deal's opening pot is not what the seats had paid in".into());
    }
    if deal.forced != (deal.opening_pot == 0) {
        return Err(format!(
            "deal {} forced = {} with an opening pot of {}",
            deal.number, deal.forced, deal.opening_pot
        ));
    }
    if deal.payments.iter().any(|p| p.amount <= 0) {
        return Err("a payment of nothing or less".into());
    }

    // Every card is in exactly one place, and the play keeps its books.
    let pack = state.pack();
    if !is_permutation(&deal.deck, &pack) {
        return Err("the recorded deck is not the pack".into());
    }
    let (play, trumps) = (&deal.play, deal.trumps);
    if trumps.is_none() && !play.tricks.is_empty() {
        return Err("a trick without trumps".into());
    }
    let outside = deal.folded.iter().chain(&deal.discards).flatten().chain(&deal.talon).chain(&deal.turned);
    let winner = |t: &Trick| trick_winner(t, trumps.expect("tricks have trumps"), |c| deal.is_blanked(c));
    play.check(&pack, &outside.copied().collect::<Vec<_>>(), |_| HAND, &winner)?;
    let expected_turned = match (deal.forced, deal.swinger) {
        (true, _) => 1,
        (false, Some(_)) => 2,
        _ => 0,
    };
    // Between the swing (or the forced deal's start) and the turning of the cards.
    let not_yet = deal.turned.is_empty() && trumps.is_none() && play.tricks.is_empty() && play.trick.is_empty();
    if deal.turned.len() != expected_turned && !not_yet {
        return Err(format!("{} cards turned up", deal.turned.len()));
    }
    if trumps.is_some_and(|t| !deal.turned.iter().any(|c| c.is_suit(t))) {
        return Err("trumps are not the suit of a turned card".into());
    }

    // Who is in, and what they hold.
    for s in 0..players {
        if deal.discards[s].len() != deal.drawn[s].len() {
            return Err(format!("seat {s} put away {} cards but drew {}", deal.discards[s].len(), deal.drawn[s].len()));
        }
        let folded = deal.join_calls.contains(&(s, false));
        let sits_out = play.out.contains(&s);
        if folded != sits_out || (folded && deal.is_in(s)) || deal.folded[s].len() != if folded { HAND } else { 0 } {
            return Err(format!("seat {s} threw in {} cards", deal.folded[s].len()));
        }
    }
    if deal.swinger.is_some()
        && deal.phase != Phase::ChoosingTrumps
        && deal.phase != Phase::Joining
        && deal.in_seats().len() < 2
    {
        return Err("the swinger plays alone".into());
    }
    let second: Vec<(Seat, Card)> = match play.tricks.get(1) {
        Some(t) => t.plays.iter().map(|p| (p.seat, p.card)).collect(),
        None if play.number() == 2 => play.trick.plays.clone(),
        None => Vec::new(),
    };
    if deal.blanked.iter().any(|p| p.card.suit() == trumps || !second.contains(&(p.seat, p.card))) {
        return Err("a trump was blanked, or a card blanked outside the second trick".into());
    }
    match deal.phase {
        Phase::Over if deal.settlement.is_none() && (deal.swinger.is_some() || deal.forced) => {
            return Err("a played deal ended without a settlement".into())
        }
        Phase::Over if deal.settlement.is_some() && play.tricks.len() != HAND => {
            return Err("the deal was settled before its three tricks".into())
        }
        Phase::Playing | Phase::Over
            if !deal.forced && deal.swinger.is_some() && deal.buys.len() != deal.buy_order.len() =>
        {
            return Err("play started before everyone in had their turn to buy".into())
        }
        Phase::Swinging | Phase::ChoosingTrumps | Phase::Joining | Phase::Buying
            if !play.tricks.is_empty() || !play.trick.is_empty() =>
        {
            return Err("cards were played before the play".into())
        }
        _ => {}
    }
    if deal.forced && !deal.buys.is_empty() {
        return Err("somebody bought in a forced deal".into());
    }
    if let Some(s) = &deal.settlement {
        if s.pot != state.pot() {
            return Err(format!("the settlement left {} in the pot but it holds {}", s.pot, state.pot()));
        }
    }
    Ok(())
}

/// Every non-empty set of cards from `hand`, each in the hand's order.
fn subsets(hand: &[Card]) -> Vec<Vec<Card>> {
    (1u32..1 << hand.len())
        .map(|bits| hand.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0).map(|(_, &c)| c).collect())
        .collect()
}
