//! `skillcal bench` and `skillcal perft`: the built-in engine's benchmark and move-generator
//! check.

use crate::engine::{run_bench, BenchOptions};
use crate::engine::{run_perft, PerftOptions};

#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  skillcal bench")]
pub struct BenchArgs {
    /// Search depth per position (at least 1) [default: 11].
    pub depth: Option<u32>,
    /// A weakening option as `Name=Value` (repeatable), e.g. `--set ScoreInaccuracy=50`: the
    /// searches keep their depth (unless the option limits nodes, depth or speed: LimitNodes,
    /// LimitDepth, LimitNps, a UCI_Elo row), so the node count shows what the knob costs per
    /// depth. Random choices use `RandomSeed` (default 1 here, and 0 means 1, so the count is
    /// reproducible). Engine options such as Hash are refused.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  skillcal perft 5")]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Start position (default: the standard start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
}

pub fn bench(args: BenchArgs) -> anyhow::Result<()> {
    run_bench(&BenchOptions {
        depth: args.depth,
        set: args.set,
    })
    .map_err(Into::into)
}

pub fn perft(args: PerftArgs) -> anyhow::Result<()> {
    run_perft(&PerftOptions {
        depth: args.depth,
        fen: args.fen,
        divide: args.divide,
    })
    .map_err(Into::into)
}
