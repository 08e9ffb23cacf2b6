//! Femhundra (Five Hundred): two to five players, a short pack with a joker (none for two), an
//! auction on the Avondale table, a widow taken by the declarer who discards as many cards, and
//! ten tricks with the joker and the two bowers as the top trumps. The declarer scores the bid
//! made or loses it; opponents score ten a trick; the first to 500 wins, and whoever falls to
//! −500 ends the match. Four play in fixed partnerships, five call a partner by a card.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, rank_value, sorted, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{hide_cards, Rules, SetupError, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Seat};
use crate::trick::{Play, PlayView, Trick, TrickPlay, WinReason};

#[cfg(test)]
mod tests;

#[derive(Default)]
pub struct Femhundra;

const TRICKS: usize = 10;
const HAND: usize = 10;
const TARGET: i64 = 500;
const FLOOR: i64 = -500;
/// Four players: a side that the other side's failure would carry to 500 on trick points stops here.
const STOP_SHORT: i64 = 490;
const TRICK_POINTS: i64 = 10;
/// A bid made with all ten tricks scores at least this (single-round auction only).
const SLAM: i64 = 250;
const MISERE: i64 = 250;
const JOKER: Card = Card::Joker(0);

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "femhundra.deal.players";
    pub const PACK: &str = "femhundra.deal.pack";

    pub const BID_ORDER: &str = "femhundra.bid.order";
    pub const BID_TABLE: &str = "femhundra.bid.table";
    pub const BID_HIGHER: &str = "femhundra.bid.higher";
    pub const MISERE: &str = "femhundra.bid.misere";
    pub const MISERE_AFTER_SEVEN: &str = "femhundra.bid.misere-after-seven";
    pub const ALL_PASS: &str = "femhundra.bid.all-pass";

    pub const CALL_PARTNER: &str = "femhundra.partner.call";
    pub const CALL_NOT_TRUMP: &str = "femhundra.partner.not-trump";
    pub const CALL_NOT_HELD: &str = "femhundra.partner.not-held";

    pub const DISCARD: &str = "femhundra.widow.discard";

    pub const FIRST_LEAD: &str = "femhundra.play.first-lead";
    pub const FOLLOW_SUIT: &str = "femhundra.play.follow-suit";
    pub const JOKER_SUIT: &str = "femhundra.play.joker-suit";
    pub const JOKER_SUIT_NOT_SHOWN_VOID: &str = "femhundra.play.joker-suit-not-void";
    pub const NO_SUIT_NAMED: &str = "femhundra.play.no-suit-named";
    pub const MISERE_JOKER: &str = "femhundra.play.misere-joker";
    pub const TRICK_WINNER: &str = "femhundra.play.trick-winner";

    pub const MADE: &str = "femhundra.score.made";
    pub const SLAM: &str = "femhundra.score.slam";
    pub const SET: &str = "femhundra.score.set";
    pub const OPPONENT_TRICKS: &str = "femhundra.score.opponent-tricks";
    pub const MISERE_SET: &str = "femhundra.score.misere-set";
    pub const NO_DECLARER: &str = "femhundra.score.no-declarer";
    pub const STOP_AT_490: &str = "femhundra.score.stop-at-490";
}

// ---------------------------------------------------------------------------------------------
// Options

/// How the auction goes round.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bidding {
    /// As the text has it for the table: one chance each for two, three and five players,
    /// several rounds for four.
    #[default]
    Standard,
    /// The newer variant for every table: round after round until a bid is followed by passes
    /// from all the others; a player who passes is out, and a bid made with all ten tricks
    /// earns no more than its value.
    Rounds,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// `standard` (one chance each, several rounds for four) or `rounds` (several for all).
    pub bidding: Bidding,
    /// The Anglo-Saxon bids misère (250) and open misère (520, or 500 for four players).
    pub misere: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { bidding: Bidding::Standard, misere: false }
    }
}

impl Options {
    fn rounds(&self, players: usize) -> bool {
        self.bidding == Bidding::Rounds || players == 4
    }
}

/// A contract of the bid table.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Contract {
    /// Six to ten tricks with a trump suit.
    Trumps {
        #[cfg_attr(feature = "openapi", schema(minimum = 6, maximum = 10))]
        tricks: u8,
        suit: Suit,
    },
    /// Six to ten tricks without trumps.
    NoTrumps {
        #[cfg_attr(feature = "openapi", schema(minimum = 6, maximum = 10))]
        tricks: u8,
    },
    /// Not a single trick, without trumps.
    Misere,
    /// Misère with the declarer's hand face up.
    OpenMisere,
}

fn suit_step(suit: Suit) -> i64 {
    match suit {
        Suit::Spades => 0,
        Suit::Clubs => 1,
        Suit::Diamonds => 2,
        Suit::Hearts => 3,
    }
}

impl Contract {
    /// Its place in the bid table, twice over so misère fits between 7 no trumps and 8 spades.
    pub fn order(self) -> i64 {
        match self {
            Contract::Trumps { tricks, suit } => 2 * (5 * (i64::from(tricks) - 6) + suit_step(suit)),
            Contract::NoTrumps { tricks } => 2 * (5 * (i64::from(tricks) - 6) + 4),
            Contract::Misere => 2 * 9 + 1,
            Contract::OpenMisere => 100,
        }
    }

    /// What it is worth (the Avondale table).
    pub fn value(self, players: usize) -> i64 {
        match self {
            Contract::Trumps { .. } | Contract::NoTrumps { .. } => 40 + 20 * (self.order() / 2),
            Contract::Misere => MISERE,
            Contract::OpenMisere if players == 4 => 500,
            Contract::OpenMisere => 520,
        }
    }

    pub fn trumps(self) -> Option<Suit> {
        match self {
            Contract::Trumps { suit, .. } => Some(suit),
            _ => None,
        }
    }

    pub fn is_misere(self) -> bool {
        matches!(self, Contract::Misere | Contract::OpenMisere)
    }

    /// The tricks bid; none for misère.
    pub fn tricks(self) -> u8 {
        match self {
            Contract::Trumps { tricks, .. } | Contract::NoTrumps { tricks } => tricks,
            _ => 0,
        }
    }

    fn valid(self) -> bool {
        (6..=10).contains(&self.tricks()) || self.is_misere()
    }

    fn name(self) -> (String, String) {
        match self {
            Contract::Trumps { tricks, suit } => {
                (format!("{tricks} {}", suit.name_sv()), format!("{tricks} {}", suit.name_en()))
            }
            Contract::NoTrumps { tricks } => (format!("{tricks} sang"), format!("{tricks} no trumps")),
            Contract::Misere => ("misär".into(), "misère".into()),
            Contract::OpenMisere => ("öppen misär".into(), "open misère".into()),
        }
    }

    /// Every contract of the table, lowest first.
    pub fn all() -> Vec<Contract> {
        let mut all: Vec<Contract> = (6..=10)
            .flat_map(|tricks| {
                [Suit::Spades, Suit::Clubs, Suit::Diamonds, Suit::Hearts]
                    .into_iter()
                    .map(move |suit| Contract::Trumps { tricks, suit })
                    .chain([Contract::NoTrumps { tricks }])
            })
            .collect();
        all.extend([Contract::Misere, Contract::OpenMisere]);
        all.sort_by_key(|c| c.order());
        all
    }
}

// ---------------------------------------------------------------------------------------------
// State

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Bidding,
    Calling,
    Discarding,
    Playing,
    Over,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    players: usize,
    dealer: Seat,
    deck: Vec<Card>,
    widow: Vec<Card>,
    bids: Vec<(Seat, Option<Contract>)>,
    /// Whether the auction goes round more than once (from the options and the table).
    rounds: bool,
    stage: Stage,
    declarer: Option<Seat>,
    contract: Option<Contract>,
    called: Option<Card>,
    partner: Option<Seat>,
    widow_taken: bool,
    widow_aside: bool,
    discards: Vec<Card>,
    laid_away: Option<(Seat, Vec<Card>)>,
    opened: bool,
    joker_suit: Option<Suit>,
    play: TrickPlay,
}

#[derive(Clone, Debug)]
pub struct State {
    players: usize,
    options: Options,
    deals: Deals<Deal>,
}

fn table(players: usize) -> seat::Table {
    seat::Table::new(players)
}

/// The pack for the table: 9-A for two; 7-A and the joker for three; 4-A less the black fours and
/// the joker for four; the full pack and the joker for five.
pub fn pack(players: usize) -> Vec<Card> {
    match players {
        2 => decks::from_rank(Rank::NINE),
        3 => decks::with_jokers(decks::from_rank(Rank::SEVEN), &[JOKER]),
        4 => {
            let black_four =
                |c: &Card| c.rank() == Rank::new(4) && matches!(c.suit(), Some(Suit::Clubs | Suit::Spades));
            let deck = decks::from_rank(Rank::new(4).expect("a rank")).into_iter().filter(|c| !black_four(c)).collect();
            decks::with_jokers(deck, &[JOKER])
        }
        _ => decks::with_jokers(decks::standard52(), &[JOKER]),
    }
}

fn widow_size(players: usize) -> usize {
    if players == 2 {
        4
    } else {
        3
    }
}

/// Three each, the widow, four each, three each.
pub fn deal_packets(players: usize, dealer: Seat, deck: &[Card]) -> (Vec<Vec<Card>>, Vec<Card>) {
    let t = table(players);
    let mut hands = vec![Vec::new(); players];
    let mut next = deck.iter().copied();
    let mut packet = |hands: &mut Vec<Vec<Card>>, n: usize| {
        for i in 0..players {
            hands[t.after(dealer, 1 + i)].extend(next.by_ref().take(n));
        }
    };
    packet(&mut hands, 3);
    let mut rest: Vec<Card> = deck[3 * players..].to_vec();
    let widow: Vec<Card> = rest.drain(..widow_size(players)).collect();
    let mut next = rest.into_iter();
    for n in [4, 3] {
        for i in 0..players {
            hands[t.after(dealer, 1 + i)].extend(next.by_ref().take(n));
        }
    }
    (hands.into_iter().map(sorted).collect(), widow)
}

fn is_red(suit: Suit) -> bool {
    matches!(suit, Suit::Diamonds | Suit::Hearts)
}

fn is_left_bower(card: Card, trumps: Suit) -> bool {
    card.rank() == Some(Rank::JACK) && card.suit().is_some_and(|s| s != trumps && is_red(s) == is_red(trumps))
}

/// The suit a card belongs to in play: the joker and the left bower are trumps; the joker
/// without trumps belongs to no suit.
pub fn suit_of(card: Card, trumps: Option<Suit>) -> Option<Suit> {
    match (card, trumps) {
        (Card::Joker(_), t) => t,
        (c, Some(t)) if is_left_bower(c, t) => Some(t),
        (c, _) => c.suit(),
    }
}

/// Rank within its suit in play: joker, right bower, left bower, then ace down.
pub fn strength(card: Card, trumps: Option<Suit>) -> u8 {
    match (card, trumps) {
        (Card::Joker(_), _) => 30,
        (c, Some(t)) if c.rank() == Some(Rank::JACK) && c.suit() == Some(t) => 29,
        (c, Some(t)) if is_left_bower(c, t) => 28,
        (c, _) => rank_value(c),
    }
}

/// The suit led to a trick: that of its first card, or the suit named for a joker led.
fn led_suit(trick: &Trick, trumps: Option<Suit>, joker_suit: Option<Suit>) -> Option<Suit> {
    let &(_, first) = trick.plays.first()?;
    if first == JOKER && trumps.is_none() {
        joker_suit
    } else {
        suit_of(first, trumps)
    }
}

/// Who wins a complete trick: the top trump, else the top card of the suit led, the joker
/// without trumps being the top of whatever suit was led.
pub fn trick_winner(trick: &Trick, trumps: Option<Suit>, joker_suit: Option<Suit>) -> (Seat, Card, WinReason) {
    if let Some(&(s, c)) = trick.plays.iter().find(|(_, c)| *c == JOKER) {
        let reason = if trumps.is_some() { WinReason::HighestTrump } else { WinReason::HighestOfSuitLed };
        return (s, c, reason);
    }
    let best = |suit: Suit| {
        trick
            .plays
            .iter()
            .filter(|(_, c)| suit_of(*c, trumps) == Some(suit))
            .max_by_key(|(_, c)| strength(*c, trumps))
            .copied()
    };
    if let Some((s, c)) = trumps.and_then(best) {
        return (s, c, WinReason::HighestTrump);
    }
    let led = led_suit(trick, trumps, joker_suit).expect("a trick is won once cards are in it");
    let (s, c) = best(led).expect("the lead is of the suit led");
    (s, c, WinReason::HighestOfSuitLed)
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match self.stage {
            Stage::Bidding => self.next_bidder().into_iter().collect(),
            Stage::Calling | Stage::Discarding => self.declarer.into_iter().collect(),
            Stage::Playing => vec![self.play.to_play()],
            Stage::Over => Vec::new(),
        }
    }

    fn is_live(&self) -> bool {
        self.stage != Stage::Over
    }

    fn phase(&self) -> Phase {
        match self.stage {
            Stage::Bidding => Phase::Bidding,
            Stage::Calling => Phase::CallingPartner,
            Stage::Discarding => Phase::Discarding,
            Stage::Playing => Phase::Playing,
            Stage::Over => Phase::DealOver,
        }
    }
}

impl Deal {
    fn t(&self) -> seat::Table {
        table(self.players)
    }

    fn forehand(&self) -> Seat {
        self.t().forehand(self.dealer)
    }

    fn trumps(&self) -> Option<Suit> {
        self.contract.and_then(Contract::trumps)
    }

    fn highest(&self) -> Option<(Seat, Contract)> {
        self.bids.iter().filter_map(|&(s, b)| b.map(|b| (s, b))).max_by_key(|(_, b)| b.order())
    }

    fn has_passed(&self, seat: Seat) -> bool {
        self.bids.iter().any(|&(s, b)| s == seat && b.is_none())
    }

    /// The next to bid, or none once the auction is over. One round: each seat once from
    /// forehand. Rounds: the next seat that has not passed, until a bid stands against passes
    /// from all the others (or all pass).
    fn next_bidder(&self) -> Option<Seat> {
        let n = self.players;
        let order = self.t().order_from(self.forehand());
        if !self.bids_in_rounds() {
            return order.get(self.bids.len()).copied();
        }
        let active: Vec<Seat> = order.iter().copied().filter(|&s| !self.has_passed(s)).collect();
        if active.is_empty() || (active.len() == 1 && self.highest().is_some_and(|(s, _)| s == active[0])) {
            return None;
        }
        let start = self.bids.last().map_or(self.forehand(), |&(s, _)| self.t().next(s));
        (0..n).map(|i| self.t().after(start, i)).find(|s| !self.has_passed(*s))
    }

    fn bids_in_rounds(&self) -> bool {
        self.rounds
    }

    fn winner(&self) -> impl Fn(&Trick) -> (Seat, Card, WinReason) + '_ {
        let (trumps, joker_suit) = (self.trumps(), self.joker_suit);
        move |t: &Trick| trick_winner(t, trumps, joker_suit)
    }

    /// The seats of the declaring side: the declarer, and the partner (four players, or the
    /// partner called by five) unless the partner sits out a misère.
    fn declarers(&self) -> Vec<Seat> {
        let Some(d) = self.declarer else { return Vec::new() };
        let mut side = vec![d];
        if let Some(p) = self.partner.filter(|p| !self.play.out.contains(p)) {
            side.push(p);
        }
        side
    }

    /// Suits the seat has shown it lacks: it played another suit to a trick led in them.
    fn shown_void(&self, seat: Seat) -> Vec<Suit> {
        let trumps = self.trumps();
        let mut void = Vec::new();
        for t in &self.play.tricks {
            let trick = Trick { leader: t.leader, plays: t.plays.iter().map(|p| (p.seat, p.card)).collect() };
            let joker = if trick.plays.first().map(|p| p.1) == Some(JOKER) { self.joker_suit } else { None };
            if let Some(led) = led_suit(&trick, trumps, joker) {
                if t.plays.iter().any(|p| p.seat == seat && suit_of(p.card, trumps) != Some(led)) {
                    void.push(led);
                }
            }
        }
        void
    }

    /// The suits the seat may name for the joker it leads without trumps.
    fn nameable(&self, seat: Seat) -> Vec<Suit> {
        let void = self.shown_void(seat);
        let open: Vec<Suit> = Suit::ALL.into_iter().filter(|s| !void.contains(s)).collect();
        if open.is_empty() {
            Suit::ALL.to_vec()
        } else {
            open
        }
    }

    /// The cards the seat may play to the trick on the table.
    fn playable(&self, seat: Seat) -> Vec<Card> {
        let hand = &self.play.hands[seat];
        let trumps = self.trumps();
        let Some(led) = led_suit(&self.play.trick, trumps, self.joker_suit) else {
            return crate::trick::distinct(hand.clone());
        };
        let follow: Vec<Card> = hand.iter().copied().filter(|&c| suit_of(c, trumps) == Some(led)).collect();
        if !follow.is_empty() {
            return crate::trick::distinct(follow);
        }
        if self.contract.is_some_and(Contract::is_misere) && hand.contains(&JOKER) {
            return vec![JOKER];
        }
        crate::trick::distinct(hand.clone())
    }

    fn legal_plays(&self, seat: Seat) -> Vec<Command> {
        let leading = self.play.trick.is_empty();
        let mut moves = Vec::new();
        for card in self.playable(seat) {
            if leading && card == JOKER && self.trumps().is_none() {
                moves.extend(self.nameable(seat).into_iter().map(|s| Command::Play { card, suit: Some(s) }));
            } else {
                moves.push(Command::Play { card, suit: None });
            }
        }
        moves
    }

    /// Cards no one but their holder (if anyone) may ever see: the discards, the widow set aside,
    /// a hand laid away.
    fn hidden_for_ever(&self, viewer: Viewer) -> Vec<Card> {
        let mut hidden = Vec::new();
        if self.declarer.is_none_or(|d| viewer != Viewer::Seat(d)) {
            hidden.extend(&self.discards);
        }
        if self.widow_aside {
            hidden.extend(&self.widow);
        }
        if let Some((s, cards)) = &self.laid_away {
            if viewer != Viewer::Seat(*s) {
                hidden.extend(cards);
            }
        }
        hidden
    }

    /// The declarer's hand is public once laid open.
    fn is_open(&self, seat: Seat) -> bool {
        self.opened && self.declarer == Some(seat)
    }

    /// Cards each seat held before the play, less those laid away: what `TrickPlay::check` counts.
    fn hand_size(&self, seat: Seat) -> usize {
        if self.play.out.contains(&seat) {
            return self.play.tricks.len();
        }
        if self.declarer == Some(seat) && self.widow_taken {
            return HAND + self.widow.len() - self.discards.len();
        }
        HAND
    }
}

fn scorer(players: usize, seat: Seat) -> usize {
    if players == 4 {
        seat % 2
    } else {
        seat
    }
}

fn scorer_seats(players: usize, scorer: usize) -> Vec<Seat> {
    if players == 4 {
        vec![scorer, scorer + 2]
    } else {
        vec![scorer]
    }
}

fn scorer_text(players: usize, s: usize) -> (String, String) {
    if players == 4 {
        (format!("Lag {s} (plats {} och {})", s, s + 2), format!("Side {s} (seats {} and {})", s, s + 2))
    } else {
        (format!("Plats {s}"), format!("Seat {s}"))
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    Bid {
        contract: Contract,
    },
    Pass,
    /// Five players: the declarer names a card not in the hand, by suit and rank (2 to 14, ace
    /// 14), and its holder becomes the partner.
    CallPartner {
        suit: Suit,
        #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 14))]
        #[serde(deserialize_with = "crate::schema::within::<_, _, 2, 14>")]
        rank: u8,
    },
    /// Five players: the declarer plays alone.
    PlayAlone,
    /// The declarer lays away one card after taking the widow.
    Discard {
        card: Card,
    },
    /// A card played; leading the joker without trumps names the suit it is the top of.
    Play {
        card: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "openapi", schema(nullable = false))]
        suit: Option<Suit>,
    },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        players: usize,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's hand of ten, sorted.
        hands: Vec<Vec<Card>>,
        /// The widow, face down.
        widow: Vec<Card>,
        /// Match scores before this deal: by side for four players, else by seat.
        scores: Vec<i64>,
        options: Options,
    },
    Bid {
        seat: Seat,
        contract: Contract,
    },
    Passed {
        seat: Seat,
    },
    /// The auction is over: the highest bid stands, or nobody bid.
    AuctionWon {
        declarer: Option<Seat>,
        contract: Option<Contract>,
    },
    /// Five players: the card called and the seat that holds it (null when it lies in the
    /// widow, or when the declarer plays alone and called none).
    PartnerCalled {
        declarer: Seat,
        card: Option<Card>,
        partner: Option<Seat>,
    },
    /// Four players in misère: the declarer's partner lays the hand away, face down.
    HandLaidAway {
        seat: Seat,
        cards: Vec<Card>,
    },
    WidowTaken {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// Nobody bid: the widow is set aside unseen.
    WidowSetAside {
        cards: Vec<Card>,
    },
    Discarded {
        seat: Seat,
        card: Card,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
        trick_number: u8,
        /// The suit named for the joker led without trumps.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "openapi", schema(nullable = false))]
        suit: Option<Suit>,
    },
    /// Open misère: the declarer's hand is laid face up after the opening lead.
    HandOpened {
        seat: Seat,
        cards: Vec<Card>,
    },
    TrickWon {
        trick_number: u8,
        winner: Seat,
        card: Card,
        reason: WinReason,
        plays: Vec<Play>,
    },
    DealScored {
        deal_number: u32,
        declarer: Option<Seat>,
        contract: Option<Contract>,
        /// The declaring side's seats (declarer first).
        declarers: Vec<Seat>,
        tricks_taken: Vec<u8>,
        /// Tricks taken by the declaring side.
        declarer_tricks: u8,
        made: Option<bool>,
        terms: Vec<ScoreTerm>,
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
// Decide

fn refuse(rule: &str, sv: String, en: String) -> RuleViolation {
    RuleViolation::new(rule, sv, en)
}

fn wrong_stage() -> RuleViolation {
    RuleViolation::wrong_phase(
        "det draget hör inte till den här delen av given",
        "that move does not belong to this part of the deal",
    )
}

fn decide_call(
    state: &State,
    deal: &Deal,
    seat: Seat,
    contract: Option<Contract>,
) -> Result<Vec<Event>, RuleViolation> {
    if deal.stage != Stage::Bidding {
        return Err(wrong_stage());
    }
    let mut events = Vec::new();
    if let Some(c) = contract {
        if !c.valid() {
            return Err(refuse(
                rule::BID_TABLE,
                "Ett bud gäller sex till tio stick.".into(),
                "A bid is for six to ten tricks.".into(),
            ));
        }
        if c.is_misere() && !state.options.misere {
            return Err(refuse(
                rule::MISERE,
                "Misärbuden används inte i det här partiet.".into(),
                "The misère bids are not used in this match.".into(),
            ));
        }
        let seven_spades = Contract::Trumps { tricks: 7, suit: Suit::Spades }.order();
        if c.is_misere()
            && deal.players == 4
            && !deal.bids.iter().any(|(_, b)| b.is_some_and(|b| b.order() >= seven_spades))
        {
            return Err(refuse(
                rule::MISERE_AFTER_SEVEN,
                "Misär får bjudas först när någon har bjudit minst sju spader.".into(),
                "Misère may be bid only once someone has bid at least seven spades.".into(),
            ));
        }
        if let Some((_, high)) = deal.highest() {
            if c.order() <= high.order() {
                let ((a, b), (x, y)) = (c.name(), high.name());
                return Err(refuse(
                    rule::BID_HIGHER,
                    format!("{a} är inte högre än {x}."),
                    format!("{b} does not beat {y}."),
                ));
            }
        }
        events.push(Event::Bid { seat, contract: c });
    } else {
        events.push(Event::Passed { seat });
    }
    let mut after = deal.clone();
    after.bids.push((seat, contract));
    if after.next_bidder().is_none() {
        events.extend(auction_over(&after));
    }
    Ok(events)
}

fn auction_over(deal: &Deal) -> Vec<Event> {
    let Some((declarer, contract)) = deal.highest() else {
        return vec![
            Event::AuctionWon { declarer: None, contract: None },
            Event::WidowSetAside { cards: deal.widow.clone() },
        ];
    };
    let mut events = vec![Event::AuctionWon { declarer: Some(declarer), contract: Some(contract) }];
    if deal.players == 5 && !contract.is_misere() {
        return events;
    }
    if deal.players == 4 && contract.is_misere() {
        let partner = deal.t().partner(declarer);
        events.push(Event::HandLaidAway { seat: partner, cards: deal.play.hands[partner].clone() });
    }
    events.push(Event::WidowTaken { seat: declarer, cards: deal.widow.clone() });
    events
}

fn decide_partner(deal: &Deal, seat: Seat, called: Option<(Suit, u8)>) -> Result<Vec<Event>, RuleViolation> {
    if deal.stage != Stage::Calling {
        return Err(wrong_stage());
    }
    let card = match called {
        None => None,
        Some((suit, rank)) => {
            let card =
                Rank::new(rank).map(|r| Card::new(r, suit)).filter(|c| deal.deck.contains(c)).ok_or_else(|| {
                    refuse(
                        rule::CALL_PARTNER,
                        format!("Det finns ingen valör {rank}."),
                        format!("There is no rank {rank}."),
                    )
                })?;
            let trumps = deal.trumps();
            if trumps.is_some() && suit_of(card, trumps) == trumps {
                return Err(refuse(
                    rule::CALL_NOT_TRUMP,
                    format!("{card} är trumf; man kallar ett kort som inte är trumf."),
                    format!("{card} is a trump; the card called must not be one."),
                ));
            }
            if deal.play.hands[seat].contains(&card) {
                return Err(refuse(
                    rule::CALL_NOT_HELD,
                    format!("Du har själv {card}; kalla ett kort du inte har."),
                    format!("You hold {card} yourself; call a card you do not hold."),
                ));
            }
            Some(card)
        }
    };
    let partner = card.and_then(|c| (0..deal.players).find(|&s| deal.play.hands[s].contains(&c)));
    Ok(vec![
        Event::PartnerCalled { declarer: seat, card, partner },
        Event::WidowTaken { seat, cards: deal.widow.clone() },
    ])
}

fn decide_discard(deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if deal.stage != Stage::Discarding {
        return Err(wrong_stage());
    }
    deal.play.check_held(seat, card)?;
    Ok(vec![Event::Discarded { seat, card }])
}

fn decide_play(
    state: &State,
    deal: &Deal,
    seat: Seat,
    card: Card,
    suit: Option<Suit>,
) -> Result<Vec<Event>, RuleViolation> {
    if deal.stage != Stage::Playing {
        return Err(wrong_stage());
    }
    deal.play.check_held(seat, card)?;
    let names_suit = deal.play.trick.is_empty() && card == JOKER && deal.trumps().is_none();
    match (names_suit, suit) {
        (true, None) => {
            return Err(refuse(
                rule::JOKER_SUIT,
                "Den som spelar ut jokern utan trumf ska säga vilken färg den gäller.".into(),
                "Leading the joker without trumps, you must name the suit it counts as.".into(),
            ))
        }
        (true, Some(s)) if !deal.nameable(seat).contains(&s) => {
            return Err(refuse(
                rule::JOKER_SUIT_NOT_SHOWN_VOID,
                format!("Du har tidigare inte kunnat bekänna {}; jokern får inte gälla den färgen.", s.name_sv()),
                format!("You failed to follow {} earlier; the joker may not be named as that suit.", s.name_en()),
            ))
        }
        (false, Some(_)) => {
            return Err(refuse(
                rule::NO_SUIT_NAMED,
                "En färg nämns bara när jokern spelas ut utan trumf.".into(),
                "A suit is named only when the joker is led without trumps.".into(),
            ))
        }
        _ => {}
    }
    if !deal.playable(seat).contains(&card) {
        let led = led_suit(&deal.play.trick, deal.trumps(), deal.joker_suit).expect("a card is led");
        return Err(
            if deal.contract.is_some_and(Contract::is_misere)
                && deal.play.hands[seat].iter().all(|&c| suit_of(c, deal.trumps()) != Some(led))
            {
                refuse(
                    rule::MISERE_JOKER,
                    "I misär måste jokern läggas när man inte kan bekänna färg.".into(),
                    "In misère the joker must be played when you cannot follow suit.".into(),
                )
            } else {
                refuse(
                    rule::FOLLOW_SUIT,
                    format!("Du lade {card} men har {} och måste bekänna färg.", led.name_sv()),
                    format!("You played {card} but hold {} and must follow suit.", led.name_en()),
                )
            },
        );
    }
    let trick_number = deal.play.number() as u8;
    let mut events = vec![Event::CardPlayed { seat, card, trick_number, suit }];
    if deal.contract == Some(Contract::OpenMisere) && deal.declarer == Some(seat) && !deal.opened {
        let mut rest = deal.play.hands[seat].clone();
        take_card(&mut rest, card);
        events.push(Event::HandOpened { seat, cards: rest });
    }
    let (trumps, joker_suit) = (deal.trumps(), suit.or(deal.joker_suit));
    if let Some(won) = deal.play.completed_by(seat, card, &|t: &Trick| trick_winner(t, trumps, joker_suit)) {
        events.push(Event::TrickWon {
            trick_number,
            winner: won.winner,
            card: won.card,
            reason: won.reason,
            plays: won.plays.clone(),
        });
        if won.last {
            let mut winners: Vec<Seat> = deal.play.tricks.iter().map(|t| t.winner).collect();
            winners.push(won.winner);
            events.extend(score_deal(state, deal, won.taken.iter().map(|&t| t as u8).collect(), &winners));
        }
    }
    Ok(events)
}

fn score_deal(state: &State, deal: &Deal, taken: Vec<u8>, winners: &[Seat]) -> Vec<Event> {
    let n = deal.players;
    let declarers = deal.declarers();
    let played = Played {
        players: n,
        contract: deal.contract,
        declarers: declarers.clone(),
        taken: taken.clone(),
        slam_bonus: !deal.rounds,
        scores: state.deals.scores.clone(),
    };
    let (terms, made) = score(&played);
    let scorers = state.deals.scores.len();
    let mut points = vec![0; scorers];
    for t in &terms {
        points[t.to] += t.points;
    }
    let scores: Vec<i64> = (0..scorers).map(|s| state.deals.scores[s] + points[s]).collect();
    let mut declaring: Vec<usize> = declarers.iter().map(|&s| scorer(n, s)).collect();
    declaring.dedup();
    let credits: Vec<Vec<usize>> = winners
        .iter()
        .map(|&w| match deal.contract {
            None => vec![scorer(n, w)],
            Some(c) if c.is_misere() && declarers.contains(&w) => {
                (0..scorers).filter(|s| !declaring.contains(s)).collect()
            }
            Some(c) if c.is_misere() => Vec::new(),
            Some(_) if declarers.contains(&w) => Vec::new(),
            Some(_) => vec![scorer(n, w)],
        })
        .collect();
    let declarer_tricks = declarers.iter().map(|&s| taken[s]).sum();
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        declarer: deal.declarer,
        contract: deal.contract,
        declarers,
        tricks_taken: taken,
        declarer_tricks,
        made,
        terms,
        points,
        scores: scores.clone(),
    }];
    if let Some((winners, explanation)) = match_end(n, &state.deals.scores, &scores, &declaring, &credits) {
        events.push(Event::MatchEnded { winners, scores, explanation });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// A deal as scoring sees it.
#[derive(Clone, Debug)]
pub struct Played {
    pub players: usize,
    pub contract: Option<Contract>,
    /// The declaring side's seats, declarer first; empty when nobody bid.
    pub declarers: Vec<Seat>,
    pub taken: Vec<u8>,
    /// The single-round auction, where a slam lifts a lower bid to 250.
    pub slam_bonus: bool,
    pub scores: Vec<i64>,
}

/// The deal's score terms, and whether the contract was made.
pub fn score(p: &Played) -> (Vec<ScoreTerm>, Option<bool>) {
    let n = p.players;
    let scorers = if n == 4 { 2 } else { n };
    let tricks_of = |sc: usize| -> i64 { (0..n).filter(|&s| scorer(n, s) == sc).map(|s| i64::from(p.taken[s])).sum() };
    let mut terms = Vec::new();
    let Some(contract) = p.contract else {
        for sc in 0..scorers {
            let t = tricks_of(sc);
            if t > 0 {
                let (sv, en) = scorer_text(n, sc);
                terms.push(ScoreTerm::new(
                    sc,
                    TRICK_POINTS * t,
                    rule::NO_DECLARER,
                    format!("Ingen spelförare: {sv} tog {t} stick à 10 poäng."),
                    format!("No declarer: {en} took {t} tricks at 10 points each."),
                ));
            }
        }
        return (terms, None);
    };
    let value = contract.value(n);
    let (csv, cen) = contract.name();
    let decl_tricks: i64 = p.declarers.iter().map(|&s| i64::from(p.taken[s])).sum();
    let made = if contract.is_misere() { decl_tricks == 0 } else { decl_tricks >= i64::from(contract.tricks()) };
    let mut declaring: Vec<usize> = p.declarers.iter().map(|&s| scorer(n, s)).collect();
    declaring.dedup();
    for &sc in &declaring {
        let (sv, en) = scorer_text(n, sc);
        if made && p.slam_bonus && !contract.is_misere() && decl_tricks == TRICKS as i64 && value < SLAM {
            terms.push(ScoreTerm::new(
                sc,
                SLAM,
                rule::SLAM,
                format!("{sv} tog alla tio sticken på {csv} (värt {value}): {SLAM} poäng."),
                format!("{en} took all ten tricks on {cen} (worth {value}): {SLAM} points."),
            ));
        } else if made {
            terms.push(ScoreTerm::new(
                sc,
                value,
                rule::MADE,
                format!("{sv} gick hem på {csv} med {decl_tricks} stick: {value} poäng."),
                format!("{en} made {cen} with {decl_tricks} tricks: {value} points."),
            ));
        } else {
            terms.push(ScoreTerm::new(
                sc,
                -value,
                rule::SET,
                format!("{sv} gick bet på {csv} med {decl_tricks} stick: −{value} poäng."),
                format!("{en} went down on {cen} with {decl_tricks} tricks: −{value} points."),
            ));
        }
    }
    for sc in (0..scorers).filter(|sc| !declaring.contains(sc)) {
        let (sv, en) = scorer_text(n, sc);
        let (t, rule, why_sv, why_en) = if contract.is_misere() {
            if made {
                continue;
            }
            (decl_tricks, rule::MISERE_SET, "spelföraren tog", "the declarer took")
        } else {
            (tricks_of(sc), rule::OPPONENT_TRICKS, "tog", "took")
        };
        if t == 0 {
            continue;
        }
        let mut points = TRICK_POINTS * t;
        let before = p.scores[sc];
        if n == 4 && !made && before + points >= TARGET {
            let got = (STOP_SHORT - before).max(0);
            terms.push(ScoreTerm::new(
                sc,
                got,
                rule::STOP_AT_490,
                format!("{sv}: {why_sv} {t} stick à 10, men ingen når 500 på stickpoäng när motståndarna går bet; stannar på 490: {got} poäng."),
                format!("{en}: {why_en} {t} tricks at 10, but no side reaches 500 on trick points when the other side goes down; it stays at 490: {got} points."),
            ));
            continue;
        }
        points = points.max(0);
        terms.push(ScoreTerm::new(
            sc,
            points,
            rule,
            format!("{sv}: {why_sv} {t} stick à 10 poäng: {points}."),
            format!("{en}: {why_en} {t} tricks at 10 points each: {points}."),
        ));
    }
    (terms, Some(made))
}

/// Whether the deal ends the match, and who won: the highest of those at 500 or more (the
/// declaring side on a tie, else whoever got there first in the order of the tricks); failing
/// that, the best placed when someone fell to −500.
pub fn match_end(
    players: usize,
    before: &[i64],
    after: &[i64],
    declaring: &[usize],
    credits_by_trick: &[Vec<usize>],
) -> Option<(Vec<Seat>, Text)> {
    let seats_of = |scs: &[usize]| -> Vec<Seat> {
        let mut seats: Vec<Seat> = scs.iter().flat_map(|&sc| scorer_seats(players, sc)).collect();
        seats.sort_unstable();
        seats
    };
    let top = after.iter().copied().max()?;
    if top >= TARGET {
        let tied: Vec<usize> = (0..after.len()).filter(|&s| after[s] == top).collect();
        let mut winners = tied.clone();
        let mut rule_sv = "";
        let mut rule_en = "";
        if tied.len() > 1 {
            let decl: Vec<usize> = tied.iter().copied().filter(|s| declaring.contains(s)).collect();
            if !decl.is_empty() {
                winners = decl;
                (rule_sv, rule_en) = (" (lika: spelföraren vinner)", " (a tie: the declarer wins)");
            } else {
                let mut running = before.to_vec();
                'tricks: for credits in credits_by_trick {
                    for &sc in credits {
                        running[sc] += TRICK_POINTS;
                    }
                    let first: Vec<usize> = tied.iter().copied().filter(|&s| running[s] >= TARGET).collect();
                    if !first.is_empty() {
                        winners = first;
                        break 'tricks;
                    }
                }
                (rule_sv, rule_en) =
                    (" (lika: först till 500 i stickens ordning)", " (a tie: first to 500 in the order of the tricks)");
            }
        }
        let who = seat::seats_text(&seats_of(&winners));
        return Some((
            seats_of(&winners),
            Text::new(
                format!("Plats {who} nådde {top} poäng, minst 500, och vann partiet{rule_sv}."),
                format!("Seat {who} reached {top} points, at least 500, and won the match{rule_en}."),
            ),
        ));
    }
    let low = after.iter().copied().min()?;
    if low <= FLOOR {
        let winners: Vec<usize> = (0..after.len()).filter(|&s| after[s] == top).collect();
        let who = seat::seats_text(&seats_of(&winners));
        return Some((
            seats_of(&winners),
            Text::new(
                format!("Någon föll till {low}, minus 500 eller lägre; plats {who} låg bäst till med {top} poäng och vann via bakdörren."),
                format!("Someone fell to {low}, minus 500 or below; seat {who} stood best with {top} points and won by the back door."),
            ),
        ));
    }
    None
}

// ---------------------------------------------------------------------------------------------
// The table view

/// Where the match is.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    /// The auction.
    Bidding,
    /// Five players: the declarer calls a partner or plays alone.
    CallingPartner,
    /// The declarer has taken the widow and lays away as many cards.
    Discarding,
    /// The ten tricks.
    Playing,
    /// The deal is scored; the next is awaited.
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// One call of the auction.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FemhundraCall))]
#[derive(Debug, Clone, Serialize)]
pub struct Call {
    pub seat: Seat,
    /// The contract bid; null for a pass.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub contract: Option<Contract>,
}

/// The table as one viewer sees it. A seat sees its own hand, the declarer the widow taken and
/// the discards; nobody else ever sees the discards, the widow set aside or a hand laid away.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    #[serde(flatten)]
    pub deals: MatchView,

    pub options: Options,
    /// The score that wins, and the one that ends the match from below.
    pub target: i64,
    pub floor: i64,
    /// Four players: the seats of each side, side 0 first; null otherwise.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub sides: Option<[[Seat; 2]; 2]>,
    /// Absent before the first deal, as are all the deal's fields below.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The auction so far, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bids: Option<Vec<Call>>,
    /// The highest bid so far (the contract once the auction is over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<Option<Contract>>,
    /// What the contract is worth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract_value: Option<Option<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declarer: Option<Option<Seat>>,
    /// The declarer's partner: the opposite seat for four, the holder of the called card for five.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partner: Option<Option<Seat>>,
    /// Five players: the card called.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub called_card: Option<Option<Card>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trumps: Option<Option<Suit>>,
    /// The suit named for the joker led without trumps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joker_suit: Option<Option<Suit>>,
    /// The suit led to the trick on the table, bowers and joker counted as trumps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub led_suit: Option<Option<Suit>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub widow_size: Option<usize>,
    /// Whether the declarer has taken the widow; nobody takes it when all pass.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub widow_taken: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub discard_count: Option<usize>,
    /// The discards: only the declarer sees them, even in the record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discards: Option<Option<Vec<Card>>>,
    /// Open misère: the declarer's hand, face up once the opening lead is made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_hand: Option<Option<Vec<Card>>>,
    /// Four players in misère: the partner who laid the hand away.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub laid_away_by: Option<Option<Seat>>,
    #[serde(flatten)]
    pub play: PlayView,
    /// The viewer's own hand: only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

// ---------------------------------------------------------------------------------------------
// The bot

fn cost(card: Card, trumps: Option<Suit>) -> (bool, u8) {
    (card == JOKER || (trumps.is_some() && suit_of(card, trumps) == trumps), strength(card, trumps))
}

/// Tricks the hand might take with `trumps`, counting trumps, outside aces and a long suit.
fn estimate(hand: &[Card], trumps: Option<Suit>) -> u8 {
    let ours = hand.iter().filter(|&&c| trumps.is_some() && suit_of(c, trumps) == trumps).count();
    let aces = hand.iter().filter(|&&c| c.rank() == Some(Rank::ACE) && suit_of(c, trumps) != trumps).count();
    let kings = hand.iter().filter(|&&c| c.rank() == Some(Rank::KING) && suit_of(c, trumps) != trumps).count();
    let joker = usize::from(trumps.is_none() && hand.contains(&JOKER));
    let est = match trumps {
        Some(_) => ours + aces + kings / 2 + usize::from(ours >= 5),
        None => aces + joker + kings / 2 + 1,
    };
    est.min(10) as u8
}

/// The contracts the seat may bid now.
fn biddable(state: &State, deal: &Deal) -> Vec<Contract> {
    let beats = |c: &Contract| deal.highest().is_none_or(|(_, h)| c.order() > h.order());
    Contract::all()
        .into_iter()
        .filter(|c| beats(c) && (!c.is_misere() || state.options.misere))
        .filter(|c| {
            let seven = Contract::Trumps { tricks: 7, suit: Suit::Spades }.order();
            !c.is_misere() || deal.players != 4 || deal.bids.iter().any(|(_, b)| b.is_some_and(|b| b.order() >= seven))
        })
        .collect()
}

/// A hand with no joker, jack or card above the jack: it takes no trick if it can help it.
fn misere_hand(hand: &[Card]) -> bool {
    hand.iter().all(|&c| c != JOKER && rank_value(c) < 12 && c.rank() != Some(Rank::JACK))
}

fn bot_bid(state: &State, deal: &Deal, seat: Seat, rng: &mut Rng) -> Command {
    let hand = &deal.play.hands[seat];
    let legal = biddable(state, deal);
    if let Some(m) = legal.iter().find(|c| c.is_misere()).filter(|_| misere_hand(hand)) {
        return Command::Bid { contract: *m };
    }
    let mut wanted: Vec<Contract> = legal
        .into_iter()
        .filter(|c| !c.is_misere() && c.tricks() <= estimate(hand, c.trumps()) + u8::from(rng.below(3) == 0))
        .collect();
    wanted.sort_by_key(|c| c.order());
    match wanted.first() {
        Some(&contract) => Command::Bid { contract },
        None => Command::Pass,
    }
}

/// The basic bid: the cheapest contract that beats the auction and that the hand's estimated
/// tricks reach (misère on a hand without a high card, where misère is played), else a pass.
fn basic_bid(state: &State, deal: &Deal, seat: Seat) -> Command {
    let hand = &deal.play.hands[seat];
    let legal = biddable(state, deal);
    if let Some(m) = legal.iter().find(|c| c.is_misere()).filter(|_| misere_hand(hand)) {
        return Command::Bid { contract: *m };
    }
    let reached = legal.into_iter().filter(|c| !c.is_misere() && c.tricks() <= estimate(hand, c.trumps()));
    reached.min_by_key(|c| c.order()).map_or(Command::Pass, |contract| Command::Bid { contract })
}

/// Five players: the highest card it may call, for the partner most likely to take a trick.
fn call_partner(moves: &[Command]) -> Command {
    moves
        .iter()
        .filter(|m| matches!(m, Command::CallPartner { .. }))
        .max_by_key(|m| match m {
            Command::CallPartner { rank, .. } => *rank,
            _ => 0,
        })
        .cloned()
        .unwrap_or(Command::PlayAlone)
}

/// The cheapest card (the highest in misère) laid away.
fn discard(deal: &Deal, seat: Seat) -> Command {
    let (hand, trumps) = (&deal.play.hands[seat], deal.trumps());
    let card = if deal.contract.is_some_and(Contract::is_misere) {
        hand.iter().copied().max_by_key(|&c| strength(c, trumps))
    } else {
        hand.iter().copied().min_by_key(|&c| cost(c, trumps))
    };
    Command::Discard { card: card.expect("a hand to discard from") }
}

/// The test bot: the basic bot's card, but now and then any card it may play.
fn bot_play(deal: &Deal, seat: Seat, rng: &mut Rng) -> Command {
    let legal = deal.legal_plays(seat);
    if legal.len() == 1 || rng.below(6) == 0 {
        return legal[rng.below(legal.len())].clone();
    }
    basic_play(deal, seat)
}

/// Leads its cheapest card; in misère ducks with the highest card that loses; otherwise lets a
/// trick its side is winning go with its cheapest card, and takes one the other side is winning
/// as cheaply as it can.
fn basic_play(deal: &Deal, seat: Seat) -> Command {
    let legal = deal.legal_plays(seat);
    let trumps = deal.trumps();
    let card_of = |c: &Command| match c {
        Command::Play { card, .. } => *card,
        _ => unreachable!("plays only"),
    };
    let trick = &deal.play.trick;
    let misere_declarer = deal.contract.is_some_and(Contract::is_misere) && deal.declarer == Some(seat);
    let by_cost = |cs: Vec<&Command>, high: bool| {
        let pick = cs.iter().min_by_key(|c| {
            let k = cost(card_of(c), trumps);
            if high {
                (!k.0, u8::MAX - k.1)
            } else {
                k
            }
        });
        (*pick.expect("a legal move")).clone()
    };
    if trick.is_empty() {
        return by_cost(legal.iter().collect(), false);
    }
    let js = if trick.plays[0].1 == JOKER { deal.joker_suit.or(Some(Suit::Spades)) } else { deal.joker_suit };
    let beats = crate::trick::takes(trick, seat, legal.iter().map(card_of), |t| trick_winner(t, trumps, js).0);
    let plays_that =
        |wins: bool| -> Vec<&Command> { legal.iter().zip(&beats).filter(|p| *p.1 == wins).map(|p| p.0).collect() };
    if misere_declarer {
        let safe = plays_that(false);
        return if safe.is_empty() { by_cost(legal.iter().collect(), false) } else { by_cost(safe, true) };
    }
    let declarers = deal.declarers();
    let side = |s: Seat| {
        if deal.declarer.is_some() {
            declarers.contains(&s)
        } else {
            scorer(deal.players, s) == scorer(deal.players, seat)
        }
    };
    let led_js = if trick.plays[0].1 == JOKER { deal.joker_suit } else { None };
    let leader = trick_winner(trick, trumps, led_js.or(deal.joker_suit)).0;
    let winning = plays_that(true);
    if side(leader) == side(seat) || winning.is_empty() {
        return by_cost(legal.iter().collect(), false);
    }
    by_cost(winning, false)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Femhundra {
    fn render(&self, state: &State, viewer: Viewer, record_seat: Option<Seat>) -> Table {
        let me = viewer.seat_at(state.players);
        let record = viewer == Viewer::Record;
        let owner = me.or(record_seat);
        let deal = state.deals.deal.as_ref();
        let n = state.players;
        let is_declarer = |d: &Deal| d.declarer.is_some() && d.declarer == owner;
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, n, deal.map(|d| d.dealer)),
            options: state.options.clone(),
            target: TARGET,
            floor: FLOOR,
            sides: (n == 4).then_some([[0, 2], [1, 3]]),
            forehand: deal.map(Deal::forehand),
            bids: deal.map(|d| d.bids.iter().map(|&(seat, contract)| Call { seat, contract }).collect()),
            contract: deal.map(|d| d.contract.or(d.highest().map(|h| h.1))),
            contract_value: deal.map(|d| d.contract.or(d.highest().map(|h| h.1)).map(|c| c.value(n))),
            declarer: deal.map(|d| d.declarer),
            partner: deal.map(|d| d.partner),
            called_card: deal.map(|d| d.called),
            trumps: deal.map(Deal::trumps),
            joker_suit: deal.map(|d| d.joker_suit),
            led_suit: deal.map(|d| led_suit(&d.play.trick, d.trumps(), d.joker_suit)),
            widow_size: deal.map(|d| d.widow.len()),
            widow_taken: deal.map(|d| d.widow_taken),
            discard_count: deal.map(|d| d.discards.len()),
            discards: deal.map(|d| is_declarer(d).then(|| d.discards.clone())),
            open_hand: deal.map(|d| d.declarer.filter(|&s| d.is_open(s)).map(|s| d.play.hands[s].clone())),
            laid_away_by: deal.map(|d| d.laid_away.as_ref().map(|l| l.0)),
            play: deal.map(|d| d.play.view(record)).unwrap_or_default(),
            hand: deal.zip(me).map(|(d, s)| d.play.hands[s].clone()),
        }
    }
}

impl Rules for Femhundra {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "femhundra";
    const PLAYERS: RangeInclusive<usize> = 2..=5;
    const RULEBOOK: &'static str = include_str!("../rulebooks/femhundra.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        let mut sets = Vec::new();
        for bidding in [Bidding::Standard, Bidding::Rounds] {
            for misere in [false, true] {
                sets.push(Options { bidding, misere });
            }
        }
        sets
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        let scorers = if players == 4 { 2 } else { players };
        Ok(State { players, options, deals: Deals::new(scorers) })
    }

    crate::status_of_deals!(|state| pack(state.players));

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let n = state.players;
        let dealer = state.deals.next_dealer;
        let (hands, widow) = deal_packets(n, dealer, &deck);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            players: n,
            dealer,
            forehand: table(n).forehand(dealer),
            deck,
            hands,
            widow,
            scores: state.deals.scores.clone(),
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match command {
            Command::Bid { contract } => decide_call(state, deal, seat, Some(*contract)),
            Command::Pass => decide_call(state, deal, seat, None),
            Command::CallPartner { suit, rank } => decide_partner(deal, seat, Some((*suit, *rank))),
            Command::PlayAlone => decide_partner(deal, seat, None),
            Command::Discard { card } => decide_discard(deal, seat, *card),
            Command::Play { card, suit } => decide_play(state, deal, seat, *card, *suit),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, players, dealer, deck, hands, widow, scores, options, .. } => {
                state.options = options.clone();
                let t = table(*players);
                state.deals.next_dealer = t.next(*dealer);
                let deal = Deal {
                    number: *deal_number,
                    players: *players,
                    dealer: *dealer,
                    deck: deck.clone(),
                    widow: widow.clone(),
                    bids: Vec::new(),
                    rounds: options.rounds(*players),
                    stage: Stage::Bidding,
                    declarer: None,
                    contract: None,
                    called: None,
                    partner: None,
                    widow_taken: false,
                    widow_aside: false,
                    discards: Vec::new(),
                    laid_away: None,
                    opened: false,
                    joker_suit: None,
                    play: TrickPlay::new(t, hands.clone(), t.forehand(*dealer), TRICKS),
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { terms, scores, .. } => {
                state.deals.scored(terms, scores);
                if let Some(d) = state.deals.deal.as_mut() {
                    d.stage = Stage::Over;
                }
            }
            Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                match event {
                    Event::Bid { seat, contract } => deal.bids.push((*seat, Some(*contract))),
                    Event::Passed { seat } => deal.bids.push((*seat, None)),
                    Event::AuctionWon { declarer, contract } => {
                        deal.declarer = *declarer;
                        deal.contract = *contract;
                        if let Some(d) = declarer {
                            deal.play.trick = Trick::led_by(*d);
                            if deal.players == 4 {
                                deal.partner = Some(deal.t().partner(*d));
                            }
                        }
                        deal.stage = match (declarer, contract) {
                            (None, _) => Stage::Playing,
                            (Some(_), Some(c)) if deal.players == 5 && !c.is_misere() => Stage::Calling,
                            _ => Stage::Discarding,
                        };
                    }
                    Event::PartnerCalled { card, partner, .. } => {
                        deal.called = *card;
                        deal.partner = *partner;
                    }
                    Event::HandLaidAway { seat, .. } => {
                        let cards = deal.play.sit_out(*seat);
                        deal.laid_away = Some((*seat, cards));
                    }
                    Event::WidowTaken { seat, cards } => {
                        deal.play.hands[*seat].extend(cards);
                        deal.play.hands[*seat] = sorted(std::mem::take(&mut deal.play.hands[*seat]));
                        deal.widow_taken = true;
                        deal.stage = Stage::Discarding;
                    }
                    Event::WidowSetAside { .. } => deal.widow_aside = true,
                    Event::Discarded { seat, card } => {
                        take_card(&mut deal.play.hands[*seat], *card);
                        deal.discards.push(*card);
                        if deal.discards.len() == deal.widow.len() {
                            deal.stage = Stage::Playing;
                        }
                    }
                    Event::CardPlayed { seat, card, suit, .. } => {
                        deal.play.play(*seat, *card);
                        if suit.is_some() {
                            deal.joker_suit = *suit;
                        }
                    }
                    Event::HandOpened { .. } => deal.opened = true,
                    Event::TrickWon { winner, card, reason, .. } => deal.play.won(*winner, *card, *reason),
                    _ => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        let accepted = |c: &Command| self.decide(state, seat, c).is_ok();
        match deal.stage {
            Stage::Bidding => {
                let mut moves = vec![Command::Pass];
                moves.extend(Contract::all().into_iter().map(|contract| Command::Bid { contract }).filter(accepted));
                moves
            }
            Stage::Calling => {
                let mut moves = vec![Command::PlayAlone];
                for suit in Suit::ALL {
                    for rank in 2..=14 {
                        let c = Command::CallPartner { suit, rank };
                        if accepted(&c) {
                            moves.push(c);
                        }
                    }
                }
                moves
            }
            Stage::Discarding => crate::trick::distinct(deal.play.hands[seat].clone())
                .into_iter()
                .map(|card| Command::Discard { card })
                .collect(),
            Stage::Playing => deal.legal_plays(seat),
            Stage::Over => Vec::new(),
        }
    }

    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        let mut moves = vec![Command::Pass, Command::PlayAlone];
        moves.extend(Contract::all().into_iter().map(|contract| Command::Bid { contract }));
        moves.push(Command::Bid { contract: Contract::NoTrumps { tricks: 5 } });
        for suit in Suit::ALL {
            moves.extend([1, 2, 9, 11, 14].into_iter().map(|rank| Command::CallPartner { suit, rank }));
        }
        for card in pack(state.players) {
            moves.push(Command::Discard { card });
            moves.push(Command::Play { card, suit: None });
            moves.extend(Suit::ALL.into_iter().map(|s| Command::Play { card, suit: Some(s) }));
        }
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        self.render(state, viewer, None)
    }

    fn record_view(&self, state: &State, seat: Option<Seat>) -> Value {
        serde_json::to_value(self.render(state, Viewer::Record, seat)).expect("views serialize")
    }

    fn record_event(&self, state: &State, event: &Event, seat: Option<Seat>) -> Value {
        self.redact(state, event, seat.map_or(Viewer::Record, Viewer::Seat), true)
    }

    /// Discards, a widow set aside and a hand laid away stay hidden for ever from all but their
    /// owner; the rest of a deal opens up once it is over.
    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        let owner = |s: Seat| viewer == Viewer::Seat(s);
        match event {
            Event::DealStarted { deal_number, hands, .. } => {
                let deal = state.deals.deal.as_ref().filter(|d| d.number == *deal_number);
                let open = deal_over || viewer == Viewer::Record;
                match deal {
                    Some(d) if open && d.stage == Stage::Over => {
                        full["deck"] = Value::Null;
                        hide_cards(&mut full, &d.hidden_for_ever(viewer));
                        if d.declarer.is_none_or(|s| !owner(s)) {
                            full["widow"] = Value::Null;
                        }
                    }
                    _ => {
                        deals::hide_hands(&mut full, hands, viewer);
                        full["widow"] = Value::Null;
                    }
                }
            }
            Event::WidowTaken { seat, .. } | Event::Discarded { seat, .. } | Event::HandLaidAway { seat, .. }
                if !owner(*seat) =>
            {
                // A discard has one `card`, the others `cards`: hide what the event has, and add
                // no field it does not have.
                for key in ["cards", "card"] {
                    if let Some(hidden) = full.get_mut(key) {
                        *hidden = Value::Null;
                    }
                }
            }
            Event::WidowSetAside { .. } => full["cards"] = Value::Null,
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let called = |c: Card| deal.called == Some(c);
        let mut out = deal.play.hand_secrets(|s, c| deal.is_open(s) || called(c));
        if !deal.widow_taken {
            out.extend(deal.widow.iter().filter(|&&c| !called(c)).map(|&c| (c, Vec::new())));
        }
        if let Some(d) = deal.declarer {
            out.extend(deal.discards.iter().filter(|&&c| !called(c)).map(|&c| (c, vec![d])));
        }
        if let Some((s, cards)) = &deal.laid_away {
            out.extend(cards.iter().map(|&c| (c, vec![*s])));
        }
        out
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = pack(deal.players);
        deals::check_deck(&deal.deck, &pack)?;
        let (_, widow) = deal_packets(deal.players, deal.dealer, &deal.deck);
        if widow != deal.widow {
            return Err("the widow is not the one the deck deals".into());
        }
        if deal.discards.len() > deal.widow.len()
            || (deal.stage == Stage::Playing && deal.declarer.is_some() && deal.discards.len() != deal.widow.len())
        {
            return Err(format!("{} discards for a widow of {}", deal.discards.len(), deal.widow.len()));
        }
        let mut elsewhere = deal.discards.clone();
        if !deal.widow_taken {
            elsewhere.extend(&deal.widow);
        }
        if let Some((_, cards)) = &deal.laid_away {
            elsewhere.extend(cards);
        }
        if matches!(deal.stage, Stage::Bidding | Stage::Calling) && deal.play.hands.iter().any(|h| h.len() != HAND) {
            return Err("a hand is not ten cards before the widow is taken".into());
        }
        deal.play.check(&pack, &elsewhere, |s| deal.hand_size(s), &deal.winner())
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let mut rng = Rng::new(seed);
        let moves = self.legal_moves(state, seat);
        if deal.stage == Stage::Bidding && rng.below(12) == 0 {
            return Some(moves[rng.below(moves.len())].clone());
        }
        Some(match deal.stage {
            Stage::Bidding => bot_bid(state, deal, seat, &mut rng),
            Stage::Calling => call_partner(&moves),
            Stage::Discarding => discard(deal, seat),
            Stage::Playing => bot_play(deal, seat, &mut rng),
            Stage::Over => return None,
        })
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        Some(match deal.stage {
            Stage::Bidding => basic_bid(state, deal, seat),
            Stage::Calling => call_partner(&self.legal_moves(state, seat)),
            Stage::Discarding => discard(deal, seat),
            Stage::Playing => basic_play(deal, seat),
            Stage::Over => return None,
        })
    }

    /// The auction has some thirty bids and five players may call any of some forty cards: the
    /// strong bot weighs a pass, the basic bid, the cheapest bid in each denomination the hand
    /// might make (a trick over its estimate at most), and a call of the highest card of each
    /// suit.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        match deal.stage {
            Stage::Bidding => {
                let hand = &deal.play.hands[seat];
                let mut moves = vec![Command::Pass, basic_bid(state, deal, seat)];
                let legal = biddable(state, deal);
                let denominations = Suit::ALL.map(Some).into_iter().chain([None]);
                for trumps in denominations {
                    let cheapest =
                        legal.iter().filter(|c| !c.is_misere() && c.trumps() == trumps).min_by_key(|c| c.order());
                    if let Some(&contract) = cheapest.filter(|c| c.tricks() <= estimate(hand, trumps) + 1) {
                        moves.push(Command::Bid { contract });
                    }
                }
                let mut unique = Vec::new();
                for m in moves {
                    if !unique.contains(&m) {
                        unique.push(m);
                    }
                }
                unique
            }
            Stage::Calling => {
                let moves = self.legal_moves(state, seat);
                let mut calls = vec![Command::PlayAlone];
                for suit in Suit::ALL {
                    let of_suit =
                        moves.iter().filter(|m| matches!(m, Command::CallPartner { suit: s, .. } if *s == suit));
                    let highest = of_suit.max_by_key(|m| match m {
                        Command::CallPartner { rank, .. } => *rank,
                        _ => 0,
                    });
                    calls.extend(highest.cloned());
                }
                calls
            }
            _ => self.legal_moves(state, seat),
        }
    }

    /// The deal as `seat` knows it: its own hand (with the widow and its discards if it
    /// declared, the hand it laid away), the cards played, an open misère hand, where the called
    /// card is; every other hand, the widow, the discards and a hand laid away dealt afresh from
    /// the rest, keeping their sizes and the suits a seat has shown it lacks.
    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        let deal = state.deals.live()?;
        let n = deal.players;
        let trumps = deal.trumps();
        let declaring = deal.declarer == Some(seat);
        let lays_away = deal.laid_away.as_ref().is_some_and(|(s, _)| *s == seat);
        let played: Vec<Card> = deal.play.played().map(|(_, c)| c).collect();
        // Cards in other hands whose holder everyone knows.
        let mut known: Vec<(Seat, Card)> = Vec::new();
        for s in (0..n).filter(|&s| s != seat) {
            known.extend(
                deal.play.hands[s].iter().filter(|&&c| deal.is_open(s) || deal.called == Some(c)).map(|&c| (s, c)),
            );
        }
        let called_discarded = deal.called.filter(|c| !declaring && deal.discards.contains(c));
        let mut seen: Vec<Card> = deal.play.hands[seat].iter().chain(&played).copied().collect();
        seen.extend(known.iter().map(|(_, c)| *c));
        seen.extend(called_discarded);
        if declaring {
            seen.extend(&deal.discards);
        }
        if lays_away {
            seen.extend(deal.laid_away.iter().flat_map(|(_, cards)| cards));
        }
        let pool: Vec<Card> = pack(n).into_iter().filter(|c| !seen.contains(c)).collect();
        let others: Vec<Seat> = (0..n).filter(|&s| s != seat).collect();
        let void: Vec<Vec<Suit>> = (0..n).map(|s| deal.shown_void(s)).collect();
        let mut sizes: Vec<usize> =
            others.iter().map(|&s| deal.play.hands[s].len() - known.iter().filter(|(k, _)| *k == s).count()).collect();
        let widow_hidden = !deal.widow_taken;
        let discards_hidden = !declaring;
        let laid_away_hidden = deal.laid_away.is_some() && !lays_away;
        sizes.push(if widow_hidden { deal.widow.len() } else { 0 });
        sizes.push(if discards_hidden { deal.discards.len() - usize::from(called_discarded.is_some()) } else { 0 });
        sizes.push(if laid_away_hidden { deal.laid_away.as_ref().map_or(0, |(_, c)| c.len()) } else { 0 });
        let may_hold = |pile: usize, c: Card| {
            pile >= others.len() || suit_of(c, trumps).is_none_or(|suit| !void[others[pile]].contains(&suit))
        };
        let mut dealt = bots::redeal_where(&pool, &sizes, may_hold, rng).into_iter();
        let mut world = state.clone();
        let w = world.deals.live_mut()?;
        for &s in &others {
            let mut hand = dealt.next().expect("a pile per seat");
            hand.extend(known.iter().filter(|(k, _)| *k == s).map(|(_, c)| *c));
            w.play.hands[s] = sorted(hand);
        }
        let (widow, mut discards, laid) = (dealt.next(), dealt.next(), dealt.next());
        if widow_hidden {
            w.widow = widow.expect("the widow");
        }
        if discards_hidden {
            let mut pile = discards.take().expect("the discards");
            pile.extend(called_discarded);
            w.discards = pile;
            if w.widow_taken {
                // The widow itself went into the declarer's hand: any cards of its size will do.
                w.widow = w.discards.clone();
            }
        }
        if laid_away_hidden {
            if let Some((_, cards)) = w.laid_away.as_mut() {
                *cards = laid.expect("the hand laid away");
            }
        }
        // Not the deck as dealt (which nobody may see): the same cards in the pack's order.
        w.deck = pack(n);
        Some(world)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let scores = &state.deals.scores;
        bots::lead_over_mean(scores.len(), |s| scores[s] as f64, scorer(state.players, seat))
    }
}
