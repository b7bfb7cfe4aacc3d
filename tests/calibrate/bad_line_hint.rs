//! A malformed games.csv line names file and line everywhere, and suggests `--skip-bad-lines`
//! only where the command has that flag (`rate`): `pool` and `report` said "use
//! --skip-bad-lines", which they answer with "unexpected argument". `SKILLCAL_UNDER_TEST` runs
//! these against another build (they failed on main before).

use std::path::Path;

use skillcal::calibrate::play::SimRunner;
use skillcal::calibrate::pool::{measure, PoolOptions, PoolRunConfig};

use crate::support::arena::{skillcal_stderr, temp_dir};

/// Cuts the third line of `path` to its first nine fields.
fn cut_third_line(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[2] = lines[2].split(',').take(9).collect::<Vec<_>>().join(",");
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

fn pool_config(dir: &Path) -> std::path::PathBuf {
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/books/2moves_v1.epd");
    let text = format!(
        "seed = 7\nbudget = 40\nprecision = 300\nprecision_chained = 300\n\n[measure]\ngames_per_pairing = 10\n\n[pool]\ncommand = \"/usr/games/stockfish\"\nanchor_sd = 50\n\n[[pool.member]]\nname = \"a0\"\nelo = 1320\n\n[[pool.member]]\nname = \"a1\"\nelo = 1600\n\n[openings]\nfile = \"{book}\"\n"
    );
    let path = dir.join("pool.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn pool_and_report_name_a_bad_line_without_a_flag_they_lack() {
    let dir = temp_dir("bad-line-hint");
    let config = pool_config(&dir);
    let cfg: PoolRunConfig = toml::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    let run_dir = dir.join("run");
    let runner = SimRunner {
        truth: Box::new(|e| if e.name == "a0" { 1320.0 } else { 1600.0 }),
        draw_rate: 0.2,
        seconds: None,
    };
    let quiet = PoolOptions {
        fit_only: false,
        quiet: true,
    };
    measure(&cfg, &run_dir, &runner, &quiet).unwrap();
    let games = std::fs::read_dir(run_dir.join("matches"))
        .unwrap()
        .map(|e| e.unwrap().path().join("games.csv"))
        .find(|p| p.exists())
        .unwrap();
    cut_third_line(&games);
    let (ok, stderr) = skillcal_stderr(&[
        "pool",
        config.to_str().unwrap(),
        "--out",
        run_dir.to_str().unwrap(),
        "--fit-only",
    ]);
    assert!(!ok);
    assert!(
        stderr.contains(&format!(
            "{}:3: 9 fields where the header has",
            games.display()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("--skip-bad-lines"), "{stderr}");

    // a match folder's report, and `rate`, which has the flag and says so
    let m = dir.join("match");
    std::fs::create_dir_all(&m).unwrap();
    std::fs::copy(&games, m.join("games.csv")).unwrap();
    let (ok, stderr) = skillcal_stderr(&["report", m.to_str().unwrap()]);
    assert!(!ok && stderr.contains("games.csv:3: 9 fields"), "{stderr}");
    assert!(!stderr.contains("--skip-bad-lines"), "{stderr}");
    let (ok, stderr) = skillcal_stderr(&["rate", m.join("games.csv").to_str().unwrap()]);
    assert!(
        !ok && stderr.contains("games.csv:3: 9 fields") && stderr.contains("--skip-bad-lines"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
