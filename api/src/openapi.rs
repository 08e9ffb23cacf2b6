//! The OpenAPI document, generated from the handlers and committed as `openapi/openapi.json`.

use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::schema::{AnyOfBuilder, Array, Schema};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::{Modify, OpenApi};

use crate::routes::{auth, checks, games, health, history, lists, matches as match_routes, moves, stream};
use crate::{matches, problem};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Kortbord",
        description = "Rules engine and service for Swedish card games. Every match is an append-only \
stream of events; a player sees only what they could see at a real table.\n\n\
Cards are written rank + suit: ranks `2`-`9`, `T`, `J`, `Q`, `K`, `A`; suits `C`, `D`, `H`, `S` \
(`TD` is the ten of diamonds); a joker is `JK` (Femhundra's, and President's in its Trouduc option), or `JK1` and \
`JK2` in a pack that tells two apart (none yet). The tarot pack adds the 1 of each suit \
(`1H`), the knight, distinct from the jack (`CH`; the jack is `JH`), the trumps `T1` (the Petit) to \
`T21`, and the Excuse `EX`; its 2-10, queens and kings use the ordinary codes.\n\n\
Errors are `application/problem+json` with a stable `code`; a refused move names the rule it breaks \
(`rule`) and explains it in Swedish and English. `Accept-Language: sv` picks Swedish texts.",
        version = "1.0.0",
        contact(name = "Kortbord", url = "https://github.com/kortbord/kortbord/issues"),
        license(name = "MIT", identifier = "MIT")
    ),
    servers((url = "/", description = "the service that serves this document")),
    paths(
        health::health, health::ready, health::prometheus,
        auth::guest, auth::renew, auth::me, games::list_games, games::get_game, games::get_rules, games::get_rule, checks::check_deal,
        match_routes::create_match, lists::list_matches, match_routes::get_match, match_routes::join, match_routes::leave,
        match_routes::cancel, match_routes::abort, match_routes::legal_moves,
        moves::make_move,
        history::match_events, history::deal_record, history::deal_replay, history::export, stream::stream, stream::my_stream,
    ),
    components(schemas(
        problem::Problem, engine::bots::Level, matches::ServiceEvent, matches::MatchPhase, matches::SeatOut, matches::SeatKind, matches::MatchView,
        matches::Ended, matches::EndReason, matches::WhenAPlayerLeaves,
        matches::EventOut,
        auth::GuestRequest, auth::GuestToken, auth::Me, games::GameSummary, games::RuleAnswer, games::SectionRef, games::RelatedRule, match_routes::SeatRequest,
        match_routes::CreateMatch, match_routes::LegalMoves, moves::MoveRequest, moves::MoveResult, moves::DryRun,
        moves::MoveOutcome, history::EventPage, history::DealRecord, history::ReplayStep,
        lists::MatchList, lists::MatchSummary, lists::PlayerFilter, lists::ListStatus,
        stream::StreamView, checks::DealToCheck, checks::MadeMove, checks::DealChecked, checks::Broken, moves::Include,
    )),
    modifiers(&Bearer, &ExtractorProblems, &RequestRules, &GameTypes, &Examples),
    tags(
        (name = "auth", description = "Players' tokens"),
        (name = "games", description = "The catalog and each game's rulebook"),
        (name = "matches", description = "Creating, joining and playing matches"),
        (name = "history", description = "Event history and replay of finished deals"),
        (name = "health", description = "Liveness and readiness"),
    )
)]
pub struct ApiDoc;

/// Every playable game's options, commands, table and events, derived from the engine's types
/// (`engine::schema`), and the service's schemas that carry them, one per game.
///
/// Games share command and event `type`s (`discard`, `pass`, `knock`), so a union over every
/// game's types cannot tell a generated client which game's shape it holds. What tells them apart
/// is the `game` field of the object that carries them: every schema with a game's types in it
/// (`MatchView`, `EventOut`, `LegalMoves`, `DealRecord`, `ReplayStep`, `DealChecked` and the
/// request `CreateMatch`) becomes a `oneOf` of one schema per game (`PlumpMatchView`,
/// `TrettioettEventOut`...) with `game` a constant and a discriminator on it, each pointing at
/// its own game's table, options, commands and events (`TrettioettEvent`: the game's events
/// and the service's, `match.created` with the game's own options). The wire format is the same
/// for every game; only the document says more. A command a client sends stays a member of the
/// one union `Move`, since its body has no `game`: the match has it.
struct GameTypes;

/// The service's schemas that carry a game's types, and so have one variant per game.
const PER_GAME: &[&str] =
    &["MatchView", "EventOut", "LegalMoves", "DealRecord", "ReplayStep", "DealChecked", "CreateMatch"];

impl Modify for GameTypes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let schemas = &mut openapi.components.get_or_insert_with(Default::default).schemas;
        // Engine types the service's own schemas use (`Outcome`) refer to seats as `usize`, as
        // the games' schemas did before `GameSchemas` named them.
        if schemas.remove("usize").is_some() {
            renamed_refs(schemas, "usize", "Seat");
        }
        let service_events = service_event_variants(schemas);
        let mut commands = Vec::new();
        let mut options = Vec::new();
        let mut per_game: Vec<(String, Vec<(String, String)>)> =
            PER_GAME.iter().map(|n| (n.to_string(), vec![])).collect();
        for game in engine::playable() {
            let derived = game.schemas();
            let prefix = engine::schema::pascal(game.id());
            let own: Vec<(&str, String)> = vec![
                ("Table", derived.table.clone()),
                ("MatchOptions", derived.options.clone()),
                ("Move", derived.command.clone()),
                ("EventData", derived.event.clone()),
                ("EventOut", format!("{prefix}EventOut")),
                ("MatchView", format!("{prefix}MatchView")),
            ];
            let mut components = derived.components;
            let events = game_event_data(&components, &derived.event, &prefix, &service_events);
            components.retain(|(name, _)| *name != derived.event);
            components.push((derived.event.clone(), events));
            components.push((
                format!("{prefix}MatchCreatedEvent"),
                match_created(game.id(), &derived.options, &service_events),
            ));
            for (container, variants) in &mut per_game {
                let base =
                    schema_json(schemas.get(container.as_str()).unwrap_or_else(|| panic!("{container} is documented")));
                let name = format!("{prefix}{container}");
                components.push((name.clone(), for_game(base, game.id(), &own)));
                variants.push((game.id().to_string(), name));
            }
            for (name, schema) in components {
                insert(schemas, name, schema);
            }
            commands.push(derived.command);
            options.push(derived.options);
        }
        for (name, schema) in service_events.iter().filter(|(name, _)| name != "MatchCreatedEvent") {
            insert(schemas, name.clone(), schema.clone());
        }
        for (container, variants) in per_game {
            let base = schema_json(&schemas[container.as_str()]);
            insert_unchecked(schemas, container, game_union(&base, &variants));
        }
        for (name, description, members) in [
            ("Move", "A command of the match's game; `GET .../legal-moves` lists the ones allowed now.", commands),
            ("MatchOptions", "The match's variants and parameters: the options of its game.", options),
        ] {
            let mut any = AnyOfBuilder::new().description(Some(description));
            for member in members {
                any = any.item(Ref::from_schema_name(member));
            }
            schemas.insert(name.to_string(), Schema::AnyOf(any.build()).into());
        }
        // Every reference to these now goes to a game's own.
        for gone in ["Table", "EventData", "ServiceEvent"] {
            schemas.remove(gone);
        }
    }
}

/// The service's events as named schemas (`MatchCreatedEvent`, `MatchSeatJoinedEvent`...), as a
/// caller sees them: supplied decks are shown as their number (`matches::redact_service_event`).
fn service_event_variants(
    schemas: &std::collections::BTreeMap<String, RefOr<Schema>>,
) -> Vec<(String, serde_json::Value)> {
    let union = schema_json(schemas.get("ServiceEvent").expect("ServiceEvent is documented"));
    let name = |tag: &str| format!("{}Event", engine::schema::pascal(&tag.replace('.', "_")));
    let (_, mut variants) = engine::schema::named_union(&union, "type", name).expect("service events have a `type`");
    for (name, variant) in &mut variants {
        if name == "MatchCreatedEvent" {
            let properties = variant["properties"].as_object_mut().expect("match.created has properties");
            properties.remove("decks");
            properties.remove("invitation");
            properties.insert(
                "supplied_decks".into(),
                serde_json::json!({
                    "type": "integer",
                    "minimum": 0,
                    "description": "How many deck orders the creator supplied for the first deals (the orders \
                themselves are never shown); absent when none were.",
                }),
            );
        }
    }
    variants
}

/// `match.created` of one game: its options are the game's own.
fn match_created(game: &str, options: &str, service_events: &[(String, serde_json::Value)]) -> serde_json::Value {
    let (_, created) =
        service_events.iter().find(|(n, _)| n == "MatchCreatedEvent").expect("match.created is documented");
    let mut created = created.clone();
    created["properties"]["options"] = serde_json::json!({ "$ref": format!("#/components/schemas/{options}") });
    created["properties"]["game"] = game_constant(game);
    created
}

/// The events of one game's match as a caller sees them: the game's own and the service's, told
/// apart by `type`.
fn game_event_data(
    components: &[(String, serde_json::Value)],
    game_events: &str,
    prefix: &str,
    service_events: &[(String, serde_json::Value)],
) -> serde_json::Value {
    let (_, union) = components.iter().find(|(n, _)| n == game_events).expect("the game's events are derived");
    let mut union = union.clone();
    let reference = |name: &str| format!("#/components/schemas/{name}");
    for (name, variant) in service_events {
        let tag = variant["properties"]["type"]["enum"][0].as_str().expect("a service event has a `type`");
        let name = if name == "MatchCreatedEvent" { format!("{prefix}{name}") } else { name.clone() };
        union["oneOf"].as_array_mut().expect("a union").push(serde_json::json!({ "$ref": reference(&name) }));
        union["discriminator"]["mapping"][tag] = serde_json::Value::String(reference(&name));
    }
    union["description"] = serde_json::json!(
        "An event of the match as the caller may see it, the game's own or the service's (`match.*`); `type` \
says which. A field whose content is hidden from the caller is null or left out, and counts \
(`hand_sizes`) may stand in for hidden cards."
    );
    union
}

/// The `game` field of one game's schemas: that game's id, and nothing else.
fn game_constant(game: &str) -> serde_json::Value {
    // An `enum` of one: the document is OpenAPI 3.1, but utoipa's schema model has no `const`.
    serde_json::json!({ "type": "string", "enum": [game], "description": "The game's id." })
}

/// A service schema for one game: `game` is the game's id, and the game-wide unions it refers to
/// are the game's own (`own` pairs each union with the game's schema).
fn for_game(mut schema: serde_json::Value, game: &str, own: &[(&str, String)]) -> serde_json::Value {
    let rename = |name: &str| own.iter().find(|(union, _)| *union == name).map_or(name.to_string(), |(_, n)| n.clone());
    schema = engine::schema::renamed_refs(schema, &rename);
    let properties = schema["properties"].as_object_mut().expect("a service schema has properties");
    assert!(properties.contains_key("game"), "a schema with a game's types says which game");
    properties.insert("game".into(), game_constant(game));
    assert!(
        schema["required"].as_array().is_some_and(|r| r.contains(&serde_json::json!("game"))),
        "`game` is always sent: the discriminator reads it"
    );
    // The shared schema's example is one game's: it stays on the union.
    if let Some(map) = schema.as_object_mut() {
        map.remove("example");
        map.remove("examples");
    }
    schema
}

/// The union of a service schema's per-game variants, told apart by `game`.
fn game_union(base: &serde_json::Value, variants: &[(String, String)]) -> serde_json::Value {
    let reference = |name: &str| format!("#/components/schemas/{name}");
    let mut union = serde_json::json!({
        "oneOf": variants.iter().map(|(_, name)| serde_json::json!({ "$ref": reference(name) })).collect::<Vec<_>>(),
        "discriminator": {
            "propertyName": "game",
            "mapping": variants.iter().map(|(game, name)| (game.clone(), serde_json::Value::String(reference(name)))).collect::<serde_json::Map<_, _>>(),
        },
    });
    for key in ["description", "example", "examples"] {
        if let Some(value) = base.get(key) {
            union[key] = value.clone();
        }
    }
    union
}

fn schema_json(schema: &RefOr<Schema>) -> serde_json::Value {
    serde_json::to_value(schema).expect("schemas serialize")
}

/// Adds a schema, refusing two different ones under one name.
fn insert(schemas: &mut std::collections::BTreeMap<String, RefOr<Schema>>, name: String, schema: serde_json::Value) {
    let read = read_schema(&name, schema);
    if let Some(earlier) = schemas.get(&name) {
        assert!(schema_json(earlier) == schema_json(&read), "two different schemas are both named {name}");
    }
    schemas.insert(name, read);
}

fn insert_unchecked(
    schemas: &mut std::collections::BTreeMap<String, RefOr<Schema>>,
    name: String,
    schema: serde_json::Value,
) {
    let read = read_schema(&name, schema);
    schemas.insert(name, read);
}

fn read_schema(name: &str, schema: serde_json::Value) -> RefOr<Schema> {
    serde_json::from_value(schema.clone()).unwrap_or_else(|e| panic!("{name}: {e}: {schema}"))
}

/// Points every reference to the schema `from` at `to` in the schemas that have one.
fn renamed_refs(schemas: &mut std::collections::BTreeMap<String, RefOr<Schema>>, from: &str, to: &str) {
    let rename = |name: &str| if name == from { to.to_string() } else { name.to_string() };
    for schema in schemas.values_mut() {
        let value = serde_json::to_value(&*schema).expect("schemas serialize");
        let renamed = engine::schema::renamed_refs(value.clone(), &rename);
        // Only a schema that changed is read back: not every schema utoipa writes reads back.
        if renamed != value {
            *schema = serde_json::from_value(renamed).expect("a schema reads back");
        }
    }
}

pub fn move_schema() -> Ref {
    Ref::from_schema_name("Move")
}

pub fn moves_schema() -> Array {
    Array::new(Ref::from_schema_name("Move"))
}

pub fn options_schema() -> Ref {
    Ref::from_schema_name("MatchOptions")
}

/// Options in a creation request: `null` or left out takes every default.
pub fn options_or_null_schema() -> Schema {
    let any = AnyOfBuilder::new()
        .item(Ref::from_schema_name("MatchOptions"))
        .item(utoipa::openapi::schema::ObjectBuilder::new().schema_type(utoipa::openapi::schema::Type::Null))
        .description(Some("The game's options; defaults for anything left out, and for all of them when null."))
        .build();
    Schema::AnyOf(any)
}

pub fn table_schema() -> Ref {
    Ref::from_schema_name("Table")
}

pub fn event_data_schema() -> Ref {
    Ref::from_schema_name("EventData")
}

/// Real answers as examples, not generated filler: a Plump table three players sit at, played
/// by the rules (a fixed deck, fixed ids and times, so the document stays the same from build to
/// build): the match as the player to act sees it, their legal moves, a move's answer, the
/// events feed and a refusal naming its rule.
struct Examples;

impl Examples {
    const AT: &'static str = "2026-11-24T09:00:00+00:00";

    fn player(seat: usize) -> uuid::Uuid {
        uuid::Uuid::from_u128(0xa11ce + seat as u128)
    }

    /// The match after its first deal, the seat to act, and every event so far.
    fn dealt() -> Option<(crate::matches::Loaded, usize, Vec<crate::store::StoredEvent>)> {
        use crate::matches::{Loaded, Occupant, ServiceEvent};
        let game = engine::game("plump")?;
        let table = game.setup(3, &serde_json::json!({})).ok()?;
        let engine::game::Status::NeedsDeck { composition } = table.status() else { return None };
        let n = composition.len();
        // A fixed order that mixes the suits: every `stride`-th card of the sorted pack.
        let coprime = |s: &usize| (2..=*s).all(|d| !s.is_multiple_of(d) || !n.is_multiple_of(d));
        let stride = (7..n).find(coprime)?;
        let deck: Vec<_> = (0..n).map(|i| composition[(i * stride) % n]).collect();
        let seats = ["Ada", "Bo", "Cy"]
            .iter()
            .enumerate()
            .map(|(i, name)| Occupant::Player { player_id: Self::player(i), name: name.to_string() })
            .collect();
        let created = ServiceEvent::Created {
            game: "plump".into(),
            options: game.normalize_options(&serde_json::json!({})).ok()?,
            seats,
            decks: vec![deck],
            created_by: Self::player(0),
            private: false,
            invitation: None,
            when_a_player_leaves: None,
            turn_seconds: None,
        };
        let at = Self::at()?;
        let first = crate::store::StoredEvent {
            seq: 1,
            event_type: "match.created".into(),
            deal: 0,
            data: serde_json::to_value(&created).ok()?,
            actor: Self::player(0).to_string(),
            recorded_at: at,
        };
        let id = uuid::Uuid::from_u128(0x6b0a4d);
        let mut loaded = Loaded::replay(id, std::slice::from_ref(&first)).ok()?;
        let mut dealt = Vec::new();
        loaded.advance(&mut dealt).ok()?;
        let mut stored = vec![first];
        stored.extend(Self::stored(&dealt, 2));
        loaded.version = stored.len() as i64;
        loaded.last_at = at;
        let seat = *loaded.table.status().to_act().first()?;
        Some((loaded, seat, stored))
    }

    fn at() -> Option<chrono::DateTime<chrono::Utc>> {
        chrono::DateTime::parse_from_rfc3339(Self::AT).ok().map(|t| t.with_timezone(&chrono::Utc))
    }

    fn stored(events: &[crate::store::NewEvent], from: i64) -> Vec<crate::store::StoredEvent> {
        let at = Self::at().expect("a valid time");
        events
            .iter()
            .enumerate()
            .map(|(i, e)| crate::store::StoredEvent { recorded_at: at, ..e.stored(from + i as i64) })
            .collect()
    }

    fn answers() -> Option<Vec<(&'static str, &'static str, &'static str, serde_json::Value)>> {
        use engine::game::{Refusal, Viewer};
        let (loaded, seat, stored) = Self::dealt()?;
        let viewer = Viewer::Seat(seat);
        let view = loaded.view(viewer, vec![seat]);
        let moves = loaded.table.legal_moves(seat);
        let legal =
            match_routes::LegalMoves { game: loaded.game.clone(), seat, version: loaded.version, moves: moves.clone() };
        let page = history::EventPage {
            version: loaded.version,
            events: stored.iter().map(|e| loaded.event_out(e, viewer)).collect(),
        };
        let mut after = loaded.clone();
        let decided = after.table.decide(seat, moves.first()?).ok()?;
        let mut appended = Vec::new();
        after.record(decided, &Self::player(seat).to_string(), &mut appended).ok()?;
        after.advance(&mut appended).ok()?;
        after.version = loaded.version + appended.len() as i64;
        after.last_at = Self::at()?;
        let appended = Self::stored(&appended, loaded.version + 1);
        let moved = moves::MoveResult {
            version: after.version,
            events: appended.iter().map(|e| after.event_out(e, viewer)).collect(),
            match_view: after.view(viewer, vec![seat]),
            legal_moves: Some(crate::routes::matches::LegalMoves {
                game: after.game.clone(),
                seat,
                version: after.version,
                moves: after.table.legal_moves(seat),
            }),
        };
        let refusal = loaded.table.move_space(seat).into_iter().find_map(|m| match loaded.table.decide(seat, &m) {
            Err(Refusal::Violation(v)) => Some(v),
            _ => None,
        })?;
        let mut problem = problem::ApiError::violation(&loaded.game, refusal, engine::rules::Lang::En).problem;
        problem.request_id = Some("5f0c3a52-9d1e-4c47-8a43-0d4f6f1e2b7a".into());
        Some(vec![
            ("/v1/matches", "post", "201", serde_json::to_value(&view).ok()?),
            ("/v1/matches/{id}", "get", "200", serde_json::to_value(&view).ok()?),
            ("/v1/matches/{id}/legal-moves", "get", "200", serde_json::to_value(&legal).ok()?),
            ("/v1/matches/{id}/events", "get", "200", serde_json::to_value(&page).ok()?),
            ("/v1/matches/{id}/moves", "post", "200", serde_json::to_value(&moved).ok()?),
            ("/v1/matches/{id}/moves", "post", "422", serde_json::to_value(&problem).ok()?),
        ])
    }
}

impl Modify for Examples {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(answers) = Examples::answers() else { return };
        for (path, method, status, example) in answers {
            let Some(item) = openapi.paths.paths.get_mut(path) else { continue };
            let operation = match method {
                "get" => item.get.as_mut(),
                _ => item.post.as_mut(),
            };
            let Some(RefOr::T(response)) = operation.and_then(|o| o.responses.responses.get_mut(status)) else {
                continue;
            };
            for content in response.content.values_mut() {
                content.example = Some(example.clone());
            }
        }
    }
}

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

/// The guest name's length and pattern, drawn from the tables `auth::check_name` checks with,
/// so the document and the check cannot drift apart; and closed seat objects.
struct RequestRules;

impl Modify for RequestRules {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let schemas = &mut openapi.components.get_or_insert_with(Default::default).schemas;
        let Some(RefOr::T(Schema::Object(request))) = schemas.get_mut("GuestRequest") else { return };
        let Some(RefOr::T(Schema::Object(name))) = request.properties.get_mut("name") else { return };
        name.min_length = Some(1);
        name.max_length = Some(auth::NAME_MAX_CHARS);
        name.pattern = Some(auth::name_pattern());
        // A seat refuses fields it does not have (`deny_unknown_fields`), which utoipa does not
        // carry over to an enum's variants.
        let Some(RefOr::T(Schema::OneOf(seats))) = schemas.get_mut("SeatRequest") else { return };
        for seat in &mut seats.items {
            if let RefOr::T(Schema::Object(seat)) = seat {
                seat.additional_properties =
                    Some(Box::new(utoipa::openapi::schema::AdditionalProperties::FreeForm(false)));
            }
        }
        named_variants(schemas, "SeatRequest", "Seat");
        named_variants(schemas, "Occupant", "Occupant");
    }
}

/// A `kind`-tagged union's inline variants become named schemas (`MeSeat`, `BotSeat`), and the
/// union a `oneOf` of them with a discriminator: client generators then name the classes after
/// what they are instead of numbering them.
fn named_variants(schemas: &mut std::collections::BTreeMap<String, RefOr<Schema>>, union: &str, suffix: &str) {
    let Some(schema) = schemas.get(union) else { return };
    let value = serde_json::to_value(schema).expect("schemas serialize");
    let name = |tag: &str| format!("{}{suffix}", engine::schema::pascal(tag));
    let Some((union_schema, variants)) = engine::schema::named_union(&value, "kind", name) else { return };
    for (name, variant) in variants {
        schemas.insert(name, serde_json::from_value(variant).expect("a variant reads back"));
    }
    schemas.insert(union.to_string(), serde_json::from_value(union_schema).expect("a union reads back"));
}

/// The problems the shared extractors answer with before a handler runs, added to every
/// operation they apply to (a status the annotation already lists is left as written there):
///
/// - a path parameter that does not parse (`/v1/matches/not-a-uuid`): 404 `not-found`;
/// - a query string that does not parse or misses a required field: 400 `invalid-query`;
/// - a JSON body (see `json_config` in lib.rs): 400 `malformed-json`, 413 `body-too-large`,
///   415 `unsupported-media-type`, 422 `invalid-body`;
/// - a bearer token (required, or optional and sent anyway) that is missing, malformed, forged or
///   expired: 401.
///
/// The handlers' annotations list what the handler itself decides (403, 409, a missing match...).
struct ExtractorProblems;

pub fn problem_response(description: &str) -> RefOr<Response> {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/problem+json",
            ContentBuilder::new().schema(Some(Ref::from_schema_name("Problem"))).build(),
        )
        .build()
        .into()
}

impl ExtractorProblems {
    fn add(operation: &mut Operation) {
        let params = operation.parameters.as_deref().unwrap_or_default();
        let has_path = params.iter().any(|p| p.parameter_in == ParameterIn::Path);
        let has_query = params.iter().any(|p| p.parameter_in == ParameterIn::Query);
        let has_body = operation.request_body.is_some();
        let bearer =
            operation.security.iter().flatten().any(|requirement| {
                serde_json::to_value(requirement).ok().and_then(|v| v.get("bearer").cloned()).is_some()
            });
        let mut wanted: Vec<(&str, &str)> = Vec::new();
        // Any request: a head the HTTP parser cannot read (a control byte in a header) is
        // refused with a problem before routing (`malformed-request`, see wire.rs).
        wanted.push(match (has_query, has_body) {
            (_, true) => (
                "400",
                "the request cannot be read: the query string, a header (`malformed-request`) or the body                  (not JSON, or an object naming a key twice: `duplicate-key`)",
            ),
            (true, false) => ("400", "the query string or a header (`malformed-request`) cannot be read"),
            (false, false) => ("400", "a header cannot be read (`malformed-request`: a control byte in it)"),
        });
        if bearer {
            wanted.push(("401", "no token, or one this service did not issue or that has expired"));
        }
        if has_path {
            wanted.push(("404", "a path parameter that does not parse, or no such resource"));
        }
        wanted.push(("406", "the Accept header allows neither JSON nor problem documents"));
        if has_body {
            wanted.push(("413", "the body is larger than 64 KiB"));
            wanted.push(("415", "the body is not sent as application/json"));
            wanted.push(("422", "the body does not fit the schema"));
        }
        let responses = &mut operation.responses.responses;
        for (status, description) in wanted {
            responses.entry(status.to_string()).or_insert_with(|| problem_response(description));
        }
        // An operation that counts against a rate limit says where the caller stands with it,
        // in every answer that got past the limit and in its 429.
        if responses.contains_key("429") {
            for (status, response) in responses.iter_mut() {
                let counted = status.starts_with('2') || status == "429";
                if let (true, RefOr::T(response)) = (counted, response) {
                    for (name, description) in [
                        ("RateLimit", "what is left of the limit this request counted against and the seconds until it is whole again (`\"moves\";r=59;t=1`), IETF draft-ietf-httpapi-ratelimit-headers"),
                        ("RateLimit-Policy", "the limit: its quota and the window it refills in, in seconds (`\"moves\";q=60;w=3`)"),
                    ] {
                        let header = utoipa::openapi::header::HeaderBuilder::new()
                            .schema(utoipa::openapi::schema::Object::with_type(utoipa::openapi::schema::Type::String))
                            .description(Some(description))
                            .build();
                        response.headers.entry(name.to_string()).or_insert(header);
                    }
                }
            }
        }
    }
}

impl Modify for ExtractorProblems {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            let operations = [&mut item.get, &mut item.put, &mut item.post, &mut item.delete, &mut item.patch];
            for operation in operations.into_iter().flatten() {
                ExtractorProblems::add(operation);
                // A header or a query string has no null: an optional one is left out, not
                // sent as `null` (which would be the text "null").
                for parameter in operation.parameters.iter_mut().flatten() {
                    if let Some(RefOr::T(Schema::Object(schema))) = parameter.schema.as_mut() {
                        use utoipa::openapi::schema::{SchemaType, Type};
                        if let SchemaType::Array(types) = &schema.schema_type {
                            let kept: Vec<Type> = types.iter().filter(|t| **t != Type::Null).cloned().collect();
                            if let [only] = kept.as_slice() {
                                schema.schema_type = SchemaType::Type(only.clone());
                            }
                        }
                        // A count or a seat (`usize`) the service reads up to 2^32 - 1 at least:
                        // say so, rather than leave the bound to the platform.
                        let unsigned = schema.schema_type == SchemaType::Type(Type::Integer)
                            && schema.format.is_none()
                            && schema.minimum.is_some()
                            && schema.maximum.is_none();
                        if unsigned {
                            schema.maximum = Some(utoipa::Number::UInt(u32::MAX as usize));
                        }
                    }
                }
                // An operation that names no security needs none: say so, rather than leave
                // a reader to guess.
                operation.security.get_or_insert_with(Vec::new);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::Value;

    use super::*;

    fn document() -> Value {
        serde_json::to_value(ApiDoc::openapi()).unwrap()
    }

    /// Every schema `value` refers to, and those they refer to in turn.
    fn reachable(doc: &Value, value: &Value) -> BTreeSet<String> {
        fn refs(value: &Value, out: &mut Vec<String>) {
            match value {
                Value::Object(map) => {
                    for (key, inner) in map {
                        match (key.as_str(), inner) {
                            ("$ref", Value::String(r)) => {
                                out.push(r.trim_start_matches("#/components/schemas/").into())
                            }
                            _ => refs(inner, out),
                        }
                    }
                }
                Value::Array(items) => items.iter().for_each(|i| refs(i, out)),
                _ => {}
            }
        }
        let mut seen = BTreeSet::new();
        let mut next = Vec::new();
        refs(value, &mut next);
        while let Some(name) = next.pop() {
            if seen.insert(name.clone()) {
                refs(&doc["components"]["schemas"][&name], &mut next);
            }
        }
        seen
    }

    /// A generated client tells games apart by the `game` of the object that holds a game's
    /// types: from a game's variant of a service schema, every schema reached is that game's own
    /// or shared by all, never another game's.
    #[test]
    fn each_games_objects_reach_only_its_own_types() {
        let doc = document();
        let prefixes: Vec<(String, &str)> =
            engine::playable().iter().map(|g| (engine::schema::pascal(g.id()), g.id())).collect();
        // A name belongs to the game whose prefix is the longest that starts it.
        let owner = |name: &str| {
            prefixes
                .iter()
                .filter(|(p, _)| name.starts_with(p.as_str()))
                .max_by_key(|(p, _)| p.len())
                .map(|(_, id)| *id)
        };
        for container in PER_GAME {
            let union = &doc["components"]["schemas"][container];
            let mapping = union["discriminator"]["mapping"].as_object().expect("a union told apart by `game`");
            assert_eq!(union["discriminator"]["propertyName"], "game");
            assert_eq!(mapping.len(), prefixes.len(), "{container}: one variant per playable game");
            for (game, reference) in mapping {
                let name = reference.as_str().unwrap().trim_start_matches("#/components/schemas/");
                let variant = &doc["components"]["schemas"][name];
                assert_eq!(variant["properties"]["game"]["enum"], serde_json::json!([game]), "{name}");
                assert!(variant["required"].as_array().unwrap().contains(&"game".into()), "{name}");
                for reached in reachable(&doc, variant) {
                    assert!(owner(&reached).is_none_or(|o| o == game), "{name} reaches {reached}, another game's type");
                    assert!(
                        !["Move", "MatchOptions"].contains(&reached.as_str()),
                        "{name} reaches the union {reached}"
                    );
                }
            }
        }
    }

    /// What the service answers never holds a union of every game's types, where a client would
    /// have to guess the game: only request bodies (a move, the options of a deal to check) do.
    #[test]
    fn no_answer_holds_a_union_of_every_game() {
        let doc = document();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                let Some(responses) = operation.get("responses") else { continue };
                for reached in reachable(&doc, responses) {
                    assert!(
                        !["Move", "MatchOptions"].contains(&reached.as_str()),
                        "{method} {path} answers with {reached}, a union of every game's types"
                    );
                }
            }
        }
    }

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
