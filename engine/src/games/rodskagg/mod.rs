//! Rödskägg ("fem opp!"): six cards each, one round of bids for the most tricks, no trumps, and
//! a count down from 12 points to 0 in which only the declarer can go down.
//!
//! From forehand round to the dealer each player bids one to six tricks or Rödskägg, or sneaks;
//! each bid beats the last. The declarer leads; players must follow suit. After the fourth trick
//! the declarer asks "går ni med?": those with a trick are in, the others decide at once, each
//! unseen by the rest, to join (and go up 5 without a trick in the last two) or to throw their
//! two cards face down and sit the rest of the deal out. A made bid takes the declarer down by
//! the tricks taken; a failed one puts him 5 up less his tricks. Rödskägg made wins the match at
//! once; failed puts the bidder out of it. The first to 0 or below after a deal wins.
//!
//! The text's "fem opp!" penalties punish slips of a ritual (the dealer's knock, a cut, a
//! misdeal, the declarer's question, the knock for going out). Here the service does each ritual
//! itself, as an automatic event, so none of those slips can happen and no penalty arises.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bidding::Auction;
use crate::cards::{decks, rank_value, sorted, Card};
use crate::deals::{self, Deals, MatchPhase};
use crate::game::{Rules, SetupError, Viewer};
use crate::ledger::{Account, Payment};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{seats_text, Seat, Table as Seating};
use crate::trick::{self, Play, Trick, TrickPlay, WinReason};

mod bot;
#[cfg(test)]
mod tests;
mod view;
pub use view::{GoingOn, Table};

#[derive(Default)]
pub struct Rodskagg;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 7;
/// Cards in a hand, and so tricks in a deal.
pub const HAND: usize = 6;
pub const START_POINTS: i64 = 12;
/// "Fem opp": what a failed bid, a joiner without a trick and a failed Rödskägg cost.
pub const PENALTY: i64 = 5;
/// The declarer asks "går ni med?" once this many tricks are played.
pub const ASK_AFTER: usize = 4;
pub const DEFAULT_MAX_DEALS: u32 = 100;
pub const MAX_DEALS: u32 = 1000;
/// Guards against a typo turning a friendly game into an overflow: no rule names a limit.
pub const MAX_RATE: i64 = 1_000_000;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "rodskagg.pack.players";
    pub const PACK: &str = "rodskagg.pack.cards";

    pub const DEALER: &str = "rodskagg.deal.dealer";

    pub const BID_ORDER: &str = "rodskagg.bid.order";
    pub const HIGHER: &str = "rodskagg.bid.higher";

    pub const FIRST_LEAD: &str = "rodskagg.play.first-lead";
    pub const NO_TRUMPS: &str = "rodskagg.play.no-trumps";
    pub const FOLLOW_SUIT: &str = "rodskagg.play.follow-suit";
    pub const WINNER_LEADS: &str = "rodskagg.play.winner-leads";

    pub const DROP: &str = "rodskagg.going-on.drop";
    pub const NO_TRICK: &str = "rodskagg.going-on.no-trick";

    pub const START: &str = "rodskagg.score.start";
    pub const MADE: &str = "rodskagg.score.made";
    pub const FAILED: &str = "rodskagg.score.failed";

    pub const RODSKAGG_MADE: &str = "rodskagg.rodskagg.made";
    pub const RODSKAGG_FAILED: &str = "rodskagg.rodskagg.failed";

    pub const ZERO: &str = "rodskagg.end.zero";
    pub const SETTLEMENT: &str = "rodskagg.end.settlement";

    pub const CUT: &str = "rodskagg.ritual.cut";

    pub const FIRST_DEALER: &str = "rodskagg.house.first-dealer";
    pub const DEALER_MUST_BID: &str = "rodskagg.house.dealer-must-bid";
    pub const ALONE: &str = "rodskagg.house.declarer-alone";
    pub const DEAL_LIMIT: &str = "rodskagg.house.deal-limit";
}

// ---------------------------------------------------------------------------------------------
// Options

/// What happens when every player sneaks.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AllSneak {
    /// The cards are thrown in and the next dealer deals.
    #[default]
    NextDealer,
    /// The dealer, speaking last after everyone sneaked, must bid.
    DealerMustBid,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// What happens when every player sneaks.
    pub all_sneak: AllSneak,
    /// Settle the match in money: every loser pays the winner the difference in points times
    /// `rate`.
    pub settlement: bool,
    /// What a point of difference costs in the settlement.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000000))]
    pub rate: i64,
    /// Deals (thrown-in ones included) after which the match ends even if nobody reached 0.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    pub max_deals: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { all_sneak: AllSneak::NextDealer, settlement: false, rate: 1, max_deals: DEFAULT_MAX_DEALS }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: before the first deal, a phase of the deal in progress, between deals
/// (`deal-over`) or finished.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    /// One round of bids from forehand to the dealer.
    Bidding,
    /// The tricks.
    Playing,
    /// After the fourth trick: those without a trick decide whether to go on.
    GoingOn,
    /// The deal is scored or thrown in; the next is awaited.
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// A bid: at least that many tricks; Rödskägg is all six and the highest bid of all.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bid {
    One,
    Two,
    Three,
    Four,
    Five,
    Six,
    Rodskagg,
}

impl Bid {
    pub const ALL: [Bid; 7] = [Bid::One, Bid::Two, Bid::Three, Bid::Four, Bid::Five, Bid::Six, Bid::Rodskagg];

    /// The tricks the bid promises.
    pub fn tricks(self) -> u32 {
        match self {
            Bid::Rodskagg => HAND as u32,
            b => b as u32 + 1,
        }
    }

    fn name(self) -> (&'static str, &'static str) {
        match self {
            Bid::One => ("ett", "one"),
            Bid::Two => ("två", "two"),
            Bid::Three => ("tre", "three"),
            Bid::Four => ("fyra", "four"),
            Bid::Five => ("fem", "five"),
            Bid::Six => ("sex", "six"),
            Bid::Rodskagg => ("rödskägg", "Rödskägg"),
        }
    }
}

/// One player's word in the bidding.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Call {
    pub seat: Seat,
    /// The bid; null when the player sneaked.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub bid: Option<Bid>,
}

/// Why the match ended.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The declarer came down to 0 or below.
    ReachedZero,
    /// The declarer bid Rödskägg and took all six tricks.
    Rodskagg,
    /// Every other player went out of the match on a failed Rödskägg.
    LastInMatch,
    /// The deal limit was reached; the fewest points won.
    DealLimit,
}

/// How a deal was scored.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DealResult {
    pub declarer: Seat,
    pub bid: Bid,
    /// Tricks taken, by seat.
    pub tricks_taken: Vec<u32>,
    /// The declarer took at least the tricks bid.
    pub made: bool,
    /// The points of the deal, each with its rule.
    pub terms: Vec<ScoreTerm>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Bidding,
    Playing,
    GoingOn,
    Over,
}

#[derive(Clone, Debug)]
pub struct Deal {
    number: u32,
    dealer: Seat,
    forehand: Seat,
    deck: Vec<Card>,
    /// Seats out of the match when the deal began: dealt no cards.
    out_of_match: Vec<Seat>,
    stage: Stage,
    auction: Auction<Option<Bid>>,
    declarer: Option<Seat>,
    bid: Option<Bid>,
    /// The seats with a trick when the declarer asked "går ni med?" (the declarer left out).
    in_with_trick: Vec<Seat>,
    /// The seats that had to decide, and their answers in the order given.
    deciding: Vec<Seat>,
    answers: Vec<(Seat, bool)>,
    /// Every answer is in, and so shown to all.
    answers_shown: bool,
    /// The two cards each player who dropped threw face down.
    thrown: Vec<Vec<Card>>,
    asked: bool,
    knocked_out: bool,
    play: TrickPlay,
    result: Option<DealResult>,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match self.stage {
            Stage::Bidding => self.auction.next_bidder().into_iter().collect(),
            Stage::Playing => vec![self.play.to_play()],
            Stage::GoingOn => self.undecided(),
            Stage::Over => Vec::new(),
        }
    }

    fn is_live(&self) -> bool {
        self.stage != Stage::Over
    }

    fn phase(&self) -> Phase {
        match self.stage {
            Stage::Bidding => Phase::Bidding,
            Stage::Playing => Phase::Playing,
            Stage::GoingOn => Phase::GoingOn,
            Stage::Over => Phase::DealOver,
        }
    }
}

impl Deal {
    fn players(&self) -> usize {
        self.play.table.seats
    }

    fn undecided(&self) -> Vec<Seat> {
        self.deciding.iter().copied().filter(|s| !self.answers.iter().any(|(a, _)| a == s)).collect()
    }

    fn highest(&self) -> Option<Bid> {
        self.auction.bids.iter().filter_map(|(_, b)| *b).max()
    }

    fn dropped(&self) -> Vec<Seat> {
        (0..self.players()).filter(|&s| !self.thrown[s].is_empty()).collect()
    }

    fn joined(&self, seat: Seat) -> bool {
        self.answers.contains(&(seat, true))
    }

    /// The cards dealt to nobody.
    fn undealt(&self) -> &[Card] {
        let dealt = HAND * (self.players() - self.out_of_match.len());
        &self.deck[dealt..]
    }

    /// Cards out of the play: the undealt rest and the thrown cards.
    fn elsewhere(&self) -> Vec<Card> {
        let mut cards = self.undealt().to_vec();
        cards.extend(self.thrown.iter().flatten());
        cards
    }
}

#[derive(Clone, Debug)]
pub struct State {
    table: Seating,
    options: Options,
    deals: Deals<Deal>,
    /// Seats out of the match after a failed Rödskägg, in the order they went out.
    out_of_match: Vec<Seat>,
    /// The money settled at the end of the match (when the option is on).
    settlement: Vec<Payment>,
    end_reason: Option<EndReason>,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }

    fn active(&self) -> Vec<Seat> {
        (0..self.players()).filter(|s| !self.out_of_match.contains(s)).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Bid at least this many tricks (higher than every bid before).
    Bid {
        bid: Bid,
    },
    /// Sneak ("smyga"): no bid.
    Sneak,
    /// Answer "går ni med?" with yes: play the last two tricks.
    Join,
    /// Answer "går ni med?" with no: throw the two cards face down and sit out.
    Drop,
    Play {
        card: Card,
    },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from. The dealer has knocked ("knack för kort och felgiv")
    /// before anyone sees a card: the service deals and knocks itself.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's six cards, sorted; none for a seat out of the match.
        hands: Vec<Vec<Card>>,
        /// Points before this deal, by seat.
        scores: Vec<i64>,
        /// Seats out of the match after a failed Rödskägg.
        out_of_match: Vec<Seat>,
        options: Options,
    },
    BidMade {
        seat: Seat,
        bid: Bid,
    },
    Sneaked {
        seat: Seat,
    },
    /// Everyone sneaked: the cards are thrown in.
    AllSneaked {
        deal_number: u32,
        /// The seat that deals next. Older logs may name the next seat round the table even when
        /// it is out of the match; the deal passes over it to the next seat in.
        next_dealer: Seat,
    },
    /// The bidding is over: the highest bidder is the declarer and leads.
    DeclarerNamed {
        seat: Seat,
        bid: Bid,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
        trick_number: usize,
    },
    TrickWon {
        trick_number: usize,
        winner: Seat,
        card: Card,
        reason: WinReason,
        plays: Vec<Play>,
    },
    /// "Knack för min utgång": the declarer has made the bid and is down to 0 or below during
    /// the deal; the service knocks for him.
    OutKnocked {
        seat: Seat,
        /// Tricks taken so far.
        tricks: u32,
        /// What the points come to with those tricks.
        score: i64,
    },
    /// "Går ni med?", asked by the service for the declarer after the fourth trick.
    GoingOnAsked {
        deal_number: u32,
        declarer: Seat,
        /// Seats with a trick: in without a word.
        in_with_trick: Vec<Seat>,
        /// Seats without a trick: each decides.
        deciding: Vec<Seat>,
    },
    /// One answer; the others see only that it was given until every answer is in.
    Answered {
        deal_number: u32,
        seat: Seat,
        joined: bool,
    },
    /// Every answer is in, and shown.
    AnswersShown {
        joined: Vec<Seat>,
        dropped: Vec<Seat>,
    },
    /// A player who dropped throws the last two cards face down: only their owner ever sees
    /// them.
    CardsThrown {
        deal_number: u32,
        seat: Seat,
        cards: Vec<Card>,
    },
    DealScored {
        deal_number: u32,
        declarer: Seat,
        bid: Bid,
        tricks_taken: Vec<u32>,
        made: bool,
        /// Points of the deal, each with its rule.
        terms: Vec<ScoreTerm>,
        /// Points added (negative: taken off) this deal, by seat.
        points: Vec<i64>,
        /// Points after the deal, by seat.
        scores: Vec<i64>,
        /// Seats out of the match after the deal.
        out_of_match: Vec<Seat>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        reason: EndReason,
        scores: Vec<i64>,
        /// What each loser pays, when the match is settled in money (else empty).
        settlement: Vec<Payment>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Rules that are pure functions, kept apart so tests can reach them directly

/// The seat that deals after `dealer`: the next one still in the match (a seat out of it no
/// longer deals).
pub fn dealer_after(table: &Seating, dealer: Seat, out_of_match: &[Seat]) -> Seat {
    first_in(table, table.next(dealer), out_of_match)
}

/// `from`, or the first seat after it still in the match.
fn first_in(table: &Seating, from: Seat, out_of_match: &[Seat]) -> Seat {
    table.order_from(from).into_iter().find(|s| !out_of_match.contains(s)).expect("someone is in the match")
}

/// The seats that play a deal, from forehand, the dealer last.
pub fn bidding_order(table: &Seating, dealer: Seat, out_of_match: &[Seat]) -> Vec<Seat> {
    table.order_from(table.next(dealer)).into_iter().filter(|s| !out_of_match.contains(s)).collect()
}

/// Three cards to each player in turn from forehand, then three more.
pub fn deal_hands(table: &Seating, dealer: Seat, out_of_match: &[Seat], deck: &[Card]) -> Vec<Vec<Card>> {
    let order = bidding_order(table, dealer, out_of_match);
    let n = order.len();
    let mut hands = vec![Vec::new(); table.seats];
    for round in 0..2 {
        for (i, &s) in order.iter().enumerate() {
            let at = 3 * (round * n + i);
            hands[s].extend_from_slice(&deck[at..at + 3]);
        }
    }
    hands.into_iter().map(sorted).collect()
}

/// The score terms of a played-out deal: the declarer's (the only one who can go down) and
/// the penalty of every joiner who took no trick.
pub fn deal_terms(declarer: Seat, bid: Bid, taken: &[u32], joiners: &[Seat]) -> Vec<ScoreTerm> {
    let t = taken[declarer];
    let need = bid.tricks();
    let s = declarer;
    let mut terms = Vec::new();
    let (bid_sv, bid_en) = bid.name();
    match (bid, t >= need) {
        (Bid::Rodskagg, true) => terms.push(ScoreTerm::new(
            s,
            -i64::from(t),
            rule::RODSKAGG_MADE,
            format!("Plats {s} bjöd rödskägg, tog alla sex sticken och går ned 6 poäng."),
            format!("Seat {s} bid Rödskägg, took all six tricks and goes down 6 points."),
        )),
        (Bid::Rodskagg, false) => terms.push(ScoreTerm::new(
            s,
            PENALTY,
            rule::RODSKAGG_FAILED,
            format!("Plats {s} bjöd rödskägg men tog bara {t} stick: fem opp, sticken räknas inte, och ut ur partiet."),
            format!("Seat {s} bid Rödskägg but took only {t} tricks: five up, the tricks do not count, and out of the match."),
        )),
        (_, true) => terms.push(ScoreTerm::new(
            s,
            -i64::from(t),
            rule::MADE,
            format!("Plats {s} bjöd {bid_sv}, tog {t} stick och går ned {t} poäng."),
            format!("Seat {s} bid {bid_en}, took {t} tricks and goes down {t} points."),
        )),
        (_, false) => {
            terms.push(ScoreTerm::new(
                s,
                PENALTY,
                rule::FAILED,
                format!("Plats {s} bjöd {bid_sv} men tog bara {t} stick: fem opp."),
                format!("Seat {s} bid {bid_en} but took only {t} tricks: five up."),
            ));
            if t > 0 {
                terms.push(ScoreTerm::new(
                    s,
                    -i64::from(t),
                    rule::FAILED,
                    format!("Plats {s} drar ändå av de {t} stick den tog."),
                    format!("Seat {s} still takes off the {t} tricks it took."),
                ));
            }
        }
    }
    for &j in joiners.iter().filter(|&&j| taken[j] == 0) {
        terms.push(ScoreTerm::new(
            j,
            PENALTY,
            rule::NO_TRICK,
            format!("Plats {j} gick med men tog inget av de två sista sticken: fem opp."),
            format!("Seat {j} went on but took neither of the last two tricks: five up."),
        ));
    }
    terms
}

/// What each loser pays each winner: the difference in points times the rate (nothing when the
/// loser stands lower).
pub fn settle(scores: &[i64], winners: &[Seat], rate: i64) -> Vec<Payment> {
    let mut payments = Vec::new();
    for loser in (0..scores.len()).filter(|s| !winners.contains(s)) {
        for &w in winners {
            let diff = scores[loser] - scores[w];
            if diff <= 0 {
                continue;
            }
            let amount = diff * rate;
            payments.push(Payment::new(
                Account::Seat(loser),
                Account::Seat(w),
                amount,
                rule::SETTLEMENT,
                format!("Plats {loser} har {diff} poäng mer än plats {w} och betalar {amount} ({rate} per poäng)."),
                format!("Seat {loser} has {diff} points more than seat {w} and pays {amount} ({rate} a point)."),
            ));
        }
    }
    payments
}

// ---------------------------------------------------------------------------------------------
// Decide

fn wrong_phase(stage: Stage) -> RuleViolation {
    let (sv, en) = match stage {
        Stage::Bidding => ("nu bjuder eller smyger spelarna", "the players now bid or sneak"),
        Stage::Playing => ("nu spelas korten", "the cards are being played"),
        Stage::GoingOn => ("nu svarar spelarna på \"går ni med?\"", "the players now answer \"går ni med?\""),
        Stage::Over => ("given är slut", "the deal is over"),
    };
    RuleViolation::wrong_phase(sv, en)
}

/// Sneaking is refused only to a dealer who must bid after everyone else sneaked.
fn must_bid(state: &State, deal: &Deal, seat: Seat) -> bool {
    state.options.all_sneak == AllSneak::DealerMustBid && deal.auction.is_last(seat) && deal.highest().is_none()
}

fn decide_call(state: &State, deal: &Deal, seat: Seat, bid: Option<Bid>) -> Result<Vec<Event>, RuleViolation> {
    let highest = deal.highest();
    match bid {
        Some(b) if highest.is_some_and(|h| b <= h) => {
            let (hs, he) = highest.expect("checked").name();
            let (bs, be) = b.name();
            return Err(RuleViolation::new(
                rule::HIGHER,
                format!("Högsta budet är {hs}; du måste bjuda högre än så, inte {bs}, eller smyga."),
                format!("The highest bid is {he}; you must bid higher than that, not {be}, or sneak."),
            ));
        }
        None if must_bid(state, deal, seat) => {
            return Err(RuleViolation::new(
                rule::DEALER_MUST_BID,
                "Alla andra har smugit: som giv måste du bjuda.",
                "Everyone else sneaked: as the dealer you must bid.",
            ));
        }
        _ => {}
    }
    let mut events = vec![match bid {
        Some(bid) => Event::BidMade { seat, bid },
        None => Event::Sneaked { seat },
    }];
    if deal.auction.bids.len() + 1 < deal.auction.order.len() {
        return Ok(events);
    }
    let mut bids: Vec<(Seat, Bid)> = deal.auction.bids.iter().filter_map(|&(s, b)| b.map(|b| (s, b))).collect();
    bids.extend(bid.map(|b| (seat, b)));
    match bids.into_iter().max_by_key(|&(_, b)| b) {
        Some((seat, bid)) => events.push(Event::DeclarerNamed { seat, bid }),
        None => {
            let next_dealer = dealer_after(&state.table, deal.dealer, &state.out_of_match);
            events.push(Event::AllSneaked { deal_number: deal.number, next_dealer });
            events.extend(deal_limit_end(state, deal.number, &state.deals.scores));
        }
    }
    Ok(events)
}

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    deal.play.check_held(seat, card)?;
    deal.play.check_follow(seat, card, rule::FOLLOW_SUIT)?;
    let trick_number = deal.play.number();
    let mut events = vec![Event::CardPlayed { seat, card, trick_number }];
    let Some(won) = deal.play.completed_by(seat, card, &trick::no_trumps) else { return Ok(events) };
    events.push(Event::TrickWon {
        trick_number,
        winner: won.winner,
        card: won.card,
        reason: won.reason,
        plays: won.plays.clone(),
    });
    let declarer = deal.declarer.expect("the play follows the bidding");
    let bid = deal.bid.expect("the play follows the bidding");
    let tricks = won.taken[declarer];
    let score = state.deals.scores[declarer] - i64::from(tricks);
    if !deal.knocked_out && tricks >= bid.tricks() && score <= 0 {
        events.push(Event::OutKnocked { seat: declarer, tricks, score });
    }
    if won.number == ASK_AFTER {
        let others = deal.play.seats_in_from(declarer).into_iter().filter(|&s| s != declarer);
        let (in_with_trick, deciding): (Vec<Seat>, Vec<Seat>) = others.partition(|&s| won.taken[s] > 0);
        events.push(Event::GoingOnAsked { deal_number: deal.number, declarer, in_with_trick, deciding });
    }
    if won.last {
        events.extend(score_deal(state, deal, declarer, bid, won.taken));
    }
    Ok(events)
}

fn decide_answer(deal: &Deal, seat: Seat, joined: bool) -> Vec<Event> {
    let mut events = vec![Event::Answered { deal_number: deal.number, seat, joined }];
    if deal.undecided().len() > 1 {
        return events;
    }
    let mut answers = deal.answers.clone();
    answers.push((seat, joined));
    let answered = |yes: bool| answers.iter().filter(|&&(_, j)| j == yes).map(|&(s, _)| s).collect::<Vec<Seat>>();
    let (mut joined, mut dropped) = (answered(true), answered(false));
    joined.sort_unstable();
    dropped.sort_unstable();
    events.push(Event::AnswersShown { joined, dropped: dropped.clone() });
    for s in dropped {
        events.push(Event::CardsThrown { deal_number: deal.number, seat: s, cards: deal.play.hands[s].clone() });
    }
    events
}

/// The deal's points, and the end of the match if it has come.
fn score_deal(state: &State, deal: &Deal, declarer: Seat, bid: Bid, taken: Vec<u32>) -> Vec<Event> {
    let players = state.players();
    let joiners: Vec<Seat> = (0..players).filter(|&s| deal.joined(s)).collect();
    let terms = deal_terms(declarer, bid, &taken, &joiners);
    let mut points = vec![0; players];
    terms.iter().for_each(|t| points[t.to] += t.points);
    let scores: Vec<i64> = (0..players).map(|s| state.deals.scores[s] + points[s]).collect();
    let made = taken[declarer] >= bid.tricks();
    let mut out_of_match = state.out_of_match.clone();
    if bid == Bid::Rodskagg && !made {
        out_of_match.push(declarer);
    }
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        declarer,
        bid,
        tricks_taken: taken,
        made,
        terms,
        points,
        scores: scores.clone(),
        out_of_match: out_of_match.clone(),
    }];
    let active: Vec<Seat> = (0..players).filter(|s| !out_of_match.contains(s)).collect();
    let d = declarer;
    let end = if bid == Bid::Rodskagg && made {
        Some((
            vec![d],
            EndReason::Rodskagg,
            Text::new(
                format!("Plats {d} bjöd rödskägg och tog alla sex sticken: partiet är vunnet, hur poängen än stod."),
                format!("Seat {d} bid Rödskägg and took all six tricks: the match is won, whatever the scores."),
            ),
        ))
    } else if scores[d] <= 0 {
        Some((
            vec![d],
            EndReason::ReachedZero,
            Text::new(
                format!("Plats {d} kom ned till {} poäng efter given och vann partiet.", scores[d]),
                format!("Seat {d} came down to {} points after the deal and won the match.", scores[d]),
            ),
        ))
    } else if active.len() == 1 {
        let w = active[0];
        Some((
            vec![w],
            EndReason::LastInMatch,
            Text::new(
                format!("Alla andra har gått ut på misslyckade rödskägg: plats {w} är kvar och vann partiet."),
                format!("Everyone else went out on a failed Rödskägg: seat {w} is left and won the match."),
            ),
        ))
    } else {
        None
    };
    match end {
        Some((winners, reason, explanation)) => {
            events.push(match_ended(state, winners, reason, scores, explanation));
        }
        None => {
            let mut after = state.clone();
            after.out_of_match = out_of_match;
            events.extend(deal_limit_end(&after, deal.number, &scores));
        }
    }
    events
}

fn match_ended(state: &State, winners: Vec<Seat>, reason: EndReason, scores: Vec<i64>, explanation: Text) -> Event {
    let settlement = if state.options.settlement { settle(&scores, &winners, state.options.rate) } else { Vec::new() };
    Event::MatchEnded { winners, reason, scores, settlement, explanation }
}

/// The match's end once the deal limit is reached with nobody at 0: the fewest points among
/// those still in the match win.
fn deal_limit_end(state: &State, deal_number: u32, scores: &[i64]) -> Option<Event> {
    if deal_number < state.options.max_deals {
        return None;
    }
    let active = state.active();
    let best = active.iter().map(|&s| scores[s]).min().expect("someone is in the match");
    let winners: Vec<Seat> = active.into_iter().filter(|&s| scores[s] == best).collect();
    let max = state.options.max_deals;
    let who = seats_text(&winners);
    let explanation = if winners.len() == 1 {
        Text::new(
            format!("Efter {max} givar hade ingen nått 0; plats {who} hade lägst poäng, {best}, och vann."),
            format!("After {max} deals nobody had reached 0; seat {who} had the fewest points, {best}, and won."),
        )
    } else {
        Text::new(
            format!("Efter {max} givar hade ingen nått 0; platserna {who} hade lägst poäng, {best}, och delar segern."),
            format!(
                "After {max} deals nobody had reached 0; seats {who} had the fewest points, {best}, and share the win."
            ),
        )
    };
    Some(match_ended(state, winners, EndReason::DealLimit, scores.to_vec(), explanation))
}

// ---------------------------------------------------------------------------------------------
// The bot

/// Tricks a hand should take without trumps, roughly: its aces, and kings kept company.
fn expected_tricks(hand: &[Card]) -> u32 {
    let mut n = 0;
    for &c in hand {
        let suit = hand.iter().filter(|d| d.suit() == c.suit()).count();
        match rank_value(c) {
            14 => n += 2,
            13 if suit >= 2 => n += 1,
            12 if suit >= 3 => n += 1,
            _ => {}
        }
    }
    n / 2
}

fn bot_choice(state: &State, deal: &Deal, seat: Seat, moves: &[Command], rng: &mut Rng) -> Command {
    if rng.below(10) == 0 {
        return moves[rng.below(moves.len())].clone();
    }
    let hand = &deal.play.hands[seat];
    match deal.stage {
        Stage::Bidding => {
            let expected = expected_tricks(hand).min(state.deals.scores[seat].max(1) as u32 + 1);
            let bids = moves.iter().filter_map(|m| if let Command::Bid { bid } = m { Some(*bid) } else { None });
            let lowest = bids.clone().min();
            match lowest {
                Some(b) if b.tricks() <= expected && b != Bid::Rodskagg => Command::Bid { bid: b },
                _ if moves.contains(&Command::Sneak) => Command::Sneak,
                Some(b) => Command::Bid { bid: b },
                None => moves[0].clone(),
            }
        }
        // Two cards left: a high one may take a trick.
        Stage::GoingOn => {
            if hand.iter().any(|&c| rank_value(c) >= 13) || rng.below(4) == 0 {
                Command::Join
            } else {
                Command::Drop
            }
        }
        Stage::Playing => {
            let cards: Vec<Card> =
                moves.iter().filter_map(|m| if let Command::Play { card } = m { Some(*card) } else { None }).collect();
            let by_rank = |c: &Card| (rank_value(*c), c.suit());
            let Some(led) = deal.play.trick.led_suit() else {
                return Command::Play { card: *cards.iter().max_by_key(|c| by_rank(c)).expect("a card") };
            };
            let best = deal.play.trick.cards().filter(|c| c.is_suit(led)).map(rank_value).max().unwrap_or(0);
            let winning = cards.iter().filter(|c| c.is_suit(led) && rank_value(**c) > best).min_by_key(|c| by_rank(c));
            let card = winning.or_else(|| cards.iter().min_by_key(|c| by_rank(c))).expect("a card");
            Command::Play { card: *card }
        }
        Stage::Over => moves[0].clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Rodskagg {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "rodskagg";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("../rulebooks/rodskagg.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options { all_sneak: AllSneak::DealerMustBid, ..Options::default() },
            Options { settlement: true, rate: 3, max_deals: 12, ..Options::default() },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_RATE).contains(&options.rate) {
            return Err(SetupError(format!("rate must be 1 to {MAX_RATE}, not {}", options.rate)));
        }
        if !(1..=MAX_DEALS).contains(&options.max_deals) {
            return Err(SetupError(format!("max_deals must be 1 to {MAX_DEALS}, not {}", options.max_deals)));
        }
        let mut deals = Deals::new(players);
        deals.scores = vec![START_POINTS; players];
        Ok(State {
            table: Seating::new(players),
            options,
            deals,
            out_of_match: Vec::new(),
            settlement: Vec::new(),
            end_reason: None,
        })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        // A seat out of the match no longer deals: the deal passes on to the next one in.
        let table = state.table;
        let dealer = first_in(&table, state.deals.next_dealer, &state.out_of_match);
        let order = bidding_order(&table, dealer, &state.out_of_match);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: order[0],
            hands: deal_hands(&table, dealer, &state.out_of_match, &deck),
            deck,
            scores: state.deals.scores.clone(),
            out_of_match: state.out_of_match.clone(),
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match (deal.stage, command) {
            (Stage::Bidding, Command::Bid { bid }) => decide_call(state, deal, seat, Some(*bid)),
            (Stage::Bidding, Command::Sneak) => decide_call(state, deal, seat, None),
            (Stage::Playing, Command::Play { card }) => decide_play(state, deal, seat, *card),
            (Stage::GoingOn, Command::Join) => Ok(decide_answer(deal, seat, true)),
            (Stage::GoingOn, Command::Drop) => Ok(decide_answer(deal, seat, false)),
            (stage, _) => Err(wrong_phase(stage)),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        let table = state.table;
        match event {
            Event::DealStarted { deal_number, dealer, forehand, deck, hands, scores, out_of_match, options } => {
                // The deal carries what it inherits, so that it can be replayed on its own.
                state.options = options.clone();
                state.out_of_match = out_of_match.clone();
                state.deals.next_dealer = dealer_after(&table, *dealer, out_of_match);
                let players = hands.len();
                let mut play = TrickPlay::new(table, hands.clone(), *forehand, HAND);
                for &s in out_of_match {
                    play.sit_out(s);
                }
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    forehand: *forehand,
                    deck: deck.clone(),
                    out_of_match: out_of_match.clone(),
                    stage: Stage::Bidding,
                    auction: Auction::new(bidding_order(&table, *dealer, out_of_match)),
                    declarer: None,
                    bid: None,
                    in_with_trick: Vec::new(),
                    deciding: Vec::new(),
                    answers: Vec::new(),
                    answers_shown: false,
                    thrown: vec![Vec::new(); players],
                    asked: false,
                    knocked_out: false,
                    play,
                    result: None,
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::AllSneaked { next_dealer, .. } => {
                // An older log may name a seat out of the match here (the next seat round the
                // table): the deal always passed over it, and so does the view.
                state.deals.next_dealer = first_in(&table, *next_dealer, &state.out_of_match);
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.stage = Stage::Over;
                }
            }
            Event::DealScored { declarer, bid, tricks_taken, made, terms, scores, out_of_match, .. } => {
                state.deals.scored(terms, scores);
                state.out_of_match = out_of_match.clone();
                // A declarer who went out on a failed Rödskägg deals no more.
                state.deals.next_dealer = first_in(&table, state.deals.next_dealer, out_of_match);
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.stage = Stage::Over;
                    deal.result = Some(DealResult {
                        declarer: *declarer,
                        bid: *bid,
                        tricks_taken: tricks_taken.clone(),
                        made: *made,
                        terms: terms.clone(),
                    });
                }
            }
            Event::MatchEnded { winners, reason, settlement, explanation, .. } => {
                state.settlement = settlement.clone();
                state.end_reason = Some(*reason);
                state.deals.ended(winners, explanation);
            }
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                evolve_deal(deal, event);
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        match deal.stage {
            Stage::Bidding => {
                let highest = deal.highest();
                let mut moves: Vec<Command> = Bid::ALL
                    .into_iter()
                    .filter(|&b| highest.is_none_or(|h| b > h))
                    .map(|bid| Command::Bid { bid })
                    .collect();
                if !must_bid(state, deal, seat) {
                    moves.push(Command::Sneak);
                }
                moves
            }
            Stage::Playing => deal.play.following(seat).into_iter().map(|card| Command::Play { card }).collect(),
            Stage::GoingOn => vec![Command::Join, Command::Drop],
            Stage::Over => Vec::new(),
        }
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        let mut moves: Vec<Command> = Bid::ALL.into_iter().map(|bid| Command::Bid { bid }).collect();
        moves.extend([Command::Sneak, Command::Join, Command::Drop]);
        moves.extend(decks::standard52().into_iter().map(|card| Command::Play { card }));
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        self.render(state, viewer, viewer.seat_at(state.players()))
    }

    fn record_view(&self, state: &State, seat: Option<Seat>) -> Value {
        serde_json::to_value(self.render(state, Viewer::Record, seat)).expect("views serialize")
    }

    // A seat's record shows what it saw at the table: its own cards, as its view of the events.
    fn record_event(&self, state: &State, event: &Event, seat: Option<Seat>) -> Value {
        self.redact(state, event, seat.map_or(Viewer::Record, Viewer::Seat), true)
    }

    /// The dealt hands and the deck are never shown to anyone but each hand's owner, since they
    /// would give away the cards thrown by those who dropped; the record shows the cards played.
    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        let owner = |s: Seat| viewer == Viewer::Seat(s);
        match event {
            Event::DealStarted { hands, .. } => {
                deals::redact_hands(&mut full, hands, viewer, |_| true);
                full["hand_sizes"] = json!(hands.iter().map(Vec::len).collect::<Vec<_>>());
            }
            Event::CardsThrown { seat, .. } if !owner(*seat) => full["cards"] = Value::Null,
            Event::Answered { deal_number, seat, .. } if !owner(*seat) && !deal_over => {
                let open = state.deals.deal.as_ref().is_none_or(|d| d.number != *deal_number || d.answers_shown);
                if !open {
                    full["joined"] = Value::Null;
                }
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deals.deal else { return Vec::new() };
        let mut secrets = deal.play.hand_secrets(|_, _| false);
        for (s, cards) in deal.thrown.iter().enumerate() {
            secrets.extend(cards.iter().map(|&c| (c, vec![s])));
        }
        secrets.extend(deal.undealt().iter().map(|&c| (c, Vec::new())));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        if state.deals.outcome.is_none() && state.active().is_empty() {
            return Err("nobody is left in the match".into());
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let dropped = deal.dropped();
        if deal.play.tricks.len() == ASK_AFTER && !dropped.is_empty() {
            // The fourth trick was played by those who dropped after it: judge it with their
            // thrown cards back in their hands.
            let mut before = deal.play.clone();
            before.out = deal.out_of_match.clone();
            for &s in &dropped {
                before.hands[s] = deal.thrown[s].clone();
            }
            before.check(&pack, deal.undealt(), |_| HAND, &trick::no_trumps)?;
        } else {
            deal.play.check(&pack, &deal.elsewhere(), |_| HAND, &trick::no_trumps)?;
        }
        for s in 0..deal.players() {
            let out = deal.out_of_match.contains(&s) || !deal.thrown[s].is_empty();
            if deal.play.out.contains(&s) != out {
                return Err(format!("seat {s} sits out, or not, at odds with the deal"));
            }
            if !deal.thrown[s].is_empty() && (deal.thrown[s].len() != HAND - ASK_AFTER || deal.joined(s)) {
                return Err(format!("seat {s} threw {} cards", deal.thrown[s].len()));
            }
        }
        if deal.answers_shown && !deal.undecided().is_empty() {
            return Err("answers shown before all were given".into());
        }
        if deal.play.tricks.len() > ASK_AFTER && !(deal.asked && deal.undecided().is_empty()) {
            return Err("the fifth trick was played before everyone had decided".into());
        }
        for s in deal.in_with_trick.iter().chain(&deal.deciding) {
            let had = deal.play.tricks[..ASK_AFTER].iter().any(|t| t.winner == *s);
            if had != deal.in_with_trick.contains(s) {
                return Err(format!("seat {s} was asked, or not, at odds with its tricks"));
            }
        }
        if let Some(result) = &deal.result {
            let joiners: Vec<Seat> = (0..deal.players()).filter(|&s| deal.joined(s)).collect();
            if result.terms != deal_terms(result.declarer, result.bid, &result.tricks_taken, &joiners) {
                return Err("the deal's terms are not what its tricks make".into());
            }
        }
        Ok(())
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let moves = self.legal_moves(state, seat);
        match moves.len() {
            0 => None,
            1 => Some(moves[0].clone()),
            _ => Some(bot_choice(state, deal, seat, &moves, &mut Rng::new(seed))),
        }
    }

    fn bot_levels(&self) -> crate::bots::Levels {
        crate::bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<Command> {
        bot::basic_move(state, seat, rng)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        bot::determinize(state, seat, rng)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bot::standing(state, seat)
    }
}

/// The facts of the deal itself: bidding, the question after the fourth trick and the play.
fn evolve_deal(deal: &mut Deal, event: &Event) {
    match event {
        Event::BidMade { seat, bid } => deal.auction.record(*seat, Some(*bid)),
        Event::Sneaked { seat } => deal.auction.record(*seat, None),
        Event::DeclarerNamed { seat, bid } => {
            deal.declarer = Some(*seat);
            deal.bid = Some(*bid);
            deal.play.trick = Trick::led_by(*seat);
            deal.stage = Stage::Playing;
        }
        Event::CardPlayed { seat, card, .. } => deal.play.play(*seat, *card),
        Event::TrickWon { winner, card, reason, .. } => deal.play.won(*winner, *card, *reason),
        Event::OutKnocked { .. } => deal.knocked_out = true,
        Event::GoingOnAsked { in_with_trick, deciding, .. } => {
            deal.asked = true;
            deal.in_with_trick = in_with_trick.clone();
            deal.deciding = deciding.clone();
            if !deciding.is_empty() {
                deal.stage = Stage::GoingOn;
            }
        }
        Event::Answered { seat, joined, .. } => deal.answers.push((*seat, *joined)),
        Event::AnswersShown { .. } => {
            deal.answers_shown = true;
            deal.stage = Stage::Playing;
        }
        Event::CardsThrown { seat, .. } => deal.thrown[*seat] = deal.play.sit_out(*seat),
        _ => {}
    }
}
