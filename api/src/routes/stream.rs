//! A match's events as they happen, as Server-Sent Events.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use actix_web::http::{header, StatusCode};
use actix_web::web::Bytes;
use actix_web::{get, web, HttpRequest, HttpResponse};
use engine::game::Viewer;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::viewer_of;
use crate::auth::Caller;
use crate::commands::{load_with, with_db_in_turn};
use crate::live::{Admission, Refused, Subscription};
use crate::matches::MatchPhase;
use crate::problem::{ApiError, Problem};
use crate::state::AppState;
use crate::store;

/// A comment line this often keeps proxies and phones from closing an idle stream.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// Events read per round trip while catching up.
const PAGE: i64 = 500;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct StreamQuery {
    /// Start after this sequence number (as `Last-Event-ID`, which wins when both are sent);
    /// 0 or left out: from the match's first event.
    #[param(minimum = 0)]
    pub since: Option<i64>,
    /// The seat to read as, when you hold several.
    pub seat: Option<usize>,
}

/// One message of the stream, modelled as the OpenAPI media-type registry models a Server-Sent
/// Event (an object of its fields), which is what a checker such as schemathesis validates each
/// message against. Never sent as JSON: this is the shape of `id:` and `data:` lines.
#[derive(ToSchema)]
#[allow(dead_code)] // a schema only
pub struct StreamMessage {
    /// Absent for an event. `skipped`: the stream was asked to start further back than it
    /// reads (`KORTBORD_STREAM_BACKLOG` events, 1,000 by default); `data` is then
    /// `{"from": <first seq not sent>, "to": <last seq not sent>, "events": "/v1/matches/…/events?since=…"}`,
    /// where to read them, and `id` is `to`.
    #[schema(pattern = "^skipped$")]
    event: Option<String>,
    /// The event's `seq`, what `Last-Event-ID` resumes after.
    #[schema(pattern = "^[0-9]+$")]
    id: String,
    /// The event as an `EventOut` in JSON, redacted for the caller (in a `skipped` message, what
    /// the stream left out).
    #[schema(content_media_type = "application/json")]
    data: String,
}

/// The events a new stream did not send, being further back than it reads: read them from
/// `events` (a page at a time) if they are wanted; the stream goes on after `to`.
#[derive(serde::Serialize)]
pub struct StreamSkipped {
    /// The first event not sent.
    pub from: i64,
    /// The last event not sent; the stream's next event is the one after it.
    pub to: i64,
    /// Where to read them: `GET /v1/matches/{id}/events?since=…`.
    pub events: String,
}

/// The match live
///
/// Server-Sent Events (`text/event-stream`): every event of the match from `since` (or the
/// `Last-Event-ID` a reconnecting `EventSource` sends) on, then each new one as it is recorded,
/// on whichever node it was made. Each message's `id` is the event's `seq` and its `data` an
/// `EventOut`, redacted for the caller as in `GET …/events`. A comment line every 15 seconds
/// keeps idle connections open; the stream ends after the match's last event.
///
/// A new stream sends at most the last 1,000 past events (`KORTBORD_STREAM_BACKLOG`): asked to
/// start further back, it begins with a `skipped` message naming what it left out and where to
/// read it. Streams are capped per client address (256, of them 32 without a token) and per
/// player (16, on any address); past a cap the answer is 429 `too-many-streams` with
/// `Retry-After`.
#[utoipa::path(get, path = "/v1/matches/{id}/stream", tag = "history", params(("id" = Uuid, Path), StreamQuery,
        ("Last-Event-ID" = Option<i64>, Header, minimum = 0, description = "the last `seq` received, to resume after it")),
    security((), ("bearer" = [])),
    responses((status = 200, description = "an event stream; each message's data is an `EventOut`",
               content_type = "text/event-stream", body = StreamMessage),
              (status = 400, description = "a malformed query or Last-Event-ID",
               body = Problem, content_type = "application/problem+json"),
              (status = 401, description = "a token was sent, but not a valid one",
               body = Problem, content_type = "application/problem+json"),
              (status = 403, description = "the seat asked for is not the caller's",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match", body = Problem, content_type = "application/problem+json"),
              (status = 429, description = "as many streams are open as the caller may hold (`too-many-streams`): from \
                                            this address, without a token from it, or with this player's token",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait"))),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}/stream")]
pub async fn stream(
    req: HttpRequest,
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<Uuid>,
    query: web::Query<StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let resume =
        match req.headers().get("Last-Event-ID") {
            None => None,
            Some(v) => {
                Some(v.to_str().ok().and_then(|v| v.trim().parse::<i64>().ok()).filter(|n| *n >= 0).ok_or_else(
                    || ApiError::bad_request("invalid-since", "Last-Event-ID is an event's seq, 0 or more"),
                )?)
            }
        };
    // A negative `since` is refused even when Last-Event-ID, which wins, is sent beside it.
    if query.since.is_some_and(|n| n < 0) {
        return Err(ApiError::bad_request("invalid-since", "since is a sequence number, 0 or more"));
    }
    let since = resume.or(query.since).unwrap_or(0);
    let state = state.into_inner();
    // Before anything costs: a place under the caps of the caller's address and token.
    let address = req.peer_addr().map(|a| a.ip()).unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
    let admission = state.hub.admit(address, caller.0.as_ref().map(|p| p.id)).map_err(|cap| {
        state.metrics.rate_limited.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let detail = match cap {
            Refused::Address(n) => format!("{n} streams are open from this address, the most it may hold: close one"),
            Refused::Anonymous(n) => format!(
                "{n} streams without a token are open from this address, the most it may hold: close one, or send a token"
            ),
            Refused::Player(n) => format!("{n} streams are open with this player's token, the most it may hold: close one"),
        };
        let mut e = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too-many-streams", "Too many requests", detail);
        e.retry_after = Some(state.hub.limits.retry_after);
        e
    })?;
    // Heard of before the first read, so that nothing appended in between is missed.
    let subscription = state.hub.subscribe(id);
    let backlog = state.hub.limits.backlog;
    let (viewer, skipped, first) = {
        let (state, hub) = (state.clone(), state.hub.clone());
        let caller_seat = query.seat;
        with_db_in_turn(&state.clone(), &hub.reads, move || {
            let mut conn = state.pool.get()?;
            let loaded = load_with(&mut conn, &state, id)?;
            let (viewer, _) = viewer_of(&loaded, &caller, caller_seat)?;
            // A new stream reads at most `backlog` past events; it says what it left out.
            let start = since.max(loaded.version - backlog);
            let skipped = (start > since).then(|| StreamSkipped {
                from: since + 1,
                to: start,
                events: format!("/v1/matches/{id}/events?since={since}"),
            });
            let rows = store::read(&mut conn, id, start, PAGE)?;
            let more = rows.len() as i64 == PAGE;
            let (lines, last, over) = lines_of(&loaded, &rows, viewer, start);
            Ok((viewer, skipped, Batch { lines, last, over, more }))
        })
        .await?
    };
    let skipped = skipped.map(|s| {
        let data = serde_json::to_string(&s).unwrap_or_default();
        Bytes::from(format!("event: skipped\nid: {}\ndata: {data}\n\n", s.to))
    });
    let live = Live {
        state,
        id,
        viewer,
        last: first.last,
        over: first.over,
        queue: std::iter::once(Bytes::from_static(b"retry: 2000\n\n")).chain(skipped).chain(first.lines).collect(),
        subscription,
        look: first.more,
        _admission: admission,
    };
    let events = futures_util::stream::unfold(live, |mut live| async move {
        let next = live.next().await?;
        Some((Ok::<_, actix_web::Error>(next), live))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Compressing would hold messages back until a buffer fills.
        .insert_header((header::CONTENT_ENCODING, "identity"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(events))
}

/// What one read gives: messages, the last seq they cover, and whether the match is over.
struct Batch {
    lines: Vec<Bytes>,
    last: i64,
    over: bool,
    /// A whole page was read: more may follow without any news.
    more: bool,
}

fn lines_of(
    loaded: &crate::matches::Loaded,
    rows: &[store::StoredEvent],
    viewer: Viewer,
    since: i64,
) -> (Vec<Bytes>, i64, bool) {
    let rows: Vec<&store::StoredEvent> = rows.iter().filter(|e| e.seq <= loaded.version).collect();
    let last = rows.last().map_or(since.min(loaded.version), |e| e.seq);
    let lines = rows
        .iter()
        .map(|e| {
            let data = serde_json::to_string(&loaded.event_out(e, viewer)).unwrap_or_default();
            Bytes::from(format!("id: {}\ndata: {data}\n\n", e.seq))
        })
        .collect();
    (lines, last, loaded.phase() == MatchPhase::Finished && last >= loaded.version)
}

/// An open stream: what is queued to send, and where it stands in the match.
struct Live {
    state: Arc<AppState>,
    id: Uuid,
    viewer: Viewer,
    last: i64,
    over: bool,
    queue: VecDeque<Bytes>,
    subscription: Subscription,
    /// The match may have moved: read before waiting again.
    look: bool,
    /// The stream's place under the caps, freed when it closes.
    _admission: Admission,
}

impl Live {
    /// The next chunk to send: a queued message, else new events once the match moves (or a
    /// keep-alive comment while it does not); none after the match's last event.
    async fn next(&mut self) -> Option<Bytes> {
        loop {
            if let Some(line) = self.queue.pop_front() {
                if self.queue.is_empty() {
                    // An idle stream keeps no room for messages it has sent.
                    self.queue = VecDeque::new();
                }
                return Some(line);
            }
            if self.over {
                return None;
            }
            let known = *self.subscription.news.borrow_and_update();
            // News of a version already sent is no news; a wake-up without a version (the
            // node's listener reconnected) is a reason to look.
            if known <= self.last && !std::mem::take(&mut self.look) {
                match actix_web::rt::time::timeout(KEEP_ALIVE, self.subscription.news.changed()).await {
                    Err(_) => return Some(Bytes::from_static(b": keep-alive\n\n")),
                    Ok(Err(_)) => return None,
                    Ok(Ok(())) => {
                        self.look = true;
                        continue;
                    }
                }
            }
            let (state, id, viewer, since) = (self.state.clone(), self.id, self.viewer, self.last);
            let read = with_db_in_turn(&state.clone(), &self.state.hub.reads, move || {
                let mut conn = state.pool.get()?;
                let loaded = load_with(&mut conn, &state, id)?;
                let rows = store::read(&mut conn, id, since, PAGE)?;
                let more = rows.len() as i64 == PAGE;
                let (lines, last, over) = lines_of(&loaded, &rows, viewer, since);
                Ok(Batch { lines, last, over, more })
            })
            .await;
            match read {
                Ok(batch) => {
                    self.queue.extend(batch.lines);
                    self.last = batch.last;
                    self.over = batch.over;
                    self.look = batch.more;
                }
                // The database is away: say so in a comment and look again shortly.
                Err(_) => {
                    actix_web::rt::time::sleep(Duration::from_millis(500)).await;
                    return Some(Bytes::from_static(b": waiting for the database\n\n"));
                }
            }
        }
    }
}
