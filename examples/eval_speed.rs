//! Benchmark: cost of one evaluation / recognizer call, in CPU time of this thread (prints
//! figures and the evaluation checksum, which pure speed work must keep).
//!
//!     cargo run --release --example eval_speed
//!
//! Positions: every 40th of `configs/books/2moves_v1.epd` and `tests/engine_eval_endgames.epd`,
//! both CC0 1.0 from the Stockfish project's `books` collection.

use std::hint::black_box;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use skillcal::engine::evaluate;
use skillcal::engine::recognize;

fn book(rel: &str) -> Vec<Chess> {
    let path = format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"));
    let path = path.as_str();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.parse::<Fen>()
                .unwrap_or_else(|e| panic!("{path}: {l}: {e}"))
                .into_position(CastlingMode::Standard)
                .unwrap_or_else(|e| panic!("{path}: {l}: {e}"))
        })
        .collect()
}

/// CPU time this thread has run, in ns (Linux schedstat), so that other processes on the
/// shared machine do not inflate the figure; wall time elsewhere.
fn cpu_ns(wall: Instant) -> u128 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| wall.elapsed().as_nanos())
}

fn time_per_call(name: &str, positions: &[Chess], f: impl Fn(&Chess) -> i32) {
    let mut sum = 0i64;
    let mut rounds = 0;
    let wall = Instant::now();
    let start = cpu_ns(wall);
    // Long enough (about a second) that the scheduler's accounting granularity is noise.
    while wall.elapsed().as_millis() < 1000 {
        for p in positions {
            sum += i64::from(f(black_box(p)));
        }
        rounds += 1;
    }
    let calls = (rounds * positions.len()) as f64;
    let ns = (cpu_ns(wall) - start) as f64 / calls;
    let wall_ns = wall.elapsed().as_nanos() as f64 / calls;
    println!(
        "{name}: {ns:.1} ns/call CPU ({wall_ns:.1} wall) over {} positions x {rounds} (checksum {sum})",
        positions.len()
    );
}

fn main() {
    // Every 40th opening: about 1,000 positions, a working set that stays in cache as the
    // search's positions do.
    let openings: Vec<Chess> = book("configs/books/2moves_v1.epd")
        .into_iter()
        .step_by(40)
        .collect();
    let endgames = book("tests/engine_eval_endgames.epd");
    // Changes to the evaluation show up here; pure speed work must keep this number.
    let sum: i64 = openings
        .iter()
        .chain(&endgames)
        .map(|p| i64::from(evaluate(p)))
        .sum();
    println!("evaluation checksum {sum}");
    time_per_call("evaluate (openings)", &openings, evaluate);
    time_per_call("evaluate (endgames)", &endgames, evaluate);
    let rec = |p: &Chess| recognize(p).map_or(0, |r| r.score);
    time_per_call("recognize (openings)", &openings, rec);
    time_per_call("recognize (endgames)", &endgames, rec);
}
