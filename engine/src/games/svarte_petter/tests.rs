use super::*;
use crate::cards::{card, cards};
use crate::game::Status;
use crate::simulate::Driver;

type M = Driver<SvartePetter>;

/// A deck dealt by seat 0, one card at a time from seat 1, to `hands` (by seat, in the order each
/// hand receives its cards).
fn deck(hands: &[&str]) -> Vec<Card> {
    let n = hands.len();
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let deck: Vec<Card> = (0..51).map(|i| hands[(1 + i) % n][i / n]).collect();
    assert!(is_permutation(&deck, &pack()), "{deck:?}");
    deck
}

/// After the pairs are laid: seat 0 holds 3D 5H 6D, seat 1 2C 3C 4C 5S 6C, seat 2 2D 4D JS.
const THREE: [&str; 3] = [
    "3D 5C 5D 5H 6D 2H 2S 4H 4S 9C 9D 9H 9S TC TD TH TS",
    "2C 3C 4C 5S 6C 7C 7D 7H 7S 8C 8D 8H 8S QC QD QH QS",
    "2D 4D JS 3H 3S 6H 6S JH JD KC KD KH KS AC AD AH AS",
];

fn started() -> M {
    let mut m = M::new(3, Options::default());
    m.deal(deck(&THREE));
    m
}

fn deal(m: &M) -> &Deal {
    m.state.deals.deal.as_ref().unwrap()
}

fn draw(position: usize) -> Command {
    Command::Draw { position }
}

/// The hand to be drawn from shuffled into `order`, then the draw at `position`.
fn shuffle_and_draw(m: &mut M, order: &str, position: usize) -> Vec<Event> {
    m.deal(cards(order));
    let drawer = m.to_act()[0];
    m.ok(drawer, draw(position))
}

#[test]
fn every_pair_is_laid_at_the_deal_and_of_three_one_stays() {
    let m = started();
    let d = deal(&m);
    assert_eq!(d.hands, vec![cards("3D 5H 6D"), cards("2C 3C 4C 5S 6C"), cards("2D 4D JS")]);
    assert_eq!(&d.pairs[0][..2], &cards("5C 5D"), "of three fives the first two in the hand's order");
    assert!(m.log.iter().all(|e| !matches!(e, Event::PairLaid { cards, .. } if cards.contains(&SVARTE_PETTER))));
    assert!(d.pairs[2].chunks(2).any(|p| p == cards("JH JD")), "the red jacks pair with each other");
}

#[test]
fn the_jack_of_spades_never_pairs() {
    assert_eq!(first_pair(&cards("JS JH 5C")), None);
    assert_eq!(first_pair(&cards("JS JD JH")), Some(cards("JD JH")));
    assert!(!pack().contains(&JACK_OF_CLUBS));
    assert_eq!(pack().len(), 51);
}

#[test]
fn the_hand_drawn_from_is_shuffled_before_every_draw() {
    let mut m = started();
    assert_eq!(m.rules.status(&m.state), Status::NeedsShuffle { cards: cards("2D 4D JS") });
    assert!(m.to_act().is_empty() && m.legal(1).is_empty());
    m.deal(cards("JS 2D 4D"));
    assert_eq!(m.to_act(), [1], "forehand draws");
    assert_eq!(m.legal(1), (0..3).map(draw).collect::<Vec<_>>());
    m.ok(1, draw(1));
    assert_eq!(m.rules.status(&m.state), Status::NeedsShuffle { cards: cards("3D 5H 6D") }, "seat 2 draws next");
    assert_eq!(m.rules.shuffles(&m.state), 2);
}

#[test]
fn a_shuffle_must_be_an_order_of_the_hand() {
    let m = started();
    assert!(m.rules.reshuffle(&m.state, cards("JS 2D 4H")).is_err());
    assert!(m.rules.reshuffle(&m.state, cards("JS 2D")).is_err());
    assert!(m.rules.reshuffle(&m.state, cards("4D JS 2D")).is_ok());
}

#[test]
fn the_order_is_hidden_from_all_but_the_holder() {
    let mut m = started();
    let shuffled = m.deal(cards("JS 2D 4D")).remove(0);
    let order = |viewer| m.rules.redact(&m.state, &shuffled, viewer, false)["order"].clone();
    assert_eq!(order(Viewer::Seat(2)), serde_json::json!(["JS", "2D", "4D"]));
    for viewer in [Viewer::Seat(1), Viewer::Seat(0), Viewer::Spectator] {
        assert_eq!(order(viewer), serde_json::json!([null, null, null]), "{viewer:?}");
    }
    assert_eq!(order(Viewer::Record), serde_json::json!(["JS", "2D", "4D"]));
    let table = serde_json::to_value(m.rules.view(&m.state, Viewer::Seat(1))).unwrap();
    assert_eq!(table["hand_sizes"][2], 3);
    assert!(table.get("hands").is_none());
    assert_eq!(
        serde_json::to_value(m.rules.view(&m.state, Viewer::Seat(2))).unwrap()["hand"],
        serde_json::json!(["JS", "2D", "4D"])
    );
}

#[test]
fn a_position_past_the_hand_is_refused() {
    let mut m = started();
    m.deal(cards("JS 2D 4D"));
    assert!(m.rules.move_space(&m.state, 1).contains(&draw(3)));
    assert_eq!(m.refused(1, draw(3)).rule, rule::POSITION);
    assert_eq!(m.refused(1, draw(99)).rule, rule::POSITION);
}

#[test]
fn a_card_that_pairs_is_laid_at_once_and_one_that_does_not_is_known_to_the_two_only() {
    let mut m = started();
    let events = shuffle_and_draw(&mut m, "JS 2D 4D", 1);
    assert_eq!(events[0], Event::DrewFromHand { seat: 1, from: 2, position: 1, card: card("2D") });
    assert_eq!(events[1], Event::PairLaid { seat: 1, cards: cards("2C 2D") });
    // Seat 2 draws the six of diamonds from seat 0: no pair.
    let events = shuffle_and_draw(&mut m, "6D 3D 5H", 0);
    assert_eq!(events, [Event::DrewFromHand { seat: 2, from: 0, position: 0, card: card("6D") }]);
    assert_eq!(deal(&m).hands[2], cards("JS 4D 6D"), "the drawn card goes at the end");
    let secrets = m.rules.secrets(&m.state);
    assert!(secrets.contains(&(card("6D"), vec![0, 2])), "{secrets:?}");
    let seen = |viewer| m.rules.redact(&m.state, &events[0], viewer, false)["card"].clone();
    assert_eq!(seen(Viewer::Seat(0)), "6D");
    assert_eq!(seen(Viewer::Seat(2)), "6D");
    assert_eq!(seen(Viewer::Seat(1)), serde_json::Value::Null);
    assert_eq!(seen(Viewer::Spectator), serde_json::Value::Null);
    let known = |seat| serde_json::to_value(m.rules.view(&m.state, Viewer::Seat(seat))).unwrap()["known_cards"].clone();
    assert_eq!(known(0), serde_json::json!([[], [], ["6D"]]));
    assert_eq!(known(1), serde_json::json!([[], [], []]));
}

/// The whole deal: pairs laid on draws, players going out, the turn passing over a seat that is
/// out, and the one left with Svarte Petter losing.
#[test]
fn players_go_out_and_the_last_holder_loses() {
    let mut m = started();
    shuffle_and_draw(&mut m, "JS 2D 4D", 1); // seat 1 pairs the twos
    shuffle_and_draw(&mut m, "6D 3D 5H", 0); // seat 2 keeps 6D, known to seat 0
    let events = shuffle_and_draw(&mut m, "5S 3C 4C 6C", 0); // seat 0 pairs the fives
    assert_eq!(events[1], Event::PairLaid { seat: 0, cards: cards("5H 5S") });
    // Seat 1 draws 4D from seat 2: seat 0 did not see which card went, so no longer knows 6D.
    shuffle_and_draw(&mut m, "4D 6D JS", 0);
    assert_eq!(deal(&m).hands[2], cards("6D JS"));
    assert!(m.rules.secrets(&m.state).contains(&(card("6D"), vec![2])));
    let known = serde_json::to_value(m.rules.view(&m.state, Viewer::Seat(0))).unwrap()["known_cards"].clone();
    assert_eq!(known, serde_json::json!([[], [], []]));
    // Seat 2 takes seat 0's last card: seat 0 is out.
    let events = shuffle_and_draw(&mut m, "3D", 0);
    assert_eq!(events.last(), Some(&Event::WentOut { seat: 0, place: 1 }));
    // Seat 0 is out, so seat 1 draws, from seat 2.
    assert_eq!(m.rules.status(&m.state), Status::NeedsShuffle { cards: cards("6D JS 3D") });
    m.deal(cards("JS 3D 6D"));
    assert_eq!(m.to_act(), [1]);
    m.ok(1, draw(2));
    // Seat 2 draws from seat 1, the next holding cards past seat 0.
    assert_eq!(m.rules.status(&m.state), Status::NeedsShuffle { cards: cards("3C") });
    let events = shuffle_and_draw(&mut m, "3C", 0);
    assert!(events.contains(&Event::WentOut { seat: 1, place: 2 }));
    let Some(Event::DealScored { loser, pairs, terms, scores, .. }) =
        events.iter().find(|e| matches!(e, Event::DealScored { .. })).cloned()
    else {
        panic!("no score in {events:?}")
    };
    assert_eq!((loser, pairs, scores), (2, vec![8, 9, 8], vec![0, 0, -1]));
    assert!(terms.iter().any(|t| t.rule == rule::LOSER && t.to == 2 && t.points == -1));
    assert_eq!(deal(&m).hands[2], [SVARTE_PETTER]);
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!("the match is over") };
    assert_eq!(outcome.winners, [0, 1], "everyone else shares the win");
}

#[test]
fn the_bots_play_a_position_of_the_hand() {
    let mut m = started();
    m.deal(cards("JS 2D 4D"));
    for level in crate::bots::Level::ALL {
        for seed in 0..20 {
            let choice = crate::bots::choose(&m.rules, &m.state, 1, level, seed).unwrap();
            assert!(m.legal(1).contains(&choice), "{level:?}");
        }
    }
}

/// The drawer pairs the giver's last card with his own last one: both go out on one draw, and
/// the deal ends only then.
#[test]
fn two_may_go_out_on_one_draw() {
    let mut m = started();
    let d = m.state.deals.deal.as_mut().unwrap();
    d.hands = vec![cards("3D"), cards("3C"), cards("JS")];
    let mut rest: Vec<Card> = pack().into_iter().filter(|c| !cards("3D 3C JS").contains(c)).collect();
    rest.sort_by_key(|c| c.rank());
    d.pairs = vec![rest, Vec::new(), Vec::new()];
    d.knowledge = Knowledge::of_hands(3);
    d.turn = 0;
    m.rules.check_invariants(&m.state).unwrap();
    assert_eq!(m.rules.status(&m.state), Status::NeedsShuffle { cards: cards("3C") });
    let events = shuffle_and_draw(&mut m, "3C", 0);
    assert_eq!(events[1], Event::PairLaid { seat: 0, cards: cards("3D 3C") });
    assert_eq!(events[2..4], [Event::WentOut { seat: 0, place: 1 }, Event::WentOut { seat: 1, place: 2 }]);
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!("the match is over") };
    assert_eq!(outcome.winners, [0, 1]);
}
