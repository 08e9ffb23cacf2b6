//! Round trips shared between requests. A move needs two statements: read the events newer
//! than the node's cached state, and append. Under load many matches do this at the same
//! moment; sending each on its own costs a round trip, a statement and (for appends) a commit
//! per move. Here requests queue their read or append; a few database threads each take what
//! has queued up while they were busy and run it as one statement: one round trip and one
//! commit for the lot. Nothing waits on purpose: a quiet service sends batches of one, a busy
//! one sends bigger batches, which is when it pays.
//!
//! A batch spans several matches, which design.md rules out for the day the events table is
//! distributed by stream (Citus): there a statement over many streams touches many shards. With
//! `KORTBORD_DB_BATCH=1` every statement is again about one stream, as in design.md; on one
//! database machine batching is worth more than three times the moves per second
//! (docs/performance.md).
//!
//! Appends keep their meaning: each is all-or-nothing at its expected version. A batch is one
//! statement, so it lands whole or not at all; when any append in it collides (another node
//! took the version, a retried key was already answered) the batch falls back to one statement
//! per append, and each gets its own answer.

use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel::sql_types::{
    Array, BigInt, Int2, Int4, Int8, Jsonb, Nullable, Text, Timestamptz, Untyped, Uuid as SqlUuid,
};
use serde_json::Value;
use tokio::sync::oneshot;
use uuid::Uuid;

use crate::db::PgPool;
use crate::metrics::Metrics;
use crate::problem::ApiError;
use crate::store::{self, AppendError, NewEvent, StoredAnswer, StoredEvent};

/// At most this many requests share one statement, unless configured otherwise.
pub const MAX_BATCH: usize = 128;

/// One append: `events` after version `expected` of `stream`, and where a keyed request's answer
/// lies.
pub struct Append {
    pub stream: Uuid,
    pub expected: i64,
    pub events: Vec<NewEvent>,
    pub key: Option<String>,
    pub answer: Option<StoredAnswer>,
    /// The match after the events, for lists.
    pub summary: store::Summary,
}

/// How an append ended, when the database could be asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    Done,
    /// Another append took the version first, or the key was already answered.
    Conflict,
}

struct ReadJob {
    stream: Uuid,
    since: i64,
    reply: oneshot::Sender<Result<Vec<StoredEvent>, ApiError>>,
}

struct AppendJob {
    append: Append,
    reply: oneshot::Sender<Result<Appended, ApiError>>,
}

/// The queues and their database threads.
pub struct Database {
    reads: Queue<ReadJob>,
    appends: Queue<AppendJob>,
    /// How long a request waits for its batch's answer.
    wait: Duration,
}

impl Database {
    /// Starts `threads` database threads for reads and as many for appends, each sending at
    /// most `max_batch` requests in one statement (1: one stream per statement).
    pub fn start(pool: PgPool, threads: usize, max_batch: usize, metrics: Arc<Metrics>) -> Database {
        let wait = crate::db::CHECKOUT_TIMEOUT + crate::db::STATEMENT_TIMEOUT;
        Database::start_waiting(pool, threads, max_batch, metrics, wait)
    }

    /// `start`, a request waiting at most `wait` for its batch's answer before it answers 503.
    pub fn start_waiting(
        pool: PgPool,
        threads: usize,
        max_batch: usize,
        metrics: Arc<Metrics>,
        wait: Duration,
    ) -> Database {
        let (p, m) = (pool.clone(), metrics.clone());
        let reads = Queue::start("db-read", threads, max_batch, move |jobs: Vec<ReadJob>| run_reads(&p, &m, jobs));
        let appends = Queue::start("db-append", threads, max_batch, move |jobs: Vec<AppendJob>| {
            run_appends(&pool, &metrics, jobs)
        });
        Database { reads, appends, wait }
    }

    /// The events of `stream` after `since`, in order.
    pub async fn read(&self, stream: Uuid, since: i64) -> Result<Vec<StoredEvent>, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.reads.submit(ReadJob { stream, since, reply })?;
        self.answer(answer).await
    }

    pub async fn append(&self, append: Append) -> Result<Appended, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.appends.submit(AppendJob { append, reply })?;
        self.answer(answer).await
    }

    /// A batch's answer, or 503 when the database keeps it longer than a request may wait. (An
    /// append given up on may still land; the client's retry with its key finds it.)
    async fn answer<T>(&self, answer: oneshot::Receiver<Result<T, ApiError>>) -> Result<T, ApiError> {
        match actix_web::rt::time::timeout(self.wait, answer).await {
            Ok(answer) => answer.map_err(|_| ApiError::internal("a database thread stopped"))?,
            Err(_) => Err(crate::problem::db_timeout(self.wait)),
        }
    }
}

/// A queue drained by a few threads, each taking everything waiting (up to `max_batch`).
struct Queue<J> {
    sender: mpsc::Sender<J>,
}

impl<J: Send + 'static> Queue<J> {
    fn start(name: &str, threads: usize, max_batch: usize, run: impl Fn(Vec<J>) + Send + Sync + 'static) -> Queue<J> {
        let (sender, receiver) = mpsc::channel::<J>();
        let receiver = Arc::new(Mutex::new(receiver));
        let run = Arc::new(run);
        for i in 0..threads.max(1) {
            let (receiver, run) = (receiver.clone(), run.clone());
            std::thread::Builder::new()
                .name(format!("{name}-{i}"))
                .spawn(move || loop {
                    let batch = {
                        let Ok(receiver) = receiver.lock() else { return };
                        // Every sender gone: the service is shutting down.
                        let Ok(first) = receiver.recv() else { return };
                        let mut batch = vec![first];
                        while batch.len() < max_batch {
                            match receiver.try_recv() {
                                Ok(job) => batch.push(job),
                                Err(_) => break,
                            }
                        }
                        batch
                    };
                    // A panic fails this batch's requests (their answers are dropped: 500), not
                    // the thread.
                    if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(batch))).is_err() {
                        tracing::error!("a database batch panicked");
                    }
                })
                .expect("cannot start a database thread");
        }
        Queue { sender }
    }

    fn submit(&self, job: J) -> Result<(), ApiError> {
        self.sender.send(job).map_err(|_| ApiError::unavailable("the service is shutting down"))
    }
}

#[derive(QueryableByName)]
struct ReadRow {
    #[diesel(sql_type = BigInt)]
    job: i64,
    #[diesel(sql_type = BigInt)]
    seq: i64,
    #[diesel(sql_type = Text)]
    event_type: String,
    #[diesel(sql_type = Int4)]
    deal: i32,
    #[diesel(sql_type = Jsonb)]
    data: Value,
    #[diesel(sql_type = Text)]
    actor: String,
    #[diesel(sql_type = Timestamptz)]
    recorded_at: DateTime<Utc>,
}

fn run_reads(pool: &PgPool, metrics: &Metrics, jobs: Vec<ReadJob>) {
    metrics.batch("read", jobs.len());
    let mut conn = match pool.get() {
        Ok(conn) => conn,
        Err(e) => {
            let e = ApiError::from(e);
            for job in jobs {
                let _ = job.reply.send(Err(e.clone()));
            }
            return;
        }
    };
    if let [job] = jobs.as_slice() {
        // Alone: the plain read of one stream.
        let events = store::read(&mut conn, job.stream, job.since, i64::MAX).map_err(ApiError::from);
        if let Some(job) = jobs.into_iter().next() {
            let _ = job.reply.send(events);
        }
        return;
    }
    let result = ReadNewer {
        streams: jobs.iter().map(|j| j.stream).collect(),
        since: jobs.iter().map(|j| j.since).collect(),
        _rows: std::marker::PhantomData,
    }
    .load::<ReadRow>(&mut conn)
    .map_err(ApiError::from);
    match result {
        Ok(rows) => {
            let mut per_job: Vec<Vec<StoredEvent>> = jobs.iter().map(|_| Vec::new()).collect();
            for r in rows {
                // WITH ORDINALITY counts from 1.
                if let Some(events) = per_job.get_mut((r.job - 1) as usize) {
                    events.push(StoredEvent {
                        seq: r.seq,
                        event_type: r.event_type,
                        deal: r.deal,
                        data: r.data,
                        actor: r.actor,
                        recorded_at: r.recorded_at,
                    });
                }
            }
            for (job, events) in jobs.into_iter().zip(per_job) {
                let _ = job.reply.send(Ok(events));
            }
        }
        Err(e) => {
            for job in jobs {
                let _ = job.reply.send(Err(e.clone()));
            }
        }
    }
}

#[derive(QueryableByName)]
struct AppendedRows {
    #[diesel(sql_type = BigInt)]
    events: i64,
}

fn run_appends(pool: &PgPool, metrics: &Metrics, jobs: Vec<AppendJob>) {
    let (appends, replies): (Vec<Append>, Vec<_>) = jobs.into_iter().map(|j| (j.append, j.reply)).unzip();
    for (reply, outcome) in replies.into_iter().zip(append_together(pool, metrics, &appends)) {
        let _ = reply.send(outcome);
    }
}

/// Sends `appends` as one batch now and tells how each ended: all in one statement, or, when
/// any of them collides, one statement each. (The queue calls this with what has queued up.)
pub fn append_together(pool: &PgPool, metrics: &Metrics, appends: &[Append]) -> Vec<Result<Appended, ApiError>> {
    metrics.batch("append", appends.len());
    let mut conn = match pool.get() {
        Ok(conn) => conn,
        Err(e) => {
            let e = ApiError::from(e);
            return appends.iter().map(|_| Err(e.clone())).collect();
        }
    };
    if appends.len() > 1 {
        match append_all(&mut conn, appends) {
            Ok(()) => return appends.iter().map(|_| Ok(Appended::Done)).collect(),
            // Someone collided: sort it out one append at a time.
            Err(AppendError::Conflict) => {
                metrics.batch_fallbacks.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            Err(AppendError::Db(e)) => {
                let e = ApiError::from(e);
                return appends.iter().map(|_| Err(e.clone())).collect();
            }
        }
    }
    appends
        .iter()
        .map(|a| {
            match store::append(
                &mut conn,
                a.stream,
                a.expected,
                &a.events,
                a.key.as_deref(),
                a.answer.as_ref(),
                &a.summary,
            ) {
                Ok(()) => Ok(Appended::Done),
                Err(AppendError::Conflict) => Ok(Appended::Conflict),
                Err(AppendError::Db(e)) => Err(ApiError::from(e)),
            }
        })
        .collect()
}

/// Every append of the batch in one statement (so one transaction).
fn append_all(conn: &mut store::Conn, appends: &[Append]) -> Result<(), AppendError> {
    let mut rows = AppendMany::default();
    for a in appends {
        for (i, e) in a.events.iter().enumerate() {
            rows.stream.push(a.stream);
            rows.seq.push(a.expected + 1 + i as i64);
            rows.event_type.push(e.event_type.as_str());
            rows.deal.push(e.deal);
            rows.data.push(&e.data);
            rows.actor.push(e.actor.as_str());
            rows.key.push(if i == 0 { a.key.as_deref() } else { None });
            rows.recorded_at.push(e.recorded_at);
        }
        if let Some(answer) = &a.answer {
            rows.answer_stream.push(answer.stream_id);
            rows.answer_player.push(answer.player_id);
            rows.answer_key.push(answer.key.as_str());
            rows.answer_hash.push(answer.request_hash.as_str());
            rows.answer_status.push(answer.status);
            rows.answer_seat.push(answer.seat);
            rows.answer_first.push(answer.first_seq);
            rows.answer_last.push(answer.last_seq);
        }
    }
    // A row may be updated once per statement: of two appends to one match (which one node
    // does not batch together, but nothing forbids it) the later summary stands.
    let mut summaries: Vec<(Uuid, &store::Summary)> = Vec::with_capacity(appends.len());
    for a in appends {
        match summaries.iter_mut().find(|(s, _)| *s == a.stream) {
            Some(kept) if kept.1.version < a.summary.version => kept.1 = &a.summary,
            Some(_) => {}
            None => summaries.push((a.stream, &a.summary)),
        }
    }
    for (stream, summary) in summaries {
        rows.summary_stream.push(stream);
        rows.summary_game.push(summary.game.as_str());
        rows.summary_phase.push(summary.phase);
        rows.summary_version.push(summary.version);
        rows.summary_open.push(summary.open_seats);
        rows.summary_players.push(&summary.players);
        rows.summary_seats.push(&summary.seats);
        rows.summary_to_act.push(&summary.to_act);
        rows.summary_at.push(summary.at);
        rows.summary_outcome.push(summary.outcome.as_ref());
        rows.summary_due.push(summary.due_at);
    }
    let expected_rows = rows.stream.len() as i64;
    match rows.get_result::<AppendedRows>(conn) {
        Ok(r) if r.events == expected_rows => Ok(()),
        Ok(r) => Err(AppendError::Db(DieselError::QueryBuilderError(
            format!("appended {} of {expected_rows} events", r.events).into(),
        ))),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Err(AppendError::Conflict),
        Err(e) => Err(AppendError::Db(e)),
    }
}

/// The text of a statement cut at its placeholders (`$1`, `$2`, … in order, each once), to be
/// sent with the binds in between: always one piece more than placeholders.
fn pieces(sql: &'static str) -> Vec<&'static str> {
    let bytes = sql.as_bytes();
    let (mut cut, mut start, mut i) = (Vec::new(), 0, 0);
    while i < bytes.len() {
        if bytes[i] == b'$' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            cut.push(&sql[start..i]);
            i += 1;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            start = i;
        } else {
            i += 1;
        }
    }
    cut.push(&sql[start..]);
    cut
}

/// A statement whose text never changes, so that each connection parses and plans it once.
/// diesel prepares and caches the statements its query builder makes, but not raw SQL
/// (`sql_query` cannot know the text is fixed). Planning these statements cost PostgreSQL
/// several times what running them did (0.36 ms against 0.08 ms for a read of three matches).
macro_rules! fixed_statement {
    ($(#[$doc:meta])* $name:ident<$lt:lifetime> = $sql:expr; { $($field:ident : $ty:ty => $st:ty),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Default)]
        struct $name<$lt> {
            $($field: $ty,)*
            _rows: std::marker::PhantomData<&$lt ()>,
        }

        impl QueryFragment<Pg> for $name<'_> {
            fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
                static TEXT: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
                let mut text = TEXT.get_or_init(|| pieces($sql)).iter();
                out.push_sql(text.next().copied().unwrap_or_default());
                $(
                    out.push_bind_param::<$st, _>(&self.$field)?;
                    out.push_sql(text.next().copied().unwrap_or_default());
                )*
                Ok(())
            }
        }

        impl QueryId for $name<'_> {
            type QueryId = $name<'static>;
            const HAS_STATIC_QUERY_ID: bool = true;
        }

        impl Query for $name<'_> {
            type SqlType = Untyped;
        }

        impl<Conn> RunQueryDsl<Conn> for $name<'_> {}
    };
}

const READ_NEWER: &str = "SELECT q.job, e.seq, e.event_type, e.deal, e.data, e.actor, e.recorded_at
   FROM unnest($1::uuid[], $2::bigint[]) WITH ORDINALITY AS q(stream_id, since, job)
   CROSS JOIN LATERAL (
       SELECT seq, event_type, deal, data, actor, recorded_at FROM events
        WHERE events.stream_id = q.stream_id AND events.seq > q.since
        ORDER BY seq) e
  ORDER BY q.job, e.seq";

fixed_statement! {
    /// The events newer than `since[i]` of `streams[i]`, for every i. LATERAL keeps it one index
    /// range scan per match, whatever the planner guesses about the length of the list.
    ReadNewer<'a> = READ_NEWER; {
        streams: Vec<Uuid> => Array<SqlUuid>,
        since: Vec<i64> => Array<Int8>,
    }
}

const APPEND_MANY: &str = "WITH new_events AS (
     INSERT INTO events (stream_id, seq, event_type, deal, data, actor, idempotency_key, recorded_at)
     SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::int4[], $5::jsonb[], $6::text[], $7::text[], $8::timestamptz[])
     RETURNING 1
 ), answers AS (
     INSERT INTO idempotency (stream_id, player_id, key, request_hash, status, seat, first_seq, last_seq)
     SELECT * FROM unnest($9::uuid[], $10::uuid[], $11::text[], $12::text[], $13::int2[], $14::int4[], $15::bigint[], $16::bigint[])
     RETURNING 1
 ), summaries AS (
     INSERT INTO matches (stream_id, game, phase, version, open_seats, players, seats, to_act, created_at, updated_at, outcome, due_at)
     SELECT s, g, p, v, o, pl, se, t, u, u, oc, d
       FROM unnest($17::uuid[], $18::text[], $19::text[], $20::bigint[], $21::int4[], $22::jsonb[], $23::jsonb[], $24::jsonb[], $25::timestamptz[], $26::jsonb[], $27::timestamptz[])
            AS x(s, g, p, v, o, pl, se, t, u, oc, d)
     ON CONFLICT (stream_id) DO UPDATE SET
         phase = EXCLUDED.phase, version = EXCLUDED.version, open_seats = EXCLUDED.open_seats,
         players = EXCLUDED.players, seats = EXCLUDED.seats, to_act = EXCLUDED.to_act,
         updated_at = EXCLUDED.updated_at, outcome = EXCLUDED.outcome, due_at = EXCLUDED.due_at
     WHERE matches.version < EXCLUDED.version
     RETURNING 1
 )
 SELECT (SELECT count(*) FROM new_events) AS events";

fixed_statement! {
    /// Events of several appends, flattened, and the answers' rows of the keyed ones.
    AppendMany<'a> = APPEND_MANY; {
        stream: Vec<Uuid> => Array<SqlUuid>,
        seq: Vec<i64> => Array<Int8>,
        event_type: Vec<&'a str> => Array<Text>,
        deal: Vec<i32> => Array<Int4>,
        data: Vec<&'a Value> => Array<Jsonb>,
        actor: Vec<&'a str> => Array<Text>,
        key: Vec<Option<&'a str>> => Array<Nullable<Text>>,
        recorded_at: Vec<DateTime<Utc>> => Array<Timestamptz>,
        answer_stream: Vec<Uuid> => Array<SqlUuid>,
        answer_player: Vec<Uuid> => Array<SqlUuid>,
        answer_key: Vec<&'a str> => Array<Text>,
        answer_hash: Vec<&'a str> => Array<Text>,
        answer_status: Vec<i16> => Array<Int2>,
        answer_seat: Vec<Option<i32>> => Array<Nullable<Int4>>,
        answer_first: Vec<Option<i64>> => Array<Nullable<Int8>>,
        answer_last: Vec<Option<i64>> => Array<Nullable<Int8>>,
        summary_stream: Vec<Uuid> => Array<SqlUuid>,
        summary_game: Vec<&'a str> => Array<Text>,
        summary_phase: Vec<&'a str> => Array<Text>,
        summary_version: Vec<i64> => Array<Int8>,
        summary_open: Vec<i32> => Array<Int4>,
        summary_players: Vec<&'a Value> => Array<Jsonb>,
        summary_seats: Vec<&'a Value> => Array<Jsonb>,
        summary_to_act: Vec<&'a Value> => Array<Jsonb>,
        summary_at: Vec<DateTime<Utc>> => Array<Timestamptz>,
        summary_outcome: Vec<Option<&'a Value>> => Array<Nullable<Jsonb>>,
        summary_due: Vec<Option<DateTime<Utc>>> => Array<Nullable<Timestamptz>>,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_are_cut_at_each_placeholder() {
        assert_eq!(pieces("SELECT $1::int, $2 + $10"), ["SELECT ", "::int, ", " + ", ""]);
        assert_eq!(pieces("$1"), ["", ""]);
        assert_eq!(pieces("no binds, $ alone"), ["no binds, $ alone"]);
        assert_eq!(pieces(READ_NEWER).len(), 3);
        assert_eq!(pieces(APPEND_MANY).len(), 28);
    }
}
