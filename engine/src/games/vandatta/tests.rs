use super::*;
use crate::cards::{card, cards};
use crate::deals::Deal as _;
use crate::simulate::{may_see, shown_too_often, Driver};
use serde_json::json;

type M = Driver<Vandatta>;

/// A deck that deals `hands` (by seat, seven each) one at a time from dealer 0's left, then
/// turns up `upcard`, then holds `talon` on top of the talon and the rest of the pack after.
fn deck(players: usize, hands: &[&str], upcard: &str, talon: &str) -> Vec<Card> {
    let n = hands.len();
    let hs: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    assert!(hs.iter().all(|h| h.len() == HAND), "seven cards each: {hands:?}");
    let mut deck: Vec<Card> = (0..HAND * n).map(|i| hs[(1 + i % n) % n][i / n]).collect();
    deck.push(card(upcard));
    deck.extend(cards(talon));
    let mut rest = pack(players);
    for c in &deck {
        assert!(take_card(&mut rest, *c), "{c} twice");
    }
    deck.extend(rest);
    deck
}

fn deal(m: &M) -> &Deal {
    m.state.deals.deal.as_ref().unwrap()
}

fn play(cards_: &str) -> Command {
    Command::Play { cards: cards(cards_), suit: None, one_left: false }
}

/// `seat` draws until it may not, then passes if the turn did not pass by itself.
fn draw_out(m: &mut M, seat: Seat) {
    while m.to_act() == [seat] && m.legal(seat).contains(&Command::Draw) {
        m.ok(seat, Command::Draw);
    }
    if m.to_act() == [seat] {
        m.ok(seat, Command::Pass);
    }
}

fn scored(m: &M) -> DealResult {
    m.log
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::DealScored { result, .. } => Some(result.clone()),
            _ => None,
        })
        .expect("the deal was scored")
}

#[test]
fn the_texts_example_several_fours_on_the_nine_of_spades() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(2, &["2C 3C 5C 6C 7C TC JC", "4S 4D 4H KC KD 2D 3D"], "9S", ""));
    assert_eq!(m.to_act(), vec![1], "forehand starts");
    assert_eq!(m.refused(1, play("4D 4S 4H")).rule, rule::MATCH, "the first card laid must fit");
    assert_eq!(m.refused(1, play("4S KC")).rule, rule::SAME_RANK);
    assert_eq!(m.refused(1, play("KC")).rule, rule::MATCH);
    assert!(m.legal(1).contains(&play("4S 4D 4H")), "{:?}", m.legal(1));
    m.ok(1, play("4S 4D 4H"));
    assert_eq!((deal(&m).top(), deal(&m).suit), (card("4H"), Suit::Hearts), "the last card laid is on top");
    assert_eq!(m.to_act(), vec![0]);
}

#[test]
fn drawing_three_at_most_then_passing_and_the_turn_passes_by_itself() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(2, &["2C 3C 5C 6C 7C TC JC", "4S 4D 4H KC KD 2D 3D"], "9S", "2H 3H 5H 6H 7H JH"));
    // Drawing is allowed with a play in hand; passing is not, before three draws.
    assert!(m.legal(1).contains(&Command::Draw));
    assert_eq!(m.refused(1, Command::Pass).rule, rule::PASS);
    m.ok(1, Command::Draw);
    m.ok(1, Command::Draw);
    m.ok(1, Command::Draw);
    assert_eq!(m.refused(1, Command::Draw).rule, rule::DRAW_LIMIT);
    assert!(m.legal(1).contains(&Command::Pass) && m.legal(1).contains(&play("4S")));
    m.ok(1, Command::Pass);
    // Seat 0 has nothing that goes on the nine of spades: three draws, and the turn goes on.
    m.ok(0, Command::Draw);
    m.ok(0, Command::Draw);
    let events = m.ok(0, Command::Draw);
    assert_eq!(events.last(), Some(&Event::Passed { seat: 0, automatic: true }));
    assert_eq!(m.to_act(), vec![1]);
    let hidden = m.rules.redact(&m.state, &events[0], Viewer::Seat(1), false);
    assert!(hidden["card"].is_null(), "another seat's draw is hidden: {hidden}");
    assert_eq!(m.rules.redact(&m.state, &events[0], Viewer::Seat(0), false)["card"], json!("JH"));
}

#[test]
fn an_ace_makes_the_others_draw_and_its_player_plays_again() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(
        3,
        &["2C 3C 5C 6C 7C TC JC", "AS AH 4D KC KD 2D 3D", "2H 3H 4H 5H 6H 7H 9H"],
        "9S",
        "2S 3S 4S 5S 6S 7S",
    ));
    let events = m.ok(1, play("AS"));
    let draws: Vec<(Seat, DrawReason)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Drew { seat, reason, .. } => Some((*seat, *reason)),
            _ => None,
        })
        .collect();
    assert_eq!(draws, vec![(2, DrawReason::Ace), (0, DrawReason::Ace)], "everyone else, in turn");
    assert_eq!(m.to_act(), vec![1], "the ace's player plays again");
    assert_eq!(deal(&m).draws, 0, "a fresh turn");
    let events = m.ok(1, play("AH"));
    assert_eq!(events.iter().filter(|e| matches!(e, Event::Drew { reason: DrawReason::Ace, .. })).count(), 2);
    assert_eq!(deal(&m).hands[2].len(), 9);
    assert_eq!(m.to_act(), vec![1]);
}

#[test]
fn several_aces_at_once_make_the_others_draw_a_round_each() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(2, &["2C 3C 5C 6C 7C TC JC", "AS AH 4D KC KD 2D 3D"], "9S", ""));
    let events = m.ok(1, play("AS AH"));
    assert_eq!(events.iter().filter(|e| matches!(e, Event::Drew { seat: 0, reason: DrawReason::Ace, .. })).count(), 2);
}

#[test]
fn an_ace_turned_up_makes_everyone_draw_first() {
    let mut m = M::new(3, Options::default());
    let events = m.deal(deck(3, &["2C 3C 5C 6C 7C TC JC", "8S AH 4D KC KD 2D 3D", "2H 3H 4H 5H 6H 7H 9H"], "AS", ""));
    let seats: Vec<Seat> = events
        .iter()
        .filter_map(|e| match e {
            Event::Drew { seat, reason: DrawReason::Upcard, .. } => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(seats, vec![1, 2, 0], "from forehand round to the dealer");
    assert_eq!(m.refused(1, play("8S")).rule, rule::EIGHT_NOT_ON, "no eight on an ace");
    m.ok(1, play("AH"));
}

#[test]
fn eights_are_wild_name_a_suit_and_never_go_on_an_eight() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(2, &["8S 8H 2H 3C 5C 6C 7C", "8C 8D 2D 3D 4D 5D 6S"], "9S", ""));
    assert_eq!(
        m.refused(1, Command::Play { cards: cards("2D"), suit: Some(Suit::Hearts), one_left: false }).rule,
        rule::EIGHT_SUIT
    );
    m.ok(1, Command::Play { cards: cards("8C"), suit: Some(Suit::Hearts), one_left: false });
    assert_eq!((deal(&m).top(), deal(&m).suit), (card("8C"), Suit::Hearts));
    assert_eq!(m.refused(0, play("8S")).rule, rule::EIGHT_NOT_ON);
    assert_eq!(m.refused(0, play("3C")).rule, rule::MATCH, "clubs no longer count");
    m.ok(0, play("2H"));
    // An eight with no suit named: the suit of the card under it counts.
    m.ok(1, play("8D"));
    assert_eq!(deal(&m).suit, Suit::Hearts);
}

#[test]
fn an_eight_turned_up_counts_for_its_own_suit() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(2, &["8S 8H 2H 3C 5C 6C 7C", "8C 9D 2D 3D 4D 5D 6S"], "8D", ""));
    assert_eq!(deal(&m).suit, Suit::Diamonds);
    assert_eq!(m.refused(1, play("8C")).rule, rule::EIGHT_NOT_ON);
    m.ok(1, play("2D"));
}

#[test]
fn one_left_forgotten_costs_a_card_at_the_next_turn() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(2, &["2D 3H 5H 6H 7H TH JH", "KS KD KH KC QC QD 5S"], "4S", "2S 3S 6S 7S 9S TS"));
    m.ok(1, play("KS KD KH KC"));
    draw_out(&mut m, 0);
    let said = Command::Play { cards: cards("QC QD"), suit: None, one_left: true };
    assert!(m.legal(1).contains(&said) && m.legal(1).contains(&play("QC QD")), "saying it or not is a choice");
    assert_eq!(
        m.refused(1, Command::Play { cards: cards("QC"), suit: None, one_left: true }).rule,
        rule::ONE_LEFT,
        "only with one card left"
    );
    m.ok(1, play("QC QD"));
    assert_eq!(deal(&m).forgot, vec![false, true]);
    let events = m.ok(0, play("2D"));
    let penalty = Event::Drew { seat: 1, card: card("7S"), reason: DrawReason::Penalty };
    assert!(events.contains(&penalty), "{events:?}");
    assert_eq!((m.to_act(), deal(&m).draws, deal(&m).hands[1].len()), (vec![1], 0, 2));
}

#[test]
fn no_going_out_on_an_ace_or_an_eight() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(2, &["2D 3H 5H 6H 7H TH JH", "KS KD KH KC QC QD 8S"], "4S", "2S 3S 6S 7S 9S TS"));
    m.ok(1, play("KS KD KH KC"));
    draw_out(&mut m, 0);
    m.ok(1, Command::Play { cards: cards("QC QD"), suit: None, one_left: true });
    m.ok(0, play("2D"));
    assert_eq!(m.refused(1, play("8S")).rule, rule::LAST_CARD);
    assert_eq!(m.legal(1), vec![Command::Draw], "only aces and eights left: draw");
}

/// The deal the scoring tests play: seat 1 goes out with the kings and then three fives,
/// seat 0 draws three spades on the way and is left with 8H AH TH JD 2C 3C 9C 2S 3S 6S.
fn going_out(options: Options) -> M {
    let mut m = M::new(2, options);
    m.deal(deck(2, &["8H AH TH JD 2C 3C 9C", "KS KD KH KC 5C 5D 5H"], "4S", "2S 3S 6S"));
    m.ok(1, play("KS KD KH KC"));
    draw_out(&mut m, 0);
    // Three cards of one rank empty the hand: no "one left" on the way.
    m.ok(1, play("5C 5D 5H"));
    m
}

#[test]
fn the_others_pay_for_the_cards_they_hold() {
    let m = going_out(Options::default());
    let result = scored(&m);
    assert_eq!(result.winner, Some(1));
    assert_eq!(result.points, vec![-90, 0]);
    let by_rule = |id: &str| result.terms.iter().filter(|t| t.rule == id).map(|t| t.points).sum::<i64>();
    assert_eq!(
        [
            by_rule(rule::EIGHT_POINTS),
            by_rule(rule::ACE_POINTS),
            by_rule(rule::TEN_POINTS),
            by_rule(rule::NUMBER_POINTS)
        ],
        [-25, -15, -20, -30]
    );
    assert!(result.terms.iter().all(|t| t.to == 0), "the winner pays nothing");
    assert!(!m.rules.status(&m.state).is_finished(), "-90 is above -100");
    let face = going_out(Options { face_value: true, ..Options::default() });
    assert_eq!(scored(&face).points, vec![-85, 0], "2+3+9+2+3+6 = 25 for the number cards");
}

#[test]
fn the_match_ends_at_the_limit_and_the_fewest_minus_points_win() {
    let m = going_out(Options { limit: 50, ..Options::default() });
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!("not over") };
    assert_eq!(outcome.winners, vec![1]);
}

#[test]
fn with_elimination_a_player_at_the_limit_is_dealt_no_more_cards() {
    let mut m = M::new(3, Options { elimination: true, limit: 50, ..Options::default() });
    m.deal(deck(3, &["3C 8H AH TH JD QS 9S", "KS KD KH KC 5C 5D 5H", "2C 3D 4D 6D 7D 9D 2H"], "4S", ""));
    m.ok(1, play("KS KD KH KC"));
    m.ok(2, play("2C"));
    m.ok(0, play("3C"));
    m.ok(1, play("5C 5D 5H"));
    let result = scored(&m);
    assert_eq!((result.points.clone(), result.eliminated.clone()), (vec![-75, 0, -30], vec![0]));
    assert!(!m.rules.status(&m.state).is_finished(), "two are left");
    m.deal(pack(3));
    assert_eq!(deal(&m).playing, vec![false, true, true]);
    assert_eq!((deal(&m).dealer, deal(&m).to_play, deal(&m).hands[0].len()), (1, 2, 0));
}

#[test]
fn an_empty_talon_waits_for_the_pile_to_be_shuffled_and_so_do_the_draws_owed() {
    let mut m = M::new(2, Options::default());
    m.deal(deck(2, &["2C 3C 5C 6C 7C TC JC", "AS AH 4D KC KD 2D 3D"], "9S", ""));
    // Three cards a turn until a single card is left in the talon, at seat 1's turn.
    while deal(&m).piles.talon.len() > 1 {
        let seat = m.to_act()[0];
        draw_out(&mut m, seat);
    }
    assert_eq!(m.to_act(), vec![1]);
    let before = m.rules.shuffles(&m.state);
    m.ok(1, play("AS AH"));
    // Seat 0 drew the last card; its second draw waits for the new talon.
    assert_eq!(m.rules.status(&m.state), Status::NeedsShuffle { cards: cards("9S AS") });
    assert_eq!(deal(&m).owed, vec![(0, DrawReason::Ace)]);
    assert!(m.to_act().is_empty() && deal(&m).phase() == Phase::Shuffling);
    assert!(m.try_deal(cards("9S AH")).is_err(), "only the pile under its top card");
    let events = m.deal(cards("AS 9S"));
    assert_eq!(events[0], Event::TalonShuffled { talon: cards("AS 9S") });
    assert_eq!(events[1], Event::Drew { seat: 0, card: card("AS"), reason: DrawReason::Ace });
    assert_eq!((m.state.deals.number, m.rules.shuffles(&m.state)), (1, before + 1), "the same deal");
    assert_eq!((deal(&m).piles.talon.clone(), deal(&m).piles.pile.clone()), (cards("9S"), cards("AH")));
    assert_eq!(m.to_act(), vec![1], "the ace's player plays again");
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let seen = m.rules.redact(&m.state, &events[0], viewer, false);
        assert_eq!((seen["talon"].clone(), seen["talon_count"].clone()), (json!(null), json!(2)), "{viewer:?}");
    }
    assert_eq!(m.rules.redact(&m.state, &events[0], Viewer::Record, false)["talon"], json!(["AS", "9S"]));
}

#[test]
fn two_packs_from_five_players_and_a_public_copy_is_no_leak() {
    let m = M::new(5, Options::default());
    let Status::NeedsDeck { composition } = m.rules.status(&m.state) else { panic!("no deal due") };
    assert_eq!(composition.len(), 104);
    assert_eq!(composition.iter().filter(|&&c| c == card("9H")).count(), 2);
    assert_eq!(
        M::new(4, Options::default()).rules.status(&M::new(4, Options::default()).state).to_shuffle().unwrap().len(),
        52
    );
    let mut m = M::new(5, Options::default());
    let hands = [
        "9H 2C 3C 4C 5C 6C 7C",
        "TC JC QC KC 2D 3D 4D",
        "5D 6D 7D 9D TD JD QD",
        "KD 2H 3H 4H 5H 6H 7H",
        "2S 3S 4S 5S 6S 7S 9S",
    ];
    m.deal(deck(5, &hands, "9H", ""));
    let secrets = m.rules.secrets(&m.state);
    let allowed = may_see(Viewer::Seat(1), &secrets, &composition);
    let view = crate::game::cards_in(&serde_json::to_value(m.rules.view(&m.state, Viewer::Seat(1))).unwrap());
    assert!(view.contains(&card("9H")), "the upcard is in view");
    assert_eq!(shown_too_often(&view, &allowed), None, "one 9H public, the other in seat 0's hand");
    let mut twice = view.clone();
    twice.push(card("9H"));
    assert!(shown_too_often(&twice, &allowed).is_some(), "showing the hidden copy is a leak");
}

#[test]
fn plays_list_each_set_once_by_its_first_and_last_card() {
    let top = card("9S");
    let ps = plays(&cards("4S 4D 4H 9C"), top, Suit::Spades);
    assert!(ps.contains(&cards("4S")) && !ps.contains(&cards("4D")));
    assert!(ps.contains(&cards("4S 4D 4H")) && ps.contains(&cards("4S 4H 4D")));
    assert!(!ps.iter().any(|p| p[0] == card("4D")), "only the spade fits first");
    assert!(ps.contains(&cards("9C")));
    // A hand of one eight cannot go out on it.
    assert!(plays(&cards("8S"), top, Suit::Spades).is_empty());
    assert_eq!(plays(&cards("8S 8S 2C"), top, Suit::Spades), vec![cards("8S"), cards("8S 8S")]);
}

#[test]
fn setup_refuses_an_impossible_limit() {
    assert!(Vandatta.setup(3, Options { limit: 0, ..Options::default() }).is_err());
    assert!(Vandatta.setup(3, Options { limit: MAX_LIMIT + 1, ..Options::default() }).is_err());
}
