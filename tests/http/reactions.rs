//! The games decided on the server's clock (issue 41): the service gives each move its receive
//! time, records the reactions of a match in the order they arrive (one at a time, under the
//! match's lock, on every node), answers a retry from its first landing without moving it, closes
//! a reaction window by time exactly once whichever nodes sweep, and lets bots react only after a
//! human-like delay.

use std::time::Duration;

use serde_json::{json, Value};

use kortbord_e2e::{spawn_app, TestApp};

fn clocked_games() -> Vec<&'static dyn engine::game::Game> {
    let games: Vec<_> = engine::playable().iter().map(|g| g.as_ref()).filter(|g| g.clocked()).collect();
    assert!(!games.is_empty(), "no game is decided on the clock");
    games
}

/// The events of a match, as everyone sees them.
async fn events(app: &TestApp, id: &str) -> Vec<Value> {
    app.get(&format!("/v1/matches/{id}/events?limit=1000")).send().await.body["events"].as_array().unwrap().clone()
}

/// The receive time a game's event keeps as evidence (`at_ms`), wherever it holds it.
fn at_ms(event: &Value) -> Option<u64> {
    event["data"]["at_ms"].as_u64()
}

/// The seats that have something to do now, with their legal moves (`tokens[s]` holds seat s).
async fn movers(app: &TestApp, tokens: &[String], id: &str, view: &Value) -> Vec<(usize, Vec<Value>)> {
    let mut out = Vec::new();
    for seat in view["to_act"].as_array().unwrap().iter().filter_map(Value::as_u64) {
        let moves = app.legal_moves(&tokens[seat as usize], id, seat as usize).await;
        if !moves.is_empty() {
            out.push((seat as usize, moves));
        }
    }
    out
}

/// Players for a table of `players`, one client each.
async fn players_at(app: &TestApp, players: usize) -> Vec<String> {
    let mut tokens = Vec::new();
    for s in 0..players {
        tokens.push(app.guest(&format!("Player {s}")).await.0);
    }
    tokens
}

/// A new match of `game` with a player of their own at every seat, played by random legal moves
/// until a reaction window is open in which at least `reacting` seats may still react. None if
/// the match ended first.
async fn at_a_window(
    app: &TestApp,
    tokens: &[String],
    game: &str,
    reacting: usize,
    rng: &mut engine::random::Rng,
) -> Option<(String, Vec<(usize, Vec<Value>)>)> {
    let seats: Vec<Value> =
        (0..tokens.len()).map(|s| if s == 0 { json!({"kind": "me"}) } else { json!({"kind": "open"}) }).collect();
    // Long enough a deal for the window to come (a Gris deal may end at its cap on passes).
    let options = if game == "gris" { json!({ "pass_cap": 10_000 }) } else { Value::Null };
    let created = app.create_match(&tokens[0], json!({ "game": game, "seats": seats, "options": options })).await;
    let id = created["id"].as_str().unwrap().to_string();
    for (seat, token) in tokens.iter().enumerate().skip(1) {
        let joined = app.post(&format!("/v1/matches/{id}/seats/{seat}/join")).token(token).send().await;
        assert_eq!(joined.status.as_u16(), 200, "{}", joined.body);
    }
    for _ in 0..5_000 {
        let view = app.view(&tokens[0], &id, Some(0)).await;
        if view["phase"] == "finished" {
            return None;
        }
        let movers = movers(app, tokens, &id, &view).await;
        if !view["window_closes_at"].is_null() && movers.len() >= reacting {
            return Some((id, movers));
        }
        // The rarest kind of move on offer: the one that opens a window (a thumb among passes
        // and cards given back) is seldom offered, and is taken when it is.
        let kind = |m: &Value| m["type"].as_str().unwrap_or_default().to_string();
        let offered: Vec<(usize, &Value)> = movers.iter().flat_map(|(s, ms)| ms.iter().map(move |m| (*s, m))).collect();
        let count = |k: &str| offered.iter().filter(|(_, m)| kind(m) == k).count();
        let rarest = offered.iter().map(|(_, m)| count(&kind(m))).min().unwrap();
        let choices: Vec<&(usize, &Value)> = offered.iter().filter(|(_, m)| count(&kind(m)) == rarest).collect();
        let (seat, command) = choices[rng.below(choices.len())];
        let r = app.play(&tokens[*seat], &id, *seat, command).await;
        assert_eq!(r.status.as_u16(), 200, "{game}: {}", r.body);
    }
    panic!("{game}: no reaction window in 5,000 moves");
}

#[actix_web::test]
async fn reactions_are_recorded_in_the_order_they_arrive_and_a_retry_never_moves_one() {
    let app = spawn_app().await;
    let mut rng = engine::random::Rng::new(41);
    for game in clocked_games() {
        // Five seats: four may react before the window closes on the last.
        let players = 5.clamp(*game.player_counts().start(), *game.player_counts().end());
        let tokens = players_at(&app, players).await;
        let mut found = None;
        for _ in 0..20 {
            found = at_a_window(&app, &tokens, game.id(), 4, &mut rng).await;
            if found.is_some() {
                break;
            }
        }
        let Some((id, movers)) = found else { panic!("{}: no window with four seats to react", game.id()) };
        // Each seat's own client sends its reaction.
        let send = |seat: usize, command: Value| {
            let (app, token, id) = (&app, &tokens[seat], &id);
            async move {
                app.post(&format!("/v1/matches/{id}/moves"))
                    .token(token)
                    .header("Idempotency-Key", &format!("reaction-{id}-{seat}"))
                    .json(&json!({ "seat": seat, "move": command }))
                    .send()
                    .await
            }
        };
        // Another game's move is no reaction: refused as that game's, whatever time it got.
        let r = app.play(&tokens[movers[0].0], &id, movers[0].0, &json!({"type": "bid", "tricks": 0})).await;
        r.assert_problem(422, "wrong-game");
        // One after another: the first to arrive is recorded first, with the earlier time.
        let (first, second) = (&movers[0], &movers[1]);
        let a = send(first.0, first.1[0].clone()).await;
        let b = send(second.0, second.1[0].clone()).await;
        assert_eq!((a.status.as_u16(), b.status.as_u16()), (200, 200), "{}: {} {}", game.id(), a.body, b.body);
        let (a_seq, b_seq) =
            (a.body["events"][0]["seq"].as_i64().unwrap(), b.body["events"][0]["seq"].as_i64().unwrap());
        assert!(a_seq < b_seq, "{}: the reaction that arrived first is recorded first", game.id());
        let (a_at, b_at) = (at_ms(&a.body["events"][0]), at_ms(&b.body["events"][0]));
        assert!(a_at.is_some() && a_at <= b_at, "{}: receive times {a_at:?} then {b_at:?}", game.id());
        // At once: whatever order they land in, their times rise with it.
        let rest: Vec<_> = movers[2..].iter().map(|(seat, moves)| send(*seat, moves[0].clone())).collect();
        for r in futures_util::future::join_all(rest).await {
            assert!(matches!(r.status.as_u16(), 200 | 422), "{}: {}", game.id(), r.body);
        }
        let log = events(&app, &id).await;
        let times: Vec<u64> = log.iter().filter_map(at_ms).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{}: times out of order {times:?}", game.id());
        // A retry under the same key, after others have landed: the first answer, nothing moved.
        let version = app.view(&tokens[0], &id, None).await["version"].clone();
        let again = send(first.0, first.1[0].clone()).await;
        assert_eq!(again.status.as_u16(), 200, "{}: {}", game.id(), again.body);
        assert_eq!(again.body["events"], a.body["events"], "{}: a retry is answered as it was first", game.id());
        assert_eq!(app.view(&tokens[0], &id, None).await["version"], version, "{}: a retry appends nothing", game.id());
        assert_eq!(events(&app, &id).await, log, "{}: a retry moves no reaction", game.id());
    }
}

#[actix_web::test]
async fn a_window_closes_by_time_once_whichever_nodes_sweep() {
    let app = spawn_app().await;
    let other = app.another_node().await;
    let mut rng = engine::random::Rng::new(7);
    for game in clocked_games() {
        let tokens = players_at(&app, *game.player_counts().start()).await;
        let token = tokens[0].clone();
        let mut found = None;
        for _ in 0..20 {
            found = at_a_window(&app, &tokens, game.id(), 2, &mut rng).await;
            if found.is_some() {
                break;
            }
        }
        let Some((id, _)) = found else { panic!("{}: no window", game.id()) };
        let view = app.view(&token, &id, None).await;
        let closes: chrono::DateTime<chrono::Utc> = view["window_closes_at"].as_str().unwrap().parse().unwrap();
        let before = view["version"].as_i64().unwrap();
        // Nobody reacts: the window closes by itself, on whichever node gets there.
        let wait = (closes - chrono::Utc::now()).to_std().unwrap_or_default();
        actix_web::rt::time::sleep(wait + Duration::from_millis(2_500)).await;
        let after = other.view(&token, &id, None).await;
        let closed = after["version"].as_i64().unwrap();
        assert!(closed > before, "{}: the window did not close by time: {after}", game.id());
        let log = events(&app, &id).await;
        let late: Vec<&Value> = log.iter().filter(|e| e["seq"].as_i64().unwrap() > before).collect();
        assert_eq!(late[0]["actor"], "service", "{}: time closes a window, not a seat", game.id());
        let at: chrono::DateTime<chrono::Utc> = late[0]["recorded_at"].as_str().unwrap().parse().unwrap();
        assert!(at >= closes, "{}: closed at {at}, before its time {closes}", game.id());
        // Both nodes kept sweeping: nothing was taken twice.
        actix_web::rt::time::sleep(Duration::from_millis(2_500)).await;
        let still = app.view(&token, &id, None).await;
        if still["window_closes_at"].is_null() {
            assert_eq!(still["version"].as_i64().unwrap(), closed, "{}: the window was closed twice", game.id());
        }
    }
}

#[actix_web::test]
async fn bots_react_after_a_human_like_delay_never_at_once() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let mut rng = engine::random::Rng::new(3);
    for game in clocked_games() {
        let players = *game.player_counts().start();
        let seats: Vec<Value> = (0..players)
            .map(|s| if s == 0 { json!({"kind": "me"}) } else { json!({"kind": "bot", "level": "strong"}) })
            .collect();
        let created = app.create_match(&token, json!({ "game": game.id(), "seats": seats })).await;
        let id = created["id"].as_str().unwrap().to_string();
        let mut reactions = Vec::new();
        for _ in 0..600 {
            let log = events(&app, &id).await;
            reactions = log
                .iter()
                .filter(|e| e["actor"].as_str().is_some_and(|a| a.starts_with("bot")))
                .filter_map(|e| e["data"]["after_ms"].as_u64())
                .collect();
            let view = app.view(&token, &id, Some(0)).await;
            if reactions.len() >= 3 || view["phase"] == "finished" {
                break;
            }
            // The person acts when they may (slowly, to leave the bots their chance).
            let moves = app.legal_moves(&token, &id, 0).await;
            if moves.is_empty() || !view["window_closes_at"].is_null() {
                actix_web::rt::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            let r = app.play(&token, &id, 0, &moves[rng.below(moves.len())]).await;
            assert!(matches!(r.status.as_u16(), 200 | 422), "{}: {}", game.id(), r.body);
        }
        assert!(!reactions.is_empty(), "{}: no bot reacted", game.id());
        assert!(reactions.iter().all(|&ms| ms >= 400), "{}: a bot reacted at once: {reactions:?}", game.id());
    }
}
