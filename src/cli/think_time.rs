//! `skillcal think-time`: fit a person's think time on clocked games, and check a model against
//! people on games it was not fitted on.

use std::path::PathBuf;

use crate::strength::ThinkModel;
use crate::think_time::{meets_target, run_check, run_fit, target_band, Half, Selection, Speed};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  skillcal think-time fit lichess.pgn.zst --out model.toml\n  \
                  skillcal think-time check lichess.pgn.zst --model model.toml --out check"
)]
pub struct ThinkTimeArgs {
    #[command(subcommand)]
    pub command: ThinkTimeCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum ThinkTimeCommand {
    /// Fit a think-time model on clocked games (PGN with [%clk] and TimeControl; .pgn, .pgn.zst,
    /// .pgn.gz) and write it as a model file.
    #[command(
        after_help = "Example:\n  skillcal think-time fit lichess.pgn.zst --out model.toml\n  \
                            then, in the engine: setoption name HumanTimeModel value model.toml"
    )]
    Fit(FitArgs),
    /// Check a model against people: per rating band, the correlation of predicted and taken
    /// times, the mean, and the share of the clock left at moves 20 and 40 (think_time.csv and
    /// think_time.md in --out).
    #[command(
        after_help = "Example:\n  skillcal think-time check lichess.pgn.zst --model builtin --out check"
    )]
    Check(CheckArgs),
}

#[derive(clap::Args, Debug)]
pub struct ReadArgs {
    /// Clocked PGN files.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// Stop after this many games of the half (file order).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// Read only games whose TimeControl base is at least this many seconds (180: blitz and
    /// slower).
    #[arg(long)]
    pub min_base: Option<f64>,
    /// Read only games of this Lichess speed (base + 40 increments: ultrabullet under 30 s,
    /// bullet under 180, blitz under 480, rapid under 1500, classical); repeatable.
    #[arg(long = "speed")]
    pub speeds: Vec<Speed>,
    /// Threads evaluating positions with the Maia nets.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Also write every timed move read (clocks, seconds, the net's view) to this CSV.
    #[arg(long)]
    pub rows: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct FitArgs {
    #[command(flatten)]
    pub read: ReadArgs,
    /// The model file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Which games: `fit` or `check` (halves by a hash of the Site tag), or `all`.
    #[arg(long, default_value = "fit")]
    pub half: Half,
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub read: ReadArgs,
    /// The model: a file `think-time fit` wrote, or `builtin`.
    #[arg(long, default_value = "builtin")]
    pub model: String,
    /// The folder for think_time.csv and think_time.md.
    #[arg(long)]
    pub out: PathBuf,
    /// Which games: `check` (the half a fit leaves out), `fit` or `all`.
    #[arg(long, default_value = "check")]
    pub half: Half,
    /// The seed of the model's simulated times.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn selection(read: &ReadArgs, half: Half) -> anyhow::Result<Selection> {
    if read.concurrency == 0 {
        anyhow::bail!("--concurrency must be at least 1");
    }
    if read.max_games == Some(0) {
        anyhow::bail!("--max-games must be at least 1");
    }
    Ok(Selection {
        files: read.games.clone(),
        half,
        max_games: read.max_games,
        min_base: read.min_base,
        speeds: read.speeds.clone(),
        concurrency: read.concurrency,
        rows_csv: read.rows.clone(),
    })
}

/// The command line as typed, for the files that keep it.
fn command_line() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
}

pub fn run(args: &ThinkTimeArgs) -> anyhow::Result<()> {
    match &args.command {
        ThinkTimeCommand::Fit(a) => {
            let sel = selection(&a.read, a.half)?;
            let done = run_fit(&sel, &a.out, &command_line())?;
            outln!(
                "fitted on {} games, {} timed moves: {}",
                done.games,
                done.moves,
                a.out.display()
            );
        }
        ThinkTimeCommand::Check(a) => {
            let sel = selection(&a.read, a.half)?;
            let (model, name) = if a.model == "builtin" {
                (ThinkModel::embedded(), "the built-in model".to_string())
            } else {
                let path = PathBuf::from(&a.model);
                (
                    ThinkModel::load(&path).map_err(anyhow::Error::msg)?,
                    a.model.clone(),
                )
            };
            let done = run_check(&sel, &model, &name, &a.out, a.seed, &command_line())?;
            outln!(
                "{} games; band, moves, r (s), r (log), mean ratio, left at 20 people/model, left at 40 people/model",
                done.games
            );
            for r in done.rows.iter().filter(|r| r.time_control == "blitz") {
                outln!(
                    "blitz {:>9} {:>6} {:.2} {:.2} {:.2} {:.2}/{:.2} {:.2}/{:.2}{}",
                    r.band,
                    r.moves,
                    r.r_seconds,
                    r.r_log,
                    r.mean_ratio,
                    r.people_share_20,
                    r.model_share_20,
                    r.people_share_40,
                    r.model_share_40,
                    if target_band(&r.band) {
                        if meets_target(r) {
                            "  met"
                        } else {
                            "  not met"
                        }
                    } else {
                        ""
                    }
                );
            }
            outln!("{}", a.out.join("think_time.md").display());
        }
    }
    Ok(())
}
