use super::*;
use crate::cards::cards;
use crate::game::cards_in;
use crate::simulate::Driver;

type M = Driver<Blackjack>;

fn one_pack() -> Options {
    Options { packs: 1, ..Options::default() }
}

/// A shoe whose top is `head` (first cards by seat, the up card, second cards, the hole card,
/// then the cards drawn), the rest of the packs after it.
fn shoe(options: &Options, head: &str) -> Vec<Card> {
    let head = cards(head);
    let mut rest = options.shoe();
    for c in &head {
        let at = rest.iter().position(|x| x == c).expect("a card of the shoe");
        rest.remove(at);
    }
    head.into_iter().chain(rest).collect()
}

fn scored(events: &[Event]) -> (Vec<Settled>, Vec<i64>) {
    events
        .iter()
        .find_map(|e| match e {
            Event::RoundScored { settled, points, .. } => Some((settled.clone(), points.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no score in {events:?}"))
}

#[test]
fn everyone_bets_at_once_in_even_chips_up_to_the_limit() {
    let mut m = M::new(3, one_pack());
    m.deal(shoe(&one_pack(), ""));
    assert_eq!(m.to_act(), [0, 1, 2]);
    assert_eq!(m.refused(1, Command::Bet { amount: 3 }).rule, rule::BET_AMOUNT);
    assert_eq!(m.refused(1, Command::Bet { amount: 22 }).rule, rule::BET_AMOUNT);
    assert_eq!(m.refused(1, Command::Hit).rule, rule::BET_PLACE);
    m.ok(1, Command::Bet { amount: 20 });
    assert_eq!(m.to_act(), [0, 2]);
    assert_eq!(m.legal(0).len(), 10);
}

#[test]
fn the_dealer_stands_on_soft_seventeen_and_the_hole_card_is_nobodys_until_turned() {
    let o = one_pack();
    let mut m = M::new(1, o.clone());
    m.deal(shoe(&o, "TC 6D 8H AS 5C"));
    m.ok(0, Command::Bet { amount: 2 });
    for viewer in [Viewer::Seat(0), Viewer::Spectator] {
        let seen = cards_in(&serde_json::to_value(m.rules.view(&m.state, viewer)).unwrap());
        assert!(!seen.contains(&cards("AS")[0]), "{viewer:?} sees the hole card");
    }
    assert!(m.rules.secrets(&m.state).contains(&(cards("AS")[0], vec![])));
    let events = m.ok(0, Command::Stand);
    assert!(events.iter().any(|e| matches!(e, Event::HoleCardTurned { .. })));
    assert!(!events.iter().any(|e| matches!(e, Event::DealerDrew { .. })), "soft 17 stands: {events:?}");
    let (settled, points) = scored(&events);
    assert_eq!(settled[0].result, HandResult::Won);
    assert_eq!(points, [2]);
}

#[test]
fn the_dealer_draws_on_sixteen() {
    let o = one_pack();
    let mut m = M::new(1, o.clone());
    m.deal(shoe(&o, "TC 6D 8H TS 9C"));
    m.ok(0, Command::Bet { amount: 4 });
    let events = m.ok(0, Command::Stand);
    assert!(events.iter().any(|e| matches!(e, Event::DealerDrew { card } if *card == cards("9C")[0])));
    let (settled, points) = scored(&events);
    assert_eq!(settled[0].result, HandResult::DealerBust);
    assert_eq!(points, [4]);
}

#[test]
fn ties_go_to_the_bank_on_seventeen_to_nineteen_and_push_on_twenty_and_twenty_one() {
    for (head, bank_keeps) in [("TC 8D 8H TS", true), ("TC QD QH TS", false)] {
        for ties in [Ties::Swedish, Ties::Push] {
            let o = Options { ties, ..one_pack() };
            let mut m = M::new(1, o.clone());
            m.deal(shoe(&o, head));
            m.ok(0, Command::Bet { amount: 2 });
            let (settled, points) = scored(&m.ok(0, Command::Stand));
            let lost = bank_keeps && ties == Ties::Swedish;
            assert_eq!(settled[0].result, if lost { HandResult::Lost } else { HandResult::Push }, "{head} {ties:?}");
            assert_eq!(points, [if lost { -2 } else { 0 }]);
        }
    }
}

#[test]
fn a_blackjack_pays_three_to_two_at_once() {
    let o = one_pack();
    let mut m = M::new(2, o.clone());
    // Seat 0 has a blackjack, seat 1 plays on against the 9.
    m.deal(shoe(&o, "AC 5D 9H KC 9D 7S 8C"));
    m.ok(0, Command::Bet { amount: 2 });
    m.ok(1, Command::Bet { amount: 2 });
    assert_eq!(m.to_act(), [1], "a blackjack plays no further");
    let (settled, points) = scored(&m.ok(1, Command::Stand));
    assert_eq!((settled[0].result, settled[0].paid), (HandResult::Blackjack, 5));
    // Seat 1's 14 stands and the dealer's 9 7 draws the 8: bust.
    assert_eq!(points, [3, 2]);
}

#[test]
fn insurance_and_even_money_against_the_dealers_blackjack() {
    let o = one_pack();
    let mut m = M::new(2, o.clone());
    // Seat 0: 10 7; seat 1: A K; the dealer: A up, K in the hole.
    m.deal(shoe(&o, "TC AD AH 7C KD KS"));
    m.ok(0, Command::Bet { amount: 4 });
    m.ok(1, Command::Bet { amount: 2 });
    assert_eq!(m.to_act(), [0, 1]);
    assert_eq!(m.refused(0, Command::EvenMoney).rule, rule::EVEN_MONEY);
    assert_eq!(m.refused(1, Command::Insure).rule, rule::EVEN_MONEY);
    m.ok(0, Command::Insure);
    let events = m.ok(1, Command::EvenMoney);
    assert!(events.iter().any(|e| matches!(e, Event::DealerPeeked { blackjack: true })));
    let (settled, points) = scored(&events);
    assert!(settled.iter().any(|s| s.seat == 0 && s.result == HandResult::InsuranceWon && s.paid == 6));
    assert_eq!(points, [0, 2], "insured: the bet lost and the insurance won; even money");
}

#[test]
fn without_the_dealers_blackjack_the_insurance_is_lost_and_play_goes_on() {
    let o = one_pack();
    let mut m = M::new(1, o.clone());
    m.deal(shoe(&o, "TC AD 9C 5S 3D"));
    m.ok(0, Command::Bet { amount: 4 });
    let events = m.ok(0, Command::Insure);
    assert!(events.iter().any(|e| matches!(e, Event::DealerPeeked { blackjack: false })));
    assert_eq!(m.to_act(), [0]);
    // 19 against A 5 3 (soft 19): a tie the bank keeps, and the insurance lost.
    let (settled, points) = scored(&m.ok(0, Command::Stand));
    assert!(settled.iter().any(|s| s.result == HandResult::InsuranceLost));
    assert_eq!(points, [-6]);
}

#[test]
fn doubling_takes_one_card_on_seven_to_eleven_only() {
    let o = one_pack();
    let mut m = M::new(2, o.clone());
    m.deal(shoe(&o, "5C TD 7D 6C 9H 8S 9S 2D"));
    m.ok(0, Command::Bet { amount: 2 });
    m.ok(1, Command::Bet { amount: 2 });
    let events = m.ok(0, Command::Double);
    assert!(events.iter().any(|e| matches!(e, Event::Doubled { amount: 2, .. })));
    assert_eq!(m.to_act(), [1], "a doubled hand takes one card and stands");
    assert_eq!(m.refused(1, Command::Double).rule, rule::DOUBLE, "19 may not double");
    let (settled, points) = scored(&m.ok(1, Command::Stand));
    // Seat 0: 5 6 9 = 20 doubled, seat 1: 10 9; the dealer: 7 8 2 = 17.
    assert_eq!((settled[0].stake, settled[0].paid), (4, 8));
    assert_eq!(points, [4, 2]);
}

#[test]
fn split_aces_take_one_card_each_and_twenty_one_after_a_split_is_no_blackjack() {
    let o = one_pack();
    let mut m = M::new(1, o.clone());
    m.deal(shoe(&o, "AC 9D AD 8S KH 5C"));
    m.ok(0, Command::Bet { amount: 2 });
    assert!(m.legal(0).contains(&Command::Split));
    let events = m.ok(0, Command::Split);
    let (settled, points) = scored(&events);
    // A K = 21 (not a blackjack) and A 5 = 16, against 9 8 = 17.
    assert_eq!(settled[0].result, HandResult::Won);
    assert_eq!(settled[0].paid, 4);
    assert_eq!(settled[1].result, HandResult::Lost);
    assert_eq!(points, [0]);
}

#[test]
fn a_bust_hand_loses_its_bet_at_once_and_its_cards_go_to_the_dealer() {
    let o = one_pack();
    let mut m = M::new(2, o.clone());
    m.deal(shoe(&o, "TC 7D TD 6C 9H 5S KS"));
    m.ok(0, Command::Bet { amount: 6 });
    m.ok(1, Command::Bet { amount: 2 });
    let events = m.ok(0, Command::Hit);
    assert!(events.iter().any(|e| matches!(e, Event::Busted { seat: 0, payment, .. } if payment.amount == 6)));
    let table = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!(table.tray, cards("TC 6C KS"));
    assert_eq!(m.state.stack(0), 94);
    assert_eq!(m.to_act(), [1]);
}

fn face_down() -> Options {
    Options { face_down: true, ..one_pack() }
}

/// By seat, the cards of each hand as `viewer` sees them (null: a card face down).
fn seen(m: &M, viewer: Viewer) -> Vec<Vec<Vec<Option<Card>>>> {
    let table = m.rules.view(&m.state, viewer);
    table.hands.iter().map(|hands| hands.iter().map(|h| h.cards.clone()).collect()).collect()
}

fn some(text: &str) -> Vec<Option<Card>> {
    cards(text).into_iter().map(Some).collect()
}

fn shown(events: &[Event]) -> Vec<(Seat, Vec<Card>, String)> {
    let shown = events.iter().filter_map(|e| match e {
        Event::CardsShown { seat, cards, rule } => Some((*seat, cards.clone(), rule.clone())),
        _ => None,
    });
    shown.collect()
}

#[test]
fn face_down_cards_are_their_owners_until_a_blackjack_a_split_or_the_settling_shows_them() {
    let o = face_down();
    let mut m = M::new(3, o.clone());
    // Seat 0: 8 8, seat 1: A K, seat 2: 5 6; the dealer 9 up and 7 in the hole. Then 3 and 2 to
    // seat 0's split hands, 10 to seat 2's hit, 4 to the dealer.
    m.deal(shoe(&o, "8C AS 5C 9S 8D KD 6H 7H 3C 2D TC 4S"));
    m.ok(0, Command::Bet { amount: 2 });
    m.ok(1, Command::Bet { amount: 2 });
    let events = m.ok(2, Command::Bet { amount: 2 });
    assert_eq!(shown(&events), [(1, cards("AS KD"), rule::SHOW_BLACKJACK.to_string())], "a blackjack at once");
    let hidden = [None, None];
    assert_eq!(seen(&m, Viewer::Seat(0)), [vec![some("8C 8D")], vec![some("AS KD")], vec![hidden.to_vec()]]);
    assert_eq!(seen(&m, Viewer::Seat(2)), [vec![hidden.to_vec()], vec![some("AS KD")], vec![some("5C 6H")]]);
    assert_eq!(seen(&m, Viewer::Spectator), [vec![hidden.to_vec()], vec![some("AS KD")], vec![hidden.to_vec()]]);
    assert_eq!(seen(&m, Viewer::Record)[0], [some("8C 8D")], "the record shows everything");
    assert!(m.rules.secrets(&m.state).contains(&(cards("8C")[0], vec![0])));
    let dealt = events.iter().find(|e| matches!(e, Event::CardsDealt { .. })).unwrap();
    let told = m.rules.redact(&m.state, dealt, Viewer::Seat(2), false);
    assert_eq!(told["hands"], serde_json::json!([[null, null], ["AS", "KD"], ["5C", "6H"]]));
    assert_eq!(m.rules.redact(&m.state, dealt, Viewer::Seat(2), true)["hands"][0], serde_json::json!(["8C", "8D"]));

    let events = m.ok(0, Command::Split);
    assert_eq!(shown(&events), [(0, cards("8C 8D"), rule::SHOW_SPLIT.to_string())], "a pair is split face up");
    assert!(matches!(events[1], Event::Split { seat: 0, .. }));
    assert_eq!(seen(&m, Viewer::Spectator)[0], [some("8C 3C"), some("8D")]);
    m.ok(0, Command::Stand);
    m.ok(0, Command::Stand);

    let events = m.ok(2, Command::Hit);
    assert!(shown(&events).is_empty());
    assert_eq!(seen(&m, Viewer::Spectator)[2], [vec![None, None, Some(cards("TC")[0])]], "a hit card is dealt face up");
    assert_eq!(m.to_act(), [2], "21 face down does not stand by itself, which would tell the table");
    let spectator = serde_json::to_value(m.rules.view(&m.state, Viewer::Spectator)).unwrap();
    assert!(!cards_in(&spectator).iter().any(|c| cards("5C 6H").contains(c)), "{spectator}");

    let events = m.ok(2, Command::Stand);
    assert_eq!(shown(&events), [(2, cards("5C 6H"), rule::SHOW_SETTLING.to_string())], "shown to be compared");
    let at = |f: fn(&Event) -> bool| events.iter().position(f).unwrap();
    assert!(at(|e| matches!(e, Event::DealerDrew { .. })) < at(|e| matches!(e, Event::CardsShown { .. })));
    assert!(at(|e| matches!(e, Event::CardsShown { .. })) < at(|e| matches!(e, Event::RoundScored { .. })));
    assert!(m.rules.secrets(&m.state).iter().all(|(_, knowers)| knowers.is_empty()), "only the shoe is secret");
    assert_eq!(seen(&m, Viewer::Spectator), seen(&m, Viewer::Record));
    let (settled, points) = scored(&events);
    assert!(settled.iter().any(|s| s.seat == 2 && s.result == HandResult::Won));
    assert_eq!(points, [-4, 3, 2]);
}

#[test]
fn a_face_down_hand_is_shown_as_the_dealer_takes_it_bust() {
    let o = face_down();
    let mut m = M::new(2, o.clone());
    m.deal(shoe(&o, "TC 7D TD 6C 9H 5S KS"));
    m.ok(0, Command::Bet { amount: 6 });
    m.ok(1, Command::Bet { amount: 2 });
    let events = m.ok(0, Command::Hit);
    assert_eq!(shown(&events), [(0, cards("TC 6C"), rule::SHOW_BUST.to_string())]);
    assert!(matches!(events.last(), Some(Event::Busted { seat: 0, .. })));
    assert_eq!(m.rules.view(&m.state, Viewer::Seat(1)).tray, cards("TC 6C KS"));
    assert_eq!(seen(&m, Viewer::Seat(0))[1], [vec![None, None]], "seat 1's are still its own");
}

#[test]
fn a_match_is_ten_rounds_and_those_ahead_win() {
    let mut m = M::new(2, Options::default());
    let mut rounds = 0;
    while !m.rules.status(&m.state).is_finished() {
        m.deal(Options::default().shoe());
        rounds += 1;
        for s in 0..2 {
            m.ok(s, Command::Bet { amount: 2 });
        }
        while let Some(&seat) = m.to_act().first() {
            let command = m.legal(seat).into_iter().find(|c| matches!(c, Command::Stand | Command::NoInsurance));
            m.ok(seat, command.expect("a stand or a no"));
        }
    }
    assert_eq!(rounds, 10);
    let Status::Finished { outcome } = m.rules.status(&m.state) else { unreachable!() };
    assert!(outcome.winners.iter().all(|&s| m.state.stack(s) > 100));
}

#[test]
fn basic_strategy_splits_eights_doubles_eleven_and_stands_on_stiff_hands_against_small_cards() {
    assert_eq!(advice(&cards("8C 8D"), 10, true), Advice::Split);
    assert_eq!(advice(&cards("6C 5D"), 10, false), Advice::Double);
    assert_eq!(advice(&cards("TC 3D"), 5, false), Advice::Stand);
    assert_eq!(advice(&cards("TC 6D"), 7, false), Advice::Hit);
    assert_eq!(advice(&cards("AC 7D"), 9, false), Advice::Hit);
}

/// Chips after whole matches at one seat, every decision by `level`, over the same shoes.
fn chips_over_matches(level: bots::Level, matches: u64) -> i64 {
    let rules = Blackjack;
    let mut total = 0;
    for seed in 0..matches {
        let mut shoes = Rng::new(seed);
        let mut moves = Rng::new(seed + 1_000_000);
        let mut state = rules.setup(1, Options::default()).unwrap();
        loop {
            let events = match rules.status(&state) {
                Status::Finished { .. } => break,
                Status::NeedsDeck { composition: mut cards } | Status::NeedsShuffle { mut cards } => {
                    shoes.shuffle(&mut cards);
                    crate::game::shuffled_in(&rules, &state, cards).unwrap()
                }
                Status::ToAct { seats } => {
                    let command = bots::choose(&rules, &state, seats[0], level, moves.next_u64()).unwrap();
                    rules.decide(&state, seats[0], &command).unwrap()
                }
            };
            events.iter().for_each(|e| rules.evolve(&mut state, e));
        }
        total += state.stack(0) - 100;
    }
    total
}

/// docs/bots.md: basic strategy loses less to the bank than playing as the dealer must, and both
/// less than betting and playing at random.
#[test]
fn basic_strategy_loses_less_than_the_dealers_rule_over_the_same_shoes() {
    let strong = chips_over_matches(bots::Level::Strong, 300);
    let basic = chips_over_matches(bots::Level::Basic, 300);
    let random = chips_over_matches(bots::Level::Random, 300);
    eprintln!("chips over 300 matches of 10 rounds: strong {strong}, basic {basic}, random {random}");
    assert!(strong > basic && basic > random, "strong {strong}, basic {basic}, random {random}");
}
