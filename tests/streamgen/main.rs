//! Measures the live event streams (figures in docs/performance.md, run by scripts/streams):
//!
//!   streamgen idle --url U --streams 10000 --matches 500 --pid P
//!       opens that many streams (spectators, spread over that many matches) on one node and
//!       reports the node's resident memory (from /proc/P/status) before and with them open.
//!   streamgen idle ... --per-address 8
//!       the same, the streams spread over local addresses (127.1.x.y), that many from each, as
//!       legitimate spectators on many phones are: the node caps streams per address.
//!   streamgen flood --url U --matches 64 --seconds 20 --flood 20000
//!       plays that many matches as fast as they answer for that long, quietly, then again while
//!       one other address (127.0.0.9) keeps trying to open `--flood` streams on them (a refused
//!       stream is tried again at once, `--concurrency` 256 at a time); reports each move's latency, quiet and flooded, and how
//!       many of the flood's streams were opened and refused.
//!   streamgen delay --play U --watch U2 --matches 64 --seconds 20
//!       plays that many matches as fast as they answer on node U while a stream per match is
//!       open on node U2, and reports the delay from each event's recording (its `recorded_at`,
//!       same machine clock) to its arrival on the stream.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{json, Value};

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn num(name: &str, default: u64) -> u64 {
    arg(name).map(|v| v.parse().unwrap_or_else(|_| panic!("{name} N"))).unwrap_or(default)
}

fn client() -> awc::Client {
    awc::Client::builder().connector(awc::Connector::new().limit(0)).timeout(Duration::from_secs(60)).finish()
}

/// A client whose connections come from `address` (any 127.x.y.z is local on Linux).
fn client_from(address: std::net::IpAddr) -> awc::Client {
    awc::Client::builder()
        .connector(awc::Connector::new().limit(0).local_address(address))
        .timeout(Duration::from_secs(60))
        .finish()
}

/// The `n`th of the local addresses streams are spread over: 127.1.0.1, 127.1.0.2...
fn local(n: usize) -> std::net::IpAddr {
    std::net::IpAddr::from([127, 1, (n / 250) as u8, (n % 250 + 1) as u8])
}

async fn post(http: &awc::Client, url: &str, token: Option<&str>, body: Value) -> Value {
    let mut request = http.post(url);
    if let Some(token) = token {
        request = request.insert_header(("Authorization", format!("Bearer {token}")));
    }
    let mut response = request.send_json(&body).await.expect("the service answers");
    let bytes = response.body().limit(1 << 24).await.expect("a body");
    serde_json::from_slice(&bytes).unwrap_or(Value::Null)
}

async fn get(http: &awc::Client, url: &str, token: &str) -> Value {
    let mut response = http
        .get(url)
        .insert_header(("Authorization", format!("Bearer {token}")))
        .send()
        .await
        .expect("the service answers");
    let bytes = response.body().limit(1 << 24).await.expect("a body");
    serde_json::from_slice(&bytes).unwrap_or(Value::Null)
}

async fn guest(http: &awc::Client, url: &str) -> String {
    post(http, &format!("{url}/v1/auth/guest"), None, json!({ "name": "Load" })).await["token"]
        .as_str()
        .expect("a token")
        .to_string()
}

fn rss_kib(pid: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the service's /proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

type Body =
    std::pin::Pin<Box<dyn futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>>>;

async fn open_stream(http: &awc::Client, url: &str, token: Option<&str>) -> Option<Body> {
    let mut request = http.get(url).insert_header(("Accept", "text/event-stream")).timeout(Duration::from_secs(600));
    if let Some(token) = token {
        request = request.insert_header(("Authorization", format!("Bearer {token}")));
    }
    let response = request.send().await.ok()?;
    (response.status().as_u16() == 200).then(|| Box::pin(response) as Body)
}

async fn idle() {
    let url = arg("--url").expect("--url");
    let streams = num("--streams", 10_000) as usize;
    let matches = num("--matches", 500) as usize;
    let pid = arg("--pid").expect("--pid of the service");
    let per_address = num("--per-address", 0) as usize;
    let http = client();
    let clients: Vec<awc::Client> = if per_address == 0 {
        vec![http.clone()]
    } else {
        (0..streams.div_ceil(per_address)).map(|n| client_from(local(n))).collect()
    };
    let token = guest(&http, &url).await;
    let mut ids = Vec::new();
    for _ in 0..matches {
        let created = post(
            &http,
            &format!("{url}/v1/matches"),
            Some(&token),
            json!({ "game": "japansk-whist", "seats": [{"kind": "me"}, {"kind": "bot"}] }),
        )
        .await;
        ids.push(created["id"].as_str().expect("a match").to_string());
    }
    // Settle: the matches are made, the allocator has grown for them.
    actix_web::rt::time::sleep(Duration::from_secs(2)).await;
    let before = rss_kib(&pid);
    let started = Instant::now();
    let open: Rc<RefCell<Vec<Body>>> = Rc::default();
    let failed = Rc::new(RefCell::new(0u64));
    // A few hundred at a time: the listen backlog is finite.
    for chunk in (0..streams).collect::<Vec<_>>().chunks(250) {
        let opening: Vec<_> = chunk
            .iter()
            .map(|i| {
                let client = &clients[i.checked_div(per_address).unwrap_or(0)];
                let (http, open, failed) = (client.clone(), open.clone(), failed.clone());
                let stream_url = format!("{url}/v1/matches/{}/stream", ids[i % ids.len()]);
                async move {
                    match open_stream(&http, &stream_url, None).await {
                        Some(mut body) => {
                            // The first chunk: the stream is established and caught up.
                            if body.next().await.is_some() {
                                open.borrow_mut().push(body);
                            } else {
                                *failed.borrow_mut() += 1;
                            }
                        }
                        None => *failed.borrow_mut() += 1,
                    }
                }
            })
            .collect();
        futures_util::future::join_all(opening).await;
    }
    let opened_in = started.elapsed();
    actix_web::rt::time::sleep(Duration::from_secs(3)).await;
    let with = rss_kib(&pid);
    let metrics = {
        let mut r = http.get(format!("{url}/metrics")).send().await.expect("metrics");
        String::from_utf8_lossy(&r.body().await.unwrap_or_default()).to_string()
    };
    let reported = metrics.lines().find_map(|l| l.strip_prefix("kortbord_streams_open ")).unwrap_or("?").to_string();
    println!(
        "{}",
        json!({
            "streams_open": open.borrow().len(),
            "addresses": clients.len(),
            "streams_failed": *failed.borrow(),
            "node_reports_open": reported,
            "matches": matches,
            "opened_in_s": opened_in.as_secs_f64(),
            "rss_before_kib": before,
            "rss_with_streams_kib": with,
            "kib_per_stream": (with.saturating_sub(before)) as f64 / open.borrow().len().max(1) as f64,
        })
    );
}

async fn delay() {
    let play = arg("--play").expect("--play");
    let watch = arg("--watch").expect("--watch");
    let matches = num("--matches", 64) as usize;
    let seconds = num("--seconds", 20);
    let http = client();
    let delays: Rc<RefCell<Vec<u64>>> = Rc::default();
    let moves = Rc::new(RefCell::new(0u64));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let tables: Vec<_> = (0..matches)
        .map(|_| {
            let (http, play, watch, delays, moves) =
                (http.clone(), play.clone(), watch.clone(), delays.clone(), moves.clone());
            async move {
                let token = guest(&http, &play).await;
                while Instant::now() < deadline {
                    let seats = json!([{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]);
                    let created = post(
                        &http,
                        &format!("{play}/v1/matches"),
                        Some(&token),
                        json!({ "game": "plump", "seats": seats }),
                    )
                    .await;
                    let id = created["id"].as_str().expect("a match").to_string();
                    let mut body = open_stream(&http, &format!("{watch}/v1/matches/{id}/stream"), Some(&token))
                        .await
                        .expect("the stream opens");
                    let opened = chrono::Utc::now();
                    // The stream's reader: each event recorded after the stream opened, timed.
                    let reader = {
                        let delays = delays.clone();
                        async move {
                            let mut buffer = String::new();
                            while let Some(Ok(chunk)) = body.next().await {
                                buffer.push_str(&String::from_utf8_lossy(&chunk));
                                while let Some(end) = buffer.find("\n\n") {
                                    let message: String = buffer.drain(..end + 2).collect();
                                    let Some(data) = message.lines().find_map(|l| l.strip_prefix("data: ")) else {
                                        continue;
                                    };
                                    let event: Value = serde_json::from_str(data).unwrap_or(Value::Null);
                                    let Some(at) = event["recorded_at"].as_str() else { continue };
                                    let Ok(at) = chrono::DateTime::parse_from_rfc3339(at) else { continue };
                                    let at = at.with_timezone(&chrono::Utc);
                                    if at > opened {
                                        let late = (chrono::Utc::now() - at).num_microseconds().unwrap_or(0).max(0);
                                        delays.borrow_mut().push(late as u64);
                                    }
                                }
                            }
                        }
                    };
                    let reading = actix_web::rt::spawn(reader);
                    loop {
                        if Instant::now() > deadline {
                            break;
                        }
                        let legal = get(&http, &format!("{play}/v1/matches/{id}/legal-moves"), &token).await;
                        let Some(first) = legal["moves"].as_array().and_then(|m| m.first()).cloned() else { break };
                        let answer = post(
                            &http,
                            &format!("{play}/v1/matches/{id}/moves"),
                            Some(&token),
                            json!({ "move": first }),
                        )
                        .await;
                        *moves.borrow_mut() += 1;
                        if answer["match"]["phase"] == "finished" {
                            break;
                        }
                    }
                    // Let the last events arrive, then leave the stream.
                    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
                    reading.abort();
                }
            }
        })
        .collect();
    futures_util::future::join_all(tables).await;
    let mut d = delays.borrow().clone();
    d.sort_unstable();
    let pct = |p: f64| {
        d.get(((d.len() as f64 * p) as usize).min(d.len().saturating_sub(1))).copied().unwrap_or(0) as f64 / 1000.0
    };
    println!(
        "{}",
        json!({
            "matches": matches,
            "seconds": seconds,
            "moves": *moves.borrow(),
            "events_delivered": d.len(),
            "delay_ms": { "p50": pct(0.50), "p90": pct(0.90), "p99": pct(0.99), "max": pct(1.0) },
        })
    );
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    sorted.get(((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1))).copied().unwrap_or(0) as f64
        / 1000.0
}

/// Plays `matches` Plump tables as fast as they answer until `deadline`; each move's latency in
/// microseconds, and the tables' match ids as they are made.
async fn play_tables(url: &str, matches: usize, deadline: Instant, ids: Rc<RefCell<Vec<String>>>) -> Vec<u64> {
    let http = client();
    let latencies: Rc<RefCell<Vec<u64>>> = Rc::default();
    let tables: Vec<_> = (0..matches)
        .map(|_| {
            let (http, url, latencies, ids) = (http.clone(), url.to_string(), latencies.clone(), ids.clone());
            async move {
                let token = guest(&http, &url).await;
                while Instant::now() < deadline {
                    let seats = json!([{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]);
                    let created = post(
                        &http,
                        &format!("{url}/v1/matches"),
                        Some(&token),
                        json!({ "game": "plump", "seats": seats }),
                    )
                    .await;
                    let Some(id) = created["id"].as_str().map(str::to_string) else { continue };
                    ids.borrow_mut().push(id.clone());
                    while Instant::now() < deadline {
                        let legal = get(&http, &format!("{url}/v1/matches/{id}/legal-moves"), &token).await;
                        let Some(first) = legal["moves"].as_array().and_then(|m| m.first()).cloned() else { break };
                        let started = Instant::now();
                        let answer = post(
                            &http,
                            &format!("{url}/v1/matches/{id}/moves"),
                            Some(&token),
                            json!({ "move": first }),
                        )
                        .await;
                        latencies.borrow_mut().push(started.elapsed().as_micros() as u64);
                        if answer["match"]["phase"] == "finished" {
                            break;
                        }
                    }
                }
            }
        })
        .collect();
    futures_util::future::join_all(tables).await;
    let mut d = latencies.borrow().clone();
    d.sort_unstable();
    d
}

async fn flood() {
    let url = arg("--url").expect("--url");
    let matches = num("--matches", 64) as usize;
    let seconds = num("--seconds", 20);
    let target = num("--flood", 20_000) as usize;
    let quiet = play_tables(&url, matches, Instant::now() + Duration::from_secs(seconds), Rc::default()).await;
    // The flood: one address, as many streams as it can get on the busy tables, retried at once.
    let ids: Rc<RefCell<Vec<String>>> = Rc::default();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (opened, refused, failed) =
        (Rc::new(RefCell::new(0u64)), Rc::new(RefCell::new(0u64)), Rc::new(RefCell::new(0u64)));
    let flooder = client_from(std::net::IpAddr::from([127, 0, 0, 9]));
    let concurrency = num("--concurrency", 256) as usize;
    let attackers: Vec<_> = (0..target.min(concurrency))
        .map(|n| {
            let (http, url, ids, opened, refused, failed) =
                (flooder.clone(), url.clone(), ids.clone(), opened.clone(), refused.clone(), failed.clone());
            async move {
                let mut held: Vec<Body> = Vec::new();
                while Instant::now() < deadline {
                    let id = {
                        let ids = ids.borrow();
                        if ids.is_empty() {
                            None
                        } else {
                            Some(ids[n % ids.len()].clone())
                        }
                    };
                    let Some(id) = id else {
                        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    };
                    let request = http
                        .get(format!("{url}/v1/matches/{id}/stream"))
                        .insert_header(("Accept", "text/event-stream"))
                        .timeout(Duration::from_secs(5));
                    match request.send().await {
                        Ok(response) if response.status().as_u16() == 200 => {
                            *opened.borrow_mut() += 1;
                            if held.len() < target / concurrency + 1 {
                                held.push(Box::pin(response));
                            }
                        }
                        Ok(_) => *refused.borrow_mut() += 1,
                        Err(_) => {
                            *failed.borrow_mut() += 1;
                            actix_web::rt::time::sleep(Duration::from_millis(10)).await;
                        }
                    }
                }
            }
        })
        .collect();
    let playing = play_tables(&url, matches, deadline, ids.clone());
    let (flooded, _) = futures_util::future::join(playing, futures_util::future::join_all(attackers)).await;
    let (q99, f99) = (percentile(&quiet, 0.99), percentile(&flooded, 0.99));
    println!(
        "{}",
        json!({
            "matches": matches,
            "seconds": seconds,
            "quiet": { "moves": quiet.len(), "p50_ms": percentile(&quiet, 0.5), "p99_ms": q99 },
            "flooded": { "moves": flooded.len(), "p50_ms": percentile(&flooded, 0.5), "p99_ms": f99 },
            "p99_ratio": if q99 > 0.0 { f99 / q99 } else { 0.0 },
            "flood": { "streams_opened": *opened.borrow(), "refused_429": *refused.borrow(),
                       "failed": *failed.borrow() },
        })
    );
}

#[actix_web::main]
async fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("idle") => idle().await,
        Some("delay") => delay().await,
        Some("flood") => flood().await,
        _ => eprintln!("usage: streamgen idle --url U --streams N --matches M --pid P | streamgen delay --play U --watch U2 --matches N --seconds S"),
    }
}
