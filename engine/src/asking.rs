//! Asking for cards and laying quartets (docs/engine.md §4.6): the shared part of Löjliga
//! familjerna and Finns i sjön. A player asks another who still holds cards for a rank he holds
//! himself; the asked hands over every card of that rank, face up, so those cards stay public
//! in the asker's hand ([`Knowledge::shown_to_all`]); four of a rank in one hand are laid at
//! once and leave the play. Ranks are their values, 2 to 14 (the ace), as commands send them.
//!
//! [`Asking`] holds the hands, what the table has seen of them and the quartets laid by seat;
//! the games say whose turn it is and what follows a "no".

use serde::Serialize;

use crate::cards::{rank_value, sort_hand, take_card, Card};
use crate::knowledge::Knowledge;
use crate::rules::RuleViolation;
use crate::seat::Seat;

/// Asks answered "no" in a row, with no card changing hands or drawn, before a deal is stopped
/// (house rule in both games: players who keep asking where the cards are not would never end).
pub const STALL_ASKS: u32 = 200;

/// A rank's name in the plural, in Swedish and English ("nior", "nines").
pub fn rank_names(rank: u8) -> (&'static str, &'static str) {
    const SV: [&str; 13] = [
        "tvåor", "treor", "fyror", "femmor", "sexor", "sjuor", "åttor", "nior", "tior", "knektar", "damer", "kungar",
        "ess",
    ];
    const EN: [&str; 13] = [
        "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens", "kings",
        "aces",
    ];
    match rank {
        2..=14 => (SV[usize::from(rank) - 2], EN[usize::from(rank) - 2]),
        _ => ("okända kort", "unknown cards"),
    }
}

/// The rule ids a game refuses an ask by.
#[derive(Clone, Copy, Debug)]
pub struct AskRules {
    /// The asker must hold a card of the rank.
    pub own_rank: &'static str,
    /// The asked must be another player who still holds cards.
    pub target: &'static str,
}

/// The hands of a deal of asking, what the table has seen of them, and the quartets laid.
#[derive(Clone, Debug)]
pub struct Asking {
    pub hands: Vec<Vec<Card>>,
    /// Cards handed over: public while held.
    pub knowledge: Knowledge,
    /// By seat, the ranks of the quartets it laid, in the order laid.
    pub quartets: Vec<Vec<u8>>,
    /// Asks answered "no" in a row with nothing drawn (see [`STALL_ASKS`]).
    pub idle: u32,
    /// By seat, the ranks the table knows it holds: asked for by it, or handed to it.
    pub shown: Vec<Vec<u8>>,
    /// By seat, the ranks the table knows it lacks: it said "no" to them or handed them over,
    /// and has drawn no card unseen since.
    pub lacks: Vec<Vec<u8>>,
}

impl Asking {
    pub fn new(mut hands: Vec<Vec<Card>>) -> Asking {
        hands.iter_mut().for_each(|h| sort_hand(h));
        let n = hands.len();
        Asking {
            hands,
            knowledge: Knowledge::of_hands(n),
            quartets: vec![Vec::new(); n],
            idle: 0,
            shown: vec![Vec::new(); n],
            lacks: vec![Vec::new(); n],
        }
    }

    pub fn seats(&self) -> usize {
        self.hands.len()
    }

    /// The cards of `rank` in `seat`'s hand.
    pub fn of_rank(&self, seat: Seat, rank: u8) -> Vec<Card> {
        self.hands[seat].iter().copied().filter(|&c| rank_value(c) == rank).collect()
    }

    /// The ranks `seat` holds, lowest first.
    pub fn ranks(&self, seat: Seat) -> Vec<u8> {
        let mut ranks: Vec<u8> = self.hands[seat].iter().map(|&c| rank_value(c)).collect();
        ranks.sort_unstable();
        ranks.dedup();
        ranks
    }

    /// The seats other than `seat` still holding cards: those it may ask.
    pub fn targets(&self, seat: Seat) -> Vec<Seat> {
        (0..self.seats()).filter(|&s| s != seat && !self.hands[s].is_empty()).collect()
    }

    /// Every ask `seat` may make: a target, then a rank.
    pub fn asks(&self, seat: Seat) -> Vec<(Seat, u8)> {
        let ranks = self.ranks(seat);
        self.targets(seat).into_iter().flat_map(|t| ranks.iter().map(move |&r| (t, r))).collect()
    }

    /// Whether `asker` may ask `target` for `rank`; if not, the rule broken, in words that name
    /// only the asker's own cards.
    pub fn check_ask(&self, asker: Seat, target: Seat, rank: u8, rules: AskRules) -> Result<(), RuleViolation> {
        if target == asker || target >= self.seats() || self.hands[target].is_empty() {
            return Err(RuleViolation::new(
                rules.target,
                format!("Man frågar en annan spelare som har kort kvar; plats {target} går inte att fråga."),
                format!("One asks another player still holding cards; seat {target} cannot be asked."),
            ));
        }
        if self.of_rank(asker, rank).is_empty() {
            let (sv, en) = rank_names(rank);
            return Err(RuleViolation::new(
                rules.own_rank,
                format!("Du har inga {sv}: man frågar bara efter en valör man själv har."),
                format!("You hold no {en}: one asks only for a rank one holds."),
            ));
        }
        Ok(())
    }

    /// `seat` asked for `rank`, showing the table it holds some.
    pub fn asked(&mut self, seat: Seat, rank: u8) {
        Self::note(&mut self.shown[seat], &mut self.lacks[seat], rank);
    }

    fn note(yes: &mut Vec<u8>, no: &mut Vec<u8>, rank: u8) {
        no.retain(|&r| r != rank);
        if !yes.contains(&rank) {
            yes.push(rank);
        }
    }

    /// `cards` went face up from `from` to `to`: public in the receiver's hand from now on.
    pub fn hand_over(&mut self, from: Seat, to: Seat, cards: &[Card]) {
        if let Some(&c) = cards.first() {
            let rank = rank_value(c);
            Self::note(&mut self.lacks[from], &mut self.shown[from], rank);
            Self::note(&mut self.shown[to], &mut self.lacks[to], rank);
        }
        for &c in cards {
            take_card(&mut self.hands[from], c);
            self.knowledge.left(from, c);
        }
        self.hands[to].extend_from_slice(cards);
        sort_hand(&mut self.hands[to]);
        self.knowledge.shown_to_all(to, cards);
        self.idle = 0;
    }

    /// `card` went into `seat`'s hand unseen by the others (drawn from a face-down place): what
    /// the table knew it lacked no longer holds.
    pub fn drew(&mut self, seat: Seat, card: Card) {
        self.lacks[seat].clear();
        self.hands[seat].push(card);
        sort_hand(&mut self.hands[seat]);
        self.idle = 0;
    }

    /// `seat` answered "no" to an ask for `rank`.
    pub fn lacked(&mut self, seat: Seat, rank: u8) {
        Self::note(&mut self.lacks[seat], &mut self.shown[seat], rank);
        self.idle += 1;
    }

    pub fn stalled(&self) -> bool {
        self.idle >= STALL_ASKS
    }

    /// The lowest rank `seat` holds all four of.
    pub fn quartet(&self, seat: Seat) -> Option<u8> {
        self.ranks(seat).into_iter().find(|&r| self.of_rank(seat, r).len() == 4)
    }

    /// The first seat from `first` on, round the table, holding a quartet, with its rank.
    pub fn quartet_from(&self, first: Seat) -> Option<(Seat, u8)> {
        let n = self.seats();
        (0..n).map(|i| (first + i) % n).find_map(|s| self.quartet(s).map(|r| (s, r)))
    }

    /// `seat` lays the quartet of `rank`: out of play, public for good.
    pub fn lay(&mut self, seat: Seat, rank: u8) {
        for c in self.of_rank(seat, rank) {
            take_card(&mut self.hands[seat], c);
            self.knowledge.left(seat, c);
        }
        self.quartets[seat].push(rank);
        for known in self.shown.iter_mut().chain(self.lacks.iter_mut()) {
            known.retain(|&r| r != rank);
        }
    }

    /// Quartets laid in all.
    pub fn laid(&self) -> usize {
        self.quartets.iter().map(Vec::len).sum()
    }

    /// Quartets laid by seat.
    pub fn counts(&self) -> Vec<i64> {
        self.quartets.iter().map(|q| q.len() as i64).collect()
    }

    /// The hand cards not known to all, with their knowers.
    pub fn secrets(&self) -> Vec<(Card, Vec<Seat>)> {
        self.knowledge.hand_secrets(&self.hands)
    }

    /// The cards of the laid quartets (the pack's four of each rank laid).
    pub fn laid_cards(&self, pack: &[Card]) -> Vec<Card> {
        let laid: Vec<u8> = self.quartets.concat();
        pack.iter().copied().filter(|&c| laid.contains(&rank_value(c))).collect()
    }

    /// The books: no rank laid twice or still in a hand, the knowledge matches the hands (a quartet
    /// just completed may wait in a hand for its automatic laying).
    pub fn check(&self) -> Result<(), String> {
        let mut laid = self.quartets.concat();
        laid.sort_unstable();
        let all = laid.len();
        laid.dedup();
        crate::ensure!(laid.len() == all, "a rank laid twice: {:?}", self.quartets);
        for (s, hand) in self.hands.iter().enumerate() {
            crate::ensure!(
                hand.iter().all(|&c| !laid.contains(&rank_value(c))),
                "seat {s} holds a card of a laid rank: {hand:?}"
            );
        }
        self.knowledge.check(&self.hands.iter().map(Vec::as_slice).collect::<Vec<_>>())
    }

    /// The hands and quartets as `me` sees them (`record`: every hand).
    pub fn view(asking: Option<&Asking>, me: Option<Seat>, record: bool) -> AskingView {
        AskingView {
            hand_sizes: asking.map(|a| a.hands.iter().map(Vec::len).collect()),
            public_cards: asking.map(|a| a.knowledge.public_hands(me)),
            quartets: asking.map(|a| a.quartets.clone()),
            hand: asking.zip(me).map(|(a, s)| a.hands[s].clone()),
            hands: asking.filter(|_| record).map(|a| a.hands.clone()),
        }
    }
}

/// The asking part of a table: hands' sizes, handed-over cards (public while held), quartets
/// laid, the viewer's own hand, and in a record every hand. Absent before the first deal.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct AskingView {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand_sizes: Option<Vec<usize>>,
    /// By seat, the cards it was handed, public while held (the viewer's own are in its hand).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub public_cards: Option<Vec<Vec<Card>>>,
    /// By seat, the ranks (2 to 14, the ace 14) of the quartets it laid, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub quartets: Option<Vec<Vec<u8>>>,
    /// The viewer's own hand: only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hand: Option<Vec<Card>>,
    /// Every hand: only in a deal's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hands: Option<Vec<Vec<Card>>>,
}

/// The rule-of-thumb ask: the rank `seat` holds most of (the lowest on a tie), of a seat picked
/// at random among those it may ask.
pub fn basic_ask(asking: &Asking, seat: Seat, rng: &mut crate::random::Rng) -> Option<(Seat, u8)> {
    let rank = asking.ranks(seat).into_iter().max_by_key(|&r| (asking.of_rank(seat, r).len(), std::cmp::Reverse(r)))?;
    let targets = asking.targets(seat);
    let target = *targets.get(rng.below(targets.len().max(1)))?;
    Some((target, rank))
}

/// The ask of a player who remembers what the table saw: a rank it holds that another seat is
/// known to hold (the most of its own cards first); failing that, the rank it holds most of, of
/// the seat not known to lack it with the most cards nobody has seen. When every seat it may ask
/// is known to lack every rank it holds (the missing cards lie in Finns i sjön's sea), it must
/// still ask: the rank it holds most of, of the seat with the most unseen cards.
pub fn remembering_ask(asking: &Asking, seat: Seat) -> Option<(Seat, u8)> {
    let mut mine = asking.ranks(seat);
    mine.sort_by_key(|&r| std::cmp::Reverse(asking.of_rank(seat, r).len()));
    let targets = asking.targets(seat);
    let unseen = |t: Seat| asking.hands[t].len() - asking.knowledge.public_in(t).len();
    let most_unseen = |seats: &mut dyn Iterator<Item = Seat>| seats.max_by_key(|&t| (unseen(t), std::cmp::Reverse(t)));
    let sure = mine.iter().find_map(|&r| targets.iter().find(|&&t| asking.shown[t].contains(&r)).map(|&t| (t, r)));
    sure.or_else(|| {
        mine.iter().find_map(|&r| {
            let mut open = targets.iter().copied().filter(|&t| !asking.lacks[t].contains(&r));
            most_unseen(&mut open).map(|t| (t, r))
        })
    })
    .or_else(|| Some((most_unseen(&mut targets.iter().copied())?, *mine.first()?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};

    const RULES: AskRules = AskRules { own_rank: "x.own", target: "x.target" };

    #[test]
    fn an_ask_needs_a_rank_held_and_another_seat_with_cards() {
        let a = Asking::new(vec![cards("9H 9S KD"), cards("9C"), vec![]]);
        assert!(a.check_ask(0, 1, 9, RULES).is_ok());
        assert_eq!(a.check_ask(0, 1, 5, RULES).unwrap_err().rule, "x.own");
        assert_eq!(a.check_ask(0, 0, 9, RULES).unwrap_err().rule, "x.target");
        assert_eq!(a.check_ask(0, 2, 9, RULES).unwrap_err().rule, "x.target");
        assert_eq!(a.asks(0), vec![(1, 9), (1, 13)]);
    }

    #[test]
    fn a_remembering_player_still_asks_when_every_seat_is_known_to_lack_his_ranks() {
        let mut a = Asking::new(vec![cards("9H 9S KD"), cards("2C 3D"), cards("4C")]);
        a.lacked(1, 9);
        a.lacked(1, 13);
        a.lacked(2, 9);
        a.lacked(2, 13);
        assert_eq!(remembering_ask(&a, 0), Some((1, 9)), "the rank held most, of the seat with most unseen");
    }

    #[test]
    fn handed_cards_are_public_in_the_new_hand_and_a_quartet_leaves_with_its_knowledge() {
        let mut a = Asking::new(vec![cards("9H 9S KD"), cards("9C 9D 2S"), cards("3C")]);
        a.hand_over(1, 0, &cards("9C 9D"));
        assert_eq!(a.knowledge.public_in(0), cards("9C 9D"));
        let secrets = a.secrets();
        assert!(secrets.iter().all(|(c, _)| !cards("9C 9D").contains(c)), "handed over: public");
        assert!(secrets.contains(&(card("9H"), vec![0])) && secrets.contains(&(card("2S"), vec![1])));
        assert_eq!(a.quartet_from(1), Some((0, 9)));
        a.lay(0, 9);
        assert_eq!((a.hands[0].clone(), a.quartets.clone(), a.laid()), (cards("KD"), vec![vec![9], vec![], vec![]], 1));
        assert!(a.knowledge.public_in(0).is_empty());
        assert!(a.check().is_ok());
        assert_eq!(a.counts(), vec![1, 0, 0]);
    }

    #[test]
    fn the_remembering_ask_goes_where_a_rank_is_known_to_be() {
        let mut a = Asking::new(vec![cards("9H KD KH"), cards("9C 9D KS 2C"), cards("3C KC 4D")]);
        a.asked(2, 13);
        assert_eq!(remembering_ask(&a, 0), Some((2, 13)), "seat 2 asked for kings");
        a.lacked(2, 13);
        a.lacked(1, 13);
        // Kings are nowhere known; nines: seat 1, not known to lack them, holds the most unseen.
        assert_eq!(remembering_ask(&a, 0), Some((1, 9)));
        a.hand_over(0, 1, &cards("9H"));
        assert_eq!((a.lacks[0].clone(), a.shown[1].clone()), (vec![9], vec![9]));
        a.drew(2, card("2D"));
        assert!(a.lacks[2].is_empty(), "a card drawn unseen may be anything");
        let mut rng = crate::random::Rng::new(1);
        assert_eq!(basic_ask(&a, 1, &mut rng).map(|(_, r)| r), Some(9));
    }
}
