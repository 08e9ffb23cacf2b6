//! A match played as deals one after another, each scored, until a side or a seat reaches a
//! target or the agreed number of deals is played: the part of a game's state and rules that is
//! the same whatever the deal itself is (tricks, a pot, melds). A game keeps its deal type and
//! its events; this keeps the deal count, the dealer, the scores and their books, and the end.

use serde::Serialize;
use serde_json::{json, Value};

use crate::cards::Card;
use crate::game::{Outcome, SetupError, Status, Viewer};
use crate::rules::{RuleViolation, ScoreTerm, Text};
use crate::seat::{Seat, Table};

/// What the match needs to know of a deal in progress.
pub trait Deal {
    /// The game's phases as its table view names them.
    type Phase: MatchPhase;

    /// The seats that may act now.
    fn to_act(&self) -> Vec<Seat>;
    /// False once the deal is over (played out, or cancelled for a redeal).
    fn is_live(&self) -> bool;
    /// The deal's phase.
    fn phase(&self) -> Self::Phase;
}

/// A game's phases: those of its deals, and the two of the match around them.
pub trait MatchPhase: Sized {
    /// No deal has been dealt yet.
    const WAITING_FOR_DEAL: Self;
    /// The match is over.
    const FINISHED: Self;
}

/// What every table view of a match of deals shows, whatever the game: who is looking, the deal
/// count, the dealer, the scores, who is to act and how the match ended.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = MatchProgress))]
#[derive(Debug, Clone, Serialize)]
pub struct MatchView {
    /// The seat this view is for: only in a seat's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub seat: Option<Seat>,
    /// The number of players.
    pub players: usize,
    /// The number of the current (or last) deal, counting every deal started, cancelled ones
    /// included; 0 before the first deal.
    pub deal_number: u32,
    /// The dealer of the current (or last) deal; before the first deal, the seat that deals it.
    pub dealer: Seat,
    /// The seat that deals the next deal.
    pub next_dealer: Seat,
    /// The match scores: one per side in a partnership game (side 0 is seats 0 and 2, side 1
    /// seats 1 and 3), else one per seat.
    pub scores: Vec<i64>,
    /// The seats that may act now; empty while the next deal is awaited and once the match is
    /// over.
    pub to_act: Vec<Seat>,
    /// How the match ended: null until it is over.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub outcome: Option<Outcome>,
}

#[derive(Clone, Debug)]
pub struct Deals<D> {
    /// Deals started, cancelled ones included.
    pub number: u32,
    pub next_dealer: Seat,
    /// By side in partnership games, else by seat.
    pub scores: Vec<i64>,
    /// The sum of every score term since the books opened with the first deal replayed (a
    /// replay may start from any deal): `check_books` holds the scores to it.
    books: Option<Vec<i64>>,
    pub deal: Option<D>,
    pub outcome: Option<Outcome>,
}

impl<D: Deal> Deals<D> {
    pub fn new(scorers: usize) -> Deals<D> {
        Deals { number: 0, next_dealer: 0, scores: vec![0; scorers], books: None, deal: None, outcome: None }
    }

    /// The deal being played, unless it or the match is over.
    pub fn live(&self) -> Option<&D> {
        self.deal.as_ref().filter(|d| d.is_live() && self.outcome.is_none())
    }

    pub fn live_mut(&mut self) -> Option<&mut D> {
        let over = self.outcome.is_some();
        self.deal.as_mut().filter(|d| d.is_live() && !over)
    }

    /// The deal a command is for. The erased layer passes a command on only while a deal is
    /// live, so this refuses only a direct call out of place.
    pub fn current(&self) -> Result<&D, RuleViolation> {
        self.live().ok_or_else(|| RuleViolation::wrong_phase("ingen giv pågår", "no deal is in progress"))
    }

    /// The live deal, if `seat` is one of those to act in it.
    pub fn acting(&self, seat: Seat) -> Option<&D> {
        self.live().filter(|d| d.to_act().contains(&seat))
    }

    /// The match is over, or a deal is being played, or the next deal wants this pack.
    pub fn status(&self, pack: impl FnOnce() -> Vec<Card>) -> Status {
        if let Some(outcome) = &self.outcome {
            return Status::Finished { outcome: outcome.clone() };
        }
        match self.live() {
            Some(deal) => Status::ToAct { seats: deal.to_act() },
            None => Status::NeedsDeck { composition: pack() },
        }
    }

    /// A deal started with the scores it inherits.
    pub fn started(&mut self, number: u32, scores: &[i64], deal: D) {
        self.books.get_or_insert_with(|| scores.to_vec());
        self.number = number;
        self.scores = scores.to_vec();
        self.deal = Some(deal);
    }

    /// A deal scored: its terms go on the books, and the scores are as the event says.
    pub fn scored(&mut self, terms: &[ScoreTerm], scores: &[i64]) {
        if let Some(books) = &mut self.books {
            for t in terms {
                if let Some(p) = books.get_mut(t.to) {
                    *p += t.points;
                }
            }
        }
        self.scores = scores.to_vec();
    }

    /// A deal's points by scorer, summed from its terms, and the scores they make.
    pub fn tally<const N: usize>(&self, terms: &[ScoreTerm]) -> ([i64; N], [i64; N]) {
        let mut points = [0; N];
        for t in terms {
            points[t.to] += t.points;
        }
        (points, std::array::from_fn(|i| self.scores[i] + points[i]))
    }

    pub fn ended(&mut self, winners: &[Seat], explanation: &Text) {
        self.outcome = Some(Outcome { winners: winners.to_vec(), explanation: explanation.clone() });
    }

    /// The scores are the sum of the score terms given since the books opened.
    pub fn check_books(&self) -> Result<(), String> {
        match &self.books {
            Some(books) if *books != self.scores => {
                Err(format!("scores {:?} differ from the sum of score terms {books:?}", self.scores))
            }
            _ => Ok(()),
        }
    }

    /// A partnership match that a side wins: `winning_side` is set exactly when the match is over,
    /// `won` holds for it (it reached what wins), and the winners are its two seats.
    pub fn check_side_won(&self, winning_side: Option<usize>, won: impl Fn(usize) -> bool) -> Result<(), String> {
        match (winning_side, &self.outcome) {
            (Some(side), Some(_)) if !won(side) => Err(format!("side {side} won with scores {:?}", self.scores)),
            (Some(side), Some(o)) if o.winners != crate::seat::side_seats(side) => {
                Err(format!("side {side} won but the winners are {:?}", o.winners))
            }
            (Some(_), Some(_)) | (None, None) => Ok(()),
            _ => Err("a winning side without an outcome, or the reverse".into()),
        }
    }

    /// Whether an event of deal `number` is seen by `viewer` while that deal is being played, so
    /// that what the deal keeps secret is hidden: not in the record, not once the deal is over.
    pub fn in_play(&self, number: u32, viewer: Viewer, deal_over: bool) -> bool {
        viewer != Viewer::Record && !deal_over && self.live().is_some() && self.number == number
    }

    /// The match's phase: finished once it is over, else the deal's, and waiting for the first
    /// deal before there is one.
    pub fn phase(&self) -> D::Phase {
        match (&self.outcome, &self.deal) {
            (Some(_), _) => D::Phase::FINISHED,
            (None, Some(deal)) => deal.phase(),
            (None, None) => D::Phase::WAITING_FOR_DEAL,
        }
    }

    /// What every view of such a match shows to `viewer` at a table of `players` (see
    /// [`MatchView`]); `dealer` is the dealer of the deal being played or last played, if there
    /// was one.
    pub fn view(&self, viewer: Viewer, players: usize, dealer: Option<Seat>) -> MatchView {
        MatchView {
            seat: viewer.seat_at(players),
            players,
            deal_number: self.number,
            dealer: dealer.unwrap_or(self.next_dealer),
            next_dealer: self.next_dealer,
            scores: self.scores.clone(),
            to_act: self.live().map(Deal::to_act).unwrap_or_default(),
            outcome: self.outcome.clone(),
        }
    }
}

/// The two [`Rules`](crate::game::Rules) methods every game on [`Deals`] writes alike, for a
/// state whose `deals` field is the match and the pack each deal is dealt from: `status` (the
/// match is over, a deal is being played, or the next wants this pack) and `deal_number`. The
/// pack is a function, or `|state| …` for a pack that depends on the match (its player count).
#[macro_export]
macro_rules! status_of_deals {
    (|$state:ident| $pack:expr) => {
        fn status(&self, $state: &Self::State) -> $crate::game::Status {
            $state.deals.status(|| $pack)
        }

        fn deal_number(&self, state: &Self::State) -> u32 {
            state.deals.number
        }
    };
    ($pack:expr) => {
        $crate::status_of_deals!(|state| ($pack)());
    };
}

/// A book check (`Rules::check_invariants`): fails with the message unless the condition holds,
/// as anyhow's `ensure!` does.
#[macro_export]
macro_rules! ensure {
    ($holds:expr, $($message:tt)+) => {
        if !$holds {
            return Err(format!($($message)+));
        }
    };
}

/// A deal's recorded deck is the pack it was dealt from, shuffled.
pub fn check_deck(deck: &[Card], pack: &[Card]) -> Result<(), String> {
    match crate::cards::is_permutation(deck, pack) {
        true => Ok(()),
        false => Err(format!("the recorded deck is not the pack of {}", pack.len())),
    }
}

/// A target score must be one a match can reach.
pub fn check_target(target: i64) -> Result<(), SetupError> {
    if target <= 0 {
        return Err(SetupError(format!("target must be a positive score, not {target}")));
    }
    Ok(())
}

/// A deal's first event as `viewer` may see it while the deal lasts: no deck, each seat's own
/// hand only, and every hand's size.
pub fn hide_hands(event: &mut Value, hands: &[Vec<Card>], viewer: Viewer) {
    event["deck"] = Value::Null;
    hide_dealt(event, hands, viewer);
}

/// More cards dealt mid-deal as `viewer` may see them while the deal lasts: each seat's own hand
/// only, and every hand's size.
pub fn hide_dealt(event: &mut Value, hands: &[Vec<Card>], viewer: Viewer) {
    let mine = |s: Seat| viewer == Viewer::Seat(s);
    event["hands"] = hands.iter().enumerate().map(|(s, h)| if mine(s) { json!(h) } else { Value::Null }).collect();
    event["hand_sizes"] = json!(hands.iter().map(Vec::len).collect::<Vec<_>>());
}

/// Cards face down to everyone, their owners too, as the table sees them while the deal lasts:
/// each card a null in place, so that the sizes show and the cards do not.
pub fn blank(event: &mut Value, field: &str, cards: &[Card]) {
    event[field] = json!(vec![Value::Null; cards.len()]);
}

/// Face-down piles, one a seat, as [`blank`] gives them: each pile its size in nulls.
pub fn blank_piles(event: &mut Value, field: &str, piles: &[Vec<Card>]) {
    event[field] = piles.iter().map(|p| json!(vec![Value::Null; p.len()])).collect();
}

/// The pack dealt one card at a time round the table, starting at the dealer's next seat.
pub fn deal_singly(table: &Table, dealer: Seat, deck: &[Card]) -> Vec<Vec<Card>> {
    let mut hands = vec![Vec::new(); table.seats];
    for (i, &card) in deck.iter().enumerate() {
        hands[table.after(dealer, 1 + i)].push(card);
    }
    hands
}

/// The winners' seats and the sentence that says they reached the target, for a partnership
/// (seats `side` and `side + 2`) that reached `target` with `won` points against `lost`.
pub fn side_reached_target(side: usize, won: i64, lost: i64, target: i64) -> Text {
    let (a, b) = (side, side + 2);
    Text::new(
        format!("Lag {side} (plats {a} och {b}) nådde {won} poäng, minst målet {target}, och vann partiet; det andra laget hade {lost}."),
        format!("Side {side} (seats {a} and {b}) reached {won} points, at least the target of {target}, and won the match; the other side had {lost}."),
    )
}

/// The sentence that says seat `winner` reached `target` with `won` points and won the match of
/// two players, in which seat `other` had `lost`.
pub fn seat_reached_target(winner: Seat, won: i64, other: Seat, lost: i64, target: i64) -> Text {
    Text::new(
        format!("Plats {winner} nådde {won} poäng, minst målet {target}, och vann partiet; plats {other} hade {lost}."),
        format!("Seat {winner} reached {won} points, at least the target of {target}, and won the match; seat {other} had {lost}."),
    )
}

/// The deal's first event as a seat or a spectator may see it while that deal is played: no
/// deck, and of the hands only the viewer's own, once `sees` says that seat may see it (a
/// player who has not yet picked up the cards sees none).
pub fn redact_hands(full: &mut Value, hands: &[Vec<Card>], viewer: Viewer, sees: impl Fn(Seat) -> bool) {
    full["deck"] = Value::Null;
    let shown = |s: Seat| viewer == Viewer::Seat(s) && sees(s);
    full["hands"] = hands.iter().enumerate().map(|(s, h)| if shown(s) { json!(h) } else { Value::Null }).collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;

    #[derive(Clone, Debug)]
    struct OneTurn(bool);

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Phase {
        WaitingForDeal,
        Playing,
        Finished,
    }

    impl MatchPhase for Phase {
        const WAITING_FOR_DEAL: Phase = Phase::WaitingForDeal;
        const FINISHED: Phase = Phase::Finished;
    }

    impl Deal for OneTurn {
        type Phase = Phase;
        fn to_act(&self) -> Vec<Seat> {
            vec![1]
        }
        fn is_live(&self) -> bool {
            self.0
        }
        fn phase(&self) -> Phase {
            Phase::Playing
        }
    }

    #[test]
    fn a_match_of_deals_books_scores_and_ends() {
        let mut m: Deals<OneTurn> = Deals::new(2);
        assert!(matches!(m.status(Vec::new), Status::NeedsDeck { .. }));
        assert_eq!(m.phase(), Phase::WaitingForDeal);
        m.started(1, &[3, 0], OneTurn(true));
        assert_eq!(m.status(Vec::new).to_act(), [1]);
        assert_eq!(m.phase(), Phase::Playing);
        m.scored(&[ScoreTerm::new(1, 5, "x.y", "a".into(), "b".into())], &[3, 5]);
        assert_eq!(m.check_books(), Ok(()));
        m.scored(&[], &[3, 6]);
        assert!(m.check_books().is_err());
        m.ended(&[1, 3], &Text::new("s", "e"));
        assert!(m.status(Vec::new).is_finished() && m.live().is_none());
        assert_eq!(m.phase(), Phase::Finished);
        let view = serde_json::to_value(m.view(Viewer::Seat(1), 2, None)).unwrap();
        assert_eq!((view["seat"].clone(), view["players"].clone()), (json!(1), json!(2)));
        assert_eq!(view["deal_number"], json!(1));
        assert_eq!(view["outcome"]["winners"], json!([1, 3]));
        assert_eq!(view["to_act"], json!([]));
    }

    #[test]
    fn a_deal_is_tallied_by_scorer_onto_the_scores() {
        let mut m: Deals<OneTurn> = Deals::new(2);
        m.started(1, &[3, 4], OneTurn(true));
        let term = |points, rule| ScoreTerm::new(1, points, rule, "a".into(), "b".into());
        let terms = [term(5, "x.y"), term(2, "x.z")];
        assert_eq!(m.tally(&terms), ([0, 7], [3, 11]));
        assert!(seat_reached_target(1, 11, 0, 3, 10).en.starts_with("Seat 1 reached 11 points"));
    }

    #[test]
    fn a_seat_sees_only_its_own_hand_of_a_deal_being_played() {
        let hands = vec![cards("2C"), cards("3C"), cards("4C")];
        let mut full = json!({ "deck": ["2C", "3C", "4C"], "hands": hands });
        redact_hands(&mut full, &hands, Viewer::Seat(1), |_| true);
        assert_eq!(full, json!({ "deck": null, "hands": [null, ["3C"], null] }));
        redact_hands(&mut full, &hands, Viewer::Seat(1), |s| s != 1);
        assert_eq!(full["hands"], json!([null, null, null]));
        redact_hands(&mut full, &hands, Viewer::Spectator, |_| true);
        assert_eq!(full["hands"], json!([null, null, null]));
    }

    #[test]
    fn cards_are_dealt_singly_from_the_dealers_left() {
        let hands = deal_singly(&Table::new(3), 1, &cards("2C 3C 4C 5C 6C 7C"));
        assert_eq!(hands[2], cards("2C 5C"));
        assert_eq!(hands[0], cards("3C 6C"));
        assert_eq!(hands[1], cards("4C 7C"));
    }
}
