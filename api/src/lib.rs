//! Kortbord's HTTP service: stores every match as an append-only stream of events in
//! PostgreSQL, derives state by replaying them through the rules engine, and serves moves,
//! history and rules. It holds no game rules of its own.

pub mod auth;
pub mod batch;
pub mod commands;
pub mod config;
pub mod db;
pub mod http;
pub mod idempotency;
pub mod live;
pub mod matches;
pub mod metrics;
pub mod openapi;
pub mod problem;
pub mod ratelimit;
pub mod routes;
pub mod state;
pub mod store;
pub mod telemetry;
pub mod wire;

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::{web, App, HttpRequest, HttpResponse};
use utoipa::OpenApi;
use utoipa_swagger_ui::SwaggerUi;

use crate::auth::Keys;
use crate::config::Settings;
use crate::matches::MatchCache;
use crate::problem::ApiError;
pub use crate::state::AppState;

/// The running service: where it listens and the server future to await.
pub struct Application {
    pub port: u16,
    pub server: Server,
}

impl Application {
    /// Builds the whole service: connects (creating the database and running migrations) and
    /// binds. Port 0 picks a free port, which is how the tests start it.
    pub fn build(settings: &Settings) -> Result<Application, String> {
        let pool = db::connect_bounded(
            &settings.database_url,
            settings.pool_size,
            settings.db_checkout_timeout,
            settings.db_statement_timeout,
        )?;
        let db_wait = settings.db_checkout_timeout + settings.db_statement_timeout;
        let listener = TcpListener::bind((settings.host.as_str(), settings.port))
            .map_err(|e| format!("cannot listen on {}:{}: {e}", settings.host, settings.port))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let metrics = std::sync::Arc::new(metrics::Metrics::default());
        let state = web::Data::new(AppState {
            db: batch::Database::start_waiting(
                pool.clone(),
                settings.db_threads,
                settings.db_batch,
                metrics.clone(),
                db_wait,
            ),
            pool,
            replica: settings.replica_url.as_deref().map(|url| {
                db::connect_replica(
                    url,
                    settings.pool_size,
                    settings.db_checkout_timeout,
                    settings.db_statement_timeout,
                )
            }),
            cache: MatchCache::new(10_000),
            metrics,
            limiter: ratelimit::RateLimiter::new(settings.rate_limits),
            db_wait,
            hub: live::Hub::new(&settings.database_url, settings.pool_size as usize, settings.stream_limits),
        });
        let keys = web::Data::new(
            Keys::new(&settings.jwt_secret, settings.token_ttl_secs)
                .with_renew_window(settings.token_renew_window_secs),
        );
        let cors = web::Data::new(settings.cors.clone());
        let openapi = openapi::ApiDoc::openapi();
        let methods = web::Data::new(MethodsByPath::from(&openapi));
        // Serialised once and shared by every worker; the built document itself (megabytes of
        // structs, a copy per worker when handed to Swagger UI) is dropped here.
        let document = web::Data::new(web::Bytes::from(openapi.to_json().map_err(|e| e.to_string())?));
        drop(openapi);
        let sweeping = state.clone().into_inner();
        let app = move || {
            App::new()
                .wrap(actix_web::middleware::from_fn(http::edge))
                // Boxed: each connection keeps this layer's future inline (Compress, outside it,
                // does not box it), sized for its largest state and kept while the connection is
                // open: 1.3 KiB even on an idle event stream. Boxed, it is held only while a
                // request is answered.
                .wrap(actix_web::middleware::from_fn(|req, next| Box::pin(telemetry::request_id(req, next))))
                // Outermost, so that the layers inside read and rewrite bodies uncompressed.
                .wrap(actix_web::middleware::Compress::default())
                .app_data(cors.clone())
                .app_data(state.clone())
                .app_data(keys.clone())
                .app_data(methods.clone())
                .app_data(json_config())
                .app_data(path_config())
                .app_data(query_config())
                // The router tries resources in this order, each dynamic one a regular
                // expression: the requests a match is played with come first (a tenth of the
                // service's time under load went to routing when they came last).
                .service(routes::moves::make_move)
                .service(routes::matches::legal_moves)
                .service(routes::matches::get_match)
                .service(routes::health::health)
                .service(routes::health::ready)
                .service(routes::health::prometheus)
                .service(routes::auth::guest)
                .service(routes::auth::renew)
                .service(routes::auth::me)
                .service(routes::games::list_games)
                .service(routes::games::get_game)
                .service(routes::games::get_rules)
                .service(routes::games::get_rule)
                .service(routes::checks::check_deal)
                .service(routes::matches::create_match)
                .service(routes::lists::list_matches)
                .service(routes::matches::join)
                .service(routes::matches::leave)
                .service(routes::matches::cancel)
                .service(routes::matches::abort)
                .service(routes::history::match_events)
                .service(routes::history::deal_record)
                .service(routes::history::deal_replay)
                .service(routes::history::export)
                .service(routes::stream::stream)
                .service(routes::stream::my_stream)
                // The replay viewer's page and assets (not API operations: not in the document).
                .service(routes::replay::asset)
                .service(routes::replay::page)
                .app_data(document.clone())
                .route("/openapi.json", web::get().to(openapi_document))
                .service(SwaggerUi::new("/docs/{_:.*}").config(utoipa_swagger_ui::Config::from("/openapi.json")))
                .route(
                    "/docs",
                    web::get().to(|| async { HttpResponse::Found().insert_header(("Location", "/docs/")).finish() }),
                )
                .default_service(web::to(not_found))
        };
        let server = serve(listener, app).map_err(|e| e.to_string())?;
        let summarising = sweeping.clone();
        actix_web::rt::spawn(async move {
            match commands::summarise_old_matches(&summarising).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(matches = n, "wrote the list summaries of matches that had none"),
                Err(e) => tracing::warn!(error = %e, "could not write the list summaries of older matches"),
            }
        });
        if let Some(every) = settings.deadline_sweep {
            let waiting_ttl = settings.waiting_ttl;
            actix_web::rt::spawn(async move {
                loop {
                    actix_web::rt::time::sleep(every).await;
                    if let Err(e) = commands::sweep_deadlines(&sweeping).await {
                        tracing::warn!(error = %e, "the sweep for overdue turns failed; it runs again shortly");
                    }
                    if let Err(e) = commands::sweep_waiting(&sweeping, waiting_ttl).await {
                        tracing::warn!(error = %e, "the sweep for expired waiting matches failed; it runs again shortly");
                    }
                }
            });
        }
        Ok(Application { port, server })
    }
}

/// What `HttpServer::listen(..).shutdown_timeout(30).run()` does, with each connection wrapped
/// (`wire::Wire`) so that a request actix-http cannot parse is refused with a problem document.
/// HTTP/1.1 only, as the deployed build always was; the settings are `HttpServer`'s defaults.
fn serve<F, T, B>(listener: TcpListener, app: F) -> std::io::Result<Server>
where
    F: Fn() -> App<T> + Send + Clone + 'static,
    T: actix_web::dev::ServiceFactory<
            actix_web::dev::ServiceRequest,
            Config = (),
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
            InitError = (),
        > + 'static,
    B: actix_web::body::MessageBody + 'static,
{
    use actix_service::ServiceFactoryExt;
    let builder = actix_server::Server::build();
    let shutdown = builder.graceful_shutdown_signal();
    let local = listener.local_addr()?;
    let server = builder
        .listen("kortbord", listener, move || {
            let shutdown = shutdown.clone();
            let http = actix_http::HttpService::build()
                .graceful_shutdown_signal(move || {
                    let signal = shutdown.clone();
                    async move { signal.notified().await }
                })
                .keep_alive(actix_http::KeepAlive::default())
                .client_request_timeout(std::time::Duration::from_secs(5))
                .client_disconnect_timeout(std::time::Duration::from_secs(1))
                .h1_allow_half_closed(true)
                .local_addr(local)
                .h1(actix_service::map_config(app(), |_| actix_web::dev::AppConfig::default()));
            actix_service::fn_service(|io: actix_web::rt::net::TcpStream| async move {
                let peer = io.peer_addr().ok();
                Ok::<_, actix_http::error::DispatchError>((wire::Wire::new(io), peer))
            })
            .and_then(http)
        })?
        .shutdown_timeout(30)
        .run();
    Ok(server)
}

/// Bodies are small: a move is a few dozen bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

fn json_config() -> web::JsonConfig {
    web::JsonConfig::default().limit(BODY_LIMIT).error_handler(|err, _req| {
        use actix_web::error::JsonPayloadError;
        let e = match &err {
            JsonPayloadError::ContentType => ApiError::new(
                actix_web::http::StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported-media-type",
                "Unsupported media type",
                "send the body as application/json",
            ),
            JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => ApiError::new(
                actix_web::http::StatusCode::PAYLOAD_TOO_LARGE,
                "body-too-large",
                "Body too large",
                format!("bodies are at most {BODY_LIMIT} bytes"),
            ),
            JsonPayloadError::Deserialize(e) if e.to_string().starts_with(http::DUPLICATE_KEY) => {
                ApiError::bad_request("duplicate-key", format!("the body names a key twice: {e}"))
            }
            JsonPayloadError::Deserialize(e) if e.is_data() => ApiError::unprocessable("invalid-body", e.to_string()),
            other => ApiError::bad_request("malformed-json", format!("the body is not valid JSON: {other}")),
        };
        e.into()
    })
}

fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err, _req| {
        let detail = format!("no such resource: {err}");
        ApiError::new(actix_web::http::StatusCode::NOT_FOUND, "not-found", "Not found", detail).into()
    })
}

fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, _req| {
        ApiError::bad_request("invalid-query", format!("the query string is not valid: {err}")).into()
    })
}

/// The methods each documented path takes, read off the API document so they cannot drift.
struct MethodsByPath(std::collections::HashMap<String, Vec<String>>);

impl MethodsByPath {
    fn from(doc: &utoipa::openapi::OpenApi) -> MethodsByPath {
        let value = serde_json::to_value(doc).unwrap_or_default();
        let paths = value["paths"].as_object().cloned().unwrap_or_default();
        let known = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
        MethodsByPath(
            paths
                .into_iter()
                .map(|(path, item)| {
                    let methods = known.iter().filter(|m| item.get(**m).is_some()).map(|m| m.to_uppercase()).collect();
                    (path, methods)
                })
                .collect(),
        )
    }
}

/// Gives every allocation of 8 KiB or more pages of its own (glibc's mmap threshold; by default
/// 128 KiB and rising), so that the pages of it never written are never backed. Each connection
/// holds an 8 KiB read and an 8 KiB write buffer (fixed in actix-http), and an idle event stream
/// writes a few hundred bytes into each: mapped, a buffer costs the one page written; carved from
/// a heap, it mostly lands on pages used before and costs them all (25 MiB at 10,000 streams).
/// The price is two mappings made and unmade per connection; requests rarely allocate that much
/// (once in 30 moves under `scripts/load`). Called first, before the buffers are allocated.
pub fn map_large_allocations() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets a tuning parameter of the allocator; it touches no allocation.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 8 * 1024);
    }
}

/// Hands freed heap pages back to the system, once, as the node starts: building the app (the
/// OpenAPI document above, the migrations) leaves megabytes freed in the main thread's heap,
/// which the workers, allocating from their own arenas, never reuse. A node holding 10,000 idle
/// streams is that much larger without it.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns whole free pages to the kernel; it touches no live allocation.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The OpenAPI document, as committed in `openapi/openapi.json` (compact).
async fn openapi_document(document: web::Data<web::Bytes>) -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(document.get_ref().clone())
}

/// A path no resource has: 404. A resource asked with a method it does not take: 405 with the
/// methods it does take in `Allow`.
async fn not_found(req: HttpRequest, methods: web::Data<MethodsByPath>) -> Result<HttpResponse, ApiError> {
    let allowed = req.match_pattern().and_then(|pattern| methods.0.get(&pattern).cloned());
    match allowed {
        Some(allowed) if !allowed.is_empty() => {
            let allow = allowed.join(", ");
            let mut response = actix_web::ResponseError::error_response(&ApiError::new(
                actix_web::http::StatusCode::METHOD_NOT_ALLOWED,
                "method-not-allowed",
                "Method not allowed",
                format!("{} takes {allow}, not {}", req.path(), req.method()),
            ));
            if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&allow) {
                response.headers_mut().insert(actix_web::http::header::ALLOW, value);
            }
            Ok(response)
        }
        _ => Err(ApiError::not_found(&format!("{} {}", req.method(), req.path()))),
    }
}

#[cfg(test)]
mod tests {
    use actix_web::{test, web, App};

    use super::*;

    /// `POST /v1/auth/guest` takes no body, or a valid one: a body it cannot read is refused, not
    /// silently replaced by the default name.
    #[actix_web::test]
    async fn guest_bodies_are_optional_but_checked_when_sent() {
        let app = test::init_service(
            App::new()
                .app_data(web::Data::new(Keys::new("0123456789abcdef0123", 60)))
                .app_data(json_config())
                .service(routes::auth::guest),
        )
        .await;
        // (content type and body sent, status expected, name expected)
        type Case<'a> = (Option<(&'a str, &'a str)>, u16, Option<&'a str>);
        let cases: [Case; 7] = [
            (None, 201, Some("Guest")),
            (Some(("application/json", "")), 201, Some("Guest")),
            (Some(("application/json", "null")), 201, Some("Guest")),
            (Some(("application/json", r#"{"name":"Ada"}"#)), 201, Some("Ada")),
            (Some(("application/json", r#"{"name":"Ada","admin":true}"#)), 422, None),
            (Some(("application/json", "{bad")), 400, None),
            (Some(("text/plain", r#"{"name":"Ada"}"#)), 415, None),
        ];
        for (body, status, name) in cases {
            let mut req = test::TestRequest::post().uri("/v1/auth/guest");
            if let Some((content_type, text)) = body {
                req = req.insert_header(("content-type", content_type)).set_payload(text.to_string());
            }
            let response = test::call_service(&app, req.to_request()).await;
            assert_eq!(response.status().as_u16(), status, "{body:?}");
            let json: serde_json::Value = test::read_body_json(response).await;
            if let Some(name) = name {
                assert_eq!(json["name"], name, "{body:?}");
            } else {
                assert!(json["code"].is_string(), "a problem document for {body:?}: {json}");
            }
        }
    }
}
