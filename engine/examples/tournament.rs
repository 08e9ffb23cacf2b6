//! Bots against bots: plays matches of one game between a bot level under test and another,
//! rotating the seats, and prints the test level's win rate and mean score difference with 95 %
//! confidence intervals. Run through `scripts/bots` (see docs/bots.md):
//!
//!     cargo run --release -p kortbord-engine --example tournament -- plump strong random 1000
//!
//! Arguments: game, level under test, opposing level, matches, then optionally `--players N`,
//! `--seed S`, `--threads T`, `--options JSON` (the match's options, e.g. `'{"free":true}'`). In a partnership game with fixed sides (Spader, Fyrmanswhist,
//! Whist, Fyrtioett) the tested level holds one side, seats s and s + 2; elsewhere (Priffe too,
//! whose partners change between sittings, and Tarot, whose called partner changes every deal)
//! it holds one seat against the others. Seats rotate
//! from match to match. The score difference is the tested seat's (or side's) final score less
//! the mean of the others' ([`engine::game::Rules::standing`]).

use std::time::Instant;

use engine::bots::Level;
use engine::game::Status;
use engine::random::Rng;
use serde_json::Value;

struct Result {
    win: f64,
    diff: f64,
    decisions: u64,
}

fn play(
    game: &'static dyn engine::game::Game,
    options: &Value,
    players: usize,
    test: Level,
    other: Level,
    n: u64,
    seed: u64,
) -> Result {
    let partners = matches!(game.id(), "spader" | "fyrmanswhist" | "whist" | "braus" | "femhundra" | "fyrtioett");
    let mut m = game.setup(players, &game.normalize_options(options).expect("options")).expect("setup");
    let first = (n as usize) % if partners { 2 } else { players };
    let tested: Vec<usize> = if partners { vec![first, first + 2] } else { vec![first] };
    let mut rng = Rng::new(seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut decisions = 0;
    for _ in 0..1_000_000 {
        match m.status() {
            Status::Finished { outcome } => {
                let win = if outcome.winners.iter().any(|w| tested.contains(w)) {
                    1.0 / if partners { 1.0 } else { outcome.winners.len() as f64 }
                } else {
                    0.0
                };
                return Result { win, diff: m.standing(first), decisions };
            }
            Status::NeedsDeck { composition: mut cards } | Status::NeedsShuffle { mut cards } => {
                rng.shuffle(&mut cards);
                for e in m.deal(&cards).expect("deal") {
                    m.apply(&e).unwrap();
                }
            }
            Status::ToAct { .. } => {
                // In a clocked game the quickest bot acts first (a move made at once before any
                // reaction), unless a window's time runs out before it.
                let level_of = |seat: usize| if tested.contains(&seat) { test } else { other };
                let mut first: Option<(Option<u64>, usize, u64)> = None;
                for seat in engine::game::movers(m.as_ref()) {
                    let seed = rng.next_u64();
                    let at = m.bot_reaction_at(seat, level_of(seat), seed);
                    if first.is_none_or(|(best, _, _)| at.unwrap_or(0) < best.unwrap_or(0)) {
                        first = Some((at, seat, seed));
                    }
                }
                let due = m.due_at();
                let events = match first {
                    Some((Some(at), _, _)) if due.is_some_and(|due| due <= at) => {
                        m.time_passes(due.unwrap()).expect("time passes")
                    }
                    None => m.time_passes(due.expect("a mover or a window")).expect("time passes"),
                    Some((at, seat, seed)) => {
                        let level = level_of(seat);
                        decisions += u64::from(level == test);
                        let mut command = m.bot_move_at(seat, level, seed).expect("a move");
                        if let Some(at) = at {
                            command[engine::game::AT_MS] = at.into();
                        }
                        m.decide(seat, &command).expect("legal")
                    }
                };
                for e in events {
                    m.apply(&e).unwrap();
                }
            }
        }
    }
    panic!("match {n} did not end");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--list") {
        // The games with a strong bot of their own: what scripts/bots plays by default.
        engine::playable().iter().filter(|g| g.bot_levels().strong).for_each(|g| println!("{}", g.id()));
        return;
    }
    let flag = |name: &str| {
        args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(|v| v.parse::<u64>().unwrap())
    };
    let level = |s: &str| serde_json::from_value::<Level>(Value::String(s.into())).expect("random, basic or strong");
    let [game, test, other, matches] = [0, 1, 2, 3].map(|i| args.get(i).cloned().unwrap_or_default());
    let game = engine::game(&game).expect("a playable game id");
    let (test, other) = (level(&test), level(&other));
    let matches: u64 = matches.parse().expect("a number of matches");
    let players =
        flag("--players").map_or(*game.player_counts().start().max(&4).min(game.player_counts().end()), |p| p as usize);
    let seed = flag("--seed").unwrap_or(1);
    let threads = flag("--threads").unwrap_or(1).max(1);
    let options: Value = args
        .iter()
        .position(|a| a == "--options")
        .and_then(|i| args.get(i + 1))
        .map_or(Value::Null, |o| serde_json::from_str(o).expect("--options takes a JSON object"));
    let options = &options;
    let start = Instant::now();
    let results: Vec<Result> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (t..matches)
                        .step_by(threads as usize)
                        .map(|n| play(game, options, players, test, other, n, seed))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let n = results.len() as f64;
    let mean = |f: &dyn Fn(&Result) -> f64| results.iter().map(f).sum::<f64>() / n;
    let (win, diff) = (mean(&|r| r.win), mean(&|r| r.diff));
    let sd = (results.iter().map(|r| (r.diff - diff).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let win_sd = (results.iter().map(|r| (r.win - win).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let decisions: u64 = results.iter().map(|r| r.decisions).sum();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} {options} {players} players: {} vs {}, {} matches: win rate {:.1} % ± {:.1}, mean score difference {:+.1} ± {:.1} (95 % CI); {decisions} {} decisions, {:.2} ms each incl. the others' moves, {secs:.0} s",
        game.id(),
        test.name(),
        other.name(),
        results.len(),
        100.0 * win,
        100.0 * 1.96 * win_sd / n.sqrt(),
        diff,
        1.96 * sd / n.sqrt(),
        test.name(),
        1000.0 * secs * threads as f64 / decisions.max(1) as f64,
    );
}
