//! The pool rated from its own games by `rating::rate` (soft anchors, Hessian intervals), with
//! each member's uncertainty relative to the anchors' mean.

use nalgebra::{DMatrix, DVector};

use crate::calibrate::config::{anchors, PoolRunConfig};
use crate::calibrate::error::{CalibrateError, Result};
use crate::rating::model::Z95;
use crate::rating::{self, Anchor, Game, Intervals, RateOptions, Ratings};

/// The pool fitted from its games: per member (config order) the rating, its SD relative to
/// the anchors, and the covariance used for planning.
#[derive(Debug, Clone)]
pub struct PoolFit {
    /// Fitted rating; `None` for a member not yet connected to an anchor.
    pub elo: Vec<Option<f64>>,
    /// SD of `r_i - mean(r_anchor)` (Elo); infinite when not connected.
    pub rel_sd: Vec<f64>,
    /// Covariance of the members' ratings (config order; NaN rows for unconnected members).
    pub cov: DMatrix<f64>,
    pub ratings: Option<Ratings>,
}

impl PoolFit {
    pub fn half_width(&self, i: usize) -> f64 {
        Z95 * self.rel_sd[i]
    }
}

/// Weights of the contrast `r_i - mean(r_anchor)` over the members.
pub(in crate::calibrate) fn contrast(n: usize, i: usize, anchored: &[usize]) -> DVector<f64> {
    let mut c = DVector::zeros(n);
    c[i] += 1.0;
    for &a in anchored {
        c[a] -= 1.0 / anchored.len() as f64;
    }
    c
}

/// Variance `c^T cov c` of the contrast `c`, over the members it weighs (the NaN rows of members
/// not yet connected weigh nothing).
pub(in crate::calibrate) fn quad(c: &DVector<f64>, cov: &DMatrix<f64>) -> f64 {
    let on: Vec<usize> = (0..c.len()).filter(|&i| c[i] != 0.0).collect();
    let c = c.select_rows(&on);
    c.dot(&(cov.select_rows(&on).select_columns(&on) * &c))
}

/// Rates the pool from its games (soft anchors, Hessian intervals).
pub fn fit(cfg: &PoolRunConfig, games: &[Game]) -> Result<PoolFit> {
    let n = cfg.pool.members.len();
    let mut out = PoolFit {
        elo: vec![None; n],
        rel_sd: vec![f64::INFINITY; n],
        cov: DMatrix::from_element(n, n, f64::NAN),
        ratings: None,
    };
    if games.is_empty() {
        return Ok(out);
    }
    let present: std::collections::HashSet<&str> = games
        .iter()
        .flat_map(|g| [g.white.as_str(), g.black.as_str()])
        .collect();
    for name in &present {
        if !cfg.pool.members.iter().any(|m| m.name == *name) {
            return Err(CalibrateError::Other(format!(
                "pool games: player `{name}` is not a member of the configured pool (add it \
                 back, or name it in `pool.retired` to keep its games out of the fit)"
            )));
        }
    }
    let anchors: Vec<(usize, Anchor)> = anchors(&cfg.pool)
        .into_iter()
        .filter(|(_, a)| present.contains(a.name.as_str()))
        .collect();
    if anchors.is_empty() {
        return Ok(out);
    }
    let r = rating::rate(
        games,
        &RateOptions {
            anchors: anchors.iter().map(|(_, a)| a.clone()).collect(),
            intervals: Intervals::Hessian,
            ..Default::default()
        },
    )?;
    let idx: Vec<Option<usize>> = cfg
        .pool
        .members
        .iter()
        .map(|m| r.index(&m.name).filter(|&k| r.players[k].elo.is_some()))
        .collect();
    for i in 0..n {
        let Some(ki) = idx[i] else { continue };
        out.elo[i] = r.players[ki].elo;
        for (j, kj) in idx.iter().enumerate() {
            if let Some(kj) = kj {
                out.cov[(i, j)] = r.cov(ki, *kj);
            }
        }
    }
    let anchored: Vec<usize> = anchors.iter().map(|(i, _)| *i).collect();
    for i in 0..n {
        if out.elo[i].is_some() {
            out.rel_sd[i] = quad(&contrast(n, i, &anchored), &out.cov).max(0.0).sqrt();
        }
    }
    out.ratings = Some(r);
    Ok(out)
}

/// Where a member stands for planning: its fitted rating, else the config's value.
pub(in crate::calibrate) fn estimate(cfg: &PoolRunConfig, f: &PoolFit, i: usize) -> f64 {
    let m = &cfg.pool.members[i];
    f.elo[i]
        .or(m.elo)
        .or(m.guess)
        .expect("validated: every member has elo or guess")
}
