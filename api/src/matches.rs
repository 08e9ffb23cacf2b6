//! Matches as event streams: replaying them through the engine, and what the service adds around
//! the rules (who sits where, dealing from shuffled decks, bots). No game rule lives here.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub use engine::bots::Level as BotLevel;
use engine::cards::{is_permutation, Card};
use engine::game::{Match, Outcome, Status, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::store::{NewEvent, StoredEvent};

/// Who sits in a seat.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Occupant {
    Player {
        player_id: Uuid,
        name: String,
    },
    /// A bot. Seats stored before bots had levels have none: they stay the random bot.
    Bot {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<BotLevel>,
    },
    Open,
}

impl Occupant {
    pub fn is_bot(&self) -> bool {
        matches!(self, Occupant::Bot { .. })
    }
}

/// Events the service writes into a match's stream besides the game's own. Supplied decks are
/// shown only as their number (`supplied_decks`), since they would tell every card to come.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type")]
pub enum ServiceEvent {
    #[serde(rename = "match.created")]
    Created {
        game: String,
        options: Value,
        seats: Vec<Occupant>,
        /// Deck orders supplied by the creator for the first deals (top card first).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        decks: Vec<Vec<Card>>,
        created_by: Uuid,
        /// Seconds a person has for each turn; then their bot plays it for them (none: no limit).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn_seconds: Option<u32>,
        /// Never in the lobby: seats are taken with the invitation code (absent: public).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        private: bool,
        /// The code that takes a seat of a private match. Never shown to anyone but the creator
        /// (`redact_service_event` drops it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        invitation: Option<String>,
        /// What happens when a player leaves a running match (absent: `bot`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        when_a_player_leaves: Option<WhenAPlayerLeaves>,
    },
    #[serde(rename = "match.seat_joined")]
    SeatJoined { seat: usize, player_id: Uuid, name: String },
    /// A person let their turn's time run out: their bot made the move that follows, and the
    /// seat stays theirs.
    #[serde(rename = "match.turn_timed_out")]
    TurnTimedOut {
        seat: usize,
        /// When the turn's time ran out (RFC 3339, server time).
        #[schema(format = DateTime)]
        deadline: String,
    },
    /// A bot is about to move for `seat`: the level it plays at and the seed its choice came
    /// from, so that the move can be explained (the bot's events follow, and replaying the
    /// match applies them; it never asks the bot again).
    #[serde(rename = "match.bot_moved")]
    BotMoved {
        seat: usize,
        level: BotLevel,
        /// Below 2^53, so that every JSON reader keeps it exact.
        seed: u64,
    },
    /// The creator cancelled the match while it waited for players: it is over, nobody won.
    #[serde(rename = "match.cancelled")]
    Cancelled { player_id: Uuid },
    /// A seated player called the match off before any person had made a move: it is over,
    /// nobody won.
    #[serde(rename = "match.aborted")]
    Aborted { seat: usize, player_id: Uuid },
    /// A player left a running match, and a bot at `level` plays their seat from here on.
    #[serde(rename = "match.seat_left")]
    SeatLeft { seat: usize, player_id: Uuid, level: BotLevel },
    /// A player left a running match that ends when a player leaves (or was the last person at
    /// the table): it is over, nobody won. A fact of the service, not a result of the game.
    #[serde(rename = "match.abandoned")]
    Abandoned { seat: usize, player_id: Uuid },
    /// The match waited for players longer than the service keeps waiting matches: it is over.
    #[serde(rename = "match.expired")]
    Expired {
        /// When its time in the lobby ran out (RFC 3339, server time).
        #[schema(format = DateTime)]
        deadline: String,
    },
}

/// What happens to a running match when a player leaves their seat.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum WhenAPlayerLeaves {
    /// A bot (at the strong level) plays the seat from then on, and the match goes on.
    #[default]
    Bot,
    /// The match ends there, abandoned, and nobody wins.
    End,
}

/// Why a match ended outside its game's rules: a fact of the service.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The creator cancelled it while it waited for players (`match.cancelled`).
    Cancelled,
    /// A seated player called it off before any person had moved (`match.aborted`).
    Aborted,
    /// A player left it while it was played (`match.abandoned`).
    Abandoned,
    /// It waited for players too long (`match.expired`).
    Expired,
}

/// How a match that did not end by its rules ended.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct Ended {
    pub reason: EndReason,
    /// The seat of the player who aborted or left (none for a cancelled or expired match).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
}

impl Ended {
    /// The outcome the match shows: nobody won, and why it is over.
    pub fn outcome(&self) -> Outcome {
        let seat = self.seat.map_or(String::new(), |s| s.to_string());
        let explanation = match self.reason {
            EndReason::Cancelled => engine::rules::Text::new(
                "Skaparen ställde in matchen innan den började.",
                "The creator cancelled the match before it started.",
            ),
            EndReason::Aborted => engine::rules::Text::new(
                format!("Plats {seat} avbröt matchen innan någon hade gjort ett drag."),
                format!("Seat {seat} aborted the match before anyone had made a move."),
            ),
            EndReason::Abandoned => engine::rules::Text::new(
                format!("Plats {seat} lämnade matchen, som därmed är avbruten."),
                format!("The match was abandoned by seat {seat}, who left it."),
            ),
            EndReason::Expired => engine::rules::Text::new(
                "Matchen väntade för länge på spelare och togs bort ur lobbyn.",
                "The match waited too long for players and expired from the lobby.",
            ),
        };
        Outcome { winners: Vec::new(), explanation }
    }
}

pub const SERVICE_ACTOR: &str = "service";

pub fn is_service_event(event_type: &str) -> bool {
    event_type.starts_with("match.")
}

/// A match as derived from its events.
#[derive(Clone)]
pub struct Loaded {
    pub id: Uuid,
    pub version: i64,
    pub game: String,
    pub options: Value,
    pub seats: Vec<Occupant>,
    pub decks: Vec<Vec<Card>>,
    pub table: Box<dyn Match>,
    /// Seconds a person has for each turn, if the match limits them.
    pub turn_seconds: Option<u32>,
    /// When the last event was recorded: a turn's time runs from it.
    pub last_at: chrono::DateTime<chrono::Utc>,
    /// When the match was created: a waiting match's time in the lobby runs from it.
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub created_by: Uuid,
    pub private: bool,
    pub invitation: Option<String>,
    pub when_a_player_leaves: WhenAPlayerLeaves,
    /// How the match ended, when the service ended it (cancelled, aborted, abandoned, expired).
    pub ended: Option<Ended>,
    /// Whether a person has made a move (bots' moves, deals and timed-out turns do not count):
    /// until then any seated player may abort the match.
    pub person_moved: bool,
}

impl Loaded {
    /// Replays a stream from its first event.
    pub fn replay(id: Uuid, events: &[StoredEvent]) -> Result<Loaded, String> {
        let first = events.first().ok_or("empty stream")?;
        let ServiceEvent::Created {
            game,
            options,
            seats,
            decks,
            turn_seconds,
            created_by,
            private,
            invitation,
            when_a_player_leaves,
        } = serde_json::from_value(first.data.clone()).map_err(|e| format!("first event is not match.created: {e}"))?
        else {
            return Err("first event is not match.created".into());
        };
        let rules = engine::game(&game).ok_or_else(|| format!("game {game} is not in this build"))?;
        let table = rules.setup(seats.len(), &options).map_err(|e| e.0)?;
        let mut loaded = Loaded {
            id,
            version: first.seq,
            game,
            options,
            seats,
            decks,
            table,
            turn_seconds,
            last_at: first.recorded_at,
            created_at: first.recorded_at,
            created_by,
            private,
            invitation,
            when_a_player_leaves: when_a_player_leaves.unwrap_or_default(),
            ended: None,
            person_moved: false,
        };
        loaded.apply_all(&events[1..])?;
        Ok(loaded)
    }

    pub fn apply_all(&mut self, events: &[StoredEvent]) -> Result<(), String> {
        for e in events {
            if e.seq != self.version + 1 {
                return Err(format!("stream {} jumps from {} to {}", self.id, self.version, e.seq));
            }
            self.apply(&e.event_type, &e.data, &e.actor)?;
            self.version = e.seq;
            self.last_at = e.recorded_at;
        }
        Ok(())
    }

    fn apply(&mut self, event_type: &str, data: &Value, actor: &str) -> Result<(), String> {
        if is_service_event(event_type) {
            match serde_json::from_value(data.clone()).map_err(|e| e.to_string())? {
                ServiceEvent::SeatJoined { seat, player_id, name } => {
                    self.seats[seat] = Occupant::Player { player_id, name };
                }
                ServiceEvent::TurnTimedOut { .. } | ServiceEvent::BotMoved { .. } => {}
                ServiceEvent::Created { .. } => return Err("a second match.created".into()),
                ServiceEvent::Cancelled { .. } => self.ended = Some(Ended { reason: EndReason::Cancelled, seat: None }),
                ServiceEvent::Aborted { seat, .. } => {
                    self.ended = Some(Ended { reason: EndReason::Aborted, seat: Some(seat) })
                }
                ServiceEvent::SeatLeft { seat, level, .. } => self.seats[seat] = Occupant::Bot { level: Some(level) },
                ServiceEvent::Abandoned { seat, .. } => {
                    self.ended = Some(Ended { reason: EndReason::Abandoned, seat: Some(seat) })
                }
                ServiceEvent::Expired { .. } => self.ended = Some(Ended { reason: EndReason::Expired, seat: None }),
            }
            Ok(())
        } else {
            // A person's move is recorded under their player id; bots' and the service's not.
            if Uuid::try_parse(actor).is_ok() {
                self.person_moved = true;
            }
            self.table.apply(data)
        }
    }

    /// Applies events this request decided and returns them ready to append.
    pub fn record(&mut self, events: Vec<Value>, actor: &str, out: &mut Vec<NewEvent>) -> Result<(), String> {
        for data in events {
            let event_type = data.get("type").and_then(Value::as_str).unwrap_or("unknown").to_string();
            self.apply(&event_type, &data, actor)?;
            // The database keeps microseconds: an answer rebuilt from the log must match.
            let recorded_at = chrono::SubsecRound::trunc_subsecs(chrono::Utc::now(), 6);
            self.last_at = recorded_at;
            out.push(NewEvent {
                event_type,
                deal: self.table.deal_number() as i32,
                data,
                actor: actor.to_string(),
                recorded_at,
            });
        }
        Ok(())
    }

    pub fn seats_of(&self, player: Uuid) -> Vec<usize> {
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, o)| matches!(o, Occupant::Player { player_id, .. } if *player_id == player))
            .map(|(i, _)| i)
            .collect()
    }

    /// What lists show of the match now (see `store::Summary`).
    pub fn summary(&self) -> crate::store::Summary {
        let players: Vec<String> = self
            .seats
            .iter()
            .filter_map(|o| match o {
                Occupant::Player { player_id, .. } => Some(player_id.to_string()),
                _ => None,
            })
            .collect();
        let seats: Vec<SeatOut> = self.seats.iter().enumerate().map(|(seat, o)| SeatOut::new(seat, o)).collect();
        let to_act = self.to_act();
        crate::store::Summary {
            game: self.game.clone(),
            phase: match self.phase() {
                MatchPhase::Waiting => "waiting",
                MatchPhase::Playing => "playing",
                MatchPhase::Finished => "finished",
            },
            version: self.version,
            open_seats: self.seats.iter().filter(|o| **o == Occupant::Open).count() as i32,
            players: serde_json::json!(players),
            seats: serde_json::to_value(seats).unwrap_or_default(),
            to_act: serde_json::json!(to_act),
            // An outcome the service decided carries why the match ended beside it.
            outcome: self.outcome().and_then(|o| serde_json::to_value(o).ok()).map(|mut o| {
                if let (Some(ended), Some(fields)) = (self.ended, o.as_object_mut()) {
                    fields.insert("ended".into(), json!(ended));
                }
                o
            }),
            private: self.private,
            at: self.last_at,
            due_at: self.due_at(),
        }
    }

    /// The seats that may act now: none while seats are open or once the match is over.
    pub fn to_act(&self) -> Vec<usize> {
        if self.is_full() && self.ended.is_none() {
            self.table.status().to_act().to_vec()
        } else {
            Vec::new()
        }
    }

    /// How the match ended: by its rules, or by the service (nobody won).
    pub fn outcome(&self) -> Option<Outcome> {
        match (self.ended, self.table.status()) {
            (Some(ended), _) => Some(ended.outcome()),
            (None, Status::Finished { outcome }) => Some(outcome),
            _ => None,
        }
    }

    pub fn is_full(&self) -> bool {
        !self.seats.contains(&Occupant::Open)
    }

    pub fn phase(&self) -> MatchPhase {
        if self.ended.is_some() {
            MatchPhase::Finished
        } else if !self.is_full() {
            MatchPhase::Waiting
        } else if self.table.status().is_finished() {
            MatchPhase::Finished
        } else {
            MatchPhase::Playing
        }
    }

    /// The seats of people whose turn it is now, and when their time runs out, if the match
    /// limits turns and its table is full and playing.
    pub fn turn_deadline(&self) -> Option<(Vec<usize>, chrono::DateTime<chrono::Utc>)> {
        let seconds = self.turn_seconds?;
        if !self.is_full() || self.ended.is_some() {
            return None;
        }
        let people: Vec<usize> = self
            .table
            .status()
            .to_act()
            .iter()
            .copied()
            .filter(|&s| matches!(self.seats[s], Occupant::Player { .. }))
            // A clocked game lists seats with nothing to do (Gris: anyone may thumb up).
            .filter(|&s| !self.table.clocked() || !self.table.legal_moves(s).is_empty())
            .collect();
        (!people.is_empty()).then(|| (people, self.last_at + chrono::Duration::seconds(seconds.into())))
    }

    /// Plays the turn of every person in `seats` whose time ran out at `deadline` with their bot,
    /// each move after an event saying why, then deals and bots' moves as after any move.
    pub fn time_out(
        &mut self,
        seats: &[usize],
        deadline: chrono::DateTime<chrono::Utc>,
        out: &mut Vec<NewEvent>,
    ) -> Result<(), AdvanceError> {
        let broken = |e: String| AdvanceError::Broken(e);
        for &seat in seats {
            if !self.table.status().to_act().contains(&seat) {
                continue;
            }
            let timed_out = ServiceEvent::TurnTimedOut { seat, deadline: deadline.to_rfc3339() };
            let timed_out = serde_json::to_value(&timed_out).map_err(|e| broken(e.to_string()))?;
            self.record(vec![timed_out], SERVICE_ACTOR, out).map_err(broken)?;
            self.bot_plays(seat, out)?;
        }
        self.advance(out)
    }

    /// The bot's move for `seat`, decided and recorded as the bot's, after an event that says at
    /// which level and from which seed. A seat's bot plays at the seat's level; a person's turn
    /// that timed out, and a bot seat stored without a level, get the random bot.
    fn bot_plays(&mut self, seat: usize, out: &mut Vec<NewEvent>) -> Result<(), AdvanceError> {
        self.bot_plays_seeded(seat, rand::random::<u64>() >> 11, None, out)
    }

    /// The level `seat`'s bot plays at (a person's timed-out turn gets the random bot).
    fn level_of(&self, seat: usize) -> BotLevel {
        match self.seats[seat] {
            Occupant::Bot { level } => level.unwrap_or(BotLevel::Random),
            _ => BotLevel::Random,
        }
    }

    /// [`Loaded::bot_plays`] from a given seed, and in a clocked game at the time its reaction
    /// is due (written into its command as the service writes a person's receive time).
    fn bot_plays_seeded(
        &mut self,
        seat: usize,
        seed: u64,
        at_ms: Option<u64>,
        out: &mut Vec<NewEvent>,
    ) -> Result<(), AdvanceError> {
        let broken = |e: String| AdvanceError::Broken(e);
        let level = self.level_of(seat);
        let moved =
            serde_json::to_value(ServiceEvent::BotMoved { seat, level, seed }).map_err(|e| broken(e.to_string()))?;
        self.record(vec![moved], &format!("bot:{seat}"), out).map_err(broken)?;
        let command = self.table.bot_move_at(seat, level, seed).ok_or("a bot has no move".to_string());
        // A clocked game's bot moves at its reaction's time, or now for a move made at once.
        let at_ms = at_ms.or_else(|| self.table.clocked().then(now_ms));
        let command = command.map(|mut c| {
            if let (Some(at), Some(fields)) = (at_ms, c.as_object_mut()) {
                fields.insert(engine::game::AT_MS.into(), at.into());
            }
            c
        });
        let events = self
            .table
            .decide(seat, &command.map_err(broken)?)
            .map_err(|r| broken(format!("bot move refused: {r:?}")))?;
        self.record(events, &format!("bot:{seat}"), out).map_err(broken)
    }

    /// A seed for `seat`'s bot that every node draws alike. With the version, for a move made at
    /// once; without, for a reaction, so that a bot keeps one plan for one stimulus however many
    /// events come between (the game mixes the stimulus into it, `reaction::bot_delay_ms`).
    fn bot_seed(&self, seat: usize, with_version: bool) -> u64 {
        let (hi, lo) = self.id.as_u64_pair();
        let version = if with_version { self.version as u64 } else { u64::MAX };
        let mut x = hi ^ lo.rotate_left(29) ^ version.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((seat as u64) << 56);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (x ^ (x >> 31)) >> 11
    }

    /// What `seat`'s bot does in a clocked match from `seed`: a move made at once, or a reaction
    /// at its time; `None` for a person's seat or a bot with nothing to do. Every path reads a
    /// bot's choice here, from its reaction's seed (`bot_seed(seat, false)`): read from two
    /// seeds, a random bot holding both kinds of move (Gris's pig and a quartet) was left by
    /// `advance` to the clock and by `next_due` to `advance`, and the match stood still.
    fn bot_plan(&self, seat: usize, seed: u64) -> Option<BotPlan> {
        if !self.seats[seat].is_bot() {
            return None;
        }
        let level = self.level_of(seat);
        self.table.bot_move_at(seat, level, seed)?;
        Some(match self.table.bot_reaction_at(seat, level, seed) {
            Some(at) => BotPlan::Reacts { at },
            None => BotPlan::AtOnce,
        })
    }

    /// What moves a match on the server's clock on by itself next, and when (milliseconds since
    /// the Unix epoch): a window closing, or a bot's reaction (the earliest; a window closes
    /// before a reaction due at the same moment).
    pub fn next_due(&self) -> Option<(u64, ClockStep)> {
        if !self.table.clocked() || !self.is_full() || self.ended.is_some() {
            return None;
        }
        let mut next = self.table.due_at().map(|at| (at, ClockStep::TimeRunsOut));
        for &seat in self.table.status().to_act() {
            let seed = self.bot_seed(seat, false);
            if let Some(BotPlan::Reacts { at }) = self.bot_plan(seat, seed) {
                if next.is_none_or(|(t, _)| at < t) {
                    next = Some((at, ClockStep::BotReacts { seat, seed }));
                }
            }
        }
        next
    }

    /// When the reaction window open now closes by time (the game's own due time; bots' planned
    /// reactions are nobody's to know).
    pub fn window_closes_at(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        if !self.is_full() || self.ended.is_some() {
            return None;
        }
        self.table.due_at().and_then(|at| chrono::DateTime::from_timestamp_millis(at as i64))
    }

    /// [`Loaded::next_due`] as a time.
    pub fn due_at(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        self.next_due().and_then(|(at, _)| chrono::DateTime::from_timestamp_millis(at as i64))
    }

    /// Takes, in time order, every step of a match on the server's clock that is due at `now_ms`
    /// (windows closing, bots reacting), each followed by what follows any move (deals, bots'
    /// moves made at once), so that a move received at `now_ms` comes after them.
    pub fn run_clock(&mut self, now_ms: u64, out: &mut Vec<NewEvent>) -> Result<(), AdvanceError> {
        let broken = |e: String| AdvanceError::Broken(e);
        for _ in 0..MAX_STEPS {
            match self.next_due() {
                Some((at, ClockStep::TimeRunsOut)) if at <= now_ms => {
                    let events = self.table.time_passes(at).map_err(|v| broken(v.to_string()))?;
                    self.record(events, SERVICE_ACTOR, out).map_err(broken)?;
                }
                Some((at, ClockStep::BotReacts { seat, seed })) if at <= now_ms => {
                    self.bot_plays_seeded(seat, seed, Some(at), out)?;
                }
                _ => return Ok(()),
            }
            self.advance(out)?;
        }
        Err(AdvanceError::Unsettled { steps: MAX_STEPS })
    }

    /// Whether the deal an event belongs to is over (its record is then open for replay). A
    /// deal waiting for its talon to be shuffled anew is not.
    pub fn deal_over(&self, deal: i32) -> bool {
        let current = self.table.deal_number() as i32;
        deal < current
            || (deal == current && matches!(self.table.status(), Status::NeedsDeck { .. } | Status::Finished { .. }))
    }

    /// Deals and lets bots act until a person must act or the match is over. Shuffling happens
    /// here, outside the rules: the deal's first event records the order drawn.
    pub fn advance(&mut self, out: &mut Vec<NewEvent>) -> Result<(), AdvanceError> {
        self.advance_within(out, MAX_STEPS)
    }

    /// `advance` taking at most `steps` deals and bot moves: what one request may do, however
    /// long the match's options make it.
    pub fn advance_within(&mut self, out: &mut Vec<NewEvent>, steps: usize) -> Result<(), AdvanceError> {
        if !self.is_full() || self.ended.is_some() {
            return Ok(());
        }
        for _ in 0..steps {
            match self.table.status() {
                Status::Finished { .. } => return Ok(()),
                // A new deal, or a talon shuffled anew within one: the supplied orders are taken
                // one a shuffle, in the order the match needs them.
                Status::NeedsDeck { composition: cards } | Status::NeedsShuffle { cards } => {
                    let index = self.table.shuffles() as usize;
                    let deck = match self.decks.get(index) {
                        Some(supplied) if is_permutation(supplied, &cards) => supplied.clone(),
                        Some(_) => return Err(AdvanceError::Supplied { index, cards: cards.len() }),
                        None => shuffled(cards),
                    };
                    // A clocked game is dealt at the service's time, as its moves are made.
                    let at = self.table.clocked().then(now_ms);
                    let events = self.table.deal_at(&deck, at).map_err(|v| AdvanceError::Broken(v.to_string()))?;
                    self.record(events, SERVICE_ACTOR, out).map_err(AdvanceError::Broken)?;
                }
                // In a clocked game a bot makes only its moves made at once here; its reactions
                // wait for their time (`run_clock`), and a seat with nothing to do is passed over.
                Status::ToAct { seats } if self.table.clocked() => {
                    let at_once = |s: usize, seed: u64| self.bot_plan(s, seed) == Some(BotPlan::AtOnce);
                    let Some(bot) = seats.iter().copied().find(|&s| at_once(s, self.bot_seed(s, false))) else {
                        return Ok(());
                    };
                    // The move itself from the version's seed when that is one made at once too,
                    // so that a random bot's moves vary; else the reaction seed's, which is.
                    let seed = Some(self.bot_seed(bot, true)).filter(|&seed| at_once(bot, seed));
                    self.bot_plays_seeded(bot, seed.unwrap_or(self.bot_seed(bot, false)), None, out)?;
                }
                Status::ToAct { seats } => {
                    let Some(&bot) = seats.iter().find(|&&s| self.seats[s].is_bot()) else {
                        return Ok(());
                    };
                    self.bot_plays(bot, out)?;
                }
            }
        }
        Err(AdvanceError::Unsettled { steps })
    }
}

/// The service's time in milliseconds since the Unix epoch, as a clocked game reads it.
pub fn now_ms() -> u64 {
    chrono::Utc::now().timestamp_millis().max(0) as u64
}

/// What a bot does next in a clocked match ([`Loaded::bot_plan`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BotPlan {
    /// A move made at once, after whatever move came before it.
    AtOnce,
    /// A reaction at this time (milliseconds since the Unix epoch).
    Reacts { at: u64 },
}

/// What moves a match on the server's clock on by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockStep {
    /// A reaction window's time runs out.
    TimeRunsOut,
    /// A bot reacts, its delay over.
    BotReacts { seat: usize, seed: u64 },
}

/// The most deals and bot moves one request makes (a whole long match of bots would be tens of
/// thousands, all held in memory and appended in one statement).
pub const MAX_STEPS: usize = 10_000;

/// Why the table could not be brought to a person's turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdvanceError {
    /// The bots would go on past `steps` deals and moves.
    Unsettled { steps: usize },
    /// The order supplied for shuffle `index` is not an order of the `cards` cards the table
    /// needs shuffled now.
    Supplied { index: usize, cards: usize },
    /// The rules refused what the service did for them: a bug.
    Broken(String),
}

impl From<AdvanceError> for crate::problem::ApiError {
    fn from(e: AdvanceError) -> Self {
        match e {
            AdvanceError::Unsettled { steps } => crate::problem::ApiError::unprocessable(
                "bots-unsettled",
                format!(
                    "the bots would make more than {steps} moves and deals before a person is to act; \
                     nothing was recorded"
                ),
            ),
            AdvanceError::Supplied { index, cards } => crate::problem::ApiError::unprocessable(
                "invalid-deck",
                format!(
                    "supplied order {index} is not an order of the {cards} cards the table needs shuffled then \
                     (orders are taken one a shuffle: each deal, and each talon shuffled anew within a deal); \
                     nothing was recorded"
                ),
            ),
            AdvanceError::Broken(e) => crate::problem::ApiError::internal(e),
        }
    }
}

pub fn shuffled(mut deck: Vec<Card>) -> Vec<Card> {
    use rand::seq::SliceRandom;
    deck.shuffle(&mut rand::rng());
    deck
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum MatchPhase {
    /// Open seats remain.
    Waiting,
    Playing,
    Finished,
}

/// A seat as everyone may see it: one flat object (not `Occupant` flattened into it, which
/// client generators cannot read as an `allOf` over a `oneOf`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatOut {
    pub seat: usize,
    pub kind: SeatKind,
    /// The player's id, for a seat a player holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_id: Option<Uuid>,
    /// The player's name, for a seat a player holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// How well the bot plays, for a bot's seat (`random` for bots of matches made before bots
    /// had levels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<BotLevel>,
}

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SeatKind {
    Player,
    Bot,
    Open,
}

impl SeatOut {
    fn new(seat: usize, occupant: &Occupant) -> SeatOut {
        match occupant {
            Occupant::Player { player_id, name } => SeatOut {
                seat,
                kind: SeatKind::Player,
                player_id: Some(*player_id),
                name: Some(name.clone()),
                level: None,
            },
            Occupant::Bot { level } => SeatOut {
                seat,
                kind: SeatKind::Bot,
                player_id: None,
                name: None,
                level: Some(level.unwrap_or(BotLevel::Random)),
            },
            Occupant::Open => SeatOut { seat, kind: SeatKind::Open, player_id: None, name: None, level: None },
        }
    }
}

/// A match as one caller may see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MatchView {
    pub id: Uuid,
    pub game: String,
    /// The stream version; also sent as the ETag.
    pub version: i64,
    pub phase: MatchPhase,
    #[schema(schema_with = crate::openapi::options_schema)]
    pub options: Value,
    pub seats: Vec<SeatOut>,
    /// Seats the caller holds.
    pub your_seats: Vec<usize>,
    /// The seat this view is drawn for (null for a spectator).
    pub viewing_as: Option<usize>,
    /// Seats that may act now.
    pub to_act: Vec<usize>,
    /// When the turn of the person to act runs out (RFC 3339, server time) in a match with
    /// `turn_seconds`: their bot then plays the move for them. Null when no person is to act or
    /// turns are not limited.
    #[schema(format = DateTime)]
    pub turn_deadline: Option<String>,
    /// In a game decided on the server's clock (Gris, Hej knekt): when the reaction window open
    /// now closes by time (RFC 3339, server time), and the seats still waited for are late. The
    /// game's table shows when it opened, and the times of the reactions so far. Null when no
    /// window is open.
    #[schema(format = DateTime)]
    pub window_closes_at: Option<String>,
    pub deal_number: u32,
    pub outcome: Option<Outcome>,
    /// Why the match is over when the service ended it (cancelled, aborted, abandoned or
    /// expired; `outcome` then names no winner); null while it is played and when it ended by
    /// its rules.
    pub ended: Option<Ended>,
    /// A private match's invitation code, shown to its creator only: a seat is taken with
    /// `POST .../seats/{seat}/join?invitation=<code>`. Absent for anyone else and for public
    /// matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invitation: Option<String>,
    /// Whether the match is private (never in the lobby; joined with the invitation code).
    pub private: bool,
    /// The game's own view: the caller's hand, the public table, scores.
    #[schema(schema_with = crate::openapi::table_schema)]
    pub table: Value,
}

impl Loaded {
    pub fn view(&self, viewer: Viewer, your_seats: Vec<usize>) -> MatchView {
        MatchView {
            id: self.id,
            game: self.game.clone(),
            version: self.version,
            phase: self.phase(),
            options: self.options.clone(),
            seats: self.seats.iter().enumerate().map(|(seat, occupant)| SeatOut::new(seat, occupant)).collect(),
            your_seats,
            viewing_as: match viewer {
                Viewer::Seat(s) => Some(s),
                _ => None,
            },
            to_act: self.to_act(),
            deal_number: self.table.deal_number(),
            turn_deadline: self.turn_deadline().map(|(_, at)| at.to_rfc3339()),
            window_closes_at: self.window_closes_at().map(|at| at.to_rfc3339()),
            outcome: self.outcome(),
            ended: self.ended,
            invitation: None,
            private: self.private,
            table: self.table.view(viewer),
        }
    }

    /// An event as `viewer` may see it, with the service's own events filtered too.
    pub fn event_out(&self, e: &StoredEvent, viewer: Viewer) -> EventOut {
        self.out(e, |table| table.redact(&e.data, viewer, self.deal_over(e.deal)))
    }

    /// A stored event of a finished deal as it stands in the deal's record for `seat` (or for
    /// anyone, with `None`), `self` being the table at the deal's end.
    pub fn record_out(&self, e: &StoredEvent, seat: Option<usize>) -> EventOut {
        self.out(e, |table| table.record_event(&e.data, seat))
    }

    /// The event as sent, its game data as `data` shows it to the caller.
    fn out(&self, e: &StoredEvent, data: impl FnOnce(&dyn Match) -> Value) -> EventOut {
        let data = if is_service_event(&e.event_type) { redact_service_event(&e.data) } else { data(&*self.table) };
        EventOut {
            game: self.game.clone(),
            seq: e.seq,
            event_type: e.event_type.clone(),
            deal: e.deal,
            actor: public_actor(&e.actor),
            recorded_at: e.recorded_at.to_rfc3339(),
            data,
        }
    }
}

/// Supplied decks would tell everything to come: only their number is shown.
fn redact_service_event(data: &Value) -> Value {
    let mut data = data.clone();
    if let Some(obj) = data.as_object_mut() {
        if let Some(decks) = obj.remove("decks") {
            obj.insert("supplied_decks".into(), json!(decks.as_array().map_or(0, Vec::len)));
        }
        // A private match's code would let anyone who reads its events take a seat.
        obj.remove("invitation");
    }
    data
}

fn public_actor(actor: &str) -> String {
    actor.to_string()
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventOut {
    /// The match's game: which game's event `data` is.
    pub game: String,
    pub seq: i64,
    #[serde(rename = "type")]
    pub event_type: String,
    pub deal: i32,
    /// A player id, `bot:<seat>` or `service`.
    pub actor: String,
    #[schema(format = DateTime)]
    pub recorded_at: String,
    #[schema(schema_with = crate::openapi::event_data_schema)]
    pub data: Value,
}

/// Derived state kept per node, keyed by stream and version: a request reads only the events
/// newer than what is cached. The database stays the truth; a stale entry is simply caught up.
/// Entries are shared: readers take the `Arc`, a move works on its own copy and puts it back.
/// When full, the least recently used match goes: a table being played is never the one dropped
/// for a match nobody has looked at for a while.
pub struct MatchCache {
    entries: Mutex<Lru>,
    capacity: usize,
}

#[derive(Default)]
struct Lru {
    /// Each match with the tick it was last used at.
    matches: HashMap<Uuid, (Arc<Loaded>, u64)>,
    /// The same matches by the tick they were last used at, oldest first.
    by_use: std::collections::BTreeMap<u64, Uuid>,
    tick: u64,
}

impl Lru {
    fn touch(&mut self, id: Uuid) -> Option<Arc<Loaded>> {
        self.tick += 1;
        let tick = self.tick;
        let (loaded, used) = self.matches.get_mut(&id)?;
        self.by_use.remove(used);
        *used = tick;
        self.by_use.insert(tick, id);
        Some(loaded.clone())
    }
}

impl MatchCache {
    pub fn new(capacity: usize) -> MatchCache {
        MatchCache { entries: Mutex::new(Lru::default()), capacity: capacity.max(1) }
    }

    pub fn get(&self, id: Uuid) -> Option<Arc<Loaded>> {
        self.entries.lock().expect("cache lock").touch(id)
    }

    /// Keeps `loaded` unless a newer version of the match is already cached.
    pub fn put(&self, loaded: Arc<Loaded>) {
        let mut lru = self.entries.lock().expect("cache lock");
        let id = loaded.id;
        if lru.touch(id).is_some() {
            let (existing, _) = lru.matches.get_mut(&id).expect("touched");
            if existing.version < loaded.version {
                *existing = loaded;
            }
            return;
        }
        while lru.matches.len() >= self.capacity {
            let Some((_, oldest)) = lru.by_use.pop_first() else { break };
            lru.matches.remove(&oldest);
        }
        lru.tick += 1;
        let tick = lru.tick;
        lru.by_use.insert(tick, id);
        lru.matches.insert(id, (loaded, tick));
    }

    pub fn len(&self) -> usize {
        self.entries.lock().expect("cache lock").matches.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match of `game` just created with `seats`, as replayed from its first event.
    fn created(id: Uuid, game: &str, options: Value, seats: Vec<Occupant>) -> Loaded {
        let created = ServiceEvent::Created {
            game: game.into(),
            options,
            seats,
            decks: Vec::new(),
            created_by: Uuid::nil(),
            turn_seconds: None,
            private: false,
            invitation: None,
            when_a_player_leaves: None,
        };
        let first = StoredEvent {
            seq: 1,
            event_type: "match.created".into(),
            deal: 0,
            data: serde_json::to_value(&created).unwrap(),
            actor: "test".into(),
            recorded_at: chrono::Utc::now(),
        };
        Loaded::replay(id, &[first]).unwrap()
    }

    fn a_match(version: i64) -> Arc<Loaded> {
        let mut loaded = created(Uuid::new_v4(), "plump", json!({}), vec![Occupant::Open; 3]);
        loaded.version = version;
        Arc::new(loaded)
    }

    /// A full cache drops the match used least recently, never one in use, and never keeps an
    /// older version over a newer one.
    #[test]
    fn the_cache_drops_the_least_recently_used_match() {
        let cache = MatchCache::new(3);
        let (a, b, c, d) = (a_match(1), a_match(1), a_match(1), a_match(1));
        for m in [&a, &b, &c] {
            cache.put(m.clone());
        }
        // `a` is played on, `b` looked at: `c` is now the one nobody used for longest.
        cache.put(a_match_at(&a, 5));
        assert!(cache.get(b.id).is_some());
        cache.put(d.clone());
        assert_eq!(cache.len(), 3);
        assert!(cache.get(c.id).is_none(), "the least recently used goes");
        assert_eq!(cache.get(a.id).map(|m| m.version), Some(5));
        assert!(cache.get(b.id).is_some() && cache.get(d.id).is_some());
        cache.put(a.clone());
        assert_eq!(cache.get(a.id).map(|m| m.version), Some(5), "an older version never replaces a newer one");
        // However many matches pass through, the hottest stays.
        for _ in 0..100 {
            assert!(cache.get(a.id).is_some());
            cache.put(a_match(1));
        }
        assert!(cache.get(a.id).is_some());
        assert_eq!(cache.len(), 3);
    }

    fn a_match_at(m: &Arc<Loaded>, version: i64) -> Arc<Loaded> {
        let mut newer = (**m).clone();
        newer.version = version;
        Arc::new(newer)
    }

    /// However long the match, one request makes a bounded number of bot moves and answers with
    /// a problem of its own, not a 500, when the bots would go on.
    #[test]
    fn bots_that_would_not_settle_are_stopped_with_a_problem() {
        let mut loaded = created(
            Uuid::nil(),
            "spader",
            json!({"target": 5000}),
            vec![Occupant::Bot { level: Some(BotLevel::Random) }; 4],
        );
        let mut out = Vec::new();
        assert_eq!(loaded.advance_within(&mut out, 50), Err(AdvanceError::Unsettled { steps: 50 }));
        assert!(out.len() >= 50, "{} events", out.len());
        let problem = crate::problem::ApiError::from(AdvanceError::Unsettled { steps: 50 });
        assert_eq!((problem.status.as_u16(), problem.problem.code), (422, "bots-unsettled"));
    }

    /// A clocked match always has someone to wait for: a person with a move, or a step due on
    /// the clock (a window closing, a bot's reaction). Random bots in Gris once held the pig with
    /// a quartet, and the two paths read their choice from different seeds: `advance` saw a
    /// thumb to wait for, `next_due` a pass made at once, and the match stood still.
    #[test]
    fn a_clocked_match_never_waits_on_nobody() {
        for (game, players) in [("gris", 4), ("hej-knekt", 3)] {
            for round in 0..100u64 {
                let mut seats = vec![Occupant::Bot { level: Some(BotLevel::Random) }; players];
                seats[0] = Occupant::Player { player_id: Uuid::nil(), name: "a person".into() };
                let mut loaded = created(Uuid::from_u64_pair(round, players as u64), game, json!({}), seats);
                let mut out = Vec::new();
                loaded.advance(&mut out).unwrap();
                loaded.version += out.len() as i64;
                let mut clock = now_ms();
                for step in 0.. {
                    assert!(step < 5_000, "{game}: match {round} did not end");
                    if matches!(loaded.table.status(), Status::Finished { .. }) {
                        break;
                    }
                    let mut out = Vec::new();
                    let moves = loaded.table.legal_moves(0);
                    // The person moves now and then, and otherwise lets the clock run.
                    if !moves.is_empty() && (step + round) % 3 != 0 {
                        let mut command = moves[(step as usize * 7) % moves.len()].clone();
                        clock = (clock + 50).max(now_ms());
                        command.as_object_mut().unwrap().insert(engine::game::AT_MS.into(), clock.into());
                        let events = loaded.table.decide(0, &command).unwrap();
                        loaded.record(events, "test", &mut out).unwrap();
                        loaded.advance(&mut out).unwrap();
                    } else {
                        let Some((at, _)) = loaded.next_due() else {
                            assert!(!moves.is_empty(), "{game}: match {round} waits on nobody at step {step}");
                            continue;
                        };
                        clock = clock.max(at);
                        loaded.run_clock(clock, &mut out).unwrap();
                    }
                    loaded.version += out.len() as i64;
                }
            }
        }
    }
}
