//! The play of a Fan tan deal, shared by Fan tan and Jazz's sixth deal (which is played "exactly
//! as Fan tan" and scored its own way): the hands, the layout, the turn, the passes and what the
//! table learns from them, the legal lays and their refusals, the rule of thumb and the
//! determinizer. A game keeps its own events and scoring and calls these from its `decide`,
//! `evolve` and bot methods, passing its own rule ids for the refusals.

use std::collections::BTreeSet;

use crate::bots;
use crate::cards::{decks, is_permutation, sorted, take_card, Card};
use crate::layout::{ace_low, card_at, Layout, Shape};
use crate::random::Rng;
use crate::rules::RuleViolation;
use crate::seat::{Seat, Table as Seating};

/// The rank every row starts with, counted from the ace as one.
pub const SEVEN: u8 = 7;

/// The rule ids a game's refusals of a lay name.
#[derive(Clone, Copy, Debug)]
pub struct LayRules {
    /// The card does not fit the rows (the sevens' variant).
    pub build: &'static str,
    /// More than one card, or none.
    pub one_card: &'static str,
    /// The card does not fit a pile (the free variant).
    pub free_build: &'static str,
    /// The cards are not a run upward in one suit (the free variant).
    pub free_run: &'static str,
}

/// The layout's shape: sevens built outward, or in the free variant piles built upward round.
pub fn shape(free: bool) -> Shape {
    if free {
        Shape::Round
    } else {
        Shape::Outward { start: SEVEN }
    }
}

#[derive(Clone, Debug)]
pub struct FanTanPlay {
    pub table: Seating,
    /// Fri fan tan: any first card in a suit, piles upward round the king, runs at once.
    pub free: bool,
    pub hands: Vec<Vec<Card>>,
    pub layout: Layout,
    pub to_play: Seat,
    /// Passes by seat.
    pub passes: Vec<u32>,
    /// By seat, every card that could be laid when the seat passed: it held none of them then,
    /// so it holds none now (public: the table saw the pass).
    pub lacks: Vec<BTreeSet<Card>>,
    /// By seat, its plays with the layout each was laid on (public), for the bot's inferences.
    pub plays: Vec<Vec<(Layout, Vec<Card>)>>,
}

/// How many of its latest plays a seat's hand in a sampled world must explain.
const EVIDENCE: usize = 3;
/// Fresh deals of the unseen cards tried for a world whose hands explain the plays.
const WORLD_TRIES: usize = 24;

impl FanTanPlay {
    pub fn new(table: Seating, hands: Vec<Vec<Card>>, forehand: Seat, free: bool) -> FanTanPlay {
        let seats = hands.len();
        FanTanPlay {
            table,
            free,
            hands,
            layout: Layout::new(shape(free)),
            to_play: forehand,
            passes: vec![0; seats],
            lacks: vec![BTreeSet::new(); seats],
            plays: vec![Vec::new(); seats],
        }
    }

    /// The seats from `first` on, in turn, that have nothing to lay on `layout` with `hands`,
    /// up to the first that can: they pass.
    pub fn passes_from(table: &Seating, hands: &[Vec<Card>], layout: &Layout, first: Seat) -> Vec<Seat> {
        let mut passing = Vec::new();
        let mut seat = first;
        for _ in 0..table.seats {
            if hands[seat].iter().any(|&c| layout.fits(c)) {
                break;
            }
            passing.push(seat);
            seat = table.next(seat);
        }
        passing
    }

    /// Whether `seat` may lay `cards` now; the refusals name the game's `rules`.
    pub fn check_lay(&self, seat: Seat, cards: &[Card], rules: &LayRules) -> Result<(), RuleViolation> {
        let free = self.free;
        let Some(&first) = cards.first() else {
            return Err(RuleViolation::new(rules.one_card, "Lägg minst ett kort.", "Lay at least one card."));
        };
        if let Some(&c) = cards.iter().find(|c| !self.hands[seat].contains(c)) {
            return Err(RuleViolation::card_not_held(c));
        }
        if !free && cards.len() > 1 {
            return Err(RuleViolation::new(
                rules.one_card,
                "Man lägger bara ett kort i taget.",
                "Only one card is laid on each turn.",
            ));
        }
        if !self.layout.fits(first) {
            let open = crate::cards::codes(&self.layout.openings());
            return Err(if free {
                RuleViolation::new(
                    rules.free_build,
                    format!("{first} passar inte: en påbörjad färg byggs bara uppåt, och nu passar {open}."),
                    format!("{first} does not fit: a started suit is built upward only, and now {open} fit."),
                )
            } else {
                RuleViolation::new(
                    rules.build,
                    format!("{first} passar inte i raderna; nu passar {open}."),
                    format!("{first} does not fit the rows; now {open} fit."),
                )
            });
        }
        if !self.layout.fits_run(cards) {
            return Err(RuleViolation::new(
                rules.free_run,
                "Korten måste följa på varandra uppåt i samma färg.",
                "The cards must follow one another upward in one suit.",
            ));
        }
        Ok(())
    }

    /// The hands once `seat` has laid `cards` (checked), and the seats that then pass in turn
    /// after it: none if it has gone out.
    pub fn after_lay(&self, seat: Seat, cards: &[Card]) -> (Vec<Vec<Card>>, Vec<Seat>) {
        let mut hands = self.hands.clone();
        let mut layout = self.layout.clone();
        for &c in cards {
            take_card(&mut hands[seat], c);
            layout.lay(c);
        }
        let passing = match hands[seat].is_empty() {
            true => Vec::new(),
            false => FanTanPlay::passes_from(&self.table, &hands, &layout, self.table.next(seat)),
        };
        (hands, passing)
    }

    /// Cards laid: they leave the hand for the layout, and the turn moves on.
    pub fn lay(&mut self, seat: Seat, cards: &[Card]) {
        self.plays[seat].push((self.layout.clone(), cards.to_vec()));
        for &c in cards {
            take_card(&mut self.hands[seat], c);
            self.layout.lay(c);
        }
        self.to_play = self.table.next(seat);
    }

    /// A seat passed: the table learns it holds nothing that fits, and the turn moves on.
    pub fn pass(&mut self, seat: Seat) {
        self.passes[seat] += 1;
        let open = decks::standard52().into_iter().filter(|&c| self.layout.fits(c));
        self.lacks[seat].extend(open);
        self.to_play = self.table.next(seat);
    }

    fn longest(&self) -> usize {
        if self.free {
            13
        } else {
            1
        }
    }

    /// What `seat` may lay: single cards, and in the free variant runs.
    pub fn legal(&self, seat: Seat) -> Vec<Vec<Card>> {
        self.layout.runs(&self.hands[seat], self.longest())
    }

    /// The rule of thumb for `seat`: see [`basic_pick`].
    pub fn basic(&self, seat: Seat) -> Option<Vec<Card>> {
        basic_pick(self.free, &self.layout, &self.hands[seat])
    }

    /// The deal as `seat` knows it: its own hand and the layout, the other hands dealt afresh
    /// from the cards it has not seen, each keeping its size and none of the cards that could be
    /// laid when it passed; of several fresh deals, the first (else the one) whose hands best
    /// explain what their seats laid lately.
    pub fn resample(&mut self, seat: Seat, rng: &mut Rng) {
        let others: Vec<Seat> = (0..self.table.seats).filter(|&s| s != seat).collect();
        let laid = self.layout.cards();
        let pool: Vec<Card> =
            decks::standard52().into_iter().filter(|c| !laid.contains(c) && !self.hands[seat].contains(c)).collect();
        let sizes: Vec<usize> = others.iter().map(|&s| self.hands[s].len()).collect();
        let mut best: Option<(usize, Vec<Vec<Card>>)> = None;
        for _ in 0..WORLD_TRIES {
            let hands = bots::redeal_where(&pool, &sizes, |p, c| !self.lacks[others[p]].contains(&c), rng);
            let fit = (0..others.len()).filter(|&k| explains(self.free, &self.plays[others[k]], &hands[k])).count();
            if best.as_ref().is_none_or(|(f, _)| fit > *f) {
                best = Some((fit, hands));
            }
            if fit == others.len() {
                break;
            }
        }
        for (k, hand) in best.map(|b| b.1).unwrap_or_default().into_iter().enumerate() {
            self.hands[others[k]] = sorted(hand);
        }
    }

    /// The books: the hands and the layout are `pack`, no hand holds more than its share.
    pub fn check(&self, pack: &[Card]) -> Result<(), String> {
        self.layout.check()?;
        let mut all: Vec<Card> = self.hands.concat();
        all.extend(self.layout.cards());
        crate::ensure!(is_permutation(&all, pack), "hands and layout hold {} cards, not the pack", all.len());
        let most = pack.len().div_ceil(self.table.seats);
        crate::ensure!(self.hands.iter().all(|h| h.len() <= most), "a hand holds more than {most} cards");
        Ok(())
    }
}

/// The cards of `card`'s suit beyond it, in the way its row grows from it (both ways from a
/// seven, which opens its row): the cards laying it lets come.
pub fn beyond(shape: Shape, layout: &Layout, card: Card) -> Vec<Card> {
    let suit = card.suit().expect("a suited card");
    let n = ace_low(card);
    match shape {
        Shape::Outward { start } if n == start => (1..=13).filter(|&k| k != n).map(|k| card_at(suit, k)).collect(),
        Shape::Outward { start } if n > start => (n + 1..=13).map(|k| card_at(suit, k)).collect(),
        Shape::Outward { .. } => (1..n).map(|k| card_at(suit, k)).collect(),
        Shape::Round => {
            let laid = layout.row(suit).map_or(1, |r| r.len());
            (1..=13 - laid as u8).map(|k| card_at(suit, (n - 1 + k) % 13 + 1)).collect()
        }
    }
}

/// The rule of thumb: lay what leads on to the most of one's own cards (in the free variant, a
/// card of a run counting as much as three cards it leads to); among equals the lowest card.
pub fn basic_pick(free: bool, layout: &Layout, hand: &[Card]) -> Option<Vec<Card>> {
    let shape = layout.shape();
    layout.runs(hand, if free { 13 } else { 1 }).into_iter().max_by_key(|cards| {
        let last = *cards.last().expect("a run has cards");
        let mut after = layout.clone();
        cards.iter().for_each(|&c| after.lay(c));
        let rest = beyond(shape, &after, last);
        let mine = rest.iter().filter(|c| hand.contains(c) && !cards.contains(c)).count() as i64;
        (mine + 3 * cards.len() as i64, std::cmp::Reverse(last))
    })
}

/// Whether `hand`, another seat's hand in a sampled world, explains its latest plays as the
/// basic rule of thumb would have made them (each with the cards laid since back in hand).
fn explains(free: bool, plays: &[(Layout, Vec<Card>)], hand: &[Card]) -> bool {
    let mut then = hand.to_vec();
    plays.iter().rev().take(EVIDENCE).all(|(layout, cards)| {
        then.extend(cards);
        basic_pick(free, layout, &then).as_ref() == Some(cards)
    })
}
