//! A match's history: its events as the caller may see them, and finished deals in full.

use std::sync::Arc;

use actix_web::http::header;
use actix_web::{get, web, HttpRequest, HttpResponse};
use engine::cards::Card;
use engine::game::{cards_in, hide_cards, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::viewer_of;
use crate::auth::Caller;
use crate::commands::{load_with, with_db};
use crate::http::{not_modified, view_tag, viewed};
use crate::matches::{EventOut, Loaded, MatchPhase};
use crate::problem::{ApiError, Problem};
use crate::state::AppState;
use crate::store::{self, StoredEvent};

/// The longest page of events one request returns.
const MAX_PAGE: i64 = 1000;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only events after this sequence number (what a reconnecting app has already seen).
    #[serde(default)]
    #[param(minimum = 0)]
    pub since: i64,
    /// At most this many (1 to 1000, default 500).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
    /// The seat to read as, when you hold several.
    pub seat: Option<usize>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventPage {
    /// The match's version now.
    pub version: i64,
    pub events: Vec<EventOut>,
}

/// The match's events
///
/// The match's history as the caller may see it, from `since` on: cards hidden from the caller
/// are left out until their deal is over, and what a game keeps hidden for ever stays hidden.
/// Pages hold at most `limit` events; ask again with `since` set to the last `seq` seen.
#[utoipa::path(get, path = "/v1/matches/{id}/events", tag = "history", params(("id" = Uuid, Path), EventsQuery),
    security((), ("bearer" = [])),
    responses((status = 200, body = EventPage, headers(("ETag" = String, description = "the match's version"))),
              (status = 400, description = "a malformed query, or `since`/`limit` out of range",
               body = Problem, content_type = "application/problem+json"),
              (status = 401, description = "a token was sent, but not a valid one",
               body = Problem, content_type = "application/problem+json"),
              (status = 403, description = "the seat asked for is not the caller's",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match", body = Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}/events")]
pub async fn match_events(
    req: HttpRequest,
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<Uuid>,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let query = query.into_inner();
    if query.since < 0 {
        return Err(ApiError::bad_request("invalid-since", "since is a sequence number, 0 or more"));
    }
    let limit = query.limit.unwrap_or(500);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(ApiError::bad_request("invalid-limit", format!("limit is 1 to {MAX_PAGE}")));
    }
    let state = state.into_inner();
    let (loaded, rows) = with_db(&state.clone(), move || {
        let mut conn = state.pool.get()?;
        let loaded = load_with(&mut conn, &state, id)?;
        let rows = store::read(&mut conn, id, query.since, limit)?;
        Ok((loaded, rows))
    })
    .await?;
    let (viewer, _) = viewer_of(&loaded, &caller, query.seat)?;
    // Rows read after the match was loaded may run past it: the page stops at its version.
    let events = rows.iter().filter(|e| e.seq <= loaded.version).map(|e| loaded.event_out(e, viewer)).collect();
    Ok(viewed(&req, view_tag(loaded.version, viewer), &EventPage { version: loaded.version, events }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DealRecord {
    /// The match's game: whose table `end` is.
    pub game: String,
    pub deal: i32,
    /// Every event of the deal, with the cards that were hidden during play.
    pub events: Vec<EventOut>,
    /// The table as the deal ended, every hand shown but the cards the game keeps back for ever
    /// (in Svängknack, Norrlandsknack, Rödskägg, Femkort, Femhundra and Polskt pass; docs/api.md
    /// says which), unless the caller held or saw them.
    #[schema(schema_with = crate::openapi::table_schema)]
    pub end: Value,
}

/// A finished deal replayed: the table at its end, its events, and, when a step is asked for,
/// the table after that many of its events (a snapshot taken on the way, so the match is
/// replayed once).
struct Replayed {
    end: Loaded,
    deal_rows: Vec<StoredEvent>,
    at_step: Option<Loaded>,
}

/// Replays a match's events up to the end of `deal`, keeping the table after `steps` events of it.
fn replay_deal(loaded: &Loaded, rows: &[StoredEvent], deal: i32, steps: Option<usize>) -> Result<Replayed, ApiError> {
    // Deals are numbered from 1; the events before the first deal (the match's creation, seats
    // joined) are tagged deal 0 but are no deal: there is no table before them to replay from.
    let deal_rows: Vec<StoredEvent> =
        if deal < 1 { Vec::new() } else { rows.iter().filter(|e| e.deal == deal).cloned().collect() };
    if deal_rows.is_empty() {
        return Err(ApiError::not_found(&format!("deal {deal} of match {}", loaded.id)));
    }
    if !loaded.deal_over(deal) {
        return Err(ApiError::conflict(
            "deal-in-progress",
            format!("deal {deal} is still being played: its record opens when it is over"),
        ));
    }
    if steps.is_some_and(|n| n > deal_rows.len()) {
        return Err(ApiError::new(
            actix_web::http::StatusCode::NOT_FOUND,
            "invalid-step",
            "Not found",
            format!("deal {deal} has {} steps", deal_rows.len()),
        ));
    }
    let first_seq = deal_rows[0].seq;
    let last_seq = deal_rows.last().map_or(first_seq, |e| e.seq);
    let before: Vec<StoredEvent> = rows.iter().filter(|e| e.seq < first_seq).cloned().collect();
    let mut end = Loaded::replay(loaded.id, &before).map_err(ApiError::internal)?;
    let mut at_step = None;
    let mut applied = 0;
    for row in rows.iter().filter(|e| (first_seq..=last_seq).contains(&e.seq)) {
        if steps == Some(applied) && row.deal == deal {
            at_step = Some(end.clone());
        }
        end.apply_all(std::slice::from_ref(row)).map_err(ApiError::internal)?;
        applied += usize::from(row.deal == deal);
    }
    if steps == Some(applied) {
        at_step = Some(end.clone());
    }
    Ok(Replayed { end, deal_rows, at_step })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReplayQuery {
    /// How many of the deal's events to apply (0 = the table before the deal's first event).
    pub at: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayStep {
    /// The match's game: whose table `table` is.
    pub game: String,
    pub deal: i32,
    pub at: usize,
    /// How many events the deal has.
    pub steps: usize,
    /// The event applied last (null at step 0).
    pub event: Option<EventOut>,
    /// The table after `at` events, every hand shown but what the deal's record keeps back from
    /// the caller.
    #[schema(schema_with = crate::openapi::table_schema)]
    pub table: Value,
}

/// The match and its whole log, for the reads that may lag (records, replays, exports): from the
/// replica when there is one. A replica behind what this node has already seen (its cache, which
/// holds every append made through it) is passed over for the primary, so a client that played
/// through this node finds its own moves; one behind another node's appends may answer as the
/// match stood a moment ago.
async fn load_all(state: web::Data<AppState>, id: Uuid) -> Result<(Arc<Loaded>, Vec<StoredEvent>), ApiError> {
    let state = state.into_inner();
    with_db(&state.clone(), move || {
        let mut conn = state.lagging()?;
        let loaded = load_with(&mut conn, &state, id)?;
        let mut rows = store::read(&mut conn, id, 0, loaded.version)?;
        if (rows.len() as i64) < loaded.version {
            drop(conn);
            rows = store::read(&mut state.pool.get()?, id, 0, loaded.version)?;
        }
        Ok((loaded, rows))
    })
    .await
}

/// A finished deal's record
///
/// A finished deal in full: every event with the cards that were hidden in play, and the table as
/// the deal ended, less only what the game keeps hidden for ever (a blanked card, a folded hand,
/// cards never played in Norrlandsknack and Rödskägg...), which a seat that held it still sees.
#[utoipa::path(get, path = "/v1/matches/{id}/deals/{deal}", tag = "history",
    security((), ("bearer" = [])),
    params(("id" = Uuid, Path), ("deal" = i32, Path, minimum = 1, description = "the deal's number, from 1")),
    responses((status = 200, body = DealRecord),
              (status = 404, description = "no such match, or no such deal in it",
               body = Problem, content_type = "application/problem+json"),
              (status = 409, description = "the deal is still being played",
               body = Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}/deals/{deal}")]
pub async fn deal_record(
    state: web::Data<AppState>,
    path: web::Path<(Uuid, i32)>,
    caller: Caller,
) -> Result<HttpResponse, ApiError> {
    let (id, deal) = path.into_inner();
    let (loaded, rows) = load_all(state, id).await?;
    let seat = record_seat(&loaded, &caller)?;
    let Replayed { end, deal_rows, .. } = replay_deal(&loaded, &rows, deal, None)?;
    let events = deal_rows.iter().map(|e| end.record_out(e, seat)).collect();
    Ok(private(HttpResponse::Ok()).json(DealRecord {
        game: loaded.game.clone(),
        deal,
        events,
        end: end.table.record_view(seat),
    }))
}

/// Whose record it is: a seated caller also sees the cards it held that the game keeps from the
/// others for ever (Svängknack's blanked cards, a thrown-in Femkort hand...); anyone else sees
/// the record everyone sees.
fn record_seat(loaded: &Loaded, caller: &Caller) -> Result<Option<usize>, ApiError> {
    Ok(match viewer_of(loaded, caller, None)?.0 {
        Viewer::Seat(s) => Some(s),
        _ => None,
    })
}

/// The answer depends on who asks, so no shared cache may keep it.
fn private(mut response: actix_web::HttpResponseBuilder) -> actix_web::HttpResponseBuilder {
    response.insert_header((header::CACHE_CONTROL, "private")).insert_header((header::VARY, "Authorization"));
    response
}

/// A finished deal, step by step
///
/// The table after the first `at` events of a finished deal, with the event applied last: step
/// through a deal from 0 to `steps`. What the deal's record keeps hidden stays hidden at every
/// step.
#[utoipa::path(get, path = "/v1/matches/{id}/deals/{deal}/replay", tag = "history",
    security((), ("bearer" = [])),
    params(("id" = Uuid, Path), ("deal" = i32, Path, minimum = 1, description = "the deal's number, from 1"),
           ReplayQuery),
    responses((status = 200, body = ReplayStep),
              (status = 400, description = "`at` is missing or malformed",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match, no such deal in it, or `at` beyond the deal's last step \
                                            (`invalid-step`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 409, description = "the deal is still being played",
               body = Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}/deals/{deal}/replay")]
pub async fn deal_replay(
    state: web::Data<AppState>,
    path: web::Path<(Uuid, i32)>,
    query: web::Query<ReplayQuery>,
    caller: Caller,
) -> Result<HttpResponse, ApiError> {
    let (id, deal) = path.into_inner();
    let (loaded, rows) = load_all(state, id).await?;
    let seat = record_seat(&loaded, &caller)?;
    let Replayed { end, deal_rows, at_step } = replay_deal(&loaded, &rows, deal, Some(query.at))?;
    let at_step = at_step.ok_or_else(|| ApiError::internal("the replay kept no step"))?;
    // A step shows no card that the whole record keeps back from this caller: a card blanked
    // later in the deal was still in a hand at this step.
    let mut shown: Vec<Card> = cards_in(&end.table.record_view(seat));
    for e in &deal_rows {
        shown.extend(cards_in(&end.record_out(e, seat).data));
    }
    let hidden: Vec<Card> = deal_rows.iter().flat_map(|e| cards_in(&e.data)).filter(|c| !shown.contains(c)).collect();
    let mut event = query.at.checked_sub(1).map(|i| end.record_out(&deal_rows[i], seat));
    if let Some(e) = &mut event {
        hide_cards(&mut e.data, &hidden);
    }
    let mut table = at_step.table.record_view(seat);
    hide_cards(&mut table, &hidden);
    Ok(private(HttpResponse::Ok()).json(ReplayStep {
        game: loaded.game.clone(),
        deal,
        at: query.at,
        steps: deal_rows.len(),
        event,
        table,
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// The seat to read as, when you hold several.
    pub seat: Option<usize>,
}

/// A match exported
///
/// The whole match as newline-delimited JSON (`application/x-ndjson`): one event per line, each
/// an `EventOut` as in the event feed. While the match is played the lines are what the caller
/// may see (another seat's cards hidden until their deal is over); once it is over they are the
/// full record, less only what the game hides for ever. Save it, diff it, or feed it to a tool.
#[utoipa::path(get, path = "/v1/matches/{id}/export", tag = "history",
    params(("id" = Uuid, Path), ExportQuery,
           ("If-None-Match" = Option<String>, Header,
            description = "an ETag this export was sent with: 304 while the match is unchanged for this viewer")),
    security((), ("bearer" = [])),
    responses((status = 200, description = "one `EventOut` per line", content_type = "application/x-ndjson", body = String,
               headers(("ETag" = String, description = "the version and the viewer, as the match's own"))),
              (status = 304, description = "`If-None-Match` names the current tag: nothing changed",
               headers(("ETag" = String, description = "the version and the viewer"))),
              (status = 400, description = "a malformed query", body = Problem, content_type = "application/problem+json"),
              (status = 401, description = "a token was sent, but not a valid one",
               body = Problem, content_type = "application/problem+json"),
              (status = 403, description = "the seat asked for is not the caller's",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match", body = Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}/export")]
pub async fn export(
    req: HttpRequest,
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<Uuid>,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let (loaded, rows) = load_all(state, id).await?;
    let (viewer, _) = viewer_of(&loaded, &caller, query.seat)?;
    let tag = view_tag(loaded.version, viewer);
    if not_modified(&req, &tag) {
        return Ok(private(HttpResponse::NotModified()).insert_header((header::ETAG, tag)).finish());
    }
    // A match the service ended (aborted, abandoned) may stop in the middle of a deal, whose
    // hidden cards stay hidden: only a match its rules finished is exported as its record.
    let over = loaded.phase() == MatchPhase::Finished && loaded.ended.is_none();
    let mut body = Vec::with_capacity(rows.len() * 200);
    for e in &rows {
        let line = if over {
            loaded.record_out(e, if let Viewer::Seat(s) = viewer { Some(s) } else { None })
        } else {
            loaded.event_out(e, viewer)
        };
        serde_json::to_writer(&mut body, &line).map_err(ApiError::internal)?;
        body.push(b'\n');
    }
    Ok(private(HttpResponse::Ok())
        .content_type("application/x-ndjson")
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"match-{id}.ndjson\"")))
        .insert_header((header::ETAG, tag))
        .body(body))
}
