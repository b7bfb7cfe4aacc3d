//! `plan.per_second`: a setting's opponents ranked by the variance their games remove per second
//! of play, on simulated games whose recorded times differ by opponent.

use skillcal::calibrate::play::EngineSpec;
use skillcal::calibrate::{self, Options};
use skillcal::results::{read_csv, GameRow};

/// Seconds a game records: 12 against the slow members (sf1 and sf3, as Fairy-Stockfish's weak
/// levels are against Stockfish's), 0.5 for anyone else.
fn cost(e: &EngineSpec) -> f64 {
    match e.option("Skill Level") {
        Some("1") | Some("3") => 12.0,
        _ => 0.5,
    }
}

/// (game seconds, games against a slow member, every target met) of one simulated run.
fn run(per_second: bool) -> (f64, usize, bool) {
    let mut cfg = crate::support::calibrate::config(6000, 50.0, "linear");
    cfg.plan.per_second = per_second;
    let dir = std::env::temp_dir().join(format!(
        "skillcal-test-per-second-{per_second}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let mut runner = crate::support::calibrate::sim_runner([0.0; 9]);
    runner.seconds = Some(Box::new(|a: &EngineSpec, b: &EngineSpec| cost(a) + cost(b)));
    let out = calibrate::calibrate(
        &cfg,
        &dir,
        &runner,
        &Options {
            fit_only: false,
            quiet: true,
        },
    )
    .unwrap();
    let games: Vec<GameRow> = read_csv(&dir.join("games.csv")).unwrap();
    let seconds = games.iter().map(|g| g.seconds).sum();
    let slow = games
        .iter()
        .filter(|g| {
            [&g.white, &g.black]
                .iter()
                .any(|n| *n == "sf1" || *n == "sf3")
        })
        .count();
    std::fs::remove_dir_all(&dir).ok();
    (seconds, slow, out.all_met)
}

#[test]
fn planning_per_second_avoids_slow_opponents_and_still_meets_the_goal() {
    let (by_game, slow_by_game, met_by_game) = run(false);
    let (by_second, slow_by_second, met_by_second) = run(true);
    assert!(met_by_game && met_by_second);
    assert!(
        slow_by_second * 2 <= slow_by_game,
        "games against slow members: {slow_by_second} per second, {slow_by_game} per game"
    );
    assert!(
        by_second < 0.8 * by_game,
        "game time: {by_second:.0} s per second, {by_game:.0} s per game"
    );
}
