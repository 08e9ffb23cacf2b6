//! Structured logs and a request id on every response.

use std::time::Instant;

use actix_web::body::{to_bytes, BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue, CONTENT_LANGUAGE, CONTENT_LENGTH, CONTENT_TYPE, VARY};
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse};
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

/// Gives each request an id (the client's `X-Request-Id` when it is sane), logs and counts the
/// request with it, and echoes it in the response header and in problem documents.
pub async fn request_id(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let id = req
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .map(str::to_string)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let method = req.method().to_string();
    let lang = crate::http::lang_of(req.headers());
    let state = req.app_data::<web::Data<crate::state::AppState>>().cloned();
    let span = tracing::info_span!("request", request_id = %id, method = %req.method(), path = %req.path());
    let started = Instant::now();
    let response = if crate::http::acceptable(&req) {
        next.call(req).instrument(span.clone()).await?.map_into_boxed_body()
    } else {
        let refusal = crate::problem::ApiError::new(
            actix_web::http::StatusCode::NOT_ACCEPTABLE,
            "not-acceptable",
            "Not acceptable",
            "this resource answers in application/json (problems in application/problem+json): send an Accept header that allows it, or none",
        );
        req.error_response(refusal)
    };
    let mut response =
        if is_problem(&response) { finish_problem(response, &id, lang).await? } else { response.map_into_boxed_body() };
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    // A request that counted against a rate limit says where the caller stands with it.
    let quota = actix_web::HttpMessage::extensions(response.request()).get::<crate::ratelimit::Quota>().copied();
    if let Some(quota) = quota {
        let fields: [(&'static str, String); 2] =
            [("ratelimit-policy", quota.policy_field()), ("ratelimit", quota.field())];
        for (name, value) in fields {
            if let Ok(value) = HeaderValue::from_str(&value) {
                response.headers_mut().insert(HeaderName::from_static(name), value);
            }
        }
    }
    let status = response.status().as_u16();
    // Unmatched paths share one label, so scanners cannot blow up the metrics.
    let route = response.request().match_pattern().unwrap_or_else(|| "unmatched".into());
    if let Some(state) = state {
        state.metrics.request(&method, &route, status, started.elapsed());
    }
    span.in_scope(|| tracing::info!(status, route = %route, micros = started.elapsed().as_micros() as u64, "handled"));
    Ok(response)
}

fn is_problem<B>(response: &ServiceResponse<B>) -> bool {
    response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()) == Some("application/problem+json")
}

/// A problem document leaves with the request's id, its title in the reader's language (the
/// handlers write it in English) and headers saying which language that is.
async fn finish_problem<B: MessageBody + 'static>(
    response: ServiceResponse<B>,
    id: &str,
    lang: engine::rules::Lang,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let (req, res) = response.into_parts();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = to_bytes(res.into_body()).await.map_err(|_| actix_web::error::ErrorInternalServerError("body"))?;
    let mut code = None;
    let body = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(serde_json::Value::Object(mut problem)) => {
            code = problem.get("code").and_then(|c| c.as_str()).map(str::to_string);
            problem.insert("request_id".into(), serde_json::Value::String(id.to_string()));
            if lang == engine::rules::Lang::Sv {
                let swedish = problem.get("title").and_then(|t| t.as_str()).and_then(crate::problem::swedish_title);
                if let Some(title) = swedish {
                    problem.insert("title".into(), title.into());
                }
                // The detail too, for the problems whose detail the service words in English.
                if let Some(detail) = code.as_deref().and_then(crate::problem::swedish_detail) {
                    problem.insert("detail".into(), detail.into());
                }
            }
            serde_json::to_vec(&problem).unwrap_or_else(|_| bytes.to_vec())
        }
        _ => bytes.to_vec(),
    };
    let mut rebuilt = HttpResponse::build(status);
    for (name, value) in headers.iter().filter(|(n, _)| *n != CONTENT_LENGTH) {
        rebuilt.append_header((name.clone(), value.clone()));
    }
    let language = match lang {
        engine::rules::Lang::Sv => "sv",
        engine::rules::Lang::En => "en",
    };
    rebuilt.insert_header((CONTENT_LANGUAGE, language)).append_header((VARY, "Accept-Language"));
    if status == actix_web::http::StatusCode::UNAUTHORIZED {
        // RFC 6750: say which scheme the resource wants, and why the token sent was not enough.
        let challenge = match code.as_deref() {
            Some("invalid-token" | "token-expired") => "Bearer realm=\"kortbord\", error=\"invalid_token\"",
            _ => "Bearer realm=\"kortbord\"",
        };
        rebuilt.insert_header((actix_web::http::header::WWW_AUTHENTICATE, challenge));
    }
    Ok(ServiceResponse::new(req, rebuilt.body(body)))
}
