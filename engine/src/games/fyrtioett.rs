//! Fyrtioett (Forty-one): four players in two fixed sides, hearts always trumps, and everything
//! goes counter-clockwise. Each player bids once the tricks he expects to take and scores on his
//! own: the bid's worth when he makes it (a bid of 7 or more is worth double), minus it when he
//! does not. Bids worth less than 11 together throw the cards in. The first player to 41 wins
//! for his side.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bidding::Auction;
use crate::bots;
use crate::cards::{decks, is_permutation, rank_value, sorted, Card, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Status, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Direction, Seat};
use crate::trick::{self, Play, PlayView, Trick, TrickPlay, WinReason};

#[derive(Default)]
pub struct Fyrtioett;

const SEATS: usize = 4;
const TABLE: seat::Table = seat::Table { seats: SEATS, direction: Direction::CounterClockwise };
const TRICKS: u8 = 13;
const TRUMPS: Suit = Suit::Hearts;
/// The dealer hands each player, forehand first, one card and then six packets of two.
const PACKETS: [usize; 7] = [1, 2, 2, 2, 2, 2, 2];
/// The bids must be worth this much together for the deal to be played.
pub const MINIMUM_TOTAL: i64 = 11;
/// From this many tricks a bid is worth double.
const DOUBLE_FROM: u8 = 7;
const LOWEST_BID: u8 = 1;
pub const DEFAULT_TARGET: i64 = 41;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "fyrtioett.deal.players";
    pub const PACK: &str = "fyrtioett.deal.pack";
    pub const PACKETS: &str = "fyrtioett.deal.packets";
    pub const DEALER_ROTATES: &str = "fyrtioett.deal.dealer-rotates";

    pub const BID_ORDER: &str = "fyrtioett.bid.order";
    pub const THROW_IN: &str = "fyrtioett.bid.throw-in";

    pub const FIRST_LEAD: &str = "fyrtioett.play.first-lead";
    pub const FOLLOW_SUIT: &str = "fyrtioett.play.follow-suit";
    pub const VOID: &str = "fyrtioett.play.void";
    pub const TRICK_WINNER: &str = "fyrtioett.play.trick-winner";
    pub const WINNER_LEADS: &str = "fyrtioett.play.winner-leads";

    pub const MADE: &str = "fyrtioett.score.made";
    pub const FAILED: &str = "fyrtioett.score.failed";

    pub const TARGET: &str = "fyrtioett.end.target";
    pub const HIGHER_SCORE: &str = "fyrtioett.end.higher-score";
    pub const PARTNER_DECIDES: &str = "fyrtioett.end.partner-decides";

    pub const OPTION_TARGET: &str = "fyrtioett.variant.target";

    pub const PARTNERSHIPS: &str = "fyrtioett.house.partnerships";
    pub const FIRST_DEALER: &str = "fyrtioett.house.first-dealer";
    pub const BID_RANGE: &str = "fyrtioett.house.bid-range";
    pub const LAST_BIDDER: &str = "fyrtioett.house.last-bidder";
    pub const TIE_PLAYS_ON: &str = "fyrtioett.house.tie-plays-on";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The score a player must reach to win the match for his side (41, hence the name).
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub target: i64,
}

impl Default for Options {
    fn default() -> Options {
        Options { target: DEFAULT_TARGET }
    }
}

// ---------------------------------------------------------------------------------------------
// State

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    auction: Auction<u8>,
    thrown_in: bool,
    play: TrickPlay,
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    deals: Deals<Deal>,
    winning_side: Option<usize>,
}

fn side_of(seat: Seat) -> usize {
    TABLE.side(seat)
}

fn seats_of(side: usize) -> [Seat; 2] {
    [side, side + 2]
}

fn hearts_trump(trick: &Trick) -> (Seat, Card, WinReason) {
    trick::winner(trick, Some(TRUMPS))
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.thrown_in || self.play.is_over() {
            return Vec::new();
        }
        match self.auction.next_bidder() {
            Some(bidder) => vec![bidder],
            None => vec![self.play.to_play()],
        }
    }

    fn is_live(&self) -> bool {
        !self.thrown_in && !self.play.is_over()
    }

    fn phase(&self) -> Phase {
        if self.thrown_in {
            Phase::ThrownIn
        } else if !self.auction.is_complete() {
            Phase::Bidding
        } else if self.play.is_over() {
            Phase::DealOver
        } else {
            Phase::Playing
        }
    }
}

impl Deal {
    fn forehand(&self) -> Seat {
        TABLE.forehand(self.dealer)
    }

    fn bids(&self) -> [Option<u8>; SEATS] {
        std::array::from_fn(|s| self.auction.bid_of(s).copied())
    }

    fn total_worth(&self) -> i64 {
        self.auction.bids.iter().map(|&(_, b)| worth(b)).sum()
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Bid this many tricks (1 to 13) for oneself.
    Bid {
        #[cfg_attr(feature = "openapi", schema(maximum = 255))]
        tricks: u8,
    },
    /// The last bidder gives up making the bids worth 11: everyone throws in the cards.
    ThrowIn,
    Play {
        card: Card,
    },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        /// The seat on the dealer's right: first to receive cards, to bid and to lead.
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's hand, sorted by suit and rank.
        hands: [Vec<Card>; SEATS],
        /// Every player's score before this deal, by seat.
        scores: [i64; SEATS],
        /// The match's options, which this deal is played under.
        options: Options,
    },
    BidMade {
        seat: Seat,
        tricks: u8,
        /// What the bid is worth: the tricks, doubled from 7 on.
        worth: i64,
        /// The worth of every bid so far, this one included.
        total_worth: i64,
    },
    /// Four bids worth 11 or more: the tricks are played, forehand leading.
    BiddingEnded {
        /// By seat.
        bids: [u8; SEATS],
        total_worth: i64,
        first_lead: Seat,
    },
    /// The last bidder threw in: the bids were worth less than 11, and the next dealer deals.
    CardsThrownIn {
        seat: Seat,
        /// The three bids made, by seat; null for the seat that threw in.
        bids: [Option<u8>; SEATS],
        total_worth: i64,
        next_dealer: Seat,
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
        /// By seat.
        bids: [u8; SEATS],
        tricks_taken: [u8; SEATS],
        /// By seat, whether the player took at least the tricks he bid.
        made: [bool; SEATS],
        /// The deal's score, by seat, term by term.
        terms: Vec<ScoreTerm>,
        points: [i64; SEATS],
        /// Every player's score after this deal, by seat.
        scores: [i64; SEATS],
    },
    /// Players of both sides reached the target with equal scores and equal partners: another
    /// deal is played.
    TargetTied {
        scores: [i64; SEATS],
        target: i64,
        rule: String,
        explanation: Text,
    },
    MatchEnded {
        side: usize,
        winners: Vec<Seat>,
        scores: [i64; SEATS],
        target: i64,
        /// The rule that gave the side the match.
        rule: String,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Rules that are pure functions, kept apart so tests can reach them directly

/// What a bid is worth: its tricks from 1 to 6, double from 7 on.
pub fn worth(tricks: u8) -> i64 {
    let t = i64::from(tricks);
    if tricks >= DOUBLE_FROM {
        2 * t
    } else {
        t
    }
}

/// The hands as the dealer gives them: forehand first and on counter-clockwise, one card each,
/// then six rounds of two cards each.
pub fn deal_in_packets(dealer: Seat, deck: &[Card]) -> [Vec<Card>; SEATS] {
    let mut hands: [Vec<Card>; SEATS] = Default::default();
    let mut next = 0;
    for packet in PACKETS {
        for seat in TABLE.order_from(TABLE.forehand(dealer)) {
            hands[seat].extend_from_slice(&deck[next..next + packet]);
            next += packet;
        }
    }
    hands
}

/// A player's score for the deal: the bid's worth if he took at least that many tricks (no more
/// for overtricks), else minus it.
pub fn score_term(seat: Seat, bid: u8, taken: u8) -> ScoreTerm {
    let w = worth(bid);
    let double =
        if bid >= DOUBLE_FROM { (format!(" (2 × {bid})"), format!(" (2 × {bid})")) } else { Default::default() };
    if taken >= bid {
        ScoreTerm::new(
            seat,
            w,
            rule::MADE,
            format!("Plats {seat} bjöd {bid} och tog {taken} stick: {w} poäng{}.", double.0),
            format!("Seat {seat} bid {bid} and took {taken} tricks: {w} points{}.", double.1),
        )
    } else {
        ScoreTerm::new(
            seat,
            -w,
            rule::FAILED,
            format!("Plats {seat} bjöd {bid} men tog bara {taken} stick: −{w} poäng{}.", double.0),
            format!("Seat {seat} bid {bid} but took only {taken} tricks: −{w} points{}.", double.1),
        )
    }
}

/// How the scores after a deal stand against the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nobody has reached the target.
    PlayOn,
    /// The side wins the match under the rule.
    Won { side: usize, rule: &'static str, explanation: Text },
    /// Both sides reached it with equal scores and equal partners.
    Tied { explanation: Text },
}

/// A side's best player and the partner, for comparing sides that both reached the target.
fn leader_and_partner(scores: &[i64; SEATS], side: usize) -> (Seat, Seat) {
    let [a, b] = seats_of(side);
    if scores[b] > scores[a] {
        (b, a)
    } else {
        (a, b)
    }
}

/// Who wins, if anyone: the first player to the target wins for his side; when players of both
/// sides reach it in the same deal, the higher score wins, and on equal scores the partners'.
pub fn verdict(scores: &[i64; SEATS], target: i64) -> Verdict {
    let reached: Vec<usize> = (0..2).filter(|&side| seats_of(side).iter().any(|&s| scores[s] >= target)).collect();
    let [a0, a1] = [leader_and_partner(scores, 0), leader_and_partner(scores, 1)];
    match reached[..] {
        [] => Verdict::PlayOn,
        [side] => {
            let (best, _) = leader_and_partner(scores, side);
            let [x, y] = seats_of(side);
            let p = scores[best];
            Verdict::Won {
                side,
                rule: rule::TARGET,
                explanation: Text::new(
                    format!("Plats {best} nådde {p} poäng, minst målet {target}, och vann partiet för lag {side} (plats {x} och {y})."),
                    format!("Seat {best} reached {p} points, at least the target of {target}, and won the match for side {side} (seats {x} and {y})."),
                ),
            }
        }
        _ => {
            let ((l0, p0), (l1, p1)) = (a0, a1);
            let (s0, s1) = (scores[l0], scores[l1]);
            let both_sv = format!("Plats {l0} ({s0}) och plats {l1} ({s1}) från olika lag nådde båda målet {target}");
            let both_en = format!(
                "Seat {l0} ({s0}) and seat {l1} ({s1}), of different sides, both reached the target of {target}"
            );
            if s0 != s1 {
                let side = if s0 > s1 { 0 } else { 1 };
                let best = if side == 0 { l0 } else { l1 };
                return Verdict::Won {
                    side,
                    rule: rule::HIGHER_SCORE,
                    explanation: Text::new(
                        format!("{both_sv}; plats {best} har flest poäng och vann partiet för lag {side}."),
                        format!("{both_en}; seat {best} has more points and won the match for side {side}."),
                    ),
                };
            }
            let (q0, q1) = (scores[p0], scores[p1]);
            if q0 != q1 {
                let side = if q0 > q1 { 0 } else { 1 };
                let partner = if side == 0 { p0 } else { p1 };
                return Verdict::Won {
                    side,
                    rule: rule::PARTNER_DECIDES,
                    explanation: Text::new(
                        format!("{both_sv} med lika många poäng; partnern avgör, och plats {partner} har {} mot {}, så lag {side} vann partiet.", q0.max(q1), q0.min(q1)),
                        format!("{both_en} with equal points; the partners decide, and seat {partner} has {} against {}, so side {side} won the match.", q0.max(q1), q0.min(q1)),
                    ),
                };
            }
            Verdict::Tied {
                explanation: Text::new(
                    format!("{both_sv} med lika många poäng, och partnerna har också lika ({q0}); en giv till spelas."),
                    format!(
                        "{both_en} with equal points, and the partners are equal too ({q0}); another deal is played."
                    ),
                ),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn last_bidder_refusal(sv: String, en: String) -> RuleViolation {
    RuleViolation::new(rule::LAST_BIDDER, sv, en)
}

fn decide_bid(deal: &Deal, seat: Seat, tricks: u8) -> Result<Vec<Event>, RuleViolation> {
    if !(LOWEST_BID..=TRICKS).contains(&tricks) {
        return Err(RuleViolation::new(
            rule::BID_RANGE,
            format!("Du bjöd {tricks} stick; ett bud är 1 till 13 stick."),
            format!("You bid {tricks} tricks; a bid is 1 to 13 tricks."),
        ));
    }
    let before = deal.total_worth();
    let total_worth = before + worth(tricks);
    let last = deal.auction.is_last(seat);
    if last && total_worth < MINIMUM_TOTAL {
        let w = worth(tricks);
        return Err(last_bidder_refusal(
            format!("Du bjöd {tricks} (värt {w}), men buden blir då bara värda {total_worth}; du bjuder minst så att summan blir 11, eller kastar korten."),
            format!("You bid {tricks} (worth {w}), but the bids would then be worth only {total_worth}; you bid enough to make the total 11, or throw in the cards."),
        ));
    }
    let mut events = vec![Event::BidMade { seat, tricks, worth: worth(tricks), total_worth }];
    if last {
        let mut bids = deal.bids();
        bids[seat] = Some(tricks);
        events.push(Event::BiddingEnded {
            bids: bids.map(|b| b.expect("every seat has bid")),
            total_worth,
            first_lead: deal.forehand(),
        });
    }
    Ok(events)
}

fn decide_throw_in(deal: &Deal, seat: Seat) -> Result<Vec<Event>, RuleViolation> {
    let total_worth = deal.total_worth();
    if !deal.auction.is_last(seat) {
        return Err(last_bidder_refusal(
            "Bara den som bjuder sist kan kasta korten; du bjuder minst 1 stick.".into(),
            "Only the last to bid can throw in the cards; you bid at least 1 trick.".into(),
        ));
    }
    if total_worth >= MINIMUM_TOTAL {
        return Err(last_bidder_refusal(
            format!("Buden är redan värda {total_worth}, minst 11, så det blir spel; du bjuder minst 1 stick."),
            format!("The bids are already worth {total_worth}, at least 11, so the deal is played; you bid at least 1 trick."),
        ));
    }
    Ok(vec![Event::CardsThrownIn {
        seat,
        bids: deal.bids(),
        total_worth,
        next_dealer: TABLE.next(deal.dealer),
        rule: rule::THROW_IN.into(),
    }])
}

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    deal.play.check_held(seat, card)?;
    deal.play.check_follow(seat, card, rule::FOLLOW_SUIT)?;
    let trick_number = deal.play.number() as u8;
    let mut events = vec![Event::CardPlayed { seat, card, trick_number }];
    if let Some(won) = deal.play.completed_by(seat, card, &hearts_trump) {
        events.push(Event::TrickWon {
            trick_number,
            winner: won.winner,
            card: won.card,
            reason: won.reason,
            plays: won.plays,
        });
        if won.last {
            events.extend(score_deal(state, deal, std::array::from_fn(|s| won.taken[s] as u8)));
        }
    }
    Ok(events)
}

fn score_deal(state: &State, deal: &Deal, tricks_taken: [u8; SEATS]) -> Vec<Event> {
    let bids = deal.bids().map(|b| b.expect("a deal is played only once everyone has bid"));
    // Scores are written from forehand on, the order the keeper heard the bids in.
    let terms: Vec<ScoreTerm> =
        TABLE.order_from(deal.forehand()).into_iter().map(|s| score_term(s, bids[s], tricks_taken[s])).collect();
    let (points, scores) = state.deals.tally::<SEATS>(&terms);
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        bids,
        tricks_taken,
        made: std::array::from_fn(|s| tricks_taken[s] >= bids[s]),
        terms,
        points,
        scores,
    }];
    let target = state.options.target;
    match verdict(&scores, target) {
        Verdict::PlayOn => {}
        Verdict::Won { side, rule, explanation } => events.push(Event::MatchEnded {
            side,
            winners: seats_of(side).to_vec(),
            scores,
            target,
            rule: rule.into(),
            explanation,
        }),
        Verdict::Tied { explanation } => {
            events.push(Event::TargetTied { scores, target, rule: rule::TIE_PLAYS_ON.into(), explanation })
        }
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The table view

/// Where the match is: `waiting-for-deal` before the first deal, `bidding` while the players
/// bid in turn, `playing` the tricks, `deal-over` once the deal is scored and the next is
/// awaited, `thrown-in` once the bids fell short of 11 and the next dealer is to deal,
/// `finished` once a side has won the match.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No deal has been dealt yet.
    WaitingForDeal,
    /// The players bid once each, counter-clockwise from forehand.
    Bidding,
    /// The thirteen tricks are being played.
    Playing,
    /// The deal is played out and scored; the next deal is awaited.
    DealOver,
    /// The bids were worth less than 11 and the cards were thrown in; the next dealer deals.
    ThrownIn,
    /// A player reached the target and won the match for his side.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// The table as one viewer sees it: the match, and from the first deal on the deal being played
/// (or the last one). A seat sees its own hand; a finished or thrown-in deal's record shows every
/// hand, the deck and every trick. The match's `scores` are by seat: each player scores alone.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, scores (by seat), who is to act, how it ended.
    #[serde(flatten)]
    pub deals: MatchView,

    /// The options the match is played with.
    pub options: Options,
    /// The score a player must reach to win the match for his side.
    pub target: i64,
    /// What the four bids must be worth together for the deal to be played: always 11.
    pub minimum_total_worth: i64,
    /// The seats of each side, side 0 first: seats 0 and 2 against seats 1 and 3.
    pub sides: [[Seat; 2]; 2],
    /// The side that won the match: null until the match is over.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winning_side: Option<usize>,
    /// The viewer's side: only in a seat's own view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub side: Option<usize>,
    /// The deal's forehand, the seat on the dealer's right: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// By seat, the tricks that player bid, null until he has bid: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bids: Option<[Option<u8>; SEATS]>,
    /// By seat, what that player's bid is worth, null until he has bid: absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bid_worth: Option<[Option<i64>; SEATS]>,
    /// What the bids made so far are worth together: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub total_worth: Option<i64>,
    /// Whether the cards of this deal were thrown in: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub thrown_in: Option<bool>,
    /// The pack as it was dealt, top card first: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// The card play of the deal: absent before the first deal.
    #[serde(flatten)]
    pub play: PlayView,
    /// The viewer's own hand: only in a seat's view, from the first deal on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

// ---------------------------------------------------------------------------------------------
// The bot

fn is_trump(card: Card) -> bool {
    card.is_suit(TRUMPS)
}

/// A rough count of the tricks a hand takes with hearts as trumps: high cards in the side suits,
/// high and long trumps, and short side suits to ruff in.
fn estimate_tricks(hand: &[Card]) -> f64 {
    let mut tricks = 0.0;
    let trumps = hand.iter().filter(|&&c| is_trump(c)).count();
    for suit in Suit::ALL {
        let ranks: Vec<u8> = hand.iter().filter(|c| c.is_suit(suit)).map(|&c| rank_value(c)).collect();
        let n = ranks.len();
        let has = |r: u8| ranks.contains(&r);
        if suit == TRUMPS {
            tricks += [(14, 1, 1.0), (13, 2, 0.8), (12, 3, 0.6), (11, 4, 0.4)]
                .iter()
                .filter(|&&(r, len, _)| has(r) && n >= len)
                .map(|&(_, _, t)| t)
                .sum::<f64>();
            tricks += n.saturating_sub(3) as f64 * 0.7;
            continue;
        }
        if has(14) {
            tricks += 1.0;
        }
        if has(13) && n >= 2 {
            tricks += if has(14) { 0.8 } else { 0.5 };
        }
        if n <= 1 && trumps >= 3 {
            tricks += 0.5 * (2 - n) as f64;
        }
    }
    tricks
}

fn bot_bid(deal: &Deal, seat: Seat, rng: &mut Rng) -> Command {
    let own = estimate_tricks(&deal.play.hands[seat]) + (rng.below(3) as f64 - 1.0) * 0.5;
    let bid = (own.round() as i64).clamp(1, i64::from(TRICKS)) as u8;
    if !deal.auction.is_last(seat) {
        return Command::Bid { tricks: bid };
    }
    let before = deal.total_worth();
    let needed =
        (LOWEST_BID..=TRICKS).find(|&b| before + worth(b) >= MINIMUM_TOTAL).expect("a bid of 7 always reaches 11");
    if bid >= needed {
        Command::Bid { tricks: bid }
    } else if f64::from(needed) <= own + 1.0 || rng.below(4) == 0 {
        // Stretching a little keeps the game going; a hopeless stretch throws in.
        Command::Bid { tricks: needed }
    } else {
        Command::ThrowIn
    }
}

fn bot_play(deal: &Deal, seat: Seat, rng: &mut Rng) -> Card {
    let legal = deal.play.following(seat);
    if legal.len() == 1 || rng.below(6) == 0 {
        return legal[rng.below(legal.len())];
    }
    // Cheapest first: side suits before trumps, low before high.
    let cost = |c: &Card| (is_trump(*c), rank_value(*c));
    let cheapest = |cards: &[Card]| cards.iter().copied().min_by_key(cost);
    let trick = &deal.play.trick;
    if trick.is_empty() {
        let aces: Vec<Card> = legal.iter().copied().filter(|&c| !is_trump(c) && rank_value(c) == 14).collect();
        return cheapest(&aces).or_else(|| cheapest(&legal)).expect("legal");
    }
    let (best_seat, _, _) = hearts_trump(trick);
    let low = cheapest(&legal).expect("legal");
    if TABLE.partner(seat) == best_seat {
        return low;
    }
    let winning = crate::trick::taking(trick, seat, &legal, |t| hearts_trump(t).0);
    let last = trick.plays.len() == SEATS - 1;
    match cheapest(&winning) {
        // Second or third in hand, a side-suit winner is played high to hold off the rest.
        Some(w) if !last && !is_trump(w) => winning.iter().copied().max_by_key(cost).unwrap_or(w),
        Some(w) => w,
        None => low,
    }
}

/// The basic bot's bid: the hand's estimate rounded, and as last bidder the least bid that makes
/// the total 11 when that is within a trick of the estimate, else a throw-in.
fn basic_bid(deal: &Deal, seat: Seat) -> Command {
    let own = estimate_tricks(&deal.play.hands[seat]);
    let bid = (own.round() as i64).clamp(1, i64::from(TRICKS)) as u8;
    if !deal.auction.is_last(seat) {
        return Command::Bid { tricks: bid };
    }
    let needed = needed_by_last(deal);
    if bid >= needed {
        Command::Bid { tricks: bid }
    } else if f64::from(needed) <= own + 1.0 {
        Command::Bid { tricks: needed }
    } else {
        Command::ThrowIn
    }
}

/// The least bid that brings the bids to 11 together.
fn needed_by_last(deal: &Deal) -> u8 {
    let before = deal.total_worth();
    (LOWEST_BID..=TRICKS).find(|&b| before + worth(b) >= MINIMUM_TOTAL).expect("a bid of 7 always reaches 11")
}

/// The basic bot's card: take tricks while short of the bid; once it is made, keep taking them
/// from the other side (each trick they lose may break a bid of theirs) but let a partner who
/// still needs tricks win.
fn basic_play(deal: &Deal, seat: Seat) -> Option<Card> {
    let partner = TABLE.partner(seat);
    let short = |s: Seat| deal.play.taken[s] < u32::from(deal.auction.bid_of(s).copied().unwrap_or(0));
    let yield_to = (short(partner) || !short(seat)).then_some(partner);
    let last = deal.play.trick.plays.len() + 1 == SEATS;
    bots::basic_card(&deal.play.following(seat), &deal.play.trick, Some(TRUMPS), seat, yield_to, last, bots::Aim::Take)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Fyrtioett {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "fyrtioett";
    const PLAYERS: RangeInclusive<usize> = SEATS..=SEATS;
    const RULEBOOK: &'static str = include_str!("rulebooks/fyrtioett.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        [DEFAULT_TARGET, 1, 12, 60].into_iter().map(|target| Options { target }).collect()
    }

    fn setup(&self, _players: usize, options: Options) -> Result<State, SetupError> {
        deals::check_target(options.target)?;
        Ok(State { options, deals: Deals::new(SEATS), winning_side: None })
    }

    fn status(&self, state: &State) -> Status {
        state.deals.status(decks::standard52)
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals.number
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let hands = deal_in_packets(dealer, &deck);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: TABLE.forehand(dealer),
            deck,
            hands: hands.map(sorted),
            scores: std::array::from_fn(|s| state.deals.scores[s]),
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        let bidding = !deal.auction.is_complete();
        match *command {
            Command::Bid { tricks } if bidding => decide_bid(deal, seat, tricks),
            Command::ThrowIn if bidding => decide_throw_in(deal, seat),
            Command::Play { card } if !bidding => decide_play(state, deal, seat, card),
            Command::Play { .. } => Err(RuleViolation::wrong_phase(
                "korten spelas först när alla fyra har bjudit",
                "the cards are played once all four have bid",
            )),
            Command::Bid { .. } | Command::ThrowIn => Err(RuleViolation::wrong_phase(
                "budgivningen är över, nu spelas korten",
                "the bidding is over, the cards are being played",
            )),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, deck, hands, scores, options, .. } => {
                state.options = options.clone();
                state.deals.next_dealer = TABLE.next(*dealer);
                let forehand = TABLE.forehand(*dealer);
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    auction: Auction::new(TABLE.order_from(forehand)),
                    thrown_in: false,
                    play: TrickPlay::new(TABLE, hands.to_vec(), forehand, TRICKS as usize),
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { terms, scores, .. } => state.deals.scored(terms, scores),
            Event::MatchEnded { side, winners, explanation, .. } => {
                state.winning_side = Some(*side);
                state.deals.ended(winners, explanation);
            }
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                match event {
                    Event::BidMade { seat, tricks, .. } => deal.auction.record(*seat, *tricks),
                    Event::BiddingEnded { first_lead, .. } => deal.play.trick = Trick::led_by(*first_lead),
                    Event::CardsThrownIn { .. } => deal.thrown_in = true,
                    Event::CardPlayed { seat, card, .. } => deal.play.play(*seat, *card),
                    Event::TrickWon { winner, card, reason, .. } => deal.play.won(*winner, *card, *reason),
                    _ => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        if deal.auction.is_complete() {
            return deal.play.following(seat).into_iter().map(|card| Command::Play { card }).collect();
        }
        let before = deal.total_worth();
        let last = deal.auction.is_last(seat);
        let throw_in = (last && before < MINIMUM_TOTAL).then_some(Command::ThrowIn);
        (LOWEST_BID..=TRICKS)
            .filter(|&b| !last || before + worth(b) >= MINIMUM_TOTAL)
            .map(|tricks| Command::Bid { tricks })
            .chain(throw_in)
            .collect()
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        (0..=TRICKS + 1)
            .map(|tricks| Command::Bid { tricks })
            .chain([Command::ThrowIn])
            .chain(decks::standard52().into_iter().map(|card| Command::Play { card }))
            .collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(SEATS);
        let record = viewer == Viewer::Record;
        let deal = state.deals.deal.as_ref();
        let mine = deal.zip(me);
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, SEATS, deal.map(|d| d.dealer)),
            options: state.options.clone(),
            target: state.options.target,
            minimum_total_worth: MINIMUM_TOTAL,
            sides: [seats_of(0), seats_of(1)],
            winning_side: state.winning_side,
            side: me.map(side_of),
            forehand: deal.map(Deal::forehand),
            bids: deal.map(Deal::bids),
            bid_worth: deal.map(|d| d.bids().map(|b| b.map(worth))),
            total_worth: deal.map(Deal::total_worth),
            thrown_in: deal.map(|d| d.thrown_in),
            deck: deal.filter(|_| record).map(|d| d.deck.clone()),
            play: deal.map(|d| d.play.view(record)).unwrap_or_default(),
            hand: mine.map(|(d, s)| d.play.hands[s].clone()),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        match event {
            // Without a live deal of its own, the event belongs to a deal that is over.
            Event::DealStarted { deal_number, hands, .. }
                if viewer != Viewer::Record
                    && !deal_over
                    && state.deals.live().is_some_and(|d| d.number == *deal_number) =>
            {
                deals::hide_hands(&mut full, hands, viewer)
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        deal.play.hand_secrets(|_, _| false)
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let scores: [i64; SEATS] = std::array::from_fn(|s| state.deals.scores[s]);
        match (state.winning_side, &state.deals.outcome) {
            (Some(side), Some(outcome)) => {
                if !matches!(verdict(&scores, state.options.target), Verdict::Won { side: s, .. } if s == side) {
                    return Err(format!("side {side} won with scores {scores:?} and target {}", state.options.target));
                }
                if outcome.winners != seats_of(side) {
                    return Err(format!("side {side} won but the winners are {:?}", outcome.winners));
                }
            }
            (None, None) => {}
            _ => return Err("a winning side without an outcome, or the reverse".into()),
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        if !is_permutation(&deal.deck, &pack) {
            return Err("the recorded deck is not a pack of 52".into());
        }
        let dealt = deal_in_packets(deal.dealer, &deal.deck);
        deal.play.check(&pack, &[], |_| TRICKS as usize, &hearts_trump)?;
        let order = TABLE.order_from(deal.forehand());
        let bidders: Vec<Seat> = deal.auction.bids.iter().map(|&(s, _)| s).collect();
        if deal.auction.order != order || bidders != order[..bidders.len()] {
            return Err(format!("bids by {bidders:?}, not in turn from forehand {:?}", deal.forehand()));
        }
        if deal.auction.bids.iter().any(|&(_, b)| !(LOWEST_BID..=TRICKS).contains(&b)) {
            return Err(format!("a bid out of range: {:?}", deal.auction.bids));
        }
        let played = deal.play.tricks.len() + deal.play.trick.plays.len();
        if deal.thrown_in && (bidders.len() != SEATS - 1 || deal.total_worth() >= MINIMUM_TOTAL || played > 0) {
            return Err(format!("thrown in after bids {:?} and {played} cards played", deal.auction.bids));
        }
        if played > 0 && (!deal.auction.is_complete() || deal.total_worth() < MINIMUM_TOTAL) {
            return Err(format!("cards played after bids {:?}", deal.auction.bids));
        }
        if played == 0 && deal.play.hands.iter().zip(&dealt).any(|(h, d)| sorted(d.clone()) != *h) {
            return Err("the hands are not those the deck deals in packets".into());
        }
        Ok(())
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let mut rng = Rng::new(seed);
        if deal.auction.is_complete() {
            Some(Command::Play { card: bot_play(deal, seat, &mut rng) })
        } else {
            Some(bot_bid(deal, seat, &mut rng))
        }
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        if deal.auction.is_complete() {
            basic_play(deal, seat).map(|card| Command::Play { card })
        } else {
            Some(basic_bid(deal, seat))
        }
    }

    /// Bids within two tricks of the hand's estimate, the last bidder's least bid that reaches
    /// 11, and the throw-in: a bid of 13 on a three-trick hand is never worth a playout.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let moves = self.legal_moves(state, seat);
        let Some(deal) = state.deals.acting(seat).filter(|d| !d.auction.is_complete()) else { return moves };
        let own = estimate_tricks(&deal.play.hands[seat]);
        let needed = if deal.auction.is_last(seat) { needed_by_last(deal) } else { LOWEST_BID };
        let sensible = |c: &Command| match *c {
            Command::Bid { tricks } => (f64::from(tricks) - own).abs() <= 2.0 || tricks == needed,
            _ => true,
        };
        moves.into_iter().filter(sensible).collect()
    }

    /// The deal as `seat` knows it: its own hand, the bids made, the cards played; the other
    /// hands dealt afresh (see [`bots::resample_play`]).
    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        state.deals.live()?;
        let mut world = state.clone();
        let w = world.deals.live_mut()?;
        bots::resample_play(&mut w.play, seat, &decks::standard52(), &[], &[], &mut [], rng);
        // Not the deck as dealt (which nobody may see), but the same cards.
        w.deck = w.play.hands.iter().flatten().copied().chain(w.play.played().map(|(_, c)| c)).collect();
        Some(world)
    }

    /// The side's two scores less the other side's: every point a partner makes brings the side
    /// nearer to 41 just as one's own does.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let scores = &state.deals.scores;
        let side = |s: usize| seats_of(s).iter().map(|&p| scores[p]).sum::<i64>();
        (side(side_of(seat)) - side(1 - side_of(seat))) as f64
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
    use serde_json::json;

    /// The shared test driver: every event taken through JSON (as it is stored) and the books
    /// checked after each one.
    type M = Driver<Fyrtioett>;

    use crate::simulate::four_hands as hands;

    /// Seat 0 holds every heart and takes every trick; the others hold one suit each.
    fn by_suit() -> [Vec<Card>; SEATS] {
        hands([
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        ])
    }

    /// The pack in the order that deals `hands` in packets from `dealer`.
    fn deck_for(dealer: Seat, hands: &[Vec<Card>; SEATS]) -> Vec<Card> {
        let mut next = [0; SEATS];
        let mut deck = Vec::new();
        for packet in PACKETS {
            for seat in TABLE.order_from(TABLE.forehand(dealer)) {
                deck.extend_from_slice(&hands[seat][next[seat]..next[seat] + packet]);
                next[seat] += packet;
            }
        }
        deck
    }

    fn bid(tricks: u8) -> Command {
        Command::Bid { tricks }
    }

    fn play(code: &str) -> Command {
        Command::Play { card: card(code) }
    }

    impl Driver<Fyrtioett> {
        fn with(options: Value) -> M {
            M::new(4, serde_json::from_value(options).unwrap())
        }

        /// Deals these hands, whoever deals.
        fn deal_hands(&mut self, hands: &[Vec<Card>; SEATS]) -> Vec<Event> {
            let deck = deck_for(self.state.deals.next_dealer, hands);
            self.deal(deck)
        }

        /// A deal of these hands by seat 0 that inherits `scores`, as a replayed deal would.
        fn deal_with_scores(&mut self, hands: &[Vec<Card>; SEATS], scores: [i64; SEATS]) {
            let deck = deck_for(0, hands);
            self.apply(vec![Event::DealStarted {
                deal_number: 1,
                dealer: 0,
                forehand: 3,
                hands: deal_in_packets(0, &deck).map(sorted),
                deck,
                scores,
                options: self.state.options.clone(),
            }]);
        }

        /// Bids in turn, forehand first.
        fn bids(&mut self, tricks: &[u8]) -> Vec<Event> {
            let mut events = Vec::new();
            for &t in tricks {
                let seat = self.to_act()[0];
                events.extend(self.ok(seat, bid(t)));
            }
            events
        }

        fn rule_of(&self, seat: Seat, command: Command) -> String {
            let v = self.refused(seat, command);
            assert!(!v.explanation.sv.is_empty() && !v.explanation.en.is_empty());
            v.rule
        }

        fn view(&self, viewer: Viewer) -> Value {
            serde_json::to_value(Fyrtioett.view(&self.state, viewer)).unwrap()
        }
    }

    // --- the text's worked examples -----------------------------------------------------------

    #[test]
    fn worked_examples_a_bid_is_worth_its_tricks_and_double_from_seven() {
        for t in 1..=6 {
            assert_eq!(worth(t), i64::from(t));
        }
        // "7 stick = 14 poäng, 8 stick = 16 poäng".
        assert_eq!((worth(7), worth(8), worth(13)), (14, 16, 26));
    }

    #[test]
    fn worked_examples_made_bids_score_their_worth_and_failed_ones_minus_it() {
        let term = |bid, taken| {
            let t = score_term(1, bid, taken);
            (t.points, t.rule)
        };
        // Bid 4: 4 points with 4 tricks or more, nothing for overtricks.
        assert_eq!(term(4, 4), (4, rule::MADE.to_string()));
        assert_eq!(term(4, 9), (4, rule::MADE.to_string()));
        // Bid 8 and made: 16.
        assert_eq!(term(8, 8), (16, rule::MADE.to_string()));
        // Bid 5 and fewer taken: −5; a failed 7 or more costs double.
        assert_eq!(term(5, 4), (-5, rule::FAILED.to_string()));
        assert_eq!(term(7, 6), (-14, rule::FAILED.to_string()));
        assert_eq!(term(8, 0), (-16, rule::FAILED.to_string()));
        let t = score_term(2, 8, 10);
        assert!(t.explanation.en.contains("bid 8 and took 10 tricks: 16 points (2 × 8)"), "{}", t.explanation.en);
    }

    #[test]
    fn worked_example_through_play_overtricks_count_nothing_and_failures_cost() {
        let mut m = M::with(json!({}));
        m.deal_hands(&by_suit());
        // Seat 0 deals, so seat 3 on its right bids first: 5, 2, 3, and seat 0 bids 8 (16).
        let events = m.bids(&[5, 2, 3, 8]);
        assert_eq!(events.last(), Some(&Event::BiddingEnded { bids: [8, 3, 2, 5], total_worth: 26, first_lead: 3 }));
        assert_eq!(m.to_act(), [3], "forehand leads");
        m.finish_deal();
        let Some(Event::DealScored { bids, tricks_taken, made, terms, points, scores, .. }) =
            m.log.iter().rev().find(|e| matches!(e, Event::DealScored { .. })).cloned()
        else {
            panic!()
        };
        assert_eq!((bids, tricks_taken, made), ([8, 3, 2, 5], [13, 0, 0, 0], [true, false, false, false]));
        assert_eq!(points, [16, -3, -2, -5]);
        assert_eq!(scores, [16, -3, -2, -5]);
        // Written from forehand on, as the bids were heard.
        assert_eq!(terms.iter().map(|t| t.to).collect::<Vec<_>>(), [3, 2, 1, 0]);
        assert_eq!(m.view(Viewer::Spectator)["phase"], "deal-over");
    }

    // --- the deal -----------------------------------------------------------------------------

    #[test]
    fn cards_go_counter_clockwise_one_then_six_packets_of_two() {
        let mut m = M::with(json!({}));
        let deck = decks::standard52();
        let events = m.deal(deck.clone());
        let Event::DealStarted { dealer, forehand, hands, .. } = &events[0] else { panic!() };
        assert_eq!((*dealer, *forehand), (0, 3), "forehand sits on the dealer's right");
        // Seat 3 gets card 0, then cards 4-5, 12-13, ...; seat 0 (the dealer) card 3, then 10-11.
        let at = |is: &[usize]| sorted(is.iter().map(|&i| deck[i]).collect());
        assert_eq!(hands[3], at(&[0, 4, 5, 12, 13, 20, 21, 28, 29, 36, 37, 44, 45]));
        assert_eq!(hands[2], at(&[1, 6, 7, 14, 15, 22, 23, 30, 31, 38, 39, 46, 47]));
        assert_eq!(hands[0], at(&[3, 10, 11, 18, 19, 26, 27, 34, 35, 42, 43, 50, 51]));
        assert_eq!(m.view(Viewer::Spectator)["next_dealer"], 3);
        // The deal passes counter-clockwise: 0, 3, 2, 1, 0.
        for dealer in [3, 2, 1, 0] {
            m.finish_deal();
            let events = m.deal_hands(&by_suit());
            let Event::DealStarted { dealer: d, forehand, .. } = &events[0] else { panic!() };
            assert_eq!((*d, *forehand), (dealer, (dealer + 3) % 4));
        }
    }

    // --- bidding ------------------------------------------------------------------------------

    #[test]
    fn everyone_bids_once_counter_clockwise_from_forehand() {
        let mut m = M::with(json!({}));
        m.deal_hands(&by_suit());
        assert_eq!(m.view(Viewer::Spectator)["phase"], "bidding");
        assert_eq!(m.to_act(), [3]);
        assert_eq!(m.legal(3), (1..=13).map(bid).collect::<Vec<_>>());
        assert_eq!(m.rule_of(3, bid(0)), rule::BID_RANGE);
        assert_eq!(m.rule_of(3, bid(14)), rule::BID_RANGE);
        assert_eq!(m.rule_of(3, Command::ThrowIn), rule::LAST_BIDDER);
        assert_eq!(m.rule_of(3, play("AS")), core::PHASE);
        assert_eq!(m.rule_of(2, bid(3)), core::TURN);
        let events = m.ok(3, bid(4));
        assert_eq!(events, [Event::BidMade { seat: 3, tricks: 4, worth: 4, total_worth: 4 }]);
        assert_eq!(m.to_act(), [2]);
        m.ok(2, bid(7));
        assert_eq!(m.to_act(), [1]);
        m.ok(1, bid(1));
        assert_eq!(m.to_act(), [0]);
        let view = m.view(Viewer::Seat(1));
        assert_eq!(view["bids"], json!([null, 1, 7, 4]));
        assert_eq!(view["bid_worth"], json!([null, 1, 14, 4]));
        assert_eq!(view["total_worth"], 19);
        // Already worth 11 or more: the last bidder bids anything and cannot throw in.
        assert_eq!(m.legal(0), (1..=13).map(bid).collect::<Vec<_>>());
        assert_eq!(m.rule_of(0, Command::ThrowIn), rule::LAST_BIDDER);
        m.ok(0, bid(1));
        assert_eq!(m.view(Viewer::Spectator)["phase"], "playing");
        assert_eq!(m.rule_of(3, bid(2)), core::PHASE);
    }

    #[test]
    fn bids_worth_less_than_eleven_throw_the_cards_in_and_the_next_dealer_deals() {
        let mut m = M::with(json!({}));
        m.deal_hands(&by_suit());
        m.bids(&[2, 3, 2]);
        // Worth 7 so far: the last bidder needs 4 or more, or throws in.
        let mut legal = (4..=13).map(bid).collect::<Vec<_>>();
        legal.push(Command::ThrowIn);
        assert_eq!(m.legal(0), legal);
        let refusal = m.refused(0, bid(3));
        assert_eq!(refusal.rule, rule::LAST_BIDDER);
        assert!(refusal.explanation.en.contains("worth only 10"), "{}", refusal.explanation.en);
        let events = m.ok(0, Command::ThrowIn);
        assert_eq!(
            events,
            [Event::CardsThrownIn {
                seat: 0,
                bids: [None, Some(2), Some(3), Some(2)],
                total_worth: 7,
                next_dealer: 3,
                rule: rule::THROW_IN.into(),
            }]
        );
        assert!(matches!(Fyrtioett.status(&m.state), Status::NeedsDeck { .. }));
        let view = m.view(Viewer::Spectator);
        assert_eq!((view["phase"].clone(), view["thrown_in"].clone()), (json!("thrown-in"), json!(true)));
        assert_eq!(view["scores"], json!([0, 0, 0, 0]));
        // The thrown-in deal is over: its first event is open to all.
        let first = serde_json::to_value(&m.log[0]).unwrap();
        assert_eq!(Fyrtioett.redact(&m.state, &m.log[0], Viewer::Spectator, false), first);
        // It counts as a deal; seat 3 deals the next one.
        let events = m.deal_hands(&by_suit());
        assert!(matches!(events[0], Event::DealStarted { deal_number: 2, dealer: 3, forehand: 2, .. }));
    }

    #[test]
    fn a_bid_of_seven_or_more_always_makes_the_game() {
        let mut m = M::with(json!({}));
        m.deal_hands(&by_suit());
        m.bids(&[1, 1, 7]);
        assert_eq!(m.legal(0), (1..=13).map(bid).collect::<Vec<_>>());
        // The lowest bids reach 11 only with a bid of 7 from the last bidder.
        let mut m = M::with(json!({}));
        m.deal_hands(&by_suit());
        m.bids(&[1, 1, 1]);
        let mut legal = (7..=13).map(bid).collect::<Vec<_>>();
        legal.push(Command::ThrowIn);
        assert_eq!(m.legal(0), legal);
        m.ok(0, bid(7));
        assert_eq!(m.to_act(), [3]);
    }

    // --- play ---------------------------------------------------------------------------------

    #[test]
    fn hearts_are_trumps_and_a_void_player_may_trump_or_discard() {
        let mut m = M::with(json!({}));
        m.deal_hands(&hands([
            "2C 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2H",
            "2S 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
            "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS AD",
        ]));
        m.bids(&[7, 1, 1, 1]);
        m.ok(3, play("AS"));
        // Seat 2 holds a spade and must play it.
        let refusal = m.refused(2, play("KD"));
        assert_eq!(refusal.rule, rule::FOLLOW_SUIT);
        assert!(refusal.explanation.en.contains("hold spades"), "{}", refusal.explanation.en);
        assert_eq!(m.legal(2), [play("2S")]);
        m.ok(2, play("2S"));
        // Seat 1 has no spades: a club or its trump, as it likes.
        assert_eq!(m.legal(1).len(), 13);
        m.ok(1, play("2H"));
        // Seat 0 overtrumps and takes the ace of the suit led.
        let events = m.ok(0, play("3H"));
        assert_eq!(
            events.last(),
            Some(&Event::TrickWon {
                trick_number: 1,
                winner: 0,
                card: card("3H"),
                reason: WinReason::HighestTrump,
                plays: vec![
                    Play { seat: 3, card: card("AS") },
                    Play { seat: 2, card: card("2S") },
                    Play { seat: 1, card: card("2H") },
                    Play { seat: 0, card: card("3H") },
                ],
            })
        );
        assert_eq!(m.to_act(), [0], "the winner leads");
        // Play goes counter-clockwise: seat 3 plays after seat 0.
        m.ok(0, play("2C"));
        assert_eq!(m.to_act(), [3]);
        assert_eq!(m.view(Viewer::Spectator)["tricks_taken"], json!([1, 0, 0, 0]));
    }

    // --- the end of the match -----------------------------------------------------------------

    fn ended(m: &M) -> Option<(usize, String)> {
        m.log.iter().find_map(|e| match e {
            Event::MatchEnded { side, rule, .. } => Some((*side, rule.clone())),
            _ => None,
        })
    }

    #[test]
    fn the_first_player_to_41_wins_for_his_side() {
        let mut m = M::with(json!({}));
        // Seat 0 takes every trick: a bid of 3 brings 38 to 41.
        m.deal_with_scores(&by_suit(), [38, 30, 0, 30]);
        m.bids(&[8, 1, 1, 3]);
        m.finish_deal();
        assert_eq!(ended(&m), Some((0, rule::TARGET.into())));
        let Status::Finished { outcome } = Fyrtioett.status(&m.state) else { panic!() };
        assert_eq!(outcome.winners, [0, 2]);
        assert!(outcome.explanation.en.contains("Seat 0 reached 41 points"), "{}", outcome.explanation.en);
        assert_eq!(m.view(Viewer::Spectator)["winning_side"], 0);
        assert_eq!(m.view(Viewer::Spectator)["scores"], json!([41, 29, -1, 14]));
        assert_eq!(m.rule_of(0, play("2H")), core::MATCH_OVER);
        assert!(Fyrtioett.bot_move(&m.state, 0, 1).is_none());

        // One short of the target: the match goes on.
        let mut m = M::with(json!({}));
        m.deal_with_scores(&by_suit(), [37, 30, 0, 30]);
        m.bids(&[8, 1, 1, 3]);
        m.finish_deal();
        assert_eq!(ended(&m), None);
        assert!(matches!(Fyrtioett.status(&m.state), Status::NeedsDeck { .. }));
    }

    #[test]
    fn players_of_both_sides_at_the_target_the_higher_score_wins_then_the_partners() {
        // After an earlier tie both sides are above 41. Seat 0 makes its 1, seat 1 fails its 1.
        let mut m = M::with(json!({}));
        m.deal_with_scores(&by_suit(), [45, 46, 10, 10]);
        m.bids(&[8, 1, 1, 1]);
        m.finish_deal();
        assert_eq!(m.state.deals.scores, [46, 45, 9, -6]);
        assert_eq!(ended(&m), Some((0, rule::HIGHER_SCORE.into())));

        // 45 each: seat 2 (11) against seat 3 (-6) decides for side 0.
        let mut m = M::with(json!({}));
        m.deal_with_scores(&by_suit(), [44, 46, 12, 10]);
        m.bids(&[8, 1, 1, 1]);
        m.finish_deal();
        assert_eq!(m.state.deals.scores, [45, 45, 11, -6]);
        assert_eq!(ended(&m), Some((0, rule::PARTNER_DECIDES.into())));

        // Partners equal too: another deal (house rule).
        let mut m = M::with(json!({}));
        m.deal_with_scores(&by_suit(), [44, 46, 12, 29]);
        m.bids(&[9, 1, 1, 1]);
        m.finish_deal();
        assert_eq!(m.state.deals.scores, [45, 45, 11, 11]);
        assert_eq!(ended(&m), None);
        assert!(matches!(m.log.last(), Some(Event::TargetTied { rule, .. }) if rule == rule::TIE_PLAYS_ON));
        assert!(matches!(Fyrtioett.status(&m.state), Status::NeedsDeck { .. }));
    }

    #[test]
    fn the_verdict_compares_the_best_of_each_side_then_the_partners() {
        let won = |scores, target| match verdict(&scores, target) {
            Verdict::Won { side, rule, .. } => Some((side, rule)),
            _ => None,
        };
        assert_eq!(verdict(&[40, 40, 40, 40], 41), Verdict::PlayOn);
        assert_eq!(won([10, 41, -5, 0], 41), Some((1, rule::TARGET)));
        // Both partners across is still one side.
        assert_eq!(won([50, 0, 42, 0], 41), Some((0, rule::TARGET)));
        assert_eq!(won([41, 0, 0, 43], 41), Some((1, rule::HIGHER_SCORE)));
        assert_eq!(won([44, 3, 44, 44], 41), Some((0, rule::PARTNER_DECIDES)));
        assert_eq!(won([12, 45, 45, 20], 41), Some((1, rule::PARTNER_DECIDES)));
        assert!(matches!(verdict(&[45, 45, 7, 7], 41), Verdict::Tied { .. }));
        assert_eq!(won([5, 1, 0, 0], 5), Some((0, rule::TARGET)));
        let Verdict::Won { explanation, .. } = verdict(&[44, 3, 44, 44], 41) else { panic!() };
        assert!(explanation.en.contains("seat 2 has 44 against 3"), "{}", explanation.en);
    }

    // --- options, shapes and what each viewer sees ---------------------------------------------

    #[test]
    fn options_have_defaults_and_are_checked() {
        let game = erase(Fyrtioett);
        assert_eq!(game.normalize_options(&Value::Null).unwrap(), json!({ "target": 41 }));
        assert!(game.setup(4, &json!({ "target": 0 })).is_err());
        let mut m = M::with(json!({ "target": 3 }));
        m.deal_hands(&by_suit());
        m.bids(&[8, 1, 1, 3]);
        m.finish_deal();
        assert_eq!(ended(&m), Some((0, rule::TARGET.into())));
    }

    #[test]
    fn commands_and_events_have_their_json_shapes() {
        let parse = |v: Value| serde_json::from_value::<Command>(v).unwrap();
        assert_eq!(parse(json!({ "type": "bid", "tricks": 4 })), bid(4));
        assert_eq!(parse(json!({ "type": "throw_in" })), Command::ThrowIn);
        assert_eq!(parse(json!({ "type": "play", "card": "QH" })), play("QH"));
        let json_of = |e: Event| serde_json::to_value(e).unwrap();
        assert_eq!(
            json_of(Event::BidMade { seat: 3, tricks: 7, worth: 14, total_worth: 20 }),
            json!({ "type": "bid_made", "seat": 3, "tricks": 7, "worth": 14, "total_worth": 20 })
        );
        assert_eq!(
            json_of(Event::BiddingEnded { bids: [1, 2, 3, 7], total_worth: 20, first_lead: 3 }),
            json!({ "type": "bidding_ended", "bids": [1, 2, 3, 7], "total_worth": 20, "first_lead": 3 })
        );
    }

    #[test]
    fn a_seat_sees_only_its_own_hand_until_the_deal_is_over() {
        let mut m = M::with(json!({}));
        let events = m.deal_hands(&by_suit());
        let e = &events[0];
        let full = serde_json::to_value(e).unwrap();
        let own = Fyrtioett.redact(&m.state, e, Viewer::Seat(1), false);
        assert_eq!(own["deck"], Value::Null);
        assert_eq!(own["hands"][1], json!(by_suit()[1]));
        assert_eq!(own["hands"][0], Value::Null);
        assert_eq!(own["hand_sizes"], json!([13, 13, 13, 13]));
        assert!(cards_in(&Fyrtioett.redact(&m.state, e, Viewer::Spectator, false)).is_empty());
        assert_eq!(Fyrtioett.redact(&m.state, e, Viewer::Record, false), full);
        let view = m.view(Viewer::Seat(1));
        assert_eq!(view["hand"], own["hands"][1]);
        assert_eq!((view["seat"].clone(), view["side"].clone()), (json!(1), json!(1)));
        assert!(cards_in(&m.view(Viewer::Spectator)).is_empty());
        assert_eq!(Fyrtioett.secrets(&m.state).len(), 52);
        m.bids(&[1, 1, 1, 8]);
        m.finish_deal();
        assert_eq!(Fyrtioett.redact(&m.state, e, Viewer::Spectator, false), full);
        assert_eq!(m.view(Viewer::Record)["deck"], full["deck"]);
    }

    // --- the bot ------------------------------------------------------------------------------

    #[test]
    fn the_bot_bids_by_its_hand_and_the_last_bidder_keeps_the_total() {
        assert!(estimate_tricks(&by_suit()[0]) >= 12.0);
        assert!(estimate_tricks(&cards("2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 4S 5S 6S")) < 0.5);
        for seed in 0..30 {
            let mut m = M::with(json!({}));
            m.deal_hands(&by_suit());
            m.bids(&[1, 1, 1]);
            let command = Fyrtioett.bot_move(&m.state, 0, seed).unwrap();
            // All the hearts: the bot bids high enough to make the game.
            assert!(matches!(command, Command::Bid { tricks } if tricks >= 7), "{command:?}");
            assert!(m.legal(0).contains(&command));
        }
    }

    // --- random matches -----------------------------------------------------------------------

    /// What every match's log must show, and (into `seen`) which rules it met.
    fn check_log(options: &Value, log: &[Value], seen: &mut BTreeSet<String>) {
        let book = Fyrtioett.rulebook();
        let target = options["target"].as_i64().unwrap_or(DEFAULT_TARGET);
        let mut totals = [0i64; SEATS];
        let mut bids: Vec<(Seat, u8)> = Vec::new();
        let mut forehand = 0;
        let mut dealer = None;
        let mut ended = None;
        for value in log {
            assert!(ended.is_none(), "an event after the end of the match: {value}");
            match serde_json::from_value::<Event>(value.clone()).unwrap() {
                Event::DealStarted { scores, forehand: f, dealer: d, .. } => {
                    assert_eq!(scores, totals, "a deal starts from the scores so far");
                    if let Some(previous) = dealer {
                        assert_eq!(d, TABLE.next(previous), "the deal passes counter-clockwise");
                    }
                    (forehand, dealer) = (f, Some(d));
                    bids.clear();
                }
                Event::BidMade { seat, tricks, total_worth, .. } => {
                    assert_eq!(seat, TABLE.after(forehand, bids.len()));
                    bids.push((seat, tricks));
                    assert_eq!(total_worth, bids.iter().map(|&(_, b)| worth(b)).sum::<i64>());
                }
                Event::BiddingEnded { total_worth, .. } => {
                    assert!(bids.len() == SEATS && total_worth >= MINIMUM_TOTAL);
                    seen.insert("played".into());
                }
                Event::CardsThrownIn { total_worth, rule, .. } => {
                    assert!(bids.len() == SEATS - 1 && total_worth < MINIMUM_TOTAL);
                    seen.insert(rule);
                }
                Event::DealScored { bids: b, tricks_taken, terms, scores, .. } => {
                    assert_eq!(tricks_taken.iter().map(|&t| u32::from(t)).sum::<u32>(), u32::from(TRICKS));
                    for t in &terms {
                        assert!(book.rule(&t.rule).is_some(), "{} is not in the rulebook", t.rule);
                        assert_eq!(t, &score_term(t.to, b[t.to], tricks_taken[t.to]));
                        totals[t.to] += t.points;
                        seen.insert(t.rule.clone());
                    }
                    assert_eq!(scores, totals);
                }
                Event::TargetTied { scores, .. } => {
                    assert!(matches!(verdict(&scores, target), Verdict::Tied { .. }));
                    seen.insert("tied".into());
                }
                Event::MatchEnded { side, scores, target: t, rule, .. } => {
                    assert_eq!(t, target);
                    assert!(matches!(verdict(&scores, target), Verdict::Won { side: s, .. } if s == side));
                    seen.insert(rule);
                    ended = Some(scores);
                }
                Event::CardPlayed { .. } | Event::TrickWon { .. } => {}
            }
        }
        assert_eq!(ended, Some(totals), "the match ends with the sum of the scored terms");
    }

    /// The generic harness plays every option set with every check; here many more matches, each
    /// log checked for Fyrtioett's own books, and the common kinds of deal seen.
    #[test]
    fn random_match_logs_add_up_and_the_common_rules_happen() {
        let mut seen = BTreeSet::new();
        let plan = Plan { invariants: 10, log_only: 100, ..Plan::default() };
        random_matches(&*erase(Fyrtioett), plan, |_, options, report| check_log(options, &report.log, &mut seen))
            .unwrap_or_else(|e| panic!("{e}"));
        for kind in ["played", rule::THROW_IN, rule::MADE, rule::FAILED, rule::TARGET] {
            assert!(seen.contains(kind), "{kind} never happened");
        }
    }
}
