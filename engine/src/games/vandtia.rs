//! Vändtia (Palace, "Spanish skitgubbe"): three face-down table cards that nobody sees, not even
//! their owner, three face-up cards on them and three cards in hand. In a set-up played by every
//! seat at once a player swaps hand cards with his own face-up cards, then lays hand cards on the
//! opponents' face-up cards of the same rank. Then each lays cards of one rank at least as high
//! as the pile's top card, refilling the hand to three from the talon; a ten goes on anything and
//! burns the pile, so do four of a rank in a row, and a two goes on anything and lets its player
//! lay again. A player with nothing that goes takes a chance from the talon or picks the pile
//! up. With the hand and the talon empty the face-up cards are played, then the face-down ones
//! blind. The first player rid of every card wins.
//!
//! The talon, the pile and the burnt cards are a [`Piles`]. The `climb` toolkit does not fit:
//! a play here need not match the count of the last one, and equal ranks go on each other.
//! Hand cards that every seat has seen (taken from the face-up cards or picked up with the pile)
//! are public; a hand's other cards are its owner's, copy by copy (two packs from five players).

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bots;
use crate::cards::{decks, sort_hand, take_card, Card, Rank};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::knowledge::Knowledge;
use crate::pile::Piles;
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{Seat, Table as Seating};

#[derive(Default)]
pub struct Vandtia;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 8;
/// From this many players the game is played with two packs.
pub const TWO_PACKS_FROM: usize = 5;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const SWAP: &str = "vandtia.setup.swap";
    pub const LAY_ON: &str = "vandtia.setup.lay-on";
    pub const SAME_RANK: &str = "vandtia.play.same-rank";
    pub const HIGHER: &str = "vandtia.play.same-or-higher";
    pub const OPENING: &str = "vandtia.play.lowest-starts";
    pub const HAND_FIRST: &str = "vandtia.table.hand-first";
    pub const FACE_DOWN: &str = "vandtia.table.face-down";
    pub const CHANCE: &str = "vandtia.chance.talon";
    pub const PICK_UP: &str = "vandtia.chance.pick-up";
    pub const FIRST_OUT: &str = "vandtia.end.first-out";
    pub const PLACE: &str = "vandtia.variant.play-out";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Four cards face down, four face up and four in hand instead of three.
    pub four_cards: bool,
    /// Nobody goes out on a ten or a two: such a last card makes its player pick up the pile.
    pub no_out_on_ten_or_two: bool,
    /// A seven goes on anything, and the rank under it still counts.
    pub sevens_wild: bool,
    /// The others play on for the places once the first player is out.
    pub play_out: bool,
}

impl Options {
    fn size(&self) -> usize {
        if self.four_cards {
            4
        } else {
            3
        }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal`, the two set-up steps `swapping` and `laying`,
/// `playing`, `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = VandtiaPhase))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Swapping,
    Laying,
    Playing,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// Where a played card came from.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    Hand,
    FaceUp,
    FaceDown,
    /// Drawn from the talon on a chance.
    Talon,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    forehand: Seat,
    deck: Vec<Card>,
    hands: Vec<Vec<Card>>,
    face_up: Vec<Vec<Card>>,
    /// By seat, the face-down positions; a played one is empty.
    face_down: Vec<Vec<Option<Card>>>,
    /// The hand cards others have seen: a swapped-in face-up card, a picked-up pile.
    knowledge: Knowledge,
    piles: Piles,
    phase: Phase,
    /// By seat, done with the set-up step under way.
    done: Vec<bool>,
    to_play: Seat,
    /// The hands are filled after the set-up and the opener named.
    opened: bool,
    /// The rank the first play must be of.
    opening: Option<Rank>,
    /// The seat whose play is being followed up, and the rank it laid.
    settling: Option<(Seat, Rank)>,
    /// The blind card or chance being followed up did not go: the pile is picked up.
    missed: bool,
    /// Seats rid of every card, in the order they went out.
    out: Vec<Seat>,
    over: bool,
    scored: bool,
}

impl Deal {
    fn holds(&self, seat: Seat) -> bool {
        !self.hands[seat].is_empty()
            || !self.face_up[seat].is_empty()
            || self.face_down[seat].iter().any(Option::is_some)
    }

    /// The next seat after `seat` still holding cards.
    fn next_holding(&self, seat: Seat) -> Seat {
        let n = self.hands.len();
        (1..=n).map(|i| (seat + i) % n).find(|&s| self.holds(s)).unwrap_or(seat)
    }

    /// Where `seat` plays from now: the hand, else the face-up cards, else the face-down ones.
    fn source(&self, seat: Seat) -> Source {
        if !self.hands[seat].is_empty() {
            Source::Hand
        } else if !self.face_up[seat].is_empty() {
            Source::FaceUp
        } else {
            Source::FaceDown
        }
    }

    fn open_cards(&self, seat: Seat) -> &[Card] {
        match self.source(seat) {
            Source::Hand => &self.hands[seat],
            _ => &self.face_up[seat],
        }
    }

    fn face_down_cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.face_down.iter().flatten().flatten().copied()
    }

    /// `cards` leave `seat`'s hand.
    fn take_from_hand(&mut self, seat: Seat, cards: &[Card]) {
        for &c in cards {
            take_card(&mut self.hands[seat], c);
            self.knowledge.left(seat, c);
        }
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Swapping | Phase::Laying => (0..self.done.len()).filter(|&s| !self.done[s]).collect(),
            Phase::Playing if !self.over => vec![self.to_play],
            _ => Vec::new(),
        }
    }

    fn is_live(&self) -> bool {
        !self.over
    }

    fn phase(&self) -> Phase {
        if self.over {
            Phase::Finished
        } else {
            self.phase
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    players: usize,
    deals: Deals<Deal>,
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
    /// Set-up, first step: a hand card changes places with one of the player's face-up cards.
    Swap { hand: Card, face_up: Card },
    /// Set-up, second step: a hand card laid on an opponent's face-up card of the same rank.
    Lay { card: Card, on: Seat },
    /// Done with the set-up step under way.
    Done,
    /// Lay cards of one rank from the hand (or, with the hand empty, from the face-up cards).
    Play { cards: Vec<Card> },
    /// Turn up a face-down table card at a position and play it blind.
    PlayFaceDown { position: usize },
    /// Nothing in hand goes: turn up the talon's top card and play it if it goes.
    Chance,
    /// Nothing goes: take the whole pile into the hand.
    PickUp,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
        /// By seat, the face-down cards, nobody's to know while the deal lasts.
        face_down: Vec<Vec<Card>>,
        /// By seat, the face-up cards.
        face_up: Vec<Vec<Card>>,
        /// By seat, the hand.
        hands: Vec<Vec<Card>>,
        options: Options,
    },
    Swapped {
        seat: Seat,
        /// Now face up.
        hand: Card,
        /// Now in the hand, seen by all.
        face_up: Card,
    },
    LaidOn {
        seat: Seat,
        card: Card,
        on: Seat,
    },
    SaidDone {
        seat: Seat,
    },
    /// Cards drawn from the talon into a hand: seen only by that player while the deal lasts.
    Refilled {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// The play begins: `seat` holds the lowest hand card, and the first play is of its rank.
    Opened {
        seat: Seat,
        rank: u8,
    },
    /// Cards laid on the pile (a face-down card or a chance card whether it goes or not).
    LaidOut {
        seat: Seat,
        from: Source,
        cards: Vec<Card>,
        /// The position of a face-down card.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "openapi", schema(nullable = false))]
        position: Option<usize>,
    },
    /// A ten or four of a rank in a row: the pile is set aside.
    PileBurnt {
        seat: Seat,
        cards: Vec<Card>,
    },
    PileTaken {
        seat: Seat,
        cards: Vec<Card>,
    },
    WentOut {
        seat: Seat,
        place: usize,
    },
    DealScored {
        deal_number: u32,
        /// The finishing order as far as it was played.
        places: Vec<Seat>,
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

/// The face-down row first, then the face-up row, then the hands, one card at a time from the
/// dealer's left.
fn deal_started(state: &State, deck: Vec<Card>) -> Event {
    let n = state.players;
    let size = state.options.size();
    let seating = Seating::new(n);
    let dealer = state.deals.next_dealer;
    let rows: Vec<Vec<Vec<Card>>> =
        (0..3).map(|r| deals::deal_singly(&seating, dealer, &deck[r * size * n..(r + 1) * size * n])).collect();
    let mut hands = rows[2].clone();
    hands.iter_mut().for_each(|h| sort_hand(h));
    Event::DealStarted {
        deal_number: state.deals.number + 1,
        dealer,
        forehand: seating.forehand(dealer),
        face_down: rows[0].clone(),
        face_up: rows[1].clone(),
        hands,
        deck,
        options: state.options.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// The pile

fn rank(card: Card) -> Rank {
    card.rank().expect("a standard card")
}

/// Tens and twos go on anything (and sevens, where they are wild).
fn goes_anywhere(card: Card, options: &Options) -> bool {
    let r = rank(card);
    r == Rank::TEN || r == Rank::TWO || (options.sevens_wild && r == Rank::SEVEN)
}

/// The rank a play must reach: that of the top card, looking through wild sevens; none on an
/// empty pile or a two.
fn to_reach(pile: &[Card], options: &Options) -> Option<Rank> {
    let top = pile.iter().rev().find(|&&c| !(options.sevens_wild && rank(c) == Rank::SEVEN))?;
    (rank(*top) != Rank::TWO && rank(*top) != Rank::TEN).then(|| rank(*top))
}

fn fits(card: Card, pile: &[Card], options: &Options) -> bool {
    goes_anywhere(card, options) || to_reach(pile, options).is_none_or(|r| rank(card) >= r)
}

/// A ten, or the top four cards of one rank, burns the pile.
fn burns(pile: &[Card]) -> bool {
    let Some(&top) = pile.last() else { return false };
    rank(top) == Rank::TEN || pile.iter().rev().take_while(|&&c| rank(c) == rank(top)).count() >= 4
}

/// Order for who opens: 3 lowest up to the ace, then tens, then twos.
fn opening_order(r: Rank) -> u8 {
    match r {
        Rank::TEN => 15,
        Rank::TWO => 16,
        _ => r.value(),
    }
}

/// Every play of cards of one rank from `cards`, each multiset once (copies of one code counted).
fn plays(cards: &[Card]) -> Vec<Vec<Card>> {
    let mut codes: Vec<(Card, usize)> = Vec::new();
    for &c in cards {
        match codes.iter_mut().find(|(k, _)| *k == c) {
            Some((_, n)) => *n += 1,
            None => codes.push((c, 1)),
        }
    }
    codes.sort();
    let mut out = Vec::new();
    let mut ranks: Vec<Rank> = codes.iter().map(|(c, _)| rank(*c)).collect();
    ranks.dedup();
    for r in ranks {
        let group: Vec<(Card, usize)> = codes.iter().copied().filter(|(c, _)| rank(*c) == r).collect();
        let mut pick = vec![0usize; group.len()];
        loop {
            let mut i = 0;
            while i < group.len() && pick[i] == group[i].1 {
                pick[i] = 0;
                i += 1;
            }
            if i == group.len() {
                break;
            }
            pick[i] += 1;
            out.push(group.iter().zip(&pick).flat_map(|(&(c, _), &n)| std::iter::repeat_n(c, n)).collect());
        }
    }
    out
}

/// The plays `seat` may make from its hand or face-up cards now.
fn fitting_plays(deal: &Deal, seat: Seat, options: &Options) -> Vec<Vec<Card>> {
    plays(deal.open_cards(seat))
        .into_iter()
        .filter(|p| fits(p[0], &deal.piles.pile, options) && deal.opening.is_none_or(|r| rank(p[0]) == r))
        .collect()
}

fn holds_all(held: &[Card], cards: &[Card]) -> Option<Card> {
    let mut left = held.to_vec();
    cards.iter().copied().find(|&c| !take_card(&mut left, c))
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let o = &state.options;
    let wrong = |sv: &str, en: &str| Err(RuleViolation::wrong_phase(sv, en));
    let first = match (deal.phase, command) {
        (Phase::Swapping, Command::Swap { hand, face_up }) => {
            if !deal.hands[seat].contains(hand) {
                return Err(RuleViolation::card_not_held(*hand));
            }
            if !deal.face_up[seat].contains(face_up) {
                return Err(RuleViolation::new(
                    rule::SWAP,
                    format!("{face_up} ligger inte öppet framför dig."),
                    format!("{face_up} is not among your face-up cards."),
                ));
            }
            Event::Swapped { seat, hand: *hand, face_up: *face_up }
        }
        (Phase::Laying, Command::Lay { card, on }) => {
            if !deal.hands[seat].contains(card) {
                return Err(RuleViolation::card_not_held(*card));
            }
            let matches =
                *on != seat && deal.face_up.get(*on).is_some_and(|f| f.iter().any(|&c| rank(c) == rank(*card)));
            if !matches {
                return Err(RuleViolation::new(
                    rule::LAY_ON,
                    format!("{card} får bara läggas på en motspelares öppna kort av samma valör."),
                    format!("{card} may only go on an opponent's face-up card of the same rank."),
                ));
            }
            Event::LaidOn { seat, card: *card, on: *on }
        }
        (Phase::Swapping | Phase::Laying, Command::Done) => Event::SaidDone { seat },
        (Phase::Playing, Command::Play { cards }) => {
            let source = deal.source(seat);
            if source == Source::FaceDown {
                return Err(RuleViolation::new(
                    rule::FACE_DOWN,
                    "Bara de nedvända korten är kvar: vänd upp ett av dem.",
                    "Only the face-down cards are left: turn one of them up.",
                ));
            }
            if let Some(c) = holds_all(deal.open_cards(seat), cards) {
                return Err(match source {
                    Source::Hand if !deal.face_up[seat].contains(&c) => RuleViolation::card_not_held(c),
                    _ => RuleViolation::new(
                        rule::HAND_FIRST,
                        format!("{c} går inte att spela nu: först handen, sedan de öppna korten, sist de nedvända."),
                        format!(
                            "{c} cannot be played now: the hand first, then the face-up cards, the face-down last."
                        ),
                    ),
                });
            }
            let Some(&first) = cards.first() else {
                return Err(RuleViolation::new(rule::SAME_RANK, "Lägg minst ett kort.", "Lay at least one card."));
            };
            if cards.iter().any(|&c| rank(c) != rank(first)) {
                return Err(RuleViolation::new(
                    rule::SAME_RANK,
                    "Flera kort i samma drag måste ha samma valör.",
                    "Several cards laid at once must be of one rank.",
                ));
            }
            if let Some(r) = deal.opening.filter(|&r| r != rank(first)) {
                return Err(RuleViolation::new(
                    rule::OPENING,
                    format!("Spelet öppnas med det lägsta kortet: valören {}.", r.code()),
                    format!("The play opens with the lowest card: rank {}.", r.code()),
                ));
            }
            if !fits(first, &deal.piles.pile, o) {
                let top = deal.piles.top().map(|c| c.code()).unwrap_or_default();
                return Err(RuleViolation::new(
                    rule::HIGHER,
                    format!("{first} går inte på {top}: samma eller högre valör, eller en tia eller tvåa."),
                    format!("{first} does not go on {top}: the same rank or higher, or a ten or a two."),
                ));
            }
            Event::LaidOut { seat, from: source, cards: cards.clone(), position: None }
        }
        (Phase::Playing, Command::PlayFaceDown { position }) => {
            let Some(card) = deal.face_down[seat].get(*position).copied().flatten() else {
                return Err(RuleViolation::new(
                    rule::FACE_DOWN,
                    format!("Inget nedvänt kort ligger på plats {position}."),
                    format!("No face-down card lies at position {position}."),
                ));
            };
            if deal.source(seat) != Source::FaceDown {
                return Err(RuleViolation::new(
                    rule::HAND_FIRST,
                    "De nedvända korten spelas sist, när handen och de öppna korten är slut.",
                    "The face-down cards come last, once the hand and the face-up cards are gone.",
                ));
            }
            Event::LaidOut { seat, from: Source::FaceDown, cards: vec![card], position: Some(*position) }
        }
        (Phase::Playing, Command::Chance | Command::PickUp) => {
            let chance = *command == Command::Chance;
            if deal.source(seat) == Source::FaceDown || !fitting_plays(deal, seat, o).is_empty() {
                return Err(RuleViolation::new(
                    rule::PICK_UP,
                    "Man chansar eller tar upp högen bara när inget av ens kort går att lägga.",
                    "A chance or a pick-up is only for a player none of whose cards can be laid.",
                ));
            }
            match deal.piles.talon.first() {
                Some(&card) if chance && deal.source(seat) == Source::Hand => {
                    Event::LaidOut { seat, from: Source::Talon, cards: vec![card], position: None }
                }
                _ if chance => {
                    return Err(RuleViolation::new(
                        rule::CHANCE,
                        "Man chansar bara från talongen, medan den har kort och man spelar från handen.",
                        "A chance comes from the talon, only while it holds cards and the hand is played.",
                    ))
                }
                _ => Event::PileTaken { seat, cards: deal.piles.pile.clone() },
            }
        }
        _ => {
            return wrong(
                "det draget hör inte till den här delen av given",
                "that move is not part of this step of the deal",
            )
        }
    };
    Ok(run(state, vec![first]))
}

/// The events given, then every automatic step that follows them.
fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

/// The next automatic step: once the set-up is over the hands filled from forehand and the
/// opening; after a play, a missed blind card or chance picked up with the pile, a burn, going
/// out (or, where nobody may go out on a ten or a two, the pile picked up), the hand refilled;
/// at the deal's end its score and the match's end.
fn next_step(state: &State) -> Option<Event> {
    let deal = state.deals.deal.as_ref().filter(|_| state.deals.outcome.is_none())?;
    let o = &state.options;
    if deal.over {
        return Some(match deal.scored {
            false => score(state, deal),
            true => match_end(state, deal),
        });
    }
    if deal.phase != Phase::Playing {
        return None;
    }
    let size = o.size();
    let n = state.players;
    let refill = |seat: Seat| {
        let want = size.saturating_sub(deal.hands[seat].len()).min(deal.piles.talon.len());
        (want > 0).then(|| Event::Refilled { seat, cards: deal.piles.talon[..want].to_vec() })
    };
    if !deal.opened {
        if let Some(e) = (0..n).map(|i| (deal.forehand + i) % n).find_map(refill) {
            return Some(e);
        }
        let lowest = (0..n)
            .map(|i| (deal.forehand + i) % n)
            .flat_map(|s| deal.hands[s].iter().map(move |&c| (opening_order(rank(c)), s, rank(c))))
            .enumerate()
            .min_by_key(|&(i, (order, _, _))| (order, i))
            .map(|(_, (_, s, r))| (s, r));
        let (seat, r) = lowest.unwrap_or((deal.forehand, Rank::TWO));
        return Some(Event::Opened { seat, rank: r.value() });
    }
    let (seat, last) = deal.settling?;
    let pile = &deal.piles.pile;
    if deal.missed {
        return Some(Event::PileTaken { seat, cards: pile.clone() });
    }
    let out = !deal.holds(seat);
    if out && o.no_out_on_ten_or_two && matches!(last, Rank::TEN | Rank::TWO) {
        return Some(Event::PileTaken { seat, cards: pile.clone() });
    }
    if burns(pile) {
        return Some(Event::PileBurnt { seat, cards: pile.clone() });
    }
    if out {
        return Some(Event::WentOut { seat, place: deal.out.len() + 1 });
    }
    refill(seat)
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted { deal_number, dealer, forehand, deck, face_down, face_up, hands, options } => {
            state.options = options.clone();
            state.players = hands.len();
            let n = hands.len();
            state.deals.next_dealer = (dealer + 1) % n;
            let deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                forehand: *forehand,
                deck: deck.clone(),
                hands: hands.clone(),
                face_up: face_up.clone(),
                face_down: face_down.iter().map(|row| row.iter().map(|&c| Some(c)).collect()).collect(),
                knowledge: Knowledge::of_hands(n),
                piles: Piles::after_dealing(deck, 3 * n * options.size(), false),
                phase: Phase::Swapping,
                done: vec![false; n],
                to_play: *forehand,
                opened: false,
                opening: None,
                settling: None,
                missed: false,
                out: Vec::new(),
                over: false,
                scored: false,
            };
            let scores = state.deals.scores.clone();
            state.deals.started(*deal_number, &scores, deal);
        }
        Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
        Event::DealScored { terms, scores, .. } => {
            state.deals.scored(terms, scores);
            if let Some(deal) = state.deals.deal.as_mut() {
                deal.scored = true;
            }
        }
        _ => {
            let Some(deal) = state.deals.deal.as_mut() else { return };
            match event {
                Event::Swapped { seat, hand, face_up } => {
                    deal.take_from_hand(*seat, &[*hand]);
                    take_card(&mut deal.face_up[*seat], *face_up);
                    deal.hands[*seat].push(*face_up);
                    deal.face_up[*seat].push(*hand);
                    sort_hand(&mut deal.hands[*seat]);
                    deal.knowledge.shown_to_all(*seat, &[*face_up]);
                }
                Event::LaidOn { seat, card, on } => {
                    deal.take_from_hand(*seat, &[*card]);
                    deal.face_up[*on].push(*card);
                }
                Event::SaidDone { seat } => {
                    deal.done[*seat] = true;
                    if deal.done.iter().all(|&d| d) {
                        deal.done.iter_mut().for_each(|d| *d = false);
                        deal.phase = if deal.phase == Phase::Swapping { Phase::Laying } else { Phase::Playing };
                    }
                }
                Event::Refilled { seat, cards } => {
                    for _ in cards {
                        deal.piles.draw();
                    }
                    deal.hands[*seat].extend_from_slice(cards);
                    sort_hand(&mut deal.hands[*seat]);
                }
                Event::Opened { seat, rank } => {
                    deal.opened = true;
                    deal.to_play = *seat;
                    deal.opening = Rank::new(*rank);
                }
                Event::LaidOut { seat, from, cards, position } => {
                    match from {
                        Source::Hand => deal.take_from_hand(*seat, cards),
                        Source::FaceUp => cards.iter().for_each(|&c| {
                            take_card(&mut deal.face_up[*seat], c);
                        }),
                        Source::FaceDown => {
                            if let Some(slot) = position.and_then(|p| deal.face_down[*seat].get_mut(p)) {
                                *slot = None;
                            }
                        }
                        Source::Talon => {
                            deal.piles.draw();
                        }
                    }
                    let under = deal.piles.pile.clone();
                    deal.missed = !fits(cards[0], &under, &state.options);
                    deal.settling = Some((*seat, rank(cards[0])));
                    deal.piles.lay(cards);
                    deal.opening = None;
                    // Tens and twos let the player lay again; a burn does too (see PileBurnt).
                    let again = matches!(rank(cards[0]), Rank::TEN | Rank::TWO);
                    if !again || deal.missed {
                        deal.to_play = deal.next_holding(*seat);
                    }
                }
                Event::PileBurnt { seat, .. } => {
                    deal.piles.burn();
                    deal.to_play = if deal.holds(*seat) { *seat } else { deal.next_holding(*seat) };
                }
                Event::PileTaken { seat, cards } => {
                    deal.piles.pick_up();
                    deal.hands[*seat].extend_from_slice(cards);
                    sort_hand(&mut deal.hands[*seat]);
                    deal.knowledge.shown_to_all(*seat, cards);
                    deal.to_play = deal.next_holding(*seat);
                    deal.settling = None;
                    deal.missed = false;
                }
                Event::WentOut { seat, .. } => {
                    deal.settling = None;
                    deal.out.push(*seat);
                    let holders = (0..deal.hands.len()).filter(|&s| deal.holds(s)).count();
                    deal.over = !state.options.play_out || holders <= 1;
                    if deal.to_play == *seat {
                        deal.to_play = deal.next_holding(*seat);
                    }
                }
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// The deal's places: those out in turn, then (when the deal ends at the first out) the others
/// in the order of play after him. A point for the first out; with the places played out, one
/// point for each player finishing behind.
fn score(state: &State, deal: &Deal) -> Event {
    let n = state.players;
    let winner = deal.out[0];
    let mut places = deal.out.clone();
    places.extend((1..=n).map(|i| (winner + i) % n).filter(|s| !deal.out.contains(s)));
    let mut terms = Vec::new();
    if state.options.play_out {
        for (i, &s) in places.iter().enumerate() {
            let points = (n - 1 - i) as i64;
            terms.push(ScoreTerm::new(
                s,
                points,
                rule::PLACE,
                format!("Plats {s} kom på {} plats: {points} poäng.", i + 1),
                format!("Seat {s} finished in place {}: {points} points.", i + 1),
            ));
        }
    } else {
        terms.push(ScoreTerm::new(
            winner,
            1,
            rule::FIRST_OUT,
            format!("Plats {winner} blev först av med alla sina kort och får en poäng."),
            format!("Seat {winner} was first rid of every card and gets one point."),
        ));
    }
    let mut scores = state.deals.scores.clone();
    terms.iter().for_each(|t| scores[t.to] += t.points);
    Event::DealScored { deal_number: deal.number, places, terms, scores }
}

fn match_end(state: &State, deal: &Deal) -> Event {
    let winner = deal.out[0];
    let last = (0..state.players).find(|s| !deal.out.contains(s));
    let tail = match (state.options.play_out, last) {
        (true, Some(l)) => (format!(" Plats {l} blev sist."), format!(" Seat {l} came last.")),
        _ => (String::new(), String::new()),
    };
    Event::MatchEnded {
        winners: vec![winner],
        scores: state.deals.scores.clone(),
        explanation: Text::new(
            format!("Plats {winner} blev först av med hand, öppna och nedvända kort och vann.{}", tail.0),
            format!("Seat {winner} was first rid of hand, face-up and face-down cards and won.{}", tail.1),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match, every seat's face-up cards and how many
/// face-down ones lie where, the pile, the talon's size, the hands' sizes and the viewer's own
/// hand. A deal's record shows every hand, the face-down cards and the talon at every step.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = VandtiaTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number, dealer, scores, who is to act, the outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    /// The deal's forehand: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The seat whose turn it is in the play: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// By seat, done with the set-up step under way: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub done: Option<Vec<bool>>,
    /// The rank the first play must be of, while it is due.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub opening_rank: Option<u8>,
    /// Cards each seat holds in hand: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// By seat, the hand cards every seat has seen go in (a picked-up pile, a face-up card
    /// swapped into the hand): public while held. A player's own list is empty: the hand shows them.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub public_cards: Option<Vec<Vec<Card>>>,
    /// By seat, the face-up table cards.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub face_up: Option<Vec<Vec<Card>>>,
    /// By seat and position, whether a face-down card still lies there.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub face_down_left: Option<Vec<Vec<bool>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub talon_count: Option<usize>,
    /// The pile, bottom card first, the top card last.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile: Option<Vec<Card>>,
    /// Cards burnt so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub burnt_count: Option<usize>,
    /// Seats rid of every card, in the order they went out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub out: Option<Vec<Seat>>,
    /// The pack as it was dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// Every hand: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// By seat, the face-down cards still lying (positions in order): only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub face_down: Option<Vec<Vec<Card>>>,
    /// The talon, top card first: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub talon: Option<Vec<Card>>,
    /// The burnt cards: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub burnt: Option<Vec<Card>>,
    /// The viewer's own hand: only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let me = viewer.seat_at(state.players);
    let deal = state.deals.deal.as_ref();
    let record = deal.filter(|_| viewer == Viewer::Record);
    let setup = deal.filter(|d| matches!(d.phase, Phase::Swapping | Phase::Laying) && !d.over);
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        forehand: deal.map(|d| d.forehand),
        to_play: deal.filter(|d| d.phase == Phase::Playing).map(|d| d.to_play),
        done: setup.map(|d| d.done.clone()),
        opening_rank: deal.and_then(|d| d.opening).map(Rank::value),
        hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
        public_cards: deal.map(|d| d.knowledge.public_hands(me)),
        face_up: deal.map(|d| d.face_up.clone()),
        face_down_left: deal.map(|d| d.face_down.iter().map(|r| r.iter().map(Option::is_some).collect()).collect()),
        talon_count: deal.map(|d| d.piles.talon.len()),
        pile: deal.map(|d| d.piles.pile.clone()),
        burnt_count: deal.map(|d| d.piles.burnt.len()),
        out: deal.map(|d| d.out.clone()),
        deck: record.filter(|d| d.over).map(|d| d.deck.clone()),
        hands: record.map(|d| d.hands.clone()),
        face_down: record.map(|d| d.face_down.iter().map(|r| r.iter().flatten().copied().collect()).collect()),
        talon: record.map(|d| d.piles.talon.clone()),
        burnt: record.map(|d| d.piles.burnt.clone()),
        hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// How much a card is worth keeping for later: tens and twos most, then high ranks.
fn strength(card: Card, options: &Options) -> u8 {
    match rank(card) {
        Rank::TEN => 16,
        Rank::TWO => 15,
        Rank::SEVEN if options.sevens_wild => 14,
        r => r.value() - 1,
    }
}

/// The rule-of-thumb move: in the set-up, the strongest cards face up and the weak ones on the
/// opponents; in the play, every card of the lowest rank that goes (tens and twos only when
/// nothing else goes), a chance before a pick-up, the first face-down card.
fn basic_choice(state: &State, deal: &Deal, seat: Seat) -> Command {
    let o = &state.options;
    let hand = &deal.hands[seat];
    match deal.phase {
        Phase::Swapping => {
            let best = hand.iter().copied().max_by_key(|&c| strength(c, o));
            let worst = deal.face_up[seat].iter().copied().min_by_key(|&c| strength(c, o));
            match best.zip(worst) {
                Some((b, w)) if strength(b, o) > strength(w, o) => Command::Swap { hand: b, face_up: w },
                _ => Command::Done,
            }
        }
        Phase::Laying => {
            let lay = hand.iter().find_map(|&c| {
                let weak = strength(c, o) < 8;
                let on = (0..state.players).find(|&s| s != seat && deal.face_up[s].iter().any(|&f| rank(f) == rank(c)));
                on.filter(|_| weak).map(|on| Command::Lay { card: c, on })
            });
            lay.unwrap_or(Command::Done)
        }
        _ => {
            if deal.source(seat) == Source::FaceDown {
                let position = deal.face_down[seat].iter().position(Option::is_some).unwrap_or(0);
                return Command::PlayFaceDown { position };
            }
            let best = fitting_plays(deal, seat, o)
                .into_iter()
                .max_by_key(|p| (std::cmp::Reverse(strength(p[0], o)), p.len()));
            match best {
                Some(cards) => Command::Play { cards },
                None if deal.source(seat) == Source::Hand && deal.piles.can_draw() => Command::Chance,
                None => Command::PickUp,
            }
        }
    }
}

/// The deal as `seat` knows it: its own hand, every face-up card, the pile and the hand cards
/// everyone has seen; the other hands' unseen cards, every face-down card (its own too) and the
/// talon dealt afresh from the cards it has not seen.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let mut pool: Vec<Card> = deal.face_down_cards().chain(deal.piles.talon.iter().copied()).collect();
    let others: Vec<Seat> = (0..state.players).filter(|&s| s != seat).collect();
    let mut unseen = Vec::new();
    for &s in &others {
        let mut rest = deal.hands[s].clone();
        deal.knowledge.public_in(s).iter().for_each(|&c| {
            take_card(&mut rest, c);
        });
        unseen.push(rest.len());
        pool.extend(rest);
    }
    let mut sizes = unseen.clone();
    sizes.extend(deal.face_down.iter().map(|r| r.iter().flatten().count()));
    sizes.push(deal.piles.talon.len());
    let mut dealt = bots::redeal_where(&pool, &sizes, |_, _| true, rng).into_iter();
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    for &s in &others {
        let mut hand = w.knowledge.public_in(s);
        hand.extend(dealt.next()?);
        sort_hand(&mut hand);
        w.hands[s] = hand;
    }
    for s in 0..state.players {
        let mut fresh = dealt.next()?.into_iter();
        for slot in w.face_down[s].iter_mut().filter(|p| p.is_some()) {
            *slot = fresh.next();
        }
    }
    w.piles.talon = dealt.next()?;
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Vandtia {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "vandtia";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/vandtia.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options { four_cards: true, no_out_on_ten_or_two: true, ..Options::default() },
            Options { sevens_wild: true, play_out: true, ..Options::default() },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        Ok(State { options, players, deals: Deals::new(players) })
    }

    crate::status_of_deals!(|state| pack(state.players));

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
        let o = &state.options;
        let distinct = |cards: &[Card]| {
            let mut c = cards.to_vec();
            c.sort();
            c.dedup();
            c
        };
        let hand = distinct(&deal.hands[seat]);
        let mut moves = Vec::new();
        match deal.phase {
            Phase::Swapping => {
                for &h in &hand {
                    for f in distinct(&deal.face_up[seat]) {
                        moves.push(Command::Swap { hand: h, face_up: f });
                    }
                }
                moves.push(Command::Done);
            }
            Phase::Laying => {
                for &card in &hand {
                    for on in (0..state.players).filter(|&s| s != seat) {
                        if deal.face_up[on].iter().any(|&f| rank(f) == rank(card)) {
                            moves.push(Command::Lay { card, on });
                        }
                    }
                }
                moves.push(Command::Done);
            }
            _ if deal.source(seat) == Source::FaceDown => {
                let left = deal.face_down[seat].iter().enumerate().filter(|(_, c)| c.is_some());
                moves.extend(left.map(|(position, _)| Command::PlayFaceDown { position }));
            }
            _ => {
                moves.extend(fitting_plays(deal, seat, o).into_iter().map(|cards| Command::Play { cards }));
                if moves.is_empty() {
                    if deal.source(seat) == Source::Hand && deal.piles.can_draw() {
                        moves.push(Command::Chance);
                    }
                    moves.push(Command::PickUp);
                }
            }
        }
        moves
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut moves = vec![
            Command::Done,
            Command::Chance,
            Command::PickUp,
            Command::Play { cards: Vec::new() },
            Command::PlayFaceDown { position: 0 },
            Command::PlayFaceDown { position: 9 },
        ];
        let Some(deal) = state.deals.live() else { return moves };
        moves.extend(self.legal_moves(state, seat));
        let hand = &deal.hands[seat];
        for &c in hand.iter().chain(&deal.face_up[seat]) {
            moves.push(Command::Play { cards: vec![c] });
            moves.push(Command::Swap { hand: c, face_up: c });
            moves.push(Command::Lay { card: c, on: (seat + 1) % state.players });
            moves.push(Command::Lay { card: c, on: seat });
        }
        if let [a, b, ..] = hand[..] {
            moves.push(Command::Play { cards: vec![a, b] });
        }
        if let Some(&missing) = pack(state.players).iter().find(|c| !hand.contains(c)) {
            moves.push(Command::Play { cards: vec![missing] });
        }
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        let live = state.deals.live().is_some();
        if deal_over || viewer == Viewer::Record || !live {
            return full;
        }
        match event {
            Event::DealStarted { deal_number, hands, face_down, .. } if state.deals.number == *deal_number => {
                deals::hide_hands(&mut full, hands, viewer);
                // Nulls in place keep the piles' sizes within the document's shape.
                full["face_down"] = json!(face_down.iter().map(|p| vec![Value::Null; p.len()]).collect::<Vec<_>>());
            }
            Event::Refilled { seat, cards } if viewer != Viewer::Seat(*seat) => {
                full["cards"] = json!(vec![Value::Null; cards.len()]);
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let mut secrets = deal.knowledge.hand_secrets(&deal.hands);
        secrets.extend(deal.face_down_cards().map(|c| (c, Vec::new())));
        secrets.extend(deal.piles.talon_secrets());
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = pack(state.players);
        deals::check_deck(&deal.deck, &pack)?;
        let mut elsewhere = deal.hands.concat();
        elsewhere.extend(deal.face_up.concat());
        elsewhere.extend(deal.face_down_cards());
        deal.piles.check(&elsewhere, &pack)?;
        deal.knowledge.check(&deal.hands.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
        if let Some(outcome) = &state.deals.outcome {
            crate::ensure!(outcome.winners == deal.out[..1], "winners {:?}, first out {:?}", outcome.winners, deal.out);
        }
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// The plays worth weighing: suits make no difference, so one play of each rank and count;
    /// a chance or a pick-up. The set-up and the blind face-down cards are basic's: a search
    /// tells nothing apart there but noise.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        if deal.phase != Phase::Playing || deal.source(seat) == Source::FaceDown {
            return vec![basic_choice(state, deal, seat)];
        }
        let mut seen = Vec::new();
        let mut kept = Vec::new();
        for m in self.legal_moves(state, seat) {
            let key = match &m {
                Command::Play { cards } => Some((rank(cards[0]), cards.len())),
                _ => None,
            };
            if key.is_none() || !seen.contains(&key) {
                seen.push(key);
                kept.push(m);
            }
        }
        kept
    }

    // A two-player playout is the longest: 240 playouts took 22 ms at p99 there (docs/bots.md).
    fn strong_budget(&self) -> bots::Budget {
        bots::Budget { playouts: 200, min_samples: 6, max_samples: 32 }
    }

    fn strong_anchor(&self, state: &State, seat: Seat) -> Option<Command> {
        Some(basic_choice(state, state.deals.acting(seat)?, seat))
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        Some(basic_choice(state, state.deals.acting(seat)?, seat))
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// Won, or the cards still to shed against the others' mean.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let Some(deal) = &state.deals.deal else { return 0.0 };
        if let Some(place) = deal.out.iter().position(|&s| s == seat) {
            return 100.0 - place as f64;
        }
        let left =
            |s: Seat| (deal.hands[s].len() + deal.face_up[s].len() + deal.face_down[s].iter().flatten().count()) as f64;
        if deal.over {
            return -left(seat);
        }
        bots::lead_over_mean(state.players, |s| -left(s), seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};
    use crate::simulate::Driver;

    type M = Driver<Vandtia>;

    /// A deck for dealer 0 that gives each seat (in seat order) its face-down, face-up and hand
    /// cards, then `talon` on top of the talon and the rest of the pack after.
    fn deck(players: usize, size: usize, down: &[&str], up: &[&str], hands: &[&str], talon: &str) -> Vec<Card> {
        let n = players;
        let mut deck = Vec::new();
        for row in [down, up, hands] {
            let row: Vec<Vec<Card>> = row.iter().map(|r| cards(r)).collect();
            deck.extend((0..size * n).map(|i| row[(1 + i) % n][i / n]));
        }
        deck.extend(cards(talon));
        let mut rest = pack(players);
        for c in &deck {
            assert!(take_card(&mut rest, *c), "{c} twice");
        }
        deck.extend(rest);
        deck
    }

    fn deal(m: &M) -> &Deal {
        m.state.deals.deal.as_ref().unwrap()
    }

    fn play(codes: &str) -> Command {
        Command::Play { cards: cards(codes) }
    }

    /// Both set-up steps passed over by every seat.
    fn skip_setup(m: &mut M) {
        for _ in 0..2 {
            for s in m.to_act() {
                m.ok(s, Command::Done);
            }
        }
    }

    fn two_players(hands: [&str; 2], talon: &str) -> M {
        let mut m = M::new(2, Options::default());
        m.deal(deck(2, 3, &["2S 3S 4S", "2H 3H 4H"], &["KS KH KD", "AS AH AD"], &hands, talon));
        skip_setup(&mut m);
        m
    }

    #[test]
    fn the_set_up_swaps_own_cards_then_lays_on_the_opponents_of_the_same_rank() {
        let mut m = M::new(2, Options::default());
        m.deal(deck(2, 3, &["2S 3S 4S", "2H 3H 4H"], &["5D 6D 7D", "4C 9H KH"], &["3C 4D AD", "5C 6C 8C"], "9D JD"));
        assert_eq!(m.to_act(), vec![0, 1], "both seats at once");
        assert_eq!(m.refused(0, Command::Swap { hand: card("AD"), face_up: card("4C") }).rule, rule::SWAP);
        m.ok(0, Command::Swap { hand: card("AD"), face_up: card("5D") });
        assert_eq!(deal(&m).face_up[0], cards("6D 7D AD"));
        m.ok(0, Command::Done);
        assert_eq!(m.to_act(), vec![1], "the step closes when every seat is done");
        assert!(m.legal(1).iter().all(|c| !matches!(c, Command::Lay { .. })));
        m.ok(1, Command::Done);
        assert_eq!(m.refused(0, Command::Lay { card: card("3C"), on: 1 }).rule, rule::LAY_ON);
        m.ok(0, Command::Lay { card: card("4D"), on: 1 });
        assert_eq!(deal(&m).face_up[1], cards("4C 9H KH 4D"), "a four on a four");
        m.ok(0, Command::Done);
        m.ok(1, Command::Done);
        // The hands are filled to three, forehand (seat 1) first, then the lowest card opens.
        let d = deal(&m);
        assert_eq!((d.hands[0].len(), d.hands[1].len()), (3, 3));
        assert!(d.hands[0].contains(&card("9D")), "seat 0 drew what was left after forehand filled: {:?}", d.hands);
        assert_eq!((d.to_play, d.opening), (0, Rank::new(3)));
        assert_eq!(m.refused(0, play("5D")).rule, rule::OPENING);
        m.ok(0, play("3C"));
    }

    #[test]
    fn a_ten_burns_the_pile_and_a_two_lets_its_player_lay_again() {
        let mut m = two_players(["3C 9C TC", "4D 5D 2D"], "6C 7C 8C 9D");
        m.ok(0, play("3C"));
        assert_eq!(deal(&m).hands[0], cards("6C 9C TC"), "refilled to three");
        m.ok(1, play("2D"));
        assert_eq!(m.to_act(), vec![1], "after a two the same player lays again");
        m.ok(1, play("4D"));
        assert_eq!(m.refused(0, play("6C 9C")).rule, rule::SAME_RANK);
    }

    #[test]
    fn a_ten_goes_on_anything_and_its_player_goes_on() {
        let mut m = two_players(["3C 9C TC", "4D 7D 2D"], "6C 7C 8C 9D");
        m.ok(0, play("3C"));
        m.ok(1, play("7D"));
        assert_eq!(m.refused(0, play("6C")).rule, rule::HIGHER, "no card lower than the five");
        let events = m.ok(0, play("TC"));
        assert!(events.iter().any(|e| matches!(e, Event::PileBurnt { .. })));
        assert!(deal(&m).piles.pile.is_empty());
        assert_eq!(m.to_act(), vec![0], "the player of the ten lays again");
        m.ok(0, play("6C"));
        assert_eq!(m.to_act(), vec![1]);
    }

    #[test]
    fn four_of_a_rank_in_a_row_burn_the_pile_but_nothing_above_goes_under() {
        let mut m = two_players(["5C 5D 6C", "5H 5S 7C"], "8C 8D 9C 9D");
        assert_eq!(deal(&m).to_play, 1, "equal lowest cards: the first from forehand opens");
        m.ok(1, play("5H 5S"));
        let events = m.ok(0, play("5C 5D"));
        assert!(events.iter().any(|e| matches!(e, Event::PileBurnt { cards, .. } if cards.len() == 4)));
        assert_eq!(m.to_act(), vec![0]);
        m.ok(0, play("6C"));
        assert!(!fits(card("5S"), &deal(&m).piles.pile, &Options::default()), "a five does not go on a six");
    }

    #[test]
    fn a_chance_from_the_talon_goes_on_or_takes_the_pile_with_it() {
        let mut m = two_players(["3C 4C 5C", "AC KC QC"], "3D 4D 5D 6H QD");
        m.ok(0, play("3C"));
        m.ok(1, play("AC"));
        assert_eq!(m.legal(0), vec![Command::Chance, Command::PickUp], "nothing in hand reaches an ace");
        let events = m.ok(0, Command::Chance);
        let taken = events.iter().find_map(|e| match e {
            Event::PileTaken { seat: 0, cards } => Some(cards.clone()),
            _ => None,
        });
        assert_eq!(taken, Some(cards("3C AC 5D")), "the five drawn was lower: it and the pile are picked up");
        assert!(deal(&m).knowledge.public_in(0).contains(&card("AC")), "picked-up cards are public");
        assert_eq!(m.to_act(), vec![1]);
        m.ok(1, play("QC"));
        m.ok(0, play("AC"));
        assert_eq!(m.legal(1), vec![Command::Chance, Command::PickUp]);
        let events = m.ok(1, Command::Chance);
        assert!(matches!(&events[0], Event::LaidOut { from: Source::Talon, cards, .. } if cards == &vec![card("QD")]));
        assert!(events.iter().any(|e| matches!(e, Event::PileTaken { .. })), "a queen does not reach an ace");
    }

    /// A deal near its end: the talon and `seat`'s hand gone, burnt with the pile.
    fn empty_talon_and_hand(m: &mut M, seat: Seat) {
        let d = m.state.deals.deal.as_mut().unwrap();
        let mut gone = std::mem::take(&mut d.piles.talon);
        gone.extend(std::mem::take(&mut d.hands[seat]));
        d.knowledge.clear(seat);
        d.piles.burnt.extend(gone);
    }

    #[test]
    fn the_face_up_cards_come_after_the_hand_and_a_face_down_card_is_played_blind() {
        let mut m = two_players(["3C 9C JC", "4D 5D 6D"], "5C");
        m.ok(0, play("3C"));
        empty_talon_and_hand(&mut m, 1);
        assert!(m.legal(1).contains(&play("AS")), "the face-up aces, with the hand empty");
        m.ok(1, play("AS AH AD"));
        assert_eq!(m.refused(0, play("KS")).rule, rule::HAND_FIRST, "the hand first");
        m.ok(0, Command::PickUp);
        assert_eq!(m.legal(1), (0..3).map(|position| Command::PlayFaceDown { position }).collect::<Vec<_>>());
        assert_eq!(m.refused(1, play("AS")).rule, rule::FACE_DOWN);
        // Seat 1's face-down cards are 2H 3H 4H: the two goes on anything.
        let events = m.ok(1, Command::PlayFaceDown { position: 0 });
        assert!(
            matches!(&events[0], Event::LaidOut { from: Source::FaceDown, cards, .. } if cards == &vec![card("2H")])
        );
        assert_eq!(m.to_act(), vec![1], "a two lays again");
        m.ok(1, Command::PlayFaceDown { position: 2 });
        m.ok(0, play("9C"));
        let events = m.ok(1, Command::PlayFaceDown { position: 1 });
        assert!(events.iter().any(|e| matches!(e, Event::PileTaken { seat: 1, cards } if cards.contains(&card("3H")))));
        assert!(m.legal(1).iter().all(|c| matches!(c, Command::Play { .. })), "back to the hand");
    }

    #[test]
    fn the_first_rid_of_every_card_wins_and_the_variant_forbids_going_out_on_a_two() {
        for no_out in [false, true] {
            let mut m = M::new(2, Options { no_out_on_ten_or_two: no_out, ..Options::default() });
            m.deal(deck(2, 3, &["2S 3S 4S", "2H 3H 4H"], &["KS KH KD", "AS AH AD"], &["3C 9C JC", "4D 5D 6D"], ""));
            skip_setup(&mut m);
            m.ok(0, play("3C"));
            let d = m.state.deals.deal.as_mut().unwrap();
            let mut gone = std::mem::take(&mut d.piles.talon);
            gone.extend(std::mem::take(&mut d.hands[1]));
            gone.extend(std::mem::take(&mut d.face_up[1]));
            gone.extend(d.face_down[1][1..].iter_mut().filter_map(Option::take));
            d.piles.burnt.extend(gone);
            let events = m.ok(1, Command::PlayFaceDown { position: 0 });
            if no_out {
                assert!(events.iter().any(|e| matches!(e, Event::PileTaken { seat: 1, .. })));
                assert_eq!(deal(&m).hands[1], cards("3C 2H"));
            } else {
                assert!(events.iter().any(|e| matches!(e, Event::WentOut { seat: 1, place: 1 })));
                assert!(m.state.deals.outcome.as_ref().is_some_and(|o| o.winners == [1]));
            }
        }
    }

    #[test]
    fn a_wild_seven_goes_on_anything_and_the_rank_under_it_counts() {
        let o = Options { sevens_wild: true, ..Options::default() };
        let pile = cards("9C 7D");
        assert!(fits(card("7H"), &cards("AC"), &o));
        assert!(!fits(card("8H"), &pile, &o), "the nine under the seven counts");
        assert!(fits(card("9H"), &pile, &o));
        assert!(!fits(card("7H"), &cards("AC"), &Options::default()));
    }

    #[test]
    fn hidden_cards_are_nobodys_and_the_plays_count_copies() {
        let mut m = two_players(["3C 9C JC", "4D 5D 6D"], "");
        let secrets = m.rules.secrets(&m.state);
        for c in cards("2S 3S 4S 2H 3H 4H") {
            assert!(secrets.contains(&(c, Vec::new())), "{c} is known to nobody, its owner too");
        }
        let seen = m.rules.redact(&m.state, &m.log[0], Viewer::Seat(0), false);
        let piles = seen["face_down"].as_array().expect("the face-down piles, as nulls");
        assert!(piles.iter().all(|p| p.as_array().is_some_and(|p| p.len() == 3 && p.iter().all(Value::is_null))));
        assert!(seen["deck"].is_null());
        assert_eq!(plays(&cards("9H 9H 9C")).len(), 5, "9H, 9H 9H, 9C, 9H 9C, 9H 9H 9C");
        m.ok(0, play("3C"));
    }
}
