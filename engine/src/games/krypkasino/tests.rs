use super::*;
use crate::cards::{card, cards};
use crate::simulate::Driver;

type M = Driver<Krypkasino>;

fn pack() -> Vec<Card> {
    decks::double(&decks::standard52())
}

/// A match of `players` whose deal lies as given: each seat's hand, the table, nothing set aside,
/// and the rest of the double pack in the stock (seat 1 to play, seat 0 having played last).
fn at(hands: &[&str], table: &str) -> M {
    let mut m = M::new(hands.len(), Options::default());
    m.deal(pack());
    let deal = m.state.deals.deal.as_mut().unwrap();
    deal.hands = hands.iter().map(|h| cards(h)).collect();
    deal.table = Spread::new(cards(table));
    deal.set_aside.clear();
    let mut placed: Vec<Card> = deal.hands.concat();
    placed.extend(cards(table));
    deal.stock = capture::without(&pack(), &placed);
    deal.last_player = Some(0);
    m
}

fn take_with(code: &str, worth: u8) -> Command {
    Command::TakeWith { card: card(code), worth }
}

fn take(codes: &str) -> Command {
    Command::Take { group: cards(codes) }
}

fn lay_out(code: &str) -> Command {
    Command::LayOut { card: card(code) }
}

fn deal(m: &M) -> &Deal {
    m.state.deals.deal.as_ref().unwrap()
}

#[test]
fn each_round_deals_a_quarter_of_the_double_pack_one_card_at_a_time() {
    for (players, hand, table) in [(2, 10, 6), (3, 8, 2), (4, 6, 2), (5, 5, 1), (6, 4, 2)] {
        let mut m = M::new(players, Options::default());
        let events = m.deal(pack());
        let Event::DealStarted { hands, table: laid, set_aside, .. } = &events[0] else { panic!() };
        assert!(hands.iter().all(|h| h.len() == hand));
        assert_eq!(laid.len() + set_aside.len(), table);
        assert_eq!(hand * players + table, 26);
        assert_eq!(deal(&m).stock.len(), 78);
        // One card at a time from forehand: seat 1 gets the top card, seat 2 (or 0) the next.
        assert!(hands[1].contains(&pack()[0]) && hands[2 % players].contains(&pack()[1]));
    }
}

#[test]
fn court_cards_dealt_to_the_table_are_set_aside() {
    let mut m = M::new(6, Options::default());
    // Six hands of four, then the table: a king and a five.
    let mut deck = capture::without(&pack(), &cards("KH 5D"));
    deck.splice(24..24, cards("KH 5D"));
    m.deal(deck);
    assert_eq!(deal(&m).table.cards(), cards("5D"));
    assert_eq!(deal(&m).set_aside, cards("KH"));
}

#[test]
fn the_texts_example_a_nine_must_take_the_nine_and_two_with_seven_but_not_the_five() {
    let mut m = at(&["3C", "9H 4C"], "9C 2D 5H 7S");
    // The nine can take, so it may not be laid out; the four cannot, so it may.
    assert_eq!(m.refused(1, lay_out("9H")).rule, rule::NO_CRAWL);
    assert_eq!(m.legal(1), vec![take_with("9H", 9), lay_out("4C")]);
    m.ok(1, take_with("9H", 9));
    assert_eq!(m.legal(1), vec![take("9C"), take("2D 7S")]);
    m.ok(1, take("9C"));
    // One group is not enough: two and seven still make nine.
    assert_eq!(m.legal(1), vec![take("2D 7S")]);
    let events = m.ok(1, take("2D 7S"));
    assert!(matches!(&events[1], Event::TakeEnded { tabbar: 0, charged: None, .. }));
    assert_eq!(deal(&m).table.cards(), cards("5H"));
}

#[test]
fn the_texts_example_a_tabbe_on_ten_is_forced_and_the_player_before_is_charged() {
    // Ace, seven and three lie on the table; seat 0 lays out a nine: "a tabbe on ten".
    let mut m = at(&["9S 4H", "TH 6C 2C"], "AC 7D 3H");
    m.state.deals.deal.as_mut().unwrap().to_play = 0;
    let events = m.ok(0, lay_out("9S"));
    assert!(matches!(&events[0], Event::LaidOut { tabbe_on, .. } if *tabbe_on == vec![10]));
    // Seat 1 may not crawl with the six, nor take a part with the ten: the sweep is forced.
    assert_eq!(m.refused(1, lay_out("6C")).rule, rule::FORCED_TABBE);
    assert_eq!(m.legal(1), vec![take_with("TH", 10)]);
    m.ok(1, take_with("TH", 10));
    assert_eq!(m.legal(1), vec![take("AC 9S"), take("7D 3H")]);
    m.ok(1, take("7D 3H"));
    let events = m.ok(1, take("AC 9S"));
    assert!(matches!(&events[1], Event::TakeEnded { tabbar: 1, charged: Some(0), .. }));
    assert_eq!(deal(&m).tabbar[1], cards("TH"));
    assert_eq!(deal(&m).dukningar, vec![1, 0]);
}

#[test]
fn a_forced_sweep_offers_only_groups_that_keep_it_in_reach() {
    // Six takes the ace with five, two with four, three with three: taking ace, two and three
    // first would leave five, four and three that no six takes.
    let mut m = at(&["KC", "6H 8C"], "AC 5D 2H 4S 3C 3D");
    m.ok(1, take_with("6H", 6));
    let offered = m.legal(1);
    assert!(offered.contains(&take("AC 5D")) && offered.contains(&take("3C 3D")));
    assert!(!offered.contains(&take("AC 2H 3C")));
    assert_eq!(m.refused(1, take("AC 2H 3C")).rule, rule::FORCED_TABBE);
}

#[test]
fn taking_the_twin_is_a_dubbeltabbe_two_tabbar_and_two_dukningar() {
    let mut m = at(&["KC", "7H 8C"], "7H 3D 4D 2C");
    m.ok(1, take_with("7H", 7));
    m.ok(1, take("7H"));
    let events = m.ok(1, take("3D 4D"));
    assert!(matches!(&events[1], Event::TakeEnded { tabbar: 2, charged: Some(0), .. }));
    assert_eq!(deal(&m).dukningar, vec![2, 0]);
    assert_eq!(deal(&m).tabbar[1], cards("7H 7H"));
    assert_eq!(deal(&m).table.cards(), cards("2C"));
}

#[test]
fn an_ace_that_can_take_at_either_worth_may_not_crawl() {
    let mut m = at(&["KC", "AH 8C"], "KD 2S 9C");
    // Nothing on the table makes 1 or 14, so the ace crawls; once an ace lies there it takes at
    // either worth (the ace alone, or king and ace as 14), and may not.
    assert!(m.legal(1).contains(&lay_out("AH")));
    m.state.deals.deal.as_mut().unwrap().table = Spread::new(cards("KD AD 9C"));
    assert_eq!(m.refused(1, lay_out("AH")).rule, rule::NO_CRAWL);
    assert_eq!(m.legal(1), vec![take_with("AH", 1), take_with("AH", 14), lay_out("8C")]);
}

#[test]
fn when_every_seat_has_a_tabbe_each_turns_one_down() {
    let mut m = at(&["KC 5C", "9H 8C"], "4D 5S");
    {
        let d = m.state.deals.deal.as_mut().unwrap();
        d.captured[0] = cards("QS");
        d.tabbar[0] = cards("QS");
        d.stock = capture::without(&d.stock, &cards("QS"));
    }
    m.ok(1, take_with("9H", 9));
    let events = m.ok(1, take("4D 5S"));
    assert!(events.iter().any(|e| matches!(e, Event::TabbarTurnedDown { cards: c } if *c == cards("QS 9H"))));
    assert!(deal(&m).tabbar.iter().all(Vec::is_empty));
    assert_eq!(deal(&m).turned_down[1], cards("9H"));
}

#[test]
fn the_last_taker_gets_the_table_and_the_court_cards_and_the_deal_is_scored() {
    let mut m = at(&["3C", "9H"], "TD 5C");
    {
        let d = m.state.deals.deal.as_mut().unwrap();
        let rest = capture::without(&pack(), &cards("3C 9H TD 5C KS"));
        d.stock.clear();
        d.captured[0] = rest;
        d.set_aside = cards("KS");
        d.last_taker = Some(0);
        d.to_play = 0;
    }
    // Both crawl: nothing on the table makes three or nine.
    m.ok(0, lay_out("3C"));
    let events = m.ok(1, lay_out("9H"));
    assert!(events.iter().any(|e| matches!(e, Event::TableSwept { seat: 0, cards: c } if c.len() == 5)));
    let Some(Event::DealScored { points, .. }) = events.iter().find(|e| matches!(e, Event::DealScored { .. })) else {
        panic!("no scoring in {events:?}")
    };
    // Seat 0 holds both packs: 21 points a pack.
    assert_eq!(points, &vec![42, 0]);
    assert!(
        matches!(events.last(), Some(Event::MatchEnded { winners, .. }) if *winners == vec![1])
            || m.state.deals.number < 2
    );
}

#[test]
fn scoring_counts_every_card_of_both_packs() {
    let mut d = at(&["3C", "9H"], "").state.deals.deal.clone().unwrap();
    d.captured[0] = pack();
    d.tabbar[0] = cards("3C 3C");
    d.dukningar[1] = 2;
    let terms = seat_terms(&d, 0, &pack());
    let total: i64 = terms.iter().map(|t| t.points).sum();
    // Per pack: storan 3, lillan 2, the ace of spades 2, three other aces, eleven other spades.
    assert_eq!(total, 2 * (3 + 2 + 2 + 3 + 11) + 10);
    assert_eq!(seat_terms(&d, 1, &[]).iter().map(|t| t.points).sum::<i64>(), -10);
}
