//! Load generator: plays many matches at once over HTTP, each seat a simulated client with its
//! own token choosing legal moves, for a given time or number of moves. Reports durable moves
//! per second, latency percentiles and errors by status, and at the end checks that every match
//! reads back at the version and state its clients last saw and that finished deals replay.
//!
//!   loadgen --url http://127.0.0.1:8080[,http://127.0.0.1:8081] --matches 64 --seconds 20
//!
//! Requests spread over the URLs round-robin; a request that fails on the network is retried
//! on the next URL with the same Idempotency-Key.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

use engine::simulate::Rng;
use serde_json::{json, Value};

struct Config {
    urls: Vec<String>,
    matches: usize,
    seconds: u64,
    moves: Option<u64>,
    game: String,
    players: usize,
}

fn parse_args() -> Config {
    let mut c = Config { urls: vec!["http://127.0.0.1:8080".into()], matches: 64, seconds: 20, moves: None, game: "plump".into(), players: 4 };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--url" => c.urls = value.split(',').map(|u| u.trim_end_matches('/').to_string()).collect(),
            "--matches" => c.matches = value.parse().expect("--matches N"),
            "--seconds" => c.seconds = value.parse().expect("--seconds N"),
            "--moves" => c.moves = Some(value.parse().expect("--moves N")),
            "--game" => c.game = value,
            "--players" => c.players = value.parse().expect("--players N"),
            other => {
                eprintln!("unknown argument {other}\nusage: loadgen [--url U[,U…]] [--matches N] [--seconds S] [--moves N] [--game ID] [--players N]");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    c
}

#[derive(Default)]
struct Stats {
    latencies_us: Vec<u64>,
    by_status: BTreeMap<u16, u64>,
    network_errors: u64,
    moves: u64,
    matches_finished: u64,
    /// Every match with the version and table its clients last saw.
    seen: Vec<(String, i64, Value)>,
}

struct Client {
    http: awc::Client,
    urls: Vec<String>,
    next: RefCell<usize>,
}

impl Client {
    /// Sends with retries over the nodes on network errors (same body, same headers).
    async fn send(&self, stats: &RefCell<Stats>, method: &str, path: &str, token: Option<&str>, headers: &[(&str, String)], body: Option<&Value>) -> Option<(u16, Value)> {
        for _attempt in 0..self.urls.len() * 3 {
            let url = {
                let mut n = self.next.borrow_mut();
                *n = (*n + 1) % self.urls.len();
                format!("{}{}", self.urls[*n], path)
            };
            let mut req = if method == "POST" { self.http.post(url) } else { self.http.get(url) };
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
                    let bytes = response.body().limit(16 << 20).await.unwrap_or_default();
                    return Some((status, serde_json::from_slice(&bytes).unwrap_or(Value::Null)));
                }
                Err(_) => {
                    stats.borrow_mut().network_errors += 1;
                    actix_web::rt::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
        None
    }
}

async fn guest(client: &Client, stats: &RefCell<Stats>, name: &str) -> Option<String> {
    let (status, body) = client.send(stats, "POST", "/v1/auth/guest", None, &[], Some(&json!({ "name": name }))).await?;
    (status == 201).then(|| body["token"].as_str().unwrap_or_default().to_string())
}

/// One table: a client per seat, playing matches one after another until time is up.
async fn table(client: Rc<Client>, stats: Rc<RefCell<Stats>>, config: Rc<Config>, table_no: usize, deadline: Instant) {
    let mut rng = Rng::new(table_no as u64 * 7919 + 1);
    let mut tokens = Vec::new();
    for seat in 0..config.players {
        match guest(&client, &stats, &format!("load-{table_no}-{seat}")).await {
            Some(t) => tokens.push(t),
            None => return,
        }
    }
    'matches: while Instant::now() < deadline {
        let seats: Vec<Value> = (0..config.players).map(|s| if s == 0 { json!({"kind": "me"}) } else { json!({"kind": "open"}) }).collect();
        let Some((201, created)) = client
            .send(&stats, "POST", "/v1/matches", Some(&tokens[0]), &[("Idempotency-Key", uuid::Uuid::new_v4().to_string())], Some(&json!({ "game": config.game, "seats": seats })))
            .await
        else {
            return;
        };
        let id = created["id"].as_str().unwrap_or_default().to_string();
        let mut view = created;
        for (seat, token) in tokens.iter().enumerate().skip(1) {
            match client.send(&stats, "POST", &format!("/v1/matches/{id}/seats/{seat}/join"), Some(token), &[], None).await {
                Some((200, v)) => view = v,
                _ => return,
            }
        }
        loop {
            if view["phase"] == "finished" {
                stats.borrow_mut().matches_finished += 1;
                stats.borrow_mut().seen.push((id.clone(), view["version"].as_i64().unwrap_or(0), view.clone()));
                continue 'matches;
            }
            let out_of_budget = config.moves.is_some_and(|m| stats.borrow().moves >= m);
            if Instant::now() >= deadline || out_of_budget {
                stats.borrow_mut().seen.push((id.clone(), view["version"].as_i64().unwrap_or(0), view.clone()));
                return;
            }
            let Some(seat) = view["to_act"][0].as_u64().map(|s| s as usize) else { return };
            let token = &tokens[seat];
            let Some((200, legal)) = client.send(&stats, "GET", &format!("/v1/matches/{id}/legal-moves"), Some(token), &[], None).await else { return };
            let moves = legal["moves"].as_array().cloned().unwrap_or_default();
            if moves.is_empty() {
                return;
            }
            let command = moves[rng.below(moves.len())].clone();
            let version = legal["version"].as_i64().unwrap_or(0);
            let headers = [("Idempotency-Key", uuid::Uuid::new_v4().to_string()), ("If-Match", format!("\"{version}\""))];
            let started = Instant::now();
            let answer = client.send(&stats, "POST", &format!("/v1/matches/{id}/moves"), Some(token), &headers, Some(&json!({ "move": command }))).await;
            let elapsed = started.elapsed().as_micros() as u64;
            let Some((status, body)) = answer else { return };
            {
                let mut s = stats.borrow_mut();
                *s.by_status.entry(status).or_default() += 1;
                if status == 200 {
                    s.moves += 1;
                    s.latencies_us.push(elapsed);
                }
            }
            if status == 200 {
                view = body["match"].clone();
            } else {
                // A stale screen: read the match again and go on.
                match client.send(&stats, "GET", &format!("/v1/matches/{id}"), Some(token), &[], None).await {
                    Some((200, v)) => view = v,
                    _ => return,
                }
            }
        }
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0
}

/// Every match reads back at the version its clients last saw, and finished deals replay.
async fn verify(client: &Client, stats: &RefCell<Stats>) -> (usize, Vec<String>) {
    let seen = stats.borrow().seen.clone();
    let mut problems = Vec::new();
    for (id, version, last) in &seen {
        match client.send(stats, "GET", &format!("/v1/matches/{id}"), None, &[], None).await {
            Some((200, now)) if now["version"].as_i64() == Some(*version) => {
                if now["phase"] != last["phase"] || now["deal_number"] != last["deal_number"] {
                    problems.push(format!("{id}: reads back as {} deal {}, clients saw {} deal {}", now["phase"], now["deal_number"], last["phase"], last["deal_number"]));
                }
                let deals = now["deal_number"].as_u64().unwrap_or(0);
                let finished_deals = if now["phase"] == "finished" { deals } else { deals.saturating_sub(1) };
                if finished_deals > 0 {
                    let k = finished_deals;
                    let record = client.send(stats, "GET", &format!("/v1/matches/{id}/deals/{k}"), None, &[], None).await;
                    let steps = record.as_ref().and_then(|(_, r)| r["events"].as_array().map(Vec::len)).unwrap_or(0);
                    let replay = client.send(stats, "GET", &format!("/v1/matches/{id}/deals/{k}/replay?at={steps}"), None, &[], None).await;
                    match (record, replay) {
                        (Some((200, r)), Some((200, p))) if r["end"] == p["table"] => {}
                        _ => problems.push(format!("{id}: deal {k} does not replay to its record")),
                    }
                }
            }
            Some((status, now)) => problems.push(format!("{id}: read back {status} at version {}, clients saw {version}", now["version"])),
            None => problems.push(format!("{id}: unreachable")),
        }
    }
    (seen.len(), problems)
}

#[actix_web::main]
async fn main() {
    let config = Rc::new(parse_args());
    let client = Rc::new(Client {
        http: awc::Client::builder().timeout(Duration::from_secs(30)).connector(awc::Connector::new().limit(1024)).finish(),
        urls: config.urls.clone(),
        next: RefCell::new(0),
    });
    let stats = Rc::new(RefCell::new(Stats::default()));
    let started = Instant::now();
    let deadline = started + Duration::from_secs(config.seconds);
    let tables: Vec<_> = (0..config.matches)
        .map(|n| actix_web::rt::spawn(table(client.clone(), stats.clone(), config.clone(), n, deadline)))
        .collect();
    for t in tables {
        let _ = t.await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let (checked, problems) = verify(&client, &stats).await;
    let s = stats.borrow();
    let mut sorted = s.latencies_us.clone();
    sorted.sort_unstable();
    let report = json!({
        "game": config.game,
        "players": config.players,
        "concurrent_matches": config.matches,
        "seconds": (elapsed * 10.0).round() / 10.0,
        "moves": s.moves,
        "moves_per_second": (s.moves as f64 / elapsed * 10.0).round() / 10.0,
        "latency_ms": { "p50": percentile(&sorted, 0.50), "p95": percentile(&sorted, 0.95), "p99": percentile(&sorted, 0.99), "max": percentile(&sorted, 1.0) },
        "move_responses_by_status": s.by_status.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>(),
        "network_errors": s.network_errors,
        "matches_finished": s.matches_finished,
        "matches_verified": checked,
        "verification_problems": problems,
    });
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
    if !problems.is_empty() {
        std::process::exit(1);
    }
}
