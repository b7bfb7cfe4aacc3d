//! What a pool measurement will cost, before playing it: runs `skillcal pool`'s planner on
//! simulated games (true ratings = the config's anchors and guesses, spacing shrunk by SHRINK
//! around 1320, as measured at fixed nodes in REFERENCE-POOL.md) and prints the games it took.
//!
//!     cargo run --release --example pool_sim -- configs/pool.toml [SHRINK]

use std::collections::HashMap;

use skillcal::calibrate::pool::{measure, PoolOptions, PoolRunConfig};
use skillcal::calibrate::sim::SimRunner;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .map(String::as_str)
        .unwrap_or("configs/pool.toml");
    let shrink: f64 = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(0.88);
    let cfg = PoolRunConfig::load(std::path::Path::new(path))?;
    let truth: HashMap<String, f64> = cfg
        .pool
        .members
        .iter()
        .map(|m| {
            let v = m.elo.or(m.guess).unwrap_or(1320.0);
            (m.name.clone(), 1320.0 + (v - 1320.0) * shrink)
        })
        .collect();
    let runner = SimRunner {
        truth: Box::new(move |e| truth[&e.name]),
        draw_rate: 0.15,
    };
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
    println!(
        "{} games, every member at its goal: {}",
        out.games, out.all_met
    );
    print!("{}", std::fs::read_to_string(dir.join("report.md"))?);
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
