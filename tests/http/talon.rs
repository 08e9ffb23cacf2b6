//! A talon shuffled anew within a deal (Vändåtta's pile less its top card): the order supplied
//! for that shuffle when the match was created is the one used, the deal's number stays, nobody
//! sees the order while the deal lasts, and the deal's record and every step of its replay are
//! exactly what the engine makes of the recorded events.

use serde_json::{json, Value};

use kortbord_e2e::spawn_app;

fn codes(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

#[actix_web::test]
async fn a_supplied_order_shuffles_the_talon_anew_and_the_deal_replays_exactly() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Vera").await;
    // Dealt one at a time from dealer 0's left, then the nine of spades turned up; the rest of
    // the pack in order is the talon.
    let hands = [codes("2C 3C 5C 6C 7C TC JC"), codes("AS AH 4D KC KD 2D 3D")];
    let mut deck: Vec<String> = (0..14).map(|i| hands[(1 + i % 2) % 2][i / 2].clone()).collect();
    deck.push("9S".into());
    for card in engine::cards::decks::standard52().iter().map(|c| c.to_string()) {
        if !deck.contains(&card) {
            deck.push(card);
        }
    }
    let seats = json!([{"kind": "me"}, {"kind": "me"}]);
    let created =
        app.create_match(&token, json!({ "game": "vandatta", "seats": seats, "decks": [deck, codes("AS 9S")] })).await;
    let id = created["id"].as_str().unwrap().to_string();

    // Three cards drawn a turn, nothing laid, until one card is left in the talon at seat 1's turn.
    loop {
        let view = app.view(&token, &id, None).await;
        let seat = view["to_act"][0].as_u64().expect("someone is to act") as usize;
        if view["table"]["talon_count"].as_u64().unwrap() <= 1 && seat == 1 {
            break;
        }
        let moves = app.legal_moves(&token, &id, seat).await;
        let draw = moves.iter().find(|m| m["type"] == "draw" || m["type"] == "pass").unwrap();
        let r = app.play(&token, &id, seat, draw).await;
        assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    }
    // Two aces: seat 0 draws the talon's last card; its second draw waits for the new talon,
    // shuffled from the pile under the aces (9S and AS) in the order supplied.
    let r = app.play(&token, &id, 1, &json!({ "type": "play", "cards": ["AS", "AH"] })).await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    let view = app.view(&token, &id, Some(0)).await;
    assert_eq!(view["deal_number"], 1, "a talon shuffled anew is no new deal");
    assert_eq!((view["table"]["reshuffles"].clone(), view["table"]["talon_count"].clone()), (json!(1), json!(1)));
    let hand = view["table"]["hand"].as_array().unwrap();
    assert!(hand.contains(&json!("AS")), "seat 0 drew the new talon's top card, AS: {hand:?}");
    assert_eq!(view["to_act"], json!([1]), "the aces' player plays again");

    // While the deal lasts, nobody sees the new talon's order.
    let for_spectator = app.get(&format!("/v1/matches/{id}/events")).send().await.body;
    let for_seat = app.get(&format!("/v1/matches/{id}/events")).token(&token).send().await.body;
    for page in [&for_spectator, &for_seat] {
        let shuffled: Vec<&Value> =
            page["events"].as_array().unwrap().iter().filter(|e| e["type"] == "talon_shuffled").collect();
        assert_eq!(shuffled.len(), 1);
        assert_eq!(
            (shuffled[0]["data"]["talon"].clone(), shuffled[0]["data"]["talon_count"].clone()),
            (json!(null), json!(2))
        );
    }
    app.get(&format!("/v1/matches/{id}/deals/1")).send().await.assert_problem(409, "deal-in-progress");

    // The deal played out with the first legal move each time ("one left" said when it may be).
    for _ in 0..3000 {
        let view = app.view(&token, &id, None).await;
        if view["deal_number"] != 1 || view["phase"] == "finished" {
            break;
        }
        let seat = view["to_act"][0].as_u64().expect("someone is to act") as usize;
        let moves = app.legal_moves(&token, &id, seat).await;
        let said = moves.iter().find(|m| m["one_left"] == true).unwrap_or(&moves[0]);
        let r = app.play(&token, &id, seat, said).await;
        assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    }

    // The record shows the deck and the supplied order, and every step of the replay is the
    // engine's record of the events so far.
    let record = app.get(&format!("/v1/matches/{id}/deals/1")).send().await;
    assert_eq!(record.status.as_u16(), 200, "{} {}", record.body, app.view(&token, &id, None).await);
    let events = record.body["events"].as_array().unwrap();
    assert_eq!(events[0]["data"]["deck"], json!(deck));
    let shuffled = events.iter().find(|e| e["type"] == "talon_shuffled").unwrap();
    assert_eq!(shuffled["data"]["talon"], json!(["AS", "9S"]));
    let game = engine::game("vandatta").unwrap();
    let mut table = game.setup(2, &game.normalize_options(&Value::Null).unwrap()).unwrap();
    for at in 0..=events.len() {
        if at > 0 && !events[at - 1]["type"].as_str().unwrap().starts_with("match.") {
            table.apply(&events[at - 1]["data"]).unwrap();
        }
        let step = app.get(&format!("/v1/matches/{id}/deals/1/replay?at={at}")).send().await;
        assert_eq!(step.status.as_u16(), 200, "{}", step.body);
        if at > 0 {
            assert_eq!(step.body["table"], table.record_view(None), "step {at}");
        }
    }
    assert_eq!(record.body["end"], table.record_view(None));
}
