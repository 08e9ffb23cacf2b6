//! The books balance: what the generic tests check after every event.

use super::*;

impl PolsktPass {
    pub(super) fn check_books(&self, state: &State) -> Result<(), String> {
        let players = state.players();
        state.ledger.check()?;
        let books = state.books();
        if books != state.reported {
            return Err(format!("the ledger holds {books:?} but the last money event stated {:?}", state.reported));
        }
        if books.total() != 0 {
            return Err(format!("balances, pot and bets sum to {}", books.total()));
        }
        if let Some(b) = books.bets.iter().find(|b| b.bet >= state.next_bet) {
            return Err(format!("bet {} exists but the next bet is numbered {}", b.bet, state.next_bet));
        }
        if state.deals.number > state.deals_total() {
            return Err(format!("deal {} of {}", state.deals.number, state.deals_total()));
        }
        if let Some(outcome) = &state.deals.outcome {
            if state.deals.number != state.deals_total() {
                return Err("the match ended before its last deal".into());
            }
            if books.pot != 0 || !books.bets.is_empty() {
                return Err("the match ended with chips left in the pot or the bets".into());
            }
            if outcome.winners != match_winners(&books.balances) {
                let winners = &outcome.winners;
                return Err(format!("winners {winners:?} do not have the highest balance of {:?}", books.balances));
            }
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        if deal.number != state.deals.number || deal.number == 0 {
            return Err(format!("the deal in play is {} but {} were started", deal.number, state.deals.number));
        }
        if deal.dealer != (deal.number as usize - 1) % players {
            return Err(format!("deal {} has dealer {}", deal.number, deal.dealer));
        }
        if let Some(b) = deal.bet_in_play {
            if deal.phase != TablePhase::DealOver && state.ledger.balance(Account::Bet(b)) <= 0 {
                return Err(format!("the deal is played for bet {b}, which holds nothing"));
            }
        }

        // Every card is in exactly one place, and each seat holds what it was dealt, one more
        // for a card taken until it is put away, less the cards it played.
        let pack = composition(players);
        deals::check_deck(&deal.deck, &pack)?;
        let cutter_took = deal.cut.is_some_and(|c| c.cutter_took);
        let extra = |s: Seat| {
            usize::from(s == deal.dealer && deal.turned_taken) + usize::from(s == deal.cutter() && cutter_took)
        };
        let discarded = |s: Seat| deal.discards.iter().filter(|&&(d, _)| d == s).count();
        if let Some(s) = (0..players).find(|&s| discarded(s) > extra(s)) {
            return Err(format!("seat {s} put away {} cards", discarded(s)));
        }
        let put_away = deal.discards.iter().map(|&(_, c)| c);
        let elsewhere: Vec<Card> =
            put_away.chain(deal.turned_card.filter(|_| !deal.turned_taken)).chain(deal.pack.iter().copied()).collect();
        let hand_size = |s: Seat| deal.dealt[s].len() + extra(s) - discarded(s);
        // No card is played before trumps are set (see the checks of the trumps and of the deal's
        // end below), so until then any suit stands in for them.
        let trumps = deal.trumps.unwrap_or(Suit::Clubs);
        deal.play.check(&pack, &elsewhere, hand_size, &|t| trick_winner(t, trumps))?;

        let Some(cut) = deal.cut else {
            return match deal.phase {
                TablePhase::Cutting => Ok(()),
                _ => Err("the deal went on without a cut".into()),
            };
        };
        if cut.cutter_took != is_jack(cut.shown_card) || deal.deck.get(cut.at.wrapping_sub(1)) != Some(&cut.shown_card)
        {
            return Err(format!(
                "the cut at {} showed {} and the cutter took it: {}",
                cut.at, cut.shown_card, cut.cutter_took
            ));
        }
        if !cut.cutter_took && deal.pack.last() != Some(&cut.shown_card) {
            return Err("the card shown at the cut is not at the bottom of the undealt rest".into());
        }
        if deal.turned_card.is_none() {
            // Cut, not yet dealt: only the jack shown at the cut can have left the pack.
            return Ok(());
        }
        let dealt_all = 1 + players * HAND + cut.cutter_took as usize;
        if deal.pack.len() + dealt_all != pack.len() || deal.dealt.iter().any(|h| h.len() != HAND) {
            return Err(format!("{} cards left undealt", deal.pack.len()));
        }
        if deal.turned_taken
            && !(cut.cutter_took || deal.turned_card.is_some_and(|c| is_jack(c) || c.rank() == Some(Rank::ACE)))
        {
            return Err("the dealer took a turned card that must stay".into());
        }
        if (cut.cutter_took || deal.turned_card.is_some_and(is_jack))
            && deal.phase != TablePhase::TurnedCard
            && !deal.turned_taken
        {
            return Err("the dealer left a turned card that must be taken".into());
        }
        if deal.phase == TablePhase::Playing && deal.play.hands.iter().any(|h| h.len() > HAND) {
            return Err("play started before every extra card was put away".into());
        }
        // Declarers and trumps.
        match deal.trumps_from {
            Some(TrumpsFrom::DealerTook) => {
                let mut expected = vec![deal.dealer];
                if cut.cutter_took {
                    expected.push(deal.cutter());
                }
                if !deal.turned_taken || deal.declarers != expected || deal.trumps != deal.turned_suit() {
                    return Err(format!(
                        "declarers {:?} with trumps {:?} after the dealer took",
                        deal.declarers, deal.trumps
                    ));
                }
            }
            Some(from) => {
                let last = deal.calls().last().copied();
                let ok = matches!(last, Some(c) if c.call.declares() && deal.declarers == [c.seat] && deal.trumps == c.suit
                    && (from == TrumpsFrom::RoundOne) == (c.round == 1));
                if !ok || deal.turned_taken {
                    return Err(format!("declarers {:?} do not match the bidding", deal.declarers));
                }
            }
            None => {
                if matches!(deal.phase, TablePhase::Discarding | TablePhase::Playing) {
                    return Err("play without trumps".into());
                }
            }
        }
        if deal.calls().filter(|c| c.call.declares()).count() > 1 || deal.rounds.len() > 2 {
            return Err("the bidding went on after someone declared".into());
        }

        // La vola and the end of the deal.
        let tricks = &deal.play.tricks;
        if let Some(v) = deal.la_vola {
            if tricks.len() < 2 || tricks[..2].iter().any(|t| t.winner != v) {
                return Err(format!("seat {v} announced la vola without taking the first two tricks"));
            }
            // A lost trick ends the deal: no trick after it, and no card either.
            let lost = tricks.iter().position(|t| t.winner != v);
            if lost.is_some_and(|i| i + 1 < tricks.len() || !deal.play.trick.is_empty()) {
                return Err("la vola was lost but the deal went on".into());
            }
        }
        if deal.phase == TablePhase::DealOver {
            let Some(result) = &deal.result else { return Err("a finished deal has no result".into()) };
            let complete = tricks.len() == HAND;
            let ok = match result.outcome {
                DealOutcome::AllPassed => deal.trumps.is_none() && deal.rounds.len() == 2 && tricks.is_empty(),
                DealOutcome::LaVolaLost => deal.la_vola.is_some() && tricks.last().map(|t| t.winner) != deal.la_vola,
                DealOutcome::LaVolaWon => {
                    complete && deal.la_vola.is_some() && deal.play.taken.iter().max() == Some(&(HAND as u32))
                }
                DealOutcome::Won | DealOutcome::NoWinner => {
                    let winners: Vec<Seat> = tricks.iter().map(|t| t.winner).collect();
                    complete
                        && deal.la_vola.is_none()
                        && deal_winner(&winners, players).map(|(w, _)| w) == result.winner
                }
            };
            if !ok {
                return Err(format!("the deal ended as {:?} after {} tricks", result.outcome, tricks.len()));
            }
        }
        Ok(())
    }
}
