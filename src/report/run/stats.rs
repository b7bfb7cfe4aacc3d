//! Statistics the report shows that no result file holds: game counts, terminations, lengths,
//! and the verification's RMS.

use std::collections::BTreeMap;

use crate::rating::model::Z95;
use crate::rating::Game;
use crate::results::{GameRow, VerifyRow};

/// Game statistics of a run.
pub struct GameStats {
    pub games: usize,
    pub white_wins: usize,
    pub draws: usize,
    pub black_wins: usize,
    pub mean_plies: f64,
    /// (termination, games), most frequent first.
    pub terminations: Vec<(String, usize)>,
    /// Length histogram: (plies from, plies to, games).
    pub bins: Vec<(u32, u32, usize)>,
}

/// What the statistics need of one game, from any source (games.csv, PGN).
pub struct GameFacts {
    pub white_score: Option<f64>,
    /// 0 when unknown.
    pub plies: u32,
    pub termination: String,
}

impl GameFacts {
    pub fn of_row(g: &GameRow) -> GameFacts {
        GameFacts {
            white_score: g.white_score(),
            plies: g.plies,
            termination: g.termination.as_str().to_string(),
        }
    }

    pub fn of_game(g: &Game) -> GameFacts {
        GameFacts {
            white_score: Some(g.result.white_score()),
            plies: g.plies.unwrap_or(0),
            termination: g.termination.clone().unwrap_or_else(|| "unknown".into()),
        }
    }
}

pub fn game_stats(games: &[GameRow]) -> GameStats {
    let facts: Vec<GameFacts> = games.iter().map(GameFacts::of_row).collect();
    facts_stats(&facts)
}

/// The statistics of any games.
pub fn facts_stats(games: &[GameFacts]) -> GameStats {
    let (mut w, mut d, mut l) = (0, 0, 0);
    let mut terms: BTreeMap<&str, usize> = BTreeMap::new();
    for g in games {
        match g.white_score {
            Some(1.0) => w += 1,
            Some(0.5) => d += 1,
            Some(_) => l += 1,
            None => {}
        }
        *terms.entry(g.termination.as_str()).or_default() += 1;
    }
    let mean = if games.is_empty() {
        0.0
    } else {
        games.iter().map(|g| g.plies as f64).sum::<f64>() / games.len() as f64
    };
    let mut terms: Vec<(String, usize)> =
        terms.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    terms.sort_by_key(|t| std::cmp::Reverse(t.1));
    let maxp = games.iter().map(|g| g.plies).max().unwrap_or(0);
    let width = ((maxp / 25).max(10) / 10) * 10;
    let nb = maxp / width + 1;
    let mut bins: Vec<(u32, u32, usize)> =
        (0..nb).map(|i| (i * width, (i + 1) * width, 0)).collect();
    for g in games {
        let i = (g.plies / width) as usize;
        if let Some(b) = bins.get_mut(i) {
            b.2 += 1;
        }
    }
    GameStats {
        games: games.len(),
        white_wins: w,
        draws: d,
        black_wins: l,
        mean_plies: mean,
        terminations: terms,
        bins,
    }
}

impl GameStats {
    /// One paragraph: results by colour, draws, mean length, terminations.
    pub fn paragraph(&self) -> String {
        let n = self.games.max(1);
        format!(
            "{} games: White won {}, {} draws ({:.1}%), Black won {}; mean length {:.0} plies. Terminations: {}.",
            self.games,
            self.white_wins,
            self.draws,
            100.0 * self.draws as f64 / n as f64,
            self.black_wins,
            self.mean_plies,
            self.terminations
                .iter()
                .map(|(k, c)| format!("{k} {c}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// RMS of measured minus target over the anchored levels, and the levels off by more than
/// twice their 95% half-width.
pub fn verify_stats(rows: &[VerifyRow], low: f64) -> (f64, usize, Vec<f64>) {
    let (rms, n) = anchored_rms(rows, low, |r| Some(r.measured));
    let off = rows
        .iter()
        .filter(|r| r.target >= low && r.diff.abs() > (r.upper - r.lower))
        .map(|r| r.target)
        .collect();
    (rms, n, off)
}

/// RMS of `measure(row) - target` over the anchored levels that have a measure, and their
/// count (NaN when there are none).
pub fn anchored_rms(
    rows: &[VerifyRow],
    low: f64,
    measure: impl Fn(&VerifyRow) -> Option<f64>,
) -> (f64, usize) {
    let d: Vec<f64> = rows
        .iter()
        .filter(|r| r.target >= low)
        .filter_map(|r| measure(r).map(|m| m - r.target))
        .collect();
    if d.is_empty() {
        return (f64::NAN, 0);
    }
    let rms = (d.iter().map(|x| x * x).sum::<f64>() / d.len() as f64).sqrt();
    (rms, d.len())
}

/// How much of a verification's RMS its games' noise explains: (the RMS that noise alone
/// gives, the table's own error left after it). Each level's squared miss is in expectation its
/// bias squared plus the variance of its measurement, so the mean squared miss less the mean
/// variance estimates the mean squared bias, whatever the levels' correlation; floored at 0.
/// The variance is the level's own games' (`sd_games`): the pool's uncertainty against the
/// anchors is in the interval too, but the table was fitted on the same pool, so it cancels in
/// the miss and counting it would hide the table's error behind it. Rows without `sd_games`
/// (older verifications) fall back to the interval. None without anchored levels.
pub fn verify_noise(rows: &[VerifyRow], low: f64) -> Option<(f64, f64)> {
    let levels: Vec<&VerifyRow> = rows.iter().filter(|r| r.target >= low).collect();
    if levels.is_empty() {
        return None;
    }
    let n = levels.len() as f64;
    let var = levels
        .iter()
        .map(|r| {
            r.sd_games
                .unwrap_or((r.upper - r.lower) / (2.0 * Z95))
                .powi(2)
        })
        .sum::<f64>()
        / n;
    let miss = levels.iter().map(|r| r.diff * r.diff).sum::<f64>() / n;
    Some((var.sqrt(), (miss - var).max(0.0).sqrt()))
}
