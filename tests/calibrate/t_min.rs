//! `plan.t_min`: a path's domain extended below t = 0 on a resumed run.

use skillcal::calibrate::{self, config::CalibrationConfig, Options};
use skillcal::results::RangeFlag;

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("skillcal-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The synthetic config with the path starting at 181 nodes (true Elo 1150 at t = 0), so the
/// lowest target, 1000, lies beyond the path's floor on [0, 1].
fn config(budget: usize, t_min: Option<f64>) -> CalibrationConfig {
    let mut text = crate::support::calibrate::config_text(budget, 50.0, "linear")
        .replace("from = 32", "from = 181");
    if let Some(t) = t_min {
        text = text.replace("[plan]\n", &format!("[plan]\nt_min = {t}\n"));
    }
    CalibrationConfig::parse(&text, "t_min.toml").unwrap()
}

const QUIET: Options = Options {
    fit_only: false,
    quiet: true,
};

#[test]
fn resume_with_t_min_brings_a_floor_target_into_range() {
    let dir = tmpdir("t-min");
    let runner = crate::support::calibrate::sim_runner([0.0; 9]);
    let a = calibrate::calibrate(&config(1500, None), &dir, &runner, &QUIET).unwrap();
    let row = |out: &calibrate::Outcome| out.targets.iter().find(|r| r.target == 1000.0).cloned();
    assert_eq!(row(&a).unwrap().range, RangeFlag::Floor);
    let games = skillcal::calibrate::run::all_games(&dir).unwrap();
    assert!(!games
        .iter()
        .any(|g| g.white.contains("_t-") || g.black.contains("_t-")));

    // 181 * 362^-0.3 = 31 nodes at t = -0.3: true Elo 794, below the target
    let b = calibrate::calibrate(&config(3000, Some(-0.3)), &dir, &runner, &QUIET).unwrap();
    assert!(b.games > a.games);
    let r = row(&b).unwrap();
    assert_eq!(r.range, RangeFlag::Ok, "{r:?}");
    assert!(r.t < 0.0 && r.t > -0.3, "{r:?}");
    // the true curve reaches 1000 at 2^(200 / 140) * 32 = 86 nodes
    assert!(r.knobs.starts_with("LimitNodes="), "{}", r.knobs);
    let nodes: f64 = r.knobs["LimitNodes=".len()..].parse().unwrap();
    assert!((60.0..=120.0).contains(&nodes), "{nodes}");
    let games = skillcal::calibrate::run::all_games(&dir).unwrap();
    assert!(games.iter().any(|g| g.white == "skillcal_t-0.3000"));
    let plan = std::fs::read_to_string(dir.join("plan.csv")).unwrap();
    assert!(plan.contains("t_min -0.300"), "{plan}");
    // the curve and the table span the extended domain
    let curve = std::fs::read_to_string(dir.join("fit_curve.csv")).unwrap();
    let first = curve.lines().nth(1).unwrap();
    assert!(first.starts_with("-0.3,"), "{first}");
    let table = std::fs::read_to_string(dir.join("uci_elo_table.csv")).unwrap();
    assert!(table.contains("# t_min: -0.3 "), "{table}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_accepts_a_new_t_min_but_not_a_new_path() {
    let dir = tmpdir("t-min-check");
    let runner = crate::support::calibrate::sim_runner([0.0; 9]);
    let fit_only = Options {
        fit_only: true,
        quiet: true,
    };
    // a few games: a run without any takes whatever config it is rerun with
    calibrate::calibrate(&config(40, None), &dir, &runner, &QUIET).unwrap();
    calibrate::calibrate(&config(40, Some(-0.2)), &dir, &runner, &fit_only).unwrap();
    let saved = std::fs::read_to_string(dir.join("calibrate.toml")).unwrap();
    assert!(saved.contains("t_min = -0.2"), "{saved}");
    let mut other = config(40, Some(-0.2));
    other.path[0].from = 16.0;
    let err = calibrate::calibrate(&other, &dir, &runner, &fit_only).unwrap_err();
    assert!(
        err.to_string().contains("different config (path differ"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn t_min_outside_its_domain_is_named() {
    for bad in ["0.1", "-1", "-1.5", "nan"] {
        let text = crate::support::calibrate::config_text(200, 50.0, "linear")
            .replace("[plan]\n", &format!("[plan]\nt_min = {bad}\n"));
        let err = CalibrationConfig::parse(&text, "x.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("plan.t_min") && err.contains("outside (-1, 0]"),
            "{err}"
        );
    }
    let text = crate::support::calibrate::config_text(200, 50.0, "linear")
        .replace("[plan]\n", "[plan]\nt_min = -0.25\ninitial = [-0.3, 0.5]\n");
    let err = CalibrationConfig::parse(&text, "x.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("plan.initial"), "{err}");
}
