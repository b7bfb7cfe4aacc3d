//! Calibration: plan games, fit Elo against the knobs, invert into a UCI_Elo table, verify it.

#[derive(clap::Args, Debug)]
pub struct CalibrateArgs {
    /// Calibration configuration (TOML).
    pub config: std::path::PathBuf,
    /// Output directory.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// UCI_Elo table to verify.
    pub table: std::path::PathBuf,
}

pub fn run(_args: &CalibrateArgs) -> anyhow::Result<()> {
    anyhow::bail!("calibrate: not built yet")
}

pub fn run_verify(_args: &VerifyArgs) -> anyhow::Result<()> {
    anyhow::bail!("verify: not built yet")
}
