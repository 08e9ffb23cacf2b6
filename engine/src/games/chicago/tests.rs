use super::*;
use crate::cards::cards;
use crate::simulate::Driver;

type M = Driver<Chicago>;

/// A deck for a deal that seat 0 deals: each seat's five cards, the stock from its top, then the
/// rest of the pack.
fn deck(players: usize, hands: &[&str], stock: &str) -> Vec<Card> {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let mut deck: Vec<Card> = (0..HAND * players).map(|i| hands[(1 + i % players) % players][i / players]).collect();
    deck.extend(cards(stock));
    let rest: Vec<Card> = decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect();
    deck.extend(rest);
    assert!(is_permutation(&deck, &decks::standard52()));
    deck
}

/// A match of two whose first deal (seat 0 deals) starts from these scores.
fn start(hands: &[&str], stock: &str, scores: Vec<i64>, options: Options) -> M {
    let mut m = M::new(hands.len(), options);
    m.state.deals.scores = scores;
    m.deal(deck(hands.len(), hands, stock));
    m
}

fn stand(m: &mut M, seat: Seat) -> Vec<Event> {
    m.ok(seat, Command::Buy { discard: Vec::new() })
}

fn play(m: &mut M, seat: Seat, code: &str) -> Vec<Event> {
    m.ok(seat, Command::Play { card: crate::cards::card(code) })
}

fn table(m: &M, viewer: Viewer) -> Table {
    m.rules.view(&m.state, viewer)
}

/// Seat 1 (forehand) a pair of aces, seat 0 a pair of kings.
const ACES_KINGS: [&str; 2] = ["KH KD 9C TC 3S", "AH AD 7C 8C 2S"];

#[test]
fn calls_go_from_forehand_a_lower_hand_passes_and_equal_hands_go_to_the_first() {
    let hands = [cards("2C 2D 9S 9H 4C"), cards("5C 5D KS QH 4D"), cards("3C 7D 9D JH KC"), cards("5H 5S KH QC 4H")];
    let rank = |s: Seat| hands::rank(&hands[s], Hands::Standard);
    let (calls, best) = call_hands(&[1, 2, 3, 0], rank);
    let said: Vec<Option<Category>> = calls.iter().map(|c| c.hand).collect();
    // Seat 2 has nothing and passes; seat 3's pair is as good as seat 1's and is called, but
    // seat 1 was first and keeps the points; seat 0's two pairs are higher still.
    assert_eq!(said, vec![Some(Category::OnePair), None, Some(Category::OnePair), Some(Category::TwoPairs)]);
    assert_eq!(best.map(|(s, r)| (s, r.category)), Some((0, Category::TwoPairs)));
    let (calls, best) = call_hands(&[1, 2, 3], rank);
    assert_eq!(best.map(|b| b.0), Some(1), "{calls:?}");
    // After two pairs, a pair passes.
    let (calls, _) = call_hands(&[0, 1], rank);
    assert_eq!(calls[1].hand, None);
}

#[test]
fn a_deal_scores_both_buys_the_last_trick_and_the_piles_term_by_term() {
    let mut m = start(&ACES_KINGS, "", vec![0, 0], Options::default());
    assert_eq!(m.to_act(), [1]);
    stand(&mut m, 1);
    let events = stand(&mut m, 0);
    let Some(Event::HandsCalled { buy: 1, best: Some(1), points: 1, calls, .. }) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(calls.iter().map(|c| c.hand).collect::<Vec<_>>(), vec![Some(Category::OnePair); 2]);
    assert!(!serde_json::to_string(calls).unwrap().contains("AH"), "a call names no card");
    stand(&mut m, 1);
    stand(&mut m, 0);
    stand(&mut m, 1);
    stand(&mut m, 0);
    // Nobody has 15 points: no Chicago is asked for, forehand leads.
    assert_eq!(table(&m, Viewer::Spectator).phase, Phase::Playing);
    assert_eq!(m.to_act(), [1]);
    play(&mut m, 1, "AH");
    assert_eq!(m.refused(0, Command::Play { card: crate::cards::card("9C") }).rule, rule::FOLLOW);
    play(&mut m, 0, "KH");
    play(&mut m, 1, "AD");
    play(&mut m, 0, "KD");
    play(&mut m, 1, "7C");
    play(&mut m, 0, "9C");
    play(&mut m, 0, "TC");
    play(&mut m, 1, "8C");
    play(&mut m, 0, "3S");
    let events = play(&mut m, 1, "2S");
    let Some(Event::DealScored { ending, terms, points, scores, .. }) =
        events.iter().find(|e| matches!(e, Event::DealScored { .. }))
    else {
        panic!("{events:?}")
    };
    assert_eq!(*ending, Ending::Played);
    let rules: Vec<(&str, usize, i64)> = terms.iter().map(|t| (t.rule.as_str(), t.to, t.points)).collect();
    assert_eq!(rules, vec![(rule::BEST, 1, 1), (rule::BEST, 1, 1), (rule::LAST, 0, 5), (rule::PILES, 1, 1)]);
    assert_eq!((points.clone(), scores.clone()), (vec![5, 3], vec![5, 3]));
    assert_eq!(m.to_act(), Vec::<Seat>::new());
}

#[test]
fn breaking_up_a_hand_that_scored_shows_it_first_and_a_kicker_does_not() {
    let mut m = start(&ACES_KINGS, "4H 5H 6H 7H", vec![0, 0], Options::default());
    stand(&mut m, 1);
    stand(&mut m, 0);
    // The kicker goes: the pair of aces is kept, nothing is shown.
    let events = m.ok(1, Command::Buy { discard: cards("2S") });
    assert!(!events.iter().any(|e| matches!(e, Event::HandShown { .. })), "{events:?}");
    // After the second buy seat 1 scored again; an ace goes, and the hand is shown first.
    let events = stand(&mut m, 0);
    assert!(matches!(events.last(), Some(Event::HandsCalled { buy: 2, best: Some(1), .. })), "{events:?}");
    let events = m.ok(1, Command::Buy { discard: cards("AH") });
    let Some(Event::HandShown { seat: 1, cards: shown, category: Category::OnePair }) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!(sorted(shown.clone()), sorted(cards("AH AD 7C 8C 4H")));
    // Seat 0 sees the shown cards seat 1 still holds, not the ace of hearts discarded.
    let t = table(&m, Viewer::Seat(0));
    assert_eq!(sorted(t.shown[1].clone()), sorted(cards("AD 7C 8C 4H")));
}

#[test]
fn a_player_with_46_points_does_not_buy_from_the_next_deal() {
    let mut m = start(&ACES_KINGS, "", vec![46, 10], Options::default());
    // Seat 0 had 46 before the deal: only seat 1 buys.
    assert_eq!(table(&m, Viewer::Spectator).no_buying, vec![0]);
    assert_eq!(m.to_act(), [1]);
    let events = stand(&mut m, 1);
    assert!(matches!(events.last(), Some(Event::HandsCalled { buy: 1, .. })), "{events:?}");
    assert_eq!(m.to_act(), [1]);
    // Reaching the limit within a deal does not stop buying in that deal.
    let mut m = start(&ACES_KINGS, "", vec![0, 45], Options::default());
    stand(&mut m, 1);
    stand(&mut m, 0);
    assert_eq!(table(&m, Viewer::Spectator).standings, vec![0, 46]);
    assert_eq!(m.to_act(), [1]);
}

#[test]
fn reaching_52_wins_at_once_in_the_middle_of_a_deal() {
    let mut m = start(&ACES_KINGS, "", vec![0, 51], Options::default());
    // Seat 1 has passed 46 and does not buy.
    let events = stand(&mut m, 0);
    let Some(Event::DealScored { ending: Ending::Reached, .. }) = events.iter().rev().nth(1) else {
        panic!("{events:?}")
    };
    let Some(Event::MatchEnded { winners, scores, .. }) = events.last() else { panic!("{events:?}") };
    assert_eq!((winners.clone(), scores.clone()), (vec![1], vec![0, 52]));
    assert!(m.rules.status(&m.state).is_finished());
}

#[test]
fn a_royal_straight_flush_wins_the_match_at_once() {
    let mut m = start(&["TS JS QS KS AS", "AH AD 7C 8C 2S"], "", vec![0, 30], Options::default());
    stand(&mut m, 1);
    let events = stand(&mut m, 0);
    let Some(Event::HandsCalled { calls, best: Some(0), points: 52, .. }) =
        events.iter().find(|e| matches!(e, Event::HandsCalled { .. }))
    else {
        panic!("{events:?}")
    };
    assert!(calls[1].royal);
    let Some(Event::MatchEnded { winners, .. }) = events.last() else { panic!("{events:?}") };
    assert_eq!(winners, &vec![0]);
}

fn to_the_tricks(m: &mut M) {
    for seat in [1, 0, 1, 0, 1, 0] {
        stand(m, seat);
    }
}

#[test]
fn chicago_is_asked_only_of_a_player_with_15_points_and_lost_at_the_first_trick_taken() {
    let mut m = start(&ACES_KINGS, "", vec![20, 3], Options::default());
    to_the_tricks(&mut m);
    assert_eq!(table(&m, Viewer::Spectator).phase, Phase::DeclaringChicago);
    assert_eq!(m.to_act(), [0]);
    assert_eq!(m.refused(0, Command::Play { card: crate::cards::card("KH") }).rule, rule::DECLARE);
    m.ok(0, Command::DeclareChicago);
    // Forehand still leads; seat 1 takes the first trick and the Chicago is lost.
    play(&mut m, 1, "AH");
    let events = play(&mut m, 0, "KH");
    let Some(Event::ChicagoLost { declarer: 0, by: 1, points: -15, .. }) =
        events.iter().find(|e| matches!(e, Event::ChicagoLost { .. }))
    else {
        panic!("{events:?}")
    };
    let Some(Event::DealScored { ending: Ending::ChicagoLost, scores, terms, .. }) = events.last() else {
        panic!("{events:?}")
    };
    // Seat 1's points for the buys stand; no last trick, no piles.
    assert_eq!(scores, &vec![5, 5]);
    assert_eq!(terms.last().map(|t| t.rule.as_str()), Some(rule::LOST));
}

#[test]
fn chicago_made_is_worth_15_instead_of_the_last_trick() {
    let mut m = start(&["AH AD AC KS KH", "2C 3D 4S 6H 8H"], "", vec![3, 15], Options::default());
    to_the_tricks(&mut m);
    // Seat 1 (forehand) has 15 points and is asked first; it says no, then seat 0 is asked.
    assert_eq!(m.to_act(), [1]);
    m.ok(1, Command::NoChicago);
    assert_eq!(m.to_act(), [0]);
    m.ok(0, Command::DeclareChicago);
    play(&mut m, 1, "2C");
    play(&mut m, 0, "AC");
    for (lead, follow) in [("AH", "6H"), ("KH", "8H"), ("AD", "3D"), ("KS", "4S")] {
        play(&mut m, 0, lead);
        play(&mut m, 1, follow);
    }
    let Some(Event::DealScored { terms, .. }) = m.log.iter().rev().find(|e| matches!(e, Event::DealScored { .. }))
    else {
        panic!("no score")
    };
    let rules: Vec<(&str, usize, i64)> = terms.iter().map(|t| (t.rule.as_str(), t.to, t.points)).collect();
    // Three aces and two kings score after both buys (3 and 3... a full house: 6), the Chicago
    // 15, and the same full house in the pile.
    assert_eq!(rules, vec![(rule::BEST, 0, 6), (rule::BEST, 0, 6), (rule::WON, 0, 15), (rule::PILES, 0, 6)]);
}

#[test]
fn the_stock_running_out_waits_for_the_others_discards_shuffled() {
    let all = |m: &M, s: Seat| m.rules.view(&m.state, Viewer::Seat(s)).hand.unwrap();
    let mut m = M::new(4, Options::default());
    m.deal(decks::standard52());
    // Everyone throws all five in the first buy: 32 - 20 = 12 left.
    for seat in [1, 2, 3, 0] {
        let discard = all(&m, seat);
        m.ok(seat, Command::Buy { discard });
    }
    let discard = all(&m, 1);
    m.ok(1, Command::Buy { discard });
    let discard = all(&m, 2);
    m.ok(2, Command::Buy { discard });
    let discard = all(&m, 3);
    m.ok(3, Command::Buy { discard });
    let Status::NeedsShuffle { cards: pile } = m.rules.status(&m.state) else { panic!("no shuffle asked") };
    // Seat 3 is owed three cards; its own discards stay out of the new stock.
    let mucked = &m.state.deals.deal.as_ref().unwrap().muck;
    assert_eq!(pile.len(), mucked[0].len() + mucked[1].len() + mucked[2].len());
    assert_eq!(table(&m, Viewer::Spectator).phase, Phase::ShufflingStock);
    m.deal(pile);
    assert_eq!(all(&m, 3).len(), HAND);
    assert_eq!(m.to_act(), [0]);
}

#[test]
fn discards_and_purchases_are_hidden_from_the_others_and_the_deck_from_everyone() {
    let mut m = start(&ACES_KINGS, "4H", vec![0, 0], Options::default());
    let events = m.ok(1, Command::Buy { discard: cards("2S") });
    let seen = m.rules.redact(&m.state, &events[0], Viewer::Seat(0), false);
    assert_eq!(seen["discarded"], json!([null]));
    assert_eq!(seen["drawn"], json!([null]));
    let own = m.rules.redact(&m.state, &events[0], Viewer::Seat(1), false);
    assert_eq!(own["drawn"], json!(["4H"]));
    let first = m.rules.redact(&m.state, &m.log[0], Viewer::Record, true);
    assert!(first["deck"].is_null());
}

#[test]
fn random_matches_finish_at_every_table() {
    for players in 2..=4 {
        for options in Chicago.test_option_sets(players) {
            for seed in 0..2 {
                let report = crate::simulate::play_match(
                    crate::game::erase(Chicago).as_ref(),
                    players,
                    &serde_json::to_value(&options).unwrap(),
                    seed,
                    crate::simulate::Checks::ALL,
                );
                assert!(report.is_ok(), "{players} players, {options:?}, seed {seed}: {:?}", report.err());
            }
        }
    }
}

#[test]
fn the_chance_of_winning_the_match_grows_as_a_seat_nears_the_target() {
    let even = win_chances(&[10, 10, 10], 52);
    assert!(even.iter().all(|&p| (p - 1.0 / 3.0).abs() < 1e-9), "{even:?}");
    let near = win_chances(&[51, 41, 20], 52);
    assert!((near.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    assert!(near[0] > 0.9 && near[1] > near[2], "{near:?}");
    // Ten points behind count for less while the target is far.
    assert!(win_chances(&[10, 0], 52)[0] < near[0]);
}

#[test]
fn a_won_match_stands_at_the_targets_worth_shared_as_the_points() {
    let mut m = start(&["AH AD AC KS 2H", "2C 3D 4S 6H 8H", "3C 5D 7S 9H JC"], "", vec![50, 0, 4], Options::default());
    // Seat 0 (from 46 points) does not buy; its three aces score after the first buy: 53
    // points, and the match.
    stand(&mut m, 1);
    stand(&mut m, 2);
    assert!(m.state.deals.outcome.is_some());
    let standing: Vec<f64> = (0..3).map(|s| Chicago.standing(&m.state, s)).collect();
    assert!(standing.iter().sum::<f64>().abs() < 1e-9, "{standing:?}");
    // 53 and the target against the others' mean of 2.
    assert!((standing[0] - (53.0 + 52.0 - 2.0)).abs() < 1e-9, "{standing:?}");
}

#[test]
fn the_strong_bot_does_not_declare_a_chicago_to_stop_a_seat_about_to_win() {
    // Seat 1 lacks one point: a Chicago lost ends the deal before it can take the last trick,
    // but it is as sure to win the match in the next deal.
    let hands = ["4C TC KC KH 8S", "2D 5D 9H 3S 6C", "7D 8D JH 2S 4H"];
    let mut m = start(&hands, "", vec![20, 51, 3], Options::default());
    // Seat 1 no longer buys.
    for _ in 0..BUYS {
        stand(&mut m, 2);
        stand(&mut m, 0);
    }
    m.ok(1, Command::NoChicago);
    assert_eq!(m.to_act(), [0]);
    for seed in 0..4 {
        let choice = bots::choose(&Chicago, &m.state, 0, bots::Level::Strong, seed);
        assert_eq!(choice, Some(Command::NoChicago), "seed {seed}");
    }
}

#[test]
fn a_hand_broken_up_twice_shows_each_card_kept_once() {
    let mut m = start(&["KS QD 9C TC 3H", "AH AD 7C 8C 2S"], "7D 4H", vec![0, 0], Options::default());
    stand(&mut m, 1);
    stand(&mut m, 0);
    // Seat 1's aces scored; it breaks them up, draws the seven of diamonds and scores the sevens.
    m.ok(1, Command::Buy { discard: cards("AD") });
    stand(&mut m, 0);
    m.ok(1, Command::Buy { discard: cards("7D") });
    stand(&mut m, 0);
    let mut shown = table(&m, Viewer::Seat(0)).shown[1].clone();
    shown.sort();
    let mut kept = cards("AH 7C 8C 2S");
    kept.sort();
    assert_eq!(shown, kept);
    // The strong bot's world deals seat 1 one card besides the four it showed.
    let world = determinize(&m.state, 0, &mut Rng::new(1)).unwrap();
    let hand = world.deals.live().unwrap().hand(1).to_vec();
    assert_eq!(hand.len(), HAND);
    assert!(kept.iter().all(|c| hand.contains(c)), "{hand:?}");
}
