//! `SKILLCAL_ENGINE_SUBSTITUTE`: a config's engine played by another build of it, accepted only
//! when both search the same nodes in `bench 16 1 10`; the records keep the config's engine.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::support::arena::{skillcal_under_test, temp_dir, STOCKFISH};
use skillcal::arena::{read_games_csv, SUBSTITUTE_VAR};

fn stockfish_match(out: &Path, substitute: &str) -> Output {
    stockfish_match_at(out, substitute, &["--nodes", "800", "--max-plies", "60"])
}

fn stockfish_match_at(out: &Path, substitute: &str, limits: &[&str]) -> Output {
    Command::new(skillcal_under_test())
        .args(["match", "--out"])
        .arg(out)
        .args([
            "--engine",
            STOCKFISH,
            "--engine",
            &format!("{STOCKFISH}:Skill Level=3"),
        ])
        .args(["--games", "2", "--seed", "5"])
        .args(limits)
        .env(SUBSTITUTE_VAR, substitute)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A wrapper that logs each start and then runs Stockfish: the same engine under another path,
/// so the log shows that the substitute is what plays.
#[test]
fn a_checked_substitute_plays_in_place_of_the_configured_engine() {
    let dir = temp_dir("substitute-ok");
    let log = dir.join("starts.log");
    let wrapper = dir.join("stockfish-wrapper");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nexec {STOCKFISH} \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&wrapper)
        .status()
        .unwrap();
    let out = dir.join("match");
    let o = stockfish_match(&out, &format!("{STOCKFISH}={}", wrapper.display()));
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(&format!("{STOCKFISH} is played by {}", wrapper.display())),
        "{err}"
    );
    let starts = std::fs::read_to_string(&log).unwrap();
    // once for the bench check, then the engines of the preflight and the games
    assert_eq!(starts.lines().next(), Some("bench 16 1 10"), "{starts}");
    assert!(starts.lines().count() >= 3, "{starts}");
    let games = read_games_csv(&out.join("games.csv")).unwrap();
    assert_eq!(games.len(), 2);
    let spec = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert!(
        !spec.contains("stockfish-wrapper"),
        "the records name the configured engine"
    );
}

/// Another engine is refused before any game, naming both node counts.
#[test]
fn a_substitute_that_searches_otherwise_is_refused() {
    let fairy = "/usr/games/fairy-stockfish";
    assert!(
        Path::new(fairy).exists(),
        "{fairy} is missing: run scripts/install-engines.sh"
    );
    let dir = temp_dir("substitute-bad");
    let out = dir.join("match");
    let o = stockfish_match(&out, &format!("{STOCKFISH}={fairy}"));
    let err = stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains(&format!("{fairy} does not play as {STOCKFISH}"))
            && err.contains("nodes against"),
        "{err}"
    );
    assert!(read_games_csv(&out.join("games.csv")).map_or(true, |g| g.is_empty()));
    let o = stockfish_match(&out, STOCKFISH);
    assert!(stderr(&o).contains("is not FROM=TO"), "{}", stderr(&o));
}

/// By the clock a faster build is a stronger engine: the configured one plays, and the note says
/// why (Fairy-Stockfish as the would-be substitute shows that no bench check was even made).
#[test]
fn an_engine_on_the_clock_is_not_substituted() {
    let dir = temp_dir("substitute-clock");
    let out = dir.join("match");
    let o = stockfish_match_at(
        &out,
        &format!("{STOCKFISH}=/usr/games/fairy-stockfish"),
        &["--tc", "2+0.02", "--max-plies", "16"],
    );
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("plays by the clock or a move time, so it is /usr/games/stockfish itself"),
        "{err}"
    );
    assert!(!err.contains("is played by"), "{err}");
    assert_eq!(read_games_csv(&out.join("games.csv")).unwrap().len(), 2);
}
