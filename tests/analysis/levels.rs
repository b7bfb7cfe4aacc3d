//! How each level plays in a calibration report: a hand-made run folder (fit_points.csv,
//! fit_curve.csv, pool.csv, analysis/analysis.csv) joined into exact levels.csv rows, Spearman's
//! rho against hand-worked values, the report's section and plots, and a malformed analysis.csv.

use std::path::{Path, PathBuf};

use skillcal::report::levels::{average_ranks, load_levels, spearman, Rise};
use skillcal::results::{read_csv, AnalysisRow, LevelElo, LevelKind, LevelRow};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skillcal-levels-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("analysis")).unwrap();
    d
}

const POINTS: &str = "name,t,knobs,games,score,draw_rate,elo,lower,upper,isotonic,curve,residual,z
skillcal_t0.5000,0.5,LimitNodes=100,40,0.5,0.1,1230,1130,1330,1230,1200,30,0.3
skillcal_t0.0000,0.0,LimitNodes=10,40,0.2,0.0,980,880,1080,980,1000,-20,-0.2
skillcal_t1.0000,1.0,LimitNodes=1000,40,0.8,0.2,1390,1290,1490,1390,1400,-10,-0.1
skillcal_t0.7500,0.75,LimitNodes=300,20,0.6,0.1,1300,1150,1450,1300,1300,0,0
";

const CURVE: &str = "t,knobs,elo,lower,upper
0.0,LimitNodes=10,1000,900,1100
0.25,LimitNodes=30,1100,1020,1180
0.5,LimitNodes=100,1200,1140,1260
1.0,LimitNodes=1000,1400,1300,1500
";

const POOL: &str = "name,anchor,anchor_sd,elo,lower,upper,games
sf-skill0,1320,50,1320,1270,1370,200
sf-skill5,1700,50,1710,1650,1770,200
";

/// levels.csv's columns, in order.
const LEVELS_HEAD: &str = "kind,name,t,knobs,elo,elo_lower,elo_upper,elo_measured,measured_lower,measured_upper,games,moves,acpl,acpl_lower,acpl_upper,accuracy,accuracy_lower,accuracy_upper,inaccuracy_rate,inaccuracy_rate_lower,inaccuracy_rate_upper,mistake_rate,mistake_rate_lower,mistake_rate_upper,blunder_rate,blunder_rate_lower,blunder_rate_upper,blunder_rate_equal,blunder_rate_equal_lower,blunder_rate_equal_upper,blunder_rate_losing,blunder_rate_losing_lower,blunder_rate_losing_upper,losing_equal_ratio,drop_rate_equal,drop_rate_equal_lower,drop_rate_equal_upper,drop_rate_losing,drop_rate_losing_lower,drop_rate_losing_upper,drop_losing_equal_ratio,top1,top1_lower,top1_upper";

const HEAD: &str = "player,settings,games,moves,inaccuracies,acpl,acpl_lower,acpl_upper,accuracy,accuracy_lower,accuracy_upper,inaccuracy_rate,inaccuracy_rate_lower,inaccuracy_rate_upper,mistake_rate,mistake_rate_lower,mistake_rate_upper,blunder_rate,blunder_rate_lower,blunder_rate_upper,blunder_rate_equal,blunder_rate_equal_lower,blunder_rate_equal_upper,blunder_rate_losing,blunder_rate_losing_lower,blunder_rate_losing_upper,drop_rate_equal,drop_rate_equal_lower,drop_rate_equal_upper,drop_rate_losing,drop_rate_losing_lower,drop_rate_losing_upper,top1,top1_lower,top1_upper";

/// ACPL 80, 60, 65 at Elo 1000, 1200, 1400 (not monotone); t=0.75 has no analysed games; a
/// pool member and a stranger (left out).
fn analysis_csv(acpl_mid: &str) -> String {
    format!(
        "{HEAD}
skillcal_t0.0000,LimitNodes=10,40,1000,50,80,70,90,80,75,85,0.1,0.08,0.12,0.05,0.04,0.06,0.04,0.03,0.05,0.02,0.01,0.03,0.08,0.06,0.1,0.004,0.002,0.006,0.025,0.02,0.03,0.3,0.25,0.35
skillcal_t0.5000,LimitNodes=100,40,1100,40,{acpl_mid},55,65,85,80,90,0.08,0.06,0.1,0.04,0.03,0.05,0.03,0.02,0.04,0.0,0.0,0.0,0.05,0.04,0.06,0.005,0.003,0.007,0.01,0.008,0.012,0.35,0.3,0.4
skillcal_t1.0000,LimitNodes=1000,40,1200,30,65,60,70,88,84,92,0.06,0.05,0.07,0.03,0.02,0.04,0.02,0.01,0.03,0.01,0.0,0.02,0.04,0.03,0.05,0.0,0.0,0.0,0.01,0.0,0.02,,,
sf-skill0,Skill Level=0;Threads=1,20,600,30,50,45,55,90,88,92,0.05,0.04,0.06,0.02,0.01,0.03,0.01,0.0,0.02,0.01,0.0,0.02,0.02,0.01,0.03,0.004,0.002,0.006,0.025,0.02,0.03,0.4,0.35,0.45
verify-1500,UCI_Elo=1500,10,300,10,40,35,45,92,90,94,0.04,0.03,0.05,0.02,0.01,0.03,0.01,0.0,0.02,0.01,0.0,0.02,0.02,0.01,0.03,0.004,0.002,0.006,0.025,0.02,0.03,0.45,0.4,0.5
"
    )
}

fn run_folder(name: &str, acpl_mid: &str) -> PathBuf {
    let d = tmp(name);
    std::fs::write(d.join("fit_points.csv"), POINTS).unwrap();
    std::fs::write(d.join("fit_curve.csv"), CURVE).unwrap();
    std::fs::write(d.join("pool.csv"), POOL).unwrap();
    std::fs::write(d.join("analysis/analysis.csv"), analysis_csv(acpl_mid)).unwrap();
    d
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

#[test]
fn levels_join_fit_points_curve_and_pool_with_the_analysis() {
    let d = run_folder("join", "60");
    let l = load_levels(&d).unwrap().expect("the run has an analysis");
    let names: Vec<&str> = l.subjects.iter().map(|r| r.name()).collect();
    assert_eq!(
        names,
        ["skillcal_t0.0000", "skillcal_t0.5000", "skillcal_t1.0000"],
        "tested settings by t"
    );
    assert_eq!(l.unanalysed, ["skillcal_t0.7500"]);
    let pool: Vec<&str> = l.pool.iter().map(|r| r.name()).collect();
    assert_eq!(
        pool,
        ["sf-skill0"],
        "pool members analysed; strangers left out"
    );

    let first = &l.subjects[0];
    assert_eq!(
        first.level,
        LevelElo {
            kind: LevelKind::Subject,
            t: Some(0.0),
            knobs: "LimitNodes=10".into(),
            elo: 1000.0,
            elo_lower: Some(900.0),
            elo_upper: Some(1100.0),
            elo_measured: Some(980.0),
            measured_lower: Some(880.0),
            measured_upper: Some(1080.0),
        }
    );
    let analysis: Vec<AnalysisRow> = read_csv(&d.join("analysis/analysis.csv")).unwrap();
    assert_eq!(
        first.analysis, analysis[0],
        "the setting's analysis.csv row, whole"
    );
    assert_eq!(first.name(), "skillcal_t0.0000");
    assert_eq!(first.losing_equal_ratio(), Some(4.0));
    assert_eq!(first.drop_losing_equal_ratio(), Some(0.025 / 0.004));
    // Elo from the points' curve column, band interpolated in fit_curve.csv at t = 0.5.
    let mid = &l.subjects[1];
    assert_eq!(
        (mid.level.elo, mid.level.elo_lower, mid.level.elo_upper),
        (1200.0, Some(1140.0), Some(1260.0))
    );
    assert_eq!(
        mid.losing_equal_ratio(),
        None,
        "no equal-state blunders: no ratio"
    );
    let top = &l.subjects[2];
    assert_eq!(
        (top.analysis.top1, top.analysis.top1_lower),
        (None, None),
        "empty figures stay empty"
    );
    assert!(close(top.losing_equal_ratio(), 4.0));
    assert!(close(mid.drop_losing_equal_ratio(), 2.0));
    assert_eq!(
        top.drop_losing_equal_ratio(),
        None,
        "no equal-state drops: no ratio"
    );
    let member = &l.pool[0];
    assert_eq!(
        (
            member.level.kind,
            member.level.t,
            member.level.elo,
            member.level.elo_lower,
            member.level.elo_measured
        ),
        (LevelKind::Pool, None, 1320.0, Some(1270.0), None)
    );
    assert_eq!(member.level.knobs, "Skill Level=0;Threads=1");

    // ACPL 80, 60, 65 against Elo 1000, 1200, 1400: rho = -0.5, rising from t=0.5 to t=1.
    assert_eq!(l.trend.settings, 3);
    assert!(close(l.trend.rho, -0.5));
    assert!(close(l.trend.rho_measured, -0.5));
    assert!(!l.trend.passes());
    assert_eq!(
        l.trend.rises,
        [Rise {
            lower: "skillcal_t0.5000".into(),
            lower_acpl: 60.0,
            higher: "skillcal_t1.0000".into(),
            higher_acpl: 65.0,
        }]
    );

    // levels.csv: subjects by t, then pool members; read back, its columns are as written.
    let path = skillcal::report::levels::write_levels(&d.join("analysis"), &l).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(lines[0], LEVELS_HEAD);
    assert_eq!(lines[1], "subject,skillcal_t0.0000,0.0,LimitNodes=10,1000.0,900.0,1100.0,980.0,880.0,1080.0,40,1000,80.0,70.0,90.0,80.0,75.0,85.0,0.1,0.08,0.12,0.05,0.04,0.06,0.04,0.03,0.05,0.02,0.01,0.03,0.08,0.06,0.1,4.0,0.004,0.002,0.006,0.025,0.02,0.03,6.25,0.3,0.25,0.35");
    assert_eq!(lines[3], "subject,skillcal_t1.0000,1.0,LimitNodes=1000,1400.0,1300.0,1500.0,1390.0,1290.0,1490.0,40,1200,65.0,60.0,70.0,88.0,84.0,92.0,0.06,0.05,0.07,0.03,0.02,0.04,0.02,0.01,0.03,0.01,0.0,0.02,0.04,0.03,0.05,4.0,0.0,0.0,0.0,0.01,0.0,0.02,,,,");
    assert!(
        lines[4]
            .starts_with("pool,sf-skill0,,Skill Level=0;Threads=1,1320.0,1270.0,1370.0,,,,20,600,"),
        "{}",
        lines[4]
    );
    let back: Vec<LevelRow> = read_csv(&path).unwrap();
    let levels: Vec<&LevelElo> = back.iter().map(|r| &r.level).collect();
    assert_eq!(
        levels,
        [&first.level, &mid.level, &top.level, &member.level]
    );
    assert_eq!(
        (back[0].analysis.acpl, back[0].analysis.top1_upper),
        (first.analysis.acpl, first.analysis.top1_upper)
    );
    assert_eq!(back[3].name(), "sf-skill0");
    assert_eq!(
        back[0].drop_losing_equal_ratio(),
        first.drop_losing_equal_ratio()
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_analysis_csv_from_before_the_drop_columns_still_reads() {
    let d = run_folder("old", "60");
    let old_head = HEAD.replace(
        "drop_rate_equal,drop_rate_equal_lower,drop_rate_equal_upper,drop_rate_losing,drop_rate_losing_lower,drop_rate_losing_upper,",
        "",
    );
    assert_ne!(old_head, HEAD);
    std::fs::write(
        d.join("analysis/analysis.csv"),
        format!("{old_head}\nskillcal_t0.0000,LimitNodes=10,40,1000,50,80,70,90,80,75,85,0.1,0.08,0.12,0.05,0.04,0.06,0.04,0.03,0.05,0.02,0.01,0.03,0.08,0.06,0.1,0.3,0.25,0.35\n"),
    )
    .unwrap();
    let l = load_levels(&d).unwrap().expect("the run has an analysis");
    let r = &l.subjects[0];
    assert!(close(r.losing_equal_ratio(), 4.0));
    assert!(close(r.analysis.top1, 0.3));
    assert_eq!(
        (
            r.analysis.drop_rate_equal,
            r.analysis.drop_rate_losing,
            r.drop_losing_equal_ratio()
        ),
        (None, None, None)
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn no_analysis_folder_means_no_levels() {
    let d = tmp("none");
    std::fs::write(d.join("fit_points.csv"), POINTS).unwrap();
    assert!(load_levels(&d).unwrap().is_none());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn spearman_matches_hand_worked_values() {
    assert_eq!(
        average_ranks(&[10.0, 20.0, 20.0, 5.0]),
        [2.0, 3.5, 3.5, 1.0]
    );
    assert_eq!(average_ranks(&[7.0, 7.0, 7.0]), [2.0, 2.0, 2.0]);
    let r = spearman(&[1.0, 2.0, 3.0], &[30.0, 20.0, 10.0]).unwrap();
    assert!((r + 1.0).abs() < 1e-12, "{r}");
    // Ties: ranks of y are 1, 2, 3.5, 5, 3.5; sum dx*dy = 8, sum dx^2 = 10, sum dy^2 = 9.5.
    let r = spearman(&[1.0, 2.0, 3.0, 4.0, 5.0], &[5.0, 6.0, 7.0, 8.0, 7.0]).unwrap();
    assert!((r - 8.0 / 95f64.sqrt()).abs() < 1e-12, "{r}");
    // Ties in both: x ranks 1.5, 1.5, 3, 4 (dx -1, -1, 0.5, 1.5); y ranks 4, 2.5, 2.5, 1
    // (dy 1.5, 0, 0, -1.5): sum dx*dy = -3.75, sum dx^2 = sum dy^2 = 4.5.
    let r = spearman(&[1.0, 1.0, 2.0, 3.0], &[9.0, 4.0, 4.0, 0.0]).unwrap();
    assert!((r + 3.75 / 4.5).abs() < 1e-12, "{r}");
    assert_eq!(
        spearman(&[1.0, 2.0], &[3.0, 3.0]),
        None,
        "a constant variable"
    );
    assert_eq!(spearman(&[1.0], &[3.0]), None, "one pair");
    assert_eq!(spearman(&[1.0, 2.0], &[3.0]), None, "unequal lengths");
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn report_shows_how_each_level_plays() {
    // ACPL 80, 70, 65 against Elo 1000, 1200, 1400: falls, rho = -1.
    let d = run_folder("report", "70");
    skillcal::report::generate(&d).unwrap();
    let md = read(&d.join("report.md"));
    assert!(md.contains("## How each level plays"), "{md}");
    assert!(
        md.contains("Spearman's rho = -1.000 over 3 tested settings"),
        "{md}"
    );
    assert!(md.contains("ACPL falls as Elo rises"), "{md}");
    assert!(md.contains("Tested settings without analysed games: skillcal_t0.7500."));
    assert!(md.contains("| LimitNodes=10 | 0.000 | 1000 [900, 1100] | 980 [880, 1080] | 40 | 1000 | 80.0 [70.0, 90.0] |"), "{md}");
    assert!(
        md.contains("| 8.0 / 2.0 (4.00) | 2.5 / 0.4 (6.25) | 30.0 [25.0, 35.0] |"),
        "blunders and drops by state, with their ratios: {md}"
    );
    assert!(
        md.contains("| blunders % losing / equal (ratio) | drops % losing / equal (ratio) |"),
        "{md}"
    );
    assert!(md.contains("| sf-skill0 |"), "pool member listed: {md}");
    for f in [
        "levels_acpl.svg",
        "levels_errors.svg",
        "levels_blunder_state.svg",
        "levels_drop_state.svg",
        "levels_top1.svg",
    ] {
        assert!(read(&d.join(f)).contains("<svg"), "{f}");
        assert!(md.contains(&format!("]({f})")), "{f} linked: {md}");
    }
    assert!(
        md.contains("| analysis/levels.csv |"),
        "Files lists analysis/: {md}"
    );
    let rows: Vec<LevelRow> = read_csv(&d.join("analysis/levels.csv")).unwrap();
    assert_eq!(rows.len(), 4);
    assert!(read(&d.join("report.html")).contains("How each level plays"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn malformed_analysis_csv_names_file_and_line() {
    let d = run_folder("bad", "sixty");
    let e = load_levels(&d).unwrap_err().to_string();
    let file = d.join("analysis").join("analysis.csv");
    assert!(
        e.contains(&format!("{}:3:", file.display())),
        "names the file and line: {e}"
    );
    assert!(e.contains("acpl") || e.contains("float"), "{e}");
    let e = skillcal::report::generate(&d).unwrap_err().to_string();
    assert!(e.contains("analysis.csv:3:"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}

const RUN_PGN: &str = r#"[Event "t"]
[White "skillcal_t0.0000"]
[Black "sf-skill0"]
[Result "0-1"]
[GameId "1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "t"]
[White "sf-skill0"]
[Black "skillcal_t1.0000"]
[Result "1/2-1/2"]
[GameId "2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2
"#;

#[test]
fn analyse_on_a_calibration_folder_writes_levels_csv() {
    // The built-in engine as the reference at a few hundred nodes: the join is under test, not
    // the judgements.
    let d = tmp("cli");
    std::fs::write(d.join("fit_points.csv"), POINTS).unwrap();
    std::fs::write(d.join("pool.csv"), POOL).unwrap();
    std::fs::remove_dir_all(d.join("analysis")).unwrap();
    std::fs::create_dir_all(d.join("matches/b000-01")).unwrap();
    std::fs::write(d.join("matches/b000-01/games.pgn"), RUN_PGN).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .arg("analyse")
        .arg(&d)
        .arg("--out")
        .arg(d.join("analysis"))
        .args(["--engine", "builtin", "--limit", "nodes=300"])
        .args(["--bootstrap", "100", "--concurrency", "1", "--quiet"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("2 tested settings, 1 pool members"),
        "{stdout}"
    );
    assert!(stdout.contains("Spearman's rho"), "{stdout}");
    let rows: Vec<LevelRow> = read_csv(&d.join("analysis/levels.csv")).unwrap();
    type Key<'a> = (LevelKind, &'a str, Option<f64>, f64, usize, usize);
    let got: Vec<Key> = rows
        .iter()
        .map(|r| {
            (
                r.level.kind,
                r.name(),
                r.level.t,
                r.level.elo,
                r.analysis.games,
                r.analysis.moves,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                LevelKind::Subject,
                "skillcal_t0.0000",
                Some(0.0),
                1000.0,
                1,
                2
            ),
            (
                LevelKind::Subject,
                "skillcal_t1.0000",
                Some(1.0),
                1400.0,
                1,
                3
            ),
            (LevelKind::Pool, "sf-skill0", None, 1320.0, 2, 5),
        ]
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A calibration whose curve fit failed has NaN for every setting's curve Elo, and two points
/// give rho ±1 whatever they are: rho is not computed on either, and the sentence says why
/// (before: "rho = -1.000 over 2 tested settings ... ACPL falls as Elo rises").
#[test]
fn rho_needs_three_settings_with_a_curve_elo() {
    let d = run_folder("rho-nan", "60");
    let nan_curve: String = POINTS
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                return l.to_string();
            }
            let mut f: Vec<&str> = l.split(',').collect();
            f[10] = "NaN";
            f.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    std::fs::write(d.join("fit_points.csv"), nan_curve).unwrap();
    let l = load_levels(&d).unwrap().unwrap();
    assert_eq!(l.trend.rho, None);
    assert_eq!(l.trend.rho_measured, None);
    let s = skillcal::report::levels::trend_sentence(&l);
    assert!(
        s.contains("not computed") && s.contains("no curve Elo (NaN in fit_points.csv"),
        "{s}"
    );
    // two settings with an Elo: any two give ±1
    std::fs::write(
        d.join("fit_points.csv"),
        POINTS.lines().take(3).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    let l = load_levels(&d).unwrap().unwrap();
    assert_eq!((l.trend.settings, l.trend.rho), (2, None));
    let s = skillcal::report::levels::trend_sentence(&l);
    assert!(
        s.contains("2 tested settings have an ACPL and a curve Elo"),
        "{s}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
