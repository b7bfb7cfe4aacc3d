//! How each level plays: the per-level table `analysis/levels.csv` (each tested setting's
//! move-quality figures from its `analysis.csv` row, beside its Elo).

use serde::{Deserialize, Serialize};

use super::analysis::AnalysisRow;
use super::csvfile::CsvRow;

/// A rate in losing positions over that in equal ones, e.g. of blunders or of material drops
/// (None when the equal rate is 0 or either is undefined): how much more often a level errs once
/// it is losing.
pub fn state_ratio(losing: Option<f64>, equal: Option<f64>) -> Option<f64> {
    match (losing, equal) {
        (Some(l), Some(q)) if q > 0.0 => Some(l / q),
        _ => None,
    }
}

/// Which series a row of the levels table belongs to.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LevelKind {
    /// A tested setting of the calibration's subject (`fit_points.csv`).
    Subject,
    /// A member of the reference pool (`pool.csv`), a reference point of known Elo.
    Pool,
}

/// One row of `analysis/levels.csv`. For a subject setting `elo` is the fitted curve's Elo at
/// its `t` (band from `fit_curve.csv`) and `elo_measured` its own rating (`fit_points.csv`);
/// for a pool member `elo` is its rating in `pool.csv` and `t`, `elo_measured` are empty.
/// Rates are fractions of the player's moves; `losing_equal_ratio` is the blunder rate in
/// losing positions over that in equal ones, `drop_losing_equal_ratio` the same for material
/// drops (a loss of 300 cp or more, which unlike Lichess's blunder can happen when losing).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LevelRow {
    pub kind: LevelKind,
    pub name: String,
    pub t: Option<f64>,
    pub knobs: String,
    pub elo: f64,
    pub elo_lower: Option<f64>,
    pub elo_upper: Option<f64>,
    pub elo_measured: Option<f64>,
    pub measured_lower: Option<f64>,
    pub measured_upper: Option<f64>,
    pub games: usize,
    pub moves: usize,
    pub acpl: Option<f64>,
    pub acpl_lower: Option<f64>,
    pub acpl_upper: Option<f64>,
    pub accuracy: Option<f64>,
    pub accuracy_lower: Option<f64>,
    pub accuracy_upper: Option<f64>,
    pub inaccuracy_rate: Option<f64>,
    pub inaccuracy_rate_lower: Option<f64>,
    pub inaccuracy_rate_upper: Option<f64>,
    pub mistake_rate: Option<f64>,
    pub mistake_rate_lower: Option<f64>,
    pub mistake_rate_upper: Option<f64>,
    pub blunder_rate: Option<f64>,
    pub blunder_rate_lower: Option<f64>,
    pub blunder_rate_upper: Option<f64>,
    pub blunder_rate_equal: Option<f64>,
    pub blunder_rate_equal_lower: Option<f64>,
    pub blunder_rate_equal_upper: Option<f64>,
    pub blunder_rate_losing: Option<f64>,
    pub blunder_rate_losing_lower: Option<f64>,
    pub blunder_rate_losing_upper: Option<f64>,
    pub losing_equal_ratio: Option<f64>,
    pub drop_rate_equal: Option<f64>,
    pub drop_rate_equal_lower: Option<f64>,
    pub drop_rate_equal_upper: Option<f64>,
    pub drop_rate_losing: Option<f64>,
    pub drop_rate_losing_lower: Option<f64>,
    pub drop_rate_losing_upper: Option<f64>,
    pub drop_losing_equal_ratio: Option<f64>,
    pub top1: Option<f64>,
    pub top1_lower: Option<f64>,
    pub top1_upper: Option<f64>,
}

impl CsvRow for LevelRow {}

/// Where a level's Elo comes from; the figures come from its `analysis.csv` row.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelElo {
    pub kind: LevelKind,
    pub t: Option<f64>,
    /// The knobs (subject) or the analysed settings string (pool member).
    pub knobs: String,
    pub elo: f64,
    pub elo_lower: Option<f64>,
    pub elo_upper: Option<f64>,
    pub elo_measured: Option<f64>,
    pub measured_lower: Option<f64>,
    pub measured_upper: Option<f64>,
}

impl LevelRow {
    /// The row of a player with Elo `e` and analysis figures `a`.
    pub fn new(e: LevelElo, a: &AnalysisRow) -> LevelRow {
        LevelRow {
            kind: e.kind,
            name: a.player.clone(),
            t: e.t,
            knobs: e.knobs,
            elo: e.elo,
            elo_lower: e.elo_lower,
            elo_upper: e.elo_upper,
            elo_measured: e.elo_measured,
            measured_lower: e.measured_lower,
            measured_upper: e.measured_upper,
            games: a.games,
            moves: a.moves,
            acpl: a.acpl,
            acpl_lower: a.acpl_lower,
            acpl_upper: a.acpl_upper,
            accuracy: a.accuracy,
            accuracy_lower: a.accuracy_lower,
            accuracy_upper: a.accuracy_upper,
            inaccuracy_rate: a.inaccuracy_rate,
            inaccuracy_rate_lower: a.inaccuracy_rate_lower,
            inaccuracy_rate_upper: a.inaccuracy_rate_upper,
            mistake_rate: a.mistake_rate,
            mistake_rate_lower: a.mistake_rate_lower,
            mistake_rate_upper: a.mistake_rate_upper,
            blunder_rate: a.blunder_rate,
            blunder_rate_lower: a.blunder_rate_lower,
            blunder_rate_upper: a.blunder_rate_upper,
            blunder_rate_equal: a.blunder_rate_equal,
            blunder_rate_equal_lower: a.blunder_rate_equal_lower,
            blunder_rate_equal_upper: a.blunder_rate_equal_upper,
            blunder_rate_losing: a.blunder_rate_losing,
            blunder_rate_losing_lower: a.blunder_rate_losing_lower,
            blunder_rate_losing_upper: a.blunder_rate_losing_upper,
            losing_equal_ratio: state_ratio(a.blunder_rate_losing, a.blunder_rate_equal),
            drop_rate_equal: a.drop_rate_equal,
            drop_rate_equal_lower: a.drop_rate_equal_lower,
            drop_rate_equal_upper: a.drop_rate_equal_upper,
            drop_rate_losing: a.drop_rate_losing,
            drop_rate_losing_lower: a.drop_rate_losing_lower,
            drop_rate_losing_upper: a.drop_rate_losing_upper,
            drop_losing_equal_ratio: state_ratio(a.drop_rate_losing, a.drop_rate_equal),
            top1: a.top1,
            top1_lower: a.top1_lower,
            top1_upper: a.top1_upper,
        }
    }
}
