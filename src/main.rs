//! The `skillcal` command line: parses arguments and hands each subcommand to the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

#[derive(Parser)]
#[command(name = "skillcal", version, about = "Calibrated playing strength for chess engines", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the built-in engine speaking UCI on stdin/stdout (also the default without a subcommand).
    Uci,
    /// Search a fixed list of positions and print `N nodes M nps` (deterministic N).
    Bench(skillcal::engine::bench::BenchArgs),
    /// Count leaf nodes of the legal move tree.
    Perft(skillcal::engine::perft::PerftArgs),
    /// Run (or resume) a batch of games between UCI engines.
    Match(skillcal::arena::MatchArgs),
    /// Rate players from games.csv or PGN files.
    Rate(cli::rate::RateArgs),
    /// Calibrate the built-in engine's strength knobs against a reference pool.
    Calibrate(cli::calibrate::CalibrateArgs),
    /// Measure the reference pool's own scale (its ladder) once, for calibrations to load.
    Pool(cli::calibrate::PoolArgs),
    /// Play fresh games at several UCI_Elo levels and compare measured with target strength.
    Verify(cli::calibrate::VerifyArgs),
    /// Write report.md / report.html with plots for a results directory.
    Report(cli::report::ReportArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Command::Uci) => skillcal::engine::uci::run_stdio(),
        Some(Command::Bench(args)) => skillcal::engine::bench::run(&args),
        Some(Command::Perft(args)) => skillcal::engine::perft::run(&args),
        Some(Command::Match(args)) => skillcal::arena::run(&args),
        Some(Command::Rate(args)) => cli::rate::run(&args),
        Some(Command::Calibrate(args)) => cli::calibrate::run(&args),
        Some(Command::Pool(args)) => cli::calibrate::run_pool(&args),
        Some(Command::Verify(args)) => cli::calibrate::run_verify(&args),
        Some(Command::Report(args)) => cli::report::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
