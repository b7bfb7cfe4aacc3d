//! The rows of the time-control check (`tc-check/tc_check.csv`) and of the comparison page
//! (`compare_targets.csv`, `compare_families.csv`).

use serde::{Deserialize, Serialize};

use super::csvfile::CsvRow;

/// One UCI_Elo level at one time control (`tc_check.csv`). The difference columns compare the
/// level's rating here with its rating at the level's first (reference) time control, so they
/// are empty on the reference row.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TcCheckRow {
    pub level: f64,
    /// The subject's clock, `base+inc` in seconds.
    pub tc: String,
    pub measured: f64,
    pub lower: f64,
    pub upper: f64,
    pub games: u32,
    pub score: f64,
    /// measured − the reference time control's measured, with its 95% interval (the two
    /// ratings' covariance counted: they share the pool).
    pub diff: Option<f64>,
    pub diff_lower: Option<f64>,
    pub diff_upper: Option<f64>,
    /// The level passed: its difference's 95% interval lies within the check's tolerance
    /// ([`TC_TOLERANCE`]); false when it failed or cannot tell ([`TcCheckRow::verdict`], read
    /// from the interval, says which). A check folder may hold a column set from the point
    /// estimate alone, so readers judge by the interval, never by this column.
    pub pass: Option<bool>,
    /// Milliseconds of play per ply in this level's games at this clock (both sides, wall time:
    /// the opponents search to their node limits at every clock, so a change is the subject's
    /// clock or the machine's load). Absent in checks written before it was kept.
    #[serde(default)]
    pub ms_per_ply: Option<f64>,
    /// The subject's mean depth and nodes a move in these games (games.csv's per-side
    /// columns; a game counts once). Nodes are work done, so unlike the time per ply the load
    /// does not move them: a search the clock stops short reaches fewer. Absent in checks
    /// whose games were played before games.csv kept them.
    #[serde(default)]
    pub depth: Option<f64>,
    #[serde(default)]
    pub nodes: Option<f64>,
}

impl CsvRow for TcCheckRow {
    fn check(&self) -> Result<(), String> {
        if !(0.0..=1.0).contains(&self.score) {
            return Err(format!("score {} is not between 0 and 1", self.score));
        }
        Ok(())
    }
}

/// How far apart (Elo) a level's ratings at two clocks may be.
pub const TC_TOLERANCE: f64 = 50.0;

/// What a level's difference between two clocks shows, read from its 95% interval against the
/// ±[`TC_TOLERANCE`] band: the interval inside the band passes, wholly outside it fails, and one
/// that reaches across an edge (at 240 games a level it is about ±60 wide) cannot tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TcVerdict {
    Pass,
    Inconclusive,
    Fail,
}

impl TcVerdict {
    /// The verdict of a difference whose 95% interval is `[lower, upper]`.
    pub fn of(lower: f64, upper: f64) -> TcVerdict {
        if lower >= -TC_TOLERANCE && upper <= TC_TOLERANCE {
            TcVerdict::Pass
        } else if lower > TC_TOLERANCE || upper < -TC_TOLERANCE {
            TcVerdict::Fail
        } else {
            TcVerdict::Inconclusive
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TcVerdict::Pass => "pass",
            TcVerdict::Inconclusive => "inconclusive",
            TcVerdict::Fail => "FAIL",
        }
    }
}

impl TcCheckRow {
    /// This level's verdict at this clock (`None` on the reference clock's row).
    pub fn verdict(&self) -> Option<TcVerdict> {
        Some(TcVerdict::of(self.diff_lower?, self.diff_upper?))
    }
}

/// The check's verdict: FAIL when a level fails, else inconclusive when one cannot tell, else
/// pass (`None`: no row holds a difference).
pub fn tc_verdict(rows: &[TcCheckRow]) -> Option<TcVerdict> {
    rows.iter()
        .filter_map(TcCheckRow::verdict)
        .max_by_key(|v| match v {
            TcVerdict::Pass => 0,
            TcVerdict::Inconclusive => 1,
            TcVerdict::Fail => 2,
        })
}

/// Whether every level of a time-control check passed by [`tc_verdict`] (`None`: no row holds
/// a difference); an inconclusive level has not passed.
pub fn tc_check_pass(rows: &[TcCheckRow]) -> Option<bool> {
    tc_verdict(rows).map(|v| v == TcVerdict::Pass)
}

/// One family at one target of the comparison (`compare_targets.csv`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CompareTargetRow {
    pub target: f64,
    pub family: String,
    /// The family's knob settings at the target, as `Name=Value;Name=Value`.
    pub knobs: String,
    /// Nodes a move the setting searches at most; empty when nothing bounds them.
    pub nodes: Option<f64>,
    /// Where `nodes` comes from: `path` (the path moves LimitNodes), `fixed` (the subject's
    /// LimitNodes option), `go nodes` (the subject's go limit) or `unbounded`.
    pub nodes_source: String,
    /// The node limit's 95% interval (the table's `LimitNodes_lower/_upper`) when the path
    /// moves it.
    pub nodes_lower: Option<f64>,
    pub nodes_upper: Option<f64>,
    /// Elo the setting plays at by the fitted curve, with its 95% interval.
    pub elo: f64,
    pub elo_lower: f64,
    pub elo_upper: f64,
    pub range: String,
    pub extrapolated: bool,
}

impl CsvRow for CompareTargetRow {}

/// One family of the comparison (`compare_families.csv`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CompareFamilyRow {
    pub family: String,
    pub dir: String,
    /// `fit` or `no fit yet`.
    pub status: String,
    pub games: Option<u64>,
    pub budget: Option<u64>,
    /// Hours of play summed over the run's games (games.csv `seconds`; two games play at once
    /// on two cores, so the wall time is about half).
    pub game_hours: Option<f64>,
    /// Lowest and highest in-range target whose interval is within ±75 (and ±50) Elo.
    pub covered75_from: Option<f64>,
    pub covered75_to: Option<f64>,
    pub covered50_from: Option<f64>,
    pub covered50_to: Option<f64>,
    /// RMS of measured − target over the verified levels in the anchored range.
    pub verify_rms: Option<f64>,
    /// The time-control check's verdict ([`tc_verdict`]); empty when none was run.
    pub tc_check: Option<TcVerdict>,
}

impl CsvRow for CompareFamilyRow {}

/// How one family plays at one target Elo (`compare_play.csv`): its analysed tested settings'
/// figures interpolated linearly in the curve's Elo between the two settings that bracket the
/// target. Outside the analysed settings' Elo range `in_range` is false and every figure empty
/// (never extrapolated); a figure is empty too when either bracketing setting lacks it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ComparePlayRow {
    pub family: String,
    pub target: f64,
    /// The family's analysed tested settings the figures come from.
    pub settings: u32,
    pub in_range: bool,
    pub acpl: Option<f64>,
    pub blunder_rate: Option<f64>,
    /// Blunder rate in losing positions over that in equal ones.
    pub losing_equal_ratio: Option<f64>,
    /// Material-drop rate (a loss of 300 cp or more) in losing positions over that in equal ones.
    pub drop_losing_equal_ratio: Option<f64>,
    /// Share of moves that are the reference engine's first choice.
    pub top1: Option<f64>,
}

impl CsvRow for ComparePlayRow {}

/// One family beside rated human games of one rating band (`compare_human.csv`). The humans'
/// figures come from `skillcal analyse --human` (human.csv); the family's are interpolated
/// between its analysed tested settings twice: at the band's middle Elo, and at the Elo where the
/// family's ACPL equals the humans' (`acpl_elo`; empty when the humans' ACPL lies outside the
/// family's analysed range). Human ratings are on their site's scale, not the pool's, so the
/// second compares how a family errs at the humans' average loss whatever the label.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CompareHumanRow {
    pub band: String,
    pub band_elo: f64,
    pub family: String,
    pub human_moves: usize,
    pub human_acpl: Option<f64>,
    pub human_blunder_rate: Option<f64>,
    pub human_mistake_rate: Option<f64>,
    pub human_inaccuracy_rate: Option<f64>,
    pub human_drop_ratio: Option<f64>,
    pub human_top1: Option<f64>,
    /// The family at the band's Elo (empty outside its analysed Elo range).
    pub acpl: Option<f64>,
    pub blunder_rate: Option<f64>,
    pub top1: Option<f64>,
    /// The Elo (on the family's curve) where its ACPL equals the humans'.
    pub acpl_elo: Option<f64>,
    pub blunder_rate_at_acpl: Option<f64>,
    pub mistake_rate_at_acpl: Option<f64>,
    pub inaccuracy_rate_at_acpl: Option<f64>,
    pub drop_ratio_at_acpl: Option<f64>,
    pub top1_at_acpl: Option<f64>,
    /// Mean absolute natural log of family over human, over the figures at equal ACPL that both
    /// have (blunder, mistake and inaccuracy rates, drop ratio, top-1): 0 is alike, 0.1 about
    /// 10% apart on average.
    pub unlikeness: Option<f64>,
}

impl CsvRow for CompareHumanRow {}

/// One point of compare's figure of move-matching against Elo (`compare_tradeoff.csv`): a
/// setting's line, the Elo it plays at, the band whose humans it is matched against, and how
/// often it plays their move (a fraction, with its 95% interval).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CompareTradeoffRow {
    pub line: String,
    pub elo: f64,
    pub band: String,
    pub rate: f64,
    pub lower: f64,
    pub upper: f64,
}

impl CsvRow for CompareTradeoffRow {}

/// A row of `compare_bands.csv`: on one band of people, a setting played at each band's level
/// (`UCI_Elo` the band's middle) beside the best Maia-1 net's top move there.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CompareBandRow {
    pub band: String,
    pub line: String,
    pub rate: f64,
    pub lower: f64,
    pub upper: f64,
    /// The Maia-1 net whose top move matches this band most (e.g. `1100`), and how often.
    pub best_net: String,
    pub best_net_rate: f64,
}

impl CsvRow for CompareBandRow {}
