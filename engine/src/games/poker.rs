//! Poker, "mörk poker" (five-card draw): two to seven players with 100 chips each. Everyone
//! antes; five cards each, face down; a betting round from forehand; the players still in
//! discard any cards and buy as many from the stock, in turn from the dealer's left; a second
//! betting round; the best hand wins the pot (side pots for players all in for less). A round of
//! checks in the first round throws the deal in, the pot staying for the next deal. A match is
//! ten deals or until one player has every chip.
//!
//! The betting is the `betting` toolkit's, the hands the `poker` toolkit's. Folded hands, the
//! discards and the hand of a winner nobody called are never shown, not even in the record.
//! When the stock runs out during the draw, the cards discarded earlier in the deal (not the
//! buyer's own) are shuffled into a new stock by the service ([`Status::NeedsShuffle`]).

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::betting::{self, Action, Betting, Limit, Settlement, Wrong};
use crate::bots;
use crate::cards::{decks, is_permutation, rank_value, sorted, take_card, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Status, Viewer};
use crate::ledger::{Account, Payment};
use crate::poker::{self as hands, Category, HandRank, Hands};
use crate::random::Rng;
use crate::rules::{core, RuleViolation, ScoreTerm, Text};
use crate::seat::{seats_text, Seat, Table as Seating};

#[derive(Default)]
pub struct Poker;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 7;
/// Cards in a hand.
pub const HAND: usize = 5;
/// The largest number of chips, ante, bet size or deals a match may be created with.
pub const MAX_CHIPS: i64 = 10_000;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const ANTE: &str = "poker.deal.ante";
    pub const CHECK: &str = "poker.bet.check";
    pub const OPEN: &str = "poker.bet.open";
    pub const AMOUNT: &str = "poker.bet.amount";
    pub const RAISE: &str = "poker.bet.raise";
    pub const PUT_IN: &str = "poker.bet.put-in";
    pub const JACKS: &str = "poker.open.jacks";
    pub const PASS_AND_OUT: &str = "poker.open.pass-and-out";
    pub const DISCARD: &str = "poker.draw.discard";
    pub const THROWN_IN: &str = "poker.deal.thrown-in";
    pub const UNCALLED: &str = "poker.showdown.uncalled";
    pub const POT: &str = "poker.showdown.pot";
    pub const SPLIT: &str = "poker.showdown.split";
    pub const STAKES: &str = "poker.showdown.stakes";
    pub const LEFTOVER: &str = "poker.house.leftover";
}

// ---------------------------------------------------------------------------------------------
// Options

/// What happens to the chips a split pot cannot share evenly.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OddChip {
    /// One chip each to the winners nearest after the dealer, clockwise.
    #[default]
    FirstAfterDealer,
    /// Left in the pot for the next deal.
    CarryOver,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Chips each player starts with.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10000))]
    pub chips: i64,
    /// Each player's ante at the start of every deal.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10000))]
    pub ante: i64,
    /// Deals in a match (thrown-in deals count).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub deals: u32,
    /// How much may be bet: no limit, pot limit, or fixed bets.
    pub limit: Limit,
    /// With fixed bets: the size of a bet or raise before the draw; after it, twice as much.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10000))]
    pub bet_size: i64,
    /// Jacks or better to open the first round.
    pub jacks_to_open: bool,
    /// No checking in the first round: bet or fold.
    pub pass_and_out: bool,
    pub odd_chip: OddChip,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            chips: 100,
            ante: 1,
            deals: 10,
            limit: Limit::NoLimit,
            bet_size: 2,
            jacks_to_open: false,
            pass_and_out: false,
            odd_chip: OddChip::FirstAfterDealer,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// State

/// Where the match is: `waiting-for-deal`, `first-betting` (before the draw), `drawing`,
/// `shuffling-stock` (discards being shuffled into a new stock), `second-betting`, `deal-over`
/// and `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    FirstBetting,
    Drawing,
    ShufflingStock,
    SecondBetting,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

/// How a deal ended.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// Everyone checked in the first round: the cards are thrown in, the pot stays.
    ThrownIn,
    /// All but one folded: he takes the pot without showing.
    Uncalled,
    /// The hands still in were shown and compared.
    Showdown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The antes are in; the first round is to open.
    Opening(u8),
    Betting(u8),
    Drawing,
    /// Every hand still in is to be shown.
    Showdown,
    /// The deal is to be scored.
    Settling(Ending),
    Over,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    forehand: Seat,
    deck: Vec<Card>,
    betting: Betting,
    /// By seat, the hand (a folded hand stays with its seat, face down).
    hands: Vec<Vec<Card>>,
    /// Top card first.
    stock: Vec<Card>,
    /// By seat, discards lying face down beside the stock, not yet shuffled into it.
    muck: Vec<Vec<Card>>,
    /// By seat, every card it discarded this deal.
    discarded: Vec<Vec<Card>>,
    stage: Stage,
    /// Somebody spoke in the first round (so a round of checks throws the deal in).
    spoke: bool,
    /// By seat, how many cards it bought, once it has.
    draws: Vec<Option<usize>>,
    drawer: Option<Seat>,
    /// Cards the drawer is still owed when the stock ran out: the earlier discards are to be
    /// shuffled into a new stock first.
    owed: usize,
    /// By seat, the hand shown at the showdown.
    shown: Vec<Option<Vec<Card>>>,
    options: Options,
}

impl Deal {
    fn players(&self) -> usize {
        self.hands.len()
    }

    fn over(&self) -> bool {
        self.stage == Stage::Over
    }

    fn round(&self) -> Option<u8> {
        match self.stage {
            Stage::Betting(r) => Some(r),
            _ => None,
        }
    }

    /// The discards to shuffle into a new stock: everyone's in the muck but the drawer's own.
    fn to_shuffle(&self) -> Vec<Card> {
        let drawer = self.drawer.filter(|_| self.owed > 0);
        (0..self.players()).filter(|&s| Some(s) != drawer).flat_map(|s| self.muck[s].clone()).collect()
    }

    fn rank_of(&self, seat: Seat) -> HandRank {
        hands::rank(&self.hands[seat], Hands::Standard)
    }

    /// The first seat still in from `seat` on that has not bought yet.
    fn next_drawer(&self, from: Seat) -> Option<Seat> {
        let n = self.players();
        (0..n).map(|k| (from + k) % n).find(|&s| self.betting.live(s) && self.draws[s].is_none())
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match self.stage {
            Stage::Betting(_) => self.betting.to_act().into_iter().collect(),
            Stage::Drawing if self.owed == 0 => self.drawer.into_iter().collect(),
            _ => Vec::new(),
        }
    }

    fn is_live(&self) -> bool {
        !self.over()
    }

    fn phase(&self) -> Phase {
        match self.stage {
            Stage::Opening(1) | Stage::Betting(1) => Phase::FirstBetting,
            Stage::Drawing if self.owed > 0 => Phase::ShufflingStock,
            Stage::Drawing => Phase::Drawing,
            Stage::Opening(_) | Stage::Betting(_) => Phase::SecondBetting,
            Stage::Showdown | Stage::Settling(_) | Stage::Over => Phase::DealOver,
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    table: Seating,
    /// The match; its scores are each seat's chips won (negative: lost).
    deals: Deals<Deal>,
    /// Stocks shuffled anew within deals, for [`Rules::shuffles`].
    stock_shuffles: u32,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }

    fn stack(&self, seat: Seat) -> i64 {
        match &self.deals.deal {
            Some(d) => d.betting.stack(seat),
            None => self.options.chips,
        }
    }

    fn pot(&self) -> i64 {
        self.deals.deal.as_ref().map_or(0, |d| d.betting.pot())
    }

    /// The first seat with chips from `from` on, clockwise.
    fn first_with_chips(&self, from: Seat) -> Seat {
        self.table.order_from(from).into_iter().find(|&s| self.stack(s) > 0).unwrap_or(from)
    }
}

// ---------------------------------------------------------------------------------------------
// Commands and events

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Bet nothing while nobody has bet this round.
    Check,
    /// Open the round with a bet of `amount` chips.
    Bet {
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 4_294_967_295_i64))]
        #[serde(deserialize_with = "crate::schema::within::<_, _, 1, 4294967295>")]
        amount: i64,
    },
    /// Put in what it takes to meet the bet (or the whole stack, all in for less).
    Call,
    /// Meet the bet and put in `by` chips more.
    Raise {
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 4_294_967_295_i64))]
        #[serde(deserialize_with = "crate::schema::within::<_, _, 1, 4294967295>")]
        by: i64,
    },
    /// Give up the hand and what has been put in.
    Fold,
    /// Discard these cards (none: stand pat) and buy as many from the stock.
    Draw { discard: Vec<Card> },
}

/// A hand shown at the showdown.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownHand {
    pub seat: Seat,
    pub cards: Vec<Card>,
    pub category: Category,
    pub rank: HandRank,
}

/// One pot of a deal and who took it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PotResult {
    pub amount: i64,
    pub eligible: Vec<Seat>,
    pub winners: Vec<Seat>,
    /// The winning hand's category, when hands were shown.
    pub category: Option<Category>,
    /// Chips left in the pot for the next deal (an odd chip carried over).
    pub carried: i64,
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
        /// The pack as shuffled, top card first: never shown, as it holds the discards.
        deck: Vec<Card>,
        /// By seat, the hand as dealt (empty for a seat without chips).
        hands: Vec<Vec<Card>>,
        /// Seats dealt in: those with chips.
        in_deal: Vec<Seat>,
        /// Chips each seat has won (negative: lost) before this deal.
        scores: Vec<i64>,
        /// Chips in the pot before the antes (left from earlier deals).
        pot: i64,
        options: Options,
    },
    AntesPaid {
        payments: Vec<Payment>,
    },
    /// A betting round begins (1 before the draw, 2 after); `first` speaks first if he can.
    RoundOpened {
        round: u8,
        first: Seat,
    },
    Checked {
        seat: Seat,
    },
    Bet {
        seat: Seat,
        amount: i64,
        all_in: bool,
    },
    Called {
        seat: Seat,
        amount: i64,
        all_in: bool,
    },
    Raised {
        seat: Seat,
        by: i64,
        /// Chips put in: the call and the raise.
        amount: i64,
        all_in: bool,
    },
    Folded {
        seat: Seat,
    },
    RoundClosed {
        round: u8,
        pot: i64,
    },
    /// `seat` discarded `count` cards and bought from the stock: the cards are its own.
    Drew {
        seat: Seat,
        count: usize,
        discarded: Vec<Card>,
        /// The cards bought; fewer than `count` when the stock ran out.
        drawn: Vec<Card>,
    },
    /// The earlier discards, shuffled into a new stock (top card first): seen by nobody.
    StockShuffled {
        order: Vec<Card>,
    },
    /// The rest of `seat`'s purchase, from the new stock.
    DrawCompleted {
        seat: Seat,
        drawn: Vec<Card>,
    },
    /// The hands still in, shown and ranked.
    Showdown {
        hands: Vec<ShownHand>,
    },
    DealScored {
        deal_number: u32,
        ending: Ending,
        /// The pots, each with its winners.
        pots: Vec<PotResult>,
        /// Every chip paid out, with why.
        payments: Vec<Payment>,
        /// The deal's result by seat, term by term: what each put in, what each won.
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
        scores: Vec<i64>,
        stacks: Vec<i64>,
        /// Chips left in the pot for the next deal.
        pot: i64,
        /// Seats left without chips by this deal.
        out_of_match: Vec<Seat>,
    },
    MatchEnded {
        winners: Vec<Seat>,
        scores: Vec<i64>,
        explanation: Text,
    },
}

// ---------------------------------------------------------------------------------------------
// Setup and deal

fn deal_started(state: &State, deck: Vec<Card>) -> Vec<Event> {
    let dealer = state.first_with_chips(state.deals.next_dealer);
    let in_deal: Vec<Seat> =
        state.table.order_from(state.table.next(dealer)).into_iter().filter(|&s| state.stack(s) > 0).collect();
    let mut hands = vec![Vec::new(); state.players()];
    for (i, &card) in deck.iter().take(HAND * in_deal.len()).enumerate() {
        hands[in_deal[i % in_deal.len()]].push(card);
    }
    let mut seats = in_deal.clone();
    seats.sort_unstable();
    let payments = in_deal
        .iter()
        .map(|&s| {
            let amount = state.options.ante.min(state.stack(s));
            Payment::new(
                Account::Seat(s),
                Account::Pot,
                amount,
                rule::ANTE,
                format!("Plats {s} lägger {amount} i ante."),
                format!("Seat {s} antes {amount}."),
            )
        })
        .collect();
    vec![
        Event::DealStarted {
            deal_number: state.deals.number + 1,
            dealer,
            forehand: in_deal[0],
            deck,
            hands: hands.into_iter().map(sorted).collect(),
            in_deal: seats,
            scores: state.deals.scores.clone(),
            pot: state.pot(),
            options: state.options.clone(),
        },
        Event::AntesPaid { payments },
    ]
}

// ---------------------------------------------------------------------------------------------
// Betting and drawing

fn action_of(command: &Command) -> Option<Action> {
    match *command {
        Command::Check => Some(Action::Check),
        Command::Bet { amount } => Some(Action::Bet(amount)),
        Command::Call => Some(Action::Call),
        Command::Raise { by } => Some(Action::Raise(by)),
        Command::Fold => Some(Action::Fold),
        Command::Draw { .. } => None,
    }
}

fn command_of(action: Action) -> Command {
    match action {
        Action::Check => Command::Check,
        Action::Bet(amount) => Command::Bet { amount },
        Action::Call => Command::Call,
        Action::Raise(by) => Command::Raise { by },
        Action::Fold => Command::Fold,
    }
}

/// Jacks or better: what it takes to open with `jacks_to_open`.
fn has_openers(hand: &[Card]) -> bool {
    let r = hands::rank(hand, Hands::Standard);
    r.category > Category::OnePair || (r.category == Category::OnePair && r.ranks[0] >= 11)
}

/// The game's own conditions on a betting action, beyond the toolkit's: the openers and pass
/// and out in the first round.
fn game_allows(deal: &Deal, seat: Seat, action: Action) -> Result<(), RuleViolation> {
    if deal.round() != Some(1) {
        return Ok(());
    }
    if matches!(action, Action::Bet(_)) && deal.options.jacks_to_open && !has_openers(&deal.hands[seat]) {
        return Err(RuleViolation::new(
            rule::JACKS,
            "Potten öppnas bara med minst ett par knektar: du kan checka eller lägga dig.",
            "The pot is opened only with a pair of jacks or better: you may check or fold.",
        ));
    }
    if action == Action::Check && deal.options.pass_and_out {
        return Err(RuleViolation::new(
            rule::PASS_AND_OUT,
            "Före köpet får man inte checka: öppna potten eller lägg dig.",
            "Before the draw nobody may check: open the pot or fold.",
        ));
    }
    Ok(())
}

/// The betting actions `seat` may take now.
fn legal_actions(deal: &Deal, seat: Seat) -> Vec<Action> {
    deal.betting.legal(seat).into_iter().filter(|&a| game_allows(deal, seat, a).is_ok()).collect()
}

fn refusal(wrong: Wrong) -> RuleViolation {
    match wrong {
        Wrong::BetToMeet(n) => RuleViolation::new(
            rule::CHECK,
            format!("Det finns en insats att möta: syna med {n}, höj eller lägg dig."),
            format!("There is a bet to meet: call {n}, raise or fold."),
        ),
        Wrong::NoBet => RuleViolation::new(
            rule::OPEN,
            "Ingen har satsat i den här rundan: checka eller öppna potten.",
            "Nobody has bet this round: check or open the pot.",
        ),
        Wrong::AlreadyBet => RuleViolation::new(
            rule::OPEN,
            "Potten är redan öppnad i den här rundan: syna, höj eller lägg dig.",
            "The pot is already open this round: call, raise or fold.",
        ),
        Wrong::Amount { min, max } => RuleViolation::new(
            rule::AMOUNT,
            format!("Beloppet ska vara från {min} till {max} marker."),
            format!("The amount must be from {min} to {max} chips."),
        ),
        Wrong::CannotRaise => RuleViolation::new(
            rule::RAISE,
            "Du kan inte satsa mer nu: du har inga marker utöver synen, eller ingen annan kan svara.",
            "You cannot put in more now: you have no chips beyond the call, or nobody else could answer.",
        ),
        Wrong::NotToAct => RuleViolation::wrong_phase("nu satsas det inte", "there is no betting now"),
    }
}

fn decide_bet(deal: &Deal, seat: Seat, action: Action) -> Result<Event, RuleViolation> {
    let chips = deal.betting.check(seat, action).map_err(refusal)?;
    game_allows(deal, seat, action)?;
    let all_in = chips > 0 && chips == deal.betting.stack(seat);
    Ok(match action {
        Action::Check => Event::Checked { seat },
        Action::Bet(amount) => Event::Bet { seat, amount, all_in },
        Action::Call => Event::Called { seat, amount: chips, all_in },
        Action::Raise(by) => Event::Raised { seat, by, amount: chips, all_in },
        Action::Fold => Event::Folded { seat },
    })
}

fn decide_draw(deal: &Deal, seat: Seat, discard: &[Card]) -> Result<Event, RuleViolation> {
    if let Some(&c) = discard.iter().find(|c| !deal.hands[seat].contains(c)) {
        return Err(RuleViolation::card_not_held(c));
    }
    if let Some((_, &c)) = discard.iter().enumerate().find(|(i, c)| discard[..*i].contains(c)) {
        return Err(RuleViolation::new(
            rule::DISCARD,
            format!("Du kastade {c} två gånger; varje kort kastas en gång."),
            format!("You discarded {c} twice; each card is discarded once."),
        ));
    }
    let k = discard.len();
    let drawn: Vec<Card> = deal.stock.iter().take(k).copied().collect();
    Ok(Event::Drew { seat, count: k, discarded: sorted(discard.to_vec()), drawn })
}

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let event = match (deal.stage, command) {
        (Stage::Drawing, Command::Draw { discard }) => decide_draw(deal, seat, discard)?,
        (Stage::Drawing, _) => {
            return Err(RuleViolation::wrong_phase("nu köper man kort", "cards are being bought now"));
        }
        (_, Command::Draw { .. }) => {
            return Err(RuleViolation::wrong_phase("nu satsas det", "this is a betting round"));
        }
        (_, c) => decide_bet(deal, seat, action_of(c).expect("a betting command"))?,
    };
    Ok(run(state, vec![event]))
}

fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

/// The next automatic step: a round opened or closed, the showdown, the score, the match's end.
fn next_step(state: &State) -> Option<Event> {
    if state.deals.outcome.is_some() {
        return None;
    }
    let deal = state.deals.deal.as_ref()?;
    match deal.stage {
        Stage::Opening(round) => {
            let first = if round == 1 { deal.forehand } else { state.table.next(deal.dealer) };
            Some(Event::RoundOpened { round, first })
        }
        Stage::Betting(round) if deal.betting.round_over() => {
            Some(Event::RoundClosed { round, pot: deal.betting.pot() })
        }
        Stage::Showdown => Some(showdown(deal)),
        Stage::Settling(ending) => Some(score(state, deal, ending)),
        Stage::Over if match_over(state) => Some(match_end(state)),
        _ => None,
    }
}

fn showdown(deal: &Deal) -> Event {
    let hands = deal
        .betting
        .live_seats()
        .into_iter()
        .map(|seat| {
            let rank = deal.rank_of(seat);
            ShownHand { seat, cards: deal.hands[seat].clone(), category: rank.category, rank }
        })
        .collect();
    Event::Showdown { hands }
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted { deal_number, dealer, forehand, deck, hands, in_deal, scores, pot, options } => {
            let players = hands.len();
            state.options = options.clone();
            state.table = Seating::new(players);
            let mut betting = Betting::new(players, options.chips);
            // What each seat has won or lost so far, and the pot left over, rebuilt as payments.
            for (s, &b) in scores.iter().enumerate().filter(|(_, b)| **b != 0) {
                let text = || "Saldo från tidigare givar.".to_string();
                betting.ledger.pay(&Payment::new(
                    Account::Pot,
                    Account::Seat(s),
                    b,
                    rule::STAKES,
                    text(),
                    "Balance from earlier deals.".into(),
                ));
            }
            debug_assert_eq!(betting.pot(), *pot);
            betting.new_deal((0..players).map(|s| in_deal.contains(&s)).collect());
            let dealt = HAND * in_deal.len();
            let deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                forehand: *forehand,
                deck: deck.clone(),
                betting,
                hands: hands.clone(),
                stock: deck[dealt..].to_vec(),
                muck: vec![Vec::new(); players],
                discarded: vec![Vec::new(); players],
                stage: Stage::Opening(1),
                spoke: false,
                draws: vec![None; players],
                drawer: None,
                owed: 0,
                shown: vec![None; players],
                options: options.clone(),
            };
            state.deals.started(*deal_number, scores, deal);
            state.deals.next_dealer = state.first_with_chips(state.table.next(*dealer));
        }
        Event::DealScored { terms, scores, payments, .. } => {
            state.deals.scored(terms, scores);
            if let Some(deal) = state.deals.deal.as_mut() {
                payments.iter().for_each(|p| deal.betting.pay_out(p));
                deal.stage = Stage::Over;
            }
            let dealer = state.deals.deal.as_ref().map_or(0, |d| d.dealer);
            state.deals.next_dealer = state.first_with_chips(state.table.next(dealer));
        }
        Event::MatchEnded { winners, explanation, .. } => state.deals.ended(winners, explanation),
        _ => {
            let table = state.table;
            let Some(deal) = state.deals.deal.as_mut() else { return };
            if let Event::StockShuffled { .. } = event {
                state.stock_shuffles += 1;
            }
            evolve_deal(deal, &table, event);
        }
    }
}

fn bet_payment(seat: Seat, amount: i64) -> Payment {
    Payment::new(
        Account::Seat(seat),
        Account::Pot,
        amount,
        rule::PUT_IN,
        format!("Plats {seat} lägger {amount} i potten."),
        format!("Seat {seat} puts {amount} into the pot."),
    )
}

fn evolve_deal(deal: &mut Deal, table: &Seating, event: &Event) {
    match event {
        Event::AntesPaid { payments } => payments.iter().for_each(|p| deal.betting.put_in(p)),
        Event::RoundOpened { round, first } => {
            let size = if *round == 1 { deal.options.bet_size } else { 2 * deal.options.bet_size };
            deal.betting.start_round(*first, deal.options.limit, size);
            deal.stage = Stage::Betting(*round);
        }
        Event::Checked { seat } => {
            deal.spoke = true;
            deal.betting.act(*seat, Action::Check, None);
        }
        Event::Bet { seat, amount, .. } => {
            deal.betting.act(*seat, Action::Bet(*amount), Some(&bet_payment(*seat, *amount)))
        }
        Event::Called { seat, amount, .. } => deal.betting.act(*seat, Action::Call, Some(&bet_payment(*seat, *amount))),
        Event::Raised { seat, by, amount, .. } => {
            deal.betting.act(*seat, Action::Raise(*by), Some(&bet_payment(*seat, *amount)))
        }
        Event::Folded { seat } => {
            deal.spoke = true;
            deal.betting.act(*seat, Action::Fold, None);
        }
        Event::RoundClosed { round, .. } => {
            let opened = deal.betting.round.as_ref().is_some_and(|r| r.opened);
            deal.betting.end_round();
            let live = deal.betting.live_seats().len();
            deal.stage = match (round, live) {
                (_, 0 | 1) => Stage::Settling(Ending::Uncalled),
                (1, _) if !opened && deal.spoke => Stage::Settling(Ending::ThrownIn),
                (1, _) => {
                    deal.drawer = deal.next_drawer(table.next(deal.dealer));
                    Stage::Drawing
                }
                _ => Stage::Showdown,
            };
        }
        Event::Drew { seat, count, discarded, drawn } => {
            for &c in discarded {
                take_card(&mut deal.hands[*seat], c);
            }
            deal.muck[*seat].extend_from_slice(discarded);
            deal.discarded[*seat].extend_from_slice(discarded);
            take_from_stock(deal, *seat, drawn);
            deal.draws[*seat] = Some(*count);
            deal.owed = count - drawn.len();
            if deal.owed == 0 {
                advance_draw(deal, table, *seat);
            }
        }
        Event::StockShuffled { order } => {
            let drawer = deal.drawer;
            for s in 0..deal.players() {
                if Some(s) != drawer {
                    deal.muck[s].clear();
                }
            }
            deal.stock = order.clone();
        }
        Event::DrawCompleted { seat, drawn } => {
            take_from_stock(deal, *seat, drawn);
            deal.owed = 0;
            advance_draw(deal, table, *seat);
        }
        Event::Showdown { hands } => {
            for h in hands {
                deal.shown[h.seat] = Some(h.cards.clone());
            }
            deal.stage = Stage::Settling(Ending::Showdown);
        }
        _ => {}
    }
}

fn take_from_stock(deal: &mut Deal, seat: Seat, drawn: &[Card]) {
    for &c in drawn {
        take_card(&mut deal.stock, c);
    }
    deal.hands[seat].extend_from_slice(drawn);
    deal.hands[seat] = sorted(std::mem::take(&mut deal.hands[seat]));
}

fn advance_draw(deal: &mut Deal, table: &Seating, seat: Seat) {
    deal.drawer = deal.next_drawer(table.next(seat));
    if deal.drawer.is_none() {
        deal.stage = Stage::Opening(2);
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

/// The deal's pots and who takes each, every chip paid out, and the result by seat: what each
/// put in and what each won.
fn score(state: &State, deal: &Deal, ending: Ending) -> Event {
    let betting = &deal.betting;
    let mut pots = Vec::new();
    let mut payments = Vec::new();
    let carry_odd = deal.options.odd_chip == OddChip::CarryOver;
    match ending {
        Ending::ThrownIn => {}
        Ending::Uncalled => {
            let winner = betting.live_seats()[0];
            let amount = betting.pot();
            payments.push(betting::from_pot(
                winner,
                amount,
                rule::UNCALLED,
                format!("Alla andra lade sig: plats {winner} tar potten, {amount}, utan att visa korten."),
                format!("Everyone else folded: seat {winner} takes the pot, {amount}, without showing."),
            ));
            pots.push(PotResult { amount, eligible: vec![winner], winners: vec![winner], category: None, carried: 0 });
        }
        Ending::Showdown => {
            let won = betting.showdown(|s| deal.rank_of(s), &state.table, deal.dealer, carry_odd);
            for (k, pot) in won.into_iter().enumerate() {
                let (best, winners, shares, carried) = (pot.best, pot.winners, pot.shares, pot.carried);
                let which = if k == 0 { ("potten", "the pot") } else { ("sidopotten", "the side pot") };
                for (s, n) in shares {
                    let (rule, sv, en) = if winners.len() == 1 {
                        (
                            rule::POT,
                            format!("Plats {s} vinner {} med {}: {n}.", which.0, best.name_sv()),
                            format!("Seat {s} wins {} with {}: {n}.", which.1, best.name_en()),
                        )
                    } else {
                        let who = seats_text(&winners);
                        (
                            rule::SPLIT,
                            format!(
                                "Platserna {who} delar {} på {} ({}): plats {s} får {n}.",
                                which.0,
                                pot.amount,
                                best.name_sv()
                            ),
                            format!(
                                "Seats {who} split {} of {} ({}): seat {s} gets {n}.",
                                which.1,
                                pot.amount,
                                best.name_en()
                            ),
                        )
                    };
                    payments.push(betting::from_pot(s, n, rule, sv, en));
                }
                pots.push(PotResult {
                    amount: pot.amount,
                    eligible: pot.eligible,
                    winners,
                    category: Some(best.category),
                    carried,
                });
            }
        }
    }
    let last_deal = state.deals.number >= state.options.deals;
    let stake = |s: Seat, n: i64| {
        Text::new(
            format!("Plats {s} satsade {n} i given (ante och insatser)."),
            format!("Seat {s} put {n} into the deal (ante and bets)."),
        )
    };
    let mut settled =
        betting.settle(payments, last_deal, &state.table, deal.dealer, rule::LEFTOVER, (rule::STAKES, stake));
    if ending == Ending::ThrownIn {
        settled.terms.push(ScoreTerm::new(
            deal.dealer,
            0,
            rule::THROWN_IN,
            "Alla checkade före köpet: korten kastas och potten ligger kvar till nästa giv.".into(),
            "Everyone checked before the draw: the cards are thrown in and the pot stays for the next deal.".into(),
        ));
    }
    let Settlement { payments, terms, points, stacks, left, out_of_match } = settled;
    let scores: Vec<i64> = state.deals.scores.iter().zip(&points).map(|(a, b)| a + b).collect();
    Event::DealScored {
        deal_number: deal.number,
        ending,
        pots,
        payments,
        terms,
        points,
        scores,
        stacks,
        pot: left,
        out_of_match,
    }
}

fn match_over(state: &State) -> bool {
    let with_chips = (0..state.players()).filter(|&s| state.stack(s) > 0).count();
    state.deals.number >= state.options.deals || with_chips <= 1
}

/// The most chips win; a tie shares the win.
fn match_end(state: &State) -> Event {
    let stacks: Vec<i64> = (0..state.players()).map(|s| state.stack(s)).collect();
    let best = stacks.iter().copied().max().unwrap_or(0);
    let winners: Vec<Seat> = (0..state.players()).filter(|&s| stacks[s] == best).collect();
    let who = seats_text(&winners);
    let explanation = if winners.len() == 1 {
        Text::new(
            format!("Plats {who} vann partiet med flest marker, {best}."),
            format!("Seat {who} won the match with the most chips, {best}."),
        )
    } else {
        Text::new(
            format!("Platserna {who} delar segern med {best} marker var."),
            format!("Seats {who} share the win with {best} chips each."),
        )
    };
    Event::MatchEnded { winners, scores: state.deals.scores.clone(), explanation }
}

// ---------------------------------------------------------------------------------------------
// The table view

/// The table as one viewer sees it: the match and its chips, the betting, the draw, the hands'
/// sizes, the hands shown at the showdown and the viewer's own hand and discards. A deal's
/// record shows every hand, the stock and the discards while the deal is played (the service
/// hides what is never shown), and at its end only the hands shown.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    /// The match: deal number, dealer, scores (chips won, negative: lost), who is to act, the
    /// outcome.
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    /// Chips in front of each seat.
    pub stacks: Vec<i64>,
    /// Chips in the pot (every pot and side pot together).
    pub pot: i64,
    /// By seat, the chips put in during this betting round.
    pub bets: Vec<i64>,
    /// By seat, the chips put in during this deal.
    pub committed: Vec<i64>,
    /// The betting round (1 before the draw, 2 after): absent outside a round.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub round: Option<u8>,
    /// The bet to meet this round.
    pub current_bet: i64,
    /// What the viewer must put in to call: only in a seat's view during a round.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub to_call: Option<i64>,
    /// Seats dealt into the deal.
    pub in_deal: Vec<Seat>,
    pub folded: Vec<Seat>,
    pub all_in: Vec<Seat>,
    /// Seats without chips, out of the match.
    pub out_of_match: Vec<Seat>,
    /// The seat whose turn it is to buy.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub drawer: Option<Seat>,
    /// By seat, how many cards it bought (null: not yet).
    pub draws: Vec<Option<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub stock_size: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// By seat, the hand shown at the showdown (empty: not shown).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub shown: Option<Vec<Vec<Card>>>,
    /// By seat, the category of the hand shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub shown_categories: Option<Vec<Option<Category>>>,
    /// By seat, discards: in a seat's view its own still beside the stock; in the record while
    /// the deal is played, everyone's.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub discards: Option<Vec<Vec<Card>>>,
    /// Every hand: only in a deal's record while it is played.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
    /// The stock, top card first: only in a deal's record while it is played.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub stock: Option<Vec<Card>>,
    /// The viewer's own hand: only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
    /// The category of the viewer's own hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_category: Option<Category>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let players = state.players();
    let me = viewer.seat_at(players);
    let deal = state.deals.deal.as_ref();
    let live_record = deal.filter(|d| viewer == Viewer::Record && !d.over());
    let betting = deal.map(|d| &d.betting);
    let seats = |f: &dyn Fn(&Betting, Seat) -> bool| -> Vec<Seat> {
        betting.map(|b| (0..players).filter(|&s| f(b, s)).collect()).unwrap_or_default()
    };
    let bets = betting.and_then(|b| b.round.as_ref()).map(|r| r.bets.clone()).unwrap_or_else(|| vec![0; players]);
    let own_discards = |d: &Deal, s: Seat| {
        (0..players).map(|k| if k == s { d.muck[k].clone() } else { Vec::new() }).collect::<Vec<_>>()
    };
    let any_shown = deal.is_some_and(|d| d.shown.iter().any(Option::is_some));
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        stacks: (0..players).map(|s| state.stack(s)).collect(),
        pot: state.pot(),
        bets,
        committed: betting.map(|b| b.committed.clone()).unwrap_or_else(|| vec![0; players]),
        round: deal.and_then(Deal::round),
        current_bet: betting.map_or(0, Betting::current_bet),
        to_call: deal.filter(|d| d.round().is_some()).zip(me).map(|(d, s)| d.betting.to_call(s)),
        in_deal: seats(&|b, s| b.dealt[s]),
        folded: seats(&|b, s| b.dealt[s] && b.folded[s]),
        all_in: seats(&|b, s| b.all_in(s)),
        out_of_match: (0..players).filter(|&s| state.stack(s) == 0).collect(),
        drawer: state.deals.live().filter(|d| d.stage == Stage::Drawing).and_then(|d| d.drawer),
        draws: deal.map(|d| d.draws.clone()).unwrap_or_else(|| vec![None; players]),
        stock_size: deal.map(|d| d.stock.len()),
        hand_sizes: deal.map(|d| d.hands.iter().map(Vec::len).collect()),
        shown: deal.filter(|_| any_shown).map(|d| d.shown.iter().map(|h| h.clone().unwrap_or_default()).collect()),
        shown_categories: deal
            .filter(|_| any_shown)
            .map(|d| (0..players).map(|s| d.shown[s].as_ref().map(|_| d.rank_of(s).category)).collect()),
        discards: match (deal, me) {
            (Some(d), Some(s)) => Some(own_discards(d, s)),
            (Some(d), None) if live_record.is_some() => Some(d.muck.clone()),
            _ => None,
        },
        hands: live_record.map(|d| d.hands.clone()),
        stock: live_record.map(|d| d.stock.clone()),
        hand: deal.zip(me).map(|(d, s)| d.hands[s].clone()),
        hand_category: deal.zip(me).filter(|(d, s)| !d.hands[*s].is_empty()).map(|(d, s)| d.rank_of(s).category),
    }
}

/// An event as `viewer` sees it, at any time (the record included): the deck never; of the
/// hands dealt, the discards and the cards bought only a seat's own; the new stock nobody's.
fn redact(event: &Event, viewer: Viewer) -> Value {
    let mut full = serde_json::to_value(event).expect("events always serialize");
    let mine = |s: Seat| viewer == Viewer::Seat(s);
    match event {
        Event::DealStarted { hands, .. } => deals::hide_hands(&mut full, hands, viewer),
        Event::Drew { seat, discarded, drawn, .. } if !mine(*seat) => {
            deals::blank(&mut full, "discarded", discarded);
            deals::blank(&mut full, "drawn", drawn);
        }
        Event::DrawCompleted { seat, drawn } if !mine(*seat) => deals::blank(&mut full, "drawn", drawn),
        Event::StockShuffled { order } => deals::blank(&mut full, "order", order),
        _ => {}
    }
    full
}

// ---------------------------------------------------------------------------------------------
// The bot

/// The standard draw: keep what makes the hand (a pair, two pairs, three or four of a kind, a
/// made straight, flush or full house), keep four to a flush or to an open-ended straight, else
/// keep the highest card; discard the rest.
pub fn standard_discard(hand: &[Card]) -> Vec<Card> {
    let r = hands::rank(hand, Hands::Standard);
    let count = |c: &Card| hand.iter().filter(|x| x.rank() == c.rank()).count();
    match r.category {
        Category::Straight | Category::Flush | Category::FullHouse | Category::StraightFlush => Vec::new(),
        Category::FourOfAKind | Category::ThreeOfAKind | Category::TwoPairs | Category::OnePair => {
            hand.iter().copied().filter(|c| count(c) == 1).collect()
        }
        _ => {
            if let Some(flush) = hands::rank(hand, Hands::Soko).category.eq(&Category::FourFlush).then(|| {
                let suit = hand
                    .iter()
                    .find(|c| hand.iter().filter(|x| x.suit() == c.suit()).count() >= 4)
                    .and_then(|c| c.suit());
                hand.iter().copied().filter(|c| c.suit() != suit).collect::<Vec<_>>()
            }) {
                return flush;
            }
            let soko = hands::rank(hand, Hands::Soko);
            if soko.category == Category::FourStraight && !(soko.ranks[0] == 14 || soko.ranks[3] == 1) {
                let run = &soko.ranks[..4];
                let odd = hand.iter().copied().find(|c| !run.contains(&rank_value(*c)));
                return odd.into_iter().collect();
            }
            let high = hand.iter().copied().max_by_key(|&c| rank_value(c));
            hand.iter().copied().filter(|&c| Some(c) != high).collect()
        }
    }
}

/// A rough strength from 0 to 1 of a made hand: its category, then its top rank.
fn made_strength(rank: &HandRank) -> f64 {
    let category = match rank.category {
        Category::HighCard => 0.0,
        Category::OnePair => 1.0,
        Category::TwoPairs => 2.0,
        Category::ThreeOfAKind => 3.0,
        Category::Straight => 4.0,
        Category::Flush => 5.0,
        Category::FullHouse => 6.0,
        Category::FourOfAKind | Category::StraightFlush => 7.0,
        Category::FourStraight | Category::FourFlush => 0.5,
    };
    (category + f64::from(rank.ranks[0]) / 15.0) / 8.0
}

/// A bet or raise of about `fraction` of the pot, within what may be put in.
fn sized(deal: &Deal, fraction: f64, legal: &[Action]) -> Option<Action> {
    betting::sized(deal.betting.pot(), fraction, legal)
}

/// The rule of thumb: bet and raise with strong hands, call with middling ones when the call is
/// small, check or fold the rest; buy by the standard draw.
fn basic_choice(deal: &Deal, seat: Seat, rng: &mut Rng) -> Option<Command> {
    if deal.stage == Stage::Drawing {
        return Some(Command::Draw { discard: standard_discard(&deal.hands[seat]) });
    }
    let legal = legal_actions(deal, seat);
    let rank = deal.rank_of(seat);
    let strength = made_strength(&rank);
    let owed = deal.betting.to_call(seat);
    let pot = deal.betting.pot().max(1);
    let bar = if deal.round() == Some(1) { 0.16 } else { 0.28 };
    let pick = |a: Action| legal.contains(&a).then_some(a);
    let choice = if strength > bar + 0.1 && rng.below(3) > 0 {
        sized(deal, 0.6, &legal).or_else(|| pick(Action::Call)).or_else(|| pick(Action::Check))
    } else if owed == 0 {
        pick(Action::Check).or_else(|| sized(deal, 0.3, &legal).filter(|_| strength > bar))
    } else if strength > bar || (owed as f64) < pot as f64 * 0.25 {
        pick(Action::Call)
    } else {
        None
    };
    choice.or_else(|| pick(Action::Fold)).or_else(|| legal.first().copied()).map(command_of)
}

/// The cards `seat` cannot see: every card but its own hand, its own discards beside the stock
/// and the hands shown.
fn unseen(deal: &Deal, seat: Seat) -> Vec<Card> {
    let seen: Vec<Card> =
        deal.hands[seat].iter().chain(&deal.muck[seat]).chain(deal.shown.iter().flatten().flatten()).copied().collect();
    decks::standard52().into_iter().filter(|c| !seen.contains(c)).collect()
}

/// How often `seat`'s hand beats every other hand still in, over worlds dealt from the cards
/// it cannot see (before the draw, each hand then bought by the standard draw): its chance of
/// winning the pot at a showdown.
fn equity(deal: &Deal, seat: Seat, rng: &mut Rng, worlds: usize) -> f64 {
    let mut pool = unseen(deal, seat);
    pool.sort();
    let others: Vec<Seat> = deal.betting.live_seats().into_iter().filter(|&s| s != seat).collect();
    let mut total = 0.0;
    for _ in 0..worlds {
        let mut cards = pool.clone();
        rng.shuffle(&mut cards);
        let mut next = cards.into_iter();
        let mine = finish(deal.hands[seat].clone(), deal.draws[seat].is_none(), &mut next);
        let ranks = others.iter().filter_map(|&o| {
            let hand: Vec<Card> = next.by_ref().take(deal.hands[o].len()).collect();
            (hand.len() >= HAND).then(|| finish(hand, deal.draws[o].is_none(), &mut next))
        });
        total += betting::showdown_share(mine, ranks);
    }
    total / worlds as f64
}

/// A hand's rank once it has bought by the standard draw (if it is still to buy) from `stock`.
fn finish(mut hand: Vec<Card>, draw: bool, stock: &mut impl Iterator<Item = Card>) -> HandRank {
    if draw {
        for c in standard_discard(&hand) {
            take_card(&mut hand, c);
            hand.extend(stock.next());
        }
    }
    hands::rank(&hand, Hands::Standard)
}

/// The strong bot's own choice: the poker games' betting by its chance of winning against the
/// pot odds ([`betting::by_equity`]), and the standard draw.
fn strong_choice(deal: &Deal, seat: Seat, rng: &mut Rng) -> Option<Command> {
    if deal.stage == Stage::Drawing {
        return Some(Command::Draw { discard: standard_discard(&deal.hands[seat]) });
    }
    let legal = legal_actions(deal, seat);
    let p = equity(deal, seat, rng, 60);
    betting::by_equity(p, deal.betting.to_call(seat), deal.betting.pot(), &legal).map(command_of)
}

/// The deal as `seat` knows it: its own hand and discards and the hands shown; the other hands
/// (folded ones too), the stock and the others' discards dealt afresh from the cards it cannot
/// see, each keeping its size.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let players = deal.players();
    let hidden: Vec<Seat> = (0..players).filter(|&s| s != seat && deal.shown[s].is_none()).collect();
    let others: Vec<Seat> = (0..players).filter(|&s| s != seat).collect();
    let mut sizes: Vec<usize> = hidden.iter().map(|&s| deal.hands[s].len()).collect();
    sizes.extend(others.iter().map(|&s| deal.muck[s].len()));
    sizes.push(deal.stock.len());
    let pool = unseen(deal, seat);
    let mut piles = bots::redeal_where(&pool, &sizes, |_, _| true, rng);
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    w.stock = piles.pop().unwrap_or_default();
    let mucks = piles.split_off(hidden.len());
    for (k, &s) in hidden.iter().enumerate() {
        w.hands[s] = sorted(piles[k].clone());
    }
    for (k, &s) in others.iter().enumerate() {
        w.muck[s] = mucks[k].clone();
    }
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Poker {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "poker";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/poker.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options { limit: Limit::PotLimit, jacks_to_open: true, odd_chip: OddChip::CarryOver, ..Options::default() },
            Options {
                chips: 20,
                ante: 2,
                deals: 4,
                limit: Limit::Fixed,
                bet_size: 3,
                pass_and_out: true,
                ..Options::default()
            },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        for (name, value) in [("chips", options.chips), ("ante", options.ante), ("bet_size", options.bet_size)] {
            if !(1..=MAX_CHIPS).contains(&value) {
                return Err(SetupError(format!("{name} must be 1 to {MAX_CHIPS}, not {value}")));
            }
        }
        if !(1..=100).contains(&options.deals) {
            return Err(SetupError(format!("deals must be 1 to 100, not {}", options.deals)));
        }
        Ok(State { options, table: Seating::new(players), deals: Deals::new(players), stock_shuffles: 0 })
    }

    /// During the draw, when the stock has run out, the earlier discards are to be shuffled.
    fn status(&self, state: &State) -> Status {
        match state.deals.live().filter(|d| d.stage == Stage::Drawing && d.owed > 0) {
            Some(deal) => Status::NeedsShuffle { cards: deal.to_shuffle() },
            None => state.deals.status(decks::standard52),
        }
    }

    fn deal_number(&self, state: &State) -> u32 {
        state.deals.number
    }

    fn shuffles(&self, state: &State) -> u32 {
        state.deals.number + state.stock_shuffles
    }

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(run(state, deal_started(state, deck)))
    }

    fn reshuffle(&self, state: &State, order: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        let Some(deal) = state.deals.live().filter(|d| d.stage == Stage::Drawing && d.owed > 0) else {
            return Err(RuleViolation::wrong_phase("ingen hög ska blandas", "nothing is to be shuffled"));
        };
        if !is_permutation(&order, &deal.to_shuffle()) {
            return Err(RuleViolation::new(
                core::DECK,
                "Ordningen måste bestå av exakt de kastade korten.",
                "The order must hold exactly the discarded cards.",
            ));
        }
        let seat = deal.drawer.expect("a buyer is owed cards");
        let drawn = order.iter().take(deal.owed).copied().collect();
        Ok(run(state, vec![Event::StockShuffled { order }, Event::DrawCompleted { seat, drawn }]))
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        if deal.stage == Stage::Drawing {
            let hand = &deal.hands[seat];
            return (0u32..1 << hand.len())
                .map(|bits| Command::Draw {
                    discard: hand.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0).map(|(_, &c)| c).collect(),
                })
                .collect();
        }
        legal_actions(deal, seat).into_iter().map(command_of).collect()
    }

    /// Every betting command with amounts from 0 to one past the seat's stack, and every
    /// subset of its hand to discard, with a card it does not hold and one twice.
    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let stack = state.stack(seat);
        let mut moves = vec![Command::Check, Command::Call, Command::Fold];
        moves.extend((0..=stack + 1).flat_map(|n| [Command::Bet { amount: n }, Command::Raise { by: n }]));
        if let Some(deal) = state.deals.live() {
            let hand = &deal.hands[seat];
            moves.extend((0u32..1 << hand.len()).map(|bits| Command::Draw {
                discard: hand.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0).map(|(_, &c)| c).collect(),
            }));
            if let Some(&c) = hand.first() {
                moves.push(Command::Draw { discard: vec![c, c] });
            }
            if let Some(&c) = deal.stock.first() {
                moves.push(Command::Draw { discard: vec![c] });
            }
        }
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    fn redact(&self, _state: &State, event: &Event, viewer: Viewer, _deal_over: bool) -> Value {
        redact(event, viewer)
    }

    /// A seat's record shows its own hand and every card it discarded, whatever became of them.
    fn record_view(&self, state: &State, seat: Option<Seat>) -> Value {
        let mut table = serde_json::to_value(view(state, Viewer::Record)).expect("views serialize");
        if let (Some(s), Some(deal)) = (seat.filter(|&s| s < state.players()), state.deals.deal.as_ref()) {
            table["hand"] = json!(deal.hands[s]);
            let discards: Vec<Vec<Card>> =
                (0..state.players()).map(|k| if k == s { deal.discarded[k].clone() } else { Vec::new() }).collect();
            if deal.over() {
                table["discards"] = json!(discards);
            }
        }
        table
    }

    fn record_event(&self, _state: &State, event: &Event, seat: Option<Seat>) -> Value {
        redact(event, seat.map_or(Viewer::Record, Viewer::Seat))
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deals.deal else { return Vec::new() };
        let mut secrets: Vec<(Card, Vec<Seat>)> = deal.stock.iter().map(|&c| (c, Vec::new())).collect();
        for s in 0..deal.players() {
            if deal.shown[s].is_none() {
                secrets.extend(deal.hands[s].iter().map(|&c| (c, vec![s])));
            }
            secrets.extend(deal.muck[s].iter().map(|&c| (c, vec![s])));
        }
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        deal.betting.check_books()?;
        if deal.over() {
            let balances = deal.betting.ledger.seats(state.players());
            crate::ensure!(
                balances == state.deals.scores,
                "balances {balances:?} differ from the scores {:?}",
                state.deals.scores
            );
        }
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.hands.concat();
        all.extend(&deal.stock);
        all.extend(deal.muck.concat());
        crate::ensure!(is_permutation(&all, &pack), "hands, stock and discards are not the pack");
        for s in 0..deal.players() {
            let n = deal.hands[s].len();
            let expected = if deal.betting.dealt[s] { HAND } else { 0 };
            let buying = deal.drawer == Some(s) && deal.owed > 0;
            crate::ensure!(n == expected || buying, "seat {s} holds {n} cards");
            crate::ensure!(deal.muck[s].iter().all(|c| deal.discarded[s].contains(c)), "seat {s}'s muck");
        }
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<Command> {
        basic_choice(state.deals.acting(seat)?, seat, rng)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// Fold, check or call, and bets or raises of about half the pot, the pot and everything;
    /// and in the draw the standard draw and standing pat or keeping a pair's kicker.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        if deal.stage == Stage::Drawing {
            let mut moves = vec![
                Command::Draw { discard: standard_discard(&deal.hands[seat]) },
                Command::Draw { discard: Vec::new() },
            ];
            moves.dedup();
            return moves;
        }
        let legal = legal_actions(deal, seat);
        let anchor = self.strong_anchor(state, seat).and_then(|c| action_of(&c));
        betting::candidates(deal.betting.pot(), &legal, anchor).into_iter().map(command_of).collect()
    }

    /// The chance of winning against the pot odds (from what the seat sees alone).
    fn strong_anchor(&self, state: &State, seat: Seat) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let mut rng = Rng::new(u64::from(deal.number) * 1_000 + seat as u64);
        strong_choice(deal, seat, &mut rng)
    }

    /// Chips ahead of the others' mean.
    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bots::lead_over_mean(state.players(), |s| state.stack(s) as f64, seat)
    }
}

#[cfg(test)]
mod tests;
