//! `skillcal init --engine CMD`: starts the engine once through the arena's UCI handshake and
//! writes the calibration config its declarations call for (`calibrate::config::starter`).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, Result};

use crate::arena::{probe_engine, LaunchSpec};
use crate::calibrate::config::{pool_dir, write_starter, EngineLine, StarterOptions, TableLimit};

/// How long an engine may take to answer `uci` with `uciok`.
const HANDSHAKE: Duration = Duration::from_secs(10);

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  skillcal init --engine fairy-stockfish --out fairy.toml\n  \
                  skillcal calibrate fairy.toml --out fairy-run\n  \
                  skillcal init --engine \"gnuchess --uci\" --out gnuchess.toml\n  \
                  skillcal init --engine \"lc0 --weights=maia-1500.pb.gz\" --limit nodes=1"
)]
pub struct InitArgs {
    /// The engine's command line, quoted as a shell would: a program on PATH (or /usr/games) or
    /// a path, then its arguments ("gnuchess --uci").
    #[arg(long)]
    engine: String,
    /// The config to write.
    #[arg(long, default_value = "calibration.toml")]
    out: PathBuf,
    /// The limit every setting of a UCI_Elo or Skill Level path plays at, which the table
    /// holds at: nodes=N (default nodes=50000, the pool's own) or tc=BASE+INC (a clock, in
    /// seconds). An engine weakened by its node limit takes none.
    #[arg(long, value_name = "nodes=N|tc=BASE+INC", value_parser = TableLimit::parse)]
    limit: Option<TableLimit>,
    /// Games played at once (at most the cores the run may use).
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
}

/// `--engine`'s command line: the program found (PATH, /usr/games) and its arguments.
pub fn engine_line(engine: &str) -> Result<EngineLine> {
    let (command, args) =
        crate::arena::split_command_line(engine).map_err(|e| anyhow!("--engine {engine}: {e}"))?;
    let program = crate::arena::find_program(&command).map_err(|e| anyhow!("--engine {e}"))?;
    Ok(EngineLine {
        written: engine.to_string(),
        program,
        args,
    })
}

pub fn run(a: &InitArgs) -> Result<()> {
    if a.out.exists() {
        anyhow::bail!(
            "--out {}: exists; give another name or move it away",
            a.out.display()
        );
    }
    let line = engine_line(&a.engine)?;
    let spec = LaunchSpec {
        name: a.engine.clone(),
        program: line.program.clone(),
        args: line.args.clone(),
        dir: None,
        options: Vec::new(),
        seed_option: Some(String::new()),
    };
    let declared = probe_engine(&spec, HANDSHAKE)
        .map_err(|e| anyhow!("--engine {} does not speak UCI: {e}", a.engine))?;
    let why = write_starter(
        &a.out,
        &line,
        &declared,
        &StarterOptions {
            limit: a.limit.clone(),
            concurrency: a.concurrency,
        },
    )?;
    outln!("wrote {} ({why})", a.out.display());
    outln!(
        "wrote {}/ (the reference pool and the book)",
        pool_dir(&a.out).display()
    );
    outln!("next: skillcal calibrate {} --out run", a.out.display());
    Ok(())
}
