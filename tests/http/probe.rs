//! The findings of the outside black-box probe (issue #25): each test fails on the service as
//! the probe found it.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use kortbord_e2e::{server_url, spawn_app, spawn_app_via};

/// Only bots would play the whole match inside the creating request (10,534 events, or a 500
/// when they had not finished within 10,000 steps): such a match is refused.
#[actix_web::test]
async fn a_match_with_no_seat_for_a_person_is_refused() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Dag").await;
    let bots = |n: usize| (0..n).map(|_| json!({"kind": "bot"})).collect::<Vec<Value>>();
    let long = [
        json!({ "game": "spader", "seats": bots(4), "options": {"target": 5000} }),
        json!({ "game": "tarot", "seats": bots(5), "options": {"deals": 1000} }),
        json!({ "game": "svangknack", "seats": bots(12), "options": {"rounds": 100} }),
        json!({ "game": "plump", "seats": bots(3) }),
    ];
    for body in &long {
        let started = Instant::now();
        let r = app.post("/v1/matches").token(&token).json(body).send().await;
        r.assert_problem(422, "no-human-seat");
        assert_eq!(r.body["title"], "No seat for a person");
        assert!(started.elapsed() < Duration::from_secs(5), "refused before any play: {:?}", started.elapsed());
    }
    let r = app.post("/v1/matches").token(&token).header("Accept-Language", "sv").json(&long[3]).send().await;
    r.assert_problem(422, "no-human-seat");
    assert_eq!(r.body["title"], "Ingen plats för en människa");
    // A seat kept open for a person is enough; nobody plays until it is taken.
    let open = json!({ "game": "spader", "seats": [{"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
                       "options": {"target": 5000} });
    let created = app.create_match(&token, open).await;
    assert_eq!(created["phase"], "waiting");
    assert_eq!(created["version"], 1);
}

/// Names that show nothing, or show something else than they hold, are refused; the rule is
/// in the API document.
#[actix_web::test]
async fn guest_names_must_show_what_they_hold() {
    let app = spawn_app().await;
    let invisible = [
        "\u{200b}",
        "\u{200b}\u{200c}\u{200d}",
        "\u{2060}",
        "\u{feff}",
        " ",
        "\t",
        "\u{3000}",
        "\u{3164}",
        "\u{2800}",
        "\u{e0041}\u{e0064}\u{e0061}",
    ];
    let disguised =
        ["\u{202e}adA", "Ada\u{202c}", "\u{2066}Ada\u{2069}", "A\u{200b}da", "A\u{ad}da", "Ada\u{7}", " Ada"];
    for name in invisible.iter().chain(&disguised) {
        let r = app.post("/v1/auth/guest").json(&json!({ "name": name })).send().await;
        r.assert_problem(422, "invalid-name");
    }
    let r = app.post("/v1/auth/guest").json(&json!({ "name": "x".repeat(41) })).send().await;
    r.assert_problem(422, "invalid-name");
    for name in ["Ada", "Åsa-Nisse Ek", "李小龍", &"x".repeat(40)] {
        let r = app.post("/v1/auth/guest").json(&json!({ "name": name })).send().await;
        assert_eq!(r.status.as_u16(), 201, "{name:?}: {}", r.body);
        assert_eq!(r.body["name"], *name);
    }
    let spec = app.get("/openapi.json").send().await.body;
    let name = &spec["components"]["schemas"]["GuestRequest"]["properties"]["name"];
    assert_eq!((name["minLength"].as_u64(), name["maxLength"].as_u64()), (Some(1), Some(40)));
    let pattern = name["pattern"].as_str().unwrap();
    for c in ["\\u200B", "\\u202E", "\\u2066", "\\u3164"] {
        assert!(pattern.contains(c), "{c} is named in {pattern}");
    }
}

/// A JSON array where an object is due is refused, and so is a field the service would ignore,
/// at any depth: a seat's, or the move's own.
#[actix_web::test]
async fn bodies_are_objects_with_known_fields_only() {
    let app = spawn_app().await;
    app.post("/v1/auth/guest").json(&json!(["Mallory"])).send().await.assert_problem(422, "invalid-body");
    app.post("/v1/auth/guest").json(&json!("Mallory")).send().await.assert_problem(422, "invalid-body");
    let (token, _) = app.guest("Ada").await;
    let positional = json!(["plump", [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}]]);
    app.post("/v1/matches").token(&token).json(&positional).send().await.assert_problem(422, "invalid-body");
    let seat_field =
        json!({ "game": "plump", "seats": [{"kind": "me", "name": "Eve"}, {"kind": "bot"}, {"kind": "bot"}] });
    app.post("/v1/matches").token(&token).json(&seat_field).send().await.assert_problem(422, "invalid-body");
    let bot_field = json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot", "level": 9}, {"kind": "bot"}] });
    app.post("/v1/matches").token(&token).json(&bot_field).send().await.assert_problem(422, "invalid-body");

    let created = app
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}] }))
        .await;
    let id = created["id"].as_str().unwrap();
    let seat = created["to_act"][0].as_u64().unwrap() as usize;
    let before = app.event_count(id).await;
    let moves = format!("/v1/matches/{id}/moves");
    let r = app.post(&moves).token(&token).json(&json!([seat, {"type": "bid", "tricks": 1}])).send().await;
    r.assert_problem(422, "invalid-body");
    let extra = json!({ "seat": seat, "move": {"type": "bid", "tricks": 1, "card": "AS"} });
    let r = app.post(&moves).token(&token).json(&extra).send().await;
    r.assert_problem(400, "invalid-move");
    assert!(r.body["detail"].as_str().unwrap().contains("`card`"), "{}", r.body);
    let dry = json!({ "seat": seat, "move": {"type": "bid", "tricks": 1, "nil": true}, "dry_run": true });
    app.post(&moves).token(&token).json(&dry).send().await.assert_problem(400, "invalid-move");
    assert_eq!(app.event_count(id).await, before, "nothing was appended");
    let r = app.play(&token, id, seat, &json!({"type": "bid", "tricks": 1})).await;
    assert_eq!(r.status.as_u16(), 200, "the same move without the stray field lands: {}", r.body);
}

/// An Idempotency-Key is 1 to 200 visible ASCII characters, as the API document says.
#[actix_web::test]
async fn idempotency_keys_are_visible_ascii() {
    let app = spawn_app().await;
    let (token, _) = app.guest("Ada").await;
    let body = json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] });
    for key in ["a\tb", "a b", &"k".repeat(201)] {
        let r = app.post("/v1/matches").token(&token).header("Idempotency-Key", key).json(&body).send().await;
        r.assert_problem(400, "invalid-idempotency-key");
    }
    let keyed = app.post("/v1/matches").token(&token).header("Idempotency-Key", "ok-key_1.~!");
    let created = keyed.json(&body).send().await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    let id = created.body["id"].as_str().unwrap();
    let r = app
        .post(&format!("/v1/matches/{id}/moves"))
        .token(&token)
        .header("Idempotency-Key", "tab\there")
        .json(&json!({ "move": {"type": "bid", "tricks": 1} }))
        .send()
        .await;
    r.assert_problem(400, "invalid-idempotency-key");
    let spec = app.get("/openapi.json").send().await.body;
    for (path, method) in [("/v1/matches", "post"), ("/v1/matches/{id}/moves", "post")] {
        let params = spec["paths"][path][method]["parameters"].as_array().unwrap();
        let key = params.iter().find(|p| p["name"] == "Idempotency-Key").unwrap();
        assert_eq!(key["schema"]["pattern"], "^[!-~]{1,200}$", "{path}");
        assert_eq!((key["schema"]["minLength"].as_u64(), key["schema"]["maxLength"].as_u64()), (Some(1), Some(200)));
    }
}

/// A TCP proxy to PostgreSQL that can be cut: connections stay open, nothing is forwarded any
/// more, and new ones are accepted and never answered (a network partition, as seen from the
/// service).
struct Proxy {
    address: SocketAddr,
    cut: Arc<AtomicBool>,
}

impl Proxy {
    fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let cut = Arc::new(AtomicBool::new(false));
        let flag = cut.clone();
        std::thread::spawn(move || {
            let mut silent = Vec::new();
            for client in listener.incoming().flatten() {
                if flag.load(Ordering::SeqCst) {
                    silent.push(client);
                    continue;
                }
                let Ok(server) = TcpStream::connect(upstream) else { continue };
                let (c, s) = (client.try_clone().unwrap(), server.try_clone().unwrap());
                let (f1, f2) = (flag.clone(), flag.clone());
                std::thread::spawn(move || pump(client, server, f1));
                std::thread::spawn(move || pump(s, c, f2));
            }
        });
        Proxy { address, cut }
    }

    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
    }
}

fn pump(mut from: TcpStream, mut to: TcpStream, cut: Arc<AtomicBool>) {
    let mut buffer = [0u8; 16 * 1024];
    loop {
        match from.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) if cut.load(Ordering::SeqCst) => {}
            Ok(n) => {
                if to.write_all(&buffer[..n]).is_err() {
                    break;
                }
            }
        }
    }
    // One side gone (the test's database dropped at the end): let the other know.
    let _ = to.shutdown(Shutdown::Both);
}

/// A database that stops answering with its connections open made `/readyz` hang for 25 s and
/// more. Every request answers 503 within the configured waits instead.
#[actix_web::test]
async fn a_partitioned_database_answers_503_in_bounded_time() {
    let server = server_url();
    let authority = server.split("://").nth(1).unwrap().split('/').next().unwrap();
    let host_port = authority.rsplit('@').next().unwrap();
    let upstream = host_port.to_socket_addrs().unwrap().next().unwrap();
    let proxy = Proxy::start(upstream);
    let via = server.replacen(host_port, &proxy.address.to_string(), 1);
    let second = Duration::from_secs(1);
    let app = spawn_app_via(&via, second, second).await;
    let (token, _) = app.guest("Ada").await;
    let created = app
        .create_match(&token, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "me"}] }))
        .await;
    let id = created["id"].as_str().unwrap();
    let seat = created["to_act"][0].as_u64().unwrap() as usize;
    assert_eq!(app.get("/readyz").send().await.status.as_u16(), 200);

    proxy.cut();
    // Checkout (1 s) plus statement (1 s), and room for a loaded test machine.
    let bound = Duration::from_secs(6);
    for _ in 0..2 {
        let started = Instant::now();
        app.get("/readyz").send().await.assert_problem(503, "service-unavailable");
        assert!(started.elapsed() < bound, "/readyz took {:?}", started.elapsed());
    }
    let started = Instant::now();
    app.get(&format!("/v1/matches/{id}")).send().await.assert_problem(503, "service-unavailable");
    assert!(started.elapsed() < bound, "a read took {:?}", started.elapsed());
    let started = Instant::now();
    app.play(&token, id, seat, &json!({"type": "bid", "tricks": 1})).await.assert_problem(503, "service-unavailable");
    assert!(started.elapsed() < bound, "a move took {:?}", started.elapsed());
    let started = Instant::now();
    app.get(&format!("/v1/matches/{id}/events")).send().await.assert_problem(503, "service-unavailable");
    assert!(started.elapsed() < bound, "the event feed took {:?}", started.elapsed());
}

/// Every problem code the service answers with is in the table of docs/api.md.
#[test]
fn every_problem_code_is_documented() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let docs = std::fs::read_to_string(format!("{root}/docs/api.md")).unwrap();
    let table: String = docs.lines().filter(|l| l.starts_with("| ")).collect::<Vec<_>>().join("\n");
    let mut codes = Vec::new();
    let mut sources = vec![std::path::PathBuf::from(format!("{root}/api/src"))];
    while let Some(path) = sources.pop() {
        if path.is_dir() {
            sources.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // The first string literal after each constructor of a problem, when it is a code.
        for (at, _) in text.match_indices("ApiError::").chain(text.match_indices("translated(")) {
            let rest = &text[at..];
            let Some(open) = rest.find('"') else { continue };
            let literal: String = rest[open + 1..].chars().take_while(|c| *c != '"').collect();
            let is_code = !literal.is_empty() && literal.chars().all(|c| c.is_ascii_lowercase() || c == '-');
            if is_code && !rest[..open].contains(';') {
                codes.push(literal);
            }
        }
    }
    assert!(codes.len() > 20, "the scan finds the codes: {codes:?}");
    for code in ["invalid-seats", "no-human-seat", "bots-unsettled", "invalid-name", "internal"] {
        assert!(codes.iter().any(|c| c == code), "{code} is found in the sources: {codes:?}");
    }
    let missing: Vec<&String> = codes.iter().filter(|c| !table.contains(&format!("`{c}`"))).collect();
    assert!(missing.is_empty(), "problem codes missing from the table in docs/api.md: {missing:?}");
}

/// A replay step showed, to anyone, the cards the deal's record keeps back for ever (Svängknack's
/// blanked cards, folded hands, the undrawn talon). Now no step of any game's finished deal
/// shows a card its record does not, and a seated player's record shows at least what
/// everyone's does.
#[actix_web::test]
async fn no_replay_step_shows_what_the_deals_record_keeps_back() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    for game in engine::playable() {
        // A generator of the game's own, so that a game added or a bot changed elsewhere does not
        // change this game's moves (Muggins once missed the end of a deal that way).
        let mut rng = engine::random::Rng::new(25 + game.id().bytes().map(u64::from).sum::<u64>());
        let players = *game.player_counts().start();
        // A game on the server's clock is played by the person at every seat (its bots react
        // only after their delays), and Hej knekt's one deal is cut short.
        let clocked = game.clocked();
        let seats: Vec<Value> = (0..players)
            .map(|s| if s == 0 || clocked { json!({"kind": "me"}) } else { json!({"kind": "bot"}) })
            .collect();
        let options = if game.id() == "hej-knekt" { json!({ "turn_limit": 40 }) } else { Value::Null };
        let created = app.create_match(&ada, json!({ "game": game.id(), "seats": seats, "options": options })).await;
        let id = created["id"].as_str().unwrap().to_string();
        // Play until a deal is over (and for Svängknack a few more, for blanks and folds).
        let wanted = if game.id() == "svangknack" { 4 } else { 2 };
        // Enough moves for the longest deal: Muggins stops at 2000 cards turned.
        for _ in 0..2500 {
            let view = app.view(&ada, &id, Some(0)).await;
            if view["phase"] == "finished" || view["deal_number"].as_u64().unwrap_or(0) >= wanted {
                break;
            }
            let mut seat = 0;
            let mut moves = app.legal_moves(&ada, &id, 0).await;
            if clocked {
                // The first seat listed that has something to do.
                for s in view["to_act"].as_array().unwrap().iter().filter_map(Value::as_u64) {
                    moves = app.legal_moves(&ada, &id, s as usize).await;
                    if !moves.is_empty() {
                        seat = s as usize;
                        break;
                    }
                }
            }
            assert!(!moves.is_empty(), "{}: seat {seat} has no move: {view}", game.id());
            let r = app.play(&ada, &id, seat, &moves[rng.below(moves.len())]).await;
            assert_eq!(r.status.as_u16(), 200, "{}: {}", game.id(), r.body);
        }
        let view = app.view(&ada, &id, Some(0)).await;
        let finished = view["phase"] == "finished";
        let last = view["deal_number"].as_u64().unwrap() - u64::from(!finished);
        assert!(last >= 1, "{}: no deal was finished", game.id());
        for deal in 1..=last {
            let record = app.get(&format!("/v1/matches/{id}/deals/{deal}")).send().await;
            assert_eq!(record.status.as_u16(), 200, "{}: {}", game.id(), record.body);
            let public = kortbord_e2e::cards_in(&record.body);
            let own = app.get(&format!("/v1/matches/{id}/deals/{deal}")).token(&ada).send().await;
            let own_cards = kortbord_e2e::cards_in(&own.body);
            assert!(public.iter().all(|c| own_cards.contains(c)), "{}: a seat's record shows less", game.id());
            let steps = record.body["events"].as_array().unwrap().len();
            for at in 0..=steps {
                for (who, token, allowed) in [("anyone", None, &public), ("seat 0", Some(&ada), &own_cards)] {
                    let mut request = app.get(&format!("/v1/matches/{id}/deals/{deal}/replay?at={at}"));
                    if let Some(token) = token {
                        request = request.token(token);
                    }
                    let step = request.send().await;
                    assert_eq!(step.status.as_u16(), 200, "{}: {}", game.id(), step.body);
                    for card in kortbord_e2e::cards_in(&step.body) {
                        assert!(allowed.contains(&card), "{}: step {at} shows {who} {card}, kept back", game.id());
                    }
                }
            }
        }
    }
}
