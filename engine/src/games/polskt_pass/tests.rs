//! The rules of this game as its texts state them, with their worked examples; the generic
//! tests every game passes are in `tests/every_game.rs`.

use super::*;
use crate::cards::is_permutation;
use crate::cards::{card, cards};
use crate::game::erase;
use crate::game::Status;
use crate::rules::core;
use crate::rules::Rulebook;
use crate::simulate::{random_matches, Driver, Plan};
use serde_json::json;

use super::Command as C;

/// The table as it is sent.
fn view_json(state: &State, viewer: Viewer) -> Value {
    serde_json::to_value(PolsktPass.view(state, viewer)).unwrap()
}

/// A pack that, cut at `at` by the dealer's right-hand neighbour, shows `shown` and deals
/// `hands` (by seat, five each, in the order given: the first three come in the first
/// packet), then turns `turned`.
fn deck_for(players: usize, dealer: Seat, hands: &[&str], turned: &str, shown: &str, at: usize) -> Vec<Card> {
    let table = seat::Table::new(players);
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    assert!(hands.iter().all(|h| h.len() == HAND));
    let order = table.order_from(table.forehand(dealer));
    let mut p: Vec<Card> = Vec::new();
    for (from, to) in [(0, 3), (3, 5)] {
        for &s in &order {
            p.extend_from_slice(&hands[s][from..to]);
        }
    }
    p.push(card(turned));
    let shown = card(shown);
    p.extend(composition(players).into_iter().filter(|c| !p.contains(c) && *c != shown).collect::<Vec<_>>());
    p.push(shown);
    assert!(is_permutation(&p, &composition(players)), "the hands overlap");
    // Undo the cut: the lifted part (the top `at` cards) went under the rest.
    let len = p.len();
    p[len - at..].iter().chain(&p[..len - at]).copied().collect()
}

type Game = Driver<PolsktPass>;

impl Game {
    fn play(&mut self, seat: Seat, code: &str) -> Vec<Event> {
        self.ok(seat, C::Play { card: card(code) })
    }

    /// Plays a whole trick, from the seat to lead.
    fn trick(&mut self, codes: &str) -> Vec<Event> {
        let mut events = Vec::new();
        for code in codes.split_whitespace() {
            let seat = self.to_act()[0];
            events.extend(self.play(seat, code));
        }
        events
    }

    fn deal_ref(&self) -> &Deal {
        self.state.deals.deal.as_ref().unwrap()
    }

    fn books(&self) -> Books {
        self.state.books()
    }

    /// Starts the match as if earlier deals had left these books.
    fn inherit(&mut self, books: Books, next_bet: u32) {
        assert_eq!(books.total(), 0);
        self.state.ledger = ledger_from(&books);
        self.state.reported = books;
        self.state.next_bet = next_bet;
    }
}

fn ended(events: &[Event]) -> (DealOutcome, Option<Seat>, String, Vec<Payment>, i64) {
    events
        .iter()
        .find_map(|e| match e {
            Event::DealEnded { outcome, winner, rule, payments, amount_played_for, .. } => {
                Some((*outcome, *winner, rule.clone(), payments.clone(), *amount_played_for))
            }
            _ => None,
        })
        .expect("the deal ended")
}

fn pay(from: Account, to: Account, amount: i64) -> (Account, Account, i64) {
    (from, to, amount)
}

fn flows(payments: &[Payment]) -> Vec<(Account, Account, i64)> {
    payments.iter().map(|p| (p.from, p.to, p.amount)).collect()
}

fn no_bets() -> Options {
    Options::default()
}

use Account::{Bet, Pot, Seat as S};

// Four players, seat 0 deals, seat 3 cuts, seat 1 is forehand.

/// Seat 1 holds the two top jacks and three top hearts; hearts are turned.
const STRONG: [&str; 4] = ["AD KD QD TD 9D", "JC JS AH KH QH", "AS KS QS TS 9S", "AC KC QC TC 9C"];

/// Hearts turned; played out as in `play_mixed`, seat 1 and seat 3 take two tricks each,
/// seat 1 first, and seat 2 one.
const MIXED: [&str; 4] = ["AD QD QS TS QH", "JC AC KC 9S 9D", "JS AS KS 9C TD", "AH KH QC TC KD"];

fn dealt(players: usize, hands: &[&str], turned: &str, shown: &str, options: Options) -> Game {
    let mut g = Game::new(players, options);
    g.deal(deck_for(players, 0, hands, turned, shown, 10));
    let cutter = players - 1;
    assert_eq!(g.to_act(), [cutter]);
    g.ok(cutter, C::Cut { at: 10 });
    g
}

/// Hearts turned and accepted by `declarer` (seat 1 or 2: the seats before pass).
fn declared(hands: &[&str], declarer: Seat, options: Options) -> Game {
    let mut g = dealt(4, hands, "9H", "TH", options);
    for seat in 1..declarer {
        g.ok(seat, C::Pass);
    }
    g.ok(declarer, C::Accept);
    assert_eq!(g.deal_ref().declarers, [declarer]);
    assert_eq!(g.deal_ref().trumps, Some(Suit::Hearts));
    g
}

fn play_mixed(g: &mut Game) -> Vec<Event> {
    let mut events = g.trick("AC 9C TC TS");
    events.extend(g.trick("KC JS QC QS"));
    events.extend(g.trick("AS AH QH 9S"));
    events.extend(g.trick("KH AD JC KS"));
    events.extend(g.trick("9D TD KD QD"));
    events
}

// -----------------------------------------------------------------------------------------
// The pack and the order of the cards

#[test]
fn the_pack_is_nine_to_ace_with_the_eights_for_five_players() {
    for (players, size) in [(3, 24), (4, 24), (5, 28)] {
        let g = Game::new(players, no_bets());
        let Status::NeedsDeck { composition } = PolsktPass.status(&g.state) else { panic!() };
        assert_eq!(composition.len(), size);
        assert_eq!(composition.iter().any(|c| c.rank() == Some(Rank::EIGHT)), players == 5);
        assert!(composition.iter().all(|c| c.rank() >= Some(Rank::EIGHT)));
    }
    assert!(PolsktPass.setup(2, no_bets()).is_err());
    assert!(PolsktPass.setup(6, no_bets()).is_err());
}

#[test]
fn the_jacks_are_the_top_trumps_clubs_spades_hearts_diamonds() {
    let order: Vec<u8> = cards("JC JS JH JD AH KH QH TH 9H 8H").into_iter().map(strength).collect();
    assert!(order.windows(2).all(|w| w[0] > w[1]), "{order:?}");
    let side: Vec<u8> = cards("AS KS QS TS 9S 8S").into_iter().map(strength).collect();
    assert!(side.windows(2).all(|w| w[0] > w[1]));
    // Every jack is a trump whatever the trump suit, never a card of its printed suit.
    for trumps in Suit::ALL {
        for jack in cards("JC JS JH JD") {
            assert!(is_trump(jack, trumps));
            assert_eq!(effective_suit(jack, trumps), trumps);
        }
    }
    let trick = |leader: Seat, codes: &str| Trick {
        leader,
        plays: cards(codes).into_iter().enumerate().map(|(i, c)| ((leader + i) % 4, c)).collect(),
    };
    // The lowest jack beats the trump ace.
    assert_eq!(trick_winner(&trick(0, "AH JD KH 9S"), Suit::Hearts), (1, card("JD"), WinReason::HighestTrump));
    assert_eq!(trick_winner(&trick(0, "JD JS JC JH"), Suit::Hearts), (2, card("JC"), WinReason::HighestTrump));
    // Any trump beats the suit led; without one the highest of the suit led wins.
    assert_eq!(trick_winner(&trick(2, "AS 9H KS QS"), Suit::Hearts), (3, card("9H"), WinReason::HighestTrump));
    assert_eq!(trick_winner(&trick(2, "QS AD KS TS"), Suit::Hearts), (0, card("KS"), WinReason::HighestOfSuitLed));
    // A led jack of a side suit is a trump lead.
    let t = trick(1, "JS AS 9C QH");
    assert_eq!(led_suit(&t, Suit::Hearts), Some(Suit::Hearts));
    assert_eq!(trick_winner(&t, Suit::Hearts), (1, card("JS"), WinReason::HighestTrump));
    // Eights rank lowest in a side suit (five players).
    assert_eq!(trick_winner(&trick(0, "8C 9C AD KD"), Suit::Hearts), (1, card("9C"), WinReason::HighestOfSuitLed));
}

// -----------------------------------------------------------------------------------------
// Stake, cut and deal

#[test]
fn the_dealer_stakes_every_deal_and_the_pot_keeps_what_is_left() {
    let mut g = Game::new(4, no_bets());
    let events = g.deal(decks::from_rank(Rank::NINE));
    let Event::StakePaid { payment, books } = &events[1] else { panic!() };
    assert_eq!((payment.from, payment.to, payment.amount, payment.rule.as_str()), (S(0), Pot, 10, rule::STAKE));
    assert!(payment.explanation.en.contains("seat 0"));
    assert_eq!(books, &Books { balances: vec![-10, 0, 0, 0], pot: 10, bets: vec![] });
    let view = view_json(&g.state, Viewer::Spectator);
    assert_eq!(
        (view["pot"].clone(), view["balances"].clone(), view["bets"].clone()),
        (json!(10), json!([-10, 0, 0, 0]), json!([]))
    );
    assert_eq!(view["amount_played_for"], 10);
    // A round pass leaves the pot; the next dealer adds the stake to it.
    let mut g = Game::new(4, Options { stake: 7, ..no_bets() });
    g.deal(deck_for(4, 0, &STRONG, "9H", "TH", 10));
    g.ok(3, C::Cut { at: 10 });
    for s in [1, 2, 3, 0] {
        g.ok(s, C::Pass);
    }
    for s in [1, 2, 3] {
        g.ok(s, C::Wieder);
    }
    let events = g.ok(0, C::Wieder);
    assert_eq!(ended(&events).0, DealOutcome::AllPassed);
    assert_eq!(g.books().pot, 7);
    g.deal(decks::from_rank(Rank::NINE));
    assert_eq!(g.deal_ref().dealer, 1);
    assert_eq!(g.books(), Books { balances: vec![-7, -7, 0, 0], pot: 14, bets: vec![] });
}

#[test]
fn nothing_is_done_before_the_deal_and_the_deck_must_be_the_pack() {
    let mut g = Game::new(4, no_bets());
    assert_eq!(g.refused(3, C::Cut { at: 5 }).rule, core::PHASE);
    assert!(PolsktPass.legal_moves(&g.state, 3).is_empty());
    assert_eq!(g.try_deal(decks::from_rank(Rank::EIGHT)).unwrap_err().rule, core::DECK);
    let mut short = decks::from_rank(Rank::NINE);
    short.pop();
    assert_eq!(g.try_deal(short).unwrap_err().rule, core::DECK);
    let mut five = Game::new(5, no_bets());
    assert_eq!(five.try_deal(decks::from_rank(Rank::NINE)).unwrap_err().rule, core::DECK);
    g.deal(decks::from_rank(Rank::NINE));
    assert_eq!(g.try_deal(decks::from_rank(Rank::NINE)).unwrap_err().rule, core::PHASE);
}

#[test]
fn the_player_on_the_dealers_right_cuts_and_shows_the_bottom_card_of_the_lifted_part() {
    let mut g = Game::new(4, no_bets());
    let deck = decks::from_rank(Rank::NINE);
    g.deal(deck.clone());
    assert_eq!(g.deal_ref().cutter(), 3);
    assert_eq!(g.to_act(), [3]);
    assert_eq!(g.legal(3), (3..=21).map(|at| C::Cut { at }).collect::<Vec<_>>());
    assert_eq!(g.refused(1, C::Cut { at: 12 }).rule, core::TURN);
    assert_eq!(g.refused(0, C::Cut { at: 12 }).rule, core::TURN);
    for at in [0, 2, 22, 30] {
        let v = g.refused(3, C::Cut { at });
        assert_eq!(v.rule, rule::CUT_RANGE);
        assert!(v.explanation.en.contains("between 3 and 21"), "{}", v.explanation.en);
    }
    assert_eq!(g.refused(3, C::Pass).rule, core::PHASE);
    assert_eq!(g.refused(1, C::Play { card: card("9C") }).rule, core::TURN);
    // Cut at 12: clubs and diamonds lifted, the ace of diamonds shown and put underneath.
    let events = g.ok(3, C::Cut { at: 12 });
    assert_eq!(events[0], Event::PackCut { seat: 3, at: 12, shown_card: card("AD"), cutter_took: false });
    let d = g.deal_ref();
    assert_eq!(d.pack.last(), Some(&card("AD")), "the shown card is at the bottom of the rest");
    assert!(!PolsktPass.secrets(&g.state).iter().any(|(c, _)| *c == card("AD")), "the shown card is public");
    let view = view_json(&g.state, Viewer::Spectator);
    assert_eq!(view["cut"], json!({"at": 12, "shown_card": "AD", "cutter_took": false}));
}

#[test]
fn five_each_three_then_two_from_the_dealers_left_then_a_card_is_turned() {
    let mut g = Game::new(4, no_bets());
    g.deal(decks::from_rank(Rank::NINE));
    let events = g.ok(3, C::Cut { at: 12 });
    // After the cut the pack runs hearts, spades, clubs, diamonds: seat 1 gets three
    // hearts, seat 2 the next three, and so on; then two each in the same order.
    let Event::CardsDealt { hands, turned_card, undealt } = &events[1] else { panic!() };
    assert_eq!(hands[1], cards("9H TH JH 9C TC"));
    assert_eq!(hands[2], cards("QH KH AH JC QC"));
    assert_eq!(hands[3], cards("9S TS JS KC AC"));
    assert_eq!(hands[0], cards("QS KS AS 9D TD"));
    assert_eq!(*turned_card, card("JD"));
    assert_eq!(*undealt, 3);
    // The rest of the pack is not used and stays hidden from everyone.
    let rest: Vec<Card> =
        PolsktPass.secrets(&g.state).into_iter().filter(|(_, who)| who.is_empty()).map(|(c, _)| c).collect();
    assert_eq!(rest, cards("QD KD"));
    assert_eq!(g.deal_ref().pack, cards("QD KD AD"));
}

#[test]
fn three_players_play_the_four_player_rules_with_24_cards() {
    let mut g = Game::new(3, no_bets());
    g.deal(decks::from_rank(Rank::NINE));
    let d = g.deal_ref();
    assert_eq!((d.dealer, d.cutter(), d.forehand()), (0, 2, 1));
    assert_eq!(g.refused(1, C::Cut { at: 5 }).rule, core::TURN);
    let events = g.ok(2, C::Cut { at: 5 });
    let Event::CardsDealt { hands, undealt, .. } = &events[1] else { panic!() };
    assert!(hands.iter().all(|h| h.len() == 5));
    assert_eq!(*undealt, 24 - 16);
    assert!(PolsktPass.rulebook().rule(rule::THREE_PLAYERS).unwrap().house_rule);
}

#[test]
fn a_turned_jack_is_taken_by_the_dealer_who_declares_alone_without_bidding() {
    let mut g = Game::new(4, no_bets());
    g.deal(decks::from_rank(Rank::NINE));
    let events = g.ok(3, C::Cut { at: 12 });
    assert_eq!(
        events[2],
        Event::TurnedCardTaken { seat: 0, card: card("JD"), why: TakeReason::JackTurned, rule: rule::MUST_TAKE.into() }
    );
    assert_eq!(
        events[3],
        Event::TrumpsSet {
            trumps: Suit::Diamonds,
            declarers: vec![0],
            from: TrumpsFrom::DealerTook,
            rule: rule::DEALER_TOOK.into()
        }
    );
    assert_eq!(events.len(), 4);
    // No bidding: the dealer, holding six, puts one away before forehand leads.
    assert_eq!(g.deal_ref().phase, TablePhase::Discarding);
    assert_eq!(g.to_act(), [0]);
    assert_eq!(g.deal_ref().play.hands[0].len(), 6);
    assert_eq!(g.refused(0, C::Accept).rule, core::PHASE);
    assert_eq!(g.refused(1, C::Play { card: card("9H") }).rule, core::TURN);
    g.ok(0, C::Discard { card: card("JD") });
    assert_eq!(g.deal_ref().phase, TablePhase::Playing);
    assert_eq!(g.to_act(), [1], "forehand leads");
    // The turned card is public, but where it went after the discard is not told.
    let view = view_json(&g.state, Viewer::Seat(2));
    assert_eq!(view["turned_card"], "JD");
    assert_eq!(view["turned_card_taken"], true);
    assert_eq!(view["discarded"], json!([0]));
    assert_eq!(view["discard"], Value::Null);
    assert_eq!(view_json(&g.state, Viewer::Seat(0))["discard"], "JD");
}

#[test]
fn a_jack_shown_at_the_cut_goes_to_the_cutter_and_both_declare() {
    let hands = ["AD KD QD TD 9D", "JC JS AH KH QH", "AS KS QS TS 9S", "AC KC QC TC 9C"];
    let mut g = Game::new(4, no_bets());
    g.deal(deck_for(4, 0, &hands, "9H", "JD", 10));
    let events = g.ok(3, C::Cut { at: 10 });
    assert_eq!(events[0], Event::PackCut { seat: 3, at: 10, shown_card: card("JD"), cutter_took: true });
    assert!(matches!(&events[2], Event::TurnedCardTaken { seat: 0, why: TakeReason::CutterTook, .. }));
    let Event::TrumpsSet { trumps, declarers, rule: r, .. } = &events[3] else { panic!() };
    assert_eq!((*trumps, declarers.as_slice(), r.as_str()), (Suit::Hearts, &[0, 3][..], rule::TWO_DECLARERS));
    let d = g.deal_ref();
    assert!(d.play.hands[3].contains(&card("JD")) && d.play.hands[3].len() == 6);
    assert!(d.play.hands[0].contains(&card("9H")) && d.play.hands[0].len() == 6);
    // Both put a card away, in either order, each seeing only its own.
    assert_eq!(g.to_act(), [0, 3]);
    assert_eq!(g.refused(1, C::Discard { card: card("JC") }).rule, core::TURN);
    assert_eq!(g.refused(3, C::Discard { card: card("AD") }).rule, core::CARD_NOT_HELD);
    let events = g.ok(3, C::Discard { card: card("9C") });
    assert_eq!(g.to_act(), [0]);
    assert_eq!(g.refused(3, C::Discard { card: card("TC") }).rule, core::TURN);
    let hidden = PolsktPass.redact(&g.state, &events[0], Viewer::Seat(0), false);
    assert_eq!(hidden, json!({"type": "card_discarded", "seat": 3, "card": null, "hidden": true}));
    assert_eq!(PolsktPass.redact(&g.state, &events[0], Viewer::Spectator, false)["card"], Value::Null);
    assert_eq!(PolsktPass.redact(&g.state, &events[0], Viewer::Seat(3), false)["card"], "9C");
    assert_eq!(PolsktPass.redact(&g.state, &events[0], Viewer::Record, false)["card"], "9C");
    assert_eq!(PolsktPass.redact(&g.state, &events[0], Viewer::Seat(1), true)["card"], "9C");
    assert!(PolsktPass.secrets(&g.state).contains(&(card("9C"), vec![3])));
    g.ok(0, C::Discard { card: card("9D") });
    assert_eq!(g.to_act(), [1]);
}

#[test]
fn a_turned_ace_is_the_dealers_choice_when_the_cutter_took_nothing() {
    let hands = ["AD KD QD TD 9D", "JC JS 9H KH QH", "AS KS QS TS 9S", "AC KC QC TC 9C"];
    let mut g = dealt(4, &hands, "AH", "TH", no_bets());
    assert_eq!(g.deal_ref().phase, TablePhase::TurnedCard);
    assert_eq!(g.to_act(), [0]);
    assert_eq!(g.legal(0), [C::TakeAce, C::LeaveAce]);
    assert_eq!(g.refused(1, C::LeaveAce).rule, core::TURN);
    assert_eq!(g.refused(0, C::Accept).rule, core::PHASE);
    assert_eq!(view_json(&g.state, Viewer::Spectator)["ace_choice"], true);
    let mut taken = Game { rules: PolsktPass, state: g.state.clone(), log: Vec::new() };
    let events = taken.ok(0, C::TakeAce);
    assert!(
        matches!(&events[0], Event::TurnedCardTaken { why: TakeReason::AceChosen, rule: r, .. } if r == rule::MAY_TAKE_ACE)
    );
    assert_eq!(taken.deal_ref().declarers, [0]);
    assert_eq!(taken.deal_ref().trumps, Some(Suit::Hearts));
    assert_eq!(taken.to_act(), [0]);
    // Left: it stays on the table and forehand opens the bidding.
    let events = g.ok(0, C::LeaveAce);
    assert_eq!(
        events,
        [Event::TurnedCardLeft { card: card("AH"), why: LeaveReason::AceDeclined, rule: rule::MAY_TAKE_ACE.into() }]
    );
    assert_eq!(g.deal_ref().phase, TablePhase::Bidding);
    assert_eq!(g.to_act(), [1]);
    assert_eq!(g.deal_ref().play.hands[0].len(), 5);
}

#[test]
fn a_turned_ace_must_be_taken_when_the_cutter_took_a_jack() {
    let hands = ["AD KD QD TD 9D", "JC JS 9H KH QH", "AS KS QS TS 9S", "AC KC QC TC 9C"];
    let mut g = Game::new(4, no_bets());
    g.deal(deck_for(4, 0, &hands, "AH", "JD", 10));
    let events = g.ok(3, C::Cut { at: 10 });
    assert!(matches!(&events[2], Event::TurnedCardTaken { why: TakeReason::CutterTook, .. }));
    assert_eq!(g.deal_ref().declarers, [0, 3]);
    assert_eq!(g.refused(0, C::TakeAce).rule, core::PHASE);
    // Between the deal and the forced take there is no choice to make either.
    let mut fresh = Game::new(4, no_bets());
    fresh.deal(deck_for(4, 0, &hands, "AH", "JD", 10));
    fresh.apply(events[..2].to_vec());
    assert_eq!(fresh.deal_ref().phase, TablePhase::TurnedCard);
    assert!(fresh.legal(0).is_empty());
    let v = PolsktPass.decide(&fresh.state, 0, &C::TakeAce).unwrap_err();
    assert_eq!(v.rule, rule::MAY_TAKE_ACE);
    assert!(v.explanation.en.contains("the cutter took no card"));
}

#[test]
fn any_other_turned_card_stays_and_forehand_opens_the_bidding() {
    let mut g = dealt(4, &STRONG, "9H", "TH", no_bets());
    let Event::TurnedCardLeft { why, rule: r, .. } = g.log.last().unwrap() else { panic!() };
    assert_eq!((*why, r.as_str()), (LeaveReason::NotJackOrAce, rule::TURNED_STAYS));
    assert!(!g.deal_ref().turned_taken);
    assert_eq!(g.to_act(), [1]);
    assert_eq!(g.legal(1), [C::Accept, C::Pass]);
    assert_eq!(g.refused(2, C::Pass).rule, core::TURN);
    let v = g.refused(1, C::NameSuit { suit: Suit::Spades });
    assert_eq!(v.rule, rule::ROUND_ONE);
    assert!(v.explanation.en.contains("accept the turned suit, hearts"));
    assert_eq!(g.refused(1, C::Wieder).rule, rule::ROUND_ONE);
    g.ok(1, C::Pass);
    let events = g.ok(2, C::Accept);
    assert_eq!(events[0], Event::BidMade { seat: 2, round: 1, call: Call::Accept, suit: Some(Suit::Hearts) });
    assert_eq!(
        events[1],
        Event::TrumpsSet {
            trumps: Suit::Hearts,
            declarers: vec![2],
            from: TrumpsFrom::RoundOne,
            rule: rule::FIRST_ENDS.into()
        }
    );
    // The first to accept ends the bidding: nobody holds six, so forehand leads at once.
    assert_eq!(g.deal_ref().phase, TablePhase::Playing);
    assert_eq!(g.to_act(), [1]);
    assert_eq!(g.refused(3, C::Pass).rule, core::TURN);
    let view = view_json(&g.state, Viewer::Spectator);
    assert_eq!(view["declarers"], json!([2]));
    assert_eq!(view["trumps"], "hearts");
    assert_eq!(view["bidding"]["calls"].as_array().unwrap().len(), 2);
}

#[test]
fn in_round_two_forehand_may_name_any_suit_and_the_others_only_the_other_three() {
    let mut g = dealt(4, &STRONG, "9H", "TH", no_bets());
    for s in [1, 2, 3, 0] {
        g.ok(s, C::Pass);
    }
    assert_eq!(g.deal_ref().bidding_turn(), Some((2, 1)));
    let all: Vec<C> = Suit::ALL.into_iter().map(|suit| C::NameSuit { suit }).chain([C::Wieder]).collect();
    assert_eq!(g.legal(1), all);
    assert_eq!(g.refused(1, C::Pass).rule, rule::ROUND_TWO);
    assert_eq!(g.refused(1, C::Accept).rule, rule::ROUND_TWO);
    g.ok(1, C::Wieder);
    assert!(!g.legal(2).contains(&C::NameSuit { suit: Suit::Hearts }));
    assert_eq!(g.legal(2).len(), 4);
    let v = g.refused(2, C::NameSuit { suit: Suit::Hearts });
    assert_eq!(v.rule, rule::OTHERS_OTHER_SUITS);
    assert!(v.explanation.en.contains("only forehand"));
    let events = g.ok(2, C::NameSuit { suit: Suit::Spades });
    assert_eq!(events[0], Event::BidMade { seat: 2, round: 2, call: Call::NameSuit, suit: Some(Suit::Spades) });
    assert!(matches!(&events[1], Event::TrumpsSet { trumps: Suit::Spades, from: TrumpsFrom::RoundTwo, .. }));
    assert_eq!(g.deal_ref().declarers, [2]);
    assert_eq!(view_json(&g.state, Viewer::Spectator)["trumps_rule"], rule::ROUND_TWO);

    // Forehand may choose the turned suit in round two.
    let mut g = dealt(4, &STRONG, "9H", "TH", no_bets());
    for s in [1, 2, 3, 0] {
        g.ok(s, C::Pass);
    }
    g.ok(1, C::NameSuit { suit: Suit::Hearts });
    assert_eq!((g.deal_ref().declarers.clone(), g.deal_ref().trumps), (vec![1], Some(Suit::Hearts)));
}

#[test]
fn passing_twice_all_round_is_a_round_pass_and_the_deal_moves_on() {
    let mut g = dealt(4, &STRONG, "9H", "TH", no_bets());
    for s in [1, 2, 3, 0] {
        g.ok(s, C::Pass);
    }
    for s in [1, 2, 3] {
        g.ok(s, C::Wieder);
    }
    let events = g.ok(0, C::Wieder);
    let (outcome, winner, r, payments, amount) = ended(&events);
    assert_eq!(
        (outcome, winner, r.as_str(), payments.len(), amount),
        (DealOutcome::AllPassed, None, rule::ALL_PASS, 0, 10)
    );
    assert!(matches!(PolsktPass.status(&g.state), Status::NeedsDeck { .. }));
    assert_eq!(g.refused(1, C::Pass).rule, core::PHASE);
    g.deal(decks::from_rank(Rank::NINE));
    let d = g.deal_ref();
    assert_eq!((d.dealer, d.cutter(), d.forehand()), (1, 0, 2));
    assert_eq!(g.books().pot, 20);
}

// -----------------------------------------------------------------------------------------
// Play

#[test]
fn a_jack_led_is_a_trump_lead_on_the_table() {
    let mut g = declared(&STRONG, 1, no_bets());
    g.play(1, "JS");
    assert_eq!(view_json(&g.state, Viewer::Spectator)["trick"]["led_suit"], json!("hearts"));
    // Seat 2 holds spades but no trumps: anything goes.
    assert_eq!(g.legal(2).len(), 5);
}

#[test]
fn forehand_leads_and_suit_must_be_followed_with_the_jacks_counting_as_trumps() {
    let mut g = declared(&MIXED, 1, no_bets());
    assert_eq!(g.to_act(), [1]);
    assert_eq!(g.refused(2, C::Play { card: card("9C") }).rule, core::TURN);
    g.play(1, "AC");
    // Seat 2 holds 9C and the jack of spades: the jack is a trump, so 9C is its only club.
    assert_eq!(g.legal(2), [C::Play { card: card("9C") }]);
    let v = g.refused(2, C::Play { card: card("JS") });
    assert_eq!(v.rule, rule::FOLLOW_SUIT);
    assert!(v.explanation.en.contains("You played JS but hold clubs"), "{}", v.explanation.en);
    assert!(!v.explanation.en.contains("9C"), "the explanation names no hidden card");
    assert_eq!(g.refused(2, C::Play { card: card("QH") }).rule, core::CARD_NOT_HELD);
    g.play(2, "9C");
    g.play(3, "TC");
    // Seat 0 has no clubs: anything goes.
    assert_eq!(g.legal(0).len(), 5);
    let events = g.play(0, "TS");
    assert!(events.contains(&Event::TrickWon {
        trick_number: 1,
        winner: 1,
        card: card("AC"),
        reason: WinReason::HighestOfSuitLed,
        plays: vec![
            Play { seat: 1, card: card("AC") },
            Play { seat: 2, card: card("9C") },
            Play { seat: 3, card: card("TC") },
            Play { seat: 0, card: card("TS") },
        ],
    }));
    assert_eq!(g.to_act(), [1], "the winner leads");
    g.play(1, "KC");
    // Void in clubs now, seat 2 may trump with its jack.
    assert_eq!(g.legal(2).len(), 4);
    g.play(2, "JS");
    g.trick("QC QS");
    assert_eq!(g.to_act(), [2]);
    g.trick("AS AH QH 9S");
    // A trump lead: seat 1's only trump is the jack of clubs, and it must be played.
    g.play(3, "KH");
    g.play(0, "AD");
    assert_eq!(g.legal(1), [C::Play { card: card("JC") }]);
    let v = g.refused(1, C::Play { card: card("9D") });
    assert!(v.explanation.en.contains("hold trumps (the jacks count as trumps)"));
}

#[test]
fn the_first_to_two_tricks_wins_when_nobody_takes_three_and_the_failed_declarer_pays_a_bet() {
    let mut g = declared(&MIXED, 2, no_bets());
    let events = play_mixed(&mut g);
    assert_eq!(g.deal_ref().play.taken, [0, 2, 1, 2]);
    let (outcome, winner, r, payments, amount) = ended(&events);
    assert_eq!((outcome, winner, r.as_str(), amount), (DealOutcome::Won, Some(1), rule::FIRST_TO_TWO, 10));
    assert_eq!(flows(&payments), [pay(Pot, S(1), 10), pay(S(2), Bet(1), 10)]);
    assert_eq!(payments[1].rule, rule::FAILED_DECLARER);
    assert!(payments[1].explanation.en.contains("the amount played for, 10"));
    assert_eq!(
        g.books(),
        Books { balances: vec![-10, 10, -10, 0], pot: 0, bets: vec![BetRecord { bet: 1, amount: 10 }] }
    );
    // The next deal is played for the pot and that bet.
    g.deal(decks::from_rank(Rank::NINE));
    assert_eq!(g.deal_ref().bet_in_play, Some(1));
    assert_eq!(view_json(&g.state, Viewer::Spectator)["amount_played_for"], 20);
}

#[test]
fn deal_winner_three_tricks_or_first_to_two_or_nobody() {
    assert_eq!(deal_winner(&[1, 1, 2, 1, 2], 4), Some((1, rule::THREE_TRICKS)));
    assert_eq!(deal_winner(&[2, 3, 3, 2, 2], 4), Some((2, rule::THREE_TRICKS)));
    assert_eq!(deal_winner(&[2, 3, 3, 2, 1], 4), Some((3, rule::FIRST_TO_TWO)));
    assert_eq!(deal_winner(&[0, 1, 2, 0, 1], 3), Some((0, rule::FIRST_TO_TWO)));
    assert_eq!(deal_winner(&[0, 1, 2, 3, 4], 5), None);
}

#[test]
fn a_declarer_who_wins_takes_the_pot_and_pays_nothing() {
    let mut g = declared(&STRONG, 1, no_bets());
    // Seat 1 takes every trick without announcing la vola: an ordinary win.
    let events = g.finish_deal();
    let (outcome, winner, r, payments, _) = ended(&events);
    assert_eq!((outcome, winner, r.as_str()), (DealOutcome::Won, Some(1), rule::THREE_TRICKS));
    // The deal was settled after three tricks, but all five are played.
    assert_eq!(g.deal_ref().play.tricks.len(), 5);
    assert_eq!(g.deal_ref().play.taken[1], 5);
    assert_eq!(flows(&payments), [pay(Pot, S(1), 10)]);
    assert_eq!(payments[0].rule, rule::WINNER_TAKES);
    assert!(g.books().bets.is_empty());
}

#[test]
fn the_double_bet_option_makes_a_failed_declarer_pay_twice_the_amount() {
    let mut g = declared(&MIXED, 2, Options { double_bet: true, ..no_bets() });
    let (_, _, _, payments, _) = ended(&play_mixed(&mut g));
    assert_eq!(flows(&payments), [pay(Pot, S(1), 10), pay(S(2), Bet(1), 20)]);
    assert!(payments[1].explanation.en.contains("twice the amount played for, 2 × 10"));
}

#[test]
fn the_deal_is_played_for_the_pot_and_the_least_bet_the_others_wait_apart() {
    for double in [false, true] {
        let mut g = Game::new(4, Options { double_bet: double, ..no_bets() });
        let bets =
            vec![BetRecord { bet: 1, amount: 30 }, BetRecord { bet: 2, amount: 20 }, BetRecord { bet: 3, amount: 20 }];
        g.inherit(Books { balances: vec![-35, -20, -20, 0], pot: 5, bets: bets.clone() }, 4);
        let events = g.deal(deck_for(4, 0, &MIXED, "9H", "TH", 10));
        // Bets 2 and 3 are equally small: the older one is played for.
        assert!(matches!(&events[0], Event::DealStarted { bet_in_play: Some(2), .. }));
        assert_eq!(bet_in_play(&bets), Some(BetRecord { bet: 2, amount: 20 }));
        g.ok(3, C::Cut { at: 10 });
        g.ok(1, C::Pass);
        g.ok(2, C::Accept);
        let (_, _, _, payments, amount) = ended(&play_mixed(&mut g));
        assert_eq!(amount, 15 + 20);
        let bet = if double { 70 } else { 35 };
        assert_eq!(flows(&payments), [pay(Pot, S(1), 15), pay(Bet(2), S(1), 20), pay(S(2), Bet(4), bet)]);
        let after = g.books();
        assert_eq!(
            after.bets,
            [BetRecord { bet: 1, amount: 30 }, BetRecord { bet: 3, amount: 20 }, BetRecord { bet: 4, amount: bet }]
        );
        assert_eq!(after.pot, 0);
        assert_eq!(after.balances, [-45, -20 + 35, -20 - bet, 0]);
        let view = view_json(&g.state, Viewer::Spectator);
        assert_eq!(view["bets"].as_array().unwrap().len(), 3);
    }
}

fn two_declarers(options: Options) -> Game {
    let mut g = Game::new(4, options);
    g.deal(deck_for(4, 0, &STRONG, "9H", "JD", 10));
    g.ok(3, C::Cut { at: 10 });
    g.ok(0, C::Discard { card: card("9D") });
    g.ok(3, C::Discard { card: card("9C") });
    g
}

#[test]
fn two_declarers_who_both_fail_pay_a_bet_each_kept_apart() {
    let mut g = two_declarers(no_bets());
    let (outcome, winner, _, payments, _) = ended(&g.finish_deal());
    assert_eq!((outcome, winner), (DealOutcome::Won, Some(1)));
    assert_eq!(flows(&payments), [pay(Pot, S(1), 10), pay(S(0), Bet(1), 10), pay(S(3), Bet(2), 10)]);
    assert!(payments[1..].iter().all(|p| p.rule == rule::BOTH_FAIL));
    let Some(Event::DealEnded { explanation, .. }) = g.log.last() else { panic!() };
    assert!(explanation.en.contains("Both declarers (0, 3) failed"), "{}", explanation.en);
    assert_eq!(g.books().bets, [BetRecord { bet: 1, amount: 10 }, BetRecord { bet: 2, amount: 10 }]);
    assert_eq!(g.state.next_bet, 3);
}

#[test]
fn with_the_merge_option_two_failed_bets_become_one_double_bet() {
    let mut g = two_declarers(Options { merge_bets: true, ..no_bets() });
    let (_, _, _, payments, _) = ended(&g.finish_deal());
    assert_eq!(flows(&payments), [pay(Pot, S(1), 10), pay(S(0), Bet(1), 10), pay(S(3), Bet(1), 10)]);
    assert!(payments[1..].iter().all(|p| p.rule == rule::MERGE_BETS));
    assert_eq!(g.books().bets, [BetRecord { bet: 1, amount: 20 }]);
    // With both options each pays twice the amount into the one bet.
    let mut g = two_declarers(Options { merge_bets: true, double_bet: true, ..no_bets() });
    g.finish_deal();
    assert_eq!(g.books().bets, [BetRecord { bet: 1, amount: 40 }]);
}

#[test]
fn with_two_declarers_the_one_who_wins_takes_the_pot_and_the_other_pays() {
    // The dealer (seat 0) now holds the strong hand.
    let hands = ["JC JS AH KH QH", "AD KD QD TD 9D", "AS KS QS TS 9S", "AC KC QC TC 9C"];
    let mut g = Game::new(4, no_bets());
    g.deal(deck_for(4, 0, &hands, "9H", "JD", 10));
    g.ok(3, C::Cut { at: 10 });
    g.ok(0, C::Discard { card: card("9H") });
    g.ok(3, C::Discard { card: card("9C") });
    let (_, winner, _, payments, _) = ended(&g.finish_deal());
    assert_eq!(winner, Some(0));
    assert_eq!(flows(&payments), [pay(Pot, S(0), 10), pay(S(3), Bet(1), 10)]);
    assert_eq!(payments[1].rule, rule::FAILED_DECLARER);
}

/// Five players, hearts turned (queen) and accepted by forehand; each seat takes one trick.
const FIVE: [&str; 5] = ["AC TD KD AS JC", "9C 8D AD 8S KS", "JD 9D 9S QS 9H", "TC QC JH TS TH", "KC 8C QD JS 8H"];

#[test]
fn five_players_with_a_trick_each_have_no_winner_but_the_declarer_still_pays() {
    let mut g = Game::new(5, no_bets());
    g.inherit(Books { balances: vec![-25, 0, 0, 0, 0], pot: 0, bets: vec![BetRecord { bet: 1, amount: 25 }] }, 2);
    g.deal(deck_for(5, 0, &FIVE, "QH", "KH", 10));
    assert_eq!(g.deal_ref().cutter(), 4);
    g.ok(4, C::Cut { at: 10 });
    g.ok(1, C::Accept);
    g.trick("9C JD TC KC AC");
    g.trick("9D JH QD TD 8D");
    g.trick("TS JS AS 8S 9S");
    g.trick("8H JC KS 9H TH");
    let events = g.trick("KD AD QS QC 8C");
    assert_eq!(g.deal_ref().play.taken, [1, 1, 1, 1, 1]);
    let (outcome, winner, r, payments, amount) = ended(&events);
    assert_eq!((outcome, winner, r.as_str(), amount), (DealOutcome::NoWinner, None, rule::NO_WINNER, 35));
    assert_eq!(flows(&payments), [pay(S(1), Bet(2), 35)]);
    assert_eq!(payments[0].rule, rule::NO_WINNER_BET);
    // The pot and the old bet stay where they were.
    let books = g.books();
    assert_eq!(books.pot, 10);
    assert_eq!(books.bets, [BetRecord { bet: 1, amount: 25 }, BetRecord { bet: 2, amount: 35 }]);
    g.deal(decks::from_rank(Rank::EIGHT));
    assert_eq!(g.deal_ref().bet_in_play, Some(1));
    assert_eq!(g.books().pot, 20);
}

// -----------------------------------------------------------------------------------------
// La vola

#[test]
fn la_vola_is_announced_only_when_leading_to_the_third_trick_after_taking_two() {
    let mut g = declared(&STRONG, 1, no_bets());
    let v = g.refused(1, C::LaVola);
    assert_eq!(v.rule, rule::LA_VOLA);
    assert!(v.explanation.en.contains("0 tricks are played"));
    g.trick("JC 9S 9C 9D");
    assert_eq!(g.refused(1, C::LaVola).rule, rule::LA_VOLA);
    g.trick("JS TS TC TD");
    assert!(g.legal(1).contains(&C::LaVola));
    assert!(!g.legal(2).contains(&C::LaVola));
    assert_eq!(g.refused(2, C::LaVola).rule, core::TURN);
    let events = g.ok(1, C::LaVola);
    assert_eq!(events, [Event::LaVolaAnnounced { seat: 1 }]);
    assert_eq!(g.to_act(), [1], "the announcer still leads");
    let v = g.refused(1, C::LaVola);
    assert!(v.explanation.en.contains("already been announced"));
    assert_eq!(view_json(&g.state, Viewer::Spectator)["la_vola"], 1);
    // Once the lead to the third trick is made, the chance is gone.
    let mut late = declared(&STRONG, 1, no_bets());
    late.trick("JC 9S 9C 9D");
    late.trick("JS TS TC TD");
    late.play(1, "AH");
    assert_eq!(late.refused(2, C::LaVola).rule, rule::LA_VOLA);
}

#[test]
fn la_vola_made_takes_what_is_played_for_and_as_much_from_every_other_player() {
    // Seat 2 declares, seat 1 makes la vola: only la vola counts, so seat 2 pays no bet.
    let mut g = Game::new(4, no_bets());
    g.inherit(
        Books {
            balances: vec![-20, 0, 0, -10],
            pot: 0,
            bets: vec![BetRecord { bet: 1, amount: 20 }, BetRecord { bet: 2, amount: 10 }],
        },
        3,
    );
    g.deal(deck_for(4, 0, &STRONG, "9H", "TH", 10));
    g.ok(3, C::Cut { at: 10 });
    g.ok(1, C::Pass);
    g.ok(2, C::Accept);
    g.trick("JC 9S 9C 9D");
    g.trick("JS TS TC TD");
    g.ok(1, C::LaVola);
    let events = g.finish_deal();
    let (outcome, winner, r, payments, amount) = ended(&events);
    assert_eq!((outcome, winner, r.as_str(), amount), (DealOutcome::LaVolaWon, Some(1), rule::LA_VOLA_ONLY, 20));
    assert_eq!(
        flows(&payments),
        [pay(Pot, S(1), 10), pay(Bet(2), S(1), 10), pay(S(0), S(1), 20), pay(S(2), S(1), 20), pay(S(3), S(1), 20)]
    );
    assert!(payments[2..].iter().all(|p| p.rule == rule::LA_VOLA_PAID));
    assert_eq!(
        g.books(),
        Books { balances: vec![-50, 80, -20, -30], pot: 0, bets: vec![BetRecord { bet: 1, amount: 20 }] }
    );
}

#[test]
fn a_lost_trick_ends_la_vola_at_once_as_a_round_pass() {
    let hands = ["AD KD QD TD 9D", "JC JS AH KH 9C", "AS KS QS TS 9S", "AC KC QC TC QH"];
    let mut g = declared(&hands, 1, no_bets());
    g.trick("JC 9S QH 9D");
    g.trick("JS TS TC TD");
    g.ok(1, C::LaVola);
    let events = g.trick("9C QS AC QD");
    let (outcome, winner, r, payments, _) = ended(&events);
    assert_eq!((outcome, winner, r.as_str()), (DealOutcome::LaVolaLost, None, rule::LA_VOLA_LOST));
    assert!(payments.is_empty(), "no payment, not even from the declarer");
    assert_eq!(g.deal_ref().play.tricks.len(), 3);
    assert!(matches!(PolsktPass.status(&g.state), Status::NeedsDeck { .. }));
    assert_eq!(g.books().pot, 10);
    g.deal(decks::from_rank(Rank::NINE));
    assert_eq!(g.deal_ref().dealer, 1);
}

// -----------------------------------------------------------------------------------------
// Money and the end of the match

#[test]
fn the_table_limit_caps_bets_and_la_vola_payments() {
    let s = Settlement {
        players: 3,
        declarers: &[0],
        pot: TABLE_LIMIT - 5,
        bet: Some(BetRecord { bet: 4, amount: 10 }),
        next_bet: 7,
        double_bet: true,
        merge_bets: false,
    };
    let won = s.won(1);
    assert_eq!(flows(&won), [pay(Pot, S(1), TABLE_LIMIT - 5), pay(Bet(4), S(1), 10), pay(S(0), Bet(7), TABLE_LIMIT)]);
    assert!(won[2].explanation.en.contains("table limit"));
    let vola = s.la_vola_won(2);
    assert!(vola[2..].iter().all(|p| p.amount == TABLE_LIMIT));
}

#[test]
fn what_is_left_at_the_end_is_shared_out_with_the_odd_chips_from_the_last_dealers_left() {
    let out = share_out(&[(Pot, 7), (Bet(2), 3)], &[2, 0, 1]);
    assert_eq!(flows(&out), [pay(Pot, S(2), 4), pay(Pot, S(0), 3), pay(Bet(2), S(1), 3)]);
    let out = share_out(&[(Pot, 5), (Bet(1), 5)], &[1, 2, 0]);
    assert_eq!(flows(&out), [pay(Pot, S(1), 4), pay(Pot, S(2), 1), pay(Bet(1), S(2), 2), pay(Bet(1), S(0), 3)]);
    assert!(out.iter().all(|p| p.rule == rule::SHARE_OUT));
    assert!(share_out(&[(Pot, 0)], &[0, 1, 2]).is_empty());
    assert_eq!(share_out(&[(Pot, 2)], &[0, 1, 2]).len(), 2);
    assert_eq!(match_winners(&[5, -3, 5]), [0, 2]);
    assert_eq!(match_winners(&[-5, -3, 8]), [2]);
}

#[test]
fn the_match_ends_after_the_agreed_rounds_with_the_pot_and_bets_shared_out() {
    let mut g = Game::new(3, Options { rounds: 2, ..no_bets() });
    assert_eq!(g.state.deals_total(), 6);
    let mut last = Vec::new();
    for n in 1..=6 {
        assert!(matches!(PolsktPass.status(&g.state), Status::NeedsDeck { .. }));
        g.deal(decks::from_rank(Rank::NINE));
        assert_eq!(g.deal_ref().dealer, (n - 1) % 3);
        last = g.finish_deal();
    }
    let Some(Event::MatchEnded { payments, books, winners }) = last.last() else { panic!("{last:?}") };
    assert_eq!(books.pot, 0);
    assert!(books.bets.is_empty());
    assert_eq!(books.balances.iter().sum::<i64>(), 0);
    assert_eq!(winners, &match_winners(&books.balances));
    assert!(payments.iter().all(|p| p.rule == rule::SHARE_OUT));
    let status = PolsktPass.status(&g.state);
    assert!(status.is_finished());
    assert!(g.try_deal(decks::from_rank(Rank::NINE)).is_err());
    assert_eq!(g.refused(0, C::Pass).rule, core::MATCH_OVER);
    assert_eq!(PolsktPass.view(&g.state, Viewer::Spectator).phase, TablePhase::Finished);
}

// -----------------------------------------------------------------------------------------
// Hidden information

#[test]
fn the_undealt_rest_is_never_shown_not_even_in_the_record() {
    let mut g = Game::new(4, no_bets());
    let deal_events = g.deal(decks::from_rank(Rank::NINE));
    // Before the cut the whole pack is secret from everyone.
    assert_eq!(PolsktPass.secrets(&g.state).len(), 24);
    assert!(PolsktPass.secrets(&g.state).iter().all(|(_, who)| who.is_empty()));
    let mut events = deal_events;
    events.extend(g.ok(3, C::Cut { at: 12 }));
    events.extend(g.ok(0, C::Discard { card: card("9D") }));
    events.extend(g.finish_deal());
    let rest = cards("QD KD");
    for viewer in [Viewer::Record, Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(2)] {
        for e in &events {
            for deal_over in [false, true] {
                let shown = crate::game::cards_in(&PolsktPass.redact(&g.state, e, viewer, deal_over));
                assert!(rest.iter().all(|c| !shown.contains(c)), "{viewer:?} sees the rest in {e:?}");
            }
        }
        let view = crate::game::cards_in(&view_json(&g.state, viewer));
        assert!(rest.iter().all(|c| !view.contains(c)), "{viewer:?} sees the rest in the view");
    }
    let started = PolsktPass.redact(&g.state, &events[0], Viewer::Record, true);
    assert!(started.get("deck").is_none());
    assert_eq!(started["deck_size"], 24);
    // The record opens the hands and the discard; the shown ace is public anyway.
    let record = view_json(&g.state, Viewer::Record);
    assert_eq!(record["dealt_hands"][1], json!(cards("9H TH JH 9C TC")));
    assert_eq!(record["discards"], json!([{"seat": 0, "card": "9D"}]));
    assert!(record.get("pack").is_none() && record.get("deck").is_none());
}

#[test]
fn cards_dealt_shows_each_seat_only_its_own_hand() {
    let g = dealt(4, &STRONG, "9H", "TH", no_bets());
    let e = g.log.iter().find(|e| matches!(e, Event::CardsDealt { .. })).unwrap();
    let own = PolsktPass.redact(&g.state, e, Viewer::Seat(2), false);
    assert_eq!(own["hands"][2], json!(cards(STRONG[2])));
    assert_eq!(own["hands"][1], Value::Null);
    assert_eq!(own["hand_sizes"], json!([5, 5, 5, 5]));
    assert_eq!(own["turned_card"], "9H");
    assert_eq!(PolsktPass.redact(&g.state, e, Viewer::Spectator, false)["hands"], json!([null, null, null, null]));
    assert_eq!(PolsktPass.redact(&g.state, e, Viewer::Record, false), serde_json::to_value(e).unwrap());
    let view = view_json(&g.state, Viewer::Seat(1));
    let mut hand = cards(STRONG[1]);
    sort_hand(&mut hand);
    assert_eq!(view["hand"], json!(hand));
    assert!(view.get("hands").is_none());
    // Secret: every hand card to its holder, the rest to nobody; the turned and the shown
    // card are public.
    let secrets = PolsktPass.secrets(&g.state);
    assert_eq!(secrets.len(), 20 + 2);
    assert!(secrets.iter().all(|(c, who)| *c != card("9H") && *c != card("TH") && who.len() <= 1));
}

// -----------------------------------------------------------------------------------------
// Options, shapes, replay, rulebook

#[test]
fn options_have_defaults_and_bad_values_are_refused() {
    let game = erase(PolsktPass);
    assert_eq!(
        game.normalize_options(&Value::Null).unwrap(),
        json!({"stake": 10, "double_bet": false, "merge_bets": false, "rounds": 4})
    );
    assert_eq!(
        game.normalize_options(&json!({"double-bet": true, "merge-bets": true, "stake": 5})).unwrap(),
        json!({"stake": 5, "double_bet": true, "merge_bets": true, "rounds": 4})
    );
    for bad in [
        json!({"stake": 0}),
        json!({"stake": -3}),
        json!({"rounds": 0}),
        json!({"rounds": 11}),
        json!({"stake": 1_000_001}),
    ] {
        assert!(game.setup(4, &bad).is_err(), "{bad}");
    }
    assert!(game.setup(5, &json!({"stake": 1, "rounds": 10})).is_ok());
    let names: Vec<_> = PolsktPass.options().iter().map(|o| o.name).collect();
    assert_eq!(names, ["stake", "double_bet", "merge_bets", "rounds"]);
    assert_eq!(Game::new(5, Options { rounds: 3, ..no_bets() }).state.deals_total(), 15);
}

#[test]
fn commands_and_events_have_their_json_shapes() {
    let shapes = [
        (json!({"type": "cut", "at": 7}), C::Cut { at: 7 }),
        (json!({"type": "take_ace"}), C::TakeAce),
        (json!({"type": "leave_ace"}), C::LeaveAce),
        (json!({"type": "accept"}), C::Accept),
        (json!({"type": "pass"}), C::Pass),
        (json!({"type": "name_suit", "suit": "spades"}), C::NameSuit { suit: Suit::Spades }),
        (json!({"type": "wieder"}), C::Wieder),
        (json!({"type": "discard", "card": "9D"}), C::Discard { card: card("9D") }),
        (json!({"type": "la_vola"}), C::LaVola),
        (json!({"type": "play", "card": "JC"}), C::Play { card: card("JC") }),
    ];
    for (value, command) in shapes {
        assert_eq!(serde_json::from_value::<Command>(value.clone()).unwrap(), command);
        assert_eq!(serde_json::to_value(&command).unwrap(), value);
    }
    assert!(serde_json::from_value::<Command>(json!({"type": "cut", "at": -1})).is_err());
    let e = Event::PackCut { seat: 3, at: 10, shown_card: card("JD"), cutter_took: true };
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"type": "pack_cut", "seat": 3, "at": 10, "shown_card": "JD", "cutter_took": true})
    );
    let e = Event::StakePaid {
        payment: Payment::new(S(1), Pot, 10, rule::STAKE, "sv".into(), "en".into()),
        books: Books { balances: vec![0, -10, 0], pot: 10, bets: vec![BetRecord { bet: 1, amount: 5 }] },
    };
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"type": "stake_paid",
               "payment": {"from": {"seat": 1}, "to": "pot", "amount": 10, "rule": rule::STAKE, "explanation": {"sv": "sv", "en": "en"}},
               "books": {"balances": [0, -10, 0], "pot": 10, "bets": [{"bet": 1, "amount": 5}]}})
    );
    let e = Event::BidMade { seat: 2, round: 2, call: Call::NameSuit, suit: Some(Suit::Clubs) };
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"type": "bid_made", "seat": 2, "round": 2, "call": "name-suit", "suit": "clubs"})
    );
}

#[test]
fn the_view_shows_the_money_and_the_table() {
    let g = declared(&MIXED, 2, no_bets());
    let view = view_json(&g.state, Viewer::Seat(2));
    for key in [
        "phase",
        "players",
        "options",
        "deal_number",
        "deals_total",
        "to_act",
        "winners",
        "balances",
        "pot",
        "bets",
        "seat",
        "dealer",
        "cutter",
        "forehand",
        "bet_in_play",
        "amount_played_for",
        "cut",
        "turned_card",
        "turned_card_taken",
        "ace_choice",
        "trumps",
        "trumps_from",
        "trumps_rule",
        "declarers",
        "bidding",
        "hand_sizes",
        "to_discard",
        "discarded",
        "undealt",
        "tricks_taken",
        "tricks_played",
        "trick",
        "last_trick",
        "la_vola",
        "result",
        "hand",
        "discard",
    ] {
        assert!(view.get(key).is_some(), "the view lacks {key}");
    }
    assert_eq!(view["phase"], "playing");
    assert_eq!(view["undealt"], 3);
}

// -----------------------------------------------------------------------------------------
// Random matches

/// What the random matches of one test went through, to show the rules were exercised.
#[derive(Default, Debug)]
struct Seen {
    matches: u32,
    outcomes: std::collections::BTreeMap<String, u32>,
    takes: std::collections::BTreeMap<String, u32>,
    two_declarers: u32,
    cutter_took: u32,
    round_two: u32,
    merged: u32,
    several_bets: u32,
}

/// Replays the money of a match from its log: every money event states the books its
/// payments lead to, every payment names a rule of the rulebook, each deal is played for
/// the pot and its bet, and the match ends with the pot and the bets shared out.
fn check_log(players: usize, options: &Value, book: &Rulebook, log: &[Value], seen: &mut Seen) {
    let mut ledger = Ledger::new();
    let (mut deals, mut ended_match) = (0u32, false);
    let mut bet_for: Option<u32> = None;
    let mut next_bet = 1u32;
    let check_payment = |p: &Payment| {
        assert!(book.rule(&p.rule).is_some(), "{} is not in the rulebook", p.rule);
        assert!(p.amount > 0 && !p.explanation.sv.is_empty() && !p.explanation.en.is_empty(), "{p:?}");
    };
    for value in log {
        let event: Event = serde_json::from_value(value.clone()).unwrap();
        assert!(!ended_match, "nothing follows the end of the match");
        match event {
            Event::DealStarted { books, bet_in_play: b, next_bet: n, deal_number, .. } => {
                deals += 1;
                assert_eq!(deal_number, deals);
                assert_eq!(books, Books::of(&ledger, players), "a deal starts from the books so far");
                assert_eq!(b, bet_in_play(&books.bets).map(|b| b.bet));
                assert_eq!(n, next_bet);
                if books.bets.len() > 1 {
                    seen.several_bets += 1;
                }
                bet_for = b;
            }
            Event::StakePaid { payment, books } => {
                check_payment(&payment);
                assert_eq!((payment.amount, payment.rule.as_str()), (options["stake"].as_i64().unwrap(), rule::STAKE));
                ledger.pay(&payment);
                assert_eq!(books, Books::of(&ledger, players));
            }
            Event::PackCut { cutter_took, .. } => seen.cutter_took += cutter_took as u32,
            Event::TurnedCardTaken { why, rule: r, .. } => {
                assert!(book.rule(&r).is_some());
                *seen.takes.entry(format!("{why:?}")).or_default() += 1;
            }
            Event::TurnedCardLeft { why, rule: r, .. } => {
                assert!(book.rule(&r).is_some());
                *seen.takes.entry(format!("{why:?}")).or_default() += 1;
            }
            Event::TrumpsSet { declarers, from, rule: r, .. } => {
                assert!(book.rule(&r).is_some());
                seen.two_declarers += (declarers.len() == 2) as u32;
                seen.round_two += (from == TrumpsFrom::RoundTwo) as u32;
            }
            Event::DealEnded {
                outcome,
                winner,
                rule: r,
                declarers,
                amount_played_for,
                bet_in_play: b,
                payments,
                books,
                ..
            } => {
                assert!(book.rule(&r).is_some());
                assert_eq!(b, bet_for);
                let pot = ledger.balance(Account::Pot);
                let bet = b.map_or(0, |b| ledger.balance(Account::Bet(b)));
                assert_eq!(amount_played_for, pot + bet, "played for the pot and one bet");
                for p in &payments {
                    check_payment(p);
                    if let Account::Bet(n) = p.to {
                        assert!(n >= next_bet || ledger.balance(p.to) > 0 || options["merge_bets"] == true);
                    }
                }
                let to_bets: Vec<u32> = payments
                    .iter()
                    .filter_map(|p| match p.to {
                        Account::Bet(n) => Some(n),
                        _ => None,
                    })
                    .collect();
                match outcome {
                    DealOutcome::AllPassed | DealOutcome::LaVolaLost => {
                        assert!(payments.is_empty() && winner.is_none());
                    }
                    DealOutcome::NoWinner => {
                        assert_eq!(players, 5);
                        assert!(winner.is_none());
                        assert_eq!(to_bets.len(), declarers.len(), "every declarer pays");
                        assert!(payments.iter().all(|p| matches!(p.from, Account::Seat(s) if declarers.contains(&s))));
                    }
                    DealOutcome::Won | DealOutcome::LaVolaWon => {
                        let w = winner.unwrap();
                        let taken: i64 = payments
                            .iter()
                            .filter(|p| p.to == Account::Seat(w) && !matches!(p.from, Account::Seat(_)))
                            .map(|p| p.amount)
                            .sum();
                        assert_eq!(taken, amount_played_for, "the winner takes the pot and the bet");
                        let failed =
                            if outcome == DealOutcome::Won { declarers.iter().filter(|&&d| d != w).count() } else { 0 };
                        assert_eq!(to_bets.len(), failed);
                        if outcome == DealOutcome::LaVolaWon {
                            let from_players = payments
                                .iter()
                                .filter(|p| p.to == Account::Seat(w) && matches!(p.from, Account::Seat(_)))
                                .count();
                            assert_eq!(from_players, players - 1);
                        }
                    }
                }
                if to_bets.len() == 2 && to_bets[0] == to_bets[1] {
                    seen.merged += 1;
                }
                for p in &payments {
                    ledger.pay(p);
                    if let Account::Bet(n) = p.to {
                        next_bet = next_bet.max(n + 1);
                    }
                }
                assert_eq!(books, Books::of(&ledger, players));
                ledger.check().unwrap();
                *seen.outcomes.entry(format!("{outcome:?}")).or_default() += 1;
            }
            Event::MatchEnded { payments, books, winners } => {
                payments.iter().for_each(|p| {
                    check_payment(p);
                    ledger.pay(p);
                });
                assert_eq!(books, Books::of(&ledger, players));
                assert_eq!((books.pot, books.bets.len()), (0, 0), "everything is shared out");
                assert_eq!(winners, match_winners(&books.balances));
                ended_match = true;
            }
            _ => {}
        }
    }
    assert!(ended_match);
    assert_eq!(deals, options["rounds"].as_u64().unwrap() as u32 * players as u32);
    seen.matches += 1;
}

fn assert_exercised(seen: &Seen, players: usize) {
    for outcome in ["AllPassed", "Won", "LaVolaWon", "LaVolaLost"] {
        assert!(seen.outcomes.get(outcome).copied().unwrap_or(0) > 0, "{outcome} never happened: {seen:?}");
    }
    if players == 5 {
        assert!(seen.outcomes.get("NoWinner").copied().unwrap_or(0) > 0, "{seen:?}");
    }
    for why in ["JackTurned", "CutterTook", "AceChosen", "NotJackOrAce", "AceDeclined"] {
        assert!(seen.takes.get(why).copied().unwrap_or(0) > 0, "{why} never happened: {seen:?}");
    }
    assert!(seen.two_declarers > 0 && seen.round_two > 0 && seen.merged > 0 && seen.several_bets > 0, "{seen:?}");
}

/// Many cheap random matches over every test option set, each checked on its log and
/// shown to go through every outcome; the generic tests check the rest on the way.
#[test]
fn random_match_logs_keep_the_money_and_go_everywhere() {
    let book = PolsktPass.rulebook();
    let mut seen: std::collections::BTreeMap<usize, Seen> = Default::default();
    let plan = Plan { log_only: 50, ..Plan::default() };
    random_matches(&*erase(PolsktPass), plan, |players, options, report| {
        check_log(players, options, &book, &report.log, seen.entry(players).or_default());
    })
    .unwrap_or_else(|e| panic!("{e}"));
    for (players, seen) in &seen {
        assert_eq!(seen.matches, 9 * 50);
        assert_exercised(seen, *players);
    }
    assert_eq!(seen.len(), 3);
}
