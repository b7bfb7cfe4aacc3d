//! The `skillcal` command line: clap types, dispatch to the library, exit codes. Nothing
//! below this module knows about clap; each subcommand's arguments become the plain options
//! struct of the module that does the work.
//!
//! Exit codes: 0 success, 1 an error (printed as `error: ...` on stderr), 2 bad usage
//! (clap's own messages).

/// `outln!` that never panics: with stdout closed early (`skillcal verify ... | head`) a
/// run goes on to write its files; the lines are dropped.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` that never panics (see `outln!`).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

mod analyse;
mod arena;
mod calibrate;
mod compare;
mod engine;
mod init;
mod jobs;
mod policy;
mod rate;
mod report;
mod store;
mod think_time;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "skillcal",
    version,
    about = "Calibrated playing strength: a UCI chess engine whose strength is set in Elo, and the tools that calibrate any UCI engine's strength settings",
    long_about = None,
    after_help = "Examples:\n  skillcal init --engine /path/to/engine     # a calibration config for your engine\n  \
                  skillcal calibrate calibration.toml --out run\n  \
                  skillcal match --engine builtin --engine stockfish --nodes 20000 --rounds 10 --out m1\n  \
                  skillcal rate m1/games.csv\n  \
                  skillcal                                   # the engine: see `skillcal uci --help`\n\n\
                  Each command's --help ends with an example."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the built-in engine speaking UCI on stdin/stdout (also the default without a subcommand).
    ///
    /// To play a level, set three options: UCI_LimitStrength true; UCI_EloScale, the rating list
    /// UCI_Elo is read on (pool, the default, lichess-blitz or lichess-rapid; a blitz and a rapid
    /// target differ by about 190); UCI_Elo, the level.
    ///
    /// Style sets how a level plays: human (the default: Maia networks' moves), nodes, inaccuracy,
    /// gaussian, gbm, evalnoise or blend (the engine's own search, weakened), each with its own
    /// UCI_Elo table; maia plays one Maia network's policy (MaiaNet), with no table.
    ///
    /// Every option: docs/reference/uci-options.md.
    #[command(
        after_help = "Example:\n  printf 'uci\\nsetoption name UCI_LimitStrength value true\\nsetoption name \
                      UCI_EloScale value lichess-blitz\\nsetoption name UCI_Elo value 1500\\nposition \
                      startpos\\ngo wtime 60000 btime 60000\\n' | skillcal uci"
    )]
    Uci,
    /// Search a fixed list of positions and print `N nodes M nps` (deterministic N).
    Bench(engine::BenchArgs),
    /// Count leaf nodes of the legal move tree.
    Perft(engine::PerftArgs),
    /// A network's policy over the legal moves and its win/draw/loss for one position (Maia nets
    /// shipped inside skillcal, or any lc0 network file).
    Policy(policy::PolicyArgs),
    /// The network's speed: positions evaluated a second on one thread (scripts/policy-bench.sh
    /// compares it with lc0's).
    PolicyBench(policy::PolicyBenchArgs),
    /// Run (or resume) a batch of games between UCI engines.
    Match(arena::MatchArgs),
    /// Rate players from games.csv or PGN files.
    Rate(rate::RateArgs),
    /// Write a commented calibration config for a UCI engine, from the options it declares.
    Init(init::InitArgs),
    /// Calibrate a UCI engine's strength setting (the built-in engine's or any other's) against a
    /// reference pool: the UCI_Elo table of a strength path.
    Calibrate(calibrate::CalibrateArgs),
    /// Measure the reference pool's own scale (its ladder) once, for calibrations to load.
    Pool(calibrate::PoolArgs),
    /// Play fresh games at several UCI_Elo levels and compare measured with target strength.
    Verify(calibrate::VerifyArgs),
    /// Play UCI_Elo levels at several clocks (default 10+0.1,60+0.6): pass when the difference's
    /// 95% interval lies within ±50, FAIL when wholly beyond, else inconclusive.
    TcCheck(calibrate::TcCheckArgs),
    /// Compare calibrated families: every curve on one plot, settings and node cost at each
    /// target, budget, covered range, verification and time-control check.
    Compare(compare::CompareArgs),
    /// Write report.md / report.html with plots for a results directory (a pool folder: refit as
    /// `pool --fit-only` does, report.md only).
    Report(report::ReportArgs),
    /// How each player plays: every position judged by a reference engine (centipawn loss,
    /// Lichess's accuracy and judgements, blunders by state and phase), human comparison.
    Analyse(analyse::AnalyseArgs),
    /// The PostgreSQL store: `store init` creates or migrates its tables.
    Store(store::StoreArgs),
    /// Claim work units from the store and play them with this machine's engines (a pull
    /// worker; start it by hand, in a Slurm job array or a Kubernetes Job).
    Worker(store::WorkerArgs),
    /// Write a run of the store as a run folder (games.csv, games.pgn, its config).
    Export(store::ExportArgs),
    /// A person's think time: fit a model on clocked games, check one against people.
    ThinkTime(think_time::ThinkTimeArgs),
}

/// Every flag or argument that takes a value takes a negative number too (`--temperature -1`),
/// so the number reaches its flag's own check ("must be above 0") instead of clap taking it for
/// an unknown flag.
fn negative_numbers(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|a| {
        if a.get_action().takes_values() {
            a.allow_negative_numbers(true)
        } else {
            a
        }
    })
    .mut_subcommands(negative_numbers)
}

/// Parses the command line, runs the subcommand, and turns its outcome into the exit code.
pub fn main() -> ExitCode {
    let matches = negative_numbers(Cli::command()).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        None | Some(Command::Uci) => crate::engine::run_stdio().map_err(Into::into),
        Some(Command::Bench(args)) => engine::bench(args),
        Some(Command::Perft(args)) => engine::perft(args),
        Some(Command::Policy(args)) => policy::run(&args),
        Some(Command::PolicyBench(args)) => policy::run_bench(&args),
        Some(Command::Match(args)) => arena::run(args),
        Some(Command::Rate(args)) => rate::run(&args),
        Some(Command::Init(args)) => init::run(&args),
        Some(Command::Calibrate(args)) => calibrate::run(&args),
        Some(Command::Pool(args)) => calibrate::run_pool(&args),
        Some(Command::Verify(args)) => calibrate::run_verify(&args),
        Some(Command::TcCheck(args)) => calibrate::run_tc_check(&args),
        Some(Command::Compare(args)) => compare::run(&args),
        Some(Command::Report(args)) => report::run(&args),
        Some(Command::Analyse(args)) => analyse::run(&args),
        Some(Command::Store(args)) => store::run_store(&args),
        Some(Command::Worker(args)) => store::run_worker(&args),
        Some(Command::Export(args)) => store::run_export(&args),
        Some(Command::ThinkTime(args)) => think_time::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", error_text(&err));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes joined by ": ", as anyhow's `{:#}` does, but leaving out a cause
/// whose text the message already holds: most of our errors print their source in their own
/// message (`cannot read PATH: {source}`) and also return it as `source()`, which `{:#}` would
/// print twice.
pub fn error_text(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}
