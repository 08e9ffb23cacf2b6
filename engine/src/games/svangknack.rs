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
use serde_json::{json, Map, Value};

use crate::cards::{decks, is_permutation, rank_value, sort_hand, take_card, Card, Rank, Suit};
use crate::game::{OptionDoc, Outcome, Rules, SetupError, Status, Viewer};
use crate::ledger::{Account, Ledger, Payment};
use crate::rules::{self, core, RuleViolation, Rulebook, Text};
use crate::seat::{match_winners, seats_text, Seat, Table};
use crate::trick;

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

    pub const FORCED_WHEN: &str = "svangknack.forced.empty-pot";
    pub const FORCED_TRUMPS: &str = "svangknack.forced.trump-card";
    pub const FORCED_ALL_PLAY: &str = "svangknack.forced.all-play";
    pub const FORCED_NO_BUYING: &str = "svangknack.forced.no-buying";
    pub const FORCED_LEAD: &str = "svangknack.forced.forehand-leads";

    pub const SWING_ORDER: &str = "svangknack.swing.order";
    pub const BOTH_PASS: &str = "svangknack.swing.both-pass";
    pub const TURN_TWO: &str = "svangknack.swing.turn-two";
    pub const CHOOSE_TRUMPS: &str = "svangknack.swing.choose-trumps";

    pub const JOIN_ORDER: &str = "svangknack.join.order";
    pub const FOLD: &str = "svangknack.join.fold";
    pub const FORCED_JOIN: &str = "svangknack.join.forced";

    pub const BUY_ORDER: &str = "svangknack.buy.order";
    pub const EXCHANGE: &str = "svangknack.buy.exchange";
    pub const BUY_ONCE: &str = "svangknack.buy.once";

    pub const FIRST_LEAD: &str = "svangknack.play.first-lead";
    pub const FOLLOW_SUIT: &str = "svangknack.play.follow-suit";
    pub const TRICK_WINNER: &str = "svangknack.play.trick-winner";
    pub const WINNER_LEADS: &str = "svangknack.play.winner-leads";
    pub const TRUMP_LEAD: &str = "svangknack.play.trump-lead";
    pub const BLANK_LEAD: &str = "svangknack.play.blank-lead";
    pub const BLANK_FOLLOW: &str = "svangknack.play.blank-follow";
    pub const BLANK_HIDDEN: &str = "svangknack.play.blank-hidden";
    pub const FACE_UP: &str = "svangknack.play.face-up";

    pub const SHARE: &str = "svangknack.pay.share";
    pub const FORFEIT: &str = "svangknack.pay.forfeit";
    pub const NEXT_POT: &str = "svangknack.pay.next-pot";
    pub const POT_OUT: &str = "svangknack.pay.pot-out";
    pub const RIVET: &str = "svangknack.pay.rivet";

    pub const FIRST_DEALER: &str = "svangknack.house.first-dealer";
    pub const ONE_AT_A_TIME: &str = "svangknack.house.one-at-a-time";
    pub const AUTO_PACK: &str = "svangknack.house.auto-pack";
    pub const TURNED_ASIDE: &str = "svangknack.house.turned-cards-aside";
    pub const DISCARDS_ASIDE: &str = "svangknack.house.discards-aside";
    pub const TALON_OUT: &str = "svangknack.house.talon-out";
    pub const INDIVISIBLE: &str = "svangknack.house.indivisible-pot";
    pub const MATCH_END: &str = "svangknack.house.match-end";
    pub const WINNERS: &str = "svangknack.house.winners";
    pub const RECORD: &str = "svangknack.house.record";
}

// ---------------------------------------------------------------------------------------------
// Options

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The base stake ("grundinsats") each of the three stakers puts in before every deal.
    pub stake: i64,
    /// The lowest rank in the pack (2 to 6); `null` lets the player count decide.
    #[serde(alias = "lowest-rank")]
    pub lowest_rank: Option<u8>,
    /// How many times each seat deals before the match may end (it then ends when the pot
    /// goes out).
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
// Commands and events

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Won {
    HighestOfSuitLed,
    HighestTrump,
    /// The second trick was led face down and nobody played a trump.
    BlankedLead,
}

/// One card in a trick as the stored record has it: a blanked card has no identity there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrickPlay {
    pub seat: Seat,
    pub card: Option<Card>,
    pub blanked: bool,
}

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
// State

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

/// One card on the table, identity included: the state keeps what the record hides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub seat: Seat,
    pub card: Card,
    pub blanked: bool,
}

/// Not the shared [`crate::trick::TrickRecord`]: a blanked card is played face down (so each
/// play carries the flag), and a trick led by a blanked card and never trumped is won by no card
/// (`card` is `None`, for a reason of this game's own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrickRecord {
    pub number: usize,
    pub leader: Seat,
    pub plays: Vec<Played>,
    pub winner: Seat,
    pub card: Option<Card>,
    pub reason: Won,
}

/// How one seat's turn in the buying round went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "count")]
pub enum BuyTurn {
    Bought(usize),
    Stood,
    /// The talon was empty when this seat's turn came.
    Skipped,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Settlement {
    pub pot_before: i64,
    pub payments: Vec<Payment>,
    pub rivet: Option<Seat>,
    pub pot_went_out: bool,
    pub pot: i64,
}

#[derive(Clone, Debug)]
pub struct Deal {
    pub number: u32,
    pub dealer: Seat,
    pub forehand: Seat,
    pub forced: bool,
    pub deck: Vec<Card>,
    pub dealt: Vec<Vec<Card>>,
    pub hands: Vec<Vec<Card>>,
    pub talon: Vec<Card>,
    /// Face up beside the talon: the forced deal's trump card or the swinger's two cards.
    pub turned: Vec<Card>,
    pub trumps: Option<Suit>,
    pub phase: Phase,
    pub swing_calls: Vec<(Seat, bool)>,
    pub swinger: Option<Seat>,
    pub join_order: Vec<Seat>,
    pub join_calls: Vec<(Seat, bool)>,
    pub in_play: Vec<bool>,
    pub folded: Vec<Vec<Card>>,
    pub buy_order: Vec<Seat>,
    pub buys: Vec<(Seat, BuyTurn)>,
    pub discards: Vec<Vec<Card>>,
    pub drawn: Vec<Vec<Card>>,
    pub leader: Seat,
    pub trick: Vec<Played>,
    pub tricks: Vec<TrickRecord>,
    pub tricks_taken: Vec<u32>,
    pub opening_balances: Vec<i64>,
    pub opening_pot: i64,
    /// Every payment since the deal started: stakes, then the settlement.
    pub payments: Vec<Payment>,
    pub settlement: Option<Settlement>,
}

impl Deal {
    fn players(&self) -> usize {
        self.hands.len()
    }

    fn blanked(&self) -> impl Iterator<Item = &Played> {
        self.tricks.iter().flat_map(|t| &t.plays).chain(&self.trick).filter(|p| p.blanked)
    }

    fn in_seats(&self) -> Vec<Seat> {
        (0..self.players()).filter(|&s| self.in_play[s]).collect()
    }

    /// The player who may swing now.
    fn next_swing_speaker(&self, table: &Table) -> Option<Seat> {
        match self.swing_calls.len() {
            0 => Some(self.forehand),
            1 if !self.swing_calls[0].1 => Some(table.next(self.forehand)),
            _ => None,
        }
    }

    fn next_to_join(&self) -> Option<Seat> {
        self.join_order.get(self.join_calls.len()).copied()
    }

    /// Everyone else passed and only the last speaker is left: the swinger may not take
    /// the pot without play.
    fn join_is_forced(&self) -> bool {
        self.join_calls.len() + 1 == self.join_order.len()
            && self.join_calls.iter().all(|&(_, joined)| !joined)
    }

    fn next_buyer(&self) -> Option<Seat> {
        self.buy_order.get(self.buys.len()).copied()
    }

    fn trick_number(&self) -> usize {
        self.tricks.len() + 1
    }

    fn next_to_play(&self, table: &Table) -> Seat {
        match self.trick.last() {
            None => self.leader,
            Some(last) => next_in(table, &self.in_play, last.seat),
        }
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
        let face_up = deal.tricks.iter().flat_map(|t| &t.plays).chain(&deal.trick).filter(|p| !p.blanked);
        RecordMask {
            public: deal.turned.iter().copied().chain(face_up.map(|p| p.card)).collect(),
            known: (0..deal.players())
                .map(|s| deal.dealt[s].iter().chain(&deal.drawn[s]).copied().collect())
                .collect(),
        }
    }

    fn shows(&self, card: Card, viewer: Viewer) -> bool {
        self.public.contains(&card)
            || matches!(viewer, Viewer::Seat(s) if self.known.get(s).is_some_and(|k| k.contains(&card)))
    }
}

#[derive(Clone, Debug)]
pub struct State {
    pub table: Table,
    pub options: Options,
    pub lowest_rank: u8,
    pub deals_started: u32,
    pub ledger: Ledger,
    pub deal: Option<Deal>,
    /// Masks of finished deals that had a blanked card, so their records stay masked later.
    pub masks: BTreeMap<u32, RecordMask>,
    pub winners: Option<Vec<Seat>>,
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
// Rules that are pure functions, kept apart so tests can reach them directly

/// The next seat after `seat` that plays for the pot.
fn next_in(table: &Table, in_play: &[bool], seat: Seat) -> Seat {
    (1..=table.seats).map(|i| table.after(seat, i)).find(|&s| in_play[s]).unwrap_or(seat)
}

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

/// The trick's winner, with blanked cards: a blanked lead is a trump below the lowest, and a
/// blanked card played to a started trick is worth nothing.
pub fn trick_winner(plays: &[Played], trumps: Suit) -> (Seat, Option<Card>, Won) {
    let best_trump =
        plays.iter().filter(|p| !p.blanked && p.card.is_suit(trumps)).max_by_key(|p| rank_value(p.card));
    if let Some(p) = best_trump {
        return (p.seat, Some(p.card), Won::HighestTrump);
    }
    let lead = plays.first().expect("a trick is won only once cards are in it");
    if lead.blanked {
        return (lead.seat, None, Won::BlankedLead);
    }
    let led = lead.card.suit();
    let best = plays
        .iter()
        .filter(|p| !p.blanked && p.card.suit() == led)
        .max_by_key(|p| rank_value(p.card))
        .expect("the lead is of the suit led");
    (best.seat, Some(best.card), Won::HighestOfSuitLed)
}

/// Cards `hand` may play now: (face up, face down).
pub fn playable(
    hand: &[Card],
    trick_number: usize,
    trick: &[Played],
    trumps: Suit,
) -> (Vec<Card>, Vec<Card>) {
    if trick_number == 2 {
        let held: Vec<Card> = hand.iter().copied().filter(|c| c.is_suit(trumps)).collect();
        return if held.is_empty() {
            (Vec::new(), trick::distinct(hand.to_vec()))
        } else {
            (trick::distinct(held), Vec::new())
        };
    }
    let led = trick.first().and_then(|p| p.card.suit());
    let follow: Vec<Card> = hand.iter().copied().filter(|c| led.is_some_and(|s| c.is_suit(s))).collect();
    (trick::distinct(if follow.is_empty() { hand.to_vec() } else { follow }), Vec::new())
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

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}



/// Replaces every card the viewer may not see with `null`, wherever it sits in `value`.
fn mask_cards(value: &mut Value, shows: &dyn Fn(Card) -> bool) {
    match value {
        Value::String(s) if s.parse::<Card>().is_ok_and(|c| !shows(c)) => *value = Value::Null,
        Value::Array(items) => items.iter_mut().for_each(|i| mask_cards(i, shows)),
        Value::Object(map) => map.values_mut().for_each(|i| mask_cards(i, shows)),
        _ => {}
    }
}

fn plays_json(plays: &[Played], sees_blanked: &dyn Fn(Seat) -> bool) -> Value {
    json!(plays
        .iter()
        .map(|p| TrickPlay {
            seat: p.seat,
            card: (!p.blanked || sees_blanked(p.seat)).then_some(p.card),
            blanked: p.blanked
        })
        .collect::<Vec<_>>())
}

// ---------------------------------------------------------------------------------------------
// The rules

fn forced_deal_refusal(what_sv: &str, what_en: &str) -> RuleViolation {
    RuleViolation::new(
        rule::FORCED_ALL_PLAY,
        format!(
            "Given spelas med tvång: alla är med och ingen svänger eller passar, så du kan inte {what_sv}."
        ),
        format!(
            "This is a forced deal: everyone plays and nobody swings or passes, so you cannot {what_en}."
        ),
    )
}

impl Svangknack {
    fn decide_swing_round(
        &self,
        state: &State,
        deal: &Deal,
        seat: Seat,
        swing: bool,
    ) -> Result<Vec<Event>, RuleViolation> {
        if deal.next_swing_speaker(&state.table) != Some(seat) {
            return Err(RuleViolation::not_your_turn(seat));
        }
        if !swing {
            let mut events = vec![Event::SwingPassed { seat }];
            if deal.swing_calls.len() == 1 {
                events.push(Event::NobodySwung { pot: state.pot() });
            }
            return Ok(events);
        }
        let cards = deal.talon[..2].to_vec();
        let mut events =
            vec![Event::Swung { seat }, Event::CardsTurned { cards: cards.clone() }];
        if cards[0].suit() == cards[1].suit() {
            let suit = cards[0].suit().expect("a suited pack");
            events.push(Event::TrumpsChosen { seat, suit, automatic: true });
        }
        Ok(events)
    }

    fn decide_trumps(
        &self,
        deal: &Deal,
        seat: Seat,
        suit: Suit,
    ) -> Result<Vec<Event>, RuleViolation> {
        if deal.swinger != Some(seat) {
            return Err(RuleViolation::not_your_turn(seat));
        }
        if !deal.turned.iter().any(|c| c.is_suit(suit)) {
            let shown = deal.turned.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" och ");
            let shown_en = deal.turned.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" and ");
            return Err(RuleViolation::new(
                rule::CHOOSE_TRUMPS,
                format!("Du valde {} som trumf, men trumf väljs bland färgerna på de uppslagna korten {shown}.", suit.name_sv()),
                format!("You chose {} as trumps, but trumps are chosen from the suits of the turned cards {shown_en}.", suit.name_en()),
            ));
        }
        Ok(vec![Event::TrumpsChosen { seat, suit, automatic: false }])
    }

    fn decide_join(
        &self,
        deal: &Deal,
        seat: Seat,
        join: bool,
    ) -> Result<Vec<Event>, RuleViolation> {
        if deal.next_to_join() != Some(seat) {
            return Err(RuleViolation::not_your_turn(seat));
        }
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
            Event::Folded { deal_number: deal.number, seat, cards: deal.hands[seat].clone() }
        };
        let mut events = vec![first];
        if deal.join_calls.len() + 1 == deal.join_order.len() && deal.talon.is_empty() {
            // Nothing to buy from: the buying round is over before it begins. Only a pack exactly
            // as large as the deal and the turned cards does this (none of whole ranks for up to
            // twelve players), but a deal replayed from elsewhere must not stall.
            let mut in_play = deal.in_play.clone();
            in_play[seat] = join;
            let swinger = deal.swinger.unwrap_or(seat);
            let skipped =
                (0..deal.players()).map(|i| (swinger + i) % deal.players()).filter(|&s| in_play[s]).collect();
            events.push(Event::TalonRanOut { skipped });
        }
        Ok(events)
    }

    fn decide_buy(
        &self,
        deal: &Deal,
        seat: Seat,
        discard: Option<&[Card]>,
    ) -> Result<Vec<Event>, RuleViolation> {
        if deal.next_buyer() != Some(seat) {
            return Err(RuleViolation::not_your_turn(seat));
        }
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
        let hand = &deal.hands[seat];
        if let Some(&c) = discard.iter().find(|c| !hand.contains(c)) {
            return Err(RuleViolation::card_not_held(c));
        }
        if let Some(&c) = discard.iter().enumerate().find(|(i, c)| discard[..*i].contains(c)).map(|(_, c)| c)
        {
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
        let event = Event::Bought {
            deal_number: deal.number,
            seat,
            count: k,
            discarded,
            drawn: deal.talon[..k].to_vec(),
        };
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
        if deal.next_to_play(&state.table) != seat {
            return Err(RuleViolation::not_your_turn(seat));
        }
        let hand = &deal.hands[seat];
        if !hand.contains(&card) {
            return Err(RuleViolation::card_not_held(card));
        }
        let Some(trumps) = deal.trumps else {
            return Err(RuleViolation::wrong_phase(
                "trumfkortet är inte vänt än",
                "the trump card has not been turned yet",
            ));
        };
        let number = deal.trick_number();
        let (face_up, face_down) = playable(hand, number, &deal.trick, trumps);
        let allowed = if blank { face_down.contains(&card) } else { face_up.contains(&card) };
        if !allowed {
            return Err(self.card_refusal(deal, seat, card, blank, trumps));
        }
        let mut events = vec![if blank {
            Event::CardBlanked { deal_number: deal.number, seat, card }
        } else {
            Event::CardPlayed { seat, card }
        }];
        let mut trick = deal.trick.clone();
        trick.push(Played { seat, card, blanked: blank });
        if trick.len() < deal.in_play.iter().filter(|&&i| i).count() {
            return Ok(events);
        }
        let (winner, winning, reason) = trick_winner(&trick, trumps);
        events.push(Event::TrickWon {
            trick_number: number,
            winner,
            card: winning,
            reason,
            plays: trick
                .iter()
                .map(|p| TrickPlay { seat: p.seat, card: (!p.blanked).then_some(p.card), blanked: p.blanked })
                .collect(),
        });
        if number < HAND {
            return Ok(events);
        }
        let mut tricks_taken = deal.tricks_taken.clone();
        tricks_taken[winner] += 1;
        let in_play = deal.in_seats();
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
        if state.deals_started >= state.deals_scheduled() && s.pot == 0 {
            events.push(Event::MatchEnded { winners: match_winners(&balances), balances });
        }
        Ok(events)
    }

    /// Why a card cannot be played now; names only the player's own cards.
    fn card_refusal(&self, deal: &Deal, seat: Seat, card: Card, blank: bool, trumps: Suit) -> RuleViolation {
        let (t_sv, t_en) = (trumps.name_sv(), trumps.name_en());
        let number = deal.trick_number();
        if number != 2 {
            if blank {
                return RuleViolation::new(
                    rule::FACE_UP,
                    format!("Du ville blanka {card} i stick {number}, men man blankar bara i andra sticket; spela kortet med framsidan upp."),
                    format!("You wanted to blank {card} in trick {number}, but cards are blanked only in the second trick; play it face up."),
                );
            }
            let led = deal.trick.first().and_then(|p| p.card.suit()).expect("only a started trick binds");
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
        let leads = deal.trick.is_empty();
        let has_trump = deal.hands[seat].iter().any(|c| c.is_suit(trumps));
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

    /// The state as `viewer` sees it; `record_of` is the seat whose deal record this is, which
    /// shows it the cards it held itself where a blanked card masks the rest.
    fn render(&self, state: &State, viewer: Viewer, record_of: Option<Seat>) -> Value {
        let players = state.players();
        let status = self.status(state);
        let mut v = Map::new();
        v.insert("phase".into(), json!(self.phase_name(state)));
        v.insert("players".into(), json!(players));
        v.insert("options".into(), json!(state.options));
        v.insert("lowest_rank".into(), json!(state.lowest_rank));
        v.insert("pack_size".into(), json!(pack_size(state.lowest_rank)));
        v.insert("stake".into(), json!(state.options.stake));
        v.insert("deal_number".into(), json!(state.deals_started));
        v.insert("deals_scheduled".into(), json!(state.deals_scheduled()));
        v.insert("pot".into(), json!(state.pot()));
        v.insert("balances".into(), json!(state.ledger.seats(players)));
        v.insert("to_act".into(), json!(status.to_act()));
        v.insert("winners".into(), json!(state.winners));
        if let Viewer::Seat(s) = viewer {
            v.insert("seat".into(), json!(s));
        }
        let Some(deal) = &state.deal else { return Value::Object(v) };
        let own = |s: Seat| viewer == Viewer::Seat(s) || (viewer == Viewer::Record && record_of == Some(s));
        v.insert("dealer".into(), json!(deal.dealer));
        v.insert("forehand".into(), json!(deal.forehand));
        v.insert("forced".into(), json!(deal.forced));
        v.insert("trumps".into(), json!(deal.trumps));
        v.insert("turned_cards".into(), json!(deal.turned));
        v.insert("swinger".into(), json!(deal.swinger));
        v.insert(
            "swing_calls".into(),
            json!(deal
                .swing_calls
                .iter()
                .map(|&(seat, swung)| json!({"seat": seat, "swung": swung}))
                .collect::<Vec<_>>()),
        );
        v.insert(
            "join_calls".into(),
            json!(deal
                .join_calls
                .iter()
                .map(|&(seat, joined)| json!({"seat": seat, "joined": joined}))
                .collect::<Vec<_>>()),
        );
        v.insert("in_play".into(), json!(deal.in_seats()));
        v.insert(
            "folded".into(),
            json!((0..players).filter(|&s| deal.join_calls.contains(&(s, false))).collect::<Vec<_>>()),
        );
        v.insert("buy_order".into(), json!(deal.buy_order));
        v.insert(
            "buys".into(),
            json!(deal
                .buys
                .iter()
                .map(|&(seat, turn)| json!({"seat": seat, "turn": turn}))
                .collect::<Vec<_>>()),
        );
        v.insert("talon_count".into(), json!(deal.talon.len()));
        v.insert("hand_sizes".into(), json!(deal.hands.iter().map(Vec::len).collect::<Vec<_>>()));
        v.insert("trick_number".into(), json!(deal.trick_number().min(HAND)));
        v.insert("trick".into(), json!({"leader": deal.leader, "plays": plays_json(&deal.trick, &own)}));
        v.insert(
            "tricks".into(),
            json!(deal
                .tricks
                .iter()
                .map(|t| json!({
                    "number": t.number,
                    "leader": t.leader,
                    "plays": plays_json(&t.plays, &own),
                    "winner": t.winner,
                    "card": t.card,
                    "reason": t.reason,
                }))
                .collect::<Vec<_>>()),
        );
        v.insert("tricks_taken".into(), json!(deal.tricks_taken));
        v.insert("settlement".into(), json!(deal.settlement));
        match viewer {
            Viewer::Seat(s) if s < players => {
                v.insert("hand".into(), json!(deal.hands[s]));
                v.insert("discards".into(), json!(deal.discards[s]));
                v.insert("thrown_in".into(), json!(deal.folded[s]));
                let blanked: Vec<Card> = deal.blanked().filter(|p| p.seat == s).map(|p| p.card).collect();
                v.insert("blanked".into(), json!(blanked));
            }
            Viewer::Record => {
                v.insert("deck".into(), json!(deal.deck));
                v.insert("hands_dealt".into(), json!(deal.dealt));
                v.insert("hands".into(), json!(deal.hands));
                v.insert("talon".into(), json!(deal.talon));
                v.insert("thrown_in".into(), json!(deal.folded));
                v.insert("discards".into(), json!(deal.discards));
                v.insert("drawn".into(), json!(deal.drawn));
                if deal.blanked().next().is_some() {
                    let mask = RecordMask::of(deal);
                    let mut value = Value::Object(v);
                    let as_seen = record_of.map_or(Viewer::Record, Viewer::Seat);
                    mask_cards(&mut value, &|c| mask.shows(c, as_seen));
                    return value;
                }
            }
            _ => {}
        }
        Value::Object(v)
    }

    fn record_mask(&self, state: &State, deal_number: u32) -> Option<RecordMask> {
        match &state.deal {
            Some(d) if d.number == deal_number => d.blanked().next().is_some().then(|| RecordMask::of(d)),
            _ => state.masks.get(&deal_number).cloned(),
        }
    }

    fn phase_name(&self, state: &State) -> &'static str {
        if state.winners.is_some() {
            return "finished";
        }
        match state.deal.as_ref().map(|d| d.phase) {
            None => "waiting-for-deal",
            Some(Phase::Swinging) => "swinging",
            Some(Phase::ChoosingTrumps) => "choosing-trumps",
            Some(Phase::Joining) => "joining",
            Some(Phase::Buying) => "buying",
            Some(Phase::Playing) => "playing",
            Some(Phase::Over) => "deal-over",
        }
    }

    fn bot_choice(
        &self,
        deal: &Deal,
        seat: Seat,
        moves: &[Command],
        seed: u64,
    ) -> Command {
        let hand = &deal.hands[seat];
        let roll = seed % 100;
        let count = |suit: Suit| hand.iter().filter(|c| c.is_suit(suit)).count();
        let strength =
            |suit: Suit| hand.iter().filter(|c| c.is_suit(suit)).map(|&c| rank_value(c) as usize).sum::<usize>();
        match deal.phase {
            Phase::Swinging => {
                let good =
                    hand.iter().any(|&c| rank_value(c) >= 13) || Suit::ALL.into_iter().any(|s| count(s) >= 2);
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
                let alone = deal.in_play.iter().filter(|&&i| i).count() < 2;
                if alone && ((trumps >= 1 && roll < 60) || roll < 10) {
                    Command::Join
                } else {
                    Command::Pass
                }
            }
            Phase::Buying => {
                let keep = |c: &Card| deal.trumps.is_some_and(|t| c.is_suit(t)) || rank_value(*c) == 14;
                let discard: Vec<Card> =
                    hand.iter().copied().filter(|c| !keep(c)).take(deal.talon.len()).collect();
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

impl Rules for Svangknack {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;

    fn id(&self) -> &'static str {
        "svangknack"
    }

    fn rulebook(&self) -> Rulebook {
        Rulebook {
            game: "svangknack",
            sections: vec![
                core::section(),
                rules::section(
                    "svangknack.pack",
                    "Kortleken",
                    "The pack",
                    &[
                        (rule::PACK, "Man spelar med 36 kort: en vanlig lek utan tvåor, treor, fyror och femmor.", "The game uses 36 cards: a standard pack without the twos, threes, fours and fives."),
                        (rule::LOW_CARDS, "Med fler än sex spelare kan lägre valörer tas med så att leken räcker; vilken valör leken börjar på är ett tillval.", "With more than six players lower ranks may be added so that the pack suffices; the lowest rank is an option."),
                        (rule::RANKING, "Korten rangordnas som vanligt med esset högst och sexan (eller den lägsta valören) lägst.", "Cards rank in the usual order, ace high and the six (or the lowest rank in use) low."),
                    ],
                ),
                rules::section(
                    "svangknack.stakes",
                    "Insatser",
                    "Stakes",
                    &[
                        (rule::BASE_STAKE, "Spelarna kommer överens om en grundinsats innan partiet börjar (tillval, 1 om inget annat sägs).", "The players agree on a base stake before the match starts (an option, 1 unless said otherwise)."),
                        (rule::THREE_STAKES, "Före varje giv sätter förhand och de två spelarna närmast till vänster om förhand in en grundinsats var i potten, även när potten redan har ett innehåll.", "Before every deal forehand and the two players next on forehand's left each put one base stake into the pot, even when the pot already holds chips."),
                    ],
                ),
                rules::section(
                    "svangknack.deal",
                    "Given",
                    "Dealing",
                    &[
                        (rule::DEALER, "Spelet går medsols: förhand sitter till vänster om given, och given går vidare till vänster efter varje giv.", "Play goes clockwise: forehand sits on the dealer's left, and the deal passes to the left after every deal."),
                        (rule::THREE_EACH, "Given delar ut tre kort till varje spelare med början hos spelaren till vänster.", "The dealer gives every player three cards, starting with the player on the left."),
                        (rule::TALON, "Korten som blir kvar bildar talongen, med baksidan upp.", "The cards left over form the talon, face down."),
                    ],
                ),
                rules::section(
                    "svangknack.forced",
                    "Tvång",
                    "Forced deal",
                    &[
                        (rule::FORCED_WHEN, "Var potten tom innan insatserna sattes spelas given med tvång; partiets första giv är därför alltid tvång.", "If the pot was empty before the stakes went in, the deal is forced; the first deal of a match is therefore always forced."),
                        (rule::FORCED_TRUMPS, "I en tvångsgiv vänder given upp talongens översta kort, och dess färg är trumf.", "In a forced deal the dealer turns up the talon's top card, and its suit is trumps."),
                        (rule::FORCED_ALL_PLAY, "I en tvångsgiv är alla med i spelet; ingen svänger, passar eller kastar in.", "In a forced deal everyone plays; nobody swings, passes or throws in."),
                        (rule::FORCED_NO_BUYING, "I en tvångsgiv köper ingen kort.", "In a forced deal nobody buys cards."),
                        (rule::FORCED_LEAD, "I en tvångsgiv spelar förhand ut till första sticket.", "In a forced deal forehand leads to the first trick."),
                    ],
                ),
                rules::section(
                    "svangknack.swing",
                    "Svängen",
                    "Swinging",
                    &[
                        (rule::SWING_ORDER, "Finns det något i potten från förra given börjar förhand och kan svänga (knacka) eller passa; passar förhand får spelaren till vänster om förhand samma val.", "If the pot holds chips from the last deal, forehand may swing (knock) or pass first; if forehand passes, the player on forehand's left has the same choice."),
                        (rule::BOTH_PASS, "Passar båda slutar given utan spel: potten ligger kvar och given går vidare.", "If both pass the deal ends without play: the pot stays and the deal passes on."),
                        (rule::TURN_TWO, "När någon har svängt vänder given upp talongens två översta kort.", "Once someone has swung, the dealer turns up the talon's two top cards."),
                        (rule::CHOOSE_TRUMPS, "Den som svängde väljer trumf bland de två uppvända kortens färger; har båda samma färg blir den trumf utan val.", "The swinger chooses trumps from the suits of the two turned cards; if both have the same suit, that suit is trumps without a choice."),
                    ],
                ),
                rules::section(
                    "svangknack.join",
                    "Att gå med",
                    "Joining",
                    &[
                        (rule::JOIN_ORDER, "När trumf är bestämd säger de andra i tur och ordning, från spelaren till vänster om den som svängde, om de går med (knackar) eller passar; den som svängde är redan med.", "Once trumps are set, the others say in turn, from the swinger's left, whether they join (knock) or pass; the swinger is already in."),
                        (rule::FOLD, "Den som passar kastar in sina kort med baksidan upp och är inte med i given.", "A player who passes throws in the cards face down and sits the deal out."),
                        (rule::FORCED_JOIN, "Den som svängde får aldrig ta potten utan spel: har alla andra passat måste den som talar sist knacka (given om förhand svängde, förhand om spelaren till vänster om förhand svängde).", "The swinger may never take the pot without play: if all the others have passed, the last to speak must knock (the dealer if forehand swung, forehand if the player on forehand's left swung)."),
                    ],
                ),
                rules::section(
                    "svangknack.buy",
                    "Köpet",
                    "Buying",
                    &[
                        (rule::BUY_ORDER, "Efter en sväng får alla som är med köpa, med början hos den som svängde och vidare medsols.", "After a swing everyone in may buy, starting with the swinger and going clockwise."),
                        (rule::EXCHANGE, "Den som köper lägger bort valfritt antal kort, minst ett, och drar lika många från talongens topp; den som inte vill köpa säger sig vara nöjd.", "A buyer puts away any number of cards, at least one, and draws as many from the top of the talon; a player who does not want to buy stands."),
                        (rule::BUY_ONCE, "Var och en får bara en chans att köpa.", "Everyone gets only one chance to buy."),
                    ],
                ),
                rules::section(
                    "svangknack.play",
                    "Spelet",
                    "Play",
                    &[
                        (rule::FIRST_LEAD, "Den som svängde spelar ut till första sticket, vilket kort som helst.", "The swinger leads any card to the first trick."),
                        (rule::FOLLOW_SUIT, "I första och tredje sticket måste man bekänna färg om man kan; annars får man lägga vilket kort som helst.", "In the first and third tricks a player must follow suit if able; otherwise any card may be played."),
                        (rule::TRICK_WINNER, "Högsta trumfen tar sticket; utan trumf i sticket tar högsta kortet i utspelsfärgen.", "The highest trump takes the trick; with no trump in it, the highest card of the suit led does."),
                        (rule::WINNER_LEADS, "Den som tog ett stick spelar ut till nästa.", "Whoever took a trick leads to the next."),
                        (rule::TRUMP_LEAD, "Den som tog första sticket måste spela ut trumf till det andra om den har trumf.", "The winner of the first trick must lead a trump to the second if holding one."),
                        (rule::BLANK_LEAD, "Har den som spelar ut till andra sticket ingen trumf måste den blanka: spela ut ett kort med baksidan upp. Det räknas som en trumf lägre än den lägsta, så utspelaren vinner om ingen lägger trumf.", "If the leader to the second trick holds no trump, the leader must blank: lead a card face down. It counts as a trump below the lowest, so the leader wins unless somebody plays a trump."),
                        (rule::BLANK_FOLLOW, "I andra sticket måste de andra lägga trumf om de kan, annars blanka; ett blankat kort till ett redan påbörjat stick är värdelöst och kan inte vinna.", "In the second trick the others must play a trump if they can, otherwise blank; a card blanked to a trick already begun is worthless and cannot win."),
                        (rule::BLANK_HIDDEN, "Vilket kort som blankades får ingen annan än ägaren någonsin veta, inte heller i givens protokoll efteråt.", "Which card was blanked is never known to anyone but its owner, not even in the deal's record afterwards."),
                        (rule::FACE_UP, "I första och tredje sticket spelas alla kort med framsidan upp; man blankar bara i det andra.", "In the first and third tricks every card is played face up; blanking happens only in the second."),
                    ],
                ),
                rules::section(
                    "svangknack.pay",
                    "Betalning",
                    "Payment",
                    &[
                        (rule::SHARE, "Varje stick ger den som tog det en tredjedel av potten, i tvångsgiv som i vanlig giv.", "Every trick earns its taker a third of the pot, in a forced deal as in any other."),
                        (rule::FORFEIT, "Den som var med men inte tog något stick betalar in lika mycket som potten höll innan den delades.", "A player who was in but took no trick pays in as much as the pot held before it was shared."),
                        (rule::NEXT_POT, "Det som betalas in av dem utan stick blir nästa givs pott.", "What the players without a trick pay in becomes the next deal's pot."),
                        (rule::POT_OUT, "Tog alla som var med minst ett stick går potten ut, och nästa giv börjar med en tom pott (och alltså med tvång).", "If everyone in took at least one trick the pot goes out, and the next deal starts with an empty pot (and so is forced)."),
                        (rule::RIVET, "Tar en spelare alla tre sticken tar den hela potten ensam: det kallas rivet.", "A player who takes all three tricks takes the whole pot alone: that is called \"rivet\"."),
                    ],
                ),
                rules::house_rules(
                    "svangknack.house",
                    &[
                        (rule::FIRST_DEALER, "Dragningen om given görs innan man sätter sig: plats 0 ger först.", "The draw for the deal happens before seating: seat 0 deals first."),
                        (rule::ONE_AT_A_TIME, "Korten delas ut ett och ett, tre varv runt bordet.", "The cards are dealt one at a time, three times round the table."),
                        (rule::AUTO_PACK, "Utan särskilt val används 36 kort upp till sex spelare. Med fler tas hela valörer med, femmor först, tills talongen efter given och de två uppvända korten räcker till att alla kan byta alla tre korten; från åtta spelare används hela leken med 52 kort, och från nio räcker den inte till att alla byter allt. En vald lägsta valör måste ge minst tre kort per spelare och två att vända upp.", "Without a choice, 36 cards are used for up to six players. With more, whole ranks are added, fives first, until the talon left after dealing and turning two cards lets every player exchange all three cards; from eight players the whole 52-card pack is used, and from nine it can no longer cover everyone exchanging everything. A chosen lowest rank must give three cards per player and two to turn up."),
                        (rule::TURNED_ASIDE, "De uppvända korten ligger kvar med framsidan upp bredvid talongen hela given; ingen tar upp eller köper dem.", "The turned cards stay face up beside the talon for the whole deal; nobody picks them up or buys them."),
                        (rule::DISCARDS_ASIDE, "Kort som läggs bort vid köpet och händer som kastas in läggs åt sidan med baksidan upp; bara ägaren vet vilka de är, och de går inte tillbaka till talongen.", "Cards put away when buying and hands thrown in are set aside face down; only their owner knows them, and they do not go back into the talon."),
                        (rule::TALON_OUT, "Man kan byta högst så många kort som talongen har kvar. När talongen är slut kan de som ännu inte köpt inte köpa alls, och spelar med korten de har.", "A buyer may exchange at most as many cards as the talon still holds. Once the talon is empty, those who have not bought yet cannot buy at all and play with the cards they hold."),
                        (rule::INDIVISIBLE, "Varje stick ger en tredjedel av potten i hela marker; det som inte går att dela ligger kvar i potten till nästa giv, utom vid rivet då hela potten går. Eftersom potten bara växer med tre lika insatser och med inbetalningar lika stora som en hel pott går den med dessa regler alltid jämnt ut i tre.", "Each trick earns a third of the pot in whole chips; whatever cannot be divided stays in the pot for the next deal, except with rivet, which takes the whole pot. Since the pot only grows by three equal stakes and by payments as large as a whole pot, under these rules it always divides evenly by three."),
                        (rule::MATCH_END, "Ett parti är ett antal varv (tillval, ett om inget annat sägs) där varje spelare ger en gång per varv. Efter den sista planerade given spelar man vidare tills potten går ut, så partiet slutar med tom pott.", "A match is a number of rounds (an option, one unless said otherwise) in which every player deals once per round. After the last scheduled deal play goes on until the pot goes out, so the match ends with the pot empty."),
                        (rule::WINNERS, "Den eller de som har vunnit mest när partiet är slut vinner; lika delar segern.", "Whoever is furthest ahead when the match ends wins; ties share the win."),
                        (rule::RECORD, "Efter given är dess protokoll öppet för alla, utom i en giv där ett kort blankades: där visas bara de kort som låg med framsidan upp på bordet (och för var och en de kort den själv hade), eftersom mer skulle avslöja det blankade kortet genom uteslutning.", "After a deal its record is open to all, except in a deal where a card was blanked: there only the cards that lay face up on the table are shown (and to each player the cards they held themselves), since more would give the blanked card away by elimination."),
                    ],
                ),
            ],
        }
    }

    fn options(&self) -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "stake",
                default: json!(1),
                sv: "Grundinsatsen som förhand och de två till vänster om förhand sätter in före varje giv (1 till 1 000 000).",
                en: "The base stake forehand and the two players on forehand's left put in before every deal (1 to 1,000,000).",
            },
            OptionDoc {
                name: "lowest_rank",
                default: Value::Null,
                sv: "Lekens lägsta valör, 2 till 6. null: 36 kort (från sexan) upp till sex spelare, och för fler så många lägre valörer att alla kan byta alla kort, som mest hela leken.",
                en: "The pack's lowest rank, 2 to 6. null: 36 cards (six up) for up to six players, and for more as many lower ranks as let everyone exchange every card, at most the whole pack.",
            },
            OptionDoc {
                name: "rounds",
                default: json!(1),
                sv: "Antal varv där var och en ger en gång (1 till 100); därefter spelar man tills potten går ut.",
                en: "Rounds in which each player deals once (1 to 100); after them play goes on until the pot goes out.",
            },
        ]
    }

    fn player_counts(&self) -> RangeInclusive<usize> {
        MIN_PLAYERS..=MAX_PLAYERS
    }

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
            table: Table::new(players),
            options,
            lowest_rank,
            deals_started: 0,
            ledger: Ledger::new(),
            deal: None,
            masks: BTreeMap::new(),
            winners: None,
        })
    }

    fn status(&self, state: &State) -> Status {
        if let Some(winners) = &state.winners {
            let who = seats_text(winners);
            let best = winners.first().map_or(0, |&s| state.ledger.balance(Account::Seat(s)));
            let explanation = if winners.len() == 1 {
                Text::new(
                    format!("Plats {who} vann partiet med {best:+}."),
                    format!("Seat {who} won the match with {best:+}."),
                )
            } else {
                Text::new(
                    format!("Platserna {who} delar segern med {best:+} var."),
                    format!("Seats {who} share the win with {best:+} each."),
                )
            };
            return Status::Finished { outcome: Outcome { winners: winners.clone(), explanation } };
        }
        let Some(deal) = &state.deal else {
            return Status::NeedsDeck { composition: state.pack() };
        };
        let seat = match deal.phase {
            Phase::Over => return Status::NeedsDeck { composition: state.pack() },
            Phase::Swinging => deal.next_swing_speaker(&state.table),
            Phase::ChoosingTrumps => deal.swinger,
            Phase::Joining => deal.next_to_join(),
            Phase::Buying => deal.next_buyer(),
            Phase::Playing => Some(deal.next_to_play(&state.table)),
        };
        Status::ToAct { seats: seat.into_iter().collect() }
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals_started
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let players = state.players();
        let deal_number = state.deals_started + 1;
        let dealer = (deal_number as usize - 1) % players;
        let forehand = state.table.forehand(dealer);
        let mut hands = vec![Vec::with_capacity(HAND); players];
        for (i, &card) in deck[..HAND * players].iter().enumerate() {
            hands[state.table.after(dealer, 1 + i % players)].push(card);
        }
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
            events
                .push(Event::TrumpCardTurned { card, trumps: card.suit().expect("a suited pack") });
        }
        Ok(events)
    }

    fn decide(
        &self,
        state: &State,
        seat: Seat,
        command: &Command,
    ) -> Result<Vec<Event>, RuleViolation> {
        use Command as C;
        let deal = state.deal.as_ref().expect("a seat acts only while a deal is in play");
        match (deal.phase, command) {
            (Phase::Swinging, C::Swing) => self.decide_swing_round(state, deal, seat, true),
            (Phase::Swinging, C::Pass) => self.decide_swing_round(state, deal, seat, false),
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
            (Phase::Playing, _) => {
                Err(RuleViolation::wrong_phase("nu spelas korten", "the cards are being played"))
            }
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
            if let Some(old) = state.deal.take() {
                if old.blanked().next().is_some() {
                    state.masks.insert(old.number, RecordMask::of(&old));
                }
            }
            // The deal carries what it inherits, so it can be replayed on its own.
            state.deals_started = *deal_number;
            state.options = options.clone();
            state.lowest_rank = *lowest_rank;
            state.ledger = opening_ledger(balances);
            state.deal = Some(Deal {
                number: *deal_number,
                dealer: *dealer,
                forehand: *forehand,
                forced: *forced,
                deck: deck.clone(),
                dealt: hands.clone(),
                hands: hands.clone(),
                talon: talon.clone(),
                turned: Vec::new(),
                trumps: None,
                phase: if *forced { Phase::Playing } else { Phase::Swinging },
                swing_calls: Vec::new(),
                swinger: None,
                join_order: Vec::new(),
                join_calls: Vec::new(),
                in_play: vec![*forced; players],
                folded: vec![Vec::new(); players],
                buy_order: Vec::new(),
                buys: Vec::new(),
                discards: vec![Vec::new(); players],
                drawn: vec![Vec::new(); players],
                leader: *forehand,
                trick: Vec::new(),
                tricks: Vec::new(),
                tricks_taken: vec![0; players],
                opening_balances: balances.clone(),
                opening_pot: *pot,
                payments: Vec::new(),
                settlement: None,
            });
            return;
        }
        if let E::MatchEnded { winners, .. } = event {
            state.winners = Some(winners.clone());
            return;
        }
        let Some(deal) = state.deal.as_mut() else { return };
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
                deal.in_play[*seat] = true;
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
                if joined {
                    deal.in_play[*seat] = true;
                } else {
                    deal.folded[*seat] = std::mem::take(&mut deal.hands[*seat]);
                }
                if deal.join_calls.len() == deal.join_order.len() {
                    let swinger = deal.swinger.unwrap_or(*seat);
                    deal.buy_order =
                        table.order_from(swinger).into_iter().filter(|&s| deal.in_play[s]).collect();
                    deal.leader = swinger;
                    deal.phase = Phase::Buying;
                }
            }
            E::Bought { seat, discarded, drawn, .. } => {
                for c in discarded {
                    take_card(&mut deal.hands[*seat], *c);
                    deal.discards[*seat].push(*c);
                }
                for c in drawn {
                    take_card(&mut deal.talon, *c);
                    deal.hands[*seat].push(*c);
                    deal.drawn[*seat].push(*c);
                }
                sort_hand(&mut deal.hands[*seat]);
                deal.buys.push((*seat, BuyTurn::Bought(discarded.len())));
            }
            E::Stood { seat } => deal.buys.push((*seat, BuyTurn::Stood)),
            E::TalonRanOut { skipped } => deal.buys.extend(skipped.iter().map(|&s| (s, BuyTurn::Skipped))),
            E::CardPlayed { seat, card } | E::CardBlanked { seat, card, .. } => {
                take_card(&mut deal.hands[*seat], *card);
                deal.trick.push(Played {
                    seat: *seat,
                    card: *card,
                    blanked: matches!(event, E::CardBlanked { .. }),
                });
            }
            E::TrickWon { trick_number, winner, card, reason, .. } => {
                deal.tricks.push(TrickRecord {
                    number: *trick_number,
                    leader: deal.leader,
                    plays: std::mem::take(&mut deal.trick),
                    winner: *winner,
                    card: *card,
                    reason: *reason,
                });
                deal.tricks_taken[*winner] += 1;
                deal.leader = *winner;
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
        if !self.status(state).to_act().contains(&seat) {
            return Vec::new();
        }
        let Some(deal) = &state.deal else { return Vec::new() };
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
                let hand = &deal.hands[seat];
                let mut moves = vec![C::Stand];
                moves.extend(
                    subsets(hand)
                        .into_iter()
                        .filter(|d| d.len() <= deal.talon.len())
                        .map(|discard| C::Buy { discard }),
                );
                moves
            }
            Phase::Playing => {
                let Some(trumps) = deal.trumps else { return Vec::new() };
                let (face_up, face_down) =
                    playable(&deal.hands[seat], deal.trick_number(), &deal.trick, trumps);
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
        if let Some(hand) = state.deal.as_ref().and_then(|d| d.hands.get(seat)) {
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

    fn view(&self, state: &State, viewer: Viewer) -> Value {
        self.render(state, viewer, None)
    }

    fn record_view(&self, state: &State, seat: Option<Seat>) -> Value {
        self.render(state, Viewer::Record, seat)
    }

    // A masked deal's events as its record shows them: the mask already lets a seat see what it
    // held, so a seat's record is what it is shown of the events once the deal is over.
    fn record_event(&self, state: &State, event: &Event, seat: Option<Seat>) -> Value {
        self.redact(state, event, seat.map_or(Viewer::Record, Viewer::Seat), true)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        use Event as E;
        let mut full = serde_json::to_value(event).expect("events serialize");
        if viewer == Viewer::Record || deal_over {
            if let Some(mask) = event.deal_number().and_then(|n| self.record_mask(state, n)) {
                mask_cards(&mut full, &|c| mask.shows(c, viewer));
            }
            return full;
        }
        let Value::Object(map) = &mut full else { return full };
        let own = |s: Seat| viewer == Viewer::Seat(s);
        match event {
            E::DealStarted { hands, talon, .. } => {
                map.remove("deck");
                map.remove("talon");
                map.insert("talon_count".into(), json!(talon.len()));
                map.insert("hand_sizes".into(), json!(hands.iter().map(Vec::len).collect::<Vec<_>>()));
                let shown: Vec<Value> =
                    (0..hands.len()).map(|s| if own(s) { json!(hands[s]) } else { Value::Null }).collect();
                map.insert("hands".into(), Value::Array(shown));
            }
            E::Folded { seat, .. } if !own(*seat) => {
                map.insert("cards".into(), Value::Null);
            }
            E::Bought { seat, .. } if !own(*seat) => {
                map.insert("discarded".into(), Value::Null);
                map.insert("drawn".into(), Value::Null);
            }
            E::CardBlanked { seat, .. } if !own(*seat) => {
                map.insert("card".into(), Value::Null);
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deal else { return Vec::new() };
        let mut secrets = Vec::new();
        for s in 0..deal.players() {
            for &c in deal.hands[s].iter().chain(&deal.folded[s]).chain(&deal.discards[s]) {
                secrets.push((c, vec![s]));
            }
        }
        secrets.extend(deal.talon.iter().map(|&c| (c, Vec::new())));
        secrets.extend(deal.blanked().map(|p| (p.card, vec![p.seat])));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.ledger.check()?;
        let players = state.players();
        let balances = state.ledger.seats(players);
        if let Some(winners) = &state.winners {
            if state.pot() != 0 || state.deals_started < state.deals_scheduled() {
                return Err(format!(
                    "the match ended after {} deals with {} in the pot",
                    state.deals_started,
                    state.pot()
                ));
            }
            if *winners != match_winners(&balances) {
                return Err(format!("winners {winners:?} are not the seats furthest ahead in {balances:?}"));
            }
        }
        let Some(deal) = &state.deal else {
            return if state.ledger.total() == 0 && state.pot() == 0 {
                Ok(())
            } else {
                Err("chips moved before any deal".into())
            };
        };
        if deal.number != state.deals_started || deal.dealer != (deal.number as usize - 1) % players {
            return Err(format!(
                "deal {} dealt by seat {} after {} deals",
                deal.number, deal.dealer, state.deals_started
            ));
        }
        // The books: what the deal opened with plus its payments is what the ledger holds.
        let rebuilt = deal.balances_rebuilt();
        if rebuilt.seats(players) != balances || rebuilt.balance(Account::Pot) != state.pot() {
            return Err(format!(
                "the ledger {balances:?} / {} differs from the deal's payments",
                state.pot()
            ));
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

        // Every card is in exactly one place.
        let pack = state.pack();
        if !is_permutation(&deal.deck, &pack) {
            return Err("the recorded deck is not the pack".into());
        }
        let everywhere: Vec<Card> = deal
            .hands
            .iter()
            .chain(&deal.folded)
            .chain(&deal.discards)
            .flatten()
            .chain(&deal.talon)
            .chain(&deal.turned)
            .copied()
            .chain(deal.tricks.iter().flat_map(|t| t.plays.iter().map(|p| p.card)))
            .chain(deal.trick.iter().map(|p| p.card))
            .collect();
        if !is_permutation(&everywhere, &pack) {
            return Err(
                "the cards in hands, talon, turned cards, set-aside cards and tricks are not the pack".into(),
            );
        }
        let expected_turned = match (deal.forced, deal.phase, deal.swinger) {
            (true, _, _) => 1,
            (false, _, Some(_)) => 2,
            _ => 0,
        };
        // Between the swing (or the forced deal's start) and the turning of the cards.
        let not_yet = deal.turned.is_empty()
            && deal.trumps.is_none()
            && deal.tricks.is_empty()
            && deal.trick.is_empty();
        if deal.turned.len() != expected_turned && !not_yet {
            return Err(format!("{} cards turned up", deal.turned.len()));
        }
        if deal.trumps.is_some_and(|t| !deal.turned.iter().any(|c| c.is_suit(t))) {
            return Err("trumps are not the suit of a turned card".into());
        }

        // Who is in, and what they hold.
        if deal.forced && deal.in_play.iter().any(|&i| !i) {
            return Err("a seat sits out of a forced deal".into());
        }
        let played = |s: Seat| {
            deal.tricks.iter().flat_map(|t| &t.plays).chain(&deal.trick).filter(|p| p.seat == s).count()
        };
        for s in 0..players {
            if deal.discards[s].len() != deal.drawn[s].len() {
                return Err(format!(
                    "seat {s} put away {} cards but drew {}",
                    deal.discards[s].len(),
                    deal.drawn[s].len()
                ));
            }
            let folded = !deal.folded[s].is_empty();
            let held = deal.hands[s].len() + played(s) + deal.folded[s].len();
            if held != HAND || (folded && (deal.in_play[s] || !deal.hands[s].is_empty())) {
                return Err(format!(
                    "seat {s} holds {} cards, played {}, threw in {}",
                    deal.hands[s].len(),
                    played(s),
                    deal.folded[s].len()
                ));
            }
            if !deal.in_play[s] && played(s) > 0 {
                return Err(format!("seat {s} played without being in"));
            }
            let won = deal.tricks.iter().filter(|t| t.winner == s).count() as u32;
            if won != deal.tricks_taken[s] {
                return Err(format!("seat {s} is credited {} tricks but won {won}", deal.tricks_taken[s]));
            }
        }
        let in_count = deal.in_play.iter().filter(|&&i| i).count();
        if deal.swinger.is_some()
            && deal.phase != Phase::ChoosingTrumps
            && deal.phase != Phase::Joining
            && in_count < 2
        {
            return Err("the swinger plays alone".into());
        }
        if deal.tricks.len() > HAND || deal.trick.len() > in_count {
            return Err("more tricks or plays than the deal has".into());
        }
        // Each trick was checked when it was the latest: checking only that one keeps this linear.
        if let Some(t) = deal.tricks.last() {
            let trumps = deal.trumps.ok_or("a trick without trumps")?;
            let mut seat = t.leader;
            for p in &t.plays {
                if p.seat != seat {
                    return Err(format!("trick {} was not played in turn", t.number));
                }
                seat = next_in(&state.table, &deal.in_play, seat);
            }
            if t.plays.len() != in_count || trick_winner(&t.plays, trumps) != (t.winner, t.card, t.reason) {
                return Err(format!("trick {} went to the wrong seat", t.number));
            }
            if deal.leader != t.winner {
                return Err(format!(
                    "seat {} leads although seat {} took the last trick",
                    deal.leader, t.winner
                ));
            }
        }
        if deal.blanked().any(|p| p.card.suit() == deal.trumps)
            || deal.tricks.iter().filter(|t| t.number != 2).flat_map(|t| &t.plays).any(|p| p.blanked)
            || (deal.trick_number() != 2 && deal.trick.iter().any(|p| p.blanked))
        {
            return Err("a trump was blanked, or a card blanked outside the second trick".into());
        }
        match deal.phase {
            Phase::Over if deal.settlement.is_none() && (deal.swinger.is_some() || deal.forced) => {
                return Err("a played deal ended without a settlement".into())
            }
            Phase::Over if deal.settlement.is_some() && deal.tricks.len() != HAND => {
                return Err("the deal was settled before its three tricks".into())
            }
            Phase::Playing | Phase::Over
                if !deal.forced && deal.swinger.is_some() && deal.buys.len() != deal.buy_order.len() =>
            {
                return Err("play started before everyone in had their turn to buy".into())
            }
            Phase::Swinging | Phase::ChoosingTrumps | Phase::Joining | Phase::Buying
                if !deal.tricks.is_empty() || !deal.trick.is_empty() =>
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

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let moves = self.legal_moves(state, seat);
        match moves.len() {
            0 => None,
            1 => Some(moves[0].clone()),
            _ => {
                let deal = state.deal.as_ref()?;
                let choice = self.bot_choice(deal, seat, &moves, seed);
                Some(if moves.contains(&choice) { choice } else { moves[0].clone() })
            }
        }
    }
}

/// Every non-empty set of cards from `hand`, each in the hand's order.
fn subsets(hand: &[Card]) -> Vec<Vec<Card>> {
    (1u32..1 << hand.len())
        .map(|bits| hand.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0).map(|(_, &c)| c).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};
    use crate::game::{cards_in, erase};
    use crate::simulate::{random_matches, Driver, Plan};
    use super::Command as C;
    use super::Event as E;

    /// A deck that deals `fixed` hands (by seat) with `dealer` dealing and then puts `talon` on
    /// top of the talon; the other seats get the pack's spare cards, and the rest goes below.
    fn deck_for(players: usize, dealer: Seat, lowest: u8, fixed: &[(Seat, &str)], talon: &str) -> Vec<Card> {
        let talon = cards(talon);
        let fixed: Vec<(Seat, Vec<Card>)> = fixed.iter().map(|&(s, h)| (s, cards(h))).collect();
        let used: Vec<Card> =
            fixed.iter().flat_map(|(_, h)| h.clone()).chain(talon.iter().copied()).collect();
        let mut spare = pack(lowest).into_iter().filter(|c| !used.contains(c));
        let hands: Vec<Vec<Card>> = (0..players)
            .map(|s| match fixed.iter().find(|(f, _)| *f == s) {
                Some((_, h)) => h.clone(),
                None => spare.by_ref().take(HAND).collect(),
            })
            .collect();
        let mut deck: Vec<Card> =
            (0..HAND * players).map(|i| hands[(dealer + 1 + i % players) % players][i / players]).collect();
        deck.extend(talon);
        deck.extend(spare);
        deck
    }

    type Match = Driver<Svangknack>;

    impl Match {
        fn d(&self) -> &Deal {
            self.state.deal.as_ref().unwrap()
        }

        fn pot(&self) -> i64 {
            self.state.pot()
        }

        fn balances(&self) -> Vec<i64> {
            self.state.ledger.seats(self.state.players())
        }
    }

    fn play(code: &str) -> Command {
        C::Play { card: card(code) }
    }

    fn blank(code: &str) -> Command {
        C::Blank { card: card(code) }
    }

    fn buy(codes: &str) -> Command {
        C::Buy { discard: cards(codes) }
    }

    fn settled(events: &[Event]) -> (Vec<Payment>, Option<Seat>, bool, i64) {
        events
            .iter()
            .find_map(|e| match e {
                E::DealSettled { payments, rivet, pot_went_out, pot, .. } => {
                    Some((payments.clone(), *rivet, *pot_went_out, *pot))
                }
                _ => None,
            })
            .expect("the deal was settled")
    }

    fn shows(value: &Value, code: &str) -> bool {
        cards_in(value).contains(&card(code))
    }

    /// Four players, the forced first deal of the walkthrough below: spades are trumps.
    fn forced_four() -> Match {
        let mut m = Match::new(4, Options::default());
        m.deal(deck_for(
            4,
            0,
            6,
            &[(0, "6H 6C 6D"), (1, "AS KH 7C"), (2, "QS 8H 9C"), (3, "7S 8S TC")],
            "9S AD",
        ));
        m
    }

    /// Plays the forced deal of `forced_four` to its end: seat 1 takes the first trick, seat 3
    /// the other two; seats 0, 1 and 2 blank in the second.
    fn play_forced_four(m: &mut Match) -> Vec<Event> {
        let mut events = Vec::new();
        for (seat, c) in [(1, play("AS")), (2, play("QS")), (3, play("7S")), (0, play("6H"))] {
            events.extend(m.ok(seat, c));
        }
        for (seat, c) in [(1, blank("7C")), (2, blank("8H")), (3, play("8S")), (0, blank("6C"))] {
            events.extend(m.ok(seat, c));
        }
        for (seat, c) in [(3, play("TC")), (0, play("6D")), (1, play("KH")), (2, play("9C"))] {
            events.extend(m.ok(seat, c));
        }
        events
    }

    /// A four-player match after its forced first deal, with chips left in the pot.
    fn after_forced_four() -> Match {
        let mut m = forced_four();
        play_forced_four(&mut m);
        assert_eq!(m.pot(), 6);
        m
    }

    // --- The pack and the options ---------------------------------------------------------

    #[test]
    fn the_default_pack_is_36_cards_and_grows_above_six_players() {
        let lowest: Vec<u8> = (3..=12).map(auto_lowest_rank).collect();
        assert_eq!(lowest, [6, 6, 6, 6, 4, 2, 2, 2, 2, 2]);
        for n in 3..=12 {
            let size = pack_size(auto_lowest_rank(n));
            assert!(size >= cards_for_the_deal(n), "{n} players: the deal and the turned cards fit");
            if n <= 8 {
                assert!(
                    size >= cards_for_every_purchase(n) || n <= 6,
                    "{n} players: everyone can exchange everything"
                );
            }
            let game = Match::new(n, Options::default());
            assert_eq!(game.state.pack().len(), size);
        }
        assert_eq!(pack_size(6), 36);
        assert_eq!(pack_size(4), 44);
        assert_eq!(cards_for_every_purchase(7), 44);
        assert!(Svangknack.rulebook().rule(rule::AUTO_PACK).unwrap().house_rule);
    }

    #[test]
    fn options_have_defaults_and_bad_values_are_refused() {
        let game = erase(Svangknack);
        assert_eq!(
            game.normalize_options(&Value::Null).unwrap(),
            json!({"stake": 1, "lowest_rank": null, "rounds": 1})
        );
        assert_eq!(
            game.normalize_options(&json!({"lowest-rank": 4, "stake": 3})).unwrap(),
            json!({"stake": 3, "lowest_rank": 4, "rounds": 1})
        );
        assert!(game.normalize_options(&json!({"pot_limit": 10})).is_err());
        for bad in [
            json!({"stake": 0}),
            json!({"stake": -2}),
            json!({"rounds": 0}),
            json!({"lowest_rank": 7}),
            json!({"lowest_rank": 1}),
        ] {
            assert!(game.setup(4, &bad).is_err(), "{bad} accepted");
        }
        // Twelve players need 38 cards: 36 do not do, 40 do.
        assert!(game.setup(12, &json!({"lowest_rank": 6})).err().unwrap().0.contains("need 38"));
        assert!(game.setup(12, &json!({"lowest_rank": 5})).is_ok());
        assert!(game.setup(11, &json!({"lowest_rank": 6})).is_ok());
        assert!(game.setup(2, &Value::Null).is_err());
        assert!(game.setup(13, &Value::Null).is_err());
        let names: Vec<_> = Svangknack.options().iter().map(|o| o.name).collect();
        assert_eq!(names, ["stake", "lowest_rank", "rounds"]);
        let m = Match::new(5, Options { lowest_rank: Some(2), ..Default::default() });
        assert_eq!(Svangknack.status(&m.state), Status::NeedsDeck { composition: decks::standard52() });
    }

    // --- Stakes and the forced deal --------------------------------------------------------

    #[test]
    fn the_first_deal_is_forced_forehand_and_two_more_stake_and_the_top_card_is_trumps() {
        let m = forced_four();
        let E::DealStarted { dealer, forehand, forced, hands, talon, pot, .. } = &m.log[0] else { panic!() };
        assert_eq!((*dealer, *forehand, *forced, *pot), (0, 1, true, 0));
        // Three cards each, one at a time from the dealer's left.
        assert_eq!(hands[1], cards("7C KH AS"));
        assert_eq!(m.d().deck[0], card("AS"));
        assert_eq!(m.d().deck[1], card("QS"));
        assert_eq!(talon.len(), 36 - 12);
        let E::StakesPaid { payments, pot } = &m.log[1] else { panic!() };
        assert_eq!(*pot, 3);
        assert_eq!(payments.iter().map(|p| p.from).collect::<Vec<_>>(), [1, 2, 3].map(Account::Seat));
        assert!(payments
            .iter()
            .all(|p| p.rule == rule::THREE_STAKES && p.amount == 1 && p.to == Account::Pot));
        assert!(payments[0].explanation.en.contains("forehand"));
        assert_eq!(m.log[2], E::TrumpCardTurned { card: card("9S"), trumps: Suit::Spades });
        assert_eq!(m.d().in_seats(), [0, 1, 2, 3]);
        assert_eq!(m.to_act(), [1], "forehand leads in a forced deal");
        assert_eq!(m.balances(), [0, -1, -1, -1]);
        // Nobody swings, passes or buys.
        assert_eq!(m.refused(1, C::Swing).rule, rule::FORCED_ALL_PLAY);
        assert_eq!(m.refused(1, C::Pass).rule, rule::FORCED_ALL_PLAY);
        assert_eq!(m.refused(1, C::Join).rule, rule::FORCED_ALL_PLAY);
        assert_eq!(m.refused(1, buy("7C")).rule, rule::FORCED_NO_BUYING);
        assert_eq!(m.refused(1, C::Stand).rule, rule::FORCED_NO_BUYING);
        let view = Svangknack.view(&m.state, Viewer::Spectator);
        assert_eq!(
            (view["pot"].clone(), view["forced"].clone(), view["trumps"].clone()),
            (json!(3), json!(true), json!("spades"))
        );
        assert_eq!(view["turned_cards"], json!(["9S"]));
        assert_eq!(view["balances"], json!([0, -1, -1, -1]));
    }

    #[test]
    fn the_walkthrough_forced_deal_with_blanks_and_its_payment() {
        let mut m = forced_four();
        // Trick 1: anything may be led; follow suit.
        m.ok(1, play("AS"));
        assert_eq!(m.refused(2, play("8H")).rule, rule::FOLLOW_SUIT);
        assert_eq!(m.refused(2, blank("8H")).rule, rule::FACE_UP);
        m.ok(2, play("QS"));
        m.ok(3, play("7S"));
        assert_eq!(Svangknack.legal_moves(&m.state, 0).len(), 3, "void in spades: any card");
        let events = m.ok(0, play("6H"));
        assert!(matches!(
            events[1],
            E::TrickWon { trick_number: 1, winner: 1, reason: Won::HighestTrump, .. }
        ));

        // Trick 2: seat 1 has no trump left and must blank.
        assert_eq!(m.to_act(), [1]);
        let refusal = m.refused(1, play("KH"));
        assert_eq!(refusal.rule, rule::BLANK_LEAD);
        assert!(refusal.explanation.en.contains("must blank"));
        assert_eq!(Svangknack.legal_moves(&m.state, 1), [blank("7C"), blank("KH")]);
        let blanked = m.ok(1, blank("7C"));
        assert_eq!(blanked, [E::CardBlanked { deal_number: 1, seat: 1, card: card("7C") }]);
        // Seat 2 has no trump either: it blanks too, never plays face up.
        assert_eq!(m.refused(2, play("9C")).rule, rule::BLANK_FOLLOW);
        m.ok(2, blank("8H"));
        // Seat 3 holds a trump and must play it.
        assert_eq!(m.refused(3, blank("TC")).rule, rule::BLANK_FOLLOW);
        assert_eq!(m.refused(3, play("TC")).rule, rule::BLANK_FOLLOW);
        assert_eq!(Svangknack.legal_moves(&m.state, 3), [play("8S")]);
        m.ok(3, play("8S"));
        let events = m.ok(0, blank("6C"));
        let E::TrickWon { winner, card: won_with, reason, plays, .. } = &events[1] else { panic!() };
        assert_eq!((*winner, *won_with, *reason), (3, Some(card("8S")), Won::HighestTrump));
        assert!(
            plays.iter().filter(|p| p.blanked).all(|p| p.card.is_none()),
            "the record names no blanked card"
        );

        // Trick 3 is normal again: no blanking.
        assert_eq!(m.refused(3, blank("TC")).rule, rule::FACE_UP);
        m.ok(3, play("TC"));
        m.ok(0, play("6D"));
        m.ok(1, play("KH"));
        let events = m.ok(2, play("9C"));
        let (payments, rivet, out, pot) = settled(&events);
        // The pot of 3: a third per trick, and the two without a trick pay 3 each.
        let moves: Vec<(Account, Account, i64, &str)> =
            payments.iter().map(|p| (p.from, p.to, p.amount, p.rule.as_str())).collect();
        assert_eq!(
            moves,
            [
                (Account::Pot, Account::Seat(1), 1, rule::SHARE),
                (Account::Pot, Account::Seat(3), 2, rule::SHARE),
                (Account::Seat(0), Account::Pot, 3, rule::FORFEIT),
                (Account::Seat(2), Account::Pot, 3, rule::FORFEIT),
            ]
        );
        assert!(payments[1].explanation.en.contains("2 thirds of the pot of 3"));
        assert_eq!((rivet, out, pot), (None, false, 6));
        assert_eq!(m.balances(), [-3, 0, -4, 1]);
        assert_eq!(m.pot(), 6);
        assert_eq!(m.d().phase, Phase::Over);
        assert!(matches!(Svangknack.status(&m.state), Status::NeedsDeck { .. }));
    }

    // --- The blanked card stays hidden ------------------------------------------------------

    #[test]
    fn a_blanked_card_is_known_only_to_its_owner_during_the_deal() {
        let mut m = forced_four();
        for (seat, c) in [(1, play("AS")), (2, play("QS")), (3, play("7S")), (0, play("6H"))] {
            m.ok(seat, c);
        }
        let event = m.ok(1, blank("7C")).remove(0);
        for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Seat(3), Viewer::Spectator] {
            let shown = Svangknack.redact(&m.state, &event, viewer, false);
            assert_eq!(shown, json!({"type": "card_blanked", "deal_number": 1, "seat": 1, "card": null}));
            let view = Svangknack.view(&m.state, viewer);
            assert!(!shows(&view, "7C"), "{viewer:?} sees the blanked card");
            assert_eq!(view["trick"]["plays"], json!([{"seat": 1, "card": null, "blanked": true}]));
        }
        assert_eq!(Svangknack.redact(&m.state, &event, Viewer::Seat(1), false)["card"], "7C");
        let own = Svangknack.view(&m.state, Viewer::Seat(1));
        assert_eq!(own["trick"]["plays"], json!([{"seat": 1, "card": "7C", "blanked": true}]));
        assert_eq!(own["blanked"], json!(["7C"]));
        assert!(Svangknack.secrets(&m.state).contains(&(card("7C"), vec![1])));
    }

    #[test]
    fn a_blanked_card_stays_hidden_in_the_record_for_ever() {
        let mut m = forced_four();
        play_forced_four(&mut m);
        let deal_events: Vec<Event> = m.log.clone();
        let hidden = ["7C", "8H", "6C"];
        // After the deal the secrets still say who knows each blanked card.
        let secrets = Svangknack.secrets(&m.state);
        for (code, owner) in hidden.iter().zip([1, 2, 0]) {
            assert!(secrets.contains(&(card(code), vec![owner])), "{code}");
        }
        let check = |m: &Match| {
            let record = Svangknack.view(&m.state, Viewer::Record);
            for event in &deal_events {
                for viewer in [Viewer::Record, Viewer::Spectator, Viewer::Seat(3)] {
                    let shown = Svangknack.redact(&m.state, event, viewer, true);
                    assert!(
                        hidden.iter().all(|c| !shows(&shown, c)),
                        "{viewer:?} sees a blanked card in {shown}"
                    );
                }
                // Its owner still sees it, and nobody else's.
                let own = Svangknack.redact(&m.state, event, Viewer::Seat(1), true);
                assert!(!shows(&own, "8H") && !shows(&own, "6C"));
            }
            record
        };
        let record = check(&m);
        assert!(hidden.iter().all(|c| !shows(&record, c)));
        // The talon was never seen: showing it would give the blanked cards away by elimination.
        assert!(!shows(&record, "AD"));
        // What lay face up is in the record.
        for code in ["AS", "QS", "7S", "6H", "8S", "TC", "9S"] {
            assert!(shows(&record["tricks"], code) || shows(&record["turned_cards"], code), "{code}");
        }
        let start = Svangknack.redact(&m.state, &deal_events[0], Viewer::Seat(1), true);
        assert!(shows(&start, "7C") && shows(&start, "KH"), "the owner sees its own hand");
        // Seat 2 held 9C 8H QS: the blanked 8H is masked; 9C and QS were played face up.
        assert_eq!(start["hands"][2], json!(["9C", null, "QS"]));

        // Deals later the old record is still masked.
        m.deal(deck_for(4, 1, 6, &[], "AH KD"));
        check(&m);
        assert_eq!(m.state.masks.keys().copied().collect::<Vec<_>>(), [1]);
    }

    /// The rule `svangknack.house.record`: each player is shown the cards they held themselves,
    /// blanked ones included, where everyone else sees only what lay face up.
    #[test]
    fn a_masked_record_shows_each_player_the_cards_they_held() {
        let mut m = forced_four();
        play_forced_four(&mut m);
        let record = |seat| Svangknack.record_view(&m.state, seat);
        assert_eq!(record(None), Svangknack.view(&m.state, Viewer::Record), "nobody in particular sees the record");
        let own = record(Some(1));
        assert_eq!(own["hands_dealt"][1], json!(["7C", "KH", "AS"]));
        assert_eq!(own["hands_dealt"][2], json!(["9C", null, "QS"]));
        assert_eq!(own["tricks"][1]["plays"][0], json!({"seat": 1, "card": "7C", "blanked": true}));
        assert_eq!(own["tricks"][1]["plays"][1], json!({"seat": 2, "card": null, "blanked": true}));
        assert!(!shows(&own, "8H") && !shows(&own, "6C") && !shows(&own, "AD"));
        let other = record(Some(3));
        assert!(["7C", "8H", "6C", "AD"].iter().all(|c| !shows(&other, c)));
        assert_eq!(other["hands_dealt"][3], json!(["TC", "7S", "8S"]));
        for e in &m.log {
            let as_record = Svangknack.record_event(&m.state, e, None);
            assert_eq!(as_record, Svangknack.redact(&m.state, e, Viewer::Record, true));
            let mine = Svangknack.record_event(&m.state, e, Some(2));
            assert!(!shows(&mine, "7C") && !shows(&mine, "6C"), "{mine}");
            if let E::CardBlanked { seat: 2, .. } = e {
                assert_eq!(mine["card"], "8H");
                assert_eq!(as_record["card"], Value::Null);
            }
        }
        let start = Svangknack.record_event(&m.state, &m.log[0], Some(2));
        assert_eq!(start["hands"][2], json!(["9C", "8H", "QS"]));
        assert_eq!(start["hands"][1], json!([null, "KH", "AS"]));
        // Through the erased layer, as the service asks for it.
        let game = erase(Svangknack);
        let mut erased = game.setup(4, &Value::Null).unwrap();
        m.log.iter().for_each(|e| erased.apply(&serde_json::to_value(e).unwrap()).unwrap());
        assert_eq!(erased.record_view(Some(1)), own);
        assert_eq!(erased.record_view(None), erased.view(Viewer::Record));
    }

    #[test]
    fn a_deal_without_a_blank_opens_its_record_in_full() {
        let mut m = after_forced_four();
        let start = m.log.len();
        m.deal(deck_for(4, 1, 6, &[], "AH KD"));
        m.ok(2, C::Pass);
        m.ok(3, C::Pass);
        for e in &m.log[start..] {
            assert_eq!(
                Svangknack.redact(&m.state, e, Viewer::Record, true),
                serde_json::to_value(e).unwrap()
            );
        }
        let record = Svangknack.view(&m.state, Viewer::Record);
        assert_eq!(record["deck"], json!(m.d().deck));
        assert_eq!(record["talon"], json!(m.d().talon));
    }

    // --- Swinging -------------------------------------------------------------------------------

    #[test]
    fn with_chips_in_the_pot_the_three_stake_again_and_forehand_may_swing() {
        let mut m = after_forced_four();
        let events = m.deal(deck_for(4, 1, 6, &[], "AH KD"));
        let E::DealStarted { dealer, forehand, forced, pot, balances, .. } = &events[0] else { panic!() };
        assert_eq!((*dealer, *forehand, *forced, *pot), (1, 2, false, 6));
        assert_eq!(balances, &[-3, 0, -4, 1]);
        let E::StakesPaid { payments, pot } = &events[1] else { panic!() };
        assert_eq!(payments.iter().map(|p| p.from).collect::<Vec<_>>(), [2, 3, 0].map(Account::Seat));
        assert_eq!(*pot, 9);
        assert_eq!(events.len(), 2, "no trump card is turned without tvång");
        assert_eq!(m.d().phase, Phase::Swinging);
        assert_eq!(m.to_act(), [2]);
        assert_eq!(Svangknack.legal_moves(&m.state, 2), [C::Swing, C::Pass]);
        assert_eq!(m.refused(3, C::Swing).rule, core::TURN);
        assert_eq!(m.refused(2, C::Join).rule, core::PHASE);
        assert_eq!(m.refused(2, play("AS")).rule, core::PHASE);
    }

    #[test]
    fn when_both_pass_the_deal_ends_and_the_pot_stays() {
        let mut m = after_forced_four();
        m.deal(deck_for(4, 1, 6, &[], "AH KD"));
        assert_eq!(m.ok(2, C::Pass), [E::SwingPassed { seat: 2 }]);
        assert_eq!(m.to_act(), [3]);
        assert_eq!(m.ok(3, C::Pass), [E::SwingPassed { seat: 3 }, E::NobodySwung { pot: 9 }]);
        assert_eq!(m.d().phase, Phase::Over);
        assert_eq!(m.pot(), 9);
        // The deal passes on, the three stake again and it is not forced.
        let events = m.deal(deck_for(4, 2, 6, &[], "AH KD"));
        let E::DealStarted { dealer, forced, .. } = &events[0] else { panic!() };
        assert_eq!((*dealer, *forced), (2, false));
        assert_eq!(m.pot(), 12);
        assert_eq!(m.to_act(), [3]);
    }

    /// Deal 2 of four players: seat 1 deals, seat 2 is forehand; the talon starts `turned`.
    fn swing_deal(turned: &str) -> Match {
        let mut m = after_forced_four();
        m.deal(deck_for(
            4,
            1,
            6,
            &[(2, "AH 7H 6S"), (3, "KS QS 9D"), (0, "8C 9C TC"), (1, "JD QD KD")],
            turned,
        ));
        m
    }

    #[test]
    fn the_swinger_chooses_trumps_from_two_turned_cards() {
        let mut m = swing_deal("JH AD 6D 7D 8D");
        let events = m.ok(2, C::Swing);
        assert_eq!(events, [E::Swung { seat: 2 }, E::CardsTurned { cards: cards("JH AD") }]);
        assert_eq!(m.to_act(), [2]);
        assert_eq!(
            Svangknack.legal_moves(&m.state, 2),
            [C::ChooseTrumps { suit: Suit::Diamonds }, C::ChooseTrumps { suit: Suit::Hearts }]
        );
        let refusal = m.refused(2, C::ChooseTrumps { suit: Suit::Clubs });
        assert_eq!(refusal.rule, rule::CHOOSE_TRUMPS);
        assert!(refusal.explanation.en.contains("JH and AD"));
        assert_eq!(m.refused(2, C::Join).rule, core::PHASE);
        m.ok(2, C::ChooseTrumps { suit: Suit::Hearts });
        assert_eq!(m.d().trumps, Some(Suit::Hearts));
        assert_eq!(m.d().join_order, [3, 0, 1]);
        assert_eq!(m.to_act(), [3]);
        let view = Svangknack.view(&m.state, Viewer::Seat(0));
        assert_eq!(view["turned_cards"], json!(["JH", "AD"]));
        assert_eq!(view["swinger"], 2);
        assert_eq!(view["talon_count"], 36 - 12 - 2);
    }

    #[test]
    fn two_turned_cards_of_one_suit_make_trumps_without_a_choice() {
        let mut m = swing_deal("JH 8H");
        let events = m.ok(2, C::Swing);
        assert_eq!(events[2], E::TrumpsChosen { seat: 2, suit: Suit::Hearts, automatic: true });
        assert_eq!(m.d().phase, Phase::Joining);
    }

    #[test]
    fn if_forehand_swings_and_all_pass_the_dealer_must_join() {
        let mut m = swing_deal("JH 8H");
        m.ok(2, C::Swing);
        let folded = m.ok(3, C::Pass);
        assert_eq!(folded, [E::Folded { deal_number: 2, seat: 3, cards: cards("9D QS KS") }]);
        assert!(m.d().hands[3].is_empty() && !m.d().in_play[3]);
        m.ok(0, C::Pass);
        // Seat 1 deals and speaks last: with everyone else out it must knock.
        assert_eq!(m.to_act(), [1]);
        assert_eq!(Svangknack.legal_moves(&m.state, 1), [C::Join]);
        let refusal = m.refused(1, C::Pass);
        assert_eq!(refusal.rule, rule::FORCED_JOIN);
        assert!(refusal.explanation.en.contains("seat 2 swung"));
        assert_eq!(m.ok(1, C::Join), [E::Joined { seat: 1, forced: true }]);
        assert_eq!(m.d().in_seats(), [1, 2]);
        assert_eq!(m.d().buy_order, [2, 1]);
        assert_eq!(m.to_act(), [2]);
    }

    #[test]
    fn if_the_next_player_swings_and_all_pass_forehand_must_join() {
        let mut m = swing_deal("JH 8H");
        m.ok(2, C::Pass);
        m.ok(3, C::Swing);
        assert_eq!(m.d().join_order, [0, 1, 2], "forehand speaks last");
        m.ok(0, C::Pass);
        m.ok(1, C::Pass);
        assert_eq!(m.refused(2, C::Pass).rule, rule::FORCED_JOIN);
        assert_eq!(m.ok(2, C::Join), [E::Joined { seat: 2, forced: true }]);
        assert_eq!(m.d().buy_order, [3, 2]);
        assert_eq!(m.to_act(), [3]);
    }

    #[test]
    fn once_someone_has_joined_the_last_speaker_may_pass() {
        let mut m = swing_deal("JH 8H");
        m.ok(2, C::Swing);
        assert_eq!(m.ok(3, C::Join), [E::Joined { seat: 3, forced: false }]);
        m.ok(0, C::Pass);
        assert_eq!(Svangknack.legal_moves(&m.state, 1), [C::Join, C::Pass]);
        m.ok(1, C::Pass);
        assert_eq!(m.d().buy_order, [2, 3]);
    }

    #[test]
    fn a_thrown_in_hand_is_seen_only_by_its_owner() {
        let mut m = swing_deal("JH 8H");
        m.ok(2, C::Swing);
        let event = m.ok(3, C::Pass).remove(0);
        assert_eq!(Svangknack.redact(&m.state, &event, Viewer::Seat(0), false)["cards"], Value::Null);
        assert_eq!(
            Svangknack.redact(&m.state, &event, Viewer::Seat(3), false)["cards"],
            json!(["9D", "QS", "KS"])
        );
        assert_eq!(Svangknack.view(&m.state, Viewer::Seat(3))["thrown_in"], json!(["9D", "QS", "KS"]));
        assert!(Svangknack.secrets(&m.state).contains(&(card("KS"), vec![3])));
        assert_eq!(Svangknack.view(&m.state, Viewer::Spectator)["folded"], json!([3]));
    }

    // --- Buying -----------------------------------------------------------------------------------

    #[test]
    fn those_in_buy_once_each_from_the_swinger_clockwise() {
        let mut m = swing_deal("JH 8H 6C 7C 8S 9S");
        m.ok(2, C::Swing);
        m.ok(3, C::Join);
        m.ok(0, C::Join);
        m.ok(1, C::Pass);
        assert_eq!(m.d().buy_order, [2, 3, 0]);
        assert_eq!(m.to_act(), [2]);
        assert_eq!(m.refused(3, C::Stand).rule, core::TURN);
        assert_eq!(m.refused(2, buy("")).rule, rule::EXCHANGE);
        assert_eq!(m.refused(2, buy("7H 7H")).rule, rule::EXCHANGE);
        assert_eq!(m.refused(2, buy("KS")).rule, core::CARD_NOT_HELD);
        assert_eq!(m.refused(2, play("AH")).rule, core::PHASE);
        // Any number of cards, in any order; drawn from the top, below the turned cards.
        assert_eq!(Svangknack.legal_moves(&m.state, 2).len(), 1 + 7);
        let events = m.ok(2, buy("7H 6S"));
        assert_eq!(
            events,
            [E::Bought {
                deal_number: 2,
                seat: 2,
                count: 2,
                discarded: cards("7H 6S"),
                drawn: cards("6C 7C")
            }]
        );
        assert_eq!(m.d().hands[2], cards("6C 7C AH"));
        let others = Svangknack.redact(&m.state, &events[0], Viewer::Seat(3), false);
        assert_eq!(
            others,
            json!({"type": "bought", "deal_number": 2, "seat": 2, "count": 2, "discarded": null, "drawn": null})
        );
        assert!(Svangknack.secrets(&m.state).contains(&(card("7H"), vec![2])));
        assert_eq!(Svangknack.view(&m.state, Viewer::Seat(2))["discards"], json!(["7H", "6S"]));
        // Only once.
        assert_eq!(m.refused(2, C::Stand).rule, core::TURN);
        assert_eq!(m.ok(3, C::Stand), [E::Stood { seat: 3 }]);
        m.ok(0, buy("TC 8C 9C"));
        assert_eq!(m.d().drawn[0][..2], cards("8S 9S"));
        assert_eq!(m.d().hands[0].len(), 3);
        // The swinger leads the first trick, any card.
        assert_eq!(m.d().phase, Phase::Playing);
        assert_eq!(m.to_act(), [2]);
        assert_eq!(Svangknack.legal_moves(&m.state, 2), [play("6C"), play("7C"), play("AH")]);
        let spectator = Svangknack.view(&m.state, Viewer::Spectator);
        assert_eq!(
            spectator["buys"],
            json!([{"seat": 2, "turn": {"kind": "bought", "count": 2}}, {"seat": 3, "turn": {"kind": "stood"}}, {"seat": 0, "turn": {"kind": "bought", "count": 3}}])
        );
    }

    #[test]
    fn when_the_talon_runs_out_the_rest_cannot_buy() {
        // Ten players with 36 cards: 30 dealt, 2 turned, 4 left to buy.
        let options = Options { lowest_rank: Some(6), ..Default::default() };
        let mut m = Match::new(10, options);
        m.deal(pack(6));
        m.finish_deal();
        assert!(m.pot() > 0);
        m.deal(deck_for(10, 1, 6, &[], "JH 8H"));
        assert_eq!(m.d().talon.len(), 6);
        m.ok(2, C::Swing);
        // Seats 3 to 5 join, the others pass.
        for seat in [3, 4, 5, 6, 7, 8, 9, 0, 1] {
            m.ok(seat, if (3..=5).contains(&seat) { C::Join } else { C::Pass });
        }
        assert_eq!(m.d().buy_order, [2, 3, 4, 5]);
        let three = m.d().hands[2].clone();
        m.ok(2, C::Buy { discard: three });
        assert_eq!(m.d().talon.len(), 1);
        // Seat 3 wants two but only one is left.
        let two = m.d().hands[3][..2].to_vec();
        let refusal = m.refused(3, C::Buy { discard: two });
        assert_eq!(refusal.rule, rule::TALON_OUT);
        assert!(refusal.explanation.en.contains("holds only 1"));
        assert!(Svangknack
            .legal_moves(&m.state, 3)
            .iter()
            .all(|c| !matches!(c, C::Buy { discard } if discard.len() > 1)));
        let one = m.d().hands[3][..1].to_vec();
        let events = m.ok(3, C::Buy { discard: one });
        assert!(matches!(events[1], E::TalonRanOut { ref skipped } if skipped == &[4, 5]));
        assert_eq!(m.d().phase, Phase::Playing);
        assert_eq!(m.to_act(), [2]);
        assert_eq!(
            Svangknack.view(&m.state, Viewer::Spectator)["buys"][2],
            json!({"seat": 4, "turn": {"kind": "skipped"}})
        );
    }

    // --- Play -------------------------------------------------------------------------------------

    #[test]
    fn the_winner_of_the_first_trick_must_lead_a_trump() {
        // Hearts are trumps; seat 2 swings, seat 1 (the dealer) is forced in.
        let mut m = swing_deal("JH 8H");
        m.ok(2, C::Swing);
        m.ok(3, C::Pass);
        m.ok(0, C::Pass);
        m.ok(1, C::Join);
        m.ok(2, C::Stand);
        m.ok(1, C::Stand);
        m.ok(2, play("6S"));
        m.ok(1, play("JD"));
        // Seat 2 took it with the only spade; now it holds AH and 7H.
        assert_eq!(m.to_act(), [2]);
        assert_eq!(m.refused(2, blank("AH")).rule, rule::TRUMP_LEAD);
        assert_eq!(Svangknack.legal_moves(&m.state, 2), [play("7H"), play("AH")]);
        m.ok(2, play("7H"));
        // Seat 1 has no hearts: it must blank, and its blank cannot win.
        assert_eq!(m.refused(1, play("QD")).rule, rule::BLANK_FOLLOW);
        let events = m.ok(1, blank("KD"));
        assert!(matches!(
            events[1],
            E::TrickWon { trick_number: 2, winner: 2, reason: Won::HighestTrump, .. }
        ));
        m.ok(2, play("AH"));
        let events = m.ok(1, play("QD"));
        // Rivet: one player took all three tricks and takes the whole pot of 9.
        let (payments, rivet, out, pot) = settled(&events);
        assert_eq!(rivet, Some(2));
        assert_eq!(
            payments[0],
            Payment::new(
                Account::Pot,
                Account::Seat(2),
                9,
                rule::RIVET,
                payments[0].explanation.sv.clone(),
                payments[0].explanation.en.clone()
            )
        );
        assert!(payments[0].explanation.en.contains("rivet"));
        assert_eq!(
            (payments[1].from, payments[1].amount, payments[1].rule.as_str()),
            (Account::Seat(1), 9, rule::FORFEIT)
        );
        assert_eq!((out, pot), (false, 9));
        assert_eq!(m.pot(), 9);
    }

    #[test]
    fn a_blanked_lead_wins_unless_someone_trumps_and_blanked_followers_are_worthless() {
        let p = |seat, code: &str, blanked| Played { seat, card: card(code), blanked };
        // Nobody trumps: the blanked lead wins, whatever the others blanked.
        let trick = [p(1, "6C", true), p(2, "AD", true), p(3, "AC", true)];
        assert_eq!(trick_winner(&trick, Suit::Hearts), (1, None, Won::BlankedLead));
        // The lowest trump beats a blanked lead.
        let trick = [p(1, "6C", true), p(2, "7H", false), p(3, "AC", true)];
        assert_eq!(trick_winner(&trick, Suit::Hearts), (2, Some(card("7H")), Won::HighestTrump));
        // A trump lead followed by blanks: the leader wins.
        let trick = [p(1, "6H", false), p(2, "AS", true), p(3, "AC", true)];
        assert_eq!(trick_winner(&trick, Suit::Hearts), (1, Some(card("6H")), Won::HighestTrump));
        // Ordinary tricks: highest trump, else highest of the suit led.
        let trick = [p(1, "KC", false), p(2, "AC", false), p(3, "6H", false)];
        assert_eq!(trick_winner(&trick, Suit::Hearts).0, 3);
        let trick = [p(1, "KC", false), p(2, "AC", false), p(3, "AS", false)];
        assert_eq!(trick_winner(&trick, Suit::Hearts), (2, Some(card("AC")), Won::HighestOfSuitLed));
    }

    #[test]
    fn the_blank_rules_as_pure_functions() {
        let hearts = Suit::Hearts;
        let hand = cards("6H 9C AS");
        assert_eq!(playable(&hand, 2, &[], hearts), (cards("6H"), vec![]));
        assert_eq!(playable(&cards("9C AS"), 2, &[], hearts), (vec![], cards("9C AS")));
        let led = [Played { seat: 0, card: card("KC"), blanked: false }];
        assert_eq!(playable(&hand, 1, &led, hearts), (cards("9C"), vec![]));
        assert_eq!(playable(&hand, 3, &led, hearts), (cards("9C"), vec![]));
        assert_eq!(playable(&cards("6H AS"), 3, &led, hearts).0, cards("6H AS"));
    }

    // --- Payment ----------------------------------------------------------------------------------

    #[test]
    fn each_trick_takes_a_third_and_those_without_pay_the_pot() {
        let s = settle(12, &[0, 2, 3], &[1, 0, 2, 0]);
        let amounts: Vec<(Account, Account, i64)> =
            s.payments.iter().map(|p| (p.from, p.to, p.amount)).collect();
        assert_eq!(
            amounts,
            [
                (Account::Pot, Account::Seat(0), 4),
                (Account::Pot, Account::Seat(2), 8),
                (Account::Seat(3), Account::Pot, 12)
            ]
        );
        assert_eq!((s.rivet, s.pot_went_out, s.pot), (None, false, 12));
    }

    #[test]
    fn when_everyone_in_took_a_trick_the_pot_goes_out_and_the_next_deal_is_forced() {
        let s = settle(9, &[0, 1, 2], &[1, 1, 1]);
        assert_eq!((s.pot_went_out, s.pot, s.payments.len()), (true, 0, 3));
        // Three players, each takes one trick of the forced first deal.
        let mut m = Match::new(3, Options::default());
        m.deal(deck_for(3, 0, 6, &[(1, "AS 7H 7C"), (2, "KS 8S 8C"), (0, "QS 9H AC")], "9S"));
        for (seat, c) in [
            (1, play("AS")),
            (2, play("KS")),
            (0, play("QS")),
            (1, blank("7H")),
            (2, play("8S")),
            (0, blank("9H")),
        ] {
            m.ok(seat, c);
        }
        for (seat, c) in [(2, play("8C")), (0, play("AC"))] {
            m.ok(seat, c);
        }
        let (_, rivet, out, pot) = settled(&m.ok(1, play("7C")));
        assert_eq!((rivet, out, pot), (None, true, 0));
        assert_eq!(m.balances(), [0, 0, 0]);
        let events = m.deal(pack(6));
        let E::DealStarted { forced, dealer, .. } = &events[0] else { panic!() };
        assert_eq!((*forced, *dealer), (true, 1));
        assert!(matches!(events[2], E::TrumpCardTurned { .. }));
    }

    #[test]
    fn an_indivisible_pot_leaves_its_remainder_and_rivet_takes_it_all() {
        let s = settle(10, &[0, 1], &[1, 2]);
        assert_eq!(s.payments.iter().map(|p| p.amount).collect::<Vec<_>>(), [3, 6]);
        assert_eq!((s.pot, s.pot_went_out), (1, false));
        let s = settle(10, &[0, 1], &[3, 0]);
        assert_eq!(
            s.payments.iter().map(|p| (p.amount, p.rule.as_str())).collect::<Vec<_>>(),
            [(10, rule::RIVET), (10, rule::FORFEIT)]
        );
        assert_eq!(s.pot, 10);
        assert!(Svangknack.rulebook().rule(rule::INDIVISIBLE).unwrap().house_rule);
    }

    // --- The match ------------------------------------------------------------------------------------

    #[test]
    fn the_match_ends_when_the_pot_goes_out_after_the_scheduled_deals() {
        for seed in 0..10 {
            let mut m = Match::new(3, Options { rounds: 2, ..Default::default() });
            let mut deck = pack(6);
            let mut rng = crate::random::Rng::new(seed);
            while !Svangknack.status(&m.state).is_finished() {
                rng.shuffle(&mut deck);
                m.deal(deck.clone());
                let events = m.finish_deal();
                let after = m.state.deals_started >= 6 && m.pot() == 0;
                assert_eq!(events.iter().any(|e| matches!(e, E::MatchEnded { .. })), after);
                assert!(m.state.deals_started < 200, "seed {seed}: no end in sight");
            }
            let balances = m.balances();
            assert_eq!(balances.iter().sum::<i64>(), 0);
            let Status::Finished { outcome } = Svangknack.status(&m.state) else { panic!() };
            assert_eq!(outcome.winners, match_winners(&balances));
            assert_eq!(m.refusal_served(0, C::Swing).rule, core::MATCH_OVER);
            assert!(m.try_deal(pack(6)).is_err());
        }
        assert_eq!(match_winners(&[3, -4, 3, -2]), [0, 2]);
    }

    #[test]
    fn commands_and_events_have_their_json_shapes() {
        for (text, command) in [
            (json!({"type": "swing"}), C::Swing),
            (json!({"type": "pass"}), C::Pass),
            (json!({"type": "choose_trumps", "suit": "hearts"}), C::ChooseTrumps { suit: Suit::Hearts }),
            (json!({"type": "join"}), C::Join),
            (json!({"type": "buy", "discard": ["7C", "6H"]}), buy("7C 6H")),
            (json!({"type": "stand"}), C::Stand),
            (json!({"type": "play", "card": "AS"}), play("AS")),
            (json!({"type": "blank", "card": "7D"}), blank("7D")),
        ] {
            assert_eq!(serde_json::from_value::<Command>(text.clone()).unwrap(), command);
            assert_eq!(serde_json::to_value(&command).unwrap(), text);
        }
        let e = E::TrickWon {
            trick_number: 2,
            winner: 1,
            card: None,
            reason: Won::BlankedLead,
            plays: vec![
                TrickPlay { seat: 1, card: None, blanked: true },
                TrickPlay { seat: 2, card: None, blanked: true },
            ],
        };
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({"type": "trick_won", "trick_number": 2, "winner": 1, "card": null, "reason": "blanked-lead",
                   "plays": [{"seat": 1, "card": null, "blanked": true}, {"seat": 2, "card": null, "blanked": true}]})
        );
        let m = after_forced_four();
        let settled = m.log.iter().find(|e| matches!(e, E::DealSettled { .. })).unwrap();
        let v = serde_json::to_value(settled).unwrap();
        assert_eq!(v["type"], "deal_settled");
        assert_eq!(v["payments"][0]["from"], "pot");
        assert_eq!(v["payments"][0]["to"], json!({"seat": 1}));
        assert_eq!(v["payments"][0]["rule"], rule::SHARE);
        assert!(v["payments"][0]["explanation"]["sv"].as_str().unwrap().contains("tredjedel"));
    }

    #[test]
    fn deal_started_shows_each_seat_only_its_own_hand() {
        let m = forced_four();
        let e = &m.log[0];
        let own = Svangknack.redact(&m.state, e, Viewer::Seat(1), false);
        assert!(own.get("deck").is_none() && own.get("talon").is_none());
        assert_eq!(own["talon_count"], 24);
        assert_eq!(own["hands"], json!([null, ["7C", "KH", "AS"], null, null]));
        assert_eq!(
            Svangknack.redact(&m.state, e, Viewer::Spectator, false)["hands"],
            json!([null, null, null, null])
        );
        let view = Svangknack.view(&m.state, Viewer::Seat(1));
        assert_eq!(view["hand"], json!(["7C", "KH", "AS"]));
        assert!(view.get("hands").is_none() && view.get("deck").is_none());
        // Before any blank the record is whole.
        assert_eq!(Svangknack.view(&m.state, Viewer::Record)["hands"].as_array().unwrap().len(), 4);
        let secrets = Svangknack.secrets(&m.state);
        assert_eq!(secrets.len(), 35, "all but the turned card");
        assert!(secrets.iter().all(|(c, who)| *c != card("9S") && who.len() <= 1));
    }

    // --- Random matches ------------------------------------------------------------------------------

    /// Replays a match log through the typed rules and checks what the harness cannot: the
    /// stakes, the pot's arithmetic, the end of the match, and that a blanked card never shows
    /// in any record, at the deal's end or at the match's.
    fn check_log(players: usize, options: &Value, book: &Rulebook, log: &[Value]) {
        let options: Options = serde_json::from_value(options.clone()).unwrap();
        let stake = options.stake;
        let mut state = Svangknack.setup(players, options).unwrap();
        let mut deals: Vec<(u32, Vec<Event>)> = Vec::new();
        let mut blanked: Vec<(u32, Seat, Card)> = Vec::new();
        let mut ended = false;
        for value in log {
            let event: Event = serde_json::from_value(value.clone()).unwrap();
            if let E::DealStarted { deal_number, pot, forced, .. } = &event {
                assert_eq!(*forced, *pot == 0);
                deals.push((*deal_number, Vec::new()));
            }
            let number = deals.last().unwrap().0;
            deals.last_mut().unwrap().1.push(event.clone());
            Svangknack.evolve(&mut state, &event);
            assert_eq!(state.pot() % 3, 0, "the pot always divides by three");
            match &event {
                E::StakesPaid { payments, .. } => {
                    let forehand = state.deal.as_ref().unwrap().forehand;
                    let from: Vec<Account> = payments.iter().map(|p| p.from).collect();
                    assert_eq!(
                        from,
                        (0..3).map(|i| Account::Seat((forehand + i) % players)).collect::<Vec<_>>()
                    );
                    assert!(payments.iter().all(|p| p.amount == stake));
                }
                E::CardBlanked { seat, card, .. } => {
                    blanked.push((number, *seat, *card));
                    assert!(Svangknack.secrets(&state).contains(&(*card, vec![*seat])));
                }
                E::DealSettled { payments, rivet, tricks_taken, pot_went_out, pot, .. } => {
                    assert!(payments.iter().all(|p| book.rule(&p.rule).is_some()));
                    assert_eq!(rivet.is_some(), tricks_taken.contains(&3));
                    assert_eq!(*pot_went_out, *pot == 0);
                    let due = state.deals_started >= state.deals_scheduled() && *pot == 0;
                    ended = due;
                    let this_deal: Vec<_> = blanked.iter().copied().filter(|b| b.0 == number).collect();
                    check_records(&state, &deals, &this_deal);
                }
                E::MatchEnded { winners, balances } => {
                    assert!(ended, "the match ended early");
                    assert_eq!(winners, &match_winners(balances));
                }
                _ => {}
            }
        }
        assert!(state.winners.is_some() && ended);
        assert_eq!(state.pot(), 0);
        check_records(&state, &deals, &blanked);
    }

    fn check_records(state: &State, deals: &[(u32, Vec<Event>)], blanked: &[(u32, Seat, Card)]) {
        let current = state.deal.as_ref().unwrap().number;
        for (number, events) in deals {
            let here: Vec<(Seat, Card)> =
                blanked.iter().filter(|b| b.0 == *number).map(|b| (b.1, b.2)).collect();
            let Some(&(first_owner, _)) = here.first() else { continue };
            let seat = (first_owner + 1) % state.players();
            for viewer in [Viewer::Record, Viewer::Spectator, Viewer::Seat(seat)] {
                let hidden: Vec<Card> =
                    here.iter().filter(|(owner, _)| viewer != Viewer::Seat(*owner)).map(|b| b.1).collect();
                let leaked = |value: &Value| cards_in(value).into_iter().find(|c| hidden.contains(c));
                // Only these events name cards that are not public.
                for event in
                    events.iter().filter(|e| e.deal_number().is_some() || matches!(e, E::TrickWon { .. }))
                {
                    let shown = Svangknack.redact(state, event, viewer, true);
                    assert_eq!(
                        leaked(&shown),
                        None,
                        "deal {number}: {viewer:?} sees a blanked card in {shown}"
                    );
                }
                if *number == current {
                    assert_eq!(
                        leaked(&Svangknack.view(state, viewer)),
                        None,
                        "{viewer:?} sees a blanked card in the view"
                    );
                }
            }
        }
    }

    /// Many cheap random matches over every test option set, each checked on its log; the
    /// generic tests check the rest on the way.
    #[test]
    fn random_match_logs_add_up() {
        let book = Svangknack.rulebook();
        let plan = Plan { log_only: 25, ..Plan::default() };
        let played = random_matches(&*erase(Svangknack), plan, |players, options, report| {
            check_log(players, options, &book, &report.log);
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(played, 10 * 4 * 25);
    }
}
