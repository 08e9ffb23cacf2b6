//! Bräus: four players in two fixed sides, 36 cards, and Gotland's own order of the cards.
//!
//! The jack of clubs, the eight of spades and the king of hearts (the makdorar) are highest; the
//! nines, aces, three jacks and sixes follow, and every other card but the sevens is worthless.
//! Each player in turn must beat the card played just before or stand over, so a trick holds one
//! to four cards; a trick of worthless cards is won by nobody. Sevens are never played: forehand
//! and every trick winner lay theirs down, each a trick. The first side to six tricks scores a
//! rita (two for six in a row, jan), the king of clubs settles five all, and the first side to
//! six ritor wins the match.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, is_permutation, sorted, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Status, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Direction, Seat};
use crate::trick::{self, Play, PlayView, Trick, TrickPlay, WinReason};

#[derive(Default)]
pub struct Braus;

const SEATS: usize = 4;
const TABLE: seat::Table = seat::Table { seats: SEATS, direction: Direction::Clockwise };
const HAND: usize = 9;
/// The tricks that end the play and score a rita.
const SIX: u8 = 6;
/// No deal has this many tricks (at most the 18 ranked cards and the 4 sevens win one each); it
/// only bounds the play's record.
const MOST_TRICKS: usize = 36;
pub const DEFAULT_TARGET: i64 = 6;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "braus.deal.players";
    pub const PACK: &str = "braus.deal.pack";

    pub const ORDER: &str = "braus.rank.order";
    pub const SUITS: &str = "braus.rank.suits";

    pub const SEVENS_FOREHAND: &str = "braus.sevens.forehand";
    pub const SEVENS_WINNER: &str = "braus.sevens.winner";
    pub const SEVENS_NOT_PLAYED: &str = "braus.sevens.not-played";

    pub const LEAD: &str = "braus.play.lead";
    pub const HIGHER: &str = "braus.play.higher";
    pub const TRICK_WINNER: &str = "braus.play.trick-winner";
    pub const WINNER_LEADS: &str = "braus.play.winner-leads";

    pub const RITA: &str = "braus.score.rita";
    pub const JAN: &str = "braus.score.jan";
    pub const KING_OF_CLUBS: &str = "braus.score.king-of-clubs";
    pub const NO_RITA: &str = "braus.score.no-rita";
    pub const LOSER_NOTHING: &str = "braus.score.loser-nothing";

    pub const TARGET: &str = "braus.end.target";

    pub const OPTION_TARGET: &str = "braus.variant.target";

    pub const DEALER: &str = "braus.house.dealer";
    pub const RECORD: &str = "braus.house.record";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The ritor that win the match (six unless agreed otherwise).
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
    play: TrickPlay,
    /// The seats that stood over in the trick on the table, in turn.
    stood_over: Vec<Seat>,
    set_aside: Vec<SetAsideTrick>,
    /// Set when the deal is scored.
    result: Option<DealResult>,
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

fn side_text(side: usize) -> (String, String) {
    let [a, b] = seats_of(side);
    (format!("lag {side} (plats {a} och {b})"), format!("side {side} (seats {a} and {b})"))
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.result.is_some() || self.play_over() {
            return Vec::new();
        }
        vec![self.to_play()]
    }

    fn is_live(&self) -> bool {
        self.result.is_none()
    }

    fn phase(&self) -> Phase {
        match self.result {
            Some(_) => Phase::DealOver,
            None => Phase::Playing,
        }
    }
}

impl Deal {
    fn forehand(&self) -> Seat {
        TABLE.forehand(self.dealer)
    }

    /// The seat whose turn it is in the trick on the table (the leader while it is empty); a
    /// seat that stood over has had its turn.
    fn to_play(&self) -> Seat {
        let t = &self.play.trick;
        TABLE.after(t.leader, t.plays.len() + self.stood_over.len())
    }

    fn side_tricks(&self) -> [u8; 2] {
        self.play.side_tricks().map(|n| n as u8)
    }

    /// A seat can lead when it holds a card other than a seven.
    fn can_lead(&self, seat: Seat) -> bool {
        self.play.hands[seat].iter().any(|&c| !is_seven(c))
    }

    /// The cards the seat may play now: any but a seven to lead, else those that beat the card
    /// played just before.
    fn playable(&self, seat: Seat) -> Vec<Card> {
        let hand = self.play.hands[seat].iter().copied();
        let cards: Vec<Card> = match self.play.trick.plays.last() {
            None => hand.filter(|&c| !is_seven(c)).collect(),
            Some(&(_, previous)) => hand.filter(|&c| beats(c, previous)).collect(),
        };
        trick::distinct(cards)
    }

    /// The play stops once a side has six tricks, or once the table is clear and nobody holds a
    /// card to lead.
    fn play_over(&self) -> bool {
        self.side_tricks().iter().any(|&t| t >= SIX)
            || self.play.trick.is_empty() && !(0..SEATS).any(|s| self.can_lead(s))
    }

    fn set_aside_cards(&self) -> Vec<Card> {
        self.set_aside.iter().flat_map(|t| t.plays.iter().map(|p| p.card)).collect()
    }

    /// The side whose tricks hold the king of clubs, if either's do.
    fn king_of_clubs(&self) -> Option<usize> {
        let t = self.play.tricks.iter().find(|t| t.plays.iter().any(|p| p.card == KING_OF_CLUBS))?;
        Some(side_of(t.winner))
    }

    /// The deal's facts as events change them: the one place both `evolve` and the look-ahead
    /// of `decide` apply them.
    fn apply(&mut self, event: &Event) {
        match event {
            Event::SevenLaid { seat, card, .. } => {
                self.play.play(*seat, *card);
                self.play.won(*seat, *card, WinReason::LaidAsTrick);
            }
            Event::CardPlayed { seat, card, .. } => self.play.play(*seat, *card),
            Event::StoodOver { seat, .. } => self.stood_over.push(*seat),
            Event::TrickWon { winner, card, .. } => {
                self.play.won(*winner, *card, WinReason::HighestCard);
                self.stood_over.clear();
            }
            Event::TrickSetAside { leader, .. } => {
                let plays = self.play.set_aside();
                self.set_aside.push(SetAsideTrick { leader: *leader, plays });
                self.stood_over.clear();
            }
            Event::LeadPassed { to, .. } => self.play.trick = Trick::led_by(*to),
            Event::DealScored { result, .. } => self.result = Some(*result),
            Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Lead a card, or play one higher than the card played just before.
    Play { card: Card },
}

/// How a deal ended.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealResult {
    /// A side took six tricks: one rita.
    Rita,
    /// A side took its six tricks in a row: two ritor.
    Jan,
    /// Five tricks each, and the side with the king of clubs (utslagskortet) among its tricks
    /// scores one rita.
    Utslagskortet,
    /// No side took six and the king of clubs did not decide: no rita, and the same dealer
    /// deals again (omgiv).
    Omgiv,
}

/// A trick won by nobody, set aside.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetAsideTrick {
    /// The seat that led it, and leads again.
    pub leader: Seat,
    /// Its cards, in the order played: worthless cards only.
    pub plays: Vec<Play>,
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
        /// Ritor by side before this deal (side 0 is seats 0 and 2).
        scores: [i64; 2],
        /// The match's options, which this deal is played under.
        options: Options,
    },
    /// A seven laid down face up: a trick for the seat that laid it.
    SevenLaid {
        seat: Seat,
        card: Card,
        trick_number: u8,
        /// Forehand before the first lead, or the winner of the trick just taken.
        rule: String,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
        /// The number the trick gets if somebody wins it; a trick set aside takes none.
        trick_number: u8,
    },
    /// The seat had no card higher than the one played just before.
    StoodOver { seat: Seat, trick_number: u8 },
    TrickWon {
        trick_number: u8,
        winner: Seat,
        card: Card,
        /// One to four cards, in the order played.
        plays: Vec<Play>,
        /// The seats that stood over, in turn.
        stood_over: Vec<Seat>,
    },
    /// Only worthless cards were played: nobody wins the trick, and its leader leads again.
    TrickSetAside { leader: Seat, plays: Vec<Play>, stood_over: Vec<Seat> },
    /// The seat due to lead holds no card but sevens: the next seat with other cards leads.
    LeadPassed { from: Seat, to: Seat },
    DealScored {
        deal_number: u32,
        /// Tricks by seat, sevens included.
        tricks_taken: [u8; SEATS],
        side_tricks: [u8; 2],
        result: DealResult,
        /// The side that scored; null on an omgiv.
        winning_side: Option<usize>,
        /// The side whose tricks hold the king of clubs; null if neither side's do.
        king_of_clubs: Option<usize>,
        /// The deal's ritor, by side, term by term.
        terms: Vec<ScoreTerm>,
        points: [i64; 2],
        /// Ritor by side after this deal.
        scores: [i64; 2],
        /// The same dealer deals the next deal.
        redeal: bool,
    },
    MatchEnded {
        side: usize,
        winners: Vec<Seat>,
        scores: [i64; 2],
        target: i64,
        /// The losers have no rita at all.
        pissmunkar: bool,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// The cards

/// The cards that can win a trick, highest first (rules-notes: the text's table was an image).
pub const RANKING: [&str; 18] =
    ["JC", "8S", "KH", "9C", "9S", "9H", "9D", "AC", "AS", "AH", "AD", "JS", "JH", "JD", "6C", "6S", "6H", "6D"];

/// A card's strength in Bräus's order, 18 for the jack of clubs down to 1 for the six of
/// diamonds; `None` for a worthless card or a seven, which can never win a trick.
pub fn strength(card: Card) -> Option<u8> {
    let code = card.code();
    RANKING.iter().position(|&c| c == code).map(|i| (RANKING.len() - i) as u8)
}

pub fn is_seven(card: Card) -> bool {
    card.rank() == Some(Rank::SEVEN)
}

/// Whether `card` may be played on `previous`: a card of the order beats a worthless card and
/// every lower card of the order; a worthless card beats nothing (house rule).
pub fn beats(card: Card, previous: Card) -> bool {
    strength(card).is_some_and(|s| s > strength(previous).unwrap_or(0))
}

/// Who takes a finished trick: the highest card of the order in it (each card beat the one
/// before, so it is the last), or nobody when it holds only worthless cards.
pub fn trick_winner(plays: &[(Seat, Card)]) -> Option<(Seat, Card)> {
    plays.iter().copied().filter(|&(_, c)| strength(c).is_some()).max_by_key(|&(_, c)| strength(c))
}

fn pack() -> Vec<Card> {
    decks::from_rank(Rank::SIX)
}

const KING_OF_CLUBS: Card = Card::new(Rank::KING, Suit::Clubs);

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    deal.play.check_held(seat, card)?;
    if is_seven(card) {
        return Err(RuleViolation::new(
            rule::SEVENS_NOT_PLAYED,
            format!("{card} är en sjua: sjuor spelas aldrig, de läggs bara ned av förhand eller av den som vunnit ett stick."),
            format!("{card} is a seven: sevens are never played, only laid down by forehand or by a trick's winner."),
        ));
    }
    if let Some(&(_, previous)) = deal.play.trick.plays.last() {
        if !beats(card, previous) {
            let (sv, en) = match strength(card) {
                None => ("är värdelöst och slår inget kort".to_string(), "is worthless and beats no card".to_string()),
                Some(_) => (format!("är lägre än {previous}"), format!("is lower than {previous}")),
            };
            return Err(RuleViolation::new(
                rule::HIGHER,
                format!("Du lade {card}, som {sv}; du måste lägga ett kort högre än {previous}."),
                format!("You played {card}, which {en}; you must play a card higher than {previous}."),
            ));
        }
    }
    let mut run = Run { deal: deal.clone(), events: Vec::new() };
    run.push(Event::CardPlayed { seat, card, trick_number: deal.play.number() as u8 });
    run.until_a_choice(state);
    Ok(run.events)
}

/// A decision's events and the deal as they leave it, so each automatic step that follows is
/// decided on the deal as it then is.
struct Run {
    deal: Deal,
    events: Vec<Event>,
}

impl Run {
    fn push(&mut self, event: Event) {
        self.deal.apply(&event);
        self.events.push(event);
    }

    /// The automatic steps after a card: stand-overs, the trick's end, sevens laid down, the
    /// lead passed on, and the deal's score once the play stops; until a seat has a choice.
    fn until_a_choice(&mut self, state: &State) {
        loop {
            let d = &self.deal;
            let trick_number = d.play.number() as u8;
            if !d.play.trick.is_empty() {
                let acted = d.play.trick.plays.len() + d.stood_over.len();
                if acted < SEATS {
                    let next = d.to_play();
                    if !d.playable(next).is_empty() {
                        return;
                    }
                    self.push(Event::StoodOver { seat: next, trick_number });
                    continue;
                }
                let plays: Vec<Play> = d.play.trick.plays.iter().map(|&(seat, card)| Play { seat, card }).collect();
                let stood_over = d.stood_over.clone();
                match trick_winner(&d.play.trick.plays) {
                    Some((winner, card)) => {
                        self.push(Event::TrickWon { trick_number, winner, card, plays, stood_over });
                        self.lay_sevens(winner, rule::SEVENS_WINNER);
                    }
                    None => self.push(Event::TrickSetAside { leader: d.play.trick.leader, plays, stood_over }),
                }
                continue;
            }
            if d.play_over() {
                let events = score_deal(state, d);
                self.events.extend(events);
                return;
            }
            let leader = d.play.trick.leader;
            if !d.can_lead(leader) {
                let to = (1..SEATS).map(|i| TABLE.after(leader, i)).find(|&s| d.can_lead(s));
                let to = to.expect("the play is not over, so someone can lead");
                self.push(Event::LeadPassed { from: leader, to });
            }
            return;
        }
    }

    /// The seat lays down its sevens, one trick each, until its side has six.
    fn lay_sevens(&mut self, seat: Seat, why: &str) {
        let sevens: Vec<Card> = sorted(self.deal.play.hands[seat].iter().copied().filter(|&c| is_seven(c)).collect());
        for card in sevens {
            if self.deal.side_tricks()[side_of(seat)] >= SIX {
                return;
            }
            let trick_number = self.deal.play.number() as u8;
            self.push(Event::SevenLaid { seat, card, trick_number, rule: why.to_string() });
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// How a played-out deal ends, and the side that scores: six tricks (jan if the side's last six
/// tricks came in a row, its tricks being the last six of the deal's), or five all settled by
/// the king of clubs, or an omgiv.
pub fn result_of(
    side_tricks: [u8; 2],
    winners_in_order: &[usize],
    king_of_clubs: Option<usize>,
) -> (DealResult, Option<usize>) {
    if let Some(side) = (0..2).find(|&s| side_tricks[s] >= SIX) {
        let run = winners_in_order.iter().rev().take_while(|&&w| w == side).count();
        return if run >= SIX as usize { (DealResult::Jan, Some(side)) } else { (DealResult::Rita, Some(side)) };
    }
    match king_of_clubs {
        Some(side) if side_tricks == [5, 5] => (DealResult::Utslagskortet, Some(side)),
        _ => (DealResult::Omgiv, None),
    }
}

/// The deal's ritor as score terms by side: the side that scores and why, and a zero term for
/// the other; an omgiv gives each side a zero term.
pub fn score_terms(result: DealResult, winning_side: Option<usize>, side_tricks: [u8; 2]) -> Vec<ScoreTerm> {
    let Some(w) = winning_side else {
        let [a, b] = side_tricks;
        return (0..2)
            .map(|s| {
                let (who_sv, who_en) = side_text(s);
                ScoreTerm::new(
                    s,
                    0,
                    rule::NO_RITA,
                    format!("Inget lag fick sex stick ({a} mot {b}) och klöver kung avgjorde inte: ingen rita för {who_sv}, och samma giv delar om."),
                    format!("No side took six tricks ({a} to {b}) and the king of clubs did not decide: no rita for {who_en}, and the same dealer deals again."),
                )
            })
            .collect();
    };
    let (who_sv, who_en) = side_text(w);
    let t = side_tricks[w];
    let (points, rule, sv, en) = match result {
        DealResult::Jan => (
            2,
            rule::JAN,
            format!("{who_sv} tog sina sex stick i rad: jan, två ritor."),
            format!("{who_en} took its six tricks in a row: jan, two ritor."),
        ),
        DealResult::Utslagskortet => (
            1,
            rule::KING_OF_CLUBS,
            format!("Fem stick var, och {who_sv} har klöver kung i sina stick: en rita."),
            format!("Five tricks each, and {who_en} has the king of clubs among its tricks: one rita."),
        ),
        _ => {
            (1, rule::RITA, format!("{who_sv} tog {t} stick: en rita."), format!("{who_en} took {t} tricks: one rita."))
        }
    };
    let l = 1 - w;
    let (lost_sv, lost_en) = side_text(l);
    let lt = side_tricks[l];
    vec![
        ScoreTerm::new(w, points, rule, sv, en),
        ScoreTerm::new(
            l,
            0,
            rule::LOSER_NOTHING,
            format!("{lost_sv} tog {lt} stick: ingen rita."),
            format!("{lost_en} took {lt} tricks: no rita."),
        ),
    ]
}

fn score_deal(state: &State, deal: &Deal) -> Vec<Event> {
    let side_tricks = deal.side_tricks();
    let winners: Vec<usize> = deal.play.tricks.iter().map(|t| side_of(t.winner)).collect();
    let king_of_clubs = deal.king_of_clubs();
    let (result, winning_side) = result_of(side_tricks, &winners, king_of_clubs);
    let terms = score_terms(result, winning_side, side_tricks);
    let (points, scores) = state.deals.tally::<2>(&terms);
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        tricks_taken: std::array::from_fn(|s| deal.play.taken[s] as u8),
        side_tricks,
        result,
        winning_side,
        king_of_clubs,
        terms,
        points,
        scores,
        redeal: result == DealResult::Omgiv,
    }];
    let target = state.options.target;
    if let Some(side) = winning_side.filter(|&s| scores[s] >= target) {
        let (won, lost) = (scores[side], scores[1 - side]);
        let mut explanation = deals::side_reached_target(side, won, lost, target);
        if lost == 0 {
            explanation.sv.push_str(" Förlorarna fick inte en enda rita: de är pissmunkar.");
            explanation.en.push_str(" The losers did not score a single rita: they are pissmunkar.");
        }
        events.push(Event::MatchEnded {
            side,
            winners: seats_of(side).to_vec(),
            scores,
            target,
            pissmunkar: lost == 0,
            explanation,
        });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The table view

/// Where the match is: `waiting-for-deal` before the first deal, `playing` the tricks,
/// `deal-over` once the deal is scored and the next is awaited, `finished` once a side has won.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No deal has been dealt yet.
    WaitingForDeal,
    /// The tricks are being played.
    Playing,
    /// The deal is over and scored; the next deal is awaited.
    DealOver,
    /// A side reached the target and won the match.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// The table as one viewer sees it: the match, and from the first deal on the deal being played
/// (or the last one played). A seat sees its own hand; a finished deal's record shows every
/// hand, the deck and every trick.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, ritor by side, who is to act, how it ended.
    #[serde(flatten)]
    pub deals: MatchView,

    /// The options the match is played with.
    pub options: Options,
    /// The ritor that win the match.
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
    /// Tricks taken in this deal by each side, sevens included: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub side_tricks: Option<[u8; 2]>,
    /// The seats that stood over in the trick on the table, in turn: absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub stood_over: Option<Vec<Seat>>,
    /// The tricks of this deal won by nobody, first first: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub set_aside: Option<Vec<SetAsideTrick>>,
    /// How the deal ended: null while it is played, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Option<DealResult>>,
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

/// The test bot: the basic bot's card, but now and then any card it may play, so that random
/// matches see every kind of trick.
fn bot_play(deal: &Deal, seat: Seat, rng: &mut Rng) -> Card {
    let legal = deal.playable(seat);
    if legal.len() == 1 || rng.below(6) == 0 {
        return legal[rng.below(legal.len())];
    }
    basic_play(deal, seat)
}

/// Leads a card nobody else can beat if it holds one (a trick of its own), else a worthless
/// card, which draws the others' cards of the order, else its lowest card. Following, it
/// plays the lowest card that surely wins, else the lowest card it may, since a card played
/// over its partner's or under a later player's is spent for nothing.
fn basic_play(deal: &Deal, seat: Seat) -> Card {
    let legal = deal.playable(seat);
    let mut gone: Vec<Card> = deal.play.played().map(|(_, c)| c).collect();
    gone.extend(deal.set_aside_cards());
    gone.extend_from_slice(&deal.play.hands[seat]);
    let best_elsewhere = pack().into_iter().filter(|c| !gone.contains(c)).filter_map(strength).max().unwrap_or(0);
    let by_strength = |c: &Card| (strength(*c).unwrap_or(0), *c);
    let lowest = |cards: &mut dyn Iterator<Item = Card>| cards.min_by_key(by_strength);
    let sure = lowest(&mut legal.iter().copied().filter(|&c| strength(c).unwrap_or(0) > best_elsewhere));
    let lowest_legal = lowest(&mut legal.iter().copied()).expect("a seat to act has a card to play");
    match deal.play.trick.plays.last() {
        None => sure.or_else(|| legal.iter().copied().find(|&c| strength(c).is_none())).unwrap_or(lowest_legal),
        Some(&(top, _)) if side_of(top) == side_of(seat) => lowest_legal,
        Some(_) => sure.unwrap_or(lowest_legal),
    }
}

/// What the play has shown everyone about the hands: the strongest card of the order each seat
/// may still hold (one that stood over held nothing above the card before it, and cards are
/// never drawn), and whether it may still hold a seven (forehand and every trick's winner lay
/// all theirs down at once).
fn shown_limits(deal: &Deal) -> ([u8; SEATS], [bool; SEATS]) {
    let mut most = [u8::MAX; SEATS];
    let mut sevens = [true; SEATS];
    sevens[deal.forehand()] = false;
    // Every seat in turn after the leader either played or stood over the card on top.
    let mut note = |leader: Seat, plays: &[(Seat, Card)], turns: usize| {
        let mut top = None;
        for s in (0..turns).map(|i| TABLE.after(leader, i)) {
            match plays.iter().find(|(p, _)| *p == s) {
                Some(&(_, c)) => top = Some(c),
                None => {
                    if let Some(top) = top {
                        most[s] = most[s].min(strength(top).unwrap_or(0));
                    }
                }
            }
        }
    };
    let pairs = |plays: &[Play]| -> Vec<(Seat, Card)> { plays.iter().map(|p| (p.seat, p.card)).collect() };
    for t in deal.play.tricks.iter().filter(|t| t.reason == WinReason::HighestCard) {
        sevens[t.winner] = false;
        note(t.leader, &pairs(&t.plays), SEATS);
    }
    for t in &deal.set_aside {
        note(t.leader, &pairs(&t.plays), SEATS);
    }
    let on_table = &deal.play.trick;
    note(on_table.leader, &on_table.plays, on_table.plays.len() + deal.stood_over.len());
    (most, sevens)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Braus {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "braus";
    const PLAYERS: RangeInclusive<usize> = SEATS..=SEATS;
    const RULEBOOK: &'static str = include_str!("rulebooks/braus.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        [DEFAULT_TARGET, 1, 3].into_iter().map(|target| Options { target }).collect()
    }

    fn setup(&self, _players: usize, options: Options) -> Result<State, SetupError> {
        deals::check_target(options.target)?;
        Ok(State { options, deals: Deals::new(2), winning_side: None })
    }

    fn status(&self, state: &State) -> Status {
        state.deals.status(pack)
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals.number
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let forehand = TABLE.forehand(dealer);
        let hands = deals::deal_singly(&TABLE, dealer, &deck);
        let sevens: Vec<Card> = sorted(hands[forehand].iter().copied().filter(|&c| is_seven(c)).collect());
        let mut events = vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand,
            deck,
            hands: std::array::from_fn(|s| sorted(hands[s].clone())),
            scores: [state.deals.scores[0], state.deals.scores[1]],
            options: state.options.clone(),
        }];
        // At most four sevens: forehand's side cannot reach six before the first lead.
        events.extend(sevens.into_iter().enumerate().map(|(i, card)| Event::SevenLaid {
            seat: forehand,
            card,
            trick_number: i as u8 + 1,
            rule: rule::SEVENS_FOREHAND.to_string(),
        }));
        Ok(events)
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match *command {
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
                    play: TrickPlay::new(TABLE, hands.to_vec(), TABLE.forehand(*dealer), MOST_TRICKS),
                    stood_over: Vec::new(),
                    set_aside: Vec::new(),
                    result: None,
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { terms, scores, redeal, .. } => {
                state.deals.scored(terms, scores);
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.apply(event);
                    if *redeal {
                        state.deals.next_dealer = deal.dealer;
                    }
                }
            }
            Event::MatchEnded { side, winners, explanation, .. } => {
                state.winning_side = Some(*side);
                state.deals.ended(winners, explanation);
            }
            _ => {
                if let Some(deal) = state.deals.deal.as_mut() {
                    deal.apply(event);
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        deal.playable(seat).into_iter().map(|card| Command::Play { card }).collect()
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        pack().into_iter().map(|card| Command::Play { card }).collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(SEATS);
        let record = viewer == Viewer::Record;
        let deal = state.deals.deal.as_ref();
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, SEATS, deal.map(|d| d.dealer)),
            options: state.options.clone(),
            target: state.options.target,
            sides: [seats_of(0), seats_of(1)],
            winning_side: state.winning_side,
            side: me.map(side_of),
            forehand: deal.map(Deal::forehand),
            side_tricks: deal.map(Deal::side_tricks),
            stood_over: deal.map(|d| d.stood_over.clone()),
            set_aside: deal.map(|d| d.set_aside.clone()),
            result: deal.map(|d| d.result),
            deck: deal.filter(|_| record).map(|d| d.deck.clone()),
            play: deal.map(|d| d.play.view(record)).unwrap_or_default(),
            hand: deal.zip(me).map(|(d, s)| d.play.hands[s].clone()),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        if let Event::DealStarted { deal_number, hands, .. } = event {
            // Without a live deal of its own, the event belongs to a deal that is over.
            if viewer != Viewer::Record && !deal_over && state.deals.live().is_some_and(|d| d.number == *deal_number) {
                deals::hide_hands(&mut full, hands, viewer);
            }
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        deal.play.hand_secrets(|_, _| false)
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let scores = &state.deals.scores;
        let target = state.options.target;
        match (state.winning_side, &state.deals.outcome) {
            (Some(side), Some(outcome)) => {
                if scores[side] < target || scores[1 - side] >= target {
                    return Err(format!("side {side} won with ritor {scores:?} and target {target}"));
                }
                if outcome.winners != seats_of(side) {
                    return Err(format!("side {side} won but the winners are {:?}", outcome.winners));
                }
            }
            (None, None) => {}
            _ => return Err("a winning side without an outcome, or the reverse".into()),
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = pack();
        if !is_permutation(&deal.deck, &pack) {
            return Err("the recorded deck is not the pack of 36".into());
        }
        let set_aside = deal.set_aside_cards();
        let kept = |s: Seat| deal.set_aside.iter().flat_map(|t| &t.plays).filter(|p| p.seat == s).count();
        deal.play.check_uneven(&pack, &set_aside, |s| HAND - kept(s))?;
        if deal.side_tricks().iter().any(|&t| t > SIX) {
            return Err(format!("side tricks {:?}: the play stops at six", deal.side_tricks()));
        }
        if let Some(t) = deal.play.tricks.last() {
            let plays: Vec<(Seat, Card)> = t.plays.iter().map(|p| (p.seat, p.card)).collect();
            let ok = match t.reason {
                WinReason::LaidAsTrick => plays == [(t.winner, t.card)] && t.leader == t.winner && is_seven(t.card),
                WinReason::HighestCard => {
                    check_climb(t.leader, &plays).is_ok() && trick_winner(&plays) == Some((t.winner, t.card))
                }
                _ => false,
            };
            if !ok {
                return Err(format!("trick {} was not played or laid down as the rules say: {t:?}", t.number));
            }
        }
        if let Some(t) = deal.set_aside.last() {
            let plays: Vec<(Seat, Card)> = t.plays.iter().map(|p| (p.seat, p.card)).collect();
            if check_climb(t.leader, &plays).is_err() || trick_winner(&plays).is_some() {
                return Err(format!("a trick set aside holds a card that wins: {t:?}"));
            }
        }
        check_climb(deal.play.trick.leader, &deal.play.trick.plays)?;
        let turns = deal.play.trick.plays.len() + deal.stood_over.len();
        let stood_in_turn = deal.stood_over.iter().all(|s| {
            let i = (s + SEATS - deal.play.trick.leader) % SEATS;
            i > 0 && i < turns && !deal.play.trick.plays.iter().any(|(p, _)| p == s)
        });
        if !stood_in_turn || turns > SEATS || (deal.play.trick.is_empty() && !deal.stood_over.is_empty()) {
            return Err(format!("seats {:?} stood over out of turn", deal.stood_over));
        }
        Ok(())
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        Some(Command::Play { card: bot_play(deal, seat, &mut Rng::new(seed)) })
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// Two thirds of the usual search and at most 24 worlds: Bräus's playouts are the dearest
    /// of the games, and the full budget took 23 ms of CPU at p99 (`benches/bots.rs`).
    fn strong_budget(&self) -> bots::Budget {
        bots::Budget { playouts: 320, max_samples: 24, ..bots::Budget::STRONG }
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        Some(Command::Play { card: basic_play(deal, seat) })
    }

    /// The deal as `seat` knows it: its own hand, the cards played and set aside; the other
    /// hands dealt afresh from the rest, keeping their sizes and what the play has shown of them
    /// (no card above one they stood over, no seven once they laid theirs down).
    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        let deal = state.deals.live()?;
        let (most, sevens) = shown_limits(deal);
        let played: Vec<Card> = deal.play.played().map(|(_, c)| c).chain(deal.set_aside_cards()).collect();
        let seen: Vec<Card> = deal.play.hands[seat].iter().chain(&played).copied().collect();
        let pool: Vec<Card> = pack().into_iter().filter(|c| !seen.contains(c)).collect();
        let others: Vec<Seat> = (0..SEATS).filter(|&s| s != seat).collect();
        let sizes: Vec<usize> = others.iter().map(|&s| deal.play.hands[s].len()).collect();
        let may_hold = |pile: usize, c: Card| {
            let s = others[pile];
            if is_seven(c) {
                sevens[s]
            } else {
                strength(c).unwrap_or(0) <= most[s]
            }
        };
        let dealt = bots::redeal_where(&pool, &sizes, may_hold, rng);
        let mut world = state.clone();
        let w = world.deals.live_mut()?;
        for (&s, hand) in others.iter().zip(dealt) {
            w.play.hands[s] = sorted(hand);
        }
        // Not the deck as dealt (which nobody may see), but the same cards.
        w.deck = w.play.hands.iter().flatten().copied().chain(played).collect();
        Some(world)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let side = side_of(seat);
        (state.deals.scores[side] - state.deals.scores[1 - side]) as f64
    }
}

/// The cards of a trick were played in turn from its leader, none a seven, each beating the one
/// before.
fn check_climb(leader: Seat, plays: &[(Seat, Card)]) -> Result<(), String> {
    let offsets: Vec<usize> = plays.iter().map(|(s, _)| (s + SEATS - leader) % SEATS).collect();
    let in_turn = offsets.first().is_none_or(|&o| o == 0) && offsets.windows(2).all(|w| w[0] < w[1]);
    let climbs = plays.windows(2).all(|w| beats(w[1].1, w[0].1));
    if !in_turn || !climbs || plays.iter().any(|(_, c)| is_seven(*c)) {
        return Err(format!("the trick led by seat {leader} was not played in turn, each card higher: {plays:?}"));
    }
    Ok(())
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
    type M = Driver<Braus>;

    fn play(code: &str) -> Command {
        Command::Play { card: card(code) }
    }

    impl Driver<Braus> {
        fn with(options: Value) -> M {
            M::new(4, serde_json::from_value(options).unwrap())
        }

        /// Deals these hands, whoever deals.
        fn deal_hands(&mut self, codes: [&str; 4]) -> Vec<Event> {
            let hands = codes.map(cards);
            let all: Vec<Card> = hands.iter().flatten().copied().collect();
            assert!(is_permutation(&all, &pack()), "the four hands must make the pack of 36");
            let dealer = self.state.deals.next_dealer;
            let deck: Vec<Card> = (0..36).map(|i| hands[(dealer + 1 + i) % SEATS][i / 4]).collect();
            self.deal(deck)
        }

        /// Plays these cards, each by the seat whose turn it is.
        fn plays(&mut self, codes: &str) -> Vec<Event> {
            let mut events = Vec::new();
            for c in cards(codes) {
                let seat = self.to_act()[0];
                events.extend(self.ok(seat, Command::Play { card: c }));
            }
            events
        }

        fn current(&self) -> &Deal {
            self.state.deals.deal.as_ref().unwrap()
        }

        fn view(&self, viewer: Viewer) -> Value {
            serde_json::to_value(Braus.view(&self.state, viewer)).unwrap()
        }
    }

    /// The text's play in one deal: forehand's seven, a trick of four cards, the winner's
    /// sevens, a trick of one card with three stand-overs, a forced card, a worthless lead
    /// beaten, and a rita for the side reaching six with the king of clubs in its tricks.
    const DEAL_G: [&str; 4] = [
        "7C 6C AC 9C JC 8S KH 7S 7H",
        "7D 6D JD AD 9D QC QS QH QD",
        "6H JH AH 9H TC TS TH TD 8C",
        "6S JS AS 9S 8H 8D KS KD KC",
    ];

    fn rules_of(events: &[Event]) -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::SevenLaid { rule, .. } => Some(rule.clone()),
                _ => None,
            })
            .collect()
    }

    // --- the cards ----------------------------------------------------------------------------

    #[test]
    fn the_order_of_the_cards_is_the_rules_notes_table() {
        let order: Vec<Card> = RANKING.iter().map(|c| card(c)).collect();
        for pair in order.windows(2) {
            assert!(beats(pair[0], pair[1]) && !beats(pair[1], pair[0]), "{pair:?}");
        }
        assert_eq!((strength(card("JC")), strength(card("6D"))), (Some(18), Some(1)));
        // Within a rank: clubs, spades, hearts, diamonds.
        assert!(beats(card("9C"), card("9S")) && beats(card("9S"), card("9H")) && beats(card("9H"), card("9D")));
        assert!(beats(card("6C"), card("6S")) && !beats(card("6S"), card("6C")));
        let worthless = cards("8C 8H 8D TC TS TH TD QC QS QH QD KS KD KC");
        for c in worthless.iter().chain(&cards("7C 7S 7H 7D")) {
            assert_eq!(strength(*c), None, "{c}");
            // Any card of the order beats a worthless one; a worthless card beats nothing.
            assert!(beats(card("6D"), *c) && !beats(*c, card("6D")) && !beats(*c, card("QC")));
        }
        assert_eq!(order.len() + worthless.len() + 4, 36);
        assert_eq!(trick_winner(&[(1, card("QC"))]), None);
        assert_eq!(trick_winner(&[(1, card("QC")), (2, card("6D")), (3, card("AD"))]), Some((3, card("AD"))));
    }

    // --- the text's rules, played -------------------------------------------------------------

    #[test]
    fn forehand_lays_his_sevens_first_and_each_is_a_trick() {
        let mut m = M::with(json!({}));
        let events = m.deal_hands(DEAL_G);
        assert_eq!(
            events[1..],
            [Event::SevenLaid { seat: 1, card: card("7D"), trick_number: 1, rule: rule::SEVENS_FOREHAND.into() }]
        );
        assert_eq!(m.to_act(), [1]);
        let view = m.view(Viewer::Seat(1));
        assert_eq!((view["side_tricks"].clone(), view["tricks_taken"].clone()), (json!([0, 1]), json!([0, 1, 0, 0])));
        assert_eq!(view["last_trick"]["reason"], "laid-as-trick");
        assert_eq!(view["hand"], json!(cards("QC 6D 9D JD QD AD QH QS")));
        // The leader may lead anything but a seven, worthless cards included.
        let legal: Vec<Command> = cards("QC 6D 9D JD QD AD QH QS").iter().map(|c| play(&c.code())).collect();
        let mut sorted_legal = legal.clone();
        sorted_legal.sort_by_key(|Command::Play { card }| *card);
        assert_eq!(m.legal(1), sorted_legal);
    }

    #[test]
    fn each_card_must_beat_the_one_before_and_who_cannot_stands_over() {
        let mut m = M::with(json!({}));
        m.deal_hands(DEAL_G);
        m.plays("6D");
        // Seat 2 must beat the six of diamonds with a card of the order.
        assert_eq!(m.legal(2), ["6H", "9H", "JH", "AH"].map(play));
        let refusal = m.refused(2, play("TH"));
        assert_eq!(refusal.rule, rule::HIGHER);
        assert!(
            refusal.explanation.en.contains("TH, which is worthless and beats no card"),
            "{}",
            refusal.explanation.en
        );
        assert_eq!(m.refused(2, play("7H")).rule, core::CARD_NOT_HELD);
        m.plays("6H 6S");
        // Seat 0 may not play a seven, though it holds three.
        let refusal = m.refused(0, play("7C"));
        assert_eq!(refusal.rule, rule::SEVENS_NOT_PLAYED);
        assert!(refusal.explanation.sv.contains("sjuor spelas aldrig"));
        // A trick of four cards: the last and highest takes it, and its winner lays his sevens
        // at once, each a trick.
        let events = m.plays("6C");
        assert_eq!(
            events[1],
            Event::TrickWon {
                trick_number: 2,
                winner: 0,
                card: card("6C"),
                plays: ["6D", "6H", "6S", "6C"]
                    .iter()
                    .enumerate()
                    .map(|(i, c)| Play { seat: (1 + i) % SEATS, card: card(c) })
                    .collect(),
                stood_over: vec![],
            }
        );
        assert_eq!(rules_of(&events), [rule::SEVENS_WINNER; 3]);
        assert_eq!(m.current().side_tricks(), [4, 1]);
        assert_eq!(m.to_act(), [0]);
        // Nobody can beat the eight of spades: three stand-overs, a trick of one card.
        let events = m.plays("8S");
        assert_eq!(
            events[1..],
            [
                Event::StoodOver { seat: 1, trick_number: 6 },
                Event::StoodOver { seat: 2, trick_number: 6 },
                Event::StoodOver { seat: 3, trick_number: 6 },
                Event::TrickWon {
                    trick_number: 6,
                    winner: 0,
                    card: card("8S"),
                    plays: vec![Play { seat: 0, card: card("8S") }],
                    stood_over: vec![1, 2, 3],
                },
            ]
        );
        // Over the ace of clubs only a nine will do: seat 1 has one choice, and the ace of
        // diamonds is too low.
        m.plays("AC");
        assert_eq!(m.legal(1), [play("9D")]);
        let refusal = m.refused(1, play("AD"));
        assert_eq!(refusal.rule, rule::HIGHER);
        assert!(refusal.explanation.en.contains("AD, which is lower than AC"), "{}", refusal.explanation.en);
        let view = m.view(Viewer::Spectator);
        assert_eq!(view["trick"]["plays"], json!([{ "seat": 0, "card": "AC" }]));
        let events = m.plays("9D 9H 9S");
        assert!(matches!(events.last(), Some(Event::TrickWon { trick_number: 7, winner: 3, .. })));
        assert_eq!(m.current().side_tricks(), [5, 2]);
    }

    #[test]
    fn six_tricks_stop_the_play_and_score_a_rita() {
        let mut m = M::with(json!({}));
        m.deal_hands(DEAL_G);
        m.plays("6D 6H 6S 6C 8S AC 9D 9H 9S");
        // Seat 3 leads the worthless king of clubs; seat 0 beats it and the others stand over.
        let events = m.plays("KC 9C");
        let scored = events.iter().find_map(|e| match e {
            Event::DealScored { side_tricks, result, winning_side, king_of_clubs, terms, scores, redeal, .. } => {
                Some((*side_tricks, *result, *winning_side, *king_of_clubs, terms.clone(), *scores, *redeal))
            }
            _ => None,
        });
        let (side_tricks, result, winning_side, king, terms, scores, redeal) = scored.expect("the deal is scored");
        // Side 1 took the seventh trick, so side 0's six did not come in a row: a rita, not jan.
        assert_eq!(
            (side_tricks, result, winning_side, king, scores, redeal),
            ([6, 2], DealResult::Rita, Some(0), Some(0), [1, 0], false)
        );
        assert_eq!((terms[0].to, terms[0].points, terms[0].rule.as_str()), (0, 1, rule::RITA));
        assert_eq!((terms[1].to, terms[1].points, terms[1].rule.as_str()), (1, 0, rule::LOSER_NOTHING));
        assert!(terms[0].explanation.en.contains("took 6 tricks: one rita"), "{}", terms[0].explanation.en);
        // Cards are left in the hands, and the play does not go on.
        assert!(m.to_act().is_empty());
        assert!(matches!(Braus.status(&m.state), Status::NeedsDeck { .. }));
        let view = m.view(Viewer::Record);
        assert_eq!((view["phase"].clone(), view["result"].clone()), (json!("deal-over"), json!("rita")));
        assert_eq!(view["hands"][1], json!(cards("QC JD QD AD QH QS")));
        assert_eq!(view["next_dealer"], 1);
    }

    #[test]
    fn the_ritor_decide_as_the_text_says() {
        // Six in a row is jan, even after the other side took tricks; a run of five is not.
        assert_eq!(result_of([6, 2], &[1, 1, 0, 0, 0, 0, 0, 0], None), (DealResult::Jan, Some(0)));
        assert_eq!(result_of([2, 6], &[0, 1, 1, 1, 1, 1, 0, 1], Some(0)), (DealResult::Rita, Some(1)));
        // Five all: the king of clubs decides, and only at five all.
        assert_eq!(result_of([5, 5], &[0, 1, 0, 1, 0, 1, 0, 1, 0, 1], Some(1)), (DealResult::Utslagskortet, Some(1)));
        assert_eq!(result_of([5, 5], &[0, 1, 0, 1, 0, 1, 0, 1, 0, 1], None), (DealResult::Omgiv, None));
        assert_eq!(result_of([5, 4], &[0, 1, 0, 1, 0, 1, 0, 1, 0], Some(0)), (DealResult::Omgiv, None));
        let jan = score_terms(DealResult::Jan, Some(1), [2, 6]);
        assert_eq!((jan[0].to, jan[0].points, jan[0].rule.as_str()), (1, 2, rule::JAN));
        let king = score_terms(DealResult::Utslagskortet, Some(0), [5, 5]);
        assert_eq!((king[0].points, king[0].rule.as_str()), (1, rule::KING_OF_CLUBS));
        let omgiv = score_terms(DealResult::Omgiv, None, [4, 5]);
        assert!(omgiv.iter().all(|t| t.points == 0 && t.rule == rule::NO_RITA) && omgiv.len() == 2);
    }

    /// Every seat plays its first legal card until the deal is over; the deal's score.
    fn played_out(m: &mut M, hands: [&str; 4]) -> (DealResult, [u8; 2], Option<usize>, Vec<ScoreTerm>, bool) {
        m.deal_hands(hands);
        let events = m.finish_deal();
        events
            .iter()
            .find_map(|e| match e {
                Event::DealScored { result, side_tricks, king_of_clubs, terms, redeal, .. } => {
                    Some((*result, *side_tricks, *king_of_clubs, terms.clone(), *redeal))
                }
                _ => None,
            })
            .expect("the deal is scored")
    }

    #[test]
    fn no_side_at_six_is_an_omgiv_dealt_again_by_the_same_dealer() {
        let mut m = M::with(json!({}));
        // The cards run out at four tricks to five: no rita.
        let hands = [
            "7C TC 6D QD KD 6H 7H 6S 7S",
            "7D 8D 9D TD 9H TS JS KS AS",
            "6C 8C JC QC AC JD AD JH 8S",
            "9C KC 8H TH QH KH AH 9S QS",
        ];
        let (result, side_tricks, _, terms, redeal) = played_out(&mut m, hands);
        assert_eq!((result, side_tricks, redeal), (DealResult::Omgiv, [4, 5], true));
        assert!(terms.iter().all(|t| t.points == 0 && t.rule == rule::NO_RITA));
        assert_eq!(m.state.deals.scores, [0, 0]);
        // Nobody holds a card but sevens, which were never laid and count for nobody.
        assert!(m.current().play.hands.iter().flatten().all(|&c| is_seven(c)));
        assert!(!m.current().set_aside.is_empty(), "worthless cards nobody could beat were set aside");
        assert_eq!(m.view(Viewer::Spectator)["next_dealer"], 0);
        let events = m.deal_hands(hands);
        assert!(matches!(events[0], Event::DealStarted { deal_number: 2, dealer: 0, .. }));
    }

    #[test]
    fn five_all_without_the_king_of_clubs_in_a_won_trick_is_an_omgiv() {
        let mut m = M::with(json!({}));
        let (result, side_tricks, king, _, redeal) = played_out(
            &mut m,
            [
                "QC 7D 8D JD 6H 8H 9H KH AH",
                "6C 8C 9C TC 7H 7S TS JS QS",
                "7C AC 6D KD AD QH 6S KS AS",
                "JC KC 9D TD QD TH JH 8S 9S",
            ],
        );
        assert_eq!((result, side_tricks, king, redeal), (DealResult::Omgiv, [5, 5], None, true));
        let in_tricks = m.current().play.tricks.iter().any(|t| t.plays.iter().any(|p| p.card == KING_OF_CLUBS));
        assert!(!in_tricks);
    }

    #[test]
    fn a_side_that_reaches_the_target_wins_and_the_others_may_be_pissmunkar() {
        let mut m = M::with(json!({ "target": 1 }));
        m.deal_hands(DEAL_G);
        let events = m.plays("6D 6H 6S 6C 8S AC 9D 9H 9S KC 9C");
        let Some(Event::MatchEnded { side, winners, scores, target, pissmunkar, explanation }) = events.last() else {
            panic!("{events:?}")
        };
        assert_eq!((*side, winners.as_slice(), *scores, *target, *pissmunkar), (0, &[0, 2][..], [1, 0], 1, true));
        assert!(explanation.en.contains("pissmunkar") && explanation.sv.contains("pissmunkar"));
        assert_eq!(m.refused(1, play("QC")).rule, core::MATCH_OVER);
        assert!(Braus.status(&m.state).is_finished());
        assert!(Braus.legal_moves(&m.state, 3).is_empty() && Braus.bot_move(&m.state, 3, 1).is_none());
        let view = m.view(Viewer::Spectator);
        assert_eq!((view["phase"].clone(), view["winning_side"].clone()), (json!("finished"), json!(0)));
    }

    #[test]
    fn the_deal_passes_left_and_cards_go_one_at_a_time_from_forehand() {
        let mut m = M::with(json!({ "target": 100 }));
        let deck = pack();
        let events = m.deal(deck.clone());
        let Event::DealStarted { dealer, forehand, hands, deck: recorded, .. } = &events[0] else { panic!() };
        assert_eq!((*dealer, *forehand, recorded), (0, 1, &deck));
        for (i, c) in deck.iter().enumerate() {
            assert!(hands[(1 + i) % SEATS].contains(c), "card {i} goes to seat {}", (1 + i) % SEATS);
        }
        assert!(hands.iter().all(|h| h.len() == HAND));
        m.finish_deal();
        assert_eq!(Braus.deal_number(&m.state), 1);
    }

    #[test]
    fn options_have_defaults_and_are_checked() {
        let game = erase(Braus);
        assert_eq!(game.normalize_options(&Value::Null).unwrap(), json!({ "target": 6 }));
        assert!(game.setup(4, &json!({ "target": 0 })).is_err());
        assert!(game.setup(3, &json!({})).is_err());
        assert!(game.normalize_options(&json!({ "jan": 3 })).is_err());
    }

    #[test]
    fn commands_and_events_have_their_json_shapes() {
        assert_eq!(serde_json::from_value::<Command>(json!({ "type": "play", "card": "JC" })).unwrap(), play("JC"));
        let json_of = |e: Event| serde_json::to_value(e).unwrap();
        assert_eq!(
            json_of(Event::TrickSetAside {
                leader: 2,
                plays: vec![Play { seat: 2, card: card("QH") }],
                stood_over: vec![3, 0, 1]
            }),
            json!({ "type": "trick_set_aside", "leader": 2, "plays": [{ "seat": 2, "card": "QH" }], "stood_over": [3, 0, 1] })
        );
        assert_eq!(json_of(Event::LeadPassed { from: 3, to: 0 }), json!({ "type": "lead_passed", "from": 3, "to": 0 }));
        assert_eq!(
            json_of(Event::StoodOver { seat: 1, trick_number: 4 }),
            json!({ "type": "stood_over", "seat": 1, "trick_number": 4 })
        );
        assert_eq!(serde_json::to_value(DealResult::Utslagskortet).unwrap(), json!("utslagskortet"));
    }

    #[test]
    fn deal_started_shows_each_seat_only_its_own_hand_until_the_deal_is_over() {
        let mut m = M::with(json!({ "target": 100 }));
        let events = m.deal_hands(DEAL_G);
        let e = &events[0];
        let full = serde_json::to_value(e).unwrap();
        let own = Braus.redact(&m.state, e, Viewer::Seat(2), false);
        assert_eq!(own["deck"], Value::Null);
        assert_eq!(own["hands"][2], full["hands"][2]);
        assert_eq!(own["hands"][0], Value::Null);
        assert_eq!(own["hand_sizes"], json!([9, 9, 9, 9]));
        assert!(cards_in(&Braus.redact(&m.state, e, Viewer::Spectator, false)).is_empty());
        assert_eq!(Braus.redact(&m.state, e, Viewer::Record, false), full);
        // The seven forehand laid is public.
        assert!(Braus.secrets(&m.state).iter().all(|(c, _)| *c != card("7D")));
        m.finish_deal();
        assert_eq!(Braus.redact(&m.state, e, Viewer::Spectator, false), full);
        assert!(Braus.secrets(&m.state).is_empty());
    }

    // --- random matches -----------------------------------------------------------------------

    /// What every match's log must show, and (into `seen`) what kinds of deal and play it had.
    fn check_log(options: &Value, log: &[Value], seen: &mut BTreeSet<String>) {
        let book = Braus.rulebook();
        let target = options["target"].as_i64().unwrap_or(DEFAULT_TARGET);
        let mut totals = [0i64; 2];
        let mut dealer_due = 0;
        let mut side_tricks = [0u8; 2];
        let mut due_to_lead: Option<Seat> = None;
        let mut ended = None;
        for value in log {
            assert!(ended.is_none(), "an event after the end of the match: {value}");
            let event = serde_json::from_value::<Event>(value.clone()).unwrap();
            if let Event::CardPlayed { seat, .. } | Event::LeadPassed { from: seat, .. } = &event {
                if let Some(leader) = due_to_lead.take() {
                    assert_eq!(*seat, leader, "the leader of a trick set aside leads again");
                }
            }
            match event {
                Event::DealStarted { scores, dealer, .. } => {
                    assert_eq!(scores, totals, "a deal starts from the ritor so far");
                    assert_eq!(dealer, dealer_due);
                    side_tricks = [0, 0];
                }
                Event::SevenLaid { seat, card, rule, .. } => {
                    assert!(is_seven(card));
                    side_tricks[side_of(seat)] += 1;
                    seen.insert(rule);
                }
                Event::TrickWon { winner, card, plays, stood_over, .. } => {
                    assert_eq!(plays.len() + stood_over.len(), SEATS);
                    assert_eq!(plays.last().map(|p| (p.seat, p.card)), Some((winner, card)));
                    side_tricks[side_of(winner)] += 1;
                    seen.insert(format!("trick of {} cards", plays.len()));
                }
                Event::TrickSetAside { leader, plays, stood_over } => {
                    assert_eq!(plays.len() + stood_over.len(), SEATS);
                    assert!(plays.iter().all(|p| strength(p.card).is_none()));
                    due_to_lead = Some(leader);
                    seen.insert("set aside".into());
                }
                Event::LeadPassed { .. } => {
                    seen.insert("lead passed".into());
                }
                Event::DealScored {
                    side_tricks: scored,
                    result,
                    winning_side,
                    terms,
                    scores,
                    redeal,
                    deal_number,
                    ..
                } => {
                    assert_eq!(scored, side_tricks, "deal {deal_number}");
                    assert!(side_tricks.iter().all(|&t| t <= SIX));
                    assert_eq!(redeal, result == DealResult::Omgiv);
                    assert_eq!(winning_side.is_some(), !redeal);
                    let expected = score_terms(result, winning_side, side_tricks);
                    assert_eq!(terms, expected);
                    for t in &terms {
                        assert!(book.rule(&t.rule).is_some(), "{} is not in the rulebook", t.rule);
                        totals[t.to] += t.points;
                    }
                    assert_eq!(scores, totals);
                    if side_tricks.iter().all(|&t| t < SIX) {
                        seen.insert("cards ran out".into());
                    }
                    seen.insert(format!("{result:?}"));
                    dealer_due = if redeal { dealer_due } else { (dealer_due + 1) % SEATS };
                    due_to_lead = None;
                }
                Event::MatchEnded { side, winners, scores, target: t, pissmunkar, .. } => {
                    assert_eq!(t, target);
                    assert!(scores[side] >= target && scores[1 - side] < target, "{scores:?}");
                    assert_eq!(winners, seats_of(side));
                    assert_eq!(pissmunkar, scores[1 - side] == 0);
                    ended = Some(scores);
                }
                Event::CardPlayed { .. } | Event::StoodOver { .. } => {}
            }
        }
        assert_eq!(ended, Some(totals), "the match ends with the sum of the scored terms");
    }

    /// The generic harness plays every option set with every check; here many more matches,
    /// each log checked for Bräus's own books, and every kind of deal and play seen.
    #[test]
    fn random_match_logs_add_up_and_every_kind_of_deal_happens() {
        let mut seen = BTreeSet::new();
        let plan = Plan { invariants: 10, log_only: 150, ..Plan::default() };
        random_matches(&*erase(Braus), plan, |_, options, report| check_log(options, &report.log, &mut seen))
            .unwrap_or_else(|e| panic!("{e}"));
        for kind in [
            "Rita",
            "Jan",
            "Utslagskortet",
            "set aside",
            "lead passed",
            "cards ran out",
            "trick of 1 cards",
            "trick of 4 cards",
            rule::SEVENS_FOREHAND,
            rule::SEVENS_WINNER,
        ] {
            assert!(seen.contains(kind), "{kind} never happened: {seen:?}");
        }
    }
}
