//! Scoring, kept apart as a pure function so the text's examples can be checked directly.

use super::*;

/// What the score of a deal depends on, once the cards are counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    pub players: usize,
    pub taker: Seat,
    /// The called partner in a five-player game; `None` when the taker plays alone.
    pub partner: Option<Seat>,
    pub contract: Contract,
    /// Bouts among the taker side's cards.
    pub bouts: usize,
    /// The taker side's card points, in half points.
    pub taker_half_points: u32,
    /// The side that took the Petit in the last trick.
    pub petit_au_bout: Option<Side>,
    pub poignees: Vec<(Seat, Poignee)>,
    pub trost: Vec<Seat>,
    pub slam_announced: bool,
    /// The side that took every trick.
    pub slam: Option<Side>,
}

/// The score of a deal: the count against the target, the amount each defender pays (or
/// receives, when negative), and every seat's points term by term.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scoring {
    pub target: u32,
    /// The taker side's points after the half-point rule.
    pub counted_points: u32,
    pub made: bool,
    pub difference: u32,
    pub multiplier: i64,
    /// What each defender pays the taker's side (negative: receives), before tröst.
    pub unit: i64,
    pub terms: Vec<ScoreTerm>,
    /// Each seat's points for the deal; they sum to zero.
    pub points: Vec<i64>,
}

/// A seat's share of `unit`: each defender pays it once; the taker receives what the defenders
/// pay, less the called partner's single share.
pub fn share(players: usize, taker: Seat, partner: Option<Seat>, seat: Seat) -> i64 {
    let partner = partner.filter(|&p| p != taker);
    let defenders = (players - 1 - partner.is_some() as usize) as i64;
    if seat == taker {
        defenders - partner.is_some() as i64
    } else if Some(seat) == partner {
        1
    } else {
        -1
    }
}

pub fn score(facts: &Facts, options: &Options) -> Scoring {
    let players = facts.players;
    let target = target(facts.bouts);
    let h = facts.taker_half_points;
    // Exactly the target counts as made; a half point short does not.
    let made = h >= 2 * target;
    let counted_points = match (options.half_point, made) {
        (HalfPoint::Fft, true) => h.div_ceil(2),
        _ => h / 2,
    };
    let difference = if made { counted_points - target } else { target - counted_points };
    let multiplier = facts.contract.multiplier();
    let sign: i64 = if made { 1 } else { -1 };
    let (c_sv, c_en) = facts.contract.names();
    let (won_sv, won_en) = if made { ("vunnet", "made") } else { ("förlorat", "lost") };

    // Each component is what one defender pays the taker's side.
    let mut components: Vec<(i64, &str, String, String)> = vec![
        (
            sign * 25 * multiplier,
            rule::BASE,
            format!("{c_sv} {won_sv}: grundpoäng 25 × {multiplier}"),
            format!("{c_en} {won_en}: base 25 × {multiplier}"),
        ),
        (
            sign * difference as i64 * multiplier,
            rule::DIFFERENCE,
            format!(
                "{} poäng mot {target} som krävs med {} värdekort: skillnad {difference} × {multiplier}",
                points_text(2 * counted_points),
                facts.bouts
            ),
            format!(
                "{} points against the {target} needed with {} bout{}: difference {difference} × {multiplier}",
                points_text(2 * counted_points),
                facts.bouts,
                if facts.bouts == 1 { "" } else { "s" }
            ),
        ),
    ];
    if let Some(side) = facts.petit_au_bout.filter(|_| options.petit_au_bout) {
        let (s_sv, s_en) = side.names();
        let value = if side == Side::Taker { 10 } else { -10 };
        components.push((
            value * multiplier,
            rule::PETIT_AU_BOUT,
            format!("ettan sist för {s_sv}: 10 × {multiplier}"),
            format!("Petit in the last trick for {s_en}: 10 × {multiplier}"),
        ));
    }
    if options.poignee {
        for &(seat, level) in &facts.poignees {
            let (p_sv, p_en) = level.names();
            components.push((
                sign * level.bonus(),
                rule::POIGNEE,
                format!("{p_sv} visad av plats {seat}: {} till den sida som vinner", level.bonus()),
                format!("{p_en} shown by seat {seat}: {} to the side that wins", level.bonus()),
            ));
        }
    }
    if options.slam {
        let bonus = match (facts.slam, facts.slam_announced) {
            (Some(Side::Taker), true) => Some((400, "slam annonserad och vunnen", "slam announced and made")),
            (Some(Side::Taker), false) => Some((200, "slam vunnen utan annons", "slam made unannounced")),
            (_, true) => Some((-200, "slam annonserad men inte vunnen", "slam announced and failed")),
            _ => None,
        };
        if let Some((value, sv, en)) = bonus {
            components.push((value, rule::SLAM, format!("{sv}: {value}"), format!("{en}: {value}")));
        }
        if facts.slam == Some(Side::Defence) {
            components.push((
                -200,
                rule::DEFENCE_SLAM,
                "motspelarna tog varje stick: 200".into(),
                "the defence took every trick: 200".into(),
            ));
        }
    }

    let unit: i64 = components.iter().map(|c| c.0).sum();
    let mut terms = Vec::new();
    for (value, rule_id, sv, en) in &components {
        for seat in 0..players {
            let k = share(players, facts.taker, facts.partner, seat);
            let (role_sv, role_en) = if seat == facts.taker {
                ("spelaren", "the taker")
            } else if Some(seat) == facts.partner {
                ("partnern", "the partner")
            } else {
                ("motspelare", "a defender")
            };
            terms.push(ScoreTerm::new(
                seat,
                k * value,
                rule_id,
                format!(
                    "{} = {value} per motspelare; plats {seat} ({role_sv}) {k} × {value} = {}.",
                    capitalized(sv),
                    k * value
                ),
                format!(
                    "{} = {value} per defender; seat {seat} ({role_en}) {k} × {value} = {}.",
                    capitalized(en),
                    k * value
                ),
            ));
        }
    }
    if options.trost {
        for &claimant in &facts.trost {
            for seat in 0..players {
                let (points, sv, en) = if seat == claimant {
                    let got = 10 * (players as i64 - 1);
                    (
                        got,
                        format!("Tröst: plats {seat} visade en hand utan klädda kort och får 10 av var och en, {got}."),
                        format!("Tröst: seat {seat} showed a hand without court cards and gets 10 from each other player, {got}."),
                    )
                } else {
                    (
                        -10,
                        format!("Tröst till plats {claimant}: plats {seat} betalar 10."),
                        format!("Tröst to seat {claimant}: seat {seat} pays 10."),
                    )
                };
                terms.push(ScoreTerm::new(seat, points, rule::TROST, sv, en));
            }
        }
    }
    let points = (0..players).map(|s| terms.iter().filter(|t| t.to == s).map(|t| t.points).sum()).collect();
    Scoring { target, counted_points, made, difference, multiplier, unit, terms, points }
}
