//! Lists of matches: a player's own by status, the lobby of matches with free seats, pages by
//! cursor, and summaries rebuilt from the log for matches that had none.

use serde_json::{json, Value};

use crate::play::{first_move, play_out};
use kortbord_e2e::{spawn_app, TestApp};

fn ids(page: &Value) -> Vec<String> {
    page["matches"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap().to_string()).collect()
}

async fn list(app: &TestApp, token: Option<&str>, query: &str) -> Value {
    let mut request = app.get(&format!("/v1/matches?{query}"));
    if let Some(token) = token {
        request = request.token(token);
    }
    let r = request.send().await;
    assert_eq!(r.status.as_u16(), 200, "{query}: {}", r.body);
    r.body
}

async fn create(app: &TestApp, token: &str, game: &str, seats: &[&str]) -> String {
    let seats: Vec<Value> = seats.iter().map(|k| json!({ "kind": k })).collect();
    app.create_match(token, json!({ "game": game, "seats": seats })).await["id"].as_str().unwrap().to_string()
}

#[actix_web::test]
async fn a_player_lists_their_matches_by_status_and_the_lobby_shows_free_seats() {
    let app = spawn_app().await;
    let (ada, ada_id) = app.guest("Ada").await;
    let (bo, _) = app.guest("Bo").await;
    let playing = create(&app, &ada, "plump", &["me", "bot", "bot"]).await;
    let waiting = create(&app, &ada, "plump", &["me", "open", "bot"]).await;
    let spader = create(&app, &bo, "spader", &["me", "open", "bot", "bot"]).await;

    let mine = list(&app, Some(&ada), "player=me").await;
    assert_eq!(ids(&mine), [waiting.clone(), playing.clone()], "newest first, only Ada's");
    let first = &mine["matches"][0];
    assert_eq!(first["game"], "plump");
    assert_eq!(first["phase"], "waiting");
    assert_eq!(first["open_seats"], 1);
    assert_eq!(first["your_seats"], json!([0]));
    assert_eq!(first["seats"][0]["player_id"], ada_id.as_str());
    assert_eq!(first["seats"][1]["kind"], "open");
    assert_eq!(first["url"], format!("/v1/matches/{waiting}"));
    assert_eq!(mine["matches"][1]["to_act"], json!([0]), "Ada bids first in her full match");
    assert_eq!(ids(&list(&app, Some(&ada), "player=me&status=waiting").await), vec![waiting.clone()]);
    assert_eq!(ids(&list(&app, Some(&ada), "player=me&status=in-progress").await), vec![playing.clone()]);
    assert!(ids(&list(&app, Some(&ada), "player=me&status=finished").await).is_empty());

    // The lobby: anyone, no token needed; a game narrows it.
    assert_eq!(ids(&list(&app, None, "open=true").await), [spader.clone(), waiting.clone()]);
    assert_eq!(ids(&list(&app, None, "open=true&game=plump").await), vec![waiting.clone()]);
    // From the lobby, Bo watches without a seat, then takes the free one.
    let watched = app.get(&format!("/v1/matches/{waiting}")).send().await;
    assert_eq!(watched.status.as_u16(), 200);
    assert!(watched.body["viewing_as"].is_null());
    let joined = app.post(&format!("/v1/matches/{waiting}/seats/1/join")).token(&bo).send().await;
    assert_eq!(joined.status.as_u16(), 200, "{}", joined.body);
    assert_eq!(ids(&list(&app, None, "open=true&game=plump").await), Vec::<String>::new());
    let bos = list(&app, Some(&bo), "player=me").await;
    assert_eq!(ids(&bos), [spader.clone(), waiting.clone()]);
    assert_eq!(bos["matches"][1]["your_seats"], json!([1]));
    assert_eq!(bos["matches"][1]["phase"], "playing");
    assert_eq!(bos["matches"][1]["version"], joined.body["version"]);

    // Played to its end, a match moves to the finished list with its last version.
    let (end, _) = play_out(&app, &ada, &playing, first_move).await;
    let finished = list(&app, Some(&ada), "player=me&status=finished").await;
    assert_eq!(ids(&finished), vec![playing.clone()]);
    assert_eq!(finished["matches"][0]["version"], end["version"]);
    assert_eq!(finished["matches"][0]["to_act"], json!([]));

    // Asking for "me" needs a token; a bad limit, cursor or filter is a 400.
    app.get("/v1/matches?player=me").send().await.assert_problem(401, "missing-token");
    app.get("/v1/matches?limit=0").send().await.assert_problem(400, "invalid-query");
    app.get("/v1/matches?limit=101").send().await.assert_problem(400, "invalid-query");
    app.get("/v1/matches?cursor=nonsense").send().await.assert_problem(400, "invalid-cursor");
    // A cursor of the documented form that this service never gave out still names a place in
    // the order (past every match), as schemathesis found it must.
    let far = app.get("/v1/matches?cursor=9375558279141585312_739ae87c36528e96fffd14773b4f5146").send().await;
    assert_eq!(far.status, 200, "{:?}", far.body);
    app.get("/v1/matches?status=sleeping").send().await.assert_problem(400, "invalid-query");
    app.get("/v1/matches?colour=red").send().await.assert_problem(400, "invalid-query");
}

#[actix_web::test]
async fn pages_follow_their_cursors_through_every_match_once() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let mut created = Vec::new();
    for _ in 0..7 {
        created.push(create(&app, &ada, "japansk-whist", &["me", "bot"]).await);
    }
    created.reverse();
    let mut seen = Vec::new();
    let mut query = "player=me&limit=3".to_string();
    for page_number in 0.. {
        let r = app.get(&format!("/v1/matches?{query}")).token(&ada).send().await;
        assert_eq!(r.status.as_u16(), 200, "{}", r.body);
        let page = ids(&r.body);
        assert!(page.len() <= 3);
        seen.extend(page);
        match r.body["next"].as_str() {
            Some(next) => {
                let link = r.headers.get("link").expect("a Link header with the next page").to_str().unwrap();
                assert!(link.contains(&format!("cursor={next}")) && link.ends_with("rel=\"next\""), "{link}");
                assert!(link.contains("limit=3") && link.contains("player=me"), "{link}");
                query = format!("player=me&limit=3&cursor={next}");
            }
            None => {
                assert!(r.headers.get("link").is_none());
                assert_eq!(page_number, 2, "7 matches in pages of 3");
                break;
            }
        }
    }
    assert_eq!(seen, created, "every match once, newest first");
}

#[actix_web::test]
async fn a_match_without_a_summary_gets_one_from_its_log_when_a_node_starts() {
    use diesel::{Connection, RunQueryDsl};
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let id = create(&app, &ada, "plump", &["me", "open", "bot"]).await;
    let before = list(&app, Some(&ada), "player=me").await;
    // As a log written before summaries were kept.
    let mut conn = diesel::PgConnection::establish(&app.database_url).unwrap();
    diesel::sql_query("DELETE FROM matches").execute(&mut conn).unwrap();
    assert!(ids(&list(&app, Some(&ada), "player=me").await).is_empty());
    let node = app.another_node().await;
    let mut after = Value::Null;
    for _ in 0..100 {
        after = list(&node, Some(&ada), "player=me").await;
        if !ids(&after).is_empty() {
            break;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(ids(&after), [id]);
    assert_eq!(after["matches"][0], before["matches"][0], "the same summary, rebuilt");
}
