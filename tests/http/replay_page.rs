//! The replay viewer's page and assets: served from the binary with their content types, for
//! any match that exists; a missing one is a 404 (a page for a browser, a problem otherwise).

use serde_json::json;

use kortbord_e2e::spawn_app;

#[actix_web::test]
async fn the_replay_page_and_its_assets_are_served_with_their_content_types() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]}))
        .await;
    let id = created["id"].as_str().unwrap();

    let page = app.get(&format!("/replay/{id}/deals/1")).header("Accept", "text/html,*/*;q=0.8").send().await;
    assert_eq!(page.status.as_u16(), 200);
    assert_eq!(page.content_type, "text/html; charset=utf-8");
    let html = page.body.as_str().unwrap();
    for asset in ["/replay/assets/replay.js", "/replay/assets/tables.js", "/replay/assets/replay.css"] {
        assert!(html.contains(asset), "the page links {asset}");
    }
    let csp = page.headers.get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or("");
    assert!(csp.contains("script-src 'self'"), "{csp}");
    // Any Accept a browser sends is fine for a page (the API's JSON-only check does not apply).
    let plain = app.get(&format!("/replay/{id}/deals/1")).header("Accept", "text/html").send().await;
    assert_eq!(plain.status.as_u16(), 200);

    for (asset, content_type, needle) in [
        ("replay.js", "text/javascript; charset=utf-8", "/replay?at="),
        ("tables.js", "text/javascript; charset=utf-8", "KortbordTables"),
        ("replay.css", "text/css; charset=utf-8", ".card"),
    ] {
        let r = app.get(&format!("/replay/assets/{asset}")).send().await;
        assert_eq!(r.status.as_u16(), 200, "{asset}");
        assert_eq!(r.content_type, content_type, "{asset}");
        assert!(r.body.as_str().unwrap().contains(needle), "{asset}");
        assert_eq!(r.headers.get("x-content-type-options").unwrap(), "nosniff");
    }
    app.get("/replay/assets/secrets.txt").send().await.assert_problem(404, "not-found");

    // The page is no API operation: the document does not list it.
    let spec = app.get("/openapi.json").send().await;
    assert!(spec.body["paths"].as_object().unwrap().keys().all(|p| !p.starts_with("/replay")));
}

#[actix_web::test]
async fn a_missing_match_has_no_replay_page() {
    let app = spawn_app().await;
    let missing = uuid::Uuid::new_v4();
    let page = app
        .get(&format!("/replay/{missing}/deals/1"))
        .header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
        .header("Accept-Language", "sv")
        .send()
        .await;
    assert_eq!(page.status.as_u16(), 404);
    assert_eq!(page.content_type, "text/html; charset=utf-8");
    assert!(page.body.as_str().unwrap().contains("Ingen sådan match"), "{}", page.body);
    app.get(&format!("/replay/{missing}/deals/1")).send().await.assert_problem(404, "not-found");
    app.get("/replay/not-a-match/deals/1").send().await.assert_problem(404, "not-found");
}
