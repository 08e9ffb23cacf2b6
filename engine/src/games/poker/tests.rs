use super::*;
use crate::cards::{card, cards};
use crate::game::cards_in;
use crate::simulate::Driver;

type M = Driver<Poker>;

/// A deck for a first deal (seat 0 deals, everyone has chips): each seat's five cards, the stock
/// from its top, then the rest of the pack.
fn deck(players: usize, hands: &[&str], stock: &str) -> Vec<Card> {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let mut deck: Vec<Card> = (0..HAND * players).map(|i| hands[(1 + i % players) % players][i / players]).collect();
    deck.extend(cards(stock));
    let rest: Vec<Card> = decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect();
    deck.extend(rest);
    assert!(is_permutation(&deck, &decks::standard52()));
    deck
}

fn start(players: usize, hands: &[&str], stock: &str, options: Options) -> M {
    let mut m = M::new(players, options);
    m.deal(deck(players, hands, stock));
    m
}

fn table(m: &M, viewer: Viewer) -> Table {
    m.rules.view(&m.state, viewer)
}

fn scored(events: &[Event]) -> Option<&Event> {
    events.iter().find(|e| matches!(e, Event::DealScored { .. }))
}

const SEVEN: [&str; 7] = [
    "2C 3C 4C 5C 7D", // G, the dealer
    "2D 3D 4D 5D 7H", // A
    "2H 3H 4H 5H 7S", // B
    "2S 3S 4S 5S 8C", // C
    "6C 6D 6H 6S 8D", // D
    "9C 9D 9H 9S 8H", // E
    "TC TD TH TS 8S", // F
];

#[test]
fn the_texts_example_first_round_leaves_42_in_the_pot_and_three_players_in() {
    // A-G are seats 1-6 and 0; G (seat 0) deals and everyone antes 1.
    let mut m = start(7, &SEVEN, "", Options::default());
    assert_eq!(table(&m, Viewer::Spectator).pot, 7);
    assert_eq!(m.to_act(), [1]);
    m.ok(1, Command::Check);
    m.ok(2, Command::Check);
    m.ok(3, Command::Bet { amount: 5 });
    assert_eq!(m.refused(4, Command::Check).rule, rule::CHECK);
    m.ok(4, Command::Call);
    m.ok(5, Command::Fold);
    m.ok(6, Command::Raise { by: 5 });
    m.ok(0, Command::Fold);
    m.ok(1, Command::Fold);
    m.ok(2, Command::Call);
    m.ok(3, Command::Call);
    let events = m.ok(4, Command::Fold);
    assert!(matches!(events.last(), Some(Event::RoundClosed { round: 1, pot: 42 })), "{events:?}");
    let t = table(&m, Viewer::Spectator);
    assert_eq!(t.pot, 42);
    assert_eq!(t.phase, Phase::Drawing);
    assert_eq!(t.folded, vec![0, 1, 4, 5]);
    // The draw goes from the dealer's left among those still in: B, C, then F.
    assert_eq!(m.to_act(), [2]);
    assert_eq!(m.legal(2).len(), 32);
    m.ok(2, Command::Draw { discard: Vec::new() });
    assert_eq!(m.to_act(), [3]);
}

#[test]
fn a_round_of_checks_throws_the_deal_in_and_the_pot_stays() {
    let mut m = start(2, &["2C 3C 4C 5C 7D", "2D 3D 4D 5D 7H"], "", Options::default());
    m.ok(1, Command::Check);
    let events = m.ok(0, Command::Check);
    let Some(Event::DealScored { ending, pot, payments, .. }) = scored(&events) else { panic!("{events:?}") };
    assert_eq!((*ending, *pot, payments.len()), (Ending::ThrownIn, 2, 0));
    assert!(matches!(m.rules.status(&m.state), Status::NeedsDeck { .. }));
    // The next deal is dealt by seat 1, and the new antes go on top of the old pot.
    m.deal(decks::standard52());
    let t = table(&m, Viewer::Spectator);
    assert_eq!((t.deals.deal_number, t.deals.dealer, t.pot), (2, 1, 4));
    assert_eq!(t.stacks, vec![98, 98]);
}

#[test]
fn a_winner_nobody_called_shows_nothing_and_folded_hands_stay_hidden() {
    let mut m = start(3, &["2C 3C 4C 5C 7D", "AD AH 4D 5D 7H", "2H 3H 4H 5H 7S"], "", Options::default());
    m.ok(1, Command::Bet { amount: 10 });
    m.ok(2, Command::Fold);
    let events = m.ok(0, Command::Fold);
    let Some(Event::DealScored { ending, payments, scores, .. }) = scored(&events) else { panic!("{events:?}") };
    assert_eq!(*ending, Ending::Uncalled);
    assert_eq!(payments[0].amount, 13);
    assert_eq!(payments[0].rule, rule::UNCALLED);
    assert_eq!(scores, &vec![-1, 2, -1]);
    // Nobody but each player sees any hand: not in the record, not in any event.
    let record = serde_json::to_value(table(&m, Viewer::Record)).unwrap();
    assert!(cards_in(&record).is_empty(), "{record}");
    for e in &m.log {
        assert!(cards_in(&m.rules.record_event(&m.state, e, None)).is_empty(), "{e:?}");
    }
    let mine = m.rules.record_view(&m.state, Some(1));
    assert!(is_permutation(&cards_in(&mine["hand"]), &cards("AD AH 4D 5D 7H")));
}

/// Two players reach the showdown with equal hands: the pot of 5 splits 3 and 2, the odd chip to
/// the first of them after the dealer; with carry-over it stays for the next deal.
#[test]
fn a_split_pots_odd_chip_goes_to_the_first_winner_after_the_dealer_or_stays() {
    for (odd_chip, shares, left) in [(OddChip::FirstAfterDealer, vec![3, 2], 0), (OddChip::CarryOver, vec![2, 2], 1)] {
        let options = Options { odd_chip, ..Options::default() };
        let mut m = start(3, &["2C 3C 4C 5C 7D", "AD KD QD JD 9H", "AH KH QH JH 9S"], "", options);
        m.ok(1, Command::Bet { amount: 1 });
        m.ok(2, Command::Call);
        m.ok(0, Command::Fold);
        m.ok(1, Command::Draw { discard: Vec::new() });
        m.ok(2, Command::Draw { discard: Vec::new() });
        m.ok(1, Command::Check);
        let events = m.ok(2, Command::Check);
        let Some(Event::Showdown { hands }) = events.iter().find(|e| matches!(e, Event::Showdown { .. })) else {
            panic!("{events:?}")
        };
        assert_eq!(hands.iter().map(|h| h.seat).collect::<Vec<_>>(), vec![1, 2]);
        let Some(Event::DealScored { pots, payments, pot, .. }) = scored(&events) else { panic!() };
        assert_eq!(pots[0].winners, vec![1, 2]);
        assert_eq!(payments.iter().map(|p| p.amount).collect::<Vec<_>>(), shares);
        assert!(payments.iter().all(|p| p.rule == rule::SPLIT));
        assert_eq!(*pot, left);
        // The hands shown are public in the record; the folded one is not.
        let record = serde_json::to_value(table(&m, Viewer::Record)).unwrap();
        assert_eq!(cards_in(&record).len(), 10);
        assert!(!cards_in(&record).contains(&card("7D")));
    }
}

#[test]
fn everyone_all_in_goes_to_the_showdown_and_the_winner_takes_every_chip() {
    let options = Options { chips: 20, ..Options::default() };
    let mut m = start(3, &["2C 3C 4C 5C 7D", "AD AH AS 5D 7H", "KH KS 4H 5H 7S"], "", options);
    m.ok(1, Command::Bet { amount: 19 });
    m.ok(2, Command::Call);
    m.ok(0, Command::Call);
    // Everyone is all in: the draw, then the showdown by itself.
    for s in [1, 2, 0] {
        assert_eq!(m.to_act(), [s]);
        m.ok(s, Command::Draw { discard: Vec::new() });
    }
    let Some(Event::DealScored { pots, .. }) = scored(&m.log) else { panic!("{:?}", m.log) };
    assert_eq!(pots.len(), 1);
    assert_eq!((pots[0].amount, pots[0].winners.clone()), (60, vec![1]));
    assert!(matches!(m.log.last(), Some(Event::MatchEnded { .. })), "seat 1 has every chip");
}

#[test]
fn side_pots_go_to_the_best_hand_among_those_with_a_share() {
    let options = Options { chips: 20, deals: 3, ..Options::default() };
    // Deal 1: seat 2 loses 10 chips to seat 1.
    let mut m = start(3, &["2C 3C 4C 5C 7D", "AD AH AS 5D 7H", "KH KS 4H 5H 7S"], "", options);
    m.ok(1, Command::Bet { amount: 9 });
    m.ok(2, Command::Call);
    m.ok(0, Command::Fold);
    for s in [1, 2] {
        m.ok(s, Command::Draw { discard: Vec::new() });
    }
    m.ok(1, Command::Check);
    m.ok(2, Command::Check);
    assert_eq!(table(&m, Viewer::Spectator).stacks, vec![19, 31, 10]);
    // Deal 2 (seat 1 deals, seat 2 is forehand): seat 2 goes all in for 9 with the best hand;
    // seats 0 and 1 bet on, seat 1 wins the side pot.
    let mut d = Vec::new();
    let hands = ["2C 2D 8C 9C JD", "3C 3D 8D 9D QD", "AC AD AH KC KD"];
    for i in 0..15 {
        // Dealt from seat 2: 2, 0, 1, ...
        d.push(card(hands[[2, 0, 1][i % 3]].split(' ').nth(i / 3).unwrap()));
    }
    let rest: Vec<Card> = decks::standard52().into_iter().filter(|c| !d.contains(c)).collect();
    d.extend(rest);
    m.deal(d);
    m.ok(2, Command::Bet { amount: 9 });
    m.ok(0, Command::Raise { by: 5 });
    m.ok(1, Command::Call);
    for s in [2, 0, 1] {
        m.ok(s, Command::Draw { discard: Vec::new() });
    }
    m.ok(0, Command::Bet { amount: 2 });
    let events = m.ok(1, Command::Call);
    let Some(Event::DealScored { pots, terms, .. }) = scored(&events) else { panic!("{events:?}") };
    assert_eq!(pots.len(), 2);
    assert_eq!((pots[0].amount, pots[0].winners.clone()), (30, vec![2]));
    assert_eq!((pots[1].amount, pots[1].eligible.clone(), pots[1].winners.clone()), (14, vec![0, 1], vec![1]));
    // The breakdown: what each put in and what each won.
    assert!(terms.iter().any(|t| t.to == 0 && t.points == -17 && t.rule == rule::STAKES));
    assert!(terms.iter().any(|t| t.to == 1 && t.points == 14 && t.rule == rule::POT));
}

#[test]
fn when_the_stock_runs_out_the_earlier_discards_are_shuffled_into_a_new_one() {
    let mut m = start(7, &SEVEN, "", Options::default());
    // Everyone calls a bet of 1, then everyone discards five: 17 cards are in the stock.
    m.ok(1, Command::Bet { amount: 1 });
    for s in [2, 3, 4, 5, 6, 0] {
        m.ok(s, Command::Call);
    }
    for s in [1, 2, 3] {
        let discard = cards(SEVEN[s]);
        m.ok(s, Command::Draw { discard });
    }
    assert_eq!(table(&m, Viewer::Spectator).stock_size, Some(2));
    let events = m.ok(4, Command::Draw { discard: cards(SEVEN[4]) });
    assert!(matches!(&events[..], [Event::Drew { count: 5, drawn, .. }] if drawn.len() == 2));
    let Status::NeedsShuffle { cards: to_shuffle } = m.rules.status(&m.state) else { panic!("no shuffle asked") };
    let earlier: Vec<Card> = [1, 2, 3].iter().flat_map(|&s| cards(SEVEN[s])).collect();
    assert!(is_permutation(&to_shuffle, &earlier), "seat 4's own discards stay out");
    assert_eq!(table(&m, Viewer::Spectator).phase, Phase::ShufflingStock);
    assert!(m.to_act().is_empty());
    let mut order = to_shuffle.clone();
    order.reverse();
    let events = m.deal(order.clone());
    assert!(matches!(&events[1], Event::DrawCompleted { seat: 4, drawn } if drawn[..] == order[..3]));
    // Nobody sees the new stock's order, in play or in the record.
    for viewer in [Viewer::Seat(4), Viewer::Seat(1), Viewer::Record] {
        assert!(cards_in(&m.rules.redact(&m.state, &events[0], viewer, true)).is_empty());
    }
    assert_eq!(m.rules.shuffles(&m.state), 2);
    assert_eq!(m.to_act(), [5]);
    assert_eq!(table(&m, Viewer::Seat(4)).hand.unwrap().len(), 5);
}

#[test]
fn jacks_to_open_and_pass_and_out_refuse_what_they_forbid() {
    let options = Options { jacks_to_open: true, pass_and_out: true, ..Options::default() };
    let mut m = start(3, &["JC JD 4C 5C 7D", "2D 3D 4D 5D 7H", "2H 3H 4H 5H 7S"], "", options);
    assert_eq!(m.refused(1, Command::Bet { amount: 2 }).rule, rule::JACKS);
    assert_eq!(m.refused(1, Command::Check).rule, rule::PASS_AND_OUT);
    assert_eq!(m.legal(1), vec![Command::Fold]);
    m.ok(1, Command::Fold);
    m.ok(2, Command::Fold);
    let events = m.log.clone();
    assert!(scored(&events).is_some(), "the dealer takes the antes");
}

#[test]
fn refusals_name_their_rules() {
    let mut m = start(2, &["2C 3C 4C 5C 7D", "2D 3D 4D 5D 7H"], "", Options::default());
    assert_eq!(m.refused(1, Command::Bet { amount: 0 }).rule, rule::AMOUNT);
    assert_eq!(m.refused(1, Command::Bet { amount: 100 }).rule, rule::AMOUNT);
    assert_eq!(m.refused(1, Command::Call).rule, rule::OPEN);
    assert_eq!(m.refused(1, Command::Draw { discard: Vec::new() }).rule, core::PHASE);
    m.ok(1, Command::Bet { amount: 3 });
    assert_eq!(m.refused(0, Command::Bet { amount: 3 }).rule, rule::OPEN);
    m.ok(0, Command::Call);
    assert_eq!(m.refused(1, Command::Check).rule, core::PHASE);
    let twice = Command::Draw { discard: cards("2D 2D") };
    assert_eq!(m.refused(1, twice).rule, rule::DISCARD);
    assert_eq!(m.refused(1, Command::Draw { discard: cards("2C") }).rule, core::CARD_NOT_HELD);
}

#[test]
fn a_seat_sees_its_own_cards_and_only_the_counts_of_others() {
    let mut m = start(2, &["2C 3C 4C 5C 7D", "2D 3D 4D 5D 7H"], "AS KS", Options::default());
    m.ok(1, Command::Bet { amount: 1 });
    m.ok(0, Command::Call);
    let events = m.ok(1, Command::Draw { discard: cards("2D 3D") });
    let seen = m.rules.redact(&m.state, &events[0], Viewer::Seat(1), false);
    assert_eq!(cards_in(&seen), cards("2D 3D AS KS"));
    let other = m.rules.redact(&m.state, &events[0], Viewer::Seat(0), false);
    assert!(cards_in(&other).is_empty());
    assert_eq!(other["count"], 2);
    assert_eq!(table(&m, Viewer::Seat(1)).discards.unwrap()[1], cards("2D 3D"));
    assert_eq!(table(&m, Viewer::Seat(0)).draws, vec![None, Some(2)]);
}

#[test]
fn the_standard_draw_keeps_what_makes_the_hand() {
    assert_eq!(standard_discard(&cards("2C 2D 9H JS KC")), cards("9H JS KC"));
    assert_eq!(standard_discard(&cards("2C 2D 9H 9S KC")), cards("KC"));
    assert_eq!(standard_discard(&cards("2H 5H 9H JH KC")), cards("KC"));
    assert_eq!(standard_discard(&cards("5C 6D 7H 8S KC")), cards("KC"));
    assert_eq!(standard_discard(&cards("2C 5D 9H JS KC")), cards("2C 5D 9H JS"));
    assert!(standard_discard(&cards("2C 3D 4H 5S 6C")).is_empty());
}
