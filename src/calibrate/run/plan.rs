//! Adaptive planning: which settings to play next, and against whom.
//!
//! Each batch takes the targets whose 95% half-width still misses the precision goal, the
//! settings t* where the current curve reaches them (quantized to the grid so settings repeat),
//! neediest first, and pairs each with the opponents whose games narrow the curve at t* the most
//! (by the fit's own covariance; candidates are the pool members within `max_gap` of the
//! estimate and subject settings 200-300 Elo either side). Before a usable curve exists the first
//! batch plays `plan.initial` against opponents near `plan.guess`, or spread over the pool, and
//! each initial setting also plays the next stronger one. A domain extended below 0
//! (`plan.t_min`) has its lowest setting played as soon as it has no games, e.g. on resume.
//! With `plan.per_second` the opponents are ranked by the variance they remove per second of
//! play, as the pool's planner does: a game against Fairy-Stockfish's weak levels (50,000 nodes
//! with MultiPV) takes about twice one against a Stockfish level at its pick depth.

use super::cost::{CostSample, GameCost};
use super::players::Players;
pub use crate::calibrate::config::quantize;
use crate::calibrate::config::{CalibrationConfig, SelfPlayScale};
use crate::calibrate::fit::{CurveFit, RangeFlag, Role, Side};
use crate::results::GameRow;

/// An opponent of a subject setting.
#[derive(Debug, Clone, PartialEq)]
pub enum Opponent {
    /// Index into `pool.members`.
    Pool(usize),
    /// Another subject setting (chaining).
    Subject(f64),
}

#[derive(Debug, Clone, PartialEq)]
pub struct SettingPlan {
    pub t: f64,
    pub estimate: Option<f64>,
    pub opponents: Vec<Opponent>,
    pub games_per_opponent: usize,
    pub reason: String,
}

/// What the planner knows: the current fit (if any) and the pool's current ratings.
pub struct PlanState<'a> {
    pub fit: Option<&'a CurveFit>,
    /// Current rating estimate of each pool member (fitted, or the anchor, or None).
    pub pool_elo: Vec<Option<f64>>,
    pub games_played: usize,
    /// Games played so far by each subject setting t.
    pub setting_games: Vec<(f64, usize)>,
    /// What a game costs (`plan.per_second`); `None` counts every game alike.
    pub cost: Option<PairCost>,
}

/// Expected seconds of a game between a subject setting and an opponent, from the run's games
/// (games.csv's `seconds`) by [`GameCost`] over the fit's players. A setting not played yet has
/// no games of its own, so its pairs cost what its opponent's games cost on average. No pair
/// counts as cheaper than half the run's mean game: the budget is counted in games, and a very
/// cheap pairing that teaches little should not spend it.
#[derive(Debug, Clone)]
pub struct PairCost {
    cost: GameCost,
    settings: Vec<(f64, usize)>,
    unplayed: usize,
    floor: f64,
}

impl PairCost {
    pub fn new(players: &Players, games: &[GameRow]) -> PairCost {
        let n = players.names.len();
        let played = games.iter().filter_map(|g| {
            let a = *players.index.get(&g.white)?;
            let b = *players.index.get(&g.black)?;
            Some(CostSample::new(a, b, g.seconds, g.plies))
        });
        // one more member, never played: the stand-in of a new setting
        let cost = GameCost::new(n + 1, played);
        PairCost {
            floor: cost.mean().unwrap_or(0.0) / 2.0,
            cost,
            settings: players
                .roles
                .iter()
                .enumerate()
                .filter_map(|(i, r)| match r {
                    Role::Subject(t) => Some((*t, i)),
                    _ => None,
                })
                .collect(),
            unplayed: n,
        }
    }

    fn setting(&self, t: f64) -> usize {
        self.settings
            .iter()
            .find(|(u, _)| (u - t).abs() < 1e-9)
            .map_or(self.unplayed, |x| x.1)
    }

    /// Expected seconds of one game between setting `t` and `o`.
    pub fn seconds(&self, t: f64, o: &Opponent) -> f64 {
        let b = match o {
            Opponent::Pool(j) => *j,
            Opponent::Subject(u) => self.setting(*u),
        };
        self.cost.seconds(self.setting(t), b).max(self.floor)
    }
}

/// The state of every target the path may reach: (target, t*, half-width, goal); None without
/// a monotone curve. A target beyond the path's floor or ceiling is left out once the curve's
/// 95% band at that end excludes it: no setting plays there, so no number of games meets its
/// goal (the table flags it; the nearest reachable targets pin the ends of the curve). While
/// the band still holds it, it is planned at that end: after a few games the flag is a guess
/// (two settings 8 Elo apart flagged 1400 and 1600 beyond both ends at ±331 and ±412, and the
/// run stopped with its budget unspent).
pub fn target_status(cfg: &CalibrationConfig, fit: &CurveFit) -> Option<Vec<(f64, f64, f64, f64)>> {
    let low = cfg.lowest_reference();
    let mut out = Vec::new();
    for target in cfg.targets.values() {
        let inv = fit.invert(target, cfg.plan.t_min)?;
        let open = (target - inv.elo).abs() <= inv.half_width();
        if inv.range == RangeFlag::Ok || open {
            out.push((
                target,
                inv.t,
                inv.half_width(),
                cfg.precision_for(target, target < low),
            ));
        }
    }
    Some(out)
}

/// The next batch, or None when every target meets its goal or the budget is spent.
pub fn next_batch(cfg: &CalibrationConfig, state: &PlanState) -> Option<Vec<SettingPlan>> {
    let mut remaining = cfg.budget.saturating_sub(state.games_played);
    if remaining < 2 {
        return None;
    }
    let monotone = state.fit.filter(|f| f.monotone(cfg.plan.t_min));
    let mut wanted: Vec<(f64, String)> = unplayed_low_end(cfg, state).into_iter().collect();
    match monotone.and_then(|f| target_status(cfg, f)) {
        Some(status) => {
            let needs = target_needs(cfg, state, status);
            let room = cfg.plan.batch_settings.saturating_sub(wanted.len());
            let low = wanted.first().map(|w| w.0);
            wanted.extend(
                needs
                    .into_iter()
                    .filter(|n| Some(n.0) != low)
                    .take(room)
                    .map(|(t, _, r)| (t, r)),
            );
            if wanted.is_empty() {
                return None;
            }
        }
        None => {
            for &t in &cfg.plan.initial {
                let tq = quantize(cfg, t);
                if !wanted.iter().any(|w| w.0 == tq) {
                    wanted.push((tq, "initial design".into()));
                }
            }
        }
    }
    let estimate = |t: f64| -> Option<f64> {
        if let Some(f) = state.fit {
            return Some(f.elo(t));
        }
        cfg.plan.guess.map(|[a, b]| a + (b - a) * t)
    };
    // Without a usable curve the settings are also chained to each other (each plays the next
    // stronger one), so that one which loses every game to the pool is still rated.
    let mut chain: Vec<f64> = wanted.iter().map(|w| w.0).collect();
    chain.sort_by(f64::total_cmp);
    let mut plans = Vec::new();
    for (t, reason) in wanted {
        if remaining < 2 {
            break;
        }
        let est = estimate(t);
        let mut opponents = match (est, monotone) {
            (Some(e), Some(f)) => informative(cfg, state, f, t, e),
            (Some(e), None) => nearest_pool(cfg, &state.pool_elo, e),
            (None, _) => spread_pool(cfg, &state.pool_elo),
        };
        if monotone.is_none() {
            if let Some(&next) = chain.iter().find(|&&u| u > t) {
                opponents.push(Opponent::Subject(next));
            }
        }
        if opponents.is_empty() {
            // nothing near: the closest member still ties the setting to the scale
            let e = est.unwrap_or(0.0);
            if let Some(j) = closest(&state.pool_elo, e) {
                opponents.push(Opponent::Pool(j));
            }
        }
        let mut games = cfg.plan.games_per_pairing;
        let need = games * opponents.len();
        if need > remaining {
            games = (remaining / opponents.len().max(1)) & !1;
            if games < 2 {
                opponents.truncate(remaining / 2);
                games = 2;
            }
        }
        if opponents.is_empty() {
            break;
        }
        remaining = remaining.saturating_sub(games * opponents.len());
        plans.push(SettingPlan {
            t,
            estimate: est,
            opponents,
            games_per_opponent: games,
            reason,
        });
    }
    if plans.is_empty() {
        None
    } else {
        Some(plans)
    }
}

/// The settings (quantized t) the targets still short of their goal ask for, with how much
/// each needs (the larger of a target's half-width over its goal, or its share of missing nearby
/// games) and why, the neediest first.
fn target_needs(
    cfg: &CalibrationConfig,
    state: &PlanState,
    status: Vec<(f64, f64, f64, f64)>,
) -> Vec<(f64, f64, String)> {
    let mut needs: Vec<(f64, f64, String)> = Vec::new();
    let min = cfg.plan.min_games_per_target;
    let window = 1.5 / cfg.plan.grid as f64;
    for (target, t, hw, goal) in status {
        let near: usize = state
            .setting_games
            .iter()
            .filter(|(s, _)| (s - t).abs() <= window)
            .map(|(_, g)| g)
            .sum();
        if hw <= goal && near >= min {
            continue;
        }
        let tq = quantize(cfg, t);
        let (need, reason) = if hw > goal {
            (
                hw / goal,
                format!("target {target:.0}: ±{hw:.0} > {goal:.0}"),
            )
        } else {
            (
                1.0 + (min - near) as f64 / min as f64,
                format!("target {target:.0}: {near} games nearby < {min}"),
            )
        };
        match needs.iter_mut().find(|n| n.0 == tq) {
            Some(n) if n.1 < need => {
                n.1 = need;
                n.2 = reason;
            }
            Some(_) => {}
            None => needs.push((tq, need, reason)),
        }
    }
    needs.sort_by(|a, b| b.1.total_cmp(&a.1));
    needs
}

/// Why [`next_batch`] planned nothing: said at the end of every run, since a run that stops
/// with budget left looked like one cut short.
pub fn stop_reason(cfg: &CalibrationConfig, state: &PlanState) -> String {
    if cfg.budget.saturating_sub(state.games_played) < 2 {
        return format!(
            "the budget is spent ({} of {} games)",
            state.games_played, cfg.budget
        );
    }
    match state.fit.filter(|f| f.monotone(cfg.plan.t_min)) {
        Some(_) => format!(
            "every target the path reaches meets its goal, {} games of the budget of {} left \
             (a target beyond an end of the path is flagged once the curve's band there \
             excludes it)",
            cfg.budget - state.games_played,
            cfg.budget
        ),
        None => "nothing left to plan without an increasing curve".into(),
    }
}

/// The lowest setting of a domain extended below 0 (`plan.t_min`) while no setting within one
/// grid step of it has games: the curve only extrapolates there, and a target it puts beyond the
/// floor would never be played, so the new end is measured first.
fn unplayed_low_end(cfg: &CalibrationConfig, state: &PlanState) -> Option<(f64, String)> {
    let low = quantize(cfg, cfg.plan.t_min);
    let step = 1.0 / cfg.plan.grid as f64;
    let played = state
        .setting_games
        .iter()
        .any(|&(t, g)| g > 0 && t <= low + step + 1e-9);
    (low < 0.0 && !played).then(|| (low, format!("t_min {low:.3}: the path's new low end")))
}

/// The opponents whose games narrow the curve at t the most, chosen greedily: the candidates
/// are the pool members within `max_gap` of the estimate e and the subject settings 200 and 300
/// Elo either side; each pick is the one after whose games (as the fit expects them to score)
/// Var r(t) is smallest (with `plan.per_second`: whose games remove the most of Var r(t) per
/// second of play). The nearest members are not always best: when the anchors' priors dominate,
/// a game against a member further along the pool ties t to more of the scale. With self-play
/// on its own scale (`fit.self_play_scale`) the first pick is the member nearest the estimate.
fn informative(
    cfg: &CalibrationConfig,
    state: &PlanState,
    fit: &CurveFit,
    t: f64,
    e: f64,
) -> Vec<Opponent> {
    let pool = &state.pool_elo;
    let per = |o: &Opponent| state.cost.as_ref().map_or(1.0, |c| c.seconds(t, o));
    let mut candidates: Vec<Opponent> = pool
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_some_and(|r| (r - e).abs() <= cfg.plan.max_gap))
        .map(|(j, _)| Opponent::Pool(j))
        .collect();
    for step in [-300.0, -200.0, 200.0, 300.0] {
        if let Some(inv) = fit
            .invert(e + step, cfg.plan.t_min)
            .filter(|i| i.range == RangeFlag::Ok)
        {
            let t2 = quantize(cfg, inv.t);
            if t2 != t && !candidates.contains(&Opponent::Subject(t2)) {
                candidates.push(Opponent::Subject(t2));
            }
        }
    }
    let side = |o: &Opponent| match o {
        Opponent::Pool(j) => Side::Player(*j),
        Opponent::Subject(u) => Side::Curve(*u),
    };
    let n = cfg.plan.games_per_pairing as f64;
    let mut current = fit.clone();
    let mut chosen = Vec::new();
    // Self-play on its own scale ties a setting to the others by a fitted stretch, not to the
    // pool's scale: the first opponent is then the pool member nearest the estimate, whatever
    // the variance says. Nearest, because at the weak end the engine and a pool's ladder need
    // not be transitive (a setting's performance differs by hundreds of Elo between two weak
    // members); the logistic model holds best between near opponents, and verify meets the
    // nearest members too. Ranked by variance, a setting beyond the tested range could get only
    // self-play, and a row land on a setting that plays a hundred Elo off.
    if cfg.fit.self_play_scale != SelfPlayScale::Fixed(1.0) {
        if let Some(j) = closest(pool, e) {
            let o = Opponent::Pool(j);
            candidates.retain(|c| *c != o);
            current = current.with_games(Side::Curve(t), side(&o), n);
            chosen.push(o);
        }
    }
    while chosen.len() < cfg.plan.opponents_per_setting && !candidates.is_empty() {
        let now = current.elo_sd(t).powi(2);
        let (best, after, _) = candidates
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let after = current.with_games(Side::Curve(t), side(o), n);
                let gain = (now - after.elo_sd(t).powi(2)) / per(o);
                (i, after, gain)
            })
            .max_by(|a, b| a.2.total_cmp(&b.2))
            .expect("candidates are not empty");
        chosen.push(candidates.remove(best));
        current = after;
    }
    chosen
}

fn closest(pool: &[Option<f64>], e: f64) -> Option<usize> {
    pool.iter()
        .enumerate()
        .filter_map(|(j, r)| r.map(|r| (j, (r - e).abs())))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(j, _)| j)
}

/// Pool members within `max_gap` of e: the nearest below and above first, then by distance.
fn nearest_pool(cfg: &CalibrationConfig, pool: &[Option<f64>], e: f64) -> Vec<Opponent> {
    let mut near: Vec<(usize, f64)> = pool
        .iter()
        .enumerate()
        .filter_map(|(j, r)| r.map(|r| (j, r - e)))
        .filter(|(_, d)| d.abs() <= cfg.plan.max_gap)
        .collect();
    near.sort_by(|a, b| a.1.abs().total_cmp(&b.1.abs()));
    let mut order = Vec::new();
    if let Some(b) = near.iter().find(|x| x.1 <= 0.0) {
        order.push(b.0);
    }
    if let Some(a) = near.iter().find(|x| x.1 > 0.0) {
        order.push(a.0);
    }
    for (j, _) in &near {
        if !order.contains(j) {
            order.push(*j);
        }
    }
    order.truncate(cfg.plan.opponents_per_setting);
    order.into_iter().map(Opponent::Pool).collect()
}

/// Without any estimate: members spread evenly over the pool sorted by rating.
fn spread_pool(cfg: &CalibrationConfig, pool: &[Option<f64>]) -> Vec<Opponent> {
    let mut rated: Vec<(usize, f64)> = pool
        .iter()
        .enumerate()
        .filter_map(|(j, r)| r.map(|r| (j, r)))
        .collect();
    rated.sort_by(|a, b| a.1.total_cmp(&b.1));
    let k = cfg.plan.opponents_per_setting.max(3).min(rated.len());
    if k == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for i in 0..k {
        let idx = if k == 1 {
            rated.len() / 2
        } else {
            i * (rated.len() - 1) / (k - 1)
        };
        let j = rated[idx].0;
        if !out.contains(&Opponent::Pool(j)) {
            out.push(Opponent::Pool(j));
        }
    }
    out
}
