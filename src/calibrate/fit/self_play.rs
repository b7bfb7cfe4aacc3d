//! Self-play on its own scale: games between two of the run's own settings see rating
//! differences stretched by a factor kappa against the pool's scale.
//!
//! Why: an engine against a weaker copy of itself wins more than the two would suggest against
//! other engines (the self-play inflation known from engine testing; `scripts/research/
//! self-play-kappa.py` measures it in a run folder). Taken at 1, self-play pulls the weak
//! settings below where their games with the pool put them. With kappa fitted, self-play still
//! ties the settings' order and the curve's shape, and the pool's games alone carry the scale.
//!
//! A game of settings a and b is expected to score E(kappa (r_a - r_b)): each setting gains a
//! shadow player rated kappa r, and games between settings are played by the shadows. Kappa is
//! the maximum of the profile likelihood ([`profile`]). With `self_play_scale = "fit-by-t"`
//! kappa may change along the path, log-linearly in the pair's mean t ([`Stretch`]): below
//! t = 0.3 the games stretch about 2.2, in 0.3-0.5 about 1.3 (the script above with `--split`),
//! and one kappa for both is a compromise that misplaces one end or the middle.

use std::collections::HashMap;

use crate::rating::problem::{Linear, Problem};

/// The t at which [`Stretch::kappa`] is the stretch: the middle of the path [0, 1].
pub const PIVOT: f64 = 0.5;

/// How much games between two settings stretch their difference: kappa at t = `PIVOT`,
/// times exp(slope (t - PIVOT)) at the pair's mean t.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stretch {
    pub kappa: f64,
    pub slope: f64,
}

impl Stretch {
    /// Games between settings count as any game.
    pub const ONE: Stretch = Stretch {
        kappa: 1.0,
        slope: 0.0,
    };

    /// The same stretch everywhere.
    pub fn flat(kappa: f64) -> Stretch {
        Stretch { kappa, slope: 0.0 }
    }

    /// The stretch of a game between settings at t_a and t_b.
    pub fn at(&self, t_a: f64, t_b: f64) -> f64 {
        self.kappa * (self.slope * ((t_a + t_b) / 2.0 - PIVOT)).exp()
    }

    pub fn is_one(&self) -> bool {
        *self == Stretch::ONE
    }
}

/// The players whose mutual games are stretched (each with its setting's t), and by how much.
#[derive(Debug, Clone)]
pub struct Among {
    pub t: Vec<Option<f64>>,
    pub stretch: Stretch,
}

/// Moves every game between two players of `among` onto shadows of the two rated kappa times
/// their ratings, kappa that of the pair ([`Stretch::at`]); one shadow per player and kappa.
/// The players' own entries keep their indices; shadows come after them.
pub fn apply(problem: &mut Problem, among: &Among) {
    let mut shadows: HashMap<(usize, u64), usize> = HashMap::new();
    let mut shadow = |problem: &mut Problem, i: usize, kappa: f64| -> usize {
        *shadows.entry((i, kappa.to_bits())).or_insert_with(|| {
            let p = &problem.players[i];
            let s = Linear {
                constant: kappa * p.constant,
                terms: p.terms.iter().map(|&(k, w)| (k, kappa * w)).collect(),
            };
            problem.players.push(s);
            problem.players.len() - 1
        })
    };
    for c in 0..problem.cells.len() {
        let (a, b) = (problem.cells[c].a, problem.cells[c].b);
        let (Some(Some(ta)), Some(Some(tb))) = (among.t.get(a), among.t.get(b)) else {
            continue;
        };
        let kappa = among.stretch.at(*ta, *tb);
        let (sa, sb) = (shadow(problem, a, kappa), shadow(problem, b, kappa));
        problem.cells[c].a = sa;
        problem.cells[c].b = sb;
    }
}

/// Bounds of kappa: from self-play compressing differences to twice the largest seen (2.1).
pub const KAPPA_RANGE: (f64, f64) = (0.5, 4.0);

/// The kappa in `KAPPA_RANGE` at which `loglik(kappa)` is largest, by golden-section search
/// (the profile is smooth and single-peaked in practice); `None` if any evaluation fails.
pub fn profile(loglik: impl FnMut(f64) -> Option<f64>) -> Option<f64> {
    golden_max(KAPPA_RANGE, 0.01, loglik)
}

/// Bounds of the log-kappa slope per unit of t: at its ends kappa changes e^2 = 7.4-fold from
/// t = 0 to 1, beyond the 1.3-to-2.2 measured on the range.
pub const SLOPE_RANGE: (f64, f64) = (-2.0, 2.0);

/// The stretch at which `loglik` is largest over kappa in `KAPPA_RANGE` and slope in
/// `SLOPE_RANGE`: golden-section over the slope, each slope's kappa by [`profile`].
pub fn profile_by_t(mut loglik: impl FnMut(Stretch) -> Option<f64>) -> Option<Stretch> {
    // the best kappa at a slope, and the log-likelihood there
    let mut best_at = |slope: f64| -> Option<(f64, f64)> {
        let kappa = profile(|kappa| loglik(Stretch { kappa, slope }))?;
        Some((kappa, loglik(Stretch { kappa, slope })?))
    };
    let slope = golden_max(SLOPE_RANGE, 0.02, |slope| Some(best_at(slope)?.1))?;
    let (kappa, _) = best_at(slope)?;
    Some(Stretch { kappa, slope })
}

/// The x in `range` (to within `tol`) at which `f` is largest, by golden-section search.
fn golden_max(
    (mut a, mut b): (f64, f64),
    tol: f64,
    mut f: impl FnMut(f64) -> Option<f64>,
) -> Option<f64> {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c)?, f(d)?);
    while b - a > tol {
        if fc > fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c)?;
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d)?;
        }
    }
    Some((a + b) / 2.0)
}
