//! Structured logs and a request id on every response.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::Instrument;
use tracing_subscriber::EnvFilter;

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Logs as JSON lines when `KORTBORD_LOG_FORMAT=json`, else readable text; the level from
/// `RUST_LOG` (default `info`).
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    let result = if std::env::var("KORTBORD_LOG_FORMAT").as_deref() == Ok("json") {
        builder.json().flatten_event(true).try_init()
    } else {
        builder.try_init()
    };
    // Tests build the app many times in one process; the first subscriber stays.
    let _ = result;
}

/// Gives each request an id (the client's `X-Request-Id` when it is sane), logs the request
/// with it, and echoes it in the response.
pub async fn request_id(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .map(str::to_string)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let span = tracing::info_span!("request", request_id = %id, method = %req.method(), path = %req.path());
    let started = Instant::now();
    let mut response = next.call(req).instrument(span.clone()).await?;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    span.in_scope(|| {
        tracing::info!(
            status = response.status().as_u16(),
            micros = started.elapsed().as_micros() as u64,
            "handled"
        )
    });
    Ok(response)
}
