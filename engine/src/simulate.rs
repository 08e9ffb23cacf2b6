//! Random legal play through the object-safe interface, with every check the engine promises:
//! used by the generic tests every game passes (`tests/every_game.rs`, through [`random_matches`]
//! over each game's [`Game::test_option_sets`]), by games' own checks of their match logs, the
//! benchmarks and the service's load generator. And [`Driver`], which plays scripted moves
//! through one game's typed interface for its own tests.
//!
//! Shuffles here come from [`Rng`], the same small generator the bots draw their choices from;
//! the rules themselves never draw randomness.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::cards::Card;
use crate::game::{cards_in, check_deal, check_turn, Game, Match, Refusal, Rules, Status, Viewer};
use crate::random::Rng;
use crate::rules::RuleViolation;
use crate::seat::Seat;

/// Which of the expensive checks to run at every step.
#[derive(Clone, Copy, Debug)]
pub struct Checks {
    /// No view, legal-move list or event shows a seat (or a spectator) a card it may not know.
    pub leaks: bool,
    /// `decide` accepts exactly the commands `legal_moves` lists, among the game's move space.
    pub agreement: bool,
    /// Events survive a JSON round trip and `check_invariants` holds after every event.
    pub invariants: bool,
}

impl Checks {
    pub const ALL: Checks = Checks { leaks: true, agreement: true, invariants: true };
    pub const NONE: Checks = Checks { leaks: false, agreement: false, invariants: false };
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub deals: u32,
    /// Shuffles within deals ([`Status::NeedsShuffle`]).
    pub reshuffles: u32,
    pub moves: u64,
    /// Reaction windows closed by time ([`Match::time_passes`]) in a clocked game.
    pub timeouts: u64,
    pub events: u64,
    /// Every event in order, as stored: for replay tests and benchmarks.
    pub log: Vec<Value>,
    /// Where each deal starts in `log`.
    pub deal_starts: Vec<usize>,
    /// Every rule id met: named by a refusal in the agreement check or by a `rule` in an event.
    pub rules: BTreeSet<String>,
}

/// How many random matches [`random_matches`] plays per player count and option set, by how
/// much each one checks. The cheaper tiers buy more matches in the same time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plan {
    /// Every check.
    pub all: u64,
    /// Leaks and invariants, no agreement check.
    pub leaks: u64,
    /// Invariants (and the events' JSON round trip) only.
    pub invariants: u64,
    /// No check on the way: for the caller's checks of the log.
    pub log_only: u64,
}

/// Plays random matches of `game` at every player count with every one of its test option
/// sets, as `plan` says, and hands each report to `check` with the player count and options.
/// Returns how many were played, or the first broken promise.
pub fn random_matches(
    game: &dyn Game,
    plan: Plan,
    mut check: impl FnMut(usize, &Value, &Report),
) -> Result<u64, String> {
    let tiers = [
        (plan.all, Checks::ALL),
        (plan.leaks, Checks { agreement: false, ..Checks::ALL }),
        (plan.invariants, Checks { invariants: true, ..Checks::NONE }),
        (plan.log_only, Checks::NONE),
    ];
    let mut played = 0;
    for players in game.player_counts() {
        for (i, options) in game.test_option_sets(players).iter().enumerate() {
            let mut n = 0u64;
            for (count, checks) in tiers {
                for _ in 0..count {
                    n += 1;
                    let seed = n * 1000 + i as u64 * 20 + players as u64;
                    let report = play_match(game, players, options, seed, checks)
                        .map_err(|e| format!("{} with {players} players, {options}, seed {seed}: {e}", game.id()))?;
                    check(players, options, &report);
                    played += 1;
                }
            }
        }
    }
    Ok(played)
}

/// Every value of a `rule` field in an event: the rules its payments and score terms name.
fn rules_named(value: &Value, found: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(rule)) = map.get("rule") {
                found.insert(rule.clone());
            }
            map.values().for_each(|v| rules_named(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| rules_named(v, found)),
        _ => {}
    }
}

/// Safety net against a game that never ends; far above any real match.
pub const MAX_STEPS: u64 = 200_000;

/// Plays one match to its end with bots at every seat, checking as asked. Returns the report or
/// a description of the first broken promise.
pub fn play_match(
    game: &dyn Game,
    players: usize,
    options: &Value,
    seed: u64,
    checks: Checks,
) -> Result<Report, String> {
    let mut rng = Rng::new(seed);
    let mut m = game.setup(players, options).map_err(|e| e.0)?;
    let mut report = Report::default();
    let mut steps = 0u64;
    // The pack of the deal under way: how many copies of each card there are.
    let mut pack: Vec<Card> = Vec::new();
    loop {
        steps += 1;
        if steps > MAX_STEPS {
            return Err(format!("match did not end within {MAX_STEPS} steps (seed {seed})"));
        }
        let events = match m.status() {
            Status::Finished { .. } => return Ok(report),
            Status::NeedsDeck { composition } => {
                pack = composition.clone();
                let mut deck = composition;
                rng.shuffle(&mut deck);
                report.deals += 1;
                report.deal_starts.push(report.log.len());
                m.deal(&deck).map_err(|v| format!("deal refused: {v}"))?
            }
            Status::NeedsShuffle { mut cards } => {
                rng.shuffle(&mut cards);
                report.reshuffles += 1;
                m.deal(&cards).map_err(|v| format!("reshuffle refused: {v}"))?
            }
            Status::ToAct { seats } => {
                if seats.is_empty() {
                    return Err("status names no seat to act".into());
                }
                let seats = crate::game::movers(m.as_ref());
                // A clocked game's window also closes by time, now and then before anyone acts.
                if let Some(due) = m.due_at().filter(|_| seats.is_empty() || rng.below(6) == 0) {
                    report.timeouts += 1;
                    let events = m.time_passes(due).map_err(|v| format!("time passing refused: {v}"))?;
                    apply_all(m.as_mut(), events, checks, &pack, &mut report)?;
                    continue;
                }
                if seats.is_empty() {
                    return Err("no seat has a move and no time runs out".into());
                }
                let seat = seats[rng.below(seats.len())];
                if checks.agreement {
                    report.rules.extend(check_agreement(m.as_ref(), seat)?);
                }
                let seed = rng.next_u64();
                let mut command =
                    m.bot_move(seat, seed).ok_or_else(|| format!("seat {seat} is to act but has no move"))?;
                // A bot's reaction arrives when its delay says; what is due before it happens first.
                if let Some(at) = m.bot_reaction_at(seat, crate::bots::Level::Random, seed) {
                    if let Some(due) = m.due_at().filter(|&due| due <= at) {
                        report.timeouts += 1;
                        let events = m.time_passes(due).map_err(|v| format!("time passing refused: {v}"))?;
                        apply_all(m.as_mut(), events, checks, &pack, &mut report)?;
                        continue;
                    }
                    command[crate::game::AT_MS] = at.into();
                }
                report.moves += 1;
                m.decide(seat, &command).map_err(|r| format!("bot move {command} refused: {r:?}"))?
            }
        };
        if events.is_empty() {
            return Err("a decision produced no event".into());
        }
        apply_all(m.as_mut(), events, checks, &pack, &mut report)?;
    }
}

/// Applies a decision's events, checking each as asked, and logs them.
fn apply_all(
    m: &mut dyn Match,
    events: Vec<Value>,
    checks: Checks,
    pack: &[Card],
    report: &mut Report,
) -> Result<(), String> {
    for event in events {
        let event = if checks.invariants {
            let text = serde_json::to_string(&event).map_err(|e| e.to_string())?;
            serde_json::from_str(&text).map_err(|e| e.to_string())?
        } else {
            event
        };
        m.apply(&event)?;
        if checks.invariants {
            m.check_invariants().map_err(|e| format!("after {event}: {e}"))?;
        }
        if checks.leaks {
            check_leaks(m, &event, pack)?;
        }
        report.events += 1;
        rules_named(&event, &mut report.rules);
        report.log.push(event);
    }
    Ok(())
}

/// `decide` must accept every legal move and refuse every other move of the move space. Returns
/// the rules the refusals named.
pub fn check_agreement(m: &dyn Match, seat: Seat) -> Result<BTreeSet<String>, String> {
    let legal = m.legal_moves(seat);
    if legal.is_empty() {
        return Err(format!("seat {seat} is to act but legal_moves is empty"));
    }
    for command in &legal {
        if let Err(r) = m.decide(seat, command) {
            return Err(format!("legal move {command} refused: {r:?}"));
        }
    }
    let mut rules = BTreeSet::new();
    for command in m.move_space(seat) {
        let result = m.decide(seat, &command);
        if let Err(Refusal::Violation(v)) = &result {
            rules.insert(v.rule.clone());
        }
        let accepted = result.is_ok();
        if accepted != legal.contains(&command) {
            return Err(format!(
                "decide {} {command} but legal_moves {} it",
                if accepted { "accepts" } else { "refuses" },
                if accepted { "omits" } else { "lists" },
            ));
        }
    }
    for other in 0..m.players() {
        if other != seat && !m.status().to_act().contains(&other) {
            if let Some(command) = legal.first() {
                match m.decide(other, command) {
                    Err(Refusal::Violation(_)) => {}
                    other_result => return Err(format!("seat {other} acted out of turn: {other_result:?}")),
                }
            }
        }
    }
    Ok(rules)
}

/// No seat sees a card it may not know; spectators see no secret at all.
///
/// A pack may hold a card twice (two packs shuffled together): then the card may be shown as
/// often as there are copies the viewer may know of, so a public 9♥ on the pile is no leak
/// while the other 9♥ sits in a hand, but a view that shows a card more often than that shows
/// a hidden copy. A view, a redacted event and a legal-move list each count apart, and each may
/// name a copy the viewer knows as often as it likes when no copy of that card is hidden from
/// the viewer; a game with two packs draws each card of a view once where a copy is hidden
/// (legal moves count each card once, as several moves may play the same card). `pack` is the
/// deal's pack (empty before the first deal: every card then counts once).
pub fn check_leaks(m: &dyn Match, event: &Value, pack: &[Card]) -> Result<(), String> {
    let secrets = m.secrets();
    let mut viewers: Vec<Viewer> = (0..m.players()).map(Viewer::Seat).collect();
    viewers.push(Viewer::Spectator);
    for viewer in viewers {
        let allowed = may_see(viewer, &secrets, pack);
        if allowed.is_empty() {
            continue;
        }
        let mut shown: Vec<(&str, Vec<Card>, Value)> = Vec::new();
        for (what, value) in [("view", m.view(viewer)), ("event", m.redact(event, viewer, false))] {
            shown.push((what, cards_in(&value), value));
        }
        if let Viewer::Seat(s) = viewer {
            let moves = Value::Array(m.legal_moves(s));
            let mut named = cards_in(&moves);
            named.sort();
            named.dedup();
            shown.push(("legal moves", named, moves));
        }
        for (what, cards, value) in shown {
            if let Some((card, seen, allowed)) = shown_too_often(&cards, &allowed) {
                return Err(format!(
                    "{viewer:?} sees {card} {seen} time(s) in its {what}, where it may know {allowed} cop(ies): {value}"
                ));
            }
        }
    }
    Ok(())
}

/// Each card a copy of which is hidden from `viewer`, with how many copies it may know of: the
/// pack's copies less the hidden ones (a card not in `pack` counts once).
pub fn may_see(viewer: Viewer, secrets: &[(Card, Vec<Seat>)], pack: &[Card]) -> Vec<(Card, usize)> {
    let mut hidden: Vec<(Card, usize)> = Vec::new();
    for (card, knowers) in secrets {
        let secret = match viewer {
            Viewer::Seat(s) => !knowers.contains(&s),
            _ => true,
        };
        if secret {
            match hidden.iter_mut().find(|(c, _)| c == card) {
                Some((_, n)) => *n += 1,
                None => hidden.push((*card, 1)),
            }
        }
    }
    let copies = |card: Card| pack.iter().filter(|&&c| c == card).count().max(1);
    hidden.into_iter().map(|(card, n)| (card, copies(card).saturating_sub(n))).collect()
}

/// The first card `shown` names more often than `allowed` lets it: the card, how often it was
/// shown and how often it may be.
pub fn shown_too_often(shown: &[Card], allowed: &[(Card, usize)]) -> Option<(Card, usize, usize)> {
    allowed.iter().find_map(|&(card, may)| {
        let seen = shown.iter().filter(|&&c| c == card).count();
        (seen > may).then_some((card, seen, may))
    })
}

/// A match driven through a game's typed interface, for that game's own tests. Every event
/// must come back unchanged from JSON, as it is stored, and the books must balance after each.
pub struct Driver<R: Rules> {
    pub rules: R,
    pub state: R::State,
    /// Every event applied, in order.
    pub log: Vec<R::Event>,
}

impl<R: Rules + Default> Driver<R> {
    pub fn new(players: usize, options: R::Options) -> Driver<R> {
        let rules = R::default();
        let state = rules.setup(players, options).unwrap_or_else(|e| panic!("setup refused: {e}"));
        Driver { rules, state, log: Vec::new() }
    }
}

impl<R: Rules> Driver<R>
where
    R::Event: PartialEq,
{
    pub fn apply(&mut self, events: Vec<R::Event>) -> Vec<R::Event> {
        for e in &events {
            let text = serde_json::to_string(e).unwrap_or_else(|err| panic!("{e:?} does not serialize: {err}"));
            let back: R::Event =
                serde_json::from_str(&text).unwrap_or_else(|err| panic!("{text} does not read back: {err}"));
            assert_eq!(&back, e, "events round-trip");
            self.rules.evolve(&mut self.state, e);
            self.rules.check_invariants(&self.state).unwrap_or_else(|err| panic!("after {e:?}: {err}"));
            self.log.push(e.clone());
        }
        events
    }

    /// A deal, or a talon shuffled anew within one (whichever the status asks for), through
    /// the guard the erased layer puts before [`Rules::deal`] and [`Rules::reshuffle`].
    pub fn try_deal(&mut self, deck: Vec<Card>) -> Result<Vec<R::Event>, RuleViolation> {
        check_deal(&self.rules.status(&self.state), &deck)?;
        let events = crate::game::shuffled_in(&self.rules, &self.state, deck)?;
        Ok(self.apply(events))
    }

    pub fn deal(&mut self, deck: Vec<Card>) -> Vec<R::Event> {
        self.try_deal(deck).unwrap_or_else(|v| panic!("deal refused: {v}"))
    }

    /// A command as the service hands it on: through the turn guard of the erased layer first,
    /// since a game's `decide` counts on it.
    pub fn decide(&self, seat: Seat, command: &R::Command) -> Result<Vec<R::Event>, RuleViolation> {
        check_turn(&self.rules.status(&self.state), seat)?;
        self.rules.decide(&self.state, seat, command)
    }

    pub fn act(&mut self, seat: Seat, command: R::Command) -> Result<Vec<R::Event>, RuleViolation> {
        let events = self.decide(seat, &command)?;
        Ok(self.apply(events))
    }

    /// A command the test expects to be accepted.
    pub fn ok(&mut self, seat: Seat, command: R::Command) -> Vec<R::Event> {
        let text = format!("{command:?}");
        self.act(seat, command).unwrap_or_else(|v| panic!("seat {seat} {text}: {v}"))
    }

    /// The rule a refused command breaks. A refused command must not be listed as legal, and
    /// the rule must be in the rulebook for the player to look up.
    pub fn refused(&self, seat: Seat, command: R::Command) -> RuleViolation {
        let v = match self.decide(seat, &command) {
            Ok(events) => panic!("seat {seat} {command:?} was accepted: {events:?}"),
            Err(v) => v,
        };
        assert!(!self.legal(seat).contains(&command), "{command:?} is listed as legal");
        assert!(self.rules.rulebook().rule(&v.rule).is_some(), "{} is not in the rulebook", v.rule);
        v
    }

    pub fn to_act(&self) -> Vec<Seat> {
        self.rules.status(&self.state).to_act().to_vec()
    }

    pub fn legal(&self, seat: Seat) -> Vec<R::Command> {
        self.rules.legal_moves(&self.state, seat)
    }

    /// Plays out the deal in progress with the first legal move at every turn.
    pub fn finish_deal(&mut self) -> Vec<R::Event> {
        let mut events = Vec::new();
        while let [seat, ..] = self.to_act()[..] {
            let first = self.legal(seat).swap_remove(0);
            events.extend(self.ok(seat, first));
        }
        events
    }
}

/// Four thirteen-card hands from their codes, for a test's supplied deal; they must make a
/// whole pack between them.
pub fn four_hands(codes: [&str; 4]) -> [Vec<Card>; 4] {
    let hands = codes.map(crate::cards::cards);
    for h in &hands {
        assert_eq!(h.len(), 13, "{h:?}");
    }
    let all: Vec<Card> = hands.iter().flatten().copied().collect();
    assert!(crate::cards::is_permutation(&all, &crate::cards::decks::standard52()), "the four hands must make a pack");
    hands
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards, decks};

    /// With one pack a hidden card may not be shown at all; with two, a 9♥ on the pile may be
    /// shown while the other sits in a hand, but not twice.
    #[test]
    fn copies_are_counted() {
        let one = decks::standard52();
        let two = decks::double(&one);
        let in_hand = vec![(card("9H"), vec![1])];
        assert_eq!(may_see(Viewer::Seat(0), &in_hand, &one), [(card("9H"), 0)]);
        assert_eq!(may_see(Viewer::Seat(1), &in_hand, &one), []);
        assert_eq!(shown_too_often(&cards("9H"), &may_see(Viewer::Seat(0), &in_hand, &one)), Some((card("9H"), 1, 0)));
        let allowed = may_see(Viewer::Spectator, &in_hand, &two);
        assert_eq!(allowed, [(card("9H"), 1)]);
        assert_eq!(shown_too_often(&cards("9H KS KS"), &allowed), None);
        assert_eq!(shown_too_often(&cards("9H 9H"), &allowed), Some((card("9H"), 2, 1)));
        // Both copies hidden, from seat 0 by two different holders.
        let both = vec![(card("9H"), vec![1]), (card("9H"), vec![2])];
        assert_eq!(may_see(Viewer::Seat(0), &both, &two), [(card("9H"), 0)]);
        assert_eq!(may_see(Viewer::Seat(2), &both, &two), [(card("9H"), 1)]);
    }
}
