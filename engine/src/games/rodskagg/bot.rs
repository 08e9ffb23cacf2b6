//! The basic and strong bots' view of Rödskägg: only the declarer's points move (and a joiner's
//! who takes nothing), so the defenders play together against the declarer, and everyone wants
//! tricks: the declarer to go down, the defenders to keep him up.

use super::{Bid, Command, Deal, Stage, State, HAND};
use crate::bots::{self, Aim};
use crate::cards::{decks, rank_value, Card, Suit};
use crate::random::Rng;
use crate::seat::Seat;

/// How many cards of `card`'s suit above it are still out against `seat`: neither played nor
/// in its hand.
fn unseen_above(deal: &Deal, seat: Seat, card: Card) -> usize {
    let hand = &deal.play.hands[seat];
    let out = |c: &Card| !hand.contains(c) && !deal.play.played().any(|(_, p)| p == *c);
    decks::standard52()
        .into_iter()
        .filter(|c| c.suit() == card.suit() && rank_value(*c) > rank_value(card))
        .filter(out)
        .count()
}

/// A card no card still out can beat: it takes the trick whenever its suit is led.
fn is_master(deal: &Deal, seat: Seat, card: Card) -> bool {
    unseen_above(deal, seat, card) == 0
}

/// Tricks a six-card hand takes without trumps when it leads: the top run of each suit
/// (ace, ace-king, ...) is sure, a guarded king or a queen with two guards sometimes takes one,
/// and a long suit headed by its top cards runs on once the others are out of it.
pub fn estimate(hand: &[Card], players: usize) -> f64 {
    let mut tricks = 0.0;
    for suit in Suit::ALL {
        let mut ranks: Vec<u8> = hand.iter().filter(|c| c.is_suit(suit)).map(|&c| rank_value(c)).collect();
        ranks.sort_unstable_by(|a, b| b.cmp(a));
        let n = ranks.len();
        let run = ranks.iter().enumerate().take_while(|&(i, &r)| r == 14 - i as u8).count();
        tricks += run as f64;
        if run == 0 {
            if ranks.first() == Some(&13) && n >= 2 {
                tricks += 0.5;
            } else if ranks.first() == Some(&12) && n >= 3 {
                tricks += 0.3;
            }
        }
        // The others hold about six cards of each suit between them at four players: a fourth
        // card of a suit led from the top often finds them out of it.
        if run > 0 && n >= 4 {
            tricks += (n - 3) as f64 * if players <= 4 { 0.6 } else { 0.4 };
        }
    }
    tricks.min(HAND as f64)
}

pub fn basic_move(state: &State, seat: Seat, rng: &mut Rng) -> Option<Command> {
    let deal = state.deals.acting(seat)?;
    let hand = &deal.play.hands[seat];
    match deal.stage {
        Stage::Bidding => {
            let highest = deal.highest();
            let lowest = super::Bid::ALL.into_iter().find(|&b| highest.is_none_or(|h| b > h));
            // Only the declarer goes down, and a failed bid still takes off its tricks, so the
            // seat bids well past the tricks it counts on (2.5 measured best against the
            // random bot, from 0.25 to 5). Nothing is gained by bidding past what takes it to 0.
            let worth = estimate(hand, state.players() - state.out_of_match.len());
            let need = state.deals.scores[seat].max(1) + 1;
            let sensible =
                |b: Bid| b.tricks() as f64 <= worth + 2.5 && i64::from(b.tricks()) <= need && b != Bid::Rodskagg;
            match lowest {
                Some(b) if sensible(b) => Some(Command::Bid { bid: b }),
                Some(b) if super::must_bid(state, deal, seat) => Some(Command::Bid { bid: b }),
                _ => Some(Command::Sneak),
            }
        }
        // A card that cannot be beaten takes one of the last two tricks; without one, joining
        // risks five up against a small chance of spoiling the declarer.
        Stage::GoingOn => {
            let master = hand.iter().any(|&c| is_master(deal, seat, c));
            let near = hand.iter().any(|&c| unseen_above(deal, seat, c) == 1 && rank_value(c) >= 12);
            Some(if master || (near && rng.below(3) == 0) { Command::Join } else { Command::Drop })
        }
        Stage::Playing => play_card(deal, seat).map(|card| Command::Play { card }),
        Stage::Over => None,
    }
}

fn play_card(deal: &Deal, seat: Seat) -> Option<Card> {
    let legal = deal.play.following(seat);
    let trick = &deal.play.trick;
    let declarer = deal.declarer?;
    if trick.plays.is_empty() {
        // Cash a card that cannot be beaten, the one from the longest suit first (its length
        // runs the others out), else lead low and keep the high cards.
        let length = |c: Card| legal.iter().filter(|d| d.suit() == c.suit()).count();
        return legal
            .iter()
            .copied()
            .filter(|&c| is_master(deal, seat, c))
            .max_by_key(|&c| (length(c), rank_value(c)))
            .or_else(|| legal.iter().copied().min_by_key(|&c| (rank_value(c), std::cmp::Reverse(length(c)))));
    }
    let needs_own = deal.joined(seat) && deal.play.taken[seat] == 0;
    let winning = crate::trick::no_trumps(trick).0;
    // A defender whose fellow defender holds the trick lets it stand, unless it still needs a
    // trick of its own.
    let partner = (seat != declarer && winning != declarer && !needs_own).then_some(winning);
    let last = trick.plays.len() + 1 == deal.play.players_in();
    bots::basic_card(&legal, trick, None, seat, partner, last, Aim::Take)
}

/// The deal as `seat` knows it: its own hand, the cards played and the bids; the other hands,
/// the undealt rest and the cards others threw dealt afresh from the cards it has not seen;
/// answers to "går ni med?" not yet shown taken back, for the playout to give again.
pub fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    let players = w.players();
    let mut undealt = w.undealt().to_vec();
    let mut thrown: Vec<Vec<Card>> = w.thrown.clone();
    let own_thrown = thrown[seat].clone();
    {
        let mut hidden: Vec<&mut Vec<Card>> = vec![&mut undealt];
        hidden.extend(thrown.iter_mut().enumerate().filter(|(s, _)| *s != seat).map(|(_, t)| t));
        bots::resample_play(&mut w.play, seat, &decks::standard52(), &own_thrown, &[], &mut hidden, rng);
    }
    w.thrown = thrown;
    let played: Vec<Card> = w.play.played().map(|(_, c)| c).collect();
    let mut deck: Vec<Card> = w.play.hands.iter().flatten().copied().collect();
    deck.extend(played);
    deck.extend(w.thrown.iter().flatten());
    deck.extend(undealt);
    debug_assert_eq!(deck.len(), 52);
    w.deck = deck;
    if !w.answers_shown {
        w.answers.retain(|&(s, _)| s == seat);
    }
    debug_assert!(players == w.play.hands.len());
    Some(world)
}

/// Fewer points are better: the others' mean less the seat's own.
pub fn standing(state: &State, seat: Seat) -> f64 {
    let scores = &state.deals.scores;
    -bots::lead_over_mean(scores.len(), |s| scores[s] as f64, seat)
}
