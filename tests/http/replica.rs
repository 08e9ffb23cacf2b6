//! Reads that may lag go to a replica (`KORTBORD_DB_REPLICA_URL`); a view after a move, legal
//! moves and the move path never do. The "replica" here is a second database on the test server
//! with the schema and no rows: a standby that lags behind everything, so any read routed to it
//! shows, and a read of a player's own move that went there would find it missing.

use diesel::connection::SimpleConnection;
use diesel::{Connection, PgConnection};
use serde_json::json;

use kortbord_e2e::{server_url, spawn_app_configured, with_database, Reply, TestApp};

/// A database with the service's tables and nothing in them, dropped with this guard.
struct FrozenStandby {
    name: String,
    url: String,
}

impl FrozenStandby {
    fn new() -> FrozenStandby {
        let name = format!("kortbord_test_{}_standby", uuid::Uuid::new_v4().simple());
        let url = with_database(&server_url(), &name);
        // The primary's pool creates the database and runs the migrations; then it is left alone.
        drop(api::db::connect(&url, 1).expect("the standby's schema"));
        FrozenStandby { name, url }
    }
}

impl Drop for FrozenStandby {
    fn drop(&mut self) {
        if let Ok(mut admin) = PgConnection::establish(&with_database(&server_url(), "postgres")) {
            let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name));
        }
    }
}

/// Plays the acting seat's first legal move on `node` until the first deal is over; after each
/// move the node's view and legal moves stand at the version the move answered.
async fn play_first_deal(node: &TestApp, token: &str, id: &str) {
    for n in 0..500 {
        let view = node.view(token, id, None).await;
        if view["deal_number"].as_u64().unwrap() > 1 || view["phase"] == "finished" {
            return;
        }
        let seat = view["to_act"][0].as_u64().unwrap() as usize;
        let moves = node.legal_moves(token, id, seat).await;
        let r = node.play(token, id, seat, &moves[0]).await;
        assert_eq!(r.status.as_u16(), 200, "move {n}: {}", r.body);
        let version = &r.body["version"];
        assert_eq!(&node.view(token, id, None).await["version"], version, "move {n} is in the view after it");
        let legal = node.get(&format!("/v1/matches/{id}/legal-moves?seat={seat}")).token(token).send().await;
        assert_eq!(&legal.body["version"], version, "legal moves after move {n} are read at its version");
    }
    panic!("the first deal does not end");
}

#[actix_web::test]
async fn lagging_reads_go_to_the_replica_and_a_client_never_sees_its_own_move_go_missing() {
    let standby = FrozenStandby::new();
    let a = spawn_app_configured(|s| s.replica_url = Some(standby.url.clone())).await;
    let (token, _) = a.guest("Ada").await;
    let created = a
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    play_first_deal(&a, &token, &id).await;

    // The node Ada played through has seen every one of her moves: a record or an export read
    // from a replica behind that is read again from the primary.
    let record = a.get(&format!("/v1/matches/{id}/deals/1")).token(&token).send().await;
    assert_eq!(record.status.as_u16(), 200, "{}", record.body);
    let export = a.get(&format!("/v1/matches/{id}/export")).token(&token).send().await;
    assert_eq!(export.status.as_u16(), 200, "{}", export.body);

    // A node that has not seen the match reads the lagging things from the standby, which has
    // nothing yet: the record and the export are not found there, and Ada's list is empty.
    let b = a.another_node_configured(|s| s.replica_url = Some(standby.url.clone())).await;
    b.get(&format!("/v1/matches/{id}/deals/1")).token(&token).send().await.assert_problem(404, "not-found");
    b.get(&format!("/v1/matches/{id}/export")).token(&token).send().await.assert_problem(404, "not-found");
    let listed = b.get("/v1/matches?player=me").token(&token).send().await;
    assert_eq!(listed.status.as_u16(), 200, "{}", listed.body);
    assert_eq!(listed.body["matches"], json!([]), "the list is read from the standby");
    // Views, legal moves and moves go to the primary: on b, Ada finds the match as she left it
    // and her next moves are there at once.
    let view = b.view(&token, &id, None).await;
    assert_eq!(view["version"], a.view(&token, &id, None).await["version"]);
    let seat = view["to_act"][0].as_u64().unwrap() as usize;
    let moves = b.legal_moves(&token, &id, seat).await;
    let r = b.play(&token, &id, seat, &moves[0]).await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.body);
    assert_eq!(b.view(&token, &id, None).await["version"], r.body["version"]);
    // Now b has seen the match too: its record no longer comes from the lagging standby alone.
    let on_b = b.get(&format!("/v1/matches/{id}/deals/1")).token(&token).send().await;
    assert_eq!(on_b.status.as_u16(), 200, "{}", on_b.body);
    assert_eq!(on_b.body, record.body, "the record read again from the primary is the one a gave");

    // A replica that is up to date (here the primary's own database) serves the lagging reads
    // on a node that has never seen the match.
    let c = a.another_node_configured(|s| s.replica_url = Some(a.database_url.clone())).await;
    let listed = c.get("/v1/matches?player=me").token(&token).send().await;
    assert_eq!(listed.body["matches"][0]["id"], json!(id), "{}", listed.body);
    let from_replica = c.get(&format!("/v1/matches/{id}/deals/1")).token(&token).send().await;
    assert_eq!(from_replica.body, record.body);
}

/// The same move under the same key, each time.
async fn probe_move(app: &TestApp, token: &str, id: &str, version: &str, command: &serde_json::Value) -> Reply {
    app.post(&format!("/v1/matches/{id}/moves"))
        .token(token)
        .header("Idempotency-Key", "read-only-probe")
        .header("If-Match", &format!("\"{version}\""))
        .json(&json!({ "seat": 0, "move": command }))
        .send()
        .await
}

/// A primary demoted without a restart (or fenced with `default_transaction_read_only`) keeps
/// its sessions open, read-only. A move refused there answers 503, not 500, and the connection
/// is dropped: once the database takes writes again, the move sent again with its key lands
/// within as many attempts as the pool has connections. (Kept, each of those connections would
/// refuse every write it was given, for good.)
#[actix_web::test]
async fn a_connection_on_a_read_only_server_is_dropped_after_its_write_is_refused() {
    let app = kortbord_e2e::spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let moves = app.legal_moves(&token, &id, 0).await;
    let version = created["version"].to_string();
    let mut admin = PgConnection::establish(&with_database(&server_url(), "postgres")).unwrap();
    let db = &app.db_name;
    // Every session of the database from now on is read-only; the open ones are ended, so that
    // the pool's next connections are such sessions.
    admin
        .batch_execute(&format!(
            "ALTER DATABASE \"{db}\" SET default_transaction_read_only = on;
             SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{db}' AND pid <> pg_backend_pid();"
        ))
        .unwrap();
    let mut refused_read_only = 0;
    for _ in 0..10 {
        let r = probe_move(&app, &token, &id, &version, &moves[0]).await;
        r.assert_problem(503, "service-unavailable");
        refused_read_only += usize::from(r.body["detail"].as_str().unwrap().contains("read-only"));
    }
    assert!(refused_read_only > 0, "no write was refused for the server being read-only");
    admin.batch_execute(&format!("ALTER DATABASE \"{db}\" RESET default_transaction_read_only")).unwrap();
    let pool = kortbord_e2e::settings(db, api::ratelimit::Limits::default()).pool_size;
    let mut landed = None;
    for attempt in 0..=pool {
        let r = probe_move(&app, &token, &id, &version, &moves[0]).await;
        if r.status.as_u16() == 200 {
            landed = Some(attempt);
            break;
        }
        r.assert_problem(503, "service-unavailable");
    }
    assert!(landed.is_some(), "the move never landed: read-only connections stayed in the pool");
}
