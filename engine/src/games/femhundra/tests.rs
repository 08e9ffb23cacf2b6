use super::*;
use crate::cards::{card, cards};
use crate::simulate::Driver;
use serde_json::json;

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
    let hidden = m.rules.record_event(&m.state, &discard, Some(0));
    assert_eq!(hidden["card"], Value::Null);
    // Hidden as the event has it: a discard has one `card`, and gains no `cards` field.
    assert_eq!(hidden.as_object().unwrap().keys().collect::<Vec<_>>(), ["card", "seat", "type"]);
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

/// A deck that deals `hands` (by seat, ten cards each) and `widow` from `dealer`: three each
/// from the dealer's next seat, the widow, four each, three each.
fn stack(players: usize, dealer: Seat, hands: &[&str], widow: &str) -> Vec<Card> {
    let t = table(players);
    let h: Vec<Vec<Card>> = hands.iter().map(|s| cards(s)).collect();
    let order: Vec<Seat> = (1..=players).map(|i| t.after(dealer, i)).collect();
    let mut deck = Vec::new();
    for (k, range) in [0..3, 3..7, 7..10].into_iter().enumerate() {
        if k == 1 {
            deck.extend(cards(widow));
        }
        for &s in &order {
            deck.extend(h[s][range.clone()].iter().copied());
        }
    }
    deck
}

fn last_scored(m: &M) -> Event {
    m.log.iter().rev().find(|e| matches!(e, Event::DealScored { .. })).cloned().expect("a deal scored")
}

fn view_json(m: &M, viewer: Viewer) -> Value {
    serde_json::to_value(m.rules.view(&m.state, viewer)).unwrap()
}

fn shows_any(value: &Value, these: &[Card]) -> bool {
    crate::game::cards_in(value).iter().any(|c| these.contains(c))
}

/// Five players, dealer 0: seat 1 holds the joker and the top eight trumps in hearts; the ace
/// of spades (the card called) is seat 3's.
fn deck5(widow_has_clubs: bool) -> Vec<Card> {
    let (three, widow) = if widow_has_clubs {
        ("AS KS QS 3H 2H 6H 5H 4H 2D 3D", "QC KC AC")
    } else {
        ("AS KS QS 3H 2H QC KC AC 2D 3D", "6H 5H 4H")
    };
    stack(
        5,
        0,
        &[
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS",
            "JK JH JD AH KH QH TH 9H 8H 7H",
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC",
            three,
            "4D 5D 6D 7D 8D 9D TD QD KD AD",
        ],
        widow,
    )
}

fn seven_hearts() -> Contract {
    Contract::Trumps { tricks: 7, suit: Suit::Hearts }
}

/// Seat 1 bids seven hearts in rounds (no slam lift) and the others pass.
fn five_player_auction(widow_has_clubs: bool) -> M {
    let mut m = M::new(5, Options { bidding: Bidding::Rounds, misere: false });
    let events = m.deal(deck5(widow_has_clubs));
    let Event::DealStarted { hands, .. } = &events[0] else { panic!() };
    assert_eq!(hands[1], sorted(cards("JK JH JD AH KH QH TH 9H 8H 7H")));
    m.ok(1, Command::Bid { contract: seven_hearts() });
    for s in [2, 3, 4] {
        m.ok(s, Command::Pass);
    }
    let events = m.ok(0, Command::Pass);
    // With five the declarer calls before taking the widow.
    assert_eq!(events[1..], [Event::AuctionWon { declarer: Some(1), contract: Some(seven_hearts()) }]);
    assert_eq!(m.to_act(), [1]);
    assert_eq!(m.rules.view(&m.state, Viewer::Seat(1)).phase, Phase::CallingPartner);
    m
}

#[test]
fn five_players_the_holder_of_the_called_card_is_the_partner_and_both_score_the_bid() {
    let mut m = five_player_auction(false);
    // Only the declarer calls; no trump (the left bower is one), no rank outside the pack.
    assert_eq!(m.refused(3, Command::CallPartner { suit: Suit::Spades, rank: 14 }).rule, crate::rules::core::TURN);
    assert_eq!(m.refused(1, Command::CallPartner { suit: Suit::Hearts, rank: 2 }).rule, rule::CALL_NOT_TRUMP);
    assert_eq!(m.refused(1, Command::CallPartner { suit: Suit::Diamonds, rank: 11 }).rule, rule::CALL_NOT_TRUMP);
    assert_eq!(m.refused(1, Command::CallPartner { suit: Suit::Spades, rank: 15 }).rule, rule::CALL_PARTNER);
    assert_eq!(m.refused(1, Command::Discard { card: card("7H") }).rule, crate::rules::core::PHASE);
    let spectator = view_json(&m, Viewer::Spectator);
    assert_eq!((spectator["called_card"].clone(), spectator["partner"].clone()), (Value::Null, Value::Null));

    let events = m.ok(1, Command::CallPartner { suit: Suit::Spades, rank: 14 });
    assert_eq!(events[0], Event::PartnerCalled { declarer: 1, card: Some(card("AS")), partner: Some(3) });
    assert!(matches!(&events[1], Event::WidowTaken { seat: 1, cards: w } if w == &cards("6H 5H 4H")));
    // The call and its holder are known to every seat and to spectators at once, in the views
    // and in the record; the widow stays the declarer's.
    for viewer in [Viewer::Seat(0), Viewer::Seat(3), Viewer::Seat(4), Viewer::Spectator] {
        let v = view_json(&m, viewer);
        assert_eq!(
            (v["called_card"].clone(), v["partner"].clone(), v["declarer"].clone()),
            (json!("AS"), json!(3), json!(1))
        );
        assert!(!shows_any(&v, &cards("6H 5H 4H")), "{viewer:?} sees the widow: {v}");
    }
    for seat in [Some(0), Some(2), None] {
        let shown = m.rules.record_event(&m.state, &events[0], seat);
        assert_eq!((shown["card"].clone(), shown["partner"].clone()), (json!("AS"), json!(3)));
        assert_eq!(m.rules.record_event(&m.state, &events[1], seat)["cards"], Value::Null);
    }
    // The called card is no secret any more; the rest of the partner's hand is.
    let secrets = m.rules.secrets(&m.state);
    assert!(!secrets.iter().any(|(c, _)| *c == card("AS")));
    assert!(secrets.contains(&(card("KS"), vec![3])));

    for c in ["4H", "5H", "6H"] {
        m.ok(1, Command::Discard { card: card(c) });
    }
    m.finish_deal();
    let Event::DealScored { declarers, tricks_taken, declarer_tricks, made, terms, scores, .. } = last_scored(&m)
    else {
        panic!()
    };
    assert_eq!(declarers, [1, 3]);
    assert_eq!((tricks_taken, declarer_tricks, made), (vec![0, 10, 0, 0, 0], 10, Some(true)));
    // Both partners score the bid (no lift to 250 in rounds); the opponents took nothing.
    assert_eq!(rules_of(&terms), [(1, 200, rule::MADE.into()), (3, 200, rule::MADE.into())]);
    assert_eq!(scores, [0, 200, 0, 200, 0]);
}

#[test]
fn five_players_a_card_called_from_the_widow_leaves_the_declarer_alone() {
    let mut m = five_player_auction(true);
    // The declarer may call a card he does not hold yet, though it lies in the widow.
    let events = m.ok(1, Command::CallPartner { suit: Suit::Clubs, rank: 14 });
    assert_eq!(events[0], Event::PartnerCalled { declarer: 1, card: Some(card("AC")), partner: None });
    for viewer in [Viewer::Seat(0), Viewer::Seat(3), Viewer::Spectator] {
        let v = view_json(&m, viewer);
        assert_eq!((v["called_card"].clone(), v["partner"].clone()), (json!("AC"), Value::Null));
        // Where the called card lies is known; the rest of the widow is not.
        assert!(!shows_any(&v, &cards("QC KC")), "{viewer:?}: {v}");
    }
    assert_eq!(m.rules.record_event(&m.state, &events[0], Some(3))["partner"], Value::Null);
    let mine = m.rules.view(&m.state, Viewer::Seat(1));
    assert!(mine.hand.as_ref().unwrap().contains(&card("AC")));
    for c in ["QC", "KC", "AC"] {
        m.ok(1, Command::Discard { card: card(c) });
    }
    m.finish_deal();
    let Event::DealScored { declarers, made, terms, scores, .. } = last_scored(&m) else { panic!() };
    assert_eq!((declarers, made), (vec![1], Some(true)));
    assert_eq!(rules_of(&terms), [(1, 200, rule::MADE.into())]);
    assert_eq!(scores, [0, 200, 0, 0, 0]);
}

#[test]
fn five_players_a_partner_goes_down_with_the_declarer() {
    let eight_clubs = Contract::Trumps { tricks: 8, suit: Suit::Clubs };
    let (terms, made) = score(&played(5, eight_clubs, vec![2, 4], vec![1, 0, 4, 2, 3], true, vec![0; 5]));
    assert_eq!(made, Some(false));
    assert_eq!(
        rules_of(&terms),
        [
            (2, -260, rule::SET.into()),
            (4, -260, rule::SET.into()),
            (0, 10, rule::OPPONENT_TRICKS.into()),
            (3, 20, rule::OPPONENT_TRICKS.into()),
        ]
    );
    let (terms, made) = score(&played(5, eight_clubs, vec![2, 4], vec![1, 0, 5, 1, 3], true, vec![0; 5]));
    assert_eq!(made, Some(true));
    assert_eq!(rules_of(&terms)[..2], [(2, 260, rule::MADE.into()), (4, 260, rule::MADE.into())]);
}

const PARTNER_HAND: &str = "5C 6C 7C 8C 9C TC JC QC KC AC";

/// Four players, dealer 0, seat 1 (the declarer's partner) holding every club. With
/// `declarer_low` seat 3 holds only low hearts and diamonds, each below all of seat 0's; else
/// seat 3 holds the top five of both and seat 0 the lowest.
fn deck4(declarer_low: bool) -> Vec<Card> {
    let low = "4H 5H 6H 7H 8H 4D 5D 6D 7D 8D";
    let hands = if declarer_low {
        ["9H TH JH QH KH 9D TD JD QD KD", PARTNER_HAND, "AH AD 8S 9S TS JS QS KS AS JK", low]
    } else {
        [low, PARTNER_HAND, "9H 9D 8S 9S TS JS QS KS AS JK", "TH JH QH KH AH TD JD QD KD AD"]
    };
    stack(4, 0, &hands, "5S 6S 7S")
}

/// Seat 1 bids six spades, seat 2 seven, seat 3 the misère given, and the rest pass. Returns
/// the events of the last pass.
fn four_player_misere(m: &mut M, declarer_low: bool, contract: Contract) -> Vec<Event> {
    m.deal(deck4(declarer_low));
    assert_eq!(m.refused(1, Command::Bid { contract }).rule, rule::MISERE_AFTER_SEVEN);
    m.ok(1, Command::Bid { contract: Contract::Trumps { tricks: 6, suit: Suit::Spades } });
    // Six spades is not enough.
    assert_eq!(m.refused(2, Command::Bid { contract }).rule, rule::MISERE_AFTER_SEVEN);
    assert!(!m.legal(2).iter().any(|c| matches!(c, Command::Bid { contract } if contract.is_misere())));
    m.ok(2, Command::Bid { contract: Contract::Trumps { tricks: 7, suit: Suit::Spades } });
    assert!(m.legal(3).contains(&Command::Bid { contract }));
    m.ok(3, Command::Bid { contract });
    m.ok(0, Command::Pass);
    m.ok(1, Command::Pass);
    m.ok(2, Command::Pass)
}

#[test]
fn four_players_misere_lays_the_partners_hand_away_for_ever_and_scores_when_made() {
    let mut m = M::new(4, Options { bidding: Bidding::Standard, misere: true });
    let events = four_player_misere(&mut m, true, Contract::Misere);
    let laid = cards(PARTNER_HAND);
    assert_eq!(events[1], Event::AuctionWon { declarer: Some(3), contract: Some(Contract::Misere) });
    let Event::HandLaidAway { seat: 1, cards: away } = &events[2] else { panic!("{events:?}") };
    assert_eq!(away, &sorted(laid.clone()));
    assert!(matches!(&events[3], Event::WidowTaken { seat: 3, .. }));
    for c in ["5S", "6S", "7S"] {
        m.ok(3, Command::Discard { card: card(c) });
    }
    // The partner is passed over; the declarer leads against the other side.
    assert_eq!(m.to_act(), [3]);
    let v = view_json(&m, Viewer::Spectator);
    assert_eq!((v["laid_away_by"].clone(), v["partner"].clone()), (json!(1), json!(1)));
    assert_eq!(v["hand_sizes"], json!([10, 0, 10, 10]));
    assert!(m.legal(1).is_empty());
    let hidden_from_others = |m: &M, when: &str| {
        for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Seat(3), Viewer::Spectator] {
            let v = view_json(m, viewer);
            assert!(!shows_any(&v, &laid), "{when}: {viewer:?} sees the hand laid away: {v}");
        }
        for seat in [Some(0), Some(2), Some(3), None] {
            for e in &m.log {
                let shown = m.rules.record_event(&m.state, e, seat);
                assert!(!shows_any(&shown, &laid), "{when}: record of {seat:?} shows the hand laid away: {shown}");
            }
            let record = m.rules.record_view(&m.state, seat);
            assert!(!shows_any(&record, &laid), "{when}: record view of {seat:?}: {record}");
        }
    };
    hidden_from_others(&m, "in play");
    let secrets = m.rules.secrets(&m.state);
    assert!(laid.iter().all(|c| secrets.contains(&(*c, vec![1]))));
    // Its owner still reads it in the record.
    assert_eq!(m.rules.record_event(&m.state, &events[2], Some(1))["cards"], json!(sorted(laid.clone())));

    // Seat 0 must beat every heart and diamond the declarer plays; the clubs are out of play.
    m.finish_deal();
    hidden_from_others(&m, "after the deal");
    let started = m.rules.record_event(&m.state, &m.log[0], Some(1));
    assert!(laid.iter().all(|c| crate::game::cards_in(&started).contains(c)));
    let Event::DealScored { declarers, tricks_taken, made, terms, scores, .. } = last_scored(&m) else { panic!() };
    assert_eq!((declarers, tricks_taken[1], tricks_taken[3], made), (vec![3], 0, 0, Some(true)));
    // The declarer's side scores 250, the opponents nothing.
    assert_eq!(rules_of(&terms), [(1, 250, rule::MADE.into())]);
    assert_eq!(scores, [0, 250]);
}

#[test]
fn four_players_misere_failed_pays_the_other_side_for_every_trick_taken() {
    let mut m = M::new(4, Options { bidding: Bidding::Standard, misere: true });
    four_player_misere(&mut m, false, Contract::Misere);
    for c in ["5S", "6S", "7S"] {
        m.ok(3, Command::Discard { card: card(c) });
    }
    m.finish_deal();
    let Event::DealScored { declarers, tricks_taken, declarer_tricks, made, terms, scores, .. } = last_scored(&m)
    else {
        panic!()
    };
    let t = i64::from(tricks_taken[3]);
    // The declarer wins at least the first trick, led from the top.
    assert!(t > 0);
    assert_eq!((declarers, tricks_taken[1], i64::from(declarer_tricks), made), (vec![3], 0, t, Some(false)));
    assert_eq!(rules_of(&terms), [(1, -250, rule::SET.into()), (0, 10 * t, rule::MISERE_SET.into())]);
    assert_eq!(scores, [10 * t, -250]);
}

#[test]
fn the_bots_bid_misere_on_a_weak_hand_once_seven_spades_is_bid() {
    let mut m = M::new(4, Options { bidding: Bidding::Standard, misere: true });
    m.deal(deck4(true));
    let misere = |c: &Command| matches!(c, Command::Bid { contract } if contract.is_misere());
    // Before seven spades no bot bids misère, whatever its hand.
    for seed in 0..64 {
        let bid = m.rules.bot_move(&m.state, 1, seed).unwrap();
        assert!(!misere(&bid), "seed {seed}: {bid:?}");
    }
    m.ok(1, Command::Bid { contract: Contract::Trumps { tricks: 6, suit: Suit::Spades } });
    m.ok(2, Command::Bid { contract: Contract::Trumps { tricks: 7, suit: Suit::Spades } });
    // Seat 3 has neither joker, jack, queen, king nor ace: misère, bar the odd random move.
    let bids: Vec<Command> = (0..64).map(|seed| m.rules.bot_move(&m.state, 3, seed).unwrap()).collect();
    let misere_bids = bids.iter().filter(|c| misere(c)).count();
    assert!(misere_bids >= 48, "{bids:?}");
    let first = bids.iter().find(|c| misere(c)).unwrap().clone();
    m.ok(3, first);
}

#[test]
fn open_misere_shows_the_declarers_hand_after_the_opening_lead_and_not_before() {
    let mut m = M::new(4, Options { bidding: Bidding::Standard, misere: true });
    let events = four_player_misere(&mut m, true, Contract::OpenMisere);
    assert!(matches!(events[2], Event::HandLaidAway { seat: 1, .. }));
    for c in ["5S", "6S", "7S"] {
        m.ok(3, Command::Discard { card: card(c) });
    }
    let hand = m.state.deals.deal.as_ref().unwrap().play.hands[3].clone();
    assert_eq!(hand, sorted(cards("4H 5H 6H 7H 8H 4D 5D 6D 7D 8D")));
    // Before the lead the hand is the declarer's alone.
    for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Spectator] {
        let v = view_json(&m, viewer);
        assert_eq!(v["open_hand"], Value::Null);
        assert!(!shows_any(&v, &hand), "{viewer:?}: {v}");
    }
    assert!(hand.iter().all(|c| m.rules.secrets(&m.state).contains(&(*c, vec![3]))));
    assert_eq!(view_json(&m, Viewer::Seat(3))["contract_value"], json!(500));

    let events = m.ok(3, Command::Play { card: card("8D"), suit: None });
    let rest: Vec<Card> = hand.iter().copied().filter(|&c| c != card("8D")).collect();
    assert_eq!(
        events,
        [
            Event::CardPlayed { seat: 3, card: card("8D"), trick_number: 1, suit: None },
            Event::HandOpened { seat: 3, cards: rest.clone() },
        ]
    );
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Seat(2), Viewer::Spectator] {
        assert_eq!(view_json(&m, viewer)["open_hand"], json!(rest), "{viewer:?}");
    }
    for seat in [Some(0), Some(2), None] {
        assert_eq!(m.rules.record_event(&m.state, &events[1], seat)["cards"], json!(rest));
    }
    let secrets = m.rules.secrets(&m.state);
    assert!(!secrets.iter().any(|(c, _)| rest.contains(c)));
    // The open hand follows the play; it is opened once.
    m.ok(0, Command::Play { card: card("9D"), suit: None });
    m.ok(2, Command::Play { card: card("AD"), suit: None });
    m.ok(2, Command::Play { card: card("AH"), suit: None });
    m.ok(3, Command::Play { card: card("4H"), suit: None });
    let later = &rest[..];
    let open: Vec<Card> = later.iter().copied().filter(|&c| c != card("4H")).collect();
    assert_eq!(view_json(&m, Viewer::Spectator)["open_hand"], json!(open));
    m.finish_deal();
    assert_eq!(m.log.iter().filter(|e| matches!(e, Event::HandOpened { .. })).count(), 1);
    let Event::DealScored { made, terms, scores, .. } = last_scored(&m) else { panic!() };
    assert_eq!((made, rules_of(&terms)), (Some(true), vec![(1, 500, rule::MADE.to_string())]));
    assert_eq!(scores, [0, 500]);
    assert!(matches!(m.log.last(), Some(Event::MatchEnded { winners, .. }) if winners == &[1, 3]));
}

#[test]
fn five_players_call_no_partner_in_misere() {
    let mut m = M::new(5, Options { bidding: Bidding::Standard, misere: true });
    m.deal(deck5(false));
    m.ok(1, Command::Bid { contract: Contract::Misere });
    for s in [2, 3, 4] {
        m.ok(s, Command::Pass);
    }
    let events = m.ok(0, Command::Pass);
    assert!(matches!(events[2], Event::WidowTaken { seat: 1, .. }), "{events:?}");
    assert!(!m.log.iter().any(|e| matches!(e, Event::PartnerCalled { .. })));
    assert_eq!(m.refused(1, Command::CallPartner { suit: Suit::Spades, rank: 14 }).rule, crate::rules::core::PHASE);
    assert!(m.legal(1).iter().all(|c| matches!(c, Command::Discard { .. })));
    let v = view_json(&m, Viewer::Spectator);
    assert_eq!((v["phase"].clone(), v["partner"].clone()), (json!("discarding"), Value::Null));
}
