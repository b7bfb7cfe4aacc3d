//! Checking a model against people: per band of the mover's rating, per move, the correlation of
//! the model's expected time with the seconds the person took (in seconds and in logs), the mean
//! predicted over the mean taken, and the share of the start clock left after moves 20 and 40,
//! people's beside the model's own. The model's clock is simulated along each person's game: at
//! each of the person's moves it draws a time (seeded), with its own clock and its own last
//! times as features and the opponent's real clock, from the same start clock; the draw is
//! capped as the engine caps it (`safe_limit`, 1 s reserve). The naive "clock left / 40" is
//! measured beside it.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::strength::{think_safe_limit as safe_limit, ThinkModel, THINK_PREVIOUS as PREVIOUS};

use super::fit::ZERO_SECONDS;
use super::rows::GameRows;

/// Rating bands are this wide.
pub const BAND: u32 = 200;
/// The moves after which the share of the clock left is read.
pub const SHARE_MOVES: [u32; 2] = [20, 40];
/// The reserve the simulated clock keeps (the engine's floor on the remaining clock).
pub const RESERVE: f64 = 1.0;

/// One group's figures (a row of `think_time.csv`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct CheckRow {
    /// `blitz` (Lichess's: base + 40 increments from 180 s to under 480 s) or `all`.
    pub time_control: String,
    /// `1400-1599`, or `all`.
    pub band: String,
    pub moves: usize,
    pub r_seconds: f64,
    pub r_log: f64,
    pub mean_predicted: f64,
    pub mean_actual: f64,
    pub mean_ratio: f64,
    pub games_20: usize,
    pub people_share_20: f64,
    pub model_share_20: f64,
    pub naive_share_20: f64,
    pub games_40: usize,
    pub people_share_40: f64,
    pub model_share_40: f64,
    pub naive_share_40: f64,
    pub naive_r_seconds: f64,
    pub naive_r_log: f64,
    pub naive_mean_ratio: f64,
}

#[derive(Default)]
struct Acc {
    /// (predicted, naive, actual) per move
    moves: Vec<(f64, f64, f64)>,
    /// per reading move: (people, model, naive) shares
    shares: [Vec<(f64, f64, f64)>; 2],
}

/// Pearson's correlation; NaN under two points or without spread.
pub fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    if a.len() < 2 {
        return f64::NAN;
    }
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    sab / (saa * sbb).sqrt()
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        f64::NAN
    } else {
        s / n as f64
    }
}

/// The groups a move of a game counts in.
fn keys(g: &GameRows, rating: u32) -> Vec<(String, String)> {
    let lo = rating / BAND * BAND;
    let band = format!("{lo}-{}", lo + BAND - 1);
    let mut tcs = vec!["all".to_string()];
    if super::Speed::of(g.base, g.increment) == super::Speed::Blitz {
        tcs.push("blitz".to_string());
    }
    let mut out = Vec::new();
    for tc in tcs {
        out.push((tc.clone(), band.clone()));
        out.push((tc, "all".to_string()));
    }
    out
}

/// Every group's figures, blitz first, bands in order and `all` last in each.
pub fn check(model: &ThinkModel, games: &[GameRows], seed: u64) -> Vec<CheckRow> {
    let mut groups: BTreeMap<(String, String), Acc> = BTreeMap::new();
    for (gi, g) in games.iter().enumerate() {
        for white in [true, false] {
            let rows: Vec<_> = g.side(white).collect();
            let Some(first) = rows.first() else { continue };
            let mut rng = ChaCha8Rng::seed_from_u64(
                seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((gi as u64) << 1 | u64::from(white)),
            );
            let keys = keys(g, first.rating);
            let (mut own_prev, mut model_prev) = (Vec::new(), Vec::new());
            let (mut model_clock, mut naive_clock) = (first.own_clock, first.own_clock);
            for row in rows {
                let person = g.context(row, row.own_clock, &own_prev);
                let predicted = model.expected(&person);
                let naive = row.own_clock / 40.0;
                let sim = g.context(row, model_clock, &model_prev);
                let t =
                    model
                        .draw(&sim, &mut rng)
                        .min(safe_limit(model_clock, g.increment, RESERVE));
                model_clock = (model_clock - t).max(0.0) + g.increment;
                naive_clock = naive_clock - naive_clock / 40.0 + g.increment;
                own_prev.insert(0, row.seconds);
                own_prev.truncate(PREVIOUS);
                model_prev.insert(0, t);
                model_prev.truncate(PREVIOUS);
                let number = row.ply / 2 + 1;
                let after = (row.own_clock - row.seconds + g.increment).max(0.0);
                for key in &keys {
                    let acc = groups.entry(key.clone()).or_default();
                    acc.moves.push((predicted, naive, row.seconds));
                    for (i, &m) in SHARE_MOVES.iter().enumerate() {
                        if number == m {
                            acc.shares[i].push((
                                after / g.base,
                                model_clock / g.base,
                                naive_clock / g.base,
                            ));
                        }
                    }
                }
            }
        }
    }
    let mut out: Vec<CheckRow> = groups
        .into_iter()
        .map(|((tc, band), acc)| row(tc, band, &acc))
        .collect();
    let low = |band: &str| band.split('-').next().and_then(|b| b.parse::<u32>().ok());
    out.sort_by_key(|r| (r.time_control != "blitz", r.band == "all", low(&r.band)));
    out
}

fn row(time_control: String, band: String, acc: &Acc) -> CheckRow {
    let col = |f: fn(&(f64, f64, f64)) -> f64| acc.moves.iter().map(f).collect::<Vec<f64>>();
    let (pred, naive, actual) = (col(|m| m.0), col(|m| m.1), col(|m| m.2));
    let ln = |v: &[f64]| {
        v.iter()
            .map(|t| t.max(ZERO_SECONDS).ln())
            .collect::<Vec<_>>()
    };
    let mean_actual = mean(actual.iter().copied());
    let share = |i: usize, f: fn(&(f64, f64, f64)) -> f64| mean(acc.shares[i].iter().map(f));
    CheckRow {
        time_control,
        band,
        moves: acc.moves.len(),
        r_seconds: pearson(&pred, &actual),
        r_log: pearson(&ln(&pred), &ln(&actual)),
        mean_predicted: mean(pred.iter().copied()),
        mean_actual,
        mean_ratio: mean(pred.iter().copied()) / mean_actual,
        games_20: acc.shares[0].len(),
        people_share_20: share(0, |s| s.0),
        model_share_20: share(0, |s| s.1),
        naive_share_20: share(0, |s| s.2),
        games_40: acc.shares[1].len(),
        people_share_40: share(1, |s| s.0),
        model_share_40: share(1, |s| s.1),
        naive_share_40: share(1, |s| s.2),
        naive_r_seconds: pearson(&naive, &actual),
        naive_r_log: pearson(&ln(&naive), &ln(&actual)),
        naive_mean_ratio: mean(naive.iter().copied()) / mean_actual,
    }
}
