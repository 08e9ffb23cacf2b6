//! Jazz: a compendium of six deals, each with its own aim, scored into one protocol. Deals one to
//! five are trick deals without trumps (some twos taken out so the cards come out even), in
//! which a player avoids, in turn, tricks (-1 each), clubs (-1 each), queens (-5 each), the king
//! of clubs (-15) and the last trick (-20). The sixth deal is Fan tan with the whole pack: every
//! forced pass costs a point and the first player out gets ten. The highest total wins.
//!
//! The trick deals are played on [`TrickPlay`]; the sixth on Fan tan's own play
//! ([`FanTanPlay`]), so its lays and refusals are Fan tan's under Jazz's rule ids. The match is
//! always six deals; which deal is played follows from its number.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots::{self, Aim};
use crate::cards::{decks, rank_value, sorted, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Outcome, Rules, SetupError, Viewer};
use crate::games::fan_tan::play::{FanTanPlay, LayRules};
use crate::layout::LayoutRow;
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{match_winners, Seat, Table as Seating};
use crate::trick::{self, Play, PlayView, TrickPlay, WinReason};

#[derive(Default)]
pub struct Jazz;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 7;
/// The deals of a match.
pub const DEALS: u32 = 6;
pub const KING_OF_CLUBS: Card = Card::new(Rank::KING, Suit::Clubs);
/// The points of the first player out in the fan tan deal.
pub const FIRST_OUT_POINTS: i64 = 10;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const TWOS: &str = "jazz.pack.twos";
    pub const FOLLOW: &str = "jazz.play.follow";
    pub const TRICKS: &str = "jazz.score.tricks";
    pub const CLUBS: &str = "jazz.score.clubs";
    pub const QUEENS: &str = "jazz.score.queens";
    pub const KING_OF_CLUBS: &str = "jazz.score.king-of-clubs";
    pub const LAST_TRICK: &str = "jazz.score.last-trick";
    pub const AS_FAN_TAN: &str = "jazz.fan-tan.as-fan-tan";
    pub const BUILD: &str = "jazz.fan-tan.build";
    pub const ONE_CARD: &str = "jazz.fan-tan.one-card";
    pub const PASS: &str = "jazz.fan-tan.pass";
    pub const FIRST_OUT: &str = "jazz.fan-tan.first-out";
    pub const FEWEST_MINUS: &str = "jazz.end.fewest-minus";
    pub const BEFORE_THE_FIRST_SEVEN: &str = "jazz.house.before-the-first-seven";
}

/// Fan tan's refusals of a lay under Jazz's ids: the sixth deal is ordinary fan tan, so the free
/// variant's two refusals never come, and name the nearest of its rules.
const LAY_RULES: LayRules =
    LayRules { build: rule::BUILD, one_card: rule::ONE_CARD, free_build: rule::BUILD, free_run: rule::ONE_CARD };

// ---------------------------------------------------------------------------------------------
// Options

/// The game has no options: the text names no variant, and plays its sixth deal as ordinary
/// (not free) fan tan.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = JazzOptions))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {}

// ---------------------------------------------------------------------------------------------
// State

/// Which of the six deals is played, in the text's order: what it costs or pays.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = JazzDealKind))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Deal 1: -1 a trick taken.
    Tricks,
    /// Deal 2: -1 a club taken.
    Clubs,
    /// Deal 3: -5 a queen taken.
    Queens,
    /// Deal 4: -15 for the king of clubs.
    KingOfClubs,
    /// Deal 5: -20 for the last trick.
    LastTrick,
    /// Deal 6: fan tan, -1 a forced pass, +10 to the first out.
    FanTan,
}

impl Kind {
    pub const ALL: [Kind; 6] =
        [Kind::Tricks, Kind::Clubs, Kind::Queens, Kind::KingOfClubs, Kind::LastTrick, Kind::FanTan];

    /// The kind of deal `number` (1 to 6).
    pub fn of(number: u32) -> Kind {
        Kind::ALL[(number.clamp(1, DEALS) - 1) as usize]
    }

    pub fn is_tricks(self) -> bool {
        self != Kind::FanTan
    }

    /// The points each thing the deal counts is worth (a trick, a club, a queen, the king of
    /// clubs, the last trick, a forced pass).
    pub fn each(self) -> i64 {
        match self {
            Kind::Tricks | Kind::Clubs | Kind::FanTan => -1,
            Kind::Queens => -5,
            Kind::KingOfClubs => -15,
            Kind::LastTrick => -20,
        }
    }

    pub fn rule(self) -> &'static str {
        match self {
            Kind::Tricks => rule::TRICKS,
            Kind::Clubs => rule::CLUBS,
            Kind::Queens => rule::QUEENS,
            Kind::KingOfClubs => rule::KING_OF_CLUBS,
            Kind::LastTrick => rule::LAST_TRICK,
            Kind::FanTan => rule::PASS,
        }
    }

    /// The deal's aim and scoring in words, for the table.
    pub fn scoring(self) -> Text {
        match self {
            Kind::Tricks => Text::new("Undvik stick: varje stick ger -1.", "Avoid tricks: every trick scores -1."),
            Kind::Clubs => Text::new("Undvik klöver: varje klöverkort ger -1.", "Avoid clubs: every club scores -1."),
            Kind::Queens => Text::new("Undvik damerna: varje dam ger -5.", "Avoid the queens: every queen scores -5."),
            Kind::KingOfClubs => Text::new(
                "Undvik klöver kung: den som tar den får -15.",
                "Avoid the king of clubs: whoever takes it scores -15.",
            ),
            Kind::LastTrick => Text::new(
                "Undvik sista sticket: den som tar det får -20.",
                "Avoid the last trick: whoever takes it scores -20.",
            ),
            Kind::FanTan => Text::new(
                "Fan tan: varje tvunget pass ger -1, den som först blir av med korten får +10.",
                "Fan tan: every forced pass scores -1, the first player rid of every card scores +10.",
            ),
        }
    }
}

/// The twos taken out of the pack for the trick deals at `players`, so the cards come out even.
pub fn twos_out(players: usize) -> Vec<Card> {
    let two = |suit| Card::new(Rank::TWO, suit);
    match players {
        3 => vec![two(Suit::Diamonds)],
        5 => vec![two(Suit::Diamonds), two(Suit::Hearts)],
        6 => Suit::ALL.into_iter().map(two).collect(),
        7 => vec![two(Suit::Diamonds), two(Suit::Hearts), two(Suit::Spades)],
        _ => Vec::new(),
    }
}

/// The pack deal `kind` is dealt from at `players`.
pub fn pack(players: usize, kind: Kind) -> Vec<Card> {
    let out = if kind.is_tricks() { twos_out(players) } else { Vec::new() };
    decks::standard52().into_iter().filter(|c| !out.contains(c)).collect()
}

#[derive(Clone, Debug)]
enum DealPlay {
    Tricks(TrickPlay),
    Layout(FanTanPlay),
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    kind: Kind,
    dealer: Seat,
    deck: Vec<Card>,
    play: DealPlay,
    /// Fan tan deal: passes by seat that cost a point (those after the first seven).
    forced: Vec<u32>,
    /// Fan tan deal: the first seat out.
    first_out: Option<Seat>,
    over: bool,
}

impl Deal {
    fn tricks(&self) -> Option<&TrickPlay> {
        match &self.play {
            DealPlay::Tricks(p) => Some(p),
            DealPlay::Layout(_) => None,
        }
    }

    fn layout(&self) -> Option<&FanTanPlay> {
        match &self.play {
            DealPlay::Layout(p) => Some(p),
            DealPlay::Tricks(_) => None,
        }
    }

    fn hands(&self) -> &[Vec<Card>] {
        match &self.play {
            DealPlay::Tricks(p) => &p.hands,
            DealPlay::Layout(p) => &p.hands,
        }
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match &self.play {
            _ if self.over => Vec::new(),
            DealPlay::Tricks(p) if p.is_over() => Vec::new(),
            DealPlay::Tricks(p) => vec![p.to_play()],
            DealPlay::Layout(p) => vec![p.to_play],
        }
    }

    fn is_live(&self) -> bool {
        !self.over
    }

    fn phase(&self) -> Phase {
        match &self.play {
            _ if self.over => Phase::DealOver,
            DealPlay::Tricks(_) => Phase::Playing,
            DealPlay::Layout(_) => Phase::FanTan,
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    table: Seating,
    deals: Deals<Deal>,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = JazzCommand))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Deals one to five: play a card to the trick.
    Play { card: Card },
    /// The fan tan deal: lay a card on the rows.
    Lay { card: Card },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = JazzEvent))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything the deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        /// Which of the six deals this is.
        kind: Kind,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's cards, sorted.
        hands: Vec<Vec<Card>>,
        /// The twos taken out of the pack for this deal (none in the fan tan deal).
        twos_out: Vec<Card>,
        /// The scores before this deal.
        scores: Vec<i64>,
        options: Options,
    },
    /// A card played to the trick (deals one to five).
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
    /// A card laid on the rows (the fan tan deal).
    Laid {
        seat: Seat,
        card: Card,
    },
    /// A seat had no card that fits and was passed over (automatic); `forced` once the first
    /// seven is down, when the pass costs a point.
    Passed {
        seat: Seat,
        forced: bool,
    },
    DealScored {
        deal_number: u32,
        kind: Kind,
        /// By seat, what the deal counts: tricks, clubs, queens, the king of clubs (0 or 1), the
        /// last trick (0 or 1), or forced passes.
        counted: Vec<u32>,
        /// The fan tan deal: the first seat out; null in the trick deals.
        first_out: Option<Seat>,
        /// The fan tan deal: cards each seat still held; empty in the trick deals.
        cards_left: Vec<usize>,
        /// The deal's points, term by term.
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
        scores: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        scores: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Setup and deal

fn deal_started(state: &State, deck: Vec<Card>) -> Vec<Event> {
    let number = state.deals.number + 1;
    let kind = Kind::of(number);
    let dealer = state.deals.next_dealer;
    let forehand = state.table.forehand(dealer);
    let hands: Vec<Vec<Card>> = deals::deal_singly(&state.table, dealer, &deck).into_iter().map(sorted).collect();
    let mut events = Vec::new();
    if !kind.is_tricks() {
        // Nobody is forced to pass before the first seven is down: those skipped pay nothing.
        let empty = crate::layout::Layout::new(crate::games::fan_tan::play::shape(false));
        let passing = FanTanPlay::passes_from(&state.table, &hands, &empty, forehand);
        events.extend(passing.into_iter().map(|seat| Event::Passed { seat, forced: false }));
    }
    let started = Event::DealStarted {
        deal_number: number,
        kind,
        dealer,
        forehand,
        deck,
        hands,
        twos_out: if kind.is_tricks() { twos_out(state.players()) } else { Vec::new() },
        scores: state.deals.scores.clone(),
        options: state.options.clone(),
    };
    events.insert(0, started);
    events
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    let Some(play) = deal.tricks() else {
        return Err(RuleViolation::wrong_phase(
            "i fan tan-given läggs korten på raderna",
            "in the fan tan deal cards are laid on the rows",
        ));
    };
    play.check_held(seat, card)?;
    play.check_follow(seat, card, rule::FOLLOW)?;
    let trick_number = play.number();
    let mut events = vec![Event::CardPlayed { seat, card, trick_number }];
    if let Some(won) = play.completed_by(seat, card, &trick::no_trumps) {
        events.push(Event::TrickWon {
            trick_number,
            winner: won.winner,
            card: won.card,
            reason: won.reason,
            plays: won.plays,
        });
        if won.last {
            let mut after = play.clone();
            after.play(seat, card);
            after.won(won.winner, won.card, won.reason);
            events.extend(score_tricks(state, deal, &after));
        }
    }
    Ok(events)
}

fn decide_lay(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    let Some(play) = deal.layout() else {
        return Err(RuleViolation::wrong_phase(
            "i de fem första givarna spelas korten till sticket",
            "in the first five deals cards are played to the trick",
        ));
    };
    play.check_lay(seat, &[card], &LAY_RULES)?;
    let (hands, passing) = play.after_lay(seat, &[card]);
    let mut events = vec![Event::Laid { seat, card }];
    if hands[seat].is_empty() {
        events.extend(score_fan_tan(state, deal, seat, &hands));
    } else {
        events.extend(passing.into_iter().map(|seat| Event::Passed { seat, forced: true }));
    }
    Ok(events)
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted { deal_number, kind, dealer, forehand, deck, hands, scores, .. } => {
            state.deals.next_dealer = state.table.next(*dealer);
            let play = match kind.is_tricks() {
                true => DealPlay::Tricks(TrickPlay::new(state.table, hands.clone(), *forehand, hands[0].len())),
                false => DealPlay::Layout(FanTanPlay::new(state.table, hands.clone(), *forehand, false)),
            };
            let deal = Deal {
                number: *deal_number,
                kind: *kind,
                dealer: *dealer,
                deck: deck.clone(),
                play,
                forced: vec![0; hands.len()],
                first_out: None,
                over: false,
            };
            state.deals.started(*deal_number, scores, deal);
        }
        Event::DealScored { terms, scores, first_out, .. } => {
            state.deals.scored(terms, scores);
            if let Some(deal) = state.deals.deal.as_mut() {
                deal.over = true;
                deal.first_out = *first_out;
            }
        }
        Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
        _ => {
            let Some(deal) = state.deals.deal.as_mut() else { return };
            match (&mut deal.play, event) {
                (DealPlay::Tricks(p), Event::CardPlayed { seat, card, .. }) => p.play(*seat, *card),
                (DealPlay::Tricks(p), Event::TrickWon { winner, card, reason, .. }) => p.won(*winner, *card, *reason),
                (DealPlay::Layout(p), Event::Laid { seat, card }) => p.lay(*seat, &[*card]),
                (DealPlay::Layout(p), Event::Passed { seat, forced }) => {
                    p.pass(*seat);
                    deal.forced[*seat] += u32::from(*forced);
                }
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// By seat, what a trick deal of `kind` counts against it in the tricks won so far.
fn counted_in_tricks(kind: Kind, play: &TrickPlay) -> Vec<u32> {
    let mut counted = vec![0; play.table.seats];
    for (i, t) in play.tricks.iter().enumerate() {
        let cards = || t.plays.iter().map(|p| p.card);
        counted[t.winner] += match kind {
            Kind::Tricks => 1,
            Kind::Clubs => cards().filter(|c| c.is_suit(Suit::Clubs)).count() as u32,
            Kind::Queens => cards().filter(|c| c.rank() == Some(Rank::QUEEN)).count() as u32,
            Kind::KingOfClubs => u32::from(cards().any(|c| c == KING_OF_CLUBS)),
            Kind::LastTrick => u32::from(i + 1 == play.tricks_per_deal),
            Kind::FanTan => 0,
        };
    }
    counted
}

/// A trick deal's score: its count by seat times what each is worth.
fn score_tricks(state: &State, deal: &Deal, play: &TrickPlay) -> Vec<Event> {
    let kind = deal.kind;
    let counted = counted_in_tricks(kind, play);
    let mut terms = Vec::new();
    for (s, &n) in counted.iter().enumerate().filter(|(_, &n)| n > 0) {
        let points = kind.each() * n as i64;
        let (sv, en) = match kind {
            Kind::Tricks => {
                (format!("Plats {s} tog {n} stick: {points}."), format!("Seat {s} took {n} tricks: {points}."))
            }
            Kind::Clubs => {
                (format!("Plats {s} tog {n} klöverkort: {points}."), format!("Seat {s} took {n} clubs: {points}."))
            }
            Kind::Queens => {
                (format!("Plats {s} tog {n} damer: {points}."), format!("Seat {s} took {n} queens: {points}."))
            }
            Kind::KingOfClubs => {
                (format!("Plats {s} tog klöver kung: {points}."), format!("Seat {s} took the king of clubs: {points}."))
            }
            Kind::LastTrick | Kind::FanTan => {
                (format!("Plats {s} tog sista sticket: {points}."), format!("Seat {s} took the last trick: {points}."))
            }
        };
        terms.push(ScoreTerm::new(s, points, kind.rule(), sv, en));
    }
    scored(state, deal, counted, None, Vec::new(), terms)
}

/// The fan tan deal's score: -1 a forced pass, +10 to the first out.
fn score_fan_tan(state: &State, deal: &Deal, winner: Seat, hands: &[Vec<Card>]) -> Vec<Event> {
    let mut terms = Vec::new();
    for (s, &n) in deal.forced.iter().enumerate().filter(|(_, &n)| n > 0) {
        let points = Kind::FanTan.each() * n as i64;
        terms.push(ScoreTerm::new(
            s,
            points,
            rule::PASS,
            format!("Plats {s} tvingades passa {n} gånger: {points}."),
            format!("Seat {s} was forced to pass {n} times: {points}."),
        ));
    }
    terms.push(ScoreTerm::new(
        winner,
        FIRST_OUT_POINTS,
        rule::FIRST_OUT,
        format!("Plats {winner} blev först av med sina kort: +{FIRST_OUT_POINTS}."),
        format!("Seat {winner} was first rid of every card: +{FIRST_OUT_POINTS}."),
    ));
    let cards_left = hands.iter().map(Vec::len).collect();
    scored(state, deal, deal.forced.clone(), Some(winner), cards_left, terms)
}

/// The deal's `DealScored`, and after the sixth deal the match's end: the highest total wins.
fn scored(
    state: &State,
    deal: &Deal,
    counted: Vec<u32>,
    first_out: Option<Seat>,
    cards_left: Vec<usize>,
    terms: Vec<ScoreTerm>,
) -> Vec<Event> {
    let mut points = vec![0; state.players()];
    terms.iter().for_each(|t| points[t.to] += t.points);
    let scores: Vec<i64> = state.deals.scores.iter().zip(&points).map(|(a, b)| a + b).collect();
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        kind: deal.kind,
        counted,
        first_out,
        cards_left,
        terms,
        points,
        scores: scores.clone(),
    }];
    if deal.number >= DEALS {
        let winners = match_winners(&scores);
        let explanation = Outcome::most_points(&winners, &scores).explanation;
        events.push(Event::MatchEnded { winners, scores, explanation });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The table view

/// Where the match is: `waiting-for-deal` before the first deal, `playing` the tricks of deals
/// one to five, `fan-tan` the fan tan deal, `deal-over` between deals, `finished` after six.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = JazzPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Playing,
    FanTan,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// The table as one viewer sees it: the match, which of the six deals is played and how it
/// scores, the tricks (deals one to five) or the rows and passes (the fan tan deal), what the
/// deal has counted against each seat so far, and the viewer's own hand. A deal's record shows
/// every hand at every step, and the deck once the deal is over.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = JazzTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number (1 to 6), dealer, scores, who is to act, the outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    /// The six deals in order, what each is.
    pub kinds: Vec<Kind>,
    /// Which deal is played (or was last): absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub kind: Option<Kind>,
    /// That deal's aim and scoring in words: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub scoring: Option<Text>,
    /// The deal's forehand: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The twos taken out of this deal's pack: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub twos_out: Option<Vec<Card>>,
    /// By seat, what the deal has counted so far (tricks, clubs, queens, the king of clubs,
    /// the last trick, or forced passes): absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub counted: Option<Vec<u32>>,
    /// The card play of a trick deal (hand sizes in the fan tan deal too).
    #[serde(flatten)]
    pub play: PlayView,
    /// The fan tan deal's rows, one a suit (absent in the trick deals).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub layout: Option<Vec<LayoutRow>>,
    /// The fan tan deal: the seat to lay (the first out once it is over).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// The fan tan deal: times each seat has passed, those before the first seven included.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub passes: Option<Vec<u32>>,
    /// The fan tan deal: the first seat out, null while it is played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_out: Option<Option<Seat>>,
    /// The pack as it was dealt, top card first: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// The viewer's own hand: only in a seat's view, from the first deal on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let me = viewer.seat_at(state.players());
    let deal = state.deals.deal.as_ref();
    let record = viewer == Viewer::Record;
    let play = match deal.map(|d| &d.play) {
        Some(DealPlay::Tricks(p)) => p.view(record),
        Some(DealPlay::Layout(p)) => PlayView {
            hand_sizes: Some(p.hands.iter().map(Vec::len).collect()),
            hands: record.then(|| p.hands.clone()),
            ..PlayView::default()
        },
        None => PlayView::default(),
    };
    let layout = deal.and_then(Deal::layout);
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players(), deal.map(|d| d.dealer)),
        options: state.options.clone(),
        kinds: Kind::ALL.to_vec(),
        kind: deal.map(|d| d.kind),
        scoring: deal.map(|d| d.kind.scoring()),
        forehand: deal.map(|d| state.table.forehand(d.dealer)),
        twos_out: deal.map(|d| if d.kind.is_tricks() { twos_out(state.players()) } else { Vec::new() }),
        counted: deal.map(|d| match &d.play {
            DealPlay::Tricks(p) => counted_in_tricks(d.kind, p),
            DealPlay::Layout(_) => d.forced.clone(),
        }),
        play,
        layout: layout.map(|p| p.layout.view()),
        to_play: deal.zip(layout).map(|(d, p)| d.first_out.unwrap_or(p.to_play)),
        passes: layout.map(|p| p.passes.clone()),
        first_out: deal.filter(|d| !d.kind.is_tricks()).map(|d| d.first_out),
        deck: deal.filter(|d| record && d.over).map(|d| d.deck.clone()),
        hand: deal.zip(me).map(|(d, s)| d.hands()[s].clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// How much a card costs its taker in a trick deal of `kind`, for choosing what to shed: the
/// cards the deal counts first, then the high cards that would take tricks later.
fn danger(kind: Kind, card: Card) -> (u8, u8) {
    let counted = match kind {
        Kind::Clubs => card.is_suit(Suit::Clubs),
        Kind::Queens => card.rank() == Some(Rank::QUEEN),
        Kind::KingOfClubs => card == KING_OF_CLUBS,
        _ => false,
    };
    // A king or ace of clubs is what takes the king of clubs, or a queen its trick.
    let guard = match kind {
        Kind::KingOfClubs => card.is_suit(Suit::Clubs) && rank_value(card) == 14,
        Kind::Queens => rank_value(card) > 12,
        _ => false,
    };
    (u8::from(counted) * 2 + u8::from(guard), rank_value(card))
}

/// The rule of thumb in a trick deal: duck every trick (the highest card that still loses, the
/// lowest lead), shedding what the deal counts when void; in the last-trick deal, shed high
/// cards while more than two tricks are left, and duck after.
fn basic_card(kind: Kind, play: &TrickPlay, seat: Seat) -> Option<Card> {
    let legal = play.following(seat);
    let trick = &play.trick;
    let last = trick.plays.len() + 1 == play.players_in();
    if kind == Kind::LastTrick && play.hands[seat].len() > 2 {
        return legal.iter().copied().max_by_key(|&c| (rank_value(c), c.suit()));
    }
    let void = trick.led_suit().is_some_and(|led| !legal.iter().any(|c| c.is_suit(led)));
    if void {
        return legal.iter().copied().max_by_key(|&c| (danger(kind, c), c.suit()));
    }
    bots::basic_card(&legal, trick, None, seat, None, last, Aim::Duck)
}

fn basic(state: &State, seat: Seat) -> Option<Command> {
    let deal = state.deals.acting(seat)?;
    match &deal.play {
        DealPlay::Tricks(p) => basic_card(deal.kind, p, seat).map(|card| Command::Play { card }),
        DealPlay::Layout(p) => p.basic(seat).and_then(|cards| cards.first().copied()).map(|card| Command::Lay { card }),
    }
}

/// The deal as `seat` knows it: a trick deal's other hands dealt afresh keeping the suits each
/// has shown it lacks; the fan tan deal's as Fan tan's bot deals them.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let pack = pack(state.players(), state.deals.live()?.kind);
    let mut world = state.clone();
    match &mut world.deals.live_mut()?.play {
        DealPlay::Tricks(p) => bots::resample_play(p, seat, &pack, &[], &[], &mut [], rng),
        DealPlay::Layout(p) => p.resample(seat, rng),
    }
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Jazz {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "jazz";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/jazz.txt");

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        Ok(State { options, table: Seating::new(players), deals: Deals::new(players) })
    }

    crate::status_of_deals!(|state| pack(state.players(), Kind::of(state.deals.number + 1)));

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(deal_started(state, deck))
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match *command {
            Command::Play { card } => decide_play(state, deal, seat, card),
            Command::Lay { card } => decide_lay(state, deal, seat, card),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        match &deal.play {
            DealPlay::Tricks(p) => p.following(seat).into_iter().map(|card| Command::Play { card }).collect(),
            DealPlay::Layout(p) => p
                .legal(seat)
                .into_iter()
                .filter_map(|cards| cards.first().copied())
                .map(|card| Command::Lay { card })
                .collect(),
        }
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        let pack = decks::standard52();
        let plays = pack.iter().map(|&card| Command::Play { card });
        plays.chain(pack.iter().map(|&card| Command::Lay { card })).collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if let Event::DealStarted { deal_number, hands, .. } = event {
            if state.deals.in_play(*deal_number, viewer, deal_over) {
                deals::hide_hands(&mut full, hands, viewer);
            }
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        deal.hands().iter().enumerate().flat_map(|(s, h)| h.iter().map(move |&c| (c, vec![s]))).collect()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        crate::ensure!(deal.kind == Kind::of(deal.number), "deal {} is played as {:?}", deal.number, deal.kind);
        let pack = pack(state.players(), deal.kind);
        deals::check_deck(&deal.deck, &pack)?;
        match &deal.play {
            DealPlay::Tricks(p) => {
                let each = pack.len() / state.players();
                crate::ensure!(each * state.players() == pack.len(), "{} cards do not come out even", pack.len());
                p.check(&pack, &[], |_| each, &trick::no_trumps)?;
            }
            DealPlay::Layout(p) => {
                p.check(&pack)?;
                for s in 0..state.players() {
                    crate::ensure!(deal.forced[s] <= p.passes[s], "seat {s} has more forced passes than passes");
                }
                if let Some(w) = deal.first_out {
                    crate::ensure!(p.hands[w].is_empty(), "the first out {w} still holds cards");
                }
            }
        }
        let ended = state.deals.outcome.is_some();
        crate::ensure!(!ended || (deal.number == DEALS && deal.over), "the match ended after deal {}", deal.number);
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// The legal moves, the rule of thumb's first, so that moves the search cannot tell apart go
    /// its way.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut moves = self.legal_moves(state, seat);
        if let Some(first) = basic(state, seat) {
            moves.retain(|m| *m != first);
            moves.insert(0, first);
        }
        moves
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic(state, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// The total less the others' mean: a playout ends with the deal, scored.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bots::lead_over_mean(state.players(), |s| state.deals.scores[s] as f64, seat)
    }
}

#[cfg(test)]
mod tests;
