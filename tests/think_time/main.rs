//! `skillcal think-time` on real clocked games (tests/data/think_time, twelve Lichess blitz
//! games) with the real Maia nets: a fit writes a model that loads and predicts, a check writes
//! its figures, and bad input is named by file and line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use skillcal::strength::{MoveContext, ThinkModel};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/think_time/lichess_blitz_12.pgn")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skillcal-think-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn skillcal(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skillcal"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_fit_writes_a_model_that_loads_and_a_check_writes_its_figures() {
    let dir = scratch("fit");
    let model = dir.join("model.toml");
    let games = fixture();
    let o = skillcal(&[
        "think-time",
        "fit",
        games.to_str().unwrap(),
        "--half",
        "all",
        "--concurrency",
        "2",
        "--out",
        model.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("fitted on 12 games"), "{}", text(&o));
    let m = ThinkModel::load(&model).unwrap();
    assert!(
        m.fitted_on
            .contains("lichess_blitz_12.pgn (all half: 12 games"),
        "{}",
        m.fitted_on
    );
    // a move early in a 3+0 game, and one in time trouble: finite, and the latter shorter
    let ctx = |clock: f64, ply: u32| MoveContext {
        own_clock: clock,
        opp_clock: clock,
        start_clock: 180.0,
        ply,
        rating: 1500.0,
        top_prob: 0.4,
        entropy: 1.5,
        sensible: 4,
        legal: 30,
        previous: vec![3.0, 4.0, 2.0],
        ..MoveContext::default()
    };
    let (calm, hurried) = (m.expected(&ctx(150.0, 30)), m.expected(&ctx(8.0, 90)));
    assert!(calm.is_finite() && hurried.is_finite(), "{calm} {hurried}");
    assert!(
        (0.5..30.0).contains(&calm) && hurried < calm,
        "{calm} {hurried}"
    );

    let out = dir.join("check");
    let o = skillcal(&[
        "think-time",
        "check",
        games.to_str().unwrap(),
        "--half",
        "all",
        "--model",
        model.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let csv = std::fs::read_to_string(out.join("think_time.csv")).unwrap();
    let blitz_all = csv
        .lines()
        .find(|l| l.starts_with("blitz,all,"))
        .unwrap_or_else(|| panic!("{csv}"));
    let cells: Vec<&str> = blitz_all.split(',').collect();
    let r: f64 = cells[3].parse().unwrap();
    let ratio: f64 = cells[7].parse().unwrap();
    assert!(r > 0.2 && (0.8..1.25).contains(&ratio), "{blitz_all}");
    let page = std::fs::read_to_string(out.join("think_time.md")).unwrap();
    assert!(
        page.contains("## Blitz") && page.contains("1400-1599"),
        "{page}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_halves_split_the_games_and_the_built_in_model_checks() {
    let dir = scratch("halves");
    let games = fixture();
    let mut seen = 0;
    for half in ["fit", "check"] {
        let out = dir.join(half);
        let o = skillcal(&[
            "think-time",
            "check",
            games.to_str().unwrap(),
            "--half",
            half,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o));
        let n: usize = text(&o)
            .split(" games;")
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(n > 0 && n < 12, "{half}: {n}");
        seen += n;
    }
    assert_eq!(seen, 12);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_named_by_file_and_line() {
    let dir = scratch("bad");
    let bad = dir.join("bad.pgn");
    std::fs::write(
        &bad,
        "[Site \"a\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n\n1. e4 e5 1-0\n\n\
         [Site \"b\"]\n[TimeControl \"180+0\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n\n\
         1. e4 { [%clk 0:03:00] } e5 1-0\n",
    )
    .unwrap();
    let model = dir.join("m.toml");
    let o = skillcal(&[
        "think-time",
        "fit",
        bad.to_str().unwrap(),
        "--half",
        "all",
        "--out",
        model.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    let name = bad.display().to_string();
    assert!(
        t.contains(&format!("{name}:1: game skipped: no TimeControl tag")),
        "{t}"
    );
    assert!(
        t.contains(&format!("{name}:7: game skipped: no [%clk] after ply 2")),
        "{t}"
    );
    assert!(t.contains("no clocked game in the all half"), "{t}");
    assert!(!model.exists());

    let o = skillcal(&[
        "think-time",
        "fit",
        "/no/such.pgn",
        "--out",
        model.to_str().unwrap(),
    ]);
    assert!(
        text(&o).contains("/no/such.pgn: no such file"),
        "{}",
        text(&o)
    );
    let o = skillcal(&[
        "think-time",
        "check",
        fixture().to_str().unwrap(),
        "--model",
        "/no/model.toml",
        "--out",
        dir.join("c").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("/no/model.toml: no such file"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
