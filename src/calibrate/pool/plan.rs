//! Which members play next: the first ladder, then the matches whose games most lower the
//! total variance above each member's goal per second of play (a rank-one update of the fit's
//! covariance, divided by the pair's cost: a game between the top members takes 20-50 s, one
//! near 1320 under 5 s, so counting games alone spends most of the time where it buys least).

use std::collections::BTreeMap;

use nalgebra::{DMatrix, DVector};

use super::fit::{contrast, estimate, quad, PoolFit};
use crate::calibrate::config::{anchors, PoolRunConfig};
use crate::calibrate::run::GameCost;
use crate::rating::model;
use crate::rating::model::Z95;
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

/// The greedy choice both the next batch and the forecast make: which pair's games lower the
/// pool's total excess variance (above each member's goal) most per second of play.
struct Planner<'a> {
    cfg: &'a PoolRunConfig,
    cost: &'a GameCost,
    goal_var: Vec<f64>,
    contrasts: Vec<DVector<f64>>,
    est: Vec<f64>,
    candidates: Vec<(usize, usize)>,
}

impl<'a> Planner<'a> {
    fn new(cfg: &'a PoolRunConfig, f: &PoolFit, cost: &'a GameCost) -> Planner<'a> {
        let n = cfg.pool.members.len();
        let anchored: Vec<usize> = anchors(&cfg.pool).iter().map(|(i, _)| *i).collect();
        let est: Vec<f64> = (0..n).map(|i| estimate(cfg, f, i)).collect();
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
        Planner {
            cfg,
            cost,
            goal_var: (0..n).map(|i| (cfg.goal(i) / Z95).powi(2)).collect(),
            contrasts: (0..n).map(|i| contrast(n, i, &anchored)).collect(),
            est,
            candidates,
        }
    }

    fn vars(&self, cov: &DMatrix<f64>) -> Vec<f64> {
        self.contrasts.iter().map(|c| quad(c, cov)).collect()
    }

    fn excess(&self, v: &[f64]) -> f64 {
        v.iter()
            .zip(&self.goal_var)
            .map(|(x, g)| (x - g).max(0.0))
            .sum()
    }

    /// The best pair for `games_per_pairing` more games and the covariance after them; `None`
    /// when every member meets its goal or no pair helps.
    fn best(&self, cov: &DMatrix<f64>) -> Option<((usize, usize), DMatrix<f64>)> {
        let n = self.est.len();
        let now = self.excess(&self.vars(cov));
        if now <= 0.0 {
            return None;
        }
        let games = self.cfg.measure.games_per_pairing as f64;
        let mut best: Option<(f64, (usize, usize), DMatrix<f64>)> = None;
        for &(a, b) in &self.candidates {
            let p = model::expected_score(self.est[a] - self.est[b]);
            let info = games * model::ELO_TO_NAT.powi(2) * p * (1.0 - p);
            // information on r_a - r_b
            let mut x = DVector::zeros(n);
            x[a] = 1.0;
            x[b] = -1.0;
            let c2 = covariance_with(cov, &x, info);
            let per = if self.cfg.measure.per_second {
                self.cost.seconds(a, b)
            } else {
                1.0
            };
            let gain = (now - self.excess(&self.vars(&c2))) / per;
            if gain > 0.0 && best.as_ref().is_none_or(|x| gain > x.0) {
                best = Some((gain, (a, b), c2));
            }
        }
        best.map(|(_, key, c2)| (key, c2))
    }
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
    let planner = Planner::new(cfg, f, cost);
    let mut cov = f.cov.clone();
    if planner
        .vars(&cov)
        .iter()
        .zip(&planner.goal_var)
        .all(|(v, g)| v <= g)
    {
        return None;
    }
    let games = cfg.measure.games_per_pairing;
    let mut planned: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut reasons: BTreeMap<(usize, usize), String> = BTreeMap::new();
    for _ in 0..cfg.measure.batch_matches {
        let v = planner.vars(&cov);
        let Some((key, c2)) = planner.best(&cov) else {
            break;
        };
        cov = c2;
        *planned.entry(key).or_insert(0) += games;
        reasons.entry(key).or_insert_with(|| {
            let worse = if v[key.0] >= v[key.1] { key.0 } else { key.1 };
            let s = cost.seconds(key.0, key.1);
            // sub-second games (Stockfish Skill 0-2) would all read "about 0 s"
            let digits = if s < 10.0 { 1 } else { 0 };
            format!(
                "{} at ±{:.0} (goal ±{:.0}); about {s:.digits$} s a game",
                cfg.pool.members[worse].name,
                Z95 * v[worse].sqrt(),
                cfg.goal(worse),
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

/// What the goal still costs if the games score as the current ratings predict: the planner's
/// choices followed on the expected information alone, each game at its pair's measured cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Forecast {
    pub games: usize,
    pub seconds: f64,
    /// Whether the goal is met within the games the forecast may spend.
    pub met: bool,
    /// Games and seconds by pair (config indices, lower first), where the time goes.
    pub pairs: BTreeMap<(usize, usize), (usize, f64)>,
}

/// Follows the planner until every member meets its goal or `max_games` more are spent.
/// `None` while a member is not yet connected (its information is not yet a number).
pub fn forecast(
    cfg: &PoolRunConfig,
    f: &PoolFit,
    cost: &GameCost,
    max_games: usize,
) -> Option<Forecast> {
    if f.elo.iter().any(|e| e.is_none()) {
        return None;
    }
    let planner = Planner::new(cfg, f, cost);
    let mut cov = f.cov.clone();
    let mut out = Forecast {
        games: 0,
        seconds: 0.0,
        met: false,
        pairs: BTreeMap::new(),
    };
    let games = cfg.measure.games_per_pairing;
    while out.games < max_games {
        match planner.best(&cov) {
            Some((key, c2)) => {
                cov = c2;
                let seconds = games as f64 * cost.seconds(key.0, key.1);
                out.games += games;
                out.seconds += seconds;
                let p = out.pairs.entry(key).or_default();
                p.0 += games;
                p.1 += seconds;
            }
            None => break,
        }
    }
    out.met = planner.excess(&planner.vars(&cov)) <= 0.0;
    Some(out)
}
