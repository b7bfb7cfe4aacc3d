//! Drives the real `skillcal` binary over pipes.

use std::time::{Duration, Instant};

use skillcal::engine::{parse_uci_move, Game};

use crate::support::uci_pipe::Engine;

fn assert_legal(bestmove_line: &str, game: &Game) {
    let mv = bestmove_line.split_whitespace().nth(1).expect("a move");
    parse_uci_move(&game.root, mv).unwrap_or_else(|e| panic!("{bestmove_line}: {e}"));
}

#[test]
fn handshake_lists_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", Duration::from_secs(10));
    assert!(lines.iter().any(|l| l.starts_with("id name skillcal")));
    for name in [
        "Hash",
        "Threads",
        "Clear Hash",
        "Move Overhead",
        "MultiPV",
        "ScoreInaccuracy",
        "LimitNodes",
        "LimitNps",
        "LimitDepth",
        "RandomSeed",
    ] {
        let prefix = format!("option name {name} type");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "missing option {name}"
        );
    }
    e.send("isready");
    e.until("readyok", Duration::from_secs(10));
    e.send("quit");
}

#[test]
fn isready_and_stop_during_infinite_search() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok", Duration::from_secs(10));
    e.send("position startpos moves e2e4 c7c5 g1f3");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(2));
    assert!(t.elapsed() < Duration::from_secs(2));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "infinite search ended by itself"
    );
    e.send("stop");
    let mut lines = [lines, e.until("bestmove", Duration::from_secs(5))].concat();
    let mut game = Game::default();
    for m in ["e2e4", "c7c5", "g1f3"] {
        game.push_uci(m).unwrap();
    }
    assert_legal(lines.pop().as_deref().unwrap(), &game);
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    e.send("quit");
}

#[test]
fn movetime_returns_a_legal_move_in_time() {
    let mut e = Engine::start();
    e.send("position fen r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16");
    let t = Instant::now();
    e.send("go movetime 200");
    let lines = e.until("bestmove", Duration::from_secs(5));
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "took {:?}",
        t.elapsed()
    );
    let game =
        Game::from_fen("r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16").unwrap();
    assert_legal(lines.last().unwrap(), &game);
    e.send("quit");
}

#[test]
fn garbage_is_survived() {
    let mut e = Engine::start();
    for junk in [
        "hello world",
        "position fen not/a/fen w - - 0 1",
        "position startpos moves e2e5",
        "setoption name NoSuchOption value 3",
        "setoption name Hash value lots",
        "go depth banana",
        "\u{0}\u{1}binary",
        "position",
    ] {
        e.send(junk);
    }
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(5));
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count()
            >= 5,
        "{lines:#?}"
    );
    // Still works: the last good position is the start position.
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until("bestmove", Duration::from_secs(10));
    assert_legal(lines.last().unwrap(), &Game::default());
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn options_take_effect() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("setoption name LimitDepth value 5");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let lines = e.until("bestmove", Duration::from_secs(10));
    assert!(lines.iter().any(|l| l.contains(" multipv 3 ")));
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 6 ")),
        "LimitDepth ignored"
    );
    e.send("setoption name MultiPV value 1");
    e.send("setoption name LimitDepth value 0");
    e.send("setoption name LimitNodes value 3000");
    e.send("go");
    let lines = e.until("bestmove", Duration::from_secs(10));
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let nodes: u64 = last_info
        .split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes <= 3001, "{last_info}");
    e.send("quit");
}

/// Pondering counts on the clock that `go` started: after `ponderhit` the `info` time and the
/// NPS limit's pace still include the ponder time, as the nodes do: restarted at `ponderhit`,
/// the engine would sleep off its ponder nodes at the NPS limit, up to its hard time limit
/// without a node more, and report ponder nodes over post-ponderhit time.
#[test]
fn ponderhit_keeps_the_search_clock_of_go() {
    let mut e = Engine::start();
    e.send("setoption name LimitNps value 20000");
    e.send("position startpos moves e2e4");
    // a short clock: the old code slept its ponder nodes off up to its hard limit (100 ms)
    e.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(1000));
    e.send("ponderhit");
    let lines = e.until("bestmove", Duration::from_secs(30));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info") && l.contains(" nps "))
        .expect("an info line with nps");
    let field = |name: &str| -> u64 {
        let t: Vec<&str> = last.split_whitespace().collect();
        let i = t.iter().position(|x| *x == name).expect(name);
        t[i + 1].parse().unwrap()
    };
    assert!(field("time") >= 1000, "time since go: {last}");
    // the pace held over the whole search, ponder included
    assert!(field("nps") <= 26_000, "{last}");
    assert!(field("nodes") >= 10_000, "{last}");
    e.send("quit");
}
