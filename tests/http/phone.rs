//! What a phone app still lacked (issue 44): each test fails on the service as the issue found it.

use std::io::{Read, Write};
use std::time::Duration;

use serde_json::{json, Value};

use kortbord_e2e::{spawn_app, TestApp};

fn header<'a>(reply: &'a kortbord_e2e::Reply, name: &str) -> &'a str {
    reply.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// A Plump match of Ada's with two bots, dealt and waiting for her.
async fn plump(app: &TestApp) -> (String, String) {
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    (token, created["id"].as_str().unwrap().to_string())
}

/// A key named twice in a body is refused, at any depth, before anything happens: a reader that
/// kept the last (`"dry_run":true,"dry_run":false`) played for real what was sent as a dry run.
#[actix_web::test]
async fn a_body_that_names_a_key_twice_is_refused_and_plays_nothing() {
    let app = spawn_app().await;
    let (token, id) = plump(&app).await;
    let before = app.event_count(&id).await;
    let first = app.legal_moves(&token, &id, 0).await[0].to_string();
    let moves = format!("/v1/matches/{id}/moves");
    let bodies = [
        format!(r#"{{"move":{first},"dry_run":true,"dry_run":false}}"#),
        format!(r#"{{"dry_run":false,"move":{first},"dry_run":true}}"#),
        format!(r#"{{"move":{first},"move":{first}}}"#),
        r#"{"move":{"type":"bid","tricks":0,"tricks":1}}"#.to_string(),
    ];
    for body in &bodies {
        let r = app.post(&moves).token(&token).raw(body.as_bytes(), "application/json").send().await;
        r.assert_problem(400, "duplicate-key");
        assert!(r.body["detail"].as_str().unwrap().contains("twice"), "{}", r.body);
    }
    assert_eq!(app.event_count(&id).await, before, "nothing was recorded");
    let guest = app.post("/v1/auth/guest").raw(br#"{"name":"Ada","name":"Bo"}"#, "application/json").send().await;
    guest.assert_problem(400, "duplicate-key");
    let create = br#"{"game":"plump","game":"spader","seats":[{"kind":"me"},{"kind":"bot"},{"kind":"bot"}]}"#;
    app.post("/v1/matches")
        .token(&token)
        .raw(create, "application/json")
        .send()
        .await
        .assert_problem(400, "duplicate-key");
    // The same keys in different objects are no repeat.
    let fine = format!(r#"{{"move":{first},"dry_run":true}}"#);
    let r = app.post(&moves).token(&token).raw(fine.as_bytes(), "application/json").send().await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    assert_eq!(r.body["legal"], true);
}

/// Sends raw bytes and reads the answer until the server closes the connection (on a thread of
/// its own: the test's runtime serves the app too).
async fn raw_exchange(app: &TestApp, request: &[u8]) -> (u16, String, Value) {
    let address = app.address.trim_start_matches("http://").to_string();
    let request = request.to_vec();
    actix_web::rt::task::spawn_blocking(move || raw_exchange_blocking(&address, &request)).await.unwrap()
}

fn raw_exchange_blocking(address: &str, request: &[u8]) -> (u16, String, Value) {
    let mut socket = std::net::TcpStream::connect(address).expect("the service listens");
    socket.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    socket.write_all(request).unwrap();
    let mut answer = Vec::new();
    let _ = socket.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.to_ascii_lowercase(), serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A NUL or another control byte in a header is refused by the HTTP parser before the service
/// sees the request; the refusal is a problem document all the same.
#[actix_web::test]
async fn a_control_byte_in_a_header_gets_a_problem_document() {
    let app = spawn_app().await;
    for bad in [&b"a\x00b"[..], b"\x01", b"x\x7fy", b"a\x1bb"] {
        for name in ["X-Anything", "Authorization", "Accept"] {
            let mut request = format!("GET /v1/games HTTP/1.1\r\nHost: localhost\r\n{name}: ").into_bytes();
            request.extend_from_slice(bad);
            request.extend_from_slice(b"\r\n\r\n");
            let (status, head, body) = raw_exchange(&app, &request).await;
            assert_eq!(status, 400, "{name}: {bad:?}: {head}");
            assert!(head.contains("content-type: application/problem+json"), "{head}");
            assert!(head.contains("x-request-id: "), "{head}");
            assert_eq!(body["code"], "malformed-request", "{body}");
            assert_eq!(body["status"], 400);
            assert!(body["title"].is_string() && body["detail"].is_string() && body["request_id"].is_string());
        }
    }
    // A request before the bad one on the same connection is answered as usual.
    let mut two = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec();
    two.extend_from_slice(b"GET /v1/games HTTP/1.1\r\nHost: localhost\r\nX-A: \x00\r\n\r\n");
    let (status, head, _) = raw_exchange(&app, &two).await;
    assert_eq!(status, 200, "{head}");
    // The service is unharmed.
    let r = app.get("/v1/games").send().await;
    assert_eq!(r.status.as_u16(), 200);
}

/// The export sends an ETag, and takes it back: 304 while the match is unchanged for the viewer.
#[actix_web::test]
async fn the_export_honours_if_none_match() {
    let app = spawn_app().await;
    let (token, id) = plump(&app).await;
    let export = format!("/v1/matches/{id}/export");
    let first = app.get(&export).token(&token).send().await;
    assert_eq!(first.status.as_u16(), 200);
    let tag = first.etag.clone().expect("an ETag");
    assert!(tag.ends_with(".seat-0\""), "{tag}");
    let again = app.get(&export).token(&token).header("If-None-Match", &tag).send().await;
    assert_eq!(again.status.as_u16(), 304, "{}", again.body);
    assert_eq!(again.etag.as_deref(), Some(tag.as_str()));
    assert_eq!(header(&again, "cache-control"), "private");
    let weak = app.get(&export).token(&token).header("If-None-Match", &format!("\"x\", W/{tag}")).send().await;
    assert_eq!(weak.status.as_u16(), 304);
    // A spectator's copy is another tag.
    let spectator = app.get(&export).header("If-None-Match", &tag).send().await;
    assert_eq!(spectator.status.as_u16(), 200);
    // After a move, the export is new.
    let command = app.legal_moves(&token, &id, 0).await[0].clone();
    assert_eq!(app.play(&token, &id, 0, &command).await.status.as_u16(), 200);
    let moved = app.get(&export).token(&token).header("If-None-Match", &tag).send().await;
    assert_eq!(moved.status.as_u16(), 200);
    assert_ne!(moved.etag, Some(tag));
}

/// A PostgreSQL server with no connection left for the pool: the node does not start, and says
/// which setting to lower. (A role's own connection limit stands in for the server's
/// `max_connections`, which the other tests share; superusers are exempt from it.)
#[actix_web::test]
async fn a_server_out_of_connections_names_the_pool_setting() {
    use diesel::connection::SimpleConnection;
    use diesel::Connection;
    let name = format!("kortbord_test_{}", uuid::Uuid::new_v4().simple());
    let admin_url = kortbord_e2e::with_database(&kortbord_e2e::server_url(), "postgres");
    let mut admin = diesel::PgConnection::establish(&admin_url).expect("the test server");
    admin.batch_execute(&format!("CREATE ROLE \"{name}\" LOGIN CONNECTION LIMIT 1")).unwrap();
    admin.batch_execute(&format!("CREATE DATABASE \"{name}\" OWNER \"{name}\"")).unwrap();
    let unlimited = api::ratelimit::Limit { per_second: 1e6, burst: 1e6 };
    let mut settings = kortbord_e2e::settings(
        &name,
        api::ratelimit::Limits { moves: unlimited, creations: unlimited, tokens: unlimited },
    );
    settings.database_url = settings.database_url.replacen("://postgres@", &format!("://{name}@"), 1);
    assert!(settings.database_url.contains(&name), "{}", settings.database_url);
    let built = api::Application::build(&settings);
    admin.batch_execute(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)")).unwrap();
    admin.batch_execute(&format!("DROP ROLE IF EXISTS \"{name}\"")).unwrap();
    let error = built.err().expect("no node starts without connections");
    assert!(error.contains("too many connections"), "{error}");
    assert!(error.contains("lower KORTBORD_DB_POOL"), "{error}");
}
