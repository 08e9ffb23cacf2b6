//! The OpenAPI document, generated from the handlers and committed as `openapi/openapi.json`.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::{matches, problem, routes};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Kortbord",
        description = "Rules engine and service for Swedish card games. Every match is an append-only \
stream of events; a player sees only what they could see at a real table.\n\n\
Cards are written rank + suit: ranks `2`-`9`, `T`, `J`, `Q`, `K`, `A`; suits `C`, `D`, `H`, `S` \
(`TD` is the ten of diamonds); jokers `JK`, `JK1`, `JK2`.\n\n\
Errors are `application/problem+json` with a stable `code`; a refused move names the rule it breaks \
(`rule`) and explains it in Swedish and English. `Accept-Language: sv` picks Swedish texts.",
        version = "1.0.0"
    ),
    paths(
        crate::health, crate::ready, crate::prometheus,
        routes::guest, routes::list_games, routes::get_game, routes::get_rules,
        routes::create_match, routes::get_match, routes::join, routes::legal_moves, routes::make_move,
        routes::match_events, routes::deal_record, routes::deal_replay,
    ),
    components(schemas(
        problem::Problem, matches::Occupant, matches::MatchPhase, matches::SeatOut, matches::MatchView, matches::EventOut,
        routes::GuestRequest, routes::GuestToken, routes::GameSummary, routes::SeatRequest, routes::CreateMatch,
        routes::LegalMoves, routes::MoveRequest, routes::MoveResult, routes::DryRun, routes::EventPage,
        routes::DealRecord, routes::ReplayStep,
    )),
    modifiers(&Bearer),
    tags(
        (name = "auth", description = "Players' tokens"),
        (name = "games", description = "The catalog and each game's rulebook"),
        (name = "matches", description = "Creating, joining and playing matches"),
        (name = "history", description = "Event history and replay of finished deals"),
        (name = "health", description = "Liveness and readiness"),
    )
)]
pub struct ApiDoc;

struct Bearer;

impl Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed document must be what the code generates. `UPDATE_OPENAPI=1 cargo test`
    /// rewrites it.
    #[test]
    fn committed_openapi_document_is_current() {
        let generated = ApiDoc::openapi().to_pretty_json().unwrap() + "\n";
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json");
        if std::env::var("UPDATE_OPENAPI").is_ok() {
            std::fs::write(path, &generated).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == generated,
            "openapi/openapi.json is stale: run `UPDATE_OPENAPI=1 cargo test -p kortbord-api openapi` and commit it"
        );
    }
}
