//! Markdown / HTML / SVG rating reports.

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Results directory of a calibration run.
    pub dir: std::path::PathBuf,
}

pub fn run(_args: &ReportArgs) -> anyhow::Result<()> {
    anyhow::bail!("report: not built yet")
}
