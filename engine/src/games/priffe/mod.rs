//! Priffe (Swedish preference): four players in two partnerships ("bolag") that change between
//! sittings. One round of bids from forehand: preference (no trumps), noll (misère), hearts or
//! diamonds as trumps, and the information bids spades and clubs that only tell one's partner
//! about the hand. All passing, or an information bid left standing, gives forced noll. Trick
//! points go below the line and make games of 30; two games win a sitting ("sits"); after three
//! sittings, with places changed so that everyone has partnered everyone, the player with the
//! most points wins.
//!
//! The seats are the players. Their places at the table (chairs, clockwise) change from sitting
//! to sitting, so the card play runs on chairs and every event and view speaks of seats.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, is_permutation, rank_value, sorted, Card, Rank, Suit};
use crate::deals::{self, Deals};
use crate::game::{Outcome, Rules, SetupError, Status, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Direction, Seat};
use crate::trick::{self, Play, PlayView, Trick, TrickPlay, TrickRecord, WinReason};

mod scoring;
pub use scoring::*;
#[cfg(test)]
mod tests;
mod view;
pub use view::{Phase, Table};

#[derive(Default)]
pub struct Priffe;

const SEATS: usize = 4;
/// The chairs round the table, clockwise; the card play runs on chairs.
const CHAIRS: seat::Table = seat::Table { seats: SEATS, direction: Direction::Clockwise };
const TRICKS: u8 = 13;
/// A side's first six tricks earn nothing: a contract is made with seven.
const BOOK: u8 = 6;
const SITTINGS: usize = 3;
/// The text's schema, with the players lettered C, B, D, A as they sit in the first sitting
/// (seats 0 to 3): who sits in each chair, clockwise, in each of the three sittings. Partners sit
/// in chairs 0 and 2, and 1 and 3; over the three sittings everyone partners everyone once.
const SCHEMA: [[Seat; SEATS]; SITTINGS] = [[0, 1, 2, 3], [0, 2, 1, 3], [2, 0, 1, 3]];
pub const DEFAULT_DEALS: u32 = 12;
pub const DEFAULT_POINTS_TARGET: i64 = 100;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "priffe.seating.players";
    pub const SITTINGS: &str = "priffe.seating.sittings";
    pub const ROTATION: &str = "priffe.seating.rotation";

    pub const THIRTEEN_CARDS: &str = "priffe.deal.thirteen-cards";

    pub const HIGHER: &str = "priffe.bid.higher";
    pub const RANKING: &str = "priffe.bid.ranking";
    pub const INFORMATION_FIRST_TWO: &str = "priffe.bid.information-first-two";
    pub const FINAL: &str = "priffe.bid.final";
    pub const FORCED_NOLL: &str = "priffe.bid.forced-noll";

    pub const FIRST_LEAD: &str = "priffe.play.first-lead";
    pub const FOLLOW_SUIT: &str = "priffe.play.follow-suit";
    pub const TRUMPS: &str = "priffe.play.trumps";
    pub const TRICK_WINNER: &str = "priffe.play.trick-winner";
    pub const WINNER_LEADS: &str = "priffe.play.winner-leads";

    pub const MADE: &str = "priffe.score.contract-made";
    pub const DEFEATED: &str = "priffe.score.contract-defeated";
    pub const NOLL_MADE: &str = "priffe.score.noll-made";
    pub const NOLL_DEFEATED: &str = "priffe.score.noll-defeated";
    pub const FORCED: &str = "priffe.score.forced-noll";
    pub const SMALL_SLAM: &str = "priffe.score.small-slam";
    pub const GRAND_SLAM: &str = "priffe.score.grand-slam";
    pub const PENALTY_SMALL_SLAM: &str = "priffe.score.penalty-small-slam";
    pub const PENALTY_GRAND_SLAM: &str = "priffe.score.penalty-grand-slam";
    pub const HONOURS_FOUR: &str = "priffe.score.honours-four";
    pub const HONOURS_THREE_PARTNER: &str = "priffe.score.honours-three-and-partner";
    pub const HONOURS_THREE: &str = "priffe.score.honours-three";
    pub const SHARED: &str = "priffe.score.shared";

    pub const GAME: &str = "priffe.rubber.game";

    pub const OLD_HONOURS: &str = "priffe.variant.old-honours";
    pub const OLD_SLAMS: &str = "priffe.variant.old-slams";
    pub const OLD_GAME_BONUS: &str = "priffe.variant.old-game-bonus";

    pub const FIRST_DEALER: &str = "priffe.house.first-dealer";
    pub const DEAL_SINGLY: &str = "priffe.house.deal-singly";
    pub const TIE: &str = "priffe.house.tie";
}

// ---------------------------------------------------------------------------------------------
// Options

/// How the match is played out.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchEnd {
    /// Games of 30 trick points, two games win a sitting, three sittings with places changed.
    #[default]
    Sittings,
    /// The simpler variant: an agreed number of deals.
    Deals,
    /// The simpler variant: until a side has the agreed points below the line.
    Points,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Sittings and games (the text's main rules), or the simpler variant by deals or points.
    pub match_end: MatchEnd,
    /// The number of deals when `match_end` is `deals`.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 4294967295u32))]
    pub deals: u32,
    /// The points below the line that end the match when `match_end` is `points`.
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub points_target: i64,
    /// The old-fashioned variant: spades and clubs are real bids and trumps, and the old values.
    pub old_style: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            match_end: MatchEnd::Sittings,
            deals: DEFAULT_DEALS,
            points_target: DEFAULT_POINTS_TARGET,
            old_style: false,
        }
    }
}

impl Options {
    /// Trick points below the line that make a game.
    fn game_points(&self) -> i64 {
        if self.old_style {
            20
        } else {
            30
        }
    }
}

/// What a player says in the bidding. Both languages use the Swedish words: they are the game's
/// own terms.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Call {
    Pass,
    /// Information bid (a real bid, the lowest after spader, in the old style).
    Klover,
    /// Information bid, "stor invit" (the lowest real bid in the old style).
    Spader,
    /// Diamonds trumps.
    Ruter,
    /// Hearts trumps.
    Hjarter,
    /// Misère: take as few tricks as possible ("nollissimo").
    Noll,
    /// No trumps, take as many tricks as possible ("priffe", "spel").
    Preference,
}

impl Call {
    pub const ALL: [Call; 7] =
        [Call::Pass, Call::Klover, Call::Spader, Call::Ruter, Call::Hjarter, Call::Noll, Call::Preference];

    /// The rank of a bid, higher beats lower; a pass has none.
    pub fn rank(self, old_style: bool) -> Option<u8> {
        match self {
            Call::Pass => None,
            Call::Klover if old_style => Some(2),
            Call::Spader if old_style => Some(1),
            Call::Klover => Some(1),
            Call::Spader => Some(2),
            Call::Ruter => Some(3),
            Call::Hjarter => Some(4),
            Call::Noll => Some(5),
            Call::Preference => Some(6),
        }
    }

    /// Spader and klöver only inform one's partner, except in the old style.
    pub fn is_information(self, old_style: bool) -> bool {
        !old_style && matches!(self, Call::Spader | Call::Klover)
    }

    pub fn name(self) -> &'static str {
        match self {
            Call::Pass => "pass",
            Call::Klover => "klöver",
            Call::Spader => "spader",
            Call::Ruter => "ruter",
            Call::Hjarter => "hjärter",
            Call::Noll => "noll",
            Call::Preference => "preference",
        }
    }

    fn contract(self) -> Option<Contract> {
        match self {
            Call::Pass => None,
            Call::Klover => Some(Contract::Klover),
            Call::Spader => Some(Contract::Spader),
            Call::Ruter => Some(Contract::Ruter),
            Call::Hjarter => Some(Contract::Hjarter),
            Call::Noll => Some(Contract::Noll),
            Call::Preference => Some(Contract::Preference),
        }
    }
}

/// What a deal is played as.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Contract {
    Preference,
    Noll,
    Hjarter,
    Ruter,
    /// Old style only.
    Klover,
    /// Old style only.
    Spader,
    /// Nobody bid a contract: misère for both sides, with no penalty tricks.
    Tvangsnoll,
}

impl Contract {
    pub fn trumps(self) -> Option<Suit> {
        match self {
            Contract::Hjarter => Some(Suit::Hearts),
            Contract::Ruter => Some(Suit::Diamonds),
            Contract::Klover => Some(Suit::Clubs),
            Contract::Spader => Some(Suit::Spades),
            _ => None,
        }
    }

    pub fn is_noll(self) -> bool {
        matches!(self, Contract::Noll | Contract::Tvangsnoll)
    }

    pub fn name(self) -> &'static str {
        match self {
            Contract::Preference => "preference",
            Contract::Noll => "noll",
            Contract::Hjarter => "hjärter",
            Contract::Ruter => "ruter",
            Contract::Klover => "klöver",
            Contract::Spader => "spader",
            Contract::Tvangsnoll => "tvångsnoll",
        }
    }

    /// Points per trick: 10 in the modern count; by the contract in the old style.
    pub fn trick_value(self, old_style: bool) -> i64 {
        if !old_style {
            return 10;
        }
        match self {
            Contract::Spader => 2,
            Contract::Klover => 3,
            Contract::Ruter => 4,
            Contract::Hjarter => 5,
            Contract::Noll | Contract::Tvangsnoll => 6,
            Contract::Preference => 8,
        }
    }

    /// The four honour cards: the aces at preference, the top four trumps, the twos at noll.
    pub fn honour_cards(self) -> [Card; 4] {
        match self.trumps() {
            Some(s) => [Rank::ACE, Rank::KING, Rank::QUEEN, Rank::JACK].map(|r| Card::new(r, s)),
            None if self.is_noll() => Suit::ALL.map(|s| Card::new(Rank::TWO, s)),
            None => Suit::ALL.map(|s| Card::new(Rank::ACE, s)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// State

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    seating: [Seat; SEATS],
    deck: Vec<Card>,
    /// The hands as dealt, by seat: the honours are counted from them.
    dealt: [Vec<Card>; SEATS],
    /// Taken from the deal's own record, so a deal replayed on its own keeps its rules.
    old_style: bool,
    calls: Vec<(Seat, Call)>,
    contract: Option<Contract>,
    declarer: Option<Seat>,
    /// The card play, on chairs.
    play: TrickPlay,
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    deals: Deals<Deal>,
    sitting: u8,
    seating: [Seat; SEATS],
    below: [i64; 2],
    above: [i64; 2],
    games: [u8; 2],
}

fn chair_of(seating: &[Seat; SEATS], seat: Seat) -> usize {
    seating.iter().position(|&s| s == seat).expect("every seat has a chair")
}

fn side_of(seating: &[Seat; SEATS], seat: Seat) -> usize {
    chair_of(seating, seat) % 2
}

fn seats_of(seating: &[Seat; SEATS], side: usize) -> [Seat; 2] {
    [seating[side], seating[side + 2]]
}

fn side_text(seating: &[Seat; SEATS], side: usize) -> (String, String) {
    let [a, b] = seats_of(seating, side);
    (format!("bolaget plats {a} och {b}"), format!("the side of seats {a} and {b}"))
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match self.contract {
            // Nobody, for the moment between the last call and the end of the bidding.
            None => self.bidding_order().get(self.calls.len()).copied().into_iter().collect(),
            Some(_) if self.play.is_over() => Vec::new(),
            Some(_) => vec![self.seating[self.play.to_play()]],
        }
    }

    fn is_live(&self) -> bool {
        !self.play.is_over()
    }

    fn phase(&self) -> Phase {
        match self.contract {
            None => Phase::Bidding,
            Some(_) if self.play.is_over() => Phase::DealOver,
            Some(_) => Phase::Playing,
        }
    }
}

impl Deal {
    fn chair(&self, seat: Seat) -> usize {
        chair_of(&self.seating, seat)
    }

    fn side(&self, seat: Seat) -> usize {
        side_of(&self.seating, seat)
    }

    fn forehand(&self) -> Seat {
        self.seating[CHAIRS.forehand(self.chair(self.dealer))]
    }

    /// Forehand first, clockwise.
    fn bidding_order(&self) -> Vec<Seat> {
        CHAIRS.order_from(self.chair(self.forehand())).into_iter().map(|c| self.seating[c]).collect()
    }

    /// The highest bid so far and who made it.
    fn highest(&self) -> Option<(Seat, Call)> {
        let old = self.old_style;
        self.calls.iter().copied().filter(|(_, c)| *c != Call::Pass).max_by_key(|(_, c)| c.rank(old))
    }

    fn first_lead(&self) -> Option<Seat> {
        self.contract.map(|_| self.seating[self.play.first_leader()])
    }

    fn declaring_side(&self) -> Option<usize> {
        self.declarer.map(|d| self.side(d))
    }

    fn winner(&self) -> impl Fn(&Trick) -> (Seat, Card, WinReason) {
        let trumps = self.contract.and_then(Contract::trumps);
        move |t: &Trick| trick::winner(t, trumps)
    }

    /// A trick's record with chairs turned into seats.
    fn seated(&self, t: &TrickRecord) -> TrickRecord {
        TrickRecord {
            leader: self.seating[t.leader],
            plays: self.seated_plays(&t.plays),
            winner: self.seating[t.winner],
            ..t.clone()
        }
    }

    fn seated_plays(&self, plays: &[Play]) -> Vec<Play> {
        plays.iter().map(|p| Play { seat: self.seating[p.seat], card: p.card }).collect()
    }

    /// By seat, what the card play keeps by chair.
    fn by_seat<T: Clone>(&self, by_chair: &[T]) -> Vec<T> {
        (0..SEATS).map(|s| by_chair[self.chair(s)].clone()).collect()
    }

    /// The card play as the views show it, by seat.
    fn play_view(&self, record: bool) -> PlayView {
        let v = self.play.view(record);
        PlayView {
            hand_sizes: v.hand_sizes.map(|h| self.by_seat(&h)),
            tricks_taken: v.tricks_taken.map(|t| self.by_seat(&t)),
            tricks_played: v.tricks_played,
            trick: v.trick.map(|mut t| {
                t.leader = self.seating[t.leader];
                t.plays = self.seated_plays(&t.plays);
                t
            }),
            last_trick: v.last_trick.map(|t| t.map(|t| self.seated(&t))),
            hands: v.hands.map(|h| self.by_seat(&h)),
            tricks: v.tricks.map(|ts| ts.iter().map(|t| self.seated(t)).collect()),
        }
    }

    fn hand(&self, seat: Seat) -> &Vec<Card> {
        &self.play.hands[self.chair(seat)]
    }

    fn side_tricks(&self) -> [u32; 2] {
        self.play.side_tricks()
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// A bid or a pass, in turn from forehand.
    Bid {
        bid: Call,
    },
    Play {
        card: Card,
    },
}

/// Honours held in one hand, and how.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HonoursHeld {
    /// All four in one hand.
    Four,
    /// Three in one hand and the fourth with that player's partner.
    ThreeAndPartner,
    /// Three in one hand.
    Three,
}

/// The honours of a deal: who held them.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Honours {
    /// The seat holding three or four of them.
    pub seat: Seat,
    pub held: HonoursHeld,
    /// The four honour cards of the contract.
    pub cards: Vec<Card>,
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
        /// The sitting, 1 to 3 (always 1 in the simpler variant).
        sitting: u8,
        /// Who sits in each chair, clockwise: partners in chairs 0 and 2, and 1 and 3.
        seating: [Seat; SEATS],
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's hand, sorted by suit and rank.
        hands: [Vec<Card>; SEATS],
        /// Each player's total before this deal.
        scores: [i64; SEATS],
        /// Each side's points below the line in the game being played (side 0 is chairs 0 and 2).
        below: [i64; 2],
        /// Each side's points above the line in this sitting.
        above: [i64; 2],
        /// Games each side has won in this sitting.
        games: [u8; 2],
        /// The match's options, which this deal is played under.
        options: Options,
    },
    BidMade {
        seat: Seat,
        bid: Call,
    },
    BiddingEnded {
        contract: Contract,
        /// The seat whose bid is the final bid; null at forced noll.
        declarer: Option<Seat>,
        declaring_side: Option<usize>,
        first_lead: Seat,
        /// The rule that settled the contract.
        rule: String,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
        trick_number: u8,
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
        contract: Contract,
        declarer: Option<Seat>,
        declaring_side: Option<usize>,
        tricks_taken: [u8; SEATS],
        side_tricks: [u8; 2],
        /// Three or four honours in one hand; null when nobody had them.
        honours: Option<Honours>,
        /// The deal's score, by player, term by term (a side's points go to both partners).
        terms: Vec<ScoreTerm>,
        points: [i64; SEATS],
        /// Each player's total after this deal.
        scores: [i64; SEATS],
        /// Each side's points below the line after this deal.
        below: [i64; 2],
        /// Each side's points above the line in this sitting after this deal.
        above: [i64; 2],
    },
    /// A side reached a game; both sides start again from nothing below the line.
    GameWon {
        side: usize,
        seats: [Seat; 2],
        below: [i64; 2],
        games: [u8; 2],
    },
    /// A side won its second game and the sitting; the players change places.
    SittingEnded {
        sitting: u8,
        side: usize,
        winners: [Seat; 2],
        /// The seating of the next sitting; null after the last.
        next_seating: Option<[Seat; SEATS]>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        scores: [i64; SEATS],
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Rules that are pure functions, kept apart so tests can reach them directly

/// The calls a seat may make: a pass, or a bid above the highest so far; the information bids
/// only by the first two to speak (their partners have yet to speak).
pub fn allowed_calls(highest: Option<Call>, position: usize, old_style: bool) -> Vec<Call> {
    let floor = highest.and_then(|c| c.rank(old_style)).unwrap_or(0);
    Call::ALL
        .into_iter()
        .filter(|c| match c.rank(old_style) {
            None => true,
            Some(r) => r > floor && (!c.is_information(old_style) || position < 2),
        })
        .collect()
}

/// The contract a finished bidding gives, the declarer, and the rule that settled it.
pub fn settle(highest: Option<(Seat, Call)>, old_style: bool) -> (Contract, Option<Seat>, &'static str) {
    match highest {
        Some((seat, call)) if !call.is_information(old_style) => {
            (call.contract().expect("a bid names a contract"), Some(seat), rule::FINAL)
        }
        _ => (Contract::Tvangsnoll, None, rule::FORCED_NOLL),
    }
}

/// Who leads to the first trick, by chair: forehand, but at preference the player on the
/// declarer's right.
pub fn first_lead_chair(contract: Contract, forehand_chair: usize, declarer_chair: Option<usize>) -> usize {
    match (contract, declarer_chair) {
        (Contract::Preference, Some(d)) => (d + SEATS - 1) % SEATS,
        _ => forehand_chair,
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_bid(deal: &Deal, seat: Seat, bid: Call) -> Result<Vec<Event>, RuleViolation> {
    if deal.contract.is_some() {
        return Err(RuleViolation::wrong_phase(
            "budgivningen är slut, nu spelas korten",
            "the bidding is over and the cards are being played",
        ));
    }
    let old = deal.old_style;
    let highest = deal.highest();
    let position = deal.calls.len();
    if !allowed_calls(highest.map(|h| h.1), position, old).contains(&bid) {
        let (rule, sv, en) = if bid.is_information(old) && position >= 2 {
            (
                rule::INFORMATION_FIRST_TWO,
                format!("Bara de två första i budgivningen får bjuda {}.", bid.name()),
                format!("Only the first two to bid may bid {}.", bid.name()),
            )
        } else {
            let h = highest.map_or("", |h| h.1.name());
            (
                rule::HIGHER,
                format!("Ett nytt bud måste vara högre än {h}; {} är det inte.", bid.name()),
                format!("A new bid must be higher than {h}; {} is not.", bid.name()),
            )
        };
        return Err(RuleViolation::new(rule, sv, en));
    }
    let mut events = vec![Event::BidMade { seat, bid }];
    if position + 1 == SEATS {
        let mut calls = deal.calls.clone();
        calls.push((seat, bid));
        let highest = calls.iter().copied().filter(|(_, c)| *c != Call::Pass).max_by_key(|(_, c)| c.rank(old));
        let (contract, declarer, rule) = settle(highest, old);
        let lead = first_lead_chair(contract, deal.chair(deal.forehand()), declarer.map(|d| deal.chair(d)));
        events.push(Event::BiddingEnded {
            contract,
            declarer,
            declaring_side: declarer.map(|d| deal.side(d)),
            first_lead: deal.seating[lead],
            rule: rule.to_string(),
        });
    }
    Ok(events)
}

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if deal.contract.is_none() {
        return Err(RuleViolation::wrong_phase("budgivningen pågår", "the bidding is still going on"));
    }
    let chair = deal.chair(seat);
    deal.play.check_held(chair, card)?;
    deal.play.check_follow(chair, card, rule::FOLLOW_SUIT)?;
    let trick_number = deal.play.number() as u8;
    let mut events = vec![Event::CardPlayed { seat, card, trick_number }];
    if let Some(won) = deal.play.completed_by(chair, card, &deal.winner()) {
        events.push(Event::TrickWon {
            trick_number,
            winner: deal.seating[won.winner],
            card: won.card,
            reason: won.reason,
            plays: deal.seated_plays(&won.plays),
        });
        if won.last {
            let taken = std::array::from_fn(|s| won.taken[deal.chair(s)] as u8);
            events.extend(score_deal(state, deal, taken));
        }
    }
    Ok(events)
}

fn score_deal(state: &State, deal: &Deal, tricks_taken: [u8; SEATS]) -> Vec<Event> {
    let options = &state.options;
    let contract = deal.contract.expect("a deal is played only once its contract is settled");
    let seating = deal.seating;
    let side_tricks = [0, 1].map(|side| seats_of(&seating, side).iter().map(|&s| tricks_taken[s]).sum::<u8>());
    let declaring_side = deal.declaring_side();
    let dealt_by_chair: Vec<Vec<Card>> = seating.iter().map(|&s| deal.dealt[s].clone()).collect();
    let held = honours_in(contract, &dealt_by_chair);
    let mut items = score_sides(contract, declaring_side, side_tricks, held.map(|(c, h)| (c % 2, h)), deal.old_style);
    let mut below = state.below;
    let mut above = state.above;
    for i in &items {
        if i.below {
            below[i.side] += i.points;
        } else {
            above[i.side] += i.points;
        }
    }
    let sittings = options.match_end == MatchEnd::Sittings;
    // Only trick points make a game, and one deal gives trick points to one side only.
    let game =
        (sittings && !below.iter().all(|&b| b < options.game_points()))
            .then(|| if below[0] >= below[1] { 0 } else { 1 });
    if let (Some(side), true) = (game, deal.old_style) {
        let second = state.games[side] == 1;
        let bonus = if second { 20 } else { 10 };
        let (sv, en) = if second { ("andra", "second") } else { ("första", "first") };
        above[side] += bonus;
        items.push(SideScore {
            side,
            points: bonus,
            below: false,
            rule: rule::OLD_GAME_BONUS,
            sv: format!("Bonus för {sv} utgång: {bonus} poäng."),
            en: format!("Bonus for the {en} game: {bonus} points."),
        });
    }
    let terms = terms_by_seat(&items, &seating);
    let (points, scores) = state.deals.tally::<SEATS>(&terms);
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        contract,
        declarer: deal.declarer,
        declaring_side,
        tricks_taken,
        side_tricks,
        honours: held.map(|(chair, held)| Honours {
            seat: seating[chair],
            held,
            cards: contract.honour_cards().to_vec(),
        }),
        terms,
        points,
        scores,
        below,
        above,
    }];
    let mut over = match options.match_end {
        MatchEnd::Deals => deal.number >= options.deals,
        MatchEnd::Points => below.iter().any(|&b| b >= options.points_target),
        MatchEnd::Sittings => false,
    };
    if let Some(side) = game {
        let mut games = state.games;
        games[side] += 1;
        events.push(Event::GameWon { side, seats: seats_of(&seating, side), below, games });
        if games[side] == 2 {
            let sitting = state.sitting;
            let last = usize::from(sitting) == SITTINGS;
            events.push(Event::SittingEnded {
                sitting,
                side,
                winners: seats_of(&seating, side),
                next_seating: (!last).then(|| SCHEMA[usize::from(sitting)]),
            });
            over = last;
        }
    }
    if over {
        let winners = seat::match_winners(&scores);
        let mut explanation = Outcome::most_points(&winners, &scores).explanation;
        let (sv, en) = match options.match_end {
            MatchEnd::Sittings => ("Tre sitsar är spelade. ", "Three sittings are played. "),
            MatchEnd::Deals => ("De avtalade givarna är spelade. ", "The agreed deals are played. "),
            MatchEnd::Points => {
                ("Ett bolag nådde målet under strecket. ", "A side reached the target below the line. ")
            }
        };
        explanation = Text::new(format!("{sv}{}", explanation.sv), format!("{en}{}", explanation.en));
        events.push(Event::MatchEnded { winners, scores, explanation });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The bot

/// A rough count of the tricks a hand takes on its own: aces, guarded kings and queens, long
/// suits headed by an honour, and with trumps the length beyond three of the trump suit.
fn estimate_tricks(hand: &[Card], trumps: Option<Suit>) -> f64 {
    let mut tricks = 0.0;
    for suit in Suit::ALL {
        let ranks: Vec<u8> = hand.iter().filter(|c| c.is_suit(suit)).map(|&c| rank_value(c)).collect();
        let n = ranks.len();
        let has = |r: u8| ranks.contains(&r);
        if has(14) {
            tricks += 1.0;
        }
        if has(13) && n >= 2 {
            tricks += if has(14) { 0.9 } else { 0.6 };
        }
        if has(12) && n >= 3 {
            tricks += 0.4;
        }
        if Some(suit) == trumps {
            tricks += n.saturating_sub(3) as f64 * 0.9;
        } else if n >= 5 && (has(14) || has(13)) {
            tricks += (n - 4) as f64 * 0.5;
        }
    }
    tricks
}

/// High cards make a poor noll hand: ace 4, king 3, queen 2, jack 1.
fn high_card_points(hand: &[Card]) -> u32 {
    hand.iter().map(|&c| u32::from(rank_value(c).saturating_sub(10))).sum()
}

fn bot_call(deal: &Deal, seat: Seat, rng: &mut Rng) -> Call {
    let old = deal.old_style;
    let allowed = allowed_calls(deal.highest().map(|h| h.1), deal.calls.len(), old);
    if rng.below(10) == 0 {
        return allowed[rng.below(allowed.len())];
    }
    basic_call(deal, seat, &allowed, &Boldness::TEST_BOT)
}

/// How much a hand must hold before it bids a contract.
struct Boldness {
    /// Estimated tricks (with the partner's information bid) for preference or a trump suit.
    contract: f64,
    /// The most high-card points (ace 4, king 3, queen 2, jack 1) a noll hand may hold.
    noll: u32,
}

impl Boldness {
    /// The test bot's calls, which the recorded corpus depends on.
    const TEST_BOT: Boldness = Boldness { contract: 4.5, noll: 3 };
    /// Bolder: the partner's hand is worth about three tricks, so four from one's own
    /// usually make seven for the side, and at noll a few honours are ducked safely. Against
    /// the test bot this took basic from +11 to +35 points a match (3,000 matches each).
    const BASIC: Boldness = Boldness { contract: 4.0, noll: 7 };
}

/// The highest of the calls the hand is good for: preference or a trump suit on enough
/// estimated tricks (more with an information bid from the partner), noll on few high cards,
/// an information bid on a fair hand.
fn basic_call(deal: &Deal, seat: Seat, allowed: &[Call], bold: &Boldness) -> Call {
    let old = deal.old_style;
    let hand = deal.hand(seat);
    let partner = deal.seating[(deal.chair(seat) + 2) % SEATS];
    let partner_call = deal.calls.iter().find(|(s, _)| *s == partner).map(|c| c.1);
    // An information bid from the partner says the side is strong without trumps.
    let help = match partner_call {
        Some(Call::Spader) if !old => 1.5,
        Some(Call::Klover) if !old => 1.0,
        _ => 0.0,
    };
    let nt = estimate_tricks(hand, None) + help;
    let mut wanted = vec![Call::Pass];
    if nt >= bold.contract {
        wanted.push(Call::Preference);
    }
    for (call, suit) in [
        (Call::Hjarter, Suit::Hearts),
        (Call::Ruter, Suit::Diamonds),
        (Call::Klover, Suit::Clubs),
        (Call::Spader, Suit::Spades),
    ] {
        if !call.is_information(old) && estimate_tricks(hand, Some(suit)) + help >= bold.contract {
            wanted.push(call);
        }
    }
    if high_card_points(hand) <= bold.noll {
        wanted.push(Call::Noll);
    }
    if !old && nt >= 3.5 {
        wanted.push(Call::Spader);
    } else if !old && nt >= 2.8 {
        wanted.push(Call::Klover);
    }
    let best = wanted.into_iter().filter(|c| allowed.contains(c)).max_by_key(|c| c.rank(old));
    best.unwrap_or(Call::Pass)
}

/// The basic bot's card: at noll and forced noll everyone ducks (the defenders score only when
/// the noll side takes tricks); otherwise both sides take tricks: a lead is the top trump, else
/// the highest card (drawing the trumps that would ruff the high cards, and cashing those
/// before they are ruffed: this beat leading a plain ace or a low card, +21 points a match
/// against +11 with the same calls), and the other cards come from `bots::basic_card`, letting
/// a partner's winning card stand.
fn basic_play(deal: &Deal, seat: Seat) -> Option<Card> {
    let contract = deal.contract?;
    let chair = deal.chair(seat);
    let trick = &deal.play.trick;
    let trumps = contract.trumps();
    if trick.is_empty() && !contract.is_noll() {
        let top = |c: &Card| (trumps.is_some_and(|t| c.is_suit(t)), rank_value(*c), c.suit());
        return deal.play.following(chair).into_iter().max_by_key(top);
    }
    let aim = if contract.is_noll() { bots::Aim::Duck } else { bots::Aim::Take };
    let last = trick.plays.len() + 1 == SEATS;
    let partner = Some((chair + 2) % SEATS);
    bots::basic_card(&deal.play.following(chair), trick, contract.trumps(), chair, partner, last, aim)
}

fn bot_play(deal: &Deal, seat: Seat, rng: &mut Rng) -> Card {
    let chair = deal.chair(seat);
    let legal = deal.play.following(chair);
    if legal.len() == 1 || rng.below(6) == 0 {
        return legal[rng.below(legal.len())];
    }
    let contract = deal.contract.expect("cards are played once the contract is settled");
    let trumps = contract.trumps();
    // Cheaper first: plain cards before trumps, low before high.
    let cost = |c: &Card| (trumps.is_some_and(|t| c.is_suit(t)), rank_value(*c), c.suit());
    let cheapest = |cards: &[Card]| cards.iter().copied().min_by_key(cost);
    let dearest = |cards: &[Card]| cards.iter().copied().max_by_key(cost);
    let wants_tricks = !contract.is_noll();
    let trick = &deal.play.trick;
    if trick.is_empty() {
        let pick = if wants_tricks { dearest(&legal) } else { cheapest(&legal) };
        return pick.expect("a legal card");
    }
    let winner = deal.winner();
    let (best, _, _) = winner(trick);
    let (winning, losing) = crate::trick::split_taking(trick, chair, &legal, |t| winner(t).0);
    let pick = if wants_tricks {
        if best % 2 == chair % 2 || winning.is_empty() {
            cheapest(&legal)
        } else {
            cheapest(&winning)
        }
    } else if !losing.is_empty() {
        losing.iter().copied().max_by_key(|c| rank_value(*c))
    } else {
        dearest(&legal)
    };
    pick.expect("a legal card")
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Priffe {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "priffe";
    const PLAYERS: RangeInclusive<usize> = SEATS..=SEATS;
    const RULEBOOK: &'static str = include_str!("../rulebooks/priffe.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        let all = Options::default();
        vec![
            all.clone(),
            Options { old_style: true, ..all.clone() },
            Options { match_end: MatchEnd::Deals, deals: 4, ..all.clone() },
            Options { match_end: MatchEnd::Points, ..all.clone() },
            Options { match_end: MatchEnd::Points, points_target: 60, old_style: true, ..all },
        ]
    }

    fn setup(&self, _players: usize, options: Options) -> Result<State, SetupError> {
        deals::check_target(options.points_target)?;
        if options.deals == 0 {
            return Err(SetupError("deals must be at least 1".into()));
        }
        Ok(State {
            options,
            deals: Deals::new(SEATS),
            sitting: 1,
            seating: SCHEMA[0],
            below: [0; 2],
            above: [0; 2],
            games: [0; 2],
        })
    }

    fn status(&self, state: &State) -> Status {
        state.deals.status(decks::standard52)
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals.number
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let seating = state.seating;
        let by_chair = deals::deal_singly(&CHAIRS, chair_of(&seating, dealer), &deck);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: seating[CHAIRS.forehand(chair_of(&seating, dealer))],
            sitting: state.sitting,
            seating,
            deck,
            hands: std::array::from_fn(|s| sorted(by_chair[chair_of(&seating, s)].clone())),
            scores: std::array::from_fn(|s| state.deals.scores[s]),
            below: state.below,
            above: state.above,
            games: state.games,
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match *command {
            Command::Bid { bid } => decide_bid(deal, seat, bid),
            Command::Play { card } => decide_play(state, deal, seat, card),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted {
                deal_number,
                dealer,
                sitting,
                seating,
                deck,
                hands,
                scores,
                below,
                above,
                games,
                options,
                ..
            } => {
                state.options = options.clone();
                state.sitting = *sitting;
                state.seating = *seating;
                state.below = *below;
                state.above = *above;
                state.games = *games;
                let dealer_chair = chair_of(seating, *dealer);
                // The deal passes to the left; a new sitting keeps the player who deals next.
                state.deals.next_dealer = seating[CHAIRS.next(dealer_chair)];
                let by_chair: Vec<Vec<Card>> = seating.iter().map(|&s| hands[s].clone()).collect();
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    seating: *seating,
                    deck: deck.clone(),
                    dealt: hands.clone(),
                    old_style: options.old_style,
                    calls: Vec::new(),
                    contract: None,
                    declarer: None,
                    play: TrickPlay::new(CHAIRS, by_chair, CHAIRS.forehand(dealer_chair), TRICKS as usize),
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { terms, scores, below, above, .. } => {
                state.deals.scored(terms, scores);
                state.below = *below;
                state.above = *above;
            }
            Event::GameWon { games, .. } => {
                state.below = [0; 2];
                state.games = *games;
            }
            Event::SittingEnded { next_seating, .. } => {
                if let Some(next) = next_seating {
                    state.sitting += 1;
                    state.seating = *next;
                    state.below = [0; 2];
                    state.above = [0; 2];
                    state.games = [0; 2];
                }
            }
            Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                match event {
                    Event::BidMade { seat, bid } => deal.calls.push((*seat, *bid)),
                    Event::BiddingEnded { contract, declarer, first_lead, .. } => {
                        deal.contract = Some(*contract);
                        deal.declarer = *declarer;
                        deal.play.trick = Trick::led_by(chair_of(&deal.seating, *first_lead));
                    }
                    Event::CardPlayed { seat, card, .. } => {
                        let chair = deal.chair(*seat);
                        deal.play.play(chair, *card);
                    }
                    Event::TrickWon { winner, card, reason, .. } => {
                        let chair = deal.chair(*winner);
                        deal.play.won(chair, *card, *reason);
                    }
                    _ => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        match deal.contract {
            None => allowed_calls(deal.highest().map(|h| h.1), deal.calls.len(), deal.old_style)
                .into_iter()
                .map(|bid| Command::Bid { bid })
                .collect(),
            Some(_) => deal.play.following(deal.chair(seat)).into_iter().map(|card| Command::Play { card }).collect(),
        }
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        Call::ALL
            .into_iter()
            .map(|bid| Command::Bid { bid })
            .chain(decks::standard52().into_iter().map(|card| Command::Play { card }))
            .collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(SEATS);
        let record = viewer == Viewer::Record;
        let deal = state.deals.deal.as_ref();
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, SEATS, deal.map(|d| d.dealer)),
            options: state.options.clone(),
            sitting: state.sitting,
            seating: state.seating,
            sides: [seats_of(&state.seating, 0), seats_of(&state.seating, 1)],
            side: me.map(|s| side_of(&state.seating, s)),
            below_the_line: state.below,
            above_the_line: state.above,
            games: state.games,
            game_points: state.options.game_points(),
            forehand: deal.map(Deal::forehand),
            bidding_order: deal.map(Deal::bidding_order),
            bids: deal.map(|d| std::array::from_fn(|s| d.calls.iter().find(|c| c.0 == s).map(|c| c.1))),
            highest_bid: deal.map(|d| d.highest().map(|h| h.1)),
            contract: deal.map(|d| d.contract),
            trumps: deal.map(|d| d.contract.and_then(Contract::trumps)),
            declarer: deal.map(|d| d.declarer),
            declaring_side: deal.map(Deal::declaring_side),
            first_lead: deal.map(Deal::first_lead),
            side_tricks: deal.map(Deal::side_tricks),
            deck: deal.filter(|_| record).map(|d| d.deck.clone()),
            play: deal.map(|d| d.play_view(record)).unwrap_or_default(),
            hand: deal.zip(me).map(|(d, s)| d.hand(s).clone()),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if let Event::DealStarted { deal_number, hands, .. } = event {
            // Without a live deal of its own, the event belongs to a deal that is over.
            if viewer != Viewer::Record && !deal_over && state.deals.live().is_some_and(|d| d.number == *deal_number) {
                deals::hide_hands(&mut full, hands, viewer);
            }
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        deal.play.hand_secrets(|_, _| false).into_iter().map(|(c, chairs)| (c, vec![deal.seating[chairs[0]]])).collect()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        if !SCHEMA.contains(&state.seating) || usize::from(state.sitting) > SITTINGS || state.sitting == 0 {
            return Err(format!("sitting {} with seating {:?}", state.sitting, state.seating));
        }
        if SCHEMA[usize::from(state.sitting) - 1] != state.seating {
            return Err(format!("sitting {} is not seated as the schema says: {:?}", state.sitting, state.seating));
        }
        if state.games.iter().any(|&g| g > 2) || state.below.iter().chain(&state.above).any(|&p| p < 0) {
            return Err(format!("games {:?}, below {:?}, above {:?}", state.games, state.below, state.above));
        }
        if let Some(outcome) = &state.deals.outcome {
            let scores = &state.deals.scores;
            if outcome.winners != seat::match_winners(scores) {
                return Err(format!("winners {:?} with scores {scores:?}", outcome.winners));
            }
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        if !is_permutation(&deal.deck, &pack) {
            return Err("the recorded deck is not a pack of 52".into());
        }
        deal.play.check(&pack, &[], |_| TRICKS as usize, &deal.winner())?;
        let order = deal.bidding_order();
        let old = deal.old_style;
        let mut highest: Option<Call> = None;
        for (i, &(seat, call)) in deal.calls.iter().enumerate() {
            if order.get(i) != Some(&seat) || !allowed_calls(highest, i, old).contains(&call) {
                return Err(format!("call {i} ({seat}, {call:?}) out of turn or not allowed"));
            }
            if call != Call::Pass {
                highest = Some(call);
            }
        }
        match deal.contract {
            // Between the last call and the end of the bidding, all four have spoken.
            None if deal.calls.len() <= SEATS && deal.play.tricks.is_empty() && deal.play.trick.is_empty() => Ok(()),
            Some(contract) if deal.calls.len() == SEATS => {
                let (c, declarer, _) = settle(deal.highest(), old);
                let lead = first_lead_chair(c, deal.chair(deal.forehand()), declarer.map(|d| deal.chair(d)));
                if (c, declarer) != (contract, deal.declarer) || deal.play.first_leader() != lead {
                    return Err(format!(
                        "the bidding gives {c:?} by {declarer:?}, not {contract:?} by {:?}",
                        deal.declarer
                    ));
                }
                Ok(())
            }
            _ => Err(format!("contract {:?} after {} calls", deal.contract, deal.calls.len())),
        }
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let mut rng = Rng::new(seed);
        match deal.contract {
            None => Some(Command::Bid { bid: bot_call(deal, seat, &mut rng) }),
            Some(_) => Some(Command::Play { card: bot_play(deal, seat, &mut rng) }),
        }
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        match deal.contract {
            None => {
                let allowed = allowed_calls(deal.highest().map(|h| h.1), deal.calls.len(), deal.old_style);
                Some(Command::Bid { bid: basic_call(deal, seat, &allowed, &Boldness::BASIC) })
            }
            Some(_) => basic_play(deal, seat).map(|card| Command::Play { card }),
        }
    }

    /// The deal as `seat` knows it: its own hand, the calls made, the cards played; the other
    /// hands dealt afresh (see [`bots::resample_play`], on chairs). The hands as dealt, which
    /// honours are scored from, are rebuilt from the new hands and the cards played.
    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        state.deals.live()?;
        let mut world = state.clone();
        let w = world.deals.live_mut()?;
        let chair = w.chair(seat);
        bots::resample_play(&mut w.play, chair, &decks::standard52(), &[], &[], &mut [], rng);
        let played: Vec<(usize, Card)> = w.play.played().collect();
        let by_chair: Vec<Vec<Card>> = (0..SEATS)
            .map(|c| {
                let own = played.iter().filter(|(p, _)| *p == c).map(|(_, card)| *card);
                sorted(w.play.hands[c].iter().copied().chain(own).collect())
            })
            .collect();
        w.dealt = std::array::from_fn(|s| by_chair[chair_of(&w.seating, s)].clone());
        // Not the deck as dealt (which nobody may see), but the same cards.
        w.deck = by_chair.concat();
        Some(world)
    }

    /// Own points less the mean of the others': a side's points go to both partners, and the
    /// partners change between sittings, so each player counts alone.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bots::lead_over_mean(SEATS, |s| state.deals.scores[s] as f64, seat)
    }
}
