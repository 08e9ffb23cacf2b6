use super::*;
use crate::cards::{card, cards, is_permutation};
use crate::game::Status;
use crate::simulate::Driver;
use serde_json::json;

type M = Driver<Stortok>;

/// A deck dealt by seat 0 to `hands` (by seat, five cards each, one at a time from seat 1), the
/// card `turned` on top of the talon, then `talon`, then the rest of the pack in pack order.
fn deck(hands: &[&str], turned: &str, talon: &str) -> Vec<Card> {
    let n = hands.len();
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let mut deck: Vec<Card> = (0..HAND * n).map(|i| hands[(1 + i) % n][i / n]).collect();
    deck.push(card(turned));
    deck.extend(cards(talon));
    deck.extend(pack().into_iter().filter(|c| !deck.contains(c)).collect::<Vec<_>>());
    assert!(is_permutation(&deck, &pack()), "{deck:?}");
    deck
}

fn started(hands: &[&str], turned: &str, talon: &str) -> M {
    let mut m = M::new(hands.len(), Options::default());
    m.deal(deck(hands, turned, talon));
    m
}

fn deal(m: &M) -> &Deal {
    m.state.deals.deal.as_ref().unwrap()
}

fn play(code: &str) -> Command {
    Command::Play { card: card(code) }
}

/// The talon gone and the hands as given (cards taken out go aside), for the end of a deal.
fn late(m: &mut M, hands: &[&str]) {
    let d = m.state.deals.deal.as_mut().unwrap();
    let mut all: Vec<Card> = d.piles.talon.drain(..).collect();
    all.extend(d.hands.iter_mut().flat_map(std::mem::take));
    all.append(&mut d.piles.pile);
    d.trick.clear();
    d.knowledge = Knowledge::of_hands(hands.len());
    for (s, h) in hands.iter().enumerate() {
        d.hands[s] = cards(h);
        all.retain(|c| !d.hands[s].contains(c));
    }
    d.piles.burnt.extend(all);
    m.rules.check_invariants(&m.state).unwrap();
}

const THREE: [&str; 3] = ["6C 7C 8C 9C TC", "TD 6H 7S 8S 9S", "JD 6S AH KH QH"];

#[test]
fn the_nine_of_diamonds_turned_makes_diamonds_high_and_hearts_low_and_forehand_beats_it() {
    let m = started(&THREE, "9D", "");
    let d = deal(&m);
    assert_eq!((d.high, d.low), (Suit::Diamonds, Suit::Hearts), "the text's example");
    assert_eq!((d.turned, d.piles.pile.clone(), d.piles.talon.len()), (card("9D"), cards("9D"), 20));
    assert_eq!(m.to_act(), [1], "forehand begins");
    assert_eq!(m.legal(1), [play("TD")], "only a higher high trump beats the turned card");
    assert_eq!(m.refused(1, play("6H")).rule, rule::FOLLOW, "he holds a diamond");
    assert_eq!(m.refused(1, play("AS")).rule, crate::rules::core::CARD_NOT_HELD);
    let t = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!((t.high_trump, t.low_trump, t.talon_count), (Some(Suit::Diamonds), Some(Suit::Hearts), Some(20)));
    assert_eq!((t.turned_card, t.pile), (Some(card("9D")), Some(cards("9D"))));
}

#[test]
fn each_card_beats_the_one_before_and_who_cannot_takes_that_card_and_draws_nothing() {
    let mut m = started(&THREE, "9D", "7D 8D");
    let events = m.ok(1, play("TD"));
    assert_eq!(events, [Event::Played { seat: 1, card: card("TD") }, Event::Drew { seat: 1, cards: cards("7D") }]);
    assert_eq!(m.to_act(), [2]);
    assert_eq!(m.refused(2, play("AH")).rule, rule::FOLLOW);
    assert_eq!(m.legal(2), [play("JD")]);
    let events = m.ok(2, play("JD"));
    // Seat 0 holds no diamond and no trump above one: he takes the jack, the rest goes aside.
    assert_eq!(events[2..], [Event::PickedUp { seat: 0, card: card("JD"), put_aside: cards("9D TD"), leader: 1 }]);
    assert_eq!(m.to_act(), [1], "the next player leads");
    let d = deal(&m);
    assert_eq!(d.hands[0].len(), 6, "nothing drawn on a pick-up");
    assert!(d.hands[0].contains(&card("JD")));
    assert_eq!(d.piles.burnt, cards("9D TD"));
    assert!(d.piles.pile.is_empty());
    let t = m.rules.view(&m.state, Viewer::Seat(2));
    assert_eq!(t.public_cards.unwrap()[0], cards("JD"), "the picked-up card is public while held");
    assert_eq!(t.set_aside, Some(cards("9D TD")));
    assert!(m.rules.secrets(&m.state).iter().all(|(c, _)| *c != card("JD")));
    assert_eq!(m.legal(1).len(), 5, "a lead is any card");
    // Over a low trump, a higher low trump or any high trump, as the player likes.
    m.ok(1, play("6H"));
    let legal = m.legal(2);
    assert!(legal.len() == 4 && ["QH", "KH", "AH", "8D"].iter().all(|c| legal.contains(&play(c))), "{legal:?}");
    assert_eq!(m.refused(2, play("6S")).rule, rule::FOLLOW);
}

#[test]
fn a_player_void_in_the_suit_beats_with_any_trump() {
    let hands = ["6C 7C 8C 9C TC", "6D 6H 7S 8S 9S", "JD 7H AS KH QH"];
    let mut m = started(&hands, "AD", "");
    // Nothing beats the ace of high trumps: forehand takes it at once and seat 2 leads.
    assert_eq!(m.log[1], Event::PickedUp { seat: 1, card: card("AD"), put_aside: vec![], leader: 2 });
    assert_eq!(m.to_act(), [2]);
    m.ok(2, play("7H"));
    // Seat 0: no heart and no high trump. He takes the low trump; seat 1 leads.
    assert!(deal(&m).hands[0].contains(&card("7H")));
    assert_eq!(m.to_act(), [1]);
    m.ok(1, play("9S"));
    assert_eq!(m.refused(2, play("KH")).rule, rule::FOLLOW, "he holds the ace of spades");
    m.ok(2, play("AS"));
    assert_eq!(m.legal(0), [play("7H")], "void in spades, his low trump beats the ace");
    let events = m.ok(0, play("7H"));
    assert!(events.contains(&Event::TrickPutAside { cards: cards("9S AS 7H"), leader: 0 }));
    assert_eq!(m.to_act(), [0], "the last to play leads");
}

#[test]
fn over_a_low_trump_a_higher_low_trump_or_any_high_trump() {
    let (high, low) = (Suit::Diamonds, Suit::Hearts);
    let before = card("8H");
    assert_eq!(beats(card("9H"), before, &cards("6D 9H"), high, low), Ok(()));
    assert_eq!(beats(card("6D"), before, &cards("6D 9H"), high, low), Ok(()), "a high trump is a choice");
    assert_eq!(beats(card("6D"), before, &cards("6D 7H"), high, low), Ok(()), "holding only lower low trumps");
    assert_eq!(beats(card("7H"), before, &cards("6D 7H"), high, low), Err(rule::HIGHER));
    assert_eq!(beats(card("6D"), before, &cards("6D 6S"), high, low), Ok(()), "void in low trumps");
    assert_eq!(beats(card("AS"), before, &cards("AS"), high, low), Err(rule::TRUMP), "no plain card on a trump");
    assert_eq!(beats(card("AH"), card("6D"), &cards("AH"), high, low), Err(rule::TRUMP), "low never over high");
    assert_eq!(beats(card("7H"), card("9S"), &cards("7H"), high, low), Ok(()), "any trump on a plain card");
    assert_eq!(beats(card("6D"), card("AS"), &cards("6D KC"), high, low), Ok(()));
    assert_eq!(beats(card("7D"), card("8D"), &cards("7D"), high, low), Err(rule::HIGHER));
    assert_eq!(beats(card("QC"), card("JC"), &cards("QC"), high, low), Ok(()));
    assert_eq!((low_trump_of(Suit::Clubs), low_trump_of(Suit::Spades)), (Suit::Spades, Suit::Clubs));
}

#[test]
fn a_trick_is_complete_when_everyone_still_in_has_played_and_the_last_to_play_leads() {
    let hands = ["6C 7C 8C JD KD", "TD 6H 7S 8S 9S", "QD 6S AH KH QH"];
    let mut m = started(&hands, "9D", "7D 8D AC");
    m.ok(1, play("TD"));
    m.ok(2, play("QD"));
    assert_eq!(m.refused(0, play("JD")).rule, rule::HIGHER);
    let events = m.ok(0, play("KD"));
    assert_eq!(
        events,
        [
            Event::Played { seat: 0, card: card("KD") },
            Event::Drew { seat: 0, cards: cards("AC") },
            Event::TrickPutAside { cards: cards("9D TD QD KD"), leader: 0 },
        ],
        "the turned card is no play: the trick closes after all three"
    );
    assert_eq!(m.to_act(), [0]);
    let d = deal(&m);
    assert!(d.piles.pile.is_empty() && d.trick.is_empty());
    assert_eq!(d.piles.burnt, cards("9D TD QD KD"));
    assert_eq!(m.legal(0).len(), 5);
}

#[test]
fn a_player_without_cards_once_the_talon_is_gone_is_out_and_the_last_holding_cards_is_the_stortok() {
    let mut m = started(&THREE, "9D", "");
    late(&mut m, &["AC", "6C", "7C 8C"]);
    let events = m.ok(1, play("6C"));
    assert_eq!(events[1], Event::WentOut { seat: 1, place: 1 });
    assert_eq!(m.to_act(), [2]);
    m.ok(2, play("8C"));
    let events = m.ok(0, play("AC"));
    assert_eq!(events[1], Event::WentOut { seat: 0, place: 2 });
    assert!(matches!(&events[2], Event::DealScored { losers, out, scores, .. }
        if losers == &[2] && out == &[1, 0] && scores == &[0, 0, -1]));
    assert!(matches!(&events[3], Event::MatchEnded { winners, .. } if winners == &[0, 1]));
    let t = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!((t.stortok, t.out), (Some(vec![2]), Some(vec![1, 0])));
    assert!(m.rules.status(&m.state).is_finished());
}

#[test]
fn the_last_to_play_to_a_trick_who_went_out_with_that_card_passes_the_lead_on() {
    let mut m = started(&THREE, "9D", "");
    late(&mut m, &["AC", "6C 7S", "7C 8S"]);
    m.ok(1, play("6C"));
    m.ok(2, play("7C"));
    let events = m.ok(0, play("AC"));
    assert_eq!(
        events[1..],
        [Event::WentOut { seat: 0, place: 1 }, Event::TrickPutAside { cards: cards("6C 7C AC"), leader: 1 }]
    );
    assert_eq!(m.to_act(), [1]);
}

#[test]
fn drawn_cards_and_dealt_hands_are_their_holders_while_the_deal_lasts() {
    let mut m = started(&THREE, "9D", "7D 8D");
    m.ok(1, play("TD"));
    let drew = m.log.iter().find(|e| matches!(e, Event::Drew { .. })).unwrap().clone();
    let seen = m.rules.redact(&m.state, &drew, Viewer::Seat(0), false);
    assert_eq!(seen["cards"], json!([null]));
    assert_eq!(m.rules.redact(&m.state, &drew, Viewer::Seat(1), false)["cards"], json!(["7D"]));
    assert_eq!(m.rules.redact(&m.state, &drew, Viewer::Record, true)["cards"], json!(["7D"]));
    let dealt = m.rules.redact(&m.state, &m.log[0], Viewer::Seat(2), false);
    assert!(dealt["deck"].is_null() && dealt["hands"][0].is_null());
    assert_eq!(dealt["hands"][2], json!(crate::cards::sorted(cards("JD 6S AH KH QH"))));
    assert_eq!(dealt["turned"], json!("9D"), "the turned card is public");
    let t = m.rules.view(&m.state, Viewer::Seat(2));
    assert!(t.hands.is_none() && t.talon.is_none() && t.hand.is_some());
}

#[test]
fn a_match_of_several_deals_counts_the_losses() {
    let mut m = M::new(3, Options { deals: 2 });
    assert!(m.rules.setup(3, Options { deals: 0 }).is_err());
    m.deal(pack());
    m.finish_deal();
    assert!(matches!(m.rules.status(&m.state), Status::NeedsDeck { .. }));
    assert!(m.state.deals.scores.iter().sum::<i64>() <= -1);
    assert_eq!(m.state.deals.next_dealer, 1);
    let mut second = pack();
    second.reverse();
    m.deal(second);
    m.finish_deal();
    let outcome = m.state.deals.outcome.clone().expect("over after two deals");
    let best = *m.state.deals.scores.iter().max().unwrap();
    assert!(outcome.winners.iter().all(|&s| m.state.deals.scores[s] == best));
}

#[test]
fn a_deal_that_puts_nothing_aside_for_too_long_is_stopped_and_the_most_cards_lose() {
    let mut m = started(&THREE, "9D", "7D 8D");
    m.ok(1, play("TD"));
    m.ok(2, play("JD"));
    m.state.deals.deal.as_mut().unwrap().idle = STALL_PLAYS - 1;
    let events = m.ok(1, play("6H"));
    assert!(events.contains(&Event::Stalled { hand_sizes: vec![6, 5, 5], losers: vec![0] }), "{events:?}");
    assert!(matches!(&m.state.deals.outcome, Some(o) if o.winners == [1, 2]));
}

#[test]
fn the_bot_beats_as_cheaply_as_it_can_and_leads_low_keeping_trumps() {
    let hands = ["6C 7C 8C JD KD", "TD 6H 7S 8S 9S", "QD 6S AH KH QH"];
    let m = started(&hands, "9D", "");
    let mut rng = Rng::new(1);
    assert_eq!(m.rules.basic_move(&m.state, 1, &mut rng), Some(play("TD")));
    let mut m = started(&THREE, "9D", "7D 8D");
    m.ok(1, play("TD"));
    m.ok(2, play("JD"));
    assert_eq!(m.rules.basic_move(&m.state, 1, &mut rng), Some(play("7S")), "the lowest plain card, not a trump");
}
