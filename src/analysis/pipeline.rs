//! The analyse command's path, in the order a run takes it: read the games (`input`), evaluate
//! every position that needs the engine once (`reference`), judge each move and make each
//! player's figures (`figures`), measure move-matching on human games (`matching`), write the
//! files and pages (`report`).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use super::error::{AnalysisError, Result};
use super::figures::{band_samples, judge_game, needs_engine, MoveEval, Sample};
use super::input::{full_fen, pgn_files, position_key, read_pgn_bytes, read_pgn_file, GameMoves};
use super::matching::{self, MatchingOptions};
use super::options::{group_figures, AnalyseOptions, AnalyseResult, GroupFigures};
use super::reference::{evaluate_games, Eval, EvalCache};
use super::{input, report};
use crate::fsutil;

/// Runs the analysis and writes `analysis.csv`, `moves.csv`, `analysis.md` (and `human.csv`,
/// `matching.csv` with human games) into `opts.out`.
pub fn run(opts: &AnalyseOptions) -> Result<AnalyseResult> {
    if opts.inputs.is_empty() && opts.human.is_empty() {
        return Err(AnalysisError::Usage(
            "nothing to analyse: give PGN files or run folders (or --human)".into(),
        ));
    }
    for h in &opts.human {
        if !h.is_file() {
            return Err(AnalysisError::file(h, "no such file (--human)"));
        }
    }
    if opts.matching_only {
        return run_matching_only(opts);
    }
    let (games, human_games) = read_inputs(opts)?;
    // the output folder only once the input has been read: a bad path leaves nothing behind;
    // held for the whole run, as match and calibrate hold theirs, so two analyses never append
    // the same answers to one cache (a killed run's lock goes with its process)
    let _lock =
        crate::arena::lock_dir(&opts.out).map_err(|e| AnalysisError::Other(e.to_string()))?;
    let mut cache = EvalCache::open(&opts.out.join("eval-cache.csv"))?;

    // Each game's positions that need the engine, in the order played.
    let sequences: Vec<Vec<(String, String)>> = games
        .iter()
        .chain(human_games.iter())
        .map(|g| {
            g.positions
                .iter()
                .filter(|p| needs_engine(p))
                .map(|p| (position_key(p), full_fen(p)))
                .collect()
        })
        .collect();
    let (mut evals, engine_evaluations) = evaluate_games(
        &opts.engine,
        &sequences,
        opts.concurrency,
        &mut cache,
        "reference engine",
        opts.quiet,
    )?;
    let positions: usize = evals.iter().map(|e| e.len()).sum();
    let human_evals = evals.split_off(games.len());

    let (all_moves, players) = player_figures(&games, &evals, opts)?;

    let mut result = AnalyseResult {
        games: games.len(),
        human_games: human_games.len(),
        moves: all_moves.len(),
        positions,
        engine_evaluations,
        players,
        ..AnalyseResult::default()
    };

    if !human_games.is_empty() {
        let bands = band_samples(&human_games, &human_evals, &opts.filter)?;
        result.human_bands = bands
            .iter()
            .map(|(b, samples)| group_figures(b.label(), String::new(), samples, opts))
            .collect();
        let m = matching::run(&match_options(opts))?;
        result.matching = m.rows;
        result.match_evaluations = m.evaluations;
        result.human_counts = m.counts;
        result.warnings = m.warnings;
    }

    report::write_all(opts, &result, &all_moves)?;
    Ok(result)
}

/// The engine games and the human games of `opts`, read; input without a move to analyse is
/// refused, naming it.
fn read_inputs(opts: &AnalyseOptions) -> Result<(Vec<GameMoves>, Vec<GameMoves>)> {
    let mut games: Vec<GameMoves> = Vec::new();
    let mut empty: Vec<PathBuf> = Vec::new();
    for f in pgn_files(&opts.inputs)? {
        let read = read_pgn_file(&f)?;
        if read.iter().all(|g| g.moves.is_empty()) {
            empty.push(f);
        }
        games.extend(read);
    }
    let mut human_games = Vec::new();
    for h in &opts.human {
        // whole in memory, for the figures: --matching-only streams instead
        let mut bytes = Vec::new();
        let cap = fsutil::GAMES_CAP;
        std::io::Read::read_to_end(
            &mut std::io::Read::take(input::open(h, Default::default())?, cap + 1),
            &mut bytes,
        )
        .map_err(|e| AnalysisError::io("read", h, e))?;
        if bytes.len() as u64 > cap {
            return Err(AnalysisError::file(
                h,
                format!("over {cap} bytes of PGN to hold for the figures: use --matching-only, which streams"),
            ));
        }
        human_games.extend(read_pgn_bytes(h, &bytes)?);
    }
    // input without a move to analyse (not PGN, every game skipped, or book moves only) is
    // named, not analysed as nothing
    let moves = |g: &[GameMoves]| g.iter().map(|g| g.moves.len()).sum::<usize>();
    if moves(&games) + moves(&human_games) == 0 {
        let first = empty
            .first()
            .or(opts.human.first())
            .cloned()
            .unwrap_or_default();
        return Err(AnalysisError::file(
            &first,
            format!(
                "no move to analyse here (read as PGN: {} games, none with a move past its book; \
                 skipped games, if any, are named above)",
                games.len() + human_games.len()
            ),
        ));
    }
    for f in &empty {
        if !opts.quiet {
            eprintln!("warning: {}: no move to analyse (read as PGN)", f.display());
        }
    }
    Ok((games, human_games))
}

/// Every engine game's moves judged, and each player's figures from one sample per (game,
/// player).
fn player_figures(
    games: &[GameMoves],
    evals: &[HashMap<String, Eval>],
    opts: &AnalyseOptions,
) -> Result<(Vec<MoveEval>, Vec<GroupFigures>)> {
    let mut all_moves: Vec<MoveEval> = Vec::new();
    let mut by_player: BTreeMap<String, (String, Vec<Sample>)> = BTreeMap::new();
    for (g, evals) in games.iter().zip(evals) {
        let (moves, wa, ba) = judge_game(g, evals)
            .ok_or_else(|| AnalysisError::Other("an evaluation is missing".into()))?;
        for (name, settings, acc) in [
            (&g.white, &g.white_settings, wa),
            (&g.black, &g.black_settings, ba),
        ] {
            let mine: Vec<MoveEval> = moves
                .iter()
                .filter(|m| &m.player == name)
                .cloned()
                .collect();
            if mine.is_empty() {
                continue;
            }
            let entry = by_player
                .entry(name.clone())
                .or_insert_with(|| (String::new(), Vec::new()));
            if entry.0.is_empty() {
                entry.0 = settings.clone();
            }
            entry.1.push(Sample {
                moves: mine,
                game_accuracy: acc.into_iter().collect(),
            });
        }
        all_moves.extend(moves);
    }
    let players = by_player
        .into_iter()
        .map(|(name, (settings, samples))| group_figures(name, settings, &samples, opts))
        .collect();
    Ok((all_moves, players))
}

/// Move-matching on the human games alone: streamed, no reference engine; writes
/// `matching.csv` and `matching.md`.
fn run_matching_only(opts: &AnalyseOptions) -> Result<AnalyseResult> {
    if !opts.inputs.is_empty() {
        return Err(AnalysisError::Usage(
            "--matching-only measures the --human games alone: give no other games".into(),
        ));
    }
    std::fs::create_dir_all(&opts.out).map_err(|e| AnalysisError::io("create", &opts.out, e))?;
    let m = matching::run(&match_options(opts))?;
    let result = AnalyseResult {
        human_games: m.counts.kept as usize,
        match_evaluations: m.evaluations,
        human_counts: m.counts,
        matching: m.rows,
        warnings: m.warnings,
        ..AnalyseResult::default()
    };
    report::write_matching_only(opts, &result)?;
    Ok(result)
}

/// The move-matching part of the options.
fn match_options(o: &AnalyseOptions) -> MatchingOptions {
    MatchingOptions {
        human: o.human.clone(),
        out: o.out.clone(),
        filter: o.filter.clone(),
        match_engines: o.match_engines.clone(),
        as_given: o.match_as_given,
        sample_positions: o.sample_positions,
        sample_seed: o.sample_seed,
        chunk_games: o.chunk_games,
        concurrency: o.concurrency,
        bootstrap: o.bootstrap,
        seed: o.seed,
        quiet: o.quiet,
    }
}
