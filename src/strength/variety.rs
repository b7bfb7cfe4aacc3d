//! `Style human`'s variety: each stretch of the schedule (`super::human`) has a set of moves it
//! may play, and `HumanTemperature` `t` says how the choice among them is drawn with the game's
//! seed. At `t = 0` every draw is the schedule's one choice; above 0:
//!
//! - the moves people of the band play (the top move and its plausible alternatives) and the
//!   search half's candidates within the margin are drawn by their policy probability sharpened
//!   by `t`, `p^(1/t)` normalised (`t = 1` is the net's own distribution, small `t` almost always
//!   the likeliest move);
//! - the mistakes stretch's qualifying mistakes are drawn by `exp(excess / (t * EXCESS_SCALE))`,
//!   so the mistake exceeding its weight most is still the likeliest and a near-tie is a coin.

use rand::{Rng, RngExt};

/// The excess (expected score, 0..1) that counts as one unit of temperature among mistakes: at
/// `t = 0.25` a mistake exceeding another by 0.05 is drawn e^2 (7.4) times as often.
pub const EXCESS_SCALE: f64 = 0.1;

/// Index into `weights` drawn with a uniform `u` in [0, 1) (the weights need not sum to 1);
/// None when they are empty or sum to nothing.
fn draw(weights: &[f64], u: f64) -> Option<usize> {
    let sum: f64 = weights.iter().sum();
    if !sum.is_finite() || sum <= 0.0 {
        return None;
    }
    let mut x = u * sum;
    for (i, w) in weights.iter().enumerate() {
        x -= w;
        if x < 0.0 {
            return Some(i);
        }
    }
    // rounding left a sliver past the last positive weight
    weights.iter().rposition(|&w| w > 0.0)
}

/// One of `set` (indices into `probs`) drawn by probability sharpened by `t`; at `t <= 0` the
/// likeliest (ties: the earliest in `set`). None when `set` is empty.
pub fn by_probability(probs: &[f32], set: &[usize], t: f64, rng: &mut impl Rng) -> Option<usize> {
    let likeliest = set
        .iter()
        .copied()
        .reduce(|a, b| if probs[b] > probs[a] { b } else { a })?;
    if t <= 0.0 {
        return Some(likeliest);
    }
    let top = f64::from(probs[likeliest]).ln();
    let weights: Vec<f64> = set
        .iter()
        .map(|&i| ((f64::from(probs[i]).ln() - top) / t).exp())
        .collect();
    let u = rng.random::<f64>();
    Some(draw(&weights, u).map_or(likeliest, |k| set[k]))
}

/// One index of `excess` drawn by `exp(excess / (t * EXCESS_SCALE))`; at `t <= 0` None, so the
/// caller keeps its deterministic choice. None when `excess` is empty.
pub fn by_excess(excess: &[f64], t: f64, rng: &mut impl Rng) -> Option<usize> {
    if t <= 0.0 || excess.is_empty() {
        return None;
    }
    let max = excess.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = excess
        .iter()
        .map(|&e| ((e - max) / (t * EXCESS_SCALE)).exp())
        .collect();
    draw(&weights, rng.random::<f64>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn counts(probs: &[f32], set: &[usize], t: f64, n: usize) -> Vec<usize> {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut c = vec![0; probs.len()];
        for _ in 0..n {
            c[by_probability(probs, set, t, &mut rng).unwrap()] += 1;
        }
        c
    }

    #[test]
    fn zero_temperature_is_the_likeliest_and_one_is_the_policy() {
        let probs = [0.1, 0.5, 0.4, 0.0];
        assert_eq!(counts(&probs, &[0, 1, 2, 3], 0.0, 100), vec![0, 100, 0, 0]);
        assert_eq!(counts(&probs, &[0, 2], 0.0, 10), vec![0, 0, 10, 0]);
        // ties go to the earliest in the set
        assert_eq!(counts(&[0.5, 0.5], &[1, 0], 0.0, 5), vec![0, 5]);
        // t = 1 draws the policy itself: 0.1 / 0.5 / 0.4 within sampling error, never 0
        let c = counts(&probs, &[0, 1, 2, 3], 1.0, 20_000);
        assert_eq!(c[3], 0);
        for (i, p) in [(0, 0.1), (1, 0.5), (2, 0.4)] {
            let share = c[i] as f64 / 20_000.0;
            assert!((share - p).abs() < 0.015, "move {i}: {share} for {p}");
        }
        // t = 0.25 sharpens: 0.4 / 0.5 gives (0.8)^4 = 0.41 of the top move's weight
        let c = counts(&probs, &[1, 2], 0.25, 20_000);
        let share = c[2] as f64 / 20_000.0;
        let want = 0.4096 / 1.4096;
        assert!((share - want).abs() < 0.015, "{share} for {want}");
        assert_eq!(
            by_probability(&probs, &[], 0.5, &mut ChaCha8Rng::seed_from_u64(1)),
            None
        );
    }

    #[test]
    fn the_same_seed_draws_the_same_moves() {
        let probs = [0.2, 0.3, 0.25, 0.25];
        let run = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..50)
                .map(|_| by_probability(&probs, &[0, 1, 2, 3], 0.5, &mut rng).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
    }

    #[test]
    fn mistakes_favour_the_largest_excess() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        assert_eq!(by_excess(&[0.1, 0.3], 0.0, &mut rng), None);
        assert_eq!(by_excess(&[], 0.5, &mut rng), None);
        let mut c = [0usize; 2];
        for _ in 0..10_000 {
            c[by_excess(&[0.25, 0.30], 0.25, &mut rng).unwrap()] += 1;
        }
        // weights e^-2 : 1
        let share = c[0] as f64 / 10_000.0;
        let want = (-2f64).exp() / (1.0 + (-2f64).exp());
        assert!((share - want).abs() < 0.015, "{share} for {want}");
    }
}
