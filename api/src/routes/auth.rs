//! Guest tokens.

use actix_web::http::StatusCode;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use engine::rules::Lang;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::{bearer, Keys, Player};
use crate::http::{address_limit, from_object, has_body, lang, UniqueObject};
use crate::problem::{ApiError, Problem};
use crate::state::AppState;

#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Ada"}))]
pub struct GuestRequest {
    /// A display name; "Guest" when left out. 1 to 40 characters, taken as sent (not trimmed):
    /// no control characters, no format characters (Unicode category Cf: zero-width characters,
    /// bidi overrides, embeddings and isolates, soft hyphens, the BOM, tags, including the ones
    /// beyond U+FFFF that the pattern cannot name: U+110BD, U+110CD, U+13430-U+1343F,
    /// U+1BCA0-U+1BCA3, U+1D173-U+1D17A, U+E0001, U+E0020-U+E007F), no line or paragraph
    /// separators; and neither first nor last a character that shows nothing (white space or a
    /// blank such as U+3164 or U+2800), so at least one character is visible.
    // The length and `pattern` are set by `openapi::RequestRules` from the tables below.
    pub name: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GuestToken {
    pub token: String,
    pub player_id: Uuid,
    pub name: String,
    /// Unix time in seconds.
    pub expires_at: u64,
    /// The same moment in RFC 3339 (UTC), as every other time in the API.
    #[schema(format = DateTime)]
    pub expires_at_rfc3339: String,
}

/// A guest player's token
///
/// Mints a token for a new guest player. Send it as `Authorization: Bearer <token>` on every
/// write and on reads of your own seats. The body is optional; one that is sent must be a valid
/// `GuestRequest` (or `null`). The name is shown to the other players at the table.
#[utoipa::path(post, path = "/v1/auth/guest", tag = "auth", request_body(content = Option<GuestRequest>),
    responses((status = 201, body = GuestToken),
              (status = 400, description = "the body is not JSON",
               body = Problem, content_type = "application/problem+json"),
              (status = 422, description = "the name breaks the rule of `GuestRequest.name` (`invalid-name`), or \
                                            the body is no `GuestRequest`",
               body = Problem, content_type = "application/problem+json"),
              (status = 429, description = "too many tokens asked for from this address",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[post("/v1/auth/guest")]
pub async fn guest(
    req: HttpRequest,
    keys: web::Data<Keys>,
    state: Option<web::Data<AppState>>,
    body: Result<web::Json<Option<UniqueObject>>, actix_web::Error>,
) -> actix_web::Result<HttpResponse> {
    let body: Option<GuestRequest> = match body {
        // An object only: a derived struct would take `["Ada"]` as its fields in order.
        Ok(body) => body.into_inner().map(|o| from_object(o.0)).transpose()?,
        // No body at all: a guest with the default name. Any body that is sent must be valid.
        Err(_) if !has_body(&req) => None,
        Err(e) => return Err(e),
    };
    let name = body.and_then(|b| b.name).unwrap_or_else(|| "Guest".into());
    check_name(&name, lang(&req))?;
    if let Some(state) = &state {
        address_limit(state, &req)?;
    }
    let player_id = Uuid::new_v4();
    let (token, expires_at) = keys.issue(player_id, &name);
    let expires_at_rfc3339 = rfc3339(expires_at);
    Ok(HttpResponse::Created().json(GuestToken { token, player_id, name, expires_at, expires_at_rfc3339 }))
}

/// Renews a token
///
/// A new token for the same player (the same `player_id` and name, so every seat they hold stays
/// theirs), from the token sent as `Authorization: Bearer <token>`. The token may be valid still
/// or have expired up to 30 days ago; an app renews it when it starts, or when a request answers
/// `token-expired`.
#[utoipa::path(post, path = "/v1/auth/renew", tag = "auth", security(("bearer" = [])),
    responses((status = 201, body = GuestToken),
              (status = 401, description = "no token, one this service did not issue, or one that expired more than 30 \
                                            days ago",
               body = Problem, content_type = "application/problem+json"),
              (status = 429, description = "too many tokens asked for from this address",
               body = Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "seconds to wait")))))]
#[post("/v1/auth/renew")]
pub async fn renew(
    req: HttpRequest,
    keys: web::Data<Keys>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let token = bearer(&req)?.ok_or_else(|| {
        ApiError::unauthorized("missing-token", "send the token to renew as 'Authorization: Bearer <token>'")
    })?;
    let claims = keys.verify_for_renewal(token)?;
    address_limit(&state, &req)?;
    let (token, expires_at) = keys.issue(claims.sub, &claims.name);
    let expires_at_rfc3339 = rfc3339(expires_at);
    Ok(HttpResponse::Created().json(GuestToken {
        token,
        player_id: claims.sub,
        name: claims.name,
        expires_at,
        expires_at_rfc3339,
    }))
}

/// Who you are
///
/// The player the bearer token stands for: their id, the name the table shows and when the
/// token expires.
#[utoipa::path(get, path = "/v1/me", tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = Me)))]
#[get("/v1/me")]
pub async fn me(player: Player) -> HttpResponse {
    let expires_at_rfc3339 = rfc3339(player.expires_at);
    HttpResponse::Ok().json(Me {
        player_id: player.id,
        name: player.name,
        expires_at: player.expires_at,
        expires_at_rfc3339,
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Me {
    pub player_id: Uuid,
    pub name: String,
    /// When the token expires, in Unix seconds; renew it with `POST /v1/auth/renew`.
    pub expires_at: u64,
    /// The same moment in RFC 3339 (UTC).
    #[schema(format = DateTime)]
    pub expires_at_rfc3339: String,
}

/// A Unix time in seconds in RFC 3339, UTC.
pub fn rfc3339(unix_secs: u64) -> String {
    chrono::DateTime::from_timestamp(i64::try_from(unix_secs).unwrap_or(i64::MAX), 0)
        .unwrap_or(chrono::DateTime::<chrono::Utc>::MAX_UTC)
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

pub const NAME_MAX_CHARS: usize = 40;

/// What a name may not hold anywhere (inclusive ranges of code points): control characters
/// (Cc), format characters (Cf: zero-width ones, bidi overrides, embeddings and isolates that
/// make `"\u{202e}adA"` show as "Ada", the soft hyphen, the BOM, tags), and the line and
/// paragraph separators. The Cf list is Unicode 15.1's.
pub const NAME_FORBIDDEN: &[(u32, u32)] = &[
    (0x0000, 0x001F),
    (0x007F, 0x009F),
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x2028, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// What shows nothing: white space and the blanks that are letters or symbols to Unicode (the
/// Hangul fillers, the blank braille pattern, the invisible Khmer vowels, the combining grapheme
/// joiner). A name may hold them between visible characters, but not begin or end with them,
/// so at least one character shows.
pub const NAME_BLANK: &[(u32, u32)] = &[
    (0x0020, 0x0020),
    (0x00A0, 0x00A0),
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x1680, 0x1680),
    (0x17B4, 0x17B5),
    (0x2000, 0x200A),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x2800, 0x2800),
    (0x3000, 0x3000),
    (0x3164, 0x3164),
    (0xFFA0, 0xFFA0),
];

fn within(c: char, ranges: &[(u32, u32)]) -> bool {
    ranges.iter().any(|&(low, high)| (low..=high).contains(&(c as u32)))
}

fn visible(c: char) -> bool {
    !within(c, NAME_FORBIDDEN) && !within(c, NAME_BLANK) && !c.is_whitespace()
}

/// A name as sent (not trimmed: what the player sees is what was checked).
pub fn check_name(name: &str, lang: Lang) -> Result<(), ApiError> {
    let count = name.chars().count();
    let fits = (1..=NAME_MAX_CHARS).contains(&count)
        && !name.chars().any(|c| within(c, NAME_FORBIDDEN))
        && name.chars().next().is_some_and(visible)
        && name.chars().last().is_some_and(visible);
    if fits {
        return Ok(());
    }
    Err(ApiError::translated(
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid-name",
        lang,
        ("Ogiltigt namn", "Invalid name"),
        (
            "Ett namn är 1 till 40 tecken utan styr- och formattecken, och börjar och slutar med ett synligt tecken.",
            "A name is 1 to 40 characters without control or format characters, and begins and ends with a \
             visible character.",
        ),
    ))
}

/// The name rule as a regular expression for the API document, from the same tables. JSON
/// Schema patterns are ECMA-262 expressions, which name code points beyond U+FFFF only in their
/// Unicode mode: the pattern leaves those out (the schema's description lists them).
pub fn name_pattern() -> String {
    let class = |ranges: &[&[(u32, u32)]]| {
        let mut all: Vec<(u32, u32)> =
            ranges.iter().flat_map(|r| r.iter().copied()).filter(|r| r.1 <= 0xFFFF).collect();
        all.sort();
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for (low, high) in all {
            match merged.last_mut() {
                Some(last) if low <= last.1 + 1 => last.1 = last.1.max(high),
                _ => merged.push((low, high)),
            }
        }
        let mut out = String::from("[^");
        for (low, high) in merged {
            out += &format!("\\u{low:04X}");
            if high > low {
                out += &format!("-\\u{high:04X}");
            }
        }
        out + "]"
    };
    // White space that is not blank already is in the forbidden controls (tab to carriage
    // return, U+0085) or the separators (U+2028, U+2029).
    let edge = class(&[NAME_FORBIDDEN, NAME_BLANK]);
    let inner = class(&[NAME_FORBIDDEN]);
    format!("^{edge}({inner}*{edge})?$")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_show_what_they_say() {
        let ok = ["Ada", "Ada Lovelace", "Åsa-Nisse", "李小龍", "x", "🂡 Spader", "Ada\u{3164}Bo"];
        for name in ok {
            assert!(check_name(name, Lang::En).is_ok(), "{name:?}");
        }
        let refused = [
            "",
            " ",
            "\u{200b}",
            "\u{200b}\u{200c}",
            "\u{3164}",
            "\u{2800}",
            "\u{00a0}",
            " Ada",
            "Ada ",
            "\u{202e}adA",
            "A\u{2066}da",
            "Ada\u{0007}",
            "Ada\nBo",
            "A\u{ad}da",
            "Ada\u{e0041}",
            "\u{feff}Ada",
            "A\u{2028}B",
        ];
        for name in refused {
            let e = check_name(name, Lang::En).expect_err(name);
            assert_eq!((e.status.as_u16(), e.problem.code), (422, "invalid-name"));
        }
        assert!(check_name(&"x".repeat(40), Lang::En).is_ok());
        assert!(check_name(&"x".repeat(41), Lang::En).is_err());
        // The Unicode white space `char::is_whitespace` knows is all forbidden or blank.
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32).filter(|c| c.is_whitespace()) {
            assert!(within(c, NAME_FORBIDDEN) || within(c, NAME_BLANK), "{:04X}", c as u32);
        }
    }

    #[test]
    fn the_pattern_is_drawn_from_the_tables() {
        let pattern = name_pattern();
        assert!(pattern.starts_with("^[^\\u0000-\\u0020\\u007F-\\u00A0\\u00AD\\u034F"), "{pattern}");
        assert!(pattern.contains("]([^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600"), "{pattern}");
        assert!(!pattern.contains("\\u110BD"), "{pattern}");
    }
}
