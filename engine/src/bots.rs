//! Bots at three levels. `random` is each game's own [`Rules::bot_move`] (kept for tests and for
//! the recorded corpus); `basic` is a cheap heuristic ([`Rules::basic_move`]); `strong` samples
//! deals of the cards the seat cannot see ([`Rules::determinize`], perfect-information Monte
//! Carlo), plays each candidate move out to the end of the deal with the basic policy, and keeps
//! the move with the best average [`Rules::standing`]. A game without a determinizer falls back
//! from strong to basic, and one without a heuristic from basic to random.
//!
//! Every choice is a pure function of the state and a seed (the service records the seed with
//! the move), and a strong bot reads the state only through `determinize`, which builds a world
//! from what the seat may see: the test `strong_bot_cannot_read_hidden_cards` holds it to that.

use serde::{Deserialize, Serialize};

use crate::cards::{rank_value, Card, Suit};
use crate::game::{Rules, Status};
use crate::random::Rng;
use crate::seat::Seat;
use crate::trick::{Trick, TrickPlay, TrickRecord};

/// How well a bot plays.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = BotLevel))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// A legal move picked at random (by the game's own test bot).
    Random,
    /// A quick rule of thumb: bids from hand strength, plays to make (or duck) its bid.
    Basic,
    /// Samples the unseen cards and plays each move out; falls back to basic in a game without
    /// such a search.
    #[default]
    Strong,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Random, Level::Basic, Level::Strong];

    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Basic => "basic",
            Level::Strong => "strong",
        }
    }
}

/// How much searching a strong decision does.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Playouts over all candidate moves together.
    pub playouts: usize,
    /// Fewest and most sampled deals per decision.
    pub min_samples: usize,
    pub max_samples: usize,
}

impl Budget {
    /// Sized so that a decision stays inside 20 ms of CPU (see `benches/bots.rs`); a game with
    /// long playouts takes less ([`Rules::strong_budget`]).
    pub const STRONG: Budget = Budget { playouts: 480, min_samples: 6, max_samples: 48 };
}

/// The bot's move at `level` for `seat`, from `seed` alone.
pub fn choose<R: Rules>(rules: &R, state: &R::State, seat: Seat, level: Level, seed: u64) -> Option<R::Command> {
    match level {
        Level::Random => rules.bot_move(state, seat, seed),
        Level::Basic => rules.basic_move(state, seat, &mut Rng::new(seed)),
        Level::Strong => strong(rules, state, seat, seed, rules.strong_budget()),
    }
}

/// Which levels a game plays of its own; the others fall back a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Levels {
    /// The game has its own [`Rules::basic_move`].
    pub basic: bool,
    /// The game has its own [`Rules::determinize`] (and so a strong search).
    pub strong: bool,
}

impl Levels {
    pub const RANDOM_ONLY: Levels = Levels { basic: false, strong: false };
    pub const ALL: Levels = Levels { basic: true, strong: true };

    /// The level a game actually plays at when `level` is asked for.
    pub fn effective(self, level: Level) -> Level {
        match level {
            Level::Strong if self.strong => Level::Strong,
            Level::Strong | Level::Basic if self.basic => Level::Basic,
            _ => Level::Random,
        }
    }
}

/// Determinized Monte Carlo search over `seat`'s legal moves.
pub fn strong<R: Rules>(rules: &R, state: &R::State, seat: Seat, seed: u64, budget: Budget) -> Option<R::Command> {
    let mut rng = Rng::new(seed);
    let mut moves = rules.bot_candidates(state, seat);
    if moves.len() <= 1 {
        return moves.pop();
    }
    let Some(first) = rules.determinize(state, seat, &mut rng) else {
        return rules.basic_move(state, seat, &mut rng);
    };
    let samples = (budget.playouts / moves.len()).clamp(budget.min_samples, budget.max_samples);
    let mut totals = vec![0f64; moves.len()];
    let anchor = rules.strong_anchor(state, seat).and_then(|a| moves.iter().position(|m| *m == a));
    // Per move, the sum of squares of its edge over the anchor in each world, for the anchor's test.
    let mut edges = vec![0f64; moves.len()];
    let mut worlds = 0usize;
    let mut world = Some(first);
    for _ in 0..samples {
        let Some(w) = world.take().or_else(|| rules.determinize(state, seat, &mut rng)) else { break };
        let deal = rules.deal_number(&w);
        // The same playout seed for every move: the moves are compared on the same luck.
        let playout_seed = rng.next_u64();
        let mut values = vec![0f64; moves.len()];
        for (k, m) in moves.iter().enumerate() {
            let mut after = w.clone();
            if !step(rules, &mut after, seat, m) {
                totals[k] = f64::MIN / 2.0;
                values[k] = f64::MIN / 2.0;
                continue;
            }
            playout(rules, &mut after, deal, &mut Rng::new(playout_seed));
            values[k] = rules.standing(&after, seat);
            totals[k] += values[k];
        }
        if let Some(a) = anchor {
            worlds += 1;
            for k in 0..moves.len() {
                edges[k] += (values[k] - values[a]).powi(2);
            }
        }
    }
    // The first of the best, so ties go the same way on every platform.
    let best = (0..moves.len()).fold(0, |b, k| if totals[k] > totals[b] { k } else { b });
    if let Some(a) = anchor.filter(|_| worlds > 1) {
        // The best move's mean edge over the anchor must pass two standard errors of it.
        let n = worlds as f64;
        let mean = (totals[best] - totals[a]) / n;
        let variance = (edges[best] / n - mean * mean).max(0.0) * n / (n - 1.0);
        if mean <= 2.0 * (variance / n).sqrt() {
            return Some(moves.swap_remove(a));
        }
    }
    Some(moves.swap_remove(best))
}

fn step<R: Rules>(rules: &R, state: &mut R::State, seat: Seat, command: &R::Command) -> bool {
    match rules.decide(state, seat, command) {
        Ok(events) => {
            events.iter().for_each(|e| rules.evolve(state, e));
            true
        }
        Err(_) => false,
    }
}

/// Plays the deal `deal` out with the basic policy for every seat.
pub fn playout<R: Rules>(rules: &R, state: &mut R::State, deal: u32, rng: &mut Rng) {
    for _ in 0..10_000 {
        if rules.deal_number(state) != deal {
            return;
        }
        match rules.status(state) {
            Status::ToAct { .. } => {}
            // The deal goes on from a talon shuffled anew: any order will do in a world.
            Status::NeedsShuffle { mut cards } => {
                rng.shuffle(&mut cards);
                match rules.reshuffle(state, cards) {
                    Ok(events) => events.iter().for_each(|e| rules.evolve(state, e)),
                    Err(_) => return,
                }
                continue;
            }
            _ => return,
        }
        let Some(&seat) = crate::game::movers_of(rules, state).first() else { return };
        let Some(command) = rules.basic_move(state, seat, rng) else { return };
        if !step(rules, state, seat, &command) {
            return;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Shared helpers for trick games

/// Suits each seat has shown it lacks, by failing to follow the suit led, in the tricks won and
/// the trick on the table (public knowledge).
pub fn voids<'a>(seats: usize, tricks: impl IntoIterator<Item = &'a TrickRecord>, current: &Trick) -> Vec<[bool; 4]> {
    voids_by(seats, tricks, current, Card::suit)
}

/// [`voids`] in a game where a card's suit for following is not the one it shows (Polskt pass's
/// jacks are trumps): `suit_of` says which suit a card counts as.
pub fn voids_by<'a>(
    seats: usize,
    tricks: impl IntoIterator<Item = &'a TrickRecord>,
    current: &Trick,
    suit_of: impl Fn(Card) -> Option<Suit>,
) -> Vec<[bool; 4]> {
    let mut void = vec![[false; 4]; seats];
    let mut note = |plays: &mut dyn Iterator<Item = (Seat, Card)>| {
        let mut led = None;
        for (s, c) in plays {
            match led {
                None => led = suit_of(c),
                Some(l) if suit_of(c) != Some(l) && s < seats => void[s][l as usize] = true,
                _ => {}
            }
        }
    };
    for t in tricks {
        note(&mut t.plays.iter().map(|p| (p.seat, p.card)));
    }
    note(&mut current.plays.iter().copied());
    void
}

/// Deals `pool` (the cards the seat cannot see) afresh into piles of the given sizes, each pile
/// taking no card of a suit it is marked void in, each in a random order. The pool is sorted
/// first, so the result depends only on which cards are unseen and on `rng`, never on where they
/// really are. When the voids cannot be met in a few tries they are relaxed rather than failing.
pub fn redeal(pool: &[Card], piles: &[(usize, [bool; 4])], rng: &mut Rng) -> Vec<Vec<Card>> {
    let sizes: Vec<usize> = piles.iter().map(|p| p.0).collect();
    redeal_where(pool, &sizes, |pile, c| c.suit().is_none_or(|s| !piles[pile].1[s as usize]), rng)
}

/// [`redeal`] for games where what a seat has shown it lacks is not a suit (a card it could
/// not beat with, say): pile `p` takes card `c` only if `allowed(p, c)`, relaxed as a last
/// resort like the voids.
pub fn redeal_where(
    pool: &[Card],
    sizes: &[usize],
    allowed: impl Fn(usize, Card) -> bool,
    rng: &mut Rng,
) -> Vec<Vec<Card>> {
    let mut pool = pool.to_vec();
    pool.sort();
    assert_eq!(pool.len(), sizes.iter().sum::<usize>(), "pool and pile sizes differ");
    for attempt in 0..24 {
        let mut cards = pool.clone();
        rng.shuffle(&mut cards);
        // The most constrained cards first: those fewest piles may take.
        cards.sort_by_key(|&c| (0..sizes.len()).filter(|&p| allowed(p, c)).count());
        let mut out: Vec<Vec<Card>> = sizes.iter().map(|&n| Vec::with_capacity(n)).collect();
        let relax = attempt == 23;
        let mut ok = true;
        for c in cards {
            let open: Vec<usize> =
                (0..sizes.len()).filter(|&p| out[p].len() < sizes[p] && (relax || allowed(p, c))).collect();
            if open.is_empty() {
                ok = false;
                break;
            }
            // Weighted by room left, so that every consistent deal is about as likely.
            let room: usize = open.iter().map(|&p| sizes[p] - out[p].len()).sum();
            let mut pick = rng.below(room);
            let p = *open
                .iter()
                .find(|&&p| {
                    let r = sizes[p] - out[p].len();
                    if pick < r {
                        true
                    } else {
                        pick -= r;
                        false
                    }
                })
                .expect("room adds up");
            out[p].push(c);
        }
        if ok {
            // The piles were filled most constrained cards first; a pile drawn from in order (a
            // stock, a talon) must not have them on top.
            out.iter_mut().for_each(|pile| rng.shuffle(pile));
            return out;
        }
    }
    unreachable!("a relaxed deal always succeeds")
}

/// The determinizer of a trick game on [`TrickPlay`]: the hands of the seats other than `seat`
/// and the game's `hidden` piles (a widow, a stock) dealt afresh from the cards of `pack` that
/// `seat` has not seen, keeping every hand's and pile's size and the suits a seat has shown it
/// lacks. `public` are cards outside the play that the seat has seen (a turned card); `known`
/// are cards the seat knows another seat holds (cards it passed), kept there while unplayed.
pub fn resample_play(
    play: &mut TrickPlay,
    seat: Seat,
    pack: &[Card],
    public: &[Card],
    known: &[(Seat, Card)],
    hidden: &mut [&mut Vec<Card>],
    rng: &mut Rng,
) {
    let played: Vec<Card> = play.played().map(|(_, c)| c).collect();
    let known: Vec<(Seat, Card)> = known.iter().copied().filter(|(s, c)| *s != seat && !played.contains(c)).collect();
    let mut pool = pack.to_vec();
    let seen = play.hands[seat].iter().chain(&played).chain(public).chain(known.iter().map(|(_, c)| c));
    for c in seen {
        if let Some(i) = pool.iter().position(|p| p == c) {
            pool.swap_remove(i);
        }
    }
    let void = voids(play.table.seats, &play.tricks, &play.trick);
    let others: Vec<Seat> = (0..play.table.seats).filter(|&s| s != seat).collect();
    let mut piles: Vec<(usize, [bool; 4])> = others
        .iter()
        .map(|&s| (play.hands[s].len() - known.iter().filter(|(k, _)| *k == s).count(), void[s]))
        .collect();
    piles.extend(hidden.iter().map(|h| (h.len(), [false; 4])));
    let mut dealt = redeal(&pool, &piles, rng).into_iter();
    for &s in &others {
        let mut hand = dealt.next().expect("a pile per seat");
        hand.extend(known.iter().filter(|(k, _)| *k == s).map(|(_, c)| *c));
        crate::cards::sort_hand(&mut hand);
        play.hands[s] = hand;
    }
    for (h, pile) in hidden.iter_mut().zip(dealt) {
        **h = pile;
    }
}

/// How a trick player wants the trick on the table to go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// Take tricks.
    Take,
    /// Lose tricks.
    Duck,
}

/// A rule-of-thumb card for a trick game where the highest trump, else the highest card of the
/// suit led, wins: to take, win as cheaply as possible (or let a partner's winning card stand);
/// to duck, play the highest card that still loses, and shed high cards when void.
pub fn basic_card(
    legal: &[Card],
    trick: &Trick,
    trumps: Option<Suit>,
    seat: Seat,
    partner: Option<Seat>,
    last_to_play: bool,
    aim: Aim,
) -> Option<Card> {
    let strength = |c: Card| (trumps.is_some_and(|t| c.is_suit(t)), rank_value(c));
    let low = |cs: &mut dyn Iterator<Item = Card>| cs.min_by_key(|&c| strength(c));
    let high = |cs: &mut dyn Iterator<Item = Card>| cs.max_by_key(|&c| strength(c));
    if trick.plays.is_empty() {
        return match aim {
            // Lead an ace (not a trump) if there is one, else the lowest card.
            Aim::Take => legal
                .iter()
                .copied()
                .filter(|c| rank_value(*c) == 14 && trumps.is_none_or(|t| !c.is_suit(t)))
                .max_by_key(|&c| strength(c))
                .or_else(|| low(&mut legal.iter().copied())),
            Aim::Duck => low(&mut legal.iter().copied()),
        };
    }
    let (winning, losing) = crate::trick::split_taking(trick, seat, legal, |t| crate::trick::winner(t, trumps).0);
    let partner_ahead = partner.is_some_and(|p| crate::trick::winner(trick, trumps).0 == p);
    match aim {
        Aim::Take if partner_ahead && (last_to_play || losing.is_empty()) => {
            low(&mut losing.iter().copied()).or_else(|| low(&mut winning.iter().copied()))
        }
        Aim::Take if partner_ahead => low(&mut losing.iter().copied()),
        Aim::Take => low(&mut winning.iter().copied()).or_else(|| low(&mut losing.iter().copied())),
        Aim::Duck => high(&mut losing.iter().copied()).or_else(|| high(&mut winning.iter().copied())),
    }
}

/// How far `seat`'s value stands above the mean of the other seats' (of `seats`): what most
/// games' [`Rules::standing`] is, over scores, chips or a share of the pot.
pub fn lead_over_mean(seats: usize, value: impl Fn(Seat) -> f64, seat: Seat) -> f64 {
    let all: f64 = (0..seats).map(&value).sum();
    value(seat) - (all - value(seat)) / (seats - 1) as f64
}

/// A rough count of the tricks a hand takes: aces, guarded kings and queens, long trumps (or,
/// without trumps, a long suit headed by the ace or king). For
/// `players` at the table; short hands count for less, since fewer rounds are played.
pub fn estimate_tricks(hand: &[Card], trumps: Option<Suit>, players: usize) -> f64 {
    let mut tricks = 0.0;
    let crowd = if players > 4 { 0.8 } else { 1.0 };
    for suit in Suit::ALL {
        let ranks: Vec<u8> = hand.iter().filter(|c| c.is_suit(suit)).map(|&c| rank_value(c)).collect();
        let n = ranks.len();
        let has = |r: u8| ranks.contains(&r);
        if Some(suit) == trumps {
            tricks += [14, 13, 12].iter().enumerate().filter(|(i, &r)| has(r) && n > *i).count() as f64 * 0.85;
            tricks += n.saturating_sub(3) as f64 * 0.7;
            tricks += ranks.iter().filter(|&&r| r < 12).count().min(2) as f64 * 0.2;
        } else {
            if has(14) {
                tricks += if n <= 4 { 0.9 } else { 0.6 } * crowd;
            }
            if has(13) && (2..=4).contains(&n) {
                tricks += 0.55 * crowd;
            }
            if has(12) && (3..=4).contains(&n) {
                tricks += 0.25 * crowd;
            }
            // Without trumps nobody can stop a long suit once its top cards have gone.
            if trumps.is_none() && n >= 5 && (has(14) || has(13)) {
                tricks += (n - 4) as f64 * 0.7;
            }
        }
    }
    if trumps.is_some() {
        let trump_count = hand.iter().filter(|c| c.suit() == trumps).count();
        let short = Suit::ALL.iter().filter(|&&s| Some(s) != trumps && !hand.iter().any(|c| c.is_suit(s))).count();
        tricks += (short.min(trump_count.saturating_sub(1))) as f64 * 0.5;
    }
    tricks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;

    #[test]
    fn levels_read_and_write_in_lowercase() {
        assert_eq!(serde_json::to_value(Level::Strong).unwrap(), "strong");
        assert_eq!(serde_json::from_value::<Level>("basic".into()).unwrap(), Level::Basic);
        assert!(serde_json::from_value::<Level>(9.into()).is_err());
    }

    #[test]
    fn a_redeal_keeps_sizes_and_voids_and_ignores_where_cards_were() {
        let pool = cards("2H 3H 4H 5C 6C 7C AS KS");
        let mut void = [false; 4];
        void[Suit::Hearts as usize] = true;
        for seed in 0..50 {
            let piles = redeal(&pool, &[(3, void), (3, [false; 4]), (2, [false; 4])], &mut Rng::new(seed));
            assert_eq!(piles.iter().map(Vec::len).collect::<Vec<_>>(), [3, 3, 2]);
            assert!(!piles[0].iter().any(|c| c.is_suit(Suit::Hearts)), "{piles:?}");
            let mut shuffled = pool.clone();
            shuffled.reverse();
            assert_eq!(redeal(&shuffled, &[(3, void), (3, [false; 4]), (2, [false; 4])], &mut Rng::new(seed)), piles);
        }
    }

    #[test]
    fn a_basic_card_wins_cheaply_or_ducks_high() {
        let trick = Trick { leader: 1, plays: vec![(1, "TH".parse().unwrap())] };
        let legal = cards("2H JH AH");
        assert_eq!(basic_card(&legal, &trick, None, 2, None, false, Aim::Take), Some("JH".parse().unwrap()));
        assert_eq!(basic_card(&legal, &trick, None, 2, None, false, Aim::Duck), Some("2H".parse().unwrap()));
        assert_eq!(basic_card(&cards("JH AH"), &trick, None, 2, None, false, Aim::Duck), Some("AH".parse().unwrap()));
        // Partner (seat 1) is winning and this seat plays last: no need to overtake.
        assert_eq!(basic_card(&legal, &trick, None, 3, Some(1), true, Aim::Take), Some("2H".parse().unwrap()));
    }
}
