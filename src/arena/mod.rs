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
//! summary_every = 20          # W-D-L / Elo summary every N games (0: only at the end)
//! # skillcal_bin = "target/release/skillcal"   # for `builtin` engines
//! # stop_after_sweep = 8      # a pairing one engine has won all of, 8 games in, plays no more
//!
//! [limits]                    # defaults for every engine; any mix is sent with `go`
//! nodes = 20000
//! # tc = "10+0.1"  (or "40/60+0.5", "60"), movetime_ms = 100, depth = 8
//! # time_margin_ms = 100      # allowed lateness past the clock / movetime
//!
//! [openings]
//! file = "books/2moves_v1.epd" # .epd or .pgn; paths in a config are relative to its folder
//!                             # (default: the repository's configs/books/2moves_v1.epd)
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
//! # seed_option = "Seed"      # spin/string option; default: `Seed` or `RandomSeed` when offered; "" = never
//!
//! [[engines]]
//! command = "builtin:ScoreInaccuracy=50,LimitNodes=20000"  # the skillcal engine (`skillcal uci`)
//! ```
//!
//! # Library use
//!
//! ```no_run
//! use skillcal::arena::{run_match, EngineConfig, GoLimits, MatchConfig, RunOptions};
//! let cfg = MatchConfig {
//!     engines: vec![
//!         EngineConfig::from_spec("builtin:LimitNodes=5000").unwrap(),
//!         EngineConfig::from_spec("stockfish:Skill Level=0").unwrap(),
//!     ],
//!     limits: GoLimits { nodes: Some(20_000), ..Default::default() },
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
//! - Outputs: `games.csv` ([`CSV_HEADER`], one [`crate::results::GameRow`] per game, the one game record), `games.pgn`,
//!   `match.toml` (the config the directory belongs to). Both game files are append-only and
//!   flushed after every game; the CSV row is written last and marks a game as done.
//! - [`read_games_csv`] reads games.csv back.
//! - Terminations (games.csv `termination`): checkmate, stalemate, threefold, fifty_moves,
//!   insufficient_material, adjudication_resign, adjudication_draw, max_plies (drawn),
//!   time_forfeit (clock or movetime exceeded by more than the margin), illegal_move (also an
//!   unparseable `bestmove`), crash (process exited / closed its output / failed to start),
//!   stall (no `bestmove` within `stall_ms` under node/depth limits, or no `readyok`).
//!   In the last four the offender loses and its process is restarted for the next game.
//! - `white_settings` / `black_settings`: the engine's options as `Key=Value;Key=Value` (the
//!   table's sorted by name; `setoption` sends them in the order written).
//!
//! # Modules (after fastchess's layout)
//!
//! - the match: `options` (what the command line asks for), `config` (the TOML schema) and
//!   `config_check` (its checks),
//!   `collect` (each finished game stored, tallied, shown), `driver` (plan, lock, resume,
//!   workers), `schedule` (which games),
//!   `openings` (books), `sprt` (stopping rule), `stats` and `summary` (what a person reads),
//!   `snapshot` (`match.toml`), `store` (games.csv / games.pgn and their repair), `pgn`,
//!   [`lock`] (one run per directory)
//! - the players: `players` (resolution, PATH search, preflight and option checks),
//!   `uci_engine` (the UCI client, `UciEngine`), `uci_probe` (that client outside a match:
//!   [`probe_engine`] for `init`, [`BlockingEngine`] for `analyse`), `uci_parse` (its `info` and `bestmove` lines),
//!   `uci_option` (option declarations)
//! - one game: `game` (the loop and the rules), `time_control` ([`GoLimits`], clocks),
//!   `adjudication`, `outcome` ([`Termination`], the finished game)
//! - a match cut into work units for other processes (the store's workers): `unit`
//!   ([`plan_units`], [`UnitPlayer`])
//! - `error`: [`ArenaError`], every message naming its file, key or engine

mod adjudication;
mod collect;
mod config;
mod config_check;
mod engine_config;
pub(crate) use engine_config::resolve_table_option;
mod driver;
mod error;
mod game;
mod game_files;
pub mod lock;
mod openings;
mod options;
mod outcome;
mod pgn;
mod players;
mod run_options;
mod schedule;
mod snapshot;
mod sprt;
mod stats;
mod substitute;
mod summary;
mod sweep;
mod time_control;
mod uci_engine;
mod uci_option;
mod uci_parse;
mod uci_probe;
mod unit;

pub use config::{
    is_builtin_command, AdjudicationConfig, BookFormat, BookOrder, DrawRule, EngineConfig,
    MatchConfig, OpeningsConfig, Pairing, ResignRule, SprtConfig, Timeouts, UciOptions,
};
pub use driver::{run_match, run_match_async, run_matches};
pub use engine_config::split_command_line;
pub use error::{ArenaError, Result};
pub use game_files::{read_games_csv, CSV_HEADER};
pub use lock::{lock_dir, RunLock};
pub use openings::check as check_book;
pub use openings::Opening;
pub use options::{run, MatchOptions};
pub use outcome::{GameResult, Termination};
pub use pgn::hostname;
pub use players::{check_engines, find_program, skillcal_bin, this_skillcal};
pub use run_options::RunOptions;
pub use snapshot::SNAPSHOT_FILE;
pub use sprt::SprtStatus;
pub use stats::{elo_with_margin, PairingStats};
pub use substitute::{apply as substitute, VAR as SUBSTITUTE_VAR};
pub use summary::MatchSummary;
pub use sweep::{tracker_of as sweep_tracker, SweepTracker};
pub use time_control::{GoLimits, TimeControl};
pub use uci_engine::{EngineFault, LaunchSpec};
pub use uci_option::{OptionDecl, OptionKind};
pub use uci_parse::{parse_bestmove, parse_info, SearchInfo};
pub use uci_probe::{probe_engine, BlockingEngine, Declared, NodeLimit};
pub use unit::{
    plan_units, preflight_if_local, spec_from_text, spec_to_text, PlayedGame, Unit, UnitGame,
    UnitPlayer,
};
