//! The whole calibration loop on simulated games: planning, fitting, the table, the report.

use skillcal::calibrate::{self, config::CalibrationConfig, Options};
use skillcal::report;

mod verify;

use verify::verify_setup;

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("skillcal-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn adaptive_calibration_reaches_precision_and_table_is_right() {
    let cfg = crate::support::calibrate::config(6000, 50.0, "linear");
    let dir = tmpdir("sim");
    let runner = crate::support::calibrate::sim_runner([0.0; 9]);
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
    assert!(out.games <= 6000);
    assert!(
        out.all_met,
        "precision not met within budget: {} games",
        out.games
    );
    // every in-range target: the setting's true Elo is within the stated interval (allow 1 miss)
    let mut misses = 0;
    for r in &out.targets {
        if r.range != skillcal::results::RangeFlag::Ok {
            continue;
        }
        let nodes: f64 = r.knobs.trim_start_matches("LimitNodes=").parse().unwrap();
        let true_elo = crate::support::calibrate::true_elo_nodes(nodes);
        // node rounding moves the true Elo by < 1
        if (true_elo - r.target).abs() > r.half_width + 2.0 {
            misses += 1;
        }
    }
    assert!(misses <= 1, "{misses} targets missed");
    // 1000 lies below the lowest anchor 1320: flagged
    assert!(out
        .targets
        .iter()
        .any(|r| r.target == 1000.0 && r.extrapolated));
    // table in the engine's format
    let table = std::fs::read_to_string(dir.join("uci_elo_table.csv")).unwrap();
    let header = table.lines().find(|l| !l.starts_with('#')).unwrap();
    assert_eq!(
        header,
        "elo,LimitNodes,elo_lower,elo_upper,LimitNodes_lower,LimitNodes_upper"
    );
    let rows: Vec<Vec<f64>> = table
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 16);
    assert!(
        rows.windows(2).all(|w| w[0][1] <= w[1][1]),
        "nodes not monotone"
    );
    // report
    let html = report::generate(&dir).unwrap();
    let text = std::fs::read_to_string(&html).unwrap();
    assert!(text.contains("<svg") && text.contains("UCI_Elo table"));
    for f in [
        "report.md",
        "elo_vs_LimitNodes.svg",
        "draw_rate.svg",
        "game_length.svg",
        "terminations.svg",
        "fit_points.csv",
        "fit_curve.csv",
        "pool.csv",
        "games.csv",
    ] {
        assert!(dir.join(f).exists(), "{f} missing");
    }
    if std::env::var_os("SKILLCAL_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        eprintln!("kept {}", dir.display());
    }
}

#[test]
fn resume_replays_nothing_and_continues() {
    let cfg = crate::support::calibrate::config(400, 50.0, "linear");
    let dir = tmpdir("resume");
    let runner = crate::support::calibrate::sim_runner([0.0; 9]);
    let quiet = Options {
        fit_only: false,
        quiet: true,
    };
    let a = calibrate::calibrate(&cfg, &dir, &runner, &quiet).unwrap();
    assert!(a.games <= 400 && a.games >= 300, "{}", a.games);
    // rerun with the same budget: nothing new, and no match is run again (the simulator
    // skips stored games, so the game count alone would not show a replay)
    let counting = crate::support::calibrate::Counting::new(&runner);
    let b = calibrate::calibrate(&cfg, &dir, &counting, &quiet).unwrap();
    assert_eq!(a.games, b.games);
    assert_eq!(counting.runs.get(), 0, "a finished match was run again");
    // a larger budget continues from the same games
    let cfg2 = crate::support::calibrate::config(800, 50.0, "linear");
    let c = calibrate::calibrate(&cfg2, &dir, &counting, &quiet).unwrap();
    assert!(c.games > a.games && c.games <= 800);
    assert!(counting.runs.get() > 0, "the count sees the matches played");
    // a different path is refused
    let other = CalibrationConfig::parse(
        &crate::support::calibrate::config_text(800, 50.0, "linear")
            .replace("to = 65536", "to = 100000"),
        "x.toml",
    )
    .unwrap();
    let err = calibrate::calibrate(&other, &dir, &runner, &quiet).unwrap_err();
    assert!(
        err.to_string().contains("different config (path differ"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn config_errors_name_file_and_key() {
    let bad = crate::support::calibrate::config_text(100, 50.0, "linear")
        .replace("scale = \"log\"", "scale = \"logx\"");
    let e = CalibrationConfig::parse(&bad, "configs/x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("configs/x.toml") && e.contains("scale"), "{e}");
    let bad = crate::support::calibrate::config_text(100, 50.0, "linear")
        .replace("games_per_pairing = 20", "games_per_pairing = 3");
    let e = CalibrationConfig::parse(&bad, "configs/x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("plan.games_per_pairing"), "{e}");
    let bad = crate::support::calibrate::config_text(100, 50.0, "linear").replace("seed = 7\n", "");
    let e = CalibrationConfig::parse(&bad, "configs/x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("seed"), "{e}");
    let bad = crate::support::calibrate::config_text(100, 50.0, "linear")
        .replace("from = 32", "from = 0");
    let e = CalibrationConfig::parse(&bad, "configs/x.toml")
        .unwrap_err()
        .to_string();
    // LimitNodes 0 is outside the knob's range before it is a log scale's impossible end
    assert!(
        e.contains("`path[0] (LimitNodes).from`: 0 is outside"),
        "{e}"
    );
}

#[test]
fn shipped_configs_parse() {
    // smoke's anchors are the Maia members (deterministic, so it replays); the others' are
    // Stockfish's Skill Levels
    for (name, lowest) in [("smoke", 1292.0), ("default", 1320.0), ("full", 1320.0)] {
        let path = std::path::PathBuf::from(format!("configs/{name}.toml"));
        let cfg = CalibrationConfig::load(&path).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert_eq!(cfg.name, name);
        assert!(cfg.openings.file.exists(), "{name}: opening book missing");
        assert_eq!(cfg.lowest_anchor(), lowest, "{name}");
    }
}

#[test]
fn residuals_flag_a_wrong_curve_form() {
    use skillcal::calibrate::play::EngineSpec;
    use skillcal::calibrate::play::SimRunner;
    // strongly concave in log2(nodes): diminishing returns
    let truth = |e: &EngineSpec| -> f64 {
        if let Some(n) = e.option("LimitNodes") {
            let x = (n.parse::<f64>().unwrap() / 32.0).log2() / 11.0;
            return 900.0 + 2600.0 * x - 1300.0 * x * x;
        }
        let i: usize = e.option("Skill Level").unwrap().parse().unwrap();
        crate::support::calibrate::ANCHORS[i]
    };
    let mut p = Vec::new();
    for model in ["linear", "quadratic"] {
        let mut cfg = crate::support::calibrate::config(4000, 20.0, model);
        cfg.plan.min_games_per_target = 200;
        let dir = tmpdir(&format!("form-{model}"));
        let runner = SimRunner {
            truth: Box::new(truth),
            draw_rate: 0.3,
            seconds: None,
        };
        let quiet = Options {
            fit_only: false,
            quiet: true,
        };
        calibrate::calibrate(&cfg, &dir, &runner, &quiet).unwrap();
        let s = skillcal::results::read_summary(&dir).unwrap();
        p.push((s.residual_p, s.residual_points));
        let _ = std::fs::remove_dir_all(&dir);
    }
    eprintln!("residual p (linear, quadratic): {p:?}");
    assert!(p[0].0 < 0.01, "linear form not rejected: {p:?}");
    assert!(p[1].0 > 0.01, "quadratic form rejected: {p:?}");
}

#[test]
fn unanchored_member_is_chained_by_the_pool_ladder() {
    use skillcal::calibrate::play::EngineSpec;
    use skillcal::calibrate::play::SimRunner;
    // an unanchored weak member (true 1000) listed first, next to the lowest anchor
    let text = crate::support::calibrate::config_text(1500, 50.0, "linear")
        .replace("batch_settings = 6", "batch_settings = 6\npool_games = 60")
        .replace(
            "[[pool.member]]\nname = \"sf0\"",
            "[[pool.member]]\nname = \"weak\"\noptions = { \"Skill Level\" = -5 }\n\n[[pool.member]]\nname = \"sf0\"",
        );
    let cfg = CalibrationConfig::parse(&text, "test.toml").unwrap();
    assert_eq!(cfg.pool.members[0].elo, None);
    let runner = SimRunner {
        truth: Box::new(|e: &EngineSpec| {
            if let Some(n) = e.option("LimitNodes") {
                return crate::support::calibrate::true_elo_nodes(n.parse().unwrap());
            }
            match e.option("Skill Level").unwrap().parse::<i64>().unwrap() {
                -5 => 1000.0,
                i => crate::support::calibrate::ANCHORS[i as usize],
            }
        }),
        draw_rate: 0.3,
        seconds: None,
    };
    let dir = tmpdir("ladder");
    let quiet = Options {
        fit_only: false,
        quiet: true,
    };
    let out = calibrate::calibrate(&cfg, &dir, &runner, &quiet).unwrap();
    assert!(out.games <= 1500);
    let pool: Vec<skillcal::results::PoolRow> =
        skillcal::results::read_csv(&dir.join("pool.csv")).unwrap();
    let weak = &pool[0];
    assert!(weak.anchor.is_none() && weak.games >= 60);
    assert!(weak.lower < 1000.0 && 1000.0 < weak.upper, "{weak:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn targets_beyond_the_ceiling_do_not_drive_the_plan() {
    // the true curve tops out at 2340 (65,536 nodes): targets 2400 and 2500 are unreachable
    let cfg = crate::support::calibrate::config(6000, 50.0, "linear");
    let dir = tmpdir("sim-ceiling");
    let runner = crate::support::calibrate::sim_runner([0.0; 9]);
    let opts = Options {
        fit_only: false,
        quiet: true,
    };
    let out = calibrate::calibrate(&cfg, &dir, &runner, &opts).unwrap();
    assert!(out.all_met);
    assert!(out.games < 6000, "the budget was spent: {}", out.games);
    let beyond: Vec<f64> = out
        .targets
        .iter()
        .filter(|r| r.range == skillcal::results::RangeFlag::Ceiling)
        .map(|r| r.target)
        .collect();
    assert_eq!(beyond, [2400.0, 2500.0]);
    // An unreachable target drives a batch only while the curve's band at the ceiling still
    // holds it (the first batches here: 2339 ± 109 after the first), never the run's budget.
    let plan = std::fs::read_to_string(dir.join("plan.csv")).unwrap();
    let (mut rows, mut last) = (0, 0);
    for line in plan.lines().skip(1) {
        if beyond
            .iter()
            .any(|t| line.contains(&format!("target {t:.0}:")))
        {
            rows += 1;
            last = line.split(',').next().unwrap().parse::<u32>().unwrap();
        }
    }
    assert!(rows <= 3 && last <= 3, "{plan}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn settings_below_the_anchors_chain_upward_past_weak_unanchored_members() {
    use skillcal::calibrate::play::EngineSpec;
    use skillcal::calibrate::play::SimRunner;
    // An unanchored member far below every target (true 300) must not turn the chain of the
    // extrapolated targets downward: the scale they need lies above, at the anchors.
    let text = crate::support::calibrate::config_text(1500, 50.0, "linear")
        .replace("from = 1000, to", "from = 900, to")
        // a goal the extrapolated targets miss, so that they drive batches
        .replace("precision = 50", "precision = 50\nprecision_extrapolated = 40")
        // the pool ladder rates the weak member, so the planner sees it far below
        .replace("batch_settings = 6", "batch_settings = 6\npool_games = 40")
        .replace(
            "[[pool.member]]\nname = \"sf0\"",
            "[[pool.member]]\nname = \"weak\"\noptions = { \"Skill Level\" = -5 }\n\n[[pool.member]]\nname = \"sf0\"",
        );
    let cfg = CalibrationConfig::parse(&text, "test.toml").unwrap();
    let runner = SimRunner {
        truth: Box::new(|e: &EngineSpec| {
            if let Some(n) = e.option("LimitNodes") {
                return crate::support::calibrate::true_elo_nodes(n.parse().unwrap());
            }
            match e.option("Skill Level").unwrap().parse::<i64>().unwrap() {
                -5 => 300.0,
                i => crate::support::calibrate::ANCHORS[i as usize],
            }
        }),
        draw_rate: 0.3,
        seconds: None,
    };
    let dir = tmpdir("chain-up");
    let quiet = Options {
        fit_only: false,
        quiet: true,
    };
    calibrate::calibrate(&cfg, &dir, &runner, &quiet).unwrap();
    let plan = std::fs::read_to_string(dir.join("plan.csv")).unwrap();
    let t_of = |player: &str| -> f64 { player.trim_start_matches("skillcal_t").parse().unwrap() };
    let mut chained = 0;
    for line in plan.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        let (player, opponents, reason) = (cols[2], cols[5], cols[7]);
        let extrapolated = ["target 900", "target 1000", "target 1100"]
            .iter()
            .any(|t| reason.contains(t));
        if !extrapolated || !player.starts_with("skillcal_t") {
            continue;
        }
        for o in opponents.split(' ').filter(|o| o.starts_with("skillcal_t")) {
            chained += 1;
            assert!(t_of(o) > t_of(player), "chained downward: {line}");
        }
    }
    assert!(chained > 0, "no extrapolated setting was chained:\n{plan}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each run rebuilds its games.csv from its own matches, so a folder of another command's run,
/// or of games from elsewhere, was silently replaced (a match's 136 rows became a calibration's;
/// a pool's folder emptied). Each command now claims only a new folder or its own.
#[test]
fn a_run_refuses_a_folder_that_is_not_its_own() {
    let cfg = crate::support::calibrate::config(100, 50.0, "linear");
    let runner = crate::support::calibrate::sim_runner([0.0; 9]);
    let quiet = Options {
        fit_only: false,
        quiet: true,
    };
    let dir = tmpdir("claim");
    calibrate::calibrate(&cfg, &dir.join("cal"), &runner, &quiet).unwrap();
    let cal_games = std::fs::read_to_string(dir.join("cal/games.csv")).unwrap();
    let table = dir.join("table.csv");
    std::fs::write(&table, "elo,LimitNodes\n1000,100\n2500,60000\n").unwrap();
    // a verification into the calibration's folder
    let err = calibrate::verify::verify(&cfg, &table, &dir.join("cal"), &[1500.0], 20, &runner)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("holds a calibration run (calibrate.toml,"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("cal/games.csv")).unwrap(),
        cal_games
    );
    // a calibration into a match's folder, and into a folder of games from elsewhere
    std::fs::create_dir_all(dir.join("m")).unwrap();
    std::fs::write(dir.join("m/match.toml"), "rounds = 1\n").unwrap();
    let err = calibrate::calibrate(&cfg, &dir.join("m"), &runner, &quiet)
        .unwrap_err()
        .to_string();
    assert!(err.contains("holds a match (match.toml"), "{err}");
    std::fs::create_dir_all(dir.join("other")).unwrap();
    std::fs::write(dir.join("other/games.csv"), &cal_games).unwrap();
    let err = calibrate::calibrate(&cfg, &dir.join("other"), &runner, &quiet)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("holds games.csv but no calibrate.toml"),
        "{err}"
    );
    assert!(!dir.join("other/calibrate.toml").exists());
    // its own folder resumes; a new one beside files that are not games is taken
    calibrate::calibrate(&cfg, &dir.join("cal"), &runner, &quiet).unwrap();
    std::fs::create_dir_all(dir.join("notes")).unwrap();
    std::fs::write(dir.join("notes/README"), "mine\n").unwrap();
    let (vdir, _, levels) = verify_setup("claim-levels", |_| None);
    calibrate::verify::verify(&cfg, &table, &dir.join("notes"), &[1500.0], 20, &levels).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&vdir);
}
