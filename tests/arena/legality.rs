//! A real Stockfish match checked by an independent parse: every game legal, and its result
//! and termination agree with the final position.
//!
//! The long run (100 games, scripts/bench/arena-100.sh) is checked with
//! `ARENA_CHECK_DIR=results/arena-100 cargo test --release --test arena -- --ignored check_existing_run`.

use std::path::PathBuf;

use crate::support::arena::{check_run_dir, is_move_comment, read_pgn, temp_dir, STOCKFISH};
use skillcal::arena::{run_match, MatchConfig, RunOptions};

#[test]
fn stockfish_match_is_legal_and_consistent() {
    if !std::path::Path::new(STOCKFISH).exists() {
        panic!("{STOCKFISH} is missing: run scripts/install-engines.sh");
    }
    let dir = temp_dir("legality");
    let cfg = MatchConfig::from_toml_str(&format!(
        r#"
rounds = 6
concurrency = 2
seed = 11
[limits]
nodes = 1500
[adjudication]
resign = {{ score_cp = 900, moves = 3 }}
draw = {{ score_cp = 5, moves = 6, after_move = 50 }}
max_plies = 160
[[engines]]
command = "{STOCKFISH}"
options = {{ "Skill Level" = 1, Hash = 8 }}
[[engines]]
command = "{STOCKFISH}"
options = {{ "Skill Level" = 6, Hash = 8, UCI_ShowWDL = true }}
"#
    ))
    .unwrap();
    let s = run_match(&cfg, &dir, &RunOptions::default()).unwrap();
    assert_eq!((s.planned, s.done), (12, 12));
    let (n, terms) = check_run_dir(&dir);
    assert_eq!(n, 12);
    eprintln!("terminations: {terms:?}");
    // Every engine move carries `{score/depth seconds}` (the Skill 6 engine's scores arrive
    // on info lines with UCI_ShowWDL's `wdl`); the game ends with one comment saying why.
    for g in read_pgn(&dir.join("games.pgn")) {
        let id = &g.tags["GameId"];
        for k in 0..g.sans.len() {
            let c: Vec<&str> = g
                .comments
                .iter()
                .filter(|(n, _)| *n == k + 1)
                .map(|(_, c)| c.as_str())
                .collect();
            assert!(!c.is_empty(), "game {id}: ply {k} has no comment");
            assert!(
                is_move_comment(c[0]),
                "game {id}: ply {k} comment {:?}",
                c[0]
            );
        }
        let last: Vec<_> = g
            .comments
            .iter()
            .filter(|(n, _)| *n == g.sans.len())
            .collect();
        assert_eq!(last.len(), 2, "game {id}: move comment + reason: {last:?}");
    }
    assert!(!is_move_comment("0.105s") && !is_move_comment("+0.35/12") && !is_move_comment("book"));
    assert!(is_move_comment("+0.35/12 0.105s") && is_move_comment("-M2/3 0.010s"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "checks an existing run directory: set ARENA_CHECK_DIR"]
fn check_existing_run() {
    let dir = PathBuf::from(std::env::var("ARENA_CHECK_DIR").expect("set ARENA_CHECK_DIR"));
    let (n, terms) = check_run_dir(&dir);
    eprintln!(
        "{}: {n} games legal and consistent; terminations {terms:?}",
        dir.display()
    );
    assert!(n > 0);
}
