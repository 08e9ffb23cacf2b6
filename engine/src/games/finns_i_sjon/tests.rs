use super::*;
use crate::cards::{card, cards, is_permutation};
use crate::game::Status;
use crate::simulate::Driver;

type M = Driver<FinnsISjon>;

/// A deck dealt by seat 0 to `hands` (by seat, seven cards each, one at a time from seat 1),
/// then the sea: `sea` first, the rest of the pack in pack order.
fn deck(hands: &[&str], sea: &str) -> Vec<Card> {
    let n = hands.len();
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let mut deck: Vec<Card> = (0..HAND * n).map(|i| hands[(1 + i) % n][i / n]).collect();
    deck.extend(cards(sea));
    deck.extend(decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect::<Vec<_>>());
    assert!(is_permutation(&deck, &decks::standard52()), "{deck:?}");
    deck
}

fn started(hands: &[&str], sea: &str) -> M {
    let mut m = M::new(hands.len(), Options::default());
    m.deal(deck(hands, sea));
    m
}

fn deal(m: &M) -> &Deal {
    m.state.deals.deal.as_ref().unwrap()
}

fn ask(target: Seat, rank: u8) -> Command {
    Command::Ask { target, rank }
}

fn draw(position: usize) -> Command {
    Command::Draw { position }
}

/// The deal as it stands late: the ranks of `laid` down (by the seat given), the hands and the
/// sea as given, `turn` to ask.
fn late(m: &mut M, laid: &[(Seat, u8)], hands: &[&str], sea: &str, turn: Seat) {
    let d = m.state.deals.deal.as_mut().unwrap();
    let mut a = Asking::new(hands.iter().map(|h| cards(h)).collect());
    for &(s, r) in laid {
        a.quartets[s].push(r);
    }
    d.asking = a;
    d.sea = Positions::new(cards(sea));
    d.turn = turn;
    m.rules.check_invariants(&m.state).unwrap();
}

const THREE: [&str; 3] = ["2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D", "2H 3H 4H 5H 6H 7H 8H"];
const TWO: [&str; 2] = ["2D 3D 4D 5D 6D 7D 8D", "9H JC JD 3C 4C 5C 6C"];

#[test]
fn asked_for_jacks_he_hands_them_all_over_and_the_asker_goes_on() {
    let mut m = started(&TWO, "JH");
    assert_eq!((m.to_act(), deal(&m).sea.len()), (vec![1], 38));
    let events = m.ok(1, ask(0, 3));
    assert_eq!(events[1], Event::HandedOver { from: 0, to: 1, cards: cards("3D") });
    assert_eq!(m.to_act(), [1]);
    let t = m.rules.view(&m.state, Viewer::Seat(0));
    assert_eq!(t.asking.public_cards, Some(vec![vec![], cards("3D")]));
    assert_eq!(t.sea.map(|s| s.len()), Some(38));
    assert!(t.sea_cards.is_none() && m.rules.view(&m.state, Viewer::Record).sea_cards.is_some());
}

#[test]
fn finns_i_sjon_the_asker_draws_a_place_he_picks_and_the_turn_passes_even_with_the_rank_asked_for() {
    let mut m = started(&TWO, "9S");
    let events = m.ok(1, ask(0, 9));
    assert_eq!(events[1], Event::SaidFinnsISjon { seat: 0, rank: 9 });
    assert_eq!(m.to_act(), [1], "the asker draws");
    assert_eq!(m.rules.view(&m.state, Viewer::Spectator).phase, Phase::Fishing);
    assert_eq!(m.legal(1).len(), 38);
    assert_eq!(m.refused(1, ask(0, 4)).rule, rule::DRAW_FIRST);
    assert_eq!(m.refused(1, draw(38)).rule, rule::PLACE);
    let events = m.ok(1, draw(0));
    assert_eq!(events, [Event::DrewFromSea { seat: 1, position: 0, card: card("9S") }]);
    assert_eq!(m.to_act(), [0], "the turn passes to who said it, though the nine was drawn");
    let hidden = m.rules.redact(&m.state, &events[0], Viewer::Seat(0), false);
    assert!(hidden["card"].is_null() && hidden["position"] == 0);
    assert_eq!(m.rules.redact(&m.state, &events[0], Viewer::Seat(1), false)["card"], "9S");
    assert!(m.rules.secrets(&m.state).contains(&(card("9S"), vec![1])), "known to the drawer alone");
    assert_eq!(m.refused(0, draw(1)).rule, rule::NO_DRAW);
    assert_eq!(deal(&m).sea.card(0), None);
}

#[test]
fn a_hand_run_empty_draws_seven_from_the_sea_one_place_at_a_time() {
    let mut m = started(&TWO, "");
    let laid = [(0, 2), (0, 3), (0, 4), (1, 5), (1, 6), (1, 7), (1, 8)];
    late(&mut m, &laid, &["9C 9D", "9H TC"], "9S TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS AC AD AH AS", 1);
    let events = m.ok(1, ask(0, 9));
    assert_eq!(events[2], Event::RefillStarted { seat: 0, cards: 7 });
    assert_eq!(m.to_act(), [0]);
    assert_eq!(m.refused(0, ask(1, 9)).rule, rule::DRAW_FIRST);
    for p in 0..6 {
        m.ok(0, draw(p));
        assert_eq!(m.to_act(), [0], "still drawing");
    }
    assert_eq!(m.rules.view(&m.state, Viewer::Seat(1)).refill_left, Some(1));
    m.ok(0, draw(6));
    assert_eq!(m.to_act(), [1], "the asker asks on");
    assert_eq!(deal(&m).asking.hands[0].len(), 7);
}

#[test]
fn with_the_sea_empty_a_player_out_of_cards_is_out_and_his_quartets_count_in_a_shared_win() {
    let mut m = started(&THREE, "");
    let laid = [(0, 2), (0, 3), (0, 4), (0, 5), (1, 6), (1, 7), (1, 8), (2, 9), (2, 10), (2, 11), (2, 14)];
    late(&mut m, &laid, &["KC KD KS", "QH", "QC QD QS KH"], "", 1);
    let events = m.ok(1, ask(2, 12));
    assert_eq!(events[3..], [Event::OutOfPlay { seat: 1 }, Event::TurnPassed { from: 1, to: 2 }]);
    assert_eq!(m.refused(2, ask(1, 13)).rule, rule::TARGET, "an out seat holds no cards");
    let events = m.ok(2, ask(0, 13));
    assert!(events.iter().any(|e| matches!(e, Event::DealScored { quartets, .. } if quartets == &[4, 4, 5])));
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!() };
    assert_eq!(outcome.winners, [2]);
}

#[test]
fn players_level_on_the_most_quartets_share_the_win() {
    let mut m = started(&THREE, "");
    let laid = [(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 8), (1, 9), (2, 7), (2, 10), (2, 11), (2, 14)];
    late(&mut m, &laid, &["KC KD KS", "QH", "QC QD QS KH"], "", 1);
    m.ok(1, ask(2, 12));
    m.ok(2, ask(0, 13));
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!() };
    assert_eq!((outcome.winners, m.state.deals.scores.clone()), (vec![0, 2], vec![5, 3, 5]));
}
