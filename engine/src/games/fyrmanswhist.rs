//! Fyrmanswhist: four players in two fixed sides, and never any trumps.
//!
//! After the deal every player secretly puts one card of their hand at the bottom of the closed
//! hand: black asks for pass (a misère deal, take as few tricks as you can), red for spel (take
//! as many as you can). The bottom cards are then shown from forehand, one at a time, until the
//! first red one: its owner is the declarer and the deal is spel; four black cards make it pass.
//! Only the side that wins a deal scores, and the first side to the target (13) wins the match.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bots;
use crate::cards::{decks, rank_value, sorted, Card, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Direction, Seat};
use crate::trick::{self, Play, PlayView, Trick, TrickPlay, WinReason};

#[derive(Default)]
pub struct Fyrmanswhist;

const SEATS: usize = 4;
const TABLE: seat::Table = seat::Table { seats: SEATS, direction: Direction::Clockwise };
const TRICKS: u8 = 13;
/// A side's first six tricks earn nothing: a deal is won with seven.
const BOOK: u8 = 6;
pub const DEFAULT_TARGET: i64 = 13;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const SHOW_FIRST_RED: &str = "fyrmanswhist.show.first-red";
    pub const SHOW_ALL_BLACK: &str = "fyrmanswhist.show.all-black";

    pub const FOLLOW_SUIT: &str = "fyrmanswhist.play.follow-suit";

    pub const SPEL_WON: &str = "fyrmanswhist.score.spel-won";
    pub const SPEL_DEFEATED: &str = "fyrmanswhist.score.spel-defeated";
    pub const PASS: &str = "fyrmanswhist.score.pass";
    pub const LOSER_NOTHING: &str = "fyrmanswhist.score.loser-nothing";

    pub const SIMULTANEOUS_DECLARER: &str = "fyrmanswhist.house.simultaneous-declarer";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The text's variant: everyone shows the bottom card at once instead of in turn.
    pub simultaneous_reveal: bool,
    /// The score that wins the match ("13, or whatever was agreed").
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub target: i64,
}

impl Default for Options {
    fn default() -> Options {
        Options { simultaneous_reveal: false, target: DEFAULT_TARGET }
    }
}

/// What a deal is played as, and what a bottom card asks for.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Contract {
    /// Take as many tricks as possible; a red bottom card asks for it.
    Spel,
    /// Take as few tricks as possible (misère); a black bottom card asks for it.
    Pass,
}

impl Contract {
    pub fn asked_by(card: Card) -> Contract {
        match card.suit() {
            Some(Suit::Hearts | Suit::Diamonds) => Contract::Spel,
            _ => Contract::Pass,
        }
    }

    /// Both languages use the Swedish words: they are the game's own terms.
    pub fn name(self) -> &'static str {
        match self {
            Contract::Spel => "spel",
            Contract::Pass => "pass",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// State

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    /// Taken from the deal's own record, so a deal replayed on its own keeps its way of showing.
    simultaneous: bool,
    bottom: [Option<Card>; SEATS],
    shown: [Option<Card>; SEATS],
    /// Settled when the showing ends; until then everyone is choosing a bottom card.
    contract: Option<Contract>,
    declarer: Option<Seat>,
    play: TrickPlay,
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    deals: Deals<Deal>,
    winning_side: Option<usize>,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        let choosing = || (0..SEATS).filter(|&s| self.bottom[s].is_none()).collect();
        self.play.to_act_after(self.contract.is_none().then(choosing))
    }

    fn is_live(&self) -> bool {
        !self.play.is_over()
    }

    fn phase(&self) -> Phase {
        let choosing = self.contract.is_none().then_some(Phase::ChoosingBottomCards);
        self.play.stage(choosing, Phase::Playing, Phase::DealOver)
    }
}

impl Deal {
    fn forehand(&self) -> Seat {
        TABLE.forehand(self.dealer)
    }

    /// Who led the first trick, once the contract is settled.
    fn first_lead(&self) -> Option<Seat> {
        self.contract.map(|_| self.play.first_leader())
    }

    fn declaring_side(&self) -> Option<usize> {
        self.declarer.map(|s| TABLE.side(s))
    }

    /// A shown bottom card while its owner still holds it: public knowledge about a hand.
    fn shown_in_hand(&self) -> [Option<Card>; SEATS] {
        std::array::from_fn(|s| self.shown[s].filter(|c| self.play.hands[s].contains(c)))
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Put this card of one's own hand at the bottom of the closed hand: black for pass, red
    /// for spel.
    ChooseBottomCard {
        card: Card,
    },
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
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's hand, sorted by suit and rank.
        hands: [Vec<Card>; SEATS],
        /// Side scores before this deal (side 0 is seats 0 and 2).
        scores: [i64; 2],
        /// The match's options, which this deal is played under.
        options: Options,
    },
    /// Which card it is, only the chooser ever sees: for everyone else, the record included, it
    /// is `null`. A card that is shown is shown by [`Event::BottomCardShown`].
    BottomCardChosen {
        seat: Seat,
        card: Card,
    },
    BottomCardShown {
        seat: Seat,
        card: Card,
        wants: Contract,
    },
    BiddingEnded {
        contract: Contract,
        /// The player who showed the red card that made it spel; `null` in pass.
        declarer: Option<Seat>,
        declaring_side: Option<usize>,
        first_lead: Seat,
        /// Seats whose bottom cards were never shown: they stay secret for ever.
        not_shown: Vec<Seat>,
        /// The rule that settled the contract.
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
        contract: Contract,
        declarer: Option<Seat>,
        declaring_side: Option<usize>,
        tricks_taken: [u8; SEATS],
        side_tricks: [u8; 2],
        /// The one side that scores: seven tricks or more in spel, fewer than seven in pass.
        winning_side: usize,
        /// The deal's score, by side, term by term.
        terms: Vec<ScoreTerm>,
        points: [i64; 2],
        /// Side scores after this deal.
        scores: [i64; 2],
    },
    MatchEnded {
        side: usize,
        winners: Vec<Seat>,
        scores: [i64; 2],
        target: i64,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Rules that are pure functions, kept apart so tests can reach them directly

/// The showing of the bottom cards: the seats that show, in order from forehand, and the
/// declarer (`None` for pass). One at a time, the showing stops at the first red card; all at
/// once, every card is shown and the first red one counted from forehand declares (house rule).
pub fn show(forehand: Seat, bottom: &[Card; SEATS], simultaneous: bool) -> (Vec<Seat>, Option<Seat>) {
    let order = TABLE.order_from(forehand);
    let declarer = order.iter().copied().find(|&s| Contract::asked_by(bottom[s]) == Contract::Spel);
    let shown = match declarer {
        Some(d) if !simultaneous => order.iter().copied().take_while(|&s| s != d).chain([d]).collect(),
        _ => order,
    };
    (shown, declarer)
}

/// Who leads to the first trick: the declarer's left in spel, forehand in pass.
pub fn first_lead(forehand: Seat, declarer: Option<Seat>) -> Seat {
    declarer.map_or(forehand, |d| TABLE.next(d))
}

/// The deal's winning side and its score terms by side: only the winner scores, but the loser
/// gets a zero term saying why.
pub fn score_terms(contract: Contract, declaring_side: Option<usize>, side_tricks: [u8; 2]) -> (usize, Vec<ScoreTerm>) {
    let (winner, points, rule, sv, en) = match (contract, declaring_side) {
        (Contract::Spel, Some(d)) if side_tricks[d] > BOOK => {
            let t = side_tricks[d];
            let p = i64::from(t - BOOK);
            let (who_sv, who_en) = seat::side_text(d);
            (
                d,
                p,
                rule::SPEL_WON,
                format!("Spelförarens {who_sv} tog {t} stick i spel: {t} − 6 = {p} poäng, en per trick."),
                format!("The declarer's {who_en} took {t} tricks in spel: {t} − 6 = {p} points, one per odd trick."),
            )
        }
        (Contract::Spel, Some(d)) => {
            let o = 1 - d;
            let t = side_tricks[o];
            let p = 2 * i64::from(t - BOOK);
            let (who_sv, who_en) = seat::side_text(o);
            (
                o,
                p,
                rule::SPEL_DEFEATED,
                format!("Motspelarna, {who_sv}, tog {t} stick mot spelet: 2 × ({t} − 6) = {p} poäng."),
                format!("The opponents, {who_en}, took {t} tricks against the spel: 2 × ({t} − 6) = {p} points."),
            )
        }
        _ => {
            let w = if side_tricks[0] < side_tricks[1] { 0 } else { 1 };
            let t = side_tricks[w];
            let p = i64::from(BOOK + 1 - t);
            let (who_sv, who_en) = seat::side_text(w);
            (
                w,
                p,
                rule::PASS,
                format!("Det blev pass och {who_sv} tog bara {t} stick: 7 − {t} = {p} poäng, en per stick under sju."),
                format!("The deal was pass and {who_en} took only {t} tricks: 7 − {t} = {p} points, one per trick under seven."),
            )
        }
    };
    let loser = 1 - winner;
    let [a, b] = seat::side_seats(loser);
    let t = side_tricks[loser];
    let terms = vec![
        ScoreTerm::new(winner, points, rule, sv, en),
        ScoreTerm::new(
            loser,
            0,
            rule::LOSER_NOTHING,
            format!(
                "Lag {loser} (plats {a} och {b}) tog {t} stick och förlorade given i {}: inga poäng.",
                contract.name()
            ),
            format!(
                "Side {loser} (seats {a} and {b}) took {t} tricks and lost the deal in {}: no points.",
                contract.name()
            ),
        ),
    ];
    (winner, terms)
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_choose(deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if deal.contract.is_some() {
        return Err(RuleViolation::wrong_phase(
            "bottenkorten är redan valda och visade, nu spelas korten",
            "the bottom cards have been chosen and shown, and the cards are being played",
        ));
    }
    deal.play.check_held(seat, card)?;
    let mut events = vec![Event::BottomCardChosen { seat, card }];
    let mut bottom = deal.bottom;
    bottom[seat] = Some(card);
    let [Some(a), Some(b), Some(c), Some(d)] = bottom else { return Ok(events) };
    let bottom = [a, b, c, d];
    let forehand = deal.forehand();
    let (shown, declarer) = show(forehand, &bottom, deal.simultaneous);
    events.extend(shown.iter().map(|&s| Event::BottomCardShown {
        seat: s,
        card: bottom[s],
        wants: Contract::asked_by(bottom[s]),
    }));
    let rule = match declarer {
        None => rule::SHOW_ALL_BLACK,
        Some(_) if deal.simultaneous => rule::SIMULTANEOUS_DECLARER,
        Some(_) => rule::SHOW_FIRST_RED,
    };
    events.push(Event::BiddingEnded {
        contract: if declarer.is_some() { Contract::Spel } else { Contract::Pass },
        declarer,
        declaring_side: declarer.map(|s| TABLE.side(s)),
        first_lead: first_lead(forehand, declarer),
        not_shown: TABLE.order_from(forehand).into_iter().filter(|s| !shown.contains(s)).collect(),
        rule: rule.to_string(),
    });
    Ok(events)
}

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if deal.contract.is_none() {
        return Err(RuleViolation::wrong_phase(
            "alla har inte valt bottenkort än; korten spelas när bottenkorten är visade",
            "not everyone has chosen a bottom card yet; the cards are played once the bottom cards are shown",
        ));
    }
    deal.play.check_held(seat, card)?;
    deal.play.check_follow(seat, card, rule::FOLLOW_SUIT)?;
    let trick_number = deal.play.number() as u8;
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
            let taken = std::array::from_fn(|s| won.taken[s] as u8);
            events.extend(score_deal(state, deal, taken));
        }
    }
    Ok(events)
}

fn score_deal(state: &State, deal: &Deal, tricks_taken: [u8; SEATS]) -> Vec<Event> {
    let contract = deal.contract.expect("a deal is played only once its contract is settled");
    let side_tricks = [tricks_taken[0] + tricks_taken[2], tricks_taken[1] + tricks_taken[3]];
    let declaring_side = deal.declaring_side();
    let (winning_side, terms) = score_terms(contract, declaring_side, side_tricks);
    let (points, scores) = state.deals.tally::<2>(&terms);
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        contract,
        declarer: deal.declarer,
        declaring_side,
        tricks_taken,
        side_tricks,
        winning_side,
        terms,
        points,
        scores,
    }];
    let target = state.options.target;
    // Only the winning side scores, so it is the only one that can have reached the target.
    if scores[winning_side] >= target {
        let side = winning_side;
        events.push(Event::MatchEnded {
            side,
            winners: seat::side_seats(side).to_vec(),
            scores,
            target,
            explanation: deals::side_reached_target(side, scores[side], scores[1 - side], target),
        });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The table view

/// Where the match is: `waiting-for-deal` before the first deal, `choosing-bottom-cards` while
/// players still choose their bottom cards, `playing` the tricks, `deal-over` once the deal is
/// scored and the next is awaited, `finished` once a side has won the match.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No deal has been dealt yet.
    WaitingForDeal,
    /// Every player still to choose a bottom card does so; the bottom cards are then shown.
    ChoosingBottomCards,
    /// The contract is settled and the thirteen tricks are being played.
    Playing,
    /// The deal is played out and scored; the next deal is awaited.
    DealOver,
    /// A side reached the target and won the match.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// The table as one viewer sees it: the match, and from the first deal on the deal being played
/// (or the last one played). A seat sees its own hand and bottom card; a finished deal's record
/// shows every hand, the deck and every trick, but never a bottom card that was not shown.
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
    /// The seats of each side, side 0 first: seats 0 and 2 against seats 1 and 3.
    pub sides: [[Seat; 2]; 2],
    /// The side that won the match: null until the match is over.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winning_side: Option<usize>,
    /// The viewer's side: only in a seat's own view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub side: Option<usize>,
    /// The deal's forehand, the seat after the dealer: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// Whether this deal's bottom cards are shown all at once rather than one at a time from
    /// forehand: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub simultaneous_reveal: Option<bool>,
    /// By seat, whether that player has chosen a bottom card: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub has_chosen: Option<[bool; SEATS]>,
    /// By seat, the bottom card that player showed, null where none was shown (a bottom card
    /// never shown stays secret, from the record too): absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub shown_bottom_cards: Option<[Option<Card>; SEATS]>,
    /// By seat, what that player's shown bottom card asked for (red spel, black pass), null where
    /// none was shown: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub wants: Option<[Option<Contract>; SEATS]>,
    /// By seat, the shown bottom card while that player still holds it (public knowledge about
    /// the hand), else null: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub shown_in_hand: Option<[Option<Card>; SEATS]>,
    /// What the deal is played as: null until the bottom cards are shown, absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<Option<Contract>>,
    /// The player whose red bottom card made the deal spel: null in pass and until the bottom
    /// cards are shown, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declarer: Option<Option<Seat>>,
    /// The declarer's side: null when there is no declarer, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declaring_side: Option<Option<usize>>,
    /// Who leads to the first trick (the declarer's left in spel, forehand in pass): null until
    /// the contract is settled, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_lead: Option<Option<Seat>>,
    /// Tricks taken in this deal by each side, side 0 first: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub side_tricks: Option<[u32; 2]>,
    /// The viewer's own bottom card, null until chosen: only in a seat's view, from the first
    /// deal on, and in a seated player's record (which shows nobody else one never shown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bottom_card: Option<Option<Card>>,
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

/// The bottom card a bot chooses: red (spel) on a hand worth `threshold` tricks on its own or
/// more, else black (pass); the lowest card of that colour, which gives least away once shown.
fn bottom_card(hand: &[Card], threshold: f64) -> Card {
    let want = if bots::estimate_tricks(hand, None, SEATS) >= threshold { Contract::Spel } else { Contract::Pass };
    let lowest = |c: Contract| {
        hand.iter().copied().filter(|&x| Contract::asked_by(x) == c).min_by_key(|&x| (rank_value(x), x.suit()))
    };
    let other = if want == Contract::Spel { Contract::Pass } else { Contract::Spel };
    lowest(want).or_else(|| lowest(other)).expect("a player chooses from a full hand")
}

/// In spel both sides want tricks; in pass both sides want to lose them.
fn basic_card(deal: &Deal, seat: Seat) -> Option<Card> {
    let aim = if deal.contract == Some(Contract::Spel) { bots::Aim::Take } else { bots::Aim::Duck };
    let last = deal.play.trick.plays.len() == SEATS - 1;
    let partner = Some(TABLE.partner(seat));
    bots::basic_card(&deal.play.following(seat), &deal.play.trick, None, seat, partner, last, aim)
}

/// An average hand holds about 2.3 tricks by `bots::estimate_tricks` without trumps.
const SPEL_THRESHOLD: f64 = 2.5;

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Fyrmanswhist {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "fyrmanswhist";
    const PLAYERS: RangeInclusive<usize> = SEATS..=SEATS;
    const RULEBOOK: &'static str = include_str!("rulebooks/fyrmanswhist.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        let sets = [(false, DEFAULT_TARGET), (true, DEFAULT_TARGET), (false, 1), (true, 5), (false, 30)];
        sets.into_iter().map(|(simultaneous_reveal, target)| Options { simultaneous_reveal, target }).collect()
    }

    fn setup(&self, _players: usize, options: Options) -> Result<State, SetupError> {
        deals::check_target(options.target)?;
        Ok(State { options, deals: Deals::new(2), winning_side: None })
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
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match *command {
            Command::ChooseBottomCard { card } => decide_choose(deal, seat, card),
            Command::Play { card } => decide_play(state, deal, seat, card),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, deck, hands, scores, options, .. } => {
                state.options = options.clone();
                state.deals.next_dealer = TABLE.next(*dealer);
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    simultaneous: options.simultaneous_reveal,
                    bottom: [None; SEATS],
                    shown: [None; SEATS],
                    contract: None,
                    declarer: None,
                    play: TrickPlay::new(TABLE, hands.to_vec(), TABLE.forehand(*dealer), TRICKS as usize),
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
                    Event::BottomCardChosen { seat, card } => deal.bottom[*seat] = Some(*card),
                    Event::BottomCardShown { seat, card, .. } => deal.shown[*seat] = Some(*card),
                    Event::BiddingEnded { contract, declarer, first_lead, .. } => {
                        deal.contract = Some(*contract);
                        deal.declarer = *declarer;
                        deal.play.trick = Trick::led_by(*first_lead);
                    }
                    Event::CardPlayed { seat, card, .. } => deal.play.play(*seat, *card),
                    Event::TrickWon { winner, card, reason, .. } => deal.play.won(*winner, *card, *reason),
                    _ => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        match deal.contract {
            None => trick::distinct(deal.play.hands[seat].clone())
                .into_iter()
                .map(|card| Command::ChooseBottomCard { card })
                .collect(),
            Some(_) => deal.play.following(seat).into_iter().map(|card| Command::Play { card }).collect(),
        }
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        let pack = decks::standard52();
        pack.iter()
            .map(|&card| Command::ChooseBottomCard { card })
            .chain(pack.iter().map(|&card| Command::Play { card }))
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
            sides: [seat::side_seats(0), seat::side_seats(1)],
            winning_side: state.winning_side,
            side: me.map(|s| TABLE.side(s)),
            forehand: deal.map(Deal::forehand),
            simultaneous_reveal: deal.map(|d| d.simultaneous),
            has_chosen: deal.map(|d| d.bottom.map(|b| b.is_some())),
            // Only shown bottom cards: one never shown stays secret, from the record too.
            shown_bottom_cards: deal.map(|d| d.shown),
            wants: deal.map(|d| d.shown.map(|c| c.map(Contract::asked_by))),
            shown_in_hand: deal.map(Deal::shown_in_hand),
            contract: deal.map(|d| d.contract),
            declarer: deal.map(|d| d.declarer),
            declaring_side: deal.map(Deal::declaring_side),
            first_lead: deal.map(Deal::first_lead),
            side_tricks: deal.map(|d| d.play.side_tricks()),
            bottom_card: mine.map(|(d, s)| d.bottom[s]),
            deck: deal.filter(|_| record).map(|d| d.deck.clone()),
            play: deal.map(|d| d.play.view(record)).unwrap_or_default(),
            hand: mine.map(|(d, s)| d.play.hands[s].clone()),
        }
    }

    /// A seated player's record shows their own bottom card, shown or not.
    fn record_view(&self, state: &State, seat: Option<Seat>) -> Value {
        let mut table = self.view(state, Viewer::Record);
        table.bottom_card = state.deals.deal.as_ref().zip(seat).map(|(d, s)| d.bottom[s]);
        serde_json::to_value(table).expect("views serialize")
    }

    // A seat's record shows what it saw at the table: its own bottom card, as its view of the
    // events once the deal is over.
    fn record_event(&self, state: &State, event: &Event, seat: Option<Seat>) -> Value {
        self.redact(state, event, seat.map_or(Viewer::Record, Viewer::Seat), true)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        match event {
            Event::BottomCardChosen { seat, .. } if viewer != Viewer::Seat(*seat) => {
                // Hidden even in the record: a bottom card that is shown is in its own event,
                // and one that never was stays its owner's secret.
                full["card"] = Value::Null;
                full["hidden"] = json!(true);
            }
            // Without a live deal of its own, the event belongs to a deal that is over.
            Event::DealStarted { deal_number, hands, .. } if state.deals.in_play(*deal_number, viewer, deal_over) => {
                deals::hide_hands(&mut full, hands, viewer)
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        // A shown bottom card is known to all to be in this hand.
        deal.play.hand_secrets(|s, card| deal.shown[s] == Some(card))
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let (scores, target) = (&state.deals.scores, state.options.target);
        state.deals.check_side_won(state.winning_side, |side| scores[side] >= target && scores[1 - side] < target)?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        deal.play.check(&pack, &[], |_| TRICKS as usize, &trick::no_trumps)?;
        for s in 0..SEATS {
            if let Some(b) = deal.bottom[s] {
                if !deal.play.hands[s].contains(&b) && !deal.play.played().any(|p| p == (s, b)) {
                    return Err(format!("seat {s}'s bottom card {b} is neither in the hand nor played by it"));
                }
            }
            if deal.shown[s].is_some() && deal.shown[s] != deal.bottom[s] {
                return Err(format!("seat {s} showed {:?} but chose {:?}", deal.shown[s], deal.bottom[s]));
            }
        }
        let shown_now: Vec<Seat> = (0..SEATS).filter(|&s| deal.shown[s].is_some()).collect();
        let Ok(bottom) = <[Card; SEATS]>::try_from(deal.bottom.iter().flatten().copied().collect::<Vec<_>>()) else {
            return match deal.contract.is_none() && shown_now.is_empty() {
                true => Ok(()),
                false => Err("cards were shown or played before every bottom card was chosen".into()),
            };
        };
        // Between the last choice and the end of the bidding, only part of the showing is done.
        let (shown, declarer) = show(deal.forehand(), &bottom, deal.simultaneous);
        let done = if deal.contract.is_some() { shown.len() } else { shown_now.len().min(shown.len()) };
        let mut expected = shown[..done].to_vec();
        expected.sort_unstable();
        let contract = if declarer.is_some() { Contract::Spel } else { Contract::Pass };
        let lead = first_lead(deal.forehand(), declarer);
        let settled = deal.contract.is_none() || (deal.contract == Some(contract) && deal.declarer == declarer);
        if shown_now != expected || !settled || deal.first_lead().is_some_and(|l| l != lead) {
            return Err(format!(
                "shown {shown_now:?}, {:?} by {:?} led by {:?}, but the bottom cards give {shown:?}, {contract:?} by \
                 {declarer:?} led by {lead}",
                deal.contract,
                deal.declarer,
                deal.first_lead()
            ));
        }
        Ok(())
    }

    /// The test bot: the basic bot with some noise, so that random matches see every kind of
    /// bottom card and play.
    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let mut rng = Rng::new(seed);
        let legal = deal.play.following(seat);
        let hand = &deal.play.hands[seat];
        match deal.contract {
            None if rng.below(6) == 0 => Some(Command::ChooseBottomCard { card: hand[rng.below(hand.len())] }),
            None => {
                let threshold = SPEL_THRESHOLD - 0.5 + 0.5 * rng.below(3) as f64;
                Some(Command::ChooseBottomCard { card: bottom_card(hand, threshold) })
            }
            Some(_) if rng.below(5) == 0 => Some(Command::Play { card: legal[rng.below(legal.len())] }),
            Some(_) => basic_card(deal, seat).map(|card| Command::Play { card }),
        }
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        match deal.contract {
            None => Some(Command::ChooseBottomCard { card: bottom_card(&deal.play.hands[seat], SPEL_THRESHOLD) }),
            Some(_) => basic_card(deal, seat).map(|card| Command::Play { card }),
        }
    }

    /// During the play, the deal as `seat` knows it: its own hand, the cards played, the shown
    /// bottom cards still held; the other hands dealt afresh and the bottom cards never shown
    /// forgotten. Before the play the strong bot chooses its bottom card as the basic one does.
    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        let deal = state.deals.live().filter(|d| d.contract.is_some())?;
        let known: Vec<(Seat, Card)> =
            deal.shown_in_hand().iter().enumerate().filter_map(|(s, c)| c.map(|c| (s, c))).collect();
        let mut world = state.clone();
        let w = world.deals.live_mut()?;
        bots::resample_play(&mut w.play, seat, &decks::standard52(), &[], &known, &mut [], rng);
        w.deck = w.play.hands.iter().flatten().copied().chain(w.play.played().map(|(_, c)| c)).collect();
        w.bottom = std::array::from_fn(|s| if s == seat { w.bottom[s] } else { w.shown[s] });
        Some(world)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let side = TABLE.side(seat);
        (state.deals.scores[side] - state.deals.scores[1 - side]) as f64
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::cards::{card, cards};
    use crate::game::Status;
    use crate::game::{cards_in, erase};
    use crate::rules::core;
    use crate::simulate::{random_matches, Driver, Plan};

    /// The shared test driver: every event taken through JSON (as it is stored) and the books
    /// checked after each one.
    type M = Driver<Fyrmanswhist>;

    use crate::simulate::four_hands as hands;

    /// Each seat holds nine cards of its own suit, ace down to six, and the four lowest of
    /// another suit: a long suit led from the top takes nine tricks.
    fn long_suits() -> [Vec<Card>; SEATS] {
        hands([
            "AC KC QC JC TC 9C 8C 7C 6C 2D 3D 4D 5D",
            "AD KD QD JD TD 9D 8D 7D 6D 2C 3C 4C 5C",
            "AH KH QH JH TH 9H 8H 7H 6H 2S 3S 4S 5S",
            "AS KS QS JS TS 9S 8S 7S 6S 2H 3H 4H 5H",
        ])
    }

    /// With `long_suits` and seat 1 leading, each trick in playing order: seat 0 takes the
    /// first trick and runs its clubs (nine tricks for side 0), then seat 1 takes the last four.
    const SEAT_1_LEADS: [&str; 13] = [
        "2C 2S 2H AC",
        "KC 3C 3S 3H",
        "QC 4C 4S 4H",
        "JC 5C 5S 5H",
        "TC 6D 6H 6S",
        "9C 7D 7H 7S",
        "8C 8D 8H 8S",
        "7C 9D 9H 9S",
        "6C TD TH TS",
        "2D AD JH JS",
        "KD QH QS 3D",
        "QD KH KS 4D",
        "JD AH AS 5D",
    ];

    /// With `long_suits` and seat 2 leading: seat 2 runs its hearts (nine tricks for side 0),
    /// then seat 3 takes the last four with its spades.
    const SEAT_2_LEADS: [&str; 13] = [
        "AH 2H 2D 2C",
        "KH 3H 3D 3C",
        "QH 4H 4D 4C",
        "JH 5H 5D 5C",
        "TH 6S 6C 6D",
        "9H 7S 7C 7D",
        "8H 8S 8C 8D",
        "7H 9S 9C 9D",
        "6H TS TC TD",
        "2S AS JC JD",
        "KS QC QD 3S",
        "QS KC KD 4S",
        "JS AC AD 5S",
    ];

    fn choose(code: &str) -> Command {
        Command::ChooseBottomCard { card: card(code) }
    }

    fn play(code: &str) -> Command {
        Command::Play { card: card(code) }
    }

    struct Scored {
        side_tricks: [u8; 2],
        winning_side: usize,
        terms: Vec<ScoreTerm>,
        points: [i64; 2],
        scores: [i64; 2],
    }

    impl Driver<Fyrmanswhist> {
        fn with(options: Value) -> M {
            M::new(4, serde_json::from_value(options).unwrap())
        }

        /// Deals these hands, whoever deals.
        fn deal_hands(&mut self, hands: &[Vec<Card>; SEATS]) -> Vec<Event> {
            let dealer = self.state.deals.next_dealer;
            let deck: Vec<Card> = (0..52).map(|i| hands[(dealer + 1 + i) % SEATS][i / 4]).collect();
            self.deal(deck)
        }

        fn choose(&mut self, seat: Seat, code: &str) -> Vec<Event> {
            self.ok(seat, choose(code))
        }

        /// Bottom cards chosen in the order given.
        fn choose_all(&mut self, choices: &[(Seat, &str)]) -> Vec<Event> {
            let mut events = Vec::new();
            for &(seat, code) in choices {
                events.extend(self.choose(seat, code));
            }
            events
        }

        /// Plays whole tricks, each given as its four cards in playing order.
        fn tricks(&mut self, tricks: &[&str]) -> Vec<Event> {
            let mut events = Vec::new();
            for t in tricks {
                for c in cards(t) {
                    let seat = self.to_act()[0];
                    events.extend(self.ok(seat, Command::Play { card: c }));
                }
            }
            events
        }

        /// The rule a refused command breaks; the refusal is explained in both languages.
        fn rule_of(&self, seat: Seat, command: Command) -> String {
            let v = self.refused(seat, command);
            assert!(!v.explanation.sv.is_empty() && !v.explanation.en.is_empty());
            v.rule
        }

        fn current(&self) -> &Deal {
            self.state.deals.deal.as_ref().unwrap()
        }

        fn view(&self, viewer: Viewer) -> Value {
            serde_json::to_value(Fyrmanswhist.view(&self.state, viewer)).unwrap()
        }

        fn scored(&self) -> Scored {
            self.log
                .iter()
                .rev()
                .find_map(|e| match e {
                    Event::DealScored { side_tricks, winning_side, terms, points, scores, .. } => Some(Scored {
                        side_tricks: *side_tricks,
                        winning_side: *winning_side,
                        terms: terms.clone(),
                        points: *points,
                        scores: *scores,
                    }),
                    _ => None,
                })
                .expect("a deal was scored")
        }
    }

    fn shown_in(events: &[Event]) -> Vec<(Seat, Card, Contract)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::BottomCardShown { seat, card, wants } => Some((*seat, *card, *wants)),
                _ => None,
            })
            .collect()
    }

    // --- the text's worked examples -----------------------------------------------------------

    #[test]
    fn worked_example_spel_with_nine_tricks_scores_three() {
        let (winner, terms) = score_terms(Contract::Spel, Some(1), [4, 9]);
        assert_eq!(winner, 1);
        assert_eq!((terms[0].to, terms[0].points, terms[0].rule.as_str()), (1, 3, rule::SPEL_WON));
        assert_eq!((terms[1].to, terms[1].points, terms[1].rule.as_str()), (0, 0, rule::LOSER_NOTHING));

        // The same through play. The dealer is seat 0, so forehand (seat 1) shows first; seat 0
        // alone shows red, declares, and seat 1 on its left leads.
        let mut m = M::with(json!({}));
        m.deal_hands(&long_suits());
        let events = m.choose_all(&[(0, "2D"), (3, "6S"), (1, "2C"), (2, "2S")]);
        assert_eq!(
            shown_in(&events),
            [
                (1, card("2C"), Contract::Pass),
                (2, card("2S"), Contract::Pass),
                (3, card("6S"), Contract::Pass),
                (0, card("2D"), Contract::Spel)
            ]
        );
        assert_eq!(
            events.last(),
            Some(&Event::BiddingEnded {
                contract: Contract::Spel,
                declarer: Some(0),
                declaring_side: Some(0),
                first_lead: 1,
                not_shown: vec![],
                rule: rule::SHOW_FIRST_RED.into(),
            })
        );
        assert_eq!(m.to_act(), [1]);
        m.tricks(&SEAT_1_LEADS);
        let s = m.scored();
        assert_eq!((s.side_tricks, s.winning_side, s.points, s.scores), ([9, 4], 0, [3, 0], [3, 0]));
        assert_eq!(s.terms[0].rule, rule::SPEL_WON);
        assert!(s.terms[0].explanation.en.contains("9 − 6 = 3"), "{}", s.terms[0].explanation.en);
        assert!(s.terms[0].explanation.sv.contains("9 − 6 = 3"));
    }

    #[test]
    fn worked_example_pass_with_four_tricks_scores_three() {
        let (winner, terms) = score_terms(Contract::Pass, None, [9, 4]);
        assert_eq!((winner, terms[0].to, terms[0].points, terms[0].rule.as_str()), (1, 1, 3, rule::PASS));

        // Through play: four black cards make it pass, and forehand leads.
        let mut m = M::with(json!({}));
        m.deal_hands(&long_suits());
        let events = m.choose_all(&[(1, "2C"), (2, "2S"), (3, "6S"), (0, "6C")]);
        assert_eq!(shown_in(&events).len(), 4);
        assert_eq!(
            events.last(),
            Some(&Event::BiddingEnded {
                contract: Contract::Pass,
                declarer: None,
                declaring_side: None,
                first_lead: 1,
                not_shown: vec![],
                rule: rule::SHOW_ALL_BLACK.into(),
            })
        );
        assert_eq!(m.to_act(), [1]);
        m.tricks(&SEAT_1_LEADS);
        let s = m.scored();
        assert_eq!((s.side_tricks, s.winning_side, s.points), ([9, 4], 1, [0, 3]));
        assert!(s.terms[0].explanation.en.contains("7 − 4 = 3"), "{}", s.terms[0].explanation.en);
    }

    #[test]
    fn opponents_who_beat_the_spel_score_two_per_trick_over_six() {
        let (winner, terms) = score_terms(Contract::Spel, Some(1), [9, 4]);
        assert_eq!((winner, terms[0].points, terms[0].rule.as_str()), (0, 6, rule::SPEL_DEFEATED));

        // Forehand (seat 1) shows red at once: nobody else shows, and seat 2 leads.
        let mut m = M::with(json!({}));
        m.deal_hands(&long_suits());
        let events = m.choose_all(&[(2, "AH"), (3, "2H"), (0, "AC"), (1, "6D")]);
        // Three choices, then the last one with the showing and its result.
        assert_eq!(events.len(), 6);
        assert_eq!(shown_in(&events), [(1, card("6D"), Contract::Spel)]);
        assert_eq!(
            events[5],
            Event::BiddingEnded {
                contract: Contract::Spel,
                declarer: Some(1),
                declaring_side: Some(1),
                first_lead: 2,
                not_shown: vec![2, 3, 0],
                rule: rule::SHOW_FIRST_RED.into(),
            }
        );
        m.tricks(&SEAT_2_LEADS);
        let s = m.scored();
        assert_eq!((s.side_tricks, s.winning_side, s.points, s.scores), ([9, 4], 0, [6, 0], [6, 0]));
        assert_eq!(s.terms[0].rule, rule::SPEL_DEFEATED);
        assert!(s.terms[0].explanation.en.contains("2 × (9 − 6) = 6"), "{}", s.terms[0].explanation.en);
        assert_eq!((s.terms[1].to, s.terms[1].points, s.terms[1].rule.as_str()), (1, 0, rule::LOSER_NOTHING));
    }

    #[test]
    fn every_split_of_the_tricks_has_one_scoring_side() {
        for t in 0..=TRICKS {
            let side_tricks = [t, TRICKS - t];
            for declaring in [None, Some(0), Some(1)] {
                let contract = if declaring.is_some() { Contract::Spel } else { Contract::Pass };
                let (w, terms) = score_terms(contract, declaring, side_tricks);
                let took = i64::from(side_tricks[w]);
                let expected = match declaring {
                    None => 7 - took,
                    Some(d) if d == w => took - 6,
                    Some(_) => 2 * (took - 6),
                };
                assert!(expected >= 1, "{side_tricks:?} {declaring:?}");
                assert_eq!(terms.iter().map(|t| t.points).sum::<i64>(), expected);
                assert_eq!(terms.iter().filter(|t| t.points != 0).map(|t| t.to).collect::<Vec<_>>(), [w]);
                assert_eq!(terms.len(), 2);
                if contract == Contract::Pass {
                    assert!(side_tricks[w] <= BOOK);
                } else {
                    assert!(side_tricks[w] > BOOK);
                }
            }
        }
        // The extremes: a grand slam in spel, beaten to nothing, and a clean pass.
        assert_eq!(score_terms(Contract::Spel, Some(0), [13, 0]).1[0].points, 7);
        assert_eq!(score_terms(Contract::Spel, Some(0), [0, 13]).1[0].points, 14);
        assert_eq!(score_terms(Contract::Pass, None, [0, 13]).1[0].points, 7);
    }

    // --- the bottom cards ---------------------------------------------------------------------

    #[test]
    fn the_showing_stops_at_the_first_red_card_from_forehand() {
        let b = |codes: &str| -> [Card; SEATS] { cards(codes).try_into().unwrap() };
        // By seat 0, 1, 2, 3; forehand is seat 1 unless said otherwise.
        assert_eq!(show(1, &b("2C 2S 3C 3S"), false), (vec![1, 2, 3, 0], None));
        assert_eq!(show(1, &b("2C 2H 3C 3S"), false), (vec![1], Some(1)));
        assert_eq!(show(1, &b("2C 2S 3C 3D"), false), (vec![1, 2, 3], Some(3)));
        assert_eq!(show(1, &b("2D 2S 3C 3S"), false), (vec![1, 2, 3, 0], Some(0)));
        assert_eq!(show(3, &b("2D 2H 3C 3S"), false), (vec![3, 0], Some(0)));
        // All at once every card is shown, and the first red one from forehand declares.
        assert_eq!(show(1, &b("2D 2S 3H 3S"), true), (vec![1, 2, 3, 0], Some(2)));
        assert_eq!(show(3, &b("2D 2S 3H 3S"), true), (vec![3, 0, 1, 2], Some(0)));
        assert_eq!(show(1, &b("2C 2S 3C 3S"), true), (vec![1, 2, 3, 0], None));
        // Spel is led from the declarer's left, pass by forehand.
        assert_eq!(first_lead(1, None), 1);
        assert_eq!(first_lead(1, Some(3)), 0);
        assert_eq!(first_lead(2, Some(1)), 2);
        assert_eq!(Contract::asked_by(card("2C")), Contract::Pass);
        assert_eq!(Contract::asked_by(card("AS")), Contract::Pass);
        assert_eq!(Contract::asked_by(card("2H")), Contract::Spel);
        assert_eq!(Contract::asked_by(card("KD")), Contract::Spel);
    }

    #[test]
    fn everyone_chooses_at_once_and_a_choice_is_final() {
        let mut m = M::with(json!({}));
        m.deal_hands(&long_suits());
        assert_eq!(m.to_act(), [0, 1, 2, 3]);
        assert_eq!(m.view(Viewer::Spectator)["phase"], "choosing-bottom-cards");
        // Any card of one's own hand, in any order.
        let legal = Fyrmanswhist.legal_moves(&m.state, 3);
        assert_eq!(legal.len(), 13);
        assert!(legal.contains(&choose("AS")) && legal.contains(&choose("2H")));
        m.choose(3, "AS");
        assert_eq!(m.to_act(), [0, 1, 2]);
        assert!(Fyrmanswhist.legal_moves(&m.state, 3).is_empty());
        // A choice is final: the seat is no longer asked.
        assert_eq!(m.rule_of(3, choose("2H")), core::TURN);
        assert_eq!(m.rule_of(0, choose("AS")), core::CARD_NOT_HELD);
        assert_eq!(m.rule_of(0, play("AC")), core::PHASE);
        assert_eq!(erase(Fyrmanswhist).setup(4, &Value::Null).unwrap().move_space(0).len(), 104);
    }

    #[test]
    fn a_hand_of_one_colour_can_ask_for_one_thing_only() {
        let mut m = M::with(json!({}));
        let pack = decks::standard52();
        // Seat 0 all clubs, seat 1 all diamonds, seat 2 all hearts, seat 3 all spades.
        let by_suit: [Vec<Card>; SEATS] = std::array::from_fn(|s| pack[13 * s..13 * (s + 1)].to_vec());
        m.deal_hands(&by_suit);
        let wishes = |seat: Seat| -> BTreeSet<&str> {
            Fyrmanswhist
                .legal_moves(&m.state, seat)
                .iter()
                .map(|c| match c {
                    Command::ChooseBottomCard { card } => Contract::asked_by(*card).name(),
                    Command::Play { .. } => panic!("no play while choosing"),
                })
                .collect()
        };
        assert_eq!(wishes(0), BTreeSet::from(["pass"]));
        assert_eq!(wishes(1), BTreeSet::from(["spel"]));
        assert_eq!(wishes(2), BTreeSet::from(["spel"]));
        assert_eq!(wishes(3), BTreeSet::from(["pass"]));
    }

    #[test]
    fn a_bottom_card_is_secret_until_shown_and_for_ever_if_never_shown() {
        let mut m = M::with(json!({}));
        m.deal_hands(&long_suits());
        let events = m.choose(2, "AH");
        let chosen = &events[0];
        let hidden = json!({ "type": "bottom_card_chosen", "seat": 2, "card": null, "hidden": true });
        for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Seat(3), Viewer::Spectator, Viewer::Record] {
            for deal_over in [false, true] {
                assert_eq!(Fyrmanswhist.redact(&m.state, chosen, viewer, deal_over), hidden, "{viewer:?}");
            }
        }
        assert_eq!(Fyrmanswhist.redact(&m.state, chosen, Viewer::Seat(2), false)["card"], "AH");
        let seat0 = m.view(Viewer::Seat(0));
        assert_eq!(seat0["has_chosen"], json!([false, false, true, false]));
        assert_eq!(seat0["bottom_card"], Value::Null);
        assert!(!cards_in(&seat0).contains(&card("AH")));
        assert_eq!(m.view(Viewer::Seat(2))["bottom_card"], "AH");
        assert!(cards_in(&m.view(Viewer::Spectator)).is_empty());
        let record = m.view(Viewer::Record);
        assert_eq!(record["shown_bottom_cards"], json!([null, null, null, null]));
        assert!(record.get("bottom_card").is_none());

        // Forehand (seat 1) shows red first: seats 2, 3 and 0 never show theirs.
        m.choose_all(&[(3, "2H"), (0, "AC"), (1, "6D")]);
        assert_eq!(m.view(Viewer::Spectator)["shown_bottom_cards"], json!([null, "6D", null, null]));
        assert_eq!(m.view(Viewer::Spectator)["wants"], json!([null, "spel", null, null]));
        m.tricks(&SEAT_2_LEADS);
        assert!(matches!(Fyrmanswhist.status(&m.state), Status::NeedsDeck { .. }));
        // The deal is over and its record public, but not what was never shown.
        let mut checked = 0;
        for e in &m.log {
            if let Event::BottomCardChosen { seat, card } = e {
                assert_eq!(Fyrmanswhist.redact(&m.state, e, Viewer::Record, true)["card"], Value::Null);
                assert_eq!(Fyrmanswhist.redact(&m.state, e, Viewer::Spectator, true)["card"], Value::Null);
                for s in 0..SEATS {
                    let seen = Fyrmanswhist.redact(&m.state, e, Viewer::Seat(s), true);
                    assert_eq!(seen["card"], if s == *seat { json!(card) } else { Value::Null });
                    // The seat's record of the deal shows it the same (issue 36).
                    assert_eq!(Fyrmanswhist.record_event(&m.state, e, Some(s)), seen);
                }
                assert_eq!(Fyrmanswhist.record_event(&m.state, e, None)["card"], Value::Null);
                checked += 1;
            }
        }
        assert_eq!(checked, 4);
        let record = m.view(Viewer::Record);
        assert_eq!(record["shown_bottom_cards"], json!([null, "6D", null, null]));
        assert!(record.get("bottom_card").is_none());
        assert_eq!(m.view(Viewer::Seat(3))["bottom_card"], "2H", "the owner still knows");
        assert_eq!(Fyrmanswhist.record_view(&m.state, Some(3))["bottom_card"], "2H", "and its record says so");
        assert_eq!(Fyrmanswhist.record_view(&m.state, None), record);
    }

    #[test]
    fn a_shown_bottom_card_is_public_until_it_is_played() {
        let mut m = M::with(json!({}));
        m.deal_hands(&long_suits());
        m.choose_all(&[(0, "2D"), (1, "2C"), (2, "2S"), (3, "6S")]);
        let secret: Vec<Card> = Fyrmanswhist.secrets(&m.state).iter().map(|(c, _)| *c).collect();
        assert_eq!(secret.len(), 48);
        assert!(cards("2D 2C 2S 6S").iter().all(|c| !secret.contains(c)));
        assert!(Fyrmanswhist.secrets(&m.state).iter().all(|(_, who)| who.len() == 1));
        let spectator = m.view(Viewer::Spectator);
        assert_eq!(spectator["shown_in_hand"], json!(["2D", "2C", "2S", "6S"]));
        let seen: BTreeSet<Card> = cards_in(&spectator).into_iter().collect();
        assert_eq!(seen, cards("2D 2C 2S 6S").into_iter().collect());
        // The first trick takes seat 1's 2C and seat 2's 2S.
        m.tricks(&SEAT_1_LEADS[..1]);
        let spectator = m.view(Viewer::Spectator);
        assert_eq!(spectator["shown_in_hand"], json!(["2D", null, null, "6S"]));
        assert_eq!(spectator["shown_bottom_cards"], json!(["2D", "2C", "2S", "6S"]));
    }

    #[test]
    fn shown_at_once_every_card_is_seen_and_the_first_red_from_forehand_declares() {
        let mut m = M::with(json!({ "simultaneous_reveal": true }));
        m.deal_hands(&long_suits());
        // Seats 0, 2 and 3 show red and seat 1 black: from forehand (seat 1), seat 2 comes first.
        let events = m.choose_all(&[(0, "2D"), (1, "2C"), (3, "2H"), (2, "AH")]);
        assert_eq!(shown_in(&events).iter().map(|s| s.0).collect::<Vec<_>>(), [1, 2, 3, 0]);
        assert_eq!(
            events.last(),
            Some(&Event::BiddingEnded {
                contract: Contract::Spel,
                declarer: Some(2),
                declaring_side: Some(0),
                first_lead: 3,
                not_shown: vec![],
                rule: rule::SIMULTANEOUS_DECLARER.into(),
            })
        );
        // Seat 3 showed red too, but its side are the opponents.
        let view = m.view(Viewer::Spectator);
        assert_eq!(view["shown_bottom_cards"], json!(["2D", "2C", "AH", "2H"]));
        assert_eq!(view["wants"], json!(["spel", "pass", "spel", "spel"]));
        assert_eq!((view["declarer"].clone(), view["declaring_side"].clone()), (json!(2), json!(0)));
        assert_eq!(view["simultaneous_reveal"], true);
        assert_eq!(m.to_act(), [3]);

        // All black is still pass, led by forehand.
        let mut m = M::with(json!({ "simultaneous_reveal": true }));
        m.deal_hands(&long_suits());
        let events = m.choose_all(&[(0, "AC"), (1, "2C"), (2, "2S"), (3, "AS")]);
        assert!(matches!(
            events.last(),
            Some(Event::BiddingEnded { contract: Contract::Pass, declarer: None, first_lead: 1, .. })
        ));
    }

    // --- play ---------------------------------------------------------------------------------

    #[test]
    fn follow_suit_if_able_and_only_the_suit_led_can_win() {
        let mut m = M::with(json!({}));
        m.deal_hands(&long_suits());
        m.choose_all(&[(0, "2D"), (1, "2C"), (2, "2S"), (3, "6S")]);
        assert_eq!(m.view(Viewer::Spectator)["phase"], "playing");
        // Seat 0 declares, so seat 1 leads.
        assert_eq!(m.rule_of(0, play("AC")), core::TURN);
        assert_eq!(m.rule_of(1, choose("2C")), core::PHASE);
        m.ok(1, play("2C"));
        // Seat 2 has no clubs: any card goes, even an ace of another suit.
        assert_eq!(Fyrmanswhist.legal_moves(&m.state, 2).len(), 13);
        m.ok(2, play("AH"));
        m.ok(3, play("AS"));
        // Seat 0 holds clubs and must play one.
        let refusal = m.refused(0, play("2D"));
        assert_eq!(refusal.rule, rule::FOLLOW_SUIT);
        assert!(refusal.explanation.en.contains("You played 2D but hold clubs"), "{}", refusal.explanation.en);
        let clubs: Vec<Command> = cards("6C 7C 8C 9C TC JC QC KC AC").iter().map(|c| play(&c.to_string())).collect();
        assert_eq!(Fyrmanswhist.legal_moves(&m.state, 0), clubs);
        assert_eq!(m.rule_of(0, play("KH")), core::CARD_NOT_HELD);
        // No trumps: the lowest club beats two aces of other suits.
        let events = m.ok(0, play("6C"));
        assert_eq!(
            events.last(),
            Some(&Event::TrickWon {
                trick_number: 1,
                winner: 0,
                card: card("6C"),
                reason: WinReason::HighestOfSuitLed,
                plays: vec![
                    Play { seat: 1, card: card("2C") },
                    Play { seat: 2, card: card("AH") },
                    Play { seat: 3, card: card("AS") },
                    Play { seat: 0, card: card("6C") },
                ],
            })
        );
        // The winner leads the next trick.
        assert_eq!(m.to_act(), [0]);
        let view = m.view(Viewer::Spectator);
        assert_eq!(view["tricks_taken"], json!([1, 0, 0, 0]));
        assert_eq!(view["side_tricks"], json!([1, 0]));
        assert_eq!(view["last_trick"]["winner"], 0);
    }

    #[test]
    fn the_dealer_passes_left_and_cards_go_one_at_a_time_from_forehand() {
        let mut m = M::with(json!({ "target": 1000 }));
        let deck = decks::standard52();
        let events = Fyrmanswhist.deal(&m.state, deck.clone()).unwrap();
        m.apply(events.clone());
        let Event::DealStarted { deal_number, dealer, forehand, hands, deck: recorded, scores, .. } = &events[0] else {
            panic!()
        };
        assert_eq!((*deal_number, *dealer, *forehand, *scores), (1, 0, 1, [0, 0]));
        assert_eq!(recorded, &deck);
        for i in 0..8 {
            assert!(hands[(1 + i) % SEATS].contains(&deck[i]), "card {i} goes to seat {}", (1 + i) % SEATS);
        }
        assert!(hands.iter().all(|h| h.len() == 13));
        m.finish_deal();
        for number in 2..=6 {
            m.deal_hands(&long_suits());
            assert_eq!(m.current().dealer, (number - 1) % SEATS);
            assert_eq!(m.view(Viewer::Spectator)["forehand"], json!(number % SEATS));
            assert_eq!(Fyrmanswhist.deal_number(&m.state) as usize, number);
            m.finish_deal();
        }
        assert_eq!(m.view(Viewer::Spectator)["next_dealer"], 2);
    }

    // --- the match ----------------------------------------------------------------------------

    #[test]
    fn scores_carry_over_until_a_side_reaches_thirteen() {
        let mut m = M::with(json!({}));
        // Seat 0 declares every time and its side takes nine tricks: three points a deal. As
        // the dealer moves, forehand changes, so fewer cards are shown before seat 0's red one.
        for deal in 1..=5i64 {
            let events = m.deal_hands(&long_suits());
            let Event::DealStarted { scores, .. } = &events[0] else { panic!() };
            assert_eq!(*scores, [3 * (deal - 1), 0]);
            m.choose_all(&[(0, "2D"), (1, "2C"), (2, "2S"), (3, "6S")]);
            assert_eq!(m.current().declarer, Some(0));
            let events = m.tricks(&SEAT_1_LEADS);
            assert_eq!(matches!(events.last(), Some(Event::MatchEnded { .. })), deal == 5, "deal {deal}");
        }
        assert_eq!(m.state.deals.scores, [15, 0]);
        let Status::Finished { outcome } = Fyrmanswhist.status(&m.state) else { panic!() };
        assert_eq!(outcome.winners, [0, 2]);
        assert!(outcome.explanation.en.contains("reached 15 points, at least the target of 13"));
    }

    #[test]
    fn the_match_ends_at_an_agreed_target_and_takes_no_more_moves() {
        let mut m = M::with(json!({ "target": 2 }));
        m.deal_hands(&long_suits());
        m.choose_all(&[(0, "2D"), (1, "2C"), (2, "2S"), (3, "6S")]);
        let events = m.tricks(&SEAT_1_LEADS);
        let Some(Event::MatchEnded { side, winners, scores, target, explanation }) = events.last() else {
            panic!("{events:?}")
        };
        assert_eq!((*side, winners.as_slice(), *scores, *target), (0, &[0, 2][..], [3, 0], 2));
        assert!(explanation.sv.contains("nådde 3 poäng"));
        assert_eq!(m.rule_of(0, play("AC")), core::MATCH_OVER);
        assert!(Fyrmanswhist.status(&m.state).is_finished(), "no deal is due");
        assert!(Fyrmanswhist.legal_moves(&m.state, 0).is_empty());
        assert!(Fyrmanswhist.bot_move(&m.state, 0, 1).is_none());
        let view = m.view(Viewer::Spectator);
        assert_eq!((view["phase"].clone(), view["winning_side"].clone()), (json!("finished"), json!(0)));
    }

    #[test]
    fn options_have_defaults_and_are_checked() {
        let game = erase(Fyrmanswhist);
        assert_eq!(
            game.normalize_options(&Value::Null).unwrap(),
            json!({ "simultaneous_reveal": false, "target": 13 })
        );
        assert!(game.setup(4, &json!({ "target": 0 })).is_err());
        assert!(game.setup(4, &json!({ "target": -5 })).is_err());
    }

    #[test]
    fn commands_and_events_have_their_json_shapes() {
        let parse = |v: Value| serde_json::from_value::<Command>(v).unwrap();
        assert_eq!(parse(json!({ "type": "choose_bottom_card", "card": "7H" })), choose("7H"));
        assert_eq!(parse(json!({ "type": "play", "card": "QS" })), play("QS"));
        let json_of = |e: Event| serde_json::to_value(e).unwrap();
        assert_eq!(
            json_of(Event::BottomCardShown { seat: 3, card: card("7H"), wants: Contract::Spel }),
            json!({ "type": "bottom_card_shown", "seat": 3, "card": "7H", "wants": "spel" })
        );
        assert_eq!(
            json_of(Event::BiddingEnded {
                contract: Contract::Pass,
                declarer: None,
                declaring_side: None,
                first_lead: 1,
                not_shown: vec![],
                rule: rule::SHOW_ALL_BLACK.into(),
            }),
            json!({ "type": "bidding_ended", "contract": "pass", "declarer": null, "declaring_side": null,
                    "first_lead": 1, "not_shown": [], "rule": "fyrmanswhist.show.all-black" })
        );
        assert_eq!(
            json_of(Event::TrickWon {
                trick_number: 1,
                winner: 0,
                card: card("6C"),
                reason: WinReason::HighestOfSuitLed,
                plays: vec![Play { seat: 1, card: card("2C") }],
            }),
            json!({ "type": "trick_won", "trick_number": 1, "winner": 0, "card": "6C",
                    "reason": "highest-of-suit-led", "plays": [{ "seat": 1, "card": "2C" }] })
        );
    }

    #[test]
    fn deal_started_shows_each_seat_only_its_own_hand_until_the_deal_is_over() {
        let mut m = M::with(json!({ "target": 1000 }));
        let events = m.deal_hands(&long_suits());
        let e = &events[0];
        let full = serde_json::to_value(e).unwrap();
        let own = Fyrmanswhist.redact(&m.state, e, Viewer::Seat(1), false);
        assert_eq!(own["deck"], Value::Null);
        assert_eq!(own["hands"][1], json!(sorted(long_suits()[1].clone())));
        assert_eq!(own["hands"][0], Value::Null);
        assert_eq!(own["hand_sizes"], json!([13, 13, 13, 13]));
        assert!(cards_in(&Fyrmanswhist.redact(&m.state, e, Viewer::Spectator, false)).is_empty());
        assert_eq!(Fyrmanswhist.redact(&m.state, e, Viewer::Record, false), full);
        let view = m.view(Viewer::Seat(1));
        assert_eq!(view["hand"], own["hands"][1]);
        assert!(view.get("hands").is_none());
        assert_eq!(m.view(Viewer::Record)["hands"], full["hands"]);
        m.finish_deal();
        assert_eq!(Fyrmanswhist.redact(&m.state, e, Viewer::Spectator, false), full);
        assert_eq!(Fyrmanswhist.redact(&m.state, e, Viewer::Seat(0), true), full);
    }

    #[test]
    fn the_bot_asks_for_spel_with_a_strong_hand_and_pass_with_a_weak_one() {
        let strong = long_suits()[0].clone();
        let weak = cards("2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 2S 3S");
        let c = bottom_card(&strong, SPEL_THRESHOLD);
        assert_eq!((Contract::asked_by(c), c), (Contract::Spel, card("2D")), "the lowest red card");
        assert_eq!(bottom_card(&weak, SPEL_THRESHOLD), card("2C"), "the lowest black card");
        // A hand of one colour can only ask for what it holds.
        assert_eq!(bottom_card(&cards("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"), SPEL_THRESHOLD), card("2H"));
        assert_eq!(bottom_card(&cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"), SPEL_THRESHOLD), card("2S"));
    }

    // --- the rulebook -------------------------------------------------------------------------

    // --- random matches -----------------------------------------------------------------------

    /// What every match's log must show, and (into `seen`) what kinds of deal it had.
    fn check_log(options: &Value, log: &[Value], seen: &mut BTreeSet<String>) {
        let book = Fyrmanswhist.rulebook();
        let simultaneous = options["simultaneous_reveal"] == true;
        let target = options["target"].as_i64().unwrap_or(DEFAULT_TARGET);
        let blank = Fyrmanswhist.setup(4, Options::default()).unwrap();
        let mut totals = [0i64; 2];
        let mut forehand = 0;
        let mut chosen: Vec<(Seat, Card)> = Vec::new();
        let mut shown: Vec<(Seat, Card)> = Vec::new();
        let mut ended = None;
        for value in log {
            assert!(ended.is_none(), "an event after the end of the match: {value}");
            match serde_json::from_value::<Event>(value.clone()).unwrap() {
                Event::DealStarted { scores, forehand: f, .. } => {
                    assert_eq!(scores, totals, "a deal starts from the scores so far");
                    forehand = f;
                    chosen.clear();
                    shown.clear();
                }
                e @ Event::BottomCardChosen { seat, card } => {
                    chosen.push((seat, card));
                    for viewer in [Viewer::Record, Viewer::Spectator, Viewer::Seat((seat + 1) % SEATS)] {
                        let seen = Fyrmanswhist.redact(&blank, &e, viewer, true);
                        assert_eq!(seen["card"], Value::Null, "{viewer:?} sees a bottom card choice");
                    }
                }
                Event::BottomCardShown { seat, card, wants } => {
                    assert!(chosen.contains(&(seat, card)), "seat {seat} shows {card}, which it did not choose");
                    assert_eq!(wants, Contract::asked_by(card));
                    shown.push((seat, card));
                }
                Event::BiddingEnded { contract, declarer, declaring_side, first_lead: lead, not_shown, rule } => {
                    assert_eq!(chosen.len(), SEATS);
                    let order = TABLE.order_from(forehand);
                    let shown_seats: Vec<Seat> = shown.iter().map(|s| s.0).collect();
                    assert_eq!(shown_seats, order[..shown.len()], "shown in turn from forehand");
                    let red: Vec<Seat> =
                        shown.iter().filter(|(_, c)| Contract::asked_by(*c) == Contract::Spel).map(|s| s.0).collect();
                    assert_eq!(declarer, red.first().copied());
                    assert_eq!(declaring_side, declarer.map(|d| TABLE.side(d)));
                    assert_eq!(contract == Contract::Spel, declarer.is_some());
                    assert_eq!(lead, first_lead(forehand, declarer));
                    if simultaneous || declarer.is_none() {
                        assert_eq!(shown.len(), SEATS);
                    } else {
                        assert_eq!(shown_seats.last().copied(), declarer, "the showing stops at the first red");
                    }
                    assert_eq!(not_shown, order[shown.len()..]);
                    assert!(book.rule(&rule).is_some());
                    seen.insert(format!("contract {}", contract.name()));
                    if !not_shown.is_empty() {
                        seen.insert("never shown".into());
                    }
                    if red.iter().any(|&s| TABLE.side(s) == 0) && red.iter().any(|&s| TABLE.side(s) == 1) {
                        seen.insert("both sides red".into());
                    }
                }
                Event::DealScored {
                    contract,
                    declaring_side,
                    side_tricks,
                    winning_side,
                    terms,
                    points,
                    scores,
                    ..
                } => {
                    assert_eq!(side_tricks[0] + side_tricks[1], TRICKS);
                    let (w, expected) = score_terms(contract, declaring_side, side_tricks);
                    assert_eq!((w, &terms), (winning_side, &expected));
                    for t in &terms {
                        assert!(book.rule(&t.rule).is_some(), "{} is not in the rulebook", t.rule);
                        totals[t.to] += t.points;
                        seen.insert(t.rule.clone());
                    }
                    assert_eq!(scores, totals);
                    assert!(points[winning_side] > 0 && points[1 - winning_side] == 0);
                }
                Event::MatchEnded { side, winners, scores, target: t, .. } => {
                    assert_eq!(t, target);
                    assert!(scores[side] >= target && scores[1 - side] < target, "{scores:?}");
                    assert_eq!(winners, seat::side_seats(side));
                    ended = Some(scores);
                }
                Event::CardPlayed { .. } | Event::TrickWon { .. } => {}
            }
        }
        assert_eq!(ended, Some(totals), "the match ends with the sum of the scored terms");
    }

    /// The generic harness plays every option set with every check; here many more matches, each
    /// log checked for Fyrmanswhist's own books, and every kind of deal seen.
    #[test]
    fn random_match_logs_add_up_and_every_kind_of_deal_happens() {
        let mut seen = BTreeSet::new();
        let plan = Plan { invariants: 20, log_only: 200, ..Plan::default() };
        random_matches(&*erase(Fyrmanswhist), plan, |_, options, report| check_log(options, &report.log, &mut seen))
            .unwrap_or_else(|e| panic!("{e}"));
        for kind in ["contract spel", "contract pass", "never shown", "both sides red"] {
            assert!(seen.contains(kind), "{kind} never happened");
        }
        for rule in [rule::SPEL_WON, rule::SPEL_DEFEATED, rule::PASS] {
            assert!(seen.contains(rule), "{rule} never happened");
        }
    }
}
