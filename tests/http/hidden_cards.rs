//! A player sees only what they could see at a real table: for every playable game, two people
//! at one table (bots in the other seats) never see each other's hand in any response.

use serde_json::{json, Value};

use kortbord_e2e::{cards_in, spawn_app};

/// The events of the deal in play: earlier deals are over and public, and the same cards are
/// dealt again, so only this deal's events can give a hand away.
fn this_deal(page: &Value, deal: &Value) -> Value {
    Value::Array(page["events"].as_array().unwrap().iter().filter(|e| &e["deal"] == deal).cloned().collect())
}

#[actix_web::test]
async fn no_response_to_a_seat_holds_another_seats_hand_in_any_game() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let (bo, _) = app.guest("Bo").await;
    let mut rng = engine::random::Rng::new(7);
    for game in engine::playable() {
        let players = *game.player_counts().start();
        let seats: Vec<Value> = (0..players)
            .map(|s| match s {
                0 => json!({"kind": "me"}),
                1 => json!({"kind": "open"}),
                _ => json!({"kind": "bot"}),
            })
            .collect();
        let hand_of = |view: &Value| -> Vec<String> { cards_in(&view["table"]["hand"]) };
        let mut checked = 0;
        // A match can end within a few moves (a Trettioett deal won at once on 31): another
        // one is played until enough steps were checked.
        for _match in 0..5 {
            if checked > 10 {
                break;
            }
            let created = app.create_match(&ada, json!({ "game": game.id(), "seats": seats })).await;
            let id = created["id"].as_str().unwrap().to_string();
            let joined = app.post(&format!("/v1/matches/{id}/seats/1/join")).token(&bo).send().await;
            assert_eq!(joined.status.as_u16(), 200, "{}", joined.body);
            for _ in 0..150 {
                let a_view = app.view(&ada, &id, Some(0)).await;
                if a_view["phase"] == "finished" {
                    break;
                }
                let b_view = app.view(&bo, &id, Some(1)).await;
                let (a_hand, b_hand) = (hand_of(&a_view), hand_of(&b_view));
                let deal = a_view["deal_number"].clone();
                let a_events =
                    this_deal(&app.get(&format!("/v1/matches/{id}/events")).token(&ada).send().await.body, &deal);
                let b_events =
                    this_deal(&app.get(&format!("/v1/matches/{id}/events")).token(&bo).send().await.body, &deal);
                let spectator_view = app.get(&format!("/v1/matches/{id}")).send().await.body;
                let spectator_events =
                    this_deal(&app.get(&format!("/v1/matches/{id}/events")).send().await.body, &deal);
                let a_moves = Value::Array(app.legal_moves(&ada, &id, 0).await);
                let b_moves = Value::Array(app.legal_moves(&bo, &id, 1).await);
                // A card shown to the whole table (a turned card taken into a hand, a shown dog) is
                // no secret; what a spectator may see is checked in the engine against `secrets`.
                let public = cards_in(&json!([spectator_view, spectator_events]));
                // A card a seat handed to the other itself (President's exchange) is known to it
                // in the other's hand.
                let gave = |events: &Value, seat: u64| -> Vec<String> {
                    let given = events.as_array().unwrap().iter().filter(|e| {
                        e["data"]["type"] == "cards_given" && e["data"]["from"] == seat && e["game"] == "president"
                    });
                    given.flat_map(|e| cards_in(&e["data"]["cards"])).collect()
                };
                let (a_gave, b_gave) = (gave(&a_events, 0), gave(&b_events, 1));
                let a_hand: Vec<String> =
                    a_hand.into_iter().filter(|c| !public.contains(c) && !b_gave.contains(c)).collect();
                let b_hand: Vec<String> =
                    b_hand.into_iter().filter(|c| !public.contains(c) && !a_gave.contains(c)).collect();
                for (who, seen, secret) in [
                    ("Ada's view", &a_view, &b_hand),
                    ("Ada's events", &a_events, &b_hand),
                    ("Ada's legal moves", &a_moves, &b_hand),
                    ("Bo's view", &b_view, &a_hand),
                    ("Bo's events", &b_events, &a_hand),
                    ("Bo's legal moves", &b_moves, &a_hand),
                ] {
                    let shown = cards_in(seen);
                    for card in secret {
                        assert!(!shown.contains(card), "{}: {who} shows {card}", game.id());
                    }
                }
                checked += 1;
                // Whoever of the two is to act moves; bots have already moved.
                let seat = a_view["to_act"].as_array().unwrap().iter().filter_map(Value::as_u64).find(|s| *s <= 1);
                let Some(seat) = seat.map(|s| s as usize) else { panic!("{}: nobody to act: {a_view}", game.id()) };
                let (token, moves) = if seat == 0 { (&ada, &a_moves) } else { (&bo, &b_moves) };
                let moves = moves.as_array().unwrap();
                let r = app.play(token, &id, seat, &moves[rng.below(moves.len())]).await;
                assert_eq!(r.status.as_u16(), 200, "{}: {}", game.id(), r.body);
                if r.body["match"]["deal_number"] == deal {
                    // A move may make another seat's card public (the last bottom card chosen in
                    // Fyrmanswhist shows the others'): what a spectator now sees is no secret.
                    let spectator_after = json!([
                        app.get(&format!("/v1/matches/{id}")).send().await.body,
                        this_deal(&app.get(&format!("/v1/matches/{id}/events")).send().await.body, &deal),
                    ]);
                    let public_after = cards_in(&spectator_after);
                    let other_hand = if seat == 0 { &b_hand } else { &a_hand };
                    let other_hand: Vec<&String> = other_hand.iter().filter(|c| !public_after.contains(c)).collect();
                    let answer = json!([this_deal(&r.body, &deal), r.body["match"]]);
                    for card in other_hand {
                        assert!(!cards_in(&answer).contains(card), "{}: a move's answer shows {card}", game.id());
                    }
                }
            }
        }
        assert!(checked > 10, "{}: only {checked} steps checked", game.id());
    }
}

#[actix_web::test]
async fn a_deal_in_play_has_no_public_record() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let created = app
        .create_match(&ada, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    let id = created["id"].as_str().unwrap();
    app.get(&format!("/v1/matches/{id}/deals/1")).send().await.assert_problem(409, "deal-in-progress");
    app.get(&format!("/v1/matches/{id}/deals/1/replay?at=1")).send().await.assert_problem(409, "deal-in-progress");
}
