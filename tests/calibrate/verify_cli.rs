//! `skillcal verify` from outside: a closed stdout (`skillcal verify ... | head`) neither panics
//! nor stops a run short of its files (`println!` panicked on the broken pipe, after the games
//! and before the report); `--rate-only` on a run stopped before its last levels rates the
//! levels it has.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::support::arena::{copy_dir, temp_dir, SKILLCAL};

/// `skillcal verify --rate-only` on a copy of the nodes family's verification in `dir/verify`.
fn rate_only(dir: &Path, stdout: Stdio) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Command::new(SKILLCAL)
        .arg("verify")
        .arg(root.join("results/families/nodes/uci_elo_table.csv"))
        .arg("--config")
        .arg(root.join("configs/families/nodes.toml"))
        .arg("--out")
        .arg(dir.join("verify"))
        .arg("--rate-only")
        .stdout(stdout)
        .output()
        .unwrap()
}

fn copy_verification(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = temp_dir(name);
    copy_dir(
        &root.join("results/families/nodes/verify"),
        &dir.join("verify"),
    );
    dir
}

#[test]
fn verify_with_stdout_closed_writes_its_report() {
    let dir = copy_verification("closed-stdout");
    let out = dir.join("verify");
    std::fs::remove_file(out.join("report.md")).unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = rate_only(&dir, writer.into());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.join("report.md").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A verification stopped before its last level: `--rate-only` rates the levels that have games
/// and names the one that has none (it failed with "no games of UCI_Elo ... to rate").
#[test]
fn rate_only_rates_the_levels_a_stopped_run_has() {
    let dir = copy_verification("rate-only-stopped");
    let matches = dir.join("verify/matches");
    let mut last: Vec<PathBuf> = std::fs::read_dir(&matches)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    last.sort();
    let stem = last.last().unwrap().file_name().unwrap().to_string_lossy()[..3].to_string();
    for d in &last {
        if d.file_name().unwrap().to_string_lossy().starts_with(&stem) {
            std::fs::remove_dir_all(d).unwrap();
        }
    }
    let before = std::fs::read_to_string(dir.join("verify/verify.csv")).unwrap();
    let o = rate_only(&dir, Stdio::null());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("note: no games yet of UCI_Elo"), "{err}");
    let after = std::fs::read_to_string(dir.join("verify/verify.csv")).unwrap();
    assert_eq!(after.lines().count() + 1, before.lines().count(), "{after}");
    let _ = std::fs::remove_dir_all(&dir);
}
