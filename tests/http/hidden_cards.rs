//! A player sees only what they could see at a real table.

use serde_json::json;

use kortbord_e2e::{cards_in, spawn_app};

#[actix_web::test]
async fn no_response_to_a_seat_holds_another_seats_hand() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let (bo, _) = app.guest("Bo").await;
    let created = app
        .create_match(&ada, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let joined = app.post(&format!("/v1/matches/{id}/seats/1/join")).token(&bo).send().await;
    assert_eq!(joined.status.as_u16(), 200);
    let hand_of = |view: &serde_json::Value| -> Vec<String> { cards_in(&view["table"]["hand"]) };
    for _ in 0..40 {
        let a_view = app.view(&ada, &id, None).await;
        if a_view["phase"] == "finished" {
            break;
        }
        let b_view = app.view(&bo, &id, None).await;
        let a_hand = hand_of(&a_view);
        let b_hand = hand_of(&b_view);
        assert!(!a_hand.is_empty() || !b_hand.is_empty());
        // Earlier deals are over and public; the same cards are dealt again, so only this
        // deal's events can give a hand away.
        let deal = a_view["deal_number"].clone();
        let this_deal = |page: serde_json::Value| -> serde_json::Value {
            serde_json::Value::Array(page["events"].as_array().unwrap().iter().filter(|e| e["deal"] == deal).cloned().collect())
        };
        let a_events = this_deal(app.get(&format!("/v1/matches/{id}/events")).token(&ada).send().await.body);
        let b_events = this_deal(app.get(&format!("/v1/matches/{id}/events")).token(&bo).send().await.body);
        let spectator_view = app.get(&format!("/v1/matches/{id}")).send().await.body;
        let spectator_events = this_deal(app.get(&format!("/v1/matches/{id}/events")).send().await.body);
        for (who, seen, secret) in [
            ("Ada's view", &a_view, &b_hand),
            ("Ada's events", &a_events, &b_hand),
            ("Bo's view", &b_view, &a_hand),
            ("Bo's events", &b_events, &a_hand),
            ("the spectator's view", &spectator_view, &a_hand),
            ("the spectator's view", &spectator_view, &b_hand),
            ("the spectator's events", &spectator_events, &a_hand),
            ("the spectator's events", &spectator_events, &b_hand),
        ] {
            let shown = cards_in(seen);
            for card in secret {
                assert!(!shown.contains(card), "{who} shows {card}");
            }
        }
        // Whoever is to act moves.
        let seat = a_view["to_act"][0].as_u64().unwrap() as usize;
        let token = if seat == 0 { &ada } else { &bo };
        let moves = app.legal_moves(token, &id, seat).await;
        let legal_cards = cards_in(&serde_json::Value::Array(moves.clone()));
        let other_hand = if seat == 0 { &b_hand } else { &a_hand };
        assert!(legal_cards.iter().all(|c| !other_hand.contains(c)));
        let r = app.play(token, &id, seat, &moves[0]).await;
        assert_eq!(r.status.as_u16(), 200, "{}", r.body);
        let answer_this_deal = serde_json::Value::Array(
            r.body["events"].as_array().unwrap().iter().filter(|e| e["deal"] == deal).cloned().collect(),
        );
        let answer = [answer_this_deal, r.body["match"].clone()];
        for card in other_hand {
            if r.body["match"]["deal_number"] == deal {
                assert!(!cards_in(&serde_json::json!(answer)).contains(card), "a move's answer shows {card}");
            }
        }
    }
    // A deal still being played has no public record.
    let r = app.get(&format!("/v1/matches/{id}/deals/1")).send().await;
    if r.status.as_u16() != 200 {
        r.assert_problem(409, "deal-in-progress");
    }
}
