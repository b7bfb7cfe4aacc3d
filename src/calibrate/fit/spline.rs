//! The natural (restricted) cubic spline basis of the `spline` curve model: Harrell's
//! truncated-power form, cubic between the knots and linear beyond the boundary knots, so it
//! stays linear in its parameters and the curve fit, bands and inversion need nothing new.
//!
//! With knots t_1 < ... < t_K the basis is (1, t, s_1(t), ..., s_{K-2}(t)) with
//!     r_j(t) = (t - t_j)_+^3 - (t - t_{K-1})_+^3 (t_K - t_j) / (t_K - t_{K-1})
//!              + (t - t_K)_+^3 (t_{K-1} - t_j) / (t_K - t_{K-1}),
//!     s_j(t) = r_j(t) / r_j(t_K),
//! so every term rises from 0 to 1 across the path: the coefficients are then Elo-sized and the
//! Newton solve (which caps its steps in Elo) converges as fast as for the polynomials. Without
//! it the last terms are of order (knot gap)^3 and their coefficients run to 10^5.

/// Knots when `fit.knots` is not given.
pub const DEFAULT_KNOTS: usize = 6;
/// The accepted range of `fit.knots`: fewer than 4 leaves no cubic term; more than 10 asks more
/// of a run's settings than they can tell apart.
pub const KNOTS_RANGE: std::ops::RangeInclusive<usize> = 4..=10;

/// `n` knots equally spaced over [t_min, 1], the boundary knots at the ends.
pub fn knots(t_min: f64, n: usize) -> Vec<f64> {
    let n = n.max(2);
    (0..n)
        .map(|i| t_min + (1.0 - t_min) * i as f64 / (n - 1) as f64)
        .collect()
}

/// `n` knots placed by the tested settings (t, games): the boundary knots at the lowest and
/// highest t, the others at the games' quantiles i / (n - 1) of t, as regression splines are
/// usually placed. `None` when they do not come out strictly increasing (too few distinct t).
pub fn data_knots(tested: &[(f64, f64)], n: usize) -> Option<Vec<f64>> {
    let n = n.max(2);
    let mut tested: Vec<(f64, f64)> = tested.iter().copied().filter(|x| x.1 > 0.0).collect();
    tested.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (lo, hi) = (tested.first()?.0, tested.last()?.0);
    let total: f64 = tested.iter().map(|x| x.1).sum();
    let quantile = |q: f64| {
        let mut seen = 0.0;
        for &(t, w) in &tested {
            seen += w;
            if seen >= q * total {
                return t;
            }
        }
        hi
    };
    let mut knots = vec![lo];
    knots.extend((1..n - 1).map(|i| quantile(i as f64 / (n - 1) as f64)));
    knots.push(hi);
    knots.windows(2).all(|w| w[0] < w[1]).then_some(knots)
}

fn cube_plus(x: f64) -> f64 {
    if x > 0.0 {
        x * x * x
    } else {
        0.0
    }
}

fn square_plus(x: f64) -> f64 {
    if x > 0.0 {
        x * x
    } else {
        0.0
    }
}

/// The K-2 nonlinear terms (or their derivatives) with `pow` the truncated power used.
fn terms(knots: &[f64], t: f64, pow: fn(f64) -> f64, factor: f64) -> Vec<f64> {
    let k = knots.len();
    if k < 3 {
        return Vec::new();
    }
    let (last, prev) = (knots[k - 1], knots[k - 2]);
    let gap = last - prev;
    knots[..k - 2]
        .iter()
        .map(|&tj| {
            // r_j(t_K) = (t_K - t_j) ((t_K - t_j)^2 - gap^2) > 0 as t_K - t_j > gap.
            let at_end = (last - tj) * ((last - tj).powi(2) - gap * gap);
            factor
                * (pow(t - tj) - pow(t - prev) * (last - tj) / gap
                    + pow(t - last) * (prev - tj) / gap)
                / at_end
        })
        .collect()
}

/// phi(t) = (1, t, s_1(t), ..., s_{K-2}(t)).
pub fn basis(knots: &[f64], t: f64) -> Vec<f64> {
    let mut phi = vec![1.0, t];
    phi.extend(terms(knots, t, cube_plus, 1.0));
    phi
}

/// d phi / dt, analytic: d/dt (x)_+^3 = 3 (x)_+^2.
pub fn basis_deriv(knots: &[f64], t: f64) -> Vec<f64> {
    let mut d = vec![0.0, 1.0];
    d.extend(terms(knots, t, square_plus, 3.0));
    d
}

/// The knots for reports: "-0.2, 0.04, ...", to three decimals.
pub fn knots_text(knots: &[f64]) -> String {
    let at: Vec<String> = knots
        .iter()
        .map(|k| format!("{}", (k * 1000.0).round() / 1000.0))
        .collect();
    at.join(", ")
}

/// The form for reports: "... 6 knots at t = -0.2, 0.04, ...".
pub fn describe(knots: &[f64]) -> String {
    format!(
        "Elo(t) = natural cubic spline in t, {} knots at t = {}",
        knots.len(),
        knots_text(knots)
    )
}
