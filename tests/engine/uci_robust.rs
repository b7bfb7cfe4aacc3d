//! The UCI loop survives any input: overflowing numbers, missing fields, bad FENs and
//! moves, unknown options, stop/isready at odd times. Drives the real `skillcal` binary.

use std::time::{Duration, Instant};

use skillcal::engine::{parse_uci_move, Game};

use crate::support::uci_pipe::Engine;

fn bestmove(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|l| l.split_whitespace().next())
        .expect("a bestmove line")
}

/// Defect 1: vampirc-uci panicked on `go` numbers above 255 (u8 fields), exit status 101.
#[test]
fn go_numbers_above_a_byte_do_not_kill_the_engine() {
    for go in [
        "go depth 256",
        "go mate 256",
        "go movestogo 256",
        "go wtime 1000 movestogo 300",
        "go depth 99999999999999999999999 nodes 5000",
    ] {
        let mut e = Engine::start();
        e.send("position startpos");
        e.send(go);
        e.send("isready");
        let mut lines = e.until("readyok", Duration::from_secs(5));
        // a search bounded by nodes or the clock may end before `readyok` on a busy machine
        if !lines.iter().any(|l| l.starts_with("bestmove")) {
            e.send("stop");
            lines = e.until("bestmove", Duration::from_secs(10));
        }
        parse_uci_move(&Game::default().root, bestmove(&lines)).unwrap();
        e.quit();
    }
}

/// Defect 2: `go nodes <overflow> movetime 100` lost its movetime and searched until `stop`.
#[test]
fn an_overflowing_field_keeps_the_other_limits() {
    let mut e = Engine::start();
    e.send("position startpos");
    let start = Instant::now();
    e.send("go nodes 99999999999999999999 movetime 100");
    // No `stop`: the movetime alone must end the search.
    let lines = e.until("bestmove", Duration::from_secs(5));
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("nodes")),
        "the clamped field is reported: {lines:#?}"
    );
    e.quit();
}

/// A FEN without the halfmove and fullmove counters is accepted (as Stockfish does).
#[test]
fn fen_without_counters_is_accepted() {
    let fen = "8/8/8/4k3/8/8/8/4K2R w K -";
    let game = Game::from_fen(&format!("{fen} 0 1")).unwrap();
    let mut e = Engine::start();
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let lines = e.until("bestmove", Duration::from_secs(10));
    assert!(
        !lines.iter().any(|l| l.contains("position ignored")),
        "{lines:#?}"
    );
    parse_uci_move(&game.root, bestmove(&lines)).unwrap();
    // Five fields (no fullmove number) too, with moves after it.
    e.send(&format!("position fen {fen} 3 moves e1g1"));
    e.send("go depth 2");
    let lines = e.until("bestmove", Duration::from_secs(10));
    let mut after = game.clone();
    after.push_uci("e1g1").unwrap();
    parse_uci_move(&after.root, bestmove(&lines)).unwrap();
    e.quit();
}

/// Small deterministic generator (SplitMix64), so the test needs no crate and replays exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

fn random_number(r: &mut Rng) -> String {
    match r.below(8) {
        0 => "99999999999999999999999999".to_string(),
        1 => format!("-{}", r.below(100_000)),
        2 => "18446744073709551616".to_string(),
        3 => "4294967296".to_string(),
        4 => "256".to_string(),
        5 => "banana".to_string(),
        6 => String::new(),
        _ => r.below(60).to_string(),
    }
}

/// One random line: mostly valid commands with a bias to short searches, many malformed.
fn random_line(r: &mut Rng) -> String {
    const FENS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "8/8/8/4k3/8/8/8/4K2R w K -",
        "8/8/8/8/8/5k2/8/2BNK3 w - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
        "not/a/fen w - - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 99999999999",
        "k7/8/8/8/8/8/8/K7 x - - 0 1",
        "",
    ];
    const MOVES: &[&str] = &[
        "e2e4", "e7e5", "g1f3", "b8c6", "e1g1", "e2e5", "a7a8q", "0000", "zzzz", "e1c1",
    ];
    const FIELDS: &[&str] = &[
        "depth",
        "nodes",
        "mate",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "infinite",
        "ponder",
        "searchmoves",
        "bogus",
    ];
    const OPTIONS: &[&str] = &[
        "Hash",
        "MultiPV",
        "ScoreInaccuracy",
        "RandomSeed",
        "NoiseModel",
        "NoiseSigma",
        "LimitNodes",
        "LimitNps",
        "LimitDepth",
        "UCI_LimitStrength",
        "UCI_Elo",
        "WinGuard",
        "Move Overhead",
        "Clear Hash",
        "Ponder",
        "NoSuchOption",
        "",
    ];
    const VALUES: &[&str] = &[
        "1",
        "0",
        "3",
        "20",
        "true",
        "false",
        "gaussian",
        "gbm",
        "uniform",
        "-7",
        "1e9",
        "",
        "99999999999999999999",
        "1500",
        "4000",
    ];
    match r.below(20) {
        0..=4 => {
            // A go with a few fields; searches stay short unless stopped by the next command.
            let mut s = String::from("go");
            let limit = match r.below(4) {
                0 => " depth 2".to_string(),
                1 => format!(" nodes {}", 1 + r.below(3000)),
                2 => format!(" movetime {}", r.below(20)),
                _ => String::new(),
            };
            s.push_str(&limit);
            for _ in 0..r.below(4) {
                s.push(' ');
                let f = r.pick(FIELDS);
                s.push_str(f);
                if f == "searchmoves" {
                    s.push(' ');
                    s.push_str(r.pick(MOVES));
                } else if !matches!(f, "infinite" | "ponder") {
                    s.push(' ');
                    s.push_str(&random_number(r));
                }
            }
            s
        }
        5..=7 => {
            let mut s = match r.below(3) {
                0 => "position startpos".to_string(),
                1 => format!("position fen {}", r.pick(FENS)),
                _ => "position".to_string(),
            };
            if r.below(2) == 0 {
                s.push_str(" moves");
                for _ in 0..r.below(4) {
                    s.push(' ');
                    s.push_str(r.pick(MOVES));
                }
            }
            s
        }
        8..=9 => {
            let name = r.pick(OPTIONS);
            // Keep the table small: a random Hash of gigabytes would only test the machine.
            let value = if name == "Hash" {
                r.pick(&["1", "2", "0", "lots", "99999999999999999999"])
            } else {
                r.pick(VALUES)
            };
            format!("setoption name {name} value {value}")
        }
        10 => format!("setoption {}", r.pick(OPTIONS)),
        11 => "stop".to_string(),
        12 => "ponderhit".to_string(),
        13 => "ucinewgame".to_string(),
        14 => r
            .pick(&[
                "uci",
                "debug on",
                "debug",
                "register later",
                "info string hello",
                "bestmove e2e4",
                "hello world",
                "\u{0}\u{1}\u{7f}",
                "   ",
                "go go go",
                "joho isready",
            ])
            .to_string(),
        _ => "isready".to_string(),
    }
}

/// 3,000 random lines, seeded: every `isready` gets its `readyok`, and `quit` exits with 0.
#[test]
fn three_thousand_random_lines_are_survived() {
    // The engine's output is read on another thread; count readyok lines as they come.
    let mut e = Engine::start();
    e.send("setoption name Hash value 1");
    let mut r = Rng(0x5eed_1111);
    let mut readys = 0usize;
    for _ in 0..3_000 {
        let line = random_line(&mut r);
        if line.split_whitespace().any(|t| t == "isready") {
            readys += 1;
        }
        e.send(&line);
    }
    // Nothing may be left running forever (a `go infinite` or `ponder` waits for stop).
    e.send("stop");
    e.send("isready");
    readys += 1;
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut answered = 0usize;
    let mut seen = Vec::new();
    while answered < readys {
        let left = deadline.saturating_duration_since(Instant::now());
        match e.lines.recv_timeout(left) {
            Ok(line) => {
                if line == "readyok" {
                    answered += 1;
                }
                seen.push(line);
            }
            Err(_) => {
                let status = e.child.try_wait().ok().flatten();
                let tail = &seen[seen.len().saturating_sub(20)..];
                panic!("{answered} readyok for {readys} isready (status {status:?}); last lines {tail:#?}");
            }
        }
    }
    // stderr is not read: a panicking search shows only as the line `Uci::reclaim` prints
    assert!(
        seen.iter().all(|l| l != skillcal::engine::SEARCH_FAILED),
        "a search thread failed"
    );
    e.quit();
}

/// Defect 3: the seed printed for `RandomSeed` 0 can be entered as `RandomSeed` and replays the
/// same choice.
#[test]
fn the_printed_clock_seed_can_be_entered() {
    let mut e = Engine::start();
    e.send("setoption name ScoreInaccuracy value 300");
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let lines = e.until("bestmove", Duration::from_secs(10));
    let told = lines
        .iter()
        .find(|l| l.contains("seeded from the clock with"))
        .unwrap_or_else(|| panic!("no seed printed: {lines:#?}"));
    let seed = told
        .split("seeded from the clock with ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .unwrap()
        .to_string();
    let first = bestmove(&lines).to_string();
    e.send(&format!("setoption name RandomSeed value {seed}"));
    e.send("ucinewgame");
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let lines = e.until("bestmove", Duration::from_secs(10));
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("RandomSeed") && l.contains("ignored")),
        "seed {seed} rejected: {lines:#?}"
    );
    // a seed not taken leaves RandomSeed 0: `ucinewgame` draws a new clock seed and says so,
    // and the one move compared may well agree by chance
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("seeded from the clock with")),
        "seed {seed} not taken: {lines:#?}"
    );
    assert_eq!(bestmove(&lines), first, "seed {seed} does not replay");
    e.quit();
}

/// A `position` the engine cannot set leaves no position: `go` answered with a move of the
/// position before (a GUI scores that an illegal move). A FEN with castling rights or an en
/// passant square that cannot be is set without them, as Stockfish does; a move list stops at
/// its first illegal move.
#[test]
fn a_position_never_answers_for_the_one_before() {
    let mut e = Engine::start();
    let t = Duration::from_secs(10);
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    e.until("bestmove", t);
    e.send("ucinewgame");
    // stale castling rights (the h1 rook is on g1) and an en passant square without a push
    for fen in [
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K1R1 w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 3");
        let lines = e.until("bestmove", t);
        let game = Game::from_fen_lenient(fen).unwrap().0;
        parse_uci_move(&game.root, bestmove(&lines)).unwrap_or_else(|err| panic!("{fen}: {err}"));
        assert!(
            lines.iter().any(|l| l.starts_with("info string position:")),
            "{lines:?}"
        );
    }
    // an illegal move: the position after the moves before it (Black to move after e4 e5 d4)
    e.send("position startpos moves e2e4 e7e5 d2d4 e1e3 g8f6");
    e.send("go depth 3");
    let lines = e.until("bestmove", t);
    let mut game = Game::default();
    for m in ["e2e4", "e7e5", "d2d4"] {
        game.push_uci(m).unwrap();
    }
    parse_uci_move(&game.root, bestmove(&lines)).unwrap();
    // no position at all: the null move, not a move of the last position
    for bad in [
        "position fen garbage",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position nowhere",
    ] {
        e.send(bad);
        e.send("go depth 3");
        let lines = e.until("bestmove", t);
        assert_eq!(bestmove(&lines), "0000", "{bad}: {lines:?}");
    }
    e.quit();
}

/// `movestogo 0` is no count (UCI sends it only above 0), and a clock for the other side only
/// is an empty clock for ours: read otherwise, the engine would move after 4.5 s of a 5 s clock,
/// or search until `stop`. The bounds are far from both.
#[test]
fn movestogo_0_and_the_other_sides_clock_alone_keep_the_search_short() {
    let mut e = Engine::start();
    e.send("position startpos");
    let t = Instant::now();
    e.send("go wtime 60000 btime 60000 movestogo 0");
    e.until("bestmove", Duration::from_secs(60));
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    let t = Instant::now();
    e.send("go btime 5000 binc 100");
    e.until("bestmove", Duration::from_secs(30));
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    e.quit();
}

/// With RandomSeed 0 each game draws its own seed at `ucinewgame`: a weakened engine kept
/// running played every game move for move like the one before.
#[test]
fn each_game_draws_its_own_clock_seed() {
    let mut e = Engine::start();
    // blend's rows are random (Style human's default schedule chooses nothing at random)
    e.send("setoption name Style value blend");
    e.send("setoption name UCI_LimitStrength value true");
    let mut seeds = Vec::new();
    for _ in 0..2 {
        e.send("ucinewgame");
        e.send("position startpos");
        e.send("go nodes 100");
        let lines = e.until("bestmove", Duration::from_secs(10));
        let told = lines
            .iter()
            .find_map(|l| l.split("seeded from the clock with ").nth(1))
            .unwrap_or_else(|| panic!("the seed is told: {lines:?}"))
            .split_whitespace()
            .next()
            .unwrap()
            .to_string();
        seeds.push(told);
    }
    assert_ne!(seeds[0], seeds[1]);
    e.quit();
}

/// A root without a move says why, as Stockfish does: `score mate 0` when mated, `score cp 0`
/// when stalemated, then the null move.
#[test]
fn a_root_without_a_move_says_mate_or_stalemate() {
    let mut e = Engine::start();
    for (fen, score) in [
        (
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "info depth 0 score mate 0",
        ),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "info depth 0 score cp 0"),
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 5");
        let lines = e.until("bestmove", Duration::from_secs(10));
        assert!(lines.iter().any(|l| l == score), "{fen}: {lines:?}");
        assert_eq!(bestmove(&lines), "0000");
    }
    e.quit();
}
