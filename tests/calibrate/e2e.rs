//! A tiny real calibration, end to end: the built-in engine at very low node limits against
//! Stockfish 15.1 Skill Levels over real pipes, then the table, the report with its plots, a
//! verification of the table, and the engine loading the table it produced.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::support::arena::{temp_dir, SKILLCAL, STOCKFISH};

fn config(dir: &Path) -> PathBuf {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/books/2moves_v1.epd");
    let text = format!(
        r#"
name = "e2e"
seed = 11
concurrency = 2
budget = 40
precision = 100
targets = {{ from = 1200, to = 1600, step = 200 }}

[subject]
command = "builtin"
options = {{ Hash = 4, Threads = 1 }}
limits = {{ tc = "30+0.3" }}

[[path]]
knob = "LimitNodes"
from = 16
to = 1024
scale = "log"

[fit]
model = "linear"

[plan]
initial = [0.0, 1.0]
grid = 4
games_per_pairing = 4
opponents_per_setting = 2
max_gap = 600
batch_settings = 2

[pool]
command = "{STOCKFISH}"
options = {{ Hash = 4, Threads = 1 }}
limits = {{ nodes = 1000 }}
anchor_sd = 50
scale = "test scale: Stockfish 15.1 Skill Levels at PR #4341 values"

[[pool.member]]
name = "sf-skill0"
elo = 1320
options = {{ "Skill Level" = 0 }}

[[pool.member]]
name = "sf-skill2"
elo = 1608
options = {{ "Skill Level" = 2 }}

[openings]
file = "{}"
order = "random"

[adjudication]
resign = {{ score_cp = 600, moves = 3 }}
max_plies = 160

[verify]
levels = [1400]
games_per_opponent = 2
opponents_per_level = 2
"#,
        book.display()
    );
    let path = dir.join("e2e.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn run(args: &[&str]) -> String {
    let out = Command::new(SKILLCAL)
        .args(args)
        .env("SKILLCAL_BIN", SKILLCAL)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "skillcal {args:?} failed:\n{stderr}");
    stderr
}

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn tiny_real_calibration_produces_table_report_plots_and_verifies() {
    assert!(
        Path::new(STOCKFISH).exists(),
        "{STOCKFISH} missing: scripts/test.sh installs it"
    );
    let dir = temp_dir("calib-e2e");
    let cfg = config(&dir);
    let out = dir.join("run");
    let (cfg_s, out_s) = (cfg.to_str().unwrap(), out.to_str().unwrap());
    let said = run(&["calibrate", cfg_s, "--out", out_s]);
    // the run says why it stopped (with budget left it looked cut short)
    assert!(said.contains("stopped: "), "{said}");

    // every planned game was played by real engines, and the run's games.csv holds them all
    let games = csv_rows(&out.join("games.csv"));
    assert_eq!(games[0][0], "game_id");
    let played = games.len() - 1;
    assert!((8..=48).contains(&played), "{played} games");
    let col = |name: &str| games[0].iter().position(|c| c == name).unwrap();
    let (w, b, term) = (col("white"), col("black"), col("termination"));
    assert!(games[1..]
        .iter()
        .all(|g| g[w].starts_with("skillcal_t") || g[b].starts_with("skillcal_t")));
    for bad in ["crash", "stall", "illegal_move", "time_forfeit"] {
        assert!(
            games[1..].iter().all(|g| g[term] != bad),
            "a game ended by {bad}"
        );
    }
    // the arena's PGN beside each match
    let pgns = std::fs::read_dir(out.join("matches"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().join("games.pgn").exists())
        .count();
    assert!(pgns >= 2);

    // the table: elo first, the knob, then its interval columns; increasing in both
    let table = csv_rows(&out.join("uci_elo_table.csv"));
    assert_eq!(table[0][0], "elo");
    assert_eq!(table[0][1], "LimitNodes");
    assert!(table[0].iter().any(|c| c.ends_with("_lower")));
    assert!(table.len() >= 2, "no table rows");
    let nodes: Vec<f64> = table[1..].iter().map(|r| r[1].parse().unwrap()).collect();
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");

    // report and plots
    for f in ["report.md", "report.html", "summary.toml", "fit_points.csv"] {
        assert!(out.join(f).exists(), "{f} missing");
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<svg"), "report.html has no inline SVG plot");
    let svgs = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "svg")
        })
        .count();
    assert!(svgs >= 1, "no SVG plot written");

    // resuming a finished run plays nothing new: a plain rerun (--fit-only never plays) resumes
    // no match, plans no batch and stops at once for the same reason
    let again = run(&["calibrate", cfg_s, "--out", out_s]);
    let stop = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("stopped: "))
            .map(str::to_owned)
    };
    assert!(
        stop(&again) == stop(&said)
            && !again
                .lines()
                .any(|l| l.starts_with("resuming ") || l.starts_with("batch ")),
        "{again}"
    );
    assert_eq!(csv_rows(&out.join("games.csv")).len() - 1, played);

    // verify the table with fresh games of the engine at UCI_LimitStrength
    let table_path = out.join("uci_elo_table.csv");
    run(&[
        "verify",
        table_path.to_str().unwrap(),
        "--config",
        cfg_s,
        "--out",
        out.join("verify").to_str().unwrap(),
    ]);
    let v = csv_rows(&out.join("verify/verify.csv"));
    for c in ["target", "measured", "lower", "upper"] {
        assert!(v[0].iter().any(|h| h == c), "verify.csv lacks {c}");
    }
    assert_eq!(v.len(), 2, "one verified level");
    // the level's games by opponent: one row per member it met, the W-D-L adding up
    let by = csv_rows(&out.join("verify/verify_opponents.csv"));
    let col = |c: &str| by[0].iter().position(|h| h == c).unwrap();
    assert!(by.len() >= 2, "no opponent rows");
    let games: u32 = by[1..]
        .iter()
        .map(|r| r[col("games")].parse::<u32>().unwrap())
        .sum();
    assert_eq!(
        games.to_string(),
        v[1][v[0].iter().position(|h| h == "games").unwrap()]
    );
    // rated again without playing: the same verify.csv (removed first, so it is written anew)
    let before = std::fs::read_to_string(out.join("verify/verify.csv")).unwrap();
    std::fs::remove_file(out.join("verify/verify.csv")).unwrap();
    run(&[
        "verify",
        table_path.to_str().unwrap(),
        "--config",
        cfg_s,
        "--out",
        out.join("verify").to_str().unwrap(),
        "--rate-only",
    ]);
    assert_eq!(
        before,
        std::fs::read_to_string(out.join("verify/verify.csv")).unwrap()
    );

    // the engine loads the table it produced and reports the settings it chose
    let mut child = Command::new(SKILLCAL)
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script = format!(
        "uci\nsetoption name StrengthTable value {}\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1400\nisready\nposition startpos\ngo movetime 500\nquit\n",
        table_path.display()
    );
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let text = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("info string") && l.contains("LimitNodes")),
        "no settings reported:\n{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
