//! A match exported as ndjson, and a deal played at a real table checked against the rules.

use serde_json::{json, Value};

use crate::play::{first_move, play_out};
use kortbord_e2e::{spawn_app, TestApp};

async fn export(app: &TestApp, token: Option<&str>, id: &str) -> Vec<Value> {
    let mut request = app.get(&format!("/v1/matches/{id}/export")).header("Accept", "application/x-ndjson");
    if let Some(token) = token {
        request = request.token(token);
    }
    let r = request.send().await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    assert_eq!(r.content_type, "application/x-ndjson");
    let text = r.body.as_str().expect("ndjson is not one JSON document").to_string();
    assert!(text.ends_with('\n'));
    text.lines().map(|line| serde_json::from_str(line).expect("each line is JSON")).collect()
}

async fn feed(app: &TestApp, token: Option<&str>, id: &str) -> Vec<Value> {
    let mut request = app.get(&format!("/v1/matches/{id}/events?since=0&limit=1000"));
    if let Some(token) = token {
        request = request.token(token);
    }
    request.send().await.body["events"].as_array().unwrap().clone()
}

#[actix_web::test]
async fn an_export_is_the_feed_while_playing_and_the_record_once_over() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let created = app
        .create_match(&ada, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    // While playing: line for line what the event feed shows each caller.
    let lines = export(&app, Some(&ada), &id).await;
    assert_eq!(lines.len() as i64, created["version"].as_i64().unwrap());
    assert_eq!(lines, feed(&app, Some(&ada), &id).await, "Ada sees her own hand only");
    assert_eq!(export(&app, None, &id).await, feed(&app, None, &id).await, "a spectator sees no hand");
    assert_ne!(export(&app, None, &id).await, lines);

    // Over: every deal's lines are its record.
    let (end, _) = play_out(&app, &ada, &id, first_move).await;
    let lines = export(&app, None, &id).await;
    assert_eq!(lines.len() as i64, end["version"].as_i64().unwrap());
    for k in 1..=end["deal_number"].as_i64().unwrap() {
        let record = app.get(&format!("/v1/matches/{id}/deals/{k}")).send().await.body;
        let deal: Vec<Value> = lines.iter().filter(|l| l["deal"] == k).cloned().collect();
        assert_eq!(&deal, record["events"].as_array().unwrap(), "deal {k}");
    }
    let seqs: Vec<i64> = lines.iter().map(|l| l["seq"].as_i64().unwrap()).collect();
    assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>());

    // A client that takes only JSON is told the export is not JSON... but ndjson is offered
    // to those who ask, and a missing match is a problem.
    let r = app.get(&format!("/v1/matches/{id}/export")).header("Accept", "text/html").send().await;
    r.assert_problem(406, "not-acceptable");
    app.get(&format!("/v1/matches/{}/export", uuid::Uuid::new_v4())).send().await.assert_problem(404, "not-found");
}

/// Plays a whole Plump match from supplied decks with one player in every seat, and returns the
/// decks, every move with its seat, and the final view.
async fn played_at_a_table(app: &TestApp, token: &str) -> (Vec<Vec<String>>, Vec<Value>, Value) {
    let mut rng = engine::random::Rng::new(41);
    let decks: Vec<Vec<String>> = (0..17)
        .map(|_| {
            let mut deck = engine::cards::decks::standard52();
            for i in (1..deck.len()).rev() {
                deck.swap(i, rng.below(i + 1));
            }
            deck.iter().map(|c| c.to_string()).collect()
        })
        .collect();
    let seats = json!([{"kind": "me"}, {"kind": "me"}, {"kind": "me"}]);
    let created = app.create_match(token, json!({ "game": "plump", "seats": seats, "decks": decks })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut moves = Vec::new();
    loop {
        let view = app.view(token, &id, None).await;
        if view["phase"] == "finished" {
            return (decks, moves, view);
        }
        let seat = view["to_act"][0].as_u64().unwrap() as usize;
        let legal = app.legal_moves(token, &id, seat).await;
        let command = legal[rng.below(legal.len())].clone();
        let r = app.play(token, &id, seat, &command).await;
        assert_eq!(r.status.as_u16(), 200, "{}", r.body);
        moves.push(json!({ "seat": seat, "move": command }));
    }
}

#[actix_web::test]
async fn a_deal_played_at_a_table_is_checked_move_by_move() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let (decks, moves, end) = played_at_a_table(&app, &ada).await;
    let check = |body: Value| {
        let app = &app;
        async move { app.post("/v1/games/plump/check").json(&body).send().await }
    };

    // As played: every move legal, the same scores as the match.
    let r = check(json!({ "players": 3, "decks": decks, "moves": moves })).await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    assert_eq!(r.body["legal"], true);
    assert!(r.body["broken"].is_null());
    assert_eq!(r.body["moves_checked"], moves.len());
    assert_eq!(r.body["deals_dealt"], 17);
    assert_eq!(r.body["finished"], true);
    assert_eq!(r.body["table"]["scores"], end["table"]["scores"]);

    // A move out of turn: the check stops there and names the rule.
    let mut wrong = moves.clone();
    let k = 40;
    let seat = wrong[k]["seat"].as_u64().unwrap();
    wrong[k]["seat"] = json!((seat + 1) % 3);
    let r = check(json!({ "players": 3, "decks": decks, "moves": wrong })).await;
    assert_eq!(r.body["legal"], false, "{}", r.body);
    assert_eq!(r.body["moves_checked"], k);
    assert_eq!(r.body["broken"]["move_index"], k);
    assert_eq!(r.body["broken"]["rule"], "core.turn");
    assert_eq!(r.body["broken"]["rule_url"], "/v1/games/plump/rules/core.turn");
    assert_eq!(r.body["to_act"], json!([seat]), "the table as it stood before the broken move");
    let rule = app.get(r.body["broken"]["rule_url"].as_str().unwrap()).send().await;
    assert_eq!(rule.status.as_u16(), 200);

    // A card the seat does not hold, in Swedish.
    let mut wrong = moves.clone();
    let k = wrong.iter().position(|m| m["move"]["type"] == "play").unwrap();
    let played = wrong[k]["move"]["card"].as_str().unwrap().to_string();
    let seat = wrong[k]["seat"].as_u64().unwrap() as usize;
    // Seat `seat` holds the cards dealt to it; any card of the other seats' first-deal hands is not its own.
    let table =
        check(json!({ "players": 3, "decks": decks, "moves": moves[..k].to_vec() })).await.body["table"].clone();
    let other = table["hands"][(seat + 1) % 3].as_array().unwrap()[0].as_str().unwrap().to_string();
    assert_ne!(other, played);
    wrong[k]["move"]["card"] = json!(other);
    let r = app
        .post("/v1/games/plump/check")
        .header("Accept-Language", "sv")
        .json(&json!({ "players": 3, "decks": decks, "moves": wrong }))
        .send()
        .await;
    assert_eq!(r.body["broken"]["move_index"], k, "{}", r.body);
    assert_eq!(r.body["broken"]["rule"], "core.card-not-held");
    assert_eq!(r.body["broken"]["detail"], r.body["broken"]["explanation"]["sv"]);

    // Too few decks: the first move of the deal without one is where it stops.
    let r = check(json!({ "players": 3, "decks": decks[..1], "moves": moves })).await;
    assert_eq!(r.body["legal"], false);
    assert_eq!(r.body["broken"]["rule"], "core.deck");
    assert_eq!(r.body["broken"]["deck_index"], 1);
    assert_eq!(r.body["deals_dealt"], 1);
    // A deck that is not a whole pack.
    let mut short = decks.clone();
    short[0][0] = short[0][1].clone();
    let r = check(json!({ "players": 3, "decks": short, "moves": moves })).await;
    assert_eq!(r.body["broken"]["deck_index"], 0, "{}", r.body);
    assert_eq!(r.body["broken"]["rule"], "core.deck");
    assert!(r.body["broken"]["move_index"].is_null());

    // What cannot be checked at all.
    let r = check(json!({ "players": 3, "decks": decks, "moves": [{"seat": 0, "move": {"type": "fly"}}] })).await;
    r.assert_problem(400, "invalid-move");
    // Moves are read before any deck is dealt: a broken deck does not hide a malformed move.
    let unreadable = json!([{"seat": 0, "move": {"type": "play", "card": "AS", "extra": 42}}]);
    check(json!({ "players": 3, "decks": [["AS"]], "moves": unreadable })).await.assert_problem(400, "invalid-move");
    let r =
        check(json!({ "players": 3, "decks": [["AS"]], "moves": [{"seat": 0, "move": {"type": "draw_from_stock"}}] }))
            .await;
    r.assert_problem(422, "wrong-game");
    check(json!({ "players": 9, "decks": [], "moves": [] })).await.assert_problem(422, "invalid-options");
    check(json!({ "players": 3, "decks": [], "moves": [], "extra": 1 })).await.assert_problem(422, "invalid-body");
    if let Some(planned) = app.planned_game().await {
        let r = app
            .post(&format!("/v1/games/{planned}/check"))
            .json(&json!({ "players": 2, "decks": [], "moves": [] }))
            .send()
            .await;
        r.assert_problem(404, "game-planned");
    }
}
