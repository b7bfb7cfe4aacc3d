//! The `monotone` curve form: Elo(t) = a + sum_j theta_j I_j(t) with I_j cubic I-splines
//! (Ramsay 1988) and every theta_j at least [`FLOOR_ELO`], so the curve rises on the whole path
//! by construction. It is the form for a path that is flat over a stretch and steep elsewhere
//! (Fairy-Stockfish's `Skill Level`: flat from -20 to -5, steep from 12 to 19), where every
//! unconstrained form either dips somewhere (the splines) or misses the flat stretch by
//! hundreds of Elo (the polynomials).
//!
//! Basis. On the clamped knot vector (t_min four times, the interior knots, 1 four times) the
//! cubic B-splines B_0..B_{n-1} sum to 1; I_j(t) = sum_{m >= j} B_m(t) for j = 1..n-1 rises from
//! 0 to 1 (Ramsay's identity), so its coefficient is the Elo the curve gains through it.
//!
//! Constraint. A term held at the floor leaves the parameters (its floor times I_j(t) is a
//! constant of each subject's rating, [`basis_offset`]), so the rating problem, the bands and the
//! inversion need nothing new; which terms are held is the active set's (`active.rs`).

/// The least Elo a term may add: keeps the curve strictly increasing (so a table can be
/// inverted) where the games say it is flat; 1 Elo a term is far below any interval.
pub const FLOOR_ELO: f64 = 1.0;
const DEGREE: usize = 3;

/// The clamped knot vector of `knots` (boundary knots first and last).
fn clamped(knots: &[f64]) -> Vec<f64> {
    let (a, b) = (knots[0], knots[knots.len() - 1]);
    let mut tau = vec![a; DEGREE];
    tau.extend_from_slice(knots);
    tau.extend(std::iter::repeat_n(b, DEGREE));
    tau
}

/// B-splines of degree `p` at t on `tau` (Cox-de Boor), t clamped to the knots' span: the
/// curve is flat beyond its ends, which the path never reaches.
fn bsplines(tau: &[f64], p: usize, t: f64) -> Vec<f64> {
    let (a, b) = (tau[0], tau[tau.len() - 1]);
    let t = t.clamp(a, b);
    // degree 0: the one interval holding t (the last non-empty one at t = b)
    let last = (0..tau.len() - 1).rev().find(|&i| tau[i] < tau[i + 1]);
    let mut v: Vec<f64> = (0..tau.len() - 1)
        .map(|i| {
            let inside = tau[i] <= t && t < tau[i + 1];
            let at_end = t >= b && Some(i) == last;
            if inside || at_end {
                1.0
            } else {
                0.0
            }
        })
        .collect();
    let ratio = |num: f64, den: f64| if den > 0.0 { num / den } else { 0.0 };
    for q in 1..=p {
        v = (0..tau.len() - 1 - q)
            .map(|i| {
                ratio(t - tau[i], tau[i + q] - tau[i]) * v[i]
                    + ratio(tau[i + q + 1] - t, tau[i + q + 1] - tau[i + 1]) * v[i + 1]
            })
            .collect();
    }
    v
}

/// d/dt of the cubic B-splines:
/// B'_i = 3 B_{i,2} / (tau_{i+3} - tau_i) - 3 B_{i+1,2} / (tau_{i+4} - tau_{i+1}).
fn bspline_derivs(tau: &[f64], t: f64) -> Vec<f64> {
    let lower = bsplines(tau, DEGREE - 1, t);
    let ratio = |num: f64, den: f64| if den > 0.0 { num / den } else { 0.0 };
    let p = DEGREE as f64;
    (0..tau.len() - 1 - DEGREE)
        .map(|i| {
            ratio(p * lower[i], tau[i + DEGREE] - tau[i])
                - ratio(p * lower[i + 1], tau[i + DEGREE + 1] - tau[i + 1])
        })
        .collect()
}

/// Every I-spline I_1..I_{n-1} (or its derivative) from the B-splines: the tail sums.
fn tail_sums(b: &[f64]) -> Vec<f64> {
    let mut out: Vec<f64> = b
        .iter()
        .rev()
        .scan(0.0, |acc, x| {
            *acc += x;
            Some(*acc)
        })
        .collect();
    out.reverse();
    out.remove(0);
    out
}

/// The number of I-splines on `knots`.
pub fn terms(knots: &[f64]) -> usize {
    knots.len() + DEGREE - 2
}

fn all_terms(knots: &[f64], t: f64) -> Vec<f64> {
    tail_sums(&bsplines(&clamped(knots), DEGREE, t))
}

fn all_derivs(knots: &[f64], t: f64) -> Vec<f64> {
    tail_sums(&bspline_derivs(&clamped(knots), t))
}

/// `all` (every I-spline, or its derivative, at one t) split into phi = (`first`, the free
/// terms) and the held terms' part of the curve, [`FLOOR_ELO`] times each held term.
fn split(all: Vec<f64>, held: &[usize], first: f64) -> (Vec<f64>, f64) {
    let mut phi = vec![first];
    let mut offset = 0.0;
    for (j, x) in all.into_iter().enumerate() {
        if held.contains(&j) {
            offset += FLOOR_ELO * x;
        } else {
            phi.push(x);
        }
    }
    (phi, offset)
}

/// phi(t) = (1, the free I-splines), and the held terms' part of Elo(t).
pub fn basis_offset(knots: &[f64], held: &[usize], t: f64) -> (Vec<f64>, f64) {
    split(all_terms(knots, t), held, 1.0)
}

/// d phi / dt, and the held terms' part of the slope.
pub fn deriv_offset(knots: &[f64], held: &[usize], t: f64) -> (Vec<f64>, f64) {
    split(all_derivs(knots, t), held, 0.0)
}

/// Knots for a monotone curve on [t_min, 1]: the boundary knots at the path's ends (an I-spline
/// is flat beyond its knots), the interior ones from `inner` (a spline's knots) when they lie
/// strictly inside, else evenly spaced.
pub fn knots(inner: &[f64], t_min: f64) -> Vec<f64> {
    let n = inner.len().max(2);
    let mut k = vec![t_min];
    k.extend_from_slice(&inner[1..n - 1]);
    k.push(1.0);
    if k.windows(2).all(|w| w[0] < w[1]) {
        k
    } else {
        super::spline::knots(t_min, n)
    }
}

/// The form for reports, with how many terms sit at the floor.
pub fn describe(knots: &[f64], held: &[usize]) -> String {
    format!(
        "Elo(t) = a + sum of {} cubic I-splines with coefficients >= {FLOOR_ELO} Elo ({} at that floor), knots at t = {}",
        terms(knots),
        held.len(),
        super::spline::knots_text(knots)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn i_splines_rise_from_zero_to_one_and_their_derivative_is_right() {
        let knots = [-0.3, 0.1, 0.4, 0.7, 1.0];
        assert_eq!(terms(&knots), 6);
        let at = |t: f64| all_terms(&knots, t);
        assert!(at(-0.3).iter().all(|&x| x.abs() < 1e-12), "{:?}", at(-0.3));
        assert!(
            at(1.0).iter().all(|&x| (x - 1.0).abs() < 1e-12),
            "{:?}",
            at(1.0)
        );
        let h = 1e-6;
        for i in 0..=200 {
            let t = -0.3 + 1.3 * i as f64 / 200.0;
            let (lo, hi) = (at((t - h).max(-0.3)), at((t + h).min(1.0)));
            let d = all_derivs(&knots, t);
            for j in 0..6 {
                assert!(at(t)[j] >= -1e-12 && at(t)[j] <= 1.0 + 1e-12);
                assert!(hi[j] >= lo[j] - 1e-12, "I_{j} falls at t = {t}");
                let numeric = (hi[j] - lo[j]) / ((t + h).min(1.0) - (t - h).max(-0.3));
                assert!(
                    (numeric - d[j]).abs() < 1e-4,
                    "I_{j}' at {t}: {numeric} vs {}",
                    d[j]
                );
            }
        }
    }

    #[test]
    fn held_terms_move_from_the_parameters_to_the_offset() {
        let knots = [0.0, 0.5, 1.0];
        let t = 0.3;
        let all = all_terms(&knots, t);
        let (phi, offset) = basis_offset(&knots, &[1], t);
        assert_eq!(phi.len(), all.len());
        assert_eq!(phi[1], all[0]);
        assert_eq!(phi[2], all[2]);
        assert!((offset - FLOOR_ELO * all[1]).abs() < 1e-15);
    }
}
