//! `--install` installs only a table this fit wrote, and is checked before any game. A refit that
//! gives no table (a curve that is not increasing) moves the table an earlier fit wrote aside,
//! to `uci_elo_table.csv.stale`: it survived beside the new fit's files, and `--install`
//! installed it as the run's table. Outside the repository, `--install` failed only after the
//! whole run.

use std::path::Path;

use skillcal::calibrate::config::CalibrationConfig;
use skillcal::calibrate::play::EngineSpec;
use skillcal::calibrate::play::SimRunner;
use skillcal::calibrate::{self, Options};

use crate::support::arena::{skillcal_in, temp_dir};
use crate::support::calibrate::{config_text, tiny_dir, ANCHORS};

/// A subject that gets weaker as its node limit grows: no increasing curve, so no table.
fn backwards() -> SimRunner {
    SimRunner {
        truth: Box::new(|e: &EngineSpec| match e.option("LimitNodes") {
            Some(n) => 2500.0 - 140.0 * (n.parse::<f64>().unwrap() / 32.0).log2(),
            None => ANCHORS[e.option("Skill Level").unwrap().parse::<usize>().unwrap()],
        }),
        draw_rate: 0.3,
        seconds: None,
    }
}

#[test]
fn a_refit_without_a_table_moves_the_earlier_table_aside_and_install_refuses() {
    let dir = temp_dir("stale-table");
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/books/2moves_v1.epd");
    // the book by its full path, so the command line below reads the same config
    let text = config_text(160, 50.0, "linear").replace("configs/books/2moves_v1.epd", book);
    let cfg_path = dir.join("cal.toml");
    std::fs::write(&cfg_path, &text).unwrap();
    let cfg = CalibrationConfig::parse(&text, "cal.toml").unwrap();
    let run = dir.join("run");
    let quiet = Options {
        fit_only: false,
        quiet: true,
    };
    let out = calibrate::calibrate(&cfg, &run, &backwards(), &quiet).unwrap();
    let table = run.join("uci_elo_table.csv");
    assert!(out.games > 0 && !table.exists(), "{} games", out.games);

    // an earlier fit's table, then a refit that gives none
    let earlier = "# an earlier fit's table\nelo,LimitNodes\n1000,32\n2000,4096\n";
    std::fs::write(&table, earlier).unwrap();
    let refit = Options {
        fit_only: true,
        quiet: true,
    };
    calibrate::calibrate(&cfg, &run, &backwards(), &refit).unwrap();
    assert!(!table.exists(), "the earlier table survived the refit");
    let stale = run.join("uci_elo_table.csv.stale");
    assert_eq!(std::fs::read_to_string(&stale).unwrap(), earlier);
    let summary = std::fs::read_to_string(run.join("summary.toml")).unwrap();
    assert!(summary.contains("uci_elo_table.csv.stale"), "{summary}");

    // `--install` (from a folder laid out as the repository) installs nothing
    std::fs::write(&table, earlier).unwrap();
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join("configs")).unwrap();
    let installed = repo.join("configs/uci_elo_table.csv");
    std::fs::write(&installed, "the shipped table\n").unwrap();
    let (ok, stderr) = skillcal_in(
        &repo,
        &[
            "calibrate",
            "../cal.toml",
            "--out",
            "../run",
            "--fit-only",
            "--install",
        ],
    );
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains("--install: no table to install"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&installed).unwrap(),
        "the shipped table\n"
    );
    assert!(!table.exists() && Path::new(&stale).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn install_outside_the_repository_fails_before_any_game() {
    let (dir, _) = tiny_dir("install-elsewhere");
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    let (ok, stderr) = skillcal_in(
        &dir.join("elsewhere"),
        &[
            "calibrate",
            "../tiny.toml",
            "--out",
            "../runs/x",
            "--install",
        ],
    );
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains("--install: configs/uci_elo_table.csv not found"),
        "{stderr}"
    );
    assert!(!dir.join("runs/x").exists(), "games were played: {stderr}");
    let (ok, stderr) = skillcal_in(
        &dir.join("elsewhere"),
        &[
            "calibrate",
            "../tiny.toml",
            "--out",
            "../runs/x",
            "--install",
            "nodes",
        ],
    );
    assert!(
        !ok && stderr.contains("configs/families/nodes.csv not found"),
        "{stderr}"
    );
    assert!(!dir.join("runs/x").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
