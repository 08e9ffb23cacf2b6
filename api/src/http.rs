//! What every handler shares on the HTTP side: the language a reader wants, versions as ETags and
//! `If-Match`, rate limits, and turning the command service's errors into problem documents.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::{header, StatusCode};
use actix_web::{web, FromRequest, HttpMessage, HttpRequest, HttpResponse};
use engine::game::Viewer;
use engine::rules::Lang;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::auth::Player;
use crate::commands::{CommandError, ExpectedVersion};
use crate::problem::ApiError;
use crate::ratelimit::Action;
use crate::state::AppState;

/// The language the reader prefers, from `Accept-Language` with its q-values
/// (`sv;q=0.1, en;q=0.9` is English); English when neither is asked for.
pub fn lang(req: &HttpRequest) -> Lang {
    lang_of(req.headers())
}

pub fn lang_of(headers: &header::HeaderMap) -> Lang {
    let wanted = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let mut best: Option<(f32, Lang)> = None;
    for item in wanted.split(',') {
        let mut parts = item.split(';');
        let tag = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        let lang = match tag.split('-').next() {
            Some("sv") => Lang::Sv,
            Some("en") => Lang::En,
            _ => continue,
        };
        if q > 0.0 && best.is_none_or(|(b, _)| q > b) {
            best = Some((q, lang));
        }
    }
    best.map_or(Lang::En, |(_, lang)| lang)
}

/// The browser origins allowed to call the API (`KORTBORD_CORS_ORIGINS`): `*` for any (the
/// default: tokens travel in a header, never in cookies, so another origin gains nothing a
/// script could not do with the token anyway), a comma-separated list of origins, or empty for
/// none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cors {
    None,
    Any,
    Origins(Vec<String>),
}

impl Cors {
    pub fn parse(setting: &str) -> Result<Cors, String> {
        let setting = setting.trim();
        if setting.is_empty() {
            return Ok(Cors::None);
        }
        if setting == "*" {
            return Ok(Cors::Any);
        }
        let origins: Vec<String> = setting.split(',').map(|o| o.trim().trim_end_matches('/').to_string()).collect();
        match origins.iter().find(|o| !(o.starts_with("http://") || o.starts_with("https://")) || o.contains('*')) {
            Some(bad) => Err(format!("KORTBORD_CORS_ORIGINS: {bad:?} is not an origin such as https://app.example")),
            None => Ok(Cors::Origins(origins)),
        }
    }

    /// The `Access-Control-Allow-Origin` value for a request from `origin`, if it is allowed.
    fn allow(&self, origin: &str) -> Option<String> {
        match self {
            Cors::None => None,
            Cors::Any => Some("*".into()),
            Cors::Origins(list) => list.iter().any(|o| o == origin).then(|| origin.to_string()),
        }
    }
}

/// What browsers may send and read across origins.
const CORS_METHODS: &str = "GET, HEAD, POST";
const CORS_HEADERS: &str =
    "Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, Accept, Accept-Language, X-Request-Id";
const CORS_EXPOSED: &str =
    "ETag, Location, Retry-After, Idempotent-Replayed, X-Request-Id, Content-Language, RateLimit, RateLimit-Policy";

/// The edge of the service, before routing: CORS (a preflight is answered here, and every answer
/// to an allowed origin says so), and `HEAD` wherever `GET` is (routed as a GET; the server sends
/// the headers without the body).
pub async fn edge(
    mut req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let cors = req.app_data::<web::Data<Cors>>().map(|c| c.get_ref());
    let origin = req.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let allowed = origin.and_then(|o| cors?.allow(o));
    // An answer that depends on which origin asked must say so to caches.
    let by_origin = matches!(cors, Some(Cors::Origins(_)));
    let preflight = req.method() == actix_web::http::Method::OPTIONS
        && origin.is_some()
        && req.headers().contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    if preflight {
        let mut answer = HttpResponse::NoContent();
        if let Some(allowed) = &allowed {
            answer
                .insert_header((header::ACCESS_CONTROL_ALLOW_ORIGIN, allowed.as_str()))
                .insert_header((header::ACCESS_CONTROL_ALLOW_METHODS, CORS_METHODS))
                .insert_header((header::ACCESS_CONTROL_ALLOW_HEADERS, CORS_HEADERS))
                .insert_header((header::ACCESS_CONTROL_MAX_AGE, "600"));
        }
        if by_origin {
            answer.insert_header((header::VARY, "Origin"));
        }
        return Ok(req.into_response(answer.finish()));
    }
    if req.method() == actix_web::http::Method::HEAD {
        req.head_mut().method = actix_web::http::Method::GET;
    }
    let mut response = next.call(req).await?.map_into_boxed_body();
    let headers = response.headers_mut();
    if let Some(allowed) = allowed {
        if let Ok(value) = header::HeaderValue::from_str(&allowed) {
            headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, value);
            headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, header::HeaderValue::from_static(CORS_EXPOSED));
        }
    }
    if by_origin {
        headers.append(header::VARY, header::HeaderValue::from_static("Origin"));
    }
    Ok(response)
}

/// Whether the request's `Accept` allows what the resource answers in: JSON and problem
/// documents everywhere, plain text from `/metrics`; the API browser under `/docs` serves pages.
/// A missing or empty `Accept` accepts anything.
pub fn acceptable(req: &actix_web::dev::ServiceRequest) -> bool {
    let path = req.path();
    if path == "/docs" || path.starts_with("/docs/") || path.starts_with("/replay/") {
        return true;
    }
    let offered: &[&str] = if path == "/metrics" {
        &["text/plain"]
    } else if path.starts_with("/v1/matches/") && path.ends_with("/export") {
        &["application/x-ndjson", "application/json", "application/problem+json"]
    } else if (path.starts_with("/v1/matches/") && path.ends_with("/stream")) || path == "/v1/me/stream" {
        &["text/event-stream", "application/x-ndjson", "application/problem+json"]
    } else {
        &["application/json", "application/problem+json"]
    };
    let mut ranges = req
        .headers()
        .get_all(header::ACCEPT)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter(|r| !r.trim().is_empty())
        .peekable();
    if ranges.peek().is_none() {
        return true;
    }
    ranges.any(|range| {
        let mut parts = range.split(';');
        let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let refused =
            parts.any(|p| p.trim().strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()) == Some(0.0));
        let (kind, sub) = media.split_once('/').unwrap_or((media.as_str(), ""));
        !refused
            && offered.iter().any(|o| {
                let (okind, osub) = o.split_once('/').unwrap_or((o, ""));
                (kind == "*" && sub == "*") || (kind == okind && (sub == "*" || sub == osub))
            })
    })
}

/// `If-Match: "12"` (or `W/"12"`, or a view's tag such as `"12.seat-0"`): the version the client
/// expects.
pub fn if_match(req: &HttpRequest) -> Result<Option<i64>, ApiError> {
    let Some(v) = req.headers().get(header::IF_MATCH) else { return Ok(None) };
    let text = v.to_str().unwrap_or("").trim();
    let text = text.strip_prefix("W/").unwrap_or(text);
    // A bare version (`If-Match: 12`) is taken too: lenient in what we accept.
    let quoted = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).map(|t| t.split('.').next().unwrap_or(""));
    let version = quoted.or(Some(text).filter(|t| t.bytes().all(|b| b.is_ascii_digit())));
    version.filter(|v| !v.is_empty() && v.len() <= 18).and_then(|v| v.parse::<i64>().ok()).map(Some).ok_or_else(|| {
        ApiError::bad_request("invalid-if-match", "If-Match must be a version as sent in the ETag, e.g. \"12\"")
    })
}

/// The entity tag of what `viewer` sees of a match at `version`: a seat's view, a spectator's
/// and a record differ, so each has its own tag (`"12.seat-0"`, `"12.spectator"`), and a cache
/// that keeps a spectator's copy never answers a seated player with it. The number before the
/// dot is the version `If-Match` takes.
pub fn view_tag(version: i64, viewer: Viewer) -> String {
    match viewer {
        Viewer::Seat(s) => format!("\"{version}.seat-{s}\""),
        Viewer::Spectator => format!("\"{version}.spectator\""),
        Viewer::Record => format!("\"{version}.record\""),
    }
}

/// Whether `If-None-Match` names `tag` (a list, weak tags and `*` included, compared weakly as
/// RFC 9110 asks for GET): the client's copy is current.
pub fn not_modified(req: &HttpRequest, tag: &str) -> bool {
    let opaque = |t: &str| t.trim().trim_start_matches("W/").to_string();
    req.headers().get_all(header::IF_NONE_MATCH).filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(|t| {
        let t = t.trim();
        t == "*" || opaque(t) == opaque(tag)
    })
}

/// A view's answer: 304 when the client's copy is current, else `body`, tagged for its viewer
/// and kept out of shared caches (it depends on who asks).
pub fn viewed(req: &HttpRequest, tag: String, body: &impl Serialize) -> HttpResponse {
    let fresh = not_modified(req, &tag);
    let mut response = if fresh { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    response
        .insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, "private"))
        .insert_header((header::VARY, "Authorization"));
    if fresh {
        response.finish()
    } else {
        response.json(body)
    }
}

/// The version a move was decided on. `If-Match` wins over the body, and its staleness is a
/// failed precondition (412) rather than a conflict (409).
pub fn expected_version(if_match: Option<i64>, in_body: Option<i64>) -> Option<ExpectedVersion> {
    match (if_match, in_body) {
        (Some(v), _) => Some(ExpectedVersion::IfMatch(v)),
        (None, Some(v)) => Some(ExpectedVersion::InBody(v)),
        (None, None) => None,
    }
}

/// Whether the request carries a body: a non-zero length, or a chunked one. (A content type
/// alone does not make a body.)
pub fn has_body(req: &HttpRequest) -> bool {
    let headers = req.headers();
    let length = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).map(str::trim);
    headers.contains_key(header::TRANSFER_ENCODING) || length.is_some_and(|l| l != "0")
}

/// A JSON body that must be an object: serde's derived structs also take an array of their
/// fields in order (`["Ada"]`), which no schema of ours allows. Errors are those of
/// `web::Json` (see `json_config` in lib.rs); one that is no object is a 422 `invalid-body`.
pub struct JsonObject<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for JsonObject<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<JsonObject<T>, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let object = web::Json::<UniqueObject>::from_request(req, payload);
        Box::pin(async move { Ok(JsonObject(from_object(object.await?.into_inner().0)?)) })
    }
}

/// How the error of a body with a repeated key begins: `json_config` (lib.rs) answers it with a
/// 400 `duplicate-key`.
pub const DUPLICATE_KEY: &str = "duplicate key";

/// A JSON object read with every object's keys in it checked for repeats, at any depth. A JSON
/// reader that keeps the last of two (`"dry_run":true,"dry_run":false`) would act on what the
/// sender may not have meant, and another reader of the same text (a proxy, a log) could take the
/// first: such a body is refused. Anything but an object is refused as serde refuses it.
pub struct UniqueObject(pub Map<String, Value>);

impl<'de> serde::Deserialize<'de> for UniqueObject {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<UniqueObject, D::Error> {
        match d.deserialize_any(UniqueKeys)? {
            Value::Object(map) => Ok(UniqueObject(map)),
            other => Err(serde::de::Error::invalid_type(unexpected(&other), &"a JSON object")),
        }
    }
}

fn unexpected(value: &Value) -> serde::de::Unexpected<'_> {
    use serde::de::Unexpected;
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => n.as_f64().map_or(Unexpected::Other("number"), Unexpected::Float),
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// A JSON value, refused at the first object that names a key twice.
struct UniqueKeys;

struct UniqueValue(Value);

impl<'de> serde::Deserialize<'de> for UniqueValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<UniqueValue, D::Error> {
        d.deserialize_any(UniqueKeys).map(UniqueValue)
    }
}

impl<'de> serde::de::Visitor<'de> for UniqueKeys {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(UniqueKeys)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(UniqueValue(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!("{DUPLICATE_KEY} {key:?}: each key may appear once")));
            }
            let UniqueValue(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// A body already read as a JSON object, as `T`.
pub fn from_object<T: DeserializeOwned>(object: Map<String, Value>) -> Result<T, ApiError> {
    let mut body = Value::Object(object);
    integral(&mut body);
    serde_json::from_value(body).map_err(|e| ApiError::unprocessable("invalid-body", e.to_string()))
}

/// JSON has one kind of number, and `3.0` is the integer 3 to JSON Schema: every such number in a
/// body is read as the integer it is, so a version, a seat or a bid sent as `3.0` is taken.
fn integral(value: &mut Value) {
    match value {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.fract() == 0.0 && f.abs() < 9.0e15 {
                *value = Value::from(f as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral),
        Value::Object(map) => map.values_mut().for_each(integral),
        _ => {}
    }
}

/// A JSON answer with its version as the ETag. The body is written with `serde_json::to_vec`, the
/// way idempotent replays are, so a retry gets the very bytes the first attempt got.
pub struct Reply {
    status: StatusCode,
    body: Vec<u8>,
    tag: Option<String>,
    headers: Vec<(&'static str, String)>,
}

impl Reply {
    pub fn new(status: StatusCode, body: &impl Serialize) -> Result<Reply, ApiError> {
        let body = serde_json::to_vec(body).map_err(ApiError::internal)?;
        Ok(Reply { status, body, tag: None, headers: Vec::new() })
    }

    /// The ETag of what `viewer` sees at `version`: the one a read of the match sends
    /// (`view_tag`), so that an answer to a write can be sent back as `If-None-Match` or
    /// `If-Match` as it is.
    pub fn viewed_at(mut self, version: i64, viewer: Viewer) -> Reply {
        self.tag = Some(view_tag(version, viewer));
        self
    }

    pub fn header(mut self, name: &'static str, value: String) -> Reply {
        self.headers.push((name, value));
        self
    }

    pub fn into_response(self) -> HttpResponse {
        let mut r = HttpResponse::build(self.status);
        if let Some(tag) = self.tag {
            r.insert_header((header::ETAG, tag));
        }
        for (name, value) in self.headers {
            r.insert_header((name, value));
        }
        r.content_type(header::ContentType::json()).body(self.body)
    }
}

/// Counts the request against the player's limit for `action`; the answer says where the player
/// stands (`RateLimit`, `RateLimit-Policy`, added on the way out by `telemetry::request_id`).
pub fn rate_limit(req: &HttpRequest, state: &AppState, player: &Player, action: Action) -> Result<(), ApiError> {
    let (checked, quota) = state.limiter.check(player.id, action);
    req.extensions_mut().insert(quota);
    checked.map_err(|wait| rate_limited(state, format!("too many requests from this player: wait {wait} s"), wait))
}

/// Tokens are minted and renewed per client address at a bounded rate: a fresh token is a fresh
/// rate bucket for everything else, so unbounded minting would bound nothing.
pub fn address_limit(state: &AppState, req: &HttpRequest) -> Result<(), ApiError> {
    let address = req.peer_addr().map(|a| a.ip()).unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
    let (checked, quota) = state.limiter.check_address(address);
    req.extensions_mut().insert(quota);
    checked.map_err(|wait| {
        rate_limited(state, format!("too many tokens asked for from this address: wait {wait} s"), wait)
    })
}

/// A 429 that says when to come back, counted in the metrics.
fn rate_limited(state: &AppState, detail: String, wait: u64) -> ApiError {
    state.metrics.rate_limited.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut e = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate-limited", "Too many requests", detail);
    e.retry_after = Some(wait);
    e
}

/// The problem document for a command that did not go through, in the reader's language (only
/// the rules' own explanations are translated).
pub fn command_problem(error: CommandError, lang: Lang) -> ApiError {
    match error {
        CommandError::BreaksRule(game, v) => ApiError::violation(&game, v, lang),
        CommandError::NotAMove(m) => ApiError::bad_request("invalid-move", m),
        CommandError::Stale { current, expected } => {
            ApiError::stale(current, expected.version(), matches!(expected, ExpectedVersion::IfMatch(_)))
        }
        CommandError::NotStarted => ApiError::conflict("match-not-started", "the match is waiting for players to join"),
        CommandError::LostRace { current } => ApiError::lost_race(current),
        CommandError::KeyReused => ApiError::unprocessable(
            "idempotency-key-reused",
            "this Idempotency-Key was already used for a different request",
        ),
        CommandError::Other(e) => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stale `If-Match` is a failed precondition even when the body names a version too; a stale
    /// version in the body alone is a conflict. Clients tell the two apart by status.
    #[test]
    fn stale_versions_answer_by_where_they_were_sent() {
        let stale = |expected| command_problem(CommandError::Stale { current: 7, expected }, Lang::En);
        let by_header = stale(expected_version(Some(5), Some(6)).unwrap());
        assert_eq!((by_header.status.as_u16(), by_header.problem.code), (412, "precondition-failed"));
        assert!(by_header.problem.detail.starts_with("expected version 5,"), "{}", by_header.problem.detail);
        let in_body = stale(expected_version(None, Some(6)).unwrap());
        assert_eq!((in_body.status.as_u16(), in_body.problem.code), (409, "version-conflict"));
        assert_eq!(in_body.problem.current_version, Some(7));
        assert_eq!(expected_version(None, None), None);
    }
}
