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
    /// The start of a character split between chunks.
    pending: Vec<u8>,
    ended: bool,
}

/// Appends `chunk` to `text`, keeping back the start of a character the next chunk ends.
fn push_utf8(text: &mut String, pending: &mut Vec<u8>, chunk: &[u8]) {
    pending.extend_from_slice(chunk);
    let valid = match std::str::from_utf8(pending) {
        Ok(whole) => whole.len(),
        Err(e) if e.error_len().is_none() => e.valid_up_to(),
        Err(e) => panic!("the stream is not UTF-8: {e}"),
    };
    text.push_str(std::str::from_utf8(&pending[..valid]).expect("checked"));
    pending.drain(..valid);
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
        Stream { body: Box::pin(response), buffer: String::new(), pending: Vec::new(), ended: false }
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
                Some(chunk) => push_utf8(&mut self.buffer, &mut self.pending, &chunk.expect("the stream reads")),
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

/// A stream's raw text, read until `done` says it holds what is wanted.
async fn read_until(
    body: &mut std::pin::Pin<
        Box<dyn futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>>,
    >,
    text: &mut String,
    done: impl Fn(&str) -> bool,
) {
    let mut pending = Vec::new();
    // A character split between chunks means the message goes on: read until it is whole.
    while !done(text) || !pending.is_empty() {
        let chunk = actix_web::rt::time::timeout(Duration::from_secs(10), body.next())
            .await
            .unwrap_or_else(|_| panic!("no more in time; so far: {text}"))
            .expect("the stream goes on")
            .expect("the stream reads");
        push_utf8(text, &mut pending, &chunk);
    }
}

async fn open_raw(
    app: &TestApp,
    id: &str,
    token: &str,
    accept: &str,
    query: &str,
) -> (
    String,
    std::pin::Pin<Box<dyn futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>>>,
) {
    let response = app
        .client
        .get(format!("{}/v1/matches/{id}/stream{query}", app.address))
        .insert_header(("Accept", accept))
        .insert_header(("Authorization", format!("Bearer {token}")))
        .send()
        .await
        .expect("the stream opens");
    assert_eq!(response.status().as_u16(), 200);
    let content_type = response.headers().get("content-type").unwrap().to_str().unwrap().to_string();
    (content_type, Box::pin(response))
}

/// With `view=table` the stream sends the caller's table after the events that bring it up to
/// the match's version (when it opens and after each move), so an app never refetches the match;
/// the same stream reads as ndjson for clients without an EventSource (issue 44).
#[actix_web::test]
async fn a_stream_sends_the_callers_table_after_each_moves_events_as_sse_or_ndjson() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let created = app
        .create_match(&ada, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();

    let (content_type, mut sse) = open_raw(&app, &id, &ada, "text/event-stream", "?view=table").await;
    assert_eq!(content_type, "text/event-stream");
    let (content_type, mut ndjson) = open_raw(&app, &id, &ada, "application/x-ndjson", "?view=table").await;
    assert_eq!(content_type, "application/x-ndjson");
    let (_, mut plain) = open_raw(&app, &id, &ada, "application/x-ndjson", "").await;
    let (mut sse_text, mut nd_text, mut plain_text) = (String::new(), String::new(), String::new());

    for round in 0..3 {
        let view = app.view(&ada, &id, None).await;
        let states = round + 1;
        // As many states as rounds, the last one whole.
        let whole = |t: &str, mark: &str, end: &str| {
            t.matches(mark).count() >= states && t.rsplit(mark).next().is_some_and(|rest| rest.contains(end))
        };
        read_until(&mut sse, &mut sse_text, |t| whole(t, "event: state\n", "\n\n")).await;
        read_until(&mut ndjson, &mut nd_text, |t| whole(t, "{\"state\":", "\n")).await;
        // Server-Sent Events: the events with their ids, then the table as Ada sees it.
        let last_state = sse_text.rsplit("event: state\n").next().unwrap();
        let data = last_state.lines().find_map(|l| l.strip_prefix("data: ")).unwrap();
        let table: Value = serde_json::from_str(data).unwrap();
        assert_eq!(table, view, "round {round}: the state is the match as GET shows it");
        let before_state = sse_text.rsplit_once("event: state\n").unwrap().0;
        let last_id = before_state.lines().filter_map(|l| l.strip_prefix("id: ")).next_back().unwrap();
        assert_eq!(last_id, view["version"].to_string(), "the state follows the events up to its version");
        // Newline-delimited JSON: an event a line, then the table.
        let lines: Vec<Value> =
            nd_text.lines().filter(|l| !l.is_empty()).map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
        let last = lines.iter().rposition(|l| l.get("state").is_some()).unwrap();
        assert_eq!(lines[last]["state"], view);
        assert_eq!(lines[last - 1]["seq"], view["version"]);
        assert_eq!(lines.iter().filter(|l| l.get("seq").is_some()).count() as i64, view["version"].as_i64().unwrap());

        let moves = app.legal_moves(&ada, &id, 0).await;
        assert_eq!(app.play(&ada, &id, 0, &moves[0]).await.status.as_u16(), 200);
    }
    // Without `view=table`, events only.
    let version = app.view(&ada, &id, None).await["version"].as_i64().unwrap();
    read_until(&mut plain, &mut plain_text, |t| {
        t.lines().filter(|l| l.starts_with("{\"game\"")).count() as i64 >= version
    })
    .await;
    assert!(!plain_text.contains("\"state\""), "{plain_text}");
    // A stream that names no format it can send is refused before it opens.
    let r = app.get(&format!("/v1/matches/{id}/stream?view=chairs")).send().await;
    r.assert_problem(400, "invalid-query");
}

/// The `(id, data)` of each whole message with data in a Server-Sent Events text.
fn messages(text: &str) -> Vec<(i64, Value)> {
    let whole = &text[..text.rfind("\n\n").map_or(0, |end| end + 2)];
    whole
        .split("\n\n")
        .filter_map(|m| {
            let id = m.lines().find_map(|l| l.strip_prefix("id: "))?.parse().ok()?;
            let data = serde_json::from_str(m.lines().find_map(|l| l.strip_prefix("data: "))?).ok()?;
            Some((id, data))
        })
        .collect()
}

async fn open_mine(
    app: &TestApp,
    token: &str,
    last: Option<i64>,
) -> std::pin::Pin<Box<dyn futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>>> {
    let mut request = app
        .client
        .get(format!("{}/v1/me/stream", app.address))
        .insert_header(("Accept", "text/event-stream"))
        .insert_header(("Authorization", format!("Bearer {token}")));
    if let Some(last) = last {
        request = request.insert_header(("Last-Event-ID", last.to_string()));
    }
    let response = request.send().await.expect("the stream opens");
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.headers().get("content-type").unwrap(), "text/event-stream");
    Box::pin(response)
}

/// A player's own stream tells of every change in their matches, made on any node: the matches
/// they play when it opens, one they join, their moves and another player's leaving; resumed,
/// it sends what changed since (issue 44).
#[actix_web::test]
async fn a_players_stream_tells_of_their_matches_across_nodes_and_resumes() {
    let app = spawn_app().await;
    let other = app.another_node().await;
    let (ada, _) = app.guest("Ada").await;
    let (bo, _) = app.guest("Bo").await;
    let plump = |seats: Value| json!({ "game": "plump", "seats": seats });
    let mine = app.create_match(&ada, plump(json!([{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]))).await;
    let mine = mine["id"].as_str().unwrap().to_string();
    let bos_own = app.create_match(&bo, plump(json!([{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]))).await;
    let bos_own = bos_own["id"].as_str().unwrap().to_string();

    let mut stream = open_mine(&other, &ada, None).await;
    let mut text = String::new();
    let wait_for = |n: usize| move |t: &str| messages(t).len() >= n;
    read_until(&mut stream, &mut text, wait_for(1)).await;
    let first = messages(&text);
    assert_eq!(first[0].1["id"], mine.as_str(), "{text}");
    assert_eq!((first[0].1["your_seats"].clone(), first[0].1["to_act"].clone()), (json!([0]), json!([0])));

    // Bo opens a table and Ada joins it on the other node: her stream hears of it.
    let table = app.create_match(&bo, plump(json!([{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}]))).await;
    let table = table["id"].as_str().unwrap().to_string();
    let joined = app.post(&format!("/v1/matches/{table}/seats/1/join")).token(&ada).send().await;
    assert_eq!(joined.status.as_u16(), 200, "{}", joined.body);
    read_until(&mut stream, &mut text, wait_for(2)).await;
    let (_, second) = messages(&text)[1].clone();
    assert_eq!((second["id"].as_str(), second["phase"].as_str()), (Some(table.as_str()), Some("playing")));
    assert_eq!(second["your_seats"], json!([1]));
    assert_eq!(second["version"], joined.body["version"]);

    // Her own move, and Bo leaving the table they share.
    let moves = app.legal_moves(&ada, &mine, 0).await;
    let moved = app.play(&ada, &mine, 0, &moves[0]).await;
    read_until(&mut stream, &mut text, wait_for(3)).await;
    let (_, third) = messages(&text)[2].clone();
    assert_eq!((third["id"].as_str(), &third["version"]), (Some(mine.as_str()), &moved.body["version"]));
    let left = app.post(&format!("/v1/matches/{table}/seats/0/leave")).token(&bo).send().await;
    assert_eq!(left.status.as_u16(), 200, "{}", left.body);
    read_until(&mut stream, &mut text, wait_for(4)).await;
    let (_, fourth) = messages(&text)[3].clone();
    assert_eq!((fourth["id"].as_str(), &fourth["version"]), (Some(table.as_str()), &left.body["version"]));
    assert_eq!(fourth["seats"][0]["kind"], "bot");
    assert!(!text.contains(&bos_own), "only Ada's matches");

    // Resumed after the first message: what changed since (each match at its newest version).
    let mut resumed = open_mine(&app, &ada, Some(first[0].0)).await;
    let mut again = String::new();
    read_until(&mut resumed, &mut again, |t| {
        let got = messages(t);
        got.iter().any(|(_, m)| m["id"] == table.as_str() && m["version"] == left.body["version"])
            && got.iter().any(|(_, m)| m["id"] == mine.as_str() && m["version"] == moved.body["version"])
    })
    .await;
    assert!(messages(&again).iter().all(|(id, _)| *id >= first[0].0 - 5_000_000));
    app.get("/v1/me/stream").send().await.assert_problem(401, "missing-token");
    app.get("/v1/me/stream")
        .token(&ada)
        .header("Last-Event-ID", "later")
        .send()
        .await
        .assert_problem(400, "invalid-since");
}
