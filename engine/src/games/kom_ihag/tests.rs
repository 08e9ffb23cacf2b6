use super::*;
use crate::cards::{card, cards, is_permutation};
use crate::game::Status;
use crate::simulate::Driver;

type M = Driver<KomIhag>;

/// The pack spread with `first` at the first positions, the rest in pack order.
fn deck(first: &str) -> Vec<Card> {
    let mut deck = cards(first);
    deck.extend(decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect::<Vec<_>>());
    assert!(is_permutation(&deck, &decks::standard52()));
    deck
}

fn started(players: usize, first: &str) -> M {
    let mut m = M::new(players, Options::default());
    m.deal(deck(first));
    m
}

fn turn(position: usize) -> Command {
    Command::Turn { position }
}

fn table(m: &M, viewer: Viewer) -> Table {
    m.rules.view(&m.state, viewer)
}

fn face(m: &M, viewer: Viewer, position: usize) -> Option<Card> {
    table(m, viewer).places.unwrap().into_iter().find(|p| p.position == position).and_then(|p| p.card)
}

const VIEWERS: [Viewer; 3] = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator];

#[test]
fn a_pair_is_taken_and_the_player_turns_again() {
    let mut m = started(2, "7H 2C 7S");
    assert_eq!(m.to_act(), [1], "forehand begins");
    assert_eq!(m.ok(1, turn(0)), [Event::TurnedUp { seat: 1, position: 0, card: card("7H") }]);
    assert_eq!(m.refused(1, turn(0)).rule, rule::FACE_DOWN, "the first card is face up");
    assert_eq!(m.refused(1, turn(52)).rule, rule::FACE_DOWN);
    let events = m.ok(1, turn(2));
    assert_eq!(events[1], Event::PairTaken { seat: 1, positions: vec![0, 2], cards: cards("7H 7S") });
    assert_eq!(m.to_act(), [1], "he turns again");
    assert_eq!(m.refused(1, turn(2)).rule, rule::FACE_DOWN, "a taken place is empty");
    for v in VIEWERS {
        assert_eq!(table(&m, v).pairs.unwrap()[1], cards("7H 7S"), "taken cards stay shown");
        let shown = m.rules.redact(&m.state, &m.log[1], v, false);
        assert_eq!(shown["card"], "7H");
    }
    assert_eq!(m.legal(1).len(), 50);
}

#[test]
fn a_miss_stays_up_until_the_next_player_turns_and_is_hidden_once_each_viewer_has_turned_since() {
    let mut m = started(3, "7H 2C 7S");
    m.ok(1, turn(0));
    let events = m.ok(1, turn(1));
    assert_eq!(events[1], Event::Missed { seat: 1, next: 2 });
    assert_eq!(m.to_act(), [2]);
    for v in VIEWERS {
        assert_eq!((face(&m, v, 0), face(&m, v, 1)), (Some(card("7H")), Some(card("2C"))), "seen before they go");
        assert_eq!(table(&m, v).to_turn_back, Some(vec![0, 1]));
    }
    assert!(m.legal(2).contains(&turn(0)), "a card about to be turned back may be turned");
    let events = m.ok(2, turn(2));
    assert_eq!(
        events,
        [Event::TurnedBack { positions: vec![0, 1] }, Event::TurnedUp { seat: 2, position: 2, card: card("7S") }]
    );
    for v in VIEWERS {
        assert_eq!((face(&m, v, 0), face(&m, v, 1), face(&m, v, 2)), (None, None, Some(card("7S"))));
    }
    // Seat 2 has begun a turn since: the cards are its to remember (a spectator's too). Seats 0
    // and 1 have not, and may still be shown what the table showed.
    for e in &m.log[1..3] {
        for v in [Viewer::Seat(2), Viewer::Spectator] {
            let shown = m.rules.redact(&m.state, e, v, false);
            assert_eq!(shown["card"], serde_json::Value::Null, "{v:?} {e:?}");
            assert!(crate::game::cards_in(&shown).is_empty());
        }
        for v in [Viewer::Seat(0), Viewer::Seat(1)] {
            assert_ne!(m.rules.redact(&m.state, e, v, false)["card"], serde_json::Value::Null, "{v:?} {e:?}");
        }
    }
    assert_eq!(table(&m, Viewer::Seat(2)).turned_back, Some(vec![]));
    let back = table(&m, Viewer::Seat(0)).turned_back.unwrap();
    assert_eq!(
        back.iter().map(|p| (p.position, p.card)).collect::<Vec<_>>(),
        [(0, Some(card("7H"))), (1, Some(card("2C")))]
    );
    // Seat 2 remembers the seven at place 0.
    let events = m.ok(2, turn(0));
    assert_eq!(events[1], Event::PairTaken { seat: 2, positions: vec![2, 0], cards: cards("7S 7H") });
    let shown = m.rules.redact(&m.state, &m.log[1], Viewer::Spectator, false);
    assert_eq!(shown["card"], "7H", "a taken card is shown again");
    // Seat 2 misses; seats 0 and 1 each begin a turn: the 2C turned back is then never shown
    // again, to anyone at the table.
    let open: Vec<usize> =
        m.state.deals.deal.as_ref().unwrap().spread.face_down().into_iter().filter(|&p| p > 2).collect();
    m.ok(2, turn(open[0]));
    m.ok(2, turn(open[1]));
    assert_eq!(m.to_act(), [0], "{:?}", m.log.last());
    m.ok(0, turn(open[2]));
    m.ok(0, turn(open[3]));
    m.ok(1, turn(open[4]));
    for v in VIEWERS {
        let shown = m.rules.redact(&m.state, &m.log[2], v, false);
        assert_eq!(shown["card"], serde_json::Value::Null, "{v:?}");
        assert!(table(&m, v).turned_back.unwrap().iter().all(|p| p.position != 1));
    }
    let record = m.rules.redact(&m.state, &m.log[2], Viewer::Record, true);
    assert_eq!(record["card"], "2C", "the record shows all");
    // The two remembered cards are known to all, the others to nobody.
    let secrets = m.rules.secrets(&m.state);
    assert!(secrets.contains(&(card("2C"), vec![0, 1, 2])));
    assert!(secrets.contains(&(card("KS"), vec![])));
}

#[test]
fn the_deal_ends_when_all_26_pairs_are_taken_and_most_pairs_win() {
    let mut m = started(2, "");
    // Played by the strong bot (the first legal move would turn the same two cards for ever).
    let mut events = Vec::new();
    while let [seat, ..] = m.to_act()[..] {
        let command = m.rules.bot_candidates(&m.state, seat).remove(0);
        events.extend(m.ok(seat, command));
    }
    assert!(matches!(m.rules.status(&m.state), Status::Finished { .. }));
    let pairs = table(&m, Viewer::Spectator).pairs.unwrap();
    assert_eq!(pairs.iter().map(Vec::len).sum::<usize>(), 52);
    let Some(Event::DealScored { pairs: counts, terms, .. }) =
        events.iter().find(|e| matches!(e, Event::DealScored { .. })).cloned()
    else {
        panic!("no score")
    };
    assert_eq!(counts.iter().sum::<usize>(), 26);
    assert_eq!(terms.iter().map(|t| t.points).sum::<i64>(), 26);
    assert!(table(&m, Viewer::Record).deck.is_some());
}

#[test]
fn ties_share_the_win() {
    let mut m = started(2, "");
    let d = m.state.deals.deal.as_mut().unwrap();
    let all = d.spread.cards();
    for p in 0..52 {
        d.spread.take(p);
    }
    let red = |c: &Card| matches!(c.suit(), Some(crate::cards::Suit::Hearts | crate::cards::Suit::Diamonds));
    let mut by_rank = all.clone();
    by_rank.sort_by_key(|&c| (red(&c), rank(c)));
    d.pairs = vec![by_rank[..26].to_vec(), by_rank[26..].to_vec()];
    let scored = m.rules.decide(&m.state, 1, &turn(0));
    assert!(scored.is_err(), "no card to turn");
    let events = run(&m.state, Vec::new());
    m.apply(events);
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!("not over") };
    assert_eq!(outcome.winners, vec![0, 1]);
}

#[test]
fn bots_remember_pairs_they_have_seen() {
    let mut m = M::new(2, Options::default());
    let mut spread = deck("7H 2C 7S");
    spread.retain(|&c| c != card("2D"));
    spread.push(card("2D"));
    m.deal(spread);
    m.ok(1, turn(0));
    m.ok(1, turn(1));
    m.ok(0, turn(2));
    // Seat 0 saw 7H at 0: the strong and the basic bot both take it.
    assert_eq!(m.rules.bot_candidates(&m.state, 0), [turn(0)]);
    assert_eq!(m.rules.basic_move(&m.state, 0, &mut Rng::new(1)), Some(turn(0)));
    m.ok(0, turn(0));
    // No known pair: the last unseen card first (2D at 51), then its remembered mate (2C at 1).
    assert_eq!(m.rules.bot_candidates(&m.state, 0), [turn(51)]);
    m.ok(0, turn(51));
    assert_eq!(m.rules.bot_candidates(&m.state, 0), [turn(1)]);
}
