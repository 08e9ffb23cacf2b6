//! What apps rely on besides the schemas (issue #25): languages, conditional requests and
//! content negotiation.

use serde_json::json;

use kortbord_e2e::{signed_token, spawn_app, JWT_SECRET};

fn header<'a>(reply: &'a kortbord_e2e::Reply, name: &str) -> &'a str {
    reply.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// `Accept-Language` is read with its q-values, every problem's title is in the language chosen,
/// and the answer says which language it is in and that it depends on the header.
#[actix_web::test]
async fn problems_speak_the_language_asked_for_by_weight() {
    let app = spawn_app().await;
    let missing = "/v1/matches/00000000-0000-0000-0000-000000000000";
    let cases = [
        (None, "en", "Not found"),
        (Some("sv"), "sv", "Finns inte"),
        (Some("sv;q=0.1, en;q=0.9"), "en", "Not found"),
        (Some("en;q=0.2, sv-SE"), "sv", "Finns inte"),
        (Some("de, sv;q=0.5, en;q=0.4"), "sv", "Finns inte"),
        (Some("sv;q=0, en"), "en", "Not found"),
        (Some("fr"), "en", "Not found"),
    ];
    for (asked, language, title) in cases {
        let mut request = app.get(missing);
        if let Some(asked) = asked {
            request = request.header("Accept-Language", asked);
        }
        let r = request.send().await;
        r.assert_problem(404, "not-found");
        assert_eq!(r.body["title"], title, "{asked:?}");
        assert_eq!(header(&r, "content-language"), language, "{asked:?}");
        assert!(header(&r, "vary").contains("Accept-Language"), "{asked:?}: {:?}", r.headers);
    }
    // A title from deep inside a handler, not only a rule's: a malformed body.
    let r = app.post("/v1/auth/guest").header("Accept-Language", "sv").raw(b"{bad", "application/json").send().await;
    r.assert_problem(400, "malformed-json");
    assert_eq!(r.body["title"], "Felaktig begäran");
}

/// A seat's view and a spectator's carry different tags; `If-None-Match` takes lists, weak
/// tags and `*`, on the view, the legal moves and the events feed.
#[actix_web::test]
async fn each_viewer_has_its_own_tag_and_if_none_match_takes_lists() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]}))
        .await;
    let id = created["id"].as_str().unwrap();
    let path = format!("/v1/matches/{id}");
    let seat = app.get(&path).token(&token).send().await;
    let spectator = app.get(&path).send().await;
    let (seat_tag, spectator_tag) = (seat.etag.clone().unwrap(), spectator.etag.clone().unwrap());
    assert_ne!(seat_tag, spectator_tag, "a seat's view and a spectator's differ");
    for r in [&seat, &spectator] {
        assert_eq!(header(r, "cache-control"), "private");
        assert!(header(r, "vary").contains("Authorization"));
    }
    // The spectator's tag does not stand for the seat's view.
    let r = app.get(&path).token(&token).header("If-None-Match", &spectator_tag).send().await;
    assert_eq!(r.status.as_u16(), 200);
    assert!(r.body["table"]["hand"].is_array(), "the seat gets its hand: {}", r.body);
    for tags in [
        seat_tag.clone(),
        format!("W/{seat_tag}"),
        format!("\"nope\", {seat_tag}"),
        format!("{spectator_tag},W/{seat_tag}"),
        "*".to_string(),
    ] {
        let r = app.get(&path).token(&token).header("If-None-Match", &tags).send().await;
        assert_eq!(r.status.as_u16(), 304, "If-None-Match: {tags}");
        assert_eq!(r.etag.as_deref(), Some(seat_tag.as_str()));
    }
    // The legal moves and the events feed answer conditionally too.
    for feed in [format!("{path}/legal-moves"), format!("{path}/events")] {
        let first = app.get(&feed).token(&token).send().await;
        assert_eq!(first.status.as_u16(), 200, "{feed}");
        let tag = first.etag.clone().unwrap();
        let again = app.get(&feed).token(&token).header("If-None-Match", &format!("\"x\", W/{tag}")).send().await;
        assert_eq!(again.status.as_u16(), 304, "{feed}");
    }
    // The view's tag is also what a move's If-Match takes.
    let version = seat.body["version"].as_i64().unwrap();
    let moves = app.legal_moves(&token, id, 0).await;
    let r = app
        .post(&format!("{path}/moves"))
        .token(&token)
        .header("If-Match", &seat_tag)
        .json(&json!({"move": moves[0]}))
        .send()
        .await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    assert!(r.body["version"].as_i64().unwrap() > version);
    let stale = app
        .post(&format!("{path}/moves"))
        .token(&token)
        .header("If-Match", &seat_tag)
        .json(&json!({"move": moves[0]}))
        .send()
        .await;
    stale.assert_problem(412, "precondition-failed");
}

/// The service answers in JSON: a client that accepts only something else is told so, with a
/// problem document, before anything happens.
#[actix_web::test]
async fn an_accept_header_that_allows_no_json_is_refused() {
    let app = spawn_app().await;
    for accept in ["application/xml", "text/html", "application/json;q=0"] {
        let r = app.get("/v1/games").header("Accept", accept).send().await;
        r.assert_problem(406, "not-acceptable");
    }
    for accept in ["application/json", "*/*", "application/*", "text/html, application/json;q=0.5", ""] {
        let r = app.get("/v1/games").header("Accept", accept).send().await;
        assert_eq!(r.status.as_u16(), 200, "Accept: {accept}");
    }
    let metrics = app.get("/metrics").header("Accept", "text/plain").send().await;
    assert_eq!(metrics.status.as_u16(), 200);
    let (token, _) = app.guest("Bo").await;
    let r = app
        .post("/v1/matches")
        .token(&token)
        .header("Accept", "application/xml")
        .json(&json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]}))
        .send()
        .await;
    r.assert_problem(406, "not-acceptable");
}

/// A renewed token is the same player: the seats they hold stay theirs, even when the old token
/// had expired; one expired too long ago, or forged, is not renewed.
#[actix_web::test]
async fn a_renewed_token_keeps_the_player_and_their_seats() {
    let app = spawn_app().await;
    let (token, player) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]}))
        .await;
    let id = created["id"].as_str().unwrap();
    let me = app.get("/v1/me").token(&token).send().await;
    assert_eq!(me.status.as_u16(), 200);
    assert_eq!((me.body["player_id"].as_str(), me.body["name"].as_str()), (Some(player.as_str()), Some("Ada")));

    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let player_id: uuid::Uuid = player.parse().unwrap();
    let ours = |exp: u64| signed_token(JWT_SECRET.as_bytes(), player_id, "Ada", exp - 3600, exp);
    let expired = ours(now - 3 * 24 * 3600);
    app.get(&format!("/v1/matches/{id}/legal-moves")).token(&expired).send().await.assert_problem(401, "token-expired");
    let renewed = app.post("/v1/auth/renew").token(&expired).send().await;
    assert_eq!(renewed.status.as_u16(), 201, "{}", renewed.body);
    assert_eq!(renewed.body["player_id"].as_str(), Some(player.as_str()));
    assert_eq!(renewed.body["name"], "Ada");
    let fresh = renewed.body["token"].as_str().unwrap();
    let legal = app.get(&format!("/v1/matches/{id}/legal-moves")).token(fresh).send().await;
    assert_eq!(legal.status.as_u16(), 200, "the seat is still the player's: {}", legal.body);
    let view = app.get(&format!("/v1/matches/{id}")).token(fresh).send().await;
    assert_eq!(view.body["your_seats"], json!([0]));

    let ancient = ours(now - 31 * 24 * 3600);
    app.post("/v1/auth/renew").token(&ancient).send().await.assert_problem(401, "token-expired");
    let forged = signed_token(b"not-our-secret-at-all", player_id, "Ada", now, now + 60);
    app.post("/v1/auth/renew").token(&forged).send().await.assert_problem(401, "invalid-token");
    let r = app.post("/v1/auth/renew").send().await;
    r.assert_problem(401, "missing-token");
    assert_eq!(header(&r, "www-authenticate"), "Bearer realm=\"kortbord\"");
    let r = app.get("/v1/me").token(&forged).send().await;
    r.assert_problem(401, "invalid-token");
    assert_eq!(header(&r, "www-authenticate"), "Bearer realm=\"kortbord\", error=\"invalid_token\"");
}

/// A browser app on another origin may call the API: the preflight is answered, and answers
/// let the app read the headers it needs.
#[actix_web::test]
async fn browsers_on_other_origins_may_call_the_api() {
    let app = spawn_app().await;
    let preflight = app
        .request(actix_web::http::Method::OPTIONS, "/v1/matches")
        .header("Origin", "https://app.example")
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "authorization, content-type, idempotency-key")
        .send()
        .await;
    assert_eq!(preflight.status.as_u16(), 204);
    assert_eq!(header(&preflight, "access-control-allow-origin"), "*");
    assert!(header(&preflight, "access-control-allow-methods").contains("POST"));
    let allowed = header(&preflight, "access-control-allow-headers").to_ascii_lowercase();
    for wanted in ["authorization", "content-type", "idempotency-key", "if-match", "if-none-match"] {
        assert!(allowed.contains(wanted), "{wanted} in {allowed}");
    }
    let r = app.get("/v1/games").header("Origin", "https://app.example").send().await;
    assert_eq!(r.status.as_u16(), 200);
    assert_eq!(header(&r, "access-control-allow-origin"), "*");
    assert!(header(&r, "access-control-expose-headers").contains("ETag"));
    // Without an Origin nothing changes; OPTIONS that is no preflight is still a wrong method.
    let r = app.get("/v1/games").send().await;
    assert!(r.headers.get("access-control-allow-origin").is_none());
    let r = app.request(actix_web::http::Method::OPTIONS, "/v1/games").send().await;
    r.assert_problem(405, "method-not-allowed");
}

/// `HEAD` answers wherever `GET` does, with the headers and no body.
#[actix_web::test]
async fn head_answers_wherever_get_does() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]}))
        .await;
    let id = created["id"].as_str().unwrap();
    for path in [
        "/healthz".to_string(),
        "/v1/games".to_string(),
        "/v1/games/plump/rules".to_string(),
        format!("/v1/matches/{id}"),
        format!("/v1/matches/{id}/events"),
    ] {
        let get = app.get(&path).token(&token).send().await;
        let head = app.request(actix_web::http::Method::HEAD, &path).token(&token).send().await;
        assert_eq!(head.status, get.status, "{path}");
        assert_eq!(head.body, serde_json::Value::Null, "{path}: no body");
        assert_eq!(head.etag, get.etag, "{path}");
        assert_eq!(head.content_type, get.content_type, "{path}");
    }
    let r = app.request(actix_web::http::Method::HEAD, "/v1/nowhere").send().await;
    assert_eq!(r.status.as_u16(), 404);
}

/// A long history travels compressed to a client that asks for it.
#[actix_web::test]
async fn answers_are_compressed_for_clients_that_accept_gzip() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]}))
        .await;
    let id = created["id"].as_str().unwrap();
    let url = format!("{}/v1/matches/{id}/events", app.address);
    let plain = app.client.get(&url).send().await.unwrap().body().await.unwrap();
    let mut zipped =
        app.client.get(&url).insert_header(("Accept-Encoding", "gzip")).no_decompress().send().await.unwrap();
    assert_eq!(zipped.headers().get("content-encoding").and_then(|v| v.to_str().ok()), Some("gzip"));
    let bytes = zipped.body().await.unwrap();
    assert!(bytes.len() * 2 < plain.len(), "{} bytes gzipped of {}", bytes.len(), plain.len());
}

/// The document's `Move` is any game's command: one of another game fits it and is refused as
/// unprocessable (422), a move of no game at all as unreadable (400), and neither changes anything.
#[actix_web::test]
async fn another_games_move_is_unprocessable_and_no_move_is_unreadable() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]}))
        .await;
    let id = created["id"].as_str().unwrap();
    let before = app.event_count(id).await;
    let path = format!("/v1/matches/{id}/moves");
    let r =
        app.post(&path).token(&token).json(&json!({"move": {"type": "choose_bottom_card", "card": "AS"}})).send().await;
    r.assert_problem(422, "wrong-game");
    assert!(r.body["detail"].as_str().unwrap().contains("fyrmanswhist"), "{}", r.body);
    let r = app.post(&path).token(&token).json(&json!({"move": {"type": "fly"}})).send().await;
    r.assert_problem(400, "invalid-move");
    // A malformed move is refused as such even with a stale version.
    let r =
        app.post(&path).token(&token).header("If-Match", "\"0\"").json(&json!({"move": {"type": "fly"}})).send().await;
    r.assert_problem(400, "invalid-move");
    assert_eq!(app.event_count(id).await, before);
}

/// To JSON Schema `3.0` is the integer 3: a move and a version sent so are taken as integers.
#[actix_web::test]
async fn integral_numbers_written_with_a_fraction_are_integers() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]}))
        .await;
    let id = created["id"].as_str().unwrap();
    let version = created["version"].as_i64().unwrap() as f64;
    let moves = app.legal_moves(&token, id, 0).await;
    let bid = moves.iter().find(|m| m["type"] == "bid").expect("Ada bids first").clone();
    let tricks = bid["tricks"].as_u64().unwrap() as f64;
    let body = json!({"move": {"type": "bid", "tricks": tricks}, "expected_version": version, "seat": 0.0});
    let r = app.post(&format!("/v1/matches/{id}/moves")).token(&token).json(&body).send().await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    let r = app
        .post(&format!("/v1/matches/{id}/moves"))
        .token(&token)
        .json(&json!({"move": {"type": "bid", "tricks": 1.5}}))
        .send()
        .await;
    assert!(r.status.is_client_error(), "{}", r.body);
}
