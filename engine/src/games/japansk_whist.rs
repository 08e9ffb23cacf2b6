//! Japansk whist: two players, each with ten piles on the table (a face-down card under an open
//! one) and six hand cards that may not be looked at until the first trick is done.
//!
//! Forehand chooses trumps from what the twenty open cards show (or, with the variant, pass or
//! sang), the 26 cards of each player are played out in 26 tricks, and the winner of a deal
//! scores one point per trick over thirteen. The first to reach the target (13) wins.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bots::{self, Aim};
use crate::cards::{decks, rank_value, sorted, Card, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::ensure;
use crate::game::{Rules, SetupError, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Direction, Seat};
use crate::trick::{self, Play, PlayView, Trick, TrickPlay, WinReason};

#[derive(Default)]
pub struct JapanskWhist;

const SEATS: usize = 2;
const TABLE: seat::Table = seat::Table { seats: SEATS, direction: Direction::Clockwise };
const PILES: usize = 10;
const HAND: usize = 6;
const TRICKS: usize = 26;
/// Half the tricks: only those beyond it score.
const HALF: u32 = 13;
pub const DEFAULT_TARGET: i64 = 13;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const TRUMP_ONLY: &str = "japansk-whist.trump.trump-only";

    pub const FIRST_LEAD: &str = "japansk-whist.play.first-lead";
    pub const FIRST_ANSWER: &str = "japansk-whist.play.first-answer";
    pub const SOURCES: &str = "japansk-whist.play.sources";
    pub const FOLLOW_SUIT: &str = "japansk-whist.play.follow-suit";

    pub const ODD_TRICKS: &str = "japansk-whist.score.odd-tricks";
    pub const EVEN: &str = "japansk-whist.score.even";
    pub const LOSER_NOTHING: &str = "japansk-whist.score.loser-nothing";

    pub const DEFENDER_DOUBLE: &str = "japansk-whist.variant.defender-double";
    pub const PASS: &str = "japansk-whist.variant.pass";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The text's variant: a winning defender (the dealer) scores two points per odd trick.
    pub defender_double: bool,
    /// The text's variant: forehand may choose pass (misère) or sang (no trumps) as well.
    pub pass_and_sang: bool,
    /// The score that wins the match.
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub target: i64,
}

impl Default for Options {
    fn default() -> Options {
        Options { defender_double: false, pass_and_sang: false, target: DEFAULT_TARGET }
    }
}

/// What forehand chose the deal to be played as.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Contract {
    /// Take as many tricks as possible with this suit as trumps.
    Trump { suit: Suit },
    /// Take as many tricks as possible without trumps.
    Sang,
    /// Misère: take as few tricks as possible, without trumps.
    Pass,
}

impl Contract {
    pub fn trumps(self) -> Option<Suit> {
        match self {
            Contract::Trump { suit } => Some(suit),
            _ => None,
        }
    }

    fn name(self) -> (String, String) {
        match self {
            Contract::Trump { suit } => {
                (format!("trumfspel i {}", suit.name_sv()), format!("a trump game in {}", suit.name_en()))
            }
            Contract::Sang => ("sang".into(), "sang (no trumps)".into()),
            Contract::Pass => ("pass".into(), "pass (misère)".into()),
        }
    }

    fn command(self) -> Command {
        match self {
            Contract::Trump { suit } => Command::ChooseTrump { suit },
            Contract::Sang => Command::ChooseSang,
            Contract::Pass => Command::ChoosePass,
        }
    }
}

/// What forehand may choose from: a trump suit, or with the variant pass or sang as well.
fn choices(pass_and_sang: bool) -> Vec<Contract> {
    let mut choices: Vec<Contract> = Suit::ALL.iter().map(|&suit| Contract::Trump { suit }).collect();
    if pass_and_sang {
        choices.extend([Contract::Sang, Contract::Pass]);
    }
    choices
}

// ---------------------------------------------------------------------------------------------
// State

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pile {
    /// The face-down card, until it is turned up.
    hidden: Option<Card>,
    /// The open card on top; `None` once played (and, between its play and the end of the
    /// trick, while the card beneath still lies face down).
    open: Option<Card>,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    /// Kept outside the play, whose hands are the six hand cards only.
    piles: [Vec<Pile>; SEATS],
    picked_up: bool,
    /// Chosen by forehand; until then no card is played.
    contract: Option<Contract>,
    play: TrickPlay,
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    deals: Deals<Deal>,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        self.play.to_act_after(self.contract.is_none().then(|| vec![self.forehand()]))
    }

    fn is_live(&self) -> bool {
        !self.play.is_over()
    }

    fn phase(&self) -> Phase {
        self.play.stage(self.contract.is_none().then_some(Phase::ChoosingTrump), Phase::Playing, Phase::DealOver)
    }
}

impl Deal {
    fn forehand(&self) -> Seat {
        TABLE.forehand(self.dealer)
    }

    fn trumps(&self) -> Option<Suit> {
        self.contract.and_then(Contract::trumps)
    }

    fn winner(&self) -> impl Fn(&Trick) -> (Seat, Card, WinReason) {
        let trumps = self.trumps();
        move |t| trick::winner(t, trumps)
    }

    fn open_cards(&self, seat: Seat) -> Vec<Card> {
        self.piles[seat].iter().filter_map(|p| p.open).collect()
    }

    /// The cards a seat may play from: its open cards, and its hand once picked up.
    fn available(&self, seat: Seat) -> Vec<Card> {
        let mut cards = self.open_cards(seat);
        if self.picked_up {
            cards.extend_from_slice(&self.play.hands[seat]);
        }
        cards
    }

    fn legal(&self, seat: Seat) -> Vec<Card> {
        trick::distinct(trick::follow_suit(&self.available(seat), &self.play.trick))
    }

    fn source_of(&self, seat: Seat, card: Card) -> Option<Source> {
        if let Some(pile) = self.piles[seat].iter().position(|p| p.open == Some(card)) {
            return Some(Source::Pile { pile });
        }
        self.play.hands[seat].contains(&card).then_some(Source::Hand)
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    ChooseTrump {
        suit: Suit,
    },
    /// Only with the option `pass_and_sang`.
    ChooseSang,
    /// Only with the option `pass_and_sang`.
    ChoosePass,
    /// An open card from one of one's piles, or a card from the hand once it is picked up.
    Play {
        card: Card,
    },
}

/// One pile as it was dealt: a face-down card with an open card on top.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealtPile {
    pub hidden: Card,
    pub open: Card,
}

/// Where a played card came from.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    Pile { pile: usize },
    Hand,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from. Until the deal is over only the open cards are shown:
    /// the face-down cards and the hands are `null` for everyone.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Each seat's ten piles, in the order they were laid out.
        piles: [Vec<DealtPile>; SEATS],
        /// Each seat's six hand cards, sorted by suit and rank.
        hands: [Vec<Card>; SEATS],
        scores: [i64; SEATS],
        options: Options,
    },
    ContractChosen {
        forehand: Seat,
        contract: Contract,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
        from: Source,
        trick_number: u32,
    },
    TrickWon {
        trick_number: u32,
        winner: Seat,
        card: Card,
        reason: WinReason,
        plays: Vec<Play>,
    },
    /// The face-down card of a pile whose open card went to the finished trick.
    PileTurnedUp {
        seat: Seat,
        pile: usize,
        card: Card,
    },
    /// After the first trick both players pick up their six cards; each sees only their own.
    HandsPickedUp {
        hands: [Vec<Card>; SEATS],
    },
    DealScored {
        deal_number: u32,
        contract: Contract,
        dealer: Seat,
        forehand: Seat,
        tricks_taken: [u32; SEATS],
        /// The seat that won the deal; on 13 tricks each, the dealer.
        winner: Seat,
        terms: Vec<ScoreTerm>,
        points: [i64; SEATS],
        scores: [i64; SEATS],
    },
    MatchEnded {
        winner: Seat,
        scores: [i64; SEATS],
        target: i64,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Setup and deal

/// How the pack is laid out (house rule): the first ten cards face down on forehand's piles,
/// the next ten face down on the dealer's, then the open cards in the same way, and last the
/// hands three at a time, forehand first.
pub fn lay_out(dealer: Seat, deck: &[Card]) -> ([Vec<DealtPile>; SEATS], [Vec<Card>; SEATS]) {
    let forehand = TABLE.forehand(dealer);
    let order = [forehand, dealer];
    let mut piles: [Vec<DealtPile>; SEATS] = Default::default();
    for (k, &seat) in order.iter().enumerate() {
        piles[seat] = (0..PILES)
            .map(|i| DealtPile { hidden: deck[k * PILES + i], open: deck[2 * PILES + k * PILES + i] })
            .collect();
    }
    let mut hands: [Vec<Card>; SEATS] = Default::default();
    for (i, &card) in deck[4 * PILES..].iter().enumerate() {
        hands[order[(i / 3) % 2]].push(card);
    }
    (piles, hands.map(sorted))
}

// ---------------------------------------------------------------------------------------------
// Decide

fn check_play(deal: &Deal, seat: Seat, card: Card) -> Result<Source, RuleViolation> {
    let Some(source) = deal.source_of(seat, card) else {
        return Err(RuleViolation::new(
            rule::SOURCES,
            format!("{card} är inte ett av dina öppna kort och inte heller ett kort på din hand."),
            format!("{card} is neither one of your open cards nor a card in your hand."),
        ));
    };
    if source == Source::Hand && !deal.picked_up {
        let rule = if deal.play.trick.is_empty() { rule::FIRST_LEAD } else { rule::FIRST_ANSWER };
        return Err(RuleViolation::new(
            rule,
            "Första sticket spelas med öppna kort från bordet; handen tas upp först när det är färdigt.",
            "The first trick is played with open cards from the table; the hand is picked up only once it is complete.",
        ));
    }
    if let Some(led) = deal.play.trick.led_suit() {
        if !card.is_suit(led) && deal.available(seat).iter().any(|c| c.is_suit(led)) {
            return Err(RuleViolation::new(
                rule::FOLLOW_SUIT,
                format!(
                    "Du lade {card} men har {} bland dina öppna kort eller på handen och måste bekänna färg.",
                    led.name_sv()
                ),
                format!(
                    "You played {card} but have {} among your open cards or in your hand and must follow suit.",
                    led.name_en()
                ),
            ));
        }
    }
    Ok(source)
}

fn decide_choose(state: &State, deal: &Deal, seat: Seat, contract: Contract) -> Result<Vec<Event>, RuleViolation> {
    if deal.contract.is_some() {
        return Err(RuleViolation::wrong_phase("trumfen är redan vald", "trumps have already been chosen"));
    }
    if contract.trumps().is_none() && !state.options.pass_and_sang {
        return Err(RuleViolation::new(
            rule::TRUMP_ONLY,
            "Utan tillvalet pass_and_sang måste förhand välja en trumffärg.",
            "Without the option pass_and_sang forehand must choose a trump suit.",
        ));
    }
    Ok(vec![Event::ContractChosen { forehand: seat, contract }])
}

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if deal.contract.is_none() {
        return Err(RuleViolation::wrong_phase("förhand har inte valt trumf än", "forehand has not chosen trumps yet"));
    }
    let from = check_play(deal, seat, card)?;
    let trick_number = deal.play.number() as u32;
    let mut events = vec![Event::CardPlayed { seat, card, from, trick_number }];
    let Some(won) = deal.play.completed_by(seat, card, &deal.winner()) else { return Ok(events) };
    let (winner, card, reason) = (won.winner, won.card, won.reason);
    events.push(Event::TrickWon { trick_number, winner, card, reason, plays: won.plays });
    // The piles emptied in earlier tricks were turned up when those tricks ended: only the
    // piles played from in this one still wait, the one of this card included.
    let now = if let Source::Pile { pile } = from { Some((seat, pile)) } else { None };
    for (s, piles) in deal.piles.iter().enumerate() {
        for (pile, p) in piles.iter().enumerate() {
            if let Some(card) = p.hidden.filter(|_| p.open.is_none() || now == Some((s, pile))) {
                events.push(Event::PileTurnedUp { seat: s, pile, card });
            }
        }
    }
    if trick_number == 1 {
        events.push(Event::HandsPickedUp { hands: std::array::from_fn(|s| deal.play.hands[s].clone()) });
    }
    if won.last {
        events.extend(score_deal(state, deal, [won.taken[0], won.taken[1]]));
    }
    Ok(events)
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// The deal's winner and its score terms: the winner scores, the loser gets a zero term saying
/// why. `tricks` are the tricks each seat took, 26 in all.
pub fn score_terms(
    contract: Contract,
    dealer: Seat,
    tricks: [u32; SEATS],
    defender_double: bool,
) -> (Seat, Vec<ScoreTerm>) {
    let more = if tricks[0] > tricks[1] { 0 } else { 1 };
    // In pass the one with fewer tricks wins, otherwise the one with more.
    let w = if contract == Contract::Pass { TABLE.next(more) } else { more };
    let (t, odd) = (tricks[w], i64::from(tricks[w]) - i64::from(HALF));
    let (winner, points, rule, sv, en) = if tricks[0] == tricks[1] {
        (
            dealer,
            1,
            rule::EVEN,
            format!("Det blev 13 stick var, och given (plats {dealer}), som försvarade, får 1 poäng."),
            format!("Each took 13 tricks, so the dealer (seat {dealer}), who defended, scores 1 point."),
        )
    } else if contract == Contract::Pass {
        (
            w,
            -odd,
            rule::PASS,
            format!("I pass tog plats {w} bara {t} stick: 13 − {t} = {} poäng.", -odd),
            format!("In pass seat {w} took only {t} tricks: 13 − {t} = {} points.", -odd),
        )
    } else if w == dealer && defender_double {
        (
            w,
            2 * odd,
            rule::DEFENDER_DOUBLE,
            format!("Given (plats {w}) försvarade och vann med {t} stick: 2 × ({t} − 13) = {} poäng.", 2 * odd),
            format!("The dealer (seat {w}) defended and won with {t} tricks: 2 × ({t} − 13) = {} points.", 2 * odd),
        )
    } else {
        let (sv, en) = if w == dealer { ("given", "the dealer") } else { ("förhand", "forehand") };
        (
            w,
            odd,
            rule::ODD_TRICKS,
            format!("Plats {w} ({sv}) tog {t} stick: {t} − 13 = {odd} poäng, en per trick."),
            format!("Seat {w} ({en}) took {t} tricks: {t} − 13 = {odd} points, one per odd trick."),
        )
    };
    let loser = TABLE.next(winner);
    let ((csv, cen), t) = (contract.name(), tricks[loser]);
    let terms = vec![
        ScoreTerm::new(winner, points, rule, sv, en),
        ScoreTerm::new(
            loser,
            0,
            rule::LOSER_NOTHING,
            format!("Plats {loser} tog {t} stick och förlorade given ({csv}): inga poäng."),
            format!("Seat {loser} took {t} tricks and lost the deal ({cen}): no points."),
        ),
    ];
    (winner, terms)
}

fn score_deal(state: &State, deal: &Deal, tricks_taken: [u32; SEATS]) -> Vec<Event> {
    let contract = deal.contract.expect("a deal is played only once its contract is chosen");
    let (winner, terms) = score_terms(contract, deal.dealer, tricks_taken, state.options.defender_double);
    let (points, scores) = state.deals.tally(&terms);
    let (dealer, forehand, deal_number, target) = (deal.dealer, deal.forehand(), deal.number, state.options.target);
    let scored =
        Event::DealScored { deal_number, contract, dealer, forehand, tricks_taken, winner, terms, points, scores };
    // Only the deal's winner scores, so only it can have reached the target.
    if scores[winner] < target {
        return vec![scored];
    }
    let other = TABLE.next(winner);
    let explanation = deals::seat_reached_target(winner, scores[winner], other, scores[other], target);
    vec![scored, Event::MatchEnded { winner, scores, target, explanation }]
}

// ---------------------------------------------------------------------------------------------
// The table view

/// Where the match is: `waiting-for-deal` before the first deal, `choosing-trump` while forehand
/// chooses the contract, `playing` the tricks, `deal-over` once the deal is scored and the next is
/// awaited, `finished` once a player has won the match.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No deal has been dealt yet.
    WaitingForDeal,
    /// Forehand chooses what the deal is played as (trumps, or with the variant pass or sang).
    ChoosingTrump,
    /// The 26 tricks are being played.
    Playing,
    /// The deal is played out and scored; the next deal is awaited.
    DealOver,
    /// A player reached the target and won the match.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// The table as one viewer sees it: the match, and from the first deal on the deal being played
/// (or the last one played). Everyone sees the open cards of the piles; a seat sees its own
/// hand once the hands are picked up; a finished deal's record shows every card. The hands of the
/// play (`hand`, `hands`, `hand_sizes`) are the six hand cards only, the piles apart.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, scores, who is to act, how it ended.
    #[serde(flatten)]
    pub deals: MatchView,

    /// The options the match is played with.
    pub options: Options,
    /// The score that wins the match.
    pub target: i64,
    /// The seat that won the match: null until the match is over.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winner: Option<Seat>,
    /// The deal's forehand, who chooses the contract: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The deal's defender, the dealer: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub defender: Option<Seat>,
    /// What forehand chose the deal to be played as: null until chosen, absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<Option<Contract>>,
    /// The trump suit: null until the contract is chosen and in a contract without trumps (sang,
    /// pass), absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trump: Option<Option<Suit>>,
    /// Each seat's ten piles, by seat then pile: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub piles: Option<Vec<Vec<PileView>>>,
    /// Whether the players have picked up their hand cards (they do once the first trick is
    /// done): absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands_picked_up: Option<bool>,
    /// The pack as it was dealt, top card first: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// The card play of the deal, its hands being the six hand cards only: absent before the
    /// first deal.
    #[serde(flatten)]
    pub play: PlayView,
    /// The viewer's own hand cards: null until the hands are picked up (not even the owner has
    /// seen them before); only in a seat's view, from the first deal on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Option<Vec<Card>>>,
}

/// One pile on the table: an open card on a face-down one.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct PileView {
    /// The open card on top: null once played.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub open: Option<Card>,
    /// Whether a card still lies face down in the pile (until it is turned up).
    pub face_down: bool,
    /// The face-down card, null once turned up: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<Option<Card>>,
}

// ---------------------------------------------------------------------------------------------
// The bot

/// Forehand's choice from the open cards it can see: the suit where its own open cards are
/// strongest against the dealer's; with the variant, pass when its open cards are much the
/// weaker, sang when no suit stands out and its cards are the stronger.
fn basic_contract(deal: &Deal, seat: Seat, options: &Options) -> Contract {
    let strength = |s: Seat, suit: Option<Suit>| -> i32 {
        let counted = deal.open_cards(s).into_iter().filter(|c| suit.is_none_or(|t| c.is_suit(t)));
        counted.map(|c| i32::from(rank_value(c)) + if suit.is_some() { 4 } else { 0 }).sum()
    };
    let dealer = TABLE.next(seat);
    let edge = |suit: Suit| strength(seat, Some(suit)) - strength(dealer, Some(suit));
    let best = Suit::ALL.into_iter().max_by_key(|&suit| (edge(suit), suit)).expect("four suits");
    let (mine, theirs) = (strength(seat, None), strength(dealer, None));
    match options.pass_and_sang {
        true if mine + 15 < theirs => Contract::Pass,
        true if edge(best) < 5 && mine > theirs => Contract::Sang,
        _ => Contract::Trump { suit: best },
    }
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for JapanskWhist {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "japansk-whist";
    const PLAYERS: RangeInclusive<usize> = SEATS..=SEATS;
    const RULEBOOK: &'static str = include_str!("rulebooks/japansk-whist.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        let plain = Options::default();
        vec![
            plain.clone(),
            Options { defender_double: true, pass_and_sang: true, ..plain.clone() },
            Options { pass_and_sang: true, target: 7, ..plain },
        ]
    }

    fn setup(&self, _players: usize, options: Options) -> Result<State, SetupError> {
        deals::check_target(options.target)?;
        Ok(State { options, deals: Deals::new(SEATS) })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let (piles, hands) = lay_out(dealer, &deck);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: TABLE.forehand(dealer),
            deck,
            piles,
            hands,
            scores: [state.deals.scores[0], state.deals.scores[1]],
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        let contract = match *command {
            Command::ChooseTrump { suit } => Contract::Trump { suit },
            Command::ChooseSang => Contract::Sang,
            Command::ChoosePass => Contract::Pass,
            Command::Play { card } => return decide_play(state, deal, seat, card),
        };
        decide_choose(state, deal, seat, contract)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, deck, piles, hands, scores, options, .. } => {
                state.options = options.clone();
                state.deals.next_dealer = TABLE.next(*dealer);
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    piles: piles
                        .clone()
                        .map(|ps| ps.iter().map(|p| Pile { hidden: Some(p.hidden), open: Some(p.open) }).collect()),
                    picked_up: false,
                    contract: None,
                    play: TrickPlay::new(TABLE, hands.to_vec(), TABLE.forehand(*dealer), TRICKS),
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { terms, scores, .. } => state.deals.scored(terms, scores),
            Event::MatchEnded { winner, explanation, .. } => state.deals.ended(&[*winner], explanation),
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                match *event {
                    Event::ContractChosen { contract, .. } => deal.contract = Some(contract),
                    Event::CardPlayed { seat, card, from: Source::Pile { pile }, .. } => {
                        if let Some(p) = deal.piles[seat].get_mut(pile) {
                            p.open = None;
                        }
                        deal.play.play_outside(seat, card);
                    }
                    Event::CardPlayed { seat, card, from: Source::Hand, .. } => deal.play.play(seat, card),
                    Event::TrickWon { winner, card, reason, .. } => deal.play.won(winner, card, reason),
                    Event::PileTurnedUp { seat, pile, card } => {
                        if let Some(p) = deal.piles[seat].get_mut(pile) {
                            *p = Pile { hidden: None, open: Some(card) };
                        }
                    }
                    Event::HandsPickedUp { .. } => deal.picked_up = true,
                    _ => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        match deal.contract {
            None => choices(state.options.pass_and_sang).into_iter().map(Contract::command).collect(),
            Some(_) => deal.legal(seat).into_iter().map(|card| Command::Play { card }).collect(),
        }
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        let plays = decks::standard52().into_iter().map(|card| Command::Play { card });
        choices(true).into_iter().map(Contract::command).chain(plays).collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(SEATS);
        let record = viewer == Viewer::Record;
        let deal = state.deals.deal.as_ref();
        let pile =
            |p: &Pile| PileView { open: p.open, face_down: p.hidden.is_some(), hidden: record.then_some(p.hidden) };
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, SEATS, deal.map(|d| d.dealer)),
            options: state.options.clone(),
            target: state.options.target,
            winner: state.deals.outcome.as_ref().map(|o| o.winners[0]),
            forehand: deal.map(Deal::forehand),
            defender: deal.map(|d| d.dealer),
            contract: deal.map(|d| d.contract),
            trump: deal.map(Deal::trumps),
            piles: deal.map(|d| d.piles.iter().map(|ps| ps.iter().map(pile).collect()).collect()),
            hands_picked_up: deal.map(|d| d.picked_up),
            deck: deal.filter(|_| record).map(|d| d.deck.clone()),
            play: deal.map(|d| d.play.view(record)).unwrap_or_default(),
            // Before the pick-up not even the owner has seen the hand.
            hand: deal.zip(me).map(|(d, s)| d.picked_up.then(|| d.play.hands[s].clone())),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if viewer == Viewer::Record || deal_over {
            return full;
        }
        let live = state.deals.live();
        match event {
            // Without a live deal of its own, the event belongs to a deal that is over.
            Event::DealStarted { deal_number, piles, .. } if live.is_some_and(|d| d.number == *deal_number) => {
                full["deck"] = Value::Null;
                full["hands"] = json!([null, null]);
                full["hand_sizes"] = json!([HAND, HAND]);
                full["piles"] = json!(piles
                    .iter()
                    .map(|ps| ps.iter().map(|p| json!({ "hidden": null, "open": p.open })).collect::<Vec<_>>())
                    .collect::<Vec<_>>());
            }
            Event::HandsPickedUp { hands } if live.is_some() => {
                full["hands"] = Value::Array(
                    (0..SEATS).map(|s| if viewer == Viewer::Seat(s) { json!(hands[s]) } else { Value::Null }).collect(),
                );
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        // The hidden cards are known to nobody, and the hands only to their owners once picked up.
        let hidden = deal.piles.iter().flatten().filter_map(|p| p.hidden).map(|c| (c, Vec::new()));
        let hands = deal.play.hand_secrets(|_, _| false).into_iter();
        hidden.chain(hands.map(|(c, owner)| (c, if deal.picked_up { owner } else { Vec::new() }))).collect()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let (scores, target) = (&state.deals.scores, state.options.target);
        if let Some(o) = &state.deals.outcome {
            let won = matches!(o.winners[..], [w] if scores[w] >= target && scores[TABLE.next(w)] < target);
            ensure!(won, "winners {:?} with scores {scores:?} and target {target}", o.winners);
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        ensure!(deal.piles.iter().all(|ps| ps.len() == PILES), "a seat has other than ten piles");
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let on_table: Vec<Vec<Card>> =
            deal.piles.iter().map(|ps| ps.iter().flat_map(|p| [p.hidden, p.open]).flatten().collect()).collect();
        // Each seat has a card for every trick, in its hand or on its piles.
        deal.play.check(&pack, &on_table.concat(), |s| TRICKS - on_table[s].len(), &deal.winner())?;
        let played = deal.play.tricks.len();
        // The pick-up follows the first trick's last card within the same decision.
        let in_step = if deal.picked_up { played > 0 } else { played <= 1 };
        ensure!(in_step, "hands picked up: {} after {played} tricks", deal.picked_up);
        for s in 0..SEATS {
            ensure!(deal.picked_up || deal.play.hands[s].len() == HAND, "seat {s} played from a hand not picked up");
            // A seat plays one card a trick, so at most one pile waits for its hidden card.
            let bare = deal.piles[s].iter().filter(|p| p.hidden.is_some() && p.open.is_none()).count();
            ensure!(bare <= 1, "seat {s} has {bare} piles whose hidden card should have been turned up");
        }
        let started = deal.contract.is_some() || deal.play.played().next().is_none();
        ensure!(started, "cards were played before the contract was chosen");
        let leader = deal.play.first_leader();
        ensure!(leader == deal.forehand(), "seat {leader} led the first trick instead of forehand");
        Ok(())
    }

    /// The test bot: the basic bot with some noise, so that random matches see every contract
    /// and many kinds of play.
    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let mut rng = Rng::new(seed);
        let choices = choices(state.options.pass_and_sang);
        let legal = deal.legal(seat);
        Some(match deal.contract {
            None if rng.below(4) == 0 => choices[rng.below(choices.len())].command(),
            Some(_) if rng.below(5) == 0 => Command::Play { card: legal[rng.below(legal.len())] },
            _ => return self.basic_move(state, seat, &mut rng),
        })
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let Some(contract) = deal.contract else { return Some(basic_contract(deal, seat, &state.options).command()) };
        let aim = if contract == Contract::Pass { Aim::Duck } else { Aim::Take };
        let (trick, last) = (&deal.play.trick, !deal.play.trick.is_empty());
        bots::basic_card(&deal.legal(seat), trick, deal.trumps(), seat, None, last, aim)
            .map(|card| Command::Play { card })
    }

    /// The deal as `seat` knows it: the open cards, the cards played and its own hand once picked
    /// up; the face-down cards and the hands it has not seen dealt afresh. A seat that failed to
    /// follow after the pick-up has shown its hand lacks that suit.
    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        let mut world = state.clone();
        let deal = world.deals.live_mut()?;
        let other = TABLE.next(seat);
        let hands: Vec<Seat> = if deal.picked_up { vec![other] } else { vec![seat, other] };
        let mut seen: Vec<Card> = deal.piles.iter().flatten().filter_map(|p| p.open).collect();
        seen.extend(deal.play.played().map(|(_, c)| c));
        if deal.picked_up {
            seen.extend(&deal.play.hands[seat]);
        }
        let pool: Vec<Card> = decks::standard52().into_iter().filter(|c| !seen.contains(c)).collect();
        let (after, table) = (deal.play.tricks.get(1..).unwrap_or_default(), Trick::led_by(other));
        let void = bots::voids(SEATS, after, if deal.picked_up { &deal.play.trick } else { &table });
        let hidden: Vec<(Seat, usize)> = (0..SEATS)
            .flat_map(|s| (0..PILES).map(move |i| (s, i)))
            .filter(|&(s, i)| deal.piles[s][i].hidden.is_some())
            .collect();
        let mut sizes: Vec<(usize, [bool; 4])> = hands.iter().map(|&s| (deal.play.hands[s].len(), void[s])).collect();
        sizes.extend(hidden.iter().map(|_| (1, [false; 4])));
        let mut dealt = bots::redeal(&pool, &sizes, rng).into_iter();
        for &s in &hands {
            deal.play.hands[s] = sorted(dealt.next()?);
        }
        for ((s, i), card) in hidden.into_iter().zip(dealt) {
            deal.piles[s][i].hidden = card.first().copied();
        }
        Some(world)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        (state.deals.scores[seat] - state.deals.scores[TABLE.next(seat)]) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::is_permutation;
    use crate::cards::{card, cards};
    use crate::game::Status;
    use crate::game::{cards_in, erase};
    use crate::rules::core;
    use crate::simulate::{play_match, Checks, Driver};

    type M = Driver<JapanskWhist>;

    // Forehand (seat 1 in the first deal) and the dealer (seat 0): open cards, the hidden cards
    // under them pile by pile, and the hands.
    const F_OPEN: &str = "AH KH 2C 3C 4C 5C 6C 7C 8C 9C";
    const F_HIDDEN: &str = "TC JC QC KC AC 2D 3D 4D 5D 6D";
    const F_HAND: &str = "7D 8D 9D TD JD QD";
    const D_OPEN: &str = "QH JH 2S 3S 4S 5S 6S 7S 8S 9S";
    const D_HIDDEN: &str = "TS JS QS KS AS 3H 4H 5H 6H 7H";
    const D_HAND: &str = "8H 9H TH 2H KD AD";

    /// The pack that `lay_out` turns into the layout above.
    fn deck() -> Vec<Card> {
        let (fh, dh) = (cards(F_HAND), cards(D_HAND));
        let mut deck = cards(F_HIDDEN);
        deck.extend(cards(D_HIDDEN));
        deck.extend(cards(F_OPEN));
        deck.extend(cards(D_OPEN));
        deck.extend(&fh[..3]);
        deck.extend(&dh[..3]);
        deck.extend(&fh[3..]);
        deck.extend(&dh[3..]);
        assert!(is_permutation(&deck, &decks::standard52()));
        deck
    }

    fn with(options: Value) -> M {
        let mut m = M::new(2, serde_json::from_value(options).unwrap());
        m.deal(deck());
        m
    }

    fn play(code: &str) -> Command {
        Command::Play { card: card(code) }
    }

    fn rule_of(m: &M, seat: Seat, command: Command) -> String {
        let v = m.refused(seat, command);
        assert!(!v.explanation.sv.is_empty() && !v.explanation.en.is_empty());
        v.rule
    }

    fn hearts(m: &mut M) {
        m.ok(1, Command::ChooseTrump { suit: Suit::Hearts });
    }

    fn view(m: &M, viewer: Viewer) -> Value {
        serde_json::to_value(m.rules.view(&m.state, viewer)).unwrap()
    }

    #[test]
    fn each_player_gets_ten_piles_of_a_hidden_and_an_open_card_and_six_hand_cards() {
        let (piles, hands) = lay_out(0, &deck());
        assert_eq!(piles[1].iter().map(|p| p.open).collect::<Vec<_>>(), cards(F_OPEN));
        assert_eq!(piles[1].iter().map(|p| p.hidden).collect::<Vec<_>>(), cards(F_HIDDEN));
        assert_eq!(piles[0].iter().map(|p| p.open).collect::<Vec<_>>(), cards(D_OPEN));
        assert_eq!(piles[0].iter().map(|p| p.hidden).collect::<Vec<_>>(), cards(D_HIDDEN));
        assert_eq!(hands[1], sorted(cards(F_HAND)));
        assert_eq!(hands[0], sorted(cards(D_HAND)));
        let m = with(json!({}));
        let v = view(&m, Viewer::Seat(1));
        assert_eq!(v["hand_sizes"], json!([6, 6]));
        assert_eq!(v["piles"][0][0], json!({ "open": "QH", "face_down": true }));
        assert_eq!(v["forehand"], json!(1));
        assert_eq!(v["defender"], json!(0));
    }

    #[test]
    fn forehand_chooses_trumps_and_in_the_basic_game_only_a_suit() {
        let mut m = with(json!({}));
        assert_eq!(m.to_act(), vec![1]);
        assert_eq!(rule_of(&m, 0, Command::ChooseTrump { suit: Suit::Spades }), core::TURN);
        assert_eq!(rule_of(&m, 1, Command::ChooseSang), rule::TRUMP_ONLY);
        assert_eq!(rule_of(&m, 1, Command::ChoosePass), rule::TRUMP_ONLY);
        assert_eq!(rule_of(&m, 1, play("AH")), core::PHASE);
        assert_eq!(m.legal(1).len(), 4);
        let events = m.ok(1, Command::ChooseTrump { suit: Suit::Hearts });
        assert_eq!(
            events,
            vec![Event::ContractChosen { forehand: 1, contract: Contract::Trump { suit: Suit::Hearts } }]
        );
        assert_eq!(view(&m, Viewer::Spectator)["trump"], json!("hearts"));
    }

    #[test]
    fn with_the_variant_forehand_may_choose_pass_or_sang() {
        let mut m = with(json!({ "pass_and_sang": true }));
        assert_eq!(m.legal(1).len(), 6);
        m.ok(1, Command::ChooseSang);
        assert_eq!(m.state.deals.deal.as_ref().unwrap().trumps(), None);
    }

    #[test]
    fn the_first_trick_is_played_with_open_cards_and_the_hands_are_unseen_until_it_is_done() {
        let mut m = with(json!({}));
        hearts(&mut m);
        // Before the pick-up nobody, the owner included, may know a hand card.
        for (card, knowers) in m.rules.secrets(&m.state) {
            assert!(knowers.is_empty(), "{card} is known to {knowers:?}");
        }
        assert_eq!(view(&m, Viewer::Seat(1))["hand"], Value::Null);
        assert_eq!(rule_of(&m, 1, play("7D")), rule::FIRST_LEAD);
        assert_eq!(rule_of(&m, 1, play("TC")), rule::SOURCES);
        assert_eq!(m.legal(1).len(), 10);
        m.ok(1, play("AH"));
        // The dealer follows suit from the open cards alone: the hand is not yet seen.
        assert_eq!(m.legal(0), vec![play("JH"), play("QH")]);
        assert_eq!(rule_of(&m, 0, play("8H")), rule::FIRST_ANSWER);
        assert_eq!(rule_of(&m, 0, play("2S")), rule::FOLLOW_SUIT);
        let events = m.ok(0, play("JH"));
        assert_eq!(
            events,
            vec![
                Event::CardPlayed { seat: 0, card: card("JH"), from: Source::Pile { pile: 1 }, trick_number: 1 },
                Event::TrickWon {
                    trick_number: 1,
                    winner: 1,
                    card: card("AH"),
                    reason: WinReason::HighestTrump,
                    plays: vec![Play { seat: 1, card: card("AH") }, Play { seat: 0, card: card("JH") }],
                },
                Event::PileTurnedUp { seat: 0, pile: 1, card: card("JS") },
                Event::PileTurnedUp { seat: 1, pile: 0, card: card("TC") },
                Event::HandsPickedUp { hands: [sorted(cards(D_HAND)), sorted(cards(F_HAND))] },
            ]
        );
        assert_eq!(view(&m, Viewer::Seat(1))["hand"], json!(sorted(cards(F_HAND))));
        assert_eq!(view(&m, Viewer::Seat(0))["hand"], json!(sorted(cards(D_HAND))));
        let secrets = m.rules.secrets(&m.state);
        assert!(secrets.contains(&(card("7D"), vec![1])));
        assert!(secrets.contains(&(card("AD"), vec![0])));
        assert!(secrets.contains(&(card("KC"), vec![])));
        let redacted = m.rules.redact(&m.state, m.log.last().unwrap(), Viewer::Seat(0), false);
        assert_eq!(redacted["hands"][1], Value::Null);
        assert_eq!(redacted["hands"][0], json!(sorted(cards(D_HAND))));
    }

    #[test]
    fn the_card_under_an_open_card_is_turned_up_only_when_the_trick_is_complete() {
        let mut m = with(json!({}));
        hearts(&mut m);
        m.ok(1, play("AH"));
        let v = view(&m, Viewer::Seat(1));
        assert_eq!(v["piles"][1][0], json!({ "open": null, "face_down": true }));
        assert!(!cards_in(&v).contains(&card("TC")));
        assert!(!m.log.iter().any(|e| matches!(e, Event::PileTurnedUp { .. })));
        m.ok(0, play("QH"));
        assert_eq!(view(&m, Viewer::Spectator)["piles"][1][0], json!({ "open": "TC", "face_down": false }));
        // A turned-up card is an open card like the others: it may be played.
        assert_eq!(m.to_act(), vec![1]);
        assert!(m.legal(1).contains(&play("TC")));
    }

    #[test]
    fn following_suit_counts_open_cards_and_hand_together_and_a_void_player_may_trump() {
        let mut m = with(json!({}));
        hearts(&mut m);
        m.ok(1, play("AH"));
        m.ok(0, play("JH"));
        // Forehand leads clubs; the dealer has none, open or in hand, and trumps with 2H.
        m.ok(1, play("2C"));
        let legal = m.legal(0);
        assert!(legal.contains(&play("2H")) && legal.contains(&play("KD")) && legal.contains(&play("2S")));
        let events = m.ok(0, play("2H"));
        assert!(matches!(events[1], Event::TrickWon { winner: 0, reason: WinReason::HighestTrump, .. }));
        assert_eq!(m.to_act(), vec![0]);
        // The dealer leads hearts: forehand's only heart is KH on the table, so it must go.
        m.ok(0, play("8H"));
        assert_eq!(m.legal(1), vec![play("KH")]);
        assert_eq!(rule_of(&m, 1, play("7D")), rule::FOLLOW_SUIT);
        assert_eq!(rule_of(&m, 0, play("9H")), core::TURN);
    }

    #[test]
    fn the_winner_scores_one_point_per_trick_over_thirteen() {
        let (w, terms) = score_terms(Contract::Trump { suit: Suit::Hearts }, 0, [10, 16], false);
        assert_eq!((w, terms[0].to, terms[0].points, terms[0].rule.as_str()), (1, 1, 3, rule::ODD_TRICKS));
        assert_eq!((terms[1].to, terms[1].points), (0, 0));
        let (w, terms) = score_terms(Contract::Sang, 0, [17, 9], false);
        assert_eq!((w, terms[0].points), (0, 4));
    }

    #[test]
    fn thirteen_tricks_each_give_the_dealer_one_point_even_with_the_double_variant() {
        for double in [false, true] {
            for contract in [Contract::Trump { suit: Suit::Clubs }, Contract::Sang, Contract::Pass] {
                let (w, terms) = score_terms(contract, 1, [13, 13], double);
                assert_eq!((w, terms[0].points, terms[0].rule.as_str()), (1, 1, rule::EVEN));
            }
        }
    }

    #[test]
    fn a_winning_defender_scores_two_per_trick_with_the_variant_but_forehand_still_one() {
        let trump = Contract::Trump { suit: Suit::Spades };
        assert_eq!(score_terms(trump, 0, [16, 10], false).1[0].points, 3);
        let (w, terms) = score_terms(trump, 0, [16, 10], true);
        assert_eq!((w, terms[0].points, terms[0].rule.as_str()), (0, 6, rule::DEFENDER_DOUBLE));
        assert_eq!(score_terms(trump, 0, [10, 16], true).1[0].points, 3);
    }

    #[test]
    fn in_pass_the_one_with_fewer_tricks_scores_thirteen_minus_them() {
        let (w, terms) = score_terms(Contract::Pass, 1, [4, 22], false);
        assert_eq!((w, terms[0].points, terms[0].rule.as_str()), (0, 9, rule::PASS));
        // Doubling is for trump games and sang only (house rule).
        assert_eq!(score_terms(Contract::Pass, 1, [22, 4], true).1[0].points, 9);
    }

    #[test]
    fn a_whole_deal_is_26_tricks_scored_by_the_rule_and_the_deal_alternates() {
        let mut m = with(json!({ "pass_and_sang": true, "defender_double": true }));
        m.ok(1, Command::ChoosePass);
        let events = m.finish_deal();
        let Some(Event::DealScored { tricks_taken, winner, terms, scores, contract, .. }) =
            events.iter().find(|e| matches!(e, Event::DealScored { .. }))
        else {
            panic!("no score")
        };
        assert_eq!(tricks_taken.iter().sum::<u32>(), 26);
        assert_eq!(*contract, Contract::Pass);
        assert_eq!((*winner, terms.clone()), score_terms(Contract::Pass, 0, *tricks_taken, true));
        assert_eq!(scores[*winner], terms[0].points);
        assert_eq!(m.state.deals.next_dealer, 1);
        assert!(matches!(m.rules.status(&m.state), Status::NeedsDeck { .. }));
        m.deal(deck());
        assert_eq!(m.to_act(), vec![0]);
    }

    #[test]
    fn the_first_to_thirteen_points_wins_the_match() {
        let mut m = M::new(2, Options::default());
        m.state.deals.scores = vec![12, 12];
        m.deal(deck());
        hearts(&mut m);
        let events = m.finish_deal();
        let Some(Event::MatchEnded { winner, scores, .. }) = events.last() else { panic!("no end: {events:?}") };
        assert!(scores[*winner] >= 13 && scores[1 - *winner] == 12);
        assert!(m.rules.status(&m.state).is_finished());
        assert_eq!(rule_of(&m, 0, play("2S")), core::MATCH_OVER);
    }

    #[test]
    fn the_deal_event_shows_only_the_open_cards_while_the_deal_lasts() {
        let m = with(json!({}));
        let first = m.log.first().unwrap();
        for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
            let seen = cards_in(&m.rules.redact(&m.state, first, viewer, false));
            let mut open = cards(F_OPEN);
            open.extend(cards(D_OPEN));
            assert!(is_permutation(&seen, &open), "{viewer:?} sees {seen:?}");
        }
        assert_eq!(cards_in(&m.rules.redact(&m.state, first, Viewer::Record, false)).len(), 52 + 40 + 12);
    }

    #[test]
    fn random_matches_keep_every_promise() {
        let game = erase(JapanskWhist);
        for (i, options) in
            [json!({}), json!({ "pass_and_sang": true, "defender_double": true, "target": 7 })].iter().enumerate()
        {
            for seed in 0..150 {
                play_match(game.as_ref(), 2, options, seed * 7 + i as u64, Checks::ALL)
                    .unwrap_or_else(|e| panic!("seed {seed} {options}: {e}"));
            }
        }
    }
}
