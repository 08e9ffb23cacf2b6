use super::*;
use crate::cards::{card, cards};
use crate::game::Status;
use crate::simulate::Driver;
use serde_json::json;

type M = Driver<Muggins>;

/// A deck dealt by seat 0 for `n` players: the muggins cards first, then the cards `tops` names
/// for the seats from forehand (seat 1) on, seat by seat, top card first; the rest of the pack
/// after them in pack order.
fn deck(n: usize, muggins: &str, tops: &[&str]) -> Vec<Card> {
    let muggins = cards(muggins);
    assert_eq!(muggins.len(), muggins_cards(n));
    let tops: Vec<Vec<Card>> = tops.iter().map(|t| cards(t)).collect();
    let named: Vec<Card> = muggins.iter().chain(tops.iter().flatten()).copied().collect();
    let mut rest = decks::standard52().into_iter().filter(|c| !named.contains(c));
    let dealt = (0..52 - muggins.len())
        .map(|i| tops.get(i % n).and_then(|t| t.get(i / n)).copied().unwrap_or_else(|| rest.next().expect("a card")));
    let deck: Vec<Card> = muggins.iter().copied().chain(dealt).collect();
    assert!(is_permutation(&deck, &decks::standard52()));
    deck
}

fn place(pile: usize) -> Command {
    Command::Place { pile }
}

fn discard(owner: Seat) -> Command {
    Command::Discard { owner }
}

fn callable() -> Options {
    Options { callable: true, ..Options::default() }
}

#[test]
fn a_four_goes_on_a_three_or_a_five_and_nothing_else() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, "3C 5D 9H KS", &["4H"]));
    assert_eq!(m.to_act(), [1], "forehand begins");
    assert_eq!(m.legal(1), [Command::Turn]);
    assert_eq!(m.ok(1, Command::Turn), [Event::CardTurned { seat: 1, card: card("4H") }]);
    assert_eq!(m.legal(1), [place(0), place(1)], "suits do not count");
    assert_eq!(m.refused(1, place(2)).rule, rule::FIT);
    assert_eq!(m.refused(1, discard(1)).rule, rule::ORDER);
    assert_eq!(m.refused(1, Command::Turn).rule, crate::rules::core::PHASE);
    assert_eq!(m.ok(1, place(1)), [Event::PlacedOnMuggins { seat: 1, card: card("4H"), pile: 1 }]);
    assert_eq!((m.to_act(), m.legal(1)), (vec![1], vec![Command::Turn]), "a card on a muggins pile: he goes on");
    let t = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!(t.muggins.unwrap()[1], cards("5D 4H"));
    assert_eq!(t.pile_sizes, Some(vec![16, 15, 16]));
}

#[test]
fn an_ace_goes_only_on_a_two_and_a_king_only_on_a_queen() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, "2C QD KH 7S", &["AH KS"]));
    m.ok(1, Command::Turn);
    assert_eq!(m.legal(1), [place(0)], "not on the king");
    m.ok(1, place(0));
    m.ok(1, Command::Turn);
    assert_eq!(m.legal(1), [place(1)], "not on the ace");
}

#[test]
fn the_order_is_muggins_then_the_nearest_pile_to_the_left_then_ones_own() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, "2C 2D 2H 5S", &["9C", "8C 7D 6H JH"]));
    m.ok(1, Command::Turn);
    assert_eq!(m.legal(1), [discard(1)], "nothing fits and nobody has a discard pile");
    m.ok(1, discard(1));
    assert_eq!(m.to_act(), [2], "a card on his own pile passes the turn");
    m.ok(2, Command::Turn);
    // Seat 0, to seat 2's left, has no discard pile yet: the nearest is seat 1's.
    assert_eq!(m.legal(2), [discard(1)]);
    assert_eq!(m.refused(2, discard(0)).rule, rule::LEFT);
    assert_eq!(m.refused(2, discard(2)).rule, rule::ORDER);
    m.ok(2, discard(1));
    m.ok(2, Command::Turn);
    m.ok(2, discard(1));
    m.ok(2, Command::Turn);
    assert_eq!(m.legal(2), [place(3)], "the six fits the seven to the left, but a muggins pile comes first");
    assert_eq!(m.refused(2, discard(1)).rule, rule::ORDER);
    m.ok(2, place(3));
    m.ok(2, Command::Turn);
    assert_eq!(m.refused(2, discard(1)).rule, rule::FIT);
    m.ok(2, discard(2));
    assert_eq!(m.to_act(), [0]);
    let t = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!(t.discard_piles, Some(vec![vec![], cards("9C 8C 7D"), cards("JH")]));
}

#[test]
fn the_basic_bot_keeps_the_most_ranks_open() {
    // On the three the four leaves the tops 4, 5, 7 and 9 (six ranks can land); on the five it
    // leaves 3, 4, 7 and 9 (seven ranks).
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, "3C 5D 7H 9S", &["4H"]));
    m.ok(1, Command::Turn);
    let mut rng = crate::random::Rng::new(1);
    let chosen = m.rules.basic_move(&m.state, 1, &mut rng);
    assert_eq!(m.legal(1), [place(0), place(1)]);
    assert_eq!(chosen, Some(place(1)));
}

#[test]
fn a_wrong_placement_is_refused_or_with_the_option_called() {
    let mut m = M::new(3, callable());
    m.deal(deck(3, "2C 2D 2H 5S", &["9C", "3H"]));
    assert_eq!(m.refused(2, Command::Call).rule, crate::rules::core::TURN);
    m.ok(1, Command::Turn);
    m.ok(1, discard(1));
    m.ok(2, Command::Turn);
    assert_eq!(m.legal(2), [place(0), place(1), place(2), discard(2)], "the wrong pile is allowed");
    let events = m.ok(2, discard(2));
    assert_eq!(events, [Event::Discarded { seat: 2, card: card("3H"), owner: 2, wrong: true }]);
    assert_eq!(m.to_act(), [0, 1], "the next player to turn, and every other seat to call");
    assert_eq!(m.legal(0), [Command::Turn, Command::Call]);
    assert_eq!(m.legal(1), [Command::Call]);
    assert_eq!(m.rules.view(&m.state, Viewer::Spectator).callable, Some(2));
    let events = m.ok(1, Command::Call);
    let given: Vec<(Seat, Card)> = events
        .iter()
        .filter_map(|e| match e {
            Event::PenaltyCard { from, to: 2, card } => Some((*from, *card)),
            _ => None,
        })
        .collect();
    assert_eq!(events[0], Event::MugginsCalled { seat: 1, offender: 2 });
    assert_eq!(given.iter().map(|g| g.0).collect::<Vec<_>>(), [0, 1], "clockwise from the offender's left");
    let seen = m.rules.redact(&m.state, &events[1], Viewer::Seat(2), false);
    assert!(seen["card"].is_null(), "given unseen");
    let t = m.rules.view(&m.state, Viewer::Record);
    assert_eq!(t.pile_sizes, Some(vec![15, 14, 17]));
    assert_eq!(t.piles.unwrap()[2][15..], [given[0].1, given[1].1], "under his draw pile");
    assert_eq!(m.to_act(), [0], "one call only");
    assert_eq!(m.refused(0, Command::Call).rule, rule::CALL);
}

#[test]
fn a_call_closes_when_the_next_card_is_turned() {
    let mut m = M::new(3, callable());
    m.deal(deck(3, "2C 2D 2H 5S", &["3H 9C"]));
    m.ok(1, Command::Turn);
    m.ok(1, discard(1));
    assert_eq!(m.to_act(), [0, 2]);
    m.ok(2, Command::Turn);
    assert_eq!(m.to_act(), [2]);
    assert_eq!(m.rules.view(&m.state, Viewer::Spectator).callable, None);
}

#[test]
fn an_empty_draw_pile_is_the_discard_pile_turned_over() {
    // Seven players, seven cards each. Forehand runs his first six up muggins pile 0 and puts
    // the king on his own pile; seat 3 lays a queen on it, passing over the seats between them
    // that have no discard pile yet.
    let mut m = M::new(7, Options::default());
    m.deal(deck(7, "2C 2D 2H", &["3C 4C 5C 6C 7C 8C KD", "5D", "QS 5H", "5S", "TD", "TH", "TS"]));
    for _ in 0..6 {
        m.ok(1, Command::Turn);
        m.ok(1, place(0));
    }
    m.ok(1, Command::Turn);
    m.ok(1, discard(1));
    for seat in [2, 3] {
        m.ok(seat, Command::Turn);
        if seat == 3 {
            assert_eq!(m.legal(3), [discard(1)]);
            assert_eq!(m.refused(3, discard(4)).rule, rule::LEFT);
            m.ok(3, discard(1));
            m.ok(3, Command::Turn);
        }
        m.ok(seat, discard(seat));
    }
    for seat in [4, 5, 6, 0] {
        m.ok(seat, Command::Turn);
        m.ok(seat, discard(seat));
    }
    assert_eq!(m.rules.view(&m.state, Viewer::Spectator).pile_sizes.unwrap()[1], 0);
    let events = m.ok(1, Command::Turn);
    assert_eq!(
        events,
        [Event::DrawPileRenewed { seat: 1, cards: 2 }, Event::CardTurned { seat: 1, card: card("KD") }],
        "turned over unshuffled: the bottom card is drawn first"
    );
}

#[test]
fn the_first_rid_of_every_card_wins() {
    let mut m = M::new(7, Options::default());
    m.deal(deck(7, "2C 2D 2H", &["3C 4C 5C 6C 7C 8C 9C"]));
    for _ in 0..6 {
        m.ok(1, Command::Turn);
        m.ok(1, place(0));
    }
    m.ok(1, Command::Turn);
    let events = m.ok(1, place(0));
    assert_eq!(events[1], Event::PlayerOut { seat: 1 });
    let Event::DealScored { ending, cards, points, .. } = &events[2] else { panic!("{events:?}") };
    assert_eq!((*ending, cards[1], points[0]), (Ending::Out, 0, -7));
    assert!(matches!(m.rules.status(&m.state), Status::Finished { outcome } if outcome.winners == [1]));
}

#[test]
fn the_house_cap_ends_the_game_with_the_fewest_cards() {
    let mut m = M::new(3, Options { turn_limit: 1, ..Options::default() });
    m.deal(deck(3, "3C 5D 9H KS", &["4H"]));
    m.ok(1, Command::Turn);
    let events = m.ok(1, place(0));
    assert!(
        matches!(events[1], Event::DealScored { ending: Ending::TurnLimit, ref cards, .. } if *cards == [16, 15, 16])
    );
    assert!(matches!(m.rules.status(&m.state), Status::Finished { outcome } if outcome.winners == [1]));
}

#[test]
fn the_cap_is_bounded() {
    assert!(Muggins.setup(3, Options { turn_limit: 0, ..Options::default() }).is_err());
    assert!(Muggins.setup(3, Options { turn_limit: MAX_TURNS + 1, ..Options::default() }).is_err());
    assert!(Muggins.setup(7, Options { turn_limit: MAX_TURNS, ..Options::default() }).is_ok());
}

#[test]
fn the_deal_fits_every_player_count() {
    for (n, each) in [(3, 16), (4, 12), (5, 10), (6, 8), (7, 7)] {
        let mut m = M::new(n, Options::default());
        m.deal(decks::standard52());
        let t = m.rules.view(&m.state, Viewer::Spectator);
        assert_eq!(t.pile_sizes, Some(vec![each; n]), "{n} players");
        assert_eq!(t.muggins.unwrap().len() + each * n, 52);
    }
}

#[test]
fn nobody_sees_a_draw_pile_not_even_its_owner() {
    let mut m = M::new(3, Options::default());
    let events = m.deal(deck(3, "3C 5D 9H KS", &["4H"]));
    let seen = m.rules.redact(&m.state, &events[0], Viewer::Seat(1), false);
    assert!(seen["piles"].as_array().unwrap().iter().flat_map(|p| p.as_array().unwrap()).all(Value::is_null));
    assert!(seen["deck"].as_array().unwrap().iter().all(Value::is_null));
    assert_eq!(seen["muggins"], json!(["3C", "5D", "9H", "KS"]), "the muggins cards lie face up");
    let secrets = m.rules.secrets(&m.state);
    assert_eq!(secrets.len(), 48);
    assert!(secrets.iter().all(|(_, knowers)| knowers.is_empty()), "not even the owner looks");
}
