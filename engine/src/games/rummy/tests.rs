use super::*;
use crate::cards::{card, cards};
use crate::game::Status;
use crate::simulate::Driver;

type M = Driver<Rummy>;

/// A deck dealt by seat 0, one card at a time from seat 1, giving each seat the seven cards of
/// `hands`, then `stock` from its top, then the rest of the pack in its own order.
fn deck(hands: &[&str], stock: &str, options: &Options) -> Vec<Card> {
    let n = hands.len();
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let mut deck: Vec<Card> = (0..HAND * n).map(|i| hands[(1 + i) % n][i / n]).collect();
    deck.extend(cards(stock));
    let mut rest = pack(n, options);
    for c in &deck {
        assert!(take_card(&mut rest, *c), "{c} twice");
    }
    deck.extend(rest);
    deck
}

fn started(hands: &[&str], stock: &str, options: Options) -> M {
    let mut m = M::new(hands.len(), options.clone());
    m.deal(deck(hands, stock, &options));
    m
}

fn deal(m: &M) -> &Deal {
    m.state.deals.deal.as_ref().unwrap()
}

fn meld_of(kind: Kind, codes: &str) -> Command {
    Command::Meld { kind, cards: cards(codes) }
}

fn discard(code: &str) -> Command {
    Command::Discard { card: card(code) }
}

/// Seat 1 (forehand) and seat 0: no meld between them.
const LOOSE: [&str; 2] = ["4C 7D TH KS 6H AD 2S", "2C 5D 8H JS 3H 9C QD"];

/// The player to act draws from the stock (or takes the pile's card when the stock is empty)
/// and throws the card drawn.
fn draw_and_throw(m: &mut M) {
    if let Status::NeedsShuffle { cards } = m.rules.status(&m.state) {
        m.deal(cards);
    }
    let seat = m.to_act()[0];
    let draw = if deal(m).piles.can_draw() { Command::DrawStock } else { Command::TakeDiscard };
    m.ok(seat, draw);
    let card = *deal(m).hands[seat].last().unwrap();
    m.ok(seat, Command::Discard { card });
}

#[test]
fn a_turn_is_a_draw_then_melds_then_a_discard() {
    let mut m = started(&LOOSE, "KC", Options::default());
    assert_eq!(m.to_act(), [1], "forehand begins");
    assert_eq!(m.refused(1, Command::TakeDiscard).rule, rule::PILE, "the pile is empty at first");
    assert_eq!(m.refused(1, discard("2C")).rule, rule::DRAW_FIRST);
    assert_eq!(m.legal(1), vec![Command::DrawStock]);
    m.ok(1, Command::DrawStock);
    assert_eq!(m.refused(1, Command::DrawStock).rule, rule::ONE_DRAW);
    m.ok(1, discard("KC"));
    assert_eq!(m.to_act(), [0]);
    assert_eq!(deal(&m).piles.pile, cards("KC"));
    assert_eq!(m.legal(0), vec![Command::DrawStock, Command::TakeDiscard]);
}

#[test]
fn the_upcard_variant_lets_forehand_take_it() {
    let options = Options { turn_up: true, ..Options::default() };
    let mut m = started(&LOOSE, "KC", options);
    assert_eq!(deal(&m).piles.pile, cards("KC"));
    m.ok(1, Command::TakeDiscard);
    assert!(deal(&m).hands[1].contains(&card("KC")));
}

#[test]
fn a_card_taken_from_the_pile_stays_public_in_the_hand() {
    let mut m = started(&LOOSE, "KC 8D", Options::default());
    m.ok(1, Command::DrawStock);
    m.ok(1, discard("KC"));
    m.ok(0, Command::TakeDiscard);
    let seen = m.rules.view(&m.state, Viewer::Seat(1));
    assert_eq!(seen.known_cards.unwrap()[0], cards("KC"));
    assert!(!m.rules.secrets(&m.state).iter().any(|(c, _)| *c == card("KC")));
    m.ok(0, discard("KC"));
    assert!(m.rules.view(&m.state, Viewer::Seat(1)).known_cards.unwrap()[0].is_empty());
    // A stock draw is the drawer's alone.
    let events = m.ok(1, Command::DrawStock);
    let shown = m.rules.redact(&m.state, &events[0], Viewer::Seat(0), false);
    assert_eq!(shown["card"], Value::Null);
    assert_eq!(m.rules.redact(&m.state, &events[0], Viewer::Seat(1), false)["card"], "8D");
}

#[test]
fn melds_and_lay_offs_on_ones_own_melds_only() {
    // Seat 1 holds three eights and 2-3-4 of clubs; seat 0 the fourth eight and the five of clubs.
    let hands = ["8S 5C 7D TH KS 6H AD", "8C 8D 8H 2C 3C 4C QD"];
    let mut m = started(&hands, "9D AC KD", Options::default());
    m.ok(1, Command::DrawStock);
    assert!(m.legal(1).contains(&meld_of(Kind::Group, "8C 8D 8H")));
    assert!(m.legal(1).contains(&meld_of(Kind::Run, "2C 3C 4C")));
    assert_eq!(m.refused(1, meld_of(Kind::Run, "4C 3C 2C")).rule, rule::RUN, "a run is laid from its lowest card");
    assert_eq!(m.refused(1, meld_of(Kind::Group, "8C 8D 2C")).rule, rule::GROUP);
    assert_eq!(m.refused(1, meld_of(Kind::Group, "8C 8D 8S")).rule, core::CARD_NOT_HELD);
    m.ok(1, meld_of(Kind::Group, "8C 8D 8H"));
    m.ok(1, discard("9D"));
    m.ok(0, Command::DrawStock);
    // The text's lay-offs are one's own: seat 0 may not add its eight to seat 1's eights.
    let eight = Command::LayOff { meld: 0, card: card("8S"), end: None };
    assert_eq!(m.refused(0, eight).rule, rule::LAY_OFF_OWN);
    m.ok(0, discard("AC"));
    m.ok(1, Command::DrawStock);
    m.ok(1, meld_of(Kind::Run, "2C 3C 4C"));
    assert_eq!(deal(&m).melds[1].owner, 1);
    assert_eq!(m.refused(1, Command::LayOff { meld: 1, card: card("QD"), end: None }).rule, rule::LAY_OFF_FIT);
}

#[test]
fn with_the_option_one_lays_off_anywhere() {
    let hands = ["8S 5C 7D TH KS 6H AD", "8C 8D 8H 2C 3C 4C QD"];
    let options = Options { lay_off_anywhere: true, ..Options::default() };
    let mut m = started(&hands, "9D AC KD", options);
    m.ok(1, Command::DrawStock);
    m.ok(1, meld_of(Kind::Group, "8C 8D 8H"));
    m.ok(1, discard("9D"));
    m.ok(0, Command::DrawStock);
    let eight = Command::LayOff { meld: 0, card: card("8S"), end: None };
    assert!(m.legal(0).contains(&eight));
    let events = m.ok(0, eight);
    assert!(matches!(events[0], Event::LaidOff { seat: 0, index: 0, end: End::High, .. }));
    assert_eq!(deal(&m).melds[0].meld.cards(), cards("8C 8D 8H 8S").as_slice());
    assert_eq!(deal(&m).melds[0].owner, 1, "the meld stays in front of its owner");
}

#[test]
fn going_out_ends_the_deal_and_scores_the_others_hands() {
    // Seat 1 melds six cards and discards the seventh after drawing: out.
    let hands = ["KS QH 7D 5D AD 2S JC", "8C 8D 8H 2C 3C 4C 5C"];
    let mut m = started(&hands, "9D", Options::default());
    m.ok(1, Command::DrawStock);
    m.ok(1, meld_of(Kind::Group, "8C 8D 8H"));
    m.ok(1, meld_of(Kind::Run, "2C 3C 4C 5C"));
    let events = m.ok(1, discard("9D"));
    assert!(matches!(events[1], Event::WentOut { seat: 1 }));
    let Event::DealScored { winner, counts, terms, scores, .. } = &events[2] else { panic!("{events:?}") };
    assert_eq!(*winner, 1);
    // K 10 + Q 10 + 7 + 5 + A 1 + 2 + J 10 = 45.
    assert_eq!(counts, &vec![45, 0]);
    assert_eq!(scores, &vec![0, 45]);
    assert!(terms.iter().any(|t| t.to == 1 && t.points == 45 && t.rule == rule::COUNT));
    let Event::MatchEnded { winners, .. } = &events[3] else { panic!("{events:?}") };
    assert_eq!(winners, &vec![1]);
    assert!(m.rules.status(&m.state).is_finished());
    assert!(m.rules.view(&m.state, Viewer::Spectator).hands.is_some(), "hands are shown for the count");
}

#[test]
fn going_out_on_a_meld_needs_no_discard() {
    let hands = ["KS QH 7D 5D AD 2S JC", "8C 8D 8H 2C 3C 4C 5C"];
    let mut m = started(&hands, "6C", Options::default());
    m.ok(1, Command::DrawStock);
    m.ok(1, meld_of(Kind::Group, "8C 8D 8H"));
    let events = m.ok(1, meld_of(Kind::Run, "2C 3C 4C 5C 6C"));
    assert!(matches!(events[1], Event::WentOut { seat: 1 }));
}

#[test]
fn the_ace_is_low_unless_the_option_lets_it_be_high() {
    let hands = ["KS QH 7D 5C AD 2S JC", "QC KC AC 2H 3H 4H 5H"];
    let mut m = started(&hands, "9S", Options::default());
    m.ok(1, Command::DrawStock);
    assert_eq!(m.refused(1, meld_of(Kind::Run, "QC KC AC")).rule, rule::ACE);
    let options = Options { ace_high: true, ..Options::default() };
    let mut m = started(&hands, "9S", options);
    m.ok(1, Command::DrawStock);
    m.ok(1, meld_of(Kind::Run, "QC KC AC"));
    m.ok(1, meld_of(Kind::Run, "2H 3H 4H 5H"));
    let events = m.ok(1, discard("9S"));
    // The ace left in seat 0's hand counts 11: 10 + 10 + 7 + 5 + 11 + 2 + 10.
    let Event::DealScored { counts, .. } = &events[2] else { panic!("{events:?}") };
    assert_eq!(counts[0], 55);
}

#[test]
fn a_joker_stands_in_a_meld_and_is_taken_back_with_its_natural_card() {
    let options = Options { jokers: true, ..Options::default() };
    let hands = ["6D 5C 7D TH KS 6H AD", "9C JK1 JC 2C 3C QD QH"];
    let mut m = started(&hands, "4H JK2 TC", options);
    m.ok(1, Command::DrawStock);
    m.ok(1, meld_of(Kind::Run, "9C JK1 JC"));
    m.ok(1, discard("4H"));
    m.ok(0, Command::DrawStock);
    m.ok(0, discard("KS"));
    m.ok(1, Command::DrawStock);
    assert!(m.legal(1).contains(&Command::TakeJoker { meld: 0, card: card("TC") }));
    assert_eq!(m.refused(1, Command::TakeJoker { meld: 0, card: card("QD") }).rule, rule::JOKER_STEAL);
    m.ok(1, Command::TakeJoker { meld: 0, card: card("TC") });
    assert_eq!(deal(&m).melds[0].meld.cards(), cards("9C TC JC").as_slice());
    assert!(deal(&m).hands[1].contains(&card("JK1")));
    assert!(m.rules.view(&m.state, Viewer::Seat(0)).known_cards.unwrap()[1].contains(&card("JK1")));
    // A joker on a run goes at the end one names.
    let low = Command::LayOff { meld: 0, card: card("JK1"), end: Some(End::Low) };
    assert!(m.legal(1).contains(&low));
    assert_eq!(m.refused(1, Command::LayOff { meld: 0, card: card("JK1"), end: None }).rule, rule::LAY_OFF_FIT);
    // A joker left in hand counts 15.
    assert_eq!(hand_points(&cards("JK1 QD"), false), 25);
}

#[test]
fn an_empty_stock_is_rebuilt_from_the_pile_less_its_top_card() {
    let mut m = started(&LOOSE, "", Options::default());
    let stock = deal(&m).piles.talon.len();
    assert_eq!(stock, 52 - 14);
    for _ in 0..stock {
        draw_and_throw(&mut m);
    }
    let Status::NeedsShuffle { cards: under } = m.rules.status(&m.state) else { panic!("no rebuild due") };
    assert_eq!(under.len(), stock - 1, "the pile's top card stays");
    assert!(m.to_act().is_empty());
    let top = deal(&m).piles.top().unwrap();
    let mut order = under.clone();
    order.reverse();
    let events = m.deal(order.clone());
    assert_eq!(events, vec![Event::StockRebuilt { order: order.clone() }]);
    assert_eq!(deal(&m).piles.pile, vec![top]);
    assert_eq!(deal(&m).piles.talon, order);
    let hidden = m.rules.redact(&m.state, &events[0], Viewer::Seat(0), false);
    assert!(hidden["order"].as_array().unwrap().iter().all(Value::is_null), "nobody knows the new order");
    assert_eq!(m.rules.shuffles(&m.state), 2);
    assert_eq!(m.rules.deal_number(&m.state), 1, "a rebuilt stock is no new deal");
}

#[test]
fn a_deal_nobody_goes_out_in_is_stopped_at_the_turn_limit() {
    let mut m = started(&LOOSE, "", Options::default());
    while !m.rules.status(&m.state).is_finished() {
        draw_and_throw(&mut m);
    }
    assert_eq!(deal(&m).turns, TURN_LIMIT);
    assert!(m.log.iter().any(|e| matches!(e, Event::DealStopped { turns: TURN_LIMIT })));
    let Some(Event::DealScored { winner, went_out: false, counts, .. }) =
        m.log.iter().find(|e| matches!(e, Event::DealScored { .. }))
    else {
        panic!("no score")
    };
    let least = *counts.iter().min().unwrap();
    assert_eq!(counts[*winner], least);
}

#[test]
fn with_a_target_deals_go_on_until_it_is_reached() {
    let hands = ["KS QH 7D 5D AD 2S JC", "8C 8D 8H 2C 3C 4C 5C"];
    let options = Options { target: 50, ..Options::default() };
    let mut m = started(&hands, "9D", options.clone());
    m.ok(1, Command::DrawStock);
    m.ok(1, meld_of(Kind::Group, "8C 8D 8H"));
    m.ok(1, meld_of(Kind::Run, "2C 3C 4C 5C"));
    m.ok(1, discard("9D"));
    assert_eq!(m.state.deals.scores, vec![0, 45]);
    let Status::NeedsDeck { composition } = m.rules.status(&m.state) else { panic!("the match goes on") };
    assert_eq!(composition.len(), 52);
    assert_eq!(m.state.deals.next_dealer, 1);
}

#[test]
fn five_players_and_more_use_two_packs() {
    for players in 2..=8 {
        let options = Options { jokers: true, ..Options::default() };
        let n = pack(players, &options).len();
        assert_eq!(n, if players >= 5 { 108 } else { 54 }, "{players}");
        let twice = pack(players, &Options::default()).iter().filter(|&&c| c == card("9H")).count();
        assert_eq!(twice, packs(players));
    }
}

#[test]
fn setup_refuses_a_target_past_its_bound() {
    let bad = Options { target: MAX_TARGET + 1, ..Options::default() };
    assert!(Rummy.setup(2, bad).is_err());
    assert!(Rummy.setup(2, Options { target: MAX_TARGET, ..Options::default() }).is_ok());
}

#[test]
fn the_strong_bots_world_keeps_what_the_seat_saw() {
    let mut m = started(&LOOSE, "KC 8D", Options::default());
    m.ok(1, Command::DrawStock);
    m.ok(1, discard("KC"));
    m.ok(0, Command::TakeDiscard);
    m.ok(0, discard("4C"));
    let mut rng = Rng::new(3);
    let world = determinize(&m.state, 1, &mut rng).expect("a world on seat 1's turn");
    let w = world.deals.deal.as_ref().unwrap();
    assert_eq!(w.hands[1], deal(&m).hands[1]);
    assert!(w.hands[0].contains(&card("KC")), "the card taken from the pile stays");
    assert_eq!(w.piles.pile, deal(&m).piles.pile);
    assert_eq!(w.piles.talon.len(), deal(&m).piles.talon.len());
    Rummy.check_invariants(&world).unwrap();
}

/// Plays a match of bots at `level` for every seat from `seed`: the deal's turns.
fn bots_match(players: usize, options: Options, level: crate::bots::Level, seed: u64) -> (u32, State) {
    let rules = Rummy;
    let mut rng = Rng::new(seed);
    let mut state = rules.setup(players, options).unwrap();
    let mut turns = 0;
    loop {
        let events = match rules.status(&state) {
            Status::Finished { .. } => break,
            Status::NeedsDeck { composition: mut cards } | Status::NeedsShuffle { mut cards } => {
                rng.shuffle(&mut cards);
                crate::game::shuffled_in(&rules, &state, cards).unwrap()
            }
            Status::ToAct { seats } => {
                let command = crate::bots::choose(&rules, &state, seats[0], level, rng.next_u64()).unwrap();
                rules.decide(&state, seats[0], &command).unwrap()
            }
        };
        for e in &events {
            if let Event::DealScored { .. } = e {
                turns = state.deals.deal.as_ref().unwrap().turns;
            }
            rules.evolve(&mut state, e);
        }
    }
    (turns, state)
}

#[test]
fn basic_bots_go_out_well_inside_the_turn_limit() {
    for players in [2, 4, 8] {
        let turns: Vec<u32> =
            (0..10).map(|seed| bots_match(players, Options::default(), crate::bots::Level::Basic, seed).0).collect();
        let mean = turns.iter().sum::<u32>() as f64 / turns.len() as f64;
        assert!(mean < 120.0 && turns.iter().all(|&t| t < TURN_LIMIT), "{players} players: {turns:?}");
    }
}

#[test]
fn strong_bots_play_whole_matches() {
    for players in [2, 5] {
        let start = std::time::Instant::now();
        let (_, state) =
            bots_match(players, Options { jokers: true, ..Options::default() }, crate::bots::Level::Strong, 5);
        assert!(state.deals.outcome.is_some());
        eprintln!("{players} players: a strong match in {:?}", start.elapsed());
    }
}
