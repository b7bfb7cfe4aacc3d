//! Move-matching by a UCI engine: each position searched on its own (after `ucinewgame`), given
//! with the game's moves that lead to it from its history's first position (as in a game), the
//! engine's `bestmove` compared with the human's move.

use std::collections::BTreeSet;

use indicatif::ProgressBar;

use super::items::Item;
use crate::analysis::error::{AnalysisError, Result};
use crate::analysis::reference::{search_each, AnalysisEngine, Limit, CLOCK_GO};

/// The engine a band's positions are searched with: `base`, and with `UCI_LimitStrength=true`,
/// `UCI_Elo` = `elo` when given.
pub fn band_engine(base: &AnalysisEngine, elo: Option<u32>) -> AnalysisEngine {
    match elo {
        Some(elo) => base
            .with_option("UCI_LimitStrength", "true")
            .with_option("UCI_Elo", &elo.to_string()),
        None => base.clone(),
    }
}

/// 1 where the engine played the human's move, 0 elsewhere, per item. A position met twice with
/// the same history is searched once.
pub fn match_items(
    cfg: &AnalysisEngine,
    items: &[&Item],
    concurrency: usize,
    bar: &ProgressBar,
) -> Result<Vec<f64>> {
    // the position with its history (and under the clock limit its clocks) is both the key
    // and what the engine is sent
    let keys: Vec<String> = items
        .iter()
        .map(|it| match (cfg.limit, it.clock) {
            (Limit::Clock, Some(c)) => Ok(format!("{}{CLOCK_GO}{}", it.with_history(), c.go())),
            (Limit::Clock, None) => Err(AnalysisError::Usage(format!(
                "--match-limit clock: game {} of input {} has no clock before ply {} (it needs \
                 [%clk] comments and a TimeControl tag)",
                it.game.1,
                it.game.0 + 1,
                it.ply
            ))),
            _ => Ok(it.with_history()),
        })
        .collect::<Result<_>>()?;
    let positions: Vec<(String, String)> = keys
        .iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .map(|k| (k.clone(), k.clone()))
        .collect();
    let answers = search_each(cfg, &positions, concurrency, bar)?;
    // the bar counts items: a repeated position counts though searched once
    bar.inc((items.len() - positions.len()) as u64);
    Ok(keys
        .iter()
        .zip(items)
        .map(|(k, it)| {
            let hit = answers.get(k).is_some_and(|e| e.best == it.played_uci());
            f64::from(u8::from(hit))
        })
        .collect())
}
