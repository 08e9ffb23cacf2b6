use super::*;
use crate::cards::{card, cards};
use crate::game::Status;
use crate::simulate::Driver;

type M = Driver<Gris>;

/// A deck dealt by seat 0 to `hands` (by seat, one card at a time from seat 1).
fn deck(hands: &[&str]) -> Vec<Card> {
    let n = hands.len();
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let total: usize = hands.iter().map(Vec::len).sum();
    let deck: Vec<Card> = (0..total).map(|i| hands[(1 + i) % n][i / n]).collect();
    assert!(is_permutation(&deck, &pack(n)), "{deck:?}");
    deck
}

/// Seat 1 is dealt the pig; seat 2 holds the other three sixes; nobody holds a quartet.
const HANDS: [&str; 4] = [
    "7S 8S 9S TS JS QS KS AS 9C",
    "6C 7C 8C TC JC QC KC AC 9D",
    "6D 6H 6S 7D 8D TD JD QD KD",
    "AD 7H 8H 9H TH JH QH KH AH",
];

fn started(options: Options) -> M {
    let mut m = M::new(4, options);
    m.deal(deck(&HANDS));
    m
}

fn deal(m: &M) -> &Deal {
    m.state.deals.deal.as_ref().unwrap()
}

fn at(m: &mut M, seat: Seat, command: Command, at_ms: u64) -> Vec<Event> {
    let events = m.rules.decide_at(&m.state, seat, &command, Some(at_ms)).unwrap_or_else(|v| panic!("{v}"));
    m.apply(events)
}

fn refused_at(m: &M, seat: Seat, command: Command, at_ms: u64) -> String {
    let v = m.rules.decide_at(&m.state, seat, &command, Some(at_ms)).expect_err("refused");
    assert!(m.rules.rulebook().rule(&v.rule).is_some(), "{} is not in the rulebook", v.rule);
    assert!(!m.legal(seat).contains(&command));
    v.rule
}

/// Seat 1 passes the pig to seat 2 at 1000, who gives back the king of diamonds at 1500: seat 2
/// now holds the four sixes.
fn pig_to_seat_2() -> M {
    let mut m = started(Options::default());
    at(&mut m, 1, Command::Pass, 1_000);
    at(&mut m, 2, Command::Return { card: card("KD") }, 1_500);
    m
}

#[test]
fn the_pack_shrinks_with_fewer_players() {
    assert_eq!(pack(8).len(), 44);
    assert_eq!(pack(7).len(), 44);
    assert_eq!(pack(6).len(), 40);
    assert_eq!(pack(5).len(), 40);
    assert_eq!(pack(4).len(), 36);
    let m = M::new(5, Options::default());
    assert_eq!(m.rules.status(&m.state).to_shuffle().map(<[Card]>::len), Some(40));
}

#[test]
fn the_pig_is_passed_openly_and_the_card_back_is_known_to_both_alone() {
    let mut m = started(Options::default());
    assert_eq!(deal(&m).holder, 1, "whoever is dealt the pig begins");
    assert_eq!(m.to_act(), vec![0, 1, 2, 3], "every seat is listed, whatever it holds");
    assert_eq!(m.legal(1), vec![Command::Pass]);
    assert!(m.legal(0).is_empty() && m.legal(3).is_empty());
    let events = at(&mut m, 1, Command::Pass, 1_000);
    assert_eq!(events, vec![Event::PigPassed { seat: 1, to: 2, passes: 1, at_ms: 1_000 }]);
    assert_eq!(deal(&m).owes, Some(2));
    // The pig is public wherever it is.
    assert!(m.rules.secrets(&m.state).iter().all(|(c, _)| *c != PIG));
    at(&mut m, 2, Command::Return { card: card("KD") }, 1_500);
    let secrets = m.rules.secrets(&m.state);
    assert!(secrets.contains(&(card("KD"), vec![1, 2])), "{secrets:?}");
    let seen = |viewer| serde_json::to_value(m.rules.redact(&m.state, m.log.last().unwrap(), viewer, false)).unwrap();
    assert_eq!(seen(Viewer::Seat(0))["card"], Value::Null);
    assert_eq!(seen(Viewer::Spectator)["card"], Value::Null);
    assert_eq!(seen(Viewer::Seat(1))["card"], "KD");
    let table = m.rules.view(&m.state, Viewer::Seat(2));
    assert_eq!(table.known_cards.unwrap()[1], cards("KD"));
    assert_eq!(deal(&m).holder, 2);
    assert_eq!(m.legal(2), vec![Command::Pass, Command::Thumb], "the four sixes with the pig are a quartet");
}

#[test]
fn a_card_passed_on_is_no_longer_known_to_its_first_giver() {
    let mut m = started(Options::default());
    at(&mut m, 1, Command::Pass, 1_000);
    at(&mut m, 2, Command::Return { card: card("KD") }, 1_500);
    at(&mut m, 2, Command::Pass, 2_000);
    at(&mut m, 3, Command::Return { card: card("AD") }, 2_500);
    at(&mut m, 3, Command::Pass, 3_000);
    at(&mut m, 0, Command::Return { card: card("9C") }, 3_500);
    at(&mut m, 0, Command::Pass, 4_000);
    // Seat 1 gives back the king of diamonds it was given: seat 2 cannot tell which card went.
    at(&mut m, 1, Command::Return { card: card("KD") }, 4_500);
    let secrets = m.rules.secrets(&m.state);
    assert!(secrets.contains(&(card("KD"), vec![0, 1])), "{secrets:?}");
    assert!(secrets.contains(&(card("AD"), vec![2, 3])), "{secrets:?}");
}

#[test]
fn refusals_name_their_rules_and_change_nothing() {
    let mut m = started(Options::default());
    assert_eq!(refused_at(&m, 0, Command::Pass, 900), rule::PASS);
    assert_eq!(refused_at(&m, 0, Command::Thumb, 900), rule::QUARTET, "a thumb without a quartet");
    assert_eq!(refused_at(&m, 3, Command::Return { card: card("AD") }, 900), rule::RETURN);
    at(&mut m, 1, Command::Pass, 1_000);
    assert_eq!(refused_at(&m, 2, Command::Pass, 1_100), rule::RETURN, "a card is owed first");
    assert_eq!(refused_at(&m, 2, Command::Return { card: PIG }, 1_100), rule::RETURN);
    assert_eq!(refused_at(&m, 2, Command::Return { card: card("AS") }, 1_100), rule::RETURN);
    // A wrong thumb is told to its maker alone: nothing is recorded, the clock stands.
    let before = m.log.len();
    assert_eq!(refused_at(&m, 3, Command::Thumb, 1_200), rule::QUARTET);
    assert_eq!((m.log.len(), m.state.clock), (before, Clock(1_000)));
    at(&mut m, 2, Command::Return { card: card("KD") }, 1_500);
    at(&mut m, 2, Command::Thumb, 2_000);
    assert_eq!(refused_at(&m, 2, Command::Pass, 2_100), rule::STOPPED);
    assert_eq!(refused_at(&m, 2, Command::Thumb, 2_100), rule::FOLLOW);
    assert_eq!(refused_at(&m, 3, Command::Return { card: card("AD") }, 2_100), rule::STOPPED);
}

#[test]
fn the_last_to_follow_loses_and_deals_next() {
    let mut m = pig_to_seat_2();
    let events = at(&mut m, 2, Command::Thumb, 2_000);
    assert_eq!(
        events,
        vec![Event::ThumbUp {
            seat: 2,
            at_ms: 2_000,
            opened_at_ms: 2_000,
            closes_at_ms: 6_000,
            waiting: vec![3, 0, 1]
        }]
    );
    assert_eq!(m.rules.due_at(&m.state), Some(6_000));
    assert_eq!(m.legal(0), vec![Command::Thumb], "every other seat follows");
    assert!(m.legal(2).is_empty());
    let view = m.rules.view(&m.state, Viewer::Spectator);
    assert_eq!(view.window.as_ref().map(|w| w.closes_at_ms), Some(6_000));
    assert_eq!(at(&mut m, 0, Command::Thumb, 2_412), vec![Event::Followed { seat: 0, at_ms: 2_412, after_ms: 412 }]);
    let events = at(&mut m, 3, Command::Thumb, 2_600);
    let Event::DealScored { ending, losers, next_dealer, reactions, first, quartet, scores, .. } = &events[1] else {
        panic!("{events:?}")
    };
    assert_eq!((*ending, losers.clone(), *next_dealer, *first, *quartet), (Ending::Last, vec![1], 1, Some(2), Some(6)));
    assert_eq!(reactions, &vec![Reaction { seat: 0, after_ms: 412 }, Reaction { seat: 3, after_ms: 600 }]);
    assert_eq!(scores, &vec![0, -1, 0, 0]);
    let Event::MatchEnded { winners, .. } = &events[2] else { panic!("{events:?}") };
    assert_eq!(winners, &vec![0, 2, 3]);
    assert!(m.rules.status(&m.state).is_finished());
}

#[test]
fn a_timeout_makes_every_late_seat_lose_and_the_first_late_clockwise_deals() {
    let mut m = started(Options { deals: 2, ..Options::default() });
    at(&mut m, 1, Command::Pass, 1_000);
    // The receiver may thumb before giving his card, which is then never given.
    at(&mut m, 2, Command::Thumb, 2_000);
    assert_eq!(deal(&m).owes, None);
    at(&mut m, 3, Command::Thumb, 2_500);
    assert!(m.rules.time_passes(&m.state, 5_999).is_err(), "the window is still open");
    let events = m.rules.time_passes(&m.state, 6_000).unwrap();
    let events = m.apply(events);
    let Event::DealScored { ending, losers, next_dealer, scores, terms, at_ms, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!((*ending, losers.clone(), *next_dealer, *at_ms), (Ending::Late, vec![0, 1], 0, 6_000));
    assert_eq!(scores, &vec![-1, -1, 0, 0]);
    assert!(terms.iter().all(|t| t.rule == rule::LATE));
    assert_eq!(events.len(), 1, "a second deal follows");
    assert!(matches!(m.rules.status(&m.state), Status::NeedsDeck { .. }));
    assert_eq!(m.state.deals.next_dealer, 0);
}

#[test]
fn the_loser_deals_the_next_deal_and_the_fewest_losses_win() {
    let mut m = started(Options { deals: 2, ..Options::default() });
    at(&mut m, 1, Command::Pass, 1_000);
    at(&mut m, 2, Command::Return { card: card("KD") }, 1_500);
    at(&mut m, 2, Command::Thumb, 2_000);
    at(&mut m, 0, Command::Thumb, 2_300);
    at(&mut m, 1, Command::Thumb, 2_400);
    assert_eq!(m.state.deals.next_dealer, 3);
    // Seat 3 deals: seat 0 gets the first card.
    let mut d = deck(&HANDS);
    d.rotate_left(3);
    m.deal(d);
    assert_eq!(deal(&m).dealer, 3);
    let holder = deal(&m).holder;
    at(&mut m, holder, Command::Pass, 10_000);
    assert_eq!(m.state.clock, Clock(10_000));
}

#[test]
fn passing_without_a_thumb_ends_at_the_cap_without_a_loser() {
    let mut m = started(Options { pass_cap: 10, ..Options::default() });
    let mut t = 1_000;
    let mut events = Vec::new();
    while !m.rules.status(&m.state).is_finished() {
        let d = deal(&m);
        t += 100;
        let (seat, command) = match d.owes {
            // Each receiver gives back its last card: nobody completes a quartet here.
            Some(owes) => (owes, Command::Return { card: *d.hands[owes].iter().rfind(|&&c| c != PIG).unwrap() }),
            None => (d.holder, Command::Pass),
        };
        events = at(&mut m, seat, command, t);
        assert!(m.state.deals.live().is_none_or(|d| d.first_thumb.is_none()));
    }
    let Event::DealScored { ending, losers, scores, .. } = &events[1] else { panic!("{events:?}") };
    assert_eq!((*ending, losers.is_empty(), scores.clone()), (Ending::Stalled, true, vec![0; 4]));
    assert_eq!(deal(&m).passes, 10);
}

#[test]
fn bots_pass_at_once_and_react_after_a_delay() {
    let mut m = started(Options::default());
    for level in Level::ALL {
        assert_eq!(m.rules.bot_reaction_at(&m.state, 1, level, 7), None, "passing is made at once");
    }
    at(&mut m, 1, Command::Pass, 1_000);
    at(&mut m, 2, Command::Return { card: card("KD") }, 1_500);
    // Seat 2's quartet of sixes was completed by the pig, at 1000.
    assert_eq!(bots::choose(&m.rules, &m.state, 2, Level::Strong, 7), Some(Command::Thumb));
    let when = m.rules.bot_reaction_at(&m.state, 2, Level::Strong, 7).unwrap();
    assert_eq!(when, 1_000 + bot_delay_ms(Level::Strong, 7 ^ 1_000));
    at(&mut m, 2, Command::Thumb, when);
    let follow = m.rules.bot_reaction_at(&m.state, 0, Level::Basic, 9).unwrap();
    assert_eq!(follow, when + bot_delay_ms(Level::Basic, 9 ^ when));
    assert_eq!(m.rules.bot_reaction_at(&m.state, 2, Level::Basic, 9), None, "nothing left to do");
}

#[test]
fn the_strong_bot_gives_back_a_card_of_a_rank_it_is_not_collecting() {
    let hands = [
        "7S 8S 9S TS JS QS KS AS 9C",
        "6C 7C 8C TC JC QC KC AC 9D",
        "6D 6H 7H 7D 8D TD JD QD KD",
        "AD 6S 8H 9H TH JH QH KH AH",
    ];
    let mut m = M::new(4, Options::default());
    m.deal(deck(&hands));
    at(&mut m, 1, Command::Pass, 1_000);
    for level in [Level::Basic, Level::Strong] {
        let Some(Command::Return { card }) = bots::choose(&m.rules, &m.state, 2, level, 1) else { panic!() };
        let held = deal(&m).hands[2].iter().filter(|c| c.rank() == card.rank()).count();
        assert_eq!(held, 1, "{level:?} gives {card} from a rank it holds one of");
    }
}
