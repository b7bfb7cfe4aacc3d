//! `skillcal report DIR`.

use std::path::PathBuf;

use anyhow::Result;

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Results directory of a calibration (or verification) run.
    pub dir: PathBuf,
}

/// Writes the report of `DIR` and prints the HTML file's path.
pub fn run(args: &ReportArgs) -> Result<()> {
    let path = crate::report::generate(&args.dir)?;
    println!("{}", path.display());
    Ok(())
}
