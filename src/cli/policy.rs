//! `skillcal policy`: a network's policy over the legal moves and its value for one position.

use anyhow::Context;

use crate::policy::{bench, game, Evaluator, Net};

#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  skillcal policy --net 1500 --moves e2e4 e7e5")]
pub struct PolicyArgs {
    /// The network: a Maia band shipped inside skillcal (1100, 1200, ..., 1900) or the path of
    /// an lc0 network file (.pb.gz).
    #[arg(long, default_value = "1100")]
    pub net: String,
    /// The position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from it in UCI notation (e2e4 e7e5 ...): the network sees them as history.
    #[arg(long, num_args = 0..)]
    pub moves: Vec<String>,
    /// Softmax temperature over the legal moves (1: the network's own distribution).
    #[arg(long, default_value_t = 1.0)]
    pub temperature: f32,
}

/// Prints `move probability` per legal move, most likely first, then `wdl W D L`.
pub fn run(args: &PolicyArgs) -> anyhow::Result<()> {
    if !(args.temperature > 0.0 && args.temperature.is_finite()) {
        anyhow::bail!("--temperature {}: must be above 0", args.temperature);
    }
    let net = Net::from_arg(&args.net)?;
    let positions = game::positions(args.fen.as_deref(), &args.moves)
        .with_context(|| "the position to evaluate")?;
    let mut eval = Evaluator::new(net, 1);
    let e = eval.evaluate(&positions);
    for (m, p) in e.sorted(args.temperature) {
        outln!("{} {p:.6}", m.to_uci(shakmaty::CastlingMode::Standard));
    }
    outln!("wdl {:.6} {:.6} {:.6}", e.wdl[0], e.wdl[1], e.wdl[2]);
    Ok(())
}

#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  skillcal policy-bench --net 1500 --batch 16")]
pub struct PolicyBenchArgs {
    /// The network: a Maia band (1100 ... 1900) or an lc0 network file.
    #[arg(long, default_value = "1100")]
    pub net: String,
    /// Positions evaluated at once.
    #[arg(long, default_value_t = 1)]
    pub batch: usize,
    /// Positions to evaluate (after a warm-up pass).
    #[arg(long, default_value_t = 2000)]
    pub evaluations: usize,
}

/// Prints `N positions in S s: P positions a second (batch B, one thread)`.
pub fn run_bench(args: &PolicyBenchArgs) -> anyhow::Result<()> {
    if args.batch == 0 || args.evaluations == 0 {
        anyhow::bail!("--batch and --evaluations must be at least 1");
    }
    let net = Net::from_arg(&args.net)?;
    let r = bench::run(&net, args.batch, args.evaluations);
    outln!(
        "{} positions in {:.3} s: {:.1} positions a second (net {}, batch {}, one thread)",
        r.evaluations,
        r.elapsed.as_secs_f64(),
        r.per_second(),
        net.name,
        r.batch
    );
    Ok(())
}
