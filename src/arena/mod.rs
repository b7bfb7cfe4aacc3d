//! Batch games between UCI engine processes (`skillcal match`).
//!
//! # Config (TOML)
//!
//! ```toml
//! event = "skill 2 vs 4"
//! pairing = "gauntlet"        # or "round_robin"; gauntlet = first engine vs each of the rest
//! rounds = 50                 # openings per pairing; each played games_per_opening times
//! games_per_opening = 2       # 2: a game pair, colours swapped
//! # games = 100               # optional cap on games per pairing
//! concurrency = 2
//! seed = 1                    # opening order and per-game seeds
//! summary_every = 20          # W-D-L / Elo summary every N games (0: never)
//! # skillcal_bin = "target/release/skillcal"   # for `builtin` engines
//!
//! [limits]                    # defaults for every engine; any mix is sent with `go`
//! nodes = 20000
//! # tc = "10+0.1"  (or "40/60+0.5", "60"), movetime_ms = 100, depth = 8
//! # time_margin_ms = 100      # allowed lateness past the clock / movetime
//!
//! [openings]
//! file = "configs/books/2moves_v1.epd"   # the default; .epd or .pgn
//! order = "random"            # or "sequential"
//! # plies = 8                 # PGN openings: keep at most this many plies
//! # start = 0                 # index into the order for round 1
//!
//! [adjudication]              # each rule off unless given
//! resign = { score_cp = 1000, moves = 4 }
//! draw = { score_cp = 10, moves = 8, after_move = 40 }
//! max_plies = 400
//!
//! [sprt]                      # optional, two engines only: stop once decided
//! elo0 = 0                    # H0: the first engine is elo0 stronger than the second
//! elo1 = 5                    # H1: elo1 stronger
//! # alpha = 0.05, beta = 0.05, model = "logistic" (or "normalized", fishtest's nElo)
//!
//! [timeouts]
//! handshake_ms = 10000        # uci/uciok, isready/readyok
//! stall_ms = 60000            # bestmove wait without clock or movetime
//!
//! [[engines]]
//! name = "sf-skill2"          # optional; default from command and options
//! command = "/usr/games/stockfish"   # bare names are searched on PATH and /usr/games
//! args = []
//! # dir = "/tmp"
//! options = { "Skill Level" = 2, Hash = 16 }
//! # limits = { nodes = 50000 }   # per-engine override, field by field
//! # seed_option = "Seed"      # default: `Seed` when the engine offers it; "" = never
//!
//! [[engines]]
//! command = "builtin:ScoreInaccuracy=50,LimitNodes=20000"  # the skillcal engine (`skillcal uci`)
//! ```
//!
//! # Library use
//!
//! ```no_run
//! use skillcal::arena::{run_match, EngineConfig, Limits, MatchConfig, RunOptions};
//! let cfg = MatchConfig {
//!     engines: vec![
//!         EngineConfig::from_spec("builtin:LimitNodes=5000").unwrap(),
//!         EngineConfig::from_spec("stockfish:Skill Level=0").unwrap(),
//!     ],
//!     limits: Limits { nodes: Some(20_000), ..Default::default() },
//!     rounds: 5,
//!     ..Default::default()
//! };
//! let summary = run_match(&cfg, std::path::Path::new("results/x"), &RunOptions::default()).unwrap();
//! let games = skillcal::arena::read_games_csv(&summary.out_dir.join("games.csv")).unwrap();
//! ```
//!
//! - [`run_match`] (blocking, builds its own runtime) / [`run_match_async`]: run or resume
//!   into a directory; return a [`MatchSummary`]. Rerunning with the same config continues;
//!   more `rounds` extend the match; a different config on the same directory is an error.
//! - Outputs: `games.csv` ([`CSV_HEADER`], one [`GameRecord`] per game), `games.pgn`,
//!   `match.toml` (the config the directory belongs to). Both game files are append-only and
//!   flushed after every game; the CSV row is written last and marks a game as done.
//! - [`read_games_csv`] reads games.csv back.
//! - Terminations (games.csv `termination`): checkmate, stalemate, threefold, fifty_moves,
//!   insufficient_material, adjudication_resign, adjudication_draw, max_plies (drawn),
//!   time_forfeit (clock or movetime exceeded by more than the margin), illegal_move (also an
//!   unparseable `bestmove`), crash (process exited / closed its output / failed to start),
//!   stall (no `bestmove` within `stall_ms` under node/depth limits, or no `readyok`).
//!   In the last four the offender loses and its process is restarted for the next game.
//! - `white_settings` / `black_settings`: the engine's options as `Key=Value;Key=Value`.

mod config;
mod engine;
mod game;
mod openings;
mod runner;
mod schedule;
mod stats;
mod store;

use std::path::PathBuf;

use anyhow::bail;

pub use config::{
    AdjudicationConfig, BookFormat, BookOrder, DrawRule, EngineConfig, Limits, MatchConfig,
    OpeningsConfig, Pairing, ResignRule, SprtConfig, TimeControl, Timeouts, UciOptions,
};
pub use game::{GameResult, Termination};
pub use runner::{run_match, run_match_async, skillcal_bin, MatchSummary, RunOptions, SprtStatus};
pub use stats::{elo_with_margin, PairingStats};
pub use store::{read_games_csv, GameRecord, CSV_HEADER};

/// `skillcal match`: a config file, flags for the common cases, or both (flags win).
#[derive(clap::Args, Debug, Default)]
pub struct MatchArgs {
    /// Match configuration (TOML).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Output directory (games.pgn, games.csv); rerunning on it resumes.
    #[arg(long)]
    pub out: PathBuf,
    /// Engine (repeatable; replaces the config's engines): `builtin`, `builtin:K=V,K=V`,
    /// a command, or `COMMAND:K=V,...` (UCI options).
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// Openings per pairing (each played twice, colours swapped).
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Cap on games per pairing.
    #[arg(long)]
    pub games: Option<u32>,
    /// Games at the same time.
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Node limit per move (all engines).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Clock for all engines, seconds: `base+inc` or `moves/base+inc`.
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move, milliseconds (all engines).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Depth limit (all engines).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Opening book (EPD or PGN).
    #[arg(long)]
    pub book: Option<PathBuf>,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Round robin instead of gauntlet.
    #[arg(long)]
    pub round_robin: bool,
    /// Draw games reaching this many plies.
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Print a summary every N games (0: only at the end).
    #[arg(long)]
    pub summary_every: Option<u32>,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Stop by fishtest's GSPRT of the first engine against the second (logistic Elo):
    /// `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA` (default alpha = beta = 0.05).
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 1,
        value_name = "ELO0,ELO1[,ALPHA,BETA]"
    )]
    pub sprt: Vec<f64>,
}

impl MatchArgs {
    /// The config file (if any) with the flags applied.
    pub fn to_config(&self) -> anyhow::Result<MatchConfig> {
        let mut cfg = match &self.config {
            Some(p) => MatchConfig::from_file(p)?,
            None => MatchConfig::default(),
        };
        if !self.engines.is_empty() {
            cfg.engines = self
                .engines
                .iter()
                .map(|s| EngineConfig::from_spec(s))
                .collect::<anyhow::Result<_>>()?;
        }
        if cfg.engines.len() < 2 {
            bail!("match: give --config FILE or at least two --engine SPEC");
        }
        if let Some(r) = self.rounds {
            cfg.rounds = r;
        }
        if self.games.is_some() {
            cfg.games = self.games;
        }
        if let Some(c) = self.concurrency {
            cfg.concurrency = c;
        }
        if self.nodes.is_some() {
            cfg.limits.nodes = self.nodes;
        }
        if self.tc.is_some() {
            cfg.limits.tc = self.tc.clone();
        }
        if self.movetime.is_some() {
            cfg.limits.movetime_ms = self.movetime;
        }
        if self.depth.is_some() {
            cfg.limits.depth = self.depth;
        }
        if self.book.is_some() {
            cfg.openings.file = self.book.clone();
            cfg.openings.format = None;
        }
        if let Some(s) = self.seed {
            cfg.seed = s;
        }
        if self.round_robin {
            cfg.pairing = Pairing::RoundRobin;
        }
        if self.max_plies.is_some() {
            cfg.adjudication.max_plies = self.max_plies;
        }
        if let Some(n) = self.summary_every {
            cfg.summary_every = n;
        }
        let sprt = match self.sprt[..] {
            [] => None,
            [elo0, elo1] => Some(SprtConfig::new(elo0, elo1)),
            [elo0, elo1, alpha, beta] => Some(SprtConfig {
                alpha,
                beta,
                ..SprtConfig::new(elo0, elo1)
            }),
            _ => bail!("--sprt: give ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA"),
        };
        if sprt.is_some() {
            cfg.sprt = sprt;
        }
        cfg.validate()?;
        Ok(cfg)
    }
}

pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let cfg = args.to_config()?;
    let opts = RunOptions {
        progress: !args.no_progress,
        summaries: true,
        // a bad book is blamed on where it was named
        book_source: match (&args.book, &args.config) {
            (Some(_), _) => Some("--book".into()),
            (None, Some(p)) => Some(p.display().to_string()),
            (None, None) => None,
        },
        ..Default::default()
    };
    let summary = run_match(&cfg, &args.out, &opts)?;
    for line in summary.lines() {
        println!("{line}");
    }
    Ok(())
}
