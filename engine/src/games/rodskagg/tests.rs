use super::*;
use crate::cards::is_permutation;
use crate::cards::{card, cards};
use crate::game::cards_in;
use crate::game::Status;
use crate::rules;
use crate::simulate::Driver;
use serde_json::json;

/// The shared test driver: every event taken through JSON (as it is stored) and the books
/// checked after each one.
type M = Driver<Rodskagg>;

/// A deck dealt as the text says, three to each from forehand and three more: `hands[s]` are
/// seat s's six cards, the first three dealt first; the rest of the pack after them. Seats out
/// of the match are given "".
fn deck(dealer: Seat, hands: &[&str]) -> Vec<Card> {
    let table = Seating::new(hands.len());
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let order: Vec<Seat> = table.order_from(table.next(dealer)).into_iter().filter(|&s| !hands[s].is_empty()).collect();
    let mut deck: Vec<Card> = order.iter().flat_map(|&s| hands[s][..3].to_vec()).collect();
    deck.extend(order.iter().flat_map(|&s| hands[s][3..].to_vec()));
    deck.extend(decks::standard52().into_iter().filter(|c| !hands.iter().flatten().any(|h| h == c)));
    assert!(is_permutation(&deck, &decks::standard52()), "the hands must be distinct cards");
    deck
}

/// A match at a deal dealt by seat 0 with these points.
fn at(scores: &[i64], options: Options, deck: Vec<Card>) -> M {
    let mut d = M::new(scores.len(), options);
    let mut events = d.rules.deal(&d.state, deck).unwrap();
    if let Event::DealStarted { scores: s, .. } = &mut events[0] {
        *s = scores.to_vec();
    }
    d.apply(events);
    d
}

fn play(d: &mut M, seat: Seat, code: &str) -> Vec<Event> {
    d.ok(seat, Command::Play { card: card(code) })
}

/// Plays tricks given as (leader's card first) seat-and-card pairs.
fn tricks(d: &mut M, plays: &[(Seat, &str)]) -> Vec<Event> {
    plays.iter().flat_map(|&(s, c)| play(d, s, c)).collect()
}

fn bid(b: Bid) -> Command {
    Command::Bid { bid: b }
}

fn deal(d: &M) -> &Deal {
    d.state.deals.deal.as_ref().unwrap()
}

fn scored(events: &[Event]) -> (Vec<i64>, Vec<ScoreTerm>) {
    events
        .iter()
        .find_map(|e| match e {
            Event::DealScored { scores, terms, .. } => Some((scores.clone(), terms.clone())),
            _ => None,
        })
        .expect("the deal was scored")
}

/// Seat 1 holds the top three spades and the ace of hearts; seat 2 the better clubs.
const STRONG: [&str; 3] = ["5S 6S 7S 5H 6H 7H", "AS KS QS AH 2C 3C", "2S 3S 4S 2H 4C 5C"];

#[test]
fn three_cards_each_from_forehand_then_three_more_and_the_rest_aside() {
    let deck = deck(0, &STRONG);
    let d = at(&[12, 12, 12], Options::default(), deck.clone());
    let Event::DealStarted { hands, forehand, dealer, .. } = &d.log[0] else { panic!("a deal starts") };
    assert_eq!((*dealer, *forehand), (0, 1));
    assert_eq!(hands[1], sorted(vec![deck[0], deck[1], deck[2], deck[9], deck[10], deck[11]]));
    assert_eq!(hands[0], sorted(cards(STRONG[0])));
    assert_eq!(deal(&d).undealt().len(), 52 - 18);
    // Nobody sees the undealt cards, nor another seat's hand, nor the deck.
    let secrets = d.rules.secrets(&d.state);
    assert!(deck[18..].iter().all(|c| secrets.contains(&(*c, vec![]))));
    let seen = d.rules.redact(&d.state, &d.log[0], Viewer::Seat(2), false);
    assert_eq!(seen["deck"], Value::Null);
    assert_eq!(seen["hands"], json!([null, null, sorted(cards(STRONG[2]))]));
    assert_eq!(d.to_act(), [1]);
}

#[test]
fn one_round_of_rising_bids_from_forehand_to_the_dealer_and_the_declarer_leads() {
    let mut d = at(&[12, 12, 12], Options::default(), deck(0, &STRONG));
    d.ok(1, bid(Bid::Two));
    assert_eq!(d.refused(2, bid(Bid::Two)).rule, rule::HIGHER);
    assert_eq!(d.refused(2, bid(Bid::One)).rule, rule::HIGHER);
    d.ok(2, Command::Sneak);
    assert_eq!(d.legal(0)[0], bid(Bid::Three));
    let events = d.ok(0, bid(Bid::Three));
    assert_eq!(events.last(), Some(&Event::DeclarerNamed { seat: 0, bid: Bid::Three }));
    // The highest bidder leads, not forehand; no trumps, follow suit.
    assert_eq!(d.to_act(), [0]);
    play(&mut d, 0, "5H");
    assert_eq!(d.refused(1, Command::Play { card: card("AS") }).rule, rule::FOLLOW_SUIT);
    assert_eq!(d.refused(1, Command::Join).rule, rules::core::PHASE);
}

#[test]
fn everyone_sneaks_the_cards_are_thrown_in_and_the_next_player_deals() {
    let mut d = at(&[12, 12, 12], Options::default(), deck(0, &STRONG));
    d.ok(1, Command::Sneak);
    d.ok(2, Command::Sneak);
    let events = d.ok(0, Command::Sneak);
    assert_eq!(events[1], Event::AllSneaked { deal_number: 1, next_dealer: 1 });
    assert!(matches!(d.rules.status(&d.state), Status::NeedsDeck { .. }));
    assert_eq!(d.state.deals.scores, [12, 12, 12]);
    d.deal(deck(1, &STRONG));
    assert_eq!((deal(&d).dealer, deal(&d).number, d.to_act()), (1, 2, vec![2]));
}

#[test]
fn with_the_option_the_dealer_must_bid_after_everyone_else_sneaked() {
    let options = Options { all_sneak: AllSneak::DealerMustBid, ..Options::default() };
    let mut d = at(&[12, 12, 12], options, deck(0, &STRONG));
    d.ok(1, Command::Sneak);
    d.ok(2, Command::Sneak);
    assert_eq!(d.refused(0, Command::Sneak).rule, rule::DEALER_MUST_BID);
    assert_eq!(d.legal(0).len(), 7);
    d.ok(0, bid(Bid::One));
    assert_eq!(deal(&d).declarer, Some(0));
}

/// The text's first example: A stood at 12, bid three and took four: down to 8. Both others
/// are asked "går ni med?"; seat 2 joins (and takes the last two tricks), seat 0 drops.
#[test]
fn a_made_bid_goes_down_by_the_tricks_taken_and_going_on_is_decided_by_all_at_once() {
    let mut d = at(&[12, 12, 12], Options::default(), deck(0, &STRONG));
    d.ok(1, bid(Bid::Three));
    d.ok(2, Command::Sneak);
    d.ok(0, Command::Sneak);
    tricks(&mut d, &[(1, "AS"), (2, "2S"), (0, "5S"), (1, "KS"), (2, "3S"), (0, "6S"), (1, "QS"), (2, "4S")]);
    let events = play(&mut d, 0, "7S");
    assert!(!events.iter().any(|e| matches!(e, Event::GoingOnAsked { .. })));
    tricks(&mut d, &[(1, "AH"), (2, "2H")]);
    let events = play(&mut d, 0, "5H");
    // The service asks for the declarer: no "fem opp" for forgetting can arise.
    assert_eq!(
        events.last(),
        Some(&Event::GoingOnAsked { deal_number: 1, declarer: 1, in_with_trick: vec![], deciding: vec![2, 0] })
    );
    assert_eq!(d.to_act(), [2, 0]);
    assert_eq!(d.refused(2, Command::Play { card: card("4C") }).rule, rules::core::PHASE);
    d.ok(2, Command::Join);
    // Seat 2's answer is its own until all have answered; the others see that it answered.
    assert_eq!(d.to_act(), [0]);
    let answer = d.log.last().unwrap().clone();
    assert_eq!(d.rules.redact(&d.state, &answer, Viewer::Seat(0), false)["joined"], Value::Null);
    assert_eq!(d.rules.redact(&d.state, &answer, Viewer::Spectator, false)["joined"], Value::Null);
    assert_eq!(d.rules.redact(&d.state, &answer, Viewer::Seat(2), false)["joined"], json!(true));
    let seen = |d: &M, v: Viewer| d.rules.view(&d.state, v).going_on.unwrap().unwrap();
    use GoingOn::*;
    assert_eq!(seen(&d, Viewer::Seat(0)), [Undecided, Declarer, Answered]);
    assert_eq!(seen(&d, Viewer::Seat(2)), [Undecided, Declarer, Joined]);
    let events = d.ok(0, Command::Drop);
    assert_eq!(events[1], Event::AnswersShown { joined: vec![2], dropped: vec![0] });
    assert_eq!(events[2], Event::CardsThrown { deal_number: 1, seat: 0, cards: cards("6H 7H") });
    assert_eq!(d.rules.redact(&d.state, &answer, Viewer::Seat(0), false)["joined"], json!(true));
    assert_eq!(seen(&d, Viewer::Spectator), [Dropped, Declarer, Joined]);
    // The thrown cards are hidden for ever from everyone but their owner, the record too.
    let thrown = d.log.last().unwrap().clone();
    assert_eq!(d.rules.redact(&d.state, &thrown, Viewer::Seat(2), true)["cards"], Value::Null);
    assert_eq!(d.rules.record_event(&d.state, &thrown, None)["cards"], Value::Null);
    assert_eq!(d.rules.record_event(&d.state, &thrown, Some(0))["cards"], json!(["6H", "7H"]));
    // The last two tricks without seat 0: seat 2's clubs beat the declarer's.
    assert_eq!(d.to_act(), [1]);
    tricks(&mut d, &[(1, "2C"), (2, "4C")]);
    let events = tricks(&mut d, &[(2, "5C"), (1, "3C")]);
    let (scores, terms) = scored(&events);
    assert_eq!(scores, [12, 8, 12]);
    assert_eq!(terms.iter().map(|t| (t.to, t.points, t.rule.as_str())).collect::<Vec<_>>(), [(1, -4, rule::MADE)]);
    let record = d.rules.record_view(&d.state, None);
    assert!(!cards_in(&record).iter().any(|c| cards("6H 7H").contains(c)), "{record}");
    for e in &d.log {
        assert!(!cards_in(&d.rules.record_event(&d.state, e, None)).contains(&card("6H")), "{e:?}");
    }
    assert!(cards_in(&d.rules.record_view(&d.state, Some(0))).contains(&card("6H")));
}

/// The text's second example: B stood at 7, bid three and took two: 7 - 2 + 5 = 10. Seat 0
/// goes on without a trick and takes neither of the last two: five up.
#[test]
fn a_failed_bid_goes_up_five_less_the_tricks_and_a_joiner_without_a_trick_goes_up_five() {
    let hands = ["4S 5S 4D 5D 2H 3H", "AS KS 2D 3D 2C 3C", "2S 3S AD KD 4C 5C"];
    let mut d = at(&[12, 7, 12], Options::default(), deck(0, &hands));
    d.ok(1, bid(Bid::Three));
    d.ok(2, Command::Sneak);
    d.ok(0, Command::Sneak);
    tricks(&mut d, &[(1, "AS"), (2, "2S"), (0, "4S"), (1, "KS"), (2, "3S"), (0, "5S")]);
    tricks(&mut d, &[(1, "2D"), (2, "AD"), (0, "4D")]);
    let events = tricks(&mut d, &[(2, "KD"), (0, "5D"), (1, "3D")]);
    // Seat 2 has tricks and is in without a word; only seat 0 decides.
    assert!(events.contains(&Event::GoingOnAsked {
        deal_number: 1,
        declarer: 1,
        in_with_trick: vec![2],
        deciding: vec![0]
    }));
    assert_eq!(d.to_act(), [0]);
    d.ok(0, Command::Join);
    tricks(&mut d, &[(2, "4C"), (0, "2H"), (1, "2C")]);
    let events = tricks(&mut d, &[(2, "5C"), (0, "3H"), (1, "3C")]);
    let (scores, terms) = scored(&events);
    assert_eq!(scores, [17, 10, 12]);
    let summary: Vec<(Seat, i64, &str)> = terms.iter().map(|t| (t.to, t.points, t.rule.as_str())).collect();
    assert_eq!(summary, [(1, 5, rule::FAILED), (1, -2, rule::FAILED), (0, 5, rule::NO_TRICK)]);
    assert!(matches!(d.rules.status(&d.state), Status::NeedsDeck { .. }));
}

/// The text's example of going out during a deal: at 3 points, a bid of two, and three tricks
/// taken: the service knocks for the declarer ("knack för min utgång"), the deal is played out,
/// and after it the declarer has won; with the settlement each loser pays the difference.
#[test]
fn reaching_zero_during_the_deal_is_knocked_for_and_wins_after_the_deal_with_a_settlement() {
    let options = Options { settlement: true, rate: 2, ..Options::default() };
    let mut d = at(&[9, 3, 12], options, deck(0, &STRONG));
    d.ok(1, bid(Bid::Two));
    d.ok(2, Command::Sneak);
    d.ok(0, Command::Sneak);
    tricks(&mut d, &[(1, "AS"), (2, "2S"), (0, "5S"), (1, "KS"), (2, "3S")]);
    assert!(!play(&mut d, 0, "6S").iter().any(|e| matches!(e, Event::OutKnocked { .. })));
    let events = tricks(&mut d, &[(1, "QS"), (2, "4S"), (0, "7S")]);
    assert_eq!(events.last(), Some(&Event::OutKnocked { seat: 1, tricks: 3, score: 0 }));
    let events = tricks(&mut d, &[(1, "AH"), (2, "2H"), (0, "5H")]);
    assert!(!events.iter().any(|e| matches!(e, Event::OutKnocked { .. })), "one knock a deal");
    d.ok(0, Command::Join);
    d.ok(2, Command::Join);
    tricks(&mut d, &[(1, "2C"), (2, "4C"), (0, "6H")]);
    let events = tricks(&mut d, &[(2, "5C"), (0, "7H"), (1, "3C")]);
    let (scores, _) = scored(&events);
    // Seat 0 went on and took nothing: five up, from 9 to 14.
    assert_eq!(scores, [14, -1, 12]);
    let Some(Event::MatchEnded { winners, reason, settlement, .. }) = events.last() else { panic!("the match ends") };
    assert_eq!((winners.clone(), *reason), (vec![1], EndReason::ReachedZero));
    let paid: Vec<(Account, Account, i64)> = settlement.iter().map(|p| (p.from, p.to, p.amount)).collect();
    assert_eq!(paid, [(Account::Seat(0), Account::Seat(1), 30), (Account::Seat(2), Account::Seat(1), 26)]);
    assert_eq!(d.rules.view(&d.state, Viewer::Spectator).settlement, *settlement);
}

const SPADES: [&str; 3] = ["2D 3D 4D 5D 6D 7D", "AS KS QS JS TS 9S", "2H 3H 4H 5H 6H 7H"];

#[test]
fn rodskagg_made_wins_the_match_at_once_and_nobody_going_on_leaves_the_declarer_alone() {
    let mut d = at(&[12, 12, 12], Options::default(), deck(0, &SPADES));
    d.ok(1, bid(Bid::Rodskagg));
    assert_eq!(d.legal(2), [Command::Sneak]);
    d.ok(2, Command::Sneak);
    d.ok(0, Command::Sneak);
    for c in ["AS", "KS", "QS", "JS"] {
        let follow = |s: Seat| deal(&d).play.hands[s][0];
        let (a, b) = (follow(2), follow(0));
        play(&mut d, 1, c);
        d.ok(2, Command::Play { card: a });
        d.ok(0, Command::Play { card: b });
    }
    d.ok(2, Command::Drop);
    d.ok(0, Command::Drop);
    assert_eq!(deal(&d).play.out, [0, 2]);
    play(&mut d, 1, "TS");
    let events = play(&mut d, 1, "9S");
    let (scores, terms) = scored(&events);
    assert_eq!((scores, terms[0].rule.as_str()), (vec![12, 6, 12], rule::RODSKAGG_MADE));
    let Some(Event::MatchEnded { winners, reason, settlement, .. }) = events.last() else { panic!("the match ends") };
    assert_eq!((winners.clone(), *reason, settlement.len()), (vec![1], EndReason::Rodskagg, 0));
}

#[test]
fn rodskagg_failed_puts_the_bidder_out_of_the_match_at_his_points_before_plus_five() {
    let hands = ["2D 3D 4D 5D 6D 7D", "AS KS QS JS TS 2H", "2S 3S 4S 5S 6S AH"];
    let mut d = at(&[12, 4, 12], Options::default(), deck(0, &hands));
    d.ok(1, bid(Bid::Rodskagg));
    d.ok(2, Command::Sneak);
    d.ok(0, Command::Sneak);
    for (c, a, b) in [("AS", "2S", "2D"), ("KS", "3S", "3D"), ("QS", "4S", "4D"), ("JS", "5S", "5D")] {
        tricks(&mut d, &[(1, c), (2, a), (0, b)]);
    }
    d.ok(2, Command::Join);
    d.ok(0, Command::Drop);
    tricks(&mut d, &[(1, "TS"), (2, "6S")]);
    let events = tricks(&mut d, &[(1, "2H"), (2, "AH")]);
    let (scores, terms) = scored(&events);
    assert_eq!(scores, [12, 9, 12], "4 before the deal plus 5; the five tricks do not count");
    assert_eq!(terms.len(), 1);
    assert_eq!(terms[0].rule, rule::RODSKAGG_FAILED);
    assert_eq!(d.state.out_of_match, [1]);
    // The next deal passes over seat 1: seat 2 deals, seat 0 is forehand, seat 1 gets nothing.
    d.deal(deck(2, &["AS KS QS JS TS 9S", "", "2H 3H 4H 5H 6H 7H"]));
    let next = deal(&d);
    assert_eq!((next.dealer, next.forehand, next.play.hands[1].len()), (2, 0, 0));
    assert_eq!(next.auction.order, [0, 2]);
    assert_eq!(d.to_act(), [0]);
}

/// Issue 36: after seat 1 went out on a failed Rödskägg, the view and the deal's record named it
/// as the next dealer (`next_dealer: 1` beside `out_of_match: [1]`) while seat 2 dealt. The
/// match's next dealer is now always a seat still in the match: after the deal that put a seat
/// out, after a deal dealt by the seat before it, and after a thrown-in deal.
#[test]
fn the_next_dealer_is_never_a_seat_out_of_the_match() {
    let hands = ["2D 3D 4D 5D 6D 7D", "AS KS QS JS TS 2H", "2S 3S 4S 5S 6S AH"];
    let mut d = at(&[12, 4, 12], Options::default(), deck(0, &hands));
    let next_dealer = |d: &M, viewer: Viewer| d.rules.view(&d.state, viewer).deals.next_dealer;
    assert_eq!(next_dealer(&d, Viewer::Spectator), 1, "seat 1 is in the match while it bids");
    d.ok(1, bid(Bid::Rodskagg));
    d.ok(2, Command::Sneak);
    d.ok(0, Command::Sneak);
    for (c, a, b) in [("AS", "2S", "2D"), ("KS", "3S", "3D"), ("QS", "4S", "4D"), ("JS", "5S", "5D")] {
        tricks(&mut d, &[(1, c), (2, a), (0, b)]);
    }
    d.ok(2, Command::Join);
    d.ok(0, Command::Drop);
    tricks(&mut d, &[(1, "TS"), (2, "6S")]);
    tricks(&mut d, &[(1, "2H"), (2, "AH")]);
    assert_eq!(d.state.out_of_match, [1]);
    for viewer in [Viewer::Spectator, Viewer::Seat(0), Viewer::Record] {
        assert_eq!(next_dealer(&d, viewer), 2, "{viewer:?}");
    }
    // The record, as the service reads it through the erased interface.
    for seat in [None, Some(0), Some(1)] {
        let record = d.rules.record_view(&d.state, seat);
        assert_eq!((record["next_dealer"].clone(), record["out_of_match"].clone()), (json!(2), json!([1])));
    }
    // Deal 2, dealt by seat 2 as the record said, is thrown in: seat 0 deals next.
    d.deal(deck(2, &["2H 3H 4H 5H 6H 7H", "", "2S 3S 4S 5S 6S 7S"]));
    assert_eq!((deal(&d).dealer, next_dealer(&d, Viewer::Spectator)), (2, 0));
    d.ok(0, Command::Sneak);
    let events = d.ok(2, Command::Sneak);
    assert!(events.contains(&Event::AllSneaked { deal_number: 2, next_dealer: 0 }));
    // Deal 3, dealt by seat 0: seat 1 is next round the table, but seat 2 deals next.
    d.deal(deck(0, &["2H 3H 4H 5H 6H 7H", "", "2S 3S 4S 5S 6S 7S"]));
    assert_eq!((deal(&d).dealer, next_dealer(&d, Viewer::Spectator)), (0, 2));
    d.ok(2, Command::Sneak);
    let events = d.ok(0, Command::Sneak);
    assert!(events.contains(&Event::AllSneaked { deal_number: 3, next_dealer: 2 }), "{events:?}");
    assert_eq!(next_dealer(&d, Viewer::Record), 2);
    // A stored log that named seat 1 here (as this event did before) reads the same.
    let mut old = d.state.clone();
    d.rules.evolve(&mut old, &Event::AllSneaked { deal_number: 3, next_dealer: 1 });
    assert_eq!(d.rules.view(&old, Viewer::Record).deals.next_dealer, 2);
    d.deal(deck(2, &["2H 3H 4H 5H 6H 7H", "", "2S 3S 4S 5S 6S 7S"]));
    assert_eq!(deal(&d).dealer, 2);
}

#[test]
fn the_last_player_left_in_the_match_wins_it() {
    let hands = ["2D 3D 4D 5D 6D 7D", "AS KS QS JS TS 2H", "2S 3S 4S 5S 6S AH"];
    let mut d = at(&[12, 4, 12], Options::default(), deck(0, &hands));
    d.state.out_of_match = vec![0];
    let mut events = d.rules.deal(&d.state, deck(1, &["", hands[1], hands[2]])).unwrap();
    if let Event::DealStarted { out_of_match, deal_number, .. } = &mut events[0] {
        assert_eq!(out_of_match, &[0]);
        *deal_number = 2;
    }
    d.apply(events);
    assert_eq!((deal(&d).dealer, deal(&d).forehand), (1, 2));
    d.ok(2, Command::Sneak);
    d.ok(1, bid(Bid::Rodskagg));
    for (c, a) in [("AS", "2S"), ("KS", "3S"), ("QS", "4S"), ("JS", "5S")] {
        tricks(&mut d, &[(1, c), (2, a)]);
    }
    d.ok(2, Command::Join);
    tricks(&mut d, &[(1, "TS"), (2, "6S")]);
    let events = tricks(&mut d, &[(1, "2H"), (2, "AH")]);
    let Some(Event::MatchEnded { winners, reason, .. }) = events.last() else { panic!("the match ends") };
    assert_eq!((winners.clone(), *reason), (vec![2], EndReason::LastInMatch));
}

#[test]
fn the_deal_limit_ends_the_match_with_the_fewest_points() {
    let options = Options { max_deals: 1, ..Options::default() };
    let mut d = at(&[12, 5, 12], options, deck(0, &STRONG));
    d.ok(1, Command::Sneak);
    d.ok(2, Command::Sneak);
    let events = d.ok(0, Command::Sneak);
    let Some(Event::MatchEnded { winners, reason, .. }) = events.last() else { panic!("the match ends") };
    assert_eq!((winners.clone(), *reason), (vec![1], EndReason::DealLimit));
}

#[test]
fn the_settlement_pays_the_difference_times_the_rate_and_never_backwards() {
    let paid = settle(&[14, 2, 0, 9], &[2], 3);
    let amounts: Vec<(Account, i64)> = paid.iter().map(|p| (p.from, p.amount)).collect();
    assert_eq!(amounts, [(Account::Seat(0), 42), (Account::Seat(1), 6), (Account::Seat(3), 27)]);
    assert!(settle(&[3, 8], &[1], 1).is_empty(), "a loser below a Rödskägg winner pays nothing");
}

#[test]
fn bids_are_ordered_and_promise_their_tricks() {
    assert!(Bid::Six < Bid::Rodskagg && Bid::One < Bid::Two);
    assert_eq!(Bid::ALL.map(Bid::tricks), [1, 2, 3, 4, 5, 6, 6]);
    assert_eq!(serde_json::to_value(Bid::Rodskagg).unwrap(), json!("rodskagg"));
}
