//! The connection under HTTP. actix-http answers a request whose head it cannot parse (a NUL or
//! another control byte in a header, a malformed request line, a head past its size) itself,
//! before any of the service's code runs, with a bare `400 Bad Request` (or `431`) and no body,
//! and closes the connection. A client then gets no problem document, unlike every other refusal.
//! Each connection is wrapped here: such an answer, the last bytes written on the connection and
//! the only answer without the `X-Request-Id` that every answer of the service carries, is
//! rewritten into a problem document (`malformed-request`, `headers-too-large`) as it is written.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use actix_web::rt::net::TcpStream;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A TCP connection whose bare parse-error answer leaves as a problem document.
pub struct Wire {
    io: TcpStream,
    /// Bytes taken from the writer, with the rewritten answer in them, not yet on the socket.
    pending: Vec<u8>,
}

impl Wire {
    pub fn new(io: TcpStream) -> Wire {
        Wire { io, pending: Vec::new() }
    }

    fn flush_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.pending.is_empty() {
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &self.pending))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.pending.drain(..n);
        }
        self.pending = Vec::new();
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Wire {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Wire {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        ready!(self.flush_pending(cx))?;
        if let Some((at, answer)) = bare_error(buf) {
            let mut pending = buf[..at].to_vec();
            pending.extend_from_slice(&answer);
            self.pending = pending;
            // Taken whole: what the socket does not take now is written by the next flush.
            if let Poll::Ready(Err(e)) = self.flush_pending(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.flush_pending(cx))?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.flush_pending(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// Where in `buf` actix-http's own answer to a request it could not parse begins, and the problem
/// document to send in its place: a `400` or `431` head with an empty body, at the very end of
/// what is written, without the `x-request-id` header the service puts on every answer of its own.
fn bare_error(buf: &[u8]) -> Option<(usize, Vec<u8>)> {
    if !buf.ends_with(b"\r\n\r\n") {
        return None;
    }
    let at = find_last(buf, b"HTTP/1.1 4").or_else(|| find_last(buf, b"HTTP/1.0 4"))?;
    let head = std::str::from_utf8(&buf[at..]).ok()?;
    let lower = head.to_ascii_lowercase();
    let status: u16 = head.get(9..12)?.parse().ok()?;
    let one_head = !head[..head.len() - 4].contains("\r\n\r\n");
    if !one_head || lower.contains("\r\nx-request-id:") || !lower.contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let (code, title, detail) = match status {
        400 => (
            "malformed-request",
            "Bad request",
            "the request could not be read as HTTP: a header holds a control character (NUL, a line feed, \
             DEL...) or a header, the request line or the framing is malformed",
        ),
        431 => ("headers-too-large", "Request header fields too large", "the request's head is too large"),
        _ => return None,
    };
    let date = head.split("\r\n").find(|l| l.to_ascii_lowercase().starts_with("date:")).map(|l| format!("{l}\r\n"));
    let id = uuid::Uuid::new_v4();
    let body = serde_json::json!({
        "type": format!("urn:kortbord:problem:{code}"),
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        "request_id": id.to_string(),
    })
    .to_string();
    let reason = if status == 400 { "Bad Request" } else { "Request Header Fields Too Large" };
    let answer = format!(
        "{version} {status} {reason}\r\ncontent-type: application/problem+json\r\ncontent-length: {length}\r\n\
         content-language: en\r\nconnection: close\r\nx-request-id: {id}\r\n{date}\r\n{body}",
        version = &head[..8],
        length = body.len(),
        date = date.unwrap_or_default(),
    );
    Some((at, answer.into_bytes()))
}

fn find_last(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_parsers_bare_answer_is_rewritten() {
        let bare = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\ndate: Sat, 28 Nov 2026 04:00:00 GMT\r\n\r\n";
        let (at, answer) = bare_error(bare).expect("rewritten");
        assert_eq!(at, 0);
        let text = String::from_utf8(answer).unwrap();
        assert!(text.starts_with("HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\n"), "{text}");
        assert!(text.contains("date: Sat, 28 Nov 2026 04:00:00 GMT\r\n"), "{text}");
        let body: serde_json::Value = serde_json::from_str(text.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        assert_eq!(body["code"], "malformed-request");
        // An earlier answer on the same connection stays as it was.
        let mut two = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nx-request-id: a\r\n\r\n{}".to_vec();
        two.extend_from_slice(bare);
        assert_eq!(bare_error(&two).map(|(at, _)| at), Some(two.len() - bare.len()));
        // The service's own answers carry a request id, and are never touched.
        let own = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nx-request-id: b\r\n\r\n";
        assert!(bare_error(own).is_none());
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert!(bare_error(ok).is_none());
    }
}
