//! `skillcal match`: the flags, turned into [`crate::arena::MatchOptions`].

use std::path::PathBuf;

use crate::arena::{self, MatchOptions};
use crate::store;

/// A count or limit given on the command line. Clap reads `-5` as an unknown flag; taken as a
/// value, a negative number is named as one.
fn unsigned<T: std::str::FromStr>(s: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    if s.parse::<i128>().is_ok_and(|n| n < 0) {
        return Err("cannot be negative".into());
    }
    s.parse::<T>().map_err(|e| e.to_string())
}

fn node_count(s: &str) -> Result<u64, String> {
    unsigned(s).map_err(|e| match e.as_str() {
        "cannot be negative" => "a node count cannot be negative".to_string(),
        _ => e,
    })
}

/// `skillcal match`: a config file, flags for the common cases, or both (flags win). Paths
/// inside the config file are relative to its folder; paths given here to the working
/// directory.
#[derive(clap::Args, Debug, Default)]
#[command(
    after_help = "Example:\n  skillcal match --engine builtin --engine stockfish --nodes 20000 --rounds 10 --out results/m1"
)]
pub struct MatchArgs {
    /// Match configuration (TOML): besides what the flags set, adjudication, per-engine limits
    /// and names, book order and plies, games per opening, the time margin.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Output directory (games.pgn, games.csv); rerunning on it resumes, and a rerun that would
    /// change the games (engines, limits, openings, adjudication, seed, pairing) is refused;
    /// rounds, games and concurrency may change.
    #[arg(long)]
    pub out: PathBuf,
    /// Engine (repeatable; replaces the config's engines): `builtin`, `builtin:K=V,K=V`,
    /// a command, or `COMMAND:K=V,...` (UCI options).
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// Openings per pairing, each played games_per_opening times (2 by default: colours
    /// swapped) [default: 1, or the config's].
    #[arg(long, allow_hyphen_values = true, value_parser = unsigned::<u32>)]
    pub rounds: Option<u32>,
    /// Games per pairing: without --rounds, N games (the rounds they take, as cutechess's
    /// -games); with --rounds, a cap, at most ROUNDS x games_per_opening.
    #[arg(long, allow_hyphen_values = true, value_parser = unsigned::<u32>)]
    pub games: Option<u32>,
    /// Games at the same time [default: 1, or the config's].
    #[arg(long, allow_hyphen_values = true, value_parser = unsigned::<usize>)]
    pub concurrency: Option<usize>,
    /// Node limit per move, for every engine without its own in --config; `go` sends every
    /// limit given (nodes, clock, movetime, depth), so they combine.
    #[arg(long, allow_hyphen_values = true, value_parser = node_count)]
    pub nodes: Option<u64>,
    /// Clock, seconds: `base+inc`, `moves/base+inc`, base as `m:ss` too (as --nodes: every
    /// engine without its own limits, combined with the others).
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move, milliseconds (as --nodes).
    #[arg(long, allow_hyphen_values = true, value_parser = unsigned::<u64>)]
    pub movetime: Option<u64>,
    /// Depth limit (as --nodes).
    #[arg(long, allow_hyphen_values = true, value_parser = unsigned::<u32>)]
    pub depth: Option<u32>,
    /// Opening book, .epd / .fen or .pgn by its extension [default: configs/books/2moves_v1.epd,
    /// random order; order, plies and start only in --config].
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Seed of the opening order and of each game's seed [default: 1, or the config's].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Round robin instead of the default gauntlet (the first engine against each other one).
    #[arg(long)]
    pub round_robin: bool,
    /// Draw games reaching this many plies (at least 1).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Print a summary every N games (0: only at the end) [default: 50, or the config's].
    #[arg(long)]
    pub summary_every: Option<u32>,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Stop by fishtest's GSPRT of the first engine against the second (logistic Elo; the
    /// normalized model: `[sprt] model` in --config): `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA`
    /// (ELO0 < ELO1; alpha, beta in (0, 0.5), default 0.05). Two engines and
    /// games_per_opening = 2 only. Negative bounds as they are: `--sprt -3,1`.
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 1,
        allow_hyphen_values = true,
        value_name = "ELO0,ELO1[,ALPHA,BETA]"
    )]
    pub sprt: Vec<f64>,
    /// Play through the PostgreSQL store (postgres://USER:PASSWORD@HOST:PORT/DB, or
    /// $SKILLCAL_STORE): enqueue the games, wait while `skillcal worker`s play them, then
    /// write them to --out. The same games as without it (node-bounded engines).
    #[arg(long, value_name = "URL")]
    pub store: Option<String>,
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
pub fn run(mut args: MatchArgs) -> anyhow::Result<()> {
    let summary = match super::store::optional_store(&args.store.take()) {
        Some(url) => run_stored(args.into(), &url)?,
        None => arena::run(&args.into())?,
    };
    for line in summary.lines() {
        outln!("{line}");
    }
    Ok(())
}

/// The match through the store: the options' config, played by workers.
fn run_stored(opts: MatchOptions, url: &str) -> anyhow::Result<arena::MatchSummary> {
    let cfg = opts.to_config()?;
    let run_opts = arena::RunOptions {
        book_source: match (&opts.book, &opts.config) {
            (Some(_), _) => Some("--book".into()),
            (None, Some(p)) => Some(p.display().to_string()),
            (None, None) => None,
        },
        ..Default::default()
    };
    let wait = store::WaitOptions {
        progress: !opts.no_progress,
        reconnect: store::DEFAULT_RECONNECT,
    };
    Ok(store::run_match(&cfg, &opts.out, url, &run_opts, &wait)?)
}
