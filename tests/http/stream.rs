//! Live updates as Server-Sent Events: what a stream sends, across nodes, and resuming.

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{json, Value};

use crate::play::{first_move, play_out};
use kortbord_e2e::{spawn_app, TestApp};

/// An open event stream, read message by message.
struct Stream {
    body: std::pin::Pin<Box<dyn futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>>>,
    buffer: String,
    ended: bool,
}

impl Stream {
    async fn open(app: &TestApp, id: &str, token: Option<&str>, last_event_id: Option<i64>) -> Stream {
        let mut request = app
            .client
            .get(format!("{}/v1/matches/{id}/stream", app.address))
            .insert_header(("Accept", "text/event-stream"));
        if let Some(token) = token {
            request = request.insert_header(("Authorization", format!("Bearer {token}")));
        }
        if let Some(last) = last_event_id {
            request = request.insert_header(("Last-Event-ID", last.to_string()));
        }
        let response = request.send().await.expect("the stream opens");
        assert_eq!(response.status().as_u16(), 200);
        let content_type = response.headers().get("content-type").unwrap().to_str().unwrap().to_string();
        assert_eq!(content_type, "text/event-stream");
        Stream { body: Box::pin(response), buffer: String::new(), ended: false }
    }

    /// The next message with data (comments and `retry` skipped): its id and data, or None when
    /// the stream ended. Fails after `wait` without one.
    async fn next(&mut self, wait: Duration) -> Option<(i64, Value)> {
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let message: String = self.buffer.drain(..end + 2).collect();
                let mut id = None;
                let mut data = None;
                for line in message.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        id = v.parse().ok();
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data = Some(serde_json::from_str(v).expect("data is JSON"));
                    }
                }
                if let (Some(id), Some(data)) = (id, data) {
                    return Some((id, data));
                }
            }
            if self.ended {
                return None;
            }
            match actix_web::rt::time::timeout(wait, self.body.next()).await.expect("a message in time") {
                Some(chunk) => self.buffer.push_str(std::str::from_utf8(&chunk.expect("the stream reads")).unwrap()),
                None => self.ended = true,
            }
        }
    }

    async fn take(&mut self, n: usize) -> Vec<(i64, Value)> {
        let mut got = Vec::new();
        while got.len() < n {
            got.push(self.next(Duration::from_secs(10)).await.expect("the stream goes on"));
        }
        got
    }
}

async fn feed(app: &TestApp, token: Option<&str>, id: &str, since: i64) -> Vec<Value> {
    let mut request = app.get(&format!("/v1/matches/{id}/events?since={since}"));
    if let Some(token) = token {
        request = request.token(token);
    }
    request.send().await.body["events"].as_array().unwrap().clone()
}

#[actix_web::test]
async fn a_stream_on_one_node_delivers_moves_made_on_another() {
    let app = spawn_app().await;
    let other = app.another_node().await;
    let (ada, _) = app.guest("Ada").await;
    let created = app
        .create_match(&ada, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let version = created["version"].as_i64().unwrap();

    let mut mine = Stream::open(&other, &id, Some(&ada), None).await;
    let mut watching = Stream::open(&other, &id, None, None).await;
    let start = mine.take(version as usize).await;
    assert_eq!(start.iter().map(|(id, _)| *id).collect::<Vec<_>>(), (1..=version).collect::<Vec<_>>());
    assert_eq!(start.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(), feed(&app, Some(&ada), &id, 0).await);
    let seen = watching.take(version as usize).await;
    assert_eq!(seen.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(), feed(&app, None, &id, 0).await, "no hands");

    // A move on the first node reaches both streams on the other.
    for _ in 0..3 {
        let before = app.view(&ada, &id, None).await["version"].as_i64().unwrap();
        let moves = app.legal_moves(&ada, &id, 0).await;
        let r = app.play(&ada, &id, 0, &moves[0]).await;
        assert_eq!(r.status.as_u16(), 200, "{}", r.body);
        let after = r.body["version"].as_i64().unwrap();
        let news = mine.take((after - before) as usize).await;
        assert_eq!(news.first().unwrap().0, before + 1);
        assert_eq!(news.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(), feed(&app, Some(&ada), &id, before).await);
        let news = watching.take((after - before) as usize).await;
        assert_eq!(news.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(), feed(&app, None, &id, before).await);
    }
}

#[actix_web::test]
async fn a_stream_resumes_after_the_last_event_id_and_ends_with_the_match() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let created = app
        .create_match(&ada, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let (end, _) = play_out(&app, &ada, &id, first_move).await;
    let version = end["version"].as_i64().unwrap();

    // Resuming: only what came after, then the end of the stream (the match is over).
    let mut resumed = Stream::open(&app, &id, Some(&ada), Some(version - 5)).await;
    let rest = resumed.take(5).await;
    assert_eq!(rest.iter().map(|(id, _)| *id).collect::<Vec<_>>(), ((version - 4)..=version).collect::<Vec<_>>());
    assert_eq!(rest.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(), feed(&app, Some(&ada), &id, version - 5).await);
    assert!(resumed.next(Duration::from_secs(10)).await.is_none(), "the stream ends with the match");
    // From the start: at most the last 1,000 events (the backlog a new stream reads), after a
    // `skipped` message naming the ones before (issue 44).
    let mut from_query = Stream::open(&app, &id, None, None).await;
    let sent = version.min(1000);
    let skipped = version > sent;
    let got = from_query.take(sent as usize + usize::from(skipped)).await;
    if skipped {
        assert_eq!(got[0].0, version - sent);
        assert_eq!(got[0].1["from"], 1);
        assert_eq!(got[0].1["to"], version - sent);
    }
    assert_eq!(got.last().unwrap().0, version);
    assert!(from_query.next(Duration::from_secs(10)).await.is_none());

    let r = app.get(&format!("/v1/matches/{id}/stream")).header("Last-Event-ID", "soon").send().await;
    r.assert_problem(400, "invalid-since");
    let r = app.get(&format!("/v1/matches/{id}/stream?since=-1")).header("Last-Event-ID", "0").send().await;
    r.assert_problem(400, "invalid-since");
    let r = app.get(&format!("/v1/matches/{}/stream", uuid::Uuid::new_v4())).send().await;
    r.assert_problem(404, "not-found");
    let r = app.get(&format!("/v1/matches/{id}/stream")).header("Accept", "application/json").send().await;
    r.assert_problem(406, "not-acceptable");
}
