//! What an analysis is asked (`AnalyseOptions`, the default reference and matching engines) and
//! what it returns (`AnalyseResult`, each group's figures and their columns).

use std::path::PathBuf;

use super::error::Result;
use super::figures::{bootstrap, counts, figures, Estimate, Sample, COUNTS, FIGURES};
use super::input::{self, HumanFilter};
use super::matching::MatchRow;
use super::reference::{self, EngineConfig, Limit};

/// Default reference-engine node limit.
pub const DEFAULT_NODES: u64 = 15_000;
/// Default node limit of a built-in move-matching engine: above every table's LimitNodes (the
/// largest row, blend's 2600, plays about 1.8 million), so each row plays its own limit, as in
/// the games that measured it. A `go nodes` below it would cut the strong rows short.
pub const DEFAULT_MATCH_NODES_BUILTIN: u64 = 10_000_000;
/// Default node limit of any other move-matching engine (it has no table to bound it).
pub const DEFAULT_MATCH_NODES_OTHER: u64 = 50_000;

/// The default move-matching limit for an engine spec (`builtin[:...]` or a program).
pub fn default_match_limit(spec: &str) -> Limit {
    Limit::Nodes(if reference::split_spec(spec).0 == "builtin" {
        DEFAULT_MATCH_NODES_BUILTIN
    } else {
        DEFAULT_MATCH_NODES_OTHER
    })
}

/// Everything `analyse` needs (the CLI fills it; no clap here).
#[derive(Clone, Debug)]
pub struct AnalyseOptions {
    /// PGN files, or folders in which every `games.pgn` below is read.
    pub inputs: Vec<PathBuf>,
    pub out: PathBuf,
    /// The reference engine (default: Stockfish, one thread, 16 MB hash, 15,000 nodes).
    pub engine: EngineConfig,
    /// Engine processes in parallel.
    pub concurrency: usize,
    /// Bootstrap resamples for the 95% intervals (0: no intervals).
    pub bootstrap: usize,
    pub seed: u64,
    /// Rated human games (WhiteElo / BlackElo; PGN, `.pgn.zst`, `.pgn.gz`) for the comparison.
    pub human: Vec<PathBuf>,
    /// Engines for move-matching; each is given `UCI_LimitStrength=true` and `UCI_Elo` = the
    /// band's middle (a `Style=maia` setting excepted: a network has no Elo).
    pub match_engines: Vec<EngineConfig>,
    /// Move-matching engines play at the strength their options set: no `UCI_LimitStrength`,
    /// no per-band `UCI_Elo` (to measure a knob's settings, as a trade-off against Elo).
    pub match_as_given: bool,
    /// Which human games and moves count, and the band width (Maia's protocol by default).
    pub filter: HumanFilter,
    /// Move-matching on a seeded sample of this many positions per band instead of all.
    pub sample_positions: Option<usize>,
    pub sample_seed: u64,
    /// Move-matching records its work in chunks of this many games of a file.
    pub chunk_games: usize,
    /// Human games for move-matching only: no reference engine, no figures (`human.csv`).
    pub matching_only: bool,
    /// No progress bars.
    pub quiet: bool,
}

impl AnalyseOptions {
    /// Defaults: Stockfish (`stockfish` on PATH or in /usr/games) with Threads=1, Hash=16 at
    /// 15,000 nodes; 2 processes; 1000 resamples, seed 1; bands of 100; Maia's filters (10
    /// plies, 30 s); the built-in engine for move-matching with RandomSeed=1, each row at its
    /// table's own LimitNodes ([`default_match_limit`]).
    pub fn new(inputs: Vec<PathBuf>, out: PathBuf) -> Result<AnalyseOptions> {
        Ok(AnalyseOptions {
            inputs,
            out,
            engine: default_reference(Limit::Nodes(DEFAULT_NODES))?,
            concurrency: 2,
            bootstrap: 1000,
            seed: 1,
            human: Vec::new(),
            match_engines: vec![EngineConfig::parse_spec(
                "builtin:RandomSeed=1",
                default_match_limit("builtin"),
            )?],
            match_as_given: false,
            filter: HumanFilter::new(100),
            sample_positions: None,
            sample_seed: 1,
            chunk_games: 500,
            matching_only: false,
            quiet: false,
        })
    }
}

/// Stockfish (`stockfish` on PATH, else /usr/games/stockfish; a missing program is reported when
/// the run starts it), one thread, 16 MB hash.
pub fn default_reference(limit: Limit) -> Result<EngineConfig> {
    let program = reference::find_program("stockfish")
        .unwrap_or_else(|_| PathBuf::from("/usr/games/stockfish"));
    Ok(EngineConfig {
        program,
        args: Vec::new(),
        options: vec![
            ("Threads".to_string(), "1".to_string()),
            ("Hash".to_string(), "16".to_string()),
        ],
        limit,
    })
}

/// One group's figures (a player, or a human band).
#[derive(Clone, Debug)]
pub struct GroupFigures {
    pub name: String,
    pub settings: String,
    pub games: usize,
    pub counts: [usize; 12],
    pub figures: [Estimate; 22],
}

/// What a run did and found.
#[derive(Clone, Debug, Default)]
pub struct AnalyseResult {
    pub games: usize,
    /// Games read from the human file.
    pub human_games: usize,
    pub moves: usize,
    /// Positions that needed the reference engine (distinct within each game).
    pub positions: usize,
    /// Positions the reference engine actually searched (0 when all were cached).
    pub engine_evaluations: usize,
    /// Positions the move-matching engines actually searched.
    pub match_evaluations: usize,
    /// What the human files held and what the filters kept.
    pub human_counts: input::Counts,
    pub players: Vec<GroupFigures>,
    pub human_bands: Vec<GroupFigures>,
    pub matching: Vec<MatchRow>,
    /// What the reader of results should know (a setting measured with two builds).
    pub warnings: Vec<String>,
}

/// Figures and intervals of one group.
pub fn group_figures(
    name: String,
    settings: String,
    samples: &[Sample],
    opts: &AnalyseOptions,
) -> GroupFigures {
    let all: Vec<&Sample> = samples.iter().collect();
    GroupFigures {
        name,
        settings,
        games: samples.len(),
        counts: counts(&all),
        figures: bootstrap(samples, opts.bootstrap, opts.seed, figures),
    }
}

/// Column names of analysis.csv / human.csv after `name,settings,games`.
pub fn figure_columns() -> Vec<String> {
    let mut cols: Vec<String> = COUNTS.iter().map(|s| s.to_string()).collect();
    for f in FIGURES {
        cols.push(f.to_string());
        cols.push(format!("{f}_lower"));
        cols.push(format!("{f}_upper"));
    }
    cols
}
