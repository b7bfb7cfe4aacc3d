//! `skillcal compare DIR... --out DIR`: the weakening families' calibrations side by side.

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::report;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  skillcal compare results/families/nodes results/families/gaussian --out results/compare"
)]
pub struct CompareArgs {
    /// Calibration run folders (`skillcal calibrate --out`), one per family.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Output folder: compare.md, compare.html, compare_targets.csv, compare_families.csv,
    /// compare_curves.svg, and for analysed families compare_play.csv, compare_acpl.svg and
    /// compare_blunders.svg.
    #[arg(long)]
    pub out: PathBuf,
    /// A family's label (default: its run's config name, else its folder's name). Repeatable.
    #[arg(long = "name", value_name = "LABEL=DIR")]
    pub names: Vec<String>,
    /// Human games analysed by `skillcal analyse --human` (its human.csv, or the folder holding
    /// it): adds compare_human.csv and a section setting every analysed family beside them.
    #[arg(long, value_name = "PATH")]
    pub human: Option<PathBuf>,
    /// More move-matching folders (`analyse --human --matching-only`), e.g. a family's knob at
    /// fixed values (`--match-as-given`): with --human's, they draw compare_tradeoff.svg, each
    /// setting's move-matching against the Elo it plays. Repeatable.
    #[arg(long, value_name = "DIR")]
    pub matching: Vec<PathBuf>,
}

/// `skillcal compare`: writes the comparison page and its files.
pub fn run(args: &CompareArgs) -> Result<()> {
    let mut dirs: Vec<(PathBuf, Option<String>)> =
        args.dirs.iter().map(|d| (d.clone(), None)).collect();
    for n in &args.names {
        let Some((label, dir)) = n.split_once('=') else {
            bail!("--name {n}: expected LABEL=DIR");
        };
        if label.trim().is_empty() {
            bail!("--name {n}: empty label");
        }
        // the folder as compare's own check sees it, however it is spelt
        let dir = PathBuf::from(dir);
        let Some(at) = dirs.iter().position(|(d, _)| report::same_folder(d, &dir)) else {
            bail!(
                "--name {n}: {} is not one of the folders compared",
                dir.display()
            );
        };
        dirs[at].1 = Some(label.trim().to_string());
    }
    for (dir, _) in &dirs {
        super::report::check_engine_table(dir)?;
    }
    let options = report::CompareOptions {
        human: args.human.clone(),
        matching: args.matching.clone(),
        ..Default::default()
    };
    let html = report::compare(&dirs, &args.out, &options)?;
    eprintln!("comparison: {}", html.display());
    Ok(())
}
