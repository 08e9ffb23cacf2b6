//! Configuration from the environment.

use std::env;
use std::time::Duration;

use crate::db::{database_of, with_database};

#[derive(Clone, Debug)]
pub struct Settings {
    pub host: String,
    pub port: u16,
    /// A PostgreSQL URL naming our database, which is created when missing.
    pub database_url: String,
    /// A standby's URL (same database name) for the reads that may lag: lists, finished deals'
    /// records and replays, exports. None: every read goes to `database_url`.
    pub replica_url: Option<String>,
    pub jwt_secret: String,
    pub token_ttl_secs: u64,
    pub pool_size: u32,
    /// How long a request waits for a pooled connection (and a new connection for its server's
    /// first answer) before it answers 503.
    pub db_checkout_timeout: Duration,
    /// How long one statement may take: the server cancels it after this, and a request stops
    /// waiting for its answer after the checkout timeout plus this (a partitioned server sends
    /// nothing, not even the cancellation).
    pub db_statement_timeout: Duration,
    /// Database threads for batched reads, and as many for batched appends (`batch.rs`).
    pub db_threads: usize,
    /// At most this many requests in one statement; 1 keeps every statement to one stream.
    pub db_batch: usize,
    pub rate_limits: crate::ratelimit::Limits,
    /// How long after it expires a token may still be renewed.
    pub token_renew_window_secs: u64,
    /// The browser origins that may call the API (CORS).
    pub cors: crate::http::Cors,
    /// How often this node looks for turns whose time ran out (none: it leaves that to others).
    pub deadline_sweep: Option<Duration>,
    /// Caps on open event streams, and how far back a new one reads.
    pub stream_limits: crate::live::StreamLimits,
    /// How long a match waits for players before it expires from the lobby
    /// (`KORTBORD_WAITING_TTL_SECS`, a day); swept with the turn deadlines.
    pub waiting_ttl: Duration,
}

impl Settings {
    /// Reads `HOST`, `PORT`, `DATABASE_URL`, `KORTBORD_DB_REPLICA_URL`, `KORTBORD_DB_NAME`, `KORTBORD_JWT_SECRET`,
    /// `KORTBORD_TOKEN_TTL_SECS`, `KORTBORD_DB_POOL`, `KORTBORD_DB_CHECKOUT_MS`, `KORTBORD_DB_STATEMENT_MS`,
    /// `KORTBORD_DB_THREADS`, `KORTBORD_DB_BATCH`, `KORTBORD_MOVES_PER_SEC`,
    /// `KORTBORD_MATCHES_PER_SEC`, `KORTBORD_TOKENS_PER_SEC`, `KORTBORD_RENEW_WINDOW_SECS` and
    /// `KORTBORD_CORS_ORIGINS`, `KORTBORD_DEADLINE_SWEEP_MS`, `KORTBORD_STREAMS_PER_ADDRESS`,
    /// `KORTBORD_STREAMS_PER_ADDRESS_ANONYMOUS`, `KORTBORD_STREAMS_PER_PLAYER` and
    /// `KORTBORD_STREAM_BACKLOG`. A missing
    /// secret gets a random one with a warning: fine for a laptop, wrong for a deployment with several nodes.
    pub fn from_env() -> Result<Settings, String> {
        let port = match env::var("PORT") {
            Ok(p) => p.parse().map_err(|_| format!("PORT is not a port number: {p}"))?,
            Err(_) => 8080,
        };
        let database_url = env::var("DATABASE_URL")
            .map_err(|_| "DATABASE_URL is not set (./scripts/serve provisions one)".to_string())?;
        // A server-level URL (database `postgres` or none) gets our own database on it.
        let name = env::var("KORTBORD_DB_NAME").ok().unwrap_or_else(|| {
            database_of(&database_url).filter(|n| n != "postgres").unwrap_or_else(|| "kortbord".into())
        });
        let database_url = with_database(&database_url, &name);
        // The standby holds the same databases as the primary: ours is named as there.
        let replica_url =
            env::var("KORTBORD_DB_REPLICA_URL").ok().filter(|u| !u.is_empty()).map(|u| with_database(&u, &name));
        let jwt_secret = match env::var("KORTBORD_JWT_SECRET") {
            Ok(s) if s.len() >= 16 => s,
            Ok(_) => return Err("KORTBORD_JWT_SECRET must be at least 16 characters".into()),
            Err(_) => {
                tracing::warn!(
                    "KORTBORD_JWT_SECRET is not set: using a random secret; tokens will not survive a restart"
                );
                random_secret()
            }
        };
        let token_ttl_secs =
            env::var("KORTBORD_TOKEN_TTL_SECS").ok().and_then(|v| v.parse().ok()).unwrap_or(7 * 24 * 3600);
        let pool_size = env::var("KORTBORD_DB_POOL").ok().and_then(|v| v.parse().ok()).unwrap_or(16);
        let positive = |name: &str| env::var(name).ok().and_then(|v| v.parse().ok()).filter(|n| *n > 0);
        let db_threads = positive("KORTBORD_DB_THREADS").unwrap_or(2);
        let millis =
            |name: &str, default: Duration| positive(name).map_or(default, |ms| Duration::from_millis(ms as u64));
        let db_checkout_timeout = millis("KORTBORD_DB_CHECKOUT_MS", crate::db::CHECKOUT_TIMEOUT);
        let db_statement_timeout = millis("KORTBORD_DB_STATEMENT_MS", crate::db::STATEMENT_TIMEOUT);
        let db_batch = positive("KORTBORD_DB_BATCH").unwrap_or(crate::batch::MAX_BATCH);
        let mut rate_limits = crate::ratelimit::Limits::default();
        let rate = |name: &str| env::var(name).ok().and_then(|v| v.parse::<f64>().ok()).filter(|r| *r > 0.0);
        if let Some(r) = rate("KORTBORD_MOVES_PER_SEC") {
            rate_limits.moves = crate::ratelimit::Limit { per_second: r, burst: (r * 3.0).max(1.0) };
        }
        if let Some(r) = rate("KORTBORD_MATCHES_PER_SEC") {
            rate_limits.creations = crate::ratelimit::Limit { per_second: r, burst: (r * 20.0).max(1.0) };
        }
        if let Some(r) = rate("KORTBORD_TOKENS_PER_SEC") {
            rate_limits.tokens = crate::ratelimit::Limit { per_second: r, burst: (r * 100.0).max(1.0) };
        }
        let token_renew_window_secs = env::var("KORTBORD_RENEW_WINDOW_SECS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(crate::auth::RENEW_WINDOW_SECS);
        let cors = crate::http::Cors::parse(&env::var("KORTBORD_CORS_ORIGINS").unwrap_or_else(|_| "*".into()))?;
        let deadline_sweep = match env::var("KORTBORD_DEADLINE_SWEEP_MS").ok().map(|v| v.parse::<u64>()) {
            None => Some(Duration::from_secs(1)),
            Some(Ok(0)) => None,
            Some(Ok(ms)) => Some(Duration::from_millis(ms)),
            Some(Err(_)) => return Err("KORTBORD_DEADLINE_SWEEP_MS is a number of milliseconds".into()),
        };
        let mut stream_limits = crate::live::StreamLimits::default();
        let count = |name: &str| -> Result<Option<usize>, String> {
            match env::var(name) {
                Err(_) => Ok(None),
                Ok(v) => v.parse().map(Some).map_err(|_| format!("{name} is a number of streams or events: {v}")),
            }
        };
        if let Some(n) = count("KORTBORD_STREAMS_PER_ADDRESS")? {
            stream_limits.per_address = n;
        }
        if let Some(n) = count("KORTBORD_STREAMS_PER_ADDRESS_ANONYMOUS")? {
            stream_limits.anonymous_per_address = n;
        }
        if let Some(n) = count("KORTBORD_STREAMS_PER_PLAYER")? {
            stream_limits.per_player = n;
        }
        if let Some(n) = count("KORTBORD_STREAM_BACKLOG")? {
            stream_limits.backlog = n as i64;
        }
        let waiting_ttl = match env::var("KORTBORD_WAITING_TTL_SECS").ok().map(|v| v.parse::<u64>()) {
            None => Duration::from_secs(24 * 3600),
            Some(Ok(secs)) if secs > 0 => Duration::from_secs(secs),
            Some(_) => return Err("KORTBORD_WAITING_TTL_SECS is a number of seconds, 1 or more".into()),
        };
        Ok(Settings {
            host: env::var("HOST").unwrap_or_else(|_| "127.0.0.1".into()),
            port,
            database_url,
            replica_url,
            jwt_secret,
            token_ttl_secs,
            pool_size,
            db_checkout_timeout,
            db_statement_timeout,
            db_threads,
            db_batch,
            rate_limits,
            token_renew_window_secs,
            cors,
            deadline_sweep,
            stream_limits,
            waiting_ttl,
        })
    }
}

pub fn random_secret() -> String {
    use rand::Rng;
    let bytes: [u8; 32] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
