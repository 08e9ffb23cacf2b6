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
    pub pool: PgPool,
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
