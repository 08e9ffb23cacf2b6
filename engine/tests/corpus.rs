//! Stored matches must replay, on every commit, to the state they were recorded in: events are
//! a contract forever. Each playable game has a recorded match in `tests/corpus/`, one event
//! per line after a header line.
//!
//! `UPDATE_CORPUS=1 cargo test -p kortbord-engine --test corpus` records the games that have no
//! file yet and rewrites only the expected end state of existing ones (their events never change).

use std::path::PathBuf;

use engine::game::{Status, Viewer};
use engine::simulate::{play_match, Checks};
use serde_json::{json, Value};

fn corpus_file(game: &str, players: usize) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/corpus/{game}-{players}.jsonl"))
}

#[test]
fn recorded_matches_replay_to_their_recorded_end() {
    let update = std::env::var("UPDATE_CORPUS").is_ok();
    for game in engine::playable() {
        let players = *game.player_counts().end();
        let path = corpus_file(game.id(), players);
        let (options, events) = match std::fs::read_to_string(&path) {
            Ok(text) => {
                let mut lines = text.lines();
                let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
                let events: Vec<Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
                (header["options"].clone(), (events, header))
            }
            Err(_) if update => {
                let report = play_match(game.as_ref(), players, &Value::Null, 20261122, Checks::NONE).unwrap();
                (Value::Null, (report.log, json!({})))
            }
            Err(_) => {
                panic!("{} has no recorded match: run with UPDATE_CORPUS=1 and commit {}", game.id(), path.display())
            }
        };
        let (events, header) = events;
        let mut m = game.setup(players, &options).unwrap();
        for e in &events {
            m.apply(e).unwrap_or_else(|err| panic!("{}: a recorded event no longer applies: {err}", game.id()));
        }
        assert!(matches!(m.status(), Status::Finished { .. }), "{}: the recorded match is over", game.id());
        let end = json!({ "status": m.status(), "record": m.view(Viewer::Record) });
        if update {
            let mut text = json!({ "game": game.id(), "players": players, "options": options, "end": end }).to_string();
            for e in &events {
                text.push('\n');
                text.push_str(&e.to_string());
            }
            text.push('\n');
            std::fs::write(&path, text).unwrap();
        } else {
            assert_eq!(header["end"], end, "{}: replaying the recorded match gives another end state", game.id());
        }
    }
}
