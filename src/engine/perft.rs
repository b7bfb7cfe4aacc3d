//! `skillcal perft`: legal move tree leaf counts.

#[derive(clap::Args, Debug)]
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

pub fn run(_args: &PerftArgs) -> anyhow::Result<()> {
    anyhow::bail!("perft: not built yet")
}
