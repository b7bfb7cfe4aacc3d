//! Generalized SPRT in fishtest's formulation (M. Van den Bergh's GSPRT).
//!
//! The results are trinomial [L, D, W] or pentanomial frequencies; the outcome distribution is
//! left free (no draw model). For each hypothesis the maximum-likelihood distribution on the
//! observed outcome values subject to the hypothesis is found, and
//! `LLR = sum_i n_i ln(p1_i / p0_i)`.
//! - Logistic scale: H0/H1 say "expected score = E(elo0) / E(elo1)". The constrained MLE is
//!   `p_i = phat_i / (1 + x (a_i - s))` with `x` solving `sum phat_i (a_i - s)/(1 + x (a_i - s)) = 0`.
//! - Normalized scale: H0/H1 fix the t-value `(mu - 1/2) / sigma` (per game: nelo / (800/ln 10);
//!   per pair: that times sqrt 2); the MLE is found by the fixed-point iteration of "Normalized
//!   Elo, practical" (Van den Bergh), each step a constrained-mean problem as above.
//!
//! Bounds: accept H1 when LLR >= ln((1 - beta)/alpha), accept H0 when LLR <= ln(beta/(1 - alpha)).
//! fishtest's dynamic overshoot correction is not applied (it needs the LLR history).

use super::model::expected_score;
use super::pentanomial::{regularize, NELO_PER_T};

/// The scale of `elo0` / `elo1` (`logistic` or `normalized` in a match config's `[sprt]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EloScale {
    /// Logistic Elo (the scale of the ratings).
    #[default]
    Logistic,
    /// fishtest's normalized Elo.
    Normalized,
}

/// Test of H0: elo = elo0 against H1: elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub scale: EloScale,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    AcceptH0,
    AcceptH1,
    Continue,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtResult {
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    pub state: SprtState,
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, scale: EloScale) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            scale,
        }
    }

    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Evaluates the test on trinomial [L, D, W] or pentanomial frequencies (5 entries).
    pub fn test(&self, counts: &[u64]) -> SprtResult {
        let llr = if counts.iter().sum::<u64>() == 0 {
            0.0
        } else {
            match self.scale {
                EloScale::Logistic => llr_logistic(self.elo0, self.elo1, counts),
                EloScale::Normalized => llr_normalized(self.elo0, self.elo1, counts),
            }
        };
        let (lower_bound, upper_bound) = (self.lower_bound(), self.upper_bound());
        let state = if llr >= upper_bound {
            SprtState::AcceptH1
        } else if llr <= lower_bound {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        };
        SprtResult {
            llr,
            lower_bound,
            upper_bound,
            state,
        }
    }
}

/// Empirical distribution: (value, probability) with values i/(k-1).
fn empirical(counts: &[u64]) -> (f64, Vec<(f64, f64)>) {
    let freq = regularize(counts);
    let n: f64 = freq.iter().sum();
    let k = (freq.len() - 1) as f64;
    let pdf = freq
        .iter()
        .enumerate()
        .map(|(i, f)| (i as f64 / k, f / n))
        .collect();
    (n, pdf)
}

/// Solves `sum p_i a_i / (1 + x a_i) = 0` for x in (-1/max a, -1/min a) (needs min a < 0 < max a).
fn secular(pdf: &[(f64, f64)]) -> f64 {
    let amin = pdf.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let amax = pdf.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let f = |x: f64| pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    // f decreases from +inf to -inf across the interval: bisection is safe.
    let (mut lo, mut hi) = (-1.0 / amax, -1.0 / amin);
    let eps = 1e-12 * (hi - lo);
    lo += eps;
    hi -= eps;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

fn mean_var(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mu = pdf.iter().map(|&(a, p)| a * p).sum::<f64>();
    let var = pdf
        .iter()
        .map(|&(a, p)| p * (a - mu) * (a - mu))
        .sum::<f64>();
    (mu, var)
}

/// Maximum-likelihood distribution on the same values with expectation `s`.
fn mle_expected(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted);
    pdf.iter().map(|&(a, p)| p / (1.0 + x * (a - s))).collect()
}

/// Maximum-likelihood distribution with t-value `(mu - reference) / sigma = t`.
fn mle_t_value(pdf: &[(f64, f64)], reference: f64, t: f64) -> Vec<f64> {
    let k = pdf.len();
    let mut probs = vec![1.0 / k as f64; k];
    for _ in 0..100 {
        let cur: Vec<(f64, f64)> = pdf.iter().zip(&probs).map(|(&(a, _), &p)| (a, p)).collect();
        let (mu, var) = mean_var(&cur);
        let sigma = var.sqrt();
        let shifted: Vec<(f64, f64)> = pdf
            .iter()
            .map(|&(a, p)| {
                let z = (mu - a) / sigma;
                (a - reference - t * sigma * (1.0 + z * z) / 2.0, p)
            })
            .collect();
        let x = secular(&shifted);
        let next: Vec<f64> = shifted.iter().map(|&(a, p)| p / (1.0 + x * a)).collect();
        let change = next
            .iter()
            .zip(&probs)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        probs = next;
        if change < 1e-12 {
            break;
        }
    }
    probs
}

fn llr_from(n: f64, pdf: &[(f64, f64)], p0: &[f64], p1: &[f64]) -> f64 {
    n * pdf
        .iter()
        .zip(p0.iter().zip(p1))
        .map(|(&(_, p), (q0, q1))| p * (q1.ln() - q0.ln()))
        .sum::<f64>()
}

/// LLR for logistic-Elo hypotheses (fishtest `LLR_logistic`).
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &[u64]) -> f64 {
    let (n, pdf) = empirical(counts);
    let p0 = mle_expected(&pdf, expected_score(elo0));
    let p1 = mle_expected(&pdf, expected_score(elo1));
    llr_from(n, &pdf, &p0, &p1)
}

/// LLR for normalized-Elo hypotheses (fishtest `LLR_normalized`).
pub fn llr_normalized(nelo0: f64, nelo1: f64, counts: &[u64]) -> f64 {
    let (n, pdf) = empirical(counts);
    let per_sample = if counts.len() == 5 { 2f64.sqrt() } else { 1.0 };
    let t0 = nelo0 / NELO_PER_T * per_sample;
    let t1 = nelo1 / NELO_PER_T * per_sample;
    let p0 = mle_t_value(&pdf, 0.5, t0);
    let p1 = mle_t_value(&pdf, 0.5, t1);
    llr_from(n, &pdf, &p0, &p1)
}
