//! Whist: four players, 52 cards, trumps set by the dealer's last card turned face up.
//!
//! In the partnership variants (short, long and American whist, and set trumps) every trick a
//! partnership takes beyond six is a trick point, honours (the four top trumps as dealt) add
//! more, and the first partnership to the game's trick points wins a game worth 1 to 3 rubber
//! points by how far the others got. Two games win the rubber, the match, and 2 more rubber
//! points. À la guerre is everyone for themselves: tricks beyond four and the five top trumps
//! score, and the first player to nine points wins.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, is_permutation, rank_value, sorted, Card, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Status, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Direction, Seat};
use crate::trick::{self, Play, PlayView, Trick, TrickPlay, WinReason};

#[derive(Default)]
pub struct Whist;

const SEATS: usize = 4;
const TABLE: seat::Table = seat::Table { seats: SEATS, direction: Direction::Clockwise };
const TRICKS: u8 = 13;
/// A partnership's first six tricks earn nothing.
const BOOK: u8 = 6;
/// À la guerre: a player's first four tricks earn nothing.
const GUERRE_BOOK: u8 = 4;
/// Two games win the rubber.
const GAMES_FOR_RUBBER: u8 = 2;
const RUBBER_BONUS: i64 = 2;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "whist.deal.players";
    pub const THIRTEEN_CARDS: &str = "whist.deal.thirteen-cards";

    pub const FIRST_LEAD: &str = "whist.play.first-lead";
    pub const FOLLOW_SUIT: &str = "whist.play.follow-suit";
    pub const TRICK_WINNER: &str = "whist.play.trick-winner";
    pub const WINNER_LEADS: &str = "whist.play.winner-leads";

    pub const ODD_TRICKS: &str = "whist.score.odd-tricks";
    pub const GAME: &str = "whist.score.game";
    pub const GAME_VALUE: &str = "whist.score.game-value";
    pub const RUBBER_BONUS: &str = "whist.score.rubber-bonus";
    pub const SETTLEMENT: &str = "whist.score.settlement";

    pub const HONOURS_FOUR: &str = "whist.honours.four";
    pub const HONOURS_THREE: &str = "whist.honours.three";
    pub const NOT_OUT_ON_HONOURS: &str = "whist.honours.not-out-on-honours";
    pub const OTHER_SIDE_OUT: &str = "whist.honours.other-side-out";

    pub const GUERRE_TRICKS: &str = "whist.guerre.tricks";
    pub const GUERRE_HONOURS: &str = "whist.guerre.honours";
    pub const GUERRE_NOT_OUT_ON_HONOURS: &str = "whist.guerre.not-out-on-honours";

    pub const PARTNERSHIPS: &str = "whist.house.partnerships";
    pub const DEALER: &str = "whist.house.dealer";
}

// ---------------------------------------------------------------------------------------------
// Options

/// The kinds of whist the text describes.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Classic English short whist: a turned trump, game at 5 trick points, honours.
    #[default]
    Short,
    /// Long whist: as short whist, game at 10 trick points.
    Long,
    /// American whist: no honours, game at 7 trick points.
    American,
    /// Set trumps: as short whist, but the suit of forehand's first lead is trumps.
    Sattrumf,
    /// Whist à la guerre: everyone for themselves, tricks beyond four and five honours score,
    /// 9 points win.
    ALaGuerre,
}

impl Variant {
    /// The points that win a game: trick points in the partnership variants, points à la guerre.
    pub fn game(self) -> i64 {
        match self {
            Variant::Short | Variant::Sattrumf => 5,
            Variant::Long => 10,
            Variant::American => 7,
            Variant::ALaGuerre => 9,
        }
    }

    pub fn partnerships(self) -> bool {
        self != Variant::ALaGuerre
    }

    fn turns_trump(self) -> bool {
        self != Variant::Sattrumf
    }

    fn has_honours(self) -> bool {
        self != Variant::American
    }

    /// How many of the top trumps are honours: ace to jack, or ace to ten à la guerre.
    fn honour_count(self) -> u8 {
        if self.partnerships() {
            4
        } else {
            5
        }
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Which whist: `short` (the default), `long`, `american`, `sattrumf` or `a_la_guerre`.
    pub variant: Variant,
    /// Whether honours count ("often, but not always"); American whist never counts them.
    pub honours: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { variant: Variant::Short, honours: true }
    }
}

impl Options {
    fn counts_honours(&self) -> bool {
        self.honours && self.variant.has_honours()
    }
}

// ---------------------------------------------------------------------------------------------
// State

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    dealt: [Vec<Card>; SEATS],
    trump_card: Option<Card>,
    trumps: Option<Suit>,
    play: TrickPlay,
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    deals: Deals<Deal>,
    trick_points: [i64; 2],
    games_won: [u8; 2],
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
    (format!("Bolag {side} (plats {a} och {b})"), format!("Partnership {side} (seats {a} and {b})"))
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.play.is_over() {
            Vec::new()
        } else {
            vec![self.play.to_play()]
        }
    }

    fn is_live(&self) -> bool {
        !self.play.is_over()
    }

    fn phase(&self) -> Phase {
        if self.play.is_over() {
            Phase::DealOver
        } else {
            Phase::Playing
        }
    }
}

impl Deal {
    fn forehand(&self) -> Seat {
        TABLE.forehand(self.dealer)
    }

    /// The turned card while the dealer still holds it: public knowledge about a hand.
    fn trump_card_held(&self) -> Option<Card> {
        self.trump_card.filter(|c| self.play.hands[self.dealer].contains(c))
    }

    fn winner(&self) -> impl Fn(&Trick) -> (Seat, Card, WinReason) + '_ {
        move |t: &Trick| trick::winner(t, self.trumps)
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    Play { card: Card },
}

/// A game won in a partnership variant.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameWon {
    pub side: usize,
    /// The opponents' trick points when the game was won, which set its worth.
    pub opponents_trick_points: i64,
    /// Rubber points: 3, 2 or 1.
    pub worth: i64,
    /// Games won by each partnership with this one counted.
    pub games_won: [u8; 2],
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
        /// The last card, turned up for all to see and taken by the dealer; null in set trumps.
        trump_card: Option<Card>,
        /// The trump suit; null in set trumps until the first lead.
        trumps: Option<Suit>,
        /// Match scores before this deal: rubber points by partnership, or points by seat à la
        /// guerre.
        scores: Vec<i64>,
        /// Trick points of the game in progress, by partnership (zero à la guerre).
        trick_points: [i64; 2],
        /// Games won so far in the rubber, by partnership (zero à la guerre).
        games_won: [u8; 2],
        /// The match's options, which this deal is played under.
        options: Options,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
        trick_number: u8,
    },
    /// Set trumps: forehand's first lead made its suit trumps.
    TrumpsSet {
        seat: Seat,
        card: Card,
        suit: Suit,
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
        trumps: Suit,
        tricks_taken: [u8; SEATS],
        /// Tricks by partnership (zero à la guerre).
        side_tricks: [u8; 2],
        /// How many honours each partnership (or seat, à la guerre) was dealt.
        honours_held: Vec<u8>,
        /// The deal's trick points by partnership, term by term: tricks and honours (empty à la
        /// guerre, where `terms` holds them).
        trick_terms: Vec<ScoreTerm>,
        /// Trick points the deal brought each partnership to, before a game won clears them.
        trick_points_reached: [i64; 2],
        /// Trick points carried to the next deal.
        trick_points: [i64; 2],
        /// The game this deal won, if it won one.
        game: Option<GameWon>,
        games_won: [u8; 2],
        /// The match scores' terms: rubber points for a game and the rubber, or à la guerre the
        /// points for tricks and honours.
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
        /// Match scores after this deal.
        scores: Vec<i64>,
    },
    MatchEnded {
        /// The winning partnership: null à la guerre.
        side: Option<usize>,
        winners: Vec<Seat>,
        scores: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    deal.play.check_held(seat, card)?;
    deal.play.check_follow(seat, card, rule::FOLLOW_SUIT)?;
    let trick_number = deal.play.number() as u8;
    let mut events = vec![Event::CardPlayed { seat, card, trick_number }];
    let mut trumps = deal.trumps;
    if trumps.is_none() {
        // Set trumps: the first card led names the suit.
        let suit = card.suit().expect("a whist pack has no jokers");
        trumps = Some(suit);
        events.push(Event::TrumpsSet { seat, card, suit });
    }
    if let Some(won) = deal.play.completed_by(seat, card, &|t: &Trick| trick::winner(t, trumps)) {
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
    let options = &state.options;
    let trumps = deal.trumps.expect("trumps are known once a trick is won");
    let by_seat = honours_in_hands(&deal.dealt, trumps, options.variant);
    if !options.variant.partnerships() {
        let terms = score_guerre_deal(options.honours, &state.deals.scores, tricks_taken, by_seat);
        let (points, scores) = state.deals.tally::<SEATS>(&terms);
        let mut events = vec![Event::DealScored {
            deal_number: deal.number,
            trumps,
            tricks_taken,
            side_tricks: [0, 0],
            honours_held: by_seat.to_vec(),
            trick_terms: Vec::new(),
            trick_points_reached: [0, 0],
            trick_points: [0, 0],
            game: None,
            games_won: [0, 0],
            terms,
            points: points.to_vec(),
            scores: scores.to_vec(),
        }];
        let best = *scores.iter().max().expect("four seats");
        if best >= Variant::ALaGuerre.game() {
            let winners = seat::match_winners(&scores);
            events.push(Event::MatchEnded {
                side: None,
                explanation: guerre_won(&winners, best),
                winners,
                scores: scores.to_vec(),
            });
        }
        return events;
    }
    let side_tricks = [tricks_taken[0] + tricks_taken[2], tricks_taken[1] + tricks_taken[3]];
    let honours_held = [by_seat[0] + by_seat[2], by_seat[1] + by_seat[3]];
    let r = score_rubber_deal(options, state.trick_points, state.games_won, side_tricks, honours_held);
    let (points, scores) = state.deals.tally::<2>(&r.terms);
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        trumps,
        tricks_taken,
        side_tricks,
        honours_held: honours_held.to_vec(),
        trick_terms: r.trick_terms,
        trick_points_reached: r.trick_points_reached,
        trick_points: r.trick_points,
        game: r.game,
        games_won: r.games_won,
        terms: r.terms,
        points: points.to_vec(),
        scores: scores.to_vec(),
    }];
    if let (true, Some(game)) = (r.rubber_won, r.game) {
        let side = game.side;
        events.push(Event::MatchEnded {
            side: Some(side),
            winners: seats_of(side).to_vec(),
            scores: scores.to_vec(),
            explanation: rubber_won(side, scores, r.games_won),
        });
    }
    events
}

fn rubber_won(side: usize, scores: [i64; 2], games: [u8; 2]) -> Text {
    let (sv, en) = side_text(side);
    let (won, lost) = (scores[side], scores[1 - side]);
    let (g, h) = (games[side], games[1 - side]);
    Text::new(
        format!(
            "{sv} vann robberten med {g} utgångar mot {h} och har {won} robbertpoäng mot {lost}; skillnaden är {}.",
            won - lost
        ),
        format!(
            "{en} won the rubber by {g} games to {h} and has {won} rubber points against {lost}; the difference is {}.",
            won - lost
        ),
    )
}

fn guerre_won(winners: &[Seat], best: i64) -> Text {
    let who = seat::seats_text(winners);
    if winners.len() == 1 {
        Text::new(
            format!("Plats {who} nådde {best} poäng, minst 9, och vann partiet."),
            format!("Seat {who} reached {best} points, at least 9, and won the match."),
        )
    } else {
        Text::new(
            format!("Platserna {who} nådde {best} poäng var, minst 9, och delar segern."),
            format!("Seats {who} reached {best} points each, at least 9, and share the win."),
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// How many of the honours (the top `variant.honour_count()` trumps) each hand was dealt.
pub fn honours_in_hands(hands: &[Vec<Card>], trumps: Suit, variant: Variant) -> [u8; SEATS] {
    let lowest = 15 - variant.honour_count();
    std::array::from_fn(|s| hands[s].iter().filter(|&&c| c.is_suit(trumps) && rank_value(c) >= lowest).count() as u8)
}

/// What a partnership deal did to the rubber.
#[derive(Clone, Debug, PartialEq)]
pub struct RubberDeal {
    pub trick_terms: Vec<ScoreTerm>,
    pub trick_points_reached: [i64; 2],
    pub trick_points: [i64; 2],
    pub game: Option<GameWon>,
    pub games_won: [u8; 2],
    /// Rubber points.
    pub terms: Vec<ScoreTerm>,
    pub rubber_won: bool,
}

/// A partnership deal's score: odd tricks, then honours (capped for a side without an odd trick,
/// void when the other side goes out), then the game and the rubber.
pub fn score_rubber_deal(
    options: &Options,
    trick_points: [i64; 2],
    games_won: [u8; 2],
    side_tricks: [u8; 2],
    honours_held: [u8; 2],
) -> RubberDeal {
    let target = options.variant.game();
    let w = if side_tricks[0] > BOOK { 0 } else { 1 };
    let l = 1 - w;
    let (w_sv, w_en) = side_text(w);
    let (l_sv, l_en) = side_text(l);
    let odd = i64::from(side_tricks[w] - BOOK);
    let t = side_tricks[w];
    let mut tp = trick_points;
    tp[w] += odd;
    let mut trick_terms = vec![ScoreTerm::new(
        w,
        odd,
        rule::ODD_TRICKS,
        format!("{w_sv} tog {t} stick: {t} − 6 = {odd} trickpoäng."),
        format!("{w_en} took {t} tricks: {t} − 6 = {odd} trick points."),
    )];
    if options.counts_honours() {
        let worth = |n: u8| match n {
            4 => Some((4, rule::HONOURS_FOUR)),
            3 => Some((2, rule::HONOURS_THREE)),
            _ => None,
        };
        if let Some((h, r)) = worth(honours_held[w]) {
            tp[w] += h;
            let n = honours_held[w];
            trick_terms.push(ScoreTerm::new(
                w,
                h,
                r,
                format!("{w_sv} fick {n} honnörer: {h} trickpoäng."),
                format!("{w_en} was dealt {n} honours: {h} trick points."),
            ));
        }
        if let Some((h, r)) = worth(honours_held[l]) {
            let n = honours_held[l];
            let (got, rule, sv, en) = if tp[w] >= target {
                (
                    0,
                    rule::OTHER_SIDE_OUT,
                    format!("{l_sv} fick {n} honnörer, men det andra bolaget gick ut i given: inga poäng."),
                    format!("{l_en} was dealt {n} honours, but the other partnership went out in the deal: no points."),
                )
            } else if tp[l] + h >= target {
                let got = target - 1 - tp[l];
                (
                    got,
                    rule::NOT_OUT_ON_HONOURS,
                    format!("{l_sv} fick {n} honnörer ({h} trickpoäng) men inget trick, och stannar på {} trickpoäng: {got}.", target - 1),
                    format!("{l_en} was dealt {n} honours ({h} trick points) but no odd trick, and stops at {} trick points: {got}.", target - 1),
                )
            } else {
                (
                    h,
                    r,
                    format!("{l_sv} fick {n} honnörer: {h} trickpoäng."),
                    format!("{l_en} was dealt {n} honours: {h} trick points."),
                )
            };
            tp[l] += got;
            trick_terms.push(ScoreTerm::new(l, got, rule, sv, en));
        }
    }
    let reached = tp;
    let mut games = games_won;
    let mut terms = Vec::new();
    let mut game = None;
    if tp[w] >= target {
        let opponents = tp[l];
        let worth = match opponents {
            0 => 3,
            1 | 2 => 2,
            _ => 1,
        };
        games[w] += 1;
        terms.push(ScoreTerm::new(
            w,
            worth,
            rule::GAME_VALUE,
            format!("{w_sv} gick ut med {} trickpoäng mot {opponents}: {worth} robbertpoäng.", tp[w]),
            format!(
                "{w_en} won a game with {} trick points against {opponents}: {worth} rubber point{}.",
                tp[w],
                if worth == 1 { "" } else { "s" }
            ),
        ));
        if games[w] == GAMES_FOR_RUBBER {
            terms.push(ScoreTerm::new(
                w,
                RUBBER_BONUS,
                rule::RUBBER_BONUS,
                format!("{w_sv} vann sin andra utgång och robberten: {RUBBER_BONUS} robbertpoäng extra."),
                format!("{w_en} won its second game and the rubber: {RUBBER_BONUS} extra rubber points."),
            ));
        }
        game = Some(GameWon { side: w, opponents_trick_points: opponents, worth, games_won: games });
        tp = [0, 0];
    }
    RubberDeal {
        trick_terms,
        trick_points_reached: reached,
        trick_points: tp,
        game,
        games_won: games,
        terms,
        rubber_won: games[w] == GAMES_FOR_RUBBER,
    }
}

/// An à la guerre deal's terms by seat: tricks beyond four, and honours (capped at one short of
/// game for a player without such a trick).
pub fn score_guerre_deal(honours: bool, scores: &[i64], taken: [u8; SEATS], held: [u8; SEATS]) -> Vec<ScoreTerm> {
    let target = Variant::ALaGuerre.game();
    let mut terms = Vec::new();
    for s in 0..SEATS {
        let odd = i64::from(taken[s].saturating_sub(GUERRE_BOOK));
        let t = taken[s];
        if odd > 0 {
            terms.push(ScoreTerm::new(
                s,
                odd,
                rule::GUERRE_TRICKS,
                format!("Plats {s} tog {t} stick: {t} − 4 = {odd} poäng."),
                format!("Seat {s} took {t} tricks: {t} − 4 = {odd} points."),
            ));
        }
        let n = held[s];
        let h = match n {
            5 => 5,
            4 => 4,
            3 => 2,
            _ => 0,
        };
        if !honours || h == 0 {
            continue;
        }
        if odd == 0 && scores[s] + h >= target {
            let got = target - 1 - scores[s];
            terms.push(ScoreTerm::new(
                s,
                got,
                rule::GUERRE_NOT_OUT_ON_HONOURS,
                format!("Plats {s} fick {n} honnörer ({h} poäng) men inget trick, och stannar på {} poäng: {got}.", target - 1),
                format!("Seat {s} was dealt {n} honours ({h} points) but no trick beyond four, and stops at {} points: {got}.", target - 1),
            ));
        } else {
            terms.push(ScoreTerm::new(
                s,
                h,
                rule::GUERRE_HONOURS,
                format!("Plats {s} fick {n} honnörer: {h} poäng."),
                format!("Seat {s} was dealt {n} honours: {h} points."),
            ));
        }
    }
    terms
}

// ---------------------------------------------------------------------------------------------
// The table view

/// Where the match is: `waiting-for-deal` before the first deal, `playing` the tricks,
/// `deal-over` once the deal is scored and the next is awaited, `finished` once the match is won.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No deal has been dealt yet.
    WaitingForDeal,
    /// The thirteen tricks are being played.
    Playing,
    /// The deal is played out and scored; the next deal is awaited.
    DealOver,
    /// The rubber (or, à la guerre, the game) is won.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// The table as one viewer sees it: the match, and from the first deal on the deal being played
/// (or the last one played). A seat sees its own hand; everyone sees the turned trump card; a
/// finished deal's record shows every hand, the deck and every trick.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, scores (rubber points by partnership, or points by seat
    /// à la guerre), who is to act, how it ended.
    #[serde(flatten)]
    pub deals: MatchView,

    /// The options the match is played with.
    pub options: Options,
    /// The points that win a game: trick points in the partnership variants, points à la guerre.
    pub game_target: i64,
    /// The seats of each partnership, partnership 0 first: null à la guerre.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub sides: Option<[[Seat; 2]; 2]>,
    /// The viewer's partnership: only in a seat's own view in a partnership variant.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub side: Option<usize>,
    /// Trick points of the game in progress, by partnership: null à la guerre.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub trick_points: Option<[i64; 2]>,
    /// Games won in the rubber, by partnership: null à la guerre.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub games_won: Option<[u8; 2]>,
    /// The partnership that won the rubber: null until then, and à la guerre.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winning_side: Option<usize>,
    /// The deal's forehand, the seat after the dealer: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The card turned up for trumps (public, and the dealer's): null in set trumps, absent
    /// before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trump_card: Option<Option<Card>>,
    /// Whether the dealer still holds the turned card: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trump_card_in_hand: Option<bool>,
    /// The trump suit: null in set trumps until the first lead, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trumps: Option<Option<Suit>>,
    /// Tricks taken in this deal by each partnership: absent before the first deal and à la
    /// guerre.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub side_tricks: Option<[u32; 2]>,
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

/// Cheapest first: plain cards before trumps, low before high.
fn cost(card: Card, trumps: Option<Suit>) -> (bool, u8) {
    (trumps.is_some_and(|t| card.is_suit(t)), rank_value(card))
}

fn bot_play(deal: &Deal, seat: Seat, partnerships: bool, rng: &mut Rng) -> Card {
    let legal = deal.play.following(seat);
    if legal.len() == 1 || rng.below(6) == 0 {
        return legal[rng.below(legal.len())];
    }
    let trumps = deal.trumps;
    let cheapest = |cards: &[Card]| cards.iter().copied().min_by_key(|&c| cost(c, trumps));
    let hand = &deal.play.hands[seat];
    let trick = &deal.play.trick;
    if trick.is_empty() {
        if trumps.is_none() {
            // Set trumps: the top of the longest suit, which becomes trumps.
            let len = |s: Suit| hand.iter().filter(|c| c.is_suit(s)).count();
            let suit = Suit::ALL.into_iter().max_by_key(|&s| len(s)).expect("four suits");
            return hand.iter().copied().filter(|c| c.is_suit(suit)).max_by_key(|&c| rank_value(c)).expect("held");
        }
        // A plain ace if there is one, else low from the longest plain suit.
        let plain: Vec<Card> = legal.iter().copied().filter(|&c| !cost(c, trumps).0).collect();
        let pool = if plain.is_empty() { legal.clone() } else { plain };
        if let Some(ace) = pool.iter().copied().find(|&c| rank_value(c) == 14 && !cost(c, trumps).0) {
            return ace;
        }
        let len = |s: Option<Suit>| hand.iter().filter(|c| c.suit() == s).count();
        let low = pool.iter().copied().min_by_key(|&c| (std::cmp::Reverse(len(c.suit())), rank_value(c)));
        return low.expect("a hand to lead from");
    }
    let (leader, _, _) = trick::winner(trick, trumps);
    let ally = |s: Seat| if partnerships { side_of(s) == side_of(seat) } else { s == seat };
    let winning = trick::taking(trick, seat, &legal, |t| trick::winner(t, trumps).0);
    if ally(leader) || winning.is_empty() {
        return cheapest(&legal).expect("legal");
    }
    cheapest(&winning).expect("not empty")
}

/// The basic bot's card: every seat plays to take tricks (the partnership's, or its own à la
/// guerre), leading as the test bot does without its noise (set trumps: the top of the longest
/// suit; else a plain ace, else low from the longest plain suit) and following with
/// `bots::basic_card`, which lets a partner's winning card stand.
fn basic_play(deal: &Deal, seat: Seat, partnerships: bool) -> Option<Card> {
    let legal = deal.play.following(seat);
    let trick = &deal.play.trick;
    if trick.is_empty() {
        let hand = &deal.play.hands[seat];
        let len = |s: Option<Suit>| hand.iter().filter(|c| c.suit() == s).count();
        if deal.trumps.is_none() {
            return legal.iter().copied().max_by_key(|&c| (len(c.suit()), rank_value(c)));
        }
        let plain: Vec<Card> = legal.iter().copied().filter(|&c| !cost(c, deal.trumps).0).collect();
        let pool = if plain.is_empty() { legal } else { plain };
        return pool
            .iter()
            .copied()
            .find(|&c| rank_value(c) == 14)
            .or_else(|| pool.iter().copied().min_by_key(|&c| (std::cmp::Reverse(len(c.suit())), rank_value(c))));
    }
    let partner = partnerships.then(|| TABLE.partner(seat));
    let last = trick.plays.len() + 1 == SEATS;
    bots::basic_card(&legal, trick, deal.trumps, seat, partner, last, bots::Aim::Take)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Whist {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "whist";
    const PLAYERS: RangeInclusive<usize> = SEATS..=SEATS;
    const RULEBOOK: &'static str = include_str!("rulebooks/whist.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        let sets = [
            (Variant::Short, true),
            (Variant::Short, false),
            (Variant::Long, true),
            (Variant::American, true),
            (Variant::Sattrumf, true),
            (Variant::ALaGuerre, true),
            (Variant::ALaGuerre, false),
        ];
        sets.into_iter().map(|(variant, honours)| Options { variant, honours }).collect()
    }

    fn setup(&self, _players: usize, options: Options) -> Result<State, SetupError> {
        let scorers = if options.variant.partnerships() { 2 } else { SEATS };
        Ok(State { options, deals: Deals::new(scorers), trick_points: [0, 0], games_won: [0, 0], winning_side: None })
    }

    fn status(&self, state: &State) -> Status {
        state.deals.status(decks::standard52)
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals.number
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let hands = deals::deal_singly(&TABLE, dealer, &deck);
        // The last card falls to the dealer; turned up, it names trumps.
        let trump_card = state.options.variant.turns_trump().then(|| *deck.last().expect("a full pack"));
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: TABLE.forehand(dealer),
            hands: std::array::from_fn(|s| sorted(hands[s].clone())),
            trump_card,
            trumps: trump_card.and_then(Card::suit),
            deck,
            scores: state.deals.scores.clone(),
            trick_points: state.trick_points,
            games_won: state.games_won,
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match *command {
            Command::Play { card } => decide_play(state, deal, seat, card),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted {
                deal_number,
                dealer,
                deck,
                hands,
                trump_card,
                trumps,
                scores,
                trick_points,
                games_won,
                options,
                ..
            } => {
                state.options = options.clone();
                state.trick_points = *trick_points;
                state.games_won = *games_won;
                state.deals.next_dealer = TABLE.next(*dealer);
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    dealt: hands.clone(),
                    trump_card: *trump_card,
                    trumps: *trumps,
                    play: TrickPlay::new(TABLE, hands.to_vec(), TABLE.forehand(*dealer), TRICKS as usize),
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { terms, scores, trick_points, games_won, .. } => {
                state.deals.scored(terms, scores);
                state.trick_points = *trick_points;
                state.games_won = *games_won;
            }
            Event::MatchEnded { side, winners, explanation, .. } => {
                state.winning_side = *side;
                state.deals.ended(winners, explanation);
            }
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                match event {
                    Event::CardPlayed { seat, card, .. } => deal.play.play(*seat, *card),
                    Event::TrumpsSet { suit, .. } => deal.trumps = Some(*suit),
                    Event::TrickWon { winner, card, reason, .. } => deal.play.won(*winner, *card, *reason),
                    _ => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        deal.play.following(seat).into_iter().map(|card| Command::Play { card }).collect()
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        decks::standard52().into_iter().map(|card| Command::Play { card }).collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(SEATS);
        let record = viewer == Viewer::Record;
        let deal = state.deals.deal.as_ref();
        let partnerships = state.options.variant.partnerships();
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, SEATS, deal.map(|d| d.dealer)),
            options: state.options.clone(),
            game_target: state.options.variant.game(),
            sides: partnerships.then(|| [seats_of(0), seats_of(1)]),
            side: me.filter(|_| partnerships).map(side_of),
            trick_points: partnerships.then_some(state.trick_points),
            games_won: partnerships.then_some(state.games_won),
            winning_side: state.winning_side,
            forehand: deal.map(Deal::forehand),
            trump_card: deal.map(|d| d.trump_card),
            trump_card_in_hand: deal.map(|d| d.trump_card_held().is_some()),
            trumps: deal.map(|d| d.trumps),
            side_tricks: deal.filter(|_| partnerships).map(|d| d.play.side_tricks()),
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
                // The turned card stays in the event: everyone saw it.
                deals::hide_hands(&mut full, hands, viewer);
            }
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        // The turned card is known to all to be in the dealer's hand.
        deal.play.hand_secrets(|s, card| s == deal.dealer && deal.trump_card == Some(card))
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let variant = state.options.variant;
        let scores = &state.deals.scores;
        if variant.partnerships() {
            for s in 0..2 {
                let (tp, g) = (state.trick_points[s], state.games_won[s]);
                if !(0..variant.game()).contains(&tp) || g > GAMES_FOR_RUBBER {
                    return Err(format!("partnership {s} has {tp} trick points and {g} games"));
                }
            }
            // Between the deal that wins the rubber and the match's end, the rubber is won but
            // the match not yet ended.
            let rubber = state.games_won.iter().position(|&g| g == GAMES_FOR_RUBBER);
            let ended = state.deals.outcome.is_some();
            if (ended && rubber.is_none()) || state.winning_side.is_some_and(|s| rubber != Some(s)) {
                return Err(format!("games won {:?} but winning side {:?}", state.games_won, state.winning_side));
            }
        } else {
            let best = scores.iter().copied().max().unwrap_or(0);
            if (state.deals.outcome.is_some() && best < variant.game()) || state.winning_side.is_some() {
                return Err(format!("scores {scores:?} and outcome {:?} disagree", state.deals.outcome));
            }
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        if !is_permutation(&deal.deck, &pack) {
            return Err("the recorded deck is not a pack of 52".into());
        }
        let dealt = deals::deal_singly(&TABLE, deal.dealer, &deal.deck);
        if (0..SEATS).any(|s| sorted(dealt[s].clone()) != deal.dealt[s]) {
            return Err("the hands are not the deck dealt one at a time from forehand".into());
        }
        let turned = variant.turns_trump().then(|| deal.deck[deal.deck.len() - 1]);
        if deal.trump_card != turned || (turned.is_some() && deal.trumps != turned.and_then(Card::suit)) {
            return Err(format!("turned {:?} and trumps {:?} do not fit the deck", deal.trump_card, deal.trumps));
        }
        if variant == Variant::Sattrumf {
            // Between the first lead and the event that records its suit, trumps are unset.
            let lead = deal.play.played().next().and_then(|(_, c)| c.suit());
            let unset_too_long = deal.trumps.is_none() && deal.play.played().count() > 1;
            if deal.trumps.is_some_and(|t| lead != Some(t)) || unset_too_long {
                return Err(format!("set trumps {:?} are not the first lead's suit", deal.trumps));
            }
        }
        deal.play.check(&pack, &[], |_| TRICKS as usize, &deal.winner())
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let mut rng = Rng::new(seed);
        Some(Command::Play { card: bot_play(deal, seat, state.options.variant.partnerships(), &mut rng) })
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        basic_play(deal, seat, state.options.variant.partnerships()).map(|card| Command::Play { card })
    }

    /// The deal as `seat` knows it: its own hand, the cards played, the turned card while the
    /// dealer holds it; the other hands dealt afresh (see [`bots::resample_play`]). The hands as
    /// dealt, which honours are scored from, are rebuilt from the new hands and the cards played.
    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        let deal = state.deals.live()?;
        let known: Vec<(Seat, Card)> = deal.trump_card_held().map(|c| (deal.dealer, c)).into_iter().collect();
        let mut world = state.clone();
        let w = world.deals.live_mut()?;
        bots::resample_play(&mut w.play, seat, &decks::standard52(), &[], &known, &mut [], rng);
        let played: Vec<(Seat, Card)> = w.play.played().collect();
        w.dealt = std::array::from_fn(|s| {
            let own = played.iter().filter(|(p, _)| *p == s).map(|(_, c)| *c);
            sorted(w.play.hands[s].iter().copied().chain(own).collect())
        });
        // Not the deck as dealt (which nobody may see), but the same cards.
        w.deck = w.dealt.iter().flatten().copied().collect();
        Some(world)
    }

    /// Partnerships: rubber points less the other side's, and the trick points of the game in
    /// progress (a whole game's worth counted as two rubber points), so that a deal that wins no
    /// game still tells a better play from a worse. À la guerre: points less the others' mean.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let scores = &state.deals.scores;
        if !state.options.variant.partnerships() {
            return bots::lead_over_mean(SEATS, |s| scores[s] as f64, seat);
        }
        let side = side_of(seat);
        let tp = state.trick_points;
        let game = state.options.variant.game() as f64;
        (scores[side] - scores[1 - side]) as f64 + 2.0 * (tp[side] - tp[1 - side]) as f64 / game
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::cards::{card, cards};
    use crate::game::erase;
    use crate::rules::core;
    use crate::simulate::{random_matches, Driver, Plan};
    use serde_json::json;

    /// The shared test driver: every event taken through JSON (as it is stored) and the books
    /// checked after each one.
    type M = Driver<Whist>;

    fn play(code: &str) -> Command {
        Command::Play { card: card(code) }
    }

    fn with(variant: Variant, honours: bool) -> M {
        M::new(4, Options { variant, honours })
    }

    /// Seat `s` holds the whole suit `suits[s]`, its two listed last: as the dealer's, the two
    /// is the turned card.
    fn one_suit_each(suits: [char; 4]) -> [Vec<Card>; SEATS] {
        suits.map(|s| cards(&"AKQJT98765432".chars().map(|r| format!("{r}{s}")).collect::<Vec<_>>().join(" ")))
    }

    impl Driver<Whist> {
        /// Deals these hands, whoever deals; the dealer's last card is the one turned up.
        fn deal_hands(&mut self, hands: &[Vec<Card>; SEATS]) -> Vec<Event> {
            let dealer = self.state.deals.next_dealer;
            let deck: Vec<Card> = (0..52).map(|i| hands[(dealer + 1 + i) % SEATS][i / 4]).collect();
            self.deal(deck)
        }

        fn current(&self) -> &Deal {
            self.state.deals.deal.as_ref().unwrap()
        }

        fn view(&self, viewer: Viewer) -> Value {
            serde_json::to_value(Whist.view(&self.state, viewer)).unwrap()
        }

        fn last_scored(&self) -> Event {
            self.log.iter().rev().find(|e| matches!(e, Event::DealScored { .. })).cloned().unwrap()
        }
    }

    fn options(variant: Variant, honours: bool) -> Options {
        Options { variant, honours }
    }

    fn short() -> Options {
        Options::default()
    }

    fn rules_of(terms: &[ScoreTerm]) -> Vec<(usize, i64, &str)> {
        terms.iter().map(|t| (t.to, t.points, t.rule.as_str())).collect()
    }

    // --- the deal and the turned trump -----------------------------------------------------------

    #[test]
    fn the_last_card_is_turned_for_trumps_and_stays_public_in_the_dealers_hand() {
        let mut m = with(Variant::Short, true);
        let deck = decks::standard52();
        let events = m.deal(deck.clone());
        let Event::DealStarted { dealer, forehand, hands, trump_card, trumps, .. } = &events[0] else { panic!() };
        assert_eq!((*dealer, *forehand), (0, 1));
        let last = *deck.last().unwrap();
        assert_eq!((*trump_card, *trumps), (Some(last), last.suit()));
        assert!(hands[0].contains(&last), "the dealer takes the turned card");
        for i in 0..8 {
            assert!(hands[(1 + i) % SEATS].contains(&deck[i]), "one card at a time from forehand");
        }
        // Everyone sees it, and nobody is told it is a secret while the dealer holds it.
        let secrets = Whist.secrets(&m.state);
        assert_eq!(secrets.len(), 51);
        assert!(secrets.iter().all(|(c, _)| *c != last));
        for viewer in [Viewer::Spectator, Viewer::Seat(2)] {
            let v = m.view(viewer);
            assert_eq!((v["trump_card"].clone(), v["trump_card_in_hand"].clone()), (json!(last), json!(true)));
            let e = Whist.redact(&m.state, &events[0], viewer, false);
            assert_eq!(
                (e["trump_card"].clone(), e["deck"].clone(), e["hands"][0].clone()),
                (json!(last), Value::Null, Value::Null)
            );
        }
        assert_eq!(m.to_act(), [1], "forehand leads");
        // Once the dealer plays it, the view says the hand no longer holds it.
        while m.current().trump_card_held().is_some() {
            let seat = m.to_act()[0];
            let mut moves = m.legal(seat);
            if let Some(i) = moves.iter().position(|c| *c == Command::Play { card: last }) {
                moves.swap(0, i);
            }
            m.ok(seat, moves.swap_remove(0));
        }
        assert_eq!(m.view(Viewer::Spectator)["trump_card_in_hand"], json!(false));
    }

    #[test]
    fn follow_suit_else_trump_or_discard_as_you_like() {
        let mut m = with(Variant::Short, true);
        m.deal(decks::standard52());
        let lead = m.legal(1)[0].clone();
        let Command::Play { card: led } = lead;
        m.ok(1, lead);
        let hand = m.current().play.hands[2].clone();
        let suit = led.suit().unwrap();
        if hand.iter().any(|c| c.is_suit(suit)) {
            let off = hand.iter().copied().find(|c| !c.is_suit(suit)).unwrap();
            let refusal = m.refused(2, Command::Play { card: off });
            assert_eq!(refusal.rule, rule::FOLLOW_SUIT);
            assert!(m.legal(2).iter().all(|Command::Play { card }| card.is_suit(suit)));
        } else {
            assert_eq!(m.legal(2).len(), 13, "a void player may play anything");
        }
        assert_eq!(m.refused(2, play(&m.current().play.hands[0][0].to_string())).rule, core::CARD_NOT_HELD);
    }

    // --- the text's own examples ---------------------------------------------------------------

    #[test]
    fn nine_tricks_give_three_trick_points() {
        let r = score_rubber_deal(&options(Variant::Short, false), [0, 0], [0, 0], [9, 4], [2, 2]);
        assert_eq!(rules_of(&r.trick_terms), [(0, 3, rule::ODD_TRICKS)]);
        assert_eq!((r.trick_points, r.game), ([3, 0], None));
    }

    #[test]
    fn a_game_is_worth_three_two_or_one_by_the_opponents_trick_points() {
        for (opponents, worth) in [(0, 3), (1, 2), (2, 2), (3, 1), (4, 1)] {
            let r = score_rubber_deal(&short(), [4, opponents], [0, 0], [7, 6], [2, 2]);
            let game = r.game.unwrap();
            assert_eq!((game.side, game.opponents_trick_points, game.worth), (0, opponents, worth));
            assert_eq!(rules_of(&r.terms), [(0, worth, rule::GAME_VALUE)]);
            assert_eq!((r.trick_points_reached, r.trick_points, r.games_won), ([5, opponents], [0, 0], [1, 0]));
        }
    }

    #[test]
    fn four_honours_give_four_and_three_give_two() {
        let r = score_rubber_deal(&short(), [0, 0], [0, 0], [7, 6], [4, 0]);
        assert_eq!(rules_of(&r.trick_terms), [(0, 1, rule::ODD_TRICKS), (0, 4, rule::HONOURS_FOUR)]);
        assert_eq!(r.game.unwrap().worth, 3, "one trick and four honours make a game");
        let r = score_rubber_deal(&short(), [0, 0], [0, 0], [7, 6], [1, 3]);
        assert_eq!(rules_of(&r.trick_terms), [(0, 1, rule::ODD_TRICKS), (1, 2, rule::HONOURS_THREE)]);
        assert_eq!(r.trick_points, [1, 2]);
    }

    #[test]
    fn honours_without_a_trick_stop_at_four() {
        let r = score_rubber_deal(&short(), [0, 3], [0, 0], [7, 6], [0, 4]);
        assert_eq!(rules_of(&r.trick_terms), [(0, 1, rule::ODD_TRICKS), (1, 1, rule::NOT_OUT_ON_HONOURS)]);
        assert_eq!((r.trick_points, r.game), ([1, 4], None));
        // Long whist stops one short of its game too: at nine.
        let r = score_rubber_deal(&options(Variant::Long, true), [0, 8], [0, 0], [7, 6], [0, 3]);
        assert_eq!(rules_of(&r.trick_terms), [(0, 1, rule::ODD_TRICKS), (1, 1, rule::NOT_OUT_ON_HONOURS)]);
        assert_eq!(r.trick_points, [1, 9]);
    }

    #[test]
    fn going_out_voids_the_other_sides_honours() {
        let r = score_rubber_deal(&short(), [4, 2], [0, 0], [7, 6], [0, 4]);
        assert_eq!(rules_of(&r.trick_terms), [(0, 1, rule::ODD_TRICKS), (1, 0, rule::OTHER_SIDE_OUT)]);
        assert_eq!(r.game.unwrap().worth, 2, "the opponents' honours did not count towards the worth");
    }

    #[test]
    fn long_whist_needs_ten_and_american_seven_without_honours() {
        let long = options(Variant::Long, true);
        assert_eq!(score_rubber_deal(&long, [4, 0], [0, 0], [7, 6], [0, 0]).game, None);
        assert_eq!(score_rubber_deal(&long, [9, 5], [0, 0], [7, 6], [0, 0]).game.unwrap().worth, 1);
        let american = options(Variant::American, true);
        let r = score_rubber_deal(&american, [0, 0], [0, 0], [12, 1], [4, 0]);
        assert_eq!(rules_of(&r.trick_terms), [(0, 6, rule::ODD_TRICKS)], "no honours in American whist");
        assert_eq!(r.game, None);
        let r = score_rubber_deal(&american, [6, 6], [0, 0], [7, 6], [0, 0]);
        assert_eq!(r.game.unwrap().worth, 1, "six trick points are three or more");
    }

    #[test]
    fn american_whist_can_go_out_in_one_deal_by_taking_all_thirteen() {
        let mut m = with(Variant::American, true);
        m.deal_hands(&one_suit_each(['C', 'D', 'H', 'S']));
        assert_eq!(m.current().trumps, Some(Suit::Clubs));
        m.finish_deal();
        let Event::DealScored { tricks_taken, trick_terms, game, scores, .. } = m.last_scored() else { panic!() };
        assert_eq!(tricks_taken, [13, 0, 0, 0]);
        assert_eq!(rules_of(&trick_terms), [(0, 7, rule::ODD_TRICKS)]);
        assert_eq!(game.map(|g| g.worth), Some(3));
        assert_eq!(scores, [3, 0]);
    }

    #[test]
    fn the_first_to_two_games_wins_the_rubber_and_two_more_points() {
        let mut m = with(Variant::Short, true);
        // Each dealer holds all of the turned suit and takes every trick with its four honours.
        for (deal, suits, scores) in
            [(1, ['C', 'D', 'H', 'S'], [3, 0]), (2, ['C', 'D', 'H', 'S'], [3, 3]), (3, ['C', 'D', 'H', 'S'], [8, 3])]
        {
            let events = m.deal_hands(&one_suit_each(suits));
            let Event::DealStarted { dealer, trick_points, .. } = &events[0] else { panic!() };
            assert_eq!((*dealer, *trick_points), (deal - 1, [0, 0]), "a game won clears the trick points");
            let events = m.finish_deal();
            let Event::DealScored { trick_points_reached, scores: s, .. } = m.last_scored() else { panic!() };
            assert_eq!(trick_points_reached[side_of(deal - 1)], 7 + 4);
            assert_eq!(s, scores, "deal {deal}");
            assert_eq!(matches!(events.last(), Some(Event::MatchEnded { .. })), deal == 3);
        }
        let Event::DealScored { terms, games_won, .. } = m.last_scored() else { panic!() };
        assert_eq!(rules_of(&terms), [(0, 3, rule::GAME_VALUE), (0, 2, rule::RUBBER_BONUS)]);
        assert_eq!(games_won, [2, 1]);
        let Status::Finished { outcome } = Whist.status(&m.state) else { panic!() };
        assert_eq!(outcome.winners, [0, 2]);
        assert!(
            outcome.explanation.en.contains("by 2 games to 1 and has 8 rubber points against 3"),
            "{}",
            outcome.explanation.en
        );
        assert_eq!(m.refused(1, play("AS")).rule, core::MATCH_OVER);
        let view = m.view(Viewer::Spectator);
        assert_eq!((view["phase"].clone(), view["winning_side"].clone()), (json!("finished"), json!(0)));
    }

    #[test]
    fn set_trumps_takes_the_suit_of_forehands_first_lead() {
        let mut m = with(Variant::Sattrumf, true);
        let events = m.deal_hands(&one_suit_each(['C', 'D', 'H', 'S']));
        let Event::DealStarted { trump_card, trumps, .. } = &events[0] else { panic!() };
        assert_eq!((*trump_card, *trumps), (None, None));
        assert_eq!(Whist.secrets(&m.state).len(), 52, "no card is turned");
        let events = m.ok(1, play("5D"));
        assert_eq!(events[1], Event::TrumpsSet { seat: 1, card: card("5D"), suit: Suit::Diamonds });
        assert_eq!(m.view(Viewer::Seat(3))["trumps"], json!("diamonds"));
        m.finish_deal();
        let Event::DealScored { trumps, side_tricks, honours_held, trick_points, .. } = m.last_scored() else {
            panic!()
        };
        assert_eq!((trumps, side_tricks, honours_held), (Suit::Diamonds, [0, 13], vec![0, 4]));
        assert_eq!(trick_points, [0, 0], "seven odd tricks and four honours made a game");
        assert_eq!(m.state.games_won, [0, 1]);
    }

    #[test]
    fn honours_can_be_left_out() {
        let r = score_rubber_deal(&options(Variant::Short, false), [0, 0], [0, 0], [7, 6], [4, 0]);
        assert_eq!(rules_of(&r.trick_terms), [(0, 1, rule::ODD_TRICKS)]);
    }

    // --- à la guerre ---------------------------------------------------------------------------

    #[test]
    fn a_la_guerre_scores_tricks_beyond_four_and_five_honours() {
        let terms = score_guerre_deal(true, &[0; 4], [6, 3, 2, 2], [0, 3, 2, 0]);
        assert_eq!(rules_of(&terms), [(0, 2, rule::GUERRE_TRICKS), (1, 2, rule::GUERRE_HONOURS)]);
        let terms = score_guerre_deal(true, &[0; 4], [5, 4, 2, 2], [4, 1, 0, 0]);
        assert_eq!(rules_of(&terms), [(0, 1, rule::GUERRE_TRICKS), (0, 4, rule::GUERRE_HONOURS)]);
        let terms = score_guerre_deal(true, &[0; 4], [4, 4, 3, 2], [0, 0, 5, 0]);
        assert_eq!(rules_of(&terms), [(2, 5, rule::GUERRE_HONOURS)]);
        assert!(score_guerre_deal(false, &[0; 4], [4, 4, 3, 2], [0, 0, 5, 0]).is_empty());
    }

    #[test]
    fn a_la_guerre_honours_without_a_trick_stop_at_eight() {
        let terms = score_guerre_deal(true, &[0, 7, 0, 0], [5, 4, 2, 2], [0, 4, 1, 0]);
        assert_eq!(rules_of(&terms), [(0, 1, rule::GUERRE_TRICKS), (1, 1, rule::GUERRE_NOT_OUT_ON_HONOURS)]);
        // With a trick the honours may take the player out.
        let terms = score_guerre_deal(true, &[0, 7, 0, 0], [4, 5, 2, 2], [0, 4, 1, 0]);
        assert_eq!(rules_of(&terms), [(1, 1, rule::GUERRE_TRICKS), (1, 4, rule::GUERRE_HONOURS)]);
    }

    #[test]
    fn a_la_guerre_is_everyone_for_themselves_and_one_game_wins() {
        let mut m = with(Variant::ALaGuerre, true);
        m.deal_hands(&one_suit_each(['C', 'D', 'H', 'S']));
        let view = m.view(Viewer::Seat(0));
        assert_eq!((view["sides"].clone(), view["trick_points"].clone()), (Value::Null, Value::Null));
        assert!(view.get("side").is_none());
        let events = m.finish_deal();
        let Event::DealScored { terms, scores, .. } = m.last_scored() else { panic!() };
        assert_eq!(rules_of(&terms), [(0, 9, rule::GUERRE_TRICKS), (0, 5, rule::GUERRE_HONOURS)]);
        assert_eq!(scores, [14, 0, 0, 0]);
        let Some(Event::MatchEnded { side, winners, .. }) = events.last() else { panic!() };
        assert_eq!((*side, winners.as_slice()), (None, &[0][..]));
    }

    // --- options and shapes --------------------------------------------------------------------

    #[test]
    fn options_have_defaults_and_every_variant_is_named() {
        let game = erase(Whist);
        assert_eq!(game.normalize_options(&Value::Null).unwrap(), json!({ "variant": "short", "honours": true }));
        for v in ["short", "long", "american", "sattrumf", "a_la_guerre"] {
            assert_eq!(game.normalize_options(&json!({ "variant": v })).unwrap()["variant"], v);
        }
        assert!(game.normalize_options(&json!({ "variant": "bridge" })).is_err());
    }

    #[test]
    fn commands_and_events_have_their_json_shapes() {
        assert_eq!(serde_json::from_value::<Command>(json!({ "type": "play", "card": "QS" })).unwrap(), play("QS"));
        let e = Event::TrumpsSet { seat: 1, card: card("5D"), suit: Suit::Diamonds };
        assert_eq!(
            serde_json::to_value(e).unwrap(),
            json!({ "type": "trumps_set", "seat": 1, "card": "5D", "suit": "diamonds" })
        );
    }

    // --- random matches ------------------------------------------------------------------------

    /// What every match's log must show, and (into `seen`) which scoring rules it met.
    fn check_log(options: &Value, log: &[Value], seen: &mut BTreeSet<String>) {
        let options: Options = serde_json::from_value(options.clone()).unwrap();
        let book = Whist.rulebook();
        let mut totals = vec![0i64; if options.variant.partnerships() { 2 } else { SEATS }];
        let mut ended = None;
        for value in log {
            assert!(ended.is_none(), "an event after the end of the match: {value}");
            match serde_json::from_value::<Event>(value.clone()).unwrap() {
                Event::DealStarted { scores, trump_card, deck, .. } => {
                    assert_eq!(scores, totals, "a deal starts from the scores so far");
                    assert_eq!(trump_card, options.variant.turns_trump().then(|| deck[51]));
                }
                Event::DealScored { trick_terms, terms, scores, trick_points, game, .. } => {
                    for t in trick_terms.iter().chain(&terms) {
                        assert!(book.rule(&t.rule).is_some(), "{} is not in the rulebook", t.rule);
                        seen.insert(t.rule.clone());
                    }
                    for t in &terms {
                        totals[t.to] += t.points;
                    }
                    assert_eq!(scores, totals);
                    assert!(trick_points.iter().all(|&p| p < options.variant.game()));
                    if let Some(g) = game {
                        seen.insert(format!("game worth {}", g.worth));
                    }
                }
                Event::MatchEnded { winners, scores, .. } => {
                    let best = *scores.iter().max().unwrap();
                    if !options.variant.partnerships() {
                        assert!(best >= 9 && winners.iter().all(|&w| scores[w] == best));
                    } else {
                        assert!(scores[side_of(winners[0])] == best && best >= 4, "{scores:?}");
                    }
                    ended = Some(scores);
                }
                Event::CardPlayed { .. } | Event::TrickWon { .. } | Event::TrumpsSet { .. } => {}
            }
        }
        assert_eq!(ended, Some(totals), "the match ends with the sum of the scored terms");
    }

    /// The generic harness plays every option set with every check; here more matches, each
    /// log checked for whist's own books, and every scoring rule met.
    #[test]
    fn random_match_logs_add_up_and_every_scoring_rule_happens() {
        let mut seen = BTreeSet::new();
        let plan = Plan { log_only: 40, ..Plan::default() };
        random_matches(&*erase(Whist), plan, |_, options, report| check_log(options, &report.log, &mut seen))
            .unwrap_or_else(|e| panic!("{e}"));
        for kind in ["game worth 1", "game worth 2", "game worth 3"] {
            assert!(seen.contains(kind), "{kind} never happened");
        }
        for rule in [
            rule::ODD_TRICKS,
            rule::HONOURS_FOUR,
            rule::HONOURS_THREE,
            rule::NOT_OUT_ON_HONOURS,
            rule::OTHER_SIDE_OUT,
            rule::GAME_VALUE,
            rule::RUBBER_BONUS,
            rule::GUERRE_TRICKS,
            rule::GUERRE_HONOURS,
            rule::GUERRE_NOT_OUT_ON_HONOURS,
        ] {
            assert!(seen.contains(rule), "{rule} never happened");
        }
    }
}
