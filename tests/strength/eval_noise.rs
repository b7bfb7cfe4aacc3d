//! EvalNoise: the per-position noise on the static evaluation is a function of the position key
//! and the seed alone (its distribution, its bound), searches under it replay exactly for a
//! fixed seed (in-process and over a real UCI pipe), another seed plays differently, and at 0
//! the bench count is the full-strength one.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use skillcal::engine::Weakening;
use skillcal::engine::{bench_nodes, DEFAULT_DEPTH};
use skillcal::engine::{uci_string, Game};
use skillcal::engine::{Control, Engine, SearchParams};
use skillcal::strength::{eval_noise, eval_noise_seed, Settings};

/// The full-strength bench count (README; the `Bench:` line of the last search-changing commit).
const BENCH: u64 = 7_692_074;

const POSITIONS: &[&str] = &[
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq - 2 5",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
];

#[test]
fn noise_is_a_bounded_unit_normal_approximation_fixed_by_key_and_seed() {
    let seed = eval_noise_seed(11);
    let n = 200_000u64;
    let (mut sum, mut sq, mut max) = (0.0f64, 0.0f64, 0i32);
    for i in 0..n {
        let key = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x1234;
        let v = eval_noise(key, seed, 100);
        assert_eq!(
            v,
            eval_noise(key, seed, 100),
            "same key and seed, same noise"
        );
        sum += f64::from(v);
        sq += f64::from(v) * f64::from(v);
        max = max.max(v.abs());
    }
    let mean = sum / n as f64;
    let sd = (sq / n as f64 - mean * mean).sqrt();
    // standard error of the mean 100 / sqrt(200000) = 0.22
    assert!(mean.abs() < 1.0, "mean {mean}");
    assert!((sd - 100.0).abs() < 1.5, "sd {sd}");
    // Irwin-Hall with four terms: never beyond 2 sqrt(3) sigma
    assert!(max <= 347 && max > 250, "max {max}");
    assert_eq!(eval_noise(5, seed, 0), 0);
    let other = eval_noise_seed(12);
    let differ = (0..100u64)
        .filter(|&k| eval_noise(k, seed, 100) != eval_noise(k, other, 100))
        .count();
    assert!(
        differ > 90,
        "another seed draws other noise ({differ} of 100 differ)"
    );
}

/// One search at a node budget under `spec` with engine seed `seed`, in a fresh engine.
fn search(fen: &str, spec: &str, seed: u64) -> (String, i32, u64) {
    let game = Game::from_fen(fen).unwrap();
    let eff = Settings::from_spec(spec).unwrap().effective();
    let mut params = SearchParams::default();
    params.limits.nodes = Some(20_000);
    let w = Weakening::prepare(&eff, seed, &game, &mut params);
    let mut r = Engine::new(4).search(&game, &params, &Control::default(), &mut |_| {});
    w.apply(&mut r);
    (uci_string(r.best.unwrap()), r.score, r.nodes)
}

#[test]
fn searches_replay_for_a_seed_and_differ_across_seeds() {
    let spec = "EvalNoise=150";
    let mut moves_differ = 0;
    let mut results_differ = 0;
    for fen in POSITIONS {
        let a = search(fen, spec, 7);
        assert_eq!(a, search(fen, spec, 7), "{fen}: same seed, same search");
        let b = search(fen, spec, 8);
        let full = search(fen, "", 7);
        results_differ += usize::from(a != b);
        moves_differ += usize::from(a.0 != b.0 || a.0 != full.0);
        assert_ne!(a, full, "{fen}: EvalNoise 150 changes the search");
    }
    assert!(results_differ >= 3, "another seed searches differently");
    assert!(moves_differ >= 1, "the noise changes some move");
}

#[test]
fn zero_eval_noise_keeps_the_bench_count() {
    let settings = Settings::from_spec("EvalNoise=0").unwrap();
    assert_eq!(settings, Settings::default());
    assert_eq!(bench_nodes(DEFAULT_DEPTH, &settings, |_, _, _| {}), BENCH);
}

/// A UCI session over real pipes; returns the lines up to `bestmove`.
fn session(seed: u32) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for cmd in [
        "uci".to_string(),
        "setoption name EvalNoise value 200".into(),
        format!("setoption name RandomSeed value {seed}"),
        "isready".into(),
        "position startpos moves e2e4 e7e5 g1f3".into(),
        "go nodes 8000".into(),
    ] {
        writeln!(stdin, "{cmd}").unwrap();
    }
    let mut out = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.starts_with("bestmove");
        out.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    out
}

#[test]
fn uci_eval_noise_replays_over_pipes() {
    let a = session(3);
    assert!(a
        .iter()
        .any(|l| l.starts_with("option name EvalNoise type spin default 0")));
    // Search output without the time-dependent fields.
    let strip = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with("info depth") || l.starts_with("bestmove"))
            .map(|l| {
                let t: Vec<&str> = l.split_whitespace().collect();
                let mut keep = Vec::new();
                let mut i = 0;
                while i < t.len() {
                    if matches!(t[i], "time" | "nps" | "hashfull") {
                        i += 2;
                        continue;
                    }
                    keep.push(t[i]);
                    i += 1;
                }
                keep.join(" ")
            })
            .collect()
    };
    assert!(!strip(&a).is_empty());
    assert_eq!(strip(&a), strip(&session(3)), "same seed, same search");
    // and the seed reaches the noise: another one searches otherwise
    assert_ne!(
        strip(&a),
        strip(&session(4)),
        "another seed, the same search"
    );
}
