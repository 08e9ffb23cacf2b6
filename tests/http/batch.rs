//! Appends sent together in one statement keep the meaning each has alone: all-or-nothing at its
//! expected version, a retried key answered once.

use api::batch::{append_together, Append, Appended};
use api::store::{self, NewEvent, StoredAnswer};
use serde_json::json;
use uuid::Uuid;

use kortbord_e2e::spawn_app;

fn event(n: i64) -> NewEvent {
    NewEvent {
        event_type: "test.event".into(),
        deal: 0,
        data: json!({ "type": "test.event", "n": n }),
        actor: "test".into(),
        recorded_at: chrono::SubsecRound::trunc_subsecs(chrono::Utc::now(), 6),
    }
}

fn append(stream: Uuid, expected: i64, events: &[i64]) -> Append {
    let summary = store::Summary {
        game: "test".into(),
        phase: "playing",
        version: expected + events.len() as i64,
        open_seats: 0,
        players: json!([]),
        seats: json!([]),
        to_act: json!([]),
        outcome: None,
        private: false,
        at: chrono::Utc::now(),
        due_at: None,
    };
    Append { stream, expected, events: events.iter().map(|n| event(*n)).collect(), key: None, answer: None, summary }
}

fn keyed(stream: Uuid, expected: i64, events: &[i64], player: Uuid, key: &str) -> Append {
    let answer = StoredAnswer {
        stream_id: stream,
        player_id: player,
        key: key.into(),
        request_hash: "h".into(),
        status: 200,
        body: None,
        seat: Some(0),
        first_seq: Some(expected + 1),
        last_seq: Some(expected + events.len() as i64),
    };
    Append { key: Some(key.into()), answer: Some(answer), ..append(stream, expected, events) }
}

fn outcomes(results: Vec<Result<Appended, api::problem::ApiError>>) -> Vec<Appended> {
    results.into_iter().map(|r| r.expect("the database answers")).collect()
}

#[actix_web::test]
async fn a_batch_lands_whole_and_a_collision_in_it_is_sorted_out_one_by_one() {
    let app = spawn_app().await;
    let pool = api::db::connect(&app.database_url, 2).unwrap();
    let metrics = api::metrics::Metrics::default();
    let (a, b, c) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
    let mut conn = pool.get().unwrap();
    let ns = |conn: &mut store::Conn, s: Uuid| -> Vec<i64> {
        store::read(conn, s, 0, 100).unwrap().iter().map(|e| e.data["n"].as_i64().unwrap()).collect()
    };

    // No collision: one statement, every append in it lands.
    let first = append_together(&pool, &metrics, &[append(a, 0, &[1, 2]), append(b, 0, &[10])]);
    assert_eq!(outcomes(first), [Appended::Done, Appended::Done]);
    assert_eq!((ns(&mut conn, a), ns(&mut conn, b)), (vec![1, 2], vec![10]));
    assert!(metrics.render().contains("kortbord_db_append_fallbacks_total 0"));

    // Two appends at the same version of `a` (one event, then two events): the first wins, the
    // second takes nothing, not even its second event, which no other append claimed; the
    // appends of other streams in the same batch land.
    let raced = append_together(&pool, &metrics, &[append(a, 2, &[3]), append(a, 2, &[30, 31]), append(c, 0, &[100])]);
    assert_eq!(outcomes(raced), [Appended::Done, Appended::Conflict, Appended::Done]);
    assert_eq!((ns(&mut conn, a), ns(&mut conn, c)), (vec![1, 2, 3], vec![100]));
    assert!(metrics.render().contains("kortbord_db_append_fallbacks_total 1"));

    // A key already answered: the second append under it takes nothing.
    let player = Uuid::new_v4();
    let keys = append_together(&pool, &metrics, &[keyed(b, 1, &[11], player, "k"), keyed(b, 2, &[12], player, "k")]);
    assert_eq!(outcomes(keys), [Appended::Done, Appended::Conflict]);
    assert_eq!(ns(&mut conn, b), [10, 11]);
    let answer = store::answer(&mut conn, b, player, "k").unwrap().expect("the key's row");
    assert_eq!((answer.seat, answer.first_seq, answer.last_seq, answer.body), (Some(0), Some(2), Some(2), None));

    // A batch whose appends all collide changes nothing.
    let stale = append_together(&pool, &metrics, &[append(a, 1, &[9]), append(c, 0, &[9])]);
    assert_eq!(outcomes(stale), [Appended::Conflict, Appended::Conflict]);
    assert_eq!((ns(&mut conn, a), ns(&mut conn, c)), (vec![1, 2, 3], vec![100]));
}

#[actix_web::test]
async fn batched_reads_give_each_request_its_own_events() {
    let app = spawn_app().await;
    let pool = api::db::connect(&app.database_url, 4).unwrap();
    let metrics = std::sync::Arc::new(api::metrics::Metrics::default());
    let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
    let done = append_together(&pool, &metrics, &[append(a, 0, &[1, 2, 3]), append(b, 0, &[7])]);
    assert_eq!(outcomes(done), [Appended::Done, Appended::Done]);
    let db = api::batch::Database::start(pool, 1, api::batch::MAX_BATCH, metrics);
    let seqs = |events: Vec<store::StoredEvent>| events.iter().map(|e| e.seq).collect::<Vec<_>>();
    // Sent at once, so they share statements as the database thread finds them queued.
    let (r1, r2, r3, r4, r5) = futures_util::future::join5(
        db.read(a, 0),
        db.read(a, 2),
        db.read(b, 0),
        db.read(b, 1),
        db.read(Uuid::new_v4(), 0),
    )
    .await;
    assert_eq!(seqs(r1.unwrap()), [1, 2, 3]);
    assert_eq!(seqs(r2.unwrap()), [3]);
    assert_eq!(seqs(r3.unwrap()), [1]);
    assert!(r4.unwrap().is_empty());
    assert!(r5.unwrap().is_empty());
}
