//! Games as the fit reads them: one cell per pair of players, and each player's counts.

use std::collections::HashMap;

use super::error::FitError;
use crate::rating::problem::Cell;
use crate::results::GameRow;

/// Per-player counts for tables.
#[derive(Debug, Clone, Default)]
pub struct PlayerStats {
    pub games: u32,
    pub score: f64,
    pub draws: u32,
}

/// Aggregates games into cells per unordered pair (the lower index first). Games with players
/// missing from `index` are an error naming the player (a results directory from a different
/// configuration).
pub fn tally_games(
    games: &[GameRow],
    index: &HashMap<String, usize>,
) -> Result<(Vec<Cell>, Vec<PlayerStats>), FitError> {
    let mut map: HashMap<(usize, usize), Cell> = HashMap::new();
    let mut stats = vec![PlayerStats::default(); index.len()];
    let player = |name: &str| {
        index
            .get(name)
            .copied()
            .ok_or_else(|| FitError::UnknownPlayer(name.to_string()))
    };
    for g in games {
        let Some(s) = g.white_score() else { continue };
        let w = player(&g.white)?;
        let b = player(&g.black)?;
        if w == b {
            continue;
        }
        let (a, bb, sa) = if w < b { (w, b, s) } else { (b, w, 1.0 - s) };
        let t = map.entry((a, bb)).or_insert(Cell {
            a,
            b: bb,
            ..Default::default()
        });
        t.n += 1.0;
        t.score += sa;
        if sa == 0.5 {
            t.draws += 1.0;
        }
        for (p, sp) in [(w, s), (b, 1.0 - s)] {
            stats[p].games += 1;
            stats[p].score += sp;
            if s == 0.5 {
                stats[p].draws += 1;
            }
        }
    }
    let mut cells: Vec<Cell> = map.into_values().collect();
    cells.sort_by_key(|t| (t.a, t.b));
    Ok((cells, stats))
}
