//! The catalog, rulebooks, the OpenAPI document and the health endpoints.

use kortbord_e2e::spawn_app;

#[actix_web::test]
async fn the_catalog_lists_all_46_games_and_which_are_playable() {
    let app = spawn_app().await;
    let r = app.get("/v1/games").send().await;
    assert_eq!(r.status.as_u16(), 200);
    let games = r.body.as_array().unwrap();
    assert_eq!(games.len(), 46);
    let status = |id: &str| games.iter().find(|g| g["id"] == id).map(|g| g["status"].clone()).unwrap();
    for game in engine::playable() {
        assert_eq!(status(game.id()), "playable", "{}", game.id());
    }
    let playable = games.iter().filter(|g| g["status"] == "playable").count();
    assert_eq!(playable, engine::playable().len());
    assert!(playable >= 7);
    let planned = games.iter().filter(|g| g["status"] == "planned").count();
    assert_eq!(playable + planned, 46, "every game is playable or planned");
    let plump = app.get("/v1/games/plump").send().await.body;
    assert_eq!(plump["name_sv"], "Plump");
    assert_eq!(plump["min_players"], 3);
    assert_eq!(plump["max_players"], 8);
    assert!(plump["options"].as_array().unwrap().len() >= 3);
}

#[actix_web::test]
async fn rulebooks_have_rule_ids_and_texts_in_both_languages() {
    let app = spawn_app().await;
    for game in engine::playable().iter().map(|g| g.id()) {
        let r = app.get(&format!("/v1/games/{game}/rules")).send().await;
        assert_eq!(r.status.as_u16(), 200);
        let rules: Vec<&serde_json::Value> =
            r.body["sections"].as_array().unwrap().iter().flat_map(|s| s["rules"].as_array().unwrap()).collect();
        assert!(rules.len() > 10, "{game} has {} rules", rules.len());
        for rule in rules {
            assert!(rule["id"].as_str().unwrap().contains('.'));
            assert!(!rule["sv"].as_str().unwrap().is_empty());
            assert!(!rule["en"].as_str().unwrap().is_empty());
        }
    }
    if let Some(planned) = app.planned_game().await {
        app.get(&format!("/v1/games/{planned}/rules")).send().await.assert_problem(404, "game-planned");
    }
}

#[actix_web::test]
async fn every_rule_answers_by_its_id_with_its_section_and_neighbours() {
    let app = spawn_app().await;
    for game in engine::playable() {
        let book = game.rulebook();
        for section in &book.sections {
            for rule in &section.rules {
                let url = format!("/v1/games/{}/rules/{}", game.id(), rule.id);
                let r = app.get(&url).send().await;
                assert_eq!(r.status.as_u16(), 200, "{url}: {}", r.body);
                assert_eq!(r.body["id"], rule.id);
                assert_eq!(r.body["url"], url.as_str());
                assert_eq!(r.body["sv"], rule.sv);
                assert_eq!(r.body["en"], rule.en);
                assert_eq!(r.body["section"]["id"], section.id);
                let related: Vec<&str> =
                    r.body["related"].as_array().unwrap().iter().map(|n| n["id"].as_str().unwrap()).collect();
                let expected: Vec<&str> = section.rules.iter().map(|n| n.id).filter(|id| *id != rule.id).collect();
                assert_eq!(related, expected, "{url}");
            }
        }
    }
    app.get("/v1/games/plump/rules/plump.no-such-rule").send().await.assert_problem(404, "not-found");
    if let Some(planned) = app.planned_game().await {
        app.get(&format!("/v1/games/{planned}/rules/core.turn")).send().await.assert_problem(404, "game-planned");
    }
    app.get("/v1/games/no-such-game/rules/core.turn").send().await.assert_problem(404, "not-found");
}

#[actix_web::test]
async fn openapi_docs_and_health_are_served() {
    let app = spawn_app().await;
    let spec = app.get("/openapi.json").send().await;
    assert_eq!(spec.status.as_u16(), 200);
    assert!(spec.body["paths"]["/v1/matches/{id}/moves"].is_object());
    let committed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(spec.body, committed, "the served document is the committed one");
    let docs = app.get("/docs/").send().await;
    assert_eq!(docs.status.as_u16(), 200);
    assert!(docs.body.as_str().unwrap().contains("swagger"), "Swagger UI is served from the binary");
    assert_eq!(app.get("/healthz").send().await.status.as_u16(), 200);
    assert_eq!(app.get("/readyz").send().await.status.as_u16(), 200);
    for probe in ["/healthz", "/readyz"] {
        assert_eq!(app.request(actix_web::http::Method::HEAD, probe).send().await.status.as_u16(), 200, "HEAD {probe}");
    }
    let r = app.get("/healthz").header("X-Request-Id", "abc-123").send().await;
    assert_eq!(r.headers.get("x-request-id").unwrap(), "abc-123");
}
