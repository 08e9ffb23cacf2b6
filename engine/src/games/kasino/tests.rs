use super::*;
use crate::cards::{card, cards};
use crate::simulate::Driver;
use serde_json::json;

type M = Driver<Kasino>;

/// A deck whose first round gives each seat (from dealer 0's left) the four cards `hands` names
/// and lays `table` face up, the rest of the pack following in `rest`'s order, then pack order.
fn deck(hands: &[&str], table: &str, rest: &str) -> Vec<Card> {
    let n = hands.len();
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let table = cards(table);
    let mut deck = Vec::new();
    for half in 0..2 {
        for k in 1..=n {
            deck.extend(&hands[k % n][2 * half..2 * half + 2]);
        }
        deck.extend(&table[2 * half..2 * half + 2]);
    }
    deck.extend(cards(rest));
    deck.extend(decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect::<Vec<_>>());
    assert!(is_permutation(&deck, &decks::standard52()));
    deck
}

fn take_with(code: &str, worth: u8) -> Command {
    Command::TakeWith { card: card(code), worth }
}

fn take(codes: &str) -> Command {
    Command::Take { group: cards(codes) }
}

fn lay_out(code: &str) -> Command {
    Command::LayOut { card: card(code) }
}

fn table(m: &M) -> Vec<Card> {
    m.state.deals.deal.as_ref().unwrap().table.cards().to_vec()
}

#[test]
fn the_first_round_deals_two_and_two_with_four_on_the_table() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(&["9C 8C 7C 6C", "9H 8H 7H 6H"], "2D 3D 4D 5D", ""));
    let deal = m.state.deals.deal.as_ref().unwrap();
    assert_eq!(deal.hands[1], cards("9H 8H 7H 6H").into_iter().collect::<Vec<_>>().tap_sorted());
    assert_eq!(table(&m), cards("2D 3D 4D 5D"));
    assert_eq!(deal.stock.len(), 40);
    assert_eq!(m.to_act(), [1]);
}

trait Sorted {
    fn tap_sorted(self) -> Self;
}

impl Sorted for Vec<Card> {
    fn tap_sorted(self) -> Self {
        sorted(self)
    }
}

#[test]
fn the_texts_examples_a_nine_takes_a_nine_and_a_queen_takes_two_three_and_seven() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(&["9C 8C 5C 6C", "9H QH 5H 6H"], "9D 2C 3D 7S", ""));
    assert!(m.legal(1).contains(&take_with("9H", 9)));
    m.ok(1, take_with("9H", 9));
    // Two ways to make nine: the nine alone, or two and seven.
    assert_eq!(m.legal(1), vec![take("9D"), take("2C 7S")]);
    m.ok(1, take("9D"));
    // Two and seven are still nine: the player may take them too, or stop.
    assert_eq!(m.legal(1), vec![take("2C 7S"), Command::Stop]);
    let events = m.ok(1, Command::Stop);
    assert!(
        matches!(&events[0], Event::TakeEnded { cards, tabbe: false, .. } if *cards == crate::cards::cards("9H 9D"))
    );
    assert_eq!(table(&m), cards("2C 3D 7S"));
    // Seat 0 lays out an eight; seat 1's queen takes two, three and seven, twelve together.
    m.ok(0, lay_out("8C"));
    m.ok(1, take_with("QH", 12));
    assert_eq!(m.legal(1), vec![take("2C 3D 7S")]);
    m.ok(1, take("2C 3D 7S"));
    assert_eq!(table(&m), cards("8C"));
}

#[test]
fn several_groups_in_one_take_and_a_sweep_is_a_tabbe_that_forces_a_lay_out() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(&["9C 8C 7C 6C", "TH QH 2H 6H"], "AD 9D 3S 7S", ""));
    m.ok(1, take_with("TH", 10));
    assert_eq!(m.legal(1), vec![take("AD 9D"), take("3S 7S")]);
    assert_eq!(m.refused(1, take("9D 3S")).rule, rule::TAKE);
    assert_eq!(m.refused(1, take("AD AD")).rule, rule::GROUPS);
    m.ok(1, take("AD 9D"));
    let events = m.ok(1, take("3S 7S"));
    let Event::TakeEnded { tabbe, terms, .. } = &events[1] else { panic!("{events:?}") };
    assert!(tabbe);
    let rules: Vec<&str> = terms.iter().map(|t| t.rule.as_str()).collect();
    assert_eq!(rules, [rule::ACES, rule::TABBE_POINT]);
    assert_eq!(m.state.deals.scores, vec![0, 2]);
    // The table is empty: seat 0 can only lay out.
    assert!(m.legal(0).iter().all(|c| matches!(c, Command::LayOut { .. })));
    assert_eq!(m.refused(0, take_with("9C", 9)).rule, rule::TAKE);
}

#[test]
fn an_ace_counts_one_or_fourteen_and_laying_out_is_allowed_when_a_take_is_possible() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(&["9C 8C 7C 6C", "AH QH 2H 6H"], "AD KD 3S 7S", ""));
    let legal = m.legal(1);
    assert!(legal.contains(&take_with("AH", 1)) && legal.contains(&take_with("AH", 14)));
    assert!(legal.contains(&lay_out("6H")) && legal.contains(&lay_out("AH")));
    assert_eq!(m.refused(1, take_with("QH", 14)).rule, rule::ACE);
    m.ok(1, take_with("AH", 14));
    // Fourteen: the ace alone (as 14), or the king with the ace (as 1), or seven with...
    assert!(m.legal(1).contains(&take("AD")) && m.legal(1).contains(&take("AD KD")));
    m.ok(1, take("AD KD"));
    assert_eq!(m.to_act(), [0]);
    assert_eq!(m.state.deals.scores, vec![0, 2]);
}

#[test]
fn the_last_taker_gets_sistan_and_most_cards_and_spades_score_at_the_end() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(&["9C 8C 7C 6C", "9H 8H 7H 6H"], "9D 8D 7D 6D", ""));
    // Everyone plays the last of its moves: a take where there is one.
    let mut events = Vec::new();
    while let [seat, ..] = m.to_act()[..] {
        let last = m.legal(seat).pop().unwrap();
        events.extend(m.ok(seat, last));
    }
    let scored = events.iter().find_map(|e| match e {
        Event::DealScored { breakdown, points, .. } => Some((breakdown.clone(), points.clone())),
        _ => None,
    });
    let (breakdown, points) = scored.expect("the deal is scored");
    assert_eq!(breakdown.iter().map(|t| t.points).sum::<i64>(), points.iter().sum::<i64>());
    assert!(breakdown.iter().any(|t| t.rule == rule::SISTAN_POINT));
    let tabbar: i64 = breakdown.iter().filter(|t| t.rule == rule::TABBE_POINT).map(|t| t.points).sum();
    assert!(points.iter().sum::<i64>() <= 11 + tabbar);
}

#[test]
fn the_first_to_sixteen_wins_at_once_in_the_middle_of_a_deal() {
    let mut m = M::new(2, Options { target: 2, deal_limit: 50 });
    m.deal(deck(&["9C 8C 7C 6C", "TH QH 2H 6H"], "TD 9D 3S 7S", ""));
    m.ok(1, take_with("TH", 10));
    m.ok(1, take("TD"));
    // Storan is two points, counted when the take is over.
    let events = m.ok(1, Command::Stop);
    assert!(matches!(events.last(), Some(Event::MatchEnded { winners, .. }) if *winners == vec![1]));
    assert!(m.to_act().is_empty());
}

#[test]
fn others_see_neither_hands_nor_the_stock() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(&["9C 8C 7C 6C", "9H 8H 7H 6H"], "9D 8D 7D 6D", ""));
    let view = serde_json::to_value(Kasino.view(&m.state, Viewer::Seat(0))).unwrap();
    assert_eq!(view["hand_sizes"], json!([4, 4]));
    assert!(view.get("hands").is_none() && view.get("stock").is_none());
    assert_eq!(view["layout"], json!(["9D", "8D", "7D", "6D"]));
}
