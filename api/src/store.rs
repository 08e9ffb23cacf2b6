//! The event store: append-only streams with optimistic concurrency, and stored answers for
//! idempotent retries. Every query is keyed by the stream id.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use serde_json::Value;
use uuid::Uuid;

use crate::db::schema::{events, idempotency};
use crate::db::PgConn;

pub type Conn = PgConn;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = events)]
pub struct StoredEvent {
    pub seq: i64,
    pub event_type: String,
    pub deal: i32,
    pub data: Value,
    pub actor: String,
    pub recorded_at: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub struct NewEvent {
    pub event_type: String,
    pub deal: i32,
    pub data: Value,
    pub actor: String,
    pub recorded_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = idempotency)]
pub struct StoredAnswer {
    pub stream_id: Uuid,
    pub player_id: Uuid,
    pub key: String,
    pub request_hash: String,
    pub status: i16,
    /// The whole answer, in rows written before answers were rebuilt from the log.
    pub body: Option<Value>,
    /// The seat the move was made from and the events it appended: enough to rebuild the
    /// answer from the log.
    pub seat: Option<i32>,
    pub first_seq: Option<i64>,
    pub last_seq: Option<i64>,
}

/// What lists and the lobby show of a match (table `matches`), written in the same statement as
/// the events that lead to it.
#[derive(Debug, Clone)]
pub struct Summary {
    pub game: String,
    /// `waiting`, `playing` or `finished`, as the match view's `phase`.
    pub phase: &'static str,
    pub version: i64,
    pub open_seats: i32,
    /// The seated players' ids, as a JSON array of strings.
    pub players: Value,
    pub seats: Value,
    pub to_act: Value,
    /// How the match ended, as the match view's `outcome` (none until it is over).
    pub outcome: Option<Value>,
    /// Never in the lobby, nor in a list without a token.
    pub private: bool,
    /// When the last of the events was recorded (and, for a new match, when it was created).
    pub at: DateTime<Utc>,
    /// When a match on the server's clock next moves by itself (a reaction window closing, a
    /// bot's reaction): what the clock sweep looks for.
    pub due_at: Option<DateTime<Utc>>,
}

#[derive(Debug)]
pub enum AppendError {
    /// Another append took the expected version first.
    Conflict,
    Db(DieselError),
}

impl From<DieselError> for AppendError {
    fn from(e: DieselError) -> Self {
        AppendError::Db(e)
    }
}

/// Events after `since`, in order, at most `limit`.
pub fn read(conn: &mut PgConn, stream: Uuid, since: i64, limit: i64) -> QueryResult<Vec<StoredEvent>> {
    events::table
        .filter(events::stream_id.eq(stream))
        .filter(events::seq.gt(since))
        .order(events::seq.asc())
        .limit(limit)
        .select(StoredEvent::as_select())
        .load(conn)
}

pub fn version(conn: &mut PgConn, stream: Uuid) -> QueryResult<i64> {
    events::table
        .filter(events::stream_id.eq(stream))
        .select(diesel::dsl::max(events::seq))
        .first::<Option<i64>>(conn)
        .map(|v| v.unwrap_or(0))
}

#[derive(QueryableByName)]
struct Appended {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    appended: i64,
}

/// Appends `new` after `expected` and, when the request carried a key, records where its
/// answer lies in the log (seat and the appended range): one statement, so one round trip and
/// one implicit transaction. A unique violation means another
/// append took the version first, or this key was already answered.
pub fn append(
    conn: &mut PgConn,
    stream: Uuid,
    expected: i64,
    new: &[NewEvent],
    key: Option<&str>,
    answer: Option<&StoredAnswer>,
    summary: &Summary,
) -> Result<(), AppendError> {
    use diesel::sql_types::{Array, Int2, Int4, Int8, Jsonb, Nullable, Text, Timestamptz, Uuid as SqlUuid};
    debug_assert!(answer.is_none_or(|a| a.body.is_none()), "answers are rebuilt from the log, not stored");
    let seqs: Vec<i64> = (0..new.len() as i64).map(|i| expected + 1 + i).collect();
    let result = diesel::sql_query(
        "WITH new_events AS (
             INSERT INTO events (stream_id, seq, event_type, deal, data, actor, idempotency_key, recorded_at)
             SELECT $1, e.seq, e.event_type, e.deal, e.data, e.actor,
                    CASE WHEN e.seq = $2 + 1 THEN $3 END, e.recorded_at
               FROM unnest($4::bigint[], $5::text[], $6::int4[], $7::jsonb[], $8::text[], $9::timestamptz[])
                    AS e(seq, event_type, deal, data, actor, recorded_at)
             RETURNING 1
         ), answer AS (
             INSERT INTO idempotency (stream_id, player_id, key, request_hash, status, seat, first_seq, last_seq)
             SELECT $1, $10, $3, $11, $12, $13, $2 + 1, $2 + cardinality($4::bigint[]) WHERE $10 IS NOT NULL
             RETURNING 1
         ), summary AS (
             INSERT INTO matches (stream_id, game, phase, version, open_seats, players, seats, to_act, created_at, updated_at, outcome, private, due_at)
             VALUES ($1, $14, $15, $16, $17, $18, $19, $20, $21, $21, $22, $23, $24)
             ON CONFLICT (stream_id) DO UPDATE SET
                 phase = EXCLUDED.phase, version = EXCLUDED.version, open_seats = EXCLUDED.open_seats,
                 players = EXCLUDED.players, seats = EXCLUDED.seats, to_act = EXCLUDED.to_act,
                 updated_at = EXCLUDED.updated_at, outcome = EXCLUDED.outcome, due_at = EXCLUDED.due_at
             WHERE matches.version < EXCLUDED.version
             RETURNING 1
         )
         SELECT count(*) AS appended FROM new_events",
    )
    .bind::<SqlUuid, _>(stream)
    .bind::<Int8, _>(expected)
    .bind::<Nullable<Text>, _>(key)
    .bind::<Array<Int8>, _>(seqs)
    .bind::<Array<Text>, _>(new.iter().map(|e| e.event_type.as_str()).collect::<Vec<_>>())
    .bind::<Array<Int4>, _>(new.iter().map(|e| e.deal).collect::<Vec<_>>())
    .bind::<Array<Jsonb>, _>(new.iter().map(|e| &e.data).collect::<Vec<_>>())
    .bind::<Array<Text>, _>(new.iter().map(|e| e.actor.as_str()).collect::<Vec<_>>())
    .bind::<Array<Timestamptz>, _>(new.iter().map(|e| e.recorded_at).collect::<Vec<_>>())
    .bind::<Nullable<SqlUuid>, _>(answer.map(|a| a.player_id))
    .bind::<Nullable<Text>, _>(answer.map(|a| a.request_hash.as_str()))
    .bind::<Nullable<Int2>, _>(answer.map(|a| a.status))
    .bind::<Nullable<Int4>, _>(answer.and_then(|a| a.seat))
    .bind::<Text, _>(&summary.game)
    .bind::<Text, _>(summary.phase)
    .bind::<Int8, _>(summary.version)
    .bind::<Int4, _>(summary.open_seats)
    .bind::<Jsonb, _>(&summary.players)
    .bind::<Jsonb, _>(&summary.seats)
    .bind::<Jsonb, _>(&summary.to_act)
    .bind::<Timestamptz, _>(summary.at)
    .bind::<Nullable<Jsonb>, _>(summary.outcome.as_ref())
    .bind::<diesel::sql_types::Bool, _>(summary.private)
    .bind::<Nullable<Timestamptz>, _>(summary.due_at)
    .get_result::<Appended>(conn);
    match result {
        Ok(a) if a.appended == new.len() as i64 => Ok(()),
        Ok(a) => Err(AppendError::Db(DieselError::QueryBuilderError(
            format!("appended {} of {} events", a.appended, new.len()).into(),
        ))),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Err(AppendError::Conflict),
        Err(e) => Err(AppendError::Db(e)),
    }
}

pub fn answer(conn: &mut PgConn, stream: Uuid, player: Uuid, key: &str) -> QueryResult<Option<StoredAnswer>> {
    idempotency::table
        .filter(idempotency::stream_id.eq(stream))
        .filter(idempotency::player_id.eq(player))
        .filter(idempotency::key.eq(key))
        .select(StoredAnswer::as_select())
        .first(conn)
        .optional()
}

/// The match a player already created with this idempotency key, if any.
pub fn created_with_key(conn: &mut PgConn, player: Uuid, key: &str) -> QueryResult<Option<Uuid>> {
    events::table
        .filter(events::seq.eq(1))
        .filter(events::actor.eq(player.to_string()))
        .filter(events::idempotency_key.eq(key))
        .select(events::stream_id)
        .first(conn)
        .optional()
}

/// Marks a match as one whose turns have a deadline of `seconds`.
pub fn time_turns(conn: &mut PgConn, stream: Uuid, seconds: u32) -> QueryResult<()> {
    diesel::sql_query("INSERT INTO timed_matches (stream_id, turn_seconds) VALUES ($1, $2) ON CONFLICT DO NOTHING")
        .bind::<diesel::sql_types::Uuid, _>(stream)
        .bind::<diesel::sql_types::Int4, _>(seconds as i32)
        .execute(conn)
        .map(|_| ())
}

#[derive(QueryableByName)]
struct Overdue {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    stream_id: Uuid,
}

/// Matches whose last event is older than their turn's time, and which changed since a sweep
/// last found nothing due in them: the candidates for a timed-out turn, at most `limit`.
pub fn overdue_turns(conn: &mut PgConn, limit: i64) -> QueryResult<Vec<Uuid>> {
    diesel::sql_query(
        "SELECT t.stream_id
           FROM timed_matches t
           CROSS JOIN LATERAL (
               SELECT e.seq, e.recorded_at FROM events e
                WHERE e.stream_id = t.stream_id ORDER BY e.seq DESC LIMIT 1
           ) last
          WHERE NOT t.finished
            AND last.seq <> t.idle_version
            AND last.recorded_at + make_interval(secs => t.turn_seconds) <= now()
          ORDER BY last.recorded_at
          LIMIT $1",
    )
    .bind::<diesel::sql_types::Int8, _>(limit)
    .load::<Overdue>(conn)
    .map(|rows| rows.into_iter().map(|r| r.stream_id).collect())
}

/// Nothing is due in the match at `version` (and nothing ever will be once it is `over`).
pub fn turns_idle(conn: &mut PgConn, stream: Uuid, version: i64, over: bool) -> QueryResult<()> {
    diesel::sql_query("UPDATE timed_matches SET idle_version = $2, finished = $3 WHERE stream_id = $1")
        .bind::<diesel::sql_types::Uuid, _>(stream)
        .bind::<diesel::sql_types::Int8, _>(version)
        .bind::<diesel::sql_types::Bool, _>(over)
        .execute(conn)
        .map(|_| ())
}

impl NewEvent {
    /// The row as it will read back once appended at `seq`.
    pub fn stored(&self, seq: i64) -> StoredEvent {
        StoredEvent {
            seq,
            event_type: self.event_type.clone(),
            deal: self.deal,
            data: self.data.clone(),
            actor: self.actor.clone(),
            recorded_at: self.recorded_at,
        }
    }
}

/// Which matches a list shows.
#[derive(Debug, Clone, Default)]
pub struct ListFilter {
    /// Only matches this player holds a seat in.
    pub player: Option<Uuid>,
    /// Whose list it is: the lobby's public waiting matches are everyone's, and a player sees
    /// their own matches too (none: a caller without a token sees only the lobby's).
    pub viewer: Option<Uuid>,
    /// Only matches in this phase (`waiting`, `playing`, `finished`).
    pub phase: Option<&'static str>,
    /// Only matches with an open seat.
    pub open: bool,
    pub game: Option<String>,
    /// Only matches after this one in the order (created, id), newest first: the cursor.
    pub before: Option<(DateTime<Utc>, Uuid)>,
    pub limit: i64,
}

#[derive(Debug, Clone, QueryableByName)]
pub struct ListedMatch {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    pub stream_id: Uuid,
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub game: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub phase: String,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub version: i64,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    pub open_seats: i32,
    #[diesel(sql_type = diesel::sql_types::Jsonb)]
    pub seats: Value,
    #[diesel(sql_type = diesel::sql_types::Jsonb)]
    pub to_act: Value,
    /// Null while the match is played, and in summaries written before outcomes were kept.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Jsonb>)]
    pub outcome: Option<Value>,
    #[diesel(sql_type = diesel::sql_types::Timestamptz)]
    pub created_at: DateTime<Utc>,
    #[diesel(sql_type = diesel::sql_types::Timestamptz)]
    pub updated_at: DateTime<Utc>,
}

/// A player's match, and whether it changed after the time asked about.
#[derive(Debug, Clone, QueryableByName)]
pub struct PlayersMatch {
    #[diesel(embed)]
    pub listed: ListedMatch,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    pub changed: bool,
}

/// The matches `player` sits in that are not over, and those that changed after `since` (all
/// changed, without it), the most recently changed `limit` of them.
pub fn players_matches(
    conn: &mut PgConn,
    player: Uuid,
    since: Option<DateTime<Utc>>,
    limit: i64,
) -> QueryResult<Vec<PlayersMatch>> {
    use diesel::sql_types::{Int8, Jsonb, Nullable, Timestamptz};
    diesel::sql_query(
        "SELECT stream_id, game, phase, version, open_seats, seats, to_act, outcome, created_at, updated_at,
                ($2::timestamptz IS NULL OR updated_at > $2) AS changed
           FROM matches
          WHERE players @> $1 AND (phase <> 'finished' OR updated_at > $2)
          ORDER BY updated_at DESC
          LIMIT $3",
    )
    .bind::<Jsonb, _>(serde_json::json!([player.to_string()]))
    .bind::<Nullable<Timestamptz>, _>(since)
    .bind::<Int8, _>(limit)
    .load(conn)
}

/// Matches newest first, as `filter` says.
pub fn list(conn: &mut PgConn, filter: &ListFilter) -> QueryResult<Vec<ListedMatch>> {
    use diesel::sql_types::{Bool, Int8, Jsonb, Nullable, Text, Timestamptz, Uuid as SqlUuid};
    diesel::sql_query(
        "SELECT stream_id, game, phase, version, open_seats, seats, to_act, outcome, created_at, updated_at
           FROM matches
          WHERE ($1::jsonb IS NULL OR players @> $1)
            AND ((phase = 'waiting' AND NOT private) OR ($8::jsonb IS NOT NULL AND players @> $8))
            AND ($2::text IS NULL OR phase = $2)
            AND (NOT $3 OR (open_seats > 0 AND phase = 'waiting' AND NOT private))
            AND ($4::text IS NULL OR game = $4)
            AND ($5::timestamptz IS NULL OR (created_at, stream_id) < ($5, $6))
          ORDER BY created_at DESC, stream_id DESC
          LIMIT $7",
    )
    .bind::<Nullable<Jsonb>, _>(filter.player.map(|p| serde_json::json!([p.to_string()])))
    .bind::<Nullable<Text>, _>(filter.phase)
    .bind::<Bool, _>(filter.open)
    .bind::<Nullable<Text>, _>(filter.game.as_deref())
    .bind::<Nullable<Timestamptz>, _>(filter.before.map(|b| b.0))
    .bind::<Nullable<SqlUuid>, _>(filter.before.map(|b| b.1))
    .bind::<Int8, _>(filter.limit)
    .bind::<Nullable<Jsonb>, _>(filter.viewer.map(|p| serde_json::json!([p.to_string()])))
    .load(conn)
}

/// Matches that have waited for players since before `seconds` ago, oldest first, at most
/// `limit`: the candidates to expire from the lobby.
pub fn waiting_too_long(conn: &mut PgConn, seconds: u64, limit: i64) -> QueryResult<Vec<Uuid>> {
    diesel::sql_query(
        "SELECT stream_id FROM matches
          WHERE phase = 'waiting' AND created_at <= now() - make_interval(secs => $1)
          ORDER BY created_at
          LIMIT $2",
    )
    .bind::<diesel::sql_types::Double, _>(seconds as f64)
    .bind::<diesel::sql_types::Int8, _>(limit)
    .load::<Overdue>(conn)
    .map(|rows| rows.into_iter().map(|r| r.stream_id).collect())
}

/// Matches whose log has no summary row: written before summaries were kept. At most `limit`.
pub fn unsummarised(conn: &mut PgConn, limit: i64) -> QueryResult<Vec<Uuid>> {
    #[derive(QueryableByName)]
    struct Stream {
        #[diesel(sql_type = diesel::sql_types::Uuid)]
        stream_id: Uuid,
    }
    let rows: Vec<Stream> = diesel::sql_query(
        "SELECT e.stream_id FROM events e
          WHERE e.seq = 1 AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.stream_id = e.stream_id)
          LIMIT $1",
    )
    .bind::<diesel::sql_types::Int8, _>(limit)
    .load(conn)?;
    Ok(rows.into_iter().map(|r| r.stream_id).collect())
}

/// Writes the summary of a match rebuilt from its log (`created` is its first event's time).
pub fn summarise(conn: &mut PgConn, stream: Uuid, summary: &Summary, created: DateTime<Utc>) -> QueryResult<()> {
    use diesel::sql_types::{Int4, Int8, Jsonb, Nullable, Text, Timestamptz, Uuid as SqlUuid};
    diesel::sql_query(
        "INSERT INTO matches (stream_id, game, phase, version, open_seats, players, seats, to_act, created_at, updated_at, outcome, private, due_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT (stream_id) DO UPDATE SET
             phase = EXCLUDED.phase, version = EXCLUDED.version, open_seats = EXCLUDED.open_seats,
             players = EXCLUDED.players, seats = EXCLUDED.seats, to_act = EXCLUDED.to_act,
             updated_at = EXCLUDED.updated_at, outcome = EXCLUDED.outcome, due_at = EXCLUDED.due_at
         WHERE matches.version < EXCLUDED.version",
    )
    .bind::<SqlUuid, _>(stream)
    .bind::<Text, _>(&summary.game)
    .bind::<Text, _>(summary.phase)
    .bind::<Int8, _>(summary.version)
    .bind::<Int4, _>(summary.open_seats)
    .bind::<Jsonb, _>(&summary.players)
    .bind::<Jsonb, _>(&summary.seats)
    .bind::<Jsonb, _>(&summary.to_act)
    .bind::<Timestamptz, _>(created)
    .bind::<Timestamptz, _>(summary.at)
    .bind::<Nullable<Jsonb>, _>(summary.outcome.as_ref())
    .bind::<diesel::sql_types::Bool, _>(summary.private)
    .bind::<Nullable<Timestamptz>, _>(summary.due_at)
    .execute(conn)
    .map(|_| ())
}

/// Holds the match's lock until the transaction ends: the moves of a match on the server's clock
/// are taken one at a time across every node, in the order they get it (PostgreSQL queues a
/// lock's waiters first come, first served), so that the time each is given is its arrival time
/// and the recorded order is that order, which no optimistic retry can change.
pub fn lock_stream(conn: &mut PgConn, stream: Uuid) -> QueryResult<()> {
    let (hi, lo) = stream.as_u64_pair();
    diesel::sql_query("SELECT pg_advisory_xact_lock($1)")
        .bind::<diesel::sql_types::Int8, _>((hi ^ lo) as i64)
        .execute(conn)
        .map(|_| ())
}

#[derive(QueryableByName)]
struct Due {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    stream_id: Uuid,
}

/// The matches on the server's clock whose next step is due, earliest first.
pub fn clock_due(conn: &mut PgConn, limit: i64) -> QueryResult<Vec<Uuid>> {
    diesel::sql_query(
        "SELECT stream_id FROM matches WHERE due_at <= now() AND phase = 'playing' ORDER BY due_at LIMIT $1",
    )
    .bind::<diesel::sql_types::Int8, _>(limit)
    .load::<Due>(conn)
    .map(|rows| rows.into_iter().map(|r| r.stream_id).collect())
}

/// Sets a match's due time at `version`, when it is still at that version (a sweep that found
/// nothing due clears it).
pub fn set_due(conn: &mut PgConn, stream: Uuid, version: i64, due_at: Option<DateTime<Utc>>) -> QueryResult<()> {
    diesel::sql_query("UPDATE matches SET due_at = $3 WHERE stream_id = $1 AND version = $2")
        .bind::<diesel::sql_types::Uuid, _>(stream)
        .bind::<diesel::sql_types::Int8, _>(version)
        .bind::<diesel::sql_types::Nullable<diesel::sql_types::Timestamptz>, _>(due_at)
        .execute(conn)
        .map(|_| ())
}
