//! Bondtolva: two players, 24 cards (9 to ace), six cards each and a stock of twelve.
//!
//! While the stock lasts any card may be played, and the winner of a trick, before drawing, may
//! declare a marriage (king and queen of a suit): the first is "trumf" (2 points, its suit
//! becomes trumps), the second "tjog" (1 point). The winner is asked after every trick where a
//! marriage could still be declared as far as the table can tell, so that being asked says
//! nothing about the hand (option `marriage_offer`; matches created before it were asked only
//! when holding one). Once the stock is gone each must follow suit,
//! overtake if possible, and trump when void. The last trick is worth a point and the most aces
//! and tens (then the most eyes) another. The first to stand on exactly 12 after a deal wins;
//! one who passes 12 falls back to 7.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, sorted, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Direction, Seat};
use crate::trick::{self, Play, PlayView, Trick, TrickPlay, WinReason};

#[derive(Default)]
pub struct Bondtolva;

const SEATS: usize = 2;
const TABLE: seat::Table = seat::Table { seats: SEATS, direction: Direction::Clockwise };
const HAND: usize = 6;
const STOCK: usize = 12;
const TRICKS: usize = 12;
/// Trumf and tjog: a third marriage is never declared.
const MARRIAGES: usize = 2;
pub const DEFAULT_TARGET: i64 = 12;
pub const DEFAULT_FALL_TO: i64 = 7;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "bondtolva.deal.players";
    pub const ORDER: &str = "bondtolva.deal.order";
    pub const STOCK: &str = "bondtolva.deal.stock";

    pub const FIRST_LEAD: &str = "bondtolva.stock.first-lead";
    pub const TRICK_WINNER: &str = "bondtolva.stock.trick-winner";
    pub const DRAW: &str = "bondtolva.stock.draw";
    pub const WINNER_LEADS: &str = "bondtolva.stock.winner-leads";

    pub const WHEN: &str = "bondtolva.marriage.when";
    pub const PAIR: &str = "bondtolva.marriage.pair";
    pub const TRUMPS: &str = "bondtolva.marriage.trumps";
    pub const TJOG: &str = "bondtolva.marriage.tjog";
    pub const ONE_AT_A_TIME: &str = "bondtolva.marriage.one-at-a-time";

    pub const FOLLOW_SUIT: &str = "bondtolva.end-play.follow-suit";
    pub const OVERTAKE: &str = "bondtolva.end-play.overtake";
    pub const MUST_TRUMP: &str = "bondtolva.end-play.must-trump";

    pub const LAST_TRICK: &str = "bondtolva.score.last-trick";
    pub const MATADORS: &str = "bondtolva.score.matadors";
    pub const EYES: &str = "bondtolva.score.eyes";
    pub const NO_GAME: &str = "bondtolva.score.no-game";

    pub const FALL: &str = "bondtolva.end.fall";

    pub const OPTION_TARGET: &str = "bondtolva.variant.target";

    pub const DEALER: &str = "bondtolva.house.dealer";
    pub const SAME_SUIT_ONCE: &str = "bondtolva.house.same-suit-once";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The score a player must stand on exactly to win the match: above `fall_to`.
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub target: i64,
    /// Where a player who passes the target falls back to: 0 or more, and below the target.
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub fall_to: i64,
    /// When the winner of a trick is asked to declare a marriage or draw: `every-trick` for every
    /// new match. Options stored without it (matches created before it) read `when-held`, the
    /// way those matches have always played; a new match cannot choose it.
    #[serde(default = "MarriageOffer::stored_before_it")]
    pub marriage_offer: MarriageOffer,
}

impl Default for Options {
    fn default() -> Options {
        Options { target: DEFAULT_TARGET, fall_to: DEFAULT_FALL_TO, marriage_offer: MarriageOffer::EveryTrick }
    }
}

/// When the winner of a trick is asked to declare a marriage or draw.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MarriageOffer {
    /// After every trick while the stock lasts and a marriage could still be declared as far as
    /// the table can tell (fewer than two declared, and a suit not declared with neither its king
    /// nor its queen played): the phase says nothing about the winner's hand.
    EveryTrick,
    /// Only when the winner holds a marriage it may declare, else the draws follow by
    /// themselves: how matches created before the option played. It shows the table that the
    /// winner holds a marriage, so only those matches have it.
    WhenHeld,
}

impl MarriageOffer {
    /// What options stored without the field mean: the matches created before it.
    fn stored_before_it() -> MarriageOffer {
        MarriageOffer::WhenHeld
    }
}

/// The first marriage of a deal is trumps, the second tjog.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarriageKind {
    /// "Trumf": 2 points, and its suit becomes trumps at once.
    Trumps,
    /// "Tjog": 1 point.
    Tjog,
}

impl MarriageKind {
    fn points(self) -> i64 {
        match self {
            MarriageKind::Trumps => 2,
            MarriageKind::Tjog => 1,
        }
    }

    fn rule(self) -> &'static str {
        match self {
            MarriageKind::Trumps => rule::TRUMPS,
            MarriageKind::Tjog => rule::TJOG,
        }
    }
}

/// A marriage declared in the deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marriage {
    pub seat: Seat,
    pub suit: Suit,
    pub kind: MarriageKind,
}

/// The game's order within a suit: A, 10, K, Q, J, 9 (rules-notes).
pub fn strength(card: Card) -> u8 {
    match card.rank().map(Rank::value) {
        Some(14) => 6,
        Some(10) => 5,
        Some(13) => 4,
        Some(12) => 3,
        Some(11) => 2,
        Some(9) => 1,
        _ => 0,
    }
}

/// The eyes a card counts when the matadors are even.
fn eyes(card: Card) -> u32 {
    match card.rank().map(Rank::value) {
        Some(14) => 4,
        Some(13) => 3,
        Some(12) => 2,
        Some(11) => 1,
        _ => 0,
    }
}

fn is_matador(card: Card) -> bool {
    matches!(card.rank().map(Rank::value), Some(14 | 10))
}

fn pair(suit: Suit) -> [Card; 2] {
    [Card::new(Rank::KING, suit), Card::new(Rank::QUEEN, suit)]
}

// ---------------------------------------------------------------------------------------------
// State

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    /// Top card first.
    stock: Vec<Card>,
    /// Cards each seat has drawn from the stock.
    drawn: [usize; SEATS],
    marriages: Vec<Marriage>,
    /// How many tricks had been won when trumps were declared: the tricks before were played
    /// without them.
    trumps_after: usize,
    /// The trick's winner may declare before the draw: set between the trick and the draw.
    declaring: Option<Seat>,
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
        match self.declaring {
            Some(seat) => vec![seat],
            None if self.play.is_over() => Vec::new(),
            None => vec![self.play.to_play()],
        }
    }

    fn is_live(&self) -> bool {
        !self.play.is_over()
    }

    fn phase(&self) -> Phase {
        if self.play.is_over() {
            Phase::DealOver
        } else if self.declaring.is_some() {
            Phase::Declaring
        } else if self.stock.is_empty() {
            Phase::EndPlay
        } else {
            Phase::StockPlay
        }
    }
}

impl Deal {
    fn forehand(&self) -> Seat {
        TABLE.forehand(self.dealer)
    }

    fn trumps(&self) -> Option<Suit> {
        self.marriages.first().map(|m| m.suit)
    }

    fn winner(&self) -> impl Fn(&Trick) -> (Seat, Card, WinReason) {
        let trumps = self.trumps();
        move |t| trick::winner_by(t, trumps, strength)
    }

    /// Whether the table asks the winner of the trick just won to declare or draw: when the
    /// match offers a marriage after every trick, whenever one could still be declared from what
    /// everyone sees; in a match created before that, when the winner holds one.
    fn asks(&self, winner: Seat, offer: MarriageOffer) -> bool {
        match offer {
            MarriageOffer::EveryTrick => self.could_declare(),
            MarriageOffer::WhenHeld => !self.declarable(winner).is_empty(),
        }
    }

    /// Whether some marriage could still be declared, from public facts alone: the stock lasts,
    /// fewer than two are declared, and a suit not declared has neither its king nor its queen
    /// played.
    fn could_declare(&self) -> bool {
        if self.stock.is_empty() || self.marriages.len() >= MARRIAGES {
            return false;
        }
        let played: Vec<Card> = self.play.played().map(|(_, c)| c).collect();
        Suit::ALL
            .into_iter()
            .any(|s| !self.marriages.iter().any(|m| m.suit == s) && pair(s).iter().all(|c| !played.contains(c)))
    }

    /// The suits whose marriage `seat` may declare now.
    fn declarable(&self, seat: Seat) -> Vec<Suit> {
        if self.stock.is_empty() || self.marriages.len() >= MARRIAGES {
            return Vec::new();
        }
        let hand = &self.play.hands[seat];
        Suit::ALL
            .into_iter()
            .filter(|&s| !self.marriages.iter().any(|m| m.suit == s) && pair(s).iter().all(|c| hand.contains(c)))
            .collect()
    }

    fn legal(&self, seat: Seat) -> Vec<Card> {
        let hand = &self.play.hands[seat];
        if self.stock.is_empty() {
            trick::distinct(end_play_cards(hand, &self.play.trick, self.trumps()))
        } else {
            trick::distinct(hand.clone())
        }
    }

    /// The cards shown in marriages that are still in their owner's hand: public.
    fn shown(&self, seat: Seat) -> Vec<Card> {
        let hand = &self.play.hands[seat];
        let cards = self.marriages.iter().filter(|m| m.seat == seat).flat_map(|m| pair(m.suit));
        sorted(cards.filter(|c| hand.contains(c)).collect())
    }
}

/// The cards `hand` may play to `trick` once the stock is gone: the suit led and of it a card
/// that beats the one led if there is one; void in it, a trump; void in both, anything.
pub fn end_play_cards(hand: &[Card], trick: &Trick, trumps: Option<Suit>) -> Vec<Card> {
    let Some(&(_, led)) = trick.plays.first() else { return hand.to_vec() };
    let suit = led.suit().expect("plain cards only");
    let follow: Vec<Card> = hand.iter().copied().filter(|c| c.is_suit(suit)).collect();
    if !follow.is_empty() {
        let higher: Vec<Card> = follow.iter().copied().filter(|&c| strength(c) > strength(led)).collect();
        return if higher.is_empty() { follow } else { higher };
    }
    if let Some(t) = trumps {
        let trump: Vec<Card> = hand.iter().copied().filter(|c| c.is_suit(t)).collect();
        if !trump.is_empty() {
            return trump;
        }
    }
    hand.to_vec()
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    Play {
        card: Card,
    },
    /// After winning a trick while the stock lasts: show the king and queen of `suit`.
    DeclareMarriage {
        suit: Suit,
    },
    /// After winning a trick: draw without declaring.
    Draw,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from; the stock is the deck after the twelve dealt cards.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Each seat's six cards, sorted.
        hands: [Vec<Card>; SEATS],
        scores: [i64; SEATS],
        options: Options,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
        trick_number: u32,
    },
    TrickWon {
        trick_number: u32,
        winner: Seat,
        card: Card,
        reason: WinReason,
        plays: Vec<Play>,
    },
    /// A king and queen shown: they stay public while held.
    MarriageDeclared {
        seat: Seat,
        suit: Suit,
        kind: MarriageKind,
        points: i64,
        cards: Vec<Card>,
    },
    /// A card from the top of the stock; only the drawer sees it while the deal lasts.
    CardDrawn {
        seat: Seat,
        card: Card,
        stock_left: usize,
    },
    DealScored {
        deal_number: u32,
        dealer: Seat,
        tricks_taken: [u32; SEATS],
        /// Aces and tens taken, by seat.
        matadors: [u32; SEATS],
        /// Eyes taken, by seat (ace 4, king 3, queen 2, jack 1).
        eyes: [u32; SEATS],
        last_trick: Seat,
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

/// Three and three, forehand first; the other twelve cards are the stock, top card first.
pub fn deal_out(dealer: Seat, deck: &[Card]) -> ([Vec<Card>; SEATS], Vec<Card>) {
    let order = [TABLE.forehand(dealer), dealer];
    let mut hands: [Vec<Card>; SEATS] = Default::default();
    for (i, &card) in deck[..2 * HAND].iter().enumerate() {
        hands[order[(i / 3) % 2]].push(card);
    }
    (hands.map(sorted), deck[2 * HAND..].to_vec())
}

// ---------------------------------------------------------------------------------------------
// Decide

fn check_end_play(deal: &Deal, seat: Seat, card: Card) -> Result<(), RuleViolation> {
    let allowed = end_play_cards(&deal.play.hands[seat], &deal.play.trick, deal.trumps());
    if allowed.contains(&card) {
        return Ok(());
    }
    let (_, led) = deal.play.trick.plays[0];
    let suit = led.suit().expect("plain cards only");
    if allowed.iter().any(|c| c.is_suit(suit)) {
        if card.is_suit(suit) {
            return Err(RuleViolation::new(
                rule::OVERTAKE,
                format!("Du lade {card} men har ett högre kort än {led} i färgen och måste sticka över."),
                format!("You played {card} but hold a higher card than {led} in the suit and must overtake."),
            ));
        }
        return Err(RuleViolation::new(
            rule::FOLLOW_SUIT,
            format!("Talongen är slut: du har {} och måste bekänna färg.", suit.name_sv()),
            format!("The stock is gone: you hold {} and must follow suit.", suit.name_en()),
        ));
    }
    Err(RuleViolation::new(
        rule::MUST_TRUMP,
        format!("Du saknar {} men har trumf och måste trumfa.", suit.name_sv()),
        format!("You are void in {} but hold trumps and must trump.", suit.name_en()),
    ))
}

/// The draws after a trick: the winner takes the top card, the other seat the next.
fn draws(deal: &Deal, winner: Seat) -> Vec<Event> {
    let order = [winner, TABLE.next(winner)];
    let left = deal.stock.len();
    order
        .iter()
        .zip(&deal.stock)
        .enumerate()
        .map(|(i, (&seat, &card))| Event::CardDrawn { seat, card, stock_left: left - i - 1 })
        .collect()
}

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if deal.declaring.is_some() {
        return Err(RuleViolation::new(
            rule::WHEN,
            "Du tog sticket: deklarera ett par eller dra först.",
            "You took the trick: declare a marriage or draw first.",
        ));
    }
    deal.play.check_held(seat, card)?;
    if deal.stock.is_empty() {
        check_end_play(deal, seat, card)?;
    }
    let trick_number = deal.play.number() as u32;
    let mut events = vec![Event::CardPlayed { seat, card, trick_number }];
    let Some(won) = deal.play.completed_by(seat, card, &deal.winner()) else { return Ok(events) };
    let winner = won.winner;
    events.push(Event::TrickWon { trick_number, winner, card: won.card, reason: won.reason, plays: won.plays.clone() });
    if won.last {
        events.extend(score_deal(state, deal, &won.plays, winner));
        return Ok(events);
    }
    if deal.stock.is_empty() {
        return Ok(events);
    }
    // The declaration comes before the draw, from the hand as it is after the trick.
    let mut after = deal.clone();
    after.play.play(seat, card);
    after.play.won(winner, won.card, won.reason);
    if !after.asks(winner, state.options.marriage_offer) {
        events.extend(draws(deal, winner));
    }
    Ok(events)
}

fn decide_declare(deal: &Deal, seat: Seat, suit: Suit) -> Result<Vec<Event>, RuleViolation> {
    if deal.declaring != Some(seat) {
        return Err(RuleViolation::new(
            rule::WHEN,
            "Ett par deklareras bara just efter ett vunnet stick, före draget ur talongen.",
            "A marriage is declared only just after winning a trick, before drawing from the stock.",
        ));
    }
    if deal.marriages.iter().any(|m| m.suit == suit) {
        return Err(RuleViolation::new(
            rule::SAME_SUIT_ONCE,
            format!("Paret i {} är redan deklarerat.", suit.name_sv()),
            format!("The marriage in {} has already been declared.", suit.name_en()),
        ));
    }
    if !deal.declarable(seat).contains(&suit) {
        return Err(RuleViolation::new(
            rule::PAIR,
            format!("Du har inte både kung och dam i {}.", suit.name_sv()),
            format!("You do not hold both king and queen of {}.", suit.name_en()),
        ));
    }
    let kind = if deal.marriages.is_empty() { MarriageKind::Trumps } else { MarriageKind::Tjog };
    let mut events =
        vec![Event::MarriageDeclared { seat, suit, kind, points: kind.points(), cards: pair(suit).to_vec() }];
    events.extend(draws(deal, seat));
    Ok(events)
}

fn decide_draw(deal: &Deal, seat: Seat) -> Result<Vec<Event>, RuleViolation> {
    if deal.declaring != Some(seat) {
        return Err(RuleViolation::new(
            rule::DRAW,
            "Korten dras ur talongen av sig själva efter sticket; nu ska ett kort spelas.",
            "Cards are drawn from the stock by themselves after the trick; now a card is to be played.",
        ));
    }
    Ok(draws(deal, seat))
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// What a seat took home: aces and tens, and eyes.
pub fn counts(won: &[Card]) -> (u32, u32) {
    (won.iter().filter(|&&c| is_matador(c)).count() as u32, won.iter().map(|&c| eyes(c)).sum())
}

/// A deal's terms in the order they were earned (marriages, the last trick, the game), then the
/// fall of a seat that passed the target; and the seat that won the match, if one did.
pub fn score_terms(
    scores: [i64; SEATS],
    marriages: &[Marriage],
    last_trick: Seat,
    won: &[Vec<Card>; SEATS],
    options: &Options,
) -> (Vec<ScoreTerm>, Option<Seat>) {
    let mut terms: Vec<ScoreTerm> = marriages
        .iter()
        .map(|m| {
            let (sv, en) = match m.kind {
                MarriageKind::Trumps => ("trumf", "trumps"),
                MarriageKind::Tjog => ("tjog", "tjog"),
            };
            ScoreTerm::new(
                m.seat,
                m.kind.points(),
                m.kind.rule(),
                format!("Plats {} deklarerade {sv} i {}: {} poäng.", m.seat, m.suit.name_sv(), m.kind.points()),
                format!("Seat {} declared {en} in {}: {} points.", m.seat, m.suit.name_en(), m.kind.points()),
            )
        })
        .collect();
    terms.push(ScoreTerm::new(
        last_trick,
        1,
        rule::LAST_TRICK,
        format!("Plats {last_trick} tog sista sticket: 1 poäng."),
        format!("Seat {last_trick} took the last trick: 1 point."),
    ));
    let (m, e) = (counts(&won[0]), counts(&won[1]));
    let game = if m.0 != e.0 {
        let w = usize::from(e.0 > m.0);
        let (a, b) = ([m.0, e.0][w], [m.0, e.0][1 - w]);
        Some(ScoreTerm::new(
            w,
            1,
            rule::MATADORS,
            format!("Plats {w} tog flest matadorer (ess och tior), {a} mot {b}: 1 poäng för vinsten."),
            format!("Seat {w} took the most matadors (aces and tens), {a} to {b}: 1 point for the game."),
        ))
    } else if m.1 != e.1 {
        let w = usize::from(e.1 > m.1);
        let (a, b) = ([m.1, e.1][w], [m.1, e.1][1 - w]);
        Some(ScoreTerm::new(
            w,
            1,
            rule::EYES,
            format!("Lika många matadorer ({}); plats {w} tog flest ögon, {a} mot {b}: 1 poäng för vinsten.", m.0),
            format!("Matadors even ({}); seat {w} took the most eyes, {a} to {b}: 1 point for the game.", m.0),
        ))
    } else {
        None
    };
    match game {
        Some(t) => terms.push(t),
        None => terms.extend((0..SEATS).map(|s| {
            ScoreTerm::new(
                s,
                0,
                rule::NO_GAME,
                format!("Lika många matadorer ({}) och ögon ({}): ingen får poängen för vinsten.", m.0, m.1),
                format!("Matadors ({}) and eyes ({}) even: nobody gets the point for the game.", m.0, m.1),
            )
        })),
    }
    let mut totals = scores;
    // When each seat last scored, for two seats standing on the target after the same deal.
    let mut reached = [usize::MAX; SEATS];
    for (i, t) in terms.iter().enumerate() {
        totals[t.to] += t.points;
        if t.points > 0 {
            reached[t.to] = i;
        }
    }
    for (s, total) in totals.iter_mut().enumerate() {
        if *total > options.target {
            let (had, target, fall_to) = (*total, options.target, options.fall_to);
            terms.push(ScoreTerm::new(
                s,
                fall_to - had,
                rule::FALL,
                format!("Plats {s} fick {had} poäng, mer än {target}, och rasar ner till {fall_to}."),
                format!("Seat {s} reached {had} points, more than {target}, and falls back to {fall_to}."),
            ));
            *total = fall_to;
        }
    }
    let winner = (0..SEATS).filter(|&s| totals[s] == options.target).min_by_key(|&s| reached[s]);
    (terms, winner)
}

fn score_deal(state: &State, deal: &Deal, last_plays: &[Play], last_trick: Seat) -> Vec<Event> {
    let mut won: [Vec<Card>; SEATS] = Default::default();
    for t in &deal.play.tricks {
        won[t.winner].extend(t.plays.iter().map(|p| p.card));
    }
    won[last_trick].extend(last_plays.iter().map(|p| p.card));
    let mut taken = [deal.play.taken[0], deal.play.taken[1]];
    taken[last_trick] += 1;
    let scores = [state.deals.scores[0], state.deals.scores[1]];
    let (terms, winner) = score_terms(scores, &deal.marriages, last_trick, &won, &state.options);
    let (points, scores) = state.deals.tally(&terms);
    let (c0, c1) = (counts(&won[0]), counts(&won[1]));
    let scored = Event::DealScored {
        deal_number: deal.number,
        dealer: deal.dealer,
        tricks_taken: taken,
        matadors: [c0.0, c1.0],
        eyes: [c0.1, c1.1],
        last_trick,
        terms,
        points,
        scores,
    };
    let Some(winner) = winner else { return vec![scored] };
    let target = state.options.target;
    let other = TABLE.next(winner);
    let explanation = Text::new(
        format!("Plats {winner} står på exakt {target} poäng och vann partiet; plats {other} hade {}.", scores[other]),
        format!(
            "Seat {winner} stands on exactly {target} points and won the match; seat {other} had {}.",
            scores[other]
        ),
    );
    vec![scored, Event::MatchEnded { winner, scores, target, explanation }]
}

// ---------------------------------------------------------------------------------------------
// The table view

/// Where the match is: `waiting-for-deal` before the first deal, `stock-play` while the stock
/// lasts, `declaring` while a trick's winner is asked to declare a marriage or draw (after every
/// trick where one could still be declared, whatever the hand), `end-play` once the stock is
/// gone, `deal-over` between deals, `finished` once someone has won.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No deal has been dealt yet.
    WaitingForDeal,
    /// Tricks with the stock on the table: any card may be played.
    StockPlay,
    /// The winner of the trick declares a marriage or draws. Asked after every trick where a
    /// marriage could still be declared, so it tells nothing about the winner's hand (in a match
    /// created with `marriage_offer: when-held`, before the option, only when holding one).
    Declaring,
    /// The stock is gone: follow suit, overtake, trump.
    EndPlay,
    /// The deal is played out and scored; the next deal is awaited.
    DealOver,
    /// A player stands on the target and has won the match.
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// The table as one viewer sees it. Everyone sees the marriages declared and the shown kings and
/// queens still held; a seat sees its own hand; the stock is seen by nobody until the record.
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
    /// The score to stand on exactly.
    pub target: i64,
    /// The seat that won the match: null until the match is over.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winner: Option<Seat>,
    /// The deal's forehand, who leads first: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The trump suit: null until the first marriage, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trump: Option<Option<Suit>>,
    /// The marriages declared in this deal, in order: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub marriages: Option<Vec<Marriage>>,
    /// By seat, the shown kings and queens of declared marriages still in hand: absent before
    /// the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub shown: Option<Vec<Vec<Card>>>,
    /// Cards left in the stock: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub stock_size: Option<usize>,
    /// The stock, top card first: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub stock: Option<Vec<Card>>,
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

/// Always declares, the suit it holds most of (for trumps) first.
fn bot_marriage(deal: &Deal, seat: Seat) -> Option<Suit> {
    let hand = &deal.play.hands[seat];
    deal.declarable(seat).into_iter().max_by_key(|&s| (hand.iter().filter(|c| c.is_suit(s)).count(), s))
}

/// The test bot: the basic bot's card, but now and then any card it may play.
fn bot_play(deal: &Deal, seat: Seat, rng: &mut Rng) -> Card {
    let legal = deal.legal(seat);
    if legal.len() == 1 || rng.below(6) == 0 {
        return legal[rng.below(legal.len())];
    }
    basic_play(deal, seat)
}

/// Leads its cheapest card while the stock lasts and its highest after; takes a trick when it
/// holds a matador, or cheaply with a card it does not mean to keep; otherwise throws its
/// cheapest card, keeping trumps, matadors and the halves of marriages it may still declare.
fn basic_play(deal: &Deal, seat: Seat) -> Card {
    let legal = deal.legal(seat);
    let trumps = deal.trumps();
    let hand = &deal.play.hands[seat];
    // Kings and queens that could still make an undeclared marriage are kept while the stock lasts.
    let keep = |c: Card| {
        !deal.stock.is_empty()
            && deal.marriages.len() < MARRIAGES
            && matches!(c.rank().map(Rank::value), Some(12 | 13))
            && c.suit().is_some_and(|s| !deal.marriages.iter().any(|m| m.suit == s))
            && hand.len() > 1
    };
    let cost = |c: Card| {
        (u8::from(keep(c)), u8::from(trumps.is_some_and(|t| c.is_suit(t))), u8::from(is_matador(c)), strength(c))
    };
    let cheapest = |cards: &[Card]| cards.iter().copied().min_by_key(|&c| cost(c));
    if deal.play.trick.is_empty() {
        if deal.stock.is_empty() {
            return legal.iter().copied().max_by_key(|&c| strength(c)).expect("legal");
        }
        return cheapest(&legal).expect("legal");
    }
    let wins = |c: Card| deal.play.completed_by(seat, c, &deal.winner()).is_some_and(|w| w.winner == seat);
    let winners: Vec<Card> = legal.iter().copied().filter(|&c| wins(c)).collect();
    let (_, led) = deal.play.trick.plays[0];
    let worth_it = is_matador(led) || deal.stock.is_empty();
    match cheapest(&winners) {
        Some(c) if worth_it || !keep(c) && !is_matador(c) => c,
        _ => cheapest(&legal).expect("legal"),
    }
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Bondtolva {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "bondtolva";
    const PLAYERS: RangeInclusive<usize> = SEATS..=SEATS;
    const RULEBOOK: &'static str = include_str!("rulebooks/bondtolva.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        let stored_before = Options { marriage_offer: MarriageOffer::WhenHeld, ..Options::default() };
        vec![Options::default(), Options { target: 6, fall_to: 2, ..Options::default() }, stored_before]
    }

    /// A new match is asked after every trick: `when-held` is kept for the matches stored before
    /// the option, which read it when their options lack it.
    fn new_match_options(&self, sent: &Value, options: Options) -> Result<Options, SetupError> {
        if options.marriage_offer == MarriageOffer::WhenHeld && sent.get("marriage_offer").is_some() {
            return Err(SetupError(
                "marriage_offer when-held is kept only for matches created before the option: it shows the table \
                 that a trick's winner holds a marriage"
                    .into(),
            ));
        }
        Ok(Options { marriage_offer: MarriageOffer::EveryTrick, ..options })
    }

    fn setup(&self, _players: usize, options: Options) -> Result<State, SetupError> {
        deals::check_target(options.target)?;
        if options.fall_to < 0 || options.fall_to >= options.target {
            return Err(SetupError(format!(
                "fall_to must be at least 0 and below the target {}, not {}",
                options.target, options.fall_to
            )));
        }
        Ok(State { options, deals: Deals::new(SEATS) })
    }

    crate::status_of_deals!(|| decks::from_rank(Rank::NINE));

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let dealer = state.deals.next_dealer;
        let (hands, _) = deal_out(dealer, &deck);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: TABLE.forehand(dealer),
            deck,
            hands,
            scores: [state.deals.scores[0], state.deals.scores[1]],
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match *command {
            Command::Play { card } => decide_play(state, deal, seat, card),
            Command::DeclareMarriage { suit } => decide_declare(deal, seat, suit),
            Command::Draw => decide_draw(deal, seat),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, deck, hands, scores, options, .. } => {
                state.options = options.clone();
                state.deals.next_dealer = TABLE.next(*dealer);
                let (_, stock) = deal_out(*dealer, deck);
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    deck: deck.clone(),
                    stock,
                    drawn: [0; SEATS],
                    marriages: Vec::new(),
                    trumps_after: 0,
                    declaring: None,
                    play: TrickPlay::new(TABLE, hands.to_vec(), TABLE.forehand(*dealer), TRICKS),
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { terms, scores, .. } => state.deals.scored(terms, scores),
            Event::MatchEnded { winner, explanation, .. } => state.deals.ended(&[*winner], explanation),
            _ => {
                let Some(deal) = state.deals.deal.as_mut() else { return };
                match *event {
                    Event::CardPlayed { seat, card, .. } => deal.play.play(seat, card),
                    Event::TrickWon { winner, card, reason, .. } => {
                        deal.play.won(winner, card, reason);
                        if deal.asks(winner, state.options.marriage_offer) {
                            deal.declaring = Some(winner);
                        }
                    }
                    Event::MarriageDeclared { seat, suit, kind, .. } => {
                        if deal.marriages.is_empty() {
                            deal.trumps_after = deal.play.tricks.len();
                        }
                        deal.marriages.push(Marriage { seat, suit, kind });
                    }
                    Event::CardDrawn { seat, card, .. } => {
                        deal.declaring = None;
                        if !deal.stock.is_empty() {
                            deal.stock.remove(0);
                        }
                        deal.drawn[seat] += 1;
                        deal.play.hands[seat].push(card);
                        crate::cards::sort_hand(&mut deal.play.hands[seat]);
                    }
                    _ => {}
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        if deal.declaring.is_some() {
            let mut moves: Vec<Command> =
                deal.declarable(seat).into_iter().map(|suit| Command::DeclareMarriage { suit }).collect();
            moves.push(Command::Draw);
            return moves;
        }
        deal.legal(seat).into_iter().map(|card| Command::Play { card }).collect()
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        let plays = decks::from_rank(Rank::NINE).into_iter().map(|card| Command::Play { card });
        let declares = Suit::ALL.into_iter().map(|suit| Command::DeclareMarriage { suit });
        plays.chain(declares).chain([Command::Draw]).collect()
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
            winner: state.deals.outcome.as_ref().map(|o| o.winners[0]),
            forehand: deal.map(Deal::forehand),
            trump: deal.map(Deal::trumps),
            marriages: deal.map(|d| d.marriages.clone()),
            shown: deal.map(|d| (0..SEATS).map(|s| d.shown(s)).collect()),
            stock_size: deal.map(|d| d.stock.len()),
            stock: deal.filter(|_| record).map(|d| d.stock.clone()),
            deck: deal.filter(|_| record).map(|d| d.deck.clone()),
            play: deal.map(|d| d.play.view(record)).unwrap_or_default(),
            hand: deal.zip(me).map(|(d, s)| d.play.hands[s].clone()),
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
            Event::DealStarted { deal_number, hands, .. } if live.is_some_and(|d| d.number == *deal_number) => {
                deals::hide_hands(&mut full, &hands[..], viewer);
            }
            Event::CardDrawn { seat, .. } if live.is_some() && viewer != Viewer::Seat(*seat) => {
                full["card"] = Value::Null;
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let shown: Vec<Card> = deal.marriages.iter().flat_map(|m| pair(m.suit)).collect();
        let mut secrets = deal.play.hand_secrets(|_, c| shown.contains(&c));
        secrets.extend(deal.stock.iter().map(|&c| (c, Vec::new())));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let (scores, target) = (&state.deals.scores, state.options.target);
        if let Some(o) = &state.deals.outcome {
            if !matches!(o.winners[..], [w] if scores[w] == target) {
                return Err(format!("winners {:?} with scores {scores:?} and target {target}", o.winners));
            }
        }
        if state.deals.deal.as_ref().is_some_and(|d| d.play.is_over()) && scores.iter().any(|&s| s > target) {
            return Err(format!("scores {scores:?} above the target {target} after a deal"));
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::from_rank(Rank::NINE);
        deals::check_deck(&deal.deck, &pack)?;
        if deal.stock.len() + deal.drawn.iter().sum::<usize>() != STOCK || deal.drawn[0].abs_diff(deal.drawn[1]) > 1 {
            return Err(format!("stock of {} after draws {:?}", deal.stock.len(), deal.drawn));
        }
        if deal.stock[..] != deal.deck[deal.deck.len() - deal.stock.len()..] {
            return Err("the stock is not the undrawn end of the deck".into());
        }
        // The latest trick is checked with the trumps it was played under.
        let trumps = deal.trumps().filter(|_| deal.play.tricks.len() > deal.trumps_after);
        let winner = move |t: &Trick| trick::winner_by(t, trumps, strength);
        deal.play.check(&pack, &deal.stock, |s| HAND + deal.drawn[s], &winner)?;
        if deal.marriages.len() > MARRIAGES {
            return Err(format!("{} marriages declared", deal.marriages.len()));
        }
        for (i, m) in deal.marriages.iter().enumerate() {
            let kind = if i == 0 { MarriageKind::Trumps } else { MarriageKind::Tjog };
            if m.kind != kind || deal.marriages[..i].iter().any(|o| o.suit == m.suit) {
                return Err(format!("marriage {i} is {:?} in {:?}", m.kind, m.suit));
            }
        }
        if let Some(seat) = deal.declaring {
            if deal.stock.is_empty() || deal.play.tricks.last().map(|t| t.winner) != Some(seat) {
                return Err(format!("seat {seat} declares without the stock or the last trick"));
            }
        }
        if deal.play.first_leader() != deal.forehand() {
            return Err(format!("seat {} led the first trick instead of forehand", deal.play.first_leader()));
        }
        Ok(())
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let mut rng = Rng::new(seed);
        if deal.declaring.is_some() {
            return Some(match bot_marriage(deal, seat) {
                Some(suit) => Command::DeclareMarriage { suit },
                None => Command::Draw,
            });
        }
        Some(Command::Play { card: bot_play(deal, seat, &mut rng) })
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        if deal.declaring.is_some() {
            return Some(bot_marriage(deal, seat).map_or(Command::Draw, |suit| Command::DeclareMarriage { suit }));
        }
        Some(Command::Play { card: basic_play(deal, seat) })
    }

    /// The deal as `seat` knows it: its own hand, the cards played, the declared kings and
    /// queens the other still holds; the other's hand and the stock dealt afresh from the rest,
    /// keeping what the end play has shown the other lacks.
    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        let deal = state.deals.live()?;
        let other = TABLE.next(seat);
        let shown = deal.shown(other);
        let played: Vec<Card> = deal.play.played().map(|(_, c)| c).collect();
        let seen: Vec<Card> = deal.play.hands[seat].iter().chain(&played).chain(&shown).copied().collect();
        let pool: Vec<Card> = decks::from_rank(Rank::NINE).into_iter().filter(|c| !seen.contains(c)).collect();
        let lacks = end_play_lacks(deal, other);
        let sizes = [deal.play.hands[other].len() - shown.len(), deal.stock.len()];
        let mut dealt = bots::redeal_where(&pool, &sizes, |pile, c| pile == 1 || !lacks(c), rng).into_iter();
        let mut world = state.clone();
        let w = world.deals.live_mut()?;
        let mut hand = dealt.next().expect("the other's hand");
        hand.extend(shown);
        w.play.hands[other] = sorted(hand);
        w.stock = dealt.next().expect("the stock");
        // Not the deck as dealt (which nobody may see), but the same cards, the stock last.
        w.deck = w.play.hands.iter().flatten().chain(&played).chain(&w.stock).copied().collect();
        Some(world)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let scores = &state.deals.scores;
        (scores[seat] - scores[TABLE.next(seat)]) as f64
    }
}

/// The cards `seat` has shown it cannot hold, from the end play, where it had to follow suit,
/// overtake and trump: a suit it did not follow, a trump when it neither followed nor trumped,
/// a card of the suit led above the one it followed with without overtaking. While the stock
/// lasts any card may be played, and nothing is shown.
fn end_play_lacks(deal: &Deal, seat: Seat) -> impl Fn(Card) -> bool {
    let trumps = deal.trumps();
    // Only a finished trick holds an answer: the second card completes it.
    let answers = deal.play.tricks.iter().filter(|t| t.number > STOCK / 2 && t.plays[1].seat == seat);
    let answers: Vec<(Card, Card)> = answers.map(|t| (t.plays[0].card, t.plays[1].card)).collect();
    let mut void = [false; 4];
    let mut most = [u8::MAX; 4];
    for (led, answer) in answers {
        let suit = led.suit().expect("plain cards only");
        if !answer.is_suit(suit) {
            void[suit as usize] = true;
            if let Some(t) = trumps.filter(|&t| !answer.is_suit(t)) {
                void[t as usize] = true;
            }
        } else if strength(answer) < strength(led) {
            most[suit as usize] = most[suit as usize].min(strength(led));
        }
    }
    move |c: Card| c.suit().is_some_and(|s| void[s as usize] || strength(c) > most[s as usize])
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
    use serde_json::json;

    type M = Driver<Bondtolva>;

    /// The pack for a first deal (seat 0 deals, seat 1 is forehand): forehand's six, the
    /// dealer's six, then the stock top first.
    fn deck(forehand: &str, dealer: &str, stock: &str) -> Vec<Card> {
        let (f, d) = (cards(forehand), cards(dealer));
        let mut deck = f[..3].to_vec();
        deck.extend(&d[..3]);
        deck.extend(&f[3..]);
        deck.extend(&d[3..]);
        deck.extend(cards(stock));
        assert!(is_permutation(&deck, &decks::from_rank(Rank::NINE)));
        deck
    }

    const F: &str = "KH QH AS 9C JD TD";
    const D: &str = "AH 9H KS QS TC KD";
    const STOCK: &str = "JH TH 9S JS TS AC JC QC KC 9D QD AD";

    fn with(options: Options, forehand: &str, dealer: &str, stock: &str) -> M {
        let mut m = M::new(2, options);
        m.deal(deck(forehand, dealer, stock));
        m
    }

    fn start() -> M {
        with(Options::default(), F, D, STOCK)
    }

    fn play(code: &str) -> Command {
        Command::Play { card: card(code) }
    }

    fn rule_of(m: &M, seat: Seat, command: Command) -> String {
        let v = m.refused(seat, command);
        assert!(!v.explanation.sv.is_empty() && !v.explanation.en.is_empty());
        v.rule
    }

    fn view(m: &M, viewer: Viewer) -> Value {
        serde_json::to_value(m.rules.view(&m.state, viewer)).unwrap()
    }

    fn deal(m: &M) -> &Deal {
        m.state.deals.deal.as_ref().unwrap()
    }

    #[test]
    fn six_cards_each_three_at_a_time_and_a_hidden_stock_of_twelve() {
        let (hands, stock) = deal_out(0, &deck(F, D, STOCK));
        assert_eq!(hands[1], sorted(cards(F)));
        assert_eq!(hands[0], sorted(cards(D)));
        assert_eq!(stock, cards(STOCK));
        let m = start();
        assert_eq!(m.to_act(), vec![1]);
        let v = view(&m, Viewer::Seat(1));
        assert_eq!(v["stock_size"], json!(12));
        assert_eq!(v["phase"], json!("stock-play"));
        for c in cards(STOCK) {
            assert!(m.rules.secrets(&m.state).contains(&(c, vec![])));
        }
        let first = m.rules.redact(&m.state, m.log.first().unwrap(), Viewer::Seat(0), false);
        assert!(is_permutation(&cards_in(&first), &sorted(cards(D))));
    }

    #[test]
    fn while_the_stock_lasts_any_card_may_be_played_and_the_winner_draws_first() {
        let mut m = start();
        m.ok(1, play("9C"));
        // The dealer holds clubs but need not follow.
        assert_eq!(m.legal(0).len(), 6);
        let events = m.ok(0, play("AH"));
        assert!(matches!(events[1], Event::TrickWon { winner: 1, reason: WinReason::HighestOfSuitLed, .. }));
        // Forehand holds KH and QH: it may declare before drawing.
        assert_eq!(m.to_act(), vec![1]);
        assert_eq!(view(&m, Viewer::Spectator)["phase"], json!("declaring"));
        assert_eq!(m.legal(1), vec![Command::DeclareMarriage { suit: Suit::Hearts }, Command::Draw]);
        assert_eq!(rule_of(&m, 1, play("AS")), rule::WHEN);
        let events = m.ok(1, Command::Draw);
        assert_eq!(
            events,
            vec![
                Event::CardDrawn { seat: 1, card: card("JH"), stock_left: 11 },
                Event::CardDrawn { seat: 0, card: card("TH"), stock_left: 10 },
            ]
        );
        let drawn = m.rules.redact(&m.state, &events[1], Viewer::Seat(1), false);
        assert_eq!(drawn["card"], Value::Null);
        assert_eq!(view(&m, Viewer::Seat(0))["hand_sizes"], json!([6, 6]));
        // The winner leads; a trick in a suit the winner cannot declare draws by itself.
        assert_eq!(m.to_act(), vec![1]);
        assert_eq!(rule_of(&m, 1, Command::Draw), rule::DRAW);
    }

    /// Forehand's hand of `F` without its marriage: the queen of hearts changes places with the
    /// last card of the stock, the ace of diamonds.
    const F_NO_MARRIAGE: &str = "KH AD AS 9C JD TD";
    const STOCK_NO_MARRIAGE: &str = "JH TH 9S JS TS AC JC QC KC 9D QD QH";

    /// What `other` and a spectator are shown: the status, their views, the legal moves of
    /// `other` and every event as they see it.
    fn seen_by(m: &M, other: Seat) -> Vec<Value> {
        let mut seen = vec![serde_json::to_value(m.rules.status(&m.state)).unwrap()];
        for viewer in [Viewer::Seat(other), Viewer::Spectator] {
            seen.push(view(m, viewer));
            seen.extend(m.log.iter().map(|e| m.rules.redact(&m.state, e, viewer, false)));
        }
        seen.push(serde_json::to_value(m.legal(other)).unwrap());
        seen
    }

    /// Issue 36: the deal waited in `declaring` only when the trick's winner held an undeclared
    /// king and queen, so the other seat and a spectator saw the phase (and the stock still at
    /// 12) exactly when the winner had a marriage. Now the winner is asked after every trick
    /// where a marriage could still be declared, and nothing the others are shown depends on
    /// the winner's hand.
    #[test]
    fn the_phase_tells_the_others_nothing_about_the_winners_hand() {
        let mut with_marriage = start();
        let mut without = with(Options::default(), F_NO_MARRIAGE, D, STOCK_NO_MARRIAGE);
        for m in [&mut with_marriage, &mut without] {
            m.ok(1, play("9C"));
            m.ok(0, play("AH"));
            assert_eq!(m.to_act(), vec![1]);
            assert_eq!(view(m, Viewer::Spectator)["phase"], json!("declaring"));
            assert_eq!(view(m, Viewer::Spectator)["stock_size"], json!(12));
        }
        assert_eq!(seen_by(&with_marriage, 0), seen_by(&without, 0));
        // Only the winner sees the difference, in its own legal moves.
        assert_eq!(with_marriage.legal(1), vec![Command::DeclareMarriage { suit: Suit::Hearts }, Command::Draw]);
        assert_eq!(without.legal(1), vec![Command::Draw]);
        for m in [&mut with_marriage, &mut without] {
            m.ok(1, Command::Draw);
            m.ok(1, play("JD"));
            m.ok(0, play("KD"));
            assert_eq!((m.to_act(), view(m, Viewer::Spectator)["phase"].clone()), (vec![0], json!("declaring")));
        }
        assert_eq!(seen_by(&with_marriage, 0), seen_by(&without, 0));
        // In a match created before the option the winner was asked only when holding one.
        let stored_before = Options { marriage_offer: MarriageOffer::WhenHeld, ..Options::default() };
        let mut with_marriage = with(stored_before.clone(), F, D, STOCK);
        let mut without = with(stored_before, F_NO_MARRIAGE, D, STOCK_NO_MARRIAGE);
        for m in [&mut with_marriage, &mut without] {
            m.ok(1, play("9C"));
            m.ok(0, play("AH"));
        }
        assert_eq!(view(&with_marriage, Viewer::Spectator)["phase"], json!("declaring"));
        assert_eq!(view(&without, Viewer::Spectator)["phase"], json!("stock-play"));
        assert_eq!(view(&without, Viewer::Spectator)["stock_size"], json!(10));
    }

    #[test]
    fn nobody_is_asked_once_no_marriage_can_be_declared_as_far_as_the_table_can_tell() {
        let mut m = start();
        m.ok(1, play("KH"));
        m.ok(0, play("9H"));
        m.ok(1, Command::Draw);
        // Hearts are gone (the king played); spades, clubs and diamonds could still be married.
        m.ok(1, play("9C"));
        m.ok(0, play("KS"));
        assert_eq!(m.to_act(), vec![1]);
        assert_eq!(view(&m, Viewer::Spectator)["phase"], json!("declaring"));
        m.ok(1, Command::Draw);
        let mut d = deal(&m).clone();
        assert!(d.could_declare());
        // With a king or queen of every suit played, nobody is asked: the draws follow by
        // themselves, as they do once trumf and tjog are declared.
        d.play.tricks[0].plays[1].card = card("QC");
        d.play.tricks[1].plays[0].card = card("KD");
        assert!(!d.could_declare() && !d.asks(1, MarriageOffer::EveryTrick));
        let mut d = deal(&m).clone();
        d.marriages = vec![
            Marriage { seat: 0, suit: Suit::Clubs, kind: MarriageKind::Trumps },
            Marriage { seat: 0, suit: Suit::Diamonds, kind: MarriageKind::Tjog },
        ];
        assert!(!d.could_declare());
    }

    /// Options are stored with the match and with every deal; those stored before
    /// `marriage_offer` existed read `when-held`, and their deals replay and play on that way.
    #[test]
    fn matches_stored_before_the_option_keep_the_old_flow_and_new_ones_get_the_new() {
        let game = erase(Bondtolva);
        let new = game.normalize_options(&json!({ "target": 10 })).unwrap();
        assert_eq!(new, json!({ "target": 10, "fall_to": 7, "marriage_offer": "every-trick" }));
        assert_eq!(game.normalize_options(&Value::Null).unwrap()["marriage_offer"], json!("every-trick"));
        assert!(game.normalize_options(&json!({ "marriage_offer": "when-held" })).is_err());
        // A match stored before the option, its first deal dealt then.
        let mut old = game.setup(2, &json!({ "target": 12, "fall_to": 7 })).unwrap();
        let mut started = serde_json::to_value(&start().log[0]).unwrap();
        started["options"] = json!({ "target": 12, "fall_to": 7 });
        started["hands"][1] = json!(sorted(cards(F_NO_MARRIAGE)));
        started["deck"] = json!(deck(F_NO_MARRIAGE, D, STOCK_NO_MARRIAGE));
        old.apply(&started).unwrap();
        assert_eq!(old.view(Viewer::Spectator)["options"]["marriage_offer"], json!("when-held"));
        for (seat, card) in [(1, "9C"), (0, "AH")] {
            for e in old.decide(seat, &json!({ "type": "play", "card": card })).unwrap() {
                old.apply(&e).unwrap();
            }
        }
        assert_eq!(old.view(Viewer::Spectator)["stock_size"], json!(10), "drawn by themselves, as before");
        // Its next deal keeps the flow it was created with.
        let next = Bondtolva.deal(&Bondtolva.setup(2, Options::default()).unwrap(), deck(F, D, STOCK)).unwrap();
        let Event::DealStarted { options, .. } = &next[0] else { panic!("a deal") };
        assert_eq!(options.marriage_offer, MarriageOffer::EveryTrick);
    }

    #[test]
    fn the_first_marriage_is_trumps_for_two_points_and_its_cards_stay_shown() {
        let mut m = start();
        m.ok(1, play("9C"));
        m.ok(0, play("9H"));
        assert_eq!(rule_of(&m, 1, Command::DeclareMarriage { suit: Suit::Spades }), rule::PAIR);
        assert_eq!(rule_of(&m, 0, Command::DeclareMarriage { suit: Suit::Spades }), core::TURN);
        let events = m.ok(1, Command::DeclareMarriage { suit: Suit::Hearts });
        assert_eq!(
            events[0],
            Event::MarriageDeclared {
                seat: 1,
                suit: Suit::Hearts,
                kind: MarriageKind::Trumps,
                points: 2,
                cards: cards("KH QH")
            }
        );
        let v = view(&m, Viewer::Seat(0));
        assert_eq!(v["trump"], json!("hearts"));
        assert_eq!(v["shown"][1], json!(["QH", "KH"]));
        let secrets = m.rules.secrets(&m.state);
        assert!(!secrets.iter().any(|(c, _)| *c == card("KH") || *c == card("QH")));
        assert!(secrets.contains(&(card("AS"), vec![1])));
        // Hearts are trumps now: the nine of hearts beats the ace of spades.
        m.ok(1, play("AS"));
        let events = m.ok(0, play("TH"));
        assert!(matches!(events[1], Event::TrickWon { winner: 0, reason: WinReason::HighestTrump, .. }));
        // The dealer's spade marriage can only be tjog now, for one point.
        let events = m.ok(0, Command::DeclareMarriage { suit: Suit::Spades });
        assert!(matches!(events[0], Event::MarriageDeclared { kind: MarriageKind::Tjog, points: 1, .. }));
        assert_eq!(deal(&m).marriages.len(), 2);
        // With trumf and tjog declared the draws follow every trick by themselves.
        m.ok(0, play("TC"));
        let events = m.ok(1, play("JD"));
        assert!(matches!(events.last(), Some(Event::CardDrawn { seat: 1, stock_left: 6, .. })));
    }

    #[test]
    fn after_two_marriages_or_once_the_stock_is_gone_nothing_is_declared() {
        let mut m = start();
        let mut d = deal(&m).clone();
        d.marriages = vec![
            Marriage { seat: 0, suit: Suit::Clubs, kind: MarriageKind::Trumps },
            Marriage { seat: 0, suit: Suit::Diamonds, kind: MarriageKind::Tjog },
        ];
        assert!(d.declarable(1).is_empty());
        d.marriages.clear();
        assert_eq!(d.declarable(1), vec![Suit::Hearts]);
        d.stock.clear();
        assert!(d.declarable(1).is_empty());
        m.ok(1, play("KH"));
        assert_eq!(rule_of(&m, 0, Command::DeclareMarriage { suit: Suit::Spades }), rule::WHEN);
    }

    #[test]
    fn once_the_stock_is_gone_follow_overtake_and_trump() {
        let trick = |codes: &str| Trick { leader: 1, plays: vec![(1, card(codes))] };
        let hand = cards("9H KH AH 9S TC");
        assert_eq!(end_play_cards(&hand, &trick("TH"), None), cards("AH"));
        assert_eq!(end_play_cards(&cards("9H KH 9S"), &trick("AH"), None), cards("9H KH"));
        assert_eq!(end_play_cards(&hand, &trick("JD"), Some(Suit::Spades)), cards("9S"));
        assert_eq!(end_play_cards(&hand, &trick("JD"), None), hand);
        assert_eq!(end_play_cards(&hand, &Trick::led_by(1), Some(Suit::Spades)), hand);
        // The ten ranks between the ace and the king.
        let mut order = cards("9C JC QC KC TC AC");
        order.sort_by_key(|&c| strength(c));
        assert_eq!(order, cards("9C JC QC KC TC AC"));
    }

    /// The deal as if the stock were used up with these hands and these trumps: the hands are
    /// set by hand, so the books are not checked while it is played.
    fn end_play(m: &mut M, hands: [&str; 2], trumps: Suit) {
        let d = m.state.deals.deal.as_mut().unwrap();
        d.stock.clear();
        d.play.hands = hands.iter().map(|h| sorted(cards(h))).collect();
        d.marriages.push(Marriage { seat: 0, suit: trumps, kind: MarriageKind::Trumps });
    }

    fn force(m: &mut M, seat: Seat, command: Command) {
        for e in m.decide(seat, &command).unwrap() {
            m.rules.evolve(&mut m.state, &e);
        }
    }

    #[test]
    fn refusals_in_the_end_play_name_their_rule() {
        let mut m = start();
        end_play(&mut m, ["AH 9H KS QS TC KD", "9C AS JD TD KH QH"], Suit::Spades);
        assert_eq!(view(&m, Viewer::Spectator)["phase"], json!("end-play"));
        force(&mut m, 1, play("KH"));
        assert_eq!(rule_of(&m, 0, play("9H")), rule::OVERTAKE);
        assert_eq!(rule_of(&m, 0, play("TC")), rule::FOLLOW_SUIT);
        assert_eq!(m.legal(0), vec![play("AH")]);
        force(&mut m, 0, play("AH"));
        // No draw and no declaring once the stock is gone: the winner leads at once.
        assert_eq!(m.to_act(), vec![0]);
        assert_eq!(rule_of(&m, 0, Command::DeclareMarriage { suit: Suit::Spades }), rule::WHEN);
        force(&mut m, 0, play("KD"));
        // The ten beats the king.
        assert_eq!(m.legal(1), vec![play("TD")]);
        assert_eq!(rule_of(&m, 1, play("JD")), rule::OVERTAKE);
        force(&mut m, 1, play("TD"));
        force(&mut m, 1, play("9C"));
        // Void in clubs: the club ten must follow; spades are trumps but clubs are held.
        assert_eq!(m.legal(0), vec![play("TC")]);
        force(&mut m, 0, play("TC"));
        force(&mut m, 0, play("QS"));
        assert_eq!(m.legal(1), vec![play("AS")]);
    }

    #[test]
    fn a_void_player_with_trumps_must_trump_and_without_them_plays_anything() {
        let mut m = start();
        end_play(&mut m, ["AD TD 9H", "9C AS JD"], Suit::Diamonds);
        force(&mut m, 1, play("9C"));
        assert_eq!(rule_of(&m, 0, play("9H")), rule::MUST_TRUMP);
        assert_eq!(m.legal(0).len(), 2);
        let mut m = start();
        end_play(&mut m, ["AH TH 9H", "9C AS JD"], Suit::Diamonds);
        force(&mut m, 1, play("9C"));
        assert_eq!(m.legal(0).len(), 3);
    }

    fn won(first: &str, second: &str) -> [Vec<Card>; 2] {
        [cards(first), cards(second)]
    }

    #[test]
    fn the_last_trick_and_the_most_matadors_each_score_a_point() {
        let o = Options::default();
        let (terms, winner) = score_terms([0, 0], &[], 1, &won("AC TC AD 9C", "AH KC"), &o);
        let got: Vec<(usize, i64, &str)> = terms.iter().map(|t| (t.to, t.points, t.rule.as_str())).collect();
        assert_eq!(got, vec![(1, 1, rule::LAST_TRICK), (0, 1, rule::MATADORS)]);
        assert_eq!(winner, None);
    }

    #[test]
    fn even_matadors_go_to_eyes_and_even_eyes_to_nobody() {
        let o = Options::default();
        let (terms, _) = score_terms([0, 0], &[], 0, &won("AC KC", "AD QD"), &o);
        assert_eq!((terms[1].to, terms[1].rule.as_str()), (0, rule::EYES));
        let (terms, _) = score_terms([0, 0], &[], 0, &won("AC KC TS", "AD KD TH"), &o);
        assert_eq!(terms.iter().filter(|t| t.rule == rule::NO_GAME && t.points == 0).count(), 2);
    }

    #[test]
    fn exactly_twelve_wins_and_more_falls_to_seven() {
        let o = Options::default();
        let marriage = [Marriage { seat: 0, suit: Suit::Hearts, kind: MarriageKind::Trumps }];
        let (_, winner) = score_terms([10, 5], &marriage, 1, &won("AC", "KC"), &o);
        assert_eq!(winner, None);
        let (terms, winner) = score_terms([9, 5], &marriage, 0, &won("AC", "KC"), &o);
        assert_eq!(winner, None);
        let fall = terms.last().unwrap();
        assert_eq!((fall.to, fall.points, fall.rule.as_str()), (0, -6, rule::FALL));
        let (_, winner) = score_terms([10, 5], &[], 0, &won("AC", "KC"), &o);
        assert_eq!(winner, Some(0));
        // Both on twelve: seat 1 got there with the last trick, before seat 0's game point.
        let (_, winner) = score_terms([11, 11], &[], 1, &won("AC", "KC"), &o);
        assert_eq!(winner, Some(1));
    }

    #[test]
    fn a_whole_deal_is_twelve_tricks_and_the_match_ends_on_exactly_the_target() {
        let mut m = M::new(2, Options::default());
        m.state.deals.scores = vec![10, 10];
        loop {
            if m.rules.status(&m.state).is_finished() {
                break;
            }
            if matches!(m.rules.status(&m.state), Status::NeedsDeck { .. }) {
                m.deal(deck(F, D, STOCK));
                continue;
            }
            let seat = m.to_act()[0];
            let command = m.rules.bot_move(&m.state, seat, 3).unwrap();
            m.ok(seat, command);
        }
        let Some(Event::MatchEnded { winner, scores, .. }) = m.log.last() else { panic!("no end") };
        assert_eq!(scores[*winner], 12);
        assert!(m.log.iter().filter(|e| matches!(e, Event::TrickWon { .. })).count() % 12 == 0);
        assert_eq!(rule_of(&m, 0, play("AS")), core::MATCH_OVER);
    }

    #[test]
    fn random_matches_keep_every_promise() {
        let game = erase(Bondtolva);
        for (i, options) in [json!({}), json!({ "target": 6, "fall_to": 2 })].iter().enumerate() {
            for seed in 0..60 {
                play_match(game.as_ref(), 2, options, seed * 7 + i as u64, Checks::ALL)
                    .unwrap_or_else(|e| panic!("seed {seed} {options}: {e}"));
            }
        }
    }
}
