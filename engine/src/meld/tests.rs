use super::*;
use crate::cards::{card, cards, decks};
use crate::random::Rng;

const LOW: MeldRules = MeldRules { ace_high: false };
const HIGH: MeldRules = MeldRules { ace_high: true };

fn run(codes: &str, rules: MeldRules) -> Result<Meld, Fault> {
    read(Kind::Run, &cards(codes), rules)
}

fn group(codes: &str) -> Result<Meld, Fault> {
    read(Kind::Group, &cards(codes), LOW)
}

#[test]
fn the_texts_groups_and_runs() {
    assert!(group("6C 6D 6H").is_ok(), "three sixes");
    assert!(group("JC JD JH JS").is_ok(), "four jacks");
    assert!(run("7D 8D 9D TD", LOW).is_ok());
    assert!(run("AD 2D 3D", LOW).is_ok(), "the ace is low");
    assert_eq!(run("QD KD AD", LOW), Err(Fault::PastTheAce), "Q-K-A is no run with the ace low");
    assert!(run("QD KD AD", HIGH).is_ok(), "but it is where the ace may be high");
    assert!(run("AD 2D 3D", HIGH).is_ok(), "and then A-2-3 still is");
    assert!(run("KD AD 2D", HIGH).is_err(), "K-A-2 never is");
    assert!(run("KD AD 2D", LOW).is_err());
}

#[test]
fn what_is_no_meld() {
    assert_eq!(group("6C 6D"), Err(Fault::TooFew));
    assert_eq!(group("6C 6D 7H"), Err(Fault::MixedRanks));
    assert_eq!(run("7D 8D 9H", LOW), Err(Fault::MixedSuits));
    assert_eq!(run("7D 9D 8D", LOW), Err(Fault::OutOfSequence), "a run is written in order");
    assert_eq!(run("7D 8D 8D", LOW), Err(Fault::OutOfSequence), "no repeats");
    assert_eq!(group("JK1 JK2 JK1"), Err(Fault::NoNatural));
    assert_eq!(read(Kind::Group, &[card("7C"), card("7D"), Card::Trump(3)], LOW), Err(Fault::NotACard));
}

#[test]
fn a_joker_stands_for_the_card_of_its_place() {
    let m = run("5H JK1 7H", LOW).unwrap();
    assert_eq!(m, Meld::Run { suit: Suit::Hearts, low: 5, cards: cards("5H JK1 7H") });
    let m = run("JK1 JK2 4H", LOW).unwrap();
    assert_eq!(m, Meld::Run { suit: Suit::Hearts, low: 2, cards: cards("JK1 JK2 4H") });
    assert_eq!(run("JK1 JK2 2H", LOW), Err(Fault::PastTheAce), "nothing stands below the ace");
    assert!(run("JK1 JK2 2H", HIGH).is_err());
    assert!(run("KH JK1 JK2", LOW).is_err());
    assert!(run("QH JK1", LOW).is_err());
    assert!(run("QH KH JK1", HIGH).is_ok(), "the joker is the ace above the king");
    // More than one joker in a meld is allowed.
    assert!(group("8C JK1 JK2").is_ok());
}

#[test]
fn the_texts_lay_offs() {
    let eights = group("8C 8D 8H").unwrap();
    assert_eq!(eights.lay_off(card("8S"), None, LOW).unwrap().cards(), cards("8C 8D 8H 8S").as_slice());
    assert_eq!(eights.lay_off(card("9S"), None, LOW), Err(Fault::DoesNotFit));
    let clubs = run("2C 3C 4C", LOW).unwrap();
    let with_ace = clubs.lay_off(card("AC"), None, LOW).unwrap();
    assert_eq!(with_ace, Meld::Run { suit: Suit::Clubs, low: 1, cards: cards("AC 2C 3C 4C") });
    let with_five = clubs.lay_off(card("5C"), None, LOW).unwrap();
    assert_eq!(with_five, Meld::Run { suit: Suit::Clubs, low: 2, cards: cards("2C 3C 4C 5C") });
    assert_eq!(clubs.lay_off(card("6C"), None, LOW), Err(Fault::DoesNotFit));
    assert_eq!(clubs.lay_off(card("5C"), Some(End::High), LOW), Err(Fault::EndNotWanted));
    // A joker fits either end, so its end must be said.
    assert_eq!(clubs.lay_off(card("JK1"), None, LOW), Err(Fault::EndNeeded));
    let low = clubs.lay_off(card("JK1"), Some(End::Low), LOW).unwrap();
    assert_eq!(low, Meld::Run { suit: Suit::Clubs, low: 1, cards: cards("JK1 2C 3C 4C") });
    assert_eq!(low.ends_for(card("JK2"), LOW), vec![End::High], "nothing goes below the ace");
    // An ace fits both ends of 2-K where it may be high.
    let long = run("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", HIGH).unwrap();
    assert_eq!(long.ends_for(card("AS"), HIGH), vec![End::Low, End::High]);
    assert_eq!(long.ends_for(card("AS"), LOW), vec![End::Low]);
    let full = long.lay_off(card("AS"), Some(End::High), HIGH).unwrap();
    assert!(full.ends_for(card("JK1"), HIGH).is_empty(), "thirteen cards make a whole suit");
}

#[test]
fn a_joker_is_taken_back_with_the_card_it_stands_for() {
    let m = run("5H JK1 7H JK2", LOW).unwrap();
    let (after, joker) = m.take_joker(card("8H")).unwrap();
    assert_eq!(joker, card("JK2"));
    assert_eq!(after.cards(), cards("5H JK1 7H 8H").as_slice());
    assert_eq!(m.take_joker(card("6H")).unwrap().1, card("JK1"));
    assert_eq!(m.take_joker(card("6D")), Err(Fault::NoSuchJoker));
    assert_eq!(m.take_joker(card("JK1")), Err(Fault::NoSuchJoker));
    let g = group("9C JK2 9H").unwrap();
    assert_eq!(g.take_joker(card("9S")).unwrap(), (group("9C 9S 9H").unwrap(), card("JK2")));
    assert_eq!(g.take_joker(card("8S")), Err(Fault::NoSuchJoker));
    assert_eq!(joker_takes(&m, &cards("6H 8H 8H 9H")), cards("6H 8H"));
}

#[test]
fn known_counts_on_small_hands() {
    let count = |hand: &str, rules| melds_in(&cards(hand), rules).len();
    // 5-6-7 and 6-7-8, and the whole stretch.
    assert_eq!(count("5H 6H 7H 8H", LOW), 3);
    // Four three-card groups and the four together.
    assert_eq!(count("8C 8D 8H 8S", LOW), 5);
    assert_eq!(count("8C 8D 8H", LOW), 1);
    assert_eq!(count("8C 8D 9H 2S", LOW), 0);
    // One joker and two naturals: a group (8C 8D JK1) and no run.
    assert_eq!(count("8C 8D JK1", LOW), 1);
    // 8C 9C JK1: 8-9-J(10), J(7)-8-9; a group needs two eights or the joker twice.
    assert_eq!(count("8C 9C JK1", LOW), 2);
    // Q-K-A only with the ace high.
    assert_eq!(count("QS KS AS", LOW), 0);
    assert_eq!(count("QS KS AS", HIGH), 1);
    // Two packs: the same card twice makes a group with a third copy-free one.
    assert_eq!(count("8C 8C 8D", LOW), 1);
}

/// The cards a joker could stand for: the standard pack.
fn naturals() -> Vec<Card> {
    decks::standard52()
}

/// By brute force and without the module's reading: `cards`, jokers replaced by every choice of
/// standard cards, are all of one rank.
fn brute_group(cards: &[Card]) -> bool {
    let nat: Vec<Card> = cards.iter().copied().filter(|&c| !is_joker(c)).collect();
    !nat.is_empty() && nat.iter().all(|c| c.rank() == nat[0].rank())
}

/// By brute force: some choice of cards for the jokers makes `cards`, in some order, a sequence
/// of one suit (the ace low, or high where allowed, never both).
fn brute_run_set(cards: &[Card], rules: MeldRules) -> bool {
    let nat: Vec<Card> = cards.iter().copied().filter(|&c| !is_joker(c)).collect();
    if nat.is_empty() {
        return false;
    }
    let jokers = cards.len() - nat.len();
    let mut options: Vec<Vec<Card>> = vec![nat.clone()];
    for _ in 0..jokers {
        options =
            options.iter().flat_map(|o| naturals().into_iter().map(move |c| [o.clone(), vec![c]].concat())).collect();
    }
    options.iter().any(|all| {
        let suit = all[0].suit();
        if all.iter().any(|c| c.suit() != suit) {
            return false;
        }
        let modes: &[bool] = if rules.ace_high { &[false, true] } else { &[false] };
        modes.iter().any(|&ace_high| {
            let mut values: Vec<u8> = all
                .iter()
                .map(|c| match c.rank().unwrap().value() {
                    14 if !ace_high => 1,
                    v => v,
                })
                .collect();
            values.sort();
            values.windows(2).all(|w| w[1] == w[0] + 1)
        })
    })
}

/// Every three-card meld a hand holds, by brute force over every three cards of it, keyed by
/// kind and the cards sorted.
fn brute_threes(hand: &[Card], rules: MeldRules) -> BTreeSet<(Kind, Vec<Card>)> {
    let mut found = BTreeSet::new();
    for a in 0..hand.len() {
        for b in a + 1..hand.len() {
            for c in b + 1..hand.len() {
                let mut three = vec![hand[a], hand[b], hand[c]];
                three.sort();
                if brute_group(&three) {
                    found.insert((Kind::Group, three.clone()));
                }
                if brute_run_set(&three, rules) {
                    found.insert((Kind::Run, three));
                }
            }
        }
    }
    found
}

#[test]
fn three_card_melds_listed_are_exactly_those_found_by_brute_force() {
    let mut pack = decks::double(&decks::standard52());
    pack.extend(cards("JK1 JK2 JK1"));
    let mut rng = Rng::new(43);
    let mut checked = 0;
    for round in 0..400 {
        let rules = if round % 2 == 0 { LOW } else { HIGH };
        let mut deck = pack.clone();
        rng.shuffle(&mut deck);
        // Small hands, most of them dense in a suit or a rank so that melds are common.
        let size = 5 + round % 5;
        let hand: Vec<Card> = if round % 3 == 0 {
            deck[..size].to_vec()
        } else {
            let suit = Suit::ALL[round % 4];
            let mut near: Vec<Card> = deck
                .iter()
                .copied()
                .filter(|c| {
                    c.suit() == Some(suit)
                        || is_joker(*c)
                        || round % 3 == 2 && c.rank().is_some_and(|r| r.value() % 4 == 0)
                })
                .collect();
            near.truncate(size);
            near
        };
        let listed = melds_in(&hand, rules);
        for (kind, cards) in &listed {
            assert!(read(*kind, cards, rules).is_ok(), "{kind:?} {cards:?} listed but refused");
            assert!(is_part_of(cards, &hand));
        }
        let threes: BTreeSet<(Kind, Vec<Card>)> = listed
            .iter()
            .filter(|(_, c)| c.len() == 3)
            .map(|(k, c)| {
                let mut c = c.clone();
                c.sort();
                (*k, c)
            })
            .collect();
        assert_eq!(threes, brute_threes(&hand, rules), "hand {hand:?}, ace high {}", rules.ace_high);
        checked += threes.len();
        // The longer ones are each a longest natural group or stretch, one a rank or stretch.
        for (kind, cards) in listed.iter().filter(|(_, c)| c.len() > 3) {
            assert!(cards.iter().all(|&c| !is_joker(c)));
            let more: Vec<Card> = hand.iter().copied().filter(|c| !cards.contains(c)).collect();
            let m = read(*kind, cards, rules).unwrap();
            if *kind == Kind::Group {
                assert!(more.iter().all(|c| m.ends_for(*c, rules).is_empty() || is_joker(*c)));
            } else {
                assert!(more.iter().all(|c| is_joker(*c) || m.ends_for(*c, rules).is_empty() || cards.len() == 13));
            }
        }
    }
    assert!(checked > 300, "only {checked} three-card melds met");
}

#[test]
fn a_card_makes_a_meld_exactly_when_brute_force_finds_one_with_it() {
    let mut pack = decks::double(&decks::standard52());
    pack.extend(cards("JK1 JK2"));
    let mut rng = Rng::new(11);
    let (mut makes, mut not) = (0, 0);
    for round in 0..300 {
        let rules = if round % 2 == 0 { LOW } else { HIGH };
        let mut deck = pack.clone();
        rng.shuffle(&mut deck);
        let size = 2 + round % 7;
        // Every other hand from one suit and a rank, where melds are near.
        let hand: Vec<Card> = if round % 2 == 0 {
            deck[..size].to_vec()
        } else {
            let suit = Suit::ALL[round % 4];
            deck.iter()
                .copied()
                .filter(|c| c.suit() == Some(suit) || c.rank().is_some_and(|r| r.value() == 9))
                .take(size)
                .collect()
        };
        for card in distinct(&pack) {
            let mut with = hand.clone();
            with.push(card);
            let brute = brute_threes(&with, rules).iter().any(|(_, three)| three.contains(&card));
            assert_eq!(
                makes_meld(&hand, card, rules),
                brute,
                "hand {hand:?} with {card:?}, ace high {}",
                rules.ace_high
            );
            if brute {
                makes += 1;
            } else {
                not += 1;
            }
        }
    }
    assert!(makes > 500 && not > 500, "{makes} cards made a meld, {not} did not");
}

/// By brute force: the ends `card` fits at, trying it before and after the meld's cards and
/// every place a run could start from.
fn brute_ends(meld: &Meld, card: Card, rules: MeldRules) -> Vec<End> {
    match meld {
        Meld::Group { rank, .. } => match is_joker(card) || card.rank().unwrap().value() == *rank {
            true => vec![End::High],
            false => Vec::new(),
        },
        Meld::Run { suit, low, cards } => {
            let fits = |seq: &[Card], start: u8| {
                let top = if rules.ace_high { 14 } else { 13 };
                seq.len() <= 13
                    && (start as usize) + seq.len() - 1 <= top
                    && seq.iter().enumerate().all(|(i, &c)| {
                        let place = start + i as u8;
                        let rank = if place == 1 { 14 } else { place };
                        is_joker(c) || (c.suit() == Some(*suit) && c.rank().unwrap().value() == rank)
                    })
            };
            let mut ends = Vec::new();
            if *low > 1 && fits(&[vec![card], cards.clone()].concat(), low - 1) {
                ends.push(End::Low);
            }
            if fits(&[cards.clone(), vec![card]].concat(), *low) {
                ends.push(End::High);
            }
            ends
        }
    }
}

#[test]
fn lay_offs_listed_are_exactly_those_found_by_brute_force() {
    let mut every: Vec<Card> = decks::standard52();
    every.extend(cards("JK1 JK2"));
    let mut rng = Rng::new(7);
    let mut laid = 0;
    for round in 0..300 {
        let rules = if round % 2 == 0 { LOW } else { HIGH };
        let mut deck = decks::double(&every);
        rng.shuffle(&mut deck);
        let hand = &deck[..10];
        for (kind, cards) in melds_in(&deck[10..40], rules) {
            let meld = read(kind, &cards, rules).unwrap();
            let listed = lay_offs(&meld, hand, rules);
            let mut brute = Vec::new();
            for c in distinct(hand) {
                let ends = brute_ends(&meld, c, rules);
                match ends.len() {
                    0 => {}
                    1 => brute.push((c, None)),
                    _ => brute.extend(ends.into_iter().map(|e| (c, Some(e)))),
                }
            }
            assert_eq!(listed, brute, "{meld:?} and {hand:?}");
            for (c, e) in &listed {
                let after = meld.lay_off(*c, *e, rules).unwrap();
                assert!(read(kind, after.cards(), rules).is_ok(), "{after:?}");
                laid += 1;
            }
        }
    }
    assert!(laid > 200, "only {laid} lay-offs met");
}
