//! Melds (docs/engine.md §3, §4.10): groups of three or more cards of a rank, runs of three or
//! more in sequence in a suit, jokers standing for any card in them, lay-offs of single cards on
//! a meld already on the table, and a joker taken back from a meld with the natural card it
//! stands for. The family is rummy's; the game decides whose melds one may lay off on.
//!
//! A run's order is its meaning: its cards are written from the lowest place up, and a joker
//! stands for the card of the place it is written in, so `5H JK 7H` is five, six, seven of
//! hearts. The ace is low (place 1: A-2-3); [`MeldRules::ace_high`] also lets it stand above the
//! king (place 14: Q-K-A), never both at once (K-A-2 is no run). A meld with only one natural
//! card could be read as either kind, so the kind is always said, not guessed.
//!
//! Validation and listing are the same code, as in shakmaty: [`melds_in`] builds candidates and
//! keeps those [`read`] accepts; [`lay_offs`] and [`joker_takes`] list what [`Meld::lay_off`] and
//! [`Meld::take_joker`] accept. [`melds_in`] lists every three-card meld a hand holds and each
//! longest natural group and run, not every subset: any longer meld is then reached by laying
//! the rest off one card at a time on a three-card meld, so nothing a player could do is lost,
//! and the list stays in the tens rather than the thousands.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::cards::{is_part_of, Card, Rank, Suit};

/// What the game allows of melds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeldRules {
    /// The ace may also stand above the king in a run (Q-K-A), as well as below the two.
    pub ace_high: bool,
}

impl MeldRules {
    /// The highest place a run may reach: the king, or the ace above it.
    fn top(self) -> u8 {
        if self.ace_high {
            14
        } else {
            13
        }
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = MeldKind))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Group,
    Run,
}

/// The end of a run a card is laid at.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = MeldEnd))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    Low,
    High,
}

/// A meld on the table.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Meld {
    /// Three or more cards of `rank` (2 to 14, the ace 14), in the order laid; a joker stands
    /// for a card of the rank.
    Group { rank: u8, cards: Vec<Card> },
    /// Cards of `suit` in sequence: `cards[i]` stands at place `low + i`, place 1 being the ace
    /// below the two and 14 the ace above the king.
    Run { suit: Suit, low: u8, cards: Vec<Card> },
}

/// Why a meld, a lay-off or a joker taken back is refused. [`Fault::about`] says which of the
/// four it concerns, for the game's rule ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    TooFew,
    NoNatural,
    NotACard,
    MixedRanks,
    MixedSuits,
    OutOfSequence,
    PastTheAce,
    DoesNotFit,
    EndNeeded,
    EndNotWanted,
    NoSuchJoker,
}

/// What a [`Fault`] concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum About {
    Group,
    Run,
    LayOff,
    Joker,
}

impl Fault {
    pub fn about(self, kind: Kind) -> About {
        match self {
            Fault::DoesNotFit | Fault::EndNeeded | Fault::EndNotWanted => About::LayOff,
            Fault::NoSuchJoker | Fault::NoNatural => About::Joker,
            _ if kind == Kind::Group => About::Group,
            _ => About::Run,
        }
    }

    /// The refusal in Swedish and English.
    pub fn text(self) -> (&'static str, &'static str) {
        match self {
            Fault::TooFew => ("En kombination måste ha minst tre kort.", "A meld needs at least three cards."),
            Fault::NoNatural => {
                ("En kombination måste ha minst ett naturligt kort.", "A meld needs at least one natural card.")
            }
            Fault::NotACard => {
                ("Bara vanliga kort och jokrar kan ingå.", "Only standard cards and jokers can be melded.")
            }
            Fault::MixedRanks => ("En grupp består av kort av samma valör.", "A group is made of cards of one rank."),
            Fault::MixedSuits => ("En sekvens består av kort i samma färg.", "A run is made of cards of one suit."),
            Fault::OutOfSequence => (
                "En sekvens ska ligga i följd, från lägsta kortet uppåt, utan luckor och utan dubbletter.",
                "A run must be in sequence, from its lowest card up, without gaps or repeats.",
            ),
            Fault::PastTheAce => (
                "En sekvens kan inte gå runt esset: esset är lägst, eller högst där det är tillåtet, men aldrig båda.",
                "A run cannot turn the corner at the ace: the ace is low, or high where allowed, never both.",
            ),
            Fault::DoesNotFit => ("Kortet passar inte i kombinationen.", "The card does not fit the meld."),
            Fault::EndNeeded => (
                "Kortet passar i båda ändar av sekvensen: säg i vilken.",
                "The card fits either end of the run: say which.",
            ),
            Fault::EndNotWanted => {
                ("Kortets plats är given: ange ingen ände.", "The card has only one place: name no end.")
            }
            Fault::NoSuchJoker => {
                ("Ingen joker i kombinationen står för det kortet.", "No joker in the meld stands for that card.")
            }
        }
    }
}

pub fn is_joker(card: Card) -> bool {
    matches!(card, Card::Joker(_))
}

/// The rank a run's place stands for: places 1 and 14 are both the ace.
fn rank_at(place: u8) -> u8 {
    if place == 1 {
        14
    } else {
        place
    }
}

/// The card at `place` of a run in `suit`.
pub fn card_at(suit: Suit, place: u8) -> Card {
    Card::new(Rank::new(rank_at(place)).expect("places are 1 to 14"), suit)
}

/// The places a natural card may take in a run: its rank, and 1 for an ace.
fn places_of(card: Card, rules: MeldRules) -> Vec<u8> {
    match card.rank().map(Rank::value) {
        Some(14) if rules.ace_high => vec![1, 14],
        Some(14) => vec![1],
        Some(v) => vec![v],
        None => Vec::new(),
    }
}

/// `cards` read as a meld of `kind`, or why they are none.
pub fn read(kind: Kind, cards: &[Card], rules: MeldRules) -> Result<Meld, Fault> {
    if cards.len() < 3 {
        return Err(Fault::TooFew);
    }
    if cards.iter().any(|&c| !is_joker(c) && c.rank().is_none()) {
        return Err(Fault::NotACard);
    }
    let Some((first, &natural)) = cards.iter().enumerate().find(|(_, &c)| !is_joker(c)) else {
        return Err(Fault::NoNatural);
    };
    let naturals = || cards.iter().filter(|&&c| !is_joker(c));
    match kind {
        Kind::Group => {
            let rank = natural.rank();
            if naturals().any(|c| c.rank() != rank) {
                return Err(Fault::MixedRanks);
            }
            Ok(Meld::Group { rank: rank.map_or(0, Rank::value), cards: cards.to_vec() })
        }
        Kind::Run => {
            let suit = natural.suit().expect("a natural card has a suit");
            if naturals().any(|c| c.suit() != Some(suit)) {
                return Err(Fault::MixedSuits);
            }
            let mut fault = Fault::PastTheAce;
            for place in places_of(natural, rules) {
                let Some(low) = place.checked_sub(first as u8).filter(|&l| l >= 1) else { continue };
                if usize::from(low) + cards.len() - 1 > usize::from(rules.top()) || cards.len() > 13 {
                    continue;
                }
                let fits = cards.iter().enumerate().all(|(i, &c)| is_joker(c) || c == card_at(suit, low + i as u8));
                if fits {
                    return Ok(Meld::Run { suit, low, cards: cards.to_vec() });
                }
                fault = Fault::OutOfSequence;
            }
            Err(fault)
        }
    }
}

impl Meld {
    pub fn kind(&self) -> Kind {
        match self {
            Meld::Group { .. } => Kind::Group,
            Meld::Run { .. } => Kind::Run,
        }
    }

    pub fn cards(&self) -> &[Card] {
        match self {
            Meld::Group { cards, .. } | Meld::Run { cards, .. } => cards,
        }
    }

    /// The ends of a run `card` could be laid at (for a group, `[High]` when it fits: a group
    /// has no ends, and its cards go last).
    pub fn ends_for(&self, card: Card, rules: MeldRules) -> Vec<End> {
        match self {
            Meld::Group { rank, .. } => match is_joker(card) || card.rank().map(Rank::value) == Some(*rank) {
                true => vec![End::High],
                false => Vec::new(),
            },
            Meld::Run { suit, low, cards } => {
                let high = low + cards.len() as u8 - 1;
                if cards.len() >= 13 {
                    return Vec::new();
                }
                let mut ends = Vec::new();
                let below = low.checked_sub(1).filter(|&p| p >= 1);
                let above = Some(high + 1).filter(|&p| p <= rules.top());
                if below.is_some_and(|p| is_joker(card) || card == card_at(*suit, p)) {
                    ends.push(End::Low);
                }
                if above.is_some_and(|p| is_joker(card) || card == card_at(*suit, p)) {
                    ends.push(End::High);
                }
                ends
            }
        }
    }

    /// The meld with `card` laid off on it, at `end` where it could go at either end of a run
    /// (`None` where its place is given, and always for a group).
    pub fn lay_off(&self, card: Card, end: Option<End>, rules: MeldRules) -> Result<Meld, Fault> {
        let ends = self.ends_for(card, rules);
        let at = match (ends.as_slice(), end) {
            ([], _) => return Err(Fault::DoesNotFit),
            ([only], None) => *only,
            ([_], Some(_)) => return Err(Fault::EndNotWanted),
            (_, None) => return Err(Fault::EndNeeded),
            (_, Some(e)) if ends.contains(&e) => e,
            (_, Some(_)) => return Err(Fault::DoesNotFit),
        };
        let mut meld = self.clone();
        match &mut meld {
            Meld::Group { cards, .. } => cards.push(card),
            Meld::Run { low, cards, .. } => match at {
                End::Low => {
                    cards.insert(0, card);
                    *low -= 1;
                }
                End::High => cards.push(card),
            },
        }
        Ok(meld)
    }

    /// The meld with `natural` in place of a joker that stands for it, and that joker: in a
    /// run, the joker at `natural`'s place; in a group, the first joker, as any card of the rank
    /// takes it back.
    pub fn take_joker(&self, natural: Card) -> Result<(Meld, Card), Fault> {
        let at = match self {
            _ if is_joker(natural) => None,
            Meld::Group { rank, cards } => (natural.rank().map(Rank::value) == Some(*rank))
                .then(|| cards.iter().position(|&c| is_joker(c)))
                .flatten(),
            Meld::Run { suit, low, cards } => {
                (0..cards.len()).find(|&i| is_joker(cards[i]) && card_at(*suit, low + i as u8) == natural)
            }
        };
        let i = at.ok_or(Fault::NoSuchJoker)?;
        let mut meld = self.clone();
        let cards = match &mut meld {
            Meld::Group { cards, .. } | Meld::Run { cards, .. } => cards,
        };
        let joker = std::mem::replace(&mut cards[i], natural);
        Ok((meld, joker))
    }
}

/// Each distinct card once, in order.
fn distinct(cards: &[Card]) -> Vec<Card> {
    let set: BTreeSet<Card> = cards.iter().copied().collect();
    set.into_iter().collect()
}

/// The melds `hand` can lay down, each as the kind and the cards to send: every three-card
/// meld (every choice of copies and jokers among the distinct cards) and, for each rank and
/// each stretch of a suit, the longest meld of natural cards alone when it has more than three.
/// Every entry is one [`read`] accepts, and none is listed twice.
pub fn melds_in(hand: &[Card], rules: MeldRules) -> Vec<(Kind, Vec<Card>)> {
    let mut found: Vec<(Kind, Vec<Card>)> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut keep = |kind: Kind, cards: Vec<Card>, found: &mut Vec<(Kind, Vec<Card>)>| {
        if is_part_of(&cards, hand) && read(kind, &cards, rules).is_ok() && seen.insert((kind, cards.clone())) {
            found.push((kind, cards));
        }
    };
    let jokers: Vec<Card> = distinct(&hand.iter().copied().filter(|&c| is_joker(c)).collect::<Vec<_>>());
    for rank in 2..=14u8 {
        let naturals: Vec<Card> = hand.iter().copied().filter(|c| c.rank().map(Rank::value) == Some(rank)).collect();
        if naturals.is_empty() {
            continue;
        }
        // Three-card groups: every multiset of three from the rank's cards and the jokers.
        let mut pool = distinct(&naturals);
        pool.extend(&jokers);
        for a in 0..pool.len() {
            for b in a..pool.len() {
                for c in b..pool.len() {
                    keep(Kind::Group, vec![pool[a], pool[b], pool[c]], &mut found);
                }
            }
        }
        if naturals.len() > 3 {
            let mut all = naturals.clone();
            all.sort();
            keep(Kind::Group, all, &mut found);
        }
    }
    for suit in Suit::ALL {
        let holds = |place: u8| hand.contains(&card_at(suit, place));
        for low in 1..=rules.top() - 2 {
            let choices = |place: u8| -> Vec<Card> {
                let mut c: Vec<Card> = holds(place).then(|| card_at(suit, place)).into_iter().collect();
                c.extend(&jokers);
                c
            };
            for a in choices(low) {
                for b in choices(low + 1) {
                    for c in choices(low + 2) {
                        keep(Kind::Run, vec![a, b, c], &mut found);
                    }
                }
            }
        }
        // The longest stretches of natural cards, from each place that starts one.
        for low in 1..=rules.top() {
            if !holds(low) || (low > 1 && holds(low - 1)) {
                continue;
            }
            let mut high = low;
            while high < rules.top() && holds(high + 1) && high + 1 - low < 13 {
                high += 1;
            }
            if high - low + 1 > 3 {
                keep(Kind::Run, (low..=high).map(|p| card_at(suit, p)).collect(), &mut found);
            }
        }
    }
    found
}

/// Whether `card` and two cards of `hand` make a three-card meld: the quick question a bot asks
/// of every card it has not seen, where [`melds_in`] would list every meld of the whole hand.
pub fn makes_meld(hand: &[Card], card: Card, rules: MeldRules) -> bool {
    let close = |c: Card| {
        c.suit() == card.suit()
            && places_of(c, rules).iter().any(|&p| places_of(card, rules).iter().any(|&q| p.abs_diff(q) <= 2))
    };
    let near: Vec<Card> = distinct(hand)
        .into_iter()
        .filter(|&c| is_joker(c) || is_joker(card) || c.rank() == card.rank() || close(c))
        .collect();
    const ORDERS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    for (i, &a) in near.iter().enumerate() {
        for &b in &near[i..] {
            if a == b && hand.iter().filter(|&&c| c == a).count() < 2 {
                continue;
            }
            let three = [a, b, card];
            if read(Kind::Group, &three, rules).is_ok()
                || ORDERS.iter().any(|o| read(Kind::Run, &[three[o[0]], three[o[1]], three[o[2]]], rules).is_ok())
            {
                return true;
            }
        }
    }
    false
}

/// The lay-offs `hand` can make on `meld`: each distinct card that fits, with the end where it
/// could go at either.
pub fn lay_offs(meld: &Meld, hand: &[Card], rules: MeldRules) -> Vec<(Card, Option<End>)> {
    let mut found = Vec::new();
    for card in distinct(hand) {
        let ends = meld.ends_for(card, rules);
        let choices: Vec<Option<End>> = match ends.len() {
            0 => Vec::new(),
            1 => vec![None],
            _ => ends.into_iter().map(Some).collect(),
        };
        found.extend(choices.into_iter().filter(|&e| meld.lay_off(card, e, rules).is_ok()).map(|e| (card, e)));
    }
    found
}

/// The natural cards of `hand` that would take a joker back from `meld`.
pub fn joker_takes(meld: &Meld, hand: &[Card]) -> Vec<Card> {
    distinct(hand).into_iter().filter(|&c| meld.take_joker(c).is_ok()).collect()
}

#[cfg(test)]
mod tests;
