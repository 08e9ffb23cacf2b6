//! Gris (Pig, "thumbs up"): four to eight players collect four of a rank. The holder of the pig,
//! the six of clubs, passes it openly to his left when he chooses, and the receiver gives him one
//! card of his choice back face down (known to the two of them, [`Knowledge`]). A player holding a
//! quartet (the four sixes with the pig count) may put his thumb up when he likes; then passing
//! stops and every other player must follow, and the last to follow loses and deals next.
//!
//! A reaction game (docs/engine.md §4.7): every command carries the service's receive time, the
//! first thumb opens a [`Window`] for all the others, and the window closes when all but one have
//! followed (that one is last, not waited for) or when its time runs out, when every seat still
//! waited for is late and takes a loss. `ToAct` lists every seat throughout the deal, so that
//! nothing shows who holds a quartet; a seat's legal moves may be empty.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots::{self, Level};
use crate::cards::{decks, is_permutation, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::knowledge::Knowledge;
use crate::random::Rng;
use crate::reaction::{bot_delay_ms, Clock, Reaction, Window};
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{seats_text, Seat, Table as Seating};

#[derive(Default)]
pub struct Gris;

pub const MIN_PLAYERS: usize = 4;
pub const MAX_PLAYERS: usize = 8;
/// The pig.
pub const PIG: Card = Card::new(Rank::SIX, Suit::Clubs);
/// The most deals a match may be agreed to last.
pub const MAX_DEALS: u32 = 100;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PASS: &str = "gris.pass.pig";
    pub const RETURN: &str = "gris.pass.return";
    pub const STOPPED: &str = "gris.pass.stop";
    pub const QUARTET: &str = "gris.thumb.quartet";
    pub const FOLLOW: &str = "gris.thumb.follow";
    pub const LAST: &str = "gris.thumb.last";
    pub const LATE: &str = "gris.house.late";
    pub const CAP: &str = "gris.house.pass-cap";
    pub const DEALS: &str = "gris.variant.deals";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = GrisOptions))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Deals in the match: each loser takes a loss, and the fewest losses win.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub deals: u32,
    /// How long the others have to follow the first thumb, in milliseconds.
    #[cfg_attr(feature = "openapi", schema(minimum = 1000, maximum = 60000))]
    pub window_ms: u64,
    /// Passes of the pig after which a deal nobody has thumbed in ends without a loser.
    #[cfg_attr(feature = "openapi", schema(minimum = 10, maximum = 10000))]
    pub pass_cap: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { deals: 1, window_ms: 4_000, pass_cap: 100 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal`, `passing` (the pig goes round), `thumbs-up` (a thumb is
/// up and the others follow), `deal-over` and `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = GrisPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Passing,
    ThumbsUp,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// How a deal ended.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = GrisEnding))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// All but one followed the thumb: that one was last.
    Last,
    /// The window's time ran out: every seat still waited for was late.
    Late,
    /// The pig was passed as often as the cap allows without a thumb: nobody lost.
    Stalled,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    hands: Vec<Vec<Card>>,
    /// The returned cards, known to giver and receiver; the pig, known to all.
    knowledge: Knowledge,
    holder: Seat,
    /// The receiver of the pig who still owes the sender a card.
    owes: Option<Seat>,
    passes: u32,
    /// By seat, when its quartet was completed (the deal's clock for one dealt).
    since: Vec<Option<u64>>,
    /// The deal's first recorded time.
    first_time: Option<u64>,
    first_thumb: Option<Seat>,
    window: Option<Window>,
    ending: Option<Ending>,
    losers: Vec<Seat>,
    scored: bool,
}

impl Deal {
    fn over(&self) -> bool {
        self.ending.is_some()
    }

    fn has_quartet(&self, seat: Seat) -> bool {
        quartet(&self.hands[seat]).is_some()
    }

    fn mark_quartets(&mut self, now: u64) {
        for s in 0..self.hands.len() {
            self.since[s] = match (self.has_quartet(s), self.since[s]) {
                (true, Some(t)) => Some(t),
                (true, None) => Some(now),
                (false, _) => None,
            };
        }
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    /// Every seat, throughout the deal: nothing shows who may thumb.
    fn to_act(&self) -> Vec<Seat> {
        if self.over() {
            Vec::new()
        } else {
            (0..self.hands.len()).collect()
        }
    }

    fn is_live(&self) -> bool {
        !self.over()
    }

    fn phase(&self) -> Phase {
        match (self.over(), self.first_thumb) {
            (true, _) => Phase::DealOver,
            (false, None) => Phase::Passing,
            (false, Some(_)) => Phase::ThumbsUp,
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    players: usize,
    deals: Deals<Deal>,
    clock: Clock,
}

/// The pack for `players`: without the twos and threes at seven or eight, the fours too at five
/// or six, and the fives too at four.
pub fn pack(players: usize) -> Vec<Card> {
    let low = match players {
        7.. => 4,
        5 | 6 => 5,
        _ => 6,
    };
    decks::from_rank(Rank::new(low).expect("a rank"))
}

/// The rank `hand` holds four of, if any.
pub fn quartet(hand: &[Card]) -> Option<Rank> {
    let mut counts = [0u8; 15];
    hand.iter().filter_map(|c| c.rank()).for_each(|r| counts[r.value() as usize] += 1);
    (2..15u8).find(|&v| counts[v as usize] >= 4).and_then(Rank::new)
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = GrisCommand))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Pass the pig openly to the player on the left (its holder, owing no card).
    Pass,
    /// Give the player who passed the pig one card face down (its receiver).
    Return { card: Card },
    /// Thumb up: with a quartet as the first, or following a thumb.
    Thumb,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = GrisEvent))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything the deal starts from.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        /// Who was dealt the pig and passes first.
        pig_holder: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// By seat, the hand as dealt.
        hands: Vec<Vec<Card>>,
        options: Options,
        /// When the service dealt (a quartet dealt is a bot's stimulus from then); absent from
        /// tests and simulations.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// The pig passed openly from `seat` to `to`.
    PigPassed {
        seat: Seat,
        to: Seat,
        passes: u32,
        at_ms: u64,
    },
    /// `seat` gave `to` a card face down: seen by the two of them alone.
    CardReturned {
        seat: Seat,
        to: Seat,
        card: Card,
        at_ms: u64,
    },
    /// The first thumb: the window opens for every other seat.
    ThumbUp {
        seat: Seat,
        at_ms: u64,
        opened_at_ms: u64,
        closes_at_ms: u64,
        waiting: Vec<Seat>,
    },
    /// `seat` followed, `after_ms` after the first thumb.
    Followed {
        seat: Seat,
        at_ms: u64,
        after_ms: u64,
    },
    /// The deal's result: who lost and why, with the times.
    DealScored {
        deal_number: u32,
        ending: Ending,
        /// Who thumbed first, if anyone did.
        first: Option<Seat>,
        /// The rank (2 to 14) of the first thumber's quartet.
        quartet: Option<u8>,
        /// The followers in the order recorded, with their times after the first thumb.
        reactions: Vec<Reaction>,
        losers: Vec<Seat>,
        next_dealer: Seat,
        terms: Vec<ScoreTerm>,
        scores: Vec<i64>,
        at_ms: u64,
    },
    MatchEnded {
        winners: Vec<Seat>,
        scores: Vec<i64>,
        explanation: Text,
        at_ms: u64,
    },
}

impl Event {
    fn at(&self) -> Option<u64> {
        match self {
            Event::DealStarted { at_ms, .. } => *at_ms,
            Event::PigPassed { at_ms, .. }
            | Event::CardReturned { at_ms, .. }
            | Event::ThumbUp { at_ms, .. }
            | Event::Followed { at_ms, .. }
            | Event::DealScored { at_ms, .. }
            | Event::MatchEnded { at_ms, .. } => Some(*at_ms),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn refuse(rule: &str, sv: &str, en: &str) -> RuleViolation {
    RuleViolation::new(rule, sv, en)
}

fn decide(state: &State, seat: Seat, command: &Command, at_ms: Option<u64>) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let at = state.clock.at(at_ms);
    let n = state.players;
    let event = match command {
        Command::Pass | Command::Return { .. } if deal.first_thumb.is_some() => {
            return Err(refuse(
                rule::STOPPED,
                "En tumme är uppe: grisen skickas inte längre.",
                "A thumb is up: the pig is passed no more.",
            ))
        }
        Command::Pass if deal.holder != seat => {
            return Err(refuse(rule::PASS, "Bara den som har grisen skickar den.", "Only the pig's holder passes it."))
        }
        Command::Pass if deal.owes.is_some() => {
            return Err(refuse(rule::RETURN, "Du ska först ge ett kort tillbaka.", "You must first give a card back."))
        }
        Command::Pass => Event::PigPassed { seat, to: (seat + 1) % n, passes: deal.passes + 1, at_ms: at },
        Command::Return { card } => {
            if deal.owes != Some(seat) {
                return Err(refuse(rule::RETURN, "Du är inte skyldig något kort.", "You owe no card."));
            }
            if *card == PIG || !deal.hands[seat].contains(card) {
                return Err(refuse(
                    rule::RETURN,
                    "Ge tillbaka ett av dina kort, inte grisen.",
                    "Give back one of your cards, not the pig.",
                ));
            }
            Event::CardReturned { seat, to: (seat + n - 1) % n, card: *card, at_ms: at }
        }
        Command::Thumb => match &deal.window {
            None if !deal.has_quartet(seat) => {
                return Err(refuse(
                    rule::QUARTET,
                    "Du har ingen kvartett: den första tummen kräver fyra kort av samma valör.",
                    "You hold no quartet: the first thumb needs four cards of a rank.",
                ))
            }
            None => {
                let w = Window::open(at, state.options.window_ms, (1..n).map(|i| (seat + i) % n));
                Event::ThumbUp {
                    seat,
                    at_ms: at,
                    opened_at_ms: w.opened_at_ms,
                    closes_at_ms: w.closes_at_ms,
                    waiting: w.waiting,
                }
            }
            Some(w) if !w.is_waiting_for(seat) => {
                return Err(refuse(rule::FOLLOW, "Din tumme är redan uppe.", "Your thumb is already up."))
            }
            Some(w) => Event::Followed { seat, at_ms: at, after_ms: at.saturating_sub(w.opened_at_ms) },
        },
    };
    Ok(run(state, vec![event]))
}

fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

/// The automatic steps: the deal's end once the last is known or the passes reach the cap, its
/// score, and the match's end.
fn next_step(state: &State) -> Option<Event> {
    let deal = state.deals.deal.as_ref().filter(|_| state.deals.outcome.is_none())?;
    let at = state.clock.0;
    if deal.scored {
        return (state.deals.number >= state.options.deals).then(|| match_end(state, at));
    }
    if let Some(last) = deal.window.as_ref().and_then(Window::last) {
        return Some(score(state, deal, Ending::Last, vec![last], at));
    }
    if deal.first_thumb.is_none() && deal.owes.is_none() && deal.passes >= state.options.pass_cap {
        return Some(score(state, deal, Ending::Stalled, Vec::new(), at));
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    if let Some(at) = event.at() {
        state.clock.advance(at);
    }
    let now = state.clock.0;
    match event {
        Event::DealStarted { deal_number, dealer, pig_holder, deck, hands, .. } => {
            let n = hands.len();
            state.players = n;
            let mut knowledge = Knowledge::of_hands(n);
            knowledge.shown_to_all(*pig_holder, &[PIG]);
            let mut deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                deck: deck.clone(),
                hands: hands.clone(),
                knowledge,
                holder: *pig_holder,
                owes: None,
                passes: 0,
                since: vec![None; n],
                first_time: None,
                first_thumb: None,
                window: None,
                ending: None,
                losers: Vec::new(),
                scored: false,
            };
            deal.mark_quartets(now);
            let scores = if state.deals.scores.len() == n { state.deals.scores.clone() } else { vec![0; n] };
            state.deals.started(*deal_number, &scores, deal);
        }
        Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
        Event::DealScored { terms, scores, next_dealer, ending, losers, .. } => {
            state.deals.scored(terms, scores);
            state.deals.next_dealer = *next_dealer;
            if let Some(deal) = state.deals.deal.as_mut() {
                deal.ending = Some(*ending);
                deal.losers = losers.clone();
                deal.scored = true;
            }
        }
        _ => {
            let Some(deal) = state.deals.deal.as_mut() else { return };
            deal.first_time.get_or_insert(now);
            match event {
                Event::PigPassed { seat, to, passes, .. } => {
                    take_card(&mut deal.hands[*seat], PIG);
                    deal.knowledge.left(*seat, PIG);
                    deal.hands[*to].push(PIG);
                    deal.knowledge.shown_to_all(*to, &[PIG]);
                    deal.holder = *to;
                    deal.owes = Some(*to);
                    deal.passes = *passes;
                }
                Event::CardReturned { seat, to, card, .. } => {
                    take_card(&mut deal.hands[*seat], *card);
                    // Only the receiver saw which card left: what others knew of the hand is
                    // now a guess, and a guess is not knowledge.
                    deal.knowledge.left(*seat, *card);
                    let kept: Vec<Card> =
                        deal.knowledge.known_to(*seat, *to).into_iter().filter(|&c| c != PIG).collect();
                    deal.knowledge.clear(*seat);
                    if deal.holder == *seat {
                        deal.knowledge.shown_to_all(*seat, &[PIG]);
                    }
                    kept.iter().for_each(|&c| deal.knowledge.shown_to(*seat, c, &[*to]));
                    deal.hands[*to].push(*card);
                    deal.knowledge.shown_to(*to, *card, &[*seat]);
                    deal.owes = None;
                }
                Event::ThumbUp { seat, opened_at_ms, closes_at_ms, waiting, .. } => {
                    deal.first_thumb = Some(*seat);
                    deal.owes = None;
                    deal.window = Some(Window {
                        opened_at_ms: *opened_at_ms,
                        closes_at_ms: *closes_at_ms,
                        waiting: waiting.clone(),
                        reacted: Vec::new(),
                    });
                }
                Event::Followed { seat, at_ms, .. } => {
                    if let Some(w) = deal.window.as_mut() {
                        w.react(*seat, *at_ms);
                    }
                }
                _ => {}
            }
            deal.mark_quartets(now);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// A loss (minus one) to each loser; the first loser clockwise from the first thumb deals next,
/// and after a stalled deal the deal passes to the left.
fn score(state: &State, deal: &Deal, ending: Ending, losers: Vec<Seat>, at_ms: u64) -> Event {
    let n = state.players;
    let first = deal.first_thumb;
    let reactions = deal.window.as_ref().map(|w| w.reacted.clone()).unwrap_or_default();
    let window = deal.window.as_ref().map_or(0, |w| w.closes_at_ms - w.opened_at_ms);
    let terms: Vec<ScoreTerm> = match ending {
        Ending::Stalled => vec![ScoreTerm::new(
            deal.dealer,
            0,
            rule::CAP,
            format!("Grisen skickades {} gånger utan att någon satte upp tummen: ingen förlorade.", deal.passes),
            format!("The pig was passed {} times without anyone thumbing up: nobody lost.", deal.passes),
        )],
        Ending::Last => losers
            .iter()
            .map(|&s| {
                ScoreTerm::new(
                    s,
                    -1,
                    rule::LAST,
                    format!("Plats {s} var sist med tummen och förlorade."),
                    format!("Seat {s} was the last to thumb up and lost."),
                )
            })
            .collect(),
        Ending::Late => losers
            .iter()
            .map(|&s| {
                ScoreTerm::new(
                    s,
                    -1,
                    rule::LATE,
                    format!("Plats {s} hann inte sätta upp tummen inom {window} ms efter den första och förlorade."),
                    format!("Seat {s} did not thumb up within {window} ms of the first thumb and lost."),
                )
            })
            .collect(),
    };
    let mut scores = state.deals.scores.clone();
    terms.iter().for_each(|t| scores[t.to] += t.points);
    let next_dealer = match (first, ending) {
        (Some(f), Ending::Late) => (1..n).map(|i| (f + i) % n).find(|s| losers.contains(s)).unwrap_or(f),
        (_, Ending::Stalled) | (None, _) => (deal.dealer + 1) % n,
        _ => losers[0],
    };
    Event::DealScored {
        deal_number: deal.number,
        ending,
        first,
        quartet: first.and_then(|f| quartet(&deal.hands[f])).map(Rank::value),
        reactions,
        losers,
        next_dealer,
        terms,
        scores,
        at_ms,
    }
}

/// The fewest losses win (ties share).
fn match_end(state: &State, at_ms: u64) -> Event {
    let scores = state.deals.scores.clone();
    let best = scores.iter().copied().max().unwrap_or(0);
    let winners: Vec<Seat> = (0..state.players).filter(|&s| scores[s] == best).collect();
    let who = seats_text(&winners);
    let losses = -best;
    let explanation = Text::new(
        format!("Platserna {who} vann med minst förluster, {losses}."),
        format!("Seats {who} won with the fewest losses, {losses}."),
    );
    Event::MatchEnded { winners, scores, explanation, at_ms }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, who holds the pig and whether he owes a card, the
/// passes so far, the hands' sizes, the cards the viewer knows in others' hands (the pig for
/// all; a card it gave), the viewer's own hand, and the window once a thumb is up. A deal's
/// record shows every hand.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = GrisTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    /// Who holds the pig: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pig_holder: Option<Seat>,
    /// The pig's receiver who still owes the sender a card.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub owes: Option<Seat>,
    /// Passes of the pig in this deal.
    pub passes: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// By seat, the cards everyone knows to be in that hand (the pig): the viewer's own left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub public_cards: Option<Vec<Vec<Card>>>,
    /// By seat, the cards the viewer knows to be in that hand (the pig, a card it gave): only
    /// in a seat's view, its own hand left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub known_cards: Option<Vec<Vec<Card>>>,
    /// Who put his thumb up first.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub first_thumb: Option<Seat>,
    /// The reaction window the first thumb opened: when, until when, who is still waited for
    /// and who followed when.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub window: Option<Window>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub ending: Option<Ending>,
    /// The deal's losers, once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub losers: Option<Vec<Seat>>,
    /// The pack as it was dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// Every hand: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// The viewer's own hand: only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let me = viewer.seat_at(state.players);
    let deal = state.deals.deal.as_ref();
    let record = deal.filter(|_| viewer == Viewer::Record);
    let known = |d: &Deal, me: Seat| {
        (0..state.players).map(|s| if s == me { Vec::new() } else { d.knowledge.known_to(s, me) }).collect()
    };
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        pig_holder: deal.map(|d| d.holder),
        owes: deal.and_then(|d| d.owes),
        passes: deal.map_or(0, |d| d.passes),
        hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
        public_cards: deal.map(|d| d.knowledge.public_hands(me)),
        known_cards: deal.zip(me).map(|(d, s)| known(d, s)),
        first_thumb: deal.and_then(|d| d.first_thumb),
        window: deal.and_then(|d| d.window.clone()),
        ending: deal.and_then(|d| d.ending),
        losers: deal.filter(|d| d.over()).map(|d| d.losers.clone()),
        deck: record.filter(|d| d.over()).map(|d| d.deck.clone()),
        hands: record.map(|d| d.hands.clone()),
        hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// The card to give back. Basic: a card of the rank it holds fewest of (the first such in its
/// hand). Strong: of the ranks it holds fewest of, the one with fewest cards still to be had (a
/// rank whose cards it gave away goes first) and never one the player on its left keeps sending
/// it (he is dropping that rank, so more may come).
fn card_to_return(deal: &Deal, seat: Seat, strong: bool) -> Card {
    let hand = &deal.hands[seat];
    let count = |r: Option<Rank>| hand.iter().filter(|c| c.rank() == r).count() as i64;
    let n = deal.hands.len();
    let left = (seat + 1) % n;
    let right = (seat + n - 1) % n;
    let worth = |c: &Card| -> i64 {
        let mine = count(c.rank()) * 100;
        if !strong {
            return mine;
        }
        // Cards of the rank it gave away to its right (known to be gone from its reach) and
        // cards of the rank its left neighbour gave it (he does not collect them).
        let given = deal.knowledge.known_to(right, seat).iter().filter(|k| k.rank() == c.rank()).count() as i64;
        let fed = deal.knowledge.known_to(seat, left).iter().filter(|k| k.rank() == c.rank()).count() as i64;
        mine - given * 10 + fed * 5
    };
    hand.iter().filter(|&&c| c != PIG).min_by_key(|c| worth(c)).copied().expect("a receiver holds more than the pig")
}

fn basic_choice(state: &State, seat: Seat, strong: bool) -> Option<Command> {
    let deal = state.deals.live()?;
    let legal = legal_moves(state, seat);
    if legal.contains(&Command::Thumb) {
        return Some(Command::Thumb);
    }
    if deal.owes == Some(seat) && deal.first_thumb.is_none() {
        return Some(Command::Return { card: card_to_return(deal, seat, strong) });
    }
    legal.into_iter().next()
}

fn legal_moves(state: &State, seat: Seat) -> Vec<Command> {
    let Some(deal) = state.deals.live() else { return Vec::new() };
    let mut moves = Vec::new();
    match &deal.window {
        Some(w) => {
            if w.is_waiting_for(seat) {
                moves.push(Command::Thumb);
            }
        }
        None => {
            if deal.owes == Some(seat) {
                moves.extend(deal.hands[seat].iter().filter(|&&c| c != PIG).map(|&card| Command::Return { card }));
            } else if deal.holder == seat {
                moves.push(Command::Pass);
            }
            if deal.has_quartet(seat) {
                moves.push(Command::Thumb);
            }
        }
    }
    moves
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Gris {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "gris";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/gris.txt");
    const CLOCKED: bool = true;

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![Options::default(), Options { deals: 3, window_ms: 1_000, pass_cap: 10 }]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_DEALS).contains(&options.deals) {
            return Err(SetupError(format!("deals must be 1 to {MAX_DEALS}, not {}", options.deals)));
        }
        if !(1_000..=60_000).contains(&options.window_ms) {
            return Err(SetupError(format!("window_ms must be 1000 to 60000, not {}", options.window_ms)));
        }
        if !(10..=10_000).contains(&options.pass_cap) {
            return Err(SetupError(format!("pass_cap must be 10 to 10000, not {}", options.pass_cap)));
        }
        Ok(State { options, players, deals: Deals::new(players), clock: Clock::default() })
    }

    crate::status_of_deals!(|state| pack(state.players));

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        self.deal_at(state, deck, None)
    }

    fn deal_at(&self, state: &State, deck: Vec<Card>, at_ms: Option<u64>) -> Result<Vec<Event>, RuleViolation> {
        let seating = Seating::new(state.players);
        let dealer = state.deals.next_dealer;
        let hands = deals::deal_singly(&seating, dealer, &deck);
        let pig_holder = hands.iter().position(|h| h.contains(&PIG)).expect("the pack holds the pig");
        Ok(run(
            state,
            vec![Event::DealStarted {
                deal_number: state.deals.number + 1,
                dealer,
                pig_holder,
                deck,
                hands,
                options: state.options.clone(),
                at_ms,
            }],
        ))
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command, None)
    }

    fn decide_at(
        &self,
        state: &State,
        seat: Seat,
        command: &Command,
        at_ms: Option<u64>,
    ) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command, at_ms)
    }

    fn due_at(&self, state: &State) -> Option<u64> {
        state.deals.live()?.window.as_ref().map(|w| w.closes_at_ms)
    }

    fn time_passes(&self, state: &State, now_ms: u64) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        let late = deal.window.as_ref().map(|w| w.late_at(now_ms).to_vec()).unwrap_or_default();
        if late.is_empty() {
            return Err(RuleViolation::wrong_phase("ingen tid har löpt ut", "no time has run out"));
        }
        let mut after = state.clone();
        after.clock.advance(now_ms);
        Ok(run(state, vec![score(&after, deal, Ending::Late, late, after.clock.0)]))
    }

    fn bot_reaction_at(&self, state: &State, seat: Seat, level: Level, seed: u64) -> Option<u64> {
        if bots::choose(self, state, seat, level, seed) != Some(Command::Thumb) {
            return None;
        }
        let deal = state.deals.live()?;
        let stimulus = match &deal.window {
            Some(w) => w.opened_at_ms,
            None => deal.since[seat]?.max(deal.first_time.unwrap_or(0)),
        };
        Some(stimulus + bot_delay_ms(level, seed ^ stimulus))
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        legal_moves(state, seat)
    }

    /// Passing, thumbing, and returning any card of the pack.
    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        let mut moves = vec![Command::Pass, Command::Thumb];
        moves.extend(pack(state.players).into_iter().map(|card| Command::Return { card }));
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        let in_play = |number: u32| state.deals.in_play(number, viewer, deal_over);
        match event {
            Event::DealStarted { deal_number, hands, .. } if in_play(*deal_number) => {
                deals::hide_hands(&mut full, hands, viewer);
            }
            Event::CardReturned { seat, to, .. }
                if viewer != Viewer::Seat(*seat) && viewer != Viewer::Seat(*to) && in_play(state.deals.number) =>
            {
                full["card"] = Value::Null;
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        deal.knowledge.hand_secrets(&deal.hands)
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = pack(state.players);
        deals::check_deck(&deal.deck, &pack)?;
        crate::ensure!(is_permutation(&deal.hands.concat(), &pack), "the hands are not the pack");
        crate::ensure!(deal.hands[deal.holder].contains(&PIG), "seat {} holds the pig but not in hand", deal.holder);
        deal.knowledge.check(&deal.hands.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
        crate::ensure!(deal.passes <= state.options.pass_cap, "{} passes past the cap", deal.passes);
        if let Some(w) = &deal.window {
            crate::ensure!(w.waiting.len() + w.reacted.len() + 1 == state.players, "the window lost a seat: {w:?}");
        }
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let mut moves = legal_moves(state, seat);
        if moves.is_empty() {
            return None;
        }
        Some(moves.swap_remove(Rng::new(seed).below(moves.len())))
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic_choice(state, seat, false)
    }

    /// The strong bot's one candidate: its own rule (no search; the game's skill is in the
    /// returns and the speed of the thumb, [`bot_delay_ms`]).
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        basic_choice(state, seat, true).into_iter().collect()
    }

    /// Minus one a loss, against the others' mean.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bots::lead_over_mean(state.players, |s| state.deals.scores.get(s).copied().unwrap_or(0) as f64, seat)
    }
}

#[cfg(test)]
mod tests;
