//! `[sprt]`: a match stops once fishtest's GSPRT decides, keeps every finished game, and a rerun
//! on the decided directory plays nothing. Real Stockfish 15.1 at a low node limit: full
//! strength against Skill Level 0 is a gap of many hundred Elo.

use crate::support::arena::{check_run_dir, temp_dir, STOCKFISH};
use skillcal::arena::{
    read_games_csv, run_match, AdjudicationConfig, EngineConfig, GoLimits, MatchConfig, RunOptions,
    SprtConfig,
};

fn config(first: &str, second: &str) -> MatchConfig {
    MatchConfig {
        engines: vec![
            EngineConfig::from_spec(&format!("{STOCKFISH}{first}")).unwrap(),
            EngineConfig::from_spec(&format!("{STOCKFISH}{second}")).unwrap(),
        ],
        limits: GoLimits {
            nodes: Some(2000),
            ..Default::default()
        },
        rounds: 100,
        concurrency: 2,
        adjudication: AdjudicationConfig {
            resign: Some(skillcal::arena::ResignRule {
                score_cp: 600,
                moves: 3,
            }),
            max_plies: Some(300),
            ..Default::default()
        },
        sprt: Some(SprtConfig {
            // far apart, so that a one-sided score decides within a few pairs: with every pair
            // won the GSPRT gains ln(E(elo1) / E(elo0)) a pair, 0.25 here (0.03 for 0 vs 10)
            elo0: 0.0,
            elo1: 100.0,
            alpha: 0.05,
            beta: 0.05,
            model: skillcal::rating::EloScale::Logistic,
        }),
        ..Default::default()
    }
}

fn run_and_check(cfg: &MatchConfig, name: &str, decision: &str) {
    let dir = temp_dir(name);
    let s = run_match(cfg, &dir, &RunOptions::default()).unwrap();
    let t = s.sprt.clone().expect("the summary carries the test");
    assert_eq!(t.decision, decision, "{:?}", s.lines());
    match decision {
        "H1 accepted" => assert!(t.llr >= t.upper_bound),
        _ => assert!(t.llr <= t.lower_bound),
    }
    assert!(
        s.done < s.planned / 4,
        "stopped late: {} of {}",
        s.done,
        s.planned
    );
    // every finished game is kept, in-flight ones included
    let rows = read_games_csv(&dir.join("games.csv")).unwrap();
    assert_eq!(rows.len(), s.done);
    assert!(rows.len() as u64 >= 2 * t.pentanomial.iter().sum::<u64>());
    check_run_dir(&dir);
    // decided: a rerun plays nothing and reports the same test
    let again = run_match(cfg, &dir, &RunOptions::default()).unwrap();
    assert_eq!(again.played, 0);
    assert_eq!(again.sprt.unwrap().pentanomial, t.pentanomial);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_accepts_h1_for_the_stronger_engine_and_stops() {
    run_and_check(&config("", ":Skill Level=0"), "sprt-h1", "H1 accepted");
}

#[test]
fn sprt_accepts_h0_for_the_weaker_engine_and_stops() {
    run_and_check(&config(":Skill Level=0", ""), "sprt-h0", "H0 accepted");
}

#[test]
fn sprt_needs_two_engines_and_ordered_bounds() {
    let mut cfg = config("", ":Skill Level=0");
    cfg.engines
        .push(EngineConfig::from_spec(&format!("{STOCKFISH}:Skill Level=1")).unwrap());
    let err = format!("{:#}", cfg.validate().unwrap_err());
    assert!(err.contains("sprt") && err.contains("3 engines"), "{err}");
    let mut cfg = config("", ":Skill Level=0");
    cfg.sprt.as_mut().unwrap().elo1 = -5.0;
    let err = format!("{:#}", cfg.validate().unwrap_err());
    assert!(err.contains("elo0 must be below elo1"), "{err}");
}
