//! What every request shares on a node. It lives apart from the crate root so that the modules
//! using it depend on it, not on the module that assembles the service.

use std::sync::Arc;
use std::time::Duration;

use crate::batch;
use crate::db::PgPool;
use crate::matches::MatchCache;
use crate::metrics::Metrics;
use crate::ratelimit::RateLimiter;

pub struct AppState {
    /// The primary's: every write, and every read a client must see its own writes in.
    pub pool: PgPool,
    /// A standby's (`KORTBORD_DB_REPLICA_URL`), for reads that may lag; see `lagging`.
    pub replica: Option<PgPool>,
    /// Reads of newer events and appends, batched across requests.
    pub db: batch::Database,
    pub cache: MatchCache,
    pub metrics: Arc<Metrics>,
    pub limiter: RateLimiter,
    /// The longest a request waits for its database work (a connection, then a statement)
    /// before it answers 503.
    pub db_wait: Duration,
    /// The matches streamed live on this node, and what the node hears of their appends.
    pub hub: Arc<crate::live::Hub>,
}

impl AppState {
    /// A connection for a read that may lag behind the primary: lists, finished deals' records
    /// and replays, exports. Never for a view after a move, legal moves or the move path (they
    /// use `pool`, so a client always sees its own moves). A replica that cannot give a
    /// connection (down, or failing over itself) is skipped for the primary.
    pub fn lagging(&self) -> Result<crate::db::PgConn, diesel::r2d2::PoolError> {
        if let Some(replica) = &self.replica {
            match replica.get() {
                Ok(conn) => return Ok(conn),
                Err(e) => tracing::warn!(error = %e, "the replica gives no connection; reading from the primary"),
            }
        }
        self.pool.get()
    }
}
