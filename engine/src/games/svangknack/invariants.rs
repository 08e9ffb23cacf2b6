//! The books balance: what the generic tests check after every event.

use super::*;

impl Svangknack {
    pub(super) fn check_books(&self, state: &State) -> Result<(), String> {
        state.ledger.check()?;
        let players = state.players();
        let balances = state.ledger.seats(players);
        if let Some(winners) = &state.winners {
            if state.pot() != 0 || state.deals_started < state.deals_scheduled() {
                return Err(format!(
                    "the match ended after {} deals with {} in the pot",
                    state.deals_started,
                    state.pot()
                ));
            }
            if *winners != match_winners(&balances) {
                return Err(format!("winners {winners:?} are not the seats furthest ahead in {balances:?}"));
            }
        }
        let Some(deal) = &state.deal else {
            return if state.ledger.total() == 0 && state.pot() == 0 {
                Ok(())
            } else {
                Err("chips moved before any deal".into())
            };
        };
        if deal.number != state.deals_started || deal.dealer != (deal.number as usize - 1) % players {
            return Err(format!(
                "deal {} dealt by seat {} after {} deals",
                deal.number, deal.dealer, state.deals_started
            ));
        }
        // The books: what the deal opened with plus its payments is what the ledger holds.
        let rebuilt = deal.balances_rebuilt();
        if rebuilt.seats(players) != balances || rebuilt.balance(Account::Pot) != state.pot() {
            return Err(format!("the ledger {balances:?} / {} differs from the deal's payments", state.pot()));
        }
        if opening_ledger(&deal.opening_balances).balance(Account::Pot) != deal.opening_pot {
            return Err("the deal's opening pot is not what the seats had paid in".into());
        }
        if deal.forced != (deal.opening_pot == 0) {
            return Err(format!(
                "deal {} forced = {} with an opening pot of {}",
                deal.number, deal.forced, deal.opening_pot
            ));
        }
        if deal.payments.iter().any(|p| p.amount <= 0) {
            return Err("a payment of nothing or less".into());
        }

        // Every card is in exactly one place.
        let pack = state.pack();
        if !is_permutation(&deal.deck, &pack) {
            return Err("the recorded deck is not the pack".into());
        }
        let everywhere: Vec<Card> = deal
            .hands
            .iter()
            .chain(&deal.folded)
            .chain(&deal.discards)
            .flatten()
            .chain(&deal.talon)
            .chain(&deal.turned)
            .copied()
            .chain(deal.tricks.iter().flat_map(|t| t.plays.iter().map(|p| p.card)))
            .chain(deal.trick.iter().map(|p| p.card))
            .collect();
        if !is_permutation(&everywhere, &pack) {
            return Err("the cards in hands, talon, turned cards, set-aside cards and tricks are not the pack".into());
        }
        let expected_turned = match (deal.forced, deal.phase, deal.swinger) {
            (true, _, _) => 1,
            (false, _, Some(_)) => 2,
            _ => 0,
        };
        // Between the swing (or the forced deal's start) and the turning of the cards.
        let not_yet =
            deal.turned.is_empty() && deal.trumps.is_none() && deal.tricks.is_empty() && deal.trick.is_empty();
        if deal.turned.len() != expected_turned && !not_yet {
            return Err(format!("{} cards turned up", deal.turned.len()));
        }
        if deal.trumps.is_some_and(|t| !deal.turned.iter().any(|c| c.is_suit(t))) {
            return Err("trumps are not the suit of a turned card".into());
        }

        // Who is in, and what they hold.
        if deal.forced && deal.in_play.iter().any(|&i| !i) {
            return Err("a seat sits out of a forced deal".into());
        }
        let played =
            |s: Seat| deal.tricks.iter().flat_map(|t| &t.plays).chain(&deal.trick).filter(|p| p.seat == s).count();
        for s in 0..players {
            if deal.discards[s].len() != deal.drawn[s].len() {
                return Err(format!(
                    "seat {s} put away {} cards but drew {}",
                    deal.discards[s].len(),
                    deal.drawn[s].len()
                ));
            }
            let folded = !deal.folded[s].is_empty();
            let held = deal.hands[s].len() + played(s) + deal.folded[s].len();
            if held != HAND || (folded && (deal.in_play[s] || !deal.hands[s].is_empty())) {
                return Err(format!(
                    "seat {s} holds {} cards, played {}, threw in {}",
                    deal.hands[s].len(),
                    played(s),
                    deal.folded[s].len()
                ));
            }
            if !deal.in_play[s] && played(s) > 0 {
                return Err(format!("seat {s} played without being in"));
            }
            let won = deal.tricks.iter().filter(|t| t.winner == s).count() as u32;
            if won != deal.tricks_taken[s] {
                return Err(format!("seat {s} is credited {} tricks but won {won}", deal.tricks_taken[s]));
            }
        }
        let in_count = deal.in_play.iter().filter(|&&i| i).count();
        if deal.swinger.is_some() && deal.phase != Phase::ChoosingTrumps && deal.phase != Phase::Joining && in_count < 2
        {
            return Err("the swinger plays alone".into());
        }
        if deal.tricks.len() > HAND || deal.trick.len() > in_count {
            return Err("more tricks or plays than the deal has".into());
        }
        // Each trick was checked when it was the latest: checking only that one keeps this linear.
        if let Some(t) = deal.tricks.last() {
            let trumps = deal.trumps.ok_or("a trick without trumps")?;
            let mut seat = t.leader;
            for p in &t.plays {
                if p.seat != seat {
                    return Err(format!("trick {} was not played in turn", t.number));
                }
                seat = next_in(&state.table, &deal.in_play, seat);
            }
            if t.plays.len() != in_count || trick_winner(&t.plays, trumps) != (t.winner, t.card, t.reason) {
                return Err(format!("trick {} went to the wrong seat", t.number));
            }
            if deal.leader != t.winner {
                return Err(format!("seat {} leads although seat {} took the last trick", deal.leader, t.winner));
            }
        }
        if deal.blanked().any(|p| p.card.suit() == deal.trumps)
            || deal.tricks.iter().filter(|t| t.number != 2).flat_map(|t| &t.plays).any(|p| p.blanked)
            || (deal.trick_number() != 2 && deal.trick.iter().any(|p| p.blanked))
        {
            return Err("a trump was blanked, or a card blanked outside the second trick".into());
        }
        match deal.phase {
            Phase::Over if deal.settlement.is_none() && (deal.swinger.is_some() || deal.forced) => {
                return Err("a played deal ended without a settlement".into())
            }
            Phase::Over if deal.settlement.is_some() && deal.tricks.len() != HAND => {
                return Err("the deal was settled before its three tricks".into())
            }
            Phase::Playing | Phase::Over
                if !deal.forced && deal.swinger.is_some() && deal.buys.len() != deal.buy_order.len() =>
            {
                return Err("play started before everyone in had their turn to buy".into())
            }
            Phase::Swinging | Phase::ChoosingTrumps | Phase::Joining | Phase::Buying
                if !deal.tricks.is_empty() || !deal.trick.is_empty() =>
            {
                return Err("cards were played before the play".into())
            }
            _ => {}
        }
        if deal.forced && !deal.buys.is_empty() {
            return Err("somebody bought in a forced deal".into());
        }
        if let Some(s) = &deal.settlement {
            if s.pot != state.pot() {
                return Err(format!("the settlement left {} in the pot but it holds {}", s.pot, state.pot()));
            }
        }
        Ok(())
    }
}
