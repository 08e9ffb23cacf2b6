//! HTTP handlers under `/v1`. They load a match, ask the engine, append what it decided.
//!
//! Each handler's `#[utoipa::path]` lists the responses the handler itself gives. The problems
//! the shared extractors give before it runs (401 for a bad token, 404 for a path that does not
//! parse, 400 for a query that does not, 400/413/415/422 for JSON bodies) are added to every
//! operation they apply to by `openapi::ExtractorProblems`. `scripts/schemathesis` checks the
//! document against the running service.

use actix_web::http::{header, StatusCode};
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use engine::cards::Card;
use engine::game::{Refusal, Viewer};
use engine::rules::Lang;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::auth::{Caller, Keys, Player};
use crate::matches::{EventOut, Loaded, MatchView, Occupant, ServiceEvent};
use crate::problem::ApiError;
use crate::store::{self, AppendError, NewEvent, StoredAnswer};
use crate::{batch, AppState};

/// The longest page of events one request returns.
const MAX_PAGE: i64 = 1000;

pub fn lang(req: &HttpRequest) -> Lang {
    let wanted = req.headers().get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if wanted.trim_start().to_ascii_lowercase().starts_with("sv") {
        Lang::Sv
    } else {
        Lang::En
    }
}

fn idempotency_key(req: &HttpRequest) -> Result<Option<String>, ApiError> {
    match req.headers().get("Idempotency-Key") {
        None => Ok(None),
        Some(v) => {
            let key = v.to_str().map_err(|_| ApiError::bad_request("invalid-idempotency-key", "Idempotency-Key must be text"))?;
            if key.is_empty() || key.len() > 200 {
                return Err(ApiError::bad_request("invalid-idempotency-key", "Idempotency-Key must be 1 to 200 characters"));
            }
            Ok(Some(key.to_string()))
        }
    }
}

/// `If-Match: "12"` (or `W/"12"`): the version the client expects.
fn if_match(req: &HttpRequest) -> Result<Option<i64>, ApiError> {
    let Some(v) = req.headers().get(header::IF_MATCH) else { return Ok(None) };
    let text = v.to_str().unwrap_or("").trim();
    let text = text.strip_prefix("W/").unwrap_or(text).trim_matches('"');
    text.parse::<i64>().map(Some).map_err(|_| {
        ApiError::bad_request("invalid-if-match", "If-Match must be a version as sent in the ETag, e.g. \"12\"")
    })
}

fn etag(version: i64) -> (header::HeaderName, String) {
    (header::ETAG, format!("\"{version}\""))
}

/// A response built on a blocking thread (actix's own response type is not `Send`).
pub struct Reply {
    status: StatusCode,
    /// The answer already serialized: written once, sent as it is.
    body: Vec<u8>,
    version: Option<i64>,
    headers: Vec<(&'static str, String)>,
}

impl Reply {
    fn new(status: StatusCode, body: impl Serialize) -> Result<Reply, ApiError> {
        Ok(Reply { status, body: serde_json::to_vec(&body).map_err(ApiError::internal)?, version: None, headers: Vec::new() })
    }

    fn version(mut self, version: i64) -> Reply {
        self.version = Some(version);
        self
    }

    fn header(mut self, name: &'static str, value: String) -> Reply {
        self.headers.push((name, value));
        self
    }

    fn into_response(self) -> HttpResponse {
        let mut r = HttpResponse::build(self.status);
        if let Some(v) = self.version {
            r.insert_header(etag(v));
        }
        for (name, value) in self.headers {
            r.insert_header((name, value));
        }
        r.content_type(header::ContentType::json()).body(self.body)
    }
}

fn limit(state: &AppState, player: &Player, action: crate::ratelimit::Action) -> Result<(), ApiError> {
    state.limiter.check(player.id, action).map_err(|wait| {
        state.metrics.rate_limited.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate-limited",
            "Too many requests",
            format!("too many requests from this player: wait {wait} s"),
        );
        e.retry_after = Some(wait);
        e
    })
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    web::block(f).await?
}

/// Loads a match: the node's cached state caught up with the events newer than it, or replayed
/// from the first event. The read shares its round trip with other requests' (`batch.rs`).
pub async fn load(state: &Arc<AppState>, id: Uuid) -> Result<Arc<Loaded>, ApiError> {
    let cached = state.cache.get(id);
    let newer = state.db.read(id, cached.as_ref().map_or(0, |c| c.version)).await?;
    if newer.len() > 256 {
        // A long replay would hold up the other requests on this worker.
        let state = state.clone();
        return blocking(move || catch_up(&state, id, cached, newer)).await;
    }
    catch_up(state, id, cached, newer)
}

/// `load` for code that already holds a connection.
pub fn load_with(conn: &mut store::Conn, state: &AppState, id: Uuid) -> Result<Arc<Loaded>, ApiError> {
    let cached = state.cache.get(id);
    let newer = store::read(conn, id, cached.as_ref().map_or(0, |c| c.version), i64::MAX)?;
    catch_up(state, id, cached, newer)
}

fn catch_up(state: &AppState, id: Uuid, cached: Option<Arc<Loaded>>, newer: Vec<store::StoredEvent>) -> Result<Arc<Loaded>, ApiError> {
    let started = std::time::Instant::now();
    let loaded = match cached {
        Some(cached) if newer.is_empty() => return Ok(cached),
        Some(cached) => {
            let mut caught_up = Loaded::clone(&cached);
            caught_up.apply_all(&newer).map_err(ApiError::internal)?;
            caught_up
        }
        None if newer.is_empty() => return Err(ApiError::not_found(&format!("match {id}"))),
        None => Loaded::replay(id, &newer).map_err(ApiError::internal)?,
    };
    state.metrics.replayed(started.elapsed());
    let loaded = Arc::new(loaded);
    state.cache.put(loaded.clone());
    Ok(loaded)
}

/// The seat a player acts or looks from: the one named, else the only one they hold, else
/// the one of theirs that is to act.
fn acting_seat(loaded: &Loaded, player: &Player, requested: Option<usize>) -> Result<usize, ApiError> {
    let held = loaded.seats_of(player.id);
    if let Some(seat) = requested {
        if seat >= loaded.seats.len() {
            return Err(ApiError::bad_request("no-such-seat", format!("the table has seats 0 to {}", loaded.seats.len() - 1)));
        }
        if !held.contains(&seat) {
            return Err(ApiError::forbidden("not-your-seat", format!("seat {seat} is not yours")));
        }
        return Ok(seat);
    }
    match held.as_slice() {
        [] => Err(ApiError::forbidden("not-your-seat", "you hold no seat in this match")),
        [only] => Ok(*only),
        several => {
            let to_act = loaded.table.status().to_act().to_vec();
            let mine: Vec<usize> = several.iter().copied().filter(|s| to_act.contains(s)).collect();
            match mine.as_slice() {
                [one] => Ok(*one),
                _ => Err(ApiError::bad_request("seat-required", "you hold several seats: name the seat")),
            }
        }
    }
}

/// The viewer a caller reads as: a seat they hold, or a spectator.
fn viewer_of(loaded: &Loaded, caller: &Caller, requested: Option<usize>) -> Result<(Viewer, Vec<usize>), ApiError> {
    let held = caller.0.as_ref().map(|p| loaded.seats_of(p.id)).unwrap_or_default();
    let viewer = match (requested, held.as_slice()) {
        (Some(seat), _) if held.contains(&seat) => Viewer::Seat(seat),
        (Some(seat), _) => {
            return Err(ApiError::forbidden("not-your-seat", format!("seat {seat} is not yours to look at")))
        }
        (None, []) => Viewer::Spectator,
        (None, held) => {
            let to_act = loaded.table.status().to_act().to_vec();
            Viewer::Seat(held.iter().copied().find(|s| to_act.contains(s)).unwrap_or(held[0]))
        }
    };
    Ok((viewer, held))
}

fn fingerprint(parts: &[&str]) -> String {
    // FNV-1a: only tells a retry from a different request under the same key.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0u8]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The answer a request with this key already got: kept whole in old rows, otherwise rebuilt
/// from the log as it stood right after the move (the same bytes the first attempt was sent).
fn stored_response(conn: &mut store::Conn, answer: StoredAnswer, hash: &str) -> Result<Reply, ApiError> {
    if answer.request_hash != hash {
        return Err(ApiError::unprocessable(
            "idempotency-key-reused",
            "this Idempotency-Key was already used for a different request",
        ));
    }
    let status = StatusCode::from_u16(answer.status as u16).unwrap_or(StatusCode::OK);
    let replayed = vec![("Idempotent-Replayed", "true".to_string())];
    if let Some(body) = answer.body {
        let version = body.get("version").and_then(Value::as_i64).unwrap_or(0);
        let body = serde_json::to_vec(&body).map_err(ApiError::internal)?;
        return Ok(Reply { status, body, version: Some(version), headers: replayed });
    }
    let (Some(seat), Some(first), Some(last)) = (answer.seat, answer.first_seq, answer.last_seq) else {
        return Err(ApiError::internal("a stored answer names neither a body nor its events"));
    };
    let events = store::read(conn, answer.stream_id, 0, last)?;
    if events.len() as i64 != last || first < 2 || first > last {
        return Err(ApiError::internal(format!("the log of match {} does not hold the answered events", answer.stream_id)));
    }
    let loaded = Loaded::replay(answer.stream_id, &events).map_err(ApiError::internal)?;
    let result = move_result(&loaded, &events[(first - 1) as usize..], seat as usize, answer.player_id);
    let body = serde_json::to_vec(&result).map_err(ApiError::internal)?;
    Ok(Reply { status, body, version: Some(loaded.version), headers: replayed })
}

/// What a recorded move answers: the events it led to and the match after them, as the seat
/// that moved may see them.
fn move_result(loaded: &Loaded, appended: &[store::StoredEvent], seat: usize, player: Uuid) -> MoveResult {
    let viewer = Viewer::Seat(seat);
    MoveResult {
        version: loaded.version,
        events: appended.iter().map(|e| loaded.event_out(e, viewer)).collect(),
        match_view: loaded.view(viewer, loaded.seats_of(player)),
    }
}

// ---------------------------------------------------------------- auth

/// Whether the request carries a body: a non-zero length, or a chunked one. (A content type
/// alone does not make a body.)
fn has_body(req: &HttpRequest) -> bool {
    let headers = req.headers();
    let length = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).map(str::trim);
    headers.contains_key(header::TRANSFER_ENCODING) || length.is_some_and(|l| l != "0")
}

#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Ada"}))]
pub struct GuestRequest {
    /// A display name (1 to 40 characters); "Guest" when left out.
    pub name: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GuestToken {
    pub token: String,
    pub player_id: Uuid,
    pub name: String,
    /// Unix time in seconds.
    pub expires_at: u64,
}

/// A guest player's token. Send it as `Authorization: Bearer <token>` on every write.
/// The body is optional; one that is sent must be a valid `GuestRequest` (or `null`).
#[utoipa::path(post, path = "/v1/auth/guest", tag = "auth", request_body(content = Option<GuestRequest>),
    responses((status = 201, body = GuestToken),
              (status = 400, description = "the name is empty, too long or has control characters; or the body is not JSON", body = crate::problem::Problem, content_type = "application/problem+json")))]
#[post("/v1/auth/guest")]
pub async fn guest(
    req: HttpRequest,
    keys: web::Data<Keys>,
    body: Result<web::Json<Option<GuestRequest>>, actix_web::Error>,
) -> actix_web::Result<HttpResponse> {
    let body = match body {
        Ok(body) => body.into_inner(),
        // No body at all: a guest with the default name. Any body that is sent must be valid.
        Err(_) if !has_body(&req) => None,
        Err(e) => return Err(e),
    };
    let name = body.and_then(|b| b.name).unwrap_or_else(|| "Guest".into());
    let name = name.trim().to_string();
    if name.is_empty() || name.chars().count() > 40 || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request("invalid-name", "a name is 1 to 40 printable characters").into());
    }
    let player_id = Uuid::new_v4();
    let (token, expires_at) = keys.issue(player_id, &name);
    Ok(HttpResponse::Created().json(GuestToken { token, player_id, name, expires_at }))
}

// ---------------------------------------------------------------- games

#[derive(Debug, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: &'static str,
    pub name_sv: &'static str,
    pub name_en: &'static str,
    pub min_players: usize,
    pub max_players: usize,
    pub deck: &'static str,
    pub family: &'static str,
    pub source: &'static str,
    /// `playable` or `planned`.
    pub status: &'static str,
    /// Variant options with their defaults (empty for planned games).
    #[schema(value_type = Vec<Object>)]
    pub options: Vec<engine::game::OptionDoc>,
}

fn summary(info: &'static engine::catalog::GameInfo) -> GameSummary {
    let game = engine::game(info.id);
    GameSummary {
        id: info.id,
        name_sv: info.name_sv,
        name_en: info.name_en,
        min_players: info.min_players,
        max_players: info.max_players,
        deck: info.deck,
        family: info.family,
        source: info.source,
        status: if game.is_some() { "playable" } else { "planned" },
        options: game.map(|g| g.options()).unwrap_or_default(),
    }
}

/// Every game in the catalog, playable or planned.
#[utoipa::path(get, path = "/v1/games", tag = "games", responses((status = 200, body = Vec<GameSummary>)))]
#[get("/v1/games")]
pub async fn list_games() -> HttpResponse {
    HttpResponse::Ok().json(engine::catalog::CATALOG.iter().map(summary).collect::<Vec<_>>())
}

fn catalog_entry(id: &str) -> Result<&'static engine::catalog::GameInfo, ApiError> {
    engine::catalog::info(id).ok_or_else(|| ApiError::not_found(&format!("game '{id}'")))
}

/// One game of the catalog.
#[utoipa::path(get, path = "/v1/games/{game}", tag = "games", params(("game" = String, Path, description = "game id, e.g. plump")),
    responses((status = 200, body = GameSummary), (status = 404, description = "no such game", body = crate::problem::Problem, content_type = "application/problem+json")))]
#[get("/v1/games/{game}")]
pub async fn get_game(path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(summary(catalog_entry(&path)?)))
}

/// A game's rulebook: every rule with its stable id and its text in Swedish and English.
#[utoipa::path(get, path = "/v1/games/{game}/rules", tag = "games", params(("game" = String, Path, description = "game id")),
    responses((status = 200, description = "the rulebook: sections of rules with ids and sv/en texts", body = Object),
              (status = 404, description = "no such game (`not-found`), or one that is planned (`game-planned`)", body = crate::problem::Problem, content_type = "application/problem+json")))]
#[get("/v1/games/{game}/rules")]
pub async fn get_rules(path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let info = catalog_entry(&path)?;
    let game = engine::game(info.id).ok_or_else(|| {
        ApiError::new(StatusCode::NOT_FOUND, "game-planned", "Not playable yet", format!("{} is planned: its rulebook is not written yet", info.id))
    })?;
    Ok(HttpResponse::Ok().json(game.rulebook()))
}

// ---------------------------------------------------------------- matches

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum SeatRequest {
    /// The caller sits here.
    Me,
    /// Left open for another player to join.
    Open,
    /// A bot plays this seat.
    Bot,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}], "options": {"back_up": true}}))]
pub struct CreateMatch {
    /// A game id from `GET /v1/games`.
    pub game: String,
    /// One entry per seat, in seat order (seat numbers grow clockwise).
    #[schema(min_items = 1)]
    pub seats: Vec<SeatRequest>,
    /// Variant options; defaults for anything left out.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub options: Value,
    /// Deck orders for the first deals, top card first, as card codes (`TD`, `JC`, `JK1`):
    /// for tests and for replaying deals played at a real table.
    #[serde(default)]
    #[schema(value_type = Option<Vec<Vec<String>>>)]
    pub decks: Vec<Vec<Card>>,
}

/// Creates a match. With no open seats the first deal is dealt at once and bots play until a
/// person is to act. `Idempotency-Key` makes a retry return the same match.
#[utoipa::path(post, path = "/v1/matches", tag = "matches", request_body = CreateMatch,
    params(("Idempotency-Key" = Option<String>, Header, description = "makes retries safe (1 to 200 characters)")),
    security(("bearer" = [])),
    responses((status = 201, body = MatchView, headers(("ETag" = String, description = "the match's version"), ("Location" = String, description = "the match's URL"))),
              (status = 400, description = "a malformed Idempotency-Key or body", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such game", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 409, description = "a request with the same Idempotency-Key is still being processed", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 422, description = "a planned game, no seats, or invalid options or decks", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 429, description = "too many matches created by this player", body = crate::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "seconds to wait"))),
              (status = 503, description = "the database cannot be reached", body = crate::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[post("/v1/matches")]
pub async fn create_match(
    req: HttpRequest,
    state: web::Data<AppState>,
    player: Player,
    body: web::Json<CreateMatch>,
) -> Result<HttpResponse, ApiError> {
    limit(&state, &player, crate::ratelimit::Action::CreateMatch)?;
    let body = body.into_inner();
    let key = idempotency_key(&req)?;
    let info = catalog_entry(&body.game)?;
    let game = engine::game(info.id).ok_or_else(|| {
        ApiError::unprocessable("game-planned", format!("{} is not playable yet", info.id))
    })?;
    if body.seats.is_empty() {
        return Err(ApiError::unprocessable("invalid-seats", "a match needs seats"));
    }
    let options = game.normalize_options(&body.options).map_err(|e| ApiError::unprocessable("invalid-options", e.0))?;
    let table = game.setup(body.seats.len(), &options).map_err(|e| ApiError::unprocessable("invalid-options", e.0))?;
    if let engine::game::Status::NeedsDeck { composition } = table.status() {
        for (i, deck) in body.decks.iter().enumerate() {
            if !engine::cards::is_permutation(deck, &composition) {
                return Err(ApiError::unprocessable(
                    "invalid-deck",
                    format!("deck {i} is not a full {}-card pack of this game, each card as often as the pack has it", composition.len()),
                ));
            }
        }
    }
    let seats: Vec<Occupant> = body
        .seats
        .iter()
        .map(|s| match s {
            SeatRequest::Me => Occupant::Player { player_id: player.id, name: player.name.clone() },
            SeatRequest::Open => Occupant::Open,
            SeatRequest::Bot => Occupant::Bot,
        })
        .collect();
    let created = ServiceEvent::Created {
        game: info.id.to_string(),
        options,
        seats,
        decks: body.decks,
        created_by: player.id,
    };
    let viewer_seat = body.seats.iter().position(|s| matches!(s, SeatRequest::Me));
    let state = state.into_inner();
    blocking(move || {
        let mut conn = state.pool.get()?;
        if let Some(key) = &key {
            if let Some(id) = store::created_with_key(&mut conn, player.id, key)? {
                let loaded = load_with(&mut conn, &state, id)?;
                let held = loaded.seats_of(player.id);
                return Ok(Reply::new(StatusCode::CREATED, loaded.view(viewer_seat.map_or(Viewer::Spectator, Viewer::Seat), held))?
                    .version(loaded.version)
                    .header("Idempotent-Replayed", "true".into())
                    .header("Location", format!("/v1/matches/{id}")));
            }
        }
        let id = Uuid::new_v4();
        let data = serde_json::to_value(&created).map_err(ApiError::internal)?;
        let first = vec![store::StoredEvent {
            seq: 1,
            event_type: "match.created".into(),
            deal: 0,
            data: data.clone(),
            actor: player.id.to_string(),
            recorded_at: chrono::SubsecRound::trunc_subsecs(chrono::Utc::now(), 6),
        }];
        let mut loaded = Loaded::replay(id, &first).map_err(ApiError::internal)?;
        let mut out = vec![NewEvent {
            event_type: "match.created".into(),
            deal: 0,
            data,
            actor: player.id.to_string(),
            recorded_at: first[0].recorded_at,
        }];
        loaded.advance(&mut out).map_err(ApiError::internal)?;
        loaded.version = out.len() as i64;
        match store::append(&mut conn, id, 0, &out, key.as_deref(), None) {
            Ok(()) => state.metrics.appended(out.len()),
            // The same key raced in from a retry: answer with what the first attempt made.
            Err(AppendError::Conflict) => {
                return Err(ApiError::conflict("duplicate-request", "a request with this Idempotency-Key is being processed; retry it"))
            }
            Err(AppendError::Db(e)) => return Err(e.into()),
        }
        let held = loaded.seats_of(player.id);
        let reply = Reply::new(StatusCode::CREATED, loaded.view(viewer_seat.map_or(Viewer::Spectator, Viewer::Seat), held))?
            .version(loaded.version)
            .header("Location", format!("/v1/matches/{id}"));
        state.cache.put(Arc::new(loaded));
        Ok(reply)
    })
    .await
    .map(Reply::into_response)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SeatQuery {
    /// The seat to act or look from, when you hold several.
    pub seat: Option<usize>,
}

/// The match as the caller may see it: their own hand only, the public table, whose turn, scores.
/// Without a token (or holding no seat) the spectator's view. The version is the ETag.
#[utoipa::path(get, path = "/v1/matches/{id}", tag = "matches",
    params(("id" = Uuid, Path), SeatQuery, ("If-None-Match" = Option<String>, Header, description = "an ETag seen before")),
    security((), ("bearer" = [])),
    responses((status = 200, body = MatchView, headers(("ETag" = String, description = "the match's version"))),
              (status = 304, description = "unchanged since If-None-Match", headers(("ETag" = String))),
              (status = 401, description = "a token was sent, but not a valid one", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 403, description = "the seat asked for is not the caller's", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached", body = crate::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}")]
pub async fn get_match(
    req: HttpRequest,
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<Uuid>,
    query: web::Query<SeatQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let loaded = load(&state.into_inner(), id).await?;
    let (viewer, held) = viewer_of(&loaded, &caller, query.seat)?;
    let tag = format!("\"{}\"", loaded.version);
    if req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(tag.as_str()) {
        return Ok(HttpResponse::NotModified().insert_header(etag(loaded.version)).finish());
    }
    Ok(HttpResponse::Ok().insert_header(etag(loaded.version)).json(loaded.view(viewer, held)))
}

/// Takes an open seat.
#[utoipa::path(post, path = "/v1/matches/{id}/seats/{seat}/join", tag = "matches",
    params(("id" = Uuid, Path), ("seat" = usize, Path)), security(("bearer" = [])),
    responses((status = 200, body = MatchView, headers(("ETag" = String, description = "the match's version"))),
              (status = 400, description = "the table has no such seat", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 409, description = "the seat is taken, or another request changed the match first", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 429, description = "too many requests from this player", body = crate::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "seconds to wait"))),
              (status = 503, description = "the database cannot be reached", body = crate::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[post("/v1/matches/{id}/seats/{seat}/join")]
pub async fn join(
    state: web::Data<AppState>,
    player: Player,
    path: web::Path<(Uuid, usize)>,
) -> Result<HttpResponse, ApiError> {
    limit(&state, &player, crate::ratelimit::Action::Move)?;
    let (id, seat) = path.into_inner();
    let state = state.into_inner();
    blocking(move || {
        let mut conn = state.pool.get()?;
        let mut loaded = Loaded::clone(&*load_with(&mut conn, &state, id)?);
        match loaded.seats.get(seat) {
            None => return Err(ApiError::bad_request("no-such-seat", format!("the table has seats 0 to {}", loaded.seats.len() - 1))),
            Some(Occupant::Open) => {}
            Some(_) => return Err(ApiError::conflict("seat-taken", format!("seat {seat} is already taken"))),
        }
        let before = loaded.version;
        let joined = ServiceEvent::SeatJoined { seat, player_id: player.id, name: player.name.clone() };
        let mut out = Vec::new();
        loaded
            .record(vec![serde_json::to_value(&joined).map_err(ApiError::internal)?], &player.id.to_string(), &mut out)
            .map_err(ApiError::internal)?;
        loaded.advance(&mut out).map_err(ApiError::internal)?;
        loaded.version = before + out.len() as i64;
        append_or_conflict(&mut conn, &state, id, before, &out)?;
        let held = loaded.seats_of(player.id);
        let reply = Reply::new(StatusCode::OK, loaded.view(Viewer::Seat(seat), held))?.version(loaded.version);
        state.cache.put(Arc::new(loaded));
        Ok(reply)
    })
    .await
    .map(Reply::into_response)
}

fn append_or_conflict(conn: &mut store::Conn, state: &AppState, id: Uuid, before: i64, out: &[NewEvent]) -> Result<(), ApiError> {
    match store::append(conn, id, before, out, None, None) {
        Ok(()) => {
            state.metrics.appended(out.len());
            Ok(())
        }
        Err(AppendError::Conflict) => {
            state.metrics.conflicts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Err(ApiError::lost_race(store::version(conn, id).ok()))
        }
        Err(AppendError::Db(e)) => Err(e.into()),
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LegalMoves {
    pub seat: usize,
    pub version: i64,
    /// Every move the rules accept from this seat now (empty when it is not the seat's turn).
    #[schema(value_type = Vec<Object>)]
    pub moves: Vec<Value>,
}

/// The caller's legal moves now.
#[utoipa::path(get, path = "/v1/matches/{id}/legal-moves", tag = "matches", params(("id" = Uuid, Path), SeatQuery),
    security(("bearer" = [])),
    responses((status = 200, body = LegalMoves, headers(("ETag" = String, description = "the match's version"))),
              (status = 400, description = "no such seat, or the caller holds several and named none", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 403, description = "the caller holds no seat here, or not the one named", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached", body = crate::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}/legal-moves")]
pub async fn legal_moves(
    state: web::Data<AppState>,
    player: Player,
    path: web::Path<Uuid>,
    query: web::Query<SeatQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let loaded = load(&state.into_inner(), id).await?;
    let seat = acting_seat(&loaded, &player, query.seat)?;
    let moves = if loaded.is_full() { loaded.table.legal_moves(seat) } else { Vec::new() };
    Ok(HttpResponse::Ok().insert_header(etag(loaded.version)).json(LegalMoves { seat, version: loaded.version, moves }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(
    json!({"move": {"type": "bid", "tricks": 0}, "dry_run": true}),
    json!({"move": {"type": "bid", "tricks": 0}}),
))]
pub struct MoveRequest {
    /// The seat to act from; needed only when you hold several that may act.
    pub seat: Option<usize>,
    /// The game's command, e.g. `{"type":"play","card":"QS"}` or `{"type":"bid","tricks":3}`;
    /// `GET .../legal-moves` lists the ones allowed now.
    #[serde(rename = "move")]
    #[schema(value_type = Object)]
    pub command: Value,
    /// The version you last saw (or send it as `If-Match`): a stale one is refused.
    pub expected_version: Option<i64>,
    /// Only check the move: answers whether it is legal, or which rule forbids it.
    #[serde(default)]
    pub dry_run: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MoveResult {
    pub version: i64,
    /// The events this move led to (including deals and bots' moves after it), as you may see them.
    pub events: Vec<EventOut>,
    #[serde(rename = "match")]
    pub match_view: MatchView,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DryRun {
    pub legal: bool,
    pub seat: usize,
    pub version: i64,
    /// When not legal: the rule that forbids the move.
    pub rule: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub explanation: Option<engine::rules::Text>,
}

/// What a move answers (documentation only): the recorded move, or a dry run's verdict.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum MoveOutcome {
    Recorded(Box<MoveResult>),
    DryRun(DryRun),
}

/// Makes a move. Send an `Idempotency-Key` so a retry returns the stored result and appends
/// nothing, and the version you saw as `If-Match` (or `expected_version`) so a stale screen
/// cannot move: a stale version gets 412 (If-Match) or 409 with the current version.
#[utoipa::path(post, path = "/v1/matches/{id}/moves", tag = "matches", request_body = MoveRequest,
    params(("id" = Uuid, Path), ("Idempotency-Key" = Option<String>, Header, description = "makes retries safe (1 to 200 characters)"),
           ("If-Match" = Option<String>, Header, description = "the version (ETag) the move was decided on")),
    security(("bearer" = [])),
    responses((status = 200, description = "the move was recorded (`MoveResult`), or a dry run's verdict (`DryRun`)", body = MoveOutcome,
               headers(("ETag" = String, description = "the match's version"))),
              (status = 400, description = "a malformed move, seat, If-Match, Idempotency-Key or body", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 403, description = "the caller holds no seat here, or not the one named", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 409, description = "the version in the body is stale, another move landed first, or the match has not started", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 412, description = "the version in If-Match is stale", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 422, description = "the rules forbid the move (`rule-violation`), the body does not fit the schema, or an Idempotency-Key is reused", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 429, description = "too many moves from this player", body = crate::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "seconds to wait"))),
              (status = 503, description = "the database cannot be reached", body = crate::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[post("/v1/matches/{id}/moves")]
pub async fn make_move(
    req: HttpRequest,
    state: web::Data<AppState>,
    player: Player,
    path: web::Path<Uuid>,
    body: web::Json<MoveRequest>,
) -> Result<HttpResponse, ApiError> {
    limit(&state, &player, crate::ratelimit::Action::Move)?;
    let id = path.into_inner();
    let body = body.into_inner();
    let key = idempotency_key(&req)?;
    let header_version = if_match(&req)?;
    let lang = lang(&req);
    let hash = fingerprint(&[
        &body.seat.map(|s| s.to_string()).unwrap_or_default(),
        &body.command.to_string(),
        &body.expected_version.or(header_version).map(|v| v.to_string()).unwrap_or_default(),
        if body.dry_run { "dry" } else { "" },
    ]);
    let state = state.into_inner();
    // Optimistic: decide on this node's cached state and append at its version. A stale
    // cache shows up as a refusal or a conflict; then catch up from the database and decide
    // again, so the answer is always about the latest state.
    let (mut base, mut fresh) = match state.cache.get(id) {
        Some(cached) => (cached, false),
        None => (load(&state, id).await?, true),
    };
    for attempt in 0..4 {
        if attempt > 0 && !fresh {
            base = load(&state, id).await?;
            fresh = true;
        }
        // The move works on its own copy: a refused or lost append leaves the cache as it was.
        let mut loaded = Loaded::clone(&base);
        let (out, before, seat) = match attempt_move(&mut loaded, &player, &body, header_version, lang) {
            Ok(Attempt::Answer(reply)) => return Ok(reply.into_response()),
            Ok(Attempt::Append { out, before, seat }) => (out, before, seat),
            // Perhaps only this node's copy was behind: catch up and decide again.
            Err(_) if !fresh => continue,
            Err(e) => {
                // A retry of a move that landed is refused by the state it led to: answer it
                // with what the first attempt got.
                if let Some(reply) = stored_answer(&state, id, &player, &key, body.dry_run, &hash).await? {
                    return Ok(reply.into_response());
                }
                if e.problem.code == "version-conflict" || e.problem.code == "precondition-failed" {
                    state.metrics.conflicts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                return Err(e);
            }
        };
        let appended: Vec<store::StoredEvent> = out.iter().enumerate().map(|(i, e)| e.stored(before + 1 + i as i64)).collect();
        let body_bytes = serde_json::to_vec(&move_result(&loaded, &appended, seat, player.id)).map_err(ApiError::internal)?;
        let answer = key.as_ref().map(|k| StoredAnswer {
            stream_id: id,
            player_id: player.id,
            key: k.clone(),
            request_hash: hash.clone(),
            status: 200,
            body: None,
            seat: Some(seat as i32),
            first_seq: Some(before + 1),
            last_seq: Some(loaded.version),
        });
        let events = out.len();
        let append = batch::Append { stream: id, expected: before, events: out, key: key.clone(), answer };
        match state.db.append(append).await? {
            batch::Appended::Done => {
                state.metrics.appended(events);
                let version = loaded.version;
                state.cache.put(Arc::new(loaded));
                return Ok(Reply { status: StatusCode::OK, body: body_bytes, version: Some(version), headers: Vec::new() }.into_response());
            }
            batch::Appended::Conflict => {
                state.metrics.conflicts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if let Some(reply) = stored_answer(&state, id, &player, &key, body.dry_run, &hash).await? {
                    return Ok(reply.into_response());
                }
                if header_version.or(body.expected_version).is_some() {
                    // The client named the version it saw, and the match has moved on.
                    let current = current_version(&state, id).await?;
                    return Err(ApiError::stale(current, before, header_version.is_some()));
                }
                fresh = false;
            }
        }
    }
    Err(ApiError::lost_race(current_version(&state, id).await.ok()))
}

/// The answer an earlier request with this key got, if there was one (only consulted when an
/// attempt cannot land, so the common path costs no round trip).
async fn stored_answer(state: &Arc<AppState>, id: Uuid, player: &Player, key: &Option<String>, dry_run: bool, hash: &str) -> Result<Option<Reply>, ApiError> {
    let (Some(key), false) = (key.clone(), dry_run) else { return Ok(None) };
    let (state, player_id, hash) = (state.clone(), player.id, hash.to_string());
    blocking(move || {
        let mut conn = state.pool.get()?;
        match store::answer(&mut conn, id, player_id, &key)? {
            Some(answer) => stored_response(&mut conn, answer, &hash).map(Some),
            None => Ok(None),
        }
    })
    .await
}

async fn current_version(state: &Arc<AppState>, id: Uuid) -> Result<i64, ApiError> {
    let state = state.clone();
    blocking(move || Ok(store::version(&mut state.pool.get()?, id)?)).await
}

enum Attempt {
    /// Answered without appending (a dry run).
    Answer(Reply),
    /// Decided: these events go after version `before`, for `seat`.
    Append { out: Vec<NewEvent>, before: i64, seat: usize },
}

/// Decides a move against `loaded` and, when it is allowed, applies it and everything that
/// follows (deals, bots) to `loaded`.
fn attempt_move(
    loaded: &mut Loaded,
    player: &Player,
    body: &MoveRequest,
    header_version: Option<i64>,
    lang: Lang,
) -> Result<Attempt, ApiError> {
    if let Some(expected) = header_version.or(body.expected_version) {
        if expected != loaded.version {
            return Err(ApiError::stale(loaded.version, expected, header_version.is_some()));
        }
    }
    if !loaded.is_full() {
        return Err(ApiError::conflict("match-not-started", "the match is waiting for players to join"));
    }
    let seat = acting_seat(loaded, player, body.seat)?;
    let decided = loaded.table.decide(seat, &body.command);
    if body.dry_run {
        let (rule, explanation) = match &decided {
            Ok(_) => (None, None),
            Err(Refusal::Violation(v)) => (Some(v.rule.clone()), Some(v.explanation.clone())),
            Err(Refusal::Malformed(m)) => return Err(ApiError::bad_request("invalid-move", m.clone())),
        };
        let verdict = DryRun { legal: decided.is_ok(), seat, version: loaded.version, rule, explanation };
        return Reply::new(StatusCode::OK, verdict).map(Attempt::Answer);
    }
    let events = decided.map_err(|r| match r {
        Refusal::Malformed(m) => ApiError::bad_request("invalid-move", m),
        Refusal::Violation(v) => ApiError::violation(v, lang),
    })?;
    let before = loaded.version;
    let mut out = Vec::new();
    loaded.record(events, &player.id.to_string(), &mut out).map_err(ApiError::internal)?;
    loaded.advance(&mut out).map_err(ApiError::internal)?;
    loaded.version = before + out.len() as i64;
    Ok(Attempt::Append { out, before, seat })
}

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

/// The match's history as the caller may see it: hidden cards are left out until their deal is
/// over.
#[utoipa::path(get, path = "/v1/matches/{id}/events", tag = "history", params(("id" = Uuid, Path), EventsQuery),
    security((), ("bearer" = [])),
    responses((status = 200, body = EventPage, headers(("ETag" = String, description = "the match's version"))),
              (status = 400, description = "a malformed query, or `since`/`limit` out of range", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 401, description = "a token was sent, but not a valid one", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 403, description = "the seat asked for is not the caller's", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached", body = crate::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}/events")]
pub async fn match_events(
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
    let (loaded, rows) = blocking(move || {
        let mut conn = state.pool.get()?;
        let loaded = load_with(&mut conn, &state, id)?;
        let rows = store::read(&mut conn, id, query.since, limit)?;
        Ok((loaded, rows))
    })
    .await?;
    let (viewer, _) = viewer_of(&loaded, &caller, query.seat)?;
    let events = rows.iter().filter(|e| e.seq <= loaded.version).map(|e| loaded.event_out(e, viewer)).collect();
    Ok(HttpResponse::Ok().insert_header(etag(loaded.version)).json(EventPage { version: loaded.version, events }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DealRecord {
    pub deal: i32,
    /// Every event of the deal, with the cards that were hidden during play.
    pub events: Vec<EventOut>,
    /// The table as the deal ended, every hand shown.
    #[schema(value_type = Object)]
    pub end: Value,
}

/// Replays a match's events up to the end of `deal` or up to `steps` events into it.
fn replay_deal(loaded: &Loaded, rows: &[store::StoredEvent], deal: i32, steps: Option<usize>) -> Result<(Loaded, Vec<store::StoredEvent>), ApiError> {
    // Deals are numbered from 1; the events before the first deal (the match's creation, seats
    // joined) are tagged deal 0 but are no deal: there is no table before them to replay from.
    let deal_rows: Vec<store::StoredEvent> =
        if deal < 1 { Vec::new() } else { rows.iter().filter(|e| e.deal == deal).cloned().collect() };
    if deal_rows.is_empty() {
        return Err(ApiError::not_found(&format!("deal {deal} of match {}", loaded.id)));
    }
    if !loaded.deal_over(deal) {
        return Err(ApiError::conflict("deal-in-progress", format!("deal {deal} is still being played: its record opens when it is over")));
    }
    let first_seq = deal_rows[0].seq;
    let upto = match steps {
        Some(n) if n > deal_rows.len() => {
            return Err(ApiError::bad_request("invalid-step", format!("deal {deal} has {} steps", deal_rows.len())))
        }
        Some(n) => first_seq - 1 + n as i64,
        None => deal_rows.last().map(|e| e.seq).unwrap_or(first_seq),
    };
    let prefix: Vec<store::StoredEvent> = rows.iter().filter(|e| e.seq <= upto).cloned().collect();
    let replayed = Loaded::replay(loaded.id, &prefix).map_err(ApiError::internal)?;
    Ok((replayed, deal_rows))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReplayQuery {
    /// How many of the deal's events to apply (0 = the table before the deal's first event).
    pub at: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayStep {
    pub deal: i32,
    pub at: usize,
    /// How many events the deal has.
    pub steps: usize,
    /// The event applied last (null at step 0).
    pub event: Option<EventOut>,
    /// The table after `at` events, every hand shown.
    #[schema(value_type = Object)]
    pub table: Value,
}

async fn load_all(state: web::Data<AppState>, id: Uuid) -> Result<(Arc<Loaded>, Vec<store::StoredEvent>), ApiError> {
    let state = state.into_inner();
    blocking(move || {
        let mut conn = state.pool.get()?;
        let loaded = load_with(&mut conn, &state, id)?;
        let rows = store::read(&mut conn, id, 0, loaded.version)?;
        Ok((loaded, rows))
    })
    .await
}

/// A finished deal in full: every event with the cards that were hidden in play, and the end.
#[utoipa::path(get, path = "/v1/matches/{id}/deals/{deal}", tag = "history",
    params(("id" = Uuid, Path), ("deal" = i32, Path, minimum = 1, description = "the deal's number, from 1")),
    responses((status = 200, body = DealRecord),
              (status = 404, description = "no such match, or no such deal in it", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 409, description = "the deal is still being played", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached", body = crate::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}/deals/{deal}")]
pub async fn deal_record(state: web::Data<AppState>, path: web::Path<(Uuid, i32)>) -> Result<HttpResponse, ApiError> {
    let (id, deal) = path.into_inner();
    let (loaded, rows) = load_all(state, id).await?;
    let (end, deal_rows) = replay_deal(&loaded, &rows, deal, None)?;
    let events = deal_rows.iter().map(|e| loaded.event_out(e, Viewer::Record)).collect();
    Ok(HttpResponse::Ok().json(DealRecord { deal, events, end: end.table.view(Viewer::Record) }))
}

/// The table at any step of a finished deal.
#[utoipa::path(get, path = "/v1/matches/{id}/deals/{deal}/replay", tag = "history",
    params(("id" = Uuid, Path), ("deal" = i32, Path, minimum = 1, description = "the deal's number, from 1"), ReplayQuery),
    responses((status = 200, body = ReplayStep),
              (status = 400, description = "`at` is missing, malformed or beyond the deal's last step", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match, or no such deal in it", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 409, description = "the deal is still being played", body = crate::problem::Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached", body = crate::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}/deals/{deal}/replay")]
pub async fn deal_replay(
    state: web::Data<AppState>,
    path: web::Path<(Uuid, i32)>,
    query: web::Query<ReplayQuery>,
) -> Result<HttpResponse, ApiError> {
    let (id, deal) = path.into_inner();
    let (loaded, rows) = load_all(state, id).await?;
    let (at_step, deal_rows) = replay_deal(&loaded, &rows, deal, Some(query.at))?;
    let event = query.at.checked_sub(1).map(|i| loaded.event_out(&deal_rows[i], Viewer::Record));
    Ok(HttpResponse::Ok().json(ReplayStep { deal, at: query.at, steps: deal_rows.len(), event, table: at_step.table.view(Viewer::Record) }))
}
