use super::*;
use crate::cards::{card, cards, is_permutation};
use crate::game::Status;
use crate::simulate::Driver;

type M = Driver<TvartomKomIhag>;

/// The pack spread with `first` at the first positions, the rest in pack order.
fn deck(first: &str) -> Vec<Card> {
    let mut deck = cards(first);
    deck.extend(decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect::<Vec<_>>());
    assert!(is_permutation(&deck, &decks::standard52()));
    deck
}

fn started(players: usize, scoring: Scoring, first: &str) -> M {
    let mut m = M::new(players, Options { scoring });
    m.deal(deck(first));
    m
}

fn turn(position: usize) -> Command {
    Command::Turn { position }
}

fn face(m: &M, viewer: Viewer, position: usize) -> Option<Card> {
    let places = m.rules.view(&m.state, viewer).places.unwrap();
    places.into_iter().find(|p| p.position == position).and_then(|p| p.card)
}

const VIEWERS: [Viewer; 3] = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator];

#[test]
fn klarabella_turns_a_four_an_ace_an_eight_a_five_and_an_ace_and_busts() {
    let mut m = started(2, Scoring::Cards, "4H AS 8D 5C AH");
    assert_eq!(m.refused(1, Command::Stop).rule, rule::STOP, "nothing turned yet");
    for p in 0..4 {
        m.ok(1, turn(p));
    }
    assert!(m.legal(1).contains(&Command::Stop));
    let events = m.ok(1, turn(4));
    assert_eq!(events[1], Event::Busted { seat: 1, position: 4, next: 0 });
    for v in VIEWERS {
        assert_eq!(face(&m, v, 4), Some(card("AH")), "the bust is seen before it goes back");
    }
    let events = m.ok(0, turn(5));
    assert_eq!(events[0], Event::TurnedBack { positions: vec![0, 1, 2, 3, 4] });
    for v in VIEWERS {
        assert_eq!((0..5).filter_map(|p| face(&m, v, p)).count(), 0);
        // The one who went bust may still look at his cards until his next turn begins; the
        // player who turned them back, and a spectator, no longer see them.
        let turned_back = m.rules.view(&m.state, v).turned_back.unwrap_or_default();
        let shown: Vec<Card> =
            m.log[1..6].iter().flat_map(|e| crate::game::cards_in(&m.rules.redact(&m.state, e, v, false))).collect();
        match v {
            Viewer::Seat(1) => {
                assert_eq!(turned_back.iter().filter_map(|p| p.card).collect::<Vec<_>>(), cards("4H AS 8D 5C AH"));
                assert_eq!(shown, cards("4H AS 8D 5C AH"));
            }
            _ => assert!(turned_back.is_empty() && shown.is_empty(), "{v:?} {turned_back:?} {shown:?}"),
        }
    }
    m.ok(0, Command::Stop);
    m.ok(1, turn(6));
    assert!(m.rules.view(&m.state, Viewer::Seat(1)).turned_back.unwrap().is_empty(), "forgotten once his turn began");
    let shown: Vec<Card> = m.log[1..6]
        .iter()
        .flat_map(|e| crate::game::cards_in(&m.rules.redact(&m.state, e, Viewer::Seat(1), false)))
        .collect();
    assert!(shown.is_empty(), "{shown:?}");
    let secrets = m.rules.secrets(&m.state);
    assert!(secrets.contains(&(card("AS"), vec![0, 1])) && secrets.contains(&(card("7S"), vec![])));
}

#[test]
fn stopping_takes_the_turns_cards_into_a_heap_that_stays_shown() {
    let mut m = started(2, Scoring::Cards, "4H AS");
    m.ok(1, turn(0));
    m.ok(1, turn(1));
    let events = m.ok(1, Command::Stop);
    assert_eq!(events, [Event::HeapTaken { seat: 1, positions: vec![0, 1], cards: cards("4H AS"), next: 0 }]);
    for v in VIEWERS {
        assert_eq!(m.rules.view(&m.state, v).heaps.unwrap()[1], cards("4H AS"));
        assert_eq!(m.rules.redact(&m.state, &m.log[1], v, false)["card"], "4H");
    }
    assert_eq!(m.refused(0, turn(0)).rule, rule::FACE_DOWN, "a taken place is empty");
}

#[test]
fn every_scoring_counts_its_own_way_and_the_last_cards_end_the_deal() {
    for (scoring, want) in
        [(Scoring::Cards, [0, 52]), (Scoring::Points, [0, 4 * (54 + 40)]), (Scoring::Simple, [0, 4 * (30 + 45 + 1)])]
    {
        let mut m = started(2, scoring, "");
        let d = m.state.deals.deal.as_mut().unwrap();
        // Seat 1 holds every card but the last, which it then turns and takes.
        for p in 0..51 {
            let c = d.spread.take(p);
            d.heaps[1].push(c);
        }
        let events = m.ok(1, turn(51));
        assert!(matches!(events[1], Event::HeapTaken { seat: 1, .. }), "{events:?}");
        let Some(Event::DealScored { scores, .. }) = events.iter().find(|e| matches!(e, Event::DealScored { .. }))
        else {
            panic!("no score")
        };
        assert_eq!(scores[..], want, "{scoring:?}");
        let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!("not over") };
        assert_eq!(outcome.winners, vec![1]);
    }
    assert_eq!(value(card("KH"), Scoring::Points), 10);
    assert_eq!(value(card("7H"), Scoring::Points), 7);
    assert_eq!(value(card("AH"), Scoring::Simple), 1);
}

#[test]
fn ties_share_the_win() {
    let mut m = started(2, Scoring::Cards, "");
    let d = m.state.deals.deal.as_mut().unwrap();
    for p in 0..52 {
        let c = d.spread.take(p);
        d.heaps[p % 2].push(c);
    }
    let events = run(&m.state, Vec::new());
    m.apply(events);
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!("not over") };
    assert_eq!(outcome.winners, vec![0, 1]);
}

#[test]
fn the_strong_bot_takes_what_it_remembers_and_stops_when_a_bust_is_likely() {
    let mut m = started(2, Scoring::Cards, "4H AS 8D 5C AH");
    for p in 0..5 {
        m.ok(1, turn(p));
    }
    // Seat 0 remembers all five: it turns them, a rank at a time (4H, AS or AH, 8D, 5C).
    assert_eq!(m.rules.bot_candidates(&m.state, 0), [turn(4)], "the ace seen last first");
    m.ok(0, turn(4));
    assert_eq!(m.rules.bot_candidates(&m.state, 0), [turn(3)]);
    m.ok(0, turn(3));
    m.ok(0, turn(2));
    m.ok(0, turn(0));
    // Four ranks up: the chance of a bust is 12 in 47 unseen, worth more than 1 in 5.
    assert_eq!(m.rules.bot_candidates(&m.state, 0), [Command::Stop]);
}
