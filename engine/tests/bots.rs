//! The bots: a strong bot works from what its seat may see, and it beats the others.

use engine::bots::{self, Level};
use engine::cards::Card;
use engine::game::{Rules, Status};
use engine::games::{fyrmanswhist::Fyrmanswhist, plump::Plump, rodskagg::Rodskagg, spader::Spader};
use engine::random::Rng;

/// Two matches dealt from decks that differ only in two cards swapped between the hands of
/// seats 1 and 2: seat 0 cannot tell them apart, so at every turn of seat 0 before either card
/// is played, its strong bot makes the same move from the same seed in both. The other seats
/// play basic moves chosen in the first match.
fn cannot_read_hidden_cards<R: Rules>(rules: &R, deck_seed: u64) -> usize {
    let players = 4.clamp(*rules.player_counts().start(), *rules.player_counts().end());
    let mut a = rules.setup(players, R::Options::default()).unwrap();
    let Status::NeedsDeck { composition: mut deck } = rules.status(&a) else { panic!("a new match needs a deck") };
    Rng::new(deck_seed).shuffle(&mut deck);
    let mut b = a.clone();
    for e in rules.deal(&a, deck.clone()).unwrap() {
        rules.evolve(&mut a, &e);
    }
    // A card only seat 1 knows and one only seat 2 knows, found from the game's own secrets.
    let secrets = rules.secrets(&a);
    let held_by = |seat: usize| secrets.iter().find(|(_, seats)| seats == &[seat]).map(|(c, _)| *c);
    let (Some(one), Some(two)) = (held_by(1), held_by(2)) else { panic!("seats 1 and 2 hold no secret cards") };
    let swapped = [one, two];
    let at = |card: Card| deck.iter().position(|&c| c == card).unwrap();
    let mut other = deck.clone();
    other.swap(at(one), at(two));
    for e in rules.deal(&b, other).unwrap() {
        rules.evolve(&mut b, &e);
    }
    let moved = rules.secrets(&b);
    assert!(moved.contains(&(one, vec![2])) && moved.contains(&(two, vec![1])), "the swap did not cross the hands");
    let mut rng = Rng::new(deck_seed);
    let mut compared = 0;
    for _ in 0..200 {
        let Status::ToAct { seats } = rules.status(&a) else { break };
        let seat = seats[0];
        if seat == 0 {
            for seed in 0..3 {
                let (ma, mb) =
                    (bots::choose(rules, &a, 0, Level::Strong, seed), bots::choose(rules, &b, 0, Level::Strong, seed));
                assert_eq!(ma, mb, "seat 0 chose differently in two deals it cannot tell apart");
                compared += 1;
            }
        }
        let command = bots::choose(rules, &a, seat, Level::Basic, rng.next_u64()).unwrap();
        let json = serde_json::to_value(&command).unwrap();
        if engine::game::cards_in(&json).iter().any(|c| swapped.contains(c)) {
            break;
        }
        let Ok(events) = rules.decide(&b, seat, &command) else { break };
        events.iter().for_each(|e| rules.evolve(&mut b, e));
        rules.decide(&a, seat, &command).unwrap().iter().for_each(|e| rules.evolve(&mut a, e));
    }
    compared
}

#[test]
fn strong_bot_cannot_read_hidden_cards() {
    let mut compared = 0;
    for seed in 0..6 {
        compared += cannot_read_hidden_cards(&Plump, seed);
        compared += cannot_read_hidden_cards(&Spader, seed);
        compared += cannot_read_hidden_cards(&Fyrmanswhist, seed);
        compared += cannot_read_hidden_cards(&Rodskagg, seed);
    }
    assert!(compared >= 30, "only {compared} decisions compared");
}

/// Plays one whole match: `strong_seats` at strong, the others at `other`; the strong seat's (or
/// side's) standing at the end.
fn standing_after<R: Rules>(rules: &R, strong_seats: &[usize], other: Level, seed: u64) -> f64 {
    let mut rng = Rng::new(seed);
    let mut state = rules.setup(4, R::Options::default()).unwrap();
    for _ in 0..100_000 {
        let events = match rules.status(&state) {
            Status::Finished { .. } => return rules.standing(&state, strong_seats[0]),
            Status::NeedsDeck { mut composition } => {
                rng.shuffle(&mut composition);
                rules.deal(&state, composition).unwrap()
            }
            Status::ToAct { seats } => {
                let level = if strong_seats.contains(&seats[0]) { Level::Strong } else { other };
                let command = bots::choose(rules, &state, seats[0], level, rng.next_u64()).unwrap();
                rules.decide(&state, seats[0], &command).unwrap()
            }
        };
        events.iter().for_each(|e| rules.evolve(&mut state, e));
    }
    panic!("the match did not end");
}

/// A small check of what docs/bots.md measures at length: a strong Plump seat ends ahead of
/// random opponents.
#[test]
fn strong_plump_beats_random() {
    let ahead = (0..4).filter(|&s| standing_after(&Plump, &[s as usize], Level::Random, s) > 0.0).count();
    assert!(ahead >= 3, "ahead in {ahead} of 4");
}
