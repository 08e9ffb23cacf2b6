//! Spader (Spades): four players in two partnerships, spades always trumps. Each side bids the
//! tricks it expects to take (or a nil, or a blind nil when far behind); both bids stand.
//! Overtricks are tallied across deals and punished ("sandbagging"); the first side to the
//! target wins the match.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, rank_value, sorted, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::ensure;
use crate::game::{Rules, SetupError, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Direction, Seat};
use crate::trick::{self, PlayView, Trick, TrickPlay, WinReason};

#[derive(Default)]
pub struct Spader;

const SEATS: usize = 4;
const TABLE: seat::Table = seat::Table { seats: SEATS, direction: Direction::Clockwise };
const TRICKS: u8 = 13;
const BLIND_NIL_GAP: i64 = 100;
const SANDBAG_LIMIT: u32 = 10;
const SANDBAG_PENALTY: i64 = 100;
const NIL_POINTS: i64 = 50;
const BLIND_NIL_POINTS: i64 = 100;
const TWO_OF_CLUBS: Card = Card::new(Rank::TWO, Suit::Clubs);

/// Rule ids, written in full so that a grep finds both the text and every use.
pub mod rule {
    pub const PARTNERSHIPS: &str = "spader.deal.partnerships";
    pub const DEALER: &str = "spader.deal.dealer";
    pub const THIRTEEN_CARDS: &str = "spader.deal.thirteen-cards";

    pub const REDEAL_CONDITIONS: &str = "spader.redeal.conditions";

    pub const BID_ORDER: &str = "spader.bid.order";
    pub const BID_RANGE: &str = "spader.bid.range";
    pub const BID_NIL_SEAT: &str = "spader.bid.nil-seat";
    pub const BID_NIL_PARTNER: &str = "spader.bid.nil-partner";

    pub const BLIND_ELIGIBLE: &str = "spader.blind-nil.eligible";
    pub const BLIND_BEFORE_LOOKING: &str = "spader.blind-nil.before-looking";
    pub const BLIND_CHOOSE_FIRST: &str = "spader.blind-nil.choose-first";
    pub const BLIND_ONE_PER_SIDE: &str = "spader.blind-nil.one-per-side";
    pub const BLIND_PARTNER_BIDS: &str = "spader.blind-nil.partner-bids";

    pub const EXCHANGE_OFFER: &str = "spader.exchange.offer";
    pub const EXCHANGE_TWO_CARDS: &str = "spader.exchange.two-cards";
    pub const EXCHANGE_GIVE_BACK: &str = "spader.exchange.give-back";

    pub const TWO_OF_CLUBS_LEADS: &str = "spader.play.two-of-clubs-leads";
    pub const LOWEST_CLUB: &str = "spader.play.lowest-club";
    pub const NO_SPADES_FIRST_TRICK: &str = "spader.play.no-spades-first-trick";
    pub const FOLLOW_SUIT: &str = "spader.play.follow-suit";
    pub const TRICK_WINNER: &str = "spader.play.trick-winner";
    pub const WINNER_LEADS: &str = "spader.play.winner-leads";

    pub const SPADES_NOT_BROKEN: &str = "spader.lead.spades-not-broken";

    pub const BID_MADE: &str = "spader.score.bid-made";
    pub const OVERTRICKS: &str = "spader.score.overtricks";
    pub const BID_FAILED: &str = "spader.score.bid-failed";
    pub const NIL_MADE: &str = "spader.score.nil-made";
    pub const NIL_FAILED: &str = "spader.score.nil-failed";
    pub const BLIND_NIL_MADE: &str = "spader.score.blind-nil-made";
    pub const BLIND_NIL_FAILED: &str = "spader.score.blind-nil-failed";
    pub const SIDE_NIL_MADE: &str = "spader.score.side-nil-made";
    pub const SANDBAGGING: &str = "spader.score.sandbagging";

    pub const TARGET: &str = "spader.end.target";

    pub const OPTION_BLIND_NIL: &str = "spader.options.blind-nil";
    pub const OPTION_REDEAL: &str = "spader.options.redeal";
    pub const OPTION_TARGET: &str = "spader.options.target";

    pub const REDEAL_WHEN: &str = "spader.house.redeal-when";
    pub const SIDE_NIL_FAILED: &str = "spader.house.side-nil-failed";
    pub const TIE_PLAYS_ON: &str = "spader.house.tie-plays-on";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// A player whose side is 100 or more behind may bid nil before looking at the cards.
    pub blind_nil: bool,
    /// A player with no spades, no court cards or seven of a suit may ask for a redeal.
    pub redeal: bool,
    /// Every ten overtricks cost 100 points.
    pub sandbagging: bool,
    /// The score that ends the match.
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub target: i64,
}

impl Default for Options {
    fn default() -> Options {
        Options { blind_nil: true, redeal: true, sandbagging: true, target: 500 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the deal is; once the play is over (13 tricks) the deal is over whatever this says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DealPhase {
    /// Includes the blind-nil choice of a trailing side, made when its turn to bid comes.
    Bidding,
    Exchange(Exchange),
    Play,
    Cancelled,
}

/// Two cards passed face down between partners after a blind nil.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Gift {
    /// The seat that gave the cards.
    pub from: Seat,
    /// The partner who received them.
    pub to: Seat,
    /// The two cards.
    pub cards: Vec<Card>,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    looked: [bool; SEATS],
    blind_nil_side: Option<usize>,
    blind_nil: Option<Seat>,
    bids: [Option<SideBid>; 2],
    gifts: Vec<Gift>,
    phase: DealPhase,
    spades_broken: bool,
    redeal: Option<Redeal>,
    /// The trick on the table is led by forehand until the play starts with the two of clubs.
    play: TrickPlay,
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    deals: Deals<Deal>,
    overtricks: [u32; 2],
    /// The overtricks carried in plus those taken less those penalised, from the first deal
    /// replayed on (as `Deals` keeps the scores' books): `check_invariants` holds the tally to it.
    overtrick_books: Option<[i64; 2]>,
    /// Sandbag penalties an event declared less the penalty terms it gave: always zero.
    penalty_gap: [i64; 2],
}

fn is_spade(card: Card) -> bool {
    card.is_suit(Suit::Spades)
}

fn spades_trump(trick: &Trick) -> (Seat, Card, WinReason) {
    trick::winner(trick, Some(Suit::Spades))
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match self.phase {
            DealPhase::Bidding => match self.side_to_bid() {
                Some(side) => Some(self.choosing(side)).filter(|c| !c.is_empty()).unwrap_or_else(|| self.bidders(side)),
                None => Vec::new(),
            },
            DealPhase::Exchange(Exchange::BlindNilToGive) => self.blind_nil.into_iter().collect(),
            DealPhase::Exchange(Exchange::PartnerToGive) => {
                self.blind_nil.map(|s| TABLE.partner(s)).into_iter().collect()
            }
            DealPhase::Play if !self.play.is_over() => vec![self.play.to_play()],
            DealPhase::Play | DealPhase::Cancelled => Vec::new(),
        }
    }

    fn is_live(&self) -> bool {
        self.phase != DealPhase::Cancelled && !self.play.is_over()
    }

    fn phase(&self) -> Phase {
        match self.phase {
            DealPhase::Bidding => match self.side_to_bid() {
                Some(side) if !self.choosing(side).is_empty() => Phase::BlindNilChoice,
                _ => Phase::Bidding,
            },
            DealPhase::Exchange(_) => Phase::Exchange,
            DealPhase::Play if self.play.is_over() => Phase::DealOver,
            DealPhase::Play => Phase::Play,
            DealPhase::Cancelled => Phase::Redeal,
        }
    }
}

impl Deal {
    fn side_to_bid(&self) -> Option<usize> {
        let first = TABLE.side(TABLE.forehand(self.dealer));
        [first, 1 - first].into_iter().find(|&side| self.bids[side].is_none())
    }

    /// Players of `side` still to choose between blind nil and looking.
    fn choosing(&self, side: usize) -> Vec<Seat> {
        if self.blind_nil_side != Some(side) {
            return Vec::new();
        }
        seat::side_seats(side).into_iter().filter(|&s| !self.looked[s] && self.blind_nil != Some(s)).collect()
    }

    fn bidders(&self, side: usize) -> Vec<Seat> {
        seat::side_seats(side).into_iter().filter(|&s| self.blind_nil != Some(s)).collect()
    }

    fn blind_nil_on(&self, side: usize) -> Option<Seat> {
        self.blind_nil.filter(|&s| TABLE.side(s) == side)
    }

    fn hand(&self, seat: Seat) -> &[Card] {
        &self.play.hands[seat]
    }

    fn start_play(&mut self) {
        let leader = (0..SEATS).find(|&s| self.hand(s).contains(&TWO_OF_CLUBS)).unwrap_or(0);
        self.phase = DealPhase::Play;
        self.play.trick = Trick::led_by(leader);
    }

    /// Seats that know where `card` is: the `holder` if it has looked, and the giver and the
    /// receiver of an exchange.
    fn knowers(&self, card: Card, holder: impl Iterator<Item = Seat>) -> Vec<Seat> {
        let gifts = self.gifts.iter().filter(|g| g.cards.contains(&card));
        let mut knowers: Vec<Seat> = gifts.flat_map(|g| [g.from, g.to]).chain(holder).collect();
        knowers.sort_unstable();
        knowers.dedup();
        knowers
    }
}

impl State {
    fn blind_nil_side(&self) -> Option<usize> {
        if !self.options.blind_nil {
            return None;
        }
        let scores = &self.deals.scores;
        (0..2).find(|&side| scores[1 - side] - scores[side] >= BLIND_NIL_GAP)
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Bid blind nil without having looked at one's cards.
    BlindNil,
    /// Pick up one's cards (the alternative to blind nil on a side that may bid it).
    Look,
    RequestRedeal,
    /// The side's bid: joint tricks, or with `nil` a nil for that seat plus the partner's tricks.
    Bid {
        #[cfg_attr(feature = "openapi", schema(maximum = 255))]
        tricks: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nil: Option<Seat>,
    },
    /// Two cards passed face down to the partner after a blind nil.
    Give {
        cards: Vec<Card>,
    },
    DeclineExchange,
    Play {
        card: Card,
    },
}

/// A side's bid as it stands for the deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideBid {
    /// The partner who entered it.
    pub by: Seat,
    /// The side's tricks; with a nil, the tricks bid by the nil bidder's partner.
    pub tricks: u8,
    pub nil: Option<Seat>,
    pub blind_nil: bool,
}

impl SideBid {
    fn is_side_nil(&self) -> bool {
        self.nil.is_none() && self.tricks == 0
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RedealReason {
    NoSpades,
    NoCourtCards,
    LongSuit { suit: Suit, cards: usize },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        /// The whole pack, top card first: the deal replays from it.
        deck: Vec<Card>,
        hands: [Vec<Card>; SEATS],
        /// What the deal inherits.
        scores: [i64; 2],
        overtricks: [u32; 2],
        /// The side 100 or more behind: its players start without having looked at their cards.
        blind_nil_side: Option<usize>,
    },
    BlindNilDeclared {
        seat: Seat,
    },
    HandLookedAt {
        seat: Seat,
        hand: Vec<Card>,
    },
    RedealRequested {
        seat: Seat,
        reasons: Vec<RedealReason>,
        /// Who deals again.
        dealer: Seat,
    },
    BidMade {
        seat: Seat,
        side: usize,
        tricks: u8,
        nil: Option<Seat>,
        blind_nil: bool,
    },
    CardsGiven {
        from: Seat,
        to: Seat,
        cards: Vec<Card>,
    },
    ExchangeDeclined {
        seat: Seat,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
        trick_number: u8,
    },
    SpadesBroken {
        seat: Seat,
        card: Card,
        trick_number: u8,
    },
    TrickWon {
        trick_number: u8,
        winner: Seat,
        card: Card,
        reason: WinReason,
        plays: Vec<(Seat, Card)>,
    },
    DealScored {
        deal_number: u32,
        bids: [SideBid; 2],
        tricks_taken: [u8; SEATS],
        side_tricks: [u8; 2],
        terms: Vec<ScoreTerm>,
        overtricks_taken: [u8; 2],
        sandbag_penalties: [u32; 2],
        points: [i64; 2],
        scores: [i64; 2],
        overtricks: [u32; 2],
    },
    MatchEnded {
        side: usize,
        winners: Vec<Seat>,
        scores: [i64; 2],
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Hand tests shared by decide, legal_moves and the bot

/// Why this hand may ask for a redeal (empty: it may not). The ace is not a court card.
pub fn redeal_reasons(hand: &[Card]) -> Vec<RedealReason> {
    let mut reasons = Vec::new();
    if !hand.iter().any(|&c| is_spade(c)) {
        reasons.push(RedealReason::NoSpades);
    }
    if !hand.iter().any(|c| c.rank().is_some_and(|r| r.is_court())) {
        reasons.push(RedealReason::NoCourtCards);
    }
    for suit in Suit::ALL {
        let cards = hand.iter().filter(|c| c.is_suit(suit)).count();
        if cards >= 7 {
            reasons.push(RedealReason::LongSuit { suit, cards });
        }
    }
    reasons
}

/// Whether `seat` may play `card` now, and if not the rule it breaks.
fn check_play(deal: &Deal, seat: Seat, card: Card) -> Result<(), RuleViolation> {
    deal.play.check_held(seat, card)?;
    let Some(broken) = broken_rule(deal, seat, card) else {
        return Ok(());
    };
    let (sv, en) = match broken {
        rule::TWO_OF_CLUBS_LEADS => (
            format!("Du spelade ut {card}, men första sticket öppnas med klöver 2, som du har."),
            format!("You led {card}, but the first trick is opened with the two of clubs, which you hold."),
        ),
        rule::SPADES_NOT_BROKEN => (
            format!("Du spelade ut {card}, men spader får inte spelas ut förrän spadern är bruten, så länge du har andra färger."),
            format!("You led {card}, but spades may not be led before they are broken while you hold other suits."),
        ),
        rule::LOWEST_CLUB => {
            let low = lowest_club(deal.hand(seat)).unwrap_or(card);
            (
                format!("Du lade {card}, men i första sticket ska du lägga din lägsta klöver, {low}."),
                format!("You played {card}, but in the first trick you must play your lowest club, {low}."),
            )
        }
        rule::NO_SPADES_FIRST_TRICK => (
            format!("Du lade {card}, men utan klöver ska du i första sticket lägga en ruter eller hjärter, inte spader."),
            format!("You played {card}, but without clubs you must play a diamond or a heart to the first trick, not a spade."),
        ),
        _ => return deal.play.check_follow(seat, card, rule::FOLLOW_SUIT),
    };
    Err(RuleViolation::new(broken, sv, en))
}

/// The rule playing `card` (held) now would break, if any: the one test of a play, behind both
/// the list of playable cards and a refusal, with no words built, as the bots list cards often.
fn broken_rule(deal: &Deal, seat: Seat, card: Card) -> Option<&'static str> {
    let hand = deal.hand(seat);
    let first_trick = deal.play.tricks.is_empty();
    match deal.play.trick.led_suit() {
        None if first_trick && card != TWO_OF_CLUBS => Some(rule::TWO_OF_CLUBS_LEADS),
        None if !first_trick && is_spade(card) && !deal.spades_broken && hand.iter().any(|&c| !is_spade(c)) => {
            Some(rule::SPADES_NOT_BROKEN)
        }
        Some(_) if first_trick => match lowest_club(hand) {
            Some(low) if card != low => Some(rule::LOWEST_CLUB),
            None if is_spade(card) && hand.iter().any(|&c| !is_spade(c)) => Some(rule::NO_SPADES_FIRST_TRICK),
            _ => None,
        },
        _ => (!deal.play.follows(seat, card)).then_some(rule::FOLLOW_SUIT),
    }
}

fn lowest_club(hand: &[Card]) -> Option<Card> {
    hand.iter().copied().filter(|c| c.is_suit(Suit::Clubs)).min_by_key(|&c| rank_value(c))
}

fn check_bid(deal: &Deal, side: usize, tricks: u8, nil: Option<Seat>) -> Result<(), RuleViolation> {
    if let Some(blind) = deal.blind_nil_on(side) {
        if nil.is_some() || !(1..=TRICKS).contains(&tricks) {
            return Err(RuleViolation::new(
                rule::BLIND_PARTNER_BIDS,
                format!("Plats {blind} har bjudit blindnoll; lagets bud är då ditt eget på 1 till 13 stick, utan något annat nollbud."),
                format!("Seat {blind} has bid blind nil; the side's bid is then your own bid of 1 to 13 tricks, with no other nil."),
            ));
        }
        return Ok(());
    }
    if tricks > TRICKS {
        return Err(RuleViolation::new(
            rule::BID_RANGE,
            format!("Du bjöd {tricks} stick; ett bud är 0 till 13 stick."),
            format!("You bid {tricks} tricks; a bid is 0 to 13 tricks."),
        ));
    }
    if let Some(n) = nil {
        if TABLE.side(n) != side || n >= SEATS {
            return Err(RuleViolation::new(
                rule::BID_NIL_SEAT,
                format!("Du bjöd noll för plats {n}, men ett nollbud gäller en spelare i ditt eget lag (plats {} eller {}).", side, side + 2),
                format!("You bid nil for seat {n}, but a nil is for a player of your own side (seat {} or {}).", side, side + 2),
            ));
        }
        if tricks == 0 {
            return Err(RuleViolation::new(
                rule::BID_NIL_PARTNER,
                "Du bjöd noll för en spelare och noll stick för partnern; partnern till en nollbjudare bjuder minst ett stick (eller så enas laget om noll utan att namnge någon).",
                "You bid nil for one player and no tricks for the partner; a nil bidder's partner bids at least one trick (or the side agrees on nil without naming anyone).",
            ));
        }
    }
    Ok(())
}

fn check_give(deal: &Deal, seat: Seat, cards: &[Card]) -> Result<(), RuleViolation> {
    if cards.len() != 2 || cards[0] == cards[1] {
        return Err(RuleViolation::new(
            rule::EXCHANGE_TWO_CARDS,
            format!("Du försökte ge {} kort; man ger exakt två olika kort.", cards.len()),
            format!("You tried to give {} card(s); exactly two different cards are given.", cards.len()),
        ));
    }
    match cards.iter().find(|c| !deal.hand(seat).contains(c)) {
        Some(&c) => Err(RuleViolation::card_not_held(c)),
        None => Ok(()),
    }
}

fn all_pairs(hand: &[Card]) -> Vec<Command> {
    let pairs = |(i, &a): (usize, &Card)| hand[i + 1..].iter().map(move |&b| Command::Give { cards: vec![a, b] });
    hand.iter().enumerate().flat_map(pairs).collect()
}

/// The cards `seat` may play now.
fn playable(deal: &Deal, seat: Seat) -> Vec<Card> {
    deal.hand(seat).iter().copied().filter(|&c| broken_rule(deal, seat, c).is_none()).collect()
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_bidding(state: &State, deal: &Deal, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let side = TABLE.side(seat);
    // A player of a side that may bid blind nil first chooses between that and looking.
    let choosing = !deal.choosing(side).is_empty();
    match command {
        Command::Look if choosing => Ok(vec![Event::HandLookedAt { seat, hand: deal.hand(seat).to_vec() }]),
        Command::BlindNil if choosing && deal.blind_nil.is_none() => Ok(vec![Event::BlindNilDeclared { seat }]),
        Command::Bid { .. } if choosing => Err(RuleViolation::new(
            rule::BLIND_CHOOSE_FIRST,
            "Du försökte bjuda, men först väljer du blindnoll eller att titta på dina kort.",
            "You tried to bid, but first you choose blind nil or looking at your cards.",
        )),
        Command::RequestRedeal if choosing => Err(RuleViolation::new(
            rule::REDEAL_WHEN,
            "Du begärde omgiv utan att ha tittat på dina kort; titta först.",
            "You asked for a redeal without having looked at your cards; look first.",
        )),
        Command::Give { .. } | Command::DeclineExchange | Command::Play { .. } if choosing => {
            Err(RuleViolation::wrong_phase(
                "nu väljer du blindnoll eller att titta på korten",
                "now you choose blind nil or looking at your cards",
            ))
        }
        Command::Bid { tricks, nil } => {
            check_bid(deal, side, *tricks, *nil)?;
            let blind_nil = deal.blind_nil_on(side);
            let (tricks, nil) = (*tricks, blind_nil.or(*nil));
            let mut events = vec![Event::BidMade { seat, side, tricks, nil, blind_nil: blind_nil.is_some() }];
            // The last bid ends the bidding: a blind-nil player picks up the cards then.
            if let (Some(_), Some(b)) = (deal.bids[1 - side], deal.blind_nil) {
                events.push(Event::HandLookedAt { seat: b, hand: deal.hand(b).to_vec() });
            }
            Ok(events)
        }
        Command::RequestRedeal => {
            if !state.options.redeal {
                return Err(RuleViolation::new(
                    rule::OPTION_REDEAL,
                    "Du begärde omgiv, men i det här partiet ges inga omgivar.",
                    "You asked for a redeal, but this match is played without redeals.",
                ));
            }
            let reasons = redeal_reasons(deal.hand(seat));
            if reasons.is_empty() {
                return Err(RuleViolation::new(
                    rule::REDEAL_CONDITIONS,
                    "Du begärde omgiv, men din hand har både spader och klädda kort och ingen färg med sju kort eller fler.",
                    "You asked for a redeal, but your hand has spades, court cards and no suit of seven or more.",
                ));
            }
            Ok(vec![Event::RedealRequested { seat, reasons, dealer: deal.dealer }])
        }
        Command::BlindNil => {
            let (rule, sv, en) = if !state.options.blind_nil {
                let sv = "Du bjöd blindnoll, men det här partiet spelas utan blindnoll.";
                (rule::OPTION_BLIND_NIL, sv, "You bid blind nil, but this match is played without blind nil.")
            } else if deal.blind_nil_side != Some(side) {
                let sv = "Du bjöd blindnoll, men ditt lag låg inte 100 poäng efter när given började.";
                let en = "You bid blind nil, but your side was not 100 points behind when the deal started.";
                (rule::BLIND_ELIGIBLE, sv, en)
            } else if deal.blind_nil.is_some() {
                let sv = "Din partner har redan bjudit blindnoll; högst en per lag.";
                (rule::BLIND_ONE_PER_SIDE, sv, "Your partner has already bid blind nil; at most one per side.")
            } else {
                let sv = "Du bjöd blindnoll, men du har redan tittat på dina kort.";
                (rule::BLIND_BEFORE_LOOKING, sv, "You bid blind nil, but you have already looked at your cards.")
            };
            Err(RuleViolation::new(rule, sv, en))
        }
        Command::Look => {
            Err(RuleViolation::wrong_phase("du har redan tittat på dina kort", "you have already looked at your cards"))
        }
        Command::Give { .. } | Command::DeclineExchange => Err(RuleViolation::new(
            rule::EXCHANGE_OFFER,
            "Kort byts bara efter budgivningen, och bara efter en blindnoll.",
            "Cards are exchanged only after the bidding, and only after a blind nil.",
        )),
        Command::Play { .. } => Err(RuleViolation::wrong_phase(
            "korten spelas först när båda lagen har bjudit",
            "cards are played once both sides have bid",
        )),
    }
}

fn decide_exchange(deal: &Deal, giver: Exchange, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    match (command, giver) {
        (Command::Give { cards }, _) => {
            check_give(deal, seat, cards)?;
            Ok(vec![Event::CardsGiven { from: seat, to: TABLE.partner(seat), cards: sorted(cards.clone()) }])
        }
        (Command::DeclineExchange, Exchange::BlindNilToGive) => Ok(vec![Event::ExchangeDeclined { seat }]),
        (Command::DeclineExchange, Exchange::PartnerToGive) => Err(RuleViolation::new(
            rule::EXCHANGE_GIVE_BACK,
            "Du fick två kort av din partner och ska ge två tillbaka.",
            "You received two cards from your partner and must give two back.",
        )),
        _ => Err(RuleViolation::wrong_phase(
            "nu byter blindnollspelaren och partnern kort",
            "now the blind-nil player and the partner exchange cards",
        )),
    }
}

fn decide_play(state: &State, deal: &Deal, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let card = match command {
        Command::Play { card } => *card,
        _ => return Err(RuleViolation::wrong_phase("nu spelas korten", "the cards are being played now")),
    };
    check_play(deal, seat, card)?;
    let trick_number = deal.play.number() as u8;
    let mut events = vec![Event::CardPlayed { seat, card, trick_number }];
    if is_spade(card) && !deal.spades_broken {
        events.push(Event::SpadesBroken { seat, card, trick_number });
    }
    if let Some(won) = deal.play.completed_by(seat, card, &spades_trump) {
        let plays = won.plays.iter().map(|p| (p.seat, p.card)).collect();
        events.push(Event::TrickWon { trick_number, winner: won.winner, card: won.card, reason: won.reason, plays });
        if won.last {
            events.extend(score_deal(state, deal, std::array::from_fn(|s| won.taken[s] as u8)));
        }
    }
    Ok(events)
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve_deal(deal: &mut Deal, event: &Event) {
    match event {
        Event::BlindNilDeclared { seat } => deal.blind_nil = Some(*seat),
        Event::HandLookedAt { seat, .. } => {
            deal.looked[*seat] = true;
            // The exchange waits until the blind-nil player has seen the cards to give from.
            let bidding_over = deal.bids.iter().all(Option::is_some);
            if deal.phase == DealPhase::Bidding && bidding_over && deal.blind_nil == Some(*seat) {
                deal.phase = DealPhase::Exchange(Exchange::BlindNilToGive);
            }
        }
        Event::BidMade { seat, side, tricks, nil, blind_nil } => {
            deal.bids[*side] = Some(SideBid { by: *seat, tricks: *tricks, nil: *nil, blind_nil: *blind_nil });
            // After a blind nil the deal moves on when that player looks at the cards.
            if deal.bids.iter().all(Option::is_some) && deal.blind_nil.is_none() {
                deal.start_play();
            }
        }
        Event::CardsGiven { from, to, cards } => {
            let hands = &mut deal.play.hands;
            for &c in cards {
                take_card(&mut hands[*from], c);
            }
            hands[*to].extend(cards.iter().copied());
            hands[*to] = sorted(std::mem::take(&mut hands[*to]));
            deal.gifts.push(Gift { from: *from, to: *to, cards: cards.clone() });
            if Some(*from) == deal.blind_nil {
                deal.phase = DealPhase::Exchange(Exchange::PartnerToGive);
            } else {
                deal.start_play();
            }
        }
        Event::ExchangeDeclined { .. } => deal.start_play(),
        Event::CardPlayed { seat, card, .. } => deal.play.play(*seat, *card),
        Event::SpadesBroken { .. } => deal.spades_broken = true,
        Event::TrickWon { winner, card, reason, .. } => deal.play.won(*winner, *card, *reason),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// The score terms of one side's bid, and the overtricks it adds to the side's tally.
pub fn side_terms(side: usize, bid: &SideBid, taken: &[u8; SEATS]) -> (Vec<ScoreTerm>, u8) {
    let term = |points: i64, rule: &str, sv: String, en: String| ScoreTerm::new(side, points, rule, sv, en);
    let took = taken[side] + taken[side + 2];
    if bid.is_side_nil() {
        // A side nil is all or nothing: its tricks are neither counted for a bid nor overtricks.
        let (sv, en) = ("Laget enades om noll", "The side agreed on nil");
        let only = if took == 0 {
            let (sv, en) = (format!("{sv} och tog inget stick"), format!("{en} and took no trick"));
            term(NIL_POINTS, rule::SIDE_NIL_MADE, format!("{sv}: +{NIL_POINTS}"), format!("{en}: +{NIL_POINTS}"))
        } else {
            let (sv, en) = (format!("{sv} men tog {took} stick"), format!("{en} but took {took} tricks"));
            term(-NIL_POINTS, rule::SIDE_NIL_FAILED, format!("{sv}: -{NIL_POINTS}"), format!("{en}: -{NIL_POINTS}"))
        };
        return (vec![only], 0);
    }
    let mut terms = Vec::new();
    let mut nil_note = (String::new(), String::new());
    if let Some(n) = bid.nil {
        let (sv, en, worth, rules) = if bid.blind_nil {
            ("blindnoll", "blind nil", BLIND_NIL_POINTS, [rule::BLIND_NIL_MADE, rule::BLIND_NIL_FAILED])
        } else {
            ("noll", "nil", NIL_POINTS, [rule::NIL_MADE, rule::NIL_FAILED])
        };
        let t = taken[n];
        terms.push(if t == 0 {
            term(worth, rules[0], format!("Plats {n} klarade {sv}: +{worth}"), format!("Seat {n} made {en}: +{worth}"))
        } else {
            nil_note = (format!(" (varav {t} av nollbjudaren)"), format!(" (including {t} by the nil bidder)"));
            let sv = format!("Plats {n} bjöd {sv} men tog {t} stick: -{worth}");
            term(-worth, rules[1], sv, format!("Seat {n} bid {en} but took {t} tricks: -{worth}"))
        });
    }
    let (bid, (sv_note, en_note)) = (bid.tricks, nil_note);
    if took < bid {
        let short = bid - took;
        let points = -10 * i64::from(short);
        let sv = format!("Bud {bid} stick, laget tog bara {took}{sv_note}: {short} × -10 = {points}");
        let en = format!("Bid {bid} tricks, the side took only {took}{en_note}: {short} × -10 = {points}");
        terms.push(term(points, rule::BID_FAILED, sv, en));
        return (terms, 0);
    }
    let points = 10 * i64::from(bid);
    let sv = format!("Bud {bid} stick, laget tog {took}{sv_note}: {bid} × 10 = {points}");
    let en = format!("Bid {bid} tricks, the side took {took}{en_note}: {bid} × 10 = {points}");
    terms.push(term(points, rule::BID_MADE, sv, en));
    let over = took - bid;
    if over > 0 {
        let (sv, en) = (format!("{over} överstick × 1 = {over}"), format!("{over} overtricks × 1 = {over}"));
        terms.push(term(i64::from(over), rule::OVERTRICKS, sv, en));
    }
    (terms, over)
}

/// Adds a deal's overtricks to a side's tally; returns the new tally and the penalty terms.
pub fn sandbag(side: usize, tally: u32, taken: u8, enabled: bool) -> (u32, Vec<ScoreTerm>) {
    let mut tally = tally + u32::from(taken);
    let mut terms = Vec::new();
    while enabled && tally >= SANDBAG_LIMIT {
        let reached = tally;
        tally -= SANDBAG_LIMIT;
        terms.push(ScoreTerm::new(
            side,
            -SANDBAG_PENALTY,
            rule::SANDBAGGING,
            format!("Laget har samlat {reached} överstick: -{SANDBAG_PENALTY}, {tally} sparas"),
            format!("The side has gathered {reached} overtricks: -{SANDBAG_PENALTY}, {tally} carried over"),
        ));
    }
    (tally, terms)
}

/// The winning side once a deal is scored, if the match is over.
pub fn match_winner(scores: [i64; 2], target: i64) -> Option<usize> {
    let reached = scores.iter().any(|&s| s >= target);
    // Both past the target and level: play on (house rule).
    (reached && scores[0] != scores[1]).then(|| if scores[0] > scores[1] { 0 } else { 1 })
}

fn score_deal(state: &State, deal: &Deal, taken: [u8; SEATS]) -> Vec<Event> {
    let bids = deal.bids.map(|b| b.expect("both sides have bid before play"));
    let (mut terms, mut overtricks_taken, mut sandbag_penalties) = (Vec::new(), [0u8; 2], [0u32; 2]);
    let mut overtricks = state.overtricks;
    for side in 0..2 {
        let (side_terms, over) = side_terms(side, &bids[side], &taken);
        terms.extend(side_terms);
        overtricks_taken[side] = over;
        let (tally, penalties) = sandbag(side, state.overtricks[side], over, state.options.sandbagging);
        overtricks[side] = tally;
        sandbag_penalties[side] = penalties.len() as u32;
        terms.extend(penalties);
    }
    let (points, scores) = state.deals.tally::<2>(&terms);
    let side_tricks = [taken[0] + taken[2], taken[1] + taken[3]];
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        bids,
        tricks_taken: taken,
        side_tricks,
        terms,
        overtricks_taken,
        sandbag_penalties,
        points,
        scores,
        overtricks,
    }];
    if let Some(side) = match_winner(scores, state.options.target) {
        let [a, b] = seat::side_seats(side);
        let (won, lost, target) = (scores[side], scores[1 - side], state.options.target);
        events.push(Event::MatchEnded {
            side,
            winners: vec![a, b],
            scores,
            explanation: Text::new(
                format!("Lag {side} (plats {a} och {b}) vann med {won} mot {lost} poäng; målet var {target}."),
                format!("Side {side} (seats {a} and {b}) won by {won} points to {lost}; the target was {target}."),
            ),
        });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The table view

/// Where the match is: `waiting_for_deal` before the first deal, `blind_nil_choice` while a player
/// of a side 100 or more behind chooses between blind nil and looking at the cards, `bidding`,
/// `exchange` of two cards after a blind nil, `play` of the tricks, `deal_over` once the deal is
/// scored and the next is awaited, `redeal` once a player had the deal cancelled (the same dealer
/// deals again), `finished` once a side has won the match.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// No deal has been dealt yet.
    WaitingForDeal,
    /// A player of the side to bid, 100 or more behind, chooses between blind nil and looking
    /// at the cards.
    BlindNilChoice,
    /// The side to bid gives its bid (either partner may enter it).
    Bidding,
    /// After a blind nil, the blind nil bidder and the partner pass each other two cards.
    Exchange,
    /// The thirteen tricks are being played.
    Play,
    /// The deal is played out and scored; the next deal is awaited.
    DealOver,
    /// A player asked for a redeal and the deal was cancelled; the same dealer deals again.
    Redeal,
    /// A side reached the target and won the match.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// Who is to give two cards in the exchange after a blind nil: `blind_nil_to_give` (the blind nil
/// bidder gives first) or `partner_to_give` (the partner gives back).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Exchange {
    /// The blind nil bidder gives first.
    BlindNilToGive,
    /// The blind nil bidder's partner gives back.
    PartnerToGive,
}

/// A redeal asked for, and why the hand allowed it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Redeal {
    /// The player who asked.
    pub seat: Seat,
    /// What in that hand allowed it.
    pub reasons: Vec<RedealReason>,
}

/// The table as one viewer sees it: the match, and from the first deal on the deal being played
/// (or the last one played). A seat sees its own hand once it has looked at it and the cards it
/// gave or was given; a finished deal's record shows every card. Spader's views do not say which
/// seat they are for.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, scores, who is to act, how it ended.
    #[serde(flatten)]
    pub deals: MatchView,
    /// Each side's overtricks carried towards the sandbagging penalty, side 0 (seats 0 and 2)
    /// first.
    pub overtricks: [u32; 2],
    /// The score that ends the match.
    pub target: i64,
    /// The options the match is played with.
    pub options: Options,
    /// The deal's forehand, the seat after the dealer: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The side to bid: null outside the bidding, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side_to_bid: Option<Option<usize>>,
    /// The side 100 or more behind at the deal's start, which may bid blind nil: null if none
    /// may, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blind_nil_side: Option<Option<usize>>,
    /// The seat that bid blind nil: null if none did, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blind_nil: Option<Option<Seat>>,
    /// By seat, whether that player has looked at the cards: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub looked: Option<[bool; SEATS]>,
    /// Each side's bid, side 0 first, null until that side has bid: absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub bids: Option<[Option<SideBid>; 2]>,
    /// Tricks taken in this deal by each side, side 0 first: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub side_tricks: Option<[u32; 2]>,
    /// Whether a spade has been played in this deal, so that spades may be led: absent before
    /// the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub spades_broken: Option<bool>,
    /// Who is to give cards: null outside the exchange, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exchange: Option<Option<Exchange>>,
    /// The redeal that cancelled the deal: null unless one was asked for, absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redeal: Option<Option<Redeal>>,
    /// The card play of the deal: absent before the first deal.
    #[serde(flatten)]
    pub play: PlayView,
    /// The viewer's own hand, null until that player has looked at it (a blind nil bidder looks
    /// only after the bidding): only in a seat's view, from the first deal on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Option<Vec<Card>>>,
    /// In a seat's view, the cards that seat gave or was given in the exchange; in a finished
    /// deal's record, every gift. Absent before the first deal and in a spectator's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub given: Option<Vec<Gift>>,
    /// The pack as it was dealt, top card first: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
}

// ---------------------------------------------------------------------------------------------
// The bot

/// What the bot expects from a partner whose hand it cannot see.
const PARTNER_GUESS: f64 = 2.0;

fn bot_bid(deal: &Deal, seat: Seat, rng: &mut Rng) -> Command {
    let side = TABLE.side(seat);
    let hand = deal.hand(seat);
    let own = bots::estimate_tricks(hand, Some(Suit::Spades), SEATS);
    let clamp = |x: f64| (x.round() as i64).clamp(1, i64::from(TRICKS)) as u8;
    if deal.blind_nil_on(side).is_some() {
        return Command::Bid { tricks: clamp(own), nil: None };
    }
    let weak = own < 1.0 && !hand.iter().any(|&c| is_spade(c) && rank_value(c) >= 11);
    if weak && rng.below(3) == 0 {
        return Command::Bid { tricks: clamp(PARTNER_GUESS + 1.0), nil: Some(seat) };
    }
    Command::Bid { tricks: clamp(own + PARTNER_GUESS), nil: None }
}

/// The blind-nil player sheds its two strongest cards (spades first); the partner returns its
/// two weakest.
fn give(deal: &Deal, seat: Seat, giver: Exchange) -> Command {
    let mut hand = deal.hand(seat).to_vec();
    hand.sort_by_key(|&c| (is_spade(c), rank_value(c)));
    let pair = if giver == Exchange::BlindNilToGive { &hand[hand.len() - 2..] } else { &hand[..2] };
    Command::Give { cards: sorted(pair.to_vec()) }
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Spader {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "spader";
    const PLAYERS: RangeInclusive<usize> = SEATS..=SEATS;
    const RULEBOOK: &'static str = include_str!("rulebooks/spader.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        let all = Options::default();
        vec![
            all.clone(),
            Options { blind_nil: false, redeal: false, sandbagging: false, ..all.clone() },
            Options { target: 150, ..all.clone() },
            Options { sandbagging: false, target: 200, ..all },
        ]
    }

    fn setup(&self, _players: usize, options: Options) -> Result<State, SetupError> {
        deals::check_target(options.target)?;
        Ok(State { options, deals: Deals::new(2), overtricks: [0; 2], overtrick_books: None, penalty_gap: [0; 2] })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let hands = deals::deal_singly(&TABLE, dealer, &deck);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: TABLE.forehand(dealer),
            deck,
            hands: std::array::from_fn(|s| sorted(hands[s].clone())),
            scores: [state.deals.scores[0], state.deals.scores[1]],
            overtricks: state.overtricks,
            blind_nil_side: state.blind_nil_side(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match deal.phase {
            DealPhase::Bidding => decide_bidding(state, deal, seat, command),
            // Once the side has bid, in the exchange or the play.
            _ if *command == Command::RequestRedeal => Err(RuleViolation::new(
                rule::REDEAL_WHEN,
                "Omgiv kan bara begäras medan det egna laget står på tur att bjuda.",
                "A redeal can only be asked for while your own side is to bid.",
            )),
            DealPhase::Exchange(giver) => decide_exchange(deal, giver, seat, command),
            DealPhase::Play | DealPhase::Cancelled => decide_play(state, deal, seat, command),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, deck, hands, scores, overtricks, blind_nil_side, .. } => {
                state.overtrick_books.get_or_insert(overtricks.map(i64::from));
                state.overtricks = *overtricks;
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    looked: std::array::from_fn(|s| Some(TABLE.side(s)) != *blind_nil_side),
                    blind_nil_side: *blind_nil_side,
                    blind_nil: None,
                    bids: [None; 2],
                    gifts: Vec::new(),
                    phase: DealPhase::Bidding,
                    spades_broken: false,
                    redeal: None,
                    play: TrickPlay::new(TABLE, hands.to_vec(), TABLE.forehand(*dealer), TRICKS as usize),
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::RedealRequested { seat, reasons, dealer } => {
                state.deals.next_dealer = *dealer;
                if let Some(deal) = &mut state.deals.deal {
                    deal.phase = DealPhase::Cancelled;
                    deal.redeal = Some(Redeal { seat: *seat, reasons: reasons.clone() });
                }
            }
            Event::DealScored { scores, overtricks, terms, overtricks_taken, sandbag_penalties, .. } => {
                state.deals.scored(terms, scores);
                for side in 0..2 {
                    let penalties = i64::from(sandbag_penalties[side]);
                    if let Some(books) = &mut state.overtrick_books {
                        books[side] += i64::from(overtricks_taken[side]) - i64::from(SANDBAG_LIMIT) * penalties;
                    }
                    let terms = terms.iter().filter(|t| t.to == side && t.rule == rule::SANDBAGGING).count();
                    state.penalty_gap[side] += penalties - terms as i64;
                }
                state.overtricks = *overtricks;
                if let Some(deal) = &state.deals.deal {
                    state.deals.next_dealer = TABLE.next(deal.dealer);
                }
            }
            Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
            _ => {
                if let Some(deal) = &mut state.deals.deal {
                    evolve_deal(deal, event);
                }
            }
        }
    }

    /// The commands of the phase that `decide` accepts, in a stable order.
    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        let candidates: Vec<Command> = match deal.phase {
            DealPhase::Bidding => {
                let nils = [None].into_iter().chain((0..SEATS).map(Some));
                let bids = nils.flat_map(|nil| (0..=TRICKS).map(move |tricks| Command::Bid { tricks, nil }));
                [Command::Look, Command::BlindNil].into_iter().chain(bids).chain([Command::RequestRedeal]).collect()
            }
            DealPhase::Exchange(_) => {
                all_pairs(deal.hand(seat)).into_iter().chain([Command::DeclineExchange]).collect()
            }
            DealPhase::Play | DealPhase::Cancelled => {
                return playable(deal, seat).into_iter().map(|card| Command::Play { card }).collect()
            }
        };
        candidates.into_iter().filter(|c| self.decide(state, seat, c).is_ok()).collect()
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut moves = vec![Command::Look, Command::BlindNil, Command::RequestRedeal, Command::DeclineExchange];
        // Outside the bidding a few bids suffice to show that none is taken.
        let bidding = state.deals.live().is_some_and(|d| d.phase == DealPhase::Bidding);
        for tricks in if bidding { 0..=TRICKS + 1 } else { 4..=4 } {
            moves.push(Command::Bid { tricks, nil: None });
            moves.extend((0..SEATS).map(|n| Command::Bid { tricks, nil: Some(n) }));
        }
        moves.extend(decks::standard52().into_iter().map(|card| Command::Play { card }));
        if let Some(deal) = state.deals.deal.as_ref().filter(|d| seat < SEATS && d.looked[seat]) {
            let hand = deal.hand(seat);
            // Every pair in the exchange, one outside it; then one card, one card twice, three.
            let pairs = all_pairs(hand).into_iter();
            moves.extend(pairs.take(if matches!(deal.phase, DealPhase::Exchange(_)) { usize::MAX } else { 1 }));
            let odd = hand
                .first()
                .into_iter()
                .flat_map(|&c| [vec![c], vec![c, c]])
                .chain(hand.get(..3).map(<[Card]>::to_vec));
            moves.extend(odd.map(|cards| Command::Give { cards }));
        }
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(SEATS);
        let record = viewer == Viewer::Record;
        let deal = state.deals.deal.as_ref();
        let play = deal.map(|d| &d.play);
        // A seat sees the gifts it gave or was given; the record sees them all.
        let sees = |g: &&Gift| record || me == Some(g.from) || me == Some(g.to);
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, SEATS, deal.map(|d| d.dealer)),
            overtricks: state.overtricks,
            target: state.options.target,
            options: state.options.clone(),
            forehand: deal.map(|d| TABLE.forehand(d.dealer)),
            side_to_bid: deal.map(|d| d.side_to_bid().filter(|_| d.phase == DealPhase::Bidding)),
            blind_nil_side: deal.map(|d| d.blind_nil_side),
            blind_nil: deal.map(|d| d.blind_nil),
            looked: deal.map(|d| d.looked),
            bids: deal.map(|d| d.bids),
            side_tricks: play.map(TrickPlay::side_tricks),
            spades_broken: deal.map(|d| d.spades_broken),
            exchange: deal.map(|d| if let DealPhase::Exchange(giver) = d.phase { Some(giver) } else { None }),
            redeal: deal.map(|d| d.redeal.clone()),
            play: play.map(|p| p.view(record)).unwrap_or_default(),
            hand: deal.zip(me).map(|(d, s)| d.looked[s].then(|| d.hand(s).to_vec())),
            given: deal.filter(|_| record || me.is_some()).map(|d| d.gifts.iter().filter(sees).cloned().collect()),
            deck: deal.filter(|_| record).map(|d| d.deck.clone()),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        // Without a live deal, every event shown belongs to a deal that is over.
        let Some(deal) = state.deals.live().filter(|_| viewer != Viewer::Record && !deal_over) else { return full };
        let hidden = |seat: Seat| viewer != Viewer::Seat(seat);
        match event {
            Event::DealStarted { deal_number, hands, .. } if *deal_number == deal.number => {
                deals::redact_hands(&mut full, hands, viewer, |s| deal.looked[s]);
            }
            Event::HandLookedAt { seat, .. } if hidden(*seat) => full["hand"] = Value::Null,
            Event::CardsGiven { from, to, .. } if hidden(*from) && hidden(*to) => full["cards"] = Value::Null,
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let secrets = deal.play.hand_secrets(|_, _| false).into_iter();
        secrets
            .map(|(card, holder)| (card, deal.knowers(card, holder.into_iter().filter(|&s| deal.looked[s]))))
            .collect()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let (overtricks, books) = (state.overtricks, state.overtrick_books);
        ensure!(
            books.is_none_or(|b| b == overtricks.map(i64::from)),
            "overtricks {overtricks:?} differ from {books:?}"
        );
        ensure!(state.penalty_gap == [0; 2], "sandbag penalties do not match their score terms");
        let limit_passed = state.options.sandbagging && overtricks.iter().any(|&o| o >= SANDBAG_LIMIT);
        ensure!(!limit_passed, "overtricks {overtricks:?} reached 10 without a penalty");
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        // Between the two halves of an exchange, two cards have moved from one partner to the other.
        let hand_size = |s: Seat| match (deal.phase, deal.blind_nil) {
            (DealPhase::Exchange(Exchange::PartnerToGive), Some(b)) if s == b => TRICKS as usize - 2,
            (DealPhase::Exchange(Exchange::PartnerToGive), Some(b)) if s == TABLE.partner(b) => TRICKS as usize + 2,
            _ => TRICKS as usize,
        };
        deal.play.check(&pack, &[], hand_size, &spades_trump)?;
        let trailing = deal.blind_nil.is_none_or(|b| Some(TABLE.side(b)) == deal.blind_nil_side);
        ensure!(trailing, "seat {:?} bid blind nil without being on the trailing side", deal.blind_nil);
        let playing = deal.phase == DealPhase::Play;
        ensure!(!playing || deal.bids.iter().all(Option::is_some), "play started before both sides bid");
        ensure!(!playing || deal.looked.iter().all(|&l| l), "a player plays without having seen their cards");
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let side = TABLE.side(seat);
        (state.deals.scores[side] - state.deals.scores[1 - side]) as f64
    }

    fn basic_move(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        match deal.phase {
            DealPhase::Bidding if !deal.choosing(TABLE.side(seat)).is_empty() => Some(Command::Look),
            DealPhase::Bidding => Some(bot_bid(deal, seat, rng)),
            DealPhase::Exchange(giver) => Some(give(deal, seat, giver)),
            DealPhase::Play | DealPhase::Cancelled => {
                let side = TABLE.side(seat);
                let bid = deal.bids[side]?;
                let nil = bid.nil.or(deal.blind_nil_on(side));
                // Take tricks until the side's bid is made, then duck (ten overtricks cost 100),
                // and never a trick as the nil bidder.
                let taken: u32 =
                    seat::side_seats(side).iter().filter(|&&s| Some(s) != nil).map(|&s| deal.play.taken[s]).sum();
                let aim =
                    if nil == Some(seat) || taken >= u32::from(bid.tricks) { bots::Aim::Duck } else { bots::Aim::Take };
                let partner = Some(TABLE.partner(seat)).filter(|&p| nil != Some(p));
                let last = deal.play.trick.plays.len() + 1 == SEATS;
                bots::basic_card(&playable(deal, seat), &deal.play.trick, Some(Suit::Spades), seat, partner, last, aim)
                    .map(|card| Command::Play { card })
            }
        }
    }

    /// During the play, the deal as `seat` knows it: its own hand, the cards played, the bids,
    /// the cards it passed in an exchange; the other hands dealt afresh (see
    /// [`bots::resample_play`]). Before the play the strong bot bids as the basic one does.
    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        let deal = state.deals.live()?;
        if deal.phase != DealPhase::Play {
            return None;
        }
        let known: Vec<(Seat, Card)> =
            deal.gifts.iter().filter(|g| g.from == seat).flat_map(|g| g.cards.iter().map(|&c| (g.to, c))).collect();
        let mut world = state.clone();
        let w = world.deals.live_mut()?;
        bots::resample_play(&mut w.play, seat, &decks::standard52(), &[], &known, &mut [], rng);
        // Not the deck as dealt (which nobody may see), but the same cards; the gifts seen only
        // by their two seats are kept only where this seat was one of them.
        w.deck = w.play.hands.iter().flatten().copied().chain(w.play.played().map(|(_, c)| c)).collect();
        w.gifts.retain(|g| g.from == seat || g.to == seat);
        Some(world)
    }

    /// The test bot: the basic bot with some noise, so that random matches see blind nils,
    /// redeals, declined exchanges and odd cards.
    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let mut rng = Rng::new(seed);
        let odd = match deal.phase {
            DealPhase::Bidding if !deal.choosing(TABLE.side(seat)).is_empty() => Command::BlindNil,
            DealPhase::Bidding => Command::RequestRedeal,
            DealPhase::Exchange(_) => Command::DeclineExchange,
            DealPhase::Play | DealPhase::Cancelled => {
                let legal = playable(deal, seat);
                Command::Play { card: legal[rng.below(legal.len())] }
            }
        };
        if rng.below(2) == 0 && self.decide(state, seat, &odd).is_ok() {
            return Some(odd);
        }
        self.basic_move(state, seat, &mut rng)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::cards::{card, cards};
    use crate::game::erase;
    use crate::game::Status;
    use crate::rules::core;
    use crate::simulate::{play_match, Checks, Driver};
    use serde_json::json;

    /// The table as `viewer` sees it, as JSON.
    fn view_json(state: &State, viewer: Viewer) -> Value {
        serde_json::to_value(Spader.view(state, viewer)).unwrap()
    }

    /// The shared driver, with commands written as JSON the way a client sends them.
    struct Match(Driver<Spader>);

    impl std::ops::Deref for Match {
        type Target = Driver<Spader>;
        fn deref(&self) -> &Driver<Spader> {
            &self.0
        }
    }

    impl std::ops::DerefMut for Match {
        fn deref_mut(&mut self) -> &mut Driver<Spader> {
            &mut self.0
        }
    }

    use crate::simulate::four_hands as hands;

    /// Seat 0 clubs, seat 1 diamonds, seat 2 hearts, seat 3 spades.
    fn suit_per_seat() -> [Vec<Card>; SEATS] {
        let pack = decks::standard52();
        std::array::from_fn(|s| pack[13 * s..13 * (s + 1)].to_vec())
    }

    /// The sorted pack dealt round: every hand has all four suits and court cards.
    fn plain() -> [Vec<Card>; SEATS] {
        let pack = decks::standard52();
        std::array::from_fn(|s| pack.iter().copied().skip(s).step_by(4).collect())
    }

    /// The pack order that gives these hands when `dealer` deals one card at a time.
    fn deck_for(dealer: Seat, hands: &[Vec<Card>; SEATS]) -> Vec<Card> {
        (0..52).map(|i| hands[(dealer + 1 + i) % SEATS][i / 4]).collect()
    }

    fn bid(tricks: u8) -> Value {
        json!({ "type": "bid", "tricks": tricks })
    }

    fn nil_bid(tricks: u8, nil: Seat) -> Value {
        json!({ "type": "bid", "tricks": tricks, "nil": nil })
    }

    fn play(c: &str) -> Value {
        json!({ "type": "play", "card": c })
    }

    fn command(json: Value) -> Command {
        serde_json::from_value(json).unwrap()
    }

    impl Match {
        fn new(options: Value) -> Match {
            Match(Driver::new(4, serde_json::from_value(options).unwrap()))
        }

        fn apply(&mut self, events: &[Event]) {
            self.0.apply(events.to_vec());
        }

        fn deal(&mut self, hands: &[Vec<Card>; SEATS]) -> Vec<Event> {
            let deck = deck_for(self.state.deals.next_dealer, hands);
            self.0.deal(deck)
        }

        fn act(&mut self, seat: Seat, json: Value) -> Vec<Event> {
            self.ok(seat, command(json))
        }

        /// The rule a refused command breaks; the refusal's text must be in both languages.
        fn refused(&self, seat: Seat, json: Value) -> String {
            let v = self.0.refused(seat, command(json));
            assert!(!v.explanation.sv.is_empty() && !v.explanation.en.is_empty());
            v.rule
        }

        fn current(&self) -> &Deal {
            self.state.deals.deal.as_ref().unwrap()
        }

        fn legal(&self, seat: Seat) -> Vec<Value> {
            self.0.legal(seat).iter().map(|c| serde_json::to_value(c).unwrap()).collect()
        }

        /// Both partners of each side trailing by 100 look at their cards, so the bids can start.
        fn look_if_asked(&mut self) {
            while let Some(deal) = self.state.deals.live() {
                let choosing = deal.side_to_bid().map(|s| deal.choosing(s)).unwrap_or_default();
                match choosing.first() {
                    Some(&seat) => {
                        self.act(seat, json!({ "type": "look" }));
                    }
                    None => break,
                }
            }
        }

        fn scored(&self) -> (&Vec<ScoreTerm>, [i64; 2], [i64; 2], [u32; 2]) {
            match self.log.iter().rev().find(|e| matches!(e, Event::DealScored { .. })) {
                Some(Event::DealScored { terms, points, scores, overtricks, .. }) => {
                    (terms, *points, *scores, *overtricks)
                }
                _ => panic!("no deal scored"),
            }
        }
    }

    fn total(terms: &[ScoreTerm]) -> i64 {
        terms.iter().map(|t| t.points).sum()
    }

    fn joint(tricks: u8) -> SideBid {
        SideBid { by: 0, tricks, nil: None, blind_nil: false }
    }

    // --- the text's worked examples -----------------------------------------------------------

    #[test]
    fn example_bid_five_took_seven_scores_52() {
        let (terms, over) = side_terms(0, &joint(5), &[4, 3, 3, 3]);
        assert_eq!(total(&terms), 52);
        assert_eq!(over, 2);
        assert_eq!(terms.iter().map(|t| t.rule.as_str()).collect::<Vec<_>>(), [rule::BID_MADE, rule::OVERTRICKS]);
        assert!(terms.iter().all(|t| t.to == 0));
    }

    #[test]
    fn example_nil_made_and_partner_four_took_five_scores_91() {
        let bid = SideBid { by: 2, tricks: 4, nil: Some(0), blind_nil: false };
        let (terms, over) = side_terms(0, &bid, &[0, 4, 5, 4]);
        assert_eq!(total(&terms), 91);
        assert_eq!(terms[0].points, 50);
        assert_eq!(terms[0].rule, rule::NIL_MADE);
        assert_eq!(over, 1);
    }

    #[test]
    fn example_bid_seven_took_five_scores_minus_20() {
        let (terms, over) = side_terms(1, &joint(7), &[4, 2, 4, 3]);
        assert_eq!(total(&terms), -20);
        assert_eq!(terms[0].rule, rule::BID_FAILED);
        assert_eq!(over, 0);
    }

    // --- scoring ------------------------------------------------------------------------------

    #[test]
    fn failed_nil_costs_50_and_its_tricks_count_for_the_partner() {
        let bid = SideBid { by: 2, tricks: 4, nil: Some(0), blind_nil: false };
        let (terms, over) = side_terms(0, &bid, &[2, 3, 4, 4]);
        assert_eq!(terms[0].rule, rule::NIL_FAILED);
        assert_eq!(terms[0].points, -50);
        // 2 + 4 = 6 tricks against a bid of 4: 40 + 2.
        assert_eq!(total(&terms), -50 + 42);
        assert_eq!(over, 2);
        assert!(terms[1].explanation.en.contains("including 2 by the nil bidder"));
    }

    #[test]
    fn blind_nil_is_worth_100_either_way() {
        let bid = SideBid { by: 3, tricks: 5, nil: Some(1), blind_nil: true };
        let (made, _) = side_terms(1, &bid, &[4, 0, 4, 5]);
        assert_eq!((made[0].rule.as_str(), made[0].points), (rule::BLIND_NIL_MADE, 100));
        assert_eq!(total(&made), 150);
        let (failed, _) = side_terms(1, &bid, &[4, 1, 5, 3]);
        assert_eq!((failed[0].rule.as_str(), failed[0].points), (rule::BLIND_NIL_FAILED, -100));
        assert_eq!(total(&failed), -110);
    }

    #[test]
    fn side_nil_is_50_or_minus_50_and_nothing_else() {
        let (made, over) = side_terms(0, &joint(0), &[0, 6, 0, 7]);
        assert_eq!(made.len(), 1);
        assert_eq!((made[0].rule.as_str(), made[0].points, over), (rule::SIDE_NIL_MADE, 50, 0));
        let (failed, over) = side_terms(0, &joint(0), &[2, 6, 1, 4]);
        assert_eq!(failed.len(), 1);
        assert_eq!((failed[0].rule.as_str(), failed[0].points, over), (rule::SIDE_NIL_FAILED, -50, 0));
    }

    #[test]
    fn sandbagging_costs_100_per_ten_overtricks_and_carries_the_rest() {
        let (tally, terms) = sandbag(0, 8, 4, true);
        assert_eq!(tally, 2);
        assert_eq!(terms.len(), 1);
        assert_eq!((terms[0].rule.as_str(), terms[0].points), (rule::SANDBAGGING, -100));
        assert_eq!(sandbag(1, 9, 13, true).0, 2);
        assert_eq!(sandbag(1, 9, 13, true).1.len(), 2);
        assert_eq!(sandbag(0, 3, 6, true), (9, Vec::new()));
        assert_eq!(sandbag(0, 8, 4, false), (12, Vec::new()));
    }

    #[test]
    fn match_winner_needs_the_target_and_a_lead() {
        assert_eq!(match_winner([490, 300], 500), None);
        assert_eq!(match_winner([500, 300], 500), Some(0));
        assert_eq!(match_winner([510, 530], 500), Some(1));
        assert_eq!(match_winner([480, 530], 500), Some(1));
        assert_eq!(match_winner([510, 510], 500), None);
    }

    /// Seat 3 holds every spade and takes all 13 tricks under first-legal-move play.
    fn all_to_seat_three(scores: [i64; 2], overtricks: [u32; 2], side_bids: (Value, Value)) -> Match {
        let mut m = Match::new(json!({}));
        m.state.deals.scores = scores.to_vec();
        m.state.overtricks = overtricks;
        m.deal(&suit_per_seat());
        m.look_if_asked();
        m.act(1, side_bids.1);
        m.look_if_asked();
        m.act(0, side_bids.0);
        m.finish_deal();
        assert_eq!(m.current().play.taken, [0, 0, 0, 13]);
        m
    }

    #[test]
    fn a_whole_deal_is_scored_term_by_term() {
        // Side 0: seat 0 nil (made) and seat 2 one trick (failed); side 1 bid 13 and took them.
        let m = all_to_seat_three([0, 0], [0, 0], (nil_bid(1, 0), bid(13)));
        let (terms, points, scores, _) = m.scored();
        assert_eq!(points, [50 - 10, 130]);
        assert_eq!(scores, points);
        let rules: Vec<(usize, &str, i64)> = terms.iter().map(|t| (t.to, t.rule.as_str(), t.points)).collect();
        assert_eq!(rules, [(0, rule::NIL_MADE, 50), (0, rule::BID_FAILED, -10), (1, rule::BID_MADE, 130)]);
        assert_eq!(m.state.deals.next_dealer, 1, "the deal passes to the left");
        assert_eq!(Spader.deal_number(&m.state), 1);
    }

    #[test]
    fn sandbag_penalty_across_deals_in_play() {
        // 8 overtricks carried in, bid 9 and took 13: 4 more make 12, so -100 and 2 carry over.
        let m = all_to_seat_three([0, 0], [0, 8], (bid(1), bid(9)));
        let (terms, points, _, overtricks) = m.scored();
        assert_eq!(points[1], 90 + 4 - 100);
        assert_eq!(overtricks, [0, 2]);
        assert!(terms.iter().any(|t| t.rule == rule::SANDBAGGING && t.to == 1));
        match m.log.last().unwrap() {
            Event::DealScored { sandbag_penalties, overtricks_taken, .. } => {
                assert_eq!(*sandbag_penalties, [0, 1]);
                assert_eq!(*overtricks_taken, [0, 4]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn without_sandbagging_overtricks_only_count() {
        let mut m = Match::new(json!({ "sandbagging": false }));
        m.state.overtricks = [0, 8];
        m.deal(&suit_per_seat());
        m.act(1, bid(9));
        m.act(0, bid(1));
        m.finish_deal();
        let (_, points, _, overtricks) = m.scored();
        assert_eq!(points[1], 94);
        assert_eq!(overtricks, [0, 12]);
    }

    // --- the end of the match -----------------------------------------------------------------

    #[test]
    fn reaching_the_target_ends_the_match() {
        let m = all_to_seat_three([0, 370], [0, 0], (bid(1), bid(13)));
        match Spader.status(&m.state) {
            Status::Finished { outcome } => assert_eq!(outcome.winners, vec![1, 3]),
            other => panic!("{other:?}"),
        }
        assert!(matches!(m.log.last(), Some(Event::MatchEnded { side: 1, .. })));
        assert!(Spader.decide(&m.state, 0, &Command::Look).is_err());
    }

    #[test]
    fn both_past_the_target_the_higher_side_wins() {
        // 520 - 10 = 510 against 400 + 130 = 530.
        let m = all_to_seat_three([520, 400], [0, 0], (bid(1), bid(13)));
        match Spader.status(&m.state) {
            Status::Finished { outcome } => assert_eq!(outcome.winners, vec![1, 3]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn both_past_the_target_and_level_play_on() {
        let m = all_to_seat_three([520, 380], [0, 0], (bid(1), bid(13)));
        assert_eq!(m.state.deals.scores, [510, 510]);
        assert!(matches!(Spader.status(&m.state), Status::NeedsDeck { .. }));
        assert!(!m.log.iter().any(|e| matches!(e, Event::MatchEnded { .. })));
    }

    #[test]
    fn short_of_the_target_play_on() {
        let m = all_to_seat_three([0, 360], [0, 0], (bid(1), bid(13)));
        assert_eq!(m.state.deals.scores, [-10, 490]);
        assert!(matches!(Spader.status(&m.state), Status::NeedsDeck { .. }));
    }

    // --- dealing and bidding ------------------------------------------------------------------

    #[test]
    fn cards_are_dealt_singly_from_the_dealers_left() {
        let mut m = Match::new(json!({}));
        let pack = decks::standard52();
        let events = Spader.deal(&m.state, pack.clone()).unwrap();
        m.apply(&events);
        // Dealer 0: the first card goes to seat 1, the second to seat 2, ...
        assert!(m.current().play.hands[1].contains(&pack[0]));
        assert!(m.current().play.hands[2].contains(&pack[1]));
        assert!(m.current().play.hands[0].contains(&pack[3]));
        assert_eq!(m.current().play.hands.iter().map(Vec::len).collect::<Vec<_>>(), [13; 4]);
        match &events[0] {
            Event::DealStarted { deal_number, dealer, forehand, scores, overtricks, .. } => {
                assert_eq!((*deal_number, *dealer, *forehand), (1, 0, 1));
                assert_eq!((*scores, *overtricks), ([0, 0], [0, 0]));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn forehands_side_bids_first_with_either_partner_then_the_dealers_side() {
        let mut m = Match::new(json!({}));
        m.deal(&plain());
        assert_eq!(m.to_act(), vec![1, 3]);
        assert_eq!(m.refused(0, bid(3)), core::TURN);
        m.act(3, bid(5));
        assert_eq!(m.to_act(), vec![0, 2]);
        assert_eq!(m.refused(1, bid(3)), core::TURN);
        m.act(0, bid(4));
        assert_eq!(m.current().bids[1].unwrap().tricks, 5);
        assert_eq!(m.current().bids[0].unwrap().by, 0);
        // Bidding over: the holder of the two of clubs (seat 0 in the plain deal) leads.
        assert_eq!(m.to_act(), vec![0]);
        assert_eq!(m.refused(0, bid(3)), core::PHASE);
    }

    #[test]
    fn bids_are_checked() {
        let mut m = Match::new(json!({}));
        m.deal(&plain());
        assert_eq!(m.refused(1, bid(14)), rule::BID_RANGE);
        assert_eq!(m.refused(1, nil_bid(3, 0)), rule::BID_NIL_SEAT);
        assert_eq!(m.refused(1, nil_bid(3, 2)), rule::BID_NIL_SEAT);
        assert_eq!(m.refused(1, nil_bid(0, 3)), rule::BID_NIL_PARTNER);
        assert_eq!(m.refused(1, json!({ "type": "look" })), core::PHASE);
        assert_eq!(m.refused(1, json!({ "type": "give", "cards": ["3C", "7C"] })), rule::EXCHANGE_OFFER);
        assert_eq!(m.refused(1, play("3C")), core::PHASE);
        // A nil for either partner, the bidder or the other; a side nil is a joint 0.
        let events = m.act(1, nil_bid(4, 3));
        assert!(matches!(events[0], Event::BidMade { seat: 1, side: 1, tricks: 4, nil: Some(3), blind_nil: false }));
        m.act(2, bid(0));
        assert!(m.current().bids[0].unwrap().is_side_nil());
    }

    // --- redeal -------------------------------------------------------------------------------

    #[test]
    fn redeal_conditions() {
        assert_eq!(redeal_reasons(&plain()[0]), vec![]);
        assert_eq!(redeal_reasons(&cards("AC 2C 3C 4D 5D 6D 7D 8H 9H TH JH QH KH")), vec![RedealReason::NoSpades]);
        // The ace is not a court card.
        assert_eq!(redeal_reasons(&cards("AC 2C 3C AD 5D 6D AH 8H 9H TH AS 3S 4S")), vec![RedealReason::NoCourtCards]);
        assert_eq!(
            redeal_reasons(&cards("2H 3H 4H 5H 6H 7H 8H QC KD 2S 3S 4S 5S")),
            vec![RedealReason::LongSuit { suit: Suit::Hearts, cards: 7 }]
        );
        assert_eq!(redeal_reasons(&cards("2H 3H 4H 5H 6H QH QC KD 2S 3S 4S 5S 6S")), vec![]);
    }

    #[test]
    fn redeal_only_while_ones_side_bids_and_the_same_dealer_deals_again() {
        let mut m = Match::new(json!({}));
        // Seat 0 (no spades, 13 clubs) may ask, but only while side 0 is to bid.
        m.deal(&suit_per_seat());
        assert_eq!(m.refused(0, json!({ "type": "request_redeal" })), core::TURN);
        assert!(m.legal(0).is_empty());
        m.act(1, bid(13));
        assert!(m.legal(0).contains(&json!({ "type": "request_redeal" })));
        let events = m.act(0, json!({ "type": "request_redeal" }));
        match &events[0] {
            Event::RedealRequested { seat: 0, reasons, dealer: 0 } => {
                assert!(reasons.contains(&RedealReason::NoSpades));
                assert!(reasons.contains(&RedealReason::LongSuit { suit: Suit::Clubs, cards: 13 }));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(Spader.status(&m.state), Status::NeedsDeck { .. }));
        assert_eq!(Spader.deal_number(&m.state), 1);
        let events = m.deal(&plain());
        assert!(matches!(events[0], Event::DealStarted { deal_number: 2, dealer: 0, .. }));
        // No longer possible once the side has bid.
        let mut m = Match::new(json!({}));
        m.deal(&suit_per_seat());
        m.act(1, bid(13));
        m.act(0, bid(1));
        assert_eq!(m.refused(0, json!({ "type": "request_redeal" })), rule::REDEAL_WHEN);
    }

    #[test]
    fn redeal_needs_a_qualifying_hand_and_the_option() {
        let mut m = Match::new(json!({}));
        m.deal(&plain());
        assert_eq!(m.refused(1, json!({ "type": "request_redeal" })), rule::REDEAL_CONDITIONS);
        let mut m = Match::new(json!({ "redeal": false }));
        m.deal(&suit_per_seat());
        assert_eq!(m.refused(1, json!({ "type": "request_redeal" })), rule::OPTION_REDEAL);
        assert!(!m.legal(1).contains(&json!({ "type": "request_redeal" })));
    }

    // --- blind nil and the exchange -----------------------------------------------------------

    #[test]
    fn blind_nil_needs_a_side_100_behind() {
        let mut m = Match::new(json!({}));
        m.state.deals.scores = [0, 99].to_vec();
        m.deal(&plain());
        assert!(m.current().looked.iter().all(|&l| l));
        m.act(1, bid(4));
        assert_eq!(m.refused(0, json!({ "type": "blind_nil" })), rule::BLIND_ELIGIBLE);
        let mut m = Match::new(json!({ "blind_nil": false }));
        m.state.deals.scores = [0, 300].to_vec();
        m.deal(&plain());
        m.act(1, bid(4));
        assert_eq!(m.refused(0, json!({ "type": "blind_nil" })), rule::OPTION_BLIND_NIL);
    }

    #[test]
    fn blind_nil_is_chosen_before_looking_and_hides_the_hand_until_then() {
        let mut m = Match::new(json!({}));
        m.state.deals.scores = [0, 100].to_vec();
        let events = m.deal(&plain());
        assert!(matches!(events[0], Event::DealStarted { blind_nil_side: Some(0), .. }));
        assert_eq!(m.current().looked, [false, true, false, true]);
        // Side 1 (forehand's) bids first; side 0 has not seen its cards meanwhile.
        assert_eq!(m.to_act(), vec![1, 3]);
        let view = view_json(&m.state, Viewer::Seat(0));
        assert_eq!(view["hand"], Value::Null);
        assert_eq!(view["hand_sizes"], json!([13, 13, 13, 13]));
        assert_eq!(view_json(&m.state, Viewer::Seat(1))["hand"], json!(plain()[1]));
        let shown = Spader.redact(&m.state, &events[0], Viewer::Seat(0), false);
        assert_eq!(shown["hands"], json!([null, null, null, null]));
        assert_eq!(shown["deck"], Value::Null);
        let shown = Spader.redact(&m.state, &events[0], Viewer::Seat(1), false);
        assert_eq!(shown["hands"], json!([null, plain()[1], null, null]));
        for (card, knowers) in Spader.secrets(&m.state) {
            let holder = (0..4).find(|&s| plain()[s].contains(&card)).unwrap();
            let expected = if TABLE.side(holder) == 0 { vec![] } else { vec![holder] };
            assert_eq!(knowers, expected, "{card}");
        }
        m.act(3, bid(4));
        // Now both of side 0 choose, and only that.
        assert_eq!(m.to_act(), vec![0, 2]);
        assert_eq!(m.legal(0), vec![json!({ "type": "look" }), json!({ "type": "blind_nil" })]);
        assert_eq!(m.refused(0, bid(3)), rule::BLIND_CHOOSE_FIRST);
        assert_eq!(m.refused(0, json!({ "type": "request_redeal" })), rule::REDEAL_WHEN);
        m.act(0, json!({ "type": "blind_nil" }));
        assert_eq!(m.to_act(), vec![2]);
        assert_eq!(m.refused(2, json!({ "type": "blind_nil" })), rule::BLIND_ONE_PER_SIDE);
        assert_eq!(m.legal(2), vec![json!({ "type": "look" })]);
        let events = m.act(2, json!({ "type": "look" }));
        assert_eq!(Spader.redact(&m.state, &events[0], Viewer::Seat(2), false)["hand"], json!(plain()[2]));
        assert_eq!(Spader.redact(&m.state, &events[0], Viewer::Seat(0), false)["hand"], Value::Null);
        assert_eq!(Spader.redact(&m.state, &events[0], Viewer::Spectator, false)["hand"], Value::Null);
        // The partner bids alone, at least one trick, no other nil.
        assert_eq!(m.to_act(), vec![2]);
        assert_eq!(m.refused(2, bid(0)), rule::BLIND_PARTNER_BIDS);
        assert_eq!(m.refused(2, nil_bid(3, 2)), rule::BLIND_PARTNER_BIDS);
        assert_eq!(view_json(&m.state, Viewer::Seat(0))["hand"], Value::Null);
        let events = m.act(2, bid(3));
        assert!(matches!(events[0], Event::BidMade { seat: 2, side: 0, tricks: 3, nil: Some(0), blind_nil: true }));
        // The blind-nil player sees the cards once the bidding is over.
        assert!(matches!(events[1], Event::HandLookedAt { seat: 0, .. }));
        assert_eq!(view_json(&m.state, Viewer::Seat(0))["hand"], json!(plain()[0]));
        assert_eq!(m.to_act(), vec![0]);
    }

    #[test]
    fn looking_first_rules_out_blind_nil() {
        let mut m = Match::new(json!({}));
        m.state.deals.scores = [100, 0].to_vec();
        m.deal(&plain());
        // Side 1 is behind and bids first.
        assert_eq!(m.to_act(), vec![1, 3]);
        m.act(1, json!({ "type": "look" }));
        assert_eq!(m.to_act(), vec![3]);
        m.act(3, json!({ "type": "look" }));
        assert_eq!(m.to_act(), vec![1, 3]);
        assert_eq!(m.refused(1, json!({ "type": "blind_nil" })), rule::BLIND_BEFORE_LOOKING);
        assert_eq!(m.refused(1, json!({ "type": "look" })), core::PHASE);
    }

    /// Side 0 bids blind nil at seat 0; seat 2 bids 3; side 1 bid 4 first.
    fn after_blind_nil() -> Match {
        let mut m = Match::new(json!({}));
        m.state.deals.scores = [0, 100].to_vec();
        m.deal(&plain());
        m.act(1, bid(4));
        m.act(0, json!({ "type": "blind_nil" }));
        m.act(2, json!({ "type": "look" }));
        m.act(2, bid(3));
        m
    }

    #[test]
    fn the_exchange_after_a_blind_nil() {
        let mut m = after_blind_nil();
        assert_eq!(m.refused(0, json!({ "type": "give", "cards": ["2C"] })), rule::EXCHANGE_TWO_CARDS);
        assert_eq!(m.refused(0, json!({ "type": "give", "cards": ["2C", "2C"] })), rule::EXCHANGE_TWO_CARDS);
        assert_eq!(m.refused(0, json!({ "type": "give", "cards": ["2C", "3C"] })), core::CARD_NOT_HELD);
        assert_eq!(m.refused(0, play("2C")), core::PHASE);
        let events = m.act(0, json!({ "type": "give", "cards": ["AC", "JS"] }));
        let given = &events[0];
        assert!(matches!(given, Event::CardsGiven { from: 0, to: 2, .. }));
        assert_eq!(Spader.redact(&m.state, given, Viewer::Seat(2), false)["cards"], json!(["AC", "JS"]));
        assert_eq!(Spader.redact(&m.state, given, Viewer::Seat(0), false)["cards"], json!(["AC", "JS"]));
        assert_eq!(Spader.redact(&m.state, given, Viewer::Seat(1), false)["cards"], Value::Null);
        assert_eq!(Spader.redact(&m.state, given, Viewer::Spectator, false)["cards"], Value::Null);
        assert_eq!(Spader.redact(&m.state, given, Viewer::Spectator, true)["cards"], json!(["AC", "JS"]));
        let secrets = Spader.secrets(&m.state);
        let knowers = |c: &str| secrets.iter().find(|(x, _)| *x == card(c)).unwrap().1.clone();
        assert_eq!(knowers("AC"), vec![0, 2]);
        assert_eq!(knowers("KS"), vec![2]);
        assert_eq!(m.current().play.hands[2].len(), 15);
        assert_eq!(view_json(&m.state, Viewer::Seat(0))["given"][0]["cards"], json!(["AC", "JS"]));
        // The partner must give two back: any two, even those just received.
        assert_eq!(m.to_act(), vec![2]);
        assert_eq!(m.refused(2, json!({ "type": "decline_exchange" })), rule::EXCHANGE_GIVE_BACK);
        assert!(m.legal(2).contains(&json!({ "type": "give", "cards": ["AC", "JS"] })));
        m.act(2, json!({ "type": "give", "cards": ["4C", "2H"] }));
        assert_eq!(m.current().play.hands.iter().map(Vec::len).collect::<Vec<_>>(), [13; 4]);
        let secrets = Spader.secrets(&m.state);
        assert_eq!(secrets.iter().find(|(x, _)| *x == card("4C")).unwrap().1, vec![0, 2]);
        // Play starts with whoever holds the two of clubs.
        assert_eq!(m.current().phase, DealPhase::Play);
        assert_eq!(m.to_act(), vec![0]);
    }

    #[test]
    fn the_blind_nil_player_may_decline_the_exchange() {
        let mut m = after_blind_nil();
        assert_eq!(m.legal(0).last(), Some(&json!({ "type": "decline_exchange" })));
        m.act(0, json!({ "type": "decline_exchange" }));
        assert_eq!(m.current().phase, DealPhase::Play);
        m.finish_deal();
        let (terms, ..) = m.scored();
        let blind = terms.iter().find(|t| t.to == 0 && t.rule.starts_with("spader.score.blind-nil")).unwrap();
        assert_eq!(blind.points.abs(), 100);
    }

    // --- play ---------------------------------------------------------------------------------

    /// Seat 2 has no clubs; seat 3 holds seven clubs and the top hearts and spades.
    fn first_trick_hands() -> [Vec<Card>; SEATS] {
        hands([
            "2C 5C 9C AD KD QD JD TD 9D 2H 3H 4H 2S",
            "3C 4C KC 8D 7D 6D 5H 6H 7H 3S 4S 5S 6S",
            "5D 4D 3D 2D 8H 9H TH JH 7S 8S 9S TS JS",
            "6C 7C 8C TC JC QC AC QH KH AH QS KS AS",
        ])
    }

    fn bid_plainly(m: &mut Match) {
        m.act(1, bid(4));
        m.act(0, bid(4));
    }

    #[test]
    fn the_first_trick() {
        let mut m = Match::new(json!({}));
        m.deal(&first_trick_hands());
        bid_plainly(&mut m);
        assert_eq!(m.to_act(), vec![0]);
        assert_eq!(m.refused(0, play("5C")), rule::TWO_OF_CLUBS_LEADS);
        assert_eq!(m.legal(0), vec![play("2C")]);
        m.act(0, play("2C"));
        assert_eq!(m.refused(1, play("KC")), rule::LOWEST_CLUB);
        assert_eq!(m.refused(1, play("5H")), rule::LOWEST_CLUB);
        assert_eq!(m.legal(1), vec![play("3C")]);
        m.act(1, play("3C"));
        // Void in clubs: a diamond or a heart, no spade.
        assert_eq!(m.refused(2, play("7S")), rule::NO_SPADES_FIRST_TRICK);
        assert_eq!(m.legal(2).len(), 8);
        assert_eq!(m.refused(2, play("AS")), core::CARD_NOT_HELD);
        m.act(2, play("JH"));
        m.act(3, play("6C"));
        match m.log.last().unwrap() {
            Event::TrickWon { trick_number: 1, winner: 3, card: c, reason: WinReason::HighestOfSuitLed, .. } => {
                assert_eq!(*c, card("6C"))
            }
            other => panic!("{other:?}"),
        }
        // The winner leads; spades are not broken and seat 3 has other suits.
        assert_eq!(m.to_act(), vec![3]);
        assert_eq!(m.refused(3, play("AS")), rule::SPADES_NOT_BROKEN);
        assert!(!m.legal(3).contains(&play("AS")));
        m.act(3, play("7C"));
        assert_eq!(m.refused(0, play("2H")), rule::FOLLOW_SUIT);
        m.act(0, play("5C"));
        m.act(1, play("4C"));
        // Seat 2 has no clubs and trumps: spades are broken, the spade wins.
        let events = m.act(2, play("7S"));
        assert!(matches!(events[1], Event::SpadesBroken { seat: 2, trick_number: 2, .. }));
        assert!(matches!(events[2], Event::TrickWon { winner: 2, reason: WinReason::HighestTrump, .. }));
        assert!(m.current().spades_broken);
        assert_eq!(m.to_act(), vec![2]);
        assert!(m.legal(2).contains(&play("8S")));
        m.act(2, play("8S"));
        // Spades led: follow with spades.
        assert_eq!(m.refused(3, play("QH")), rule::FOLLOW_SUIT);
        let last = m.log.len();
        m.finish_deal();
        assert!(m.log[last..].iter().all(|e| !matches!(e, Event::SpadesBroken { .. })), "broken only once");
    }

    #[test]
    fn a_leader_with_only_spades_may_lead_them_unbroken() {
        // Seat 3: the ace of clubs and twelve spades; wins trick one with the ace.
        let mut m = Match::new(json!({}));
        m.deal(&hands([
            "2C 3C 4C 5C AS AD KD QD JD TD 9D 8D 7D",
            "6C 7C 8C 9C TC 6D 5D 4D 3D 2D AH KH QH",
            "JC QC KC JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
            "AC 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
        ]));
        bid_plainly(&mut m);
        for (seat, c) in [(0, "2C"), (1, "6C"), (2, "JC"), (3, "AC")] {
            m.act(seat, play(c));
        }
        assert!(!m.current().spades_broken);
        assert_eq!(m.to_act(), vec![3]);
        assert_eq!(m.legal(3).len(), 12);
        let events = m.act(3, play("2S"));
        assert!(matches!(events[1], Event::SpadesBroken { seat: 3, .. }));
    }

    #[test]
    fn a_hand_of_only_spades_plays_a_spade_to_the_first_trick_and_it_trumps() {
        let mut m = Match::new(json!({}));
        m.deal(&suit_per_seat());
        bid_plainly(&mut m);
        m.act(0, play("2C"));
        assert_eq!(m.refused(1, play("2C")), core::CARD_NOT_HELD);
        m.act(1, play("AD"));
        m.act(2, play("AH"));
        assert_eq!(m.legal(3).len(), 13);
        let events = m.act(3, play("2S"));
        assert!(matches!(events[1], Event::SpadesBroken { .. }));
        assert!(matches!(events[2], Event::TrickWon { winner: 3, reason: WinReason::HighestTrump, .. }));
    }

    // --- views, events, options ---------------------------------------------------------------

    #[test]
    fn views_show_a_seat_its_own_hand_and_the_record_everything() {
        let mut m = Match::new(json!({}));
        let events = m.deal(&plain());
        let seat = view_json(&m.state, Viewer::Seat(2));
        assert_eq!(seat["hand"], json!(plain()[2]));
        assert!(seat.get("hands").is_none() && seat.get("deck").is_none());
        for key in [
            "phase",
            "deal_number",
            "dealer",
            "looked",
            "hand_sizes",
            "bids",
            "tricks_taken",
            "trick",
            "last_trick",
            "spades_broken",
            "scores",
            "overtricks",
            "to_act",
            "target",
        ] {
            assert!(seat.get(key).is_some(), "{key}");
        }
        assert_eq!(seat["phase"], "bidding");
        // The card play has the shape every trick game's table shares.
        assert_eq!(seat["trick"], json!({ "leader": 1, "plays": [], "led_suit": null }));
        let spectator = view_json(&m.state, Viewer::Spectator);
        assert!(spectator.get("hand").is_none());
        assert!(crate::game::cards_in(&spectator).is_empty());
        assert!(crate::game::cards_in(&Spader.redact(&m.state, &events[0], Viewer::Spectator, false)).is_empty());
        let record = view_json(&m.state, Viewer::Record);
        assert_eq!(record["hands"], json!(plain()));
        assert_eq!(record["deck"].as_array().unwrap().len(), 52);
        // Once the deal is over its record is public.
        bid_plainly(&mut m);
        m.finish_deal();
        let shown = Spader.redact(&m.state, &events[0], Viewer::Spectator, false);
        assert_eq!(shown["deck"].as_array().unwrap().len(), 52);
    }

    #[test]
    fn command_and_option_shapes() {
        let parse = |v: Value| serde_json::from_value::<Command>(v).unwrap();
        assert_eq!(parse(nil_bid(4, 2)), Command::Bid { tricks: 4, nil: Some(2) });
        assert_eq!(serde_json::to_value(Command::Bid { tricks: 4, nil: None }).unwrap(), bid(4));
        assert_eq!(parse(play("QS")), Command::Play { card: card("QS") });
        assert_eq!(parse(json!({ "type": "blind_nil" })), Command::BlindNil);
        assert_eq!(parse(json!({ "type": "request_redeal" })), Command::RequestRedeal);
        assert_eq!(parse(json!({ "type": "decline_exchange" })), Command::DeclineExchange);
        let game = erase(Spader);
        assert_eq!(
            game.normalize_options(&Value::Null).unwrap(),
            json!({ "blind_nil": true, "redeal": true, "sandbagging": true, "target": 500 })
        );
        assert!(game.normalize_options(&json!({ "blindnil": false })).is_err());
        assert!(game.setup(4, &json!({ "target": 0 })).is_err());
        assert!(game.setup(3, &Value::Null).is_err());
        assert_eq!(game.options().len(), 4);
    }

    // --- the rulebook -------------------------------------------------------------------------

    #[test]
    fn rule_ids_are_unique_and_every_declared_id_is_in_the_rulebook() {
        let book = Spader.rulebook();
        let ids: Vec<&str> = book.rule_ids().collect();
        let unique: BTreeSet<&str> = ids.iter().copied().collect();
        assert_eq!(ids.len(), unique.len(), "duplicate rule ids");
        assert!(book.rule(core::TURN).is_some());
        assert!(book.sections.iter().any(|s| s.id == "spader.house" && s.rules.iter().all(|r| r.house_rule)));
        // Every constant of `mod rule`, read from this file so that a new one cannot be missed.
        let source = include_str!("spader.rs");
        let module = &source[source.find("pub mod rule {").unwrap()..];
        let module = &module[..module.find("\n}").unwrap()];
        let declared: Vec<&str> =
            module.lines().filter_map(|l| l.split('"').nth(1)).filter(|id| id.starts_with("spader.")).collect();
        // The module names only the ids the code cites; they must still be the rulebook's.
        assert!(declared.len() >= 10, "only {} ids declared", declared.len());
        for id in declared {
            assert!(book.rule(id).is_some(), "{id} is not in the rulebook");
        }
        for rule in book.sections.iter().flat_map(|s| &s.rules) {
            assert!(!rule.sv.is_empty() && !rule.en.is_empty(), "{}", rule.id);
        }
    }

    // --- random matches -----------------------------------------------------------------------

    fn run(options: Value, seeds: std::ops::Range<u64>, checks: Checks) -> BTreeSet<String> {
        let game = erase(Spader);
        let mut kinds = BTreeSet::new();
        for seed in seeds {
            let report = play_match(&*game, 4, &options, seed, checks)
                .unwrap_or_else(|e| panic!("options {options}, seed {seed}: {e}"));
            let last = report.log.last().unwrap();
            assert_eq!(last["type"], "match_ended", "options {options}, seed {seed}");
            kinds.extend(report.log.iter().map(|e| e["type"].as_str().unwrap().to_string()));
        }
        kinds
    }

    // Split in two so that the test threads share the work evenly.
    #[test]
    fn random_short_matches_with_every_check_1() {
        run(json!({ "target": 100 }), 0..75, Checks::ALL);
    }

    #[test]
    fn random_short_matches_with_every_check_2() {
        run(json!({ "target": 100 }), 75..150, Checks::ALL);
    }

    #[test]
    fn random_longer_matches_with_every_check() {
        let kinds = run(json!({ "target": 300 }), 1000..1020, Checks::ALL);
        for kind in ["blind_nil_declared", "cards_given", "exchange_declined", "redeal_requested", "spades_broken"] {
            assert!(kinds.contains(kind), "{kind} never happened");
        }
    }

    #[test]
    fn random_matches_without_options_with_every_check() {
        let options = json!({ "target": 100, "blind_nil": false, "redeal": false, "sandbagging": false });
        let kinds = run(options, 2000..2050, Checks::ALL);
        assert!(!kinds.contains("blind_nil_declared") && !kinds.contains("redeal_requested"));
    }

    #[test]
    fn random_matches_to_500() {
        run(json!({}), 0..300, Checks::NONE);
        run(json!({}), 300..320, Checks { leaks: false, agreement: false, invariants: true });
    }

    #[test]
    fn random_matches_over_the_options() {
        let mut n = 0;
        for blind_nil in [false, true] {
            for redeal in [false, true] {
                for sandbagging in [false, true] {
                    let options =
                        json!({ "blind_nil": blind_nil, "redeal": redeal, "sandbagging": sandbagging, "target": 200 });
                    let kinds = run(options, 10_000 + n..10_000 + n + 200, Checks::NONE);
                    n += 200;
                    assert_eq!(kinds.contains("blind_nil_declared"), blind_nil);
                    assert_eq!(kinds.contains("redeal_requested"), redeal);
                }
            }
        }
    }
}
