//! Who plays in a calibration: the names of subject settings, the players of a run and how each
//! is rated, and the engine (with options and limits) of every pool member and subject setting.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::calibrate::config::{self, option_string, CalibrationConfig, Limits};
use crate::calibrate::fit::Role;
use crate::calibrate::play::{EngineSpec, MatchSpec};
use crate::rating::problem::Cell;
use crate::results::GameRow;

pub use crate::calibrate::config::SUBJECT_PREFIX;

/// Below t = 0 (`plan.t_min`) the name carries the sign: `skillcal_t-0.2000`.
pub fn subject_name(t: f64) -> String {
    // -0.0 + 0.0 is +0.0: t = -0 is the setting t = 0, one player
    let t = t + 0.0;
    format!("{SUBJECT_PREFIX}{t:.4}")
}

pub fn parse_subject(name: &str) -> Option<f64> {
    name.strip_prefix(SUBJECT_PREFIX)?.parse().ok()
}

/// The players of a run and how each is rated.
pub struct Players {
    pub names: Vec<String>,
    pub roles: Vec<Role>,
    pub index: HashMap<String, usize>,
}

/// Pool members first (in config order), then every subject setting seen in the games.
pub fn players(cfg: &CalibrationConfig, games: &[GameRow]) -> Players {
    let mut names = Vec::new();
    let mut roles = Vec::new();
    for m in &cfg.pool.members {
        names.push(m.name.clone());
        roles.push(match m.elo {
            Some(mean) => Role::Anchored {
                mean,
                sd: m.sd.unwrap_or(cfg.pool.anchor_sd),
            },
            None => Role::Free,
        });
    }
    let mut subjects: Vec<f64> = games
        .iter()
        .flat_map(|g| [&g.white, &g.black])
        .filter_map(|n| parse_subject(n))
        .collect();
    subjects.sort_by(f64::total_cmp);
    subjects.dedup();
    for t in subjects {
        names.push(subject_name(t));
        roles.push(Role::Subject(t));
    }
    let index = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i))
        .collect();
    Players {
        names,
        roles,
        index,
    }
}

/// `games` less those against retired pool members (`pool.retired`, say a member the measured
/// pool dropped after this run played it): the pool no longer places them, so those games rate
/// no one. The note says how many were left out, and against whom.
pub fn without_retired<'a>(
    cfg: &CalibrationConfig,
    games: &'a [GameRow],
) -> (Cow<'a, [GameRow]>, Option<String>) {
    let retired = |g: &GameRow| {
        cfg.pool
            .retired
            .iter()
            .find(|r| **r == g.white || **r == g.black)
    };
    let mut against: Vec<(&str, usize)> = Vec::new();
    for r in games.iter().filter_map(retired) {
        match against.iter_mut().find(|(n, _)| n == r) {
            Some((_, k)) => *k += 1,
            None => against.push((r, 1)),
        }
    }
    if against.is_empty() {
        return (Cow::Borrowed(games), None);
    }
    let kept = games.iter().filter(|g| retired(g).is_none()).cloned();
    let note = format!(
        "left out, against members the pool retired (pool.retired): {}",
        against
            .iter()
            .map(|(n, k)| format!("{k} games against `{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    (Cow::Owned(kept.collect()), Some(note))
}

/// The measured pool's games (`pool.file`) as cells over the players' indices.
pub fn pool_evidence(cfg: &CalibrationConfig, index: &HashMap<String, usize>) -> Vec<Cell> {
    cfg.pool_pairs
        .iter()
        .filter_map(|p| {
            Some(Cell {
                a: *index.get(&p.a)?,
                b: *index.get(&p.b)?,
                n: p.games as f64,
                score: p.a_points,
                draws: p.draws as f64,
            })
        })
        .collect()
}

/// Engine of pool member j (the pool's defaults, then the member's own settings).
pub fn pool_engine(cfg: &CalibrationConfig, j: usize) -> EngineSpec {
    crate::calibrate::play::member_engine(&cfg.pool, j)
}

/// Engine of the subject at strength t: its fixed options, then the path's option knobs; a path
/// over a `go` limit sets that limit instead.
pub fn subject_engine(cfg: &CalibrationConfig, t: f64) -> EngineSpec {
    let mut limits = cfg.subject.limits.clone();
    let mut knobs = Vec::new();
    for k in &cfg.path {
        match k.limit {
            Some(l) => l.set(&mut limits, k.value(t)),
            None => knobs.push((k.knob.clone(), k.value(t))),
        }
    }
    let names: Vec<String> = knobs.iter().map(|(k, _)| k.clone()).collect();
    let set = knobs
        .into_iter()
        .map(|(k, v)| (k, config::fmt_num(v)))
        .collect();
    subject_spec(cfg, subject_name(t), &names, set, limits)
}

/// The subject's engine as `name`: its fixed options but those named in `drop`, then `set`
/// (sent after the fixed ones), at `limits`.
pub fn subject_spec(
    cfg: &CalibrationConfig,
    name: String,
    drop: &[String],
    set: Vec<(String, String)>,
    limits: Limits,
) -> EngineSpec {
    let mut options: Vec<(String, String)> = cfg
        .subject
        .options
        .iter()
        .filter(|(k, _)| !drop.contains(k))
        .map(|(k, v)| (k.clone(), option_string(v)))
        .collect();
    options.extend(set);
    EngineSpec {
        name,
        command: cfg
            .subject
            .command
            .clone()
            .unwrap_or_else(|| "builtin".into()),
        args: cfg.subject.args.clone(),
        options,
        limits,
        id_name: None,
    }
}

/// A well-mixed seed per match (splitmix64).
pub fn match_seed(seed: u64, batch: u32, j: usize) -> u64 {
    let mut z = seed
        .wrapping_add((batch as u64) << 32)
        .wrapping_add(j as u64)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub fn match_spec(
    cfg: &CalibrationConfig,
    engines: Vec<EngineSpec>,
    games: usize,
    seed: u64,
) -> MatchSpec {
    MatchSpec {
        engines,
        games_per_opponent: games,
        seed,
        concurrency: cfg.concurrency,
        openings: cfg.openings.file.clone(),
        openings_order: cfg.openings.order.clone(),
        openings_plies: cfg.openings.plies,
        adjudication: cfg.adjudication.clone(),
        stop_after_sweep: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_t_round_trips() {
        assert_eq!(subject_name(-0.2), "skillcal_t-0.2000");
        assert_eq!(parse_subject("skillcal_t-0.2000"), Some(-0.2));
        assert_eq!(subject_name(-0.0), "skillcal_t0.0000");
        assert_eq!(parse_subject(&subject_name(-0.175)), Some(-0.175));
    }
}
