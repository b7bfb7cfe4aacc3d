//! The result rows of a run: curve, points, pool, table targets, verification, plan.

use serde::{Deserialize, Serialize};

use super::csvfile::CsvRow;

/// Wins, draws and losses must add up to the games: a row that says otherwise was edited or
/// cut, and its score would be wrong.
fn tally(games: u32, wins: u32, draws: u32, losses: u32) -> Result<(), String> {
    if u64::from(wins) + u64::from(draws) + u64::from(losses) != u64::from(games) {
        return Err(format!(
            "{wins} wins, {draws} draws and {losses} losses do not add up to its {games} games"
        ));
    }
    Ok(())
}

/// A score (points a game) lies in [0, 1].
fn share(name: &str, v: f64) -> Result<(), String> {
    if !(0.0..=1.0).contains(&v) {
        return Err(format!("{name} {v} is not between 0 and 1"));
    }
    Ok(())
}

/// Each `(column, value)` a finite number: `NaN` and `inf` parse as floats, and one such value
/// turns every fit or table read from the file into NaN.
fn finite<'a>(values: impl IntoIterator<Item = (&'a str, Option<f64>)>) -> Result<(), String> {
    for (column, v) in values {
        if let Some(v) = v.filter(|v| !v.is_finite()) {
            return Err(format!("{column} {v} is not a finite number"));
        }
    }
    Ok(())
}

/// One point of the fitted curve (`fit_curve.csv`): Elo at strength parameter `t` with its 95% band.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CurveRow {
    pub t: f64,
    /// Knob values at `t`, as `Name=Value;Name=Value`.
    pub knobs: String,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl CsvRow for CurveRow {}

/// One tested subject setting (`fit_points.csv`): its own rating (each setting a free player),
/// the isotonic fit through those ratings, and the residual against the parametric curve.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PointRow {
    pub name: String,
    pub t: f64,
    pub knobs: String,
    pub games: u32,
    pub score: f64,
    pub draw_rate: f64,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
    pub isotonic: f64,
    pub curve: f64,
    pub residual: f64,
    /// Residual divided by its standard error (point and curve combined).
    pub z: f64,
}

impl CsvRow for PointRow {
    fn check(&self) -> Result<(), String> {
        share("score", self.score)?;
        share("draw_rate", self.draw_rate)
    }
}

/// One member of the reference pool (`pool.csv`): anchor (prior) and fitted rating.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PoolRow {
    pub name: String,
    /// Anchor value (prior mean); empty for unanchored members.
    pub anchor: Option<f64>,
    /// Prior standard deviation; 0 = hard anchor; empty for unanchored members.
    pub anchor_sd: Option<f64>,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
    pub games: u32,
    /// The member's rating in the measured pool file (`pool.file`'s `pool.csv`, its own games
    /// only) and its 95% interval: where the run's games move a member away from it, strength
    /// is not transitive between the pool's engines and the subject. Empty without a pool file.
    #[serde(default)]
    pub pool_file_elo: Option<f64>,
    #[serde(default)]
    pub pool_file_lower: Option<f64>,
    #[serde(default)]
    pub pool_file_upper: Option<f64>,
}

impl CsvRow for PoolRow {}

impl PoolRow {
    /// Whether the fit placed the member outside its pool-file interval (`None` without one).
    pub fn outside_pool_file(&self) -> Option<bool> {
        let (lo, hi) = (self.pool_file_lower?, self.pool_file_upper?);
        Some(self.elo < lo || self.elo > hi)
    }
}

/// One target of the table with its flags (`table_details.csv`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TargetRow {
    pub target: f64,
    pub t: f64,
    pub t_lower: f64,
    pub t_upper: f64,
    pub knobs: String,
    /// Elo the chosen setting plays at, by the fitted curve, with its 95% interval.
    pub elo: f64,
    pub elo_lower: f64,
    pub elo_upper: f64,
    pub half_width: f64,
    /// Below the lowest anchor: carried by chaining and the curve's form.
    pub extrapolated: bool,
    /// `floor` / `ceiling` when the target lies outside the engine's range on this path, else `ok`.
    pub range: RangeFlag,
    pub precision_met: bool,
}

impl CsvRow for TargetRow {
    fn check(&self) -> Result<(), String> {
        finite([
            ("target", Some(self.target)),
            ("t", Some(self.t)),
            ("t_lower", Some(self.t_lower)),
            ("t_upper", Some(self.t_upper)),
            ("elo", Some(self.elo)),
            ("elo_lower", Some(self.elo_lower)),
            ("elo_upper", Some(self.elo_upper)),
            ("half_width", Some(self.half_width)),
        ])
        .map_err(|e| format!("target {}: {e}", self.target))
    }
}

/// One verified UCI_Elo level (`verify.csv`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct VerifyRow {
    pub target: f64,
    pub measured: f64,
    pub lower: f64,
    pub upper: f64,
    pub games: u32,
    pub score: f64,
    pub diff: f64,
    pub extrapolated: bool,
    /// The same games rated with the pool at the calibration run's own fitted ratings (when the
    /// table sits in a run directory with its `pool.csv`): not independent of the calibration,
    /// but free of the difference between the run's pool spacing and the anchor table's.
    #[serde(default)]
    pub measured_run_pool: Option<f64>,
    /// The level's rating SD from its own games, every other player held at its fitted
    /// rating: the noise of its miss from the target. The interval also carries the pool's
    /// place against the anchors, which the table (rated on the same pool) shares, so that
    /// part cancels in the miss. Absent in verifications written before it was kept.
    #[serde(default)]
    pub sd_games: Option<f64>,
    /// Whether one rating fits the level's games against each of its opponents
    /// (verify_opponents.csv): chi² on (opponents − 1) degrees of freedom. Absent with one
    /// opponent and in verifications written before it was kept.
    #[serde(default)]
    pub opponents_chi2: Option<f64>,
    #[serde(default)]
    pub opponents_dof: Option<u32>,
}

impl CsvRow for VerifyRow {
    fn check(&self) -> Result<(), String> {
        share("score", self.score)
    }
}

/// One verified level against one opponent (`verify_opponents.csv`): whether a level's rating
/// holds against every member it met, or depends on which (intransitivity at the weak end).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct VerifyOpponentRow {
    pub target: f64,
    pub opponent: String,
    /// The opponent's rating and SD in the verification's fit.
    pub opponent_elo: f64,
    pub opponent_sd: f64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// The level's points per game.
    pub score: f64,
    /// Its expected score at the level's measured rating (all opponents together).
    pub expected: f64,
    /// The performance's miss from the level's other opponents' (GLS residual), in its SD: the
    /// games' binomial noise and the opponents' ratings' covariance (`crate::calibrate::verify_opponents`).
    pub z: f64,
    /// The rating this match alone gives the level (opponent held at its rating), with a 95%
    /// interval from the score's Wilson interval; infinite on the side of a perfect score.
    pub performance: f64,
    pub performance_lower: f64,
    pub performance_upper: f64,
}

impl CsvRow for VerifyOpponentRow {
    fn check(&self) -> Result<(), String> {
        tally(self.games, self.wins, self.draws, self.losses)?;
        share("score", self.score)
    }
}

/// Where a target falls on the engine's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RangeFlag {
    Ok,
    /// Weaker than the weakest setting of the path.
    Floor,
    /// Stronger than the strongest setting of the path.
    Ceiling,
}

impl RangeFlag {
    pub fn as_str(self) -> &'static str {
        match self {
            RangeFlag::Ok => "ok",
            RangeFlag::Floor => "floor",
            RangeFlag::Ceiling => "ceiling",
        }
    }
}

/// One planned match (`plan.csv`): who plays whom, and why.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PlanRow {
    pub batch: u32,
    /// The match directory's name under `matches/`.
    #[serde(rename = "match")]
    pub match_dir: String,
    pub player: String,
    /// Knob values of a subject setting, as `Name=Value;Name=Value` (empty for a pool member).
    pub knobs: String,
    /// The planner's Elo estimate of the player (`?` when it had none; empty for the ladder).
    pub estimate: String,
    /// Opponents separated by spaces.
    pub opponents: String,
    pub games_per_opponent: usize,
    pub reason: String,
}

impl CsvRow for PlanRow {
    const APPENDED: bool = true;
}

/// How many games ended one way (`terminations.csv`, written with the report).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TerminationRow {
    pub termination: String,
    pub games: usize,
    /// Share of all games, to four decimals.
    pub share: f64,
}

impl CsvRow for TerminationRow {}

/// One bin of the game-length histogram (`game_lengths.csv`, written with the report).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LengthRow {
    pub plies_from: u32,
    pub plies_to: u32,
    pub games: usize,
}

impl CsvRow for LengthRow {}

/// One member of a measured pool (`pool.csv` of a `skillcal pool` run; a calibration's
/// `pool.csv` is [`PoolRow`]).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct PoolMemberRow {
    pub name: String,
    /// The member's fitted rating on the anchors' scale.
    pub elo: Option<f64>,
    /// 95% interval relative to the anchors.
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    /// SD relative to the anchors (Elo).
    pub sd: Option<f64>,
    /// The anchor value from the config (PR #4341 for Stockfish), if any, and its prior SD.
    pub anchor_elo: Option<f64>,
    pub anchor_sd: Option<f64>,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Meets the run's precision goal.
    pub met: bool,
    pub command: String,
    pub options: String,
    pub limits: String,
}

impl CsvRow for PoolMemberRow {
    fn check(&self) -> Result<(), String> {
        let member = |e: String| format!("member `{}`: {e}", self.name);
        finite([
            ("elo", self.elo),
            ("lower", self.lower),
            ("upper", self.upper),
            ("sd", self.sd),
            ("anchor_elo", self.anchor_elo),
            ("anchor_sd", self.anchor_sd),
        ])
        .map_err(member)?;
        tally(self.games, self.wins, self.draws, self.losses).map_err(member)
    }
}

/// One row of `pool-pairs.csv` (a `skillcal pool` run): what two members scored against each other.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PoolPairRow {
    pub a: String,
    pub b: String,
    pub games: u32,
    pub a_wins: u32,
    pub draws: u32,
    pub b_wins: u32,
    /// Points of `a` (a draw is half).
    pub a_points: f64,
    /// Rating difference a - b from the fit, and its SD.
    pub fit_diff: Option<f64>,
    pub fit_diff_sd: Option<f64>,
}

impl CsvRow for PoolPairRow {
    fn check(&self) -> Result<(), String> {
        if self.a == self.b {
            return Err(format!("`{}` is paired with itself", self.a));
        }
        finite([
            ("a_points", Some(self.a_points)),
            ("fit_diff", self.fit_diff),
            ("fit_diff_sd", self.fit_diff_sd),
        ])?;
        tally(self.games, self.a_wins, self.draws, self.b_wins)?;
        let points = f64::from(self.a_wins) + f64::from(self.draws) / 2.0;
        if (self.a_points - points).abs() > 1e-6 {
            return Err(format!(
                "a_points {} is not a_wins + draws / 2 = {points}",
                self.a_points
            ));
        }
        Ok(())
    }
}

/// One planned match of a `skillcal pool` run (`plan.csv`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PoolPlanRow {
    pub batch: u32,
    #[serde(rename = "match")]
    pub match_dir: String,
    pub a: String,
    pub b: String,
    pub games: usize,
    pub reason: String,
}

impl CsvRow for PoolPlanRow {
    const APPENDED: bool = true;
}
