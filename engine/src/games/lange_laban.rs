//! Långe Laban: three or four players shed their cards in tricks where every card must beat the
//! highest card of the suit led so far, and each player has a trump suit of his own. The holder
//! of the jack of clubs has clubs, the next players in turn spades, hearts and (with four)
//! diamonds. A player who cannot beat in the suit led, nor (void in it) play one of his own
//! trumps, picks up the cards played to the trick and leads the next; a trick every player still
//! in has played to is set aside, and the last to play leads. Whoever is left holding cards last
//! is Långe Laban and has lost.
//!
//! Suits are followed but nobody wins a trick, so [`crate::trick::TrickPlay`] does not fit: the
//! module keeps the hands and the trick itself. Picked-up cards were seen by everyone and stay
//! public in the hand, and so does the jack of clubs, whose holder the trumps announce: both
//! through [`Knowledge`]. The pick-up is never a choice, so it is an automatic event.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, sort_hand, sorted, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::knowledge::Knowledge;
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{seats_text, Seat, Table as Seating};
use crate::trick::{CurrentTrick, Play};

#[derive(Default)]
pub struct LangeLaban;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 4;
/// The trump suits in the order they are handed out, from the holder of the jack of clubs on.
pub const TRUMP_ORDER: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];
/// The card whose holder gets the first trump suit.
pub const JACK_OF_CLUBS: Card = Card::new(Rank::JACK, Suit::Clubs);
pub const MAX_PICK_UP_LIMIT: u32 = 10_000;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PLAYERS: &str = "lange-laban.pack.players";
    pub const PACK: &str = "lange-laban.pack.cards";
    pub const DEAL: &str = "lange-laban.deal.singly";
    pub const TRUMPS: &str = "lange-laban.trumps.jack-of-clubs";
    pub const LEAD: &str = "lange-laban.play.lead";
    pub const HIGHER: &str = "lange-laban.play.higher";
    pub const OWN_TRUMP: &str = "lange-laban.play.own-trump";
    pub const PICK_UP: &str = "lange-laban.play.pick-up";
    pub const SET_ASIDE: &str = "lange-laban.play.set-aside";
    pub const OUT: &str = "lange-laban.end.out";
    pub const LOSER: &str = "lange-laban.end.loser";

    pub const FIRST_DEALER: &str = "lange-laban.house.first-dealer";
    pub const TRUMP_IS_THE_PLAY: &str = "lange-laban.house.trump-is-the-play";
    pub const ANNOUNCED: &str = "lange-laban.house.trumps-announced";
    pub const TRUMP_STAYS: &str = "lange-laban.house.trump-stays";
    pub const NEXT_LEADER: &str = "lange-laban.house.next-leader";
    pub const ONE_DEAL: &str = "lange-laban.house.one-deal";
    pub const PICK_UP_LIMIT: &str = "lange-laban.house.pick-up-limit";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The house's cap: pick-ups in a row (no trick set aside and nobody out in between) after
    /// which the deal ends, the player holding the most cards losing.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10000))]
    pub pick_up_limit: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { pick_up_limit: 100 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal`, `playing`, `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = LangeLabanPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Playing,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// How the deal ended: one player left holding cards (the text), or the house's cap on
/// pick-ups in a row.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = LangeLabanEnding))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    LastHolding,
    PickUpLimit,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    forehand: Seat,
    deck: Vec<Card>,
    hands: Vec<Vec<Card>>,
    /// By seat, the player's own trump suit.
    trumps: Vec<Suit>,
    /// The hand cards everyone knows: the jack of clubs, picked-up tricks.
    knowledge: Knowledge,
    /// The trick on the table, in the order played, and who leads (or led) it.
    trick: Vec<Play>,
    leader: Seat,
    /// Tricks begun so far, the one on the table included.
    trick_number: usize,
    to_play: Seat,
    /// The cards of the tricks set aside.
    aside: Vec<Card>,
    /// Seats out of cards, in the order they went out.
    out: Vec<Seat>,
    /// Pick-ups since a trick was last set aside or a player last went out.
    pick_ups_in_row: u32,
    ending: Option<Ending>,
    /// Långe Laban, once the deal is scored (at the cap, possibly several).
    losers: Vec<Seat>,
}

impl Deal {
    fn players(&self) -> usize {
        self.hands.len()
    }

    fn holding(&self) -> Vec<Seat> {
        (0..self.players()).filter(|&s| !self.hands[s].is_empty()).collect()
    }

    /// The next seat after `seat` clockwise still holding cards.
    fn next_holding(&self, seat: Seat) -> Seat {
        let n = self.players();
        (1..=n).map(|i| (seat + i) % n).find(|&s| !self.hands[s].is_empty()).unwrap_or(seat)
    }

    /// Every player still holding cards has played to the trick on the table.
    fn trick_complete(&self) -> bool {
        !self.trick.is_empty() && self.holding().iter().all(|s| self.trick.iter().any(|p| p.seat == *s))
    }

    fn playable(&self, seat: Seat) -> Vec<Card> {
        playable(&self.hands[seat], &self.trick, self.trumps[seat])
    }

    /// The seats in the order they finished: those out first, then the losers.
    fn places(&self) -> Vec<Seat> {
        let mut places = self.out.clone();
        let mut rest = self.holding();
        rest.sort_by_key(|&s| (self.hands[s].len(), (s + self.players() - self.forehand) % self.players()));
        places.extend(rest);
        places
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match self.ending {
            None => vec![self.to_play],
            Some(_) => Vec::new(),
        }
    }

    fn is_live(&self) -> bool {
        self.ending.is_none()
    }

    fn phase(&self) -> Phase {
        match self.ending {
            None => Phase::Playing,
            Some(_) => Phase::Finished,
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    players: usize,
    deals: Deals<Deal>,
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Play a card to the trick: any card to lead; else a higher card of the suit led, or, void
    /// in it, a card of one's own trump suit.
    Play { card: Card },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything the deal starts from, the trumps announced with it.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// By seat, the hand, sorted.
        hands: Vec<Vec<Card>>,
        /// By seat, the player's own trump suit (clubs for the holder of the jack of clubs).
        trumps: Vec<Suit>,
        options: Options,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
        trick_number: usize,
        /// Played as the player's own trump, void in the suit led.
        as_trump: bool,
    },
    /// The player to play could neither beat nor trump and took the trick's cards into the hand,
    /// face up; he leads the next trick.
    TrickPickedUp {
        seat: Seat,
        trick_number: usize,
        cards: Vec<Card>,
    },
    /// Everyone still in played to the trick: it is set aside, and `leader` leads the next.
    TrickSetAside {
        trick_number: usize,
        plays: Vec<Play>,
        leader: Seat,
    },
    /// The player has no cards left and drops out.
    WentOut {
        seat: Seat,
        place: usize,
    },
    DealScored {
        deal_number: u32,
        ending: Ending,
        /// Långe Laban: the last holding cards (at the cap, those holding the most).
        losers: Vec<Seat>,
        /// Every seat in the order it finished, the losers last.
        places: Vec<Seat>,
        /// By seat, the cards left in hand.
        cards_left: Vec<usize>,
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
// Setup and deal

/// The trump suits by seat: clubs to the holder of the jack of clubs, then in turn clockwise
/// spades, hearts and, with four, diamonds.
pub fn trumps(table: &Seating, hands: &[Vec<Card>]) -> Vec<Suit> {
    let holder = hands.iter().position(|h| h.contains(&JACK_OF_CLUBS)).unwrap_or(0);
    let mut trumps = vec![Suit::Clubs; table.seats];
    for (i, s) in table.order_from(holder).into_iter().enumerate() {
        trumps[s] = TRUMP_ORDER[i];
    }
    trumps
}

fn deal_started(state: &State, deck: Vec<Card>) -> Event {
    let table = Seating::new(state.players);
    let dealer = state.deals.next_dealer;
    let hands: Vec<Vec<Card>> = deals::deal_singly(&table, dealer, &deck).into_iter().map(sorted).collect();
    Event::DealStarted {
        deal_number: state.deals.number + 1,
        dealer,
        forehand: table.forehand(dealer),
        trumps: trumps(&table, &hands),
        hands,
        deck,
        options: state.options.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// The trick

fn rank(card: Card) -> u8 {
    crate::cards::rank_value(card)
}

/// The suit led to `trick` and the highest card of it played so far: trumps played by players
/// void in that suit are of other suits and do not count.
pub fn to_beat(trick: &[Play]) -> Option<(Suit, Card)> {
    let led = trick.first()?.card.suit()?;
    let top = trick.iter().map(|p| p.card).filter(|c| c.is_suit(led)).max_by_key(|&c| rank(c))?;
    Some((led, top))
}

/// The cards `hand` may play to `trick` with `trump` its own suit: anything to lead; else the
/// higher cards of the suit led; void in it, the cards of the own trump suit; none (a pick-up)
/// when only lower cards of the suit led are held, or neither that suit nor a trump.
pub fn playable(hand: &[Card], trick: &[Play], trump: Suit) -> Vec<Card> {
    let Some((led, top)) = to_beat(trick) else { return sorted(hand.to_vec()) };
    if hand.iter().any(|c| c.is_suit(led)) {
        return hand.iter().copied().filter(|&c| c.is_suit(led) && rank(c) > rank(top)).collect();
    }
    hand.iter().copied().filter(|c| c.is_suit(trump)).collect()
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_play(state: &State, deal: &Deal, seat: Seat, card: Card) -> Result<Vec<Event>, RuleViolation> {
    if !deal.hands[seat].contains(&card) {
        return Err(RuleViolation::card_not_held(card));
    }
    let legal = deal.playable(seat);
    if !legal.contains(&card) {
        let (led, top) = to_beat(&deal.trick).expect("any card may lead");
        let trump = deal.trumps[seat];
        let holds_led = deal.hands[seat].iter().any(|c| c.is_suit(led));
        return Err(if holds_led {
            RuleViolation::new(
                rule::HIGHER,
                format!("Du har {} och måste lägga ett högre kort i den färgen än {top}.", led.name_sv()),
                format!("You hold {} and must play a card of that suit higher than {top}.", led.name_en()),
            )
        } else {
            RuleViolation::new(
                rule::OWN_TRUMP,
                format!("Du saknar {} och får bara lägga din egen trumf, {}.", led.name_sv(), trump.name_sv()),
                format!(
                    "You are void in {} and may only play your own trump suit, {}.",
                    led.name_en(),
                    trump.name_en()
                ),
            )
        });
    }
    let as_trump = to_beat(&deal.trick).is_some_and(|(led, _)| !card.is_suit(led));
    let played = Event::CardPlayed { seat, card, trick_number: deal.trick_number, as_trump };
    Ok(run(state, vec![played]))
}

/// The events given, then every automatic step that follows them.
fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

/// The next automatic step after a play: a player out of cards drops out; with one player (or
/// none) left holding cards, or the house's cap on pick-ups reached, the deal is scored and the
/// match ends; a trick everyone still in has played to is set aside; a player who cannot play
/// picks the trick up.
fn next_step(state: &State) -> Option<Event> {
    let deal = state.deals.deal.as_ref().filter(|_| state.deals.outcome.is_none())?;
    if deal.ending.is_some() {
        return Some(match_end(state, deal));
    }
    if let Some(seat) = (0..deal.players()).find(|&s| deal.hands[s].is_empty() && !deal.out.contains(&s)) {
        return Some(Event::WentOut { seat, place: deal.out.len() + 1 });
    }
    if deal.holding().len() <= 1 {
        return Some(score(state, deal, Ending::LastHolding));
    }
    if deal.pick_ups_in_row >= state.options.pick_up_limit {
        return Some(score(state, deal, Ending::PickUpLimit));
    }
    if deal.trick_complete() {
        let last = deal.trick.last().expect("a complete trick has cards").seat;
        let leader = if deal.hands[last].is_empty() { deal.next_holding(last) } else { last };
        return Some(Event::TrickSetAside { trick_number: deal.trick_number, plays: deal.trick.clone(), leader });
    }
    let seat = deal.to_play;
    (!deal.trick.is_empty() && deal.playable(seat).is_empty()).then(|| Event::TrickPickedUp {
        seat,
        trick_number: deal.trick_number,
        cards: deal.trick.iter().map(|p| p.card).collect(),
    })
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted { deal_number, dealer, forehand, deck, hands, trumps, options } => {
            state.options = options.clone();
            state.players = hands.len();
            state.deals.next_dealer = (dealer + 1) % hands.len();
            let mut knowledge = Knowledge::of_hands(hands.len());
            // The trumps announce who holds the jack of clubs: it is public while held.
            if let Some(holder) = hands.iter().position(|h| h.contains(&JACK_OF_CLUBS)) {
                knowledge.shown_to_all(holder, &[JACK_OF_CLUBS]);
            }
            let deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                forehand: *forehand,
                deck: deck.clone(),
                hands: hands.clone(),
                trumps: trumps.clone(),
                knowledge,
                trick: Vec::new(),
                leader: *forehand,
                trick_number: 1,
                to_play: *forehand,
                aside: Vec::new(),
                out: Vec::new(),
                pick_ups_in_row: 0,
                ending: None,
                losers: Vec::new(),
            };
            let scores = state.deals.scores.clone();
            state.deals.started(*deal_number, &scores, deal);
        }
        Event::DealScored { ending, losers, terms, scores, .. } => {
            state.deals.scored(terms, scores);
            if let Some(deal) = state.deals.deal.as_mut() {
                deal.ending = Some(*ending);
                deal.losers = losers.clone();
            }
        }
        Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
        _ => {
            let Some(deal) = state.deals.deal.as_mut() else { return };
            match event {
                Event::CardPlayed { seat, card, .. } => {
                    take_card(&mut deal.hands[*seat], *card);
                    deal.knowledge.left(*seat, *card);
                    deal.trick.push(Play { seat: *seat, card: *card });
                    deal.to_play = deal.next_holding(*seat);
                }
                Event::TrickPickedUp { seat, cards, .. } => {
                    deal.hands[*seat].extend_from_slice(cards);
                    sort_hand(&mut deal.hands[*seat]);
                    deal.knowledge.shown_to_all(*seat, cards);
                    deal.trick.clear();
                    deal.trick_number += 1;
                    deal.to_play = *seat;
                    deal.leader = *seat;
                    deal.pick_ups_in_row += 1;
                }
                Event::TrickSetAside { plays, leader, .. } => {
                    deal.aside.extend(plays.iter().map(|p| p.card));
                    deal.trick.clear();
                    deal.trick_number += 1;
                    deal.to_play = *leader;
                    deal.leader = *leader;
                    deal.pick_ups_in_row = 0;
                }
                Event::WentOut { seat, .. } => {
                    deal.out.push(*seat);
                    deal.pick_ups_in_row = 0;
                }
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// The deal's loser takes a minus point: the last holding cards, or at the house's cap every
/// player holding the most. A match is this one deal.
fn score(state: &State, deal: &Deal, ending: Ending) -> Event {
    let cards_left: Vec<usize> = deal.hands.iter().map(Vec::len).collect();
    let most = cards_left.iter().copied().max().unwrap_or(0);
    let losers: Vec<Seat> = deal.holding().into_iter().filter(|&s| cards_left[s] == most).collect();
    let terms: Vec<ScoreTerm> = losers
        .iter()
        .map(|&s| match ending {
            Ending::LastHolding => ScoreTerm::new(
                s,
                -1,
                rule::LOSER,
                format!("Plats {s} har kort kvar sist och blir Långe Laban: en minuspoäng."),
                format!("Seat {s} is the last holding cards and is Långe Laban: one minus point."),
            ),
            Ending::PickUpLimit => ScoreTerm::new(
                s,
                -1,
                rule::PICK_UP_LIMIT,
                format!("Plats {s} har flest kort, {most}, när taket för upplockningar i rad nås: en minuspoäng."),
                format!("Seat {s} holds the most cards, {most}, when the cap on pick-ups in a row is reached: one minus point."),
            ),
        })
        .collect();
    let mut scores = state.deals.scores.clone();
    terms.iter().for_each(|t| scores[t.to] += t.points);
    Event::DealScored { deal_number: deal.number, ending, losers, places: deal.places(), cards_left, terms, scores }
}

fn match_end(state: &State, deal: &Deal) -> Event {
    let winners: Vec<Seat> = deal.places().into_iter().filter(|s| !deal.losers.contains(s)).collect();
    let who = seats_text(&deal.losers);
    let explanation = match deal.ending {
        Some(Ending::PickUpLimit) => Text::new(
            format!("Taket för upplockningar i rad nåddes; plats {who} hade flest kort och förlorade."),
            format!("The cap on pick-ups in a row was reached; seat {who} held the most cards and lost."),
        ),
        _ => Text::new(
            format!("Plats {who} hade kort kvar sist och blev Långe Laban; de andra vann."),
            format!("Seat {who} was the last holding cards and became Långe Laban; the others won."),
        ),
    };
    Event::MatchEnded { winners, scores: state.deals.scores.clone(), explanation }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, each seat's trump suit, the trick on the table,
/// the cards set aside, the hands' sizes and their public cards, who is out and in which order,
/// and the viewer's own hand. A deal's record shows every hand at every step.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = LangeLabanTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number, dealer, scores (a minus point for the loser), who is to act, the
    /// outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    /// The deal's forehand, who led the first trick: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seat to play: absent before the first deal and once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// By seat, the player's own trump suit.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trumps: Option<Vec<Suit>>,
    /// The number of the trick on the table (tricks picked up count).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trick_number: Option<usize>,
    /// The trick on the table: its leader and the cards played to it so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trick: Option<CurrentTrick>,
    /// The cards of the tricks set aside, in the order played.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub set_aside: Option<Vec<Card>>,
    /// Cards each seat holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// By seat, the hand cards everyone knows (picked-up tricks, the jack of clubs): public
    /// while held.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub public_cards: Option<Vec<Vec<Card>>>,
    /// Seats out of cards, in the order they went out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub out: Option<Vec<Seat>>,
    /// Pick-ups in a row so far (the house's cap ends the deal at the option's limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pick_ups_in_row: Option<u32>,
    /// How the deal ended: absent while it is played.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub ending: Option<Ending>,
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
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        forehand: deal.map(|d| d.forehand),
        to_play: deal.filter(|d| d.ending.is_none()).map(|d| d.to_play),
        trumps: deal.map(|d| d.trumps.clone()),
        trick_number: deal.map(|d| d.trick_number),
        trick: deal.map(|d| CurrentTrick {
            leader: d.leader,
            plays: d.trick.clone(),
            led_suit: d.trick.first().and_then(|p| p.card.suit()),
        }),
        set_aside: deal.map(|d| d.aside.clone()),
        hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
        public_cards: deal.map(|d| d.knowledge.public_hands(me)),
        out: deal.map(|d| d.out.clone()),
        pick_ups_in_row: deal.map(|d| d.pick_ups_in_row),
        ending: deal.and_then(|d| d.ending),
        deck: record.filter(|d| d.ending.is_some()).map(|d| d.deck.clone()),
        hands: record.map(|d| d.hands.clone()),
        hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// The rule-of-thumb move: to follow, beat as cheaply as possible, else the lowest own trump; to
/// lead, the highest card of a suit nobody else holds much of is hard to beat, but high cards
/// are what one beats with, so lead the lowest card outside the own trump suit (the trumps are
/// the way out when void). Now and then a lead at random, so that two bots cannot hand the same
/// card back and forth for ever.
fn basic_choice(deal: &Deal, seat: Seat, rng: &mut Rng) -> Option<Command> {
    let legal = deal.playable(seat);
    if legal.is_empty() {
        return None;
    }
    let trump = deal.trumps[seat];
    let card = if deal.trick.is_empty() {
        if rng.below(6) == 0 {
            legal[rng.below(legal.len())]
        } else {
            legal.iter().copied().min_by_key(|&c| (c.is_suit(trump), rank(c), c.suit()))?
        }
    } else {
        legal.iter().copied().min_by_key(|&c| (rank(c), c.suit()))?
    };
    Some(Command::Play { card })
}

/// The deal as `seat` knows it: its own hand, the public cards of every hand, the cards played;
/// the other hands' unseen cards dealt afresh.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let others: Vec<Seat> = (0..state.players).filter(|&s| s != seat).collect();
    let mut pool = Vec::new();
    let mut sizes = Vec::new();
    for &s in &others {
        let mut rest = deal.hands[s].clone();
        for c in deal.knowledge.public_in(s) {
            take_card(&mut rest, c);
        }
        sizes.push(rest.len());
        pool.extend(rest);
    }
    let mut dealt = bots::redeal_where(&pool, &sizes, |_, _| true, rng).into_iter();
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    for &s in &others {
        let mut hand = w.knowledge.public_in(s);
        hand.extend(dealt.next()?);
        sort_hand(&mut hand);
        w.hands[s] = hand;
    }
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for LangeLaban {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "lange-laban";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/lange-laban.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![Options::default(), Options { pick_up_limit: 3 }]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_PICK_UP_LIMIT).contains(&options.pick_up_limit) {
            return Err(SetupError(format!(
                "pick_up_limit must be 1 to {MAX_PICK_UP_LIMIT}, not {}",
                options.pick_up_limit
            )));
        }
        Ok(State { options, players, deals: Deals::new(players) })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(run(state, vec![deal_started(state, deck)]))
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match *command {
            Command::Play { card } => decide_play(state, deal, seat, card),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        deal.playable(seat).into_iter().map(|card| Command::Play { card }).collect()
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        decks::standard52().into_iter().map(|card| Command::Play { card }).collect()
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
        deal.knowledge.hand_secrets(&deal.hands)
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.hands.concat();
        all.extend(deal.trick.iter().map(|p| p.card));
        all.extend(&deal.aside);
        crate::ensure!(
            crate::cards::is_permutation(&all, &pack),
            "the hands, the trick and the cards aside are not the pack"
        );
        deal.knowledge.check(&deal.hands.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
        crate::ensure!(deal.trick.len() <= deal.players(), "a trick of {} cards on the table", deal.trick.len());
        for &s in &deal.out {
            crate::ensure!(deal.hands[s].is_empty(), "seat {s} is out holding {:?}", deal.hands[s]);
        }
        // Between a play and the automatic steps after it the seat to play may have nothing to
        // play (it picks up next) or the deal be decided (it is scored next); never a seat out.
        if deal.ending.is_none() {
            crate::ensure!(!deal.hands[deal.to_play].is_empty(), "seat {} is to play with no cards", deal.to_play);
        }
        if let Some(outcome) = &state.deals.outcome {
            let losers = (0..deal.players()).filter(|s| !outcome.winners.contains(s)).count();
            crate::ensure!(losers >= 1 && !outcome.winners.is_empty(), "winners {:?}", outcome.winners);
        }
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    // A Långe Laban playout runs to the end of the match (one deal of up to 52 cards, with
    // pick-ups): the default budget took 42 ms of CPU at the p99 (docs/bots.md).
    fn strong_budget(&self) -> bots::Budget {
        bots::Budget { playouts: 160, min_samples: 4, max_samples: 16 }
    }

    fn basic_move(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<Command> {
        basic_choice(state.deals.acting(seat)?, seat, rng)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// Lost or not once the deal is over; while it is played, the cards still to shed against
    /// the others' mean.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let Some(deal) = &state.deals.deal else { return 0.0 };
        if deal.ending.is_some() {
            return bots::lead_over_mean(state.players, |s| state.deals.scores[s] as f64, seat);
        }
        bots::lead_over_mean(state.players, |s| -(deal.hands[s].len() as f64) / 52.0, seat)
    }
}

#[cfg(test)]
mod tests;
