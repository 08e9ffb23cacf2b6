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
        if state.deals_started > state.deals_total() {
            return Err(format!("deal {} of {}", state.deals_started, state.deals_total()));
        }
        if let Some(winners) = &state.winners {
            if state.deals_started != state.deals_total() {
                return Err("the match ended before its last deal".into());
            }
            if books.pot != 0 || !books.bets.is_empty() {
                return Err("the match ended with chips left in the pot or the bets".into());
            }
            if *winners != match_winners(&books.balances) {
                return Err(format!("winners {winners:?} do not have the highest balance of {:?}", books.balances));
            }
        }
        let Some(deal) = &state.deal else { return Ok(()) };
        if deal.number != state.deals_started || deal.number == 0 {
            return Err(format!("the deal in play is {} but {} were started", deal.number, state.deals_started));
        }
        let dealer = (deal.number as usize - 1) % players;
        if deal.dealer != dealer
            || deal.cutter != state.table.after(dealer, players - 1)
            || deal.forehand != state.table.forehand(dealer)
        {
            return Err(format!(
                "deal {} has dealer {}, cutter {}, forehand {}",
                deal.number, deal.dealer, deal.cutter, deal.forehand
            ));
        }
        if let Some(b) = deal.bet_in_play {
            if deal.phase != Phase::Over && state.ledger.balance(Account::Bet(b)) <= 0 {
                return Err(format!("the deal is played for bet {b}, which holds nothing"));
            }
        }

        // Every card is in exactly one place.
        let mut all: Vec<Card> = deal
            .hands
            .iter()
            .flatten()
            .copied()
            .chain(deal.discards.iter().map(|&(_, c)| c))
            .chain(deal.tricks.iter().flat_map(|t| t.plays.iter().map(|p| p.card)))
            .chain(deal.trick.cards())
            .chain(deal.turned_card.filter(|_| !deal.turned_taken))
            .chain(deal.pack.iter().copied())
            .collect();
        let pack = composition(players);
        if !is_permutation(&all, &pack) {
            all.sort();
            return Err(format!("the cards of the deal are not the pack, each once: {}", crate::cards::codes(&all)));
        }
        if !is_permutation(&deal.deck, &pack) {
            return Err("the recorded deck is not the pack".into());
        }

        let Some(cut) = deal.cut else {
            if deal.phase != Phase::Cutting || deal.pack.len() != pack.len() {
                return Err("cards moved before the cut".into());
            }
            return Ok(());
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
            let taken = cut.cutter_took as usize;
            if deal.pack.len() + taken != pack.len() || deal.hands.iter().map(Vec::len).sum::<usize>() != taken {
                return Err("cards moved between the cut and the deal".into());
            }
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
            && deal.phase != Phase::TurnedCard
            && !deal.turned_taken
        {
            return Err("the dealer left a turned card that must be taken".into());
        }

        // Hand sizes: five each, one more for a taken card until it is put away, one fewer for
        // each card played.
        let played = |s: Seat| {
            deal.tricks.iter().filter(|t| t.plays.iter().any(|p| p.seat == s)).count()
                + deal.trick.plays.iter().filter(|&&(p, _)| p == s).count()
        };
        for s in 0..players {
            let extra =
                (s == deal.dealer && deal.turned_taken) as usize + (s == deal.cutter && cut.cutter_took) as usize;
            let discarded = deal.discards.iter().filter(|&&(d, _)| d == s).count();
            if discarded > extra {
                return Err(format!("seat {s} put away {discarded} cards"));
            }
            let expected = HAND + extra - discarded - played(s);
            if deal.hands[s].len() != expected {
                return Err(format!("seat {s} holds {} cards, expected {expected}", deal.hands[s].len()));
            }
            let won = deal.tricks.iter().filter(|t| t.winner == s).count() as u32;
            if won != deal.tricks_taken[s] {
                return Err(format!("seat {s} is credited {} tricks but won {won}", deal.tricks_taken[s]));
            }
        }
        if matches!(deal.phase, Phase::Playing) && deal.hands.iter().any(|h| h.len() > HAND) {
            return Err("play started before every extra card was put away".into());
        }

        // Declarers and trumps.
        match deal.trumps_from {
            Some(TrumpsFrom::DealerTook) => {
                let mut expected = vec![deal.dealer];
                if cut.cutter_took {
                    expected.push(deal.cutter);
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
                if matches!(deal.phase, Phase::Discarding | Phase::Playing) {
                    return Err("play without trumps".into());
                }
            }
        }
        if deal.calls().filter(|c| c.call.declares()).count() > 1 || deal.rounds.len() > 2 {
            return Err("the bidding went on after someone declared".into());
        }

        // Tricks.
        if deal.tricks.len() > HAND || deal.trick.plays.len() > players {
            return Err("more tricks or plays than the deal has".into());
        }
        if let Some(trumps) = deal.trumps {
            trick::check_latest(&deal.tricks, &deal.trick, &state.table, |t| trick_winner(t, trumps))?;
        }
        if let Some(v) = deal.la_vola {
            if deal.tricks.len() < 2 || deal.tricks[..2].iter().any(|t| t.winner != v) {
                return Err(format!("seat {v} announced la vola without taking the first two tricks"));
            }
            // A lost trick ends the deal: no trick after it, and no card either.
            let lost = deal.tricks.iter().position(|t| t.winner != v);
            if lost.is_some_and(|i| i + 1 < deal.tricks.len() || !deal.trick.is_empty()) {
                return Err("la vola was lost but the deal went on".into());
            }
        }
        if deal.phase == Phase::Over {
            let Some(result) = &deal.result else { return Err("a finished deal has no result".into()) };
            let complete = deal.tricks.len() == HAND;
            let ok = match result.outcome {
                DealOutcome::AllPassed => deal.trumps.is_none() && deal.rounds.len() == 2 && deal.tricks.is_empty(),
                DealOutcome::LaVolaLost => {
                    deal.la_vola.is_some() && deal.tricks.last().map(|t| t.winner) != deal.la_vola
                }
                DealOutcome::LaVolaWon => {
                    complete && deal.la_vola.is_some() && deal.tricks_taken.iter().max() == Some(&(HAND as u32))
                }
                DealOutcome::Won | DealOutcome::NoWinner => {
                    let winners: Vec<Seat> = deal.tricks.iter().map(|t| t.winner).collect();
                    complete
                        && deal.la_vola.is_none()
                        && deal_winner(&winners, players).map(|(w, _)| w) == result.winner
                }
            };
            if !ok {
                return Err(format!("the deal ended as {:?} after {} tricks", result.outcome, deal.tricks.len()));
            }
        }
        Ok(())
    }
}
