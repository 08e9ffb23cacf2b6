//! What every request shares on a node. It lives apart from the crate root so that the modules
//! using it depend on it, not on the module that assembles the service.

use std::sync::Arc;

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
}
