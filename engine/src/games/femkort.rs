//! Femkort: five cards each, no trumps, must overtake, and only the last trick counts: whoever
//! takes the fifth trick takes the pot.
//!
//! Everyone stakes the same into the pot before a deal. Forehand leads; players must follow suit
//! and, following, must beat the best card so far if they can. The first four tricks are worth
//! nothing in themselves. Before the last trick anyone may offer "better cards", out of turn; the
//! others answer (in any order), and if nobody declines the hands are thrown in unseen and dealt
//! anew with the pot kept and no new stakes.
//!
//! The text plays on for as long as the table likes; a match here is a number of rounds in which
//! every seat deals one played-out deal (a house rule and an option), so it ends with the pot
//! empty.

use std::ops::RangeInclusive;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, rank_value, sorted, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::ledger::{Account, Ledger, Payment};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{match_winners, seats_text, Seat, Table as Seating};
use crate::trick::{self, Play, PlayView, Trick, TrickPlay, WinReason};

#[derive(Default)]
pub struct Femkort;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 10;
/// Cards per hand, and so tricks per deal; the last of them takes the pot.
pub const HAND: usize = 5;
/// Guards against a typo turning a friendly game into an overflow: no rule names a limit.
pub const MAX_STAKE: i64 = 1_000_000;
pub const MAX_ROUNDS: u32 = 100;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "femkort.pack.players";
    pub const PACK: &str = "femkort.pack.cards";

    pub const ANTE: &str = "femkort.stakes.ante";
    pub const STAKE_AGAIN: &str = "femkort.stakes.again";

    pub const THREE_THEN_TWO: &str = "femkort.deal.three-then-two";

    pub const FIRST_LEAD: &str = "femkort.play.first-lead";
    pub const NO_TRUMPS: &str = "femkort.play.no-trumps";
    pub const FOLLOW_SUIT: &str = "femkort.play.follow-suit";
    pub const OVERTAKE: &str = "femkort.play.overtake";
    pub const WINNER_LEADS: &str = "femkort.play.winner-leads";

    pub const LAST_TRICK: &str = "femkort.pot.last-trick";

    pub const OFFER_CLOSED: &str = "femkort.offer.before-last-trick";
    pub const ANSWER: &str = "femkort.offer.answer";

    pub const FIRST_DEALER: &str = "femkort.house.first-dealer";
    pub const OFFER_ONCE: &str = "femkort.house.offer-once";
    pub const OFFER_PAUSES: &str = "femkort.house.offer-pauses";
    pub const UNDEALT: &str = "femkort.house.undealt";
    pub const MATCH_END: &str = "femkort.house.match-end";
    pub const WINNERS: &str = "femkort.house.winners";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// What each player puts into the pot before every deal (not before a redeal).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000000))]
    pub stake: i64,
    /// The text's older way of dealing: three cards to each player, then two.
    pub three_then_two: bool,
    /// How many times each seat deals a played-out deal before the match ends.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub rounds: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { stake: 1, three_then_two: false, rounds: 1 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal` before the first deal, `playing` the tricks,
/// `answering-offer` while an offer of better cards awaits its answers, `redeal` once the hands
/// are thrown in and the new cards are awaited, `deal-over` once the pot is won, `finished` once
/// the match is over.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Playing,
    AnsweringOffer,
    Redeal,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// What a player decided about better cards in a deal (each decides once).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Choice {
    /// Offered better cards.
    Offered,
    /// Said they are content with their cards.
    Kept,
}

/// An offer of better cards and its answers.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Offer {
    /// The player who offered.
    pub by: Seat,
    /// The trick being played when it was offered, 1 for the first.
    pub trick_number: usize,
    /// The players who accepted, in the order they answered.
    pub accepted: Vec<Seat>,
    /// The player whose refusal ended the offer; null while it is open and when all accepted.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub declined_by: Option<Seat>,
}

/// How a deal ended in money: who paid and took what, and why.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Settlement {
    /// The seat that took the last trick and the pot; null when the hands were thrown in.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winner: Option<Seat>,
    /// The pot at the end of the deal, before it was taken (or kept for the redeal).
    pub pot: i64,
    /// The stakes paid into the pot in this deal, then the pot paid out.
    pub payments: Vec<Payment>,
    /// The deal's money by seat, term by term.
    pub terms: Vec<ScoreTerm>,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    /// The hands of an earlier deal were thrown in, so this deal plays for their pot.
    redeal: bool,
    opening_pot: i64,
    stakes: Vec<Payment>,
    play: TrickPlay,
    choices: Vec<Option<Choice>>,
    /// The offer awaiting answers.
    offer: Option<Offer>,
    /// Offers answered, in the order made.
    offers: Vec<Offer>,
    thrown_in: bool,
    settlement: Option<Settlement>,
}

impl Deal {
    fn players(&self) -> usize {
        self.play.table.seats
    }

    fn forehand(&self) -> Seat {
        self.play.table.forehand(self.dealer)
    }

    /// Better cards may be offered until the last trick begins.
    fn offers_open(&self) -> bool {
        self.play.tricks.len() < HAND - 1
    }

    /// The cards set aside after dealing.
    fn undealt(&self) -> &[Card] {
        &self.deck[HAND * self.players()..]
    }

    fn answering(&self) -> Vec<Seat> {
        let Some(offer) = &self.offer else { return Vec::new() };
        (0..self.players()).filter(|&s| s != offer.by && !offer.accepted.contains(&s)).collect()
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if !deals::Deal::is_live(self) {
            return Vec::new();
        }
        if self.offer.is_some() {
            return self.answering();
        }
        let mut seats = vec![self.play.to_play()];
        if self.offers_open() {
            // Anyone who has not yet decided may offer better cards out of turn.
            seats.extend((0..self.players()).filter(|&s| self.choices[s].is_none()));
        }
        seats.sort_unstable();
        seats.dedup();
        seats
    }

    fn is_live(&self) -> bool {
        !self.thrown_in && !self.play.is_over()
    }

    fn phase(&self) -> Phase {
        if self.thrown_in {
            Phase::Redeal
        } else if self.play.is_over() {
            Phase::DealOver
        } else if self.offer.is_some() {
            Phase::AnsweringOffer
        } else {
            Phase::Playing
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    table: Seating,
    deals: Deals<Deal>,
    ledger: Ledger,
    /// Deals played out to the last trick (redeals not counted) before the current one ends.
    deals_played: u32,
    /// Deals whose hands were thrown in: their first events never show the hands again.
    thrown_in: BTreeSet<u32>,
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
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Play a card to the trick (in turn).
    Play { card: Card },
    /// Say "better cards": offer a redeal with the pot kept (any player, out of turn, once per
    /// deal, before the last trick).
    OfferBetterCards,
    /// Say one is content with one's cards: no offer from this player this deal.
    KeepCards,
    /// Agree to the offer of better cards.
    AcceptOffer,
    /// Decline the offer of better cards: play goes on.
    DeclineOffer,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        /// Deals played out before this one (redeals not counted).
        deals_played: u32,
        /// Deals played out that make the match.
        deals_scheduled: u32,
        dealer: Seat,
        forehand: Seat,
        /// The hands of the deal before were thrown in: this deal plays for the pot they left.
        redeal: bool,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's five cards, sorted by suit and rank.
        hands: Vec<Vec<Card>>,
        /// The pot before this deal's stakes.
        pot: i64,
        /// Seat balances before this deal's stakes.
        balances: Vec<i64>,
        options: Options,
    },
    StakesPaid {
        payments: Vec<Payment>,
        /// The pot after the stakes.
        pot: i64,
    },
    BetterCardsOffered {
        seat: Seat,
        trick_number: usize,
    },
    CardsKept {
        seat: Seat,
    },
    OfferAccepted {
        seat: Seat,
    },
    /// The offer lapsed: play goes on where it was.
    OfferDeclined {
        seat: Seat,
        offered_by: Seat,
    },
    /// Nobody declined: the hands are thrown in unseen, the pot stays for the redeal.
    DealThrownIn {
        deal_number: u32,
        offered_by: Seat,
        /// The pot kept for the redeal.
        pot: i64,
        /// The stakes this deal took, by seat.
        terms: Vec<ScoreTerm>,
        /// Seat balances after this deal.
        scores: Vec<i64>,
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
    /// The fifth trick is won and with it the pot.
    DealScored {
        deal_number: u32,
        winner: Seat,
        /// The pot the winner took.
        pot: i64,
        payments: Vec<Payment>,
        /// The deal's money by seat, term by term: the stakes paid in this deal and the pot won.
        terms: Vec<ScoreTerm>,
        /// The deal's money by seat.
        points: Vec<i64>,
        /// Seat balances after this deal.
        scores: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        balances: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Rules that are pure functions, kept apart so tests can reach them directly

/// The five hands from the deck, one card at a time or three then two, from the dealer's left.
pub fn deal_hands(table: &Seating, dealer: Seat, deck: &[Card], three_then_two: bool) -> Vec<Vec<Card>> {
    let n = table.seats;
    if !three_then_two {
        return deals::deal_singly(table, dealer, &deck[..HAND * n]);
    }
    let mut hands = vec![Vec::new(); n];
    for i in 0..n {
        let seat = table.after(dealer, 1 + i);
        hands[seat].extend_from_slice(&deck[3 * i..3 * i + 3]);
        hands[seat].extend_from_slice(&deck[3 * n + 2 * i..3 * n + 2 * i + 2]);
    }
    hands
}

/// The best card of the suit led in the trick so far: the card to overtake.
pub fn to_overtake(trick: &Trick) -> Option<Card> {
    let led = trick.led_suit()?;
    trick.cards().filter(|c| c.is_suit(led)).max_by_key(|&c| rank_value(c))
}

/// The cards `hand` may play to `trick`: the suit led if held, and of it only cards beating the
/// best card so far when there are any; without the suit led, anything.
pub fn playable(hand: &[Card], trick: &Trick) -> Vec<Card> {
    let follow = trick::follow_suit(hand, trick);
    let Some(best) = to_overtake(trick) else { return trick::distinct(follow) };
    if !follow.iter().any(|c| c.suit() == best.suit()) {
        return trick::distinct(follow);
    }
    let over: Vec<Card> = follow.iter().copied().filter(|&c| rank_value(c) > rank_value(best)).collect();
    trick::distinct(if over.is_empty() { follow } else { over })
}

fn opening_ledger(balances: &[i64]) -> Ledger {
    let mut ledger = Ledger::new();
    // Every chip a seat is up came out of the pot and every chip it is down went in, so the pot
    // is what the seats are down between them.
    for (s, &b) in balances.iter().enumerate() {
        if b != 0 {
            ledger.pay(&Payment::new(
                Account::Pot,
                Account::Seat(s),
                b,
                rule::STAKE_AGAIN,
                "Saldo från tidigare givar.".into(),
                "Balance from earlier deals.".into(),
            ));
        }
    }
    ledger
}

/// The stakes a deal took, as score terms by seat.
fn stake_terms(stakes: &[Payment], kept: bool) -> Vec<ScoreTerm> {
    stakes
        .iter()
        .filter_map(|p| match p.from {
            Account::Seat(s) => Some(if kept {
                ScoreTerm::new(
                    s,
                    -p.amount,
                    rule::ANTE,
                    format!("Plats {s} satsade {} i potten; den ligger kvar till omgiven.", p.amount),
                    format!("Seat {s} staked {} into the pot, which stays for the redeal.", p.amount),
                )
            } else {
                ScoreTerm::new(
                    s,
                    -p.amount,
                    rule::ANTE,
                    format!("Plats {s} satsade {} i potten.", p.amount),
                    format!("Seat {s} staked {} into the pot.", p.amount),
                )
            }),
            _ => None,
        })
        .collect()
}

fn points_of(players: usize, terms: &[ScoreTerm]) -> Vec<i64> {
    let mut points = vec![0; players];
    for t in terms {
        points[t.to] += t.points;
    }
    points
}

fn plus(scores: &[i64], points: &[i64]) -> Vec<i64> {
    scores.iter().zip(points).map(|(a, b)| a + b).collect()
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_choice(deal: &Deal, seat: Seat, offer: bool) -> Result<Vec<Event>, RuleViolation> {
    if deal.offer.is_some() {
        return Err(RuleViolation::new(
            rule::OFFER_PAUSES,
            "Ett erbjudande om bättre kort väntar redan på svar.",
            "An offer of better cards is already awaiting its answers.",
        ));
    }
    if !deal.offers_open() {
        return Err(RuleViolation::new(
            rule::OFFER_CLOSED,
            "Det sista sticket har börjat, och då kan ingen längre erbjuda bättre kort.",
            "The last trick has begun, and nobody can offer better cards any more.",
        ));
    }
    if let Some(choice) = deal.choices[seat] {
        let (sv, en) = match choice {
            Choice::Offered => ("redan erbjudit bättre kort", "already offered better cards"),
            Choice::Kept => ("redan sagt dig nöjd med korten", "already said you are content with your cards"),
        };
        return Err(RuleViolation::new(
            rule::OFFER_ONCE,
            format!("Du har {sv} i den här given; man bestämmer sig en gång per giv."),
            format!("You have {en} in this deal; each player decides once per deal."),
        ));
    }
    Ok(vec![if offer {
        Event::BetterCardsOffered { seat, trick_number: deal.play.number() }
    } else {
        Event::CardsKept { seat }
    }])
}

fn decide_answer(state: &State, deal: &Deal, seat: Seat, accept: bool) -> Result<Vec<Event>, RuleViolation> {
    let Some(offer) = &deal.offer else {
        return Err(RuleViolation::new(
            rule::ANSWER,
            "Inget erbjudande om bättre kort väntar på svar.",
            "No offer of better cards is awaiting an answer.",
        ));
    };
    if !deal.answering().contains(&seat) {
        return Err(RuleViolation::not_your_turn(seat));
    }
    if !accept {
        return Ok(vec![Event::OfferDeclined { seat, offered_by: offer.by }]);
    }
    let mut events = vec![Event::OfferAccepted { seat }];
    if deal.answering().len() == 1 {
        let terms = stake_terms(&deal.stakes, true);
        let points = points_of(deal.players(), &terms);
        events.push(Event::DealThrownIn {
            deal_number: deal.number,
            offered_by: offer.by,
            pot: state.pot(),
            scores: plus(&state.deals.scores, &points),
            terms,
        });
    }
    Ok(events)
}

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if let Some(offer) = &deal.offer {
        return Err(RuleViolation::new(
            rule::OFFER_PAUSES,
            format!("Plats {} har erbjudit bättre kort; inga kort spelas förrän alla har svarat.", offer.by),
            format!("Seat {} has offered better cards; no card is played until everyone has answered.", offer.by),
        ));
    }
    if deal.play.to_play() != seat {
        return Err(RuleViolation::not_your_turn(seat));
    }
    deal.play.check_held(seat, card)?;
    deal.play.check_follow(seat, card, rule::FOLLOW_SUIT)?;
    if !playable(&deal.play.hands[seat], &deal.play.trick).contains(&card) {
        let best = to_overtake(&deal.play.trick).expect("only a card following suit can fail to overtake");
        return Err(RuleViolation::new(
            rule::OVERTAKE,
            format!("Du lade {card} men har ett högre kort än {best} i färgen och måste sticka över."),
            format!("You played {card} but hold a card of the suit higher than {best} and must overtake."),
        ));
    }
    let trick_number = deal.play.number();
    let mut events = vec![Event::CardPlayed { seat, card, trick_number }];
    if let Some(won) = deal.play.completed_by(seat, card, &trick::no_trumps) {
        events.push(Event::TrickWon {
            trick_number,
            winner: won.winner,
            card: won.card,
            reason: won.reason,
            plays: won.plays,
        });
        if won.last {
            events.extend(score_deal(state, deal, won.winner));
        }
    }
    Ok(events)
}

fn score_deal(state: &State, deal: &Deal, winner: Seat) -> Vec<Event> {
    let pot = state.pot();
    let payments = vec![Payment::new(
        Account::Pot,
        Account::Seat(winner),
        pot,
        rule::LAST_TRICK,
        format!("Plats {winner} tog det sista sticket och vinner potten: {pot}."),
        format!("Seat {winner} took the last trick and wins the pot: {pot}."),
    )];
    let mut terms = stake_terms(&deal.stakes, false);
    let (from_sv, from_en) = if deal.redeal {
        (" (med insatserna från given som kastades in)", " (with the stakes of the deal thrown in)")
    } else {
        ("", "")
    };
    terms.push(ScoreTerm::new(
        winner,
        pot,
        rule::LAST_TRICK,
        format!("Plats {winner} tog det femte sticket och hela potten{from_sv}: {pot}."),
        format!("Seat {winner} took the fifth trick and the whole pot{from_en}: {pot}."),
    ));
    let points = points_of(deal.players(), &terms);
    let scores = plus(&state.deals.scores, &points);
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        winner,
        pot,
        payments,
        terms,
        points,
        scores: scores.clone(),
    }];
    if state.deals_played + 1 >= state.deals_scheduled() {
        let winners = match_winners(&scores);
        let best = scores[winners[0]];
        let who = seats_text(&winners);
        let played = state.deals_played + 1;
        let explanation = if winners.len() == 1 {
            Text::new(
                format!("Alla {played} givar är spelade och plats {who} har vunnit mest: {best}."),
                format!("All {played} deals are played and seat {who} is furthest ahead: {best}."),
            )
        } else {
            Text::new(
                format!("Alla {played} givar är spelade och platserna {who} delar segern med {best} var."),
                format!("All {played} deals are played and seats {who} share the win with {best} each."),
            )
        };
        events.push(Event::MatchEnded { winners, balances: scores, explanation });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match and its money, and from the first deal on the deal
/// being played (or the last one). A seat sees its own hand; a played-out deal's record shows the
/// deck and every hand, but the hands of a deal thrown in for better cards are never shown.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, balances at the end of the last deal, who is to act.
    #[serde(flatten)]
    pub deals: MatchView,

    /// The options the match is played with.
    pub options: Options,
    /// Deals played out that make the match.
    pub deals_scheduled: u32,
    /// Deals played out so far (redeals not counted).
    pub deals_played: u32,
    /// Chips in the pot now.
    pub pot: i64,
    /// Each seat's chips won (negative: paid in) now, stakes of the current deal included.
    pub balances: Vec<i64>,
    /// The deal's forehand, who led the first trick: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// This deal replaces one thrown in and plays for its pot: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub redeal: Option<bool>,
    /// Whether better cards may still be offered (until the last trick begins): absent before
    /// the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub offers_open: Option<bool>,
    /// By seat, what that player decided about better cards this deal, null while undecided:
    /// absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub choices: Option<Vec<Option<Choice>>>,
    /// The offer of better cards awaiting answers: null when none is, absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offer: Option<Option<Offer>>,
    /// The offers of this deal that were answered, in order: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub offers: Option<Vec<Offer>>,
    /// The hands were thrown in for better cards: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub thrown_in: Option<bool>,
    /// How the deal ended in money: null until it is over, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settlement: Option<Option<Settlement>>,
    /// The pack as it was dealt, top card first: only in a played-out deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// The card play of the deal: absent before the first deal.
    #[serde(flatten)]
    pub play: PlayView,
    /// The viewer's own hand: only in a seat's view, from the first deal on, and in a seated
    /// player's record (where a thrown-in deal shows no other hand).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

// ---------------------------------------------------------------------------------------------
// The bot

/// How likely a hand is to take the last trick, roughly: high cards, the ace most of all.
fn strength(hand: &[Card]) -> u32 {
    hand.iter().map(|&c| u32::from(rank_value(c).saturating_sub(9)).pow(2)).sum()
}

fn bot_choice(deal: &Deal, seat: Seat, moves: &[Command], rng: &mut Rng) -> Command {
    let hand = &deal.play.hands[seat];
    let weak = strength(hand) < 9 + 4 * rng.below(3) as u32;
    if moves.contains(&Command::AcceptOffer) {
        return if weak { Command::AcceptOffer } else { Command::DeclineOffer };
    }
    let undecided = moves.contains(&Command::OfferBetterCards);
    let cards: Vec<Card> =
        moves.iter().filter_map(|m| if let Command::Play { card } = m { Some(*card) } else { None }).collect();
    if cards.is_empty() || (undecided && weak && rng.below(3) == 0) {
        return if weak { Command::OfferBetterCards } else { Command::KeepCards };
    }
    if cards.len() == 1 || rng.below(6) == 0 {
        return Command::Play { card: cards[rng.below(cards.len())] };
    }
    // Only the last trick counts: spend the low cards and keep the high ones for it.
    let lowest = cards.iter().copied().min_by_key(|&c| (rank_value(c), c.suit())).expect("not empty");
    Command::Play { card: lowest }
}

/// Below this [`strength`] (no ace and no more than a king and a queen, say) a hand is unlikely
/// to take the last trick, and better cards are worth asking for.
const WEAK: u32 = 18;

/// The rule-of-thumb move: offer better cards on a weak hand and accept an offer on one, keep a
/// strong hand; in the play spend the lowest card allowed and save the high ones for the last
/// trick.
fn basic_choice(deal: &Deal, seat: Seat) -> Option<Command> {
    let hand = &deal.play.hands[seat];
    let weak = strength(hand) < WEAK;
    if deal.offer.is_some() {
        return Some(if weak { Command::AcceptOffer } else { Command::DeclineOffer });
    }
    if deal.offers_open() && deal.choices[seat].is_none() {
        return Some(if weak { Command::OfferBetterCards } else { Command::KeepCards });
    }
    (deal.play.to_play() == seat).then_some(())?;
    let lowest = playable(hand, &deal.play.trick).into_iter().min_by_key(|&c| (rank_value(c), c.suit()))?;
    Some(Command::Play { card: lowest })
}

/// The deal as `seat` knows it: its own hand and the cards played; the other hands and the
/// undealt rest of the pack dealt afresh from the cards it has not seen, keeping the suits a
/// seat has shown it lacks.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    let mut undealt = w.undealt().to_vec();
    bots::resample_play(&mut w.play, seat, &decks::standard52(), &[], &[], &mut [&mut undealt], rng);
    // The pack as this world has it: hands, cards played, then the undealt rest.
    let mut deck: Vec<Card> = w.play.hands.iter().flatten().copied().chain(w.play.played().map(|(_, c)| c)).collect();
    deck.extend(undealt);
    w.deck = deck;
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Femkort {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "femkort";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/femkort.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options { three_then_two: true, ..Options::default() },
            Options { stake: 5, rounds: 2, ..Options::default() },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_STAKE).contains(&options.stake) {
            return Err(SetupError(format!("stake must be 1 to {MAX_STAKE}, not {}", options.stake)));
        }
        if !(1..=MAX_ROUNDS).contains(&options.rounds) {
            return Err(SetupError(format!("rounds must be 1 to {MAX_ROUNDS}, not {}", options.rounds)));
        }
        Ok(State {
            options,
            table: Seating::new(players),
            deals: Deals::new(players),
            ledger: Ledger::new(),
            deals_played: 0,
            thrown_in: BTreeSet::new(),
        })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let forehand = state.table.forehand(dealer);
        let hands = deal_hands(&state.table, dealer, &deck, state.options.three_then_two);
        let redeal = state.deals.deal.as_ref().is_some_and(|d| d.thrown_in);
        let pot = state.pot();
        let mut events = vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            deals_played: state.deals_played,
            deals_scheduled: state.deals_scheduled(),
            dealer,
            forehand,
            redeal,
            deck,
            hands: hands.into_iter().map(sorted).collect(),
            pot,
            balances: state.ledger.seats(state.players()),
            options: state.options.clone(),
        }];
        if !redeal {
            let stake = state.options.stake;
            let payments = state
                .table
                .order_from(forehand)
                .into_iter()
                .map(|s| {
                    Payment::new(
                        Account::Seat(s),
                        Account::Pot,
                        stake,
                        rule::ANTE,
                        format!("Plats {s} lägger sin insats {stake} i potten."),
                        format!("Seat {s} puts the stake of {stake} into the pot."),
                    )
                })
                .collect();
            events.push(Event::StakesPaid { payments, pot: pot + stake * state.players() as i64 });
        }
        Ok(events)
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match *command {
            Command::Play { card } => decide_play(state, deal, seat, card),
            Command::OfferBetterCards => decide_choice(deal, seat, true),
            Command::KeepCards => decide_choice(deal, seat, false),
            Command::AcceptOffer => decide_answer(state, deal, seat, true),
            Command::DeclineOffer => decide_answer(state, deal, seat, false),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted {
                deal_number,
                deals_played,
                dealer,
                redeal,
                deck,
                hands,
                pot,
                balances,
                options,
                ..
            } => {
                // The deal carries what it inherits, so it can be replayed on its own.
                state.options = options.clone();
                state.table = Seating::new(hands.len());
                state.deals_played = *deals_played;
                state.ledger = opening_ledger(balances);
                state.deals.next_dealer = state.table.next(*dealer);
                let players = hands.len();
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    redeal: *redeal,
                    opening_pot: *pot,
                    stakes: Vec::new(),
                    play: TrickPlay::new(state.table, hands.clone(), state.table.forehand(*dealer), HAND),
                    choices: vec![None; players],
                    offer: None,
                    offers: Vec::new(),
                    thrown_in: false,
                    settlement: None,
                };
                state.deals.started(*deal_number, balances, deal);
            }
            Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                match event {
                    Event::StakesPaid { payments, .. } => {
                        for p in payments {
                            state.ledger.pay(p);
                            deal.stakes.push(p.clone());
                        }
                    }
                    Event::BetterCardsOffered { seat, trick_number } => {
                        deal.choices[*seat] = Some(Choice::Offered);
                        deal.offer = Some(Offer {
                            by: *seat,
                            trick_number: *trick_number,
                            accepted: Vec::new(),
                            declined_by: None,
                        });
                    }
                    Event::CardsKept { seat } => deal.choices[*seat] = Some(Choice::Kept),
                    Event::OfferAccepted { seat } => {
                        if let Some(offer) = deal.offer.as_mut() {
                            offer.accepted.push(*seat);
                        }
                    }
                    Event::OfferDeclined { seat, .. } => {
                        if let Some(mut offer) = deal.offer.take() {
                            offer.declined_by = Some(*seat);
                            deal.offers.push(offer);
                        }
                    }
                    Event::DealThrownIn { pot, terms, scores, .. } => {
                        deal.offers.extend(deal.offer.take());
                        deal.thrown_in = true;
                        deal.settlement = Some(Settlement {
                            winner: None,
                            pot: *pot,
                            payments: deal.stakes.clone(),
                            terms: terms.clone(),
                        });
                        state.thrown_in.insert(deal.number);
                        // The same dealer deals again: the deal was not played.
                        state.deals.next_dealer = deal.dealer;
                        state.deals.scored(terms, scores);
                    }
                    Event::CardPlayed { seat, card, .. } => deal.play.play(*seat, *card),
                    Event::TrickWon { winner, card, reason, .. } => deal.play.won(*winner, *card, *reason),
                    Event::DealScored { winner, pot, payments, terms, scores, .. } => {
                        for p in payments {
                            state.ledger.pay(p);
                        }
                        let mut all = deal.stakes.clone();
                        all.extend(payments.iter().cloned());
                        deal.settlement =
                            Some(Settlement { winner: Some(*winner), pot: *pot, payments: all, terms: terms.clone() });
                        state.deals_played += 1;
                        state.deals.scored(terms, scores);
                    }
                    Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        if deal.offer.is_some() {
            return vec![Command::AcceptOffer, Command::DeclineOffer];
        }
        let mut moves = Vec::new();
        if deal.play.to_play() == seat {
            moves.extend(
                playable(&deal.play.hands[seat], &deal.play.trick).into_iter().map(|card| Command::Play { card }),
            );
        }
        if deal.offers_open() && deal.choices[seat].is_none() {
            moves.extend([Command::OfferBetterCards, Command::KeepCards]);
        }
        moves
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        let mut moves =
            vec![Command::OfferBetterCards, Command::KeepCards, Command::AcceptOffer, Command::DeclineOffer];
        moves.extend(decks::standard52().into_iter().map(|card| Command::Play { card }));
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(state.players());
        let record = viewer == Viewer::Record;
        let deal = state.deals.deal.as_ref();
        let shown_in_full = deal.is_some_and(|d| record && !d.thrown_in);
        let mut play = deal.map(|d| d.play.view(record)).unwrap_or_default();
        if !shown_in_full {
            // The thrown-in hands are never shown, the record included.
            play.hands = None;
        }
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, state.players(), deal.map(|d| d.dealer)),
            options: state.options.clone(),
            deals_scheduled: state.deals_scheduled(),
            deals_played: state.deals_played,
            pot: state.pot(),
            balances: state.ledger.seats(state.players()),
            forehand: deal.map(Deal::forehand),
            redeal: deal.map(|d| d.redeal),
            offers_open: deal.map(|d| deals::Deal::is_live(d) && d.offers_open()),
            choices: deal.map(|d| d.choices.clone()),
            offer: deal.map(|d| d.offer.clone()),
            offers: deal.map(|d| d.offers.clone()),
            thrown_in: deal.map(|d| d.thrown_in),
            settlement: deal.map(|d| d.settlement.clone()),
            deck: deal.filter(|_| shown_in_full).map(|d| d.deck.clone()),
            play,
            hand: deal.zip(me).map(|(d, s)| d.play.hands[s].clone()),
        }
    }

    /// The record shows a seated player their own hand, also when the hands were thrown in and
    /// nobody else ever sees them.
    fn record_view(&self, state: &State, seat: Option<Seat>) -> Value {
        let mut table = self.view(state, Viewer::Record);
        table.hand = state.deals.deal.as_ref().zip(seat).map(|(d, s)| d.play.hands[s].clone());
        serde_json::to_value(table).expect("views serialize")
    }

    // A seat's record shows what it saw at the table: its own cards, as its view of the events.
    fn record_event(&self, state: &State, event: &Event, seat: Option<Seat>) -> Value {
        self.redact(state, event, seat.map_or(Viewer::Record, Viewer::Seat), true)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if let Event::DealStarted { deal_number, hands, .. } = event {
            let current = state.deals.deal.as_ref().filter(|d| d.number == *deal_number);
            let thrown_in = state.thrown_in.contains(deal_number) || current.is_some_and(|d| d.thrown_in);
            let live = !deal_over && current.is_some_and(deals::Deal::is_live);
            if thrown_in || (viewer != Viewer::Record && live) {
                // A seat keeps seeing its own hand; nobody ever sees the others' thrown-in cards.
                deals::hide_hands(&mut full, hands, viewer);
            }
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.deal.as_ref().filter(|d| !d.play.is_over()) else { return Vec::new() };
        let mut secrets = deal.play.hand_secrets(|_, _| false);
        secrets.extend(deal.undealt().iter().map(|&c| (c, Vec::new())));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        state.ledger.check()?;
        let players = state.players();
        if let Some(outcome) = &state.deals.outcome {
            let balances = state.ledger.seats(players);
            if state.deals_played != state.deals_scheduled() || state.pot() != 0 {
                return Err(format!(
                    "the match ended after {} deals with {} in the pot",
                    state.deals_played,
                    state.pot()
                ));
            }
            if outcome.winners != match_winners(&balances) {
                return Err(format!("winners {:?} with balances {balances:?}", outcome.winners));
            }
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        deal.play.check(&pack, deal.undealt(), |_| HAND, &trick::no_trumps)?;
        let staked: i64 = deal.stakes.iter().map(|p| p.amount).sum();
        let pot = state.pot();
        match &deal.settlement {
            Some(s) if s.winner.is_some() && pot != 0 => return Err(format!("{pot} left in a pot that was won")),
            None if pot != deal.opening_pot + staked => {
                return Err(format!("the pot holds {pot}, not {} plus the stakes {staked}", deal.opening_pot))
            }
            _ => {}
        }
        if deal.settlement.is_some() && state.deals.scores != state.ledger.seats(players) {
            return Err(format!(
                "scores {:?} differ from balances {:?}",
                state.deals.scores,
                state.ledger.seats(players)
            ));
        }
        let started = deal.play.number() > 1 || !deal.play.trick.is_empty() || deal.choices.iter().any(Option::is_some);
        if (deal.redeal && !deal.stakes.is_empty()) || (!deal.redeal && started && deal.stakes.is_empty()) {
            return Err("a redeal takes no stakes, and every other deal takes them before play".into());
        }
        if let Some(offer) = &deal.offer {
            if deal.choices[offer.by] != Some(Choice::Offered) || !deal.offers_open() || offer.declined_by.is_some() {
                return Err(format!("an open offer by seat {} that cannot be", offer.by));
            }
        }
        let offered = deal.choices.iter().filter(|c| **c == Some(Choice::Offered)).count();
        if offered != deal.offers.len() + usize::from(deal.offer.is_some()) {
            return Err(format!("{offered} offers made but {} on the books", deal.offers.len()));
        }
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic_choice(state.deals.acting(seat)?, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// Chips less the others' mean. A pot kept for a redeal counts for nobody, as it is as
    /// likely to go to anyone.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let balances = state.ledger.seats(state.players());
        bots::lead_over_mean(balances.len(), |s| balances[s] as f64, seat)
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let moves = self.legal_moves(state, seat);
        let choice = bot_choice(deal, seat, &moves, &mut Rng::new(seed));
        Some(if moves.contains(&choice) { choice } else { moves.first()?.clone() })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::cards::is_permutation;
    use crate::cards::{card, cards};
    use crate::game::Status;
    use crate::game::{cards_in, erase};
    use crate::simulate::{random_matches, Driver, Plan};
    use serde_json::json;

    type M = Driver<Femkort>;

    /// A deck that deals `hands` (by seat) one at a time from dealer 0's left, the rest of the
    /// pack after them.
    fn deck(hands: &[&str]) -> Vec<Card> {
        let n = hands.len();
        let hs: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
        let mut deck: Vec<Card> = (0..HAND * n).map(|i| hs[(1 + i % n) % n][i / n]).collect();
        let rest: Vec<Card> = decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect();
        deck.extend(rest);
        assert!(is_permutation(&deck, &decks::standard52()));
        deck
    }

    fn play(m: &mut M, seat: Seat, code: &str) -> Vec<Event> {
        m.ok(seat, Command::Play { card: card(code) })
    }

    fn deal(m: &M) -> &Deal {
        m.state.deals.deal.as_ref().unwrap()
    }

    /// Plays the deal in progress to its end, the seat to play always playing its first legal
    /// card and nobody offering better cards.
    fn play_out(m: &mut M) -> Vec<Event> {
        let mut events = Vec::new();
        while m.state.deals.live().is_some() {
            let seat = deal(m).play.to_play();
            let card = playable(&deal(m).play.hands[seat], &deal(m).play.trick)[0];
            events.extend(m.ok(seat, Command::Play { card }));
        }
        events
    }

    /// Three players, dealer 0: forehand (seat 1) holds the eight of clubs, seat 2 the five and
    /// the knave, seat 0 no club at all.
    fn clubs_example() -> M {
        let mut m = M::new(3, Options::default());
        m.deal(deck(&["6S 7S 8S 9S TS", "8C 2D 3D 4D 5D", "5C JC 2H 3H 4H"]));
        m
    }

    #[test]
    fn the_texts_example_the_knave_must_go_on_the_eight() {
        let mut m = clubs_example();
        assert_eq!(m.to_act(), vec![0, 1, 2], "anyone may offer better cards, forehand plays");
        play(&mut m, 1, "8C");
        let v = m.refused(2, Command::Play { card: card("5C") });
        assert_eq!(v.rule, rule::OVERTAKE);
        assert!(m.legal(2).contains(&Command::Play { card: card("JC") }));
        assert_eq!(m.refused(2, Command::Play { card: card("2H") }).rule, rule::FOLLOW_SUIT);
        play(&mut m, 2, "JC");
        // Seat 0 has no club and may throw any card.
        let cards0: Vec<Command> = m.legal(0).into_iter().filter(|c| matches!(c, Command::Play { .. })).collect();
        assert_eq!(cards0.len(), 5);
        let events = play(&mut m, 0, "6S");
        assert!(matches!(events.last(), Some(Event::TrickWon { winner: 2, .. })));
        assert_eq!(deal(&m).play.to_play(), 2, "the winner leads");
    }

    #[test]
    fn two_higher_cards_are_a_free_choice_and_so_are_lower_ones_when_none_is_higher() {
        let trick = Trick { leader: 0, plays: vec![(0, card("8C"))] };
        assert_eq!(playable(&cards("5C JC KC 2H"), &trick), cards("JC KC"));
        assert_eq!(playable(&cards("5C 3C 2H"), &trick), cards("3C 5C"));
        assert_eq!(playable(&cards("2H 3S"), &trick), cards("2H 3S"));
        assert_eq!(playable(&cards("2H 3S"), &Trick::led_by(0)), cards("2H 3S"));
    }

    #[test]
    fn the_card_to_overtake_is_the_best_of_the_suit_led_so_far() {
        // The eight was led and the queen overtook it; a discard of another suit counts for nothing.
        let trick = Trick { leader: 0, plays: vec![(0, card("8C")), (1, card("QC")), (2, card("AH"))] };
        assert_eq!(to_overtake(&trick), Some(card("QC")));
        assert_eq!(playable(&cards("JC KC"), &trick), cards("KC"));
        assert_eq!(playable(&cards("JC 5C"), &trick), cards("5C JC"));
    }

    #[test]
    fn only_the_last_trick_takes_the_pot_and_the_money_is_broken_down() {
        let mut m = M::new(3, Options { stake: 2, ..Options::default() });
        m.deal(deck(&["6S 7S 8S 9S TS", "8C 2D 3D 4D 5D", "5C JC 2H 3H 4H"]));
        assert_eq!(m.state.pot(), 6, "everyone stakes 2");
        let events = play_out(&mut m);
        let won: Vec<Seat> = events
            .iter()
            .filter_map(|e| if let Event::TrickWon { winner, .. } = e { Some(*winner) } else { None })
            .collect();
        let last = *won.last().unwrap();
        let Some(Event::DealScored { winner, pot, payments, terms, points, scores, .. }) =
            events.iter().find(|e| matches!(e, Event::DealScored { .. }))
        else {
            panic!("no score")
        };
        assert_eq!((*winner, *pot), (last, 6));
        assert_eq!(payments.len(), 1);
        assert_eq!(
            (payments[0].from, payments[0].to, payments[0].rule.as_str()),
            (Account::Pot, Account::Seat(last), rule::LAST_TRICK)
        );
        assert_eq!(terms.iter().filter(|t| t.rule == rule::ANTE).count(), 3);
        assert_eq!(points.iter().sum::<i64>(), 0);
        assert_eq!(points[last], 4);
        assert_eq!(*scores, m.state.ledger.seats(3));
        // Tricks won before the last one earn nothing.
        for (s, &p) in points.iter().enumerate().filter(|&(s, _)| s != last) {
            assert_eq!(p, -2, "seat {s} won {} tricks", won.iter().filter(|&&w| w == s).count());
        }
        let record = serde_json::to_value(m.rules.view(&m.state, Viewer::Record)).unwrap();
        assert_eq!(record["deck"].as_array().unwrap().len(), 52, "a played deal's record shows the deck");
        assert_eq!(m.state.deals.next_dealer, 1, "the deal passes to the left");
    }

    #[test]
    fn better_cards_out_of_turn_all_agree_and_the_hands_are_thrown_in_unseen() {
        let mut m = clubs_example();
        play(&mut m, 1, "8C");
        // Seat 0 is not to play, but may offer.
        m.ok(0, Command::OfferBetterCards);
        assert_eq!(m.to_act(), vec![1, 2], "the others answer");
        assert_eq!(m.refused(2, Command::Play { card: card("JC") }).rule, rule::OFFER_PAUSES);
        assert_eq!(m.refused(1, Command::KeepCards).rule, rule::OFFER_PAUSES);
        m.ok(2, Command::AcceptOffer);
        assert_eq!(m.to_act(), vec![1]);
        let events = m.ok(1, Command::AcceptOffer);
        assert!(matches!(events.last(), Some(Event::DealThrownIn { pot: 3, offered_by: 0, .. })));
        assert!(matches!(m.rules.status(&m.state), Status::NeedsDeck { .. }));
        assert_eq!(m.state.pot(), 3, "the pot stays");
        // The record never shows the thrown-in cards, only the one played.
        let record = serde_json::to_value(m.rules.view(&m.state, Viewer::Record)).unwrap();
        let shown = cards_in(&record);
        assert!(shown.contains(&card("8C")));
        for c in cards("6S 7S 8S 9S TS 2D 3D 4D 5D 5C JC 2H 3H 4H") {
            assert!(!shown.contains(&c), "{c} is shown in the record: {record}");
        }
        assert!(record["deck"].is_null() && record["hands"].is_null());
        let started = m.log[0].clone();
        for viewer in [Viewer::Record, Viewer::Spectator] {
            let event = m.rules.redact(&m.state, &started, viewer, true);
            assert_eq!(cards_in(&event), Vec::<Card>::new(), "{viewer:?}: {event}");
        }
        let own = m.rules.redact(&m.state, &started, Viewer::Seat(2), true);
        assert_eq!(cards_in(&own), cards("5C JC 2H 3H 4H"), "a seat still sees its own hand");
        // So does its record of the deal (issue 36: it showed the seat null), and nobody else's.
        assert_eq!(m.rules.record_event(&m.state, &started, Some(2)), own);
        let record = m.rules.record_view(&m.state, Some(1));
        assert_eq!(record["hand"], json!(cards("2D 3D 4D 5D")));
        assert_eq!(sorted(cards_in(&record)), sorted(cards("8C 2D 3D 4D 5D")), "{record}");
        assert_eq!(
            m.rules.record_view(&m.state, None),
            serde_json::to_value(m.rules.view(&m.state, Viewer::Record)).unwrap()
        );
        // The same dealer redeals, nobody stakes again, and the deal does not count.
        let events = m.deal(deck(&["6S 7S 8S 9S TS", "8C 2D 3D 4D 5D", "5C JC 2H 3H 4H"]));
        assert_eq!(events.len(), 1, "no stakes on a redeal: {events:?}");
        assert!(matches!(events[0], Event::DealStarted { deal_number: 2, dealer: 0, redeal: true, pot: 3, .. }));
        assert_eq!(m.state.deals_played, 0);
        // The old deal's hands stay hidden after the next deal begins.
        let event = m.rules.redact(&m.state, &started, Viewer::Record, true);
        assert_eq!(cards_in(&event), Vec::<Card>::new());
        let events = play_out(&mut m);
        assert!(events.iter().any(|e| matches!(e, Event::DealScored { pot: 3, .. })));
        assert_eq!(m.state.pot(), 0);
    }

    #[test]
    fn one_refusal_is_enough_and_play_goes_on() {
        let mut m = clubs_example();
        m.ok(1, Command::OfferBetterCards);
        m.ok(0, Command::DeclineOffer);
        assert_eq!(deal(&m).offers.len(), 1);
        assert_eq!(deal(&m).offers[0].declined_by, Some(0));
        assert_eq!(m.refused(1, Command::OfferBetterCards).rule, rule::OFFER_ONCE);
        assert_eq!(m.refused(1, Command::AcceptOffer).rule, rule::ANSWER);
        m.ok(0, Command::KeepCards);
        assert_eq!(m.to_act(), vec![1, 2], "forehand plays, seat 2 may still offer");
        play(&mut m, 1, "8C");
        assert_eq!(m.to_act(), vec![2]);
        m.ok(2, Command::KeepCards);
        assert_eq!(m.refused(2, Command::OfferBetterCards).rule, rule::OFFER_ONCE);
        play(&mut m, 2, "JC");
        assert_eq!(m.to_act(), vec![0], "everyone has decided: only the player to play is asked");
    }

    #[test]
    fn nobody_offers_once_the_last_trick_begins() {
        let mut m = clubs_example();
        for _ in 0..4 {
            for _ in 0..3 {
                let seat = deal(&m).play.to_play();
                let card = playable(&deal(&m).play.hands[seat], &deal(&m).play.trick)[0];
                m.ok(seat, Command::Play { card });
            }
        }
        let seat = deal(&m).play.to_play();
        assert_eq!(m.to_act(), vec![seat], "only the player to lead is asked");
        assert_eq!(m.refused(seat, Command::OfferBetterCards).rule, rule::OFFER_CLOSED);
    }

    #[test]
    fn three_then_two_deals_in_two_rounds() {
        let table = Seating::new(3);
        let deck = decks::standard52();
        let hands = deal_hands(&table, 0, &deck, true);
        assert_eq!(hands[1], [&deck[0..3], &deck[9..11]].concat());
        assert_eq!(hands[2], [&deck[3..6], &deck[11..13]].concat());
        assert_eq!(hands[0], [&deck[6..9], &deck[13..15]].concat());
        assert_eq!(deal_hands(&table, 0, &deck, false)[1], vec![deck[0], deck[3], deck[6], deck[9], deck[12]]);
    }

    #[test]
    fn the_match_ends_after_every_seat_dealt_its_rounds() {
        let mut m = M::new(2, Options { rounds: 2, ..Options::default() });
        for n in 0..4 {
            assert!(!m.rules.status(&m.state).is_finished());
            m.deal(decks::standard52());
            assert_eq!(deal(&m).dealer, n % 2);
            play_out(&mut m);
        }
        let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!("not over") };
        assert_eq!(outcome.winners, match_winners(&m.state.ledger.seats(2)));
        assert_eq!(m.state.pot(), 0);
        assert_eq!(m.state.ledger.seats(2).iter().sum::<i64>(), 0);
    }

    #[test]
    fn setup_refuses_impossible_options() {
        assert!(Femkort.setup(3, Options { stake: 0, ..Options::default() }).is_err());
        assert!(Femkort.setup(3, Options { rounds: 0, ..Options::default() }).is_err());
    }

    /// Random matches of this game alone meet every kind of offer: thrown-in deals, refusals and
    /// redeals played for a kept pot.
    #[test]
    fn random_matches_meet_every_kind_of_offer() {
        let mut seen = BTreeSet::new();
        let plan = Plan { all: 1, leaks: 2, invariants: 2, log_only: 0 };
        random_matches(&*erase(Femkort), plan, |_, _, report| {
            for e in &report.log {
                match e["type"].as_str() {
                    Some("deal_thrown_in") => seen.insert("thrown in"),
                    Some("offer_declined") => seen.insert("declined"),
                    Some("deal_started") if e["redeal"] == json!(true) => seen.insert("redeal"),
                    _ => false,
                };
            }
        })
        .unwrap_or_else(|e| panic!("{e}"));
        for kind in ["thrown in", "declined", "redeal"] {
            assert!(seen.contains(kind), "{kind} never happened");
        }
    }
}
