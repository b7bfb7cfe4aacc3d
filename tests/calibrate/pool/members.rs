//! Members that come and go: a retired member keeps its games and rates no one; a new member
//! without games is named where the forecast stands.

use super::*;

/// A member dropped from the pool (`pool.retired`) keeps its games on disk but rates no one: the
/// pool refits without it, its games stay counted against the budget, and a calibration that
/// played it refits on the smaller pool leaving those games out, with a note saying how many.
#[test]
fn a_retired_member_keeps_its_games_and_rates_no_one() {
    use skillcal::calibrate::{self, config::CalibrationConfig, Options};

    let runner = nodes_runner();
    let dir = tmpdir("pool-retired");
    let opts = PoolOptions {
        fit_only: false,
        quiet: true,
    };
    let cfg: PoolRunConfig = toml::from_str(CONFIG).unwrap();
    let pool = dir.join("pool");
    let before = measure(&cfg, &pool, &runner, &opts).unwrap();
    let text = calibration_text(5, 400, (900, 1500), 4096);
    let cal_path = dir.join("cal.toml");
    std::fs::write(&cal_path, &text).unwrap();
    let cal = CalibrationConfig::load(&cal_path).unwrap();
    let quiet = Options {
        fit_only: false,
        quiet: true,
    };
    calibrate::calibrate(&cal, &dir.join("cal"), &runner, &quiet).unwrap();
    let against_low = calibrate::run::all_games(&dir.join("cal"))
        .unwrap()
        .iter()
        .filter(|g| g.white == "low" || g.black == "low")
        .count();
    assert!(against_low > 0, "the calibration never met `low`");
    let games_of_low = || {
        skillcal::rating::load_games(&[pool.join("games.csv")], &Default::default())
            .unwrap()
            .iter()
            .filter(|g| g.white == "low" || g.black == "low")
            .count()
    };
    let pool_games_of_low = games_of_low();
    assert!(pool_games_of_low > 0);

    // `low` leaves the pool: without `pool.retired` its games are an error that says what to do
    let mut gone = cfg.clone();
    gone.pool.members.retain(|m| m.name != "low");
    let fit_only = PoolOptions {
        fit_only: true,
        quiet: true,
    };
    let err = measure(&gone, &pool, &runner, &fit_only)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`low`") && err.contains("pool.retired"),
        "{err}"
    );
    gone.pool.retired = vec!["low".into()];
    gone.validate("pool.toml").unwrap();
    let after = measure(&gone, &pool, &runner, &fit_only).unwrap();
    assert_eq!(after.games + pool_games_of_low, before.games);
    let rows = read_pool_csv(&pool.join("pool.csv")).unwrap();
    assert_eq!(
        rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
        ["a0", "a1", "a2"]
    );
    let pairs = std::fs::read_to_string(pool.join("pool-pairs.csv")).unwrap();
    assert!(!pairs.contains("low"), "{pairs}");
    assert_eq!(games_of_low(), pool_games_of_low, "its games were dropped");
    let report = std::fs::read_to_string(pool.join("report.md")).unwrap();
    assert!(
        report.contains(&format!(
            "Retired members (`pool.retired`): `low`. Their {pool_games_of_low} games"
        )),
        "{report}"
    );
    // the budget counts the retired member's games: with exactly the games played, no more
    let mut spent = gone.clone();
    spent.budget = before.games;
    let counting = crate::support::calibrate::Counting::new(&runner);
    let more = PoolOptions {
        fit_only: false,
        quiet: true,
    };
    measure(&spent, &pool, &counting, &more).unwrap();
    assert_eq!(counting.runs.get(), 0, "played past a spent budget");

    // the calibration refits on the smaller pool and says what it left out
    let cal = CalibrationConfig::load(&cal_path).unwrap();
    assert_eq!(cal.pool.retired, ["low"]);
    let refit = Options {
        fit_only: true,
        quiet: true,
    };
    calibrate::calibrate(&cal, &dir.join("cal"), &runner, &refit).unwrap();
    let summary = std::fs::read_to_string(dir.join("cal").join("summary.toml")).unwrap();
    assert!(
        summary.contains(&format!("{against_low} games against `low`")),
        "{summary}"
    );

    // a name both retired and a member is refused by key
    let mut both = cfg.clone();
    both.pool.retired = vec!["a1".into()];
    let err = both.validate("pool.toml").unwrap_err().to_string();
    assert!(
        err.contains("pool.retired[0]") && err.contains("a1"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A member added to a measured pool has no rating until its games link it: the report says so
/// and names it instead of leaving the forecast out, and the next batch plays it.
#[test]
fn a_new_member_without_games_is_named_where_the_forecast_stands() {
    let t = truth();
    let runner = SimRunner {
        truth: Box::new(move |e| t.get(&e.name).copied().unwrap_or(1450.0)),
        draw_rate: 0.2,
        seconds: None,
    };
    let dir = tmpdir("pool-new-member");
    let mut cfg: PoolRunConfig = toml::from_str(CONFIG).unwrap();
    cfg.budget = 200;
    let opts = |fit_only| PoolOptions {
        fit_only,
        quiet: true,
    };
    measure(&cfg, &dir, &runner, &opts(false)).unwrap();
    let before = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(before.contains("Forecast: "), "{before}");
    let mut more: PoolRunConfig = toml::from_str(&format!(
        "{CONFIG}\n[[pool.member]]\nname = \"new\"\nguess = 1450\n"
    ))
    .unwrap();
    more.budget = 200;
    measure(&more, &dir, &runner, &opts(true)).unwrap();
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains("No forecast yet: `new` is not linked to the anchors by games")
            && !report.contains("Forecast: "),
        "{report}"
    );
    more.budget = 240;
    let out = measure(&more, &dir, &runner, &opts(false)).unwrap();
    assert!(out.fit.elo[4].is_some(), "the new member was not played");
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(!report.contains("No forecast yet"), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}
