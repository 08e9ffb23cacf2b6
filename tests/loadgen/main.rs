//! Load generator: plays many matches at once over HTTP, each seat a simulated client with its
//! own token choosing legal moves, for a given time or number of moves. Reports durable moves
//! per second, latency percentiles and errors by status, and at the end checks what was stored:
//! every match reads back, on every node, at the version and state its clients last saw; every
//! acknowledged append (creation, join, move) is in the match's event log, at the place its
//! answer named, exactly once; the log holds no append nobody was answered for, unless a
//! request's outcome stayed unknown; and finished deals replay.
//!
//!   loadgen --url http://127.0.0.1:8080[,http://127.0.0.1:8081] --matches 64 --seconds 20
//!
//! Requests spread over the URLs round-robin (with `--failover`: all go to the first URL until
//! it fails on the network, then to the next). A request that fails on the network is retried
//! on the next URL with the same Idempotency-Key; a 503 answer is retried the same way, after
//! its Retry-After, for up to `--retry-unavailable-secs` (default 30; 0 turns it off).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use engine::random::Rng;
use serde::Deserialize;
use serde_json::{json, Value};

struct Config {
    urls: Vec<String>,
    matches: usize,
    seconds: u64,
    moves: Option<u64>,
    game: String,
    players: usize,
    failover: bool,
    retry_unavailable: Duration,
}

const USAGE: &str = "usage: loadgen [--url U[,U…]] [--matches N] [--seconds S] [--moves N] [--game ID] [--players N] [--failover] [--retry-unavailable-secs S]";

fn parse_args() -> Config {
    let mut c = Config {
        urls: vec!["http://127.0.0.1:8080".into()],
        matches: 64,
        seconds: 20,
        moves: None,
        game: "plump".into(),
        players: 4,
        failover: false,
        retry_unavailable: Duration::from_secs(30),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--failover" {
            c.failover = true;
            i += 1;
            continue;
        }
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--url" => c.urls = value.split(',').map(|u| u.trim_end_matches('/').to_string()).collect(),
            "--matches" => c.matches = value.parse().expect("--matches N"),
            "--seconds" => c.seconds = value.parse().expect("--seconds N"),
            "--moves" => c.moves = Some(value.parse().expect("--moves N")),
            "--game" => c.game = value,
            "--players" => c.players = value.parse().expect("--players N"),
            "--retry-unavailable-secs" => {
                c.retry_unavailable = Duration::from_secs(value.parse().expect("--retry-unavailable-secs S"))
            }
            other => {
                eprintln!("unknown argument {other}\n{USAGE}");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    c
}

/// What the clients know about one match.
#[derive(Clone)]
struct Tracked {
    id: String,
    /// The version and view the clients saw last.
    version: i64,
    last: ViewHead,
    /// The last request's outcome is unknown: the match may be ahead of `version`.
    uncertain: bool,
    /// Appends the service acknowledged, as their first and last sequence numbers.
    acked: Vec<(i64, i64)>,
    /// The events acknowledged moves led to, as their answers named them: seq, type, actor.
    acked_events: Vec<(i64, String, String)>,
    /// Writes whose outcome the clients never learned (no answer, or a 5xx).
    unanswered: u64,
}

impl Tracked {
    fn see(&mut self, view: ViewHead) {
        self.version = view.version;
        self.last = view;
        self.uncertain = false;
    }
}

/// What the clients keep of a match view (answers are parsed into these few fields only, so
/// the load generator spends its time sending requests, not building JSON trees).
#[derive(Clone, Default, Deserialize)]
struct ViewHead {
    version: i64,
    phase: String,
    deal_number: u64,
    to_act: Vec<usize>,
    seats: Vec<SeatHead>,
}

#[derive(Clone, Default, Deserialize)]
struct SeatHead {
    player_id: Option<String>,
}

#[derive(Deserialize)]
struct LegalMoves {
    version: i64,
    moves: Vec<Value>,
}

#[derive(Deserialize)]
struct MoveAnswer {
    events: Vec<EventHead>,
    #[serde(rename = "match")]
    view: ViewHead,
}

#[derive(Deserialize)]
struct EventHead {
    seq: i64,
    #[serde(rename = "type")]
    kind: String,
    actor: String,
}

#[derive(Default)]
struct Stats {
    latencies_us: Vec<u64>,
    /// The final answer to each move request.
    by_status: BTreeMap<u16, u64>,
    /// Move requests that got no answer at all, after every retry.
    moves_unanswered: u64,
    /// Every HTTP answer, retried ones included.
    responses_by_status: BTreeMap<u16, u64>,
    network_errors: BTreeMap<&'static str, u64>,
    unavailable_retries: u64,
    /// When the first and the last 503 answers arrived (Unix time in ms).
    unavailable_first_ms: Option<u64>,
    unavailable_last_ms: Option<u64>,
    /// Retries answered from the stored answer (`Idempotent-Replayed`): the earlier attempt had
    /// landed although its sender saw a network failure / a 503.
    replayed_after_network_failure: u64,
    replayed_after_unavailable: u64,
    moves: u64,
    matches_finished: u64,
    seen: Vec<Tracked>,
}

struct Answer {
    status: u16,
    bytes: Bytes,
    replayed: bool,
    retry_after: Option<u64>,
}

impl Answer {
    fn body(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or(Value::Null)
    }

    fn parse<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        serde_json::from_slice(&self.bytes).ok()
    }
}

struct Client {
    http: awc::Client,
    urls: Vec<String>,
    next: RefCell<usize>,
    failover: bool,
    retry_unavailable: Duration,
}

impl Client {
    fn pick(&self) -> usize {
        let mut n = self.next.borrow_mut();
        if !self.failover {
            *n = (*n + 1) % self.urls.len();
        }
        *n
    }

    /// The node for the next attempt after one at `url` failed: the next URL (with
    /// `--failover`, the one all requests go to now).
    fn failed(&self, url: usize) -> usize {
        let mut n = self.next.borrow_mut();
        if !self.failover {
            return (url + 1) % self.urls.len();
        }
        if *n == url {
            *n = (url + 1) % self.urls.len();
        }
        *n
    }

    /// One attempt at one node. Errors name the kind of network failure: `connect` (no
    /// connection to the node), `timeout`, or `dropped` (the connection closed or failed before
    /// the whole answer arrived: the node may have taken the request).
    #[allow(clippy::too_many_arguments)]
    async fn once(
        &self,
        base: &str,
        method: &str,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, String)],
        body: Option<&Value>,
        timeout: Option<Duration>,
    ) -> Result<Answer, &'static str> {
        let url = format!("{base}{path}");
        let mut req = if method == "POST" { self.http.post(url) } else { self.http.get(url) };
        if let Some(t) = timeout {
            req = req.timeout(t);
        }
        if let Some(t) = token {
            req = req.insert_header(("Authorization", format!("Bearer {t}")));
        }
        for (n, v) in headers {
            req = req.insert_header((*n, v.as_str()));
        }
        let sent = match body {
            Some(b) => req.send_json(b).await,
            None => req.send().await,
        };
        match sent {
            Ok(mut response) => {
                let status = response.status().as_u16();
                let header =
                    |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
                let replayed = header("Idempotent-Replayed").as_deref() == Some("true");
                let retry_after = header("Retry-After").and_then(|v| v.parse().ok());
                let bytes = response.body().limit(16 << 20).await.map_err(|_| "dropped")?;
                Ok(Answer { status, bytes, replayed, retry_after })
            }
            // The connection closed before the answer's head: the request may have been taken.
            Err(awc::error::SendRequestError::Connect(awc::error::ConnectError::Disconnected)) => Err("dropped"),
            Err(awc::error::SendRequestError::Connect(_)) => Err("connect"),
            Err(awc::error::SendRequestError::Timeout) => Err("timeout"),
            Err(_) => Err("dropped"),
        }
    }

    /// Sends with retries over the nodes on network errors and 503 answers (same body, same
    /// headers, so the same Idempotency-Key).
    async fn send(
        &self,
        stats: &RefCell<Stats>,
        method: &str,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, String)],
        body: Option<&Value>,
    ) -> Option<Answer> {
        let started = Instant::now();
        let mut failures = 0;
        let (mut after_failure, mut after_unavailable) = (false, false);
        let mut n = self.pick();
        loop {
            match self.once(&self.urls[n], method, path, token, headers, body, None).await {
                Ok(answer) => {
                    let retry = answer.status == 503 && started.elapsed() < self.retry_unavailable;
                    {
                        let mut s = stats.borrow_mut();
                        *s.responses_by_status.entry(answer.status).or_default() += 1;
                        if answer.status == 503 {
                            let now = unix_ms();
                            s.unavailable_first_ms.get_or_insert(now);
                            s.unavailable_last_ms = Some(now);
                        }
                        if retry {
                            s.unavailable_retries += 1;
                        } else if answer.replayed && after_failure {
                            s.replayed_after_network_failure += 1;
                        } else if answer.replayed && after_unavailable {
                            s.replayed_after_unavailable += 1;
                        }
                    }
                    if !retry {
                        return Some(answer);
                    }
                    after_unavailable = true;
                    let wait =
                        answer.retry_after.map_or(Duration::from_millis(200), |secs| Duration::from_secs(secs.min(1)));
                    actix_web::rt::time::sleep(wait).await;
                    n = if self.failover { self.pick() } else { (n + 1) % self.urls.len() };
                }
                Err(kind) => {
                    *stats.borrow_mut().network_errors.entry(kind).or_default() += 1;
                    n = self.failed(n);
                    after_failure = true;
                    failures += 1;
                    if failures >= self.urls.len() * 3 {
                        return None;
                    }
                    actix_web::rt::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }
}

async fn guest(client: &Client, stats: &RefCell<Stats>, name: &str) -> Option<(String, String)> {
    let a = client.send(stats, "POST", "/v1/auth/guest", None, &[], Some(&json!({ "name": name }))).await?;
    let body = a.body();
    (a.status == 201).then(|| {
        (
            body["token"].as_str().unwrap_or_default().to_string(),
            body["player_id"].as_str().unwrap_or_default().to_string(),
        )
    })
}

/// One table: a client per seat, playing matches one after another until time is up.
async fn table(client: Rc<Client>, stats: Rc<RefCell<Stats>>, config: Rc<Config>, table_no: usize, deadline: Instant) {
    let mut rng = Rng::new(table_no as u64 * 7919 + 1);
    let mut players = Vec::new();
    for seat in 0..config.players {
        match guest(&client, &stats, &format!("load-{table_no}-{seat}")).await {
            Some(p) => players.push(p),
            None => return,
        }
    }
    while Instant::now() < deadline {
        let seats: Vec<Value> =
            (0..config.players).map(|s| if s == 0 { json!({"kind": "me"}) } else { json!({"kind": "open"}) }).collect();
        let headers = [("Idempotency-Key", uuid::Uuid::new_v4().to_string())];
        let created = client
            .send(
                &stats,
                "POST",
                "/v1/matches",
                Some(&players[0].0),
                &headers,
                Some(&json!({ "game": config.game, "seats": seats })),
            )
            .await;
        let Some(created) = created.filter(|a| a.status == 201) else { return };
        let body = created.body();
        let Some(view) = created.parse::<ViewHead>() else { return };
        let version = view.version;
        let mut t = Tracked {
            id: body["id"].as_str().unwrap_or_default().to_string(),
            version,
            last: view,
            uncertain: false,
            acked: vec![(1, version)],
            acked_events: Vec::new(),
            unanswered: 0,
        };
        let finished = play(&client, &stats, &config, &players, &mut rng, &mut t, deadline).await;
        stats.borrow_mut().seen.push(t);
        if !finished {
            return;
        }
    }
}

/// Reads the match again after a request whose answer did not move it on.
async fn refresh(client: &Client, stats: &RefCell<Stats>, t: &mut Tracked, token: &str) -> bool {
    match client.send(stats, "GET", &format!("/v1/matches/{}", t.id), Some(token), &[], None).await {
        Some(a) if a.status == 200 => match a.parse::<ViewHead>() {
            Some(view) => {
                t.see(view);
                true
            }
            None => false,
        },
        _ => false,
    }
}

/// Fills the open seats and plays the match; true when it was played to the end.
async fn play(
    client: &Client,
    stats: &RefCell<Stats>,
    config: &Config,
    players: &[(String, String)],
    rng: &mut Rng,
    t: &mut Tracked,
    deadline: Instant,
) -> bool {
    let id = t.id.clone();
    for (seat, (token, player_id)) in players.iter().enumerate().skip(1) {
        let before = t.version;
        match client.send(stats, "POST", &format!("/v1/matches/{id}/seats/{seat}/join"), Some(token), &[], None).await {
            Some(a) if a.status == 200 && a.parse::<ViewHead>().is_some() => {
                let view = a.parse::<ViewHead>().unwrap_or_default();
                t.acked.push((before + 1, view.version));
                t.see(view);
            }
            _ => {
                // No answer, a 5xx, or `seat-taken` after an attempt whose answer was lost (a
                // join carries no Idempotency-Key): the seat may be ours anyway.
                t.unanswered += 1;
                t.uncertain = true;
                if !refresh(client, stats, t, token).await
                    || t.last.seats.get(seat).and_then(|s| s.player_id.as_deref()) != Some(player_id.as_str())
                {
                    return false;
                }
            }
        }
    }
    loop {
        if t.last.phase == "finished" {
            stats.borrow_mut().matches_finished += 1;
            return true;
        }
        let out_of_budget = config.moves.is_some_and(|m| stats.borrow().moves >= m);
        if Instant::now() >= deadline || out_of_budget {
            return false;
        }
        let Some(&seat) = t.last.to_act.first() else { return false };
        let token = &players[seat].0;
        let legal =
            match client.send(stats, "GET", &format!("/v1/matches/{id}/legal-moves"), Some(token), &[], None).await {
                Some(a) if a.status == 200 => a.parse::<LegalMoves>(),
                _ => None,
            };
        let Some(mut legal) = legal.filter(|l| !l.moves.is_empty()) else { return false };
        let command = legal.moves.swap_remove(rng.below(legal.moves.len()));
        let version = legal.version;
        let headers = [("Idempotency-Key", uuid::Uuid::new_v4().to_string()), ("If-Match", format!("\"{version}\""))];
        let started = Instant::now();
        let answer = client
            .send(
                stats,
                "POST",
                &format!("/v1/matches/{id}/moves"),
                Some(token),
                &headers,
                Some(&json!({ "move": command })),
            )
            .await;
        let elapsed = started.elapsed().as_micros() as u64;
        match answer {
            Some(a) if a.status == 200 => {
                {
                    let mut s = stats.borrow_mut();
                    *s.by_status.entry(200).or_default() += 1;
                    s.moves += 1;
                    s.latencies_us.push(elapsed);
                }
                let Some(moved) = a.parse::<MoveAnswer>() else {
                    // Acknowledged, but unreadable: what it appended is unknown.
                    t.unanswered += 1;
                    t.uncertain = true;
                    if !refresh(client, stats, t, token).await {
                        return false;
                    }
                    continue;
                };
                if let (Some(first), Some(last)) = (moved.events.first(), moved.events.last()) {
                    t.acked.push((first.seq, last.seq));
                }
                for e in moved.events {
                    t.acked_events.push((e.seq, e.kind, e.actor));
                }
                t.see(moved.view);
            }
            Some(a) => {
                *stats.borrow_mut().by_status.entry(a.status).or_default() += 1;
                // 4xx: refused, nothing appended. 5xx: the outcome is unknown.
                if a.status >= 500 {
                    t.unanswered += 1;
                    t.uncertain = true;
                }
                // A stale screen, or an unknown outcome: read the match again and go on.
                if !refresh(client, stats, t, token).await {
                    return false;
                }
            }
            None => {
                stats.borrow_mut().moves_unanswered += 1;
                t.unanswered += 1;
                t.uncertain = true;
                if !refresh(client, stats, t, token).await {
                    return false;
                }
            }
        }
    }
}

fn unix_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0
}

#[derive(Default)]
struct Checked {
    matches: usize,
    node_reads: usize,
    nodes_unreachable: usize,
    events: usize,
    acknowledged_appends: usize,
    acknowledged_events: usize,
    unacknowledged_appends: usize,
    deals_replayed: usize,
}

/// The whole stream of a match as `(seq, type, actor)`, read in pages.
async fn event_log(client: &Client, stats: &RefCell<Stats>, id: &str) -> Option<Vec<(i64, String, String)>> {
    let mut log = Vec::new();
    loop {
        let since = log.len();
        let a = client
            .send(stats, "GET", &format!("/v1/matches/{id}/events?since={since}&limit=1000"), None, &[], None)
            .await?;
        if a.status != 200 {
            return None;
        }
        let page = a.body()["events"].as_array().cloned().unwrap_or_default();
        for e in &page {
            let text = |k: &str| e[k].as_str().unwrap_or_default().to_string();
            log.push((e["seq"].as_i64().unwrap_or(0), text("type"), text("actor")));
        }
        if page.len() < 1000 {
            return Some(log);
        }
    }
}

/// Checks every match the clients played against what the service stored.
async fn verify(client: &Client, stats: &RefCell<Stats>) -> (Checked, Vec<String>) {
    let seen = stats.borrow().seen.clone();
    let mut problems = Vec::new();
    let mut c = Checked { matches: seen.len(), ..Checked::default() };
    for t in &seen {
        let id = &t.id;
        // 1. Every node reads it back alike: a node that lost its cache (restarted) replays it.
        let mut reads: Vec<(usize, Value)> = Vec::new();
        for (n, url) in client.urls.iter().enumerate() {
            match client
                .once(url, "GET", &format!("/v1/matches/{id}"), None, &[], None, Some(Duration::from_secs(10)))
                .await
            {
                Ok(a) if a.status == 200 => reads.push((n, a.body())),
                Ok(a) => problems.push(format!("{id}: node {n} reads it back with {}: {}", a.status, a.body())),
                Err(_) => c.nodes_unreachable += 1,
            }
        }
        c.node_reads += reads.len();
        let Some((_, now)) = reads.first().cloned() else {
            problems.push(format!("{id}: no node reads it back"));
            continue;
        };
        for (n, other) in &reads[1..] {
            if other["version"] != now["version"] || other["table"] != now["table"] {
                problems.push(format!(
                    "{id}: node {n} reads version {}, node {} reads {}",
                    other["version"], reads[0].0, now["version"]
                ));
            }
        }
        let version = now["version"].as_i64().unwrap_or(-1);
        let expected_ok = if t.uncertain { version >= t.version } else { version == t.version };
        if !expected_ok {
            problems.push(format!("{id}: reads back at version {version}, clients saw {}", t.version));
        } else if version == t.version
            && (now["phase"].as_str() != Some(t.last.phase.as_str())
                || now["deal_number"].as_u64() != Some(t.last.deal_number))
        {
            problems.push(format!(
                "{id}: reads back as {} deal {}, clients saw {} deal {}",
                now["phase"], now["deal_number"], t.last.phase, t.last.deal_number
            ));
        }

        // 2. The log: whole, every acknowledged append in it exactly once, nothing else unless
        // some request's outcome stayed unknown.
        let Some(log) = event_log(client, stats, id).await else {
            problems.push(format!("{id}: its event log cannot be read"));
            continue;
        };
        c.events += log.len();
        if log.iter().enumerate().any(|(i, e)| e.0 != i as i64 + 1) || log.len() as i64 != version {
            problems.push(format!(
                "{id}: the log has {} events with gaps or at the wrong places; the match is at version {version}",
                log.len()
            ));
            continue;
        }
        for (seq, kind, actor) in &t.acked_events {
            match log.get((*seq - 1).max(0) as usize) {
                Some((_, k, a)) if k == kind && a == actor => {}
                Some((_, k, a)) => problems
                    .push(format!("{id}: acknowledged event {seq} ({kind} by {actor}) is {k} by {a} in the log")),
                None => problems.push(format!(
                    "{id}: acknowledged event {seq} ({kind} by {actor}) is not in the log (it has {})",
                    log.len()
                )),
            }
        }
        c.acknowledged_events += t.acked_events.len();
        c.acknowledged_appends += t.acked.len();
        let mut acked = t.acked.clone();
        acked.sort_unstable();
        for w in acked.windows(2) {
            if w[1].0 <= w[0].1 {
                problems.push(format!("{id}: acknowledged appends {:?} and {:?} overlap", w[0], w[1]));
            }
        }
        let mut covered = vec![false; log.len()];
        for (first, last) in &acked {
            if *first < 1 || *last > log.len() as i64 || first > last {
                problems.push(format!(
                    "{id}: acknowledged append {first}..={last} is not in the log (it has {})",
                    log.len()
                ));
                continue;
            }
            for seq in *first..=*last {
                covered[seq as usize - 1] = true;
            }
        }
        let runs = covered.iter().enumerate().filter(|(i, hit)| !**hit && (*i == 0 || covered[i - 1])).count();
        c.unacknowledged_appends += runs;
        if runs as u64 > t.unanswered {
            problems.push(format!(
                "{id}: {runs} appends in the log were never acknowledged, but only {} requests went unanswered",
                t.unanswered
            ));
        }

        // 3. The last finished deal replays to its record.
        let deals = now["deal_number"].as_u64().unwrap_or(0);
        let finished_deals = if now["phase"] == "finished" { deals } else { deals.saturating_sub(1) };
        if finished_deals > 0 {
            let k = finished_deals;
            let record = client.send(stats, "GET", &format!("/v1/matches/{id}/deals/{k}"), None, &[], None).await;
            let steps = record.as_ref().and_then(|r| r.body()["events"].as_array().map(Vec::len)).unwrap_or(0);
            let replay = client
                .send(stats, "GET", &format!("/v1/matches/{id}/deals/{k}/replay?at={steps}"), None, &[], None)
                .await;
            match (record, replay) {
                (Some(r), Some(p)) if r.status == 200 && p.status == 200 && r.body()["end"] == p.body()["table"] => {
                    c.deals_replayed += 1
                }
                _ => problems.push(format!("{id}: deal {k} does not replay to its record")),
            }
        }
    }
    (c, problems)
}

#[actix_web::main]
async fn main() {
    let config = Rc::new(parse_args());
    let client = Rc::new(Client {
        http: awc::Client::builder()
            .timeout(Duration::from_secs(30))
            .connector(awc::Connector::new().limit(1024))
            .finish(),
        urls: config.urls.clone(),
        next: RefCell::new(0),
        failover: config.failover,
        retry_unavailable: config.retry_unavailable,
    });
    let stats = Rc::new(RefCell::new(Stats::default()));
    let started = Instant::now();
    let started_unix_ms = unix_ms();
    let deadline = started + Duration::from_secs(config.seconds);
    let tables: Vec<_> = (0..config.matches)
        .map(|n| actix_web::rt::spawn(table(client.clone(), stats.clone(), config.clone(), n, deadline)))
        .collect();
    for t in tables {
        let _ = t.await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let verify_started = Instant::now();
    let (checked, problems) = verify(&client, &stats).await;
    let verify_seconds = verify_started.elapsed().as_secs_f64();
    let s = stats.borrow();
    let mut sorted = s.latencies_us.clone();
    sorted.sort_unstable();
    let by_status =
        |m: &BTreeMap<u16, u64>| m.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>();
    let report = json!({
        "game": config.game,
        "players": config.players,
        "concurrent_matches": config.matches,
        "nodes": config.urls.len(),
        "started_unix_ms": started_unix_ms,
        "seconds": (elapsed * 10.0).round() / 10.0,
        "moves": s.moves,
        "moves_per_second": (s.moves as f64 / elapsed * 10.0).round() / 10.0,
        "latency_ms": { "p50": percentile(&sorted, 0.50), "p95": percentile(&sorted, 0.95), "p99": percentile(&sorted, 0.99), "max": percentile(&sorted, 1.0) },
        "move_responses_by_status": by_status(&s.by_status),
        "moves_unanswered": s.moves_unanswered,
        "responses_by_status": by_status(&s.responses_by_status),
        "network_errors": s.network_errors.values().sum::<u64>(),
        "network_errors_by_kind": s.network_errors,
        "unavailable_retries": s.unavailable_retries,
        "unavailable_first_unix_ms": s.unavailable_first_ms,
        "unavailable_last_unix_ms": s.unavailable_last_ms,
        "replayed_after_network_failure": s.replayed_after_network_failure,
        "replayed_after_unavailable": s.replayed_after_unavailable,
        "matches_finished": s.matches_finished,
        "matches_verified": checked.matches,
        "verification": {
            "seconds": (verify_seconds * 10.0).round() / 10.0,
            "node_reads": checked.node_reads,
            "nodes_unreachable": checked.nodes_unreachable,
            "events_in_logs": checked.events,
            "acknowledged_appends": checked.acknowledged_appends,
            "acknowledged_move_events": checked.acknowledged_events,
            "unacknowledged_appends": checked.unacknowledged_appends,
            "deals_replayed": checked.deals_replayed,
        },
        "verification_problems": problems,
    });
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
    if !problems.is_empty() {
        std::process::exit(1);
    }
}
