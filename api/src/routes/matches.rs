//! Matches: creating one, taking a seat, looking at the table, the legal moves now.
//! (Making a move is `moves.rs`.)

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use engine::cards::Card;
use engine::game::Viewer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::viewer_of;
use crate::auth::{Caller, Player};
use crate::commands::{self, acting_seat, NewMatch};
use crate::http::{lang, rate_limit, view_tag, viewed, JsonObject, Reply};
use crate::idempotency;
use crate::matches::{MatchView, Occupant};
use crate::problem::{ApiError, Problem};
use crate::ratelimit::Action;
use crate::state::AppState;

#[derive(Debug, Deserialize, ToSchema)]
// Variants with (no) fields rather than unit variants: serde ignores every other field of an
// internally tagged unit variant, even with `deny_unknown_fields`.
#[serde(rename_all = "kebab-case", tag = "kind", deny_unknown_fields)]
pub enum SeatRequest {
    /// The caller sits here.
    Me {},
    /// Left open for another player to join.
    Open {},
    /// A bot plays this seat, at `level` (`strong` if left out): `strong` samples the cards it
    /// cannot see and plays each move out, `basic` follows rules of thumb, `random` is the test
    /// bot: legal moves with noise (in most games the rules of thumb with random moves among
    /// them). A game without a strong or basic bot plays the next level down (docs/bots.md lists
    /// them).
    Bot {
        #[serde(default)]
        level: Option<crate::matches::BotLevel>,
    },
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}], "options": {"back_up": true}
}))]
pub struct CreateMatch {
    /// A game id from `GET /v1/games`.
    pub game: String,
    /// One entry per seat, in seat order (seat numbers grow clockwise).
    #[schema(min_items = 1)]
    pub seats: Vec<SeatRequest>,
    /// Variant options; defaults for anything left out.
    #[serde(default)]
    #[schema(schema_with = crate::openapi::options_or_null_schema)]
    pub options: Value,
    /// Card orders for the first shuffles, top card first, as card codes (`TD`, `JC`): for tests
    /// and for replaying deals played at a real table. One order a shuffle, in the order the
    /// shuffles come: each deal's, and a talon shuffled anew within a deal (its cards only). The
    /// first is a whole pack of the game for the table: Femhundra's has one joker, `JK` (but for two players); no other playable game's
    /// pack has one (`JK1` and `JK2` are for a pack that tells two jokers apart, which none uses
    /// yet); Tarot's has its own codes (`1H`, `CH`, `T1` to `T21`, `EX`).
    #[serde(default)]
    pub decks: Vec<Vec<Card>>,
    /// Seconds a person has for each turn (1 to 604800). When the time runs out their bot plays
    /// that move for them (the log says so, `match.turn_timed_out`), and the seat stays theirs.
    /// Left out: no limit.
    #[schema(minimum = 1, maximum = 604800)]
    pub turn_seconds: Option<u32>,
    /// `true`: the match is never in the lobby nor in a list without a token, and its open
    /// seats are taken with the invitation code the answer gives its creator (`invitation`).
    #[serde(default)]
    pub private: bool,
    /// What happens when a player leaves the running match (`POST .../seats/{seat}/leave`):
    /// `bot` (left out) has a bot play the seat on, `end` ends the match, abandoned, nobody
    /// winning. Either way the match ends when the last person leaves.
    pub when_a_player_leaves: Option<crate::matches::WhenAPlayerLeaves>,
}

/// Creates a match
///
/// Creates a match of a playable game with one entry per seat: you, a bot, or an open seat for
/// another player to join. With no open seats the first deal is dealt at once and bots play
/// until a person is to act. `Idempotency-Key` makes a retry return the same match.
#[utoipa::path(post, path = "/v1/matches", tag = "matches", request_body = CreateMatch,
    params(("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[!-~]{1,200}$",
             description = "makes retries safe: 1 to 200 visible ASCII characters (`!` to `~`), e.g. a UUID")),
    security(("bearer" = [])),
    responses((status = 201, body = MatchView, headers(("ETag" = String, description = "the match's version"),
                                                        ("Location" = String, description = "the match's URL"))),
              (status = 400, description = "a malformed Idempotency-Key or body",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such game", body = Problem, content_type = "application/problem+json"),
              (status = 409, description = "a request with the same Idempotency-Key is still being processed",
               body = Problem, content_type = "application/problem+json"),
              (status = 422, description = "a planned game, no seats, only bots (`no-human-seat`), invalid options, decks or \
                                            `turn_seconds`, or bots that would not come to a person's turn within 10,000 \
                                            moves (`bots-unsettled`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 429, description = "too many matches created by this player",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait"))),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[post("/v1/matches")]
pub async fn create_match(
    req: HttpRequest,
    state: web::Data<AppState>,
    player: Player,
    body: JsonObject<CreateMatch>,
) -> Result<HttpResponse, ApiError> {
    rate_limit(&req, &state, &player, Action::CreateMatch)?;
    let JsonObject(body) = body;
    let key = idempotency::key(&req)?;
    let me = body.seats.iter().position(|s| matches!(s, SeatRequest::Me {}));
    let viewer = me.map_or(Viewer::Spectator, Viewer::Seat);
    let seats = body
        .seats
        .iter()
        .map(|s| match s {
            SeatRequest::Me {} => Occupant::Player { player_id: player.id, name: player.name.clone() },
            SeatRequest::Open {} => Occupant::Open,
            SeatRequest::Bot { level } => Occupant::Bot { level: Some(level.unwrap_or_default()) },
        })
        .collect();
    let new = NewMatch {
        game: body.game,
        seats,
        options: body.options,
        decks: body.decks,
        lang: lang(&req),
        turn_seconds: body.turn_seconds,
        private: body.private,
        when_a_player_leaves: body.when_a_player_leaves,
    };
    let created = commands::create_match(&state.into_inner(), &player, new, key).await?;
    let after = created.after;
    let mut reply =
        Reply::new(StatusCode::CREATED, &view_for(&after, viewer, &player))?.viewed_at(after.version, viewer);
    if created.replayed {
        reply = reply.header("Idempotent-Replayed", "true".into());
    }
    Ok(reply.header("Location", format!("/v1/matches/{}", after.id)).into_response())
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SeatQuery {
    /// The seat to act or look from, when you hold several.
    pub seat: Option<usize>,
}

/// A match as you may see it
///
/// The match as the caller may see it: their own hand only, the public table, whose turn, scores.
/// Without a token (or holding no seat) the spectator's view. The ETag names the version and the
/// viewer; send it back as `If-None-Match` to get 304 while nothing changed.
#[utoipa::path(get, path = "/v1/matches/{id}", tag = "matches",
    params(("id" = Uuid, Path), SeatQuery,
           ("If-None-Match" = Option<String>, Header, description = "an ETag seen before")),
    security((), ("bearer" = [])),
    responses((status = 200, body = MatchView, headers(("ETag" = String, description = "the match's version"))),
              (status = 304, description = "unchanged since If-None-Match", headers(("ETag" = String))),
              (status = 401, description = "a token was sent, but not a valid one",
               body = Problem, content_type = "application/problem+json"),
              (status = 403, description = "the seat asked for is not the caller's",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match, or no such seat at its table (`no-such-seat`)", body = Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}")]
pub async fn get_match(
    req: HttpRequest,
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<Uuid>,
    query: web::Query<SeatQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let loaded = commands::load(&state.into_inner(), id).await?;
    let (viewer, held) = viewer_of(&loaded, &caller, query.seat)?;
    let mut view = loaded.view(viewer, held);
    if caller.0.as_ref().is_some_and(|p| p.id == loaded.created_by) {
        view.invitation = loaded.invitation.clone();
    }
    Ok(viewed(&req, view_tag(loaded.version, viewer), &view))
}

/// The match as `player` sees it from `viewer`, with the invitation code if they created it.
fn view_for(after: &crate::matches::Loaded, viewer: Viewer, player: &Player) -> MatchView {
    let mut view = after.view(viewer, after.seats_of(player.id));
    if after.created_by == player.id {
        view.invitation = after.invitation.clone();
    }
    view
}

/// The view of a player who acted on the match: from a seat of theirs, if they still hold one.
fn seen_by(after: &crate::matches::Loaded, player: &Player, seat: Option<usize>) -> Viewer {
    let held = after.seats_of(player.id);
    match seat {
        Some(s) if held.contains(&s) => Viewer::Seat(s),
        _ => held.first().map_or(Viewer::Spectator, |&s| Viewer::Seat(s)),
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct JoinQuery {
    /// A private match's invitation code, as its creator was given it (case is ignored).
    #[param(max_length = 64)]
    pub invitation: Option<String>,
}

/// Takes an open seat
///
/// Seats the caller in an open seat. When the last open seat is taken the first deal is dealt,
/// and bots play until a person is to act.
#[utoipa::path(post, path = "/v1/matches/{id}/seats/{seat}/join", tag = "matches",
    params(("id" = Uuid, Path), ("seat" = usize, Path), JoinQuery), security(("bearer" = [])),
    responses((status = 200, body = MatchView, headers(("ETag" = String, description = "the match's version"))),
              (status = 403, description = "a private match, joined without its invitation code or with another \
                                            (`invalid-invitation`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match, or no such seat at its table (`no-such-seat`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 409, description = "the seat is taken, the match is over (`match-ended`), or another request \
                                            changed the match first",
               body = Problem, content_type = "application/problem+json"),
              (status = 422, description = "the bots would not come to a person's turn within 10,000 moves \
                                            (`bots-unsettled`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 429, description = "too many requests from this player",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait"))),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[post("/v1/matches/{id}/seats/{seat}/join")]
pub async fn join(
    req: HttpRequest,
    state: web::Data<AppState>,
    player: Player,
    path: web::Path<(Uuid, usize)>,
    query: web::Query<JoinQuery>,
) -> Result<HttpResponse, ApiError> {
    rate_limit(&req, &state, &player, Action::Move)?;
    let (id, seat) = path.into_inner();
    let invitation = query.into_inner().invitation;
    // As the document bounds it, so that a request outside the schema is refused whatever match
    // it names (a public match ignores the code).
    if invitation.as_ref().is_some_and(|code| code.chars().count() > 64) {
        return Err(ApiError::bad_request("invalid-query", "an invitation code is at most 64 characters"));
    }
    let after: Arc<_> = commands::join(&state.into_inner(), id, &player, seat, invitation).await?;
    let view = view_for(&after, Viewer::Seat(seat), &player);
    Ok(Reply::new(StatusCode::OK, &view)?.viewed_at(after.version, Viewer::Seat(seat)).into_response())
}

/// Cancels a waiting match
///
/// The creator cancels a match that still waits for players: it is over (`phase` `finished`,
/// `ended.reason` `cancelled`, an `outcome` with no winner), out of the lobby, and the log says
/// so (`match.cancelled`).
#[utoipa::path(post, path = "/v1/matches/{id}/cancel", tag = "matches",
    params(("id" = Uuid, Path)), security(("bearer" = [])),
    responses((status = 200, body = MatchView, headers(("ETag" = String, description = "the match's version"))),
              (status = 403, description = "the caller did not create the match (`not-creator`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match", body = Problem, content_type = "application/problem+json"),
              (status = 409, description = "every seat is taken (`match-started`: abort or leave instead), the match \
                                            is over (`match-ended`), or another request changed it first",
               body = Problem, content_type = "application/problem+json"),
              (status = 429, description = "too many requests from this player",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait"))),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[post("/v1/matches/{id}/cancel")]
pub async fn cancel(
    req: HttpRequest,
    state: web::Data<AppState>,
    player: Player,
    path: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    rate_limit(&req, &state, &player, Action::Move)?;
    let after = commands::cancel(&state.into_inner(), path.into_inner(), &player).await?;
    let viewer = seen_by(&after, &player, None);
    Ok(Reply::new(StatusCode::OK, &view_for(&after, viewer, &player))?.viewed_at(after.version, viewer).into_response())
}

/// Aborts a match nobody has moved in
///
/// A seated player calls off a match before any person has made a move (deals and bots' moves
/// do not count), waiting or dealt: it is over (`ended.reason` `aborted` with the seat, an
/// `outcome` with no winner), and the log says so (`match.aborted`).
#[utoipa::path(post, path = "/v1/matches/{id}/abort", tag = "matches",
    params(("id" = Uuid, Path), SeatQuery), security(("bearer" = [])),
    responses((status = 200, body = MatchView, headers(("ETag" = String, description = "the match's version"))),
              (status = 403, description = "the caller holds no seat here, or not the one named (`not-your-seat`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match, or no such seat at its table (`no-such-seat`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 409, description = "a person has moved (`match-started`: leave instead), the match is over \
                                            (`match-ended`), or another request changed it first",
               body = Problem, content_type = "application/problem+json"),
              (status = 429, description = "too many requests from this player",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait"))),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[post("/v1/matches/{id}/abort")]
pub async fn abort(
    req: HttpRequest,
    state: web::Data<AppState>,
    player: Player,
    path: web::Path<Uuid>,
    query: web::Query<SeatQuery>,
) -> Result<HttpResponse, ApiError> {
    rate_limit(&req, &state, &player, Action::Move)?;
    let after = commands::abort(&state.into_inner(), path.into_inner(), &player, query.seat).await?;
    let viewer = seen_by(&after, &player, query.seat);
    Ok(Reply::new(StatusCode::OK, &view_for(&after, viewer, &player))?.viewed_at(after.version, viewer).into_response())
}

/// Leaves a seat of a running match
///
/// The seat's player resigns it. As the match was created (`when_a_player_leaves`): a bot at
/// the strong level plays the seat from now on (`match.seat_left`), and plays at once if it is
/// the seat's turn; or the match ends, abandoned by the seat, nobody winning
/// (`match.abandoned`, `ended.reason` `abandoned`). It also ends so when the last person leaves.
/// The answer is the match as the caller still sees it: from another seat of theirs, else as a
/// spectator.
#[utoipa::path(post, path = "/v1/matches/{id}/seats/{seat}/leave", tag = "matches",
    params(("id" = Uuid, Path), ("seat" = usize, Path)), security(("bearer" = [])),
    responses((status = 200, body = MatchView, headers(("ETag" = String, description = "the match's version"))),
              (status = 403, description = "the seat is not the caller's (`not-your-seat`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match, or no such seat at its table (`no-such-seat`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 409, description = "the match waits for players (`match-not-started`: abort or cancel it), is \
                                            over (`match-ended`), or another request changed it first",
               body = Problem, content_type = "application/problem+json"),
              (status = 422, description = "the bots would not come to a person's turn within 10,000 moves \
                                            (`bots-unsettled`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 429, description = "too many requests from this player",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait"))),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[post("/v1/matches/{id}/seats/{seat}/leave")]
pub async fn leave(
    req: HttpRequest,
    state: web::Data<AppState>,
    player: Player,
    path: web::Path<(Uuid, usize)>,
) -> Result<HttpResponse, ApiError> {
    rate_limit(&req, &state, &player, Action::Move)?;
    let (id, seat) = path.into_inner();
    let after = commands::leave(&state.into_inner(), id, &player, seat).await?;
    let viewer = seen_by(&after, &player, None);
    Ok(Reply::new(StatusCode::OK, &view_for(&after, viewer, &player))?.viewed_at(after.version, viewer).into_response())
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LegalMoves {
    /// The match's game: whose commands `moves` are.
    pub game: String,
    pub seat: usize,
    pub version: i64,
    /// Every move the rules accept from this seat now (empty when it is not the seat's turn).
    #[schema(schema_with = crate::openapi::moves_schema)]
    pub moves: Vec<Value>,
}

/// Your legal moves now
///
/// Every move the rules accept from the caller's seat now, exactly as `POST .../moves` takes
/// them; empty when it is not the seat's turn.
#[utoipa::path(get, path = "/v1/matches/{id}/legal-moves", tag = "matches", params(("id" = Uuid, Path), SeatQuery),
    security(("bearer" = [])),
    responses((status = 200, body = LegalMoves, headers(("ETag" = String, description = "the match's version"))),
              (status = 422, description = "the caller holds several seats and named none (`seat-required`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 403, description = "the caller holds no seat here, or not the one named",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match, or no such seat at its table (`no-such-seat`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches/{id}/legal-moves")]
pub async fn legal_moves(
    req: HttpRequest,
    state: web::Data<AppState>,
    player: Player,
    path: web::Path<Uuid>,
    query: web::Query<SeatQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let loaded = commands::load(&state.into_inner(), id).await?;
    let seat = acting_seat(&loaded, &player, query.seat)?;
    let moves =
        if loaded.phase() == crate::matches::MatchPhase::Playing { loaded.table.legal_moves(seat) } else { Vec::new() };
    let legal = LegalMoves { game: loaded.game.clone(), seat, version: loaded.version, moves };
    Ok(viewed(&req, view_tag(loaded.version, Viewer::Seat(seat)), &legal))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seat says what sits there and nothing else: a field the service would ignore is refused.
    #[test]
    fn seats_with_unknown_fields_are_refused() {
        assert!(serde_json::from_value::<SeatRequest>(serde_json::json!({"kind": "me"})).is_ok());
        assert!(serde_json::from_value::<SeatRequest>(serde_json::json!({"kind": "me", "name": "x"})).is_err());
        assert!(serde_json::from_value::<SeatRequest>(serde_json::json!({"kind": "bot", "level": 9})).is_err());
    }
}
