//! Head-to-head statistics as fishtest computes them: trinomial (per game) or pentanomial (per
//! opening pair) frequencies, Elo with its interval, normalized Elo and LOS.
//!
//! For frequencies `n_0..n_k` of the scores `i/k` (k = 2: loss/draw/win per game; k = 4: a pair's
//! points / 2), with `N` samples:
//! - `mu = sum n_i (i/k) / N`, the expected score per game;
//! - `var = sum n_i (i/k - mu)^2 / N`, the variance of one sample (a game or a pair's mean score);
//! - Elo `= -400 log10(1/mu - 1)`; interval: `mu ± z sqrt(var / N)` mapped through the same
//!   function; `elo_pm` is half its width (fishtest's "±");
//! - LOS `= Phi((mu - 1/2) / sqrt(var / N))`;
//! - normalized Elo `= (mu - 1/2) / sigma_pg * 800 / ln 10`, with the per-game deviation
//!   `sigma_pg = sqrt(var)` for games and `sqrt(2 var)` for pairs; its interval uses the
//!   asymptotic variance of a t-statistic, `(1 - t skew + t^2 (kurt_excess + 2) / 4) / N`.
//!
//! Zero frequencies are replaced by 1e-3 first, as fishtest does, so a clean sweep has a finite
//! Elo (fishtest also clamps mu to [0.001, 0.999]).

use std::collections::HashMap;

use statrs::distribution::{ContinuousCDF, Normal};

use super::games::Game;
use super::model::elo_from_score;

/// 800 / ln 10: normalized Elo per unit of t-value (fishtest's `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Pentanomial frequencies from player A's point of view: index = A's points in the pair x 2,
/// i.e. [LL, LD, DD+WL, WD, WW].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds one pair given A's points in its two games (each 0, 0.5 or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let k = ((first + second) * 2.0).round() as usize;
        self.counts[k.min(4)] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    pub fn stats(&self, confidence: f64) -> ScoreStats {
        ScoreStats::from_counts(&self.counts, confidence)
    }
}

/// Head-to-head record of A against B.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeadToHead {
    pub a: String,
    pub b: String,
    /// A's wins, draws and losses over all their games.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Opening pairs (two games with the same pair id, colours swapped).
    pub pentanomial: Pentanomial,
    /// Games between A and B that are not part of a complete pair.
    pub unpaired_games: u64,
}

impl HeadToHead {
    /// Trinomial frequencies [L, D, W] from A's point of view.
    pub fn trinomial(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// Collects the games between `a` and `b` (either colour) and their opening pairs.
pub fn head_to_head(games: &[Game], a: &str, b: &str) -> HeadToHead {
    let mut h = HeadToHead {
        a: a.to_string(),
        b: b.to_string(),
        ..HeadToHead::default()
    };
    // A's points per game, grouped by pair id.
    let mut by_pair: HashMap<u64, Vec<(bool, f64)>> = HashMap::new();
    for g in games {
        let a_white = g.white == a && g.black == b;
        let a_black = g.white == b && g.black == a;
        if !a_white && !a_black {
            continue;
        }
        let pts = if a_white {
            g.result.white_score()
        } else {
            1.0 - g.result.white_score()
        };
        match pts {
            x if x > 0.75 => h.wins += 1,
            x if x < 0.25 => h.losses += 1,
            _ => h.draws += 1,
        }
        match g.pair {
            Some(id) => by_pair.entry(id).or_default().push((a_white, pts)),
            None => h.unpaired_games += 1,
        }
    }
    for (_, v) in by_pair {
        if v.len() == 2 && v[0].0 != v[1].0 {
            h.pentanomial.add_pair(v[0].1, v[1].1);
        } else {
            h.unpaired_games += v.len() as u64;
        }
    }
    h
}

/// Elo, normalized Elo and LOS from trinomial or pentanomial frequencies (see module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreStats {
    /// Number of samples (games or pairs).
    pub samples: f64,
    /// Mean score per game.
    pub score: f64,
    /// Variance of one sample's score (on the 0..1 scale).
    pub variance: f64,
    pub elo: f64,
    pub elo_lower: f64,
    pub elo_upper: f64,
    /// Half the interval's width, fishtest's "±".
    pub elo_pm: f64,
    pub nelo: f64,
    pub nelo_lower: f64,
    pub nelo_upper: f64,
    /// Likelihood of superiority: probability that A is the stronger.
    pub los: f64,
}

/// fishtest's Elo: clamps the score to [0.001, 0.999].
fn clamped_elo(mu: f64) -> f64 {
    elo_from_score(mu.clamp(1e-3, 1.0 - 1e-3))
}

/// Frequencies with zeros replaced by 1e-3 (fishtest's regularization).
pub(crate) fn regularize(counts: &[u64]) -> Vec<f64> {
    counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect()
}

impl ScoreStats {
    /// `counts` has 3 (L, D, W) or 5 (pentanomial) entries.
    pub fn from_counts(counts: &[u64], confidence: f64) -> ScoreStats {
        let freq = regularize(counts);
        let k = (freq.len() - 1) as f64;
        let n: f64 = freq.iter().sum();
        let value = |i: usize| i as f64 / k;
        let mu = freq
            .iter()
            .enumerate()
            .map(|(i, f)| f * value(i))
            .sum::<f64>()
            / n;
        let moment = |p: i32| {
            freq.iter()
                .enumerate()
                .map(|(i, f)| f * (value(i) - mu).powi(p))
                .sum::<f64>()
                / n
        };
        let var = moment(2);
        let sd = var.sqrt();
        let normal = Normal::standard();
        let z = normal.inverse_cdf(0.5 + confidence / 2.0);
        let se = sd / n.sqrt();
        let elo_lower = clamped_elo(mu - z * se);
        let elo_upper = clamped_elo(mu + z * se);
        let los = normal.cdf((mu - 0.5) / se);
        // Normalized Elo through the t-value of one sample.
        let per_game = if freq.len() == 5 { 2f64.sqrt() } else { 1.0 };
        let t = (mu - 0.5) / sd;
        let skew = moment(3) / var.powf(1.5);
        let exkurt = moment(4) / (var * var) - 3.0;
        let var_t = (1.0 - t * skew + 0.25 * t * t * (exkurt + 2.0)).max(0.0);
        let t_se = (var_t / n).sqrt();
        let to_nelo = |t: f64| t / per_game * NELO_PER_T;
        ScoreStats {
            samples: n,
            score: mu,
            variance: var,
            elo: clamped_elo(mu),
            elo_lower,
            elo_upper,
            elo_pm: (elo_upper - elo_lower) / 2.0,
            nelo: to_nelo(t),
            nelo_lower: to_nelo(t - z * t_se),
            nelo_upper: to_nelo(t + z * t_se),
            los,
        }
    }
}
