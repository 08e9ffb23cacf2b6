use super::*;
use crate::cards::{card, cards};
use crate::simulate::Driver;

type M = Driver<Stopp>;

/// A deck for a deal by seat 0 whose dealt seats (from seat 1 on) get the six cards `hands`
/// names, the rest of the pack undealt in pack order after them.
fn deck(hands: &[&str]) -> Vec<Card> {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let n = hands.len();
    let mut deck: Vec<Card> = (0..HAND * n).map(|i| hands[i % n][i / n]).collect();
    deck.extend(decks::standard52().into_iter().filter(|c| !deck.contains(c)).collect::<Vec<_>>());
    assert!(is_permutation(&deck, &decks::standard52()));
    deck
}

fn play(code: &str) -> Command {
    Command::Play { card: card(code) }
}

fn table(m: &M, viewer: Viewer) -> Table {
    m.rules.view(&m.state, viewer)
}

#[test]
fn the_texts_example_of_four_players() {
    // A (seat 1) leads 5♥, B plays 8♥, C J♥, D says stop, A plays Q♥, B K♥; nobody holds the ace
    // (it is undealt), so C, D and A say stop, and B turns the five cards away and leads.
    let mut m = M::new(4, Options::default());
    m.deal(deck(&["5H QH 2C 3C 4C 5C", "8H KH 2D 3D 4D 5D", "JH 2S 3S 4S 5S 6S", "6C 7C 8C 9C TC JC"]));
    assert_eq!(m.to_act(), [1]);
    assert!(m.ok(1, play("5H")).len() == 1, "B holds two higher hearts and chooses");
    assert_eq!(m.refused(2, play("2D")).rule, rule::BEAT);
    let events = m.ok(2, play("8H"));
    let played = |seat, code| Event::CardPlayed { seat, card: card(code), went_out: false };
    assert_eq!(
        events,
        vec![
            played(2, "8H"),
            played(3, "JH"),
            Event::Stopped { seat: 0 },
            played(1, "QH"),
            played(2, "KH"),
            Event::Stopped { seat: 3 },
            Event::Stopped { seat: 0 },
            Event::Stopped { seat: 1 },
            Event::PileTurnedAway { seat: 2, cards: cards("5H 8H JH QH KH") },
        ]
    );
    assert_eq!(m.to_act(), [2]);
    let t = table(&m, Viewer::Spectator);
    assert_eq!((t.pile.len(), t.set_aside.len(), t.phase), (0, 5, Phase::Leading));
    assert_eq!(t.hand_sizes, Some(vec![6, 4, 4, 5]));
}

#[test]
fn the_undealt_rest_is_never_shown() {
    let mut m = M::new(3, Options::default());
    let d = deck(&["AS KS QS JS TS 9S", "2H 3H 4H 5H 6H 7H", "2D 3D 4D 5D 6D 7D"]);
    m.deal(d.clone());
    let undealt = &d[18..];
    assert!(undealt.iter().all(|c| m.rules.secrets(&m.state).contains(&(*c, vec![]))));
    for viewer in [Viewer::Seat(1), Viewer::Spectator, Viewer::Record] {
        let shown = crate::game::cards_in(&m.rules.redact(&m.state, &m.log[0], viewer, true));
        assert!(shown.iter().all(|c| !undealt.contains(c)), "{viewer:?} sees an undealt card");
    }
    assert_eq!(table(&m, Viewer::Spectator).undealt, Some(34));
}

#[test]
fn cards_left_are_paid_for_and_the_last_player_with_capital_takes_the_pot() {
    // Seat 1 leads its spades one by one: nobody can beat them, so it turns each away and leads
    // again; its last card is led by itself and goes unbeaten. The others pay six each.
    let mut m = M::new(3, Options::default());
    m.deal(deck(&["AS KS QS JS TS 9S", "2H 3H 4H 5H 6H 7H", "2D 3D 4D 5D 6D 7D"]));
    for code in ["AS", "KS", "QS", "JS"] {
        let events = m.ok(1, play(code));
        assert_eq!(events.last(), Some(&Event::PileTurnedAway { seat: 1, cards: vec![card(code)] }));
    }
    let events = m.ok(1, play("TS"));
    assert!(events.contains(&Event::CardPlayed { seat: 1, card: card("9S"), went_out: true }));
    let Some(Event::DealScored { cards_left, payments, scores, pot, out_of_match, .. }) =
        events.iter().find(|e| matches!(e, Event::DealScored { .. }))
    else {
        panic!("the deal is scored: {events:?}")
    };
    assert_eq!((cards_left.clone(), scores.clone(), *pot), (vec![6, 0, 6], vec![-6, 0, -6], 12));
    assert!(payments.iter().all(|p| p.amount == 6 && p.to == Account::Pot && p.rule == rule::PAY));
    assert!(out_of_match.is_empty());
    let t = table(&m, Viewer::Spectator);
    assert_eq!((t.capital, t.pot, t.phase), (vec![4, 10, 4], 12, Phase::DealOver));

    // With three units each, both pay what they have, are out, and seat 1 takes the pot.
    let mut m = M::new(3, Options { capital: 3, per_card: 1 });
    m.deal(deck(&["AS KS QS JS TS 9S", "2H 3H 4H 5H 6H 7H", "2D 3D 4D 5D 6D 7D"]));
    for code in ["AS", "KS", "QS", "JS"] {
        m.ok(1, play(code));
    }
    let events = m.ok(1, play("TS"));
    let Some(Event::MatchEnded { winners, scores, .. }) = events.last() else { panic!("{events:?}") };
    assert_eq!((winners.clone(), scores.clone()), (vec![1], vec![-3, 6, -3]));
    let t = table(&m, Viewer::Spectator);
    assert_eq!((t.capital, t.pot, t.out_of_match), (vec![0, 9, 0], 0, vec![0, 2]));
}

#[test]
fn a_last_card_beaten_keeps_the_deal_going() {
    // Seat 1's last card, 2♥, is beaten by seat 2's only higher heart; seat 0 has none and
    // says stop, so seat 2 turns the pile away and leads, seat 1 being out of the deal.
    let mut m = M::new(3, Options::default());
    m.deal(deck(&["AS KS QS JS TS 2H", "3H 2D 3D 4D 5D 6D", "7D 8D 9D TD JD QD"]));
    for code in ["AS", "KS", "QS", "JS"] {
        m.ok(1, play(code));
    }
    let events = m.ok(1, play("TS"));
    assert_eq!(
        events[events.len() - 4..],
        [
            Event::CardPlayed { seat: 1, card: card("2H"), went_out: true },
            Event::CardPlayed { seat: 2, card: card("3H"), went_out: false },
            Event::Stopped { seat: 0 },
            Event::PileTurnedAway { seat: 2, cards: cards("2H 3H") },
        ]
    );
    assert_eq!(m.to_act(), [2]);
    assert_eq!(table(&m, Viewer::Spectator).went_out, Some(vec![1]));
    // Seat 2 leads 6♦: seat 0 chooses among six higher diamonds.
    m.ok(2, play("6D"));
    assert_eq!(m.legal(0).len(), 6);
}

#[test]
fn the_match_ends_when_everyone_else_is_out_of_capital_at_once() {
    let mut m = M::new(4, Options { capital: 3, per_card: 1 });
    m.deal(deck(&["AS KS QS JS TS 9S", "2H 3H 4H 5H 6H 7H", "2D 3D 4D 5D 6D 7D", "2C 3C 4C 5C 6C 7C"]));
    for code in ["AS", "KS", "QS", "JS", "TS"] {
        m.ok(1, play(code));
    }
    // Everyone but seat 1 paid three and is out: seat 1 has won.
    assert!(m.state.deals.outcome.is_some());
}

#[test]
fn options_out_of_range_are_refused() {
    assert!(Stopp.setup(3, Options { capital: 0, per_card: 1 }).is_err());
    assert!(Stopp.setup(3, Options { capital: 10, per_card: 1001 }).is_err());
}
