//! Vändåtta (Swedish Crazy Eights): seven cards each, a talon and a pile; play a card (or
//! several of one rank) that matches the pile's top card by suit or rank, or draw up to three.
//! Eights are wild and name the suit that counts; an ace makes every other player draw a card
//! and its player plays again; nobody goes out on an ace or an eight. "Ett kvar" ("one left") is
//! a flag on the play that leaves one card, and forgetting it costs a card at the next turn. The
//! first to be rid of the hand ends the deal; the others count minus points for what they hold,
//! and the match ends when someone reaches the limit (100), the fewest minus points winning, or,
//! as an option, players at the limit drop out until one is left.
//!
//! Two packs from five players: card codes stay as they are, and the copies are counted. The
//! talon runs out: the pile less its top card is shuffled into a new talon by the service
//! (`Status::NeedsShuffle`, the new order recorded in `talon_shuffled`), the deal's number
//! unchanged, and any draws owed wait for it. The talon and the pile are a [`Piles`].

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, rank_value, sort_hand, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Status, Viewer};
use crate::pile::Piles;
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{match_winners, seats_text, Seat};

#[cfg(test)]
mod tests;

#[derive(Default)]
pub struct Vandatta;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 8;
/// Cards dealt to each player.
pub const HAND: usize = 7;
/// From this many players the game is played with two packs.
pub const TWO_PACKS_FROM: usize = 5;
/// Cards a player may draw in a turn.
pub const MAX_DRAWS: u8 = 3;
pub const MAX_LIMIT: i64 = 10_000;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const MATCH: &str = "vandatta.play.match";
    pub const SAME_RANK: &str = "vandatta.play.same-rank";
    pub const DRAW_LIMIT: &str = "vandatta.draw.three";
    pub const NOTHING_TO_DRAW: &str = "vandatta.draw.nothing-left";
    pub const PASS: &str = "vandatta.draw.pass";
    pub const EIGHT_NOT_ON: &str = "vandatta.eight.not-on-eight-or-ace";
    pub const EIGHT_SUIT: &str = "vandatta.eight.name-suit";
    pub const ONE_LEFT: &str = "vandatta.one-left.say";
    pub const LAST_CARD: &str = "vandatta.out.not-ace-or-eight";

    pub const EIGHT_POINTS: &str = "vandatta.score.eight";
    pub const ACE_POINTS: &str = "vandatta.score.ace";
    pub const TEN_POINTS: &str = "vandatta.score.court-or-ten";
    pub const NUMBER_POINTS: &str = "vandatta.score.number";
    pub const FACE_VALUE: &str = "vandatta.variant.face-value";
    pub const BLOCKED: &str = "vandatta.house.blocked";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The minus points that end the match (the text's 100).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10000))]
    pub limit: i64,
    /// Number cards cost their face value (2 to 9), not 5 each: the text's alternative.
    pub face_value: bool,
    /// Players who reach the limit drop out, and the last one left wins: the text's alternative.
    pub elimination: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { limit: 100, face_value: false, elimination: false }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal` before the first deal, `playing`, `shuffling` while
/// the service shuffles a new talon, `deal-over` once the deal is scored, `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = VandattaPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Playing,
    Shuffling,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// Why a card was drawn.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawReason {
    /// The player chose to draw on the turn.
    Turn,
    /// Another player laid an ace.
    Ace,
    /// The card turned up at the deal was an ace.
    Upcard,
    /// The player forgot to say "one left".
    Penalty,
}

/// How a deal ended and what it cost.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealResult {
    /// Who went out; null when the deal was blocked (nobody could play or draw).
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winner: Option<Seat>,
    /// By seat, the cards left in hand and counted.
    pub hands: Vec<Vec<Card>>,
    /// The minus points, card kind by card kind.
    pub terms: Vec<ScoreTerm>,
    /// The deal's points by seat.
    pub points: Vec<i64>,
    /// Seats that reached the limit and dropped out (elimination).
    pub eliminated: Vec<Seat>,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    playing: Vec<bool>,
    hands: Vec<Vec<Card>>,
    piles: Piles,
    /// The suit that counts: the top card's, or the one its eight named.
    suit: Suit,
    to_play: Seat,
    /// Cards drawn this turn.
    draws: u8,
    /// Draws the table owes, in order: they wait only for a talon to be shuffled.
    owed: Vec<(Seat, DrawReason)>,
    /// By seat, "one left" forgotten: a card to draw at the start of the next turn.
    forgot: Vec<bool>,
    /// Passes in a row with nothing left to draw: a round of them blocks the deal.
    idle: usize,
    /// The suit that counted when the player to move began drawing this turn.
    drew_on: Option<Suit>,
    /// By seat, what its hand has shown it lacks since it last drew a card unseen: the suits (by
    /// `Suit as usize`) and, last, eights. A turn begun by drawing shows it held nothing of the
    /// suit that counted, nor an eight, as far as a player who lays what goes (the bots) goes.
    lacks: Vec<[bool; 5]>,
    result: Option<DealResult>,
}

impl Deal {
    fn active(&self) -> usize {
        self.playing.iter().filter(|&&p| p).count()
    }

    fn next(&self, seat: Seat) -> Seat {
        next_playing(&self.playing, seat)
    }

    fn top(&self) -> Card {
        self.piles.top().expect("the pile always has its top card")
    }

    fn can_draw(&self) -> bool {
        self.draws < MAX_DRAWS && self.piles.can_draw()
    }

    fn start_turn(&mut self, seat: Seat) {
        if let Some(suit) = self.drew_on.take() {
            let lacks = &mut self.lacks[self.to_play];
            lacks[suit as usize] = true;
            lacks[4] = true;
        }
        self.to_play = seat;
        self.draws = 0;
        if std::mem::take(&mut self.forgot[seat]) {
            self.owed.push((seat, DrawReason::Penalty));
        }
    }
}

/// The next seat in `playing` after `seat`, clockwise.
fn next_playing(playing: &[bool], seat: Seat) -> Seat {
    let n = playing.len();
    (1..=n).map(|i| (seat + i) % n).find(|&s| playing[s]).unwrap_or(seat)
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match self.phase() {
            Phase::Playing => vec![self.to_play],
            _ => Vec::new(),
        }
    }

    fn is_live(&self) -> bool {
        self.result.is_none()
    }

    fn phase(&self) -> Phase {
        if self.result.is_some() {
            Phase::DealOver
        } else if self.piles.to_shuffle().is_some() {
            Phase::Shuffling
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
    /// By seat, dropped out of the match (elimination).
    out: Vec<bool>,
    /// Talons shuffled anew in the deals before the current one.
    reshuffles_before: u32,
}

impl State {
    fn reshuffles(&self) -> u32 {
        self.reshuffles_before + self.deals.deal.as_ref().map_or(0, |d| d.piles.turns)
    }
}

/// 52 cards, or two packs from five players.
pub fn pack(players: usize) -> Vec<Card> {
    let one = decks::standard52();
    if players >= TWO_PACKS_FROM {
        decks::double(&one)
    } else {
        one
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Lay one card, or several of one rank, on the pile: the first laid must match the top card
    /// (an eight goes on anything but an eight or an ace), the last ends on top.
    Play {
        cards: Vec<Card>,
        /// The suit an eight names; without one, the suit of the card under it counts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "openapi", schema(nullable = false))]
        suit: Option<Suit>,
        /// "Ett kvar": said with a play that leaves one card in hand.
        #[serde(default)]
        one_left: bool,
    },
    /// Draw the talon's top card (three at most in a turn).
    Draw,
    /// End the turn without playing, once three cards are drawn or none is left to draw.
    Pass,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything a deal starts from, so that it can be replayed and explained on its own.
    DealStarted {
        deal_number: u32,
        /// Talons shuffled anew within the match's earlier deals.
        reshuffles_before: u32,
        dealer: Seat,
        forehand: Seat,
        /// By seat, whether it is dealt in (elimination leaves out those who dropped out).
        playing: Vec<bool>,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's seven cards, sorted.
        hands: Vec<Vec<Card>>,
        /// The talon's top card, turned up to start the pile.
        upcard: Card,
        /// The match scores before this deal.
        scores: Vec<i64>,
        options: Options,
    },
    Played {
        seat: Seat,
        /// In the order laid: the last is the pile's top card.
        cards: Vec<Card>,
        /// The suit that counts now.
        suit: Suit,
        /// The suit an eight named, if one was named.
        #[cfg_attr(feature = "openapi", schema(required = true))]
        named: Option<Suit>,
        one_left: bool,
    },
    /// The card is shown only to the player who drew it while the deal lasts.
    Drew {
        seat: Seat,
        card: Card,
        reason: DrawReason,
    },
    Passed {
        seat: Seat,
        /// The turn passed by itself: nothing to play and nothing left to draw.
        automatic: bool,
    },
    /// The pile less its top card was shuffled into a new talon: its order is nobody's to know
    /// while the deal lasts.
    TalonShuffled {
        /// The new talon, top card first.
        talon: Vec<Card>,
    },
    /// Draws owed with nothing to draw and nothing to shuffle: they lapse.
    DrawsLapsed {
        seats: Vec<Seat>,
    },
    DealScored {
        deal_number: u32,
        result: DealResult,
        /// The match scores after this deal.
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

/// The deal's first event, from the next dealer's left among the seats still in.
fn deal_started(state: &State, deck: Vec<Card>) -> Event {
    let playing: Vec<bool> = state.out.iter().map(|o| !o).collect();
    let mut dealer = state.deals.next_dealer;
    if !playing[dealer] {
        dealer = next_playing(&playing, dealer);
    }
    let forehand = next_playing(&playing, dealer);
    let active = playing.iter().filter(|&&p| p).count();
    let mut hands = vec![Vec::new(); state.players];
    let mut seat = dealer;
    for &card in &deck[..HAND * active] {
        seat = next_playing(&playing, seat);
        hands[seat].push(card);
    }
    hands.iter_mut().for_each(|h| sort_hand(h));
    Event::DealStarted {
        deal_number: state.deals.number + 1,
        reshuffles_before: state.reshuffles(),
        dealer,
        forehand,
        playing,
        upcard: deck[HAND * active],
        deck,
        hands,
        scores: state.deals.scores.clone(),
        options: state.options.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Matching and plays

fn rank(card: Card) -> Rank {
    card.rank().expect("a standard card")
}

fn suit(card: Card) -> Suit {
    card.suit().expect("a standard card")
}

fn is(card: Card, r: Rank) -> bool {
    card.rank() == Some(r)
}

/// Whether `card` may be laid on `top` while `suit` counts: an eight on anything but an eight or
/// an ace, any other card (an ace too) on its suit or its rank.
pub fn fits(card: Card, top: Card, suit: Suit) -> bool {
    if is(card, Rank::EIGHT) {
        !is(top, Rank::EIGHT) && !is(top, Rank::ACE)
    } else {
        card.is_suit(suit) || card.rank() == top.rank()
    }
}

/// Every play from `hand` onto `top` while `suit` counts, each once: cards of one rank, the
/// first laid fitting the top, the last on top, those between in order by suit. A play that
/// would empty the hand with aces or eights is left out.
pub fn plays(hand: &[Card], top: Card, suit_now: Suit) -> Vec<Vec<Card>> {
    let mut out = Vec::new();
    let mut ranks: Vec<Rank> = hand.iter().map(|&c| rank(c)).collect();
    ranks.sort();
    ranks.dedup();
    for r in ranks {
        let counts: Vec<usize> =
            Suit::ALL.iter().map(|&s| hand.iter().filter(|&&c| c == Card::new(r, s)).count()).collect();
        let goes_out_badly = |n: usize| n == hand.len() && (r == Rank::ACE || r == Rank::EIGHT);
        // Every choice of copies per suit.
        let mut pick = [0usize; 4];
        'choices: loop {
            let total: usize = pick.iter().sum();
            if total > 0 && !goes_out_badly(total) {
                for b in (0..4).filter(|&b| pick[b] > 0 && fits(Card::new(r, Suit::ALL[b]), top, suit_now)) {
                    for t in (0..4)
                        .filter(|&t| pick[t] > 0 && (total > 1 || t == b) && (t != b || pick[b] > 1 || total == 1))
                    {
                        let mut rest = pick;
                        rest[b] -= 1;
                        let mut play = vec![Card::new(r, Suit::ALL[b])];
                        if total > 1 {
                            rest[t] -= 1;
                            for (s, &n) in rest.iter().enumerate() {
                                play.extend(std::iter::repeat_n(Card::new(r, Suit::ALL[s]), n));
                            }
                            play.push(Card::new(r, Suit::ALL[t]));
                        }
                        out.push(play);
                    }
                }
            }
            for s in 0..4 {
                if pick[s] < counts[s] {
                    pick[s] += 1;
                    continue 'choices;
                }
                pick[s] = 0;
            }
            break;
        }
    }
    out
}

/// Checks a play and gives the suit that counts after it.
fn check_play(
    deal: &Deal,
    seat: Seat,
    cards: &[Card],
    named: Option<Suit>,
    one_left: bool,
) -> Result<Suit, RuleViolation> {
    let hand = &deal.hands[seat];
    let mut left = hand.clone();
    for &c in cards {
        if !take_card(&mut left, c) {
            return Err(RuleViolation::card_not_held(c));
        }
    }
    let Some(&first) = cards.first() else {
        return Err(RuleViolation::new(
            rule::SAME_RANK,
            "Man måste lägga minst ett kort.",
            "You must lay at least one card.",
        ));
    };
    if cards.iter().any(|c| c.rank() != first.rank()) {
        return Err(RuleViolation::new(
            rule::SAME_RANK,
            "Flera kort i samma drag måste ha samma valör.",
            "Several cards laid at once must be of one rank.",
        ));
    }
    let eight = is(first, Rank::EIGHT);
    if named.is_some() && !eight {
        return Err(RuleViolation::new(
            rule::EIGHT_SUIT,
            "Bara den som lägger en åtta bestämmer färg.",
            "Only a player laying an eight names a suit.",
        ));
    }
    if left.is_empty() && (eight || is(first, Rank::ACE)) {
        return Err(RuleViolation::new(
            rule::LAST_CARD,
            format!("Du får inte gå ut på {first}: det sista kortet får varken vara ett ess eller en åtta."),
            format!("You may not go out on {first}: the last card may be neither an ace nor an eight."),
        ));
    }
    let top = deal.top();
    if eight && !fits(first, top, deal.suit) {
        return Err(RuleViolation::new(
            rule::EIGHT_NOT_ON,
            format!("En åtta får inte läggas på {top}: aldrig på en åtta eller ett ess."),
            format!("An eight may not go on {top}: never on an eight or an ace."),
        ));
    }
    if !fits(first, top, deal.suit) {
        let (sv, en) = (deal.suit.name_sv(), deal.suit.name_en());
        return Err(RuleViolation::new(
            rule::MATCH,
            format!(
                "{first} passar inte på {top}: det första kortet måste vara {sv} eller samma valör (eller en åtta)."
            ),
            format!("{first} does not go on {top}: the first card must be {en} or of the same rank (or an eight)."),
        ));
    }
    if one_left && left.len() != 1 {
        return Err(RuleViolation::new(
            rule::ONE_LEFT,
            format!("\"Ett kvar\" sägs bara när ett kort är kvar på handen, inte {}.", left.len()),
            format!("\"One left\" is said only when one card is left in hand, not {}.", left.len()),
        ));
    }
    let last = *cards.last().expect("a card");
    Ok(if eight { named.unwrap_or(suit(top)) } else { suit(last) })
}

/// Every play command `seat` may make: each play, an eight's with every suit named or none,
/// one leaving a card with "one left" said or forgotten.
fn play_commands(deal: &Deal, seat: Seat) -> Vec<Command> {
    let hand = &deal.hands[seat];
    let mut moves = Vec::new();
    for cards in plays(hand, deal.top(), deal.suit) {
        let names: Vec<Option<Suit>> = match is(cards[0], Rank::EIGHT) {
            true => std::iter::once(None).chain(Suit::ALL.map(Some)).collect(),
            false => vec![None],
        };
        let says: &[bool] = if hand.len() - cards.len() == 1 { &[false, true] } else { &[false] };
        for &suit in &names {
            for &one_left in says {
                moves.push(Command::Play { cards: cards.clone(), suit, one_left });
            }
        }
    }
    moves
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let first = match command {
        Command::Play { cards, suit: named, one_left } => {
            let suit = check_play(deal, seat, cards, *named, *one_left)?;
            Event::Played { seat, cards: cards.clone(), suit, named: *named, one_left: *one_left }
        }
        Command::Draw => {
            if deal.draws >= MAX_DRAWS {
                return Err(RuleViolation::new(
                    rule::DRAW_LIMIT,
                    "Du har redan dragit tre kort: spela eller passa.",
                    "You have drawn three cards already: play or pass.",
                ));
            }
            let Some(&card) = deal.piles.talon.first() else {
                return Err(RuleViolation::new(
                    rule::NOTHING_TO_DRAW,
                    "Talongen är tom och högen har bara sitt översta kort: spela eller passa.",
                    "The talon is empty and the pile holds only its top card: play or pass.",
                ));
            };
            Event::Drew { seat, card, reason: DrawReason::Turn }
        }
        Command::Pass => {
            if deal.can_draw() {
                return Err(RuleViolation::new(
                    rule::PASS,
                    format!("Man passar först efter tre dragna kort; du har dragit {}. Spela eller dra.", deal.draws),
                    format!("You pass only after drawing three cards; you have drawn {}. Play or draw.", deal.draws),
                ));
            }
            Event::Passed { seat, automatic: false }
        }
    };
    Ok(run(state, vec![first]))
}

/// The events given, then every automatic step that follows them (draws owed, turns that pass
/// by themselves, the score, the match's end).
fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

/// The next automatic step, if the table does not wait for a seat or a shuffle.
fn next_step(state: &State) -> Option<Event> {
    if state.deals.outcome.is_some() {
        return None;
    }
    let deal = state.deals.deal.as_ref()?;
    if deal.result.is_some() {
        return match_end(state);
    }
    if let Some(winner) = (0..state.players).find(|&s| deal.playing[s] && deal.hands[s].is_empty()) {
        return Some(score(state, deal, Some(winner)));
    }
    if deal.idle >= deal.active() {
        return Some(score(state, deal, None));
    }
    if deal.piles.to_shuffle().is_some() {
        return None;
    }
    if let Some(&(seat, reason)) = deal.owed.first() {
        return Some(match deal.piles.talon.first() {
            Some(&card) => Event::Drew { seat, card, reason },
            None => Event::DrawsLapsed { seats: deal.owed.iter().map(|o| o.0).collect() },
        });
    }
    let seat = deal.to_play;
    if !deal.can_draw() && plays(&deal.hands[seat], deal.top(), deal.suit).is_empty() {
        return Some(Event::Passed { seat, automatic: true });
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted {
            deal_number,
            reshuffles_before,
            dealer,
            forehand,
            playing,
            deck,
            hands,
            upcard,
            scores,
            options,
        } => {
            state.options = options.clone();
            state.players = hands.len();
            state.out = playing.iter().map(|p| !p).collect();
            state.reshuffles_before = *reshuffles_before;
            state.deals.next_dealer = next_playing(playing, *dealer);
            let active = playing.iter().filter(|&&p| p).count();
            let mut deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                deck: deck.clone(),
                playing: playing.clone(),
                hands: hands.clone(),
                piles: Piles::after_dealing(deck, HAND * active, true),
                suit: suit(*upcard),
                to_play: *forehand,
                draws: 0,
                owed: Vec::new(),
                forgot: vec![false; hands.len()],
                idle: 0,
                drew_on: None,
                lacks: vec![[false; 5]; hands.len()],
                result: None,
            };
            if is(*upcard, Rank::ACE) {
                let mut s = *forehand;
                for _ in 0..active {
                    deal.owed.push((s, DrawReason::Upcard));
                    s = deal.next(s);
                }
            }
            state.deals.started(*deal_number, scores, deal);
        }
        Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
        _ => {
            let Some(deal) = state.deals.deal.as_mut() else { return };
            match event {
                Event::Played { seat, cards, suit, one_left, .. } => {
                    for &c in cards {
                        take_card(&mut deal.hands[*seat], c);
                    }
                    deal.piles.lay(cards);
                    deal.suit = *suit;
                    deal.idle = 0;
                    let left = deal.hands[*seat].len();
                    if left == 0 {
                        return;
                    }
                    deal.forgot[*seat] = left == 1 && !one_left;
                    if is(cards[0], Rank::ACE) {
                        for _ in cards {
                            let mut s = deal.next(*seat);
                            while s != *seat {
                                deal.owed.push((s, DrawReason::Ace));
                                s = deal.next(s);
                            }
                        }
                        deal.start_turn(*seat);
                    } else {
                        deal.start_turn(deal.next(*seat));
                    }
                }
                Event::Drew { seat, card, reason } => {
                    deal.piles.draw();
                    deal.hands[*seat].push(*card);
                    sort_hand(&mut deal.hands[*seat]);
                    deal.idle = 0;
                    deal.lacks[*seat] = [false; 5];
                    if *reason == DrawReason::Turn && deal.draws == 0 {
                        deal.drew_on = Some(deal.suit);
                    }
                    match reason {
                        DrawReason::Turn => deal.draws += 1,
                        _ => {
                            deal.owed.remove(0);
                        }
                    }
                }
                Event::Passed { seat, .. } => {
                    deal.idle = if deal.piles.can_draw() { 0 } else { deal.idle + 1 };
                    deal.start_turn(deal.next(*seat));
                }
                Event::TalonShuffled { talon } => {
                    // An order `reshuffle` took is one of the cards asked for.
                    let _ = deal.piles.turn(talon);
                }
                Event::DrawsLapsed { .. } => deal.owed.clear(),
                Event::DealScored { result, scores, .. } => {
                    deal.result = Some(result.clone());
                    let dealer = deal.dealer;
                    result.eliminated.iter().for_each(|&s| state.out[s] = true);
                    state.deals.scored(&result.terms, scores);
                    let still_in: Vec<bool> = state.out.iter().map(|o| !o).collect();
                    if still_in.iter().any(|&p| p) {
                        state.deals.next_dealer = next_playing(&still_in, dealer);
                    }
                }
                Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// What a card left in hand costs, and the rule that says so.
pub fn card_cost(card: Card, face_value: bool) -> (i64, &'static str) {
    match rank(card) {
        Rank::EIGHT => (-25, rule::EIGHT_POINTS),
        Rank::ACE => (-15, rule::ACE_POINTS),
        r if r.is_court() || r == Rank::TEN => (-10, rule::TEN_POINTS),
        _ if face_value => (-i64::from(rank_value(card)), rule::FACE_VALUE),
        _ => (-5, rule::NUMBER_POINTS),
    }
}

/// The deal's score: every other hand pays for its cards, kind by kind (all of them when the
/// deal was blocked).
fn score(state: &State, deal: &Deal, winner: Option<Seat>) -> Event {
    let mut terms = Vec::new();
    for s in (0..state.players).filter(|&s| deal.playing[s] && Some(s) != winner) {
        let mut kinds: Vec<(&str, i64, Vec<Card>)> = Vec::new();
        for &c in &deal.hands[s] {
            let (points, id) = card_cost(c, state.options.face_value);
            match kinds.iter_mut().find(|k| k.0 == id) {
                Some(k) => {
                    k.1 += points;
                    k.2.push(c);
                }
                None => kinds.push((id, points, vec![c])),
            }
        }
        for (id, points, cards) in kinds {
            let list = crate::cards::codes(&cards);
            terms.push(ScoreTerm::new(
                s,
                points,
                id,
                format!("Plats {s} har {list} kvar på handen: {points}."),
                format!("Seat {s} is left holding {list}: {points}."),
            ));
        }
    }
    if winner.is_none() {
        terms.push(ScoreTerm::new(
            deal.to_play,
            0,
            rule::BLOCKED,
            "Ingen kunde spela eller dra ett varv runt: given är låst, och alla räknar sina kort.".into(),
            "Nobody could play or draw for a whole round: the deal is blocked, and everyone counts their cards.".into(),
        ));
    }
    let mut points = vec![0; state.players];
    terms.iter().for_each(|t| points[t.to] += t.points);
    let scores: Vec<i64> = (0..state.players).map(|s| state.deals.scores[s] + points[s]).collect();
    let eliminated = match state.options.elimination {
        true => (0..state.players).filter(|&s| deal.playing[s] && scores[s] <= -state.options.limit).collect(),
        false => Vec::new(),
    };
    let result = DealResult { winner, hands: deal.hands.clone(), terms, points, eliminated };
    Event::DealScored { deal_number: deal.number, result, scores }
}

/// The match's end after a deal: someone at the limit (the fewest minus points win), or with
/// elimination one player left (or none: the best of the last deal's players share the win).
fn match_end(state: &State) -> Option<Event> {
    let scores = &state.deals.scores;
    let limit = state.options.limit;
    let deal = state.deals.deal.as_ref()?;
    let (winners, explanation) = if state.options.elimination {
        let left: Vec<Seat> = (0..state.players).filter(|&s| !state.out[s]).collect();
        match left[..] {
            [last] => (
                left.clone(),
                Text::new(
                    format!("Alla andra har nått -{limit}; plats {last} är ensam kvar och vinner."),
                    format!("Everyone else has reached -{limit}; seat {last} is the last one left and wins."),
                ),
            ),
            [] => {
                let best = (0..state.players).filter(|&s| deal.playing[s]).map(|s| scores[s]).max()?;
                let winners: Vec<Seat> = (0..state.players).filter(|&s| deal.playing[s] && scores[s] == best).collect();
                let who = seats_text(&winners);
                let text = Text::new(
                    format!("Alla som var kvar nådde -{limit} i samma giv; plats {who} hade minst minuspoäng, {best}."),
                    format!("Everyone still in reached -{limit} in the same deal; seat {who} had the fewest minus points, {best}."),
                );
                (winners, text)
            }
            _ => return None,
        }
    } else {
        let down = (0..state.players).find(|&s| scores[s] <= -limit)?;
        let winners = match_winners(scores);
        let (who, best) = (seats_text(&winners), scores[winners[0]]);
        let text = Text::new(
            format!("Plats {down} har nått -{limit}; plats {who} har minst minuspoäng, {best}, och vinner."),
            format!("Seat {down} has reached -{limit}; seat {who} has the fewest minus points, {best}, and wins."),
        );
        (winners, text)
    };
    Some(Event::MatchEnded { winners, scores: scores.clone(), explanation })
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, the pile's top card and the suit that counts,
/// the talon's size, every hand's size, the viewer's own hand. A deal's record shows every hand,
/// the whole pile and the talon at every step, and the deck once the deal is over.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// Where the match is.
    pub phase: Phase,
    /// The match: deal number, dealer, scores (minus points), who is to act.
    #[serde(flatten)]
    pub deals: MatchView,
    /// The options the match is played with.
    pub options: Options,
    /// By seat, dropped out of the match (elimination).
    pub out: Vec<bool>,
    /// The deal's forehand: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seat whose turn it is: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// Cards each seat holds: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// Cards left in the talon: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub talon_count: Option<usize>,
    /// Cards in the pile: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile_size: Option<usize>,
    /// The pile's face-up top card: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile_top: Option<Card>,
    /// The suit that counts (an eight's named suit): absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub suit: Option<Suit>,
    /// Cards the player to move has drawn this turn: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub draws: Option<u8>,
    /// By seat, "one left" forgotten: a card to draw first at the next turn. Absent before the
    /// first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forgot_one_left: Option<Vec<bool>>,
    /// Talons shuffled anew this deal: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub reshuffles: Option<u32>,
    /// How the deal ended: null until it is over, absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Option<DealResult>>,
    /// The pack as it was dealt, top card first: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// Every hand: only in a deal's record, at every step of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// The pile, bottom card first (the last is `pile_top`): only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile: Option<Vec<Card>>,
    /// The talon, top card first: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub talon: Option<Vec<Card>>,
    /// The viewer's own hand: only in a seat's view, from the first deal on.
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
        out: state.out.clone(),
        forehand: deal.map(|d| d.next(d.dealer)),
        to_play: deal.map(|d| d.to_play),
        hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
        talon_count: deal.map(|d| d.piles.talon.len()),
        pile_size: deal.map(|d| d.piles.pile.len()),
        pile_top: deal.map(Deal::top),
        suit: deal.map(|d| d.suit),
        draws: deal.map(|d| d.draws),
        forgot_one_left: deal.map(|d| d.forgot.clone()),
        reshuffles: deal.map(|d| d.piles.turns),
        result: deal.map(|d| d.result.clone()),
        deck: record.filter(|d| d.result.is_some()).map(|d| d.deck.clone()),
        hands: record.map(|d| d.hands.clone()),
        pile: record.map(|d| d.piles.pile.clone()),
        talon: record.map(|d| d.piles.talon.clone()),
        hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// The suit `hand` holds most of, eights aside (the first of equals, clubs first).
fn longest_suit(hand: &[Card]) -> Suit {
    let count = |s: Suit| hand.iter().filter(|&&c| c.is_suit(s) && !is(c, Rank::EIGHT)).count();
    Suit::ALL.into_iter().fold(Suit::Clubs, |best, s| if count(s) > count(best) { s } else { best })
}

/// The rule-of-thumb move: go out if possible; else lay aces (the others draw and the turn comes
/// back), then the play that sheds the most cards and the most minus points, eights last (they
/// go on anything), naming the suit held most; draw when nothing goes; always say "one left".
fn basic_choice(deal: &Deal, seat: Seat) -> Command {
    let hand = &deal.hands[seat];
    let worth = |play: &Vec<Card>| {
        let out = play.len() == hand.len();
        let ace = is(play[0], Rank::ACE);
        let eight = is(play[0], Rank::EIGHT);
        let cost: i64 = play.iter().map(|&c| -card_cost(c, false).0).sum();
        let mut rest = hand.clone();
        play.iter().for_each(|&c| {
            take_card(&mut rest, c);
        });
        let keep = rest.iter().filter(|c| c.suit() == play.last().and_then(|l| l.suit())).count();
        (out, ace, !eight, play.len(), cost, keep)
    };
    let best = plays(hand, deal.top(), deal.suit).into_iter().max_by_key(worth);
    match best {
        Some(cards) => {
            let mut rest = hand.clone();
            cards.iter().for_each(|&c| {
                take_card(&mut rest, c);
            });
            let suit = is(cards[0], Rank::EIGHT).then(|| longest_suit(&rest));
            Command::Play { one_left: rest.len() == 1, cards, suit }
        }
        None if deal.can_draw() => Command::Draw,
        None => Command::Pass,
    }
}

/// The deal as `seat` knows it on its turn: its own hand and the pile; the other hands and the
/// talon dealt afresh, at their sizes, from the cards it cannot see, no hand given what it has
/// shown it lacks.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    if deal.to_play != seat {
        return None;
    }
    let mut pool = pack(state.players);
    for c in deal.hands[seat].iter().chain(&deal.piles.pile) {
        take_card(&mut pool, *c);
    }
    let others: Vec<Seat> = (0..state.players).filter(|&s| s != seat && deal.playing[s]).collect();
    let mut sizes: Vec<usize> = others.iter().map(|&s| deal.hands[s].len()).collect();
    sizes.push(deal.piles.talon.len());
    let lacks = |p: usize, c: Card| {
        others.get(p).is_some_and(|&s| deal.lacks[s][suit(c) as usize] || (is(c, Rank::EIGHT) && deal.lacks[s][4]))
    };
    let mut dealt = bots::redeal_where(&pool, &sizes, |p, c| !lacks(p, c), rng).into_iter();
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    for &s in &others {
        w.hands[s] = dealt.next()?;
        sort_hand(&mut w.hands[s]);
    }
    w.piles.talon = dealt.next()?;
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Vandatta {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "vandatta";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("../rulebooks/vandatta.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options { face_value: true, limit: 60, ..Options::default() },
            Options { elimination: true, limit: 50, ..Options::default() },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_LIMIT).contains(&options.limit) {
            return Err(SetupError(format!("limit must be 1 to {MAX_LIMIT}, not {}", options.limit)));
        }
        Ok(State { options, players, deals: Deals::new(players), out: vec![false; players], reshuffles_before: 0 })
    }

    fn status(&self, state: &State) -> Status {
        match state.deals.live().and_then(|d| d.piles.to_shuffle()) {
            Some(cards) => Status::NeedsShuffle { cards },
            None => state.deals.status(|| pack(state.players)),
        }
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals.number
    }

    fn shuffles(&self, state: &State) -> u32 {
        state.deals.number + state.reshuffles()
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(run(state, vec![deal_started(state, deck)]))
    }

    fn reshuffle(&self, state: &State, order: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        if state.deals.live().and_then(|d| d.piles.to_shuffle()).is_none() {
            return Err(RuleViolation::wrong_phase("ingen ny talong behövs", "no new talon is due"));
        }
        Ok(run(state, vec![Event::TalonShuffled { talon: order }]))
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        let mut moves = play_commands(deal, seat);
        moves.push(if deal.can_draw() { Command::Draw } else { Command::Pass });
        moves
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut moves =
            vec![Command::Draw, Command::Pass, Command::Play { cards: Vec::new(), suit: None, one_left: false }];
        let Some(deal) = state.deals.live() else { return moves };
        moves.extend(self.legal_moves(state, seat));
        let hand = &deal.hands[seat];
        for &c in hand {
            moves.push(Command::Play { cards: vec![c], suit: None, one_left: false });
            moves.push(Command::Play { cards: vec![c], suit: Some(Suit::Hearts), one_left: false });
            moves.push(Command::Play { cards: vec![c], suit: None, one_left: true });
        }
        if let [a, b, ..] = hand[..] {
            moves.push(Command::Play { cards: vec![a, b], suit: None, one_left: false });
        }
        if let Some(&missing) = pack(state.players).iter().find(|c| !hand.contains(c)) {
            moves.push(Command::Play { cards: vec![missing], suit: None, one_left: false });
        }
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        let live = state.deals.deal.as_ref().is_some_and(|d| d.result.is_none());
        if deal_over || viewer == Viewer::Record || !live {
            return full;
        }
        match event {
            Event::DealStarted { deal_number, hands, .. } if state.deals.number == *deal_number => {
                deals::hide_hands(&mut full, hands, viewer);
            }
            Event::Drew { seat, .. } if viewer != Viewer::Seat(*seat) => full["card"] = Value::Null,
            Event::TalonShuffled { talon } => {
                full["talon"] = Value::Null;
                full["talon_count"] = talon.len().into();
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let mut secrets: Vec<(Card, Vec<Seat>)> =
            deal.hands.iter().enumerate().flat_map(|(s, h)| h.iter().map(move |&c| (c, vec![s]))).collect();
        secrets.extend(deal.piles.talon_secrets());
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        if let Some(outcome) = &state.deals.outcome {
            let scores = &state.deals.scores;
            let at_limit = scores.iter().any(|&p| p <= -state.options.limit);
            crate::ensure!(at_limit, "the match ended with scores {scores:?} above -{}", state.options.limit);
            if !state.options.elimination {
                crate::ensure!(
                    outcome.winners == match_winners(scores),
                    "winners {:?} with {scores:?}",
                    outcome.winners
                );
            }
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = pack(state.players);
        deals::check_deck(&deal.deck, &pack)?;
        deal.piles.check(&deal.hands.concat(), &pack)?;
        crate::ensure!(!deal.piles.pile.is_empty(), "the pile has no top card");
        for s in (0..state.players).filter(|&s| !deal.playing[s]) {
            crate::ensure!(deal.hands[s].is_empty(), "seat {s} is out but holds cards");
        }
        crate::ensure!(deal.owed.iter().all(|&(s, _)| deal.playing[s]), "draws owed by seats out: {:?}", deal.owed);
        crate::ensure!(deal.draws <= MAX_DRAWS, "{} draws in a turn", deal.draws);
        crate::ensure!(state.deals.scores.iter().all(|&p| p <= 0), "a score above 0: {:?}", state.deals.scores);
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// The plays worth weighing, each once: an eight's named suit only (none names the suit under
    /// it, which a named one does as well), "one left" always said, one order per set of cards
    /// and top card; eights only when nothing else goes, and no draw while a card goes. A deal's
    /// end swings by tens of points on the talon's order, so a search over every move drowns the
    /// few points between them (strong lost to basic every match over 20 when it could draw or
    /// lay an eight at will).
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        let moves = self.legal_moves(state, seat);
        let plain = |m: &Command| matches!(m, Command::Play { cards, .. } if !is(cards[0], Rank::EIGHT));
        let any_plain = moves.iter().any(plain);
        let mut seen = Vec::new();
        let mut kept: Vec<Command> = moves
            .into_iter()
            .filter(|m| match m {
                Command::Play { cards, suit, one_left } => {
                    let mut set = cards.clone();
                    set.sort();
                    let key = (set, cards.last().copied(), *suit);
                    let leaves_one = deal.hands[seat].len() == cards.len() + 1;
                    let wanted = *one_left == leaves_one && (plain(m) || (!any_plain && suit.is_some()));
                    let fresh = wanted && !seen.contains(&key);
                    if fresh {
                        seen.push(key);
                    }
                    fresh
                }
                _ => true,
            })
            .collect();
        if kept.iter().any(|m| matches!(m, Command::Play { .. })) {
            kept.retain(|m| matches!(m, Command::Play { .. }));
        }
        kept
    }

    /// The basic move, unless the search finds better beyond doubt.
    fn strong_anchor(&self, state: &State, seat: Seat) -> Option<Command> {
        Some(basic_choice(state.deals.acting(seat)?, seat))
    }

    fn strong_budget(&self) -> bots::Budget {
        bots::Budget { playouts: 480, min_samples: 8, max_samples: 48 }
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        Some(basic_choice(state.deals.acting(seat)?, seat))
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// The match score (minus points) less the others' mean.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bots::lead_over_mean(state.players, |s| state.deals.scores[s] as f64, seat)
    }
}
