//! Finns i sjön (Go Fish): seven cards each, the rest face down each in its own place, the
//! "sea". The one whose turn it is asks any other player still holding cards for a rank he
//! holds; the asked hands over every card of it and the asker goes on, or says "Finns i sjön":
//! the asker then takes a card of the sea, from a place he picks, and the turn passes to the
//! one who said it (even when the card drawn is the rank asked for). Quartets are laid at once.
//! A player whose hand runs empty draws seven from the sea at once, one place at a time (all
//! that are left if fewer); with the sea empty he is out, his quartets still counting. One deal:
//! when all thirteen are laid, the most quartets win.
//!
//! Asking, handing over and laying are [`crate::asking`]'s, the sea a [`Positions`].

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::asking::{self, AskRules, Asking, AskingView};
use crate::bots;
use crate::cards::{decks, rank_value, sort_hand, take_card, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::layout::{Place, Positions};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{Seat, Table as Seating};

#[derive(Default)]
pub struct FinnsISjon;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 5;
/// Cards dealt to each hand, and drawn to refill an empty one.
pub const HAND: usize = 7;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const OWN_RANK: &str = "finns-i-sjon.ask.own-rank";
    pub const TARGET: &str = "finns-i-sjon.ask.target";
    pub const DRAW_FIRST: &str = "finns-i-sjon.sea.draw";
    pub const NO_DRAW: &str = "finns-i-sjon.sea.when";
    pub const PLACE: &str = "finns-i-sjon.sea.place";
    pub const QUARTETS: &str = "finns-i-sjon.end.quartets";
    pub const STALL: &str = "finns-i-sjon.house.stall";
}

const ASK: AskRules = AskRules { own_rank: rule::OWN_RANK, target: rule::TARGET };

// ---------------------------------------------------------------------------------------------
// Options

/// The game has no variants.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FinnsISjonOptions))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal`, `asking`, `fishing` (the asker draws after "Finns i
/// sjön"), `refilling` (an empty hand draws from the sea), `deal-over` (for an instant, before
/// the score) and `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FinnsISjonPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Asking,
    Fishing,
    Refilling,
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
    asking: Asking,
    sea: Positions,
    /// The seat whose turn it is to ask.
    turn: Seat,
    /// An ask not yet answered: asker, asked, rank.
    pending: Option<(Seat, Seat, u8)>,
    /// After "Finns i sjön": the asker, who draws, and the seat that said it, who asks next.
    fishing: Option<(Seat, Seat)>,
    /// A hand run empty drawing from the sea: the seat and the cards it still draws.
    refill: Option<(Seat, usize)>,
    /// Seats out of the play (hand and sea empty), in order.
    out: Vec<Seat>,
    stopped: bool,
    scored: bool,
}

impl Deal {
    fn over(&self) -> bool {
        self.asking.laid() == 13 || self.stopped
    }

    /// The seat that must draw from the sea now.
    fn drawer(&self) -> Option<Seat> {
        self.fishing.map(|(s, _)| s).or(self.refill.map(|(s, _)| s))
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.over() {
            Vec::new()
        } else {
            vec![self.drawer().unwrap_or(self.turn)]
        }
    }

    fn is_live(&self) -> bool {
        !self.over()
    }

    fn phase(&self) -> Phase {
        match (self.over(), self.fishing, self.refill) {
            (true, ..) => Phase::DealOver,
            (_, Some(_), _) => Phase::Fishing,
            (_, _, Some(_)) => Phase::Refilling,
            _ => Phase::Asking,
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

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FinnsISjonCommand))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Ask seat `target` for every card of `rank` (2 to 14, the ace 14), a rank you hold.
    Ask {
        target: Seat,
        #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 14))]
        #[serde(deserialize_with = "crate::schema::within::<_, _, 2, 14>")]
        rank: u8,
    },
    /// Take the sea's card at `position`: after "Finns i sjön", or to refill an empty hand.
    Draw { position: usize },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FinnsISjonEvent))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything the deal starts from: the sea is the rest of the pack, in order, position 0
    /// first.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// By seat, the hand.
        hands: Vec<Vec<Card>>,
        sea_size: usize,
        options: Options,
    },
    Asked {
        seat: Seat,
        target: Seat,
        rank: u8,
    },
    /// The asked seat had the rank: every card of it, face up, to the asker, who asks again.
    HandedOver {
        from: Seat,
        to: Seat,
        cards: Vec<Card>,
    },
    /// The asked seat had none: "Finns i sjön". The asker draws from the sea, if it has cards,
    /// and the turn is the asked seat's.
    SaidFinnsISjon {
        seat: Seat,
        rank: u8,
    },
    /// A card taken from the sea: seen by the drawer alone while the deal lasts.
    DrewFromSea {
        seat: Seat,
        position: usize,
        card: Card,
    },
    /// `seat`'s hand ran empty: it draws `cards` from the sea, one place at a time.
    RefillStarted {
        seat: Seat,
        cards: usize,
    },
    /// `seat`'s hand ran empty with the sea empty: it is out of the play.
    OutOfPlay {
        seat: Seat,
    },
    /// Four of a rank in one hand, laid at once and out of play.
    QuartetLaid {
        seat: Seat,
        rank: u8,
        cards: Vec<Card>,
    },
    /// The seat to ask is out: the turn goes on to the next seat holding cards (house rule).
    TurnPassed {
        from: Seat,
        to: Seat,
    },
    /// Too many asks in a row were answered "no" with the sea empty (house rule): the deal ends
    /// as it stands.
    AskingStopped {
        asks: u32,
    },
    DealScored {
        deal_number: u32,
        /// By seat, the quartets laid.
        quartets: Vec<i64>,
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
    let n = state.players;
    let seating = Seating::new(n);
    let dealer = state.deals.next_dealer;
    let mut hands = deals::deal_singly(&seating, dealer, &deck[..HAND * n]);
    hands.iter_mut().for_each(|h| sort_hand(h));
    Event::DealStarted {
        deal_number: state.deals.number + 1,
        dealer,
        forehand: seating.forehand(dealer),
        hands,
        sea_size: deck.len() - HAND * n,
        deck,
        options: state.options.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let drawing = deal.drawer() == Some(seat);
    let event = match *command {
        Command::Ask { .. } if drawing => {
            return Err(RuleViolation::new(
                rule::DRAW_FIRST,
                "Du ska ta ett kort ur sjön först.",
                "You must take a card from the sea first.",
            ))
        }
        Command::Ask { target, rank } => {
            deal.asking.check_ask(seat, target, rank, ASK)?;
            Event::Asked { seat, target, rank }
        }
        Command::Draw { .. } if !drawing => {
            return Err(RuleViolation::new(
                rule::NO_DRAW,
                "Man tar ur sjön bara efter \"Finns i sjön\" eller när handen är tom.",
                "One draws from the sea only after \"Finns i sjön\" or with an empty hand.",
            ))
        }
        Command::Draw { position } => {
            let card = deal.sea.card(position).ok_or_else(|| {
                RuleViolation::new(
                    rule::PLACE,
                    format!("Det ligger inget kort på plats {position} i sjön."),
                    format!("No card lies at place {position} of the sea."),
                )
            })?;
            Event::DrewFromSea { seat, position, card }
        }
    };
    Ok(run(state, vec![event]))
}

fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

/// The automatic steps: the answer to an ask, quartets laid (from the seat to ask round the
/// table), an empty hand refilled or put out, the turn passed over a seat out, a stalled deal's
/// end, the score and the match's end.
fn next_step(state: &State) -> Option<Event> {
    let deal = state.deals.deal.as_ref().filter(|_| state.deals.outcome.is_none())?;
    if let Some((asker, target, rank)) = deal.pending {
        let cards = deal.asking.of_rank(target, rank);
        return Some(match cards.is_empty() {
            true => Event::SaidFinnsISjon { seat: target, rank },
            false => Event::HandedOver { from: target, to: asker, cards },
        });
    }
    if let Some((seat, rank)) = deal.asking.quartet_from(deal.turn) {
        return Some(Event::QuartetLaid { seat, rank, cards: deal.asking.of_rank(seat, rank) });
    }
    if deal.over() {
        return match deal.scored {
            false => Some(score(state, deal)),
            true => Some(match_end(state)),
        };
    }
    if deal.drawer().is_some() {
        return None;
    }
    let n = state.players;
    let empty =
        (0..n).map(|i| (deal.turn + i) % n).find(|&s| deal.asking.hands[s].is_empty() && !deal.out.contains(&s));
    if let Some(seat) = empty {
        return Some(match deal.sea.len() {
            0 => Event::OutOfPlay { seat },
            left => Event::RefillStarted { seat, cards: left.min(HAND) },
        });
    }
    if deal.asking.stalled() {
        return Some(Event::AskingStopped { asks: deal.asking.idle });
    }
    if deal.asking.hands[deal.turn].is_empty() {
        let to = (1..n).map(|i| (deal.turn + i) % n).find(|&s| !deal.asking.hands[s].is_empty())?;
        return Some(Event::TurnPassed { from: deal.turn, to });
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted { deal_number, dealer, forehand, deck, hands, sea_size, options } => {
            state.options = options.clone();
            state.players = hands.len();
            let n = hands.len();
            state.deals.next_dealer = (dealer + 1) % n;
            let deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                forehand: *forehand,
                deck: deck.clone(),
                asking: Asking::new(hands.clone()),
                sea: Positions::new(deck[deck.len() - sea_size..].to_vec()),
                turn: *forehand,
                pending: None,
                fishing: None,
                refill: None,
                out: Vec::new(),
                stopped: false,
                scored: false,
            };
            state.deals.started(*deal_number, &vec![0; n], deal);
        }
        Event::DealScored { terms, scores, .. } => {
            state.deals.scored(terms, scores);
            if let Some(deal) = state.deals.deal.as_mut() {
                deal.scored = true;
            }
        }
        Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
        _ => {
            let Some(deal) = state.deals.deal.as_mut() else { return };
            match event {
                Event::Asked { seat, target, rank } => {
                    deal.asking.asked(*seat, *rank);
                    deal.pending = Some((*seat, *target, *rank));
                }
                Event::HandedOver { from, to, cards } => {
                    deal.asking.hand_over(*from, *to, cards);
                    deal.pending = None;
                }
                Event::SaidFinnsISjon { seat, rank } => {
                    deal.asking.lacked(*seat, *rank);
                    let asker = deal.pending.take().map_or(deal.turn, |(a, _, _)| a);
                    match deal.sea.is_empty() {
                        true => deal.turn = *seat,
                        false => deal.fishing = Some((asker, *seat)),
                    }
                }
                Event::DrewFromSea { seat, position, card } => {
                    deal.sea.take(*position);
                    deal.asking.drew(*seat, *card);
                    if let Some((_, next)) = deal.fishing.take() {
                        deal.turn = next;
                    } else if let Some((s, left)) = deal.refill {
                        deal.refill = (left > 1).then_some((s, left - 1));
                    }
                }
                Event::RefillStarted { seat, cards } => deal.refill = Some((*seat, *cards)),
                Event::OutOfPlay { seat } => deal.out.push(*seat),
                Event::QuartetLaid { seat, rank, .. } => deal.asking.lay(*seat, *rank),
                Event::TurnPassed { to, .. } => deal.turn = *to,
                Event::AskingStopped { .. } => deal.stopped = true,
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// A point a quartet, an out seat's too.
fn score(state: &State, deal: &Deal) -> Event {
    let quartets = deal.asking.counts();
    let terms: Vec<ScoreTerm> = (0..state.players)
        .filter(|&s| quartets[s] > 0)
        .map(|s| {
            let (rule, q) = (if deal.stopped { rule::STALL } else { rule::QUARTETS }, quartets[s]);
            ScoreTerm::new(
                s,
                q,
                rule,
                format!("Plats {s} lade {q} kvartetter."),
                format!("Seat {s} laid {q} quartets."),
            )
        })
        .collect();
    Event::DealScored { deal_number: deal.number, scores: quartets.clone(), quartets, terms }
}

/// The most quartets win; a tie shares the win.
fn match_end(state: &State) -> Event {
    let scores = state.deals.scores.clone();
    let winners = crate::seat::match_winners(&scores);
    let (who, most) = (crate::seat::seats_text(&winners), scores.iter().copied().max().unwrap_or(0));
    let explanation = Text::new(
        format!("Plats {who} vann med flest kvartetter, {most}."),
        format!("Seat {who} won with the most quartets, {most}."),
    );
    Event::MatchEnded { winners, scores, explanation }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, whose turn it is to ask and who draws from the
/// sea, the sea's places, the hands' sizes, the cards handed over (public while held), the
/// quartets laid, who is out, the viewer's own hand; a deal's record shows every hand and the
/// sea's cards at every step.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FinnsISjonTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number, dealer, scores (quartets), who is to act, the outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seat whose turn it is to ask: absent before the deal and once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turn: Option<Seat>,
    /// The seat that must draw from the sea now (after "Finns i sjön", or refilling).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub drawer: Option<Seat>,
    /// Cards still to draw in a refill.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub refill_left: Option<usize>,
    /// The sea's places still holding a card, face down.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub sea: Option<Vec<Place>>,
    /// The sea's cards, place by place as `sea` lists them: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub sea_cards: Option<Vec<Card>>,
    /// Seats out of the play, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub out: Option<Vec<Seat>>,
    #[serde(flatten)]
    pub asking: AskingView,
    /// The pack as it was dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let me = viewer.seat_at(state.players);
    let deal = state.deals.deal.as_ref();
    let live = deal.filter(|d| !d.over());
    let record = viewer == Viewer::Record;
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        forehand: deal.map(|d| d.forehand),
        turn: live.map(|d| d.turn),
        drawer: live.and_then(Deal::drawer),
        refill_left: live.and_then(|d| d.refill).map(|(_, left)| left),
        sea: deal.map(|d| d.sea.view()),
        sea_cards: deal.filter(|_| record).map(|d| d.sea.cards()),
        out: deal.map(|d| d.out.clone()),
        asking: Asking::view(deal.map(|d| &d.asking), me, record),
        deck: deal.filter(|d| record && d.over()).map(|d| d.deck.clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

fn ask((target, rank): (Seat, u8)) -> Command {
    Command::Ask { target, rank }
}

/// The deal as `seat` knows it: its own hand, the cards handed over, the quartets; the other
/// hands' unseen cards and the sea dealt afresh, no seat given a rank the table knows it lacks.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let a = &deal.asking;
    let others: Vec<Seat> = (0..state.players).filter(|&s| s != seat).collect();
    let mut pool = deal.sea.cards();
    let mut sizes = Vec::new();
    for &s in &others {
        let mut rest = a.hands[s].clone();
        a.knowledge.public_in(s).iter().for_each(|&c| {
            take_card(&mut rest, c);
        });
        sizes.push(rest.len());
        pool.extend(rest);
    }
    sizes.push(deal.sea.len());
    let lacks = |pile: usize, c: Card| others.get(pile).is_some_and(|&s| a.lacks[s].contains(&rank_value(c)));
    let mut dealt = bots::redeal_where(&pool, &sizes, |pile, c| !lacks(pile, c), rng).into_iter();
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    for &s in &others {
        let mut hand = w.asking.knowledge.public_in(s);
        hand.extend(dealt.next()?);
        sort_hand(&mut hand);
        w.asking.hands[s] = hand;
    }
    let places = w.sea.face_down();
    let width = places.last().map_or(0, |p| p + 1);
    let mut sea: Vec<Card> = vec![w.deck[0]; width];
    places.iter().zip(dealt.next()?).for_each(|(&p, c)| sea[p] = c);
    let mut positions = Positions::new(sea);
    (0..width).filter(|p| !places.contains(p)).for_each(|p| {
        positions.take(p);
    });
    w.sea = positions;
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for FinnsISjon {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "finns-i-sjon";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/finns-i-sjon.txt");

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        Ok(State { options, players, deals: Deals::new(players) })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(run(state, vec![deal_started(state, deck)]))
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        match deal.drawer() {
            Some(_) => deal.sea.face_down().into_iter().map(|position| Command::Draw { position }).collect(),
            None => deal.asking.asks(seat).into_iter().map(ask).collect(),
        }
    }

    /// Every seat for every rank, the asker itself included, and every place of the sea as
    /// dealt, one past it too.
    fn move_space(&self, state: &State, _seat: Seat) -> Vec<Command> {
        let asks = (0..state.players).flat_map(|target| (2..=14).map(move |rank| Command::Ask { target, rank }));
        let places = 52 - HAND * state.players;
        asks.chain((0..=places).map(|position| Command::Draw { position })).collect()
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        match event {
            Event::DealStarted { deal_number, hands, .. } if state.deals.in_play(*deal_number, viewer, deal_over) => {
                deals::hide_hands(&mut full, hands, viewer);
            }
            Event::DrewFromSea { seat, .. }
                if viewer != Viewer::Seat(*seat) && state.deals.in_play(state.deals.number, viewer, deal_over) =>
            {
                full["card"] = json!(null);
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let mut secrets = deal.asking.secrets();
        secrets.extend(deal.sea.secrets());
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all = deal.asking.hands.concat();
        all.extend(deal.asking.laid_cards(&pack));
        all.extend(deal.sea.cards());
        crate::ensure!(crate::cards::is_permutation(&all, &pack), "hands, sea and quartets are not the pack: {all:?}");
        for &s in &deal.out {
            crate::ensure!(deal.asking.hands[s].is_empty(), "seat {s} is out holding {:?}", deal.asking.hands[s]);
        }
        crate::ensure!(deal.out.is_empty() || deal.sea.is_empty(), "a seat is out with the sea holding cards");
        deal.asking.check()
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// A place of the sea at random; else the rank it holds most of, of a random seat.
    fn basic_move(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        if deal.drawer().is_some() {
            let places = deal.sea.face_down();
            return places.get(rng.below(places.len().max(1))).map(|&position| Command::Draw { position });
        }
        asking::basic_ask(&deal.asking, seat, rng).map(ask)
    }

    /// The ask a player with a memory makes (`asking::remembering_ask`), or the sea's first
    /// place (the places are all alike to it): its one candidate.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        if deal.drawer().is_some() {
            return deal.sea.face_down().first().map(|&position| Command::Draw { position }).into_iter().collect();
        }
        asking::remembering_ask(&deal.asking, seat).map(ask).into_iter().collect()
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let Some(deal) = &state.deals.deal else { return 0.0 };
        let counts = deal.asking.counts();
        bots::lead_over_mean(state.players, |s| counts[s] as f64, seat)
    }
}

#[cfg(test)]
mod tests;
