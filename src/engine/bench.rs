//! `skillcal bench`: fixed positions, fresh TT each, one thread.

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth per position.
    pub depth: Option<u32>,
}

pub fn run(_args: &BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("bench: not built yet")
}
