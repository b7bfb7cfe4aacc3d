//! Batch games between UCI engine processes.

#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// Match configuration (TOML).
    #[arg(long)]
    pub config: Option<std::path::PathBuf>,
    /// Output directory (games.pgn, games.csv); rerunning on it resumes.
    #[arg(long)]
    pub out: std::path::PathBuf,
}

pub fn run(_args: &MatchArgs) -> anyhow::Result<()> {
    anyhow::bail!("match: not built yet")
}
