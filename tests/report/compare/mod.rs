//! `skillcal compare`: results/full beside a copy of itself under another label gives both
//! families' rows, the plot and a page; a copy whose time-control check failed is marked; a
//! folder without a fit is listed as such; a malformed file is an error naming it.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use skillcal::results::{
    read_csv, write_csv, CompareFamilyRow, ComparePlayRow, CompareTargetRow, TcCheckRow, TcVerdict,
};

use crate::support::arena::skillcal_stderr as skillcal;
use crate::support::arena::temp_dir;
use crate::support::runs::{analysed_run, copy_full, ANALYSIS_HEAD};

mod families;

#[test]
fn compare_names_a_malformed_file_and_a_label_given_twice() {
    let dir = temp_dir("compare-bad");
    let bad = dir.join("bad");
    copy_full(&bad);
    std::fs::write(
        bad.join("fit_curve.csv"),
        "t,knobs,elo,lower,upper\n0.0,x,not-a-number,1,2\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (ok, stderr) = skillcal(&[
        "compare",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("error:") && stderr.contains("fit_curve.csv"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");

    // two folders with the same config name need a label
    let (a, b) = (dir.join("a"), dir.join("b"));
    copy_full(&a);
    copy_full(&b);
    let (ok, stderr) = skillcal(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("--name") && stderr.contains(b.to_str().unwrap()),
        "{stderr}"
    );
    // a missing folder is named too
    let gone = dir.join("gone");
    let (ok, stderr) = skillcal(&[
        "compare",
        gone.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!ok && stderr.contains("gone"), "{stderr}");
    // a folder that is no calibration run (it read as an empty family before)
    let stray = dir.join("stray");
    std::fs::create_dir_all(&stray).unwrap();
    let (ok, stderr) = skillcal(&[
        "compare",
        stray.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        !ok && stderr.contains("stray") && stderr.contains("not a calibration run folder"),
        "{stderr}"
    );
    // the same folder twice, even spelled two ways, is named as such
    let again = a.join("..").join("a");
    let (ok, stderr) = skillcal(&[
        "compare",
        a.to_str().unwrap(),
        again.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!ok && stderr.contains("given twice"), "{stderr}");
    assert!(!out.exists(), "nothing written on bad input");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fitted run whose fit_curve.csv is empty (0 bytes, or a header only) read as "no fit yet"
/// (compare) or a run without its curve (report); both name the file. A run whose fit gave no
/// curve (summary.toml without its parameters, an empty fit_curve.csv as the calibration writes
/// it) is still "no fit yet", and reported.
#[test]
fn compare_and_report_name_an_empty_curve_of_a_fitted_run() {
    let dir = temp_dir("compare-empty-curve");
    let run = dir.join("run");
    copy_full(&run);
    let out = dir.join("out");
    for text in ["", "t,knobs,elo,lower,upper\n"] {
        std::fs::write(run.join("fit_curve.csv"), text).unwrap();
        let (ok, stderr) = skillcal(&[
            "compare",
            run.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let file = run.join("fit_curve.csv");
        assert!(
            !ok && stderr.contains(&format!("{}: holds no rows", file.display())),
            "{text:?}: {stderr}"
        );
        assert!(!out.exists(), "nothing written on bad input");
        let (ok, stderr) = skillcal(&["report", run.to_str().unwrap()]);
        assert!(
            !ok && stderr.contains(&format!("{}: holds no rows", file.display())),
            "report, {text:?}: {stderr}"
        );
    }
    // no curve: the fit failed or had no games, and the summary says so by its empty theta
    std::fs::write(run.join("fit_curve.csv"), "").unwrap();
    let summary = std::fs::read_to_string(run.join("summary.toml")).unwrap();
    let summary: String = summary
        .lines()
        .map(|l| {
            if l.starts_with("theta = ") {
                "theta = []"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(run.join("summary.toml"), summary + "\n").unwrap();
    let (ok, stderr) = skillcal(&[
        "compare",
        run.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let rows: Vec<CompareFamilyRow> = read_csv(&out.join("compare_families.csv")).unwrap();
    assert_eq!(rows[0].status, "no fit yet");
    let (ok, stderr) = skillcal(&["report", run.to_str().unwrap()]);
    assert!(ok, "report of a run without a curve: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn near(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

#[test]
fn compare_play_analysis_interpolates_between_tested_settings() {
    let dir = temp_dir("compare-play");
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    // a: Elo 1000, 1400, 1800; ACPL 100, 60, 40; blunders 10%, 6%, 2%; losing/equal 3, 1.5, 1;
    // top-1 30%, 40%, 50%
    analysed_run(
        &a,
        &[1000.0, 1400.0, 1800.0],
        &[
            (100.0, 0.10, 0.05, 0.15, 0.30),
            (60.0, 0.06, 0.04, 0.06, 0.40),
            (40.0, 0.02, 0.02, 0.02, 0.50),
        ],
    );
    // b: Elo 1400, 2200; ACPL 70, 40; blunders 5%, 2%; losing/equal 2, 1; top-1 40%, 55%
    analysed_run(
        &b,
        &[1400.0, 2200.0],
        &[
            (70.0, 0.05, 0.02, 0.04, 0.40),
            (40.0, 0.02, 0.01, 0.01, 0.55),
        ],
    );
    // c: not analysed
    copy_full(&c);
    let out = dir.join("cmp");
    let names: Vec<String> = [("a", &a), ("b", &b), ("c", &c)]
        .iter()
        .flat_map(|(l, d)| ["--name".to_string(), format!("{l}={}", d.display())])
        .collect();
    let mut args = vec![
        "compare".to_string(),
        a.display().to_string(),
        b.display().to_string(),
        c.display().to_string(),
        "--out".to_string(),
        out.display().to_string(),
    ];
    args.extend(names);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, stderr) = skillcal(&args);
    assert!(ok, "{stderr}");

    let rows: Vec<ComparePlayRow> = read_csv(&out.join("compare_play.csv")).unwrap();
    let got: Vec<(&str, f64)> = rows.iter().map(|r| (r.family.as_str(), r.target)).collect();
    assert_eq!(
        got,
        [
            ("a", 1200.0),
            ("a", 1600.0),
            ("a", 2000.0),
            ("b", 1200.0),
            ("b", 1600.0),
            ("b", 2000.0)
        ],
        "c is not analysed"
    );
    let figs = |r: &ComparePlayRow| {
        (
            r.acpl,
            r.blunder_rate,
            r.losing_equal_ratio,
            r.drop_losing_equal_ratio,
            r.top1,
        )
    };
    // a at 1200: halfway between 1000 and 1400
    let r = &rows[0];
    assert!(r.in_range && r.settings == 3);
    assert!(near(r.acpl, 80.0) && near(r.blunder_rate, 0.08));
    assert!(
        near(r.losing_equal_ratio, 2.25) && near(r.top1, 0.35),
        "{r:?}"
    );
    assert!(near(r.drop_losing_equal_ratio, 9.0), "{r:?}");
    // a at 1600: halfway between 1400 and 1800
    let r = &rows[1];
    assert!(near(r.acpl, 50.0) && near(r.blunder_rate, 0.04));
    assert!(
        near(r.losing_equal_ratio, 1.25) && near(r.top1, 0.45),
        "{r:?}"
    );
    assert!(near(r.drop_losing_equal_ratio, 5.0), "{r:?}");
    // a at 2000 and b at 1200: outside the analysed settings' range, never extrapolated
    for r in [&rows[2], &rows[3]] {
        assert!(!r.in_range, "{r:?}");
        assert_eq!(figs(r), (None, None, None, None, None));
    }
    // b at 1600: a quarter of the way from 1400 to 2200; at 2000 three quarters
    let r = &rows[4];
    assert!(r.in_range && r.settings == 2);
    assert!(near(r.acpl, 62.5) && near(r.blunder_rate, 0.0425));
    assert!(
        near(r.losing_equal_ratio, 1.75) && near(r.top1, 0.4375),
        "{r:?}"
    );
    assert!(near(r.drop_losing_equal_ratio, 7.0), "{r:?}");
    let r = &rows[5];
    assert!(near(r.acpl, 47.5) && near(r.blunder_rate, 0.0275));
    assert!(
        near(r.losing_equal_ratio, 1.25) && near(r.top1, 0.5125),
        "{r:?}"
    );
    assert!(near(r.drop_losing_equal_ratio, 5.0), "{r:?}");

    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(
        md.contains("How each family plays at 1200, 1600 and 2000"),
        "{md}"
    );
    assert!(
        md.contains("| a | 1200 | 80.0 | 8.0% | 2.25 | 9.00 | 35.0% |"),
        "{md}"
    );
    assert!(md.contains("| a | 2000 | — | — | — | — | — |"), "{md}");
    assert!(
        md.contains("interpolated linearly") && md.contains("a 3, b 2"),
        "{md}"
    );
    assert!(md.contains("Not analysed: c."), "{md}");
    assert!(md.contains("a: Spearman's rho of ACPL against Elo = -1.000 over 3"));
    // two settings always give ±1: no trend to read
    assert!(md.contains(
        "b: Spearman's rho of ACPL against Elo not computed: 2 tested settings have an ACPL"
    ));
    for svg in ["compare_acpl.svg", "compare_blunders.svg"] {
        let text = std::fs::read_to_string(out.join(svg)).unwrap();
        assert!(text.contains("<svg") && text.contains("a (tested") && text.contains("b (tested"));
        assert!(!text.contains("c (tested"));
        assert!(md.contains(&format!("![{svg}]({svg})")), "{md}");
    }

    // a malformed analysis is an error naming its file
    std::fs::write(
        b.join("analysis/analysis.csv"),
        format!("{ANALYSIS_HEAD}\nskillcal_t0.0000,x,1,1,1,not-a-number\n"),
    )
    .unwrap();
    let (ok, stderr) = skillcal(&args);
    assert!(!ok);
    assert!(stderr.contains("analysis.csv"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--name LABEL=DIR` finds its folder however it is spelt, as the check for a folder given
/// twice does (`real/nodes` and `./real/nodes` were one folder there but not here).
#[test]
fn a_label_finds_its_folder_spelt_another_way() {
    let dir = temp_dir("compare-name-path");
    copy_full(&dir.join("real/nodes"));
    let out = Command::new(crate::support::arena::skillcal_under_test())
        .current_dir(&dir)
        .args(["compare", "real/nodes", "--name", "n=./real/nodes"])
        .args(["--out", "cmp"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let fams: Vec<CompareFamilyRow> = read_csv(&dir.join("cmp/compare_families.csv")).unwrap();
    assert_eq!(fams[0].family, "n");
    let _ = std::fs::remove_dir_all(&dir);
}
