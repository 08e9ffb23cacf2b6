//! Skitgubbe: three players, two phases. In the first, tricks are played between two players at
//! a time (the leader against the player to his left), any card, suits of no account, the higher
//! rank winning; equal ranks are a stun and both lay again. Everyone draws back to three after
//! each card, and may instead "chance" the talon's top card. The talon's last card lies unseen in
//! front of the player due to draw it; when the duels can go no further it is shown, taken into
//! his hand, and its suit is trump. In the second phase everyone takes up the tricks he won and
//! sheds: each play, a card or a run of one suit, must beat the group just played in its suit, or
//! trump it when void; who cannot or will not picks up that group ("supa"). Three plays on the
//! table and the trick is turned away. The last player holding cards is the skitgubbe.
//!
//! Commands: `play` and `chance` in the duels, `lay` and `pick_up` when shedding. Cards that were
//! seen face up (won tricks, a returned trick, pick-ups, the last talon card) stay public while
//! held, through [`Knowledge`].

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, rank_value, sort_hand, take_card, Card, Suit};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::knowledge::Knowledge;
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Seat, Table as Seating};
use crate::trick::Trick;

#[derive(Default)]
pub struct Skitgubbe;

pub const PLAYERS: usize = 3;
/// Cards in a hand during the duels.
pub const HAND: usize = 3;
/// The largest house cap on quiet moves a match may be given.
pub const MAX_QUIET: u32 = 100_000;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const DUEL_PLAY: &str = "skitgubbe.duel.play";
    pub const CHANCE: &str = "skitgubbe.duel.chance";
    pub const RUN: &str = "skitgubbe.shed.run";
    pub const SINGLE: &str = "skitgubbe.variant.single-cards";
    pub const BEAT: &str = "skitgubbe.shed.beat";
    pub const TRUMP: &str = "skitgubbe.shed.trump";
    pub const PICK_UP: &str = "skitgubbe.shed.pick-up";
    pub const MUST_BEAT: &str = "skitgubbe.variant.must-beat";
    pub const LOSER: &str = "skitgubbe.end.loser";
    pub const CAP: &str = "skitgubbe.house.cap";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Second phase one card at a time, no runs.
    pub single_cards: bool,
    /// "Överstickstvång": a player who can beat (or trump) must; no pick-up by choice.
    pub must_beat: bool,
    /// The house's cap: second-phase moves in a row without anyone going out or a trick turned
    /// away, after which the match ends and the most cards lose.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100000))]
    pub quiet_limit: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { single_cards: false, must_beat: false, quiet_limit: 300 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// `waiting-for-deal`, `duels` (the first phase), `shedding` (the second), `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SkitgubbePhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Duels,
    Shedding,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// A card laid by a seat: a card of a duel, or a group of the second phase.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SkitgubbeGroup))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub seat: Seat,
    /// Lowest first.
    pub cards: Vec<Card>,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    forehand: Seat,
    deck: Vec<Card>,
    hands: Vec<Vec<Card>>,
    /// Hand cards everyone saw go in: won tricks, a returned trick, pick-ups, the last card.
    knowledge: Knowledge,
    /// Top card first.
    talon: Vec<Card>,
    /// The talon's last card and the seat it lies in front of, unseen by all.
    aside: Option<(Seat, Card)>,
    shedding: bool,
    /// Duels: the seat leading against his left neighbour.
    leader: Seat,
    /// The duel's cards in the order laid.
    trick: Vec<Group>,
    /// By seat, the tricks won in the duels (face down, but every card was seen).
    won: Vec<Vec<Card>>,
    /// Shedding: the last talon card's holder, the trump suit, the groups on the table.
    holder: Option<Seat>,
    trump: Option<Suit>,
    groups: Vec<Group>,
    to_play: Seat,
    /// Seats rid of their cards, in order.
    out: Vec<Seat>,
    /// Second-phase moves since someone went out or a trick was turned away.
    quiet: u32,
    over: bool,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.over {
            Vec::new()
        } else {
            vec![self.to_play]
        }
    }

    fn is_live(&self) -> bool {
        !self.over
    }

    fn phase(&self) -> Phase {
        if self.shedding {
            Phase::Shedding
        } else {
            Phase::Duels
        }
    }
}

fn rank(card: Card) -> u8 {
    rank_value(card)
}

fn suit(card: Card) -> Suit {
    card.suit().expect("a standard pack")
}

fn next(seat: Seat) -> Seat {
    Seating::new(PLAYERS).next(seat)
}

impl Deal {
    fn opponent(&self) -> Seat {
        next(self.leader)
    }

    /// Whether `seat` has a card to lay in a duel: from the hand, or by chancing.
    fn can_lay(&self, seat: Seat) -> bool {
        !self.hands[seat].is_empty() || self.talon.len() >= 2
    }

    fn active(&self) -> Vec<Seat> {
        (0..PLAYERS).filter(|&s| !self.hands[s].is_empty()).collect()
    }

    /// The next seat after `seat` still holding cards.
    fn next_active(&self, seat: Seat) -> Seat {
        Seating::new(PLAYERS).order_from(seat).into_iter().skip(1).find(|&s| !self.hands[s].is_empty()).unwrap_or(seat)
    }

    /// Every run of consecutive cards of one suit in `seat`'s hand (single cards included),
    /// lowest card first, ace high; only single cards with `single`.
    fn runs(&self, seat: Seat, single: bool) -> Vec<Vec<Card>> {
        let mut runs = Vec::new();
        for s in Suit::ALL {
            let mut cards: Vec<Card> = self.hands[seat].iter().copied().filter(|&c| suit(c) == s).collect();
            cards.sort_by_key(|&c| rank(c));
            for i in 0..cards.len() {
                runs.push(vec![cards[i]]);
                let mut j = i + 1;
                while !single && j < cards.len() && rank(cards[j]) == rank(cards[j - 1]) + 1 {
                    runs.push(cards[i..=j].to_vec());
                    j += 1;
                }
            }
        }
        runs
    }

    /// Why `play` (a run) does not beat the top group for `seat`, if it does not.
    fn refusal(&self, seat: Seat, play: &[Card]) -> Option<RuleViolation> {
        let top = self.groups.last()?;
        let (led, high) = (suit(top.cards[0]), top.cards.iter().map(|&c| rank(c)).max().unwrap_or(0));
        let trump = self.trump.expect("trump is set when shedding");
        let played = suit(play[0]);
        let void = !self.hands[seat].iter().any(|&c| suit(c) == led);
        if played == led {
            return (rank(play[0]) <= high).then(|| {
                RuleViolation::new(
                    rule::BEAT,
                    format!("Lägsta kortet måste vara högre än {}, det högsta i gruppen att slå.", codes(&top.cards)),
                    format!(
                        "The lowest card must be higher than the highest of {}, the group to beat.",
                        codes(&top.cards)
                    ),
                )
            });
        }
        if played == trump && void {
            return None;
        }
        Some(if played == trump {
            RuleViolation::new(
                rule::TRUMP,
                "Man får bara trumfa när man saknar färgen som ska slås.",
                "One may trump only when void in the suit to beat.",
            )
        } else {
            RuleViolation::new(
                rule::BEAT,
                format!("Gruppen {} slås bara i sin färg, eller med trumf när man saknar färgen.", codes(&top.cards)),
                format!("The group {} is beaten only in its suit, or with trumps when void in it.", codes(&top.cards)),
            )
        })
    }

    /// The plays `seat` may make now when shedding: every run that leads or beats.
    fn plays(&self, seat: Seat, single: bool) -> Vec<Vec<Card>> {
        self.runs(seat, single).into_iter().filter(|r| self.refusal(seat, r).is_none()).collect()
    }

    fn holdings(&self) -> Vec<usize> {
        self.hands.iter().map(Vec::len).collect()
    }
}

fn codes(cards: &[Card]) -> String {
    crate::cards::codes(cards)
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    /// The match is one deal; its scores are minus one for the skitgubbe.
    deals: Deals<Deal>,
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Duels: lay a card from the hand.
    Play { card: Card },
    /// Duels: "chansa", turn the talon's top card and lay it instead.
    Chance,
    /// Shedding: lay one card or a run of one suit, lowest card first.
    Lay { cards: Vec<Card> },
    /// Shedding: "supa", take the group last played into the hand.
    PickUp,
}

/// Why the match ended: everyone but one went out, or the house's cap.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SkitgubbeEnding))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    Out,
    QuietLimit,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything the deal starts from: hidden but the seat's own hand while it is played.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        deck: Vec<Card>,
        hands: Vec<Vec<Card>>,
        /// Cards left in the talon.
        talon: usize,
        options: Options,
    },
    /// A duel card, face up; `chanced`: turned from the talon.
    CardPlayed {
        seat: Seat,
        card: Card,
        chanced: bool,
    },
    /// The seat drew back towards three: the card is its own to see.
    CardDrawn {
        seat: Seat,
        card: Card,
    },
    /// The talon's last card was put in front of the seat, unseen by all.
    LastCardAside {
        seat: Seat,
    },
    /// The duel is decided: the winner takes the cards face down and leads next.
    DuelWon {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// The duels can go no further with an undecided trick: each takes his cards back.
    DuelReturned {
        groups: Vec<Group>,
    },
    /// The duels are over: the last card is shown and taken up, its suit is trump, and everyone
    /// takes up his tricks (`taken`, by seat).
    SheddingStarted {
        holder: Seat,
        card: Card,
        trump: Suit,
        taken: Vec<Vec<Card>>,
    },
    /// A card or a run laid in the second phase.
    Laid {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// "Supa": the seat took the group `from` had laid.
    PickedUp {
        seat: Seat,
        from: Seat,
        cards: Vec<Card>,
    },
    /// Three plays lay on the table: turned away; `leader` leads next.
    TrickTurnedAway {
        cards: Vec<Card>,
        leader: Seat,
    },
    /// The seat has no cards left.
    PlayerOut {
        seat: Seat,
    },
    /// The result: `out` in order, the losers (the skitgubbe, several on a tie at the cap),
    /// each seat's place (1 first) and the cards each held at the end.
    DealScored {
        deal_number: u32,
        ending: Ending,
        out: Vec<Seat>,
        losers: Vec<Seat>,
        places: Vec<usize>,
        cards: Vec<usize>,
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
        scores: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        losers: Vec<Seat>,
        scores: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Decide

type Emit<'a> = dyn FnMut(&mut Deal, Event) + 'a;

fn decide(state: &State, deal: &Deal, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let mut work = deal.clone();
    let mut events = Vec::new();
    let mut emit = |deal: &mut Deal, e: Event| {
        evolve_deal(deal, &e);
        events.push(e);
    };
    let options = &state.options;
    match (deal.shedding, command) {
        (false, Command::Play { card }) => {
            if !deal.hands[seat].contains(card) {
                return Err(RuleViolation::new(
                    rule::DUEL_PLAY,
                    format!("{card} finns inte på din hand."),
                    format!("{card} is not in your hand."),
                ));
            }
            duel_card(&mut work, seat, *card, false, &mut emit);
        }
        (false, Command::Chance) => {
            if deal.talon.len() < 2 {
                return Err(RuleViolation::new(
                    rule::CHANCE,
                    "Man får bara chansa medan talongen har minst två kort.",
                    "One may chance only while the talon holds two cards or more.",
                ));
            }
            duel_card(&mut work, seat, deal.talon[0], true, &mut emit);
        }
        (true, Command::Lay { cards }) => {
            check_lay(deal, seat, cards, options)?;
            emit(&mut work, Event::Laid { seat, cards: cards.clone() });
            let mut loud = false;
            if work.hands[seat].is_empty() {
                emit(&mut work, Event::PlayerOut { seat });
                loud = true;
            }
            if work.groups.len() == 3 {
                let leader = if work.hands[seat].is_empty() { work.next_active(seat) } else { seat };
                let cards = work.groups.iter().flat_map(|g| g.cards.clone()).collect();
                emit(&mut work, Event::TrickTurnedAway { cards, leader });
                loud = true;
            }
            settle(state, &mut work, loud, &mut emit);
        }
        (true, Command::PickUp) => {
            let Some(top) = deal.groups.last() else {
                return Err(RuleViolation::new(
                    rule::PICK_UP,
                    "Bordet är tomt: det finns inget att supa, spela ut.",
                    "The table is empty: there is nothing to pick up, lead.",
                ));
            };
            if options.must_beat && !deal.plays(seat, options.single_cards).is_empty() {
                return Err(RuleViolation::new(
                    rule::MUST_BEAT,
                    "Med överstickstvång måste man slå över eller trumfa när man kan.",
                    "With the must-beat variant one must beat or trump when one can.",
                ));
            }
            emit(&mut work, Event::PickedUp { seat, from: top.seat, cards: top.cards.clone() });
            settle(state, &mut work, false, &mut emit);
        }
        (false, _) => {
            return Err(RuleViolation::wrong_phase(
                "under dusterna spelar man ett kort eller chansar",
                "in the duels one plays a card or chances",
            ))
        }
        (true, _) => {
            return Err(RuleViolation::wrong_phase(
                "i andra fasen lägger man kort eller supar",
                "in the second phase one lays cards or picks up",
            ))
        }
    }
    Ok(events)
}

fn check_lay(deal: &Deal, seat: Seat, cards: &[Card], options: &Options) -> Result<(), RuleViolation> {
    if cards.is_empty() || !crate::cards::is_part_of(cards, &deal.hands[seat]) {
        return Err(RuleViolation::new(
            rule::RUN,
            format!("Korten {} finns inte på din hand.", codes(cards)),
            format!("The cards {} are not in your hand.", codes(cards)),
        ));
    }
    if options.single_cards && cards.len() > 1 {
        return Err(RuleViolation::new(
            rule::SINGLE,
            "Man spelar ett kort i taget i denna variant.",
            "One card at a time in this variant.",
        ));
    }
    let run = cards.windows(2).all(|w| suit(w[0]) == suit(w[1]) && rank(w[1]) == rank(w[0]) + 1);
    if !run {
        return Err(RuleViolation::new(
            rule::RUN,
            format!("{} är ingen följd: kort i samma färg i följd, lägsta först.", codes(cards)),
            format!("{} is no run: consecutive cards of one suit, lowest first.", codes(cards)),
        ));
    }
    deal.refusal(seat, cards).map_or(Ok(()), Err)
}

/// A duel card laid: the draw back to three, the duel decided or stunned, and the end of the
/// duels when the seat due to lay has nothing left.
fn duel_card(deal: &mut Deal, seat: Seat, card: Card, chanced: bool, emit: &mut Emit) {
    emit(deal, Event::CardPlayed { seat, card, chanced });
    if deal.hands[seat].len() < HAND && !deal.talon.is_empty() {
        match deal.talon[..] {
            [_] => emit(deal, Event::LastCardAside { seat }),
            _ => emit(deal, Event::CardDrawn { seat, card: deal.talon[0] }),
        }
    }
    if deal.trick.len().is_multiple_of(2) {
        let (a, b) = (&deal.trick[deal.trick.len() - 2], &deal.trick[deal.trick.len() - 1]);
        let (ra, rb) = (rank(a.cards[0]), rank(b.cards[0]));
        if ra != rb {
            let winner = if ra > rb { a.seat } else { b.seat };
            let cards = deal.trick.iter().map(|g| g.cards[0]).collect();
            emit(deal, Event::DuelWon { seat: winner, cards });
        }
    }
    let due = if deal.trick.len().is_multiple_of(2) { deal.leader } else { deal.opponent() };
    let stuck = !deal.can_lay(due) || (deal.trick.is_empty() && !deal.can_lay(deal.opponent()));
    if stuck {
        if !deal.trick.is_empty() {
            emit(deal, Event::DuelReturned { groups: deal.trick.clone() });
        }
        let (holder, card) = deal.aside.expect("the talon's last card lies aside once the duels end");
        let taken = deal.won.clone();
        emit(deal, Event::SheddingStarted { holder, card, trump: suit(card), taken });
        let empty: Vec<Seat> =
            Seating::new(PLAYERS).order_from(holder).into_iter().filter(|&s| deal.hands[s].is_empty()).collect();
        for s in empty {
            emit(deal, Event::PlayerOut { seat: s });
        }
        if deal.active().len() <= 1 {
            score_deal(deal, Ending::Out).into_iter().for_each(|e| emit(deal, e));
        }
    }
}

/// After a second-phase move: the end when one seat alone holds cards, or the house's cap.
fn settle(state: &State, deal: &mut Deal, loud: bool, emit: &mut Emit) {
    if deal.active().len() <= 1 {
        score_deal(deal, Ending::Out).into_iter().for_each(|e| emit(deal, e));
    } else if !loud && deal.quiet >= state.options.quiet_limit {
        score_deal(deal, Ending::QuietLimit).into_iter().for_each(|e| emit(deal, e));
    }
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve_deal(deal: &mut Deal, event: &Event) {
    match event {
        Event::CardPlayed { seat, card, chanced } => {
            if *chanced {
                deal.talon.remove(0);
            } else {
                take_card(&mut deal.hands[*seat], *card);
                deal.knowledge.left(*seat, *card);
            }
            deal.trick.push(Group { seat: *seat, cards: vec![*card] });
            deal.to_play = if !deal.trick.len().is_multiple_of(2) { deal.opponent() } else { deal.leader };
        }
        Event::CardDrawn { seat, card } => {
            deal.talon.remove(0);
            deal.hands[*seat].push(*card);
            sort_hand(&mut deal.hands[*seat]);
        }
        Event::LastCardAside { seat } => {
            let card = deal.talon.remove(0);
            deal.aside = Some((*seat, card));
        }
        Event::DuelWon { seat, cards } => {
            deal.won[*seat].extend(cards);
            deal.trick.clear();
            deal.leader = *seat;
            deal.to_play = *seat;
        }
        Event::DuelReturned { groups } => {
            for g in groups {
                deal.hands[g.seat].extend(&g.cards);
                sort_hand(&mut deal.hands[g.seat]);
                deal.knowledge.shown_to_all(g.seat, &g.cards);
            }
            deal.trick.clear();
        }
        Event::SheddingStarted { holder, card, trump, taken } => {
            for (s, cards) in taken.iter().enumerate() {
                deal.hands[s].extend(cards);
                deal.knowledge.shown_to_all(s, cards);
                deal.won[s].clear();
            }
            deal.hands[*holder].push(*card);
            deal.knowledge.shown_to_all(*holder, &[*card]);
            deal.hands.iter_mut().for_each(|h| sort_hand(h));
            deal.aside = None;
            deal.shedding = true;
            deal.holder = Some(*holder);
            deal.trump = Some(*trump);
            deal.to_play = *holder;
        }
        Event::Laid { seat, cards } => {
            for &c in cards {
                take_card(&mut deal.hands[*seat], c);
                deal.knowledge.left(*seat, c);
            }
            deal.groups.push(Group { seat: *seat, cards: cards.clone() });
            deal.quiet += 1;
            deal.to_play = deal.next_active(*seat);
        }
        Event::PickedUp { seat, cards, .. } => {
            deal.groups.pop();
            deal.hands[*seat].extend(cards);
            sort_hand(&mut deal.hands[*seat]);
            deal.knowledge.shown_to_all(*seat, cards);
            deal.quiet += 1;
            deal.to_play = deal.next_active(*seat);
        }
        Event::TrickTurnedAway { leader, .. } => {
            deal.groups.clear();
            deal.quiet = 0;
            deal.to_play = *leader;
        }
        Event::PlayerOut { seat } => {
            deal.out.push(*seat);
            deal.quiet = 0;
        }
        Event::DealScored { .. } => deal.over = true,
        Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// The end: the last seat with cards is the skitgubbe (at the cap, the seats holding the most
/// cards share the loss); the others win. Places: the order out, then the fewest cards.
fn score_deal(deal: &Deal, ending: Ending) -> Vec<Event> {
    let cards = deal.holdings();
    let most = cards.iter().copied().max().unwrap_or(0);
    let losers: Vec<Seat> = (0..PLAYERS).filter(|&s| cards[s] > 0 && cards[s] == most).collect();
    let places: Vec<usize> = (0..PLAYERS)
        .map(|s| match deal.out.iter().position(|&o| o == s) {
            Some(i) => i + 1,
            None => deal.out.len() + 1 + (0..PLAYERS).filter(|&o| cards[o] > 0 && cards[o] < cards[s]).count(),
        })
        .collect();
    let terms: Vec<ScoreTerm> = losers
        .iter()
        .map(|&s| {
            let n = cards[s];
            let (sv, en) = match ending {
                Ending::Out => (
                    format!("Plats {s} sitter sist kvar med kort, {n}, och är skitgubbe."),
                    format!("Seat {s} is the last with cards, {n}, and is the skitgubbe."),
                ),
                Ending::QuietLimit => (
                    format!("Plats {s} har flest kort, {n}, när husets gräns nås."),
                    format!("Seat {s} holds the most cards, {n}, when the house's cap is reached."),
                ),
            };
            let id = if ending == Ending::Out { rule::LOSER } else { rule::CAP };
            ScoreTerm::new(s, -1, id, sv, en)
        })
        .collect();
    let mut points = vec![0i64; PLAYERS];
    losers.iter().for_each(|&s| points[s] = -1);
    let winners: Vec<Seat> = (0..PLAYERS).filter(|s| !losers.contains(s)).collect();
    let who = seat::seats_text(&losers);
    let explanation = match (ending, losers.len()) {
        (Ending::Out, _) => Text::new(
            format!("Plats {who} sitter sist kvar med kort och är skitgubbe."),
            format!("Seat {who} is the last holding cards and is the skitgubbe."),
        ),
        (_, 1) => Text::new(
            format!("Husets gräns är nådd; plats {who} har flest kort och förlorar."),
            format!("The house's cap is reached; seat {who} holds the most cards and loses."),
        ),
        _ => Text::new(
            format!("Husets gräns är nådd; platserna {who} har flest kort och delar förlusten."),
            format!("The house's cap is reached; seats {who} hold the most cards and share the loss."),
        ),
    };
    vec![
        Event::DealScored {
            deal_number: deal.number,
            ending,
            out: deal.out.clone(),
            losers: losers.clone(),
            places,
            cards,
            terms,
            points: points.clone(),
            scores: points.clone(),
        },
        Event::MatchEnded { winners, losers, scores: points, explanation },
    ]
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it. Absent fields: before the deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SkitgubbeTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number, dealer, scores (minus one for the skitgubbe), who is to act.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// Cards left in the talon.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub talon_count: Option<usize>,
    /// Duels: the seats playing against each other, the leader first.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub duel: Option<[Seat; 2]>,
    /// The duel's trick being played, its leader and each [seat, card] in order (stunned cards
    /// included); no cards in the second phase.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trick: Option<Trick>,
    /// Cards in each seat's pile of won tricks (face down).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub won_counts: Option<Vec<usize>>,
    /// The seat the talon's last card lies in front of, unseen, until the duels end.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub last_card_holder: Option<Seat>,
    /// Shedding: who took up the talon's last card and led first.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub holder: Option<Seat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub trump: Option<Suit>,
    /// Shedding: the groups on the table, in the order laid.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub groups: Option<Vec<Group>>,
    /// Whose turn it is: absent once the deal is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// By seat, the hand cards everyone saw go in: public while held.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub public_cards: Option<Vec<Vec<Card>>>,
    /// Seats rid of their cards, in the order they went out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub out: Option<Vec<Seat>>,
    /// Second-phase moves since someone went out or a trick was turned away (the house's cap).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub quiet_moves: Option<u32>,
    /// The viewer's own hand: only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
    /// Every hand: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// The talon, top card first: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub talon: Option<Vec<Card>>,
    /// The tricks won, by seat: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub won: Option<Vec<Vec<Card>>>,
    /// The talon's last card while it lies aside: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub last_card: Option<Card>,
    /// The pack as it was dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let me = viewer.seat_at(PLAYERS);
    let deal = state.deals.deal.as_ref();
    let live = deal.filter(|d| !d.over);
    let duels = live.filter(|d| !d.shedding);
    let record = deal.filter(|_| viewer == Viewer::Record);
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, PLAYERS, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        forehand: deal.map(|d| d.forehand),
        talon_count: deal.map(|d| d.talon.len()),
        duel: duels.map(|d| [d.leader, d.opponent()]),
        trick: deal.map(|d| Trick {
            leader: d.leader,
            plays: d.trick.iter().filter(|_| !d.shedding).map(|g| (g.seat, g.cards[0])).collect(),
        }),
        won_counts: deal.map(|d| d.won.iter().map(Vec::len).collect()),
        last_card_holder: deal.and_then(|d| d.aside).map(|(s, _)| s),
        holder: deal.and_then(|d| d.holder),
        trump: deal.and_then(|d| d.trump),
        groups: deal.filter(|d| d.shedding).map(|d| d.groups.clone()),
        to_play: live.map(|d| d.to_play),
        hand_sizes: deal.map(|d| d.holdings()),
        public_cards: deal.map(|d| d.knowledge.public_hands(me)),
        out: deal.map(|d| d.out.clone()),
        quiet_moves: deal.filter(|d| d.shedding).map(|d| d.quiet),
        hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
        hands: record.map(|d| d.hands.clone()),
        talon: record.map(|d| d.talon.clone()),
        won: record.map(|d| d.won.clone()),
        last_card: record.and_then(|d| d.aside).map(|(_, c)| c),
        deck: record.filter(|d| d.over).map(|d| d.deck.clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// The rule of thumb. Duels: lead the lowest card; answer with the lowest card that wins, else
/// the lowest. Shedding: beat as cheaply as possible (in suit before trumps, the lowest top
/// card, the longer run on a tie), lead the run of one's lowest plain card, and pick up only
/// when nothing beats.
fn basic(state: &State, deal: &Deal, seat: Seat) -> Option<Command> {
    if !deal.shedding {
        let hand = &deal.hands[seat];
        let lowest = hand.iter().copied().min_by_key(|&c| rank(c));
        let Some(lowest) = lowest else { return Some(Command::Chance) };
        let card = match deal.trick.len() % 2 {
            1 => {
                let led = rank(deal.trick.last()?.cards[0]);
                hand.iter().copied().filter(|&c| rank(c) > led).min_by_key(|&c| rank(c)).unwrap_or(lowest)
            }
            _ => lowest,
        };
        return Some(Command::Play { card });
    }
    let trump = deal.trump?;
    let plays = deal.plays(seat, state.options.single_cards);
    if deal.groups.is_empty() {
        let plain = |c: &Card| suit(*c) != trump;
        let low = deal.hands[seat].iter().copied().filter(plain).min_by_key(|&c| rank(c));
        let low = low.or_else(|| deal.hands[seat].iter().copied().min_by_key(|&c| rank(c)))?;
        let best = plays.into_iter().filter(|p| p[0] == low).max_by_key(Vec::len)?;
        return Some(Command::Lay { cards: best });
    }
    let cost = |p: &Vec<Card>| (suit(p[0]) == trump, rank(p[p.len() - 1]), std::cmp::Reverse(p.len()));
    match plays.into_iter().min_by_key(cost) {
        Some(cards) => Some(Command::Lay { cards }),
        None => Some(Command::PickUp),
    }
}

/// The deal as `seat` knows it: its own hand, every card seen face up (public hand cards, won
/// tricks, the table); the others' unseen hand cards, the talon and the card aside dealt afresh
/// from the cards it has not seen.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let mut pool: Vec<Card> = deal.talon.clone();
    pool.extend(deal.aside.map(|(_, c)| c));
    let others: Vec<Seat> = (0..PLAYERS).filter(|&s| s != seat).collect();
    let mut sizes = Vec::new();
    for &s in &others {
        let mut rest = deal.hands[s].clone();
        deal.knowledge.public_in(s).iter().for_each(|&c| {
            take_card(&mut rest, c);
        });
        sizes.push(rest.len());
        pool.extend(rest);
    }
    sizes.push(deal.talon.len());
    sizes.push(usize::from(deal.aside.is_some()));
    let mut dealt = bots::redeal_where(&pool, &sizes, |_, _| true, rng).into_iter();
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    for &s in &others {
        let mut hand = w.knowledge.public_in(s);
        hand.extend(dealt.next()?);
        sort_hand(&mut hand);
        w.hands[s] = hand;
    }
    w.talon = dealt.next()?;
    if let Some((holder, _)) = w.aside {
        w.aside = Some((holder, *dealt.next()?.first()?));
    }
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Skitgubbe {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "skitgubbe";
    const PLAYERS: RangeInclusive<usize> = PLAYERS..=PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/skitgubbe.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        let d = Options::default();
        vec![
            d.clone(),
            Options { single_cards: true, ..d.clone() },
            Options { must_beat: true, ..d.clone() },
            Options { single_cards: true, must_beat: true, quiet_limit: 40 },
            Options { quiet_limit: 12, ..d },
        ]
    }

    fn setup(&self, _players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_QUIET).contains(&options.quiet_limit) {
            return Err(SetupError(format!("quiet_limit must be 1 to {MAX_QUIET}, not {}", options.quiet_limit)));
        }
        Ok(State { options, deals: Deals::new(PLAYERS) })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let table = Seating::new(PLAYERS);
        let dealer = state.deals.next_dealer;
        let hands = deals::deal_singly(&table, dealer, &deck[..HAND * PLAYERS]);
        Ok(vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: table.next(dealer),
            talon: deck.len() - HAND * PLAYERS,
            deck,
            hands,
            options: state.options.clone(),
        }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, state.deals.current()?, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, dealer, forehand, deck, hands, options, .. } => {
                state.options = options.clone();
                state.deals.next_dealer = next(*dealer);
                let mut sorted = hands.clone();
                sorted.iter_mut().for_each(|h| sort_hand(h));
                let deal = Deal {
                    number: *deal_number,
                    dealer: *dealer,
                    forehand: *forehand,
                    talon: deck[HAND * PLAYERS..].to_vec(),
                    deck: deck.clone(),
                    hands: sorted,
                    knowledge: Knowledge::of_hands(PLAYERS),
                    aside: None,
                    shedding: false,
                    leader: *forehand,
                    trick: Vec::new(),
                    won: vec![Vec::new(); PLAYERS],
                    holder: None,
                    trump: None,
                    groups: Vec::new(),
                    to_play: *forehand,
                    out: Vec::new(),
                    quiet: 0,
                    over: false,
                };
                state.deals.started(*deal_number, &[0; PLAYERS], deal);
            }
            Event::DealScored { terms, scores, .. } => {
                state.deals.scored(terms, scores);
                if let Some(deal) = state.deals.deal.as_mut() {
                    evolve_deal(deal, event);
                }
            }
            Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
            _ => {
                if let Some(deal) = state.deals.deal.as_mut() {
                    evolve_deal(deal, event);
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        if !deal.shedding {
            let mut moves: Vec<Command> = deal.hands[seat].iter().map(|&card| Command::Play { card }).collect();
            if deal.talon.len() >= 2 {
                moves.push(Command::Chance);
            }
            return moves;
        }
        let plays = deal.plays(seat, state.options.single_cards);
        let pick_up = !deal.groups.is_empty() && (!state.options.must_beat || plays.is_empty());
        let mut moves: Vec<Command> = plays.into_iter().map(|cards| Command::Lay { cards }).collect();
        if pick_up {
            moves.push(Command::PickUp);
        }
        moves
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut space = vec![Command::Chance, Command::PickUp];
        space.extend(decks::standard52().into_iter().map(|card| Command::Play { card }));
        space.extend(decks::standard52().into_iter().map(|c| Command::Lay { cards: vec![c] }));
        if let Some(deal) = state.deals.live() {
            let runs = deal.runs(seat, false);
            space.extend(runs.iter().filter(|r| r.len() > 1).map(|r| Command::Lay { cards: r.clone() }));
            // A run laid highest first, and two cards that are no run.
            space.extend(
                runs.iter().filter(|r| r.len() > 1).map(|r| Command::Lay { cards: r.iter().rev().copied().collect() }),
            );
            if let [a, b, ..] = deal.hands[seat][..] {
                space.push(Command::Lay { cards: vec![a, b] });
            }
        }
        space.push(Command::Lay { cards: Vec::new() });
        space
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    /// While the deal is played the pack is nobody's, each seat sees only its own dealt and
    /// drawn cards; the card aside appears in no event until it is shown.
    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        match event {
            Event::DealStarted { deal_number, hands, .. } if state.deals.in_play(*deal_number, viewer, deal_over) => {
                deals::hide_hands(&mut full, hands, viewer);
            }
            Event::CardDrawn { seat, .. }
                if state.deals.in_play(state.deals.number, viewer, deal_over) && viewer != Viewer::Seat(*seat) =>
            {
                full["card"] = Value::Null;
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let mut secrets = deal.knowledge.hand_secrets(&deal.hands);
        secrets.extend(deal.talon.iter().map(|&c| (c, Vec::new())));
        secrets.extend(deal.aside.map(|(_, c)| (c, Vec::new())));
        // Highest rank first (the order says nothing to the table): the bot test swaps the first
        // two cards a seat does not know, and high cards stay longest in a duelling hand.
        secrets.sort_by_key(|(c, _)| std::cmp::Reverse(rank(*c)));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.hands.iter().flatten().copied().collect();
        all.extend(&deal.talon);
        all.extend(deal.aside.map(|(_, c)| c));
        all.extend(deal.trick.iter().chain(&deal.groups).flat_map(|g| g.cards.clone()));
        all.extend(deal.won.iter().flatten());
        let gone = deal.deck.len() - all.len();
        crate::ensure!(is_part_of_pack(&all, &pack), "a card is held twice");
        crate::ensure!(deal.shedding || gone == 0, "{gone} cards gone before the second phase");
        // Three groups lie on the table only between the third play and its turning away.
        crate::ensure!(deal.groups.len() <= 3, "{} groups on the table", deal.groups.len());
        crate::ensure!(!deal.shedding || deal.aside.is_none(), "the last card still aside when shedding");
        crate::ensure!(deal.shedding || deal.hands.iter().all(|h| h.len() <= HAND), "a duel hand over three");
        crate::ensure!(
            deal.over || deal.active().contains(&deal.to_play) || !deal.shedding,
            "seat {} to play without cards",
            deal.to_play
        );
        deal.knowledge.check(&deal.hands.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
        Ok(())
    }

    /// Out early is best; else the cards still to shed against the others' mean.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let Some(deal) = &state.deals.deal else { return 0.0 };
        let value = |s: Seat| match deal.out.iter().position(|&o| o == s) {
            Some(place) => 60.0 - 10.0 * place as f64,
            None => -((deal.hands[s].len() + deal.won[s].len()) as f64),
        };
        bots::lead_over_mean(PLAYERS, value, seat)
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic(state, state.deals.acting(seat)?, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// Second-phase playouts run long (pick-ups send cards round and round): a lighter search.
    fn strong_budget(&self) -> bots::Budget {
        bots::Budget { playouts: 160, min_samples: 4, max_samples: 24 }
    }
}

/// Each card of `cards` a distinct card of the pack.
fn is_part_of_pack(cards: &[Card], pack: &[Card]) -> bool {
    let mut sorted = cards.to_vec();
    sorted.sort();
    sorted.windows(2).all(|w| w[0] != w[1]) && crate::cards::is_part_of(cards, pack)
}

#[cfg(test)]
mod tests;
