//! Several matches at once on shared game slots (`run_matches`, the pool's and calibration's
//! batches): never more searches at once than slots, every game played, and each match the
//! games it plays alone.

use std::path::{Path, PathBuf};

use crate::support::arena::{check_run_dir, read_pgn, temp_dir, MOCK, SKILLCAL};
use skillcal::arena::{read_games_csv, run_match, run_matches, MatchConfig, RunOptions};

fn mock_match(busy_log: &Path, seed: u64) -> MatchConfig {
    MatchConfig::from_toml_str(&format!(
        r#"
rounds = 2
concurrency = 2
seed = {seed}
[limits]
nodes = 10
[adjudication]
max_plies = 16
[[engines]]
name = "a"
command = "{MOCK}"
args = ["--busy-log", "{log}"]
options = {{ DelayMs = 4 }}
[[engines]]
name = "b"
command = "{MOCK}"
args = ["--busy-log", "{log}"]
options = {{ DelayMs = 4 }}
"#,
        log = busy_log.display()
    ))
    .unwrap()
}

/// The most searches the log shows under way at one instant.
fn most_at_once(log: &Path) -> usize {
    let mut events: Vec<(u64, i32)> = std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .flat_map(|l| {
            let (a, b) = l.split_once(' ').unwrap();
            // an end sorts before a start at the same instant
            [(a.parse().unwrap(), 1), (b.parse().unwrap(), -1)]
        })
        .collect();
    events.sort();
    let (mut now, mut most) = (0i32, 0i32);
    for (_, d) in events {
        now += d;
        most = most.max(now);
    }
    most as usize
}

#[test]
fn a_batch_never_plays_more_games_at_once_than_its_slots() {
    for slots in [1, 2] {
        let dir = temp_dir(&format!("batch-slots-{slots}"));
        let log = dir.join("busy.log");
        // three matches of concurrency 2 each: six searches at once without shared slots
        let matches: Vec<(MatchConfig, PathBuf)> = (0..3)
            .map(|i| (mock_match(&log, 7 + i), dir.join(format!("m{i}"))))
            .collect();
        let out = run_matches(&matches, slots, &RunOptions::default()).unwrap();
        for ((_, d), r) in matches.iter().zip(out) {
            assert_eq!(r.unwrap().done, 4, "{}", d.display());
            assert_eq!(check_run_dir(d).0, 4);
        }
        let lines = std::fs::read_to_string(&log).unwrap().lines().count();
        assert!(lines >= 3 * 4 * 8, "{lines} searches logged");
        let most = most_at_once(&log);
        assert!(most <= slots, "{most} searches at once on {slots} slots");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The built-in engine with ScoreInaccuracy draws its errors from each game's seed: a batch
/// must hand every game the seed, opening and colours it gets in a match played alone.
#[test]
fn a_batch_plays_the_games_each_match_plays_alone() {
    let dir = temp_dir("batch-same-games");
    let config = |seed: u64, inaccuracy: u32| {
        MatchConfig::from_toml_str(&format!(
            r#"
rounds = 2
concurrency = 2
seed = {seed}
skillcal_bin = "{SKILLCAL}"
[limits]
nodes = 300
[adjudication]
max_plies = 40
[[engines]]
command = "builtin"
options = {{ ScoreInaccuracy = {inaccuracy} }}
[[engines]]
command = "builtin"
options = {{ ScoreInaccuracy = 50 }}
"#
        ))
        .unwrap()
    };
    let configs = [config(11, 200), config(12, 400)];
    let batch: Vec<(MatchConfig, PathBuf)> = configs
        .iter()
        .enumerate()
        .map(|(i, c)| (c.clone(), dir.join(format!("batch{i}"))))
        .collect();
    for r in run_matches(&batch, 2, &RunOptions::default()).unwrap() {
        r.unwrap();
    }
    for (i, c) in configs.iter().enumerate() {
        let alone = dir.join(format!("alone{i}"));
        run_match(c, &alone, &RunOptions::default()).unwrap();
        let moves = |d: &Path| {
            let mut games: Vec<(u64, String, String)> = read_games_csv(&d.join("games.csv"))
                .unwrap()
                .into_iter()
                .map(|r| (r.game_id, r.result_str().to_string(), r.seed.to_string()))
                .collect();
            games.sort();
            let mut pgn: Vec<String> = read_pgn(&d.join("games.pgn"))
                .into_iter()
                .map(|g| g.sans.join(" "))
                .collect();
            pgn.sort();
            (games, pgn)
        };
        assert_eq!(moves(&alone), moves(&dir.join(format!("batch{i}"))));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
