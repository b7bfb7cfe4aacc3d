//! Calibration and pool configs read their paths from their own folder, and calibrate, pool
//! and verify hold their output folder for the whole run.

use std::path::{Path, PathBuf};
use std::process::Command;

use skillcal::calibrate::config::CalibrationConfig;
use skillcal::calibrate::pool::PoolRunConfig;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn config_paths_are_relative_to_the_config_folder() {
    // a copy of a shipped config in a folder of its own, with its book beside it
    let dir = std::env::temp_dir().join(format!("skillcal-cfgpaths-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("books")).unwrap();
    std::fs::copy(
        root().join("configs/books/2moves_v1.epd"),
        dir.join("books/2moves_v1.epd"),
    )
    .unwrap();
    let text = std::fs::read_to_string(root().join("configs/smoke.toml")).unwrap();
    let text = text.replace("command = \"builtin\"", "command = \"engines/mine\"");
    std::fs::write(dir.join("smoke.toml"), text).unwrap();
    let cfg = CalibrationConfig::load(&dir.join("smoke.toml")).unwrap();
    assert_eq!(cfg.openings.file, dir.join("books/2moves_v1.epd"));
    assert_eq!(
        cfg.subject.command.as_deref().map(Path::new),
        Some(dir.join("engines/mine").as_path())
    );
    std::fs::copy(root().join("configs/pool.toml"), dir.join("pool.toml")).unwrap();
    let pool = PoolRunConfig::load(&dir.join("pool.toml")).unwrap();
    assert_eq!(pool.openings.file, dir.join("books/2moves_v1.epd"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shipped_configs_load_from_any_folder() {
    for name in ["default.toml", "full.toml", "smoke.toml", "pool.toml"] {
        let path = root().join("configs").join(name);
        let book = if name == "pool.toml" {
            PoolRunConfig::load(&path).unwrap().openings.file
        } else {
            CalibrationConfig::load(&path).unwrap().openings.file
        };
        assert!(
            book.is_absolute() && book.exists(),
            "{name}: {}",
            book.display()
        );
    }
}

#[test]
fn a_held_output_folder_stops_calibrate_pool_and_verify() {
    let dir = std::env::temp_dir().join(format!("skillcal-held-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let _held = skillcal::arena::lock_dir(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_skillcal");
    let table = root().join("configs/uci_elo_table.csv");
    let runs: [Vec<String>; 3] = [
        vec!["calibrate".into(), "configs/smoke.toml".into()],
        vec!["pool".into(), "configs/pool.toml".into()],
        vec![
            "verify".into(),
            table.display().to_string(),
            "--config".into(),
            "configs/smoke.toml".into(),
        ],
    ];
    for args in runs {
        let out = Command::new(bin)
            .args(&args)
            .arg("--out")
            .arg(&dir)
            .current_dir(root())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} ran on a held folder");
        assert!(err.contains("in use by pid"), "{args:?}: {err}");
    }
    drop(_held);
    std::fs::remove_dir_all(&dir).unwrap();
}
