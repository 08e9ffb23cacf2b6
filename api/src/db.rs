//! PostgreSQL: the pool, start-up (create the database, run migrations) and the two tables.

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::prelude::*;
use diesel::r2d2::{ConnectionManager, Pool, PooledConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use crate::config::{database_of, with_database};

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations");

pub type PgPool = Pool<ConnectionManager<PgConnection>>;
pub type PgConn = PooledConnection<ConnectionManager<PgConnection>>;

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
            body -> Jsonb,
            created_at -> Timestamptz,
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
    let manager = ConnectionManager::<PgConnection>::new(url);
    let pool = Pool::builder()
        .max_size(size)
        .connection_timeout(std::time::Duration::from_secs(2))
        // A check per checkout would add a round trip to every request; broken connections are
        // noticed when a query fails and are then dropped by the pool.
        .test_on_check_out(false)
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
