//! Elo estimation: pure functions, no I/O beyond reading game files.

#[derive(clap::Args, Debug)]
pub struct RateArgs {
    /// games.csv or PGN files.
    pub files: Vec<std::path::PathBuf>,
}

pub fn run(_args: &RateArgs) -> anyhow::Result<()> {
    anyhow::bail!("rate: not built yet")
}
