//! Numbers that parse but cannot work are config errors naming the file and the key: NaN and
//! infinite Elo values, a budget or a first batch that plays no game, a gap no opponent is
//! within, a target grid of 200,001 rows. Each was accepted: a NaN anchor rated every member
//! NaN and exited 0, `budget = 0` and `initial = []` played nothing and exited 0.

use std::path::Path;

use skillcal::arena::MatchConfig;
use skillcal::calibrate::config::CalibrationConfig;
use skillcal::calibrate::pool::PoolRunConfig;

use crate::support::arena::skillcal_stderr as skillcal;
use crate::support::arena::temp_dir;
use crate::support::calibrate::config_text;

mod shapes;

#[test]
fn nonsense_numbers_are_named_by_their_key() {
    let base = config_text(400, 50.0, "linear");
    let cases = [
        ("elo = 1320", "elo = nan", "key `pool.member[0].elo`"),
        ("elo = 1468", "elo = inf", "key `pool.member[1].elo`"),
        ("from = 1000,", "from = nan,", "key `targets`"),
        ("to = 2500,", "to = inf,", "key `targets`"),
        ("step = 100", "step = 0.001", "targets; at most 1000"),
        (
            "budget = 400",
            "budget = 400\nprecision_extrapolated = nan",
            "key `precision_extrapolated`",
        ),
        ("precision = 50", "precision = inf", "key `precision`"),
        (
            "batch_settings = 6",
            "batch_settings = 6\nguess = [nan, 2000]",
            "key `plan.guess`",
        ),
        (
            "budget = 400",
            "budget = 0",
            "key `budget`: 0 plays no game",
        ),
        (
            "budget = 400",
            "budget = 1",
            "key `budget`: 1 plays no game",
        ),
        (
            "batch_settings = 6",
            "batch_settings = 6\ninitial = []",
            "key `plan.initial`",
        ),
        (
            "batch_settings = 6",
            "batch_settings = 6\ninitial = [0.5, 0.501]",
            "key `plan.initial`",
        ),
        (
            "batch_settings = 6",
            "batch_settings = 6\nmax_gap = 0",
            "key `plan.max_gap`",
        ),
        (
            "batch_settings = 6",
            "batch_settings = 6\nmax_gap = -100",
            "key `plan.max_gap`",
        ),
        (
            "scale = \"log\"",
            "scale = \"log\"\noffset = nan",
            "key `path[0] (LimitNodes).offset`",
        ),
    ];
    for (from, to, expect) in cases {
        let text = base.replacen(from, to, 1);
        assert_ne!(text, base, "{to}: the replacement missed");
        let e = CalibrationConfig::parse(&text, "configs/x.toml")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("configs/x.toml: ") && e.contains(expect),
            "{to}: {e}"
        );
    }
    // a list of targets is capped too
    let many: Vec<String> = (0..1001).map(|i| (1000 + i).to_string()).collect();
    let text = base.replace(
        "targets = { from = 1000, to = 2500, step = 100 }",
        &format!("targets = [{}]", many.join(", ")),
    );
    let e = CalibrationConfig::parse(&text, "x.toml")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("key `targets`: 1001 targets; at most 1000"),
        "{e}"
    );
}

/// The pool run shares the members' checks, and its budget is checked as the calibration's.
#[test]
fn the_pool_run_and_the_budget_flag_refuse_a_budget_that_plays_nothing() {
    let dir = temp_dir("config-values");
    let root = env!("CARGO_MANIFEST_DIR");
    let pool = std::fs::read_to_string(Path::new(root).join("configs/pool.toml")).unwrap();
    for (from, to, expect) in [
        ("elo = 1320", "elo = nan", "key `pool.member[7].elo`"),
        ("budget = ", "budget = 1 #", "key `budget`: 1 plays no game"),
    ] {
        let text = pool.replacen(from, to, 1);
        assert_ne!(text, pool, "{to}: the replacement missed");
        let path = dir.join("pool.toml");
        std::fs::write(&path, text).unwrap();
        let e = PoolRunConfig::load(&path).unwrap_err().to_string();
        assert!(e.contains("pool.toml: ") && e.contains(expect), "{to}: {e}");
    }
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let blend = format!("{root}/configs/families/blend.toml");
    let pool_cfg = format!("{root}/configs/pool.toml");
    for args in [
        ["calibrate", blend.as_str(), "--budget", "0", "--out", o],
        ["calibrate", blend.as_str(), "--budget", "1", "--out", o],
        ["pool", pool_cfg.as_str(), "--budget", "0", "--out", o],
        ["pool", pool_cfg.as_str(), "--budget", "1", "--out", o],
    ] {
        let (ok, stderr) = skillcal(&args);
        assert!(!ok, "{args:?}");
        assert!(stderr.contains("--budget: "), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?}: a folder was made");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The config checks refuse nothing shipped: every config under configs/ loads, and every
/// committed run's `calibrate.toml` (read again on resume and refit) reads and passes them.
#[test]
fn every_shipped_config_and_committed_run_config_passes_the_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tomls = |dir: &Path| -> Vec<std::path::PathBuf> {
        let mut v: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        v.sort();
        v
    };
    let mut calibrations = 0;
    for path in tomls(&root.join("configs"))
        .into_iter()
        .chain(tomls(&root.join("configs/families")))
    {
        let text = std::fs::read_to_string(&path).unwrap();
        let shown = path.display();
        if text.contains("\n[[path]]") {
            CalibrationConfig::load(&path).unwrap_or_else(|e| panic!("{shown}: {e}"));
            calibrations += 1;
        } else if text.contains("\n[measure]") {
            PoolRunConfig::load(&path).unwrap_or_else(|e| panic!("{shown}: {e}"));
        } else {
            MatchConfig::from_file(&path).unwrap_or_else(|e| panic!("{shown}: {e:#}"));
        }
    }
    assert!(calibrations >= 10, "{calibrations} calibration configs");
    let mut runs: Vec<_> = std::fs::read_dir(root.join("results"))
        .unwrap()
        .chain(std::fs::read_dir(root.join("results/families")).unwrap())
        .map(|e| e.unwrap().path().join("calibrate.toml"))
        .filter(|p| p.exists())
        .collect();
    runs.sort();
    assert!(runs.len() >= 10, "{runs:?}");
    for path in runs {
        let text = std::fs::read_to_string(&path).unwrap();
        let shown = path.display().to_string();
        let mut cfg: CalibrationConfig =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{shown}: {e}"));
        // a run on a measured pool saved the pool it loaded: checked as the members they are
        cfg.pool.file = None;
        cfg.pool.hold = false;
        cfg.validate(&shown).unwrap_or_else(|e| panic!("{e}"));
    }
}
