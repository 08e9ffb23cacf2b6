//! Payments: what a deal's end moves between the players, the pot and the bets.

use super::*;

/// Everything a settlement depends on.
pub struct Settlement<'a> {
    pub players: usize,
    pub declarers: &'a [Seat],
    pub pot: i64,
    pub bet: Option<BetRecord>,
    pub next_bet: u32,
    pub double_bet: bool,
    pub merge_bets: bool,
}

impl Settlement<'_> {
    pub fn amount_played_for(&self) -> i64 {
        self.pot + self.bet.map_or(0, |b| b.amount)
    }

    /// The winner takes the pot and the bet in play.
    fn winner_takes(&self, winner: Seat) -> Vec<Payment> {
        let mut out = vec![Payment::new(
            Account::Pot,
            Account::Seat(winner),
            self.pot,
            rule::WINNER_TAKES,
            format!("Plats {winner} vann given och tar potten, {}.", self.pot),
            format!("Seat {winner} won the deal and takes the pot, {}.", self.pot),
        )];
        if let Some(b) = self.bet {
            out.push(Payment::new(
                Account::Bet(b.bet),
                Account::Seat(winner),
                b.amount,
                rule::WINNER_TAKES,
                format!(
                    "Plats {winner} tar också bet {} ({}), som given spelades om tillsammans med potten.",
                    b.bet, b.amount
                ),
                format!(
                    "Seat {winner} also takes bet {} ({}), which the deal was played for along with the pot.",
                    b.bet, b.amount
                ),
            ));
        }
        out
    }

    /// A new bet from each of `failed`, at once or twice the amount played for.
    fn bets_from(&self, failed: &[Seat], no_winner: bool) -> Vec<Payment> {
        let amount_for = self.amount_played_for();
        let (size, size_sv, size_en) = if self.double_bet {
            (
                amount_for.saturating_mul(2),
                format!("dubbla beloppet man spelade om, 2 × {amount_for}"),
                format!("twice the amount played for, 2 × {amount_for}"),
            )
        } else {
            (
                amount_for,
                format!("beloppet man spelade om, {amount_for}"),
                format!("the amount played for, {amount_for}"),
            )
        };
        let amount = size.min(TABLE_LIMIT);
        let limit_sv =
            if amount < size { format!(" (begränsat till bordets tak {TABLE_LIMIT})") } else { String::new() };
        let limit_en =
            if amount < size { format!(" (held to the table limit of {TABLE_LIMIT})") } else { String::new() };
        let merged = self.merge_bets && failed.len() == 2;
        failed
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                let bet = if merged { self.next_bet } else { self.next_bet + i as u32 };
                let (rule_id, why_sv, why_en) = if no_winner {
                    (
                        rule::NO_WINNER_BET,
                        format!("Ingen vann sticktagningen, men plats {d} var spelförare och sätter ändå bet"),
                        format!("Nobody won the tricks, but seat {d} declared and still pays a bet"),
                    )
                } else if failed.len() == 2 {
                    (
                        rule::BOTH_FAIL,
                        format!("Båda spelförarna misslyckades; plats {d} sätter sin bet"),
                        format!("Both declarers failed; seat {d} pays its bet"),
                    )
                } else {
                    (
                        rule::FAILED_DECLARER,
                        format!("Plats {d} var spelförare men vann inte och sätter bet"),
                        format!("Seat {d} declared but did not win and pays a bet"),
                    )
                };
                let (rule_id, merge_sv, merge_en) = if merged {
                    (
                        rule::MERGE_BETS,
                        format!("; de två betarna slås ihop till bet {bet}"),
                        format!("; the two bets are merged into bet {bet}"),
                    )
                } else {
                    (rule_id, format!(", bet {bet}"), format!(", bet {bet}"))
                };
                Payment::new(
                    Account::Seat(d),
                    Account::Bet(bet),
                    amount,
                    rule_id,
                    format!("{why_sv}: {size_sv}{limit_sv}{merge_sv}."),
                    format!("{why_en}: {size_en}{limit_en}{merge_en}."),
                )
            })
            .collect()
    }

    /// The payments of a deal won normally: the winner takes the pot and the bet in play, and
    /// every declarer other than the winner pays a bet.
    pub fn won(&self, winner: Seat) -> Vec<Payment> {
        let failed: Vec<Seat> = self.declarers.iter().copied().filter(|&d| d != winner).collect();
        let mut out = self.winner_takes(winner);
        out.extend(self.bets_from(&failed, false));
        out
    }

    /// Five players with one trick each: the pot and the bets stay, every declarer pays.
    pub fn no_winner(&self) -> Vec<Payment> {
        self.bets_from(self.declarers, true)
    }

    /// La vola made: the pot and the bet, and the amount played for from every other player.
    /// The declarers' undertaking no longer counts.
    pub fn la_vola_won(&self, winner: Seat) -> Vec<Payment> {
        let amount_for = self.amount_played_for();
        let amount = amount_for.min(TABLE_LIMIT);
        let mut out = self.winner_takes(winner);
        for other in (0..self.players).filter(|&s| s != winner) {
            out.push(Payment::new(
                Account::Seat(other),
                Account::Seat(winner),
                amount,
                rule::LA_VOLA_PAID,
                format!("Plats {winner} vann la vola: plats {other} betalar lika mycket som man spelade om, {amount}."),
                format!("Seat {winner} made la vola: seat {other} pays as much as was played for, {amount}."),
            ));
        }
        out
    }
}

/// Shares `total` held in `sources` out equally over `order` (seats); the chips that do not
/// share evenly go one each to the first seats of `order`.
pub fn share_out(sources: &[(Account, i64)], order: &[Seat]) -> Vec<Payment> {
    let total: i64 = sources.iter().map(|(_, a)| a).sum();
    let n = order.len() as i64;
    if total <= 0 || n == 0 {
        return Vec::new();
    }
    let shares: Vec<i64> = (0..n).map(|i| total / n + (i < total % n) as i64).collect();
    let mut out = Vec::new();
    let mut sources = sources.iter().copied().filter(|(_, a)| *a > 0);
    let mut current = sources.next();
    for (i, &seat) in order.iter().enumerate() {
        let mut owed = shares[i];
        while owed > 0 {
            let Some((from, left)) = current.as_mut() else { break };
            let amount = owed.min(*left);
            let (what_sv, what_en) = match from {
                Account::Pot => ("potten".to_string(), "the pot".to_string()),
                Account::Bet(b) => (format!("bet {b}"), format!("bet {b}")),
                Account::Seat(s) => (format!("plats {s}"), format!("seat {s}")),
                Account::Bank => ("banken".to_string(), "the bank".to_string()),
            };
            out.push(Payment::new(
                *from,
                Account::Seat(seat),
                amount,
                rule::SHARE_OUT,
                format!("Partiet är slut: plats {seat} får {amount} ur {what_sv} som sin del av det som låg kvar ({} av {total}).", shares[i]),
                format!("The match is over: seat {seat} gets {amount} from {what_en} as its share of what was left ({} of {total}).", shares[i]),
            ));
            owed -= amount;
            *left -= amount;
            if *left == 0 {
                current = sources.next();
            }
        }
    }
    out
}

pub(super) fn books_after(ledger: &Ledger, players: usize, payments: &[Payment]) -> Books {
    let mut l = ledger.clone();
    payments.iter().for_each(|p| l.pay(p));
    Books::of(&l, players)
}
