//! `skillcal report` on folders that are not match folders: a match-only flag is an error, not
//! ignored; a calibration stopped before its first results says what to run; a statistic that
//! is undefined (a chi-square on no degrees of freedom, a z against one opponent) reads "–",
//! never NaN. And a table that cannot be read is named once. `SKILLCAL_UNDER_TEST` runs these
//! against another build (they failed on main before).

use std::path::Path;

use crate::support::arena::{skillcal_stderr, temp_dir};

use crate::support::runs::copy_full;

#[test]
fn match_only_flags_are_refused_on_a_calibration_or_pool_folder() {
    let dir = temp_dir("report-flags");
    let cal = dir.join("cal");
    copy_full(&cal);
    let cal_s = cal.to_str().unwrap();
    for extra in [
        &["--anchor", "foo=1500"][..],
        &["--bootstrap", "5"],
        &["--scale", "x"],
        &["--seed", "2"],
    ] {
        let mut args = vec!["report", cal_s];
        args.extend(extra);
        let (ok, stderr) = skillcal_stderr(&args);
        assert!(!ok, "{extra:?}: exit 0");
        assert!(
            stderr.contains(&format!("{} applies to a match folder", extra[0]))
                && stderr.contains("not a match folder"),
            "{extra:?}: {stderr}"
        );
    }
    // without them the report is written
    let (ok, stderr) = skillcal_stderr(&["report", cal_s]);
    assert!(ok, "{stderr}");
    // a pool folder is named as one
    let pool = dir.join("pool");
    std::fs::create_dir_all(&pool).unwrap();
    std::fs::write(pool.join("pool.toml"), "").unwrap();
    std::fs::write(pool.join("pool-pairs.csv"), "").unwrap();
    let (ok, stderr) = skillcal_stderr(&["report", pool.to_str().unwrap(), "--anchor", "a=1"]);
    assert!(
        !ok && stderr.contains("a `skillcal pool` folder"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_calibration_stopped_before_its_results_says_what_to_run() {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/full");
    let dir = temp_dir("report-killed");
    let m = dir.join("matches/b000-01");
    std::fs::create_dir_all(&m).unwrap();
    std::fs::copy(full.join("calibrate.toml"), dir.join("calibrate.toml")).unwrap();
    for f in ["calibration-match.toml", "games.csv"] {
        std::fs::copy(full.join("matches/b000-01").join(f), m.join(f)).unwrap();
    }
    let (ok, stderr) = skillcal_stderr(&["report", dir.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        stderr.contains(&format!(
            "`skillcal calibrate CONFIG --out {} --fit-only`",
            dir.display()
        )),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn undefined_statistics_read_as_a_dash_not_nan() {
    let dir = temp_dir("report-nan");
    let run_dir = dir.join("run");
    copy_full(&run_dir);
    // as many tested settings as coefficients: chi-square on 0 degrees of freedom, p NaN
    let summary = std::fs::read_to_string(run_dir.join("summary.toml")).unwrap();
    let summary = summary
        .replace("residual_points = 30", "residual_points = 3")
        .replace("residual_p = 0.3718988319339811", "residual_p = nan");
    std::fs::write(run_dir.join("summary.toml"), summary).unwrap();
    // a level that met one opponent has no other matches to miss: z is NaN
    std::fs::write(
        run_dir.join("verify/verify_opponents.csv"),
        "target,opponent,opponent_elo,opponent_sd,games,wins,draws,losses,score,expected,z,performance,performance_lower,performance_upper\n1400.0,sf-skill0,1320,30,10,5,2,3,0.6,0.6,NaN,1390,1300,1480\n",
    )
    .unwrap();
    let (ok, stderr) = skillcal_stderr(&["report", run_dir.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let md = std::fs::read_to_string(run_dir.join("report.md")).unwrap();
    assert!(!md.contains("NaN"), "{md}");
    assert!(md.contains("on 0 degrees of freedom (no p-value"), "{md}");
    assert!(md.contains("| 1390 [1300, 1480] | – |"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_table_is_named_once() {
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/default.toml");
    let (ok, stderr) = skillcal_stderr(&["verify", "runs/nope.csv", "--config", config]);
    assert!(!ok);
    assert_eq!(stderr.matches("runs/nope.csv").count(), 1, "{stderr}");
    assert!(stderr.contains("cannot read"), "{stderr}");
}

/// verify and tc-check play the table on its config's pool, subject and openings: without
/// `--config` they took configs/default.toml, another setup than most tables were fitted on.
#[test]
fn verify_and_tc_check_need_the_tables_config() {
    let table = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/uci_elo_table.csv");
    for cmd in ["verify", "tc-check"] {
        let (ok, stderr) = skillcal_stderr(&[cmd, table]);
        assert!(!ok, "{cmd}");
        assert!(
            stderr.contains("required") && stderr.contains("--config <CONFIG>"),
            "{cmd}: {stderr}"
        );
    }
}
