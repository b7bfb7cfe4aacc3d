//! The arena's defects found from outside, each shown through the command line: what a user
//! types or writes that must be refused, repaired or named.
//!
//! `SKILLCAL_UNDER_TEST=/path/to/other/skillcal cargo test --release --test arena hardening` runs
//! them against another build.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::arena::{
    check_run_dir, skillcal_stderr, skillcal_under_test, temp_dir, MOCK, STOCKFISH,
};
use skillcal::arena::read_games_csv;

mod folders;
mod values;

fn skillcal(cwd: &Path, args: &[&str]) -> Output {
    Command::new(skillcal_under_test())
        .current_dir(cwd)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn rows(dir: &Path) -> usize {
    match read_games_csv(&dir.join("games.csv")) {
        Ok(r) => r.len(),
        Err(_) => 0,
    }
}

/// Engine output the arena's old parser panicked on (depth past 255, numbers past 64 bits,
/// an option whose range overflows) and extreme limits (`--depth 256`, `--tc 300/10+0`) play
/// normal games, and `go` carries well-formed values.
#[test]
fn deep_reports_and_extreme_limits_do_not_crash_the_arena() {
    let dir = temp_dir("hard-deep");
    let log = dir.join("go.log");
    let deep = MOCK.to_string();
    for limits in [vec!["--depth", "256"], vec!["--tc", "300/10+0"]] {
        let _ = std::fs::remove_file(&log);
        let _ = std::fs::remove_dir_all(dir.join("out"));
        // the mock's own arguments cannot go through --engine, so use its environment
        let mut cmd = Command::new(skillcal_under_test());
        cmd.current_dir(&dir)
            .env("MOCK_FAIL", "deep")
            .env("MOCK_GO_LOG", &log)
            .args([
                "match",
                "--no-progress",
                "--engine",
                &deep,
                "--engine",
                &format!("{MOCK}:Hash=3"),
                "--rounds",
                "2",
                "--max-plies",
                "40",
                "--out",
                "out",
            ])
            .args(&limits)
            .stdin(Stdio::null());
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{limits:?}: {}", text(&o));
        let (n, terms) = check_run_dir(&dir.join("out"));
        assert_eq!(n, 4, "{limits:?}");
        for bad in ["crash", "illegal_move", "stall", "time_forfeit"] {
            assert!(!terms.contains_key(bad), "{limits:?}: {terms:?}");
        }
        // every `go` is `go` then keyword / non-negative integer pairs
        let gos = std::fs::read_to_string(&log).unwrap();
        assert!(gos.lines().count() >= 8, "{gos}");
        for line in gos.lines() {
            let toks: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(toks[0], "go", "{line}");
            assert!(toks.len() % 2 == 1, "{line}");
            for pair in toks[1..].chunks(2) {
                assert!(
                    [
                        "wtime",
                        "btime",
                        "winc",
                        "binc",
                        "movestogo",
                        "depth",
                        "nodes",
                        "movetime"
                    ]
                    .contains(&pair[0])
                        && pair[1].parse::<u64>().is_ok(),
                    "{line}"
                );
            }
            if limits[0] == "--depth" {
                assert!(line.contains("depth 256"), "{line}");
            } else {
                let mtg: u64 = toks[toks.iter().position(|t| *t == "movestogo").unwrap() + 1]
                    .parse()
                    .unwrap();
                assert!((1..=300).contains(&mtg), "{line}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same engine twice on the command line (self-play) has no way to be named there: the
/// second gets `#2`. It was refused, asking for a `name` only a config file can give.
#[test]
fn the_same_engine_twice_on_the_command_line_plays_itself() {
    let dir = temp_dir("self-play");
    let o = skillcal(
        &dir,
        &[
            "match",
            "--out",
            "run",
            "--engine",
            MOCK,
            "--engine",
            MOCK,
            "--engine",
            MOCK,
            "--round-robin",
            "--rounds",
            "1",
            "--nodes",
            "5",
            "--max-plies",
            "10",
            "--no-progress",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let rows = read_games_csv(&dir.join("run/games.csv")).unwrap();
    let mut names: Vec<String> = rows
        .iter()
        .flat_map(|r| [r.white.clone(), r.black.clone()])
        .collect();
    names.sort();
    names.dedup();
    assert_eq!(
        names,
        [
            "skillcal-mock-engine",
            "skillcal-mock-engine#2",
            "skillcal-mock-engine#3"
        ]
    );
    assert_eq!(rows.len(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--games N` plays N games a pairing, as cutechess's `-games` does (it played the one round's
/// 2 and said nothing); `games` above what the rounds play is an error naming both; an EPD
/// book that starts with a byte order mark reads as without it (it failed as a bad FEN).
#[test]
fn games_counts_as_asked_and_a_bom_book_reads() {
    let dir = temp_dir("games-count");
    let book = dir.join("bom.epd");
    std::fs::write(
        &book,
        b"\xef\xbb\xbfrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let common = [
        "match",
        "--engine",
        MOCK,
        "--engine",
        MOCK,
        "--nodes",
        "5",
        "--max-plies",
        "10",
    ];
    let o = skillcal(
        &dir,
        &[
            &common[..],
            &[
                "--games",
                "6",
                "--book",
                "bom.epd",
                "--out",
                "six",
                "--no-progress",
            ],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(rows(&dir.join("six")), 6);
    let o = skillcal(
        &dir,
        &[
            &common[..],
            &[
                "--games",
                "6",
                "--rounds",
                "2",
                "--out",
                "capped",
                "--no-progress",
            ],
        ]
        .concat(),
    );
    assert!(!o.status.success());
    assert!(
        text(&o).contains("games: 6 is more than the 4 games a pairing plays in 2 round(s)"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
