//! Move choice among the MultiPV candidates: noise models and the guards that switch them off.
//!
//! The search hands over the completed iteration's candidates best first with their exact scores
//! `s_0 >= s_1 >= ... >= s_{n-1}` (centipawns, side to move's view, `b = s_0`). Each model turns
//! them into perceived scores `p_i`; the engine plays `argmax p_i`, ties going to the lower index
//! (the search's order). Formulas (also in docs/strength.md):
//!
//! - uniform:  `p_i = s_i + U_i`, `U_i ~ U(-a, a)`;
//! - Gaussian: `p_i = s_i + sigma * Z_i`, `Z_i ~ N(0, 1)`;
//! - geometric Brownian motion, on the deficit `d_i = b - s_i` shifted by `c = GBM_SCALE_CP`:
//!   `X_i(T) = (c + d_i * exp(-mu * T)) * exp(s * W_i(T) - s^2 * T / 2)`, `W_i(T) = sqrt(T) * Z_i`,
//!   `p_i = b + c - X_i(T)`.
//!
//! All draws are independent per candidate and per move (one generator per search, see
//! [`super::seed::noise_rng`]).

use rand::Rng;
use rand_distr::{Distribution, Normal, StandardNormal, Uniform};

use crate::score::MATE_BOUND;

/// The reference deficit `c` of the GBM model (one pawn): it makes the model well defined at
/// `d = 0` (the best move is perturbed too) and sets the scale the diffusion acts on.
pub const GBM_SCALE_CP: f64 = 100.0;

/// Default `WinGuard`: no noise and no ScoreInaccuracy effect once the best score reaches this.
pub const DEFAULT_WIN_GUARD: i32 = 1000;

/// A noise model with its coefficients (already validated by [`super::Settings`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Noise {
    /// `p_i = s_i`: the best candidate is played.
    None,
    /// `p_i = s_i + U(-a, a)`, `a` in centipawns.
    Uniform { a: f64 },
    /// `p_i = s_i + N(0, sigma^2)`, `sigma` in centipawns.
    Gaussian { sigma: f64 },
    /// Geometric Brownian motion on the shifted deficit `X = d + c` over the horizon `T`: a
    /// deterministic drift `mu >= 0` that shrinks the deficits (`d -> d * exp(-mu T)`), then a
    /// geometric diffusion `s >= 0` (`X -> X * exp(s W_T - s^2 T / 2)`, mean preserving). This is a
    /// one-step splitting of `dX = -mu (X - c) dt + s X dW` over `[0, T]`.
    ///
    /// Monotonicity (tested): the best is played iff for every `i`,
    /// `s * sqrt(T) * (Z_0 - Z_i) < g_i` with `g_i = ln(1 + d_i * exp(-mu T) / c)`. Raising `mu`
    /// lowers every `g_i`; raising `s` lowers every `g_i / (s sqrt(T))`; either shrinks that event,
    /// so weaker moves become more likely. Only `mu * T` and `s * sqrt(T)` matter.
    Gbm {
        drift: f64,
        diffusion: f64,
        horizon: f64,
    },
}

/// Whether noise (and the ScoreInaccuracy Errors) may change the move, given the best score.
///
/// No when the side to move has a forced mate (`best >= MATE_BOUND`) or the position is clearly
/// won (`best >= win_guard`, by evaluation or recognizer; recognizer wins lie in the heuristic
/// range, and a position that is itself a recognized win is searched without any weakening,
/// see `engine::weaken`). Users expect a weakened engine to mate and to convert.
pub fn apply_noise_allowed(best_score: i32, win_guard: i32) -> bool {
    best_score < win_guard.min(MATE_BOUND)
}

/// A root move's score with its ScoreInaccuracy Error, for the root search's bound tests.
///
/// Mate scores (`|raw| >= MATE_BOUND`) and clearly won scores (`raw >= win_guard`) are returned
/// unchanged; any other score becomes `raw + error` clamped into `(-MATE_BOUND, win_guard)`, so a
/// perturbed move never outranks a mate or a clear win, and never looks like a mate. The result is
/// monotone non-decreasing in `raw` and lies between `raw` and `raw + error`, so the seed's windows
/// (`best - SI - 1`, `best + SI`) still bracket it.
pub fn perturb_root_score(raw: i32, error: i32, win_guard: i32) -> i32 {
    let hi = win_guard.min(MATE_BOUND);
    if raw >= hi || raw <= -MATE_BOUND {
        return raw;
    }
    raw.saturating_add(error).clamp(-MATE_BOUND + 1, hi - 1)
}

/// The move a ScoreInaccuracy root search settles on, given every root move's exact score at the
/// final depth (`raw`, in search order) and its Error: `argmax perturb_root_score(raw_m, e_m)`,
/// the first in search order on ties (the search replaces its best only on a strictly better
/// score). The seed's windows make the real search agree with this whenever `raw` are the scores a
/// full-window search would return; the search's tests compare against it.
pub fn si_reference_choice(raw: &[i32], errors: &[i32], win_guard: i32) -> usize {
    let perceived: Vec<f64> = raw
        .iter()
        .zip(errors)
        .map(|(&r, &e)| f64::from(perturb_root_score(r, e, win_guard)))
        .collect();
    argmax(&perceived, |_| true)
}

impl Noise {
    /// Perceived scores `p_i` of candidates `scores` (best first), drawing from `rng`; uses no
    /// draws for `None` or zero coefficients.
    pub fn perceive<R: Rng + ?Sized>(&self, scores: &[i32], rng: &mut R) -> Vec<f64> {
        let exact = || scores.iter().map(|&s| f64::from(s)).collect::<Vec<f64>>();
        match *self {
            Noise::None => exact(),
            Noise::Uniform { a } => {
                if a <= 0.0 {
                    return exact();
                }
                let u = Uniform::new_inclusive(-a, a).expect("a > 0 and finite");
                scores
                    .iter()
                    .map(|&s| f64::from(s) + u.sample(rng))
                    .collect()
            }
            Noise::Gaussian { sigma } => {
                if sigma <= 0.0 {
                    return exact();
                }
                let n = Normal::new(0.0, sigma).expect("sigma > 0 and finite");
                scores
                    .iter()
                    .map(|&s| f64::from(s) + n.sample(rng))
                    .collect()
            }
            Noise::Gbm {
                drift,
                diffusion,
                horizon,
            } => {
                let Some(&best) = scores.iter().max() else {
                    return Vec::new();
                };
                let b = f64::from(best);
                let shrink = (-drift * horizon).exp();
                let vol = diffusion * horizon.sqrt();
                scores
                    .iter()
                    .map(|&s| {
                        let x0 = GBM_SCALE_CP + (b - f64::from(s)) * shrink;
                        let factor = if vol > 0.0 {
                            let z: f64 = StandardNormal.sample(rng);
                            (vol * z - vol * vol / 2.0).exp()
                        } else {
                            1.0
                        };
                        b + GBM_SCALE_CP - x0 * factor
                    })
                    .collect()
            }
        }
    }
}

/// The result of [`choose`].
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// Index into the candidate list of the move to play.
    pub index: usize,
    /// Whether noise was applied (false when a guard held or there was one eligible candidate).
    pub noised: bool,
    /// Perceived scores (the exact scores when not noised), for `info string` and tests.
    pub perceived: Vec<f64>,
}

/// Index of the largest value, ties to the lowest index.
fn argmax(values: &[f64], eligible: impl Fn(usize) -> bool) -> usize {
    let mut best: Option<usize> = None;
    for (i, &v) in values.iter().enumerate() {
        if eligible(i) && best.is_none_or(|b| v > values[b]) {
            best = Some(i);
        }
    }
    best.unwrap_or(0)
}

/// Chooses the move among the MultiPV candidates `scores` (best first, exact scores).
///
/// Guards: when [`apply_noise_allowed`] says no, the best is played; candidates that get mated
/// (`score <= -MATE_BOUND`) are never chosen while another candidate is not mated. Returns index 0
/// for an empty list (the caller has no move anyway).
pub fn choose<R: Rng + ?Sized>(
    scores: &[i32],
    noise: &Noise,
    win_guard: i32,
    rng: &mut R,
) -> Choice {
    let exact: Vec<f64> = scores.iter().map(|&s| f64::from(s)).collect();
    let Some(&best) = scores.iter().max() else {
        return Choice {
            index: 0,
            noised: false,
            perceived: exact,
        };
    };
    let eligible = |i: usize| scores[i] > -MATE_BOUND;
    let n_eligible = (0..scores.len()).filter(|&i| eligible(i)).count();
    if !apply_noise_allowed(best, win_guard) || n_eligible < 2 || matches!(noise, Noise::None) {
        let index = argmax(&exact, |_| true);
        return Choice {
            index,
            noised: false,
            perceived: exact,
        };
    }
    let perceived = noise.perceive(scores, rng);
    let index = argmax(&perceived, eligible);
    Choice {
        index,
        noised: true,
        perceived,
    }
}
