//! Resuming a calibration: a rerun whose config would change the games (the players' engines,
//! the path, the book, the rules, the seed) is refused, naming what changed, since its games
//! would join the old ones under the same player names; it compared only the path and the pool
//! members' names. What does not change the games (budget, goals, fit, plan, concurrency,
//! anchors, verify) stays free. A run that holds no game yet takes a corrected config.

use std::path::{Path, PathBuf};

use skillcal::calibrate::config::CalibrationConfig;
use skillcal::calibrate::play::{GameRunner, MatchSpec};
use skillcal::calibrate::run::list_matches;
use skillcal::calibrate::{self, CalibrateError, Options};

use crate::support::calibrate::{config_text, sim_runner};

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skillcal-resume-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const QUIET: Options = Options {
    fit_only: false,
    quiet: true,
};

fn parse(text: &str) -> CalibrationConfig {
    CalibrationConfig::parse(text, "x.toml").unwrap()
}

#[test]
fn a_rerun_that_would_change_the_games_is_refused_naming_what_changed() {
    let base = config_text(200, 50.0, "linear");
    let dir = tmpdir("changed");
    let runner = sim_runner([0.0; 9]);
    let first = calibrate::calibrate(&parse(&base), &dir, &runner, &QUIET).unwrap();
    let saved = std::fs::read_to_string(dir.join("calibrate.toml")).unwrap();
    let cases = [
        (
            "options = { \"Skill Level\" = 1 }",
            "options = { \"Skill Level\" = 2 }",
            "pool.member `sf1` options",
        ),
        (
            "limits = { nodes = 50000 }",
            "limits = { nodes = 60000 }",
            "pool.member `sf0` limits",
        ),
        (
            "options = { Threads = 1 }",
            "options = { Threads = 1 }\nargs = [\"-x\"]",
            "pool.member `sf8` args",
        ),
        (
            "command = \"builtin\"",
            "command = \"builtin\"\noptions = { Hash = 32 }",
            "subject.options",
        ),
        (
            "limits = { tc = \"60+1\" }",
            "limits = { tc = \"30+0.5\" }",
            "subject.limits",
        ),
        (
            "command = \"builtin\"",
            "command = \"/usr/games/stockfish\"",
            "subject.command",
        ),
        ("seed = 7", "seed = 8", "seed"),
        ("to = 65536", "to = 100000", "path"),
        (
            "file = \"configs/books/2moves_v1.epd\"",
            "file = \"configs/books/2moves_v1.epd\"\norder = \"sequential\"",
            "openings.order",
        ),
        (
            "[openings]",
            "[adjudication]\nmax_plies = 300\n\n[openings]",
            "adjudication",
        ),
    ];
    for (from, to, key) in cases {
        let text = base.replacen(from, to, 1);
        assert_ne!(text, base, "{to}: the replacement missed");
        let err = calibrate::calibrate(&parse(&text), &dir, &runner, &QUIET)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("holds a calibration with a different config (")
                && err.contains(key)
                && err.contains("differ; see")
                && err.contains("calibrate.toml"),
            "{key}: {err}"
        );
        let now = std::fs::read_to_string(dir.join("calibrate.toml")).unwrap();
        assert_eq!(now, saved, "{key}: calibrate.toml was overwritten");
    }
    // what does not change the games: the budget, the goals, targets, fit, plan, concurrency,
    // the anchors and the scale's text, verification
    let free = base
        .replace("budget = 200", "budget = 260")
        .replace("precision = 50", "precision = 40")
        .replace("step = 100", "step = 50")
        .replace("model = \"linear\"", "model = \"quadratic\"")
        .replace("batch_settings = 6", "batch_settings = 4\ngrid = 20")
        .replace("seed = 7", "seed = 7\nconcurrency = 1")
        .replace("scale = \"synthetic\"", "scale = \"another text\"")
        .replace("elo = 1468", "elo = 1480")
        + "\n[verify]\nlevels = [1500]\n";
    let more = calibrate::calibrate(&parse(&free), &dir, &runner, &QUIET).unwrap();
    assert!(more.games > first.games, "{} {}", more.games, first.games);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `[pool] file = DIR`: the members come from that pool run's `pool.toml`, compared as loaded.
#[test]
fn a_measured_pool_is_compared_by_its_members_as_loaded() {
    let dir = tmpdir("pool-file");
    let pool = dir.join("pool");
    std::fs::create_dir_all(&pool).unwrap();
    let base = config_text(120, 50.0, "linear");
    let (head, members) = base.split_at(base.find("[pool]").unwrap());
    let members = &members[members.find("[[pool.member]]").unwrap()..];
    let pool_toml = format!(
        "[pool]\ncommand = \"/usr/games/stockfish\"\nlimits = {{ nodes = 50000 }}\n{members}"
    );
    std::fs::write(pool.join("pool.toml"), &pool_toml).unwrap();
    std::fs::write(
        pool.join("pool-pairs.csv"),
        "a,b,games,a_wins,draws,b_wins,a_points,fit_diff,fit_diff_sd\nsf0,sf1,20,6,4,10,8,,\n",
    )
    .unwrap();
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/books/2moves_v1.epd");
    let cfg_path = dir.join("cal.toml");
    std::fs::write(
        &cfg_path,
        format!("{head}[pool]\nfile = \"pool\"\n\n[openings]\nfile = \"{book}\"\n"),
    )
    .unwrap();
    let run = dir.join("run");
    let runner = sim_runner([0.0; 9]);
    let load = || CalibrationConfig::load(&cfg_path).unwrap();
    calibrate::calibrate(&load(), &run, &runner, &QUIET).unwrap();
    // the same pool file resumes
    calibrate::calibrate(&load(), &run, &runner, &QUIET).unwrap();
    // the pool run's member changed under the same name
    let changed = pool_toml.replacen("\"Skill Level\" = 3", "\"Skill Level\" = 4", 1);
    assert_ne!(changed, pool_toml);
    std::fs::write(pool.join("pool.toml"), changed).unwrap();
    let err = calibrate::calibrate(&load(), &run, &runner, &QUIET)
        .unwrap_err()
        .to_string();
    assert!(err.contains("(pool.member `sf3` options differ"), "{err}");
    // a member added to the pool since joins: the run's games are against the others, so it
    // resumes (a measured pool grows when resumed with new members)
    let grown = format!(
        "{pool_toml}\n[[pool.member]]\nname = \"sf8-twin\"\nelo = 2600\noptions = {{ \"Skill Level\" = 8 }}\n"
    );
    std::fs::write(pool.join("pool.toml"), &grown).unwrap();
    calibrate::calibrate(&load(), &run, &runner, &QUIET).unwrap();
    // but a member that left without being retired is refused
    let shrunk = grown.replacen("name = \"sf8\"", "name = \"sf8-renamed\"", 1);
    assert_ne!(shrunk, grown);
    std::fs::write(pool.join("pool.toml"), shrunk).unwrap();
    let err = calibrate::calibrate(&load(), &run, &runner, &QUIET)
        .unwrap_err()
        .to_string();
    assert!(err.contains("pool.member (the members' names)"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plans and writes its matches, then fails before any game (an engine that would not start).
struct Failing;

impl GameRunner for Failing {
    fn run(&self, _spec: &MatchSpec, _dir: &Path) -> calibrate::Result<()> {
        Err(CalibrateError::Other(
            "engines[0]: option LimitNode unknown".into(),
        ))
    }
}

#[test]
fn a_run_without_games_takes_the_corrected_config() {
    let good = config_text(200, 50.0, "linear").replacen(
        "command = \"builtin\"",
        "command = \"builtin\"\noptions = { Hash = 8 }",
        1,
    );
    let bad = good
        .replace("knob = \"LimitNodes\"", "knob = \"LimitNode\"")
        .replace("Hash = 8", "Hahs = 8");
    let dir = tmpdir("no-games");
    assert!(calibrate::calibrate(&parse(&bad), &dir, &Failing, &QUIET).is_err());
    let stale = list_matches(&dir).unwrap();
    assert!(!stale.is_empty(), "no plan was written");
    // the corrected config plans afresh and plays
    let runner = sim_runner([0.0; 9]);
    let out = calibrate::calibrate(&parse(&good), &dir, &runner, &QUIET).unwrap();
    assert!(out.games > 0);
    for (d, spec) in list_matches(&dir).unwrap() {
        let subject = &spec.engines[0];
        assert!(
            subject.option("Hahs").is_none() && subject.option("LimitNode").is_none(),
            "{} kept the stale plan: {:?}",
            d.display(),
            subject.options
        );
    }
    let plan = std::fs::read_to_string(dir.join("plan.csv")).unwrap();
    assert_eq!(
        plan.lines().count() - 1,
        list_matches(&dir).unwrap().len(),
        "plan.csv still lists the stale plans: {plan}"
    );
    let saved = std::fs::read_to_string(dir.join("calibrate.toml")).unwrap();
    assert!(saved.contains("knob = \"LimitNodes\""), "{saved}");
    let _ = std::fs::remove_dir_all(&dir);
}
