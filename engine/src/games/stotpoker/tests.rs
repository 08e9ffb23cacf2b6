use super::*;
use crate::cards::cards;
use crate::game::cards_in;
use crate::simulate::Driver;

type M = Driver<Stotpoker>;

/// A deck for a first deal (seat 0 deals): the hole cards from seat 1 round to seat 0, the up
/// cards likewise, then the rest of the pack in order.
fn deck(players: usize, hole: &str, up: &str) -> Vec<Card> {
    let (hole, up) = (cards(hole), cards(up));
    let at = |cards: &[Card], i: usize| cards[(1 + i) % players];
    let mut deck: Vec<Card> = (0..players).map(|i| at(&hole, i)).chain((0..players).map(|i| at(&up, i))).collect();
    let rest: Vec<Card> = decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect();
    deck.extend(rest);
    deck
}

#[test]
fn the_highest_up_card_makes_the_forced_bet_and_a_tie_goes_to_the_nearest_after_the_dealer() {
    // Up cards by seat: 0 K, 1 9, 2 K, 3 4: seats 0 and 2 tie; seat 2 is nearer after the dealer.
    let mut m = M::new(4, Options::default());
    let events = m.deal(deck(4, "2C 2D 2H 2S", "KC 9D KH 4S"));
    assert!(events.iter().any(|e| matches!(e, Event::ForcedBet { seat: 2, amount: 1, .. })), "{events:?}");
    assert_eq!(m.to_act(), [3]);
    assert_eq!(m.refused(3, Command::Check).rule, rule::CHECK);
    let low = Options { low_forces: true, ..Options::default() };
    let mut m = M::new(4, low);
    let events = m.deal(deck(4, "2C 2D 2H 2S", "KC 9D KH 4S"));
    assert!(events.iter().any(|e| matches!(e, Event::ForcedBet { seat: 3, .. })), "{events:?}");
}

#[test]
fn the_best_hand_showing_speaks_first_and_hole_cards_stay_hidden() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, "2C 2D 2H", "KC 9D 4S"));
    // Seat 0 is forced (the king); 1 and 2 call, and the forced bet was the round's opening.
    m.ok(1, Command::Call);
    let events = m.ok(2, Command::Call);
    let Some(Event::UpCardsDealt { cards: dealt, .. }) =
        events.iter().find(|e| matches!(e, Event::UpCardsDealt { .. }))
    else {
        panic!("{events:?}")
    };
    assert_eq!(dealt.iter().flatten().count(), 3);
    let table = m.rules.view(&m.state, Viewer::Spectator);
    assert!(table.hole_cards.iter().all(Option::is_none));
    let mine = m.rules.view(&m.state, Viewer::Seat(1));
    assert_eq!(mine.hole_cards[1], Some(cards("2D")[0]));
    let first = m.to_act()[0];
    let deal = m.state.deals.deal.as_ref().unwrap();
    let best = (0..3).map(|s| hands::rank(&deal.up[s], Hands::Standard)).max().unwrap();
    assert_eq!(hands::rank(&deal.up[first], Hands::Standard), best);
    let started = m.rules.redact(&m.state, &m.log[0], Viewer::Seat(2), false);
    assert_eq!(cards_in(&started["hole"]), cards("2H"));
}

#[test]
fn everyone_folding_to_the_forced_bet_gives_it_the_pot_unseen() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, "2C 2D 2H", "KC 9D 4S"));
    m.ok(1, Command::Fold);
    let events = m.ok(2, Command::Fold);
    let Some(Event::DealScored { ending, payments, .. }) =
        events.iter().find(|e| matches!(e, Event::DealScored { .. }))
    else {
        panic!("{events:?}")
    };
    assert_eq!(*ending, Ending::Uncalled);
    assert_eq!((payments[0].to, payments[0].amount), (Account::Seat(0), 1));
    let record = serde_json::to_value(m.rules.view(&m.state, Viewer::Record)).unwrap();
    assert!(!cards_in(&record).contains(&cards("2C")[0]), "the winner's hole card is never shown");
}
