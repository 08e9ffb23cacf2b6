//! President (Zheng shang you, the text's "climbing" game; shown as President in both languages):
//! three to six players climb with one to four cards of a rank, and the order in which they go
//! out ranks them for the next deal, which they play in that order. The last of a deal deals the
//! next and gives the president his best cards for the president's worst, an exchange only those
//! two see. Points by place, to a target.
//!
//! Trouduc, the continental version, is an option: a wild joker above the two, twos above the
//! aces, one card exchanged (never the joker), two points for the first out and one for the next,
//! to 11.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::cards::{decks, is_permutation, rank_value, Card, Rank};
use crate::climb::{self, Climb, Misfit, Play, Ranks as _};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{Seat, Table as Seating};

#[derive(Default)]
pub struct President;

/// The most cards one play may hold.
pub const MAX_PLAY: usize = 4;
pub const MAX_TARGET: i64 = 1000;
pub const JOKER: Card = Card::Joker(0);

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const ONE_TO_FOUR: &str = "president.play.one-to-four";
    pub const SAME_RANK: &str = "president.play.same-rank";
    pub const SAME_COUNT: &str = "president.play.same-count";
    pub const HIGHER: &str = "president.play.higher";
    pub const LEAD: &str = "president.play.lead";
    pub const PASS: &str = "president.play.pass";
    pub const CLEAR: &str = "president.play.clear";
    pub const OUT_LEAD: &str = "president.play.out-lead";
    pub const EXCHANGE: &str = "president.exchange.cards";
    pub const PLACES: &str = "president.score.places";
    pub const TARGET: &str = "president.score.target";
    pub const TIE: &str = "president.score.tie";
    pub const WILD: &str = "president.trouduc.wild";
    pub const TROUDUC_EXCHANGE: &str = "president.trouduc.exchange";
    pub const TROUDUC_SCORE: &str = "president.trouduc.score";
}

// ---------------------------------------------------------------------------------------------
// Options

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The continental version: a wild joker, twos high, one card exchanged, 2 and 1 points.
    pub trouduc: bool,
    /// Points that win the match (15; 11 in Trouduc unless sent).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    pub target: i64,
    /// Cards the last and the president exchange (3, the text's variant 2; 1 in Trouduc unless
    /// sent; 0 for none).
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 3))]
    pub exchange: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { trouduc: false, target: 15, exchange: 3 }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Playing,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// A seat's standing after a deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Title {
    President,
    VicePresident,
    Citizen,
    Last,
}

/// Cards handed over before the play: known to the two players alone while the deal lasts.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PresidentExchange))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exchange {
    pub from: Seat,
    pub to: Seat,
    /// Null for anyone but the two while the deal lasts.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub cards: Option<Vec<Card>>,
    pub count: usize,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    climb: Climb,
    exchanges: Vec<Exchange>,
    terms: Option<Vec<ScoreTerm>>,
}

impl Deal {
    /// Who else knows `card` in a hand: the other side of the exchange that put it there.
    fn also_known_by(&self, card: Card, holder: Seat) -> Option<Seat> {
        self.exchanges
            .iter()
            .find(|x| x.to == holder && x.cards.as_ref().is_some_and(|c| c.contains(&card)))
            .map(|x| x.from)
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        if self.is_live() {
            vec![self.climb.to_play]
        } else {
            Vec::new()
        }
    }

    fn is_live(&self) -> bool {
        !self.climb.over()
    }

    fn phase(&self) -> Phase {
        if self.is_live() {
            Phase::Playing
        } else {
            Phase::DealOver
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    players: usize,
    deals: Deals<Deal>,
    /// The last deal's finishing order, first out first: the next deal's order of play.
    ranking: Option<Vec<Seat>>,
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Lay one to four cards of one rank (in Trouduc the joker may stand in), beating the play on
    /// the table with as many cards, or leading on a clear table.
    Play { cards: Vec<Card> },
    /// Lay nothing this time round.
    Pass,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        /// The order of play, the leader first: forehand round the table in the first deal,
        /// the last deal's ranking after.
        order: Vec<Seat>,
        /// The pack as it was dealt, top card first.
        deck: Vec<Card>,
        /// Every seat's cards as dealt, before any exchange.
        hands: Vec<Vec<Card>>,
        /// Scores before this deal.
        scores: Vec<i64>,
        options: Options,
    },
    /// The last gives the president his best cards, or the president gives back his worst.
    CardsGiven {
        from: Seat,
        to: Seat,
        cards: Vec<Card>,
    },
    CardsPlayed {
        seat: Seat,
        cards: Vec<Card>,
        /// The play took the seat's last card.
        went_out: bool,
    },
    Passed {
        seat: Seat,
    },
    /// Everyone else passed: the table's cards leave the play.
    TableCleared {
        leader: Seat,
        cards: Vec<Card>,
    },
    DealScored {
        deal_number: u32,
        /// Seats by place, first out first.
        ranking: Vec<Seat>,
        terms: Vec<ScoreTerm>,
        /// The deal's points by seat.
        points: Vec<i64>,
        /// Scores after this deal.
        scores: Vec<i64>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Setup and deal

fn pack(options: &Options) -> Vec<Card> {
    if options.trouduc {
        decks::with_jokers(decks::standard52(), &[JOKER])
    } else {
        decks::standard52()
    }
}

/// The deal's order of play, the dealer (the last of it) and the hands dealt one card at a
/// time in that order.
fn deal_hands(state: &State, deck: &[Card]) -> (Vec<Seat>, Vec<Vec<Card>>) {
    let order = state.ranking.clone().unwrap_or_else(|| Seating::new(state.players).order_from(1));
    let mut hands = vec![Vec::new(); state.players];
    for (i, &card) in deck.iter().enumerate() {
        hands[order[i % order.len()]].push(card);
    }
    (order, hands.into_iter().map(|h| sort_by_rank(h, state.options.trouduc)).collect())
}

/// The exchange after the first deal: the last gives his best cards (never a joker), then the
/// president gives back his worst.
fn exchange(state: &State, order: &[Seat], hands: &[Vec<Card>]) -> Vec<Event> {
    let n = state.options.exchange;
    if state.ranking.is_none() || n == 0 {
        return Vec::new();
    }
    let ranks = Order(state.options.trouduc);
    let (president, last) = (order[0], order[order.len() - 1]);
    let best: Vec<Card> = hands[last].iter().rev().copied().filter(|&c| c != JOKER).take(n).collect();
    let mut after = hands[president].clone();
    after.extend(&best);
    after.sort_by_key(|&c| (ranks.rank(c), c));
    let worst: Vec<Card> = after.into_iter().take(n).collect();
    vec![
        Event::CardsGiven { from: last, to: president, cards: best },
        Event::CardsGiven { from: president, to: last, cards: worst },
    ]
}

// ---------------------------------------------------------------------------------------------
// Ranks

/// The rank order: two low and ace high; in Trouduc (true) three low, then the aces, the twos
/// and the joker above all.
#[derive(Clone, Copy)]
pub struct Order(pub bool);

impl climb::Ranks for Order {
    fn rank(&self, card: Card) -> u8 {
        match (card, self.0) {
            (Card::Joker(_), _) => 16,
            (c, true) if c.rank() == Some(Rank::TWO) => 15,
            (c, _) => rank_value(c),
        }
    }

    fn wild(&self, card: Card) -> bool {
        self.0 && card == JOKER
    }
}

fn sort_by_rank(mut hand: Vec<Card>, trouduc: bool) -> Vec<Card> {
    hand.sort_by_key(|&c| (Order(trouduc).rank(c), c));
    hand
}

// ---------------------------------------------------------------------------------------------
// Decide

fn decide_play(state: &State, deal: &Deal, seat: Seat, cards: &[Card]) -> Result<Vec<Event>, RuleViolation> {
    let climb = &deal.climb;
    let ranks = Order(state.options.trouduc);
    if let Some(&c) = cards.iter().find(|&&c| !climb.hands[seat].contains(&c)) {
        return Err(RuleViolation::card_not_held(c));
    }
    let shape = climb::shape(cards, MAX_PLAY, &ranks).map_err(|m| match m {
        Misfit::Count => RuleViolation::new(
            rule::ONE_TO_FOUR,
            format!("En utspelning är ett till fyra kort, inte {}.", cards.len()),
            format!("A play is one to four cards, not {}.", cards.len()),
        ),
        Misfit::Ranks => RuleViolation::new(
            rule::SAME_RANK,
            "Alla kort i en utspelning ska vara av samma valör (och inget kort två gånger).",
            "All cards of a play must be of one rank (and no card twice).",
        ),
    })?;
    if let Some(last) = climb.last() {
        let to_beat = climb::shape(&last.cards, MAX_PLAY, &ranks).expect("a play on the table has a shape");
        if shape.count != to_beat.count {
            return Err(RuleViolation::new(
                rule::SAME_COUNT,
                format!("Man lägger lika många kort som den som började, {}, inte {}.", to_beat.count, shape.count),
                format!("You lay as many cards as the lead, {}, not {}.", to_beat.count, shape.count),
            ));
        }
        if !shape.beats(to_beat) {
            let (rule, sv, en) = match state.options.trouduc && shape.rank == to_beat.rank {
                true => (rule::WILD, "lika höga kort med färre jokrar", "as high cards with fewer jokers"),
                false => (rule::HIGHER, "högre kort", "higher cards"),
            };
            return Err(RuleViolation::new(
                rule,
                format!("{} slår inte {}: det krävs {sv}.", codes(cards), codes(&last.cards)),
                format!("{} does not beat {}: it takes {en}.", codes(cards), codes(&last.cards)),
            ));
        }
    }
    let went_out = cards.len() == climb.hands[seat].len();
    let mut after = deal.clone();
    after.climb.play(seat, cards);
    let mut events = vec![Event::CardsPlayed { seat, cards: cards.to_vec(), went_out }];
    if after.climb.over() {
        events.extend(score_deal(state, &after));
    }
    Ok(events)
}

fn decide_pass(deal: &Deal) -> Result<Vec<Event>, RuleViolation> {
    let climb = &deal.climb;
    if climb.last().is_none() {
        return Err(RuleViolation::new(
            rule::LEAD,
            "Bordet är tomt: du spelar ut och kan inte passa.",
            "The table is clear: you lead and cannot pass.",
        ));
    }
    let mut events = vec![Event::Passed { seat: climb.to_play }];
    if climb.pass_clears() {
        let cards = climb.table.iter().flat_map(|p| p.cards.iter().copied()).collect();
        events.push(Event::TableCleared { leader: climb.leader_after_clear(), cards });
    }
    Ok(events)
}

fn codes(cards: &[Card]) -> String {
    crate::cards::codes(cards)
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve_deal(deal: &mut Deal, event: &Event, trouduc: bool) {
    match event {
        Event::CardsGiven { from, to, cards } => {
            for &c in cards {
                crate::cards::take_card(&mut deal.climb.hands[*from], c);
            }
            deal.climb.hands[*to].extend(cards);
            deal.climb.hands[*to] = sort_by_rank(std::mem::take(&mut deal.climb.hands[*to]), trouduc);
            deal.exchanges.push(Exchange { from: *from, to: *to, cards: Some(cards.clone()), count: cards.len() });
        }
        Event::CardsPlayed { seat, cards, .. } => deal.climb.play(*seat, cards),
        Event::Passed { seat } => deal.climb.pass(*seat),
        Event::TableCleared { leader, .. } => deal.climb.clear(*leader),
        Event::DealScored { terms, .. } => deal.terms = Some(terms.clone()),
        Event::DealStarted { .. } | Event::MatchEnded { .. } => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// Points for each place, first out first: one less than the players for the first, down to
/// none for the last; in Trouduc 2 and 1 for the first two.
pub fn place_points(players: usize, trouduc: bool) -> Vec<i64> {
    (0..players)
        .map(|p| if trouduc { 2i64.saturating_sub(p as i64).max(0) } else { (players - 1 - p) as i64 })
        .collect()
}

pub fn title(place: usize, players: usize) -> Title {
    match place {
        0 => Title::President,
        p if p + 1 == players => Title::Last,
        1 if players > 3 => Title::VicePresident,
        _ => Title::Citizen,
    }
}

fn score_deal(state: &State, deal: &Deal) -> Vec<Event> {
    let players = state.players;
    let ranking = deal.climb.ranking();
    let places = place_points(players, state.options.trouduc);
    let rule = if state.options.trouduc { rule::TROUDUC_SCORE } else { rule::PLACES };
    let terms: Vec<ScoreTerm> = ranking
        .iter()
        .enumerate()
        .map(|(p, &s)| {
            let (n, pts) = (p + 1, places[p]);
            ScoreTerm::new(
                s,
                pts,
                rule,
                format!("Plats {s} blev av med korten som nummer {n} av {players} och får {pts} poäng."),
                format!("Seat {s} finished in place {n} of {players} and scores {pts}."),
            )
        })
        .collect();
    let mut points = vec![0; players];
    for t in &terms {
        points[t.to] += t.points;
    }
    let scores: Vec<i64> = (0..players).map(|s| state.deals.scores[s] + points[s]).collect();
    let mut events = vec![Event::DealScored {
        deal_number: deal.number,
        ranking,
        terms,
        points: points.clone(),
        scores: scores.clone(),
    }];
    let target = state.options.target;
    let top = *scores.iter().max().expect("players");
    if top >= target {
        // Several at the same total: the most points in this deal wins.
        let winner = (0..players)
            .filter(|&s| scores[s] == top)
            .max_by_key(|&s| (points[s], std::cmp::Reverse(s)))
            .expect("a top seat");
        let tied = scores.iter().filter(|&&t| t == top).count() > 1;
        let (sv, en) = match tied {
            true => (
                format!("Plats {winner} vann: flera nådde {top} poäng (målet {target}), och plats {winner} fick flest i sista given ({}).", points[winner]),
                format!("Seat {winner} won: several reached {top} points (the target {target}), and seat {winner} scored most in the last deal ({}).", points[winner]),
            ),
            false => (
                format!("Plats {winner} nådde {top} poäng, minst målet {target}, och vann partiet."),
                format!("Seat {winner} reached {top} points, at least the target of {target}, and won the match."),
            ),
        };
        events.push(Event::MatchEnded { winners: vec![winner], explanation: Text::new(sv, en) });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the order of play and the titles from the last deal, the
/// plays on the table, who has gone out, the exchange (its cards only to the two players), and
/// the viewer's own hand. A deal's record shows every hand at every step.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PresidentTable))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    /// By seat, the title won in the last deal played: null before the first deal is over.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub titles: Option<Vec<Title>>,
    /// The order of play of this deal, the leader first: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub order: Option<Vec<Seat>>,
    /// The seat to play: absent before the first deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_play: Option<Seat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// The plays since the table was last cleared, the one to beat last: absent before the first
    /// deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub plays: Option<Vec<Play>>,
    /// Passes in a row since the last play.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub passes: Option<usize>,
    /// Cards cleared from the table this deal, out of play.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub cleared_count: Option<usize>,
    /// Seats rid of their cards this deal, in the order they went out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub out: Option<Vec<Seat>>,
    /// The exchange before the play.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub exchanges: Option<Vec<Exchange>>,
    /// The deal's score, term by term, once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terms: Option<Option<Vec<ScoreTerm>>>,
    /// The pack as dealt: only in a finished deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub deck: Option<Vec<Card>>,
    /// Every hand: only in a deal's record, at every step.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// The viewer's own hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
}

// ---------------------------------------------------------------------------------------------
// The bot

/// The rule of thumb: lead the lowest rank, all of it; follow with the lowest set that beats
/// without breaking a larger one or spending a joker, a two or an ace early; else pass.
fn basic_choice(state: &State, deal: &Deal, seat: Seat) -> Command {
    let ranks = Order(state.options.trouduc);
    let hand = &deal.climb.hands[seat];
    let mut groups: Vec<(u8, Vec<Card>)> = Vec::new();
    for &c in hand.iter().filter(|&&c| !ranks.wild(c)) {
        match groups.last_mut() {
            Some((r, g)) if *r == ranks.rank(c) => g.push(c),
            _ => groups.push((ranks.rank(c), vec![c])),
        }
    }
    let Some(last) = deal.climb.last() else {
        return match groups.first() {
            Some((_, g)) => Command::Play { cards: g.iter().copied().take(MAX_PLAY).collect() },
            None => Command::Play { cards: vec![hand[0]] },
        };
    };
    let to_beat = climb::shape(&last.cards, MAX_PLAY, &ranks).expect("a play on the table has a shape");
    let short = hand.len() <= 2 * to_beat.count + 2;
    let fits = |exact: bool| {
        groups.iter().find(|(r, g)| {
            *r > to_beat.rank && g.len() >= to_beat.count && (!exact || g.len() == to_beat.count) && (short || *r < 14)
        })
    };
    match fits(true).or_else(|| fits(false)) {
        Some((_, g)) => Command::Play { cards: g[..to_beat.count].to_vec() },
        None if short => climb::plays(hand, MAX_PLAY, &ranks)
            .into_iter()
            .find(|p| climb::shape(p, MAX_PLAY, &ranks).is_ok_and(|s| s.beats(to_beat)))
            .map_or(Command::Pass, |cards| Command::Play { cards }),
        None => Command::Pass,
    }
}

/// The deal as `seat` knows it: its own hand, the cards played, and the cards it gave or was
/// given in the exchange where they still lie; the rest of the unseen cards dealt afresh into the
/// other hands, each keeping its size.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let known = |s: Seat, c: Card| s == seat || deal.also_known_by(c, s) == Some(seat);
    let mut pool: Vec<Card> = Vec::new();
    for (s, hand) in deal.climb.hands.iter().enumerate() {
        pool.extend(hand.iter().filter(|&&c| !known(s, c)));
    }
    // In one order whoever holds them, so that the world depends on what the seat knows alone.
    pool.sort();
    rng.shuffle(&mut pool);
    let mut world = state.clone();
    let w = world.deals.deal.as_mut()?;
    let mut fresh = pool.into_iter();
    for (s, hand) in w.climb.hands.iter_mut().enumerate() {
        let kept: Vec<Card> = hand.iter().copied().filter(|&c| known(s, c)).collect();
        let size = hand.len();
        *hand = kept;
        while hand.len() < size {
            hand.push(fresh.next()?);
        }
        *hand = sort_by_rank(std::mem::take(hand), state.options.trouduc);
    }
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for President {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "president";
    const PLAYERS: RangeInclusive<usize> = 3..=6;
    const RULEBOOK: &'static str = include_str!("rulebooks/president.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options { trouduc: true, target: 4, exchange: 1 },
            Options { target: 8, exchange: 2, ..Options::default() },
        ]
    }

    /// Trouduc brings its own target and exchange unless the creator sent them.
    fn new_match_options(&self, sent: &Value, options: Options) -> Result<Options, SetupError> {
        let trouduc = options.trouduc;
        Ok(Options {
            target: if trouduc && sent.get("target").is_none() { 11 } else { options.target },
            exchange: if trouduc && sent.get("exchange").is_none() { 1 } else { options.exchange },
            ..options
        })
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        if !(1..=MAX_TARGET).contains(&options.target) {
            return Err(SetupError(format!("target must be 1 to {MAX_TARGET}, not {}", options.target)));
        }
        if options.exchange > 3 {
            return Err(SetupError(format!("exchange must be 0 to 3 cards, not {}", options.exchange)));
        }
        Ok(State { options, players, deals: Deals::new(players), ranking: None })
    }

    crate::status_of_deals!(|state| pack(&state.options));

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let (order, hands) = deal_hands(state, &deck);
        let mut events = vec![Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer: order[order.len() - 1],
            order: order.clone(),
            deck,
            hands: hands.clone(),
            scores: state.deals.scores.clone(),
            options: state.options.clone(),
        }];
        events.extend(exchange(state, &order, &hands));
        Ok(events)
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        let deal = state.deals.current()?;
        match command {
            Command::Play { cards } => decide_play(state, deal, seat, cards),
            Command::Pass => decide_pass(deal),
        }
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        match event {
            Event::DealStarted { deal_number, order, deck, hands, scores, options, .. } => {
                state.options = options.clone();
                let deal = Deal {
                    number: *deal_number,
                    dealer: order[order.len() - 1],
                    deck: deck.clone(),
                    climb: Climb::new(order.clone(), hands.clone()),
                    exchanges: Vec::new(),
                    terms: None,
                };
                state.deals.started(*deal_number, scores, deal);
            }
            Event::DealScored { ranking, terms, scores, .. } => {
                state.deals.scored(terms, scores);
                state.ranking = Some(ranking.clone());
                state.deals.next_dealer = ranking[ranking.len() - 1];
                if let Some(deal) = state.deals.deal.as_mut() {
                    evolve_deal(deal, event, state.options.trouduc);
                }
            }
            Event::MatchEnded { winners, explanation } => state.deals.ended(winners, explanation),
            _ => {
                if let Some(deal) = state.deals.deal.as_mut() {
                    evolve_deal(deal, event, state.options.trouduc);
                }
            }
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        let ranks = Order(state.options.trouduc);
        let to_beat = deal.climb.last().map(|p| climb::shape(&p.cards, MAX_PLAY, &ranks).expect("a shape"));
        let mut moves: Vec<Command> = to_beat.iter().map(|_| Command::Pass).collect();
        moves.extend(
            climb::plays(&deal.climb.hands[seat], MAX_PLAY, &ranks)
                .into_iter()
                .filter(|p| to_beat.is_none_or(|b| climb::shape(p, MAX_PLAY, &ranks).is_ok_and(|s| s.beats(b))))
                .map(|cards| Command::Play { cards }),
        );
        moves
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut moves = vec![Command::Pass];
        moves.extend(pack(&state.options).into_iter().map(|c| Command::Play { cards: vec![c] }));
        if let Some(deal) = state.deals.live() {
            let ranks = Order(state.options.trouduc);
            moves.extend(
                climb::plays(&deal.climb.hands[seat], MAX_PLAY, &ranks)
                    .into_iter()
                    .map(|cards| Command::Play { cards }),
            );
            let hand = &deal.climb.hands[seat];
            if hand.len() >= 2 {
                moves.push(Command::Play { cards: vec![hand[0], hand[hand.len() - 1]] });
            }
        }
        moves.dedup();
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        let me = viewer.seat_at(state.players);
        let deal = state.deals.deal.as_ref();
        let record = deal.filter(|_| viewer == Viewer::Record);
        let live = deal.is_some_and(deals::Deal::is_live);
        let ranking = state.ranking.as_ref();
        Table {
            phase: state.deals.phase(),
            deals: state.deals.view(viewer, state.players, deal.map(|d| d.dealer)),
            options: state.options.clone(),
            titles: ranking.map(|r| {
                let mut titles = vec![Title::Citizen; state.players];
                for (p, &s) in r.iter().enumerate() {
                    titles[s] = title(p, state.players);
                }
                titles
            }),
            order: deal.map(|d| d.climb.order.clone()),
            to_play: deal.map(|d| d.climb.to_play),
            hand_sizes: deal.map(|d| d.climb.hands.iter().map(Vec::len).collect()),
            plays: deal.map(|d| d.climb.table.clone()),
            passes: deal.map(|d| d.climb.passes),
            cleared_count: deal.map(|d| d.climb.cleared.len()),
            out: deal.map(|d| d.climb.out.clone()),
            exchanges: deal.map(|d| {
                let mut x = d.exchanges.clone();
                for e in &mut x {
                    if live && viewer != Viewer::Record && me != Some(e.from) && me != Some(e.to) {
                        e.cards = None;
                    }
                }
                x
            }),
            terms: deal.map(|d| d.terms.clone()),
            deck: record.filter(|d| !deals::Deal::is_live(*d)).map(|d| d.deck.clone()),
            hands: record.map(|d| d.climb.hands.clone()),
            hand: deal.zip(me).map(|(d, s)| d.climb.hands[s].clone()),
        }
    }

    fn redact(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let mut full = serde_json::to_value(event).expect("events always serialize");
        let live = state.deals.live().map(|d| d.number);
        match event {
            Event::DealStarted { deal_number, hands, .. } if state.deals.in_play(*deal_number, viewer, deal_over) => {
                deals::hide_hands(&mut full, hands, viewer);
            }
            Event::CardsGiven { from, to, .. }
                if live.is_some()
                    && !deal_over
                    && viewer != Viewer::Record
                    && ![Viewer::Seat(*from), Viewer::Seat(*to)].contains(&viewer) =>
            {
                full["cards"] = Value::Null;
            }
            _ => {}
        }
        full
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = state.deals.live() else { return Vec::new() };
        let mut secrets = Vec::new();
        // Highest cards first, by seat.
        for (s, hand) in deal.climb.hands.iter().enumerate() {
            secrets
                .extend(hand.iter().rev().map(|&c| (c, std::iter::once(s).chain(deal.also_known_by(c, s)).collect())));
        }
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        let pack = pack(&state.options);
        deals::check_deck(&deal.deck, &pack)?;
        crate::ensure!(
            is_permutation(&deal.climb.all_cards(), &pack),
            "hands, table and cleared cards are not the pack"
        );
        let ranks = Order(state.options.trouduc);
        for w in deal.climb.table.windows(2) {
            let (a, b) = (climb::shape(&w[0].cards, MAX_PLAY, &ranks), climb::shape(&w[1].cards, MAX_PLAY, &ranks));
            crate::ensure!(matches!((a, b), (Ok(a), Ok(b)) if b.beats(a)), "{:?} does not beat {:?}", w[1], w[0]);
        }
        let sum: i64 = state.deals.scores.iter().sum();
        let per_deal: i64 = place_points(state.players, state.options.trouduc).iter().sum();
        crate::ensure!(sum % per_deal == 0, "scores {:?} are not whole deals' points", state.deals.scores);
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    /// One play a rank, count and number of jokers: which suits make it up makes no difference.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let ranks = Order(state.options.trouduc);
        let mut seen = Vec::new();
        let mut moves = self.legal_moves(state, seat);
        moves.retain(|m| match m {
            Command::Play { cards } => {
                let s = climb::shape(cards, MAX_PLAY, &ranks).map(|s| (s.count, s.rank, s.wild)).ok();
                let new = !seen.contains(&s);
                seen.push(s);
                new
            }
            Command::Pass => true,
        });
        moves
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        Some(basic_choice(state, state.deals.acting(seat)?, seat))
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        let scores = &state.deals.scores;
        bots::lead_over_mean(state.players, |s| scores[s] as f64, seat)
    }
}

#[cfg(test)]
mod tests;
