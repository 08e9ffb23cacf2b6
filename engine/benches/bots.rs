//! How long a strong bot takes to decide, in CPU time of the deciding thread (so that other work
//! on the machine does not count): decisions drawn from basic-bot matches of every game with a
//! strong bot (bids and cards, early and late in a deal). Run with
//! `cargo bench -p kortbord-engine --bench bots` (`BOTS_BENCH=vandtia` for one game,
//! `BOTS_PLAYERS=2` for another player count than four); the bound is 20 ms at p99 (docs/bots.md).

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use engine::bots::{self, Level};
use engine::game::{Rules, Status};
use engine::games::{
    blackjack::Blackjack, bondtolva::Bondtolva, braus::Braus, chicago::Chicago, fan_tan::FanTan, femhundra::Femhundra,
    femkort::Femkort, femtio::Femtio, finns_i_sjon::FinnsISjon, fusk::Fusk, fyrmanswhist::Fyrmanswhist,
    fyrtioett::Fyrtioett, gris::Gris, gurka::Gurka, hej_knekt::HejKnekt, japansk_whist::JapanskWhist, jazz::Jazz,
    kasino::Kasino, kom_ihag::KomIhag, krypkasino::Krypkasino, lange_laban::LangeLaban,
    lojliga_familjerna::LojligaFamiljerna, norrlandsknack::Norrlandsknack, plump::Plump, poker::Poker,
    polskt_pass::PolsktPass, president::President, priffe::Priffe, rodskagg::Rodskagg, rummy::Rummy,
    skitgubbe::Skitgubbe, snipp_snapp_snorum::SnippSnappSnorum, spader::Spader, stopp::Stopp, stortok::Stortok,
    stotpoker::Stotpoker, svangknack::Svangknack, svarte_petter::SvartePetter, tarot::Tarot, trettioett::Trettioett,
    tvartom_kom_ihag::TvartomKomIhag, vandatta::Vandatta, vandtia::Vandtia, whist::Whist,
};
use engine::random::Rng;

/// States where `seat` must choose among several moves, from basic-bot matches.
fn positions<R: Rules>(rules: &R, count: usize) -> Vec<(R::State, usize)> {
    let mut rng = Rng::new(11);
    let mut found = Vec::new();
    // Four players unless `BOTS_PLAYERS` asks for another count (within the game's).
    let players = std::env::var("BOTS_PLAYERS")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(4)
        .clamp(*rules.player_counts().start(), *rules.player_counts().end());
    while found.len() < count {
        let mut state = rules.setup(players, R::Options::default()).unwrap();
        loop {
            let events = match rules.status(&state) {
                Status::Finished { .. } => break,
                Status::NeedsDeck { composition: mut cards } | Status::NeedsShuffle { mut cards } => {
                    rng.shuffle(&mut cards);
                    engine::game::shuffled_in(rules, &state, cards).unwrap()
                }
                Status::ToAct { .. } => {
                    let seat = engine::game::movers_of(rules, &state)[0];
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

/// The CPU time this thread has used, in milliseconds.
fn thread_cpu_ms() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to write into.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(ok, 0, "no thread CPU clock");
    t.tv_sec as f64 * 1000.0 + t.tv_nsec as f64 / 1e6
}

/// Whether `BOTS_BENCH` (`BOTS_BENCH=braus,tarot cargo bench -p kortbord-engine --bench bots`)
/// leaves the game in.
fn wanted(name: &str) -> bool {
    match std::env::var("BOTS_BENCH") {
        Ok(only) => only.split(',').any(|g| g == name),
        Err(_) => true,
    }
}

/// A game's 200 positions for the tail, and how to time the decision at one of them.
struct Tail {
    name: &'static str,
    decide: Box<dyn Fn(usize) -> f64>,
    least: Vec<f64>,
}

fn tail<R: Rules>(rules: &'static R) -> Tail {
    let positions = positions(rules, 200);
    let least = vec![f64::INFINITY; positions.len()];
    let decide = Box::new(move |i: usize| {
        let (state, seat) = &positions[i];
        let start = thread_cpu_ms();
        std::hint::black_box(bots::choose(rules, state, *seat, Level::Strong, i as u64));
        thread_cpu_ms() - start
    });
    Tail { name: R::ID, decide, least }
}

/// The tail (criterion reports means): every position of every game timed in five passes over
/// all the games (a minute or so in all), and each position's least CPU time kept. A decision is
/// the same work each time (same state, same seed), yet on a shared virtual machine the same run
/// takes up to 1.7 times as long while the host is busy, for seconds or minutes at a time; the
/// least of passes spread out is the work's own cost.
fn print_tails(mut tails: Vec<Tail>) {
    for _ in 0..5 {
        for tail in &mut tails {
            for i in 0..tail.least.len() {
                tail.least[i] = tail.least[i].min((tail.decide)(i));
            }
        }
    }
    for tail in tails {
        let mut times = tail.least;
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
        println!(
            "strong decision, {}: 200 positions, CPU p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            tail.name,
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
}

fn bench_strong<R: Rules>(c: &mut Criterion, rules: &'static R, tails: &mut Vec<Tail>) {
    if !wanted(R::ID) {
        return;
    }
    tails.push(tail(rules));
    let positions = positions(rules, 64);
    let mut i = 0;
    c.bench_function(&format!("strong decision, {}", R::ID), |b| {
        b.iter(|| {
            i = (i + 1) % positions.len();
            let (state, seat) = &positions[i];
            bots::choose(rules, state, *seat, Level::Strong, i as u64)
        })
    });
}

fn bench_bots(c: &mut Criterion) {
    let mut tails = Vec::new();
    bench_strong(c, &Plump, &mut tails);
    bench_strong(c, &Spader, &mut tails);
    bench_strong(c, &Fyrmanswhist, &mut tails);
    bench_strong(c, &JapanskWhist, &mut tails);
    bench_strong(c, &Whist, &mut tails);
    bench_strong(c, &Braus, &mut tails);
    bench_strong(c, &Bondtolva, &mut tails);
    bench_strong(c, &Femtio, &mut tails);
    bench_strong(c, &Femhundra, &mut tails);
    bench_strong(c, &Fyrtioett, &mut tails);
    bench_strong(c, &Priffe, &mut tails);
    bench_strong(c, &Rodskagg, &mut tails);
    bench_strong(c, &Norrlandsknack, &mut tails);
    bench_strong(c, &Femkort, &mut tails);
    bench_strong(c, &Trettioett, &mut tails);
    bench_strong(c, &Gurka, &mut tails);
    bench_strong(c, &Tarot, &mut tails);
    bench_strong(c, &Svangknack, &mut tails);
    bench_strong(c, &PolsktPass, &mut tails);
    bench_strong(c, &President, &mut tails);
    bench_strong(c, &FanTan, &mut tails);
    bench_strong(c, &Kasino, &mut tails);
    bench_strong(c, &Krypkasino, &mut tails);
    bench_strong(c, &SnippSnappSnorum, &mut tails);
    bench_strong(c, &Stopp, &mut tails);
    bench_strong(c, &Vandatta, &mut tails);
    bench_strong(c, &Vandtia, &mut tails);
    bench_strong(c, &Stortok, &mut tails);
    bench_strong(c, &LangeLaban, &mut tails);
    bench_strong(c, &Skitgubbe, &mut tails);
    bench_strong(c, &SvartePetter, &mut tails);
    bench_strong(c, &LojligaFamiljerna, &mut tails);
    bench_strong(c, &FinnsISjon, &mut tails);
    bench_strong(c, &KomIhag, &mut tails);
    bench_strong(c, &TvartomKomIhag, &mut tails);
    bench_strong(c, &Fusk, &mut tails);
    bench_strong(c, &Rummy, &mut tails);
    bench_strong(c, &Poker, &mut tails);
    bench_strong(c, &Stotpoker, &mut tails);
    bench_strong(c, &Chicago, &mut tails);
    bench_strong(c, &Jazz, &mut tails);
    bench_strong(c, &Blackjack, &mut tails);
    bench_strong(c, &HejKnekt, &mut tails);
    bench_strong(c, &Gris, &mut tails);
    print_tails(tails);
}

criterion_group! {
    name = benches;
    // Short runs for each of the many games: the tail printed above is the figure that matters.
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3)).sample_size(20);
    targets = bench_bots
}
criterion_main!(benches);
