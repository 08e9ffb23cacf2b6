//! Norrlandsknack: five cards each, a turned trump, a knock, buying, and a pot for whoever gets
//! down from 10 points to 0 first.
//!
//! Everyone stakes once into the pot. Each deal the players knock or pass ("lura") from forehand;
//! the first knock ends the bidding. In the match's first played deal everyone then plays; in
//! later deals every other player joins (knocks too) or folds. Those in buy from the talon with
//! hidden discards (the dealer, who also holds the turned trump card, puts away one more than he
//! buys) and play five tricks: the first leader must lead the ace of trumps if he holds it, and
//! while someone stands at 1 point ("trumfmant") everyone must play a trump when able. Each
//! trick taken is a point down; a player in without a trick gets a loaf ("limpa"): another stake
//! into the pot and, after the first deal, 5 points up (never above 10). The first to 0 takes
//! the pot; a deal limit (an option) makes sure the match ends.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bots;
use crate::cards::{decks, rank_value, sort_hand, sorted, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::ledger::{Account, Ledger, Payment};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{seats_text, Seat, Table as Seating};
use crate::trick::{self, Play, PlayView, Trick, TrickPlay, WinReason};

#[cfg(test)]
mod tests;
mod view;
pub use view::Table;

#[derive(Default)]
pub struct Norrlandsknack;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 5;
/// Cards in a hand once the buying is over, and so tricks per deal.
pub const HAND: usize = 5;
pub const START_POINTS: i64 = 10;
/// What a loaf adds after the first deal.
pub const LIMPA_POINTS: i64 = 5;
pub const DEFAULT_MAX_DEALS: u32 = 50;
/// Guards against a typo turning a friendly game into an overflow: no rule names a limit.
pub const MAX_STAKE: i64 = 1_000_000;
pub const MAX_DEALS: u32 = 1000;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PACK: &str = "norrlandsknack.pack.cards";

    pub const STAKE: &str = "norrlandsknack.stakes.stake";
    pub const POT: &str = "norrlandsknack.stakes.pot";

    pub const DEALER: &str = "norrlandsknack.deal.dealer";
    pub const THREE_THEN_TWO: &str = "norrlandsknack.deal.three-then-two";
    pub const TALON: &str = "norrlandsknack.deal.talon";

    pub const BID_ORDER: &str = "norrlandsknack.bid.order";
    pub const KNOCK: &str = "norrlandsknack.bid.knock";
    pub const FIRST_DEAL: &str = "norrlandsknack.bid.first-deal";

    pub const JOIN: &str = "norrlandsknack.join.later-deals";
    pub const FOLD: &str = "norrlandsknack.join.fold";

    pub const BUY_ORDER: &str = "norrlandsknack.buy.order";
    pub const EXCHANGE: &str = "norrlandsknack.buy.exchange";
    pub const DEALER_BUYS: &str = "norrlandsknack.buy.dealer";

    pub const FIRST_LEAD: &str = "norrlandsknack.play.first-lead";
    pub const TRUMP_ACE: &str = "norrlandsknack.play.trump-ace";
    pub const FOLLOW_SUIT: &str = "norrlandsknack.play.follow-suit";
    pub const TRICK_WINNER: &str = "norrlandsknack.play.trick-winner";
    pub const WINNER_LEADS: &str = "norrlandsknack.play.winner-leads";

    pub const TRUMFMANT: &str = "norrlandsknack.trumfmant.play-trump";

    pub const START: &str = "norrlandsknack.score.start";
    pub const TRICKS: &str = "norrlandsknack.score.tricks";
    pub const LIMPA_FIRST: &str = "norrlandsknack.score.limpa-first";
    pub const LIMPA: &str = "norrlandsknack.score.limpa";
    pub const CAP: &str = "norrlandsknack.score.cap";

    pub const ZERO: &str = "norrlandsknack.end.zero";

    pub const FIRST_DEALER: &str = "norrlandsknack.house.first-dealer";
    pub const JOIN_ORDER: &str = "norrlandsknack.house.join-order";
    pub const ALONE: &str = "norrlandsknack.house.knocker-alone";
    pub const TALON_LIMIT: &str = "norrlandsknack.house.talon-limit";
    pub const DEAL_LIMIT: &str = "norrlandsknack.house.deal-limit";
    pub const SPLIT: &str = "norrlandsknack.house.split";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The stake each player puts into the pot when the match begins, and that a loaf costs.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000000))]
    pub stake: i64,
    /// Deals (redeals included) after which the match ends even if nobody has reached 0.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    pub max_deals: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options { stake: 1, max_deals: DEFAULT_MAX_DEALS }
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
    /// No deal has been dealt yet.
    WaitingForDeal,
    /// Players knock or pass ("lura") from forehand.
    Bidding,
    /// After a knock (from the second deal on) the others join or fold.
    Joining,
    /// Those in exchange cards with the talon, from forehand.
    Buying,
    /// The five tricks.
    Playing,
    /// The deal is scored or was redealt; the next is awaited.
    DealOver,
    /// Somebody won the pot.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// One player's word in the bidding.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KnockCall {
    pub seat: Seat,
    /// Knocked (true) or passed, "lurade" (false).
    pub knocked: bool,
}

/// One player's answer to a knock, from the second deal on.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct JoinCall {
    pub seat: Seat,
    /// Joined (knocked too) or folded.
    pub joined: bool,
}

/// One player's purchase: how many cards went away and came in (which ones stays hidden).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BuyCall {
    pub seat: Seat,
    pub discarded: usize,
    pub drawn: usize,
}

/// How a deal was scored: points and money, each with its rule.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DealResult {
    /// The seats that played the deal.
    pub in_play: Vec<Seat>,
    /// Tricks taken, by seat.
    pub tricks_taken: Vec<u32>,
    /// Everyone else folded and the knocker took the five tricks without play.
    pub alone: bool,
    /// The points of the deal, each with its rule.
    pub terms: Vec<ScoreTerm>,
    /// The seats that got a loaf (limpa) this deal.
    pub limpor: Vec<Seat>,
    /// What was paid this deal after the play (loaves, and the pot when the match ended).
    pub payments: Vec<Payment>,
    /// The first seat to come down to 0 or below; null if nobody did.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub reached_zero: Option<Seat>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Bidding,
    Joining,
    Buying,
    Playing,
    Over,
}

#[derive(Clone, Debug)]
pub struct Deal {
    number: u32,
    dealer: Seat,
    forehand: Seat,
    first_deal: bool,
    trumfmant: bool,
    deck: Vec<Card>,
    trump_card: Card,
    trumps: Suit,
    talon: Vec<Card>,
    stage: Stage,
    calls: Vec<KnockCall>,
    knocker: Option<Seat>,
    join_order: Vec<Seat>,
    joins: Vec<JoinCall>,
    buy_order: Vec<Seat>,
    buys: Vec<BuyCall>,
    discards: Vec<Vec<Card>>,
    folded: Vec<Vec<Card>>,
    play: TrickPlay,
    opening_balances: Vec<i64>,
    /// Every payment since the deal started: the opening stakes, loaves, the pot.
    payments: Vec<Payment>,
    result: Option<DealResult>,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match self.stage {
            Stage::Bidding => vec![self.play.table.after(self.forehand, self.calls.len())],
            Stage::Joining => self.join_order.get(self.joins.len()).copied().into_iter().collect(),
            Stage::Buying => self.buy_order.get(self.buys.len()).copied().into_iter().collect(),
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
            Stage::Joining => Phase::Joining,
            Stage::Buying => Phase::Buying,
            Stage::Playing => Phase::Playing,
            Stage::Over => Phase::DealOver,
        }
    }
}

impl Deal {
    fn players(&self) -> usize {
        self.play.table.seats
    }

    fn in_seats(&self) -> Vec<Seat> {
        (0..self.players()).filter(|s| !self.play.out.contains(s)).collect()
    }

    fn has_bought(&self, seat: Seat) -> bool {
        self.buys.iter().any(|b| b.seat == seat)
    }

    /// Cards the seat holds now: six for the dealer until he has bought.
    fn hand_size(&self, seat: Seat) -> usize {
        if seat == self.dealer && !self.has_bought(seat) {
            HAND + 1
        } else {
            HAND
        }
    }

    fn first_lead(&self) -> bool {
        self.play.tricks.is_empty() && self.play.trick.is_empty()
    }

    fn winner(&self) -> impl Fn(&Trick) -> (Seat, Card, WinReason) + '_ {
        move |t| trick::winner(t, Some(self.trumps))
    }

    /// Cards out of the play: the talon, discards and thrown-in hands.
    fn elsewhere(&self) -> Vec<Card> {
        let mut cards = self.talon.clone();
        cards.extend(self.discards.iter().flatten());
        cards.extend(self.folded.iter().flatten());
        cards
    }

    /// Every card that passed through `seat`'s hand this deal: held, played, put away or thrown
    /// in. With the talon they make the pack.
    fn known_to(&self, seat: Seat) -> Vec<Card> {
        let mut cards = self.play.hands[seat].clone();
        cards.extend(&self.discards[seat]);
        cards.extend(&self.folded[seat]);
        cards.extend(self.play.played().filter(|&(s, _)| s == seat).map(|(_, c)| c));
        cards
    }
}

#[derive(Clone, Debug)]
pub struct State {
    table: Seating,
    options: Options,
    deals: Deals<Deal>,
    ledger: Ledger,
    /// Loaves so far, by seat: the marks under the players' scores.
    limpor: Vec<u32>,
    /// Deals scored so far (redeals are not): none means the next deal is the first.
    deals_played: u32,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }

    fn pot(&self) -> i64 {
        self.ledger.balance(Account::Pot)
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Knock in the bidding, or, after someone else knocked (second deal on), join by knocking
    /// too.
    Knock,
    /// Pass in the bidding ("jag lurar").
    Lura,
    /// Decline to join a knock and throw the hand in (second deal on).
    Fold,
    /// Put these cards away face down and draw as many (the dealer one fewer) from the talon;
    /// an empty list keeps the hand.
    Buy {
        discard: Vec<Card>,
    },
    Play {
        card: Card,
    },
}

/// Why the match ended.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// A player came down to 0 or below.
    ReachedZero,
    /// The deal limit was reached; the fewest points won.
    DealLimit,
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
        /// No deal of the match has been played yet: everyone plays after a knock.
        first_deal: bool,
        /// Somebody stands at 1 point: trumps must be played when possible.
        trumfmant: bool,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's cards, sorted; the dealer's six include the trump card.
        hands: Vec<Vec<Card>>,
        /// The turned card, in the dealer's hand: its suit is trumps.
        trump_card: Card,
        trumps: Suit,
        /// The cards left after dealing, top first.
        talon: Vec<Card>,
        /// Points before this deal, by seat.
        scores: Vec<i64>,
        /// Loaves before this deal, by seat.
        limpor: Vec<u32>,
        /// Seat balances before this deal (the pot holds what they are down between them).
        balances: Vec<i64>,
        deals_played: u32,
        options: Options,
    },
    /// The match's opening stakes.
    StakesPaid {
        payments: Vec<Payment>,
        pot: i64,
    },
    Knocked {
        seat: Seat,
    },
    Lurat {
        seat: Seat,
    },
    /// Everyone passed: the same dealer deals again.
    Redealt {
        dealer: Seat,
    },
    /// Joined a knock by knocking too.
    Joined {
        seat: Seat,
    },
    /// Declined a knock and threw these cards in face down: only their owner ever sees them.
    Folded {
        deal_number: u32,
        seat: Seat,
        cards: Vec<Card>,
    },
    /// Cards exchanged with the talon: the counts are public, the cards their owner's.
    Bought {
        deal_number: u32,
        seat: Seat,
        discarded_count: usize,
        drawn_count: usize,
        discarded: Vec<Card>,
        drawn: Vec<Card>,
    },
    /// Everyone else folded: the knocker takes the five tricks without play.
    KnockerAlone {
        seat: Seat,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
    },
    TrickWon {
        trick_number: usize,
        winner: Seat,
        card: Card,
        reason: WinReason,
        plays: Vec<Play>,
    },
    DealScored {
        deal_number: u32,
        in_play: Vec<Seat>,
        tricks_taken: Vec<u32>,
        alone: bool,
        /// Points of the deal, each with its rule.
        terms: Vec<ScoreTerm>,
        /// Points won (negative) or added this deal, by seat.
        points: Vec<i64>,
        /// Points after the deal, by seat.
        scores: Vec<i64>,
        /// Seats that got a loaf this deal.
        limpor_given: Vec<Seat>,
        /// Loaves after the deal, by seat.
        limpor: Vec<u32>,
        /// The loaves' stakes into the pot.
        payments: Vec<Payment>,
        pot: i64,
        balances: Vec<i64>,
        #[cfg_attr(feature = "openapi", schema(required))]
        reached_zero: Option<Seat>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        reason: EndReason,
        /// The pot to the winner (or shared).
        payments: Vec<Payment>,
        scores: Vec<i64>,
        balances: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Rules that are pure functions, kept apart so tests can reach them directly

fn ace_of(suit: Suit) -> Card {
    Card::new(Rank::new(14).expect("the ace is a rank"), suit)
}

/// The cards `hand` may play to `trick`: the ace of trumps to the deal's first lead if held;
/// under trumfmant any trump if held; else following suit when able.
pub fn playable(hand: &[Card], trick: &Trick, first_lead: bool, trumps: Suit, trumfmant: bool) -> Vec<Card> {
    let ace = ace_of(trumps);
    if first_lead && hand.contains(&ace) {
        return vec![ace];
    }
    let held: Vec<Card> = hand.iter().copied().filter(|c| c.is_suit(trumps)).collect();
    if trumfmant && !held.is_empty() {
        return trick::distinct(held);
    }
    trick::distinct(trick::follow_suit(hand, trick))
}

/// The first seat whose running score comes down to 0 or below, taking the tricks in the order
/// they were won.
pub fn first_to_zero(scores: &[i64], trick_winners: &[Seat]) -> Option<Seat> {
    let mut running = scores.to_vec();
    trick_winners.iter().find_map(|&w| {
        running[w] -= 1;
        (running[w] <= 0).then_some(w)
    })
}

/// The pot shared among `winners`: equal shares, the remainder a chip at a time in the order
/// given.
pub fn share_pot(pot: i64, winners: &[Seat]) -> Vec<(Seat, i64)> {
    let n = winners.len() as i64;
    winners.iter().enumerate().map(|(i, &s)| (s, pot / n + i64::from((i as i64) < pot % n))).collect()
}

fn opening_ledger(balances: &[i64]) -> Ledger {
    let mut ledger = Ledger::new();
    // Every chip a seat is down went into the pot, and every chip it is up came out of it.
    for (s, &b) in balances.iter().enumerate() {
        if b != 0 {
            ledger.pay(&Payment::new(
                Account::Pot,
                Account::Seat(s),
                b,
                rule::POT,
                "Saldo från tidigare givar.".into(),
                "Balance from earlier deals.".into(),
            ));
        }
    }
    ledger
}

/// Every set of cards from `hand`, the empty one first, each in the hand's order.
fn subsets(hand: &[Card]) -> Vec<Vec<Card>> {
    (0u32..1 << hand.len())
        .map(|bits| hand.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0).map(|(_, &c)| c).collect())
        .collect()
}

fn plural(n: impl Into<i64>) -> &'static str {
    if n.into() == 1 {
        ""
    } else {
        "s"
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn wrong_phase(stage: Stage) -> RuleViolation {
    let (sv, en) = match stage {
        Stage::Bidding => ("nu knackar eller lurar spelarna", "the players now knock or pass"),
        Stage::Joining => ("nu går spelarna med eller lägger sig", "the players now join or fold"),
        Stage::Buying => ("nu köper de som är med", "those in are now buying"),
        Stage::Playing => ("nu spelas korten", "the cards are being played"),
        Stage::Over => ("given är slut", "the deal is over"),
    };
    RuleViolation::wrong_phase(sv, en)
}

fn decide_call(state: &State, deal: &Deal, seat: Seat, knock: bool) -> Vec<Event> {
    if knock {
        return vec![Event::Knocked { seat }];
    }
    let mut events = vec![Event::Lurat { seat }];
    if deal.calls.len() + 1 == deal.players() {
        events.push(Event::Redealt { dealer: deal.dealer });
        events.extend(deal_limit_end(state, deal.number, deal.dealer, &state.deals.scores, state.pot()));
    }
    events
}

fn decide_join(state: &State, deal: &Deal, seat: Seat, join: bool) -> Vec<Event> {
    let mut events = vec![if join {
        Event::Joined { seat }
    } else {
        Event::Folded { deal_number: deal.number, seat, cards: deal.play.hands[seat].clone() }
    }];
    let last = deal.joins.len() + 1 == deal.join_order.len();
    if last && !join && deal.joins.iter().all(|j| !j.joined) {
        let knocker = deal.knocker.expect("joining follows a knock");
        events.push(Event::KnockerAlone { seat: knocker });
        let mut taken = vec![0; deal.players()];
        taken[knocker] = HAND as u32;
        events.extend(score_deal(state, deal, vec![knocker], taken, &[knocker; HAND], true));
    }
    events
}

fn decide_buy(deal: &Deal, seat: Seat, discard: &[Card]) -> Result<Vec<Event>, RuleViolation> {
    let hand = &deal.play.hands[seat];
    if let Some(&c) = discard.iter().find(|c| !hand.contains(c)) {
        return Err(RuleViolation::card_not_held(c));
    }
    if let Some((_, &c)) = discard.iter().enumerate().find(|(i, c)| discard[..*i].contains(c)) {
        return Err(RuleViolation::new(
            rule::EXCHANGE,
            format!("Du lade bort {c} två gånger; varje kort läggs bort en gång."),
            format!("You put {c} away twice; each card is put away once."),
        ));
    }
    let dealer = seat == deal.dealer;
    if dealer && discard.is_empty() {
        return Err(RuleViolation::new(
            rule::DEALER_BUYS,
            "Du är giv och har sex kort: du måste lägga bort minst ett kort, ett mer än du köper.",
            "You are the dealer and hold six cards: you must put away at least one card, one more than you buy.",
        ));
    }
    let k = discard.len() - usize::from(dealer);
    if k > deal.talon.len() {
        let left = deal.talon.len();
        return Err(RuleViolation::new(
            rule::TALON_LIMIT,
            format!("Du ville köpa {k} kort men talongen har bara {left} kvar."),
            format!("You wanted to buy {k} cards but the talon holds only {left}."),
        ));
    }
    Ok(vec![Event::Bought {
        deal_number: deal.number,
        seat,
        discarded_count: discard.len(),
        drawn_count: k,
        discarded: sorted(discard.to_vec()),
        drawn: deal.talon[..k].to_vec(),
    }])
}

fn play_refusal(deal: &Deal, seat: Seat, card: Card) -> RuleViolation {
    let hand = &deal.play.hands[seat];
    let ace = ace_of(deal.trumps);
    if deal.first_lead() && hand.contains(&ace) {
        return RuleViolation::new(
            rule::TRUMP_ACE,
            format!("Du spelade ut {card} men har trumfesset {ace}; till första sticket måste det spelas ut."),
            format!("You led {card} but hold the ace of trumps {ace}; it must be led to the first trick."),
        );
    }
    if deal.trumfmant && hand.iter().any(|c| c.is_suit(deal.trumps)) {
        return RuleViolation::new(
            rule::TRUMFMANT,
            format!(
                "Det är trumfmant och du har {} på handen: du måste spela trumf, inte {card}.",
                deal.trumps.name_sv()
            ),
            format!("It is trumfmant and you hold {}: you must play a trump, not {card}.", deal.trumps.name_en()),
        );
    }
    deal.play.check_follow(seat, card, rule::FOLLOW_SUIT).expect_err("a card neither rule allows breaks follow suit")
}

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    deal.play.check_held(seat, card)?;
    let legal = playable(&deal.play.hands[seat], &deal.play.trick, deal.first_lead(), deal.trumps, deal.trumfmant);
    if !legal.contains(&card) {
        return Err(play_refusal(deal, seat, card));
    }
    let mut events = vec![Event::CardPlayed { seat, card }];
    let winner = deal.winner();
    if let Some(won) = deal.play.completed_by(seat, card, &winner) {
        events.push(Event::TrickWon {
            trick_number: won.number,
            winner: won.winner,
            card: won.card,
            reason: won.reason,
            plays: won.plays.clone(),
        });
        if won.last {
            let mut order: Vec<Seat> = deal.play.tricks.iter().map(|t| t.winner).collect();
            order.push(won.winner);
            events.extend(score_deal(state, deal, deal.in_seats(), won.taken, &order, false));
        }
    }
    Ok(events)
}

/// The deal's points and loaves, and the end of the match if someone reached 0 or the deal
/// limit is reached.
fn score_deal(
    state: &State,
    deal: &Deal,
    in_play: Vec<Seat>,
    taken: Vec<u32>,
    trick_winners: &[Seat],
    alone: bool,
) -> Vec<Event> {
    let players = state.players();
    let before = state.deals.scores.clone();
    let stake = state.options.stake;
    let mut terms = Vec::new();
    for &s in &in_play {
        let t = taken[s];
        if t > 0 {
            terms.push(ScoreTerm::new(
                s,
                -i64::from(t),
                rule::TRICKS,
                format!("Plats {s} tog {t} stick och går ned {t} poäng."),
                format!("Seat {s} took {t} trick{} and goes down {t} point{}.", plural(t), plural(t)),
            ));
        }
    }
    let knocker = deal.knocker.expect("a deal is played only after a knock");
    let limpor_given: Vec<Seat> =
        in_play.iter().copied().filter(|&s| taken[s] == 0 && (!deal.first_deal || s == knocker)).collect();
    let mut payments = Vec::new();
    for &s in &limpor_given {
        let (rule, sv, en) = if deal.first_deal {
            (
                rule::LIMPA_FIRST,
                format!("Plats {s} knackade i första given men tog inget stick: limpa, och en ny insats på {stake} i potten."),
                format!("Seat {s} knocked in the first deal but took no trick: a loaf, and another stake of {stake} into the pot."),
            )
        } else {
            (
                rule::LIMPA,
                format!("Plats {s} var med men tog inget stick: limpa, och en ny insats på {stake} i potten."),
                format!("Seat {s} was in but took no trick: a loaf, and another stake of {stake} into the pot."),
            )
        };
        payments.push(Payment::new(Account::Seat(s), Account::Pot, stake, rule, sv, en));
        if deal.first_deal {
            continue;
        }
        let raise = LIMPA_POINTS.min(START_POINTS - before[s]);
        let term = if raise == LIMPA_POINTS {
            ScoreTerm::new(
                s,
                raise,
                rule::LIMPA,
                format!("Plats {s} fick en limpa och går upp {raise} poäng."),
                format!("Seat {s} got a loaf and goes up {raise} points."),
            )
        } else {
            ScoreTerm::new(
                s,
                raise,
                rule::CAP,
                format!("Plats {s} fick en limpa: 5 poäng upp, men aldrig över {START_POINTS}, alltså {raise}."),
                format!("Seat {s} got a loaf: 5 points up, but never above {START_POINTS}, so {raise}."),
            )
        };
        terms.push(term);
    }
    let mut points = vec![0; players];
    terms.iter().for_each(|t| points[t.to] += t.points);
    let scores: Vec<i64> = (0..players).map(|s| before[s] + points[s]).collect();
    let mut limpor = state.limpor.clone();
    limpor_given.iter().for_each(|&s| limpor[s] += 1);
    let mut ledger = state.ledger.clone();
    payments.iter().for_each(|p| ledger.pay(p));
    let pot = ledger.balance(Account::Pot);
    let reached_zero = first_to_zero(&before, trick_winners);
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        in_play,
        tricks_taken: taken,
        alone,
        terms,
        points,
        scores: scores.clone(),
        limpor_given,
        limpor,
        payments,
        pot,
        balances: ledger.seats(players),
        reached_zero,
    }];
    if let Some(w) = reached_zero {
        let payment = Payment::new(
            Account::Pot,
            Account::Seat(w),
            pot,
            rule::ZERO,
            format!("Plats {w} kom först ned till 0 poäng och tar hela potten: {pot}."),
            format!("Seat {w} came down to 0 points first and takes the whole pot: {pot}."),
        );
        ledger.pay(&payment);
        events.push(Event::MatchEnded {
            winners: vec![w],
            reason: EndReason::ReachedZero,
            payments: vec![payment],
            scores: scores.clone(),
            balances: ledger.seats(players),
            explanation: Text::new(
                format!("Plats {w} kom först ned till 0 poäng ({}) och vann partiet och potten på {pot}.", scores[w]),
                format!("Seat {w} came down to 0 points first ({}) and won the match and the pot of {pot}.", scores[w]),
            ),
        });
    } else {
        events.extend(deal_limit_end(state, deal.number, state.table.next(deal.dealer), &scores, pot));
    }
    events
}

/// The match's end once the deal limit is reached with nobody at 0: the fewest points win and
/// share the pot.
fn deal_limit_end(state: &State, deal_number: u32, next_dealer: Seat, scores: &[i64], pot: i64) -> Option<Event> {
    if deal_number < state.options.max_deals {
        return None;
    }
    let best = *scores.iter().min().expect("players");
    let next_forehand = state.table.forehand(next_dealer);
    let winners: Vec<Seat> = state.table.order_from(next_forehand).into_iter().filter(|&s| scores[s] == best).collect();
    let mut ledger = state.ledger.clone();
    let shares = share_pot(pot, &winners);
    let payments: Vec<Payment> = shares
        .iter()
        .filter(|(_, amount)| *amount > 0)
        .map(|&(s, amount)| {
            let (rule, sv, en) = if winners.len() == 1 {
                (
                    rule::DEAL_LIMIT,
                    format!("Givgränsen är nådd och plats {s} har lägst poäng, {best}: hela potten, {amount}."),
                    format!("The deal limit is reached and seat {s} has the fewest points, {best}: the whole pot, {amount}."),
                )
            } else {
                (
                    rule::SPLIT,
                    format!("Givgränsen är nådd och plats {s} delar lägst poäng, {best}: {amount} av potten på {pot}."),
                    format!("The deal limit is reached and seat {s} shares the fewest points, {best}: {amount} of the pot of {pot}."),
                )
            };
            Payment::new(Account::Pot, Account::Seat(s), amount, rule, sv, en)
        })
        .collect();
    payments.iter().for_each(|p| ledger.pay(p));
    let max = state.options.max_deals;
    let who = seats_text(&winners);
    Some(Event::MatchEnded {
        winners: winners.clone(),
        reason: EndReason::DealLimit,
        payments,
        scores: scores.to_vec(),
        balances: ledger.seats(state.players()),
        explanation: if winners.len() == 1 {
            Text::new(
                format!("Efter {max} givar hade ingen nått 0; plats {who} hade lägst poäng, {best}, och vann potten på {pot}."),
                format!("After {max} deals nobody had reached 0; seat {who} had the fewest points, {best}, and won the pot of {pot}."),
            )
        } else {
            Text::new(
                format!("Efter {max} givar hade ingen nått 0; platserna {who} hade lägst poäng, {best}, och delar potten på {pot}."),
                format!("After {max} deals nobody had reached 0; seats {who} had the fewest points, {best}, and share the pot of {pot}."),
            )
        },
    })
}

// ---------------------------------------------------------------------------------------------
// The bot

fn bot_choice(deal: &Deal, seat: Seat, score: i64, moves: &[Command], rng: &mut Rng) -> Command {
    if rng.below(8) == 0 {
        return moves[rng.below(moves.len())].clone();
    }
    let hand = &deal.play.hands[seat];
    let trumps = deal.trumps;
    let trump_count = hand.iter().filter(|c| c.is_suit(trumps)).count();
    let high_trump = hand.iter().any(|&c| c.is_suit(trumps) && rank_value(c) >= 12);
    let aces = hand.iter().filter(|&&c| rank_value(c) == 14 && !c.is_suit(trumps)).count();
    let strength = trump_count + aces + usize::from(high_trump);
    match deal.stage {
        Stage::Bidding => {
            if strength >= 3 || (strength >= 2 && rng.below(2) == 0) {
                Command::Knock
            } else {
                Command::Lura
            }
        }
        // Close to 0 a player takes more risks; a loaf costs a stake and 5 points.
        Stage::Joining => {
            if strength >= 2 || (strength >= 1 && score <= 3) || rng.below(5) == 0 {
                Command::Knock
            } else {
                Command::Fold
            }
        }
        Stage::Buying => {
            let keep = |c: &Card| c.is_suit(trumps) || rank_value(*c) == 14;
            let mut discard: Vec<Card> = hand.iter().copied().filter(|c| !keep(c)).collect();
            if seat == deal.dealer && discard.is_empty() {
                let lowest = hand.iter().copied().min_by_key(|&c| rank_value(c)).expect("six cards");
                discard.push(lowest);
            }
            let buy = Command::Buy { discard };
            if moves.contains(&buy) {
                buy
            } else {
                moves[0].clone()
            }
        }
        Stage::Playing => {
            let legal: Vec<Card> = moves
                .iter()
                .filter_map(|m| match m {
                    Command::Play { card } => Some(*card),
                    _ => None,
                })
                .collect();
            let weight = |c: Card| (u8::from(c.is_suit(trumps)), rank_value(c));
            let lowest = legal.iter().copied().min_by_key(|&c| weight(c)).expect("a legal card");
            if deal.play.trick.is_empty() {
                return Command::Play { card: legal.iter().copied().max_by_key(|&c| weight(c)).expect("a legal card") };
            }
            let winner = deal.winner();
            let winning = crate::trick::taking(&deal.play.trick, seat, &legal, |t| winner(t).0);
            let card = winning.into_iter().min_by_key(|&c| weight(c)).unwrap_or(lowest);
            Command::Play { card }
        }
        Stage::Over => moves[0].clone(),
    }
}

/// How much a card is worth keeping in the buying: any trump above any other card, then rank.
fn keep_value(c: Card, trumps: Suit) -> u8 {
    rank_value(c) + if c.is_suit(trumps) { 20 } else { 0 }
}

/// The tricks a five-card hand may hope for: high trumps, trumps to ruff with, side aces and
/// guarded side kings. Five tricks go round the whole table, so a crowd takes its share.
fn expected_tricks(hand: &[Card], trumps: Suit, players: usize) -> f64 {
    let trump_count = hand.iter().filter(|c| c.is_suit(trumps)).count();
    let mut tricks = 0.0;
    for &c in hand {
        let r = rank_value(c);
        let suit_len = hand.iter().filter(|d| d.suit() == c.suit()).count();
        tricks += if c.is_suit(trumps) {
            match r {
                14 => 1.0,
                13 => 0.75,
                12 => 0.5,
                11 => 0.4,
                _ => 0.3,
            }
        } else {
            match r {
                14 => 0.7,
                13 if suit_len >= 2 => 0.3,
                _ => 0.0,
            }
        };
    }
    // Without trumps a hand is led through; with many, the side suits get ruffed.
    if trump_count == 0 {
        tricks *= 0.7;
    }
    tricks * 4.0 / players.max(3) as f64
}

/// What the pot is worth to each seat now: its balance plus a share of the pot by how close
/// its points are to 0 (each point nearer counting for more).
fn equity(state: &State) -> Vec<f64> {
    let players = state.players();
    let balances = state.ledger.seats(players);
    if state.deals.outcome.is_some() {
        return balances.iter().map(|&b| b as f64).collect();
    }
    let weight: Vec<f64> = state.deals.scores.iter().map(|&p| 0.6f64.powi(p.max(0) as i32)).collect();
    let total: f64 = weight.iter().sum();
    let pot = state.pot() as f64;
    (0..players).map(|s| balances[s] as f64 + pot * weight[s] / total).collect()
}

/// The buying the strong bot weighs: put away the k cards least worth keeping, for every k the
/// rules allow (any other discard keeps a weaker card and throws a better one).
fn buy_candidates(deal: &Deal, seat: Seat) -> Vec<Command> {
    let mut hand = deal.play.hands[seat].clone();
    hand.sort_by_key(|&c| keep_value(c, deal.trumps));
    let dealer = usize::from(seat == deal.dealer);
    (dealer..=hand.len())
        .filter(|k| k - dealer <= deal.talon.len())
        .map(|k| Command::Buy { discard: sorted(hand[..k].to_vec()) })
        .collect()
}

/// The rule-of-thumb move: knock on a hand worth a trick and more, join a knock when a loaf is
/// unlikely or cheap, buy away everything but trumps and aces, and play to take tricks.
fn basic_choice(state: &State, deal: &Deal, seat: Seat) -> Option<Command> {
    let hand = &deal.play.hands[seat];
    let trumps = deal.trumps;
    let players = deal.players();
    let tricks = expected_tricks(hand, trumps, players);
    let score = state.deals.scores[seat];
    match deal.stage {
        Stage::Bidding => {
            // The last to speak after all passed loses nothing by knocking on a fair hand.
            let last = deal.calls.len() + 1 == players;
            Some(if tricks >= 1.3 || (last && tricks >= 0.8) { Command::Knock } else { Command::Lura })
        }
        Stage::Joining => {
            // A loaf costs a stake and up to 5 points (at 10 points only the stake), but a seat
            // that folds gets no nearer 0: against players who fold much, joining nearly always
            // paid best.
            let loaf_points = LIMPA_POINTS.min(START_POINTS - score) as f64;
            Some(if tricks >= 0.1 + 0.04 * loaf_points { Command::Knock } else { Command::Fold })
        }
        Stage::Buying => {
            let keep = |c: &Card| c.is_suit(trumps) || rank_value(*c) == 14;
            let away = hand.iter().filter(|c| !keep(c)).count().max(usize::from(seat == deal.dealer));
            // As many as the talon allows.
            buy_candidates(deal, seat)
                .into_iter()
                .rev()
                .find(|c| matches!(c, Command::Buy { discard } if discard.len() <= away))
        }
        Stage::Playing => {
            let legal = playable(hand, &deal.play.trick, deal.first_lead(), trumps, deal.trumfmant);
            // Five tricks are few: lead the best card and draw the trumps that could beat it.
            if deal.play.trick.is_empty() {
                return legal.iter().copied().max_by_key(|&c| keep_value(c, trumps)).map(|card| Command::Play { card });
            }
            let last = deal.play.trick.plays.len() + 1 == deal.in_seats().len();
            bots::basic_card(&legal, &deal.play.trick, Some(trumps), seat, None, last, bots::Aim::Take)
                .map(|card| Command::Play { card })
        }
        Stage::Over => None,
    }
}

/// The deal as `seat` knows it: its own hand, what it put away or threw in, the cards played,
/// the trump card in the dealer's hand until he has bought; every other hand, the others'
/// discards and thrown-in hands and the talon dealt afresh from the rest, sizes kept.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let players = deal.players();
    let trump_card_held = (seat != deal.dealer && !deal.has_bought(deal.dealer)).then_some(deal.trump_card);
    let mut seen = deal.known_to(seat);
    seen.extend(deal.play.played().map(|(_, c)| c));
    seen.extend(trump_card_held);
    let pool: Vec<Card> = decks::standard52().into_iter().filter(|c| !seen.contains(c)).collect();
    // Under trumfmant a trump may stand in for the suit led, so a card off suit shows no void.
    let void = if deal.trumfmant {
        vec![[false; 4]; players]
    } else {
        bots::voids(players, &deal.play.tricks, &deal.play.trick)
    };
    let others: Vec<Seat> = (0..players).filter(|&s| s != seat).collect();
    // The dealer holds the trump card, or threw it in with his hand.
    let folded = |s: Seat| !deal.folded[s].is_empty();
    let less = |s: Seat, pile_folded: bool| {
        usize::from(s == deal.dealer && trump_card_held.is_some() && folded(s) == pile_folded)
    };
    let mut piles: Vec<(usize, [bool; 4])> =
        others.iter().map(|&s| (deal.play.hands[s].len() - less(s, false), void[s])).collect();
    piles.extend(others.iter().map(|&s| (deal.discards[s].len(), [false; 4])));
    piles.extend(others.iter().map(|&s| (deal.folded[s].len() - less(s, true), [false; 4])));
    piles.push((deal.talon.len(), [false; 4]));
    let mut dealt = bots::redeal(&pool, &piles, rng).into_iter();
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    for &s in &others {
        let mut hand = dealt.next()?;
        if s == deal.dealer && !folded(s) {
            hand.extend(trump_card_held);
        }
        sort_hand(&mut hand);
        w.play.hands[s] = hand;
    }
    for &s in &others {
        w.discards[s] = dealt.next()?;
    }
    for &s in &others {
        let mut thrown = dealt.next()?;
        if s == deal.dealer && folded(s) {
            thrown.extend(trump_card_held);
        }
        w.folded[s] = thrown;
    }
    w.talon = dealt.next()?;
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Norrlandsknack {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "norrlandsknack";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("../rulebooks/norrlandsknack.txt");

    /// A bigger stake, and a short match that ends by the deal limit.
    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![Options::default(), Options { stake: 3, max_deals: 4 }]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_STAKE).contains(&options.stake) {
            return Err(SetupError(format!(
                "the stake must be from 1 to {MAX_STAKE}, not {} ({})",
                options.stake,
                rule::STAKE
            )));
        }
        if !(1..=MAX_DEALS).contains(&options.max_deals) {
            return Err(SetupError(format!(
                "max_deals must be from 1 to {MAX_DEALS}, not {} ({})",
                options.max_deals,
                rule::DEAL_LIMIT
            )));
        }
        Ok(State {
            table: Seating::new(players),
            options,
            deals: Deals::new(players),
            ledger: Ledger::new(),
            limpor: vec![0; players],
            deals_played: 0,
        })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let players = state.players();
        let table = state.table;
        let dealer = state.deals.next_dealer;
        let forehand = table.forehand(dealer);
        let mut hands = vec![Vec::with_capacity(HAND + 1); players];
        let order = table.order_from(forehand);
        for (i, &s) in order.iter().enumerate() {
            hands[s].extend_from_slice(&deck[3 * i..3 * i + 3]);
        }
        let trump_card = deck[3 * players];
        for (i, &s) in order.iter().enumerate() {
            let from = 3 * players + 1 + 2 * i;
            hands[s].extend_from_slice(&deck[from..from + 2]);
        }
        hands[dealer].push(trump_card);
        hands.iter_mut().for_each(|h| sort_hand(h));
        let first = state.deals.number == 0;
        let scores = if first { vec![START_POINTS; players] } else { state.deals.scores.clone() };
        let deal_number = state.deals.number + 1;
        let mut events = vec![Event::DealStarted {
            deal_number,
            dealer,
            forehand,
            first_deal: state.deals_played == 0,
            trumfmant: scores.contains(&1),
            deck: deck.clone(),
            hands,
            trump_card,
            trumps: trump_card.suit().expect("a standard pack"),
            talon: deck[HAND * players + 1..].to_vec(),
            scores,
            limpor: state.limpor.clone(),
            balances: state.ledger.seats(players),
            deals_played: state.deals_played,
            options: state.options.clone(),
        }];
        if first {
            let stake = state.options.stake;
            let payments = (0..players)
                .map(|s| {
                    Payment::new(
                        Account::Seat(s),
                        Account::Pot,
                        stake,
                        rule::STAKE,
                        format!("Plats {s} lägger sin insats på {stake} i potten när partiet börjar."),
                        format!("Seat {s} puts its stake of {stake} into the pot as the match begins."),
                    )
                })
                .collect();
            events.push(Event::StakesPaid { payments, pot: state.pot() + stake * players as i64 });
        }
        Ok(events)
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match (deal.stage, command) {
            (Stage::Bidding, Command::Knock) => Ok(decide_call(state, deal, seat, true)),
            (Stage::Bidding, Command::Lura) => Ok(decide_call(state, deal, seat, false)),
            (Stage::Joining, Command::Knock) => Ok(decide_join(state, deal, seat, true)),
            (Stage::Joining, Command::Fold) => Ok(decide_join(state, deal, seat, false)),
            (Stage::Bidding, Command::Fold) => Err(RuleViolation::new(
                rule::BID_ORDER,
                "Ingen har knackat än: du kan knacka eller lura, inte lägga dig.",
                "Nobody has knocked yet: you may knock or pass, not fold.",
            )),
            (Stage::Joining, Command::Lura) => Err(RuleViolation::new(
                rule::JOIN,
                "Någon har knackat: nu går du med (knackar) eller lägger dig.",
                "Someone has knocked: you now join (knock) or fold.",
            )),
            (Stage::Buying, Command::Buy { discard }) => decide_buy(deal, seat, discard),
            (Stage::Playing, Command::Play { card }) => decide_play(state, deal, seat, *card),
            (stage, _) => Err(wrong_phase(stage)),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        let table = state.table;
        match event {
            Event::DealStarted {
                deal_number,
                dealer,
                forehand,
                first_deal,
                trumfmant,
                deck,
                hands,
                trump_card,
                trumps,
                talon,
                scores,
                limpor,
                balances,
                deals_played,
                options,
            } => {
                // The deal carries what it inherits, so that it can be replayed on its own.
                state.options = options.clone();
                state.ledger = opening_ledger(balances);
                state.limpor = limpor.clone();
                state.deals_played = *deals_played;
                state.deals.next_dealer = table.next(*dealer);
                let players = hands.len();
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    forehand: *forehand,
                    first_deal: *first_deal,
                    trumfmant: *trumfmant,
                    deck: deck.clone(),
                    trump_card: *trump_card,
                    trumps: *trumps,
                    talon: talon.clone(),
                    stage: Stage::Bidding,
                    calls: Vec::new(),
                    knocker: None,
                    join_order: Vec::new(),
                    joins: Vec::new(),
                    buy_order: Vec::new(),
                    buys: Vec::new(),
                    discards: vec![Vec::new(); players],
                    folded: vec![Vec::new(); players],
                    play: TrickPlay::new(table, hands.clone(), *forehand, HAND),
                    opening_balances: balances.clone(),
                    payments: Vec::new(),
                    result: None,
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored {
                terms,
                scores,
                limpor,
                payments,
                in_play,
                tricks_taken,
                alone,
                limpor_given,
                reached_zero,
                ..
            } => {
                payments.iter().for_each(|p| state.ledger.pay(p));
                state.deals.scored(terms, scores);
                state.limpor = limpor.clone();
                state.deals_played += 1;
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.payments.extend(payments.iter().cloned());
                    deal.stage = Stage::Over;
                    deal.result = Some(DealResult {
                        in_play: in_play.clone(),
                        tricks_taken: tricks_taken.clone(),
                        alone: *alone,
                        terms: terms.clone(),
                        limpor: limpor_given.clone(),
                        payments: payments.clone(),
                        reached_zero: *reached_zero,
                    });
                }
            }
            Event::MatchEnded { winners, payments, explanation, .. } => {
                payments.iter().for_each(|p| state.ledger.pay(p));
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.payments.extend(payments.iter().cloned());
                    if let Some(result) = deal.result.as_mut() {
                        result.payments.extend(payments.iter().cloned());
                    }
                }
                state.deals.ended(winners, explanation);
            }
            Event::StakesPaid { payments, .. } => {
                payments.iter().for_each(|p| state.ledger.pay(p));
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.payments.extend(payments.iter().cloned());
                }
            }
            Event::Redealt { dealer } => {
                state.deals.next_dealer = *dealer;
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.stage = Stage::Over;
                }
            }
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                evolve_deal(deal, &table, event);
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        match deal.stage {
            Stage::Bidding => vec![Command::Knock, Command::Lura],
            Stage::Joining => vec![Command::Knock, Command::Fold],
            Stage::Buying => {
                let dealer = seat == deal.dealer;
                subsets(&deal.play.hands[seat])
                    .into_iter()
                    .filter(|d| !(dealer && d.is_empty()) && d.len() - usize::from(dealer) <= deal.talon.len())
                    .map(|discard| Command::Buy { discard })
                    .collect()
            }
            Stage::Playing => {
                playable(&deal.play.hands[seat], &deal.play.trick, deal.first_lead(), deal.trumps, deal.trumfmant)
                    .into_iter()
                    .map(|card| Command::Play { card })
                    .collect()
            }
            Stage::Over => Vec::new(),
        }
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut moves = vec![Command::Knock, Command::Lura, Command::Fold, Command::Buy { discard: Vec::new() }];
        if let Some(hand) = state.deals.deal.as_ref().and_then(|d| d.play.hands.get(seat)) {
            moves.extend(subsets(hand).into_iter().skip(1).map(|discard| Command::Buy { discard }));
            if let Some(&c) = hand.first() {
                moves.push(Command::Buy { discard: vec![c, c] });
            }
        }
        for card in decks::standard52() {
            moves.extend([Command::Play { card }, Command::Buy { discard: vec![card] }]);
        }
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

    /// The same for every viewer at any time: discards, thrown-in hands, the deck and the talon
    /// are never shown to anyone but their owner, so nothing opens up when the deal is over.
    fn redact(&self, _state: &State, event: &Event, viewer: Viewer, _deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        let owner = |s: Seat| viewer == Viewer::Seat(s);
        match event {
            Event::DealStarted { hands, .. } => {
                deals::redact_hands(&mut full, hands, viewer, |_| true);
                full["hand_sizes"] = json!(hands.iter().map(Vec::len).collect::<Vec<_>>());
                full["talon"] = Value::Null;
            }
            Event::Folded { seat, .. } if !owner(*seat) => full["cards"] = Value::Null,
            Event::Bought { seat, .. } if !owner(*seat) => {
                full["discarded"] = Value::Null;
                full["drawn"] = Value::Null;
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deals.deal else { return Vec::new() };
        let trump_card = deal.trump_card;
        let mut secrets = deal.play.hand_secrets(|_, c| c == trump_card);
        for s in 0..deal.players() {
            let own = deal.discards[s].iter().chain(&deal.folded[s]).filter(|&&c| c != trump_card);
            secrets.extend(own.map(|&c| (c, vec![s])));
        }
        secrets.extend(deal.talon.iter().map(|&c| (c, Vec::new())));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        state.ledger.check()?;
        if let Some(s) = state.deals.scores.iter().find(|&&s| s > START_POINTS) {
            return Err(format!("a score of {s} is above {START_POINTS}"));
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let mut rebuilt = opening_ledger(&deal.opening_balances);
        deal.payments.iter().for_each(|p| rebuilt.pay(p));
        if rebuilt != state.ledger {
            return Err(format!("the ledger {:?} is not the deal's payments {rebuilt:?}", state.ledger));
        }
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let winner = deal.winner();
        deal.play.check(&pack, &deal.elsewhere(), |s| deal.hand_size(s), &winner)?;
        if deal.stage == Stage::Playing && deal.buys.len() != deal.buy_order.len() {
            return Err("the play started before everyone in had bought".into());
        }
        for s in 0..deal.players() {
            if deal.play.out.contains(&s) == deal.folded[s].is_empty() {
                return Err(format!("seat {s} sits out and holds a thrown-in hand, or not, at odds"));
            }
        }
        let known: usize = (0..deal.players()).map(|s| deal.known_to(s).len()).sum();
        if known + deal.talon.len() != pack.len() {
            return Err(format!("{known} cards are known to their seats and {} in the talon", deal.talon.len()));
        }
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        match state.deals.acting(seat) {
            Some(deal) if deal.stage == Stage::Buying => buy_candidates(deal, seat),
            _ => self.legal_moves(state, seat),
        }
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic_choice(state, state.deals.acting(seat)?, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// Chips, and while the match runs a share of the pot by points, less the others' mean.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let equity = equity(state);
        bots::lead_over_mean(equity.len(), |s| equity[s], seat)
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let moves = self.legal_moves(state, seat);
        match moves.len() {
            0 => None,
            1 => Some(moves[0].clone()),
            _ => Some(bot_choice(deal, seat, state.deals.scores[seat], &moves, &mut Rng::new(seed))),
        }
    }
}

/// The facts of the deal itself: bidding, joining, buying and the play.
fn evolve_deal(deal: &mut Deal, table: &Seating, event: &Event) {
    match event {
        Event::Knocked { seat } => {
            deal.calls.push(KnockCall { seat: *seat, knocked: true });
            deal.knocker = Some(*seat);
            if deal.first_deal {
                deal.buy_order = table.order_from(deal.forehand);
                deal.stage = Stage::Buying;
            } else {
                deal.join_order = (1..deal.players()).map(|i| table.after(*seat, i)).collect();
                deal.stage = Stage::Joining;
            }
        }
        Event::Lurat { seat } => deal.calls.push(KnockCall { seat: *seat, knocked: false }),
        Event::Joined { seat } | Event::Folded { seat, .. } => {
            let joined = matches!(event, Event::Joined { .. });
            deal.joins.push(JoinCall { seat: *seat, joined });
            if !joined {
                deal.folded[*seat] = deal.play.sit_out(*seat);
            }
            if deal.joins.len() == deal.join_order.len() {
                let first = deal.play.seats_in_from(deal.forehand)[0];
                deal.play.trick = Trick::led_by(first);
                deal.buy_order = deal.play.seats_in_from(deal.forehand);
                deal.stage = Stage::Buying;
            }
        }
        Event::Bought { seat, discarded, drawn, .. } => {
            let hand = &mut deal.play.hands[*seat];
            for c in discarded {
                take_card(hand, *c);
                deal.discards[*seat].push(*c);
            }
            for c in drawn {
                take_card(&mut deal.talon, *c);
                hand.push(*c);
            }
            sort_hand(hand);
            deal.buys.push(BuyCall { seat: *seat, discarded: discarded.len(), drawn: drawn.len() });
            if deal.buys.len() == deal.buy_order.len() {
                deal.stage = Stage::Playing;
            }
        }
        // The buying and the play are skipped; scoring follows.
        Event::KnockerAlone { .. } => {
            deal.buy_order.clear();
            deal.stage = Stage::Playing;
        }
        Event::CardPlayed { seat, card } => deal.play.play(*seat, *card),
        Event::TrickWon { winner, card, reason, .. } => deal.play.won(*winner, *card, *reason),
        _ => {}
    }
}
