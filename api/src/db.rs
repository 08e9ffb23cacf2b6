//! PostgreSQL: the pool, start-up (create the database, run migrations) and the two tables.

use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::prelude::*;
use diesel::r2d2::{ConnectionManager, CustomizeConnection, ManageConnection, Pool, PooledConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations");

pub type PgPool = Pool<Manager>;
pub type PgConn = PooledConnection<Manager>;

/// diesel's connection manager with a check on checkout that costs no round trip: whether the
/// server closed the connection while it sat in the pool.
///
/// Without it, the connections that were idle while PostgreSQL restarted stayed in the pool and
/// each failed the next request that drew it (a 503) after the database was back; and one whose
/// failure came while preparing a statement new to it was not even marked broken by diesel, so
/// it went back to the pool and failed every later request that drew it ("no connection to the
/// server"), for minutes (`scripts/faults`, scenario C).
#[derive(Debug)]
pub struct Manager(ConnectionManager<PgConnection>);

impl ManageConnection for Manager {
    type Connection = PgConnection;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<PgConnection, Self::Error> {
        self.0.connect()
    }

    /// Reads, without waiting, what the server has already sent (libpq's `PQconsumeInput`, which
    /// diesel exposes through the notification reader; the service listens to no channel). A
    /// server that stopped or restarted has sent an error and closed the socket: the first read
    /// takes the error, the second finds the end of the stream. A connection libpq already knows
    /// to be broken fails at once; a live, idle one has sent nothing.
    fn is_valid(&self, conn: &mut PgConnection) -> Result<(), Self::Error> {
        for _ in 0..2 {
            if let Some(Err(e)) = conn.notifications_iter().next() {
                return Err(diesel::r2d2::Error::QueryError(e));
            }
        }
        Ok(())
    }

    /// Also drops a connection that was just refused a write because its server is read-only
    /// (`note_read_only`): a primary demoted without a restart, or fenced with
    /// `default_transaction_read_only`, keeps its sessions, and each would fail every write it
    /// is given. A new connection finds the writable server (`target_session_attrs=read-write`
    /// in a multi-host URL); reads only fail that way on the primary's pool, whose writes do.
    fn has_broken(&self, conn: &mut PgConnection) -> bool {
        READ_ONLY.with(|seen| seen.replace(false)) || self.0.has_broken(conn)
    }
}

thread_local! {
    /// Set when a statement on this thread was refused because the server is read-only; the
    /// connection that ran it is returned to the pool by the same thread (r2d2 checks
    /// `has_broken` as the connection is dropped), which then discards it.
    static READ_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The statement just run on this thread's connection was refused because its server is
/// read-only (SQLSTATE 25006): the pool must not hand that connection out again.
pub fn note_read_only() {
    READ_ONLY.with(|seen| seen.set(true));
}

pub mod schema {
    diesel::table! {
        events (stream_id, seq) {
            stream_id -> Uuid,
            seq -> Int8,
            event_type -> Text,
            deal -> Int4,
            data -> Jsonb,
            actor -> Text,
            idempotency_key -> Nullable<Text>,
            recorded_at -> Timestamptz,
        }
    }

    diesel::table! {
        idempotency (stream_id, player_id, key) {
            stream_id -> Uuid,
            player_id -> Uuid,
            key -> Text,
            request_hash -> Text,
            status -> Int2,
            body -> Nullable<Jsonb>,
            created_at -> Timestamptz,
            seat -> Nullable<Int4>,
            first_seq -> Nullable<Int8>,
            last_seq -> Nullable<Int8>,
        }
    }
}

/// Creates the database named in `url` when it does not exist yet.
pub fn ensure_database(url: &str) -> Result<(), String> {
    let Some(name) = database_of(url) else { return Ok(()) };
    if PgConnection::establish(url).is_ok() {
        return Ok(());
    }
    let mut admin = PgConnection::establish(&with_database(url, "postgres"))
        .map_err(|e| format!("cannot reach PostgreSQL at {}: {}", redact_url(url), explain(e)))?;
    let quoted = name.replace('"', "\"\"");
    match admin.batch_execute(&format!("CREATE DATABASE \"{quoted}\"")) {
        Ok(()) => Ok(()),
        // Another node created it between our two checks.
        Err(diesel::result::Error::DatabaseError(_, info)) if info.message().contains("already exists") => Ok(()),
        Err(e) => Err(format!("cannot create database {name}: {e}")),
    }
}

/// The defaults of `KORTBORD_DB_CHECKOUT_MS` and `KORTBORD_DB_STATEMENT_MS`.
pub const CHECKOUT_TIMEOUT: Duration = Duration::from_secs(2);
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(5);

/// `connect_bounded` with the default waits.
pub fn connect(url: &str, size: u32) -> Result<PgPool, String> {
    connect_bounded(url, size, CHECKOUT_TIMEOUT, STATEMENT_TIMEOUT)
}

/// Opens the pool. A database that stops answering (a partition: connections stay open and
/// nothing comes back) must cost a request a bounded wait, not TCP's minutes: `checkout` bounds
/// the wait for a pooled connection and, as libpq's `connect_timeout`, for a new one;
/// `statement` is the server's `statement_timeout`, which frees a connection a slow query
/// holds. (A partitioned server's cancellation never arrives: the requests themselves stop
/// waiting, see `commands::with_db`.)
pub fn connect_bounded(url: &str, size: u32, checkout: Duration, statement: Duration) -> Result<PgPool, String> {
    let url = with_connect_timeout(url, checkout);
    ensure_database(&url)?;
    let manager = Manager(ConnectionManager::<PgConnection>::new(url.as_str()));
    let pool = Pool::builder()
        .max_size(size)
        .connection_timeout(checkout)
        // The check on checkout reads only what has already arrived (see `Manager`): a query
        // per checkout would add a round trip to every request.
        .test_on_check_out(true)
        .connection_customizer(Box::new(StatementTimeout(statement)))
        .build(manager)
        .map_err(|e| format!("cannot open a pool to {}: {}", redact_url(&url), explain(e)))?;
    let mut conn = pool.get().map_err(explain)?;
    // A migration may rewrite a large table: it gets all the time it needs.
    conn.batch_execute("SET statement_timeout = 0").map_err(|e| format!("cannot prepare migrations: {e}"))?;
    conn.run_pending_migrations(MIGRATIONS).map_err(|e| format!("migrations failed: {e}"))?;
    conn.batch_execute(&format!("SET statement_timeout = {}", statement.as_millis()))
        .map_err(|e| format!("cannot set the statement timeout: {e}"))?;
    Ok(pool)
}

/// The pool for reads that may lag (`KORTBORD_DB_REPLICA_URL`): a standby's. It runs no
/// migrations and creates nothing (a standby is read-only; the primary's pool does both), and it
/// is opened without waiting for a connection, so a node starts while the replica is down (those
/// reads then fall back to the primary, see `AppState::lagging`). It waits at most half the
/// checkout timeout for a connection, so that the fallback still fits in a request's wait.
pub fn connect_replica(url: &str, size: u32, checkout: Duration, statement: Duration) -> PgPool {
    let url = with_connect_timeout(url, checkout);
    let manager = Manager(ConnectionManager::<PgConnection>::new(url.as_str()));
    Pool::builder()
        .max_size(size)
        .min_idle(Some(0))
        .connection_timeout(checkout / 2)
        .test_on_check_out(true)
        .connection_customizer(Box::new(StatementTimeout(statement)))
        .build_unchecked(manager)
}

/// The URL with libpq's `connect_timeout` (whole seconds, at least 2, libpq's own minimum)
/// unless it names one already.
pub fn with_connect_timeout(url: &str, timeout: Duration) -> String {
    if url.contains("connect_timeout=") {
        return url.to_string();
    }
    let secs = timeout.as_millis().div_ceil(1000).max(2);
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}connect_timeout={secs}")
}

#[derive(Debug)]
struct StatementTimeout(Duration);

impl CustomizeConnection<PgConnection, diesel::r2d2::Error> for StatementTimeout {
    fn on_acquire(&self, conn: &mut PgConnection) -> Result<(), diesel::r2d2::Error> {
        conn.batch_execute(&format!("SET statement_timeout = {}", self.0.as_millis()))
            .map_err(diesel::r2d2::Error::QueryError)
    }
}

/// A database error as a message, with what to do when PostgreSQL has no connection left to give
/// ("too many clients already", or a role's or a database's own limit): each node opens up to
/// `KORTBORD_DB_POOL` connections, and one more while it streams.
pub fn explain(error: impl std::fmt::Display) -> String {
    let text = error.to_string();
    let full = ["too many clients", "too many connections", "remaining connection slots"];
    if full.iter().any(|m| text.contains(m)) {
        format!(
            "{text} (hint: PostgreSQL has no connection left: lower KORTBORD_DB_POOL, the connections each node \
             opens (16 by default, one more to listen while it streams), or raise the server's max_connections)"
        )
    } else {
        text
    }
}

/// The URL without its password, for messages.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(s), Some(at)) if at > s => {
            let userinfo = &url[s + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}{}@{}", &url[..s + 3], user, &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

/// The same server URL with another database name. (The URL helpers live with the database they
/// name, below the settings that read them: `config` uses `db`, never the other way round.)
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let authority_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let base = match base[authority_end..].find('/') {
        Some(i) => &base[..authority_end + i],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

/// The database name in a URL, if any.
pub fn database_of(url: &str) -> Option<String> {
    let base = url.split('?').next()?;
    let after = &base[base.find("://")? + 3..];
    let name = &after[after.find('/')? + 1..];
    (!name.is_empty()).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_names_are_swapped_keeping_server_and_query() {
        assert_eq!(
            with_database("postgres://u@h:5432/postgres?sslmode=disable", "kb"),
            "postgres://u@h:5432/kb?sslmode=disable"
        );
        assert_eq!(with_database("postgres://h", "kb"), "postgres://h/kb");
        assert_eq!(database_of("postgres://h:1/x?a=b").as_deref(), Some("x"));
        assert_eq!(database_of("postgres://h:1"), None);
        let second = Duration::from_millis(1_500);
        assert_eq!(with_connect_timeout("postgres://h/kb", second), "postgres://h/kb?connect_timeout=2");
        assert_eq!(with_connect_timeout("postgres://h/kb?a=b", second * 4), "postgres://h/kb?a=b&connect_timeout=6");
        let set = "postgres://h/kb?connect_timeout=9";
        assert_eq!(with_connect_timeout(set, second), set);
    }

    #[test]
    fn a_server_out_of_connections_comes_with_the_pool_setting_to_lower() {
        let full = explain("FATAL:  sorry, too many clients already");
        assert!(full.contains("lower KORTBORD_DB_POOL"), "{full}");
        assert_eq!(explain("connection refused"), "connection refused");
    }
}
