//! Every playable game, at its smallest and largest table, played to the end over HTTP by a
//! person (choosing legal moves at random) with bots in the other seats.

use serde_json::{json, Value};

use crate::play::check_deal_records;
use kortbord_e2e::spawn_app;

#[actix_web::test]
async fn every_playable_game_can_be_played_to_its_end_over_http() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let mut rng = engine::random::Rng::new(2026);
    for game in engine::playable() {
        let counts = game.player_counts();
        let mut sizes = vec![*counts.start(), *counts.end()];
        sizes.dedup();
        for players in sizes {
            // A game on the server's clock is played by the person at every seat: its bots'
            // reactions wait for their human-like delays (tests/http/reactions.rs has them).
            let clocked = game.clocked();
            let seats: Vec<Value> = (0..players)
                .map(|s| if s == 0 || clocked { json!({"kind": "me"}) } else { json!({"kind": "bot"}) })
                .collect();
            let created = app.create_match(&token, json!({ "game": game.id(), "seats": seats })).await;
            let id = created["id"].as_str().unwrap().to_string();
            let mut moves_made = 0;
            loop {
                let view = app.view(&token, &id, None).await;
                if view["phase"] == "finished" {
                    assert!(view["outcome"]["winners"].is_array(), "{}: {view}", game.id());
                    check_deal_records(&app, &id, view["deal_number"].as_u64().unwrap()).await;
                    break;
                }
                let mut seat = 0;
                if clocked {
                    // Any seat with something to do (the game lists every seat that may react).
                    let to_act: Vec<usize> = view["to_act"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter_map(Value::as_u64)
                        .map(|s| s as usize)
                        .collect();
                    let mut movers = Vec::new();
                    for s in to_act {
                        if !app.legal_moves(&token, &id, s).await.is_empty() {
                            movers.push(s);
                        }
                    }
                    assert!(!movers.is_empty(), "{}: nobody has a move: {view}", game.id());
                    seat = movers[rng.below(movers.len())];
                } else {
                    assert_eq!(view["to_act"], json!([0]), "{}: only the person is ever waited for", game.id());
                }
                let moves = app.legal_moves(&token, &id, seat).await;
                assert!(!moves.is_empty(), "{}: {view}", game.id());
                let command = &moves[rng.below(moves.len())];
                let r = app.play(&token, &id, seat, command).await;
                assert_eq!(r.status.as_u16(), 200, "{} {command}: {}", game.id(), r.body);
                moves_made += 1;
                assert!(moves_made < 5_000, "{} with {players} players does not end", game.id());
            }
        }
    }
}
