//! Fits of a run's games: the curve (the configured form, or a simpler one while it is not
//! increasing), every tested setting rated on its own, and the pool's current estimates.

use super::config::{CalibrationConfig, ModelKind};
use super::error::Result;
use super::fit::{self, CurveFit, PlayerStats, Role};
use super::players::{players, pool_evidence, Players};
use crate::results::GameRow;

/// Fits of all games so far: the curve and the per-setting ratings.
pub struct Analysis {
    pub players: Players,
    pub stats: Vec<PlayerStats>,
    pub curve: Option<CurveFit>,
    pub points: Option<CurveFit>,
    pub notes: Vec<String>,
}

pub fn analyse(cfg: &CalibrationConfig, games: &[GameRow]) -> Result<Analysis> {
    let players = players(cfg, games);
    let (tallies, stats) = fit::tally_games(games, &players.index)?;
    let evidence = pool_evidence(cfg, &players.index);
    let mut notes = Vec::new();
    let has_subject = players.roles.iter().any(|r| matches!(r, Role::Subject(_)));
    let mut curve = None;
    if has_subject {
        // The configured form, or the next simpler one while a form is not increasing.
        let mut model = cfg.fit.model;
        loop {
            let form = fit::Curve::new(model, cfg.plan.t_min, cfg.fit.n_knots());
            match fit::fit_with(&players.roles, &tallies, &evidence, form) {
                Ok(f) if !f.monotone(cfg.plan.t_min) && model.simpler().is_some() => {
                    let next = model.simpler().expect("checked");
                    notes.push(format!(
                        "the {} curve is not increasing on the whole path; the {} form is used",
                        model.name(),
                        next.name()
                    ));
                    model = next;
                    continue;
                }
                Ok(f) => curve = Some(f),
                Err(e) => notes.push(format!("curve fit failed: {e:#}")),
            }
            break;
        }
    }
    let free: Vec<Role> = players
        .roles
        .iter()
        .map(|r| match r {
            Role::Subject(_) => Role::Free,
            other => other.clone(),
        })
        .collect();
    let points = if has_subject {
        fit::fit_with(&free, &tallies, &evidence, ModelKind::Linear).ok()
    } else {
        None
    };
    if let Some(c) = &curve {
        if !c.monotone(cfg.plan.t_min) {
            notes.push("the fitted curve is not increasing: no table can be inverted yet".into());
        }
    }
    Ok(Analysis {
        players,
        stats,
        curve,
        points,
        notes,
    })
}

/// Current rating of each pool member for planning: fitted when the fit has one, else the
/// anchor; an unanchored member without games (here or in the pool file) has none (its fitted
/// value is only the prior).
pub(super) fn pool_estimates(cfg: &CalibrationConfig, a: &Analysis) -> Vec<Option<f64>> {
    (0..cfg.pool.members.len())
        .map(|j| {
            let m = &cfg.pool.members[j];
            let measured = cfg
                .pool_pairs
                .iter()
                .any(|p| p.games > 0 && (p.a == m.name || p.b == m.name));
            if m.elo.is_none() && !measured && a.stats.get(j).is_none_or(|s| s.games == 0) {
                return None;
            }
            match (&a.curve, &a.points) {
                (Some(f), _) | (None, Some(f)) => Some(f.players[j].elo),
                _ => m.elo,
            }
        })
        .collect()
}
