//! HTTP handlers, one module per resource. Each parses its request, calls the command service
//! (`commands.rs`) or loads the match, and renders the answer; no handler holds game rules or
//! talks to the store itself for a write.
//!
//! Each handler's `#[utoipa::path]` lists the responses the handler itself gives. The problems
//! the shared extractors give before it runs (401 for a bad token, 404 for a path that does not
//! parse, 400 for a query that does not, 400/413/415/422 for JSON bodies) are added to every
//! operation they apply to by `openapi::ExtractorProblems`. `scripts/schemathesis` checks the
//! document against the running service.

pub mod auth;
pub mod checks;
pub mod games;
pub mod health;
pub mod history;
pub mod lists;
pub mod matches;
pub mod moves;
pub mod replay;
pub mod stream;

use engine::game::Viewer;

use crate::auth::Caller;
use crate::matches::Loaded;
use crate::problem::ApiError;

/// The viewer a caller reads as: a seat they hold, or a spectator.
fn viewer_of(loaded: &Loaded, caller: &Caller, requested: Option<usize>) -> Result<(Viewer, Vec<usize>), ApiError> {
    let held = caller.0.as_ref().map(|p| loaded.seats_of(p.id)).unwrap_or_default();
    let viewer = match (requested, held.as_slice()) {
        (Some(seat), _) if held.contains(&seat) => Viewer::Seat(seat),
        (Some(seat), _) => {
            return Err(ApiError::forbidden("not-your-seat", format!("seat {seat} is not yours to look at")))
        }
        (None, []) => Viewer::Spectator,
        (None, held) => {
            let to_act = loaded.table.status().to_act().to_vec();
            Viewer::Seat(held.iter().copied().find(|s| to_act.contains(s)).unwrap_or(held[0]))
        }
    };
    Ok((viewer, held))
}
