use super::*;
use crate::cards::{card, cards};
use crate::simulate::Driver;

type M = Driver<SvaltaRav>;

/// A deck dealt by seat 0 whose seats, from forehand (seat 1) on, get first the cards `tops`
/// names (seat by seat, top card first), the rest of the pack after them in pack order.
fn deck(tops: &[&str]) -> Vec<Card> {
    let tops: Vec<Vec<Card>> = tops.iter().map(|t| cards(t)).collect();
    let n = tops.len();
    let mut rest = decks::standard52().into_iter().filter(|c| !tops.iter().flatten().any(|t| t == c));
    let deck: Vec<Card> =
        (0..52).map(|i| tops[i % n].get(i / n).copied().unwrap_or_else(|| rest.next().expect("a card left"))).collect();
    assert!(is_permutation(&deck, &decks::standard52()));
    deck
}

fn second(round_limit: u32) -> Options {
    Options { variant: Variant::Second, round_limit, ..Options::default() }
}

fn won(seat: Seat, codes: &str) -> Event {
    Event::CardsWon { seat, cards: cards(codes) }
}

#[test]
fn the_texts_example_of_the_first_variant() {
    // Erik (seat 1) turns 8♥, Sara (seat 2) 5♣, Linn (seat 0) Q♥: Linn takes the queen and the
    // eight; Sara's five, alone in its suit, goes back under her own pile.
    let mut m = M::new(3, Options::default());
    m.deal(deck(&["8H", "5C", "QH"]));
    assert_eq!(m.to_act(), [0, 1, 2], "everyone turns at once");
    assert_eq!(m.ok(2, Command::Turn), [Event::CardTurned { seat: 2, card: card("5C") }]);
    m.ok(1, Command::Turn);
    assert_eq!(m.to_act(), [0]);
    let events = m.ok(0, Command::Turn);
    assert_eq!(events[1..], [won(0, "QH 8H"), won(2, "5C")]);
    let t = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!(t.pile_sizes, Some(vec![18, 16, 17]), "17 each, one card put aside");
    assert_eq!(m.to_act(), [0, 1, 2]);
}

#[test]
fn rounds_without_a_capture_end_the_first_variant() {
    // Seat 1's ace takes seat 0's two; then two rounds in different suits end the game.
    let mut m = M::new(2, Options { quiet_rounds: 2, ..Options::default() });
    m.deal(deck(&["AH KH QH", "2H AS KS"]));
    for _ in 0..2 {
        m.ok(1, Command::Turn);
        m.ok(0, Command::Turn);
    }
    m.ok(1, Command::Turn);
    let events = m.ok(0, Command::Turn);
    let Some(Event::DealScored { ending, cards, .. }) = events.iter().rev().nth(1) else { panic!("{events:?}") };
    assert_eq!((*ending, cards.clone()), (Ending::NoCaptures, vec![25, 27]));
    assert!(matches!(m.rules.status(&m.state), crate::game::Status::Finished { outcome } if outcome.winners == [1]));
}

#[test]
fn the_texts_first_example_of_the_second_variant() {
    // Musse (seat 1) turns a queen on number cards; Mimmi's two cards are number cards, so
    // Musse wins the pile and puts it under his own, then starts the next pile.
    let mut m = M::new(2, second(1_000));
    m.deal(deck(&["2C QH", "3C 4C 5C"]));
    m.ok(1, Command::Turn);
    m.ok(0, Command::Turn);
    m.ok(1, Command::Turn);
    assert_eq!(m.to_act(), [0]);
    assert_eq!(m.rules.view(&m.state, Viewer::Spectator).owed, Some(2));
    m.ok(0, Command::Turn);
    assert_eq!(m.to_act(), [0], "she pays a second card");
    let events = m.ok(0, Command::Turn);
    assert_eq!(events[1..], [won(1, "2C 3C QH 4C 5C")]);
    assert_eq!(m.to_act(), [1], "the winner starts the next pile");
    let t = m.rules.view(&m.state, Viewer::Record);
    assert_eq!(t.piles.unwrap()[1][24..], cards("2C 3C QH 4C 5C"), "the pile goes under as it lay");
}

#[test]
fn the_texts_second_example_of_the_second_variant() {
    // Musse turns a king; Mimmi's second card is a queen, so Musse pays; his first card is a
    // jack, and Mimmi's one card for it is a number card: Musse wins all five.
    let mut m = M::new(2, second(1_000));
    m.deal(deck(&["KH JD", "2D QD 3D"]));
    m.ok(1, Command::Turn);
    m.ok(0, Command::Turn);
    m.ok(0, Command::Turn);
    assert_eq!(m.to_act(), [1], "the queen turns the tables");
    m.ok(1, Command::Turn);
    let events = m.ok(0, Command::Turn);
    assert_eq!(events[1..], [won(1, "KH 2D QD JD 3D")]);
}

#[test]
fn the_house_cap_ends_the_second_variant_with_the_most_cards() {
    let mut m = M::new(2, second(1));
    m.deal(deck(&["2C QH", "3C 4C 5C"]));
    for seat in [1, 0, 1, 0] {
        m.ok(seat, Command::Turn);
    }
    let events = m.ok(0, Command::Turn);
    assert!(matches!(events[2], Event::DealScored { ending: Ending::RoundLimit, ref cards, .. } if *cards == [23, 29]));
    assert!(matches!(m.rules.status(&m.state), crate::game::Status::Finished { outcome } if outcome.winners == [1]));
}

#[test]
fn the_second_variant_is_for_two_and_the_limits_are_bounded() {
    assert!(SvaltaRav.setup(3, second(10)).is_err());
    assert!(SvaltaRav.setup(2, Options { round_limit: 0, ..Options::default() }).is_err());
    assert!(SvaltaRav.setup(2, Options { quiet_rounds: 1_001, ..Options::default() }).is_err());
}

#[test]
fn nobody_sees_a_pile_until_its_cards_are_turned() {
    let mut m = M::new(3, Options::default());
    let events = m.deal(deck(&["8H", "5C", "QH"]));
    let seen = m.rules.redact(&m.state, &events[0], Viewer::Seat(1), false);
    assert!(seen["piles"].as_array().unwrap().iter().flat_map(|p| p.as_array().unwrap()).all(Value::is_null));
    assert!(seen["deck"].as_array().unwrap().iter().all(Value::is_null) && seen["set_aside"][0].is_null());
    let secrets = m.rules.secrets(&m.state);
    assert_eq!(secrets.len(), 52);
    assert!(secrets.iter().all(|(_, knowers)| knowers.is_empty()), "not even the owner looks");
}
