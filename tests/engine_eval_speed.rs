//! Cost of one evaluation / recognizer call (not a pass/fail test; prints figures).
//!
//! `cargo test --release --test engine_eval_speed -- --ignored --nocapture`
//!
//! Positions: `configs/books/2moves_v1.epd` (all 40,457) and `tests/engine_eval_endgames.epd`,
//! both CC0 1.0 from the Stockfish project's `books` collection.

use std::hint::black_box;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use skillcal::engine::eval::evaluate;
use skillcal::engine::recognizer::recognize;

fn book(path: &str) -> Vec<Chess> {
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

fn time_per_call(name: &str, positions: &[Chess], f: impl Fn(&Chess) -> i32) {
    let rounds = 20;
    let mut sum = 0i64;
    let start = Instant::now();
    for _ in 0..rounds {
        for p in positions {
            sum += i64::from(f(black_box(p)));
        }
    }
    let ns = start.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64;
    println!(
        "{name}: {ns:.1} ns/call over {} positions x {rounds} (checksum {sum})",
        positions.len()
    );
}

#[test]
#[ignore = "benchmark; run with --release --ignored --nocapture"]
fn eval_speed() {
    let openings = book("configs/books/2moves_v1.epd");
    let endgames = book("tests/engine_eval_endgames.epd");
    time_per_call("evaluate (openings)", &openings, evaluate);
    time_per_call("evaluate (endgames)", &endgames, evaluate);
    let rec = |p: &Chess| recognize(p).map_or(0, |r| r.score);
    time_per_call("recognize (openings)", &openings, rec);
    time_per_call("recognize (endgames)", &endgames, rec);
}
