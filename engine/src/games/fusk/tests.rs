use super::*;
use crate::cards::{card, cards, is_permutation};
use crate::game::Status;
use crate::simulate::Driver;

type M = Driver<Fusk>;

/// A deck dealt by seat 0 to `players`: each seat's hand starts with its named cards, the rest
/// of the pack filling the hands in pack order.
fn deck(players: usize, named: &[&str], options: &Options) -> Vec<Card> {
    let pack = pack(options, players);
    let table = Seating::new(players);
    let owner = |i: usize| table.after(0, 1 + i);
    let sizes: Vec<usize> = (0..players).map(|s| (0..pack.len()).filter(|&i| owner(i) == s).count()).collect();
    let mut hands: Vec<Vec<Card>> = (0..players).map(|s| cards(named.get(s).copied().unwrap_or(""))).collect();
    let mut rest = pack.clone();
    hands.iter().flatten().for_each(|&c| assert!(take_card(&mut rest, c), "{c} named twice"));
    for (s, hand) in hands.iter_mut().enumerate() {
        let more = sizes[s] - hand.len();
        hand.extend(rest.drain(..more));
    }
    let mut next = vec![0; players];
    let deck: Vec<Card> = (0..pack.len())
        .map(|i| {
            let s = owner(i);
            next[s] += 1;
            hands[s][next[s] - 1]
        })
        .collect();
    assert!(is_permutation(&deck, &pack));
    deck
}

fn start(players: usize, named: &[&str], options: Options) -> M {
    let deck = deck(players, named, &options);
    let mut m = M::new(players, options);
    m.deal(deck);
    m
}

/// `seat` lays `codes` one card at a time and claims `rank`.
fn play(m: &mut M, seat: Seat, codes: &str, rank: u8) -> Vec<Event> {
    for c in cards(codes) {
        m.ok(seat, Command::Lay { card: c });
    }
    m.ok(seat, Command::Claim { rank })
}

/// One pack whatever the player count.
fn one() -> Options {
    Options { packs: Packs::One, ..Options::default() }
}

fn table(m: &M, viewer: Viewer) -> Table {
    m.rules.view(&m.state, viewer)
}

fn json(m: &M, viewer: Viewer) -> String {
    serde_json::to_string(&table(m, viewer)).unwrap()
}

#[test]
fn a_claim_is_more_of_the_same_rank_or_as_many_of_a_higher_one() {
    let two_fives = Claim { seat: 1, count: 2, rank: 5 };
    assert!(Claim::beats(2, 11, Some(&two_fives)), "two jacks");
    assert!(Claim::beats(4, 9, Some(&two_fives)), "four nines");
    assert!(Claim::beats(3, 5, Some(&two_fives)), "three fives");
    assert!(!Claim::beats(2, 5, Some(&two_fives)), "two fives again");
    assert!(!Claim::beats(1, 11, Some(&two_fives)), "one jack");
    assert!(!Claim::beats(3, 4, Some(&two_fives)), "more of a lower rank");
    assert!(Claim::beats(1, 2, None), "a fresh lead claims anything");
    let aces = Claim { seat: 1, count: 2, rank: ACE };
    assert!(!Claim::beats(2, ACE, Some(&aces)) && Claim::beats(3, ACE, Some(&aces)), "ace high: only more aces");
}

/// The text's example: Sluggo (seat 1, forehand) says "two fives"; Lisa (seat 2) may answer
/// "two jacks" or "four nines", not "one jack" nor "two fours".
#[test]
fn sluggo_two_fives_and_lisa_two_jacks_or_four_nines() {
    let mut m = start(3, &["", "5C 5D", "JC JD 9C 9D 9H 9S"], Options::default());
    assert_eq!(m.to_act(), [1], "forehand leads");
    m.ok(1, Command::Lay { card: card("5C") });
    m.ok(1, Command::Lay { card: card("5D") });
    assert_eq!(m.legal(1).iter().filter(|c| matches!(c, Command::Claim { .. })).count(), 13, "a lead claims anything");
    m.ok(1, Command::Claim { rank: 5 });
    assert_eq!(m.to_act(), [0, 2], "seat 0 may call out of turn, Lisa last");
    // One card laid: nothing claims higher than two fives with one card.
    m.ok(2, Command::Lay { card: card("JC") });
    assert!(m.legal(2).iter().all(|c| !matches!(c, Command::Claim { .. })));
    assert_eq!(m.refused(2, Command::Claim { rank: 11 }).rule, rule::HIGHER);
    m.ok(2, Command::Lay { card: card("JD") });
    assert_eq!(m.refused(2, Command::Claim { rank: 4 }).rule, rule::HIGHER);
    assert_eq!(m.refused(2, Command::Claim { rank: 5 }).rule, rule::HIGHER);
    let claims: Vec<u8> =
        m.legal(2).iter().filter_map(|c| if let Command::Claim { rank } = c { Some(*rank) } else { None }).collect();
    assert_eq!(claims, (6..=14).collect::<Vec<_>>());
    m.ok(2, Command::Claim { rank: 11 });
    // Seat 0 answers with four nines it does not hold: a lie, but a legal claim.
    let mut n = start(3, &["", "5C 5D", "9C 9D 9H 9S"], Options::default());
    play(&mut n, 1, "5C 5D", 5);
    let events = play(&mut n, 2, "9C 9D 9H 9S", 9);
    assert_eq!(events, [Event::Claimed { seat: 2, count: 4, rank: 9 }]);
    assert_eq!(
        table(&n, Viewer::Spectator).claims.unwrap().iter().map(|c| (c.count, c.rank)).collect::<Vec<_>>(),
        [(2, 5), (4, 9)]
    );
}

#[test]
fn any_other_seat_calls_out_of_turn_and_a_true_play_costs_the_caller_the_pile() {
    let mut m = start(4, &["", "5C 5D", "KC"], Options::default());
    play(&mut m, 1, "5C 5D", 5);
    assert_eq!(m.to_act(), [3, 0, 2], "every seat but the player, the one in turn last");
    let mut o = start(4, &["", "5C 5D", "KC"], Options::default());
    play(&mut o, 1, "5C 5D", 5);
    let events = o.ok(0, Command::Call);
    assert_eq!(
        events,
        [
            Event::Called { seat: 0, against: 1, cards: cards("5C 5D"), truthful: true },
            Event::PileTakenUp { seat: 0, hidden: vec![], turned: cards("5C 5D"), leader: 1 },
        ]
    );
    assert_eq!(o.to_act(), [1], "the player who was called leads anew");
    let t = table(&o, Viewer::Seat(2));
    assert_eq!(t.public_cards.unwrap()[0], cards("5C 5D"), "turned up, public in the caller's hand");
    assert_eq!(t.claims, Some(vec![]));
    // A play once called or played over cannot be called again.
    assert!(o.legal(2).is_empty());
}

#[test]
fn a_caught_lie_costs_the_liar_the_whole_pile_and_the_caller_leads() {
    let mut m = start(3, &["7H", "2C", "3C 3D"], Options::default());
    play(&mut m, 1, "2C", 2);
    play(&mut m, 2, "3C 3D", 14);
    // The pile holds seat 1's hidden two and the aces that are threes.
    let events = m.ok(0, Command::Call);
    assert_eq!(
        events,
        [
            Event::Called { seat: 0, against: 2, cards: cards("3C 3D"), truthful: false },
            Event::PileTakenUp { seat: 2, hidden: cards("2C"), turned: cards("3C 3D"), leader: 0 },
        ]
    );
    assert_eq!(m.to_act(), [0]);
    assert_eq!(table(&m, Viewer::Spectator).hand_sizes, Some(vec![17, 17, 18]));
    // The hidden two is seat 2's to see (it picked it up) and seat 1's (it laid it), no one else's.
    let taken = &m.log[m.log.len() - 1];
    assert!(!serde_json::to_string(&m.rules.redact(&m.state, taken, Viewer::Seat(0), true)).unwrap().contains("2C"));
    assert!(serde_json::to_string(&m.rules.redact(&m.state, taken, Viewer::Seat(2), true)).unwrap().contains("2C"));
    let secrets = m.rules.secrets(&m.state);
    assert!(secrets.contains(&(card("2C"), vec![1, 2])));
    assert!(!secrets.iter().any(|(c, _)| cards("3C 3D").contains(c)), "turned up: public");
}

#[test]
fn the_next_player_must_call_when_he_cannot_go_over() {
    let mut m = start(10, &["", "2C 2D 2H 2S 3C", "", "4C"], one());
    play(&mut m, 1, "2C 2D 2H 2S 3C", 2);
    // Seat 2 holds six and goes over with six; seat 3 holds five and must call.
    let six: Vec<Card> = m.state.deals.deal.as_ref().unwrap().hands[2].clone();
    for c in &six {
        m.ok(2, Command::Lay { card: *c });
    }
    m.ok(2, Command::Claim { rank: 7 });
    assert_eq!(m.legal(3), [Command::Call]);
    assert_eq!(m.refused(3, Command::Lay { card: card("4C") }).rule, rule::MUST_CALL);
    assert_eq!(m.refused(3, Command::Pass).rule, rule::PASS);
}

#[test]
fn the_player_who_goes_out_wins_once_the_next_player_accepts() {
    let mut m = start(10, &["", "2C 2D 2H 2S 3C 3D"], one());
    // Everyone but the next player lets the last play stand, each in any order.
    play(&mut m, 1, "2C 2D 2H 2S 3C 3D", 2);
    assert_eq!(table(&m, Viewer::Spectator).hand_sizes.unwrap()[1], 0);
    for s in [0, 3, 4, 5, 6, 7, 8, 9] {
        m.ok(s, Command::Pass);
    }
    assert_eq!(m.to_act(), [2], "the player who went out is not asked");
    assert!(m.legal(1).is_empty());
    assert_eq!(m.legal(2).last(), Some(&Command::Call));
}

#[test]
fn going_out_is_won_when_the_next_player_lays_a_card() {
    let mut m = start(10, &["", "2C 2D 2H 2S 3C 3D"], one());
    play(&mut m, 1, "2C 2D 2H 2S 3C 3D", 2);
    let first = m.state.deals.deal.as_ref().unwrap().hands[2][0];
    let events = m.ok(2, Command::Lay { card: first });
    assert!(matches!(&events[1], Event::DealScored { ending: Ending::Out, winners, .. } if *winners == [1]));
    assert!(matches!(&events[2], Event::MatchEnded { winners, .. } if *winners == [1]));
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!("over") };
    assert_eq!(outcome.winners, [1]);
    assert_eq!(m.state.deals.scores, vec![0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn going_out_is_won_when_a_call_on_the_last_play_fails_and_lost_when_it_succeeds() {
    // Seat 1 leads two true threes; seat 0 calls and takes them; seat 1 leads its four twos.
    let mut m = start(10, &["", "2C 2D 2H 2S 3C 3D"], one());
    play(&mut m, 1, "3C 3D", 3);
    m.ok(0, Command::Call);
    assert_eq!(m.to_act(), [1]);
    play(&mut m, 1, "2C 2D 2H 2S", 2);
    let events = m.ok(5, Command::Call);
    assert!(matches!(&events[2], Event::DealScored { ending: Ending::Out, winners, .. } if *winners == [1]));
    // A lie with the last cards is caught: the liar takes the pile back and play goes on.
    let mut l = start(10, &["", "2C 2D 2H 2S 3C 3D"], one());
    play(&mut l, 1, "2C 2D 2H 2S 3C 3D", 9);
    let events = l.ok(4, Command::Call);
    assert_eq!(events.len(), 2);
    assert_eq!(l.to_act(), [4], "the caller leads");
    assert_eq!(table(&l, Viewer::Spectator).hand_sizes.unwrap()[1], 6);
}

#[test]
fn the_house_cap_ends_the_match_and_the_fewest_cards_win() {
    let options = Options { move_limit: 3, ..Options::default() };
    let mut m = start(3, &["AC AD", "2C", "3C"], options);
    play(&mut m, 1, "2C", 2);
    play(&mut m, 2, "3C", 3);
    let events = play(&mut m, 0, "AC AD", 14);
    // After three plays: seat 0 holds 15, seat 1 17, seat 2 16.
    assert!(
        matches!(&events[1], Event::DealScored { ending: Ending::MoveLimit, winners, cards, .. } if *winners == [0] && *cards == [15, 17, 16])
    );
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!("over") };
    assert!(outcome.explanation.en.contains("cap of 3 moves"));
    assert!(Fusk.setup(3, Options { move_limit: 0, ..Options::default() }).is_err());
}

#[test]
fn two_packs_are_shuffled_together_from_five_players() {
    let size = |players, packs| {
        let state = Fusk.setup(players, Options { packs, ..Options::default() }).unwrap();
        match Fusk.status(&state) {
            Status::NeedsDeck { composition } => composition.len(),
            _ => panic!("a deck is due"),
        }
    };
    assert_eq!(size(3, Packs::ByPlayers), 52);
    assert_eq!(size(4, Packs::ByPlayers), 52);
    assert_eq!(size(5, Packs::ByPlayers), 104);
    assert_eq!(size(10, Packs::ByPlayers), 104);
    assert_eq!(size(6, Packs::One), 52);
    assert_eq!(size(3, Packs::Two), 104);
    // Both copies of a card: one turned up is public, its twin laid face down stays secret.
    let mut m = start(5, &["", "9H 9H"], Options::default());
    play(&mut m, 1, "9H", 9);
    m.ok(2, Command::Call);
    assert_eq!(table(&m, Viewer::Seat(3)).public_cards.unwrap()[2], cards("9H"));
    assert!(m.rules.secrets(&m.state).contains(&(card("9H"), vec![1])));
}

#[test]
fn a_play_never_called_is_hidden_for_ever_in_views_events_and_the_record() {
    let mut m = start(3, &["", "QS", "KS"], Options::default());
    play(&mut m, 1, "QS", 12);
    play(&mut m, 2, "KS", 13);
    for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Spectator, Viewer::Record] {
        assert!(!json(&m, viewer).contains("QS"), "{viewer:?}");
    }
    assert!(json(&m, Viewer::Seat(1)).contains("QS"), "its player knows it lies on the table");
    let laid = &m.log[1];
    for viewer in [Viewer::Seat(0), Viewer::Spectator, Viewer::Record] {
        assert_eq!(m.rules.redact(&m.state, laid, viewer, true)["card"], Value::Null);
    }
    // The record: no deck, no hands as dealt, nothing laid; a seat's record shows its own cards.
    let dealt = m.rules.record_event(&m.state, &m.log[0], None);
    assert_eq!(dealt["deck"], Value::Null);
    assert!(dealt["hands"].as_array().unwrap().iter().all(Value::is_null));
    assert_eq!(m.rules.record_event(&m.state, laid, None)["card"], Value::Null);
    assert_eq!(m.rules.record_event(&m.state, laid, Some(1))["card"], "QS");
    assert!(m.rules.record_view(&m.state, Some(1)).to_string().contains("QS"));
    assert!(!m.rules.record_view(&m.state, None).to_string().contains("QS"));
    // Seat 0 calls seat 2's true king: seat 0 picks up a queen it may not see.
    m.ok(0, Command::Call);
    assert!(!json(&m, Viewer::Seat(2)).contains("QS"));
    assert!(json(&m, Viewer::Seat(0)).contains("QS"), "the picker knows what he picked up");
    assert!(m.rules.secrets(&m.state).contains(&(card("QS"), vec![0, 1])));
}

#[test]
fn a_seat_out_of_turn_may_only_call_or_pass_and_the_player_in_turn_cannot_pass() {
    let mut m = start(3, &["4C", "5C", ""], Options::default());
    assert_eq!(m.refused(1, Command::Call).rule, rule::CALL, "nothing to call at the start");
    play(&mut m, 1, "5C", 5);
    assert_eq!(m.refused(0, Command::Lay { card: card("4C") }).rule, rule::TURN);
    assert_eq!(m.refused(2, Command::Pass).rule, rule::PASS);
    assert_eq!(m.refused(2, Command::Claim { rank: 6 }).rule, rule::CLAIM, "lay a card first");
    m.ok(0, Command::Pass);
    assert_eq!(m.to_act(), [2], "who let it stand may not call it");
    assert_eq!(table(&m, Viewer::Spectator).passed, Some(vec![0]));
}
