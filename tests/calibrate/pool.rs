//! The pool measurement (`skillcal pool`) on simulated games: it connects every member, stops at
//! its precision goal, rates each member within its interval of the truth, resumes without
//! replaying, and rejects a member without anchor or guess by key.

use std::collections::HashMap;

use skillcal::calibrate::play::SimRunner;
use skillcal::calibrate::pool::{measure, read_pool_csv, PoolOptions, PoolRunConfig};

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
    let (ok, stderr) = crate::compare::skillcal(&["report", dir.to_str().unwrap()]);
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

/// The planner buys precision per second: between two partners that would narrow a member's
/// interval alike, it plays the one whose games have cost less, whichever that is.
#[test]
fn the_planner_prefers_the_partner_whose_games_cost_less() {
    use skillcal::calibrate::pool::{fit, next_batch, CostSample, GameCost};
    use skillcal::rating::{Game, GameResult};
    // three members: `low` (unanchored) between the anchors a0 and a1
    let text = CONFIG
        .replace("guess = 900", "guess = 1460")
        .replace("batch_matches = 4", "batch_matches = 1")
        .replace(
            "precision = 60\nprecision_chained = 90",
            "precision = 20\nprecision_chained = 20",
        );
    let text = &text[..text.find("[[pool.member]]\nname = \"a2\"").unwrap()];
    let cfg: PoolRunConfig = toml::from_str(&format!(
        "{text}[openings]\nfile = \"configs/books/2moves_v1.epd\"\n"
    ))
    .unwrap();
    assert_eq!(cfg.pool.members.len(), 3);
    let names: Vec<&str> = cfg.pool.members.iter().map(|m| m.name.as_str()).collect();
    let (low, a0, a1) = (0, 1, 2);
    // low scores 50% against a0 (1320) and a1 (1600): placed halfway, as uncertain toward each
    let mut games = Vec::new();
    for (opp, n) in [(a0, 20), (a1, 20)] {
        for i in 0..n {
            let r = match i % 4 {
                0 => GameResult::WhiteWins,
                1 => GameResult::BlackWins,
                _ => GameResult::Draw,
            };
            games.push(Game::new(names[low], names[opp], r));
        }
    }
    let f = fit(&cfg, &games).unwrap();
    let seconds = |cheap: usize| {
        GameCost::new(
            3,
            [a0, a1].into_iter().flat_map(|o| {
                let s = if o == cheap { 2.0 } else { 40.0 };
                std::iter::repeat_n(CostSample::new(low, o, s, 80), 20)
            }),
        )
    };
    for cheap in [a0, a1] {
        let cost = seconds(cheap);
        assert!((cost.seconds(low, cheap) - 2.0).abs() < 1e-6);
        let plan = next_batch(&cfg, &f, &cost).expect("the goal is not met yet");
        assert_eq!(plan.len(), 1);
        let pair = (plan[0].a.min(plan[0].b), plan[0].a.max(plan[0].b));
        assert_eq!(
            pair,
            (low, cheap),
            "cheap partner {}: {:?}",
            names[cheap],
            plan[0]
        );
    }
}

#[test]
fn game_cost_falls_back_from_pair_to_members_to_the_run() {
    use skillcal::calibrate::pool::{CostSample, GameCost};
    let g = |a, b, seconds, plies| CostSample::new(a, b, seconds, plies);
    // members 0, 1, 2, 3 at 0.1, 0.1, 0.3 and 0.5 s a move (a triangle among 0, 1 and 2 tells
    // each one's share); member 4 never played
    let mut played = vec![g(0, 1, 10.0, 100), g(1, 0, 10.0, 100)];
    played.extend(std::iter::repeat_n(g(1, 2, 12.0, 60), 4));
    played.extend(std::iter::repeat_n(g(2, 0, 10.0, 50), 4));
    played.extend(std::iter::repeat_n(g(3, 2, 40.0, 100), 4));
    let c = GameCost::new(5, played);
    let near = |x: f64, y: f64| (x - y).abs() < 1e-3 * y.max(1.0);
    assert!(near(c.seconds(2, 1), 12.0), "{}", c.seconds(2, 1));
    assert!(near(c.per_move(3).unwrap(), 0.5), "{:?}", c.per_move(3));
    // (0, 1): below PAIR_MIN, so its plies are the members' means (100 * 2 + 60 * 4 + 50 * 4
    // over 10 games for member 1, ... ): 100 and 64 for member 1, 60 for member 0
    let mean = |a: usize| {
        let (n, p) = [
            (0, 1, 100.0, 2.0),
            (1, 2, 60.0, 4.0),
            (0, 2, 50.0, 4.0),
            (2, 3, 100.0, 4.0),
        ]
        .iter()
        .filter(|x| x.0 == a || x.1 == a)
        .fold((0.0, 0.0), |s, x| (s.0 + x.3, s.1 + x.2 * x.3));
        p / n
    };
    assert!(
        near(c.seconds(0, 1), (mean(0) + mean(1)) / 2.0 * 0.1),
        "{}",
        c.seconds(0, 1)
    );
    // (0, 3): never met, from each member's own games
    assert!(
        near(c.seconds(0, 3), (mean(0) + mean(3)) / 2.0 * 0.3),
        "{}",
        c.seconds(0, 3)
    );
    // (0, 4): member 4 has no games: member 0's seconds a move alone
    assert!(near(c.seconds(0, 4), mean(0) * 0.1), "{}", c.seconds(0, 4));
    // no games at all: one second, and never under the floor
    assert_eq!(GameCost::new(2, []).seconds(0, 1), 1.0);
    assert_eq!(
        GameCost::new(2, std::iter::repeat_n(g(0, 1, 0.0, 80), 4)).seconds(0, 1),
        GameCost::FLOOR
    );
}

/// A pair not played since the machine got faster is costed at today's pace: pairs (0, 1) and
/// (2, 3) played side by side at 30 s and 3 s a game, then only (2, 3) at 1.5 s (a faster build)
/// for the epochs that make today. (0, 1) costs 15 s now, not the 30 s of its own games.
#[test]
fn game_cost_follows_the_machine_for_a_pair_not_played_since() {
    use skillcal::calibrate::pool::{CostSample, GameCost};
    let g = |a, b, seconds| CostSample::new(a, b, seconds, 100);
    let mut played = Vec::new();
    for _ in 0..GameCost::EPOCH / 2 {
        played.push(g(0, 1, 30.0));
        played.push(g(3, 2, 3.0));
    }
    let today = GameCost::EPOCH * GameCost::NOW_EPOCHS;
    played.extend(std::iter::repeat_n(g(2, 3, 1.5), today));
    let c = GameCost::new(4, played.clone());
    assert!((c.seconds(1, 0) - 15.0).abs() < 0.01, "{}", c.seconds(1, 0));
    assert!((c.seconds(2, 3) - 1.5).abs() < 0.01, "{}", c.seconds(2, 3));
    assert_eq!(c.pace().len(), GameCost::NOW_EPOCHS + 1);
    assert!(
        (c.pace()[GameCost::NOW_EPOCHS] - 2.0).abs() < 0.01,
        "{:?}",
        c.pace()
    );
    // one slow epoch (a test suite beside the games, every game twice as long) moves today's
    // costs by its share of today only
    played.extend(std::iter::repeat_n(g(2, 3, 3.0), GameCost::EPOCH));
    let c = GameCost::new(4, played);
    let share = 2f64.powf(1.0 / GameCost::NOW_EPOCHS as f64);
    assert!(
        (c.seconds(2, 3) - 1.5 * share).abs() < 0.01,
        "{}",
        c.seconds(2, 3)
    );
}

/// The simulation, except that `loser` loses every game against `winner`.
struct Rigged {
    inner: SimRunner,
    loser: &'static str,
    winner: &'static str,
}

impl skillcal::calibrate::play::GameRunner for Rigged {
    fn run(
        &self,
        spec: &skillcal::calibrate::play::MatchSpec,
        dir: &std::path::Path,
    ) -> skillcal::calibrate::Result<()> {
        use skillcal::results::{self, GameResult, GameRow};
        self.inner.run(spec, dir)?;
        let path = dir.join("games.csv");
        let mut games: Vec<GameRow> = results::read_csv(&path)?;
        for g in &mut games {
            if g.white == self.loser && g.black == self.winner {
                g.result = Some(GameResult::BlackWins);
            } else if g.black == self.loser && g.white == self.winner {
                g.result = Some(GameResult::WhiteWins);
            }
        }
        results::write_csv(&path, &games)?;
        Ok(())
    }
}

#[test]
fn the_report_names_the_member_that_one_rating_does_not_fit() {
    // a1 loses every game to a2 (320 Elo above it, so about 14% was due) and plays to its
    // rating against the others: no single rating fits it. A gap of 600 lets the ladder close
    // loops (a ladder of neighbours alone is a tree: any results fit it, 0 degrees of freedom).
    let cfg: PoolRunConfig = toml::from_str(
        &CONFIG
            .replace("budget = 20000", "budget = 600")
            .replace("max_gap = 300", "max_gap = 600"),
    )
    .unwrap();
    let t = truth();
    let runner = Rigged {
        inner: SimRunner {
            truth: Box::new(move |e| t[&e.name]),
            draw_rate: 0.2,
            seconds: None,
        },
        loser: "a1",
        winner: "a2",
    };
    let dir = tmpdir("pool-rigged");
    let opts = PoolOptions {
        fit_only: false,
        quiet: true,
    };
    measure(&cfg, &dir, &runner, &opts).unwrap();
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let section = report
        .split("## Consistency")
        .nth(1)
        .expect("consistency section");
    let p: f64 = section
        .split("p = ")
        .nth(1)
        .and_then(|s| s.split(". A member").next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("the pool's p: {section}"));
    assert!(p < 0.05, "{section}");
    // a1's sum is the largest, its worst pair a2; the members a1 did not wrong stay near 0
    let sum = |m: &str| -> f64 {
        let l = section
            .lines()
            .find(|l| l.starts_with(&format!("| {m} |")))
            .unwrap();
        l.split('|').nth(3).unwrap().trim().parse().unwrap()
    };
    let a1 = section.lines().find(|l| l.starts_with("| a1 |")).unwrap();
    assert!(a1.contains("| a2 ("), "a1's worst pair is a2: {a1}");
    assert!(
        sum("a1") > 5.0 && sum("low") < 2.0 && sum("a0") < 2.0,
        "{section}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The forecast in the report is the planner's own path on expected information: stopped early
/// by its budget, a run's forecast of the games still needed is near what the finished run then
/// plays, and a run at its goal forecasts nothing more.
#[test]
fn the_forecast_is_near_the_games_the_goal_then_takes() {
    use skillcal::calibrate::pool::{forecast, CostSample, GameCost};
    let t = truth();
    let runner = SimRunner {
        truth: Box::new(move |e| t[&e.name]),
        draw_rate: 0.2,
        seconds: None,
    };
    let opts = PoolOptions {
        fit_only: false,
        quiet: true,
    };
    let dir = tmpdir("pool-forecast");
    let mut cfg: PoolRunConfig = toml::from_str(CONFIG).unwrap();
    (cfg.precision, cfg.precision_chained) = (25.0, Some(40.0));
    cfg.budget = 400;
    let early = measure(&cfg, &dir, &runner, &opts).unwrap();
    assert!(
        !early.all_met && early.games == 400,
        "{} games, met {}",
        early.games,
        early.all_met
    );
    let cost = GameCost::new(
        4,
        [(0, 1), (1, 2), (2, 3)]
            .map(|(a, b)| CostSample::new(a, b, 3.0, 80))
            .repeat(4),
    );
    let ahead = forecast(&cfg, &early.fit, &cost, 100_000).unwrap();
    assert!(ahead.met, "{ahead:?}");
    assert!((ahead.seconds - 3.0 * ahead.games as f64).abs() < 1e-6);
    // where the time goes: every forecast game is in one pair's row
    let by_pair: usize = ahead.pairs.values().map(|p| p.0).sum();
    assert_eq!(by_pair, ahead.games);
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains(&format!(
            "the goal is met after about {} more games",
            ahead.games
        )) && report.contains("## Where the forecast's time goes"),
        "{report}"
    );
    // "h of play" is game time; the clock's hours divide it by the games played at once (a
    // note read the first as the second)
    let after = report.split("more games, ").nth(1).expect("forecast hours");
    let play: f64 = after.split(" h of play").next().unwrap().parse().unwrap();
    let clock: f64 = after
        .split("about ")
        .nth(1)
        .unwrap()
        .split(" h on the clock with ")
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (clock - play / cfg.concurrency as f64).abs() <= 0.1,
        "{play} h of play, {clock} h on the clock"
    );
    cfg.budget = 20_000;
    let done = measure(&cfg, &dir, &runner, &opts).unwrap();
    assert!(done.all_met);
    let played = (done.games - early.games) as f64;
    let ratio = played / ahead.games as f64;
    eprintln!("forecast {} more games, played {played}", ahead.games);
    assert!(
        (0.6..=1.6).contains(&ratio),
        "forecast {} games, played {played}",
        ahead.games
    );
    let end = forecast(&cfg, &done.fit, &cost, 100_000).unwrap();
    assert_eq!((end.games, end.met), (0, true));
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(!report.contains("Forecast:") && !report.contains("## Where the forecast"));
    std::fs::remove_dir_all(&dir).unwrap();
}

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

/// The committed measured pool (results/pool: its config, ratings, pairs and covariance) copied
/// beside a calibration config that names it, with `edit` applied to the lines of its `file`;
/// the config loaded, or its error.
fn load_edited_pool(
    name: &str,
    file: &str,
    edit: impl FnOnce(&mut Vec<String>),
) -> Result<skillcal::calibrate::config::CalibrationConfig, String> {
    load_edited_pool_files(name, |pool| edit_lines(&pool.join(file), edit))
}

/// The lines of `path`, edited in place.
fn edit_lines(path: &std::path::Path, edit: impl FnOnce(&mut Vec<String>)) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    edit(&mut lines);
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// [`load_edited_pool`], `edit` given the copied pool folder.
fn load_edited_pool_files(
    name: &str,
    edit: impl FnOnce(&std::path::Path),
) -> Result<skillcal::calibrate::config::CalibrationConfig, String> {
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/pool");
    let dir = tmpdir(name);
    let pool = dir.join("pool");
    std::fs::create_dir_all(&pool).unwrap();
    for f in [
        "pool.toml",
        "pool.csv",
        "pool-pairs.csv",
        "pool-covariance.csv",
    ] {
        std::fs::copy(from.join(f), pool.join(f)).unwrap();
    }
    edit(&pool);
    let cfg_path = dir.join("cal.toml");
    std::fs::write(&cfg_path, calibration_text(3, 400, (1000, 1800), 65536)).unwrap();
    let out = skillcal::calibrate::config::CalibrationConfig::load(&cfg_path)
        .map_err(|e| format!("{e:#}"));
    std::fs::remove_dir_all(&dir).unwrap();
    out
}

/// Field `i` of a CSV line of the pool files (no quoted fields there).
fn field(line: &str, i: usize) -> String {
    line.split(',').nth(i).unwrap().to_string()
}

/// `line` with field `i` replaced by `v`.
fn with_field(line: &str, i: usize, v: &str) -> String {
    let mut f: Vec<&str> = line.split(',').collect();
    f[i] = v;
    f.join(",")
}

/// The committed pool file loads whole: every member rated, its covariance symmetric to the
/// three decimals it is written with (so the checks below pass real files).
#[test]
fn the_committed_pool_file_loads() {
    let cfg = load_edited_pool("pool-file-as-committed", "pool.csv", |_| {}).unwrap();
    let n = cfg.pool.members.len();
    assert!(n > 2);
    assert_eq!(cfg.pool_measured.len(), n);
    assert_eq!(cfg.pool_covariance.as_ref().map(|c| c.nrows()), Some(n));
    // a cell off from its mirror by the last written digit is rounding, not damage
    let cfg = load_edited_pool("pool-file-rounding", "pool-covariance.csv", |l| {
        let v: f64 = field(&l[3], 1).parse().unwrap();
        l[3] = with_field(&l[3], 1, &format!("{:.3}", v + 0.001));
    })
    .unwrap();
    assert_eq!(cfg.pool_covariance.map(|c| c.nrows()), Some(n));
}

/// pool.csv: a rating that is not a finite number (a NaN made every member NaN, and the run
/// exited 0 with a note about a singular matrix), or a member of pool.toml without its row
/// (the pool was then refitted from its games instead of held), is refused by file, line and
/// member.
#[test]
fn pool_csv_nan_or_a_missing_member_is_named() {
    let mut member = String::new();
    let err = load_edited_pool("pool-csv-nan", "pool.csv", |l| {
        member = field(&l[3], 0);
        l[3] = with_field(&l[3], 1, "NaN");
    })
    .unwrap_err();
    assert!(
        err.contains("pool.csv:4: ")
            && err.contains(&format!("member `{member}`"))
            && err.contains("elo NaN is not a finite number"),
        "{err}"
    );
    let err = load_edited_pool("pool-csv-missing", "pool.csv", |l| {
        member = field(&l[3], 0);
        l.remove(3);
    })
    .unwrap_err();
    assert!(
        err.contains("pool.csv: ")
            && err.contains(&format!("member `{member}`"))
            && err.contains("pool.toml has no row"),
        "{err}"
    );
}

/// pool-pairs.csv: a pair given twice (its games counted twice), a member paired with itself,
/// and a negative count (it said only "field 2: invalid digit found in string") are refused by
/// file, line and member or column.
#[test]
fn pool_pairs_twice_self_or_negative_are_named() {
    let mut pair = (String::new(), String::new());
    let mut last = 0;
    let err = load_edited_pool("pool-pairs-twice", "pool-pairs.csv", |l| {
        pair = (field(&l[2], 0), field(&l[2], 1));
        let again = l[2].clone();
        l.push(again);
        last = l.len();
    })
    .unwrap_err();
    assert!(
        err.contains(&format!("pool-pairs.csv:{last}: "))
            && err.contains(&format!(
                "`{}` – `{}` again (first on line 3)",
                pair.0, pair.1
            )),
        "{err}"
    );
    let err = load_edited_pool("pool-pairs-self", "pool-pairs.csv", |l| {
        pair.0 = field(&l[1], 0);
        l[1] = with_field(&l[1], 1, &pair.0);
    })
    .unwrap_err();
    assert!(
        err.contains(&format!(
            "pool-pairs.csv:2: `{}` is paired with itself",
            pair.0
        )),
        "{err}"
    );
    let err = load_edited_pool("pool-pairs-negative", "pool-pairs.csv", |l| {
        l[1] = with_field(&l[1], 2, "-20");
    })
    .unwrap_err();
    assert!(
        err.contains("pool-pairs.csv:2: column `games`: `-20` is not a whole number >= 0"),
        "{err}"
    );
}

/// pool-covariance.csv: an off-diagonal cell unlike its mirror (99999), a variance that is
/// negative or zero, a NaN cell (it said "a member has no row") and a member without its row
/// are refused by file, line and members.
#[test]
fn pool_covariance_damage_is_named() {
    let mut names = (String::new(), String::new());
    let err = load_edited_pool("pool-cov-asym", "pool-covariance.csv", |l| {
        names = (field(&l[3], 0), field(&l[0], 1));
        l[3] = with_field(&l[3], 1, "99999");
    })
    .unwrap_err();
    assert!(
        err.contains(&format!(
            "pool-covariance.csv:4: member `{}`, column `{}`: 99999 where member `{}`, column `{}` (line 2)",
            names.0, names.1, names.1, names.0
        )) && err.contains("symmetric"),
        "{err}"
    );
    for v in ["-5", "0"] {
        let err = load_edited_pool("pool-cov-variance", "pool-covariance.csv", |l| {
            names.0 = field(&l[2], 0);
            l[2] = with_field(&l[2], 2, v);
        })
        .unwrap_err();
        assert!(
            err.contains(&format!(
                "pool-covariance.csv:3: member `{}`: variance {v} (column `{}`) is not positive",
                names.0, names.0
            )),
            "{err}"
        );
    }
    // zero is the variance of a hard anchor (a constant): with the anchors' prior SD 0 the
    // anchored member's zero loads
    let anchored = load_edited_pool_files("pool-cov-hard", |pool| {
        edit_lines(&pool.join("pool.toml"), |l| {
            let at = l.iter().position(|x| x.starts_with("anchor_sd =")).unwrap();
            l[at] = "anchor_sd = 0.0".into();
        });
        edit_lines(&pool.join("pool-covariance.csv"), |l| {
            // an anchored member's row (row k holds the member of column k)
            let at = l
                .iter()
                .position(|x| x.starts_with("sf15.1-skill0,"))
                .unwrap();
            names.0 = field(&l[at], 0);
            l[at] = with_field(&l[at], at, "0.000");
        });
    })
    .unwrap();
    let i = anchored
        .pool
        .members
        .iter()
        .position(|m| m.name == names.0)
        .unwrap();
    assert!(anchored.pool.members[i].elo.is_some(), "{}", names.0);
    assert_eq!(anchored.pool_covariance.unwrap()[(i, i)], 0.0);
    let err = load_edited_pool("pool-cov-nan", "pool-covariance.csv", |l| {
        names = (field(&l[3], 0), field(&l[0], 3));
        l[3] = with_field(&l[3], 3, "NaN");
    })
    .unwrap_err();
    assert!(
        err.contains(&format!(
            "pool-covariance.csv:4: member `{}`, column `{}`: `NaN` is not a finite number",
            names.0, names.1
        )),
        "{err}"
    );
    let err = load_edited_pool("pool-cov-missing", "pool-covariance.csv", |l| {
        names.0 = field(&l[3], 0);
        l.remove(3);
    })
    .unwrap_err();
    assert!(
        err.contains(&format!(
            "pool-covariance.csv: member `{}` has no row",
            names.0
        )),
        "{err}"
    );
}
