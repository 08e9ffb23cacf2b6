use super::*;
use crate::cards::{card, cards, Rank, Suit};
use crate::game::Status;
use crate::simulate::Driver;

type M = Driver<LojligaFamiljerna>;

/// The pack in rank order, clubs to spades within a rank: dealt from seat 0 to three players,
/// every seat gets cards of every rank and no quartet.
fn by_rank() -> Vec<Card> {
    (2..=14).flat_map(|r| Suit::ALL.map(|suit| Card::Suited { rank: Rank::new(r).unwrap(), suit })).collect()
}

fn started(deck: Vec<Card>) -> M {
    let mut m = M::new(3, Options::default());
    m.deal(deck);
    m
}

fn deal(m: &M) -> &Deal {
    m.state.deals.deal.as_ref().unwrap()
}

fn ask(target: Seat, rank: u8) -> Command {
    Command::Ask { target, rank }
}

/// The deal as it stands late: the ranks of `laid` down as quartets (by the seat given), the
/// hands as given, `turn` to ask.
fn late(m: &mut M, laid: &[(Seat, u8)], hands: [&str; 3], turn: Seat) {
    let d = m.state.deals.deal.as_mut().unwrap();
    let mut a = Asking::new(hands.iter().map(|h| cards(h)).collect());
    for &(s, r) in laid {
        a.quartets[s].push(r);
    }
    d.asking = a;
    d.turn = turn;
    m.rules.check_invariants(&m.state).unwrap();
}

#[test]
fn forehand_asks_mans_for_nines_gets_them_all_and_asks_again_until_the_quartet_is_down() {
    let mut m = started(by_rank());
    assert_eq!(m.to_act(), [1], "forehand, after the dealer, asks first");
    assert_eq!(deal(&m).asking.hands.iter().map(Vec::len).collect::<Vec<_>>(), [17, 18, 17], "hands may differ");
    // Seat 2 is Måns: "Måns, har du några nior?"
    let events = m.ok(1, ask(2, 9));
    assert_eq!(
        events,
        [Event::Asked { seat: 1, target: 2, rank: 9 }, Event::HandedOver { from: 2, to: 1, cards: cards("9C 9S") }]
    );
    assert_eq!(m.to_act(), [1], "he had nines: ask again");
    let t = m.rules.view(&m.state, Viewer::Seat(0));
    assert_eq!(t.asking.public_cards, Some(vec![vec![], cards("9C 9S"), vec![]]), "handed over face up");
    assert!(!m.rules.secrets(&m.state).iter().any(|(c, _)| cards("9C 9S").contains(c)));
    let events = m.ok(1, ask(0, 9));
    assert_eq!(events[2], Event::QuartetLaid { seat: 1, rank: 9, cards: cards("9C 9D 9H 9S") });
    assert_eq!(deal(&m).asking.quartets[1], [9]);
    assert_eq!(m.to_act(), [1]);
    assert_eq!(m.refused(1, ask(0, 9)).rule, rule::OWN_RANK, "a rank laid is asked for by nobody");
    let t = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!(
        (t.asking.quartets, t.asking.public_cards),
        (Some(vec![vec![], vec![9], vec![]]), Some(vec![vec![]; 3]))
    );
}

#[test]
fn an_ask_needs_a_rank_held_and_another_player_holding_cards() {
    let mut m = started(by_rank());
    late(
        &mut m,
        &[(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 7), (1, 8), (1, 9), (2, 10), (2, 11)],
        ["QC QD KC", "QH KD AC AD", "QS KH KS AH AS"],
        1,
    );
    assert_eq!(m.refused(1, ask(2, 5)).rule, rule::OWN_RANK);
    assert_eq!(m.refused(1, ask(1, 12)).rule, rule::TARGET, "not himself");
    assert_eq!(m.legal(1).len(), 6, "two seats, three ranks");
    late(
        &mut m,
        &[(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 7), (1, 8), (1, 9), (2, 10), (2, 11), (1, 12)],
        ["", "KD AC AD", "KC KH KS AH AS"],
        1,
    );
    assert_eq!(m.refused(1, ask(0, 13)).rule, rule::TARGET, "seat 0 holds no cards");
    assert!(m.refused(1, ask(0, 13)).explanation.en.contains("seat 0"));
    assert_eq!(m.legal(1), [ask(2, 13), ask(2, 14)]);
}

#[test]
fn an_ask_answered_no_gives_the_turn_to_the_asked() {
    let mut m = started(by_rank());
    late(
        &mut m,
        &[(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 7), (1, 8), (1, 9), (2, 10), (2, 11)],
        ["QC QD KC", "QH KD AC AD", "QS KH KS AH AS"],
        1,
    );
    let events = m.ok(1, ask(0, 14));
    assert_eq!(events[1], Event::Lacked { seat: 0, rank: 14 });
    assert_eq!(m.to_act(), [0]);
    assert_eq!(deal(&m).asking.lacks[0], [14], "the table remembers");
}

#[test]
fn a_quartet_dealt_is_laid_at_once() {
    let mut deck = by_rank();
    deck.swap(1, 6); // 2D to seat 1, 3H to seat 2
    deck.swap(2, 9); // 2H to seat 1, 4D to seat 0
    let m = started(deck);
    assert_eq!(m.log[1], Event::QuartetLaid { seat: 1, rank: 2, cards: cards("2C 2D 2H 2S") });
    assert_eq!(deal(&m).asking.hands[1].len(), 14);
}

#[test]
fn a_player_out_of_cards_is_passed_over_and_the_last_quartet_ends_the_deal_with_a_shared_win() {
    let mut m = started(by_rank());
    let laid = [(0, 2), (0, 3), (0, 4), (0, 5), (1, 6), (1, 7), (1, 8), (2, 9), (2, 10), (2, 11), (0, 14)];
    late(&mut m, &laid, ["KD KH KS", "QC QD QH", "QS KC"], 1);
    let events = m.ok(1, ask(2, 12));
    assert_eq!(
        events[2..],
        [Event::QuartetLaid { seat: 1, rank: 12, cards: cards("QC QD QH QS") }, Event::TurnPassed { from: 1, to: 2 }]
    );
    let events = m.ok(2, ask(0, 13));
    let Some(Event::DealScored { quartets, terms, .. }) = events.iter().find(|e| matches!(e, Event::DealScored { .. }))
    else {
        panic!("{events:?}")
    };
    assert_eq!(quartets, &[5, 4, 4]);
    assert_eq!(terms.iter().map(|t| (t.to, t.points)).collect::<Vec<_>>(), [(0, 5), (1, 4), (2, 4)]);
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!() };
    assert_eq!(outcome.winners, [0]);
}

#[test]
fn players_level_on_the_most_quartets_share_the_win() {
    let mut m = started(by_rank());
    let laid = [(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 7), (1, 8), (1, 9), (1, 10), (2, 11), (2, 14)];
    late(&mut m, &laid, ["KD KH KS", "QC QD QH", "QS KC"], 1);
    m.ok(1, ask(2, 12));
    m.ok(2, ask(0, 13));
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!() };
    assert_eq!(outcome.winners, [0, 1]);
}

#[test]
fn asks_answered_no_too_long_stop_the_deal() {
    let mut m = started(by_rank());
    late(
        &mut m,
        &[(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 7), (1, 8), (1, 9), (2, 10), (2, 11)],
        ["QC QD KC", "QH KD AC AD", "QS KH KS AH AS"],
        1,
    );
    m.state.deals.deal.as_mut().unwrap().asking.idle = asking::STALL_ASKS - 1;
    let events = m.ok(1, ask(0, 14));
    assert!(events.contains(&Event::AskingStopped { asks: asking::STALL_ASKS }), "{events:?}");
    assert!(m.rules.status(&m.state).is_finished());
}

#[test]
fn a_seat_sees_its_own_hand_and_what_was_handed_over_and_nothing_else() {
    let mut m = started(by_rank());
    let first = m.rules.redact(&m.state, &m.log[0], Viewer::Seat(0), false);
    assert_eq!(first["hands"][0], serde_json::json!(deal(&m).asking.hands[0]));
    assert!(first["hands"][1].is_null() && first["deck"].is_null());
    assert_eq!(first["hand_sizes"], serde_json::json!([17, 18, 17]));
    let t = m.rules.view(&m.state, Viewer::Seat(2));
    assert_eq!((t.asking.hand.map(|h| h.len()), t.asking.hands), (Some(17), None));
    assert!(m.rules.view(&m.state, Viewer::Record).asking.hands.is_some());
    m.ok(1, ask(2, 9));
    let secrets = m.rules.secrets(&m.state);
    assert!(secrets.contains(&(card("9H"), vec![1])), "the nine he held is still his secret");
    assert_eq!(secrets.len(), 50);
    // The strong bot asks where the nines are known to be: nowhere now (seat 0's is unseen), so
    // the rank it holds most of, of the seat with the most unseen cards.
    let strong = crate::bots::choose(&m.rules, &m.state, 1, crate::bots::Level::Strong, 7);
    assert_eq!(strong, Some(ask(0, 9)));
}
