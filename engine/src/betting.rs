//! Betting for the poker games, on the [`ledger`](crate::ledger): each seat's stack is its
//! starting chips plus its ledger balance, and every chip put in goes at once to the pot, so
//! stacks plus the pot never change (the ledger sums to zero). A deal's [`Betting`] knows who is
//! in, who folded and what each seat has put in; a betting round knows whose turn it is and the
//! bet to meet. A seat may check, bet, call, raise or fold; a seat short of the bet calls with
//! what it has (all in for less), and what it could not meet becomes side pots
//! ([`side_pots`]). The round ends once every seat still in with chips has acted since the last
//! bet or raise and matched it.
//!
//! What a seat may do is computed once ([`Betting::choices`]); the legal actions are listed from
//! it and an action is checked against it, so the list and the check cannot disagree.

use serde::{Deserialize, Serialize};

use crate::ledger::{Account, Ledger, Payment};
use crate::rules::{ScoreTerm, Text};
use crate::seat::{Seat, Table};

/// How much may be bet or raised.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BettingLimit))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// A bet of at least one chip, a raise at least one chip over the bet, up to the whole stack.
    #[default]
    NoLimit,
    /// As no limit, but a bet at most the pot, and a raise at most the pot once the call is in.
    PotLimit,
    /// Every bet and raise is of the round's fixed size (less only when it is the whole stack).
    Fixed,
}

/// One betting action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Check,
    /// Put in this many chips as the round's first bet.
    Bet(i64),
    /// Match the bet (or put in the whole stack when it is less).
    Call,
    /// Put in the call and this many chips more.
    Raise(i64),
    Fold,
}

/// What a seat may do now; the bet and raise ranges are inclusive, in chips.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    pub check: bool,
    /// The chips a call puts in (the whole stack when it is short of the bet).
    pub call: Option<i64>,
    pub bet: Option<(i64, i64)>,
    pub raise: Option<(i64, i64)>,
    pub fold: bool,
}

/// Why an action is refused: the game names the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrong {
    /// There is a bet to meet: check is not possible.
    BetToMeet(i64),
    /// There is nothing to call or raise: the round has no bet yet.
    NoBet,
    /// The round already has a bet: one calls or raises it.
    AlreadyBet,
    /// The amount is outside what may be bet or raised now.
    Amount { min: i64, max: i64 },
    /// No bet or raise is possible: the seat has no chips past the call, or no other seat could
    /// answer (all the others are all in).
    CannotRaise,
    /// The seat cannot act (not its turn, folded, all in).
    NotToAct,
}

/// A pot at the showdown: its chips and the seats that may win it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BettingPot))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pot {
    pub amount: i64,
    pub eligible: Vec<Seat>,
}

/// A payment out of the pot to `to`'s stack.
pub fn from_pot(to: Seat, amount: i64, rule: &str, sv: String, en: String) -> Payment {
    Payment::new(Account::Pot, Account::Seat(to), amount, rule, sv, en)
}

/// A deal's books, settled ([`Betting::settle`]).
#[derive(Clone, Debug)]
pub struct Settlement {
    /// Every payment out of the pot, the leftover's shares last.
    pub payments: Vec<Payment>,
    pub terms: Vec<ScoreTerm>,
    /// The deal's result by seat: what it won less what it put in.
    pub points: Vec<i64>,
    pub stacks: Vec<i64>,
    /// What stays in the pot for the next deal.
    pub left: i64,
    /// The seats dealt in that have no chips left.
    pub out_of_match: Vec<Seat>,
}

/// A pot settled at the showdown: the best hand among the seats it is open to, the seats that
/// hold it, each one's share and the chips left in the pot for the next deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PotWon<R> {
    pub amount: i64,
    pub eligible: Vec<Seat>,
    pub best: R,
    pub winners: Vec<Seat>,
    pub shares: Vec<(Seat, i64)>,
    pub carried: i64,
}

/// The chips of a match and the betting of its deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Betting {
    /// Seats and the pot over the whole match.
    pub ledger: Ledger,
    /// The chips each seat started the match with.
    pub start: i64,
    pub table: Table,
    /// Seats dealt into this deal.
    pub dealt: Vec<bool>,
    pub folded: Vec<bool>,
    /// Chips each seat has put in this deal, antes included.
    pub committed: Vec<i64>,
    /// The pot carried into this deal from the last (a round of checks, odd chips).
    pub carried: i64,
    /// The round being bet, if one is.
    pub round: Option<Round>,
}

/// A betting round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub limit: Limit,
    /// The fixed size of a bet and a raise ([`Limit::Fixed`]).
    pub size: i64,
    /// Chips each seat has put in this round.
    pub bets: Vec<i64>,
    /// Seats that have acted since the last bet or raise.
    pub acted: Vec<bool>,
    /// Whose turn it is; `None` once the round is over.
    pub to_act: Option<Seat>,
    /// Somebody has bet this round (the pot is "open").
    pub opened: bool,
}

impl Betting {
    pub fn new(players: usize, start: i64) -> Betting {
        Betting {
            ledger: Ledger::new(),
            start,
            table: Table::new(players),
            dealt: vec![false; players],
            folded: vec![false; players],
            committed: vec![0; players],
            carried: 0,
            round: None,
        }
    }

    pub fn players(&self) -> usize {
        self.table.seats
    }

    /// The chips `seat` has in front of it.
    pub fn stack(&self, seat: Seat) -> i64 {
        self.start + self.ledger.balance(Account::Seat(seat))
    }

    pub fn stacks(&self) -> Vec<i64> {
        (0..self.players()).map(|s| self.stack(s)).collect()
    }

    pub fn pot(&self) -> i64 {
        self.ledger.balance(Account::Pot)
    }

    /// A new deal for the seats `dealt`, with what the pot already holds carried in.
    pub fn new_deal(&mut self, dealt: Vec<bool>) {
        self.carried = self.pot();
        self.folded = vec![false; self.players()];
        self.committed = vec![0; self.players()];
        self.dealt = dealt;
        self.round = None;
    }

    /// Dealt in and not folded.
    pub fn live(&self, seat: Seat) -> bool {
        self.dealt[seat] && !self.folded[seat]
    }

    pub fn live_seats(&self) -> Vec<Seat> {
        (0..self.players()).filter(|&s| self.live(s)).collect()
    }

    /// Still in and with chips to bet.
    pub fn can_act(&self, seat: Seat) -> bool {
        self.live(seat) && self.stack(seat) > 0
    }

    pub fn all_in(&self, seat: Seat) -> bool {
        self.live(seat) && self.stack(seat) == 0
    }

    /// Chips go from `seat` to the pot, as `payment` says (an ante, a bet).
    pub fn put_in(&mut self, payment: &Payment) {
        let Account::Seat(seat) = payment.from else { return };
        self.ledger.pay(payment);
        self.committed[seat] += payment.amount;
        if let Some(round) = &mut self.round {
            round.bets[seat] += payment.amount;
        }
    }

    /// Chips from the pot to a seat (a pot won, a bet nobody called).
    pub fn pay_out(&mut self, payment: &Payment) {
        self.ledger.pay(payment);
    }

    /// Opens a betting round: the first to speak is the first seat from `first` on that can act.
    pub fn start_round(&mut self, first: Seat, limit: Limit, size: i64) {
        let players = self.players();
        let mut round =
            Round { limit, size, bets: vec![0; players], acted: vec![false; players], to_act: None, opened: false };
        round.to_act = Some(first);
        self.round = Some(round);
        let next = self.next_to_act(self.table.after(first, players - 1));
        if let Some(r) = &mut self.round {
            r.to_act = next;
        }
    }

    /// The bet every seat must meet this round.
    pub fn current_bet(&self) -> i64 {
        self.round.as_ref().map_or(0, |r| r.bets.iter().copied().max().unwrap_or(0))
    }

    /// What `seat` must add to meet the bet.
    pub fn to_call(&self, seat: Seat) -> i64 {
        self.round.as_ref().map_or(0, |r| self.current_bet() - r.bets[seat])
    }

    pub fn to_act(&self) -> Option<Seat> {
        self.round.as_ref().and_then(|r| r.to_act)
    }

    /// Whether `seat` owes an answer: still in with chips, and it has not acted since the last
    /// bet or is short of it.
    fn owes(&self, seat: Seat) -> bool {
        let Some(r) = &self.round else { return false };
        if !self.can_act(seat) {
            return false;
        }
        // With nobody else left who could answer or has a bet to make him answer, there is
        // nothing to say.
        let others = (0..self.players()).any(|s| s != seat && self.can_act(s));
        let short = r.bets[seat] < self.current_bet();
        short || (!r.acted[seat] && others)
    }

    /// The first seat after `seat`, clockwise, that owes an answer; none when the round is over.
    fn next_to_act(&self, seat: Seat) -> Option<Seat> {
        if self.live_seats().len() < 2 {
            return None;
        }
        (1..=self.players()).map(|k| self.table.after(seat, k)).find(|&s| self.owes(s))
    }

    /// What `seat` may do now (nothing when it is not its turn).
    pub fn choices(&self, seat: Seat) -> Choices {
        let Some(r) = self.round.as_ref().filter(|r| r.to_act == Some(seat)) else { return Choices::default() };
        let stack = self.stack(seat);
        let owed = self.to_call(seat);
        let others_answer = (0..self.players()).any(|s| s != seat && self.can_act(s));
        let pot_after_call = self.pot() + owed;
        let range = |min: i64, max: i64| {
            let max = max.min(stack - owed);
            // Short of the smallest bet or raise, the whole stack still goes in.
            let min = min.min(max);
            (max >= 1 && others_answer).then_some((min.max(1), max))
        };
        let (min, max) = match r.limit {
            Limit::NoLimit => (1, stack),
            Limit::PotLimit => (1, pot_after_call.max(1)),
            Limit::Fixed => (r.size, r.size),
        };
        Choices {
            check: owed == 0,
            call: (owed > 0).then_some(owed.min(stack)),
            bet: if r.opened || owed > 0 { None } else { range(min, max) },
            raise: if owed > 0 || r.opened { range(min, max).filter(|_| self.current_bet() > 0) } else { None },
            fold: true,
        }
    }

    /// Every action `seat` may take now, from [`Betting::choices`].
    pub fn legal(&self, seat: Seat) -> Vec<Action> {
        let c = self.choices(seat);
        let mut actions = Vec::new();
        if c.check {
            actions.push(Action::Check);
        }
        if c.call.is_some() {
            actions.push(Action::Call);
        }
        if let Some((lo, hi)) = c.bet {
            actions.extend((lo..=hi).map(Action::Bet));
        }
        if let Some((lo, hi)) = c.raise {
            actions.extend((lo..=hi).map(Action::Raise));
        }
        if c.fold && self.to_act() == Some(seat) {
            actions.push(Action::Fold);
        }
        actions
    }

    /// Whether `seat` may take `action` now, from [`Betting::choices`]; `Ok` with the chips the
    /// action puts in.
    pub fn check(&self, seat: Seat, action: Action) -> Result<i64, Wrong> {
        if self.to_act() != Some(seat) {
            return Err(Wrong::NotToAct);
        }
        let c = self.choices(seat);
        let owed = self.to_call(seat);
        let within = |range: Option<(i64, i64)>, n: i64| match range {
            Some((min, max)) if (min..=max).contains(&n) => Ok(()),
            Some((min, max)) => Err(Wrong::Amount { min, max }),
            None => Err(Wrong::CannotRaise),
        };
        match action {
            Action::Check if c.check => Ok(0),
            Action::Check => Err(Wrong::BetToMeet(owed)),
            Action::Call => c.call.ok_or(Wrong::NoBet),
            Action::Fold => Ok(0),
            Action::Bet(_) if self.current_bet() > 0 || self.round.as_ref().is_some_and(|r| r.opened) => {
                Err(Wrong::AlreadyBet)
            }
            Action::Bet(n) => within(c.bet, n).map(|_| n),
            Action::Raise(_) if self.current_bet() == 0 => Err(Wrong::NoBet),
            Action::Raise(n) => within(c.raise, n).map(|_| owed + n),
        }
    }

    /// Records `action` by `seat` (already checked), with `paid` the payment of its chips if it
    /// puts any in, and passes the turn.
    pub fn act(&mut self, seat: Seat, action: Action, paid: Option<&Payment>) {
        if let Some(p) = paid {
            self.put_in(p);
        }
        if let Some(r) = &mut self.round {
            match action {
                Action::Bet(_) | Action::Raise(_) => {
                    r.acted = vec![false; r.acted.len()];
                    r.opened = true;
                }
                Action::Fold => {}
                Action::Check | Action::Call => {}
            }
            r.acted[seat] = true;
        }
        if action == Action::Fold {
            self.folded[seat] = true;
        }
        let next = self.next_to_act(seat);
        if let Some(r) = &mut self.round {
            r.to_act = next;
        }
    }

    /// The round is over (or none is being bet).
    pub fn round_over(&self) -> bool {
        self.to_act().is_none()
    }

    /// Closes the round.
    pub fn end_round(&mut self) {
        self.round = None;
    }

    /// The pots as the chips put in this deal make them, the carried pot in the main one.
    pub fn pots(&self) -> Vec<Pot> {
        side_pots(&self.committed, &self.live_seats(), self.carried)
    }

    /// Every pot (`pots`) to the best hand still in it by `rank`, a tie shared by [`split`].
    pub fn showdown<R: Ord + Copy>(
        &self,
        rank: impl Fn(Seat) -> R,
        table: &Table,
        dealer: Seat,
        carry_odd: bool,
    ) -> Vec<PotWon<R>> {
        self.pots()
            .into_iter()
            .map(|pot| {
                let best = pot.eligible.iter().map(|&s| rank(s)).max().expect("a pot has someone to win it");
                let winners: Vec<Seat> = pot.eligible.iter().copied().filter(|&s| rank(s) == best).collect();
                let (shares, carried) = split(pot.amount, &winners, table, dealer, carry_odd);
                PotWon { amount: pot.amount, eligible: pot.eligible, best, winners, shares, carried }
            })
            .collect()
    }

    /// Each seat's chips once `payments` out of the pot are made.
    pub fn stacks_after(&self, payments: &[Payment]) -> Vec<i64> {
        let won = |s: Seat| payments.iter().filter(|p| p.to == Account::Seat(s)).map(|p| p.amount).sum::<i64>();
        (0..self.players()).map(|s| self.stack(s) + won(s)).collect()
    }

    /// What is left in the pot once `payments` are made, shared out when the match ends with
    /// this deal (the `last_deal`, or at most one seat then has chips): equally among the seats
    /// with chips (those still in if nobody has any), odd chips to the first after the dealer.
    /// Empty while the match goes on or nothing is left.
    pub fn leftover_shares(
        &self,
        payments: &[Payment],
        last_deal: bool,
        table: &Table,
        dealer: Seat,
    ) -> Vec<(Seat, i64)> {
        let left = self.pot() - payments.iter().map(|p| p.amount).sum::<i64>();
        let stacks = self.stacks_after(payments);
        let last = last_deal || stacks.iter().filter(|&&n| n > 0).count() <= 1;
        if !last || left <= 0 {
            return Vec::new();
        }
        let mut sharers: Vec<Seat> = (0..self.players()).filter(|&s| stacks[s] > 0).collect();
        if sharers.is_empty() {
            sharers = self.live_seats();
        }
        split(left, &sharers, table, dealer, false).0
    }

    /// The deal's books once `payments` out of the pot are made: what is left shared out when
    /// the match ends with the deal ([`Betting::leftover_shares`], under `leftover_rule`), and
    /// the result by seat as score terms, first what each put in (`stake`, under `stake_rule`)
    /// and then each payment.
    pub fn settle(
        &self,
        mut payments: Vec<Payment>,
        last_deal: bool,
        table: &Table,
        dealer: Seat,
        leftover_rule: &str,
        (stake_rule, stake): (&str, impl Fn(Seat, i64) -> Text),
    ) -> Settlement {
        let shares = self.leftover_shares(&payments, last_deal, table, dealer);
        for &(s, n) in &shares {
            payments.push(from_pot(
                s,
                n,
                leftover_rule,
                format!("Partiet är slut: plats {s} får {n} av det som låg kvar i potten."),
                format!("The match is over: seat {s} gets {n} of what was left in the pot."),
            ));
        }
        let left = self.pot() - payments.iter().map(|p| p.amount).sum::<i64>();
        let mut terms: Vec<ScoreTerm> = (0..self.players())
            .filter(|&s| self.committed[s] > 0)
            .map(|s| {
                let n = self.committed[s];
                let text = stake(s, n);
                ScoreTerm::new(s, -n, stake_rule, text.sv, text.en)
            })
            .collect();
        terms.extend(payments.iter().map(|p| {
            let Account::Seat(s) = p.to else { unreachable!("every payout goes to a seat") };
            ScoreTerm::new(s, p.amount, &p.rule, p.explanation.sv.clone(), p.explanation.en.clone())
        }));
        let mut points = vec![0; self.players()];
        terms.iter().for_each(|t| points[t.to] += t.points);
        let stacks = self.stacks_after(&payments);
        let out_of_match = (0..self.players()).filter(|&s| self.dealt[s] && stacks[s] == 0).collect();
        Settlement { payments, terms, points, stacks, left, out_of_match }
    }

    /// The books: the ledger balances, no stack below zero, and the pot holds at least what was
    /// put in this deal and carried into it.
    pub fn check_books(&self) -> Result<(), String> {
        self.ledger.check()?;
        if let Some(s) = (0..self.players()).find(|&s| self.stack(s) < 0) {
            return Err(format!("seat {s} has {} chips", self.stack(s)));
        }
        let total: i64 = self.stacks().iter().sum::<i64>() + self.pot();
        if total != self.start * self.players() as i64 {
            return Err(format!("stacks and pot hold {total} chips, not {}", self.start * self.players() as i64));
        }
        Ok(())
    }
}

/// The main pot and the side pots: each level of what a seat still in put in makes a pot of
/// every seat's chips up to that level (folded seats' included), won among the seats still in
/// that put in at least as much. `carried` chips (from earlier deals) go to the main pot. A top
/// level only one seat reached is that seat's own bet nobody called, a pot he alone may take.
pub fn side_pots(committed: &[i64], live: &[Seat], carried: i64) -> Vec<Pot> {
    let mut levels: Vec<i64> = live.iter().map(|&s| committed[s]).collect();
    levels.sort_unstable();
    levels.dedup();
    let mut pots: Vec<Pot> = Vec::new();
    let mut below = 0;
    for &level in &levels {
        let amount: i64 = committed.iter().map(|&c| c.min(level) - c.min(below)).sum();
        let eligible: Vec<Seat> = live.iter().copied().filter(|&s| committed[s] >= level).collect();
        if amount > 0 || pots.is_empty() {
            pots.push(Pot { amount, eligible });
        }
        below = level;
    }
    // Chips of folded seats above every live seat's level (none in a real round) join the top pot.
    let over: i64 = committed.iter().map(|&c| (c - below).max(0)).sum();
    if pots.is_empty() {
        pots.push(Pot { amount: 0, eligible: live.to_vec() });
    }
    if let Some(top) = pots.last_mut() {
        top.amount += over;
    }
    pots[0].amount += carried;
    pots.retain(|p| p.amount > 0);
    pots
}

/// How a pot is shared among its `winners` (seats that tie for the best hand), taken in turn
/// from the dealer's left: equal shares, and the odd chips one each to the first winners after
/// the dealer, or, with `carry_odd`, left in the pot for the next deal. Returns each winner's
/// share and the chips left in the pot.
pub fn split(amount: i64, winners: &[Seat], table: &Table, dealer: Seat, carry_odd: bool) -> (Vec<(Seat, i64)>, i64) {
    let k = winners.len() as i64;
    if k == 0 {
        return (Vec::new(), amount);
    }
    let (share, odd) = (amount / k, amount % k);
    let mut in_turn: Vec<Seat> = winners.to_vec();
    in_turn.sort_by_key(|&s| (1..=table.seats).position(|i| table.after(dealer, i) == s));
    let shares = in_turn
        .iter()
        .enumerate()
        .map(|(i, &s)| (s, share + i64::from(!carry_odd && (i as i64) < odd)))
        .filter(|(_, n)| *n > 0)
        .collect();
    (shares, if carry_odd { odd } else { 0 })
}

// ---------------------------------------------------------------------------------------------
// The strong bots' betting, shared by the poker games: each game estimates the seat's chance of
// winning the pot (its equity) in its own way, and the betting follows from it here.

/// A bet or raise of about `fraction` of the `pot`, the nearest amount `legal` allows.
pub fn sized(pot: i64, fraction: f64, legal: &[Action]) -> Option<Action> {
    let target = ((pot as f64 * fraction).round() as i64).max(1);
    let amounts: Vec<(i64, Action)> = legal
        .iter()
        .filter_map(|&a| match a {
            Action::Bet(n) | Action::Raise(n) => Some((n, a)),
            _ => None,
        })
        .collect();
    amounts.iter().min_by_key(|(n, _)| (n - target).abs()).map(|&(_, a)| a)
}

/// The action a chance `p` of winning the `pot` calls for, with `owed` chips to meet: a call is
/// worth it when the chance pays for what the call costs against the pot it could win; a bet or
/// raise when the chance is well above even, sized by how sure it is.
pub fn by_equity(p: f64, owed: i64, pot: i64, legal: &[Action]) -> Option<Action> {
    let (owed, whole) = (owed as f64, pot as f64);
    let pick = |a: Action| legal.contains(&a).then_some(a);
    let choice = if p > 0.7 {
        sized(pot, if p > 0.85 { 1.0 } else { 0.5 }, legal).or_else(|| pick(Action::Call))
    } else if p > 0.55 && owed == 0.0 {
        sized(pot, 0.4, legal)
    } else if owed == 0.0 {
        pick(Action::Check)
    } else if p * (whole + owed) >= owed {
        pick(Action::Call)
    } else {
        None
    };
    choice.or_else(|| pick(Action::Check)).or_else(|| pick(Action::Fold)).or_else(|| legal.first().copied())
}

/// What the search weighs: fold, check or call, bets or raises of about half the pot, the pot
/// and everything, and the `anchor` (the [`by_equity`] choice) if it is none of those.
pub fn candidates(pot: i64, legal: &[Action], anchor: Option<Action>) -> Vec<Action> {
    let mut moves: Vec<Action> =
        [Action::Fold, Action::Check, Action::Call].into_iter().filter(|a| legal.contains(a)).collect();
    for fraction in [0.5, 1.0, 1000.0] {
        if let Some(a) = sized(pot, fraction, legal) {
            if !moves.contains(&a) {
                moves.push(a);
            }
        }
    }
    if let Some(a) = anchor.filter(|a| !moves.contains(a)) {
        moves.push(a);
    }
    moves
}

/// What a showdown gives a hand ranked `mine` against the `others` still in: all of the pot when
/// it beats them all, a share when it ties the best, nothing when beaten.
pub fn showdown_share<R: Ord + Copy>(mine: R, others: impl IntoIterator<Item = R>) -> f64 {
    let mut best_other: Option<R> = None;
    let mut ties = 0;
    for r in others {
        if r == mine {
            ties += 1;
        }
        if best_other.is_none_or(|b| r > b) {
            best_other = Some(r);
        }
    }
    match best_other {
        None => 1.0,
        Some(b) if mine > b => 1.0,
        Some(b) if mine == b => 1.0 / f64::from(ties + 1),
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests;
