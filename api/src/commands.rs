//! The command service: load a match, let the rules decide, append what they decided, answer.
//! Handlers parse a request, call one function here and render what it returns; everything
//! between (the node's cache, optimistic retries, idempotent replays, batched appends) is here.
//!
//! Reads share the loading half (`load`, `load_with`): a match is the same whether it is about
//! to be moved in or only looked at.

use std::sync::Arc;

use actix_web::web;
use diesel::Connection;
use engine::cards::Card;
use engine::catalog::GameInfo;
use engine::game::Refusal;
use engine::rules::{RuleViolation, Text};
use serde_json::Value;
use uuid::Uuid;

use crate::auth::Player;
use crate::batch;
use crate::idempotency::{self, Earlier, EarlierAnswer, Idempotency};
use crate::matches::{Loaded, Occupant, ServiceEvent};
use crate::problem::ApiError;
use crate::state::AppState;
use crate::store::{self, AppendError, NewEvent, StoredEvent};

/// Runs database work on actix's blocking threads, off the workers that serve requests.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    web::block(f).await?
}

/// `blocking` for database work: the request gives up with a 503 after `state.db_wait`. The
/// thread may stay stuck on a partitioned server until TCP gives up, holding its connection;
/// once the pool's connections are all held so, requests fail at checkout, within its timeout.
pub async fn with_db<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    match actix_web::rt::time::timeout(state.db_wait, web::block(f)).await {
        Ok(done) => done?,
        Err(_) => Err(crate::problem::db_timeout(state.db_wait)),
    }
}

/// `with_db` for work that many requests ask for at once (a burst of streams opening): it waits
/// for one of `turns`' permits, within the same bound, before it takes a blocking thread.
/// Otherwise each such request holds a thread while it waits for a pooled connection, hundreds
/// in a burst, and what those threads hold stays resident for a while: 10 MiB when 10,000
/// streams open 250 at a time.
pub async fn with_db_in_turn<T: Send + 'static>(
    state: &AppState,
    turns: &tokio::sync::Semaphore,
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let work = async {
        let _turn = turns.acquire().await.map_err(ApiError::internal)?;
        web::block(f).await?
    };
    match actix_web::rt::time::timeout(state.db_wait, work).await {
        Ok(done) => done,
        Err(_) => Err(crate::problem::db_timeout(state.db_wait)),
    }
}

// ---------------------------------------------------------------- loading

/// Loads a match: the node's cached state caught up with the events newer than it, or replayed
/// from the first event. The read shares its round trip with other requests' (`batch.rs`).
pub async fn load(state: &Arc<AppState>, id: Uuid) -> Result<Arc<Loaded>, ApiError> {
    let cached = state.cache.get(id);
    let newer = state.db.read(id, cached.as_ref().map_or(0, |c| c.version)).await?;
    if newer.len() > 256 {
        // A long replay would hold up the other requests on this worker.
        let state = state.clone();
        return blocking(move || catch_up(&state, id, cached, newer)).await;
    }
    catch_up(state, id, cached, newer)
}

/// `load` for code that already holds a connection.
pub fn load_with(conn: &mut store::Conn, state: &AppState, id: Uuid) -> Result<Arc<Loaded>, ApiError> {
    let cached = state.cache.get(id);
    let newer = store::read(conn, id, cached.as_ref().map_or(0, |c| c.version), i64::MAX)?;
    catch_up(state, id, cached, newer)
}

fn catch_up(
    state: &AppState,
    id: Uuid,
    cached: Option<Arc<Loaded>>,
    newer: Vec<StoredEvent>,
) -> Result<Arc<Loaded>, ApiError> {
    let started = std::time::Instant::now();
    let loaded = match cached {
        Some(cached) if newer.is_empty() => return Ok(cached),
        Some(cached) => {
            let mut caught_up = Loaded::clone(&cached);
            caught_up.apply_all(&newer).map_err(ApiError::internal)?;
            caught_up
        }
        None if newer.is_empty() => return Err(ApiError::not_found(&format!("match {id}"))),
        None => Loaded::replay(id, &newer).map_err(ApiError::internal)?,
    };
    state.metrics.replayed(started.elapsed());
    let loaded = Arc::new(loaded);
    state.cache.put(loaded.clone());
    Ok(loaded)
}

/// The seat a player acts or looks from: the one named, else the only one they hold, else
/// the one of theirs that is to act.
pub fn acting_seat(loaded: &Loaded, player: &Player, requested: Option<usize>) -> Result<usize, ApiError> {
    let held = loaded.seats_of(player.id);
    if let Some(seat) = requested {
        if seat >= loaded.seats.len() {
            return Err(no_such_seat(loaded.seats.len()));
        }
        if !held.contains(&seat) {
            return Err(ApiError::forbidden("not-your-seat", format!("seat {seat} is not yours")));
        }
        return Ok(seat);
    }
    match held.as_slice() {
        [] => Err(ApiError::forbidden("not-your-seat", "you hold no seat in this match")),
        [only] => Ok(*only),
        several => {
            let to_act = loaded.table.status().to_act().to_vec();
            let mine: Vec<usize> = several.iter().copied().filter(|s| to_act.contains(s)).collect();
            match mine.as_slice() {
                [one] => Ok(*one),
                // A well-formed request that this match's seating makes ambiguous.
                _ => Err(ApiError::unprocessable("seat-required", "you hold several seats: name the seat")),
            }
        }
    }
}

/// A seat the table does not have is a resource that does not exist: 404, whether it is named
/// in the path, the query or a move.
fn no_such_seat(seats: usize) -> ApiError {
    ApiError::new(
        actix_web::http::StatusCode::NOT_FOUND,
        "no-such-seat",
        "Not found",
        format!("the table has seats 0 to {}", seats - 1),
    )
}

pub fn game_in_catalog(id: &str) -> Result<&'static GameInfo, ApiError> {
    engine::catalog::info(id).ok_or_else(|| ApiError::not_found(&format!("game '{id}'")))
}

// ---------------------------------------------------------------- moves

/// A player's move as the game reads it.
#[derive(Debug, Clone)]
pub struct Move {
    /// The seat to act from; needed only when the player holds several that may act.
    pub seat: Option<usize>,
    /// The game's own command, e.g. `{"type":"play","card":"QS"}`.
    pub command: Value,
    /// Only ask the rules; record nothing.
    pub dry_run: bool,
}

/// The version of the match the player decided on, and how they said so: a stale `If-Match` is a
/// failed precondition, a stale version in the body a conflict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExpectedVersion {
    IfMatch(i64),
    InBody(i64),
}

impl ExpectedVersion {
    pub fn version(self) -> i64 {
        match self {
            ExpectedVersion::IfMatch(v) | ExpectedVersion::InBody(v) => v,
        }
    }
}

/// Why a move was not recorded.
#[derive(Debug)]
pub enum CommandError {
    /// The rules of the game (its id first) forbid the move now: which rule, and why.
    BreaksRule(String, RuleViolation),
    /// Not a command of this game at all.
    NotAMove(String),
    /// The player decided on a version the match has moved on from.
    Stale { current: i64, expected: ExpectedVersion },
    /// Seats are still open: nobody plays until the table is full.
    NotStarted,
    /// Other requests kept taking the version first.
    LostRace { current: Option<i64> },
    /// The idempotency key was already used for a different request.
    KeyReused,
    /// Anything else (no such match, not the player's seat, the database), already a problem.
    Other(ApiError),
}

impl From<ApiError> for CommandError {
    fn from(e: ApiError) -> CommandError {
        CommandError::Other(e)
    }
}

/// What a move was answered.
pub enum MoveAnswer {
    /// The move and everything it set off (deals, bots' moves) are in the log now.
    Recorded(Recorded),
    /// A dry run's verdict.
    Checked(Verdict),
    /// A retry under the same key: the answer the first attempt got, and nothing appended.
    Replayed { status: u16, answer: EarlierAnswer },
}

pub struct Recorded {
    /// The match right after the move.
    pub after: Arc<Loaded>,
    /// The events the move appended.
    pub events: Vec<StoredEvent>,
    /// The seat the move was made from.
    pub seat: usize,
}

/// Whether the rules would take a move now, and if not, which rule forbids it.
pub struct Verdict {
    pub legal: bool,
    pub seat: usize,
    pub version: i64,
    pub rule: Option<String>,
    pub rule_url: Option<String>,
    pub explanation: Option<Text>,
}

/// Executes a move of `player` in match `match_id`: decides it on the latest state, appends what
/// it led to at the version it was decided on, and answers. With `keyed`, a retry of a move that
/// already landed gets the first attempt's answer.
pub async fn execute_move(
    state: &Arc<AppState>,
    match_id: Uuid,
    player: &Player,
    command: Move,
    expected: Option<ExpectedVersion>,
    keyed: Option<Idempotency>,
) -> Result<MoveAnswer, CommandError> {
    // Optimistic: decide on this node's cached state and append at its version. A stale
    // cache shows up as a refusal or a conflict; then catch up from the database and decide
    // again, so the answer is always about the latest state.
    let (mut base, mut fresh) = match state.cache.get(match_id) {
        Some(cached) => (cached, false),
        None => (load(state, match_id).await?, true),
    };
    if base.table.clocked() {
        return execute_clocked(state, match_id, player, command, expected, keyed).await;
    }
    // A retry is answered from its stored answer only when an attempt cannot land, so the
    // common path costs no extra round trip.
    let keyed = keyed.filter(|_| !command.dry_run);
    for attempt in 0..4 {
        if attempt > 0 && !fresh {
            base = load(state, match_id).await?;
            fresh = true;
        }
        // The move works on its own copy: a refused or lost append leaves the cache as it was.
        let mut after = Loaded::clone(&base);
        let (events, before, seat) = match decide(&mut after, player, &command, expected) {
            Ok(Decision::Checked(verdict)) => return Ok(MoveAnswer::Checked(verdict)),
            Ok(Decision::Append { events, before, seat }) => (events, before, seat),
            // Perhaps only this node's copy was behind: catch up and decide again.
            Err(_) if !fresh => continue,
            Err(e) => {
                // A retry of a move that landed is refused by the state it led to: answer it
                // with what the first attempt got.
                if let Some(replayed) = earlier_answer(state, match_id, player, keyed.as_ref()).await? {
                    return Ok(replayed);
                }
                if matches!(e, CommandError::Stale { .. }) {
                    state.metrics.conflicts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                return Err(e);
            }
        };
        let appended: Vec<StoredEvent> =
            events.iter().enumerate().map(|(i, e)| e.stored(before + 1 + i as i64)).collect();
        let answer =
            keyed.as_ref().map(|k| idempotency::answer_row(match_id, player.id, k, seat, before, after.version));
        let count = events.len();
        let key = keyed.as_ref().map(|k| k.key.clone());
        let summary = summary_after(&after, &events);
        let append = batch::Append { stream: match_id, expected: before, events, key, answer, summary };
        match state.db.append(append).await? {
            batch::Appended::Done => {
                state.metrics.appended(count);
                let after = Arc::new(after);
                state.cache.put(after.clone());
                return Ok(MoveAnswer::Recorded(Recorded { after, events: appended, seat }));
            }
            batch::Appended::Conflict => {
                state.metrics.conflicts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if let Some(replayed) = earlier_answer(state, match_id, player, keyed.as_ref()).await? {
                    return Ok(replayed);
                }
                if let Some(expected) = expected {
                    // The player named the version they saw, and the match has moved on.
                    let current = current_version(state, match_id).await?;
                    return Err(CommandError::Stale { current, expected });
                }
                fresh = false;
            }
        }
    }
    Err(CommandError::LostRace { current: current_version(state, match_id).await.ok() })
}

/// What a move in a match on the server's clock came to, inside its transaction.
enum ClockedMove {
    Answered(MoveAnswer),
    Refused(CommandError),
}

/// A move in a match of a game decided on the server's clock (the reaction games). Moves of one
/// match are taken one at a time, under the match's lock, across every node: each gets its
/// receive time when its turn comes, so the recorded order is the arrival order and the times
/// rise with it; a retry under the same key is answered from its first landing, so it never
/// moves a reaction. What fell due before the move (a window's time running out, a bot's
/// reaction) is recorded first.
async fn execute_clocked(
    state: &Arc<AppState>,
    match_id: Uuid,
    player: &Player,
    command: Move,
    expected: Option<ExpectedVersion>,
    keyed: Option<Idempotency>,
) -> Result<MoveAnswer, CommandError> {
    let keyed = keyed.filter(|_| !command.dry_run);
    let (st, player) = (state.clone(), player.clone());
    let done = with_db(state, move || {
        let mut conn = st.pool.get()?;
        conn.transaction::<_, ApiError, _>(|conn| {
            store::lock_stream(conn, match_id)?;
            if let Some(keyed) = &keyed {
                match idempotency::earlier(conn, match_id, player.id, keyed)? {
                    Earlier::Unanswered => {}
                    Earlier::KeyReused => return Ok((ClockedMove::Refused(CommandError::KeyReused), None)),
                    Earlier::Answered { status, answer } => {
                        return Ok((ClockedMove::Answered(MoveAnswer::Replayed { status, answer }), None))
                    }
                }
            }
            let loaded = load_with(conn, &st, match_id)?;
            let now_ms = crate::matches::now_ms();
            let mut after = Loaded::clone(&loaded);
            let mut appended = Vec::new();
            if !command.dry_run {
                let before = after.version;
                let mut due = Vec::new();
                after.run_clock(now_ms, &mut due).map_err(ApiError::from)?;
                after.version = before + due.len() as i64;
                if !due.is_empty() {
                    match store::append(conn, match_id, before, &due, None, None, &summary_after(&after, &due)) {
                        Ok(()) => {}
                        Err(AppendError::Conflict) => {
                            let lost = CommandError::LostRace { current: None };
                            return Ok((ClockedMove::Refused(lost), None));
                        }
                        Err(AppendError::Db(e)) => return Err(e.into()),
                    }
                    appended.extend(due.iter().enumerate().map(|(i, e)| e.stored(before + 1 + i as i64)));
                }
            }
            let mut timed = command.clone();
            if let Value::Object(fields) = &mut timed.command {
                fields.insert(engine::game::AT_MS.into(), now_ms.into());
            }
            let mut moved = Loaded::clone(&after);
            let (events, before, seat) = match decide(&mut moved, &player, &timed, expected) {
                Ok(Decision::Checked(verdict)) => {
                    return Ok((ClockedMove::Answered(MoveAnswer::Checked(verdict)), None))
                }
                Ok(Decision::Append { events, before, seat }) => (events, before, seat),
                // What fell due stays recorded: the time passed whatever the move was.
                Err(e) => return Ok((ClockedMove::Refused(e), Some((after, appended)))),
            };
            let answer =
                keyed.as_ref().map(|k| idempotency::answer_row(match_id, player.id, k, seat, before, moved.version));
            let key = keyed.as_ref().map(|k| k.key.as_str());
            match store::append(conn, match_id, before, &events, key, answer.as_ref(), &summary_after(&moved, &events))
            {
                Ok(()) => {}
                Err(AppendError::Conflict) => {
                    return Ok((
                        ClockedMove::Refused(CommandError::LostRace { current: None }),
                        Some((after, appended)),
                    ))
                }
                Err(AppendError::Db(e)) => return Err(e.into()),
            }
            appended.extend(events.iter().enumerate().map(|(i, e)| e.stored(before + 1 + i as i64)));
            let moved = Arc::new(moved);
            let recorded = Recorded { after: moved.clone(), events: appended.clone(), seat };
            Ok((ClockedMove::Answered(MoveAnswer::Recorded(recorded)), Some((Loaded::clone(&moved), appended))))
        })
    })
    .await?;
    let (outcome, landed) = done;
    if let Some((after, appended)) = landed {
        state.metrics.appended(appended.len());
        let after = Arc::new(after);
        state.cache.put(after.clone());
        schedule_clock(state, &after);
    }
    match outcome {
        ClockedMove::Answered(answer) => Ok(answer),
        ClockedMove::Refused(e) => Err(e),
    }
}

/// Wakes this node when a match on the server's clock is next due (a window closing, a bot's
/// reaction), so that it is taken to the millisecond rather than at the next sweep; the sweep
/// still finds what a node that stopped would have taken.
pub fn schedule_clock(state: &Arc<AppState>, after: &Loaded) {
    let Some(due) = after.due_at() else { return };
    let (state, id) = (state.clone(), after.id);
    let wait = (due - chrono::Utc::now()).to_std().unwrap_or_default();
    actix_web::rt::spawn(async move {
        actix_web::rt::time::sleep(wait).await;
        if let Err(e) = run_due(&state, id).await {
            tracing::warn!(match_id = %id, error = %e, "could not take a match's due step; the sweep tries again");
        }
    });
}

/// Takes what is due now in a match on the server's clock (under its lock, as a move would be).
pub async fn run_due(state: &Arc<AppState>, id: Uuid) -> Result<bool, ApiError> {
    let st = state.clone();
    let landed = with_db(state, move || {
        let mut conn = st.pool.get()?;
        conn.transaction::<_, ApiError, _>(|conn| {
            store::lock_stream(conn, id)?;
            let loaded = load_with(conn, &st, id)?;
            let now_ms = crate::matches::now_ms();
            let mut after = Loaded::clone(&loaded);
            let before = after.version;
            let mut events = Vec::new();
            after.run_clock(now_ms, &mut events).map_err(ApiError::from)?;
            if events.is_empty() {
                // Not due yet by this node's clock, or no longer: the row says when, again.
                store::set_due(conn, id, before, loaded.due_at())?;
                return Ok(None);
            }
            after.version = before + events.len() as i64;
            match store::append(conn, id, before, &events, None, None, &summary_after(&after, &events)) {
                Ok(()) => Ok(Some((after, events.len()))),
                Err(AppendError::Conflict) => Ok(None),
                Err(AppendError::Db(e)) => Err(e.into()),
            }
        })
    })
    .await?;
    let Some((after, count)) = landed else { return Ok(false) };
    state.metrics.appended(count);
    let after = Arc::new(after);
    state.cache.put(after.clone());
    schedule_clock(state, &after);
    Ok(true)
}

enum Decision {
    /// A dry run: nothing to append.
    Checked(Verdict),
    /// These events go after version `before`, for `seat`.
    Append { events: Vec<NewEvent>, before: i64, seat: usize },
}

/// Decides a move against `after` and, when it is allowed, applies it and everything that
/// follows (deals, bots) to `after`.
fn decide(
    after: &mut Loaded,
    player: &Player,
    command: &Move,
    expected: Option<ExpectedVersion>,
) -> Result<Decision, CommandError> {
    let seat = acting_seat(after, player, command.seat)?;
    let decided = after.table.decide(seat, &command.command);
    // What is no move of this game at all is refused as such, whatever the version: the
    // request is wrong in itself, not late.
    if let Err(Refusal::Malformed(m)) = &decided {
        // The document's `Move` is every game's command: one of another game fits it, and is
        // refused as unprocessable here rather than as unreadable.
        // Less the receive time the service wrote into a clocked game's move.
        let mut sent = command.command.clone();
        if let (true, Value::Object(fields)) = (after.table.clocked(), &mut sent) {
            fields.remove(engine::game::AT_MS);
        }
        if let Some(other) = engine::other_game_reading(&after.game, &sent) {
            return Err(CommandError::Other(ApiError::unprocessable(
                "wrong-game",
                format!("that is a move of {other}, and this match is {}: {m}", after.game),
            )));
        }
        return Err(CommandError::NotAMove(m.clone()));
    }
    if let Some(expected) = expected {
        if expected.version() != after.version {
            return Err(CommandError::Stale { current: after.version, expected });
        }
    }
    if after.ended.is_some() {
        return Err(CommandError::Other(match_ended()));
    }
    if !after.is_full() {
        return Err(CommandError::NotStarted);
    }
    if command.dry_run {
        let (rule, explanation) = match &decided {
            Ok(_) => (None, None),
            Err(Refusal::Violation(v)) => (Some(v.rule.clone()), Some(v.explanation.clone())),
            Err(Refusal::Malformed(m)) => return Err(CommandError::NotAMove(m.clone())),
        };
        let rule_url = rule.as_deref().map(|r| crate::routes::games::rule_url(&after.game, r));
        let verdict = Verdict { legal: decided.is_ok(), seat, version: after.version, rule, rule_url, explanation };
        return Ok(Decision::Checked(verdict));
    }
    let decided = decided.map_err(|r| match r {
        Refusal::Malformed(m) => CommandError::NotAMove(m),
        Refusal::Violation(v) => CommandError::BreaksRule(after.game.clone(), v),
    })?;
    let before = after.version;
    let mut events = Vec::new();
    after.record(decided, &player.id.to_string(), &mut events).map_err(ApiError::internal)?;
    after.advance(&mut events).map_err(ApiError::from)?;
    after.version = before + events.len() as i64;
    Ok(Decision::Append { events, before, seat })
}

/// The answer an earlier request under this key got, if one landed.
async fn earlier_answer(
    state: &Arc<AppState>,
    match_id: Uuid,
    player: &Player,
    keyed: Option<&Idempotency>,
) -> Result<Option<MoveAnswer>, CommandError> {
    let Some(keyed) = keyed.cloned() else { return Ok(None) };
    let (state, player_id) = (state.clone(), player.id);
    let earlier = with_db(&state.clone(), move || {
        let mut conn = state.pool.get()?;
        idempotency::earlier(&mut conn, match_id, player_id, &keyed)
    })
    .await?;
    match earlier {
        Earlier::Unanswered => Ok(None),
        Earlier::KeyReused => Err(CommandError::KeyReused),
        Earlier::Answered { status, answer } => Ok(Some(MoveAnswer::Replayed { status, answer })),
    }
}

async fn current_version(state: &Arc<AppState>, match_id: Uuid) -> Result<i64, ApiError> {
    let state = state.clone();
    with_db(&state.clone(), move || Ok(store::version(&mut state.pool.get()?, match_id)?)).await
}

// ---------------------------------------------------------------- creating and joining

/// A match as its creator asked for it.
pub struct NewMatch {
    pub game: String,
    /// Who sits where, in seat order.
    pub seats: Vec<Occupant>,
    pub options: Value,
    /// Deck orders for the first deals, top card first.
    pub decks: Vec<Vec<Card>>,
    /// The language the creator reads problems in.
    pub lang: engine::rules::Lang,
    /// Seconds a person has for each turn.
    pub turn_seconds: Option<u32>,
    /// Never in the lobby; seats are taken with an invitation code.
    pub private: bool,
    pub when_a_player_leaves: Option<crate::matches::WhenAPlayerLeaves>,
}

pub struct Created {
    /// The match as it stands once the first deal is dealt and the bots have played (when no
    /// seat is open).
    pub after: Arc<Loaded>,
    /// An earlier request with the same key created it; nothing new was.
    pub replayed: bool,
}

/// Creates a match for `creator`. With a key, a retry finds the match the first attempt created.
pub async fn create_match(
    state: &Arc<AppState>,
    creator: &Player,
    new: NewMatch,
    key: Option<String>,
) -> Result<Created, ApiError> {
    let info = game_in_catalog(&new.game)?;
    let game = engine::game(info.id)
        .ok_or_else(|| ApiError::unprocessable("game-planned", format!("{} is not playable yet", info.id)))?;
    if new.seats.is_empty() {
        return Err(ApiError::unprocessable("invalid-seats", "a match needs seats"));
    }
    // Bots alone would play the whole match inside this request (ten thousand moves and more
    // with long options), with nobody to watch it but spectators.
    if new.seats.iter().all(Occupant::is_bot) {
        return Err(ApiError::translated(
            actix_web::http::StatusCode::UNPROCESSABLE_ENTITY,
            "no-human-seat",
            new.lang,
            ("Ingen plats för en människa", "No seat for a person"),
            (
                "Ett parti behöver minst en plats för en människa (\"me\" eller \"open\"), inte bara robotar.",
                "A match needs at least one seat for a person (\"me\" or \"open\"), not only bots.",
            ),
        ));
    }
    if new.turn_seconds.is_some_and(|s| !(1..=MAX_TURN_SECONDS).contains(&s)) {
        return Err(ApiError::unprocessable(
            "invalid-turn-seconds",
            format!("turn_seconds is 1 to {MAX_TURN_SECONDS} (a week)"),
        ));
    }
    let options = game.normalize_options(&new.options).map_err(|e| ApiError::unprocessable("invalid-options", e.0))?;
    let table = game.setup(new.seats.len(), &options).map_err(|e| ApiError::unprocessable("invalid-options", e.0))?;
    // The first order deals the first deal: a whole pack. Later ones deal later deals, or
    // shuffle a talon anew within a deal (`Status::NeedsShuffle`, part of the pack); each is
    // checked against the cards to shuffle when it is taken.
    if let engine::game::Status::NeedsDeck { composition } = table.status() {
        for (i, deck) in new.decks.iter().enumerate() {
            let fits = if i == 0 {
                engine::cards::is_permutation(deck, &composition)
            } else {
                engine::cards::is_part_of(deck, &composition)
            };
            if !fits {
                return Err(ApiError::unprocessable(
                    "invalid-deck",
                    format!(
                        "deck {i} is not {} of this game, each card as often as the pack has it",
                        if i == 0 {
                            format!("a full {}-card pack", composition.len())
                        } else {
                            "part of the pack".into()
                        }
                    ),
                ));
            }
        }
    }
    let created = ServiceEvent::Created {
        game: info.id.to_string(),
        options,
        seats: new.seats,
        decks: new.decks,
        created_by: creator.id,
        turn_seconds: new.turn_seconds,
        private: new.private,
        invitation: new.private.then(invitation_code),
        when_a_player_leaves: new.when_a_player_leaves,
    };
    let (state, creator) = (state.clone(), creator.id);
    with_db(&state.clone(), move || {
        let mut conn = state.pool.get()?;
        if let Some(key) = &key {
            if let Some(id) = store::created_with_key(&mut conn, creator, key)? {
                return Ok(Created { after: load_with(&mut conn, &state, id)?, replayed: true });
            }
        }
        let id = Uuid::new_v4();
        let data = serde_json::to_value(&created).map_err(ApiError::internal)?;
        let first = vec![StoredEvent {
            seq: 1,
            event_type: "match.created".into(),
            deal: 0,
            data: data.clone(),
            actor: creator.to_string(),
            recorded_at: chrono::SubsecRound::trunc_subsecs(chrono::Utc::now(), 6),
        }];
        let mut after = Loaded::replay(id, &first).map_err(ApiError::internal)?;
        let mut events = vec![NewEvent {
            event_type: "match.created".into(),
            deal: 0,
            data,
            actor: creator.to_string(),
            recorded_at: first[0].recorded_at,
        }];
        after.advance(&mut events)?;
        after.version = events.len() as i64;
        if let Some(seconds) = after.turn_seconds {
            // Before the append: a match whose first event never lands is never found by the
            // sweep (it joins the log), while one that lands is always found, whatever happens
            // to this node next.
            store::time_turns(&mut conn, id, seconds)?;
        }
        match store::append(&mut conn, id, 0, &events, key.as_deref(), None, &summary_after(&after, &events)) {
            Ok(()) => state.metrics.appended(events.len()),
            // The same key raced in from a retry that is still being processed.
            Err(AppendError::Conflict) => {
                return Err(ApiError::conflict(
                    "duplicate-request",
                    "a request with this Idempotency-Key is being processed; retry it",
                ))
            }
            Err(AppendError::Db(e)) => return Err(e.into()),
        }
        let after = Arc::new(after);
        state.cache.put(after.clone());
        Ok(Created { after, replayed: false })
    })
    .await
}

/// Seats `player` in the open seat `seat`; a full table deals at once and bots play until a
/// person is to act.
pub async fn join(
    state: &Arc<AppState>,
    match_id: Uuid,
    player: &Player,
    seat: usize,
    invitation: Option<String>,
) -> Result<Arc<Loaded>, ApiError> {
    let player_id = player.id;
    let name = player.name.clone();
    change(state, match_id, player, move |after| {
        if after.ended.is_some() {
            return Err(match_ended());
        }
        match after.seats.get(seat) {
            None => return Err(no_such_seat(after.seats.len())),
            Some(Occupant::Open) => {}
            Some(_) => return Err(ApiError::conflict("seat-taken", format!("seat {seat} is already taken"))),
        }
        // The creator and the players already seated were invited, or did the inviting.
        let invited = after.created_by == player_id || !after.seats_of(player_id).is_empty();
        if let (Some(code), false) = (&after.invitation, invited) {
            if !invitation.as_deref().is_some_and(|sent| same_code(sent, code)) {
                return Err(ApiError::forbidden(
                    "invalid-invitation",
                    "this match is private: its seats are taken with the invitation code its creator was given \
                     (?invitation=<code>), and none or another was sent",
                ));
            }
        }
        Ok(ServiceEvent::SeatJoined { seat, player_id, name })
    })
    .await
}

/// Cancels a match that waits for players, for its creator.
pub async fn cancel(state: &Arc<AppState>, match_id: Uuid, player: &Player) -> Result<Arc<Loaded>, ApiError> {
    let player_id = player.id;
    change(state, match_id, player, move |after| {
        if after.created_by != player_id {
            return Err(ApiError::forbidden("not-creator", "only the player who created the match may cancel it"));
        }
        if after.ended.is_some() || after.table.status().is_finished() {
            return Err(match_ended());
        }
        if after.is_full() {
            return Err(ApiError::conflict(
                "match-started",
                "every seat is taken and the match is being played: a seated player may abort it until a \
                 person has moved, or leave their seat",
            ));
        }
        Ok(ServiceEvent::Cancelled { player_id })
    })
    .await
}

/// Calls off a match that no person has moved in yet, for a player seated in it.
pub async fn abort(
    state: &Arc<AppState>,
    match_id: Uuid,
    player: &Player,
    seat: Option<usize>,
) -> Result<Arc<Loaded>, ApiError> {
    let player_id = player.id;
    let player_for_seat = player.clone();
    change(state, match_id, player, move |after| {
        let held = after.seats_of(player_id);
        let seat = match seat {
            Some(_) => acting_seat(after, &player_for_seat, seat)?,
            None => {
                *held.first().ok_or_else(|| ApiError::forbidden("not-your-seat", "you hold no seat in this match"))?
            }
        };
        if after.ended.is_some() || after.table.status().is_finished() {
            return Err(match_ended());
        }
        if after.person_moved {
            return Err(ApiError::conflict(
                "match-started",
                "a person has made a move: the match can no longer be aborted; leave your seat instead",
            ));
        }
        Ok(ServiceEvent::Aborted { seat, player_id })
    })
    .await
}

/// A player leaves their seat in a running match: its bot plays on, or the match ends, as the
/// match was created to do (and it ends when nobody else would be left to play).
pub async fn leave(
    state: &Arc<AppState>,
    match_id: Uuid,
    player: &Player,
    seat: usize,
) -> Result<Arc<Loaded>, ApiError> {
    let player_for_seat = player.clone();
    change(state, match_id, player, move |after| {
        let seat = acting_seat(after, &player_for_seat, Some(seat))?;
        if after.ended.is_some() || after.table.status().is_finished() {
            return Err(match_ended());
        }
        if !after.is_full() {
            return Err(ApiError::conflict(
                "match-not-started",
                "the match waits for players: abort it (any seated player) or cancel it (its creator) instead",
            ));
        }
        let player_id = player_for_seat.id;
        let people_left =
            after.seats.iter().enumerate().filter(|(s, o)| *s != seat && matches!(o, Occupant::Player { .. })).count();
        Ok(match after.when_a_player_leaves {
            crate::matches::WhenAPlayerLeaves::Bot if people_left > 0 => {
                ServiceEvent::SeatLeft { seat, player_id, level: crate::matches::BotLevel::default() }
            }
            // A table of bots only would play on inside this request, for nobody.
            _ => ServiceEvent::Abandoned { seat, player_id },
        })
    })
    .await
}

/// Records the service event `decide` makes of the match as it stands (then deals and bots'
/// moves, as after any move) at the version it was decided on, on behalf of `player`.
async fn change(
    state: &Arc<AppState>,
    match_id: Uuid,
    player: &Player,
    decide: impl FnOnce(&Loaded) -> Result<ServiceEvent, ApiError> + Send + 'static,
) -> Result<Arc<Loaded>, ApiError> {
    let (state, actor) = (state.clone(), player.id.to_string());
    with_db(&state.clone(), move || {
        let mut conn = state.pool.get()?;
        let mut after = Loaded::clone(&*load_with(&mut conn, &state, match_id)?);
        let event = serde_json::to_value(decide(&after)?).map_err(ApiError::internal)?;
        let before = after.version;
        let mut events = Vec::new();
        after.record(vec![event], &actor, &mut events).map_err(ApiError::internal)?;
        after.advance(&mut events)?;
        after.version = before + events.len() as i64;
        match store::append(&mut conn, match_id, before, &events, None, None, &summary_after(&after, &events)) {
            Ok(()) => state.metrics.appended(events.len()),
            Err(AppendError::Conflict) => {
                state.metrics.conflicts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                return Err(ApiError::lost_race(store::version(&mut conn, match_id).ok()));
            }
            Err(AppendError::Db(e)) => return Err(e.into()),
        }
        let after = Arc::new(after);
        state.cache.put(after.clone());
        Ok(after)
    })
    .await
}

fn match_ended() -> ApiError {
    ApiError::conflict("match-ended", "the match is over: nothing more can be done in it")
}

/// A private match's invitation code: 16 characters of Crockford's base32 (80 random bits),
/// easy to read out or type on a phone, and never guessed within any rate limit.
fn invitation_code() -> String {
    const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    (0..16).map(|_| ALPHABET[rand::random_range(0..32)] as char).collect()
}

/// Whether `sent` is the invitation `code`, in time that does not tell how much of it matched.
/// Case and Crockford's look-alikes (`O` for 0, `I` and `L` for 1) are forgiven, as people type.
fn same_code(sent: &str, code: &str) -> bool {
    let normal = |c: char| match c.to_ascii_uppercase() {
        'O' => '0',
        'I' | 'L' => '1',
        c => c,
    };
    let sent: Vec<char> = sent.chars().map(normal).collect();
    let code: Vec<char> = code.chars().collect();
    sent.len() == code.len() && sent.iter().zip(&code).fold(0u32, |diff, (a, b)| diff | (*a as u32 ^ *b as u32)) == 0
}

/// The summary of `after`, the match once `events` are appended (they carry the time the last
/// of them was recorded, which `after` may not have taken over).
fn summary_after(after: &Loaded, events: &[NewEvent]) -> store::Summary {
    let mut summary = after.summary();
    if let Some(last) = events.last() {
        summary.at = last.recorded_at;
    }
    summary
}

/// Writes the list summary of every match that has none (logs written before summaries were
/// kept), a hundred at a time, rebuilding each from its log. Run once at start-up; several
/// nodes doing it at once write the same rows.
pub async fn summarise_old_matches(state: &Arc<AppState>) -> Result<usize, ApiError> {
    let state = state.clone();
    with_db(&state.clone(), move || {
        let mut conn = state.pool.get()?;
        let mut done = 0;
        // A log that does not replay (a game no longer in this build) is left out, not retried.
        let mut skipped = std::collections::HashSet::new();
        loop {
            let streams = store::unsummarised(&mut conn, 100 + skipped.len() as i64)?;
            let streams: Vec<Uuid> = streams.into_iter().filter(|id| !skipped.contains(id)).collect();
            if streams.is_empty() {
                return Ok(done);
            }
            for id in streams {
                let events = store::read(&mut conn, id, 0, i64::MAX)?;
                match Loaded::replay(id, &events) {
                    Ok(loaded) => {
                        let created = events.first().map_or(loaded.last_at, |e| e.recorded_at);
                        store::summarise(&mut conn, id, &loaded.summary(), created)?;
                        done += 1;
                    }
                    Err(e) => {
                        tracing::warn!(match_id = %id, error = %e, "a match's log does not replay: it stays unlisted");
                        skipped.insert(id);
                    }
                }
            }
        }
    })
    .await
}

// ---------------------------------------------------------------- turn deadlines

/// The longest turn a match may give a person: a week.
pub const MAX_TURN_SECONDS: u32 = 7 * 24 * 3600;

/// Plays the turns whose time ran out, in every match with turn deadlines. Every node sweeps,
/// so deadlines hold across nodes and restarts (they live in the database, not in a timer of
/// one process); two nodes that sweep the same match race for its version, and one wins.
pub async fn sweep_deadlines(state: &Arc<AppState>) -> Result<usize, ApiError> {
    let due = {
        let state = state.clone();
        with_db(&state.clone(), move || Ok(store::overdue_turns(&mut state.pool.get()?, 32)?)).await?
    };
    let mut played = 0;
    for id in due {
        match play_overdue(state, id).await {
            Ok(true) => played += 1,
            Ok(false) => {}
            Err(e) => tracing::warn!(match_id = %id, error = %e, "could not play an overdue turn"),
        }
    }
    // Matches on the server's clock whose window closes or whose bot reacts now, wherever the
    // move that set it off was made.
    let due = {
        let state = state.clone();
        with_db(&state.clone(), move || Ok(store::clock_due(&mut state.pool.get()?, 64)?)).await?
    };
    for id in due {
        match run_due(state, id).await {
            Ok(true) => played += 1,
            Ok(false) => {}
            Err(e) => tracing::warn!(match_id = %id, error = %e, "could not take a match's due step"),
        }
    }
    Ok(played)
}

/// Ends the matches that have waited for players longer than `waiting` (`match.expired`), so
/// that they leave the lobby. Every node sweeps; the event is appended at the version the match
/// was found at, so of two nodes that find the same match one records it, and a player who took a
/// seat in the meantime wins over the sweep (the next one looks again).
pub async fn sweep_waiting(state: &Arc<AppState>, waiting: std::time::Duration) -> Result<usize, ApiError> {
    let seconds = waiting.as_secs();
    let due = {
        let state = state.clone();
        with_db(&state.clone(), move || Ok(store::waiting_too_long(&mut state.pool.get()?, seconds, 32)?)).await?
    };
    let mut expired = 0;
    for id in due {
        let state = state.clone();
        let done = with_db(&state.clone(), move || {
            let mut conn = state.pool.get()?;
            let mut after = Loaded::clone(&*load_with(&mut conn, &state, id)?);
            let deadline = after.created_at + chrono::Duration::seconds(seconds as i64);
            if after.phase() != crate::matches::MatchPhase::Waiting || deadline > chrono::Utc::now() {
                return Ok(false);
            }
            let event = ServiceEvent::Expired { deadline: deadline.to_rfc3339() };
            let event = serde_json::to_value(&event).map_err(ApiError::internal)?;
            let before = after.version;
            let mut events = Vec::new();
            after.record(vec![event], crate::matches::SERVICE_ACTOR, &mut events).map_err(ApiError::internal)?;
            after.version = before + events.len() as i64;
            match store::append(&mut conn, id, before, &events, None, None, &summary_after(&after, &events)) {
                Ok(()) => state.metrics.appended(events.len()),
                Err(AppendError::Conflict) => return Ok(false),
                Err(AppendError::Db(e)) => return Err(e.into()),
            }
            state.cache.put(Arc::new(after));
            Ok(true)
        })
        .await;
        match done {
            Ok(true) => expired += 1,
            Ok(false) => {}
            Err(e) => tracing::warn!(match_id = %id, error = %e, "could not expire a waiting match"),
        }
    }
    Ok(expired)
}

/// Plays a match's overdue turn, if it still is overdue; otherwise remembers that nothing is due
/// at this version (the match waits for players, is over, or a person is to act in time).
async fn play_overdue(state: &Arc<AppState>, id: Uuid) -> Result<bool, ApiError> {
    let loaded = load(state, id).await?;
    let state = state.clone();
    with_db(&state.clone(), move || {
        let mut conn = state.pool.get()?;
        let now = chrono::Utc::now();
        let (seats, deadline) = match loaded.turn_deadline() {
            None => {
                let over = loaded.phase() == crate::matches::MatchPhase::Finished;
                store::turns_idle(&mut conn, id, loaded.version, over)?;
                return Ok(false);
            }
            // This node's clock is behind the database's: the next sweep plays it.
            Some((_, at)) if at > now => return Ok(false),
            Some(due) => due,
        };
        let mut after = Loaded::clone(&loaded);
        let before = after.version;
        let mut events = Vec::new();
        after.time_out(&seats, deadline, &mut events)?;
        after.version = before + events.len() as i64;
        match store::append(&mut conn, id, before, &events, None, None, &summary_after(&after, &events)) {
            Ok(()) => state.metrics.appended(events.len()),
            // A player moved in the meantime, or another node played the turn.
            Err(AppendError::Conflict) => return Ok(false),
            Err(AppendError::Db(e)) => return Err(e.into()),
        }
        tracing::info!(match_id = %id, seats = ?seats, "a turn's time ran out: the bot played it");
        state.cache.put(Arc::new(after));
        Ok(true)
    })
    .await
}
