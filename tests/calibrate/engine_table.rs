//! `skillcal verify` and `skillcal tc-check` on the table of an engine other than skillcal's
//! own: each level is a row of the table, played by sending the row's settings to the engine
//! (a path over an option as that option, a path over a `go` limit as that limit). Both went
//! through skillcal's `StrengthTable`, which refuses another engine's columns.

use std::path::Path;

use crate::support::arena::{skillcal_in, STOCKFISH};
use crate::support::calibrate::{tiny_dir, TINY};

/// TINY with Stockfish as the subject, along its depth (`go depth`), and a table for it.
fn depth_subject(name: &str) -> std::path::PathBuf {
    let (dir, _) = tiny_dir(name);
    let text = TINY
        .replace(
            "command = \"builtin\"\noptions = { Hash = 1, Threads = 1 }\nlimits = { tc = \"30+0.3\" }",
            &format!("command = \"{STOCKFISH}\"\noptions = {{ Hash = 1, Threads = 1, \"Skill Level\" = 0 }}"),
        )
        .replace(
            "knob = \"LimitNodes\"\nfrom = 16\nto = 256\nscale = \"log\"",
            "limit = \"depth\"\nfrom = 1\nto = 6",
        );
    assert!(text.contains("limit = \"depth\"") && text.contains(STOCKFISH));
    std::fs::write(dir.join("engine.toml"), text).unwrap();
    std::fs::write(
        dir.join("table.csv"),
        "# skillcal UCI_Elo table, calibration `tiny`, 8 games\n\
         # path: go depth from 1 (t=0) to 6 (t=1), linear scale\n\
         elo,go depth,elo_lower,elo_upper,go depth_lower,go depth_upper\n\
         1400,1,1300,1500,1,2\n\
         1600,3,1500,1700,2,4\n",
    )
    .unwrap();
    dir
}

/// The `go` commands of the level's engine in the arena's saved match config.
fn level_limits(dir: &Path, out: &str) -> String {
    let mut found = String::new();
    for e in walk(&dir.join(out)) {
        if e.file_name().is_some_and(|n| n == "match.toml") {
            found.push_str(&std::fs::read_to_string(&e).unwrap());
        }
    }
    found
}

fn walk(d: &Path) -> Vec<std::path::PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            v.extend(walk(&p));
        } else {
            v.push(p);
        }
    }
    v
}

#[test]
fn verify_plays_an_engines_table_row_by_its_settings() {
    assert!(Path::new(STOCKFISH).exists(), "{STOCKFISH} missing");
    let dir = depth_subject("engine-table-verify");
    let (ok, err) = skillcal_in(
        &dir,
        &[
            "verify",
            "table.csv",
            "--config",
            "engine.toml",
            "--levels",
            "1600",
            "--games",
            "2",
            "--out",
            "v",
            "--concurrency",
            "2",
        ],
    );
    assert!(ok, "{err}");
    assert!(dir.join("v/verify.csv").exists());
    // the row's `go depth` 3 is the level's limit, and no StrengthTable is sent
    let cfg = level_limits(&dir, "v");
    assert!(cfg.contains("depth = 3"), "{cfg}");
    // --concurrency overrides the config's 1 without an edit to it
    assert!(cfg.contains("concurrency = 2"), "{cfg}");
    let (ok, err) = skillcal_in(
        &dir,
        &[
            "verify",
            "table.csv",
            "--config",
            "engine.toml",
            "--concurrency",
            "0",
        ],
    );
    assert!(
        !ok && err.contains("invalid value '0' for '--concurrency"),
        "{err}"
    );
    assert!(!cfg.contains("StrengthTable"), "{cfg}");
    // a level that is not a row is refused before any folder, naming the rows
    let (ok, err) = skillcal_in(
        &dir,
        &[
            "verify",
            "table.csv",
            "--config",
            "engine.toml",
            "--levels",
            "1500",
            "--out",
            "w",
        ],
    );
    assert!(
        !ok && err.contains("1500 is not a row") && err.contains("1400, 1600"),
        "{err}"
    );
    assert!(!dir.join("w").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tc_check_plays_an_engines_table_row_on_each_clock() {
    let dir = depth_subject("engine-table-tc");
    let (ok, err) = skillcal_in(
        &dir,
        &[
            "tc-check",
            "table.csv",
            "--config",
            "engine.toml",
            "--levels",
            "1400",
            "--games",
            "2",
            "--tcs",
            "5+0.05,10+0.1",
            "--out",
            "t",
        ],
    );
    assert!(ok, "{err}");
    let cfg = level_limits(&dir, "t");
    assert!(
        cfg.contains("depth = 1") && cfg.contains("5+0.05") && cfg.contains("10+0.1"),
        "{cfg}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
