use std::collections::BTreeSet;

use super::*;
use crate::cards::{card, cards};
use crate::game::{cards_in, erase};
use crate::rules::core;
use crate::simulate::{random_matches, Driver, Plan};
use serde_json::json;

type M = Driver<Priffe>;

fn bid(call: Call) -> Command {
    Command::Bid { bid: call }
}

fn play(code: &str) -> Command {
    Command::Play { card: card(code) }
}

/// Seat 0 holds all thirteen hearts; the others the rest, a suit in turn.
fn all_hearts() -> [Vec<Card>; SEATS] {
    [
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
    .map(cards)
}

impl Driver<Priffe> {
    fn with(options: Value) -> M {
        M::new(4, serde_json::from_value(options).unwrap())
    }

    /// Deals these hands (by seat), whoever deals and wherever they sit.
    fn deal_hands(&mut self, hands: &[Vec<Card>; SEATS]) -> Vec<Event> {
        let seating = self.state.seating;
        let dc = chair_of(&seating, self.state.deals.next_dealer);
        let deck: Vec<Card> = (0..52).map(|i| hands[seating[(dc + 1 + i) % SEATS]][i / 4]).collect();
        self.deal(deck)
    }

    /// The calls in turn from forehand.
    fn calls(&mut self, calls: &[Call]) -> Vec<Event> {
        let mut events = Vec::new();
        for &c in calls {
            let seat = self.to_act()[0];
            events.extend(self.ok(seat, bid(c)));
        }
        events
    }

    fn view(&self, viewer: Viewer) -> Value {
        serde_json::to_value(Priffe.view(&self.state, viewer)).unwrap()
    }

    fn current(&self) -> &Deal {
        self.state.deals.deal.as_ref().unwrap()
    }

    /// Plays out the deal with the bots' choices.
    fn bots_finish(&mut self, seed: u64) -> Vec<Event> {
        let mut events = Vec::new();
        let mut n = seed;
        while let [seat, ..] = self.to_act()[..] {
            n += 1;
            let command = Priffe.bot_move(&self.state, seat, n).unwrap();
            events.extend(self.ok(seat, command));
        }
        events
    }
}

fn scored(events: &[Event]) -> (Vec<ScoreTerm>, [i64; SEATS], [i64; 2], [i64; 2]) {
    events
        .iter()
        .find_map(|e| match e {
            Event::DealScored { terms, points, below, above, .. } => Some((terms.clone(), *points, *below, *above)),
            _ => None,
        })
        .expect("the deal was scored")
}

fn one(items: &[SideScore]) -> (usize, i64, bool, &'static str) {
    assert_eq!(items.len(), 1, "{items:?}");
    (items[0].side, items[0].points, items[0].below, items[0].rule)
}

// --- the text's worked examples -----------------------------------------------------------

#[test]
fn worked_example_nine_tricks_give_thirty() {
    let items = score_sides(Contract::Preference, Some(0), [9, 4], None, false);
    assert_eq!(one(&items), (0, 30, true, rule::MADE));
    assert!(items[0].en.contains("10 × (9 − 6) = 30"), "{}", items[0].en);
    assert_eq!(one(&score_sides(Contract::Ruter, Some(1), [4, 9], None, false)), (1, 30, true, rule::MADE));
}

#[test]
fn worked_example_hearts_defeated_by_eight_tricks_gives_forty() {
    // Side A bid hearts, side B won the deal with eight tricks: 40 to side B.
    let items = score_sides(Contract::Hjarter, Some(0), [5, 8], None, false);
    assert_eq!(one(&items), (1, 40, true, rule::DEFEATED));
    assert!(items[0].sv.contains("2 × 10 × 2 = 40"), "{}", items[0].sv);
}

#[test]
fn worked_example_noll_with_six_tricks_ten_with_five_twenty() {
    assert_eq!(one(&score_sides(Contract::Noll, Some(1), [7, 6], None, false)), (1, 10, true, rule::NOLL_MADE));
    assert_eq!(one(&score_sides(Contract::Noll, Some(1), [8, 5], None, false)), (1, 20, true, rule::NOLL_MADE));
    // Failed: the other side scores 20 per trick beyond six the noll side took.
    assert_eq!(one(&score_sides(Contract::Noll, Some(1), [4, 9], None, false)), (0, 60, true, rule::NOLL_DEFEATED));
}

#[test]
fn forced_noll_has_no_penalty_tricks() {
    assert_eq!(one(&score_sides(Contract::Tvangsnoll, None, [9, 4], None, false)), (1, 30, true, rule::FORCED));
    assert_eq!(one(&score_sides(Contract::Tvangsnoll, None, [6, 7], None, false)), (0, 10, true, rule::FORCED));
}

#[test]
fn slams_and_penalty_slams() {
    let rules = |items: Vec<SideScore>| items.iter().map(|i| (i.side, i.points, i.below, i.rule)).collect::<Vec<_>>();
    assert_eq!(
        rules(score_sides(Contract::Preference, Some(0), [12, 1], None, false)),
        [(0, 60, true, rule::MADE), (0, 10, false, rule::SMALL_SLAM)]
    );
    assert_eq!(
        rules(score_sides(Contract::Hjarter, Some(1), [0, 13], None, false)),
        [(1, 70, true, rule::MADE), (1, 20, false, rule::GRAND_SLAM)]
    );
    assert_eq!(
        rules(score_sides(Contract::Noll, Some(0), [1, 12], None, false)),
        [(0, 60, true, rule::NOLL_MADE), (0, 10, false, rule::SMALL_SLAM)]
    );
    assert_eq!(
        rules(score_sides(Contract::Noll, Some(0), [0, 13], None, false)),
        [(0, 70, true, rule::NOLL_MADE), (0, 20, false, rule::GRAND_SLAM)]
    );
    assert_eq!(
        rules(score_sides(Contract::Ruter, Some(0), [1, 12], None, false)),
        [(1, 120, true, rule::DEFEATED), (1, 20, false, rule::PENALTY_SMALL_SLAM)]
    );
    assert_eq!(
        rules(score_sides(Contract::Noll, Some(0), [13, 0], None, false)),
        [(1, 140, true, rule::NOLL_DEFEATED), (1, 40, false, rule::PENALTY_GRAND_SLAM)]
    );
    // House rule: forced noll's winning side gets the slam bonus too.
    assert_eq!(
        rules(score_sides(Contract::Tvangsnoll, None, [12, 1], None, false)),
        [(1, 60, true, rule::FORCED), (1, 10, false, rule::SMALL_SLAM)]
    );
}

#[test]
fn honours_fifty_forty_thirty() {
    let hands = |codes: [&str; 4]| codes.map(cards).to_vec();
    let aces_four = hands(["AC AD AH AS", "2C", "3C", "4C"]);
    assert_eq!(honours_in(Contract::Preference, &aces_four), Some((0, HonoursHeld::Four)));
    let three_and_partner = hands(["2C", "AC AD AH", "3C", "AS"]);
    assert_eq!(honours_in(Contract::Preference, &three_and_partner), Some((1, HonoursHeld::ThreeAndPartner)));
    let three = hands(["AS", "AC AD AH", "3C", "4C"]);
    assert_eq!(honours_in(Contract::Preference, &three), Some((1, HonoursHeld::Three)));
    let split = hands(["AS AD", "AC AH", "3C", "4C"]);
    assert_eq!(honours_in(Contract::Preference, &split), None);
    // Trumps' A-K-Q-J, and the twos at noll.
    let hearts = hands(["AH KH QH", "JH", "AS", "AC"]);
    assert_eq!(honours_in(Contract::Hjarter, &hearts), Some((0, HonoursHeld::Three)));
    let twos = hands(["AS", "AC", "2C 2D 2H 2S", "3C"]);
    assert_eq!(honours_in(Contract::Tvangsnoll, &twos), Some((2, HonoursHeld::Four)));
    let points = |held| score_sides(Contract::Preference, Some(0), [7, 6], Some((1, held)), false)[1].clone();
    for (held, p, r) in [
        (HonoursHeld::Four, 50, rule::HONOURS_FOUR),
        (HonoursHeld::ThreeAndPartner, 40, rule::HONOURS_THREE_PARTNER),
        (HonoursHeld::Three, 30, rule::HONOURS_THREE),
    ] {
        let item = points(held);
        assert_eq!((item.side, item.points, item.below, item.rule), (1, p, false, r));
    }
}

#[test]
fn old_style_values_double_penalties_and_honours_as_tricks() {
    let o = |c, d, t, h| score_sides(c, d, t, h, true);
    assert_eq!(one(&o(Contract::Spader, Some(0), [8, 5], None)), (0, 4, true, rule::MADE));
    assert_eq!(one(&o(Contract::Klover, Some(0), [8, 5], None)), (0, 6, true, rule::MADE));
    assert_eq!(one(&o(Contract::Ruter, Some(0), [8, 5], None)), (0, 8, true, rule::MADE));
    assert_eq!(one(&o(Contract::Hjarter, Some(0), [8, 5], None)), (0, 10, true, rule::MADE));
    assert_eq!(one(&o(Contract::Noll, Some(0), [5, 8], None)), (0, 12, true, rule::NOLL_MADE));
    assert_eq!(one(&o(Contract::Preference, Some(0), [8, 5], None)), (0, 16, true, rule::MADE));
    assert_eq!(one(&o(Contract::Preference, Some(0), [5, 8], None)), (1, 32, true, rule::DEFEATED));
    let honours = o(Contract::Hjarter, Some(0), [7, 6], Some((0, HonoursHeld::Three)));
    assert_eq!((honours[1].points, honours[1].rule), (10, rule::OLD_HONOURS));
    let honours = o(Contract::Hjarter, Some(0), [7, 6], Some((0, HonoursHeld::Four)));
    assert_eq!(honours[1].points, 20);
    let slam = o(Contract::Spader, Some(0), [13, 0], None);
    assert_eq!((slam[1].points, slam[1].rule), (20, rule::OLD_SLAMS));
}

// --- bidding ------------------------------------------------------------------------------

#[test]
fn the_bids_rank_and_information_bids_belong_to_the_first_two() {
    use Call::*;
    assert_eq!(allowed_calls(None, 0, false), Call::ALL);
    assert_eq!(allowed_calls(None, 2, false), [Pass, Ruter, Hjarter, Noll, Preference]);
    assert_eq!(allowed_calls(Some(Klover), 1, false), [Pass, Spader, Ruter, Hjarter, Noll, Preference]);
    assert_eq!(allowed_calls(Some(Hjarter), 1, false), [Pass, Noll, Preference]);
    assert_eq!(allowed_calls(Some(Preference), 3, false), [Pass]);
    // Old style: clubs above spades, anyone may bid them.
    assert_eq!(allowed_calls(Some(Spader), 3, true), [Pass, Klover, Ruter, Hjarter, Noll, Preference]);
    assert_eq!(settle(None, false), (Contract::Tvangsnoll, None, rule::FORCED_NOLL));
    assert_eq!(settle(Some((1, Spader)), false), (Contract::Tvangsnoll, None, rule::FORCED_NOLL));
    assert_eq!(settle(Some((1, Spader)), true), (Contract::Spader, Some(1), rule::FINAL));
    assert_eq!(settle(Some((2, Noll)), false), (Contract::Noll, Some(2), rule::FINAL));
}

#[test]
fn one_round_from_forehand_with_refusals_naming_the_rules() {
    let mut m = M::with(json!({}));
    m.deal_hands(&all_hearts());
    // Seat 0 deals, forehand is seat 1.
    assert_eq!(m.to_act(), [1]);
    assert_eq!(m.view(Viewer::Spectator)["bidding_order"], json!([1, 2, 3, 0]));
    assert_eq!(m.rule_of_refusal(1, play("AC")), core::PHASE);
    m.ok(1, bid(Call::Klover));
    assert_eq!(m.rule_of_refusal(2, bid(Call::Klover)), rule::HIGHER);
    m.ok(2, bid(Call::Spader));
    m.ok(3, bid(Call::Ruter));
    assert_eq!(m.rule_of_refusal(0, bid(Call::Spader)), rule::INFORMATION_FIRST_TWO);
    assert_eq!(m.rule_of_refusal(0, bid(Call::Ruter)), rule::HIGHER);
    let events = m.ok(0, bid(Call::Hjarter));
    assert_eq!(
        events.last(),
        Some(&Event::BiddingEnded {
            contract: Contract::Hjarter,
            declarer: Some(0),
            declaring_side: Some(0),
            first_lead: 1,
            rule: rule::FINAL.into(),
        })
    );
    let view = m.view(Viewer::Spectator);
    assert_eq!(view["bids"], json!(["hjarter", "klover", "spader", "ruter"]));
    assert_eq!(view["trumps"], json!("hearts"));
    assert_eq!(m.rule_of_refusal(1, bid(Call::Preference)), core::PHASE);
}

impl Driver<Priffe> {
    /// A refusal's rule; a pass (always allowed) gives an empty string when accepted.
    fn rule_of_refusal(&self, seat: Seat, command: Command) -> String {
        match self.decide(seat, &command) {
            Ok(_) => String::new(),
            Err(_) => {
                let v = self.refused(seat, command);
                assert!(!v.explanation.sv.is_empty() && !v.explanation.en.is_empty());
                v.rule
            }
        }
    }
}

#[test]
fn all_passing_or_an_information_bid_standing_gives_forced_noll_led_by_forehand() {
    for calls in [[Call::Pass; 4], [Call::Pass, Call::Spader, Call::Pass, Call::Pass]] {
        let mut m = M::with(json!({}));
        m.deal_hands(&all_hearts());
        let events = m.calls(&calls);
        let Some(Event::BiddingEnded { contract, declarer, first_lead, rule, .. }) = events.last() else { panic!() };
        assert_eq!(
            (*contract, *declarer, *first_lead, rule.as_str()),
            (Contract::Tvangsnoll, None, 1, rule::FORCED_NOLL)
        );
        assert_eq!(m.to_act(), [1]);
    }
}

#[test]
fn at_preference_the_player_right_of_the_bidder_leads() {
    // Seat 2 bids preference: seat 1, on its right, leads; at other contracts forehand does.
    let mut m = M::with(json!({}));
    m.deal_hands(&all_hearts());
    let events = m.calls(&[Call::Pass, Call::Preference, Call::Pass, Call::Pass]);
    let Some(Event::BiddingEnded { first_lead, .. }) = events.last() else { panic!() };
    assert_eq!(*first_lead, 1);
    let mut m = M::with(json!({}));
    m.deal_hands(&all_hearts());
    let events = m.calls(&[Call::Preference, Call::Pass, Call::Pass, Call::Pass]);
    let Some(Event::BiddingEnded { first_lead, .. }) = events.last() else { panic!() };
    // Forehand (seat 1) bid it: the dealer, seat 0 on its right, leads.
    assert_eq!((*first_lead, m.to_act()), (0, vec![0]));
    assert_eq!(first_lead_chair(Contract::Noll, 1, Some(2)), 1);
}

// --- through play -------------------------------------------------------------------------

#[test]
fn a_grand_slam_in_hearts_with_all_honours_makes_game_through_play() {
    let mut m = M::with(json!({}));
    m.deal_hands(&all_hearts());
    m.calls(&[Call::Pass, Call::Pass, Call::Pass, Call::Hjarter]);
    // Seat 1 leads; seat 0 trumps every trick, following suit being impossible.
    assert_eq!(m.rule_of_refusal(2, play("AD")), core::TURN);
    m.ok(1, play("AC"));
    assert_eq!(m.rule_of_refusal(2, play("AH")), core::CARD_NOT_HELD);
    m.ok(2, play("2D"));
    m.ok(3, play("2S"));
    let events = m.ok(0, play("2H"));
    assert!(matches!(events.last(), Some(Event::TrickWon { winner: 0, reason: WinReason::HighestTrump, .. })));
    let events = m.finish_deal();
    let (terms, points, below, above) = scored(&events);
    assert_eq!(points, [140, 0, 140, 0]);
    assert_eq!((below, above), ([70, 0], [70, 0]));
    let rules: Vec<&str> = terms.iter().map(|t| t.rule.as_str()).collect();
    assert_eq!(
        rules,
        [rule::MADE, rule::MADE, rule::GRAND_SLAM, rule::GRAND_SLAM, rule::HONOURS_FOUR, rule::HONOURS_FOUR]
    );
    assert!(events.iter().any(|e| matches!(e, Event::GameWon { side: 0, seats: [0, 2], games: [1, 0], .. })));
    let view = m.view(Viewer::Spectator);
    assert_eq!((view["below_the_line"].clone(), view["games"].clone()), (json!([0, 0]), json!([1, 0])));
    assert_eq!(view["scores"], json!([140, 0, 140, 0]));
}

#[test]
fn two_games_win_the_sitting_and_the_players_change_places() {
    let mut m = M::with(json!({}));
    for deal in 0..2 {
        // Seat 0 holds the hearts whoever deals.
        m.deal_hands(&all_hearts());
        let forehand = m.current().forehand();
        let calls: Vec<Call> =
            m.current().bidding_order().iter().map(|&s| if s == 0 { Call::Hjarter } else { Call::Pass }).collect();
        assert_eq!(m.to_act(), [forehand]);
        m.calls(&calls);
        let events = m.finish_deal();
        if deal == 1 {
            assert!(events.iter().any(|e| matches!(
                e,
                Event::SittingEnded { sitting: 1, side: 0, winners: [0, 2], next_seating: Some([0, 2, 1, 3]) }
            )));
        }
    }
    assert_eq!((m.state.sitting, m.state.seating), (2, [0, 2, 1, 3]));
    let view = m.view(Viewer::Seat(1));
    assert_eq!((view["sides"].clone(), view["side"].clone()), (json!([[0, 1], [2, 3]]), json!(0)));
    assert_eq!(view["games"], json!([0, 0]));
    // The third deal is dealt by seat 2, who sits in chair 1: forehand is seat 1 in chair 2.
    let events = m.deal_hands(&all_hearts());
    let Event::DealStarted { dealer, forehand, sitting, .. } = &events[0] else { panic!() };
    assert_eq!((*dealer, *forehand, *sitting), (2, 1, 2));
    assert_eq!(m.view(Viewer::Spectator)["bidding_order"], json!([1, 3, 0, 2]));
    m.calls(&[Call::Pass, Call::Pass, Call::Pass, Call::Pass]);
    // Play goes round the chairs: 1, 3, 0, 2.
    let mut order = Vec::new();
    for _ in 0..4 {
        let seat = m.to_act()[0];
        order.push(seat);
        let first = m.legal(seat).swap_remove(0);
        m.ok(seat, first);
    }
    assert_eq!(order, [1, 3, 0, 2]);
}

#[test]
fn three_sittings_end_the_match_with_the_most_points_winning() {
    let mut m = M::with(json!({}));
    let mut sittings = 0;
    let mut deals = 0;
    while !Priffe.status(&m.state).is_finished() {
        deals += 1;
        assert!(deals < 200, "the match goes on");
        m.deal_hands(&all_hearts());
        let calls: Vec<Call> =
            m.current().bidding_order().iter().map(|&s| if s == 0 { Call::Hjarter } else { Call::Pass }).collect();
        m.calls(&calls);
        let events = m.finish_deal();
        sittings += events.iter().filter(|e| matches!(e, Event::SittingEnded { .. })).count();
    }
    // Seat 0 wins every deal, so six deals; its partners change.
    assert_eq!((sittings, deals), (3, 6));
    let Status::Finished { outcome } = Priffe.status(&m.state) else { panic!() };
    assert_eq!(outcome.winners, [0]);
    assert_eq!(m.state.deals.scores, [840, 280, 280, 280]);
    assert!(outcome.explanation.en.starts_with("Three sittings are played."), "{}", outcome.explanation.en);
    assert_eq!(m.rule_of_refusal(0, bid(Call::Pass)), core::MATCH_OVER);
}

#[test]
fn the_simpler_variant_ends_after_the_agreed_deals_or_points() {
    let mut m = M::with(json!({ "match_end": "deals", "deals": 2 }));
    for _ in 0..2 {
        m.deal_hands(&all_hearts());
        m.calls(&[Call::Pass, Call::Pass, Call::Pass, Call::Pass]);
        m.finish_deal();
    }
    assert!(Priffe.status(&m.state).is_finished());
    assert_eq!(m.state.seating, SCHEMA[0]);
    let mut m = M::with(json!({ "match_end": "points", "points_target": 100 }));
    m.deal_hands(&all_hearts());
    m.calls(&[Call::Pass, Call::Pass, Call::Pass, Call::Hjarter]);
    let events = m.finish_deal();
    assert!(!events.iter().any(|e| matches!(e, Event::GameWon { .. })), "no games in the simpler variant");
    assert!(!Priffe.status(&m.state).is_finished());
    m.deal_hands(&all_hearts());
    let calls: Vec<Call> =
        m.current().bidding_order().iter().map(|&s| if s == 0 { Call::Hjarter } else { Call::Pass }).collect();
    m.calls(&calls);
    m.finish_deal();
    assert_eq!(m.state.below, [140, 0]);
    let Status::Finished { outcome } = Priffe.status(&m.state) else { panic!() };
    assert_eq!(outcome.winners, [0, 2]);
}

#[test]
fn old_style_spades_are_trumps_and_a_game_earns_its_bonus() {
    let mut m = M::with(json!({ "old_style": true }));
    let mut hands = all_hearts();
    hands.swap(0, 3);
    // Seat 0 now holds the spades and bids them; in the old style they are trumps.
    m.deal_hands(&hands);
    assert_eq!(m.legal(1).len(), 7);
    let events = m.calls(&[Call::Pass, Call::Pass, Call::Pass, Call::Spader]);
    assert!(matches!(events.last(), Some(Event::BiddingEnded { contract: Contract::Spader, declarer: Some(0), .. })));
    let events = m.finish_deal();
    let (_, points, below, _) = scored(&events);
    // 7 odd tricks at 2, grand slam 20, four honours as four tricks (8): 14 is short of game.
    assert_eq!(below, [14, 0]);
    assert_eq!(points, [42, 0, 42, 0]);
    assert!(!events.iter().any(|e| matches!(e, Event::GameWon { .. })));
    // A second such deal makes game, and the side's first game earns 10 above the line.
    m.deal_hands(&hands);
    let calls: Vec<Call> =
        m.current().bidding_order().iter().map(|&s| if s == 0 { Call::Spader } else { Call::Pass }).collect();
    m.calls(&calls);
    let events = m.finish_deal();
    let (terms, points, _, above) = scored(&events);
    assert_eq!((points, above), ([52, 0, 52, 0], [66, 0]));
    assert!(terms.iter().any(|t| t.rule == rule::OLD_GAME_BONUS));
    assert!(events.iter().any(|e| matches!(e, Event::GameWon { side: 0, below: [28, 0], .. })));
    assert!(terms.iter().any(|t| t.rule == rule::OLD_HONOURS));
}

// --- views and secrets --------------------------------------------------------------------

#[test]
fn a_seat_sees_only_its_own_hand_until_the_deal_is_over() {
    let mut m = M::with(json!({}));
    let events = m.deal_hands(&all_hearts());
    let e = &events[0];
    let own = Priffe.redact(&m.state, e, Viewer::Seat(1), false);
    assert_eq!(own["deck"], Value::Null);
    assert_eq!(own["hands"][1], json!(all_hearts()[1]));
    assert_eq!(own["hands"][0], Value::Null);
    assert!(cards_in(&Priffe.redact(&m.state, e, Viewer::Spectator, false)).is_empty());
    let view = m.view(Viewer::Seat(1));
    assert_eq!(view["hand"], own["hands"][1]);
    assert!(view.get("hands").is_none());
    assert!(cards_in(&m.view(Viewer::Spectator)).is_empty());
    m.calls(&[Call::Pass; 4]);
    m.finish_deal();
    assert_eq!(m.view(Viewer::Record)["hands"], json!([[], [], [], []]));
    assert_eq!(m.view(Viewer::Record)["tricks"].as_array().unwrap().len(), 13);
}

#[test]
fn options_have_defaults_and_are_checked() {
    let game = erase(Priffe);
    assert_eq!(
        game.normalize_options(&Value::Null).unwrap(),
        json!({ "match_end": "sittings", "deals": 12, "points_target": 100, "old_style": false })
    );
    assert!(game.setup(4, &json!({ "deals": 0 })).is_err());
    assert!(game.setup(4, &json!({ "points_target": 0 })).is_err());
    assert!(game.setup(4, &json!({ "match_end": "forever" })).is_err());
}

#[test]
fn the_bot_bids_sensibly_and_plays_legal_cards() {
    let mut m = M::with(json!({}));
    m.deal_hands(&all_hearts());
    // Every call is legal and the bot holding thirteen hearts bids them or more.
    let events = m.bots_finish(5);
    assert!(events.iter().any(|e| matches!(e, Event::DealScored { .. })));
    assert!(estimate_tricks(&all_hearts()[0], Some(Suit::Hearts)) > 9.0);
    assert_eq!(high_card_points(&cards("2C 3C 4D 5H")), 0);
}

// --- random matches -----------------------------------------------------------------------

/// What every match's log must show, and (into `seen`) what happened in it.
fn check_log(options: &Value, log: &[Value], seen: &mut BTreeSet<String>) {
    let options: Options = serde_json::from_value(options.clone()).unwrap();
    let book = Priffe.rulebook();
    let mut totals = [0i64; SEATS];
    let mut seating = SCHEMA[0];
    let mut below = [0i64; 2];
    let mut games = [0u8; 2];
    let mut sittings_ended = 0;
    let mut deals = 0;
    let mut ended = false;
    let mut contract = None;
    let mut declaring_side = None;
    for value in log {
        assert!(!ended, "an event after the end of the match: {value}");
        match serde_json::from_value::<Event>(value.clone()).unwrap() {
            Event::DealStarted { scores, seating: s, below: b, games: g, sitting, .. } => {
                deals += 1;
                assert_eq!((scores, s, b, g), (totals, seating, below, games));
                assert_eq!(usize::from(sitting), sittings_ended + 1);
            }
            Event::BiddingEnded { contract: c, declaring_side: d, rule, .. } => {
                contract = Some(c);
                declaring_side = d;
                seen.insert(format!("contract {}", c.name()));
                assert!(book.rule(&rule).is_some());
            }
            Event::DealScored { side_tricks, terms, scores, below: b, honours, .. } => {
                assert_eq!(side_tricks[0] + side_tricks[1], TRICKS);
                let c = contract.take().unwrap();
                let held = honours.as_ref().map(|h| (side_of(&seating, h.seat), h.held));
                let items = score_sides(c, declaring_side, side_tricks, held, options.old_style);
                for i in items.iter().filter(|i| i.below) {
                    below[i.side] += i.points;
                }
                assert_eq!(b, below);
                for t in &terms {
                    assert!(book.rule(&t.rule).is_some(), "{} is not in the rulebook", t.rule);
                    totals[t.to] += t.points;
                    seen.insert(t.rule.clone());
                }
                assert_eq!(scores, totals);
            }
            Event::GameWon { side, games: g, .. } => {
                assert!(below[side] >= options.game_points() && below[1 - side] < options.game_points());
                games[side] += 1;
                assert_eq!(g, games);
                below = [0; 2];
                seen.insert("game".into());
            }
            Event::SittingEnded { side, next_seating, .. } => {
                assert_eq!(games[side], 2);
                sittings_ended += 1;
                games = [0; 2];
                if let Some(next) = next_seating {
                    assert_eq!(next, SCHEMA[sittings_ended]);
                    seating = next;
                }
                seen.insert("sitting".into());
            }
            Event::MatchEnded { winners, scores, .. } => {
                assert_eq!(scores, totals);
                assert_eq!(winners, seat::match_winners(&totals));
                match options.match_end {
                    MatchEnd::Sittings => assert_eq!(sittings_ended, SITTINGS),
                    MatchEnd::Deals => assert_eq!(deals, options.deals),
                    MatchEnd::Points => assert!(below.iter().any(|&b| b >= options.points_target)),
                }
                ended = true;
            }
            Event::BidMade { .. } | Event::CardPlayed { .. } | Event::TrickWon { .. } => {}
        }
    }
    assert!(ended, "the match ended");
}

#[test]
fn random_match_logs_add_up_and_every_kind_of_deal_happens() {
    let mut seen = BTreeSet::new();
    let plan = Plan { all: 2, leaks: 2, invariants: 4, log_only: 30 };
    random_matches(&*erase(Priffe), plan, |_, options, report| check_log(options, &report.log, &mut seen))
        .unwrap_or_else(|e| panic!("{e}"));
    for kind in ["preference", "noll", "hjärter", "ruter", "klöver", "spader", "tvångsnoll"] {
        assert!(seen.contains(&format!("contract {kind}")), "contract {kind} never happened");
    }
    for rule in [
        rule::MADE,
        rule::DEFEATED,
        rule::NOLL_MADE,
        rule::NOLL_DEFEATED,
        rule::FORCED,
        rule::HONOURS_THREE,
        rule::HONOURS_THREE_PARTNER,
        rule::OLD_GAME_BONUS,
        "game",
        "sitting",
    ] {
        assert!(seen.contains(rule), "{rule} never happened");
    }
}
