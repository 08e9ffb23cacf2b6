//! Bots at their levels: a match with strong and basic bots played to its end over HTTP, each
//! bot move recorded after the level and seed it came from.

use serde_json::{json, Value};

use kortbord_e2e::spawn_app;

#[actix_web::test]
async fn a_match_with_strong_bots_is_played_to_its_end_and_each_bot_move_says_its_seed() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let seats =
        json!([{"kind": "me"}, {"kind": "bot"}, {"kind": "bot", "level": "strong"}, {"kind": "bot", "level": "basic"}]);
    let created = app.create_match(&token, json!({ "game": "plump", "seats": seats })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let levels: Vec<Value> = created["seats"].as_array().unwrap().iter().map(|s| s["level"].clone()).collect();
    assert_eq!(levels, [Value::Null, json!("strong"), json!("strong"), json!("basic")], "a bot's level is shown");

    let mut rng = engine::random::Rng::new(23);
    for _ in 0..2_000 {
        let view = app.view(&token, &id, None).await;
        if view["phase"] == "finished" {
            assert!(view["outcome"]["winners"].is_array(), "{view}");
            break;
        }
        assert_eq!(view["to_act"], json!([0]), "only the person is ever waited for");
        let moves = app.legal_moves(&token, &id, 0).await;
        let r = app.play(&token, &id, 0, &moves[rng.below(moves.len())]).await;
        assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    }
    assert_eq!(app.view(&token, &id, None).await["phase"], "finished");

    // Every bot's move follows a `match.bot_moved` that names its level and seed.
    let page = app.get(&format!("/v1/matches/{id}/events?since=0")).token(&token).send().await;
    let events = page.body["events"].as_array().cloned().unwrap_or_default();
    let mut seen = 0;
    for (i, e) in events.iter().enumerate() {
        if e["type"] == "match.bot_moved" {
            let seat = e["data"]["seat"].as_u64().unwrap() as usize;
            assert_eq!(e["actor"], format!("bot:{seat}"));
            assert_eq!(e["data"]["level"], levels[seat], "{e}");
            assert!(e["data"]["seed"].as_u64().is_some_and(|s| s < 1 << 53), "{e}");
            // The page may end between the two.
            let Some(next) = events.get(i + 1) else { continue };
            assert_eq!(next["actor"], format!("bot:{seat}"));
            assert_ne!(next["type"], "match.bot_moved");
            seen += 1;
        } else if e["actor"].as_str().is_some_and(|a| a.starts_with("bot:")) {
            assert!(i > 0 && events[i - 1]["actor"] == e["actor"], "{e}");
        }
    }
    assert!(seen > 0, "no bot moves among {} events", events.len());
}

/// A level that is none of the three is refused, as a body that does not fit is.
#[actix_web::test]
async fn an_unknown_bot_level_is_refused() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    for level in [json!(9), json!("grandmaster")] {
        let seats = json!([{"kind": "me"}, {"kind": "bot", "level": level}, {"kind": "bot"}]);
        let r = app.post("/v1/matches").token(&token).json(&json!({ "game": "plump", "seats": seats })).send().await;
        r.assert_problem(422, "invalid-body");
    }
}
