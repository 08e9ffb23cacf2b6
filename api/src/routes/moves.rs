//! Making a move: the request is parsed here, executed by `commands::execute_move`, and its
//! answer rendered here.

use actix_web::http::StatusCode;
use actix_web::{post, web, HttpRequest, HttpResponse};
use engine::game::Viewer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::auth::Player;
use crate::commands::{self, Move, MoveAnswer, Recorded, Verdict};
use crate::http::{command_problem, expected_version, if_match, lang, rate_limit, JsonObject, Reply};
use crate::idempotency::{self, EarlierAnswer, Idempotency};
use crate::matches::{EventOut, Loaded, MatchView};
use crate::problem::{ApiError, Problem};
use crate::ratelimit::Action;
use crate::routes::matches::LegalMoves;
use crate::state::AppState;
use crate::store::StoredEvent;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(
    json!({"move": {"type": "bid", "tricks": 0}, "dry_run": true}),
    json!({"move": {"type": "bid", "tricks": 0}}),
))]
pub struct MoveRequest {
    /// The seat to act from; needed only when you hold several that may act.
    #[schema(maximum = 2147483647)]
    pub seat: Option<usize>,
    /// The game's command, e.g. `{"type":"play","card":"QS"}` or `{"type":"bid","tricks":3}`;
    /// `GET .../legal-moves` lists the ones allowed now.
    #[serde(rename = "move")]
    #[schema(schema_with = crate::openapi::move_schema)]
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
    /// With `?include=legal_moves`: the seat's legal moves after the move, exactly as
    /// `GET …/legal-moves` answers them (empty when it is not the seat's turn). Saves that
    /// request after each move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_moves: Option<LegalMoves>,
}

/// What a move's answer includes besides the match.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct MoveQuery {
    /// `legal_moves`: the seat's legal moves after the move, in the answer's `legal_moves`.
    pub include: Option<Include>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Include {
    LegalMoves,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DryRun {
    pub legal: bool,
    pub seat: usize,
    pub version: i64,
    /// When not legal: the rule that forbids the move.
    pub rule: Option<String>,
    /// When not legal: where that rule is explained.
    pub rule_url: Option<String>,
    pub explanation: Option<engine::rules::Text>,
}

/// What a move answers (documentation only): the recorded move, or a dry run's verdict.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum MoveOutcome {
    Recorded(Box<MoveResult>),
    DryRun(DryRun),
}

/// Makes a move
///
/// Plays one command of the game from the caller's seat; bots then play until a person is to
/// act. Send an `Idempotency-Key` so a retry returns the stored result and appends nothing, and
/// the version you saw as `If-Match` (or `expected_version`) so a stale screen cannot move: a
/// stale version gets 412 (If-Match) or 409 with the current version. A move the rules refuse
/// gets 422 naming the rule it breaks. `dry_run` only checks the move.
#[utoipa::path(post, path = "/v1/matches/{id}/moves", tag = "matches", request_body = MoveRequest,
    params(("id" = Uuid, Path), MoveQuery,
           ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[!-~]{1,200}$",
             description = "makes retries safe: 1 to 200 visible ASCII characters (`!` to `~`), e.g. a UUID"),
           ("If-Match" = Option<String>, Header, pattern = r#"^(W/)?("[0-9]{1,18}(\.[a-z0-9-]{1,20})?"|[0-9]{1,18})$"#,
             description = "the version the move was decided on, as an ETag of the match sent it (`\"12\"` or `\"12.seat-0\"`)")),
    security(("bearer" = [])),
    responses((status = 200, description = "the move was recorded (`MoveResult`), or a dry run's verdict (`DryRun`)",
               body = MoveOutcome, headers(("ETag" = String, description = "the match's version"))),
              (status = 400, description = "a malformed move (or one with a field its type does not have), \
                                            If-Match, Idempotency-Key or body",
               body = Problem, content_type = "application/problem+json"),
              (status = 403, description = "the caller holds no seat here, or not the one named",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such match, or no such seat at its table (`no-such-seat`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 409, description = "the version in the body is stale, another move landed first, or the \
                                            match has not started",
               body = Problem, content_type = "application/problem+json"),
              (status = 412, description = "the version in If-Match is stale",
               body = Problem, content_type = "application/problem+json"),
              (status = 422, description = "the rules forbid the move (`rule-violation`), the move is another \
                                            game's (`wrong-game`), no seat named by a caller who holds several that may act \
                                            (`seat-required`), the body does not fit the schema, an Idempotency-Key is reused, or the bots would not come to a \
                                            person's turn within 10,000 moves (`bots-unsettled`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 429, description = "too many moves from this player",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait"))),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[post("/v1/matches/{id}/moves")]
pub async fn make_move(
    req: HttpRequest,
    state: web::Data<AppState>,
    player: Player,
    path: web::Path<Uuid>,
    query: web::Query<MoveQuery>,
    body: JsonObject<MoveRequest>,
) -> Result<HttpResponse, ApiError> {
    let with_moves = query.include == Some(Include::LegalMoves);
    rate_limit(&req, &state, &player, Action::Move)?;
    let id = path.into_inner();
    let JsonObject(body) = body;
    let key = idempotency::key(&req)?;
    let header_version = if_match(&req)?;
    let lang = lang(&req);
    // The parts and their order are those of the hashes already stored: retries must match them.
    let request_hash = idempotency::fingerprint(&[
        &body.seat.map(|s| s.to_string()).unwrap_or_default(),
        &body.command.to_string(),
        &body.expected_version.or(header_version).map(|v| v.to_string()).unwrap_or_default(),
        if body.dry_run { "dry" } else { "" },
    ]);
    let keyed = key.map(|key| Idempotency { key, request_hash });
    let expected = expected_version(header_version, body.expected_version);
    let command = Move { seat: body.seat, command: body.command, dry_run: body.dry_run };
    let answer = commands::execute_move(&state.into_inner(), id, &player, command, expected, keyed)
        .await
        .map_err(|e| command_problem(e, lang))?;
    let reply = match answer {
        MoveAnswer::Recorded(Recorded { after, events, seat }) => {
            Reply::new(StatusCode::OK, &move_result(&after, &events, seat, player.id, with_moves))?
                .viewed_at(after.version, Viewer::Seat(seat))
        }
        // No ETag: nothing was recorded.
        MoveAnswer::Checked(verdict) => Reply::new(StatusCode::OK, &dry_run(verdict))?,
        MoveAnswer::Replayed { status, answer } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
            let reply = match answer {
                EarlierAnswer::Rebuilt { after, events, seat } => {
                    Reply::new(status, &move_result(&after, &events, seat, player.id, with_moves))?
                        .viewed_at(after.version, Viewer::Seat(seat))
                }
                // An answer stored whole, before answers were rebuilt from the log.
                EarlierAnswer::Kept(body) => {
                    let version = body.get("version").and_then(Value::as_i64).unwrap_or(0);
                    let viewer =
                        body["match"]["viewing_as"].as_u64().map_or(Viewer::Spectator, |s| Viewer::Seat(s as usize));
                    Reply::new(status, &body)?.viewed_at(version, viewer)
                }
            };
            reply.header("Idempotent-Replayed", "true".into())
        }
    };
    Ok(reply.into_response())
}

/// What a recorded move answers: the events it led to and the match after them, as the seat
/// that moved may see them; and, when asked for, the seat's legal moves now.
fn move_result(after: &Loaded, appended: &[StoredEvent], seat: usize, player: Uuid, with_moves: bool) -> MoveResult {
    let viewer = Viewer::Seat(seat);
    MoveResult {
        version: after.version,
        events: appended.iter().map(|e| after.event_out(e, viewer)).collect(),
        match_view: after.view(viewer, after.seats_of(player)),
        legal_moves: with_moves.then(|| LegalMoves {
            game: after.game.clone(),
            seat,
            version: after.version,
            moves: if after.is_full() { after.table.legal_moves(seat) } else { Vec::new() },
        }),
    }
}

fn dry_run(verdict: Verdict) -> DryRun {
    let Verdict { legal, seat, version, rule, rule_url, explanation } = verdict;
    DryRun { legal, seat, version, rule, rule_url, explanation }
}
