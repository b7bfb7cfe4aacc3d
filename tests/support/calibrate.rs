//! Shared pieces of the calibration tests: a synthetic pool and a config around it.
#![allow(dead_code)]

use skillcal::calibrate::config::CalibrationConfig;
use skillcal::calibrate::runner::EngineSpec;
use skillcal::calibrate::sim::SimRunner;

/// PR #4341 ratings of Stockfish Skill Levels 0..8 (official-stockfish/Stockfish PR #4341).
pub const ANCHORS: [f64; 9] = [
    1320., 1468., 1608., 1742., 1923., 2204., 2363., 2500., 2596.,
];

pub fn config_text(budget: usize, precision: f64, model: &str) -> String {
    let mut s = format!(
        r#"
name = "synthetic"
seed = 7
budget = {budget}
precision = {precision}
targets = {{ from = 1000, to = 2500, step = 100 }}

[subject]
command = "builtin"
limits = {{ tc = "60+1" }}

[[path]]
knob = "LimitNodes"
from = 32
to = 65536
scale = "log"

[fit]
model = "{model}"

[plan]
games_per_pairing = 20
batch_settings = 6

[pool]
command = "/usr/games/stockfish"
options = {{ Threads = 1 }}
limits = {{ nodes = 50000 }}
anchor_sd = 30
scale = "synthetic"

[openings]
file = "configs/books/2moves_v1.epd"
"#
    );
    for (i, a) in ANCHORS.iter().enumerate() {
        s.push_str(&format!(
            "\n[[pool.member]]\nname = \"sf{i}\"\nelo = {a}\noptions = {{ \"Skill Level\" = {i} }}\n"
        ));
    }
    s
}

pub fn config(budget: usize, precision: f64, model: &str) -> CalibrationConfig {
    CalibrationConfig::parse(&config_text(budget, precision, model), "test.toml").unwrap()
}

/// The true curve of the synthetic subject: linear in log2(nodes), 800 at 32 nodes, +140 per doubling.
pub fn true_elo_nodes(nodes: f64) -> f64 {
    800.0 + 140.0 * (nodes / 32.0).log2()
}

/// Simulates the subject by the true curve and the pool at its anchors (plus `pool_shift[i]`).
pub fn sim_runner(pool_shift: [f64; 9]) -> SimRunner {
    SimRunner {
        truth: Box::new(move |e: &EngineSpec| {
            if let Some(n) = e.option("LimitNodes") {
                return true_elo_nodes(n.parse().unwrap());
            }
            if let Some(l) = e.option("Skill Level") {
                let i: usize = l.parse().unwrap();
                return ANCHORS[i] + pool_shift[i];
            }
            panic!("unknown engine {}", e.name)
        }),
        draw_rate: 0.3,
        seconds: None,
    }
}
