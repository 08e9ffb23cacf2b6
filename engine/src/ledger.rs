//! The money toolkit for games played for stakes: a ledger of accounts (each seat, the pot,
//! bets waiting for later deals) where every payment moves chips from one account to another
//! with the rule behind it and an explanation. Nothing is created or destroyed, so the
//! balances always sum to zero: players start at 0 and go below it by paying in.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::Text;
use crate::seat::Seat;

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Account {
    Seat(Seat),
    Pot,
    /// A bet kept apart from the pot until a later deal plays for it (numbered as made).
    Bet(u32),
    /// The house of a banking game (Blackjack): it pays and takes against every seat and has no
    /// limit, so, like a seat, it may stand below zero.
    Bank,
}

impl Account {
    /// A pot or a bet: chips laid aside, never fewer than none, unlike a seat's or the bank's
    /// balance.
    fn is_pool(self) -> bool {
        matches!(self, Account::Pot | Account::Bet(_))
    }
}

impl std::fmt::Display for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Account::Seat(s) => write!(f, "seat {s}"),
            Account::Pot => f.write_str("the pot"),
            Account::Bet(n) => write!(f, "bet {n}"),
            Account::Bank => f.write_str("the bank"),
        }
    }
}

/// One movement of chips, with why.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payment {
    pub from: Account,
    pub to: Account,
    pub amount: i64,
    pub rule: String,
    pub explanation: Text,
}

impl Payment {
    pub fn new(from: Account, to: Account, amount: i64, rule: &str, sv: String, en: String) -> Payment {
        Payment { from, to, amount, rule: rule.to_string(), explanation: Text::new(sv, en) }
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    balances: BTreeMap<Account, i64>,
}

impl Ledger {
    pub fn new() -> Ledger {
        Ledger::default()
    }

    pub fn balance(&self, account: Account) -> i64 {
        self.balances.get(&account).copied().unwrap_or(0)
    }

    pub fn pay(&mut self, payment: &Payment) {
        *self.balances.entry(payment.from).or_insert(0) -= payment.amount;
        *self.balances.entry(payment.to).or_insert(0) += payment.amount;
        // An emptied pool is gone, so views list only what holds chips (seats and the bank stay).
        for account in [payment.from, payment.to] {
            if account.is_pool() && self.balance(account) == 0 {
                self.balances.remove(&account);
            }
        }
    }

    /// Every account that holds or owes anything, seats included.
    pub fn accounts(&self) -> impl Iterator<Item = (Account, i64)> + '_ {
        self.balances.iter().map(|(a, b)| (*a, *b))
    }

    /// Bets still waiting, oldest first.
    pub fn bets(&self) -> Vec<(u32, i64)> {
        self.balances
            .iter()
            .filter_map(|(a, b)| match a {
                Account::Bet(n) if *b != 0 => Some((*n, *b)),
                _ => None,
            })
            .collect()
    }

    /// Zero when the books balance.
    pub fn total(&self) -> i64 {
        self.balances.values().sum()
    }

    /// The books balance, and no pot or bet holds a negative amount.
    pub fn check(&self) -> Result<(), String> {
        if self.total() != 0 {
            return Err(format!("the ledger sums to {} instead of 0: {:?}", self.total(), self.balances));
        }
        if let Some((a, b)) = self.balances.iter().find(|(a, b)| a.is_pool() && **b < 0) {
            return Err(format!("{a} holds {b}"));
        }
        Ok(())
    }

    /// Seat balances as a list, for views and results.
    pub fn seats(&self, players: usize) -> Vec<i64> {
        (0..players).map(|s| self.balance(Account::Seat(s))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pay(l: &mut Ledger, from: Account, to: Account, amount: i64) {
        l.pay(&Payment::new(from, to, amount, "test.rule", "sv".into(), "en".into()));
    }

    #[test]
    fn payments_move_chips_and_the_books_always_balance() {
        let mut l = Ledger::new();
        pay(&mut l, Account::Seat(0), Account::Pot, 3);
        pay(&mut l, Account::Seat(1), Account::Bet(1), 5);
        assert_eq!(l.balance(Account::Pot), 3);
        assert_eq!(l.seats(3), vec![-3, -5, 0]);
        assert_eq!(l.bets(), vec![(1, 5)]);
        assert_eq!(l.total(), 0);
        pay(&mut l, Account::Pot, Account::Seat(2), 3);
        assert!(l.accounts().all(|(a, _)| a != Account::Pot), "an empty pot is dropped");
        assert!(l.check().is_ok());
        pay(&mut l, Account::Pot, Account::Seat(2), 1);
        assert!(l.check().is_err(), "a pot cannot pay out more than it holds");
    }

    #[test]
    fn accounts_serialize_readably() {
        assert_eq!(serde_json::to_string(&Account::Seat(2)).unwrap(), r#"{"seat":2}"#);
        assert_eq!(serde_json::to_string(&Account::Pot).unwrap(), r#""pot""#);
        assert_eq!(serde_json::to_string(&Account::Bet(3)).unwrap(), r#"{"bet":3}"#);
    }
}
