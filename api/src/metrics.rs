//! Prometheus metrics, exposed at `/metrics` in the text format: requests by route and status,
//! request latency, appends, version conflicts and replay time. Hand-written: a few counters and
//! histograms do not need a metrics framework.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Upper bounds, in seconds, of the latency buckets.
const BUCKETS: [f64; 12] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];

#[derive(Default)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

impl Histogram {
    fn observe(&mut self, seconds: f64) {
        for (i, bound) in BUCKETS.iter().enumerate() {
            if seconds <= *bound {
                self.counts[i] += 1;
            }
        }
        self.count += 1;
        self.sum += seconds;
    }

    fn render(&self, out: &mut String, name: &str, labels: &str) {
        let sep = if labels.is_empty() { "" } else { "," };
        for (bound, count) in BUCKETS.iter().zip(self.counts) {
            let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{bound}\"}} {count}");
        }
        let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {}", self.count);
        let braces = if labels.is_empty() { String::new() } else { format!("{{{labels}}}") };
        let _ = writeln!(out, "{name}_sum{braces} {}", self.sum);
        let _ = writeln!(out, "{name}_count{braces} {}", self.count);
    }
}

#[derive(Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, String, u16), u64>>,
    latency: Mutex<BTreeMap<String, Histogram>>,
    replay: Mutex<Histogram>,
    pub events_appended: AtomicU64,
    pub appends: AtomicU64,
    pub conflicts: AtomicU64,
    pub rate_limited: AtomicU64,
    /// Statements sent for reads and appends, and the requests they carried (`batch.rs`).
    read_batches: AtomicU64,
    reads_batched: AtomicU64,
    append_batches: AtomicU64,
    appends_batched: AtomicU64,
    pub batch_fallbacks: AtomicU64,
}

impl Metrics {
    pub fn request(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        *self
            .requests
            .lock()
            .expect("metrics lock")
            .entry((method.to_string(), route.to_string(), status))
            .or_default() += 1;
        self.latency
            .lock()
            .expect("metrics lock")
            .entry(format!("{method} {route}"))
            .or_default()
            .observe(elapsed.as_secs_f64());
    }

    pub fn replayed(&self, elapsed: Duration) {
        self.replay.lock().expect("metrics lock").observe(elapsed.as_secs_f64());
    }

    /// One statement carrying `requests` reads or appends.
    pub fn batch(&self, kind: &str, requests: usize) {
        let (batches, batched) = if kind == "read" {
            (&self.read_batches, &self.reads_batched)
        } else {
            (&self.append_batches, &self.appends_batched)
        };
        batches.fetch_add(1, Ordering::Relaxed);
        batched.fetch_add(requests as u64, Ordering::Relaxed);
    }

    pub fn appended(&self, events: usize) {
        self.appends.fetch_add(1, Ordering::Relaxed);
        self.events_appended.fetch_add(events as u64, Ordering::Relaxed);
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str("# HELP kortbord_http_requests_total HTTP requests by route and status.\n# TYPE kortbord_http_requests_total counter\n");
        for ((method, route, status), n) in self.requests.lock().expect("metrics lock").iter() {
            let _ = writeln!(
                out,
                "kortbord_http_requests_total{{method=\"{method}\",route=\"{}\",status=\"{status}\"}} {n}",
                escape(route)
            );
        }
        out.push_str("# HELP kortbord_http_request_duration_seconds Time to answer a request.\n# TYPE kortbord_http_request_duration_seconds histogram\n");
        for (key, h) in self.latency.lock().expect("metrics lock").iter() {
            let (method, route) = key.split_once(' ').unwrap_or(("", key));
            h.render(
                &mut out,
                "kortbord_http_request_duration_seconds",
                &format!("method=\"{method}\",route=\"{}\"", escape(route)),
            );
        }
        out.push_str("# HELP kortbord_replay_duration_seconds Time to derive a match's state from events read from the database.\n# TYPE kortbord_replay_duration_seconds histogram\n");
        self.replay.lock().expect("metrics lock").render(&mut out, "kortbord_replay_duration_seconds", "");
        for (name, help, value) in [
            ("kortbord_appends_total", "Successful appends (one per move, creation or join).", &self.appends),
            ("kortbord_events_appended_total", "Events written.", &self.events_appended),
            (
                "kortbord_version_conflicts_total",
                "Appends refused because another landed first, or a stale expected version.",
                &self.conflicts,
            ),
            ("kortbord_rate_limited_total", "Requests refused with 429.", &self.rate_limited),
            (
                "kortbord_db_read_statements_total",
                "Statements that read newer events; each carries the reads queued while the last one ran.",
                &self.read_batches,
            ),
            ("kortbord_db_reads_total", "Reads of newer events carried by those statements.", &self.reads_batched),
            (
                "kortbord_db_append_statements_total",
                "Statements that appended the moves queued while the last one ran.",
                &self.append_batches,
            ),
            ("kortbord_db_appends_total", "Appends carried by those statements.", &self.appends_batched),
            (
                "kortbord_db_append_fallbacks_total",
                "Batches that collided and were appended one by one.",
                &self.batch_fallbacks,
            ),
        ] {
            let _ =
                writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}", value.load(Ordering::Relaxed));
        }
        out
    }
}

fn escape(label: &str) -> String {
    label.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_and_cumulative_histograms() {
        let m = Metrics::default();
        m.request("POST", "/v1/matches/{id}/moves", 200, Duration::from_millis(3));
        m.request("POST", "/v1/matches/{id}/moves", 409, Duration::from_millis(30));
        m.appended(4);
        let text = m.render();
        assert!(text.contains(
            "kortbord_http_requests_total{method=\"POST\",route=\"/v1/matches/{id}/moves\",status=\"409\"} 1"
        ));
        assert!(text.contains("le=\"0.005\"} 1"));
        assert!(text.contains("le=\"0.05\"} 2"));
        assert!(text.contains("le=\"+Inf\"} 2"));
        assert!(text.contains("kortbord_events_appended_total 4"));
    }
}
