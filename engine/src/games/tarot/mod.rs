//! Tarot (French tarot) for 3, 4 and 5 players: the 78-card pack, one round of bidding for a
//! contract (small, big, without the dog, against the dog), the dog, in five-player games a
//! called king and a secret partner, trick play with trumps and the Excuse, and the scoring of
//! file 004 with its advanced rules (petit au bout, poignée, tröst) and the federation's slam.
//!
//! Play and dealing go counter-clockwise. A match is a fixed number of deals (one round by
//! default) or runs to a score limit. Card points are kept in half points throughout, so that
//! the 91 points of the pack are 182 whole units and no rounding happens until the count.
//!
//! The match is a [`Deals`] and the card play a [`TrickPlay`]; what is left here is Tarot's own:
//! the bidding, the dog, the call, the declarations, the duties to trump and overtrump, the
//! Excuse (which stays with its owner's side and may complete a slam) and the count.

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bidding::Auction;
use crate::bots::Levels;
use crate::cards::{decks, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase};
use crate::game::{Outcome, Rules, SetupError, Viewer};
use crate::rules::{RuleViolation, ScoreTerm};
use crate::seat::{match_winners, Seat, Table as Seating};
pub use crate::trick::{Play, WinReason};
use crate::trick::{Trick, TrickPlay, TrickRecord};

mod bot;
mod cards;
pub use cards::*;
mod scoring;
pub use scoring::*;
mod invariants;
#[cfg(test)]
mod tests;
mod view;
pub use view::{Bid, CurrentTrick, Table, WonTrick};

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

    pub const PLAYERS: &str = "tarot.deal.players";
    pub const DEALER: &str = "tarot.deal.dealer";
    pub const PACKETS: &str = "tarot.deal.packets";

    pub const BID_ORDER: &str = "tarot.bidding.order";
    pub const BID_HIGHER: &str = "tarot.bidding.higher";
    pub const ALL_PASS: &str = "tarot.bidding.all-pass";

    pub const DISCARD: &str = "tarot.dog.discard";
    pub const NO_KINGS_OR_BOUTS: &str = "tarot.dog.no-kings-or-bouts";
    pub const TRUMPS_IF_FORCED: &str = "tarot.dog.trumps-if-forced";

    pub const FIRST_LEAD: &str = "tarot.play.first-lead";
    pub const CALLED_SUIT_LEAD: &str = "tarot.play.called-suit-lead";
    pub const FOLLOW_SUIT: &str = "tarot.play.follow-suit";
    pub const MUST_TRUMP: &str = "tarot.play.must-trump";
    pub const OVERTRUMP: &str = "tarot.play.overtrump";
    pub const TRICK_WINNER: &str = "tarot.play.trick-winner";
    pub const WINNER_LEADS: &str = "tarot.play.winner-leads";

    pub const EXCUSE_KEPT: &str = "tarot.excuse.kept";
    pub const EXCUSE_LAST_TRICK: &str = "tarot.excuse.last-trick";
    pub const EXCUSE_SLAM: &str = "tarot.excuse.slam";

    pub const BASE: &str = "tarot.score.base";
    pub const DIFFERENCE: &str = "tarot.score.difference";

    pub const PETIT_AU_BOUT: &str = "tarot.advanced.petit-au-bout";
    pub const POIGNEE: &str = "tarot.advanced.poignee";
    pub const POIGNEE_SIZES: &str = "tarot.advanced.poignee-sizes";
    pub const POIGNEE_WHEN: &str = "tarot.advanced.poignee-when";
    pub const TROST: &str = "tarot.advanced.trost";
    pub const SLAM: &str = "tarot.advanced.slam";
    pub const DEFENCE_SLAM: &str = "tarot.advanced.defence-slam";

    pub const MATCH_WINNER: &str = "tarot.end.winner";

    pub const ADVANCED_OFF: &str = "tarot.variant.advanced-off";

    pub const CALL_OWN_CARD: &str = "tarot.house.call-own-card";
    pub const EXCUSE_NO_CARD: &str = "tarot.house.excuse-no-card";
    pub const ONE_POIGNEE: &str = "tarot.house.one-poignee";
    pub const TIES_SHARE: &str = "tarot.house.ties-share";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

    /// The side whose cards the dog (or the discards made from it) counts with.
    pub fn dog_to(self) -> Side {
        if self == Contract::AgainstDog {
            Side::Defence
        } else {
            Side::Taker
        }
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Deals to play (cancelled deals do not count). `null`: one round, a deal per player,
    /// unless `score_limit` is set, which then alone ends the match.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    pub deals: Option<u32>,
    /// End the match after the deal in which a player's total reaches this. `null`: no limit.
    #[serde(alias = "score-limit")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 4294967295u32))]
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// Cards in each hand.
    pub hand: usize,
    /// Cards in each packet the dealer hands out.
    pub packet: usize,
    /// Cards in the dog.
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
pub fn deal_plan(table: &Seating, dealer: Seat) -> Vec<Option<Seat>> {
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

/// A poignée's level, by the number of trumps shown (see the table's `poignee_sizes`).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
// State

/// Where a Tarot match stands.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = TablePhase))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No deal yet: the first is to be dealt.
    WaitingForDeal,
    /// Each seat in turn bids a contract or passes.
    Bidding,
    /// Five players: the taker calls a card.
    Calling,
    /// The moment between the contract (or the call) and the dog's fate.
    Dog,
    /// Small and big games: the taker discards as many cards as the dog had.
    Discarding,
    /// The taker may announce a slam.
    Slam,
    /// The tricks are played.
    Playing,
    /// The deal is played out or cancelled; the next deal is to be dealt.
    DealOver,
    /// The match is over.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

#[derive(Clone, Debug)]
pub struct Deal {
    pub number: u32,
    pub dealer: Seat,
    pub deck: Vec<Card>,
    pub dealt: Vec<Vec<Card>>,
    pub dog: Vec<Card>,
    pub dog_positions: Vec<usize>,
    pub auction: Auction<Option<Contract>>,
    /// One of the deal's own phases, from `Bidding` to `DealOver`.
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
    /// Cards whose identity every seat has seen while they are still held or laid aside (the
    /// shown dog, shown trumps, the called card): no longer secret.
    pub public: BTreeSet<Card>,
    pub slam_announced: Option<bool>,
    pub poignees: Vec<Option<PoigneeShown>>,
    pub trost: Vec<bool>,
    /// The hands and tricks; the taker's hand takes in the dog and gives up the discards.
    pub play: TrickPlay,
    pub result: Option<(Count, Scoring)>,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Bidding => self.auction.next_bidder().into_iter().collect(),
            Phase::Calling | Phase::Dog | Phase::Discarding | Phase::Slam => self.taker.into_iter().collect(),
            Phase::Playing => vec![self.play.to_play()],
            _ => Vec::new(),
        }
    }

    fn is_live(&self) -> bool {
        self.phase != Phase::DealOver
    }

    fn phase(&self) -> Phase {
        self.phase
    }
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
        self.play.trick.plays.iter().any(|&(s, _)| s == seat) || !self.play.tricks.is_empty()
    }

    /// Who takes a complete trick played after the tricks `before`, and why: the highest trump,
    /// else the highest card of the suit led, but the Excuse takes the deal's last trick for a
    /// side that won every trick before it.
    fn trick_won(&self, trick: &Trick, before: &[TrickRecord]) -> (Seat, Card, WinReason) {
        let excuse_by = trick.plays.iter().find(|&&(_, c)| c == EXCUSE).map(|&(s, _)| s);
        if let Some(by) = excuse_by.filter(|_| before.len() + 1 == self.play.tricks_per_deal) {
            let side = self.side_of(by);
            if !before.is_empty() && before.iter().all(|t| self.side_of(t.winner) == side) {
                return (by, EXCUSE, WinReason::ExcuseCompletesSlam);
            }
        }
        trick_winner(&trick.plays)
    }

    /// The seat that keeps the Excuse played to trick `t` rather than give it up with the
    /// trick: its player, unless it was played to the deal's last trick.
    fn excuse_kept_by(&self, t: &TrickRecord) -> Option<Seat> {
        let by = t.plays.iter().find(|p| p.card == EXCUSE).map(|p| p.seat);
        by.filter(|_| t.number < self.play.tricks_per_deal)
    }

    /// The cards `side` has won, with the Excuse where it went: what the deal is counted on.
    fn pile(&self, side: Side) -> Vec<Card> {
        let mut pile = Vec::new();
        for t in &self.play.tricks {
            let kept = self.excuse_kept_by(t);
            for p in &t.plays {
                let to = if p.card == EXCUSE { kept.unwrap_or(t.winner) } else { t.winner };
                if self.side_of(to) == side {
                    pile.push(p.card);
                }
            }
        }
        pile
    }
}

#[derive(Clone, Debug)]
pub struct State {
    pub table: Seating,
    pub options: Options,
    /// Deals played out and scored.
    pub deals_played: u32,
    /// The match: deals started, the dealer, the scores by seat and their books, the outcome.
    pub deals: Deals<Deal>,
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

    fn winners(&self) -> Option<&[Seat]> {
        self.deals.outcome.as_ref().map(|o| o.winners.as_slice())
    }
}

/// Whether `card` was played to `trick`.
fn holds(trick: &TrickRecord, card: Card) -> bool {
    trick.plays.iter().any(|p| p.card == card)
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
    let mut taker_cards = deal.pile(Side::Taker);
    let mut defence_cards = deal.pile(Side::Defence);
    let dog_to = contract.dog_to();
    if contract.takes_dog() {
        taker_cards.extend(&deal.discards);
    } else if dog_to == Side::Taker {
        taker_cards.extend(&deal.dog);
    } else {
        defence_cards.extend(&deal.dog);
    }

    let mut exchange: Option<Side> = None;
    let tricks = &deal.play.tricks;
    let excuse = tricks.iter().find(|t| holds(t, EXCUSE)).map(|t| {
        let played_by = t.plays.iter().find(|p| p.card == EXCUSE).map(|p| p.seat).unwrap_or(t.winner);
        let owner = deal.side_of(played_by);
        let winners = deal.side_of(t.winner);
        let (counted_for, half_point_to, rule) = if t.reason == WinReason::ExcuseCompletesSlam {
            (owner, None, rule::EXCUSE_SLAM)
        } else if deal.excuse_kept_by(t).is_none() {
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

    let petit_au_bout = tricks.last().and_then(|last| {
        // When the Excuse takes the last trick of a slam, the Petit is "at the end" one trick
        // earlier.
        let t = if last.reason == WinReason::ExcuseCompletesSlam && tricks.len() >= 2 {
            &tricks[tricks.len() - 2]
        } else {
            last
        };
        holds(t, PETIT).then(|| deal.side_of(t.winner))
    });
    let winners: Vec<Side> = tricks.iter().map(|t| deal.side_of(t.winner)).collect();
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
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
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

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CancelReason {
    /// Everybody passed.
    AllPassed,
    /// A player had the Petit as their only trump and no Excuse.
    PetitSec,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownHand {
    pub seat: Seat,
    pub hand: Vec<Card>,
}

/// A poignée: trumps a seat showed before its first card, for a bonus at the count.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoigneeShown {
    /// The seat that showed it.
    pub seat: Seat,
    pub level: Poignee,
    /// The trumps shown (the Excuse among them when the seat was one trump short).
    pub trumps: Vec<Card>,
}

/// Where the Excuse ended up, and the half point given for it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
// Decide

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
            Event::DogSetAside { contract, to: contract.dog_to() }
        }
    }

    /// The taker's steps after the bidding, each in its phase (the taker is the one to act).
    fn taker_step(&self, deal: &Deal, phase: Phase, sv: &str, en: &str) -> Result<Seat, RuleViolation> {
        if deal.phase != phase {
            return Err(RuleViolation::wrong_phase(sv, en));
        }
        Ok(deal.taker.expect("a taker in this phase"))
    }

    fn decide_call(&self, deal: &Deal, suit: Suit) -> Result<Vec<Event>, RuleViolation> {
        let taker = self.taker_step(deal, Phase::Calling, "ingen kung ska kallas nu", "no king is to be called now")?;
        // The rank is not a choice: a king, or the highest rank of which the taker lacks one.
        let card = suit_card(suit, callable_value(&deal.play.hands[taker]));
        let contract = deal.contract.expect("a contract before the call");
        Ok(vec![Event::CardCalled { taker, card }, self.dog_event(deal, contract, Some(card))])
    }

    fn decide_discard(&self, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
        let taker =
            self.taker_step(deal, Phase::Discarding, "inga kort läggs i högen nu", "no cards are being discarded now")?;
        deal.play.check_held(taker, card)?;
        let hand = &deal.play.hands[taker];
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
        self.taker_step(
            deal,
            Phase::Slam,
            "slam kan bara annonseras direkt efter hunden",
            "a slam can only be announced right after the dog",
        )?;
        Ok(vec![if announce { Event::SlamAnnounced { seat } } else { Event::SlamDeclined { seat } }])
    }

    /// Poignée and tröst are shown by the player to play, before their first card.
    fn declaration_window(
        &self,
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
        self.declaration_window(deal, seat, state.options.poignee, rule::POIGNEE_WHEN, ("hand (poignée)", "poignée"))?;
        if deal.poignees[seat].is_some() {
            return Err(RuleViolation::new(
                rule::ONE_POIGNEE,
                "Du har redan visat en hand (poignée) i den här given.",
                "You have already shown a poignée in this deal.",
            ));
        }
        let hand = &deal.play.hands[seat];
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
        self.declaration_window(deal, seat, state.options.trost, rule::TROST, ("tröst", "tröst"))?;
        if deal.trost[seat] {
            return Err(RuleViolation::new(
                rule::TROST,
                "Du har redan fått tröst i den här given.",
                "You have already claimed tröst in this deal.",
            ));
        }
        if deal.play.hands[seat].iter().any(|&c| is_court(c)) {
            return Err(RuleViolation::new(
                rule::TROST,
                "Du har klädda kort på handen; tröst ges bara för en hand helt utan kung, dam, knekt och väpnare.",
                "You hold court cards; tröst is only for a hand without any king, queen, knight or jack.",
            ));
        }
        Ok(vec![Event::TrostDeclared { seat }])
    }

    /// A card may be played: it is held, and it keeps the duties to follow, to trump and to
    /// overtrump, and the first lead's to avoid the called suit.
    fn check_play(&self, deal: &Deal, seat: Seat, card: Card) -> Result<(), RuleViolation> {
        if deal.phase != Phase::Playing {
            return Err(match deal.phase {
                Phase::Bidding => RuleViolation::wrong_phase("budgivningen pågår", "the bidding is still going on"),
                _ => RuleViolation::wrong_phase(
                    "spelaren har inte gjort klart med hunden än",
                    "the taker has not finished with the dog",
                ),
            });
        }
        deal.play.check_held(seat, card)?;
        let hand = &deal.play.hands[seat];
        let plays = &deal.play.trick.plays;
        if let (true, Some(called), Some(suit)) =
            (deal.play.tricks.is_empty() && plays.is_empty(), deal.called, deal.called.and_then(|c| c.suit()))
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
        Ok(())
    }

    fn decide_play(&self, state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
        self.check_play(deal, seat, card)?;
        let mut events = vec![Event::CardPlayed { seat, card }];
        if deal.called == Some(card) {
            events.push(Event::PartnerRevealed { seat, card, taker_alone: Some(seat) == deal.taker });
        }
        let Some(won) = deal.play.completed_by(seat, card, &|t| deal.trick_won(t, &deal.play.tricks)) else {
            return Ok(events);
        };
        // The Excuse goes back to its player, unless it was played to the last trick.
        let excuse_to = won.plays.iter().find(|p| p.card == EXCUSE).map(|p| p.seat).filter(|_| !won.last);
        events.push(Event::TrickWon {
            trick_number: won.number,
            winner: won.winner,
            card: won.card,
            reason: won.reason,
            half_points: won.plays.iter().map(|p| half_points(p.card)).sum(),
            plays: won.plays,
            excuse_to,
        });
        if !won.last {
            return Ok(events);
        }
        let next = self.after(state, &events);
        let d = next.deals.deal.as_ref().expect("the deal is played out");
        let count = count(d, state.players(), &state.options);
        let scoring = score(&facts(&count, state.players()), &state.options);
        let totals: Vec<i64> = (0..state.players()).map(|s| state.deals.scores[s] + scoring.points[s]).collect();
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

    fn legal_cards(&self, deal: &Deal, seat: Seat) -> Vec<Card> {
        let mut cards: Vec<Card> =
            deal.play.hands[seat].iter().copied().filter(|&c| self.check_play(deal, seat, c).is_ok()).collect();
        sort_hand(&mut cards);
        cards
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

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Tarot {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "tarot";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("../rulebooks/tarot.txt");

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
        Ok(State { table: Seating::counter_clockwise(players), options, deals_played: 0, deals: Deals::new(players) })
    }

    crate::status_of_deals!(decks::tarot78);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let players = state.players();
        let dealer = state.deals.next_dealer;
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
            deal_number: state.deals.number + 1,
            deals_played: state.deals_played,
            dealer,
            deck,
            hands,
            dog,
            dog_positions,
            bidding_order: state.table.order_from(state.table.next(dealer)),
            scores: state.deals.scores.clone(),
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
        let deal = state.deals.current()?;
        match command {
            Command::Bid { contract } => self.decide_bid(state, deal, seat, Some(*contract)),
            Command::Pass => self.decide_bid(state, deal, seat, None),
            Command::Call { suit } => self.decide_call(deal, *suit),
            Command::Discard { card } => self.decide_discard(deal, seat, *card),
            Command::AnnounceSlam => self.decide_slam(deal, seat, true),
            Command::DeclineSlam => self.decide_slam(deal, seat, false),
            Command::DeclarePoignee { level } => self.decide_poignee(state, deal, seat, *level),
            Command::DeclareTrost => self.decide_trost(state, deal, seat),
            Command::Play { card } => self.decide_play(state, deal, seat, *card),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
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
                let players = table.seats;
                // The deal carries what it inherits, so it can be replayed on its own.
                state.deals_played = *deals_played;
                state.options = options.clone();
                // Until the deal is played out or cancelled, its dealer is the one shown to deal.
                state.deals.next_dealer = *dealer;
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    dealt: hands.clone(),
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
                    play: TrickPlay::new(table, hands.clone(), table.forehand(*dealer), layout(players).hand),
                    result: None,
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealCancelled { reason, next_dealer, .. } => {
                state.deals.next_dealer = *next_dealer;
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.phase = Phase::DealOver;
                    deal.cancelled = Some(*reason);
                }
            }
            Event::DealScored { count, scoring, totals, .. } => {
                state.deals.scored(&scoring.terms, totals);
                state.deals_played += 1;
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.result = Some((count.clone(), scoring.clone()));
                    state.deals.next_dealer = table.next(deal.dealer);
                }
            }
            Event::MatchEnded { winners, scores } => {
                let outcome = Outcome::most_points(winners, scores);
                state.deals.ended(&outcome.winners, &outcome.explanation);
            }
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                match event {
                    Event::BidMade { seat, contract } => deal.auction.record(*seat, Some(*contract)),
                    Event::Passed { seat } => deal.auction.record(*seat, None),
                    Event::ContractWon { taker, contract } => {
                        deal.taker = Some(*taker);
                        deal.contract = Some(*contract);
                        deal.phase = if table.seats == 5 { Phase::Calling } else { Phase::Dog };
                    }
                    Event::CardCalled { taker, card } => {
                        deal.called = Some(*card);
                        deal.public.insert(*card);
                        deal.partner = (0..table.seats).find(|&s| s != *taker && deal.play.hands[s].contains(card));
                        deal.phase = Phase::Dog;
                    }
                    Event::DogShown { cards, .. } => {
                        let Some(taker) = deal.taker else { return };
                        deal.public.extend(cards.iter().copied());
                        deal.play.hands[taker].extend(cards.iter().copied());
                        sort_hand(&mut deal.play.hands[taker]);
                        deal.dog_taken = true;
                        deal.phase = Phase::Discarding;
                    }
                    Event::DogSetAside { .. } => after_dog(deal),
                    Event::Discarded { seat, card, shown } => {
                        take_card(&mut deal.play.hands[*seat], *card);
                        deal.discards.push(*card);
                        if *shown {
                            deal.public.insert(*card);
                        }
                        if deal.discards.len() >= deal.dog.len() {
                            after_dog(deal);
                        }
                    }
                    Event::SlamAnnounced { seat } => {
                        deal.slam_announced = Some(true);
                        deal.play.trick = Trick::led_by(*seat);
                        deal.phase = Phase::Playing;
                    }
                    Event::SlamDeclined { .. } => {
                        deal.slam_announced = Some(false);
                        deal.phase = Phase::Playing;
                    }
                    Event::PoigneeDeclared { seat, level, trumps } => {
                        deal.public.extend(trumps.iter().copied());
                        deal.poignees[*seat] =
                            Some(PoigneeShown { seat: *seat, level: *level, trumps: trumps.clone() });
                    }
                    Event::TrostDeclared { seat } => deal.trost[*seat] = true,
                    Event::CardPlayed { seat, card } => {
                        deal.play.play(*seat, *card);
                        // The card itself tells the table; `PartnerRevealed` says so in words.
                        if deal.called == Some(*card) {
                            deal.partner_revealed = true;
                        }
                    }
                    Event::PartnerRevealed { .. } => deal.partner_revealed = true,
                    // Where the Excuse goes follows from the trick (see `Deal::excuse_kept_by`).
                    Event::TrickWon { winner, card, reason, .. } => {
                        deal.play.won(*winner, *card, *reason);
                        if deal.play.is_over() {
                            deal.phase = Phase::DealOver;
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
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
                deal.play.hands[seat].iter().map(|&card| Command::Discard { card }).filter(accepted).collect()
            }
            Phase::Slam => vec![Command::AnnounceSlam, Command::DeclineSlam],
            Phase::Playing => {
                let mut moves = self.declarations(state, deal, seat);
                moves.extend(self.legal_cards(deal, seat).into_iter().map(|card| Command::Play { card }));
                moves
            }
            _ => Vec::new(),
        }
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut space: Vec<Command> = Contract::ALL.into_iter().map(|contract| Command::Bid { contract }).collect();
        space.extend([Command::Pass, Command::AnnounceSlam, Command::DeclineSlam, Command::DeclareTrost]);
        space.extend(Poignee::ALL.into_iter().map(|level| Command::DeclarePoignee { level }));
        space.extend(Suit::ALL.into_iter().map(|suit| Command::Call { suit }));
        // Cards to discard or play: the seat's own, and a few it may not hold.
        let mut cards: Vec<Card> =
            vec![PETIT, TWENTY_ONE, EXCUSE, Card::One(Suit::Clubs), suit_card(Suit::Spades, KING)];
        if let Some(hand) = state.deals.deal.as_ref().and_then(|d| d.play.hands.get(seat)) {
            cards.extend(hand);
        }
        cards.sort_by_key(|&c| index78(c));
        cards.dedup();
        space.extend(cards.iter().map(|&card| Command::Discard { card }));
        space.extend(cards.iter().map(|&card| Command::Play { card }));
        space
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

    fn bot_levels(&self) -> Levels {
        Levels::ALL
    }

    /// At most 28 worlds: a playout is a whole deal of 72 cards, and 48 took 22.7 ms of CPU at
    /// p99 (`benches/bots.rs`).
    fn strong_budget(&self) -> crate::bots::Budget {
        crate::bots::Budget { max_samples: 28, ..crate::bots::Budget::STRONG }
    }

    fn basic_move(&self, state: &State, seat: Seat, rng: &mut crate::random::Rng) -> Option<Command> {
        bot::basic_move(state, seat, rng)
    }

    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        bot::candidates(state, seat, self.legal_moves(state, seat))
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut crate::random::Rng) -> Option<State> {
        bot::determinize(state, seat, rng)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bot::standing(state, seat)
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let hand = &deal.play.hands[seat];
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
                let cards = self.legal_cards(deal, seat);
                (!cards.is_empty()).then(|| Command::Play { card: cards[pick(cards.len())] })
            }
            _ => None,
        }
    }
}
