//! Svarte Petter (Old Maid): three to six players and a pack without the jack of clubs, so that
//! the jack of spades, Svarte Petter, has no partner. Every pair of equal rank in a hand is laid
//! face up; then each player in turn draws a card blind from the next player clockwise still
//! holding cards, laying it with its partner at once if it makes a pair. A player rid of his
//! cards is out, and the one left holding Svarte Petter loses.
//!
//! The draw is blind: before every draw the engine asks the service to shuffle the hand drawn
//! from ([`Status::NeedsShuffle`] with that hand), the new order is recorded in `hand_shuffled`
//! (seen only by the holder), and the drawer names a position. A drawn card is known to the two
//! players only ([`Knowledge`]); whatever a third player knew of the hand drawn from is forgotten,
//! since he did not see which card went.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, is_permutation, take_card, Card, Rank, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Status, Viewer};
use crate::knowledge::Knowledge;
use crate::random::Rng;
use crate::rules::{core, RuleViolation, ScoreTerm, Text};
use crate::seat::{seats_text, Seat, Table as Seating};

#[derive(Default)]
pub struct SvartePetter;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 6;
/// Svarte Petter himself, who never pairs.
pub const SVARTE_PETTER: Card = Card::new(Rank::JACK, Suit::Spades);
/// The card taken out of the pack.
pub const JACK_OF_CLUBS: Card = Card::new(Rank::JACK, Suit::Clubs);

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PAIRS: &str = "svarte-petter.deal.pairs";
    pub const POSITION: &str = "svarte-petter.draw.position";
    pub const LOSER: &str = "svarte-petter.end.loser";
}

// ---------------------------------------------------------------------------------------------
// Options

/// The game has no variants: a match is one deal (shared/rules-notes.md).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SvartePetterOptions))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal`, `shuffling-hand` (the hand to be drawn from is being
/// shuffled), `drawing` and `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SvartePetterPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    ShufflingHand,
    Drawing,
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
    /// By seat, the hand in its holder's order (the last shuffle's, drawn cards at the end).
    hands: Vec<Vec<Card>>,
    /// The drawn cards, known to the drawer and the one drawn from.
    knowledge: Knowledge,
    /// By seat, the pairs laid face up, two cards a pair.
    pairs: Vec<Vec<Card>>,
    /// Whose turn it is to draw, if he still holds cards (else the next seat that does).
    turn: Seat,
    /// The hand to be drawn from has been shuffled for this draw.
    shuffled: bool,
    /// Seats rid of their cards, in the order they went out.
    out: Vec<Seat>,
    loser: Option<Seat>,
    scored: bool,
}

impl Deal {
    fn holds(&self, seat: Seat) -> bool {
        !self.hands[seat].is_empty()
    }

    /// The first seat from `seat` on, clockwise, still holding cards (`seat` itself first).
    fn holder_from(&self, seat: Seat) -> Seat {
        let n = self.hands.len();
        (0..n).map(|i| (seat + i) % n).find(|&s| self.holds(s)).unwrap_or(seat)
    }

    fn drawer(&self) -> Seat {
        self.holder_from(self.turn)
    }

    /// The seat drawn from: the next one to the drawer's left still holding cards.
    fn drawn_from(&self) -> Seat {
        let drawer = self.drawer();
        self.holder_from((drawer + 1) % self.hands.len())
    }

    fn over(&self) -> bool {
        self.loser.is_some()
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.over() || !self.shuffled {
            Vec::new()
        } else {
            vec![self.drawer()]
        }
    }

    fn is_live(&self) -> bool {
        !self.over()
    }

    fn phase(&self) -> Phase {
        match (self.over(), self.shuffled) {
            (true, _) => Phase::DealOver,
            (false, false) => Phase::ShufflingHand,
            (false, true) => Phase::Drawing,
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    players: usize,
    deals: Deals<Deal>,
    /// Hands shuffled before draws in this match: with the deals, the shuffles supplied orders
    /// are taken for.
    hand_shuffles: u32,
}

/// The 51 cards: a standard pack without the jack of clubs.
pub fn pack() -> Vec<Card> {
    decks::standard52().into_iter().filter(|&c| c != JACK_OF_CLUBS).collect()
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SvartePetterCommand))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Draw the card at `position` (0 first) of the fanned hand of the player drawn from.
    Draw { position: usize },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SvartePetterEvent))]
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
        /// By seat, the hand as dealt.
        hands: Vec<Vec<Card>>,
        options: Options,
    },
    /// Two cards of a rank laid face up from `seat`'s hand.
    PairLaid {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// The hand of `seat`, about to be drawn from, in its new order: seen by its holder alone.
    HandShuffled {
        seat: Seat,
        order: Vec<Card>,
    },
    /// `seat` drew the card at `position` of `from`'s hand: seen by the two of them alone.
    DrewFromHand {
        seat: Seat,
        from: Seat,
        position: usize,
        card: Card,
    },
    /// `seat` is rid of his cards.
    WentOut {
        seat: Seat,
        place: usize,
    },
    DealScored {
        deal_number: u32,
        /// The player left holding Svarte Petter.
        loser: Seat,
        /// By seat, the pairs laid.
        pairs: Vec<usize>,
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

fn deal_started(state: &State, deck: Vec<Card>) -> Event {
    let seating = Seating::new(state.players);
    let dealer = state.deals.next_dealer;
    Event::DealStarted {
        deal_number: state.deals.number + 1,
        dealer,
        forehand: seating.forehand(dealer),
        hands: deals::deal_singly(&seating, dealer, &deck),
        deck,
        options: Options::default(),
    }
}

// ---------------------------------------------------------------------------------------------
// Pairing

/// Whether two cards make a pair: the same rank, and neither of them Svarte Petter.
fn pair(a: Card, b: Card) -> bool {
    a != SVARTE_PETTER && b != SVARTE_PETTER && a.rank() == b.rank()
}

/// The first pair in `hand`, in the hand's order (with three of a rank, the first two).
fn first_pair(hand: &[Card]) -> Option<Vec<Card>> {
    hand.iter().enumerate().find_map(|(i, &a)| hand[i + 1..].iter().find(|&&b| pair(a, b)).map(|&b| vec![a, b]))
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let Command::Draw { position } = *command;
    let from = deal.drawn_from();
    let n = deal.hands[from].len();
    if position >= n {
        return Err(RuleViolation::new(
            rule::POSITION,
            format!("Plats {from} har {n} kort: välj en plats från 0 till {}.", n - 1),
            format!("Seat {from} holds {n} cards: choose a position from 0 to {}.", n - 1),
        ));
    }
    let card = deal.hands[from][position];
    Ok(run(state, vec![Event::DrewFromHand { seat, from, position, card }]))
}

/// The events given, then every automatic step that follows them.
fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

/// The next automatic step: a pair laid, a player going out, and at the deal's end its score
/// and the match's end.
fn next_step(state: &State) -> Option<Event> {
    let deal = state.deals.deal.as_ref().filter(|_| state.deals.outcome.is_none())?;
    if deal.over() {
        return match deal.scored {
            false => Some(score(state, deal)),
            true => Some(match_end(state, deal)),
        };
    }
    if let Some((seat, cards)) = (0..state.players).find_map(|s| first_pair(&deal.hands[s]).map(|p| (s, p))) {
        return Some(Event::PairLaid { seat, cards });
    }
    let gone = (0..state.players).find(|&s| !deal.holds(s) && !deal.out.contains(&s))?;
    Some(Event::WentOut { seat: gone, place: deal.out.len() + 1 })
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted { deal_number, dealer, forehand, deck, hands, .. } => {
            let n = hands.len();
            state.players = n;
            state.deals.next_dealer = (dealer + 1) % n;
            let deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                forehand: *forehand,
                deck: deck.clone(),
                hands: hands.clone(),
                knowledge: Knowledge::of_hands(n),
                pairs: vec![Vec::new(); n],
                turn: *forehand,
                shuffled: false,
                out: Vec::new(),
                loser: None,
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
        Event::HandShuffled { seat, order } => {
            state.hand_shuffles += 1;
            let Some(deal) = state.deals.deal.as_mut() else { return };
            deal.hands[*seat] = order.clone();
            deal.shuffled = true;
        }
        _ => {
            let Some(deal) = state.deals.deal.as_mut() else { return };
            match event {
                Event::PairLaid { seat, cards } => {
                    for &c in cards {
                        take_card(&mut deal.hands[*seat], c);
                        deal.knowledge.left(*seat, c);
                    }
                    deal.pairs[*seat].extend_from_slice(cards);
                }
                Event::DrewFromHand { seat, from, card, .. } => {
                    take_card(&mut deal.hands[*from], *card);
                    deal.knowledge.left(*from, *card);
                    // Only the drawer saw which card left: the others' knowledge of that hand
                    // is now a guess, and a guess is not knowledge.
                    let kept = deal.knowledge.known_to(*from, *seat);
                    deal.knowledge.clear(*from);
                    kept.iter().for_each(|&c| deal.knowledge.shown_to(*from, c, &[*seat]));
                    deal.hands[*seat].push(*card);
                    deal.knowledge.shown_to(*seat, *card, &[*from]);
                    deal.turn = *from;
                    deal.shuffled = false;
                }
                Event::WentOut { seat, .. } => {
                    deal.out.push(*seat);
                    // Two may go out on one draw (the drawer pairing the giver's last card): the
                    // deal ends once both are out.
                    let seats = 0..deal.hands.len();
                    let holding: Vec<Seat> = seats.clone().filter(|&s| deal.holds(s)).collect();
                    let settled = seats.into_iter().all(|s| deal.holds(s) || deal.out.contains(&s));
                    if let ([last], true) = (&holding[..], settled) {
                        deal.loser = Some(*last);
                    }
                }
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// Minus one to the loser; the pairs each player laid, for the record, at no points.
fn score(state: &State, deal: &Deal) -> Event {
    let loser = deal.loser.expect("a deal over has a loser");
    let pairs: Vec<usize> = deal.pairs.iter().map(|p| p.len() / 2).collect();
    let mut terms: Vec<ScoreTerm> = (0..state.players)
        .map(|s| {
            let k = pairs[s];
            ScoreTerm::new(s, 0, rule::PAIRS, format!("Plats {s} lade {k} par."), format!("Seat {s} laid {k} pairs."))
        })
        .collect();
    terms.push(ScoreTerm::new(
        loser,
        -1,
        rule::LOSER,
        format!("Plats {loser} blev ensam kvar med Svarte Petter och förlorade."),
        format!("Seat {loser} was left alone holding Svarte Petter and lost."),
    ));
    let mut scores = state.deals.scores.clone();
    terms.iter().for_each(|t| scores[t.to] += t.points);
    Event::DealScored { deal_number: deal.number, loser, pairs, terms, scores }
}

/// Everyone but the loser shares the win.
fn match_end(state: &State, deal: &Deal) -> Event {
    let loser = deal.loser.expect("a deal over has a loser");
    let winners: Vec<Seat> = (0..state.players).filter(|&s| s != loser).collect();
    let who = seats_text(&winners);
    Event::MatchEnded {
        winners,
        scores: state.deals.scores.clone(),
        explanation: Text::new(
            format!("Plats {loser} satt kvar med Svarte Petter; platserna {who} delar segern."),
            format!("Seat {loser} was left with Svarte Petter; seats {who} share the win."),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, whose turn it is to draw and from whom, the
/// hands' sizes, the pairs laid by each seat, who is out, and the viewer's own hand in its order
/// with the cards it knows in the others' hands (those it drew from them or they drew from it).
/// A deal's record shows every hand at every step.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SvartePetterTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number, dealer, scores (minus one for the loser), who is to act, the
    /// outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    /// The deal's forehand: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seat whose turn it is to draw: absent before the deal and once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub drawer: Option<Seat>,
    /// The seat drawn from (the drawer's next seat clockwise still holding cards).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub drawn_from: Option<Seat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// By seat, the pairs laid face up, two cards a pair.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pairs: Option<Vec<Vec<Card>>>,
    /// By seat, the cards the viewer knows to be in that hand (a card drawn from or by the
    /// viewer): only in a seat's view, its own hand left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub known_cards: Option<Vec<Vec<Card>>>,
    /// Seats rid of their cards, in the order they went out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub out: Option<Vec<Seat>>,
    /// The player left with Svarte Petter, once the deal is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub loser: Option<Seat>,
    /// The pack as it was dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// Every hand, each in its holder's order: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// The viewer's own hand in its order: only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let me = viewer.seat_at(state.players);
    let deal = state.deals.deal.as_ref();
    let record = deal.filter(|_| viewer == Viewer::Record);
    let playing = deal.filter(|d| !d.over());
    let known = |d: &Deal, me: Seat| {
        (0..state.players).map(|s| if s == me { Vec::new() } else { d.knowledge.known_to(s, me) }).collect()
    };
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        forehand: deal.map(|d| d.forehand),
        drawer: playing.map(Deal::drawer),
        drawn_from: playing.map(Deal::drawn_from),
        hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
        pairs: deal.map(|d| d.pairs.clone()),
        known_cards: deal.zip(me).map(|(d, s)| known(d, s)),
        out: deal.map(|d| d.out.clone()),
        loser: deal.and_then(|d| d.loser),
        deck: record.filter(|d| d.over()).map(|d| d.deck.clone()),
        hands: record.map(|d| d.hands.clone()),
        hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// Every position is as likely as any other to hold any card once the hand is shuffled, so
/// there is nothing to weigh: a position at random, at every level.
fn basic_choice(deal: &Deal, rng: &mut Rng) -> Command {
    Command::Draw { position: rng.below(deal.hands[deal.drawn_from()].len()) }
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for SvartePetter {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "svarte-petter";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/svarte-petter.txt");

    fn setup(&self, players: usize, _options: Options) -> Result<State, SetupError> {
        Ok(State { players, deals: Deals::new(players), hand_shuffles: 0 })
    }

    /// Before every draw, the hand to be drawn from is to be shuffled.
    fn status(&self, state: &State) -> Status {
        match state.deals.live().filter(|d| !d.shuffled) {
            Some(deal) => Status::NeedsShuffle { cards: deal.hands[deal.drawn_from()].clone() },
            None => state.deals.status(pack),
        }
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals.number
    }

    fn shuffles(&self, state: &State) -> u32 {
        state.deals.number + state.hand_shuffles
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(run(state, vec![deal_started(state, deck)]))
    }

    fn reshuffle(&self, state: &State, order: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let Some(deal) = state.deals.live().filter(|d| !d.shuffled) else {
            return Err(RuleViolation::wrong_phase("ingen hand ska blandas", "no hand is to be shuffled"));
        };
        let seat = deal.drawn_from();
        if !is_permutation(&order, &deal.hands[seat]) {
            return Err(RuleViolation::new(
                core::DECK,
                format!("Ordningen måste bestå av exakt de {} korten på handen.", deal.hands[seat].len()),
                format!("The order must hold exactly the {} cards of the hand.", deal.hands[seat].len()),
            ));
        }
        Ok(vec![Event::HandShuffled { seat, order }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        (0..deal.hands[deal.drawn_from()].len()).map(|position| Command::Draw { position }).collect()
    }

    /// Every position of the hand drawn from, and one past its end.
    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        let n = state.deals.live().map_or(0, |d| d.hands[d.drawn_from()].len());
        (0..=n).map(|position| Command::Draw { position }).collect()
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
            Event::HandShuffled { seat, order } if viewer != Viewer::Seat(*seat) && in_play(state.deals.number) => {
                deals::blank(&mut full, "order", order);
            }
            Event::DrewFromHand { seat, from, .. }
                if viewer != Viewer::Seat(*seat) && viewer != Viewer::Seat(*from) && in_play(state.deals.number) =>
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
        deals::check_deck(&deal.deck, &pack())?;
        let mut all = deal.hands.concat();
        all.extend(deal.pairs.concat());
        crate::ensure!(is_permutation(&all, &pack()), "hands and pairs {all:?} are not the pack");
        deal.knowledge.check(&deal.hands.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
        for (s, pairs) in deal.pairs.iter().enumerate() {
            crate::ensure!(pairs.chunks(2).all(|p| p.len() == 2 && pair(p[0], p[1])), "seat {s} laid {pairs:?}");
        }
        for &s in &deal.out {
            crate::ensure!(deal.hands[s].is_empty(), "seat {s} is out holding {:?}", deal.hands[s]);
        }
        if let Some(loser) = deal.loser {
            crate::ensure!(deal.hands[loser] == [SVARTE_PETTER], "the loser holds {:?}", deal.hands[loser]);
            crate::ensure!(deal.out.len() + 1 == state.players, "the deal ended with {:?} out", deal.out);
        } else {
            // Between a pair laid and the going out it causes, one may briefly hold alone.
            let holding = (0..state.players).filter(|&s| deal.holds(s)).count();
            let leaving = (0..state.players).any(|s| !deal.holds(s) && !deal.out.contains(&s));
            crate::ensure!(holding >= 2 || leaving, "one seat holds cards and nobody has lost");
        }
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels { basic: true, strong: false }
    }

    fn bot_move(&self, state: &State, seat: Seat, seed: u64) -> Option<Command> {
        self.basic_move(state, seat, &mut Rng::new(seed))
    }

    fn basic_move(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<Command> {
        Some(basic_choice(state.deals.acting(seat)?, rng))
    }

    /// The loser's minus one against the others' mean.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bots::lead_over_mean(state.players, |s| state.deals.scores.get(s).copied().unwrap_or(0) as f64, seat)
    }
}

#[cfg(test)]
mod tests;
