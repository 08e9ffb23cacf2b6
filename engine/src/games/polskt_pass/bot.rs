//! The basic and strong bots' view of Polskt pass: whoever wins the tricks takes the pot,
//! declarer or not, and a declarer who does not win pays a bet as large. So everyone takes
//! tricks, and a seat declares only on a hand likely to win three, or two first.

use super::{composition, effective_suit, is_trump, playable, strength, trick_winner, Call, Command, Deal, State};
use super::{TablePhase, HAND};
use crate::bots;
use crate::cards::{sort_hand, Card, Rank, Suit};
use crate::random::Rng;
use crate::seat::Seat;

/// Estimated tricks at or above which a hand declares.
const DECLARE: f64 = 2.4;

/// How much a card is worth keeping and playing: any trump above any other card, then rank.
fn value(card: Card, trumps: Suit) -> (bool, u8) {
    (is_trump(card, trumps), strength(card))
}

/// The tricks a hand may hope for with `trumps`: the jacks above all, the trump ace and king,
/// side aces, and a void to ruff with while trumps last. Five tricks round four or five
/// players, so only the top cards count for much.
pub fn expected_tricks(hand: &[Card], trumps: Suit) -> f64 {
    let trump_count = hand.iter().filter(|&&c| is_trump(c, trumps)).count();
    let mut tricks: f64 = hand
        .iter()
        .map(|&c| match (is_trump(c, trumps), strength(c)) {
            (true, 20) => 1.0,
            (true, 19) => 0.95,
            (true, 18) => 0.85,
            (true, 17) => 0.8,
            (true, 14) => 0.7,
            (true, 13) => 0.55,
            (true, 12) => 0.4,
            (true, _) => 0.3,
            (false, 14) => 0.65,
            (false, 13) => 0.25,
            _ => 0.0,
        })
        .sum();
    let voids =
        Suit::ALL.iter().filter(|&&s| s != trumps && !hand.iter().any(|&c| effective_suit(c, trumps) == s)).count();
    tricks += voids.min(trump_count.saturating_sub(1)) as f64 * 0.2;
    tricks
}

/// The best five of six cards for `trumps`: the weakest put away.
fn best_five(hand: &[Card], trumps: Suit) -> Vec<Card> {
    let mut cards = hand.to_vec();
    if let Some(weakest) = (0..cards.len()).filter(|_| cards.len() > HAND).min_by_key(|&i| value(cards[i], trumps)) {
        cards.remove(weakest);
    }
    cards
}

fn declares(hand: &[Card], trumps: Suit) -> bool {
    expected_tricks(&best_five(hand, trumps), trumps) >= DECLARE
}

/// The suit basic names in round two, if any: the best of those it may name.
fn named_suit(deal: &Deal, seat: Seat, hand: &[Card]) -> Option<Suit> {
    let may = |s: &Suit| seat == deal.forehand() || Some(*s) != deal.turned_suit();
    let score = |s: Suit| (expected_tricks(hand, s) * 100.0) as i64;
    Suit::ALL.into_iter().filter(may).max_by_key(|&s| (score(s), s)).filter(|&s| declares(hand, s))
}

/// A card for the trick: lead a side ace, else the best card; follow with the cheapest card
/// that wins, else the cheapest card.
fn basic_card(deal: &Deal, seat: Seat) -> Option<Command> {
    let trumps = deal.trumps?;
    let trick = &deal.play.trick;
    let legal = playable(&deal.play.hands[seat], trick, trumps);
    let key = |c: &Card| (value(*c, trumps), *c);
    let card = if trick.is_empty() {
        let side_ace = legal.iter().copied().find(|&c| !is_trump(c, trumps) && c.rank() == Some(Rank::ACE));
        side_ace.or_else(|| legal.iter().copied().max_by_key(key))?
    } else {
        let winning = crate::trick::taking(trick, seat, &legal, |t| trick_winner(t, trumps).0);
        winning.into_iter().min_by_key(key).or_else(|| legal.iter().copied().min_by_key(key))?
    };
    Some(Command::Play { card })
}

/// The rule-of-thumb move from what `seat` sees.
pub fn basic_move(state: &State, seat: Seat) -> Option<Command> {
    let deal = state.deals.acting(seat)?;
    let hand = &deal.play.hands[seat];
    Some(match deal.phase {
        // Nothing is known before the cut: the middle is as good as anywhere.
        TablePhase::Cutting => Command::Cut { at: deal.deck.len() / 2 },
        TablePhase::TurnedCard => {
            let ace = deal.turned_card?;
            let with_ace: Vec<Card> = hand.iter().copied().chain([ace]).collect();
            if declares(&with_ace, ace.suit()?) {
                Command::TakeAce
            } else {
                Command::LeaveAce
            }
        }
        TablePhase::Bidding => match deal.bidding_turn()? {
            (1, _) if declares(hand, deal.turned_suit()?) => Command::Accept,
            (1, _) => Command::Pass,
            _ => named_suit(deal, seat, hand).map_or(Command::Wieder, |suit| Command::NameSuit { suit }),
        },
        TablePhase::Discarding => {
            let trumps = deal.trumps?;
            let card = hand.iter().copied().min_by_key(|&c| (value(c, trumps), c))?;
            Command::Discard { card }
        }
        TablePhase::Playing => return basic_card(deal, seat),
        _ => return None,
    })
}

/// Whether the calls a seat made in a world are those basic would have made on the hand it
/// held in the bidding (its hand now and the cards it has played): the dealer leaving a turned
/// ace, a pass or acceptance in round one, "wieder" or a suit in round two.
fn calls_fit(deal: &Deal, world: &Deal, s: Seat) -> bool {
    let mut hand = world.play.hands[s].clone();
    hand.extend(world.play.played().filter(|&(p, _)| p == s).map(|(_, c)| c));
    hand.extend(world.discards.iter().filter(|(p, _)| *p == s).map(|(_, c)| *c));
    let left_ace = s == deal.dealer && !deal.turned_taken && !deal.rounds.is_empty();
    let ace_fits = match deal.turned_card {
        Some(ace) if left_ace && ace.rank() == Some(Rank::ACE) => {
            let with_ace: Vec<Card> = hand.iter().copied().chain([ace]).collect();
            !declares(&with_ace, ace.suit().unwrap_or(Suit::Clubs))
        }
        _ => true,
    };
    let calls = deal.calls().filter(|c| c.seat == s);
    ace_fits
        && calls.into_iter().all(|c| match (c.call, c.suit) {
            (Call::Accept | Call::NameSuit, Some(suit)) => declares(&hand, suit),
            (Call::Pass, _) => deal.turned_suit().is_none_or(|t| !declares(&hand, t)),
            (Call::Wieder, _) => named_suit(deal, s, &hand).is_none(),
            _ => true,
        })
}

/// A world built from what `seat` sees: its hand and discard, the card shown at the cut, the
/// turned card and the cards played. The others' hands and discards and the undealt rest are
/// dealt afresh from the rest, keeping sizes, shown voids and the cards everyone saw taken (the
/// cutter's jack, the dealer's turned card), and redealt a few times over to find one where the
/// others' calls are those basic would make. Before the cut nothing is known: a fresh pack.
pub fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let players = state.players();
    let Some(cut) = deal.cut else {
        let mut world = state.clone();
        let w = world.deals.live_mut()?;
        let mut deck = composition(players);
        rng.shuffle(&mut deck);
        w.deck = deck.clone();
        w.pack = deck;
        return Some(world);
    };
    let trumps = deal.trumps;
    let played: Vec<Card> = deal.play.played().map(|(_, c)| c).collect();
    let public = deal.public_cards();
    let seen = |c: &Card| {
        deal.play.hands[seat].contains(c)
            || deal.discards.contains(&(seat, *c))
            || public.contains(c)
            || played.contains(c)
    };
    let pool: Vec<Card> = composition(players).into_iter().filter(|c| !seen(c)).collect();
    // Jacks count as trumps when following.
    let void = trumps.map_or(vec![[false; 4]; players], |t| {
        bots::voids_by(deal.play.table.seats, &deal.play.tricks, &deal.play.trick, |c| Some(effective_suit(c, t)))
    });
    let shows_void = |s: Seat, c: Card| trumps.is_some_and(|t| void[s][effective_suit(c, t) as usize]);
    // Cards everyone saw a seat take, while unplayed: in the hand, or put away if the hand
    // cannot hold them.
    let mut taken: Vec<(Seat, Card)> = Vec::new();
    if cut.cutter_took {
        taken.push((deal.cutter(), cut.shown_card));
    }
    if let (true, Some(c)) = (deal.turned_taken, deal.turned_card) {
        taken.push((deal.dealer, c));
    }
    taken.retain(|(s, c)| *s != seat && !played.contains(c));
    let put_away = |s: Seat, c: Card| shows_void(s, c) && deal.discards.iter().any(|(d, _)| *d == s);
    let others: Vec<Seat> = (0..players).filter(|&s| s != seat).collect();
    let held = |s: Seat, away: bool| taken.iter().filter(|&&(t, c)| t == s && put_away(s, c) == away).count();
    let discards = |s: Seat| deal.discards.iter().filter(|(d, _)| *d == s).count();
    let mut sizes: Vec<usize> =
        others.iter().flat_map(|&s| [deal.play.hands[s].len() - held(s, false), discards(s) - held(s, true)]).collect();
    // The card shown at the cut lies at the bottom of the undealt rest unless it was taken.
    let shown_in_pack = !cut.cutter_took;
    sizes.push(deal.pack.len() - usize::from(shown_in_pack));
    // Piles by seat: its hand, then its discards; the undealt rest last.
    let allowed = |pile: usize, c: Card| match (others.get(pile / 2), pile % 2) {
        (Some(&s), 0) => !shows_void(s, c),
        _ => true,
    };
    let mut world = None;
    for _ in 0..24 {
        let mut piles = bots::redeal_where(&pool, &sizes, allowed, rng).into_iter();
        let mut w = state.clone();
        let d = w.deals.live_mut()?;
        for &s in &others {
            let mut hand = piles.next()?;
            let mut away = piles.next()?;
            for &(t, c) in taken.iter().filter(|(t, _)| *t == s) {
                if put_away(t, c) {
                    away.push(c);
                } else {
                    hand.push(c);
                }
            }
            sort_hand(&mut hand);
            d.play.hands[s] = hand;
            for discard in d.discards.iter_mut().filter(|(d_seat, _)| *d_seat == s) {
                discard.1 = away.pop().unwrap_or(discard.1);
            }
        }
        let mut rest = piles.next()?;
        rest.extend(shown_in_pack.then_some(cut.shown_card));
        d.pack = rest;
        let fits = w.deals.live().is_some_and(|d| others.iter().all(|&s| calls_fit(deal, d, s)));
        world = Some(w);
        if fits {
            break;
        }
    }
    world
}

/// Money less the others' mean. What the pot and the bets hold goes to later deals' winners,
/// each seat's alike, and is shared equally at the end, so it adds the same to every seat and
/// drops out: a bet a failed declarer paid counts against it in full.
pub fn standing(state: &State, seat: Seat) -> f64 {
    let balances = state.ledger.seats(state.players());
    bots::lead_over_mean(balances.len(), |s| balances[s] as f64, seat)
}
