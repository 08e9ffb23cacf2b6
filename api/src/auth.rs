//! Players' tokens: HS256 JWTs issued to guests, checked on every write.

use std::future::{ready, Ready};
use std::time::{SystemTime, UNIX_EPOCH};

use actix_web::dev::Payload;
use actix_web::{http::header, web, FromRequest, HttpRequest};
use jsonwebtoken::{decode, encode, errors::ErrorKind, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::problem::ApiError;

const ISSUER: &str = "kortbord";

/// A token may be renewed up to 30 days after it expired (`KORTBORD_RENEW_WINDOW_SECS`).
pub const RENEW_WINDOW_SECS: u64 = 30 * 24 * 3600;

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    pub sub: Uuid,
    pub name: String,
    pub iss: String,
    pub iat: u64,
    pub nbf: u64,
    pub exp: u64,
}

pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    pub ttl_secs: u64,
    /// How long after it expires a token may still be renewed (`POST /v1/auth/renew`).
    pub renew_window_secs: u64,
}

impl Keys {
    pub fn new(secret: &str, ttl_secs: u64) -> Keys {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 5;
        validation.validate_nbf = true;
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "nbf", "iss", "sub"]);
        Keys {
            encoding: EncodingKey::from_secret(secret.as_bytes()),
            decoding: DecodingKey::from_secret(secret.as_bytes()),
            validation,
            ttl_secs,
            renew_window_secs: RENEW_WINDOW_SECS,
        }
    }

    pub fn with_renew_window(mut self, secs: u64) -> Keys {
        self.renew_window_secs = secs;
        self
    }

    /// The claims of a token this service issued that is valid now or expired less than the
    /// renewal window ago: what a renewal keeps (the player and the name).
    pub fn verify_for_renewal(&self, token: &str) -> Result<Claims, ApiError> {
        let mut validation = self.validation.clone();
        validation.validate_exp = false;
        let claims = decode::<Claims>(token, &self.decoding, &validation)
            .map(|d| d.claims)
            .map_err(|_| ApiError::unauthorized("invalid-token", "the token is not one this service issued"))?;
        if claims.exp.saturating_add(self.renew_window_secs) < now_secs() {
            return Err(ApiError::unauthorized(
                "token-expired",
                format!(
                    "the token expired more than {} days ago and can no longer be renewed",
                    self.renew_window_secs / 86_400
                ),
            ));
        }
        Ok(claims)
    }

    pub fn issue(&self, player: Uuid, name: &str) -> (String, u64) {
        let now = now_secs();
        let claims = Claims {
            sub: player,
            name: name.to_string(),
            iss: ISSUER.into(),
            iat: now,
            nbf: now,
            exp: now + self.ttl_secs,
        };
        let token = encode(&Header::new(Algorithm::HS256), &claims, &self.encoding).expect("HS256 signing cannot fail");
        (token, claims.exp)
    }

    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        decode::<Claims>(token, &self.decoding, &self.validation).map(|d| d.claims).map_err(|e| match e.kind() {
            ErrorKind::ExpiredSignature => {
                ApiError::unauthorized("token-expired", "the token has expired: ask for a new one")
            }
            ErrorKind::ImmatureSignature => ApiError::unauthorized("invalid-token", "the token is not valid yet"),
            _ => ApiError::unauthorized("invalid-token", "the token is not one this service issued"),
        })
    }
}

pub fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// An authenticated player: the request carried a valid bearer token.
#[derive(Debug, Clone)]
pub struct Player {
    pub id: Uuid,
    pub name: String,
    /// When the token expires (Unix seconds).
    pub expires_at: u64,
}

/// A caller who may or may not have sent a token (reads are open to spectators); a token that is
/// sent must be valid.
#[derive(Debug, Clone)]
pub struct Caller(pub Option<Player>);

/// The bearer token the request carries, if it sends an `Authorization` header at all.
pub fn bearer(req: &HttpRequest) -> Result<Option<&str>, ApiError> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else { return Ok(None) };
    let value =
        value.to_str().map_err(|_| ApiError::unauthorized("invalid-token", "the Authorization header is not text"))?;
    let token = value
        .strip_prefix("Bearer ")
        .ok_or_else(|| ApiError::unauthorized("invalid-token", "use 'Authorization: Bearer <token>'"))?;
    Ok(Some(token.trim()))
}

fn from_request(req: &HttpRequest) -> Result<Option<Player>, ApiError> {
    let Some(token) = bearer(req)? else { return Ok(None) };
    let keys = req.app_data::<web::Data<Keys>>().expect("keys are registered");
    let claims = keys.verify(token)?;
    Ok(Some(Player { id: claims.sub, name: claims.name, expires_at: claims.exp }))
}

impl FromRequest for Player {
    type Error = ApiError;
    type Future = Ready<Result<Player, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(from_request(req).and_then(|p| {
            p.ok_or_else(|| {
                ApiError::unauthorized(
                    "missing-token",
                    "this request needs 'Authorization: Bearer <token>' (POST /v1/auth/guest gives one)",
                )
            })
        }))
    }
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Caller, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(from_request(req).map(Caller))
    }
}
