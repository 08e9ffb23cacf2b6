//! The replay viewer: a page that draws a finished deal on a table, step by step, for people
//! (`/replay/{id}/deals/{deal}`). It is plain HTML, CSS and JavaScript embedded in the binary;
//! the script reads the public API only (the match, the deal's record, its replay steps and the
//! game's rulebook). Per-game drawing lives in one asset, `tables.js`.
//!
//! These are pages, not API operations: they are left out of the OpenAPI document.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{get, web, HttpRequest, HttpResponse};
use engine::rules::Lang;
use uuid::Uuid;

use crate::commands::{load_with, with_db};
use crate::problem::ApiError;
use crate::state::AppState;

const PAGE: &str = include_str!("replay/page.html");

/// The page's assets, by the name they are served under (`/replay/assets/{name}`).
const ASSETS: &[(&str, &str, &str)] = &[
    ("replay.js", "text/javascript; charset=utf-8", include_str!("replay/replay.js")),
    ("tables.js", "text/javascript; charset=utf-8", include_str!("replay/tables.js")),
    ("replay.css", "text/css; charset=utf-8", include_str!("replay/replay.css")),
];

/// Scripts and styles come from this service only; the API is called on the same origin.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/// The replay page for a deal of a match. A match that does not exist is a 404: a page saying
/// so for a browser (`Accept` naming `text/html`), a problem document for anyone else. Whether
/// the deal exists and is over is the script's to find out from the API, and to say.
#[get("/replay/{id}/deals/{deal}")]
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(Uuid, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (id, _deal) = path.into_inner();
    let state = state.into_inner();
    let found = with_db(&state.clone(), move || {
        let mut conn = state.pool.get()?;
        load_with(&mut conn, &state, id).map(|_| ())
    })
    .await;
    match found {
        Ok(()) => Ok(html(StatusCode::OK, PAGE.to_string())),
        Err(e) if e.status == StatusCode::NOT_FOUND && wants_html(&req) => {
            Ok(html(StatusCode::NOT_FOUND, missing_page(id, crate::http::lang(&req))))
        }
        Err(e) => Err(e),
    }
}

/// The page's script and style sheet.
#[get("/replay/assets/{name}")]
pub async fn asset(path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let name = path.into_inner();
    let (_, content_type, body) =
        ASSETS.iter().find(|(n, _, _)| *n == name).ok_or_else(|| ApiError::not_found(&format!("the asset {name}")))?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, *content_type))
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(*body))
}

fn html(status: StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP)))
        .body(body)
}

fn wants_html(req: &HttpRequest) -> bool {
    req.headers()
        .get_all(header::ACCEPT)
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.to_ascii_lowercase().contains("text/html"))
}

fn missing_page(id: Uuid, lang: Lang) -> String {
    let (code, title, text) = match lang {
        Lang::Sv => ("sv", "Ingen sådan match", format!("Det finns ingen match med id {id}.")),
        Lang::En => ("en", "No such match", format!("There is no match with id {id}.")),
    };
    format!(
        "<!doctype html><html lang=\"{code}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/replay/assets/replay.css\"></head>\
         <body><main class=\"missing\"><h1>{title}</h1><p id=\"problem\">{text}</p></main></body></html>",
    )
}
