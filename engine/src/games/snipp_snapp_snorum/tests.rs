use super::*;
use crate::cards::{card, cards};
use crate::simulate::Driver;

type M = Driver<SnippSnappSnorum>;

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

fn lead(code: &str) -> Command {
    Command::Lead { card: card(code) }
}

fn lay(code: &str) -> Command {
    Command::Lay { card: card(code) }
}

#[test]
fn every_card_of_the_rank_goes_down_with_snipp_snapp_snorum() {
    // Four players: seat 1 leads a seven holding two; seat 2 has none and stands over; seat 3
    // lays its seven ("snapp"), and seat 0 the last one ("snorum"), who then leads.
    let mut m = M::new(4, Options::default());
    m.deal(deck(4, &[(1, "7H 7S 2C 3C"), (2, "2D 3D"), (3, "7C 4D"), (0, "7D 5D")]));
    assert_eq!(m.to_act(), [1]);
    let events = m.ok(1, lead("7S"));
    assert_eq!(events[0], Event::Laid { seat: 1, cards: cards("7S 7H"), calls: vec![Call::Snipp] });
    assert_eq!(events[1], Event::StoodOver { seat: 2 });
    assert_eq!(events[2], Event::Laid { seat: 3, cards: cards("7C"), calls: vec![Call::Snapp] });
    assert_eq!(events[3], Event::Laid { seat: 0, cards: cards("7D"), calls: vec![Call::Snorum] });
    assert_eq!(events[4], Event::SequenceClosed { leader: 0, cards: cards("7S 7H 7C 7D") });
    assert_eq!(m.to_act(), [0]);
    assert_eq!(m.refused(0, lay("5D")).rule, rule::ALL_OF_RANK);
    let table = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!((table.pile.len(), table.set_aside.len()), (0, 4));
    assert_eq!(table.stood_over, Some(vec![0, 0, 1, 0]));
}

#[test]
fn a_player_holding_all_four_says_every_word_and_leads_again() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, &[(1, "QC QD QH QS 2C")]));
    let events = m.ok(1, lead("QD"));
    assert_eq!(
        events[0],
        Event::Laid { seat: 1, cards: cards("QD QC QH QS"), calls: vec![Call::Snipp, Call::Snapp, Call::Snorum] }
    );
    assert!(matches!(events[1], Event::SequenceClosed { leader: 1, .. }));
    assert_eq!(m.to_act(), [1]);
}

#[test]
fn the_first_player_out_wins_with_one_point() {
    for jig in [false, true] {
        let mut m = M::new(3, Options { jig });
        m.deal(deck(3, &[]));
        m.finish_deal();
        let Some(Event::DealScored { winner, cards_left, terms, .. }) =
            m.log.iter().find(|e| matches!(e, Event::DealScored { .. })).cloned()
        else {
            panic!("the deal was scored")
        };
        assert_eq!(cards_left[winner], 0);
        assert_eq!((terms[0].to, terms[0].points, terms[0].rule.as_str()), (winner, 1, rule::FIRST_OUT));
        assert!(m.rules.status(&m.state).is_finished());
    }
}

#[test]
fn jig_follows_suit_upward_one_card_a_turn_and_round_after_the_ace() {
    // Seat 1 leads 9H; seat 2 holds TH, JH and KH and chooses; seat 3 has the ace only and lays it
    // by itself; after the ace seat 0 may lay a number card, two to ten.
    let mut m = M::new(4, Options { jig: true });
    m.deal(deck(4, &[(1, "9H 2C"), (2, "JH KH 3C"), (3, "AH 4C"), (0, "5H QH 5C")]));
    m.ok(1, lead("9H"));
    assert_eq!(m.to_act(), [2]);
    assert_eq!(m.legal(2), vec![lay("TH"), lay("JH"), lay("KH")]);
    assert_eq!(m.refused(2, lead("3C")).rule, rule::LEAD);
    assert_eq!(m.refused(2, lay("3C")).rule, rule::JIG_SUIT);
    let events = m.ok(2, lay("JH"));
    assert_eq!(events[1], Event::Laid { seat: 3, cards: cards("AH"), calls: vec![Call::Snapp] });
    // Seat 0: after the ace only a number card (5H), not the queen; with one such card it is
    // laid for him, the fourth card: snorum, and seat 0 leads.
    assert_eq!(events[2], Event::Laid { seat: 0, cards: cards("5H"), calls: vec![Call::Snorum] });
    assert!(matches!(events[3], Event::SequenceClosed { leader: 0, .. }));
    assert_eq!(m.to_act(), [0]);
}

#[test]
fn jig_closes_a_round_nobody_can_follow_and_its_last_player_leads() {
    let mut m = M::new(3, Options { jig: true });
    m.deal(deck(3, &[(1, "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2C")]));
    // Nobody else holds a spade: after the king a round of stand-overs closes the sequence (its
    // player's own ace does not count), and seat 1 leads again.
    let events = m.ok(1, lead("KS"));
    assert_eq!(events[1..3], [Event::StoodOver { seat: 2 }, Event::StoodOver { seat: 0 }]);
    assert_eq!(events[3], Event::SequenceClosed { leader: 1, cards: cards("KS") });
    assert_eq!(m.to_act(), [1]);
}

#[test]
fn a_seat_sees_its_own_hand_only() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(2, &[]));
    let view = serde_json::to_value(m.rules.view(&m.state, Viewer::Seat(1))).unwrap();
    assert!(view.get("hands").is_none() && view.get("deck").is_none());
    assert_eq!(view["hand"].as_array().unwrap().len(), 26);
    let first = m.rules.redact(&m.state, &m.log[0], Viewer::Seat(1), false);
    assert!(first["deck"].is_null() && first["hands"][0].is_null() && first["hands"][1].is_array());
}
