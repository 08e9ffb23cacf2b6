//! `Idempotency-Key`: a retried request gets the answer the first attempt got and appends nothing.
//!
//! A move's answer is not stored whole: its row names the seat and the range of events the move
//! appended, and the answer is rebuilt from the log as it stood right after them. Rows written
//! before that kept the whole body, and are still answered from it.

use actix_web::HttpRequest;
use serde_json::Value;
use uuid::Uuid;

use crate::matches::Loaded;
use crate::problem::ApiError;
use crate::store::{self, StoredAnswer, StoredEvent};

/// A keyed request: the client's key, and a fingerprint of what it asked, which tells a retry
/// from a different request sent under the same key.
#[derive(Debug, Clone)]
pub struct Idempotency {
    pub key: String,
    pub request_hash: String,
}

/// The longest key: a UUID is 36 characters, and the key is stored with every keyed request.
pub const KEY_MAX: usize = 200;

/// What a key may hold: visible ASCII, `!` to `~` (no space, tab or other control, nothing a
/// proxy or log might change). The same rule is in the API document's `Idempotency-Key` parameters.
pub fn key(req: &HttpRequest) -> Result<Option<String>, ApiError> {
    let Some(value) = req.headers().get("Idempotency-Key") else { return Ok(None) };
    let bytes = value.as_bytes();
    if bytes.is_empty() || bytes.len() > KEY_MAX || !bytes.iter().all(|b| (0x21..=0x7E).contains(b)) {
        return Err(ApiError::bad_request(
            "invalid-idempotency-key",
            format!("Idempotency-Key must be 1 to {KEY_MAX} visible ASCII characters (! to ~, no spaces or tabs)"),
        ));
    }
    // Visible ASCII is UTF-8.
    Ok(Some(String::from_utf8_lossy(bytes).into_owned()))
}

/// FNV-1a over the parts: it only has to tell a retry from a different request under the same
/// key. The hashes are stored, so the parts and their order are fixed for good.
pub fn fingerprint(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0u8]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The row that lets a retry of this move be answered: the seat it was made from and the events
/// it appended after version `before`, up to `after`.
pub fn answer_row(
    stream: Uuid,
    player: Uuid,
    keyed: &Idempotency,
    seat: usize,
    before: i64,
    after: i64,
) -> StoredAnswer {
    StoredAnswer {
        stream_id: stream,
        player_id: player,
        key: keyed.key.clone(),
        request_hash: keyed.request_hash.clone(),
        status: 200,
        body: None,
        seat: Some(seat as i32),
        first_seq: Some(before + 1),
        last_seq: Some(after),
    }
}

/// What an earlier request under the same key was answered.
pub enum Earlier {
    /// No request with this key landed.
    Unanswered,
    /// One with a different body did.
    KeyReused,
    Answered {
        status: u16,
        answer: EarlierAnswer,
    },
}

pub enum EarlierAnswer {
    /// The match right after the move, the events the move appended and the seat it was made from.
    Rebuilt { after: Box<Loaded>, events: Vec<StoredEvent>, seat: usize },
    /// A row from before answers were rebuilt: the body as it was sent.
    Kept(Value),
}

pub fn earlier(conn: &mut store::Conn, stream: Uuid, player: Uuid, keyed: &Idempotency) -> Result<Earlier, ApiError> {
    let Some(answer) = store::answer(conn, stream, player, &keyed.key)? else { return Ok(Earlier::Unanswered) };
    if answer.request_hash != keyed.request_hash {
        return Ok(Earlier::KeyReused);
    }
    let status = answer.status as u16;
    if let Some(body) = answer.body {
        return Ok(Earlier::Answered { status, answer: EarlierAnswer::Kept(body) });
    }
    let (Some(seat), Some(first), Some(last)) = (answer.seat, answer.first_seq, answer.last_seq) else {
        return Err(ApiError::internal("a stored answer names neither a body nor its events"));
    };
    let mut events = store::read(conn, answer.stream_id, 0, last)?;
    if events.len() as i64 != last || first < 2 || first > last {
        return Err(ApiError::internal(format!(
            "the log of match {} does not hold the answered events",
            answer.stream_id
        )));
    }
    let after = Box::new(Loaded::replay(answer.stream_id, &events).map_err(ApiError::internal)?);
    let events = events.split_off((first - 1) as usize);
    Ok(Earlier::Answered { status, answer: EarlierAnswer::Rebuilt { after, events, seat: seat as usize } })
}
