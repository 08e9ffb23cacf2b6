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

#[derive(Insertable)]
#[diesel(table_name = events)]
struct EventRow<'a> {
    stream_id: Uuid,
    seq: i64,
    event_type: &'a str,
    deal: i32,
    data: &'a Value,
    actor: &'a str,
    idempotency_key: Option<&'a str>,
    recorded_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = idempotency)]
pub struct StoredAnswer {
    pub stream_id: Uuid,
    pub player_id: Uuid,
    pub key: String,
    pub request_hash: String,
    pub status: i16,
    pub body: Value,
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

/// Appends `new` after `expected` (the stream's version as the caller last read it) and, in the
/// same transaction, the stored answer for an idempotent request. Two racing appends at the same
/// version: the primary key lets exactly one land.
pub fn append(
    conn: &mut PgConn,
    stream: Uuid,
    expected: i64,
    new: &[NewEvent],
    key: Option<&str>,
    answer: Option<&StoredAnswer>,
) -> Result<(), AppendError> {
    let rows: Vec<EventRow> = new
        .iter()
        .enumerate()
        .map(|(i, e)| EventRow {
            stream_id: stream,
            seq: expected + 1 + i as i64,
            event_type: &e.event_type,
            deal: e.deal,
            data: &e.data,
            actor: &e.actor,
            idempotency_key: if i == 0 { key } else { None },
            recorded_at: e.recorded_at,
        })
        .collect();
    let result = conn.transaction::<_, DieselError, _>(|conn| {
        if !rows.is_empty() {
            diesel::insert_into(events::table).values(&rows).execute(conn)?;
        }
        if let Some(answer) = answer {
            diesel::insert_into(idempotency::table).values(answer).execute(conn)?;
        }
        Ok(())
    });
    match result {
        Ok(()) => Ok(()),
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
