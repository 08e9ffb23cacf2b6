//! Checking a deal played at a real table: its deck orders and its moves, replayed through the
//! rules, answer which move first breaks which rule. Nothing is stored.

use actix_web::{post, web, HttpRequest, HttpResponse};
use engine::cards::Card;
use engine::game::{Refusal, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::commands::game_in_catalog;
use crate::http::{lang, JsonObject};
use crate::problem::{ApiError, Problem};

/// The most moves one check replays.
const MAX_MOVES: usize = 20_000;

/// A deal (or several) as it was played at a table.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "players": 3,
    "decks": [["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S",
               "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H",
               "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D", "2D",
               "AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C"]],
    "moves": [{"seat": 1, "move": {"type": "bid", "tricks": 3}}]
}))]
pub struct DealToCheck {
    /// How many seats the table had.
    #[schema(minimum = 1)]
    pub players: usize,
    /// The match's options, as when creating one; defaults for anything left out.
    #[serde(default)]
    #[schema(schema_with = crate::openapi::options_or_null_schema)]
    pub options: Value,
    /// The card order of each shuffle, top card first, as card codes: each deal's whole pack, and
    /// a talon shuffled anew within a deal (its cards only), in the order they come.
    pub decks: Vec<Vec<Card>>,
    /// Every move in the order it was made, with the seat that made it.
    pub moves: Vec<MadeMove>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MadeMove {
    pub seat: usize,
    /// The game's command, as `POST .../moves` takes it.
    #[serde(rename = "move")]
    #[schema(schema_with = crate::openapi::move_schema)]
    pub command: Value,
}

/// What the rules say of the deal.
#[derive(Debug, Serialize, ToSchema)]
pub struct DealChecked {
    /// The game the deal was checked against: whose table `table` is.
    pub game: String,
    /// Every move was allowed (and every deck was a whole pack).
    pub legal: bool,
    /// The moves replayed before the first broken one (all of them when `legal`).
    pub moves_checked: usize,
    /// The decks dealt.
    pub deals_dealt: usize,
    /// The first move or deck the rules refuse, if any.
    pub broken: Option<Broken>,
    /// Seats that were to act where the replay stopped (empty when it stopped for a deck or the
    /// match was over).
    pub to_act: Vec<usize>,
    /// The match was played to its end.
    pub finished: bool,
    /// The table where the replay stopped, every hand shown (a record's view).
    #[schema(schema_with = crate::openapi::table_schema)]
    pub table: Value,
}

/// The first thing the rules refuse.
#[derive(Debug, Serialize, ToSchema)]
pub struct Broken {
    /// The move's place in `moves` (from 0), or null for a deck.
    pub move_index: Option<usize>,
    /// The deck's place in `decks` (from 0), for a deck that is not a whole pack or a deal
    /// that had no deck.
    pub deck_index: Option<usize>,
    pub seat: Option<usize>,
    pub rule: String,
    /// Where the rule is explained.
    pub rule_url: String,
    pub explanation: engine::rules::Text,
    /// The explanation in the reader's language.
    pub detail: String,
}

/// Checks a deal played at a table
///
/// Replays deck orders and moves made at a real table through the game's rules and answers
/// whether every move was allowed, and if not, which move first broke which rule (with the
/// rule's text and address), with the table as it stood there. For a club settling a disputed
/// deal. Nothing is stored; no token is needed.
#[utoipa::path(post, path = "/v1/games/{game}/check", tag = "games", request_body = DealToCheck,
    params(("game" = String, Path, description = "game id")),
    responses((status = 200, body = DealChecked),
              (status = 400, description = "the body cannot be read, or a move is no command of this game (`invalid-move`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such game (`not-found`), or one that is planned (`game-planned`)",
               body = Problem, content_type = "application/problem+json"),
              (status = 422, description = "the player count or options do not suit the game (`invalid-options`), \
                                            a move is another game's (`wrong-game`), \
                                            or more than 20,000 moves (`too-many-moves`)",
               body = Problem, content_type = "application/problem+json")))]
#[post("/v1/games/{game}/check")]
pub async fn check_deal(
    req: HttpRequest,
    path: web::Path<String>,
    body: JsonObject<DealToCheck>,
) -> Result<HttpResponse, ApiError> {
    let info = game_in_catalog(&path)?;
    let game = engine::game(info.id).ok_or_else(|| {
        ApiError::new(
            actix_web::http::StatusCode::NOT_FOUND,
            "game-planned",
            "Not playable yet",
            format!("{} is planned: its rules are not written yet", info.id),
        )
    })?;
    let JsonObject(deal) = body;
    if deal.moves.len() > MAX_MOVES {
        return Err(ApiError::unprocessable("too-many-moves", format!("a check replays at most {MAX_MOVES} moves")));
    }
    if !game.player_counts().contains(&deal.players) {
        let (min, max) = (game.player_counts().start().to_owned(), game.player_counts().end().to_owned());
        return Err(ApiError::unprocessable(
            "invalid-options",
            format!("{} is played by {min} to {max} players, not {}", info.id, deal.players),
        ));
    }
    // Every move must be a move of this game before anything is replayed: a malformed move
    // after a broken deck is still a malformed request.
    for (k, made) in deal.moves.iter().enumerate() {
        if game.reads_command(&made.command) {
            continue;
        }
        if let Some(other) = engine::other_game_reading(info.id, &made.command) {
            return Err(ApiError::unprocessable(
                "wrong-game",
                format!("move {k} is a move of {other}, and this check is of {}", info.id),
            ));
        }
        return Err(ApiError::bad_request("invalid-move", format!("move {k} is no move of {}", info.id)));
    }
    // As a new match's: defaults filled in the way a match created now would have them.
    let options = game.normalize_options(&deal.options).map_err(|e| ApiError::unprocessable("invalid-options", e.0))?;
    let mut table = game.setup(deal.players, &options).map_err(|e| ApiError::unprocessable("invalid-options", e.0))?;
    let lang = lang(&req);
    let broken = |move_index, deck_index, seat, v: engine::rules::RuleViolation| Broken {
        move_index,
        deck_index,
        seat,
        rule_url: crate::routes::games::rule_url(info.id, &v.rule),
        detail: v.explanation.get(lang).to_string(),
        rule: v.rule,
        explanation: v.explanation,
    };
    let apply = |table: &mut Box<dyn engine::game::Match>, events: Vec<Value>| -> Result<(), ApiError> {
        events.iter().try_for_each(|e| table.apply(e)).map_err(ApiError::internal)
    };
    let mut decks = deal.decks.iter().enumerate();
    let mut dealt = 0;
    let mut checked = 0;
    let mut first_broken = None;
    // Deal whenever a deal is due and a deck is left, then the next move; stop at the first
    // refusal.
    'replay: loop {
        // A deal, or a talon shuffled anew within one: the next order either way.
        while table.status().to_shuffle().is_some() {
            let Some((k, deck)) = decks.next() else { break 'replay };
            match table.deal(deck) {
                Ok(events) => apply(&mut table, events)?,
                Err(v) => {
                    first_broken = Some(broken(None, Some(k), None, v));
                    break 'replay;
                }
            }
            dealt += 1;
        }
        let Some(made) = deal.moves.get(checked) else { break };
        match table.decide(made.seat, &made.command) {
            Ok(events) => apply(&mut table, events)?,
            Err(Refusal::Violation(v)) => {
                first_broken = Some(broken(Some(checked), None, Some(made.seat), v));
                break;
            }
            Err(Refusal::Malformed(m)) => {
                return Err(ApiError::bad_request("invalid-move", format!("move {checked}: {m}")));
            }
        }
        checked += 1;
    }
    // Moves left over after the decks ran out: the next one had no deal to be made in.
    if first_broken.is_none() && checked < deal.moves.len() && table.status().to_shuffle().is_some() {
        let v = engine::rules::RuleViolation::new(
            engine::rules::core::DECK,
            format!("Drag {checked} kommer före given: lämna kortleken för giv {}.", dealt + 1),
            format!("Move {checked} comes before its deal: send the deck of deal {}.", dealt + 1),
        );
        first_broken = Some(broken(Some(checked), Some(dealt), Some(deal.moves[checked].seat), v));
    }
    let status = table.status();
    Ok(HttpResponse::Ok().json(DealChecked {
        game: info.id.to_string(),
        legal: first_broken.is_none(),
        moves_checked: checked,
        deals_dealt: dealt,
        broken: first_broken,
        to_act: status.to_act().to_vec(),
        finished: status.is_finished(),
        table: table.view(Viewer::Record),
    }))
}
