//! Bad input gets a clear problem document and changes nothing.

use serde_json::json;

use kortbord_e2e::{signed_token, spawn_app, TestApp, JWT_SECRET};

/// A three-seat Plump match held by one player, at the first bid.
async fn match_for(app: &TestApp) -> (String, String) {
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}] }))
        .await;
    (token, created["id"].as_str().unwrap().to_string())
}

#[actix_web::test]
async fn bad_moves_are_refused_with_problems_and_append_nothing() {
    let app = spawn_app().await;
    let (token, id) = match_for(&app).await;
    let before = app.event_count(&id).await;
    let moves = format!("/v1/matches/{id}/moves");
    let view = app.view(&token, &id, None).await;
    let to_act = view["to_act"][0].as_u64().unwrap() as usize;
    let other = (to_act + 1) % 3;

    let r = app.post(&moves).token(&token).raw(b"{\"move\": ", "application/json").send().await;
    r.assert_problem(400, "malformed-json");

    let r = app.post(&moves).token(&token).raw(b"seat=0", "application/x-www-form-urlencoded").send().await;
    r.assert_problem(415, "unsupported-media-type");

    let r = app
        .post(&moves)
        .token(&token)
        .json(&json!({ "seat": to_act, "move": {"type": "play", "card": "ZZ"} }))
        .send()
        .await;
    r.assert_problem(400, "invalid-move");
    assert!(r.body["detail"].as_str().unwrap().contains("unknown card code 'ZZ'"), "{}", r.body);

    let r = app.post(&moves).token(&token).json(&json!({ "seat": to_act, "move": {"type": "fly"} })).send().await;
    r.assert_problem(400, "invalid-move");

    let r = app
        .post(&moves)
        .token(&token)
        .json(&json!({ "seat": other, "move": {"type": "bid", "tricks": 1} }))
        .send()
        .await;
    r.assert_problem(422, "rule-violation");
    assert_eq!(r.body["rule"], "core.turn");
    assert!(r.body["explanation"]["sv"].is_string() && r.body["explanation"]["en"].is_string());

    let r = app
        .post(&moves)
        .token(&token)
        .header("Accept-Language", "sv-SE,sv;q=0.9")
        .json(&json!({ "seat": to_act, "move": {"type": "bid", "tricks": 99} }))
        .send()
        .await;
    r.assert_problem(422, "rule-violation");
    assert_eq!(r.body["title"], "Draget är inte tillåtet");
    // The refusal points at its rule, which answers with its texts.
    let url = r.body["rule_url"].as_str().expect("a refusal names where its rule is explained");
    let rule = app.get(url).send().await;
    assert_eq!(rule.status.as_u16(), 200, "{}", rule.body);
    assert_eq!(rule.body["id"], r.body["rule"]);
    assert!(rule.body["sv"].is_string() && rule.body["en"].is_string() && rule.body["section"]["id"].is_string());

    let r =
        app.post(&moves).token(&token).json(&json!({ "seat": 7, "move": {"type": "bid", "tricks": 1} })).send().await;
    r.assert_problem(404, "no-such-seat");

    let r = app
        .post(&moves)
        .token(&token)
        .header("If-Match", "\"1\"")
        .json(&json!({ "seat": to_act, "move": {"type": "bid", "tricks": 1} }))
        .send()
        .await;
    r.assert_problem(412, "precondition-failed");
    assert_eq!(r.body["current_version"].as_i64().unwrap() as usize, before);

    // A number past what the document allows is a malformed move, whatever the version says.
    let r = app
        .post(&moves)
        .token(&token)
        .header("If-Match", "\"1\"")
        .json(&json!({ "seat": to_act, "move": {"type": "bid", "tricks": 4_294_967_296_u64} }))
        .send()
        .await;
    r.assert_problem(400, "invalid-move");
    assert!(r.body["detail"].as_str().unwrap().contains("4294967296"), "{}", r.body);

    let r = app
        .post(&moves)
        .token(&token)
        .json(&json!({ "seat": to_act, "move": {"type": "bid", "tricks": 1}, "expected_version": 1 }))
        .send()
        .await;
    r.assert_problem(409, "version-conflict");

    let r = app
        .post(&moves)
        .token(&token)
        .json(&json!({ "seat": to_act, "move": {"type": "bid", "tricks": 1}, "surprise": true }))
        .send()
        .await;
    r.assert_problem(422, "invalid-body");

    assert_eq!(app.event_count(&id).await, before, "nothing was appended");
}

#[actix_web::test]
async fn a_seat_held_by_someone_else_cannot_be_played_or_looked_at() {
    let app = spawn_app().await;
    let (token, id) = match_for(&app).await;
    let (stranger, _) = app.guest("Mallory").await;
    let before = app.event_count(&id).await;
    let r = app.play(&stranger, &id, 0, &json!({"type": "bid", "tricks": 1})).await;
    r.assert_problem(403, "not-your-seat");
    let r = app.get(&format!("/v1/matches/{id}?seat=0")).token(&stranger).send().await;
    r.assert_problem(403, "not-your-seat");
    let r = app.get(&format!("/v1/matches/{id}/legal-moves?seat=1")).token(&stranger).send().await;
    r.assert_problem(403, "not-your-seat");
    // Without a seat the stranger is a spectator and sees no hand.
    let spectator = app.view(&stranger, &id, None).await;
    assert!(spectator["viewing_as"].is_null());
    assert!(spectator["table"].get("hand").is_none_or(|h| h.is_null()));
    let _ = token;
    assert_eq!(app.event_count(&id).await, before);
}

#[actix_web::test]
async fn missing_forged_and_expired_tokens_are_refused() {
    let app = spawn_app().await;
    let (_, id) = match_for(&app).await;
    let before = app.event_count(&id).await;
    let body = json!({ "seat": 0, "move": {"type": "bid", "tricks": 1} });
    let moves = format!("/v1/matches/{id}/moves");

    app.post(&moves).json(&body).send().await.assert_problem(401, "missing-token");
    app.post(&moves).token("not.a.jwt").json(&body).send().await.assert_problem(401, "invalid-token");
    let now = api::auth::now_secs();
    let player = uuid::Uuid::new_v4();
    let forged = signed_token(b"some-other-secret-entirely", player, "x", now, now + 600);
    app.post(&moves).token(&forged).json(&body).send().await.assert_problem(401, "invalid-token");
    let expired = signed_token(JWT_SECRET.as_bytes(), player, "x", now - 7200, now - 3600);
    app.post(&moves).token(&expired).json(&body).send().await.assert_problem(401, "token-expired");
    let future = signed_token(JWT_SECRET.as_bytes(), player, "x", now + 3600, now + 7200);
    app.post(&moves).token(&future).json(&body).send().await.assert_problem(401, "invalid-token");
    let none_alg = format!(
        "{}.{}.",
        b64(br#"{"alg":"none","typ":"JWT"}"#),
        b64(format!(r#"{{"sub":"{player}","name":"x","iss":"kortbord","iat":{now},"nbf":{now},"exp":{}}}"#, now + 600)
            .as_bytes())
    );
    app.post(&moves).token(&none_alg).json(&body).send().await.assert_problem(401, "invalid-token");
    app.post(&moves)
        .header("Authorization", "Basic YTpi")
        .json(&body)
        .send()
        .await
        .assert_problem(401, "invalid-token");
    assert_eq!(app.event_count(&id).await, before);
}

#[actix_web::test]
async fn unknown_things_are_not_found() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    app.get("/v1/games/no-such-game").send().await.assert_problem(404, "not-found");
    app.get(&format!("/v1/matches/{}", uuid::Uuid::new_v4())).send().await.assert_problem(404, "not-found");
    app.get("/v1/matches/not-a-uuid").send().await.assert_problem(404, "not-found");
    app.get("/v1/nothing-here").send().await.assert_problem(404, "not-found");
    app.post("/v1/nothing-here").send().await.assert_problem(404, "not-found");
    // A resource asked with a method it does not take says which ones it does.
    let r = app.post(&format!("/v1/matches/{}", uuid::Uuid::new_v4())).send().await;
    r.assert_problem(405, "method-not-allowed");
    assert_eq!(r.headers.get("allow").unwrap(), "GET");
    let r = app.get(&format!("/v1/matches/{}/moves", uuid::Uuid::new_v4())).send().await;
    r.assert_problem(405, "method-not-allowed");
    assert_eq!(r.headers.get("allow").unwrap(), "POST");
    let r = app.get("/v1/auth/guest").send().await;
    r.assert_problem(405, "method-not-allowed");
    let r =
        app.post("/v1/matches").token(&token).json(&json!({ "game": "plump", "seats": [{"kind": "me"}] })).send().await;
    r.assert_problem(422, "invalid-options");
    if let Some(planned) = app.planned_game().await {
        let r = app
            .post("/v1/matches")
            .token(&token)
            .json(&json!({ "game": planned, "seats": [{"kind": "me"}, {"kind": "bot"}] }))
            .send()
            .await;
        r.assert_problem(422, "game-planned");
    }
    let r = app.post("/v1/matches").token(&token).json(&json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}], "options": {"no_such_option": 1} })).send().await;
    r.assert_problem(422, "invalid-options");
    let r = app.get(&format!("/v1/matches/{}/events?since=-1", uuid::Uuid::new_v4())).send().await;
    r.assert_problem(400, "invalid-since");
}

fn b64(data: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

#[test]
fn url_safe_base64_without_padding() {
    assert_eq!(b64(b"any carnal pleas"), "YW55IGNhcm5hbCBwbGVhcw");
}
