//! Guest tokens.

use actix_web::{post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::Keys;
use crate::http::has_body;
use crate::problem::{ApiError, Problem};

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
              (status = 400, description = "the name is empty, too long or has control characters; or the body \
                                            is not JSON",
               body = Problem, content_type = "application/problem+json")))]
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
