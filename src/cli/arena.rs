//! `skillcal match`: the flags, turned into [`crate::arena::MatchOptions`].

use std::path::PathBuf;

use crate::arena::{self, MatchOptions};

/// `skillcal match`: a config file, flags for the common cases, or both (flags win). Paths
/// inside the config file are relative to its folder; paths given here to the working
/// directory.
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

impl From<MatchArgs> for MatchOptions {
    fn from(a: MatchArgs) -> MatchOptions {
        MatchOptions {
            config: a.config,
            out: a.out,
            engines: a.engines,
            rounds: a.rounds,
            games: a.games,
            concurrency: a.concurrency,
            nodes: a.nodes,
            tc: a.tc,
            movetime: a.movetime,
            depth: a.depth,
            book: a.book,
            seed: a.seed,
            round_robin: a.round_robin,
            max_plies: a.max_plies,
            summary_every: a.summary_every,
            no_progress: a.no_progress,
            sprt: a.sprt,
        }
    }
}

/// Runs the match and prints its summary.
pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    let summary = arena::run(&args.into())?;
    for line in summary.lines() {
        outln!("{line}");
    }
    Ok(())
}
