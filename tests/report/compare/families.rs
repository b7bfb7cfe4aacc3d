//! Two families side by side: rows, plot and page, and a failed time-control check marked.

use super::*;

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
