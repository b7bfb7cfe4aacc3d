//! `skillcal compare`: results/full beside a copy of itself under another label gives both
//! families' rows, the plot and a page; a copy whose time-control check failed is marked; a
//! folder without a fit is listed as such; a malformed file is an error naming it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use skillcal::results::{
    read_csv, write_csv, CompareFamilyRow, ComparePlayRow, CompareTargetRow, TcCheckRow, TcVerdict,
};

use crate::support::arena::temp_dir;

/// The files of results/full the comparison reads (the games are not needed).
pub(crate) fn copy_full(to: &Path) {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/full");
    std::fs::create_dir_all(to.join("verify")).unwrap();
    for f in [
        "summary.toml",
        "fit_curve.csv",
        "fit_points.csv",
        "table_details.csv",
        "calibrate.toml",
        "uci_elo_table.csv",
        "pool.csv",
        "verify/verify.csv",
    ] {
        std::fs::copy(full.join(f), to.join(f)).unwrap();
    }
}

pub(crate) use crate::support::arena::skillcal_stderr as skillcal;

fn tc_row(tc: &str, diff: Option<f64>) -> TcCheckRow {
    TcCheckRow {
        level: 2000.0,
        tc: tc.into(),
        measured: 2000.0 + diff.unwrap_or(0.0),
        lower: 1950.0,
        upper: 2050.0,
        games: 40,
        score: 0.5,
        diff,
        diff_lower: diff.map(|d| d - 40.0),
        diff_upper: diff.map(|d| d + 40.0),
        pass: diff.map(|d| d.abs() <= 50.0),
        ms_per_ply: None,
        depth: None,
        nodes: None,
    }
}

#[test]
fn compare_two_families_writes_rows_plot_and_marks_a_failed_tc_check() {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results/full");
    let dir = temp_dir("compare");
    let copy = dir.join("copy");
    copy_full(&copy);
    // the copy's time-control check failed at 2000
    std::fs::create_dir_all(copy.join("tc-check")).unwrap();
    write_csv(
        &copy.join("tc-check/tc_check.csv"),
        &[tc_row("10+0.1", None), tc_row("60+0.6", Some(-120.0))],
    )
    .unwrap();
    // a run folder whose calibration has not fitted yet: its config and nothing else
    let fresh = dir.join("fresh");
    std::fs::create_dir_all(&fresh).unwrap();
    let config = std::fs::read_to_string(full.join("calibrate.toml")).unwrap();
    let config = config.replacen("name = \"full\"", "name = \"fresh\"", 1);
    std::fs::write(fresh.join("calibrate.toml"), config).unwrap();
    let out = dir.join("cmp");
    let name = format!("renamed={}", copy.display());
    let (ok, stderr) = skillcal(&[
        "compare",
        full.to_str().unwrap(),
        copy.to_str().unwrap(),
        fresh.to_str().unwrap(),
        "--name",
        &name,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");

    let fams: Vec<CompareFamilyRow> = read_csv(&out.join("compare_families.csv")).unwrap();
    let labels: Vec<&str> = fams.iter().map(|f| f.family.as_str()).collect();
    assert_eq!(labels, ["full", "renamed", "fresh"]);
    assert_eq!(fams[0].games, Some(3940));
    // the seconds of results/full's games summed (5.3 h); the copy has no games.csv
    let games: Vec<skillcal::results::GameRow> = read_csv(&full.join("games.csv")).unwrap();
    let hours = games.iter().map(|g| g.seconds).sum::<f64>() / 3600.0;
    assert!((5.0..5.6).contains(&hours), "{hours}");
    assert_eq!(fams[0].game_hours, Some(hours));
    assert_eq!(fams[1].game_hours, None);
    assert_eq!(fams[0].tc_check, None);
    assert_eq!(fams[1].tc_check, Some(TcVerdict::Fail));
    assert_eq!(fams[2].status, "no fit yet");
    // results/full's table_details.csv: ±50 reached from 1400 up, beyond range at 2300
    assert_eq!(
        (fams[0].covered50_from, fams[0].covered50_to),
        (Some(1400.0), Some(2200.0))
    );
    let rms = fams[0].verify_rms.unwrap();
    assert!(rms > 0.0 && rms < 200.0, "{rms}");

    // each target has both fitted families, the node cost read from the path's LimitNodes
    let targets: Vec<CompareTargetRow> = read_csv(&out.join("compare_targets.csv")).unwrap();
    let at = |t: f64, fam: &str| {
        targets
            .iter()
            .find(|r| r.target == t && r.family == fam)
            .unwrap_or_else(|| panic!("no row {t} {fam}"))
    };
    for fam in ["full", "renamed"] {
        let r = at(1400.0, fam);
        assert_eq!(r.knobs, "LimitNodes=1209;ScoreInaccuracy=43");
        assert_eq!((r.nodes, r.nodes_source.as_str()), (Some(1209.0), "path"));
        // uci_elo_table.csv's 1400 row: LimitNodes_lower 929, LimitNodes_upper 1572
        assert_eq!((r.nodes_lower, r.nodes_upper), (Some(929.0), Some(1572.0)));
        assert!(r.elo_lower < 1400.0 && 1400.0 < r.elo_upper);
    }
    assert!(targets.iter().all(|r| r.family != "fresh"));
    assert_eq!(targets.len(), 2 * 17, "17 targets from 800 to 2400");

    // the plot holds both families, and the page inlines it and marks the failure
    let svg = std::fs::read_to_string(out.join("compare_curves.svg")).unwrap();
    assert!(svg.contains("full (curve") && svg.contains("renamed (curve"));
    let html = std::fs::read_to_string(out.join("compare.html")).unwrap();
    assert!(html.contains("<svg") && html.contains("FAIL (marked)"));
    assert!(html.contains("no fit yet") && html.contains("Stockfish 15.1 Skill Levels"));
    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(md.contains("![compare_curves.svg](compare_curves.svg)"));
    assert!(
        md.contains("compare_targets.csv"),
        "the Files section lists the CSV"
    );

    // a family with a fixed LimitNodes says so
    let fixed = dir.join("fixed");
    copy_full(&fixed);
    let cfg = std::fs::read_to_string(fixed.join("calibrate.toml")).unwrap();
    std::fs::write(
        fixed.join("calibrate.toml"),
        cfg.replace(
            "Hash = 16\nThreads = 1",
            "Hash = 16\nThreads = 1\nLimitNodes = 65536",
        ),
    )
    .unwrap();
    let mut summary = std::fs::read_to_string(fixed.join("summary.toml")).unwrap();
    summary = summary.replace("name = \"LimitNodes\"", "name = \"NoiseSigma\"");
    std::fs::write(
        fixed.join("summary.toml"),
        summary.replacen("name = \"full\"", "name = \"sigma\"", 1),
    )
    .unwrap();
    let out2 = dir.join("cmp2");
    let (ok, stderr) = skillcal(&[
        "compare",
        fixed.to_str().unwrap(),
        "--out",
        out2.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let targets: Vec<CompareTargetRow> = read_csv(&out2.join("compare_targets.csv")).unwrap();
    assert!(targets
        .iter()
        .all(|r| r.family == "sigma" && r.nodes == Some(65536.0) && r.nodes_source == "fixed"));
    assert!(targets.iter().all(|r| r.nodes_lower.is_none()));
    let _ = std::fs::remove_dir_all(&dir);
}

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

pub(crate) const ANALYSIS_HEAD: &str = "player,settings,games,moves,inaccuracies,acpl,acpl_lower,acpl_upper,accuracy,accuracy_lower,accuracy_upper,inaccuracy_rate,inaccuracy_rate_lower,inaccuracy_rate_upper,mistake_rate,mistake_rate_lower,mistake_rate_upper,blunder_rate,blunder_rate_lower,blunder_rate_upper,blunder_rate_equal,blunder_rate_equal_lower,blunder_rate_equal_upper,blunder_rate_losing,blunder_rate_losing_lower,blunder_rate_losing_upper,drop_rate_equal,drop_rate_equal_lower,drop_rate_equal_upper,drop_rate_losing,drop_rate_losing_lower,drop_rate_losing_upper,top1,top1_lower,top1_upper";

/// A copy of results/full whose tested settings are replaced by hand-made ones at curve Elo
/// `elos` (t evenly from 0 to 1), analysed with (acpl, blunder rate, equal, losing, top1) each;
/// material drops at half the equal blunder rate when equal and twice the losing one when losing,
/// so each setting's drop ratio is four times its blunder ratio.
pub(crate) fn analysed_run(to: &Path, elos: &[f64], figures: &[(f64, f64, f64, f64, f64)]) {
    copy_full(to);
    let n = elos.len() - 1;
    let mut points = String::from(
        "name,t,knobs,games,score,draw_rate,elo,lower,upper,isotonic,curve,residual,z\n",
    );
    let mut analysis = format!("{ANALYSIS_HEAD}\n");
    for (i, (elo, (acpl, b, eq, lose, top1))) in elos.iter().zip(figures).enumerate() {
        let t = i as f64 / n as f64;
        let name = format!("skillcal_t{t:.4}");
        points.push_str(&format!(
            "{name},{t},LimitNodes={i},100,0.5,0.1,{elo},{},{},{elo},{elo},0,0\n",
            elo - 100.0,
            elo + 100.0
        ));
        analysis.push_str(&format!(
            "{name},LimitNodes={i},100,4000,100,{acpl},{},{},80,75,85,0.1,0.08,0.12,0.05,0.04,0.06,{b},{},{},{eq},{},{},{lose},{},{},{},{},{},{},{},{},{top1},{},{}\n",
            acpl - 5.0,
            acpl + 5.0,
            b * 0.8,
            b * 1.2,
            eq * 0.8,
            eq * 1.2,
            lose * 0.8,
            lose * 1.2,
            eq / 2.0,
            eq / 2.0 * 0.8,
            eq / 2.0 * 1.2,
            lose * 2.0,
            lose * 2.0 * 0.8,
            lose * 2.0 * 1.2,
            top1 - 0.05,
            top1 + 0.05
        ));
    }
    std::fs::write(to.join("fit_points.csv"), points).unwrap();
    std::fs::create_dir_all(to.join("analysis")).unwrap();
    std::fs::write(to.join("analysis/analysis.csv"), analysis).unwrap();
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
