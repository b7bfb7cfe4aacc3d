//! Shared pieces of the calibration tests: a synthetic pool and a config around it.
#![allow(dead_code)]

use std::path::Path;

use skillcal::calibrate::config::CalibrationConfig;
use skillcal::calibrate::play::SimRunner;
use skillcal::calibrate::play::{EngineSpec, GameRunner, MatchSpec};

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

/// A runner that counts the matches it is asked to play and plays them with `inner`. The
/// simulator skips the games a match already holds, so a resume that re-ran every finished match
/// would add no game: only this count shows it.
pub struct Counting<'a> {
    pub inner: &'a dyn GameRunner,
    pub runs: std::cell::Cell<usize>,
}

impl<'a> Counting<'a> {
    pub fn new(inner: &'a dyn GameRunner) -> Self {
        Counting {
            inner,
            runs: std::cell::Cell::new(0),
        }
    }
}

impl GameRunner for Counting<'_> {
    fn run(&self, spec: &MatchSpec, dir: &Path) -> skillcal::calibrate::Result<()> {
        self.runs.set(self.runs.get() + 1);
        self.inner.run(spec, dir)
    }
    fn plays(&self) -> bool {
        self.inner.plays()
    }
}

/// The outside probe's small real calibration: the built-in engine at 16..256 nodes against
/// Stockfish Skill 0 and 1 at 200 nodes, a few games.
pub const TINY: &str = r#"name = "tiny"
seed = 7
concurrency = 1
budget = 8
precision = 100
targets = { from = 1400, to = 1600, step = 200 }
[subject]
command = "builtin"
options = { Hash = 1, Threads = 1 }
limits = { tc = "30+0.3" }
[[path]]
knob = "LimitNodes"
from = 16
to = 256
scale = "log"
[fit]
model = "linear"
[plan]
initial = [0.0, 1.0]
grid = 4
games_per_pairing = 2
opponents_per_setting = 1
max_gap = 400
batch_settings = 2
[pool]
command = "/usr/games/stockfish"
options = { Hash = 1, Threads = 1 }
limits = { nodes = 200 }
anchor_sd = 50
scale = "test"
[[pool.member]]
name = "sf-skill0"
elo = 1320
options = { "Skill Level" = 0 }
[[pool.member]]
name = "sf-skill1"
elo = 1468
options = { "Skill Level" = 1 }
[openings]
file = "books/2moves_v1.epd"
order = "random"
[adjudication]
resign = { score_cp = 600, moves = 3 }
draw = { score_cp = 10, moves = 6, after_move = 30 }
max_plies = 120
[verify]
levels = [1400]
games_per_opponent = 2
opponents_per_level = 1
"#;

/// A folder holding `tiny.toml` (TINY) beside `books/2moves_v1.epd`, the shipped book's first
/// 200 positions (the whole book takes a debug build a second to parse); returns (folder, config).
pub fn tiny_dir(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = crate::support::arena::temp_dir(name);
    let book = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/books/2moves_v1.epd"
    ))
    .unwrap();
    let head: String = book.lines().take(200).map(|l| format!("{l}\n")).collect();
    std::fs::create_dir_all(dir.join("books")).unwrap();
    std::fs::write(dir.join("books/2moves_v1.epd"), head).unwrap();
    let cfg = dir.join("tiny.toml");
    std::fs::write(&cfg, TINY).unwrap();
    (dir, cfg)
}
