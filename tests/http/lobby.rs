//! What the lobby shows and to whom (issue 44): a list without a token holds only public
//! matches waiting for players; private matches are joined with an invitation code and never
//! listed to others; waiting matches expire from the lobby, once, whichever nodes sweep.

use std::time::Duration;

use serde_json::{json, Value};

use kortbord_e2e::TestApp;

fn ids(page: &Value) -> Vec<String> {
    page["matches"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap().to_string()).collect()
}

async fn list(app: &TestApp, token: Option<&str>, query: &str) -> Vec<String> {
    let mut request = app.get(&format!("/v1/matches?{query}"));
    if let Some(token) = token {
        request = request.token(token);
    }
    let r = request.send().await;
    assert_eq!(r.status.as_u16(), 200, "{query}: {}", r.body);
    ids(&r.body)
}

async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    app.create_match(token, body).await
}

fn plump(seats: &[&str]) -> Value {
    let seats: Vec<Value> = seats.iter().map(|k| json!({ "kind": k })).collect();
    json!({ "game": "plump", "seats": seats })
}

fn id(view: &Value) -> String {
    view["id"].as_str().unwrap().to_string()
}

#[actix_web::test]
async fn without_a_token_the_list_holds_only_what_the_lobby_shows() {
    let app = kortbord_e2e::spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let (bo, _) = app.guest("Bo").await;
    let playing = id(&create(&app, &ada, plump(&["me", "bot", "bot"])).await);
    let waiting = id(&create(&app, &ada, plump(&["me", "open", "bot"])).await);
    let bos = id(&create(&app, &bo, plump(&["me", "bot", "bot"])).await);

    // Nobody's playing match, nor who plays it, to a caller without a token: only the lobby.
    assert_eq!(list(&app, None, "").await, vec![waiting.clone()]);
    assert!(list(&app, None, "phase=playing").await.is_empty());
    assert!(list(&app, None, "phase=finished").await.is_empty());
    // A player sees the lobby and their own matches, not other players' games.
    assert_eq!(list(&app, Some(&ada), "").await, [waiting.clone(), playing.clone()]);
    assert_eq!(list(&app, Some(&bo), "").await, [bos.clone(), waiting.clone()]);
    assert_eq!(list(&app, Some(&bo), "phase=playing").await, vec![bos.clone()]);
    // Anyone who has a match's id may still watch it.
    assert_eq!(app.get(&format!("/v1/matches/{playing}")).send().await.status.as_u16(), 200);
}

#[actix_web::test]
async fn a_private_match_is_joined_with_its_invitation_code_and_never_listed_to_others() {
    let app = kortbord_e2e::spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let (bo, _) = app.guest("Bo").await;
    let mut body = plump(&["me", "open", "open"]);
    body["private"] = json!(true);
    let created = create(&app, &ada, body.clone()).await;
    let private = id(&created);
    assert_eq!(created["private"], true);
    let code = created["invitation"].as_str().expect("the creator gets the code").to_string();
    assert_eq!(code.len(), 16);
    assert!(code.bytes().all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()), "{code}");
    let another = create(&app, &ada, body).await;
    assert_ne!(another["invitation"], created["invitation"], "each match has its own code");
    let public = id(&create(&app, &ada, plump(&["me", "open", "bot"])).await);

    // Only its creator sees it listed, and the code; the lobby and its events never show either.
    assert_eq!(list(&app, None, "").await, vec![public.clone()]);
    assert_eq!(list(&app, None, "open=true").await, vec![public.clone()]);
    assert_eq!(list(&app, Some(&bo), "open=true").await, vec![public.clone()]);
    assert_eq!(list(&app, Some(&bo), "").await, vec![public.clone()]);
    assert!(list(&app, Some(&ada), "player=me").await.contains(&private));
    assert_eq!(app.view(&ada, &private, None).await["invitation"], code.as_str());
    let watched = app.get(&format!("/v1/matches/{private}")).token(&bo).send().await;
    assert!(watched.body.get("invitation").is_none(), "{}", watched.body);
    assert_eq!(watched.body["private"], true);
    let log = app.get(&format!("/v1/matches/{private}/events?since=0")).token(&bo).send().await;
    assert!(!log.body.to_string().contains(&code), "the code is not in the events: {}", log.body);
    let export = app.get(&format!("/v1/matches/{private}/export")).send().await;
    assert!(!export.body.to_string().contains(&code));

    // A seat needs the code: none, another match's or a wrong one is refused and changes nothing.
    let join = format!("/v1/matches/{private}/seats/1/join");
    app.post(&join).token(&bo).send().await.assert_problem(403, "invalid-invitation");
    let long = "A".repeat(65);
    app.post(&format!("{join}?invitation={long}")).token(&bo).send().await.assert_problem(400, "invalid-query");
    let other = another["invitation"].as_str().unwrap();
    app.post(&format!("{join}?invitation={other}")).token(&bo).send().await.assert_problem(403, "invalid-invitation");
    let sv = app.post(&format!("{join}?invitation=0000")).token(&bo).header("Accept-Language", "sv").send().await;
    sv.assert_problem(403, "invalid-invitation");
    assert!(sv.body["detail"].as_str().unwrap().contains("inbjudningskoden"), "{}", sv.body);
    assert_eq!(app.view(&ada, &private, None).await["seats"][1]["kind"], "open");
    // The right code, as a person may type it, takes the seat; a seated player needs none.
    let joined = app.post(&format!("{join}?invitation={}", code.to_lowercase())).token(&bo).send().await;
    assert_eq!(joined.status.as_u16(), 200, "{}", joined.body);
    assert!(joined.body.get("invitation").is_none(), "Bo did not create it");
    let again = app.post(&format!("/v1/matches/{private}/seats/2/join")).token(&bo).send().await;
    assert_eq!(again.status.as_u16(), 200, "{}", again.body);
    assert_eq!(again.body["phase"], "playing");
    assert!(list(&app, Some(&bo), "player=me").await.contains(&private));
    assert!(!list(&app, None, "").await.contains(&private));
}

/// Waiting matches leave the lobby after `KORTBORD_WAITING_TTL_SECS`; two nodes sweeping the same
/// database expire each match once, and a full match never expires.
#[actix_web::test]
async fn waiting_matches_expire_from_the_lobby_once_across_nodes() {
    let short = |s: &mut api::config::Settings| s.waiting_ttl = Duration::from_secs(1);
    let app = kortbord_e2e::spawn_app_configured(short).await;
    let other = app.another_node_configured(short).await;
    let (ada, _) = app.guest("Ada").await;
    let (bo, _) = app.guest("Bo").await;
    let waiting = id(&create(&app, &ada, plump(&["me", "open", "bot"])).await);
    let full = id(&create(&app, &ada, plump(&["me", "bot", "bot"])).await);
    assert_eq!(list(&app, None, "open=true").await, vec![waiting.clone()]);

    let mut view = Value::Null;
    for _ in 0..100 {
        view = app.view(&ada, &waiting, None).await;
        if view["phase"] == "finished" {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(view["phase"], "finished", "{view}");
    assert_eq!(view["ended"], json!({"reason": "expired"}));
    assert_eq!(view["outcome"]["winners"], json!([]));
    // Both nodes go on sweeping: still one event.
    actix_web::rt::time::sleep(Duration::from_millis(1000)).await;
    let log = other.get(&format!("/v1/matches/{waiting}/events?since=0")).send().await.body["events"].clone();
    let expired: Vec<&Value> = log.as_array().unwrap().iter().filter(|e| e["type"] == "match.expired").collect();
    assert_eq!(expired.len(), 1, "{log}");
    assert_eq!(expired[0]["actor"], "service");
    let created = chrono::DateTime::parse_from_rfc3339(log[0]["recorded_at"].as_str().unwrap()).unwrap();
    let deadline = chrono::DateTime::parse_from_rfc3339(expired[0]["data"]["deadline"].as_str().unwrap()).unwrap();
    assert_eq!(deadline - created, chrono::Duration::seconds(1));

    assert!(list(&app, None, "open=true").await.is_empty());
    other
        .post(&format!("/v1/matches/{waiting}/seats/1/join"))
        .token(&bo)
        .send()
        .await
        .assert_problem(409, "match-ended");
    assert_eq!(app.view(&ada, &full, None).await["phase"], "playing", "a full match does not expire");
}
