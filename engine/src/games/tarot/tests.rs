//! The rules of this game as its texts state them, with their worked examples; the generic
//! tests every game passes are in `tests/every_game.rs`.

use super::*;
use crate::cards::{card, cards, is_permutation};
use crate::game::Status;
use crate::game::{check_turn, erase};
use crate::rules::core;
use crate::rules::Rulebook;
use crate::simulate::{random_matches, Driver, Plan};
use serde_json::json;

/// Cards a test leaves unnamed are dealt in this order: small suit cards first, the bouts
/// last, so that a filled-up hand rarely holds anything that matters.
fn filler() -> Vec<Card> {
    let mut out: Vec<Card> = (1..=10).flat_map(|v| Suit::ALL.into_iter().map(move |s| suit_card(s, v))).collect();
    out.extend((2..=20).map(Card::Trump));
    out.extend(
        [JACK, KNIGHT, QUEEN, KING].into_iter().flat_map(|v| Suit::ALL.into_iter().map(move |s| suit_card(s, v))),
    );
    out.extend([PETIT, TWENTY_ONE, EXCUSE]);
    out
}

/// A deck that deals `hands` (by seat; a hand may list fewer cards than it gets, the rest
/// coming from [`filler`]) and `dog`, with `dealer` dealing.
fn deck_for(players: usize, dealer: Seat, hands: &[&str], dog: &str) -> Vec<Card> {
    let l = layout(players);
    let mut hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    hands.resize(players, Vec::new());
    let mut dog = cards(dog);
    let named: Vec<Card> = hands.iter().flatten().chain(&dog).copied().collect();
    let mut fill = filler().into_iter().filter(|c| !named.contains(c));
    for h in &mut hands {
        while h.len() < l.hand {
            h.push(fill.next().expect("enough cards"));
        }
    }
    while dog.len() < l.dog {
        dog.push(fill.next().expect("enough cards"));
    }
    assert!(fill.next().is_none(), "every card is dealt");
    let mut next = vec![0; players];
    let mut d = 0;
    let deck: Vec<Card> = deal_plan(&Seating::counter_clockwise(players), dealer)
        .into_iter()
        .map(|to| match to {
            Some(s) => {
                next[s] += 1;
                hands[s][next[s] - 1]
            }
            None => {
                d += 1;
                dog[d - 1]
            }
        })
        .collect();
    assert!(is_permutation(&deck, &decks::tarot78()), "the hands and the dog are the pack");
    deck
}

type Game = Driver<Tarot>;

impl Game {
    fn play(&mut self, seat: Seat, code: &str) -> Vec<Event> {
        self.ok(seat, play(code))
    }

    fn d(&self) -> &Deal {
        self.state.deals.deal.as_ref().unwrap()
    }

    fn view(&self, viewer: Viewer) -> Value {
        serde_json::to_value(Tarot.view(&self.state, viewer)).expect("views serialize")
    }

    fn legal_cards(&self, seat: Seat) -> Vec<Card> {
        Tarot
            .legal_moves(&self.state, seat)
            .into_iter()
            .filter_map(|m| match m {
                Command::Play { card } => Some(card),
                _ => None,
            })
            .collect()
    }

    /// Bids in order: `taker` bids `contract`, everyone else passes.
    fn take(&mut self, taker: Seat, contract: Contract) -> Vec<Event> {
        let mut events = Vec::new();
        for seat in self.d().auction.order.clone() {
            let c = if seat == taker { Command::Bid { contract } } else { Command::Pass };
            events.extend(self.ok(seat, c));
        }
        events
    }

    /// Discards the first legal cards and declines the slam, up to the first card of play.
    fn up_to_play(&mut self) {
        while matches!(self.d().phase, Phase::Discarding | Phase::Slam) {
            let seat = self.to_act()[0];
            let m = match self.d().phase {
                Phase::Slam => Command::DeclineSlam,
                _ => Tarot.legal_moves(&self.state, seat)[0].clone(),
            };
            self.ok(seat, m);
        }
    }

    /// Plays the deal out, each seat playing its first legal card (the Excuse, sorted last,
    /// is kept to the end when it can be). Not the driver's `finish_deal`: Tarot's first
    /// legal move may announce a slam or a poignée, which would change what the tests count.
    fn play_out(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        self.up_to_play();
        while self.d().phase == Phase::Playing {
            let seat = self.to_act()[0];
            let card = self.legal_cards(seat)[0];
            events.extend(self.ok(seat, Command::Play { card }));
        }
        events
    }

    fn result(&self) -> (Count, Scoring) {
        self.d().result.clone().expect("the deal was scored")
    }
}

fn play(code: &str) -> Command {
    Command::Play { card: card(code) }
}

fn discard(code: &str) -> Command {
    Command::Discard { card: card(code) }
}

fn bid(contract: Contract) -> Command {
    Command::Bid { contract }
}

fn no_slam() -> Options {
    Options { slam: false, ..Default::default() }
}

// -----------------------------------------------------------------------------------------
// The cards

#[test]
fn the_pack_holds_91_points_three_bouts_and_the_text_counts_in_pairs() {
    let pack = decks::tarot78();
    assert_eq!(half_points_of(&pack), TOTAL_HALF_POINTS);
    assert_eq!(points_text(TOTAL_HALF_POINTS), "91");
    assert_eq!(pack.iter().filter(|&&c| is_bout(c)).collect::<Vec<_>>(), [&PETIT, &TWENTY_ONE, &EXCUSE]);
    // 4.5, 3.5, 2.5, 1.5 and 0.5: with a half-point card, the text's 5, 4, 3 and 2.
    for (code, half) in [
        ("T1", 9),
        ("T21", 9),
        ("EX", 9),
        ("KH", 9),
        ("QS", 7),
        ("CD", 5),
        ("JC", 3),
        ("TH", 1),
        ("1S", 1),
        ("T2", 1),
        ("T20", 1),
    ] {
        assert_eq!(half_points(card(code)), half, "{code}");
    }
    assert_eq!(pack.iter().filter(|&&c| is_court(c)).count(), 16);
    assert_eq!(pack.iter().filter(|&&c| is_trump(c)).count(), 21);
    assert_eq!((0..78).collect::<Vec<_>>(), pack.iter().map(|&c| index78(c).unwrap()).collect::<Vec<_>>());
    assert_eq!(index78(card("AH")), None, "the tarot has no ace");
    assert_eq!(points_text(101), "50.5");
}

#[test]
fn suits_rank_king_queen_knight_jack_then_ten_down_to_one() {
    let t = |codes: &str| -> Vec<(Seat, Card)> { cards(codes).into_iter().enumerate().collect() };
    assert_eq!(trick_winner(&t("QH KH CH JH")), (1, card("KH"), WinReason::HighestOfSuitLed));
    assert_eq!(trick_winner(&t("CH JH TH 1H")), (0, card("CH"), WinReason::HighestOfSuitLed));
    assert_eq!(trick_winner(&t("1H 2H KS QD")), (1, card("2H"), WinReason::HighestOfSuitLed));
    assert_eq!(trick_winner(&t("KH T1 QH T2")), (3, card("T2"), WinReason::HighestTrump));
    assert_eq!(trick_winner(&t("T20 T21 EX")), (1, card("T21"), WinReason::HighestTrump));
    // The Excuse never wins: led, the next card sets the suit.
    assert_eq!(trick_winner(&t("EX 3D KD 2S")), (2, card("KD"), WinReason::HighestOfSuitLed));
    assert_eq!(led_of(&t("EX 3D")), Some(Led::Diamonds));
    assert_eq!(led_of(&t("EX")), None);
}

#[test]
fn targets_depend_on_the_bouts() {
    assert_eq!((0..=3).map(target).collect::<Vec<_>>(), [56, 51, 41, 36]);
}

// -----------------------------------------------------------------------------------------
// Dealing

#[test]
fn deals_go_in_packets_counter_clockwise_with_the_dog_laid_singly() {
    for (players, hand, packet, dog, after) in [
        (3, 24, 4, 6, vec![2, 5, 7, 10, 12, 15]),
        (4, 18, 3, 6, vec![3, 6, 10, 13, 17, 20]),
        (5, 15, 3, 3, vec![6, 12, 18]),
    ] {
        assert_eq!(layout(players), Layout { hand, packet, dog });
        let table = Seating::counter_clockwise(players);
        let plan = deal_plan(&table, 0);
        assert_eq!(plan.len(), 78);
        assert!(plan[0].is_some() && plan[77].is_some(), "the dog gets neither the first nor the last card");
        // The dealer's right (seat players-1) gets the first packet, then on counter-clockwise.
        assert_eq!(&plan[..packet], vec![Some(players - 1); packet].as_slice());
        assert_eq!(plan[packet], Some(players - 2));
        for s in 0..players {
            assert_eq!(plan.iter().filter(|&&p| p == Some(s)).count(), hand);
        }
        // A dog card after packets 3, 6, ... as the house rule says.
        let mut packets_before = Vec::new();
        let mut seen = 0;
        for p in &plan {
            match p {
                Some(_) => seen += 1,
                None => packets_before.push(seen / packet),
            }
        }
        assert_eq!(packets_before, after, "{players} players");

        let mut g = Game::new(players, Options::default());
        let deck = deck_for(players, 0, &[], "");
        let events = g.deal(deck.clone());
        let Event::DealStarted { dealer, hands, dog: d, dog_positions, bidding_order, .. } = &events[0] else {
            panic!()
        };
        assert_eq!(*dealer, 0);
        assert_eq!(dog_positions.iter().map(|&i| deck[i]).collect::<Vec<_>>(), *d);
        assert!(hands[players - 1].contains(&deck[0]));
        assert_eq!(bidding_order, &table.order_from(players - 1));
        assert_eq!(g.to_act(), [players - 1]);
    }
}

#[test]
fn the_deal_passes_to_the_right() {
    let mut g = Game::new(4, Options::default());
    assert_eq!(g.try_deal(decks::standard52()).unwrap_err().rule, core::DECK);
    let mut short = decks::tarot78();
    short.pop();
    assert_eq!(g.try_deal(short).unwrap_err().rule, core::DECK);
    g.deal(deck_for(4, 0, &[], ""));
    g.take(3, Contract::Big);
    g.play_out();
    assert_eq!(g.state.deals.next_dealer, 3);
    g.deal(deck_for(4, 3, &[], ""));
    assert_eq!(g.d().dealer, 3);
    assert_eq!(g.to_act(), [2], "the bidding starts at the new dealer's right");
    assert_eq!(g.d().play.trick.leader, 2);
}

#[test]
fn a_petit_sec_is_shown_and_the_deal_is_void() {
    // Seat 2's only trump is the Petit, without the Excuse.
    let hands = [
        "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 EX",
        "T19 T20 T21",
        "T1 1C 2C 3C 4C 5C 6C 7C 8C 9C TC JC CC QC KC 1D 2D 3D",
    ];
    let mut g = Game::new(4, Options::default());
    let events = g.deal(deck_for(4, 0, &hands, ""));
    let Event::DealCancelled { reason, shown, next_dealer } = &events[1] else { panic!("{events:?}") };
    assert_eq!(*reason, CancelReason::PetitSec);
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0].seat, 2);
    assert_eq!(shown[0].hand, g.d().dealt[2]);
    assert_eq!(*next_dealer, 3);
    assert_eq!(g.d().phase, Phase::DealOver);
    assert!(matches!(Tarot.status(&g.state), Status::NeedsDeck { .. }));
    assert_eq!(g.refused(3, Command::Pass).rule, core::PHASE);
    // The void deal does not count; the next dealer deals.
    assert_eq!((g.state.deals.number, g.state.deals_played, g.state.deals.next_dealer), (1, 0, 3));
    assert!(Tarot.secrets(&g.state).is_empty(), "a void deal's record is open");
    let events = g.deal(deck_for(4, 3, &[], ""));
    assert!(matches!(events[0], Event::DealStarted { deal_number: 2, dealer: 3, deals_played: 0, .. }));

    // The Petit with the Excuse, or with another trump, is not sec.
    assert!(!is_petit_sec(&cards("T1 EX 2C")));
    assert!(!is_petit_sec(&cards("T1 T2 2C")));
    assert!(is_petit_sec(&cards("T1 2C 3C")));
    assert!(!is_petit_sec(&cards("2C 3C")));
}

// -----------------------------------------------------------------------------------------
// Bidding

#[test]
fn bidding_goes_round_once_from_the_dealers_right_and_each_bid_beats_the_last() {
    let mut g = Game::new(4, Options::default());
    g.deal(deck_for(4, 0, &[], ""));
    assert_eq!(g.d().auction.order, [3, 2, 1, 0]);
    assert_eq!(g.refused(2, Command::Pass).rule, core::TURN);
    assert_eq!(Tarot.legal_moves(&g.state, 3).len(), 5);
    g.ok(3, bid(Contract::Big));
    let err = g.refused(2, bid(Contract::Small));
    assert_eq!(err.rule, rule::BID_HIGHER);
    assert!(err.explanation.en.contains("You bid a small game but a big game has already been bid"));
    assert_eq!(g.refused(2, bid(Contract::Big)).rule, rule::BID_HIGHER);
    assert_eq!(Tarot.legal_moves(&g.state, 2), [bid(Contract::WithoutDog), bid(Contract::AgainstDog), Command::Pass]);
    g.ok(2, Command::Pass);
    g.ok(1, bid(Contract::WithoutDog));
    let events = g.ok(0, Command::Pass);
    // One round only: the highest bidder takes; nobody bids again.
    assert!(events.contains(&Event::ContractWon { taker: 1, contract: Contract::WithoutDog }));
    assert_eq!(g.d().taker, Some(1));
    assert_eq!(g.to_act(), [1], "the taker may announce a slam");
    assert_eq!(g.refused(3, bid(Contract::AgainstDog)).rule, core::TURN);
    assert_eq!(g.refused(1, bid(Contract::AgainstDog)).rule, core::PHASE);
    let view = g.view(Viewer::Spectator);
    assert_eq!(view["bids"], json!(["pass", "without_dog", "pass", "big"]));
    assert_eq!(view["multiplier"], 4);
}

#[test]
fn when_everybody_passes_the_next_dealer_deals_again() {
    let mut g = Game::new(3, Options::default());
    g.deal(deck_for(3, 0, &[], ""));
    let some_card = g.d().play.hands[2][0].to_string();
    assert_eq!(g.refused(2, play(&some_card)).rule, core::PHASE);
    g.ok(2, Command::Pass);
    g.ok(1, Command::Pass);
    let events = g.ok(0, Command::Pass);
    assert_eq!(events[1], Event::DealCancelled { reason: CancelReason::AllPassed, shown: vec![], next_dealer: 2 });
    assert_eq!(g.d().cancelled, Some(CancelReason::AllPassed));
    assert!(matches!(Tarot.status(&g.state), Status::NeedsDeck { .. }));
    assert_eq!(g.state.deals_played, 0);
    g.deal(deck_for(3, 2, &[], ""));
    assert_eq!((g.d().dealer, g.d().number), (2, 2));
    assert_eq!(Tarot.deal_number(&g.state), 2);
}

// -----------------------------------------------------------------------------------------
// The dog

/// Four players, seat 3 to take: all four kings, the three bouts and eleven trumps, so that
/// after the dog only four cards may be discarded besides trumps.
fn strong_taker() -> Vec<Card> {
    deck_for(4, 0, &["", "", "", "KC KD KH KS T1 T21 EX T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12"], "2C 3C 4C 5C T13 T14")
}

#[test]
fn small_and_big_games_show_the_dog_and_the_taker_discards_as_many() {
    let mut g = Game::new(4, Options::default());
    g.deal(strong_taker());
    assert_eq!(g.view(Viewer::Seat(3))["dog"], Value::Null, "the dog is face down during the bidding");
    let events = g.take(3, Contract::Small);
    assert!(events.contains(&Event::DogShown { cards: cards("2C 3C 4C 5C T13 T14"), taker_alone: false }));
    assert_eq!(g.d().play.hands[3].len(), 24);
    for viewer in [Viewer::Seat(0), Viewer::Spectator] {
        assert_eq!(g.view(viewer)["dog"], json!(cards("2C 3C 4C 5C T13 T14")), "the dog is shown to all");
    }
    assert_eq!(g.d().phase, Phase::Discarding);
    assert_eq!(g.to_act(), [3]);
    assert_eq!(g.refused(2, discard("2D")).rule, core::TURN);
    assert_eq!(g.refused(3, discard("2D")).rule, core::CARD_NOT_HELD);
    assert_eq!(g.refused(3, play("2C")).rule, core::PHASE);
    for code in ["2C", "3C", "4C", "5C"] {
        g.ok(3, discard(code));
    }
    assert_eq!(g.view(Viewer::Seat(3))["discards"], json!(cards("2C 3C 4C 5C")));
    assert_eq!(g.view(Viewer::Seat(0))["discards"], Value::Null);
    assert_eq!(g.view(Viewer::Seat(0))["discard_count"], 4);
    g.ok(3, discard("T2"));
    g.ok(3, discard("T3"));
    assert_eq!(g.d().play.hands[3].len(), 18);
    assert_eq!(g.d().phase, Phase::Slam);
}

#[test]
fn kings_and_bouts_are_never_discarded() {
    let mut g = Game::new(4, Options::default());
    g.deal(strong_taker());
    g.take(3, Contract::Big);
    for code in ["KC", "KH", "T1", "T21", "EX"] {
        let err = g.refused(3, discard(code));
        assert_eq!(err.rule, rule::NO_KINGS_OR_BOUTS, "{code}");
    }
    assert!(g.refused(3, discard("KS")).explanation.en.contains("kings and bouts"));
}

#[test]
fn trumps_are_discarded_only_when_forced_and_then_shown() {
    let mut g = Game::new(4, Options::default());
    g.deal(strong_taker());
    g.take(3, Contract::Small);
    // Four plain cards for six discards: trumps are allowed from the start.
    let legal = Tarot.legal_moves(&g.state, 3);
    assert!(legal.contains(&discard("T2")) && legal.contains(&discard("2C")));
    assert!(!legal.contains(&discard("KC")) && !legal.contains(&discard("T21")));
    let events = g.ok(3, discard("T2"));
    assert_eq!(events, [Event::Discarded { seat: 3, card: card("T2"), shown: true }]);
    g.ok(3, discard("T3"));
    // Four plain cards left for four discards: no more trumps.
    let err = g.refused(3, discard("T4"));
    assert_eq!(err.rule, rule::TRUMPS_IF_FORCED);
    assert!(err.explanation.en.contains("still hold 4 other cards"));
    let events = g.ok(3, discard("2C"));
    // The others see a discard happened, and the trumps, never a plain discard.
    let seen = Tarot.redact(&g.state, &events[0], Viewer::Seat(1), false);
    assert_eq!(seen, json!({"type": "discarded", "seat": 3, "card": null, "shown": false}));
    assert_eq!(Tarot.redact(&g.state, &events[0], Viewer::Seat(3), false)["card"], "2C");
    assert_eq!(g.view(Viewer::Seat(1))["discarded_trumps"], json!(["T2", "T3"]));
    // The shown trumps are public; the plain discard is the taker's secret, though its face
    // was seen in the dog, so it is not in `secrets` (the view hides where it went).
    assert!(Tarot.secrets(&g.state).iter().all(|(c, _)| !cards("T2 T3 2C").contains(c)));
}

#[test]
fn a_discard_from_the_hand_stays_the_takers_secret() {
    let mut g = Game::new(4, Options::default());
    g.deal(deck_for(4, 0, &["", "", "", "KC KD KH KS T1 T21 EX 6C 7C 8C"], "2C 3C 4C 5C T13 T14"));
    g.take(3, Contract::Small);
    g.ok(3, discard("6C"));
    let secrets = Tarot.secrets(&g.state);
    assert!(secrets.contains(&(card("6C"), vec![3])), "only the taker knows a discard from the hand");
}

#[test]
fn without_the_dog_nobody_sees_it_and_it_counts_for_the_taker() {
    let mut g = Game::new(4, Options::default());
    g.deal(strong_taker());
    let events = g.take(3, Contract::WithoutDog);
    assert_eq!(events.last(), Some(&Event::DogSetAside { contract: Contract::WithoutDog, to: Side::Taker }));
    assert_eq!(g.d().play.hands[3].len(), 18);
    for viewer in [Viewer::Seat(3), Viewer::Seat(0), Viewer::Spectator] {
        assert_eq!(g.view(viewer)["dog"], Value::Null, "{viewer:?}");
    }
    let dog = g.d().dog.clone();
    for c in &dog {
        assert!(Tarot.secrets(&g.state).contains(&(*c, vec![])), "{c} is known to nobody");
    }
    assert_eq!(g.d().phase, Phase::Slam);
    g.play_out();
    let (count, _) = g.result();
    assert_eq!(count.dog_to, Side::Taker);
    assert_eq!(count.dog, dog);
    assert!(Tarot.secrets(&g.state).is_empty());
    assert_eq!(g.view(Viewer::Seat(0))["dog"], json!(dog), "shown once the deal is over");
    assert!(count.taker_half_points >= half_points_of(&dog));
    assert_eq!(count.taker_half_points + count.defence_half_points, 182);
}

#[test]
fn against_the_dog_it_counts_for_the_defence() {
    let mut g = Game::new(4, no_slam());
    g.deal(strong_taker());
    let events = g.take(3, Contract::AgainstDog);
    assert_eq!(events.last(), Some(&Event::DogSetAside { contract: Contract::AgainstDog, to: Side::Defence }));
    assert_eq!(g.d().phase, Phase::Playing, "without the slam option play starts at once");
    g.play_out();
    let (count, scoring) = g.result();
    assert_eq!(count.dog_to, Side::Defence);
    // The taker took no trick with the dog's cards, which count for the defence.
    let dog = cards("2C 3C 4C 5C T13 T14");
    assert!(count.defence_half_points >= half_points_of(&dog));
    assert_eq!(count.taker_half_points + count.defence_half_points, 182);
    assert_eq!(scoring.multiplier, 6);
}

// -----------------------------------------------------------------------------------------
// Trick play

/// Four players, dealer 0. Seat 3 (no court card) holds ten hearts, seat 2 four hearts and
/// the clubs, seat 1 the diamonds and seat 0 the spades; trumps are spread; the dog holds
/// the Petit, the 21 and four more trumps.
const PLAY_HANDS: [&str; 4] = [
    "3S 4S 5S 6S 7S 8S 9S TS JS CS QS KS T4 T5 T8 T15 T16 T17",
    "4D 5D 6D 7D 8D 9D TD JD CD QD KD T10 T11 T12 T13 T14 1S 2S",
    "JH CH QH KH 3C 4C 5C 6C 7C 8C 9C TC JC CC QC KC T6 T7",
    "1H 2H 3H 4H 5H 6H 7H 8H 9H TH 1C 2C T2 T3 EX 1D 2D 3D",
];
const PLAY_DOG: &str = "T1 T9 T18 T19 T20 T21";

/// Seat 3 plays without the dog and leads to the first trick.
fn play_game(options: Options) -> Game {
    let mut g = Game::new(4, options);
    g.deal(deck_for(4, 0, &PLAY_HANDS, PLAY_DOG));
    g.take(3, Contract::WithoutDog);
    g.up_to_play();
    assert_eq!(g.to_act(), [3]);
    g
}

#[test]
fn follow_suit_else_trump_else_overtrump() {
    let mut g = play_game(Options::default());
    g.play(3, "5H");
    // Seat 2 holds hearts.
    let err = g.refused(2, play("3C"));
    assert_eq!(err.rule, rule::FOLLOW_SUIT);
    assert!(err.explanation.en.contains("You played 3C but hold hearts"));
    assert!(!err.explanation.en.contains("JH"), "the explanation names no hidden card");
    assert_eq!(g.legal_cards(2), cards("JH CH QH KH"), "no duty to win the trick in a suit");
    g.play(2, "JH");
    // Seat 1 has no hearts but trumps: it must trump.
    let err = g.refused(1, play("4D"));
    assert_eq!(err.rule, rule::MUST_TRUMP);
    assert_eq!(g.legal_cards(1), cards("T10 T11 T12 T13 T14"));
    g.play(1, "T12");
    // Seat 0 must go over T12 with T15, T16 or T17.
    let err = g.refused(0, play("T5"));
    assert_eq!(err.rule, rule::OVERTRUMP);
    assert!(err.explanation.en.contains("You played T5 under T12"));
    assert_eq!(g.refused(0, play("3S")).rule, rule::MUST_TRUMP);
    assert_eq!(g.legal_cards(0), cards("T15 T16 T17"));
    let events = g.play(0, "T15");
    assert!(events.contains(&Event::TrickWon {
        trick_number: 1,
        winner: 0,
        card: card("T15"),
        reason: WinReason::HighestTrump,
        plays: vec![
            Play { seat: 3, card: card("5H") },
            Play { seat: 2, card: card("JH") },
            Play { seat: 1, card: card("T12") },
            Play { seat: 0, card: card("T15") },
        ],
        excuse_to: None,
        half_points: 1 + 3 + 1 + 1,
    }));
    assert_eq!(g.to_act(), [0], "the winner leads");
}

#[test]
fn trumps_led_must_be_beaten_when_possible_and_the_excuse_goes_anywhere() {
    let mut g = play_game(Options::default());
    for (seat, code) in [(3, "5H"), (2, "JH"), (1, "T12"), (0, "T15")] {
        g.play(seat, code);
    }
    g.play(0, "T4");
    // Seat 3 cannot beat T4 (T2, T3): any trump, or the Excuse.
    assert_eq!(g.legal_cards(3), cards("T2 T3 EX"));
    assert_eq!(g.refused(3, play("1H")).rule, rule::FOLLOW_SUIT);
    g.play(3, "EX");
    // Seat 2 must beat T4.
    assert_eq!(g.legal_cards(2), cards("T6 T7"));
    g.play(2, "T6");
    assert_eq!(g.refused(1, play("4D")).rule, rule::FOLLOW_SUIT);
    assert_eq!(g.legal_cards(1), cards("T10 T11 T13 T14"));
    let events = g.play(1, "T10");
    let Some(Event::TrickWon { winner, excuse_to, half_points, .. }) = events.last() else { panic!() };
    // The Excuse did not win; it goes back to seat 3's pile.
    assert_eq!((*winner, *excuse_to, *half_points), (1, Some(3), 12));
    assert!(g.d().pile(Side::Taker).contains(&EXCUSE));
    assert!(!g.d().pile(Side::Defence).contains(&EXCUSE));

    // Diamonds: seat 0 trumps; seat 3 follows; seat 2, with only a lower trump, plays it.
    g.play(1, "4D");
    assert_eq!(g.legal_cards(0), cards("T5 T8 T16 T17"), "no trump yet: any trump");
    g.play(0, "T8");
    assert_eq!(g.legal_cards(3), cards("1D 2D 3D"));
    g.play(3, "1D");
    assert_eq!(g.legal_cards(2), cards("T7"), "a lower trump when it cannot overtrump");
    g.play(2, "T7");
    assert_eq!(g.to_act(), [0]);
    // Spades: seat 3 must trump; seat 2, with neither spades nor trumps, plays anything.
    g.play(0, "5S");
    assert_eq!(g.legal_cards(3), cards("T2 T3"));
    g.play(3, "T2");
    assert_eq!(g.legal_cards(2).len(), g.d().play.hands[2].len());
    g.play(2, "KH");
    assert_eq!(g.legal_cards(1), cards("1S 2S"));
    let events = g.play(1, "1S");
    assert!(matches!(events.last(), Some(Event::TrickWon { winner: 3, reason: WinReason::HighestTrump, .. })));
}

#[test]
fn a_led_excuse_lets_the_next_card_set_the_suit() {
    let mut g = play_game(Options::default());
    g.play(3, "EX");
    assert_eq!(g.view(Viewer::Spectator)["trick"]["led"], Value::Null);
    assert_eq!(g.legal_cards(2).len(), 18, "anything after a led Excuse");
    g.play(2, "3C");
    assert_eq!(g.view(Viewer::Spectator)["trick"]["led"], "clubs");
    // Seat 1 has no clubs: it must trump.
    assert_eq!(g.refused(1, play("4D")).rule, rule::MUST_TRUMP);
    g.play(1, "T10");
    g.play(0, "T15");
    assert_eq!(g.d().play.tricks[0].winner, 0);
    assert_eq!(g.view(Viewer::Spectator)["last_trick"]["excuse_to"], 3, "the Excuse goes back to seat 3");
}

#[test]
fn the_excuse_is_exchanged_for_a_half_point_at_the_count() {
    let mut g = play_game(Options::default());
    for (seat, code) in [(3, "5H"), (2, "JH"), (1, "T12"), (0, "T15"), (0, "T4"), (3, "EX"), (2, "T6"), (1, "T10")] {
        g.play(seat, code);
    }
    g.play_out();
    let (count, _) = g.result();
    let fate = count.excuse.clone().unwrap();
    // Seat 3 (taker) played it to a trick seat 1 won: the taker keeps it and gives a half point.
    assert_eq!(
        fate,
        ExcuseFate {
            played_by: 3,
            trick_number: 2,
            counted_for: Side::Taker,
            half_point_to: Some(Side::Defence),
            rule: rule::EXCUSE_KEPT.into()
        }
    );
    let taker_cards: u32 =
        g.d().pile(Side::Taker).iter().map(|&c| half_points(c)).sum::<u32>() + half_points_of(&g.d().dog);
    assert_eq!(count.taker_half_points, taker_cards - 1);
    assert_eq!(count.taker_half_points + count.defence_half_points, 182);
    assert!(count.bouts >= 1, "the Excuse is a bout of the taker's");
}

#[test]
fn the_excuse_in_the_last_trick_goes_to_the_side_that_takes_it() {
    // The first legal card is always played, and the Excuse sorts last: it waits for the
    // last trick.
    let mut g = play_game(Options::default());
    g.play_out();
    let last = g.d().play.tricks.last().unwrap().clone();
    assert!(holds(&last, EXCUSE));
    assert_eq!(g.d().excuse_kept_by(&last), None);
    let (count, _) = g.result();
    let fate = count.excuse.clone().unwrap();
    assert_eq!(fate.rule, rule::EXCUSE_LAST_TRICK);
    assert_eq!(fate.counted_for, g.d().side_of(last.winner));
    assert_eq!(fate.half_point_to, None);
    assert_eq!(count.taker_half_points + count.defence_half_points, 182);
}

// -----------------------------------------------------------------------------------------
// Five players: the called king

/// Five players, dealer 0, seat 1 to take: ten top trumps, the Excuse, three kings and QH.
/// The king of hearts is with seat 2 (or seat 3, swapped with the 2 of hearts); seat 4,
/// to lead, holds two small hearts.
fn five_hands(partner: Seat) -> Vec<Card> {
    let (mut s2, mut s3) = (
        "KH 6H 7H 1S 2S 3S 4S 5S 6S 7S 8S 9S T9 T10 T11".to_string(),
        "2H 4H 5H 1D 2D 3D 4D 5D 6D 7D 8D 9D T6 T7 T8".to_string(),
    );
    if partner == 3 {
        s2 = s2.replace("KH", "2H");
        s3 = s3.replace("2H", "KH");
    }
    deck_for(
        5,
        0,
        &[
            "8H 9H TH JH CH TC JC CC QC TD JD CD QD T1 T2",
            "T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 EX KC KD KS QH",
            &s2,
            &s3,
            "1H 3H 1C 2C 3C 4C 5C 6C 7C 8C 9C T3 T4 T5 QS",
        ],
        "TS JS CS",
    )
}

/// Seat 1 takes a big game and calls hearts; the dog is discarded again; no slam.
fn five_player_game(partner: Seat) -> Game {
    let mut g = Game::new(5, Options::default());
    g.deal(five_hands(partner));
    g.take(1, Contract::Big);
    g
}

#[test]
fn with_five_players_the_taker_calls_a_king_and_the_rank_follows_the_hand() {
    assert_eq!(callable_value(&cards("KC KD KH 2S")), KING);
    assert_eq!(callable_value(&cards("KC KD KH KS")), QUEEN);
    assert_eq!(callable_value(&cards("KC KD KH KS QC QD QH QS")), KNIGHT);
    assert_eq!(callable_value(&cards("KC KD KH KS QC QD QH QS CC CD CH CS")), JACK);

    let mut g = five_player_game(2);
    assert_eq!(g.d().phase, Phase::Calling);
    assert_eq!(g.to_act(), [1]);
    assert!(g.view(Viewer::Seat(1))["dog"].is_null(), "the dog is turned after the call");
    assert_eq!(g.refused(2, Command::Call { suit: Suit::Hearts }).rule, core::TURN);
    assert_eq!(g.refused(1, discard("QH")).rule, core::PHASE);
    assert_eq!(Tarot.legal_moves(&g.state, 1).len(), 4);
    let events = g.ok(1, Command::Call { suit: Suit::Hearts });
    assert_eq!(events[0], Event::CardCalled { taker: 1, card: card("KH") });
    assert_eq!(events[1], Event::DogShown { cards: cards("TS JS CS"), taker_alone: false });
    assert_eq!(g.d().partner, Some(2));
    assert_eq!(g.view(Viewer::Spectator)["called_card"], "KH");
}

#[test]
fn a_taker_with_all_four_kings_calls_a_queen() {
    let mut g = Game::new(5, Options::default());
    g.deal(deck_for(5, 0, &["", "KC KD KH KS T20 T21"], ""));
    g.take(1, Contract::Small);
    let events = g.ok(1, Command::Call { suit: Suit::Spades });
    assert_eq!(events[0], Event::CardCalled { taker: 1, card: card("QS") });
}

/// Plays, in both versions of the deal, the first legal card that is neither the king nor
/// the 2 of hearts, comparing everything the taker, the other defenders and a spectator
/// can see; stops when a seat would have to play one of the two.
#[test]
fn the_called_partner_is_revealed_by_nothing_before_the_card_is_played() {
    let mut a = five_player_game(2);
    let mut b = five_player_game(3);
    let outsiders = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Seat(4), Viewer::Spectator];
    let compare = |a: &Game, b: &Game, step: &str| {
        assert_eq!(Tarot.status(&a.state), Tarot.status(&b.state), "{step}: whose turn");
        for viewer in outsiders {
            assert_eq!(a.view(viewer), b.view(viewer), "{step}: view of {viewer:?}");
            if let Viewer::Seat(s) = viewer {
                assert_eq!(Tarot.legal_moves(&a.state, s), Tarot.legal_moves(&b.state, s), "{step}: moves of {s}");
                for c in Tarot.move_space(&a.state, s) {
                    let decide =
                        |g: &Game| check_turn(&Tarot.status(&g.state), s).and_then(|_| Tarot.decide(&g.state, s, &c));
                    let (ra, rb) = (decide(a), decide(b));
                    assert_eq!(ra.is_ok(), rb.is_ok(), "{step}: {c:?} by {s}");
                    if let (Err(x), Err(y)) = (ra, rb) {
                        assert_eq!(x, y, "{step}: refusal of {c:?} to {s}");
                    }
                }
            }
            for (ea, eb) in a.log.iter().zip(&b.log).skip(1) {
                assert_eq!(
                    Tarot.redact(&a.state, ea, viewer, false),
                    Tarot.redact(&b.state, eb, viewer, false),
                    "{step}"
                );
            }
        }
    };
    // The first event differs only in the hands of seats 2 and 3, which nobody else sees.
    for viewer in outsiders {
        assert_eq!(
            Tarot.redact(&a.state, &a.log[0], viewer, false)["hands"],
            Tarot.redact(&b.state, &b.log[0], viewer, false)["hands"]
        );
    }
    compare(&a, &b, "after the bidding");
    for g in [&mut a, &mut b] {
        g.ok(1, Command::Call { suit: Suit::Hearts });
    }
    compare(&a, &b, "after the call");
    assert_eq!(a.view(Viewer::Seat(2))["partner"], 2, "the partner knows");
    assert_eq!(b.view(Viewer::Seat(3))["partner"], 3);
    assert_eq!(a.view(Viewer::Seat(3))["partner"], Value::Null);
    assert_eq!(a.view(Viewer::Seat(1))["taker_alone"], Value::Null);
    let mut steps = 0;
    loop {
        let seat = a.to_act()[0];
        let pick = |g: &Game| {
            Tarot.legal_moves(&g.state, seat).into_iter().find(|m| match m {
                Command::Discard { card: c } | Command::Play { card: c } => *c != card_kh() && *c != card("2H"),
                Command::DeclineSlam => true,
                _ => false,
            })
        };
        let (Some(ma), Some(mb)) = (pick(&a), pick(&b)) else { break };
        assert_eq!(ma, mb);
        a.ok(seat, ma.clone());
        b.ok(seat, mb);
        compare(&a, &b, &format!("after {ma:?} by seat {seat}"));
        steps += 1;
    }
    assert!(steps > 10, "the comparison covered the discard and several tricks ({steps} steps)");
    assert!(!a.d().partner_revealed);
    // Now the king: the partner is known to all.
    let holder = (0..5).find(|&s| a.d().play.hands[s].contains(&card_kh())).unwrap();
    if a.to_act() == [holder] && a.legal_cards(holder).contains(&card_kh()) {
        let events = a.play(holder, "KH");
        assert_eq!(events[1], Event::PartnerRevealed { seat: 2, card: card("KH"), taker_alone: false });
        assert_eq!(a.view(Viewer::Spectator)["partner"], 2);
    }
}

fn card_kh() -> Card {
    card("KH")
}

#[test]
fn playing_the_called_king_reveals_the_partner() {
    let mut g = five_player_game(2);
    g.ok(1, Command::Call { suit: Suit::Hearts });
    for code in ["TS", "JS", "CS"] {
        g.ok(1, discard(code));
    }
    g.ok(1, Command::DeclineSlam);
    // Seat 4 leads clubs; seat 3 trumps, seat 2 overtrumps, seat 1 and seat 0 follow.
    g.play(4, "1C");
    g.play(3, "T6");
    g.play(2, "T9");
    g.play(1, "KC");
    g.play(0, "TC");
    assert_eq!(g.to_act(), [2]);
    assert_eq!(g.view(Viewer::Seat(0))["partner"], Value::Null);
    let events = g.play(2, "KH");
    assert_eq!(events[1], Event::PartnerRevealed { seat: 2, card: card("KH"), taker_alone: false });
    for viewer in [Viewer::Seat(0), Viewer::Seat(3), Viewer::Spectator] {
        assert_eq!(g.view(viewer)["partner"], 2);
        assert_eq!(g.view(viewer)["taker_alone"], false);
    }
    g.play_out();
    let (count, scoring) = g.result();
    assert_eq!(count.taker_side, [1, 2]);
    // Two thirds to the taker, one third to the partner.
    assert_eq!(scoring.points[1], 2 * scoring.unit);
    assert_eq!(scoring.points[2], scoring.unit);
    for s in [0, 3, 4] {
        assert_eq!(scoring.points[s], -scoring.unit);
    }
    assert!(scoring.terms.iter().any(|t| t.to == 2 && t.explanation.en.contains("the partner")));
}

#[test]
fn the_first_lead_may_not_be_in_the_called_suit_unless_it_is_the_called_king() {
    let mut g = five_player_game(2);
    g.ok(1, Command::Call { suit: Suit::Hearts });
    for code in ["TS", "JS", "CS"] {
        g.ok(1, discard(code));
    }
    g.ok(1, Command::DeclineSlam);
    assert_eq!(g.to_act(), [4]);
    let err = g.refused(4, play("1H"));
    assert_eq!(err.rule, rule::CALLED_SUIT_LEAD);
    assert!(err.explanation.en.contains("the first lead may not be in the called suit, hearts"));
    assert!(!g.legal_cards(4).contains(&card("3H")));
    assert!(g.legal_cards(4).contains(&card("1C")));
    // Only the first lead: later, hearts may be led.
    assert!(playable(&cards("1H 2C"), &[]).contains(&card("1H")));

    // The holder of the called king may lead it.
    let mut g = Game::new(5, Options::default());
    g.deal(deck_for(5, 0, &["", "T12 T13 T14 T15 T16 T17 T18 T19 T20 T21", "", "", "KH 2H 3H"], ""));
    g.take(1, Contract::WithoutDog);
    g.ok(1, Command::Call { suit: Suit::Hearts });
    g.ok(1, Command::DeclineSlam);
    assert!(g.legal_cards(4).contains(&card("KH")));
    assert!(!g.legal_cards(4).contains(&card("2H")));
    let events = g.play(4, "KH");
    assert_eq!(events[1], Event::PartnerRevealed { seat: 4, card: card("KH"), taker_alone: false });
}

#[test]
fn a_called_king_in_the_dog_leaves_the_taker_alone_against_four() {
    let mut g = Game::new(5, Options::default());
    g.deal(deck_for(5, 0, &["", "T12 T13 T14 T15 T16 T17 T18 T19 T20 T21"], "KH 2H 3H"));
    g.take(1, Contract::Small);
    let events = g.ok(1, Command::Call { suit: Suit::Hearts });
    assert_eq!(events[1], Event::DogShown { cards: cards("KH 2H 3H"), taker_alone: true });
    assert_eq!(g.d().partner, None);
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        assert_eq!(g.view(viewer)["taker_alone"], true, "the shown dog tells everyone");
    }
    g.play_out();
    let (count, scoring) = g.result();
    assert_eq!(count.taker_side, [1]);
    assert_eq!(scoring.points[1], 4 * scoring.unit);
    assert_eq!(scoring.points.iter().sum::<i64>(), 0);
}

#[test]
fn a_taker_calling_a_card_of_their_own_plays_alone_and_only_they_know() {
    let mut g = Game::new(5, Options::default());
    g.deal(deck_for(5, 0, &["", "KH T12 T13 T14 T15 T16 T17 T18 T19 T20 T21"], ""));
    g.take(1, Contract::WithoutDog);
    g.ok(1, Command::Call { suit: Suit::Hearts });
    assert_eq!(g.d().partner, None);
    assert_eq!(g.view(Viewer::Seat(1))["taker_alone"], true);
    for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Spectator] {
        assert_eq!(g.view(viewer)["taker_alone"], Value::Null);
        assert_eq!(g.view(viewer)["partner"], Value::Null);
    }
    assert!(Tarot.rulebook().rule(rule::CALL_OWN_CARD).unwrap().house_rule);
}

// -----------------------------------------------------------------------------------------
// Slam, petit au bout, the Excuse in a slam

/// Three players, dealer 0: seat 2 holds every trump and two or three kings.
fn slam_deck(taker: &str, seat0: &str) -> Vec<Card> {
    deck_for(
        3,
        0,
        &[seat0, "1C 2C 3C 4C 5C 6C 7C 8C 9C TC JC CC QC KC 1D 2D 3D 4D 5D 6D 7D 8D 9D TD", taker],
        "8S 9S TS JS CS QS",
    )
}

const ALL_TRUMPS: &str = "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21";

/// Seat 2 leads `leads` in order; the others play their first legal card.
fn lead_out(g: &mut Game, leads: &[&str]) {
    for code in leads {
        assert_eq!(g.to_act(), [2]);
        g.play(2, code);
        for seat in [1, 0] {
            let c = g.legal_cards(seat)[0];
            g.ok(seat, Command::Play { card: c });
        }
    }
}

fn trumps_down() -> Vec<String> {
    (2..=21).rev().map(|n| format!("T{n}")).collect()
}

#[test]
fn an_announced_slam_leads_and_the_excuse_takes_the_last_trick() {
    let mut g = Game::new(3, Options::default());
    g.deal(slam_deck(
        &format!("{ALL_TRUMPS} EX KH KS"),
        "JD CD QD KD 1H 2H 3H 4H 5H 6H 7H 8H 9H TH JH CH QH 1S 2S 3S 4S 5S 6S 7S",
    ));
    g.take(2, Contract::Small);
    // Only the six dog cards may go: everything else is a king or a trump.
    for code in ["8S", "9S", "TS", "JS", "CS", "QS"] {
        g.ok(2, discard(code));
    }
    assert_eq!(g.d().phase, Phase::Slam);
    assert_eq!(Tarot.legal_moves(&g.state, 2), [Command::AnnounceSlam, Command::DeclineSlam]);
    assert_eq!(g.refused(1, Command::AnnounceSlam).rule, core::TURN);
    g.ok(2, Command::AnnounceSlam);
    assert_eq!(g.to_act(), [2], "the announcer leads");
    // A triple poignée: 18 trumps, the lowest.
    let events = g.ok(2, Command::DeclarePoignee { level: Poignee::Triple });
    let Event::PoigneeDeclared { trumps, .. } = &events[0] else { panic!() };
    assert_eq!(trumps, &(1..=18).map(Card::Trump).collect::<Vec<_>>());
    let mut leads: Vec<String> = trumps_down();
    leads.extend(["KH", "KS", "T1", "EX"].map(String::from));
    lead_out(&mut g, &leads.iter().map(String::as_str).collect::<Vec<_>>());
    let last = g.d().play.tricks.last().unwrap();
    assert_eq!((last.winner, last.card, last.reason), (2, EXCUSE, WinReason::ExcuseCompletesSlam));
    let (count, scoring) = g.result();
    assert_eq!(count.taker_half_points, 182);
    assert_eq!(count.bouts, 3);
    assert_eq!(count.excuse.as_ref().unwrap().rule, rule::EXCUSE_SLAM);
    // The Petit one trick before the Excuse is "at the end".
    assert_eq!(count.petit_au_bout, Some(Side::Taker));
    assert_eq!((count.slam, count.slam_announced), (Some(Side::Taker), true));
    // (25 + 91 - 36 + 10) x 1 + 40 + 400 = 530 per defender; the taker gets twice that.
    assert_eq!(scoring.unit, 530);
    assert_eq!(scoring.points, [-530, -530, 1060]);
    assert!(scoring.terms.iter().any(|t| t.rule == rule::SLAM && t.points == 800));
}

#[test]
fn an_unannounced_slam_scores_200_and_the_petit_in_the_last_trick_counts() {
    let mut g = Game::new(3, Options::default());
    g.deal(slam_deck(
        &format!("{ALL_TRUMPS} KH KS KD"),
        "JD CD QD 1H 2H 3H 4H 5H 6H 7H 8H 9H TH JH CH QH 1S 2S 3S 4S 5S 6S 7S EX",
    ));
    g.take(2, Contract::Small);
    for code in ["8S", "9S", "TS", "JS", "CS", "QS"] {
        g.ok(2, discard(code));
    }
    g.ok(2, Command::DeclineSlam);
    // The dealer's right leads the first trick: that is seat 2 anyway.
    let mut leads: Vec<String> = trumps_down();
    leads.extend(["KH", "KS", "KD", "T1"].map(String::from));
    lead_out(&mut g, &leads.iter().map(String::as_str).collect::<Vec<_>>());
    let last = g.d().play.tricks.last().unwrap().clone();
    assert!(holds(&last, EXCUSE) && holds(&last, PETIT) && last.winner == 2);
    let (count, scoring) = g.result();
    let fate = count.excuse.clone().unwrap();
    assert_eq!((fate.played_by, fate.counted_for, fate.rule.as_str()), (0, Side::Taker, rule::EXCUSE_LAST_TRICK));
    assert_eq!(count.taker_half_points, 182);
    assert_eq!(count.petit_au_bout, Some(Side::Taker));
    assert_eq!((count.slam, count.slam_announced), (Some(Side::Taker), false));
    // (25 + 55 + 10) x 1 + 200.
    assert_eq!(scoring.unit, 290);
    assert_eq!(scoring.points, [-290, -290, 580]);
}

#[test]
fn an_excuse_whose_side_wins_nothing_goes_to_the_side_that_took_its_trick() {
    let mut g = Game::new(3, no_slam());
    g.deal(slam_deck(
        &format!("{ALL_TRUMPS} KH KS KD"),
        "JD CD QD 1H 2H 3H 4H 5H 6H 7H 8H 9H TH JH CH QH 1S 2S 3S 4S 5S 6S 7S EX",
    ));
    g.take(2, Contract::Small);
    for code in ["8S", "9S", "TS", "JS", "CS", "QS"] {
        g.ok(2, discard(code));
    }
    g.play(2, "T21");
    g.play(1, "1C");
    let events = g.play(0, "EX");
    assert!(matches!(events.last(), Some(Event::TrickWon { winner: 2, excuse_to: Some(0), .. })));
    let mut leads: Vec<String> = trumps_down().into_iter().skip(1).collect();
    leads.extend(["KH", "KS", "KD", "T1"].map(String::from));
    lead_out(&mut g, &leads.iter().map(String::as_str).collect::<Vec<_>>());
    let (count, scoring) = g.result();
    let fate = count.excuse.clone().unwrap();
    assert_eq!((fate.counted_for, fate.half_point_to, fate.rule.as_str()), (Side::Taker, None, rule::EXCUSE_NO_CARD));
    assert_eq!(count.taker_half_points, 182);
    assert_eq!(count.slam, None, "no slam bonus without the option");
    assert_eq!(scoring.unit, 90);
}

// -----------------------------------------------------------------------------------------
// Poignée and tröst

#[test]
fn a_poignee_is_shown_before_the_first_card_with_the_lowest_trumps() {
    let mut g = Game::new(4, Options::default());
    g.deal(strong_taker());
    g.take(3, Contract::Small);
    for code in ["2C", "3C", "4C", "5C", "T2", "T3"] {
        g.ok(3, discard(code));
    }
    g.ok(3, Command::DeclineSlam);
    // Thirteen trumps and the Excuse: single or double, not triple (15).
    let moves = Tarot.legal_moves(&g.state, 3);
    assert!(moves.contains(&Command::DeclarePoignee { level: Poignee::Single }));
    assert!(moves.contains(&Command::DeclarePoignee { level: Poignee::Double }));
    let err = g.refused(3, Command::DeclarePoignee { level: Poignee::Triple });
    assert_eq!(err.rule, rule::POIGNEE_SIZES);
    assert!(err.explanation.en.contains("You hold 13 trumps and the Excuse; a triple poignée with 4 players needs 15"));
    let events = g.ok(3, Command::DeclarePoignee { level: Poignee::Single });
    assert_eq!(
        events,
        [Event::PoigneeDeclared { seat: 3, level: Poignee::Single, trumps: cards("T1 T4 T5 T6 T7 T8 T9 T10 T11 T12") }]
    );
    assert_eq!(g.refused(3, Command::DeclarePoignee { level: Poignee::Double }).rule, rule::ONE_POIGNEE);
    // The shown trumps are public now.
    assert_eq!(g.view(Viewer::Spectator)["poignees"][3]["trumps"], json!(cards("T1 T4 T5 T6 T7 T8 T9 T10 T11 T12")));
    assert!(Tarot.secrets(&g.state).iter().all(|(c, _)| !cards("T1 T4 T12").contains(c)));
    assert!(Tarot.secrets(&g.state).contains(&(card("T21"), vec![3])));
    g.play(3, "T21");
    // After one's first card it is too late.
    while g.to_act() != [3] {
        let s = g.to_act()[0];
        g.ok(s, Command::Play { card: g.legal_cards(s)[0] });
    }
    assert_eq!(g.refused(3, Command::DeclarePoignee { level: Poignee::Double }).rule, rule::POIGNEE_WHEN);
    assert_eq!(g.refused(3, Command::DeclareTrost).rule, rule::TROST);
}

#[test]
fn the_excuse_makes_up_a_poignee_only_for_a_player_showing_every_trump() {
    // Five players: eight trumps for a single poignée.
    let seven = cards("T2 T3 T4 T5 T6 T7 T8 EX 2C");
    assert_eq!(poignee_show(&seven, 5, Poignee::Single), Some(cards("T2 T3 T4 T5 T6 T7 T8 EX")));
    let eight = cards("T2 T3 T4 T5 T6 T7 T8 T9 EX");
    assert_eq!(
        poignee_show(&eight, 5, Poignee::Single),
        Some(cards("T2 T3 T4 T5 T6 T7 T8 T9")),
        "no Excuse when not needed"
    );
    assert_eq!(poignee_show(&cards("T2 T3 T4 T5 T6 T7 EX"), 5, Poignee::Single), None);
    assert_eq!(poignee_show(&cards("T2 T3 T4 T5 T6 T7 T8 T9 T10 EX"), 5, Poignee::Double).map(|v| v.len()), Some(10));
    assert_eq!(poignee_sizes(3), [13, 15, 18]);
    assert_eq!(poignee_sizes(4), [10, 13, 15]);
    assert_eq!(poignee_sizes(5), [8, 10, 13]);
}

#[test]
fn a_poignee_or_troest_may_be_switched_off() {
    let g = play_game(Options { poignee: false, trost: false, ..Default::default() });
    assert_eq!(g.refused(3, Command::DeclareTrost).rule, rule::ADVANCED_OFF);
    assert_eq!(g.refused(3, Command::DeclarePoignee { level: Poignee::Single }).rule, rule::ADVANCED_OFF);
    assert!(Tarot.legal_moves(&g.state, 3).iter().all(|m| matches!(m, Command::Play { .. })));
}

#[test]
fn troest_pays_ten_from_each_player_to_a_hand_without_court_cards() {
    let mut g = play_game(Options::default());
    // Seat 3 has no king, queen, knight or jack.
    assert!(Tarot.legal_moves(&g.state, 3).contains(&Command::DeclareTrost));
    assert_eq!(g.ok(3, Command::DeclareTrost), [Event::TrostDeclared { seat: 3 }]);
    assert_eq!(g.refused(3, Command::DeclareTrost).rule, rule::TROST);
    g.play(3, "5H");
    let err = g.refused(2, Command::DeclareTrost);
    assert_eq!(err.rule, rule::TROST);
    assert!(err.explanation.en.contains("You hold court cards"));
    assert_eq!(g.refused(1, Command::DeclareTrost).rule, core::TURN);
    g.play_out();
    let (count, scoring) = g.result();
    assert_eq!(count.trost, [3]);
    let trost: Vec<(usize, i64)> =
        scoring.terms.iter().filter(|t| t.rule == rule::TROST).map(|t| (t.to, t.points)).collect();
    assert_eq!(trost, [(0, -10), (1, -10), (2, -10), (3, 30)]);
    assert_eq!(scoring.points.iter().sum::<i64>(), 0);
    assert_eq!(scoring.points[3], 3 * scoring.unit + 30);
}

#[test]
fn an_announced_slam_is_led_by_the_taker_wherever_they_sit() {
    let strong = "KC KD KH KS T1 T21 EX T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12";
    for (announce, leader) in [(true, 1), (false, 3)] {
        let mut g = Game::new(4, Options::default());
        g.deal(deck_for(4, 0, &["", strong], "T13 T14 T15 T16 T17 T18"));
        g.take(1, Contract::WithoutDog);
        g.ok(1, if announce { Command::AnnounceSlam } else { Command::DeclineSlam });
        assert_eq!(g.to_act(), [leader]);
        assert_eq!(g.view(Viewer::Spectator)["slam_announced"], announce);
    }
    // Without the option there is no announcement.
    let mut g = Game::new(4, no_slam());
    g.deal(deck_for(4, 0, &["", strong], ""));
    g.take(1, Contract::WithoutDog);
    assert_eq!(g.d().phase, Phase::Playing);
    assert_eq!(g.refused(3, Command::AnnounceSlam).rule, core::PHASE);
}

// -----------------------------------------------------------------------------------------
// Scoring: the text's worked examples

/// Four players, seat 0 takes; nothing advanced unless added.
fn facts4(contract: Contract, bouts: usize, half: u32) -> Facts {
    Facts {
        players: 4,
        taker: 0,
        partner: None,
        contract,
        bouts,
        taker_half_points: half,
        petit_au_bout: None,
        poignees: vec![],
        trost: vec![],
        slam_announced: false,
        slam: None,
    }
}

fn rules_of(scoring: &Scoring) -> Vec<&str> {
    let mut r: Vec<&str> = scoring.terms.iter().map(|t| t.rule.as_str()).collect();
    r.dedup();
    r
}

#[test]
fn worked_example_a_big_game_with_two_bouts_and_50_points() {
    let s = score(&facts4(Contract::Big, 2, 100), &Options::default());
    assert_eq!((s.target, s.counted_points, s.made, s.difference, s.multiplier), (41, 50, true, 9, 2));
    // 2 x (25 + 9) = 68 from each defender; the taker gets 3 x 68 = 204.
    assert_eq!(s.unit, 68);
    assert_eq!(s.points, [204, -68, -68, -68]);
    assert_eq!(rules_of(&s), [rule::BASE, rule::DIFFERENCE]);
    let taker: Vec<i64> = s.terms.iter().filter(|t| t.to == 0).map(|t| t.points).collect();
    assert_eq!(taker, [150, 54]);
    assert!(s.terms[0]
        .explanation
        .en
        .contains("Big game made: base 25 × 2 = 50 per defender; seat 0 (the taker) 3 × 50 = 150."));
}

#[test]
fn worked_example_the_same_big_game_lost_with_35_points() {
    let s = score(&facts4(Contract::Big, 2, 70), &Options::default());
    assert_eq!((s.made, s.difference), (false, 6));
    // 2 x (25 + 6) = 62 to each defender; the taker pays 3 x 62 = 186.
    assert_eq!(s.unit, -62);
    assert_eq!(s.points, [-186, 62, 62, 62]);
}

/// A small game with two bouts, won or lost by one point, the Petit taken in the last trick
/// by `pab`.
fn petit_case(made: bool, pab: Side) -> Scoring {
    let mut f = facts4(Contract::Small, 2, if made { 84 } else { 80 });
    f.petit_au_bout = Some(pab);
    score(&f, &Options::default())
}

#[test]
fn worked_examples_of_the_petit_in_the_last_trick_with_the_texts_two_errors_corrected() {
    // Won, the taker's Petit last: the text writes 1x(25+1+10)=26; it is 36 (taker +108).
    let s = petit_case(true, Side::Taker);
    assert_eq!((s.unit, s.points[0]), (36, 108));
    // Lost, the taker's Petit last: the text writes 1x(25-1-10)=14; it is 25+1-10 = 16 (-48).
    let s = petit_case(false, Side::Taker);
    assert_eq!((s.unit, s.points[0]), (-16, -48));
    assert_eq!(s.points[1], 16);
    // Won, the defence's Petit last: 1x(25+1-10) = 16, taker +48.
    let s = petit_case(true, Side::Defence);
    assert_eq!((s.unit, s.points[0]), (16, 48));
    // Lost, the defence's Petit last: 1x(25+1+10) = 36, taker -108.
    let s = petit_case(false, Side::Defence);
    assert_eq!((s.unit, s.points[0]), (-36, -108));
    assert!(rules_of(&s).contains(&rule::PETIT_AU_BOUT));
    // Inside the bracket: multiplied with the contract.
    let mut f = facts4(Contract::AgainstDog, 2, 84);
    f.petit_au_bout = Some(Side::Taker);
    assert_eq!(score(&f, &Options::default()).unit, 6 * 36);
}

#[test]
fn worked_examples_of_the_poignee_which_goes_to_the_side_that_wins() {
    for (shown_by, made, unit) in [(0, true, 46), (0, false, -46), (2, true, 46), (2, false, -46)] {
        let mut f = facts4(Contract::Small, 2, if made { 84 } else { 80 });
        f.poignees = vec![(shown_by, Poignee::Single)];
        let s = score(&f, &Options::default());
        // 1x(25+1)+20 = 46 each; the taker 3 x 46 = 138 either way.
        assert_eq!(s.unit, unit, "shown by {shown_by}, made {made}");
        assert_eq!(s.points[0], 3 * unit);
    }
    // Double and triple, never multiplied.
    let mut f = facts4(Contract::AgainstDog, 2, 82);
    f.poignees = vec![(1, Poignee::Double), (3, Poignee::Triple)];
    assert_eq!(score(&f, &Options::default()).unit, 6 * 25 + 30 + 40);
    // The summary's combination: a win with the taker's Petit last and a poignée: +30.
    let mut f = facts4(Contract::Small, 2, 84);
    f.petit_au_bout = Some(Side::Taker);
    f.poignees = vec![(0, Poignee::Single)];
    assert_eq!(score(&f, &Options::default()).unit, 26 + 30);
}

#[test]
fn worked_example_five_players_share_two_thirds_and_one_third() {
    let mut f = facts4(Contract::Big, 2, 100);
    f.players = 5;
    f.partner = Some(3);
    let s = score(&f, &Options::default());
    // 3 x 68 = 204 from the defence: 136 to the taker and 68 to the partner.
    assert_eq!(s.points, [136, -68, -68, 68, -68]);
    // Alone, the taker takes all four defenders' share.
    f.partner = None;
    assert_eq!(score(&f, &Options::default()).points, [272, -68, -68, -68, -68]);
    // Three players: twice.
    f.players = 3;
    assert_eq!(score(&f, &Options::default()).points, [136, -68, -68]);
    assert_eq!(share(5, 0, Some(0), 0), 4, "calling oneself is playing alone");
}

#[test]
fn a_half_point_goes_to_the_defence_by_the_text_and_to_the_winner_by_the_federation() {
    let text = Options::default();
    let fft = Options { half_point: HalfPoint::Fft, ..Default::default() };
    // 40.5 is not enough where 41 is needed.
    let s = score(&facts4(Contract::Small, 2, 81), &text);
    assert_eq!((s.made, s.counted_points, s.difference, s.unit), (false, 40, 1, -26));
    assert_eq!(score(&facts4(Contract::Small, 2, 81), &fft).unit, -26);
    // 41.5: made; the text gives the half point to the defence, the federation to the taker.
    let s = score(&facts4(Contract::Small, 2, 83), &text);
    assert_eq!((s.made, s.counted_points, s.difference, s.unit), (true, 41, 0, 25));
    let s = score(&facts4(Contract::Small, 2, 83), &fft);
    assert_eq!((s.made, s.counted_points, s.difference, s.unit), (true, 42, 1, 26));
    // Exactly the target is made.
    let s = score(&facts4(Contract::Small, 0, 112), &text);
    assert_eq!((s.made, s.difference, s.unit), (true, 0, 25));
    let s = score(&facts4(Contract::Small, 0, 111), &text);
    assert_eq!((s.made, s.difference, s.unit), (false, 1, -26));
}

#[test]
fn slams_score_400_200_minus_200_and_200_to_a_defence_slam() {
    let base = |announced: bool, slam: Option<Side>, half: u32| {
        let mut f = facts4(Contract::Small, 3, half);
        f.slam_announced = announced;
        f.slam = slam;
        score(&f, &Options::default()).unit
    };
    assert_eq!(base(true, Some(Side::Taker), 182), 25 + 55 + 400);
    assert_eq!(base(false, Some(Side::Taker), 182), 25 + 55 + 200);
    assert_eq!(base(true, None, 150), 25 + 39 - 200);
    let mut f = facts4(Contract::Small, 0, 0);
    f.slam = Some(Side::Defence);
    assert_eq!(score(&f, &Options::default()).unit, -(25 + 56) - 200);
    f.slam_announced = true;
    assert_eq!(score(&f, &Options::default()).unit, -(25 + 56) - 200 - 200, "both apply");
    assert!(rules_of(&score(&f, &Options::default())).contains(&rule::DEFENCE_SLAM));
    // Switched off, no slam counts.
    let off = Options { slam: false, ..Default::default() };
    assert_eq!(score(&f, &off).unit, -(25 + 56));
}

#[test]
fn switched_off_advanced_rules_score_nothing() {
    let mut f = facts4(Contract::Small, 2, 84);
    f.petit_au_bout = Some(Side::Taker);
    f.poignees = vec![(1, Poignee::Single)];
    f.trost = vec![2];
    let on = score(&f, &Options::default());
    assert_eq!(on.unit, 26 + 10 + 20);
    assert_eq!(on.points, [168 - 10, -56 - 10, -56 + 30, -56 - 10]);
    let off = Options { petit_au_bout: false, poignee: false, trost: false, ..Default::default() };
    let s = score(&f, &off);
    assert_eq!((s.unit, s.points.clone()), (26, vec![78, -26, -26, -26]));
}

#[test]
fn every_deal_sums_to_zero_and_the_terms_add_up() {
    for players in 3..=5 {
        for partner in [None, Some(2)] {
            let mut f = facts4(Contract::WithoutDog, 1, 97);
            f.players = players;
            f.partner = partner.filter(|_| players == 5);
            f.poignees = vec![(1, Poignee::Double)];
            f.trost = vec![0, 2];
            f.petit_au_bout = Some(Side::Defence);
            let s = score(&f, &Options::default());
            assert_eq!(s.points.iter().sum::<i64>(), 0);
            for seat in 0..players {
                assert_eq!(s.terms.iter().filter(|t| t.to == seat).map(|t| t.points).sum::<i64>(), s.points[seat]);
            }
        }
    }
}

// -----------------------------------------------------------------------------------------
// The match, options, shapes, hidden information, replay

#[test]
fn a_match_is_one_round_of_deals_by_default_and_void_deals_do_not_count() {
    let mut g = Game::new(3, Options::default());
    assert_eq!(g.view(Viewer::Spectator)["deals_total"], 3);
    // A void deal first.
    g.deal(deck_for(3, 0, &[], ""));
    for seat in [2, 1, 0] {
        g.ok(seat, Command::Pass);
    }
    for n in 0..3 {
        let dealer = g.state.deals.next_dealer;
        g.deal(deck_for(3, dealer, &[], ""));
        g.take(Seating::counter_clockwise(3).next(dealer), Contract::Small);
        let events = g.play_out();
        assert_eq!(matches!(events.last(), Some(Event::MatchEnded { .. })), n == 2);
    }
    assert_eq!((g.state.deals.number, g.state.deals_played), (4, 3));
    let Status::Finished { outcome } = Tarot.status(&g.state) else { panic!() };
    assert_eq!(outcome.winners, match_winners(&g.state.deals.scores));
    assert_eq!(g.refused(0, Command::Pass).rule, core::MATCH_OVER);
    assert!(g.try_deal(decks::tarot78()).is_err());
}

#[test]
fn a_match_may_have_a_set_number_of_deals_or_a_score_limit() {
    let mut g = Game::new(4, Options { deals: Some(1), ..Default::default() });
    g.deal(deck_for(4, 0, &[], ""));
    g.take(3, Contract::Small);
    let events = g.play_out();
    assert!(matches!(events.last(), Some(Event::MatchEnded { .. })));

    let opts = Options { score_limit: Some(50), ..Default::default() };
    assert_eq!(opts.deals_total(4), None);
    let mut g = Game::new(4, opts);
    assert_eq!(g.view(Viewer::Spectator)["deals_total"], Value::Null);
    let mut deals = 0;
    while !Tarot.status(&g.state).is_finished() {
        let dealer = g.state.deals.next_dealer;
        g.deal(deck_for(4, dealer, &[], ""));
        g.take(Seating::counter_clockwise(4).next(dealer), Contract::Big);
        g.play_out();
        deals += 1;
        assert!(deals < 100);
    }
    assert!(g.state.deals.scores.iter().any(|&s| s >= 50));
    assert!(Options { deals: Some(7), score_limit: Some(10), ..Default::default() }.deals_total(4) == Some(7));
}

#[test]
fn options_have_their_defaults_and_bad_values_are_refused() {
    let game = erase(Tarot);
    let normal = game.normalize_options(&Value::Null).unwrap();
    assert_eq!(
        normal,
        json!({"deals": null, "score_limit": null, "half_point": "text", "petit_au_bout": true,
               "poignee": true, "trost": true, "slam": true})
    );
    let fft = game.normalize_options(&json!({"half-point": "fft", "score-limit": 500})).unwrap();
    assert_eq!((fft["half_point"].clone(), fft["score_limit"].clone()), (json!("fft"), json!(500)));
    assert!(game.normalize_options(&json!({"half_point": "half"})).is_err());
    assert!(game.setup(4, &json!({"deals": 0})).is_err());
    assert!(game.setup(4, &json!({"score_limit": 0})).is_err());
}

#[test]
fn commands_and_events_have_their_json_shapes() {
    let parse = |v: Value| serde_json::from_value::<Command>(v).unwrap();
    assert_eq!(parse(json!({"type": "bid", "contract": "big"})), bid(Contract::Big));
    assert_eq!(parse(json!({"type": "bid", "contract": "garde_contre"})), bid(Contract::AgainstDog));
    assert_eq!(parse(json!({"type": "pass"})), Command::Pass);
    assert_eq!(parse(json!({"type": "call", "suit": "hearts"})), Command::Call { suit: Suit::Hearts });
    assert_eq!(parse(json!({"type": "discard", "card": "CH"})), discard("CH"));
    assert_eq!(parse(json!({"type": "announce_slam"})), Command::AnnounceSlam);
    assert_eq!(parse(json!({"type": "decline_slam"})), Command::DeclineSlam);
    assert_eq!(
        parse(json!({"type": "declare_poignee", "level": "double"})),
        Command::DeclarePoignee { level: Poignee::Double }
    );
    assert_eq!(parse(json!({"type": "declare_trost"})), Command::DeclareTrost);
    assert_eq!(parse(json!({"type": "play", "card": "T21"})), play("T21"));
    assert!(serde_json::from_value::<Command>(json!({"type": "play", "card": "T22"})).is_err());
    let e = Event::TrickWon {
        trick_number: 2,
        winner: 1,
        card: card("T10"),
        reason: WinReason::HighestTrump,
        plays: vec![Play { seat: 3, card: EXCUSE }, Play { seat: 2, card: card("T10") }],
        excuse_to: Some(3),
        half_points: 10,
    };
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"type": "trick_won", "trick_number": 2, "winner": 1, "card": "T10", "reason": "highest-trump",
               "plays": [{"seat": 3, "card": "EX"}, {"seat": 2, "card": "T10"}], "excuse_to": 3, "half_points": 10})
    );
    assert_eq!(
        serde_json::to_value(Event::CardCalled { taker: 1, card: card("KH") }).unwrap(),
        json!({"type": "card_called", "taker": 1, "card": "KH"})
    );
}

#[test]
fn the_first_event_shows_each_seat_only_its_own_hand_until_the_deal_is_over() {
    let mut g = Game::new(4, Options::default());
    let events = g.deal(deck_for(4, 0, &[], ""));
    let e = &events[0];
    let own = Tarot.redact(&g.state, e, Viewer::Seat(1), false);
    assert!(own.get("deck").is_none() && own.get("dog_positions").is_none());
    assert_eq!(own["dog"], Value::Null);
    assert_eq!(own["dog_size"], 6);
    assert_eq!(own["hands"][1], json!(g.d().play.hands[1]));
    assert_eq!(own["hands"][0], Value::Null);
    assert_eq!(own["hand_sizes"], json!([18, 18, 18, 18]));
    assert_eq!(Tarot.redact(&g.state, e, Viewer::Spectator, false)["hands"], json!([null, null, null, null]));
    for viewer in [Viewer::Record, Viewer::Seat(0)] {
        assert_eq!(Tarot.redact(&g.state, e, viewer, viewer == Viewer::Seat(0)), serde_json::to_value(e).unwrap());
    }
    let view = g.view(Viewer::Seat(1));
    assert_eq!(view["hand"], json!(g.d().play.hands[1]));
    assert!(view.get("hands").is_none() && view.get("deck").is_none());
    assert_eq!(g.view(Viewer::Record)["hands"], json!(g.d().play.hands));
    // Secret: every card in a hand to its holder, the dog to nobody.
    let secrets = Tarot.secrets(&g.state);
    assert_eq!(secrets.len(), 78);
    assert_eq!(secrets.iter().filter(|(_, who)| who.is_empty()).count(), 6);
}

// -----------------------------------------------------------------------------------------
// Random matches

/// Many cheap random matches over every test option set, each checked on its log; the
/// generic tests check the rest on the way.
#[test]
fn random_match_logs_add_up() {
    let book = Tarot.rulebook();
    let plan = Plan { log_only: 60, ..Plan::default() };
    let played = random_matches(&*erase(Tarot), plan, |players, options, report| {
        check_log(players, options, &book, &report.log);
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played, 3 * 6 * 60);
}

/// What every match's log must show: each deal starts from the scores so far, sums to zero
/// and counts 91 points; the terms name rules of the book; the match ends as the options say.
fn check_log(players: usize, options: &Value, book: &Rulebook, log: &[Value]) {
    let opts: Options = serde_json::from_value(options.clone()).unwrap();
    let mut totals = vec![0i64; players];
    let mut scored = 0u32;
    let mut ended = None;
    for event in log {
        match serde_json::from_value::<Event>(event.clone()).unwrap() {
            Event::DealStarted { scores, deals_played, .. } => {
                assert_eq!(scores, totals, "a deal starts from the scores so far");
                assert_eq!(deals_played, scored);
                assert!(ended.is_none());
            }
            Event::DealScored { count, scoring, totals: after, .. } => {
                assert_eq!(count.taker_half_points + count.defence_half_points, TOTAL_HALF_POINTS);
                assert_eq!(scoring.points.iter().sum::<i64>(), 0, "a deal sums to zero");
                for t in &scoring.terms {
                    assert!(book.rule(&t.rule).is_some(), "{} is not in the rulebook", t.rule);
                    totals[t.to] += t.points;
                }
                assert_eq!(after, totals);
                assert!(count.taker_side.contains(&count.taker));
                assert_eq!(count.taker_side.len(), 1 + count.partner.is_some() as usize);
                if !opts.slam {
                    assert!(!count.slam_announced && count.slam.is_none());
                }
                scored += 1;
            }
            Event::MatchEnded { scores, winners } => {
                assert_eq!(winners, match_winners(&scores));
                ended = Some(scores);
            }
            _ => {}
        }
    }
    assert_eq!(ended.as_ref(), Some(&totals), "final scores are the sum of the scored terms");
    match (opts.deals_total(players), opts.score_limit) {
        (Some(n), None) => assert_eq!(scored, n),
        (None, Some(l)) => assert!(totals.iter().any(|&t| t >= l as i64)),
        (Some(n), Some(_)) => assert!(scored <= n),
        (None, None) => unreachable!(),
    }
}
