//! What `report`, `compare` and `tc-check` make of damaged run folders and flags: a table the
//! engine would refuse, a NaN or header-only table_details.csv and a negative game time are
//! errors naming file and line (they were reported, or copied into compare_targets.csv); a
//! missing folder is said not to exist; a bad `--tcs` leaves no folder and no lock file.

use std::path::Path;

use super::compare::copy_full;
use crate::support::arena::{skillcal_stderr as skillcal, temp_dir};

/// A copy of results/full as report and compare read it, its games included.
fn full_copy(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = temp_dir(name);
    let run = dir.join("full");
    copy_full(&run);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("results/full/games.csv"), run.join("games.csv")).unwrap();
    (dir, run)
}

/// The lines of `path`, edited in place.
fn edit_lines(path: &Path, edit: impl FnOnce(&mut Vec<String>)) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    edit(&mut lines);
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn a_negative_game_time_is_refused_by_line() {
    let (dir, run) = full_copy("report-negative-seconds");
    edit_lines(&run.join("games.csv"), |l| {
        let at = l[0].split(',').position(|c| c == "seconds").unwrap();
        let mut f: Vec<&str> = l[3].split(',').collect();
        f[at] = "-5";
        l[3] = f.join(",");
    });
    let (ok, stderr) = skillcal(&["report", run.to_str().unwrap()]);
    assert!(
        !ok && stderr.contains("games.csv:4: seconds -5 is not a duration (a number >= 0)"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--tcs` is checked before the engines start and before the output folder and its lock file
/// are made: a bad one left `tc-check/.skillcal.lock` beside the table.
#[test]
fn tc_check_refuses_bad_clocks_before_making_its_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = temp_dir("tc-check-flags");
    let table = dir.join("uci_elo_table.csv");
    std::fs::copy(
        root.join("results/families/nodes/uci_elo_table.csv"),
        &table,
    )
    .unwrap();
    let config = root.join("configs/families/nodes.toml");
    for (tcs, expect) in [
        ("garbage,10+0.1", "--tcs: time control 'garbage'"),
        (
            "10+0.1",
            "--tcs: give at least two time controls to compare",
        ),
        ("10+0.1,10+0.1", "--tcs: 10+0.1 given twice"),
    ] {
        let (ok, stderr) = skillcal(&[
            "tc-check",
            table.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
            "--tcs",
            tcs,
        ]);
        assert!(!ok && stderr.contains(expect), "{tcs}: {stderr}");
        assert!(!dir.join("tc-check").exists(), "{tcs}: a folder was made");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
