//! `stop_after_sweep`: a pairing one engine has won every game of, N games in, plays no more;
//! the other pairings play their count, a rerun plays nothing, and the rule may change on resume
//! (the snapshot ignores it). The loser is the mock engine answering an illegal move at its first
//! `go`; games between the two sound mocks are drawn at 20 plies, so they never sweep.

use crate::support::arena::{check_run_dir, temp_dir, MOCK};
use skillcal::arena::{
    read_games_csv, run_match, AdjudicationConfig, EngineConfig, GoLimits, MatchConfig, RunOptions,
    UciOptions,
};

fn mock(name: &str, options: &[(&str, &str)]) -> EngineConfig {
    EngineConfig {
        name: Some(name.into()),
        command: MOCK.into(),
        options: UciOptions::from(
            options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Vec<_>>(),
        ),
        ..Default::default()
    }
}

fn config(rule: Option<u32>) -> MatchConfig {
    MatchConfig {
        engines: vec![
            mock("first", &[]),
            mock("loser", &[("Fail", "illegal"), ("FailAfter", "1")]),
            mock("equal", &[]),
        ],
        limits: GoLimits {
            nodes: Some(10),
            ..Default::default()
        },
        rounds: 5,
        concurrency: 1,
        adjudication: AdjudicationConfig {
            max_plies: Some(20),
            ..Default::default()
        },
        stop_after_sweep: rule,
        ..Default::default()
    }
}

fn games_with(dir: &std::path::Path, name: &str) -> usize {
    read_games_csv(&dir.join("games.csv"))
        .unwrap()
        .iter()
        .filter(|r| r.white == name || r.black == name)
        .count()
}

#[test]
fn a_swept_pairing_stops_and_the_others_play_their_count() {
    let dir = temp_dir("sweep-stop");
    let s = run_match(&config(Some(4)), &dir, &RunOptions::default()).unwrap();
    assert_eq!((s.planned, s.done), (20, 14), "{:?}", s.lines());
    assert_eq!(games_with(&dir, "loser"), 4);
    assert_eq!(games_with(&dir, "equal"), 10);
    for r in read_games_csv(&dir.join("games.csv")).unwrap() {
        if r.white == "loser" || r.black == "loser" {
            assert_eq!(r.score_for("first"), Some(1.0), "{r:?}");
        }
    }
    check_run_dir(&dir);
    // a rerun finds the pairing stopped and plays nothing
    let again = run_match(&config(Some(4)), &dir, &RunOptions::default()).unwrap();
    assert_eq!((again.played, again.done), (0, 14));
    // the rule off: the same folder resumes and plays the stopped pairing to its count
    let full = run_match(&config(None), &dir, &RunOptions::default()).unwrap();
    assert_eq!((full.played, full.done), (6, 20));
    assert_eq!(games_with(&dir, "loser"), 10);
    let _ = std::fs::remove_dir_all(&dir);
}
