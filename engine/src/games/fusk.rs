//! Fusk (Cheat, Bluff): the whole pack is dealt and everyone sheds. A play is cards laid face
//! down with a claim, "two fives": the number is true, the rank may be a lie, and each claim must
//! be higher than the one before. Any other player may call "Fusk!" until the next player plays:
//! the play is turned up, and whoever was wrong, the caller or the liar, picks up the whole pile.
//! The first player rid of his cards wins once his last play stands.
//!
//! A play is built in steps (`lay` one card at a time, then `claim` a rank), so that the legal
//! moves stay few. The other seats answer a play out of turn: `call`, or `pass` to let it stand;
//! the next player's first card laid accepts it. Cards never turned up stay hidden for ever, the
//! record included; who knows which card lies where is kept by [`Knowledge`], the pile being
//! the place after the hands.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, rank_value, sort_hand, take_card, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::knowledge::Knowledge;
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{self, Seat, Table as Seating};

#[derive(Default)]
pub struct Fusk;

/// The largest house cap on moves a match may be given.
pub const MAX_MOVES: u32 = 100_000;
/// From this many players two packs are shuffled together, unless the options say otherwise.
pub const TWO_PACKS_FROM: usize = 5;
const ACE: u8 = 14;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const TURN: &str = "fusk.play.turn";
    pub const LAY: &str = "fusk.play.lay";
    pub const CLAIM: &str = "fusk.play.claim";
    pub const HIGHER: &str = "fusk.play.higher";
    pub const CALL: &str = "fusk.call.who";
    pub const PASS: &str = "fusk.call.pass";
    pub const MUST_CALL: &str = "fusk.call.must";
    pub const WINNER: &str = "fusk.end.winner";
    pub const CAP: &str = "fusk.house.cap";
}

// ---------------------------------------------------------------------------------------------
// Options

/// How many packs: by the player count (two from five players, the text's custom), or forced.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FuskPacks))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Packs {
    ByPlayers,
    One,
    Two,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    pub packs: Packs,
    /// The house's cap: plays and calls in a match, after which the fewest cards win.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100000))]
    pub move_limit: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { packs: Packs::ByPlayers, move_limit: 300 }
    }
}

impl Options {
    fn packs(&self, players: usize) -> usize {
        match self.packs {
            Packs::ByPlayers if players >= TWO_PACKS_FROM => 2,
            Packs::Two => 2,
            _ => 1,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// `waiting-for-deal`, `playing`, `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FuskPhase))]
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

/// What a play says it is: `count` cards of `rank` (2 to 14, the ace high).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FuskClaim))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    pub seat: Seat,
    pub count: usize,
    #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 14))]
    pub rank: u8,
}

impl Claim {
    /// More cards of the same rank, or at least as many of a higher rank.
    fn beats(count: usize, rank: u8, over: Option<&Claim>) -> bool {
        over.is_none_or(|o| (rank == o.rank && count > o.count) || (rank > o.rank && count >= o.count))
    }
}

/// A play turned up by a call, until the loser of the call has picked up the pile.
#[derive(Clone, Copy, Debug)]
struct Turned {
    caller: Seat,
    truthful: bool,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    forehand: Seat,
    deck: Vec<Card>,
    hands: Vec<Vec<Card>>,
    /// Who has seen which card: the hands, then the pile (place `hands.len()`).
    knowledge: Knowledge,
    /// The plays on the table, oldest first, each with its cards.
    pile: Vec<(Claim, Vec<Card>)>,
    /// Cards the player in turn has laid face down towards his claim.
    laying: Vec<Card>,
    to_play: Seat,
    /// The seat whose play may be called now (until the next player lays a card).
    open: Option<Seat>,
    /// Seats that let the open play stand.
    passed: Vec<Seat>,
    turned: Option<Turned>,
    /// Plays and calls so far (the house's cap).
    moves: u32,
    winners: Vec<Seat>,
    over: bool,
}

impl deals::Deal for Deal {
    type Phase = Phase;

    /// While a play may be called, the seats that have not let it stand, the player in turn
    /// last (he accepts by playing); public facts only.
    fn to_act(&self) -> Vec<Seat> {
        if self.over || self.turned.is_some() {
            return Vec::new();
        }
        let Some(open) = self.open else { return vec![self.to_play] };
        let table = Seating::new(self.hands.len());
        let mut seats: Vec<Seat> = table
            .order_from(self.to_play)
            .into_iter()
            .skip(1)
            .filter(|&s| s != open && !self.passed.contains(&s))
            .collect();
        seats.push(self.to_play);
        seats
    }

    fn is_live(&self) -> bool {
        !self.over
    }

    fn phase(&self) -> Phase {
        Phase::Playing
    }
}

fn rank(card: Card) -> u8 {
    rank_value(card)
}

impl Deal {
    fn seats(&self) -> usize {
        self.hands.len()
    }

    fn pile_place(&self) -> usize {
        self.seats()
    }

    fn top(&self) -> Option<&Claim> {
        self.pile.last().map(|(c, _)| c)
    }

    /// Whether `seat` has the cards to make a higher claim than the one on top.
    fn can_claim(&self, seat: Seat) -> bool {
        let cards = self.hands[seat].len() + self.laying.len();
        match self.top() {
            None => cards > 0,
            Some(top) => cards > top.count || (cards == top.count && top.rank < ACE),
        }
    }

    /// The ranks the cards laid may be claimed as.
    fn claimable(&self) -> Vec<u8> {
        let n = self.laying.len();
        (2..=ACE).filter(|&r| n > 0 && Claim::beats(n, r, self.top())).collect()
    }

    fn pile_cards(&self) -> Vec<Card> {
        self.pile.iter().flat_map(|(_, c)| c.iter().copied()).chain(self.laying.iter().copied()).collect()
    }

    /// The pile cards still face down (a play turned up is public).
    fn face_down(&self) -> Vec<Card> {
        let mut cards = self.pile_cards();
        if self.turned.is_some() {
            let up = self.pile.last().map_or(0, |(_, c)| c.len());
            cards.truncate(cards.len() - up);
        }
        cards
    }

    /// The winner, once his last play stands: his hand is empty and it can no longer be called.
    fn out(&self) -> Option<Seat> {
        (0..self.seats()).find(|&s| {
            self.hands[s].is_empty() && self.open != Some(s) && (s != self.to_play || self.laying.is_empty())
        })
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    players: usize,
    /// The match is one deal; the winners score one each.
    deals: Deals<Deal>,
}

fn pack(options: &Options, players: usize) -> Vec<Card> {
    match options.packs(players) {
        2 => decks::double(&decks::standard52()),
        _ => decks::standard52(),
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// The player in turn lays one card face down towards his play.
    Lay { card: Card },
    /// The player in turn says what the cards he laid are: as many as he laid, of `rank`.
    Claim {
        #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 14))]
        #[serde(deserialize_with = "crate::schema::within::<_, _, 2, 14>")]
        rank: u8,
    },
    /// "Fusk!": the last play is turned up.
    Call,
    /// Another seat lets the last play stand.
    Pass,
}

/// Why the match ended: a player went out, or the house's cap.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FuskEnding))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    Out,
    MoveLimit,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Everything the deal starts from; only the seat's own hand is ever shown to it.
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        forehand: Seat,
        deck: Vec<Card>,
        hands: Vec<Vec<Card>>,
        options: Options,
    },
    /// A card laid face down: seen by its player alone.
    CardLaid {
        seat: Seat,
        card: Card,
    },
    /// The play is made: `count` cards said to be of `rank`.
    Claimed {
        seat: Seat,
        count: usize,
        #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 14))]
        rank: u8,
    },
    /// The seat let the last play stand.
    Passed {
        seat: Seat,
    },
    /// "Fusk!" against `against`'s play, turned up: `cards`, true to the claim or not.
    Called {
        seat: Seat,
        against: Seat,
        cards: Vec<Card>,
        truthful: bool,
    },
    /// The loser of the call took the pile: the cards that lay face down (his to see) and the
    /// play turned up; `leader` plays next, to an empty table.
    PileTakenUp {
        seat: Seat,
        hidden: Vec<Card>,
        turned: Vec<Card>,
        leader: Seat,
    },
    /// The result: the winners, and the cards each held at the end.
    DealScored {
        deal_number: u32,
        ending: Ending,
        winners: Vec<Seat>,
        cards: Vec<usize>,
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
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

fn start(state: &State, deck: Vec<Card>) -> Event {
    let table = Seating::new(state.players);
    let dealer = state.deals.next_dealer;
    Event::DealStarted {
        deal_number: state.deals.number + 1,
        dealer,
        forehand: table.next(dealer),
        hands: deals::deal_singly(&table, dealer, &deck),
        deck,
        options: state.options.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let in_turn = seat == deal.to_play;
    let event = match command {
        Command::Lay { .. } | Command::Claim { .. } if !in_turn => {
            return Err(RuleViolation::new(
                rule::TURN,
                format!("Det är plats {}s tur att spela; du kan bara ropa fusk eller låta spelet stå.", deal.to_play),
                format!("It is seat {}'s turn to play; you may only call or let the play stand.", deal.to_play),
            ))
        }
        Command::Lay { .. } if deal.laying.is_empty() && !deal.can_claim(seat) => {
            return Err(RuleViolation::new(
                rule::MUST_CALL,
                "Du har för få kort för ett högre påstående och måste ropa fusk.",
                "You hold too few cards for a higher claim and must call.",
            ))
        }
        Command::Lay { card } => {
            if !deal.hands[seat].contains(card) {
                return Err(RuleViolation::new(
                    rule::LAY,
                    format!("{card} finns inte på din hand."),
                    format!("{card} is not in your hand."),
                ));
            }
            Event::CardLaid { seat, card: *card }
        }
        Command::Claim { rank } => {
            let n = deal.laying.len();
            if n == 0 || !(2..=ACE).contains(rank) {
                return Err(RuleViolation::new(
                    rule::CLAIM,
                    "Lägg först minst ett kort och säg sedan en valör från 2 till 14 (ess).",
                    "First lay at least one card, then name a rank from 2 to 14 (ace).",
                ));
            }
            if !Claim::beats(n, *rank, deal.top()) {
                let top = deal.top().expect("only a claim on the table can be beaten");
                return Err(RuleViolation::new(
                    rule::HIGHER,
                    format!(
                        "{n} kort i valören {rank} är inte högre än {} i valören {}: fler av samma valör, eller minst lika många av en högre.",
                        top.count, top.rank
                    ),
                    format!(
                        "{n} cards of rank {rank} are not higher than {} of rank {}: more of the same rank, or at least as many of a higher one.",
                        top.count, top.rank
                    ),
                ));
            }
            Event::Claimed { seat, count: n, rank: *rank }
        }
        Command::Call | Command::Pass => {
            let Some(against) = deal.open.filter(|&o| o != seat) else {
                return Err(RuleViolation::new(
                    rule::CALL,
                    "Det finns inget spel att ropa fusk på eller låta stå: bara ett annat spelares senaste spel, innan nästa spelare har lagt kort.",
                    "There is no play to call or let stand: only another player's last play, before the next player has laid a card.",
                ));
            };
            if *command == Command::Pass {
                if in_turn {
                    return Err(RuleViolation::new(
                        rule::PASS,
                        "Den som står på tur godtar spelet genom att spela själv.",
                        "The player in turn accepts the play by playing himself.",
                    ));
                }
                Event::Passed { seat }
            } else {
                let (claim, cards) = deal.pile.last().expect("an open play lies on top");
                let truthful = cards.iter().all(|&c| rank(c) == claim.rank);
                Event::Called { seat, against, cards: cards.clone(), truthful }
            }
        }
    };
    Ok(crate::game::with_automatic_steps(state, vec![event], evolve, next_step))
}

/// The steps nobody chooses: the loser of a call takes the pile, the winner is declared, the
/// house's cap ends the match.
fn next_step(state: &State) -> Option<Event> {
    let deal = state.deals.deal.as_ref()?;
    if state.deals.outcome.is_some() {
        return None;
    }
    if deal.over {
        let explanation = explain(state, deal);
        return Some(Event::MatchEnded {
            winners: deal.winners.clone(),
            scores: state.deals.scores.clone(),
            explanation,
        });
    }
    if let Some(t) = deal.turned {
        let (claim, turned) = deal.pile.last()?;
        let (loser, leader) = if t.truthful { (t.caller, claim.seat) } else { (claim.seat, t.caller) };
        return Some(Event::PileTakenUp { seat: loser, hidden: deal.face_down(), turned: turned.clone(), leader });
    }
    if let Some(winner) = deal.out() {
        return Some(score(state, deal, Ending::Out, vec![winner]));
    }
    if deal.moves >= state.options.move_limit {
        let cards: Vec<usize> = deal.hands.iter().map(Vec::len).collect();
        let fewest = cards.iter().copied().min().unwrap_or(0);
        let winners = (0..deal.seats()).filter(|&s| cards[s] == fewest).collect();
        return Some(score(state, deal, Ending::MoveLimit, winners));
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    if let Event::DealStarted { deal_number, dealer, forehand, deck, hands, options } = event {
        state.options = options.clone();
        let players = hands.len();
        state.deals.next_dealer = Seating::new(players).next(*dealer);
        let deal = Deal {
            number: *deal_number,
            dealer: *dealer,
            forehand: *forehand,
            deck: deck.clone(),
            hands: hands.iter().map(|h| crate::cards::sorted(h.clone())).collect(),
            knowledge: Knowledge::new(players, players + 1),
            pile: Vec::new(),
            laying: Vec::new(),
            to_play: *forehand,
            open: None,
            passed: Vec::new(),
            turned: None,
            moves: 0,
            winners: Vec::new(),
            over: false,
        };
        state.deals.started(*deal_number, &vec![0; players], deal);
        return;
    }
    if let Event::MatchEnded { winners, explanation, .. } = event {
        state.deals.ended(winners, explanation);
        return;
    }
    if let Event::DealScored { terms, scores, .. } = event {
        state.deals.scored(terms, scores);
    }
    let Some(deal) = state.deals.deal.as_mut() else { return };
    let pile = deal.pile_place();
    match event {
        Event::CardLaid { seat, card } => {
            if deal.open.is_some() {
                deal.open = None;
                deal.passed.clear();
            }
            take_card(&mut deal.hands[*seat], *card);
            // Nobody can tell which of his cards went down: what the table knew of his hand is lost.
            deal.knowledge.clear(*seat);
            deal.knowledge.moved(*seat, pile, *card, &[]);
            deal.laying.push(*card);
        }
        Event::Claimed { seat, count, rank } => {
            let cards = std::mem::take(&mut deal.laying);
            deal.pile.push((Claim { seat: *seat, count: *count, rank: *rank }, cards));
            deal.open = Some(*seat);
            deal.passed.clear();
            deal.to_play = Seating::new(deal.seats()).next(*seat);
            deal.moves += 1;
        }
        Event::Passed { seat } => deal.passed.push(*seat),
        Event::Called { seat, cards, truthful, .. } => {
            for &c in cards {
                deal.knowledge.left(pile, c);
            }
            deal.turned = Some(Turned { caller: *seat, truthful: *truthful });
            deal.open = None;
            deal.passed.clear();
            deal.moves += 1;
        }
        Event::PileTakenUp { seat, hidden, turned, leader } => {
            for &c in hidden {
                deal.knowledge.moved(pile, *seat, c, &[]);
            }
            deal.knowledge.shown_to_all(*seat, turned);
            deal.hands[*seat].extend(hidden.iter().chain(turned));
            sort_hand(&mut deal.hands[*seat]);
            deal.pile.clear();
            deal.turned = None;
            deal.to_play = *leader;
        }
        Event::DealScored { winners, .. } => {
            deal.winners = winners.clone();
            deal.over = true;
        }
        Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// One point to each winner: the player who went out, or at the cap those holding fewest cards.
fn score(state: &State, deal: &Deal, ending: Ending, winners: Vec<Seat>) -> Event {
    let cards: Vec<usize> = deal.hands.iter().map(Vec::len).collect();
    let terms: Vec<ScoreTerm> = winners
        .iter()
        .map(|&s| match ending {
            Ending::Out => ScoreTerm::new(
                s,
                1,
                rule::WINNER,
                format!("Plats {s} blev först av med alla sina kort, och det sista spelet stod sig."),
                format!("Seat {s} was first rid of all his cards, and his last play stood."),
            ),
            Ending::MoveLimit => ScoreTerm::new(
                s,
                1,
                rule::CAP,
                format!("Plats {s} har färst kort, {}, när husets gräns nås.", cards[s]),
                format!("Seat {s} holds the fewest cards, {}, when the house's cap is reached.", cards[s]),
            ),
        })
        .collect();
    let mut points = vec![0i64; deal.seats()];
    winners.iter().for_each(|&s| points[s] = 1);
    let scores = state.deals.scores.iter().zip(&points).map(|(a, b)| a + b).collect();
    Event::DealScored { deal_number: deal.number, ending, winners, cards, terms, points, scores }
}

fn explain(state: &State, deal: &Deal) -> Text {
    let who = seat::seats_text(&deal.winners);
    if deal.hands.iter().any(Vec::is_empty) {
        return Text::new(
            format!("Plats {who} blev först av med alla sina kort och vann."),
            format!("Seat {who} was the first rid of all his cards and won."),
        );
    }
    let limit = state.options.move_limit;
    match deal.winners.len() {
        1 => Text::new(
            format!("Husets gräns på {limit} drag är nådd; plats {who} har färst kort och vinner."),
            format!("The house's cap of {limit} moves is reached; seat {who} holds the fewest cards and wins."),
        ),
        _ => Text::new(
            format!("Husets gräns på {limit} drag är nådd; platserna {who} har färst kort och delar segern."),
            format!(
                "The house's cap of {limit} moves is reached; seats {who} hold the fewest cards and share the win."
            ),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it. Absent fields: before the deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FuskTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number, dealer, scores (one for a winner), who may act.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    /// Packs shuffled together: 1 or 2.
    pub packs: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub forehand: Option<Seat>,
    /// The player in turn: absent once the deal is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    /// The plays on the table, face down, each with its claim, oldest first.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub claims: Option<Vec<Claim>>,
    /// Cards the player in turn has laid towards his play, not yet claimed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub laying_count: Option<usize>,
    /// Cards face down on the table, the play being laid included.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile_size: Option<usize>,
    /// The seat whose last play may still be called.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub open_to_call: Option<Seat>,
    /// Seats that let that play stand.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub passed: Option<Vec<Seat>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// By seat, the hand cards everyone saw turned up: public while held, until the holder lays
    /// a card face down (then nobody can tell which he still holds).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub public_cards: Option<Vec<Vec<Card>>>,
    /// Plays and calls so far (the house's cap).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub moves: Option<u32>,
    /// The viewer's own hand: only in a seat's view (and its record).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
    /// The face-down cards on the table the viewer knows (it laid them): only for a seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pile_known: Option<Vec<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let me = viewer.seat_at(state.players);
    let deal = state.deals.deal.as_ref();
    let live = deal.filter(|d| !d.over);
    // A record keeps back every card never turned up: it shows what a spectator saw.
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        packs: state.options.packs(state.players),
        forehand: deal.map(|d| d.forehand),
        to_play: live.map(|d| d.to_play),
        claims: deal.map(|d| d.pile.iter().map(|(c, _)| *c).collect()),
        laying_count: deal.map(|d| d.laying.len()),
        pile_size: deal.map(|d| d.pile_cards().len()),
        open_to_call: live.and_then(|d| d.open),
        passed: live.map(|d| d.passed.clone()),
        hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
        public_cards: deal.map(|d| d.knowledge.public_hands(me)),
        moves: deal.map(|d| d.moves),
        hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
        pile_known: deal.zip(me).map(|(d, s)| d.knowledge.known_to(d.pile_place(), s)),
    }
}

// ---------------------------------------------------------------------------------------------
// The bot

/// What a seat knows of the cards: every card it can place, by rank (its hand, the pile cards it
/// knows, the cards turned up and still public in a hand).
fn known_by_rank(deal: &Deal, seat: Seat) -> [usize; 15] {
    let mut known = [0; 15];
    let mut add = |c: &Card| known[rank(*c) as usize] += 1;
    deal.hands[seat].iter().for_each(&mut add);
    deal.knowledge.known_to(deal.pile_place(), seat).iter().for_each(&mut add);
    deal.knowledge.public_hands(Some(seat)).iter().flatten().for_each(&mut add);
    known
}

/// The play `seat` means to make with its hand and the cards laid so far: the cards and the
/// rank to claim. Truthful when it can (the lowest rank it holds enough of, all of them);
/// otherwise the smallest lie, laying its lowest cards; `sharp` lies with a rank of which it has
/// not itself seen too many to make the claim possible.
fn plan(deal: &Deal, seat: Seat, sharp: bool, copies: usize) -> (Vec<Card>, u8) {
    let mut cards = deal.hands[seat].clone();
    cards.extend(&deal.laying);
    let top = deal.top();
    let mut by_rank = [0usize; 15];
    cards.iter().for_each(|&c| by_rank[rank(c) as usize] += 1);
    let truthful = (2..=ACE).find(|&r| by_rank[r as usize] > 0 && Claim::beats(by_rank[r as usize], r, top));
    if let Some(r) = truthful {
        return (cards.into_iter().filter(|&c| rank(c) == r).collect(), r);
    }
    let (count, mut claim) = match top {
        None => (1, 2),
        Some(t) if t.rank < ACE => (t.count, t.rank + 1),
        Some(t) => (t.count + 1, ACE),
    };
    if sharp {
        // A rank of which the seat has seen too many would be an obvious lie.
        let known = known_by_rank(deal, seat);
        if let Some(r) = (claim..=ACE).find(|&r| known[r as usize] + count <= copies) {
            claim = r;
        }
    }
    // Junk first: the lowest ranks, which later claims will not need.
    cards.sort_by_key(|&c| rank(c));
    cards.truncate(count.min(cards.len()));
    (cards, claim)
}

/// The chance that `claim` is true, as `seat` sees it: that the player held that many of the
/// rank among the cards it cannot place.
fn chance_true(deal: &Deal, seat: Seat, claim: &Claim, copies: usize) -> f64 {
    let known = known_by_rank(deal, seat);
    let placed: usize = known.iter().sum();
    let total = copies * 13;
    let unknown = total.saturating_sub(placed).max(1);
    let of_rank = copies.saturating_sub(known[claim.rank as usize]);
    if claim.count > of_rank {
        return 0.0;
    }
    // He drew his hand and play from the unknown cards: hypergeometric chance of `count` or more.
    let hand = (deal.hands[claim.seat].len() + claim.count).min(unknown);
    let mut p = 0.0;
    for k in claim.count..=of_rank.min(hand) {
        p += binomial(of_rank, k) * binomial(unknown - of_rank, hand - k) / binomial(unknown, hand);
    }
    p.min(1.0)
}

fn binomial(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// The move of the basic bot (`sharp`: the strong bot's sharper policy).
fn policy(state: &State, deal: &Deal, seat: Seat, sharp: bool) -> Option<Command> {
    let copies = state.options.packs(state.players) * 4;
    let in_turn = seat == deal.to_play;
    if let Some(open) = deal.open.filter(|&o| o != seat) {
        let (claim, _) = deal.pile.last()?;
        let must = in_turn && !deal.can_claim(seat);
        let out = deal.hands[open].is_empty();
        let call = if sharp {
            let p = chance_true(deal, seat, claim, copies);
            let (ours, said) = plan(deal, seat, true, copies);
            let honest = ours.iter().all(|&c| rank(c) == said);
            let threshold = match (in_turn, honest) {
                (true, false) => 0.5,
                (true, true) => 0.25,
                _ if deal.hands[open].len() <= 2 => 0.3,
                _ => 0.12,
            };
            p < threshold
        } else {
            let mine = deal.hands[seat].iter().filter(|&&c| rank(c) == claim.rank).count();
            claim.count + mine > copies || (claim.count >= 2 && claim.count + mine >= copies)
        };
        if must || out || call {
            return Some(Command::Call);
        }
        if !in_turn {
            return Some(Command::Pass);
        }
    }
    if !in_turn {
        return None;
    }
    let (cards, claim) = plan(deal, seat, sharp, copies);
    let mut laid = deal.laying.clone();
    for c in cards {
        if !take_card(&mut laid, c) && deal.hands[seat].contains(&c) {
            return Some(Command::Lay { card: c });
        }
    }
    let ranks = deal.claimable();
    let rank = if ranks.contains(&claim) { claim } else { *ranks.first()? };
    Some(Command::Claim { rank })
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Fusk {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "fusk";
    const PLAYERS: RangeInclusive<usize> = 3..=10;
    const RULEBOOK: &'static str = include_str!("rulebooks/fusk.txt");

    fn test_option_sets(&self, players: usize) -> Vec<Options> {
        let d = Options::default();
        let other = if players >= TWO_PACKS_FROM { Packs::One } else { Packs::Two };
        vec![d.clone(), Options { packs: other, ..d.clone() }, Options { move_limit: 25, ..d }]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_MOVES).contains(&options.move_limit) {
            return Err(SetupError(format!("move_limit must be 1 to {MAX_MOVES}, not {}", options.move_limit)));
        }
        Ok(State { options, players, deals: Deals::new(players) })
    }

    crate::status_of_deals!(|state| pack(&state.options, state.players));

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(vec![start(state, deck)])
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        let may_call = deal.open.is_some_and(|o| o != seat);
        if seat != deal.to_play {
            return if may_call { vec![Command::Call, Command::Pass] } else { Vec::new() };
        }
        let mut moves = Vec::new();
        if deal.laying.is_empty() && !deal.can_claim(seat) {
            return vec![Command::Call];
        }
        let mut held = deal.hands[seat].clone();
        held.dedup();
        moves.extend(held.into_iter().map(|card| Command::Lay { card }));
        moves.extend(deal.claimable().into_iter().map(|rank| Command::Claim { rank }));
        if may_call {
            moves.push(Command::Call);
        }
        moves
    }

    fn move_space(&self, _state: &State, _seat: Seat) -> Vec<Command> {
        let mut space = vec![Command::Call, Command::Pass];
        space.extend(decks::standard52().into_iter().map(|card| Command::Lay { card }));
        space.extend((0..=15).map(|rank| Command::Claim { rank }));
        space
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    /// Nothing laid face down is ever shown but to whoever laid or picked it up, the record
    /// included: the deck and the hands as dealt stay back too.
    fn redact(&self, _state: &State, event: &Event, viewer: Viewer, _deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        match event {
            Event::DealStarted { hands, .. } => deals::hide_hands(&mut full, hands, viewer),
            Event::CardLaid { seat, .. } if viewer != Viewer::Seat(*seat) => full["card"] = Value::Null,
            Event::PileTakenUp { seat, hidden, .. } if viewer != Viewer::Seat(*seat) => {
                deals::blank(&mut full, "hidden", hidden)
            }
            _ => {}
        }
        full
    }

    /// A seat's record: what it saw at the table, its own hand and laid cards with it.
    fn record_view(&self, state: &State, seat: Option<Seat>) -> Value {
        let mut table = view(state, Viewer::Record);
        if let (Some(deal), Some(s)) = (state.deals.deal.as_ref(), seat) {
            table.hand = Some(deal.hands[s].clone());
            table.pile_known = Some(deal.knowledge.known_to(deal.pile_place(), s));
        }
        serde_json::to_value(table).expect("views serialize")
    }

    fn record_event(&self, state: &State, event: &Event, seat: Option<Seat>) -> Value {
        self.redact(state, event, seat.map_or(Viewer::Record, Viewer::Seat), true)
    }

    /// Hidden for ever, so still secret once the match is over.
    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.deal.as_ref() else { return Vec::new() };
        let mut secrets = deal.knowledge.hand_secrets(&deal.hands);
        secrets.extend(deal.knowledge.heap_secrets(deal.pile_place(), &deal.face_down()));
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = pack(&state.options, state.players);
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.hands.iter().flatten().copied().collect();
        all.extend(deal.pile_cards());
        crate::ensure!(crate::cards::is_permutation(&all, &pack), "the cards held and on the table are not the pack");
        for (claim, cards) in &deal.pile {
            crate::ensure!(claim.count == cards.len(), "a claim of {} on {} cards", claim.count, cards.len());
        }
        crate::ensure!(
            deal.pile.windows(2).all(|w| Claim::beats(w[1].0.count, w[1].0.rank, Some(&w[0].0))),
            "a claim on the table is not higher than the one before"
        );
        crate::ensure!(deal.open.is_none() || deal.laying.is_empty(), "a play open to a call while cards are laid");
        crate::ensure!(deal.over || deal.moves <= state.options.move_limit, "the cap passed");
        let mut places: Vec<&[Card]> = deal.hands.iter().map(Vec::as_slice).collect();
        let pile = deal.pile_cards();
        places.push(&pile);
        deal.knowledge.check(&places)?;
        Ok(())
    }

    /// A win is worth most; before the end, fewer cards than the others.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let Some(deal) = &state.deals.deal else { return 0.0 };
        let value = |s: Seat| match deal.over {
            true => f64::from(u8::from(deal.winners.contains(&s))),
            false => -(deal.hands[s].len() as f64) / 100.0,
        };
        bots::lead_over_mean(state.players, value, seat)
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        policy(state, state.deals.acting(seat)?, seat, false)
    }

    /// The strong bot is a sharper policy from what its seat knows (no search: a match is one
    /// long deal, too long to play out within a decision's time), so it weighs one move.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        state.deals.acting(seat).and_then(|d| policy(state, d, seat, true)).into_iter().collect()
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }
}

#[cfg(test)]
mod tests;
