//! Human comparison: the same figures per rating band of the mover (`WhiteElo` / `BlackElo`).
//! Move-matching on the same games is `matching`'s.

use std::collections::{BTreeMap, HashMap};

use shakmaty::Color;

use super::moves::judge_game;
use super::stats::Sample;
use crate::analysis::error::{AnalysisError, Result};
use crate::analysis::input::{GameMoves, HumanFilter};
use crate::analysis::reference::Eval;

/// A rating band `[low, low + width)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Band {
    pub low: u32,
    pub width: u32,
}

impl Band {
    pub fn of(elo: u32, width: u32) -> Band {
        Band {
            low: elo / width * width,
            width,
        }
    }

    /// `1500-1599`.
    pub fn label(&self) -> String {
        format!("{}-{}", self.low, self.low + self.width - 1)
    }
}

fn elo_of(g: &GameMoves, c: Color) -> Option<u32> {
    match c {
        Color::White => g.white_elo,
        Color::Black => g.black_elo,
    }
}

/// Per band, one sample per game (`evals`: each game's answers by key): the moves of that
/// game's players in the band, and their game accuracies.
pub fn band_samples(
    games: &[GameMoves],
    evals: &[HashMap<String, Eval>],
    filter: &HumanFilter,
) -> Result<BTreeMap<Band, Vec<Sample>>> {
    let width = filter.band;
    let elo_of = |g: &GameMoves, c: Color| {
        elo_of(g, c).filter(|e| (filter.min_elo..=filter.max_elo).contains(e))
    };
    let mut out: BTreeMap<Band, Vec<Sample>> = BTreeMap::new();
    for (g, evals) in games.iter().zip(evals) {
        let (moves, wa, ba) = judge_game(g, evals)
            .ok_or_else(|| AnalysisError::Other("an evaluation is missing".into()))?;
        let mut per: BTreeMap<Band, Sample> = BTreeMap::new();
        for m in moves {
            if let Some(elo) = elo_of(g, m.color) {
                per.entry(Band::of(elo, width)).or_default().moves.push(m);
            }
        }
        for (c, acc) in [(Color::White, wa), (Color::Black, ba)] {
            if let (Some(elo), Some(a)) = (elo_of(g, c), acc) {
                if let Some(s) = per.get_mut(&Band::of(elo, width)) {
                    s.game_accuracy.push(a);
                }
            }
        }
        for (b, s) in per {
            out.entry(b).or_default().push(s);
        }
    }
    Ok(out)
}
