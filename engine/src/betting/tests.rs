use super::*;
use crate::random::Rng;

fn pay(from: Account, to: Account, amount: i64) -> Payment {
    Payment::new(from, to, amount, "test.bet", "sv".into(), "en".into())
}

/// A deal for every seat with `start` chips each, every seat anteing `ante`.
fn deal(players: usize, start: i64, ante: i64) -> Betting {
    let mut b = Betting::new(players, start);
    b.new_deal(vec![true; players]);
    for s in 0..players {
        b.put_in(&pay(Account::Seat(s), Account::Pot, ante));
    }
    b
}

/// Checks the action, pays its chips and records it, checking the books after.
fn act(b: &mut Betting, seat: Seat, action: Action) {
    let chips = b.check(seat, action).unwrap_or_else(|w| panic!("seat {seat} {action:?}: {w:?}"));
    assert!(b.legal(seat).contains(&action), "{action:?} checked but not listed");
    let payment = (chips > 0).then(|| pay(Account::Seat(seat), Account::Pot, chips));
    b.act(seat, action, payment.as_ref());
    b.check_books().unwrap();
}

#[test]
fn the_texts_first_round_ends_with_42_in_the_pot() {
    // Seven players A-G (seats 0-6), G deals, everyone antes 1.
    let mut b = deal(7, 100, 1);
    b.start_round(0, Limit::NoLimit, 0);
    assert_eq!(b.to_act(), Some(0));
    act(&mut b, 0, Action::Check);
    act(&mut b, 1, Action::Check);
    act(&mut b, 2, Action::Bet(5));
    assert_eq!(b.check(3, Action::Check), Err(Wrong::BetToMeet(5)));
    act(&mut b, 3, Action::Call);
    act(&mut b, 4, Action::Fold);
    act(&mut b, 5, Action::Raise(5));
    act(&mut b, 6, Action::Fold);
    act(&mut b, 0, Action::Fold);
    assert_eq!(b.to_call(1), 10);
    act(&mut b, 1, Action::Call);
    act(&mut b, 2, Action::Call);
    // F made the last raise and was called: he may not raise again, and D is the last to speak.
    assert_eq!(b.to_act(), Some(3));
    act(&mut b, 3, Action::Fold);
    assert!(b.round_over());
    assert_eq!(b.pot(), 42);
    assert_eq!(b.live_seats(), vec![1, 2, 5]);
    assert_eq!(b.stacks(), vec![99, 89, 89, 94, 99, 89, 99]);
}

#[test]
fn a_round_of_checks_ends_the_round_with_no_bet() {
    let mut b = deal(3, 100, 1);
    b.start_round(1, Limit::NoLimit, 0);
    for s in [1, 2, 0] {
        act(&mut b, s, Action::Check);
    }
    assert!(b.round_over());
    assert_eq!(b.current_bet(), 0);
    assert_eq!(b.check(1, Action::Check), Err(Wrong::NotToAct));
}

#[test]
fn a_bet_or_raise_is_one_chip_or_more_up_to_the_stack() {
    let mut b = deal(2, 10, 1);
    b.start_round(0, Limit::NoLimit, 0);
    assert_eq!(b.choices(0).bet, Some((1, 9)));
    assert_eq!(b.check(0, Action::Bet(0)), Err(Wrong::Amount { min: 1, max: 9 }));
    assert_eq!(b.check(0, Action::Bet(10)), Err(Wrong::Amount { min: 1, max: 9 }));
    assert_eq!(b.check(0, Action::Raise(1)), Err(Wrong::NoBet));
    assert_eq!(b.check(0, Action::Call), Err(Wrong::NoBet));
    act(&mut b, 0, Action::Bet(3));
    assert_eq!(b.check(1, Action::Bet(3)), Err(Wrong::AlreadyBet));
    assert_eq!(b.choices(1).raise, Some((1, 6)));
    act(&mut b, 1, Action::Raise(6));
    // Seat 1 is all in; seat 0 may only call or fold.
    assert!(b.all_in(1));
    assert_eq!(b.legal(0), vec![Action::Call, Action::Fold]);
    assert_eq!(b.check(0, Action::Raise(1)), Err(Wrong::CannotRaise));
    act(&mut b, 0, Action::Call);
    assert!(b.round_over());
    assert_eq!(b.pot(), 20);
}

#[test]
fn a_short_stack_calls_all_in_for_less_and_side_pots_follow() {
    // Seat 0 has 5 chips, seats 1 and 2 have 30.
    let mut b = Betting::new(3, 30);
    b.ledger.pay(&pay(Account::Seat(0), Account::Seat(1), 25));
    b.ledger.pay(&pay(Account::Seat(2), Account::Seat(1), 0));
    assert_eq!(b.stacks(), vec![5, 55, 30]);
    b.new_deal(vec![true; 3]);
    b.start_round(1, Limit::NoLimit, 0);
    act(&mut b, 1, Action::Bet(20));
    act(&mut b, 2, Action::Call);
    assert_eq!(b.choices(0).call, Some(5));
    act(&mut b, 0, Action::Call);
    assert!(b.all_in(0) && b.round_over());
    b.end_round();
    b.start_round(1, Limit::NoLimit, 0);
    act(&mut b, 1, Action::Bet(10));
    act(&mut b, 2, Action::Fold);
    assert!(b.round_over());
    let pots = b.pots();
    assert_eq!(pots, vec![Pot { amount: 15, eligible: vec![0, 1] }, Pot { amount: 40, eligible: vec![1] }]);
    assert_eq!(pots.iter().map(|p| p.amount).sum::<i64>(), b.pot());
}

#[test]
fn side_pots_are_built_level_by_level() {
    // Seat 3 folded after putting in 10; seat 0 all in for 5, seat 1 for 20, seat 2 put in 40.
    let pots = side_pots(&[5, 20, 40, 10], &[0, 1, 2], 3);
    assert_eq!(
        pots,
        vec![
            Pot { amount: 5 * 4 + 3, eligible: vec![0, 1, 2] },
            Pot { amount: 15 * 2 + 5, eligible: vec![1, 2] },
            Pot { amount: 20, eligible: vec![2] },
        ]
    );
}

#[test]
fn a_split_pots_odd_chip_goes_to_the_first_winner_after_the_dealer() {
    let table = Table::new(4);
    // Dealer 2: seat 3 comes first, then 0.
    assert_eq!(split(7, &[0, 3], &table, 2, false), (vec![(3, 4), (0, 3)], 0));
    assert_eq!(split(7, &[0, 3], &table, 2, true), (vec![(3, 3), (0, 3)], 1));
    assert_eq!(split(8, &[1], &table, 2, false), (vec![(1, 8)], 0));
    assert_eq!(split(2, &[0, 1, 3], &table, 0, false), (vec![(1, 1), (3, 1)], 0));
}

#[test]
fn pot_limit_and_fixed_limit_bound_the_amounts() {
    let mut b = deal(3, 100, 2);
    b.start_round(0, Limit::PotLimit, 0);
    assert_eq!(b.choices(0).bet, Some((1, 6)));
    act(&mut b, 0, Action::Bet(6));
    // Seat 1 calls 6 into a pot of 12, then may raise by 18.
    assert_eq!(b.choices(1).raise, Some((1, 18)));
    let mut f = deal(3, 100, 1);
    f.start_round(0, Limit::Fixed, 4);
    assert_eq!(f.choices(0).bet, Some((4, 4)));
    act(&mut f, 0, Action::Bet(4));
    assert_eq!(f.choices(1).raise, Some((4, 4)));
}

/// Random rounds: whatever is played, the listed actions are exactly those the check accepts,
/// the books balance after every action, and every round ends.
#[test]
fn random_rounds_list_what_they_accept_and_keep_the_books() {
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        let players = 2 + rng.below(6);
        let mut b = Betting::new(players, 20);
        // Uneven stacks.
        for s in 1..players {
            let n = rng.below(19) as i64;
            b.ledger.pay(&pay(Account::Seat(s), Account::Seat(0), n));
        }
        b.new_deal(vec![true; players]);
        for round in 0..2 {
            let limit = [Limit::NoLimit, Limit::PotLimit, Limit::Fixed][rng.below(3)];
            b.start_round(round % players, limit, 2);
            for _ in 0..500 {
                let Some(seat) = b.to_act() else { break };
                let legal = b.legal(seat);
                let space = [Action::Check, Action::Call, Action::Fold]
                    .into_iter()
                    .chain((0..=45).flat_map(|n| [Action::Bet(n), Action::Raise(n)]));
                for a in space {
                    assert_eq!(b.check(seat, a).is_ok(), legal.contains(&a), "{a:?}");
                }
                for other in (0..players).filter(|&s| s != seat) {
                    assert_eq!(b.legal(other), vec![]);
                }
                let a = legal[rng.below(legal.len())];
                act(&mut b, seat, a);
            }
            assert!(b.round_over());
            let live = b.live_seats();
            if live.len() > 1 {
                let bet = b.current_bet();
                assert!(live.iter().all(|&s| b.round.as_ref().unwrap().bets[s] == bet || b.all_in(s)));
            }
            b.end_round();
        }
        let pots = b.pots();
        assert_eq!(pots.iter().map(|p| p.amount).sum::<i64>(), b.pot());
    }
}

#[test]
fn the_showdown_settles_the_side_pot_apart_and_splits_a_tie() {
    // Seat 0 all in for 10, seats 1 and 2 put in 30 each; seats 0 and 2 hold the best hand.
    let mut b = Betting::new(3, 100);
    b.new_deal(vec![true; 3]);
    for (s, n) in [(0, 10), (1, 30), (2, 30)] {
        b.put_in(&pay(Account::Seat(s), Account::Pot, n));
    }
    let table = Table::new(3);
    let rank = |s: Seat| [9, 5, 9][s];
    let won = b.showdown(rank, &table, 2, false);
    assert_eq!(won.len(), 2);
    assert_eq!(
        (won[0].amount, won[0].winners.clone(), won[0].shares.clone()),
        (30, vec![0, 2], vec![(0, 15), (2, 15)])
    );
    assert_eq!((won[1].amount, won[1].winners.clone(), won[1].shares.clone()), (40, vec![2], vec![(2, 40)]));
    let carried = b.showdown(rank, &table, 2, true);
    assert_eq!((carried[0].shares.clone(), carried[0].carried), (vec![(0, 15), (2, 15)], 0));
}

#[test]
fn what_is_left_in_the_pot_is_shared_out_only_when_the_match_ends() {
    // Three chips in the pot, one paid out: two are left.
    let mut b = deal(3, 10, 1);
    let paid = vec![pay(Account::Pot, Account::Seat(1), 1)];
    let table = Table::new(3);
    assert_eq!(b.stacks_after(&paid), vec![9, 10, 9]);
    assert!(b.leftover_shares(&paid, false, &table, 0).is_empty(), "the match goes on");
    assert_eq!(b.leftover_shares(&paid, true, &table, 0), vec![(1, 1), (2, 1)]);
    // With one seat left holding chips the match ends whatever the deal's number.
    for s in [0, 2] {
        b.put_in(&pay(Account::Seat(s), Account::Pot, 9));
    }
    assert_eq!(b.leftover_shares(&paid, false, &table, 0), vec![(1, 20)]);
}

#[test]
fn the_equity_policy_calls_when_the_chance_pays_for_the_call_and_bets_when_well_ahead() {
    let facing = [Action::Call, Action::Raise(1), Action::Raise(10), Action::Raise(30), Action::Fold];
    // 10 to call into 20: a call wins 30 and costs 10, so it pays from a chance of 1 in 3.
    assert_eq!(by_equity(0.3, 10, 20, &facing), Some(Action::Fold));
    assert_eq!(by_equity(0.34, 10, 20, &facing), Some(Action::Call));
    assert_eq!(by_equity(0.8, 10, 20, &facing), Some(Action::Raise(10)), "half the pot");
    assert_eq!(by_equity(0.9, 10, 30, &facing), Some(Action::Raise(30)), "the pot");
    let open = [Action::Check, Action::Bet(8), Action::Bet(12), Action::Fold];
    assert_eq!(by_equity(0.6, 0, 20, &open), Some(Action::Bet(8)));
    assert_eq!(by_equity(0.5, 0, 20, &open), Some(Action::Check));
    assert_eq!(candidates(20, &open, None), [Action::Fold, Action::Check, Action::Bet(8), Action::Bet(12)]);
}

#[test]
fn a_showdown_gives_the_whole_pot_to_the_best_hand_and_shares_a_tie() {
    assert_eq!(showdown_share(5, [3, 4]), 1.0);
    assert_eq!(showdown_share(5, [5, 3, 5]), 1.0 / 3.0);
    assert_eq!(showdown_share(5, [6, 5]), 0.0);
    assert_eq!(showdown_share(5, []), 1.0);
}
