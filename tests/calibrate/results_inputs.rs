//! What `report`, `compare` and `tc-check` make of damaged run folders and flags: a table the
//! engine would refuse, a NaN or header-only table_details.csv and a negative game time are
//! errors naming file and line (they were reported, or copied into compare_targets.csv); a
//! missing folder is said not to exist; a bad `--tcs` leaves no folder and no lock file.

use std::path::Path;

use crate::support::arena::{skillcal_stderr as skillcal, temp_dir};

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
