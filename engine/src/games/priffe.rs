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

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::cards::{decks, is_permutation, rank_value, sorted, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{OptionDoc, Outcome, Rules, SetupError, Status, Viewer};
use crate::random::Rng;
use crate::rules::{self, RuleViolation, Rulebook, ScoreTerm, Text};
use crate::seat::{self, Direction, Seat};
use crate::trick::{self, Play, PlayView, Trick, TrickPlay, TrickRecord, WinReason};

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

    pub const ONE_ROUND: &str = "priffe.bid.one-round";
    pub const HIGHER: &str = "priffe.bid.higher";
    pub const RANKING: &str = "priffe.bid.ranking";
    pub const PREFERENCE: &str = "priffe.bid.preference";
    pub const NOLL: &str = "priffe.bid.noll";
    pub const SUIT: &str = "priffe.bid.suit";
    pub const INFORMATION: &str = "priffe.bid.information";
    pub const INFORMATION_FIRST_TWO: &str = "priffe.bid.information-first-two";
    pub const FINAL: &str = "priffe.bid.final";
    pub const FORCED_NOLL: &str = "priffe.bid.forced-noll";

    pub const FIRST_LEAD: &str = "priffe.play.first-lead";
    pub const FIRST_LEAD_PREFERENCE: &str = "priffe.play.first-lead-preference";
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
    pub const HONOUR_CARDS: &str = "priffe.score.honour-cards";
    pub const HONOURS_FOUR: &str = "priffe.score.honours-four";
    pub const HONOURS_THREE_PARTNER: &str = "priffe.score.honours-three-and-partner";
    pub const HONOURS_THREE: &str = "priffe.score.honours-three";
    pub const SHARED: &str = "priffe.score.shared";

    pub const GAME: &str = "priffe.rubber.game";
    pub const ONLY_TRICKS: &str = "priffe.rubber.only-tricks";
    pub const RESET: &str = "priffe.rubber.reset";
    pub const SITTING: &str = "priffe.rubber.sitting";
    pub const WINNER: &str = "priffe.rubber.winner";

    pub const SIMPLE_DEALS: &str = "priffe.variant.simple-deals";
    pub const SIMPLE_POINTS: &str = "priffe.variant.simple-points";
    pub const OLD_BIDS: &str = "priffe.variant.old-bids";
    pub const OLD_VALUES: &str = "priffe.variant.old-values";
    pub const OLD_HONOURS: &str = "priffe.variant.old-honours";
    pub const OLD_SLAMS: &str = "priffe.variant.old-slams";
    pub const OLD_GAME: &str = "priffe.variant.old-game";
    pub const OLD_GAME_BONUS: &str = "priffe.variant.old-game-bonus";

    pub const SEAT_DRAW: &str = "priffe.house.seat-draw";
    pub const FIRST_DEALER: &str = "priffe.house.first-dealer";
    pub const DEAL_SINGLY: &str = "priffe.house.deal-singly";
    pub const NO_DUTY_TO_TRUMP: &str = "priffe.house.no-duty-to-trump";
    pub const FORCED_NOLL_SLAM: &str = "priffe.house.forced-noll-slam";
    pub const ABOVE_THE_LINE: &str = "priffe.house.above-the-line";
    pub const OLD_THREE_AND_PARTNER: &str = "priffe.house.old-three-and-partner";
    pub const OLD_FORCED_NOLL: &str = "priffe.house.old-forced-noll";
    pub const SIMPLE_PARTNERS: &str = "priffe.house.simple-partners";
    pub const SIMPLE_WINNER: &str = "priffe.house.simple-winner";
    pub const TIE: &str = "priffe.house.tie";
}

// ---------------------------------------------------------------------------------------------
// Options, commands, events

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
    pub deals: u32,
    /// The points below the line that end the match when `match_end` is `points`.
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
            None => vec![self.bidding_order()[self.calls.len()]],
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
// The table view

/// Where the match is.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No deal has been dealt yet.
    WaitingForDeal,
    /// One round of bids from forehand.
    Bidding,
    /// The contract is settled and the thirteen tricks are being played.
    Playing,
    /// The deal is played out and scored; the next deal is awaited.
    DealOver,
    /// The match is over.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// The table as one viewer sees it. Scores are by player; the line scores (below and above) are
/// by side of the current sitting, side 0 being chairs 0 and 2.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, each player's total, who is to act, how it ended.
    #[serde(flatten)]
    pub deals: MatchView,
    /// The seat this view is for: only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub seat: Option<Seat>,
    /// The number of players: always 4.
    pub players: usize,
    /// The options the match is played with.
    pub options: Options,
    /// The sitting being played, 1 to 3 (always 1 in the simpler variant).
    pub sitting: u8,
    /// Who sits in each chair, clockwise, in the sitting being played.
    pub seating: [Seat; SEATS],
    /// The two sides of the sitting being played: chairs 0 and 2, then chairs 1 and 3.
    pub sides: [[Seat; 2]; 2],
    /// The viewer's side in the sitting being played: only in a seat's own view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub side: Option<usize>,
    /// Each side's trick points below the line in the game being played.
    pub below_the_line: [i64; 2],
    /// Each side's bonus and honour points above the line in this sitting.
    pub above_the_line: [i64; 2],
    /// Games won by each side in this sitting.
    pub games: [u8; 2],
    /// The trick points below the line that make a game.
    pub game_points: i64,
    /// The deal's forehand: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seats in the order they bid: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bidding_order: Option<Vec<Seat>>,
    /// Each seat's call, by seat, null for a seat that has not spoken: absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bids: Option<[Option<Call>; SEATS]>,
    /// The highest bid so far: null while nobody has bid, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub highest_bid: Option<Option<Call>>,
    /// What the deal is played as: null during the bidding, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<Option<Contract>>,
    /// The trump suit: null without trumps or during the bidding, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trumps: Option<Option<Suit>>,
    /// The seat whose bid stands: null at forced noll and during the bidding, absent before the
    /// first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declarer: Option<Option<Seat>>,
    /// The declarer's side: null when there is none, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declaring_side: Option<Option<usize>>,
    /// Who leads to the first trick: null during the bidding, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_lead: Option<Option<Seat>>,
    /// Tricks taken in this deal by each side: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub side_tricks: Option<[u32; 2]>,
    /// The pack as it was dealt, top card first: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// The card play of the deal, by seat: absent before the first deal.
    #[serde(flatten)]
    pub play: PlayView,
    /// The viewer's own hand: only in a seat's view, from the first deal on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
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

/// Three or four honours in one hand, from the hands as dealt by chair.
pub fn honours_in(contract: Contract, hands_by_chair: &[Vec<Card>]) -> Option<(usize, HonoursHeld)> {
    let honours = contract.honour_cards();
    let count = |c: usize| hands_by_chair[c].iter().filter(|x| honours.contains(x)).count();
    let chair = (0..SEATS).max_by_key(|&c| count(c))?;
    match count(chair) {
        4 => Some((chair, HonoursHeld::Four)),
        3 if count((chair + 2) % SEATS) == 1 => Some((chair, HonoursHeld::ThreeAndPartner)),
        3 => Some((chair, HonoursHeld::Three)),
        _ => None,
    }
}

/// One item of a deal's score for a side: below the line (trick points, which count for game) or
/// above it (bonuses and honours).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideScore {
    pub side: usize,
    pub points: i64,
    pub below: bool,
    pub rule: &'static str,
    pub sv: String,
    pub en: String,
}

/// A deal's score by side: the tricks, the slams and the honours.
pub fn score_sides(
    contract: Contract,
    declaring_side: Option<usize>,
    side_tricks: [u8; 2],
    honours: Option<(usize, HonoursHeld)>,
    old_style: bool,
) -> Vec<SideScore> {
    let value = contract.trick_value(old_style);
    let name = contract.name();
    let item = |side, points, below, rule, sv: String, en: String| SideScore { side, points, below, rule, sv, en };
    let mut items = Vec::new();
    let slam_rule = if old_style { rule::OLD_SLAMS } else { rule::SMALL_SLAM };
    let grand_rule = if old_style { rule::OLD_SLAMS } else { rule::GRAND_SLAM };
    let slams = |items: &mut Vec<SideScore>, side: usize, small: bool, grand: bool| {
        if grand {
            items.push(item(
                side,
                20,
                false,
                grand_rule,
                "Storslam: 20 poäng.".into(),
                "Grand slam: 20 points.".into(),
            ));
        } else if small {
            items.push(item(side, 10, false, slam_rule, "Lillslam: 10 poäng.".into(), "Small slam: 10 points.".into()));
        }
    };
    let penalty_slams = |items: &mut Vec<SideScore>, side: usize, declarer_tricks: u8| {
        // The declarer failed by a slam's margin: the defence took 12 or 13 tricks, or the noll
        // side took 12 or 13.
        let margin = if contract == Contract::Noll { declarer_tricks } else { TRICKS - declarer_tricks };
        if margin == 13 {
            let sv = "Stora straffslam: 40 poäng.".into();
            items.push(item(side, 40, false, rule::PENALTY_GRAND_SLAM, sv, "Penalty grand slam: 40 points.".into()));
        } else if margin == 12 {
            let sv = "Lilla straffslam: 20 poäng.".into();
            items.push(item(side, 20, false, rule::PENALTY_SMALL_SLAM, sv, "Penalty small slam: 20 points.".into()));
        }
    };
    match (contract, declaring_side) {
        (Contract::Tvangsnoll, _) | (_, None) => {
            // Both sides play misère; the side under seven scores, with no penalty tricks.
            let w = if side_tricks[0] < side_tricks[1] { 0 } else { 1 };
            let t = side_tricks[w];
            let p = value * i64::from(BOOK + 1 - t);
            items.push(item(
                w,
                p,
                true,
                rule::FORCED,
                format!("Tvångsnoll och bolaget tog bara {t} stick: {value} × (7 − {t}) = {p} poäng; inga strafftrick."),
                format!("Forced noll and the side took only {t} tricks: {value} × (7 − {t}) = {p} points; no penalty tricks."),
            ));
            slams(&mut items, w, t == 1, t == 0);
        }
        (Contract::Noll, Some(d)) => {
            let t = side_tricks[d];
            if t <= BOOK {
                let p = value * i64::from(BOOK + 1 - t);
                items.push(item(
                    d,
                    p,
                    true,
                    rule::NOLL_MADE,
                    format!("Noll hemspelad med {t} stick: {value} × (7 − {t}) = {p} poäng."),
                    format!("Noll made with {t} tricks: {value} × (7 − {t}) = {p} points."),
                ));
                slams(&mut items, d, t == 1, t == 0);
            } else {
                let o = 1 - d;
                let p = 2 * value * i64::from(t - BOOK);
                items.push(item(
                    o,
                    p,
                    true,
                    rule::NOLL_DEFEATED,
                    format!(
                        "Nollbolaget tog {t} stick, {} strafftrick: 2 × {value} × {} = {p} poäng.",
                        t - BOOK,
                        t - BOOK
                    ),
                    format!(
                        "The noll side took {t} tricks, {} penalty tricks: 2 × {value} × {} = {p} points.",
                        t - BOOK,
                        t - BOOK
                    ),
                ));
                penalty_slams(&mut items, o, t);
            }
        }
        (_, Some(d)) => {
            let t = side_tricks[d];
            if t > BOOK {
                let p = value * i64::from(t - BOOK);
                items.push(item(
                    d,
                    p,
                    true,
                    rule::MADE,
                    format!("{name} hemspelad med {t} stick: {value} × ({t} − 6) = {p} poäng."),
                    format!("{name} made with {t} tricks: {value} × ({t} − 6) = {p} points."),
                ));
                slams(&mut items, d, t == 12, t == 13);
            } else {
                let o = 1 - d;
                let ot = side_tricks[o];
                let p = 2 * value * i64::from(ot - BOOK);
                items.push(item(
                    o,
                    p,
                    true,
                    rule::DEFEATED,
                    format!("Motspelarna tog {ot} stick mot {name}, {} strafftrick: 2 × {value} × {} = {p} poäng.", ot - BOOK, ot - BOOK),
                    format!("The opponents took {ot} tricks against {name}, {} penalty tricks: 2 × {value} × {} = {p} points.", ot - BOOK, ot - BOOK),
                ));
                penalty_slams(&mut items, o, t);
            }
        }
    }
    if let Some((side, held)) = honours {
        let (points, rule, sv, en) = match (held, old_style) {
            (HonoursHeld::Four, false) => {
                (50, rule::HONOURS_FOUR, "alla fyra honnörer på en hand", "all four honours in one hand")
            }
            (HonoursHeld::ThreeAndPartner, false) => (
                40,
                rule::HONOURS_THREE_PARTNER,
                "tre honnörer på en hand och den fjärde hos partnern",
                "three honours in one hand and the fourth with the partner",
            ),
            (HonoursHeld::Three, false) => {
                (30, rule::HONOURS_THREE, "tre honnörer på en hand", "three honours in one hand")
            }
            (HonoursHeld::Four, true) => (
                4 * value,
                rule::OLD_HONOURS,
                "alla fyra honnörer på en hand, som fyra trick",
                "all four honours in one hand, as four tricks",
            ),
            (_, true) => (
                2 * value,
                rule::OLD_HONOURS,
                "tre honnörer på en hand, som två trick",
                "three honours in one hand, as two tricks",
            ),
        };
        items.push(item(
            side,
            points,
            false,
            rule,
            format!("Honnörer: {sv}, {points} poäng."),
            format!("Honours: {en}, {points} points."),
        ));
    }
    items
}

/// Side items as score terms by player: a side's points go to both partners.
fn terms_by_seat(items: &[SideScore], seating: &[Seat; SEATS]) -> Vec<ScoreTerm> {
    let mut terms = Vec::new();
    for i in items {
        let (who_sv, who_en) = side_text(seating, i.side);
        let line_sv = if i.below { "under strecket" } else { "över strecket" };
        let line_en = if i.below { "below the line" } else { "above the line" };
        for seat in seats_of(seating, i.side) {
            terms.push(ScoreTerm::new(
                seat,
                i.points,
                i.rule,
                format!("{} Till {who_sv}, {line_sv}.", i.sv),
                format!("{} To {who_en}, {line_en}.", i.en),
            ));
        }
    }
    terms
}

// ---------------------------------------------------------------------------------------------
// Decisions

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
    if nt >= 4.5 {
        wanted.push(Call::Preference);
    }
    for (call, suit) in [
        (Call::Hjarter, Suit::Hearts),
        (Call::Ruter, Suit::Diamonds),
        (Call::Klover, Suit::Clubs),
        (Call::Spader, Suit::Spades),
    ] {
        if !call.is_information(old) && estimate_tricks(hand, Some(suit)) + help >= 4.5 {
            wanted.push(call);
        }
    }
    if high_card_points(hand) <= 3 {
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
    let wins = |c: Card| {
        let mut t = trick.clone();
        t.plays.push((chair, c));
        winner(&t).0 == chair
    };
    let winning: Vec<Card> = legal.iter().copied().filter(|&c| wins(c)).collect();
    let losing: Vec<Card> = legal.iter().copied().filter(|&c| !wins(c)).collect();
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

    fn id(&self) -> &'static str {
        "priffe"
    }

    fn rulebook(&self) -> Rulebook {
        rules::parse_rulebook("priffe", include_str!("rulebooks/priffe.txt"))
    }

    fn options(&self) -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "match_end",
                default: json!("sittings"),
                sv: "Hur partiet spelas: \"sittings\" med utgångar och tre sitsar (huvudreglerna), eller den enklare varianten \"deals\" (ett avtalat antal givar) eller \"points\" (tills ett bolag nått målet under strecket).",
                en: "How the match is played: \"sittings\" with games and three sittings (the main rules), or the simpler variant \"deals\" (an agreed number of deals) or \"points\" (until a side reaches the target below the line).",
            },
            OptionDoc {
                name: "deals",
                default: json!(DEFAULT_DEALS),
                sv: "Antalet givar när match_end är \"deals\".",
                en: "The number of deals when match_end is \"deals\".",
            },
            OptionDoc {
                name: "points_target",
                default: json!(DEFAULT_POINTS_TARGET),
                sv: "Poängen under strecket som avslutar partiet när match_end är \"points\" (texten nämner 100).",
                en: "The points below the line that end the match when match_end is \"points\" (the text names 100).",
            },
            OptionDoc {
                name: "old_style",
                default: json!(false),
                sv: "Gammaldags priffe: spader och klöver är riktiga bud och trumf, poäng per trick efter bud (spader 2, klöver 3, ruter 4, hjärter 5, noll 6, preference 8), honnörer som två eller fyra trick, utgång vid 20 med bonus 10 och 20.",
                en: "Old-fashioned priffe: spades and clubs are real bids and trumps, points per trick by contract (spades 2, clubs 3, diamonds 4, hearts 5, noll 6, preference 8), honours worth two or four tricks, game at 20 with bonuses of 10 and 20.",
            },
        ]
    }

    fn player_counts(&self) -> std::ops::RangeInclusive<usize> {
        SEATS..=SEATS
    }

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
            deals: state.deals.view(&self.status(state), deal.map(|d| d.dealer)),
            seat: me,
            players: SEATS,
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
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::cards::{card, cards};
    use crate::game::{cards_in, erase};
    use crate::rules::core;
    use crate::simulate::{random_matches, Driver, Plan};

    type M = Driver<Priffe>;

    fn bid(call: Call) -> Command {
        Command::Bid { bid: call }
    }

    fn play(code: &str) -> Command {
        Command::Play { card: card(code) }
    }

    /// Seat 0 holds all thirteen hearts; the others the rest, a suit in turn.
    fn all_hearts() -> [Vec<Card>; SEATS] {
        [
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        ]
        .map(cards)
    }

    impl Driver<Priffe> {
        fn with(options: Value) -> M {
            M::new(4, serde_json::from_value(options).unwrap())
        }

        /// Deals these hands (by seat), whoever deals and wherever they sit.
        fn deal_hands(&mut self, hands: &[Vec<Card>; SEATS]) -> Vec<Event> {
            let seating = self.state.seating;
            let dc = chair_of(&seating, self.state.deals.next_dealer);
            let deck: Vec<Card> = (0..52).map(|i| hands[seating[(dc + 1 + i) % SEATS]][i / 4]).collect();
            self.deal(deck)
        }

        /// The calls in turn from forehand.
        fn calls(&mut self, calls: &[Call]) -> Vec<Event> {
            let mut events = Vec::new();
            for &c in calls {
                let seat = self.to_act()[0];
                events.extend(self.ok(seat, bid(c)));
            }
            events
        }

        fn view(&self, viewer: Viewer) -> Value {
            serde_json::to_value(Priffe.view(&self.state, viewer)).unwrap()
        }

        fn current(&self) -> &Deal {
            self.state.deals.deal.as_ref().unwrap()
        }

        /// Plays out the deal with the bots' choices.
        fn bots_finish(&mut self, seed: u64) -> Vec<Event> {
            let mut events = Vec::new();
            let mut n = seed;
            while let [seat, ..] = self.to_act()[..] {
                n += 1;
                let command = Priffe.bot_move(&self.state, seat, n).unwrap();
                events.extend(self.ok(seat, command));
            }
            events
        }
    }

    fn scored(events: &[Event]) -> (Vec<ScoreTerm>, [i64; SEATS], [i64; 2], [i64; 2]) {
        events
            .iter()
            .find_map(|e| match e {
                Event::DealScored { terms, points, below, above, .. } => Some((terms.clone(), *points, *below, *above)),
                _ => None,
            })
            .expect("the deal was scored")
    }

    fn one(items: &[SideScore]) -> (usize, i64, bool, &'static str) {
        assert_eq!(items.len(), 1, "{items:?}");
        (items[0].side, items[0].points, items[0].below, items[0].rule)
    }

    // --- the text's worked examples -----------------------------------------------------------

    #[test]
    fn worked_example_nine_tricks_give_thirty() {
        let items = score_sides(Contract::Preference, Some(0), [9, 4], None, false);
        assert_eq!(one(&items), (0, 30, true, rule::MADE));
        assert!(items[0].en.contains("10 × (9 − 6) = 30"), "{}", items[0].en);
        assert_eq!(one(&score_sides(Contract::Ruter, Some(1), [4, 9], None, false)), (1, 30, true, rule::MADE));
    }

    #[test]
    fn worked_example_hearts_defeated_by_eight_tricks_gives_forty() {
        // Side A bid hearts, side B won the deal with eight tricks: 40 to side B.
        let items = score_sides(Contract::Hjarter, Some(0), [5, 8], None, false);
        assert_eq!(one(&items), (1, 40, true, rule::DEFEATED));
        assert!(items[0].sv.contains("2 × 10 × 2 = 40"), "{}", items[0].sv);
    }

    #[test]
    fn worked_example_noll_with_six_tricks_ten_with_five_twenty() {
        assert_eq!(one(&score_sides(Contract::Noll, Some(1), [7, 6], None, false)), (1, 10, true, rule::NOLL_MADE));
        assert_eq!(one(&score_sides(Contract::Noll, Some(1), [8, 5], None, false)), (1, 20, true, rule::NOLL_MADE));
        // Failed: the other side scores 20 per trick beyond six the noll side took.
        assert_eq!(one(&score_sides(Contract::Noll, Some(1), [4, 9], None, false)), (0, 60, true, rule::NOLL_DEFEATED));
    }

    #[test]
    fn forced_noll_has_no_penalty_tricks() {
        assert_eq!(one(&score_sides(Contract::Tvangsnoll, None, [9, 4], None, false)), (1, 30, true, rule::FORCED));
        assert_eq!(one(&score_sides(Contract::Tvangsnoll, None, [6, 7], None, false)), (0, 10, true, rule::FORCED));
    }

    #[test]
    fn slams_and_penalty_slams() {
        let rules =
            |items: Vec<SideScore>| items.iter().map(|i| (i.side, i.points, i.below, i.rule)).collect::<Vec<_>>();
        assert_eq!(
            rules(score_sides(Contract::Preference, Some(0), [12, 1], None, false)),
            [(0, 60, true, rule::MADE), (0, 10, false, rule::SMALL_SLAM)]
        );
        assert_eq!(
            rules(score_sides(Contract::Hjarter, Some(1), [0, 13], None, false)),
            [(1, 70, true, rule::MADE), (1, 20, false, rule::GRAND_SLAM)]
        );
        assert_eq!(
            rules(score_sides(Contract::Noll, Some(0), [1, 12], None, false)),
            [(0, 60, true, rule::NOLL_MADE), (0, 10, false, rule::SMALL_SLAM)]
        );
        assert_eq!(
            rules(score_sides(Contract::Noll, Some(0), [0, 13], None, false)),
            [(0, 70, true, rule::NOLL_MADE), (0, 20, false, rule::GRAND_SLAM)]
        );
        assert_eq!(
            rules(score_sides(Contract::Ruter, Some(0), [1, 12], None, false)),
            [(1, 120, true, rule::DEFEATED), (1, 20, false, rule::PENALTY_SMALL_SLAM)]
        );
        assert_eq!(
            rules(score_sides(Contract::Noll, Some(0), [13, 0], None, false)),
            [(1, 140, true, rule::NOLL_DEFEATED), (1, 40, false, rule::PENALTY_GRAND_SLAM)]
        );
        // House rule: forced noll's winning side gets the slam bonus too.
        assert_eq!(
            rules(score_sides(Contract::Tvangsnoll, None, [12, 1], None, false)),
            [(1, 60, true, rule::FORCED), (1, 10, false, rule::SMALL_SLAM)]
        );
    }

    #[test]
    fn honours_fifty_forty_thirty() {
        let hands = |codes: [&str; 4]| codes.map(cards).to_vec();
        let aces_four = hands(["AC AD AH AS", "2C", "3C", "4C"]);
        assert_eq!(honours_in(Contract::Preference, &aces_four), Some((0, HonoursHeld::Four)));
        let three_and_partner = hands(["2C", "AC AD AH", "3C", "AS"]);
        assert_eq!(honours_in(Contract::Preference, &three_and_partner), Some((1, HonoursHeld::ThreeAndPartner)));
        let three = hands(["AS", "AC AD AH", "3C", "4C"]);
        assert_eq!(honours_in(Contract::Preference, &three), Some((1, HonoursHeld::Three)));
        let split = hands(["AS AD", "AC AH", "3C", "4C"]);
        assert_eq!(honours_in(Contract::Preference, &split), None);
        // Trumps' A-K-Q-J, and the twos at noll.
        let hearts = hands(["AH KH QH", "JH", "AS", "AC"]);
        assert_eq!(honours_in(Contract::Hjarter, &hearts), Some((0, HonoursHeld::Three)));
        let twos = hands(["AS", "AC", "2C 2D 2H 2S", "3C"]);
        assert_eq!(honours_in(Contract::Tvangsnoll, &twos), Some((2, HonoursHeld::Four)));
        let points = |held| score_sides(Contract::Preference, Some(0), [7, 6], Some((1, held)), false)[1].clone();
        for (held, p, r) in [
            (HonoursHeld::Four, 50, rule::HONOURS_FOUR),
            (HonoursHeld::ThreeAndPartner, 40, rule::HONOURS_THREE_PARTNER),
            (HonoursHeld::Three, 30, rule::HONOURS_THREE),
        ] {
            let item = points(held);
            assert_eq!((item.side, item.points, item.below, item.rule), (1, p, false, r));
        }
    }

    #[test]
    fn old_style_values_double_penalties_and_honours_as_tricks() {
        let o = |c, d, t, h| score_sides(c, d, t, h, true);
        assert_eq!(one(&o(Contract::Spader, Some(0), [8, 5], None)), (0, 4, true, rule::MADE));
        assert_eq!(one(&o(Contract::Klover, Some(0), [8, 5], None)), (0, 6, true, rule::MADE));
        assert_eq!(one(&o(Contract::Ruter, Some(0), [8, 5], None)), (0, 8, true, rule::MADE));
        assert_eq!(one(&o(Contract::Hjarter, Some(0), [8, 5], None)), (0, 10, true, rule::MADE));
        assert_eq!(one(&o(Contract::Noll, Some(0), [5, 8], None)), (0, 12, true, rule::NOLL_MADE));
        assert_eq!(one(&o(Contract::Preference, Some(0), [8, 5], None)), (0, 16, true, rule::MADE));
        assert_eq!(one(&o(Contract::Preference, Some(0), [5, 8], None)), (1, 32, true, rule::DEFEATED));
        let honours = o(Contract::Hjarter, Some(0), [7, 6], Some((0, HonoursHeld::Three)));
        assert_eq!((honours[1].points, honours[1].rule), (10, rule::OLD_HONOURS));
        let honours = o(Contract::Hjarter, Some(0), [7, 6], Some((0, HonoursHeld::Four)));
        assert_eq!(honours[1].points, 20);
        let slam = o(Contract::Spader, Some(0), [13, 0], None);
        assert_eq!((slam[1].points, slam[1].rule), (20, rule::OLD_SLAMS));
    }

    // --- bidding ------------------------------------------------------------------------------

    #[test]
    fn the_bids_rank_and_information_bids_belong_to_the_first_two() {
        use Call::*;
        assert_eq!(allowed_calls(None, 0, false), Call::ALL);
        assert_eq!(allowed_calls(None, 2, false), [Pass, Ruter, Hjarter, Noll, Preference]);
        assert_eq!(allowed_calls(Some(Klover), 1, false), [Pass, Spader, Ruter, Hjarter, Noll, Preference]);
        assert_eq!(allowed_calls(Some(Hjarter), 1, false), [Pass, Noll, Preference]);
        assert_eq!(allowed_calls(Some(Preference), 3, false), [Pass]);
        // Old style: clubs above spades, anyone may bid them.
        assert_eq!(allowed_calls(Some(Spader), 3, true), [Pass, Klover, Ruter, Hjarter, Noll, Preference]);
        assert_eq!(settle(None, false), (Contract::Tvangsnoll, None, rule::FORCED_NOLL));
        assert_eq!(settle(Some((1, Spader)), false), (Contract::Tvangsnoll, None, rule::FORCED_NOLL));
        assert_eq!(settle(Some((1, Spader)), true), (Contract::Spader, Some(1), rule::FINAL));
        assert_eq!(settle(Some((2, Noll)), false), (Contract::Noll, Some(2), rule::FINAL));
    }

    #[test]
    fn one_round_from_forehand_with_refusals_naming_the_rules() {
        let mut m = M::with(json!({}));
        m.deal_hands(&all_hearts());
        // Seat 0 deals, forehand is seat 1.
        assert_eq!(m.to_act(), [1]);
        assert_eq!(m.view(Viewer::Spectator)["bidding_order"], json!([1, 2, 3, 0]));
        assert_eq!(m.rule_of_refusal(1, play("AC")), core::PHASE);
        m.ok(1, bid(Call::Klover));
        assert_eq!(m.rule_of_refusal(2, bid(Call::Klover)), rule::HIGHER);
        m.ok(2, bid(Call::Spader));
        m.ok(3, bid(Call::Ruter));
        assert_eq!(m.rule_of_refusal(0, bid(Call::Spader)), rule::INFORMATION_FIRST_TWO);
        assert_eq!(m.rule_of_refusal(0, bid(Call::Ruter)), rule::HIGHER);
        let events = m.ok(0, bid(Call::Hjarter));
        assert_eq!(
            events.last(),
            Some(&Event::BiddingEnded {
                contract: Contract::Hjarter,
                declarer: Some(0),
                declaring_side: Some(0),
                first_lead: 1,
                rule: rule::FINAL.into(),
            })
        );
        let view = m.view(Viewer::Spectator);
        assert_eq!(view["bids"], json!(["hjarter", "klover", "spader", "ruter"]));
        assert_eq!(view["trumps"], json!("hearts"));
        assert_eq!(m.rule_of_refusal(1, bid(Call::Preference)), core::PHASE);
    }

    impl Driver<Priffe> {
        /// A refusal's rule; a pass (always allowed) gives an empty string when accepted.
        fn rule_of_refusal(&self, seat: Seat, command: Command) -> String {
            match self.decide(seat, &command) {
                Ok(_) => String::new(),
                Err(_) => {
                    let v = self.refused(seat, command);
                    assert!(!v.explanation.sv.is_empty() && !v.explanation.en.is_empty());
                    v.rule
                }
            }
        }
    }

    #[test]
    fn all_passing_or_an_information_bid_standing_gives_forced_noll_led_by_forehand() {
        for calls in [[Call::Pass; 4], [Call::Pass, Call::Spader, Call::Pass, Call::Pass]] {
            let mut m = M::with(json!({}));
            m.deal_hands(&all_hearts());
            let events = m.calls(&calls);
            let Some(Event::BiddingEnded { contract, declarer, first_lead, rule, .. }) = events.last() else {
                panic!()
            };
            assert_eq!(
                (*contract, *declarer, *first_lead, rule.as_str()),
                (Contract::Tvangsnoll, None, 1, rule::FORCED_NOLL)
            );
            assert_eq!(m.to_act(), [1]);
        }
    }

    #[test]
    fn at_preference_the_player_right_of_the_bidder_leads() {
        // Seat 2 bids preference: seat 1, on its right, leads; at other contracts forehand does.
        let mut m = M::with(json!({}));
        m.deal_hands(&all_hearts());
        let events = m.calls(&[Call::Pass, Call::Preference, Call::Pass, Call::Pass]);
        let Some(Event::BiddingEnded { first_lead, .. }) = events.last() else { panic!() };
        assert_eq!(*first_lead, 1);
        let mut m = M::with(json!({}));
        m.deal_hands(&all_hearts());
        let events = m.calls(&[Call::Preference, Call::Pass, Call::Pass, Call::Pass]);
        let Some(Event::BiddingEnded { first_lead, .. }) = events.last() else { panic!() };
        // Forehand (seat 1) bid it: the dealer, seat 0 on its right, leads.
        assert_eq!((*first_lead, m.to_act()), (0, vec![0]));
        assert_eq!(first_lead_chair(Contract::Noll, 1, Some(2)), 1);
    }

    // --- through play -------------------------------------------------------------------------

    #[test]
    fn a_grand_slam_in_hearts_with_all_honours_makes_game_through_play() {
        let mut m = M::with(json!({}));
        m.deal_hands(&all_hearts());
        m.calls(&[Call::Pass, Call::Pass, Call::Pass, Call::Hjarter]);
        // Seat 1 leads; seat 0 trumps every trick, following suit being impossible.
        assert_eq!(m.rule_of_refusal(2, play("AD")), core::TURN);
        m.ok(1, play("AC"));
        assert_eq!(m.rule_of_refusal(2, play("AH")), core::CARD_NOT_HELD);
        m.ok(2, play("2D"));
        m.ok(3, play("2S"));
        let events = m.ok(0, play("2H"));
        assert!(matches!(events.last(), Some(Event::TrickWon { winner: 0, reason: WinReason::HighestTrump, .. })));
        let events = m.finish_deal();
        let (terms, points, below, above) = scored(&events);
        assert_eq!(points, [140, 0, 140, 0]);
        assert_eq!((below, above), ([70, 0], [70, 0]));
        let rules: Vec<&str> = terms.iter().map(|t| t.rule.as_str()).collect();
        assert_eq!(
            rules,
            [rule::MADE, rule::MADE, rule::GRAND_SLAM, rule::GRAND_SLAM, rule::HONOURS_FOUR, rule::HONOURS_FOUR]
        );
        assert!(events.iter().any(|e| matches!(e, Event::GameWon { side: 0, seats: [0, 2], games: [1, 0], .. })));
        let view = m.view(Viewer::Spectator);
        assert_eq!((view["below_the_line"].clone(), view["games"].clone()), (json!([0, 0]), json!([1, 0])));
        assert_eq!(view["scores"], json!([140, 0, 140, 0]));
    }

    #[test]
    fn two_games_win_the_sitting_and_the_players_change_places() {
        let mut m = M::with(json!({}));
        for deal in 0..2 {
            // Seat 0 holds the hearts whoever deals.
            m.deal_hands(&all_hearts());
            let forehand = m.current().forehand();
            let calls: Vec<Call> =
                m.current().bidding_order().iter().map(|&s| if s == 0 { Call::Hjarter } else { Call::Pass }).collect();
            assert_eq!(m.to_act(), [forehand]);
            m.calls(&calls);
            let events = m.finish_deal();
            if deal == 1 {
                assert!(events.iter().any(|e| matches!(
                    e,
                    Event::SittingEnded { sitting: 1, side: 0, winners: [0, 2], next_seating: Some([0, 2, 1, 3]) }
                )));
            }
        }
        assert_eq!((m.state.sitting, m.state.seating), (2, [0, 2, 1, 3]));
        let view = m.view(Viewer::Seat(1));
        assert_eq!((view["sides"].clone(), view["side"].clone()), (json!([[0, 1], [2, 3]]), json!(0)));
        assert_eq!(view["games"], json!([0, 0]));
        // The third deal is dealt by seat 2, who sits in chair 1: forehand is seat 1 in chair 2.
        let events = m.deal_hands(&all_hearts());
        let Event::DealStarted { dealer, forehand, sitting, .. } = &events[0] else { panic!() };
        assert_eq!((*dealer, *forehand, *sitting), (2, 1, 2));
        assert_eq!(m.view(Viewer::Spectator)["bidding_order"], json!([1, 3, 0, 2]));
        m.calls(&[Call::Pass, Call::Pass, Call::Pass, Call::Pass]);
        // Play goes round the chairs: 1, 3, 0, 2.
        let mut order = Vec::new();
        for _ in 0..4 {
            let seat = m.to_act()[0];
            order.push(seat);
            let first = m.legal(seat).swap_remove(0);
            m.ok(seat, first);
        }
        assert_eq!(order, [1, 3, 0, 2]);
    }

    #[test]
    fn three_sittings_end_the_match_with_the_most_points_winning() {
        let mut m = M::with(json!({}));
        let mut sittings = 0;
        let mut deals = 0;
        while !Priffe.status(&m.state).is_finished() {
            deals += 1;
            assert!(deals < 200, "the match goes on");
            m.deal_hands(&all_hearts());
            let calls: Vec<Call> =
                m.current().bidding_order().iter().map(|&s| if s == 0 { Call::Hjarter } else { Call::Pass }).collect();
            m.calls(&calls);
            let events = m.finish_deal();
            sittings += events.iter().filter(|e| matches!(e, Event::SittingEnded { .. })).count();
        }
        // Seat 0 wins every deal, so six deals; its partners change.
        assert_eq!((sittings, deals), (3, 6));
        let Status::Finished { outcome } = Priffe.status(&m.state) else { panic!() };
        assert_eq!(outcome.winners, [0]);
        assert_eq!(m.state.deals.scores, [840, 280, 280, 280]);
        assert!(outcome.explanation.en.starts_with("Three sittings are played."), "{}", outcome.explanation.en);
        assert_eq!(m.rule_of_refusal(0, bid(Call::Pass)), core::MATCH_OVER);
    }

    #[test]
    fn the_simpler_variant_ends_after_the_agreed_deals_or_points() {
        let mut m = M::with(json!({ "match_end": "deals", "deals": 2 }));
        for _ in 0..2 {
            m.deal_hands(&all_hearts());
            m.calls(&[Call::Pass, Call::Pass, Call::Pass, Call::Pass]);
            m.finish_deal();
        }
        assert!(Priffe.status(&m.state).is_finished());
        assert_eq!(m.state.seating, SCHEMA[0]);
        let mut m = M::with(json!({ "match_end": "points", "points_target": 100 }));
        m.deal_hands(&all_hearts());
        m.calls(&[Call::Pass, Call::Pass, Call::Pass, Call::Hjarter]);
        let events = m.finish_deal();
        assert!(!events.iter().any(|e| matches!(e, Event::GameWon { .. })), "no games in the simpler variant");
        assert!(!Priffe.status(&m.state).is_finished());
        m.deal_hands(&all_hearts());
        let calls: Vec<Call> =
            m.current().bidding_order().iter().map(|&s| if s == 0 { Call::Hjarter } else { Call::Pass }).collect();
        m.calls(&calls);
        m.finish_deal();
        assert_eq!(m.state.below, [140, 0]);
        let Status::Finished { outcome } = Priffe.status(&m.state) else { panic!() };
        assert_eq!(outcome.winners, [0, 2]);
    }

    #[test]
    fn old_style_spades_are_trumps_and_a_game_earns_its_bonus() {
        let mut m = M::with(json!({ "old_style": true }));
        let mut hands = all_hearts();
        hands.swap(0, 3);
        // Seat 0 now holds the spades and bids them; in the old style they are trumps.
        m.deal_hands(&hands);
        assert_eq!(m.legal(1).len(), 7);
        let events = m.calls(&[Call::Pass, Call::Pass, Call::Pass, Call::Spader]);
        assert!(matches!(
            events.last(),
            Some(Event::BiddingEnded { contract: Contract::Spader, declarer: Some(0), .. })
        ));
        let events = m.finish_deal();
        let (_, points, below, _) = scored(&events);
        // 7 odd tricks at 2, grand slam 20, four honours as four tricks (8): 14 is short of game.
        assert_eq!(below, [14, 0]);
        assert_eq!(points, [42, 0, 42, 0]);
        assert!(!events.iter().any(|e| matches!(e, Event::GameWon { .. })));
        // A second such deal makes game, and the side's first game earns 10 above the line.
        m.deal_hands(&hands);
        let calls: Vec<Call> =
            m.current().bidding_order().iter().map(|&s| if s == 0 { Call::Spader } else { Call::Pass }).collect();
        m.calls(&calls);
        let events = m.finish_deal();
        let (terms, points, _, above) = scored(&events);
        assert_eq!((points, above), ([52, 0, 52, 0], [66, 0]));
        assert!(terms.iter().any(|t| t.rule == rule::OLD_GAME_BONUS));
        assert!(events.iter().any(|e| matches!(e, Event::GameWon { side: 0, below: [28, 0], .. })));
        assert!(terms.iter().any(|t| t.rule == rule::OLD_HONOURS));
    }

    // --- views and secrets --------------------------------------------------------------------

    #[test]
    fn a_seat_sees_only_its_own_hand_until_the_deal_is_over() {
        let mut m = M::with(json!({}));
        let events = m.deal_hands(&all_hearts());
        let e = &events[0];
        let own = Priffe.redact(&m.state, e, Viewer::Seat(1), false);
        assert_eq!(own["deck"], Value::Null);
        assert_eq!(own["hands"][1], json!(all_hearts()[1]));
        assert_eq!(own["hands"][0], Value::Null);
        assert!(cards_in(&Priffe.redact(&m.state, e, Viewer::Spectator, false)).is_empty());
        let view = m.view(Viewer::Seat(1));
        assert_eq!(view["hand"], own["hands"][1]);
        assert!(view.get("hands").is_none());
        assert!(cards_in(&m.view(Viewer::Spectator)).is_empty());
        m.calls(&[Call::Pass; 4]);
        m.finish_deal();
        assert_eq!(m.view(Viewer::Record)["hands"], json!([[], [], [], []]));
        assert_eq!(m.view(Viewer::Record)["tricks"].as_array().unwrap().len(), 13);
    }

    #[test]
    fn options_have_defaults_and_are_checked() {
        let game = erase(Priffe);
        assert_eq!(
            game.normalize_options(&Value::Null).unwrap(),
            json!({ "match_end": "sittings", "deals": 12, "points_target": 100, "old_style": false })
        );
        assert!(game.setup(4, &json!({ "deals": 0 })).is_err());
        assert!(game.setup(4, &json!({ "points_target": 0 })).is_err());
        assert!(game.setup(4, &json!({ "match_end": "forever" })).is_err());
    }

    #[test]
    fn the_bot_bids_sensibly_and_plays_legal_cards() {
        let mut m = M::with(json!({}));
        m.deal_hands(&all_hearts());
        // Every call is legal and the bot holding thirteen hearts bids them or more.
        let events = m.bots_finish(5);
        assert!(events.iter().any(|e| matches!(e, Event::DealScored { .. })));
        assert!(estimate_tricks(&all_hearts()[0], Some(Suit::Hearts)) > 9.0);
        assert_eq!(high_card_points(&cards("2C 3C 4D 5H")), 0);
    }

    // --- random matches -----------------------------------------------------------------------

    /// What every match's log must show, and (into `seen`) what happened in it.
    fn check_log(options: &Value, log: &[Value], seen: &mut BTreeSet<String>) {
        let options: Options = serde_json::from_value(options.clone()).unwrap();
        let book = Priffe.rulebook();
        let mut totals = [0i64; SEATS];
        let mut seating = SCHEMA[0];
        let mut below = [0i64; 2];
        let mut games = [0u8; 2];
        let mut sittings_ended = 0;
        let mut deals = 0;
        let mut ended = false;
        let mut contract = None;
        let mut declaring_side = None;
        for value in log {
            assert!(!ended, "an event after the end of the match: {value}");
            match serde_json::from_value::<Event>(value.clone()).unwrap() {
                Event::DealStarted { scores, seating: s, below: b, games: g, sitting, .. } => {
                    deals += 1;
                    assert_eq!((scores, s, b, g), (totals, seating, below, games));
                    assert_eq!(usize::from(sitting), sittings_ended + 1);
                }
                Event::BiddingEnded { contract: c, declaring_side: d, rule, .. } => {
                    contract = Some(c);
                    declaring_side = d;
                    seen.insert(format!("contract {}", c.name()));
                    assert!(book.rule(&rule).is_some());
                }
                Event::DealScored { side_tricks, terms, scores, below: b, honours, .. } => {
                    assert_eq!(side_tricks[0] + side_tricks[1], TRICKS);
                    let c = contract.take().unwrap();
                    let held = honours.as_ref().map(|h| (side_of(&seating, h.seat), h.held));
                    let items = score_sides(c, declaring_side, side_tricks, held, options.old_style);
                    for i in items.iter().filter(|i| i.below) {
                        below[i.side] += i.points;
                    }
                    assert_eq!(b, below);
                    for t in &terms {
                        assert!(book.rule(&t.rule).is_some(), "{} is not in the rulebook", t.rule);
                        totals[t.to] += t.points;
                        seen.insert(t.rule.clone());
                    }
                    assert_eq!(scores, totals);
                }
                Event::GameWon { side, games: g, .. } => {
                    assert!(below[side] >= options.game_points() && below[1 - side] < options.game_points());
                    games[side] += 1;
                    assert_eq!(g, games);
                    below = [0; 2];
                    seen.insert("game".into());
                }
                Event::SittingEnded { side, next_seating, .. } => {
                    assert_eq!(games[side], 2);
                    sittings_ended += 1;
                    games = [0; 2];
                    if let Some(next) = next_seating {
                        assert_eq!(next, SCHEMA[sittings_ended]);
                        seating = next;
                    }
                    seen.insert("sitting".into());
                }
                Event::MatchEnded { winners, scores, .. } => {
                    assert_eq!(scores, totals);
                    assert_eq!(winners, seat::match_winners(&totals));
                    match options.match_end {
                        MatchEnd::Sittings => assert_eq!(sittings_ended, SITTINGS),
                        MatchEnd::Deals => assert_eq!(deals, options.deals),
                        MatchEnd::Points => assert!(below.iter().any(|&b| b >= options.points_target)),
                    }
                    ended = true;
                }
                Event::BidMade { .. } | Event::CardPlayed { .. } | Event::TrickWon { .. } => {}
            }
        }
        assert!(ended, "the match ended");
    }

    #[test]
    fn random_match_logs_add_up_and_every_kind_of_deal_happens() {
        let mut seen = BTreeSet::new();
        let plan = Plan { invariants: 4, log_only: 30, ..Plan::default() };
        random_matches(&*erase(Priffe), plan, |_, options, report| check_log(options, &report.log, &mut seen))
            .unwrap_or_else(|e| panic!("{e}"));
        for kind in ["preference", "noll", "hjärter", "ruter", "klöver", "spader", "tvångsnoll"] {
            assert!(seen.contains(&format!("contract {kind}")), "contract {kind} never happened");
        }
        for rule in [
            rule::MADE,
            rule::DEFEATED,
            rule::NOLL_MADE,
            rule::NOLL_DEFEATED,
            rule::FORCED,
            rule::HONOURS_THREE,
            rule::HONOURS_THREE_PARTNER,
            rule::OLD_GAME_BONUS,
            "game",
            "sitting",
        ] {
            assert!(seen.contains(rule), "{rule} never happened");
        }
    }
}
