use super::*;
use crate::cards::{card, cards};
use crate::rules::core;
use crate::simulate::Driver;

type M = Driver<Jazz>;

/// The deck that, dealt one card at a time from `dealer`'s left, gives each seat `hands[seat]`.
fn deck_for(dealer: Seat, hands: &[Vec<Card>]) -> Vec<Card> {
    let n = hands.len();
    let total: usize = hands.iter().map(Vec::len).sum();
    let mut next = vec![0; n];
    (0..total)
        .map(|i| {
            let s = (dealer + 1 + i) % n;
            next[s] += 1;
            hands[s][next[s] - 1]
        })
        .collect()
}

/// Four hands of one suit each, `first` for `forehand`, the next suits of `Suit::ALL` round the
/// table after him, less the twos `out`.
fn one_suit_each(forehand: Seat, first: Suit) -> Vec<Vec<Card>> {
    let at = Suit::ALL.iter().position(|&s| s == first).unwrap();
    let mut hands = vec![Vec::new(); 4];
    for k in 0..4 {
        let suit = Suit::ALL[(at + k) % 4];
        hands[(forehand + k) % 4] = decks::standard52().into_iter().filter(|c| c.is_suit(suit)).collect();
    }
    hands
}

/// Plays the deal out, each seat laying or playing its first legal move.
fn play_out(m: &mut M) {
    let number = m.state.deals.number;
    while m.state.deals.number == number && m.to_act().len() == 1 {
        let seat = m.to_act()[0];
        let first = m.rules.legal_moves(&m.state, seat).remove(0);
        m.ok(seat, first);
    }
}

fn last_scored(m: &M) -> (Kind, Vec<u32>, Vec<ScoreTerm>, Vec<i64>) {
    m.log
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::DealScored { kind, counted, terms, points, .. } => {
                Some((*kind, counted.clone(), terms.clone(), points.clone()))
            }
            _ => None,
        })
        .expect("a deal was scored")
}

#[test]
fn the_twos_the_text_names_come_out_so_the_trick_deals_deal_out_even() {
    for (players, each, out) in
        [(3, 17, "2D"), (4, 13, ""), (5, 10, "2D 2H"), (6, 8, "2C 2D 2H 2S"), (7, 7, "2D 2H 2S")]
    {
        let trick_pack = pack(players, Kind::Tricks);
        assert_eq!(trick_pack.len(), players * each, "{players} players");
        assert_eq!(sorted(twos_out(players)), sorted(cards(out)));
        assert_eq!(pack(players, Kind::FanTan).len(), 52);
    }
    let m = M::new(3, Options::default());
    let crate::game::Status::NeedsDeck { composition } = m.rules.status(&m.state) else { panic!("a deck") };
    assert!(!composition.contains(&card("2D")) && composition.len() == 51);
}

#[test]
fn six_deals_in_the_texts_order_each_scored_its_own_way_then_the_highest_total_wins() {
    // Four players: each trick deal gives one seat a whole suit, which it leads and wins every
    // trick of, the others discarding.
    let mut m = M::new(4, Options::default());
    let expected = [
        // (the deal's kind, the forehand's suit, what forehand is charged)
        (Kind::Tricks, Suit::Hearts, 13, -13),
        (Kind::Clubs, Suit::Clubs, 13, -13),
        (Kind::Queens, Suit::Spades, 4, -20),
        (Kind::KingOfClubs, Suit::Clubs, 1, -15),
        (Kind::LastTrick, Suit::Diamonds, 1, -20),
    ];
    let mut totals = [0i64; 4];
    for (i, (kind, suit, count, points)) in expected.into_iter().enumerate() {
        let dealer = i % 4;
        let forehand = (dealer + 1) % 4;
        let events = m.deal(deck_for(dealer, &one_suit_each(forehand, suit)));
        assert!(matches!(events[0], Event::DealStarted { kind: k, dealer: d, .. } if k == kind && d == dealer));
        let table = m.rules.view(&m.state, Viewer::Spectator);
        assert_eq!((table.kind, table.scoring), (Some(kind), Some(kind.scoring())));
        assert_eq!(m.to_act(), [forehand]);
        play_out(&mut m);
        let (scored, counted, terms, pts) = last_scored(&m);
        assert_eq!(scored, kind);
        assert_eq!(counted[forehand], count, "{kind:?}");
        assert_eq!(pts[forehand], points, "{kind:?}");
        assert_eq!(terms.iter().map(|t| t.points).sum::<i64>(), points);
        assert!(terms.iter().all(|t| t.rule == kind.rule()));
        totals[forehand] += points;
    }
    assert_eq!(m.state.deals.scores, totals.to_vec());
    // The sixth deal is fan tan with the whole pack, dealt by seat 1.
    let mut deck = decks::standard52();
    deck.reverse();
    let events = m.deal(deck);
    assert!(matches!(events[0], Event::DealStarted { kind: Kind::FanTan, dealer: 1, .. }));
    assert_eq!(m.rules.view(&m.state, Viewer::Spectator).phase, Phase::FanTan);
    play_out(&mut m);
    let (kind, counted, terms, points) = last_scored(&m);
    assert_eq!(kind, Kind::FanTan);
    let forced =
        |s: Seat| m.log.iter().filter(|e| matches!(e, Event::Passed { seat, forced: true } if *seat == s)).count();
    assert_eq!(counted.iter().map(|&n| n as usize).collect::<Vec<_>>(), (0..4).map(forced).collect::<Vec<_>>());
    let first_out = terms.iter().find(|t| t.rule == rule::FIRST_OUT).unwrap().to;
    assert_eq!(points[first_out], 10 - counted[first_out] as i64);
    let Some(Event::MatchEnded { winners, scores, .. }) = m.log.last().cloned() else { panic!("the match ended") };
    let best = *scores.iter().max().unwrap();
    assert_eq!(winners, (0..4).filter(|&s| scores[s] == best).collect::<Vec<_>>());
    assert!(m.rules.status(&m.state).is_finished());
}

#[test]
fn suit_must_be_followed_and_a_lay_belongs_to_the_fan_tan_deal() {
    let mut m = M::new(3, Options::default());
    let hands = vec![
        cards("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 3S 4S 5S 6S 7S"),
        cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 8S 9S TS JS"),
        cards("3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2H 2S QS KS AS"),
    ];
    m.deal(deck_for(0, &hands));
    assert_eq!(m.to_act(), [1]);
    m.ok(1, Command::Play { card: card("8S") });
    assert_eq!(m.refused(2, Command::Play { card: card("2H") }).rule, rule::FOLLOW);
    assert_eq!(m.refused(2, Command::Lay { card: card("QS") }).rule, core::PHASE);
    m.ok(2, Command::Play { card: card("QS") });
    // Void in nothing, seat 0 must follow spades too; the queen takes the trick.
    assert_eq!(
        m.rules.legal_moves(&m.state, 0),
        cards("3S 4S 5S 6S 7S").into_iter().map(|card| Command::Play { card }).collect::<Vec<_>>()
    );
    let events = m.ok(0, Command::Play { card: card("7S") });
    assert!(matches!(events[1], Event::TrickWon { winner: 2, .. }));
    assert_eq!(m.to_act(), [2]);
}

#[test]
fn in_the_fan_tan_deal_only_passes_after_the_first_seven_cost_a_point() {
    let mut m = M::new(3, Options::default());
    for _ in 0..5 {
        m.deal(pack(3, Kind::of(m.state.deals.number + 1)));
        play_out(&mut m);
    }
    // Deal 6, dealer seat 2 (the deal passes clockwise), so seat 0 is forehand. Seats 0 and 1
    // have no seven; seat 2 holds all four and every eight and six.
    let hands = vec![
        cards("AC 2C 3C 4C 5C AD 2D 3D 4D 5D AH 2H 3H 4H 5H AS 2S 3S"),
        cards("9C TC JC QC KC 9D TD JD QD KD 9H TH JH QH KH 9S TS"),
        cards("7C 7D 7H 7S 8C 8D 8H 8S 6C 6D 6H 6S 4S 5S JS QS KS"),
    ];
    let events = m.deal(deck_for(2, &hands));
    assert!(matches!(events[0], Event::DealStarted { kind: Kind::FanTan, dealer: 2, forehand: 0, .. }));
    assert_eq!(events[1..], [Event::Passed { seat: 0, forced: false }, Event::Passed { seat: 1, forced: false }]);
    assert_eq!(m.to_act(), [2]);
    assert_eq!(m.refused(2, Command::Lay { card: card("8H") }).rule, rule::BUILD);
    assert_eq!(m.refused(2, Command::Play { card: card("7H") }).rule, core::PHASE);
    let events = m.ok(2, Command::Lay { card: card("7H") });
    // Seat 0 has no six or eight of hearts, nor a seven; seat 1 neither: both forced to pass.
    assert_eq!(events[1..], [Event::Passed { seat: 0, forced: true }, Event::Passed { seat: 1, forced: true }]);
    let table = m.rules.view(&m.state, Viewer::Seat(2));
    assert_eq!((table.passes.clone(), table.counted.clone()), (Some(vec![2, 2, 0]), Some(vec![1, 1, 0])));
    assert_eq!(table.layout.unwrap()[0].cards, cards("7H"));
    play_out(&mut m);
    let (_, counted, terms, points) = last_scored(&m);
    let first = terms.iter().find(|t| t.rule == rule::FIRST_OUT).unwrap();
    assert_eq!(first.points, 10);
    for s in 0..3 {
        let bonus = if s == first.to { 10 } else { 0 };
        assert_eq!(points[s], bonus - counted[s] as i64);
    }
}

#[test]
fn a_seat_sees_its_own_hand_only_and_the_table_names_the_deal() {
    let mut m = M::new(5, Options::default());
    m.deal(pack(5, Kind::Tricks));
    let view = serde_json::to_value(m.rules.view(&m.state, Viewer::Seat(0))).unwrap();
    assert!(view.get("hands").is_none() && view.get("deck").is_none());
    assert_eq!(view["hand"].as_array().unwrap().len(), 10);
    assert_eq!(view["kind"], "tricks");
    assert_eq!(view["twos_out"], serde_json::json!(["2D", "2H"]));
    let first = m.rules.redact(&m.state, &m.log[0], Viewer::Seat(0), false);
    assert!(first["deck"].is_null() && first["hands"][1].is_null() && first["hands"][0].is_array());
}

#[test]
fn the_basic_bot_sheds_what_the_deal_counts_when_void() {
    let mut m = M::new(4, Options::default());
    for _ in 0..2 {
        m.deal(pack(4, Kind::of(m.state.deals.number + 1)));
        play_out(&mut m);
    }
    // Deal 3 (queens), dealer seat 2, forehand seat 3 leads a heart; seat 0 has none.
    let mut hands = one_suit_each(3, Suit::Hearts);
    hands[0] = cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS");
    hands[1] = cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC");
    hands[2] = cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD");
    m.deal(deck_for(2, &hands));
    m.ok(3, Command::Play { card: card("5H") });
    assert_eq!(m.rules.basic_move(&m.state, 0, &mut Rng::new(1)), Some(Command::Play { card: card("QS") }));
}
