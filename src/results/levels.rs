//! How each level plays: the per-level table `analysis/levels.csv` (each tested setting's
//! move-quality figures from its `analysis.csv` row, beside its Elo).

use serde::de::Error as _;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::analysis::AnalysisRow;
use super::csvfile::{field_message, CsvRow};

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

/// Where a level's Elo comes from. For a subject setting `elo` is the fitted curve's Elo at its
/// `t` (band from `fit_curve.csv`) and `elo_measured` its own rating (`fit_points.csv`); for a
/// pool member `elo` is its rating in `pool.csv` and `t`, `elo_measured` are empty.
#[derive(Debug, Clone, PartialEq, Deserialize)]
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

/// One row of `analysis/levels.csv`: a level's Elo beside its `analysis.csv` row, which the
/// table holds whole so that the figures have one record. The file shows the level's columns,
/// the player as `name`, then a chosen part of the figures (see the `Serialize` impl) with two
/// ratios: `losing_equal_ratio`, the blunder rate in losing positions over that in equal ones,
/// and `drop_losing_equal_ratio`, the same for material drops (a loss of 300 cp or more, which
/// unlike Lichess's blunder can happen when losing). Read back, the figures the file leaves out
/// take [`AnalysisRow`]'s defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelRow {
    pub level: LevelElo,
    pub analysis: AnalysisRow,
}

impl CsvRow for LevelRow {}

impl LevelRow {
    /// The player, as analysis.csv names it.
    pub fn name(&self) -> &str {
        &self.analysis.player
    }

    /// Blunders in losing positions over those in equal ones ([`state_ratio`]).
    pub fn losing_equal_ratio(&self) -> Option<f64> {
        state_ratio(
            self.analysis.blunder_rate_losing,
            self.analysis.blunder_rate_equal,
        )
    }

    /// Material drops in losing positions over those in equal ones ([`state_ratio`]).
    pub fn drop_losing_equal_ratio(&self) -> Option<f64> {
        state_ratio(
            self.analysis.drop_rate_losing,
            self.analysis.drop_rate_equal,
        )
    }
}

/// Writes the fields of `$from` named, as columns of the same names.
macro_rules! columns {
    ($row:ident, $from:expr, $($field:ident),+) => {
        $($row.serialize_field(stringify!($field), &$from.$field)?;)+
    };
}

/// levels.csv's columns, in order; numbers as csv writes an `f64` (not analysis.csv's four
/// decimals).
impl Serialize for LevelRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (e, a) = (&self.level, &self.analysis);
        let mut r = s.serialize_struct("LevelRow", 44)?;
        r.serialize_field("kind", &e.kind)?;
        r.serialize_field("name", &a.player)?;
        columns!(r, e, t, knobs, elo, elo_lower, elo_upper);
        columns!(r, e, elo_measured, measured_lower, measured_upper);
        columns!(r, a, games, moves, acpl, acpl_lower, acpl_upper);
        columns!(r, a, accuracy, accuracy_lower, accuracy_upper);
        columns!(
            r,
            a,
            inaccuracy_rate,
            inaccuracy_rate_lower,
            inaccuracy_rate_upper
        );
        columns!(r, a, mistake_rate, mistake_rate_lower, mistake_rate_upper);
        columns!(r, a, blunder_rate, blunder_rate_lower, blunder_rate_upper);
        columns!(
            r,
            a,
            blunder_rate_equal,
            blunder_rate_equal_lower,
            blunder_rate_equal_upper
        );
        columns!(
            r,
            a,
            blunder_rate_losing,
            blunder_rate_losing_lower,
            blunder_rate_losing_upper
        );
        r.serialize_field("losing_equal_ratio", &self.losing_equal_ratio())?;
        columns!(
            r,
            a,
            drop_rate_equal,
            drop_rate_equal_lower,
            drop_rate_equal_upper
        );
        columns!(
            r,
            a,
            drop_rate_losing,
            drop_rate_losing_lower,
            drop_rate_losing_upper
        );
        r.serialize_field("drop_losing_equal_ratio", &self.drop_losing_equal_ratio())?;
        columns!(r, a, top1, top1_lower, top1_upper);
        r.end()
    }
}

/// A row read by column name: the level's columns as [`LevelElo`], the rest as [`AnalysisRow`]
/// (`name` read as its `player`; the ratios are worked out again, not read).
impl<'de> Deserialize<'de> for LevelRow {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cells = std::collections::BTreeMap::<String, String>::deserialize(d)?;
        let headers: csv::StringRecord = cells
            .keys()
            .map(|k| if k == "name" { "player" } else { k.as_str() })
            .collect();
        let record: csv::StringRecord = cells.values().collect();
        let read = |e: csv::Error| match e.kind() {
            csv::ErrorKind::Deserialize { err, .. } => {
                D::Error::custom(field_message(&headers, &record, err))
            }
            _ => D::Error::custom(e),
        };
        Ok(LevelRow {
            level: record.deserialize(Some(&headers)).map_err(read)?,
            analysis: record.deserialize(Some(&headers)).map_err(read)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{read_csv, write_csv};

    const HEADER: &str = "kind,name,t,knobs,elo,elo_lower,elo_upper,elo_measured,measured_lower,measured_upper,games,moves,acpl,acpl_lower,acpl_upper,accuracy,accuracy_lower,accuracy_upper,inaccuracy_rate,inaccuracy_rate_lower,inaccuracy_rate_upper,mistake_rate,mistake_rate_lower,mistake_rate_upper,blunder_rate,blunder_rate_lower,blunder_rate_upper,blunder_rate_equal,blunder_rate_equal_lower,blunder_rate_equal_upper,blunder_rate_losing,blunder_rate_losing_lower,blunder_rate_losing_upper,losing_equal_ratio,drop_rate_equal,drop_rate_equal_lower,drop_rate_equal_upper,drop_rate_losing,drop_rate_losing_lower,drop_rate_losing_upper,drop_losing_equal_ratio,top1,top1_lower,top1_upper";
    /// Rows of a calibration's levels.csv: a subject setting, one with no ratios (no blunder or
    /// drop when equal), a pool member (no t, no measured Elo).
    const ROWS: [&str; 3] = [
        "subject,skillcal_t-0.3000,-0.3,LimitNodes=1;ScoreInaccuracy=1027,509.31196809200554,462.20361960710113,556.4371010482223,513.020513723424,449.63944395045036,576.4015834963975,40,1482,162.359,140.3193,185.0755,74.4591,71.623,77.0789,0.4831,0.4338,0.5302,0.3003,0.2618,0.3412,0.1869,0.1501,0.2254,0.2388,0.1834,0.3,0.0168,0.0071,0.0307,0.07035175879396983,0.1254,0.0863,0.1732,0.0923,0.0617,0.1259,0.7360446570972885,0.168,0.1504,0.1846",
        "subject,skillcal_t0.8000,0.8,LimitNodes=198668;ScoreInaccuracy=17,2365.5183686723913,2323.722338189263,2407.174647397423,2293.164635887755,2195.588376834745,2390.7408949407654,8,515,27.1825,23.5614,31.0562,93.1936,92.0779,93.9937,0.1243,0.0895,0.166,0.0214,0.0023,0.0429,0.0039,0.0,0.0105,0.0,0.0,0.0,0.0,0.0,0.0,,0.0,0.0,0.0,0.0,0.0,0.0,,0.3864,0.3423,0.4445",
        "pool,fairy11.1-skill-12,,Hash=16;Skill Level=-12;Threads=1,386.6128329492387,347.90813431578994,425.3175315826874,,,,80,3556,176.9044,160.5235,194.7254,74.1019,71.5915,76.4238,0.4587,0.4216,0.4987,0.2891,0.2558,0.3251,0.205,0.176,0.2377,0.2293,0.1906,0.2708,0.0137,0.0044,0.024,0.05974705625817706,0.1297,0.0985,0.1642,0.0847,0.0602,0.1156,0.6530454895913647,0.097,0.0891,0.1057",
    ];

    fn temp(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("skillcal-level-row-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_levels_csv_reads_and_writes_back_to_the_same_bytes() {
        let dir = temp("bytes");
        let text = format!("{HEADER}\n{}\n", ROWS.join("\n"));
        let (input, output) = (dir.join("in.csv"), dir.join("out.csv"));
        std::fs::write(&input, &text).unwrap();
        let rows: Vec<LevelRow> = read_csv(&input).unwrap();
        write_csv(&output, &rows).unwrap();
        let written = std::fs::read_to_string(&output).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(written, text);
        let pool = &rows[2];
        assert_eq!(pool.name(), "fairy11.1-skill-12");
        assert_eq!((pool.level.kind, pool.level.t), (LevelKind::Pool, None));
        assert_eq!(pool.level.knobs, "Hash=16;Skill Level=-12;Threads=1");
        assert_eq!(
            (pool.analysis.games, pool.analysis.acpl),
            (80, Some(176.9044))
        );
        assert_eq!(rows[1].losing_equal_ratio(), None, "no blunders when equal");
    }

    #[test]
    fn a_bad_figure_names_its_column() {
        let dir = temp("bad");
        let path = dir.join("levels.csv");
        let bad = ROWS[0].replacen(",162.359,", ",lots,", 1);
        assert_ne!(bad, ROWS[0]);
        std::fs::write(&path, format!("{HEADER}\n{bad}\n")).unwrap();
        let e = read_csv::<LevelRow>(&path).unwrap_err().to_string();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(e.contains("levels.csv:2:"), "{e}");
        assert!(e.contains("column `acpl`: `lots` is not a number"), "{e}");
    }
}
