//! Racing and retried requests: exactly one lands, a retry never lands twice.

use serde_json::json;

use kortbord_e2e::spawn_app;

#[actix_web::test]
async fn two_racing_moves_at_the_same_version_land_once() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let path = format!("/v1/matches/{id}/moves");
    for round in 0..5 {
        // A turn with one legal move (a single card of the suit led, say) cannot race two
        // different moves: it is played, and the race waits for a turn with a choice.
        let (view, seat, moves) = loop {
            let view = app.view(&token, &id, None).await;
            let seat = view["to_act"][0].as_u64().unwrap() as usize;
            let moves = app.legal_moves(&token, &id, seat).await;
            if moves.len() >= 2 {
                break (view, seat, moves);
            }
            assert_eq!(app.play(&token, &id, seat, &moves[0]).await.status.as_u16(), 200);
        };
        let version = view["version"].as_i64().unwrap();
        assert!(moves.len() >= 2, "two different moves race");
        let tag = format!("\"{version}\"");
        let a = app
            .post(&path)
            .token(&token)
            .header("If-Match", &tag)
            .json(&json!({ "seat": seat, "move": moves[0] }))
            .send();
        let b = app
            .post(&path)
            .token(&token)
            .header("If-Match", &tag)
            .json(&json!({ "seat": seat, "move": moves[moves.len() - 1] }))
            .send();
        let (a, b) = futures_join(a, b).await;
        let statuses = [a.status.as_u16(), b.status.as_u16()];
        assert_eq!(
            statuses.iter().filter(|&&s| s == 200).count(),
            1,
            "round {round}: {statuses:?} {} {}",
            a.body,
            b.body
        );
        let loser = if a.status.as_u16() == 200 { &b } else { &a };
        assert!([409, 412].contains(&loser.status.as_u16()), "{}", loser.body);
        assert_eq!(loser.content_type, "application/problem+json");
        let after = app.view(&token, &id, None).await;
        let winner = if a.status.as_u16() == 200 { &a } else { &b };
        assert_eq!(after["version"], winner.body["version"]);
    }
}

async fn futures_join<A: std::future::Future, B: std::future::Future>(a: A, b: B) -> (A::Output, B::Output) {
    futures_util::future::join(a, b).await
}

#[actix_web::test]
async fn a_retried_move_returns_the_stored_result_and_appends_nothing() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let seat = created["to_act"][0].as_u64().unwrap() as usize;
    let moves = app.legal_moves(&token, &id, seat).await;
    let path = format!("/v1/matches/{id}/moves");
    let body = json!({ "seat": seat, "move": moves[0] });
    let first = app.post(&path).token(&token).header("Idempotency-Key", "retry-1").json(&body).send().await;
    assert_eq!(first.status.as_u16(), 200, "{}", first.body);
    let count = app.event_count(&id).await;
    let second = app.post(&path).token(&token).header("Idempotency-Key", "retry-1").json(&body).send().await;
    assert_eq!(second.status.as_u16(), 200, "{}", second.body);
    assert_eq!(second.body, first.body, "the stored result comes back");
    assert_eq!(second.headers.get("idempotent-replayed").unwrap(), "true");
    assert_eq!(app.event_count(&id).await, count, "nothing appended");
    // After the match has moved on, and on a node that never saw the move, the retry still
    // gets the answer as it was (rebuilt from the log).
    let next = app.view(&token, &id, None).await["to_act"][0].as_u64().unwrap() as usize;
    let next_move = app.legal_moves(&token, &id, next).await[0].clone();
    assert_eq!(app.play(&token, &id, next, &next_move).await.status.as_u16(), 200);
    let later = app.post(&path).token(&token).header("Idempotency-Key", "retry-1").json(&body).send().await;
    assert_eq!(later.status.as_u16(), 200, "{}", later.body);
    assert_eq!(later.body, first.body, "the answer as it was when the move landed");
    let node = app.another_node().await;
    let elsewhere = node.post(&path).token(&token).header("Idempotency-Key", "retry-1").json(&body).send().await;
    assert_eq!(elsewhere.body, first.body, "another node rebuilds the same answer");
    assert_eq!(elsewhere.headers.get("idempotent-replayed").unwrap(), "true");
    // The same key with another request is refused.
    let other = app
        .post(&path)
        .token(&token)
        .header("Idempotency-Key", "retry-1")
        .json(&json!({ "seat": seat, "move": moves[moves.len() - 1], "expected_version": 99 }))
        .send()
        .await;
    other.assert_problem(422, "idempotency-key-reused");
    // A retried creation returns the same match.
    let create = json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] });
    let c1 = app.post("/v1/matches").token(&token).header("Idempotency-Key", "create-1").json(&create).send().await;
    let c2 = app.post("/v1/matches").token(&token).header("Idempotency-Key", "create-1").json(&create).send().await;
    assert_eq!(c1.status.as_u16(), 201);
    assert_eq!(c2.status.as_u16(), 201);
    assert_eq!(c1.body["id"], c2.body["id"]);
}

#[actix_web::test]
async fn a_dry_run_answers_without_playing() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let seat = created["to_act"][0].as_u64().unwrap() as usize;
    let before = app.event_count(&id).await;
    let path = format!("/v1/matches/{id}/moves");
    let ok = app
        .post(&path)
        .token(&token)
        .json(&json!({ "seat": seat, "move": {"type": "bid", "tricks": 0}, "dry_run": true }))
        .send()
        .await;
    assert_eq!(ok.status.as_u16(), 200, "{}", ok.body);
    assert_eq!(ok.body["legal"], true);
    let no = app
        .post(&path)
        .token(&token)
        .json(&json!({ "seat": seat, "move": {"type": "play", "card": "AS"}, "dry_run": true }))
        .send()
        .await;
    assert_eq!(no.body["legal"], false);
    assert!(no.body["rule"].as_str().unwrap().starts_with("plump.") || no.body["rule"] == "core.phase", "{}", no.body);
    assert_eq!(app.event_count(&id).await, before);
}
