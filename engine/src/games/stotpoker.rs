//! Stötpoker (five-card stud; sökö as an option): two to ten players with 100 chips each. Each
//! gets a hole card face down and an up card, every card dealt in turn from the dealer's left.
//! The highest up card makes the forced bet (1 chip, the round's opening bet; the lowest with
//! `low_forces`), and a betting round follows. Three more up cards come one a round, each
//! followed by a betting round that the best hand showing opens; a round of checks gives the
//! next card free. After the fifth card's round the hands still in are shown. A match is ten
//! deals or until one player has every chip.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::betting::{self, Action, Betting, Limit, Settlement, Wrong};
use crate::bots;
use crate::cards::{decks, is_permutation, rank_value, Card};
use crate::deals::{self, Deals, MatchPhase, MatchView};
use crate::game::{Rules, SetupError, Viewer};
use crate::ledger::{Account, Payment};
use crate::poker::{self as hands, Category, HandRank, Hands};
use crate::random::Rng;
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{seats_text, Seat, Table as Seating};

#[derive(Default)]
pub struct Stotpoker;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 10;
/// Cards in a full hand: the hole card and four up cards.
pub const HAND: usize = 5;
pub const MAX_CHIPS: i64 = 10_000;

/// Rule ids, written out in full so that a grep for an id finds both its text and its uses.
pub mod rule {
    pub const ANTE: &str = "stotpoker.deal.ante";
    pub const FORCED: &str = "stotpoker.bet.forced";
    pub const CHECK: &str = "stotpoker.bet.check";
    pub const OPEN: &str = "stotpoker.bet.open";
    pub const AMOUNT: &str = "stotpoker.bet.amount";
    pub const RAISE: &str = "stotpoker.bet.raise";
    pub const PUT_IN: &str = "stotpoker.bet.put-in";
    pub const UNCALLED: &str = "stotpoker.showdown.uncalled";
    pub const POT: &str = "stotpoker.showdown.pot";
    pub const SPLIT: &str = "stotpoker.showdown.split";
    pub const STAKES: &str = "stotpoker.showdown.stakes";
    pub const LEFTOVER: &str = "stotpoker.house.leftover";
}

// ---------------------------------------------------------------------------------------------
// Options

pub use crate::games::poker::OddChip;

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10000))]
    pub chips: i64,
    /// An ante from everyone before the deal (none by default).
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 10000))]
    pub ante: i64,
    /// The forced bet of the highest (or lowest) up card.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10000))]
    pub forced_bet: i64,
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub deals: u32,
    pub limit: Limit,
    /// With fixed bets: the bet of the first two rounds; the last two bet twice as much.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10000))]
    pub bet_size: i64,
    /// Sökö: the four-straight and the four-flush count, between one pair and two pairs.
    pub soko: bool,
    /// The lowest up card makes the forced bet instead of the highest.
    pub low_forces: bool,
    pub odd_chip: OddChip,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            chips: 100,
            ante: 0,
            forced_bet: 1,
            deals: 10,
            limit: Limit::NoLimit,
            bet_size: 2,
            soko: false,
            low_forces: false,
            odd_chip: OddChip::FirstAfterDealer,
        }
    }
}

impl Options {
    fn hands(&self) -> Hands {
        if self.soko {
            Hands::Soko
        } else {
            Hands::Standard
        }
    }
}

// ---------------------------------------------------------------------------------------------
// State

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Betting,
    DealOver,
    Finished,
}

impl MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    Uncalled,
    Showdown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The forced bet is to be made.
    Forcing,
    /// Betting round `n` (1 to 4) is to open.
    Opening(u8),
    Betting(u8),
    /// The next up card is to be dealt to everyone still in.
    Dealing(u8),
    Showdown,
    Settling(Ending),
    Over,
}

#[derive(Clone, Debug)]
struct Deal {
    number: u32,
    dealer: Seat,
    deck: Vec<Card>,
    betting: Betting,
    /// By seat, the hole card (none for a seat not dealt in).
    hole: Vec<Option<Card>>,
    /// By seat, the up cards in the order dealt.
    up: Vec<Vec<Card>>,
    /// Undealt cards, top first.
    stock: Vec<Card>,
    stage: Stage,
    shown: Vec<bool>,
    options: Options,
    /// By seat, what its betting this deal showed of its hand, read by the basic bot's rule.
    reads: Vec<Vec<Read>>,
    /// By seat, whether it bet this deal in a way the basic bot's rule never does (more than the
    /// least bet or raise, a fold with nothing to call): its reads then tell nothing.
    unruled: Vec<bool>,
}

/// What one betting action shows of a hand if its seat bets by the basic bot's rule
/// ([`basic_choice`]): the hand then was the hole card and the first `ups` up cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Read {
    ups: usize,
    /// The rule bets with a strong hand ([`strong_for_basic`]) whenever it may, and only then.
    strong: Option<bool>,
    /// The rule calls a bet of more than a quarter of the pot, or folds to it, by a pair.
    pair: Option<bool>,
}

impl Read {
    /// What `action` by `seat`, about to be taken, shows; nothing for a forced bet or an action
    /// the rule never takes.
    fn of(deal: &Deal, seat: Seat, action: Action) -> Option<Read> {
        let choices = deal.betting.choices(seat);
        let could_bet = choices.bet.is_some() || choices.raise.is_some();
        let dear = deal.betting.to_call(seat) * 4 > deal.betting.pot();
        let (strong, pair) = match action {
            Action::Bet(_) | Action::Raise(_) => (Some(true), None),
            Action::Check => (could_bet.then_some(false), None),
            Action::Call => (could_bet.then_some(false), dear.then_some(true)),
            Action::Fold => (Some(false), dear.then_some(false)),
        };
        (strong.is_some() || pair.is_some()).then_some(Read { ups: deal.up[seat].len(), strong, pair })
    }

    /// Whether the rule would have taken the action with `hole` as the hole card.
    fn fits(&self, hole: Card, up: &[Card], kind: Hands) -> bool {
        let mut hand = vec![hole];
        hand.extend_from_slice(&up[..self.ups.min(up.len())]);
        let rank = hands::rank(&hand, kind);
        self.strong.is_none_or(|s| s == strong_for_basic(&rank, self.ups))
            && self.pair.is_none_or(|p| p == (rank.category >= Category::OnePair))
    }
}

impl Deal {
    fn players(&self) -> usize {
        self.up.len()
    }

    fn hand(&self, seat: Seat) -> Vec<Card> {
        self.hole[seat].into_iter().chain(self.up[seat].iter().copied()).collect()
    }

    fn rank_of(&self, seat: Seat) -> HandRank {
        hands::rank(&self.hand(seat), self.options.hands())
    }

    /// The seat that makes the forced bet: the highest up card (the lowest with `low_forces`),
    /// a tie to the nearest after the dealer, the dealer last.
    fn forced(&self, table: &Seating) -> Seat {
        let order: Vec<Seat> =
            (1..=self.players()).map(|k| table.after(self.dealer, k)).filter(|&s| self.betting.dealt[s]).collect();
        let value = |s: Seat| rank_value(self.up[s][0]);
        let best = if self.options.low_forces {
            order.iter().map(|&s| value(s)).min()
        } else {
            order.iter().map(|&s| value(s)).max()
        };
        *order.iter().find(|&&s| Some(value(s)) == best).expect("someone is dealt in")
    }

    /// The first to speak in rounds 2 to 4: the best hand showing among those still in, a tie
    /// to the nearest after the dealer.
    fn best_showing(&self, table: &Seating) -> Seat {
        let order: Vec<Seat> =
            (1..=self.players()).map(|k| table.after(self.dealer, k)).filter(|&s| self.betting.live(s)).collect();
        let showing = |s: Seat| hands::rank(&self.up[s], self.options.hands());
        let best = order.iter().map(|&s| showing(s)).max();
        *order.iter().find(|&&s| Some(showing(s)) == best).expect("someone is still in")
    }
}

impl deals::Deal for Deal {
    type Phase = Phase;

    fn to_act(&self) -> Vec<Seat> {
        match self.stage {
            Stage::Betting(_) => self.betting.to_act().into_iter().collect(),
            _ => Vec::new(),
        }
    }

    fn is_live(&self) -> bool {
        self.stage != Stage::Over
    }

    fn phase(&self) -> Phase {
        match self.stage {
            Stage::Over | Stage::Showdown | Stage::Settling(_) => Phase::DealOver,
            _ => Phase::Betting,
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    table: Seating,
    deals: Deals<Deal>,
}

impl State {
    fn players(&self) -> usize {
        self.table.seats
    }

    fn stack(&self, seat: Seat) -> i64 {
        self.deals.deal.as_ref().map_or(self.options.chips, |d| d.betting.stack(seat))
    }

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
    Check,
    Bet {
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 4_294_967_295_i64))]
        #[serde(deserialize_with = "crate::schema::within::<_, _, 1, 4294967295>")]
        amount: i64,
    },
    Call,
    Raise {
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 4_294_967_295_i64))]
        #[serde(deserialize_with = "crate::schema::within::<_, _, 1, 4294967295>")]
        by: i64,
    },
    Fold,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownHand {
    pub seat: Seat,
    pub hole: Card,
    pub category: Category,
    pub rank: HandRank,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PotResult {
    pub amount: i64,
    pub eligible: Vec<Seat>,
    pub winners: Vec<Seat>,
    pub category: Option<Category>,
    pub carried: i64,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    DealStarted {
        deal_number: u32,
        dealer: Seat,
        /// Never shown: it holds the hole cards and the undealt rest.
        deck: Vec<Card>,
        /// By seat, the hole card: each its owner's.
        hole: Vec<Option<Card>>,
        /// By seat, the first up card: public.
        up: Vec<Option<Card>>,
        in_deal: Vec<Seat>,
        scores: Vec<i64>,
        pot: i64,
        options: Options,
    },
    AntesPaid {
        payments: Vec<Payment>,
    },
    ForcedBet {
        seat: Seat,
        amount: i64,
        all_in: bool,
    },
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
    /// The next up card to everyone still in, in turn from the dealer's left (by seat).
    UpCardsDealt {
        round: u8,
        cards: Vec<Option<Card>>,
    },
    Showdown {
        hands: Vec<ShownHand>,
    },
    DealScored {
        deal_number: u32,
        ending: Ending,
        pots: Vec<PotResult>,
        payments: Vec<Payment>,
        terms: Vec<ScoreTerm>,
        points: Vec<i64>,
        scores: Vec<i64>,
        stacks: Vec<i64>,
        pot: i64,
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
    let n = state.players();
    let dealer = state.first_with_chips(state.deals.next_dealer);
    let order: Vec<Seat> =
        state.table.order_from(state.table.next(dealer)).into_iter().filter(|&s| state.stack(s) > 0).collect();
    let mut hole = vec![None; n];
    let mut up = vec![None; n];
    for (i, &s) in order.iter().enumerate() {
        hole[s] = Some(deck[i]);
        up[s] = Some(deck[order.len() + i]);
    }
    let mut in_deal = order.clone();
    in_deal.sort_unstable();
    let mut events = vec![Event::DealStarted {
        deal_number: state.deals.number + 1,
        dealer,
        deck,
        hole,
        up,
        in_deal,
        scores: state.deals.scores.clone(),
        pot: state.deals.deal.as_ref().map_or(0, |d| d.betting.pot()),
        options: state.options.clone(),
    }];
    if state.options.ante > 0 {
        let payments = order
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
        events.push(Event::AntesPaid { payments });
    }
    events
}

// ---------------------------------------------------------------------------------------------
// Decide

fn action_of(command: &Command) -> Action {
    match *command {
        Command::Check => Action::Check,
        Command::Bet { amount } => Action::Bet(amount),
        Command::Call => Action::Call,
        Command::Raise { by } => Action::Raise(by),
        Command::Fold => Action::Fold,
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

fn refusal(wrong: Wrong) -> RuleViolation {
    match wrong {
        Wrong::BetToMeet(n) => RuleViolation::new(
            rule::CHECK,
            format!("Det finns en insats att möta: syna med {n}, höj eller lägg dig."),
            format!("There is a bet to meet: call {n}, raise or fold."),
        ),
        Wrong::NoBet => RuleViolation::new(
            rule::OPEN,
            "Ingen har satsat i den här rundan: checka eller satsa.",
            "Nobody has bet this round: check or bet.",
        ),
        Wrong::AlreadyBet => RuleViolation::new(
            rule::OPEN,
            "Det finns redan en insats i rundan: syna, höj eller lägg dig.",
            "The round already has a bet: call, raise or fold.",
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

fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let deal = state.deals.current()?;
    let action = action_of(command);
    let chips = deal.betting.check(seat, action).map_err(refusal)?;
    let all_in = chips > 0 && chips == deal.betting.stack(seat);
    let event = match action {
        Action::Check => Event::Checked { seat },
        Action::Bet(amount) => Event::Bet { seat, amount, all_in },
        Action::Call => Event::Called { seat, amount: chips, all_in },
        Action::Raise(by) => Event::Raised { seat, by, amount: chips, all_in },
        Action::Fold => Event::Folded { seat },
    };
    Ok(run(state, vec![event]))
}

fn run(state: &State, events: Vec<Event>) -> Vec<Event> {
    crate::game::with_automatic_steps(state, events, evolve, next_step)
}

fn next_step(state: &State) -> Option<Event> {
    if state.deals.outcome.is_some() {
        return None;
    }
    let deal = state.deals.deal.as_ref()?;
    match deal.stage {
        Stage::Forcing => {
            let seat = deal.forced(&state.table);
            let amount = deal.options.forced_bet.min(deal.betting.stack(seat));
            Some(Event::ForcedBet { seat, amount, all_in: amount == deal.betting.stack(seat) })
        }
        Stage::Opening(round) => Some(Event::RoundOpened { round, first: deal.best_showing(&state.table) }),
        Stage::Betting(round) if deal.betting.round_over() => {
            Some(Event::RoundClosed { round, pot: deal.betting.pot() })
        }
        Stage::Dealing(round) => {
            let mut cards = vec![None; deal.players()];
            let mut stock = deal.stock.iter();
            for k in 1..=deal.players() {
                let s = state.table.after(deal.dealer, k);
                if deal.betting.live(s) {
                    cards[s] = stock.next().copied();
                }
            }
            Some(Event::UpCardsDealt { round, cards })
        }
        Stage::Showdown => Some(Event::Showdown {
            hands: deal
                .betting
                .live_seats()
                .into_iter()
                .map(|seat| {
                    let rank = deal.rank_of(seat);
                    ShownHand {
                        seat,
                        hole: deal.hole[seat].expect("a live seat has a hole card"),
                        category: rank.category,
                        rank,
                    }
                })
                .collect(),
        }),
        Stage::Settling(ending) => Some(score(state, deal, ending)),
        Stage::Over if match_over(state) => Some(match_end(state)),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Evolve

fn put(seat: Seat, amount: i64, rule: &str) -> Payment {
    Payment::new(
        Account::Seat(seat),
        Account::Pot,
        amount,
        rule,
        format!("Plats {seat} lägger {amount} i potten."),
        format!("Seat {seat} puts {amount} into the pot."),
    )
}

fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::DealStarted { deal_number, dealer, deck, hole, up, in_deal, scores, options, .. } => {
            let players = hole.len();
            state.options = options.clone();
            state.table = Seating::new(players);
            let mut betting = Betting::new(players, options.chips);
            for (s, &b) in scores.iter().enumerate().filter(|(_, b)| **b != 0) {
                betting.ledger.pay(&Payment::new(
                    Account::Pot,
                    Account::Seat(s),
                    b,
                    rule::STAKES,
                    "Saldo från tidigare givar.".into(),
                    "Balance from earlier deals.".into(),
                ));
            }
            betting.new_deal((0..players).map(|s| in_deal.contains(&s)).collect());
            let dealt = 2 * in_deal.len();
            let deal = Deal {
                number: *deal_number,
                dealer: *dealer,
                deck: deck.clone(),
                betting,
                hole: hole.clone(),
                up: up.iter().map(|c| c.iter().copied().collect()).collect(),
                stock: deck[dealt..].to_vec(),
                stage: Stage::Forcing,
                shown: vec![false; players],
                options: options.clone(),
                reads: vec![Vec::new(); players],
                unruled: vec![false; players],
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
            let Some(deal) = state.deals.deal.as_mut() else { return };
            evolve_deal(deal, event);
        }
    }
}

fn evolve_deal(deal: &mut Deal, event: &Event) {
    let size = |round: u8, o: &Options| if round <= 2 { o.bet_size } else { 2 * o.bet_size };
    match event {
        Event::AntesPaid { payments } => payments.iter().for_each(|p| deal.betting.put_in(p)),
        Event::ForcedBet { seat, amount, .. } => {
            deal.betting.start_round(*seat, deal.options.limit, size(1, &deal.options));
            deal.betting.act(*seat, Action::Bet(*amount), Some(&put(*seat, *amount, rule::FORCED)));
            deal.stage = Stage::Betting(1);
        }
        Event::RoundOpened { round, first } => {
            deal.betting.start_round(*first, deal.options.limit, size(*round, &deal.options));
            deal.stage = Stage::Betting(*round);
        }
        Event::Checked { seat } => {
            note(deal, *seat, Action::Check);
            deal.betting.act(*seat, Action::Check, None)
        }
        Event::Bet { seat, amount, .. } => {
            note(deal, *seat, Action::Bet(*amount));
            deal.betting.act(*seat, Action::Bet(*amount), Some(&put(*seat, *amount, rule::PUT_IN)))
        }
        Event::Called { seat, amount, .. } => {
            note(deal, *seat, Action::Call);
            deal.betting.act(*seat, Action::Call, Some(&put(*seat, *amount, rule::PUT_IN)))
        }
        Event::Raised { seat, by, amount, .. } => {
            note(deal, *seat, Action::Raise(*by));
            deal.betting.act(*seat, Action::Raise(*by), Some(&put(*seat, *amount, rule::PUT_IN)))
        }
        Event::Folded { seat } => {
            note(deal, *seat, Action::Fold);
            deal.betting.act(*seat, Action::Fold, None)
        }
        Event::RoundClosed { round, .. } => {
            deal.betting.end_round();
            deal.stage = match (deal.betting.live_seats().len(), round) {
                (0 | 1, _) => Stage::Settling(Ending::Uncalled),
                (_, 4) => Stage::Showdown,
                _ => Stage::Dealing(round + 1),
            };
        }
        Event::UpCardsDealt { round, cards } => {
            for (s, c) in cards.iter().enumerate() {
                if let Some(c) = c {
                    deal.up[s].push(*c);
                    deal.stock.retain(|x| x != c);
                }
            }
            deal.stage = Stage::Opening(*round);
        }
        Event::Showdown { hands } => {
            hands.iter().for_each(|h| deal.shown[h.seat] = true);
            deal.stage = Stage::Settling(Ending::Showdown);
        }
        _ => {}
    }
}

/// Keeps what `action` by `seat` shows of its hand, once, or that it bets by another rule.
fn note(deal: &mut Deal, seat: Seat, action: Action) {
    let choices = deal.betting.choices(seat);
    let least = |range: Option<(i64, i64)>, n: i64| range.is_some_and(|(min, _)| n == min);
    deal.unruled[seat] |= match action {
        Action::Bet(n) => !least(choices.bet, n),
        Action::Raise(n) => !least(choices.raise, n),
        Action::Fold => choices.check,
        Action::Check | Action::Call => false,
    };
    if let Some(read) = Read::of(deal, seat, action).filter(|r| !deal.reads[seat].contains(r)) {
        deal.reads[seat].push(read);
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring

fn score(state: &State, deal: &Deal, ending: Ending) -> Event {
    let betting = &deal.betting;
    let mut pots = Vec::new();
    let mut payments = Vec::new();
    let carry_odd = deal.options.odd_chip == OddChip::CarryOver;
    match ending {
        Ending::Uncalled => {
            let winner = betting.live_seats()[0];
            let amount = betting.pot();
            payments.push(betting::from_pot(
                winner,
                amount,
                rule::UNCALLED,
                format!("Alla andra lade sig: plats {winner} tar potten, {amount}."),
                format!("Everyone else folded: seat {winner} takes the pot, {amount}."),
            ));
            pots.push(PotResult { amount, eligible: vec![winner], winners: vec![winner], category: None, carried: 0 });
        }
        Ending::Showdown => {
            for pot in betting.showdown(|s| deal.rank_of(s), &state.table, deal.dealer, carry_odd) {
                let (best, winners) = (pot.best, pot.winners);
                for (s, n) in pot.shares {
                    let rule = if winners.len() == 1 { rule::POT } else { rule::SPLIT };
                    payments.push(betting::from_pot(
                        s,
                        n,
                        rule,
                        format!("Plats {s} vinner {n} med {}.", best.name_sv()),
                        format!("Seat {s} wins {n} with {}.", best.name_en()),
                    ));
                }
                pots.push(PotResult {
                    amount: pot.amount,
                    eligible: pot.eligible,
                    winners,
                    category: Some(best.category),
                    carried: pot.carried,
                });
            }
        }
    }
    let last_deal = state.deals.number >= state.options.deals;
    let stake = |s: Seat, n: i64| {
        Text::new(format!("Plats {s} satsade {n} i given."), format!("Seat {s} put {n} into the deal."))
    };
    let settled = betting.settle(payments, last_deal, &state.table, deal.dealer, rule::LEFTOVER, (rule::STAKES, stake));
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

fn match_end(state: &State) -> Event {
    let stacks: Vec<i64> = (0..state.players()).map(|s| state.stack(s)).collect();
    let best = stacks.iter().copied().max().unwrap_or(0);
    let winners: Vec<Seat> = (0..state.players()).filter(|&s| stacks[s] == best).collect();
    let who = seats_text(&winners);
    Event::MatchEnded {
        winners,
        scores: state.deals.scores.clone(),
        explanation: Text::new(
            format!("Flest marker, {best}: plats {who}."),
            format!("The most chips, {best}: seat {who}."),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// The table view

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub phase: Phase,
    #[serde(flatten)]
    pub deals: MatchView,
    pub options: Options,
    pub stacks: Vec<i64>,
    pub pot: i64,
    pub bets: Vec<i64>,
    pub committed: Vec<i64>,
    pub round: Option<u8>,
    pub current_bet: i64,
    pub folded: Vec<Seat>,
    pub all_in: Vec<Seat>,
    /// By seat, the up cards.
    pub up_cards: Vec<Vec<Card>>,
    /// By seat, the hole card: the viewer's own; everyone's in the record while the deal is
    /// played; those shown at the showdown.
    pub hole_cards: Vec<Option<Card>>,
}

fn view(state: &State, viewer: Viewer) -> Table {
    let players = state.players();
    let me = viewer.seat_at(players);
    let deal = state.deals.deal.as_ref();
    let betting = deal.map(|d| &d.betting);
    let seats = |f: &dyn Fn(&Betting, Seat) -> bool| -> Vec<Seat> {
        betting.map(|b| (0..players).filter(|&s| f(b, s)).collect()).unwrap_or_default()
    };
    let record_live = viewer == Viewer::Record && deal.is_some_and(|d| d.stage != Stage::Over);
    Table {
        phase: state.deals.phase(),
        deals: state.deals.view(viewer, players, deal.map(|d| d.dealer)),
        options: state.options.clone(),
        stacks: (0..players).map(|s| state.stack(s)).collect(),
        pot: deal.map_or(0, |d| d.betting.pot()),
        bets: betting.and_then(|b| b.round.as_ref()).map(|r| r.bets.clone()).unwrap_or_else(|| vec![0; players]),
        committed: betting.map(|b| b.committed.clone()).unwrap_or_else(|| vec![0; players]),
        round: deal.and_then(|d| if let Stage::Betting(r) = d.stage { Some(r) } else { None }),
        current_bet: betting.map_or(0, Betting::current_bet),
        folded: seats(&|b, s| b.dealt[s] && b.folded[s]),
        all_in: seats(&|b, s| b.all_in(s)),
        up_cards: deal.map(|d| d.up.clone()).unwrap_or_else(|| vec![Vec::new(); players]),
        hole_cards: (0..players)
            .map(|s| deal.and_then(|d| d.hole[s].filter(|_| me == Some(s) || record_live || d.shown[s])))
            .collect(),
    }
}

fn redact(event: &Event, viewer: Viewer) -> Value {
    let mut full = serde_json::to_value(event).expect("events always serialize");
    if let Event::DealStarted { hole, .. } = event {
        full["deck"] = Value::Null;
        full["hole"] = hole
            .iter()
            .enumerate()
            .map(|(s, c)| if viewer == Viewer::Seat(s) { serde_json::json!(c) } else { Value::Null })
            .collect();
    }
    full
}

// ---------------------------------------------------------------------------------------------
// The bot

/// The basic bot's strong hand: two pairs or better, or a pair while the seat has at most two up
/// cards.
fn strong_for_basic(rank: &HandRank, ups: usize) -> bool {
    rank.category >= Category::TwoPairs || (rank.category == Category::OnePair && ups <= 2)
}

/// Bet or raise with a strong hand ([`strong_for_basic`]), call a pair or a small bet, else
/// check or fold.
fn basic_choice(deal: &Deal, seat: Seat) -> Option<Command> {
    let legal = deal.betting.legal(seat);
    let rank = deal.rank_of(seat);
    let strong = strong_for_basic(&rank, deal.up[seat].len());
    let owed = deal.betting.to_call(seat);
    let pick = |a: Action| legal.contains(&a).then_some(a);
    let bet = legal.iter().copied().find(|a| matches!(a, Action::Bet(_) | Action::Raise(_)));
    let choice = if strong {
        bet.or_else(|| pick(Action::Call)).or_else(|| pick(Action::Check))
    } else if owed == 0 {
        pick(Action::Check)
    } else if rank.category >= Category::OnePair || owed * 4 <= deal.betting.pot() {
        pick(Action::Call)
    } else {
        None
    };
    choice.or_else(|| pick(Action::Fold)).map(command_of)
}

/// The cards `seat` cannot see: every card but its own hole card, the up cards of every seat
/// (folded ones' too, they lay face up) and the hole cards shown.
fn unseen(deal: &Deal, seat: Seat) -> Vec<Card> {
    let shown = (0..deal.players()).filter(|&s| deal.shown[s]).filter_map(|s| deal.hole[s]);
    let seen: Vec<Card> = deal.hole[seat].into_iter().chain(deal.up.concat()).chain(shown).collect();
    decks::standard52().into_iter().filter(|c| !seen.contains(c)).collect()
}

/// How many times likelier a hole card is for each of its seat's reads it fits than for one it
/// breaks: a seat betting by the basic bot's rule shows much of its hole card (it bets only
/// with two pairs or better once it has three up cards), while a seat betting otherwise is only
/// discounted, never ruled out.
const FITS: u64 = 8;
/// Breaking more reads than this counts no further against a card.
const MOST_MISSES: u32 = 6;

/// The hidden hole cards of some seats, dealt from the cards a seat cannot see, each seat's card
/// weighted by how many of its [`Read`]s it breaks.
struct Holes {
    /// The cards the seat cannot see, sorted, so that where they really are cannot matter.
    pool: Vec<Card>,
    seats: Vec<Seat>,
    /// By seat in `seats`, the weight of each card of `pool` as its hole card.
    weights: Vec<Vec<u64>>,
}

impl Holes {
    fn new(deal: &Deal, viewer: Seat, seats: Vec<Seat>) -> Holes {
        let mut pool = unseen(deal, viewer);
        pool.sort();
        let kind = deal.options.hands();
        let weights = seats
            .iter()
            .map(|&s| {
                pool.iter()
                    .map(|&c| {
                        let reads = if deal.unruled[s] { &[][..] } else { &deal.reads[s][..] };
                        let misses = reads.iter().filter(|r| !r.fits(c, &deal.up[s], kind)).count() as u32;
                        FITS.pow(MOST_MISSES - misses.min(MOST_MISSES))
                    })
                    .collect()
            })
            .collect();
        Holes { pool, seats, weights }
    }

    /// A hole card for each of the seats, in their order, and the rest of the pool shuffled.
    fn deal(&self, rng: &mut Rng) -> (Vec<Card>, Vec<Card>) {
        let mut left = vec![true; self.pool.len()];
        let mut holes = Vec::with_capacity(self.seats.len());
        for weights in &self.weights {
            let total: u64 = (0..self.pool.len()).filter(|&k| left[k]).map(|k| weights[k]).sum();
            if total == 0 {
                break;
            }
            let mut pick = rng.below(total as usize) as u64;
            let k = (0..self.pool.len())
                .filter(|&k| left[k])
                .find(|&k| {
                    if pick < weights[k] {
                        return true;
                    }
                    pick -= weights[k];
                    false
                })
                .expect("the pick is within the total");
            left[k] = false;
            holes.push(self.pool[k]);
        }
        let mut rest: Vec<Card> = (0..self.pool.len()).filter(|&k| left[k]).map(|k| self.pool[k]).collect();
        rng.shuffle(&mut rest);
        (holes, rest)
    }
}

/// How often `seat`'s hand beats every other hand still in once all five cards are out, over
/// worlds dealt from the cards it cannot see: the others' hole cards (weighted by what their
/// betting showed) and every card to come.
fn equity(deal: &Deal, seat: Seat, rng: &mut Rng, worlds: usize) -> f64 {
    let kind = deal.options.hands();
    let others: Vec<Seat> = deal.betting.live_seats().into_iter().filter(|&s| s != seat).collect();
    let holes = Holes::new(deal, seat, others.iter().copied().filter(|&s| !deal.shown[s]).collect());
    let mut total = 0.0;
    for _ in 0..worlds {
        let (hidden, rest) = holes.deal(rng);
        let mut hidden = holes.seats.iter().copied().zip(hidden);
        let mut next = rest.into_iter();
        let mut mine = deal.hand(seat);
        mine.extend(next.by_ref().take(HAND.saturating_sub(mine.len())));
        let mine = hands::rank(&mine, kind);
        let ranks: Vec<HandRank> = others
            .iter()
            .filter_map(|&o| {
                let hole = if deal.shown[o] { deal.hole[o] } else { hidden.find(|&(s, _)| s == o).map(|(_, c)| c) };
                let mut hand: Vec<Card> = hole.into_iter().chain(deal.up[o].iter().copied()).collect();
                hand.extend(next.by_ref().take(HAND.saturating_sub(hand.len())));
                (hand.len() >= HAND).then(|| hands::rank(&hand, kind))
            })
            .collect();
        total += betting::showdown_share(mine, ranks);
    }
    total / worlds as f64
}

/// The strong bot's own choice: the poker games' betting by its chance of winning against the
/// pot odds ([`betting::by_equity`]).
fn strong_choice(deal: &Deal, seat: Seat, rng: &mut Rng) -> Option<Command> {
    let legal = deal.betting.legal(seat);
    let p = equity(deal, seat, rng, 60);
    betting::by_equity(p, deal.betting.to_call(seat), deal.betting.pot(), &legal).map(command_of)
}

/// The deal as `seat` knows it: its own hole card, every up card and the hole cards shown; the
/// others' hole cards (folded ones' too, weighted by what their betting showed) and the stock
/// dealt afresh from the cards it cannot see.
fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let hidden: Vec<Seat> =
        (0..deal.players()).filter(|&s| s != seat && !deal.shown[s] && deal.hole[s].is_some()).collect();
    let (cards, stock) = Holes::new(deal, seat, hidden.clone()).deal(rng);
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    w.stock = stock;
    for (&s, c) in hidden.iter().zip(cards) {
        w.hole[s] = Some(c);
    }
    Some(world)
}

// ---------------------------------------------------------------------------------------------
// Rules

impl Rules for Stotpoker {
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = Table;

    const ID: &'static str = "stotpoker";
    const PLAYERS: RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const RULEBOOK: &'static str = include_str!("rulebooks/stotpoker.txt");

    fn test_option_sets(&self, _players: usize) -> Vec<Options> {
        vec![
            Options::default(),
            Options { soko: true, low_forces: true, ante: 1, odd_chip: OddChip::CarryOver, ..Options::default() },
            Options { chips: 20, forced_bet: 2, deals: 4, limit: Limit::Fixed, bet_size: 3, ..Options::default() },
        ]
    }

    fn setup(&self, players: usize, options: Options) -> Result<State, SetupError> {
        for (name, value, min) in [
            ("chips", options.chips, 1),
            ("ante", options.ante, 0),
            ("forced_bet", options.forced_bet, 1),
            ("bet_size", options.bet_size, 1),
        ] {
            if !(min..=MAX_CHIPS).contains(&value) {
                return Err(SetupError(format!("{name} must be {min} to {MAX_CHIPS}, not {value}")));
            }
        }
        if !(1..=100).contains(&options.deals) {
            return Err(SetupError(format!("deals must be 1 to 100, not {}", options.deals)));
        }
        Ok(State { options, table: Seating::new(players), deals: Deals::new(players) })
    }

    crate::status_of_deals!(decks::standard52);

    fn deal(&self, state: &State, deck: Vec<Card>) -> Result<Vec<Event>, RuleViolation> {
        Ok(run(state, deal_started(state, deck)))
    }

    fn decide(&self, state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
        decide(state, seat, command)
    }

    fn evolve(&self, state: &mut State, event: &Event) {
        evolve(state, event)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        deal.betting.legal(seat).into_iter().map(command_of).collect()
    }

    fn move_space(&self, state: &State, seat: Seat) -> Vec<Command> {
        let mut moves = vec![Command::Check, Command::Call, Command::Fold];
        moves.extend((0..=state.stack(seat) + 1).flat_map(|n| [Command::Bet { amount: n }, Command::Raise { by: n }]));
        moves
    }

    fn view(&self, state: &State, viewer: Viewer) -> Table {
        view(state, viewer)
    }

    fn redact(&self, _state: &State, event: &Event, viewer: Viewer, _deal_over: bool) -> Value {
        redact(event, viewer)
    }

    fn record_view(&self, state: &State, seat: Option<Seat>) -> Value {
        let mut table = serde_json::to_value(view(state, Viewer::Record)).expect("views serialize");
        if let (Some(s), Some(deal)) = (seat.filter(|&s| s < state.players()), state.deals.deal.as_ref()) {
            table["hole_cards"][s] = serde_json::json!(deal.hole[s]);
        }
        table
    }

    fn record_event(&self, _state: &State, event: &Event, seat: Option<Seat>) -> Value {
        redact(event, seat.map_or(Viewer::Record, Viewer::Seat))
    }

    fn secrets(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deals.deal else { return Vec::new() };
        let mut secrets: Vec<(Card, Vec<Seat>)> = deal.stock.iter().map(|&c| (c, Vec::new())).collect();
        for (s, hole) in deal.hole.iter().enumerate() {
            if let Some(c) = hole.filter(|_| !deal.shown[s]) {
                secrets.push((c, vec![s]));
            }
        }
        secrets
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        state.deals.check_books()?;
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        deal.betting.check_books()?;
        let pack = decks::standard52();
        deals::check_deck(&deal.deck, &pack)?;
        let mut all: Vec<Card> = deal.hole.iter().flatten().copied().collect();
        all.extend(deal.up.concat());
        all.extend(&deal.stock);
        crate::ensure!(is_permutation(&all, &pack), "hole cards, up cards and stock are not the pack");
        Ok(())
    }

    fn bot_levels(&self) -> bots::Levels {
        bots::Levels::ALL
    }

    fn basic_move(&self, state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
        basic_choice(state.deals.acting(seat)?, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
        determinize(state, seat, rng)
    }

    /// Fold, check or call, and bets or raises of about half the pot, the pot and everything.
    fn bot_candidates(&self, state: &State, seat: Seat) -> Vec<Command> {
        let Some(deal) = state.deals.acting(seat) else { return Vec::new() };
        let legal = deal.betting.legal(seat);
        let anchor = self.strong_anchor(state, seat).map(|c| action_of(&c));
        betting::candidates(deal.betting.pot(), &legal, anchor).into_iter().map(command_of).collect()
    }

    /// The chance of winning against the pot odds (from what the seat sees alone).
    fn strong_anchor(&self, state: &State, seat: Seat) -> Option<Command> {
        let deal = state.deals.acting(seat)?;
        let mut rng = Rng::new(u64::from(deal.number) * 1_000 + seat as u64);
        strong_choice(deal, seat, &mut rng)
    }

    fn standing(&self, state: &State, seat: Seat) -> f64 {
        bots::lead_over_mean(state.players(), |s| state.stack(s) as f64, seat)
    }
}

#[cfg(test)]
mod tests;
