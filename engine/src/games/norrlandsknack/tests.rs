use super::*;
use crate::cards::is_permutation;
use crate::cards::{card, cards};
use crate::game::cards_in;
use crate::game::Status;
use crate::simulate::Driver;

/// The shared test driver: every event taken through JSON (as it is stored) and the books
/// checked after each one.
type M = Driver<Norrlandsknack>;

/// A deck dealt as the text says: three each from forehand, the trump card, two each, then the
/// talon (`talon_top` first, the rest of the pack after). `hands[s]` are seat s's five cards
/// without the trump card, the first three dealt first.
fn deck(dealer: Seat, hands: &[&str], trump: &str, talon_top: &str) -> Vec<Card> {
    let players = hands.len();
    let table = Seating::new(players);
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let order = table.order_from(table.forehand(dealer));
    let mut deck: Vec<Card> = order.iter().flat_map(|&s| hands[s][..3].to_vec()).collect();
    deck.push(card(trump));
    deck.extend(order.iter().flat_map(|&s| hands[s][3..].to_vec()));
    deck.extend(cards(talon_top));
    let rest: Vec<Card> = decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect();
    deck.extend(rest);
    assert!(is_permutation(&deck, &decks::standard52()), "the hands must be distinct cards");
    deck
}

/// A match at a later deal: dealt by `dealer` with these points, after `played` deals, each seat
/// having paid its opening stake of 1.
fn later_deal(dealer: Seat, scores: &[i64], played: u32, deck: Vec<Card>) -> M {
    let players = scores.len();
    let mut d = M::new(players, Options::default());
    d.state.deals.next_dealer = dealer;
    let mut events = d.rules.deal(&d.state, deck).unwrap();
    events.truncate(1);
    if let Event::DealStarted { deal_number, first_deal, trumfmant, scores: s, balances, deals_played, .. } =
        &mut events[0]
    {
        *deal_number = played + 1;
        *first_deal = false;
        *trumfmant = scores.contains(&1);
        *s = scores.to_vec();
        *balances = vec![-1; players];
        *deals_played = played;
    }
    d.apply(events);
    d
}

fn play(code: &str) -> Command {
    Command::Play { card: card(code) }
}

fn buy(codes: &str) -> Command {
    Command::Buy { discard: cards(codes) }
}

fn scored(events: &[Event]) -> (Vec<i64>, Vec<Seat>, Vec<Payment>, Vec<ScoreTerm>) {
    events
        .iter()
        .find_map(|e| match e {
            Event::DealScored { scores, limpor_given, payments, terms, .. } => {
                Some((scores.clone(), limpor_given.clone(), payments.clone(), terms.clone()))
            }
            _ => None,
        })
        .expect("the deal was scored")
}

/// Seat 0 deals, hearts are trumps (2H turned), seat 2 knocks and takes no trick.
fn first_deal() -> M {
    let mut d = M::new(3, Options::default());
    d.deal(deck(0, &["AD KD 2S 3S 4S", "AS KS QS 4C 5C", "6C 7C 8C 9C TC"], "2H", "3C 3D"));
    d
}

#[test]
fn three_then_the_trump_card_then_two_and_one_stake_each_into_the_pot() {
    let d = first_deal();
    let Event::DealStarted { hands, trump_card, trumps, talon, scores, first_deal, trumfmant, .. } = &d.log[0] else {
        panic!("the deal starts");
    };
    assert_eq!(hands[0], sorted(cards("AD KD 2S 3S 4S 2H")), "the dealer takes the turned card");
    assert_eq!(hands[1], sorted(cards("AS KS QS 4C 5C")));
    assert_eq!((*trump_card, *trumps), (card("2H"), Suit::Hearts));
    assert_eq!((talon.len(), &talon[..2]), (52 - 16, &cards("3C 3D")[..]));
    assert_eq!((scores.clone(), *first_deal, *trumfmant), (vec![10; 3], true, false));
    assert_eq!(d.state.ledger.seats(3), vec![-1; 3]);
    assert_eq!(d.state.pot(), 3);
    assert_eq!(d.to_act(), vec![1], "forehand speaks first");
}

#[test]
fn the_worked_example_three_tricks_from_ten_leave_seven_and_the_first_knocker_gets_a_loaf() {
    let mut d = first_deal();
    d.ok(1, Command::Lura);
    assert_eq!(d.refused(2, Command::Fold).rule, rule::BID_ORDER);
    d.ok(2, Command::Knock);
    // The first deal: everyone buys, the one who passed too, forehand first.
    assert_eq!(d.to_act(), vec![1]);
    d.ok(1, buy(""));
    d.ok(2, buy(""));
    assert_eq!(d.refused(0, buy("")).rule, rule::DEALER_BUYS);
    let bought = d.ok(0, buy("4S"));
    assert!(matches!(bought[0], Event::Bought { discarded_count: 1, drawn_count: 0, .. }), "one more away than bought");
    assert_eq!(d.state.deals.deal.as_ref().unwrap().play.hands[0], sorted(cards("AD KD 2S 3S 2H")));
    d.ok(1, play("AS"));
    d.ok(2, play("6C"));
    assert_eq!(d.refused(0, play("2H")).rule, rule::FOLLOW_SUIT);
    d.ok(0, play("2S"));
    for (s, c) in [
        (1, "KS"),
        (2, "7C"),
        (0, "3S"),
        (1, "QS"),
        (2, "8C"),
        (0, "2H"),
        (0, "AD"),
        (1, "4C"),
        (2, "9C"),
        (0, "KD"),
        (1, "5C"),
    ] {
        d.ok(s, play(c));
    }
    let events = d.ok(2, play("TC"));
    let (scores, limpor, payments, terms) = scored(&events);
    assert_eq!(scores, vec![7, 8, 10], "seat 0 took three tricks: 10 - 3 = 7");
    assert_eq!(limpor, vec![2], "the knocker took no trick");
    assert_eq!(payments.len(), 1);
    assert_eq!(
        (payments[0].from, payments[0].amount, payments[0].rule.as_str()),
        (Account::Seat(2), 1, rule::LIMPA_FIRST)
    );
    assert!(terms.iter().all(|t| t.rule == rule::TRICKS), "no points for a loaf in the first deal");
    assert_eq!((d.state.pot(), d.state.limpor.clone()), (4, vec![0, 0, 1]));
    assert_eq!(d.state.deals.next_dealer, 1);
}

#[test]
fn discards_are_hidden_from_the_others_for_ever_and_the_record_too() {
    let mut d = first_deal();
    d.ok(1, Command::Knock);
    d.ok(1, buy("4C 5C"));
    d.ok(2, buy(""));
    let bought = d.ok(0, buy("4S"));
    for viewer in [Viewer::Seat(1), Viewer::Spectator, Viewer::Record] {
        let seen = d.rules.redact(&d.state, &bought[0], viewer, true);
        assert_eq!((seen["discarded"].clone(), seen["discarded_count"].clone()), (Value::Null, json!(1)));
    }
    assert_eq!(d.rules.redact(&d.state, &bought[0], Viewer::Seat(0), true)["discarded"], json!(["4S"]));
    d.finish_deal();
    let record = d.rules.record_view(&d.state, None);
    let start = d.rules.record_event(&d.state, &d.log[0], None);
    for hidden in ["4S", "4C", "5C"] {
        assert!(!cards_in(&record).contains(&card(hidden)), "{hidden} in the record: {record}");
        assert!(!cards_in(&start).contains(&card(hidden)), "{hidden} in the record's deal: {start}");
    }
    assert_eq!(start["deck"], Value::Null);
    let own = d.rules.record_view(&d.state, Some(0));
    assert_eq!(own["discarded"], json!(["4S"]), "a seat's record shows its own discards");
    assert!(d.rules.secrets(&d.state).contains(&(card("4S"), vec![0])), "still a secret after the deal");
}

#[test]
fn the_first_leader_must_lead_the_ace_of_trumps() {
    let mut d = M::new(3, Options::default());
    d.deal(deck(0, &["2D 3D 4D 5D 6D", "AH 7S 8S 9S TS", "2C 3C 4C 5C 6C"], "2H", ""));
    d.ok(1, Command::Knock);
    d.ok(1, buy(""));
    d.ok(2, buy(""));
    d.ok(0, buy("2D"));
    assert_eq!(d.legal(1), vec![play("AH")]);
    assert_eq!(d.refused(1, play("TS")).rule, rule::TRUMP_ACE);
    d.ok(1, play("AH"));
}

#[test]
fn later_deals_join_or_fold_and_a_loaf_raises_seven_only_to_ten() {
    // Seat 1 knocks and takes all five tricks; seat 0 joins on 7 points and takes none; seat 2
    // folds.
    let pack = deck(0, &["3C 4C 5C 6C 7C", "AH KH QH JH TH", "8C 9C TC JC QC"], "2H", "");
    let mut d = later_deal(0, &[7, 9, 10], 1, pack);
    assert_eq!(d.refused(1, Command::Fold).rule, rule::BID_ORDER);
    d.ok(1, Command::Knock);
    assert_eq!(d.to_act(), vec![2], "the knocker's left answers first");
    assert_eq!(d.refused(2, Command::Lura).rule, rule::JOIN);
    let folded = d.ok(2, Command::Fold);
    d.ok(0, Command::Knock);
    assert_eq!(d.to_act(), vec![1], "those in buy from forehand");
    d.ok(1, buy(""));
    d.ok(0, buy("3C"));
    assert_eq!(d.legal(1), vec![play("AH")]);
    let mut events = Vec::new();
    for (s, c) in [(1, "AH"), (0, "2H"), (1, "KH"), (0, "4C"), (1, "QH"), (0, "5C"), (1, "JH"), (0, "6C"), (1, "TH")] {
        events = d.ok(s, play(c));
    }
    let events = [events, d.ok(0, play("7C"))].concat();
    let (scores, limpor, payments, terms) = scored(&events);
    assert_eq!(scores, vec![10, 4, 10]);
    assert_eq!(limpor, vec![0], "the folded seat gets no loaf");
    assert_eq!((payments[0].from, payments[0].rule.as_str()), (Account::Seat(0), rule::LIMPA));
    let cap = terms.iter().find(|t| t.to == 0).unwrap();
    assert_eq!((cap.points, cap.rule.as_str()), (3, rule::CAP));
    // The thrown-in hand: its owner's only, for ever.
    let codes = cards("8C 9C TC JC QC");
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator, Viewer::Record] {
        let seen = d.rules.redact(&d.state, &folded[0], viewer, true);
        assert_eq!(seen["cards"], Value::Null);
        let view = serde_json::to_value(d.rules.view(&d.state, viewer)).unwrap();
        assert!(cards_in(&view).iter().all(|c| !codes.contains(c)), "{viewer:?}: {view}");
    }
    let own = serde_json::to_value(d.rules.view(&d.state, Viewer::Seat(2))).unwrap();
    assert_eq!(own["folded_hand"], json!(codes));
    let record = d.rules.record_view(&d.state, None);
    assert!(cards_in(&record).iter().all(|c| !codes.contains(c)));
}

#[test]
fn trumfmant_when_someone_stands_at_one_point() {
    let pack = deck(0, &["2C 3C 4C 5C 6C", "AS KS QS 3H 4H", "2S 3S 4S 5H 6H"], "2H", "");
    let mut d = later_deal(0, &[10, 1, 10], 2, pack);
    assert!(d.state.deals.deal.as_ref().unwrap().trumfmant);
    d.ok(1, Command::Knock);
    d.ok(2, Command::Knock);
    d.ok(0, Command::Knock);
    d.ok(1, buy(""));
    d.ok(2, buy(""));
    d.ok(0, buy("2C"));
    // The leader too must play a trump (house rule), and may choose which.
    assert_eq!(d.legal(1), vec![play("3H"), play("4H")]);
    assert_eq!(d.refused(1, play("AS")).rule, rule::TRUMFMANT);
    // Against a spade lead a trump must be played instead of following suit.
    let hand = cards("2S 5H");
    let mut t = Trick::led_by(1);
    t.plays.push((1, card("AS")));
    assert_eq!(playable(&hand, &t, false, Suit::Hearts, true), cards("5H"));
    assert_eq!(playable(&hand, &t, false, Suit::Hearts, false), cards("2S"));
    // Nobody on 1 point: no trumfmant.
    let deck2 = deck(0, &["2C 3C 4C 5C 6C", "AS KS QS 3H 4H", "2S 3S 4S 5H 6H"], "2H", "");
    let d2 = later_deal(0, &[10, 2, 10], 2, deck2);
    assert!(!d2.state.deals.deal.as_ref().unwrap().trumfmant);
}

#[test]
fn everyone_passes_the_same_dealer_deals_again_without_new_stakes() {
    let mut d = first_deal();
    d.ok(1, Command::Lura);
    d.ok(2, Command::Lura);
    let events = d.ok(0, Command::Lura);
    assert!(matches!(events[1], Event::Redealt { dealer: 0 }));
    assert_eq!(d.state.deals.next_dealer, 0);
    d.deal(deck(0, &["AD KD 2S 3S 4S", "AS KS QS 4C 5C", "6C 7C 8C 9C TC"], "2H", ""));
    assert!(!d.log.iter().skip(4).any(|e| matches!(e, Event::StakesPaid { .. })), "no new stakes");
    assert_eq!(d.state.pot(), 3);
    assert!(d.state.deals.deal.as_ref().unwrap().first_deal, "a redeal is still the first deal");
}

#[test]
fn the_deal_limit_ends_the_match_and_the_fewest_points_share_the_pot() {
    let mut d = M::new(3, Options { stake: 5, max_deals: 1 });
    d.deal(deck(0, &["AD KD 2S 3S 4S", "AS KS QS 4C 5C", "6C 7C 8C 9C TC"], "2H", ""));
    d.ok(1, Command::Lura);
    d.ok(2, Command::Lura);
    let events = d.ok(0, Command::Lura);
    let Some(Event::MatchEnded { winners, reason, payments, .. }) = events.last() else { panic!("{events:?}") };
    assert_eq!((winners.clone(), *reason), (vec![1, 2, 0], EndReason::DealLimit));
    assert!(payments.iter().all(|p| p.amount == 5 && p.rule == rule::SPLIT));
    assert_eq!(d.state.ledger.seats(3), vec![0; 3]);
    assert!(d.rules.status(&d.state).is_finished());
    assert_eq!(share_pot(7, &[2, 0]), vec![(2, 4), (0, 3)]);
}

#[test]
fn the_knocker_alone_takes_five_tricks_and_reaching_zero_wins_the_pot() {
    let pack = deck(0, &["3C 4C 5C 6C 7C", "AH KH QH JH TH", "8C 9C TC JC QC"], "2H", "");
    let mut d = later_deal(0, &[10, 4, 10], 3, pack);
    d.ok(1, Command::Knock);
    d.ok(2, Command::Fold);
    let events = d.ok(0, Command::Fold);
    assert!(matches!(events[1], Event::KnockerAlone { seat: 1 }));
    let (scores, limpor, _, _) = scored(&events);
    assert_eq!((scores, limpor), (vec![10, -1, 10], vec![]));
    let Some(Event::MatchEnded { winners, reason, payments, .. }) = events.last() else { panic!("{events:?}") };
    assert_eq!((winners.clone(), *reason), (vec![1], EndReason::ReachedZero));
    assert_eq!((payments[0].amount, payments[0].rule.as_str()), (3, rule::ZERO));
    assert_eq!(d.state.ledger.seats(3), vec![-1, 2, -1]);
    // The knocker's unplayed hand is never shown.
    let record = d.rules.record_view(&d.state, None);
    assert!(!cards_in(&record).contains(&card("KH")), "{record}");
}

#[test]
fn the_first_to_reach_zero_trick_by_trick_wins() {
    // Seat 0 on 2 and seat 1 on 1: seat 0 takes tricks 1 and 2, seat 1 trick 3.
    assert_eq!(first_to_zero(&[2, 1, 10], &[0, 0, 1, 2, 2]), Some(0));
    assert_eq!(first_to_zero(&[2, 1, 10], &[1, 0, 0, 2, 2]), Some(1));
    assert_eq!(first_to_zero(&[3, 3, 10], &[0, 1, 0, 1, 2]), None);
}

#[test]
fn bots_finish_matches_for_every_player_count() {
    for players in MIN_PLAYERS..=MAX_PLAYERS {
        for seed in 0..3 {
            let mut d = M::new(players, Options::default());
            let mut rng = Rng::new(seed);
            let mut deals = 0;
            while !d.rules.status(&d.state).is_finished() {
                match d.rules.status(&d.state) {
                    Status::NeedsDeck { composition } => {
                        let mut pack = composition;
                        rng.shuffle(&mut pack);
                        d.deal(pack);
                        deals += 1;
                    }
                    Status::ToAct { seats } => {
                        let m = d.rules.bot_move(&d.state, seats[0], rng.next_u64()).unwrap();
                        d.ok(seats[0], m);
                    }
                    Status::Finished { .. } | Status::NeedsShuffle { .. } => unreachable!(),
                }
            }
            assert!(deals < DEFAULT_MAX_DEALS as usize, "{players} players, seed {seed}: {deals} deals");
            assert_eq!(d.state.pot(), 0, "the pot went to the winner");
        }
    }
}
