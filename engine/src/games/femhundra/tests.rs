use super::*;
use crate::cards::{card, cards};
use crate::simulate::Driver;

type M = Driver<Femhundra>;

fn trick(leader: Seat, players: usize, codes: &str) -> Trick {
    Trick { leader, plays: cards(codes).into_iter().enumerate().map(|(i, c)| ((leader + i) % players, c)).collect() }
}

fn rules_of(terms: &[ScoreTerm]) -> Vec<(usize, i64, String)> {
    terms.iter().map(|t| (t.to, t.points, t.rule.clone())).collect()
}

#[test]
fn the_bid_table_follows_the_avondale_values() {
    let t = |tricks, suit| Contract::Trumps { tricks, suit };
    assert_eq!(t(6, Suit::Spades).value(3), 40);
    assert_eq!(Contract::NoTrumps { tricks: 6 }.value(3), 120);
    assert_eq!(t(7, Suit::Hearts).value(3), 200);
    assert_eq!(Contract::NoTrumps { tricks: 10 }.value(3), 520);
    assert_eq!((Contract::OpenMisere.value(3), Contract::OpenMisere.value(4)), (520, 500));
    // Misère ranks between seven no trumps and eight spades, open misère above all.
    assert!(Contract::NoTrumps { tricks: 7 }.order() < Contract::Misere.order());
    assert!(Contract::Misere.order() < t(8, Suit::Spades).order());
    assert_eq!(Contract::all().last(), Some(&Contract::OpenMisere));
    assert_eq!(Contract::all().len(), 27);
}

#[test]
fn the_joker_and_the_bowers_top_the_trumps_in_the_texts_order() {
    // Diamonds trumps: joker, jack of diamonds, jack of hearts, ace of diamonds.
    let d = Some(Suit::Diamonds);
    assert_eq!(trick_winner(&trick(0, 3, "AD JH JD"), d, None).0, 2);
    assert_eq!(trick_winner(&trick(0, 3, "AD JH KD"), d, None).0, 1);
    assert_eq!(trick_winner(&trick(0, 3, "JD JK AD"), d, None).0, 1);
    // The left bower is a trump: it beats the ace of hearts led, and it does not follow hearts.
    assert_eq!(trick_winner(&trick(0, 3, "AH JH 7H"), d, None), (1, card("JH"), WinReason::HighestTrump));
    assert_eq!(suit_of(card("JH"), d), d);
    assert_eq!(suit_of(card("JC"), d), Some(Suit::Clubs));
    // Without trumps the joker takes the trick of whatever suit was led, and names its suit when led.
    assert_eq!(trick_winner(&trick(0, 3, "AS JK KS"), None, None).0, 1);
    assert_eq!(trick_winner(&trick(0, 3, "JK AH KH"), None, Some(Suit::Hearts)).0, 0);
}

#[test]
fn the_packs_and_the_deal_have_the_texts_sizes() {
    for (players, size, widow) in [(2, 24, 4), (3, 33, 3), (4, 43, 3), (5, 53, 3)] {
        let p = pack(players);
        assert_eq!(p.len(), size);
        assert_eq!(p.contains(&JOKER), players != 2);
        let (hands, w) = deal_packets(players, 0, &p);
        assert!(hands.iter().all(|h| h.len() == 10));
        assert_eq!(w.len(), widow);
        // The widow comes after the first packet of three each.
        assert_eq!(w, p[3 * players..3 * players + widow].to_vec());
    }
    assert!(!pack(4).contains(&card("4C")) && pack(4).contains(&card("4H")));
}

fn played(
    players: usize,
    contract: Contract,
    declarers: Vec<Seat>,
    taken: Vec<u8>,
    slam: bool,
    scores: Vec<i64>,
) -> Played {
    Played { players, contract: Some(contract), declarers, taken, slam_bonus: slam, scores }
}

#[test]
fn made_set_and_the_opponents_ten_a_trick() {
    let seven_hearts = Contract::Trumps { tricks: 7, suit: Suit::Hearts };
    let (terms, made) = score(&played(3, seven_hearts, vec![0], vec![8, 1, 1], true, vec![0; 3]));
    assert_eq!(made, Some(true));
    assert_eq!(
        rules_of(&terms),
        [(0, 200, rule::MADE.into()), (1, 10, rule::OPPONENT_TRICKS.into()), (2, 10, rule::OPPONENT_TRICKS.into())]
    );
    let (terms, made) = score(&played(3, seven_hearts, vec![0], vec![6, 3, 1], true, vec![0; 3]));
    assert_eq!(made, Some(false));
    assert_eq!(rules_of(&terms)[0], (0, -200, rule::SET.into()));
    assert_eq!(rules_of(&terms)[1], (1, 30, rule::OPPONENT_TRICKS.into()));
}

#[test]
fn ten_tricks_lift_a_small_bid_to_250_but_not_in_rounds() {
    let six_spades = Contract::Trumps { tricks: 6, suit: Suit::Spades };
    let (terms, _) = score(&played(3, six_spades, vec![0], vec![10, 0, 0], true, vec![0; 3]));
    assert_eq!(rules_of(&terms), [(0, 250, rule::SLAM.into())]);
    let (terms, _) = score(&played(3, six_spades, vec![0], vec![10, 0, 0], false, vec![0; 3]));
    assert_eq!(rules_of(&terms), [(0, 40, rule::MADE.into())]);
}

#[test]
fn misere_set_pays_each_opponent_for_the_declarers_tricks() {
    let (terms, made) = score(&played(3, Contract::Misere, vec![1], vec![4, 2, 4], true, vec![0; 3]));
    assert_eq!(made, Some(false));
    assert_eq!(
        rules_of(&terms),
        [(1, -250, rule::SET.into()), (0, 20, rule::MISERE_SET.into()), (2, 20, rule::MISERE_SET.into())]
    );
    let (terms, made) = score(&played(3, Contract::Misere, vec![1], vec![5, 0, 5], true, vec![0; 3]));
    assert_eq!((made, rules_of(&terms)), (Some(true), vec![(1, 250, rule::MADE.to_string())]));
}

#[test]
fn four_players_stop_at_490_when_the_others_fail() {
    let eight_clubs = Contract::Trumps { tricks: 8, suit: Suit::Clubs };
    let (terms, _) = score(&played(4, eight_clubs, vec![0, 2], vec![3, 2, 4, 1], false, vec![0, 470]));
    assert_eq!(rules_of(&terms), [(0, -260, rule::SET.into()), (1, 20, rule::STOP_AT_490.into())]);
    // Made by the other side, the trick points may carry a side over.
    let (terms, _) = score(&played(4, eight_clubs, vec![0, 2], vec![4, 1, 4, 1], false, vec![0, 480]));
    assert_eq!(rules_of(&terms)[1], (1, 20, rule::OPPONENT_TRICKS.into()));
}

#[test]
fn the_match_is_won_at_500_by_the_declarer_on_a_tie_or_lost_by_the_back_door() {
    let (w, _) = match_end(3, &[480, 300, 0], &[520, 400, 0], &[0], &[]).unwrap();
    assert_eq!(w, [0]);
    let (w, e) = match_end(3, &[480, 460, 0], &[500, 500, 0], &[1], &[]).unwrap();
    assert_eq!(w, [1], "{}", e.en);
    // No declarer: the first to 500 in the order of the tricks.
    let credits = vec![vec![2], vec![0], vec![2], vec![0]];
    let (w, _) = match_end(3, &[480, 0, 480], &[500, 0, 500], &[], &credits).unwrap();
    assert_eq!(w, [2]);
    let (w, e) = match_end(3, &[100, -400, 50], &[100, -520, 60], &[1], &[]).unwrap();
    assert_eq!(w, [0]);
    assert!(e.en.contains("back door"));
    assert_eq!(match_end(4, &[0, 0], &[490, 10], &[0], &[]).map(|x| x.0), None);
    assert_eq!(match_end(4, &[0, 0], &[500, 10], &[0], &[]).unwrap().0, [0, 2]);
}

/// A three-player deck in which seat 1 (forehand) holds all the hearts and both red jacks.
fn deck3(hands: [&str; 3], widow: &str) -> Vec<Card> {
    let h: Vec<Vec<Card>> = hands.iter().map(|s| cards(s)).collect();
    let mut deck = Vec::new();
    for (range, _) in [(0..3, 0), (3..7, 1), (7..10, 2)] {
        if range.start == 3 {
            deck.extend(cards(widow));
        }
        for s in [1, 2, 0] {
            deck.extend(h[s][range.clone()].iter().copied());
        }
    }
    deck
}

#[test]
fn a_deal_of_three_bids_takes_the_widow_discards_in_secret_and_scores() {
    let mut m = M::new(3, Options::default());
    let deck = deck3(
        ["7C 8C 9C TC JC QC KC AC 7S 8S", "JK JD JH AH KH QH TH 9H 8H 7H", "9S TS JS QS KS AS 7D 8D 9D TD"],
        "QD KD AD",
    );
    let events = m.deal(deck);
    let Event::DealStarted { hands, widow, .. } = &events[0] else { panic!() };
    assert_eq!(widow, &cards("QD KD AD"));
    assert!(hands[1].contains(&JOKER));
    assert_eq!(m.to_act(), [1]);
    m.ok(1, Command::Bid { contract: Contract::Trumps { tricks: 10, suit: Suit::Hearts } });
    assert_eq!(
        m.refused(2, Command::Bid { contract: Contract::Trumps { tricks: 10, suit: Suit::Spades } }).rule,
        rule::BID_HIGHER
    );
    assert_eq!(m.refused(2, Command::Bid { contract: Contract::Misere }).rule, rule::MISERE);
    m.ok(2, Command::Pass);
    let events = m.ok(0, Command::Pass);
    assert!(matches!(events[2], Event::WidowTaken { seat: 1, .. }));
    // The widow and the discards are the declarer's alone, even in the record.
    for c in ["QD", "KD", "AD"] {
        m.ok(1, Command::Discard { card: card(c) });
    }
    let spectator = serde_json::to_value(m.rules.view(&m.state, Viewer::Spectator)).unwrap();
    assert_eq!(spectator["discards"], Value::Null);
    assert_eq!(spectator["discard_count"], json!(3));
    let mine = serde_json::to_value(m.rules.view(&m.state, Viewer::Seat(1))).unwrap();
    assert_eq!(mine["discards"], json!(["QD", "KD", "AD"]));
    let discard = m.log.iter().find(|e| matches!(e, Event::Discarded { .. })).unwrap().clone();
    assert_eq!(m.rules.record_event(&m.state, &discard, Some(0))["card"], Value::Null);
    assert_eq!(m.rules.record_event(&m.state, &discard, Some(1))["card"], json!("QD"));
    // The left bower leads as a trump: seat 2 holds diamonds but no trump, and may play anything.
    m.ok(1, Command::Play { card: card("JD"), suit: None });
    assert_eq!(m.legal(2).len(), 10);
    m.finish_deal();
    let Some(Event::DealScored { terms, scores, made, .. }) =
        m.log.iter().rev().find(|e| matches!(e, Event::DealScored { .. })).cloned()
    else {
        panic!()
    };
    assert_eq!(made, Some(true));
    assert_eq!(rules_of(&terms), [(1, 500, rule::MADE.into())]);
    assert_eq!(scores, [0, 500, 0]);
    assert!(matches!(m.log.last(), Some(Event::MatchEnded { winners, .. }) if winners == &[1]));
    let record = m.rules.record_view(&m.state, None);
    assert!(!crate::game::cards_in(&record).iter().any(|c| cards("QD KD AD").contains(c)));
    let started = m.log[0].clone();
    let shown = m.rules.record_event(&m.state, &started, None);
    assert!(!crate::game::cards_in(&shown).iter().any(|c| cards("QD KD AD").contains(c)), "{shown}");
}

#[test]
fn all_pass_plays_no_trumps_and_the_joker_names_its_suit() {
    let mut m = M::new(3, Options::default());
    let deck = deck3(
        ["7C 8C 9C TC JC QC KC AC 7S 8S", "JK JD JH AH KH QH TH 9H 8H 7H", "9S TS JS QS KS AS 7D 8D 9D TD"],
        "QD KD AD",
    );
    m.deal(deck);
    for s in [1, 2, 0] {
        m.ok(s, Command::Pass);
    }
    assert!(m.log.iter().any(|e| matches!(e, Event::WidowSetAside { .. })));
    assert_eq!(m.refused(1, Command::Play { card: JOKER, suit: None }).rule, rule::JOKER_SUIT);
    assert_eq!(m.refused(1, Command::Play { card: card("AH"), suit: Some(Suit::Hearts) }).rule, rule::NO_SUIT_NAMED);
    m.ok(1, Command::Play { card: JOKER, suit: Some(Suit::Spades) });
    assert_eq!(m.refused(2, Command::Play { card: card("7D"), suit: None }).rule, rule::FOLLOW_SUIT);
    m.finish_deal();
    let Some(Event::DealScored { terms, .. }) =
        m.log.iter().rev().find(|e| matches!(e, Event::DealScored { .. })).cloned()
    else {
        panic!()
    };
    assert!(terms.iter().all(|t| t.rule == rule::NO_DECLARER && t.points % 10 == 0));
    assert_eq!(terms.iter().map(|t| t.points).sum::<i64>(), 100);
}
