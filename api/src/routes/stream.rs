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
    /// `table`: after the events that bring the stream up to the match's version (when it
    /// opens, and after each move with all it set off), also the match as the caller may see
    /// it, a `MatchView` (a `state` message), so that an app draws the table without the rules
    /// and without fetching the match again.
    pub view: Option<StreamView>,
}

/// What a stream sends besides the events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StreamView {
    /// The caller's view of the match after the events (`state` messages).
    Table,
}

/// How the stream's messages are written: Server-Sent Events, or one JSON document a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    EventStream,
    Ndjson,
}

impl Format {
    /// Newline-delimited JSON when the client asks for it by name (mobile SDKs read it without an
    /// EventSource), Server-Sent Events otherwise.
    fn of(req: &HttpRequest) -> Format {
        let asked = req
            .headers()
            .get_all(header::ACCEPT)
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|range| range.split(';').next().unwrap_or("").trim().to_ascii_lowercase())
            .find(|media| media == "application/x-ndjson" || media == "text/event-stream");
        if asked.as_deref() == Some("application/x-ndjson") {
            Format::Ndjson
        } else {
            Format::EventStream
        }
    }

    fn event(self, seq: i64, data: &str) -> Bytes {
        match self {
            Format::EventStream => Bytes::from(format!("id: {seq}\ndata: {data}\n\n")),
            Format::Ndjson => Bytes::from(format!("{data}\n")),
        }
    }

    /// A message other than an event: `skipped` or `state`.
    fn message(self, kind: &str, id: Option<i64>, data: &str) -> Bytes {
        match (self, id) {
            (Format::EventStream, Some(id)) => Bytes::from(format!("event: {kind}\nid: {id}\ndata: {data}\n\n")),
            (Format::EventStream, None) => Bytes::from(format!("event: {kind}\ndata: {data}\n\n")),
            (Format::Ndjson, _) => Bytes::from(format!("{{\"{kind}\":{data}}}\n")),
        }
    }

    fn keep_alive(self) -> Bytes {
        match self {
            Format::EventStream => Bytes::from_static(b": keep-alive\n\n"),
            Format::Ndjson => Bytes::from_static(b"\n"),
        }
    }

    fn waiting(self) -> Bytes {
        match self {
            Format::EventStream => Bytes::from_static(b": waiting for the database\n\n"),
            Format::Ndjson => Bytes::from_static(b"\n"),
        }
    }
}

/// One message of the stream, modelled as the OpenAPI media-type registry models a Server-Sent
/// Event (an object of its fields), which is what a checker such as schemathesis validates each
/// message against. Never sent as JSON: this is the shape of `id:` and `data:` lines.
#[derive(ToSchema)]
#[allow(dead_code)] // a schema only
pub struct StreamMessage {
    /// Absent for an event (which SSE readers name `message`). `skipped`: the stream was asked
    /// to start further back than it reads (`KORTBORD_STREAM_BACKLOG` events, 1,000 by default); `data` is then
    /// `{"from": <first seq not sent>, "to": <last seq not sent>, "events": "/v1/matches/…/events?since=…"}`,
    /// where to read them, and `id` is `to`. `state` (with `view=table`): `data` is the
    /// match as the caller may see it after the events before it, a `MatchView`; no `id`.
    #[schema(pattern = "^(message|skipped|state)$")]
    event: Option<String>,
    /// The event's `seq`, what `Last-Event-ID` resumes after (absent on a `state` message).
    #[schema(pattern = "^[0-9]+$")]
    id: Option<String>,
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
/// With `view=table`, each time the stream has caught up with the match (when it opens, and after
/// the events of each move with the deals and bots' moves it set off) a `state` message follows
/// with the match as the caller may see it (a `MatchView`). Sent with
/// `Accept: application/x-ndjson`, the same stream is newline-delimited JSON: an `EventOut` a
/// line, `{"state": MatchView}` and `{"skipped": {…}}` lines for those messages, and an empty
/// line as the keep-alive.
///
/// A new stream sends at most the last 1,000 past events (`KORTBORD_STREAM_BACKLOG`): asked to
/// start further back, it begins with a `skipped` message naming what it left out and where to
/// read it. Streams are capped per client address (256, of them 32 without a token) and per
/// player (16, on any address); past a cap the answer is 429 `too-many-streams` with
/// `Retry-After`.
#[utoipa::path(get, path = "/v1/matches/{id}/stream", tag = "history", params(("id" = Uuid, Path), StreamQuery,
        ("Last-Event-ID" = Option<i64>, Header, minimum = 0, description = "the last `seq` received, to resume after it")),
    security((), ("bearer" = [])),
    responses((status = 200, description = "an event stream; each message's data is an `EventOut` (or, as \
                                            `application/x-ndjson`, one `EventOut`, `{\"state\": MatchView}` or \
                                            `{\"skipped\": …}` a line)",
               content((StreamMessage = "text/event-stream"), (String = "application/x-ndjson"))),
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
    let format = Format::of(&req);
    let table = query.view == Some(StreamView::Table);
    let player = caller.0.as_ref().map(|p| p.id);
    let state = state.into_inner();
    // Before anything costs: a place under the caps of the caller's address and token.
    let address = req.peer_addr().map(|a| a.ip()).unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
    let admission = state.hub.admit(address, caller.0.as_ref().map(|p| p.id)).map_err(|cap| refused(&state, cap))?;
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
            let shown = Shown { viewer, player, format, table };
            let (lines, last, over) = lines_of(&loaded, &rows, shown, start, true);
            Ok((viewer, skipped, Batch { lines, last, over, more }))
        })
        .await?
    };
    let skipped =
        skipped.map(|s| format.message("skipped", Some(s.to), &serde_json::to_string(&s).unwrap_or_default()));
    let retry = (format == Format::EventStream).then(|| Bytes::from_static(b"retry: 2000\n\n"));
    let live = Live {
        state,
        id,
        shown: Shown { viewer, player, format, table },
        last: first.last,
        over: first.over,
        queue: retry.into_iter().chain(skipped).chain(first.lines).collect(),
        subscription,
        look: first.more,
        _admission: admission,
    };
    let events = futures_util::stream::unfold(live, |mut live| async move {
        let next = live.next().await?;
        Some((Ok::<_, actix_web::Error>(next), live))
    });
    Ok(HttpResponse::Ok()
        .content_type(match format {
            Format::EventStream => "text/event-stream",
            Format::Ndjson => "application/x-ndjson",
        })
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Compressing would hold messages back until a buffer fills.
        .insert_header((header::CONTENT_ENCODING, "identity"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(events))
}

/// The 429 for a stream past one of its caps.
fn refused(state: &AppState, cap: Refused) -> ApiError {
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
}

/// What one read gives: messages, the last seq they cover, and whether the match is over.
struct Batch {
    lines: Vec<Bytes>,
    last: i64,
    over: bool,
    /// A whole page was read: more may follow without any news.
    more: bool,
}

/// What a stream shows its caller, and how.
#[derive(Clone, Copy)]
struct Shown {
    viewer: Viewer,
    /// The caller's player, whose seats the `state` messages name.
    player: Option<Uuid>,
    format: Format,
    /// `view=table`: a `state` message each time the stream catches up.
    table: bool,
}

/// The messages for `rows`, the events after `since`; with `view=table`, the caller's view after
/// them once they reach the match's version (and on `opening`, even with no event to send).
fn lines_of(
    loaded: &crate::matches::Loaded,
    rows: &[store::StoredEvent],
    shown: Shown,
    since: i64,
    opening: bool,
) -> (Vec<Bytes>, i64, bool) {
    let rows: Vec<&store::StoredEvent> = rows.iter().filter(|e| e.seq <= loaded.version).collect();
    let last = rows.last().map_or(since.min(loaded.version), |e| e.seq);
    let mut lines: Vec<Bytes> = rows
        .iter()
        .map(|e| {
            shown.format.event(e.seq, &serde_json::to_string(&loaded.event_out(e, shown.viewer)).unwrap_or_default())
        })
        .collect();
    if shown.table && (opening || !rows.is_empty()) && last >= loaded.version {
        let held = shown.player.map(|p| loaded.seats_of(p)).unwrap_or_default();
        let view = serde_json::to_string(&loaded.view(shown.viewer, held)).unwrap_or_default();
        lines.push(shown.format.message("state", None, &view));
    }
    (lines, last, loaded.phase() == MatchPhase::Finished && last >= loaded.version)
}

/// An open stream: what is queued to send, and where it stands in the match.
struct Live {
    state: Arc<AppState>,
    id: Uuid,
    shown: Shown,
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
                    Err(_) => return Some(self.shown.format.keep_alive()),
                    Ok(Err(_)) => return None,
                    Ok(Ok(())) => {
                        self.look = true;
                        continue;
                    }
                }
            }
            let (state, id, shown, since) = (self.state.clone(), self.id, self.shown, self.last);
            let read = with_db_in_turn(&state.clone(), &self.state.hub.reads, move || {
                let mut conn = state.pool.get()?;
                let loaded = load_with(&mut conn, &state, id)?;
                let rows = store::read(&mut conn, id, since, PAGE)?;
                let more = rows.len() as i64 == PAGE;
                let (lines, last, over) = lines_of(&loaded, &rows, shown, since, false);
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
                    return Some(self.shown.format.waiting());
                }
            }
        }
    }
}

// ---------------------------------------------------------------- a player's own stream

/// How far before a resumed stream's `Last-Event-ID` it looks again: a change is stamped with
/// its time when it is made, and one made just before another may commit just after it.
const OVERLAP: chrono::TimeDelta = chrono::TimeDelta::seconds(5);
/// The most matches one read of a player's stream sends: the most recently changed.
const PLAYER_PAGE: i64 = 200;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct MyStreamQuery {
    /// Resume after this message `id` (as `Last-Event-ID`, which wins when both are sent).
    #[param(minimum = 0)]
    pub since: Option<i64>,
}

/// One message of a player's stream (see `StreamMessage`): `id` is the time of the change in
/// microseconds, what `Last-Event-ID` resumes after; `data` a `MatchSummary`.
#[derive(ToSchema)]
#[allow(dead_code)] // a schema only
pub struct MyStreamMessage {
    #[schema(pattern = "^[0-9]+$")]
    id: String,
    /// The match as lists show it (a `MatchSummary`), in JSON.
    #[schema(content_media_type = "application/json")]
    data: String,
}

/// Your matches live
///
/// Server-Sent Events (or, with `Accept: application/x-ndjson`, one JSON document a line) for
/// the caller across their matches: a message whenever one of them changes, on any node: a seat
/// taken, the first deal dealt, a move (yours, another player's, a bot's: `to_act` says whose
/// turn it is, `your_seats` which seats are yours), the match over (`outcome`, `ended`), and a
/// match the caller creates or joins. Each message's `data` is the match as lists show it (a
/// `MatchSummary`) and its `id` the time of the change in microseconds.
///
/// A new stream starts with every match of the caller's that is not over; one resumed with
/// `Last-Event-ID` (or `since`) sends instead the matches that changed since, looking 5 seconds
/// further back than the id (a change made just before another may be stored just after it), so
/// a message may come twice: a match's `version` tells the newer. At most the 200 most recently
/// changed matches a read. A keep-alive every 15 seconds; the stream counts against the caps of
/// the match streams.
#[utoipa::path(get, path = "/v1/me/stream", tag = "matches", params(MyStreamQuery,
        ("Last-Event-ID" = Option<i64>, Header, minimum = 0, description = "the last message `id` received, to resume after it")),
    security(("bearer" = [])),
    responses((status = 200, description = "an event stream; each message's data is a `MatchSummary` (as \
                                            `application/x-ndjson`, one `MatchSummary` a line)",
               content((MyStreamMessage = "text/event-stream"), (String = "application/x-ndjson"))),
              (status = 400, description = "a malformed query or Last-Event-ID",
               body = Problem, content_type = "application/problem+json"),
              (status = 429, description = "as many streams are open as the caller may hold (`too-many-streams`)",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait"))),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/me/stream")]
pub async fn my_stream(
    req: HttpRequest,
    state: web::Data<AppState>,
    player: crate::auth::Player,
    query: web::Query<MyStreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let resume =
        match req.headers().get("Last-Event-ID") {
            None => None,
            Some(v) => {
                Some(v.to_str().ok().and_then(|v| v.trim().parse::<i64>().ok()).filter(|n| *n >= 0).ok_or_else(
                    || ApiError::bad_request("invalid-since", "Last-Event-ID is a message id, 0 or more"),
                )?)
            }
        };
    if query.since.is_some_and(|n| n < 0) {
        return Err(ApiError::bad_request("invalid-since", "since is a message id, 0 or more"));
    }
    let since = resume.or(query.since).map(|micros| {
        chrono::DateTime::from_timestamp_micros(micros).unwrap_or(chrono::DateTime::<chrono::Utc>::MAX_UTC) - OVERLAP
    });
    let format = Format::of(&req);
    let state = state.into_inner();
    let address = req.peer_addr().map(|a| a.ip()).unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
    let admission = state.hub.admit(address, Some(player.id)).map_err(|cap| refused(&state, cap))?;
    // Heard of before the first read, so that nothing appended in between is missed.
    let subscription = state.hub.subscribe_player(player.id);
    let retry = (format == Format::EventStream).then(|| Bytes::from_static(b"retry: 2000\n\n"));
    let live = PlayerLive {
        state,
        player: player.id,
        format,
        since,
        sent: std::collections::HashMap::new(),
        watched: std::collections::HashSet::new(),
        queue: retry.into_iter().collect(),
        subscription,
        look: true,
        _admission: admission,
    };
    let messages = futures_util::stream::unfold(live, |mut live| async move {
        let next = live.next().await?;
        Some((Ok::<_, actix_web::Error>(next), live))
    });
    Ok(HttpResponse::Ok()
        .content_type(match format {
            Format::EventStream => "text/event-stream",
            Format::Ndjson => "application/x-ndjson",
        })
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::CONTENT_ENCODING, "identity"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(messages))
}

/// An open player stream.
struct PlayerLive {
    state: Arc<AppState>,
    player: Uuid,
    format: Format,
    /// Matches changed after this time are news (none: every match not over is).
    since: Option<chrono::DateTime<chrono::Utc>>,
    /// The version of each match last sent (or known when the stream opened).
    sent: std::collections::HashMap<Uuid, i64>,
    /// The matches whose appends wake this stream.
    watched: std::collections::HashSet<Uuid>,
    queue: VecDeque<Bytes>,
    subscription: crate::live::PlayerSubscription,
    look: bool,
    _admission: Admission,
}

impl PlayerLive {
    async fn next(&mut self) -> Option<Bytes> {
        loop {
            if let Some(line) = self.queue.pop_front() {
                return Some(line);
            }
            if !std::mem::take(&mut self.look) {
                match actix_web::rt::time::timeout(KEEP_ALIVE, self.subscription.news.changed()).await {
                    Err(_) => return Some(self.format.keep_alive()),
                    Ok(Err(_)) => return None,
                    Ok(Ok(())) => {}
                }
            }
            self.subscription.news.borrow_and_update();
            let (state, player, since) = (self.state.clone(), self.player, self.since);
            let read = with_db_in_turn(&state.clone(), &self.state.hub.reads, move || {
                Ok(store::players_matches(&mut state.pool.get()?, player, since, PLAYER_PAGE)?)
            })
            .await;
            let mut rows = match read {
                Ok(rows) => rows,
                Err(_) => {
                    actix_web::rt::time::sleep(Duration::from_millis(500)).await;
                    self.look = true;
                    return Some(self.format.waiting());
                }
            };
            rows.reverse();
            let mut watched = std::collections::HashSet::new();
            let mut newest = None;
            for row in rows {
                let id = row.listed.stream_id;
                newest = newest.max(Some(row.listed.updated_at));
                if row.listed.phase != "finished" {
                    watched.insert(id);
                }
                // A match seen before is news when its version moved, however late the change
                // was stored; one not seen yet, when it changed after the stream's start.
                let news = match self.sent.insert(id, row.listed.version) {
                    Some(known) => row.listed.version > known,
                    None => row.changed,
                };
                if news {
                    let micros = row.listed.updated_at.timestamp_micros();
                    let data =
                        serde_json::to_string(&super::lists::summary(row.listed, Some(player))).unwrap_or_default();
                    self.queue.push_back(self.format.event(micros, &data));
                }
            }
            if let Some(newest) = newest {
                self.since = Some(self.since.map_or(newest - OVERLAP, |s| s.max(newest - OVERLAP)));
            }
            if watched != self.watched {
                // A match not watched before may have moved before it was: read once more.
                self.look = !watched.is_subset(&self.watched);
                self.subscription.watch(watched.clone());
                self.watched = watched;
            }
        }
    }
}
