use super::*;
use crate::cards::{card, cards};
use crate::simulate::Driver;

type M = Driver<President>;

/// A deck dealing the given cards to these seats for a deal played in `order`, every hand
/// filled up from the rest of the pack.
fn deck(order: &[Seat], pack: Vec<Card>, given: &[(Seat, &str)]) -> Vec<Card> {
    let n = order.len();
    let mut hands: Vec<Vec<Card>> = vec![Vec::new(); n];
    for &(s, codes) in given {
        hands[s].extend(cards(codes));
    }
    let used: Vec<Card> = hands.concat();
    let mut rest = pack.iter().copied().filter(|c| !used.contains(c));
    let size = |s: Seat| {
        let at = order.iter().position(|&o| o == s).unwrap();
        pack.len() / n + usize::from(at < pack.len() % n)
    };
    for (s, hand) in hands.iter_mut().enumerate() {
        while hand.len() < size(s) {
            hand.push(rest.next().unwrap());
        }
    }
    let deck: Vec<Card> = (0..pack.len()).map(|i| hands[order[i % n]][i / n]).collect();
    assert!(is_permutation(&deck, &pack));
    deck
}

fn play(m: &mut M, seat: Seat, codes: &str) -> Vec<Event> {
    m.ok(seat, Command::Play { cards: cards(codes) })
}

/// The deal played down to these hands (the other cards cleared), `to_play` to lay.
fn rig(m: &mut M, hands: &[&str], to_play: Seat) {
    let c = &mut m.state.deals.deal.as_mut().unwrap().climb;
    let all = c.all_cards();
    c.hands = hands.iter().map(|h| cards(h)).collect();
    c.cleared = all.into_iter().filter(|x| !c.hands.concat().contains(x)).collect();
    c.to_play = to_play;
}

fn deal(m: &M) -> &Deal {
    m.state.deals.deal.as_ref().unwrap()
}

/// The text's example with five players A to E (seats 1, 2, 3, 4, 0: forehand is seat 1).
#[test]
fn the_texts_example_the_table_clears_when_all_others_pass_and_the_last_to_lay_leads() {
    let mut m = M::new(5, Options::default());
    let given = [(1, "5C 5D"), (3, "9C 9D AC AD 8C"), (4, "QC QD TC"), (0, "QH")];
    m.deal(deck(&[1, 2, 3, 4, 0], decks::standard52(), &given));
    assert_eq!(m.to_act(), [1]);
    play(&mut m, 1, "5C 5D");
    m.ok(2, Command::Pass);
    play(&mut m, 3, "9C 9D");
    play(&mut m, 4, "QC QD");
    m.ok(0, Command::Pass);
    m.ok(1, Command::Pass);
    // Three cards on a pair are refused; so is a lower pair.
    assert_eq!(m.refused(2, Command::Play { cards: deal(&m).climb.hands[2][..3].to_vec() }).rule, rule::SAME_RANK);
    m.ok(2, Command::Pass);
    play(&mut m, 3, "AC AD");
    for s in [4, 0, 1] {
        m.ok(s, Command::Pass);
    }
    let events = m.ok(2, Command::Pass);
    assert!(matches!(events.last(), Some(Event::TableCleared { leader: 3, cards }) if cards.len() == 8));
    assert_eq!(m.refused(3, Command::Pass).rule, rule::LEAD);
    play(&mut m, 3, "8C");
    assert_eq!(m.refused(4, Command::Play { cards: cards("QC") }).rule, "core.card-not-held");
    play(&mut m, 4, "TC");
    play(&mut m, 0, "QH");
    m.ok(1, Command::Pass);
    assert_eq!(deal(&m).climb.table.len(), 3);
}

#[test]
fn a_play_must_match_the_count_and_beat_the_rank() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(&[1, 2, 0], decks::standard52(), &[(1, "7C 7D"), (2, "7H 7S 8C 9C 9D 9H")]));
    play(&mut m, 1, "7C 7D");
    assert_eq!(m.refused(2, Command::Play { cards: cards("7H 7S") }).rule, rule::HIGHER);
    assert_eq!(m.refused(2, Command::Play { cards: cards("8C") }).rule, rule::SAME_COUNT);
    assert_eq!(m.refused(2, Command::Play { cards: cards("9C 9D 9H") }).rule, rule::SAME_COUNT);
    assert_eq!(m.refused(2, Command::Play { cards: cards("7H 8C") }).rule, rule::SAME_RANK);
    play(&mut m, 2, "9C 9D");
}

/// rules-notes: after going out with the last play, the table clears once everyone still
/// holding cards has passed, and the next of them after him leads.
#[test]
fn after_going_out_the_next_player_holding_cards_leads() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(&[1, 2, 0], decks::standard52(), &[(1, "2C"), (2, "AC")]));
    // Seat 1 is left holding only its ace of spades, say.
    rig(&mut m, &["KC 4D", "AS", "AC 3D"], 1);
    let events = play(&mut m, 1, "AS");
    assert!(matches!(events[0], Event::CardsPlayed { went_out: true, .. }));
    assert_eq!(m.to_act(), [2]);
    m.ok(2, Command::Pass);
    let events = m.ok(0, Command::Pass);
    assert!(matches!(events.last(), Some(Event::TableCleared { leader: 2, .. })));
}

fn finish(m: &mut M) {
    let number = m.state.deals.number;
    while m.state.deals.number == number && !m.to_act().is_empty() {
        let seat = m.to_act()[0];
        let command = basic_choice(&m.state, m.state.deals.live().unwrap(), seat);
        m.ok(seat, command);
    }
}

#[test]
fn the_ranking_orders_the_next_deal_and_the_last_gives_his_best_cards_seen_by_the_two_alone() {
    let mut m = M::new(4, Options::default());
    m.deal(deck(&[1, 2, 3, 0], decks::standard52(), &[]));
    finish(&mut m);
    let Some(Event::DealScored { ranking, points, terms, .. }) =
        m.log.iter().find(|e| matches!(e, Event::DealScored { .. })).cloned()
    else {
        panic!("the deal was scored")
    };
    assert_eq!(terms.len(), 4);
    assert_eq!(points[ranking[0]], 3);
    assert_eq!(points[ranking[3]], 0);
    let (president, last) = (ranking[0], ranking[3]);
    let order = ranking.clone();
    let events = m.deal(deck(&order, decks::standard52(), &[(last, "AS AH KS 2C"), (president, "2D 3D 4D 5D")]));
    assert!(matches!(&events[0], Event::DealStarted { dealer, .. } if *dealer == last));
    let Event::CardsGiven { from, to, cards: best } = &events[1] else { panic!("an exchange") };
    assert_eq!((*from, *to), (last, president));
    assert!(best.contains(&card("AS")) && best.contains(&card("AH")) && best.len() == 3);
    let Event::CardsGiven { cards: worst, .. } = &events[2] else { panic!("an exchange back") };
    assert_eq!(worst, &cards("2D 3D 4D"));
    assert_eq!(m.to_act(), [president]);
    let other = ranking[1];
    let secrets = m.rules.secrets(&m.state);
    let knowers = |c: &str| secrets.iter().find(|(k, _)| *k == card(c)).unwrap().1.clone();
    assert_eq!(knowers("AS"), vec![president, last]);
    assert_eq!(knowers("2D"), vec![last, president]);
    let seen = m.rules.redact(&m.state, &events[1], Viewer::Seat(other), false);
    assert!(seen["cards"].is_null());
    let seen = m.rules.redact(&m.state, &events[1], Viewer::Seat(president), false);
    assert_eq!(seen["cards"].as_array().unwrap().len(), 3);
    let view = serde_json::to_value(m.rules.view(&m.state, Viewer::Seat(other))).unwrap();
    assert!(view["exchanges"][0]["cards"].is_null());
    assert_eq!(view["titles"][president], "president");
    assert_eq!(view["titles"][last], "last");
}

#[test]
fn trouduc_a_joker_stands_in_but_real_cards_beat_it_and_it_is_never_given() {
    let options = President
        .new_match_options(&serde_json::json!({"trouduc": true}), Options { trouduc: true, ..Options::default() })
        .unwrap();
    assert_eq!((options.target, options.exchange), (11, 1));
    let pack = pack(&options);
    assert_eq!(pack.len(), 53);
    let mut m = M::new(3, options);
    m.deal(deck(&[1, 2, 0], pack.clone(), &[(1, "TC JK"), (2, "TD TH 2C"), (0, "AS")]));
    play(&mut m, 1, "TC JK");
    play(&mut m, 2, "TD TH");
    m.ok(0, Command::Pass);
    m.ok(1, Command::Pass);
    play(&mut m, 2, "2C");
    assert_eq!(m.refused(0, Command::Play { cards: cards("AS") }).rule, rule::HIGHER);
    assert_eq!(place_points(4, true), [2, 1, 0, 0]);
    assert_eq!(place_points(4, false), [3, 2, 1, 0]);
    // The last holding the joker gives his best real card.
    let mut m = M::new(3, Options { trouduc: true, target: 11, exchange: 1 });
    m.state.ranking = Some(vec![1, 2, 0]);
    let events = m.deal(deck(&[1, 2, 0], pack, &[(0, "JK 2S 3C")]));
    assert!(matches!(&events[1], Event::CardsGiven { from: 0, to: 1, cards } if cards == &vec![card("2S")]));
}

#[test]
fn the_match_ends_at_the_target_and_a_tie_goes_to_the_most_points_in_the_last_deal() {
    let mut m = M::new(3, Options { target: 3, ..Options::default() });
    m.state.deals.scores = vec![0, 1, 2];
    m.state.deals.deal = None;
    m.deal(deck(&[1, 2, 0], decks::standard52(), &[]));
    m.state.deals.scores = vec![0, 1, 2];
    rig(&mut m, &["3C", "AS", "KC"], 1);
    play(&mut m, 1, "AS");
    m.ok(2, Command::Pass);
    let events = m.ok(0, Command::Pass);
    assert!(matches!(events.last(), Some(Event::TableCleared { leader: 2, .. })));
    let events = play(&mut m, 2, "KC");
    // Seats 1 and 2 both reach 3; seat 1 scored more in this deal.
    let Some(Event::MatchEnded { winners, .. }) = events.last() else { panic!("the match ended: {events:?}") };
    assert_eq!(winners, &vec![1]);
}
