//! A misbehaving UCI engine for the arena's tests. It plays random legal moves (seeded by the
//! position, so games are reproducible) and fails on demand at its Nth `go`:
//!
//! - `crash`: exits with status 3 without answering
//! - `hang`: never answers (but still exits when its input closes)
//! - `illegal`: answers a well-formed move that is not legal
//! - `garbage`: prints junk lines (invalid UTF-8 too), then `bestmove @@@@`
//! - `timeout`: answers a legal move after its clock time plus `delay` ms (default 300)
//! - `noise`: prints junk lines, then a legal move (not a failure: the arena must cope)
//! - `deep`: declares a spin option whose max overflows 64 bits and reports depths past 255
//!   and huge node counts before a legal move (not a failure: the arena must not panic)
//! - `nostart`: never answers `uci`
//! - `none`: behaves
//!
//! Choose with arguments `--fail MODE --after N --delay-ms D`, environment `MOCK_FAIL`,
//! `MOCK_AFTER`, `MOCK_DELAY_MS`, or UCI options `Fail`, `FailAfter`, `DelayMs`
//! (`DelayMs` also slows every normal move by that many milliseconds).
//! `--seed-log FILE` appends every value received for its `Seed` option (spin 0..1000);
//! `--die-above-seed N` exits with status 3 on a `Seed` value above N (an engine that dies
//! on a value it declares valid);
//! `--go-log FILE` (or `MOCK_GO_LOG`) appends every `go` command, `--option-log FILE` every
//! `setoption` command; `--busy-log FILE` (or
//! `MOCK_BUSY_LOG`) appends `START END` (nanoseconds since the Unix epoch) of every search, from
//! its `go` to its `bestmove`, so a test can see how many searches ran at once.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, Square};

struct Mock {
    fail: String,
    after: u32,
    delay_ms: u64,
    gos: u32,
    pos: Chess,
    seed_log: Option<String>,
    die_above_seed: Option<u64>,
    go_log: Option<String>,
    option_log: Option<String>,
    busy_log: Option<String>,
}

static SLOW_EVERY_MOVE: AtomicBool = AtomicBool::new(false);
/// When the last normal search wrote its `bestmove` (ns since the epoch; 0: not yet).
static ANSWERED_NS: AtomicU64 = AtomicU64::new(0);

impl Mock {
    /// The mock's behaviour from its environment, then its flags (a flag wins).
    fn from_env_and_args() -> Mock {
        let mut m = Mock {
            fail: std::env::var("MOCK_FAIL").unwrap_or_else(|_| "none".into()),
            after: env_num("MOCK_AFTER").unwrap_or(1) as u32,
            delay_ms: env_num("MOCK_DELAY_MS").unwrap_or(300),
            gos: 0,
            pos: Chess::default(),
            seed_log: None,
            die_above_seed: None,
            go_log: std::env::var("MOCK_GO_LOG").ok(),
            option_log: None,
            busy_log: std::env::var("MOCK_BUSY_LOG").ok(),
        };
        let args: Vec<String> = std::env::args().skip(1).collect();
        let mut i = 0;
        while i < args.len() {
            let val = args.get(i + 1).cloned().unwrap_or_default();
            match args[i].as_str() {
                "--fail" => m.fail = val,
                "--after" => m.after = val.parse().unwrap_or(1),
                "--seed-log" => m.seed_log = Some(val),
                "--die-above-seed" => m.die_above_seed = val.parse().ok(),
                "--go-log" => m.go_log = Some(val),
                "--option-log" => m.option_log = Some(val),
                "--busy-log" => m.busy_log = Some(val),
                "--delay-ms" => {
                    m.delay_ms = val.parse().unwrap_or(0);
                    SLOW_EVERY_MOVE.store(true, Ordering::Relaxed);
                }
                _ => {}
            }
            i += 2;
        }
        m
    }
}

fn main() {
    let mut m = Mock::from_env_and_args();

    // Input on its own thread, so a hanging engine still notices its input closing.
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let out = std::io::stdout();
    let mut hanging = false;
    while let Ok(line) = rx.recv() {
        if hanging {
            if line.trim() == "quit" {
                return;
            }
            continue;
        }
        let mut o = out.lock();
        let toks: Vec<&str> = line.split_whitespace().collect();
        match toks.first().copied() {
            Some("uci") => {
                if m.fail == "nostart" {
                    hanging = true;
                    continue;
                }
                let _ = writeln!(o, "id name skillcal-mock-engine");
                let _ = writeln!(o, "id author skillcal tests");
                let _ = writeln!(o, "option name Fail type string default none");
                let _ = writeln!(
                    o,
                    "option name FailAfter type spin default 1 min 1 max 100000"
                );
                let _ = writeln!(
                    o,
                    "option name DelayMs type spin default 0 min 0 max 100000"
                );
                let _ = writeln!(o, "option name Hash type spin default 1 min 1 max 16");
                let _ = writeln!(o, "option name Seed type spin default 0 min 0 max 1000");
                if m.fail == "deep" {
                    let _ = writeln!(
                        o,
                        "option name Huge type spin default 0 min 0 max 99999999999999999999"
                    );
                }
                let _ = writeln!(o, "uciok");
            }
            Some("isready") => {
                let _ = writeln!(o, "readyok");
            }
            Some("setoption") => {
                if let Some(path) = &m.option_log {
                    append_line(path, &line);
                }
                set_option(&mut m, &line)
            }
            Some("position") => match parse_position(&toks) {
                Some(p) => m.pos = p,
                None => {
                    let _ = writeln!(o, "info string bad position: {line}");
                }
            },
            Some("go") => {
                if let Some(path) = &m.go_log {
                    append_line(path, &line);
                }
                m.gos += 1;
                let failing = m.gos >= m.after && m.fail != "none";
                let mode = if failing { m.fail.as_str() } else { "none" };
                let clock = clock_ms(&toks, m.pos.turn());
                drop(o);
                let start = now_ns();
                ANSWERED_NS.store(0, Ordering::Relaxed);
                if !act(&m, mode, clock, &out) {
                    hanging = true;
                }
                if let Some(path) = &m.busy_log {
                    // the end is taken before `bestmove` goes out: after it, the opponent's
                    // search may already have begun
                    let end = match ANSWERED_NS.load(Ordering::Relaxed) {
                        0 => now_ns(),
                        t => t,
                    };
                    append_line(path, &format!("{start} {end}"));
                }
            }
            Some("quit") => return,
            _ => {}
        }
        let _ = out.lock().flush();
    }
}

/// Answers a `go` in `mode`; false means "hang from now on".
fn act(m: &Mock, mode: &str, clock: Option<u64>, out: &std::io::Stdout) -> bool {
    let mut o = out.lock();
    match mode {
        "crash" => std::process::exit(3),
        "hang" => return false,
        "illegal" => {
            let _ = writeln!(o, "bestmove {}", illegal_move(&m.pos));
        }
        "garbage" => {
            let _ = o.write_all(b"\xff\xfe garbage \x00\x01 line\n");
            let _ = writeln!(o, "info depth banana score cp");
            let _ = writeln!(o, "bestmove @@@@");
        }
        "timeout" => {
            drop(o);
            std::thread::sleep(Duration::from_millis(clock.unwrap_or(1000) + m.delay_ms));
            o = out.lock();
            let _ = writeln!(o, "bestmove {}", pick(&m.pos));
        }
        "deep" => {
            let mv = pick(&m.pos);
            let _ = writeln!(
                o,
                "info depth 256 seldepth 300 multipv 1 score cp 12 nodes 99999999999999999999 time 1 pv {mv}"
            );
            let _ = writeln!(
                o,
                "info depth 999 seldepth 1000 score mate 99999999999 pv {mv}"
            );
            let _ = writeln!(o, "bestmove {mv}");
        }
        "noise" => {
            let _ = o.write_all(b"\xc3\x28 not utf8\n");
            let _ = writeln!(o, "hello there");
            let _ = writeln!(o, "info string still thinking");
            let _ = writeln!(
                o,
                "info depth 1 score cp 5 wdl 10 980 10 nodes 1 pv {}",
                pick(&m.pos)
            );
            let _ = writeln!(o, "bestmove {} ponder", pick(&m.pos));
        }
        _ => {
            if SLOW_EVERY_MOVE.load(Ordering::Relaxed) && m.delay_ms > 0 {
                drop(o);
                std::thread::sleep(Duration::from_millis(m.delay_ms));
                o = out.lock();
            }
            let mv = pick(&m.pos);
            let _ = writeln!(o, "info depth 1 score cp 0 nodes 1 pv {mv}");
            ANSWERED_NS.store(now_ns(), Ordering::Relaxed);
            let _ = writeln!(o, "bestmove {mv}");
        }
    }
    let _ = o.flush();
    true
}

fn set_option(m: &mut Mock, line: &str) {
    let Some(rest) = line.strip_prefix("setoption name ") else {
        return;
    };
    let (name, value) = match rest.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (rest.trim(), ""),
    };
    match name.to_ascii_lowercase().as_str() {
        "fail" => m.fail = value.to_string(),
        "failafter" => m.after = value.parse().unwrap_or(1),
        "seed" => {
            if m.die_above_seed
                .is_some_and(|n| value.parse::<u64>().is_ok_and(|v| v > n))
            {
                std::process::exit(3);
            }
            if let Some(path) = &m.seed_log {
                if let Ok(mut f) = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                {
                    let _ = writeln!(f, "{value}");
                }
            }
        }
        "delayms" => {
            m.delay_ms = value.parse().unwrap_or(0);
            SLOW_EVERY_MOVE.store(true, Ordering::Relaxed);
        }
        _ => {}
    }
}

fn env_num(k: &str) -> Option<u64> {
    std::env::var(k).ok().and_then(|v| v.parse().ok())
}

fn parse_position(toks: &[&str]) -> Option<Chess> {
    let mut i = 1;
    let mut pos = match *toks.get(i)? {
        "startpos" => {
            i += 1;
            Chess::default()
        }
        "fen" => {
            let end = toks
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(toks.len());
            let fen: Fen = toks[2..end].join(" ").parse().ok()?;
            i = end;
            fen.into_position(CastlingMode::Standard).ok()?
        }
        _ => return None,
    };
    if toks.get(i) == Some(&"moves") {
        for t in &toks[i + 1..] {
            let mv = t.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
            pos.play_unchecked(mv);
        }
    }
    Some(pos)
}

fn clock_ms(toks: &[&str], turn: shakmaty::Color) -> Option<u64> {
    let key = if turn == shakmaty::Color::White {
        "wtime"
    } else {
        "btime"
    };
    let i = toks.iter().position(|t| *t == key)?;
    toks.get(i + 1)?.parse().ok()
}

fn append_line(path: &str, line: &str) {
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        // one write per line: engines of a concurrent run append to the same log, and an
        // O_APPEND write of a whole line is not interleaved with another's
        let _ = f.write_all(format!("{line}\n").as_bytes());
    }
}

/// A legal move chosen by the position's hash: reproducible, and varied across positions.
fn pick(pos: &Chess) -> String {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return "0000".into();
    }
    let h = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
    let k = (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize % moves.len();
    UciMove::from_standard(moves[k]).to_string()
}

/// A well-formed UCI move that is not legal here.
fn illegal_move(pos: &Chess) -> String {
    for from in Square::ALL {
        for to in Square::ALL {
            if from == to {
                continue;
            }
            let u = UciMove::Normal {
                from,
                to,
                promotion: None,
            };
            if u.to_move(pos).is_err() {
                return u.to_string();
            }
        }
    }
    "a1a2".into()
}

fn now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
