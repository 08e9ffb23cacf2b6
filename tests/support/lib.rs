//! Test support: the service started on a random port against a fresh database, and a small
//! HTTP client around it.

use std::time::Duration;

use actix_web::http::StatusCode;
use diesel::connection::SimpleConnection;
use diesel::{Connection, PgConnection};
use serde_json::{json, Value};

pub use api::db::with_database;

pub const JWT_SECRET: &str = "test-secret-that-is-long-enough";

/// A token signed with `secret` for `player` (named `name`), valid from `nbf` to `exp` (Unix
/// seconds): ours when `secret` is [`JWT_SECRET`], an attacker's otherwise.
pub fn signed_token(secret: &[u8], player: uuid::Uuid, name: &str, nbf: u64, exp: u64) -> String {
    let claims = json!({ "sub": player, "name": name, "iss": "kortbord", "iat": nbf, "nbf": nbf, "exp": exp });
    jsonwebtoken::encode(&jsonwebtoken::Header::default(), &claims, &jsonwebtoken::EncodingKey::from_secret(secret))
        .expect("HS256 signing cannot fail")
}

/// The PostgreSQL server the tests use, without TLS unless the URL asks for it: the test process
/// exits with the apps' pool and batch threads still holding connections, and OpenSSL's exit-time
/// cleanup under a TLS connection in use crashed it now and then (SIGSEGV, or glibc's
/// "corrupted double-linked list") after every test had passed.
pub fn server_url() -> String {
    let url = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    if url.contains("sslmode=") {
        url
    } else if url.contains('?') {
        format!("{url}&sslmode=disable")
    } else {
        format!("{url}?sslmode=disable")
    }
}

pub struct TestApp {
    pub address: String,
    pub db_name: String,
    pub database_url: String,
    pub client: awc::Client,
    /// The first node drops the database when it goes; other nodes on it do not.
    owns_database: bool,
}

/// Starts the whole service, built by the same function `main` uses, on a free port with its
/// own new database.
pub async fn spawn_app() -> TestApp {
    // Tests play whole matches as fast as they can: no limit worth the name.
    let unlimited = api::ratelimit::Limit { per_second: 1e6, burst: 1e6 };
    spawn_app_with(api::ratelimit::Limits { moves: unlimited, creations: unlimited, tokens: unlimited }).await
}

/// `spawn_app` with no sweep for overdue turns: a node that leaves deadlines to other nodes.
pub async fn spawn_app_without_sweep() -> TestApp {
    let db_name = format!("kortbord_test_{}", uuid::Uuid::new_v4().simple());
    let unlimited = api::ratelimit::Limit { per_second: 1e6, burst: 1e6 };
    let mut settings =
        settings(&db_name, api::ratelimit::Limits { moves: unlimited, creations: unlimited, tokens: unlimited });
    settings.deadline_sweep = None;
    start(settings, db_name, true)
}

/// `spawn_app` with its settings changed by `change` first.
pub async fn spawn_app_configured(change: impl FnOnce(&mut api::config::Settings)) -> TestApp {
    let db_name = format!("kortbord_test_{}", uuid::Uuid::new_v4().simple());
    let unlimited = api::ratelimit::Limit { per_second: 1e6, burst: 1e6 };
    let mut settings =
        settings(&db_name, api::ratelimit::Limits { moves: unlimited, creations: unlimited, tokens: unlimited });
    change(&mut settings);
    start(settings, db_name, true)
}

pub async fn spawn_app_with(rate_limits: api::ratelimit::Limits) -> TestApp {
    let db_name = format!("kortbord_test_{}", uuid::Uuid::new_v4().simple());
    start_node(db_name, rate_limits, true).await
}

impl TestApp {
    /// Another service process on the same database, as in a deployment with several nodes.
    pub async fn another_node(&self) -> TestApp {
        let unlimited = api::ratelimit::Limit { per_second: 1e6, burst: 1e6 };
        start_node(
            self.db_name.clone(),
            api::ratelimit::Limits { moves: unlimited, creations: unlimited, tokens: unlimited },
            false,
        )
        .await
    }

    /// `another_node` with its settings changed by `change` first.
    pub async fn another_node_configured(&self, change: impl FnOnce(&mut api::config::Settings)) -> TestApp {
        let unlimited = api::ratelimit::Limit { per_second: 1e6, burst: 1e6 };
        let mut settings = settings(
            &self.db_name,
            api::ratelimit::Limits { moves: unlimited, creations: unlimited, tokens: unlimited },
        );
        change(&mut settings);
        start(settings, self.db_name.clone(), false)
    }
}

/// The service on a new database of the PostgreSQL server at `server` (a server-level URL, e.g.
/// through a proxy), waiting at most `checkout` for a connection and `statement` for a statement.
pub async fn spawn_app_via(server: &str, checkout: Duration, statement: Duration) -> TestApp {
    let db_name = format!("kortbord_test_{}", uuid::Uuid::new_v4().simple());
    let unlimited = api::ratelimit::Limit { per_second: 1e6, burst: 1e6 };
    let mut settings =
        settings(&db_name, api::ratelimit::Limits { moves: unlimited, creations: unlimited, tokens: unlimited });
    settings.database_url = with_database(server, &db_name);
    settings.db_checkout_timeout = checkout;
    settings.db_statement_timeout = statement;
    start(settings, db_name, true)
}

async fn start_node(db_name: String, rate_limits: api::ratelimit::Limits, owns_database: bool) -> TestApp {
    start(settings(&db_name, rate_limits), db_name, owns_database)
}

/// The settings the tests start a node with, on database `db_name` of the test server.
pub fn settings(db_name: &str, rate_limits: api::ratelimit::Limits) -> api::config::Settings {
    api::config::Settings {
        host: "127.0.0.1".into(),
        port: 0,
        database_url: with_database(&server_url(), db_name),
        replica_url: None,
        jwt_secret: JWT_SECRET.into(),
        token_ttl_secs: 3600,
        pool_size: 8,
        db_checkout_timeout: api::db::CHECKOUT_TIMEOUT,
        db_statement_timeout: api::db::STATEMENT_TIMEOUT,
        db_threads: 2,
        db_batch: api::batch::MAX_BATCH,
        rate_limits,
        token_renew_window_secs: api::auth::RENEW_WINDOW_SECS,
        cors: api::http::Cors::parse("*").expect("a valid setting"),
        deadline_sweep: Some(Duration::from_millis(200)),
        stream_limits: api::live::StreamLimits::default(),
        waiting_ttl: Duration::from_secs(24 * 3600),
    }
}

fn start(settings: api::config::Settings, db_name: String, owns_database: bool) -> TestApp {
    let database_url = settings.database_url.clone();
    let app = api::Application::build(&settings).expect("the service starts");
    let address = format!("http://127.0.0.1:{}", app.port);
    actix_web::rt::spawn(app.server);
    let client = awc::Client::builder().timeout(Duration::from_secs(60)).finish();
    TestApp { address, db_name, database_url, client, owns_database }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if !self.owns_database {
            return;
        }
        if let Ok(mut admin) = PgConnection::establish(&with_database(&server_url(), "postgres")) {
            let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.db_name));
        }
    }
}

/// A response, read whole.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub content_type: String,
    pub etag: Option<String>,
    pub headers: actix_web::http::header::HeaderMap,
    pub body: Value,
}

impl Reply {
    /// Asserts an RFC 9457 problem with this status and code.
    pub fn assert_problem(&self, status: u16, code: &str) {
        assert_eq!(self.status.as_u16(), status, "unexpected status, body: {}", self.body);
        assert_eq!(self.content_type, "application/problem+json", "body: {}", self.body);
        assert_eq!(self.body["code"], code, "body: {}", self.body);
        assert_eq!(self.body["status"], status);
        assert!(self.body["title"].is_string() && self.body["detail"].is_string());
    }
}

pub struct Request<'a> {
    app: &'a TestApp,
    method: actix_web::http::Method,
    path: String,
    token: Option<String>,
    headers: Vec<(String, String)>,
    body: Option<Vec<u8>>,
    content_type: Option<String>,
}

impl<'a> Request<'a> {
    pub fn token(mut self, token: &str) -> Self {
        self.token = Some(token.to_string());
        self
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    pub fn json(mut self, body: &Value) -> Self {
        self.body = Some(body.to_string().into_bytes());
        self.content_type = Some("application/json".into());
        self
    }

    pub fn raw(mut self, body: &[u8], content_type: &str) -> Self {
        self.body = Some(body.to_vec());
        self.content_type = Some(content_type.into());
        self
    }

    pub async fn send(self) -> Reply {
        let url = format!("{}{}", self.app.address, self.path);
        let mut req = self.app.client.request(self.method, url);
        if let Some(t) = &self.token {
            req = req.insert_header(("Authorization", format!("Bearer {t}")));
        }
        for (n, v) in &self.headers {
            req = req.insert_header((n.as_str(), v.as_str()));
        }
        if let Some(ct) = &self.content_type {
            req = req.insert_header(("Content-Type", ct.as_str()));
        }
        let mut response = match self.body {
            Some(b) => req.send_body(b).await,
            None => req.send().await,
        }
        .expect("the service answers");
        let bytes = response.body().limit(64 * 1024 * 1024).await.expect("a body");
        let content_type =
            response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()))
        };
        Reply {
            status: response.status(),
            content_type,
            etag: response.headers().get("etag").and_then(|v| v.to_str().ok()).map(str::to_string),
            headers: response.headers().clone(),
            body,
        }
    }
}

impl TestApp {
    pub fn request(&self, method: actix_web::http::Method, path: &str) -> Request<'_> {
        Request {
            app: self,
            method,
            path: path.to_string(),
            token: None,
            headers: Vec::new(),
            body: None,
            content_type: None,
        }
    }

    pub fn get(&self, path: &str) -> Request<'_> {
        self.request(actix_web::http::Method::GET, path)
    }

    pub fn post(&self, path: &str) -> Request<'_> {
        self.request(actix_web::http::Method::POST, path)
    }

    /// A game the catalog lists as planned (not yet playable), if any is left: the tests of
    /// what the service answers for one take it from the catalog, since games keep landing.
    pub async fn planned_game(&self) -> Option<String> {
        let r = self.get("/v1/games").send().await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        let games = r.body.as_array().expect("a list of games");
        games.iter().find(|g| g["status"] == "planned").and_then(|g| g["id"].as_str()).map(str::to_string)
    }

    /// A guest token and player id.
    pub async fn guest(&self, name: &str) -> (String, String) {
        let r = self.post("/v1/auth/guest").json(&json!({ "name": name })).send().await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        (r.body["token"].as_str().unwrap().to_string(), r.body["player_id"].as_str().unwrap().to_string())
    }

    pub async fn create_match(&self, token: &str, body: Value) -> Value {
        let r = self.post("/v1/matches").token(token).json(&body).send().await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        r.body
    }

    pub async fn view(&self, token: &str, id: &str, seat: Option<usize>) -> Value {
        let path = match seat {
            Some(s) => format!("/v1/matches/{id}?seat={s}"),
            None => format!("/v1/matches/{id}"),
        };
        let r = self.get(&path).token(token).send().await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        r.body
    }

    pub async fn legal_moves(&self, token: &str, id: &str, seat: usize) -> Vec<Value> {
        let r = self.get(&format!("/v1/matches/{id}/legal-moves?seat={seat}")).token(token).send().await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        r.body["moves"].as_array().unwrap().clone()
    }

    pub async fn play(&self, token: &str, id: &str, seat: usize, command: &Value) -> Reply {
        self.post(&format!("/v1/matches/{id}/moves"))
            .token(token)
            .header("Idempotency-Key", &uuid::Uuid::new_v4().to_string())
            .json(&json!({ "seat": seat, "move": command }))
            .send()
            .await
    }

    pub async fn event_count(&self, id: &str) -> usize {
        let r = self.get(&format!("/v1/matches/{id}/events?limit=1000")).send().await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        let mut n = r.body["events"].as_array().unwrap().len();
        let mut since = r.body["events"].as_array().unwrap().last().map_or(0, |e| e["seq"].as_i64().unwrap());
        while n > 0 && n % 1000 == 0 {
            let r = self.get(&format!("/v1/matches/{id}/events?limit=1000&since={since}")).send().await;
            let page = r.body["events"].as_array().unwrap();
            if page.is_empty() {
                break;
            }
            n += page.len();
            since = page.last().unwrap()["seq"].as_i64().unwrap();
        }
        n
    }
}

/// Every card code in a JSON value.
pub fn cards_in(value: &Value) -> Vec<String> {
    engine::game::cards_in(value).into_iter().map(|c| c.to_string()).collect()
}
