//! The `builtin[:K=V,...]` engine: names, settings and the `<skillcal> uci` launch, first with
//! the mock standing in for the skillcal binary, then the real built-in engine against
//! Stockfish.

use crate::support::arena::{check_run_dir, temp_dir, MOCK, SKILLCAL, STOCKFISH};
use skillcal::arena::{read_games_csv, run_match, EngineConfig, GoLimits, MatchConfig, RunOptions};

#[test]
fn builtin_spec_launches_the_skillcal_binary_with_options() {
    let dir = temp_dir("builtin-mock");
    let cfg = MatchConfig {
        engines: vec![
            // options the games show: the mock answers its second `go` with an illegal move
            EngineConfig::from_spec("builtin:Fail=illegal,FailAfter=2").unwrap(),
            EngineConfig::from_spec(&format!("{MOCK}:Hash=2")).unwrap(),
        ],
        limits: GoLimits {
            nodes: Some(5),
            ..Default::default()
        },
        skillcal_bin: Some(MOCK.into()),
        adjudication: skillcal::arena::AdjudicationConfig {
            max_plies: Some(20),
            ..Default::default()
        },
        ..Default::default()
    };
    run_match(&cfg, &dir, &RunOptions::default()).unwrap();
    let rows = read_games_csv(&dir.join("games.csv")).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].white, "skillcal[Fail=illegal,FailAfter=2]");
    assert_eq!(rows[0].white_settings, "Fail=illegal;FailAfter=2");
    assert_eq!(rows[0].black, "skillcal-mock-engine[Hash=2]");
    assert_eq!(rows[0].black_settings, "Hash=2");
    // the options reached the process: each game is lost by the skillcal side's illegal move
    for r in &rows {
        let loss = if r.white.starts_with("skillcal[") {
            "0-1"
        } else {
            "1-0"
        };
        assert_eq!(
            (r.termination.as_str(), r.result_str()),
            ("illegal_move", loss),
            "{r:?}"
        );
    }
    check_run_dir(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn builtin_engine_against_stockfish() {
    let dir = temp_dir("builtin-sf");
    let cfg = MatchConfig::from_toml_str(&format!(
        r#"
rounds = 2
concurrency = 2
skillcal_bin = "{SKILLCAL}"
[limits]
nodes = 2000
[adjudication]
resign = {{ score_cp = 800, moves = 3 }}
max_plies = 200
[[engines]]
command = "builtin"
[[engines]]
command = "{STOCKFISH}"
options = {{ "Skill Level" = 0 }}
"#
    ))
    .unwrap();
    let s = run_match(&cfg, &dir, &RunOptions::default()).unwrap();
    assert_eq!(s.done, 4);
    let rows = read_games_csv(&dir.join("games.csv")).unwrap();
    assert!(
        rows.iter()
            .all(|r| !["crash", "stall", "illegal_move", "time_forfeit"]
                .contains(&r.termination.as_str())),
        "the built-in engine misbehaved: {rows:?}"
    );
    // both sides' searches are kept: Skill 0 picks at depth 1 but searches on to the limit
    for r in &rows {
        for (depth, nodes) in [
            (r.white_depth, r.white_nodes),
            (r.black_depth, r.black_nodes),
        ] {
            assert!(depth.is_some_and(|d| d >= 1.0), "{r:?}");
            assert!(
                nodes.is_some_and(|n| n > 0 && n < 3000),
                "limit 2000: {r:?}"
            );
        }
    }
    check_run_dir(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn per_game_seed_goes_to_an_offered_seed_option() {
    let dir = temp_dir("seed-option");
    let log = dir.join("seeds.txt");
    let mut seeded = EngineConfig::from_spec(MOCK).unwrap();
    seeded.name = Some("seeded".into());
    seeded.args = vec!["--seed-log".into(), log.to_string_lossy().into_owned()];
    let mut unseeded = seeded.clone();
    unseeded.name = Some("unseeded".into());
    unseeded.seed_option = Some(String::new());
    // its own log, which stays unwritten: no seed goes to an engine told to take none
    let unseeded_log = dir.join("unseeded-seeds.txt");
    unseeded.args = vec![
        "--seed-log".into(),
        unseeded_log.to_string_lossy().into_owned(),
    ];
    let cfg = MatchConfig {
        engines: vec![seeded, unseeded],
        limits: GoLimits {
            nodes: Some(5),
            ..Default::default()
        },
        rounds: 3,
        adjudication: skillcal::arena::AdjudicationConfig {
            max_plies: Some(10),
            ..Default::default()
        },
        ..Default::default()
    };
    run_match(&cfg, &dir, &RunOptions::default()).unwrap();
    let seeds: Vec<u64> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    // first the preflight's: the least and the greatest value a game's seed can give `Seed`
    assert_eq!(seeds[..2], [1, 1000], "{seeds:?}");
    let seeds = &seeds[2..];
    assert_eq!(seeds.len(), 6, "one seed per game: {seeds:?}");
    assert!(seeds.iter().all(|&s| (1..=1000).contains(&s)), "{seeds:?}");
    let distinct: std::collections::BTreeSet<u64> = seeds.iter().copied().collect();
    assert!(distinct.len() >= 5, "{seeds:?}");
    assert!(
        !unseeded_log.exists(),
        "the unseeded engine was sent a seed"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
