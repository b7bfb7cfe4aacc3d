//! Which members play next: the first ladder, then the matches whose games narrow the widest
//! intervals most per second of play (a rank-one update of the fit's covariance, divided by
//! the pair's measured cost: a game between the top members takes 100 s, one near 1320 under
//! 5 s, so counting games alone spends most of the time where it buys least).

use std::collections::BTreeMap;

use nalgebra::{DMatrix, DVector};

use super::config::{anchors, PoolRunConfig};
use super::fit::{contrast, estimate, quad, PoolFit};
use super::Z95;
use crate::calibrate::cost::GameCost;
use crate::rating::model;
use crate::rating::problem::covariance_with;

/// One planned match: two members (config indices) and its games.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedMatch {
    pub a: usize,
    pub b: usize,
    pub games: usize,
    pub reason: String,
}

/// The first batch: adjacent members by their configured ratings, so every member is connected.
pub fn first_ladder(cfg: &PoolRunConfig) -> Vec<PlannedMatch> {
    let n = cfg.pool.members.len();
    let mut order: Vec<(usize, f64)> = (0..n)
        .map(|i| {
            let m = &cfg.pool.members[i];
            (i, m.elo.or(m.guess).unwrap_or(0.0))
        })
        .collect();
    order.sort_by(|x, y| x.1.total_cmp(&y.1));
    order
        .windows(2)
        .map(|w| PlannedMatch {
            a: w[0].0,
            b: w[1].0,
            games: cfg.measure.games_per_pairing,
            reason: "first ladder: neighbours by configured rating".into(),
        })
        .collect()
}

/// The next batch, or `None` when every member meets the goal. Each match is the pair (within
/// `max_gap`, or neighbours in rating order) whose games lower the pool's total excess variance
/// most per second of play: the drop predicted by a rank-one update, over the pair's cost.
pub fn next_batch(cfg: &PoolRunConfig, f: &PoolFit, cost: &GameCost) -> Option<Vec<PlannedMatch>> {
    let n = cfg.pool.members.len();
    if f.elo.iter().any(|e| e.is_none()) {
        // someone is not connected yet: the ladder again, for the unconnected ones
        let missing: Vec<usize> = (0..n).filter(|&i| f.elo[i].is_none()).collect();
        return Some(
            first_ladder(cfg)
                .into_iter()
                .filter(|m| missing.contains(&m.a) || missing.contains(&m.b))
                .collect(),
        );
    }
    let goal_var: Vec<f64> = (0..n).map(|i| (cfg.goal(i) / Z95).powi(2)).collect();
    let anchored: Vec<usize> = anchors(&cfg.pool).iter().map(|(i, _)| *i).collect();
    let contrasts: Vec<DVector<f64>> = (0..n).map(|i| contrast(n, i, &anchored)).collect();
    let mut cov = f.cov.clone();
    let vars =
        |cov: &DMatrix<f64>| -> Vec<f64> { contrasts.iter().map(|c| quad(c, cov)).collect() };
    let excess =
        |v: &[f64]| -> f64 { v.iter().zip(&goal_var).map(|(x, g)| (x - g).max(0.0)).sum() };
    if vars(&cov).iter().zip(&goal_var).all(|(v, g)| v <= g) {
        return None;
    }
    let est: Vec<f64> = (0..n).map(|i| estimate(cfg, f, i)).collect();
    let games = cfg.measure.games_per_pairing;
    let mut planned: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut reasons: BTreeMap<(usize, usize), String> = BTreeMap::new();
    // candidate pairs: within max_gap, plus neighbours in rating order (so no gap in the
    // ladder wider than max_gap leaves a member stranded)
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if (est[a] - est[b]).abs() <= cfg.measure.max_gap {
                candidates.push((a, b));
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| est[x].total_cmp(&est[y]));
    for w in order.windows(2) {
        let key = (w[0].min(w[1]), w[0].max(w[1]));
        if !candidates.contains(&key) {
            candidates.push(key);
        }
    }
    for _ in 0..cfg.measure.batch_matches {
        let v = vars(&cov);
        let now = excess(&v);
        if now <= 0.0 {
            break;
        }
        let mut best: Option<(f64, (usize, usize), DMatrix<f64>)> = None;
        for &(a, b) in &candidates {
            let p = model::expected_score(est[a] - est[b]);
            let info = games as f64 * model::ELO_TO_NAT.powi(2) * p * (1.0 - p);
            // information on r_a - r_b
            let mut x = DVector::zeros(n);
            x[a] = 1.0;
            x[b] = -1.0;
            let c2 = covariance_with(&cov, &x, info);
            let per = if cfg.measure.per_second {
                cost.seconds(a, b)
            } else {
                1.0
            };
            let gain = (now - excess(&vars(&c2))) / per;
            if gain > 0.0 && best.as_ref().is_none_or(|x| gain > x.0) {
                best = Some((gain, (a, b), c2));
            }
        }
        let Some((_, key, c2)) = best else { break };
        cov = c2;
        *planned.entry(key).or_insert(0) += games;
        reasons.entry(key).or_insert_with(|| {
            let worse = if v[key.0] >= v[key.1] { key.0 } else { key.1 };
            format!(
                "{} at ±{:.0} (goal ±{:.0}); about {:.0} s a game",
                cfg.pool.members[worse].name,
                Z95 * v[worse].sqrt(),
                cfg.goal(worse),
                cost.seconds(key.0, key.1)
            )
        });
    }
    Some(
        planned
            .into_iter()
            .map(|((a, b), games)| PlannedMatch {
                a,
                b,
                games,
                reason: reasons.remove(&(a, b)).unwrap_or_default(),
            })
            .collect(),
    )
}
