//! Ways out of a match (issue 44): a creator cancelling a waiting match, a seated player
//! aborting one nobody has moved in, and a player leaving a running match (their bot plays on, or
//! the match ends, as it was created to do). Each is a service event in the log, and the match's
//! outcome says how it ended.

use serde_json::{json, Value};

use kortbord_e2e::TestApp;

async fn events(app: &TestApp, id: &str) -> Vec<Value> {
    let page = app.get(&format!("/v1/matches/{id}/events?since=0&limit=1000")).send().await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.body);
    page.body["events"].as_array().cloned().unwrap_or_default()
}

/// A Plump match of Ada's with an open seat Bo takes: both people, seat 2 a bot. Ada bids first.
async fn two_people(app: &TestApp, options: Value) -> (String, String, String) {
    let (ada, _) = app.guest("Ada").await;
    let (bo, _) = app.guest("Bo").await;
    let mut body = json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}] });
    body.as_object_mut().unwrap().extend(options.as_object().unwrap().clone());
    let id = app.create_match(&ada, body).await["id"].as_str().unwrap().to_string();
    let joined = app.post(&format!("/v1/matches/{id}/seats/1/join")).token(&bo).send().await;
    assert_eq!(joined.status.as_u16(), 200, "{}", joined.body);
    (ada, bo, id)
}

fn assert_ended(view: &Value, reason: &str, seat: Option<usize>) {
    assert_eq!(view["phase"], "finished", "{view}");
    assert_eq!(view["ended"]["reason"], reason, "{view}");
    assert_eq!(view["ended"]["seat"], seat.map_or(Value::Null, |s| json!(s)), "{view}");
    assert_eq!(view["outcome"]["winners"], json!([]), "nobody won: {view}");
    assert!(view["outcome"]["explanation"]["sv"].is_string() && view["outcome"]["explanation"]["en"].is_string());
    assert_eq!(view["to_act"], json!([]));
}

#[actix_web::test]
async fn the_creator_cancels_a_waiting_match_and_nobody_else_may() {
    let app = kortbord_e2e::spawn_app().await;
    let (ada, ada_id) = app.guest("Ada").await;
    let (bo, _) = app.guest("Bo").await;
    let id = app
        .create_match(&ada, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}] }))
        .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let cancel = format!("/v1/matches/{id}/cancel");
    app.post(&cancel).send().await.assert_problem(401, "missing-token");
    let refused = app.post(&cancel).token(&bo).header("Accept-Language", "sv").send().await;
    refused.assert_problem(403, "not-creator");
    assert_eq!(refused.body["detail"], "Bara den som skapade matchen kan ställa in den.");
    let before = events(&app, &id).await.len();

    let cancelled = app.post(&cancel).token(&ada).send().await;
    assert_eq!(cancelled.status.as_u16(), 200, "{}", cancelled.body);
    assert_ended(&cancelled.body, "cancelled", None);
    assert_eq!(cancelled.etag.as_deref(), Some(format!("\"{}.seat-0\"", cancelled.body["version"]).as_str()));
    let log = events(&app, &id).await;
    assert_eq!(log.len(), before + 1);
    assert_eq!(log[before]["type"], "match.cancelled");
    assert_eq!(log[before]["actor"], ada_id.as_str());
    assert_eq!(log[before]["data"]["player_id"], ada_id.as_str());
    assert_ended(&app.view(&bo, &id, None).await, "cancelled", None);

    // Gone from the lobby, over for good, and said so in the lists.
    let lobby = app.get("/v1/matches?open=true").send().await;
    assert!(lobby.body["matches"].as_array().unwrap().is_empty(), "{}", lobby.body);
    let mine = app.get("/v1/matches?player=me&phase=finished").token(&ada).send().await;
    assert_eq!(mine.body["matches"][0]["ended"]["reason"], "cancelled", "{}", mine.body);
    assert_eq!(mine.body["matches"][0]["outcome"]["winners"], json!([]));
    app.post(&format!("/v1/matches/{id}/seats/1/join")).token(&bo).send().await.assert_problem(409, "match-ended");
    app.post(&cancel).token(&ada).send().await.assert_problem(409, "match-ended");
    assert_eq!(events(&app, &id).await.len(), before + 1, "refusals record nothing");

    // A match whose seats are all taken is no longer the creator's to cancel.
    let full = app
        .create_match(&ada, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    let full = full["id"].as_str().unwrap();
    app.post(&format!("/v1/matches/{full}/cancel")).token(&ada).send().await.assert_problem(409, "match-started");
    app.post(&format!("/v1/matches/{}/cancel", uuid::Uuid::new_v4()))
        .token(&ada)
        .send()
        .await
        .assert_problem(404, "not-found");
}

#[actix_web::test]
async fn a_seated_player_aborts_a_match_until_a_person_has_moved() {
    let app = kortbord_e2e::spawn_app().await;
    let (ada, bo, id) = two_people(&app, json!({})).await;
    let (cy, _) = app.guest("Cy").await;
    let abort = format!("/v1/matches/{id}/abort");
    app.post(&abort).token(&cy).send().await.assert_problem(403, "not-your-seat");
    let before = events(&app, &id).await.len();

    // Bo, not the creator, calls it off: dealt, but nobody has bid.
    let aborted = app.post(&abort).token(&bo).send().await;
    assert_eq!(aborted.status.as_u16(), 200, "{}", aborted.body);
    assert_ended(&aborted.body, "aborted", Some(1));
    assert_eq!(aborted.body["outcome"]["explanation"]["en"], "Seat 1 aborted the match before anyone had made a move.");
    let log = events(&app, &id).await;
    assert_eq!(log.len(), before + 1);
    assert_eq!((log[before]["type"].as_str(), log[before]["data"]["seat"].as_u64()), (Some("match.aborted"), Some(1)));
    // Nothing more happens in it: no move, no legal moves, no second abort.
    assert!(app.legal_moves(&ada, &id, 0).await.is_empty());
    let moved = app
        .post(&format!("/v1/matches/{id}/moves"))
        .token(&ada)
        .json(&json!({"move": {"type": "bid", "tricks": 0}}))
        .send()
        .await;
    moved.assert_problem(409, "match-ended");
    app.post(&abort).token(&ada).send().await.assert_problem(409, "match-ended");
    assert_eq!(events(&app, &id).await.len(), before + 1);

    // Once a person has moved, it is too late: leave the seat instead.
    let (ada, _, id) = two_people(&app, json!({})).await;
    let first = app.legal_moves(&ada, &id, 0).await[0].clone();
    assert_eq!(app.play(&ada, &id, 0, &first).await.status.as_u16(), 200);
    let late = app.post(&format!("/v1/matches/{id}/abort")).token(&ada).header("Accept-Language", "sv").send().await;
    late.assert_problem(409, "match-started");
    assert!(late.body["detail"].as_str().unwrap().contains("lämna din plats"), "{}", late.body);
}

#[actix_web::test]
async fn a_player_who_leaves_is_replaced_by_a_bot_and_the_last_person_ends_the_match() {
    let app = kortbord_e2e::spawn_app().await;
    let (ada, bo, id) = two_people(&app, json!({})).await;
    let ada_id = app.get("/v1/me").token(&ada).send().await.body["player_id"].as_str().unwrap().to_string();
    let before = events(&app, &id).await.len();
    app.post(&format!("/v1/matches/{id}/seats/1/leave")).token(&ada).send().await.assert_problem(403, "not-your-seat");

    // Ada leaves: a bot takes her seat and makes her bid at once, and the match goes on for Bo.
    let left = app.post(&format!("/v1/matches/{id}/seats/0/leave")).token(&ada).send().await;
    assert_eq!(left.status.as_u16(), 200, "{}", left.body);
    assert!(left.body["viewing_as"].is_null(), "Ada watches now: {}", left.body);
    assert_eq!(left.body["your_seats"], json!([]));
    assert_eq!(left.body["seats"][0]["kind"], "bot");
    assert_eq!(left.body["seats"][0]["level"], "strong");
    assert_eq!(left.body["phase"], "playing");
    let log = events(&app, &id).await;
    assert_eq!(log[before]["type"], "match.seat_left");
    assert_eq!(
        log[before]["data"],
        json!({"type": "match.seat_left", "seat": 0, "player_id": ada_id, "level": "strong"})
    );
    assert_eq!(log[before + 1]["actor"], "bot:0", "the bot played the turn Ada left: {}", log[before + 1]);
    let bos = app.view(&bo, &id, None).await;
    assert_eq!(bos["to_act"], json!([1]), "{bos}");
    app.post(&format!("/v1/matches/{id}/seats/0/leave")).token(&ada).send().await.assert_problem(403, "not-your-seat");

    // Bo, the last person, leaves: nobody is left to play for, and the match ends.
    let last = app.post(&format!("/v1/matches/{id}/seats/1/leave")).token(&bo).send().await;
    assert_eq!(last.status.as_u16(), 200, "{}", last.body);
    assert_ended(&last.body, "abandoned", Some(1));
    assert_eq!(events(&app, &id).await.last().unwrap()["type"], "match.abandoned");
    app.post(&format!("/v1/matches/{id}/seats/1/leave")).token(&bo).send().await.assert_problem(409, "match-ended");

    // A match waiting for players is aborted or cancelled, not left.
    let waiting = app
        .create_match(&ada, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}] }))
        .await;
    let waiting = waiting["id"].as_str().unwrap();
    let r = app
        .post(&format!("/v1/matches/{waiting}/seats/0/leave"))
        .token(&ada)
        .header("Accept-Language", "sv")
        .send()
        .await;
    r.assert_problem(409, "match-not-started");
    assert_eq!(r.body["detail"], "Matchen väntar på att spelare ska ta de lediga platserna.");
}

#[actix_web::test]
async fn a_match_created_to_end_when_a_player_leaves_ends_abandoned_by_their_seat() {
    let app = kortbord_e2e::spawn_app().await;
    let (ada, bo, id) = two_people(&app, json!({"when_a_player_leaves": "end"})).await;
    let left = app.post(&format!("/v1/matches/{id}/seats/1/leave")).token(&bo).send().await;
    assert_eq!(left.status.as_u16(), 200, "{}", left.body);
    assert_ended(&left.body, "abandoned", Some(1));
    assert_eq!(left.body["outcome"]["explanation"]["en"], "The match was abandoned by seat 1, who left it.");
    assert_eq!(left.body["seats"][1]["kind"], "player", "the seat stays Bo's in the record");
    let log = events(&app, &id).await;
    let last = log.last().unwrap();
    assert_eq!((last["type"].as_str(), last["data"]["seat"].as_u64()), (Some("match.abandoned"), Some(1)));
    assert_ended(&app.view(&ada, &id, None).await, "abandoned", Some(1));
    // The deal was cut short: its cards stay hidden, its record closed, its export no record.
    app.get(&format!("/v1/matches/{id}/deals/1")).send().await.assert_problem(409, "deal-in-progress");
    let export = app.get(&format!("/v1/matches/{id}/export")).send().await;
    assert_eq!(export.status.as_u16(), 200);
    let spectators = app.get(&format!("/v1/matches/{id}/events?since=0")).send().await.body["events"].clone();
    let exported = export.body.as_str().expect("ndjson lines").to_string();
    let lines: Vec<Value> = exported.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(Value::from(lines), spectators, "the export is the spectator's feed, not the deal's record");
    let finished = app.get("/v1/matches?player=me&phase=finished").token(&ada).send().await;
    assert_eq!(finished.body["matches"][0]["ended"], json!({"reason": "abandoned", "seat": 1}));
    // Neither the creation option nor anything else takes a value it does not know.
    let r = app
        .post("/v1/matches")
        .token(&ada)
        .json(&json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}],
                       "when_a_player_leaves": "shrug" }))
        .send()
        .await;
    assert!(matches!(r.status.as_u16(), 400 | 422), "{}", r.body);
    assert_eq!(r.content_type, "application/problem+json");
}
