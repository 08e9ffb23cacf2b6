//! Taking in by value, for the fishing games (Kasino, Krypkasino): a card played from the hand
//! takes table cards worth as much as it counts, one card of that worth or several adding up to
//! it (a group), as many groups at once as the player takes, no table card in two groups. An
//! ace counts 1 or 14, as its player chooses, on the table and in the hand; the other cards
//! count their number, and the jack, queen and king 11, 12 and 13.
//!
//! The takes a table allows grow fast with its size, so a game lists a take as steps: the card
//! and its worth first, then one group at a time ([`groups`]), each from what the groups before
//! left. Every set of cards that splits into groups ([`splits`]) is reached that way, and only
//! those; a game that forces a whole sweep offers only the groups that keep it in reach
//! ([`sweeping_groups`]), and one that forces the most a card can take ends the take only when
//! no group is left ([`can_take`]). The table is a multiset: with two packs, two equal cards are
//! one group, listed once.

use serde::Serialize;

use crate::cards::{take_card, Card, Rank};
use crate::rules::RuleViolation;

/// What an ace adds when it counts 14 rather than 1.
const ACE_HIGH: u8 = 13;

/// What a card counts at its lowest: an ace 1, a number its number, the jack, queen and king 11,
/// 12 and 13 (0 for a card without a rank).
pub fn low_worth(card: Card) -> u8 {
    card.rank().map_or(0, |r| if r == Rank::ACE { 1 } else { r.value() })
}

/// Every worth a card may count for: an ace 1 or 14, any other card its one worth.
pub fn worths(card: Card) -> Vec<u8> {
    match card.rank() {
        Some(Rank::ACE) => vec![1, 1 + ACE_HIGH],
        Some(_) => vec![low_worth(card)],
        None => Vec::new(),
    }
}

/// Whether `cards` together can count exactly `value`, each ace 1 or 14.
pub fn adds_up(cards: &[Card], value: u8) -> bool {
    let low: u32 = cards.iter().map(|&c| u32::from(low_worth(c))).sum();
    let aces = cards.iter().filter(|c| c.rank() == Some(Rank::ACE)).count() as u32;
    let value = u32::from(value);
    !cards.is_empty()
        && cards.iter().all(|&c| low_worth(c) > 0)
        && value >= low
        && (value - low).is_multiple_of(u32::from(ACE_HIGH))
        && (value - low) / u32::from(ACE_HIGH) <= aces
}

/// Every group of `table` cards adding up to `value`: each listed once, its cards in the order
/// they lie on the table.
pub fn groups(table: &[Card], value: u8) -> Vec<Vec<Card>> {
    let mut found: Vec<Vec<Card>> = Vec::new();
    let mut picked = Vec::new();
    collect(table, 0, value, &mut picked, &mut found);
    found
}

/// Extends `picked` (positions of `table`, low worths summing to at most `value`) with cards
/// from `from` on, recording every pick that adds up.
fn collect(table: &[Card], from: usize, value: u8, picked: &mut Vec<usize>, found: &mut Vec<Vec<Card>>) {
    let cards: Vec<Card> = picked.iter().map(|&i| table[i]).collect();
    if !cards.is_empty() && adds_up(&cards, value) && !found.iter().any(|g| same_cards(g, &cards)) {
        found.push(cards.clone());
    }
    let low: u32 = cards.iter().map(|&c| u32::from(low_worth(c))).sum();
    for i in from..table.len() {
        if low + u32::from(low_worth(table[i])) <= u32::from(value) && low_worth(table[i]) > 0 {
            picked.push(i);
            collect(table, i + 1, value, picked, found);
            picked.pop();
        }
    }
}

/// Whether two lists hold the same cards, counting copies.
pub fn same_cards(a: &[Card], b: &[Card]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort();
    b.sort();
    a == b
}

/// Whether the played card, counting `value`, could take anything from `table`.
pub fn can_take(table: &[Card], value: u8) -> bool {
    !groups(table, value).is_empty()
}

/// `table` less one copy of each card of `cards` (which it must hold).
pub fn without(table: &[Card], cards: &[Card]) -> Vec<Card> {
    let mut rest = table.to_vec();
    for &c in cards {
        take_card(&mut rest, c);
    }
    rest
}

/// Whether `cards` split wholly into groups each adding up to `value` (no cards split into
/// none): what one card counting `value` may take from them together, all of them a sweep.
pub fn splits(cards: &[Card], value: u8) -> bool {
    let Some((&first, rest)) = cards.split_first() else { return true };
    // Every ace adds 0 or 13 to the low worths, so the total must be reachable that way.
    let low: u32 = cards.iter().map(|&c| u32::from(low_worth(c))).sum();
    let aces = cards.iter().filter(|c| c.rank() == Some(Rank::ACE)).count() as u32;
    let reachable = (0..=aces).any(|j| (low + j * u32::from(ACE_HIGH)).is_multiple_of(u32::from(value.max(1))));
    if !reachable || value == 0 {
        return false;
    }
    // The first card lies in some group: try each group of the rest that completes it.
    worths(first).into_iter().filter(|&w| w <= value).any(|w| {
        if w == value {
            return splits(rest, value);
        }
        groups(rest, value - w).into_iter().any(|g| splits(&without(rest, &g), value))
    })
}

/// Whether one card counting `value` sweeps the whole of `table` (a tabbe).
pub fn sweeps(table: &[Card], value: u8) -> bool {
    !table.is_empty() && splits(table, value)
}

/// The groups a card counting `value` may take when it must sweep the table: those after which
/// the rest of the table still splits into groups.
pub fn sweeping_groups(table: &[Card], value: u8) -> Vec<Vec<Card>> {
    groups(table, value).into_iter().filter(|g| splits(&without(table, g), value)).collect()
}

/// Every take a card counting `value` may make from `table`: each set of table cards (listed
/// once, in table order) that splits into groups adding up to it. A search over every subset:
/// for tests and small tables.
pub fn takes(table: &[Card], value: u8) -> Vec<Vec<Card>> {
    let mut found: Vec<Vec<Card>> = Vec::new();
    for mask in 1u64..(1u64 << table.len()) {
        let set: Vec<Card> = (0..table.len()).filter(|i| mask >> i & 1 == 1).map(|i| table[i]).collect();
        if splits(&set, value) && !found.iter().any(|t| same_cards(t, &set)) {
            found.push(set);
        }
    }
    found
}

/// The takes reached group by group that leave nothing a card counting `value` could still take:
/// every one a player forced to take all he can may end with, found by stepping through the
/// groups ([`groups`] from what is left), each set listed once.
pub fn fullest_takes(table: &[Card], value: u8) -> Vec<Vec<Card>> {
    let mut found: Vec<Vec<Card>> = Vec::new();
    let mut stack: Vec<(Vec<Card>, Vec<Card>)> = vec![(table.to_vec(), Vec::new())];
    let mut seen: Vec<Vec<Card>> = Vec::new();
    while let Some((left, taken)) = stack.pop() {
        let next = groups(&left, value);
        if next.is_empty() {
            if !taken.is_empty() && !found.iter().any(|t| same_cards(t, &taken)) {
                found.push(taken);
            }
            continue;
        }
        for g in next {
            let mut more = taken.clone();
            more.extend(&g);
            if !seen.iter().any(|s| same_cards(s, &more)) {
                seen.push(more.clone());
                stack.push((without(&left, &g), more));
            }
        }
    }
    found
}

/// Where the match is: `waiting-for-deal`, `playing` (a card to play), `taking` (groups to take
/// with the card shown), `deal-over`, `finished`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    WaitingForDeal,
    Playing,
    Taking,
    DealOver,
    Finished,
}

impl crate::deals::MatchPhase for Phase {
    const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
    const FINISHED: Phase = Phase::Finished;
}

impl Phase {
    /// A live or finished deal's phase: over, a take in progress, or a card to play.
    pub fn of_deal(over: bool, take: Option<&Take>) -> Phase {
        match (over, take) {
            (true, _) => Phase::DealOver,
            (false, Some(_)) => Phase::Taking,
            (false, None) => Phase::Playing,
        }
    }
}

// Named as Kasino named it before it was shared, so that Kasino's API document stays as it was.
/// A take in progress: the card shown, what it counts, and the table cards taken with it so far.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = KasinoTake))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Take {
    pub card: Card,
    pub worth: u8,
    pub taken: Vec<Card>,
}

impl Take {
    /// The table as it lay when the card was shown: what is left and what was taken.
    pub fn table_before(&self, left: &[Card]) -> Vec<Card> {
        let mut before = left.to_vec();
        before.extend(&self.taken);
        before
    }
}

/// The refusal of a take's step while no card is shown, or of a new card while one is; `rule` is
/// the game's rule of take steps or of one card a turn.
pub fn out_of_step(rule: &str, taking: bool) -> RuleViolation {
    if taking {
        RuleViolation::new(
            rule,
            "Du tar in med ett kort just nu: ta en grupp till eller sluta.",
            "You are taking in with a card: take another group or stop.",
        )
    } else {
        RuleViolation::new(
            rule,
            "Visa först kortet du tar in med (take_with).",
            "First show the card you take in with (take_with).",
        )
    }
}

/// Whether `card`, held in `hand`, may be shown counting `worth` (an ace 1 or 14, any other card
/// its one worth); `ace_rule` is the game's rule of the ace.
pub fn check_worth(hand: &[Card], card: Card, worth: u8, ace_rule: &str) -> Result<(), RuleViolation> {
    if !hand.contains(&card) {
        return Err(RuleViolation::card_not_held(card));
    }
    if !worths(card).contains(&worth) {
        return Err(RuleViolation::new(
            ace_rule,
            format!("{card} kan inte räknas som {worth}; bara ett ess väljer mellan 1 och 14."),
            format!("{card} cannot count {worth}; only an ace chooses between 1 and 14."),
        ));
    }
    Ok(())
}

/// The refusal of showing a card to take when nothing on the table adds up to `worth`.
pub fn nothing_to_take(rule: &str, worth: u8) -> RuleViolation {
    RuleViolation::new(
        rule,
        format!("Inget på bordet är värt {worth}, ensamt eller tillsammans: lägg ut ett kort."),
        format!("Nothing on the table is worth {worth}, alone or together: lay a card out."),
    )
}

/// Whether `group` is cards of `table` adding up to `worth`; `groups_rule` and `take_rule` are
/// the game's rules of groups (each card once) and of what a take is.
pub fn check_group(
    table: &[Card],
    group: &[Card],
    worth: u8,
    groups_rule: &str,
    take_rule: &str,
) -> Result<(), RuleViolation> {
    if !crate::cards::is_part_of(group, table) {
        return Err(RuleViolation::new(
            groups_rule,
            "Gruppen måste bestå av kort som ligger kvar på bordet, varje kort bara en gång.",
            "The group must be cards still on the table, each card once.",
        ));
    }
    if !adds_up(group, worth) {
        return Err(RuleViolation::new(
            take_rule,
            format!("Korten i gruppen blir inte {worth} tillsammans."),
            format!("The group's cards do not add up to {worth}."),
        ));
    }
    Ok(())
}

/// Every distinct card of `hand` with each worth it may count for.
pub fn hand_worths(hand: &[Card]) -> Vec<(Card, u8)> {
    let mut out: Vec<(Card, u8)> = Vec::new();
    for (i, &card) in hand.iter().enumerate() {
        if !hand[..i].contains(&card) {
            out.extend(worths(card).into_iter().map(|w| (card, w)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards, decks};
    use crate::random::Rng;

    /// Whether `set` splits into groups adding up to `value`, by trying every way of giving each
    /// card a group number and each ace a worth: the brute force the toolkit is held to.
    fn splits_by_force(set: &[Card], value: u8) -> bool {
        let aces: Vec<usize> = (0..set.len()).filter(|&i| set[i].rank() == Some(Rank::ACE)).collect();
        (0u32..(1 << aces.len())).any(|high| {
            let worth: Vec<u32> = (0..set.len())
                .map(|i| {
                    let k = aces.iter().position(|&a| a == i);
                    u32::from(low_worth(set[i])) + k.map_or(0, |k| u32::from(ACE_HIGH) * (high >> k & 1))
                })
                .collect();
            label(&worth, 0, &mut Vec::new(), u32::from(value))
        })
    }

    /// Gives card `i` on a group (one already open or a new one), every way, each group's sum
    /// at most `value`: whether some way ends with every group at exactly `value`.
    fn label(worth: &[u32], i: usize, sums: &mut Vec<u32>, value: u32) -> bool {
        if i == worth.len() {
            return sums.iter().all(|&s| s == value);
        }
        for g in 0..=sums.len() {
            if g == sums.len() {
                sums.push(0);
            }
            sums[g] += worth[i];
            let ok = sums[g] <= value && label(worth, i + 1, sums, value);
            sums[g] -= worth[i];
            if g + 1 == sums.len() && sums[g] == 0 {
                sums.pop();
            }
            if ok {
                return true;
            }
        }
        false
    }

    /// Every set of table positions (as sorted codes, listed once) whose cards split: the count
    /// the step-by-step takes must reach.
    fn takes_by_force(table: &[Card], value: u8) -> usize {
        let mut seen: Vec<Vec<Card>> = Vec::new();
        for mask in 1u64..(1u64 << table.len()) {
            let mut set: Vec<Card> = (0..table.len()).filter(|i| mask >> i & 1 == 1).map(|i| table[i]).collect();
            set.sort();
            if splits_by_force(&set, value) && !seen.contains(&set) {
                seen.push(set);
            }
        }
        seen.len()
    }

    /// Every take reached by stepping group by group from `table`, each set once.
    fn takes_by_steps(table: &[Card], value: u8) -> Vec<Vec<Card>> {
        let mut found: Vec<Vec<Card>> = Vec::new();
        let mut stack = vec![(table.to_vec(), Vec::<Card>::new())];
        while let Some((left, taken)) = stack.pop() {
            for g in groups(&left, value) {
                let mut more = taken.clone();
                more.extend(&g);
                if !found.iter().any(|t| same_cards(t, &more)) {
                    found.push(more.clone());
                    stack.push((without(&left, &g), more));
                }
            }
        }
        found
    }

    #[test]
    fn an_ace_counts_one_or_fourteen() {
        assert_eq!(worths(card("AS")), vec![1, 14]);
        assert_eq!(worths(card("QH")), vec![12]);
        assert!(adds_up(&cards("AH KD"), 14));
        assert!(adds_up(&cards("AH"), 14) && adds_up(&cards("AH"), 1));
        assert!(adds_up(&cards("AH AD"), 15) && adds_up(&cards("AH AD"), 2) && !adds_up(&cards("AH AD"), 14));
        assert!(!adds_up(&[], 0));
    }

    #[test]
    fn the_texts_examples() {
        // Kasino: a nine takes the nine; a queen takes two, three and seven together.
        assert_eq!(groups(&cards("9H 4C"), 9), vec![cards("9H")]);
        assert_eq!(groups(&cards("2C 3D 7S"), 12), vec![cards("2C 3D 7S")]);
        // Krypkasino: a nine on nine, two, five and seven takes the nine and two with seven.
        let table = cards("9C 2D 5H 7S");
        let fullest = fullest_takes(&table, 9);
        assert!(fullest.len() == 1 && same_cards(&fullest[0], &cards("9C 2D 7S")));
        // Krypkasino: ace, seven, three and a nine laid out: a ten sweeps it all.
        assert!(sweeps(&cards("AC 7D 3H 9S"), 10));
        assert_eq!(sweeping_groups(&cards("AC 7D 3H 9S"), 10), vec![cards("AC 9S"), cards("7D 3H")]);
    }

    #[test]
    fn two_equal_cards_are_one_group() {
        let table = cards("5H 5H 3C 2C");
        assert_eq!(groups(&table, 5), vec![cards("5H"), cards("3C 2C")]);
        assert_eq!(takes(&table, 5).len(), 5);
        assert!(sweeps(&table, 5));
    }

    /// Known counts: the takes of a few fixed tables, for each worth a card may count.
    #[test]
    fn known_counts_of_takes() {
        let table = cards("AC 2D 3H 4S 5C 6D 7H");
        let counts: Vec<usize> = (1..=14).map(|v| takes(&table, v).len()).collect();
        assert_eq!(counts, vec![1, 1, 3, 3, 7, 9, 17, 10, 12, 11, 11, 10, 9, 14]);
        let counts: Vec<usize> = (1..=14).map(|v| takes_by_force(&table, v)).collect();
        assert_eq!(counts, vec![1, 1, 3, 3, 7, 9, 17, 10, 12, 11, 11, 10, 9, 14]);
    }

    /// Every table of up to seven cards from a few random packs: the takes reached step by step
    /// are exactly the sets the brute force finds, a sweep exactly when the whole table splits,
    /// and the groups that keep a sweep in reach exactly those after which the rest splits.
    #[test]
    fn steps_reach_exactly_the_takes_of_the_brute_force() {
        let mut rng = Rng::new(7);
        let two_packs = decks::double(&decks::standard52());
        for round in 0..60 {
            let mut pack = if round % 2 == 0 { decks::standard52() } else { two_packs.clone() };
            rng.shuffle(&mut pack);
            // Low cards make the most groups.
            pack.retain(|&c| low_worth(c) <= 7 || round % 3 == 0);
            let table = &pack[..1 + round % 7];
            for value in 1..=14 {
                let by_steps = takes_by_steps(table, value);
                assert_eq!(by_steps.len(), takes_by_force(table, value), "{table:?} counting {value}");
                assert_eq!(by_steps.len(), takes(table, value).len());
                assert_eq!(sweeps(table, value), splits_by_force(table, value), "{table:?} sweep at {value}");
                for g in sweeping_groups(table, value) {
                    assert!(splits_by_force(&without(table, &g), value));
                }
                for t in fullest_takes(table, value) {
                    assert!(!can_take(&without(table, &t), value), "{t:?} leaves a group");
                }
            }
        }
    }
}
