//! PostgreSQL: the pool, start-up (create the database, run migrations) and the two tables.

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::prelude::*;
use diesel::r2d2::{ConnectionManager, ManageConnection, Pool, PooledConnection};
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

    fn has_broken(&self, conn: &mut PgConnection) -> bool {
        self.0.has_broken(conn)
    }
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
        .map_err(|e| format!("cannot reach PostgreSQL at {}: {e}", redact_url(url)))?;
    let quoted = name.replace('"', "\"\"");
    match admin.batch_execute(&format!("CREATE DATABASE \"{quoted}\"")) {
        Ok(()) => Ok(()),
        // Another node created it between our two checks.
        Err(diesel::result::Error::DatabaseError(_, info)) if info.message().contains("already exists") => Ok(()),
        Err(e) => Err(format!("cannot create database {name}: {e}")),
    }
}

pub fn connect(url: &str, size: u32) -> Result<PgPool, String> {
    ensure_database(url)?;
    let manager = Manager(ConnectionManager::<PgConnection>::new(url));
    let pool = Pool::builder()
        .max_size(size)
        .connection_timeout(std::time::Duration::from_secs(2))
        // The check on checkout reads only what has already arrived (see `Manager`): a query
        // per checkout would add a round trip to every request.
        .test_on_check_out(true)
        .build(manager)
        .map_err(|e| format!("cannot open a pool to {}: {e}", redact_url(url)))?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    conn.run_pending_migrations(MIGRATIONS).map_err(|e| format!("migrations failed: {e}"))?;
    Ok(pool)
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
    }
}
