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

/// Matches recorded beside a game's first one, each under a name of its own, with the options a
/// new match had then: the events of a behaviour that came later as an option (whose older
/// matches the first recording keeps).
const LATER: [(&str, usize, &str, u64); 1] = [
    // Bondtolva asks the trick's winner after every trick (marriage_offer every-trick, 2026-11-28).
    ("bondtolva", 2, "every-trick", 20261128),
];

#[test]
fn recorded_matches_replay_to_their_recorded_end() {
    for game in engine::playable() {
        let players = *game.player_counts().end();
        replays(game.as_ref(), players, &corpus_file(game.id(), players), &Value::Null, 20261122);
    }
    for (id, players, name, seed) in LATER {
        let game = engine::game(id).unwrap();
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/corpus/{id}-{players}-{name}.jsonl"));
        replays(game, players, &path, &game.normalize_options(&Value::Null).unwrap(), seed);
    }
}

/// The recorded match at `path` replays to its recorded end (with `UPDATE_CORPUS`, one is
/// recorded with `options` and `seed` when there is none, and the end of one is rewritten).
fn replays(game: &dyn engine::game::Game, players: usize, path: &std::path::Path, options: &Value, seed: u64) {
    let update = std::env::var("UPDATE_CORPUS").is_ok();
    let (options, (events, header)) = match std::fs::read_to_string(path) {
        Ok(text) => {
            let mut lines = text.lines();
            let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
            let events: Vec<Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
            (header["options"].clone(), (events, header))
        }
        Err(_) if update => {
            let report = play_match(game, players, options, seed, Checks::NONE).unwrap();
            (options.clone(), (report.log, json!({})))
        }
        Err(_) => {
            panic!("{} has no recorded match: run with UPDATE_CORPUS=1 and commit {}", game.id(), path.display())
        }
    };
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
        std::fs::write(path, text).unwrap();
    } else {
        assert_eq!(header["end"], end, "{}: replaying the recorded match gives another end state", game.id());
    }
}
