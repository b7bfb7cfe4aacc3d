//! What `report`, `compare` and `tc-check` make of damaged run folders and flags: a table the
//! engine would refuse, a NaN or header-only table_details.csv and a negative game time are
//! errors naming file and line (they were reported, or copied into compare_targets.csv); a
//! missing folder is said not to exist; a bad `--tcs` leaves no folder and no lock file.

use std::path::Path;

use crate::support::arena::{copy_dir, skillcal_stderr as skillcal, temp_dir};
use crate::support::runs::copy_full;

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

/// `report DIR` and `compare DIR`: both fail, each with `expect` in its error.
fn report_and_compare_refuse(dir: &Path, run: &Path, expect: &str) {
    let (ok, stderr) = skillcal(&["report", run.to_str().unwrap()]);
    assert!(!ok && stderr.contains(expect), "report: {stderr}");
    let out = dir.join("cmp");
    let (ok, stderr) = skillcal(&[
        "compare",
        run.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!ok && stderr.contains(expect), "compare: {stderr}");
}

#[test]
fn report_checks_the_table_as_the_engine_loads_it() {
    let (dir, run) = full_copy("report-table");
    let (ok, stderr) = skillcal(&["report", run.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    // another subject's table (Stockfish's UCI_Elo) is not the engine's to load
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let other = dir.join("stockfish");
    copy_dir(&root.join("results/families/stockfish-uci-elo"), &other);
    let (ok, stderr) = skillcal(&["report", other.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    // a row the engine refuses (it was embedded under "The engine loads uci_elo_table.csv")
    let table = run.join("uci_elo_table.csv");
    let mut line = 0;
    edit_lines(&table, |l| {
        let header = l.iter().position(|x| x.starts_with("elo,")).unwrap();
        l.insert(header + 2, "900,abc".into());
        line = header + 3;
    });
    report_and_compare_refuse(
        &dir,
        &run,
        &format!("uci_elo_table.csv:{line}: 2 fields, the header has 9 (skillcal's engine would not load this table)"),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_nan_or_header_only_table_details_is_refused() {
    let (dir, run) = full_copy("report-table-details");
    let details = run.join("table_details.csv");
    let text = std::fs::read_to_string(&details).unwrap();
    // NaN was copied into compare_targets.csv
    edit_lines(&details, |l| {
        let mut f: Vec<&str> = l[2].split(',').collect();
        f[5] = "NaN";
        l[2] = f.join(",");
    });
    report_and_compare_refuse(
        &dir,
        &run,
        "table_details.csv:3: target 900: elo NaN is not a finite number",
    );
    // a header only beside the table was listed as status `fit`
    std::fs::write(&details, text.lines().next().unwrap().to_string() + "\n").unwrap();
    report_and_compare_refuse(
        &dir,
        &run,
        "table_details.csv: holds no rows (empty, or a header only), while uci_elo_table.csv beside it holds the table",
    );
    let _ = std::fs::remove_dir_all(&dir);
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

#[test]
fn report_on_a_missing_folder_says_it_does_not_exist() {
    let dir = temp_dir("report-missing");
    let gone = dir.join("nope");
    let (ok, stderr) = skillcal(&["report", gone.to_str().unwrap()]);
    assert!(
        !ok && stderr.contains(&format!("{} does not exist", gone.display())),
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
