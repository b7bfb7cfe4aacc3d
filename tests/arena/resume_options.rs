//! Resuming a match whose engines' options are given in another order than match.toml's sorted
//! table (as the calibration builds them: pool options, then the member's) replays nothing new
//! and is not refused as "a different config".

use crate::support::arena::{check_run_dir, temp_dir, MOCK};
use skillcal::arena::{
    read_games_csv, run_match, AdjudicationConfig, EngineConfig, GoLimits, MatchConfig, RunOptions,
    UciOptions,
};

#[test]
fn unsorted_options_resume() {
    let dir = temp_dir("resume-options");
    let engine = |name: &str| EngineConfig {
        name: Some(name.into()),
        command: MOCK.into(),
        // not in sorted order
        options: UciOptions::from(vec![
            ("Hash".into(), "2".into()),
            ("DelayMs".into(), "0".into()),
        ]),
        ..Default::default()
    };
    let mut cfg = MatchConfig {
        engines: vec![engine("a"), engine("b")],
        limits: GoLimits {
            nodes: Some(5),
            ..Default::default()
        },
        adjudication: AdjudicationConfig {
            max_plies: Some(16),
            ..Default::default()
        },
        rounds: 1,
        ..Default::default()
    };
    run_match(&cfg, &dir, &RunOptions::default()).unwrap();
    assert_eq!(read_games_csv(&dir.join("games.csv")).unwrap().len(), 2);
    cfg.rounds = 2;
    run_match(&cfg, &dir, &RunOptions::default()).expect("resume with the same options");
    assert_eq!(read_games_csv(&dir.join("games.csv")).unwrap().len(), 4);
    check_run_dir(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}
