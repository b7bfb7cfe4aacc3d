//! Self-play on its own scale: games between two of the run's own settings see rating
//! differences stretched by a factor kappa against the pool's scale.
//!
//! Why: an engine against a weaker copy of itself wins more than the two would suggest against
//! other engines (the self-play inflation known from engine testing). In results/range the
//! games between settings, against each setting's rating from its games with the pool alone,
//! fit kappa 1.56 overall and 2.16 below t = 0.3 (scripts/self-play-kappa.py); taken at 1 they
//! pulled the weak settings well below where their games with the pool put them (t = 0 fitted
//! 685 held at kappa 1; its games against Fairy-Stockfish Skill -4 alone say about 870). With kappa fitted, self-play still ties the
//! settings' order and the curve's shape, and the pool's games alone carry the scale.
//!
//! A game of settings a and b is expected to score E(kappa (r_a - r_b)): each setting gains a
//! shadow player rated kappa r, and games between settings are played by the shadows. Kappa is
//! the maximum of the profile likelihood ([`profile`]).

use crate::rating::problem::{Linear, Problem};

/// The players whose mutual games are stretched, and by how much.
#[derive(Debug, Clone)]
pub struct Among {
    pub players: Vec<bool>,
    pub kappa: f64,
}

/// Gives every player of `among` a shadow rated `kappa` times its rating and moves the games
/// between two of them onto their shadows. The players' own entries keep their indices.
pub fn apply(problem: &mut Problem, among: &Among) {
    let n = problem.players.len();
    let mut shadow = vec![None; n];
    for (i, &on) in among.players.iter().enumerate().take(n) {
        if on {
            let p = &problem.players[i];
            shadow[i] = Some(problem.players.len());
            problem.players.push(Linear {
                constant: among.kappa * p.constant,
                terms: p.terms.iter().map(|&(k, w)| (k, among.kappa * w)).collect(),
            });
        }
    }
    for c in &mut problem.cells {
        if let (Some(a), Some(b)) = (shadow[c.a], shadow[c.b]) {
            c.a = a;
            c.b = b;
        }
    }
}

/// Bounds of kappa: from self-play compressing differences to twice the largest seen (2.1).
pub const KAPPA_RANGE: (f64, f64) = (0.5, 4.0);

/// The kappa in [`KAPPA_RANGE`] at which `loglik(kappa)` is largest, by golden-section search
/// (the profile is smooth and single-peaked in practice); `None` if any evaluation fails.
pub fn profile(mut loglik: impl FnMut(f64) -> Option<f64>) -> Option<f64> {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = KAPPA_RANGE;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (loglik(c)?, loglik(d)?);
    while b - a > 0.01 {
        if fc > fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = loglik(c)?;
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = loglik(d)?;
        }
    }
    Some((a + b) / 2.0)
}
