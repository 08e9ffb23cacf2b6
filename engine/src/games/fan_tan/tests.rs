use super::*;
use crate::cards::{card, cards, is_permutation};
use crate::simulate::Driver;

type M = Driver<FanTan>;

/// A deck dealt one card at a time from dealer 0's left that gives each seat the cards `fixed`
/// names for it, the rest of the pack filling the hands in pack order.
fn deck(players: usize, fixed: &[(Seat, &str)]) -> Vec<Card> {
    let sizes: Vec<usize> = (0..players).map(|s| (0..52).filter(|i| (1 + i) % players == s).count()).collect();
    let mut hands: Vec<Vec<Card>> = vec![Vec::new(); players];
    for &(s, codes) in fixed {
        hands[s].extend(cards(codes));
    }
    let mut rest: Vec<Card> =
        decks::standard52().into_iter().filter(|c| !hands.iter().any(|h| h.contains(c))).collect();
    for (s, hand) in hands.iter_mut().enumerate() {
        while hand.len() < sizes[s] {
            hand.push(rest.remove(0));
        }
    }
    let mut next = vec![0; players];
    let deck: Vec<Card> = (0..52)
        .map(|i| {
            let s = (1 + i) % players;
            next[s] += 1;
            hands[s][next[s] - 1]
        })
        .collect();
    assert!(is_permutation(&deck, &decks::standard52()));
    deck
}

fn lay(codes: &str) -> Command {
    Command::Lay { cards: cards(codes) }
}

#[test]
fn forehand_without_a_seven_is_passed_and_the_next_seven_begins() {
    let mut m = M::new(3, Options::default());
    let events = m.deal(deck(3, &[(2, "7H 7S 8H"), (0, "7C 7D")]));
    assert_eq!(events[1], Event::Passed { seat: 1 });
    assert_eq!(m.to_act(), [2]);
    // Only a seven can start: seat 2 may lay either of its sevens and nothing else.
    assert_eq!(m.legal(2), vec![lay("7H"), lay("7S")]);
    assert_eq!(m.refused(2, lay("8H")).rule, rule::BUILD);
}

#[test]
fn rows_grow_from_the_seven_down_to_the_ace_and_up_to_the_king() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, &[(1, "7H 5H 8S"), (2, "6H 8H 7S"), (0, "9H 4H 6S KH")]));
    assert_eq!(m.to_act(), [1]);
    assert_eq!(m.refused(1, lay("5H")).rule, rule::BUILD);
    assert_eq!(m.refused(1, lay("7H 5H")).rule, rule::ONE_CARD);
    m.ok(1, lay("7H"));
    // The eight above the seven or the six below it, or another seven beside it.
    assert!(m.legal(2).contains(&lay("8H")) && m.legal(2).contains(&lay("6H")) && m.legal(2).contains(&lay("7S")));
    m.ok(2, lay("8H"));
    assert_eq!(m.refused(0, lay("KH")).rule, rule::BUILD);
    m.ok(0, lay("9H"));
    // No eight of spades before its seven.
    assert_eq!(m.refused(1, lay("8S")).rule, rule::BUILD);
    let table = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!(table.layout[0].cards, cards("7H 8H 9H"));
}

#[test]
fn a_player_who_cannot_lay_is_passed_and_the_last_to_lay_goes_again() {
    // Three players; seat 1 holds every heart from the seven up, the others none of them, nor a
    // seven, nor the six of hearts: after 7H the others pass until seat 1 lays again.
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, &[(1, "7H 8H 9H TH JH QH KH 6H 7C 7D 7S"), (2, "2C"), (0, "3C")]));
    let events = m.ok(1, lay("7H"));
    // Seat 2 and seat 0 hold nothing that fits (every seven and the six and eight are seat 1's).
    assert_eq!(events[1..], [Event::Passed { seat: 2 }, Event::Passed { seat: 0 }]);
    assert_eq!(m.to_act(), [1]);
    let table = m.rules.view(&m.state, Viewer::Seat(1));
    assert_eq!(table.passes, Some(vec![1, 0, 1]));
}

#[test]
fn the_first_player_out_wins_the_match_with_one_point() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, &[]));
    while m.to_act().len() == 1 {
        let seat = m.to_act()[0];
        let first = m.legal(seat).remove(0);
        m.ok(seat, first);
    }
    let Some(Event::DealScored { winner, cards_left, terms, scores, .. }) =
        m.log.iter().find(|e| matches!(e, Event::DealScored { .. })).cloned()
    else {
        panic!("the deal was scored")
    };
    assert_eq!(cards_left[winner], 0);
    assert!(cards_left.iter().enumerate().all(|(s, &n)| s == winner || n > 0));
    assert_eq!(terms.len(), 1);
    assert_eq!((terms[0].to, terms[0].points, terms[0].rule.as_str()), (winner, 1, rule::FIRST_OUT));
    assert_eq!(scores.iter().sum::<i64>(), 1);
    assert!(matches!(m.log.last(), Some(Event::MatchEnded { winners, .. }) if *winners == vec![winner]));
    assert!(m.rules.status(&m.state).is_finished());
}

#[test]
fn free_fan_tan_starts_anywhere_builds_round_the_king_and_lays_runs() {
    let mut m = M::new(4, Options { free: true });
    m.deal(deck(4, &[(1, "QH KH AH 2H 5C"), (2, "3H 9S"), (3, "4H"), (0, "TS")]));
    // Any first card; a run upward in one suit, round the king to the ace.
    assert_eq!(m.refused(1, lay("QH AH")).rule, rule::FREE_RUN);
    assert_eq!(m.refused(1, lay("QH KH 5C")).rule, rule::FREE_RUN);
    assert!(m.legal(1).contains(&lay("QH KH AH 2H")));
    m.ok(1, lay("QH KH AH"));
    // Hearts now go on with the two only; a new suit starts with any card of it.
    assert_eq!(m.refused(2, lay("3H")).rule, rule::FREE_BUILD);
    assert_eq!(m.refused(2, lay("TS")).rule, crate::rules::core::CARD_NOT_HELD);
    m.ok(2, lay("9S"));
    let table = m.rules.view(&m.state, Viewer::Spectator);
    let hearts = table.layout.iter().find(|r| r.suit == crate::cards::Suit::Hearts).unwrap();
    assert_eq!(hearts.cards, cards("QH KH AH"));
}

#[test]
fn a_seat_sees_its_own_hand_only() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, &[]));
    let view = serde_json::to_value(m.rules.view(&m.state, Viewer::Seat(0))).unwrap();
    assert!(view.get("hands").is_none() && view.get("deck").is_none());
    assert_eq!(view["hand"].as_array().unwrap().len(), 17);
    let first = m.rules.redact(&m.state, &m.log[0], Viewer::Seat(0), false);
    assert!(first["deck"].is_null() && first["hands"][1].is_null() && first["hands"][0].is_array());
    assert!(m
        .rules
        .secrets(&m.state)
        .iter()
        .all(|(c, who)| who.len() == 1 && m.rules.view(&m.state, Viewer::Seat(who[0])).hand.unwrap().contains(c)));
    let _ = card("2C");
}
