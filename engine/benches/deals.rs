//! Engine throughput: random deals through each game's typed interface, and replaying a stored
//! deal from its JSON events. Run with `cargo bench -p kortbord-engine`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use engine::game::{Rules, Status};
use engine::games::{plump::Plump, spader::Spader};
use engine::random::Rng;
use engine::simulate::{play_match, Checks};
use serde_json::Value;

/// Plays one whole match with random legal moves through the typed interface (no JSON).
/// Returns how many deals it took.
fn random_match<R: Rules>(rules: &R, players: usize, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut state = rules.setup(players, R::Options::default()).expect("setup");
    let mut deals = 0;
    loop {
        let events = match rules.status(&state) {
            Status::Finished { .. } => return deals,
            Status::NeedsDeck { mut composition } => {
                rng.shuffle(&mut composition);
                deals += 1;
                rules.deal(&state, composition).expect("deal")
            }
            Status::NeedsShuffle { mut cards } => {
                rng.shuffle(&mut cards);
                rules.reshuffle(&state, cards).expect("reshuffle")
            }
            Status::ToAct { .. } => {
                let seats = engine::game::movers_of(rules, &state);
                let seat = seats[rng.below(seats.len())];
                let command = rules.bot_move(&state, seat, rng.next_u64()).expect("a move");
                rules.decide(&state, seat, &command).expect("legal")
            }
        };
        for e in &events {
            rules.evolve(&mut state, e);
        }
    }
}

fn bench_random_deals(c: &mut Criterion) {
    let mut group = c.benchmark_group("random deals (typed)");
    // Deals per match are fixed for Plump (4 players: 13 down to 1) and vary for Spader, so
    // throughput is counted from a sample of matches run beforehand.
    let plump_deals: u64 = (0..20).map(|s| random_match(&Plump, 4, s)).sum::<u64>() / 20;
    group.throughput(Throughput::Elements(plump_deals));
    let mut seed = 0;
    group.bench_function("plump, 4 players, one match", |b| {
        b.iter(|| {
            seed += 1;
            random_match(&Plump, 4, seed)
        })
    });
    let spader_deals = (0..20).map(|s| random_match(&Spader, 4, s)).sum::<u64>() as f64 / 20.0;
    group.throughput(Throughput::Elements(spader_deals.round() as u64));
    group.bench_function("spader, one match", |b| {
        b.iter(|| {
            seed += 1;
            random_match(&Spader, 4, seed)
        })
    });
    group.finish();
}

fn bench_replay(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay from stored JSON");
    for (id, players) in [("plump", 4), ("spader", 4)] {
        let game = engine::game(id).unwrap();
        let report = play_match(game, players, &Value::Null, 7, Checks::NONE).unwrap();
        // One deal's worth: the first deal's events, as the service stores them.
        let text: Vec<String> = report.log.iter().map(|e| e.to_string()).collect();
        let first_deal_end =
            report.log.iter().skip(1).position(|e| e["type"] == "deal_started").map_or(text.len(), |i| i + 1);
        group.throughput(Throughput::Elements(first_deal_end as u64));
        group.bench_function(format!("{id}: first deal, {first_deal_end} events"), |b| {
            b.iter_batched(
                || text[..first_deal_end].to_vec(),
                |events| {
                    let mut m = game.setup(players, &Value::Null).unwrap();
                    for e in &events {
                        m.apply(&serde_json::from_str(e).unwrap()).unwrap();
                    }
                    m.deal_number()
                },
                BatchSize::SmallInput,
            )
        });
        group.throughput(Throughput::Elements(text.len() as u64));
        group.bench_function(format!("{id}: whole match, {} events", text.len()), |b| {
            b.iter(|| {
                let mut m = game.setup(players, &Value::Null).unwrap();
                for e in &text {
                    m.apply(&serde_json::from_str(e).unwrap()).unwrap();
                }
                m.deal_number()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_random_deals, bench_replay);
criterion_main!(benches);
