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

fn time(text: &Value) -> chrono::DateTime<chrono::FixedOffset> {
    chrono::DateTime::parse_from_rfc3339(text.as_str().unwrap_or("")).unwrap_or_else(|_| panic!("RFC 3339: {text}"))
}

/// A token's expiry in RFC 3339 beside the Unix seconds, in what minting, renewing and `/v1/me`
/// answer.
#[actix_web::test]
async fn a_tokens_expiry_is_also_an_rfc_3339_time() {
    let app = spawn_app().await;
    let minted = app.post("/v1/auth/guest").json(&json!({ "name": "Ada" })).send().await;
    let token = minted.body["token"].as_str().unwrap().to_string();
    let renewed = app.post("/v1/auth/renew").token(&token).send().await;
    let me = app.get("/v1/me").token(&token).send().await;
    for body in [&minted.body, &renewed.body, &me.body] {
        let at = time(&body["expires_at_rfc3339"]);
        assert_eq!(at.timestamp(), body["expires_at"].as_i64().unwrap(), "{body}");
        assert!(body["expires_at_rfc3339"].as_str().unwrap().ends_with('Z'), "{body}");
    }
}

/// The answers that count against a rate limit say where the caller stands with it, in the
/// IETF `RateLimit` and `RateLimit-Policy` fields, the 429 too; others say nothing of it.
#[actix_web::test]
async fn answers_that_count_against_a_limit_carry_ratelimit_fields() {
    let unlimited = api::ratelimit::Limit { per_second: 1e6, burst: 1e6 };
    let moves = api::ratelimit::Limit { per_second: 1.0, burst: 3.0 };
    let app = kortbord_e2e::spawn_app_with(api::ratelimit::Limits {
        moves,
        creations: api::ratelimit::Limit { per_second: 0.5, burst: 10.0 },
        tokens: unlimited,
    })
    .await;
    let minted = app.post("/v1/auth/guest").json(&json!({ "name": "Ada" })).send().await;
    assert!(header(&minted, "ratelimit-policy").starts_with("\"tokens\";q=1000000;w="), "{:?}", minted.headers);
    let token = minted.body["token"].as_str().unwrap().to_string();
    let created = app
        .post("/v1/matches")
        .token(&token)
        .json(&json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .send()
        .await;
    assert_eq!(header(&created, "ratelimit-policy"), "\"matches\";q=10;w=20");
    assert_eq!(header(&created, "ratelimit"), "\"matches\";r=9;t=2");
    let id = created.body["id"].as_str().unwrap().to_string();
    let path = format!("/v1/matches/{id}/moves");
    let dry = |n: u64| json!({ "move": {"type": "bid", "tricks": n}, "dry_run": true });
    let first = app.post(&path).token(&token).json(&dry(0)).send().await;
    assert_eq!(first.status.as_u16(), 200, "{}", first.body);
    assert_eq!(header(&first, "ratelimit-policy"), "\"moves\";q=3;w=3");
    assert_eq!(header(&first, "ratelimit"), "\"moves\";r=2;t=1");
    app.post(&path).token(&token).json(&dry(0)).send().await;
    app.post(&path).token(&token).json(&dry(0)).send().await;
    let refused = app.post(&path).token(&token).json(&dry(0)).send().await;
    refused.assert_problem(429, "rate-limited");
    assert_eq!(header(&refused, "ratelimit"), "\"moves\";r=0;t=3");
    assert!(!header(&refused, "retry-after").is_empty());
    // Reads count against nothing.
    let read = app.get(&format!("/v1/matches/{id}")).token(&token).send().await;
    assert!(read.headers.get("ratelimit").is_none());
    // Browsers may read them.
    let cors = app.get("/v1/games").header("Origin", "https://app.example").send().await;
    assert!(header(&cors, "access-control-expose-headers").contains("RateLimit-Policy"));
}

/// The ETag of an answer to a write is the one a read of the same view sends: sent back as
/// `If-None-Match`, it is current; as `If-Match`, it names the version.
#[actix_web::test]
async fn writes_and_reads_spell_the_etag_alike() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .post("/v1/matches")
        .token(&token)
        .json(&json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .send()
        .await;
    let id = created.body["id"].as_str().unwrap().to_string();
    let read = app.get(&format!("/v1/matches/{id}")).token(&token).send().await;
    assert_eq!(created.etag, read.etag);
    let command = app.legal_moves(&token, &id, 0).await[0].clone();
    let moved = app
        .post(&format!("/v1/matches/{id}/moves"))
        .token(&token)
        .header("If-Match", read.etag.as_deref().unwrap())
        .json(&json!({ "move": command }))
        .send()
        .await;
    assert_eq!(moved.status.as_u16(), 200, "{}", moved.body);
    let tag = moved.etag.clone().unwrap();
    assert_eq!(tag, format!("\"{}.seat-0\"", moved.body["version"]));
    let again = app.get(&format!("/v1/matches/{id}")).token(&token).header("If-None-Match", &tag).send().await;
    assert_eq!(again.status.as_u16(), 304);
    // Taking a seat answers with the seat's tag too.
    let (bo, _) = app.guest("Bo").await;
    let open = app
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}] }))
        .await;
    let open_id = open["id"].as_str().unwrap();
    let joined = app.post(&format!("/v1/matches/{open_id}/seats/1/join")).token(&bo).send().await;
    assert_eq!(joined.etag, Some(format!("\"{}.seat-1\"", joined.body["version"])));
}

/// A move's answer may carry the next legal moves, saving the request an app makes after each.
#[actix_web::test]
async fn a_moves_answer_includes_the_legal_moves_when_asked() {
    let app = spawn_app().await;
    let (token, id) = plump(&app).await;
    let command = app.legal_moves(&token, &id, 0).await[0].clone();
    let plain = app.play(&token, &id, 0, &command).await;
    assert!(plain.body.get("legal_moves").is_none(), "only when asked: {}", plain.body);
    let command = app.legal_moves(&token, &id, 0).await[0].clone();
    let r = app
        .post(&format!("/v1/matches/{id}/moves?include=legal_moves"))
        .token(&token)
        .header("Idempotency-Key", "k-1")
        .json(&json!({ "move": command }))
        .send()
        .await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    let asked = app.legal_moves(&token, &id, 0).await;
    assert_eq!(r.body["legal_moves"]["moves"], json!(asked));
    assert_eq!(r.body["legal_moves"]["version"], r.body["version"]);
    assert_eq!(r.body["legal_moves"]["game"], "plump");
    assert!(!asked.is_empty() || r.body["match"]["to_act"] != json!([0]));
    let bad = app
        .post(&format!("/v1/matches/{id}/moves?include=everything"))
        .token(&token)
        .json(&json!({"move": command}))
        .send()
        .await;
    bad.assert_problem(400, "invalid-query");
}

/// Lists filter by the `phase` values they show, and a finished match's entry says how it ended.
#[actix_web::test]
async fn lists_filter_by_phase_and_show_a_finished_matchs_outcome() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let seats = json!([{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]);
    let done = app.create_match(&token, json!({ "game": "plump", "seats": seats })).await;
    let done = done["id"].as_str().unwrap().to_string();
    let playing = app.create_match(&token, json!({ "game": "plump", "seats": seats })).await;
    let playing = playing["id"].as_str().unwrap().to_string();
    let (end, _) = crate::play::play_out(&app, &token, &done, crate::play::first_move).await;
    let finished = listed(&app, &token, "phase=finished").await;
    assert_eq!(finished["matches"].as_array().unwrap().len(), 1);
    assert_eq!(finished["matches"][0]["id"], json!(done));
    assert_eq!(finished["matches"][0]["outcome"], end["outcome"]);
    assert!(finished["matches"][0]["outcome"]["winners"].is_array());
    let in_play = listed(&app, &token, "phase=playing").await;
    assert_eq!(in_play["matches"][0]["id"], json!(playing));
    assert_eq!(in_play["matches"][0]["outcome"], Value::Null);
    assert_eq!(listed(&app, &token, "phase=playing&status=in-progress").await["matches"], in_play["matches"]);
    assert_eq!(listed(&app, &token, "status=finished").await["matches"], finished["matches"]);
    // Both filters apply: no match is both playing and finished.
    assert_eq!(listed(&app, &token, "phase=playing&status=finished").await["matches"], json!([]));
}

async fn listed(app: &TestApp, token: &str, query: &str) -> Value {
    let r = app.get(&format!("/v1/matches?player=me&{query}")).token(token).send().await;
    assert_eq!(r.status.as_u16(), 200, "{query}: {}", r.body);
    r.body
}

/// A problem for a Swedish reader is in Swedish, its detail too.
#[actix_web::test]
async fn a_swedish_problems_detail_is_in_swedish() {
    let app = spawn_app().await;
    let missing = "/v1/matches/00000000-0000-0000-0000-000000000000";
    let r = app.get(missing).header("Accept-Language", "sv").send().await;
    r.assert_problem(404, "not-found");
    assert_eq!(r.body["detail"], "Det som efterfrågas finns inte.");
    let english = app.get(missing).send().await;
    assert!(english.body["detail"].as_str().unwrap().contains("does not exist"), "{}", english.body);
    let r = app.post("/v1/matches").header("Accept-Language", "sv").json(&json!({})).send().await;
    r.assert_problem(401, "missing-token");
    assert!(r.body["detail"].as_str().unwrap().starts_with("Begäran kräver"), "{}", r.body);
    // A rule's own explanation stays the rule's, in Swedish.
    let (token, id) = plump(&app).await;
    let r = app
        .post(&format!("/v1/matches/{id}/moves"))
        .token(&token)
        .header("Accept-Language", "sv")
        .json(&json!({ "move": {"type": "bid", "tricks": 99} }))
        .send()
        .await;
    r.assert_problem(422, "rule-violation");
    assert_eq!(r.body["detail"], r.body["explanation"]["sv"]);
}

type Body =
    std::pin::Pin<Box<dyn futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>>>;

/// Opens `/v1/matches/{id}/stream`: the open body, or the refusal read whole.
async fn open_stream(app: &TestApp, id: &str, token: Option<&str>) -> Result<Body, (u16, String, Value)> {
    let mut request = app
        .client
        .get(format!("{}/v1/matches/{id}/stream", app.address))
        .insert_header(("Accept", "text/event-stream"));
    if let Some(token) = token {
        request = request.insert_header(("Authorization", format!("Bearer {token}")));
    }
    let mut response = request.send().await.expect("the service answers");
    if response.status().as_u16() == 200 {
        return Ok(Box::pin(response));
    }
    let retry = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let body = response.body().await.unwrap_or_default();
    Err((response.status().as_u16(), retry, serde_json::from_slice(&body).unwrap_or(Value::Null)))
}

/// Open streams are capped per client address (fewer without a token) and per player; past a
/// cap the answer is a 429 problem with `Retry-After`, and a closed stream frees its place.
#[actix_web::test]
async fn open_streams_are_capped_per_address_and_player() {
    let app = kortbord_e2e::spawn_app_configured(|s| {
        s.stream_limits = api::live::StreamLimits {
            per_address: 3,
            anonymous_per_address: 2,
            per_player: 1,
            backlog: 1000,
            retry_after: 7,
        };
    })
    .await;
    let (ada, id) = plump(&app).await;
    let (bo, _) = app.guest("Bo").await;
    let first = open_stream(&app, &id, None).await.expect("a spectator's stream");
    let _second = open_stream(&app, &id, None).await.expect("a second one");
    let (status, retry, body) = open_stream(&app, &id, None).await.err().expect("a third without a token is refused");
    assert_eq!((status, retry.as_str()), (429, "7"), "{body}");
    assert_eq!(body["code"], "too-many-streams");
    assert!(body["detail"].as_str().unwrap().contains("without a token"), "{body}");
    let _ada = open_stream(&app, &id, Some(&ada)).await.expect("with a token, within the address's cap");
    let (status, _, body) = open_stream(&app, &id, Some(&bo)).await.err().expect("the address's cap");
    assert_eq!((status, body["code"].as_str()), (429, Some("too-many-streams")));
    let (status, _, body) = open_stream(&app, &id, Some(&ada)).await.err().expect("one stream a player");
    assert_eq!((status, body["code"].as_str()), (429, Some("too-many-streams")));
    assert!(body["detail"].as_str().unwrap().contains("player"), "{body}");
    // (A closed stream frees its place when the node notices, at its next keep-alive at the
    // latest: `live::tests` checks the freeing.)
    drop(first);
}

/// A new stream reads a bounded backlog: asked to start further back, it says what it left out
/// and where to read it, then goes on from there.
#[actix_web::test]
async fn a_new_stream_reads_a_bounded_backlog() {
    use futures_util::StreamExt;
    let app = kortbord_e2e::spawn_app_configured(|s| s.stream_limits.backlog = 5).await;
    let (token, id) = plump(&app).await;
    for _ in 0..3 {
        let command = app.legal_moves(&token, &id, 0).await[0].clone();
        assert_eq!(app.play(&token, &id, 0, &command).await.status.as_u16(), 200);
    }
    let version = app.view(&token, &id, None).await["version"].as_i64().unwrap();
    assert!(version > 6, "{version}");
    let mut body = open_stream(&app, &id, Some(&token)).await.expect("the stream opens");
    // Bytes first: a chunk may end inside a Swedish letter.
    let mut bytes = Vec::new();
    let mut text = String::new();
    while text.matches("\nid: ").count() < 6 {
        let chunk = actix_web::rt::time::timeout(Duration::from_secs(10), body.next()).await.unwrap().unwrap().unwrap();
        bytes.extend_from_slice(&chunk);
        text = String::from_utf8_lossy(&bytes).into_owned();
    }
    let messages: Vec<&str> = text.split("\n\n").filter(|m| m.contains("id: ")).collect();
    let skipped = messages[0];
    assert!(skipped.starts_with("event: skipped\n"), "{text}");
    assert!(skipped.contains(&format!("\nid: {}\n", version - 5)), "{text}");
    let data: Value = serde_json::from_str(skipped.split("data: ").nth(1).unwrap()).unwrap();
    assert_eq!(data, json!({ "from": 1, "to": version - 5, "events": format!("/v1/matches/{id}/events?since=0") }));
    let ids: Vec<i64> = messages[1..6]
        .iter()
        .map(|m| m.lines().find_map(|l| l.strip_prefix("id: ")).unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids, ((version - 4)..=version).collect::<Vec<_>>());
}
