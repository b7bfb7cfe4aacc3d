//! Every pair of players that met, and the likelihood of superiority between two rated players.

use statrs::distribution::{ContinuousCDF, Normal};

use super::games::Game;
use super::pentanomial::{head_to_head, HeadToHead};
use super::ratings::Ratings;

/// The head-to-head record of every pair that met, the better-rated player first, pairs in the
/// order of the ranking (strongest player's pairs first).
pub fn pairs_met(games: &[Game], ratings: &Ratings) -> Vec<HeadToHead> {
    let ranked: Vec<&str> = ratings.ranked().iter().map(|p| p.name.as_str()).collect();
    let rank = |n: &str| ranked.iter().position(|&r| r == n).unwrap_or(usize::MAX);
    let mut met: Vec<(usize, usize)> = games
        .iter()
        .map(|g| {
            let (a, b) = (rank(&g.white), rank(&g.black));
            (a.min(b), a.max(b))
        })
        .collect();
    met.sort_unstable();
    met.dedup();
    met.into_iter()
        .map(|(a, b)| head_to_head(games, ranked[a], ranked[b]))
        .collect()
}

impl Ratings {
    /// Likelihood of superiority of `a` over `b`: the probability that `a` is the stronger,
    /// from the two ratings and the covariance of their difference (BayesElo's LOS matrix
    /// shows the same quantity). `None` when either is unrated.
    pub fn los(&self, a: &str, b: &str) -> Option<f64> {
        let (d, sd) = self.difference(a, b)?;
        Some(if sd > 0.0 {
            Normal::standard().cdf(d / sd)
        } else if d > 0.0 {
            1.0
        } else if d < 0.0 {
            0.0
        } else {
            0.5
        })
    }
}
