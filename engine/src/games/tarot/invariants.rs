//! The books balance: what the generic tests check after every event.

use super::*;

impl Tarot {
    pub(super) fn check_books(&self, state: &State) -> Result<(), String> {
        let players = state.players();
        state.deals.check_books()?;
        if state.deals.scores.len() != players {
            return Err("scores do not have one entry per seat".into());
        }
        if state.deals.scores.iter().sum::<i64>() != 0 {
            return Err(format!("scores {:?} do not sum to zero", state.deals.scores));
        }
        if state.deals_played > state.deals.number {
            return Err(format!("{} deals scored of {} started", state.deals_played, state.deals.number));
        }
        if let Some(n) = state.deals_total() {
            if state.deals_played > n {
                return Err(format!("deal {} of {n} was played", state.deals_played));
            }
        }
        if let Some(winners) = state.winners() {
            if !state.match_over(state.deals_played, &state.deals.scores) {
                return Err("the match ended before its end was due".into());
            }
            if *winners != match_winners(&state.deals.scores) {
                return Err(format!("winners {winners:?} are not the top scorers of {:?}", state.deals.scores));
            }
        }
        let Some(deal) = &state.deals.deal else { return Ok(()) };
        if deal.number != state.deals.number || deal.number == 0 {
            return Err(format!("the deal in play is {} but {} were started", deal.number, state.deals.number));
        }
        let pack = decks::tarot78();
        deals::check_deck(&deal.deck, &pack)?;
        let l = layout(players);
        if deal.dog.len() != l.dog || deal.dealt.iter().any(|h| h.len() != l.hand) {
            return Err("the deal does not have the layout of its player count".into());
        }
        if deal.discards.len() > l.dog || (!deal.dog_taken && !deal.discards.is_empty()) {
            return Err("more discards than the dog had".into());
        }
        // Every card is in a hand, in a trick, in the dog or among the discards, and the
        // taker's hand holds the dog's cards less those discarded.
        let laid_aside: Vec<Card> =
            deal.dog.iter().filter(|_| !deal.dog_taken).chain(&deal.discards).copied().collect();
        let extra = |s: Seat| if deal.dog_taken && Some(s) == deal.taker { l.dog - deal.discards.len() } else { 0 };
        let tricks = &deal.play.tricks;
        let before_latest = &tricks[..tricks.len().saturating_sub(1)];
        deal.play.check(&pack, &laid_aside, |s| l.hand + extra(s), &|t| deal.trick_won(t, before_latest))?;
        if deal.discards.iter().any(|&c| is_king(c) || is_bout(c)) {
            return Err("a king or a bout was discarded".into());
        }
        match (deal.taker, deal.contract) {
            (Some(t), Some(c)) => {
                if deal.auction.bid_of(t) != Some(&Some(c)) || deal.highest_bid() != Some(c) {
                    return Err(format!("seat {t} is the taker but did not make the highest bid"));
                }
            }
            (None, None) => {
                if !matches!(deal.phase, Phase::Bidding | Phase::DealOver) {
                    return Err("play went on without a contract".into());
                }
            }
            _ => return Err("a taker without a contract".into()),
        }
        if players == 5 {
            if let (Some(c), Some(t)) = (deal.called, deal.taker) {
                let holder = (0..players).find(|&s| deal.dealt[s].contains(&c)).filter(|&s| s != t);
                if holder != deal.partner {
                    return Err(format!(
                        "the partner is {:?} but the called card was dealt to {holder:?}",
                        deal.partner
                    ));
                }
                if !is_court(c) {
                    return Err("the called card is not a court card".into());
                }
            }
        } else if deal.called.is_some() || deal.partner.is_some() {
            return Err("a card was called in a game of fewer than five".into());
        }
        let called_played = deal.called.is_some_and(|c| deal.play.played().any(|(_, p)| p == c));
        if deal.partner_revealed != called_played {
            return Err(format!(
                "the partner is {}revealed but the called card is {}played",
                if deal.partner_revealed { "" } else { "not " },
                if called_played { "" } else { "not " }
            ));
        }
        if players == 5
            && deal.called.is_none()
            && matches!(deal.phase, Phase::Discarding | Phase::Slam | Phase::Playing)
        {
            return Err("play went on in a five-player game without a called card".into());
        }
        for p in deal.poignees.iter().flatten() {
            if !Poignee::ALL.iter().any(|l| l.size(players) == p.trumps.len() && *l == p.level) {
                return Err(format!("seat {} showed {} trumps as a {:?}", p.seat, p.trumps.len(), p.level));
            }
        }
        if let Some((count, scoring)) = &deal.result {
            if count.taker_half_points + count.defence_half_points != TOTAL_HALF_POINTS {
                return Err(format!(
                    "the sides counted {} and {} half points, not {TOTAL_HALF_POINTS}",
                    count.taker_half_points, count.defence_half_points
                ));
            }
            if scoring.points.iter().sum::<i64>() != 0 {
                return Err(format!("the deal's points {:?} do not sum to zero", scoring.points));
            }
            for s in 0..players {
                let sum: i64 = scoring.terms.iter().filter(|t| t.to == s).map(|t| t.points).sum();
                if sum != scoring.points[s] {
                    return Err(format!("seat {s}'s terms sum to {sum}, not {}", scoring.points[s]));
                }
            }
        }
        let bids_in = deal.auction.bids.len();
        match deal.phase {
            // All bids in is a passing moment: the contract (or the redeal) follows in the same batch.
            Phase::Bidding if bids_in > players => Err("more bids than players".into()),
            Phase::Bidding if deal.play.played().next().is_some() => Err("cards were played during the bidding".into()),
            Phase::Playing if bids_in != players => Err("play started before every bid was in".into()),
            Phase::Playing if deal.dog_taken && deal.discards.len() != l.dog => {
                Err("play started before the taker discarded".into())
            }
            Phase::DealOver if deal.cancelled.is_none() && !deal.play.is_over() => {
                Err("the deal ended before every trick was played".into())
            }
            _ => Ok(()),
        }
    }
}
