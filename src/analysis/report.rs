//! Output files: `analysis.csv` (one row per player), `moves.csv` (one row per analysed move),
//! `human.csv` (per band), `matching.csv` (per band and engine setting), and the pages
//! `analysis.md` and `matching.md` through the one document model.

use std::path::Path;

use shakmaty::Color;

use super::error::{AnalysisError, Result};
use super::figures::{Estimate, MoveEval, DROP_CP, EQUAL, LOSING, WINNING};
use super::matching::MatchRow;
use super::options::{AnalyseOptions, AnalyseResult, GroupFigures};
use crate::results::{estimate, fixed, state_ratio, write_analysis_csv, AnalysisRow, Document};

fn writer(path: &Path) -> csv::Result<csv::Writer<std::fs::File>> {
    csv::Writer::from_path(path)
}

/// A CSV file written by `write`, its error naming the file.
fn write_csv(path: &Path, write: impl FnOnce(&Path) -> csv::Result<()>) -> Result<()> {
    write(path).map_err(|e| AnalysisError::Other(format!("cannot write {}: {e}", path.display())))
}

/// analysis.csv (`first` = `player`) or human.csv (`band`): a row per group.
fn write_groups(path: &Path, first: &str, groups: &[GroupFigures]) -> Result<()> {
    let rows: Vec<AnalysisRow> = groups.iter().map(GroupFigures::record).collect();
    write_analysis_csv(path, first, &rows).map_err(|e| AnalysisError::Other(e.to_string()))
}

fn write_moves(path: &Path, moves: &[MoveEval]) -> csv::Result<()> {
    let mut w = writer(path)?;
    w.write_record([
        "game",
        "player",
        "color",
        "ply",
        "fen",
        "move",
        "san",
        "best",
        "top1",
        "cp_before",
        "cp_after",
        "cp_loss",
        "wc_before",
        "wc_after",
        "wc_drop",
        "accuracy",
        "judgement",
        "state",
        "phase",
        "clock",
    ])?;
    for m in moves {
        w.write_record([
            m.game.clone(),
            m.player.clone(),
            if m.color == Color::White {
                "white"
            } else {
                "black"
            }
            .to_string(),
            m.ply.to_string(),
            m.fen.clone(),
            m.played.clone(),
            m.san.clone(),
            m.best.clone(),
            u8::from(m.top1).to_string(),
            m.cp_before.to_string(),
            m.cp_after.to_string(),
            m.loss.to_string(),
            format!("{:.4}", m.wc_before),
            format!("{:.4}", m.wc_after),
            format!("{:.4}", m.drop),
            format!("{:.2}", m.accuracy),
            m.judgement.as_str().to_string(),
            m.state.as_str().to_string(),
            m.phase.as_str().to_string(),
            m.clock.map(|c| format!("{c}")).unwrap_or_default(),
        ])?;
    }
    w.flush()?;
    Ok(())
}

fn write_matching(path: &Path, rows: &[MatchRow]) -> csv::Result<()> {
    let mut w = writer(path)?;
    w.write_record([
        "band",
        "engine",
        "setting",
        "limit",
        "selection",
        "games",
        "positions",
        "matches",
        "rate",
        "lower",
        "upper",
    ])?;
    for r in rows {
        w.write_record([
            r.band.clone(),
            r.engine.clone(),
            r.setting.clone(),
            r.limit.clone(),
            r.selection.clone(),
            r.games.to_string(),
            r.positions.to_string(),
            if r.matches.fract() == 0.0 {
                format!("{}", r.matches)
            } else {
                format!("{:.2}", r.matches)
            },
            fixed(r.rate.value, 4, ""),
            fixed(r.rate.lower, 4, ""),
            fixed(r.rate.upper, 4, ""),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// `34.1 [28.0, 41.3]` with `scale` applied (100 for percentages).
fn cell(e: &Estimate, scale: f64, digits: usize) -> String {
    estimate(e.value, e.lower, e.upper, scale, digits, "-")
}

/// The three tables of a set of groups (players or human bands): move quality, blunders by
/// state and phase, material drops.
fn tables(d: &mut Document, first: &str, groups: &[GroupFigures]) {
    let f = |g: &GroupFigures, k: usize, s: f64, dg: usize| cell(&g.figures[k], s, dg);
    let quality = groups
        .iter()
        .map(|g| {
            vec![
                g.name.clone(),
                g.games.to_string(),
                g.counts[0].to_string(),
                f(g, 0, 1.0, 1),
                f(g, 1, 1.0, 0),
                f(g, 3, 1.0, 0),
                f(g, 5, 1.0, 0),
                f(g, 6, 1.0, 1),
                f(g, 7, 1.0, 1),
                f(g, 8, 100.0, 1),
                f(g, 9, 100.0, 1),
                f(g, 10, 100.0, 1),
                f(g, 21, 100.0, 1),
            ]
        })
        .collect();
    d.table(
        &[
            first,
            "games",
            "moves",
            "ACPL",
            "loss p50",
            "p90",
            "p99",
            "accuracy %",
            "game accuracy %",
            "inacc. %",
            "mistake %",
            "blunder %",
            "top-1 %",
        ],
        quality,
    );
    d.para("Blunder rate (% of moves) by the position's state before the move and by phase (moves in brackets):");
    let with_count =
        |g: &GroupFigures, k: usize, c: usize| format!("{} ({})", f(g, k, 100.0, 1), g.counts[c]);
    let blunders = groups
        .iter()
        .map(|g| {
            vec![
                g.name.clone(),
                with_count(g, 11, 5),
                with_count(g, 12, 6),
                with_count(g, 13, 7),
                with_count(g, 14, 8),
                with_count(g, 15, 9),
                with_count(g, 16, 10),
            ]
        })
        .collect();
    d.table(
        &[
            first,
            "winning",
            "about equal",
            "losing",
            "opening",
            "middlegame",
            "endgame",
        ],
        blunders,
    );
    d.para(&format!(
        "Material drops: moves losing at least {DROP_CP} cp (% of moves), by the position's state before the move; losing / equal: the rate when losing over that when equal, for drops and for Lichess's blunders:"
    ));
    let drops = groups
        .iter()
        .map(|g| {
            vec![
                g.name.clone(),
                g.counts[4].to_string(),
                f(g, 17, 100.0, 1),
                f(g, 18, 100.0, 1),
                f(g, 19, 100.0, 1),
                f(g, 20, 100.0, 1),
                ratio_cell(&g.figures[20], &g.figures[19]),
                ratio_cell(&g.figures[13], &g.figures[12]),
            ]
        })
        .collect();
    d.table(
        &[
            first,
            "drops",
            "% of moves",
            "winning",
            "about equal",
            "losing",
            "losing / equal drops",
            "losing / equal blunders",
        ],
        drops,
    );
}

/// `losing / equal` to two decimals ("-" when the equal rate is 0 or either is undefined).
fn ratio_cell(losing: &Estimate, equal: &Estimate) -> String {
    fixed(state_ratio(losing.value, equal.value), 2, "-")
}

/// The page (`analysis.md`): how each level plays, the human bands, move-matching.
pub fn document(opts: &AnalyseOptions, r: &AnalyseResult) -> Document {
    let mut d = Document {
        title: "How each level plays".into(),
        blocks: Vec::new(),
    };
    d.para(&format!(
        "{} games, {} analysed moves, {} distinct positions; reference engine `{}` ({}). \
         Figures with 95% intervals by bootstrap over games ({} resamples, seed {}). \
         Centipawns from the mover's view, capped at ±1000 (mates at the cap); inaccuracy / \
         mistake / blunder: a drop of at least 0.1 / 0.2 / 0.3 in Lichess's winning chances \
         (columns count moves at least that bad); a material drop: a loss of at least \
         {DROP_CP} cp (about a minor piece; unlike a blunder, possible in a losing position); \
         accuracy: Lichess's per-move accuracy (mean) and game accuracy (lila's volatility-weighted and harmonic mean). States: winning \
         chances > {WINNING} (winning), within ±{EQUAL} (about equal), < -{LOSING} (losing). \
         Formulas and sources: docs/analysis.md.",
        r.games,
        r.moves,
        r.positions,
        opts.engine.label(),
        opts.engine.limit,
        opts.bootstrap,
        opts.seed,
    ));
    tables(&mut d, "player", &r.players);
    if !r.human_bands.is_empty() {
        d.section("Human games by rating band");
        tables(&mut d, "band", &r.human_bands);
    }
    if !r.matching.is_empty() {
        d.section("Move-matching");
        matching_section(&mut d, opts, r);
    }
    d
}

/// The move-matching paragraph and table.
fn matching_section(d: &mut Document, opts: &AnalyseOptions, r: &AnalyseResult) {
    let f = &opts.filter;
    let c = &r.human_counts;
    d.para(&format!(
        "How often each engine setting plays the human's move, per band of \
         the mover's rating (Maia's protocol: plies from {} on; moves made with under {} s on \
         the clock skipped when `[%clk]` is present); an engine with `UCI_Elo` plays at the \
         band's middle. `matches` of a `PolicyTemperature` setting is the expected number: the \
         policy's probability of the human's move, summed (exact, no sampling). Intervals: 95%, \
         bootstrap over games ({} resamples, seed {}). Ratings {}-{}; the last reading: {} \
         games, {} kept with {} positions ({} unrated, {} outside the ratings, {} by time \
         control, {} unplayable, {} without a move to match, {} passed over as measured).{}",
        f.min_ply,
        f.min_clock,
        opts.bootstrap,
        opts.seed,
        f.min_elo,
        f.max_elo,
        c.games,
        c.kept,
        c.probes,
        c.unrated,
        c.out_of_range,
        c.time_control,
        c.unplayable,
        c.no_probe,
        c.passed,
        f.max_clock.map_or_else(String::new, |m| format!(
            " Time trouble only: moves the mover started with under {m} s on the clock."
        )),
    ));
    let rows = r
        .matching
        .iter()
        .map(|m| {
            vec![
                m.band.clone(),
                m.engine.clone(),
                m.setting.clone(),
                m.selection.clone(),
                m.games.to_string(),
                m.positions.to_string(),
                format!("{:.1}", m.matches),
                cell(&m.rate, 100.0, 1),
            ]
        })
        .collect();
    d.table(
        &[
            "band",
            "engine",
            "setting",
            "selection",
            "games",
            "positions",
            "matches",
            "rate %",
        ],
        rows,
    );
}

/// Writes `matching.csv` and `matching.md` of a `--matching-only` run.
pub fn write_matching_only(opts: &AnalyseOptions, r: &AnalyseResult) -> Result<()> {
    write_csv(&opts.out.join("matching.csv"), |p| {
        write_matching(p, &r.matching)
    })?;
    let mut d = Document {
        title: "Move-matching".into(),
        blocks: Vec::new(),
    };
    matching_section(&mut d, opts, r);
    let path = opts.out.join("matching.md");
    std::fs::write(&path, d.to_markdown()).map_err(|e| AnalysisError::io("write", &path, e))
}

/// Writes every output file of a run.
pub fn write_all(opts: &AnalyseOptions, r: &AnalyseResult, moves: &[MoveEval]) -> Result<()> {
    write_groups(&opts.out.join("analysis.csv"), "player", &r.players)?;
    write_csv(&opts.out.join("moves.csv"), |p| write_moves(p, moves))?;
    if !opts.human.is_empty() {
        write_groups(&opts.out.join("human.csv"), "band", &r.human_bands)?;
        write_csv(&opts.out.join("matching.csv"), |p| {
            write_matching(p, &r.matching)
        })?;
    }
    let path = opts.out.join("analysis.md");
    std::fs::write(&path, document(opts, r).to_markdown())
        .map_err(|e| AnalysisError::io("write", &path, e))?;
    Ok(())
}
