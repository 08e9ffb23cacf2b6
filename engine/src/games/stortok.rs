//! Stortok: a Swedish cousin of durak in which a loser is found, not a winner. Thirty-six cards,
//! five in each hand; the talon's top card is turned up beside it to start the pile, and its suit
//! is the high trump, the other suit of its colour the low trump. Each player must beat the card
//! just before: a higher card of its suit, or (only when void in that suit) a trump that ranks
//! above it. After playing one draws back up to five. When everyone still in has played to the
//! trick it is put aside for good and the last to play leads; who cannot beat takes that one card
//! into the hand, draws nothing, the rest is put aside and the next player leads. A player with no
//! cards left once the talon is gone is out; the last one holding cards is the Stortok.
//!
//! The talon, the pile (the trick under way, "sakhögen") and the cards put aside are a
//! [`Piles`]; a picked-up card stays public while it is held, which [`Knowledge`] keeps. A
//! pick-up is automatic, since it happens exactly when no card beats: a seat asked to act always
//! has a choice of cards.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bots;
use crate::cards::{decks, sort_hand, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::knowledge::Knowledge;
use crate::pile::Piles;
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{Seat, Table as Seating};

#[derive(Default)]
pub struct Stortok;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 5;
/// The hand a player draws back up to.
pub const HAND: usize = 5;
/// Plays in a row that put no card aside and put nobody out before the deal is stopped
/// (house rule: a ring of leads each picked up could go on for ever).
pub const STALL_PLAYS: u32 = 300;
/// The most deals a match may be agreed to last.
pub const MAX_DEALS: u32 = 100;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const HIGHER: &str = "stortok.play.higher";
    pub const FOLLOW: &str = "stortok.play.trump-when-void";
    pub const TRUMP: &str = "stortok.play.trump-order";
    pub const PICK_UP: &str = "stortok.pick-up.take-card";
    pub const LOSER: &str = "stortok.end.stortok";
    pub const STALL: &str = "stortok.house.endless";
    pub const DEALS: &str = "stortok.variant.deals";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Deals in the match: each Stortok takes a loss, and the fewest losses win.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub deals: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { deals: 1 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal`, `playing`, `deal-over` (the next deal of a longer
/// match is due) and `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = StortokPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Playing,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    forehand: Seat,
    deck: Vec<Card>,
    turned: Card,
    high: Suit,
    low: Suit,
    hands: Vec<Vec<Card>>,
    /// The picked-up cards, public while held.
    knowledge: Knowledge,
    /// The talon, the pile (the trick under way, the turned card under the first) and the cards
    /// put aside for good.
    piles: Piles,
    /// The seats that have played to the trick under way, in order.
    trick: Vec<Seat>,
    to_play: Seat,
    /// The seat whose play is being followed up (its draw, its going out).
    settling: Option<Seat>,
    /// Plays since a card was last put aside or a player went out.
    idle: u32,
    /// Seats rid of their cards, in the order they went out.
    out: Vec<Seat>,
    /// The Stortok (several only when a stalled deal left a tie for the most cards).
    losers: Vec<Seat>,
    scored: bool,
}

impl Deal {
    fn is_in(&self, seat: Seat) -> bool {
        !self.out.contains(&seat)
    }

    /// The next seat after `seat` still in.
    fn next_in(&self, seat: Seat) -> Seat {
        let n = self.hands.len();
        (1..n).map(|i| (seat + i) % n).find(|&s| self.is_in(s)).unwrap_or(seat)
    }

    fn over(&self) -> bool {
        !self.losers.is_empty()
    }

    /// Every seat still in has played to the trick under way.
    fn trick_complete(&self) -> bool {
        !self.trick.is_empty() && (0..self.hands.len()).all(|s| !self.is_in(s) || self.trick.contains(&s))
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.over() {
            Vec::new()
        } else {
            vec![self.to_play]
        }
    }

    fn is_live(&self) -> bool {
        !self.over()
    }

    fn phase(&self) -> Phase {
        if self.over() {
            Phase::DealOver
        } else {
            Phase::Playing
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    players: usize,
    deals: Deals<Deal>,
}

/// 36 cards, six to ace.
pub fn pack() -> Vec<Card> {
    decks::from_rank(Rank::SIX)
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Lay a card on the pile: beating the card just before, or any card to lead a trick.
    Play { card: Card },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything the deal starts from.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// By seat, the hand.
        hands: Vec<Vec<Card>>,
        /// The talon's top card, turned up to start the pile.
        turned: Card,
        high_trump: Suit,
        low_trump: Suit,
        options: Options,
    },
    Played {
        seat: Seat,
        card: Card,
    },
    /// Cards drawn from the talon after a play: seen only by the drawer while the deal lasts.
    Drew {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// Every seat still in has played: the trick is put aside for good.
    TrickPutAside {
        cards: Vec<Card>,
        /// Who leads the next trick: the last to play, or if he is out the next seat still in.
        leader: Seat,
    },
    /// `seat` could not beat `card`, the card just before, and took it into the hand; the rest of
    /// the trick is put aside and `leader` leads.
    PickedUp {
        seat: Seat,
        card: Card,
        put_aside: Vec<Card>,
        leader: Seat,
    },
    WentOut {
        seat: Seat,
        place: usize,
    },
    /// Too many plays put nothing aside (house rule): those holding the most cards lose.
    Stalled {
        hand_sizes: Vec<usize>,
        losers: Vec<Seat>,
    },
    DealScored {
        deal_number: u32,
        /// The Stortok (several only after a stalled deal).
        losers: Vec<Seat>,
        /// The seats that went out, in order.
        out: Vec<Seat>,
        terms: Vec<ScoreTerm>,
        scores: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        scores: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Beating

fn suit(card: Card) -> Suit {
    card.suit().expect("a standard card")
}

fn rank(card: Card) -> Rank {
    card.rank().expect("a standard card")
}

/// The other suit of the same colour.
pub fn low_trump_of(high: Suit) -> Suit {
    match high {
        Suit::Diamonds => Suit::Hearts,
        Suit::Hearts => Suit::Diamonds,
        Suit::Clubs => Suit::Spades,
        Suit::Spades => Suit::Clubs,
    }
}

/// 2 for a high trump, 1 for a low trump, 0 for the other suits.
fn class(card: Card, high: Suit, low: Suit) -> u8 {
    match suit(card) {
        s if s == high => 2,
        s if s == low => 1,
        _ => 0,
    }
}

/// Whether `card` from `hand` beats `before`; if not, the rule it breaks.
fn beats(card: Card, before: Card, hand: &[Card], high: Suit, low: Suit) -> Result<(), &'static str> {
    if suit(card) == suit(before) {
        return if rank(card) > rank(before) { Ok(()) } else { Err(rule::HIGHER) };
    }
    let (mine, theirs) = (class(card, high, low), class(before, high, low));
    // The text's "ett högre kort i lågtrumfen, eller ett högtrumfkort": over a low trump a high
    // trump is a choice, not a last resort (shared/rules-notes.md).
    if theirs == 1 && mine == 2 {
        return Ok(());
    }
    if hand.iter().any(|&c| suit(c) == suit(before)) {
        return Err(rule::FOLLOW);
    }
    if mine > theirs {
        Ok(())
    } else {
        Err(rule::TRUMP)
    }
}

/// The cards `seat` may play now: any to lead, else those that beat the card just before.
fn playable(deal: &Deal, seat: Seat) -> Vec<Card> {
    let hand = &deal.hands[seat];
    match deal.piles.top() {
        None => hand.clone(),
        Some(before) => hand.iter().copied().filter(|&c| beats(c, before, hand, deal.high, deal.low).is_ok()).collect(),
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn deal_started(state: &State, deck: Vec<Card>) -> Event {
    let n = state.players;
    let seating = Seating::new(n);
    let dealer = state.deals.next_dealer;
    let mut hands = deals::deal_singly(&seating, dealer, &deck[..HAND * n]);
    hands.iter_mut().for_each(|h| sort_hand(h));
    let turned = deck[HAND * n];
    Event::DealStarted {
        deal_number: state.deals.number + 1,
        dealer,
        forehand: seating.forehand(dealer),
        hands,
        turned,
        high_trump: suit(turned),
        low_trump: low_trump_of(suit(turned)),
        deck,
        options: state.options.clone(),
    }
}

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let Command::Play { card } = *command;
    let hand = &deal.hands[seat];
    if !hand.contains(&card) {
        return Err(RuleViolation::card_not_held(card));
    }
    if let Some(before) = deal.piles.top() {
        if let Err(broken) = beats(card, before, hand, deal.high, deal.low) {
            let (h, l) = (deal.high, deal.low);
            let (sv, en) = match broken {
                rule::HIGHER => (
                    format!("{card} slår inte {before}: ett högre kort i samma färg behövs."),
                    format!("{card} does not beat {before}: a higher card of its suit is needed."),
                ),
                rule::FOLLOW => (
                    format!("Du har {}: {before} ska slås med ett högre kort i den färgen.", suit(before).name_sv()),
                    format!("You hold {}: {before} must be beaten with a higher card of that suit.", suit(before).name_en()),
                ),
                _ => (
                    format!(
                        "{card} slår inte {before}: renons slår man med trumf, {} (låg) eller {} (hög), och över lågtrumf bara med högtrumf.",
                        l.name_sv(),
                        h.name_sv()
                    ),
                    format!(
                        "{card} does not beat {before}: void, one beats with a trump, {} (low) or {} (high), and over a low trump only with a high trump.",
                        l.name_en(),
                        h.name_en()
                    ),
                ),
            };
            return Err(RuleViolation::new(broken, sv, en));
        }
    }
    Ok(run(state, vec![Event::Played { seat, card }]))
}

/// The events given, then every automatic step that follows them.
fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

/// The next automatic step: after a play the draw back up to five, going out, the trick put
/// aside once everyone still in has played; a pick-up when the seat to play cannot beat; the
/// stop of a stalled deal; at the deal's end its score and the match's end.
fn next_step(state: &State) -> Option<Event> {
    let deal = state.deals.deal.as_ref().filter(|_| state.deals.outcome.is_none())?;
    if deal.over() {
        return match deal.scored {
            false => Some(score(state, deal)),
            true if state.deals.number >= state.options.deals => Some(match_end(state)),
            true => None,
        };
    }
    if let Some(seat) = deal.settling {
        let hand = &deal.hands[seat];
        if hand.len() < HAND && deal.piles.can_draw() {
            let want = (HAND - hand.len()).min(deal.piles.talon.len());
            return Some(Event::Drew { seat, cards: deal.piles.talon[..want].to_vec() });
        }
        if hand.is_empty() && deal.is_in(seat) {
            return Some(Event::WentOut { seat, place: deal.out.len() + 1 });
        }
        if deal.trick_complete() {
            let leader = if deal.is_in(seat) { seat } else { deal.next_in(seat) };
            return Some(Event::TrickPutAside { cards: deal.piles.pile.clone(), leader });
        }
    }
    if deal.idle >= STALL_PLAYS {
        let sizes: Vec<usize> = deal.hands.iter().map(Vec::len).collect();
        let most = sizes.iter().copied().max().unwrap_or(0);
        let losers = (0..sizes.len()).filter(|&s| sizes[s] == most).collect();
        return Some(Event::Stalled { hand_sizes: sizes, losers });
    }
    let seat = deal.to_play;
    let before = deal.piles.top()?;
    if !playable(deal, seat).is_empty() {
        return None;
    }
    let put_aside = deal.piles.pile[..deal.piles.pile.len() - 1].to_vec();
    Some(Event::PickedUp { seat, card: before, put_aside, leader: deal.next_in(seat) })
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted { deal_number, dealer, forehand, deck, hands, turned, high_trump, low_trump, options } => {
            state.options = options.clone();
            state.players = hands.len();
            let n = hands.len();
            state.deals.next_dealer = (dealer + 1) % n;
            let deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                forehand: *forehand,
                deck: deck.clone(),
                turned: *turned,
                high: *high_trump,
                low: *low_trump,
                hands: hands.clone(),
                knowledge: Knowledge::of_hands(n),
                piles: Piles::after_dealing(deck, HAND * n, true),
                trick: Vec::new(),
                to_play: *forehand,
                settling: None,
                idle: 0,
                out: Vec::new(),
                losers: Vec::new(),
                scored: false,
            };
            let scores = if state.deals.scores.len() == n { state.deals.scores.clone() } else { vec![0; n] };
            state.deals.started(*deal_number, &scores, deal);
        }
        Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
        Event::DealScored { terms, scores, .. } => {
            state.deals.scored(terms, scores);
            if let Some(deal) = state.deals.deal.as_mut() {
                deal.scored = true;
            }
        }
        _ => {
            let Some(deal) = state.deals.deal.as_mut() else { return };
            match event {
                Event::Played { seat, card } => {
                    take_card(&mut deal.hands[*seat], *card);
                    deal.knowledge.left(*seat, *card);
                    deal.piles.lay(&[*card]);
                    deal.trick.push(*seat);
                    deal.settling = Some(*seat);
                    deal.idle += 1;
                    deal.to_play = deal.next_in(*seat);
                }
                Event::Drew { seat, cards } => {
                    for _ in cards {
                        deal.piles.draw();
                    }
                    deal.hands[*seat].extend_from_slice(cards);
                    sort_hand(&mut deal.hands[*seat]);
                }
                Event::TrickPutAside { leader, .. } => {
                    deal.piles.burn();
                    deal.trick.clear();
                    deal.settling = None;
                    deal.idle = 0;
                    deal.to_play = *leader;
                }
                Event::PickedUp { seat, card, put_aside, leader } => {
                    deal.piles.take_top();
                    deal.piles.burn();
                    deal.hands[*seat].push(*card);
                    sort_hand(&mut deal.hands[*seat]);
                    deal.knowledge.shown_to_all(*seat, &[*card]);
                    deal.trick.clear();
                    deal.settling = None;
                    if !put_aside.is_empty() {
                        deal.idle = 0;
                    }
                    deal.to_play = *leader;
                }
                Event::WentOut { seat, .. } => {
                    deal.out.push(*seat);
                    deal.idle = 0;
                    let left: Vec<Seat> = (0..deal.hands.len()).filter(|&s| deal.is_in(s)).collect();
                    if left.len() <= 1 {
                        deal.losers = left;
                    } else if deal.to_play == *seat {
                        deal.to_play = deal.next_in(*seat);
                    }
                }
                Event::Stalled { losers, .. } => deal.losers = losers.clone(),
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// A loss (one minus point) to the Stortok.
fn score(state: &State, deal: &Deal) -> Event {
    let terms: Vec<ScoreTerm> = deal
        .losers
        .iter()
        .map(|&s| {
            let (rule, sv, en) = if deal.out.len() + 1 == state.players {
                (
                    rule::LOSER,
                    format!("Plats {s} blev sist kvar med kort: stortok."),
                    format!("Seat {s} was left last holding cards: the Stortok."),
                )
            } else {
                (
                    rule::STALL,
                    format!("Given stannade; plats {s} hade flest kort: stortok."),
                    format!("The deal was stopped; seat {s} held the most cards: the Stortok."),
                )
            };
            ScoreTerm::new(s, -1, rule, sv, en)
        })
        .collect();
    let mut scores = state.deals.scores.clone();
    terms.iter().for_each(|t| scores[t.to] += t.points);
    Event::DealScored { deal_number: deal.number, losers: deal.losers.clone(), out: deal.out.clone(), terms, scores }
}

/// After the agreed deals, the fewest losses win: in a match of one deal, everyone but the
/// Stortok.
fn match_end(state: &State) -> Event {
    let scores = state.deals.scores.clone();
    let winners = crate::seat::match_winners(&scores);
    let who = crate::seat::seats_text(&winners);
    let losses = -scores.iter().copied().max().unwrap_or(0);
    let explanation = if state.options.deals == 1 {
        let losers = state.deals.deal.as_ref().map(|d| d.losers.clone()).unwrap_or_default();
        let l = crate::seat::seats_text(&losers);
        Text::new(
            format!("Plats {l} blev stortok; platserna {who} vann."),
            format!("Seat {l} became the Stortok; seats {who} won."),
        )
    } else {
        Text::new(
            format!("Efter {} givar vann platserna {who} med minst förluster, {losses}.", state.options.deals),
            format!("After {} deals seats {who} won with the fewest losses, {losses}.", state.options.deals),
        )
    };
    Event::MatchEnded { winners, scores, explanation }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, the trumps, the pile (the trick under way), the
/// cards put aside, the talon's size, the hands' sizes and public cards, who is out, and the
/// viewer's own hand. A deal's record shows every hand and the talon at every step.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = StortokTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number, dealer, scores (minus one a loss), who is to act, the outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    /// The deal's forehand: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seat whose turn it is: absent before the first deal and once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// The card turned up from the talon at the deal's start.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turned_card: Option<Card>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub high_trump: Option<Suit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub low_trump: Option<Suit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub talon_count: Option<usize>,
    /// The pile: the trick under way, bottom card first (the turned card under the first
    /// trick's plays), the card to beat last.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile: Option<Vec<Card>>,
    /// The seats that have played to the trick under way, in order (their cards are the pile's
    /// last ones).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trick_seats: Option<Vec<Seat>>,
    /// The cards put aside for good (tricks and the rest of a trick after a pick-up), in the
    /// order they went.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub set_aside: Option<Vec<Card>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// By seat, the picked-up cards still held: public while held.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub public_cards: Option<Vec<Vec<Card>>>,
    /// Seats rid of their cards, in the order they went out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub out: Option<Vec<Seat>>,
    /// The deal's Stortok, once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub stortok: Option<Vec<Seat>>,
    /// The pack as it was dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// Every hand: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// The talon, top card first: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub talon: Option<Vec<Card>>,
    /// The viewer's own hand: only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let me = viewer.seat_at(state.players);
    let deal = state.deals.deal.as_ref();
    let record = deal.filter(|_| viewer == Viewer::Record);
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        forehand: deal.map(|d| d.forehand),
        to_play: deal.filter(|d| !d.over()).map(|d| d.to_play),
        turned_card: deal.map(|d| d.turned),
        high_trump: deal.map(|d| d.high),
        low_trump: deal.map(|d| d.low),
        talon_count: deal.map(|d| d.piles.talon.len()),
        pile: deal.map(|d| d.piles.pile.clone()),
        trick_seats: deal.map(|d| d.trick.clone()),
        set_aside: deal.map(|d| d.piles.burnt.clone()),
        hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
        public_cards: deal.map(|d| d.knowledge.public_hands(me)),
        out: deal.map(|d| d.out.clone()),
        stortok: deal.filter(|d| d.over()).map(|d| d.losers.clone()),
        deck: record.filter(|d| d.over()).map(|d| d.deck.clone()),
        hands: record.map(|d| d.hands.clone()),
        talon: record.map(|d| d.piles.talon.clone()),
        hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// What a card costs to give up: trumps most (high above low), then rank.
fn cost(card: Card, deal: &Deal) -> (u8, u8) {
    (class(card, deal.high, deal.low), rank(card).value())
}

/// The rule-of-thumb move: beat as cheaply as possible (in the suit before a trump, a low trump
/// before a high one); lead the lowest card of a plain suit, keeping trumps.
fn basic_choice(deal: &Deal, seat: Seat) -> Option<Command> {
    let card = playable(deal, seat).into_iter().min_by_key(|&c| cost(c, deal))?;
    Some(Command::Play { card })
}

/// The deal as `seat` knows it: its own hand, the pile, the cards put aside and the picked-up
/// cards; the other hands' unseen cards and the talon dealt afresh from the cards it has not seen.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let mut pool: Vec<Card> = deal.piles.talon.clone();
    let others: Vec<Seat> = (0..state.players).filter(|&s| s != seat).collect();
    let mut sizes = Vec::new();
    for &s in &others {
        let mut rest = deal.hands[s].clone();
        deal.knowledge.public_in(s).iter().for_each(|&c| {
            take_card(&mut rest, c);
        });
        sizes.push(rest.len());
        pool.extend(rest);
    }
    sizes.push(deal.piles.talon.len());
    let mut dealt = bots::redeal_where(&pool, &sizes, |_, _| true, rng).into_iter();
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    for &s in &others {
        let mut hand = w.knowledge.public_in(s);
        hand.extend(dealt.next()?);
        sort_hand(&mut hand);
        w.hands[s] = hand;
    }
    w.piles.talon = dealt.next()?;
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Stortok {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "stortok";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/stortok.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![Options::default(), Options { deals: 3 }]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_DEALS).contains(&options.deals) {
            return Err(SetupError(format!("deals must be 1 to {MAX_DEALS}, not {}", options.deals)));
        }
        Ok(State { options, players, deals: Deals::new(players) })
    }

    crate::status_of_deals!(pack);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(run(state, vec![deal_started(state, deck)]))
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        playable(deal, seat).into_iter().map(|card| Command::Play { card }).collect()
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.live() else { return vec![Command::Play { card: pack()[0] }] };
        let mut moves: Vec<Command> = deal.hands[seat].iter().map(|&card| Command::Play { card }).collect();
        if let Some(&missing) = pack().iter().find(|c| !deal.hands[seat].contains(c)) {
            moves.push(Command::Play { card: missing });
        }
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        match event {
            Event::DealStarted { deal_number, hands, .. } if state.deals.in_play(*deal_number, viewer, deal_over) => {
                deals::hide_hands(&mut full, hands, viewer);
            }
            Event::Drew { seat, cards }
                if viewer != Viewer::Seat(*seat) && state.deals.in_play(state.deals.number, viewer, deal_over) =>
            {
                full["cards"] = json!(vec![Value::Null; cards.len()]);
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let mut secrets = deal.knowledge.hand_secrets(&deal.hands);
        secrets.extend(deal.piles.talon_secrets());
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        deals::check_deck(&deal.deck, &pack())?;
        deal.piles.check(&deal.hands.concat(), &pack())?;
        deal.knowledge.check(&deal.hands.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
        let turned_under = deal.piles.pile.len().checked_sub(deal.trick.len());
        crate::ensure!(matches!(turned_under, Some(0 | 1)), "pile {:?}, plays by {:?}", deal.piles.pile, deal.trick);
        for &s in &deal.out {
            crate::ensure!(deal.hands[s].is_empty(), "seat {s} is out holding {:?}", deal.hands[s]);
        }
        crate::ensure!(
            deal.losers.iter().all(|s| !deal.out.contains(s)),
            "a loser {:?} went out {:?}",
            deal.losers,
            deal.out
        );
        if !deal.over() {
            crate::ensure!(deal.is_in(deal.to_play), "seat {} to play is out", deal.to_play);
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

    // The cheapest beat is hard to better: the search must show a better card beyond doubt.
    fn strong_anchor(&self, state: &State, seat: Seat) -> Option<Command> {
        basic_choice(state.deals.acting(seat)?, seat)
    }

    /// Out of the deal (safe), or the cards still to shed against the others' mean; the match's
    /// losses weigh more than any deal.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let losses = |s: Seat| state.deals.scores.get(s).copied().unwrap_or(0) as f64 * 100.0;
        let Some(deal) = &state.deals.deal else { return 0.0 };
        let left = |s: Seat| {
            if deal.scored {
                0.0
            } else if deal.losers.contains(&s) {
                -50.0
            } else if !deal.is_in(s) {
                0.0
            } else {
                -(deal.hands[s].len() as f64)
            }
        };
        bots::lead_over_mean(state.players, |s| losses(s) + left(s), seat)
    }
}

#[cfg(test)]
mod tests;
