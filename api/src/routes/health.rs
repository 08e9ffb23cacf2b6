//! Liveness, readiness and metrics, for load balancers and Prometheus.

use actix_web::{web, HttpResponse};

use crate::problem::{ApiError, Problem};
use crate::state::AppState;

/// Liveness
///
/// Answers 200 while the process runs, whatever the database's state: for a supervisor deciding
/// whether to restart it.
#[utoipa::path(get, path = "/healthz", tag = "health", responses((status = 200, description = "alive")))]
// HEAD too: load balancers probe with it.
#[actix_web::route("/healthz", method = "GET", method = "HEAD")]
pub async fn health() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}

/// Readiness
///
/// Answers 200 when the service can reach its database, 503 within the pool's timeout when it
/// cannot: for a load balancer deciding whether to send requests here.
#[utoipa::path(get, path = "/readyz", tag = "health",
    responses((status = 200, description = "ready"),
              (status = 503, description = "the database does not answer",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[actix_web::route("/readyz", method = "GET", method = "HEAD")]
pub async fn ready(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let state = state.into_inner();
    // Bounded like every request's database work: a partitioned database answers 503 in time.
    crate::commands::with_db(&state.clone(), move || {
        use diesel::connection::SimpleConnection;
        let mut conn = state.pool.get()?;
        conn.batch_execute("SELECT 1").map_err(|_| ApiError::unavailable("the database does not answer"))?;
        Ok::<_, ApiError>(())
    })
    .await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "status": "ready" })))
}

/// Metrics
///
/// Request counts and latencies by route and status, moves, cache and database figures, in
/// Prometheus's text exposition format.
#[utoipa::path(get, path = "/metrics", tag = "health",
    responses((status = 200, description = "Prometheus text format", content_type = "text/plain")))]
#[actix_web::get("/metrics")]
pub async fn prometheus(state: web::Data<AppState>) -> HttpResponse {
    let mut out = state.metrics.render();
    out.push_str("# HELP kortbord_streams_open Event streams open on this node.\n# TYPE kortbord_streams_open gauge\n");
    out.push_str(&format!("kortbord_streams_open {}\n", state.hub.open_streams()));
    HttpResponse::Ok().content_type("text/plain; version=0.0.4").body(out)
}
