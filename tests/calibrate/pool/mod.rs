//! The pool measurement (`skillcal pool`) on simulated games: it connects every member, stops at
//! its precision goal, rates each member within its interval of the truth, resumes without
//! replaying, and rejects a member without anchor or guess by key.

use std::collections::HashMap;

use skillcal::calibrate::play::SimRunner;
use skillcal::calibrate::pool::{measure, read_pool_csv, PoolOptions, PoolRunConfig};

mod files;
mod members;
mod planner;

const CONFIG: &str = r#"
seed = 7
budget = 20000
precision = 60
precision_chained = 90

[measure]
games_per_pairing = 20
max_gap = 300
batch_matches = 4

[pool]
command = "/usr/games/stockfish"
anchor_sd = 50

[[pool.member]]
name = "low"
guess = 900
command = "/usr/games/fairy-stockfish"

[[pool.member]]
name = "a0"
elo = 1320

[[pool.member]]
name = "a1"
elo = 1600

[[pool.member]]
name = "a2"
elo = 1900

[openings]
file = "configs/books/2moves_v1.epd"
"#;

fn truth() -> HashMap<String, f64> {
    // the ladder's true spacing differs from the anchor table, as it does at fixed nodes
    [
        ("low", 1080.0),
        ("a0", 1340.0),
        ("a1", 1580.0),
        ("a2", 1900.0),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("skillcal-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The simulated strengths of the calibration tests: the pool's truth, and the subject's
/// LimitNodes n at 800 + 140 log2(n / 32).
fn nodes_runner() -> SimRunner {
    let t = truth();
    SimRunner {
        truth: Box::new(move |e| match e.option("LimitNodes") {
            Some(n) => 800.0 + 140.0 * (n.parse::<f64>().unwrap() / 32.0).log2(),
            None => t[&e.name],
        }),
        draw_rate: 0.2,
        seconds: None,
    }
}

/// A calibration along LimitNodes 32..`to_nodes` on the measured pool in the folder `pool`
/// beside its config.
fn calibration_text(seed: u64, budget: usize, targets: (u32, u32), to_nodes: u32) -> String {
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/books/2moves_v1.epd");
    format!(
        r#"
seed = {seed}
budget = {budget}
precision = 60
targets = {{ from = {}, to = {}, step = 100 }}

[subject]
command = "builtin"
limits = {{ tc = "60+1" }}

[[path]]
knob = "LimitNodes"
from = 32
to = {to_nodes}
scale = "log"

[plan]
games_per_pairing = 20

[pool]
file = "pool"

[openings]
file = "{book}"
"#,
        targets.0, targets.1
    )
}

#[test]
fn pool_measurement_meets_goal_and_rates_the_truth() {
    let cfg: PoolRunConfig = toml::from_str(CONFIG).unwrap();
    cfg.validate("test").unwrap();
    let t = truth();
    let runner = SimRunner {
        truth: Box::new(move |e| t[&e.name]),
        draw_rate: 0.2,
        seconds: None,
    };
    let dir = tmpdir("pool");
    let opts = PoolOptions {
        fit_only: false,
        quiet: true,
    };
    let out = measure(&cfg, &dir, &runner, &opts).unwrap();
    assert!(out.all_met, "goal not met in {} games", out.games);
    assert!(out.games < cfg.budget);
    let rows = read_pool_csv(&dir.join("pool.csv")).unwrap();
    assert_eq!(rows.len(), 4);
    let truth = truth();
    // the scale's location is the anchors' mean: compare places relative to it
    let mean_fit: f64 = rows.iter().skip(1).map(|r| r.elo.unwrap()).sum::<f64>() / 3.0;
    let mean_true: f64 = ["a0", "a1", "a2"].iter().map(|n| truth[*n]).sum::<f64>() / 3.0;
    for r in &rows {
        assert!(r.met, "{} not at its goal", r.name);
        let hw = r.upper.unwrap() - r.elo.unwrap();
        let goal = if r.anchor_elo.is_some() { 60.0 } else { 90.0 };
        assert!(hw <= goal + 1e-9, "{}: ±{hw}", r.name);
        let err = (r.elo.unwrap() - mean_fit) - (truth[&r.name] - mean_true);
        assert!(
            err.abs() <= 1.3 * hw,
            "{}: off by {err:.0} (±{hw:.0})",
            r.name
        );
        assert!(r.games > 0);
    }
    for f in [
        "games.csv",
        "pool-covariance.csv",
        "pool-pairs.csv",
        "plan.csv",
        "report.md",
    ] {
        assert!(dir.join(f).exists(), "{f} missing");
    }
    // the simulated pool is transitive: no member's pairs stray far from its rating
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let section = report
        .split("## Consistency")
        .nth(1)
        .expect("consistency section");
    let sums: Vec<(usize, f64)> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| member") && !l.contains("---"))
        .map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            (c[2].parse().unwrap(), c[3].parse().unwrap())
        })
        .collect();
    assert_eq!(sums.len(), 4, "{section}");
    for (pairs, sum) in sums {
        assert!(pairs >= 1 && sum < 4.0 * pairs as f64 + 6.0, "{section}");
    }
    // a rerun resumes: nothing new is played, and no match is run again (the simulator skips
    // stored games, so the game count alone would not show a replay)
    let counting = crate::support::calibrate::Counting::new(&runner);
    let again = measure(&cfg, &dir, &counting, &opts).unwrap();
    assert_eq!(again.games, out.games);
    assert_eq!(counting.runs.get(), 0, "a finished match was run again");
    // the games' conditions stay: a rerun with another book order or other rules would mix
    // two pools' games under the same names, and is refused naming what changed
    let mut other = cfg.clone();
    other.openings.order = "sequential".into();
    let err = format!("{}", measure(&other, &dir, &runner, &opts).unwrap_err());
    assert!(err.contains("(openings differ"), "{err}");
    let mut other = cfg.clone();
    other.adjudication = Some(toml::from_str("max_plies = 200").unwrap());
    let err = format!("{}", measure(&other, &dir, &runner, &opts).unwrap_err());
    assert!(err.contains("(adjudication differ"), "{err}");
    // `skillcal report` on the pool folder rewrites the pool's own report; it wrote a
    // calibration report over it, reading pool.csv as a calibration's (anchors "none")
    std::fs::remove_file(dir.join("report.md")).unwrap();
    let (ok, stderr) = crate::support::arena::skillcal_stderr(&["report", dir.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.starts_with("# Reference pool") && report.contains("## Steps between neighbours"),
        "{report}"
    );
    // the pool's page through the one document model: its HTML too, the same sections
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(
        html.contains("<h1>Reference pool") && html.contains("<h2>Consistency</h2>"),
        "{html}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn member_without_anchor_or_guess_is_named() {
    let text = CONFIG.replace("guess = 900\n", "");
    let cfg: PoolRunConfig = toml::from_str(&text).unwrap();
    let err = cfg.validate("pool.toml").unwrap_err().to_string();
    assert!(err.contains("pool.member[0].guess"), "{err}");
    assert!(err.contains("low"), "{err}");
}

/// A calibration on a measured pool (`[pool] file = DIR`): the members and their games come from
/// the pool run; with no games of its own the fit reproduces the pool's ratings; a calibration
/// plays only subject games and still rates the chained member below the anchors.
#[test]
fn calibration_loads_the_measured_pool() {
    use skillcal::calibrate::run::{players, pool_evidence};
    use skillcal::calibrate::{self, config::CalibrationConfig, config::ModelKind, fit, Options};

    let cfg: PoolRunConfig = toml::from_str(CONFIG).unwrap();
    let runner = nodes_runner();
    let dir = tmpdir("pool-file");
    let opts = PoolOptions {
        fit_only: false,
        quiet: true,
    };
    measure(&cfg, &dir.join("pool"), &runner, &opts).unwrap();
    // the committed pool's human scale beside it: the table gives its rows on Lichess's scales
    let scales =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/pool/human-scale.csv");
    std::fs::copy(scales, dir.join("pool").join("human-scale.csv")).unwrap();
    let text = calibration_text(3, 4000, (1000, 1800), 65536);
    let cfg_path = dir.join("cal.toml");
    std::fs::write(&cfg_path, &text).unwrap();
    let cal = CalibrationConfig::load(&cfg_path).unwrap();
    assert_eq!(cal.pool.members.len(), 4);
    assert_eq!(cal.pool.members[1].elo, Some(1320.0));
    assert!(!cal.pool_pairs.is_empty());
    assert_eq!(cal.pool_human_scales.len(), 2);

    // the pool's games alone: the fit places the members where the pool run did
    let p = players(&cal, &[]);
    let evidence = pool_evidence(&cal, &p.index);
    let f = fit::fit_with(&p.roles, &[], &evidence, ModelKind::Linear).unwrap();
    for r in read_pool_csv(&dir.join("pool").join("pool.csv")).unwrap() {
        let j = p.index[&r.name];
        let d = f.players[j].elo - r.elo.unwrap();
        assert!(d.abs() < 5.0, "{}: {d:.1} Elo from pool.csv", r.name);
    }

    // a calibration on it plays no pool games and rates `low` from the pool's games
    let quiet = Options {
        fit_only: false,
        quiet: true,
    };
    let out = calibrate::calibrate(&cal, &dir.join("cal"), &runner, &quiet).unwrap();
    assert!(out.games > 0);
    let games = calibrate::run::all_games(&dir.join("cal")).unwrap();
    assert!(games
        .iter()
        .all(|g| calibrate::run::parse_subject(&g.white).is_some()
            || calibrate::run::parse_subject(&g.black).is_some()));
    let table = std::fs::read_to_string(dir.join("cal").join("uci_elo_table.csv")).unwrap();
    assert!(
        table.contains(
            "# lichess-blitz: lichess_blitz = elo +121 (95%: +62 to +179), from 3 pool members"
        ),
        "{table}"
    );
    let body: Vec<&str> = table.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(body[0].ends_with(",lichess_blitz,lichess_rapid"), "{table}");
    for row in &body[1..] {
        let f: Vec<f64> = row.split(',').map(|x| x.parse().unwrap()).collect();
        let n = f.len();
        assert_eq!(
            f[n - 2],
            (f[0] + cal.pool_human_scales[0].offset).round(),
            "{row}"
        );
        assert_eq!(
            f[n - 1],
            (f[0] + cal.pool_human_scales[1].offset).round(),
            "{row}"
        );
    }
    // the engine loads it (the columns are informational)
    skillcal::strength::EloTable::parse(&table, "uci_elo_table.csv").unwrap();
    let fit = out.fit.expect("curve");
    let low = fit.players[p.index["low"]].elo;
    assert!((low - 1080.0).abs() < 150.0, "low at {low:.0}");
    // the run's pool.csv and report show the pool file's own ratings beside the fit; the
    // simulated strengths are transitive, so every member stays inside its pool-file interval
    let measured = read_pool_csv(&dir.join("pool").join("pool.csv")).unwrap();
    let rows: Vec<skillcal::results::PoolRow> =
        skillcal::results::read_csv(&dir.join("cal").join("pool.csv")).unwrap();
    assert_eq!(rows.len(), 4);
    for r in &rows {
        let m = measured.iter().find(|m| m.name == r.name).unwrap();
        assert_eq!(r.pool_file_elo, m.elo, "{}", r.name);
        assert_eq!(r.pool_file_upper, m.upper, "{}", r.name);
        let (lo, hi) = (r.pool_file_lower.unwrap(), r.pool_file_upper.unwrap());
        assert!(
            lo <= r.elo && r.elo <= hi,
            "{}: {:.0} outside [{lo:.0}, {hi:.0}]",
            r.name,
            r.elo
        );
        assert_eq!(r.outside_pool_file(), Some(false));
        // moved past either end of that interval, the member is flagged
        for elo in [lo - 1.0, hi + 1.0] {
            let moved = skillcal::results::PoolRow { elo, ..r.clone() };
            assert_eq!(moved.outside_pool_file(), Some(true), "{}", r.name);
        }
        let none = skillcal::results::PoolRow {
            pool_file_lower: None,
            ..r.clone()
        };
        assert_eq!(none.outside_pool_file(), None);
    }
    skillcal::report::generate(&dir.join("cal")).unwrap();
    let report = std::fs::read_to_string(dir.join("cal").join("report.md")).unwrap();
    assert!(
        report.contains("| pool file (95%) | fitted − pool file |"),
        "{report}"
    );
    assert!(report.contains("the run's games agree with the pool's"));
    assert!(
        report.contains("| Lichess blitz | Lichess rapid |"),
        "{report}"
    );

    // a pool file next to members, and a missing folder, are named
    let both = text.replace("[pool]\n", "[pool]\ncommand = \"/usr/games/stockfish\"\n");
    let e = CalibrationConfig::parse(&both, "both.toml").unwrap_err();
    assert!(format!("{e:#}").contains("pool.file"), "{e:#}");
    std::fs::write(&cfg_path, text.replace("\"pool\"", "\"nowhere\"")).unwrap();
    let e = CalibrationConfig::load(&cfg_path).unwrap_err();
    let msg = format!("{e:#}");
    // ... and so is the config that names it
    assert!(
        msg.contains("pool.file")
            && msg.contains("nowhere")
            && msg.starts_with(&cfg_path.display().to_string()),
        "{msg}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
