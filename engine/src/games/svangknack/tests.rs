//! The rules of this game as its texts state them, with their worked examples; the generic
//! tests every game passes are in `tests/every_game.rs`.

use super::Command as C;
use super::Event as E;
use super::*;
use crate::cards::{card, cards};
use crate::game::Status;
use crate::game::{cards_in, erase};
use crate::rules::core;
use crate::rules::Rulebook;
use crate::simulate::{random_matches, Driver, Plan};
use serde_json::json;

/// A deck that deals `fixed` hands (by seat) with `dealer` dealing and then puts `talon` on
/// top of the talon; the other seats get the pack's spare cards, and the rest goes below.
fn deck_for(players: usize, dealer: Seat, lowest: u8, fixed: &[(Seat, &str)], talon: &str) -> Vec<Card> {
    let talon = cards(talon);
    let fixed: Vec<(Seat, Vec<Card>)> = fixed.iter().map(|&(s, h)| (s, cards(h))).collect();
    let used: Vec<Card> = fixed.iter().flat_map(|(_, h)| h.clone()).chain(talon.iter().copied()).collect();
    let mut spare = pack(lowest).into_iter().filter(|c| !used.contains(c));
    let hands: Vec<Vec<Card>> = (0..players)
        .map(|s| match fixed.iter().find(|(f, _)| *f == s) {
            Some((_, h)) => h.clone(),
            None => spare.by_ref().take(HAND).collect(),
        })
        .collect();
    let mut deck: Vec<Card> =
        (0..HAND * players).map(|i| hands[(dealer + 1 + i % players) % players][i / players]).collect();
    deck.extend(talon);
    deck.extend(spare);
    deck
}

type Match = Driver<Svangknack>;

/// The table `viewer` is shown, as the service sends it.
fn view_json(state: &State, viewer: Viewer) -> Value {
    serde_json::to_value(Svangknack.view(state, viewer)).expect("views serialize")
}

impl Match {
    fn d(&self) -> &Deal {
        self.state.deals.deal.as_ref().unwrap()
    }

    fn pot(&self) -> i64 {
        self.state.pot()
    }

    fn balances(&self) -> Vec<i64> {
        self.state.ledger.seats(self.state.players())
    }
}

fn play(code: &str) -> Command {
    C::Play { card: card(code) }
}

fn blank(code: &str) -> Command {
    C::Blank { card: card(code) }
}

fn buy(codes: &str) -> Command {
    C::Buy { discard: cards(codes) }
}

fn settled(events: &[Event]) -> (Vec<Payment>, Option<Seat>, bool, i64) {
    events
        .iter()
        .find_map(|e| match e {
            E::DealSettled { payments, rivet, pot_went_out, pot, .. } => {
                Some((payments.clone(), *rivet, *pot_went_out, *pot))
            }
            _ => None,
        })
        .expect("the deal was settled")
}

fn shows(value: &Value, code: &str) -> bool {
    cards_in(value).contains(&card(code))
}

/// Four players, the forced first deal of the walkthrough below: spades are trumps.
fn forced_four() -> Match {
    let mut m = Match::new(4, Options::default());
    m.deal(deck_for(4, 0, 6, &[(0, "6H 6C 6D"), (1, "AS KH 7C"), (2, "QS 8H 9C"), (3, "7S 8S TC")], "9S AD"));
    m
}

/// Plays the forced deal of `forced_four` to its end: seat 1 takes the first trick, seat 3
/// the other two; seats 0, 1 and 2 blank in the second.
fn play_forced_four(m: &mut Match) -> Vec<Event> {
    let mut events = Vec::new();
    for (seat, c) in [(1, play("AS")), (2, play("QS")), (3, play("7S")), (0, play("6H"))] {
        events.extend(m.ok(seat, c));
    }
    for (seat, c) in [(1, blank("7C")), (2, blank("8H")), (3, play("8S")), (0, blank("6C"))] {
        events.extend(m.ok(seat, c));
    }
    for (seat, c) in [(3, play("TC")), (0, play("6D")), (1, play("KH")), (2, play("9C"))] {
        events.extend(m.ok(seat, c));
    }
    events
}

/// A four-player match after its forced first deal, with chips left in the pot.
fn after_forced_four() -> Match {
    let mut m = forced_four();
    play_forced_four(&mut m);
    assert_eq!(m.pot(), 6);
    m
}

// --- The pack and the options ---------------------------------------------------------

#[test]
fn the_default_pack_is_36_cards_and_grows_above_six_players() {
    let lowest: Vec<u8> = (3..=12).map(auto_lowest_rank).collect();
    assert_eq!(lowest, [6, 6, 6, 6, 4, 2, 2, 2, 2, 2]);
    for n in 3..=12 {
        let size = pack_size(auto_lowest_rank(n));
        assert!(size >= cards_for_the_deal(n), "{n} players: the deal and the turned cards fit");
        if n <= 8 {
            assert!(size >= cards_for_every_purchase(n) || n <= 6, "{n} players: everyone can exchange everything");
        }
        let game = Match::new(n, Options::default());
        assert_eq!(game.state.pack().len(), size);
    }
    assert_eq!(pack_size(6), 36);
    assert_eq!(pack_size(4), 44);
    assert_eq!(cards_for_every_purchase(7), 44);
    assert!(Svangknack.rulebook().rule(rule::AUTO_PACK).unwrap().house_rule);
}

#[test]
fn options_have_defaults_and_bad_values_are_refused() {
    let game = erase(Svangknack);
    assert_eq!(game.normalize_options(&Value::Null).unwrap(), json!({"stake": 1, "lowest_rank": null, "rounds": 1}));
    assert_eq!(
        game.normalize_options(&json!({"lowest-rank": 4, "stake": 3})).unwrap(),
        json!({"stake": 3, "lowest_rank": 4, "rounds": 1})
    );
    for bad in [
        json!({"stake": 0}),
        json!({"stake": -2}),
        json!({"rounds": 0}),
        json!({"lowest_rank": 7}),
        json!({"lowest_rank": 1}),
    ] {
        assert!(game.setup(4, &bad).is_err(), "{bad} accepted");
    }
    // Twelve players need 38 cards: 36 do not do, 40 do.
    assert!(game.setup(12, &json!({"lowest_rank": 6})).err().unwrap().0.contains("need 38"));
    assert!(game.setup(12, &json!({"lowest_rank": 5})).is_ok());
    assert!(game.setup(11, &json!({"lowest_rank": 6})).is_ok());
    let names: Vec<_> = Svangknack.options().iter().map(|o| o.name).collect();
    assert_eq!(names, ["stake", "lowest_rank", "rounds"]);
    let m = Match::new(5, Options { lowest_rank: Some(2), ..Default::default() });
    assert_eq!(Svangknack.status(&m.state), Status::NeedsDeck { composition: decks::standard52() });
}

// --- Stakes and the forced deal --------------------------------------------------------

#[test]
fn the_first_deal_is_forced_forehand_and_two_more_stake_and_the_top_card_is_trumps() {
    let m = forced_four();
    let E::DealStarted { dealer, forehand, forced, hands, talon, pot, .. } = &m.log[0] else { panic!() };
    assert_eq!((*dealer, *forehand, *forced, *pot), (0, 1, true, 0));
    // Three cards each, one at a time from the dealer's left.
    assert_eq!(hands[1], cards("7C KH AS"));
    assert_eq!(m.d().deck[0], card("AS"));
    assert_eq!(m.d().deck[1], card("QS"));
    assert_eq!(talon.len(), 36 - 12);
    let E::StakesPaid { payments, pot } = &m.log[1] else { panic!() };
    assert_eq!(*pot, 3);
    assert_eq!(payments.iter().map(|p| p.from).collect::<Vec<_>>(), [1, 2, 3].map(Account::Seat));
    assert!(payments.iter().all(|p| p.rule == rule::THREE_STAKES && p.amount == 1 && p.to == Account::Pot));
    assert!(payments[0].explanation.en.contains("forehand"));
    assert_eq!(m.log[2], E::TrumpCardTurned { card: card("9S"), trumps: Suit::Spades });
    assert_eq!(m.d().in_seats(), [0, 1, 2, 3]);
    assert_eq!(m.to_act(), [1], "forehand leads in a forced deal");
    assert_eq!(m.balances(), [0, -1, -1, -1]);
    // Nobody swings, passes or buys.
    assert_eq!(m.refused(1, C::Swing).rule, rule::FORCED_ALL_PLAY);
    assert_eq!(m.refused(1, C::Pass).rule, rule::FORCED_ALL_PLAY);
    assert_eq!(m.refused(1, C::Join).rule, rule::FORCED_ALL_PLAY);
    assert_eq!(m.refused(1, buy("7C")).rule, rule::FORCED_NO_BUYING);
    assert_eq!(m.refused(1, C::Stand).rule, rule::FORCED_NO_BUYING);
    let view = view_json(&m.state, Viewer::Spectator);
    assert_eq!(
        (view["pot"].clone(), view["forced"].clone(), view["trumps"].clone()),
        (json!(3), json!(true), json!("spades"))
    );
    assert_eq!(view["turned_cards"], json!(["9S"]));
    assert_eq!(view["balances"], json!([0, -1, -1, -1]));
}

#[test]
fn the_walkthrough_forced_deal_with_blanks_and_its_payment() {
    let mut m = forced_four();
    // Trick 1: anything may be led; follow suit.
    m.ok(1, play("AS"));
    assert_eq!(m.refused(2, play("8H")).rule, rule::FOLLOW_SUIT);
    assert_eq!(m.refused(2, blank("8H")).rule, rule::FACE_UP);
    m.ok(2, play("QS"));
    m.ok(3, play("7S"));
    assert_eq!(Svangknack.legal_moves(&m.state, 0).len(), 3, "void in spades: any card");
    let events = m.ok(0, play("6H"));
    assert!(matches!(events[1], E::TrickWon { trick_number: 1, winner: 1, reason: Won::HighestTrump, .. }));

    // Trick 2: seat 1 has no trump left and must blank.
    assert_eq!(m.to_act(), [1]);
    let refusal = m.refused(1, play("KH"));
    assert_eq!(refusal.rule, rule::BLANK_LEAD);
    assert!(refusal.explanation.en.contains("must blank"));
    assert_eq!(Svangknack.legal_moves(&m.state, 1), [blank("7C"), blank("KH")]);
    let blanked = m.ok(1, blank("7C"));
    assert_eq!(blanked, [E::CardBlanked { deal_number: 1, seat: 1, card: card("7C") }]);
    // Seat 2 has no trump either: it blanks too, never plays face up.
    assert_eq!(m.refused(2, play("9C")).rule, rule::BLANK_FOLLOW);
    m.ok(2, blank("8H"));
    // Seat 3 holds a trump and must play it.
    assert_eq!(m.refused(3, blank("TC")).rule, rule::BLANK_FOLLOW);
    assert_eq!(m.refused(3, play("TC")).rule, rule::BLANK_FOLLOW);
    assert_eq!(Svangknack.legal_moves(&m.state, 3), [play("8S")]);
    m.ok(3, play("8S"));
    let events = m.ok(0, blank("6C"));
    let E::TrickWon { winner, card: won_with, reason, plays, .. } = &events[1] else { panic!() };
    assert_eq!((*winner, *won_with, *reason), (3, Some(card("8S")), Won::HighestTrump));
    assert!(plays.iter().filter(|p| p.blanked).all(|p| p.card.is_none()), "the record names no blanked card");

    // Trick 3 is normal again: no blanking.
    assert_eq!(m.refused(3, blank("TC")).rule, rule::FACE_UP);
    m.ok(3, play("TC"));
    m.ok(0, play("6D"));
    m.ok(1, play("KH"));
    let events = m.ok(2, play("9C"));
    let (payments, rivet, out, pot) = settled(&events);
    // The pot of 3: a third per trick, and the two without a trick pay 3 each.
    let moves: Vec<(Account, Account, i64, &str)> =
        payments.iter().map(|p| (p.from, p.to, p.amount, p.rule.as_str())).collect();
    assert_eq!(
        moves,
        [
            (Account::Pot, Account::Seat(1), 1, rule::SHARE),
            (Account::Pot, Account::Seat(3), 2, rule::SHARE),
            (Account::Seat(0), Account::Pot, 3, rule::FORFEIT),
            (Account::Seat(2), Account::Pot, 3, rule::FORFEIT),
        ]
    );
    assert!(payments[1].explanation.en.contains("2 thirds of the pot of 3"));
    assert_eq!((rivet, out, pot), (None, false, 6));
    assert_eq!(m.balances(), [-3, 0, -4, 1]);
    assert_eq!(m.pot(), 6);
    assert_eq!(m.d().phase, Phase::Over);
    assert!(matches!(Svangknack.status(&m.state), Status::NeedsDeck { .. }));
}

// --- The blanked card stays hidden ------------------------------------------------------

#[test]
fn a_blanked_card_is_known_only_to_its_owner_during_the_deal() {
    let mut m = forced_four();
    for (seat, c) in [(1, play("AS")), (2, play("QS")), (3, play("7S")), (0, play("6H"))] {
        m.ok(seat, c);
    }
    let event = m.ok(1, blank("7C")).remove(0);
    for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Seat(3), Viewer::Spectator] {
        let shown = Svangknack.redact(&m.state, &event, viewer, false);
        assert_eq!(shown, json!({"type": "card_blanked", "deal_number": 1, "seat": 1, "card": null}));
        let view = view_json(&m.state, viewer);
        assert!(!shows(&view, "7C"), "{viewer:?} sees the blanked card");
        assert_eq!(view["trick"]["plays"], json!([{"seat": 1, "card": null, "blanked": true}]));
    }
    assert_eq!(Svangknack.redact(&m.state, &event, Viewer::Seat(1), false)["card"], "7C");
    let own = view_json(&m.state, Viewer::Seat(1));
    assert_eq!(own["trick"]["plays"], json!([{"seat": 1, "card": "7C", "blanked": true}]));
    assert_eq!(own["blanked"], json!(["7C"]));
    assert!(Svangknack.secrets(&m.state).contains(&(card("7C"), vec![1])));
}

#[test]
fn a_blanked_card_stays_hidden_in_the_record_for_ever() {
    let mut m = forced_four();
    play_forced_four(&mut m);
    let deal_events: Vec<Event> = m.log.clone();
    let hidden = ["7C", "8H", "6C"];
    // After the deal the secrets still say who knows each blanked card.
    let secrets = Svangknack.secrets(&m.state);
    for (code, owner) in hidden.iter().zip([1, 2, 0]) {
        assert!(secrets.contains(&(card(code), vec![owner])), "{code}");
    }
    let check = |m: &Match| {
        let record = view_json(&m.state, Viewer::Record);
        for event in &deal_events {
            for viewer in [Viewer::Record, Viewer::Spectator, Viewer::Seat(3)] {
                let shown = Svangknack.redact(&m.state, event, viewer, true);
                assert!(hidden.iter().all(|c| !shows(&shown, c)), "{viewer:?} sees a blanked card in {shown}");
            }
            // Its owner still sees it, and nobody else's.
            let own = Svangknack.redact(&m.state, event, Viewer::Seat(1), true);
            assert!(!shows(&own, "8H") && !shows(&own, "6C"));
        }
        record
    };
    let record = check(&m);
    assert!(hidden.iter().all(|c| !shows(&record, c)));
    // The talon was never seen: showing it would give the blanked cards away by elimination.
    assert!(!shows(&record, "AD"));
    // What lay face up is in the record.
    for code in ["AS", "QS", "7S", "6H", "8S", "TC", "9S"] {
        assert!(shows(&record["tricks"], code) || shows(&record["turned_cards"], code), "{code}");
    }
    let start = Svangknack.redact(&m.state, &deal_events[0], Viewer::Seat(1), true);
    assert!(shows(&start, "7C") && shows(&start, "KH"), "the owner sees its own hand");
    // Seat 2 held 9C 8H QS: the blanked 8H is masked; 9C and QS were played face up.
    assert_eq!(start["hands"][2], json!(["9C", null, "QS"]));

    // Deals later the old record is still masked.
    m.deal(deck_for(4, 1, 6, &[], "AH KD"));
    check(&m);
    assert_eq!(m.state.masks.keys().copied().collect::<Vec<_>>(), [1]);
}

/// The rule `svangknack.house.record`: each player is shown the cards they held themselves,
/// blanked ones included, where everyone else sees only what lay face up.
#[test]
fn a_masked_record_shows_each_player_the_cards_they_held() {
    let mut m = forced_four();
    play_forced_four(&mut m);
    let record = |seat| Svangknack.record_view(&m.state, seat);
    assert_eq!(record(None), view_json(&m.state, Viewer::Record), "nobody in particular sees the record");
    let own = record(Some(1));
    assert_eq!(own["hands_dealt"][1], json!(["7C", "KH", "AS"]));
    assert_eq!(own["hands_dealt"][2], json!(["9C", null, "QS"]));
    assert_eq!(own["tricks"][1]["plays"][0], json!({"seat": 1, "card": "7C", "blanked": true}));
    assert_eq!(own["tricks"][1]["plays"][1], json!({"seat": 2, "card": null, "blanked": true}));
    assert!(!shows(&own, "8H") && !shows(&own, "6C") && !shows(&own, "AD"));
    let other = record(Some(3));
    assert!(["7C", "8H", "6C", "AD"].iter().all(|c| !shows(&other, c)));
    assert_eq!(other["hands_dealt"][3], json!(["TC", "7S", "8S"]));
    for e in &m.log {
        let as_record = Svangknack.record_event(&m.state, e, None);
        assert_eq!(as_record, Svangknack.redact(&m.state, e, Viewer::Record, true));
        let mine = Svangknack.record_event(&m.state, e, Some(2));
        assert!(!shows(&mine, "7C") && !shows(&mine, "6C"), "{mine}");
        if let E::CardBlanked { seat: 2, .. } = e {
            assert_eq!(mine["card"], "8H");
            assert_eq!(as_record["card"], Value::Null);
        }
    }
    let start = Svangknack.record_event(&m.state, &m.log[0], Some(2));
    assert_eq!(start["hands"][2], json!(["9C", "8H", "QS"]));
    assert_eq!(start["hands"][1], json!([null, "KH", "AS"]));
    // Through the erased layer, as the service asks for it.
    let game = erase(Svangknack);
    let mut erased = game.setup(4, &Value::Null).unwrap();
    m.log.iter().for_each(|e| erased.apply(&serde_json::to_value(e).unwrap()).unwrap());
    assert_eq!(erased.record_view(Some(1)), own);
    assert_eq!(erased.record_view(None), erased.view(Viewer::Record));
}

#[test]
fn a_deal_without_a_blank_opens_its_record_in_full() {
    let mut m = after_forced_four();
    let start = m.log.len();
    m.deal(deck_for(4, 1, 6, &[], "AH KD"));
    m.ok(2, C::Pass);
    m.ok(3, C::Pass);
    for e in &m.log[start..] {
        assert_eq!(Svangknack.redact(&m.state, e, Viewer::Record, true), serde_json::to_value(e).unwrap());
    }
    let record = view_json(&m.state, Viewer::Record);
    assert_eq!(record["deck"], json!(m.d().deck));
    assert_eq!(record["talon"], json!(m.d().talon));
}

// --- Swinging -------------------------------------------------------------------------------

#[test]
fn with_chips_in_the_pot_the_three_stake_again_and_forehand_may_swing() {
    let mut m = after_forced_four();
    let events = m.deal(deck_for(4, 1, 6, &[], "AH KD"));
    let E::DealStarted { dealer, forehand, forced, pot, balances, .. } = &events[0] else { panic!() };
    assert_eq!((*dealer, *forehand, *forced, *pot), (1, 2, false, 6));
    assert_eq!(balances, &[-3, 0, -4, 1]);
    let E::StakesPaid { payments, pot } = &events[1] else { panic!() };
    assert_eq!(payments.iter().map(|p| p.from).collect::<Vec<_>>(), [2, 3, 0].map(Account::Seat));
    assert_eq!(*pot, 9);
    assert_eq!(events.len(), 2, "no trump card is turned without tvång");
    assert_eq!(m.d().phase, Phase::Swinging);
    assert_eq!(m.to_act(), [2]);
    assert_eq!(Svangknack.legal_moves(&m.state, 2), [C::Swing, C::Pass]);
    assert_eq!(m.refused(3, C::Swing).rule, core::TURN);
    assert_eq!(m.refused(2, C::Join).rule, core::PHASE);
    assert_eq!(m.refused(2, play("AS")).rule, core::PHASE);
}

#[test]
fn when_both_pass_the_deal_ends_and_the_pot_stays() {
    let mut m = after_forced_four();
    m.deal(deck_for(4, 1, 6, &[], "AH KD"));
    assert_eq!(m.ok(2, C::Pass), [E::SwingPassed { seat: 2 }]);
    assert_eq!(m.to_act(), [3]);
    assert_eq!(m.ok(3, C::Pass), [E::SwingPassed { seat: 3 }, E::NobodySwung { pot: 9 }]);
    assert_eq!(m.d().phase, Phase::Over);
    assert_eq!(m.pot(), 9);
    // The deal passes on, the three stake again and it is not forced.
    let events = m.deal(deck_for(4, 2, 6, &[], "AH KD"));
    let E::DealStarted { dealer, forced, .. } = &events[0] else { panic!() };
    assert_eq!((*dealer, *forced), (2, false));
    assert_eq!(m.pot(), 12);
    assert_eq!(m.to_act(), [3]);
}

/// Deal 2 of four players: seat 1 deals, seat 2 is forehand; the talon starts `turned`.
fn swing_deal(turned: &str) -> Match {
    let mut m = after_forced_four();
    m.deal(deck_for(4, 1, 6, &[(2, "AH 7H 6S"), (3, "KS QS 9D"), (0, "8C 9C TC"), (1, "JD QD KD")], turned));
    m
}

#[test]
fn the_swinger_chooses_trumps_from_two_turned_cards() {
    let mut m = swing_deal("JH AD 6D 7D 8D");
    let events = m.ok(2, C::Swing);
    assert_eq!(events, [E::Swung { seat: 2 }, E::CardsTurned { cards: cards("JH AD") }]);
    assert_eq!(m.to_act(), [2]);
    assert_eq!(
        Svangknack.legal_moves(&m.state, 2),
        [C::ChooseTrumps { suit: Suit::Diamonds }, C::ChooseTrumps { suit: Suit::Hearts }]
    );
    let refusal = m.refused(2, C::ChooseTrumps { suit: Suit::Clubs });
    assert_eq!(refusal.rule, rule::CHOOSE_TRUMPS);
    assert!(refusal.explanation.en.contains("JH and AD"));
    assert_eq!(m.refused(2, C::Join).rule, core::PHASE);
    m.ok(2, C::ChooseTrumps { suit: Suit::Hearts });
    assert_eq!(m.d().trumps, Some(Suit::Hearts));
    assert_eq!(m.d().join_order, [3, 0, 1]);
    assert_eq!(m.to_act(), [3]);
    let view = view_json(&m.state, Viewer::Seat(0));
    assert_eq!(view["turned_cards"], json!(["JH", "AD"]));
    assert_eq!(view["swinger"], 2);
    assert_eq!(view["talon_count"], 36 - 12 - 2);
}

#[test]
fn two_turned_cards_of_one_suit_make_trumps_without_a_choice() {
    let mut m = swing_deal("JH 8H");
    let events = m.ok(2, C::Swing);
    assert_eq!(events[2], E::TrumpsChosen { seat: 2, suit: Suit::Hearts, automatic: true });
    assert_eq!(m.d().phase, Phase::Joining);
}

#[test]
fn if_forehand_swings_and_all_pass_the_dealer_must_join() {
    let mut m = swing_deal("JH 8H");
    m.ok(2, C::Swing);
    let folded = m.ok(3, C::Pass);
    assert_eq!(folded, [E::Folded { deal_number: 2, seat: 3, cards: cards("9D QS KS") }]);
    assert!(m.d().play.hands[3].is_empty() && !m.d().is_in(3));
    m.ok(0, C::Pass);
    // Seat 1 deals and speaks last: with everyone else out it must knock.
    assert_eq!(m.to_act(), [1]);
    assert_eq!(Svangknack.legal_moves(&m.state, 1), [C::Join]);
    let refusal = m.refused(1, C::Pass);
    assert_eq!(refusal.rule, rule::FORCED_JOIN);
    assert!(refusal.explanation.en.contains("seat 2 swung"));
    assert_eq!(m.ok(1, C::Join), [E::Joined { seat: 1, forced: true }]);
    assert_eq!(m.d().in_seats(), [1, 2]);
    assert_eq!(m.d().buy_order, [2, 1]);
    assert_eq!(m.to_act(), [2]);
}

#[test]
fn if_the_next_player_swings_and_all_pass_forehand_must_join() {
    let mut m = swing_deal("JH 8H");
    m.ok(2, C::Pass);
    m.ok(3, C::Swing);
    assert_eq!(m.d().join_order, [0, 1, 2], "forehand speaks last");
    m.ok(0, C::Pass);
    m.ok(1, C::Pass);
    assert_eq!(m.refused(2, C::Pass).rule, rule::FORCED_JOIN);
    assert_eq!(m.ok(2, C::Join), [E::Joined { seat: 2, forced: true }]);
    assert_eq!(m.d().buy_order, [3, 2]);
    assert_eq!(m.to_act(), [3]);
}

#[test]
fn once_someone_has_joined_the_last_speaker_may_pass() {
    let mut m = swing_deal("JH 8H");
    m.ok(2, C::Swing);
    assert_eq!(m.ok(3, C::Join), [E::Joined { seat: 3, forced: false }]);
    m.ok(0, C::Pass);
    assert_eq!(Svangknack.legal_moves(&m.state, 1), [C::Join, C::Pass]);
    m.ok(1, C::Pass);
    assert_eq!(m.d().buy_order, [2, 3]);
}

#[test]
fn a_thrown_in_hand_is_seen_only_by_its_owner() {
    let mut m = swing_deal("JH 8H");
    m.ok(2, C::Swing);
    let event = m.ok(3, C::Pass).remove(0);
    assert_eq!(Svangknack.redact(&m.state, &event, Viewer::Seat(0), false)["cards"], Value::Null);
    assert_eq!(Svangknack.redact(&m.state, &event, Viewer::Seat(3), false)["cards"], json!(["9D", "QS", "KS"]));
    assert_eq!(view_json(&m.state, Viewer::Seat(3))["thrown_in"], json!(["9D", "QS", "KS"]));
    assert!(Svangknack.secrets(&m.state).contains(&(card("KS"), vec![3])));
    assert_eq!(view_json(&m.state, Viewer::Spectator)["folded"], json!([3]));
}

// --- Buying -----------------------------------------------------------------------------------

#[test]
fn those_in_buy_once_each_from_the_swinger_clockwise() {
    let mut m = swing_deal("JH 8H 6C 7C 8S 9S");
    m.ok(2, C::Swing);
    m.ok(3, C::Join);
    m.ok(0, C::Join);
    m.ok(1, C::Pass);
    assert_eq!(m.d().buy_order, [2, 3, 0]);
    assert_eq!(m.to_act(), [2]);
    assert_eq!(m.refused(3, C::Stand).rule, core::TURN);
    assert_eq!(m.refused(2, buy("")).rule, rule::EXCHANGE);
    assert_eq!(m.refused(2, buy("7H 7H")).rule, rule::EXCHANGE);
    assert_eq!(m.refused(2, buy("KS")).rule, core::CARD_NOT_HELD);
    assert_eq!(m.refused(2, play("AH")).rule, core::PHASE);
    // Any number of cards, in any order; drawn from the top, below the turned cards.
    assert_eq!(Svangknack.legal_moves(&m.state, 2).len(), 1 + 7);
    let events = m.ok(2, buy("7H 6S"));
    assert_eq!(
        events,
        [E::Bought { deal_number: 2, seat: 2, count: 2, discarded: cards("7H 6S"), drawn: cards("6C 7C") }]
    );
    assert_eq!(m.d().play.hands[2], cards("6C 7C AH"));
    let others = Svangknack.redact(&m.state, &events[0], Viewer::Seat(3), false);
    assert_eq!(
        others,
        json!({"type": "bought", "deal_number": 2, "seat": 2, "count": 2, "discarded": null, "drawn": null})
    );
    assert!(Svangknack.secrets(&m.state).contains(&(card("7H"), vec![2])));
    assert_eq!(view_json(&m.state, Viewer::Seat(2))["discards"], json!(["7H", "6S"]));
    // Only once.
    assert_eq!(m.refused(2, C::Stand).rule, core::TURN);
    assert_eq!(m.ok(3, C::Stand), [E::Stood { seat: 3 }]);
    m.ok(0, buy("TC 8C 9C"));
    assert_eq!(m.d().drawn[0][..2], cards("8S 9S"));
    assert_eq!(m.d().play.hands[0].len(), 3);
    // The swinger leads the first trick, any card.
    assert_eq!(m.d().phase, Phase::Playing);
    assert_eq!(m.to_act(), [2]);
    assert_eq!(Svangknack.legal_moves(&m.state, 2), [play("6C"), play("7C"), play("AH")]);
    let spectator = view_json(&m.state, Viewer::Spectator);
    assert_eq!(
        spectator["buys"],
        json!([{"seat": 2, "turn": {"kind": "bought", "count": 2}}, {"seat": 3, "turn": {"kind": "stood"}}, {"seat": 0, "turn": {"kind": "bought", "count": 3}}])
    );
}

#[test]
fn when_the_talon_runs_out_the_rest_cannot_buy() {
    // Ten players with 36 cards: 30 dealt, 2 turned, 4 left to buy.
    let options = Options { lowest_rank: Some(6), ..Default::default() };
    let mut m = Match::new(10, options);
    m.deal(pack(6));
    m.finish_deal();
    assert!(m.pot() > 0);
    m.deal(deck_for(10, 1, 6, &[], "JH 8H"));
    assert_eq!(m.d().talon.len(), 6);
    m.ok(2, C::Swing);
    // Seats 3 to 5 join, the others pass.
    for seat in [3, 4, 5, 6, 7, 8, 9, 0, 1] {
        m.ok(seat, if (3..=5).contains(&seat) { C::Join } else { C::Pass });
    }
    assert_eq!(m.d().buy_order, [2, 3, 4, 5]);
    let three = m.d().play.hands[2].clone();
    m.ok(2, C::Buy { discard: three });
    assert_eq!(m.d().talon.len(), 1);
    // Seat 3 wants two but only one is left.
    let two = m.d().play.hands[3][..2].to_vec();
    let refusal = m.refused(3, C::Buy { discard: two });
    assert_eq!(refusal.rule, rule::TALON_OUT);
    assert!(refusal.explanation.en.contains("holds only 1"));
    assert!(Svangknack.legal_moves(&m.state, 3).iter().all(|c| !matches!(c, C::Buy { discard } if discard.len() > 1)));
    let one = m.d().play.hands[3][..1].to_vec();
    let events = m.ok(3, C::Buy { discard: one });
    assert!(matches!(events[1], E::TalonRanOut { ref skipped } if skipped == &[4, 5]));
    assert_eq!(m.d().phase, Phase::Playing);
    assert_eq!(m.to_act(), [2]);
    assert_eq!(view_json(&m.state, Viewer::Spectator)["buys"][2], json!({"seat": 4, "turn": {"kind": "skipped"}}));
}

// --- Play -------------------------------------------------------------------------------------

#[test]
fn the_winner_of_the_first_trick_must_lead_a_trump() {
    // Hearts are trumps; seat 2 swings, seat 1 (the dealer) is forced in.
    let mut m = swing_deal("JH 8H");
    m.ok(2, C::Swing);
    m.ok(3, C::Pass);
    m.ok(0, C::Pass);
    m.ok(1, C::Join);
    m.ok(2, C::Stand);
    m.ok(1, C::Stand);
    m.ok(2, play("6S"));
    m.ok(1, play("JD"));
    // Seat 2 took it with the only spade; now it holds AH and 7H.
    assert_eq!(m.to_act(), [2]);
    assert_eq!(m.refused(2, blank("AH")).rule, rule::TRUMP_LEAD);
    assert_eq!(Svangknack.legal_moves(&m.state, 2), [play("7H"), play("AH")]);
    m.ok(2, play("7H"));
    // Seat 1 has no hearts: it must blank, and its blank cannot win.
    assert_eq!(m.refused(1, play("QD")).rule, rule::BLANK_FOLLOW);
    let events = m.ok(1, blank("KD"));
    assert!(matches!(events[1], E::TrickWon { trick_number: 2, winner: 2, reason: Won::HighestTrump, .. }));
    m.ok(2, play("AH"));
    let events = m.ok(1, play("QD"));
    // Rivet: one player took all three tricks and takes the whole pot of 9.
    let (payments, rivet, out, pot) = settled(&events);
    assert_eq!(rivet, Some(2));
    assert_eq!(
        payments[0],
        Payment::new(
            Account::Pot,
            Account::Seat(2),
            9,
            rule::RIVET,
            payments[0].explanation.sv.clone(),
            payments[0].explanation.en.clone()
        )
    );
    assert!(payments[0].explanation.en.contains("rivet"));
    assert_eq!((payments[1].from, payments[1].amount, payments[1].rule.as_str()), (Account::Seat(1), 9, rule::FORFEIT));
    assert_eq!((out, pot), (false, 9));
    assert_eq!(m.pot(), 9);
}

#[test]
fn a_blanked_lead_wins_unless_someone_trumps_and_blanked_followers_are_worthless() {
    // Each play as (seat, card, blanked); the winner as the events and views tell it.
    let won = |plays: &[(Seat, &str, bool)]| {
        let trick = Trick { leader: plays[0].0, plays: plays.iter().map(|&(s, c, _)| (s, card(c))).collect() };
        let blanked: Vec<Card> = plays.iter().filter(|p| p.2).map(|p| card(p.1)).collect();
        let (seat, c, reason) = trick_winner(&trick, Suit::Hearts, |c| blanked.contains(&c));
        let (c, reason) = shown_win(c, reason, blanked.contains(&c));
        (seat, c, reason)
    };
    // Nobody trumps: the blanked lead wins, whatever the others blanked.
    assert_eq!(won(&[(1, "6C", true), (2, "AD", true), (3, "AC", true)]), (1, None, Won::BlankedLead));
    // The lowest trump beats a blanked lead.
    assert_eq!(won(&[(1, "6C", true), (2, "7H", false), (3, "AC", true)]), (2, Some(card("7H")), Won::HighestTrump));
    // A trump lead followed by blanks: the leader wins.
    assert_eq!(won(&[(1, "6H", false), (2, "AS", true), (3, "AC", true)]), (1, Some(card("6H")), Won::HighestTrump));
    // Ordinary tricks: highest trump, else highest of the suit led.
    assert_eq!(won(&[(1, "KC", false), (2, "AC", false), (3, "6H", false)]).0, 3);
    assert_eq!(
        won(&[(1, "KC", false), (2, "AC", false), (3, "AS", false)]),
        (2, Some(card("AC")), Won::HighestOfSuitLed)
    );
}

#[test]
fn the_blank_rules_as_pure_functions() {
    let hearts = Suit::Hearts;
    let hand = cards("6H 9C AS");
    let new = Trick::led_by(0);
    assert_eq!(playable(&hand, 2, &new, hearts), (cards("6H"), vec![]));
    assert_eq!(playable(&cards("9C AS"), 2, &new, hearts), (vec![], cards("9C AS")));
    let led = Trick { leader: 0, plays: vec![(0, card("KC"))] };
    assert_eq!(playable(&hand, 1, &led, hearts), (cards("9C"), vec![]));
    assert_eq!(playable(&hand, 3, &led, hearts), (cards("9C"), vec![]));
    assert_eq!(playable(&cards("6H AS"), 3, &led, hearts).0, cards("6H AS"));
}

// --- Payment ----------------------------------------------------------------------------------

#[test]
fn each_trick_takes_a_third_and_those_without_pay_the_pot() {
    let s = settle(12, &[0, 2, 3], &[1, 0, 2, 0]);
    let amounts: Vec<(Account, Account, i64)> = s.payments.iter().map(|p| (p.from, p.to, p.amount)).collect();
    assert_eq!(
        amounts,
        [
            (Account::Pot, Account::Seat(0), 4),
            (Account::Pot, Account::Seat(2), 8),
            (Account::Seat(3), Account::Pot, 12)
        ]
    );
    assert_eq!((s.rivet, s.pot_went_out, s.pot), (None, false, 12));
}

#[test]
fn when_everyone_in_took_a_trick_the_pot_goes_out_and_the_next_deal_is_forced() {
    let s = settle(9, &[0, 1, 2], &[1, 1, 1]);
    assert_eq!((s.pot_went_out, s.pot, s.payments.len()), (true, 0, 3));
    // Three players, each takes one trick of the forced first deal.
    let mut m = Match::new(3, Options::default());
    m.deal(deck_for(3, 0, 6, &[(1, "AS 7H 7C"), (2, "KS 8S 8C"), (0, "QS 9H AC")], "9S"));
    for (seat, c) in
        [(1, play("AS")), (2, play("KS")), (0, play("QS")), (1, blank("7H")), (2, play("8S")), (0, blank("9H"))]
    {
        m.ok(seat, c);
    }
    for (seat, c) in [(2, play("8C")), (0, play("AC"))] {
        m.ok(seat, c);
    }
    let (_, rivet, out, pot) = settled(&m.ok(1, play("7C")));
    assert_eq!((rivet, out, pot), (None, true, 0));
    assert_eq!(m.balances(), [0, 0, 0]);
    let events = m.deal(pack(6));
    let E::DealStarted { forced, dealer, .. } = &events[0] else { panic!() };
    assert_eq!((*forced, *dealer), (true, 1));
    assert!(matches!(events[2], E::TrumpCardTurned { .. }));
}

#[test]
fn an_indivisible_pot_leaves_its_remainder_and_rivet_takes_it_all() {
    let s = settle(10, &[0, 1], &[1, 2]);
    assert_eq!(s.payments.iter().map(|p| p.amount).collect::<Vec<_>>(), [3, 6]);
    assert_eq!((s.pot, s.pot_went_out), (1, false));
    let s = settle(10, &[0, 1], &[3, 0]);
    assert_eq!(
        s.payments.iter().map(|p| (p.amount, p.rule.as_str())).collect::<Vec<_>>(),
        [(10, rule::RIVET), (10, rule::FORFEIT)]
    );
    assert_eq!(s.pot, 10);
    assert!(Svangknack.rulebook().rule(rule::INDIVISIBLE).unwrap().house_rule);
}

// --- What the bots read ----------------------------------------------------------------------

#[test]
fn the_bots_read_voids_from_suits_not_followed_and_trumps_from_blanks() {
    let mut m = forced_four();
    let trumps = m.d().trumps;
    assert_eq!(trumps, Some(Suit::Spades));
    let void_in = |m: &Match, seat: Seat| -> Vec<Suit> {
        let void = bot::voids(m.d(), trumps);
        Suit::ALL.into_iter().filter(|&s| void[seat][s as usize]).collect()
    };
    for (seat, c) in [(1, play("AS")), (2, play("QS")), (3, play("7S")), (0, play("6H"))] {
        m.ok(seat, c);
    }
    assert_eq!(void_in(&m, 0), [Suit::Spades], "a heart on a spade lead");
    // The second trick, led blanked: following a blanked club with a trump shows no club void.
    m.ok(1, blank("7C"));
    assert_eq!(void_in(&m, 1), [Suit::Spades], "a blank shows no trumps, while the trick is open too");
    m.ok(2, blank("8H"));
    m.ok(3, play("8S"));
    m.ok(0, blank("6C"));
    assert_eq!([void_in(&m, 2), void_in(&m, 3)], [vec![Suit::Spades], vec![]]);
    // The third trick is read by the suit led again, the open trick included.
    m.ok(3, play("TC"));
    m.ok(0, play("6D"));
    assert_eq!(void_in(&m, 0), [Suit::Clubs, Suit::Spades]);
    assert_eq!(void_in(&m, 1), [Suit::Spades]);
}

// --- The match ------------------------------------------------------------------------------------

#[test]
fn the_match_ends_when_the_pot_goes_out_after_the_scheduled_deals() {
    for seed in 0..10 {
        let mut m = Match::new(3, Options { rounds: 2, ..Default::default() });
        let mut deck = pack(6);
        let mut rng = crate::random::Rng::new(seed);
        while !Svangknack.status(&m.state).is_finished() {
            rng.shuffle(&mut deck);
            m.deal(deck.clone());
            let events = m.finish_deal();
            let after = m.state.deals.number >= 6 && m.pot() == 0;
            assert_eq!(events.iter().any(|e| matches!(e, E::MatchEnded { .. })), after);
            assert!(m.state.deals.number < 200, "seed {seed}: no end in sight");
        }
        let balances = m.balances();
        assert_eq!(balances.iter().sum::<i64>(), 0);
        let Status::Finished { outcome } = Svangknack.status(&m.state) else { panic!() };
        assert_eq!(outcome.winners, match_winners(&balances));
        assert_eq!(m.refused(0, C::Swing).rule, core::MATCH_OVER);
        assert!(m.try_deal(pack(6)).is_err());
    }
    assert_eq!(match_winners(&[3, -4, 3, -2]), [0, 2]);
}

#[test]
fn commands_and_events_have_their_json_shapes() {
    for (text, command) in [
        (json!({"type": "swing"}), C::Swing),
        (json!({"type": "pass"}), C::Pass),
        (json!({"type": "choose_trumps", "suit": "hearts"}), C::ChooseTrumps { suit: Suit::Hearts }),
        (json!({"type": "join"}), C::Join),
        (json!({"type": "buy", "discard": ["7C", "6H"]}), buy("7C 6H")),
        (json!({"type": "stand"}), C::Stand),
        (json!({"type": "play", "card": "AS"}), play("AS")),
        (json!({"type": "blank", "card": "7D"}), blank("7D")),
    ] {
        assert_eq!(serde_json::from_value::<Command>(text.clone()).unwrap(), command);
        assert_eq!(serde_json::to_value(&command).unwrap(), text);
    }
    let e = E::TrickWon {
        trick_number: 2,
        winner: 1,
        card: None,
        reason: Won::BlankedLead,
        plays: vec![TrickPlay { seat: 1, card: None, blanked: true }, TrickPlay { seat: 2, card: None, blanked: true }],
    };
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"type": "trick_won", "trick_number": 2, "winner": 1, "card": null, "reason": "blanked-lead",
               "plays": [{"seat": 1, "card": null, "blanked": true}, {"seat": 2, "card": null, "blanked": true}]})
    );
    let m = after_forced_four();
    let settled = m.log.iter().find(|e| matches!(e, E::DealSettled { .. })).unwrap();
    let v = serde_json::to_value(settled).unwrap();
    assert_eq!(v["type"], "deal_settled");
    assert_eq!(v["payments"][0]["from"], "pot");
    assert_eq!(v["payments"][0]["to"], json!({"seat": 1}));
    assert_eq!(v["payments"][0]["rule"], rule::SHARE);
    assert!(v["payments"][0]["explanation"]["sv"].as_str().unwrap().contains("tredjedel"));
}

#[test]
fn deal_started_shows_each_seat_only_its_own_hand() {
    let m = forced_four();
    let e = &m.log[0];
    let own = Svangknack.redact(&m.state, e, Viewer::Seat(1), false);
    assert!(own.get("deck").is_none() && own.get("talon").is_none());
    assert_eq!(own["talon_count"], 24);
    assert_eq!(own["hands"], json!([null, ["7C", "KH", "AS"], null, null]));
    assert_eq!(Svangknack.redact(&m.state, e, Viewer::Spectator, false)["hands"], json!([null, null, null, null]));
    let view = view_json(&m.state, Viewer::Seat(1));
    assert_eq!(view["hand"], json!(["7C", "KH", "AS"]));
    assert!(view.get("hands").is_none() && view.get("deck").is_none());
    // Before any blank the record is whole.
    assert_eq!(view_json(&m.state, Viewer::Record)["hands"].as_array().unwrap().len(), 4);
    let secrets = Svangknack.secrets(&m.state);
    assert_eq!(secrets.len(), 35, "all but the turned card");
    assert!(secrets.iter().all(|(c, who)| *c != card("9S") && who.len() <= 1));
}

// --- Random matches ------------------------------------------------------------------------------

/// Replays a match log through the typed rules and checks what the harness cannot: the
/// stakes, the pot's arithmetic, the end of the match, and that a blanked card never shows
/// in any record, at the deal's end or at the match's.
fn check_log(players: usize, options: &Value, book: &Rulebook, log: &[Value]) {
    let options: Options = serde_json::from_value(options.clone()).unwrap();
    let stake = options.stake;
    let mut state = Svangknack.setup(players, options).unwrap();
    let mut deals: Vec<(u32, Vec<Event>)> = Vec::new();
    let mut blanked: Vec<(u32, Seat, Card)> = Vec::new();
    let mut ended = false;
    for value in log {
        let event: Event = serde_json::from_value(value.clone()).unwrap();
        if let E::DealStarted { deal_number, pot, forced, .. } = &event {
            assert_eq!(*forced, *pot == 0);
            deals.push((*deal_number, Vec::new()));
        }
        let number = deals.last().unwrap().0;
        deals.last_mut().unwrap().1.push(event.clone());
        Svangknack.evolve(&mut state, &event);
        assert_eq!(state.pot() % 3, 0, "the pot always divides by three");
        match &event {
            E::StakesPaid { payments, .. } => {
                let forehand = state.deals.deal.as_ref().unwrap().forehand;
                let from: Vec<Account> = payments.iter().map(|p| p.from).collect();
                assert_eq!(from, (0..3).map(|i| Account::Seat((forehand + i) % players)).collect::<Vec<_>>());
                assert!(payments.iter().all(|p| p.amount == stake));
            }
            E::CardBlanked { seat, card, .. } => {
                blanked.push((number, *seat, *card));
                assert!(Svangknack.secrets(&state).contains(&(*card, vec![*seat])));
            }
            E::DealSettled { payments, rivet, tricks_taken, pot_went_out, pot, .. } => {
                assert!(payments.iter().all(|p| book.rule(&p.rule).is_some()));
                assert_eq!(rivet.is_some(), tricks_taken.contains(&3));
                assert_eq!(*pot_went_out, *pot == 0);
                let due = state.deals.number >= state.deals_scheduled() && *pot == 0;
                ended = due;
                let this_deal: Vec<_> = blanked.iter().copied().filter(|b| b.0 == number).collect();
                check_records(&state, &deals, &this_deal);
            }
            E::MatchEnded { winners, balances } => {
                assert!(ended, "the match ended early");
                assert_eq!(winners, &match_winners(balances));
            }
            _ => {}
        }
    }
    assert!(state.deals.outcome.is_some() && ended);
    assert_eq!(state.pot(), 0);
    check_records(&state, &deals, &blanked);
}

fn check_records(state: &State, deals: &[(u32, Vec<Event>)], blanked: &[(u32, Seat, Card)]) {
    let current = state.deals.deal.as_ref().unwrap().number;
    for (number, events) in deals {
        let here: Vec<(Seat, Card)> = blanked.iter().filter(|b| b.0 == *number).map(|b| (b.1, b.2)).collect();
        let Some(&(first_owner, _)) = here.first() else { continue };
        let seat = (first_owner + 1) % state.players();
        for viewer in [Viewer::Record, Viewer::Spectator, Viewer::Seat(seat)] {
            let hidden: Vec<Card> =
                here.iter().filter(|(owner, _)| viewer != Viewer::Seat(*owner)).map(|b| b.1).collect();
            let leaked = |value: &Value| cards_in(value).into_iter().find(|c| hidden.contains(c));
            // Only these events name cards that are not public.
            for event in events.iter().filter(|e| e.deal_number().is_some() || matches!(e, E::TrickWon { .. })) {
                let shown = Svangknack.redact(state, event, viewer, true);
                assert_eq!(leaked(&shown), None, "deal {number}: {viewer:?} sees a blanked card in {shown}");
            }
            if *number == current {
                assert_eq!(leaked(&view_json(state, viewer)), None, "{viewer:?} sees a blanked card in the view");
            }
        }
    }
}

/// Many cheap random matches over every test option set, each checked on its log; the
/// generic tests check the rest on the way.
#[test]
fn random_match_logs_add_up() {
    let book = Svangknack.rulebook();
    let plan = Plan { log_only: 25, ..Plan::default() };
    let played = random_matches(&*erase(Svangknack), plan, |players, options, report| {
        check_log(players, options, &book, &report.log);
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played, 10 * 4 * 25);
}
