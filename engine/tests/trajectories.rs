//! Behaviour pinned down: for every playable game and player count, a few bot matches are
//! played and everything the service can be shown along the way (each decision's events, every
//! view, every redacted event, the legal moves and the refusals of the whole move space) is
//! folded into one fingerprint. A refactoring must leave the fingerprints as they are; a change
//! of behaviour that is meant updates them with
//! `UPDATE_TRAJECTORIES=1 cargo test -p kortbord-engine --test trajectories`
//! and says why in its commit.

use std::collections::BTreeMap;
use std::path::PathBuf;

use engine::game::{Match, Refusal, Status, Viewer};
use engine::random::Rng;
use serde_json::Value;

const SEEDS: u64 = 3;

/// FNV-1a: the same on every platform and every build.
struct Fingerprint(u64);

impl Fingerprint {
    fn add(&mut self, text: &str) {
        for b in text.bytes().chain([0xff]) {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn value(&mut self, v: &Value) {
        self.add(&v.to_string());
    }
}

fn viewers(players: usize) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = (0..players).map(Viewer::Seat).collect();
    v.extend([Viewer::Spectator, Viewer::Record]);
    v
}

fn observe(m: &dyn Match, players: usize, events: &[Value], f: &mut Fingerprint) {
    f.value(&serde_json::to_value(m.status()).unwrap());
    for viewer in viewers(players) {
        f.value(&m.view(viewer));
        for e in events {
            f.value(&m.redact(e, viewer, false));
            f.value(&m.redact(e, viewer, true));
        }
    }
}

fn play(game: &dyn engine::game::Game, players: usize, seed: u64, f: &mut Fingerprint) {
    let mut rng = Rng::new(seed);
    let mut m = game.setup(players, &Value::Null).unwrap();
    let mut deals = 0;
    loop {
        let events = match m.status() {
            Status::Finished { .. } => return,
            Status::NeedsDeck { composition } => {
                deals += 1;
                if deals > 6 {
                    return;
                }
                let mut deck = composition;
                rng.shuffle(&mut deck);
                m.deal(&deck).unwrap()
            }
            Status::NeedsShuffle { mut cards } => {
                rng.shuffle(&mut cards);
                m.deal(&cards).unwrap()
            }
            Status::ToAct { seats } => {
                for &s in &seats {
                    for c in m.legal_moves(s) {
                        f.value(&c);
                    }
                }
                let movers = engine::game::movers(m.as_ref());
                let seat = movers[rng.below(movers.len())];
                for c in m.move_space(seat) {
                    match m.decide(seat, &c) {
                        Ok(events) => events.iter().for_each(|e| f.value(e)),
                        Err(Refusal::Violation(v)) => {
                            f.add(&format!("{} {} {}", v.rule, v.explanation.sv, v.explanation.en))
                        }
                        Err(Refusal::Malformed(e)) => f.add(&e),
                    }
                }
                let command = m.bot_move(seat, rng.next_u64()).unwrap();
                f.value(&command);
                m.decide(seat, &command).unwrap()
            }
        };
        for e in &events {
            f.value(e);
            m.apply(e).unwrap();
        }
        observe(m.as_ref(), players, &events, f);
    }
}

#[test]
fn behaviour_matches_the_recorded_fingerprints() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/trajectories.json");
    let mut found = BTreeMap::new();
    for game in engine::playable() {
        for players in game.player_counts() {
            let mut f = Fingerprint(0xcbf2_9ce4_8422_2325);
            for seed in 0..SEEDS {
                play(game.as_ref(), players, seed * 104_729 + players as u64, &mut f);
            }
            found.insert(format!("{}-{players}", game.id()), format!("{:016x}", f.0));
        }
    }
    if std::env::var("UPDATE_TRAJECTORIES").is_ok() {
        std::fs::write(&path, serde_json::to_string_pretty(&found).unwrap() + "\n").unwrap();
        return;
    }
    let recorded: BTreeMap<String, String> =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("tests/trajectories.json")).unwrap();
    let differ: Vec<_> = found.iter().filter(|(k, v)| recorded.get(*k) != Some(v)).map(|(k, _)| k).collect();
    assert!(differ.is_empty(), "behaviour changed for {differ:?}");
    assert_eq!(recorded.len(), found.len(), "games or player counts were added or removed");
}
