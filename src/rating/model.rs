//! The game model: logistic expected score and the draw model.
//!
//! # Scale
//! All ratings are logistic Elo: a player `d` Elo stronger scores `E(d) = 1 / (1 + 10^(-d/400))`
//! on average (76.0% at +200). This is the scale of Ordo, CCRL, cutechess/fastchess and fishtest's
//! "logistic Elo", and therefore the scale of the Stockfish PR #4341 Skill Level table the
//! calibration anchors to.
//!
//! # Draw model: Davidson's relation on a logistic expected score
//! Given the expected score `E` and one draw parameter `nu >= 0`, the outcome probabilities are
//! the unique `W, D, L >= 0` with
//!
//! ```text
//! W + D/2 = E,   W + D + L = 1,   D = nu * sqrt(W * L)   (Davidson 1970)
//! ```
//!
//! Why this and not BayesElo's `drawElo` or plain Davidson: both of those fix the win/loss odds
//! by the rating difference and let draws eat into them, so the expected score at a given
//! difference shrinks as draws grow; their Elo is then on a different scale from the anchors
//! (BayesElo needs its `eloScale` correction for that). Here the expected score stays exactly
//! logistic, so the ratings do not depend on the draw model at all (the fit uses scores only,
//! like Ordo) and the draw model serves what it is needed for: simulating games for the
//! bootstrap and the variance of a game's score, `E(1-E) - D/4`, for Hessian intervals.
//! Davidson's relation keeps it to one parameter, puts the most draws between equals
//! (`D = nu / (2 + nu)` at `E = 1/2`) and makes them fade smoothly as the gap widens.

/// 95% two-sided normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// ln(10)/400: converts Elo to the natural-log odds scale.
pub const ELO_TO_NAT: f64 = std::f64::consts::LN_10 / 400.0;

/// Expected score of a player `diff` Elo stronger than the opponent.
pub fn expected_score(diff: f64) -> f64 {
    1.0 / (1.0 + (-diff * ELO_TO_NAT).exp())
}

/// Elo difference that gives the expected score `score` (0 < score < 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Outcome probabilities of one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome3 {
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

/// Davidson-logistic draw probability for expected score `e` and draw parameter `nu`.
pub fn draw_probability(e: f64, nu: f64) -> f64 {
    if nu <= 0.0 || e <= 0.0 || e >= 1.0 {
        return 0.0;
    }
    // D solves (1 - nu²/4) D² + (nu²/2) D - nu² e(1-e) = 0; this rationalized root is the one with
    // W, L >= 0 for every nu, and stays accurate where the leading coefficient vanishes (nu = 2).
    let nu2 = nu * nu;
    let a = 1.0 - nu2 / 4.0;
    let b = nu2 / 2.0;
    let q = nu2 * e * (1.0 - e);
    let disc = (b * b + 4.0 * a * q).max(0.0);
    let d = 2.0 * q / (b + disc.sqrt());
    d.min(2.0 * e.min(1.0 - e))
}

/// Win/draw/loss probabilities for expected score `e` under draw parameter `nu`.
pub fn outcome_probabilities(e: f64, nu: f64) -> Outcome3 {
    let draw = draw_probability(e, nu);
    Outcome3 {
        win: (e - draw / 2.0).max(0.0),
        draw,
        loss: (1.0 - e - draw / 2.0).max(0.0),
    }
}

/// Draw rate between equal players for draw parameter `nu`.
pub fn draw_rate_at_equal(nu: f64) -> f64 {
    nu / (2.0 + nu)
}

/// Draw parameter `nu` giving draw rate `rate` between equal players (inverse of
/// [`draw_rate_at_equal`]).
pub fn nu_from_equal_draw_rate(rate: f64) -> f64 {
    let rate = rate.clamp(0.0, 0.999_999);
    2.0 * rate / (1.0 - rate)
}

/// Variance of one game's score (0, 1/2, 1) with expected score `e` and draw parameter `nu`.
pub fn score_variance(e: f64, nu: f64) -> f64 {
    (e * (1.0 - e) - draw_probability(e, nu) / 4.0).max(0.0)
}

/// Moment estimate of `nu`: the value at which the model's expected number of draws over all
/// `(games, expected score)` cells equals the observed `draws`. Returns 0 without draws and a
/// large cap when every game was drawn.
pub fn estimate_nu(cells: &[(f64, f64)], draws: f64) -> f64 {
    let total: f64 = cells.iter().map(|c| c.0).sum();
    if draws <= 0.0 || total <= 0.0 {
        return 0.0;
    }
    let expected = |nu: f64| -> f64 {
        cells
            .iter()
            .map(|&(n, e)| n * draw_probability(e, nu))
            .sum()
    };
    const NU_MAX: f64 = 1e4;
    if expected(NU_MAX) <= draws {
        return NU_MAX;
    }
    // Expected draws grow monotonically with nu: bisect on log(nu).
    let (mut lo, mut hi) = (1e-8f64.ln(), NU_MAX.ln());
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if expected(mid.exp()) < draws {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (0.5 * (lo + hi)).exp()
}

/// Moment estimate of `nu` from the games' spread: the value at which the model's variance of
/// a game's score, summed over all `(games, expected score)` cells, equals `squares`, the
/// observed sum of squared residuals (score less expected). 0 when the games spread as much as
/// games without draws would. Unlike [`estimate_nu`] it does not lean on Davidson's shape, in
/// which draws between unequal players are rare: many draws in a lopsided pairing drive that
/// estimate, and with it the draw rate between equals, towards 1, and every even game then
/// counts as nearly certain.
pub fn estimate_nu_from_spread(cells: &[(f64, f64)], squares: f64) -> f64 {
    let variance = |nu: f64| -> f64 {
        cells
            .iter()
            .map(|&(n, e)| n * (e * (1.0 - e) - draw_probability(e, nu) / 4.0))
            .sum()
    };
    if squares >= variance(0.0) {
        return 0.0;
    }
    const NU_MAX: f64 = 1e4;
    if variance(NU_MAX) >= squares {
        return NU_MAX;
    }
    // The variance falls monotonically with nu: bisect on log(nu).
    let (mut lo, mut hi) = (1e-8f64.ln(), NU_MAX.ln());
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if variance(mid.exp()) > squares {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (0.5 * (lo + hi)).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistic_round_trip() {
        assert!((expected_score(200.0) - 0.759_746).abs() < 1e-6);
        assert!((elo_from_score(expected_score(-321.0)) + 321.0).abs() < 1e-9);
    }

    #[test]
    fn draw_model_keeps_expected_score_and_davidson_relation() {
        for &nu in &[0.3, 1.0, 2.0, 5.0, 40.0] {
            for &e in &[0.02, 0.2, 0.5, 0.77, 0.99] {
                let p = outcome_probabilities(e, nu);
                assert!((p.win + p.draw + p.loss - 1.0).abs() < 1e-12);
                assert!((p.win + p.draw / 2.0 - e).abs() < 1e-12);
                assert!(
                    (p.draw - nu * (p.win * p.loss).sqrt()).abs() < 1e-9,
                    "nu {nu} e {e}"
                );
            }
            assert!((draw_probability(0.5, nu) - draw_rate_at_equal(nu)).abs() < 1e-12);
        }
    }

    #[test]
    fn nu_estimate_recovers_draw_rate() {
        let nu = 1.3;
        let cells = [(100.0, 0.5), (50.0, 0.8), (70.0, 0.3)];
        let draws: f64 = cells
            .iter()
            .map(|&(n, e)| n * draw_probability(e, nu))
            .sum();
        assert!((estimate_nu(&cells, draws) - nu).abs() < 1e-6);
    }
}
