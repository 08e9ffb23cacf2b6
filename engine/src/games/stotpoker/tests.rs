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

/// A first deal's deck (seat 0 deals) as [`deck`], with `then` as the next cards of the stock.
fn deck_then(players: usize, hole: &str, up: &str, then: &str) -> Vec<Card> {
    let mut deck = deck(players, hole, up);
    let then = cards(then);
    deck.retain(|c| !then.contains(c));
    let head = 2 * players;
    deck.splice(head..head, then);
    deck
}

/// Everyone still in checks when he may and calls when he must, to the end of the deal.
fn check_or_call_to_the_end(m: &mut M) -> Vec<Event> {
    let mut events = Vec::new();
    while let Some(&s) = m.to_act().first() {
        let legal = m.rules.legal_moves(&m.state, s);
        let command = if legal.contains(&Command::Check) { Command::Check } else { Command::Call };
        events.extend(m.ok(s, command));
    }
    events
}

#[test]
fn the_texts_example_of_who_speaks_first() {
    // The text: 8-8 speaks before Q-7, which speaks before Q-4, which speaks before J-10.
    let mut m = M::new(4, Options::default());
    m.deal(deck_then(4, "2S 2C 2D 2H", "JS 8C QD QH", "8D 7C 4C TS"));
    // The queens tie for the forced bet: seat 2, nearer after the dealer, makes it.
    assert_eq!(m.to_act(), [3]);
    m.ok(3, Command::Call);
    m.ok(0, Command::Call);
    let events = m.ok(1, Command::Call);
    assert!(events.iter().any(|e| matches!(e, Event::RoundOpened { round: 2, first: 1 })), "{events:?}");
    let deal = m.state.deals.deal.as_ref().unwrap();
    let showing = |s: Seat| hands::rank(&deal.up[s], Hands::Standard);
    assert!(showing(1) > showing(2) && showing(2) > showing(3) && showing(3) > showing(0));
    m.ok(1, Command::Check);
    assert_eq!(m.to_act(), [2], "the turn goes on clockwise from the first speaker");
}

#[test]
fn soko_puts_the_four_flush_above_a_pair_and_checks_round_the_table_lead_to_the_showdown() {
    // Seat 1: 2H hole, 3H 5H 9H KC up (a four-flush); seat 0: AC hole, AD 7S 8C JD up (aces).
    let play = |soko: bool| {
        let mut m = M::new(2, Options { soko, ..Options::default() });
        m.deal(deck_then(2, "AC 2H", "AD 3H", "5H 7S 9H 8C KC JD"));
        let events = check_or_call_to_the_end(&mut m);
        assert!(events.iter().any(|e| matches!(e, Event::Showdown { .. })), "{events:?}");
        let Some(Event::DealScored { ending, pots, .. }) =
            events.iter().find(|e| matches!(e, Event::DealScored { .. }))
        else {
            panic!("{events:?}")
        };
        assert_eq!(*ending, Ending::Showdown);
        (pots[0].winners.clone(), pots[0].category, pots[0].amount)
    };
    assert_eq!(play(true), (vec![1], Some(Category::FourFlush), 2));
    assert_eq!(play(false), (vec![0], Some(Category::OnePair), 2));
}

#[test]
fn the_least_raise_reads_as_the_basic_bots_strong_hand_and_a_bigger_one_reads_as_nothing() {
    let hole_weights = |m: &M| {
        let deal = m.state.deals.deal.as_ref().unwrap();
        let holes = Holes::new(deal, 2, vec![1]);
        let weight = |c: &str| holes.weights[0][holes.pool.iter().position(|&x| x == cards(c)[0]).unwrap()];
        (weight("9S"), weight("2S"))
    };
    // Seat 0's king is forced; seat 1 shows the nine and raises: by the rule, a pair.
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, "2C 2D 2H", "KC 9D 4S"));
    m.ok(1, Command::Raise { by: 1 });
    assert_eq!(hole_weights(&m), (FITS.pow(MOST_MISSES), FITS.pow(MOST_MISSES - 1)));
    let mut m = M::new(3, Options::default());
    m.deal(deck(3, "2C 2D 2H", "KC 9D 4S"));
    m.ok(1, Command::Raise { by: 5 });
    let (nine, two) = hole_weights(&m);
    assert_eq!(nine, two, "a raise the rule never makes tells nothing");
}
