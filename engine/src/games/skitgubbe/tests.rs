use super::*;
use crate::cards::{card, cards, is_permutation};
use crate::game::Status;
use crate::simulate::Driver;

type M = Driver<Skitgubbe>;

/// A deck dealt by seat 0: `hands` by seat (three cards each), then the talon's named top cards,
/// then the rest of the pack in pack order.
fn deck(hands: [&str; 3], talon: &str) -> Vec<Card> {
    let hands = hands.map(cards);
    let mut named: Vec<Card> = (0..9).map(|i| hands[(1 + i) % 3][i / 3]).collect();
    named.extend(cards(talon));
    let rest: Vec<Card> = decks::standard52().into_iter().filter(|c| !named.contains(c)).collect();
    named.extend(rest);
    assert!(is_permutation(&named, &decks::standard52()));
    named
}

fn play(c: &str) -> Command {
    Command::Play { card: card(c) }
}

fn lay(c: &str) -> Command {
    Command::Lay { cards: cards(c) }
}

/// A second phase set up with supplied hands (the duels that would lead there are beside the
/// point): `trump`, `first` to lead, nothing on the table, every other card turned away.
fn shedding(options: Options, hands: [&str; 3], trump: Suit, first: Seat) -> M {
    let mut m = M::new(3, options);
    m.deal(decks::standard52());
    let d = m.state.deals.deal.as_mut().unwrap();
    d.hands = hands.map(|h| sorted(cards(h))).to_vec();
    d.talon.clear();
    d.trick.clear();
    d.won = vec![Vec::new(); 3];
    d.shedding = true;
    d.trump = Some(trump);
    d.holder = Some(first);
    d.to_play = first;
    d.knowledge = Knowledge::of_hands(3);
    m
}

fn sorted(mut hand: Vec<Card>) -> Vec<Card> {
    sort_hand(&mut hand);
    hand
}

fn table(m: &M, viewer: Viewer) -> Table {
    m.rules.view(&m.state, viewer)
}

#[test]
fn forehand_duels_his_left_the_higher_card_wins_and_both_draw_back_to_three() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(["2C 3C 4C", "9H 5D 6D", "KS 7D 8D"], "AS AH QC QD"));
    assert_eq!(m.to_act(), [1], "forehand leads");
    assert_eq!(table(&m, Viewer::Spectator).duel, Some([1, 2]));
    let events = m.ok(1, play("9H"));
    assert_eq!(
        events,
        [
            Event::CardPlayed { seat: 1, card: card("9H"), chanced: false },
            Event::CardDrawn { seat: 1, card: card("AS") },
        ]
    );
    assert_eq!(m.to_act(), [2]);
    // Suits do not matter: the king wins.
    let events = m.ok(2, play("KS"));
    assert_eq!(events[2], Event::DuelWon { seat: 2, cards: cards("9H KS") });
    let t = table(&m, Viewer::Seat(2));
    assert_eq!(t.duel, Some([2, 0]), "the winner leads against his left");
    assert_eq!(t.won_counts, Some(vec![0, 0, 2]));
    assert_eq!(t.hand_sizes, Some(vec![3, 3, 3]));
    assert_eq!(t.talon_count, Some(41));
    assert_eq!(t.hand, Some(sorted(cards("AH 7D 8D"))));
    // The drawn card is seat 1's alone.
    let drawn = m.rules.redact(&m.state, &m.log[2], Viewer::Seat(0), false);
    assert!(drawn["card"].is_null());
}

#[test]
fn equal_ranks_stun_and_the_leader_lays_first_again() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(["2C 3C 4C", "9H 5D 6D", "9S 7D 8D"], "AS AH QC QD"));
    m.ok(1, play("9H"));
    let events = m.ok(2, play("9S"));
    assert_eq!(events.len(), 2, "no trick decided: {events:?}");
    assert_eq!(m.to_act(), [1], "the leader lays first again");
    m.ok(1, play("5D"));
    let events = m.ok(2, play("7D"));
    assert_eq!(events.last(), Some(&Event::DuelWon { seat: 2, cards: cards("9H 9S 5D 7D") }));
}

#[test]
fn chancing_plays_the_talons_top_card_without_a_draw() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(["2C 3C 4C", "9H 5D 6D", "KS 7D 8D"], "AS AH"));
    assert!(m.legal(1).contains(&Command::Chance));
    assert_eq!(m.ok(1, Command::Chance), [Event::CardPlayed { seat: 1, card: card("AS"), chanced: true }]);
    assert_eq!(table(&m, Viewer::Spectator).hand_sizes, Some(vec![3, 3, 3]));
    assert_eq!(m.refused(2, play("AS")).rule, rule::DUEL_PLAY);
    m.ok(2, play("KS"));
    assert_eq!(table(&m, Viewer::Spectator).won_counts, Some(vec![0, 2, 0]));
}

/// The duels to their end with the first legal move (a hand card, never a chance): the talon's
/// last card lies unseen before the seat that was due to draw it, nobody may chance at the end,
/// and when the duels end it is shown, its suit is trump, and the won tricks are taken up in
/// full view.
#[test]
fn the_last_talon_card_lies_unseen_until_the_duels_end_and_makes_trump() {
    let mut m = M::new(3, Options::default());
    m.deal(deck(["2C 3C 4C", "9H 5D 6D", "KS 7D 8D"], ""));
    while table(&m, Viewer::Spectator).talon_count != Some(0) {
        let seat = m.to_act()[0];
        let c = m.legal(seat)[0].clone();
        m.ok(seat, c);
    }
    let aside = m.log.iter().find_map(|e| match e {
        Event::LastCardAside { seat } => Some(*seat),
        _ => None,
    });
    let holder = aside.expect("the last card was put aside");
    let t = table(&m, Viewer::Seat(holder));
    assert_eq!(t.last_card_holder, Some(holder));
    let last = m.state.deals.deal.as_ref().unwrap().aside.unwrap().1;
    assert!(m.rules.secrets(&m.state).contains(&(last, vec![])), "nobody knows the card aside");
    assert!(!crate::game::cards_in(&serde_json::to_value(&t).unwrap()).contains(&last));
    assert_eq!(table(&m, Viewer::Record).last_card, Some(last));
    let seat = m.to_act()[0];
    assert!(!m.legal(seat).contains(&Command::Chance));
    assert_eq!(m.refused(seat, Command::Chance).rule, rule::CHANCE);
    while m.rules.view(&m.state, Viewer::Spectator).phase == Phase::Duels {
        let seat = m.to_act()[0];
        let c = m.legal(seat)[0].clone();
        m.ok(seat, c);
    }
    let started = m.log.iter().find_map(|e| match e {
        Event::SheddingStarted { holder, card, trump, taken } => Some((*holder, *card, *trump, taken.clone())),
        _ => None,
    });
    let (h, c, trump, taken) = started.expect("the second phase started");
    assert_eq!((h, c, trump), (holder, last, suit(last)));
    let t = table(&m, Viewer::Spectator);
    assert_eq!(t.trump, Some(trump));
    if t.phase == Phase::Shedding {
        assert_eq!(m.to_act(), [holder], "the last card's holder leads");
        assert!(t.public_cards.unwrap()[holder].contains(&last), "the last card is public while held");
        for (s, won) in taken.iter().enumerate() {
            assert!(won.iter().all(|c| table(&m, Viewer::Spectator).public_cards.unwrap()[s].contains(c)));
        }
    }
}

/// The text's example: A leads ♣9, B beats it with ♣Q-K-A, C with ♣10-J cannot beat and may not
/// trump, so he picks up B's three cards; A, void in clubs, trumps his own ♣9 with ♥4 (hearts
/// are trump); B answers ♥7-8; three plays lie on the table, they are turned away and B leads.
#[test]
fn the_texts_example_of_the_second_phase() {
    let (a, b, c) = (0, 1, 2);
    let mut m = shedding(Options::default(), ["9C 4H 2S", "QC KC AC 7H 8H 3D", "TC JC 5D 2H"], Suit::Hearts, a);
    m.ok(a, lay("9C"));
    assert!(m.legal(b).contains(&lay("QC KC AC")));
    m.ok(b, lay("QC KC AC"));
    assert_eq!(m.legal(c), [Command::PickUp], "C cannot beat and, holding clubs, may not trump");
    assert_eq!(m.refused(c, lay("2H")).rule, rule::TRUMP);
    assert_eq!(m.refused(c, lay("TC JC")).rule, rule::BEAT);
    assert_eq!(m.ok(c, Command::PickUp), [Event::PickedUp { seat: c, from: b, cards: cards("QC KC AC") }]);
    let t = table(&m, Viewer::Spectator);
    assert_eq!(t.groups, Some(vec![Group { seat: a, cards: cards("9C") }]), "A faces his own ♣9");
    assert_eq!(t.public_cards.unwrap()[c], cards("QC KC AC"), "picked-up cards are public");
    assert_eq!(m.to_act(), [a]);
    assert_eq!(m.legal(a), [lay("4H"), Command::PickUp], "void in clubs: a trump may beat");
    m.ok(a, lay("4H"));
    assert_eq!(m.legal(b), [lay("7H"), lay("7H 8H"), lay("8H"), Command::PickUp]);
    let events = m.ok(b, lay("7H 8H"));
    assert_eq!(events[1], Event::TrickTurnedAway { cards: cards("9C 4H 7H 8H"), leader: b });
    assert_eq!(m.to_act(), [b], "B played last and leads");
    // C now holds the run ♣10-J-Q-K-A and may lead it all at once.
    let d = m.state.deals.deal.as_ref().unwrap();
    assert!(d.runs(c, false).contains(&cards("TC JC QC KC AC")));
}

#[test]
fn a_run_must_be_consecutive_in_one_suit_lowest_first_and_no_underplay() {
    let mut m = shedding(Options::default(), ["5C 6C 8C KD", "9C 2D", "TC 3D"], Suit::Spades, 0);
    assert_eq!(m.refused(0, lay("5C 8C")).rule, rule::RUN);
    assert_eq!(m.refused(0, lay("6C 5C")).rule, rule::RUN);
    assert_eq!(m.refused(0, lay("AS")).rule, rule::RUN);
    assert_eq!(m.refused(0, Command::PickUp).rule, rule::PICK_UP);
    m.ok(0, lay("5C 6C"));
    assert_eq!(m.refused(1, lay("2D")).rule, rule::BEAT, "no sloughing");
    assert_eq!(m.legal(1), [lay("9C"), Command::PickUp]);
    m.ok(1, lay("9C"));
    assert_eq!(m.refused(2, lay("3D")).rule, rule::BEAT);
    m.ok(2, Command::PickUp);
    assert_eq!(m.to_act(), [0], "a pick-up is not a play: the next must beat what lies on top");
    assert_eq!(m.legal(0), [lay("8C"), Command::PickUp], "the ♣8 beats the ♣5-6 still on the table");
}

#[test]
fn a_pick_up_that_empties_the_table_gives_the_lead_to_the_next_player() {
    let mut m = shedding(Options::default(), ["5C KD", "2D 3D", "AH 4H"], Suit::Spades, 0);
    m.ok(0, lay("5C"));
    m.ok(1, Command::PickUp);
    assert_eq!(table(&m, Viewer::Spectator).groups, Some(vec![]));
    assert_eq!(m.to_act(), [2]);
    assert!(m.legal(2).contains(&lay("AH")), "he leads anything");
    assert!(!m.legal(2).contains(&Command::PickUp));
}

#[test]
fn single_cards_forbids_runs() {
    let m = shedding(Options { single_cards: true, ..Options::default() }, ["5C 6C", "9C", "TC"], Suit::Spades, 0);
    assert_eq!(m.legal(0), [lay("5C"), lay("6C")]);
    assert_eq!(m.refused(0, lay("5C 6C")).rule, rule::SINGLE);
}

#[test]
fn must_beat_forbids_picking_up_when_a_play_beats() {
    let mut m =
        shedding(Options { must_beat: true, ..Options::default() }, ["5C 2D", "9C 3D", "TD 4D"], Suit::Spades, 0);
    m.ok(0, lay("5C"));
    assert_eq!(m.legal(1), [lay("9C")]);
    assert_eq!(m.refused(1, Command::PickUp).rule, rule::MUST_BEAT);
    m.ok(1, lay("9C"));
    assert_eq!(m.legal(2), [Command::PickUp], "nothing beats: the pick-up is forced");
}

#[test]
fn the_last_player_with_cards_is_the_skitgubbe() {
    let mut m = shedding(Options::default(), ["5C", "9C", "TC 2D"], Suit::Spades, 0);
    assert_eq!(m.ok(0, lay("5C"))[1], Event::PlayerOut { seat: 0 });
    let events = m.ok(1, lay("9C"));
    let Some(Event::DealScored { ending, out, losers, places, cards, .. }) =
        events.iter().find(|e| matches!(e, Event::DealScored { .. }))
    else {
        panic!("{events:?}")
    };
    assert_eq!(
        (*ending, out, losers, places, cards),
        (Ending::Out, &vec![0, 1], &vec![2], &vec![1, 2, 3], &vec![0, 0, 2])
    );
    let Status::Finished { outcome } = m.rules.status(&m.state) else { panic!() };
    assert_eq!(outcome.winners, [0, 1]);
    assert_eq!(table(&m, Viewer::Spectator).deals.scores, [0, 0, -1]);
}

#[test]
fn after_the_quiet_limit_the_most_cards_lose() {
    let options = Options { quiet_limit: 4, ..Options::default() };
    let mut m = shedding(options, ["5C 6D", "9C 7D", "2H 3H 4H"], Suit::Spades, 0);
    m.ok(0, lay("5C"));
    m.ok(1, lay("9C"));
    m.ok(2, Command::PickUp);
    let events = m.ok(0, Command::PickUp);
    let Some(Event::DealScored { ending, losers, places, .. }) =
        events.iter().find(|e| matches!(e, Event::DealScored { .. }))
    else {
        panic!("{events:?}")
    };
    assert_eq!((*ending, losers, places), (Ending::QuietLimit, &vec![2], &vec![2, 1, 3]));
}

#[test]
fn the_bots_play_whole_matches() {
    for seed in 0..5u64 {
        let mut m = M::new(3, Options::default());
        let mut deck = decks::standard52();
        Rng::new(seed).shuffle(&mut deck);
        m.deal(deck);
        let mut rng = Rng::new(seed);
        while let [seat] = m.to_act()[..] {
            let c = m.rules.basic_move(&m.state, seat, &mut rng).unwrap();
            assert!(m.legal(seat).contains(&c), "{c:?}");
            m.ok(seat, c);
        }
        assert!(m.rules.status(&m.state).is_finished());
    }
}
