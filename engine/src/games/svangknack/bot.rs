//! The basic and strong bots' view of Svängknack: three tricks, each worth a third of the pot,
//! and a whole pot to pay for a seat that was in and took none. So a seat plays only on a hand
//! that is likely to take a trick, keeps trumps and aces when it buys, and takes every trick it
//! can, as cheaply as it can.

use super::{playable, trick_winner, Command, Deal, Phase, State};
use crate::bots;
use crate::cards::{rank_value, sort_hand, sorted, Card, Suit};
use crate::random::Rng;
use crate::seat::Seat;
use crate::trick;

/// How much a card is worth keeping and playing: any trump above any other card, then rank.
fn worth(card: Card, trumps: Option<Suit>) -> u8 {
    rank_value(card) + if trumps.is_some_and(|t| card.is_suit(t)) { 20 } else { 0 }
}

/// Cards a seat keeps when it buys: trumps, and aces, which take the first or the last trick.
fn keeps(card: Card, trumps: Option<Suit>) -> bool {
    trumps.is_some_and(|t| card.is_suit(t)) || rank_value(card) == 14
}

/// The tricks a three-card hand may hope for with `trumps`: the second trick goes to the highest
/// trump, the first and third to trumps and the top side cards.
pub fn expected_tricks(hand: &[Card], trumps: Suit) -> f64 {
    hand.iter()
        .map(|&c| match (c.is_suit(trumps), rank_value(c)) {
            (true, 14) => 1.0,
            (true, 13) => 0.8,
            (true, 12) => 0.6,
            (true, 11) => 0.5,
            (true, _) => 0.35,
            (false, 14) => 0.5,
            (false, 13) => 0.2,
            _ => 0.0,
        })
        .sum()
}

/// What a hand promises before trumps are known: the swinger chooses them from two turned
/// suits, so half its best suit and half an even chance of any.
fn swing_value(hand: &[Card]) -> f64 {
    let each: Vec<f64> = Suit::ALL.iter().map(|&s| expected_tricks(hand, s)).collect();
    let best = each.iter().copied().fold(0.0, f64::max);
    0.5 * best + 0.5 * each.iter().sum::<f64>() / 4.0
}

/// The suit of the turned cards this hand takes most tricks with.
fn best_trumps(deal: &Deal, hand: &[Card]) -> Option<Suit> {
    let score = |s: Suit| (expected_tricks(hand, s) * 100.0) as i64;
    deal.turned.iter().filter_map(|c| c.suit()).max_by_key(|&s| (score(s), s))
}

fn swings(hand: &[Card]) -> bool {
    swing_value(hand) >= 0.9
}

fn joins(hand: &[Card], trumps: Suit) -> bool {
    expected_tricks(hand, trumps) >= 0.9
}

/// Basic's buying: away with every card that is neither a trump nor an ace, as many as the
/// talon holds, the weakest first.
fn basic_buy(deal: &Deal, seat: Seat) -> Command {
    let mut hand = deal.play.hands[seat].clone();
    hand.sort_by_key(|&c| (worth(c, deal.trumps), c));
    let away = hand.iter().filter(|&&c| !keeps(c, deal.trumps)).count().min(deal.talon.len());
    if away == 0 {
        Command::Stand
    } else {
        Command::Buy { discard: sorted(hand[..away].to_vec()) }
    }
}

/// A card for the trick: lead the best card (a side ace in the first trick, which is likely to
/// stand, keeping the trumps for the second); follow with the cheapest card that wins, else the
/// cheapest card; blank the card least likely to take the last trick.
fn basic_card(deal: &Deal, seat: Seat) -> Option<Command> {
    let trumps = deal.trumps?;
    let play = &deal.play;
    let (face_up, face_down) = playable(&play.hands[seat], play.number(), &play.trick, trumps);
    if !face_down.is_empty() {
        let card = face_down.iter().copied().min_by_key(|&c| (rank_value(c), c))?;
        return Some(Command::Blank { card });
    }
    let value = |c: Card| (worth(c, Some(trumps)), c);
    let card = if play.trick.is_empty() {
        let side_ace = face_up.iter().copied().find(|&c| rank_value(c) == 14 && !c.is_suit(trumps));
        side_ace.filter(|_| play.number() == 1).or_else(|| face_up.iter().copied().max_by_key(|&c| value(c)))?
    } else {
        let winning = trick::taking(&play.trick, seat, &face_up, |t| trick_winner(t, trumps, |x| deal.is_blanked(x)).0);
        let cheapest_win = winning.into_iter().min_by_key(|&c| value(c));
        cheapest_win.or_else(|| face_up.iter().copied().min_by_key(|&c| value(c)))?
    };
    Some(Command::Play { card })
}

/// The rule-of-thumb move from what `seat` sees.
pub fn basic_move(state: &State, seat: Seat) -> Option<Command> {
    let deal = state.deals.acting(seat)?;
    let hand = &deal.play.hands[seat];
    Some(match deal.phase {
        Phase::Swinging if swings(hand) => Command::Swing,
        Phase::Swinging => Command::Pass,
        Phase::ChoosingTrumps => Command::ChooseTrumps { suit: best_trumps(deal, hand)? },
        Phase::Joining if deal.join_is_forced() || joins(hand, deal.trumps?) => Command::Join,
        Phase::Joining => Command::Pass,
        Phase::Buying => basic_buy(deal, seat),
        Phase::Playing => return basic_card(deal, seat),
        Phase::Over => return None,
    })
}

/// Suits each seat has shown it lacks: a card off the suit led in the first or third trick,
/// and trumps for a seat that blanked in the second. Cards blanked by others are never read.
pub(super) fn voids(deal: &Deal, trumps: Option<Suit>) -> Vec<[bool; 4]> {
    // The second trick is the one cards are blanked in, so following suit there shows nothing.
    const BLANKING: usize = 1;
    let tricks = &deal.play.tricks;
    let in_blanking = tricks.len() == BLANKING;
    let not_blanking = tricks.iter().enumerate().filter(|&(i, _)| i != BLANKING).map(|(_, t)| t);
    let none_yet = trick::Trick::default();
    let open = if in_blanking { &none_yet } else { &deal.play.trick };
    let mut void = bots::voids(deal.players(), not_blanking, open);
    let blanking: Vec<(Seat, Card)> = match tricks.get(BLANKING) {
        Some(t) => t.plays.iter().map(|p| (p.seat, p.card)).collect(),
        None if in_blanking => deal.play.trick.plays.clone(),
        None => Vec::new(),
    };
    if let Some(t) = trumps {
        blanking.iter().filter(|&&(_, c)| deal.is_blanked(c)).for_each(|&(s, _)| void[s][t as usize] = true);
    }
    void
}

/// Where the cards `seat` has not seen lie in a world: per other seat its hand, its discards,
/// its thrown-in hand and its blanked card, then the talon.
struct Places {
    others: Vec<Seat>,
}

impl Places {
    const PER_SEAT: usize = 4;

    fn sizes(&self, deal: &Deal) -> Vec<usize> {
        let blanks = |s: Seat| deal.blanked.iter().filter(|p| p.seat == s).count();
        let mut sizes: Vec<usize> = self
            .others
            .iter()
            .flat_map(|&s| [deal.play.hands[s].len(), deal.discards[s].len(), deal.folded[s].len(), blanks(s)])
            .collect();
        sizes.push(deal.talon.len());
        sizes
    }
}

/// Whether a seat's calls in a world are the ones basic would have made on the hand it had
/// then: a swing or a pass, a join or a throw-in (not a join it was forced to). The hand before
/// buying is what it kept (its best cards, as basic keeps) and what it put away.
fn calls_fit(deal: &Deal, world: &Deal, s: Seat) -> bool {
    let before: Vec<Card> = if !world.folded[s].is_empty() {
        world.folded[s].clone()
    } else {
        let mut now: Vec<Card> = world.play.hands[s].clone();
        now.extend(world.play.played().filter(|&(p, _)| p == s).map(|(_, c)| c));
        now.sort_by_key(|&c| std::cmp::Reverse((worth(c, world.trumps), c)));
        // As many drawn as put away.
        now.truncate(now.len().saturating_sub(world.discards[s].len()));
        now.extend(&world.discards[s]);
        now
    };
    let swing_fits = deal.swing_calls.iter().filter(|(c, _)| *c == s).all(|&(_, swung)| swings(&before) == swung);
    let forced_join =
        deal.join_order.last() == Some(&s) && deal.join_calls.iter().filter(|(c, _)| *c != s).all(|c| !c.1);
    let join_fits = forced_join
        || deal.trumps.is_none_or(|t| {
            deal.join_calls.iter().filter(|(c, _)| *c == s).all(|&(_, joined)| joins(&before, t) == joined)
        });
    let discards_fit = world.discards[s].iter().all(|&c| !keeps(c, world.trumps));
    swing_fits && join_fits && discards_fit
}

/// A world built from what `seat` sees: its own cards (held, put away, thrown in, blanked), the
/// turned cards and the cards played face up. Every other hand, discard, thrown-in hand and
/// blanked card and the talon are dealt afresh from the rest, keeping sizes and shown voids, and
/// redealt a few times over to find one where the others' calls are those basic would make.
pub fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let deal = state.deals.live()?;
    let trumps = deal.trumps;
    let seen = |c: &Card| {
        deal.play.hands[seat].contains(c)
            || deal.discards[seat].contains(c)
            || deal.folded[seat].contains(c)
            || deal.turned.contains(c)
            || deal.play.played().any(|(s, p)| p == *c && (s == seat || !deal.is_blanked(p)))
    };
    let pool: Vec<Card> = state.pack().into_iter().filter(|c| !seen(c)).collect();
    let others: Vec<Seat> = (0..deal.players()).filter(|&s| s != seat).collect();
    let places = Places { others };
    let sizes = places.sizes(deal);
    let void = voids(deal, trumps);
    let allowed = |pile: usize, c: Card| {
        let Some(&s) = places.others.get(pile / Places::PER_SEAT) else { return true };
        match pile % Places::PER_SEAT {
            0 => c.suit().is_none_or(|x| !void[s][x as usize]),
            3 => trumps.is_none_or(|t| !c.is_suit(t)),
            _ => true,
        }
    };
    let mut world = None;
    for _ in 0..24 {
        let piles = bots::redeal_where(&pool, &sizes, allowed, rng);
        let w = place(state, &places, piles)?;
        let fits = w.deals.live().is_some_and(|d| places.others.iter().all(|&s| calls_fit(deal, d, s)));
        world = Some(w);
        if fits {
            break;
        }
    }
    world
}

/// The world with the dealt piles in their places.
fn place(state: &State, places: &Places, piles: Vec<Vec<Card>>) -> Option<State> {
    let mut world = state.clone();
    let w = world.deals.live_mut()?;
    let mut piles = piles.into_iter();
    for &s in &places.others {
        let mut hand = piles.next()?;
        sort_hand(&mut hand);
        w.play.hands[s] = hand;
        w.discards[s] = piles.next()?;
        w.folded[s] = piles.next()?;
        for new in piles.next()? {
            reblank(w, s, new);
        }
    }
    w.talon = piles.next()?;
    Some(world)
}

/// Puts `card` where seat `s`'s blanked card lies: in the blanked list and the second trick.
fn reblank(deal: &mut Deal, s: Seat, card: Card) {
    let Some(b) = deal.blanked.iter_mut().find(|p| p.seat == s) else { return };
    let old = std::mem::replace(&mut b.card, card);
    for t in deal.play.tricks.iter_mut() {
        for p in t.plays.iter_mut().filter(|p| p.card == old) {
            p.card = card;
        }
        if t.card == old {
            t.card = card;
        }
    }
    for p in deal.play.trick.plays.iter_mut().filter(|p| p.1 == old) {
        p.1 = card;
    }
}

/// Chips less the others' mean. The pot left for later deals is everyone's to win alike
/// (each seat swings, stakes and plays as often), so sharing it equally adds the same to every
/// seat and drops out: what a seat paid into it counts against it in full.
pub fn standing(state: &State, seat: Seat) -> f64 {
    let balances = state.ledger.seats(state.players());
    bots::lead_over_mean(balances.len(), |s| balances[s] as f64, seat)
}
