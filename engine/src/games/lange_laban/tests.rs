use super::*;
use crate::cards::{card, cards, is_permutation};
use crate::game::Status;
use crate::simulate::Driver;
use serde_json::json;

type M = Driver<LangeLaban>;

use Suit::{Clubs, Diamonds, Hearts, Spades};

/// A deck dealt by seat 0 that gives each seat (in seat order) the cards named first, one at a
/// time from seat 1, the rest of the pack after them.
fn deck(n: usize, named: &[&str]) -> Vec<Card> {
    let named: Vec<Vec<Card>> = named.iter().map(|h| cards(h)).collect();
    let all: Vec<Card> = named.iter().flatten().copied().collect();
    let mut rest = decks::standard52().into_iter().filter(|c| !all.contains(c));
    let deck: Vec<Card> = (0..52)
        .map(|i| {
            let seat = (1 + i) % n;
            named.get(seat).and_then(|h| h.get(i / n)).copied().unwrap_or_else(|| rest.next().expect("a card"))
        })
        .collect();
    assert!(is_permutation(&deck, &decks::standard52()));
    deck
}

/// A position in the middle of a deal: these hands (by seat), these trumps, the rest of the pack
/// already put aside, forehand (seat 1) to lead.
fn position(hands: &[&str], trumps: &[Suit], options: Options) -> M {
    let n = hands.len();
    let mut m = M::new(n, options);
    m.deal(decks::standard52());
    let deal = m.state.deals.deal.as_mut().unwrap();
    deal.hands = hands.iter().map(|h| sorted(cards(h))).collect();
    deal.trumps = trumps.to_vec();
    let held: Vec<Card> = deal.hands.concat();
    deal.aside = decks::standard52().into_iter().filter(|c| !held.contains(c)).collect();
    deal.knowledge = Knowledge::of_hands(n);
    if let Some(holder) = deal.hands.iter().position(|h| h.contains(&JACK_OF_CLUBS)) {
        deal.knowledge.shown_to_all(holder, &[JACK_OF_CLUBS]);
    }
    deal.to_play = 1;
    m.rules.check_invariants(&m.state).unwrap();
    m
}

fn play(m: &mut M, seat: Seat, code: &str) -> Vec<Event> {
    m.ok(seat, Command::Play { card: card(code) })
}

fn legal(m: &M, seat: Seat) -> Vec<Card> {
    m.legal(seat).into_iter().map(|Command::Play { card }| card).collect()
}

#[test]
fn all_cards_are_dealt_singly_and_the_jack_of_clubs_fixes_the_trumps() {
    let mut m = M::new(3, Options::default());
    // Seat 2 gets the jack of clubs: clubs for it, then spades for seat 0, hearts for seat 1.
    let events = m.deal(deck(3, &["", "", "JC"]));
    let Event::DealStarted { hands, trumps, forehand, .. } = &events[0] else { panic!("{events:?}") };
    assert_eq!(hands.iter().map(Vec::len).collect::<Vec<_>>(), vec![17, 18, 17], "forehand gets the odd card");
    assert_eq!(trumps, &vec![Spades, Hearts, Clubs]);
    assert_eq!((*forehand, m.to_act()), (1, vec![1]));
    let view = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!(view.public_cards.unwrap(), vec![vec![], vec![], cards("JC")], "the trumps told everyone");
    assert!(m.rules.secrets(&m.state).iter().all(|(c, _)| *c != JACK_OF_CLUBS));
    assert_eq!(legal(&m, 1).len(), 18, "forehand leads any card");

    let mut four = M::new(4, Options::default());
    let events = four.deal(deck(4, &["", "JC"]));
    let Event::DealStarted { trumps, hands, .. } = &events[0] else { panic!() };
    assert_eq!(trumps, &vec![Diamonds, Clubs, Spades, Hearts]);
    assert!(hands.iter().all(|h| h.len() == 13));
}

#[test]
fn a_card_must_beat_the_highest_of_the_suit_led_and_trumps_in_the_trick_do_not_count() {
    let mut m = position(
        &["TH 4H 2D", "5H 3S 4C", "3H 9H KH KS 6C", "2S 4S 8D"],
        &[Hearts, Clubs, Diamonds, Spades],
        Options::default(),
    );
    play(&mut m, 1, "5H");
    assert_eq!(legal(&m, 2), cards("9H KH"), "either higher heart, the player's choice");
    assert_eq!(m.refused(2, Command::Play { card: card("3H") }).rule, rule::HIGHER);
    assert_eq!(m.refused(2, Command::Play { card: card("KS") }).rule, rule::HIGHER);
    assert_eq!(m.refused(2, Command::Play { card: card("7H") }).rule, crate::rules::core::CARD_NOT_HELD);
    assert_eq!(m.rules.basic_move(&m.state, 2, &mut Rng::new(1)), Some(Command::Play { card: card("9H") }));
    play(&mut m, 2, "9H");
    // Void in hearts, seat 3 may lay any of its own trumps (spades), nothing else.
    assert_eq!(legal(&m, 3), cards("2S 4S"));
    assert_eq!(m.refused(3, Command::Play { card: card("8D") }).rule, rule::OWN_TRUMP);
    let events = play(&mut m, 3, "4S");
    assert_eq!(events, [Event::CardPlayed { seat: 3, card: card("4S"), trick_number: 1, as_trump: true }]);
    // The spade does not count: seat 0 must still beat the nine of hearts.
    assert_eq!(legal(&m, 0), cards("TH"));
    let events = play(&mut m, 0, "TH");
    let plays: Vec<Play> =
        [(1, "5H"), (2, "9H"), (3, "4S"), (0, "TH")].iter().map(|&(seat, c)| Play { seat, card: card(c) }).collect();
    assert_eq!(events[1], Event::TrickSetAside { trick_number: 1, plays, leader: 0 }, "the last to play leads");
    assert_eq!(m.to_act(), [0]);
    assert_eq!(legal(&m, 0), cards("2D 4H"), "any card to lead");
    let view = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!(view.trick.map(|t| (t.leader, t.plays.len())), Some((0, 0)));
    assert_eq!(view.trick_number, Some(2));
    assert!(view.set_aside.unwrap().ends_with(&cards("5H 9H 4S TH")));
}

#[test]
fn who_cannot_beat_or_trump_picks_up_the_trick_face_up_and_leads() {
    let mut m = position(&["TD 2H", "9D 5C", "3D 8D JC"], &[Spades, Hearts, Clubs], Options::default());
    // Seat 2 holds only lower diamonds: the pick-up is automatic.
    let events = play(&mut m, 1, "9D");
    assert_eq!(events[1], Event::TrickPickedUp { seat: 2, trick_number: 1, cards: cards("9D") });
    assert_eq!(m.to_act(), [2], "who picked up leads");
    let view = m.rules.view(&m.state, Viewer::Seat(0));
    assert_eq!(view.public_cards.unwrap()[2], cards("JC 9D"));
    assert_eq!(view.hand_sizes, Some(vec![2, 1, 4]));
    assert!(m.rules.secrets(&m.state).iter().all(|(c, _)| *c != card("9D")), "the picked-up card is public");
    play(&mut m, 2, "8D");
    play(&mut m, 0, "TD");
    // Seat 1 holds no diamonds and no hearts (its trump): it picks up both cards.
    assert_eq!(m.log.last(), Some(&Event::TrickPickedUp { seat: 1, trick_number: 2, cards: cards("8D TD") }));
    assert_eq!(m.to_act(), [1]);
    assert_eq!(m.rules.view(&m.state, Viewer::Spectator).public_cards.unwrap()[1], cards("8D TD"));
    // A public card played leaves no trace.
    play(&mut m, 1, "TD");
    assert_eq!(m.rules.view(&m.state, Viewer::Spectator).public_cards.unwrap()[1], cards("8D"));
}

#[test]
fn who_goes_out_drops_out_and_the_last_holding_cards_is_lange_laban() {
    let mut m = position(&["AH 2S", "5H", "9H 3C"], &[Spades, Hearts, Clubs], Options::default());
    let events = play(&mut m, 1, "5H");
    assert_eq!(events[1], Event::WentOut { seat: 1, place: 1 });
    assert_eq!(m.to_act(), [2]);
    play(&mut m, 2, "9H");
    let events = play(&mut m, 0, "AH");
    // The leader went out with his lead: the trick is complete once the others still in laid.
    assert!(matches!(events[1], Event::TrickSetAside { leader: 0, .. }), "{events:?}");
    let events = play(&mut m, 0, "2S");
    assert_eq!(events[1], Event::WentOut { seat: 0, place: 2 });
    let Event::DealScored { ending, losers, places, cards_left, terms, scores, .. } = &events[2] else {
        panic!("{events:?}")
    };
    assert_eq!((*ending, losers.clone(), places.clone()), (Ending::LastHolding, vec![2], vec![1, 0, 2]));
    assert_eq!(cards_left, &vec![0, 0, 1]);
    assert_eq!((terms[0].rule.as_str(), scores.clone()), (rule::LOSER, vec![0, 0, -1]));
    let Event::MatchEnded { winners, .. } = &events[3] else { panic!("{events:?}") };
    assert_eq!(winners, &vec![1, 0]);
    assert!(matches!(m.rules.status(&m.state), Status::Finished { .. }));
    let view = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!(view.out, Some(vec![1, 0]));
    assert_eq!(view.phase, Phase::Finished);
}

#[test]
fn after_a_last_card_closes_a_trick_the_next_player_still_in_leads() {
    let mut m = position(&["AH", "5H 2C", "9H 3C", "TH 4D"], &[Diamonds, Clubs, Spades, Hearts], Options::default());
    play(&mut m, 1, "5H");
    play(&mut m, 2, "9H");
    play(&mut m, 3, "TH");
    let events = play(&mut m, 0, "AH");
    assert_eq!(events[1], Event::WentOut { seat: 0, place: 1 });
    assert!(matches!(events[2], Event::TrickSetAside { leader: 1, .. }), "{events:?}");
    assert_eq!(m.to_act(), [1]);
}

#[test]
fn the_house_cap_on_pick_ups_in_a_row_ends_the_deal_the_most_cards_losing() {
    let mut m = position(&["TD 2H", "9D 5C", "3D 8D JC"], &[Spades, Hearts, Clubs], Options { pick_up_limit: 1 });
    let events = play(&mut m, 1, "9D");
    let Event::DealScored { ending, losers, places, terms, .. } = &events[2] else { panic!("{events:?}") };
    assert_eq!((*ending, losers.clone(), places.clone()), (Ending::PickUpLimit, vec![2], vec![1, 0, 2]));
    assert_eq!(terms[0].rule, rule::PICK_UP_LIMIT);
    assert!(matches!(&events[3], Event::MatchEnded { winners, .. } if winners == &vec![1, 0]));
    assert!(LangeLaban.setup(3, Options { pick_up_limit: 0 }).is_err());
    assert!(LangeLaban.setup(3, Options { pick_up_limit: MAX_PICK_UP_LIMIT + 1 }).is_err());
}

#[test]
fn a_seat_sees_its_own_hand_and_the_trumps_the_record_everything() {
    let mut m = M::new(3, Options::default());
    let events = m.deal(deck(3, &["", "", "JC"]));
    let seen = m.rules.redact(&m.state, &events[0], Viewer::Seat(1), false);
    assert_eq!(seen["deck"], Value::Null);
    assert_eq!((seen["hands"][0].clone(), seen["hands"][2].clone()), (Value::Null, Value::Null));
    assert_eq!(seen["hands"][1].as_array().unwrap().len(), 18);
    assert_eq!(seen["trumps"], json!(["spades", "hearts", "clubs"]));
    assert_eq!(seen["hand_sizes"], json!([17, 18, 17]));
    let record = m.rules.redact(&m.state, &events[0], Viewer::Record, false);
    assert_eq!(record, serde_json::to_value(&events[0]).unwrap());
    let view = m.rules.view(&m.state, Viewer::Seat(1));
    assert_eq!(view.hand.map(|h| h.len()), Some(18));
    assert!(view.hands.is_none() && view.deck.is_none());
    assert_eq!(m.rules.view(&m.state, Viewer::Record).hands.map(|h| h.len()), Some(3));
}

#[test]
fn the_basic_bot_leads_low_outside_its_trumps_and_beats_cheaply() {
    let m = position(&["TD 2H", "9D 2C 4C", "3D 8D JC"], &[Spades, Clubs, Hearts], Options::default());
    // Seat 1's trump is clubs: it keeps 2C and leads... the lowest card outside clubs is 9D.
    let picks: Vec<Option<Command>> = (0..20).map(|s| m.rules.basic_move(&m.state, 1, &mut Rng::new(s))).collect();
    let usual = Some(Command::Play { card: card("9D") });
    assert!(picks.iter().filter(|p| **p == usual).count() >= 12, "{picks:?}");
}
