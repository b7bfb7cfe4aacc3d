//! What a pool measurement will cost, before playing it: runs `skillcal pool`'s planner on
//! simulated games (true ratings = the config's anchors and guesses, spacing shrunk by SHRINK
//! around 1320, as measured at fixed nodes in REFERENCE-POOL.md) and prints the games it took.
//! Given a real run's GAMES_CSV, each simulated game costs what `GameCost` makes of the run's games
//! for its pair (plies times seconds a move at the latest pace), and the planner runs twice, choosing
//! by precision per second and per game, so the two can be compared in hours of play.
//!
//!     cargo run --release --example pool_sim -- configs/pool.toml [SHRINK [GAMES_CSV]]

use std::collections::HashMap;
use std::path::Path;

use skillcal::calibrate::play::SimRunner;
use skillcal::calibrate::play::{GameRunner, MatchSpec};
use skillcal::calibrate::pool::{measure, CostSample, GameCost, PoolOptions, PoolRunConfig};
use skillcal::results::{self, GameRow};

/// The simulated runner, then each new game's `seconds` set from the measured costs.
struct Costed {
    sim: SimRunner,
    cost: Option<(GameCost, HashMap<String, usize>)>,
}

impl GameRunner for Costed {
    fn run(&self, spec: &MatchSpec, dir: &Path) -> skillcal::calibrate::Result<()> {
        self.sim.run(spec, dir)?;
        let Some((cost, index)) = &self.cost else {
            return Ok(());
        };
        let path = dir.join("games.csv");
        let mut rows: Vec<GameRow> = results::read_csv(&path)?;
        for r in &mut rows {
            r.seconds = cost.seconds(index[&r.white], index[&r.black]);
        }
        Ok(results::write_csv(&path, &rows)?)
    }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .map(String::as_str)
        .unwrap_or("configs/pool.toml");
    let shrink: f64 = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(0.88);
    let mut cfg = PoolRunConfig::load(Path::new(path))?;
    let truth: HashMap<String, f64> = cfg
        .pool
        .members
        .iter()
        .map(|m| {
            let v = m.elo.or(m.guess).unwrap_or(1320.0);
            (m.name.clone(), 1320.0 + (v - 1320.0) * shrink)
        })
        .collect();
    let index: HashMap<String, usize> = cfg
        .pool
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| (m.name.clone(), i))
        .collect();
    let cost = match args.get(3) {
        Some(csv) => {
            let rows: Vec<GameRow> = results::read_csv(Path::new(csv))?;
            let games = rows.iter().filter_map(|r| {
                let (a, b) = (*index.get(&r.white)?, *index.get(&r.black)?);
                Some(CostSample::new(a, b, r.seconds, r.plies))
            });
            Some((GameCost::new(cfg.pool.members.len(), games), index))
        }
        None => None,
    };
    let modes: &[bool] = if cost.is_some() {
        &[true, false]
    } else {
        &[true]
    };
    let runner = Costed {
        sim: SimRunner {
            truth: Box::new(move |e| truth[&e.name]),
            draw_rate: 0.15,
            seconds: None,
        },
        cost,
    };
    for &per_second in modes {
        cfg.measure.per_second = per_second;
        let dir = std::env::temp_dir().join(format!("skillcal-pool-sim-{}", std::process::id()));
        let out = measure(
            &cfg,
            &dir,
            &runner,
            &PoolOptions {
                fit_only: false,
                quiet: true,
            },
        )?;
        let rows: Vec<GameRow> = results::read_csv(&dir.join("games.csv"))?;
        let hours = rows.iter().map(|r| r.seconds).sum::<f64>() / 3600.0;
        println!(
            "choosing by precision per {}: {} games, {hours:.1} h of play, every member at its goal: {}",
            if per_second { "second" } else { "game" },
            out.games,
            out.all_met
        );
        if modes.len() == 1 {
            print!("{}", std::fs::read_to_string(dir.join("report.md"))?);
        }
        std::fs::remove_dir_all(&dir)?;
    }
    Ok(())
}
