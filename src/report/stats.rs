//! Statistics the report shows that no result file holds: game counts, terminations, lengths,
//! and the verification's RMS.

use std::collections::BTreeMap;

use crate::results::{GameRow, VerifyRow};

/// Game statistics of a run.
pub struct GameStats {
    pub white_wins: usize,
    pub draws: usize,
    pub black_wins: usize,
    pub mean_plies: f64,
    /// (termination, games), most frequent first.
    pub terminations: Vec<(String, usize)>,
    /// Length histogram: (plies from, plies to, games).
    pub bins: Vec<(u32, u32, usize)>,
}

pub fn game_stats(games: &[GameRow]) -> GameStats {
    let (mut w, mut d, mut l) = (0, 0, 0);
    let mut terms: BTreeMap<&'static str, usize> = BTreeMap::new();
    for g in games {
        match g.white_score() {
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
        white_wins: w,
        draws: d,
        black_wins: l,
        mean_plies: mean,
        terminations: terms,
        bins,
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
