//! `skillcal tc-check`: the same UCI_Elo levels at two clocks. On simulated games with a known
//! clock effect it passes the level the clock leaves alone and fails the one it cuts short; on
//! a tiny real run (the built-in engine against Stockfish over pipes) it plays both clocks,
//! writes tc_check.csv and its summary, and resumes without replaying.

use std::path::Path;
use std::process::{Command, Stdio};

use skillcal::calibrate::play::EngineSpec;
use skillcal::calibrate::play::SimRunner;
use skillcal::calibrate::verify::tc_check::{default_levels, tc_check, DEFAULT_TCS};
use skillcal::report;
use skillcal::results::{read_csv, tc_check_pass, write_csv, TcCheckRow, TcVerdict};

use crate::support::arena::{temp_dir, SKILLCAL, STOCKFISH};
use crate::support::calibrate::{config, ANCHORS};

#[test]
fn sim_tc_check_fails_the_level_the_fast_clock_cuts_short() {
    let cfg = config(100, 50.0, "linear");
    let dir = temp_dir("tc-sim");
    let table = dir.join("table.csv");
    std::fs::write(
        &table,
        "elo,LimitNodes\n1000,100\n1400,800\n2000,20000\n2500,60000\n",
    )
    .unwrap();
    assert_eq!(default_levels(&cfg, &table).unwrap(), vec![1400.0, 2000.0]);
    // at 10+0.1 the 2000 level cannot finish its searches and plays 200 Elo weaker
    let runner = SimRunner {
        truth: Box::new(|e: &EngineSpec| {
            if let Some(l) = e.option("UCI_Elo") {
                let l: f64 = l.parse().unwrap();
                let fast = e.limits.tc.as_deref() == Some("10+0.1");
                return if fast && l >= 2000.0 { l - 200.0 } else { l };
            }
            let i: usize = e.option("Skill Level").unwrap().parse().unwrap();
            ANCHORS[i]
        }),
        draw_rate: 0.3,
        // a cut search is a shorter one: the 2000 level's games take half as long at 10+0.1
        seconds: Some(Box::new(|w: &EngineSpec, b: &EngineSpec| {
            let cut = |e: &EngineSpec| {
                e.limits.tc.as_deref() == Some("10+0.1") && e.option("UCI_Elo") == Some("2000")
            };
            if cut(w) || cut(b) {
                5.0
            } else {
                10.0
            }
        })),
    };
    let tcs: Vec<String> = DEFAULT_TCS.iter().map(|s| s.to_string()).collect();
    let out = dir.join("tc-check");
    let rows = tc_check(&cfg, &table, &out, &[1400.0, 2000.0], &tcs, 400, &runner).unwrap();
    assert_eq!(rows.len(), 4);
    // the reference clock's rows carry no difference; the others do, with an interval around it
    for r in &rows {
        assert_eq!(r.diff.is_none(), r.tc == "10+0.1", "{r:?}");
        assert_eq!(r.games, 800, "{r:?}");
    }
    let at = |level: f64| {
        rows.iter()
            .find(|r| r.level == level && r.tc == "60+0.6")
            .unwrap()
    };
    let (low, high) = (at(1400.0), at(2000.0));
    assert_eq!(low.pass, Some(true), "{low:?}");
    assert_eq!(high.pass, Some(false), "{high:?}");
    let d = high.diff.unwrap();
    assert!((d - 200.0).abs() < 60.0, "{high:?}");
    assert!(high.diff_lower.unwrap() < d && d < high.diff_upper.unwrap());
    assert_eq!(tc_check_pass(&rows), Some(false));
    // the time per ply tells that the clock did it
    let pace = report::tc_pace_note(&rows).unwrap();
    assert!(
        pace.contains("cut searches short") && pace.contains("2000") && !pace.contains("1400"),
        "{pace}"
    );
    let mut same = rows.clone();
    for r in &mut same {
        r.ms_per_ply = Some(20.0);
    }
    let pace = report::tc_pace_note(&same).unwrap();
    assert!(pace.contains("no clock cut"), "{pace}");
    // nodes a move, where the games kept them, decide over the time per ply (the load moves
    // that): equal nodes are no cut, a fifth fewer at one clock is
    for r in &mut same {
        r.ms_per_ply = Some(if r.tc == "60+0.6" { 60.0 } else { 20.0 });
        r.nodes = Some(50_000.0);
    }
    let pace = report::tc_pace_note(&same).unwrap();
    assert!(
        pace.contains("as many nodes") && pace.contains("no clock cut"),
        "{pace}"
    );
    for r in &mut same {
        if r.level == 2000.0 && r.tc == "10+0.1" {
            r.nodes = Some(40_000.0);
        }
    }
    let pace = report::tc_pace_note(&same).unwrap();
    assert!(
        pace.contains("fewer nodes") && pace.contains("2000: 40000") && !pace.contains("1400"),
        "{pace}"
    );
    // the file holds what was returned, and a calibration's report beside it shows the check
    let back: Vec<TcCheckRow> = read_csv(&out.join("tc_check.csv")).unwrap();
    assert_eq!(back, rows);
    let html = std::fs::read_to_string(report::generate(&dir).unwrap()).unwrap();
    assert!(html.contains("Time-control check") && html.contains("FAIL"));
    assert!(
        html.contains("tc-check/"),
        "the Files section lists the folder"
    );
    // one clock is no check; a bad clock is named
    let err = tc_check(&cfg, &table, &out, &[1400.0], &tcs[..1], 2, &runner).unwrap_err();
    assert!(err.to_string().contains("--tcs"), "{err}");
    let bad = vec!["10+0.1".to_string(), "fast".to_string()];
    let err = tc_check(&cfg, &table, &out, &[1400.0], &bad, 2, &runner).unwrap_err();
    assert!(err.to_string().contains("fast"), "{err}");
    // ... and so is a bad clock alone (not "give two")
    let err = tc_check(&cfg, &table, &out, &[1400.0], &bad[1..], 2, &runner).unwrap_err();
    assert!(err.to_string().contains("fast"), "{err}");
    // levels outside the table, not integers, or twice are refused before a game is played,
    // by tc-check and verify alike
    let fresh = dir.join("levels");
    for (levels, expect) in [
        (&[3000.0][..], "3000 is not a UCI_Elo"),
        (&[999.0], "999 is not a UCI_Elo"),
        (&[1400.5], "1400.5 is not a UCI_Elo"),
        (&[1400.0, 1400.0], "1400 given twice"),
    ] {
        let err = tc_check(&cfg, &table, &fresh, levels, &tcs, 2, &runner).unwrap_err();
        assert!(err.to_string().contains(expect), "{levels:?}: {err}");
        let err = skillcal::calibrate::verify::verify(&cfg, &table, &fresh, levels, 2, &runner)
            .unwrap_err();
        assert!(err.to_string().contains(expect), "{levels:?}: {err}");
        assert!(!fresh.exists(), "{levels:?}: a folder was made");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn real_config(dir: &Path) -> std::path::PathBuf {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/books/2moves_v1.epd");
    let text = format!(
        r#"
name = "tc"
seed = 5
concurrency = 2
budget = 10
precision = 100
targets = {{ from = 1200, to = 1600, step = 200 }}

[subject]
command = "builtin"
options = {{ Hash = 4, Threads = 1 }}
limits = {{ tc = "120+1" }}

[[path]]
knob = "LimitNodes"
from = 16
to = 1024
scale = "log"

[pool]
command = "{STOCKFISH}"
options = {{ Hash = 4, Threads = 1 }}
limits = {{ nodes = 1000 }}
anchor_sd = 50
scale = "test scale"

[[pool.member]]
name = "sf-skill0"
elo = 1320
options = {{ "Skill Level" = 0 }}

[[pool.member]]
name = "sf-skill2"
elo = 1608
options = {{ "Skill Level" = 2 }}

[openings]
file = "{}"
order = "random"

[adjudication]
resign = {{ score_cp = 600, moves = 3 }}
max_plies = 160

[verify]
games_per_opponent = 2
opponents_per_level = 2
"#,
        book.display()
    );
    let path = dir.join("tc.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn skillcal(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(SKILLCAL)
        .args(args)
        .env("SKILLCAL_BIN", SKILLCAL)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn real_tc_check_plays_both_clocks_writes_the_csv_and_resumes() {
    assert!(Path::new(STOCKFISH).exists(), "{STOCKFISH} missing");
    let dir = temp_dir("tc-real");
    let cfg = real_config(&dir);
    let table = dir.join("uci_elo_table.csv");
    std::fs::write(&table, "# tiny\nelo,LimitNodes\n1200,32\n1600,256\n").unwrap();
    let args = [
        "tc-check",
        table.to_str().unwrap(),
        "--config",
        cfg.to_str().unwrap(),
        "--levels",
        "1400",
    ];
    let (ok, stdout, stderr) = skillcal(&args);
    assert!(ok, "{stderr}");
    // default folder beside the table; one row per clock, 2 games against each of 2 members
    let out = dir.join("tc-check");
    let rows: Vec<TcCheckRow> = read_csv(&out.join("tc_check.csv")).unwrap();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(
        (rows[0].tc.as_str(), rows[1].tc.as_str()),
        ("10+0.1", "60+0.6")
    );
    assert!(
        rows.iter().all(|r| r.level == 1400.0 && r.games == 4),
        "{rows:?}"
    );
    assert!(rows[0].diff.is_none() && rows[0].pass.is_none());
    assert!(
        rows.iter().all(|r| r.ms_per_ply.is_some_and(|m| m > 0.0)
            && r.depth.is_some_and(|d| d >= 1.0)
            && r.nodes.is_some_and(|n| n > 0.0)),
        "{rows:?}"
    );
    let d = rows[1].diff.unwrap();
    assert_eq!(
        rows[1].pass,
        Some(rows[1].verdict() == Some(TcVerdict::Pass))
    );
    assert!((d - (rows[1].measured - rows[0].measured)).abs() < 1e-6);
    assert!(
        stdout.contains("10+0.1")
            && stdout.contains("time-control check:")
            && stdout.contains("nodes a move"),
        "{stdout}"
    );
    // the printed verdict is the interval's (4 games: inconclusive, never FAIL beside a note
    // that the games cannot tell)
    let verdict = rows[1].verdict().unwrap().as_str();
    assert!(
        stdout.contains(&format!("time-control check: {verdict} ")),
        "{stdout}"
    );
    // the subject played on the given clocks, every game finished on the board or by rule
    for tc in ["10+0.1", "60+0.6"] {
        let spec = std::fs::read_dir(out.join("matches").join(format!("{tc}-1400")))
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().extension().is_some_and(|x| x == "toml"))
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .collect::<String>();
        assert!(spec.contains(&format!("tc = \"{tc}\"")), "{tc}: {spec}");
    }
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 9, "8 games and the header");
    for bad in ["crash", "stall", "illegal_move", "time_forfeit"] {
        assert!(
            !games.contains(&format!(",{bad},")),
            "a game ended by {bad}"
        );
    }
    // a rerun resumes: nothing new is played and the file is the same
    let (ok, _, stderr) = skillcal(&args);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("against"), "a game was replayed: {stderr}");
    let again: Vec<TcCheckRow> = read_csv(&out.join("tc_check.csv")).unwrap();
    assert_eq!(again, rows);
    // moved elsewhere (a clone at another path), more games extend the same matches on the
    // table's new path
    let moved = temp_dir("tc-real-moved");
    std::fs::remove_dir_all(&moved).unwrap();
    std::fs::rename(&dir, &moved).unwrap();
    let table = moved.join("uci_elo_table.csv");
    let cfg = moved.join("tc.toml");
    let (ok, _, stderr) = skillcal(&[
        "tc-check",
        table.to_str().unwrap(),
        "--config",
        cfg.to_str().unwrap(),
        "--levels",
        "1400",
        "--games",
        "4",
    ]);
    assert!(ok, "{stderr}");
    let games = std::fs::read_to_string(moved.join("tc-check/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 17, "16 games and the header");
    let snapshot =
        std::fs::read_to_string(moved.join("tc-check/matches/10+0.1-1400/match.toml")).unwrap();
    let canonical = std::fs::canonicalize(&table).unwrap();
    assert!(
        snapshot.contains(&format!("StrengthTable = \"{}\"", canonical.display())),
        "{snapshot}"
    );
    // a changed table is still refused: the games rest on its contents
    std::fs::write(&table, "# tiny\nelo,LimitNodes\n1200,40\n1600,256\n").unwrap();
    let (ok, _, stderr) = skillcal(&[
        "tc-check",
        table.to_str().unwrap(),
        "--config",
        cfg.to_str().unwrap(),
        "--levels",
        "1400",
    ]);
    assert!(
        !ok && stderr.contains("verification of another table"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&moved);
}

/// The verdict reads the difference's 95% interval against ±50: inside passes, wholly beyond
/// fails, and one reaching across an edge cannot tell. The probe's 4 games a level gave +173
/// [-246, +592], which read FAIL beside a note that the difference was chance.
#[test]
fn the_verdict_reads_the_interval_not_the_point_estimate() {
    for ((lo, hi), verdict) in [
        ((-50.0, 50.0), TcVerdict::Pass),
        ((-30.0, 45.0), TcVerdict::Pass),
        ((51.0, 180.0), TcVerdict::Fail),
        ((-300.0, -50.5), TcVerdict::Fail),
        ((-246.0, 592.0), TcVerdict::Inconclusive),
        ((-20.0, 60.0), TcVerdict::Inconclusive),
        ((40.0, 120.0), TcVerdict::Inconclusive),
    ] {
        assert_eq!(TcVerdict::of(lo, hi), verdict, "[{lo}, {hi}]");
    }
    let row = |tc: &str, diff: Option<(f64, f64, f64)>| TcCheckRow {
        level: 1400.0,
        tc: tc.into(),
        measured: 1400.0,
        lower: 1300.0,
        upper: 1500.0,
        games: 4,
        score: 0.5,
        diff: diff.map(|d| d.0),
        diff_lower: diff.map(|d| d.1),
        diff_upper: diff.map(|d| d.2),
        // as the check wrote it before: from the point estimate
        pass: diff.map(|d| d.0.abs() <= 50.0),
        ms_per_ply: None,
        depth: None,
        nodes: None,
    };
    let dir = temp_dir("tc-verdict");
    for (name, diff, sentence, cell) in [
        (
            "wide",
            (173.0, -246.0, 592.0),
            "The check is inconclusive",
            "| inconclusive |",
        ),
        (
            "narrow",
            (10.0, -30.0, 45.0),
            "The check passes",
            "| pass |",
        ),
        (
            "beyond",
            (120.0, 60.0, 180.0),
            "The check FAILS",
            "| FAIL |",
        ),
    ] {
        let d = dir.join(name);
        std::fs::create_dir_all(&d).unwrap();
        let rows = [row("1+0.01", None), row("2+0.02", Some(diff))];
        write_csv(&d.join("tc_check.csv"), &rows).unwrap();
        let out = Command::new(crate::support::arena::skillcal_under_test())
            .arg("report")
            .arg(&d)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let md = std::fs::read_to_string(d.join("report.md")).unwrap();
        assert!(md.contains(sentence) && md.contains(cell), "{name}: {md}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
