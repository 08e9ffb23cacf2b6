//! Whole matches of each playable game, played over HTTP.

use serde_json::{json, Value};

use crate::play::{check_deal_records, first_move, play_out};
use kortbord_e2e::{spawn_app, TestApp};

#[actix_web::test]
async fn a_whole_plump_match_by_one_player_holding_every_seat() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["phase"], "playing");
    assert_eq!(created["your_seats"], json!([0, 1, 2]));
    let (end, moves) = play_out(&app, &token, &id, first_move).await;
    assert!(moves > 100, "17 deals of bids and cards, got {moves} moves");
    assert_eq!(end["phase"], "finished");
    let winners = end["outcome"]["winners"].as_array().expect("an outcome");
    assert!(!winners.is_empty());
    let deals = end["deal_number"].as_u64().unwrap();
    assert_eq!(deals, 17, "3 players: 17 cards down to 1");
    check_deal_records(&app, &id, deals).await;
    // The live end and the record of the last deal agree on the scores.
    let last = app.get(&format!("/v1/matches/{id}/deals/{deals}")).send().await;
    assert_eq!(last.body["end"]["scores"], end["table"]["scores"]);
}

/// A side's bid from both partners' hands: a person playing both seats would do about this.
fn spader_chooser(app: &TestApp, view: &Value, moves: &[Value]) -> Value {
    let _ = app;
    let is = |m: &Value, t: &str| m["type"] == t;
    if let Some(look) = moves.iter().find(|m| is(m, "look")) {
        return look.clone();
    }
    if moves.iter().any(|m| is(m, "bid")) {
        let hand = view["table"]["hand"].as_array().cloned().unwrap_or_default();
        let estimate = spader_estimate(&hand) * 2;
        let wanted = estimate.clamp(2, 11);
        if let Some(bid) =
            moves.iter().find(|m| is(m, "bid") && m["tricks"] == wanted && m.get("nil").is_none_or(Value::is_null))
        {
            return bid.clone();
        }
    }
    moves
        .iter()
        .find(|m| !is(m, "redeal") && !is(m, "request_redeal") && !is(m, "blind_nil"))
        .unwrap_or(&moves[0])
        .clone()
}

fn spader_estimate(hand: &[Value]) -> i64 {
    let codes: Vec<&str> = hand.iter().filter_map(Value::as_str).collect();
    let high = codes.iter().filter(|c| c.starts_with('A') || c.starts_with('K')).count() as i64;
    let spades = codes.iter().filter(|c| c.ends_with('S')).count() as i64;
    high + (spades - 3).max(0)
}

#[actix_web::test]
async fn a_whole_spader_match_by_one_player_holding_every_seat() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Bo").await;
    let seats = json!([{"kind": "me"}, {"kind": "me"}, {"kind": "me"}, {"kind": "me"}]);
    let created = app.create_match(&token, json!({ "game": "spader", "seats": seats })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let (end, _) = play_out(&app, &token, &id, spader_chooser).await;
    assert_eq!(end["phase"], "finished");
    let winners = end["outcome"]["winners"].as_array().unwrap();
    assert_eq!(winners.len(), 2, "a side of two wins");
    let deals = end["deal_number"].as_u64().unwrap();
    check_deal_records(&app, &id, deals).await;
}

#[actix_web::test]
async fn bots_play_their_seats_as_soon_as_it_is_their_turn() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Cay").await;
    let created = app
        .create_match(
            &token,
            json!({ "game": "plump", "seats": [{"kind": "bot"}, {"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    // Whenever the view comes back, it is the person's turn or the match is over.
    assert_eq!(created["to_act"], json!([1]));
    let (end, moves) = play_out(&app, &token, &id, first_move).await;
    assert_eq!(end["phase"], "finished");
    assert!(moves > 0);
    // Every event was written by the service (deals), a bot, or the one person.
    let events = app.get(&format!("/v1/matches/{id}/events?limit=1000")).token(&token).send().await;
    for e in events.body["events"].as_array().unwrap() {
        let actor = e["actor"].as_str().unwrap();
        assert!(actor == "service" || actor.starts_with("bot:") || actor.len() == 36, "actor {actor}");
    }
}

/// Bots alone would play the whole match inside one request: refused (issue #25; the long
/// options the probe used are in `probe::a_match_with_no_seat_for_a_person_is_refused`).
#[actix_web::test]
async fn a_match_with_only_bots_is_refused() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Dag").await;
    let body = json!({ "game": "spader", "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
                       "options": {"target": 200} });
    app.post("/v1/matches").token(&token).json(&body).send().await.assert_problem(422, "no-human-seat");
}

#[actix_web::test]
async fn open_seats_wait_for_players_and_the_deal_starts_when_full() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let (bo, bo_id) = app.guest("Bo").await;
    let created = app
        .create_match(&ada, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["phase"], "waiting");
    assert_eq!(created["deal_number"], 0);
    let early = app.play(&ada, &id, 0, &json!({"type": "bid", "tricks": 1})).await;
    early.assert_problem(409, "match-not-started");
    let joined = app.post(&format!("/v1/matches/{id}/seats/1/join")).token(&bo).send().await;
    assert_eq!(joined.status.as_u16(), 200, "{}", joined.body);
    assert_eq!(joined.body["seats"][1]["player_id"], bo_id.as_str());
    assert_eq!(joined.body["deal_number"], 1);
    let again = app.post(&format!("/v1/matches/{id}/seats/1/join")).token(&ada).send().await;
    again.assert_problem(409, "seat-taken");
}

#[actix_web::test]
async fn a_supplied_deck_is_dealt_as_given() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Eva").await;
    let deck: Vec<String> = engine::cards::decks::standard52().iter().map(|c| c.to_string()).collect();
    let created = app
        .create_match(
            &token,
            json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}], "decks": [deck] }),
        )
        .await;
    let id = created["id"].as_str().unwrap();
    // Dealt one at a time from the dealer's left: seat 1 gets the 1st, 4th, 7th ... card.
    let view = app.view(&token, id, Some(1)).await;
    let mut hand: Vec<String> =
        view["table"]["hand"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
    let mut expected: Vec<String> = deck.iter().step_by(3).take(17).cloned().collect();
    hand.sort();
    expected.sort();
    assert_eq!(hand, expected);
    let bad = app
        .post("/v1/matches")
        .token(&token)
        .json(&json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}], "decks": [deck[..51].to_vec()] }))
        .send()
        .await;
    bad.assert_problem(422, "invalid-deck");
}
