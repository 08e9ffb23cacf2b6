//! Rummy (seven-card rummy): two to eight players, one pack up to four and two packs shuffled
//! together from five. Each player is dealt seven cards; a turn is a draw (the stock's top card,
//! or the discard pile's), then any melds and lay-offs the player chooses (never forced), then a
//! discard. The first player rid of his cards goes out and ends the deal, scoring what the
//! others hold. Variants: the dealer turns up a card to start the pile, two jokers a pack (taken
//! back from a meld with the natural card they stand for), the ace high as well as low, lay-offs
//! on every meld, and deals to a target (shared/rules-notes.md).
//!
//! The melds are [`crate::meld`]'s; the stock and the pile are [`Piles`]. A card taken from the
//! pile was seen by everyone and stays public in the hand ([`Knowledge`]). When a turn ends with
//! the stock empty, the pile less its top card is shuffled into a new stock: the engine asks the
//! service for the order ([`Status::NeedsShuffle`]) and records it in `stock_rebuilt`, hidden
//! from all while the deal lasts.
//!
//! Legal moves list every three-card meld and each longest natural group and run, not every
//! subset of the hand (see [`crate::meld::melds_in`]): any longer meld is reached by laying the
//! rest off on a three-card one, so no play is lost. `decide` accepts every meld.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, is_permutation, take_card, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Status, Viewer};
use crate::knowledge::Knowledge;
use crate::meld::{self, is_joker, End, Fault, Kind, Meld, MeldRules};
use crate::pile::Piles;
use crate::random::Rng;
use crate::rules::{core, RuleViolation, ScoreTerm, Text};
use crate::seat::{Seat, Table as Seating};

#[derive(Default)]
pub struct Rummy;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 8;
/// Cards dealt to each player.
pub const HAND: usize = 7;
/// Turns a deal may last before it is stopped (house rule): a pile passed back and forth, or
/// hands that never meld, would otherwise never end.
pub const TURN_LIMIT: u32 = 300;
/// The most a target may be.
pub const MAX_TARGET: u32 = 10_000;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const PACKS: &str = "rummy.pack.packs";
    pub const DRAW_FIRST: &str = "rummy.turn.draw-first";
    pub const ONE_DRAW: &str = "rummy.turn.one-draw";
    pub const STOCK: &str = "rummy.turn.stock";
    pub const PILE: &str = "rummy.turn.pile";
    pub const GROUP: &str = "rummy.meld.group";
    pub const RUN: &str = "rummy.meld.run";
    pub const ACE: &str = "rummy.meld.ace";
    pub const LAY_OFF_OWN: &str = "rummy.lay-off.own";
    pub const LAY_OFF_FIT: &str = "rummy.lay-off.fit";
    pub const JOKER_STEAL: &str = "rummy.variant.joker-steal";
    pub const OUT: &str = "rummy.end.out";
    pub const COUNT: &str = "rummy.end.count";
    pub const ONE_NATURAL: &str = "rummy.house.one-natural";
    pub const TURN_LIMIT: &str = "rummy.house.turn-limit";
    pub const TARGET: &str = "rummy.house.target";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = RummyOptions))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The dealer turns up the stock's top card to start the pile, so forehand may take it.
    pub turn_up: bool,
    /// Two jokers a pack, standing for any card in a meld and worth 15 in a hand.
    pub jokers: bool,
    /// The ace may stand above the king in a run (Q-K-A) as well as below the two, and counts
    /// 11 in a hand.
    pub ace_high: bool,
    /// A player may lay off on every meld on the table, not only on his own.
    pub lay_off_anywhere: bool,
    /// 0: a match is one deal. Otherwise deals are played until a player's score reaches this.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 10000))]
    pub target: u32,
}

impl Options {
    fn meld_rules(&self) -> MeldRules {
        MeldRules { ace_high: self.ace_high }
    }
}

/// Packs shuffled together at a table of `players`.
pub fn packs(players: usize) -> usize {
    if players >= 5 {
        2
    } else {
        1
    }
}

/// The cards dealt from: one or two standard packs, each with two jokers (`JK1`, `JK2`) in the
/// jokers variant.
pub fn pack(players: usize, options: &Options) -> Vec<Card> {
    let mut one = decks::standard52();
    if options.jokers {
        one = decks::with_jokers(one, &[Card::Joker(1), Card::Joker(2)]);
    }
    match packs(players) {
        2 => decks::double(&one),
        _ => one,
    }
}

/// What a card left in a hand counts: the ace 1 (11 where it may be high), number cards their
/// value, court cards 10, a joker 15.
pub fn card_points(card: Card, ace_high: bool) -> i64 {
    match card.rank().map(|r| r.value()) {
        Some(14) if ace_high => 11,
        Some(14) => 1,
        Some(v) if v >= 11 => 10,
        Some(v) => i64::from(v),
        None => 15,
    }
}

pub fn hand_points(hand: &[Card], ace_high: bool) -> i64 {
    hand.iter().map(|&c| card_points(c, ace_high)).sum()
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal`, `rebuilding-stock` (the pile is being shuffled into
/// a new stock), `drawing` (the player to act draws), `melding` (he has drawn: melds, lay-offs,
/// then a discard), `deal-over` and `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = RummyPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    RebuildingStock,
    Drawing,
    Melding,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// A meld on the table and the player it lies in front of.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Laid {
    pub owner: Seat,
    pub meld: Meld,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    forehand: Seat,
    deck: Vec<Card>,
    hands: Vec<Vec<Card>>,
    /// Cards taken from the pile (and jokers taken from melds), public in their hands.
    knowledge: Knowledge,
    piles: Piles,
    melds: Vec<Laid>,
    turn: Seat,
    /// The player to act has drawn this turn.
    drawn: bool,
    /// Turns ended with a discard.
    turns: u32,
    went_out: Option<Seat>,
    /// Who won the deal, once it is scored.
    winner: Option<Seat>,
    /// Stopped at the turn limit.
    stopped: bool,
    scored: bool,
}

impl Deal {
    fn players(&self) -> usize {
        self.hands.len()
    }

    fn over(&self) -> bool {
        self.went_out.is_some() || self.stopped
    }

    /// The pile's cards under its top, to be shuffled into a new stock before the next draw.
    fn rebuild_due(&self) -> Option<Vec<Card>> {
        (!self.over() && !self.drawn).then(|| self.piles.to_shuffle()).flatten()
    }

    /// Whether `seat` may lay off on the meld at `index`.
    fn may_lay_off(&self, seat: Seat, index: usize, anywhere: bool) -> bool {
        anywhere || self.melds[index].owner == seat
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.over() || self.rebuild_due().is_some() {
            Vec::new()
        } else {
            vec![self.turn]
        }
    }

    fn is_live(&self) -> bool {
        !self.over()
    }

    fn phase(&self) -> Phase {
        if self.over() {
            Phase::DealOver
        } else if self.rebuild_due().is_some() {
            Phase::RebuildingStock
        } else if self.drawn {
            Phase::Melding
        } else {
            Phase::Drawing
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    players: usize,
    options: Options,
    deals: Deals<Deal>,
    /// New stocks shuffled from the pile in this match: with the deals, the shuffles supplied
    /// orders are taken for.
    rebuilds: u32,
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = RummyCommand))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Draw the stock's top card.
    DrawStock,
    /// Take the discard pile's top card.
    TakeDiscard,
    /// Lay down a meld of `kind` from the hand; a run's cards from its lowest place up, a joker
    /// standing for the card of its place.
    Meld { kind: Kind, cards: Vec<Card> },
    /// Lay `card` off on the meld at index `meld` of the table's melds; `end` says which end of a
    /// run where the card could go at either (a joker), and is left out otherwise.
    LayOff {
        meld: usize,
        card: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "openapi", schema(nullable = false))]
        end: Option<End>,
    },
    /// Take a joker back from the meld at index `meld`, putting `card`, the natural card it
    /// stands for, in its place.
    TakeJoker { meld: usize, card: Card },
    /// Discard `card` face up on the pile, ending the turn.
    Discard { card: Card },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = RummyEvent))]
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
        /// By seat, the seven cards dealt.
        hands: Vec<Vec<Card>>,
        /// The card turned up to start the pile (the `turn_up` variant).
        upcard: Option<Card>,
        options: Options,
    },
    /// `seat` drew the stock's top card: seen by him alone while the deal lasts.
    DrewFromStock {
        seat: Seat,
        card: Card,
    },
    /// `seat` took the pile's top card, in everyone's sight.
    TookDiscard {
        seat: Seat,
        card: Card,
    },
    /// `seat` laid down a meld, now at index `index` of the table's melds.
    Melded {
        seat: Seat,
        index: usize,
        meld: Meld,
    },
    /// `seat` laid `card` off at the `end` of the meld at `index` (a group's cards go last).
    LaidOff {
        seat: Seat,
        index: usize,
        card: Card,
        end: End,
    },
    /// `seat` put `card` in a meld in place of the joker that stood for it and took the joker.
    JokerTaken {
        seat: Seat,
        index: usize,
        card: Card,
        joker: Card,
    },
    /// `seat` discarded `card` on the pile, ending his turn.
    Discarded {
        seat: Seat,
        card: Card,
    },
    /// The pile less its top card became the stock in this order (top card first): hidden from
    /// everyone while the deal lasts.
    StockRebuilt {
        order: Vec<Card>,
    },
    /// `seat` is rid of his last card and the deal is over.
    WentOut {
        seat: Seat,
    },
    /// The deal reached the turn limit without anyone going out (house rule).
    DealStopped {
        turns: u32,
    },
    DealScored {
        deal_number: u32,
        /// The player who went out, or who held the least when the deal was stopped.
        winner: Seat,
        went_out: bool,
        /// By seat, the cards left in hand, shown for the count.
        hands: Vec<Vec<Card>>,
        /// By seat, what those cards count.
        counts: Vec<i64>,
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
    let forehand = seating.forehand(dealer);
    let mut hands = vec![Vec::new(); n];
    for (i, &card) in deck.iter().take(HAND * n).enumerate() {
        hands[seating.after(forehand, i)].push(card);
    }
    let upcard = state.options.turn_up.then(|| deck[HAND * n]);
    Event::DealStarted {
        deal_number: state.deals.number + 1,
        dealer,
        forehand,
        deck,
        hands,
        upcard,
        options: state.options.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Legal moves

fn legal(state: &State, deal: &Deal, seat: Seat) -> Vec<Command> {
    if !deal.drawn {
        let mut moves = Vec::new();
        if deal.piles.can_draw() {
            moves.push(Command::DrawStock);
        }
        if deal.piles.top().is_some() {
            moves.push(Command::TakeDiscard);
        }
        return moves;
    }
    let rules = state.options.meld_rules();
    let hand = &deal.hands[seat];
    let mut moves: Vec<Command> =
        meld::melds_in(hand, rules).into_iter().map(|(kind, cards)| Command::Meld { kind, cards }).collect();
    for (index, laid) in deal.melds.iter().enumerate() {
        if deal.may_lay_off(seat, index, state.options.lay_off_anywhere) {
            moves.extend(meld::lay_offs(&laid.meld, hand, rules).into_iter().map(|(card, end)| Command::LayOff {
                meld: index,
                card,
                end,
            }));
        }
        moves.extend(
            meld::joker_takes(&laid.meld, hand).into_iter().map(|card| Command::TakeJoker { meld: index, card }),
        );
    }
    let mut distinct = hand.clone();
    distinct.sort();
    distinct.dedup();
    moves.extend(distinct.into_iter().map(|card| Command::Discard { card }));
    moves
}

// ---------------------------------------------------------------------------------------------
// Decide

fn fault(f: Fault, kind: Kind) -> RuleViolation {
    let rule = match f {
        Fault::NoNatural => rule::ONE_NATURAL,
        Fault::PastTheAce => rule::ACE,
        Fault::DoesNotFit | Fault::EndNeeded | Fault::EndNotWanted => rule::LAY_OFF_FIT,
        Fault::NoSuchJoker => rule::JOKER_STEAL,
        _ if kind == Kind::Group => rule::GROUP,
        _ => rule::RUN,
    };
    let (sv, en) = f.text();
    RuleViolation::new(rule, sv, en)
}

fn no_meld(index: usize, count: usize) -> RuleViolation {
    RuleViolation::new(
        rule::LAY_OFF_FIT,
        format!("Det finns ingen kombination nummer {index} på bordet (det ligger {count})."),
        format!("There is no meld number {index} on the table (there are {count})."),
    )
}

fn held(deal: &Deal, seat: Seat, cards: &[Card]) -> Result<(), RuleViolation> {
    let mut rest = deal.hands[seat].clone();
    match cards.iter().find(|&&c| !take_card(&mut rest, c)) {
        Some(&c) => Err(RuleViolation::card_not_held(c)),
        None => Ok(()),
    }
}

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let rules = state.options.meld_rules();
    let drawing = matches!(command, Command::DrawStock | Command::TakeDiscard);
    if drawing && deal.drawn {
        return Err(RuleViolation::new(
            rule::ONE_DRAW,
            "Du har redan tagit ett kort den här turen.",
            "You have already drawn a card this turn.",
        ));
    }
    if !drawing && !deal.drawn {
        return Err(RuleViolation::new(
            rule::DRAW_FIRST,
            "Turen börjar med att ta ett kort, från talongen eller högen.",
            "A turn begins by drawing a card, from the stock or the pile.",
        ));
    }
    let event = match command {
        Command::DrawStock => {
            let card = deal.piles.talon.first().copied().ok_or_else(|| {
                RuleViolation::new(
                    rule::STOCK,
                    "Talongen är tom och kan inte byggas upp igen: ta högens översta kort.",
                    "The stock is empty and cannot be rebuilt: take the pile's top card.",
                )
            })?;
            Event::DrewFromStock { seat, card }
        }
        Command::TakeDiscard => {
            let card = deal.piles.top().ok_or_else(|| {
                RuleViolation::new(
                    rule::PILE,
                    "Högen är tom: dra från talongen.",
                    "The pile is empty: draw from the stock.",
                )
            })?;
            Event::TookDiscard { seat, card }
        }
        Command::Meld { kind, cards } => {
            held(deal, seat, cards)?;
            let meld = meld::read(*kind, cards, rules).map_err(|f| fault(f, *kind))?;
            Event::Melded { seat, index: deal.melds.len(), meld }
        }
        Command::LayOff { meld, card, end } => {
            let laid = deal.melds.get(*meld).ok_or_else(|| no_meld(*meld, deal.melds.len()))?;
            if !deal.may_lay_off(seat, *meld, state.options.lay_off_anywhere) {
                return Err(RuleViolation::new(
                    rule::LAY_OFF_OWN,
                    format!("Kombination {meld} ligger framför plats {}: man bygger bara på sina egna.", laid.owner),
                    format!("Meld {meld} lies in front of seat {}: one lays off only on one's own.", laid.owner),
                ));
            }
            held(deal, seat, &[*card])?;
            laid.meld.lay_off(*card, *end, rules).map_err(|f| fault(f, laid.meld.kind()))?;
            let at = end.or_else(|| laid.meld.ends_for(*card, rules).first().copied()).unwrap_or(End::High);
            Event::LaidOff { seat, index: *meld, card: *card, end: at }
        }
        Command::TakeJoker { meld, card } => {
            let laid = deal.melds.get(*meld).ok_or_else(|| no_meld(*meld, deal.melds.len()))?;
            held(deal, seat, &[*card])?;
            let (_, joker) = laid.meld.take_joker(*card).map_err(|f| fault(f, laid.meld.kind()))?;
            Event::JokerTaken { seat, index: *meld, card: *card, joker }
        }
        Command::Discard { card } => {
            held(deal, seat, &[*card])?;
            Event::Discarded { seat, card: *card }
        }
    };
    Ok(run(state, vec![event]))
}

fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

/// The next automatic step: a player rid of his cards goes out, a deal at the turn limit is
/// stopped, a deal over is scored, and a match decided ends.
fn next_step(state: &State) -> Option<Event> {
    let deal = state.deals.deal.as_ref().filter(|_| state.deals.outcome.is_none())?;
    if deal.over() {
        if !deal.scored {
            return Some(score(state, deal));
        }
        return match_end(state);
    }
    if let Some(seat) = (0..deal.players()).find(|&s| deal.hands[s].is_empty()) {
        return Some(Event::WentOut { seat });
    }
    (deal.turns >= TURN_LIMIT && !deal.drawn).then_some(Event::DealStopped { turns: deal.turns })
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted { deal_number, dealer, forehand, deck, hands, upcard, options } => {
            let n = hands.len();
            state.players = n;
            state.options = options.clone();
            state.deals.next_dealer = (dealer + 1) % n;
            let piles = Piles::after_dealing(deck, HAND * n, upcard.is_some());
            let deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                forehand: *forehand,
                deck: deck.clone(),
                hands: hands.clone(),
                knowledge: Knowledge::of_hands(n),
                piles,
                melds: Vec::new(),
                turn: *forehand,
                drawn: false,
                turns: 0,
                went_out: None,
                winner: None,
                stopped: false,
                scored: false,
            };
            let scores = if state.deals.scores.len() == n { state.deals.scores.clone() } else { vec![0; n] };
            state.deals.started(*deal_number, &scores, deal);
        }
        Event::DealScored { terms, scores, winner, .. } => {
            state.deals.scored(terms, scores);
            if let Some(deal) = state.deals.deal.as_mut() {
                deal.scored = true;
                deal.winner = Some(*winner);
            }
        }
        Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
        Event::StockRebuilt { order } => {
            state.rebuilds += 1;
            if let Some(deal) = state.deals.deal.as_mut() {
                // Replayed from a log, the order was checked when it was first supplied.
                let _ = deal.piles.turn(order);
            }
        }
        _ => {
            let Some(deal) = state.deals.deal.as_mut() else { return };
            match event {
                Event::DrewFromStock { seat, .. } => {
                    if let Some(card) = deal.piles.draw() {
                        deal.hands[*seat].push(card);
                    }
                    deal.drawn = true;
                }
                Event::TookDiscard { seat, .. } => {
                    if let Some(card) = deal.piles.take_top() {
                        deal.hands[*seat].push(card);
                        deal.knowledge.shown_to_all(*seat, &[card]);
                    }
                    deal.drawn = true;
                }
                Event::Melded { seat, meld, .. } => {
                    for &c in meld.cards() {
                        take_card(&mut deal.hands[*seat], c);
                        deal.knowledge.left(*seat, c);
                    }
                    deal.melds.push(Laid { owner: *seat, meld: meld.clone() });
                }
                Event::LaidOff { seat, index, card, end } => {
                    take_card(&mut deal.hands[*seat], *card);
                    deal.knowledge.left(*seat, *card);
                    if let Some(laid) = deal.melds.get_mut(*index) {
                        let meld = &mut laid.meld;
                        match (meld, end) {
                            (Meld::Run { low, cards, .. }, End::Low) => {
                                cards.insert(0, *card);
                                *low -= 1;
                            }
                            (Meld::Run { cards, .. } | Meld::Group { cards, .. }, _) => cards.push(*card),
                        }
                    }
                }
                Event::JokerTaken { seat, index, card, joker } => {
                    take_card(&mut deal.hands[*seat], *card);
                    deal.knowledge.left(*seat, *card);
                    if let Some(laid) = deal.melds.get_mut(*index) {
                        if let Ok((after, _)) = laid.meld.take_joker(*card) {
                            laid.meld = after;
                        }
                    }
                    deal.hands[*seat].push(*joker);
                    deal.knowledge.shown_to_all(*seat, &[*joker]);
                }
                Event::Discarded { seat, card } => {
                    take_card(&mut deal.hands[*seat], *card);
                    deal.knowledge.left(*seat, *card);
                    deal.piles.lay(&[*card]);
                    deal.turns += 1;
                    deal.drawn = false;
                    deal.turn = (seat + 1) % deal.players();
                }
                Event::WentOut { seat } => deal.went_out = Some(*seat),
                Event::DealStopped { .. } => deal.stopped = true,
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// The player who went out, or at the turn limit the one holding the least (the first of them
/// from forehand on), scores what every other hand counts; the others score nothing.
fn score(state: &State, deal: &Deal) -> Event {
    let ace_high = state.options.ace_high;
    let counts: Vec<i64> = deal.hands.iter().map(|h| hand_points(h, ace_high)).collect();
    let seating = Seating::new(state.players);
    let winner = deal.went_out.unwrap_or_else(|| {
        let order = seating.order_from(deal.forehand);
        let least = order.iter().map(|&s| counts[s]).min().unwrap_or(0);
        order.into_iter().find(|&s| counts[s] == least).unwrap_or(deal.forehand)
    });
    let (rule_id, how_sv, how_en) = match deal.went_out {
        Some(_) => (rule::COUNT, "gick ut", "went out"),
        None => (rule::TURN_LIMIT, "hade minst kvar när given stoppades", "held the least when the deal was stopped"),
    };
    let mut terms = vec![ScoreTerm::new(
        winner,
        0,
        if deal.went_out.is_some() { rule::OUT } else { rule::TURN_LIMIT },
        format!("Plats {winner} {how_sv}."),
        format!("Seat {winner} {how_en}."),
    )];
    for s in seating.order_from(winner).into_iter().skip(1) {
        let held = crate::cards::codes(&deal.hands[s]);
        terms.push(ScoreTerm::new(
            winner,
            counts[s],
            rule_id,
            format!("Plats {s} har kvar {held} på handen, värt {}.", counts[s]),
            format!("Seat {s} holds {held}, worth {}.", counts[s]),
        ));
    }
    let mut scores = state.deals.scores.clone();
    terms.iter().for_each(|t| scores[t.to] += t.points);
    Event::DealScored {
        deal_number: deal.number,
        winner,
        went_out: deal.went_out.is_some(),
        hands: deal.hands.clone(),
        counts,
        terms,
        scores,
    }
}

/// A one-deal match is won by the deal's winner; with a target, by the first to reach it (only
/// the winner scores in a deal, so one reaches it at a time).
fn match_end(state: &State) -> Option<Event> {
    let scores = state.deals.scores.clone();
    let target = i64::from(state.options.target);
    let deal = state.deals.deal.as_ref()?;
    let mut best = (0..state.players).max_by_key(|&s| (scores[s], std::cmp::Reverse(s)))?;
    let explanation = if target == 0 {
        let winner = deal.winner?;
        best = winner;
        let how = if deal.went_out.is_some() { ("gick ut", "went out") } else { ("hade minst kvar", "held the least") };
        Text::new(
            format!("Plats {winner} {} och vann med {} poäng.", how.0, scores[winner]),
            format!("Seat {winner} {} and won with {} points.", how.1, scores[winner]),
        )
    } else if scores[best] >= target {
        Text::new(
            format!("Plats {best} nådde {} poäng, minst målet {target}, och vann partiet.", scores[best]),
            format!("Seat {best} reached {} points, at least the target of {target}, and won the match.", scores[best]),
        )
    } else {
        return None;
    };
    Some(Event::MatchEnded { winners: vec![best], scores, explanation })
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, whose turn it is and whether he has drawn, the
/// hands' sizes, the stock's size, the pile (face up, every card public), the melds in front of
/// each player, the cards everyone knows to be in the other hands (taken from the pile), and
/// the viewer's own hand. Once the deal is over every hand is shown for the count.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = RummyTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    #[serde(flatten)]
    pub deals: MatchView,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seat whose turn it is: absent once the deal is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turn: Option<Seat>,
    /// Whether the player whose turn it is has drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub drawn: Option<bool>,
    /// Turns ended so far in the deal (the house turn limit is 300).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub turns: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub stock_size: Option<usize>,
    /// The discard pile, bottom card first, its top card last.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile: Option<Vec<Card>>,
    /// The melds on the table in the order laid (a command names one by its index), each with
    /// the player it lies in front of.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub melds: Option<Vec<Laid>>,
    /// By seat, the cards everyone knows to be in that hand (taken from the pile, or a joker
    /// taken from a meld); the viewer's own hand left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub known_cards: Option<Vec<Vec<Card>>>,
    /// The player who went out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub went_out: Option<Seat>,
    /// Every hand: once the deal is over, or in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// The pack as it was dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// The viewer's own hand: only in a seat's view while the deal lasts.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let me = viewer.seat_at(state.players);
    let deal = state.deals.deal.as_ref();
    let playing = deal.filter(|d| !d.over());
    let shown = deal.filter(|d| d.over() || viewer == Viewer::Record);
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        forehand: deal.map(|d| d.forehand),
        turn: playing.map(|d| d.turn),
        drawn: playing.map(|d| d.drawn),
        turns: deal.map(|d| d.turns),
        hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
        stock_size: deal.map(|d| d.piles.talon.len()),
        pile: deal.map(|d| d.piles.pile.clone()),
        melds: deal.map(|d| d.melds.clone()),
        known_cards: playing.map(|d| d.knowledge.public_hands(me)),
        went_out: deal.and_then(|d| d.went_out),
        hands: shown.map(|d| d.hands.clone()),
        deck: shown.filter(|d| d.over() && viewer == Viewer::Record).map(|d| d.deck.clone()),
        hand: playing.zip(me).map(|(d, s)| d.hands[s].clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// Whether `card` lays off on a meld that `seat` may lay off on.
fn lays_off(state: &State, deal: &Deal, seat: Seat, card: Card) -> bool {
    let rules = state.options.meld_rules();
    deal.melds.iter().enumerate().any(|(i, laid)| {
        deal.may_lay_off(seat, i, state.options.lay_off_anywhere) && !laid.meld.ends_for(card, rules).is_empty()
    })
}

/// Whether `card` fits a meld the next player may lay off on.
fn feeds_next(state: &State, deal: &Deal, seat: Seat, card: Card) -> bool {
    lays_off(state, deal, (seat + 1) % deal.players(), card)
}

/// The basic bot: takes the pile's top card when it makes a meld or lays off, else draws;
/// lays every meld it can (the longest first), lays off every natural card it can, takes back
/// any joker it can, and discards its highest card (never a joker while it holds another).
fn basic_choice(state: &State, deal: &Deal, seat: Seat) -> Option<Command> {
    let rules = state.options.meld_rules();
    let hand = &deal.hands[seat];
    let anywhere = state.options.lay_off_anywhere;
    if !deal.drawn {
        let take =
            deal.piles.top().is_some_and(|top| meld::makes_meld(hand, top, rules) || lays_off(state, deal, seat, top));
        return Some(if take || !deal.piles.can_draw() { Command::TakeDiscard } else { Command::DrawStock });
    }
    if let Some((kind, cards)) = meld::melds_in(hand, rules).into_iter().max_by_key(|(_, c)| c.len()) {
        return Some(Command::Meld { kind, cards });
    }
    let only_jokers = hand.iter().all(|&c| is_joker(c));
    for (index, laid) in deal.melds.iter().enumerate() {
        if let Some(&card) = meld::joker_takes(&laid.meld, hand).first() {
            return Some(Command::TakeJoker { meld: index, card });
        }
        if deal.may_lay_off(seat, index, anywhere) {
            if let Some(&(card, end)) =
                meld::lay_offs(&laid.meld, hand, rules).iter().find(|(c, _)| only_jokers || !is_joker(*c))
            {
                return Some(Command::LayOff { meld: index, card, end });
            }
        }
    }
    let card = hand
        .iter()
        .copied()
        .max_by_key(|&c| (!is_joker(c) || only_jokers, card_points(c, state.options.ace_high), std::cmp::Reverse(c)))?;
    Some(Command::Discard { card })
}

/// Every card `seat` has not seen, a copy for each copy: the other hands' unseen cards and the
/// stock.
fn unseen(state: &State, deal: &Deal, seat: Seat) -> Option<Vec<Card>> {
    let mut unseen = pack(state.players, &state.options);
    let seen = deal.hands[seat]
        .iter()
        .chain(&deal.piles.pile)
        .chain(deal.melds.iter().flat_map(|l| l.meld.cards()))
        .copied()
        .chain((0..state.players).filter(|&s| s != seat).flat_map(|s| deal.knowledge.public_in(s)));
    for c in seen {
        if !take_card(&mut unseen, c) {
            return None;
        }
    }
    Some(unseen)
}

/// The cards `seat` has not seen, each distinct card with its copies, and whether it lays off
/// on a meld `seat` may lay off on.
struct Outs {
    cards: Vec<(Card, usize, bool)>,
}

impl Outs {
    fn new(state: &State, deal: &Deal, seat: Seat) -> Outs {
        let mut unseen = unseen(state, deal, seat).unwrap_or_default();
        unseen.sort();
        let mut cards: Vec<(Card, usize, bool)> = Vec::new();
        for c in unseen {
            match cards.last_mut() {
                Some((last, n, _)) if *last == c => *n += 1,
                _ => cards.push((c, 1, lays_off(state, deal, seat, c))),
            }
        }
        Outs { cards }
    }

    /// How many unseen cards would let `hand` lay something down on the next draw: a card that
    /// makes a meld with two of it, or lays off.
    fn of(&self, hand: &[Card], rules: MeldRules) -> usize {
        self.cards.iter().filter(|&&(c, _, lays)| lays || meld::makes_meld(hand, c, rules)).map(|&(_, n, _)| n).sum()
    }
}

fn without(hand: &[Card], card: Card) -> Vec<Card> {
    let mut rest = hand.to_vec();
    take_card(&mut rest, card);
    rest
}

/// The strong bot's rule of thumb, a race to go out: it keeps the hand that the most unseen
/// cards would let lay something down (its outs). It takes the pile's top card when that makes
/// a meld or lays off, or when keeping it leaves clearly more outs than the hand has now; it
/// lays what the basic bot lays; and it discards first what does not fit the next player's
/// melds, then what leaves the most outs, then the highest. A short search weighs the pile's
/// card against the stock's when they are close, and the three best discards.
fn strong_candidates(state: &State, deal: &Deal, seat: Seat) -> Vec<Command> {
    let rules = state.options.meld_rules();
    let hand = &deal.hands[seat];
    let ace_high = state.options.ace_high;
    if !deal.drawn {
        if !deal.piles.can_draw() {
            return vec![Command::TakeDiscard];
        }
        let Some(top) = deal.piles.top() else { return vec![Command::DrawStock] };
        if basic_choice(state, deal, seat) == Some(Command::TakeDiscard) {
            return vec![Command::TakeDiscard, Command::DrawStock];
        }
        let outs = Outs::new(state, deal, seat);
        let with: Vec<Card> = hand.iter().copied().chain([top]).collect();
        let kept = hand.iter().map(|&c| outs.of(&without(&with, c), rules)).max().unwrap_or(0);
        let now = outs.of(hand, rules);
        return if kept >= now + TAKE_MARGIN {
            vec![Command::TakeDiscard, Command::DrawStock]
        } else if kept + TAKE_MARGIN > now {
            vec![Command::DrawStock, Command::TakeDiscard]
        } else {
            vec![Command::DrawStock]
        };
    }
    match basic_choice(state, deal, seat) {
        Some(Command::Discard { .. }) | None => {}
        Some(lay) => return vec![lay],
    }
    let outs = Outs::new(state, deal, seat);
    let mut discards: Vec<Card> = hand.clone();
    discards.sort();
    discards.dedup();
    discards.sort_by_cached_key(|&c| {
        let outs = outs.of(&without(hand, c), rules);
        (feeds_next(state, deal, seat, c), std::cmp::Reverse(outs), std::cmp::Reverse(card_points(c, ace_high)), c)
    });
    discards.into_iter().take(3).map(|card| Command::Discard { card }).collect()
}

/// How many more outs the pile's card must leave than the hand has now for the rule of thumb to
/// take it: a stock card may bring outs too.
const TAKE_MARGIN: usize = 3;

/// The deal as `seat` knows it on its turn: its hand, the melds, the pile and the cards known
/// in other hands stay; every other card (the other hands' unseen cards and the stock) is dealt
/// afresh from the cards it has not seen.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    if deal.turn != seat {
        return None;
    }
    let mut unseen = unseen(state, deal, seat)?;
    let public: Vec<Vec<Card>> = (0..state.players).map(|s| deal.knowledge.public_in(s)).collect();
    rng.shuffle(&mut unseen);
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    let mut fresh = unseen.into_iter();
    for s in (0..state.players).filter(|&s| s != seat) {
        let size = w.hands[s].len();
        let mut hand = public[s].clone();
        while hand.len() < size {
            hand.push(fresh.next()?);
        }
        w.hands[s] = hand;
    }
    let stock = w.piles.talon.len();
    w.piles.talon = fresh.by_ref().take(stock).collect();
    (w.piles.talon.len() == stock && fresh.next().is_none()).then_some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Rummy {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "rummy";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/rummy.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options { turn_up: true, jokers: true, ace_high: true, ..Options::default() },
            Options { jokers: true, lay_off_anywhere: true, target: 20, ..Options::default() },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if options.target > MAX_TARGET {
            return Err(SetupError(format!("the target is at most {MAX_TARGET}, not {}", options.target)));
        }
        Ok(State { players, options, deals: Deals::new(players), rebuilds: 0 })
    }

    fn status(&self, state: &State) -> Status {
        match state.deals.live().and_then(Deal::rebuild_due) {
            Some(cards) if state.deals.outcome.is_none() => Status::NeedsShuffle { cards },
            _ => state.deals.status(|| pack(state.players, &state.options)),
        }
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals.number
    }

    fn shuffles(&self, state: &State) -> u32 {
        state.deals.number + state.rebuilds
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(run(state, vec![deal_started(state, deck)]))
    }

    fn reshuffle(&self, state: &State, order: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let Some(cards) = state.deals.live().and_then(Deal::rebuild_due) else {
            return Err(RuleViolation::wrong_phase("ingen ny talong behövs", "no new stock is due"));
        };
        if !is_permutation(&order, &cards) {
            return Err(RuleViolation::new(
                core::DECK,
                format!("Ordningen måste bestå av exakt de {} korten under högens översta.", cards.len()),
                format!("The order must hold exactly the {} cards under the pile's top.", cards.len()),
            ));
        }
        Ok(vec![Event::StockRebuilt { order }])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        legal(state, deal, seat)
    }

    /// The legal moves, the draw the phase does not allow, a discard before the draw, too short
    /// a meld, and every card of the hand laid off on every meld (its end left out).
    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let mut moves = legal(state, deal, seat);
        moves.extend([Command::DrawStock, Command::TakeDiscard]);
        let hand = &deal.hands[seat];
        if let Some(&card) = hand.first() {
            moves.push(Command::Discard { card });
            moves.push(Command::Meld { kind: Kind::Group, cards: hand.iter().take(2).copied().collect() });
            moves.push(Command::LayOff { meld: deal.melds.len(), card, end: None });
        }
        for meld in 0..deal.melds.len() {
            for &card in hand {
                moves.push(Command::LayOff { meld, card, end: None });
                moves.push(Command::TakeJoker { meld, card });
            }
        }
        moves
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
            Event::DrewFromStock { seat, .. } if viewer != Viewer::Seat(*seat) && in_play(state.deals.number) => {
                full["card"] = Value::Null;
            }
            Event::StockRebuilt { order } if in_play(state.deals.number) => deals::blank(&mut full, "order", order),
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let mut secrets = deal.knowledge.hand_secrets(&deal.hands);
        secrets.extend(deal.piles.talon_secrets());
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = pack(state.players, &state.options);
        deals::check_deck(&deal.deck, &pack)?;
        let mut elsewhere = deal.hands.concat();
        elsewhere.extend(deal.melds.iter().flat_map(|l| l.meld.cards().iter().copied()));
        deal.piles.check(&elsewhere, &pack)?;
        deal.knowledge.check(&deal.hands.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
        let rules = state.options.meld_rules();
        for laid in &deal.melds {
            let read = meld::read(laid.meld.kind(), laid.meld.cards(), rules);
            crate::ensure!(read.as_ref() == Ok(&laid.meld), "meld {:?} reads as {read:?}", laid.meld);
        }
        crate::ensure!(deal.turns <= TURN_LIMIT, "{} turns past the limit", deal.turns);
        if let Some(s) = deal.went_out {
            crate::ensure!(deal.hands[s].is_empty(), "seat {s} went out holding {:?}", deal.hands[s]);
        }
        if let Some(outcome) = &state.deals.outcome {
            let target = i64::from(state.options.target);
            let w = outcome.winners[0];
            crate::ensure!(target == 0 || state.deals.scores[w] >= target, "seat {w} won below the target");
        }
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic_choice(state, state.deals.acting(seat)?, seat)
    }

    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        match state.deals.acting(seat) {
            Some(deal) => strong_candidates(state, deal, seat),
            None => Vec::new(),
        }
    }

    /// A playout is a whole deal of draws and discards, about a millisecond: at 120 playouts
    /// (8 to 40 worlds) a decision's p99 was 109 ms of CPU, so the search gets 16.
    fn strong_budget(&self) -> bots::Budget {
        bots::Budget { playouts: 16, min_samples: 4, max_samples: 8 }
    }

    /// The rule of thumb's own choice, kept unless the search finds better beyond doubt: a deal
    /// turns so much on the draw that a few tens of worlds mostly measure luck.
    fn strong_anchor(&self, state: &State, seat: Seat) -> Option<Command> {
        self.bot_candidates(state, seat).into_iter().next()
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bots::lead_over_mean(state.players, |s| state.deals.scores.get(s).copied().unwrap_or(0) as f64, seat)
    }
}

#[cfg(test)]
mod tests;
