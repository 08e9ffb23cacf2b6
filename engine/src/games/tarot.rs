//! Tarot (French tarot) for 3, 4 and 5 players: the 78-card pack, one round of bidding for a
//! contract (small, big, without the dog, against the dog), the dog, in five-player games a
//! called king and a secret partner, trick play with trumps and the Excuse, and the scoring of
//! file 004 with its advanced rules (petit au bout, poignée, tröst) and the federation's slam.
//!
//! Play and dealing go counter-clockwise. A match is a fixed number of deals (one round by
//! default) or runs to a score limit. Card points are kept in half points throughout, so that
//! the 91 points of the pack are 182 whole units and no rounding happens until the count.

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::bidding::Auction;
use crate::cards::{decks, take_card, Card, Rank, Suit};
use crate::game::{OptionDoc, Outcome, Rules, SetupError, Status, Viewer};
use crate::rules::{self, core, RuleViolation, Rulebook, ScoreTerm};
use crate::seat::{match_winners, Seat, Table};
use crate::trick::Trick;
pub use crate::trick::Play;

/// The rules of Tarot. Register with `erase(tarot::Tarot)`.
#[derive(Default)]
pub struct Tarot;

pub const DECK_SIZE: usize = 78;
pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 5;
/// All the card points of the pack, in half points (91 points).
pub const TOTAL_HALF_POINTS: u32 = 182;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PACK: &str = "tarot.cards.pack";
    pub const CARD_ORDER: &str = "tarot.cards.order";
    pub const BOUTS: &str = "tarot.cards.bouts";
    pub const CARD_POINTS: &str = "tarot.cards.points";

    pub const PLAYERS: &str = "tarot.deal.players";
    pub const DEALER: &str = "tarot.deal.dealer";
    pub const PACKETS: &str = "tarot.deal.packets";
    pub const DOG_SINGLY: &str = "tarot.deal.dog-singly";
    pub const PETIT_SEC: &str = "tarot.deal.petit-sec";

    pub const BID_ORDER: &str = "tarot.bidding.order";
    pub const CONTRACTS: &str = "tarot.bidding.contracts";
    pub const BID_HIGHER: &str = "tarot.bidding.higher";
    pub const ALL_PASS: &str = "tarot.bidding.all-pass";

    pub const CALL_KING: &str = "tarot.call.king";
    pub const SECRET_PARTNER: &str = "tarot.call.secret-partner";
    pub const CALLED_ALONE: &str = "tarot.call.alone";

    pub const DOG_SHOWN: &str = "tarot.dog.shown";
    pub const DISCARD: &str = "tarot.dog.discard";
    pub const NO_KINGS_OR_BOUTS: &str = "tarot.dog.no-kings-or-bouts";
    pub const TRUMPS_IF_FORCED: &str = "tarot.dog.trumps-if-forced";
    pub const DOG_WITHOUT: &str = "tarot.dog.without";
    pub const DOG_AGAINST: &str = "tarot.dog.against";

    pub const FIRST_LEAD: &str = "tarot.play.first-lead";
    pub const CALLED_SUIT_LEAD: &str = "tarot.play.called-suit-lead";
    pub const FOLLOW_SUIT: &str = "tarot.play.follow-suit";
    pub const MUST_TRUMP: &str = "tarot.play.must-trump";
    pub const OVERTRUMP: &str = "tarot.play.overtrump";
    pub const TRICK_WINNER: &str = "tarot.play.trick-winner";
    pub const WINNER_LEADS: &str = "tarot.play.winner-leads";

    pub const EXCUSE_ANY_TIME: &str = "tarot.excuse.any-time";
    pub const EXCUSE_LED: &str = "tarot.excuse.led";
    pub const EXCUSE_NEVER_WINS: &str = "tarot.excuse.never-wins";
    pub const EXCUSE_KEPT: &str = "tarot.excuse.kept";
    pub const EXCUSE_LAST_TRICK: &str = "tarot.excuse.last-trick";
    pub const EXCUSE_SLAM: &str = "tarot.excuse.slam";

    pub const TARGETS: &str = "tarot.score.targets";
    pub const HALF_POINT: &str = "tarot.score.half-point";
    pub const BASE: &str = "tarot.score.base";
    pub const DIFFERENCE: &str = "tarot.score.difference";
    pub const MULTIPLIER: &str = "tarot.score.multiplier";
    pub const SHARES: &str = "tarot.score.shares";
    pub const PARTNER_SHARE: &str = "tarot.score.partner-share";
    pub const ZERO_SUM: &str = "tarot.score.zero-sum";

    pub const PETIT_AU_BOUT: &str = "tarot.advanced.petit-au-bout";
    pub const POIGNEE: &str = "tarot.advanced.poignee";
    pub const POIGNEE_SIZES: &str = "tarot.advanced.poignee-sizes";
    pub const POIGNEE_TRUMPS: &str = "tarot.advanced.poignee-trumps";
    pub const POIGNEE_EXCUSE: &str = "tarot.advanced.poignee-excuse";
    pub const POIGNEE_WHEN: &str = "tarot.advanced.poignee-when";
    pub const TROST: &str = "tarot.advanced.trost";
    pub const SLAM: &str = "tarot.advanced.slam";
    pub const SLAM_LEAD: &str = "tarot.advanced.slam-lead";
    pub const DEFENCE_SLAM: &str = "tarot.advanced.defence-slam";

    pub const MATCH_DEALS: &str = "tarot.end.deals";
    pub const SCORE_LIMIT: &str = "tarot.end.score-limit";
    pub const MATCH_WINNER: &str = "tarot.end.winner";

    pub const FFT_HALF_POINT: &str = "tarot.variant.fft-half-point";
    pub const ADVANCED_OFF: &str = "tarot.variant.advanced-off";

    pub const DOG_POSITIONS: &str = "tarot.house.dog-positions";
    pub const CANCELLED_DEAL: &str = "tarot.house.cancelled-deal";
    pub const DISCARD_SINGLY: &str = "tarot.house.discard-singly";
    pub const CALL_OWN_CARD: &str = "tarot.house.call-own-card";
    pub const SLAM_AFTER_DOG: &str = "tarot.house.slam-after-dog";
    pub const CALLED_LEAD_ONLY: &str = "tarot.house.called-lead-only";
    pub const EXCHANGE_AT_COUNT: &str = "tarot.house.excuse-exchange-at-count";
    pub const EXCUSE_NO_CARD: &str = "tarot.house.excuse-no-card";
    pub const PETIT_CAPTURED: &str = "tarot.house.petit-au-bout-captured";
    pub const ONE_POIGNEE: &str = "tarot.house.one-poignee";
    pub const LOWEST_TRUMPS_SHOWN: &str = "tarot.house.lowest-trumps-shown";
    pub const TROST_UNSEEN: &str = "tarot.house.trost-unseen";
    pub const SLAM_BOTH_WAYS: &str = "tarot.house.slam-both-ways";
    pub const DOG_HIDDEN_UNTIL_END: &str = "tarot.house.dog-hidden-until-end";
    pub const TIES_SHARE: &str = "tarot.house.ties-share";
}

// ---------------------------------------------------------------------------------------------
// The cards

pub const JACK: u8 = 11;
pub const KNIGHT: u8 = 12;
pub const QUEEN: u8 = 13;
pub const KING: u8 = 14;

/// A suit card's place in its suit: 1-10, then jack 11, knight 12, queen 13, king 14. `None`
/// for trumps, the Excuse and cards outside the tarot pack (aces, jokers).
pub fn suit_value(card: Card) -> Option<u8> {
    match card {
        Card::One(_) => Some(1),
        Card::Knight(_) => Some(KNIGHT),
        Card::Suited { rank, .. } => match rank.value() {
            v @ 2..=10 => Some(v),
            11 => Some(JACK),
            12 => Some(QUEEN),
            13 => Some(KING),
            _ => None,
        },
        _ => None,
    }
}

/// The suit card of `value` (1-14) in `suit`.
pub fn suit_card(suit: Suit, value: u8) -> Card {
    match value {
        1 => Card::One(suit),
        JACK => Card::new(Rank::JACK, suit),
        KNIGHT => Card::Knight(suit),
        QUEEN => Card::new(Rank::QUEEN, suit),
        KING => Card::new(Rank::KING, suit),
        v => Card::new(Rank::new(v).expect("2 to 10"), suit),
    }
}

pub fn trump_number(card: Card) -> Option<u8> {
    match card {
        Card::Trump(n) if (1..=21).contains(&n) => Some(n),
        _ => None,
    }
}

pub fn is_trump(card: Card) -> bool {
    trump_number(card).is_some()
}

pub const PETIT: Card = Card::Trump(1);
pub const TWENTY_ONE: Card = Card::Trump(21);
pub const EXCUSE: Card = Card::Excuse;

/// The three bouts: the Petit, the 21 and the Excuse.
pub fn is_bout(card: Card) -> bool {
    matches!(card, PETIT | TWENTY_ONE | EXCUSE)
}

pub fn is_king(card: Card) -> bool {
    suit_value(card) == Some(KING)
}

/// King, queen, knight or jack.
pub fn is_court(card: Card) -> bool {
    suit_value(card).is_some_and(|v| v >= JACK)
}

/// Card points in half points: bouts and kings 9, queens 7, knights 5, jacks 3, the rest 1.
pub fn half_points(card: Card) -> u32 {
    if is_bout(card) {
        return 9;
    }
    match suit_value(card) {
        Some(KING) => 9,
        Some(QUEEN) => 7,
        Some(KNIGHT) => 5,
        Some(JACK) => 3,
        _ => 1,
    }
}

pub fn half_points_of(cards: &[Card]) -> u32 {
    cards.iter().map(|&c| half_points(c)).sum()
}

/// Half points as a reader writes them: 101 is "50.5".
pub fn points_text(half: u32) -> String {
    if half.is_multiple_of(2) {
        format!("{}", half / 2)
    } else {
        format!("{}.5", half / 2)
    }
}

/// The card's place in [`decks::tarot78`]: suits C D H S from the 1 up, trumps, the Excuse.
pub fn index78(card: Card) -> Option<usize> {
    if let Some(v) = suit_value(card) {
        let suit = Suit::ALL.iter().position(|&s| Some(s) == card.suit())?;
        return Some(suit * 14 + v as usize - 1);
    }
    match card {
        Card::Excuse => Some(77),
        c => trump_number(c).map(|n| 55 + n as usize),
    }
}

fn sort_hand(hand: &mut [Card]) {
    hand.sort_by_key(|&c| index78(c));
}

/// True when `cards` are the 78 of the tarot pack, each once.
fn is_whole_pack(cards: impl Iterator<Item = Card>) -> bool {
    let mut seen = [false; DECK_SIZE];
    let mut count = 0;
    for c in cards {
        let Some(i) = index78(c) else { return false };
        if seen[i] {
            return false;
        }
        seen[i] = true;
        count += 1;
    }
    count == DECK_SIZE
}

fn suit_name(suit: Suit) -> (&'static str, &'static str) {
    (suit.name_sv(), suit.name_en())
}

/// What a trick is being played in: a suit, or trumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Led {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
    Trumps,
}

impl Led {
    fn of(card: Card) -> Option<Led> {
        if is_trump(card) {
            return Some(Led::Trumps);
        }
        card.suit().map(|s| match s {
            Suit::Clubs => Led::Clubs,
            Suit::Diamonds => Led::Diamonds,
            Suit::Hearts => Led::Hearts,
            Suit::Spades => Led::Spades,
        })
    }

    fn matches(self, card: Card) -> bool {
        Led::of(card) == Some(self)
    }

    fn names(self) -> (&'static str, &'static str) {
        match self {
            Led::Trumps => ("trumf", "trumps"),
            Led::Clubs => suit_name(Suit::Clubs),
            Led::Diamonds => suit_name(Suit::Diamonds),
            Led::Hearts => suit_name(Suit::Hearts),
            Led::Spades => suit_name(Suit::Spades),
        }
    }
}

/// The suit (or trumps) of a trick: set by its first card other than the Excuse.
pub fn led_of(plays: &[(Seat, Card)]) -> Option<Led> {
    plays.iter().map(|&(_, c)| c).find(|&c| c != EXCUSE).and_then(Led::of)
}

fn highest_trump(plays: &[(Seat, Card)]) -> Option<u8> {
    plays.iter().filter_map(|&(_, c)| trump_number(c)).max()
}

/// The cards of `hand` that may be played to a trick holding `plays`, by the duties to follow,
/// to trump and to overtrump. The Excuse may always be played.
pub fn playable(hand: &[Card], plays: &[(Seat, Card)]) -> Vec<Card> {
    let Some(led) = led_of(plays) else { return hand.to_vec() };
    let excuse = hand.iter().copied().filter(|&c| c == EXCUSE);
    if led != Led::Trumps {
        let follow: Vec<Card> = hand.iter().copied().filter(|&c| led.matches(c)).collect();
        if !follow.is_empty() {
            return follow.into_iter().chain(excuse).collect();
        }
    }
    let trumps: Vec<Card> = hand.iter().copied().filter(|&c| is_trump(c)).collect();
    if trumps.is_empty() {
        return hand.to_vec();
    }
    let high = highest_trump(plays).unwrap_or(0);
    let over: Vec<Card> = trumps.iter().copied().filter(|&c| trump_number(c) > Some(high)).collect();
    let allowed = if over.is_empty() { trumps } else { over };
    allowed.into_iter().chain(excuse).collect()
}

/// Why a trick went to its winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WinReason {
    /// The highest card of the suit led, no trump being in the trick.
    HighestOfSuitLed,
    /// The highest trump in the trick.
    HighestTrump,
    /// The Excuse, played to the last trick by a side that had won every trick before it.
    ExcuseCompletesSlam,
}

/// The winner of a complete trick under the ordinary rules: the highest trump, else the
/// highest card of the suit led; the Excuse never wins here.
pub fn trick_winner(plays: &[(Seat, Card)]) -> (Seat, Card, WinReason) {
    let trumps = plays.iter().filter(|&&(_, c)| is_trump(c)).max_by_key(|&&(_, c)| trump_number(c));
    if let Some(&(seat, card)) = trumps {
        return (seat, card, WinReason::HighestTrump);
    }
    let led = led_of(plays).expect("a trick holds a card other than the Excuse");
    let &(seat, card) = plays
        .iter()
        .filter(|&&(_, c)| led.matches(c))
        .max_by_key(|&&(_, c)| suit_value(c))
        .expect("the card that set the suit is in the trick");
    (seat, card, WinReason::HighestOfSuitLed)
}

// ---------------------------------------------------------------------------------------------
// Contracts, sides, options

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Contract {
    /// "Litet spel", prise: ×1.
    #[serde(alias = "prise", alias = "litet_spel")]
    Small,
    /// "Stort spel", garde: ×2.
    #[serde(alias = "garde", alias = "stort_spel")]
    Big,
    /// "Spel utan hund", garde sans: ×4, the dog unseen and counted for the taker.
    #[serde(alias = "garde_sans", alias = "without-dog", alias = "utan_hund")]
    WithoutDog,
    /// "Spel mot hunden", garde contre: ×6, the dog unseen and counted for the defence.
    #[serde(alias = "garde_contre", alias = "against-dog", alias = "mot_hunden")]
    AgainstDog,
}

impl Contract {
    pub const ALL: [Contract; 4] = [Contract::Small, Contract::Big, Contract::WithoutDog, Contract::AgainstDog];

    pub fn multiplier(self) -> i64 {
        match self {
            Contract::Small => 1,
            Contract::Big => 2,
            Contract::WithoutDog => 4,
            Contract::AgainstDog => 6,
        }
    }

    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Contract::Small => ("litet spel", "small game"),
            Contract::Big => ("stort spel", "big game"),
            Contract::WithoutDog => ("spel utan hund", "game without the dog"),
            Contract::AgainstDog => ("spel mot hunden", "game against the dog"),
        }
    }

    /// The dog is shown and taken into the taker's hand.
    pub fn takes_dog(self) -> bool {
        matches!(self, Contract::Small | Contract::Big)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The taker, with the called partner in a five-player game.
    Taker,
    Defence,
}

impl Side {
    fn names(self) -> (&'static str, &'static str) {
        match self {
            Side::Taker => ("spelande sidan", "the taker's side"),
            Side::Defence => ("motspelarna", "the defence"),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HalfPoint {
    /// File 004: an odd half point is always taken from the taker and given to the defence.
    #[default]
    Text,
    /// The federation: the half point goes to the side that wins the deal.
    Fft,
}

/// Variants and match length. The advanced rules are all on by default; each can be turned off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Deals to play (cancelled deals do not count). `null`: one round, a deal per player,
    /// unless `score_limit` is set, which then alone ends the match.
    pub deals: Option<u32>,
    /// End the match after the deal in which a player's total reaches this. `null`: no limit.
    #[serde(alias = "score-limit")]
    pub score_limit: Option<u32>,
    #[serde(alias = "half-point")]
    pub half_point: HalfPoint,
    /// Ettan sist: 10 (multiplied) to the side taking the last trick holding the Petit.
    #[serde(alias = "petit-au-bout")]
    pub petit_au_bout: bool,
    /// Enkel, dubbel, trippel hand: 20, 30 or 40 for showing many trumps.
    pub poignee: bool,
    /// 10 from each other player to one who shows a hand without court cards.
    pub trost: bool,
    /// Slam: announced and made +400, made +200, announced and failed -200.
    pub slam: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            deals: None,
            score_limit: None,
            half_point: HalfPoint::Text,
            petit_au_bout: true,
            poignee: true,
            trost: true,
            slam: true,
        }
    }
}

impl Options {
    /// How many deals the match has, or `None` when only the score limit ends it.
    pub fn deals_total(&self, players: usize) -> Option<u32> {
        match (self.deals, self.score_limit) {
            (Some(n), _) => Some(n),
            (None, None) => Some(players as u32),
            (None, Some(_)) => None,
        }
    }
}

/// Cards per hand, cards per packet and cards in the dog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    pub hand: usize,
    pub packet: usize,
    pub dog: usize,
}

pub fn layout(players: usize) -> Layout {
    match players {
        3 => Layout { hand: 24, packet: 4, dog: 6 },
        4 => Layout { hand: 18, packet: 3, dog: 6 },
        _ => Layout { hand: 15, packet: 3, dog: 3 },
    }
}

/// Where each card of the pack goes, in dealing order: a seat, or `None` for the dog. Packets
/// go round from the dealer's right; the dog cards are laid down singly, spread evenly between
/// packets, so never as the first or the last card.
pub fn deal_plan(table: &Table, dealer: Seat) -> Vec<Option<Seat>> {
    let l = layout(table.seats);
    let packets = table.seats * l.hand / l.packet;
    let dog_after: Vec<usize> = (1..=l.dog).map(|k| k * packets / (l.dog + 1)).collect();
    let mut plan = Vec::with_capacity(DECK_SIZE);
    for p in 0..packets {
        let seat = table.after(dealer, 1 + p % table.seats);
        plan.extend(std::iter::repeat_n(Some(seat), l.packet));
        plan.extend(dog_after.iter().filter(|&&a| a == p + 1).map(|_| None));
    }
    plan
}

/// Trumps a poignée shows: single, double, triple.
pub fn poignee_sizes(players: usize) -> [usize; 3] {
    match players {
        3 => [13, 15, 18],
        4 => [10, 13, 15],
        _ => [8, 10, 13],
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Poignee {
    Single,
    Double,
    Triple,
}

impl Poignee {
    pub const ALL: [Poignee; 3] = [Poignee::Single, Poignee::Double, Poignee::Triple];

    pub fn bonus(self) -> i64 {
        match self {
            Poignee::Single => 20,
            Poignee::Double => 30,
            Poignee::Triple => 40,
        }
    }

    pub fn size(self, players: usize) -> usize {
        poignee_sizes(players)[self as usize]
    }

    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Poignee::Single => ("enkel hand", "single poignée"),
            Poignee::Double => ("dubbel hand", "double poignée"),
            Poignee::Triple => ("trippel hand", "triple poignée"),
        }
    }
}

/// A petit sec: the Petit as the only trump, without the Excuse.
pub fn is_petit_sec(hand: &[Card]) -> bool {
    hand.contains(&PETIT) && !hand.contains(&EXCUSE) && hand.iter().filter(|&&c| is_trump(c)).count() == 1
}

/// Points a taker needs with 0, 1, 2 or 3 bouts.
pub fn target(bouts: usize) -> u32 {
    [56, 51, 41, 36][bouts.min(3)]
}

/// The court card the taker must call: a king, or a queen when holding all four kings, and so on.
pub fn callable_value(hand: &[Card]) -> u8 {
    for value in [KING, QUEEN, KNIGHT] {
        if !Suit::ALL.iter().all(|&s| hand.contains(&suit_card(s, value))) {
            return value;
        }
    }
    JACK
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}


// ---------------------------------------------------------------------------------------------
// Scoring, kept apart as a pure function so the text's examples can be checked directly

/// What the score of a deal depends on, once the cards are counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    pub players: usize,
    pub taker: Seat,
    /// The called partner in a five-player game; `None` when the taker plays alone.
    pub partner: Option<Seat>,
    pub contract: Contract,
    /// Bouts among the taker side's cards.
    pub bouts: usize,
    /// The taker side's card points, in half points.
    pub taker_half_points: u32,
    /// The side that took the Petit in the last trick.
    pub petit_au_bout: Option<Side>,
    pub poignees: Vec<(Seat, Poignee)>,
    pub trost: Vec<Seat>,
    pub slam_announced: bool,
    /// The side that took every trick.
    pub slam: Option<Side>,
}

/// The score of a deal: the count against the target, the amount each defender pays (or
/// receives, when negative), and every seat's points term by term.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scoring {
    pub target: u32,
    /// The taker side's points after the half-point rule.
    pub counted_points: u32,
    pub made: bool,
    pub difference: u32,
    pub multiplier: i64,
    /// What each defender pays the taker's side (negative: receives), before tröst.
    pub unit: i64,
    pub terms: Vec<ScoreTerm>,
    /// Each seat's points for the deal; they sum to zero.
    pub points: Vec<i64>,
}

/// A seat's share of `unit`: each defender pays it once; the taker receives what the defenders
/// pay, less the called partner's single share.
pub fn share(players: usize, taker: Seat, partner: Option<Seat>, seat: Seat) -> i64 {
    let partner = partner.filter(|&p| p != taker);
    let defenders = (players - 1 - partner.is_some() as usize) as i64;
    if seat == taker {
        defenders - partner.is_some() as i64
    } else if Some(seat) == partner {
        1
    } else {
        -1
    }
}

pub fn score(facts: &Facts, options: &Options) -> Scoring {
    let players = facts.players;
    let target = target(facts.bouts);
    let h = facts.taker_half_points;
    // Exactly the target counts as made; a half point short does not.
    let made = h >= 2 * target;
    let counted_points = match (options.half_point, made) {
        (HalfPoint::Fft, true) => h.div_ceil(2),
        _ => h / 2,
    };
    let difference = if made { counted_points - target } else { target - counted_points };
    let multiplier = facts.contract.multiplier();
    let sign: i64 = if made { 1 } else { -1 };
    let (c_sv, c_en) = facts.contract.names();
    let (won_sv, won_en) = if made { ("vunnet", "made") } else { ("förlorat", "lost") };

    // Each component is what one defender pays the taker's side.
    let mut components: Vec<(i64, &str, String, String)> = vec![
        (
            sign * 25 * multiplier,
            rule::BASE,
            format!("{c_sv} {won_sv}: grundpoäng 25 × {multiplier}"),
            format!("{c_en} {won_en}: base 25 × {multiplier}"),
        ),
        (
            sign * difference as i64 * multiplier,
            rule::DIFFERENCE,
            format!(
                "{} poäng mot {target} som krävs med {} värdekort: skillnad {difference} × {multiplier}",
                points_text(2 * counted_points),
                facts.bouts
            ),
            format!(
                "{} points against the {target} needed with {} bout{}: difference {difference} × {multiplier}",
                points_text(2 * counted_points),
                facts.bouts,
                if facts.bouts == 1 { "" } else { "s" }
            ),
        ),
    ];
    if let Some(side) = facts.petit_au_bout.filter(|_| options.petit_au_bout) {
        let (s_sv, s_en) = side.names();
        let value = if side == Side::Taker { 10 } else { -10 };
        components.push((
            value * multiplier,
            rule::PETIT_AU_BOUT,
            format!("ettan sist för {s_sv}: 10 × {multiplier}"),
            format!("Petit in the last trick for {s_en}: 10 × {multiplier}"),
        ));
    }
    if options.poignee {
        for &(seat, level) in &facts.poignees {
            let (p_sv, p_en) = level.names();
            components.push((
                sign * level.bonus(),
                rule::POIGNEE,
                format!("{p_sv} visad av plats {seat}: {} till den sida som vinner", level.bonus()),
                format!("{p_en} shown by seat {seat}: {} to the side that wins", level.bonus()),
            ));
        }
    }
    if options.slam {
        let bonus = match (facts.slam, facts.slam_announced) {
            (Some(Side::Taker), true) => Some((400, "slam annonserad och vunnen", "slam announced and made")),
            (Some(Side::Taker), false) => Some((200, "slam vunnen utan annons", "slam made unannounced")),
            (_, true) => Some((-200, "slam annonserad men inte vunnen", "slam announced and failed")),
            _ => None,
        };
        if let Some((value, sv, en)) = bonus {
            components.push((value, rule::SLAM, format!("{sv}: {value}"), format!("{en}: {value}")));
        }
        if facts.slam == Some(Side::Defence) {
            components.push((
                -200,
                rule::DEFENCE_SLAM,
                "motspelarna tog varje stick: 200".into(),
                "the defence took every trick: 200".into(),
            ));
        }
    }

    let unit: i64 = components.iter().map(|c| c.0).sum();
    let mut terms = Vec::new();
    for (value, rule_id, sv, en) in &components {
        for seat in 0..players {
            let k = share(players, facts.taker, facts.partner, seat);
            let (role_sv, role_en) = if seat == facts.taker {
                ("spelaren", "the taker")
            } else if Some(seat) == facts.partner {
                ("partnern", "the partner")
            } else {
                ("motspelare", "a defender")
            };
            terms.push(ScoreTerm::new(
                seat,
                k * value,
                rule_id,
                format!("{} = {value} per motspelare; plats {seat} ({role_sv}) {k} × {value} = {}.", capitalized(sv), k * value),
                format!("{} = {value} per defender; seat {seat} ({role_en}) {k} × {value} = {}.", capitalized(en), k * value),
            ));
        }
    }
    if options.trost {
        for &claimant in &facts.trost {
            for seat in 0..players {
                let (points, sv, en) = if seat == claimant {
                    let got = 10 * (players as i64 - 1);
                    (
                        got,
                        format!("Tröst: plats {seat} visade en hand utan klädda kort och får 10 av var och en, {got}."),
                        format!("Tröst: seat {seat} showed a hand without court cards and gets 10 from each other player, {got}."),
                    )
                } else {
                    (
                        -10,
                        format!("Tröst till plats {claimant}: plats {seat} betalar 10."),
                        format!("Tröst to seat {claimant}: seat {seat} pays 10."),
                    )
                };
                terms.push(ScoreTerm::new(seat, points, rule::TROST, sv, en));
            }
        }
    }
    let points = (0..players).map(|s| terms.iter().filter(|t| t.to == s).map(|t| t.points).sum()).collect();
    Scoring { target, counted_points, made, difference, multiplier, unit, terms, points }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    Bid {
        contract: Contract,
    },
    Pass,
    /// Five players: the taker names the suit of the card to call; its rank follows from the
    /// hand (a king, or a queen when holding all four kings, and so on). Whoever holds that
    /// card becomes the secret partner.
    Call {
        suit: Suit,
    },
    /// Small and big games: one card from the taker's hand to the taker's pile, as many
    /// times as the dog has cards.
    Discard {
        card: Card,
    },
    AnnounceSlam,
    DeclineSlam,
    /// Shown before one's first card: the level's number of trumps (8 to 18 by the player
    /// count), the lowest the player holds, the Excuse only when one trump short.
    DeclarePoignee {
        level: Poignee,
    },
    /// Claimed before one's first card, with a hand without court cards.
    DeclareTrost,
    Play {
        card: Card,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CancelReason {
    /// Everybody passed.
    AllPassed,
    /// A player had the Petit as their only trump and no Excuse.
    PetitSec,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownHand {
    pub seat: Seat,
    pub hand: Vec<Card>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoigneeShown {
    pub seat: Seat,
    pub level: Poignee,
    pub trumps: Vec<Card>,
}

/// Where the Excuse ended up, and the half point given for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExcuseFate {
    pub played_by: Seat,
    pub trick_number: usize,
    /// The side whose cards the Excuse is counted with.
    pub counted_for: Side,
    /// The side that received a half-point card in exchange, if any.
    pub half_point_to: Option<Side>,
    pub rule: String,
}

/// The count of a deal: who played with whom and what each side took.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    pub taker: Seat,
    pub contract: Contract,
    pub called_card: Option<Card>,
    /// The called partner, `null` when the taker played alone (and in 3 or 4 player games).
    pub partner: Option<Seat>,
    pub taker_side: Vec<Seat>,
    pub dog: Vec<Card>,
    pub discards: Vec<Card>,
    /// Who counted the dog (or the discards made from it).
    pub dog_to: Side,
    pub bouts: usize,
    pub taker_half_points: u32,
    pub defence_half_points: u32,
    pub taker_points: String,
    pub defence_points: String,
    pub excuse: Option<ExcuseFate>,
    pub petit_au_bout: Option<Side>,
    pub slam_announced: bool,
    pub slam: Option<Side>,
    pub poignees: Vec<PoigneeShown>,
    pub trost: Vec<Seat>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        /// Deals scored before this one (cancelled deals do not count).
        deals_played: u32,
        dealer: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's hand, sorted.
        hands: Vec<Vec<Card>>,
        dog: Vec<Card>,
        /// Positions in the deck of the dog's cards.
        dog_positions: Vec<usize>,
        bidding_order: Vec<Seat>,
        /// Scores before this deal.
        scores: Vec<i64>,
        options: Options,
    },
    /// The deal is void; the next dealer deals again and the deal does not count.
    DealCancelled {
        reason: CancelReason,
        /// Hands shown for a petit sec.
        shown: Vec<ShownHand>,
        next_dealer: Seat,
    },
    BidMade {
        seat: Seat,
        contract: Contract,
    },
    Passed {
        seat: Seat,
    },
    ContractWon {
        taker: Seat,
        contract: Contract,
    },
    CardCalled {
        taker: Seat,
        card: Card,
    },
    /// Small and big games: the dog, turned up for all, goes into the taker's hand.
    DogShown {
        cards: Vec<Card>,
        /// Five players: the called card was in the dog, so the taker plays alone.
        taker_alone: bool,
    },
    /// Without and against the dog: it stays face down, counted for `to` at the end.
    DogSetAside {
        contract: Contract,
        to: Side,
    },
    Discarded {
        seat: Seat,
        /// `null` as seen by the others, unless the card is a trump, which is shown.
        card: Card,
        shown: bool,
    },
    SlamAnnounced {
        seat: Seat,
    },
    SlamDeclined {
        seat: Seat,
    },
    PoigneeDeclared {
        seat: Seat,
        level: Poignee,
        trumps: Vec<Card>,
    },
    TrostDeclared {
        seat: Seat,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
    },
    /// Five players: the called card was played; `taker_alone` when the taker played it.
    PartnerRevealed {
        seat: Seat,
        card: Card,
        taker_alone: bool,
    },
    TrickWon {
        /// 1 for the first trick of the deal.
        trick_number: usize,
        winner: Seat,
        card: Card,
        reason: WinReason,
        plays: Vec<Play>,
        /// The Excuse went back to this seat rather than with the trick.
        excuse_to: Option<Seat>,
        half_points: u32,
    },
    DealScored {
        deal_number: u32,
        count: Count,
        scoring: Scoring,
        /// Scores after this deal.
        totals: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        scores: Vec<i64>,
    },
}

// ---------------------------------------------------------------------------------------------
// State

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Bidding,
    /// Five players: the taker calls a card.
    Calling,
    /// Passing moment between the contract (or the call) and the dog's fate.
    Dog,
    Discarding,
    /// The taker may announce a slam.
    Slam,
    Playing,
    /// Played out or cancelled; the next deal (or nothing) follows.
    Over,
}

/// The shared [`crate::trick::TrickRecord`] and where the Excuse went, with Tarot's own
/// [`WinReason`] (the Excuse may complete a slam): the extra field and the reason are why it is a type of
/// its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TrickRecord {
    pub number: usize,
    pub leader: Seat,
    pub plays: Vec<Play>,
    pub winner: Seat,
    pub card: Card,
    pub reason: WinReason,
    pub excuse_to: Option<Seat>,
}

impl TrickRecord {
    fn contains(&self, card: Card) -> bool {
        self.plays.iter().any(|p| p.card == card)
    }
}

#[derive(Clone, Debug)]
pub struct Deal {
    pub number: u32,
    pub dealer: Seat,
    pub deck: Vec<Card>,
    pub dealt: Vec<Vec<Card>>,
    pub hands: Vec<Vec<Card>>,
    pub dog: Vec<Card>,
    pub dog_positions: Vec<usize>,
    pub auction: Auction<Option<Contract>>,
    pub phase: Phase,
    pub cancelled: Option<CancelReason>,
    pub taker: Option<Seat>,
    pub contract: Option<Contract>,
    pub called: Option<Card>,
    /// The holder of the called card: known to the engine, secret at the table until played.
    pub partner: Option<Seat>,
    pub partner_revealed: bool,
    /// The dog is in the taker's hand (small and big games).
    pub dog_taken: bool,
    pub discards: Vec<Card>,
    /// Cards whose identity every seat has seen (the shown dog, shown trumps, the called card,
    /// played cards): no longer secret, wherever they are.
    pub public: BTreeSet<Card>,
    pub slam_announced: Option<bool>,
    pub poignees: Vec<Option<PoigneeShown>>,
    pub trost: Vec<bool>,
    pub trick: Trick,
    pub tricks: Vec<TrickRecord>,
    /// The cards each seat has won (the Excuse with its owner, until the count).
    pub won: Vec<Vec<Card>>,
    pub result: Option<(Count, Scoring)>,
}

impl Deal {
    fn highest_bid(&self) -> Option<Contract> {
        self.auction.bids.iter().filter_map(|(_, b)| *b).max()
    }

    fn side_of(&self, seat: Seat) -> Side {
        if Some(seat) == self.taker || (self.partner == Some(seat)) {
            Side::Taker
        } else {
            Side::Defence
        }
    }

    fn has_played(&self, seat: Seat) -> bool {
        self.trick.plays.iter().any(|&(s, _)| s == seat) || !self.tricks.is_empty()
    }
}

#[derive(Clone, Debug)]
pub struct State {
    pub table: Table,
    pub options: Options,
    /// Deals started, cancelled ones included.
    pub deals_started: u32,
    /// Deals played out and scored.
    pub deals_played: u32,
    pub next_dealer: Seat,
    pub scores: Vec<i64>,
    /// Scores rebuilt from the score terms alone: the books `scores` must balance against.
    pub ledger: Vec<i64>,
    pub deal: Option<Deal>,
    pub winners: Option<Vec<Seat>>,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }

    fn deals_total(&self) -> Option<u32> {
        self.options.deals_total(self.players())
    }

    /// The match is over after a deal with these totals.
    fn match_over(&self, deals_played: u32, totals: &[i64]) -> bool {
        self.deals_total().is_some_and(|n| deals_played >= n)
            || self.options.score_limit.is_some_and(|l| totals.iter().any(|&t| t >= l as i64))
    }
}


/// The trumps a poignée of `level` shows from `hand`: the lowest `size` trumps, or every trump
/// and the Excuse when one short; `None` when the hand does not reach the level.
pub fn poignee_show(hand: &[Card], players: usize, level: Poignee) -> Option<Vec<Card>> {
    let mut trumps: Vec<Card> = hand.iter().copied().filter(|&c| is_trump(c)).collect();
    trumps.sort_by_key(|&c| trump_number(c));
    let size = level.size(players);
    if trumps.len() >= size {
        trumps.truncate(size);
        Some(trumps)
    } else if trumps.len() + 1 == size && hand.contains(&EXCUSE) {
        trumps.push(EXCUSE);
        Some(trumps)
    } else {
        None
    }
}

/// Counts a deal that has been played out: the sides, the Excuse, the bouts and the points.
pub fn count(deal: &Deal, players: usize, options: &Options) -> Count {
    let taker = deal.taker.expect("a played deal has a taker");
    let contract = deal.contract.expect("a played deal has a contract");
    let taker_side: Vec<Seat> = (0..players).filter(|&s| deal.side_of(s) == Side::Taker).collect();
    let pile = |side: Side| -> Vec<Card> {
        (0..players).filter(|&s| deal.side_of(s) == side).flat_map(|s| deal.won[s].iter().copied()).collect()
    };
    let mut taker_cards = pile(Side::Taker);
    let mut defence_cards = pile(Side::Defence);
    let dog_to = if contract == Contract::AgainstDog { Side::Defence } else { Side::Taker };
    if contract.takes_dog() {
        taker_cards.extend(&deal.discards);
    } else if dog_to == Side::Taker {
        taker_cards.extend(&deal.dog);
    } else {
        defence_cards.extend(&deal.dog);
    }

    let mut exchange: Option<Side> = None;
    let excuse = deal.tricks.iter().find(|t| t.contains(EXCUSE)).map(|t| {
        let played_by = t.plays.iter().find(|p| p.card == EXCUSE).map(|p| p.seat).unwrap_or(t.winner);
        let owner = deal.side_of(played_by);
        let winners = deal.side_of(t.winner);
        let (counted_for, half_point_to, rule) = if t.reason == WinReason::ExcuseCompletesSlam {
            (owner, None, rule::EXCUSE_SLAM)
        } else if t.excuse_to.is_none() {
            (winners, None, rule::EXCUSE_LAST_TRICK)
        } else if owner == winners {
            (owner, None, rule::EXCUSE_KEPT)
        } else {
            let own = if owner == Side::Taker { &taker_cards } else { &defence_cards };
            if own.iter().any(|&c| c != EXCUSE) {
                (owner, Some(winners), rule::EXCUSE_KEPT)
            } else {
                (winners, None, rule::EXCUSE_NO_CARD)
            }
        };
        exchange = half_point_to;
        ExcuseFate { played_by, trick_number: t.number, counted_for, half_point_to, rule: rule.to_string() }
    });
    if let Some(fate) = &excuse {
        // The Excuse lies in its player's pile (or the trick winner's, in the last trick);
        // move it to the side it counts for.
        let (from, to) = match fate.counted_for {
            Side::Taker => (&mut defence_cards, &mut taker_cards),
            Side::Defence => (&mut taker_cards, &mut defence_cards),
        };
        if take_card(from, EXCUSE) {
            to.push(EXCUSE);
        }
    }
    let mut taker_half_points = half_points_of(&taker_cards);
    let mut defence_half_points = half_points_of(&defence_cards);
    match exchange {
        Some(Side::Taker) => {
            taker_half_points += 1;
            defence_half_points -= 1;
        }
        Some(Side::Defence) => {
            taker_half_points -= 1;
            defence_half_points += 1;
        }
        None => {}
    }
    let bouts = taker_cards.iter().filter(|&&c| is_bout(c)).count();

    let petit_au_bout = deal.tricks.last().and_then(|last| {
        // When the Excuse takes the last trick of a slam, the Petit is "at the end" one trick
        // earlier.
        let t = if last.reason == WinReason::ExcuseCompletesSlam && deal.tricks.len() >= 2 {
            &deal.tricks[deal.tricks.len() - 2]
        } else {
            last
        };
        t.contains(PETIT).then(|| deal.side_of(t.winner))
    });
    let winners: Vec<Side> = deal.tricks.iter().map(|t| deal.side_of(t.winner)).collect();
    let slam = [Side::Taker, Side::Defence].into_iter().find(|&side| winners.iter().all(|&w| w == side));
    let mut discards = deal.discards.clone();
    sort_hand(&mut discards);
    Count {
        taker,
        contract,
        called_card: deal.called,
        partner: deal.partner,
        taker_side,
        dog: deal.dog.clone(),
        discards,
        dog_to,
        bouts,
        taker_half_points,
        defence_half_points,
        taker_points: points_text(taker_half_points),
        defence_points: points_text(defence_half_points),
        excuse,
        petit_au_bout: petit_au_bout.filter(|_| options.petit_au_bout),
        slam_announced: deal.slam_announced == Some(true),
        slam: slam.filter(|_| options.slam),
        poignees: deal.poignees.iter().flatten().cloned().collect(),
        trost: (0..players).filter(|&s| deal.trost[s]).collect(),
    }
}

pub fn facts(count: &Count, players: usize) -> Facts {
    Facts {
        players,
        taker: count.taker,
        partner: count.partner,
        contract: count.contract,
        bouts: count.bouts,
        taker_half_points: count.taker_half_points,
        petit_au_bout: count.petit_au_bout,
        poignees: count.poignees.iter().map(|p| (p.seat, p.level)).collect(),
        trost: count.trost.clone(),
        slam_announced: count.slam_announced,
        slam: count.slam,
    }
}

// ---------------------------------------------------------------------------------------------
// The rules

impl Tarot {
    /// The state after `events`, for decisions that depend on what a first event changes.
    fn after(&self, state: &State, events: &[Event]) -> State {
        let mut next = state.clone();
        for e in events {
            self.evolve(&mut next, e);
        }
        next
    }

    fn decide_bid(
        &self,
        state: &State,
        deal: &Deal,
        seat: Seat,
        contract: Option<Contract>,
    ) -> Result<Vec<Event>, RuleViolation> {
        if deal.phase != Phase::Bidding {
            return Err(RuleViolation::wrong_phase("budgivningen är över", "the bidding is over"));
        }
        if deal.auction.next_bidder() != Some(seat) {
            return Err(RuleViolation::not_your_turn(seat));
        }
        let highest = deal.highest_bid();
        if let (Some(c), Some(h)) = (contract, highest) {
            if c <= h {
                let ((c_sv, c_en), (h_sv, h_en)) = (c.names(), h.names());
                return Err(RuleViolation::new(
                    rule::BID_HIGHER,
                    format!("Du bjöd {c_sv} men {h_sv} är redan bjudet; ett bud måste vara högre än alla bud före det, annars passar man."),
                    format!("You bid a {c_en} but a {h_en} has already been bid; a bid must be higher than every bid before it, or else you pass."),
                ));
            }
        }
        let mut events = vec![match contract {
            Some(contract) => Event::BidMade { seat, contract },
            None => Event::Passed { seat },
        }];
        if deal.auction.bids.len() + 1 < state.players() {
            return Ok(events);
        }
        let winning = contract.max(highest).and_then(|c| {
            let taker = if contract == Some(c) {
                seat
            } else {
                deal.auction.bids.iter().find(|(_, b)| *b == Some(c)).map(|(s, _)| *s)?
            };
            Some((taker, c))
        });
        match winning {
            None => events.push(Event::DealCancelled {
                reason: CancelReason::AllPassed,
                shown: Vec::new(),
                next_dealer: state.table.next(deal.dealer),
            }),
            Some((taker, contract)) => {
                events.push(Event::ContractWon { taker, contract });
                if state.players() != 5 {
                    events.push(self.dog_event(deal, contract, None));
                }
            }
        }
        Ok(events)
    }

    fn dog_event(&self, deal: &Deal, contract: Contract, called: Option<Card>) -> Event {
        if contract.takes_dog() {
            Event::DogShown { cards: deal.dog.clone(), taker_alone: called.is_some_and(|c| deal.dog.contains(&c)) }
        } else {
            let to = if contract == Contract::AgainstDog { Side::Defence } else { Side::Taker };
            Event::DogSetAside { contract, to }
        }
    }

    fn taker_turn(&self, deal: &Deal, seat: Seat, phase: Phase, sv: &str, en: &str) -> Result<Seat, RuleViolation> {
        if deal.phase != phase {
            return Err(RuleViolation::wrong_phase(sv, en));
        }
        let taker = deal.taker.expect("a taker in this phase");
        if seat != taker {
            return Err(RuleViolation::not_your_turn(seat));
        }
        Ok(taker)
    }

    fn decide_call(&self, deal: &Deal, seat: Seat, suit: Suit) -> Result<Vec<Event>, RuleViolation> {
        let taker =
            self.taker_turn(deal, seat, Phase::Calling, "ingen kung ska kallas nu", "no king is to be called now")?;
        // The rank is not a choice: a king, or the highest rank of which the taker lacks one.
        let card = suit_card(suit, callable_value(&deal.hands[taker]));
        let contract = deal.contract.expect("a contract before the call");
        Ok(vec![Event::CardCalled { taker, card }, self.dog_event(deal, contract, Some(card))])
    }

    fn decide_discard(&self, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
        let taker = self.taker_turn(
            deal,
            seat,
            Phase::Discarding,
            "inga kort läggs i högen nu",
            "no cards are being discarded now",
        )?;
        let hand = &deal.hands[taker];
        if !hand.contains(&card) {
            return Err(RuleViolation::card_not_held(card));
        }
        if is_king(card) || is_bout(card) {
            return Err(RuleViolation::new(
                rule::NO_KINGS_OR_BOUTS,
                format!(
                    "Du lade {card} i högen; kungar och värdekort (ettan, 21:an och ursäkten) får aldrig läggas där."
                ),
                format!(
                    "You discarded {card}; kings and bouts (the Petit, the 21 and the Excuse) may never be discarded."
                ),
            ));
        }
        let remaining = deal.dog.len() - deal.discards.len();
        if is_trump(card) {
            let plain = hand.iter().filter(|&&c| !is_trump(c) && !is_king(c) && c != EXCUSE).count();
            if plain >= remaining {
                return Err(RuleViolation::new(
                    rule::TRUMPS_IF_FORCED,
                    format!("Du lade trumf {card} i högen men har fortfarande {plain} andra kort som får läggas där, och {remaining} kort återstår att lägga; trumf får läggas bara när inget annat går."),
                    format!("You discarded trump {card} but still hold {plain} other cards that may be discarded, with {remaining} left to discard; trumps may be discarded only when nothing else is possible."),
                ));
            }
        }
        Ok(vec![Event::Discarded { seat, card, shown: is_trump(card) }])
    }

    fn decide_slam(&self, deal: &Deal, seat: Seat, announce: bool) -> Result<Vec<Event>, RuleViolation> {
        self.taker_turn(
            deal,
            seat,
            Phase::Slam,
            "slam kan bara annonseras direkt efter hunden",
            "a slam can only be announced right after the dog",
        )?;
        Ok(vec![if announce { Event::SlamAnnounced { seat } } else { Event::SlamDeclined { seat } }])
    }

    /// Poignée and tröst are shown by the player to play, before their first card.
    fn declaration_window(
        &self,
        state: &State,
        deal: &Deal,
        seat: Seat,
        enabled: bool,
        rule_id: &str,
        (what_sv, what_en): (&str, &str),
    ) -> Result<(), RuleViolation> {
        if deal.phase != Phase::Playing {
            return Err(RuleViolation::wrong_phase(
                &format!("{what_sv} visas när man ska spela sitt första kort"),
                &format!("a {what_en} is shown when about to play one's first card"),
            ));
        }
        if deal.trick.next_to_play(&state.table) != seat {
            return Err(RuleViolation::not_your_turn(seat));
        }
        if !enabled {
            return Err(RuleViolation::new(
                rule::ADVANCED_OFF,
                format!("Partiet spelas utan {what_sv}."),
                format!("This match is played without the {what_en}."),
            ));
        }
        if deal.has_played(seat) {
            return Err(RuleViolation::new(
                rule_id,
                format!("Du har redan spelat ditt första kort; {what_sv} visas innan dess."),
                format!("You have already played your first card; a {what_en} is shown before it."),
            ));
        }
        Ok(())
    }

    fn decide_poignee(
        &self,
        state: &State,
        deal: &Deal,
        seat: Seat,
        level: Poignee,
    ) -> Result<Vec<Event>, RuleViolation> {
        let players = state.players();
        self.declaration_window(
            state,
            deal,
            seat,
            state.options.poignee,
            rule::POIGNEE_WHEN,
            ("hand (poignée)", "poignée"),
        )?;
        if deal.poignees[seat].is_some() {
            return Err(RuleViolation::new(
                rule::ONE_POIGNEE,
                "Du har redan visat en hand (poignée) i den här given.",
                "You have already shown a poignée in this deal.",
            ));
        }
        let hand = &deal.hands[seat];
        let Some(trumps) = poignee_show(hand, players, level) else {
            let held = hand.iter().filter(|&&c| is_trump(c)).count();
            let excuse_sv = if hand.contains(&EXCUSE) { " och ursäkten" } else { "" };
            let excuse_en = if hand.contains(&EXCUSE) { " and the Excuse" } else { "" };
            let (l_sv, l_en) = level.names();
            let size = level.size(players);
            return Err(RuleViolation::new(
                rule::POIGNEE_SIZES,
                format!("Du har {held} trumf{excuse_sv}; {l_sv} med {players} spelare kräver {size} trumf (ursäkten räknas bara när den fyller ut den sista)."),
                format!("You hold {held} trumps{excuse_en}; a {l_en} with {players} players needs {size} trumps (the Excuse counts only when it makes up the last one)."),
            ));
        };
        Ok(vec![Event::PoigneeDeclared { seat, level, trumps }])
    }

    fn decide_trost(&self, state: &State, deal: &Deal, seat: Seat) -> Result<Vec<Event>, RuleViolation> {
        self.declaration_window(state, deal, seat, state.options.trost, rule::TROST, ("tröst", "tröst"))?;
        if deal.trost[seat] {
            return Err(RuleViolation::new(
                rule::TROST,
                "Du har redan fått tröst i den här given.",
                "You have already claimed tröst in this deal.",
            ));
        }
        if deal.hands[seat].iter().any(|&c| is_court(c)) {
            return Err(RuleViolation::new(
                rule::TROST,
                "Du har klädda kort på handen; tröst ges bara för en hand helt utan kung, dam, knekt och väpnare.",
                "You hold court cards; tröst is only for a hand without any king, queen, knight or jack.",
            ));
        }
        Ok(vec![Event::TrostDeclared { seat }])
    }

    fn decide_play(
        &self,
        state: &State,
        deal: &Deal,
        seat: Seat,
        card: Card,
    ) -> Result<Vec<Event>, RuleViolation> {
        if deal.phase != Phase::Playing {
            return Err(match deal.phase {
                Phase::Bidding => RuleViolation::wrong_phase("budgivningen pågår", "the bidding is still going on"),
                Phase::Over => RuleViolation::wrong_phase("given är slutspelad", "the deal has been played out"),
                _ => RuleViolation::wrong_phase(
                    "spelaren har inte gjort klart med hunden än",
                    "the taker has not finished with the dog",
                ),
            });
        }
        if deal.trick.next_to_play(&state.table) != seat {
            return Err(RuleViolation::not_your_turn(seat));
        }
        let hand = &deal.hands[seat];
        if !hand.contains(&card) {
            return Err(RuleViolation::card_not_held(card));
        }
        let plays = &deal.trick.plays;
        if let (true, Some(called), Some(suit)) =
            (deal.tricks.is_empty() && plays.is_empty(), deal.called, deal.called.and_then(|c| c.suit()))
        {
            if card.is_suit(suit) && card != called && hand.iter().any(|c| !c.is_suit(suit)) {
                let (s_sv, s_en) = suit_name(suit);
                return Err(RuleViolation::new(
                    rule::CALLED_SUIT_LEAD,
                    format!("Du spelade ut {card}; första utspelet får inte vara i den kallade färgen {s_sv}, utom den kallade {called} själv."),
                    format!("You led {card}; the first lead may not be in the called suit, {s_en}, except the called {called} itself."),
                ));
            }
        }
        if !playable(hand, plays).contains(&card) {
            return Err(play_violation(hand, plays, card));
        }

        let mut events = vec![Event::CardPlayed { seat, card }];
        if deal.called == Some(card) {
            events.push(Event::PartnerRevealed { seat, card, taker_alone: Some(seat) == deal.taker });
        }
        if plays.len() + 1 < state.players() {
            return Ok(events);
        }
        let next = self.after(state, &events);
        let d = next.deal.as_ref().expect("the deal goes on");
        let (winner, winning, reason, excuse_to) = resolve_trick(d, state.players());
        let trick_number = d.tricks.len() + 1;
        events.push(Event::TrickWon {
            trick_number,
            winner,
            card: winning,
            reason,
            plays: d.trick.plays.iter().map(|&(seat, card)| Play { seat, card }).collect(),
            excuse_to,
            half_points: d.trick.cards().map(half_points).sum(),
        });
        if trick_number < layout(state.players()).hand {
            return Ok(events);
        }
        let next = self.after(state, &events);
        let d = next.deal.as_ref().expect("the deal is played out");
        let count = count(d, state.players(), &state.options);
        let scoring = score(&facts(&count, state.players()), &state.options);
        let totals: Vec<i64> = (0..state.players()).map(|s| state.scores[s] + scoring.points[s]).collect();
        let over = state.match_over(state.deals_played + 1, &totals);
        events.push(Event::DealScored { deal_number: deal.number, count, scoring, totals: totals.clone() });
        if over {
            events.push(Event::MatchEnded { winners: match_winners(&totals), scores: totals });
        }
        Ok(events)
    }

    /// The seat holding the Petit sec in each dealt hand.
    fn petit_sec(&self, hands: &[Vec<Card>]) -> Vec<ShownHand> {
        (0..hands.len())
            .filter(|&s| is_petit_sec(&hands[s]))
            .map(|seat| ShownHand { seat, hand: hands[seat].clone() })
            .collect()
    }

    /// Commands a seat can make to declare before its first card.
    fn declarations(&self, state: &State, deal: &Deal, seat: Seat) -> Vec<Command> {
        let mut out = Vec::new();
        if state.options.trost && self.decide_trost(state, deal, seat).is_ok() {
            out.push(Command::DeclareTrost);
        }
        for level in Poignee::ALL {
            if state.options.poignee && self.decide_poignee(state, deal, seat, level).is_ok() {
                out.push(Command::DeclarePoignee { level });
            }
        }
        out
    }

    fn legal_cards(&self, state: &State, deal: &Deal, seat: Seat) -> Vec<Card> {
        let mut cards: Vec<Card> =
            deal.hands[seat].iter().copied().filter(|&c| self.decide_play_check(state, deal, seat, c)).collect();
        sort_hand(&mut cards);
        cards
    }

    /// The checks of `decide_play` without building the events.
    fn decide_play_check(&self, state: &State, deal: &Deal, seat: Seat, card: Card) -> bool {
        if deal.phase != Phase::Playing || deal.trick.next_to_play(&state.table) != seat {
            return false;
        }
        let hand = &deal.hands[seat];
        if !hand.contains(&card) {
            return false;
        }
        if deal.tricks.is_empty() && deal.trick.plays.is_empty() {
            if let (Some(called), Some(suit)) = (deal.called, deal.called.and_then(|c| c.suit())) {
                if card.is_suit(suit) && card != called && hand.iter().any(|c| !c.is_suit(suit)) {
                    return false;
                }
            }
        }
        playable(hand, &deal.trick.plays).contains(&card)
    }
}

/// Why `card` may not be played to this trick: the first duty it breaks.
fn play_violation(hand: &[Card], plays: &[(Seat, Card)], card: Card) -> RuleViolation {
    let led = led_of(plays).expect("anything goes to an empty trick");
    let (l_sv, l_en) = led.names();
    let has_trumps = hand.iter().any(|&c| is_trump(c));
    if led != Led::Trumps && hand.iter().any(|&c| led.matches(c)) {
        RuleViolation::new(
            rule::FOLLOW_SUIT,
            format!("Du spelade {card} men har {l_sv}; man måste bekänna färg (eller spela ursäkten)."),
            format!("You played {card} but hold {l_en}; you must follow suit (or play the Excuse)."),
        )
    } else if led == Led::Trumps && !is_trump(card) {
        RuleViolation::new(
            rule::FOLLOW_SUIT,
            format!("Du spelade {card} men har trumf; när trumf spelas ut måste man lägga trumf (eller ursäkten)."),
            format!("You played {card} but hold trumps; when trumps are led you must play a trump (or the Excuse)."),
        )
    } else if has_trumps && !is_trump(card) {
        RuleViolation::new(
            rule::MUST_TRUMP,
            format!("Du spelade {card} men saknar {l_sv} och har trumf; då måste man trumfa (eller spela ursäkten)."),
            format!("You played {card} but have no {l_en} and hold trumps; you must then trump (or play the Excuse)."),
        )
    } else {
        let high = highest_trump(plays).unwrap_or(0);
        RuleViolation::new(
            rule::OVERTRUMP,
            format!("Du spelade {card} under T{high} men har en högre trumf; man måste gå över den högsta trumfen i sticket när man kan."),
            format!("You played {card} under T{high} but hold a higher trump; you must beat the highest trump in the trick when you can."),
        )
    }
}

/// The winner of the complete trick in `deal.trick`, the reason, and where the Excuse goes if
/// it is not with the trick.
fn resolve_trick(deal: &Deal, players: usize) -> (Seat, Card, WinReason, Option<Seat>) {
    let plays = &deal.trick.plays;
    let last = deal.tricks.len() + 1 == layout(players).hand;
    let excuse_by = plays.iter().find(|&&(_, c)| c == EXCUSE).map(|&(s, _)| s);
    if let (Some(by), true) = (excuse_by, last) {
        let side = deal.side_of(by);
        if !deal.tricks.is_empty() && deal.tricks.iter().all(|t| deal.side_of(t.winner) == side) {
            return (by, EXCUSE, WinReason::ExcuseCompletesSlam, None);
        }
    }
    let (winner, card, reason) = trick_winner(plays);
    let excuse_to = excuse_by.filter(|_| !last);
    (winner, card, reason, excuse_to)
}

impl Rules for Tarot {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;

    fn id(&self) -> &'static str {
        "tarot"
    }

    fn rulebook(&self) -> Rulebook {
        Rulebook {
            game: "tarot",
            sections: vec![
                core::section(),
                rules::section(
                    "tarot.cards",
                    "Korten",
                    "The cards",
                    &[
                        (rule::PACK, "Leken har 78 kort: fyra färger om 14 kort (kung, dam, knekt, väpnare, 10 ned till 1), 21 trumf numrerade 1-21 och ursäkten. Koder: 1H för hjärter etta, CH för hjärter knekt (cavalier), JH för väpnaren, T1-T21 för trumf, EX för ursäkten.", "The pack has 78 cards: four suits of 14 (king, queen, knight, jack, 10 down to 1), 21 trumps numbered 1-21 and the Excuse. Codes: 1H for the 1 of hearts, CH for the knight of hearts (cavalier), JH for the jack, T1-T21 for the trumps, EX for the Excuse."),
                        (rule::CARD_ORDER, "I varje färg går kung före dam, knekt, väpnare och sedan 10 ned till 1. Trumf 21 är högst och trumf 1, ettan, lägst; varje trumf slår alla färgkort.", "In each suit the king ranks above the queen, the knight, the jack and then 10 down to 1. Trump 21 is highest and trump 1, the Petit, lowest; every trump beats every suit card."),
                        (rule::BOUTS, "Trumf 1, trumf 21 och ursäkten är de tre värdekorten.", "Trump 1, trump 21 and the Excuse are the three bouts."),
                        (rule::CARD_POINTS, "Värdekort och kungar är värda 4,5 poäng, damer 3,5, knektar 2,5, väpnare 1,5 och alla andra kort 0,5; leken har 91 poäng. (Texten räknar samma sak parvis: 5, 4, 3 och 2 tillsammans med ett halvpoängskort.)", "Bouts and kings are worth 4.5 points, queens 3.5, knights 2.5, jacks 1.5 and every other card 0.5; the pack holds 91 points. (The text counts the same in pairs: 5, 4, 3 and 2 together with a half-point card.)"),
                    ],
                ),
                rules::section(
                    "tarot.deal",
                    "Giv",
                    "Dealing",
                    &[
                        (rule::PLAYERS, "Tre, fyra eller fem spelare; spel och giv går motsols.", "Three, four or five players; play and dealing go counter-clockwise."),
                        (rule::DEALER, "Plats 0 ger först; sedan går given till spelaren till höger.", "Seat 0 deals first; then the deal passes to the player on the right."),
                        (rule::PACKETS, "Korten delas ut i omgångar från spelaren till höger om given: tre spelare får 24 kort fyra åt gången, fyra spelare 18 kort tre åt gången och fem spelare 15 kort tre åt gången.", "Cards are dealt in packets from the player on the dealer's right: three players get 24 cards four at a time, four players 18 cards three at a time, five players 15 cards three at a time."),
                        (rule::DOG_SINGLY, "Hunden, sex kort (tre med fem spelare), läggs ut ett kort i taget under utdelningen, aldrig som första eller sista kort.", "The dog, six cards (three with five players), is laid down one card at a time during the deal, never as the first or the last card."),
                        (rule::PETIT_SEC, "Har en spelare ettan som enda trumf och ingen ursäkt (ettan torr) visas handen och given görs om.", "If a player's only trump is the Petit and they have no Excuse (petit sec), the hand is shown and the deal is void."),
                    ],
                ),
                rules::section(
                    "tarot.bidding",
                    "Budgivning",
                    "Bidding",
                    &[
                        (rule::BID_ORDER, "Budgivningen börjar hos spelaren till höger om given och går ett varv; var och en bjuder eller passar en gång.", "The bidding starts with the player on the dealer's right and goes round once; each player bids or passes once."),
                        (rule::CONTRACTS, "Buden är, från lägsta: litet spel (×1), stort spel (×2), spel utan hund (×4) och spel mot hunden (×6). Den som bjuder högst blir spelare; de andra är motspelare.", "The bids, lowest first: small game (×1), big game (×2), game without the dog (×4) and game against the dog (×6). The highest bidder becomes the taker; the others are the defence."),
                        (rule::BID_HIGHER, "Ett bud måste vara högre än alla bud före det.", "A bid must be higher than every bid before it."),
                        (rule::ALL_PASS, "Passar alla samlas korten in och nästa giv ger på nytt.", "If everybody passes, the cards are gathered and the next dealer deals again."),
                    ],
                ),
                rules::section(
                    "tarot.call",
                    "Kallad kung (fem spelare)",
                    "Called king (five players)",
                    &[
                        (rule::CALL_KING, "Med fem spelare kallar spelaren en kung innan hunden vänds; har spelaren alla fyra kungar kallas en dam, har den även alla damer en knekt, och så vidare. Spelaren väljer färgen; valören följer av handen.", "With five players the taker calls a king before the dog is turned; a taker holding all four kings calls a queen, one holding all the queens too a knight, and so on. The taker chooses the suit; the rank follows from the hand."),
                        (rule::SECRET_PARTNER, "Den som har det kallade kortet spelar med spelaren utan att säga det; det blir känt först när kortet spelas.", "Whoever holds the called card plays with the taker without saying so; it becomes known only when the card is played."),
                        (rule::CALLED_ALONE, "Ligger det kallade kortet i hunden eller på spelarens egen hand spelar spelaren ensam mot fyra.", "If the called card is in the dog or in the taker's own hand, the taker plays alone against four."),
                    ],
                ),
                rules::section(
                    "tarot.dog",
                    "Hunden",
                    "The dog",
                    &[
                        (rule::DOG_SHOWN, "Vid litet och stort spel vänds hunden upp för alla och spelaren tar upp den på handen.", "In a small or big game the dog is turned up for all to see and the taker takes it into hand."),
                        (rule::DISCARD, "Spelaren lägger sedan lika många kort som hunden hade i sin egen hög; de räknas för spelaren.", "The taker then puts as many cards as the dog held on their own pile; they count for the taker."),
                        (rule::NO_KINGS_OR_BOUTS, "Kungar och värdekort får aldrig läggas i högen.", "Kings and bouts may never be discarded."),
                        (rule::TRUMPS_IF_FORCED, "Trumf läggs i högen bara när inget annat kort går, och en sådan trumf visas för alla.", "Trumps are discarded only when no other card can be, and such a trump is shown to all."),
                        (rule::DOG_WITHOUT, "Vid spel utan hund ser ingen hunden; den räknas för spelaren när given är slut.", "In a game without the dog nobody sees the dog; it counts for the taker at the end of the deal."),
                        (rule::DOG_AGAINST, "Vid spel mot hunden ser ingen hunden; den räknas för motspelarna när given är slut.", "In a game against the dog nobody sees the dog; it counts for the defence at the end of the deal."),
                    ],
                ),
                rules::section(
                    "tarot.play",
                    "Spelet",
                    "Play",
                    &[
                        (rule::FIRST_LEAD, "Spelaren till höger om given spelar ut till första sticket, utom när slam har annonserats.", "The player on the dealer's right leads to the first trick, unless a slam has been announced."),
                        (rule::CALLED_SUIT_LEAD, "Med fem spelare får första utspelet inte vara i den kallade färgen, utom det kallade kortet självt.", "With five players the first lead may not be in the called suit, except the called card itself."),
                        (rule::FOLLOW_SUIT, "Man måste bekänna färg, och lägga trumf när trumf spelas ut; man behöver inte ta sticket i en färg.", "You must follow suit, and play a trump when trumps are led; there is no duty to win a trick in a suit."),
                        (rule::MUST_TRUMP, "Den som saknar utspelsfärgen måste trumfa; den som saknar både färgen och trumf får lägga vad som helst.", "A player without the suit led must trump; one with neither the suit nor trumps may play anything."),
                        (rule::OVERTRUMP, "Ligger det redan trumf i sticket, eller är trumf utspelat, måste man gå över den högsta trumfen om man kan, annars lägga en lägre trumf.", "When a trump is already in the trick, or trumps were led, you must beat the highest trump if you can, and otherwise play a lower trump."),
                        (rule::TRICK_WINNER, "Högsta trumfen tar sticket; finns ingen trumf tar högsta kortet i utspelsfärgen.", "The highest trump takes the trick; without a trump, the highest card of the suit led does."),
                        (rule::WINNER_LEADS, "Den som tog sticket spelar ut till nästa.", "Whoever took a trick leads to the next."),
                    ],
                ),
                rules::section(
                    "tarot.excuse",
                    "Ursäkten",
                    "The Excuse",
                    &[
                        (rule::EXCUSE_ANY_TIME, "Ursäkten får spelas när som helst och befriar från plikten att bekänna, trumfa och gå över.", "The Excuse may be played at any time and frees its player from the duties to follow, to trump and to overtrump."),
                        (rule::EXCUSE_LED, "Spelas ursäkten ut bestämmer nästa kort färgen.", "If the Excuse is led, the next card sets the suit."),
                        (rule::EXCUSE_NEVER_WINS, "Ursäkten tar aldrig ett stick (utom vid slam, se nedan).", "The Excuse never takes a trick (except in a slam, below)."),
                        (rule::EXCUSE_KEPT, "Ursäktens sida behåller den och ger i stället sticktagarna ett halvpoängskort ur sina egna vunna kort.", "The Excuse's side keeps it and gives the trick's winners a half-point card from its own won cards instead."),
                        (rule::EXCUSE_LAST_TRICK, "Spelas ursäkten i sista sticket går den till den sida som tar sticket.", "Played to the last trick, the Excuse goes to the side that takes that trick."),
                        (rule::EXCUSE_SLAM, "Har ursäktens sida tagit alla stick före det sista och spelar ursäkten i sista sticket, tar ursäkten det sticket.", "If the Excuse's side has taken every trick before the last and plays the Excuse to the last trick, the Excuse takes that trick."),
                    ],
                ),
                rules::section(
                    "tarot.score",
                    "Poängräkning",
                    "Scoring",
                    &[
                        (rule::TARGETS, "Spelarens sida behöver 56 poäng utan värdekort, 51 med ett, 41 med två och 36 med alla tre; exakt det räcker.", "The taker's side needs 56 points with no bout, 51 with one, 41 with two and 36 with all three; exactly that is enough."),
                        (rule::HALF_POINT, "Slutar räkningen på en halv poäng dras den halva poängen från spelaren och ges till motspelarna; 40,5 räcker alltså inte där 41 krävs.", "When the count ends in a half point, the half point is taken from the taker and given to the defence; so 40.5 is not enough where 41 is needed."),
                        (rule::BASE, "Ett kontrakt är värt 25 poäng gånger budets faktor, till spelarens sida om det vinns och till motspelarna om det förloras.", "A contract is worth 25 points times the bid's factor, to the taker's side when made and to the defence when lost."),
                        (rule::DIFFERENCE, "Till de 25 läggs skillnaden mellan sidans poäng och det som krävdes, också den gånger faktorn.", "To the 25 is added the difference between the side's points and what was needed, also times the factor."),
                        (rule::MULTIPLIER, "Faktorn är 1 för litet spel, 2 för stort, 4 utan hund och 6 mot hunden.", "The factor is 1 for a small game, 2 for a big one, 4 without the dog and 6 against the dog."),
                        (rule::SHARES, "Varje motspelare betalar summan (eller får den om spelaren förlorar); spelaren får vad motspelarna betalar: tre gånger med fyra spelare, två gånger med tre, fyra gånger när spelaren är ensam mot fyra.", "Each defender pays the amount (or receives it when the taker loses); the taker receives what the defenders pay: three times with four players, twice with three, four times when alone against four."),
                        (rule::PARTNER_SHARE, "Med fem spelare och en partner delar spelaren och partnern på det motspelarna betalar: två tredjedelar till spelaren och en tredjedel till partnern.", "With five players and a partner, the taker and the partner share what the defenders pay: two thirds to the taker and one third to the partner."),
                        (rule::ZERO_SUM, "Plus och minus tar ut varandra: varje giv summerar till noll.", "Plus and minus cancel out: every deal sums to zero."),
                    ],
                ),
                rules::section(
                    "tarot.advanced",
                    "Avancerad poängräkning",
                    "Advanced scoring",
                    &[
                        (rule::PETIT_AU_BOUT, "Ettan sist: den sida som tar sista sticket med ettan i får 10 poäng innanför parentesen, alltså gånger faktorn, oavsett om kontraktet vinns.", "Petit au bout: the side that takes the last trick with the Petit in it gets 10 points inside the bracket, so times the factor, whether the contract is made or not."),
                        (rule::POIGNEE, "En visad hand (poignée) är värd 20 (enkel), 30 (dubbel) eller 40 (trippel), utan faktor, och går alltid till den sida som vinner given, vem som än visade den.", "A shown poignée is worth 20 (single), 30 (double) or 40 (triple), not multiplied, and always goes to the side that wins the deal, whoever showed it."),
                        (rule::POIGNEE_SIZES, "En hand visar exakt 13, 15 eller 18 trumf med tre spelare, 10, 13 eller 15 med fyra och 8, 10 eller 13 med fem; man väljer nivå bland dem handen når.", "A poignée shows exactly 13, 15 or 18 trumps with three players, 10, 13 or 15 with four and 8, 10 or 13 with five; the player picks a level the hand reaches."),
                        (rule::POIGNEE_TRUMPS, "Bara trumf visas i en hand; ursäkten räknas som trumf.", "Only trumps are shown in a poignée; the Excuse counts as a trump."),
                        (rule::POIGNEE_EXCUSE, "Visas ursäkten i en hand betyder det att spelaren inte har några fler trumf än de visade.", "Showing the Excuse in a poignée means the player holds no trump beyond those shown."),
                        (rule::POIGNEE_WHEN, "En hand visas när man står i tur att spela sitt första kort, och aldrig senare; den som inte vill visa sin hand får ingen bonus.", "A poignée is shown when about to play one's first card, and never later; a player who does not show it gets no bonus."),
                        (rule::TROST, "Tröst: den som helt saknar klädda kort (kung, dam, knekt, väpnare) kan säga det innan sitt första kort och får 10 poäng av var och en av de andra.", "Tröst: a player without any court card (king, queen, knight, jack) may say so before their first card and gets 10 points from each other player."),
                        (rule::SLAM, "Slam (alla stick): annonserad och vunnen +400, vunnen utan annons +200, annonserad men förlorad -200, efter faktorn.", "Slam (every trick): announced and made +400, made unannounced +200, announced and failed -200, added after the factor."),
                        (rule::SLAM_LEAD, "Den som annonserar slam spelar ut till första sticket.", "Whoever announces a slam leads to the first trick."),
                        (rule::DEFENCE_SLAM, "Tar motspelarna alla stick får de 200 poäng till.", "If the defence takes every trick it gets 200 points more."),
                    ],
                ),
                rules::section(
                    "tarot.end",
                    "Partiets slut",
                    "End of the match",
                    &[
                        (rule::MATCH_DEALS, "Partiet spelas ett bestämt antal givar, som standard ett varv (en giv per spelare); gjorda om givar räknas inte.", "The match is a set number of deals, by default one round (one deal per player); void deals do not count."),
                        (rule::SCORE_LIMIT, "Med en poänggräns slutar partiet efter den giv där någon når gränsen.", "With a score limit the match ends after the deal in which someone reaches the limit."),
                        (rule::MATCH_WINNER, "Den som har flest poäng när partiet är slut vinner.", "The player with the most points when the match ends wins."),
                    ],
                ),
                rules::section(
                    "tarot.variant",
                    "Varianter",
                    "Variants",
                    &[
                        (rule::FFT_HALF_POINT, "Tillval (förbundets regel): en halv poäng går till den sida som vinner given i stället för alltid till motspelarna.", "Option (the federation's rule): a half point goes to the side that wins the deal instead of always to the defence."),
                        (rule::ADVANCED_OFF, "Tillval: ettan sist, hand (poignée), tröst och slam kan var för sig stängas av; som standard gäller alla.", "Option: petit au bout, the poignée, tröst and the slam can each be turned off; by default all apply."),
                    ],
                ),
                rules::house_rules(
                    "tarot.house",
                    &[
                        (rule::DOG_POSITIONS, "Hundens kort läggs ut jämnt fördelade mellan omgångarna: med fyra spelare efter omgång 3, 6, 10, 13, 17 och 20 av 24, med tre efter 2, 5, 7, 10, 12 och 15 av 18, med fem efter 6, 12 och 18 av 25.", "The dog's cards are laid down spread evenly between packets: with four players after packets 3, 6, 10, 13, 17 and 20 of 24, with three after 2, 5, 7, 10, 12 and 15 of 18, with five after 6, 12 and 18 of 25."),
                        (rule::CANCELLED_DEAL, "En giv som görs om (alla passar, ettan torr) ges om av nästa giv och räknas inte bland partiets givar.", "A void deal (all passed, petit sec) is dealt again by the next dealer and does not count among the match's deals."),
                        (rule::DISCARD_SINGLY, "Spelaren lägger korten i högen ett i taget; ett lagt kort tas inte tillbaka.", "The taker discards one card at a time; a discarded card is not taken back."),
                        (rule::CALL_OWN_CARD, "Spelaren får kalla ett kort den själv har och spelar då ensam, utan att någon annan vet det.", "The taker may call a card of their own and then plays alone, without the others knowing."),
                        (rule::SLAM_AFTER_DOG, "Slam annonseras av spelaren direkt efter hunden (efter högen vid litet och stort spel), innan första kortet spelas.", "A slam is announced by the taker right after the dog (after discarding in a small or big game), before the first card is played."),
                        (rule::CALLED_LEAD_ONLY, "Regeln om den kallade färgen gäller själva utspelet; den som bara har den färgen får spela den.", "The called-suit rule binds the lead itself; a player with nothing but that suit may lead it."),
                        (rule::EXCHANGE_AT_COUNT, "Halvpoängskortet för ursäkten byts när given räknas, så att bytet aldrig röjer vem som är partner.", "The half-point card for the Excuse is exchanged at the count, so that the exchange never gives away the partner."),
                        (rule::EXCUSE_NO_CARD, "Har ursäktens sida inte vunnit ett enda kort att byta med går ursäkten till den sida som tog sticket.", "If the Excuse's side has won no card at all to exchange, the Excuse goes to the side that took the trick."),
                        (rule::PETIT_CAPTURED, "Ettan sist gäller den sida som tar sista sticket med ettan i, även om ettan togs från motståndarna.", "Petit au bout goes to the side taking the last trick with the Petit in it, even when the Petit was captured from the other side."),
                        (rule::ONE_POIGNEE, "Varje spelare visar högst en hand per giv.", "Each player shows at most one poignée per deal."),
                        (rule::LOWEST_TRUMPS_SHOWN, "Den som visar en hand visar sina lägsta trumf, så många som nivån kräver, och ursäkten bara när den behövs för att fylla ut; de högsta trumfen förblir dolda.", "A player showing a poignée shows their lowest trumps, as many as the level needs, and the Excuse only when it is needed to make up the number; the highest trumps stay hidden."),
                        (rule::TROST_UNSEEN, "Tröst kontrolleras av motorn; handen behöver inte visas, men alla får veta att den saknar klädda kort.", "Tröst is checked by the engine; the hand need not be shown, but everyone learns it has no court card."),
                        (rule::SLAM_BOTH_WAYS, "Tar motspelarna alla stick efter en annonserad slam gäller både -200 för annonsen och 200 till motspelarna.", "If the defence takes every trick after an announced slam, both the -200 for the announcement and the defence's 200 apply."),
                        (rule::DOG_HIDDEN_UNTIL_END, "Hunden vid spel utan och mot hunden, och spelarens hög, visas för alla när given är slut.", "The dog in a game without or against it, and the taker's discards, are shown to all when the deal is over."),
                        (rule::TIES_SHARE, "Har flera spelare lika många poäng i topp när partiet är slut delar de på segern.", "If several players share the highest score at the end, they share the win."),
                    ],
                ),
            ],
        }
    }

    fn options(&self) -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "deals",
                default: Value::Null,
                sv: "Antal givar i partiet (gjorda om givar räknas inte). null: ett varv, en giv per spelare, om inte score_limit är satt.",
                en: "Deals in the match (void deals do not count). null: one round, a deal per player, unless score_limit is set.",
            },
            OptionDoc {
                name: "score_limit",
                default: Value::Null,
                sv: "Partiet slutar efter den giv där någon når detta antal poäng. null: ingen gräns.",
                en: "The match ends after the deal in which someone reaches this many points. null: no limit.",
            },
            OptionDoc {
                name: "half_point",
                default: json!("text"),
                sv: "\"text\": en udda halv poäng går alltid till motspelarna (texten); \"fft\": till den sida som vinner (förbundet).",
                en: "\"text\": an odd half point always goes to the defence (the text); \"fft\": to the side that wins (the federation).",
            },
            OptionDoc {
                name: "petit_au_bout",
                default: json!(true),
                sv: "Ettan sist: 10 gånger faktorn till den sida som tar sista sticket med ettan i.",
                en: "Petit au bout: 10 times the factor to the side taking the last trick with the Petit in it.",
            },
            OptionDoc {
                name: "poignee",
                default: json!(true),
                sv: "Enkel, dubbel och trippel hand: 20, 30 eller 40 för många visade trumf.",
                en: "Single, double and triple poignée: 20, 30 or 40 for many trumps shown.",
            },
            OptionDoc {
                name: "trost",
                default: json!(true),
                sv: "Tröst: 10 av var och en till den som saknar klädda kort.",
                en: "Tröst: 10 from each player to one who has no court card.",
            },
            OptionDoc {
                name: "slam",
                default: json!(true),
                sv: "Slam: annonsering, utspel, +400/+200/-200 och motspelarnas slam.",
                en: "Slam: announcement, lead, +400/+200/-200 and the defence's slam.",
            },
        ]
    }

    fn player_counts(&self) -> RangeInclusive<usize> {
        MIN_PLAYERS..=MAX_PLAYERS
    }

    /// Each scoring variant off or changed, and each way to end a match.
    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        let default = Options::default();
        vec![
            default.clone(),
            Options { half_point: HalfPoint::Fft, ..default.clone() },
            Options { petit_au_bout: false, poignee: false, trost: false, slam: false, ..default.clone() },
            Options { score_limit: Some(300), ..default.clone() },
            Options { deals: Some(2), slam: false, half_point: HalfPoint::Fft, ..default.clone() },
            Options { deals: Some(6), trost: false, poignee: false, ..default },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !self.player_counts().contains(&players) {
            return Err(SetupError(format!("tarot is played by 3 to 5 players, not {players}")));
        }
        if options.deals == Some(0) || options.deals.is_some_and(|d| d > 1000) {
            return Err(SetupError("deals must be from 1 to 1000".into()));
        }
        if options.score_limit == Some(0) {
            return Err(SetupError("score_limit must be at least 1".into()));
        }
        Ok(State {
            table: Table::counter_clockwise(players),
            options,
            deals_started: 0,
            deals_played: 0,
            next_dealer: 0,
            scores: vec![0; players],
            ledger: vec![0; players],
            deal: None,
            winners: None,
        })
    }

    fn status(&self, state: &State) -> Status {
        if let Some(winners) = &state.winners {
            return Status::Finished { outcome: Outcome::most_points(winners, &state.scores) };
        }
        let Some(deal) = &state.deal else {
            return Status::NeedsDeck { composition: decks::tarot78() };
        };
        let seats = match deal.phase {
            Phase::Over => return Status::NeedsDeck { composition: decks::tarot78() },
            Phase::Bidding => deal.auction.next_bidder().into_iter().collect(),
            Phase::Calling | Phase::Dog | Phase::Discarding | Phase::Slam => deal.taker.into_iter().collect(),
            Phase::Playing => vec![deal.trick.next_to_play(&state.table)],
        };
        Status::ToAct { seats }
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals_started
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let players = state.players();
        let dealer = state.next_dealer;
        let plan = deal_plan(&state.table, dealer);
        let mut hands = vec![Vec::new(); players];
        let mut dog = Vec::new();
        let mut dog_positions = Vec::new();
        for (i, (&card, to)) in deck.iter().zip(&plan).enumerate() {
            match to {
                Some(seat) => hands[*seat].push(card),
                None => {
                    dog.push(card);
                    dog_positions.push(i);
                }
            }
        }
        hands.iter_mut().for_each(|h| sort_hand(h));
        let shown = self.petit_sec(&hands);
        let mut events = vec![Event::DealStarted {
            deal_number: state.deals_started + 1,
            deals_played: state.deals_played,
            dealer,
            deck,
            hands,
            dog,
            dog_positions,
            bidding_order: state.table.order_from(state.table.next(dealer)),
            scores: state.scores.clone(),
            options: state.options.clone(),
        }];
        if !shown.is_empty() {
            events.push(Event::DealCancelled {
                reason: CancelReason::PetitSec,
                shown,
                next_dealer: state.table.next(dealer),
            });
        }
        Ok(events)
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deal.as_ref().expect("a seat acts only while a deal is in play");
        match command {
            Command::Bid { contract } => self.decide_bid(state, deal, seat, Some(*contract)),
            Command::Pass => self.decide_bid(state, deal, seat, None),
            Command::Call { suit } => self.decide_call(deal, seat, *suit),
            Command::Discard { card } => self.decide_discard(deal, seat, *card),
            Command::AnnounceSlam => self.decide_slam(deal, seat, true),
            Command::DeclineSlam => self.decide_slam(deal, seat, false),
            Command::DeclarePoignee { level } => self.decide_poignee(state, deal, seat, *level),
            Command::DeclareTrost => self.decide_trost(state, deal, seat),
            Command::Play { card } => self.decide_play(state, deal, seat, *card),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        let players = state.players();
        let table = state.table;
        let slam_option = state.options.slam;
        // After the dog: the slam announcement, or straight to play from the dealer's right.
        let after_dog = |deal: &mut Deal| {
            deal.phase = if slam_option { Phase::Slam } else { Phase::Playing };
        };
        match event {
            Event::DealStarted {
                deal_number,
                deals_played,
                dealer,
                deck,
                hands,
                dog,
                dog_positions,
                bidding_order,
                scores,
                options,
            } => {
                state.deals_started = *deal_number;
                state.deals_played = *deals_played;
                // The deal carries what it inherits, so it can be replayed on its own.
                state.scores = scores.clone();
                state.ledger = scores.clone();
                state.options = options.clone();
                state.next_dealer = *dealer;
                state.winners = None;
                state.deal = Some(Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    dealt: hands.clone(),
                    hands: hands.clone(),
                    dog: dog.clone(),
                    dog_positions: dog_positions.clone(),
                    auction: Auction::new(bidding_order.clone()),
                    phase: Phase::Bidding,
                    cancelled: None,
                    taker: None,
                    contract: None,
                    called: None,
                    partner: None,
                    partner_revealed: false,
                    dog_taken: false,
                    discards: Vec::new(),
                    public: BTreeSet::new(),
                    slam_announced: None,
                    poignees: vec![None; players],
                    trost: vec![false; players],
                    trick: Trick::led_by(table.forehand(*dealer)),
                    tricks: Vec::new(),
                    won: vec![Vec::new(); players],
                    result: None,
                });
            }
            Event::DealCancelled { reason, shown, next_dealer } => {
                state.next_dealer = *next_dealer;
                let Some(deal) = state.deal.as_mut() else { return };
                deal.phase = Phase::Over;
                deal.cancelled = Some(*reason);
                for h in shown {
                    deal.public.extend(h.hand.iter().copied());
                }
            }
            Event::BidMade { seat, contract } => {
                if let Some(deal) = state.deal.as_mut() {
                    deal.auction.record(*seat, Some(*contract));
                }
            }
            Event::Passed { seat } => {
                if let Some(deal) = state.deal.as_mut() {
                    deal.auction.record(*seat, None);
                }
            }
            Event::ContractWon { taker, contract } => {
                let Some(deal) = state.deal.as_mut() else { return };
                deal.taker = Some(*taker);
                deal.contract = Some(*contract);
                deal.phase = if players == 5 { Phase::Calling } else { Phase::Dog };
            }
            Event::CardCalled { taker, card } => {
                let Some(deal) = state.deal.as_mut() else { return };
                deal.called = Some(*card);
                deal.public.insert(*card);
                deal.partner = (0..players).find(|&s| s != *taker && deal.hands[s].contains(card));
                deal.phase = Phase::Dog;
            }
            Event::DogShown { cards, .. } => {
                let Some(deal) = state.deal.as_mut() else { return };
                let Some(taker) = deal.taker else { return };
                deal.public.extend(cards.iter().copied());
                deal.hands[taker].extend(cards.iter().copied());
                sort_hand(&mut deal.hands[taker]);
                deal.dog_taken = true;
                deal.phase = Phase::Discarding;
            }
            Event::DogSetAside { .. } => {
                if let Some(deal) = state.deal.as_mut() {
                    after_dog(deal);
                }
            }
            Event::Discarded { seat, card, shown } => {
                let Some(deal) = state.deal.as_mut() else { return };
                take_card(&mut deal.hands[*seat], *card);
                deal.discards.push(*card);
                if *shown {
                    deal.public.insert(*card);
                }
                if deal.discards.len() >= deal.dog.len() {
                    after_dog(deal);
                }
            }
            Event::SlamAnnounced { seat } => {
                let Some(deal) = state.deal.as_mut() else { return };
                deal.slam_announced = Some(true);
                deal.trick = Trick::led_by(*seat);
                deal.phase = Phase::Playing;
            }
            Event::SlamDeclined { .. } => {
                let Some(deal) = state.deal.as_mut() else { return };
                deal.slam_announced = Some(false);
                deal.phase = Phase::Playing;
            }
            Event::PoigneeDeclared { seat, level, trumps } => {
                let Some(deal) = state.deal.as_mut() else { return };
                deal.public.extend(trumps.iter().copied());
                deal.poignees[*seat] = Some(PoigneeShown { seat: *seat, level: *level, trumps: trumps.clone() });
            }
            Event::TrostDeclared { seat } => {
                if let Some(deal) = state.deal.as_mut() {
                    deal.trost[*seat] = true;
                }
            }
            Event::CardPlayed { seat, card } => {
                let Some(deal) = state.deal.as_mut() else { return };
                take_card(&mut deal.hands[*seat], *card);
                deal.trick.plays.push((*seat, *card));
                deal.public.insert(*card);
                // The card itself tells the table; `PartnerRevealed` says so in words.
                if deal.called == Some(*card) {
                    deal.partner_revealed = true;
                }
            }
            Event::PartnerRevealed { .. } => {
                if let Some(deal) = state.deal.as_mut() {
                    deal.partner_revealed = true;
                }
            }
            Event::TrickWon { trick_number, winner, card, reason, plays, excuse_to, .. } => {
                let Some(deal) = state.deal.as_mut() else { return };
                for p in plays {
                    let to = match excuse_to {
                        Some(owner) if p.card == EXCUSE => *owner,
                        _ => *winner,
                    };
                    deal.won[to].push(p.card);
                }
                deal.tricks.push(TrickRecord {
                    number: *trick_number,
                    leader: deal.trick.leader,
                    plays: plays.clone(),
                    winner: *winner,
                    card: *card,
                    reason: *reason,
                    excuse_to: *excuse_to,
                });
                deal.trick = Trick::led_by(*winner);
                if deal.tricks.len() >= layout(players).hand {
                    deal.phase = Phase::Over;
                }
            }
            Event::DealScored { count, scoring, totals, .. } => {
                for t in &scoring.terms {
                    if let Some(l) = state.ledger.get_mut(t.to) {
                        *l += t.points;
                    }
                }
                state.scores = totals.clone();
                state.deals_played += 1;
                if let Some(deal) = state.deal.as_mut() {
                    state.next_dealer = table.next(deal.dealer);
                    deal.result = Some((count.clone(), scoring.clone()));
                }
            }
            Event::MatchEnded { winners, .. } => {
                state.winners = Some(winners.clone());
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        if !self.status(state).to_act().contains(&seat) {
            return Vec::new();
        }
        let Some(deal) = &state.deal else { return Vec::new() };
        let accepted = |c: &Command| self.decide(state, seat, c).is_ok();
        match deal.phase {
            Phase::Bidding => Contract::ALL
                .into_iter()
                .map(|contract| Command::Bid { contract })
                .chain([Command::Pass])
                .filter(accepted)
                .collect(),
            Phase::Calling => Suit::ALL.into_iter().map(|suit| Command::Call { suit }).filter(accepted).collect(),
            Phase::Discarding => {
                deal.hands[seat].iter().map(|&card| Command::Discard { card }).filter(accepted).collect()
            }
            Phase::Slam => vec![Command::AnnounceSlam, Command::DeclineSlam],
            Phase::Playing => {
                let mut moves = self.declarations(state, deal, seat);
                moves.extend(self.legal_cards(state, deal, seat).into_iter().map(|card| Command::Play { card }));
                moves
            }
            Phase::Dog | Phase::Over => Vec::new(),
        }
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut space: Vec<Command> =
            Contract::ALL.into_iter().map(|contract| Command::Bid { contract }).collect();
        space.extend([
            Command::Pass,
            Command::AnnounceSlam,
            Command::DeclineSlam,
            Command::DeclareTrost,
        ]);
        space.extend(Poignee::ALL.into_iter().map(|level| Command::DeclarePoignee { level }));
        space.extend(Suit::ALL.into_iter().map(|suit| Command::Call { suit }));
        // Cards to discard or play: the seat's own, and a few it may not hold.
        let mut cards: Vec<Card> =
            vec![PETIT, TWENTY_ONE, EXCUSE, Card::One(Suit::Clubs), suit_card(Suit::Spades, KING)];
        if let Some(hand) = state.deal.as_ref().and_then(|d| d.hands.get(seat)) {
            cards.extend(hand);
        }
        cards.sort_by_key(|&c| index78(c));
        cards.dedup();
        space.extend(cards.iter().map(|&card| Command::Discard { card }));
        space.extend(cards.iter().map(|&card| Command::Play { card }));
        space
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
                    Phase::Bidding => "bidding",
                    Phase::Calling => "calling",
                    Phase::Dog => "dog",
                    Phase::Discarding => "discarding",
                    Phase::Slam => "slam",
                    Phase::Playing => "playing",
                    Phase::Over => "deal-over",
                },
            }
        };
        let mut v = Map::new();
        v.insert("phase".into(), json!(phase));
        v.insert("players".into(), json!(players));
        v.insert("options".into(), json!(state.options));
        v.insert("deal_number".into(), json!(state.deals_started));
        v.insert("deals_played".into(), json!(state.deals_played));
        v.insert("deals_total".into(), json!(state.deals_total()));
        v.insert("score_limit".into(), json!(state.options.score_limit));
        v.insert("scores".into(), json!(state.scores));
        v.insert("to_act".into(), json!(status.to_act()));
        v.insert("winners".into(), json!(state.winners));
        v.insert("next_dealer".into(), json!(state.next_dealer));
        v.insert("layout".into(), json!(layout(players)));
        v.insert("poignee_sizes".into(), json!(poignee_sizes(players)));
        if let Viewer::Seat(s) = viewer {
            v.insert("seat".into(), json!(s));
        }
        let Some(deal) = &state.deal else { return Value::Object(v) };
        let over = deal.phase == Phase::Over;
        let open = over || viewer == Viewer::Record;
        let me = match viewer {
            Viewer::Seat(s) if s < players => Some(s),
            _ => None,
        };
        v.insert("dealer".into(), json!(deal.dealer));
        v.insert("cancelled".into(), json!(deal.cancelled));
        v.insert("bidding_order".into(), json!(deal.auction.order));
        let bids: Vec<Value> = (0..players)
            .map(|s| match deal.auction.bid_of(s) {
                None => Value::Null,
                Some(None) => json!("pass"),
                Some(Some(c)) => json!(c),
            })
            .collect();
        v.insert("bids".into(), json!(bids));
        v.insert("highest_bid".into(), json!(deal.highest_bid()));
        v.insert("taker".into(), json!(deal.taker));
        v.insert("contract".into(), json!(deal.contract));
        v.insert("multiplier".into(), json!(deal.contract.map(Contract::multiplier)));
        v.insert("called_card".into(), json!(deal.called));
        // The partner is known to the table once the called card is played; before that only
        // to the partner (and the taker knows when holding the card itself).
        let partner_known = open || deal.partner_revealed || (me.is_some() && me == deal.partner);
        v.insert("partner".into(), json!(deal.partner.filter(|_| partner_known)));
        v.insert("partner_revealed".into(), json!(deal.partner_revealed));
        let alone = players == 5 && deal.called.is_some() && deal.partner.is_none();
        let alone_public = deal.dog_taken && deal.called.is_some_and(|c| deal.dog.contains(&c))
            || (deal.partner_revealed && deal.partner.is_none());
        let taker_knows = me.is_some()
            && me == deal.taker
            && deal.called.is_some_and(|c| me.is_some_and(|s| deal.dealt[s].contains(&c)));
        let alone_known = deal.called.is_some()
            && (open || deal.partner_revealed || alone_public || taker_knows || (me.is_some() && me == deal.partner));
        v.insert("taker_alone".into(), if alone_known { json!(alone) } else { Value::Null });
        let dog_visible = open || deal.dog_taken;
        v.insert("dog".into(), if dog_visible { json!(deal.dog) } else { Value::Null });
        v.insert("dog_size".into(), json!(deal.dog.len()));
        v.insert(
            "dog_to".into(),
            json!(deal.contract.map(|c| if c == Contract::AgainstDog { Side::Defence } else { Side::Taker })),
        );
        v.insert("discard_count".into(), json!(deal.discards.len()));
        let discards_visible = open || (me.is_some() && me == deal.taker);
        v.insert("discards".into(), if discards_visible { json!(deal.discards) } else { Value::Null });
        let shown: Vec<Card> = deal.discards.iter().copied().filter(|&c| is_trump(c)).collect();
        v.insert("discarded_trumps".into(), json!(shown));
        v.insert("slam_announced".into(), json!(deal.slam_announced));
        v.insert("poignees".into(), json!(deal.poignees));
        v.insert("trost".into(), json!(deal.trost));
        v.insert("hand_sizes".into(), json!(deal.hands.iter().map(Vec::len).collect::<Vec<_>>()));
        let first_played: Vec<bool> = (0..players).map(|s| deal.has_played(s)).collect();
        v.insert("has_played".into(), json!(first_played));
        v.insert(
            "trick".into(),
            json!({
                "leader": deal.trick.leader,
                "plays": deal.trick.plays.iter().map(|&(seat, card)| Play { seat, card }).collect::<Vec<_>>(),
                "led": led_of(&deal.trick.plays),
            }),
        );
        v.insert("tricks_played".into(), json!(deal.tricks.len()));
        let tricks_won: Vec<usize> =
            (0..players).map(|s| deal.tricks.iter().filter(|t| t.winner == s).count()).collect();
        v.insert("tricks_won".into(), json!(tricks_won));
        // As at the table, the tricks are turned down once taken: only the last stays in view.
        v.insert("last_trick".into(), json!(deal.tricks.last()));
        if let Some((count, scoring)) = &deal.result {
            v.insert("count".into(), json!(count));
            v.insert("scoring".into(), json!(scoring));
        }
        if let Some(s) = me {
            v.insert("hand".into(), json!(deal.hands[s]));
        }
        if open {
            v.insert("hands".into(), json!(deal.hands));
            v.insert("dealt".into(), json!(deal.dealt));
            v.insert("deck".into(), json!(deal.deck));
            v.insert("dog_positions".into(), json!(deal.dog_positions));
            v.insert("tricks".into(), json!(deal.tricks));
        }
        Value::Object(v)
    }

    fn redact(&self, _state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let full = serde_json::to_value(event).expect("events serialize");
        if viewer == Viewer::Record || deal_over {
            return full;
        }
        let Value::Object(mut map) = full else { return full };
        match event {
            Event::DealStarted { hands, dog, .. } => {
                map.remove("deck");
                map.remove("dog_positions");
                map.insert("dog".into(), Value::Null);
                map.insert("dog_size".into(), json!(dog.len()));
                map.insert("hand_sizes".into(), json!(hands.iter().map(Vec::len).collect::<Vec<_>>()));
                let shown: Vec<Value> = (0..hands.len())
                    .map(|s| if viewer == Viewer::Seat(s) { json!(hands[s]) } else { Value::Null })
                    .collect();
                map.insert("hands".into(), Value::Array(shown));
            }
            Event::Discarded { seat, shown: false, .. } if viewer != Viewer::Seat(*seat) => {
                map.insert("card".into(), Value::Null);
            }
            _ => {}
        }
        Value::Object(map)
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deal else { return Vec::new() };
        if deal.phase == Phase::Over {
            return Vec::new();
        }
        let hidden = |c: &Card| !deal.public.contains(c);
        let mut out: Vec<(Card, Vec<Seat>)> = Vec::new();
        for (s, hand) in deal.hands.iter().enumerate() {
            out.extend(hand.iter().filter(|c| hidden(c)).map(|&c| (c, vec![s])));
        }
        if !deal.dog_taken {
            out.extend(deal.dog.iter().filter(|c| hidden(c)).map(|&c| (c, Vec::new())));
        }
        if let Some(taker) = deal.taker {
            out.extend(deal.discards.iter().filter(|c| hidden(c)).map(|&c| (c, vec![taker])));
        }
        out
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        let players = state.players();
        if state.scores.len() != players || state.ledger.len() != players {
            return Err("scores do not have one entry per seat".into());
        }
        if state.scores != state.ledger {
            return Err(format!("scores {:?} differ from the sum of scored terms {:?}", state.scores, state.ledger));
        }
        if state.scores.iter().sum::<i64>() != 0 {
            return Err(format!("scores {:?} do not sum to zero", state.scores));
        }
        if state.deals_played > state.deals_started {
            return Err(format!("{} deals scored of {} started", state.deals_played, state.deals_started));
        }
        if let Some(n) = state.deals_total() {
            if state.deals_played > n {
                return Err(format!("deal {} of {n} was played", state.deals_played));
            }
        }
        if let Some(winners) = &state.winners {
            if !state.match_over(state.deals_played, &state.scores) {
                return Err("the match ended before its end was due".into());
            }
            if *winners != match_winners(&state.scores) {
                return Err(format!("winners {winners:?} are not the top scorers of {:?}", state.scores));
            }
        }
        let Some(deal) = &state.deal else { return Ok(()) };
        if deal.number != state.deals_started || deal.number == 0 {
            return Err(format!("the deal in play is {} but {} were started", deal.number, state.deals_started));
        }
        if !is_whole_pack(deal.deck.iter().copied()) {
            return Err("the recorded deck is not the tarot pack".into());
        }
        // Every card is in exactly one place.
        let everywhere = deal
            .hands
            .iter()
            .flatten()
            .copied()
            .chain(deal.dog.iter().copied().filter(|_| !deal.dog_taken))
            .chain(deal.discards.iter().copied())
            .chain(deal.won.iter().flatten().copied())
            .chain(deal.trick.cards());
        if !is_whole_pack(everywhere) {
            return Err("hands, dog, discards, won cards and the trick are not the 78 cards, each once".into());
        }
        let l = layout(players);
        if deal.dog.len() != l.dog || deal.dealt.iter().any(|h| h.len() != l.hand) {
            return Err("the deal does not have the layout of its player count".into());
        }
        if deal.discards.len() > l.dog || (!deal.dog_taken && !deal.discards.is_empty()) {
            return Err("more discards than the dog had".into());
        }
        let played = |s: Seat| deal.tricks.len() + deal.trick.plays.iter().any(|&(p, _)| p == s) as usize;
        for s in 0..players {
            let extra = if deal.dog_taken && Some(s) == deal.taker { l.dog - deal.discards.len() } else { 0 };
            let expected = l.hand + extra - played(s);
            if deal.hands[s].len() != expected {
                return Err(format!("seat {s} holds {} cards, expected {expected}", deal.hands[s].len()));
            }
        }
        if deal.won.iter().map(Vec::len).sum::<usize>() != deal.tricks.len() * players {
            return Err("the won cards are not the played tricks".into());
        }
        if deal.discards.iter().any(|&c| is_king(c) || is_bout(c)) {
            return Err("a king or a bout was discarded".into());
        }
        if deal.tricks.len() > l.hand || deal.trick.plays.len() > players {
            return Err("more tricks or plays than the deal has".into());
        }
        match (deal.taker, deal.contract) {
            (Some(t), Some(c)) => {
                if deal.auction.bid_of(t) != Some(&Some(c)) || deal.highest_bid() != Some(c) {
                    return Err(format!("seat {t} is the taker but did not make the highest bid"));
                }
            }
            (None, None) => {
                if !matches!(deal.phase, Phase::Bidding | Phase::Over) {
                    return Err("play went on without a contract".into());
                }
            }
            _ => return Err("a taker without a contract".into()),
        }
        if players == 5 {
            if let (Some(c), Some(t)) = (deal.called, deal.taker) {
                let holder = (0..players).find(|&s| deal.dealt[s].contains(&c)).filter(|&s| s != t);
                if holder != deal.partner {
                    return Err(format!(
                        "the partner is {:?} but the called card was dealt to {holder:?}",
                        deal.partner
                    ));
                }
                if !is_court(c) {
                    return Err("the called card is not a court card".into());
                }
            }
        } else if deal.called.is_some() || deal.partner.is_some() {
            return Err("a card was called in a game of fewer than five".into());
        }
        let called_played = deal.called.is_some_and(|c| {
            deal.trick.cards().any(|p| p == c) || deal.tricks.iter().any(|t| t.contains(c))
        });
        if deal.partner_revealed != called_played {
            return Err(format!(
                "the partner is {}revealed but the called card is {}played",
                if deal.partner_revealed { "" } else { "not " },
                if called_played { "" } else { "not " }
            ));
        }
        if players == 5 && deal.called.is_none() && matches!(deal.phase, Phase::Discarding | Phase::Slam | Phase::Playing) {
            return Err("play went on in a five-player game without a called card".into());
        }
        for p in deal.poignees.iter().flatten() {
            if !Poignee::ALL.iter().any(|l| l.size(players) == p.trumps.len() && *l == p.level) {
                return Err(format!("seat {} showed {} trumps as a {:?}", p.seat, p.trumps.len(), p.level));
            }
        }
        // Each trick was checked when it was the latest: checking only that one keeps this linear.
        if let Some(t) = deal.tricks.last() {
            let in_order = (0..players).all(|i| t.plays.get(i).map(|p| p.seat) == Some(state.table.after(t.leader, i)));
            if !in_order || t.plays.len() != players {
                return Err(format!("trick {} was not played in turn", t.number));
            }
            if t.reason != WinReason::ExcuseCompletesSlam {
                let plays: Vec<(Seat, Card)> = t.plays.iter().map(|p| (p.seat, p.card)).collect();
                if trick_winner(&plays) != (t.winner, t.card, t.reason) {
                    return Err(format!("trick {} went to the wrong seat", t.number));
                }
            }
            if deal.trick.leader != t.winner {
                return Err(format!("seat {} leads although seat {} took the last trick", deal.trick.leader, t.winner));
            }
        }
        if let Some((count, scoring)) = &deal.result {
            if count.taker_half_points + count.defence_half_points != TOTAL_HALF_POINTS {
                return Err(format!(
                    "the sides counted {} and {} half points, not {TOTAL_HALF_POINTS}",
                    count.taker_half_points, count.defence_half_points
                ));
            }
            if scoring.points.iter().sum::<i64>() != 0 {
                return Err(format!("the deal's points {:?} do not sum to zero", scoring.points));
            }
            for s in 0..players {
                let sum: i64 = scoring.terms.iter().filter(|t| t.to == s).map(|t| t.points).sum();
                if sum != scoring.points[s] {
                    return Err(format!("seat {s}'s terms sum to {sum}, not {}", scoring.points[s]));
                }
            }
        }
        let bids_in = deal.auction.bids.len();
        match deal.phase {
            // All bids in is a passing moment: the contract (or the redeal) follows in the same batch.
            Phase::Bidding if bids_in > players => Err("more bids than players".into()),
            Phase::Bidding if !deal.tricks.is_empty() || !deal.trick.is_empty() => {
                Err("cards were played during the bidding".into())
            }
            Phase::Playing if bids_in != players => Err("play started before every bid was in".into()),
            Phase::Playing if deal.dog_taken && deal.discards.len() != l.dog => {
                Err("play started before the taker discarded".into())
            }
            Phase::Over if deal.cancelled.is_none() && deal.tricks.len() != l.hand => {
                Err("the deal ended before every trick was played".into())
            }
            _ => Ok(()),
        }
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        if !self.status(state).to_act().contains(&seat) {
            return None;
        }
        let deal = state.deal.as_ref()?;
        let hand = &deal.hands[seat];
        let players = state.players();
        let pick = |n: usize| (seed % n.max(1) as u64) as usize;
        match deal.phase {
            Phase::Bidding => {
                // A rough hand strength, scaled to a four-player hand of 18 cards.
                let trumps = hand.iter().filter(|&&c| is_trump(c)).count() as i64;
                let bouts = hand.iter().filter(|&&c| is_bout(c)).count() as i64;
                let kings = hand.iter().filter(|&&c| is_king(c)).count() as i64;
                let queens = hand.iter().filter(|&&c| suit_value(c) == Some(QUEEN)).count() as i64;
                let raw = 2 * trumps + 6 * bouts + 3 * kings + queens;
                let strength = raw * 18 / hand.len() as i64 + (seed % 9) as i64 - 4;
                let nobody_bid = deal.highest_bid().is_none();
                let wanted = match strength {
                    s if s >= 48 => Some(Contract::AgainstDog),
                    s if s >= 40 => Some(Contract::WithoutDog),
                    s if s >= 30 => Some(Contract::Big),
                    s if s >= 22 => Some(Contract::Small),
                    // The last to speak often takes a small game rather than see a redeal.
                    _ if nobody_bid && deal.auction.is_last(seat) && seed.is_multiple_of(2) => Some(Contract::Small),
                    _ => None,
                };
                Some(match wanted {
                    Some(c) if deal.highest_bid().is_none_or(|h| c > h) => Command::Bid { contract: c },
                    _ => Command::Pass,
                })
            }
            Phase::Calling => {
                // Call a card held by somebody else, when there is one.
                let value = callable_value(hand);
                let others: Vec<Suit> =
                    Suit::ALL.into_iter().filter(|&s| !hand.contains(&suit_card(s, value))).collect();
                let choice = if others.is_empty() { Suit::ALL[pick(4)] } else { others[pick(others.len())] };
                Some(Command::Call { suit: choice })
            }
            Phase::Discarding => {
                let legal: Vec<Card> =
                    hand.iter().copied().filter(|&card| self.decide_discard(deal, seat, card).is_ok()).collect();
                let cheapest = legal.iter().map(|&c| half_points(c)).min()?;
                let cheap: Vec<Card> = legal.into_iter().filter(|&c| half_points(c) == cheapest).collect();
                Some(Command::Discard { card: cheap[pick(cheap.len())] })
            }
            Phase::Slam => {
                let trumps = hand.iter().filter(|&&c| is_trump(c) || c == EXCUSE).count();
                let announce = trumps + 2 >= hand.len() || seed.is_multiple_of(97);
                Some(if announce { Command::AnnounceSlam } else { Command::DeclineSlam })
            }
            Phase::Playing => {
                if !deal.has_played(seat) {
                    if state.options.trost && self.decide_trost(state, deal, seat).is_ok() {
                        return Some(Command::DeclareTrost);
                    }
                    // Most often show the biggest poignée the hand reaches; sometimes keep it hidden.
                    let level = Poignee::ALL.into_iter().rev().find(|&l| poignee_show(hand, players, l).is_some());
                    if let (true, None, Some(level), true) =
                        (state.options.poignee, &deal.poignees[seat], level, !seed.is_multiple_of(4))
                    {
                        return Some(Command::DeclarePoignee { level });
                    }
                }
                let cards = self.legal_cards(state, deal, seat);
                (!cards.is_empty()).then(|| Command::Play { card: cards[pick(cards.len())] })
            }
            Phase::Dog | Phase::Over => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards, is_permutation};
    use crate::game::{check_turn, erase};
    use crate::simulate::{random_matches, Driver, Plan};

    /// Cards a test leaves unnamed are dealt in this order: small suit cards first, the bouts
    /// last, so that a filled-up hand rarely holds anything that matters.
    fn filler() -> Vec<Card> {
        let mut out: Vec<Card> = (1..=10).flat_map(|v| Suit::ALL.into_iter().map(move |s| suit_card(s, v))).collect();
        out.extend((2..=20).map(Card::Trump));
        out.extend(
            [JACK, KNIGHT, QUEEN, KING].into_iter().flat_map(|v| Suit::ALL.into_iter().map(move |s| suit_card(s, v))),
        );
        out.extend([PETIT, TWENTY_ONE, EXCUSE]);
        out
    }

    /// A deck that deals `hands` (by seat; a hand may list fewer cards than it gets, the rest
    /// coming from [`filler`]) and `dog`, with `dealer` dealing.
    fn deck_for(players: usize, dealer: Seat, hands: &[&str], dog: &str) -> Vec<Card> {
        let l = layout(players);
        let mut hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
        hands.resize(players, Vec::new());
        let mut dog = cards(dog);
        let named: Vec<Card> = hands.iter().flatten().chain(&dog).copied().collect();
        let mut fill = filler().into_iter().filter(|c| !named.contains(c));
        for h in &mut hands {
            while h.len() < l.hand {
                h.push(fill.next().expect("enough cards"));
            }
        }
        while dog.len() < l.dog {
            dog.push(fill.next().expect("enough cards"));
        }
        assert!(fill.next().is_none(), "every card is dealt");
        let mut next = vec![0; players];
        let mut d = 0;
        let deck: Vec<Card> = deal_plan(&Table::counter_clockwise(players), dealer)
            .into_iter()
            .map(|to| match to {
                Some(s) => {
                    next[s] += 1;
                    hands[s][next[s] - 1]
                }
                None => {
                    d += 1;
                    dog[d - 1]
                }
            })
            .collect();
        assert!(is_permutation(&deck, &decks::tarot78()), "the hands and the dog are the pack");
        deck
    }

    type Game = Driver<Tarot>;

    impl Game {
        fn play(&mut self, seat: Seat, code: &str) -> Vec<Event> {
            self.ok(seat, play(code))
        }

        fn d(&self) -> &Deal {
            self.state.deal.as_ref().unwrap()
        }

        fn view(&self, viewer: Viewer) -> Value {
            Tarot.view(&self.state, viewer)
        }

        fn legal_cards(&self, seat: Seat) -> Vec<Card> {
            Tarot
                .legal_moves(&self.state, seat)
                .into_iter()
                .filter_map(|m| match m {
                    Command::Play { card } => Some(card),
                    _ => None,
                })
                .collect()
        }

        /// Bids in order: `taker` bids `contract`, everyone else passes.
        fn take(&mut self, taker: Seat, contract: Contract) -> Vec<Event> {
            let mut events = Vec::new();
            for seat in self.d().auction.order.clone() {
                let c = if seat == taker { Command::Bid { contract } } else { Command::Pass };
                events.extend(self.ok(seat, c));
            }
            events
        }

        /// Discards the first legal cards and declines the slam, up to the first card of play.
        fn up_to_play(&mut self) {
            while matches!(self.d().phase, Phase::Discarding | Phase::Slam) {
                let seat = self.to_act()[0];
                let m = match self.d().phase {
                    Phase::Slam => Command::DeclineSlam,
                    _ => Tarot.legal_moves(&self.state, seat)[0].clone(),
                };
                self.ok(seat, m);
            }
        }

        /// Plays the deal out, each seat playing its first legal card (the Excuse, sorted last,
        /// is kept to the end when it can be). Not the driver's `finish_deal`: Tarot's first
        /// legal move may announce a slam or a poignée, which would change what the tests count.
        fn play_out(&mut self) -> Vec<Event> {
            let mut events = Vec::new();
            self.up_to_play();
            while self.d().phase == Phase::Playing {
                let seat = self.to_act()[0];
                let card = self.legal_cards(seat)[0];
                events.extend(self.ok(seat, Command::Play { card }));
            }
            events
        }

        fn result(&self) -> (Count, Scoring) {
            self.d().result.clone().expect("the deal was scored")
        }
    }

    fn play(code: &str) -> Command {
        Command::Play { card: card(code) }
    }

    fn discard(code: &str) -> Command {
        Command::Discard { card: card(code) }
    }

    fn bid(contract: Contract) -> Command {
        Command::Bid { contract }
    }

    fn no_slam() -> Options {
        Options { slam: false, ..Default::default() }
    }

    // -----------------------------------------------------------------------------------------
    // The cards

    #[test]
    fn the_pack_holds_91_points_three_bouts_and_the_text_counts_in_pairs() {
        let pack = decks::tarot78();
        assert_eq!(half_points_of(&pack), TOTAL_HALF_POINTS);
        assert_eq!(points_text(TOTAL_HALF_POINTS), "91");
        assert_eq!(pack.iter().filter(|&&c| is_bout(c)).collect::<Vec<_>>(), [&PETIT, &TWENTY_ONE, &EXCUSE]);
        // 4.5, 3.5, 2.5, 1.5 and 0.5: with a half-point card, the text's 5, 4, 3 and 2.
        for (code, half) in [
            ("T1", 9),
            ("T21", 9),
            ("EX", 9),
            ("KH", 9),
            ("QS", 7),
            ("CD", 5),
            ("JC", 3),
            ("TH", 1),
            ("1S", 1),
            ("T2", 1),
            ("T20", 1),
        ] {
            assert_eq!(half_points(card(code)), half, "{code}");
        }
        assert_eq!(pack.iter().filter(|&&c| is_court(c)).count(), 16);
        assert_eq!(pack.iter().filter(|&&c| is_trump(c)).count(), 21);
        assert_eq!((0..78).collect::<Vec<_>>(), pack.iter().map(|&c| index78(c).unwrap()).collect::<Vec<_>>());
        assert_eq!(index78(card("AH")), None, "the tarot has no ace");
        assert_eq!(points_text(101), "50.5");
    }

    #[test]
    fn suits_rank_king_queen_knight_jack_then_ten_down_to_one() {
        let t = |codes: &str| -> Vec<(Seat, Card)> { cards(codes).into_iter().enumerate().collect() };
        assert_eq!(trick_winner(&t("QH KH CH JH")), (1, card("KH"), WinReason::HighestOfSuitLed));
        assert_eq!(trick_winner(&t("CH JH TH 1H")), (0, card("CH"), WinReason::HighestOfSuitLed));
        assert_eq!(trick_winner(&t("1H 2H KS QD")), (1, card("2H"), WinReason::HighestOfSuitLed));
        assert_eq!(trick_winner(&t("KH T1 QH T2")), (3, card("T2"), WinReason::HighestTrump));
        assert_eq!(trick_winner(&t("T20 T21 EX")), (1, card("T21"), WinReason::HighestTrump));
        // The Excuse never wins: led, the next card sets the suit.
        assert_eq!(trick_winner(&t("EX 3D KD 2S")), (2, card("KD"), WinReason::HighestOfSuitLed));
        assert_eq!(led_of(&t("EX 3D")), Some(Led::Diamonds));
        assert_eq!(led_of(&t("EX")), None);
    }

    #[test]
    fn targets_depend_on_the_bouts() {
        assert_eq!((0..=3).map(target).collect::<Vec<_>>(), [56, 51, 41, 36]);
    }

    // -----------------------------------------------------------------------------------------
    // Dealing

    #[test]
    fn deals_go_in_packets_counter_clockwise_with_the_dog_laid_singly() {
        for (players, hand, packet, dog, after) in [
            (3, 24, 4, 6, vec![2, 5, 7, 10, 12, 15]),
            (4, 18, 3, 6, vec![3, 6, 10, 13, 17, 20]),
            (5, 15, 3, 3, vec![6, 12, 18]),
        ] {
            assert_eq!(layout(players), Layout { hand, packet, dog });
            let table = Table::counter_clockwise(players);
            let plan = deal_plan(&table, 0);
            assert_eq!(plan.len(), 78);
            assert!(plan[0].is_some() && plan[77].is_some(), "the dog gets neither the first nor the last card");
            // The dealer's right (seat players-1) gets the first packet, then on counter-clockwise.
            assert_eq!(&plan[..packet], vec![Some(players - 1); packet].as_slice());
            assert_eq!(plan[packet], Some(players - 2));
            for s in 0..players {
                assert_eq!(plan.iter().filter(|&&p| p == Some(s)).count(), hand);
            }
            // A dog card after packets 3, 6, ... as the house rule says.
            let mut packets_before = Vec::new();
            let mut seen = 0;
            for p in &plan {
                match p {
                    Some(_) => seen += 1,
                    None => packets_before.push(seen / packet),
                }
            }
            assert_eq!(packets_before, after, "{players} players");

            let mut g = Game::new(players, Options::default());
            let deck = deck_for(players, 0, &[], "");
            let events = g.deal(deck.clone());
            let Event::DealStarted { dealer, hands, dog: d, dog_positions, bidding_order, .. } = &events[0] else {
                panic!()
            };
            assert_eq!(*dealer, 0);
            assert_eq!(dog_positions.iter().map(|&i| deck[i]).collect::<Vec<_>>(), *d);
            assert!(hands[players - 1].contains(&deck[0]));
            assert_eq!(bidding_order, &table.order_from(players - 1));
            assert_eq!(g.to_act(), [players - 1]);
        }
    }

    #[test]
    fn the_deal_passes_to_the_right() {
        let mut g = Game::new(4, Options::default());
        assert_eq!(g.try_deal(decks::standard52()).unwrap_err().rule, core::DECK);
        let mut short = decks::tarot78();
        short.pop();
        assert_eq!(g.try_deal(short).unwrap_err().rule, core::DECK);
        g.deal(deck_for(4, 0, &[], ""));
        g.take(3, Contract::Big);
        g.play_out();
        assert_eq!(g.state.next_dealer, 3);
        g.deal(deck_for(4, 3, &[], ""));
        assert_eq!(g.d().dealer, 3);
        assert_eq!(g.to_act(), [2], "the bidding starts at the new dealer's right");
        assert_eq!(g.d().trick.leader, 2);
    }

    #[test]
    fn a_petit_sec_is_shown_and_the_deal_is_void() {
        // Seat 2's only trump is the Petit, without the Excuse.
        let hands = [
            "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 EX",
            "T19 T20 T21",
            "T1 1C 2C 3C 4C 5C 6C 7C 8C 9C TC JC CC QC KC 1D 2D 3D",
        ];
        let mut g = Game::new(4, Options::default());
        let events = g.deal(deck_for(4, 0, &hands, ""));
        let Event::DealCancelled { reason, shown, next_dealer } = &events[1] else { panic!("{events:?}") };
        assert_eq!(*reason, CancelReason::PetitSec);
        assert_eq!(shown.len(), 1);
        assert_eq!(shown[0].seat, 2);
        assert_eq!(shown[0].hand, g.d().dealt[2]);
        assert_eq!(*next_dealer, 3);
        assert_eq!(g.d().phase, Phase::Over);
        assert!(matches!(Tarot.status(&g.state), Status::NeedsDeck { .. }));
        assert_eq!(g.refusal_served(3, Command::Pass).rule, core::PHASE);
        // The void deal does not count; the next dealer deals.
        assert_eq!((g.state.deals_started, g.state.deals_played, g.state.next_dealer), (1, 0, 3));
        assert!(Tarot.secrets(&g.state).is_empty(), "a void deal's record is open");
        let events = g.deal(deck_for(4, 3, &[], ""));
        assert!(matches!(events[0], Event::DealStarted { deal_number: 2, dealer: 3, deals_played: 0, .. }));

        // The Petit with the Excuse, or with another trump, is not sec.
        assert!(!is_petit_sec(&cards("T1 EX 2C")));
        assert!(!is_petit_sec(&cards("T1 T2 2C")));
        assert!(is_petit_sec(&cards("T1 2C 3C")));
        assert!(!is_petit_sec(&cards("2C 3C")));
    }

    // -----------------------------------------------------------------------------------------
    // Bidding

    #[test]
    fn bidding_goes_round_once_from_the_dealers_right_and_each_bid_beats_the_last() {
        let mut g = Game::new(4, Options::default());
        g.deal(deck_for(4, 0, &[], ""));
        assert_eq!(g.d().auction.order, [3, 2, 1, 0]);
        assert_eq!(g.refused(2, Command::Pass).rule, core::TURN);
        assert_eq!(Tarot.legal_moves(&g.state, 3).len(), 5);
        g.ok(3, bid(Contract::Big));
        let err = g.refused(2, bid(Contract::Small));
        assert_eq!(err.rule, rule::BID_HIGHER);
        assert!(err.explanation.en.contains("You bid a small game but a big game has already been bid"));
        assert_eq!(g.refused(2, bid(Contract::Big)).rule, rule::BID_HIGHER);
        assert_eq!(
            Tarot.legal_moves(&g.state, 2),
            [bid(Contract::WithoutDog), bid(Contract::AgainstDog), Command::Pass]
        );
        g.ok(2, Command::Pass);
        g.ok(1, bid(Contract::WithoutDog));
        let events = g.ok(0, Command::Pass);
        // One round only: the highest bidder takes; nobody bids again.
        assert!(events.contains(&Event::ContractWon { taker: 1, contract: Contract::WithoutDog }));
        assert_eq!(g.d().taker, Some(1));
        assert_eq!(g.to_act(), [1], "the taker may announce a slam");
        assert_eq!(g.refused(3, bid(Contract::AgainstDog)).rule, core::PHASE);
        assert_eq!(g.refused(1, bid(Contract::AgainstDog)).rule, core::PHASE);
        let view = g.view(Viewer::Spectator);
        assert_eq!(view["bids"], json!(["pass", "without_dog", "pass", "big"]));
        assert_eq!(view["multiplier"], 4);
    }

    #[test]
    fn when_everybody_passes_the_next_dealer_deals_again() {
        let mut g = Game::new(3, Options::default());
        g.deal(deck_for(3, 0, &[], ""));
        let some_card = g.d().hands[2][0].to_string();
        assert_eq!(g.refused(2, play(&some_card)).rule, core::PHASE);
        g.ok(2, Command::Pass);
        g.ok(1, Command::Pass);
        let events = g.ok(0, Command::Pass);
        assert_eq!(
            events[1],
            Event::DealCancelled { reason: CancelReason::AllPassed, shown: vec![], next_dealer: 2 }
        );
        assert_eq!(g.d().cancelled, Some(CancelReason::AllPassed));
        assert!(matches!(Tarot.status(&g.state), Status::NeedsDeck { .. }));
        assert_eq!(g.state.deals_played, 0);
        g.deal(deck_for(3, 2, &[], ""));
        assert_eq!((g.d().dealer, g.d().number), (2, 2));
        assert_eq!(Tarot.deal_number(&g.state), 2);
    }

    // -----------------------------------------------------------------------------------------
    // The dog

    /// Four players, seat 3 to take: all four kings, the three bouts and eleven trumps, so that
    /// after the dog only four cards may be discarded besides trumps.
    fn strong_taker() -> Vec<Card> {
        deck_for(
            4,
            0,
            &["", "", "", "KC KD KH KS T1 T21 EX T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12"],
            "2C 3C 4C 5C T13 T14",
        )
    }

    #[test]
    fn small_and_big_games_show_the_dog_and_the_taker_discards_as_many() {
        let mut g = Game::new(4, Options::default());
        g.deal(strong_taker());
        assert_eq!(g.view(Viewer::Seat(3))["dog"], Value::Null, "the dog is face down during the bidding");
        let events = g.take(3, Contract::Small);
        assert!(events.contains(&Event::DogShown { cards: cards("2C 3C 4C 5C T13 T14"), taker_alone: false }));
        assert_eq!(g.d().hands[3].len(), 24);
        for viewer in [Viewer::Seat(0), Viewer::Spectator] {
            assert_eq!(g.view(viewer)["dog"], json!(cards("2C 3C 4C 5C T13 T14")), "the dog is shown to all");
        }
        assert_eq!(g.d().phase, Phase::Discarding);
        assert_eq!(g.to_act(), [3]);
        assert_eq!(g.refused(2, discard("2D")).rule, core::TURN);
        assert_eq!(g.refused(3, discard("2D")).rule, core::CARD_NOT_HELD);
        assert_eq!(g.refused(3, play("2C")).rule, core::PHASE);
        for code in ["2C", "3C", "4C", "5C"] {
            g.ok(3, discard(code));
        }
        assert_eq!(g.view(Viewer::Seat(3))["discards"], json!(cards("2C 3C 4C 5C")));
        assert_eq!(g.view(Viewer::Seat(0))["discards"], Value::Null);
        assert_eq!(g.view(Viewer::Seat(0))["discard_count"], 4);
        g.ok(3, discard("T2"));
        g.ok(3, discard("T3"));
        assert_eq!(g.d().hands[3].len(), 18);
        assert_eq!(g.d().phase, Phase::Slam);
    }

    #[test]
    fn kings_and_bouts_are_never_discarded() {
        let mut g = Game::new(4, Options::default());
        g.deal(strong_taker());
        g.take(3, Contract::Big);
        for code in ["KC", "KH", "T1", "T21", "EX"] {
            let err = g.refused(3, discard(code));
            assert_eq!(err.rule, rule::NO_KINGS_OR_BOUTS, "{code}");
        }
        assert!(g.refused(3, discard("KS")).explanation.en.contains("kings and bouts"));
    }

    #[test]
    fn trumps_are_discarded_only_when_forced_and_then_shown() {
        let mut g = Game::new(4, Options::default());
        g.deal(strong_taker());
        g.take(3, Contract::Small);
        // Four plain cards for six discards: trumps are allowed from the start.
        let legal = Tarot.legal_moves(&g.state, 3);
        assert!(legal.contains(&discard("T2")) && legal.contains(&discard("2C")));
        assert!(!legal.contains(&discard("KC")) && !legal.contains(&discard("T21")));
        let events = g.ok(3, discard("T2"));
        assert_eq!(events, [Event::Discarded { seat: 3, card: card("T2"), shown: true }]);
        g.ok(3, discard("T3"));
        // Four plain cards left for four discards: no more trumps.
        let err = g.refused(3, discard("T4"));
        assert_eq!(err.rule, rule::TRUMPS_IF_FORCED);
        assert!(err.explanation.en.contains("still hold 4 other cards"));
        let events = g.ok(3, discard("2C"));
        // The others see a discard happened, and the trumps, never a plain discard.
        let seen = Tarot.redact(&g.state, &events[0], Viewer::Seat(1), false);
        assert_eq!(seen, json!({"type": "discarded", "seat": 3, "card": null, "shown": false}));
        assert_eq!(Tarot.redact(&g.state, &events[0], Viewer::Seat(3), false)["card"], "2C");
        assert_eq!(g.view(Viewer::Seat(1))["discarded_trumps"], json!(["T2", "T3"]));
        // The shown trumps are public; the plain discard is the taker's secret, though its face
        // was seen in the dog, so it is not in `secrets` (the view hides where it went).
        assert!(Tarot.secrets(&g.state).iter().all(|(c, _)| !cards("T2 T3 2C").contains(c)));
    }

    #[test]
    fn a_discard_from_the_hand_stays_the_takers_secret() {
        let mut g = Game::new(4, Options::default());
        g.deal(deck_for(4, 0, &["", "", "", "KC KD KH KS T1 T21 EX 6C 7C 8C"], "2C 3C 4C 5C T13 T14"));
        g.take(3, Contract::Small);
        g.ok(3, discard("6C"));
        let secrets = Tarot.secrets(&g.state);
        assert!(secrets.contains(&(card("6C"), vec![3])), "only the taker knows a discard from the hand");
    }

    #[test]
    fn without_the_dog_nobody_sees_it_and_it_counts_for_the_taker() {
        let mut g = Game::new(4, Options::default());
        g.deal(strong_taker());
        let events = g.take(3, Contract::WithoutDog);
        assert_eq!(events.last(), Some(&Event::DogSetAside { contract: Contract::WithoutDog, to: Side::Taker }));
        assert_eq!(g.d().hands[3].len(), 18);
        for viewer in [Viewer::Seat(3), Viewer::Seat(0), Viewer::Spectator] {
            assert_eq!(g.view(viewer)["dog"], Value::Null, "{viewer:?}");
        }
        let dog = g.d().dog.clone();
        for c in &dog {
            assert!(Tarot.secrets(&g.state).contains(&(*c, vec![])), "{c} is known to nobody");
        }
        assert_eq!(g.d().phase, Phase::Slam);
        g.play_out();
        let (count, _) = g.result();
        assert_eq!(count.dog_to, Side::Taker);
        assert_eq!(count.dog, dog);
        assert!(Tarot.secrets(&g.state).is_empty());
        assert_eq!(g.view(Viewer::Seat(0))["dog"], json!(dog), "shown once the deal is over");
        assert!(count.taker_half_points >= half_points_of(&dog));
        assert_eq!(count.taker_half_points + count.defence_half_points, 182);
    }

    #[test]
    fn against_the_dog_it_counts_for_the_defence() {
        let mut g = Game::new(4, no_slam());
        g.deal(strong_taker());
        let events = g.take(3, Contract::AgainstDog);
        assert_eq!(events.last(), Some(&Event::DogSetAside { contract: Contract::AgainstDog, to: Side::Defence }));
        assert_eq!(g.d().phase, Phase::Playing, "without the slam option play starts at once");
        g.play_out();
        let (count, scoring) = g.result();
        assert_eq!(count.dog_to, Side::Defence);
        // The taker took no trick with the dog's cards, which count for the defence.
        let dog = cards("2C 3C 4C 5C T13 T14");
        assert!(count.defence_half_points >= half_points_of(&dog));
        assert_eq!(count.taker_half_points + count.defence_half_points, 182);
        assert_eq!(scoring.multiplier, 6);
    }

    // -----------------------------------------------------------------------------------------
    // Trick play

    /// Four players, dealer 0. Seat 3 (no court card) holds ten hearts, seat 2 four hearts and
    /// the clubs, seat 1 the diamonds and seat 0 the spades; trumps are spread; the dog holds
    /// the Petit, the 21 and four more trumps.
    const PLAY_HANDS: [&str; 4] = [
        "3S 4S 5S 6S 7S 8S 9S TS JS CS QS KS T4 T5 T8 T15 T16 T17",
        "4D 5D 6D 7D 8D 9D TD JD CD QD KD T10 T11 T12 T13 T14 1S 2S",
        "JH CH QH KH 3C 4C 5C 6C 7C 8C 9C TC JC CC QC KC T6 T7",
        "1H 2H 3H 4H 5H 6H 7H 8H 9H TH 1C 2C T2 T3 EX 1D 2D 3D",
    ];
    const PLAY_DOG: &str = "T1 T9 T18 T19 T20 T21";

    /// Seat 3 plays without the dog and leads to the first trick.
    fn play_game(options: Options) -> Game {
        let mut g = Game::new(4, options);
        g.deal(deck_for(4, 0, &PLAY_HANDS, PLAY_DOG));
        g.take(3, Contract::WithoutDog);
        g.up_to_play();
        assert_eq!(g.to_act(), [3]);
        g
    }

    #[test]
    fn follow_suit_else_trump_else_overtrump() {
        let mut g = play_game(Options::default());
        g.play(3, "5H");
        // Seat 2 holds hearts.
        let err = g.refused(2, play("3C"));
        assert_eq!(err.rule, rule::FOLLOW_SUIT);
        assert!(err.explanation.en.contains("You played 3C but hold hearts"));
        assert!(!err.explanation.en.contains("JH"), "the explanation names no hidden card");
        assert_eq!(g.legal_cards(2), cards("JH CH QH KH"), "no duty to win the trick in a suit");
        g.play(2, "JH");
        // Seat 1 has no hearts but trumps: it must trump.
        let err = g.refused(1, play("4D"));
        assert_eq!(err.rule, rule::MUST_TRUMP);
        assert_eq!(g.legal_cards(1), cards("T10 T11 T12 T13 T14"));
        g.play(1, "T12");
        // Seat 0 must go over T12 with T15, T16 or T17.
        let err = g.refused(0, play("T5"));
        assert_eq!(err.rule, rule::OVERTRUMP);
        assert!(err.explanation.en.contains("You played T5 under T12"));
        assert_eq!(g.refused(0, play("3S")).rule, rule::MUST_TRUMP);
        assert_eq!(g.legal_cards(0), cards("T15 T16 T17"));
        let events = g.play(0, "T15");
        assert!(events.contains(&Event::TrickWon {
            trick_number: 1,
            winner: 0,
            card: card("T15"),
            reason: WinReason::HighestTrump,
            plays: vec![
                Play { seat: 3, card: card("5H") },
                Play { seat: 2, card: card("JH") },
                Play { seat: 1, card: card("T12") },
                Play { seat: 0, card: card("T15") },
            ],
            excuse_to: None,
            half_points: 1 + 3 + 1 + 1,
        }));
        assert_eq!(g.to_act(), [0], "the winner leads");
    }

    #[test]
    fn trumps_led_must_be_beaten_when_possible_and_the_excuse_goes_anywhere() {
        let mut g = play_game(Options::default());
        for (seat, code) in [(3, "5H"), (2, "JH"), (1, "T12"), (0, "T15")] {
            g.play(seat, code);
        }
        g.play(0, "T4");
        // Seat 3 cannot beat T4 (T2, T3): any trump, or the Excuse.
        assert_eq!(g.legal_cards(3), cards("T2 T3 EX"));
        assert_eq!(g.refused(3, play("1H")).rule, rule::FOLLOW_SUIT);
        g.play(3, "EX");
        // Seat 2 must beat T4.
        assert_eq!(g.legal_cards(2), cards("T6 T7"));
        g.play(2, "T6");
        assert_eq!(g.refused(1, play("4D")).rule, rule::FOLLOW_SUIT);
        assert_eq!(g.legal_cards(1), cards("T10 T11 T13 T14"));
        let events = g.play(1, "T10");
        let Some(Event::TrickWon { winner, excuse_to, half_points, .. }) = events.last() else { panic!() };
        // The Excuse did not win; it goes back to seat 3's pile.
        assert_eq!((*winner, *excuse_to, *half_points), (1, Some(3), 12));
        assert!(g.d().won[3].contains(&EXCUSE));
        assert!(!g.d().won[1].contains(&EXCUSE));

        // Diamonds: seat 0 trumps; seat 3 follows; seat 2, with only a lower trump, plays it.
        g.play(1, "4D");
        assert_eq!(g.legal_cards(0), cards("T5 T8 T16 T17"), "no trump yet: any trump");
        g.play(0, "T8");
        assert_eq!(g.legal_cards(3), cards("1D 2D 3D"));
        g.play(3, "1D");
        assert_eq!(g.legal_cards(2), cards("T7"), "a lower trump when it cannot overtrump");
        g.play(2, "T7");
        assert_eq!(g.to_act(), [0]);
        // Spades: seat 3 must trump; seat 2, with neither spades nor trumps, plays anything.
        g.play(0, "5S");
        assert_eq!(g.legal_cards(3), cards("T2 T3"));
        g.play(3, "T2");
        assert_eq!(g.legal_cards(2).len(), g.d().hands[2].len());
        g.play(2, "KH");
        assert_eq!(g.legal_cards(1), cards("1S 2S"));
        let events = g.play(1, "1S");
        assert!(matches!(events.last(), Some(Event::TrickWon { winner: 3, reason: WinReason::HighestTrump, .. })));
    }

    #[test]
    fn a_led_excuse_lets_the_next_card_set_the_suit() {
        let mut g = play_game(Options::default());
        g.play(3, "EX");
        assert_eq!(g.view(Viewer::Spectator)["trick"]["led"], Value::Null);
        assert_eq!(g.legal_cards(2).len(), 18, "anything after a led Excuse");
        g.play(2, "3C");
        assert_eq!(g.view(Viewer::Spectator)["trick"]["led"], "clubs");
        // Seat 1 has no clubs: it must trump.
        assert_eq!(g.refused(1, play("4D")).rule, rule::MUST_TRUMP);
        g.play(1, "T10");
        g.play(0, "T15");
        assert_eq!(g.d().tricks[0].winner, 0);
        assert_eq!(g.d().tricks[0].excuse_to, Some(3));
    }

    #[test]
    fn the_excuse_is_exchanged_for_a_half_point_at_the_count() {
        let mut g = play_game(Options::default());
        for (seat, code) in [(3, "5H"), (2, "JH"), (1, "T12"), (0, "T15"), (0, "T4"), (3, "EX"), (2, "T6"), (1, "T10")]
        {
            g.play(seat, code);
        }
        g.play_out();
        let (count, _) = g.result();
        let fate = count.excuse.clone().unwrap();
        // Seat 3 (taker) played it to a trick seat 1 won: the taker keeps it and gives a half point.
        assert_eq!(
            fate,
            ExcuseFate {
                played_by: 3,
                trick_number: 2,
                counted_for: Side::Taker,
                half_point_to: Some(Side::Defence),
                rule: rule::EXCUSE_KEPT.into()
            }
        );
        let taker_cards: u32 = g.d().won[3].iter().map(|&c| half_points(c)).sum::<u32>() + half_points_of(&g.d().dog);
        assert_eq!(count.taker_half_points, taker_cards - 1);
        assert_eq!(count.taker_half_points + count.defence_half_points, 182);
        assert!(count.bouts >= 1, "the Excuse is a bout of the taker's");
    }

    #[test]
    fn the_excuse_in_the_last_trick_goes_to_the_side_that_takes_it() {
        // The first legal card is always played, and the Excuse sorts last: it waits for the
        // last trick.
        let mut g = play_game(Options::default());
        g.play_out();
        let last = g.d().tricks.last().unwrap().clone();
        assert!(last.contains(EXCUSE));
        assert_eq!(last.excuse_to, None);
        let (count, _) = g.result();
        let fate = count.excuse.clone().unwrap();
        assert_eq!(fate.rule, rule::EXCUSE_LAST_TRICK);
        assert_eq!(fate.counted_for, g.d().side_of(last.winner));
        assert_eq!(fate.half_point_to, None);
        assert_eq!(count.taker_half_points + count.defence_half_points, 182);
    }

    // -----------------------------------------------------------------------------------------
    // Five players: the called king

    /// Five players, dealer 0, seat 1 to take: ten top trumps, the Excuse, three kings and QH.
    /// The king of hearts is with seat 2 (or seat 3, swapped with the 2 of hearts); seat 4,
    /// to lead, holds two small hearts.
    fn five_hands(partner: Seat) -> Vec<Card> {
        let (mut s2, mut s3) = (
            "KH 6H 7H 1S 2S 3S 4S 5S 6S 7S 8S 9S T9 T10 T11".to_string(),
            "2H 4H 5H 1D 2D 3D 4D 5D 6D 7D 8D 9D T6 T7 T8".to_string(),
        );
        if partner == 3 {
            s2 = s2.replace("KH", "2H");
            s3 = s3.replace("2H", "KH");
        }
        deck_for(
            5,
            0,
            &[
                "8H 9H TH JH CH TC JC CC QC TD JD CD QD T1 T2",
                "T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 EX KC KD KS QH",
                &s2,
                &s3,
                "1H 3H 1C 2C 3C 4C 5C 6C 7C 8C 9C T3 T4 T5 QS",
            ],
            "TS JS CS",
        )
    }

    /// Seat 1 takes a big game and calls hearts; the dog is discarded again; no slam.
    fn five_player_game(partner: Seat) -> Game {
        let mut g = Game::new(5, Options::default());
        g.deal(five_hands(partner));
        g.take(1, Contract::Big);
        g
    }

    #[test]
    fn with_five_players_the_taker_calls_a_king_and_the_rank_follows_the_hand() {
        assert_eq!(callable_value(&cards("KC KD KH 2S")), KING);
        assert_eq!(callable_value(&cards("KC KD KH KS")), QUEEN);
        assert_eq!(callable_value(&cards("KC KD KH KS QC QD QH QS")), KNIGHT);
        assert_eq!(callable_value(&cards("KC KD KH KS QC QD QH QS CC CD CH CS")), JACK);

        let mut g = five_player_game(2);
        assert_eq!(g.d().phase, Phase::Calling);
        assert_eq!(g.to_act(), [1]);
        assert!(g.view(Viewer::Seat(1))["dog"].is_null(), "the dog is turned after the call");
        assert_eq!(g.refused(2, Command::Call { suit: Suit::Hearts }).rule, core::TURN);
        assert_eq!(g.refused(1, discard("QH")).rule, core::PHASE);
        assert_eq!(Tarot.legal_moves(&g.state, 1).len(), 4);
        let events = g.ok(1, Command::Call { suit: Suit::Hearts });
        assert_eq!(events[0], Event::CardCalled { taker: 1, card: card("KH") });
        assert_eq!(events[1], Event::DogShown { cards: cards("TS JS CS"), taker_alone: false });
        assert_eq!(g.d().partner, Some(2));
        assert_eq!(g.view(Viewer::Spectator)["called_card"], "KH");
    }

    #[test]
    fn a_taker_with_all_four_kings_calls_a_queen() {
        let mut g = Game::new(5, Options::default());
        g.deal(deck_for(5, 0, &["", "KC KD KH KS T20 T21"], ""));
        g.take(1, Contract::Small);
        let events = g.ok(1, Command::Call { suit: Suit::Spades });
        assert_eq!(events[0], Event::CardCalled { taker: 1, card: card("QS") });
    }

    /// Plays, in both versions of the deal, the first legal card that is neither the king nor
    /// the 2 of hearts, comparing everything the taker, the other defenders and a spectator
    /// can see; stops when a seat would have to play one of the two.
    #[test]
    fn the_called_partner_is_revealed_by_nothing_before_the_card_is_played() {
        let mut a = five_player_game(2);
        let mut b = five_player_game(3);
        let outsiders = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Seat(4), Viewer::Spectator];
        let compare = |a: &Game, b: &Game, step: &str| {
            assert_eq!(Tarot.status(&a.state), Tarot.status(&b.state), "{step}: whose turn");
            for viewer in outsiders {
                assert_eq!(a.view(viewer), b.view(viewer), "{step}: view of {viewer:?}");
                if let Viewer::Seat(s) = viewer {
                    assert_eq!(Tarot.legal_moves(&a.state, s), Tarot.legal_moves(&b.state, s), "{step}: moves of {s}");
                    for c in Tarot.move_space(&a.state, s) {
                        let decide = |g: &Game| check_turn(&Tarot.status(&g.state), s).and_then(|_| Tarot.decide(&g.state, s, &c));
                        let (ra, rb) = (decide(a), decide(b));
                        assert_eq!(ra.is_ok(), rb.is_ok(), "{step}: {c:?} by {s}");
                        if let (Err(x), Err(y)) = (ra, rb) {
                            assert_eq!(x, y, "{step}: refusal of {c:?} to {s}");
                        }
                    }
                }
                for (ea, eb) in a.log.iter().zip(&b.log).skip(1) {
                    assert_eq!(
                        Tarot.redact(&a.state, ea, viewer, false),
                        Tarot.redact(&b.state, eb, viewer, false),
                        "{step}"
                    );
                }
            }
        };
        // The first event differs only in the hands of seats 2 and 3, which nobody else sees.
        for viewer in outsiders {
            assert_eq!(
                Tarot.redact(&a.state, &a.log[0], viewer, false)["hands"],
                Tarot.redact(&b.state, &b.log[0], viewer, false)["hands"]
            );
        }
        compare(&a, &b, "after the bidding");
        for g in [&mut a, &mut b] {
            g.ok(1, Command::Call { suit: Suit::Hearts });
        }
        compare(&a, &b, "after the call");
        assert_eq!(a.view(Viewer::Seat(2))["partner"], 2, "the partner knows");
        assert_eq!(b.view(Viewer::Seat(3))["partner"], 3);
        assert_eq!(a.view(Viewer::Seat(3))["partner"], Value::Null);
        assert_eq!(a.view(Viewer::Seat(1))["taker_alone"], Value::Null);
        let mut steps = 0;
        loop {
            let seat = a.to_act()[0];
            let pick = |g: &Game| {
                Tarot.legal_moves(&g.state, seat).into_iter().find(|m| match m {
                    Command::Discard { card: c } | Command::Play { card: c } => {
                        *c != card_kh() && *c != card("2H")
                    }
                    Command::DeclineSlam => true,
                    _ => false,
                })
            };
            let (Some(ma), Some(mb)) = (pick(&a), pick(&b)) else { break };
            assert_eq!(ma, mb);
            a.ok(seat, ma.clone());
            b.ok(seat, mb);
            compare(&a, &b, &format!("after {ma:?} by seat {seat}"));
            steps += 1;
        }
        assert!(steps > 10, "the comparison covered the discard and several tricks ({steps} steps)");
        assert!(!a.d().partner_revealed);
        // Now the king: the partner is known to all.
        let holder = (0..5).find(|&s| a.d().hands[s].contains(&card_kh())).unwrap();
        if a.to_act() == [holder] && a.legal_cards(holder).contains(&card_kh()) {
            let events = a.play(holder, "KH");
            assert_eq!(events[1], Event::PartnerRevealed { seat: 2, card: card("KH"), taker_alone: false });
            assert_eq!(a.view(Viewer::Spectator)["partner"], 2);
        }
    }

    fn card_kh() -> Card {
        card("KH")
    }

    #[test]
    fn playing_the_called_king_reveals_the_partner() {
        let mut g = five_player_game(2);
        g.ok(1, Command::Call { suit: Suit::Hearts });
        for code in ["TS", "JS", "CS"] {
            g.ok(1, discard(code));
        }
        g.ok(1, Command::DeclineSlam);
        // Seat 4 leads clubs; seat 3 trumps, seat 2 overtrumps, seat 1 and seat 0 follow.
        g.play(4, "1C");
        g.play(3, "T6");
        g.play(2, "T9");
        g.play(1, "KC");
        g.play(0, "TC");
        assert_eq!(g.to_act(), [2]);
        assert_eq!(g.view(Viewer::Seat(0))["partner"], Value::Null);
        let events = g.play(2, "KH");
        assert_eq!(events[1], Event::PartnerRevealed { seat: 2, card: card("KH"), taker_alone: false });
        for viewer in [Viewer::Seat(0), Viewer::Seat(3), Viewer::Spectator] {
            assert_eq!(g.view(viewer)["partner"], 2);
            assert_eq!(g.view(viewer)["taker_alone"], false);
        }
        g.play_out();
        let (count, scoring) = g.result();
        assert_eq!(count.taker_side, [1, 2]);
        // Two thirds to the taker, one third to the partner.
        assert_eq!(scoring.points[1], 2 * scoring.unit);
        assert_eq!(scoring.points[2], scoring.unit);
        for s in [0, 3, 4] {
            assert_eq!(scoring.points[s], -scoring.unit);
        }
        assert!(scoring.terms.iter().any(|t| t.to == 2 && t.explanation.en.contains("the partner")));
    }

    #[test]
    fn the_first_lead_may_not_be_in_the_called_suit_unless_it_is_the_called_king() {
        let mut g = five_player_game(2);
        g.ok(1, Command::Call { suit: Suit::Hearts });
        for code in ["TS", "JS", "CS"] {
            g.ok(1, discard(code));
        }
        g.ok(1, Command::DeclineSlam);
        assert_eq!(g.to_act(), [4]);
        let err = g.refused(4, play("1H"));
        assert_eq!(err.rule, rule::CALLED_SUIT_LEAD);
        assert!(err.explanation.en.contains("the first lead may not be in the called suit, hearts"));
        assert!(!g.legal_cards(4).contains(&card("3H")));
        assert!(g.legal_cards(4).contains(&card("1C")));
        // Only the first lead: later, hearts may be led.
        assert!(playable(&cards("1H 2C"), &[]).contains(&card("1H")));

        // The holder of the called king may lead it.
        let mut g = Game::new(5, Options::default());
        g.deal(deck_for(5, 0, &["", "T12 T13 T14 T15 T16 T17 T18 T19 T20 T21", "", "", "KH 2H 3H"], ""));
        g.take(1, Contract::WithoutDog);
        g.ok(1, Command::Call { suit: Suit::Hearts });
        g.ok(1, Command::DeclineSlam);
        assert!(g.legal_cards(4).contains(&card("KH")));
        assert!(!g.legal_cards(4).contains(&card("2H")));
        let events = g.play(4, "KH");
        assert_eq!(events[1], Event::PartnerRevealed { seat: 4, card: card("KH"), taker_alone: false });
    }

    #[test]
    fn a_called_king_in_the_dog_leaves_the_taker_alone_against_four() {
        let mut g = Game::new(5, Options::default());
        g.deal(deck_for(5, 0, &["", "T12 T13 T14 T15 T16 T17 T18 T19 T20 T21"], "KH 2H 3H"));
        g.take(1, Contract::Small);
        let events = g.ok(1, Command::Call { suit: Suit::Hearts });
        assert_eq!(events[1], Event::DogShown { cards: cards("KH 2H 3H"), taker_alone: true });
        assert_eq!(g.d().partner, None);
        for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
            assert_eq!(g.view(viewer)["taker_alone"], true, "the shown dog tells everyone");
        }
        g.play_out();
        let (count, scoring) = g.result();
        assert_eq!(count.taker_side, [1]);
        assert_eq!(scoring.points[1], 4 * scoring.unit);
        assert_eq!(scoring.points.iter().sum::<i64>(), 0);
    }

    #[test]
    fn a_taker_calling_a_card_of_their_own_plays_alone_and_only_they_know() {
        let mut g = Game::new(5, Options::default());
        g.deal(deck_for(5, 0, &["", "KH T12 T13 T14 T15 T16 T17 T18 T19 T20 T21"], ""));
        g.take(1, Contract::WithoutDog);
        g.ok(1, Command::Call { suit: Suit::Hearts });
        assert_eq!(g.d().partner, None);
        assert_eq!(g.view(Viewer::Seat(1))["taker_alone"], true);
        for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Spectator] {
            assert_eq!(g.view(viewer)["taker_alone"], Value::Null);
            assert_eq!(g.view(viewer)["partner"], Value::Null);
        }
        assert!(Tarot.rulebook().rule(rule::CALL_OWN_CARD).unwrap().house_rule);
    }

    // -----------------------------------------------------------------------------------------
    // Slam, petit au bout, the Excuse in a slam

    /// Three players, dealer 0: seat 2 holds every trump and two or three kings.
    fn slam_deck(taker: &str, seat0: &str) -> Vec<Card> {
        deck_for(
            3,
            0,
            &[seat0, "1C 2C 3C 4C 5C 6C 7C 8C 9C TC JC CC QC KC 1D 2D 3D 4D 5D 6D 7D 8D 9D TD", taker],
            "8S 9S TS JS CS QS",
        )
    }

    const ALL_TRUMPS: &str = "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21";

    /// Seat 2 leads `leads` in order; the others play their first legal card.
    fn lead_out(g: &mut Game, leads: &[&str]) {
        for code in leads {
            assert_eq!(g.to_act(), [2]);
            g.play(2, code);
            for seat in [1, 0] {
                let c = g.legal_cards(seat)[0];
                g.ok(seat, Command::Play { card: c });
            }
        }
    }

    fn trumps_down() -> Vec<String> {
        (2..=21).rev().map(|n| format!("T{n}")).collect()
    }

    #[test]
    fn an_announced_slam_leads_and_the_excuse_takes_the_last_trick() {
        let mut g = Game::new(3, Options::default());
        g.deal(slam_deck(
            &format!("{ALL_TRUMPS} EX KH KS"),
            "JD CD QD KD 1H 2H 3H 4H 5H 6H 7H 8H 9H TH JH CH QH 1S 2S 3S 4S 5S 6S 7S",
        ));
        g.take(2, Contract::Small);
        // Only the six dog cards may go: everything else is a king or a trump.
        for code in ["8S", "9S", "TS", "JS", "CS", "QS"] {
            g.ok(2, discard(code));
        }
        assert_eq!(g.d().phase, Phase::Slam);
        assert_eq!(Tarot.legal_moves(&g.state, 2), [Command::AnnounceSlam, Command::DeclineSlam]);
        assert_eq!(g.refused(1, Command::AnnounceSlam).rule, core::TURN);
        g.ok(2, Command::AnnounceSlam);
        assert_eq!(g.to_act(), [2], "the announcer leads");
        // A triple poignée: 18 trumps, the lowest.
        let events = g.ok(2, Command::DeclarePoignee { level: Poignee::Triple });
        let Event::PoigneeDeclared { trumps, .. } = &events[0] else { panic!() };
        assert_eq!(trumps, &(1..=18).map(Card::Trump).collect::<Vec<_>>());
        let mut leads: Vec<String> = trumps_down();
        leads.extend(["KH", "KS", "T1", "EX"].map(String::from));
        lead_out(&mut g, &leads.iter().map(String::as_str).collect::<Vec<_>>());
        let last = g.d().tricks.last().unwrap();
        assert_eq!((last.winner, last.card, last.reason), (2, EXCUSE, WinReason::ExcuseCompletesSlam));
        let (count, scoring) = g.result();
        assert_eq!(count.taker_half_points, 182);
        assert_eq!(count.bouts, 3);
        assert_eq!(count.excuse.as_ref().unwrap().rule, rule::EXCUSE_SLAM);
        // The Petit one trick before the Excuse is "at the end".
        assert_eq!(count.petit_au_bout, Some(Side::Taker));
        assert_eq!((count.slam, count.slam_announced), (Some(Side::Taker), true));
        // (25 + 91 - 36 + 10) x 1 + 40 + 400 = 530 per defender; the taker gets twice that.
        assert_eq!(scoring.unit, 530);
        assert_eq!(scoring.points, [-530, -530, 1060]);
        assert!(scoring.terms.iter().any(|t| t.rule == rule::SLAM && t.points == 800));
    }

    #[test]
    fn an_unannounced_slam_scores_200_and_the_petit_in_the_last_trick_counts() {
        let mut g = Game::new(3, Options::default());
        g.deal(slam_deck(
            &format!("{ALL_TRUMPS} KH KS KD"),
            "JD CD QD 1H 2H 3H 4H 5H 6H 7H 8H 9H TH JH CH QH 1S 2S 3S 4S 5S 6S 7S EX",
        ));
        g.take(2, Contract::Small);
        for code in ["8S", "9S", "TS", "JS", "CS", "QS"] {
            g.ok(2, discard(code));
        }
        g.ok(2, Command::DeclineSlam);
        // The dealer's right leads the first trick: that is seat 2 anyway.
        let mut leads: Vec<String> = trumps_down();
        leads.extend(["KH", "KS", "KD", "T1"].map(String::from));
        lead_out(&mut g, &leads.iter().map(String::as_str).collect::<Vec<_>>());
        let last = g.d().tricks.last().unwrap().clone();
        assert!(last.contains(EXCUSE) && last.contains(PETIT) && last.winner == 2);
        let (count, scoring) = g.result();
        let fate = count.excuse.clone().unwrap();
        assert_eq!((fate.played_by, fate.counted_for, fate.rule.as_str()), (0, Side::Taker, rule::EXCUSE_LAST_TRICK));
        assert_eq!(count.taker_half_points, 182);
        assert_eq!(count.petit_au_bout, Some(Side::Taker));
        assert_eq!((count.slam, count.slam_announced), (Some(Side::Taker), false));
        // (25 + 55 + 10) x 1 + 200.
        assert_eq!(scoring.unit, 290);
        assert_eq!(scoring.points, [-290, -290, 580]);
    }

    #[test]
    fn an_excuse_whose_side_wins_nothing_goes_to_the_side_that_took_its_trick() {
        let mut g = Game::new(3, no_slam());
        g.deal(slam_deck(
            &format!("{ALL_TRUMPS} KH KS KD"),
            "JD CD QD 1H 2H 3H 4H 5H 6H 7H 8H 9H TH JH CH QH 1S 2S 3S 4S 5S 6S 7S EX",
        ));
        g.take(2, Contract::Small);
        for code in ["8S", "9S", "TS", "JS", "CS", "QS"] {
            g.ok(2, discard(code));
        }
        g.play(2, "T21");
        g.play(1, "1C");
        let events = g.play(0, "EX");
        assert!(matches!(events.last(), Some(Event::TrickWon { winner: 2, excuse_to: Some(0), .. })));
        let mut leads: Vec<String> = trumps_down().into_iter().skip(1).collect();
        leads.extend(["KH", "KS", "KD", "T1"].map(String::from));
        lead_out(&mut g, &leads.iter().map(String::as_str).collect::<Vec<_>>());
        let (count, scoring) = g.result();
        let fate = count.excuse.clone().unwrap();
        assert_eq!(
            (fate.counted_for, fate.half_point_to, fate.rule.as_str()),
            (Side::Taker, None, rule::EXCUSE_NO_CARD)
        );
        assert_eq!(count.taker_half_points, 182);
        assert_eq!(count.slam, None, "no slam bonus without the option");
        assert_eq!(scoring.unit, 90);
    }

    // -----------------------------------------------------------------------------------------
    // Poignée and tröst

    #[test]
    fn a_poignee_is_shown_before_the_first_card_with_the_lowest_trumps() {
        let mut g = Game::new(4, Options::default());
        g.deal(strong_taker());
        g.take(3, Contract::Small);
        for code in ["2C", "3C", "4C", "5C", "T2", "T3"] {
            g.ok(3, discard(code));
        }
        g.ok(3, Command::DeclineSlam);
        // Thirteen trumps and the Excuse: single or double, not triple (15).
        let moves = Tarot.legal_moves(&g.state, 3);
        assert!(moves.contains(&Command::DeclarePoignee { level: Poignee::Single }));
        assert!(moves.contains(&Command::DeclarePoignee { level: Poignee::Double }));
        let err = g.refused(3, Command::DeclarePoignee { level: Poignee::Triple });
        assert_eq!(err.rule, rule::POIGNEE_SIZES);
        assert!(err
            .explanation
            .en
            .contains("You hold 13 trumps and the Excuse; a triple poignée with 4 players needs 15"));
        let events = g.ok(3, Command::DeclarePoignee { level: Poignee::Single });
        assert_eq!(
            events,
            [Event::PoigneeDeclared {
                seat: 3,
                level: Poignee::Single,
                trumps: cards("T1 T4 T5 T6 T7 T8 T9 T10 T11 T12")
            }]
        );
        assert_eq!(g.refused(3, Command::DeclarePoignee { level: Poignee::Double }).rule, rule::ONE_POIGNEE);
        // The shown trumps are public now.
        assert_eq!(
            g.view(Viewer::Spectator)["poignees"][3]["trumps"],
            json!(cards("T1 T4 T5 T6 T7 T8 T9 T10 T11 T12"))
        );
        assert!(Tarot.secrets(&g.state).iter().all(|(c, _)| !cards("T1 T4 T12").contains(c)));
        assert!(Tarot.secrets(&g.state).contains(&(card("T21"), vec![3])));
        g.play(3, "T21");
        // After one's first card it is too late.
        while g.to_act() != [3] {
            let s = g.to_act()[0];
            g.ok(s, Command::Play { card: g.legal_cards(s)[0] });
        }
        assert_eq!(g.refused(3, Command::DeclarePoignee { level: Poignee::Double }).rule, rule::POIGNEE_WHEN);
        assert_eq!(g.refused(3, Command::DeclareTrost).rule, rule::TROST);
    }

    #[test]
    fn the_excuse_makes_up_a_poignee_only_for_a_player_showing_every_trump() {
        // Five players: eight trumps for a single poignée.
        let seven = cards("T2 T3 T4 T5 T6 T7 T8 EX 2C");
        assert_eq!(poignee_show(&seven, 5, Poignee::Single), Some(cards("T2 T3 T4 T5 T6 T7 T8 EX")));
        let eight = cards("T2 T3 T4 T5 T6 T7 T8 T9 EX");
        assert_eq!(
            poignee_show(&eight, 5, Poignee::Single),
            Some(cards("T2 T3 T4 T5 T6 T7 T8 T9")),
            "no Excuse when not needed"
        );
        assert_eq!(poignee_show(&cards("T2 T3 T4 T5 T6 T7 EX"), 5, Poignee::Single), None);
        assert_eq!(
            poignee_show(&cards("T2 T3 T4 T5 T6 T7 T8 T9 T10 EX"), 5, Poignee::Double).map(|v| v.len()),
            Some(10)
        );
        assert_eq!(poignee_sizes(3), [13, 15, 18]);
        assert_eq!(poignee_sizes(4), [10, 13, 15]);
        assert_eq!(poignee_sizes(5), [8, 10, 13]);
    }

    #[test]
    fn a_poignee_or_troest_may_be_switched_off() {
        let g = play_game(Options { poignee: false, trost: false, ..Default::default() });
        assert_eq!(g.refused(3, Command::DeclareTrost).rule, rule::ADVANCED_OFF);
        assert_eq!(g.refused(3, Command::DeclarePoignee { level: Poignee::Single }).rule, rule::ADVANCED_OFF);
        assert!(Tarot.legal_moves(&g.state, 3).iter().all(|m| matches!(m, Command::Play { .. })));
    }

    #[test]
    fn troest_pays_ten_from_each_player_to_a_hand_without_court_cards() {
        let mut g = play_game(Options::default());
        // Seat 3 has no king, queen, knight or jack.
        assert!(Tarot.legal_moves(&g.state, 3).contains(&Command::DeclareTrost));
        assert_eq!(g.ok(3, Command::DeclareTrost), [Event::TrostDeclared { seat: 3 }]);
        assert_eq!(g.refused(3, Command::DeclareTrost).rule, rule::TROST);
        g.play(3, "5H");
        let err = g.refused(2, Command::DeclareTrost);
        assert_eq!(err.rule, rule::TROST);
        assert!(err.explanation.en.contains("You hold court cards"));
        assert_eq!(g.refused(1, Command::DeclareTrost).rule, core::TURN);
        g.play_out();
        let (count, scoring) = g.result();
        assert_eq!(count.trost, [3]);
        let trost: Vec<(usize, i64)> =
            scoring.terms.iter().filter(|t| t.rule == rule::TROST).map(|t| (t.to, t.points)).collect();
        assert_eq!(trost, [(0, -10), (1, -10), (2, -10), (3, 30)]);
        assert_eq!(scoring.points.iter().sum::<i64>(), 0);
        assert_eq!(scoring.points[3], 3 * scoring.unit + 30);
    }

    #[test]
    fn an_announced_slam_is_led_by_the_taker_wherever_they_sit() {
        let strong = "KC KD KH KS T1 T21 EX T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12";
        for (announce, leader) in [(true, 1), (false, 3)] {
            let mut g = Game::new(4, Options::default());
            g.deal(deck_for(4, 0, &["", strong], "T13 T14 T15 T16 T17 T18"));
            g.take(1, Contract::WithoutDog);
            g.ok(1, if announce { Command::AnnounceSlam } else { Command::DeclineSlam });
            assert_eq!(g.to_act(), [leader]);
            assert_eq!(g.view(Viewer::Spectator)["slam_announced"], announce);
        }
        // Without the option there is no announcement.
        let mut g = Game::new(4, no_slam());
        g.deal(deck_for(4, 0, &["", strong], ""));
        g.take(1, Contract::WithoutDog);
        assert_eq!(g.d().phase, Phase::Playing);
        assert_eq!(g.refused(3, Command::AnnounceSlam).rule, core::PHASE);
    }

    // -----------------------------------------------------------------------------------------
    // Scoring: the text's worked examples

    /// Four players, seat 0 takes; nothing advanced unless added.
    fn facts4(contract: Contract, bouts: usize, half: u32) -> Facts {
        Facts {
            players: 4,
            taker: 0,
            partner: None,
            contract,
            bouts,
            taker_half_points: half,
            petit_au_bout: None,
            poignees: vec![],
            trost: vec![],
            slam_announced: false,
            slam: None,
        }
    }

    fn rules_of(scoring: &Scoring) -> Vec<&str> {
        let mut r: Vec<&str> = scoring.terms.iter().map(|t| t.rule.as_str()).collect();
        r.dedup();
        r
    }

    #[test]
    fn worked_example_a_big_game_with_two_bouts_and_50_points() {
        let s = score(&facts4(Contract::Big, 2, 100), &Options::default());
        assert_eq!((s.target, s.counted_points, s.made, s.difference, s.multiplier), (41, 50, true, 9, 2));
        // 2 x (25 + 9) = 68 from each defender; the taker gets 3 x 68 = 204.
        assert_eq!(s.unit, 68);
        assert_eq!(s.points, [204, -68, -68, -68]);
        assert_eq!(rules_of(&s), [rule::BASE, rule::DIFFERENCE]);
        let taker: Vec<i64> = s.terms.iter().filter(|t| t.to == 0).map(|t| t.points).collect();
        assert_eq!(taker, [150, 54]);
        assert!(s.terms[0]
            .explanation
            .en
            .contains("Big game made: base 25 × 2 = 50 per defender; seat 0 (the taker) 3 × 50 = 150."));
    }

    #[test]
    fn worked_example_the_same_big_game_lost_with_35_points() {
        let s = score(&facts4(Contract::Big, 2, 70), &Options::default());
        assert_eq!((s.made, s.difference), (false, 6));
        // 2 x (25 + 6) = 62 to each defender; the taker pays 3 x 62 = 186.
        assert_eq!(s.unit, -62);
        assert_eq!(s.points, [-186, 62, 62, 62]);
    }

    /// A small game with two bouts, won or lost by one point, the Petit taken in the last trick
    /// by `pab`.
    fn petit_case(made: bool, pab: Side) -> Scoring {
        let mut f = facts4(Contract::Small, 2, if made { 84 } else { 80 });
        f.petit_au_bout = Some(pab);
        score(&f, &Options::default())
    }

    #[test]
    fn worked_examples_of_the_petit_in_the_last_trick_with_the_texts_two_errors_corrected() {
        // Won, the taker's Petit last: the text writes 1x(25+1+10)=26; it is 36 (taker +108).
        let s = petit_case(true, Side::Taker);
        assert_eq!((s.unit, s.points[0]), (36, 108));
        // Lost, the taker's Petit last: the text writes 1x(25-1-10)=14; it is 25+1-10 = 16 (-48).
        let s = petit_case(false, Side::Taker);
        assert_eq!((s.unit, s.points[0]), (-16, -48));
        assert_eq!(s.points[1], 16);
        // Won, the defence's Petit last: 1x(25+1-10) = 16, taker +48.
        let s = petit_case(true, Side::Defence);
        assert_eq!((s.unit, s.points[0]), (16, 48));
        // Lost, the defence's Petit last: 1x(25+1+10) = 36, taker -108.
        let s = petit_case(false, Side::Defence);
        assert_eq!((s.unit, s.points[0]), (-36, -108));
        assert!(rules_of(&s).contains(&rule::PETIT_AU_BOUT));
        // Inside the bracket: multiplied with the contract.
        let mut f = facts4(Contract::AgainstDog, 2, 84);
        f.petit_au_bout = Some(Side::Taker);
        assert_eq!(score(&f, &Options::default()).unit, 6 * 36);
    }

    #[test]
    fn worked_examples_of_the_poignee_which_goes_to_the_side_that_wins() {
        for (shown_by, made, unit) in [(0, true, 46), (0, false, -46), (2, true, 46), (2, false, -46)] {
            let mut f = facts4(Contract::Small, 2, if made { 84 } else { 80 });
            f.poignees = vec![(shown_by, Poignee::Single)];
            let s = score(&f, &Options::default());
            // 1x(25+1)+20 = 46 each; the taker 3 x 46 = 138 either way.
            assert_eq!(s.unit, unit, "shown by {shown_by}, made {made}");
            assert_eq!(s.points[0], 3 * unit);
        }
        // Double and triple, never multiplied.
        let mut f = facts4(Contract::AgainstDog, 2, 82);
        f.poignees = vec![(1, Poignee::Double), (3, Poignee::Triple)];
        assert_eq!(score(&f, &Options::default()).unit, 6 * 25 + 30 + 40);
        // The summary's combination: a win with the taker's Petit last and a poignée: +30.
        let mut f = facts4(Contract::Small, 2, 84);
        f.petit_au_bout = Some(Side::Taker);
        f.poignees = vec![(0, Poignee::Single)];
        assert_eq!(score(&f, &Options::default()).unit, 26 + 30);
    }

    #[test]
    fn worked_example_five_players_share_two_thirds_and_one_third() {
        let mut f = facts4(Contract::Big, 2, 100);
        f.players = 5;
        f.partner = Some(3);
        let s = score(&f, &Options::default());
        // 3 x 68 = 204 from the defence: 136 to the taker and 68 to the partner.
        assert_eq!(s.points, [136, -68, -68, 68, -68]);
        // Alone, the taker takes all four defenders' share.
        f.partner = None;
        assert_eq!(score(&f, &Options::default()).points, [272, -68, -68, -68, -68]);
        // Three players: twice.
        f.players = 3;
        assert_eq!(score(&f, &Options::default()).points, [136, -68, -68]);
        assert_eq!(share(5, 0, Some(0), 0), 4, "calling oneself is playing alone");
    }

    #[test]
    fn a_half_point_goes_to_the_defence_by_the_text_and_to_the_winner_by_the_federation() {
        let text = Options::default();
        let fft = Options { half_point: HalfPoint::Fft, ..Default::default() };
        // 40.5 is not enough where 41 is needed.
        let s = score(&facts4(Contract::Small, 2, 81), &text);
        assert_eq!((s.made, s.counted_points, s.difference, s.unit), (false, 40, 1, -26));
        assert_eq!(score(&facts4(Contract::Small, 2, 81), &fft).unit, -26);
        // 41.5: made; the text gives the half point to the defence, the federation to the taker.
        let s = score(&facts4(Contract::Small, 2, 83), &text);
        assert_eq!((s.made, s.counted_points, s.difference, s.unit), (true, 41, 0, 25));
        let s = score(&facts4(Contract::Small, 2, 83), &fft);
        assert_eq!((s.made, s.counted_points, s.difference, s.unit), (true, 42, 1, 26));
        // Exactly the target is made.
        let s = score(&facts4(Contract::Small, 0, 112), &text);
        assert_eq!((s.made, s.difference, s.unit), (true, 0, 25));
        let s = score(&facts4(Contract::Small, 0, 111), &text);
        assert_eq!((s.made, s.difference, s.unit), (false, 1, -26));
    }

    #[test]
    fn slams_score_400_200_minus_200_and_200_to_a_defence_slam() {
        let base = |announced: bool, slam: Option<Side>, half: u32| {
            let mut f = facts4(Contract::Small, 3, half);
            f.slam_announced = announced;
            f.slam = slam;
            score(&f, &Options::default()).unit
        };
        assert_eq!(base(true, Some(Side::Taker), 182), 25 + 55 + 400);
        assert_eq!(base(false, Some(Side::Taker), 182), 25 + 55 + 200);
        assert_eq!(base(true, None, 150), 25 + 39 - 200);
        let mut f = facts4(Contract::Small, 0, 0);
        f.slam = Some(Side::Defence);
        assert_eq!(score(&f, &Options::default()).unit, -(25 + 56) - 200);
        f.slam_announced = true;
        assert_eq!(score(&f, &Options::default()).unit, -(25 + 56) - 200 - 200, "both apply");
        assert!(rules_of(&score(&f, &Options::default())).contains(&rule::DEFENCE_SLAM));
        // Switched off, no slam counts.
        let off = Options { slam: false, ..Default::default() };
        assert_eq!(score(&f, &off).unit, -(25 + 56));
    }

    #[test]
    fn switched_off_advanced_rules_score_nothing() {
        let mut f = facts4(Contract::Small, 2, 84);
        f.petit_au_bout = Some(Side::Taker);
        f.poignees = vec![(1, Poignee::Single)];
        f.trost = vec![2];
        let on = score(&f, &Options::default());
        assert_eq!(on.unit, 26 + 10 + 20);
        assert_eq!(on.points, [168 - 10, -56 - 10, -56 + 30, -56 - 10]);
        let off = Options { petit_au_bout: false, poignee: false, trost: false, ..Default::default() };
        let s = score(&f, &off);
        assert_eq!((s.unit, s.points.clone()), (26, vec![78, -26, -26, -26]));
    }

    #[test]
    fn every_deal_sums_to_zero_and_the_terms_add_up() {
        for players in 3..=5 {
            for partner in [None, Some(2)] {
                let mut f = facts4(Contract::WithoutDog, 1, 97);
                f.players = players;
                f.partner = partner.filter(|_| players == 5);
                f.poignees = vec![(1, Poignee::Double)];
                f.trost = vec![0, 2];
                f.petit_au_bout = Some(Side::Defence);
                let s = score(&f, &Options::default());
                assert_eq!(s.points.iter().sum::<i64>(), 0);
                for seat in 0..players {
                    assert_eq!(s.terms.iter().filter(|t| t.to == seat).map(|t| t.points).sum::<i64>(), s.points[seat]);
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // The match, options, shapes, hidden information, replay

    #[test]
    fn a_match_is_one_round_of_deals_by_default_and_void_deals_do_not_count() {
        let mut g = Game::new(3, Options::default());
        assert_eq!(g.view(Viewer::Spectator)["deals_total"], 3);
        // A void deal first.
        g.deal(deck_for(3, 0, &[], ""));
        for seat in [2, 1, 0] {
            g.ok(seat, Command::Pass);
        }
        for n in 0..3 {
            let dealer = g.state.next_dealer;
            g.deal(deck_for(3, dealer, &[], ""));
            g.take(Table::counter_clockwise(3).next(dealer), Contract::Small);
            let events = g.play_out();
            assert_eq!(matches!(events.last(), Some(Event::MatchEnded { .. })), n == 2);
        }
        assert_eq!((g.state.deals_started, g.state.deals_played), (4, 3));
        let Status::Finished { outcome } = Tarot.status(&g.state) else { panic!() };
        assert_eq!(outcome.winners, match_winners(&g.state.scores));
        assert_eq!(g.refusal_served(0, Command::Pass).rule, core::MATCH_OVER);
        assert!(g.try_deal(decks::tarot78()).is_err());
    }

    #[test]
    fn a_match_may_have_a_set_number_of_deals_or_a_score_limit() {
        let mut g = Game::new(4, Options { deals: Some(1), ..Default::default() });
        g.deal(deck_for(4, 0, &[], ""));
        g.take(3, Contract::Small);
        let events = g.play_out();
        assert!(matches!(events.last(), Some(Event::MatchEnded { .. })));

        let opts = Options { score_limit: Some(50), ..Default::default() };
        assert_eq!(opts.deals_total(4), None);
        let mut g = Game::new(4, opts);
        assert_eq!(g.view(Viewer::Spectator)["deals_total"], Value::Null);
        let mut deals = 0;
        while !Tarot.status(&g.state).is_finished() {
            let dealer = g.state.next_dealer;
            g.deal(deck_for(4, dealer, &[], ""));
            g.take(Table::counter_clockwise(4).next(dealer), Contract::Big);
            g.play_out();
            deals += 1;
            assert!(deals < 100);
        }
        assert!(g.state.scores.iter().any(|&s| s >= 50));
        assert!(Options { deals: Some(7), score_limit: Some(10), ..Default::default() }.deals_total(4) == Some(7));
    }

    #[test]
    fn options_have_documented_defaults_and_bad_values_are_refused() {
        let game = erase(Tarot);
        let normal = game.normalize_options(&Value::Null).unwrap();
        assert_eq!(
            normal,
            json!({"deals": null, "score_limit": null, "half_point": "text", "petit_au_bout": true,
                   "poignee": true, "trost": true, "slam": true})
        );
        for doc in Tarot.options() {
            assert_eq!(normal[doc.name], doc.default, "{}", doc.name);
        }
        let fft = game.normalize_options(&json!({"half-point": "fft", "score-limit": 500})).unwrap();
        assert_eq!((fft["half_point"].clone(), fft["score_limit"].clone()), (json!("fft"), json!(500)));
        assert!(game.normalize_options(&json!({"half_point": "half"})).is_err());
        assert!(game.normalize_options(&json!({"jokers": true})).is_err());
        assert!(game.setup(4, &json!({"deals": 0})).is_err());
        assert!(game.setup(4, &json!({"score_limit": 0})).is_err());
        assert!(game.setup(2, &Value::Null).is_err());
        assert!(game.setup(6, &Value::Null).is_err());
        for n in 3..=5 {
            assert!(game.setup(n, &Value::Null).is_ok());
        }
    }

    #[test]
    fn commands_and_events_have_their_json_shapes() {
        let parse = |v: Value| serde_json::from_value::<Command>(v).unwrap();
        assert_eq!(parse(json!({"type": "bid", "contract": "big"})), bid(Contract::Big));
        assert_eq!(parse(json!({"type": "bid", "contract": "garde_contre"})), bid(Contract::AgainstDog));
        assert_eq!(parse(json!({"type": "pass"})), Command::Pass);
        assert_eq!(parse(json!({"type": "call", "suit": "hearts"})), Command::Call { suit: Suit::Hearts });
        assert_eq!(parse(json!({"type": "discard", "card": "CH"})), discard("CH"));
        assert_eq!(parse(json!({"type": "announce_slam"})), Command::AnnounceSlam);
        assert_eq!(parse(json!({"type": "decline_slam"})), Command::DeclineSlam);
        assert_eq!(
            parse(json!({"type": "declare_poignee", "level": "double"})),
            Command::DeclarePoignee { level: Poignee::Double }
        );
        assert_eq!(parse(json!({"type": "declare_trost"})), Command::DeclareTrost);
        assert_eq!(parse(json!({"type": "play", "card": "T21"})), play("T21"));
        assert!(serde_json::from_value::<Command>(json!({"type": "play", "card": "T22"})).is_err());
        let e = Event::TrickWon {
            trick_number: 2,
            winner: 1,
            card: card("T10"),
            reason: WinReason::HighestTrump,
            plays: vec![Play { seat: 3, card: EXCUSE }, Play { seat: 2, card: card("T10") }],
            excuse_to: Some(3),
            half_points: 10,
        };
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({"type": "trick_won", "trick_number": 2, "winner": 1, "card": "T10", "reason": "highest-trump",
                   "plays": [{"seat": 3, "card": "EX"}, {"seat": 2, "card": "T10"}], "excuse_to": 3, "half_points": 10})
        );
        assert_eq!(
            serde_json::to_value(Event::CardCalled { taker: 1, card: card("KH") }).unwrap(),
            json!({"type": "card_called", "taker": 1, "card": "KH"})
        );
    }

    #[test]
    fn the_first_event_shows_each_seat_only_its_own_hand_until_the_deal_is_over() {
        let mut g = Game::new(4, Options::default());
        let events = g.deal(deck_for(4, 0, &[], ""));
        let e = &events[0];
        let own = Tarot.redact(&g.state, e, Viewer::Seat(1), false);
        assert!(own.get("deck").is_none() && own.get("dog_positions").is_none());
        assert_eq!(own["dog"], Value::Null);
        assert_eq!(own["dog_size"], 6);
        assert_eq!(own["hands"][1], json!(g.d().hands[1]));
        assert_eq!(own["hands"][0], Value::Null);
        assert_eq!(own["hand_sizes"], json!([18, 18, 18, 18]));
        assert_eq!(Tarot.redact(&g.state, e, Viewer::Spectator, false)["hands"], json!([null, null, null, null]));
        for viewer in [Viewer::Record, Viewer::Seat(0)] {
            assert_eq!(Tarot.redact(&g.state, e, viewer, viewer == Viewer::Seat(0)), serde_json::to_value(e).unwrap());
        }
        let view = g.view(Viewer::Seat(1));
        assert_eq!(view["hand"], json!(g.d().hands[1]));
        assert!(view.get("hands").is_none() && view.get("deck").is_none());
        assert_eq!(g.view(Viewer::Record)["hands"], json!(g.d().hands));
        // Secret: every card in a hand to its holder, the dog to nobody.
        let secrets = Tarot.secrets(&g.state);
        assert_eq!(secrets.len(), 78);
        assert_eq!(secrets.iter().filter(|(_, who)| who.is_empty()).count(), 6);
    }

    // -----------------------------------------------------------------------------------------
    // Random matches

    /// Many cheap random matches over every test option set, each checked on its log; the
    /// generic tests check the rest on the way.
    #[test]
    fn random_match_logs_add_up() {
        let book = Tarot.rulebook();
        let plan = Plan { log_only: 60, ..Plan::default() };
        let played = random_matches(&*erase(Tarot), plan, |players, options, report| {
            check_log(players, options, &book, &report.log);
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(played, 3 * 6 * 60);
    }

    /// What every match's log must show: each deal starts from the scores so far, sums to zero
    /// and counts 91 points; the terms name rules of the book; the match ends as the options say.
    fn check_log(players: usize, options: &Value, book: &Rulebook, log: &[Value]) {
        let opts: Options = serde_json::from_value(options.clone()).unwrap();
        let mut totals = vec![0i64; players];
        let mut scored = 0u32;
        let mut ended = None;
        for event in log {
            match serde_json::from_value::<Event>(event.clone()).unwrap() {
                Event::DealStarted { scores, deals_played, .. } => {
                    assert_eq!(scores, totals, "a deal starts from the scores so far");
                    assert_eq!(deals_played, scored);
                    assert!(ended.is_none());
                }
                Event::DealScored { count, scoring, totals: after, .. } => {
                    assert_eq!(count.taker_half_points + count.defence_half_points, TOTAL_HALF_POINTS);
                    assert_eq!(scoring.points.iter().sum::<i64>(), 0, "a deal sums to zero");
                    for t in &scoring.terms {
                        assert!(book.rule(&t.rule).is_some(), "{} is not in the rulebook", t.rule);
                        totals[t.to] += t.points;
                    }
                    assert_eq!(after, totals);
                    assert!(count.taker_side.contains(&count.taker));
                    assert_eq!(count.taker_side.len(), 1 + count.partner.is_some() as usize);
                    if !opts.slam {
                        assert!(!count.slam_announced && count.slam.is_none());
                    }
                    scored += 1;
                }
                Event::MatchEnded { scores, winners } => {
                    assert_eq!(winners, match_winners(&scores));
                    ended = Some(scores);
                }
                _ => {}
            }
        }
        assert_eq!(ended.as_ref(), Some(&totals), "final scores are the sum of the scored terms");
        match (opts.deals_total(players), opts.score_limit) {
            (Some(n), None) => assert_eq!(scored, n),
            (None, Some(l)) => assert!(totals.iter().any(|&t| t >= l as i64)),
            (Some(n), Some(_)) => assert!(scored <= n),
            (None, None) => unreachable!(),
        }
    }
}
