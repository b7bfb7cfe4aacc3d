//! The match a command line asks for ([`MatchOptions`], filled by `src/cli/arena.rs`):
//! a config file with flags applied over it.

use std::path::PathBuf;

use super::config::{EngineConfig, MatchConfig, Pairing, SprtConfig};
use super::driver::run_match;
use super::error::{config_bail, ArenaError, Result};
use super::run_options::RunOptions;
use super::summary::MatchSummary;

/// A match as the command line describes it: a config file, flags for the common cases, or
/// both (flags win). Paths inside the config file are relative to its folder; paths here
/// (`out`, `book`, engine commands) to the working directory.
#[derive(Clone, Debug, Default)]
pub struct MatchOptions {
    /// Match configuration (TOML).
    pub config: Option<PathBuf>,
    /// Output directory (games.pgn, games.csv); rerunning on it resumes.
    pub out: PathBuf,
    /// Engine (repeatable; replaces the config's engines): `builtin`, `builtin:K=V,K=V`,
    /// a command, or `COMMAND:K=V,...` (UCI options).
    pub engines: Vec<String>,
    /// Openings per pairing, each played games_per_opening times (2: colours swapped).
    pub rounds: Option<u32>,
    /// Games per pairing: without `rounds`, N games (the rounds they take, as cutechess's
    /// -games); with `rounds`, a cap.
    pub games: Option<u32>,
    /// Games at the same time.
    pub concurrency: Option<usize>,
    /// Node limit per move (all engines).
    pub nodes: Option<u64>,
    /// Clock for all engines, seconds: `base+inc` or `moves/base+inc`.
    pub tc: Option<String>,
    /// Fixed time per move, milliseconds (all engines).
    pub movetime: Option<u64>,
    /// Depth limit (all engines).
    pub depth: Option<u32>,
    /// Opening book (EPD or PGN).
    pub book: Option<PathBuf>,
    pub seed: Option<u64>,
    /// Round robin instead of gauntlet.
    pub round_robin: bool,
    /// Draw games reaching this many plies.
    pub max_plies: Option<u32>,
    /// Print a summary every N games (0: only at the end).
    pub summary_every: Option<u32>,
    /// No progress bar.
    pub no_progress: bool,
    /// Stop by fishtest's GSPRT of the first engine against the second (logistic Elo):
    /// `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA` (default alpha = beta = 0.05).
    pub sprt: Vec<f64>,
}

impl MatchOptions {
    /// The config file (if any) with the flags applied.
    pub fn to_config(&self) -> Result<MatchConfig> {
        let mut cfg = match &self.config {
            // validated below, with the flags laid over it (they replace the file's values)
            Some(p) => MatchConfig::read_file(p)?,
            None => MatchConfig::default(),
        };
        if !self.engines.is_empty() {
            cfg.engines = self
                .engines
                .iter()
                .map(|s| EngineConfig::from_spec(s))
                .collect::<Result<_>>()?;
            // the same engine twice (self-play) cannot be named on the command line: the second
            // is `NAME#2`, the third `NAME#3`
            let mut seen: Vec<String> = Vec::new();
            for e in &mut cfg.engines {
                let name = e.display_name()?;
                let n = seen.iter().filter(|s| **s == name).count();
                if n > 0 {
                    e.name = Some(format!("{name}#{}", n + 1));
                }
                seen.push(name);
            }
        }
        if cfg.engines.len() < 2 {
            config_bail!("match: give --config FILE or at least two --engine SPEC");
        }
        if let Some(r) = self.rounds {
            cfg.rounds = r;
        }
        if self.games.is_some() {
            cfg.games = self.games;
        }
        // `--games N` without `--rounds`: N games a pairing, the rounds they take (as
        // cutechess's `-games`), unless the config's rounds play more
        if let (Some(g), None) = (self.games, self.rounds) {
            let per_round = cfg.games_per_opening.max(1);
            cfg.rounds = cfg.rounds.max(g.div_ceil(per_round));
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
            _ => config_bail!("--sprt: give ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA"),
        };
        if sprt.is_some() {
            cfg.sprt = sprt;
        }
        cfg.validate().map_err(|e| self.locate(e))?;
        Ok(cfg)
    }

    /// A config error named where its value came from: the flag that set it, else the config
    /// file; with no config file, the flags that would set what is missing.
    fn locate(&self, e: ArenaError) -> ArenaError {
        // errors that name a file say where already; an engine's by its config key only
        let msg = &e.to_string();
        let keyed = match e {
            ArenaError::Config(_) | ArenaError::Context { .. } => true,
            ArenaError::Engine(_) => msg.starts_with("engines["),
            _ => false,
        };
        if !keyed {
            return e;
        }
        let flags = [
            ("games", "--games", self.games.is_some()),
            ("rounds", "--rounds", self.rounds.is_some()),
            ("concurrency", "--concurrency", self.concurrency.is_some()),
            (
                "summary_every",
                "--summary-every",
                self.summary_every.is_some(),
            ),
            (
                "adjudication.max_plies",
                "--max-plies",
                self.max_plies.is_some(),
            ),
            ("sprt", "--sprt", !self.sprt.is_empty()),
            ("limits.tc", "--tc", self.tc.is_some()),
            ("limits.nodes", "--nodes", self.nodes.is_some()),
            ("limits.movetime_ms", "--movetime", self.movetime.is_some()),
            ("limits.depth", "--depth", self.depth.is_some()),
        ];
        for (key, flag, given) in flags {
            let Some(rest) = msg.strip_prefix(key) else {
                continue;
            };
            if given && rest.starts_with(':') {
                return ArenaError::Config(format!("{flag}{rest}"));
            }
            // `sprt.alpha: ...` of `--sprt ELO0,ELO1,ALPHA,BETA`
            if given && rest.starts_with('.') {
                return ArenaError::Config(format!("{flag}: {}", &rest[1..]));
            }
        }
        if self.config.is_none() && msg.contains("no limit at all") {
            return ArenaError::Config(
                "no limit for the engines: give --nodes, --tc, --movetime or --depth".into(),
            );
        }
        if !self.engines.is_empty() {
            let i = msg
                .strip_prefix("engines[")
                .and_then(|r| r.split_once(']'))
                .and_then(|(i, _)| i.parse::<usize>().ok());
            if let Some(spec) = i.and_then(|i| self.engines.get(i)) {
                return ArenaError::Config(format!("--engine {spec}: {msg}"));
            }
        }
        match &self.config {
            // as MatchConfig::from_file names its own errors
            Some(p) if !msg.starts_with(&p.display().to_string()) => {
                ArenaError::Config(format!("{}: {msg}", p.display()))
            }
            _ => e,
        }
    }
}

/// Runs (or resumes) the match the options describe; the summary is for the caller to print.
pub fn run(args: &MatchOptions) -> Result<MatchSummary> {
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
    run_match(&cfg, &args.out, &opts).map_err(|e| args.locate(e))
}
