use super::*;
use crate::cards::{card, cards};
use crate::game::{check_turn, Status};
use crate::rules::core;
use crate::simulate::Driver;

type M = Driver<HejKnekt>;

const T0: u64 = 1_700_000_000_000;

/// A deck dealt by seat 0 at a table of `tops.len()` whose seats get first the cards `tops`
/// names (by seat, top card first), the rest of the pack after them in pack order.
fn deck(tops: &[&str]) -> Vec<Card> {
    let n = tops.len();
    let tops: Vec<Vec<Card>> = tops.iter().map(|t| cards(t)).collect();
    let pack = pack_for(n);
    let mut rest = pack.iter().copied().filter(|c| !tops.iter().flatten().any(|t| t == c));
    // Card i goes to seat i + 1 (forehand first).
    let deck: Vec<Card> = (0..pack.len())
        .map(|i| tops[(i + 1) % n].get(i / n).copied().unwrap_or_else(|| rest.next().expect("a card left")))
        .collect();
    assert!(is_permutation(&deck, &pack));
    deck
}

fn dealt(tops: &[&str], options: Options) -> M {
    let mut m = M::new(tops.len(), options);
    m.deal(deck(tops));
    m
}

/// A command received at `at`, through the turn guard as the service sends it.
fn at(m: &mut M, seat: Seat, command: Command, at: u64) -> Vec<Event> {
    check_turn(&m.rules.status(&m.state), seat).unwrap_or_else(|v| panic!("seat {seat}: {v}"));
    let events = m.rules.decide_at(&m.state, seat, &command, Some(at)).unwrap_or_else(|v| panic!("seat {seat}: {v}"));
    m.apply(events)
}

fn react(gesture: Gesture) -> Command {
    Command::React { gesture }
}

fn table(m: &M) -> Table {
    m.rules.view(&m.state, Viewer::Spectator)
}

#[test]
fn each_card_from_ten_to_ace_asks_for_its_gesture() {
    let asked = [
        ("TH", Gesture::Whistle),
        ("JS", Gesture::HejKnekt),
        ("QD", Gesture::GoddagDam),
        ("KC", Gesture::Salute),
        ("AH", Gesture::Slap),
    ];
    for (code, gesture) in asked {
        let mut m = dealt(&["3C", code, "4C", "5C"], Options::default());
        let events = at(&mut m, 1, Command::Turn, T0);
        assert_eq!(
            events,
            [Event::CardTurned {
                seat: 1,
                card: card(code),
                at_ms: T0,
                opened_at_ms: Some(T0),
                closes_at_ms: Some(T0 + 4_000)
            }]
        );
        assert_eq!(m.to_act(), [0, 1, 2, 3], "everyone reacts, the turner too");
        assert_eq!(m.rules.due_at(&m.state), Some(T0 + 4_000));
        let events = at(&mut m, 3, react(gesture), T0 + 412);
        assert_eq!(events, [Event::Reacted { seat: 3, gesture, right: true, at_ms: T0 + 412, after_ms: 412 }]);
        assert_eq!(m.to_act(), [0, 1, 2]);
        assert_eq!(m.rules.basic_move(&m.state, 0, &mut Rng::new(1)), Some(react(gesture)));
    }
}

#[test]
fn a_low_card_passes_the_turn_clockwise() {
    let mut m = dealt(&["3C", "9H", "4C", "5C"], Options::default());
    let events = m.ok(1, Command::Turn);
    assert!(matches!(events[..], [Event::CardTurned { opened_at_ms: None, closes_at_ms: None, .. }]));
    assert_eq!(m.to_act(), [2]);
    assert_eq!(m.rules.due_at(&m.state), None);
    m.ok(2, Command::Turn);
    m.ok(3, Command::Turn);
    m.ok(0, Command::Turn);
    assert_eq!(table(&m).pile, Some(cards("9H 4C 5C 3C")));
    assert_eq!(m.to_act(), [1]);
}

#[test]
fn the_last_to_react_takes_the_pile_and_turns_next() {
    // Seat 1 turns a five, seat 2 the jack of hearts; seats 2, 0 and 3 say "hej knekt": seat 1,
    // the only one left, takes both cards under his pile without being waited for.
    let mut m = dealt(&["3C", "5H 6D", "JH", "4C"], Options::default());
    at(&mut m, 1, Command::Turn, T0);
    at(&mut m, 2, Command::Turn, T0 + 900);
    at(&mut m, 2, react(Gesture::HejKnekt), T0 + 1_300);
    at(&mut m, 0, react(Gesture::HejKnekt), T0 + 1_500);
    let events = at(&mut m, 3, react(Gesture::HejKnekt), T0 + 2_012);
    let reactions = vec![
        Reaction { seat: 2, after_ms: 400 },
        Reaction { seat: 0, after_ms: 600 },
        Reaction { seat: 3, after_ms: 1_112 },
    ];
    assert_eq!(
        events[1],
        Event::PileTaken {
            seat: 1,
            why: Why::Last,
            cards: cards("5H JH"),
            at_ms: T0 + 2_012,
            reactions,
            late: vec![1]
        }
    );
    assert_eq!(m.to_act(), [1], "the loser turns next");
    let t = table(&m);
    assert_eq!(t.pile, Some(vec![]));
    assert_eq!(t.pile_sizes, Some(vec![13, 14, 12, 13]));
    assert_eq!(t.known_under.as_ref().map(|k| k[1].clone()), Some(cards("5H JH")), "seen by all, in their order");
    assert_eq!(t.window, None);
    let secrets = m.rules.secrets(&m.state);
    assert!(secrets.iter().all(|(c, knowers)| knowers.is_empty() && !cards("5H JH").contains(c)));
    assert_eq!(secrets.len(), 50, "every other card is known to nobody, its owner included");
    let Some(Event::PileTaken { cards: under, .. }) = m.log.last() else { panic!() };
    assert_eq!(m.state.deals.deal.as_ref().unwrap().piles[1][12..], under[..]);
}

#[test]
fn a_wrong_gesture_is_recorded_and_changes_nothing() {
    let mut m = dealt(&["3C", "KS", "4C", "5C"], Options::default());
    at(&mut m, 1, Command::Turn, T0);
    let events = at(&mut m, 0, react(Gesture::Slap), T0 + 300);
    assert_eq!(
        events,
        [Event::Reacted { seat: 0, gesture: Gesture::Slap, right: false, at_ms: T0 + 300, after_ms: 300 }]
    );
    assert_eq!(m.to_act(), [0, 1, 2, 3], "still waited for");
    assert_eq!(table(&m).wrong_gestures, Some(vec![1, 0, 0, 0]));
    assert!(table(&m).window.unwrap().reacted.is_empty());
    at(&mut m, 0, react(Gesture::Salute), T0 + 700);
    assert_eq!(m.to_act(), [1, 2, 3]);
}

#[test]
fn a_timeout_with_several_late_seats_the_turner_first() {
    // Seat 2 turns an ace; only seat 0 slaps before the time runs out. Seats 1, 2 and 3 are
    // late; the turner himself is nearest, so he takes the pile.
    let mut m = dealt(&["3C", "5H", "AD", "4C"], Options::default());
    at(&mut m, 1, Command::Turn, T0);
    at(&mut m, 2, Command::Turn, T0 + 500);
    at(&mut m, 0, react(Gesture::Slap), T0 + 1_000);
    assert!(m.rules.time_passes(&m.state, T0 + 4_499).is_err());
    let events = m.apply(m.rules.time_passes(&m.state, T0 + 4_500).unwrap());
    assert_eq!(
        events,
        [Event::PileTaken {
            seat: 2,
            why: Why::Late,
            cards: cards("5H AD"),
            at_ms: T0 + 4_500,
            reactions: vec![Reaction { seat: 0, after_ms: 500 }],
            late: vec![1, 2, 3],
        }]
    );
    assert_eq!(m.to_act(), [2]);
}

#[test]
fn at_a_timeout_the_late_seat_nearest_clockwise_from_the_turner_takes() {
    let mut m = dealt(&["3C", "QH", "4C", "5C"], Options::default());
    at(&mut m, 1, Command::Turn, T0);
    at(&mut m, 1, react(Gesture::GoddagDam), T0 + 450);
    at(&mut m, 2, react(Gesture::Whistle), T0 + 600);
    let events = m.apply(m.rules.time_passes(&m.state, T0 + 4_000).unwrap());
    let Event::PileTaken { seat, why, late, .. } = &events[0] else { panic!("{events:?}") };
    assert_eq!((*seat, *why, late.clone()), (2, Why::Late, vec![0, 2, 3]), "a wrong gesture is no reaction");
}

#[test]
fn refusals() {
    let mut m = dealt(&["3C", "JH", "4C", "5C"], Options::default());
    assert_eq!(m.refused(1, react(Gesture::HejKnekt)).rule, rule::REACT_NOTHING);
    assert_eq!(m.refused(2, Command::Turn).rule, core::TURN);
    m.ok(1, Command::Turn);
    assert_eq!(m.refused(1, Command::Turn).rule, rule::TURN_WAIT);
    m.ok(3, react(Gesture::HejKnekt));
    assert_eq!(m.refused(3, react(Gesture::HejKnekt)).rule, core::TURN, "one reaction a window");
}

/// Plays on, every window settled with seat 1 first and seat 0 last, until the match ends.
fn play_out(m: &mut M) -> Vec<Event> {
    let mut t = T0;
    while let Status::ToAct { seats } = m.rules.status(&m.state) {
        t += 100;
        let seat = if seats.len() == 1 { seats[0] } else { *seats.iter().find(|&&s| s != 0).unwrap() };
        let command = m.rules.basic_move(&m.state, seat, &mut Rng::new(0)).unwrap();
        at(m, seat, command, t);
    }
    m.log.clone()
}

#[test]
fn the_first_rid_of_his_pile_wins() {
    let mut m = dealt(&["", "", "", ""], Options::default());
    let log = play_out(&mut m);
    let Some(Event::DealScored { ending, cards, terms, points, .. }) = log.iter().rev().nth(1) else { panic!() };
    assert_eq!(*ending, Ending::OutOfCards);
    let out: Vec<Seat> = (0..4).filter(|&s| cards[s] == 0).collect();
    assert_eq!(out.len(), 1);
    assert_eq!(points[out[0]], 1);
    assert_eq!(terms[0].rule, rule::END_OUT);
    assert!(matches!(m.rules.status(&m.state), Status::Finished { outcome } if outcome.winners == out));
}

#[test]
fn the_last_card_a_figure_wins_once_another_takes_the_pile() {
    // Three players, 17 cards each: seat 1's last card is an ace; seat 0 is last to slap.
    let mut m = M::new(3, Options::default());
    let mut d = pack_for(3);
    // Seat 1 gets positions 0, 3, 6, ...; put the ace of spades at its last place.
    let ace = d.iter().position(|&c| c == card("AS")).unwrap();
    d.swap(ace, 48);
    m.deal(d);
    let log = play_out(&mut m);
    let last_turn = log.iter().rev().find_map(|e| match e {
        Event::CardTurned { seat: 1, card, .. } => Some(*card),
        _ => None,
    });
    assert_eq!(last_turn, Some(card("AS")), "seat 1 never takes a pile, so its last card is the ace");
    assert!(matches!(log[log.len() - 3], Event::PileTaken { seat: 0, why: Why::Last, .. }));
    assert!(matches!(m.rules.status(&m.state), Status::Finished { outcome } if outcome.winners == [1]));
}

#[test]
fn the_houses_limit_ends_a_match_the_fewest_cards_winning() {
    let mut m = dealt(&["", "", "", ""], Options { turn_limit: 10, ..Options::default() });
    let log = play_out(&mut m);
    let Some(Event::DealScored { ending, turns, cards, .. }) = log.iter().rev().nth(1) else { panic!() };
    assert_eq!((*ending, *turns), (Ending::TurnLimit, 10));
    let fewest = *cards.iter().min().unwrap();
    let Some(Event::MatchEnded { winners, .. }) = log.last() else { panic!() };
    assert!(winners.iter().all(|&w| cards[w] == fewest));
}

#[test]
fn the_pack_divides_evenly() {
    for (players, size) in [(3, 51), (4, 52), (5, 50), (6, 48)] {
        assert_eq!(pack_for(players).len(), size);
        let m = M::new(players, Options::default());
        let Status::NeedsDeck { composition } = m.rules.status(&m.state) else { panic!() };
        assert_eq!(composition.len(), size);
    }
}

#[test]
fn bots_turn_at_once_and_react_after_a_human_like_delay() {
    let mut m = dealt(&["3C", "TH", "4C", "5C"], Options::default());
    assert_eq!(m.rules.bot_reaction_at(&m.state, 1, Level::Strong, 7), None, "a turn is made at once");
    at(&mut m, 1, Command::Turn, T0);
    for level in Level::ALL {
        for seed in 0..50 {
            let when = m.rules.bot_reaction_at(&m.state, 2, level, seed).unwrap();
            assert!((T0 + 420..T0 + 4_000).contains(&when), "{level:?} {when}");
            assert_eq!(when, m.rules.bot_reaction_at(&m.state, 2, level, seed).unwrap(), "one plan a stimulus");
        }
    }
    assert_eq!(bots::choose(&m.rules, &m.state, 2, Level::Strong, 3), Some(react(Gesture::Whistle)));
    // The random bot draws a gesture afresh after a wrong one, one delay later.
    let seed = (0..100).find(|&s| m.rules.bot_move(&m.state, 2, s) != Some(react(Gesture::Whistle))).unwrap();
    let first = m.rules.bot_reaction_at(&m.state, 2, Level::Random, seed).unwrap();
    let wrong = m.rules.bot_move(&m.state, 2, seed).unwrap();
    at(&mut m, 2, wrong, first);
    assert!(m.rules.bot_reaction_at(&m.state, 2, Level::Random, seed).unwrap() > first);
    assert_eq!(m.rules.bot_move(&m.state, 3, 0).map(|c| matches!(c, Command::React { .. })), Some(true));
}

#[test]
fn the_piles_are_hidden_from_everyone_while_the_deal_lasts() {
    let m = dealt(&["3C", "TH", "4C", "5C"], Options::default());
    let start = &m.log[0];
    let seen = m.rules.redact(&m.state, start, Viewer::Seat(1), false);
    assert!(seen["piles"][1].as_array().unwrap().iter().all(Value::is_null), "not even to the owner");
    assert!(seen["deck"].as_array().unwrap().iter().all(Value::is_null));
    assert!(m.rules.secrets(&m.state).iter().all(|(_, k)| k.is_empty()));
    let record = m.rules.view(&m.state, Viewer::Record);
    assert_eq!(record.piles.unwrap()[1][0], card("TH"));
}
