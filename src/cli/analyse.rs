//! `skillcal analyse`: arguments for the play analysis (reference-engine evaluation of games,
//! move-quality figures, human comparison).

use crate::analysis::{AnalysisEngine, EngineProcess, Limit};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  skillcal analyse results/m1 --out results/m1-analysis --limit nodes=15000"
)]
pub struct AnalyseArgs {
    /// PGN files, or run folders in which every games.pgn below is read.
    games: Vec<std::path::PathBuf>,
    /// Output folder: analysis.csv, moves.csv, analysis.md, eval-cache.csv (human.csv,
    /// matching.csv with --human; levels.csv when the input is one calibration folder).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Reference engine: PROGRAM[:Name=Value,...] or builtin[:...]; Threads=1 and Hash=16 unless set.
    #[arg(long, default_value = "stockfish")]
    engine: String,
    /// A UCI option for the reference engine (repeatable).
    #[arg(long = "engine-option", value_name = "NAME=VALUE")]
    engine_options: Vec<String>,
    /// Reference search limit: nodes=N, depth=N (1 to 245) or movetime=MS (N, MS at least 1).
    #[arg(long, default_value = "nodes=15000")]
    limit: String,
    /// Engine processes in parallel.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: u32,
    /// Bootstrap resamples (over games) for the 95% intervals, 100 to 1,000,000; 0: no
    /// intervals.
    #[arg(long, default_value_t = 1000, value_parser = bootstrap_count)]
    bootstrap: usize,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rated human games (WhiteElo / BlackElo) to compare with, per rating band: PGN files,
    /// plain, .pgn.zst or .pgn.gz (one or more; give other games before it).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    human: Vec<std::path::PathBuf>,
    /// Move-matching on the --human games only, streamed (any size; no reference engine, no
    /// human.csv): writes matching.csv and matching.md, resuming what --out holds.
    #[arg(long, requires = "human")]
    matching_only: bool,
    /// Human ratings to match, LOW-HIGH inclusive, e.g. 800-2499 (the mover's rating).
    #[arg(long, value_name = "LOW-HIGH", value_parser = elo_range, requires = "human")]
    bands: Option<(u32, u32)>,
    /// Skip human games whose TimeControl base is under this many seconds (and games without a
    /// readable TimeControl).
    #[arg(long, value_name = "SECONDS", requires = "human")]
    tc_min_base: Option<u32>,
    /// Skip human games whose TimeControl base is over this many seconds (and games without a
    /// readable TimeControl).
    #[arg(long, value_name = "SECONDS", requires = "human")]
    tc_max_base: Option<u32>,
    /// Move-matching skips the plies before this one (Maia's protocol: 10).
    #[arg(long, default_value_t = 10, requires = "human")]
    min_ply: usize,
    /// Move-matching skips moves made with under this many seconds left, where [%clk] says.
    #[arg(long, default_value_t = 30.0, requires = "human")]
    min_clock: f64,
    /// Move-matching keeps only moves the mover started with under this many seconds on the
    /// clock (time trouble; games without [%clk] and a TimeControl are left out). With
    /// `--min-clock 0 --max-clock 30`: every move made with under 30 s.
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds, requires = "human")]
    max_clock: Option<f64>,
    /// Move-matching on a seeded sample of N positions per band (rounded up to a multiple of
    /// 100) instead of every position; a larger N with the same seed keeps what was measured.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), requires = "human")]
    sample_positions: Option<u64>,
    /// Seed of the --sample-positions draw.
    #[arg(long, default_value_t = 1, requires = "human")]
    sample_seed: u64,
    /// Move-matching records its work every this many games of a file (a killed run loses at
    /// most one chunk).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..), requires = "human")]
    chunk_games: u64,
    /// Move-matching engine (repeatable; with --human); gets UCI_LimitStrength=true and UCI_Elo
    /// = band middle, unless --match-as-given.
    #[arg(
        long = "match-engine",
        default_value = "builtin:RandomSeed=1",
        requires = "human"
    )]
    match_engines: Vec<String>,
    /// Move-matching engines play at the strength their own options set (a knob's value, e.g.
    /// builtin:Style=human,HumanStrength=300): no UCI_LimitStrength, no per-band UCI_Elo.
    #[arg(long, requires = "human")]
    match_as_given: bool,
    /// Move-matching search limit (with --human): nodes=N, depth=N or movetime=MS (default:
    /// nodes=10000000 for the built-in engine, so each table row's own LimitNodes binds;
    /// nodes=50000 for others), or `clock`: the person's own clocks before the move (`go wtime
    /// btime winc binc`), for an engine that plays by its clock (e.g. HumanTime=true with
    /// HumanTimeScale=1, so its think time is 1% of a person's).
    #[arg(long, requires = "human")]
    match_limit: Option<String>,
    /// Rating band width for human games (with --human), 1 to 4000.
    #[arg(
        long,
        default_value_t = 100,
        value_parser = clap::value_parser!(u32).range(1..=4000),
        requires = "human"
    )]
    band: u32,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
}

/// `LOW-HIGH`, LOW <= HIGH.
fn elo_range(s: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = s
        .split_once('-')
        .ok_or_else(|| format!("`{s}` is not LOW-HIGH (e.g. 800-2499)"))?;
    let num = |v: &str| {
        v.trim()
            .parse::<u32>()
            .map_err(|e| format!("`{v}` in `{s}`: {e}"))
    };
    let (lo, hi) = (num(lo)?, num(hi)?);
    if lo > hi {
        return Err(format!("`{s}`: LOW is above HIGH"));
    }
    Ok((lo, hi))
}

/// A 95% interval reads its 2.5% tails from the resamples, so it takes as many as `rate`'s
/// bootstrap does: 0 (no intervals) or [`MIN_BOOTSTRAP`] to [`MAX_BOOTSTRAP`].
fn bootstrap_count(s: &str) -> Result<usize, String> {
    use crate::rating::{MAX_BOOTSTRAP, MIN_BOOTSTRAP};
    match s.parse::<usize>() {
        Ok(n) if n == 0 || (MIN_BOOTSTRAP..=MAX_BOOTSTRAP).contains(&n) => Ok(n),
        Ok(_) => Err(format!(
            "0 (no intervals) or {MIN_BOOTSTRAP} to {MAX_BOOTSTRAP} resamples"
        )),
        Err(e) => Err(e.to_string()),
    }
}

pub fn run(a: &AnalyseArgs) -> anyhow::Result<()> {
    let mut opts = crate::analysis::AnalyseOptions::new(a.games.clone(), a.out.clone())?;
    let limit = Limit::parse(&a.limit)?;
    let mut engine = AnalysisEngine::parse_spec(&a.engine, limit)?;
    let given = std::mem::take(&mut engine.options);
    engine.options = vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())];
    for (k, v) in given {
        engine = engine.with_option(&k, &v);
    }
    for kv in &a.engine_options {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("--engine-option '{kv}' is not NAME=VALUE"))?;
        engine = engine.with_option(k.trim(), v.trim());
    }
    opts.engine = engine;
    opts.concurrency = a.concurrency as usize;
    opts.bootstrap = a.bootstrap;
    opts.seed = a.seed;
    opts.human = a.human.clone();
    let match_limit = a
        .match_limit
        .as_deref()
        .map(Limit::parse)
        .transpose()
        .map_err(|e| anyhow::anyhow!("--match-limit: {e}"))?;
    opts.match_engines = a
        .match_engines
        .iter()
        .map(|s| {
            let limit = match_limit.unwrap_or_else(|| crate::analysis::default_match_limit(s));
            AnalysisEngine::parse_spec(s, limit)
        })
        .collect::<Result<_, _>>()?;
    opts.match_as_given = a.match_as_given;
    opts.filter.band = a.band;
    if let Some((lo, hi)) = a.bands {
        opts.filter.min_elo = lo;
        opts.filter.max_elo = hi;
    }
    opts.filter.tc_min_base = a.tc_min_base;
    opts.filter.tc_max_base = a.tc_max_base;
    opts.filter.min_ply = a.min_ply;
    opts.filter.min_clock = a.min_clock;
    opts.filter.max_clock = a.max_clock;
    opts.sample_positions = a.sample_positions.map(|n| n as usize);
    opts.sample_seed = a.sample_seed;
    opts.chunk_games = a.chunk_games as usize;
    opts.matching_only = a.matching_only;
    opts.quiet = a.quiet;
    // each engine started once (program, options) before any work: a bad option failed only
    // inside the evaluation, after the folder and its cache were written
    if !opts.matching_only {
        EngineProcess::start(&opts.engine)
            .map_err(|e| anyhow::anyhow!("--engine {}: {e}", a.engine))?;
    }
    if !opts.human.is_empty() {
        for (spec, m) in a.match_engines.iter().zip(&opts.match_engines) {
            EngineProcess::start(m).map_err(|e| anyhow::anyhow!("--match-engine {spec}: {e}"))?;
        }
    }
    let r = crate::analysis::run(&opts)?;
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    if opts.matching_only {
        let c = &r.human_counts;
        outln!(
            "{} human games read, {} kept ({} positions to match), {} positions evaluated by this run",
            c.games, c.kept, c.probes, r.match_evaluations
        );
        outln!("wrote {}", opts.out.join("matching.csv").display());
    }
    if !opts.human.is_empty() {
        if let Some(svg) = crate::report::compare::write_matching_plot(&opts.out)? {
            outln!("wrote {}", svg.display());
        }
    }
    if opts.matching_only {
        return Ok(());
    }
    outln!(
        "{} games ({} moves analysed), {} human games, {} positions ({} searched by the reference engine, {} by move-matching engines)",
        r.games, r.moves, r.human_games, r.positions, r.engine_evaluations, r.match_evaluations
    );
    outln!("wrote {}", opts.out.join("analysis.md").display());
    // One calibration folder: its levels table at once (`skillcal report RUN` rewrites it from
    // RUN/analysis).
    if let [run] = a.games.as_slice() {
        if run.join("fit_points.csv").is_file() {
            if let Some(l) = crate::report::levels::levels_in(run, &opts.out)? {
                let path = crate::report::levels::write_levels(&opts.out, &l)?;
                outln!(
                    "wrote {} ({} tested settings, {} pool members)",
                    path.display(),
                    l.subjects.len(),
                    l.pool.len()
                );
                outln!("{}", crate::report::levels::trend_sentence(&l));
            }
        }
    }
    Ok(())
}

/// A number of seconds above 0.
fn positive_seconds(v: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
        _ => Err(format!("'{v}' is not a number of seconds above 0")),
    }
}
