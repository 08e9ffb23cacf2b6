//! How long a strong bot takes to decide: Plump and Spader decisions drawn from bot matches (bids
//! and cards, early and late in a deal). Run with `cargo bench -p kortbord-engine --bench bots`;
//! the bound is 20 ms at p99 (docs/bots.md).

use criterion::{criterion_group, criterion_main, Criterion};
use engine::bots::{self, Level};
use engine::game::{Rules, Status};
use engine::games::{
    braus::Braus, fyrtioett::Fyrtioett, plump::Plump, polskt_pass::PolsktPass, priffe::Priffe, rodskagg::Rodskagg,
    spader::Spader, svangknack::Svangknack, whist::Whist,
};
use engine::random::Rng;

/// States where `seat` must choose among several moves, from basic-bot matches.
fn positions<R: Rules>(rules: &R, count: usize) -> Vec<(R::State, usize)> {
    let mut rng = Rng::new(11);
    let mut found = Vec::new();
    while found.len() < count {
        let mut state = rules.setup(4, R::Options::default()).unwrap();
        loop {
            let events = match rules.status(&state) {
                Status::Finished { .. } => break,
                Status::NeedsDeck { mut composition } => {
                    rng.shuffle(&mut composition);
                    rules.deal(&state, composition).unwrap()
                }
                Status::ToAct { seats } => {
                    let seat = seats[0];
                    if rules.legal_moves(&state, seat).len() > 1 && rng.below(8) == 0 && found.len() < count {
                        found.push((state.clone(), seat));
                    }
                    let command = bots::choose(rules, &state, seat, Level::Basic, rng.next_u64()).unwrap();
                    rules.decide(&state, seat, &command).unwrap()
                }
            };
            events.iter().for_each(|e| rules.evolve(&mut state, e));
        }
    }
    found
}

fn bench_strong<R: Rules>(c: &mut Criterion, name: &str, rules: &R) {
    // The tail first: each of 200 positions timed once (criterion reports means).
    let mut times: Vec<f64> = positions(rules, 200)
        .iter()
        .enumerate()
        .map(|(i, (state, seat))| {
            let start = std::time::Instant::now();
            std::hint::black_box(bots::choose(rules, state, *seat, Level::Strong, i as u64));
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "strong decision, {name}: 200 positions, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        at(0.5),
        at(0.99),
        at(1.0)
    );
    let positions = positions(rules, 64);
    let mut i = 0;
    c.bench_function(&format!("strong decision, {name}"), |b| {
        b.iter(|| {
            i = (i + 1) % positions.len();
            let (state, seat) = &positions[i];
            bots::choose(rules, state, *seat, Level::Strong, i as u64)
        })
    });
}

fn bench_bots(c: &mut Criterion) {
    bench_strong(c, "plump", &Plump);
    bench_strong(c, "spader", &Spader);
    bench_strong(c, "whist", &Whist);
    bench_strong(c, "braus", &Braus);
    bench_strong(c, "fyrtioett", &Fyrtioett);
    bench_strong(c, "priffe", &Priffe);
    bench_strong(c, "rodskagg", &Rodskagg);
    bench_strong(c, "svangknack", &Svangknack);
    bench_strong(c, "polskt-pass", &PolsktPass);
}

criterion_group!(benches, bench_bots);
criterion_main!(benches);
