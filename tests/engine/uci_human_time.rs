//! `HumanTime` over a real pipe: the answer waits the time the model draws, scaled by
//! `HumanTimeScale`; `stop` ends the wait at once; a short clock bounds the wait and drops the
//! search half; limits other than a clock answer as before; a bad model file is named.

use std::time::{Duration, Instant};

use crate::support::uci_pipe::Engine;

const WAIT: Duration = Duration::from_secs(60);

fn timed_engine(opts: &[(&str, &str)]) -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok", WAIT);
    let level = [
        ("HumanTime", "true"),
        ("RandomSeed", "5"),
        ("UCI_LimitStrength", "true"),
        ("UCI_Elo", "1500"),
    ];
    for (k, v) in level.iter().chain(opts.iter()) {
        e.send(&format!("setoption name {k} value {v}"));
    }
    e.send("isready");
    e.until("readyok", WAIT);
    e
}

/// The `HumanTime` line's seconds taken and the person's seconds drawn.
fn said_time(lines: &[String]) -> (f64, f64) {
    let l = lines
        .iter()
        .find(|l| l.starts_with("info string HumanTime: "))
        .unwrap_or_else(|| panic!("no HumanTime line in {lines:#?}"));
    let w: Vec<&str> = l.split_whitespace().collect();
    let taken = w[3].parse().unwrap();
    let i = w.iter().position(|&x| x == "person's").unwrap();
    (taken, w[i + 1].parse().unwrap())
}

/// Sends `go` and returns the lines to `bestmove` and the wall time they took.
fn timed_go(e: &mut Engine, go: &str) -> (Vec<String>, Duration) {
    let start = Instant::now();
    e.send(go);
    let lines = e.until("bestmove", WAIT);
    (lines, start.elapsed())
}

#[test]
fn the_answer_waits_the_scaled_time_of_a_person() {
    let mut e = timed_engine(&[("HumanTimeScale", "2")]);
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let (lines, wall) = timed_go(&mut e, "go wtime 600000 btime 600000");
    let (taken, person) = said_time(&lines);
    assert!(
        (taken - person * 0.02).abs() < 0.002,
        "{taken} for {person}"
    );
    let wall = wall.as_secs_f64();
    assert!(
        wall >= taken - 0.002,
        "answered in {wall} s before {taken} s"
    );
    assert!(wall < taken + 0.5, "answered in {wall} s for {taken} s");
    // the same seed and position draw the same time; the scale only scales it
    e.send("setoption name HumanTimeScale value 1");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let (lines, _) = timed_go(&mut e, "go wtime 600000 btime 600000");
    let (taken1, person1) = said_time(&lines);
    assert_eq!(person1, person);
    assert!(
        (taken1 - person * 0.01).abs() < 0.01,
        "{taken1} for {person}"
    );
    e.quit();
}

#[test]
fn a_pondered_move_waits_its_time_from_ponderhit() {
    let mut e = timed_engine(&[("HumanTimeScale", "20")]);
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go ponder wtime 600000 btime 600000");
    let lines = e.until("info string HumanTime", WAIT);
    let (taken, _) = said_time(&lines);
    // the choice is made; the GUI's ponderhit comes well after `go`
    std::thread::sleep(Duration::from_millis(400));
    let (_, wall) = timed_go(&mut e, "ponderhit");
    let wall = wall.as_secs_f64();
    assert!(
        wall >= taken - 0.002,
        "answered {wall} s after ponderhit, before the {taken} s"
    );
    assert!(
        wall < taken + 0.5,
        "answered {wall} s after ponderhit for {taken} s"
    );
    // ponderhit while the move is still being chosen (2600 searches for about 0.4 s here):
    // the time counts from ponderhit, not from go (counted from go, it answered 50 ms early)
    e.send("setoption name UCI_Elo value 2600");
    e.send("setoption name HumanTimeScale value 200");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go ponder wtime 600000 btime 600000");
    std::thread::sleep(Duration::from_millis(50));
    let (lines, wall) = timed_go(&mut e, "ponderhit");
    let (taken, _) = said_time(&lines);
    let wall = wall.as_secs_f64();
    assert!(
        wall >= taken - 0.002 && wall < taken + 0.5,
        "{wall} s for {taken} s"
    );
    e.quit();
}

#[test]
fn stop_ends_the_wait_at_once() {
    let mut e = timed_engine(&[("HumanTimeScale", "1000")]);
    e.send("position startpos moves d2d4 g8f6");
    e.send("go wtime 900000 btime 900000");
    let lines = e.until("info string HumanTime", WAIT);
    let (taken, _) = said_time(&lines);
    assert!(taken > 2.0, "a long wait to stop: {taken} s");
    let start = Instant::now();
    e.send("stop");
    e.until("bestmove", WAIT);
    // a loaded test machine gets slack; the wait itself would take seconds
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
    e.quit();
}

#[test]
fn a_short_clock_bounds_the_wait_and_drops_the_search() {
    let mut e = timed_engine(&[("UCI_LimitStrength", "true"), ("UCI_Elo", "2400")]);
    e.send("position startpos moves e2e4 c7c5");
    let (lines, _) = timed_go(&mut e, "go wtime 4000 btime 4000");
    let (taken, _) = said_time(&lines);
    assert!(taken <= 0.25 * 4.0, "{taken} s of 4 s");
    assert!(
        lines.iter().any(|l| l.contains("short of time: no search")),
        "{lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains(" multipv 2 ")),
        "{lines:#?}"
    );
    // with a full clock the same level searches
    e.send("setoption name HumanTimeScale value 1");
    let (lines, _) = timed_go(&mut e, "go wtime 180000 btime 180000");
    assert!(
        !lines.iter().any(|l| l.contains("short of time")),
        "{lines:#?}"
    );
    e.quit();
}

#[test]
fn limits_other_than_a_clock_answer_as_before_and_a_bad_model_is_named() {
    let mut e = timed_engine(&[]);
    e.send("position startpos");
    for go in ["go nodes 500", "go movetime 50", "go depth 1"] {
        let (lines, _) = timed_go(&mut e, go);
        assert!(
            !lines.iter().any(|l| l.contains("HumanTime")),
            "{go}: {lines:#?}"
        );
    }
    e.send("setoption name HumanTimeModel value /nonexistent/model.toml");
    e.send("isready");
    let lines = e.until("readyok", WAIT);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("HumanTimeModel")
                && l.contains("/nonexistent/model.toml: no such file")),
        "{lines:#?}"
    );
    e.quit();
}
