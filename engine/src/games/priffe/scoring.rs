//! Priffe's scoring: tricks, penalty tricks, slams and honours, by side and then by player.

use super::{rule, seats_of, side_text, Contract, HonoursHeld, BOOK, SEATS, TRICKS};
use crate::cards::Card;
use crate::rules::ScoreTerm;
use crate::seat::Seat;

/// Three or four honours in one hand, from the hands as dealt by chair.
pub fn honours_in(contract: Contract, hands_by_chair: &[Vec<Card>]) -> Option<(usize, HonoursHeld)> {
    let honours = contract.honour_cards();
    let count = |c: usize| hands_by_chair[c].iter().filter(|x| honours.contains(x)).count();
    let chair = (0..SEATS).max_by_key(|&c| count(c))?;
    match count(chair) {
        4 => Some((chair, HonoursHeld::Four)),
        3 if count((chair + 2) % SEATS) == 1 => Some((chair, HonoursHeld::ThreeAndPartner)),
        3 => Some((chair, HonoursHeld::Three)),
        _ => None,
    }
}

/// One item of a deal's score for a side: below the line (trick points, which count for game) or
/// above it (bonuses and honours).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideScore {
    pub side: usize,
    pub points: i64,
    pub below: bool,
    pub rule: &'static str,
    pub sv: String,
    pub en: String,
}

/// A deal's score by side: the tricks, the slams and the honours.
pub fn score_sides(
    contract: Contract,
    declaring_side: Option<usize>,
    side_tricks: [u8; 2],
    honours: Option<(usize, HonoursHeld)>,
    old_style: bool,
) -> Vec<SideScore> {
    let value = contract.trick_value(old_style);
    let name = contract.name();
    let item = |side, points, below, rule, sv: String, en: String| SideScore { side, points, below, rule, sv, en };
    let mut items = Vec::new();
    let slam_rule = if old_style { rule::OLD_SLAMS } else { rule::SMALL_SLAM };
    let grand_rule = if old_style { rule::OLD_SLAMS } else { rule::GRAND_SLAM };
    let slams = |items: &mut Vec<SideScore>, side: usize, small: bool, grand: bool| {
        if grand {
            items.push(item(
                side,
                20,
                false,
                grand_rule,
                "Storslam: 20 poäng.".into(),
                "Grand slam: 20 points.".into(),
            ));
        } else if small {
            items.push(item(side, 10, false, slam_rule, "Lillslam: 10 poäng.".into(), "Small slam: 10 points.".into()));
        }
    };
    let penalty_slams = |items: &mut Vec<SideScore>, side: usize, declarer_tricks: u8| {
        // The declarer failed by a slam's margin: the defence took 12 or 13 tricks, or the noll
        // side took 12 or 13.
        let margin = if contract == Contract::Noll { declarer_tricks } else { TRICKS - declarer_tricks };
        if margin == 13 {
            let sv = "Stora straffslam: 40 poäng.".into();
            items.push(item(side, 40, false, rule::PENALTY_GRAND_SLAM, sv, "Penalty grand slam: 40 points.".into()));
        } else if margin == 12 {
            let sv = "Lilla straffslam: 20 poäng.".into();
            items.push(item(side, 20, false, rule::PENALTY_SMALL_SLAM, sv, "Penalty small slam: 20 points.".into()));
        }
    };
    match (contract, declaring_side) {
        (Contract::Tvangsnoll, _) | (_, None) => {
            // Both sides play misère; the side under seven scores, with no penalty tricks.
            let w = if side_tricks[0] < side_tricks[1] { 0 } else { 1 };
            let t = side_tricks[w];
            let p = value * i64::from(BOOK + 1 - t);
            items.push(item(
                w,
                p,
                true,
                rule::FORCED,
                format!("Tvångsnoll och bolaget tog bara {t} stick: {value} × (7 − {t}) = {p} poäng; inga strafftrick."),
                format!("Forced noll and the side took only {t} tricks: {value} × (7 − {t}) = {p} points; no penalty tricks."),
            ));
            slams(&mut items, w, t == 1, t == 0);
        }
        (Contract::Noll, Some(d)) => {
            let t = side_tricks[d];
            if t <= BOOK {
                let p = value * i64::from(BOOK + 1 - t);
                items.push(item(
                    d,
                    p,
                    true,
                    rule::NOLL_MADE,
                    format!("Noll hemspelad med {t} stick: {value} × (7 − {t}) = {p} poäng."),
                    format!("Noll made with {t} tricks: {value} × (7 − {t}) = {p} points."),
                ));
                slams(&mut items, d, t == 1, t == 0);
            } else {
                let o = 1 - d;
                let p = 2 * value * i64::from(t - BOOK);
                items.push(item(
                    o,
                    p,
                    true,
                    rule::NOLL_DEFEATED,
                    format!(
                        "Nollbolaget tog {t} stick, {} strafftrick: 2 × {value} × {} = {p} poäng.",
                        t - BOOK,
                        t - BOOK
                    ),
                    format!(
                        "The noll side took {t} tricks, {} penalty tricks: 2 × {value} × {} = {p} points.",
                        t - BOOK,
                        t - BOOK
                    ),
                ));
                penalty_slams(&mut items, o, t);
            }
        }
        (_, Some(d)) => {
            let t = side_tricks[d];
            if t > BOOK {
                let p = value * i64::from(t - BOOK);
                items.push(item(
                    d,
                    p,
                    true,
                    rule::MADE,
                    format!("{name} hemspelad med {t} stick: {value} × ({t} − 6) = {p} poäng."),
                    format!("{name} made with {t} tricks: {value} × ({t} − 6) = {p} points."),
                ));
                slams(&mut items, d, t == 12, t == 13);
            } else {
                let o = 1 - d;
                let ot = side_tricks[o];
                let p = 2 * value * i64::from(ot - BOOK);
                items.push(item(
                    o,
                    p,
                    true,
                    rule::DEFEATED,
                    format!("Motspelarna tog {ot} stick mot {name}, {} strafftrick: 2 × {value} × {} = {p} poäng.", ot - BOOK, ot - BOOK),
                    format!("The opponents took {ot} tricks against {name}, {} penalty tricks: 2 × {value} × {} = {p} points.", ot - BOOK, ot - BOOK),
                ));
                penalty_slams(&mut items, o, t);
            }
        }
    }
    if let Some((side, held)) = honours {
        let (points, rule, sv, en) = match (held, old_style) {
            (HonoursHeld::Four, false) => {
                (50, rule::HONOURS_FOUR, "alla fyra honnörer på en hand", "all four honours in one hand")
            }
            (HonoursHeld::ThreeAndPartner, false) => (
                40,
                rule::HONOURS_THREE_PARTNER,
                "tre honnörer på en hand och den fjärde hos partnern",
                "three honours in one hand and the fourth with the partner",
            ),
            (HonoursHeld::Three, false) => {
                (30, rule::HONOURS_THREE, "tre honnörer på en hand", "three honours in one hand")
            }
            (HonoursHeld::Four, true) => (
                4 * value,
                rule::OLD_HONOURS,
                "alla fyra honnörer på en hand, som fyra trick",
                "all four honours in one hand, as four tricks",
            ),
            (_, true) => (
                2 * value,
                rule::OLD_HONOURS,
                "tre honnörer på en hand, som två trick",
                "three honours in one hand, as two tricks",
            ),
        };
        items.push(item(
            side,
            points,
            false,
            rule,
            format!("Honnörer: {sv}, {points} poäng."),
            format!("Honours: {en}, {points} points."),
        ));
    }
    items
}

/// Side items as score terms by player: a side's points go to both partners.
pub(super) fn terms_by_seat(items: &[SideScore], seating: &[Seat; SEATS]) -> Vec<ScoreTerm> {
    let mut terms = Vec::new();
    for i in items {
        let (who_sv, who_en) = side_text(seating, i.side);
        let line_sv = if i.below { "under strecket" } else { "över strecket" };
        let line_en = if i.below { "below the line" } else { "above the line" };
        for seat in seats_of(seating, i.side) {
            terms.push(ScoreTerm::new(
                seat,
                i.points,
                i.rule,
                format!("{} Till {who_sv}, {line_sv}.", i.sv),
                format!("{} To {who_en}, {line_en}.", i.en),
            ));
        }
    }
    terms
}
