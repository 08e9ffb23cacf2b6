//! Turn deadlines (issue #25): no seat waits for ever.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use kortbord_e2e::{spawn_app, spawn_app_without_sweep, TestApp};

async fn events_since(app: &TestApp, id: &str, since: i64) -> Vec<Value> {
    let page = app.get(&format!("/v1/matches/{id}/events?since={since}")).send().await;
    page.body["events"].as_array().cloned().unwrap_or_default()
}

/// Waits (up to `within`) for the match's first `match.turn_timed_out` after `since`; the events
/// from it on.
async fn timed_out(app: &TestApp, id: &str, since: i64, within: Duration) -> Option<Vec<Value>> {
    let started = Instant::now();
    while started.elapsed() < within {
        let events = events_since(app, id, since).await;
        if let Some(at) = events.iter().position(|e| e["type"] == "match.turn_timed_out") {
            return Some(events[at..].to_vec());
        }
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
    None
}

/// A person who lets their turn's time run out has it played by their bot, and the log says so;
/// the seat stays theirs and they play on with their next move.
#[actix_web::test]
async fn an_idle_seat_is_played_by_its_bot_when_its_time_runs_out() {
    let app = spawn_app().await;
    let (token, player) = app.guest("Ada").await;
    let body = json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}], "turn_seconds": 2});
    let created = app.create_match(&token, body).await;
    let id = created["id"].as_str().unwrap().to_string();
    let version = created["version"].as_i64().unwrap();
    let deadline =
        chrono::DateTime::parse_from_rfc3339(created["turn_deadline"].as_str().expect("a deadline")).unwrap();
    let left = deadline.with_timezone(&chrono::Utc) - chrono::Utc::now();
    assert!(left <= chrono::Duration::seconds(2) && left > chrono::Duration::seconds(-1), "{left}");

    let events = timed_out(&app, &id, version, Duration::from_secs(15)).await.expect("the turn timed out");
    assert_eq!(events[0]["data"]["seat"], 0);
    assert_eq!(events[0]["actor"], "service");
    let at = chrono::DateTime::parse_from_rfc3339(events[0]["data"]["deadline"].as_str().unwrap()).unwrap();
    assert_eq!(at, deadline, "the event records the deadline the view showed");
    assert_eq!(events[1]["actor"], "bot:0", "the seat's bot made the move: {}", events[1]);
    assert_ne!(events[1]["type"], "match.turn_timed_out");

    // The seat is still Ada's: she plays her next turn herself, in time.
    let view = app.view(&token, &id, None).await;
    assert_eq!(view["your_seats"], json!([0]));
    assert_eq!(view["seats"][0]["player_id"], player);
    if view["to_act"] == json!([0]) {
        let moves = app.legal_moves(&token, &id, 0).await;
        let r = app
            .post(&format!("/v1/matches/{id}/moves"))
            .token(&token)
            .header("If-Match", &format!("\"{}\"", view["version"]))
            .json(&json!({ "move": moves[0] }))
            .send()
            .await;
        assert_eq!(r.status.as_u16(), 200, "{}", r.body);
        let last = events_since(&app, &id, view["version"].as_i64().unwrap()).await;
        assert_eq!(last[0]["actor"], player, "Ada's own move");
    }
}

/// Deadlines live in the database, not in a timer of the node that set them: a node that does
/// not sweep leaves the turn waiting, and a node started later plays it.
#[actix_web::test]
async fn deadlines_hold_across_nodes_and_restarts() {
    let quiet = spawn_app_without_sweep().await;
    let (token, _) = quiet.guest("Bo").await;
    let body = json!({"game": "spader", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
                      "turn_seconds": 1});
    let created = quiet.create_match(&token, body).await;
    let id = created["id"].as_str().unwrap().to_string();
    let version = created["version"].as_i64().unwrap();
    assert!(timed_out(&quiet, &id, version, Duration::from_millis(2500)).await.is_none(), "nobody swept");
    let other = quiet.another_node().await;
    let events = timed_out(&other, &id, version, Duration::from_secs(15)).await.expect("the other node played it");
    assert_eq!(events[1]["actor"], "bot:0");
    // A match with no deadline never times out, and one waiting for players has no deadline.
    let untimed = quiet
        .create_match(&token, json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]}))
        .await;
    assert!(untimed["turn_deadline"].is_null());
    let waiting = quiet
        .create_match(
            &token,
            json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}],
                                      "turn_seconds": 1}),
        )
        .await;
    assert!(waiting["turn_deadline"].is_null());
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    for m in [&untimed, &waiting] {
        let id = m["id"].as_str().unwrap();
        assert!(events_since(&other, id, 0).await.iter().all(|e| e["type"] != "match.turn_timed_out"));
    }
    // Out-of-range limits are refused.
    for seconds in [0, 604_801] {
        let r = quiet
            .post("/v1/matches")
            .token(&token)
            .json(&json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}],
                          "turn_seconds": seconds}))
            .send()
            .await;
        r.assert_problem(422, "invalid-turn-seconds");
    }
}
