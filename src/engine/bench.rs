//! `skillcal bench`: fixed positions, fresh TT each, one thread; prints `N nodes M nps` last.
//!
//! Positions: the standard-chess part of Stockfish's bench list (src/benchmark.cpp, "Defaults",
//! GPL-3.0; positions are data), without its `moves ...` suffixes and Chess960 entries. The list
//! includes endings, a mate and stalemates, so terminal roots are exercised too.

use super::error::EngineError;
use std::time::Instant;

use super::position::Game;
use super::search::{Control, Engine, SearchParams};
use super::weaken::Weakening;
use crate::strength::{OptionError, Settings};

pub const DEFAULT_DEPTH: u32 = 11;
const BENCH_HASH_MB: usize = 16;

pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
    "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "r1q2rk1/2p1bppp/2Pp4/p6b/Q1PNp3/4B3/PP1R1PPP/2K4R w - - 2 18",
    "4k2r/1pb2ppp/1p2p3/1R1p4/3P4/2r1PN2/P4PPP/1R4K1 b - - 3 22",
    "3q2k1/pb3p1p/4pbp1/2r5/PpN2N2/1P2P2P/5PP1/Q2R2K1 b - - 4 26",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
    "7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1",
    "8/2p5/8/2kPKp1p/2p4P/2P5/3P4/8 w - - 0 1",
    "8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1",
    "8/pp2r1k1/2p1p3/3pP2p/1P1P1P1P/P5KR/8/8 w - - 0 1",
    "8/3p4/p1bk3p/Pp6/1Kp1PpPp/2P2P1P/2P5/5B2 b - - 0 1",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
    "6k1/4pp1p/3p2p1/P1pPb3/R7/1r2P1PP/3B1P2/6K1 w - - 0 1",
    "8/3p3B/5p2/5P2/p7/PP5b/k7/6K1 w - - 0 1",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "8/8/8/5N2/8/p7/8/2NK3k w - - 0 1",
    "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
    "8/8/1P6/5pr1/8/4R3/7k/2K5 w - - 0 1",
    "8/2p4P/8/kr6/6R1/8/8/1K6 w - - 0 1",
    "8/8/3P3k/8/1p6/8/1P6/1K3n2 b - - 0 1",
    "8/R7/2q5/8/6k1/8/1P5p/K6R w - - 0 124",
    "6k1/3b3r/1p1p4/p1n2p2/1PPNpP1q/P3Q1p1/1R1RB1P1/5K2 b - - 0 1",
    "r2r1n2/pp2bk2/2p1p2p/3q4/3PN1QP/2P3R1/P4PP1/5RK1 w - - 0 1",
    "8/8/8/8/8/6k1/6p1/6K1 w - - 0 1",
    "7k/7P/6K1/8/3B4/8/8/8 b - - 0 1",
];

/// What `skillcal bench` runs (filled by `src/cli/engine.rs`).
#[derive(Clone, Debug, Default)]
pub struct BenchOptions {
    /// Search depth per position (default 11).
    pub depth: Option<u32>,
    /// Weakening options as `Name=Value`: the searches keep their depth, so the node count
    /// shows what a knob costs per depth. Random choices use `RandomSeed` (default 1 here, so
    /// the count is reproducible).
    pub set: Vec<String>,
}

/// Total nodes of a fixed-depth search of every bench position, each with a fresh table.
pub fn bench_nodes(
    depth: u32,
    settings: &Settings,
    mut on_position: impl FnMut(usize, &str, u64),
) -> u64 {
    let eff = settings.effective();
    let seed = settings.random_seed.max(1);
    let mut total = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let game = Game::from_fen(fen).expect("bench FENs are valid");
        let mut engine = Engine::new(BENCH_HASH_MB);
        let mut params = SearchParams::default();
        params.limits.depth = Some(depth);
        Weakening::prepare(&eff, seed, &game, &mut params);
        let result = engine.search(&game, &params, &Control::default(), &mut |_| {});
        on_position(i, fen, result.nodes);
        total += result.nodes;
    }
    total
}

pub fn run(args: &BenchOptions) -> Result<(), EngineError> {
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    if depth == 0 {
        return Err(EngineError::Argument(
            "bench: depth must be at least 1".into(),
        ));
    }
    let mut settings = Settings::default();
    // an option set twice: which value was meant cannot be told
    let mut seen: Vec<(String, &str)> = Vec::new();
    for s in &args.set {
        let (name, value) = s.split_once('=').ok_or_else(|| {
            EngineError::Argument(format!("bench --set '{s}': expected NAME=VALUE"))
        })?;
        let key = name.trim().to_ascii_lowercase();
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
            return Err(EngineError::Argument(format!(
                "bench --set '{s}': {} is already set by --set '{first}'",
                name.trim()
            )));
        }
        seen.push((key, s));
        settings.set_option(name, value).map_err(|e| {
            // bench searches with its own hash and one thread: only the weakening options apply
            let more = match e {
                OptionError::Unknown { .. } => {
                    let names: Vec<&str> = settings.uci_options().iter().map(|d| d.name).collect();
                    format!(
                        "; bench --set takes the weakening options: {} (it searches with a \
                         {BENCH_HASH_MB} MB hash and one thread of its own)",
                        names.join(", ")
                    )
                }
                _ => String::new(),
            };
            EngineError::Argument(format!("bench --set '{s}': {e}{more}"))
        })?;
    }
    if settings.maia.on {
        return Err(EngineError::Argument(
            "bench --set 'Style=maia': bench measures the search, which Style maia does not use \
             (scripts/policy-bench.sh measures the network)"
                .to_string(),
        ));
    }
    // checked once every option is set: a StrengthTable or Style after it sets the range
    if let Some((_, s)) = seen.iter().find(|(k, _)| k == "uci_elo") {
        if let Some(o) = settings.elo_outside() {
            let written = s.split_once('=').map_or("", |(_, v)| v);
            return Err(EngineError::Argument(format!(
                "bench --set '{s}': {}",
                o.message(written)
            )));
        }
    }
    let eff = settings.effective();
    if eff.style.plays_human(eff.human_strength) {
        return Err(EngineError::Argument(
            "bench --set: Style human below HumanStrength 1000 (set, or a UCI_Elo row's) plays \
             a Maia net's policy before any search, and bench measures the search alone (its \
             move choice is tested in tests/engine/uci_human.rs)"
                .to_string(),
        ));
    }
    // below its top under Style human it was refused above
    if seen.iter().any(|(k, _)| k == "humanstrength") {
        eprintln!(
            "note: bench --set HumanStrength has no effect outside Style human or at 1000 (its \
             top: the engine's own search)"
        );
    }
    if !settings.limit_strength {
        for (key, s) in &seen {
            if matches!(key.as_str(), "uci_elo" | "style" | "strengthtable") {
                eprintln!(
                    "note: bench --set '{s}' has no effect without --set UCI_LimitStrength=true"
                );
            }
        }
    }
    let start = Instant::now();
    let total = bench_nodes(depth, &settings, |i, fen, nodes| {
        eprintln!("position {:2} {nodes:>10} nodes  {fen}", i + 1);
    });
    let ms = start.elapsed().as_millis().max(1) as u64;
    eprintln!("depth {depth}, {} positions, {ms} ms", POSITIONS.len());
    println!("{total} nodes {} nps", total * 1000 / ms);
    Ok(())
}
