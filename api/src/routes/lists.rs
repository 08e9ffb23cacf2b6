//! Lists of matches: a player's own, and the lobby (matches with a free seat), newest first,
//! a page at a time. They read the `matches` summaries, never a log.

use actix_web::http::header;
use actix_web::{get, web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::auth::Caller;
use crate::matches::{MatchPhase, SeatOut};
use crate::problem::{ApiError, Problem};
use crate::state::AppState;
use crate::store::{self, ListFilter, ListedMatch};

/// Whose matches.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PlayerFilter {
    /// The caller's: matches where the token's player holds a seat.
    Me,
}

/// Which matches by where they stand.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ListStatus {
    /// Seats are still open.
    Waiting,
    /// Being played.
    InProgress,
    Finished,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// `me`: only the caller's matches (needs a token).
    pub player: Option<PlayerFilter>,
    /// Only matches in this `phase`, named as the match's own `phase` field names it.
    pub phase: Option<MatchPhase>,
    /// Deprecated: the older name of `phase` (`in-progress` is the phase `playing`), kept for
    /// the clients that use it; when both are sent, both apply (an empty page if they differ).
    pub status: Option<ListStatus>,
    /// `true`: only the lobby (public matches waiting for players, never the caller's private ones); a seat is taken with
    /// `POST /v1/matches/{id}/seats/{seat}/join`, and anyone may watch with `GET /v1/matches/{id}`.
    pub open: Option<bool>,
    /// Only this game's matches (a game id).
    pub game: Option<String>,
    /// How many matches a page holds (1 to 100, 20 when left out).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
    /// Where the page starts: the `next` of the page before.
    #[param(pattern = "^[0-9]{1,19}_[0-9a-f]{32}$")]
    pub cursor: Option<String>,
}

/// A match in a list: enough to show it and decide to open it.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchSummary {
    pub id: Uuid,
    pub game: String,
    pub phase: MatchPhase,
    /// The stream version.
    pub version: i64,
    pub seats: Vec<SeatOut>,
    pub open_seats: u32,
    /// Seats that may act now.
    pub to_act: Vec<usize>,
    /// Seats the caller holds.
    pub your_seats: Vec<usize>,
    /// How a finished match ended (who won, and why), as in the match itself; null until then.
    pub outcome: Option<engine::game::Outcome>,
    /// Why the match is over when the service ended it (cancelled, aborted, abandoned, expired),
    /// as in the match itself; null otherwise.
    pub ended: Option<crate::matches::Ended>,
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When the last event was recorded.
    #[schema(format = DateTime)]
    pub updated_at: String,
    /// The match itself: `GET` it to watch or play.
    pub url: String,
}

/// A page of matches.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchList {
    pub matches: Vec<MatchSummary>,
    /// The cursor of the next page (also in the `Link` header, `rel="next"`); null on the last.
    pub next: Option<String>,
}

/// Matches: yours, or the lobby
///
/// Matches newest first, a page at a time (`limit`, and `cursor` from the page before, also sent
/// as a `Link: <…>; rel="next"` header). Without a token the list holds only what the lobby
/// shows: public matches waiting for players; with one, the caller's own matches too (private
/// ones, playing or finished), and never other players' matches past the lobby. `player=me`
/// lists the caller's own matches only (a token is needed), `phase` narrows them to `waiting`, `playing` or `finished` (the match's `phase`;
/// `status` is its older name, with `in-progress` for `playing`); a finished match's entry says
/// how it ended (`outcome`); `open=true` is the
/// lobby: matches with a free seat, to join or to watch, optionally of one `game`.
#[utoipa::path(get, path = "/v1/matches", tag = "matches", params(ListQuery),
    security((), ("bearer" = [])),
    responses((status = 200, body = MatchList,
               headers(("Link" = String, description = "the next page, `<url>; rel=\"next\"`, when there is one"))),
              (status = 400, description = "a malformed query or cursor",
               body = Problem, content_type = "application/problem+json"),
              (status = 401, description = "`player=me` without a valid token",
               body = Problem, content_type = "application/problem+json"),
              (status = 503, description = "the database cannot be reached",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[get("/v1/matches")]
pub async fn list_matches(
    req: HttpRequest,
    state: web::Data<AppState>,
    caller: Caller,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let me = caller.0.as_ref().map(|p| p.id);
    let player = match query.player {
        Some(PlayerFilter::Me) => Some(me.ok_or_else(|| {
            ApiError::unauthorized("missing-token", "player=me lists the caller's matches: send a token")
        })?),
        None => None,
    };
    let limit = match query.limit {
        None => 20,
        Some(n @ 1..=100) => i64::from(n),
        Some(n) => return Err(ApiError::bad_request("invalid-query", format!("limit {n} is not between 1 and 100"))),
    };
    let before = query.cursor.as_deref().map(read_cursor).transpose()?;
    let by_status = query.status.map(|s| match s {
        ListStatus::Waiting => MatchPhase::Waiting,
        ListStatus::InProgress => MatchPhase::Playing,
        ListStatus::Finished => MatchPhase::Finished,
    });
    // Both filters apply: when they name different phases no match is in both, and the page
    // is empty (a schema-valid query is answered, not refused).
    let disagree = matches!((query.phase, by_status), (Some(a), Some(b)) if a != b);
    let phase = query.phase.or(by_status);
    let filter = ListFilter {
        player,
        viewer: me,
        phase: phase.map(|p| match p {
            MatchPhase::Waiting => "waiting",
            MatchPhase::Playing => "playing",
            MatchPhase::Finished => "finished",
        }),
        open: query.open.unwrap_or(false),
        game: query.game,
        before,
        // One more than a page tells whether another page follows.
        limit: limit + 1,
    };
    let state = state.into_inner();
    let reading = state.clone();
    // A list may lag: it is read from the replica when there is one.
    let mut rows = if disagree {
        Vec::new()
    } else {
        crate::commands::with_db(&state.clone(), move || Ok(store::list(&mut reading.lagging()?, &filter)?)).await?
    };
    let more = rows.len() as i64 > limit;
    rows.truncate(limit as usize);
    let next = if more { rows.last().map(|r| cursor(r.created_at, r.stream_id)) } else { None };
    // A summary written before outcomes were kept: the match itself says how it ended.
    for row in rows.iter_mut().filter(|r| r.phase == "finished" && r.outcome.is_none()) {
        let loaded = crate::commands::load(&state, row.stream_id).await?;
        row.outcome = loaded.summary().outcome;
    }
    let matches = rows.into_iter().map(|r| summary(r, me)).collect();
    let mut response = HttpResponse::Ok();
    response.insert_header((header::CACHE_CONTROL, "private")).insert_header((header::VARY, "Authorization"));
    if let Some(next) = &next {
        response.insert_header((header::LINK, format!("<{}>; rel=\"next\"", next_url(&req, next))));
    }
    Ok(response.json(MatchList { matches, next }))
}

pub(crate) fn summary(row: ListedMatch, me: Option<Uuid>) -> MatchSummary {
    let seats: Vec<SeatOut> = serde_json::from_value(row.seats).unwrap_or_default();
    let your_seats = seats.iter().filter(|s| me.is_some() && s.player_id == me).map(|s| s.seat).collect();
    MatchSummary {
        id: row.stream_id,
        game: row.game,
        phase: serde_json::from_value(serde_json::Value::String(row.phase)).unwrap_or(MatchPhase::Playing),
        version: row.version,
        open_seats: row.open_seats.max(0) as u32,
        to_act: serde_json::from_value(row.to_act).unwrap_or_default(),
        your_seats,
        ended: row.outcome.as_ref().and_then(|o| serde_json::from_value(o.get("ended")?.clone()).ok()),
        outcome: row.outcome.and_then(|o| serde_json::from_value(o).ok()),
        seats,
        created_at: row.created_at.to_rfc3339(),
        updated_at: row.updated_at.to_rfc3339(),
        url: format!("/v1/matches/{}", row.stream_id),
    }
}

/// A cursor names the last match of a page by its place in the order: creation time in
/// microseconds and id. Opaque to clients.
fn cursor(created: DateTime<Utc>, id: Uuid) -> String {
    format!("{}_{}", created.timestamp_micros(), id.simple())
}

/// Any cursor of the documented form names a place in the order, even one this service did not
/// give out: a time past the last one it can hold is read as that last time.
fn read_cursor(text: &str) -> Result<(DateTime<Utc>, Uuid), ApiError> {
    let bad = || ApiError::bad_request("invalid-cursor", "the cursor is not one this service gave out");
    let (micros, id) = text.split_once('_').ok_or_else(bad)?;
    if micros.is_empty() || micros.len() > 19 || !micros.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let last = DateTime::<Utc>::MAX_UTC.timestamp_micros();
    let micros = micros.parse::<i64>().map_or(last, |m| m.min(last));
    let at = DateTime::from_timestamp_micros(micros).ok_or_else(bad)?;
    Ok((at, Uuid::try_parse(id).map_err(|_| bad())?))
}

/// This request's URL with the cursor of the next page.
fn next_url(req: &HttpRequest, next: &str) -> String {
    let mut pairs: Vec<String> = req
        .query_string()
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("cursor="))
        .map(String::from)
        .collect();
    pairs.push(format!("cursor={next}"));
    format!("{}?{}", req.path(), pairs.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_read_back_and_nothing_else_reads() {
        let at = DateTime::from_timestamp_micros(1_764_000_000_123_456).unwrap();
        let id = Uuid::new_v4();
        assert_eq!(read_cursor(&cursor(at, id)).unwrap(), (at, id));
        for bad in ["", "x", "12_", "_abc", "12_notauuid", "9999999999999999999_0"] {
            assert!(read_cursor(bad).is_err(), "{bad}");
        }
        // Of the documented form but never given out: a place past every match.
        let far = read_cursor("9375558279141585312_739ae87c36528e96fffd14773b4f5146").unwrap();
        assert_eq!(far.0.timestamp_micros(), DateTime::<Utc>::MAX_UTC.timestamp_micros());
    }
}
