//! The catalog and the rulebooks.

use actix_web::http::StatusCode;
use actix_web::{get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::commands::game_in_catalog;
use crate::problem::{ApiError, Problem};

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
    pub status: GameStatus,
    /// Variant options with their defaults (empty for planned games).
    pub options: Vec<engine::game::OptionDoc>,
    /// Decided on the server's clock (the reaction games, Gris and Hej knekt): the service gives
    /// every move its receive time, the first recorded reaction is first, a reaction window
    /// closes by time (the match's `window_closes_at`), and bots react after a human-like delay.
    /// Send reactions without a version: another seat's reaction may land first.
    pub clocked: bool,
}

/// Whether matches of a game can be played yet.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum GameStatus {
    Playable,
    Planned,
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
        status: if game.is_some() { GameStatus::Playable } else { GameStatus::Planned },
        options: game.as_ref().map(|g| g.options()).unwrap_or_default(),
        clocked: game.is_some_and(|g| g.clocked()),
    }
}

/// Every game in the catalog
///
/// All 46 games of the catalog, playable or planned, with their player counts, pack, family and,
/// for playable games, the options a match can be created with and their defaults.
#[utoipa::path(get, path = "/v1/games", tag = "games", responses((status = 200, body = Vec<GameSummary>)))]
#[get("/v1/games")]
pub async fn list_games() -> HttpResponse {
    HttpResponse::Ok().json(engine::catalog::CATALOG.iter().map(summary).collect::<Vec<_>>())
}

/// One game of the catalog
///
/// The same summary as in the list: names in Swedish and English, player counts, pack, family,
/// status and options.
#[utoipa::path(get, path = "/v1/games/{game}", tag = "games",
    params(("game" = String, Path, description = "game id, e.g. plump")),
    responses((status = 200, body = GameSummary),
              (status = 404, description = "no such game", body = Problem, content_type = "application/problem+json")))]
#[get("/v1/games/{game}")]
pub async fn get_game(path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(summary(game_in_catalog(&path)?)))
}

/// A game's rulebook
///
/// Every rule of a playable game, in sections, with its stable id and its text in Swedish and
/// English. A refused move and a score's explanation name rules by these ids; `house_rule` marks
/// a choice the game's text leaves open that we settled, or an option's effect.
#[utoipa::path(get, path = "/v1/games/{game}/rules", tag = "games",
    params(("game" = String, Path, description = "game id")),
    responses((status = 200, description = "the rulebook: sections of rules with ids and sv/en texts", body = engine::rules::Rulebook),
              (status = 404, description = "no such game (`not-found`), or one that is planned (`game-planned`)",
               body = Problem, content_type = "application/problem+json")))]
#[get("/v1/games/{game}/rules")]
pub async fn get_rules(path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let info = game_in_catalog(&path)?;
    let game = engine::game(info.id).ok_or_else(|| {
        let detail = format!("{} is planned: its rulebook is not written yet", info.id);
        ApiError::new(StatusCode::NOT_FOUND, "game-planned", "Not playable yet", detail)
    })?;
    Ok(HttpResponse::Ok().json(game.rulebook()))
}

/// Where one rule of a game is explained.
pub fn rule_url(game: &str, rule: &str) -> String {
    format!("/v1/games/{game}/rules/{rule}")
}

/// One rule, where it stands in its game's rulebook and the rules beside it.
#[derive(Debug, Serialize, ToSchema)]
pub struct RuleAnswer {
    pub game: &'static str,
    #[serde(flatten)]
    pub rule: engine::rules::Rule,
    /// This rule's own address.
    pub url: String,
    pub section: SectionRef,
    /// The other rules of the same section, which a reader of this one usually needs too.
    pub related: Vec<RelatedRule>,
}

/// The section a rule belongs to.
#[derive(Debug, Serialize, ToSchema)]
pub struct SectionRef {
    pub id: &'static str,
    pub title_sv: &'static str,
    pub title_en: &'static str,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RelatedRule {
    pub id: &'static str,
    pub url: String,
    pub sv: &'static str,
    pub en: &'static str,
}

/// One rule of a game
///
/// A rule by its id (as a refused move's `rule` and a score term's `rule` name it): its text in
/// Swedish and English, whether it is a house rule, its section, and the other rules of that
/// section. A refusal's `rule_url` points here.
#[utoipa::path(get, path = "/v1/games/{game}/rules/{rule}", tag = "games",
    params(("game" = String, Path, description = "game id"),
           ("rule" = String, Path, description = "rule id, e.g. plump.bidding.range or core.turn")),
    responses((status = 200, body = RuleAnswer),
              (status = 404, description = "no such game (`not-found`), one that is planned (`game-planned`), \
                                            or no such rule in its rulebook (`not-found`)",
               body = Problem, content_type = "application/problem+json")))]
#[get("/v1/games/{game}/rules/{rule}")]
pub async fn get_rule(path: web::Path<(String, String)>) -> Result<HttpResponse, ApiError> {
    let (game_id, rule_id) = path.into_inner();
    let info = game_in_catalog(&game_id)?;
    let game = engine::game(info.id).ok_or_else(|| {
        let detail = format!("{} is planned: its rulebook is not written yet", info.id);
        ApiError::new(StatusCode::NOT_FOUND, "game-planned", "Not playable yet", detail)
    })?;
    let book = game.rulebook();
    let (section, rule) = book
        .sections
        .iter()
        .find_map(|s| s.rules.iter().find(|r| r.id == rule_id).map(|r| (s, r.clone())))
        .ok_or_else(|| ApiError::not_found(&format!("rule '{rule_id}' of {}", info.id)))?;
    let related = section
        .rules
        .iter()
        .filter(|r| r.id != rule.id)
        .map(|r| RelatedRule { id: r.id, url: rule_url(info.id, r.id), sv: r.sv, en: r.en })
        .collect();
    Ok(HttpResponse::Ok().json(RuleAnswer {
        game: info.id,
        url: rule_url(info.id, rule.id),
        rule,
        section: SectionRef { id: section.id, title_sv: section.title_sv, title_en: section.title_en },
        related,
    }))
}
