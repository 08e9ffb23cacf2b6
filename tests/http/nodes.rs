//! Several service nodes on one database: each serves any request, caches derived state, and
//! never acts on a stale copy.

use serde_json::json;

use kortbord_e2e::spawn_app;

#[actix_web::test]
async fn moves_alternate_between_two_nodes_and_each_sees_the_other() {
    let a = spawn_app().await;
    let b = a.another_node().await;
    let (token, _) = a.guest("Ada").await;
    let created = a
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    // Both nodes cache the match now.
    let _ = b.view(&token, &id, None).await;
    for n in 0..60 {
        let (here, there) = if n % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let view = here.view(&token, &id, None).await;
        if view["phase"] == "finished" {
            break;
        }
        let seat = view["to_act"][0].as_u64().unwrap() as usize;
        let moves = here.legal_moves(&token, &id, seat).await;
        let r = here
            .post(&format!("/v1/matches/{id}/moves"))
            .token(&token)
            .header("If-Match", &format!("\"{}\"", view["version"]))
            .json(&json!({ "seat": seat, "move": moves[0] }))
            .send()
            .await;
        assert_eq!(r.status.as_u16(), 200, "move {n}: {}", r.body);
        let seen_there = there.view(&token, &id, Some(seat)).await;
        assert_eq!(seen_there["version"], r.body["version"], "the other node sees move {n}");
        assert_eq!(seen_there["table"], r.body["match"]["table"]);
    }
}

#[actix_web::test]
async fn a_node_with_a_stale_copy_refuses_nothing_legal_and_allows_nothing_stale() {
    let a = spawn_app().await;
    let b = a.another_node().await;
    let (token, _) = a.guest("Ada").await;
    let created = a
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let first_version = created["version"].as_i64().unwrap();
    let _ = b.view(&token, &id, None).await; // b caches this version
                                             // Node a moves on by one bid; b's copy is now behind.
    let seat = created["to_act"][0].as_u64().unwrap() as usize;
    let r = a.play(&token, &id, seat, &json!({"type": "bid", "tricks": 0})).await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    let next = r.body["match"]["to_act"][0].as_u64().unwrap() as usize;
    // On b, the next bidder's move is legal although b's cache says it is another seat's turn.
    let r = b.play(&token, &id, next, &json!({"type": "bid", "tricks": 0})).await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    // A move made against the first version is stale on either node.
    for node in [&a, &b] {
        let r = node
            .post(&format!("/v1/matches/{id}/moves"))
            .token(&token)
            .header("If-Match", &format!("\"{first_version}\""))
            .json(&json!({ "move": {"type": "bid", "tricks": 0} }))
            .send()
            .await;
        r.assert_problem(412, "precondition-failed");
    }
}

#[actix_web::test]
async fn the_same_move_sent_to_two_nodes_at_once_lands_once() {
    let a = spawn_app().await;
    let b = a.another_node().await;
    let (token, _) = a.guest("Ada").await;
    let created = a
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    for round in 0..8 {
        let view = a.view(&token, &id, None).await;
        let seat = view["to_act"][0].as_u64().unwrap() as usize;
        let moves = a.legal_moves(&token, &id, seat).await;
        let key = format!("twice-{round}");
        let body = json!({ "seat": seat, "move": moves[0] });
        let path = format!("/v1/matches/{id}/moves");
        let on_a = a.post(&path).token(&token).header("Idempotency-Key", &key).json(&body).send();
        let on_b = b.post(&path).token(&token).header("Idempotency-Key", &key).json(&body).send();
        let (ra, rb) = futures_util::future::join(on_a, on_b).await;
        assert_eq!(ra.status.as_u16(), 200, "{}", ra.body);
        assert_eq!(rb.status.as_u16(), 200, "{}", rb.body);
        assert_eq!(ra.body, rb.body, "both answers are the one stored result");
        let after = a.view(&token, &id, None).await;
        assert_eq!(after["version"], ra.body["version"], "round {round}: the move landed once");
    }
}
